/* workloads/workload_aub.h - what the GPGPU (workload.c) and 3D
 * (workload3d.c) builders share when they write a Gen8/Gen9 capture: the
 * GGTT layout of the ring and the logical context, and the execlist
 * submission of one batch (notes/aub-format.md: Mesa's intel_dump_gpu
 * writes the same ring, context image and ELSP writes). */
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

#endif
