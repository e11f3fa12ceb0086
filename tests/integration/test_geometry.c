/* tests/integration/test_geometry.c - the driver-captured triangle draws
 * through the real geometry pipeline (VF, VS on real EUs, HS/TE/DS/GS
 * disabled, SOL, CLIP) up to SF, checked at what reaches SF: the primitive
 * count of every draw and the screen positions of its vertices.
 *
 * The expected positions are computed here from the captures' own data, as
 * Mesa's aubinator printed it (../shared/traces/intel/{skl,bdw}/
 * *_tri.aubinator.txt; the line numbers are the skl file's):
 *  - the app's two triangles (3DPRIMITIVE L3520 and L3610): vertex buffer 0
 *    holds (-0.9,-0.9,0,1) (-0.1,-0.9,0,1) (-0.5,-0.1,0,1) (L3414) and
 *    (-0.8,0.9,0,1) (0.9,-0.8,0,1) (0.9,0.9,0,1) (L3559, position then
 *    colour); the VS copies its inputs to its outputs (the kernel listed
 *    after 3DSTATE_VS, L2590-2600); SF_CLIP_VIEWPORT 0 (L2061) has m00 = m11
 *    = 32, m30 = m31 = 32, m22 = m32 = 0.5 with Viewport Transform Enable
 *    set (L2910), so screen = (32x + 32, 32y + 32, 0.5z + 0.5);
 *  - the driver's rectangles (blorp: the VS off, Viewport Transform Enable
 *    clear, L1184), whose vertex buffers hold screen positions: (2,2) (0,2)
 *    (0,0) (L560, L3761) and (64,64) (0,64) (0,0) (L4907); bdw's clear is
 *    (64,64) (0,64) (0,0).
 * Draw order: skl_tri has 5 draws (rect, triangle, triangle, rect, rect),
 * bdw_tri 3 (rect, triangle, triangle), as the traces' README says.
 * The pipeline statistics the app's draws enable are counted as seed 003
 * defines them: 2 draws of 3 vertices and 1 triangle each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"
#include "units/common/primitive.h"
#include "units/sf/sf.h"

struct expected_draw {
    float screen[3][3];
};

#define RECT_2 { { { 2, 2, 0 }, { 0, 2, 0 }, { 0, 0, 0 } } }
#define RECT_64 { { { 64, 64, 0 }, { 0, 64, 0 }, { 0, 0, 0 } } }
/* 32 x + 32, 32 y + 32, 0.5 z + 0.5 of the app's vertices */
#define TRI_A { { { 3.2f, 3.2f, 0.5f }, { 28.8f, 3.2f, 0.5f }, { 16.0f, 28.8f, 0.5f } } }
#define TRI_B { { { 6.4f, 60.8f, 0.5f }, { 60.8f, 6.4f, 0.5f }, { 60.8f, 60.8f, 0.5f } } }

static const struct unit_ops *lookup(const char *kind)
{
    return unit_kind_find(kind);
}

static void check_capture(const char *config_path, const char *trace,
                          const struct expected_draw *want, uint32_t draws,
                          void (*more)(struct sim *))
{
    struct machine_request req = { .config_path = config_path, .workload = trace };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim)
        fprintf(stderr, "%s: %s\n", config_path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct unit *sf = sim_find_unit(sim, "gpu.sf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sf);
    const struct sf_observed_draw *d;
    uint32_t n = sf_observed_draws(sf, &d);
    CU_ASSERT_EQUAL(n, draws);
    for (uint32_t i = 0; i < n && i < draws; i++) {
        CU_ASSERT_EQUAL(d[i].primitives, 1);
        CU_ASSERT_EQUAL(d[i].primitives_seen[0].vertex_count, 3);
        for (int v = 0; v < 3; v++)
            for (int c = 0; c < 3; c++) {
                double got = d[i].primitives_seen[0].v[v].screen[c];
                if (fabs(got - want[i].screen[v][c]) > 1e-4) {
                    fprintf(stderr, "%s draw %u vertex %d [%d]: %g, expected %g\n", trace, i, v,
                            c, got, want[i].screen[v][c]);
                    CU_FAIL("a screen position differs");
                }
            }
    }
    /* the app's draws: 6 vertices and 2 triangles through VF, 6 VS
     * invocations, 2 objects into CLIP (seed 003 L11007-11060) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_VERTICES_COUNT"), 6);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_PRIMITIVES_COUNT"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.invocations"), 6);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.clip.cl_invocation_count"), 2);
    /* every URB entry the draws took was freed */
    CU_ASSERT_TRUE(probe_stat(sim, "gpu.urb.allocations") > 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.allocations"), probe_stat(sim, "gpu.urb.frees"));
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.bad_handles"), 0);
    if (more)
        more(sim);
    sim_destroy(sim);
    gt_config_free(config);
}

static void test_skl_tri_reaches_sf(void)
{
    static const struct expected_draw want[] = { RECT_2, TRI_A, TRI_B, RECT_2, RECT_64 };
    check_capture("configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tri.aub.gz", want, 5, NULL);
}

static void test_bdw_tri_reaches_sf(void)
{
    static const struct expected_draw want[] = { RECT_64, TRI_A, TRI_B };
    check_capture("configs/gen8-bdw-gt2.cfg", "tests/data/traces/bdw_tri.aub.gz", want, 3, NULL);
}

/* byt_tri on Gen7 (crocus; ../shared/traces/intel/byt/byt_tri.aubinator.txt):
 * the zero-vertex POINTLIST draw (L107) reaches no stage; then the clear
 * rectangle (L1572, VS disabled), the HiZ-resolve rectangle (L2747) and the
 * app's two triangles (L4090, L4166) through the vec4 VS. SIMD4x2 threads
 * shade two vertices each (seed 003 L12220-12251): 3 vertices take 2
 * threads, one of them half empty, per app draw. */
static void byt_vec4_threads(struct sim *sim)
{
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.threads"), 4);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.partial_threads"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.vertices_shaded"), 6);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.bad.simd4x2"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.bad.kernel"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.bad.unsupported_gen"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.unsupported"), 0);
    /* the HiZ resolve draw dispatches no pixel shader (3DSTATE_WM L2517) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.wm.legacy_ops"), 1);
}

static void test_byt_tri_reaches_sf(void)
{
    static const struct expected_draw want[] = { RECT_64, RECT_64, TRI_A, TRI_B };
    check_capture("configs/gen7-vlv.cfg", "tests/data/traces/byt_tri.aub.gz", want, 4,
                  byt_vec4_threads);
}

/* skl_xfb (../shared/traces/ext/intel/skl/skl_xfb.*, copied to tests/data):
 * transform feedback of 6 vertices (TRIANGLES) with the rasterizer
 * discarded, varyings vec4 o_a and float o_b interleaved into a 40-float
 * buffer pre-filled with -1234.5. The expected 30 floats are the app's own
 * CPU results (skl_xfb.txt); the buffer is SO_BUFFER 0's Surface Base
 * Address (skl_xfb.aubinator.txt L1357); the query reads
 * SO_NUM_PRIMS_WRITTEN0, which must be 2. */
static void test_skl_xfb_streams_out(void)
{
    static const float want[6][5] = {
        { 0, -1, -1, 2.5f, 0.5f },     { 2, -1, -0.5f, 2.5f, 1.5f },
        { 1, 1, 0, 2.5f, 2.25f },      { 0.5f, 1.5f, -1.25f, 2.5f, 3.625f },
        { 2.5f, 0.5f, -0.25f, 2.5f, 4.625f }, { -0.75f, -1.25f, 1, 4.5f, 6.15625f },
    };
    const char *dir = test_temp_dir();
    char cmd[2048], file[600];
    snprintf(file, sizeof file, "%s/so.bin", dir);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/out --dump 0xfffefffdc000:160:%s "
             "tests/data/traces/skl_xfb.aub.gz >/dev/null 2>&1 </dev/null",
             test_gtsim_binary(), dir, file);
    int st = system(cmd);
    CU_ASSERT_TRUE_FATAL(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    float got[40];
    FILE *f = fopen(file, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(got, sizeof got[0], 40, f), 40);
    fclose(f);
    for (int v = 0; v < 6; v++)
        for (int c = 0; c < 5; c++)
            CU_ASSERT_DOUBLE_EQUAL(got[v * 5 + c], want[v][c], 0);
    for (int i = 30; i < 40; i++)
        CU_ASSERT_DOUBLE_EQUAL(got[i], -1234.5, 0);     /* nothing past the 30 */
    snprintf(file, sizeof file, "%s/out/stats.csv", dir);
    f = fopen(file, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[512];
    double prims = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "gpu.cs.pipe.SO_NUM_PRIMS_WRITTEN0,", 34) == 0)
            prims = strtod(line + 34, NULL);
    fclose(f);
    CU_ASSERT_DOUBLE_EQUAL(prims, 2, 0);
}

/* skl_tess (../shared/traces/ext/intel/skl/skl_tess.*, copied to tests/data):
 * one 4-vertex patch, TCS outer = inner = 4, TES quads with equal spacing
 * (the ext README): a 4 x 4 grid of quads, 2 triangles each, so 32
 * triangles from 25 domain points reach SF besides the driver's 3
 * rectangles, and the run ends (it deadlocked once in DS). */
static void test_skl_tess_reaches_sf(void)
{
    struct machine_request req = { .config_path = "configs/gen9-skl-gt2.cfg",
                                   .workload = "tests/data/traces/skl_tess.aub.gz" };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.te.domain_points"), 25);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.ds.primitives"), 32);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.primitives"), 32 + 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.allocations"), probe_stat(sim, "gpu.urb.frees"));
    sim_destroy(sim);
    gt_config_free(config);
}

/* skl_instanced (../shared/traces/ext/intel/skl/skl_instanced.*, copied to
 * tests/data): the app (ext/app/gltrace_ext.c, test_instanced) draws an
 * indexed quad (indices 0 1 2 0 2 3 of (-1,-1) (1,-1) (1,1) (-1,1)) 16 times
 * with a per-instance offset (-0.75 + 0.5 (i % 4), -0.75 + 0.5 (i / 4)), and
 * its VS computes a_pos * 0.15 + a_off. The 128x128 viewport
 * (SF_CLIP_VIEWPORT in skl_instanced.aubinator.txt L1752-1762: m00 = m11 =
 * m30 = m31 = 64, m22 = m32 = 0.5) maps x to 64 x + 64. So the draw sends
 * 32 triangles, the first (instance 0) at (6.4, 6.4) (25.6, 6.4)
 * (25.6, 25.6), the third (instance 1's first) 0.5 x 64 = 32 pixels right. */
static void test_skl_instanced_reaches_sf(void)
{
    struct machine_request req = { .config_path = "configs/gen9-skl-gt2.cfg",
                                   .workload = "tests/data/traces/skl_instanced.aub.gz" };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    const struct sf_observed_draw *d;
    uint32_t n = sf_observed_draws(sim_find_unit(sim, "gpu.sf"), &d);
    CU_ASSERT_EQUAL_FATAL(n, 4);                /* clear, the instanced draw, 2 blits */
    CU_ASSERT_EQUAL(d[1].primitives, 32);
    static const float want[2][3][2] = {
        { { 6.4f, 6.4f }, { 25.6f, 6.4f }, { 25.6f, 25.6f } },     /* instance 0 */
        { { 38.4f, 6.4f }, { 57.6f, 6.4f }, { 57.6f, 25.6f } },    /* instance 1 */
    };
    CU_ASSERT_EQUAL_FATAL(d[1].kept, 4);
    for (int k = 0; k < 2; k++)
        for (int v = 0; v < 3; v++) {
            CU_ASSERT_DOUBLE_EQUAL(d[1].primitives_seen[2 * k].v[v].screen[0], want[k][v][0], 1e-4);
            CU_ASSERT_DOUBLE_EQUAL(d[1].primitives_seen[2 * k].v[v].screen[1], want[k][v][1], 1e-4);
            CU_ASSERT_DOUBLE_EQUAL(d[1].primitives_seen[2 * k].v[v].screen[2], 0.5, 1e-6);
        }
    /* 16 instances x 6 indices, 4 distinct vertices each reach the VS once
     * (the vertex cache holds indices 0 and 2 for the second triangle) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_VERTICES_COUNT"), 96);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_PRIMITIVES_COUNT"), 32);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.invocations"), 64);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.allocations"), probe_stat(sim, "gpu.urb.frees"));
    sim_destroy(sim);
    gt_config_free(config);
}

/* ---- the ext captures' draws, checked at SF ------------------------------------------ */

/* Builds the Gen9 GT2 machine on a capture in tests/data/traces and runs it;
 * NULL (the test skipped, said once) when the capture is not there. */
static struct sim *run_capture(const char *trace, struct gt_config **config)
{
    if (access(trace, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: skipped ", trace);
        return NULL;
    }
    struct machine_request req = { .config_path = "configs/gen9-skl-gt2.cfg", .workload = trace };
    struct gt_error err;
    *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*config);
    struct sim *sim = machine_build(*config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    return sim;
}

/* The 64x64 viewport of the ext captures (SF_CLIP_VIEWPORT 0 in each
 * skl_<test>.aubinator.txt, e.g. skl_strip_fan L1794-1806: m00 = m11 = m30 =
 * m31 = 32, m22 = m32 = 0.5, Viewport Transform Enable set), w = 1. */
static void ndc_to_screen(double x, double y, double z, double out[3])
{
    out[0] = 32 * x + 32;
    out[1] = 32 * y + 32;
    out[2] = 0.5 * z + 0.5;
}

static bool vertex_at(const struct sf_observed_vertex *v, const double want[3], double tolerance)
{
    for (int c = 0; c < 3; c++)
        if (fabs(v->screen[c] - want[c]) > tolerance)
            return false;
    return true;
}

/* Primitive k of draw d has vertex_count n and its vertices are `want` in
 * this order (ordered) or in any order (a strip's inverted triangle, whose
 * order depends on the reorder the stages apply). */
static void check_primitive(const struct sf_observed_draw *d, uint32_t k, uint32_t n,
                            const double want[][3], bool ordered, const char *what)
{
    CU_ASSERT_TRUE_FATAL(k < d->kept);
    CU_ASSERT_EQUAL(d->primitives_seen[k].vertex_count, n);
    for (uint32_t i = 0; i < n && i < 3; i++) {
        bool found = false;
        for (uint32_t j = 0; j < n && j < 3 && !found; j++)
            found = (!ordered || j == i) && vertex_at(&d->primitives_seen[k].v[j], want[i], 1e-3);
        if (!found) {
            const float *g = d->primitives_seen[k].v[i].screen;
            fprintf(stderr, "\n  %s primitive %u vertex %u: expected (%g, %g, %g), got (%g, %g, %g)",
                    what, k, i, want[i][0], want[i][1], want[i][2], g[0], g[1], g[2]);
            CU_FAIL("a screen position differs");
        }
    }
}

/* The first app draw among SF's observed draws: the driver's clear comes
 * before the app's draws (a RECTLIST of screen positions, topology 15). */
static uint32_t first_app_draw(const struct sf_observed_draw *d, uint32_t n)
{
    uint32_t i = 0;
    while (i < n && d[i].kept && d[i].primitives_seen[0].topology == PRIM_RECTLIST)
        i++;
    return i;
}

/* skl_strip_fan (../shared/traces/ext/intel/skl/skl_strip_fan.*, copied to
 * tests/data): ext/app/gltrace_ext.c test_strip_fan draws from one buffer of
 * (x, y) positions (the VS passes a_pos on, z = 0, w = 1):
 *  - TRIANGLE_STRIP of 6: x = -0.9 + 0.4 (i / 2), y = 0.85 for odd i, 0.15
 *    for even: 4 triangles, (v0 v1 v2) then (v1 v2 v3) (inverted: any order);
 *  - TRIANGLE_FAN of 10: centre (0.5, 0.5), rim i = 0..8 at 0.5 + 0.35
 *    (cos, sin)(i pi / 4): 8 triangles, the first (centre, rim 0, rim 1);
 *  - LINES of 8: 4 lines, the first (-0.9, hy) (-0.1, hy), hy = (16.5) / 32
 *    - 1 (the centres of row H/4), the second at x = 12.5 / 32 - 1;
 *  - LINE_STRIP of 5: (0.1 + 0.2 i, -0.1 for odd i, -0.9 for even): 4 lines;
 *  - POINTS of 5: (-0.75, -0.375, 0, 0.375, 0.75; 0): 5 points.
 * Lines and points are checked at what reaches SF (their vertices), as SF
 * does not set them up yet (issue 12). */
static void test_skl_strip_fan_reaches_sf(void)
{
    struct gt_config *config = NULL;
    struct sim *sim = run_capture("tests/data/traces/skl_strip_fan.aub.gz", &config);
    if (!sim)
        return;
    const struct sf_observed_draw *d;
    uint32_t n = sf_observed_draws(sim_find_unit(sim, "gpu.sf"), &d);
    uint32_t a = first_app_draw(d, n);
    CU_ASSERT_TRUE_FATAL(a + 5 <= n);
    static const uint64_t counts[5] = { 4, 8, 4, 4, 5 };
    static const uint32_t per[5] = { 3, 3, 2, 2, 1 };
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(d[a + i].primitives, counts[i]);
        CU_ASSERT_EQUAL(d[a + i].primitives_seen[0].vertex_count, per[i]);
    }
    double strip[6][3];
    for (int i = 0; i < 6; i++)
        ndc_to_screen(-0.9f + 0.4f * (i / 2), (i & 1) ? 0.85f : 0.15f, 0, strip[i]);
    check_primitive(&d[a], 0, 3, (const double(*)[3])strip, true, "strip");
    check_primitive(&d[a], 1, 3, (const double(*)[3])&strip[1], false, "strip");
    check_primitive(&d[a], 2, 3, (const double(*)[3])&strip[2], true, "strip");
    double fan[3][3];
    ndc_to_screen(0.5, 0.5, 0, fan[0]);
    for (int i = 0; i < 2; i++) {
        float angle = (float)i * 3.14159265f / 4.0f;
        ndc_to_screen(0.5f + 0.35f * cosf(angle), 0.5f + 0.35f * sinf(angle), 0, fan[1 + i]);
    }
    check_primitive(&d[a + 1], 0, 3, (const double(*)[3])fan, true, "fan");
    double line[4][3];
    float hy = (float)((16 + 0.5) * 2.0 / 64 - 1.0), vx = (float)((12 + 0.5) * 2.0 / 64 - 1.0);
    ndc_to_screen(-0.9f, hy, 0, line[0]);
    ndc_to_screen(-0.1f, hy, 0, line[1]);
    ndc_to_screen(vx, -0.9f, 0, line[2]);
    ndc_to_screen(vx, -0.1f, 0, line[3]);
    check_primitive(&d[a + 2], 0, 2, (const double(*)[3])line, true, "lines");
    check_primitive(&d[a + 2], 1, 2, (const double(*)[3])&line[2], true, "lines");
    double zigzag[5][3];
    for (int i = 0; i < 5; i++)
        ndc_to_screen(0.1f + 0.2f * i, (i & 1) ? -0.1f : -0.9f, 0, zigzag[i]);
    for (uint32_t k = 0; k < 3; k++)
        check_primitive(&d[a + 3], k, 2, (const double(*)[3])&zigzag[k], true, "line strip");
    static const float point_x[5] = { -0.75f, -0.375f, 0.0f, 0.375f, 0.75f };
    for (uint32_t k = 0; k < 4; k++) {
        double point[1][3];
        ndc_to_screen(point_x[k], 0, 0, point[0]);
        check_primitive(&d[a + 4], k, 1, (const double(*)[3])point, true, "points");
    }
    /* IA counts every object of the 5 draws (seed 003 L12185-12200) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_VERTICES_COUNT"), 6 + 10 + 8 + 5 + 5);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_PRIMITIVES_COUNT"), 4 + 8 + 4 + 4 + 5);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.allocations"), probe_stat(sim, "gpu.urb.frees"));
    sim_destroy(sim);
    gt_config_free(config);
}

/* skl_gs (../shared/traces/ext/intel/skl/skl_gs.*, copied to tests/data):
 * test_gs draws 16 POINTS at (-0.75 + 0.5 (i % 4), -0.75 + 0.5 (i / 4)); its
 * GS emits for each a 4-vertex triangle strip at the point + ((i & 1) ? h :
 * -h, (i & 2) ? h : -h), h = u_half = 0.15 (a push constant): 16 quads of 2
 * triangles. The first triangle of quad q is (corner 0, 1, 2) in order, the
 * second (corners 1, 2, 3) is the strip's inverted one (any order). */
static void test_skl_gs_reaches_sf(void)
{
    struct gt_config *config = NULL;
    struct sim *sim = run_capture("tests/data/traces/skl_gs.aub.gz", &config);
    if (!sim)
        return;
    const struct sf_observed_draw *d;
    uint32_t n = sf_observed_draws(sim_find_unit(sim, "gpu.sf"), &d);
    uint32_t a = first_app_draw(d, n);
    CU_ASSERT_TRUE_FATAL(a < n);
    CU_ASSERT_EQUAL(d[a].primitives, 32);
    CU_ASSERT_EQUAL_FATAL(d[a].kept, 4);
    const float half = 0.15f;
    for (int q = 0; q < 2; q++) {
        float px = -0.75f + 0.5f * (q % 4), py = -0.75f + 0.5f * (q / 4);
        double corner[4][3];
        for (int i = 0; i < 4; i++)
            ndc_to_screen(px + ((i & 1) ? half : -half), py + ((i & 2) ? half : -half), 0,
                          corner[i]);
        check_primitive(&d[a], 2 * q, 3, (const double(*)[3])corner, true, "gs quad");
        check_primitive(&d[a], 2 * q + 1, 3, (const double(*)[3])&corner[1], false, "gs quad");
    }
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.IA_PRIMITIVES_COUNT"), 16);
    /* GS statistics (003 L11041-11042): Mesa's Invocations Increment Value 0
     * is an increment of 1 (004 L3315-3319), one per point; 2 triangles each */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.gs.invocations"), 16);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.gs.gs_primitives"), 32);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.allocations"), probe_stat(sim, "gpu.urb.frees"));
    sim_destroy(sim);
    gt_config_free(config);
}

/* skl_tess: where the patch's triangles land. The TES (test_tess) takes
 * (u, v) on the 4 x 4 grid (u, v in {0, 1/4, .., 1}) to the bilinear patch of
 * (-0.8, -0.8) (0.8, -0.8) (0.8, 0.8) (-0.8, 0.8): x = -0.8 + 1.6 u, y = -0.8
 * + 1.6 v, z = 0.5 sin(3.14159 u) sin(3.14159 v), w = 1. Each triangle SF
 * sees first must have its 3 vertices on that grid (with that z), distinct,
 * within one grid cell (half of a quad). The order the TE walks the grid
 * in is the TE's own; it is not assumed. */
static void test_skl_tess_positions(void)
{
    struct gt_config *config = NULL;
    struct sim *sim = run_capture("tests/data/traces/skl_tess.aub.gz", &config);
    if (!sim)
        return;
    const struct sf_observed_draw *d;
    uint32_t n = sf_observed_draws(sim_find_unit(sim, "gpu.sf"), &d);
    uint32_t a = first_app_draw(d, n);
    CU_ASSERT_TRUE_FATAL(a < n);
    CU_ASSERT_EQUAL(d[a].primitives, 32);
    CU_ASSERT_EQUAL_FATAL(d[a].kept, 4);
    for (uint32_t k = 0; k < d[a].kept; k++) {
        CU_ASSERT_EQUAL(d[a].primitives_seen[k].vertex_count, 3);
        int iu[3] = { -1, -1, -1 }, iv[3] = { -1, -1, -1 };
        for (int vtx = 0; vtx < 3; vtx++)
            for (int i = 0; i <= 4 && iu[vtx] < 0; i++)
                for (int j = 0; j <= 4; j++) {
                    float u = (float)i / 4, v = (float)j / 4;
                    double want[3];
                    ndc_to_screen(-0.8 + 1.6 * u, -0.8 + 1.6 * v,
                                  0.5 * sin(3.14159 * u) * sin(3.14159 * v), want);
                    if (vertex_at(&d[a].primitives_seen[k].v[vtx], want, 2e-3)) {
                        iu[vtx] = i;
                        iv[vtx] = j;
                        break;
                    }
                }
        for (int vtx = 0; vtx < 3; vtx++)
            CU_ASSERT_TRUE(iu[vtx] >= 0);       /* on the grid */
        if (iu[0] < 0 || iu[1] < 0 || iu[2] < 0)
            continue;
        int lo_u = 4, hi_u = 0, lo_v = 4, hi_v = 0;
        for (int vtx = 0; vtx < 3; vtx++) {
            lo_u = iu[vtx] < lo_u ? iu[vtx] : lo_u;
            hi_u = iu[vtx] > hi_u ? iu[vtx] : hi_u;
            lo_v = iv[vtx] < lo_v ? iv[vtx] : lo_v;
            hi_v = iv[vtx] > hi_v ? iv[vtx] : hi_v;
        }
        CU_ASSERT_EQUAL(hi_u - lo_u, 1);        /* half of one grid cell */
        CU_ASSERT_EQUAL(hi_v - lo_v, 1);
        CU_ASSERT_FALSE(iu[0] == iu[1] && iv[0] == iv[1]);
        CU_ASSERT_FALSE(iu[0] == iu[2] && iv[0] == iv[2]);
        CU_ASSERT_FALSE(iu[1] == iu[2] && iv[1] == iv[2]);
    }
    sim_destroy(sim);
    gt_config_free(config);
}

static const struct test_case cases[] = {
    { "skl_instanced: 16 instances of an indexed quad reach SF at their offsets",
      test_skl_instanced_reaches_sf },
    { "skl_tess: the tessellated patch's 32 triangles reach SF", test_skl_tess_reaches_sf },
    { "skl_tess: the first triangles lie on the bilinear patch's 4x4 grid", test_skl_tess_positions },
    { "skl_strip_fan: strip, fan, lines, line strip and points reach SF where the app puts them",
      test_skl_strip_fan_reaches_sf },
    { "skl_gs: 16 points become 16 quads of 2 triangles at SF", test_skl_gs_reaches_sf },
    { "skl_xfb: the SO buffer holds exactly the app's 30 floats, 2 primitives written",
      test_skl_xfb_streams_out },
    { "skl_tri: every draw's primitive reaches SF where the capture puts it",
      test_skl_tri_reaches_sf },
    { "byt_tri (Gen7, vec4 VS): positions at SF, SIMD4x2 threads", test_byt_tri_reaches_sf },
    { "bdw_tri: the same through the Gen8 machine", test_bdw_tri_reaches_sf },
    { 0 }
};
TEST_SUITE(geometry, cases);
