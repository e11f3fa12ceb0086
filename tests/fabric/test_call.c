/* tests/fabric/test_call.c - calls (fabric/port.h port_call, the atomic ports of
 * gem5): a unit hands a message straight to the receiver's call() op from its
 * edge commit and gets the reply back. The cycles expected here are worked out
 * from port.h's definition (the caller's cycle plus the link's latency is the
 * arrival the receiver sees; the reply's cycle is the receiver's answer), not
 * taken from a run. */
#include <stdlib.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"

/* The caller: on cycles 0, 1, 2 it asks whether its port is callable and keeps a
 * message; its edge commit calls. `from_tick` calls from the tick instead, which
 * the fabric must refuse. */
struct caller {
    uint64_t calls, from_tick;
    struct port *out;
    struct msg *held;
    bool callable[3];
    uint32_t made, refused, replies;
    uint64_t tick_cycle[3], reply_cycle[3], reply_tag[3];
};

static const struct param_desc caller_params[] = {
    PARAM_U64_FIELD("calls", struct caller, calls, 3, 0, 3, "calls to make"),
    PARAM_U64_FIELD("from_tick", struct caller, from_tick, 0, 0, 1, "call from the tick"),
    PARAM_END
};
static const struct port_desc caller_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "calls" }, PORT_END
};

static int caller_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct caller *c = unit_state(u);
    c->out = unit_port(u, "out", 0);
    return 0;
}

static void caller_reset(struct unit *u) { unit_wake_at(u, 0); }

/* Calls with the held message, which stays the caller's either way. */
static void make_call(struct caller *c, struct unit *u)
{
    struct msg *reply;
    uint64_t cycle;
    if (!port_call(c->out, c->held, &reply, &cycle)) {
        c->refused++;
    } else if (reply) {
        c->reply_cycle[c->replies] = cycle;
        c->reply_tag[c->replies++] = reply->tag;
        msg_free(unit_sim(u), reply);
    }
    msg_free(unit_sim(u), c->held);
    c->held = NULL;
}

static enum unit_activity caller_tick(struct unit *u)
{
    struct caller *c = unit_state(u);
    if (c->made == c->calls)
        return UNIT_IDLE;
    c->tick_cycle[c->made] = unit_cycle(u);
    c->callable[c->made] = port_callable(c->out);
    c->held = msg_alloc(unit_sim(u), MSG_GENERIC, 8);
    c->held->tag = c->made;
    c->made++;
    if (c->from_tick)
        make_call(c, u);
    else
        unit_request_edge_commit(u);
    return c->made < c->calls ? UNIT_BUSY : UNIT_IDLE;
}

static void caller_commit(struct unit *u)
{
    make_call(unit_state(u), u);
}

static const struct unit_ops caller_ops = {
    .kind = "test_caller", .help = "test: calls", .state_size = sizeof(struct caller),
    .params = caller_params, .ports = caller_ports, .realize = caller_realize,
    .reset = caller_reset, .tick = caller_tick, .edge_commit = caller_commit,
};

/* The receiver: replies to message k (tag k) after `delay` cycles, with tag
 * 100 + k; no reply to tag 1; `callable` false refuses calls. */
struct callee {
    uint64_t delay, callable;
    uint32_t taken;
    uint64_t arrival[3];
};

static const struct param_desc callee_params[] = {
    PARAM_U64_FIELD("delay", struct callee, delay, 5, 0, 100, "cycles to the reply"),
    PARAM_U64_FIELD("callable", struct callee, callable, 1, 0, 1, "takes calls"),
    PARAM_END
};
static const struct port_desc callee_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "calls" }, PORT_END
};

static enum unit_activity callee_tick(struct unit *u)
{
    (void)u;
    return UNIT_IDLE;
}

static bool callee_callable(const struct unit *u, const struct port *in)
{
    (void)in;
    return ((const struct callee *)unit_state(u))->callable != 0;
}

static struct msg *callee_call(struct unit *u, struct port *in, const struct msg *m,
                               uint64_t arrival, uint64_t *reply_cycle)
{
    (void)in;
    struct callee *c = unit_state(u);
    uint32_t tag = m->tag;
    c->arrival[c->taken++] = arrival;
    if (tag == 1)
        return NULL;
    struct msg *r = msg_alloc(unit_sim(u), MSG_GENERIC, 8);
    r->tag = 100 + tag;
    *reply_cycle = arrival + c->delay;
    return r;
}

static const struct unit_ops callee_ops = {
    .kind = "test_callee", .help = "test: takes calls", .state_size = sizeof(struct callee),
    .params = callee_params, .ports = callee_ports, .tick = callee_tick,
    .callable = callee_callable, .call = callee_call,
};

/* A callee kind without a call() op: its ports take no calls. */
static const struct unit_ops plain_ops = {
    .kind = "test_plain", .help = "test: no calls", .state_size = sizeof(struct callee),
    .params = callee_params, .ports = callee_ports, .tick = callee_tick,
};

struct rig {
    struct sim *sim;
    struct caller *c;
    struct callee *e;
};

static struct rig make_rig(const struct unit_ops *receiver, const char *const *caller_over,
                           const char *const *callee_over, uint32_t latency, uint64_t seed)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR,
                             .tick_order_seed = seed };
    struct rig r = { .sim = probe_sim(&o) };
    struct unit *a = probe_add(r.sim, &caller_ops, "caller", caller_over);
    struct unit *b = probe_add(r.sim, receiver, "callee", callee_over);
    CU_ASSERT_EQUAL_FATAL(probe_link(r.sim, a, "out", b, "in", latency, 1, 1), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, NULL), 0);
    r.c = unit_state(a);
    r.e = unit_state(b);
    return r;
}

/* Three calls on cycles 0, 1, 2 over a link of latency 3: the receiver sees
 * arrivals 3, 4, 5, whatever the tick order; the replies (to calls 0 and 2)
 * are due delay = 5 later: 8 and 10. A capacity-1, width-1 link does not
 * throttle calls (nothing waits in it). Each call is one message on the link. */
static void test_call_from_commit(void)
{
    for (uint64_t seed = 0; seed < 3; seed++) {
        struct rig r = make_rig(&callee_ops, NULL, NULL, 3, seed);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        CU_ASSERT_EQUAL(r.c->made, 3);
        CU_ASSERT_EQUAL(r.c->refused, 0);
        CU_ASSERT_EQUAL(r.e->taken, 3);
        for (unsigned k = 0; k < 3; k++) {
            CU_ASSERT_TRUE(r.c->callable[k]);
            CU_ASSERT_EQUAL(r.c->tick_cycle[k], k);
            CU_ASSERT_EQUAL(r.e->arrival[k], k + 3);
        }
        CU_ASSERT_EQUAL(r.c->replies, 2);
        CU_ASSERT_EQUAL(r.c->reply_tag[0], 100);
        CU_ASSERT_EQUAL(r.c->reply_cycle[0], 0 + 3 + 5);
        CU_ASSERT_EQUAL(r.c->reply_tag[1], 102);
        CU_ASSERT_EQUAL(r.c->reply_cycle[1], 2 + 3 + 5);
        struct stats_writer *w = stats_writer_create();
        sim_write_stats(r.sim, w);
        double sent = 0;
        CU_ASSERT_TRUE(stats_lookup(w, "caller.port.out.sent", &sent));
        CU_ASSERT_EQUAL(sent, 3);
        stats_writer_destroy(w);
        struct sim_totals t;
        sim_totals(r.sim, &t);
        CU_ASSERT_EQUAL(t.messages_sent, 3);
        CU_ASSERT_EQUAL(t.messages_delivered, 3);
        CU_ASSERT_EQUAL(sim_log_count(r.sim, SIM_LOG_ERROR), 0);
        sim_destroy(r.sim);
    }
}

/* A call from a tick is refused (its order would be the tick order): the
 * caller keeps the message, nothing reaches the receiver, an error is logged. */
static void test_call_from_tick_is_refused(void)
{
    const char *over[] = { "from_tick=1", NULL };
    struct rig r = make_rig(&callee_ops, over, NULL, 1, 0);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(r.c->refused, 3);
    CU_ASSERT_EQUAL(r.e->taken, 0);
    CU_ASSERT_EQUAL(sim_log_count(r.sim, SIM_LOG_ERROR), 3);
    sim_destroy(r.sim);
}

/* No call() op, callable() saying no, or an observer on the port (recordings
 * and co-simulation see messages in channels): not callable, and a call made
 * anyway is refused. */
static void noop_observer(void *context, const struct port *p, const struct msg *m,
                          uint64_t cycle)
{
    (void)context, (void)p, (void)m, (void)cycle;
}

static void test_not_callable(void)
{
    const char *no[] = { "callable=0", NULL };
    for (int k = 0; k < 3; k++) {
        struct rig r = make_rig(k == 0 ? &plain_ops : &callee_ops, NULL, k == 1 ? no : NULL, 1, 0);
        if (k == 2)
            CU_ASSERT_TRUE(port_add_observer(r.c->out, noop_observer, NULL));
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        CU_ASSERT_FALSE(r.c->callable[0]);
        CU_ASSERT_EQUAL(r.c->refused, 3);
        CU_ASSERT_EQUAL(r.e->taken, 0);
        sim_destroy(r.sim);
    }
}

static const struct test_case cases[] = {
    { "a call from an edge commit: arrival, reply cycle, counted", test_call_from_commit },
    { "a call from a tick is refused", test_call_from_tick_is_refused },
    { "ports that take no calls", test_not_callable },
    { 0 }
};
TEST_SUITE(call, cases);
