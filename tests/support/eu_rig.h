/* tests/support/eu_rig.h - driving real EUs (and a TD) alone through their
 * ports: a stub shared function that answers SENDs, kernel loading into the
 * machine's memory, and dispatch messages. Test-only; the stub has no
 * hardware meaning beyond "a shared function that replies". */
#ifndef GTSIM_TESTS_EU_RIG_H
#define GTSIM_TESTS_EU_RIG_H

#include <stdint.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/unit.h"
#include "isa/intel/eu_encode.h"

#define STUB_MAX_EOT 256

/* Kind "test_sf": port "in" takes MSG_SEND; a SEND with rlen > 0 (and no EOT)
 * is answered on "out" with rlen registers: register r, dword k = payload
 * register (r mod (mlen + ex_mlen)), dword k, plus param `add`. Every EOT message's
 * payload is recorded. */
struct stub_sf {
    uint32_t add;                       /* param */
    struct port *in, *out;
    struct msg *held;
    uint64_t sends, eots, writebacks;
    uint32_t last_desc, last_ex_desc, last_mask;
    uint8_t last_sfid, last_mlen, last_rlen, last_flags;
    uint32_t eot_first[STUB_MAX_EOT][8];    /* first payload register of each EOT */
    uint64_t eot_cycle[STUB_MAX_EOT];
    uint32_t last_eot[8][8];            /* the whole payload (up to 8 registers) of the last EOT */
    uint32_t last_send[16][8];          /* the payload (up to 16 registers) of the last other SEND */
};
extern const struct unit_ops stub_sf_ops;

/* Writes a kernel at a physical address of the sim's memory (made on first use). */
struct gpu_memory *rig_memory(struct sim *sim);
void rig_load(struct sim *sim, uint64_t address, const struct eu_enc_buf *kernel);

/* A dispatch message: kernel at inst_base + offset (physical), SIMD8 or 16,
 * nregs payload registers from regs (8 dwords each, may be NULL). */
struct msg *rig_dispatch_msg(struct sim *sim, uint64_t inst_base, uint32_t offset, unsigned simd,
                             const uint32_t (*regs)[8], unsigned nregs, uint32_t request_id,
                             uint8_t priority);

/* Loads a kernel file (raw or intel-gen4asm hex) at a physical address;
 * returns its length, 0 on error. */
size_t rig_load_file(struct sim *sim, uint64_t address, const char *path);

/* A stat's value, -1 when absent. */
double rig_stat(struct sim *sim, const char *path);

#endif
