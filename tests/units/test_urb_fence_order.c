/* tests/units/test_urb_fence_order.c - URB_FENCE taking effect per region in
 * its stage's command order (units/urb_fence/urb_fence.h, stage_fences): the
 * urb_fence unit driven alone, the test playing the SF stage on "client[0]"
 * (its URB_OP_FENCE after the allocations of the work before the fence) and
 * the command streamer on "state".
 *
 * The fences are g965_tri's two (g965_tri.aubinator.txt: SF [50, 82) then
 * [50, 66); CS [82, 256) then [66, 256)) and its two SF_STATEs (8 entries of
 * 4 x 512 bits, then 8 of 2); the expected handles are the region's start
 * plus entry x size, worked out here. Seed 001 L667-668 ("Virtual, movable
 * boundaries between the URB regions owned by each FF unit") with notes §3.6
 * (a change of a unit's URB sizes needs a later URB_FENCE): the old fence
 * holds for the SF's work before the second URB_FENCE, the new one after. */
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/urb_fence/urb_fence.h"

#define CATCH_MAX 64

struct catcher {
    struct port *in;
    uint32_t count;
    struct urb_msg reply[CATCH_MAX];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "replies" },
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
        if (c->count < CATCH_MAX && m->size >= sizeof(struct urb_msg))
            memcpy(&c->reply[c->count], m->payload, sizeof(struct urb_msg));
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_urb_fence_order_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct unit *urb;
    struct catcher *sf;
};

static struct rig rig_new(const char *stage_fences)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    const char *over[] = { stage_fences, NULL };
    r.urb = probe_add(r.sim, &urb_fence_ops, "urb", over);
    struct unit *sf = probe_add(r.sim, &catcher_ops, "sf", NULL);
    probe_link(r.sim, r.urb, "client_reply[0]", sf, "in", 1, 64, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.sf = unit_state(sf);
    return r;
}

static void run(struct rig *r)
{
    sim_run(r->sim, sim_now(r->sim) + 20 * 1000);
}

/* URB_FENCE with every Reallocation Request: VS 32, GS 40, CLIP 50, then
 * SF and CS as given. */
static void fence(struct rig *r, uint32_t sf, uint32_t cs)
{
    size_t off = cs_state_common_offset(3);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_URB_FENCE)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off + sizeof(struct spec_URB_FENCE));
    p->id = SPEC_ID_URB_FENCE;
    p->gen = 4;
    p->dword_count = 3;
    p->common_offset = (uint32_t)off;
    struct spec_URB_FENCE *f = (struct spec_URB_FENCE *)((uint8_t *)p + off);
    f->VSUnitURBReallocationRequest = f->GSUnitURBReallocationRequest = true;
    f->CLIPUnitURBReallocationRequest = f->SFUnitURBReallocationRequest = true;
    f->VFEUnitURBReallocationRequest = f->CSUnitURBReallocationRequest = true;
    f->VSFence = 32, f->GSFence = 40, f->CLIPFence = 50, f->SFFence = sf, f->CSFence = cs;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

static void sf_request(struct rig *r, uint32_t op, uint32_t count, uint32_t rows,
                       const uint32_t *handles)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_SF;
    q->count = count;
    q->rows = rows;
    if (handles)
        memcpy(q->handles, handles, count * sizeof *handles);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 0), m));
}

/* The SF's work before the second fence holds all 8 entries of 4 units
 * (50, 54, .., 78); the second URB_FENCE reaches the URB (from VF) while it
 * is in flight. Until the SF says it reached that fence, the SF region keeps
 * [50, 82) and its 8 x 4 layout: a freed entry is handed out again at once
 * (78: the work before the fence). The SF's new configuration (8 x 2) and
 * its marker then wait for the old entries to drain; the next allocation
 * comes from the new layout in [50, 66) (50, then 52), and nothing was ever
 * beyond the fence. The CS region takes its fence at once (the CS reached
 * it: CS_URB_STATE and CONSTANT_BUFFER come the same way). */
static void test_two_fences_around_work_in_flight(void)
{
    struct rig r = rig_new("stage_fences=true");
    fence(&r, 82, 256);
    sf_request(&r, URB_OP_FENCE, 0, 0, NULL);           /* SF reached the first fence */
    sf_request(&r, URB_OP_CONFIGURE, 8, 8, NULL);       /* SF_STATE: 8 x 4 units */
    sf_request(&r, URB_OP_ALLOC, 8, 0, NULL);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.sf->count, 1);
    CU_ASSERT_EQUAL_FATAL(r.sf->reply[0].count, 8);
    for (uint32_t i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(r.sf->reply[0].handles[i], 50 + 4 * i);
    fence(&r, 66, 256);                                 /* the second fence, work in flight */
    run(&r);
    /* each URB_FENCE is held for the VS, GS, CLIP and SF regions (only the
     * "SF" here ever reaches one) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fences_deferred"), 8);
    uint32_t h = 78;
    sf_request(&r, URB_OP_DEREFERENCE, 1, 0, &h);
    sf_request(&r, URB_OP_ALLOC, 1, 0, NULL);           /* still the old fence's work */
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.sf->count, 2);
    CU_ASSERT_EQUAL(r.sf->reply[1].count, 1);
    CU_ASSERT_EQUAL(r.sf->reply[1].handles[0], 78);
    /* SF_STATE 2 (8 x 2 units) and the second fence reached; a new object */
    sf_request(&r, URB_OP_CONFIGURE, 8, 4, NULL);
    sf_request(&r, URB_OP_FENCE, 0, 0, NULL);
    sf_request(&r, URB_OP_ALLOC, 1, 0, NULL);
    run(&r);
    CU_ASSERT_EQUAL(r.sf->count, 2);                    /* waits: old entries in use */
    uint32_t old[8];
    for (uint32_t i = 0; i < 8; i++)
        old[i] = 50 + 4 * i;
    sf_request(&r, URB_OP_DEREFERENCE, 8, 0, old);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.sf->count, 3);
    CU_ASSERT_EQUAL(r.sf->reply[2].count, 1);
    CU_ASSERT_EQUAL(r.sf->reply[2].handles[0], 50);
    sf_request(&r, URB_OP_ALLOC, 1, 0, NULL);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.sf->count, 4);
    CU_ASSERT_EQUAL(r.sf->reply[3].handles[0], 52);     /* 2-unit entries from 50 */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.entries_beyond_fence"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fence_markers"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fence_waits.sf"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    sim_destroy(r.sim);
}

/* Without stage_fences and without any marker, a fence takes effect when it
 * arrives (the unit's old behaviour): the freed entry is not handed out
 * again while the old entries are in use (the region is changing). */
static void test_fence_at_arrival_without_markers(void)
{
    struct rig r = rig_new("stage_fences=false");
    fence(&r, 82, 256);
    sf_request(&r, URB_OP_CONFIGURE, 8, 8, NULL);
    sf_request(&r, URB_OP_ALLOC, 8, 0, NULL);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.sf->count, 1);
    fence(&r, 66, 256);
    run(&r);
    uint32_t h = 78;
    sf_request(&r, URB_OP_DEREFERENCE, 1, 0, &h);
    sf_request(&r, URB_OP_ALLOC, 1, 0, NULL);
    run(&r);
    CU_ASSERT_EQUAL(r.sf->count, 1);                    /* waits for the region to drain */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fences_deferred"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "two fences around SF work in flight: the old fence holds until SF reaches the new one",
      test_two_fences_around_work_in_flight },
    { "without stage markers a fence takes effect on arrival", test_fence_at_arrival_without_markers },
    { 0 }
};
TEST_SUITE(urb_fence_order, cases);
