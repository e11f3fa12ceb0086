/* workloads/workload_aub.h - what the GPGPU (workload.c, workload7.c) and 3D
 * (workload3d.c, workload3d_gen4.c) builders share when they write a
 * capture: for Gen8/Gen9 the GGTT layout of the ring and the logical
 * context, and the execlist submission of one batch (notes/aub-format.md:
 * Mesa's intel_dump_gpu writes the same ring, context image and ELSP
 * writes); for Gen4 and Gen7 the legacy form (workload_aub_legacy). */
#ifndef GTSIM_WORKLOADS_WORKLOAD_AUB_H
#define GTSIM_WORKLOADS_WORKLOAD_AUB_H

#include <stddef.h>
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

/* The legacy capture's layout (workload_aub_legacy): GTT page i ->
 * physical WORKLOAD_LEGACY_PHYS + i pages, the render ring at GTT
 * WORKLOAD_LEGACY_RING. The Gen7 builders put their window of state and
 * buffers at WORKLOAD_GTT7_BASE. */
#define WORKLOAD_GTT7_BASE 0x00100000u
#define WORKLOAD_LEGACY_PHYS 0x00200000u
#define WORKLOAD_LEGACY_RING 0x00020000u

/* Places the kernels of one assembled file one after the other from image
 * offset from_off, each at a 64-byte boundary (Kernel Start Pointers are
 * 64-byte aligned): a kernel ends with its EOT send (opcode send 0x31 or
 * sendc 0x32 in bits 6:0, End Of Thread in bit 127: Gen4's descriptor bit
 * 31 and Gen7's native form alike, as intel-gen4asm writes them). Their
 * offsets go to at[]; the count, or -1 when they do not fit before limit. */
int workload_place_kernels(uint8_t *image, uint32_t from_off, uint32_t limit,
                           const uint8_t *code, size_t len, uint32_t *at, uint32_t max);

/* A legacy capture (Gen4 and Gen7: ../shared/notes/aub-format.md §2.5,
 * §3.3, as intel_dump_gpu writes them for those machines): the header with
 * pci_id and name, 4-byte GGTT entries mapping GTT page i to physical
 * WORKLOAD_LEGACY_PHYS + i pages (as Mesa's), the image's `pages` pages written at GTT
 * gtt_base, and a render ring at GTT WORKLOAD_LEGACY_RING holding MI_BATCH_BUFFER_START
 * of the batch at GTT batch_gtt. out_aub is gzip'd when it ends in .gz.
 * 0, or -1 and err. */
int workload_aub_legacy(const char *out_aub, uint32_t pci_id, const char *name,
                        const uint8_t *image, uint32_t gtt_base, uint32_t pages,
                        uint32_t batch_gtt, struct gt_error *err);

#endif
