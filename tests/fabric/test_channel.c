/* tests/fabric/test_channel.c - channels honour latency, capacity and width
 * exactly; back-pressure is counted; crossing clock domains lands on the
 * receiver's edges. Expected cycles are worked out from the definitions in
 * fabric/port.h, not taken from a run. */
#include <stdlib.h>
#include <string.h>

#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"

struct pair {
    struct sim *sim;
    struct unit *src, *dst;
    struct probe_source *s;
    struct probe_sink *d;
};

static struct pair make_pair(const char *const *src_over, const char *const *dst_over,
                             uint32_t latency, uint32_t capacity, uint32_t width, uint64_t seed)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR,
                             .tick_order_seed = seed };
    struct pair p = { .sim = probe_sim(&o) };
    p.src = probe_add(p.sim, &probe_source_ops, "src", src_over);
    p.dst = probe_add(p.sim, &probe_sink_ops, "dst", dst_over);
    CU_ASSERT_EQUAL_FATAL(probe_link(p.sim, p.src, "out", p.dst, "in", latency, capacity, width), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(p.sim, NULL), 0);
    p.s = unit_state(p.src);
    p.d = unit_state(p.dst);
    return p;
}

static void test_latency_is_exact(void)
{
    static const uint32_t latencies[] = { 1, 2, 3, 7, 50 };
    for (unsigned k = 0; k < sizeof latencies / sizeof latencies[0]; k++) {
        uint32_t lat = latencies[k];
        const char *src[] = { "messages=20", NULL };
        /* capacity large enough never to throttle: latency + 1 in flight */
        struct pair p = make_pair(src, NULL, lat, lat + 1, 1, 0);
        CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
        CU_ASSERT_EQUAL(p.d->received, 20);
        for (uint32_t i = 0; i < 20; i++) {
            CU_ASSERT_EQUAL(p.s->send_cycle[i], i);           /* one per cycle from 0 */
            CU_ASSERT_EQUAL(p.d->tag[i], i);                  /* in order */
            CU_ASSERT_EQUAL(p.d->cycle[i], i + lat);          /* visible latency later */
        }
        sim_destroy(p.sim);
    }
}

/* With latency 1, a freed slot is usable the cycle after the pop, so the
 * credit loop is 2 cycles: capacity 1 gives one message every 2 cycles,
 * capacity 2 gives one per cycle. Independent of tick order. */
static void test_capacity_credit_loop(void)
{
    for (uint64_t seed = 0; seed < 4; seed++) {
        const char *src[] = { "messages=8", NULL };
        struct pair p = make_pair(src, NULL, 1, 1, 1, seed);
        CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
        for (uint32_t i = 0; i < 8; i++)
            CU_ASSERT_EQUAL(p.d->cycle[i], 2 * i + 1);
        sim_destroy(p.sim);

        p = make_pair(src, NULL, 1, 2, 1, seed);
        CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
        for (uint32_t i = 0; i < 8; i++)
            CU_ASSERT_EQUAL(p.d->cycle[i], i + 1);
        sim_destroy(p.sim);
    }
}

/* A receiver that does not pop: exactly `capacity` messages get in, the rest
 * wait; every refused cycle is one stall; nothing is lost once it pops. */
static void test_capacity_holds_and_backpressure_counts(void)
{
    const char *src[] = { "messages=30", "per_cycle=5", NULL };
    const char *dst[] = { "start_cycle=100", NULL };
    struct pair p = make_pair(src, dst, 1, 5, 5, 0);
    CU_ASSERT_EQUAL(sim_run(p.sim, 99 * 1000), SIM_STOP_TIME_LIMIT);
    CU_ASSERT_EQUAL(p.s->sent, 5);
    CU_ASSERT_EQUAL(p.d->received, 0);
    CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(p.d->received, 30);
    for (uint32_t i = 0; i < 30; i++)
        CU_ASSERT_EQUAL(p.d->tag[i], i);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(p.sim, w);
    double peak = 0, stalled = 0, ticks = 0;
    CU_ASSERT_TRUE(stats_lookup(w, "src.ticks", &ticks));
    CU_ASSERT_TRUE(stats_lookup(w, "src.port.out.peak_occupancy", &peak));
    CU_ASSERT_TRUE(stats_lookup(w, "src.port.out.stalled_full", &stalled));
    CU_ASSERT_EQUAL(peak, 5);
    /* The source tried at cycle 0 (5 in, 6th refused), then slept until the
     * sink's first pop at 100 woke it for 101: one refused cycle before that.
     * From then on it refills as the sink drains; refusals are counted once
     * per cycle, and never more than the cycles it ran. */
    CU_ASSERT_TRUE(stalled >= 1);
    CU_ASSERT_TRUE(stalled <= ticks);
    stats_writer_destroy(w);
    sim_destroy(p.sim);
}

/* Width 2, a source that tries 4 a cycle: two go each cycle. */
static void test_width_is_exact(void)
{
    const char *src[] = { "messages=10", "per_cycle=4", NULL };
    struct pair p = make_pair(src, NULL, 1, 64, 2, 0);
    CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
    for (uint32_t i = 0; i < 10; i++) {
        CU_ASSERT_EQUAL(p.s->send_cycle[i], i / 2);
        CU_ASSERT_EQUAL(p.d->cycle[i], i / 2 + 1);
    }
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(p.sim, w);
    double stalled = 0;
    CU_ASSERT_TRUE(stats_lookup(w, "src.port.out.stalled_width", &stalled));
    /* cycles 0..3 refuse the third try; at cycle 4 the last two go and the
     * source stops trying */
    CU_ASSERT_EQUAL(stalled, 4);
    stats_writer_destroy(w);
    sim_destroy(p.sim);
}

/* Sender at 1000 ps, receiver at 1500 ps, latency 2 receiver cycles: a send at
 * time t is visible on the first receiver edge after t, plus one more edge. */
static void test_crossing_clock_domains(void)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    int fast = sim_add_clock(sim, "fast", 1000, NULL);
    int slow = sim_add_clock(sim, "slow", 1500, NULL);
    const char *src_over[] = { "messages=12", NULL };
    struct unit *src = sim_add_unit(sim, &probe_source_ops, "src", (uint32_t)fast, NULL, src_over,
                                    NULL);
    struct unit *dst = sim_add_unit(sim, &probe_sink_ops, "dst", (uint32_t)slow, NULL, NULL, NULL);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, src, "out", dst, "in", 2, 64, 1), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct probe_source *s = unit_state(src);
    struct probe_sink *d = unit_state(dst);
    CU_ASSERT_EQUAL(d->received, 12);
    for (uint32_t i = 0; i < 12; i++) {
        uint64_t t = s->send_cycle[i] * 1000;
        uint64_t k = 0;
        while (k * 1500 <= t)           /* first slow edge strictly after t */
            k++;
        CU_ASSERT_EQUAL(d->cycle[i], k + 1);
    }
    sim_destroy(sim);
}

/* source -> relay -> slow sink: back-pressure travels up the chain, nothing is
 * lost or reordered, and the relay's refused cycles are counted. */
static void test_backpressure_through_a_chain(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=200", NULL };
    const char *dst_over[] = { "per_cycle=1", "start_cycle=50", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *mid = probe_add(sim, &probe_relay_ops, "mid", NULL);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", dst_over);
    probe_link(sim, src, "out", mid, "in", 1, 2, 1);
    probe_link(sim, mid, "out", dst, "in", 3, 4, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *d = unit_state(dst);
    CU_ASSERT_EQUAL(d->received, 200);
    for (uint32_t i = 0; i < 200; i++)
        CU_ASSERT_EQUAL(d->tag[i], i);
    /* The sink pops one per cycle from cycle 50: the last pop is at 50 + 199. */
    CU_ASSERT_EQUAL(d->cycle[199], 249);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double mid_stalls = 0;
    CU_ASSERT_TRUE(stats_lookup(w, "mid.port.out.stalled_full", &mid_stalls));
    CU_ASSERT_TRUE(mid_stalls > 0);
    stats_writer_destroy(w);
    sim_destroy(sim);
}

/* A unit driven alone: messages put straight into an unlinked input. */
static void test_backdoor_injection_drives_a_unit_alone(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", NULL);
    struct port *in = unit_port(dst, "in", 0);
    for (uint32_t i = 0; i < 3; i++) {
        struct msg *m = msg_alloc(sim, MSG_GENERIC, 8);
        m->tag = 100 + i;
        CU_ASSERT_TRUE(port_inject(in, m));
    }
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *d = unit_state(dst);
    CU_ASSERT_EQUAL(d->received, 3);
    CU_ASSERT_EQUAL(d->tag[2], 102);
    CU_ASSERT_EQUAL(d->cycle[0], 0);
    sim_destroy(sim);
}

/* Observers: each sees every message of its port with the cycle of the
 * port's unit (sent on cycles 0..4 by the source, popped latency 3 later by
 * the sink), in the order they were added; removing one leaves the others;
 * a port holds at most PORT_MAX_OBSERVERS. */
struct observed {
    int id;
    uint32_t count;
    uint64_t cycle[8];
    int *order, *order_count;
};

static void observe(void *context, const struct port *p, const struct msg *m, uint64_t cycle)
{
    (void)p;
    (void)m;
    struct observed *o = context;
    if (o->count < 8)
        o->cycle[o->count] = cycle;
    o->count++;
    o->order[(*o->order_count)++ % 64] = o->id;
}

static void test_observers_share_a_port(void)
{
    const char *src[] = { "messages=5", NULL };
    struct pair p = make_pair(src, NULL, 3, 8, 1, 0);
    int order[64], order_count = 0;
    struct observed a = { 1, 0, { 0 }, order, &order_count };
    struct observed b = { 2, 0, { 0 }, order, &order_count };
    struct observed in = { 3, 0, { 0 }, order, &order_count };
    struct port *out = unit_port(p.src, "out", 0), *inp = unit_port(p.dst, "in", 0);
    CU_ASSERT_TRUE(port_add_observer(out, observe, &a));
    CU_ASSERT_TRUE(port_add_observer(out, observe, &b));
    CU_ASSERT_TRUE(port_add_observer(inp, observe, &in));
    CU_ASSERT_FALSE(port_add_observer(out, NULL, &a));
    CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(a.count, 5);
    CU_ASSERT_EQUAL(b.count, 5);
    CU_ASSERT_EQUAL(in.count, 5);
    for (uint32_t i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(a.cycle[i], i);
        CU_ASSERT_EQUAL(b.cycle[i], i);
        CU_ASSERT_EQUAL(in.cycle[i], i + 3);
    }
    /* on the output, a before b for every message */
    int last_out = 0;
    for (int i = 0; i < order_count; i++)
        if (order[i] != 3) {
            CU_ASSERT_EQUAL(order[i], last_out == 1 ? 2 : 1);
            last_out = order[i];
        }
    sim_destroy(p.sim);

    /* removal and the limit, on a fresh run */
    p = make_pair(src, NULL, 1, 8, 1, 0);
    out = unit_port(p.src, "out", 0);
    a.count = b.count = 0;
    CU_ASSERT_TRUE(port_add_observer(out, observe, &a));
    CU_ASSERT_TRUE(port_add_observer(out, observe, &b));
    port_remove_observer(out, observe, &a);
    for (int i = 1; i < PORT_MAX_OBSERVERS; i++)
        CU_ASSERT_TRUE(port_add_observer(out, observe, &in));
    CU_ASSERT_FALSE(port_add_observer(out, observe, &in));
    in.count = 0;
    CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(a.count, 0);
    CU_ASSERT_EQUAL(b.count, 5);
    CU_ASSERT_EQUAL(in.count, 5 * (PORT_MAX_OBSERVERS - 1));
    port_set_observer(out, NULL, NULL);         /* none left */
    sim_destroy(p.sim);
}

static void test_bad_links_are_refused(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *a = probe_add(sim, &probe_source_ops, "a", NULL);
    struct unit *b = probe_add(sim, &probe_sink_ops, "b", NULL);
    struct unit *c = probe_add(sim, &probe_sink_ops, "c", NULL);
    struct gt_error err;
    struct link_params zero_latency = { 0, 4, 1 }, ok = { 1, 4, 1 }, wide = { 1, 2, 3 };
    CU_ASSERT_EQUAL(sim_connect(sim, unit_port(a, "out", 0), unit_port(b, "in", 0),
                                &zero_latency, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "latency"));
    CU_ASSERT_EQUAL(sim_connect(sim, unit_port(a, "out", 0), unit_port(b, "in", 0), &wide, &err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "width"));
    CU_ASSERT_EQUAL(sim_connect(sim, unit_port(b, "in", 0), unit_port(a, "out", 0), &ok, &err),
                    -1);
    CU_ASSERT_EQUAL(sim_connect(sim, unit_port(a, "out", 0), unit_port(b, "in", 0), &ok, &err), 0);
    CU_ASSERT_EQUAL(sim_connect(sim, unit_port(a, "out", 0), unit_port(c, "in", 0), &ok, &err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "a.out[0] is already linked"));
    /* c's required input is left unlinked: realize names it. */
    CU_ASSERT_EQUAL(sim_realize(sim, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "c: required input port 'in[0]' is not linked"));
    sim_destroy(sim);
}

/* unit_has_queued() (fabric/unit.h) counts messages sent to a unit and not
 * yet popped, visible or not: with latency 5 the three messages sent on
 * cycles 0-2 are queued at cycle 2 though none is visible before cycle 5;
 * once the sink has popped all three nothing is queued. A unit with no
 * inputs never has anything queued. */
static void test_has_queued_counts_messages_not_yet_popped(void)
{
    const char *src[] = { "messages=3", NULL };
    struct pair p = make_pair(src, NULL, 5, 8, 1, 0);
    CU_ASSERT_FALSE(unit_has_queued(p.dst));
    sim_run(p.sim, 2 * sim_clock_period(p.sim, 0));
    CU_ASSERT_EQUAL(p.s->sent, 3);
    CU_ASSERT_EQUAL(p.d->received, 0);
    CU_ASSERT_TRUE(unit_has_queued(p.dst));
    CU_ASSERT_FALSE(unit_has_queued(p.src));
    sim_run(p.sim, 5 * sim_clock_period(p.sim, 0));
    CU_ASSERT_EQUAL(p.d->received, 1);
    CU_ASSERT_TRUE(unit_has_queued(p.dst));
    CU_ASSERT_EQUAL(sim_run(p.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(p.d->received, 3);
    CU_ASSERT_FALSE(unit_has_queued(p.dst));
    sim_destroy(p.sim);
}

/* A unit with more inputs than unit.queued_ports has bits: each tick pops
 * at most one message, from the first input that gives one, and asks for
 * another tick only while unit_has_queued() says a message is left. */
#define MANY_INPUTS 70
struct many_inputs {
    struct port **in;
    uint32_t inputs;
    uint32_t received;
    uint32_t port_of[2 * MANY_INPUTS];
    uint64_t tag[2 * MANY_INPUTS];
};

static const struct port_desc many_inputs_ports[] = {
    { .name = "in", .direction = PORT_IN, .count = MANY_INPUTS, .help = "anything" }, PORT_END
};

static int many_inputs_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct many_inputs *s = unit_state(u);
    s->in = unit_port_array(u, "in", &s->inputs);
    return 0;
}

static enum unit_activity many_inputs_tick(struct unit *u)
{
    struct many_inputs *s = unit_state(u);
    for (uint32_t k = 0; k < s->inputs; k++) {
        struct msg *m = port_pop(s->in[k]);
        if (!m)
            continue;
        if (s->received < 2 * MANY_INPUTS) {
            s->port_of[s->received] = k;
            s->tag[s->received] = m->tag;
        }
        s->received++;
        msg_free(unit_sim(u), m);
        break;
    }
    return unit_has_queued(u) ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops many_inputs_ops = {
    .kind = "test_many_inputs", .help = "test: 70 inputs, one pop a tick",
    .state_size = sizeof(struct many_inputs), .ports = many_inputs_ports,
    .realize = many_inputs_realize, .tick = many_inputs_tick,
};

static void inject_tag(struct sim *sim, struct unit *u, uint32_t port, uint64_t tag)
{
    struct msg *m = msg_alloc(sim, MSG_GENERIC, 8);
    m->tag = tag;
    CU_ASSERT_TRUE(port_inject(unit_port(u, "in", port), m));
}

/* The queued bits (fabric/sim_internal.h unit.queued_ports): the 64th and
 * later input channels share one bit, which must stay set while any of them
 * holds a message. Every one of 70 inputs gets a message (channels made in
 * port order, so in[63..69] share the bit); then in[64] and in[66] get one
 * each: the tick that empties in[64] must leave in[66]'s visible, or the unit
 * goes idle with it queued. Once all are popped nothing is queued. */
static void test_shared_queued_bit_keeps_messages(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *u = probe_add(sim, &many_inputs_ops, "many", NULL);
    for (uint32_t k = 0; k < MANY_INPUTS; k++)
        inject_tag(sim, u, k, k);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_TRUE(unit_has_queued(u));
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct many_inputs *s = unit_state(u);
    CU_ASSERT_EQUAL_FATAL(s->received, MANY_INPUTS);
    for (uint32_t k = 0; k < MANY_INPUTS; k++)
        CU_ASSERT_EQUAL(s->tag[k], k);      /* lowest input first, one a tick */
    CU_ASSERT_FALSE(unit_has_queued(u));
    inject_tag(sim, u, 64, 1064);
    inject_tag(sim, u, 66, 1066);
    inject_tag(sim, u, 5, 1005);
    CU_ASSERT_TRUE(unit_has_queued(u));
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL_FATAL(s->received, MANY_INPUTS + 3);
    CU_ASSERT_EQUAL(s->port_of[MANY_INPUTS], 5);
    CU_ASSERT_EQUAL(s->port_of[MANY_INPUTS + 1], 64);
    CU_ASSERT_EQUAL(s->port_of[MANY_INPUTS + 2], 66);
    CU_ASSERT_EQUAL(s->tag[MANY_INPUTS + 2], 1066);
    CU_ASSERT_FALSE(unit_has_queued(u));
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "latency is exact", test_latency_is_exact },
    { "shared queued bit keeps messages", test_shared_queued_bit_keeps_messages },
    { "capacity credit loop", test_capacity_credit_loop },
    { "capacity holds, back-pressure counted", test_capacity_holds_and_backpressure_counts },
    { "width is exact", test_width_is_exact },
    { "crossing clock domains", test_crossing_clock_domains },
    { "back-pressure through a chain", test_backpressure_through_a_chain },
    { "backdoor injection drives a unit alone", test_backdoor_injection_drives_a_unit_alone },
    { "observers share a port", test_observers_share_a_port },
    { "bad links are refused", test_bad_links_are_refused },
    { "has_queued counts messages not yet popped", test_has_queued_counts_messages_not_yet_popped },
    { 0 }
};
TEST_SUITE(channel, cases);
