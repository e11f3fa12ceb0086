/* tests/integration/test_gen7_3d.c - the ext suite's geometry-shader test as a
 * Gen7 capture of our own (issue 14 item 5), run through the whole ValleyView
 * machine (configs/gen7-vlv.cfg): workloads/workload3d.h "gs-twice" (VF with
 * a vertex buffer, a vec4 pass-through VS, a DUAL_OBJECT vec4 GS that emits
 * each triangle twice, the second copy moved by GEN7_GS_OFFSET_X/Y, SF/SBE,
 * WM and a SIMD16 PS interpolating a per-vertex colour, om).
 *
 * The expected image is worked out here, independently of the model: each
 * output triangle in the order the GS emits them (triangle 0, its copy,
 * triangle 1, ...; later ones cover earlier ones), covering a pixel when its
 * centre is inside all three edge functions or on a top or left edge (the
 * top-left rule: seed 003's rasterization rules; the edge function's
 * gradient (A, B) with A > 0, or A = 0 and B > 0, for an interior on the
 * positive side); the colour is the vertex colours weighted by the centre's
 * barycentric coordinates (the PS's perspective barycentrics, every w = 1),
 * converted to 8 bits with rounding. Pixels farther than one pixel from
 * every edge must match (colour within 2 steps of 8 bits: plane setup and
 * pln in single precision); pixels within one pixel of an edge are only
 * counted, and most of them must match too (the tolerance the brief allows
 * on edges). The draw's record must count exactly the covered pixels of all
 * six triangles written, and the GS's stats its threads and vertices. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/stats.h"
#include "tests/test.h"
#include "tools/dispatch_stats.h"
#include "tools/images.h"
#include "tools/machine.h"
#include "units/om/om.h"
#include "units/registry.h"
#include "workloads/workload3d.h"

#define AUB_DIR "build/gen/workloads"
#define OUT_TRIANGLES (2u * GEN7_GS_TRIANGLES)

static const struct unit_ops *lookup(const char *kind)
{
    return unit_kind_find(kind);
}

struct triangle {
    double x[3], y[3];
    double colour[3][4];        /* R, G, B, A per vertex */
};

/* The GS's output, in its order: triangle t as it came, then moved. */
static void output_triangles(struct triangle out[OUT_TRIANGLES])
{
    const float v[GEN7_GS_TRIANGLES * 3][7] = GEN7_GS_VERTICES;
    for (uint32_t t = 0; t < OUT_TRIANGLES; t++) {
        uint32_t in = t / 2;
        bool moved = t % 2 == 1;
        for (uint32_t k = 0; k < 3; k++) {
            const float *s = v[3 * in + k];
            out[t].x[k] = s[0] + (moved ? GEN7_GS_OFFSET_X : 0.0);
            out[t].y[k] = s[1] + (moved ? GEN7_GS_OFFSET_Y : 0.0);
            for (int c = 0; c < 4; c++)
                out[t].colour[k][c] = s[3 + c];
        }
    }
}

/* Edge k of t (from vertex k+1 to vertex k+2) at (px, py), its sign chosen so
 * that the interior is positive; *a and *b get its gradient. */
static double edge(const struct triangle *t, int k, double px, double py, double *a, double *b)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double area = (t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) -
                  (t->y[1] - t->y[0]) * (t->x[2] - t->x[0]);
    double s = area < 0 ? -1.0 : 1.0;
    double dx = t->x[j] - t->x[i], dy = t->y[j] - t->y[i];
    *a = -dy * s;
    *b = dx * s;
    return s * (dx * (py - t->y[i]) - dy * (px - t->x[i]));
}

enum cover { OUTSIDE, INSIDE, NEAR_EDGE };

/* Whether t covers the pixel centre (px, py) by the top-left rule, with
 * NEAR_EDGE when the centre is within one pixel of an edge line (either
 * side); *weight gets the barycentric coordinates. */
static enum cover covers(const struct triangle *t, double px, double py, bool *covered,
                         double weight[3])
{
    double e[3], total = 0;
    bool inside = true, near = false;
    for (int k = 0; k < 3; k++) {
        double a, b;
        e[k] = edge(t, k, px, py, &a, &b);
        total += e[k];
        double length = sqrt(a * a + b * b);
        if (fabs(e[k]) / length < 1.0)
            near = true;
        bool top_left = a > 0 || (a == 0 && b > 0);
        if (e[k] < 0 || (e[k] == 0 && !top_left))
            inside = false;
    }
    *covered = inside;
    for (int k = 0; k < 3; k++)
        weight[k] = e[k] / total;       /* e[k] is vertex k's (the opposite edge's) */
    if (near) {
        /* near an edge line but far outside another edge: plainly outside */
        for (int k = 0; k < 3; k++) {
            double a, b;
            double d = edge(t, k, px, py, &a, &b) / sqrt(a * a + b * b);
            if (d <= -1.0)
                return OUTSIDE;
        }
        return NEAR_EDGE;
    }
    return inside ? INSIDE : OUTSIDE;
}

static unsigned unorm8(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (unsigned)floor(v * 255.0 + 0.5);
}

/* The DUAL_OBJECT GS capture: the image, the pixels written, the GS's stats. */
static void test_gs_twice(void)
{
    const char *aub = AUB_DIR "/gs-twice.gen7.aub.gz";
    if (access(aub, R_OK) != 0) {
        fprintf(stderr, "%s is missing: `make workloads` writes it\n", aub);
        CU_FAIL("workload missing");
        return;
    }
    const char *sets[] = { "gpu.slice.subslice.eu.fast=true" };
    struct machine_request req = { .config_path = "configs/gen7-vlv.cfg", .sets = sets,
                                   .set_count = 1, .workload = aub };
    struct gt_error err = { "" };
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);

    /* the expected image and the covered pixels of the six triangles */
    struct triangle tri[OUT_TRIANGLES];
    output_triangles(tri);
    const uint32_t w = GEN7_GS_WIDTH, h = GEN7_GS_HEIGHT;
    unsigned (*expect)[4] = calloc((size_t)w * h, sizeof *expect);
    bool *near = calloc((size_t)w * h, sizeof *near);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
    CU_ASSERT_PTR_NOT_NULL_FATAL(near);
    uint64_t covered_total = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            unsigned *e = expect[y * w + x];
            e[0] = GEN7_GS_BACKGROUND_R;
            e[1] = GEN7_GS_BACKGROUND_G;
            e[2] = GEN7_GS_BACKGROUND_B;
            e[3] = GEN7_GS_BACKGROUND_A;
            for (uint32_t t = 0; t < OUT_TRIANGLES; t++) {
                bool covered;
                double wt[3];
                enum cover c = covers(&tri[t], x + 0.5, y + 0.5, &covered, wt);
                covered_total += covered;
                if (c == NEAR_EDGE)
                    near[y * w + x] = true;
                if (covered)
                    for (int ch = 0; ch < 4; ch++)
                        e[ch] = unorm8(wt[0] * tri[t].colour[0][ch] + wt[1] * tri[t].colour[1][ch] +
                                       wt[2] * tri[t].colour[2][ch]);
            }
        }

    struct unit *om = sim_find_unit(sim, "gpu.slice0.om");
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    CU_ASSERT_EQUAL(n, 1);
    if (n >= 1) {
        CU_ASSERT_EQUAL(list[0].width, w);
        CU_ASSERT_EQUAL(list[0].height, h);
        uint64_t faults = 0;
        uint8_t *rgba = images_surface_rgba8(sim, &list[0], &faults);
        CU_ASSERT_PTR_NOT_NULL(rgba);
        CU_ASSERT_EQUAL(faults, 0);
        uint64_t far_total = 0, far_bad = 0, near_total = 0, near_bad = 0;
        for (uint64_t i = 0; rgba && list[0].width == w && list[0].height == h && i < (uint64_t)w * h;
             i++) {
            bool ok = true;
            for (int c = 0; c < 4; c++)
                ok = ok && abs((int)rgba[4 * i + c] - (int)expect[i][c]) <= 2;
            if (near[i]) {
                near_total++;
                near_bad += !ok;
                continue;
            }
            far_total++;
            if (!ok && far_bad++ < 4)
                fprintf(stderr, "\n  pixel (%llu, %llu): %u %u %u %u, expected %u %u %u %u ",
                        (unsigned long long)(i % w), (unsigned long long)(i / w), rgba[4 * i],
                        rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3], expect[i][0],
                        expect[i][1], expect[i][2], expect[i][3]);
        }
        free(rgba);
        if (near_bad)
            fprintf(stderr, "\n  %llu of %llu pixels within 1 px of an edge differ ",
                    (unsigned long long)near_bad, (unsigned long long)near_total);
        CU_ASSERT(far_total > (uint64_t)w * h / 2);
        CU_ASSERT_EQUAL(far_bad, 0);
        CU_ASSERT(near_bad * 20 <= near_total);     /* at least 95% of the edge pixels */
    }

    /* the draw's record: 9 vertices in, every covered pixel of the six
     * output triangles rasterized and written (SIMD16 threads) */
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    CU_ASSERT_EQUAL(d.draw_count, 1);
    if (d.draw_count >= 1) {
        CU_ASSERT_EQUAL(d.draws[0].vertices, 3 * GEN7_GS_TRIANGLES);
        CU_ASSERT_EQUAL(d.draws[0].pixels_written, covered_total);
        CU_ASSERT_EQUAL(d.draws[0].primitives_rasterized, OUT_TRIANGLES);
    }
    dispatch_stats_free(&d);

    /* the GS: three objects, one thread for the pair and one for the lone
     * third (DUAL_OBJECT, seed 004 L3296-3303), six vertices each, two
     * triangles each */
    struct stats_writer *sw = stats_writer_create();
    sim_write_stats(sim, sw);
    const struct { const char *path; double value; } gs[] = {
        { "gpu.gs.objects", GEN7_GS_TRIANGLES },
        { "gpu.gs.dual_object_threads", 1 },
        { "gpu.gs.single_object_threads", 1 },
        { "gpu.gs.vertices_out", 6 * GEN7_GS_TRIANGLES },
        { "gpu.gs.primitives_out", OUT_TRIANGLES },
        { "gpu.gs.vertex_count_clamped", 0 },
        { "gpu.gs.bad_messages", 0 },
    };
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        double v = -1;
        CU_ASSERT_TRUE(stats_lookup(sw, gs[i].path, &v));
        if (v != gs[i].value)
            fprintf(stderr, "\n  %s = %g, expected %g ", gs[i].path, v, gs[i].value);
        CU_ASSERT_EQUAL(v, gs[i].value);
    }
    stats_writer_destroy(sw);
    free(expect);
    free(near);
    sim_destroy(sim);
    gt_config_free(config);
}

static const struct test_case cases[] = {
    { "Gen7 GS capture (DUAL_OBJECT, each triangle twice) through gen7-vlv: image and stats",
      test_gs_twice },
    { 0 }
};
TEST_SUITE(gen7_3d, cases);
