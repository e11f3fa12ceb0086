/* tests/units/test_gateway.c - the message gateway driven alone: barrier
 * requests injected from two "EUs", notifications caught. Expected behaviour
 * from seed 003 L9087-9140: the counter counts requesters, all of them are
 * notified when it reaches the barrier's thread count, then it restarts. */
#include <stdio.h>
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/thread_msg.h"
#include "units/gateway/gateway.h"

struct catcher {
    struct port *in;
    uint32_t count;
    uint8_t slots[64];
    uint32_t w0[64];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "write-backs" },
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
        const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
        if (c->count < 64) {
            c->slots[c->count] = w->slot;
            c->w0[c->count] = 0;
            if (w->rlen)
                memcpy(&c->w0[c->count], w->regs[0], 4);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_gw_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct unit *gw, *c[2];
};

static struct rig rig_new(void)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    r.gw = probe_add(r.sim, &gateway_ops, "gw", NULL);
    struct gt_error err;
    for (int i = 0; i < 2; i++) {
        char name[16], port[32];
        snprintf(name, sizeof name, "c%d", i);
        r.c[i] = probe_add(r.sim, &catcher_ops, name, NULL);
        snprintf(port, sizeof port, "writeback[%d]", i);
        probe_link(r.sim, r.gw, port, r.c[i], "in", 1, 16, 4);
        snprintf(port, sizeof port, "gw.eu[%d]", i);
        CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, port, PORT_IN, &err));
    }
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

static void barrier(struct rig *r, int eu, uint8_t slot, uint32_t m2, uint32_t m3,
                    uint16_t threads, uint8_t rlen)
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND, sizeof(struct eu_send_msg) + 32);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 3;
    p->mlen = 1;
    p->rlen = rlen;
    p->slot = slot;
    p->desc = 4 | 1u << 25 | (uint32_t)rlen << 20;
    p->ctx.valid = 1;
    p->ctx.barrier_threads = threads;
    uint32_t m0[8] = { 0, 0, m2, m3, 0, 0, 0, 0 };
    memcpy(p->regs[0], m0, 32);
    CU_ASSERT_TRUE(port_inject(unit_port(r->gw, "eu", (uint32_t)eu), m));
}

static void test_barrier_releases_at_count(void)
{
    struct rig r = rig_new();
    struct catcher *a = unit_state(r.c[0]), *b = unit_state(r.c[1]);
    /* barrier 2 of a 3-thread group, barrier 5 of a 2-thread group */
    barrier(&r, 0, 1, 2u << 24, 0, 3, 0);
    barrier(&r, 1, 4, 2u << 24, 0, 3, 0);
    barrier(&r, 1, 6, 5u << 24, 0, 2, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(a->count + b->count, 0);
    barrier(&r, 0, 2, 2u << 24, 0, 3, 0);       /* the third of barrier 2 */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(a->count, 2);
    CU_ASSERT_EQUAL(b->count, 1);
    CU_ASSERT_EQUAL(b->slots[0], 4);
    barrier(&r, 0, 3, 5u << 24, 0, 2, 0);       /* barrier 5 completes */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(a->count, 3);
    CU_ASSERT_EQUAL(b->count, 2);
    CU_ASSERT_EQUAL(b->slots[1], 6);
    /* the counter restarted: barrier 2 again needs three */
    barrier(&r, 0, 1, 2u << 24, 0, 3, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(a->count, 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gw.barriers_released"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gw.notifications"), 5);
    sim_destroy(r.sim);
}

/* Predicated barrier (M0.2[30]): the reply carries the sum of the predicate
 * bits; the count from M0.2[15] + [14:9] overrides the context's. */
static void test_predicated_and_count_enable(void)
{
    struct rig r = rig_new();
    struct catcher *a = unit_state(r.c[0]);
    uint32_t m2 = 1u << 30 | 1u << 15 | 2u << 9 | 1u << 24;
    barrier(&r, 0, 1, m2, 0x00ff, 0, 1);
    barrier(&r, 0, 2, m2, 0x0003, 0, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(a->count, 2);
    CU_ASSERT_EQUAL(a->w0[0], 10);
    CU_ASSERT_EQUAL(a->w0[1], 10);
    sim_destroy(r.sim);
}

/* A barrier with no thread count is bad programming: released at once, counted. */
static void test_barrier_without_count(void)
{
    struct rig r = rig_new();
    struct catcher *a = unit_state(r.c[0]);
    barrier(&r, 0, 1, 7u << 24, 0, 0, 0);
    struct msg *m = msg_alloc(r.sim, MSG_SEND, 8);     /* truncated */
    CU_ASSERT_TRUE(port_inject(unit_port(r.gw, "eu", 0), m));
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(a->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gw.no_count"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gw.bad_messages"), 1);
    sim_destroy(r.sim);
}

/* Replies to different EUs do not wait for each other: with EU 0's write-back
 * channel full (one place, never emptied), EU 1's reply still goes out, and
 * EU 0's second reply stays queued (fabric/port.h back-pressure). Three
 * barriers without a count, each answered at once. */
static void test_a_full_channel_holds_only_its_eu(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *gw = probe_add(sim, &gateway_ops, "gw", NULL);
    const char *const stuck[] = { "per_cycle=0", NULL };
    struct unit *sink = probe_add(sim, &probe_sink_ops, "c0", stuck);
    struct unit *c1 = probe_add(sim, &catcher_ops, "c1", NULL);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, gw, "writeback[0]", sink, "in", 1, 1, 1), 0);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, gw, "writeback[1]", c1, "in", 1, 16, 4), 0);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim_resolve_port(sim, "gw.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim_resolve_port(sim, "gw.eu[1]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    struct rig r = { .sim = sim, .gw = gw };
    barrier(&r, 0, 1, 7u << 24, 0, 0, 0);
    barrier(&r, 0, 2, 7u << 24, 0, 0, 0);
    barrier(&r, 1, 3, 7u << 24, 0, 0, 0);
    sim_run(sim, 1000 * 1000);      /* EU 0's channel never drains: 1000 cycles */
    struct catcher *b = unit_state(c1);
    CU_ASSERT_EQUAL_FATAL(b->count, 1);
    CU_ASSERT_EQUAL(b->slots[0], 3);
    CU_ASSERT_EQUAL(((struct probe_sink *)unit_state(sink))->received, 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gw.no_count"), 3);
    sim_destroy(sim);               /* frees the reply still queued (sanitizer run) */
}

static const struct test_case cases[] = {
    { "barrier notifies every requester at its count", test_barrier_releases_at_count },
    { "predicated barrier sum, count from the message", test_predicated_and_count_enable },
    { "barrier without a count, malformed message", test_barrier_without_count },
    { "a full channel holds only its EU", test_a_full_channel_holds_only_its_eu },
    { 0 }
};
TEST_SUITE(gateway, cases);
