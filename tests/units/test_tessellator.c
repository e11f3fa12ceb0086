/* tests/units/test_tessellator.c - the TE's tessellation library against
 * values worked out here, independently of its code paths:
 *  - counts from the geometry of the patterns (a regular (N+1)^2 grid for a
 *    QUAD with every factor N; concentric rings of 3s points for a TRI;
 *    density x (detail + 1) points for ISOLINEs with no line at V = 1, seed 003
 *    L12781-12786);
 *  - every result checked as a triangulation: the triangles' areas add up to
 *    the domain's area, all wind the same way, every point is used;
 *  - 1D positions from the D3D11 partitioning rules (seed 003 L12745-12753;
 *    D3D11 reference tessellator: the half factor's floor and ceil
 *    tessellations blended by its fraction, the split point, the mirrored
 *    second half) computed in double precision and compared within the
 *    16.16 rounding the hardware does (the 1/n reciprocals are rounded to
 *    2^-16, so a point k segments out may be k/2 x 2^-16 off);
 *  - culling and clamping rules of seed 003 L12735-12743 and the D3D11
 *    limits ([1, 63] odd, [2, 64] even, [1, 64] integer). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "units/te/tessellator.h"

#define TOLERANCE (20.0 / 65536.0)

static struct tess_result *result_new(void)
{
    struct tess_result *r = calloc(1, sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    return r;
}

static void run(struct tess_result *r, uint32_t domain, uint32_t partitioning, uint32_t topology,
                float o0, float o1, float o2, float o3, float i0, float i1)
{
    struct tess_config c = { .domain = domain, .partitioning = partitioning, .output_topology = topology };
    struct tess_factors f = { { o0, o1, o2, o3 }, { i0, i1 } };
    tessellate(&c, &f, r);
}

static double signed_area(const struct tess_result *r, uint32_t t)
{
    uint32_t a = r->indices[t], b = r->indices[t + 1], c = r->indices[t + 2];
    return 0.5 * (((double)r->u[b] - r->u[a]) * ((double)r->v[c] - r->v[a]) -
                  ((double)r->u[c] - r->u[a]) * ((double)r->v[b] - r->v[a]));
}

/* The triangles tile the domain (area 1 or 1/2), none against the sign `sign`
 * (+1: "clockwise" as D3D11 defines it, the minimal patch's (0,0), (1,0),
 * (0,1), positive in (u, v)); every point in [0, 1] and used. */
static void check_triangulation(const struct tess_result *r, double domain_area, int sign)
{
    CU_ASSERT_EQUAL_FATAL(r->index_count % 3, 0);
    double total = 0;
    uint32_t wrong = 0;
    for (uint32_t t = 0; t < r->index_count; t += 3) {
        CU_ASSERT_TRUE_FATAL(r->indices[t] < r->point_count && r->indices[t + 1] < r->point_count &&
                             r->indices[t + 2] < r->point_count);
        double a = signed_area(r, t);
        if (a * sign < -1e-12)      /* degenerate (zero-area) triangles occur: factor-1 rings */
            wrong++;
        total += fabs(a);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_DOUBLE_EQUAL(total, domain_area, 1e-6);
    bool *used = calloc(r->point_count, sizeof *used);
    for (uint32_t i = 0; i < r->index_count; i++)
        used[r->indices[i]] = true;
    uint32_t unused = 0, outside = 0;
    for (uint32_t p = 0; p < r->point_count; p++) {
        unused += !used[p];
        outside += !(r->u[p] >= 0 && r->u[p] <= 1 && r->v[p] >= 0 && r->v[p] <= 1 &&
                     r->u[p] + (domain_area < 1 ? r->v[p] : 0) <= 1);
    }
    free(used);
    CU_ASSERT_EQUAL(unused, 0);
    CU_ASSERT_EQUAL(outside, 0);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The coordinate `along` (0: u, 1: v) of the points whose other coordinate
 * is `at` (exactly), sorted; returns how many. */
static uint32_t edge_points(const struct tess_result *r, int along, float at, double *out)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < r->point_count; p++) {
        float other = along ? r->u[p] : r->v[p];
        if (other == at)
            out[n++] = along ? r->v[p] : r->u[p];
    }
    qsort(out, n, sizeof *out, by_double);
    return n;
}

/* ---- the 1D rules in double precision ------------------------------------------ */

static int clear_top_bit(int n)
{
    int top = 1;
    while (top * 2 <= n)
        top *= 2;
    return n > 0 ? n - top : 0;
}

/* Positions along an edge with fractional factor f (already within limits),
 * from the D3D11 rules: EVEN: half factor h = f/2; ODD: h = f/2 + 1/2 (the
 * middle segment straddles 1/2). The half edge at floor(h) and ceil(h)
 * (2h or 2h - 1 segments), blended by h's fraction; points past the split
 * point stand one segment behind on the floor tessellation. */
static uint32_t expected_positions(double f, bool odd, double *out)
{
    double h = odd ? f / 2 + 0.5 : f / 2;
    int fl = (int)floor(h), ce = (int)ceil(h);
    double frac = h - fl;
    int floor_segments = odd ? 2 * fl - 1 : 2 * fl, ceil_segments = odd ? 2 * ce - 1 : 2 * ce;
    int split = fl == ce ? ce + 1 : odd ? (fl == 1 ? 0 : clear_top_bit(fl - 1) * 2 + 1)
                                        : clear_top_bit(fl) * 2 + 1;
    uint32_t n = 0;
    double half[40];
    for (int k = 0; k < ce; k++) {
        int k_floor = k > split ? k - 1 : k;
        half[k] = (1 - frac) * k_floor / floor_segments + frac * (double)k / ceil_segments;
    }
    for (int k = 0; k < ce; k++)
        out[n++] = half[k];
    if (!odd)
        out[n++] = 0.5;
    for (int k = ce - 1; k >= 0; k--)
        out[n++] = 1 - half[k];
    return n;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_fixed_point_conversion(void)
{
    /* round to nearest, ties to even, at 2^-16 */
    const float values[] = { 1.0f, 1.5f, 3.3f, 63.999f, 64.0f, 0.25f, 1.0f + 1.0f / 131072.0f,
                             1.0f + 3.0f / 131072.0f, 17.123456f, 2.0f / 3.0f };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        CU_ASSERT_EQUAL(tess_fixed_from_float(values[i]), (uint32_t)nearbyint((double)values[i] * 65536.0));
    CU_ASSERT_EQUAL(tess_fixed_from_float(1.0f + 1.0f / 131072.0f), 65536u);       /* tie -> even */
    CU_ASSERT_EQUAL(tess_fixed_from_float(1.0f + 3.0f / 131072.0f), 65538u);       /* tie -> even */
    CU_ASSERT_EQUAL(tess_fixed_from_float(NAN), 0u);
    CU_ASSERT_EQUAL(tess_fixed_from_float(-2.0f), 0u);
    CU_ASSERT_EQUAL(tess_fixed_from_float(1e-9f), 0u);
}

static void test_quad_integer_grid(void)
{
    struct tess_result *r = result_new();
    const int factors[] = { 1, 2, 3, 4, 5, 7, 8, 16, 31, 63, 64 };
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        int n = factors[i];
        float f = (float)n;
        run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, f, f, f, f, f, f);
        CU_ASSERT_FALSE(r->culled);
        CU_ASSERT_EQUAL(r->point_count, (uint32_t)((n + 1) * (n + 1)));
        CU_ASSERT_EQUAL(r->index_count, (uint32_t)(2 * n * n * 3));
        CU_ASSERT_EQUAL(r->vertices_per_primitive, 3);
        check_triangulation(r, 1.0, +1);
        /* every point on the grid (i/N, j/N), each grid point once */
        uint32_t off_grid = 0;
        int *hits = calloc((size_t)((n + 1) * (n + 1)), sizeof *hits);
        for (uint32_t p = 0; p < r->point_count; p++) {
            int gu = (int)lround(r->u[p] * n), gv = (int)lround(r->v[p] * n);
            if (fabs(r->u[p] - (double)gu / n) > TOLERANCE || fabs(r->v[p] - (double)gv / n) > TOLERANCE)
                off_grid++;
            else
                hits[gu * (n + 1) + gv]++;
        }
        CU_ASSERT_EQUAL(off_grid, 0);
        uint32_t not_once = 0;
        for (int k = 0; k < (n + 1) * (n + 1); k++)
            not_once += hits[k] != 1;
        CU_ASSERT_EQUAL(not_once, 0);
        free(hits);
        /* the corners and the edges' ends are exact */
        double edge[80];
        CU_ASSERT_EQUAL(edge_points(r, 0, 0.0f, edge), (uint32_t)n + 1);     /* V = 0 */
        CU_ASSERT_EQUAL(edge[0], 0.0);
        CU_ASSERT_EQUAL(edge[n], 1.0);
    }
    free(r);
}

static void test_quad_mixed_integer_edges(void)
{
    /* each outside edge has its own factor: UEQ0 is the U = 0 edge, VEQ0 the
     * V = 0 edge, UEQ1 U = 1, VEQ1 V = 1 (seed 003 L12761) */
    struct tess_result *r = result_new();
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CCW, 1, 2, 3, 4, 5, 6);
    check_triangulation(r, 1.0, -1);
    double e[80];
    CU_ASSERT_EQUAL(edge_points(r, 1, 0.0f, e), 2);     /* U = 0: 1 segment */
    CU_ASSERT_EQUAL(edge_points(r, 0, 0.0f, e), 3);     /* V = 0: 2 segments */
    CU_ASSERT_DOUBLE_EQUAL(e[1], 0.5, TOLERANCE);
    CU_ASSERT_EQUAL(edge_points(r, 1, 1.0f, e), 4);     /* U = 1: 3 */
    CU_ASSERT_DOUBLE_EQUAL(e[1], 1.0 / 3, TOLERANCE);
    CU_ASSERT_DOUBLE_EQUAL(e[2], 2.0 / 3, TOLERANCE);
    CU_ASSERT_EQUAL(edge_points(r, 0, 1.0f, e), 5);     /* V = 1: 4 */
    /* inside: 5 segments along U and 6 along V: a (5-1) x (6-1) grid of
     * inside points plus the outside ring's 1+2+3+4 */
    CU_ASSERT_EQUAL(r->point_count, 10u + 4u * 5u);
    free(r);
}

/* Points of a TRI with every factor N: rings of 3s points, s = N, N-2, ...,
 * and the centre when N is even; triangles: 3 (2s - 2) between rings of s
 * and s - 2 segments, one in the middle when N is odd. */
static void test_tri_integer(void)
{
    struct tess_result *r = result_new();
    run(r, TESS_DOMAIN_TRI, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 1, 1, 1, 0, 1, 0);
    CU_ASSERT_EQUAL(r->point_count, 3);
    CU_ASSERT_EQUAL(r->index_count, 3);
    check_triangulation(r, 0.5, +1);
    for (int n = 2; n <= 64; n++) {
        float f = (float)n;
        run(r, TESS_DOMAIN_TRI, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, f, f, f, 0, f, 0);
        uint32_t points = n % 2 == 0 ? 1 : 0, triangles = n % 2 == 1 ? 1 : 0;
        for (int s = n; s >= 1; s -= 2)
            points += 3u * (uint32_t)s;
        for (int s = n; s >= 2; s -= 2)
            triangles += 3u * (uint32_t)(2 * s - 2);
        CU_ASSERT_EQUAL(r->point_count, points);
        CU_ASSERT_EQUAL(r->index_count, 3 * triangles);
        check_triangulation(r, 0.5, +1);
    }
    /* edges: U = 0 gets UEQ0, V = 0 VEQ0, W = 0 (u + v = 1) WEQ0 */
    run(r, TESS_DOMAIN_TRI, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CCW, 2, 3, 5, 0, 4, 0);
    check_triangulation(r, 0.5, -1);
    double e[80];
    CU_ASSERT_EQUAL(edge_points(r, 1, 0.0f, e), 3);
    CU_ASSERT_EQUAL(edge_points(r, 0, 0.0f, e), 4);
    uint32_t w0 = 0;
    for (uint32_t p = 0; p < r->point_count; p++)
        w0 += r->fixed_u[p] + r->fixed_v[p] == TESS_FIXED_ONE;
    CU_ASSERT_EQUAL(w0, 6);
    free(r);
}

/* Worked by hand from the rules (tessellator.h): TRI, INTEGER, every factor
 * 2. Outside ring from V = 1 down U = 0, along V = 0, back along W = 0, each
 * edge's midpoint at exactly 1/2; an even inside factor leaves the centre
 * (0x5555 / 2^16 each). Stitching the outside ring (1 segment per half edge)
 * to the centre (no inside segment) advances the outside row only: a fan,
 * edge by edge, the last triangle wrapping to point 0. */
static void test_tri_two_by_hand(void)
{
    struct tess_result *r = result_new();
    run(r, TESS_DOMAIN_TRI, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 2, 2, 2, 0, 2, 0);
    const float u[7] = { 0, 0, 0, 0.5f, 1, 0.5f, 21845.0f / 65536.0f };
    const float v[7] = { 1, 0.5f, 0, 0, 0, 0.5f, 21845.0f / 65536.0f };
    const uint16_t fan[18] = { 0, 1, 6, 1, 2, 6, 2, 3, 6, 3, 4, 6, 4, 5, 6, 5, 0, 6 };
    CU_ASSERT_EQUAL_FATAL(r->point_count, 7);
    CU_ASSERT_EQUAL_FATAL(r->index_count, 18);
    CU_ASSERT_EQUAL(memcmp(r->u, u, sizeof u), 0);
    CU_ASSERT_EQUAL(memcmp(r->v, v, sizeof v), 0);
    CU_ASSERT_EQUAL(memcmp(r->indices, fan, sizeof fan), 0);
    free(r);
}

static void test_isolines(void)
{
    struct tess_result *r = result_new();
    /* density 3 lines (V = 0, 1/3, 2/3; none at V = 1), detail 4 segments */
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE, 3, 4, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(r->point_count, 3u * 5u);
    CU_ASSERT_EQUAL(r->index_count, 3u * 4u * 2u);
    CU_ASSERT_EQUAL(r->vertices_per_primitive, 2);
    uint32_t wrong = 0;
    for (uint32_t t = 0; t < r->index_count; t += 2) {
        uint32_t a = r->indices[t], b = r->indices[t + 1];
        /* each segment along U at constant V, one detail step long */
        wrong += r->v[a] != r->v[b] || fabs(r->u[b] - r->u[a] - 0.25) > TOLERANCE;
        wrong += r->v[a] >= 1.0f;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->v[0], 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->v[5], 1.0 / 3, TOLERANCE);
    CU_ASSERT_DOUBLE_EQUAL(r->v[10], 2.0 / 3, TOLERANCE);
    /* points: the segment ends, each once */
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_POINT, 3, 4, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(r->index_count, 15);
    CU_ASSERT_EQUAL(r->vertices_per_primitive, 1);
    /* density is always rounded up to an integer, even with fractional
     * partitioning; a fractional odd detail of 2.5 makes 3 segments */
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_LINE, 2.3f, 2.5f, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(r->point_count, 3u * 4u);
    CU_ASSERT_EQUAL(r->index_count, 3u * 3u * 2u);
    /* density 1: one line at V = 0 */
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE, 1, 1, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(r->point_count, 2);
    CU_ASSERT_EQUAL(r->index_count, 2);
    free(r);
}

static void check_fractional_edge(struct tess_result *r, uint32_t partitioning, float f)
{
    bool odd = partitioning == TESS_PARTITION_ODD_FRACTIONAL;
    run(r, TESS_DOMAIN_QUAD, partitioning, TESS_OUTPUT_TRI_CW, f, f, f, f, f, f);
    double want[140], got[140];
    uint32_t n = expected_positions(f, odd, want);
    uint32_t segments = n - 1;
    /* a regular grid of the rounded-up segment count: even or odd */
    CU_ASSERT_EQUAL(segments % 2, odd ? 1u : 0u);
    CU_ASSERT_TRUE(segments >= f && segments < f + 2);
    CU_ASSERT_EQUAL(r->point_count, n * n);
    CU_ASSERT_EQUAL(r->index_count, 6 * segments * segments);
    check_triangulation(r, 1.0, +1);
    /* the four edges carry the same positions */
    for (int along = 0; along < 2; along++) {
        for (int side = 0; side < 2; side++) {
            CU_ASSERT_EQUAL_FATAL(edge_points(r, along, (float)side, got), n);
            uint32_t off = 0;
            for (uint32_t k = 0; k < n; k++)
                off += fabs(got[k] - want[k]) > TOLERANCE;
            CU_ASSERT_EQUAL(off, 0);
        }
    }
}

static void test_fractional_positions(void)
{
    struct tess_result *r = result_new();
    /* worked by hand: EVEN 3.0 -> h = 1.5 between 1 (2 segments) and 2 (4
     * segments), blend 1/2: point 1 at 1/2 x 1/2 + 1/2 x 1/4 = 0.375, the
     * midpoint, and the mirror: 0, 0.375, 0.5, 0.625, 1, exactly */
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_EVEN_FRACTIONAL, TESS_OUTPUT_TRI_CW, 3, 3, 3, 3, 3, 3);
    double e[80];
    CU_ASSERT_EQUAL_FATAL(edge_points(r, 0, 0.0f, e), 5);
    CU_ASSERT_EQUAL(e[1], 0.375);
    CU_ASSERT_EQUAL(e[2], 0.5);
    CU_ASSERT_EQUAL(e[3], 0.625);
    const float even[] = { 2.0f, 2.5f, 3.7f, 4.0f, 5.3f, 9.99f, 17.25f, 33.3f, 63.1f, 64.0f };
    const float odd[] = { 1.5f, 2.2f, 3.0f, 4.6f, 5.0f, 8.4f, 15.5f, 31.9f, 47.75f, 63.0f };
    for (size_t i = 0; i < sizeof even / sizeof even[0]; i++)
        check_fractional_edge(r, TESS_PARTITION_EVEN_FRACTIONAL, even[i]);
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        check_fractional_edge(r, TESS_PARTITION_ODD_FRACTIONAL, odd[i]);
    free(r);
}

static void test_winding(void)
{
    struct tess_result *cw = result_new(), *ccw = result_new();
    run(cw, TESS_DOMAIN_QUAD, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_TRI_CW, 3.5f, 7, 2.2f, 9, 4.4f, 6);
    run(ccw, TESS_DOMAIN_QUAD, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_TRI_CCW, 3.5f, 7, 2.2f, 9, 4.4f, 6);
    check_triangulation(cw, 1.0, +1);
    check_triangulation(ccw, 1.0, -1);
    CU_ASSERT_EQUAL_FATAL(cw->index_count, ccw->index_count);
    uint32_t differ = 0;
    for (uint32_t t = 0; t < cw->index_count; t += 3)
        differ += cw->indices[t] != ccw->indices[t] || cw->indices[t + 1] != ccw->indices[t + 2] ||
                  cw->indices[t + 2] != ccw->indices[t + 1];
    CU_ASSERT_EQUAL(differ, 0);
    /* the minimal quad: (0,0), (1,0), (1,1), (0,1); triangles 0-1-3 and 1-2-3 */
    run(cw, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 1, 1, 1, 1, 1, 1);
    CU_ASSERT_EQUAL(cw->point_count, 4);
    const uint16_t want[6] = { 0, 1, 3, 1, 2, 3 };
    CU_ASSERT_EQUAL(cw->index_count, 6);
    CU_ASSERT_EQUAL(memcmp(cw->indices, want, sizeof want), 0);
    CU_ASSERT_EQUAL(cw->u[1], 1.0f);
    CU_ASSERT_EQUAL(cw->v[1], 0.0f);
    free(cw);
    free(ccw);
}

static void test_culling_and_clamping(void)
{
    struct tess_result *r = result_new();
    /* an outside factor <= 0 or NaN culls (seed 003 L12737) */
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 4, 0, 4, 4, 4, 4);
    CU_ASSERT_TRUE(r->culled);
    CU_ASSERT_EQUAL(r->point_count, 0);
    CU_ASSERT_EQUAL(r->index_count, 0);
    run(r, TESS_DOMAIN_TRI, TESS_PARTITION_EVEN_FRACTIONAL, TESS_OUTPUT_TRI_CW, 4, 4, -1, 0, 4, 0);
    CU_ASSERT_TRUE(r->culled);
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE, NAN, 4, 0, 0, 0, 0);
    CU_ASSERT_TRUE(r->culled);
    CU_ASSERT_EQUAL(r->bad_factors, 1);
    /* inside factors never cull: 0 and NaN are raised to the minimum */
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 2, 2, 2, 2, 0, NAN);
    CU_ASSERT_FALSE(r->culled);
    check_triangulation(r, 1.0, +1);
    /* above 64: clamped (INTEGER and EVEN to 64, ODD to 63) and counted */
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_TRI_CW, 100, 100, 100, 100, 1000, INFINITY);
    CU_ASSERT_EQUAL(r->point_count, 65u * 65u);
    CU_ASSERT_EQUAL(r->index_count, 6u * 64u * 64u);
    CU_ASSERT_EQUAL(r->bad_factors, 6);
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_TRI_CW, 70, 70, 70, 70, 70, 70);
    CU_ASSERT_EQUAL(r->point_count, 64u * 64u);
    run(r, TESS_DOMAIN_ISOLINE, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE, 100, 100, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(r->point_count, 64u * 65u);
    /* below the minimum: EVEN rounds 1 up to 2 (a 2 x 2 grid); INTEGER and
     * ODD all-ones give the minimal patch */
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_EVEN_FRACTIONAL, TESS_OUTPUT_TRI_CW, 1, 1, 1, 1, 1, 1);
    CU_ASSERT_EQUAL(r->point_count, 9);
    CU_ASSERT_EQUAL(r->index_count, 3u * 8u);
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_ODD_FRACTIONAL, TESS_OUTPUT_TRI_CW, 0.5f, 1, 1, 1, 0.2f, 1);
    CU_ASSERT_EQUAL(r->point_count, 4);
    CU_ASSERT_EQUAL(r->index_count, 6);
    /* 3DSTATE_TE's maximum (Not Odd here) is a further min() (L12741) */
    struct tess_config c = { .domain = TESS_DOMAIN_QUAD, .partitioning = TESS_PARTITION_INTEGER,
                             .output_topology = TESS_OUTPUT_TRI_CW, .max_factor_odd = 63,
                             .max_factor_not_odd = 16 };
    struct tess_factors f = { { 64, 64, 64, 64 }, { 64, 64 } };
    tessellate(&c, &f, r);
    CU_ASSERT_EQUAL(r->point_count, 17u * 17u);
    CU_ASSERT_EQUAL(r->bad_config, 0);
    c.max_factor_not_odd = 100;     /* beyond the D3D11 limit: kept at 64, reported */
    tessellate(&c, &f, r);
    CU_ASSERT_EQUAL(r->point_count, 65u * 65u);
    CU_ASSERT_EQUAL(r->bad_config, 1);
    /* an unknown domain tessellates nothing */
    c.domain = 3;
    tessellate(&c, &f, r);
    CU_ASSERT_TRUE(r->culled);
    CU_ASSERT_EQUAL(r->bad_config, 1);
    free(r);
}

static void test_point_and_line_output(void)
{
    struct tess_result *r = result_new();
    run(r, TESS_DOMAIN_QUAD, TESS_PARTITION_INTEGER, TESS_OUTPUT_POINT, 3, 3, 3, 3, 3, 3);
    CU_ASSERT_EQUAL(r->point_count, 16);
    CU_ASSERT_EQUAL(r->index_count, 16);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < r->index_count; i++)
        wrong += r->indices[i] != i;
    CU_ASSERT_EQUAL(wrong, 0);
    run(r, TESS_DOMAIN_TRI, TESS_PARTITION_INTEGER, TESS_OUTPUT_LINE, 3, 3, 3, 0, 3, 0);
    CU_ASSERT_EQUAL(r->point_count, 12);
    CU_ASSERT_EQUAL(r->index_count, 2u * 11u);
    CU_ASSERT_EQUAL(r->vertices_per_primitive, 2);
    free(r);
}

/* Many factor combinations: each result is a proper triangulation. */
static void test_every_combination_tiles(void)
{
    struct tess_result *r = result_new();
    const float values[] = { 0.3f, 1, 1.5f, 2, 2.3f, 3, 3.7f, 4, 5, 5.5f, 6, 7, 8, 9.9f,
                             13, 16, 17, 31.2f, 32, 33, 47, 63, 64, 80 };
    const uint32_t nv = sizeof values / sizeof values[0];
    uint32_t seed = 12345;
    for (uint32_t it = 0; it < 1500; it++) {
        float f[6];
        for (int k = 0; k < 6; k++) {
            seed = seed * 1664525u + 1013904223u;
            f[k] = values[(seed >> 8) % nv];
        }
        uint32_t part = it % 3;
        run(r, TESS_DOMAIN_QUAD, part, TESS_OUTPUT_TRI_CW, f[0], f[1], f[2], f[3], f[4], f[5]);
        check_triangulation(r, 1.0, +1);
        run(r, TESS_DOMAIN_TRI, part, TESS_OUTPUT_TRI_CCW, f[0], f[1], f[2], 0, f[4], 0);
        check_triangulation(r, 0.5, -1);
    }
    free(r);
}

static const struct test_case cases[] = {
    { "16.16 conversion rounds to nearest even", test_fixed_point_conversion },
    { "QUAD, INTEGER, every factor N: the (N+1)^2 grid", test_quad_integer_grid },
    { "QUAD, INTEGER, one factor per edge", test_quad_mixed_integer_edges },
    { "TRI, INTEGER: concentric rings", test_tri_integer },
    { "TRI, factor 2, worked by hand", test_tri_two_by_hand },
    { "ISOLINE: density lines of detail segments", test_isolines },
    { "fractional even and odd positions", test_fractional_positions },
    { "CW and CCW wind opposite ways", test_winding },
    { "culling, clamping and 3DSTATE_TE maxima", test_culling_and_clamping },
    { "point and line output", test_point_and_line_output },
    { "every factor combination tiles the domain", test_every_combination_tiles },
    { 0 }
};
TEST_SUITE(tessellator, cases);
