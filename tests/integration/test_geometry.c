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

#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"
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
                          const struct expected_draw *want, uint32_t draws)
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
    sim_destroy(sim);
    gt_config_free(config);
}

static void test_skl_tri_reaches_sf(void)
{
    static const struct expected_draw want[] = { RECT_2, TRI_A, TRI_B, RECT_2, RECT_64 };
    check_capture("configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tri.aub.gz", want, 5);
}

static void test_bdw_tri_reaches_sf(void)
{
    static const struct expected_draw want[] = { RECT_64, TRI_A, TRI_B };
    check_capture("configs/gen8-bdw-gt2.cfg", "tests/data/traces/bdw_tri.aub.gz", want, 3);
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

static const struct test_case cases[] = {
    { "skl_instanced: 16 instances of an indexed quad reach SF at their offsets",
      test_skl_instanced_reaches_sf },
    { "skl_tess: the tessellated patch's 32 triangles reach SF", test_skl_tess_reaches_sf },
    { "skl_xfb: the SO buffer holds exactly the app's 30 floats, 2 primitives written",
      test_skl_xfb_streams_out },
    { "skl_tri: every draw's primitive reaches SF where the capture puts it",
      test_skl_tri_reaches_sf },
    { "bdw_tri: the same through the Gen8 machine", test_bdw_tri_reaches_sf },
    { 0 }
};
TEST_SUITE(geometry, cases);
