/* workloads/workload.h - the project's own GPGPU workloads, written as AUB
 * captures (memtrace form, execlist submission with a 4-level PPGTT, as
 * Mesa's intel_dump_gpu writes them for Gen8/Gen9: notes/aub-format.md) with
 * kernels assembled by intel-gen4asm at build time (workloads/kernels/).
 *
 * Every workload is one GPGPU_WALKER of SIMD8 threads in groups of
 * WORKLOAD_GROUP_THREADS, each thread's CURBE register holding its index in
 * the group (dword 0). Buffers (PPGTT virtual addresses, for --dump):
 *   in  at WORKLOAD_IN_VA  (BTI 0), WORKLOAD_ELEMENTS uint32 values
 *   out at WORKLOAD_OUT_VA (BTI 1), WORKLOAD_OUT_BYTES bytes, zeroed
 * Inputs and what the kernels compute (a test recomputes them on the CPU):
 *   "histogram": in[i] = workload_histogram_input(i) (0..15);
 *                out[v] = how many in[i] == v, v = 0..15 (untyped atomic INC).
 *   "histogram-indirect": the same, dispatched by an indirect GPGPU_WALKER
 *                (zero dimensions in the command; GPGPU_DISPATCHDIMX/Y/Z loaded
 *                by MI_LOAD_REGISTER_IMM before it).
 *   "reduce":    in[i] = workload_reduce_input(i); groups of 32 elements;
 *                out[g * 4 + t] = in[32g] + ... + in[32g + 31] for every
 *                thread t of group g (SLM exchange, then a barrier).
 *   "sgemm":     C = A x B, row-major floats, M x K times K x N (the sizes
 *                below): A at WORKLOAD_SGEMM_A_VA (BTI 0), A[i] =
 *                workload_sgemm_a(i); B at WORKLOAD_SGEMM_B_VA (BTI 1), B[i] =
 *                workload_sgemm_b(i); C at WORKLOAD_SGEMM_C_VA (BTI 2). Groups
 *                of 4 threads compute 4 x 8 tiles, sharing their B panel
 *                through SLM after a barrier (workloads/kernels/gen_sgemm.py);
 *                each C element is sum over k of A[r][k] * B[k][c], products
 *                rounded before each add, k in order. Small integers make the
 *                sums exact.
 *   "sgemm256":  the same kernel and inputs with M = N = WORKLOAD_SGEMM256_MN
 *                (256) and the same K (64): 2048 groups, enough work to fill
 *                a GT3 (the bench's large problem; K stays 64 because the
 *                kernel keeps its A row in registers).
 *   "ubench-flops", "ubench-l3bw", "ubench-slmbw", "ubench-drambw",
 *   "ubench-texrate": the
 *                peak-rate microbenchmarks of `make microbench`
 *                (tools/microbench/microbench.c; kernels from
 *                workloads/kernels/gen_ubench.py, which says what each does):
 *                UBENCH_GROUPS groups of 4 threads (two waves of GT2's 168
 *                hardware threads; MEDIA_VFE_STATE allows UBENCH_MAX_THREADS),
 *                in at UBENCH_IN_VA (BTI 0, in[i] = i, UBENCH_IN_BYTES(name)
 *                bytes), out at UBENCH_OUT_VA (BTI 1, one dword per thread:
 *                ubench-flops 0.5 * UBENCH_FLOPS_ROUNDS as a float; the
 *                reads in[] at the thread's last read, lane 0; ubench-texrate
 *                samples in[] as a UBENCH_TEX_SIZE^2 R8G8B8A8_UNORM 2D
 *                texture, BTI 0, SAMPLER_STATE 0 bilinear, and writes the
 *                R of lane 0's last sample as a float).
 *   "ubench-fill", "ubench-fill-blend": the pixel fill-rate benchmark, a 3D
 *                workload (one RECTLIST draw over a render target): written
 *                by workloads/workload3d.c, described in workload3d.h.
 */
#ifndef GTSIM_WORKLOADS_WORKLOAD_H
#define GTSIM_WORKLOADS_WORKLOAD_H

#include <stdint.h>

#include "fabric/error.h"

#define WORKLOAD_ELEMENTS 1024u
#define WORKLOAD_GROUP_THREADS 4u
#define WORKLOAD_IN_VA 0x10100000ull
#define WORKLOAD_OUT_VA 0x10140000ull
#define WORKLOAD_OUT_BYTES 4096u

static inline uint32_t workload_histogram_input(uint32_t i)
{
    return (i * 2654435761u >> 13) & 15u;
}

static inline uint32_t workload_reduce_input(uint32_t i)
{
    return (i * 37u + 11u) % 1000u;
}

#define WORKLOAD_SGEMM_M 64u
#define WORKLOAD_SGEMM_N 64u
#define WORKLOAD_SGEMM_K 64u
#define WORKLOAD_SGEMM256_MN 256u  /* M = N; A, B, C each fit the 256 KB below */
#define WORKLOAD_SGEMM_A_VA 0x10100000ull
#define WORKLOAD_SGEMM_B_VA 0x10140000ull
#define WORKLOAD_SGEMM_C_VA 0x10180000ull

static inline float workload_sgemm_a(uint32_t i)
{
    return (float)((i * 7u) % 9u) - 4.0f;
}

static inline float workload_sgemm_b(uint32_t i)
{
    return (float)((i * 5u) % 7u) - 3.0f;
}

/* The microbenchmarks (workloads/kernels/gen_ubench.py has the same figures). */
#define UBENCH_GROUPS 84u
#define UBENCH_THREADS (UBENCH_GROUPS * WORKLOAD_GROUP_THREADS)
#define UBENCH_MAX_THREADS 168u
#define UBENCH_FLOPS_ROUNDS 128u        /* rounds of 8 SIMD16 MADs */
#define UBENCH_FLOPS_MADS (UBENCH_FLOPS_ROUNDS * 8u)
#define UBENCH_L3_READS 128u            /* 128-byte reads per thread, l3bw and slmbw */
#define UBENCH_DRAM_READS 32u           /* 128-byte reads per thread, drambw */
#define UBENCH_READ_BYTES 128u
#define UBENCH_TEX_SAMPLES 64u          /* SIMD8 bilinear sample messages per thread, texrate */
#define UBENCH_TEX_SIZE 64u             /* texrate: a 64 x 64 R8G8B8A8 texture = in[] (16 KB) */
#define UBENCH_IN_VA 0x10040000ull
#define UBENCH_OUT_VA 0x10038000ull
#define UBENCH_IN_BYTES_MAX (UBENCH_THREADS * UBENCH_DRAM_READS * UBENCH_READ_BYTES)

/* Writes workload `name` ("histogram", "histogram-indirect", "reduce", "sgemm",
 * "sgemm256", "ubench-flops", "ubench-l3bw", "ubench-slmbw", "ubench-drambw",
 * "ubench-texrate"; "ubench-fill" and "ubench-fill-blend" go to
 * workload3d_build) for generation gen (8 or 9) with the kernel in kernel_hex
 * (intel-gen4asm output) to out_aub (gzip when it ends in .gz). 0, or -1 and err. */
int workload_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                   struct gt_error *err);

#endif
