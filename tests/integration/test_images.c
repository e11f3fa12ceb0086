/* tests/integration/test_images.c - real captures render their reference
 * images (issue 12 item 8): each capture runs on its machine, every colour
 * surface the pixel back ends wrote is converted as `gtsim run --images`
 * converts it (tools/images.h), and one of them must pass the judge of
 * tests/support/image_compare.h against the llvmpipe and softpipe renders
 * and the probes of the GL test (copied to tests/data/reference from
 * ../shared/traces/reference and ../shared/traces/ext/reference), as
 * ../shared/tools/image_check.py would judge the PNGs.
 *
 * Captures (tests/data/traces): skl_tri, bdw_tri and byt_tri (../shared/traces/intel;
 * byt_tri is crocus on ValleyView: Gen7's state forms and SIMD4x2 VS, issue 14),
 * and the SKL extended suite's strip_fan, instanced, gs, tess, blend_stencil,
 * multi_rt (both render targets), fill_heavy and mipmap (the sampler's
 * trilinear filtering; issue 13) and msaa (4x multisample rasterization at
 * the sample pattern, per-sample writes, the MSRT fast clear; the GL test's
 * probe "edge levels are multiples of 1/4 coverage" is checked on the 4x
 * surface directly, averaged over its samples as tools/images.c does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/sim.h"
#include "tests/support/image_compare.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/images.h"
#include "tools/machine.h"
#include "units/om/om.h"
#include "units/registry.h"
#include "units/vc4_v3d/vc4_v3d.h"

#define REFERENCE_DIR "tests/data/reference"

static const struct unit_ops *lookup(const char *kind)
{
    return unit_kind_find(kind);
}

/* Runs trace on config and judges every surface written against each of
 * the tests named (NULL-terminated): each must find a passing surface. */
static void render_and_judge_samples(const char *config_path, const char *trace,
                                     const char *const *tests, uint32_t only_samples);
static void render_and_judge(const char *config_path, const char *trace, const char *const *tests)
{
    render_and_judge_samples(config_path, trace, tests, 0);
}

/* As render_and_judge, judging only the surfaces of only_samples samples
 * (0: every surface). */
static void render_and_judge_samples(const char *config_path, const char *trace,
                                     const char *const *tests, uint32_t only_samples)
{
    if (access(trace, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: skipped ", trace);
        return;
    }
    struct machine_request req = { .config_path = config_path, .workload = trace };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim)
        fprintf(stderr, "%s: %s\n", config_path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct unit *om = sim_find_unit(sim, "gpu.slice0.om");
    if (!om)
        om = sim_find_unit(sim, "gpu.om");      /* Gen4: no slices */
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    CU_ASSERT_TRUE(n > 0);
    for (const char *const *t = tests; *t; t++) {
        struct image_verdict best = { .off_share = 2.0 };
        bool pass = false;
        for (uint32_t i = 0; i < n && !pass; i++) {
            if (only_samples && list[i].samples != only_samples)
                continue;
            uint64_t faults = 0;
            uint8_t *rgba = images_surface_rgba8(sim, &list[i], &faults);
            if (!rgba)
                continue;
            struct image_verdict v;
            pass = image_judge_test(REFERENCE_DIR, *t, rgba, list[i].width, list[i].height, &v);
            if (pass || v.off_share < best.off_share)
                best = v;
            free(rgba);
        }
        if (!pass)
            fprintf(stderr, "\n  %s: best %.2f%% pixels off (allowed %.2f%%), %u/%u probes bad ",
                    *t, 100 * best.off_share, 100 * best.allowed_share, best.probes_bad,
                    best.probes);
        CU_ASSERT_TRUE(pass);
    }
    sim_destroy(sim);
    gt_config_free(config);
}

#define SKL "configs/gen9-skl-gt2.cfg"
#define TRACE(name) "tests/data/traces/" name ".aub.gz"
#define TESTS(...) (const char *const[]){ __VA_ARGS__, NULL }

static void test_skl_tri(void) { render_and_judge(SKL, TRACE("skl_tri"), TESTS("tri")); }
static void test_bdw_tri(void)
{
    render_and_judge("configs/gen8-bdw-gt2.cfg", TRACE("bdw_tri"), TESTS("tri"));
}
static void test_byt_tri(void)
{
    render_and_judge("configs/gen7-vlv.cfg", TRACE("byt_tri"), TESTS("tri"));
}

/* g965_tri (crocus on the 965G, issue 14 items 3 and 5): the whole Gen4
 * pipeline, with the SF running the driver's setup kernel (units/sf/sf.h
 * "Gen4": the SF thread writes the setup URB entry WM reads its attribute
 * planes from). Skipped, with the reason printed, on a config whose SF has
 * no thread dispatch linked (sf.td). */
static void test_g965_tri(void)
{
    const char *config_path = "configs/gen4-g965.cfg";
    struct machine_request req = { .config_path = config_path, .workload = TRACE("g965_tri") };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    struct unit *sf = sim_find_unit(sim, "gpu.sf");
    struct port *setup_threads = sf ? unit_port(sf, "td", 0) : NULL;
    bool front = sf && unit_ops_of(sf) == unit_kind_find("sf") && setup_threads &&
                 port_is_bound(setup_threads);
    sim_destroy(sim);
    gt_config_free(config);
    if (!front) {
        fprintf(stderr, "\n  g965_tri: the Gen4 SF setup thread is not linked in %s (not modelled yet): "
                "skipped ", config_path);
        return;
    }
    render_and_judge(config_path, TRACE("g965_tri"), TESTS("tri"));
}
static void test_strip_fan(void) { render_and_judge(SKL, TRACE("skl_strip_fan"), TESTS("strip_fan")); }
static void test_instanced(void) { render_and_judge(SKL, TRACE("skl_instanced"), TESTS("instanced")); }
static void test_gs(void) { render_and_judge(SKL, TRACE("skl_gs"), TESTS("gs")); }
static void test_tess(void) { render_and_judge(SKL, TRACE("skl_tess"), TESTS("tess")); }
static void test_blend_stencil(void)
{
    render_and_judge(SKL, TRACE("skl_blend_stencil"), TESTS("blend_stencil"));
}
static void test_multi_rt(void)
{
    render_and_judge(SKL, TRACE("skl_multi_rt"), TESTS("multi_rt", "multi_rt_rt1"));
}
static void test_fill_heavy(void) { render_and_judge(SKL, TRACE("skl_fill_heavy"), TESTS("fill_heavy")); }
static void test_mipmap(void) { render_and_judge(SKL, TRACE("skl_mipmap"), TESTS("mipmap")); }

static void test_msaa(void) { render_and_judge(SKL, TRACE("skl_msaa"), TESTS("msaa")); }

/* The single-sample texture blorp resolves the 4x target into: its shader
 * moves the integer sample indices through float registers (raw moves that
 * keep them although they are denormals as floats, 004 L22970-22974). */
static void test_msaa_resolved(void)
{
    render_and_judge_samples(SKL, TRACE("skl_msaa"), TESTS("msaa"), 1);
}

/* The 4x surface of skl_msaa: its pixels averaged over the 4 samples are 0,
 * 64, 128, 191 or 255 (0-4 covered samples of white on black, the GL test's
 * "resolved pixel levels"), with partially covered edge pixels present
 * (ref_llvmpipe_msaa.txt: 101 of them) and fully covered ones inside. */
static void test_msaa_edge_levels(void)
{
    if (access(TRACE("skl_msaa"), R_OK) != 0)
        return;
    struct machine_request req = { .config_path = SKL, .workload = TRACE("skl_msaa") };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(sim_find_unit(sim, "gpu.slice0.om"), &list);
    uint32_t found = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (list[i].samples != 4)
            continue;
        found++;
        uint64_t faults = 0;
        uint8_t *rgba = images_surface_rgba8(sim, &list[i], &faults);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
        uint32_t partial = 0, full = 0, odd = 0;
        for (uint32_t p = 0; p < list[i].width * list[i].height; p++) {
            uint8_t r = rgba[4 * p];
            if (r == 255)
                full++;
            else if (r == 64 || r == 128 || r == 191)
                partial++;
            else if (r != 0)
                odd++;
        }
        CU_ASSERT_EQUAL(odd, 0);
        CU_ASSERT_TRUE(partial > 50);
        CU_ASSERT_TRUE(full > 800);
        free(rgba);
    }
    CU_ASSERT_EQUAL(found, 1);
    sim_destroy(sim);
    gt_config_free(config);
}

/* The judge must be able to fail on a real run: skl_tri's render is not
 * instanced's reference (a size mismatch), nor gs's (same size, other picture). */
static void test_judge_rejects_the_wrong_picture(void)
{
    struct machine_request req = { .config_path = SKL, .workload = TRACE("skl_tri") };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(sim_find_unit(sim, "gpu.slice0.om"), &list);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t faults = 0;
        uint8_t *rgba = images_surface_rgba8(sim, &list[i], &faults);
        if (!rgba)
            continue;
        struct image_verdict v;
        CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "gs", rgba, list[i].width, list[i].height, &v));
        CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "instanced", rgba, list[i].width,
                                         list[i].height, &v));
        free(rgba);
    }
    sim_destroy(sim);
    gt_config_free(config);
}

/* VideoCore IV submits (tests/data/vc4, from ../shared/traces/vc4 and ../shared/traces/ext/vc4):
 * the dump picks configs/vc4-bcm2835.cfg; the surface the tile stores wrote (converted as
 * --images converts it) must pass the judge for the GL test the capture ran. */
static void vc4_render_and_judge(const char *dump, const char *test, bool expect_pass)
{
    if (access(dump, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: skipped ", dump);
        return;
    }
    struct machine_request req = { .workload = dump };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct unit *v3d = sim_find_unit(sim, "gpu.v3d");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v3d);
    CU_ASSERT_EQUAL(images_surface_count(sim), 1);
    const struct vc4_written_surface *list;
    uint32_t n = vc4_v3d_written_surfaces(v3d, &list);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(list[0].width, 64);
    CU_ASSERT_EQUAL(list[0].memory_format, 1);     /* T-format (color_write bits 0x44) */
    uint64_t faults = 0;
    uint8_t *rgba = vc4_surface_rgba8(sim_memory(sim), &list[0], 0x3fffffffu, &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    CU_ASSERT_EQUAL(faults, 0);
    struct image_verdict v;
    bool pass = image_judge_test(REFERENCE_DIR, test, rgba, list[0].width, list[0].height, &v);
    if (pass != expect_pass)
        fprintf(stderr, "\n  %s: %.2f%% pixels off (allowed %.2f%%), %u/%u probes bad ", test,
                100 * v.off_share, 100 * v.allowed_share, v.probes_bad, v.probes);
    CU_ASSERT_EQUAL(pass, expect_pass);
    free(rgba);
    sim_destroy(sim);
    gt_config_free(config);
}

#define VC4_DUMP(name) "tests/data/vc4/" name ".vc4dump.gz"
static void test_vc4_tri(void) { vc4_render_and_judge(VC4_DUMP("vc4_tri"), "tri", true); }
static void test_vc4_strip_fan(void)
{
    vc4_render_and_judge(VC4_DUMP("vc4_strip_fan"), "strip_fan", true);
}
/* and the judge can fail on them: vc4_tri's picture is not strip_fan's (same 64 x 64 size) */
static void test_vc4_wrong_picture(void)
{
    vc4_render_and_judge(VC4_DUMP("vc4_tri"), "strip_fan", false);
}

static const struct test_case cases[] = {
    { "vc4_tri renders the tri reference (binning, tile lists, QPU shading, T-format store)",
      test_vc4_tri },
    { "vc4_strip_fan: strip, fan, lines and points on VideoCore IV", test_vc4_strip_fan },
    { "the judge rejects vc4_tri as strip_fan", test_vc4_wrong_picture },
    { "skl_tri renders the tri reference", test_skl_tri },
    { "bdw_tri renders the tri reference", test_bdw_tri },
    { "byt_tri (Gen7) renders the tri reference", test_byt_tri },
    { "g965_tri (Gen4) renders the tri reference (SF setup thread)", test_g965_tri },
    { "skl_strip_fan: strip, fan, lines and points", test_strip_fan },
    { "skl_instanced: 16 instances", test_instanced },
    { "skl_gs: 16 GS quads", test_gs },
    { "skl_tess: the tessellated patch", test_tess },
    { "skl_blend_stencil: stencil, blend equations, scissor, colour mask", test_blend_stencil },
    { "skl_multi_rt: both render targets", test_multi_rt },
    { "skl_fill_heavy: 2000 depth-tested, blended triangles", test_fill_heavy },
    { "skl_mipmap: trilinear, repeat and mirrored repeat", test_mipmap },
    { "skl_msaa: the 4x render target, averaged", test_msaa },
    { "skl_msaa: edge pixels at 1/4 coverage levels", test_msaa_edge_levels },
    { "skl_msaa: the resolved single-sample texture", test_msaa_resolved },
    { "the judge rejects another test's picture", test_judge_rejects_the_wrong_picture },
    { 0 }
};
TEST_SUITE(images, cases);
