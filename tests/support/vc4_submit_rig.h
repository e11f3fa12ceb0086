/* tests/support/vc4_submit_rig.h - a vc4 submit played through the loader (units/vc4_host/
 * vc4_submit.h: validation, relocation, render list generation) into a memory, and its binning
 * and rendering lists run by the control list executor (units/vc4_v3d/vc4_cle.h) with the 3D
 * pipeline behind it (vc4_3d.h), functionally, both threads stepped in turn. The rig the
 * vc4_3d, vc4_cle and vc4_msaa suites share. Test-only. */
#ifndef GTSIM_TESTS_VC4_SUBMIT_RIG_H
#define GTSIM_TESTS_VC4_SUBMIT_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"
#include "fabric/memory.h"
#include "units/vc4_host/vc4_submit.h"
#include "units/vc4_v3d/vc4_3d.h"
#include "units/vc4_v3d/vc4_cle.h"

#define VC4_RIG_TRI "tests/data/vc4/vc4_tri.vc4dump.gz"

struct vc4_submit_rig {
    struct vc4_dump dump;
    struct vc4_placement placement;
    struct vc4_job job;
    struct gpu_memory *mem;
    struct vc4_3d *pipe;
    struct vc4_cle *cle;
    int opened;                    /* what vc4_submit_rig_close has to free */
};

/* Reads the dump at `path` (or parses `bytes`, taken over: freed with the dump, as
 * vc4_dump_parse does), prepares submit 0 as the kernel would and writes the job's regions
 * into a new memory; the CLE and pipeline are made but not started. 0, or -1 with the
 * loader's message in err (the rig then needs only vc4_submit_rig_close). */
int vc4_submit_rig_open(struct vc4_submit_rig *r, const char *path, struct gt_error *err);
int vc4_submit_rig_open_bytes(struct vc4_submit_rig *r, uint8_t *bytes, size_t size,
                              struct gt_error *err);
/* the decompressed bytes of a dump file (caller frees; NULL when unreadable) */
uint8_t *vc4_submit_rig_inflate(const char *path, size_t *size);
/* the GPU address of the first copy of `bytes` in the job's regions at a 4-byte step (0: none) */
uint32_t vc4_submit_rig_find(const struct vc4_submit_rig *r, const void *bytes, size_t size);
/* hands both lists to their threads (CA, then EA, seed Tables 49-54) and steps thread 0 and
 * thread 1 in turn until both are idle or max_steps; the steps taken */
unsigned vc4_submit_rig_run(struct vc4_submit_rig *r, unsigned max_steps);
/* the 32-bit word of pixel (x, y) of a surface the stores wrote (rgba8888) */
uint32_t vc4_submit_rig_pixel(const struct vc4_submit_rig *r, unsigned surface, uint32_t x,
                              uint32_t y);
void vc4_submit_rig_close(struct vc4_submit_rig *r);

#endif
