/* tests/integration/test_ubench_fill.c - the pixel fill-rate workloads of
 * `make microbench` (workloads/workload3d.h "ubench-fill", "ubench-fill-blend")
 * run on Gen9 GT2 (fast EUs: the image, not the timing, is checked here; the
 * timing is what `make microbench` prints), and the opaque one's Gen7 form
 * on ValleyView (configs/gen7-vlv.cfg): the render target comes out as
 * `gtsim run --images` converts it (tools/images.h) and every pixel must be
 * the colour worked out here from the shader's colour and the background the
 * workload says, and the draw's record (tools/dispatch_stats.h) must count
 * every pixel of the render target written once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/machine_run.h"
#include "tests/test.h"
#include "tools/dispatch_stats.h"
#include "tools/images.h"
#include "tools/machine.h"
#include "units/om/om.h"
#include "units/registry.h"
#include "workloads/workload3d.h"

#define AUB_DIR "build/gen/workloads"

/* A float in [0, 1] as an 8-bit UNORM, round to nearest (the RGBA8 PNG
 * conversion of tools/images.h). */
static unsigned unorm8(double v)
{
    return (unsigned)floor(v * 255.0 + 0.5);
}

/* Runs the workload and compares every pixel of its render target with
 * expect (R, G, B, A bytes) within tolerance; returns the pixels that match. */
static uint64_t run_fill(const char *name, int gen, const unsigned expect[4], unsigned tolerance)
{
    char aub[300];
    snprintf(aub, sizeof aub, AUB_DIR "/%s.gen%d.aub.gz", name, gen);
    if (!machine_run_workload_present(aub))
        return 0;
    const char *sets[] = { "gpu.slice.subslice.eu.fast=true" };
    struct machine_request req = { .config_path = gen == 7 ? "configs/gen7-vlv.cfg"
                                                           : "configs/gen9-skl-gt2.cfg",
                                   .sets = sets, .set_count = 1, .workload = aub };
    struct machine_run m;
    machine_run(&req, NULL, &m);
    struct sim *sim = m.sim;

    /* the render target, written by the slice's pixel back end */
    struct unit *om = sim_find_unit(sim, "gpu.slice0.om");
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    CU_ASSERT_EQUAL(n, 1);
    uint64_t matching = 0;
    if (n >= 1) {
        CU_ASSERT_EQUAL(list[0].width, UBENCH_FILL_WIDTH);
        CU_ASSERT_EQUAL(list[0].height, UBENCH_FILL_HEIGHT);
        uint64_t faults = 0;
        uint8_t *rgba = images_surface_rgba8(sim, &list[0], &faults);
        CU_ASSERT_PTR_NOT_NULL(rgba);
        CU_ASSERT_EQUAL(faults, 0);
        uint64_t pixels = (uint64_t)list[0].width * list[0].height;
        for (uint64_t i = 0; rgba && i < pixels; i++) {
            bool ok = true;
            for (int c = 0; c < 4; c++)
                ok = ok && abs((int)rgba[4 * i + c] - (int)expect[c]) <= (int)tolerance;
            if (!ok && pixels - matching < 4)
                fprintf(stderr, "\n  pixel %llu: %u %u %u %u, expected %u %u %u %u ",
                        (unsigned long long)i, rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2],
                        rgba[4 * i + 3], expect[0], expect[1], expect[2], expect[3]);
            matching += ok;
        }
        free(rgba);
    }

    /* the draw's record: one draw, every pixel rasterized, shaded, written */
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    CU_ASSERT_EQUAL(d.draw_count, 1);
    if (d.draw_count >= 1) {
        CU_ASSERT_EQUAL(d.draws[0].pixels_rasterized, UBENCH_FILL_PIXELS);
        CU_ASSERT_EQUAL(d.draws[0].pixels_written, UBENCH_FILL_PIXELS);
        /* SIMD16 dispatch: 16 pixels a thread */
        CU_ASSERT_EQUAL(d.draws[0].threads, UBENCH_FILL_PIXELS / 16);
    }
    dispatch_stats_free(&d);
    machine_run_free(&m);
    return matching;
}

/* Blending off: the shader's colour everywhere (the background gone). */
static void test_fill(void)
{
    const unsigned expect[4] = { unorm8(UBENCH_FILL_R), unorm8(UBENCH_FILL_G),
                                 unorm8(UBENCH_FILL_B), unorm8(UBENCH_FILL_A) };
    /* 0.2, 0.4, 0.8, 0.6 of 255: 51, 102, 204, 153 */
    CU_ASSERT_EQUAL(expect[0], 51);
    CU_ASSERT_EQUAL(run_fill("ubench-fill", 9, expect, 0), UBENCH_FILL_PIXELS);
}

/* The same draw as a Gen7 capture on ValleyView (issue 14): the colour everywhere. */
static void test_fill_gen7(void)
{
    const unsigned expect[4] = { unorm8(UBENCH_FILL_R), unorm8(UBENCH_FILL_G),
                                 unorm8(UBENCH_FILL_B), unorm8(UBENCH_FILL_A) };
    CU_ASSERT_EQUAL(run_fill("ubench-fill", 7, expect, 0), UBENCH_FILL_PIXELS);
}

/* SRC_ALPHA, INV_SRC_ALPHA, ADD on colour and alpha: colour x A + background
 * x (1 - A), within one step of 8 bits (the blend's precision is the back
 * end's). */
static void fill_blend(int gen)
{
    const double a = UBENCH_FILL_A;
    const double src[4] = { UBENCH_FILL_R, UBENCH_FILL_G, UBENCH_FILL_B, UBENCH_FILL_A };
    const double dst[4] = { UBENCH_FILL_BACKGROUND_R / 255.0, UBENCH_FILL_BACKGROUND_G / 255.0,
                            UBENCH_FILL_BACKGROUND_B / 255.0, UBENCH_FILL_BACKGROUND_A / 255.0 };
    unsigned expect[4];
    for (int c = 0; c < 4; c++)
        expect[c] = unorm8(src[c] * a + dst[c] * (1 - a));
    CU_ASSERT_EQUAL(run_fill("ubench-fill-blend", gen, expect, 1), UBENCH_FILL_PIXELS);
}

static void test_fill_blend(void)
{
    fill_blend(9);
}

/* Gen7's BLEND_STATE: entries without Gen8's common dword, a pointer command
 * without its Valid bit (genxml gen7.xml); the same colours as on Gen9. */
static void test_fill_blend_gen7(void)
{
    fill_blend(7);
}

static const struct test_case cases[] = {
    { "opaque fill: the constant colour in every pixel, each written once", test_fill },
    { "alpha-blended fill: colour over the background in every pixel", test_fill_blend },
    { "Gen7 opaque fill (a legacy-ring capture of our own): the colour in every pixel",
      test_fill_gen7 },
    { "Gen7 alpha-blended fill: Gen7's BLEND_STATE form, colour over the background",
      test_fill_blend_gen7 },
    { 0 }
};
TEST_SUITE(ubench_fill, cases);
