/* tests/integration/test_gen7_3d.c - the ext suite's geometry-shader,
 * transform feedback and tessellation tests as Gen7 captures of our own (issue 14 item 5), run
 * through the whole ValleyView machine (configs/gen7-vlv.cfg). The captures
 * (workloads/workload3d.h, written by `make workloads`):
 *  - "gs-twice": VF with a vertex buffer, a vec4 pass-through VS, a
 *    DUAL_OBJECT vec4 GS that emits each triangle twice (the second copy
 *    moved by GEN7_GS_OFFSET_X/Y), SF/SBE, WM and a SIMD16 PS interpolating
 *    a per-vertex colour, om;
 *  - "gs-quads": the ext gs test's scene exactly (gltrace_ext.c test_gs):
 *    16 points in, a triangle-strip quad per point out, checked also
 *    against the references and probes (tests/data/reference);
 *  - "xfb-tri": the ext xfb test's scene exactly (test_xfb): stream output
 *    of o_a (vec4) and o_b (float) computed by the VS, rendering disabled,
 *    the primitives-written query stored to memory by MI_STORE_REGISTER_MEM;
 *  - "tess-tri": HS (SINGLE_PATCH, reading its control points from the
 *    URB), TE (TRI domain, every factor 2), a SIMD4x2 DS placing and
 *    colouring the domain points (the ext tess test's idea, skl_tess.txt,
 *    on a triangle patch);
 *  - "tess-quad": the ext tess test's scene exactly (test_tess: a quad
 *    patch, every level 4), checked also against the references and probes.
 *
 * The expected images are worked out here, independently of the model: each
 * output triangle in the order the GS emits them (gs-twice: triangle 0, its
 * copy, triangle 1, ...; later ones cover earlier ones), covering a pixel when its
 * centre is inside all three edge functions or on a top or left edge (the
 * top-left rule, seed 003 L15548-15558; the edge function's
 * gradient (A, B) with A > 0, or A = 0 and B > 0, for an interior on the
 * positive side); the colour is the vertex colours weighted by the centre's
 * barycentric coordinates (the PS's perspective barycentrics, every w = 1),
 * converted to 8 bits with rounding. Pixels farther than one pixel from
 * every edge must match (colour within 2 steps of 8 bits: plane setup and
 * pln in single precision); pixels within one pixel of an edge are only
 * counted, and most of them must match too (the tolerance the brief allows
 * on edges). The draw's record must count exactly the covered pixels
 * written, and the stages' stats their threads, vertices and primitives. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/gen7_capture.h"
#include "tests/test.h"
#include "tools/dispatch_stats.h"
#include "tools/images.h"
#include "units/om/om.h"
#include "workloads/workload3d.h"

#define OUT_TRIANGLES (2u * GEN7_GS_TRIANGLES)

/* The GS's output, in its order: triangle t as it came, then moved. */
static void output_triangles(struct gen7_triangle out[OUT_TRIANGLES])
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

enum cover { OUTSIDE, INSIDE, NEAR_EDGE };

/* Whether t covers the pixel centre (px, py) by the top-left rule, with
 * NEAR_EDGE when the centre is within one pixel of an edge line (either
 * side); *weight gets the barycentric coordinates. */
static enum cover covers(const struct gen7_triangle *t, double px, double py, bool *covered,
                         double weight[3])
{
    double e[3], total = 0;
    bool inside = true, near = false;
    for (int k = 0; k < 3; k++) {
        double a, b;
        e[k] = gen7_edge(t, k, px, py, &a, &b);
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
            double d = gen7_edge(t, k, px, py, &a, &b) / sqrt(a * a + b * b);
            if (d <= -1.0)
                return OUTSIDE;
        }
        return NEAR_EDGE;
    }
    return inside ? INSIDE : OUTSIDE;
}

/* The render target against expect (R, G, B, A per pixel): pixels not
 * marked near must all match, those near an edge at least 95%. */
static void check_image(const struct gen7_run *r, const unsigned (*expect)[4], const bool *near)
{
    const uint32_t w = GEN7_GS_WIDTH, h = GEN7_GS_HEIGHT;
    struct unit *om = sim_find_unit(r->sim, "gpu.slice0.om");
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    CU_ASSERT_EQUAL(n, 1);
    if (n < 1)
        return;
    CU_ASSERT_EQUAL(list[0].width, w);
    CU_ASSERT_EQUAL(list[0].height, h);
    if (list[0].width != w || list[0].height != h)
        return;
    uint64_t faults = 0;
    uint8_t *rgba = images_surface_rgba8(r->sim, &list[0], &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    CU_ASSERT_EQUAL(faults, 0);
    uint64_t far_total = 0, far_bad = 0, near_total = 0, near_bad = 0;
    for (uint64_t i = 0; i < (uint64_t)w * h; i++) {
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

/* The draw's record: one draw, `vertices` vertices in, `primitives`
 * rasterized, `written` pixels written. */
static void check_draw(const struct gen7_run *r, uint64_t vertices, uint64_t primitives,
                       uint64_t written)
{
    struct dispatch_stats d;
    dispatch_stats_collect(r->sim, &d);
    CU_ASSERT_EQUAL(d.draw_count, 1);
    if (d.draw_count >= 1) {
        CU_ASSERT_EQUAL(d.draws[0].vertices, vertices);
        CU_ASSERT_EQUAL(d.draws[0].primitives_rasterized, primitives);
        if (d.draws[0].pixels_written != written)
            fprintf(stderr, "\n  pixels written %llu, expected %llu ",
                    (unsigned long long)d.draws[0].pixels_written, (unsigned long long)written);
        CU_ASSERT_EQUAL(d.draws[0].pixels_written, written);
    }
    dispatch_stats_free(&d);
}

/* DUAL_OBJECT threads: each takes two objects or, when no partner came in
 * time (a timing choice of the GS unit, GS_PAIR_WAIT_CYCLES), one; every
 * object is in exactly one thread, and some threads took two. */
static void check_dual_object_threads(const struct gen7_run *r, uint32_t objects)
{
    double dual = -1, single = -1;
    CU_ASSERT_TRUE(stats_lookup(r->stats, "gpu.gs.dual_object_threads", &dual));
    CU_ASSERT_TRUE(stats_lookup(r->stats, "gpu.gs.single_object_threads", &single));
    CU_ASSERT_EQUAL(2 * dual + single, objects);
    CU_ASSERT(dual >= 1);
}

static void background(unsigned *e)
{
    e[0] = GEN7_GS_BACKGROUND_R;
    e[1] = GEN7_GS_BACKGROUND_G;
    e[2] = GEN7_GS_BACKGROUND_B;
    e[3] = GEN7_GS_BACKGROUND_A;
}

/* The expected image: the background everywhere, nothing near an edge. */
struct expected_image {
    unsigned (*colour)[4];
    bool *near;
    uint64_t covered;       /* pixels covered, summed over the triangles painted */
};

static struct expected_image expected_new(void)
{
    const size_t pixels = (size_t)GEN7_GS_WIDTH * GEN7_GS_HEIGHT;
    struct expected_image e = { calloc(pixels, sizeof *e.colour), calloc(pixels, sizeof *e.near),
                                0 };
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.colour);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.near);
    for (size_t i = 0; i < pixels; i++)
        background(e.colour[i]);
    return e;
}

static void expected_free(struct expected_image *e)
{
    free(e->colour);
    free(e->near);
}

/* Paints t over the expected image: the pixels it covers by the top-left
 * rule take its colours weighted by the centre's barycentric coordinates;
 * pixels within a pixel of its edges are marked near. */
static void paint(struct expected_image *e, const struct gen7_triangle *t)
{
    for (uint32_t y = 0; y < GEN7_GS_HEIGHT; y++)
        for (uint32_t x = 0; x < GEN7_GS_WIDTH; x++) {
            size_t i = (size_t)y * GEN7_GS_WIDTH + x;
            bool covered;
            double wt[3];
            if (covers(t, x + 0.5, y + 0.5, &covered, wt) == NEAR_EDGE)
                e->near[i] = true;
            e->covered += covered;
            if (covered)
                for (int ch = 0; ch < 4; ch++)
                    e->colour[i][ch] = gen7_unorm8(wt[0] * t->colour[0][ch] +
                                              wt[1] * t->colour[1][ch] + wt[2] * t->colour[2][ch]);
        }
}

/* The DUAL_OBJECT GS capture: the image, the pixels written, the GS's stats. */
static void test_gs_twice(void)
{
    struct gen7_run r;
    if (!gen7_run_capture("gs-twice", &r))
        return;
    /* the expected image and the covered pixels of the six triangles, in
     * the order the GS emits them */
    struct gen7_triangle tri[OUT_TRIANGLES];
    output_triangles(tri);
    struct expected_image e = expected_new();
    for (uint32_t t = 0; t < OUT_TRIANGLES; t++)
        paint(&e, &tri[t]);
    check_image(&r, (const unsigned (*)[4])e.colour, e.near);
    /* 9 vertices in, every covered pixel of the six output triangles written */
    check_draw(&r, 3 * GEN7_GS_TRIANGLES, OUT_TRIANGLES, e.covered);
    /* the GS: three objects, at most two a thread (DUAL_OBJECT, seed 004
     * L3296-3303), six vertices each, two triangles each */
    check_dual_object_threads(&r, GEN7_GS_TRIANGLES);
    const struct gen7_expected_stat gs[] = {
        { "gpu.gs.objects", GEN7_GS_TRIANGLES },
        { "gpu.gs.vertices_out", 6 * GEN7_GS_TRIANGLES },
        { "gpu.gs.primitives_out", OUT_TRIANGLES },
        { "gpu.gs.vertex_count_clamped", 0 },
        { "gpu.gs.bad_messages", 0 },
    };
    gen7_check_stats(&r, gs, sizeof gs / sizeof gs[0]);
    expected_free(&e);
    gen7_run_free(&r);
}

static uint8_t *model_image(const struct gen7_run *r, uint32_t width, uint32_t height);

/* The viewport transform of one clip-space coordinate onto `size` pixels,
 * in single precision as SF_CLIP_VIEWPORT's floats, snapped to SF's 1/256
 * pixel grid (3DSTATE_SF Vertex Sub Pixel Precision 8 bits). */
static double to_screen(float ndc, uint32_t size)
{
    float half = (float)size / 2.0f;
    float s = half * ndc + half;
    return nearbyint((double)s * 256.0) / 256.0;
}

/* The ext suite's gs test on Gen7 ("gs-quads"): each point becomes a
 * two-triangle strip over the axis-aligned square point +- h (the GS's
 * single-precision adds, then the viewport), so a pixel is covered when its
 * centre lies strictly inside the snapped square (no centre falls on an
 * edge: the edges are 4.8 pixels from the point, which sits on a pixel
 * corner). The colour depends on y alone, the bottom pair's RGB halved and
 * the top pair's whole, so both triangles give the centre the point's RGB
 * times 0.5 + 0.5 (y - y0) / (y1 - y0), alpha 1. Every pixel within 2, the
 * rest the clear (26) exactly; then the references and their 17 probes. */
static void test_gs_quads(void)
{
    struct gen7_run r;
    if (!gen7_run_capture("gs-quads", &r))
        return;
    const uint32_t size = GEN7_GS_QUAD_SIZE;
    const unsigned clear = gen7_unorm8(GEN7_GS_QUAD_CLEAR);
    unsigned (*want)[4] = malloc(sizeof *want * size * size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    for (uint32_t i = 0; i < size * size; i++) {
        want[i][0] = want[i][1] = want[i][2] = clear;
        want[i][3] = 255;
    }
    uint64_t covered = 0;
    for (uint32_t q = 0; q < GEN7_GS_QUADS; q++) {
        float p[6];
        gen7_gs_quad_point(q, p);
        const float h = GEN7_GS_QUAD_HALF;
        double x0 = to_screen(p[0] - h, size), x1 = to_screen(p[0] + h, size);
        double y0 = to_screen(p[1] - h, size), y1 = to_screen(p[1] + h, size);
        for (uint32_t y = 0; y < size; y++)
            for (uint32_t x = 0; x < size; x++) {
                double cx = x + 0.5, cy = y + 0.5;
                CU_ASSERT(cx != x0 && cx != x1 && cy != y0 && cy != y1);
                if (cx < x0 || cx > x1 || cy < y0 || cy > y1)
                    continue;
                covered++;
                double f = 0.5 + 0.5 * (cy - y0) / (y1 - y0);
                for (int c = 0; c < 3; c++)
                    want[(size_t)y * size + x][c] = gen7_unorm8(p[2 + c] * f);
            }
    }
    CU_ASSERT_EQUAL(covered, GEN7_GS_QUADS * 100u);     /* 10 x 10 pixels each */
    uint8_t *rgba = model_image(&r, size, size);
    uint64_t bad = 0;
    for (uint32_t i = 0; i < size * size; i++) {
        bool ok = true;
        for (int c = 0; c < 4; c++)
            ok = ok && abs((int)rgba[4 * i + c] - (int)want[i][c]) <= 2;
        if (!ok && bad++ < 4)
            fprintf(stderr, "\n  pixel (%u, %u): %u %u %u %u, expected %u %u %u %u ", i % size,
                    i / size, rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3],
                    want[i][0], want[i][1], want[i][2], want[i][3]);
    }
    CU_ASSERT_EQUAL(bad, 0);
    gen7_check_references(rgba, size, size, "gs", true);
    gen7_image_check_py(rgba, size, size, "gs");
    free(rgba);
    free(want);
    check_draw(&r, GEN7_GS_QUADS, 2 * GEN7_GS_QUADS, covered);
    /* sixteen objects, at most two a thread; four vertices and two
     * triangles each */
    check_dual_object_threads(&r, GEN7_GS_QUADS);
    const struct gen7_expected_stat gs[] = {
        { "gpu.gs.objects", GEN7_GS_QUADS },
        { "gpu.gs.vertices_out", 4 * GEN7_GS_QUADS },
        { "gpu.gs.primitives_out", 2 * GEN7_GS_QUADS },
        { "gpu.gs.partial_primitives", 0 },
        { "gpu.sf.primitives", 2 * GEN7_GS_QUADS },
    };
    gen7_check_stats(&r, gs, sizeof gs / sizeof gs[0]);
    gen7_run_free(&r);
}

/* The ext suite's xfb test on Gen7 ("xfb-tri"): with rendering disabled,
 * SOL writes per vertex o_a (4 floats) and o_b (1), interleaved at
 * GEN7_XFB_PITCH bytes, in the primitives' vertex order, and nothing past
 * them: the 30 floats must equal test_xfb's expectation worked out here
 * from the vertices (v * 2 + (1, 0, -1, 0.5) and x^2 + y^2 + i, exact in
 * single precision for these values), the other 10 keep -1234.5. The
 * query, read from memory as crocus reads it: the end snapshot less the
 * start snapshot of SO_NUM_PRIMS_WRITTEN0 is 2, the query marked landed.
 * Nothing is rasterized. */
static void test_xfb_tri(void)
{
    struct gen7_run r;
    if (!gen7_run_capture("xfb-tri", &r))
        return;
    const float v[GEN7_XFB_TRIANGLES * 3][4] = GEN7_XFB_VERTICES;
    float got[GEN7_XFB_BUFFER_FLOATS];
    uint32_t query[6];
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(r.sim), GPU_ADDRESS_SPACE_GTT_GEN6, 0);
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&as, GEN7_XFB_BUFFER_GTT, got, sizeof got, &err),
                          0);
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&as, GEN7_XFB_QUERY_GTT, query, sizeof query,
                                                 &err), 0);
    const uint32_t per_vertex = GEN7_XFB_PITCH / 4u, written = 3 * GEN7_XFB_TRIANGLES * per_vertex;
    CU_ASSERT_EQUAL(per_vertex, 5);
    CU_ASSERT_EQUAL(written, 30);
    uint32_t mismatches = 0, overrun = 0;
    for (uint32_t i = 0; i < GEN7_XFB_BUFFER_FLOATS; i++) {
        uint32_t n = i / per_vertex, c = i % per_vertex;
        const float add[4] = { 1.0f, 0.0f, -1.0f, 0.5f };
        float expect = i >= written ? GEN7_XFB_FILL
                     : c < 4        ? v[n][c] * 2.0f + add[c]
                                    : v[n][0] * v[n][0] + v[n][1] * v[n][1] + (float)n;
        if (got[i] != expect) {
            fprintf(stderr, "\n  float %u: %g, expected %g ", i, got[i], expect);
            if (i < written)
                mismatches++;
            else
                overrun++;
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_EQUAL(overrun, 0);
    /* the query: snapshots_landed 1 (a qword), start and end 64-bit, all
     * written over the fill */
    uint64_t start = query[2] | (uint64_t)query[3] << 32, end = query[4] | (uint64_t)query[5] << 32;
    CU_ASSERT_EQUAL(query[0], 1);
    CU_ASSERT_EQUAL(query[1], 0);
    CU_ASSERT_NOT_EQUAL(query[3], GEN7_XFB_QUERY_FILL);
    CU_ASSERT_NOT_EQUAL(query[5], GEN7_XFB_QUERY_FILL);
    if (end - start != GEN7_XFB_TRIANGLES)
        fprintf(stderr, "\n  query: start %llu, end %llu ", (unsigned long long)start,
                (unsigned long long)end);
    CU_ASSERT_EQUAL(end - start, GEN7_XFB_TRIANGLES);
    const struct gen7_expected_stat stats[] = {
        { "gpu.sol.objects_written", GEN7_XFB_TRIANGLES },
        { "gpu.sol.vertices_written", 3 * GEN7_XFB_TRIANGLES },
        { "gpu.sol.bytes_written", 3 * GEN7_XFB_TRIANGLES * GEN7_XFB_PITCH },
        { "gpu.sol.so_num_prims_written.0", GEN7_XFB_TRIANGLES },
        { "gpu.sol.so_write_offset.0", 3 * GEN7_XFB_TRIANGLES * GEN7_XFB_PITCH },
        { "gpu.sol.stopped.render_disabled", GEN7_XFB_TRIANGLES },
        { "gpu.sf.primitives", 0 },
    };
    gen7_check_stats(&r, stats, sizeof stats / sizeof stats[0]);
    gen7_run_free(&r);
}

/* Distance of (px, py) from the segment from a to b. */
static double segment_distance(const double a[2], const double b[2], double px, double py)
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    double t = ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = a[0] + t * dx - px, ey = a[1] + t * dy - py;
    return sqrt(ex * ex + ey * ey);
}

/* The tessellation capture: each triangle patch with every factor 2 and
 * INTEGER partitioning is, by seed 003's TE rules (L12735-12786), split
 * into 7 domain points (3 corners, the 3 edge midpoints, the inner ring
 * collapsed to the centre) and 6 triangles; the DS places point (U, V, W)
 * at U P0 + V P1 + W P2 and colours it (U, V, W, 1), so the image is each
 * patch triangle (the union of its pieces; shared edges covered once by the
 * top-left rule) coloured with the pixel centre's barycentric coordinates.
 * Pixels within one pixel of any segment between two of the 7 points are
 * near an edge. */
static void test_tess_tri(void)
{
    struct gen7_run r;
    if (!gen7_run_capture("tess-tri", &r))
        return;
    const float v[GEN7_TESS_PATCHES * 3][7] = GEN7_TESS_VERTICES;
    struct expected_image e = expected_new();
    for (uint32_t p = 0; p < GEN7_TESS_PATCHES; p++) {
        /* the patch triangle with the colours (1, 0, 0), (0, 1, 0), (0, 0, 1)
         * (alpha 1): painted, it gives each pixel (U, V, W, 1) */
        struct gen7_triangle t = { { 0 }, { 0 }, { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } } };
        double point[7][2];
        for (uint32_t k = 0; k < 3; k++) {
            t.x[k] = v[3 * p + k][0];
            t.y[k] = v[3 * p + k][1];
            point[k][0] = t.x[k];
            point[k][1] = t.y[k];
            point[3 + k][0] = (t.x[k] + t.x[(k + 1) % 3]) / 2;
            point[3 + k][1] = (t.y[k] + t.y[(k + 1) % 3]) / 2;
        }
        point[6][0] = (t.x[0] + t.x[1] + t.x[2]) / 3;
        point[6][1] = (t.y[0] + t.y[1] + t.y[2]) / 3;
        paint(&e, &t);
        /* near the pieces' edges too: any segment between two of the points */
        for (uint32_t y = 0; y < GEN7_GS_HEIGHT; y++)
            for (uint32_t x = 0; x < GEN7_GS_WIDTH; x++)
                for (int i = 0; i < 7; i++)
                    for (int j = i + 1; j < 7; j++)
                        if (segment_distance(point[i], point[j], x + 0.5, y + 0.5) < 1.0)
                            e.near[(size_t)y * GEN7_GS_WIDTH + x] = true;
    }
    check_image(&r, (const unsigned (*)[4])e.colour, e.near);
    check_draw(&r, 3 * GEN7_TESS_PATCHES, 6 * GEN7_TESS_PATCHES, e.covered);
    /* HS one thread a patch; TE 7 points and 6 triangles a patch; DS two
     * points a thread (SIMD4x2), 4 threads for each patch's 7 points */
    const struct gen7_expected_stat stats[] = {
        { "gpu.hs.patches", GEN7_TESS_PATCHES },
        { "gpu.hs.threads.dispatched", GEN7_TESS_PATCHES },
        { "gpu.te.patches", GEN7_TESS_PATCHES },
        { "gpu.te.culled_patches", 0 },
        { "gpu.te.domain_points", 7 * GEN7_TESS_PATCHES },
        { "gpu.te.output_primitives", 6 * GEN7_TESS_PATCHES },
        { "gpu.te.bad_factors", 0 },
        { "gpu.ds.simd4x2_threads", 4 * GEN7_TESS_PATCHES },
        { "gpu.sf.primitives", 6 * GEN7_TESS_PATCHES },
    };
    gen7_check_stats(&r, stats, sizeof stats / sizeof stats[0]);
    expected_free(&e);
    gen7_run_free(&r);
}

/* The model's only render target as RGBA8 (memory rows), width x height. */
static uint8_t *model_image(const struct gen7_run *r, uint32_t width, uint32_t height)
{
    struct unit *om = sim_find_unit(r->sim, "gpu.slice0.om");
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL_FATAL(list[0].width, width);
    CU_ASSERT_EQUAL_FATAL(list[0].height, height);
    uint64_t faults = 0;
    uint8_t *rgba = images_surface_rgba8(r->sim, &list[0], &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    CU_ASSERT_EQUAL(faults, 0);
    return rgba;
}

/* The ext suite's tess test on Gen7 ("tess-quad"): the quad patch with
 * every level 4 and INTEGER partitioning is a 5 x 5 grid of domain points
 * (u, v in steps of 1/4; seed 003 L12735-12786) and 32 triangles. The
 * position is bilinear in the corners, and the corners are an axis-aligned
 * square, so u and v are linear in the screen: at a covered pixel centre
 * (x, y) (memory row y = GL row y) u = (x_ndc + 0.8) / 1.6 and v likewise,
 * and red and green, interpolated from the points' exact u and v, are those
 * (within 2). The square's edges on screen are at 32 (1 +- 0.8) = 6.4 and
 * 57.6, so pixels 6-57 in both axes are covered, written once each (the
 * shared edges by the top-left rule), and the rest keep the clear (0.1 ->
 * 26). Blue is the interpolated parity of the grid vertex (iu + iv) & 1:
 * at the pixel nearest each of the 25 grid points within 60 of 255 parity
 * (one pixel from a point moves it at most 255 / 6.4 along an edge of
 * 12.8 pixels ... half that across). Then the references and probes. */
static void test_tess_quad(void)
{
    struct gen7_run r;
    if (!gen7_run_capture("tess-quad", &r))
        return;
    const uint32_t size = GEN7_TESS_QUAD_SIZE;
    uint8_t *rgba = model_image(&r, size, size);
    const float patch[8] = GEN7_TESS_QUAD_PATCH;
    const double lo = size / 2.0 * (1 + patch[0]), hi = size / 2.0 * (1 + patch[4]);
    uint64_t covered = 0, bad = 0;
    const unsigned clear = gen7_unorm8(GEN7_TESS_QUAD_CLEAR);
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            const uint8_t *p = rgba + 4 * ((size_t)y * size + x);
            double cx = x + 0.5, cy = y + 0.5;
            bool inside = cx >= lo && cx < hi && cy >= lo && cy < hi;
            unsigned want[4] = { clear, clear, clear, 255 };
            if (inside) {
                covered++;
                want[0] = gen7_unorm8((cx - lo) / (hi - lo));
                want[1] = gen7_unorm8((cy - lo) / (hi - lo));
                want[2] = p[2];         /* the parity, checked below */
            }
            bool ok = true;
            for (int c = 0; c < 4; c++)
                ok = ok && abs((int)p[c] - (int)want[c]) <= (inside ? 2 : 0);
            if (!ok && bad++ < 4)
                fprintf(stderr, "\n  pixel (%u, %u): %u %u %u %u, expected %u %u %u %u ", x, y,
                        p[0], p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(covered, 52u * 52u);
    for (int iu = 0; iu <= 4; iu++)
        for (int iv = 0; iv <= 4; iv++) {
            uint32_t x = (uint32_t)floor(lo + (hi - lo) * iu / 4.0);
            uint32_t y = (uint32_t)floor(lo + (hi - lo) * iv / 4.0);
            x = x >= (uint32_t)hi ? (uint32_t)hi - 1 : x;
            y = y >= (uint32_t)hi ? (uint32_t)hi - 1 : y;
            int blue = rgba[4 * ((size_t)y * size + x) + 2], parity = 255 * ((iu + iv) & 1);
            if (abs(blue - parity) > 60)
                fprintf(stderr, "\n  grid point (%d, %d) pixel (%u, %u): blue %d, parity %d ",
                        iu, iv, x, y, blue, parity);
            CU_ASSERT(abs(blue - parity) <= 60);
        }
    gen7_check_references(rgba, size, size, "tess", true);
    gen7_image_check_py(rgba, size, size, "tess");
    free(rgba);
    check_draw(&r, 4, 32, covered);
    const struct gen7_expected_stat stats[] = {
        { "gpu.hs.patches", 1 },
        { "gpu.hs.threads.dispatched", 1 },
        { "gpu.te.patches", 1 },
        { "gpu.te.domain_points", 25 },
        { "gpu.te.output_primitives", 32 },
        { "gpu.te.bad_factors", 0 },
        { "gpu.ds.simd4x2_threads", 13 },       /* 25 points, two a thread */
        { "gpu.sf.primitives", 32 },
    };
    gen7_check_stats(&r, stats, sizeof stats / sizeof stats[0]);
    gen7_run_free(&r);
}

static const struct test_case cases[] = {
    { "Gen7 GS capture (DUAL_OBJECT, each triangle twice) through gen7-vlv: image and stats",
      test_gs_twice },
    { "Gen7 ext gs scene (16 points in, strip quads out, 64x64): image, references and probes, "
      "stats",
      test_gs_quads },
    { "Gen7 ext xfb scene (vec4 + float interleaved, rasterizer discard, query): the 30 "
      "floats, no overrun, the query from memory, stats",
      test_xfb_tri },
    { "Gen7 tessellation capture (HS, TE, SIMD4x2 DS) through gen7-vlv: image and stats",
      test_tess_tri },
    { "Gen7 ext tess scene (quad patch, levels 4, QUAD domain, SIMD4x2 DS with sin): image, "
      "references and probes, stats",
      test_tess_quad },
    { 0 }
};
TEST_SUITE(gen7_3d, cases);
