/* tests/units/test_sf.c - the SF unit's front half driven alone: VUEs in the
 * real URB unit, SF_CLIP_VIEWPORT in memory, primitives injected on "clip".
 * Expected screen positions are worked out here: divide by w, then
 * x' = m00 x + m30, y' = m11 y + m31, z' = m22 z + m32 (seed 003
 * L14732-14744), with the matrix of a 64x64 GL viewport (m00 = 32, m30 = 32,
 * m11 = -32, m31 = 32: Mesa's y flip for a window-system framebuffer is
 * irrelevant here, any values do). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/sf/sf.h"
#include "units/sf/sf_attributes.h"
#include "units/sf/sf_setup.h"
#include "units/urb/urb.h"

#define CAUGHT_SETUPS 8u

struct catcher {
    struct port *in;
    uint32_t count, setups;
    _Alignas(16) uint8_t last[sizeof(struct setup_primitive)];
    struct setup_primitive setup[CAUGHT_SETUPS];    /* the first MSG_SETUPs */
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
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
    while ((m = port_pop(c->in))) {
        memcpy(c->last, m->payload, m->size < sizeof c->last ? m->size : sizeof c->last);
        c->count++;
        if (m->kind == MSG_SETUP && m->size >= sizeof c->setup[0] && c->setups < CAUGHT_SETUPS)
            memcpy(&c->setup[c->setups++], m->payload, sizeof c->setup[0]);
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_sf_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *sf, *urb;
    struct catcher *alloc, *drained, *wm;
};

/* A state packet of `id` of generation `gen` whose superset struct is
 * `common` (dwords unused). */
static void inject_state_gen(struct rig *r, uint32_t gen, const char *port, struct unit *u,
                             uint32_t id, const void *common, size_t size)
{
    size_t off = cs_state_common_offset(1);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + size));
    memset(m->payload, 0, off + size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = (uint8_t)gen;
    p->dword_count = 1;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy((uint8_t *)p + off, common, size);
    CU_ASSERT_TRUE(port_inject(unit_port(u, port, 0), m));
}

static void inject_state(struct rig *r, const char *port, struct unit *u, uint32_t id,
                         const void *common, size_t size)
{
    inject_state_gen(r, 9, port, u, id, common, size);
}

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.sf = probe_add(r.sim, &sf_ops, "sf", NULL);
    struct unit *alloc = probe_add(r.sim, &catcher_ops, "alloc", NULL);
    struct unit *drained = probe_add(r.sim, &catcher_ops, "drained", NULL);
    struct unit *wm = probe_add(r.sim, &catcher_ops, "wm", NULL);
    probe_link(r.sim, r.sf, "wm", wm, "in", 1, 16, 1);
    probe_link(r.sim, r.sf, "urb", r.urb, "client[0]", 1, 4, 1);
    probe_link(r.sim, r.urb, "client_reply[0]", r.sf, "urb_reply", 1, 4, 1);
    probe_link(r.sim, r.urb, "client_reply[1]", alloc, "in", 1, 4, 1);
    probe_link(r.sim, r.sf, "drained", drained, "in", 1, 4, 1);
    /* the test stands in CLIP's place: the first injection binds sf.clip, so
     * STATE_BASE_ADDRESS goes in before realize */
    struct spec_STATE_BASE_ADDRESS sba = { .DynamicStateBaseAddressModifyEnable = true,
                                           .DynamicStateBaseAddress = 0x100000 };
    inject_state(&r, "clip", r.sf, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.alloc = unit_state(alloc);
    r.drained = unit_state(drained);
    r.wm = unit_state(wm);
    return r;
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

/* Three VS entries (3DSTATE_URB_VS: start 8 KB x 4, 64-byte entries, 32 of
 * them) allocated through client 1; returns their handles. */
static void three_entries(struct rig *r, uint32_t handles[3])
{
    struct spec_3DSTATE_URB_VS v = { .VSNumberOfURBEntries = 32, .VSURBEntryAllocationSize = 0,
                                     .VSURBStartingAddress = 4 };
    inject_state(r, "state", r->urb, SPEC_ID_3DSTATE_URB_VS, &v, sizeof v);
    run(r, 4);
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = 3;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->alloc->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r->alloc->last;
    CU_ASSERT_EQUAL_FATAL(a->count, 3);
    memcpy(handles, a->handles, 3 * sizeof handles[0]);
}

static void write_position(struct rig *r, uint32_t handle, float x, float y, float z, float w)
{
    float row[8] = { 0 };
    row[4] = x;
    row[5] = y;
    row[6] = z;
    row[7] = w;
    CU_ASSERT_EQUAL(urb_backdoor_write(r->urb, urb_handle_offset(handle), row, sizeof row), 32);
}

static void inject_primitive(struct rig *r, const uint32_t handles[3], uint32_t draw)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_TRILIST;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = 3;
    p->draw = draw;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, 3 * sizeof handles[0]);
    CU_ASSERT_TRUE(port_inject(unit_port(r->sf, "clip", 0), m));
}

static void test_positions_reach_screen_space(void)
{
    struct rig r = rig_new();
    /* SF_CLIP_VIEWPORT 0 at dynamic base 0x100000 + 0x40 */
    struct GEN9_SF_CLIP_VIEWPORT vp = {
        .ViewportMatrixElementM00 = 32.0f, .ViewportMatrixElementM11 = -32.0f,
        .ViewportMatrixElementM22 = 0.5f, .ViewportMatrixElementM30 = 32.0f,
        .ViewportMatrixElementM31 = 32.0f, .ViewportMatrixElementM32 = 0.5f,
        .XMaxViewPort = 63.0f, .YMaxViewPort = 63.0f,
    };
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_SF_CLIP_VIEWPORT_pack(dw, &vp), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x100040, dw, sizeof dw, NULL), 0);
    struct spec_3DSTATE_SF sfs = { .ViewportTransformEnable = true };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_SF, &sfs, sizeof sfs);
    struct spec_3DSTATE_DRAWING_RECTANGLE rect = { .ClippedDrawingRectangleXMax = 63,
                                                   .ClippedDrawingRectangleYMax = 63 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_DRAWING_RECTANGLE, &rect, sizeof rect);
    struct spec_3DSTATE_RASTER raster = { .CullMode = 1 /* NONE */ };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
    struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP ptr = { .SFClipViewportPointer = 0x40 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, &ptr,
                 sizeof ptr);
    uint32_t h[3];
    three_entries(&r, h);
    write_position(&r, h[0], 0.5f, 0.5f, 0.0f, 1.0f);     /* -> (48, 16, 0.5) */
    write_position(&r, h[1], -2.0f, 1.0f, 1.0f, 2.0f);    /* /2: (-1, 0.5, 0.5) -> (0, 16, 0.75) */
    write_position(&r, h[2], 0.0f, -1.0f, -1.0f, 1.0f);   /* -> (32, 64, 0) */
    inject_primitive(&r, h, 7);
    run(&r, 60);
    const struct sf_observed_draw *d;
    CU_ASSERT_EQUAL_FATAL(sf_observed_draws(r.sf, &d), 1);
    CU_ASSERT_EQUAL(d[0].draw, 7);
    CU_ASSERT_EQUAL(d[0].primitives, 1);
    const float want[3][3] = { { 48, 16, 0.5f }, { 0, 16, 0.75f }, { 32, 64, 0 } };
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 3; c++)
            CU_ASSERT_DOUBLE_EQUAL(d[0].primitives_seen[0].v[v].screen[c], want[v][c], 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(d[0].primitives_seen[0].v[1].clip[3], 2.0, 0);
    /* set up and on to WM: pixel centres from (0.5, 16.5) to (47.5, 63.5),
     * the box clipped at 63 by the drawing rectangle and the extents */
    uint32_t setups = 0;
    const struct setup_primitive *sp = NULL;
    for (uint32_t i = 0; i < r.wm->count && i < 1; i++)
        sp = (const struct setup_primitive *)r.wm->last;
    setups = (uint32_t)probe_stat(r.sim, "sf.setup.triangles");
    CU_ASSERT_EQUAL(setups, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
    CU_ASSERT_EQUAL(sp->x_min, 0);
    CU_ASSERT_EQUAL(sp->x_max, 47);
    CU_ASSERT_EQUAL(sp->y_min, 16);
    CU_ASSERT_EQUAL(sp->y_max, 63);
    /* the references were dropped: the three entries are free again */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.vertices"), 3);
    /* a sync behind it comes back on "drained" with its registers intact */
    struct msg *m = msg_alloc(r.sim, MSG_MMIO, sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    memset(m->payload, 0, m->size);
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_SYNC;
    c->size = sizeof(struct pipeline_registers);
    struct pipeline_registers *regs = (struct pipeline_registers *)c->data;
    regs->written = 1u << PIPE_REG_IA_VERTICES;
    regs->value[PIPE_REG_IA_VERTICES] = 3;
    CU_ASSERT_TRUE(port_inject(unit_port(r.sf, "clip", 0), m));
    run(&r, 10);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    const struct cs_mmio *back = (const struct cs_mmio *)r.drained->last;
    CU_ASSERT_EQUAL(back->op, CS_MMIO_SYNC_DONE);
    CU_ASSERT_EQUAL(((const struct pipeline_registers *)back->data)->value[PIPE_REG_IA_VERTICES], 3);
    sim_destroy(r.sim);
}

/* Bad input: a zero-sized viewport (glViewport(0, 0, 0, 0): m00 = m11 = 0,
 * extents 0..-1) maps every vertex to one point: the triangle is degenerate
 * and culled (L14482ff object setup), nothing reaches WM, and the entries
 * are freed. */
static void test_zero_sized_viewport(void)
{
    struct rig r = rig_new();
    struct GEN9_SF_CLIP_VIEWPORT vp = {
        .ViewportMatrixElementM22 = 0.5f, .ViewportMatrixElementM32 = 0.5f,
        .XMinViewPort = 0.0f, .XMaxViewPort = -1.0f, .YMinViewPort = 0.0f, .YMaxViewPort = -1.0f,
    };
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_SF_CLIP_VIEWPORT_pack(dw, &vp), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x100040, dw, sizeof dw, NULL), 0);
    struct spec_3DSTATE_SF sfs = { .ViewportTransformEnable = true };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_SF, &sfs, sizeof sfs);
    struct spec_3DSTATE_DRAWING_RECTANGLE rect = { .ClippedDrawingRectangleXMax = 63,
                                                   .ClippedDrawingRectangleYMax = 63 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_DRAWING_RECTANGLE, &rect, sizeof rect);
    struct spec_3DSTATE_RASTER raster = { .CullMode = 1 /* NONE */ };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
    struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP ptr = { .SFClipViewportPointer = 0x40 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, &ptr,
                 sizeof ptr);
    uint32_t h[3];
    three_entries(&r, h);
    write_position(&r, h[0], 0.5f, 0.5f, 0.0f, 1.0f);
    write_position(&r, h[1], -1.0f, 0.5f, 0.5f, 1.0f);
    write_position(&r, h[2], 0.0f, -1.0f, -1.0f, 1.0f);
    inject_primitive(&r, h, 3);
    run(&r, 60);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.setup.triangles"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.culled.degenerate") +
                    probe_stat(r.sim, "sf.culled.outside"), 1);
    CU_ASSERT_EQUAL(r.wm->setups, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    sim_destroy(r.sim);
}

static void test_nan_and_transform_off(void)
{
    struct rig r = rig_new();
    uint32_t h[3];
    three_entries(&r, h);
    /* no 3DSTATE_SF yet: the transform is off, positions are divided only */
    write_position(&r, h[0], 2.0f, 4.0f, 1.0f, 2.0f);
    write_position(&r, h[1], 0.0f, 0.0f, 0.0f, 1.0f);
    write_position(&r, h[2], 0.0f, 0.0f, 0.0f, 0.0f);    /* 0/0: NaN */
    inject_primitive(&r, h, 1);
    run(&r, 60);
    const struct sf_observed_draw *d;
    CU_ASSERT_EQUAL_FATAL(sf_observed_draws(r.sf, &d), 1);
    CU_ASSERT_DOUBLE_EQUAL(d[0].primitives_seen[0].v[0].screen[0], 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(d[0].primitives_seen[0].v[0].screen[1], 2.0, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.nan_discarded"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    sim_destroy(r.sim);
}

/* `count` VS entries of 128 bytes (4 rows: the header and six attributes). */
static void entries(struct rig *r, uint32_t *handles, uint32_t count)
{
    struct spec_3DSTATE_URB_VS v = { .VSNumberOfURBEntries = 32, .VSURBEntryAllocationSize = 1,
                                     .VSURBStartingAddress = 4 };
    inject_state(r, "state", r->urb, SPEC_ID_3DSTATE_URB_VS, &v, sizeof v);
    run(r, 4);
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = count;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->alloc->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r->alloc->last;
    CU_ASSERT_EQUAL_FATAL(a->count, count);
    memcpy(handles, a->handles, count * sizeof handles[0]);
}

/* Vertex header (point width, position) and attribute rows 1.. of a VUE. */
static void write_vue(struct rig *r, uint32_t handle, const float position[4], float point_width,
                      const float (*attributes)[4], uint32_t attribute_count)
{
    float rows[4][8];
    memset(rows, 0, sizeof rows);
    rows[0][3] = point_width;
    memcpy(&rows[0][4], position, 4 * sizeof(float));
    for (uint32_t i = 0; i < attribute_count && i < 6; i++)
        memcpy(&rows[1 + i / 2][4 * (i % 2)], attributes[i], 4 * sizeof(float));
    CU_ASSERT_EQUAL(urb_backdoor_write(r->urb, urb_handle_offset(handle), rows, sizeof rows),
                    sizeof rows);
}

static void inject_topology(struct rig *r, uint32_t topology, const uint32_t *handles, uint32_t n,
                            uint32_t primitive_id)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = n;
    p->primitive_id = primitive_id;
    p->draw = 1;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, n * sizeof handles[0]);
    CU_ASSERT_TRUE(port_inject(unit_port(r->sf, "clip", 0), m));
}

/* Transform off, a 64x64 drawing rectangle, no culling. */
static void screen_state(struct rig *r, const struct spec_3DSTATE_SF *sf)
{
    inject_state(r, "clip", r->sf, SPEC_ID_3DSTATE_SF, sf, sizeof *sf);
    struct spec_3DSTATE_DRAWING_RECTANGLE rect = { .ClippedDrawingRectangleXMax = 63,
                                                   .ClippedDrawingRectangleYMax = 63 };
    inject_state(r, "clip", r->sf, SPEC_ID_3DSTATE_DRAWING_RECTANGLE, &rect, sizeof rect);
    struct spec_3DSTATE_RASTER raster = { .CullMode = 1 /* NONE */ };
    inject_state(r, "clip", r->sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
}

static double eval(const struct setup_plane *a, double b1, double b2)
{
    return a->a0 + a->a1 * b1 + a->a2 * b2;
}

/* skl_tri's state: 3DSTATE_SBE forces Read Offset 1, Length 1, one output,
 * swizzling on with attribute 0 = source 0 (skl_tri.aubinator.txt
 * L2945-3000): the colour after the position. Each vertex's colour comes
 * back at its own weights (1,0,0), (0,1,0), (0,0,1); flat shading takes the
 * provoking vertex the Triangle Strip/List select names. */
static void test_sbe_colour_through_urb(void)
{
    const float pos[3][4] = { { 4, 4, 0.5f, 1 }, { 40, 8, 0.5f, 1 }, { 10, 50, 0.5f, 1 } };
    const float colour[3][1][4] = { { { 1, 0, 0, 1 } }, { { 0, 1, 0, 1 } }, { { 0, 0, 1, 0.5f } } };
    for (uint32_t pv = 0; pv < 4; pv++) {       /* 3: smooth */
        struct rig r = rig_new();
        struct spec_3DSTATE_SF sf = { .TriangleStripListProvokingVertexSelect = pv < 3 ? pv : 2 };
        screen_state(&r, &sf);
        struct spec_3DSTATE_SBE sbe = { .ForceVertexURBEntryReadOffset = true,
                                        .ForceVertexURBEntryReadLength = true,
                                        .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 1,
                                        .NumberOfSFOutputAttributes = 1,
                                        .AttributeSwizzleEnable = true,
                                        .ConstantInterpolationEnable = pv < 3 ? 1 : 0 };
        for (int i = 0; i < 32; i++)
            sbe.AttributeActiveComponentFormat[i] = SBE_ACTIVE_XYZW;
        inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_SBE, &sbe, sizeof sbe);
        struct spec_3DSTATE_SBE_SWIZ swiz = { 0 };
        inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_SBE_SWIZ, &swiz, sizeof swiz);
        uint32_t h[3];
        entries(&r, h, 3);
        for (int i = 0; i < 3; i++)
            write_vue(&r, h[i], pos[i], 0, colour[i], 1);
        inject_topology(&r, PRIM_TRILIST, h, 3, 9);
        run(&r, 80);
        CU_ASSERT_EQUAL_FATAL(r.wm->setups, 1);
        const struct setup_primitive *p = &r.wm->setup[0];
        CU_ASSERT_EQUAL(p->attribute_count, 1);
        CU_ASSERT_EQUAL(p->primitive_id, 9);
        CU_ASSERT_EQUAL(p->draw, 1);
        static const double b[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
        for (int v = 0; v < 3; v++)
            for (int c = 0; c < 4; c++) {
                float want = pv < 3 ? colour[pv][0][c] : colour[v][0][c];
                CU_ASSERT_DOUBLE_EQUAL(eval(&p->attributes[0][c], b[v][0], b[v][1]), want, 1e-6);
            }
        CU_ASSERT_EQUAL(p->constant_mask, pv < 3 ? 1u : 0u);
        CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.attributes.rows_read"), 3);
        CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
        sim_destroy(r.sim);
    }
}

/* Without the Force bits SBE_INT takes the last enabled stage's output
 * read offset and length (003 L15169-15175): GS enabled with offset 2
 * reads row 2 (attributes 2 and 3) in a read of its own. */
static void test_sbe_read_from_stage_state(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_SF sf = { 0 };
    screen_state(&r, &sf);
    struct spec_3DSTATE_VS vs = { .Enable = true, .VertexURBEntryOutputReadOffset = 1,
                                  .VertexURBEntryOutputLength = 1 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_VS, &vs, sizeof vs);
    struct spec_3DSTATE_GS gs = { .Enable = true, .VertexURBEntryOutputReadOffset = 2,
                                  .VertexURBEntryOutputLength = 1 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_GS, &gs, sizeof gs);
    struct spec_3DSTATE_SBE sbe = { .NumberOfSFOutputAttributes = 2 };
    for (int i = 0; i < 32; i++)
        sbe.AttributeActiveComponentFormat[i] = SBE_ACTIVE_XYZW;
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_SBE, &sbe, sizeof sbe);
    uint32_t h[3];
    entries(&r, h, 3);
    const float pos[3][4] = { { 4, 4, 0.5f, 1 }, { 40, 8, 0.5f, 1 }, { 10, 50, 0.5f, 1 } };
    for (int i = 0; i < 3; i++) {
        float attrs[4][4] = { { 0 } };
        for (int a = 0; a < 4; a++)
            for (int c = 0; c < 4; c++)
                attrs[a][c] = (float)(100 * i + 10 * a + c);
        write_vue(&r, h[i], pos[i], 0, (const float (*)[4])attrs, 4);
    }
    inject_topology(&r, PRIM_TRILIST, h, 3, 0);
    run(&r, 80);
    CU_ASSERT_EQUAL_FATAL(r.wm->setups, 1);
    const struct setup_primitive *p = &r.wm->setup[0];
    /* outputs 0, 1 = VUE attributes 2, 3 (row 2) */
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 4; c++) {
            CU_ASSERT_DOUBLE_EQUAL(p->attributes[a][c].a0, 10 * (a + 2) + c, 0);
            CU_ASSERT_DOUBLE_EQUAL(eval(&p->attributes[a][c], 0, 1), 200 + 10 * (a + 2) + c, 1e-4);
        }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.attributes.rows_read"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.port.urb_reply.received"), 6);   /* header + row 2 */
    sim_destroy(r.sim);
}

/* Points with the vertex's width (Point Width Source = Vertex, the VUE
 * header's D3) and lines of a strip, through the unit. */
static void test_points_and_lines(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_SF sf = { .LineWidth = 1.0, .PointWidthSource = 0 };
    screen_state(&r, &sf);
    uint32_t h[4];
    entries(&r, h, 4);
    const float pos[4][4] = { { 10.5f, 20.5f, 0.5f, 1 }, { 30.5f, 20.5f, 0.5f, 1 },
                              { 30.5f, 40.5f, 0.5f, 1 }, { 10, 20, 0.5f, 1 } };
    for (int i = 0; i < 4; i++)
        write_vue(&r, h[i], pos[i], 4.0f, NULL, 0);
    inject_topology(&r, PRIM_POINTLIST, &h[3], 1, 0);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.wm->setups, 1);
    const struct setup_primitive *p = &r.wm->setup[0];
    CU_ASSERT_EQUAL(p->topology, PRIM_POINTLIST);
    CU_ASSERT(p->x_min == 8 && p->x_max == 11 && p->y_min == 18 && p->y_max == 21);
    /* the strip (10.5,20.5) -> (30.5,20.5) -> (30.5,40.5): two lines */
    inject_topology(&r, PRIM_LINESTRIP, h, 3, 0);
    run(&r, 60);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.setup.points"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.setup.lines"), 2);
    CU_ASSERT_EQUAL_FATAL(r.wm->setups, 3);
    CU_ASSERT_EQUAL(r.wm->setup[1].y_min, 20);
    CU_ASSERT_EQUAL(r.wm->setup[1].y_max, 20);
    p = &r.wm->setup[2];
    CU_ASSERT_EQUAL(p->topology, PRIM_LINELIST);
    /* vertical through pixel centres x = 30.5 from y 20.5 to 40.5: column 30, rows 20..39 */
    CU_ASSERT(p->x_min <= 30 && p->x_max >= 30);
    uint32_t n = 0, wrong = 0;
    for (int32_t y = 0; y < 64; y++)
        for (int32_t x = 0; x < 64; x++) {
            bool in = sf_setup_covers(p, x, y, true);
            n += in;
            wrong += in != (x == 30 && y >= 20 && y < 40);
        }
    CU_ASSERT_EQUAL(n, 20);
    CU_ASSERT_EQUAL(wrong, 0);
    sim_destroy(r.sim);
}

/* Decomposition and culling counts: a strip of 4 gives 2 triangles with
 * alternating winding, so a back-face cull keeps both (L14631-14651); a
 * NaN vertex drops the objects that use it; an infinite W is counted. */
static void test_decomposition_and_culls(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_SF sf = { 0 };
    screen_state(&r, &sf);
    struct spec_3DSTATE_RASTER raster = { .CullMode = 3 /* BACK */, .FrontWinding = 0 /* CW */ };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
    uint32_t h[10];
    entries(&r, h, 10);
    /* (0,0) (0,10) (10,0) (10,10): with Y down, v0 v1 v2 is counter-clockwise
     * and v1 v2 v3 clockwise, the strip's inversion makes both the same face */
    const float pos[6][4] = { { 0, 0, 0.5f, 1 }, { 0, 10, 0.5f, 1 }, { 10, 0, 0.5f, 1 },
                              { 10, 10, 0.5f, 1 }, { NAN, 0, 0, 1 }, { 5, 5, 0.5f, INFINITY } };
    for (int i = 0; i < 6; i++)
        write_vue(&r, h[i], pos[i], 0, NULL, 0);
    for (int i = 6; i < 10; i++)
        write_vue(&r, h[i], pos[0], 0, NULL, 0);
    inject_topology(&r, PRIM_TRISTRIP, h, 4, 0);
    run(&r, 80);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.objects"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.culled.face"), 2);    /* both CCW: back */
    inject_topology(&r, PRIM_POINTLIST, &h[4], 1, 0);
    inject_topology(&r, PRIM_POINTLIST, &h[5], 1, 0);
    run(&r, 80);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.nan_discarded"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.culled.infinite"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.primitives"), 3);
    /* a topology SF does not take is counted, and its references still dropped */
    inject_topology(&r, PRIM_QUADLIST, &h[6], 4, 0);
    run(&r, 80);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sf.unsupported"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 10);
    sim_destroy(r.sim);
}

/* Global depth offset through the unit (003 L15719-15758): the triangle
 * (2,2) (10,2) (2,10) (w = 1, no viewport transform: screen = clip), z 0.25,
 * 1.25, -0.25: dz/dx = 0.125, dz/dy = -0.0625, MaxDepthSlope 0.125, the
 * plane's a0 the depth at vertex 0 plus the bias computed here. Clockwise on
 * the screen, so front-facing with Front Winding CW (0). */
static const struct setup_primitive *offset_triangle(struct rig *r)
{
    struct spec_3DSTATE_DRAWING_RECTANGLE rect = { .ClippedDrawingRectangleXMax = 63,
                                                   .ClippedDrawingRectangleYMax = 63 };
    inject_state(r, "clip", r->sf, SPEC_ID_3DSTATE_DRAWING_RECTANGLE, &rect, sizeof rect);
    uint32_t h[3];
    three_entries(r, h);
    write_position(r, h[0], 2, 2, 0.25f, 1);
    write_position(r, h[1], 10, 2, 1.25f, 1);
    write_position(r, h[2], 2, 10, -0.25f, 1);
    inject_primitive(r, h, 1);
    run(r, 60);
    CU_ASSERT_EQUAL_FATAL(r->wm->setups, 1);
    return &r->wm->setup[0];
}

/* Gen9: 3DSTATE_RASTER's Wireframe enable applies to a WIREFRAME front face
 * (drawn solid), with D24_UNORM_X8 from 3DSTATE_DEPTH_BUFFER: r = 1/(2^24-1);
 * the Solid enable alone does nothing to it. */
static void test_depth_offset_raster_gen9(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_DEPTH_BUFFER db = { .SurfaceType = 1, .SurfaceFormat = 3 };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_DEPTH_BUFFER, &db, sizeof db);
    struct spec_3DSTATE_RASTER raster = { .CullMode = 1, .FrontFaceFillMode = 1,
                                          .GlobalDepthOffsetEnableSolid = true,
                                          .GlobalDepthOffsetEnableWireframe = true,
                                          .GlobalDepthOffsetConstant = 4.0f,
                                          .GlobalDepthOffsetScale = 0.5f,
                                          .GlobalDepthOffsetClamp = 0.05f };
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
    const struct setup_primitive *p = offset_triangle(&r);
    CU_ASSERT_FALSE(p->flags & PRIM_BACK_FACING);
    /* 4 r + 0.5 * 0.125 = 0.0625 + 2.4e-7, clamped to 0.05 */
    CU_ASSERT_DOUBLE_EQUAL(p->depth.a0, 0.25 + 0.05, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p->depth.a1, 0.125, 1e-7);
    sim_destroy(r.sim);
    r = rig_new();
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_DEPTH_BUFFER, &db, sizeof db);
    raster.GlobalDepthOffsetEnableWireframe = false;
    raster.GlobalDepthOffsetClamp = 0;
    inject_state(&r, "clip", r.sf, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
    p = offset_triangle(&r);
    CU_ASSERT_DOUBLE_EQUAL(p->depth.a0, 0.25, 0);
    sim_destroy(r.sim);
}

/* Gen7: 3DSTATE_SF carries the depth offset and the depth format (seed 000
 * L1681-2041): D32_FLOAT, r = 2^(exponent(max z = 1.25) - 23) = 2^-23. */
static void test_depth_offset_sf_gen7(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_SF sfs = { .CullMode = 1, .DepthBufferSurfaceFormat = 1,
                                   .GlobalDepthOffsetEnableSolid = true,
                                   .GlobalDepthOffsetConstant = 3.0f,
                                   .GlobalDepthOffsetScale = 0.25f };
    inject_state_gen(&r, 7, "clip", r.sf, SPEC_ID_3DSTATE_SF, &sfs, sizeof sfs);
    const struct setup_primitive *p = offset_triangle(&r);
    CU_ASSERT_DOUBLE_EQUAL(p->depth.a0, 0.25 + 3.0 * ldexp(1.0, -23) + 0.25 * 0.125, 1e-9);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "positions divided and transformed, references dropped, sync returned",
      test_positions_reach_screen_space },
    { "viewport transform off, NaN positions discarded", test_nan_and_transform_off },
    { "a zero-sized viewport culls, nothing reaches WM", test_zero_sized_viewport },
    { "SBE: skl_tri's forced read of the colour, smooth and flat per provoking vertex",
      test_sbe_colour_through_urb },
    { "SBE_INT read offset/length from the last enabled stage", test_sbe_read_from_stage_state },
    { "points with the vertex's width, lines of a strip", test_points_and_lines },
    { "global depth offset from 3DSTATE_RASTER: the fill mode's enable, D24, clamp",
      test_depth_offset_raster_gen9 },
    { "global depth offset from Gen7's 3DSTATE_SF with D32_FLOAT", test_depth_offset_sf_gen7 },
    { "strip decomposition and face culls, NaN, infinite, unsupported counted",
      test_decomposition_and_culls },
    { 0 }
};
TEST_SUITE(sf, cases);
