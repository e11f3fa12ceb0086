/* tests/units/test_te.c - the TE unit driven alone with the real URB unit:
 * a patch header written into an HS entry through the URB backdoor (layout
 * seed 003 L12403-12438: QUAD DW7 UEQ0 .. DW2 InsideV, ISOLINE DW7 detail,
 * DW6 density), state and patches injected on "hs", the MSG_DOMAIN batches
 * caught on "ds". Expected values are worked out here: point and primitive
 * counts of the patterns (see test_tessellator.c), the batch limits of
 * units/common/tessellation.h, the URB references (one per batch). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/tessellation.h"
#include "units/common/urb.h"
#include "units/te/te.h"
#include "units/urb/urb.h"

/* ---- a catcher keeping copies of what arrives ---------------------------------------- */

#define CATCH_MAX 256
#define CATCH_BYTES 1024

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[CATCH_MAX];
    uint64_t cycle[CATCH_MAX];
    uint8_t payload[CATCH_MAX][CATCH_BYTES];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "what arrives" },
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
            c->cycle[c->count] = unit_cycle(u);
            memcpy(c->payload[c->count], m->payload, m->size < CATCH_BYTES ? m->size : CATCH_BYTES);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_te_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* ---- the rig ----------------------------------------------------------------------------- */

struct rig {
    struct sim *sim;
    struct unit *urb, *te;
    struct catcher *ds, *client;
};

static void inject_state(struct rig *r, uint32_t id, const void *common, size_t size, uint32_t dwords)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + size));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off);
    p->id = id;
    p->gen = 9;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    memcpy((uint8_t *)p + off, common, size);
    CU_ASSERT_TRUE(port_inject(unit_port(r->te, "hs", 0), m));
}

static void stage_enables(struct rig *r, bool hs, bool ds)
{
    struct spec_3DSTATE_HS h = { .Enable = hs };
    inject_state(r, SPEC_ID_3DSTATE_HS, &h, sizeof h, 9);
    struct spec_3DSTATE_DS d = { .Enable = ds };
    inject_state(r, SPEC_ID_3DSTATE_DS, &d, sizeof d, 11);
}

static void te_state(struct rig *r, bool enable, uint32_t domain, uint32_t partitioning, uint32_t topology)
{
    struct spec_3DSTATE_TE t = {
        .TEEnable = enable, .TEDomain = domain, .Partitioning = partitioning,
        .OutputTopology = topology, .MaximumTessellationFactorOdd = 63.0f,
        .MaximumTessellationFactorNotOdd = 64.0f,
    };
    inject_state(r, SPEC_ID_3DSTATE_TE, &t, sizeof t, 4);
}

static void urb_request(struct rig *r, uint32_t op, uint32_t handle, uint32_t count)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_HS;
    q->count = count;
    q->handles[0] = handle;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
}

/* The rig with an HS allocation of 8 one-row entries from 32 KB (3DSTATE_URB_HS,
 * seed 004 L6335-6352) and one entry allocated for the patch; returns its
 * handle in *patch. */
static struct rig rig_new(uint32_t *patch)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.te = probe_add(r.sim, &te_ops, "te", NULL);
    struct unit *ds = probe_add(r.sim, &catcher_ops, "ds", NULL);
    struct unit *client = probe_add(r.sim, &catcher_ops, "client", NULL);
    probe_link(r.sim, r.te, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.te, "urb_reply", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", client, "in", 1, 16, 4);
    probe_link(r.sim, r.te, "ds", ds, "in", 1, 16, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    stage_enables(&r, true, true);          /* also binds "hs" (injection) */
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.ds = unit_state(ds);
    r.client = unit_state(client);

    size_t off = cs_state_common_offset(2);
    struct msg *m = msg_alloc(r.sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_3DSTATE_URB_VS)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off);
    p->id = SPEC_ID_3DSTATE_URB_HS;
    p->gen = 9;
    p->dword_count = 2;
    p->common_offset = (uint32_t)off;
    struct spec_3DSTATE_URB_VS *v = (struct spec_3DSTATE_URB_VS *)((uint8_t *)p + off);
    memset(v, 0, sizeof *v);
    v->VSNumberOfURBEntries = 8;
    v->VSURBEntryAllocationSize = 0;
    v->VSURBStartingAddress = 4;
    CU_ASSERT_TRUE(port_inject(unit_port(r.urb, "state", 0), m));
    sim_run(r.sim, 0);
    urb_request(&r, URB_OP_ALLOC, 0, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.client->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r.client->payload[0];
    CU_ASSERT_EQUAL_FATAL(a->count, 1);
    *patch = a->handles[0];
    CU_ASSERT_EQUAL(*patch, 32u * 1024u / 64u);     /* 32 KB in 64-byte units */
    CU_ASSERT_EQUAL(r.ds->count, 2);                /* 3DSTATE_HS and _DS went on */
    r.ds->count = 0;
    return r;
}

static void write_header(struct rig *r, uint32_t handle, const float dw[8])
{
    CU_ASSERT_EQUAL(urb_backdoor_write(r->urb, urb_handle_offset(handle), dw, 32), 32);
}

static void inject_patch(struct rig *r, uint32_t handle, uint32_t primitive_id)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_PATCHLIST_1 + 3;    /* PATCHLIST_4 */
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = 1;
    p->instance = 2;
    p->primitive_id = primitive_id;
    p->draw = 5;
    p->owner_handle = handle;
    p->handles[0] = handle;
    CU_ASSERT_TRUE(port_inject(unit_port(r->te, "hs", 0), m));
}

static void inject_sync(struct rig *r)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO,
                              (uint32_t)(sizeof(struct cs_mmio) + sizeof(struct pipeline_registers)));
    memset(m->payload, 0, m->size);
    ((struct cs_mmio *)m->payload)->op = CS_MMIO_SYNC;
    CU_ASSERT_TRUE(port_inject(unit_port(r->te, "hs", 0), m));
}

static const struct tess_domain_batch *batch(const struct rig *r, uint32_t i)
{
    return (const struct tess_domain_batch *)r->ds->payload[i];
}

/* The caught messages from `first` that are MSG_DOMAIN. */
static uint32_t batches_from(const struct rig *r, uint32_t first)
{
    uint32_t n = 0;
    for (uint32_t i = first; i < r->ds->count && i < CATCH_MAX; i++)
        n += r->ds->kind[i] == MSG_DOMAIN;
    return n;
}

static double area_of(const struct tess_domain_batch *b, uint32_t t)
{
    uint32_t x = b->indices[t], y = b->indices[t + 1], z = b->indices[t + 2];
    return 0.5 * (((double)b->u[y] - b->u[x]) * ((double)b->v[z] - b->v[x]) -
                  ((double)b->u[z] - b->u[x]) * ((double)b->v[y] - b->v[x]));
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_quad_patch_one_batch(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* QUAD, INTEGER, every factor 3: 16 points, 18 triangles (one batch) */
    const float header[8] = { 0, 0, 3, 3, 3, 3, 3, 3 };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW);
    inject_patch(&r, h, 7);
    inject_sync(&r);
    sim_run(r.sim, 0);
    /* forwarded: 3DSTATE_TE, then the batch, then the sync */
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 3);
    CU_ASSERT_EQUAL(r.ds->kind[0], MSG_STATE);
    CU_ASSERT_EQUAL_FATAL(r.ds->kind[1], MSG_DOMAIN);
    CU_ASSERT_EQUAL(r.ds->kind[2], MSG_MMIO);
    CU_ASSERT_TRUE(r.ds->cycle[1] >= 20);         /* after the URB's read latency (20) */
    const struct tess_domain_batch *b = batch(&r, 1);
    CU_ASSERT_EQUAL(b->flags, TESS_BATCH_FIRST | TESS_BATCH_LAST);
    CU_ASSERT_EQUAL(b->patch_handle, h);
    CU_ASSERT_EQUAL(b->domain, TESS_DOMAIN_QUAD);
    CU_ASSERT_EQUAL(b->output_topology, TESS_OUTPUT_TRI_CW);
    CU_ASSERT_EQUAL(b->primitive_id, 7);
    CU_ASSERT_EQUAL(b->instance, 2);
    CU_ASSERT_EQUAL(b->draw, 5);
    CU_ASSERT_EQUAL(b->point_count, 16);
    CU_ASSERT_EQUAL_FATAL(b->index_count, 54);
    double total = 0;
    for (uint32_t t = 0; t < b->index_count; t += 3) {
        CU_ASSERT_TRUE(area_of(b, t) > 0);
        total += area_of(b, t);
    }
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-6);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.patches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.domain_points"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.output_primitives"), 18);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.batches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.urb_reads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.references"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.enable_mismatch"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.bad_state"), 0);
    sim_destroy(r.sim);
}

static void test_large_patch_many_batches(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* QUAD, INTEGER, every factor 100 -> clamped to 64: 65^2 points, 2 x 64^2
     * triangles, cut into self-contained batches of at most 64 points and
     * 192 indices (64 triangles) */
    const float header[8] = { 0, 0, 100, 100, 100, 100, 100, 100 };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CCW);
    inject_patch(&r, h, 1);
    sim_run(r.sim, 0);
    uint32_t n = batches_from(&r, 1);
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 1 + n);
    CU_ASSERT_TRUE_FATAL(n >= 8192 / 64 && n < CATCH_MAX);
    uint32_t triangles = 0, bad = 0;
    double total = 0;
    for (uint32_t i = 1; i <= n; i++) {
        const struct tess_domain_batch *b = batch(&r, i);
        uint32_t want = (i == 1 ? TESS_BATCH_FIRST : 0) | (i == n ? TESS_BATCH_LAST : 0);
        bad += b->flags != want || b->patch_handle != h || b->point_count > TESS_BATCH_MAX_POINTS ||
               b->index_count > TESS_BATCH_MAX_INDICES || b->index_count % 3 != 0;
        for (uint32_t k = 0; k < b->index_count; k++)
            bad += b->indices[k] >= b->point_count;
        for (uint32_t t = 0; t + 2 < b->index_count; t += 3) {
            double a = area_of(b, t);
            bad += a >= 0;                  /* CCW: every triangle negative in (u, v) */
            total -= a;
        }
        triangles += b->index_count / 3;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(triangles, 2u * 64u * 64u);
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-6);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.domain_points"), 65 * 65);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.bad_factors"), 6);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.batches"), n);
    /* one reference per batch: the primitive's, and n - 1 taken at the URB */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.references"), n - 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.references"), n - 1);
    /* DS's dereferences, one per batch, free the entry with the last */
    for (uint32_t i = 0; i + 1 < n; i++)
        urb_request(&r, URB_OP_DEREFERENCE, h, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 0);
    urb_request(&r, URB_OP_DEREFERENCE, h, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    sim_destroy(r.sim);
}

static void test_culled_patch(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* TRI with WEQ0 = 0: culled (seed 003 L12737); one CULLED batch carries
     * the patch's reference to DS */
    const float header[8] = { 0, 0, 0, 0, 4, 0.0f, 4, 4 };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_TRI, TESS_PARTITION_EVEN_FRACTIONAL, TESS_OUTPUT_TRI_CW);
    inject_patch(&r, h, 3);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 2);
    CU_ASSERT_EQUAL_FATAL(r.ds->kind[1], MSG_DOMAIN);
    const struct tess_domain_batch *b = batch(&r, 1);
    CU_ASSERT_EQUAL(b->flags, TESS_BATCH_FIRST | TESS_BATCH_LAST | TESS_BATCH_CULLED);
    CU_ASSERT_EQUAL(b->point_count, 0);
    CU_ASSERT_EQUAL(b->index_count, 0);
    CU_ASSERT_EQUAL(b->patch_handle, h);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.culled_patches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.domain_points"), 0);
    sim_destroy(r.sim);
}

static void test_isoline_patch(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* ISOLINE: DW7 Line Detail 4, DW6 Line Density 3: 3 lines (V = 0, 1/3,
     * 2/3) of 4 segments; 15 points, 12 lines */
    const float header[8] = { 0, 0, 0, 0, 0, 0, 3, 4 };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE);
    inject_patch(&r, h, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 2);
    const struct tess_domain_batch *b = batch(&r, 1);
    CU_ASSERT_EQUAL(b->output_topology, TESS_OUTPUT_LINE);
    CU_ASSERT_EQUAL(b->point_count, 15);
    CU_ASSERT_EQUAL_FATAL(b->index_count, 24);
    uint32_t bad = 0;
    for (uint32_t t = 0; t < b->index_count; t += 2) {
        uint32_t x = b->indices[t], y = b->indices[t + 1];
        bad += b->v[x] != b->v[y] || fabsf(b->u[y] - b->u[x] - 0.25f) > 1e-3f || b->v[x] >= 1.0f;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.output_primitives"), 12);
    sim_destroy(r.sim);
}

static void test_disabled_passes_through(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    te_state(&r, false, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW);
    inject_patch(&r, h, 9);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 2);
    CU_ASSERT_EQUAL_FATAL(r.ds->kind[1], MSG_PRIMITIVE);
    const struct primitive_packet *p = (const struct primitive_packet *)r.ds->payload[1];
    CU_ASSERT_EQUAL(p->owner_handle, h);
    CU_ASSERT_EQUAL(p->primitive_id, 9);
    CU_ASSERT_EQUAL(p->topology, PRIM_PATCHLIST_1 + 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.passed_through"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.urb_reads"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.patches"), 0);
    sim_destroy(r.sim);
}

static void test_patches_in_order_and_bad_input(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* DS disabled while TE is on: counted (seed 003 L12725), tessellated */
    stage_enables(&r, true, false);
    /* FRACTIONAL_ODD factor 2.5 rounds up to 3 segments: a 4 x 4 grid */
    const float header[8] = { 0, 0, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_QUAD, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_POINT);
    /* a malformed primitive (too short): counted and dropped */
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, 8);
    memset(m->payload, 0, 8);
    CU_ASSERT_TRUE(port_inject(unit_port(r.te, "hs", 0), m));
    inject_patch(&r, h, 1);
    inject_patch(&r, h, 2);
    inject_sync(&r);
    sim_run(r.sim, 0);
    /* 3DSTATE_HS, _DS, _TE, two batches in patch order, the sync */
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 6);
    CU_ASSERT_EQUAL_FATAL(r.ds->kind[3], MSG_DOMAIN);
    CU_ASSERT_EQUAL_FATAL(r.ds->kind[4], MSG_DOMAIN);
    CU_ASSERT_EQUAL(r.ds->kind[5], MSG_MMIO);
    CU_ASSERT_EQUAL(batch(&r, 3)->primitive_id, 1);
    CU_ASSERT_EQUAL(batch(&r, 4)->primitive_id, 2);
    CU_ASSERT_EQUAL(batch(&r, 3)->point_count, 16);
    CU_ASSERT_EQUAL(batch(&r, 3)->index_count, 16);     /* points: one index each */
    CU_ASSERT_EQUAL(batch(&r, 3)->output_topology, TESS_OUTPUT_POINT);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.bad_primitives"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.enable_mismatch"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.patches"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.urb_reads"), 2);
    sim_destroy(r.sim);
}

static void test_unusable_state_counted(void)
{
    uint32_t h;
    struct rig r = rig_new(&h);
    /* QUAD outputs points or triangles (seed 003 L12759): LINE is counted;
     * the tessellator then joins the points in order (16 points, 15 lines) */
    const float header[8] = { 0, 0, 3, 3, 3, 3, 3, 3 };
    write_header(&r, h, header);
    te_state(&r, true, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE);
    inject_patch(&r, h, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.ds->count, 2);
    CU_ASSERT_EQUAL(batch(&r, 1)->point_count, 16);
    CU_ASSERT_EQUAL(batch(&r, 1)->index_count, 30);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "te.bad_state"), 1);
    sim_destroy(r.sim);
}

static void test_needs_the_urb(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *te = probe_add(sim, &te_ops, "te", NULL);
    struct unit *ds = probe_add(sim, &catcher_ops, "ds", NULL);
    probe_link(sim, te, "ds", ds, "in", 1, 16, 4);
    struct spec_3DSTATE_TE t = { .TEEnable = false };
    size_t off = cs_state_common_offset(4);
    struct msg *m = msg_alloc(sim, MSG_STATE, (uint32_t)(off + sizeof t));
    memset(m->payload, 0, m->size);
    ((struct cs_state_packet *)m->payload)->id = SPEC_ID_3DSTATE_TE;
    ((struct cs_state_packet *)m->payload)->common_offset = (uint32_t)off;
    CU_ASSERT_TRUE(port_inject(unit_port(te, "hs", 0), m));
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(sim, &err), 0);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "a QUAD patch: one batch, state and sync in order", test_quad_patch_one_batch },
    { "a 64 x 64 patch: batches, references, clamping", test_large_patch_many_batches },
    { "a culled patch: one CULLED batch", test_culled_patch },
    { "an ISOLINE patch from DW6/DW7", test_isoline_patch },
    { "TE disabled: primitives pass through", test_disabled_passes_through },
    { "patches in order; bad primitives and enables counted", test_patches_in_order_and_bad_input },
    { "an unusable 3DSTATE_TE is counted", test_unusable_state_counted },
    { "no URB link: a realize error", test_needs_the_urb },
    { 0 }
};
TEST_SUITE(te, cases);
