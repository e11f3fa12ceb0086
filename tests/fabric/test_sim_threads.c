/* tests/fabric/test_sim_threads.c - the fabric's host threads (fabric/sim.h
 * sim_set_threads) at the level of channels: four source -> relay -> sink
 * chains whose units sit in four different subslices (so on different
 * threads), with channels of capacity 2 and a slow sink, so every send
 * crosses threads and back-pressure (a full channel, a sender woken by the
 * receiver's pop on another thread) happens on most cycles. The run is short
 * enough (under the fabric's first 64 timed edges) that every edge with units
 * on two threads is ticked in parallel whatever the host's load. Every cycle a
 * message was sent or received, every stat, must equal the one-thread run's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/sim.h"
#include "fabric/sim_internal.h"     /* sim_parallel_edges */
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"

#define CHAINS 4

struct outcome {
    uint64_t send_cycle[CHAINS][16], arrive_cycle[CHAINS][16], checksum[CHAINS];
    uint64_t received[CHAINS], refused[CHAINS], time_ps, parallel_edges;
    uint32_t threads;
    char *stats;            /* every stat row, "path=value\n" */
    char *report;           /* sim_thread_report(), when asked for */
    uint64_t group_ticks[CHAINS];   /* ticks of subslice k's units, summed here */
    uint32_t group_thread[CHAINS];  /* the thread of subslice k's units */
};

/* `pairs`: instead of the chains, a source -> sink pair in each subslice
 * (so on one thread), the sink popping one a cycle from cycle 6. */
static void run_chains_reported(uint32_t threads, struct outcome *o, bool report, bool pairs)
{
    memset(o, 0, sizeof *o);
    struct sim *sim = probe_sim(NULL);
    sim_set_threads(sim, threads);
    sim_set_thread_timing(sim, report);
    static const char *const src_over[] = { "messages=12", "per_cycle=2", NULL };
    static const char *const relay_over[] = { "per_cycle=1", NULL };
    static const char *const sink_over[] = { "per_cycle=1", "start_cycle=6", NULL };
    struct unit *src[CHAINS], *sink[CHAINS];
    for (int k = 0; k < CHAINS; k++) {
        char name[96];
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.src", k);
        src[k] = probe_add(sim, &probe_source_ops, name, src_over);
        if (pairs) {
            snprintf(name, sizeof name, "gpu.slice0.subslice%d.sink", k);
            sink[k] = probe_add(sim, &probe_sink_ops, name, sink_over);
            CU_ASSERT_EQUAL_FATAL(probe_link(sim, src[k], "out", sink[k], "in", 1, 2, 1), 0);
            continue;
        }
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.relay", (k + 1) % CHAINS);
        struct unit *relay = probe_add(sim, &probe_relay_ops, name, relay_over);
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.sink", (k + 2) % CHAINS);
        sink[k] = probe_add(sim, &probe_sink_ops, name, sink_over);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, src[k], "out", relay, "in", 1, 2, 1), 0);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, relay, "out", sink[k], "in", 2, 2, 1), 0);
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    for (int k = 0; k < CHAINS; k++) {
        const struct probe_source *s = unit_state(src[k]);
        const struct probe_sink *d = unit_state(sink[k]);
        memcpy(o->send_cycle[k], s->send_cycle, sizeof o->send_cycle[k]);
        memcpy(o->arrive_cycle[k], d->cycle, sizeof o->arrive_cycle[k]);
        o->checksum[k] = d->checksum;
        o->received[k] = d->received;
        o->refused[k] = s->refused;
    }
    o->time_ps = sim_now(sim);
    o->parallel_edges = sim_parallel_edges(sim);
    if (report) {
        size_t length = 0;
        FILE *f = open_memstream(&o->report, &length);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        sim_thread_report(sim, f);
        fclose(f);
        for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
            const struct unit *u = sim_unit(sim, i);
            int k = u->name[strlen("gpu.slice0.subslice")] - '0';
            o->group_ticks[k] += unit_tick_count(sim, u, false);
            o->group_thread[k] = u->thread;
        }
    }
    o->threads = sim_threads(sim);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    size_t size = 1, used = 0;
    for (size_t i = 0; i < stats_row_count(w); i++)
        size += 160;
    o->stats = calloc(1, size + 4096);
    const char *path;
    double value;
    for (size_t i = 0; stats_row(w, i, &path, &value) && used + 200 < size + 4096; i++)
        used += (size_t)snprintf(o->stats + used, size + 4096 - used, "%.120s=%.17g\n", path, value);
    stats_writer_destroy(w);
    sim_destroy(sim);
}

static void run_chains(uint32_t threads, struct outcome *o)
{
    run_chains_reported(threads, o, false, false);
}

static void test_chains_across_threads_same_as_one(void)
{
    struct outcome one, many;
    run_chains(1, &one);
    CU_ASSERT_EQUAL(one.threads, 1);
    CU_ASSERT_EQUAL(one.parallel_edges, 0);
    for (int k = 0; k < CHAINS; k++)
        CU_ASSERT_EQUAL(one.received[k], 12);
    for (uint32_t n = 2; n <= 4; n += 2) {
        run_chains(n, &many);
        CU_ASSERT_EQUAL(many.threads, n);
        CU_ASSERT_TRUE(many.parallel_edges > 10);   /* the comparison is of parallel runs */
        CU_ASSERT_EQUAL(many.time_ps, one.time_ps);
        CU_ASSERT_EQUAL(memcmp(many.send_cycle, one.send_cycle, sizeof one.send_cycle), 0);
        CU_ASSERT_EQUAL(memcmp(many.arrive_cycle, one.arrive_cycle, sizeof one.arrive_cycle), 0);
        CU_ASSERT_EQUAL(memcmp(many.checksum, one.checksum, sizeof one.checksum), 0);
        CU_ASSERT_STRING_EQUAL(many.stats, one.stats);
        free(many.stats);
    }
    free(one.stats);
}

/* The comparison can fail: a sink that starts popping a cycle later changes
 * the arrival cycles (so equal arrays above are not vacuous). */
static void test_comparison_sees_a_difference(void)
{
    struct outcome a;
    run_chains(1, &a);
    CU_ASSERT_TRUE(a.arrive_cycle[0][0] >= 6);
    CU_ASSERT_TRUE(a.arrive_cycle[0][11] > a.arrive_cycle[0][0] + 10); /* one pop a cycle */
    free(a.stats);
}

/* --thread-report (sim_thread_report): the barriers are the parallel edges,
 * each subslice group is listed with its units' thread and the sum of their
 * ticks (summed here from the units), the shares of the split in use add up
 * to 100%, and a parallel edge's host time is split into its parts. */
static void test_thread_report(void)
{
    struct outcome o;
    run_chains_reported(2, &o, true, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.report);
    char expect[160];
    snprintf(expect, sizeof expect, "threads      2; %llu barriers",
             (unsigned long long)o.parallel_edges);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.report, expect));
    CU_ASSERT_TRUE(o.parallel_edges > 10);
    bool both[2] = { false, false };
    for (int k = 0; k < CHAINS; k++) {
        CU_ASSERT_EQUAL(o.group_ticks[k] > 0, true);
        snprintf(expect, sizeof expect, "gpu.slice0.subslice%d", k);
        const char *line = strstr(o.report, expect);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        unsigned thread = 99;
        unsigned long long ticks = 0;
        CU_ASSERT_EQUAL(sscanf(line + strlen(expect), " thread %u: %llu ticks", &thread, &ticks), 2);
        CU_ASSERT_EQUAL(thread, o.group_thread[k]);
        CU_ASSERT_EQUAL(ticks, o.group_ticks[k]);
        if (thread < 2)
            both[thread] = true;
    }
    CU_ASSERT_TRUE(both[0] && both[1]);
    const char *shares = strstr(o.report, "partition in use: host time of its ticks per thread");
    CU_ASSERT_PTR_NOT_NULL_FATAL(shares);
    double a = 0, b = 0;
    CU_ASSERT_EQUAL(sscanf(shares, "partition in use: host time of its ticks per thread %lf%%, %lf%%",
                           &a, &b), 2);
    CU_ASSERT_DOUBLE_EQUAL(a + b, 100.0, 0.2);
    /* where a parallel edge's host time went: both threads ticked in it, and
     * thread 0's own commit, its wait and the join's commit were timed */
    const char *edge = strstr(o.report, "per parallel edge (host ns, mean; clock reads add some): ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(edge);
    double lag = -1, worker_ticks = -1, own_ticks = -1, own_commit = -1, wait = -1, join = -1;
    double uneven = -1, handover = -1;
    CU_ASSERT_EQUAL(sscanf(strchr(edge, ':') + 2,
                           "the workers start %lf after the release and tick for %lf; thread 0 "
                           "ticks for %lf, commits its wakes in %lf, waits %lf for the workers "
                           "(%lf while one still ticks: the edge's work split unevenly; %lf for "
                           "the hand-over), then commits theirs in %lf", &lag, &worker_ticks,
                           &own_ticks, &own_commit, &wait, &uneven, &handover, &join), 8);
    CU_ASSERT_TRUE(worker_ticks > 0 && own_ticks > 0 && join > 0);
    CU_ASSERT_TRUE(lag >= 0 && own_commit >= 0 && wait >= 0);
    /* the wait's two parts are its whole: from thread 0's end to the last
     * worker's, then to thread 0 seeing it (each mean rounded) */
    CU_ASSERT_TRUE(uneven >= 0 && handover >= 0);
    CU_ASSERT_DOUBLE_EQUAL(uneven + handover, wait, 1.5);
    free(o.report);
    free(o.stats);
}

/* The report's times are host time: its clock (fabric/sim.c host_stamp,
 * the x86 time-stamp counter) is turned into ns by the ratio of both clocks
 * over the run. Two units, one per thread, each tick 20 times sleeping 2 ms
 * a tick: each group's line must say ~0.040 s (sleeps overshoot a little;
 * counter ticks read as ns would say ~0.1 s at 2.6 GHz). */
static void test_thread_report_times_are_host_time(void)
{
    struct sim *sim = probe_sim(NULL);
    sim_set_threads(sim, 2);
    sim_set_thread_timing(sim, true);
    static const char *const over[] = { "ticks=20", "sleep_us=2000", NULL };
    probe_add(sim, &probe_sleeper_ops, "gpu.slice0.subslice0.sleeper", over);
    probe_add(sim, &probe_sleeper_ops, "gpu.slice0.subslice1.sleeper", over);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    char *report = NULL;
    size_t length = 0;
    FILE *f = open_memstream(&report, &length);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sim_thread_report(sim, f);
    fclose(f);
    bool thread_seen[2] = { false, false };
    for (int k = 0; k < 2; k++) {
        char expect[64];
        snprintf(expect, sizeof expect, "gpu.slice0.subslice%d", k);
        const char *line = strstr(report, expect);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        unsigned thread = 99;
        unsigned long long ticks = 0;
        double seconds = -1;
        CU_ASSERT_EQUAL(sscanf(line + strlen(expect), " thread %u: %llu ticks, %lf s", &thread,
                               &ticks, &seconds), 3);
        CU_ASSERT_EQUAL(ticks, 20);
        CU_ASSERT_TRUE(seconds >= 0.039 && seconds <= 0.070);
        if (thread < 2)
            thread_seen[thread] = true;
    }
    CU_ASSERT_TRUE(thread_seen[0] && thread_seen[1]);
    free(report);
    sim_destroy(sim);
}

/* A sender refused by a full channel idles until the receiver's pop wakes
 * it. With sender and receiver on the same thread, that thread wakes it
 * itself at the end of its share of a parallel edge (sim.c tick_share);
 * four such pairs, one per subslice, on 1 and 2 threads: same cycles. */
static void test_same_thread_sender_woken(void)
{
    struct outcome one, two;
    run_chains_reported(1, &one, false, true);
    run_chains_reported(2, &two, false, true);
    CU_ASSERT_TRUE(two.parallel_edges > 10);
    for (int k = 0; k < CHAINS; k++) {
        CU_ASSERT_EQUAL(one.received[k], 12);
        CU_ASSERT_EQUAL(two.received[k], 12);
        CU_ASSERT_TRUE(one.refused[k] > 0);     /* the channel did fill */
        CU_ASSERT_EQUAL(two.refused[k], one.refused[k]);
    }
    CU_ASSERT_EQUAL(two.time_ps, one.time_ps);
    CU_ASSERT_EQUAL(memcmp(two.send_cycle, one.send_cycle, sizeof one.send_cycle), 0);
    CU_ASSERT_EQUAL(memcmp(two.arrive_cycle, one.arrive_cycle, sizeof one.arrive_cycle), 0);
    CU_ASSERT_STRING_EQUAL(two.stats, one.stats);
    free(one.stats);
    free(two.stats);
}

/* The partition (sim.c sim_partition): with as many even slices as threads,
 * each slice's units (its own and every subslice's) go to one thread, so no
 * subslice talks to its slice across threads; with slices that do not share
 * out evenly (three on two threads) the subslices are spread instead. Each
 * slice has a unit of its own and two subslices with a source -> sink chain. */
static void partition_of(uint32_t slices, uint32_t *thread_of_unit, uint32_t *units)
{
    struct sim *sim = probe_sim(NULL);
    sim_set_threads(sim, 2);
    static const char *const src_over[] = { "messages=4", "per_cycle=1", NULL };
    static const char *const sink_over[] = { "per_cycle=1", NULL };
    for (uint32_t sl = 0; sl < slices; sl++) {
        char name[96];
        snprintf(name, sizeof name, "gpu.slice%u.relay", sl);
        struct unit *relay = probe_add(sim, &probe_relay_ops, name, NULL);
        snprintf(name, sizeof name, "gpu.slice%u.subslice0.src", sl);
        struct unit *src = probe_add(sim, &probe_source_ops, name, src_over);
        snprintf(name, sizeof name, "gpu.slice%u.subslice1.sink", sl);
        struct unit *sink = probe_add(sim, &probe_sink_ops, name, sink_over);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, src, "out", relay, "in", 1, 2, 1), 0);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, relay, "out", sink, "in", 1, 2, 1), 0);
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    *units = sim_unit_count(sim);
    for (uint32_t i = 0; i < *units; i++)
        thread_of_unit[i] = sim_unit(sim, i)->thread;
    sim_destroy(sim);
}

static void test_partition_keeps_slices_whole(void)
{
    uint32_t thread[16], units = 0;
    partition_of(2, thread, &units);
    CU_ASSERT_EQUAL_FATAL(units, 6);
    for (uint32_t i = 0; i < 3; i++) {          /* units are in creation order */
        CU_ASSERT_EQUAL(thread[i], thread[0]);
        CU_ASSERT_EQUAL(thread[3 + i], thread[3]);
    }
    CU_ASSERT_NOT_EQUAL(thread[0], thread[3]);
    /* three slices on two threads: not by slice (4 units to 2 at best),
     * so some slice has units on both threads */
    partition_of(3, thread, &units);
    CU_ASSERT_EQUAL_FATAL(units, 9);
    bool split = false;
    for (uint32_t sl = 0; sl < 3; sl++)
        for (uint32_t i = 1; i < 3; i++)
            split |= thread[3 * sl + i] != thread[3 * sl];
    CU_ASSERT_TRUE(split);
}

/* The fabric times parallel against serial edges, then keeps the faster for
 * a stretch (fabric/sim.c adaptive_choose) that ends early when the edges'
 * work changes: here four source -> sink pairs (one per subslice, so on both
 * threads) run from the start, and eight more start at cycle 3000, tripling
 * the units ticked an edge inside the second stretch (edges ~1664 to ~5760;
 * the first, ~576 to ~1088, is short: ADAPT_EXPLOIT_FIRST). Which mode wins
 * depends on the host; when a stretch ends does not (it is counted in
 * edges). The stats must still equal the one-thread run's. `late` false:
 * only the four pairs, for `early` messages each. */
static void run_work_change(uint32_t threads, bool late, const char *early, uint64_t *work_changes,
                            uint64_t *received, uint64_t *time_ps, uint32_t *decisions)
{
    struct sim *sim = probe_sim(NULL);
    sim_set_threads(sim, threads);
    const char *const early_over[] = { early, "per_cycle=1", NULL };
    static const char *const late_over[] = { "messages=3000", "per_cycle=1", "start_cycle=3000",
                                             NULL };
    static const char *const sink_over[] = { "per_cycle=1", NULL };
    struct unit *sinks[12];
    int pairs = late ? 12 : 4;
    for (int k = 0; k < pairs; k++) {
        char name[96];
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.src%d", k % 4, k);
        struct unit *src = probe_add(sim, &probe_source_ops, name, k < 4 ? early_over : late_over);
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.sink%d", k % 4, k);
        sinks[k] = probe_add(sim, &probe_sink_ops, name, sink_over);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, src, "out", sinks[k], "in", 1, 2, 1), 0);
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    *received = 0;
    for (int k = 0; k < pairs; k++)
        *received += ((const struct probe_sink *)unit_state(sinks[k]))->received;
    *work_changes = sim->adapt.work_changes;
    *time_ps = sim_now(sim);
    *decisions = sim->adapt.decisions;
    sim_destroy(sim);
}

static void test_adaptive_stretch_ends_on_work_change(void)
{
    uint64_t changes_one, received_one, time_one, changes_two, received_two, time_two;
    uint32_t decisions;
    run_work_change(1, true, "messages=6000", &changes_one, &received_one, &time_one, &decisions);
    run_work_change(2, true, "messages=6000", &changes_two, &received_two, &time_two, &decisions);
    CU_ASSERT_EQUAL(received_one, 4 * 6000 + 8 * 3000);
    CU_ASSERT_EQUAL(received_two, received_one);
    CU_ASSERT_EQUAL(time_two, time_one);
    CU_ASSERT_EQUAL(changes_one, 0);            /* one thread: nothing to choose */
    CU_ASSERT_TRUE(changes_two >= 1);
}

/* The run's first choice is timed while the worker starts cold (its caches,
 * its message pools), and on SGEMM 256 GT3 picked serial for 4096 edges
 * that parallel ran ~1.5x faster; so the first winner keeps only a short
 * stretch (ADAPT_EXPLOIT_FIRST) before both are timed again. 2000 edges
 * of four pairs: timing to ~576, the first stretch to ~1088, timing again
 * to ~1664, so two choices (one with a first stretch of 4096). */
static void test_adaptive_first_stretch_short(void)
{
    uint64_t changes, received, time_ps;
    uint32_t decisions = 0;
    run_work_change(2, false, "messages=2000", &changes, &received, &time_ps, &decisions);
    CU_ASSERT_EQUAL(received, 4 * 2000);
    CU_ASSERT_EQUAL(decisions, 2);
}

/* struct sim_options.parallel_every_edge: the chooser is never asked, and
 * every edge whose units are on both threads ticks in parallel. Four source ->
 * sink pairs (one per subslice, so on both threads) send 2000 messages each, a
 * message a cycle; run adaptively, the same run times serial edges too (at
 * least a window of ADAPT_WINDOW) and decides; the results are the same. */
static void run_pairs(bool every_edge, uint64_t *received, uint64_t *time_ps, uint64_t *parallel,
                      uint64_t *serial, uint32_t *decisions)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR,
                             .parallel_every_edge = every_edge };
    struct sim *sim = probe_sim(&o);
    sim_set_threads(sim, 2);
    static const char *const src_over[] = { "messages=2000", "per_cycle=1", NULL };
    static const char *const sink_over[] = { "per_cycle=1", NULL };
    struct unit *sinks[4];
    for (int k = 0; k < 4; k++) {
        char name[96];
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.src", k);
        struct unit *src = probe_add(sim, &probe_source_ops, name, src_over);
        snprintf(name, sizeof name, "gpu.slice0.subslice%d.sink", k);
        sinks[k] = probe_add(sim, &probe_sink_ops, name, sink_over);
        CU_ASSERT_EQUAL_FATAL(probe_link(sim, src, "out", sinks[k], "in", 1, 2, 1), 0);
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    *received = 0;
    for (int k = 0; k < 4; k++)
        *received += ((const struct probe_sink *)unit_state(sinks[k]))->received;
    *time_ps = sim_now(sim);
    *parallel = sim_parallel_edges(sim);
    *serial = sim_serial_edges(sim);
    *decisions = sim->adapt.decisions;
    sim_destroy(sim);
}

static void test_parallel_every_edge(void)
{
    uint64_t received_every, time_every, parallel_every, serial_every;
    uint64_t received_adaptive, time_adaptive, parallel_adaptive, serial_adaptive;
    uint32_t decisions_every, decisions_adaptive;
    run_pairs(true, &received_every, &time_every, &parallel_every, &serial_every,
              &decisions_every);
    run_pairs(false, &received_adaptive, &time_adaptive, &parallel_adaptive, &serial_adaptive,
              &decisions_adaptive);
    CU_ASSERT_EQUAL(received_every, 4 * 2000);
    CU_ASSERT_EQUAL(received_adaptive, received_every);
    CU_ASSERT_EQUAL(time_adaptive, time_every);
    CU_ASSERT_EQUAL(decisions_every, 0);
    CU_ASSERT_TRUE(parallel_every >= 2000);     /* every edge of the 2000 cycles */
    CU_ASSERT_TRUE(serial_every < 10);          /* the first and last edges: one thread's units */
    CU_ASSERT_TRUE(decisions_adaptive >= 1);
    CU_ASSERT_TRUE(serial_adaptive >= 256);     /* its serial timing window at least */
}

static const struct test_case cases[] = {
    { "the parallel/serial choice is timed again when the edges' work changes",
      test_adaptive_stretch_ends_on_work_change },
    { "the run's first parallel/serial choice keeps a short stretch",
      test_adaptive_first_stretch_short },
    { "a sender on the receiver's thread is woken by its pop in a parallel edge",
      test_same_thread_sender_woken },
    { "partition: whole slices when they share out evenly, else subslices",
      test_partition_keeps_slices_whole },
    { "--thread-report: barriers, groups' threads and ticks, shares", test_thread_report },
    { "--thread-report: its times are host time", test_thread_report_times_are_host_time },
    { "chains across threads: same cycles and stats as one thread",
      test_chains_across_threads_same_as_one },
    { "the run is long enough to compare", test_comparison_sees_a_difference },
    { "parallel_every_edge: every edge with units on both threads in parallel",
      test_parallel_every_edge },
    { 0 }
};
TEST_SUITE(sim_threads, cases);
