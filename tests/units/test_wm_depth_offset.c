/* tests/units/test_wm_depth_offset.c - the global depth offset (issue 12
 * item 1) from SF's setup library to the bytes WM's early depth writes: a
 * triangle with a depth slope set up with Global Depth Offset (seed 003
 * L15719-15758), rasterized into a D24_UNORM_X8 and a D32_FLOAT buffer
 * (LESS over a cleared buffer: every covered pixel written). Expected depths
 * are computed here: z at the pixel centre from the vertices' plane, plus
 * Bias = Constant * r + Scale * MaxDepthSlope with r = 1 / (2^24 - 1) for
 * D24 and 2^(exponent(max z) - 23) for D32_FLOAT, clamped by Clamp; D24 =
 * round(z * (2^24 - 1)) with the X8 bits kept. Coverage: the triangle (1,1)
 * (13,1) (1,9) holds the centres with x > 1, y > 1, 2x + 3y < 29 (no centre
 * lies on an edge). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/primitive.h"
#include "units/sf/sf_setup.h"

#define DEPTH_BASE 0x100000u

/* byte offset of a 4-byte element of a Y-tiled surface one tile (128 B) wide */
static uint64_t ytile32(uint32_t x, uint32_t y)
{
    uint32_t u = 4 * x;
    return (uint64_t)(y / 32) * 4096 + (u / 16) * 512 + (y % 32) * 16 + u % 16;
}

/* z at (X, Y) of the triangle's vertices (1,1,0.2) (13,1,0.5) (1,9,0.3):
 * dz/dX = 0.3 / 12, dz/dY = 0.1 / 8; MaxDepthSlope = 0.025 */
static double plane_z(double X, double Y)
{
    return 0.2 + 0.025 * (X - 1) + 0.0125 * (Y - 1);
}

/* One draw of the triangle with the offset into a fresh rig; checks every
 * pixel of the 16x16 corner against z + bias (or untouched outside). */
static void offset_draw(uint32_t format, float constant, float scale, float clamp, double bias)
{
    struct wm_rig r = wm_rig_new();
    static uint8_t ones[8192];
    memset(ones, 0xff, sizeof ones);
    gpu_memory_write(r.mem, DEPTH_BASE, ones, sizeof ones, NULL);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = format;
    d->SurfaceBaseAddress = DEPTH_BASE;
    d->SurfacePitch = 127;
    d->Width = 31;
    d->Height = 31;
    d->DepthWriteEnable = true;
    wm_rig_to_wm(&r, m);
    if (format == 1) {              /* D32_FLOAT cleared to 1.0 */
        for (uint32_t y = 0; y < 32; y++)
            for (uint32_t x = 0; x < 32; x++) {
                float one = 1.0f;
                gpu_memory_write(r.mem, DEPTH_BASE + ytile32(x, y), &one, 4, NULL);
            }
    }
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(&r, m);
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                              .no_rt = true, .statistics = true });
    struct sf_setup_state st = {
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = 8191, .clip_y_max = 8191,
        .depth_offset = true, .depth_offset_constant = constant,
        .depth_offset_scale = scale, .depth_offset_clamp = clamp,
        .depth_format = format,
    };
    struct sf_setup_vertex v[3] = { { 1, 1, 0.2f, 1 }, { 13, 1, 0.5f, 1 }, { 1, 9, 0.3f, 1 } };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    p.topology = PRIM_TRILIST;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 100);
    CU_ASSERT_EQUAL(r.td->count, 0);
    uint32_t inside = 0;
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            double X = x + 0.5, Y = y + 0.5;
            bool in = X > 1 && Y > 1 && 2 * X + 3 * Y < 29;
            inside += in;
            uint8_t b[4];
            gpu_memory_read(r.mem, DEPTH_BASE + ytile32(x, y), b, 4, NULL);
            uint32_t got = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                           (uint32_t)b[3] << 24;
            double z = plane_z(X, Y) + bias;
            if (format == 3) {
                uint32_t want = in ? (0xff000000u | (uint32_t)lrint(z * 16777215.0)) : 0xffffffffu;
                CU_ASSERT_TRUE(got >= want - (in ? 1u : 0u) && got <= want + (in ? 1u : 0u));
            } else {
                float f;
                memcpy(&f, &got, 4);
                CU_ASSERT_DOUBLE_EQUAL(f, in ? z : 1.0, 1e-6);
            }
        }
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.depth_writes"), inside);
    CU_ASSERT_TRUE(inside >= 30);
    sim_destroy(r.sim);
}

static void test_depth_offset_unorm24(void)
{
    /* Bias = 1000 / (2^24 - 1) + 2 * 0.025 */
    offset_draw(3, 1000.0f, 2.0f, 0.0f, 1000.0 / 16777215.0 + 0.05);
    /* a positive Clamp limits it */
    offset_draw(3, 1000.0f, 2.0f, 0.02f, 0.02);
    /* a negative bias, clamped from below by a negative Clamp */
    offset_draw(3, -1000.0f, -2.0f, -0.01f, -0.01);
}

static void test_depth_offset_float32(void)
{
    /* max z 0.5 = 1.0 * 2^-1: r = 2^(-1 - 23) */
    offset_draw(1, 1000.0f, 2.0f, 0.0f, 1000.0 * ldexp(1.0, -24) + 0.05);
}

static const struct test_case cases[] = {
    { "depth offset into D24_UNORM_X8 through early depth, clamps", test_depth_offset_unorm24 },
    { "depth offset into D32_FLOAT: the exponent rule", test_depth_offset_float32 },
    { 0 }
};
TEST_SUITE(wm_depth_offset, cases);
