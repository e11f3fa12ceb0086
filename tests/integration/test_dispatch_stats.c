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

static const struct test_case cases[] = {
    { "skl_tri: five draws of 3 vertices, the triangle's pixels counted independently, in "
      "stats rows", test_skl_tri_draws },
    { "skl_compute: one SIMD16 walker of 16 groups x 4 threads, issue to completion, on a "
      "trace track", test_skl_compute_walker },
    { 0 }
};
TEST_SUITE(dispatch_stats, cases);
