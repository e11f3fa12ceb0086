/* workloads/workload3d.h - the project's own 3D workloads: the pixel
 * fill-rate microbenchmark of `make microbench` (issue 17 item 6), written as
 * an AUB capture in the form workloads/workload.h describes (memtrace,
 * execlist submission, 4-level PPGTT) by workloads/workload3d.c, and (below
 * the fill's constants) the Gen7 counterparts of the ext suite's gs, xfb and
 * tess tests (issue 14; gs-quads, xfb-tri and tess-quad its scenes exactly),
 * run by tests/integration/test_gen7_3d.c, of its
 * strip_fan, instanced, blend_stencil and multi_rt tests, run by
 * tests/integration/test_gen7_ext.c, and the Gen4 counterparts of its
 * strip_fan, instanced and blend_stencil (written by workload3d_gen4.c, run
 * by tests/integration/test_gen4_ext.c).
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

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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

/*
 * "gs-quads" (Gen7 only): the ext suite's gs test
 * (../shared/traces/ext/app/gltrace_ext.c test_gs) exactly, programmed as
 * crocus programs a ValleyView draw: a 64x64 R8G8B8A8 target cleared to
 * 0.1 (GEN7_GS_QUAD_CLEAR), one POINTLIST draw of GEN7_GS_QUADS points
 * (gen7_gs_quad_point(): a_pos (x, y) then a_attr RGBA, 24 bytes), a
 * pass-through VS, a DUAL_OBJECT GS (TRISTRIP out, max_vertices 4) emitting
 * per point the strip (-h, -h), (+h, -h), (-h, +h), (+h, +h) around it, h =
 * GEN7_GS_QUAD_HALF (the test's uniform u_half, pushed to the GS as one
 * register by 3DSTATE_CONSTANT_GS),
 * the +h (top) pair with the point's RGB and the -h (bottom) pair with it
 * halved (alpha 1), the clipper and SF's viewport transform as the ext
 * scenes below (memory row y = GL row y), and the interpolating PS.
 * Kernels: workloads/kernels/gs-quads.gen7.g4a.
 */
#define GEN7_GS_QUADS 16u
#define GEN7_GS_QUAD_HALF 0.15f     /* u_half, the GS's push constant */
#define GEN7_GS_QUAD_SIZE 64u
#define GEN7_GS_QUAD_CLEAR 0.1f     /* R, G and B; alpha 1 */

/* Point n of gs-quads, test_gs's pts[n]: x, y, then R, G, B, A - a 4 x 4
 * grid 0.5 apart from (-0.75, -0.75), each channel 1 or 0.2 by bits 0-2
 * of n. */
static inline void gen7_gs_quad_point(uint32_t n, float out[6])
{
    out[0] = -0.75f + 0.5f * (float)(n % 4u);
    out[1] = -0.75f + 0.5f * (float)(n / 4u);
    out[2] = (n & 1u) ? 1.0f : 0.2f;
    out[3] = (n & 2u) ? 1.0f : 0.2f;
    out[4] = (n & 4u) ? 1.0f : 0.2f;
    out[5] = 1.0f;
}

/*
 * "xfb-tri" (Gen7 only): the ext suite's xfb test (../shared/traces/ext/
 * app/gltrace_ext.c test_xfb) exactly, programmed as crocus programs a
 * ValleyView draw: one TRILIST draw of the GEN7_XFB_TRIANGLES * 3 vec4
 * vertices GEN7_XFB_VERTICES (a_pos, 16 bytes each; a second element
 * carries VertexID) through a VS computing o_a = a_pos * 2 + (1, 0, -1,
 * 0.5) and o_b = dot(a_pos.xy, a_pos.xy) + gl_VertexID, stream output on
 * (SOL Gen7: 3DSTATE_SO_DECL_LIST of o_a.xyzw and o_b.x INTERLEAVED,
 * 3DSTATE_SO_BUFFER of pitch GEN7_XFB_PITCH, SO_WRITE_OFFSET0 loaded with 0,
 * Rendering Disable: GL_RASTERIZER_DISCARD) into a buffer of
 * GEN7_XFB_BUFFER_FLOATS floats at GTT GEN7_XFB_BUFFER_GTT pre-filled with
 * GEN7_XFB_FILL. The TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query as crocus
 * runs it: a PIPE_CONTROL (CS stall) and SO_NUM_PRIMS_WRITTEN0's two
 * dwords stored by MI_STORE_REGISTER_MEM at GEN7_XFB_QUERY_GTT + 8 before
 * the draw (start) and + 16 after it (end), then the first qword (crocus's
 * snapshots_landed flag) set to 1 by MI_STORE_DATA_IMM; the result is end
 * - start.
 * Kernels: workloads/kernels/xfb-tri.gen7.g4a (VS, PS).
 */
#define GEN7_XFB_TRIANGLES 2u
#define GEN7_XFB_VERTICES                                                                    \
    {                                                                                        \
        { -0.5f, -0.5f, 0.0f, 1.0f }, { 0.5f, -0.5f, 0.25f, 1.0f }, { 0.0f, 0.5f, 0.5f, 1.0f },  \
        { -0.25f, 0.75f, -0.125f, 1.0f }, { 0.75f, 0.25f, 0.375f, 1.0f },                   \
        { -0.875f, -0.625f, 1.0f, 2.0f },                                                    \
    }
#define GEN7_XFB_SIZE 64u           /* the test's FBO (not cleared, never drawn) */
#define GEN7_XFB_PITCH 20u
#define GEN7_XFB_BUFFER_FLOATS 40u
#define GEN7_XFB_BUFFER_GTT 0x00141000u
#define GEN7_XFB_FILL (-1234.5f)
#define GEN7_XFB_QUERY_GTT (GEN7_XFB_BUFFER_GTT + 0x100u)
#define GEN7_XFB_QUERY_FILL 0xdeadbeefu     /* the query's 24 bytes before the batch */

/*
 * "tess-tri" (Gen7 only, issue 14: the ext suite's tessellation test in a
 * Gen7 capture of our own): the same submission, one PATCHLIST_3 draw of
 * GEN7_TESS_PATCHES triangle patches (GEN7_TESS_VERTICES, the layout of
 * GEN7_GS_VERTICES; the colours are not used) through the same VS, a
 * SINGLE_PATCH HS that reads the three control points' positions from the
 * URB and writes a TRI-domain Patch Header with every factor
 * GEN7_TESS_FACTOR, TE (INTEGER partitioning, TRI_CW), a SIMD4x2 DS placing
 * each domain point at U P0 + V P1 + W P2 with the colour (U, V, W, 1), and
 * the same interpolating PS, into the same render target and background.
 * Kernels: workloads/kernels/tess-tri.gen7.g4a.
 */
#define GEN7_TESS_PATCHES 2u
#define GEN7_TESS_FACTOR 2.0f
#define GEN7_TESS_VERTICES                                                                   \
    {                                                                                        \
        { 8, 8, 0, 0, 0, 0, 1 }, { 120, 16, 0, 0, 0, 0, 1 }, { 16, 100, 0, 0, 0, 0, 1 },     \
        { 152, 40, 0, 0, 0, 0, 1 }, { 150, 124, 0, 0, 0, 0, 1 }, { 60, 122, 0, 0, 0, 0, 1 }, \
    }

/*
 * "tess-quad" (Gen7 only, issue 14 item 5): the ext suite's tess test
 * (../shared/traces/ext/app/gltrace_ext.c test_tess) exactly, programmed as
 * crocus programs a ValleyView draw: a 64x64 R8G8B8A8 target cleared to
 * 0.1 (GEN7_TESS_QUAD_CLEAR), one PATCHLIST_4 draw of the quad patch
 * GEN7_TESS_QUAD_PATCH ((x, y) clip-space floats, z 0 and w 1 from VF)
 * through a pass-through VS, a SINGLE_PATCH HS writing a QUAD-domain Patch
 * Header with every factor GEN7_TESS_QUAD_LEVEL (TCS outer = inner = 4),
 * TE (QUAD, INTEGER partitioning for equal_spacing, TRI_CW output: the
 * hardware's winding is the reverse of GL's ccw), a SIMD4x2 DS computing
 * the TES's bilinear position, z = 0.5 sin(3.14159 u) sin(3.14159 v) and the
 * colour (u, v, parity of the 4x4 grid vertex, 1), the clipper and SF's
 * viewport transform as the ext scenes below (memory row y = GL row y), and
 * the interpolating PS: 25 domain points, 32 triangles. Kernels:
 * workloads/kernels/tess-quad.gen7.g4a.
 */
#define GEN7_TESS_QUAD_SIZE 64u
#define GEN7_TESS_QUAD_LEVEL 4.0f       /* the HS's immediates; keep the two in step */
#define GEN7_TESS_QUAD_CLEAR 0.1f       /* R, G and B; alpha 1 */
#define GEN7_TESS_QUAD_PATCH { -0.8f, -0.8f, 0.8f, -0.8f, 0.8f, 0.8f, -0.8f, 0.8f }

/*
 * The ext suite's plain draws in Gen7 form (issue 14 item 5): the scenes of
 * ../shared/traces/ext/app/gltrace_ext.c (same vertices, colours, state and
 * sizes) programmed as crocus programs a ValleyView draw: positions in clip
 * space (w = 1) through the clipper (Clip Enable, guardband and viewport
 * tests) and SF's viewport transform (SF_CLIP_VIEWPORT: x = (W/2)(x + 1),
 * y = (H/2)(y + 1), the FBO's unflipped rows - byt_tri's m11 is +H/2), the
 * scissor on (the window, or the draw's scissor), R8G8B8A8_UNORM Y-tiled
 * render targets (GL_RGBA8), a vec4 VS writing the VUE header, position and
 * colour, and a SIMD16 PS interpolating the colour (perspective
 * barycentrics). Memory row y is GL window row y (row 0 the bottom).
 * glClear is not replayed: the targets (and the stencil buffer) hold the
 * clear values before the first draw. Each vertex is x, y, then R, G, B, A
 * (GEN7_EXT_FLOATS floats); the one PS colour attribute is the vertex
 * colour.
 *
 * "strip-fan" (64x64, clear 0, 0, 0.2, 1): TRISTRIP (6 v), TRIFAN (10 v),
 * LINELIST (8 v, width 1), LINESTRIP (5 v), POINTLIST (5 v, the VS writing
 * the point width 4 into the VUE header: Point Width Source = Vertex).
 * Kernels: workloads/kernels/strip-fan.gen7.g4a (VS, PS).
 */
#define GEN7_EXT_FLOATS 6u
#define GEN7_STRIP_FAN_SIZE 64u
#define GEN7_STRIP_FAN_CLEAR { 0.0f, 0.0f, 0.2f, 1.0f }
#define GEN7_STRIP_FAN_POINT_WIDTH 4.0f     /* the VS's immediate; keep the two in step */
enum { GEN7_STRIP_FAN_STRIP = 0, GEN7_STRIP_FAN_FAN = 6, GEN7_STRIP_FAN_LINES = 16,
       GEN7_STRIP_FAN_LINE_STRIP = 24, GEN7_STRIP_FAN_POINTS = 29, GEN7_STRIP_FAN_VERTICES = 34 };

/* gltrace_ext.c test_strip_fan's vertex list (its VTX calls, in order). */
static inline void gen7_strip_fan_vertices(float v[GEN7_STRIP_FAN_VERTICES][GEN7_EXT_FLOATS])
{
    const double w = GEN7_STRIP_FAN_SIZE, h = GEN7_STRIP_FAN_SIZE;
    uint32_t n = 0;
#define GEN7_EXT_VTX(X, Y, R, G, B)                                                          \
    do {                                                                                     \
        float *q_ = v[n++];                                                                  \
        q_[0] = (X); q_[1] = (Y); q_[2] = (R); q_[3] = (G); q_[4] = (B); q_[5] = 1.0f;       \
    } while (0)
    for (int i = 0; i < 6; i++) {
        float x = -0.9f + 0.4f * (float)(i / 2), y = (i & 1) ? 0.85f : 0.15f;
        GEN7_EXT_VTX(x, y, (x + 0.9f) / 0.8f, (y - 0.15f) / 0.7f, 0.2f);
    }
    GEN7_EXT_VTX(0.5f, 0.5f, 1, 1, 1);
    for (int i = 0; i <= 8; i++) {
        float a = (float)(i % 8) * 3.14159265f / 4.0f;
        GEN7_EXT_VTX(0.5f + 0.35f * cosf(a), 0.5f + 0.35f * sinf(a), (float)((i % 3) == 0),
                     (float)((i % 3) == 1), (float)((i % 3) == 2));
    }
    /* horizontal through the centres of row H/4, vertical through the
     * centres of column 3W/16 (pixel-centre NDC), two diagonals */
    float hy = (float)(((h / 4) + 0.5) * 2.0 / h - 1.0);
    float vx = (float)(((3 * w / 16) + 0.5) * 2.0 / w - 1.0);
    GEN7_EXT_VTX(-0.9f, hy, 0, 1, 1); GEN7_EXT_VTX(-0.1f, hy, 0, 1, 1);
    GEN7_EXT_VTX(vx, -0.9f, 1, 0, 1); GEN7_EXT_VTX(vx, -0.1f, 1, 0, 1);
    GEN7_EXT_VTX(-0.9f, -0.9f, 1, 1, 0); GEN7_EXT_VTX(-0.1f, -0.1f, 1, 1, 0);
    GEN7_EXT_VTX(-0.9f, -0.1f, 1, 1, 1); GEN7_EXT_VTX(-0.1f, -0.9f, 1, 1, 1);
    for (int i = 0; i < 5; i++)
        GEN7_EXT_VTX(0.1f + 0.2f * (float)i, (i & 1) ? -0.1f : -0.9f, 1, 0.5f, 0);
    static const float point_x[5] = { -0.75f, -0.375f, 0.0f, 0.375f, 0.75f };
    for (int i = 0; i < 5; i++)
        GEN7_EXT_VTX(point_x[i], 0.0f, (i & 1) ? 0.0f : 1.0f, 1, (i & 1) ? 0.0f : 1.0f);
#undef GEN7_EXT_VTX
}

/*
 * "instanced" (128x128, clear 0.1, 0.1, 0.1, 1): one indexed TRILIST
 * (3DSTATE_INDEX_BUFFER, INDEX_WORD: 0 1 2 0 2 3) of 16 instances; vertex
 * buffer 0 the quad's corners (x, y), vertex buffer 1 per instance
 * (INSTANCEDATA, step rate 1: offset x, y, colour R, G, B, A); the VS places
 * corner * GEN7_INSTANCED_SCALE + offset. Kernels:
 * workloads/kernels/instanced.gen7.g4a.
 */
#define GEN7_INSTANCED_SIZE 128u
#define GEN7_INSTANCED_COUNT 16u
#define GEN7_INSTANCED_CLEAR { 0.1f, 0.1f, 0.1f, 1.0f }
#define GEN7_INSTANCED_SCALE 0.15f          /* the VS's immediate; keep the two in step */
#define GEN7_INSTANCED_QUAD { -1, -1, 1, -1, 1, 1, -1, 1 }
#define GEN7_INSTANCED_INDICES { 0, 1, 2, 0, 2, 3 }

/* Instance i: offset x, y, then R, G, B, A (test_instanced's inst[]). */
static inline void gen7_instanced_instance(uint32_t i, float out[GEN7_EXT_FLOATS])
{
    out[0] = -0.75f + 0.5f * (float)(i % 4);
    out[1] = -0.75f + 0.5f * (float)(i / 4);
    out[2] = (float)(i % 4) / 3.0f;
    out[3] = (float)(i / 4) / 3.0f;
    out[4] = (i & 1) ? 1.0f : 0.25f;
    out[5] = 1.0f;
}

/*
 * "blend-stencil" (64x64, clear 0.2, 0.2, 0.2, 1 and stencil 0; D24S8 as
 * Gen7 keeps it: a D24_UNORM_X8 depth buffer, tests off, and a separate
 * W-tiled S8 stencil buffer): test_blend_stencil's six draws, the uniform
 * colour carried as every vertex's colour (crocus would push it as a
 * constant; the PS sees the same value):
 *  1 triangle, colour writes off, stencil ALWAYS / REPLACE ref 1;
 *  2 full-screen strip, stencil EQUAL 1, blue;
 *  3 full-screen strip, stencil NOTEQUAL 1, ONE/ONE ADD, (0.4, 0.2, 0, 0);
 *  4 left-half strip, stencil off, DST_COLOR/ZERO, (0.5, 1, 1, 1);
 *  5 bottom-half strip, MAX, (0.5, 0.5, 0.5, 0.5);
 *  6 full-screen strip, blend off, scissor [40, 56) x [40, 56), only green
 *    written, white.
 * Kernels: strip-fan's.
 */
#define GEN7_BLEND_STENCIL_SIZE 64u
#define GEN7_BLEND_STENCIL_DRAWS 6u
#define GEN7_BLEND_STENCIL_CLEAR { 0.2f, 0.2f, 0.2f, 1.0f }
#define GEN7_BLEND_STENCIL_SCISSOR_MIN 40u
#define GEN7_BLEND_STENCIL_SCISSOR_MAX 56u  /* exclusive */
/* Draw d's positions (x, y pairs, GEN7_BLEND_STENCIL_FIRST[d] .. + COUNT[d]) and colours. */
#define GEN7_BLEND_STENCIL_POSITIONS                                                         \
    { -0.6f, -0.6f, 0.6f, -0.6f, 0.0f, 0.6f, -1, -1, 1, -1, -1, 1, 1, 1,                     \
      -1, -1, 0, -1, -1, 1, 0, 1, -1, -1, 1, -1, -1, 0, 1, 0 }
#define GEN7_BLEND_STENCIL_FIRST { 0, 3, 3, 7, 11, 3 }
#define GEN7_BLEND_STENCIL_COUNT { 3, 4, 4, 4, 4, 4 }
#define GEN7_BLEND_STENCIL_COLOURS                                                           \
    { { 1, 1, 1, 1 }, { 0, 0, 1, 1 }, { 0.4f, 0.2f, 0, 0 }, { 0.5f, 1, 1, 1 },                \
      { 0.5f, 0.5f, 0.5f, 0.5f }, { 1, 1, 1, 1 } }

/*
 * "multi-rt" (64x64): two render targets, binding table entries 0 and 1:
 * RT0 R8G8B8A8_UNORM cleared to (0.1, 0.2, 0.3, 1), RT1 R16G16B16A16_FLOAT
 * cleared to (-1, 0.5, 2, 1); one triangle (-0.8, -0.8), (0.8, -0.8),
 * (-0.8, 0.83); the VS makes uv = pos / 2 + 1/2 (the colour attribute
 * (u, v, 0.5, 1)), the PS writes o0 = (u, v, 0.5, 1) to RT0 and o1 =
 * (4u - 1, 4v - 1, 3, 0.25) to RT1 (two render target writes, the second
 * the last). Kernels: workloads/kernels/multi-rt.gen7.g4a.
 */
#define GEN7_MULTI_RT_SIZE 64u
#define GEN7_MULTI_RT_TRIANGLE { -0.8f, -0.8f, 0.8f, -0.8f, -0.8f, 0.83f }
#define GEN7_MULTI_RT_CLEAR0 { 0.1f, 0.2f, 0.3f, 1.0f }
#define GEN7_MULTI_RT_CLEAR1 { -1.0f, 0.5f, 2.0f, 1.0f }

/*
 * "mipmap" (128x128, clear 0.1, 0.1, 0.1, 1): gltrace_ext.c test_mipmap's
 * 64x64 R8G8B8A8_UNORM texture (gen7_mipmap_texel) with its whole mip chain
 * (7 levels), which the builder computes as glGenerateMipmap's blit does:
 * each texel of level n + 1 the average of the 2x2 texels of level n,
 * rounded to nearest (gen7_mipmap_chain; crocus's blorp blit samples the
 * four texels' centre bilinearly, the same value). The texture is Y-tiled
 * with the Gen7 2D mip layout (HALIGN_4, VALIGN_4); SAMPLER_STATE MIN/MAG
 * LINEAR, MIP LINEAR (LINEAR_MIPMAP_LINEAR). Two TRISTRIP draws of 4
 * vertices each (x, y, z, w clip position, then s, t: GEN7_MIPMAP_FLOATS
 * floats; gen7_mipmap_vertices), the left with WRAP (GL_REPEAT) on s and t,
 * the right with MIRROR (GL_MIRRORED_REPEAT); clip w 1 at the bottom, 5 at
 * the top. The VS passes the position and (s, t, 0, 1); the SIMD16 PS
 * interpolates s, t (perspective barycentrics) and sends a SIMD16 sample
 * message (binding table entry 1, sampler 0; the LOD from the subspans'
 * derivatives), writing what it returns. Kernels:
 * workloads/kernels/mipmap.gen7.g4a.
 */
#define GEN7_MIPMAP_SIZE 128u
#define GEN7_MIPMAP_CLEAR { 0.1f, 0.1f, 0.1f, 1.0f }
#define GEN7_MIPMAP_TEXTURE 64u
#define GEN7_MIPMAP_LEVELS 7u
#define GEN7_MIPMAP_FLOATS 6u
#define GEN7_MIPMAP_VERTICES 8u
/* the chain's texels: level n at offset gen7_mipmap_level_offset(n), side 64 >> n */
#define GEN7_MIPMAP_CHAIN_TEXELS (64u * 64u + 32u * 32u + 16u * 16u + 8u * 8u + 4u * 4u + 2u * 2u + 1u)

/* Texel (x, y) of level 0 (R, G, B, A): test_mipmap's t[]. */
static inline void gen7_mipmap_texel(uint32_t x, uint32_t y, uint8_t q[4])
{
    int c = (int)(((x >> 3) ^ (y >> 3)) & 1u);
    q[0] = c ? 255 : 0;
    q[1] = c ? 128 : 96;
    q[2] = c ? 0 : 255;
    q[3] = 255;
    if ((x & 15u) == 0 || (y & 15u) == 0)
        q[0] = q[1] = q[2] = 255;
    if (x >= 2 && x < 6 && y >= 2 && y < 6) {
        q[0] = 255;
        q[1] = 0;
        q[2] = 0;
    }
}

static inline uint32_t gen7_mipmap_level_offset(uint32_t level)
{
    uint32_t at = 0;
    for (uint32_t l = 0; l < level; l++)
        at += (GEN7_MIPMAP_TEXTURE >> l) * (GEN7_MIPMAP_TEXTURE >> l);
    return at;
}

/* The whole chain, RGBA texels, level after level (row 0 of each first). */
static inline void gen7_mipmap_chain(uint8_t (*t)[4])
{
    for (uint32_t y = 0; y < GEN7_MIPMAP_TEXTURE; y++)
        for (uint32_t x = 0; x < GEN7_MIPMAP_TEXTURE; x++)
            gen7_mipmap_texel(x, y, t[y * GEN7_MIPMAP_TEXTURE + x]);
    for (uint32_t l = 1; l < GEN7_MIPMAP_LEVELS; l++) {
        uint32_t side = GEN7_MIPMAP_TEXTURE >> l;
        const uint8_t (*up)[4] = (const uint8_t (*)[4])t + gen7_mipmap_level_offset(l - 1);
        uint8_t (*down)[4] = t + gen7_mipmap_level_offset(l);
        for (uint32_t y = 0; y < side; y++)
            for (uint32_t x = 0; x < side; x++)
                for (int c = 0; c < 4; c++) {
                    uint32_t sum = up[2 * y * 2 * side + 2 * x][c] +
                                   up[2 * y * 2 * side + 2 * x + 1][c] +
                                   up[(2 * y + 1) * 2 * side + 2 * x][c] +
                                   up[(2 * y + 1) * 2 * side + 2 * x + 1][c];
                    down[y * side + x][c] = (uint8_t)((sum + 2) / 4);
                }
    }
}

/* test_mipmap's two quads (strip order): x, y, z, w, s, t. */
static inline void gen7_mipmap_vertices(float v[GEN7_MIPMAP_VERTICES][GEN7_MIPMAP_FLOATS])
{
    const float wt = 5.0f, yb = -0.95f, yt = 0.9f, hw = 0.48f;
    for (int pl = 0; pl < 2; pl++) {
        float cx = pl ? 0.5f : -0.5f;
        const float q[4][GEN7_MIPMAP_FLOATS] = {
            { cx - hw, yb, 0, 1, -1, 0 },
            { cx + hw, yb, 0, 1, 1, 0 },
            { cx * wt - hw, yt * wt, 0, wt, -1, 4 },
            { cx * wt + hw, yt * wt, 0, wt, 1, 4 },
        };
        for (int k = 0; k < 4; k++)
            for (uint32_t c = 0; c < GEN7_MIPMAP_FLOATS; c++)
                v[4 * pl + k][c] = q[k][c];
    }
}

/*
 * "msaa" (64x64): test_msaa's white triangle into a 4x R8G8B8A8_UNORM
 * render target (MSFMT_MSS, no MCS) cleared to (0, 0, 0, 1):
 * 3DSTATE_MULTISAMPLE 4x at the standard pattern, sample mask 0xf, WM and
 * SF MSRASTMODE_ON_PATTERN with MSDISPMODE_PERPIXEL (strip-fan's PS, run
 * once a pixel, its write landing on the covered samples). Then the
 * resolve glBlitFramebuffer asks for, as a second draw: crocus's blorp
 * resolve reads each sample with ld2dms and averages; here a window-filling
 * strip through the same VS (blorp itself sends a RECTLIST with the VS
 * off) runs a PS that does that (four SIMD16 ld2dms, the mean) into a
 * single-sampled R8G8B8A8_UNORM target (binding table 1: entry 0 that
 * target, entry 1 the 4x surface). Kernels: workloads/kernels/msaa.gen7.g4a
 * (VS, PS, resolve PS).
 */
#define GEN7_MSAA_SIZE 64u
#define GEN7_MSAA_CLEAR { 0.0f, 0.0f, 0.0f, 1.0f }
#define GEN7_MSAA_TRIANGLE { -0.7f, -0.6f, 0.8f, -0.2f, -0.2f, 0.8f }

/*
 * "fill-heavy" (512x512, clear 0.05, 0.05, 0.1, 1 and depth 1.0):
 * test_fill_heavy's 2000 LCG triangles (gen7_fill_heavy_vertices: x, y, z
 * floats then R, G, B, A bytes, GEN7_FILL_HEAVY_PITCH bytes a vertex; VF
 * R32G32B32_FLOAT + R8G8B8A8_UNORM) against a Y-tiled D16_UNORM depth
 * buffer: draw 1 the first 1000, depth LESS with writes, blend SRC_ALPHA /
 * INV_SRC_ALPHA; draw 2 the other 1000, LEQUAL without depth writes,
 * SRC_ALPHA / ONE. Kernels: strip-fan's.
 */
#define GEN7_FILL_HEAVY_SIZE 512u
#define GEN7_FILL_HEAVY_TRIANGLES 2000u
#define GEN7_FILL_HEAVY_PITCH 16u
#define GEN7_FILL_HEAVY_CLEAR { 0.05f, 0.05f, 0.1f, 1.0f }

/* test_fill_heavy's vertex buffer (its LCG, in its order; the colour's four
 * draws in R, G, B, A order). */
static inline void gen7_fill_heavy_vertices(uint8_t *out)
{
    uint32_t s = 1;
#define GEN7_FILL_RND() (s = s * 1103515245u + 12345u, (float)((s >> 8) & 0xffffu) / 65535.0f)
    for (uint32_t t = 0; t < GEN7_FILL_HEAVY_TRIANGLES; t++) {
        float cx = GEN7_FILL_RND() * 2 - 1;
        float cy = GEN7_FILL_RND() * 2 - 1;
        float z = (float)((t * 7919u) % GEN7_FILL_HEAVY_TRIANGLES) / GEN7_FILL_HEAVY_TRIANGLES *
                      1.8f - 0.9f;
        uint8_t colour[4];
        colour[0] = (uint8_t)(GEN7_FILL_RND() * 255);
        colour[1] = (uint8_t)(GEN7_FILL_RND() * 255);
        colour[2] = (uint8_t)(GEN7_FILL_RND() * 255);
        colour[3] = (uint8_t)(128 + GEN7_FILL_RND() * 127);
        for (int k = 0; k < 3; k++) {
            float q[3];
            q[0] = cx + (GEN7_FILL_RND() * 2 - 1) * 0.06f;
            q[1] = cy + (GEN7_FILL_RND() * 2 - 1) * 0.06f;
            q[2] = z;
            uint8_t *v = out + GEN7_FILL_HEAVY_PITCH * (3 * t + (uint32_t)k);
            memcpy(v, q, sizeof q);
            memcpy(v + 12, colour, 4);
        }
    }
#undef GEN7_FILL_RND
}

/* Whether name is one of the Gen7 ext scenes above. */
static inline bool workload3d_is_ext7(const char *name)
{
    return strcmp(name, "strip-fan") == 0 || strcmp(name, "instanced") == 0 ||
           strcmp(name, "blend-stencil") == 0 || strcmp(name, "multi-rt") == 0 ||
           strcmp(name, "mipmap") == 0 || strcmp(name, "msaa") == 0 ||
           strcmp(name, "fill-heavy") == 0;
}

/*
 * The Gen4 (965G, configs/gen4-g965.cfg; gen 4) counterparts of the ext
 * suite's strip_fan, instanced and blend_stencil tests (issue 14 item 5),
 * written by workloads/workload3d_gen4.c as legacy captures (PCI 0x29a2,
 * the real g965_tri's) programming each draw as Mesa's driver does on the
 * 965 in g965_tri (../shared/traces/intel/g965/g965_tri.aubinator.txt):
 * STATE_BASE_ADDRESS, 3DSTATE_PIPELINED_POINTERS to VS_STATE, GS_STATE (GS
 * off), CLIP_STATE (NORMAL: trivially accepted objects pass without a
 * thread), SF_STATE + SF_VIEWPORT, WM_STATE, CC_STATE + CC_VIEWPORT, URB_FENCE
 * + CS_URB_STATE, the binding table and SURFACE_STATE of the render target,
 * VERTEX_BUFFERS / VERTEX_ELEMENTS, 3DPRIMITIVE, MI_FLUSH. Kernels (all
 * ours): workloads/kernels/strip-fan.gen4.g4a. The render target is
 * R8G8B8A8_UNORM, X-tiled, GEN4_EXT_PITCH bytes a row, filled with the GL
 * test's clear colour before the draws (the clear is not drawn); the
 * viewport maps NDC to the whole target with GL's rows (row 0 = NDC y -1).
 *  - "strip-fan": 64 x 64, background (0, 0, 0.2, 1); gen4_strip_fan_vertex():
 *    TRISTRIP 0-5, TRIFAN 6-15, LINELIST 16-23, LINESTRIP 24-28, POINTLIST
 *    29-33 (SF_STATE point width 4, lines width 1);
 *  - "instanced": 128 x 128, background (0.1, 0.1, 0.1, 1); one indexed
 *    TRILIST of 6 indices (GEN4_INSTANCED_INDICES into the quad
 *    GEN4_INSTANCED_QUAD) with 16 instances (VERTEX_BUFFER_STATE INSTANCEDATA,
 *    step rate 1: gen4_instance(): offset, colour), the instancing VS;
 *  - "blend-stencil": 64 x 64 with a D24_UNORM_S8_UINT buffer (stencil 0),
 *    background (0.2, 0.2, 0.2, 1); the six draws of the GL test
 *    (GEN4_BLEND_STENCIL_VERTICES; each draw's colour a constant vertex
 *    element, pitch 0, as Mesa's clear feeds its colour);
 *  - "multi-rt": the Gen7 "multi-rt" scene (GEN7_MULTI_RT_*): RT1
 *    R16G16B16A16_FLOAT at binding table entry 1, the two-target PS;
 *  - "fill-heavy": below.
 */
#define GEN4_EXT_PITCH 512u             /* one X tile wide */
#define GEN4_STRIP_FAN_SIZE 64u
#define GEN4_STRIP_FAN_VERTICES 34u
#define GEN4_INSTANCED_SIZE 128u
#define GEN4_INSTANCES 16u
#define GEN4_INSTANCED_QUAD { -1, -1, 1, -1, 1, 1, -1, 1 }
#define GEN4_INSTANCED_INDICES { 0, 1, 2, 0, 2, 3 }
#define GEN4_INSTANCED_SCALE 0.15f      /* the instancing VS's immediate; keep the two in step */
#define GEN4_BLEND_STENCIL_SIZE 64u
#define GEN4_BLEND_STENCIL_VERTICES                                                           \
    {                                                                                         \
        -0.6f, -0.6f, 0.6f, -0.6f, 0.0f, 0.6f, -1, -1, 1, -1, -1, 1, 1, 1, -1, -1, 0, -1, -1, \
            1, 0, 1, -1, -1, 1, -1, -1, 0, 1, 0,                                              \
    }

/* Vertex n of strip-fan (gltrace_ext.c test_strip_fan, 64 x 64): x, y (NDC),
 * then R, G, B, A. */
static inline void gen4_strip_fan_vertex(uint32_t n, float out[6])
{
    float x = 0, y = 0, r = 0, g = 0, b = 0;
    const float size = (float)GEN4_STRIP_FAN_SIZE;
    if (n < 6) {                        /* strip: colour linear in x (red) and y (green) */
        x = -0.9f + 0.4f * (float)(n / 2);
        y = (n & 1) ? 0.85f : 0.15f;
        r = (x + 0.9f) / 0.8f;
        g = (y - 0.15f) / 0.7f;
        b = 0.2f;
    } else if (n < 16) {                /* fan: white centre, closed octagon */
        if (n == 6) {
            x = y = 0.5f;
            r = g = b = 1;
        } else {
            uint32_t i = n - 7;
            float a = (float)(i % 8) * 3.14159265f / 4.0f;
            x = 0.5f + 0.35f * cosf(a);
            y = 0.5f + 0.35f * sinf(a);
            r = (i % 3) == 0;
            g = (i % 3) == 1;
            b = (i % 3) == 2;
        }
    } else if (n < 24) {                /* lines: through pixel centres, two diagonals */
        static const float lines[8][5] = {
            { -0.9f, 0, 0, 1, 1 }, { -0.1f, 0, 0, 1, 1 }, { 0, -0.9f, 1, 0, 1 },
            { 0, -0.1f, 1, 0, 1 }, { -0.9f, -0.9f, 1, 1, 0 }, { -0.1f, -0.1f, 1, 1, 0 },
            { -0.9f, -0.1f, 1, 1, 1 }, { -0.1f, -0.9f, 1, 1, 1 },
        };
        const float *l = lines[n - 16];
        float hy = (float)((size / 4 + 0.5) * 2.0 / size - 1.0);
        float vx = (float)((3 * size / 16 + 0.5) * 2.0 / size - 1.0);
        x = n == 18 || n == 19 ? vx : l[0];
        y = n == 16 || n == 17 ? hy : l[1];
        r = l[2];
        g = l[3];
        b = l[4];
    } else if (n < 29) {                /* line strip: zig-zag */
        uint32_t i = n - 24;
        x = 0.1f + 0.2f * (float)i;
        y = (i & 1) ? -0.1f : -0.9f;
        r = 1;
        g = 0.5f;
    } else {                            /* points on y = 0, centred on pixel corners */
        static const float ptx[5] = { -0.75f, -0.375f, 0.0f, 0.375f, 0.75f };
        uint32_t i = (n - 29) % 5;
        x = ptx[i];
        r = b = (i & 1) ? 0.0f : 1.0f;
        g = 1;
    }
    out[0] = x;
    out[1] = y;
    out[2] = r;
    out[3] = g;
    out[4] = b;
    out[5] = 1;
}

/* Instance n of instanced: offset x, y, then R, G, B, A. */
static inline void gen4_instance(uint32_t n, float out[6])
{
    out[0] = -0.75f + 0.5f * (float)(n % 4);
    out[1] = -0.75f + 0.5f * (float)(n / 4);
    out[2] = (float)(n % 4) / 3.0f;
    out[3] = (float)(n / 4) / 3.0f;
    out[4] = (n & 1) ? 1.0f : 0.25f;
    out[5] = 1.0f;
}

/* "fill-heavy" (Gen4, 512 x 512 with a D16_UNORM depth buffer cleared to
 * 1.0, background (0.05, 0.05, 0.1, 1)): gltrace_ext.c test_fill_heavy's
 * 2000 triangles (gen4_fill_heavy_triangles(): its LCG, centres and
 * half-extent 0.06, a distinct flat z each, an RGBA8 colour) as vertices
 * of 16 bytes (x, y, z float, colour R8G8B8A8_UNORM); draw 1: triangles
 * 0-999, depth LESS with writes, blend SRC_ALPHA / ONE_MINUS_SRC_ALPHA;
 * draw 2: 1000-1999, LEQUAL without depth writes, SRC_ALPHA / ONE. */
#define GEN4_FILL_HEAVY_SIZE 512u
#define GEN4_FILL_HEAVY_TRIANGLES 2000u

struct gen4_fill_vertex {
    float x, y, z;
    uint8_t colour[4];
};

/* The GL test's vertex data: 3 x GEN4_FILL_HEAVY_TRIANGLES vertices. */
static inline void gen4_fill_heavy_triangles(struct gen4_fill_vertex *v)
{
    uint32_t s = 1;
#define GEN4_FILL_RND() (s = s * 1103515245u + 12345u, (float)((s >> 8) & 0xffffu) / 65535.0f)
    for (uint32_t t = 0; t < GEN4_FILL_HEAVY_TRIANGLES; t++) {
        float cx = GEN4_FILL_RND() * 2 - 1, cy = GEN4_FILL_RND() * 2 - 1;
        float z = (float)((t * 7919u) % GEN4_FILL_HEAVY_TRIANGLES) / GEN4_FILL_HEAVY_TRIANGLES *
                      1.8f - 0.9f;
        uint8_t col[4];
        col[0] = (uint8_t)(GEN4_FILL_RND() * 255);
        col[1] = (uint8_t)(GEN4_FILL_RND() * 255);
        col[2] = (uint8_t)(GEN4_FILL_RND() * 255);
        col[3] = (uint8_t)(128 + GEN4_FILL_RND() * 127);
        for (uint32_t k = 0; k < 3; k++) {
            struct gen4_fill_vertex *q = &v[t * 3 + k];
            q->x = cx + (GEN4_FILL_RND() * 2 - 1) * 0.06f;
            q->y = cy + (GEN4_FILL_RND() * 2 - 1) * 0.06f;
            q->z = z;
            memcpy(q->colour, col, 4);
        }
    }
#undef GEN4_FILL_RND
}

/* Writes the Gen4 workload `name` ("strip-fan", "instanced", "blend-stencil",
 * "multi-rt", "fill-heavy")
 * with the kernels of kernel_hex (strip-fan.gen4.g4a assembled) to out_aub.
 * 0, or -1 and err. */
int workload3d_gen4_build(const char *name, const char *kernel_hex, const char *out_aub,
                          struct gt_error *err);

/*
 * The Gen4 counterpart of the ext suite's mipmap test (issue 14; gltrace_ext.c
 * test_mipmap, ../shared/traces/ext/README.md), written by
 * workloads/workload3d_gen4_tex.c with the kernels of strip-fan.gen4.g4a
 * followed by mipmap.gen4.g4a: "mipmap": 128 x 128, background (0.1, 0.1,
 * 0.1, 1); a 64 x 64 R8G8B8A8_UNORM texture (gen4_mipmap_texel) with its
 * seven levels, each the 2 x 2 box filter of the one above in unorm8 (what
 * glGenerateMipmap's blit computes at the exact half-texel positions of a
 * level halving: the mean of four texels, rounded), linear, MIPLAYOUT_BELOW;
 * SAMPLER_STATE MIN = MAG = LINEAR, MIP LINEAR (LINEAR_MIPMAP_LINEAR); two
 * TRISTRIPs of 4 vertices (gen4_mipmap_vertex: clip-space position with w 1
 * at the near edge, 5 at the far one, and s in [-1, 1], t in [0, 4]), the
 * left one sampled with WRAP (GL's REPEAT), the right one with MIRROR (GL's
 * MIRRORED_REPEAT), s and t interpolated perspective-correct.
 */
#define GEN4_MIPMAP_SIZE 128u
#define GEN4_MIPMAP_TEXTURE 64u         /* the base level's width and height */
#define GEN4_MIPMAP_LEVELS 7u           /* 64 .. 1 */
#define GEN4_MIPMAP_VERTICES 8u

/* Texel (x, y) of the base level (row y at t = (y + 0.5) / 64, as GL's row
 * y): R, G, B, A bytes. An 8 x 8 checker of orange (255, 128, 0) and blue
 * (0, 96, 255), white lines every 16 texels, a red 4 x 4 marker at (2, 2). */
static inline void gen4_mipmap_texel(uint32_t x, uint32_t y, uint8_t out[4])
{
    bool odd = ((x >> 3) ^ (y >> 3)) & 1u;
    out[0] = odd ? 255 : 0;
    out[1] = odd ? 128 : 96;
    out[2] = odd ? 0 : 255;
    out[3] = 255;
    if ((x & 15u) == 0 || (y & 15u) == 0)
        out[0] = out[1] = out[2] = 255;
    if (x >= 2 && x < 6 && y >= 2 && y < 6) {
        out[0] = 255;
        out[1] = out[2] = 0;
    }
}

/* The texture's levels (level l is GEN4_MIPMAP_TEXTURE >> l texels square,
 * in level[l][y][x]): level 0 from gen4_mipmap_texel, each further one the
 * rounded mean of the 2 x 2 texels above it (glGenerateMipmap's result). */
static inline void gen4_mipmap_levels(uint8_t level[GEN4_MIPMAP_LEVELS][GEN4_MIPMAP_TEXTURE]
                                                  [GEN4_MIPMAP_TEXTURE][4])
{
    for (uint32_t y = 0; y < GEN4_MIPMAP_TEXTURE; y++)
        for (uint32_t x = 0; x < GEN4_MIPMAP_TEXTURE; x++)
            gen4_mipmap_texel(x, y, level[0][y][x]);
    for (uint32_t l = 1; l < GEN4_MIPMAP_LEVELS; l++)
        for (uint32_t y = 0; y < GEN4_MIPMAP_TEXTURE >> l; y++)
            for (uint32_t x = 0; x < GEN4_MIPMAP_TEXTURE >> l; x++)
                for (uint32_t c = 0; c < 4; c++)
                    level[l][y][x][c] = (uint8_t)((level[l - 1][2 * y][2 * x][c] +
                                                   level[l - 1][2 * y][2 * x + 1][c] +
                                                   level[l - 1][2 * y + 1][2 * x][c] +
                                                   level[l - 1][2 * y + 1][2 * x + 1][c] + 2) /
                                                  4);
}

/* Vertex n of mipmap (0-3 the left strip, 4-7 the right): clip-space x, y,
 * z, w, then s, t. The near edge (w 1) at y -0.95, the far one (w 5) at NDC
 * y 0.9, each plane 0.96 wide at the near edge and 0.192 at the far one,
 * centred on x -0.5 / 0.5. */
static inline void gen4_mipmap_vertex(uint32_t n, float out[6])
{
    const float far_w = 5.0f, near_y = -0.95f, far_y = 0.9f, half_width = 0.48f;
    float cx = n >= 4 ? 0.5f : -0.5f;
    bool right = n & 1u, far = n & 2u;
    float w = far ? far_w : 1.0f;
    out[0] = cx * w + (right ? half_width : -half_width);
    out[1] = far ? far_y * far_w : near_y;
    out[2] = 0.0f;
    out[3] = w;
    out[4] = right ? 1.0f : -1.0f;
    out[5] = far ? 4.0f : 0.0f;
}

/* Writes the Gen4 workload "mipmap" with the kernels of kernel_hex
 * (strip-fan.gen4.g4a then mipmap.gen4.g4a, assembled as one) to out_aub.
 * 0, or -1 and err. */
int workload3d_gen4_tex_build(const char *name, const char *kernel_hex, const char *out_aub,
                              struct gt_error *err);

/* Writes "ubench-fill" or "ubench-fill-blend" for Gen9 or Gen7 with the pixel shader
 * in kernel_hex (intel-gen4asm output), or "gs-twice", "gs-quads" (VS, GS,
 * PS), "xfb-tri" (VS, PS), "tess-tri", "tess-quad" (VS, HS, DS, PS) for Gen7
 * with those kernels in kernel_hex, or the ext scenes "strip-fan", "instanced",
 * "blend-stencil" (strip-fan's kernels), "multi-rt" for Gen7 with their two
 * (VS, PS), to out_aub (gzip when it ends in .gz).
 * 0, or -1 and err. */
int workload3d_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                     struct gt_error *err);

#endif
