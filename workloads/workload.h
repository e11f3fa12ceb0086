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
 *   "tickets":   in[i] = workload_histogram_input(i); every element's lane
 *                increments in[0] (untyped atomic INC with return) and writes
 *                what it got to out[idx]: out is a permutation of in[0]'s
 *                first value + 0 .. 1023, the same one on any host thread count
 *                and tick order (issue 19's determinism of same-cycle atomics).
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

/* ---- Gen7 (ValleyView, configs/gen7-vlv.cfg) compute workloads (issue 14
 * item 5): the ext suite's compute tests (../shared/traces/ext/README.md,
 * app/gltrace_ext.c tests 10-12, 14) as captures of our own, written by
 * workloads/workload7.c as legacy Gen7 AUBs (workload_aub.h) with the command
 * forms of the real byt_compute capture; kernels in
 * workloads/kernels/cs-*.gen7.g4a (SIMD16; what each computes is at its
 * top). Buffer i (binding table index i) sits at GTT
 * WORKLOAD7_BUFFER_GTT(i, stride), stride = the largest buffer rounded up to
 * 64 KiB (workload7_stride). Inputs are gltrace_ext.c's:
 *   "cs-reduce":  in = WORKLOAD7_REDUCE_GROUPS x 4096 floats
 *                 workload7_reduce_input(i); out = one float per group
 *                 (filled with -1.0 first) = the sum of its 4096 inputs.
 *   "cs-atomic":  vals = WORKLOAD7_ATOMIC_N values from workload7_lcg (seed
 *                 12345, each x >> 8); hist = 64 zeroed dwords, hist[min(v &
 *                 63, (v >> 6) & 63)]++ per value; counter (BTI 2) = 1 dword,
 *                 incremented per value with bit 12 set.
 *   "cs-sgemm", "cs-sgemm-tiled": A, B 64 x 64 (workload7_sgemm_a/b), C
 *                 (BTI 2 plain, BTI 3 tiled, as the GLSL bindings; filled
 *                 with -999.0 first) = A B.
 *   "cs-big":     c = a + b over WORKLOAD7_BIG_N floats, a[i] = i & 4095,
 *                 b[i] = (i >> 12) * 0.5 (BTI 0, 1 -> 2); scaled down from
 *                 the ext test's 1,048,576 (WORKLOAD7_BIG_FULL_N, written as
 *                 "cs-big-full" only by `make test-slow`) to keep the test
 *                 fast: the same kernel and walker, 16x fewer groups. */
#define WORKLOAD7_THREADS_MAX 16u              /* SIMD16 threads of a 256-invocation group */
#define WORKLOAD7_REDUCE_GROUPS 16u
#define WORKLOAD7_REDUCE_PER_GROUP 4096u
#define WORKLOAD7_ATOMIC_N 65536u
#define WORKLOAD7_ATOMIC_BINS 64u
#define WORKLOAD7_SGEMM_N 64u
#define WORKLOAD7_BIG_N 65536u
#define WORKLOAD7_BIG_FULL_N 1048576u
#define WORKLOAD7_BUFFERS_GTT 0x00200000ull

static inline uint32_t workload7_stride(uint32_t largest_bytes)
{
    return (largest_bytes + 0xffffu) & ~0xffffu;
}

#define WORKLOAD7_BUFFER_GTT(i, stride) (WORKLOAD7_BUFFERS_GTT + (uint64_t)(i) * (stride))

static inline float workload7_reduce_input(uint32_t i)
{
    return (float)((i * 7u) % 13u) - 6.0f + (float)((i >> 12) & 3u);
}

/* The ext test's LCG: the next value of its state x (the input is x >> 8). */
static inline uint32_t workload7_lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

static inline float workload7_sgemm_a(uint32_t row, uint32_t col)
{
    return (float)((int)((row * 3u + col * 5u) % 7u) - 3);
}

static inline float workload7_sgemm_b(uint32_t row, uint32_t col)
{
    return (float)((int)((row * 2u + col) % 5u) - 2);
}

static inline float workload7_big_a(uint32_t i) { return (float)(i & 4095u); }
static inline float workload7_big_b(uint32_t i) { return (float)(i >> 12) * 0.5f; }

/* Writes Gen7 compute workload `name` (above) with the kernel in kernel_hex to
 * out_aub. 0, or -1 and err. */
int workload7_build(const char *name, const char *kernel_hex, const char *out_aub,
                    struct gt_error *err);

/* Writes workload `name` ("histogram", "histogram-indirect", "reduce", "sgemm",
 * "sgemm256", "ubench-flops", "ubench-l3bw", "ubench-slmbw", "ubench-drambw",
 * "ubench-texrate"; "ubench-fill" and "ubench-fill-blend" go to
 * workload3d_build) for generation gen (8 or 9) with the kernel in kernel_hex
 * (intel-gen4asm output) to out_aub (gzip when it ends in .gz). 0, or -1 and err. */
int workload_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                   struct gt_error *err);

#endif
