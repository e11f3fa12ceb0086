/* tests/units/test_wm_late.c - WM's side of late depth/stencil and its
 * per-draw records: a PS that kills pixels (3DSTATE_PS_EXTRA Pixel Shader
 * Kills Pixel) over a depth-tested draw is not tested early (seed 003
 * L15709-15775, WM_INT Kill Pixel L15298-15317): its threads carry
 * EU_PIXEL_LATE_DEPTH_STENCIL, the draw and the primitive's planes
 * (thread_msg.h), PS_DEPTH_COUNT takes the passes the pixel back end reports
 * in the thread ends, and the draw record adds them up. The rig (catchers,
 * state, the SF-library triangle at (8, 4) with 6 pixels inside) is
 * tests/units/test_wm.c's. */
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

static void test_kill_is_late(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    struct spec_3DSTATE_PS_EXTRA *x;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x);
    x->PixelShaderValid = true;
    x->PixelShaderKillsPixel = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    d->DepthWriteEnable = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(&r, m);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    p.draw = 7;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 30);
    /* subspans (8,4) (10,4) (8,6): 4 + 1 + 1 pixels, SIMD8 threads of 2 and 1 */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    for (uint32_t t = 0; t < 2; t++) {
        const struct eu_thread_context *c = &r.td->head[t].ctx;
        CU_ASSERT_TRUE(c->pixel_flags & EU_PIXEL_LATE_DEPTH_STENCIL);
        CU_ASSERT_EQUAL(c->draw, 8);    /* numbered from 1 */
        CU_ASSERT_EQUAL(c->setup.x0, p.x0);
        CU_ASSERT_EQUAL(c->setup.y0, p.y0);
        CU_ASSERT_EQUAL(c->setup.offset, 0.5f);
        CU_ASSERT_EQUAL(c->setup.depth[0], p.depth.a0);
        CU_ASSERT_EQUAL(c->setup.depth[1], p.depth.a1);
        CU_ASSERT_EQUAL(c->setup.depth[2], p.depth.a2);
        CU_ASSERT_EQUAL(c->setup.barycentric[0][1], 0.25f);
        CU_ASSERT_EQUAL(c->setup.barycentric[1][2], 0.25f);
        CU_ASSERT_EQUAL(c->setup.vertex_inverse_w[2], 0.25f);
    }
    /* the plane gives the source depth the payload would: z at (8.5, 4.5)
     * = 0.5 l0 + 0.25 l1 + 0.75 l2 with l1 = l2 = 0.125 */
    const struct eu_pixel_setup *e = &r.td->head[0].ctx.setup;
    float z = e->depth[0] + e->depth[1] * (8.5f - e->x0) + e->depth[2] * (4.5f - e->y0);
    CU_ASSERT_DOUBLE_EQUAL(z, 0.5 * 0.75 + 0.25 * 0.125 + 0.75 * 0.125, 1e-6);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.late_pixels"), 6);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.depth_count"), 0);   /* nothing passed yet */
    /* the back end's reports: 3 of 4 passed and written, then 1 of 2 */
    wm_rig_end_thread(&r, r.td->head[0].request_id, 3, 3);
    wm_rig_run(&r, 5);
    wm_rig_end_thread(&r, r.td->head[1].request_id, 1, 1);
    wm_rig_run(&r, 10);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.depth_count"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.late_passed"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.pixels_written"), 4);
    const struct wm_observed_draw *od;
    CU_ASSERT_EQUAL_FATAL(wm_observed_draws(r.wm, &od), 1);
    CU_ASSERT_EQUAL(od[0].draw, 7);
    CU_ASSERT_EQUAL(od[0].primitives, 1);
    CU_ASSERT_EQUAL(od[0].pixels_rasterized, 6);
    CU_ASSERT_EQUAL(od[0].pixels_shaded, 6);
    CU_ASSERT_EQUAL(od[0].pixels_passed, 4);
    CU_ASSERT_EQUAL(od[0].pixels_written, 4);
    CU_ASSERT_EQUAL(od[0].pixels_depth_rejected, 0);
    CU_ASSERT_EQUAL(od[0].threads, 2);
    CU_ASSERT_TRUE(od[0].last_cycle > od[0].first_cycle);
    sim_destroy(r.sim);
}

/* Without kill the same draw is tested early: no flag, rejects per draw. */
static void test_early_rejects_per_draw(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthTestFunction = 1;      /* NEVER: every pixel rejected */
    wm_rig_to_wm(&r, m);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    p.draw = 3;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 30);
    CU_ASSERT_EQUAL(r.td->count, 0);
    const struct wm_observed_draw *od;
    CU_ASSERT_EQUAL_FATAL(wm_observed_draws(r.wm, &od), 1);
    CU_ASSERT_EQUAL(od[0].pixels_rasterized, 6);
    CU_ASSERT_EQUAL(od[0].pixels_depth_rejected, 6);
    CU_ASSERT_EQUAL(od[0].pixels_passed, 0);
    CU_ASSERT_EQUAL(od[0].pixels_shaded, 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.late_pixels"), 0);
    sim_destroy(r.sim);
}

/* The seed's rule written out again (seed 000 L109-113, 003 L15560-15580):
 * bit 31 of row 0 is the pattern's upper-left pixel, placed at the offsets. */
static bool stipple_keeps(const uint32_t rows[32], uint32_t ox, uint32_t oy, uint32_t x,
                          uint32_t y)
{
    uint32_t col = (x - ox) % 32, row = (y - oy) % 32;
    return (rows[row] & (0x80000000u >> col)) != 0;
}

static void test_polygon_stipple(void)
{
    struct wm_rig r = wm_rig_new();
    wm_rig_ps_state(&r, (struct wm_ps_setup){ .e16 = true, .grf = { 2 }, .ksp = { 0x40 } });
    struct spec_3DSTATE_WM *w;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM, 2, sizeof *w, (void **)&w);
    w->PolygonStippleEnable = true;
    wm_rig_to_wm(&r, m);
    uint32_t rows[32] = { 0 };
    rows[0] = 0xa0000000u;          /* columns 0 and 2 */
    rows[1] = 0x40000000u;          /* column 1 */
    struct spec_3DSTATE_POLY_STIPPLE_PATTERN *pp;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_POLY_STIPPLE_PATTERN, 33, sizeof *pp, (void **)&pp);
    memcpy(pp->PatternRow, rows, sizeof rows);
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_POLY_STIPPLE_OFFSET *po;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_POLY_STIPPLE_OFFSET, 2, sizeof *po, (void **)&po);
    po->PolygonStippleXOffset = 8;
    po->PolygonStippleYOffset = 4;
    wm_rig_to_wm(&r, m);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 30);
    /* the 6 pixels inside: (8,4) (9,4) (10,4) (8,5) (9,5) (8,6) */
    const uint32_t in[6][2] = { { 8, 4 }, { 9, 4 }, { 10, 4 }, { 8, 5 }, { 9, 5 }, { 8, 6 } };
    uint32_t kept = 0, mask = 0;
    for (uint32_t i = 0; i < 6; i++)
        if (stipple_keeps(rows, 8, 4, in[i][0], in[i][1])) {
            kept++;
            uint32_t sub = (in[i][0] - 8) / 2 + 2 * ((in[i][1] - 4) / 2);   /* subspans in order */
            uint32_t pixel = (in[i][0] & 1) + 2 * (in[i][1] & 1);
            mask |= 1u << (4 * sub + pixel);
        }
    CU_ASSERT_EQUAL(kept, 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.poly_stippled"), 6 - kept);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), kept);
    /* one SIMD16 thread; subspan (8,6) has nothing left and is not sent */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(r.td->grf[0][1][7], (mask & 0xffu) << 16 | (mask & 0xffu));
    /* a TRIFAN_NOSTIPPLE triangle (SF's flag) is not stippled */
    p = wm_rig_triangle(8, 4);
    p.flags |= PRIM_NO_POLY_STIPPLE;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 30);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.pixels"), kept + 6);
    sim_destroy(r.sim);
}

/* A PS that computes stencil (3DSTATE_PS_EXTRA Pixel Shader Computes
 * Stencil, WM_INT L15266) over a stencil-tested draw: the shader's oS is the
 * reference in the pixel back end (units/om/om_depth.h), so WM cannot test
 * early: the threads carry EU_PIXEL_LATE_DEPTH_STENCIL. With the stencil
 * test off the same PS is tested early (no flag). SIMD16 enabled with it is
 * counted (seed 003 L16011: only SIMD8 with a computed stencil), as is
 * per-sample 4x dispatch with SIMD8 and SIMD16 both enabled (L16007-16009). */
static void computes_stencil_draw(struct wm_rig *r, bool stencil_test, bool e16)
{
    wm_rig_ps_state(r, (struct wm_ps_setup){ .e8 = true, .e16 = e16, .grf = { 2, 2, 2 },
                                             .ksp = { 0x40, 0x40, 0x40 } });
    struct spec_3DSTATE_PS_EXTRA *x;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x);
    x->PixelShaderValid = true;
    x->PixelShaderComputesStencil = true;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_STENCIL_BUFFER *sb;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_STENCIL_BUFFER, 5, sizeof *sb, (void **)&sb);
    sb->StencilBufferEnable = true;
    sb->SurfacePitch = 63;
    sb->SurfaceBaseAddress = 0x60000;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->StencilTestEnable = stencil_test;
    ds->StencilTestFunction = 3;    /* EQUAL */
    ds->StencilTestMask = ds->StencilWriteMask = 0xff;
    wm_rig_to_wm(r, m);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    wm_rig_send_setup(r, &p);
    wm_rig_run(r, 30);
}

static void test_computed_stencil_is_late(void)
{
    struct wm_rig late = wm_rig_new(), early = wm_rig_new(), wide = wm_rig_new();
    computes_stencil_draw(&late, true, false);
    computes_stencil_draw(&early, false, false);
    computes_stencil_draw(&wide, true, true);
    CU_ASSERT_EQUAL_FATAL(late.td->count, 2);
    CU_ASSERT_EQUAL_FATAL(early.td->count, 2);
    for (uint32_t t = 0; t < 2; t++) {
        CU_ASSERT_TRUE(late.td->head[t].ctx.pixel_flags & EU_PIXEL_LATE_DEPTH_STENCIL);
        CU_ASSERT_FALSE(early.td->head[t].ctx.pixel_flags & EU_PIXEL_LATE_DEPTH_STENCIL);
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&late, "depth.late_pixels"), 6);
    CU_ASSERT_EQUAL(wm_rig_stat(&early, "depth.late_pixels"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&late, "bad.computed_stencil_enables"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&wide, "bad.computed_stencil_enables"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&wide, "bad.per_sample_enables"), 0);
    sim_destroy(late.sim);
    sim_destroy(early.sim);
    sim_destroy(wide.sim);
}

static const struct test_case cases[] = {
    { "a killing PS over a depth-tested draw: late flag, planes, passes from thread ends",
      test_kill_is_late },
    { "early depth rejects counted per draw", test_early_rejects_per_draw },
    { "polygon stipple: the 32x32 pattern at its offset; NOSTIPPLE triangles untouched",
      test_polygon_stipple },
    { "a PS computing stencil over a stencil test is tested late; SIMD16 with it counted",
      test_computed_stencil_is_late },
    { 0 }
};
TEST_SUITE(wm_late, cases);
