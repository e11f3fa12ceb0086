/* tests/units/test_clip.c - the CLIP unit driven alone with the real URB unit:
 * state and primitives injected on "sol", the VUEs written into the URB by its
 * backdoor, what leaves on "sf" (and "drained") caught. The URB entries the
 * test uses are allocated through the URB's client[1]; handles follow from the
 * 3DSTATE_URB_VS values (start x 8 KB, (size + 1) x 64 B entries, 64 B handle
 * units, seed 004 L6335-6352, seed 003 L8459). Expected cut points and
 * attribute values are computed here from the edge parameter of the plane
 * crossed (t = (w0 - x0) / ((w0 - x0) - (w1 - x1)) for x = w, v0 inside) and
 * the linear blend a0 + t (a1 - a0) (seed 003 L13862, L11806-11843). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/clip/clip.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/urb/urb.h"

/* ---- a catcher keeping copies of what arrives ---------------------------------------- */

#define CATCH_MAX 512
#define CATCH_BYTES 1024

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[CATCH_MAX];
    _Alignas(16) uint8_t payload[CATCH_MAX][CATCH_BYTES];   /* payload structs need their alignment */
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "anything" },
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
        if (c->count < CATCH_MAX) {
            c->kind[c->count] = m->kind;
            memcpy(c->payload[c->count], m->payload, m->size < CATCH_BYTES ? m->size : CATCH_BYTES);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_clip_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* ---- the rig ------------------------------------------------------------------------- */

#define VS_START 4u         /* x 8 KB = 32 KB */
#define VS_SIZE 1u          /* (1 + 1) x 64 B = 128 B = 4 rows */
#define VS_ROWS 4u
#define FIRST_HANDLE (VS_START * 8192u / 64u)       /* 512 */
#define HANDLE_STEP ((VS_SIZE + 1u) * 64u / 64u)    /* 2 */

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb, *clip;
    struct catcher *sf, *own, *drained;
    uint32_t handles[16];
};

static void urb_state(struct rig *r, uint32_t entries)
{
    size_t off = cs_state_common_offset(0);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_3DSTATE_URB_VS)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = SPEC_ID_3DSTATE_URB_VS;
    p->gen = 9;
    p->common_offset = (uint32_t)off;
    struct spec_3DSTATE_URB_VS *v = (void *)((uint8_t *)p + off);
    v->VSNumberOfURBEntries = entries;
    v->VSURBEntryAllocationSize = VS_SIZE;
    v->VSURBStartingAddress = VS_START;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

/* A state packet for CLIP from its superset struct. */
static void state(struct rig *r, uint32_t id, const void *common, size_t size)
{
    size_t off = cs_state_common_offset(0);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + size));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy((uint8_t *)p + off, common, size);
    CU_ASSERT_TRUE(port_inject(unit_port(r->clip, "sol", 0), m));
}

static void urb_request(struct rig *r, uint32_t op, uint32_t count, const uint32_t *handles)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->op = op;
    q->client = URB_CLIENT_VS;
    q->count = count;
    for (uint32_t i = 0; handles && i < count; i++)
        q->handles[i] = handles[i];
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
}

static struct spec_3DSTATE_CLIP clip_defaults(void)
{
    struct spec_3DSTATE_CLIP c;
    memset(&c, 0, sizeof c);
    c.ClipEnable = true;
    c.StatisticsEnable = true;
    c.ViewportXYClipTestEnable = true;
    c.ClipMode = 0;             /* NORMAL */
    c.APIMode = 0;              /* OpenGL */
    return c;
}

/* The rig: URB with a VS allocation of `entries`, CLIP state (VS enabled, its
 * entry size, 3DSTATE_SF Statistics Enable, the given 3DSTATE_CLIP), and
 * `vertices` entries allocated for the test's VUEs. */
static struct rig rig_new(uint32_t entries, uint32_t vertices, const struct spec_3DSTATE_CLIP *clip,
                          bool with_drained)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.clip = probe_add(r.sim, &clip_ops, "clip", NULL);
    struct unit *sf = probe_add(r.sim, &catcher_ops, "sf", NULL);
    struct unit *own = probe_add(r.sim, &catcher_ops, "own", NULL);
    struct unit *drained = probe_add(r.sim, &catcher_ops, "drained", NULL);
    probe_link(r.sim, r.clip, "sf", sf, "in", 1, 64, 4);
    probe_link(r.sim, r.clip, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.clip, "urb_reply", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", own, "in", 1, 16, 4);
    if (with_drained)
        probe_link(r.sim, r.clip, "drained", drained, "in", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    int realized = sim_realize(r.sim, &err);
    if (realized)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(realized, 0);
    r.sf = unit_state(sf);
    r.own = unit_state(own);
    r.drained = unit_state(drained);
    urb_state(&r, entries);
    struct spec_3DSTATE_URB_VS uv = { .VSNumberOfURBEntries = entries,
                                      .VSURBEntryAllocationSize = VS_SIZE,
                                      .VSURBStartingAddress = VS_START };
    state(&r, SPEC_ID_3DSTATE_URB_VS, &uv, sizeof uv);
    struct spec_3DSTATE_VS vs;
    memset(&vs, 0, sizeof vs);
    vs.Enable = true;
    state(&r, SPEC_ID_3DSTATE_VS, &vs, sizeof vs);
    struct spec_3DSTATE_SF sfs;
    memset(&sfs, 0, sizeof sfs);
    sfs.StatisticsEnable = true;
    state(&r, SPEC_ID_3DSTATE_SF, &sfs, sizeof sfs);
    struct spec_3DSTATE_CLIP c = clip ? *clip : clip_defaults();
    state(&r, SPEC_ID_3DSTATE_CLIP, &c, sizeof c);
    sim_run(r.sim, 0);
    if (vertices) {
        urb_request(&r, URB_OP_ALLOC, vertices, NULL);
        sim_run(r.sim, 0);
        CU_ASSERT_EQUAL_FATAL(r.own->count, 1);
        const struct urb_msg *a = (const struct urb_msg *)r.own->payload[0];
        CU_ASSERT_EQUAL_FATAL(a->count, vertices);
        for (uint32_t i = 0; i < vertices; i++) {
            r.handles[i] = a->handles[i];
            CU_ASSERT_EQUAL(a->handles[i], FIRST_HANDLE + i * HANDLE_STEP);
        }
    }
    return r;
}

static void rig_free(struct rig *r)
{
    sim_destroy(r->sim);
}

/* A VUE: header (RTAIndex rta), position, clip distances, attributes 10 v + k. */
struct vue {
    uint32_t dw[VS_ROWS * 8];
};

static struct vue vue_at(float x, float y, float z, float w, uint32_t rta, float attr_base)
{
    struct vue v;
    memset(&v, 0, sizeof v);
    v.dw[VUE_DW_RT_ARRAY_INDEX] = rta;
    float pos[4] = { x, y, z, w };
    memcpy(&v.dw[VUE_DW_POSITION_X], pos, sizeof pos);
    for (uint32_t k = 16; k < VS_ROWS * 8; k++) {
        float a = attr_base + (float)k;
        memcpy(&v.dw[k], &a, 4);
    }
    return v;
}

static void set_dist(struct vue *v, uint32_t i, float d)
{
    memcpy(&v->dw[VUE_DW_CLIP_DISTANCE_0 + i], &d, 4);
}

static void write_vue(struct rig *r, uint32_t handle, const struct vue *v)
{
    CU_ASSERT_EQUAL(urb_backdoor_write(r->urb, urb_handle_offset(handle), v->dw, sizeof v->dw),
                    sizeof v->dw);
}

static struct vue read_vue(struct rig *r, uint32_t handle)
{
    struct vue v;
    CU_ASSERT_EQUAL(urb_backdoor_read(r->urb, urb_handle_offset(handle), v.dw, sizeof v.dw),
                    sizeof v.dw);
    return v;
}

static float fdw(const struct vue *v, uint32_t i)
{
    float f;
    memcpy(&f, &v->dw[i], 4);
    return f;
}

static void primitive(struct rig *r, uint32_t topology, const uint32_t *handles, uint32_t n,
                      uint32_t provoking)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = n;
    p->provoking = provoking;
    p->draw = 7;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, n * sizeof *handles);
    CU_ASSERT_TRUE(port_inject(unit_port(r->clip, "sol", 0), m));
}

/* The i-th primitive that reached SF (NULL when fewer arrived). */
static const struct primitive_packet *sf_primitive(const struct rig *r, uint32_t i)
{
    for (uint32_t k = 0; k < r->sf->count && k < CATCH_MAX; k++)
        if (r->sf->kind[k] == MSG_PRIMITIVE && i-- == 0)
            return (const struct primitive_packet *)r->sf->payload[k];
    return NULL;
}

static uint32_t sf_primitives(const struct rig *r)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < r->sf->count && k < CATCH_MAX; k++)
        n += r->sf->kind[k] == MSG_PRIMITIVE;
    return n;
}

static double stat(struct rig *r, const char *path)
{
    return probe_stat(r->sim, path);
}

static bool close_to(float a, float b)
{
    return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b));
}

/* The standard triangle crossing x = w: v0 (0,0,0,1) and v2 (0,1,0,2) inside, v1 (3,0,0,1). */
static void crossing_triangle(struct rig *r)
{
    struct vue v0 = vue_at(0, 0, 0, 1, 5, 0), v1 = vue_at(3, 0, 0, 1, 6, 100),
               v2 = vue_at(0, 1, 0, 2, 7, 200);
    write_vue(r, r->handles[0], &v0);
    write_vue(r, r->handles[1], &v1);
    write_vue(r, r->handles[2], &v2);
}

/* ---- the tests ----------------------------------------------------------------------- */

static void test_inside_passes_whole(void)
{
    struct rig r = rig_new(32, 3, NULL, false);
    struct vue a = vue_at(0, 0, 0, 1, 0, 0), b = vue_at(0.5f, 0, 0, 1, 0, 0),
               c = vue_at(0, 0.5f, 0, 1, 0, 0);
    write_vue(&r, r.handles[0], &a);
    write_vue(&r, r.handles[1], &b);
    write_vue(&r, r.handles[2], &c);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    const struct primitive_packet *p = sf_primitive(&r, 0);
    CU_ASSERT_EQUAL(p->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(p->vertex_count, 3);
    CU_ASSERT_EQUAL(p->provoking, 1);
    CU_ASSERT_EQUAL(p->draw, 7);
    CU_ASSERT_EQUAL(memcmp(p->handles, r.handles, 3 * sizeof r.handles[0]), 0);
    /* the state went on to SF too, before it */
    CU_ASSERT_EQUAL(r.sf->count, 5);
    /* one header row read per vertex, references passed on unchanged */
    CU_ASSERT_EQUAL(stat(&r, "urb.ff_reads"), 3);
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 0);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.trivially_accepted"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.passed_whole"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_primitives_count"), 1);
    rig_free(&r);
}

static void test_crossing_triangle_makes_vertices(void)
{
    struct rig r = rig_new(32, 3, NULL, false);
    crossing_triangle(&r);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    const struct primitive_packet *p = sf_primitive(&r, 0);
    CU_ASSERT_EQUAL(p->topology, PRIM_POLYGON);
    CU_ASSERT_TRUE(p->flags & PRIM_CLIPPED);
    CU_ASSERT_EQUAL(p->provoking, 0);
    CU_ASSERT_EQUAL(p->owner_handle, URB_HANDLE_NONE);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 4);
    /* v0, A (on v0-v1), B (on v2-v1), v2; the new ones in the next VS entries */
    uint32_t a = FIRST_HANDLE + 3 * HANDLE_STEP, b = FIRST_HANDLE + 4 * HANDLE_STEP;
    CU_ASSERT_EQUAL(p->handles[0], r.handles[0]);
    CU_ASSERT_EQUAL(p->handles[1], a);
    CU_ASSERT_EQUAL(p->handles[2], b);
    CU_ASSERT_EQUAL(p->handles[3], r.handles[2]);
    /* A: t = (w0 - x0) / ((w0 - x0) - (w1 - x1)) = 1 / 3 from v0 */
    float t = (1.0f - 0.0f) / ((1.0f - 0.0f) - (1.0f - 3.0f));
    struct vue va = read_vue(&r, a);
    CU_ASSERT_EQUAL(va.dw[VUE_DW_RT_ARRAY_INDEX], 5);          /* the provoking v0's header */
    CU_ASSERT_TRUE(close_to(fdw(&va, VUE_DW_POSITION_X), 3 * t));
    CU_ASSERT_TRUE(close_to(fdw(&va, VUE_DW_POSITION_X + 1), 0));
    CU_ASSERT_TRUE(close_to(fdw(&va, VUE_DW_POSITION_X + 3), 1));
    for (uint32_t k = 16; k < VS_ROWS * 8; k++) {
        float a0 = (float)k, a1 = 100.0f + (float)k;
        CU_ASSERT_TRUE(close_to(fdw(&va, k), a0 + t * (a1 - a0)));
    }
    /* B: from v2: t = (w2 - x2) / ((w2 - x2) - (w1 - x1)) = 2 / 4 */
    float u = (2.0f - 0.0f) / ((2.0f - 0.0f) - (1.0f - 3.0f));
    struct vue vb = read_vue(&r, b);
    CU_ASSERT_TRUE(close_to(fdw(&vb, VUE_DW_POSITION_X), 3 * u));
    CU_ASSERT_TRUE(close_to(fdw(&vb, VUE_DW_POSITION_X + 1), 1 - u));
    CU_ASSERT_TRUE(close_to(fdw(&vb, VUE_DW_POSITION_X + 3), 2 - u));
    for (uint32_t k = 16; k < VS_ROWS * 8; k++) {
        float a2 = 200.0f + (float)k, a1 = 100.0f + (float)k;
        CU_ASSERT_TRUE(close_to(fdw(&vb, k), a2 + u * (a1 - a2)));
    }
    /* references: v0 and v2 one more for the polygon, all three dropped: v1 is freed */
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 2);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 3);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.allocations"), 5);
    CU_ASSERT_EQUAL(stat(&r, "urb.ff_writes"), 2);
    CU_ASSERT_EQUAL(stat(&r, "clip.clipped"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.vertices_made"), 2);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_primitives_count"), 2);      /* a 4-gon: 2 triangles */
    CU_ASSERT_EQUAL(stat(&r, "clip.bad_replies"), 0);
    rig_free(&r);
}

static void test_provoking_vertex_leads(void)
{
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.TriangleStripListProvokingVertexSelect = 2;
    c.ForceZeroRTAIndexEnable = true;
    struct rig r = rig_new(32, 3, &c, false);
    crossing_triangle(&r);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 2);
    sim_run(r.sim, 0);
    const struct primitive_packet *p = sf_primitive(&r, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 4);
    /* [v0, A, B, v2] rotated to start at v2, the provoking vertex; POLYGON's is v0 */
    CU_ASSERT_EQUAL(p->provoking, 0);
    CU_ASSERT_EQUAL(p->handles[0], r.handles[2]);
    CU_ASSERT_EQUAL(p->handles[1], r.handles[0]);
    /* the new vertices' header comes from v2 (RTAIndex 7), forced to 0 here */
    struct vue va = read_vue(&r, p->handles[2]);
    CU_ASSERT_EQUAL(va.dw[VUE_DW_RT_ARRAY_INDEX], 0);
    rig_free(&r);
}

static void test_reject_dereferences(void)
{
    struct rig r = rig_new(32, 3, NULL, false);
    struct vue a = vue_at(2, 0, 0, 1, 0, 0), b = vue_at(3, 0, 0, 1, 0, 0), c = vue_at(2, 1, 0, 1, 0, 0);
    write_vue(&r, r.handles[0], &a);
    write_vue(&r, r.handles[1], &b);
    write_vue(&r, r.handles[2], &c);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sf_primitives(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 3);
    CU_ASSERT_EQUAL(stat(&r, "clip.trivially_rejected"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.discarded"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_primitives_count"), 0);
    rig_free(&r);
}

static void test_user_distance_culls(void)
{
    struct rig r = rig_new(32, 6, NULL, false);
    /* the VS's cull mask reaches CLIP (CLIP_INT: no Force, VS the last stage) */
    struct spec_3DSTATE_VS vs;
    memset(&vs, 0, sizeof vs);
    vs.Enable = true;
    vs.UserClipDistanceCullTestEnableBitmask = 0x4;
    state(&r, SPEC_ID_3DSTATE_VS, &vs, sizeof vs);
    for (uint32_t i = 0; i < 6; i++) {
        struct vue v = vue_at(i % 3 == 1 ? 0.5f : 0, i % 3 == 2 ? 0.5f : 0, 0, 1, 0, 0);
        set_dist(&v, 2, i < 3 ? -1.0f : (i == 3 ? -1.0f : 1.0f));
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);       /* distance 2 < 0 everywhere: culled */
    primitive(&r, PRIM_TRILIST, r.handles + 3, 3, 0);   /* straddles: a cull plane never clips */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.culled_by_distance"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.trivially_accepted"), 1);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->handles[0], r.handles[3]);
    /* header and clip-distance rows read */
    CU_ASSERT_EQUAL(stat(&r, "urb.ff_reads"), 6);
    /* with Force and an empty CLIP mask the distances are not tested */
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.ForceUserClipDistanceCullTestEnableBitmask = true;
    state(&r, SPEC_ID_3DSTATE_CLIP, &c, sizeof c);
    uint32_t again[3];
    urb_request(&r, URB_OP_ALLOC, 3, NULL);
    sim_run(r.sim, 0);
    const struct urb_msg *al = (const struct urb_msg *)r.own->payload[1];
    CU_ASSERT_EQUAL_FATAL(al->count, 3);
    for (uint32_t i = 0; i < 3; i++) {
        again[i] = al->handles[i];
        struct vue v = vue_at(i == 1 ? 0.5f : 0, i == 2 ? 0.5f : 0, 0, 1, 0, 0);
        set_dist(&v, 2, -1.0f);
        write_vue(&r, again[i], &v);
    }
    primitive(&r, PRIM_TRILIST, again, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sf_primitives(&r), 2);
    CU_ASSERT_EQUAL(stat(&r, "clip.culled_by_distance"), 1);
    rig_free(&r);
}

static void test_clip_modes_and_disable(void)
{
    /* REJECT_ALL: an inside triangle is discarded */
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.ClipMode = 3;
    struct rig r = rig_new(32, 3, &c, false);
    struct vue a = vue_at(0, 0, 0, 1, 0, 0), b = vue_at(0.5f, 0, 0, 1, 0, 0),
               d = vue_at(0, 0.5f, 0, 1, 0, 0);
    write_vue(&r, r.handles[0], &a);
    write_vue(&r, r.handles[1], &b);
    write_vue(&r, r.handles[2], &d);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sf_primitives(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 3);
    rig_free(&r);
    /* ACCEPT_ALL: a crossing triangle passes whole, unclipped */
    c.ClipMode = 4;
    r = rig_new(32, 3, &c, false);
    crossing_triangle(&r);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(stat(&r, "clip.clipped"), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.passed_whole"), 1);
    rig_free(&r);
    /* CLIP_ALL (seed 003; reserved in 004): even an inside triangle goes through the
     * clipper, and leaves as a POLYGON of its own vertices */
    c.ClipMode = 1;
    r = rig_new(32, 3, &c, false);
    write_vue(&r, r.handles[0], &a);
    write_vue(&r, r.handles[1], &b);
    write_vue(&r, r.handles[2], &d);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->topology, PRIM_POLYGON);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->vertex_count, 3);
    CU_ASSERT_EQUAL(stat(&r, "clip.vertices_made"), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.reserved_clip_mode"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 0);
    rig_free(&r);
    /* Clip Enable clear: pass-through, nothing read, nothing counted as invocations */
    c = clip_defaults();
    c.ClipEnable = false;
    r = rig_new(32, 3, &c, false);
    crossing_triangle(&r);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sf_primitives(&r), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.ff_reads"), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 0);
    rig_free(&r);
}

/* Twice the signed area of the polygon (NDC x/w, y/w). */
static float area2(const float (*xy)[2], uint32_t n)
{
    float s = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = (i + 1) % n;
        s += xy[i][0] * xy[j][1] - xy[j][0] * xy[i][1];
    }
    return s;
}

static void test_strip_split_keeps_winding(void)
{
    struct rig r = rig_new(32, 4, NULL, false);
    /* strip v0 v1 v2 v3: (v0 v1 v2) inside; (v1 v2 v3) inverted, v3 beyond x = w */
    float pos[4][2] = { { 0, 0 }, { 0.5f, 0 }, { 0, 0.5f }, { 3, 0.5f } };
    for (uint32_t i = 0; i < 4; i++) {
        struct vue v = vue_at(pos[i][0], pos[i][1], 0, 1, 0, 10.0f * (float)i);
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_TRISTRIP, r.handles, 4, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    const struct primitive_packet *p0 = sf_primitive(&r, 0), *p1 = sf_primitive(&r, 1);
    CU_ASSERT_EQUAL(p0->topology, PRIM_TRISTRIP);
    CU_ASSERT_EQUAL(p0->vertex_count, 3);
    CU_ASSERT_EQUAL(memcmp(p0->handles, r.handles, 3 * sizeof r.handles[0]), 0);
    CU_ASSERT_EQUAL(p1->topology, PRIM_POLYGON);
    CU_ASSERT_EQUAL_FATAL(p1->vertex_count, 4);
    /* SF winds the odd triangle (v1 v2 v3) as (v2 v1 v3): the polygon keeps that sign */
    float want[3][2] = { { pos[2][0], pos[2][1] }, { pos[1][0], pos[1][1] }, { pos[3][0], pos[3][1] } };
    float got[4][2];
    for (uint32_t k = 0; k < 4; k++) {
        struct vue v = read_vue(&r, p1->handles[k]);
        got[k][0] = fdw(&v, VUE_DW_POSITION_X) / fdw(&v, VUE_DW_POSITION_X + 3);
        got[k][1] = fdw(&v, VUE_DW_POSITION_X + 1) / fdw(&v, VUE_DW_POSITION_X + 3);
        CU_ASSERT_TRUE(got[k][0] <= 1.0f + 1e-6f);
    }
    CU_ASSERT_TRUE(area2(want, 3) * area2((const float (*)[2])got, 4) > 0);
    /* each packet holds its own references; the strip's four were dropped */
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 3 + 2);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 4);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 1);          /* v3 */
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 2);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_primitives_count"), 1 + 2);
    rig_free(&r);
}

/* Line stipple continues along a strip (003 L15540: the counter restarts with
 * a new primitive, not per segment): the segments of a LINESTRIP CLIP sends
 * one by one carry StartPrim only on the first that leaves, also when the
 * strip's first segment was rejected. */
static void test_line_strip_segments_continue_stipple(void)
{
    /* v0 v1 v2 v3: (v0 v1) inside passes, (v1 v2) and (v2 v3) cross x = w */
    struct rig r = rig_new(32, 4, NULL, false);
    float pos[4][2] = { { 0, 0 }, { 0.5f, 0 }, { 3, 0.5f }, { 0, 0.5f } };
    for (uint32_t i = 0; i < 4; i++) {
        struct vue v = vue_at(pos[i][0], pos[i][1], 0, 1, 0, 0);
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_LINESTRIP, r.handles, 4, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 3);
    const uint32_t start[3] = { PRIM_START, 0, 0 };
    for (uint32_t i = 0; i < 3; i++) {
        const struct primitive_packet *p = sf_primitive(&r, i);
        CU_ASSERT_EQUAL(p->topology, PRIM_LINESTRIP);
        CU_ASSERT_EQUAL(p->vertex_count, 2);
        CU_ASSERT_EQUAL(p->flags & PRIM_START, start[i]);
    }
    CU_ASSERT_TRUE(sf_primitive(&r, 1)->flags & PRIM_CLIPPED);
    rig_free(&r);

    /* v0 v1 beyond x = w (rejected), (v1 v2) crosses, (v2 v3) inside: the first
     * segment out restarts the counter, the next continues it */
    r = rig_new(32, 4, NULL, false);
    float pos2[4][2] = { { 5, 0 }, { 4, 0 }, { 0, 0 }, { 0.5f, 0.5f } };
    for (uint32_t i = 0; i < 4; i++) {
        struct vue v = vue_at(pos2[i][0], pos2[i][1], 0, 1, 0, 0);
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_LINESTRIP, r.handles, 4, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->flags & PRIM_START, PRIM_START);
    CU_ASSERT_TRUE(sf_primitive(&r, 0)->flags & PRIM_CLIPPED);
    CU_ASSERT_EQUAL(sf_primitive(&r, 1)->flags & PRIM_START, 0);
    rig_free(&r);

    /* a LINELIST's segments are each a primitive: every one restarts */
    r = rig_new(32, 4, NULL, false);
    for (uint32_t i = 0; i < 4; i++) {
        struct vue v = vue_at(pos[i][0], pos[i][1], 0, 1, 0, 0);
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_LINELIST, r.handles, 4, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    CU_ASSERT_EQUAL(sf_primitive(&r, 0)->flags & PRIM_START, PRIM_START);
    CU_ASSERT_EQUAL(sf_primitive(&r, 1)->flags & PRIM_START, PRIM_START);
    rig_free(&r);
}

static void test_sync_returns_counters(void)
{
    struct rig r = rig_new(32, 3, NULL, true);
    /* CL_INVOCATION_COUNT = 1 << 32 | 100 by two dword writes */
    uint32_t writes[2][2] = { { 0x2338, 100 }, { 0x233c, 1 } };
    for (int i = 0; i < 2; i++) {
        struct msg *m = msg_alloc(r.sim, MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *c = (struct cs_mmio *)m->payload;
        c->op = CS_MMIO_WRITE;
        c->offset = writes[i][0];
        c->value = writes[i][1];
        CU_ASSERT_TRUE(port_inject(unit_port(r.clip, "sol", 0), m));
    }
    struct vue a = vue_at(0, 0, 0, 1, 0, 0), b = vue_at(0.5f, 0, 0, 1, 0, 0),
               d = vue_at(0, 0.5f, 0, 1, 0, 0);
    write_vue(&r, r.handles[0], &a);
    write_vue(&r, r.handles[1], &b);
    write_vue(&r, r.handles[2], &d);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    struct msg *m = msg_alloc(r.sim, MSG_MMIO,
                              sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    ((struct cs_mmio *)m->payload)->op = CS_MMIO_SYNC;
    CU_ASSERT_TRUE(port_inject(unit_port(r.clip, "sol", 0), m));
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    const struct cs_mmio *c = (const struct cs_mmio *)r.drained->payload[0];
    CU_ASSERT_EQUAL(c->op, CS_MMIO_SYNC_DONE);
    const struct pipeline_registers *regs = (const struct pipeline_registers *)c->data;
    CU_ASSERT_EQUAL(regs->value[PIPE_REG_CL_INVOCATIONS], (1ull << 32) + 101);
    CU_ASSERT_EQUAL(regs->value[PIPE_REG_CL_PRIMITIVES], 1);
    CU_ASSERT_EQUAL(regs->written, (1ull << PIPE_REG_CL_INVOCATIONS) | (1ull << PIPE_REG_CL_PRIMITIVES));
    /* CLIP ends the pipeline here: register traffic does not go on to SF */
    for (uint32_t k = 0; k < r.sf->count; k++)
        CU_ASSERT_NOT_EQUAL(r.sf->kind[k], MSG_MMIO);
    CU_ASSERT_EQUAL(stat(&r, "clip.register_writes"), 2);
    rig_free(&r);
}

static void test_guardband_from_dynamic_state(void)
{
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.GuardbandClipTestEnable = true;
    struct rig r = rig_new(32, 6, &c, false);
    /* SF_CLIP_VIEWPORT 0 at Dynamic State Base 0x10000 + pointer 0x400: guardband
     * [-4, 4] in dwords 8-11 (spec/data/gen8.xml, reference genxml) */
    uint32_t vp[16] = { 0 };
    float gb[4] = { -4.0f, 4.0f, -4.0f, 4.0f };
    memcpy(&vp[8], gb, sizeof gb);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x10400, vp, sizeof vp, NULL), 0);
    struct spec_STATE_BASE_ADDRESS sba;
    memset(&sba, 0, sizeof sba);
    sba.DynamicStateBaseAddressModifyEnable = true;
    sba.DynamicStateBaseAddress = 0x10000;
    state(&r, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP ptr = { .SFClipViewportPointer = 0x400 };
    state(&r, SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, &ptr, sizeof ptr);
    /* reaching x = 2 w: outside the viewport, inside the guardband: accepted whole */
    struct vue v[6] = { vue_at(0, 0, 0, 1, 0, 0), vue_at(2, 0, 0, 1, 0, 0), vue_at(0, 1, 0, 1, 0, 0),
                        vue_at(0, 0, 0, 1, 0, 0), vue_at(8, 0, 0, 1, 0, 0), vue_at(0, 1, 0, 1, 0, 0) };
    for (int i = 0; i < 6; i++)
        write_vue(&r, r.handles[i], &v[i]);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    /* reaching x = 8 w: cut at the guardband, x = 4 w */
    primitive(&r, PRIM_TRILIST, r.handles + 3, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.trivially_accepted"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.clipped"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.viewport_unreadable"), 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    const struct primitive_packet *p = sf_primitive(&r, 1);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 4);
    struct vue a = read_vue(&r, p->handles[1]);
    /* t = (4 w0 - x0) / ((4 w0 - x0) - (4 w1 - x1)) = 4 / 8 */
    float t = 4.0f / (4.0f - (4.0f - 8.0f));
    CU_ASSERT_TRUE(close_to(fdw(&a, VUE_DW_POSITION_X), 8 * t));
    CU_ASSERT_TRUE(close_to(fdw(&a, VUE_DW_POSITION_X), 4 * fdw(&a, VUE_DW_POSITION_X + 3)));
    rig_free(&r);
}

/* Viewport Index (D2) selects the guardband; above Maximum VP Index it reads 0
 * (004 L1549); an empty guardband is counted and the viewport's [-1, 1] used. */
static void test_viewport_index_and_bad_guardband(void)
{
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.GuardbandClipTestEnable = true;
    c.MaximumVPIndex = 1;
    struct rig r = rig_new(32, 6, &c, false);
    uint32_t vp[2][16] = { { 0 } };
    float good[4] = { -4.0f, 4.0f, -4.0f, 4.0f }, empty[4] = { 5.0f, -5.0f, -4.0f, 4.0f };
    memcpy(&vp[0][8], good, sizeof good);
    memcpy(&vp[1][8], empty, sizeof empty);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x20000, vp, sizeof vp, NULL), 0);
    struct spec_STATE_BASE_ADDRESS sba;
    memset(&sba, 0, sizeof sba);
    sba.DynamicStateBaseAddressModifyEnable = true;
    sba.DynamicStateBaseAddress = 0x20000;
    state(&r, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP ptr = { .SFClipViewportPointer = 0 };
    state(&r, SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, &ptr, sizeof ptr);
    /* two triangles reaching x = 2 w: viewport index 5 (reads 0: guardband 4, accepted)
     * and index 1 (empty guardband: [-1, 1], so clipped) */
    for (uint32_t i = 0; i < 6; i++) {
        struct vue v = vue_at(i % 3 == 1 ? 2.0f : 0, i % 3 == 2 ? 1.0f : 0, 0, 1, 0, 0);
        v.dw[VUE_DW_VIEWPORT_INDEX] = i < 3 ? 5 : 1;
        write_vue(&r, r.handles[i], &v);
    }
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    primitive(&r, PRIM_TRILIST, r.handles + 3, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.trivially_accepted"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.clipped"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.bad_viewport"), 1);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    const struct primitive_packet *p = sf_primitive(&r, 1);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 4);
    struct vue a = read_vue(&r, p->handles[1]);
    CU_ASSERT_TRUE(close_to(fdw(&a, VUE_DW_POSITION_X), fdw(&a, VUE_DW_POSITION_X + 3)));
    rig_free(&r);
}

static void test_allocation_back_pressure(void)
{
    /* 8 entries, all held by the test: the clipper waits until two are freed */
    struct rig r = rig_new(8, 8, NULL, false);
    crossing_triangle(&r);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    /* step until nothing moves (sim_run would call the wait a deadlock) */
    for (int i = 0; i < 200 && sim_step(r.sim); i++)
        ;
    CU_ASSERT_EQUAL(sf_primitives(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.vertices_made"), 0);
    urb_request(&r, URB_OP_DEREFERENCE, 2, r.handles + 6);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 1);
    const struct primitive_packet *p = sf_primitive(&r, 0);
    CU_ASSERT_EQUAL(p->vertex_count, 4);
    /* the freed entries, oldest freed first */
    CU_ASSERT_EQUAL(p->handles[1], r.handles[6]);
    CU_ASSERT_EQUAL(p->handles[2], r.handles[7]);
    CU_ASSERT_EQUAL(stat(&r, "clip.vertices_made"), 2);
    CU_ASSERT_TRUE(stat(&r, "urb.stall_cycles.vs") > 0);
    CU_ASSERT_TRUE(stat(&r, "clip.stall.urb_alloc") > 0);
    rig_free(&r);
}

static void test_bad_input_counted(void)
{
    struct spec_3DSTATE_CLIP c = clip_defaults();
    c.GuardbandClipTestEnable = true;       /* no viewport pointer: counted, [-1, 1] used */
    struct rig r = rig_new(32, 12, &c, false);
    /* NaN position: BAD, discarded */
    struct vue nan_v = vue_at(NAN, 0, 0, 1, 0, 0), in0 = vue_at(0, 0, 0, 1, 0, 0),
               in1 = vue_at(0.5f, 0, 0, 1, 0, 0), inf_v = vue_at(INFINITY, 0, 0, 1, 0, 0);
    write_vue(&r, r.handles[0], &nan_v);
    write_vue(&r, r.handles[1], &in0);
    write_vue(&r, r.handles[2], &in1);
    primitive(&r, PRIM_TRILIST, r.handles, 3, 0);
    /* an infinite position: must clip, the cut is not finite: dropped */
    write_vue(&r, r.handles[3], &in0);
    write_vue(&r, r.handles[4], &inf_v);
    write_vue(&r, r.handles[5], &in1);
    primitive(&r, PRIM_TRILIST, r.handles + 3, 3, 0);
    /* a 2-vertex TRISTRIP: partial, removed */
    write_vue(&r, r.handles[6], &in0);
    write_vue(&r, r.handles[7], &in1);
    primitive(&r, PRIM_TRISTRIP, r.handles + 6, 2, 0);
    /* QUADLIST (not after GS) and a patch list */
    primitive(&r, PRIM_QUADLIST, r.handles + 8, 2, 0);
    primitive(&r, PRIM_PATCHLIST_1 + 1, r.handles + 10, 2, 0);
    /* malformed packets: too short, too many vertices */
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, 8);
    CU_ASSERT_TRUE(port_inject(unit_port(r.clip, "sol", 0), m));
    m = msg_alloc(r.sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    ((struct primitive_packet *)m->payload)->vertex_count = 40;
    ((struct primitive_packet *)m->payload)->topology = PRIM_TRILIST;
    CU_ASSERT_TRUE(port_inject(unit_port(r.clip, "sol", 0), m));
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sf_primitives(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.bad_objects"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.clip_nonfinite"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.partial_objects"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.unsupported_topology"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.patches_rejected"), 1);
    CU_ASSERT_EQUAL(stat(&r, "clip.bad_messages"), 2);
    CU_ASSERT_TRUE(stat(&r, "clip.viewport_unreadable") >= 2);
    /* every valid packet's references were dropped: all 12 entries free */
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 12);
    CU_ASSERT_EQUAL(stat(&r, "urb.bad_handles"), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.cl_invocation_count"), 2);
    rig_free(&r);
}

/* A packet owning one entry (owner_handle, as a GS output): an object passed on alone
 * takes a reference on the owner; a clipped one is written whole into new entries; the
 * packet's one reference (on the owner) is dropped at the end. */
static struct msg *owner_packet(struct rig *r, uint32_t topology, uint32_t owner,
                                const uint32_t *handles, uint32_t n)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->topology = topology;
    p->vertex_count = n;
    p->owner_handle = owner;
    memcpy(p->handles, handles, n * sizeof *handles);
    CU_ASSERT_TRUE(port_inject(unit_port(r->clip, "sol", 0), m));
    return m;
}

static void test_owner_handle_packets(void)
{
    struct rig r = rig_new(32, 4, NULL, false);
    /* strip v0 v1 v2 v3: (v0 v1 v2) and (v1 v2 v3) both cross x = w */
    struct vue v[4] = { vue_at(0, 0, 0, 1, 0, 0), vue_at(0.5f, 0, 0, 1, 0, 0),
                        vue_at(2, 0.5f, 0, 1, 0, 0), vue_at(3, 0.5f, 0, 1, 0, 0) };
    for (uint32_t i = 0; i < 4; i++)
        write_vue(&r, r.handles[i], &v[i]);
    owner_packet(&r, PRIM_TRISTRIP, r.handles[0], r.handles, 4);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 2);
    uint32_t made = 0;
    for (uint32_t k = 0; k < 2; k++) {
        const struct primitive_packet *o = sf_primitive(&r, k);
        CU_ASSERT_EQUAL(o->topology, PRIM_POLYGON);
        CU_ASSERT_EQUAL(o->owner_handle, URB_HANDLE_NONE);
        for (uint32_t i = 0; i < o->vertex_count; i++)      /* all in new entries */
            CU_ASSERT_TRUE(o->handles[i] >= FIRST_HANDLE + 4 * HANDLE_STEP);
        made += o->vertex_count;
    }
    /* a surviving original is copied exactly: the first polygon starts at v0 */
    struct vue got = read_vue(&r, sf_primitive(&r, 0)->handles[0]);
    CU_ASSERT_EQUAL(memcmp(got.dw, v[0].dw, sizeof got.dw), 0);
    CU_ASSERT_EQUAL(stat(&r, "clip.vertices_made"), made);
    /* the owner's one reference (the packet's) dropped: the owner entry freed */
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 0);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 1);
    /* LINESTRIP k0 k1 k3 owned by k0: (k0 k1) inside leaves alone with a reference on
     * the owner; (k1 k3) crosses x = w: new entries */
    urb_request(&r, URB_OP_ALLOC, 4, NULL);
    sim_run(r.sim, 0);
    const struct urb_msg *al = (const struct urb_msg *)r.own->payload[1];
    CU_ASSERT_EQUAL_FATAL(al->count, 4);
    uint32_t k[4];
    memcpy(k, al->handles, sizeof k);
    write_vue(&r, k[0], &v[0]);
    write_vue(&r, k[1], &v[1]);
    write_vue(&r, k[3], &v[3]);
    uint32_t line[3] = { k[0], k[1], k[3] };
    owner_packet(&r, PRIM_LINESTRIP, k[0], line, 3);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(sf_primitives(&r), 4);
    const struct primitive_packet *pass = sf_primitive(&r, 2), *cut = sf_primitive(&r, 3);
    CU_ASSERT_EQUAL(pass->topology, PRIM_LINESTRIP);
    CU_ASSERT_EQUAL(pass->owner_handle, k[0]);
    CU_ASSERT_EQUAL(pass->handles[0], k[0]);
    CU_ASSERT_EQUAL(pass->handles[1], k[1]);
    CU_ASSERT_EQUAL(cut->topology, PRIM_LINESTRIP);
    CU_ASSERT_TRUE(cut->flags & PRIM_CLIPPED);
    CU_ASSERT_EQUAL(cut->owner_handle, URB_HANDLE_NONE);
    CU_ASSERT_EQUAL(cut->vertex_count, 2);
    /* (k1 k3) cut at x = w from k1: t = (1 - 0.5) / ((1 - 0.5) - (1 - 3)) */
    float t = 0.5f / (0.5f - (1.0f - 3.0f));
    struct vue end = read_vue(&r, cut->handles[1]);
    CU_ASSERT_TRUE(close_to(fdw(&end, VUE_DW_POSITION_X), 0.5f + t * 2.5f));
    CU_ASSERT_TRUE(close_to(fdw(&end, VUE_DW_POSITION_X + 1), t * 0.5f));
    /* one reference taken on the owner, one dropped: k0 lives on */
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 2);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 1);
    rig_free(&r);
}

/* Random packets (topologies, vertex counts, positions with NaN, infinities and
 * negative w, every clip mode): nothing crashes or hangs, and the references add up:
 * once a stand-in SF drops every reference of what reached it, every URB entry is free
 * and no handle was ever unknown to the URB. */
static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

static void test_random_packets_balance_references(void)
{
    static const uint32_t topologies[] = {
        PRIM_POINTLIST, PRIM_LINELIST, PRIM_LINESTRIP, PRIM_TRILIST, PRIM_TRISTRIP,
        PRIM_TRISTRIP_REVERSE, PRIM_TRIFAN, PRIM_POLYGON, PRIM_LINELIST_ADJ, PRIM_LINESTRIP_ADJ,
        PRIM_TRILIST_ADJ, PRIM_RECTLIST, PRIM_QUADLIST, PRIM_PATCHLIST_1 + 2,
    };
    static const float specials[] = { NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e30f };
    uint32_t seed = 12345;
    double made = 0, bad = 0, out = 0;
    for (uint32_t round = 0; round < 6; round++) {
        struct spec_3DSTATE_CLIP c = clip_defaults();
        c.ClipMode = round % 5;
        c.GuardbandClipTestEnable = round & 1;
        c.APIMode = (round >> 1) & 1;
        c.UserClipDistanceClipTestEnableBitmask = round == 3 ? 0x3 : 0;
        c.UserClipDistanceCullTestEnableBitmask = round == 3 ? 0x4 : 0;
        c.ForceUserClipDistanceClipTestEnableBitmask = c.ForceUserClipDistanceCullTestEnableBitmask =
            round == 3;
        c.TriangleStripListProvokingVertexSelect = round % 4;   /* 3 is reserved */
        struct rig r = rig_new(512, 0, &c, false);
        uint32_t kept[24 * 8], kept_count = 0;
        struct spec_3DSTATE_RASTER raster;
        memset(&raster, 0, sizeof raster);
        raster.ViewportZNearClipTestEnable = raster.ViewportZFarClipTestEnable = true;
        state(&r, SPEC_ID_3DSTATE_RASTER, &raster, sizeof raster);
        for (uint32_t k = 0; k < 24; k++) {
            uint32_t n = 1 + lcg(&seed) % 8;
            urb_request(&r, URB_OP_ALLOC, n, NULL);
            sim_run(r.sim, 0);
            const struct urb_msg *al = (const struct urb_msg *)r.own->payload[r.own->count - 1];
            CU_ASSERT_EQUAL_FATAL(al->count, n);
            uint32_t h[8];
            for (uint32_t i = 0; i < n; i++) {
                h[i] = al->handles[i];
                float pos[4];
                for (int q = 0; q < 4; q++)
                    pos[q] = (float)(lcg(&seed) % 1000) / 250.0f - 2.0f;
                pos[3] += 1.0f;
                if (lcg(&seed) % 16 == 0)
                    pos[lcg(&seed) % 4] = specials[lcg(&seed) % 6];
                struct vue v = vue_at(pos[0], pos[1], pos[2], pos[3], 0, (float)i);
                for (uint32_t d = 0; d < 3; d++)
                    set_dist(&v, d, (float)(lcg(&seed) % 100) / 50.0f - 1.0f);
                write_vue(&r, h[i], &v);
            }
            uint32_t topology = topologies[lcg(&seed) % (sizeof topologies / sizeof topologies[0])];
            if (lcg(&seed) % 4 == 0) {
                /* the packet owns h[0]'s reference only: the test keeps the others' */
                owner_packet(&r, topology, h[0], h, n);
                memcpy(kept + kept_count, h + 1, (n - 1) * sizeof *h);
                kept_count += n - 1;
            } else
                primitive(&r, topology, h, n, 0);
            sim_run(r.sim, 0);
        }
        CU_ASSERT_EQUAL(stat(&r, "clip.bad_replies"), 0);
        made += stat(&r, "clip.vertices_made");
        bad += stat(&r, "clip.bad_objects") + stat(&r, "clip.clip_nonfinite");
        out += stat(&r, "clip.objects_out");
        /* the stand-in SF: drop each packet's references */
        for (uint32_t k = 0; k < r.sf->count && k < CATCH_MAX; k++) {
            if (r.sf->kind[k] != MSG_PRIMITIVE)
                continue;
            const struct primitive_packet *p = (const struct primitive_packet *)r.sf->payload[k];
            if (p->owner_handle != URB_HANDLE_NONE)
                urb_request(&r, URB_OP_DEREFERENCE, 1, &p->owner_handle);
            else
                urb_request(&r, URB_OP_DEREFERENCE, p->vertex_count, p->handles);
            sim_run(r.sim, 0);
        }
        for (uint32_t i = 0; i < kept_count; i++)
            urb_request(&r, URB_OP_DEREFERENCE, 1, &kept[i]);
        sim_run(r.sim, 0);
        CU_ASSERT_TRUE(r.sf->count < CATCH_MAX);
        CU_ASSERT_EQUAL(stat(&r, "urb.bad_handles"), 0);
        if (stat(&r, "urb.frees") != stat(&r, "urb.allocations"))
            fprintf(stderr, "round %u: frees %g allocations %g\n", round, stat(&r, "urb.frees"),
                    stat(&r, "urb.allocations"));
        CU_ASSERT_EQUAL(stat(&r, "urb.frees"), stat(&r, "urb.allocations"));
        rig_free(&r);
    }
}

static const struct test_case cases[] = {
    { "an inside triangle passes whole", test_inside_passes_whole },
    { "a triangle crossing x = w gets new URB vertices", test_crossing_triangle_makes_vertices },
    { "the provoking vertex leads the polygon", test_provoking_vertex_leads },
    { "a rejected triangle's vertices are dereferenced", test_reject_dereferences },
    { "user cull distance culls, Force overrides", test_user_distance_culls },
    { "clip modes and clip disable", test_clip_modes_and_disable },
    { "a strip is split and keeps its winding", test_strip_split_keeps_winding },
    { "line strip segments continue the stipple", test_line_strip_segments_continue_stipple },
    { "the sync returns CL counters", test_sync_returns_counters },
    { "guardband from dynamic state", test_guardband_from_dynamic_state },
    { "viewport index and an empty guardband", test_viewport_index_and_bad_guardband },
    { "URB allocation back-pressure", test_allocation_back_pressure },
    { "bad input is counted", test_bad_input_counted },
    { "packets owning one entry", test_owner_handle_packets },
    { "random packets balance their references", test_random_packets_balance_references },
    { 0 }
};
TEST_SUITE(clip, cases);
