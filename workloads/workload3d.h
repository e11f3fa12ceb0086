/* workloads/workload3d.h - the project's own Gen9 3D workload: the pixel
 * fill-rate microbenchmark of `make microbench` (issue 17 item 6), written as
 * an AUB capture in the form workloads/workload.h describes (memtrace,
 * execlist submission, 4-level PPGTT) by workloads/workload3d.c.
 *
 * One draw: a blorp-style RECTLIST (3 vertices, VS/HS/DS/GS disabled, no
 * clipping, no viewport transform: the vertices are in pixels) covering the
 * whole UBENCH_FILL_WIDTH x UBENCH_FILL_HEIGHT B8G8R8A8_UNORM Y-tiled render
 * target at UBENCH_FILL_RT_VA (binding table entry 0), shaded by the SIMD16
 * pixel shader workloads/kernels/ubench-fill.gen9.g4a, which writes the
 * constant colour UBENCH_FILL_R/G/B/A (floats) to every pixel. The command
 * sequence and its values follow Mesa's blorp draws in the real skl_tri
 * capture (../shared/traces/intel/skl/skl_tri.aubinator.txt lines 82-500:
 * PIPELINE_SELECT, L3CNTLREG, STATE_BASE_ADDRESS, push constant allocation;
 * lines 3726-4776: the partial resolve draw's full 3D state, 3DPRIMITIVE and
 * the flushing PIPE_CONTROLs). Before the draw the render target holds
 * UBENCH_FILL_BACKGROUND (its B, G, R, A bytes) in every pixel.
 *   "ubench-fill":       blending off: every pixel becomes the colour;
 *   "ubench-fill-blend": BLEND_STATE entry 0 blends SRC_ALPHA, INV_SRC_ALPHA,
 *                        ADD (colour and alpha): every pixel becomes
 *                        colour x A + background x (1 - A), so the back end
 *                        reads the render target as well.
 * Gen7 (ValleyView, configs/gen7-vlv.cfg; gen 7): the same draw in Gen7's
 * state forms after crocus's blorp draw in the real byt_tri capture
 * (../shared/traces/intel/byt/byt_tri.aubinator.txt L74-1590), written as a
 * legacy AUB (4-byte GTT entries, data at GTT addresses, the batch started
 * from the render ring; ../shared/notes/aub-format.md §2.5, §3.3), the window
 * at GTT 0x100000 (the render target at GTT 0x200000). The build writes
 * both (ubench-fill.gen7.aub.gz, ubench-fill-blend.gen7.aub.gz); the test
 * checks both images.
 */
#ifndef GTSIM_WORKLOADS_WORKLOAD3D_H
#define GTSIM_WORKLOADS_WORKLOAD3D_H

#include <stdint.h>

#include "fabric/error.h"

#define UBENCH_FILL_WIDTH 1024u
#define UBENCH_FILL_HEIGHT 1024u
#define UBENCH_FILL_PIXELS (UBENCH_FILL_WIDTH * UBENCH_FILL_HEIGHT)
#define UBENCH_FILL_RT_VA 0x10100000ull
/* The pixel shader's colour (its immediates; keep the two in step). */
#define UBENCH_FILL_R 0.2f
#define UBENCH_FILL_G 0.4f
#define UBENCH_FILL_B 0.8f
#define UBENCH_FILL_A 0.6f
/* The render target's contents before the draw, as the bytes B, G, R, A of a
 * B8G8R8A8_UNORM pixel. */
#define UBENCH_FILL_BACKGROUND_B 0x20u
#define UBENCH_FILL_BACKGROUND_G 0x40u
#define UBENCH_FILL_BACKGROUND_R 0x60u
#define UBENCH_FILL_BACKGROUND_A 0x80u

/*
 * "gs-twice" (Gen7 only, issue 14: the ext suite's geometry-shader test in a
 * Gen7 capture of our own): the same legacy Gen7 submission, one TRILIST draw
 * of GEN7_GS_TRIANGLES triangles (GEN7_GS_VERTICES: x, y in pixels, z, then
 * an RGBA colour per vertex; VF with one vertex buffer, two elements) through
 * a pass-through vec4 VS, a DUAL_OBJECT vec4 GS that emits each triangle
 * twice - as it came and moved by (GEN7_GS_OFFSET_X, GEN7_GS_OFFSET_Y) pixels
 * - and a SIMD16 PS that interpolates the colour (perspective barycentrics,
 * pln) into a GEN7_GS_WIDTH x GEN7_GS_HEIGHT B8G8R8A8 Y-tiled render target
 * that held GEN7_GS_BACKGROUND_*. The three kernels are one file,
 * workloads/kernels/gs-twice.gen7.g4a. Clipping and the viewport transform
 * are off (the positions are pixels, w = 1), culling none, no depth buffer.
 * The output order is triangle 0, its copy, triangle 1, its copy, ...
 * (later ones cover earlier ones).
 */
#define GEN7_GS_WIDTH 160u
#define GEN7_GS_HEIGHT 128u
#define GEN7_GS_TRIANGLES 3u
#define GEN7_GS_VERTICES                                                                     \
    {                                                                                        \
        { 8, 8, 0, 1, 0, 0, 1 }, { 56, 12, 0, 0, 1, 0, 1 }, { 20, 60, 0, 0, 0, 1, 1 },       \
        { 64, 8, 0, 1, 1, 0, 1 }, { 100, 30, 0, 0, 1, 1, 1 }, { 70, 60, 0, 1, 0, 1, 1 },     \
        { 8, 70, 0, 1, 0.5f, 0.25f, 1 }, { 60, 80, 0, 0.25f, 1, 0.5f, 1 },                   \
        { 24, 120, 0, 0.5f, 0.25f, 1, 1 },                                                   \
    }
/* The GS's offset (its immediates; keep the two in step). */
#define GEN7_GS_OFFSET_X 40.0f
#define GEN7_GS_OFFSET_Y 4.0f
#define GEN7_GS_BACKGROUND_B 0x10u
#define GEN7_GS_BACKGROUND_G 0x20u
#define GEN7_GS_BACKGROUND_R 0x30u
#define GEN7_GS_BACKGROUND_A 0xffu

/* Writes "ubench-fill" or "ubench-fill-blend" for Gen9 or Gen7 with the pixel shader
 * in kernel_hex (intel-gen4asm output), or "gs-twice" for Gen7 with its three
 * kernels in kernel_hex, to out_aub (gzip when it ends in .gz).
 * 0, or -1 and err. */
int workload3d_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                     struct gt_error *err);

#endif
