/* tests/fabric/test_sim.c - the kernel as a whole: tick order cannot change
 * results, two machines live in one process, idle units cost nothing, far
 * timers fire on time, and the watchdog names the channel of a deadlock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "tests/support/probes.h"
#include "tests/test.h"

/* Three sources merge into a placeholder that spreads over two relays on a
 * slower clock, each feeding a slow sink: merging, fan-out, two clocks and
 * back-pressure everywhere. */
static const char network[] =
    "clocks = { a = { period_ps = 1000; }; b = { period_ps = 1300; }; };\n"
    "src   = { kind = \"test_source\"; count = 3; messages = 400; per_cycle = 2; };\n"
    "mix   = { kind = \"vf\"; impl = \"placeholder\"; throughput = 2; };\n"
    "relay = { kind = \"test_relay\"; count = 2; clock = \"b\"; };\n"
    "sink  = { kind = \"test_sink\"; count = 2; per_cycle = 1; clock = \"b\"; };\n"
    "links = (\n"
    "  { from = \"src[*].out\"; to = \"mix.in[*]\"; capacity = 2; },\n"
    "  { from = \"mix.out[*]\"; to = \"relay[*].in\"; latency = 3; capacity = 3; },\n"
    "  { from = \"relay[*].out\"; to = \"sink[*].in\"; capacity = 2; }\n"
    ");\n";

static struct sim *build(const char *text, uint64_t seed, uint64_t watchdog)
{
    struct gt_error err;
    struct gt_config *c = gt_config_parse(text, ".", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    struct sim_options o = { .watchdog_cycles = watchdog, .tick_order_seed = seed,
                             .log_level = -1 };
    struct sim *sim = sim_create(&o);
    int rc = topology_build(sim, c, probe_kind_find, &err);
    if (rc < 0)
        fprintf(stderr, "build: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    gt_config_free(c);
    return sim;
}

static struct stats_writer *stats_of(struct sim *sim)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    return w;
}

static void assert_same_stats(const struct stats_writer *a, const struct stats_writer *b)
{
    CU_ASSERT_EQUAL_FATAL(stats_row_count(a), stats_row_count(b));
    for (size_t i = 0; i < stats_row_count(a); i++) {
        const char *pa, *pb;
        double va, vb;
        stats_row(a, i, &pa, &va);
        stats_row(b, i, &pb, &vb);
        CU_ASSERT_STRING_EQUAL(pa, pb);
        if (va != vb)
            fprintf(stderr, "differs: %s %g vs %g\n", pa, va, vb);
        CU_ASSERT_EQUAL(va, vb);
    }
}

static void test_tick_order_cannot_change_results(void)
{
    struct sim *reference = build(network, 0, 100000);
    CU_ASSERT_EQUAL(sim_run(reference, 0), SIM_STOP_QUIESCENT);
    struct stats_writer *ref = stats_of(reference);
    double received = 0;
    CU_ASSERT_TRUE(stats_lookup(ref, "sink0.received", &received));
    double received1 = 0;
    CU_ASSERT_TRUE(stats_lookup(ref, "sink1.received", &received1));
    CU_ASSERT_EQUAL(received + received1, 1200);
    double stalls = 0;
    CU_ASSERT_TRUE(stats_lookup(ref, "sim.stalls", &stalls));
    CU_ASSERT_TRUE(stalls > 0);         /* the network really is back-pressured */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct sim *shuffled = build(network, seed * 7919, 100000);
        CU_ASSERT_EQUAL(sim_run(shuffled, 0), SIM_STOP_QUIESCENT);
        struct stats_writer *w = stats_of(shuffled);
        assert_same_stats(ref, w);      /* includes the sinks' order-sensitive checksums */
        stats_writer_destroy(w);
        sim_destroy(shuffled);
    }
    stats_writer_destroy(ref);
    sim_destroy(reference);
}

static void test_two_machines_in_one_process(void)
{
    struct sim *alone = build(network, 0, 100000);
    sim_run(alone, 0);
    struct sim *a = build(network, 0, 100000);
    struct sim *b = build(network, 3, 100000);
    bool more_a = true, more_b = true;
    while (more_a || more_b) {          /* interleaved, step by step */
        if (more_a)
            more_a = sim_step(a);
        if (more_b)
            more_b = sim_step(b);
    }
    struct stats_writer *wa = stats_of(a), *wb = stats_of(b), *w0 = stats_of(alone);
    /* sim_step() does not count as a run for the totals above the units, so
     * compare the units' own stats: skip the sim.* rows. */
    for (size_t i = 0; i < stats_row_count(w0); i++) {
        const char *p0, *pa, *pb;
        double v0, va, vb;
        stats_row(w0, i, &p0, &v0);
        stats_row(wa, i, &pa, &va);
        stats_row(wb, i, &pb, &vb);
        CU_ASSERT_STRING_EQUAL(p0, pa);
        CU_ASSERT_STRING_EQUAL(p0, pb);
        CU_ASSERT_EQUAL(v0, va);
        CU_ASSERT_EQUAL(v0, vb);
    }
    stats_writer_destroy(wa);
    stats_writer_destroy(wb);
    stats_writer_destroy(w0);
    sim_destroy(a);
    sim_destroy(b);
    sim_destroy(alone);
}

static void test_idle_units_are_never_ticked(void)
{
    struct sim *sim = probe_sim(NULL);
    const struct unit_ops *eu = probe_kind_find("eu");
    CU_ASSERT_PTR_NOT_NULL_FATAL(eu);
    for (int i = 0; i < 1000; i++) {
        char name[32];
        snprintf(name, sizeof name, "idle%d", i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim_add_unit(sim, eu, name, 0, NULL, NULL, NULL));
    }
    const char *src_over[] = { "messages=1000", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", NULL);
    probe_link(sim, src, "out", dst, "in", 1, 2, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct stats_writer *w = stats_of(sim);
    double total = 0, src_ticks = 0, dst_ticks = 0, idle_ticks = 0;
    stats_lookup(w, "sim.ticks", &total);
    stats_lookup(w, "src.ticks", &src_ticks);
    stats_lookup(w, "dst.ticks", &dst_ticks);
    for (int i = 0; i < 1000; i++) {
        char path[48];
        double t = 0;
        snprintf(path, sizeof path, "idle%d.ticks", i);
        CU_ASSERT_TRUE(stats_lookup(w, path, &t));
        idle_ticks += t;
    }
    CU_ASSERT_EQUAL(idle_ticks, 0);
    CU_ASSERT_EQUAL(total, src_ticks + dst_ticks);
    /* source: 1000 sends one per cycle = 1000 ticks; sink: 1000 arrivals */
    CU_ASSERT_EQUAL(src_ticks, 1000);
    CU_ASSERT_EQUAL(dst_ticks, 1000);
    stats_writer_destroy(w);
    sim_destroy(sim);
}

/* Timer wakes beyond the 4096-cycle wheel go through the overflow heap and
 * still fire on their exact cycle. */
static void test_far_timers_fire_on_time(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=4", "period=10000", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", NULL);
    probe_link(sim, src, "out", dst, "in", 5000, 2, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *d = unit_state(dst);
    CU_ASSERT_EQUAL(d->received, 4);
    for (uint32_t i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(d->cycle[i], 10000 * i + 5000);
    CU_ASSERT_EQUAL(sim_now(sim), 35000 * 1000);
    sim_destroy(sim);
}

/* A sink that looks at its input every cycle but never takes anything: units
 * are busy, nothing moves, the watchdog fires and names the channel. */
static void test_watchdog_names_the_stuck_channel(void)
{
    struct sim_options o = { .watchdog_cycles = 500, .log_level = -1 };
    struct sim *sim = probe_sim(&o);
    const char *src_over[] = { "messages=3", NULL };
    const char *dst_over[] = { "per_cycle=0", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", dst_over);
    probe_link(sim, src, "out", dst, "in", 1, 4, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_DEADLOCK);
    const char *r = sim_deadlock_report(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "nothing moved for 500 cycles"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "channel src.out[0] -> dst.in[0]: 3/4 messages"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "waiting to receive: dst"));
    /* it stopped about 500 cycles after the last send (cycle 2) */
    CU_ASSERT_TRUE(sim_now(sim) >= 502 * 1000 && sim_now(sim) <= 504 * 1000);
    sim_destroy(sim);
}

/* Two units that each forward to the other jam when the loop fills: both wait
 * for space that never frees, nothing is left to tick, and the report names
 * both channels and who waits on them. */
static const char ring[] =
    "clocks = { a = { period_ps = 1000; }; };\n"
    "src = { kind = \"test_source\"; messages = 10; };\n"
    "p = { kind = \"vf\"; impl = \"placeholder\"; };\n"
    "q = { kind = \"vs\"; impl = \"placeholder\"; };\n"
    "links = (\n"
    "  { from = \"src.out\"; to = \"p.in[0]\"; },\n"
    "  { from = \"p.out[0]\"; to = \"q.in[0]\"; capacity = 2; },\n"
    "  { from = \"q.out[0]\"; to = \"p.in[1]\"; capacity = 2; }\n"
    ");\n";

static void test_deadlock_with_stranded_messages(void)
{
    struct sim *sim = build(ring, 0, 100000);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_DEADLOCK);
    const char *r = sim_deadlock_report(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "no unit has work but messages are left"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "channel p.out[0] -> q.in[0]: 2/2 messages"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "channel q.out[0] -> p.in[1]: 2/2 messages"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "waiting to send: p"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r, "waiting to send: q"));
    sim_destroy(sim);
}

static void test_message_pool_reuses_messages(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=100000", "payload=100", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", NULL);
    probe_link(sim, src, "out", dst, "in", 3, 8, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    sim_run(sim, 0);
    struct sim_totals t;
    sim_totals(sim, &t);
    CU_ASSERT_EQUAL(t.messages_live, 0);
    CU_ASSERT_TRUE(t.messages_peak <= 8);       /* never more than the channel holds */
    CU_ASSERT_TRUE(t.pool_bytes <= 512 * 1024);  /* one block, not 100000 mallocs */
    /* sizes beyond the pools still work and are freed */
    struct msg *big = msg_alloc(sim, MSG_GENERIC, 1u << 20);
    CU_ASSERT_EQUAL(big->size, 1u << 20);
    CU_ASSERT_EQUAL(big->payload[(1u << 20) - 1], 0);
    msg_free(sim, big);
    sim_totals(sim, &t);
    CU_ASSERT_EQUAL(t.messages_live, 0);
    sim_destroy(sim);
}

/* ---- edge commits: after every tick of the edge, in unit id order ---------- */

struct commit_log {
    uint32_t entries[256];      /* unit id, or 1000 + unit id for a tick */
    uint32_t count;
};

struct committer {
    struct commit_log *log;
    uint32_t left;
};

static void committer_reset(struct unit *u)
{
    struct committer *s = unit_state(u);
    s->left = 4;
    unit_wake_at(u, 0);
}

static enum unit_activity committer_tick(struct unit *u)
{
    struct committer *s = unit_state(u);
    if (s->log->count < 256)
        s->log->entries[s->log->count++] = 1000 + unit_id(u);
    unit_request_edge_commit(u);
    unit_request_edge_commit(u);        /* asked twice: run once */
    return --s->left ? UNIT_BUSY : UNIT_IDLE;
}

static void committer_commit(struct unit *u)
{
    struct committer *s = unit_state(u);
    if (s->log->count < 256)
        s->log->entries[s->log->count++] = unit_id(u);
}

static const struct unit_ops committer_ops = {
    .kind = "test_committer", .help = "asks for an edge commit on every tick",
    .state_size = sizeof(struct committer),
    .reset = committer_reset, .tick = committer_tick, .edge_commit = committer_commit,
};

/* With the tick order shuffled, each edge is five ticks in some order, then the
 * five commits in unit id order, once each. */
static void test_edge_commits_run_in_unit_order(void)
{
    struct sim_options o = { .tick_order_seed = 99, .log_level = -1 };
    struct sim *sim = sim_create(&o);
    CU_ASSERT_EQUAL_FATAL(sim_add_clock(sim, "core", 1000, NULL), 0);
    struct commit_log log = { .count = 0 };
    uint32_t ids[5];
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        struct unit *u = sim_add_unit(sim, &committer_ops, name, 0, NULL, NULL, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(u);
        ((struct committer *)unit_state(u))->log = &log;
        ids[i] = unit_id(u);
    }
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    sim_run(sim, 0);
    CU_ASSERT_EQUAL_FATAL(log.count, 4 * 10);
    bool shuffled = false;
    for (uint32_t edge = 0; edge < 4; edge++) {
        const uint32_t *e = log.entries + edge * 10;
        uint32_t ticked = 0;
        for (int i = 0; i < 5; i++) {
            CU_ASSERT_TRUE(e[i] >= 1000);
            for (int k = 0; k < 5; k++)
                if (e[i] == 1000 + ids[k])
                    ticked |= 1u << k;
            if (i && e[i] < e[i - 1])
                shuffled = true;
        }
        CU_ASSERT_EQUAL(ticked, 0x1f);
        for (int i = 0; i < 5; i++)
            CU_ASSERT_EQUAL(e[5 + i], ids[i]);
    }
    CU_ASSERT_TRUE(shuffled);           /* the seed did shuffle the ticks */
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "tick order cannot change results", test_tick_order_cannot_change_results },
    { "two machines in one process", test_two_machines_in_one_process },
    { "idle units are never ticked", test_idle_units_are_never_ticked },
    { "far timers fire on time", test_far_timers_fire_on_time },
    { "watchdog names the stuck channel", test_watchdog_names_the_stuck_channel },
    { "deadlock with stranded messages", test_deadlock_with_stranded_messages },
    { "message pool reuses messages", test_message_pool_reuses_messages },
    { "edge commits run after the ticks, in unit id order", test_edge_commits_run_in_unit_order },
    { 0 }
};
TEST_SUITE(sim, cases);
