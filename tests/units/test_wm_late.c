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
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/sf/sf_setup.h"
#include "units/wm/wm.h"

#define CATCH_MAX 32
#define CATCH_REGS 48

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[CATCH_MAX];
    struct eu_dispatch head[CATCH_MAX];
    uint32_t grf[CATCH_MAX][CATCH_REGS][8];
    uint32_t state_id[CATCH_MAX];
    struct cs_mmio mmio[CATCH_MAX];
    struct pipeline_registers regs[CATCH_MAX];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "anything" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "nothing" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while (c->in && (m = port_pop(c->in))) {
        uint32_t i = c->count++;
        if (i < CATCH_MAX) {
            c->kind[i] = m->kind;
            if (m->kind == MSG_THREAD_DISPATCH) {
                const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
                c->head[i] = *d;
                uint32_t n = d->grf_count < CATCH_REGS ? d->grf_count : CATCH_REGS;
                memcpy(c->grf[i], d->grf, n * 32u);
            } else if (m->kind == MSG_STATE) {
                c->state_id[i] = ((const struct cs_state_packet *)m->payload)->id;
            } else if (m->kind == MSG_MMIO) {
                memcpy(&c->mmio[i], m->payload, sizeof c->mmio[i]);
                if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers))
                    memcpy(&c->regs[i], m->payload + sizeof(struct cs_mmio), sizeof c->regs[i]);
            }
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_wm_late_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

static enum unit_activity idle_tick(struct unit *u)
{
    const uint64_t *until = unit_state(u);
    return unit_cycle(u) < *until ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops idle_ops = {
    .kind = "test_wm_late_idle",
    .state_size = sizeof(uint64_t),
    .tick = idle_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *wm, *idle, *feeder;
    struct catcher *td, *om, *drained;
};

static void run(struct rig *r, uint64_t cycles)
{
    uint64_t now = sim_now(r->sim) / 1000;
    *(uint64_t *)unit_state(r->idle) = now + cycles + 1;
    unit_wake_at(r->idle, now + 1);
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

static struct msg *state_msg(struct rig *r, uint32_t id, uint32_t dwords, size_t body,
                             void **common)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + body));
    memset(m->payload, 0, off + body);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *common = (uint8_t *)p + off;
    return m;
}

static void to_wm(struct rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->wm, "sf", 0), m));
}

static struct rig rig_new(void)
{
    struct rig r;
    memset(&r, 0, sizeof r);
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.wm = probe_add(r.sim, &wm_ops, "wm", NULL);
    r.idle = probe_add(r.sim, &idle_ops, "idle", NULL);
    struct unit *td = probe_add(r.sim, &catcher_ops, "td", NULL);
    struct unit *om = probe_add(r.sim, &catcher_ops, "om", NULL);
    struct unit *dr = probe_add(r.sim, &catcher_ops, "dr", NULL);
    struct unit *feeder = probe_add(r.sim, &catcher_ops, "pbe", NULL);
    probe_link(r.sim, r.wm, "td[0]", td, "in", 1, 64, 4);
    probe_link(r.sim, r.wm, "om[0]", om, "in", 1, 64, 4);
    probe_link(r.sim, r.wm, "drained", dr, "in", 1, 8, 1);
    probe_link(r.sim, feeder, "out", r.wm, "eot[0]", 1, 16, 1);
    r.feeder = feeder;
    struct spec_3DSTATE_SAMPLE_MASK *nothing;
    to_wm(&r, state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *nothing, (void **)&nothing));
    nothing->SampleMask = 1;
    struct gt_error err;
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td = unit_state(td);
    r.om = unit_state(om);
    r.drained = unit_state(dr);
    return r;
}

static uint64_t stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "wm.%s", name);
    return (uint64_t)probe_stat(r->sim, path);
}

struct ps_setup {
    bool e8, e16, e32, source_depth, attributes, statistics, push;
    uint32_t modes, grf[3], max_threads;
    uint64_t ksp[3];
    bool no_rt;
};

static void ps_state(struct rig *r, struct ps_setup s)
{
    struct spec_3DSTATE_WM *w;
    struct msg *m = state_msg(r, SPEC_ID_3DSTATE_WM, 2, sizeof *w, (void **)&w);
    w->BarycentricInterpolationMode = s.modes;
    w->StatisticsEnable = s.statistics;
    to_wm(r, m);
    struct spec_3DSTATE_PS *p;
    m = state_msg(r, SPEC_ID_3DSTATE_PS, 12, sizeof *p, (void **)&p);
    p->KernelStartPointer0 = s.ksp[0];
    p->KernelStartPointer1 = s.ksp[1];
    p->KernelStartPointer2 = s.ksp[2];
    p->_8PixelDispatchEnable = s.e8;
    p->_16PixelDispatchEnable = s.e16;
    p->_32PixelDispatchEnable = s.e32;
    p->DispatchGRFStartRegisterForConstantSetupData0 = s.grf[0];
    p->DispatchGRFStartRegisterForConstantSetupData1 = s.grf[1];
    p->DispatchGRFStartRegisterForConstantSetupData2 = s.grf[2];
    p->MaximumNumberOfThreadsPerPSD = s.max_threads ? s.max_threads : 63;
    p->PushConstantEnable = s.push;
    to_wm(r, m);
    struct spec_3DSTATE_PS_EXTRA *x;
    m = state_msg(r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x);
    x->PixelShaderValid = true;
    x->PixelShaderUsesSourceDepth = s.source_depth;
    x->AttributeEnable = s.attributes;
    to_wm(r, m);
    struct spec_3DSTATE_PS_BLEND *b;
    m = state_msg(r, SPEC_ID_3DSTATE_PS_BLEND, 2, sizeof *b, (void **)&b);
    b->HasWriteableRT = !s.no_rt;
    to_wm(r, m);
}

/* The triangle (0,0) (4,0) (0,4) with w = 1, 2, 4 and z = 0.5, 0.25, 0.75,
 * set up by SF's library; its barycentric planes and 1/w are filled here
 * from the positions (b1 = x / 4, b2 = y / 4) and two attributes with known
 * deltas. */
static struct setup_primitive triangle(int32_t ox, int32_t oy)
{
    struct sf_setup_state st = {
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = 8191, .clip_y_max = 8191,
    };
    float x = (float)ox, y = (float)oy;
    struct sf_setup_vertex v[3] = { { x, y, 0.5f, 1 }, { x + 4, y, 0.25f, 2 },
                                    { x, y + 4, 0.75f, 4 } };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    p.topology = PRIM_TRILIST;
    p.draw = 1;
    p.barycentric[0] = (struct setup_plane){ 0, 0.25f, 0 };
    p.barycentric[1] = (struct setup_plane){ 0, 0, 0.25f };
    p.vertex_inverse_w[0] = 1.0f;
    p.vertex_inverse_w[1] = 0.5f;
    p.vertex_inverse_w[2] = 0.25f;
    p.attribute_count = 2;
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t c = 0; c < 4; c++)
            p.attributes[a][c] = (struct setup_plane){ 10.0f * a + c, 0.5f + c, -1.0f - c };
    return p;
}

static void send_setup(struct rig *r, const struct setup_primitive *p)
{
    struct msg *m = msg_alloc(r->sim, MSG_SETUP, sizeof *p);
    memcpy(m->payload, p, sizeof *p);
    to_wm(r, m);
}

static void end_thread_counts(struct rig *r, uint32_t request, uint32_t written, uint32_t passed)
{
    struct msg *m = msg_alloc(r->sim, MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
    struct eu_thread_end *e = (struct eu_thread_end *)m->payload;
    memset(e, 0, sizeof *e);
    e->op = EU_TD_THREAD_END;
    e->request_id = request;
    e->ffid = FFID_PS;
    e->pixels_written = written;
    e->pixels_depth_passed = passed;
    CU_ASSERT_TRUE(port_try_send(unit_port(r->feeder, "out", 0), m));
}

static void test_kill_is_late(void)
{
    struct rig r = rig_new();
    ps_state(&r, (struct ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    struct spec_3DSTATE_PS_EXTRA *x;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x);
    x->PixelShaderValid = true;
    x->PixelShaderKillsPixel = true;
    to_wm(&r, m);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    m = state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    d->DepthWriteEnable = true;
    to_wm(&r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    to_wm(&r, m);
    struct setup_primitive p = triangle(8, 4);
    p.draw = 7;
    send_setup(&r, &p);
    run(&r, 30);
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
    CU_ASSERT_EQUAL(stat(&r, "depth.late_pixels"), 6);
    CU_ASSERT_EQUAL(stat(&r, "ps.depth_count"), 0);   /* nothing passed yet */
    /* the back end's reports: 3 of 4 passed and written, then 1 of 2 */
    end_thread_counts(&r, r.td->head[0].request_id, 3, 3);
    run(&r, 5);
    end_thread_counts(&r, r.td->head[1].request_id, 1, 1);
    run(&r, 10);
    CU_ASSERT_EQUAL(stat(&r, "ps.depth_count"), 4);
    CU_ASSERT_EQUAL(stat(&r, "depth.late_passed"), 4);
    CU_ASSERT_EQUAL(stat(&r, "ps.pixels_written"), 4);
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
    struct rig r = rig_new();
    ps_state(&r, (struct ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                    .statistics = true });
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    to_wm(&r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthTestFunction = 1;      /* NEVER: every pixel rejected */
    to_wm(&r, m);
    struct setup_primitive p = triangle(8, 4);
    p.draw = 3;
    send_setup(&r, &p);
    run(&r, 30);
    CU_ASSERT_EQUAL(r.td->count, 0);
    const struct wm_observed_draw *od;
    CU_ASSERT_EQUAL_FATAL(wm_observed_draws(r.wm, &od), 1);
    CU_ASSERT_EQUAL(od[0].pixels_rasterized, 6);
    CU_ASSERT_EQUAL(od[0].pixels_depth_rejected, 6);
    CU_ASSERT_EQUAL(od[0].pixels_passed, 0);
    CU_ASSERT_EQUAL(od[0].pixels_shaded, 0);
    CU_ASSERT_EQUAL(stat(&r, "depth.late_pixels"), 0);
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
    struct rig r = rig_new();
    ps_state(&r, (struct ps_setup){ .e16 = true, .grf = { 2 }, .ksp = { 0x40 } });
    struct spec_3DSTATE_WM *w;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_WM, 2, sizeof *w, (void **)&w);
    w->PolygonStippleEnable = true;
    to_wm(&r, m);
    uint32_t rows[32] = { 0 };
    rows[0] = 0xa0000000u;          /* columns 0 and 2 */
    rows[1] = 0x40000000u;          /* column 1 */
    struct spec_3DSTATE_POLY_STIPPLE_PATTERN *pp;
    m = state_msg(&r, SPEC_ID_3DSTATE_POLY_STIPPLE_PATTERN, 33, sizeof *pp, (void **)&pp);
    memcpy(pp->PatternRow, rows, sizeof rows);
    to_wm(&r, m);
    struct spec_3DSTATE_POLY_STIPPLE_OFFSET *po;
    m = state_msg(&r, SPEC_ID_3DSTATE_POLY_STIPPLE_OFFSET, 2, sizeof *po, (void **)&po);
    po->PolygonStippleXOffset = 8;
    po->PolygonStippleYOffset = 4;
    to_wm(&r, m);
    struct setup_primitive p = triangle(8, 4);
    send_setup(&r, &p);
    run(&r, 30);
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
    CU_ASSERT_EQUAL(stat(&r, "raster.poly_stippled"), 6 - kept);
    CU_ASSERT_EQUAL(stat(&r, "raster.pixels"), kept);
    /* one SIMD16 thread; subspan (8,6) has nothing left and is not sent */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(r.td->grf[0][1][7], (mask & 0xffu) << 16 | (mask & 0xffu));
    /* a TRIFAN_NOSTIPPLE triangle (SF's flag) is not stippled */
    p = triangle(8, 4);
    p.flags |= PRIM_NO_POLY_STIPPLE;
    send_setup(&r, &p);
    run(&r, 30);
    CU_ASSERT_EQUAL(stat(&r, "raster.pixels"), kept + 6);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "a killing PS over a depth-tested draw: late flag, planes, passes from thread ends",
      test_kill_is_late },
    { "early depth rejects counted per draw", test_early_rejects_per_draw },
    { "polygon stipple: the 32x32 pattern at its offset; NOSTIPPLE triangles untouched",
      test_polygon_stipple },
    { 0 }
};
TEST_SUITE(wm_late, cases);
