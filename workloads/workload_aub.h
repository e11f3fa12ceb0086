/* workloads/workload_aub.h - what the GPGPU (workload.c, workload7.c) and 3D
 * (workload3d.c) builders share when they write a capture: for Gen8/Gen9 the
 * GGTT layout of the ring and the logical context, and the execlist
 * submission of one batch (notes/aub-format.md: Mesa's intel_dump_gpu
 * writes the same ring, context image and ELSP writes); for Gen7 the legacy
 * capture (workload_aub_write_gen7). */
#ifndef GTSIM_WORKLOADS_WORKLOAD_AUB_H
#define GTSIM_WORKLOADS_WORKLOAD_AUB_H

#include <stdint.h>

#include "fabric/aub.h"
#include "fabric/error.h"

#define WORKLOAD_RING_GGTT 0x0000ull
#define WORKLOAD_LRCA_GGTT 0x2000ull
#define WORKLOAD_PML4_PHYS 0x00200000ull   /* the PPGTT's PML4; its tables follow */

/* One 64-bit little-endian value at physical address phys. */
int workload_aub_w64(struct aub_writer *w, uint64_t phys, uint64_t v, struct gt_error *err);

/* The ring (MI_BATCH_BUFFER_START of batch_va through the PPGTT, then
 * MI_NOOP), the context image restoring the ring registers and the PPGTT
 * root, and the ELSP writes that submit it. 0, or -1 and err. */
int workload_aub_submit(struct aub_writer *w, uint64_t batch_va, struct gt_error *err);

/* Gen7 (ValleyView) captures are legacy AUBs (../shared/notes/aub-format.md
 * §2.5, §3.3; the form of the real byt_* captures): 4-byte GTT entries, GTT
 * page i -> physical WORKLOAD_GTT7_PHYS + i pages (as Mesa's), the data
 * written at GTT addresses, the batch started from the render ring (at GTT
 * WORKLOAD_GTT7_RING) by MI_BATCH_BUFFER_START in GGTT space. The builders
 * put their window of state and buffers at WORKLOAD_GTT7_BASE. */
#define WORKLOAD_GTT7_BASE 0x00100000u
#define WORKLOAD_GTT7_PHYS 0x00200000u
#define WORKLOAD_GTT7_RING 0x00020000u

/* Writes out_aub (gzip when it ends in .gz): the legacy header (ValleyView's
 * PCI id 0x0f31, application name), GTT entries for every page up to
 * gtt_base + pages pages, the pages of image at gtt_base, and the ring
 * starting the batch at GTT batch_gtt. 0, or -1 and err. */
int workload_aub_write_gen7(const char *out_aub, const char *name, uint32_t gtt_base,
                            const uint8_t *image, uint32_t pages, uint32_t batch_gtt,
                            struct gt_error *err);

#endif
