/* tests/units/test_wm.c - the Windower (units/wm) with catchers on its TD,
 * pixel back end and drained outputs: coverage of a triangle set up by SF's
 * setup library against the test's own edge test, the SIMD8 and SIMD16
 * payloads (R1 positions and masks, barycentrics computed here from the
 * vertex positions and 1/w, source depth, attribute deltas; seed 003
 * L16108-16383), the dispatch width rule (L16038), the pixel scoreboard
 * (L15229), early depth writing a tiled D16 surface, WM_HZ_OP depth clear
 * bytes in a Y-tiled D16 surface (tile layout computed here), state to the
 * pixel back ends held until the threads ended, the sync, bad input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/sf/sf_setup.h"
#include "units/wm/wm.h"

/* The test's own inside test for the triangle at (ox, oy): the centre
 * (i + .5, j + .5) relative to it with i + j + 1 < 4 (the hypotenuse is
 * neither a top nor a left edge: on it is out). */
static bool inside(int32_t i, int32_t j)
{
    return i >= 0 && j >= 0 && (double)i + 0.5 + (double)j + 0.5 < 4.0;
}

static float reg_f(const struct wm_catcher *c, uint32_t t, uint32_t reg, uint32_t dw)
{
    float f;
    memcpy(&f, &c->grf[t][reg][dw], 4);
    return f;
}

static void expected_bary(int32_t i, int32_t j, float *b1, float *b2, float *p1, float *p2,
                          float *z)
{
    double x = i + 0.5, y = j + 0.5;
    double l1 = x / 4, l2 = y / 4, l0 = 1 - l1 - l2;
    double q0 = l0 * 1.0, q1 = l1 * 0.5, q2 = l2 * 0.25, s = q0 + q1 + q2;
    *b1 = (float)l1;
    *b2 = (float)l2;
    *p1 = (float)(q1 / s);
    *p2 = (float)(q2 / s);
    *z = (float)(0.5 * l0 + 0.25 * l1 + 0.75 * l2);
}

static void test_simd8_payload_and_coverage(void)
{
    struct wm_rig r = wm_rig_new();
    /* perspective pixel (R2-3) + linear pixel (R4-5), source depth R6,
     * setup data from R7 */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .modes = 1 | 8, .source_depth = true,
                                    .attributes = true, .grf = { 7 }, .ksp = { 0x1000 },
                                    .statistics = true });
    struct setup_primitive p = wm_rig_triangle(8, 4);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 50);
    /* subspans in raster order with a pixel inside: (8,4), (10,4), (8,6) */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    uint32_t total_pixels = 0;
    uint32_t subspan = 0;
    for (int32_t sy = 0; sy < 4; sy += 2)
        for (int32_t sx = 0; sx < 4; sx += 2) {
            uint32_t mask = 0;
            for (uint32_t px = 0; px < 4; px++)
                if (inside(sx + (int32_t)(px & 1), sy + (int32_t)(px >> 1)))
                    mask |= 1u << px;
            if (!mask)
                continue;
            total_pixels += __builtin_popcount(mask);
            uint32_t t = subspan / 2, k = subspan % 2;
            subspan++;
            const struct eu_dispatch *d = &r.td->head[t];
            CU_ASSERT_EQUAL(d->simd, 8);
            CU_ASSERT_EQUAL(d->kernel_offset, 0x1000u);
            CU_ASSERT_EQUAL(d->ffid, (uint32_t)FFID_PS);
            CU_ASSERT_EQUAL(r.td->grf[t][1][2 + k], (uint32_t)(8 + sx) | (uint32_t)(4 + sy) << 16);
            CU_ASSERT_EQUAL((r.td->grf[t][1][7] >> (16 + 4 * k)) & 0xfu, mask);
            CU_ASSERT_EQUAL((r.td->grf[t][1][7] >> (4 * k)) & 0xfu, mask);
            CU_ASSERT_EQUAL((d->dmask >> (4 * k)) & 0xfu, 0xfu);
            for (uint32_t px = 0; px < 4; px++) {
                int32_t i = sx + (int32_t)(px & 1), j = sy + (int32_t)(px >> 1);
                if (!(mask & (1u << px)))
                    continue;
                float b1, b2, p1, p2, z;
                expected_bary(i, j, &b1, &b2, &p1, &p2, &z);
                uint32_t lane = 4 * k + px;
                CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, t, 2, lane), p1, 1e-5);
                CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, t, 3, lane), p2, 1e-5);
                CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, t, 4, lane), b1, 1e-5);
                CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, t, 5, lane), b2, 1e-5);
                CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, t, 6, lane), z, 1e-5);
            }
        }
    CU_ASSERT_EQUAL(subspan, 3);
    /* setup data: attribute a component c at R7 + 2a + c/2, dwords (c%2)*4:
     * a1, a2, 0, a0 */
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t reg = 7 + 2 * a + c / 2, dw = (c % 2) * 4;
            CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, reg, dw), 0.5 + c, 0);
            CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, reg, dw + 1), -1.0 - c, 0);
            CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, reg, dw + 2), 0.0, 0);
            CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, reg, dw + 3), 10.0 * a + c, 0);
        }
    CU_ASSERT_EQUAL(r.td->head[0].grf_count, 11u);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), total_pixels);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), total_pixels);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.threads8"), 2);
    sim_destroy(r.sim);
}

static void test_simd16_payload_and_width_rule(void)
{
    struct wm_rig r = wm_rig_new();
    /* 16 + 8 enabled: SIMD16 runs KSP[2] (grf start 2), SIMD8 KSP[0] (L16013-16024) */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .e16 = true, .modes = 1, .attributes = true,
                                    .grf = { 4, 0, 6 }, .ksp = { 0x100, 0x200, 0x300 } });
    /* an 8 x 2 rectangle at (0, 0): 4 subspans, all lit: one SIMD16 (n = 4 > 2) */
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 7;
    p.y_max = 1;
    p.barycentric[0] = (struct setup_plane){ 0, 0.125f, 0 };     /* b1 = x / 8 */
    p.barycentric[1] = (struct setup_plane){ 0, 0, 0.5f };       /* b2 = y / 2 */
    p.vertex_inverse_w[0] = p.vertex_inverse_w[1] = p.vertex_inverse_w[2] = 1.0f;
    p.attribute_count = 1;
    p.attributes[0][3] = (struct setup_plane){ 0.75f, 0, 0 };
    wm_rig_send_setup(&r, &p);
    /* then a 2 x 2 square at (16, 0): one subspan: SIMD8 */
    p.x_min = 16;
    p.x_max = 17;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 50);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    CU_ASSERT_EQUAL(r.td->head[0].simd, 16);
    CU_ASSERT_EQUAL(r.td->head[0].kernel_offset, 0x300u);
    CU_ASSERT_EQUAL(r.td->head[0].dmask, 0xffffu);
    CU_ASSERT_EQUAL(r.td->head[1].simd, 8);
    CU_ASSERT_EQUAL(r.td->head[1].kernel_offset, 0x100u);
    /* SIMD16 perspective pixel: R2 b1 slots 0-7, R3 b2 0-7, R4 b1 8-15,
     * R5 b2 8-15; slot 4k + i = subspan k (x = 2k) pixel i */
    for (uint32_t slot = 0; slot < 16; slot++) {
        uint32_t k = slot / 4, i = slot % 4;
        double x = 2.0 * k + (i & 1) + 0.5, y = (i >> 1) + 0.5;
        uint32_t g = slot / 8, lane = slot % 8;
        CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, 2 + 2 * g, lane), x / 8, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, 3 + 2 * g, lane), y / 2, 1e-6);
    }
    CU_ASSERT_EQUAL(r.td->grf[0][1][5], 6u);               /* subspan 3 at (6, 0) */
    CU_ASSERT_EQUAL(r.td->grf[0][1][7], 0xffffffffu);
    /* the flat attribute's a0 (.w) at R6.7 (grf start 6 of KSP[2]) */
    CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, 7, 7), 0.75, 0);
    /* SIMD8: barycentrics R2-R3, setup from grf start 4: .w at R5.7 */
    CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 1, 5, 7), 0.75, 0);
    CU_ASSERT_EQUAL(r.td->grf[1][1][2], 16u);
    sim_destroy(r.sim);
}

static void test_scoreboard_order(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 } });
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 1;
    p.y_max = 1;
    wm_rig_send_setup(&r, &p);
    wm_rig_send_setup(&r, &p);         /* the same subspan again: waits for the first thread */
    p.x_min = 4;
    p.x_max = 5;
    wm_rig_send_setup(&r, &p);         /* behind it, in order */
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 1);
    CU_ASSERT_TRUE(wm_rig_stat(&r, "stall.scoreboard") > 0);
    wm_rig_end_thread(&r, r.td->head[0].request_id, 0, 0);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 3);
    CU_ASSERT_EQUAL(r.td->grf[1][1][2], 0u);
    CU_ASSERT_EQUAL(r.td->grf[2][1][2], 4u);
    sim_destroy(r.sim);
}

/* Y-tiled D16 surface of pitch 128 (one tile across): byte of pixel (x, y)
 * computed here: OWord column (2x)/16 * 512 + y * 16 + (2x) % 16. */
static uint64_t d16_offset(uint32_t x, uint32_t y)
{
    uint32_t u = 2 * x;
    return (uint64_t)(y / 32) * 4096 + (u / 16) * 512 + (y % 32) * 16 + u % 16;
}

static void depth_buffer(struct wm_rig *r, uint64_t base, bool write)
{
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = base;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    d->DepthWriteEnable = write;
    wm_rig_to_wm(r, m);
}

static void test_hz_op_depth_clear(void)
{
    struct wm_rig r = wm_rig_new();
    const uint64_t base = 0x40000;
    uint8_t junk[4096];
    memset(junk, 0xee, sizeof junk);
    struct gt_error err;
    struct gpu_address_space as;
    gpu_address_space_init(&as, r.mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    CU_ASSERT_EQUAL(gpu_address_space_write(&as, base, junk, sizeof junk, &err), 0);
    depth_buffer(&r, base, true);
    struct spec_3DSTATE_CLEAR_PARAMS *c;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_CLEAR_PARAMS, 3, sizeof *c, (void **)&c);
    c->DepthClearValue = 0.5;
    c->DepthClearValueValid = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_WM_HZ_OP *h;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    h->DepthBufferClearEnable = true;
    h->ClearRectangleXMin = 2;
    h->ClearRectangleYMin = 1;
    h->ClearRectangleXMax = 10;     /* exclusive */
    h->ClearRectangleYMax = 3;
    wm_rig_to_wm(&r, m);
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    wm_rig_to_wm(&r, m);                   /* the end of the sequence */
    wm_rig_run(&r, 20);
    uint8_t back[4096];
    CU_ASSERT_EQUAL(gpu_address_space_read(&as, base, back, sizeof back, &err), 0);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 12; x++) {
            uint64_t o = d16_offset(x, y);
            bool in = x >= 2 && x < 10 && y >= 1 && y < 3;
            CU_ASSERT_EQUAL(back[o], in ? 0x00 : 0xee);         /* 0.5 -> 0x8000 */
            CU_ASSERT_EQUAL(back[o + 1], in ? 0x80 : 0xee);
        }
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "hz_op.depth_clears"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "hz_op.pixels"), 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "hz_op.ends"), 1);
    sim_destroy(r.sim);
}

static void test_early_depth_rejects(void)
{
    struct wm_rig r = wm_rig_new();
    const uint64_t base = 0x80000;
    depth_buffer(&r, base, true);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(&r, m);
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    /* a 2x2 square at depth 0.25 over a cleared 1.0 buffer (0xffff), then the
     * same square at 0.5: rejected, no thread */
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, r.mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    uint8_t ones[4096];
    memset(ones, 0xff, sizeof ones);
    gpu_address_space_write(&as, base, ones, sizeof ones, &err);
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_min = 2;
    p.x_max = 3;
    p.y_max = 1;
    p.depth = (struct setup_plane){ 0.25f, 0, 0 };
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    wm_rig_end_thread(&r, r.td->head[0].request_id, 0, 0);
    p.depth.a0 = 0.5f;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL(r.td->count, 1);
    uint8_t back[2];
    gpu_address_space_read(&as, base + d16_offset(3, 1), back, 2, &err);
    CU_ASSERT_EQUAL(back[0] | back[1] << 8, 16384);         /* 0.25 * 65535 rounded */
    gpu_address_space_read(&as, base + d16_offset(4, 1), back, 2, &err);
    CU_ASSERT_EQUAL(back[0] | back[1] << 8, 0xffff);        /* outside: untouched */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.depth_failed"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.subspans_rejected"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), 8);         /* L15697: early kills count */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.depth_count"), 4);
    /* no colour writes: no thread, the depth work still happens (1.0 > 0.25 fails LESS
     * after the 0.25 write... use 0.125: passes, written) */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 }, .no_rt = true });
    p.depth.a0 = 0.125f;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL(r.td->count, 1);
    gpu_address_space_read(&as, base + d16_offset(2, 0), back, 2, &err);
    CU_ASSERT_EQUAL(back[0] | back[1] << 8, 8192);          /* 8191.875 + .5 */
    sim_destroy(r.sim);
}

/* W-tiled stencil of pitch 64 (one tile across), byte of (x, y) built here
 * from the W layout A[11:0] = u5 u4 u3 v5 v4 v3 v2 u2 v1 u1 v0 u0. */
static uint64_t w_offset(uint32_t u, uint32_t v)
{
    uint32_t bits[12] = { u & 1, v & 1, (u >> 1) & 1, (v >> 1) & 1, (u >> 2) & 1, (v >> 2) & 1,
                          (v >> 3) & 1, (v >> 4) & 1, (v >> 5) & 1, (u >> 3) & 1, (u >> 4) & 1,
                          (u >> 5) & 1 };
    uint64_t a = 0;
    for (uint32_t i = 0; i < 12; i++)
        a |= (uint64_t)bits[i] << i;
    return (uint64_t)(v / 64) * 4096 + a;
}

static void test_stencil_only_draw_and_clear(void)
{
    struct wm_rig r = wm_rig_new();
    const uint64_t depth = 0x100000, stencil = 0x200000;
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;
    d->SurfaceBaseAddress = depth;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 63;
    d->StencilWriteEnable = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_STENCIL_BUFFER *sb;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_STENCIL_BUFFER, 5, sizeof *sb, (void **)&sb);
    sb->StencilBufferEnable = true;
    sb->SurfaceBaseAddress = stencil;
    sb->SurfacePitch = 63;
    wm_rig_to_wm(&r, m);
    /* clear the stencil to 0x33 over (0,0)-(8,8) */
    struct spec_3DSTATE_WM_HZ_OP *h;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    h->StencilBufferClearEnable = true;
    h->StencilClearValue = 0x33;
    h->ClearRectangleXMax = 8;
    h->ClearRectangleYMax = 8;
    wm_rig_to_wm(&r, m);
    /* stencil EQUAL 0x33 -> REPLACE 0x42 in front, back face REPLACE 0x17 */
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->StencilTestEnable = true;
    ds->StencilBufferWriteEnable = true;
    ds->DoubleSidedStencilEnable = true;
    ds->StencilTestFunction = 3;                /* EQUAL */
    ds->StencilReferenceValue = 0x33;
    ds->StencilTestMask = 0xff;
    ds->StencilWriteMask = 0xff;
    ds->StencilPassDepthPassOp = 2;             /* REPLACE */
    ds->BackfaceStencilTestFunction = 0;        /* ALWAYS */
    ds->BackfaceStencilReferenceValue = 0x17;
    ds->BackfaceStencilTestMask = 0xff;
    ds->BackfaceStencilWriteMask = 0x0f;
    ds->BackfaceStencilPassDepthPassOp = 2;
    wm_rig_to_wm(&r, m);
    /* colour writes off: no PS thread, the stencil work still happens */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 }, .no_rt = true,
                                    .statistics = true });
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 3;
    p.y_max = 1;
    wm_rig_send_setup(&r, &p);                         /* front: (0..3, 0..1) = 0x33 -> 0x33 ref */
    p.x_min = 2;
    p.x_max = 5;
    p.y_min = 2;
    p.y_max = 3;
    p.flags = PRIM_BACK_FACING;                 /* back: (2..5, 2..3): 0x33 -> 0x37 (mask 0x0f) */
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 0);
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, r.mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    for (uint32_t y = 0; y < 10; y++)
        for (uint32_t x = 0; x < 10; x++) {
            uint8_t b = 0;
            gpu_address_space_read(&as, stencil + w_offset(x, y), &b, 1, &err);
            uint8_t want = x >= 8 || y >= 8 ? 0 : 0x33;
            if (y >= 2 && y <= 3 && x >= 2 && x <= 5)
                want = 0x37;
            CU_ASSERT_EQUAL(b, want);
        }
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "hz_op.stencil_clears"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.stencil_writes"), 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.depth_count"), 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), 0);     /* no PS dispatched */
    /* a second front draw: stencil 0x33 != ... EQUAL 0x33 passes at (0,0) only where
     * still 0x33; at (2,2) the value is 0x37: fails, counted */
    p.flags = 0;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.stencil_failed"), 8);
    sim_destroy(r.sim);
}

static void test_simd32_payload(void)
{
    struct wm_rig r = wm_rig_new();
    /* 32 + 16 enabled: SIMD32 runs KSP[1] (L16013-16024); payload R0, R1, R2,
     * perspective pixel for slots 0-15 in R3-R6, for slots 16-31 in R7-R10 */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e16 = true, .e32 = true, .modes = 1, .attributes = true,
                                    .grf = { 0, 11, 7 }, .ksp = { 0x100, 0x200, 0x300 } });
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 15;
    p.y_max = 1;
    p.barycentric[0] = (struct setup_plane){ 0, 1.0f / 16, 0 };
    p.barycentric[1] = (struct setup_plane){ 0, 0, 0.5f };
    p.vertex_inverse_w[0] = p.vertex_inverse_w[1] = p.vertex_inverse_w[2] = 1.0f;
    p.attribute_count = 1;
    p.attributes[0][0] = (struct setup_plane){ 3.0f, 0, 0 };
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 50);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(r.td->head[0].simd, 32);
    CU_ASSERT_EQUAL(r.td->head[0].kernel_offset, 0x200u);
    CU_ASSERT_EQUAL(r.td->head[0].dmask, 0xffffffffu);
    CU_ASSERT_EQUAL(r.td->grf[0][2][2], 8u);            /* subspan 4 at (8, 0) */
    CU_ASSERT_EQUAL(r.td->grf[0][2][5], 14u);           /* subspan 7 at (14, 0) */
    CU_ASSERT_EQUAL(r.td->grf[0][2][7], 0xffffffffu);
    for (uint32_t slot = 0; slot < 32; slot++) {
        uint32_t k = slot / 4, i = slot % 4;
        double x = 2.0 * k + (i & 1) + 0.5, y = (i >> 1) + 0.5;
        uint32_t base = slot < 16 ? 3 : 7, g = (slot % 16) / 8, lane = slot % 8;
        CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, base + 2 * g, lane), x / 16, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, base + 2 * g + 1, lane), y / 2, 1e-6);
    }
    CU_ASSERT_DOUBLE_EQUAL(reg_f(r.td, 0, 11, 3), 3.0, 0);      /* attr0.x a0 */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.threads32"), 1);
    const struct wm_observed_draw *od;
    CU_ASSERT_EQUAL_FATAL(wm_observed_draws(r.wm, &od), 1);
    CU_ASSERT_EQUAL(od[0].pixels_rasterized, 32);
    CU_ASSERT_EQUAL(od[0].threads, 1);
    sim_destroy(r.sim);
}

static void test_drawing_rectangle_and_sample_mask(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 } });
    struct spec_3DSTATE_DRAWING_RECTANGLE *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DRAWING_RECTANGLE, 4, sizeof *d, (void **)&d);
    d->ClippedDrawingRectangleXMax = 2;
    d->ClippedDrawingRectangleYMax = 0;
    wm_rig_to_wm(&r, m);
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 7;
    p.y_max = 7;
    wm_rig_send_setup(&r, &p);     /* clipped to (0..2, 0): subspans (0,0) UL+UR, (2,0) UL */
    struct spec_3DSTATE_SAMPLE_MASK *sm;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm, (void **)&sm));
    sm->SampleMask = 0;
    wm_rig_send_setup(&r, &p);     /* every sample masked: nothing */
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(r.td->grf[0][1][7] >> 16, 0x13u);      /* subspan 0: 0b0011, 1: 0b0001 */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.sample_masked"), 3);
    sim_destroy(r.sim);
}

static void test_om_state_and_sync(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    wm_rig_run(&r, 10);
    uint32_t om_before = r.om->count;       /* WM, PS, PS_EXTRA, PS_BLEND: 3 for the om */
    CU_ASSERT_EQUAL(om_before, 3);
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 1;
    p.y_max = 1;
    wm_rig_send_setup(&r, &p);
    struct spec_3DSTATE_PS_BLEND *b;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_PS_BLEND, 2, sizeof *b, (void **)&b));
    b->HasWriteableRT = true;
    uint32_t bytes = (uint32_t)(sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    struct msg *m = msg_alloc(r.sim, MSG_MMIO, bytes);
    memset(m->payload, 0, bytes);
    ((struct cs_mmio *)m->payload)->op = CS_MMIO_SYNC;
    wm_rig_to_wm(&r, m);
    wm_rig_run(&r, 30);
    CU_ASSERT_EQUAL(r.td->count, 1);
    CU_ASSERT_EQUAL(r.om->count, om_before);        /* held behind the running thread */
    CU_ASSERT_EQUAL(r.drained->count, 0);
    wm_rig_end_thread(&r, r.td->head[0].request_id, 0, 0);
    wm_rig_run(&r, 30);
    CU_ASSERT_EQUAL(r.om->count, om_before + 1);
    CU_ASSERT_EQUAL(r.om->state_id[om_before], (uint32_t)SPEC_ID_3DSTATE_PS_BLEND);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    CU_ASSERT_EQUAL(r.drained->mmio[0].op, (uint32_t)CS_MMIO_SYNC_DONE);
    CU_ASSERT_EQUAL(r.drained->regs[0].value[PIPE_REG_PS_INVOCATIONS], 4);
    CU_ASSERT_EQUAL(r.drained->regs[0].value[PIPE_REG_PS_DEPTH], 4);
    CU_ASSERT_TRUE(r.drained->regs[0].written & (1ull << PIPE_REG_PS_INVOCATIONS));
    sim_destroy(r.sim);
}

static void test_bad_input(void)
{
    struct wm_rig r = wm_rig_new();
    /* no PS at all: primitives rasterize, nothing dispatched */
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 3;
    p.y_max = 3;
    wm_rig_send_setup(&r, &p);
    /* a PS whose SIMD8 KSP is 0: counted, no thread */
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0 } });
    wm_rig_send_setup(&r, &p);
    /* an absurd bounding box far beyond U16 and a malformed message */
    struct setup_primitive q = p;
    q.x_min = -100000;
    q.x_max = -50000;
    wm_rig_send_setup(&r, &q);
    struct msg *m = msg_alloc(r.sim, MSG_SETUP, 8);
    memset(m->payload, 0, 8);
    wm_rig_to_wm(&r, m);
    /* a zero-size depth buffer pitch */
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 2;       /* interleaved D24S8: refused */
    wm_rig_to_wm(&r, m);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 100);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "bad.kernel"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "bad.setup"), 1);
    CU_ASSERT_TRUE(wm_rig_stat(&r, "bad.depth_buffer") >= 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.primitives"), 4);
    sim_destroy(r.sim);
}


/* Bad input (issue 12): a 3DSTATE_MULTISAMPLE sample count the generation
 * does not have (Gen9: encodings 0-4 = 1-16 samples, genxml gen9.xml
 * MULTISAMPLECOUNT_*; 5 would be 32) is counted and the draw rasterized at
 * 1x with per-sample dispatch asked for: 4 pixels of a 2x2 square, one PS
 * invocation each, no per-sample ones; and a depth buffer outside memory:
 * every depth read faults (counted), the pixels go on to the PS, the draw
 * completes and a second one after it too. */
static void test_bad_samples_and_depth_outside_memory(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    struct spec_3DSTATE_MULTISAMPLE *ms;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms, (void **)&ms));
    ms->NumberOfMultisamples = 5;
    struct spec_3DSTATE_RASTER *ra;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_RASTER, 5, sizeof *ra, (void **)&ra));
    ra->DXMultisampleRasterizationEnable = true;
    struct spec_3DSTATE_SAMPLE_MASK *sm;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm, (void **)&sm));
    sm->SampleMask = 0xffff;
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_min = 2;
    p.x_max = 3;
    p.y_max = 1;
    p.depth = (struct setup_plane){ 0.25f, 0, 0 };
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "bad.multisample"), 1);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.sample_invocations"), 0);
    wm_rig_end_thread(&r, r.td->head[0].request_id, 4, 0);
    /* back to 1x; the depth buffer far beyond the 48-bit physical space */
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms, (void **)&ms));
    ms->NumberOfMultisamples = 0;
    depth_buffer(&r, 1ull << 50, true);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(&r, m);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.faults"), 4);        /* one read per pixel */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    wm_rig_end_thread(&r, r.td->head[1].request_id, 4, 0);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 20);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.faults"), 8);
    CU_ASSERT_EQUAL(r.td->count, 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.primitives"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "bad.multisample"), 1);
    sim_destroy(r.sim);
}


/* 4x multisample rasterization at the 3DSTATE_SAMPLE_PATTERN positions (seed
 * 003 L15582-15690; dword 7 = 4x samples 0-3, a byte each, X offset in bits
 * 7:4 and Y in 3:0, U0.4, genxml gen9.xml): a pattern unlike the standard one,
 * s0 (15/16, 15/16), s1 (1/16, 1/16), s2 (8/16, 1/16), s3 (1/16, 13/16). The
 * triangle (0,0) (4,0) (0,4) covers sample s of pixel (i, j) when
 * i + j + ox + oy < 4 (no sample on the hypotenuse), computed here; the
 * dispatch's render cache view carries each lit pixel's covered samples. */
static void test_multisample_coverage(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 } });
    struct spec_3DSTATE_MULTISAMPLE *ms;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms, (void **)&ms));
    ms->NumberOfMultisamples = 2;
    ms->PixelLocation = 0;
    struct spec_3DSTATE_RASTER *ra;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_RASTER, 5, sizeof *ra, (void **)&ra));
    ra->DXMultisampleRasterizationEnable = true;
    struct spec_3DSTATE_SAMPLE_MASK *sm;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm, (void **)&sm));
    sm->SampleMask = 0xffff;
    const uint8_t pos[4] = { 0xff, 0x11, 0x81, 0x1d };
    void *body;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_PATTERN, 9, 4, &body);
    struct cs_state_packet *pk = (struct cs_state_packet *)m->payload;
    pk->dwords[7] = (uint32_t)pos[0] | (uint32_t)pos[1] << 8 | (uint32_t)pos[2] << 16 |
                    (uint32_t)pos[3] << 24;
    pk->dwords[8] = 0x008844cc;
    wm_rig_to_wm(&r, m);
    struct setup_primitive p = wm_rig_triangle(0, 0);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 50);
    CU_ASSERT_TRUE_FATAL(r.td->count >= 1);
    uint32_t lit = 0, partial = 0, seen = 0;
    for (uint32_t t = 0; t < r.td->count; t++) {
        const struct eu_thread_context *c = &r.td->head[t].ctx;
        CU_ASSERT_EQUAL(c->sample_masks_valid, 1);
        for (uint32_t k = 0; k < c->subspans; k++)
            for (uint32_t px = 0; px < 4; px++) {
                int32_t i = c->pixel_x[k] + (int32_t)(px & 1), j = c->pixel_y[k] + (int32_t)(px >> 1);
                uint32_t want = 0;
                for (uint32_t smp = 0; smp < 4; smp++) {
                    double ox = (pos[smp] >> 4) / 16.0, oy = (pos[smp] & 15) / 16.0;
                    if (i + ox + j + oy < 4.0)
                        want |= 1u << smp;
                }
                bool on = (c->pixel_mask >> (4 * k + px)) & 1u;
                CU_ASSERT_EQUAL(on, want != 0);
                if (on) {
                    CU_ASSERT_EQUAL(c->sample_mask[4 * k + px], want);
                    lit++;
                    partial += want != 0xf;
                }
                seen++;
            }
    }
    /* i + j <= 3: 10 pixels lit, the 4 with i + j = 3 partially (s1-s3) */
    CU_ASSERT_EQUAL(lit, 10);
    CU_ASSERT_EQUAL(partial, 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), 10);
    CU_ASSERT_TRUE(seen >= 12);
    sim_destroy(r.sim);
}

/* PS_EXTRA (valid, per sample as given), MULTISAMPLE with 2^log2_samples
 * samples, DX multisample rasterization and an all-ones sample mask: the
 * multisample state the coverage and SSPI tests share. */
static void send_multisample_state(struct wm_rig *r, uint32_t log2_samples, bool per_sample)
{
    struct spec_3DSTATE_PS_EXTRA *x;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x));
    x->PixelShaderValid = true;
    x->PixelShaderIsPerSample = per_sample;
    struct spec_3DSTATE_MULTISAMPLE *ms;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms, (void **)&ms));
    ms->NumberOfMultisamples = log2_samples;
    struct spec_3DSTATE_RASTER *ra;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_RASTER, 5, sizeof *ra, (void **)&ra));
    ra->DXMultisampleRasterizationEnable = true;
    struct spec_3DSTATE_SAMPLE_MASK *sm;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm, (void **)&sm));
    sm->SampleMask = 0xffff;
}

/* The 4x state of test_multisample_coverage (sample pattern s0 (15/16,
 * 15/16), s1 (1/16, 1/16), s2 (8/16, 1/16), s3 (1/16, 13/16)) with the PS
 * asking for linear pixel, centroid and sample barycentrics (3DSTATE_WM
 * modes 3, 4, 5: b1/b2 in R2-R3, R4-R5, R6-R7 of a SIMD8 payload), and
 * PS_EXTRA Pixel Shader Is Per Sample as given. */
static const uint8_t ms_pos[4] = { 0xff, 0x11, 0x81, 0x1d };

static void ms_state(struct wm_rig *r, bool per_sample)
{
    wm_rig_ps_state(r, (struct wm_ps_setup){ .e8 = true, .grf = { 8 }, .ksp = { 0x40 },
                                             .modes = 0x38 });
    send_multisample_state(r, 2, per_sample);
    void *body;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_SAMPLE_PATTERN, 9, 4, &body);
    struct cs_state_packet *pk = (struct cs_state_packet *)m->payload;
    pk->dwords[7] = (uint32_t)ms_pos[0] | (uint32_t)ms_pos[1] << 8 | (uint32_t)ms_pos[2] << 16 |
                    (uint32_t)ms_pos[3] << 24;
    pk->dwords[8] = 0x008844cc;
    wm_rig_to_wm(r, m);
}

/* The samples of pixel (i, j) the test triangle (0,0) (4,0) (0,4) covers:
 * i + j + ox + oy < 4 (see test_multisample_coverage). */
static uint32_t ms_want(int32_t i, int32_t j)
{
    uint32_t want = 0;
    for (uint32_t smp = 0; smp < 4; smp++)
        if (i + (ms_pos[smp] >> 4) / 16.0 + j + (ms_pos[smp] & 15) / 16.0 < 4.0)
            want |= 1u << smp;
    return want;
}

static float ms_f(const struct wm_rig *r, uint32_t t, uint32_t reg, uint32_t lane)
{
    float f;
    memcpy(&f, &r->td->grf[t][reg][lane], 4);
    return f;
}

/* Runs the rig, ending every thread dispatched (the scoreboard holds a
 * subspan's next sample behind the thread shading the previous one). */
static void ms_run_all(struct wm_rig *r)
{
    uint32_t ended = 0;
    for (int round = 0; round < 400; round++) {
        wm_rig_run(r, 5);
        if (ended < r->td->count)       /* one a time: the feeder takes one a cycle */
            wm_rig_end_thread(r, r->td->head[ended++].request_id, 0, 0);
    }
}

/* Per-sample dispatch (seed 003 L15946ff, PS_EXTRA Pixel Shader Is Per
 * Sample): one invocation per covered sample, its SampleID in R1.0 (4 bits
 * a subspan, L16165-16170), its own sample in the render cache's write
 * coverage, sample barycentrics at the sample's pattern position, pixel
 * barycentrics at the pixel centre. The planes: b1 = x / 4, b2 = y / 4. */
static void test_per_sample_dispatch(void)
{
    struct wm_rig r = wm_rig_new();
    ms_state(&r, true);
    struct setup_primitive p = wm_rig_triangle(0, 0);
    wm_rig_send_setup(&r, &p);
    ms_run_all(&r);
    CU_ASSERT_TRUE_FATAL(r.td->count >= 1);
    CU_ASSERT_TRUE_FATAL(r.td->count < WM_CATCH_MAX);
    uint32_t seen[8][8] = { { 0 } };        /* [j][i]: samples shaded */
    uint32_t pairs = 0;
    for (uint32_t t = 0; t < r.td->count; t++) {
        const struct eu_thread_context *c = &r.td->head[t].ctx;
        uint32_t ids = r.td->grf[t][1][0], lit = r.td->grf[t][1][7] & 0xffffu;
        for (uint32_t k = 0; k < c->subspans; k++) {
            uint32_t smp = (ids >> (4 * k)) & 0xfu;
            for (uint32_t px = 0; px < 4; px++) {
                if (!((lit >> (4 * k + px)) & 1u))
                    continue;
                int32_t i = c->pixel_x[k] + (int32_t)(px & 1), j = c->pixel_y[k] + (int32_t)(px >> 1);
                CU_ASSERT_TRUE((ms_want(i, j) >> smp) & 1u);
                CU_ASSERT_EQUAL(c->sample_mask[4 * k + px], 1u << smp);
                CU_ASSERT_FALSE((seen[j & 7][i & 7] >> smp) & 1u);
                seen[j & 7][i & 7] |= 1u << smp;
                pairs++;
                uint32_t lane = 4 * k + px;
                double sx = i + (ms_pos[smp] >> 4) / 16.0, sy = j + (ms_pos[smp] & 15) / 16.0;
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 2, lane), (i + 0.5) / 4, 1e-6);   /* pixel */
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 3, lane), (j + 0.5) / 4, 1e-6);
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 4, lane), sx / 4, 1e-6);          /* centroid */
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 5, lane), sy / 4, 1e-6);
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 6, lane), sx / 4, 1e-6);          /* sample */
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 7, lane), sy / 4, 1e-6);
            }
        }
    }
    /* every covered sample shaded once: 6 full pixels x 4 + 4 edge pixels x 3 */
    uint32_t want_pairs = 0;
    for (int32_t j = 0; j < 8; j++)
        for (int32_t i = 0; i < 8; i++) {
            CU_ASSERT_EQUAL(seen[j][i], ms_want(i, j));
            want_pairs += (uint32_t)__builtin_popcount(ms_want(i, j));
        }
    CU_ASSERT_EQUAL(want_pairs, 36);
    CU_ASSERT_EQUAL(pairs, 36);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.sample_invocations"), 36);
    sim_destroy(r.sim);
}

/* The seed's PERSAMPLE slot layout (seed 003 L16060-16096, "PERSAMPLE
 * Dispatch" table; the RT side's copy L7700-7725): a thread of G = width/4
 * slot groups with Starting Sample Pair Index SSPI (R0.0[7:6], L16149; bit 8
 * its expansion for 16x) holds in group g sample 2 SSPI + g of its one
 * subspan when the sample count N exceeds G ("Dispatch[i]: SSPI = i,
 * Slot[3:0] = Subspan[0].Pixel[3:0].Sample[SSPI*2+0], Slot[7:4] = ...
 * Sample[SSPI*2+1]" for SIMD8 4x and 8x; i = 0, 2 for SIMD16 8x), else
 * sample g mod N of subspan g / N (SIMD16 4x: Slot[3:0] .. Slot[15:12] =
 * Sample[0] .. Sample[3] of Subspan[0]). The test writes the table out per
 * case and checks every thread against it: R0.0 SSPI, R1.0 SampleIDs (4
 * bits a group, L16165-16192), R1.2+ subspan X/Y, R1.7 lit mask = the
 * group's pixels covering its sample, the thread context's per-sample flag
 * and SSPI for headerless RT writes. Coverage: the test triangle (0,0)
 * (4,0) (0,4) covers sample s of pixel (i, j) when i + j + ox + oy < 4.
 * SIMD32 holds groups 4-7 in R2 as groups 0-3 in R1 (R2.0 SampleIDs, R2.2+
 * positions, R2.7 mask; L16108ff, the payload's SIMD32 subspans 4-7); when
 * the table puts two subspans in a dispatch (SIMD32 4x) the groups of
 * Subspan[1] hold another subspan's position than those of Subspan[0]. */
struct sspi_case {
    uint32_t log2_samples, width;
    const uint8_t *positions;           /* U0.4 X << 4 | Y per sample */
    /* the seed's table for the case: per SSPI the dispatch exists, and
     * group g's (subspan within the thread, sample) */
    uint32_t sspi_values;               /* dispatches per subspan (rows of the table) */
    uint32_t table_sample[8][8], table_subspan[8][8];
    /* what the three lit subspans make: threads, and of each SSPI value */
    uint32_t threads, per_sspi;
};

static uint32_t sspi_want(const uint8_t *pos, uint32_t n, int32_t i, int32_t j)
{
    uint32_t want = 0;
    for (uint32_t smp = 0; smp < n; smp++)
        if (i + (pos[smp] >> 4) / 16.0 + j + (pos[smp] & 15) / 16.0 < 4.0)
            want |= 1u << smp;
    return want;
}

static void sspi_state(struct wm_rig *r, const struct sspi_case *k)
{
    wm_rig_ps_state(r, (struct wm_ps_setup){ .e8 = k->width == 8, .e16 = k->width == 16,
                                             .e32 = k->width == 32, .grf = { 8, 8, 8 },
                                             .ksp = { 0x40, 0x40, 0x40 } });
    send_multisample_state(r, k->log2_samples, true);
    /* 3DSTATE_SAMPLE_PATTERN (genxml gen9.xml): DW5 8x samples 4-7, DW6 8x
     * samples 0-3, DW7 4x samples 0-3, a byte each */
    void *body;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_SAMPLE_PATTERN, 9, 4, &body);
    struct cs_state_packet *pk = (struct cs_state_packet *)m->payload;
    const uint8_t *q = k->positions;
    if (k->log2_samples == 4) {
        /* DW1-DW4: 16x samples 0-3, 4-7, 8-11, 12-15 */
        for (uint32_t d = 0; d < 4; d++)
            pk->dwords[1 + d] = (uint32_t)q[4 * d] | (uint32_t)q[4 * d + 1] << 8 |
                                (uint32_t)q[4 * d + 2] << 16 | (uint32_t)q[4 * d + 3] << 24;
    } else if (k->log2_samples == 3) {
        pk->dwords[6] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                        (uint32_t)q[3] << 24;
        pk->dwords[5] = (uint32_t)q[4] | (uint32_t)q[5] << 8 | (uint32_t)q[6] << 16 |
                        (uint32_t)q[7] << 24;
    } else {
        pk->dwords[7] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                        (uint32_t)q[3] << 24;
    }
    pk->dwords[8] = 0x008844cc;
    wm_rig_to_wm(r, m);
}

static void sspi_check(const struct sspi_case *k)
{
    struct wm_rig r = wm_rig_new();
    sspi_state(&r, k);
    struct setup_primitive p = wm_rig_triangle(0, 0);
    wm_rig_send_setup(&r, &p);
    ms_run_all(&r);
    uint32_t n = 1u << k->log2_samples, groups = k->width / 4;
    CU_ASSERT_TRUE_FATAL(r.td->count >= 1);
    CU_ASSERT_TRUE_FATAL(r.td->count < WM_CATCH_MAX);
    uint32_t seen[4][4] = { { 0 } };         /* [j][i]: samples shaded */
    uint32_t sspi_seen[8] = { 0 };
    for (uint32_t t = 0; t < r.td->count; t++) {
        const struct eu_dispatch *d = &r.td->head[t];
        CU_ASSERT_EQUAL(d->simd, k->width);
        uint32_t r00 = r.td->grf[t][0][0];
        uint32_t sspi = (r00 >> 6) & 7u;
        CU_ASSERT_FATAL(sspi < k->sspi_values * (groups / 2 < 1 ? 1 : groups / 2));
        sspi_seen[sspi]++;
        /* the table's SSPI values: 0, 1, .. for SIMD8; 0, 2, .. for SIMD16 */
        uint32_t row = sspi / (groups / 2 < 1 ? 1 : groups / 2);
        CU_ASSERT_EQUAL(sspi % (groups / 2), 0u);
        CU_ASSERT_FATAL(row < k->sspi_values);
        CU_ASSERT_TRUE(d->ctx.pixel_flags & EU_PIXEL_PER_SAMPLE);
        CU_ASSERT_EQUAL(d->ctx.starting_sample_pair, sspi);
        uint32_t sub_xy[2] = { 0, 0 };
        bool sub_known[2] = { false, false };
        for (uint32_t g = 0; g < groups; g++) {
            /* R1 holds groups 0-3, R2 groups 4-7 (SIMD32) */
            uint32_t reg = 1 + g / 4, q = g % 4;
            uint32_t ids = r.td->grf[t][reg][0], lit = r.td->grf[t][reg][7] & 0xffffu;
            CU_ASSERT_EQUAL(lit, r.td->grf[t][reg][7] >> 16);
            uint32_t smp = k->table_sample[row][g], sub = k->table_subspan[row][g];
            uint32_t xy = r.td->grf[t][reg][2 + q];
            bool group_lit = ((lit >> (4 * q)) & 0xfu) != 0;
            if (!group_lit && xy == 0 && (ids >> (4 * q) & 0xfu) == 0 && sub > 0)
                continue;               /* a final dispatch without its Subspan[1] */
            CU_ASSERT_EQUAL((ids >> (4 * q)) & 0xfu, smp);
            CU_ASSERT_FATAL(sub < 2);
            if (sub_known[sub])
                CU_ASSERT_EQUAL(xy, sub_xy[sub]);
            sub_known[sub] = true;
            sub_xy[sub] = xy;
            if (sub == 1 && sub_known[0])
                CU_ASSERT_NOT_EQUAL(xy, sub_xy[0]);
            int32_t sx = (int32_t)(xy & 0xffffu), sy = (int32_t)(xy >> 16);
            for (uint32_t px = 0; px < 4; px++) {
                int32_t i = sx + (int32_t)(px & 1), j = sy + (int32_t)(px >> 1);
                bool covered = i < 4 && j < 4 && ((sspi_want(k->positions, n, i, j) >> smp) & 1u);
                bool on = (lit >> (4 * q + px)) & 1u;
                CU_ASSERT_EQUAL(on, covered);
                if (on) {
                    CU_ASSERT_FALSE((seen[j][i] >> smp) & 1u);
                    seen[j][i] |= 1u << smp;
                    CU_ASSERT_EQUAL(d->ctx.sample_mask[4 * g + px], 1u << smp);
                }
            }
        }
    }
    /* every covered sample of every pixel shaded exactly once */
    for (int32_t j = 0; j < 4; j++)
        for (int32_t i = 0; i < 4; i++)
            CU_ASSERT_EQUAL(seen[j][i], sspi_want(k->positions, n, i, j));
    /* three subspans have lit pixels ((0,0), (2,0), (0,2)); each has a
     * sample in every dispatch's pair range here, so each SSPI value of the
     * table appears once a subspan (three times) when a dispatch holds one
     * subspan or part of one, and twice when it holds two (SIMD32 4x: two
     * subspans, then the third) */
    for (uint32_t v = 0; v < k->sspi_values; v++)
        CU_ASSERT_EQUAL(sspi_seen[v * (groups / 2)], k->per_sspi);
    CU_ASSERT_EQUAL(r.td->count, k->threads);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "bad.per_sample_enables"), 0);     /* one width: allowed */
    sim_destroy(r.sim);
}

/* 8x positions on the diagonal: sample s at ((2s+1)/16, (2s+1)/16); a pixel
 * with i + j = 3 covers samples 0-3 ((2s+1)/8 < 1) */
static const uint8_t sspi_pos8[8] = { 0x11, 0x33, 0x55, 0x77, 0x99, 0xbb, 0xdd, 0xff };

static void test_sspi_layout(void)
{
    /* SIMD8 4x: Dispatch[i], i = 0..1, SSPI = i: Slot[3:0] = Sample[2i],
     * Slot[7:4] = Sample[2i+1] of Subspan[0] */
    static const struct sspi_case simd8_4x = {
        2, 8, ms_pos, 2, { { 0, 1 }, { 2, 3 } }, { { 0, 0 }, { 0, 0 } }, 6, 3 };
    sspi_check(&simd8_4x);
    /* SIMD16 4x: one dispatch (SSPI 0), Slot[4s+3:4s] = Subspan[0] Sample[s] */
    static const struct sspi_case simd16_4x = {
        2, 16, ms_pos, 1, { { 0, 1, 2, 3 } }, { { 0, 0, 0, 0 } }, 3, 3 };
    sspi_check(&simd16_4x);
    /* SIMD8 8x: Dispatch[i], i = 0..3, SSPI = i: Sample[2i], Sample[2i+1] */
    static const struct sspi_case simd8_8x = {
        3, 8, sspi_pos8, 4, { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }, { { 0 } }, 12, 3 };
    sspi_check(&simd8_8x);
    /* SIMD16 8x: Dispatch[i], i = 0, 2, SSPI = i: Sample[2i] .. Sample[2i+3] */
    static const struct sspi_case simd16_8x = {
        3, 16, sspi_pos8, 2, { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } }, { { 0 } }, 6, 3 };
    sspi_check(&simd16_8x);
}

/* 16x positions on the diagonal: sample s at (s/16, s/16); a pixel with
 * i + j = 3 covers samples 0-7 (2s/16 < 1), one with i + j <= 2 all 16 */
static const uint8_t sspi_pos16[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

/* The 16x rows and the SIMD32 column of the PERSAMPLE table (seed 003
 * L16060-16096), written out from it: each dispatch's SSPI is bits 8:6 of
 * R0.0 (L16148-16149: bit 8 "reserved for expansion of" SSPI, which 16x
 * needs: SSPI up to 7). */
static void test_sspi_layout_16x_simd32(void)
{
    /* SIMD8 16x: Dispatch[i], i = 0..7, SSPI = i: Slot[3:0] =
     * Subspan[0].Sample[SSPI*2+0], Slot[7:4] = Sample[SSPI*2+1] */
    static const struct sspi_case simd8_16x = {
        4, 8, sspi_pos16, 8,
        { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 }, { 8, 9 }, { 10, 11 }, { 12, 13 }, { 14, 15 } },
        { { 0 } }, 24, 3 };
    sspi_check(&simd8_16x);
    /* SIMD16 16x: Dispatch[i], i = 0, 2, 4, 6, SSPI = i: Slot[4g+3:4g] =
     * Subspan[0].Sample[SSPI*2+g] */
    static const struct sspi_case simd16_16x = {
        4, 16, sspi_pos16, 4,
        { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 }, { 12, 13, 14, 15 } },
        { { 0 } }, 12, 3 };
    sspi_check(&simd16_16x);
    /* SIMD32 4x: Slot[4s+3:4s] = Subspan[0].Sample[s], Slot[4s+19:4s+16] =
     * Subspan[1].Sample[s]: two subspans a dispatch (the third alone) */
    static const struct sspi_case simd32_4x = {
        2, 32, ms_pos, 1, { { 0, 1, 2, 3, 0, 1, 2, 3 } }, { { 0, 0, 0, 0, 1, 1, 1, 1 } }, 2, 2 };
    sspi_check(&simd32_4x);
    /* SIMD32 8x: Slot[4s+3:4s] = Subspan[0].Sample[s], s = 0..7 */
    static const struct sspi_case simd32_8x = {
        3, 32, sspi_pos8, 1, { { 0, 1, 2, 3, 4, 5, 6, 7 } }, { { 0 } }, 3, 3 };
    sspi_check(&simd32_8x);
    /* SIMD32 16x: Dispatch[i], i = 0, 4, SSPI = i: Slot[4g+3:4g] =
     * Subspan[0].Sample[SSPI*2+g], g = 0..7 */
    static const struct sspi_case simd32_16x = {
        4, 32, sspi_pos16, 2,
        { { 0, 1, 2, 3, 4, 5, 6, 7 }, { 8, 9, 10, 11, 12, 13, 14, 15 } }, { { 0 } }, 6, 3 };
    sspi_check(&simd32_16x);
}

/* The enables the seed forbids with multisampling, counted per primitive
 * (seed 003 L16005-16011 under the Variable Pixel Dispatch table): "D"
 * (SIMD16+8) "cannot be used in non-1x PERSAMPLE mode", "E" (SIMD32+16) not
 * "in PERSAMPLE mode with number of multisamples >= 2"; L16057: "When
 * NUM_MULTISAMPLES == 16 (i.e. 16x MSAA) and PS_DISPATCH_MODE is PER_PIXEL,
 * SIMD32 pixel shader is not supported". Per-sample 4x with SIMD8 alone and
 * 16x per-pixel with SIMD16 alone are not counted. */
static uint64_t forbidden_count(uint32_t log2_samples, bool per_sample, bool e8, bool e16,
                                bool e32, const char *stat)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = e8, .e16 = e16, .e32 = e32,
                                              .grf = { 8, 8, 8 },
                                              .ksp = { 0x40, 0x40, 0x40 } });
    send_multisample_state(&r, log2_samples, per_sample);
    struct setup_primitive p = wm_rig_triangle(0, 0);
    wm_rig_send_setup(&r, &p);
    ms_run_all(&r);
    uint64_t n = wm_rig_stat(&r, stat);
    sim_destroy(r.sim);
    return n;
}

static void test_forbidden_dispatch_enables(void)
{
    CU_ASSERT_EQUAL(forbidden_count(2, true, true, true, false, "bad.per_sample_enables"), 1);
    CU_ASSERT_EQUAL(forbidden_count(3, true, false, true, true, "bad.per_sample_enables"), 1);
    CU_ASSERT_EQUAL(forbidden_count(2, true, true, false, false, "bad.per_sample_enables"), 0);
    CU_ASSERT_EQUAL(forbidden_count(4, false, false, false, true, "bad.simd32_16x_per_pixel"), 1);
    CU_ASSERT_EQUAL(forbidden_count(4, false, false, true, false, "bad.simd32_16x_per_pixel"), 0);
    CU_ASSERT_EQUAL(forbidden_count(4, true, false, false, true, "bad.simd32_16x_per_pixel"), 0);
}

/* The rasterizer's rate (issue 12 item 9; docs/pixel-timing.md): the
 * machines state wm.subspans_per_cycle = 4 (configs/fragments/
 * unslice-gen8plus.cfg; the unit's default), 16 pixels a clock. A 128 x 64
 * rectangle with no pixel shader and no depth test (8192 pixels, 2048
 * subspans) through WM alone takes 2048 / 4 = 512 cycles from its first
 * subspan to its last: the model reaches 16 pixels a clock, within one
 * cycle of start-up. */
static void test_rasterizer_rate(void)
{
    struct wm_rig r = wm_rig_new();
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 127;
    p.y_max = 63;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 700);
    const struct wm_observed_draw *d;
    CU_ASSERT_EQUAL_FATAL(wm_observed_draws(r.wm, &d), 1);
    CU_ASSERT_EQUAL(d[0].pixels_rasterized, 8192u);
    uint64_t cycles = d[0].last_cycle - d[0].first_cycle + 1;
    double rate = 8192.0 / (double)cycles;
    CU_ASSERT_TRUE(cycles >= 512 && cycles <= 513);
    CU_ASSERT_TRUE(rate > 15.9 && rate <= 16.0);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.subspans"), 2048);
    sim_destroy(r.sim);
}

/* Pixel-rate dispatch under 4x: centroid barycentrics at the pixel centre
 * for a fully covered pixel and at the lowest covered sample of a partly
 * covered one (the model's rule, wm.c centroid_offset); the thread carries
 * the pattern for the pixel interpolator. */
static void test_centroid_barycentrics(void)
{
    struct wm_rig r = wm_rig_new();
    ms_state(&r, false);
    struct setup_primitive p = wm_rig_triangle(0, 0);
    wm_rig_send_setup(&r, &p);
    ms_run_all(&r);
    CU_ASSERT_TRUE_FATAL(r.td->count >= 1);
    uint32_t partial = 0, lit_pixels = 0;
    for (uint32_t t = 0; t < r.td->count; t++) {
        const struct eu_thread_context *c = &r.td->head[t].ctx;
        CU_ASSERT_EQUAL(c->sample_count, 4);
        CU_ASSERT_EQUAL(memcmp(c->sample_position, ms_pos, 4), 0);
        CU_ASSERT_EQUAL(r.td->grf[t][1][0], 0u);            /* SampleIDs 0 */
        uint32_t lit = r.td->grf[t][1][7] & 0xffffu;
        for (uint32_t k = 0; k < c->subspans; k++)
            for (uint32_t px = 0; px < 4; px++) {
                if (!((lit >> (4 * k + px)) & 1u))
                    continue;
                int32_t i = c->pixel_x[k] + (int32_t)(px & 1), j = c->pixel_y[k] + (int32_t)(px >> 1);
                uint32_t want = ms_want(i, j), lane = 4 * k + px;
                double cx = i + 0.5, cy = j + 0.5;
                if (want != 0xf) {
                    unsigned first = (unsigned)__builtin_ctz(want);
                    cx = i + (ms_pos[first] >> 4) / 16.0;
                    cy = j + (ms_pos[first] & 15) / 16.0;
                    partial++;
                }
                lit_pixels++;
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 4, lane), cx / 4, 1e-6);
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 5, lane), cy / 4, 1e-6);
                CU_ASSERT_DOUBLE_EQUAL(ms_f(&r, t, 6, lane), (i + 0.5) / 4, 1e-6);
            }
    }
    CU_ASSERT_EQUAL(lit_pixels, 10);
    CU_ASSERT_EQUAL(partial, 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.sample_invocations"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "SIMD8 payload: coverage, barycentrics, depth, setup data", test_simd8_payload_and_coverage },
    { "SIMD16 payload, KSP table and the width rule", test_simd16_payload_and_width_rule },
    { "pixel scoreboard keeps overlapping subspans in order", test_scoreboard_order },
    { "WM_HZ_OP depth clear in a Y-tiled D16 surface", test_hz_op_depth_clear },
    { "early depth: writes, rejects, statistics, no-PS draws", test_early_depth_rejects },
    { "stencil-only draw, double-sided stencil, stencil clear", test_stencil_only_draw_and_clear },
    { "SIMD32 payload", test_simd32_payload },
    { "state to the pixel back ends and the sync wait for threads", test_om_state_and_sync },
    { "drawing rectangle clip and the sample mask", test_drawing_rectangle_and_sample_mask },
    { "bad input is counted", test_bad_input },
    { "bad input: reserved sample count, depth buffer outside memory",
      test_bad_samples_and_depth_outside_memory },
    { "4x coverage at the sample pattern's positions", test_multisample_coverage },
    { "per-sample dispatch: one invocation per covered sample", test_per_sample_dispatch },
    { "centroid barycentrics at pixel rate under 4x", test_centroid_barycentrics },
    { "the rasterizer's rate: 16 pixels a clock", test_rasterizer_rate },
    { "per-sample dispatch in the seed's slot layout with the Starting Sample Pair Index",
      test_sspi_layout },
    { "per-sample dispatch at 16x (SIMD8/16/32) and SIMD32 (4x/8x) in the seed's slot layout",
      test_sspi_layout_16x_simd32 },
    { "dispatch enables the seed forbids with multisampling: counted", test_forbidden_dispatch_enables },
    { 0 }
};
TEST_SUITE(wm, cases);
