/* Per-draw and per-dispatch statistics (issue 17 item 5, tools/dispatch_stats.h)
 * on real captures, against what the captures' commands say
 * (the aubinator decodes in /work/shared/traces/intel/skl/, facts copied here):
 *  - skl_tri has five 3DPRIMITIVEs of 3 vertices and 1 instance each (a
 *    RECTLIST fast clear of 2x2 pixels, two triangles, a RECTLIST resolve,
 *    a 64x64 RECTLIST read-back blit); the first triangle's screen vertices
 *    are 32 x + 32, 32 y + 32 of the app's (-0.9,-0.9), (-0.1,-0.9),
 *    (-0.5,-0.1) (test_geometry.c TRI_A), whose covered pixel centres the test
 *    counts itself;
 *  - skl_compute has one GPGPU_WALKER: SIMD16, Thread Width Counter Maximum 3
 *    (4 threads a group), X Dimension 16, Y and Z 1: 16 groups, 64 threads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/trace.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/dispatch_stats.h"
#include "tools/machine.h"
#include "units/registry.h"

static const struct unit_ops *lookup(const char *kind)
{
    return unit_kind_find(kind);
}

static struct sim *run_capture(const char *config_path, const char *trace_path,
                               struct gt_config **config, struct trace *trace)
{
    struct machine_request req = { .config_path = config_path, .workload = trace_path };
    struct gt_error err;
    *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*config);
    struct sim *sim = machine_build(*config, lookup, &err);
    if (!sim)
        fprintf(stderr, "%s: %s\n", config_path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    if (trace)
        sim_set_trace(sim, trace);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    return sim;
}

/* Pixel centres strictly inside the triangle (no centre lies on an edge for
 * these vertices, so the tie rule does not matter), with the vertices snapped
 * to SF's 8 fractional bits (3DSTATE_SF's default precision). */
static uint64_t covered_pixels(const double v[3][2], int width, int height)
{
    double s[3][2];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 2; c++)
            s[i][c] = (double)(long)(v[i][c] * 256.0 + 0.5) / 256.0;
    uint64_t n = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            double px = x + 0.5, py = y + 0.5;
            int pos = 0, neg = 0;
            for (int e = 0; e < 3; e++) {
                const double *a = s[e], *b = s[(e + 1) % 3];
                double f = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
                pos += f > 0;
                neg += f < 0;
            }
            n += pos == 3 || neg == 3;
        }
    return n;
}

static void test_skl_tri_draws(void)
{
    struct gt_config *config;
    struct sim *sim = run_capture("configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tri.aub.gz",
                                  &config, NULL);
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    CU_ASSERT_EQUAL_FATAL(d.draw_count, 5);
    CU_ASSERT_EQUAL(d.walker_count, 0);
    CU_ASSERT_EQUAL(d.hardware_threads, 24 * 7);        /* GT2: 24 EUs x 7 threads */
    uint64_t threads = 0, written = 0;
    for (uint32_t k = 0; k < 5; k++) {
        const struct draw_record *r = &d.draws[k];
        CU_ASSERT_EQUAL(r->draw, k + 1);
        CU_ASSERT_FALSE(r->skipped);
        CU_ASSERT_EQUAL(r->vertices, 3);
        CU_ASSERT_EQUAL(r->instances, 1);
        CU_ASSERT_EQUAL(r->primitives_setup, 1);
        CU_ASSERT_EQUAL(r->primitives_rasterized, 1);
        CU_ASSERT_TRUE(r->completion_cycle >= r->issue_cycle);
        CU_ASSERT_EQUAL(r->cycles, r->completion_cycle - r->issue_cycle + 1);
        if (k)
            CU_ASSERT_TRUE(r->issue_cycle > d.draws[k - 1].issue_cycle);  /* in command order */
        CU_ASSERT_TRUE(r->threads > 0);
        CU_ASSERT_TRUE(r->thread_cycles >= r->threads);  /* a thread lives a cycle at least */
        CU_ASSERT_TRUE(r->occupancy > 0 && r->occupancy <= 1);
        threads += r->threads;
        written += r->pixels_written;
    }
    CU_ASSERT_EQUAL(d.draws[0].pixels_rasterized, 2 * 2);       /* the fast clear's 2x2 */
    CU_ASSERT_EQUAL(d.draws[4].pixels_rasterized, 64 * 64);     /* the read-back blit */
    static const double tri_a[3][2] = { { 3.2, 3.2 }, { 28.8, 3.2 }, { 16.0, 28.8 } };
    uint64_t want = covered_pixels(tri_a, 64, 64);
    CU_ASSERT_TRUE(want > 300 && want < 400);                   /* half of 25.6 x 25.6 */
    CU_ASSERT_EQUAL(d.draws[1].pixels_rasterized, want);
    CU_ASSERT_EQUAL(d.draws[1].pixels_written, want);
    /* the records add up to WM's totals */
    CU_ASSERT_EQUAL(threads, probe_stat(sim, "gpu.wm.ps.threads8") +
                                 probe_stat(sim, "gpu.wm.ps.threads16") +
                                 probe_stat(sim, "gpu.wm.ps.threads32"));
    (void)written;

    /* stats rows */
    struct stats_writer *w = stats_writer_create();
    dispatch_stats_emit(&d, w);
    double v = 0;
    CU_ASSERT_TRUE(stats_lookup(w, "draws.2.pixels_rasterized", &v));
    CU_ASSERT_EQUAL((uint64_t)v, want);
    CU_ASSERT_TRUE(stats_lookup(w, "draws.5.vertices", &v));
    CU_ASSERT_EQUAL((uint64_t)v, 3);
    stats_writer_destroy(w);
    dispatch_stats_free(&d);
    sim_destroy(sim);
    gt_config_free(config);
}

static void test_skl_compute_walker(void)
{
    char path[] = "/tmp/gtsim-dispatch-trace-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    struct gt_error err;
    struct trace *trace = trace_open(path, 1000000, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    struct gt_config *config;
    struct sim *sim = run_capture("configs/gen9-skl-gt2.cfg",
                                  "tests/data/traces/skl_compute.aub.gz", &config, trace);
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    CU_ASSERT_EQUAL(d.draw_count, 0);
    CU_ASSERT_EQUAL_FATAL(d.walker_count, 1);
    const struct walker_record *r = &d.walkers[0];
    CU_ASSERT_EQUAL(r->walker, 1);
    CU_ASSERT_FALSE(r->refused);
    CU_ASSERT_EQUAL(r->simd, 16);
    CU_ASSERT_EQUAL(r->groups, 16);
    CU_ASSERT_EQUAL(r->threads, 16 * 4);
    CU_ASSERT_EQUAL(r->threads_ended, 16 * 4);
    CU_ASSERT_TRUE(r->issue_cycle <= r->dispatched_cycle);
    CU_ASSERT_TRUE(r->dispatched_cycle < r->completion_cycle);
    CU_ASSERT_TRUE(r->thread_cycles >= r->threads);
    CU_ASSERT_TRUE(r->occupancy > 0 && r->occupancy <= 1);
    /* no thread outlives its walker: each life fits in the walker's cycles */
    CU_ASSERT_TRUE(r->thread_cycles <= r->threads * r->cycles);

    dispatch_stats_trace(&d, sim, trace);
    CU_ASSERT_EQUAL(trace_close(trace, sim, &err), 0);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char text[1 << 22];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    unlink(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"walkers (GPGPU_WALKER issue to completion)\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"name\":\"walker 1\",\"ph\":\"X\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"threads\":64"));
    dispatch_stats_free(&d);
    sim_destroy(sim);
    gt_config_free(config);
}

/* ---- thread life and occupancy (issue 14) ------------------------------------------ */

/* The sum of every row whose last path component is `name`. */
static double sum_of_rows_ending(const struct stats_writer *w, const char *name)
{
    size_t n = strlen(name);
    double sum = 0, v;
    const char *path;
    for (size_t i = 0; stats_row(w, i, &path, &v); i++) {
        size_t len = strlen(path);
        if (len > n && path[len - n - 1] == '.' && strcmp(path + len - n, name) == 0)
            sum += v;
    }
    return sum;
}

/* What the stages say their threads lived on the EU (every "thread_cycles"
 * row but the EUs' and the TDs', plus the front end's walkers) against what
 * the EUs say their slots were held (their thread_cycles, integrated over
 * busy slots) less the part no EOT message could carry (the slot held after
 * the EOT left, for write-backs owed: g965_tri's SF thread holds its slot
 * 15 cycles past its EOT). */
static void check_lives_add_up(struct sim *sim, const struct dispatch_stats *d, const char *name)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double eu = stats_sum_of_kind(sim, w, "eu", "thread_cycles");
    double td = stats_sum_of_kind(sim, w, "td", "thread_cycles");
    double after_eot = stats_sum_of_kind(sim, w, "eu", "thread_cycles_after_eot");
    double stages = sum_of_rows_ending(w, "thread_cycles") - eu - td;
    for (uint32_t k = 0; k < d->walker_count; k++)
        stages += (double)d->walkers[k].thread_cycles;
    if (stages + after_eot != eu)
        fprintf(stderr, "%s: the stages' thread lives %.0f, the EUs' thread cycles %.0f (%.0f "
                "after EOT)\n", name, stages, eu, after_eot);
    CU_ASSERT_TRUE(eu > 0);
    CU_ASSERT_TRUE(after_eot < eu / 100);       /* rare: kernels read what they asked for */
    CU_ASSERT_EQUAL(stages + after_eot, eu);
    stats_writer_destroy(w);
}

/* Every draw with PS threads and every walker has an occupancy in (0, 1]
 * (a draw without PS threads has 0). */
static void check_occupancy(const struct dispatch_stats *d, const char *name)
{
    for (uint32_t k = 0; k < d->draw_count; k++) {
        const struct draw_record *r = &d->draws[k];
        bool ok = r->threads ? r->occupancy > 0 && r->occupancy <= 1 : r->occupancy == 0;
        if (!ok)
            fprintf(stderr, "%s draw %u: %" PRIu64 " PS threads, %" PRIu64 " thread cycles in %"
                    PRIu64 " cycles x %" PRIu64 " threads: occupancy %.4f\n", name, r->draw,
                    r->threads, r->thread_cycles, r->cycles, d->hardware_threads, r->occupancy);
        CU_ASSERT_TRUE(ok);
        /* a thread lives on the EU a cycle at least */
        CU_ASSERT_TRUE(r->thread_cycles >= r->threads);
    }
    for (uint32_t k = 0; k < d->walker_count; k++) {
        const struct walker_record *r = &d->walkers[k];
        bool ok = r->threads ? r->occupancy > 0 && r->occupancy <= 1 : r->occupancy == 0;
        if (!ok)
            fprintf(stderr, "%s walker %u: occupancy %.4f\n", name, r->walker, r->occupancy);
        CU_ASSERT_TRUE(ok);
    }
}

#define WORKLOAD_DIR "build/gen/workloads"

static void test_occupancy_at_most_one(void)
{
    static const struct { const char *config, *workload; } runs[] = {
        { "configs/gen7-vlv.cfg", "tests/data/traces/byt_tri.aub.gz" },
        { "configs/gen7-vlv.cfg", "tests/data/traces/byt_compute.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/gs-quads.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/gs-twice.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/tess-tri.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/tess-quad.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/xfb-tri.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/ubench-fill.gen7.aub.gz" },
        { "configs/gen7-vlv.cfg", WORKLOAD_DIR "/ubench-fill-blend.gen7.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tri.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_strip_fan.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_instanced.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_gs.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tess.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_xfb.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_blend_stencil.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_multi_rt.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_fill_heavy.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_mipmap.aub.gz" },
        { "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_compute.aub.gz" },
        { "configs/gen8-bdw-gt2.cfg", "tests/data/traces/bdw_tri.aub.gz" },
        { "configs/gen4-g965.cfg", "tests/data/traces/g965_tri.aub.gz" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        if (access(runs[i].workload, R_OK) != 0) {
            fprintf(stderr, "%s is missing: `make workloads` writes it\n", runs[i].workload);
            CU_FAIL("workload missing");
            continue;
        }
        struct gt_config *config;
        struct sim *sim = run_capture(runs[i].config, runs[i].workload, &config, NULL);
        struct dispatch_stats d;
        dispatch_stats_collect(sim, &d);
        CU_ASSERT_TRUE(d.draw_count + d.walker_count > 0);
        check_occupancy(&d, runs[i].workload);
        check_lives_add_up(sim, &d, runs[i].workload);
        dispatch_stats_free(&d);
        sim_destroy(sim);
        gt_config_free(config);
    }
}

/* byt_tri on a Valleyview cut to one EU of one thread: every PS and VS
 * request waits in the TD for the one slot, yet each draw's threads held
 * it at most all the draw's cycles, and the lives the stages were told add
 * up to what the EU says its slot was held. */
static void test_one_thread_slot(void)
{
    static const char *sets[] = {
        "gpu.slice.subslice.eu.count=1", "gpu.slice.subslice.eu.threads=1",
        "gpu.slice.subslice.td.eus=1", "gpu.slice.subslice.td.threads_per_eu=1",
    };
    struct machine_request req = { .config_path = "configs/gen7-vlv.cfg", .sets = sets,
                                   .set_count = 4,
                                   .workload = "tests/data/traces/byt_tri.aub.gz" };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL_FATAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    CU_ASSERT_EQUAL(d.hardware_threads, 1);
    CU_ASSERT_EQUAL_FATAL(d.draw_count, 5);
    /* the dispatches did wait for the slot, far longer than the threads ran */
    CU_ASSERT_TRUE(probe_stat(sim, "gpu.slice0.subslice0.td.no_slot_cycles") > 0);
    double life = probe_stat(sim, "gpu.wm.threads.thread_cycles");
    double in_flight = probe_stat(sim, "gpu.wm.threads.in_flight_cycles");
    CU_ASSERT_TRUE(life > 0 && in_flight > 2 * life);
    uint64_t draw_lives = 0, threads = 0;
    for (uint32_t k = 0; k < d.draw_count; k++) {
        const struct draw_record *r = &d.draws[k];
        /* one slot: the draw's threads never overlap, so their lives fit in its cycles */
        CU_ASSERT_TRUE(r->thread_cycles <= r->cycles);
        draw_lives += r->thread_cycles;
        threads += r->threads;
    }
    CU_ASSERT_EQUAL(threads, 256 + 25 + 102);   /* as on the 4 x 8 machine (draws.csv) */
    check_occupancy(&d, "byt_tri on 1 EU x 1 thread");
    CU_ASSERT_EQUAL((double)draw_lives, life);  /* every PS thread belongs to a draw */
    check_lives_add_up(sim, &d, "byt_tri on 1 EU x 1 thread");
    dispatch_stats_free(&d);
    sim_destroy(sim);
    gt_config_free(config);
}

static const struct test_case cases[] = {
    { "thread life from the start on the EU: every draw's and walker's occupancy in (0, 1] on "
      "byt_tri, the Gen7 own workloads and the Gen8/9/4 captures; the stages' lives add up to "
      "the EUs' thread cycles", test_occupancy_at_most_one },
    { "one EU of one thread: dispatch waits, occupancy stays <= 1, the draws' thread cycles are "
      "what the EU says its slot ran", test_one_thread_slot },
    { "skl_tri: five draws of 3 vertices, the triangle's pixels counted independently, in "
      "stats rows", test_skl_tri_draws },
    { "skl_compute: one SIMD16 walker of 16 groups x 4 threads, issue to completion, on a "
      "trace track", test_skl_compute_walker },
    { 0 }
};
TEST_SUITE(dispatch_stats, cases);
