/* tests/units/test_sf_setup.c - SF object setup (units/sf/sf_setup) against
 * results worked out here: quantization ties to even (seed 003 L14805-14818),
 * pixel coverage of hand-drawn triangles under the top-left rule, the
 * property that triangles sharing edges cover every pixel centre inside
 * their union exactly once (a convex polygon fanned from an inner point,
 * its inside decided here in double precision), face and degenerate
 * culling (L14820-14856), rectangle completion (L14797), the clip rectangle
 * (L14858-14870) and the depth plane. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "units/sf/sf_setup.h"

static struct sf_setup_state open_state(void)
{
    return (struct sf_setup_state){
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_min = 0, .clip_y_min = 0, .clip_x_max = 8191,
        .clip_y_max = 8191,
    };
}

static uint32_t count_covered(const struct setup_primitive *p, int32_t w, int32_t h)
{
    uint32_t n = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            n += sf_setup_covers(p, x, y, true);
    return n;
}

static void test_quantize(void)
{
    /* 8 bits: 1.5 and 2.5 subpixels round to 2 (ties to even), 3.5 to 4 */
    CU_ASSERT_EQUAL(sf_quantize(1.5 / 256, 8), 2);
    CU_ASSERT_EQUAL(sf_quantize(2.5 / 256, 8), 2);
    CU_ASSERT_EQUAL(sf_quantize(3.5 / 256, 8), 4);
    CU_ASSERT_EQUAL(sf_quantize(-2.5 / 256, 8), -2);
    CU_ASSERT_EQUAL(sf_quantize(10.25, 4), 164);
    CU_ASSERT_EQUAL(sf_quantize(10.03125, 4), 160);       /* 160.5 -> 160 */
    /* the guardband clamp [-32K, 32K-1] */
    CU_ASSERT_EQUAL(sf_quantize(-40000.0, 8), -32768 * 256);
    CU_ASSERT_EQUAL(sf_quantize(1e9, 8), 32767 * 256);
}

static void test_right_triangle_top_left(void)
{
    struct sf_setup_state st = open_state();
    /* (0,0) (4,0) (0,4): centres (i+.5, j+.5) with i + j < 3 are inside, the
     * six with i + j = 3 lie on the hypotenuse, whose inside is up and to
     * the left of it: neither a top nor a left edge, so they are out */
    struct sf_setup_vertex v[3] = { { 0, 0, 0.5f, 1 }, { 4, 0, 0.5f, 1 }, { 0, 4, 0.5f, 1 } };
    struct setup_primitive p;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_covered(&p, 8, 8), 6);
    CU_ASSERT_TRUE(sf_setup_covers(&p, 2, 0, true));
    CU_ASSERT_FALSE(sf_setup_covers(&p, 3, 0, true));
    CU_ASSERT_FALSE(sf_setup_covers(&p, 1, 2, true));
    /* the mirrored triangle (4,4) (0,4) (4,0) owns the hypotenuse: its inside
     * is below and to the right, a left edge */
    struct sf_setup_vertex m[3] = { { 4, 4, 0.5f, 1 }, { 0, 4, 0.5f, 1 }, { 4, 0, 0.5f, 1 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, m, false, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_covered(&p, 8, 8), 10);           /* 16 - 6 */
    CU_ASSERT_TRUE(sf_setup_covers(&p, 3, 0, true));
}

/* Whether point (x, y) is strictly inside (1), strictly outside (-1) or on
 * the boundary (0) of the convex polygon px/py (counter-clockwise in a Y-up
 * sense or not: the sign is taken from the polygon). */
static int convex_side(const double *px, const double *py, int n, double x, double y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        double c = (px[j] - px[i]) * (y - py[i]) - (py[j] - py[i]) * (x - px[i]);
        if (c > 0)
            pos++;
        else if (c < 0)
            neg++;
    }
    if (pos == n || neg == n)
        return 1;
    if (pos && neg)
        return -1;
    return 0;
}

static void test_shared_edges_cover_once(void)
{
    struct sf_setup_state st = open_state();
    srand(12345);
    for (int trial = 0; trial < 40; trial++) {
        /* a convex polygon: points on a circle at sorted angles, snapped to
         * quarter pixels so that many pixel centres fall on edges */
        int n = 3 + rand() % 6;
        double cx = 16 + rand() % 8, cy = 16 + rand() % 8, r = 4 + rand() % 10;
        double ang[8], px[8], py[8];
        for (int i = 0; i < n; i++)
            ang[i] = (double)i / n * 6.283185307 + (rand() % 100) / 400.0;
        for (int i = 0; i < n; i++) {
            px[i] = floor((cx + r * cos(ang[i])) * 4) / 4;
            py[i] = floor((cy + r * sin(ang[i])) * 4) / 4;
        }
        /* fan from the centre, which is inside */
        static uint8_t hits[48][48];
        memset(hits, 0, sizeof hits);
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            struct sf_setup_vertex v[3] = { { (float)cx, (float)cy, 0, 1 },
                                            { (float)px[i], (float)py[i], 0, 1 },
                                            { (float)px[j], (float)py[j], 0, 1 } };
            struct setup_primitive p;
            if (sf_setup_object(&st, v, false, &p) != SF_SETUP_OK)
                continue;           /* a degenerate sliver covers nothing */
            for (int y = 0; y < 48; y++)
                for (int x = 0; x < 48; x++)
                    hits[y][x] += sf_setup_covers(&p, x, y, true);
        }
        int bad = 0;
        for (int y = 0; y < 48; y++)
            for (int x = 0; x < 48; x++) {
                int side = convex_side(px, py, n, x + 0.5, y + 0.5);
                if (hits[y][x] > 1 || (side > 0 && hits[y][x] != 1) || (side < 0 && hits[y][x]))
                    bad++;
            }
        CU_ASSERT_EQUAL(bad, 0);
    }
}

static void test_face_and_degenerate_culling(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* (0,0) (4,0) (0,4) with Y down is counter-clockwise on the screen */
    struct sf_setup_vertex ccw[3] = { { 0, 0, 0, 1 }, { 0, 4, 0, 1 }, { 4, 0, 0, 1 } };
    struct sf_setup_vertex cw[3] = { { 0, 0, 0, 1 }, { 4, 0, 0, 1 }, { 0, 4, 0, 1 } };
    st.front_winding = SF_FRONT_CW;
    CU_ASSERT_EQUAL(sf_setup_object(&st, cw, false, &p), SF_SETUP_OK);
    CU_ASSERT_FALSE(p.flags & PRIM_BACK_FACING);
    CU_ASSERT_EQUAL(sf_setup_object(&st, ccw, false, &p), SF_SETUP_OK);
    CU_ASSERT_TRUE(p.flags & PRIM_BACK_FACING);
    st.cull_mode = SF_CULL_BACK;
    CU_ASSERT_EQUAL(sf_setup_object(&st, ccw, false, &p), SF_SETUP_CULLED_FACE);
    CU_ASSERT_EQUAL(sf_setup_object(&st, cw, false, &p), SF_SETUP_OK);
    st.cull_mode = SF_CULL_FRONT;
    CU_ASSERT_EQUAL(sf_setup_object(&st, cw, false, &p), SF_SETUP_CULLED_FACE);
    st.front_winding = SF_FRONT_CCW;
    CU_ASSERT_EQUAL(sf_setup_object(&st, cw, false, &p), SF_SETUP_OK);
    st.cull_mode = SF_CULL_BOTH;
    CU_ASSERT_EQUAL(sf_setup_object(&st, cw, false, &p), SF_SETUP_CULLED_FACE);
    st.cull_mode = SF_CULL_NONE;
    /* collinear, and two vertices that meet only after quantization */
    struct sf_setup_vertex line[3] = { { 0, 0, 0, 1 }, { 2, 2, 0, 1 }, { 5, 5, 0, 1 } };
    CU_ASSERT_EQUAL(sf_setup_object(&st, line, false, &p), SF_SETUP_DEGENERATE);
    struct sf_setup_vertex close[3] = { { 1, 1, 0, 1 }, { 1.0001f, 1, 0, 1 }, { 1, 6, 0, 1 } };
    CU_ASSERT_EQUAL(sf_setup_object(&st, close, false, &p), SF_SETUP_DEGENERATE);
}

static void test_rectangle_and_clip_rectangle(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* Mesa's blorp rectangle (2,2) (0,2) (0,0): the implied corner is (2,0),
     * and the centres inside [0,2) x [0,2) are pixels 0..1 x 0..1 */
    struct sf_setup_vertex r[3] = { { 2, 2, 0, 1 }, { 0, 2, 0, 1 }, { 0, 0, 0, 1 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, r, true, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.topology, PRIM_RECTLIST);
    CU_ASSERT_EQUAL(count_covered(&p, 8, 8), 4);
    CU_ASSERT_EQUAL(p.x_min, 0);
    CU_ASSERT_EQUAL(p.x_max, 1);
    /* a half-pixel rectangle edge through the centres: left in, right out */
    struct sf_setup_vertex h[3] = { { 3.5f, 2.5f, 0, 1 }, { 0.5f, 2.5f, 0, 1 }, { 0.5f, 0.5f, 0, 1 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, h, true, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.x_min, 0);
    CU_ASSERT_EQUAL(p.x_max, 2);
    CU_ASSERT_EQUAL(p.y_min, 0);
    CU_ASSERT_EQUAL(p.y_max, 1);
    /* the drawing rectangle origin moves it; the clipped rectangle cuts it */
    st.origin_x = 10;
    st.origin_y = 20;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, r, true, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.x_min, 10);
    CU_ASSERT_EQUAL(p.y_max, 21);
    st.clip_x_max = 10;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, r, true, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.x_max, 10);
    /* a scissor (relative to the origin) that misses it discards it */
    st.clip_x_max = 8191;
    st.scissor_enable = true;
    st.scissor_x_min = 5;
    st.scissor_y_min = 0;
    st.scissor_x_max = 9;
    st.scissor_y_max = 9;
    CU_ASSERT_EQUAL(sf_setup_object(&st, r, true, &p), SF_SETUP_OUTSIDE);
    /* viewport extents 0..63 keep a triangle reaching past 64 inside them */
    st = open_state();
    st.viewport_extents_enable = true;
    st.viewport_x_max = 63;
    st.viewport_y_max = 63;
    struct sf_setup_vertex big[3] = { { 0, 0, 0, 1 }, { 100, 0, 0, 1 }, { 0, 100, 0, 1 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, big, false, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.x_max, 63);
    CU_ASSERT_EQUAL(p.y_max, 63);
}

static void test_depth_and_inverse_w_planes(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* z = 0.25 + 0.125 dx - 0.0625 dy from (2,2); w = 1, 2, 4 */
    struct sf_setup_vertex v[3] = { { 2, 2, 0.25f, 1 }, { 10, 2, 0.25f + 1.0f, 2 },
                                    { 2, 10, 0.25f - 0.5f, 4 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a1, 0.125, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a2, -0.0625, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.inverse_w.a0, 1.0, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.inverse_w.a1, (0.5 - 1.0) / 8, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.inverse_w.a2, (0.25 - 1.0) / 8, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.x0, 2.0, 0);
}

/* The plane's value at pixel-space point (x, y). */
static double at(const struct setup_plane *pl, const struct setup_primitive *p, double x, double y)
{
    return pl->a0 + pl->a1 * (x - p->x0) + pl->a2 * (y - p->y0);
}

/* Barycentric weights of (x, y) in triangle t, from signed areas. */
static void weights(const double t[3][2], double x, double y, double w[3])
{
    double area = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]);
    for (int i = 0; i < 3; i++) {
        const double *a = t[(i + 1) % 3], *b = t[(i + 2) % 3];
        w[i] = ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) / area;
    }
}

static void test_barycentric_planes(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* vertices on whole subpixels (quantization leaves them) */
    const double t[3][2] = { { 3.25, 2.5 }, { 17.75, 6.0 }, { 6.5, 19.125 } };
    struct sf_setup_vertex v[3];
    for (int i = 0; i < 3; i++)
        v[i] = (struct sf_setup_vertex){ (float)t[i][0], (float)t[i][1], 0.5f, 1.0f + (float)i };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    const double probes[4][2] = { { 8, 8 }, { 10.5, 7.25 }, { 5, 12 }, { 3.25, 2.5 } };
    for (int k = 0; k < 4; k++) {
        double w[3];
        weights(t, probes[k][0], probes[k][1], w);
        CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, probes[k][0], probes[k][1]), w[1], 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[1], &p, probes[k][0], probes[k][1]), w[2], 1e-5);
    }
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, t[i][0], t[i][1]), i == 1, 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[1], &p, t[i][0], t[i][1]), i == 2, 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(p.vertex_inverse_w[i], 1.0 / (1 + i), 1e-7);
    }
    /* a strip's odd triangle counts its winding the other way (L14850) */
    struct sf_object o = { .type = SF_OBJECT_TRIANGLE };
    memcpy(o.v, v, sizeof o.v);
    st.front_winding = SF_FRONT_CW;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    bool back = (p.flags & PRIM_BACK_FACING) != 0;
    o.invert_orientation = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_NOT_EQUAL(back, (p.flags & PRIM_BACK_FACING) != 0);
}

static uint32_t count_in(const struct setup_primitive *p, int32_t w, int32_t h, int32_t *x0,
                         int32_t *y0, int32_t *x1, int32_t *y1)
{
    uint32_t n = 0;
    *x0 = *y0 = 1 << 20;
    *x1 = *y1 = -1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (sf_setup_covers(p, x, y, true)) {
                n++;
                *x0 = x < *x0 ? x : *x0;
                *y0 = y < *y0 ? y : *y0;
                *x1 = x > *x1 ? x : *x1;
                *y1 = y > *y1 ? y : *y1;
            }
    return n;
}

static void test_points(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    int32_t x0, y0, x1, y1;
    /* the strip_fan test's points: gl_PointSize 4 centred on a pixel corner
     * covers the 4x4 pixels whose centres lie within +-2 (no centre on an
     * edge, so both rules agree) */
    struct sf_object o = { .type = SF_OBJECT_POINT, .point_width = 4.0f };
    o.v[0] = (struct sf_setup_vertex){ 10, 20, 0.25f, 2 };
    for (int rule = 0; rule < 2; rule++) {
        st.point_rule_upper_right = rule;
        CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
        CU_ASSERT_EQUAL(p.topology, PRIM_POINTLIST);
        CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 16);
        CU_ASSERT(x0 == 8 && x1 == 11 && y0 == 18 && y1 == 21);
    }
    /* width 2 about a pixel centre: the square [9.5, 11.5] has centres on
     * its left and right edges; UPPER_LEFT keeps the left ones, UPPER_RIGHT
     * the right ones; both keep the top row and drop the bottom one */
    o.point_width = 2.0f;
    o.v[0] = (struct sf_setup_vertex){ 10.5f, 20.5f, 0.25f, 2 };
    st.point_rule_upper_right = false;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 4);
    CU_ASSERT(x0 == 9 && x1 == 10 && y0 == 19 && y1 == 20);
    st.point_rule_upper_right = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 4);
    CU_ASSERT(x0 == 10 && x1 == 11 && y0 == 19 && y1 == 20);
    /* b1, b2 run 0..1 across the square from its top-left corner; depth and 1/w constant */
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, 9.5, 19.5), 0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, 11.5, 21.5), 1, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[1], &p, 11.5, 21.5), 1, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[1], &p, 11.5, 20.5), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.depth, &p, 11, 21), 0.25, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.vertex_inverse_w[2], 0.5, 0);
    /* degenerate and absurd widths are counted, never drawn */
    o.point_width = 0.001f;             /* quantizes to nothing at 8 bits */
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_DEGENERATE);
    o.point_width = -1.0f;
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_BAD_WIDTH);
    o.point_width = NAN;
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_BAD_WIDTH);
    o.point_width = INFINITY;
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_BAD_WIDTH);
    o.point_width = 1e6f;               /* clamped to the guardband, then the clip rectangle */
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT(p.x_min == 0 && p.x_max == 8191);
}

static void test_lines(void)
{
    struct sf_setup_state st = open_state();
    st.line_width = 1.0f;
    struct setup_primitive p;
    int32_t x0, y0, x1, y1;
    /* horizontal through pixel centres (2.5, 5.5) -> (12.5, 5.5): the
     * parallelogram y in [5, 6], x in [2.5, 12.5]; the start's centre is on
     * the left edge (in), the end's on the right edge (out): pixels 2..11 */
    struct sf_object o = { .type = SF_OBJECT_LINE };
    o.v[0] = (struct sf_setup_vertex){ 2.5f, 5.5f, 0.0f, 1 };
    o.v[1] = (struct sf_setup_vertex){ 12.5f, 5.5f, 1.0f, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.topology, PRIM_LINELIST);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 10);
    CU_ASSERT(x0 == 2 && x1 == 11 && y0 == 5 && y1 == 5);
    /* along the line: b1 0 -> 1, depth 0 -> 1, constant across it */
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, 7.5, 5.5), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[0], &p, 7.5, 5.9), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.depth, &p, 12.5, 5.5), 1.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(at(&p.barycentric[1], &p, 12.5, 5.5), 0.0, 0);
    /* Last Pixel Enable draws the end's pixel too */
    o.last_pixel = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 11);
    CU_ASSERT_EQUAL(x1, 12);
    o.last_pixel = false;
    /* vertical (Y-major: widened along X): x in [5, 6], y in [2.5, 12.5], top in, bottom out */
    o.v[0] = (struct sf_setup_vertex){ 5.5f, 2.5f, 0.0f, 1 };
    o.v[1] = (struct sf_setup_vertex){ 5.5f, 12.5f, 0.0f, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 10);
    CU_ASSERT(x0 == 5 && x1 == 5 && y0 == 2 && y1 == 11);
    /* a diagonal is X-major (L14983): widened along Y, one pixel per column,
     * (i, i) for i = 0..7, checked pixel by pixel */
    o.v[0] = (struct sf_setup_vertex){ 0.5f, 0.5f, 0.0f, 1 };
    o.v[1] = (struct sf_setup_vertex){ 8.5f, 8.5f, 0.0f, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    uint32_t wrong = 0, n = 0;
    for (int32_t y = 0; y < 16; y++)
        for (int32_t x = 0; x < 16; x++) {
            bool in = sf_setup_covers(&p, x, y, true);
            n += in;
            wrong += in != (x == y && x < 8);
        }
    CU_ASSERT_EQUAL(n, 8);
    CU_ASSERT_EQUAL(wrong, 0);
    /* width 3 horizontal: three rows */
    st.line_width = 3.0f;
    o.v[0] = (struct sf_setup_vertex){ 2.5f, 5.5f, 0.0f, 1 };
    o.v[1] = (struct sf_setup_vertex){ 6.5f, 5.5f, 0.0f, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 12);
    CU_ASSERT(y0 == 4 && y1 == 6);
    /* zero width (cosmetic) is drawn as width 1; coincident endpoints are degenerate */
    st.line_width = 0.0f;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(count_in(&p, 32, 32, &x0, &y0, &x1, &y1), 4);
    o.v[1] = o.v[0];
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_DEGENERATE);
    /* an absurd width is clamped by the guardband, not a crash; a zero-size
     * viewport's extents leave nothing: outside */
    st.line_width = 1e30f;
    o.v[1] = (struct sf_setup_vertex){ 30.5f, 5.5f, 0.0f, 1 };
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT(p.y_min == 0 && p.y_max == 8191);
    st.line_width = 1;
    st.viewport_extents_enable = true;
    st.viewport_x_min = st.viewport_x_max = 100.25f;
    st.viewport_y_min = st.viewport_y_max = 100.25f;
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_OUTSIDE);
}

static void test_depth_offset(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* dz/dx = 0.125, dz/dy = -0.0625: MaxDepthSlope 0.125 */
    struct sf_setup_vertex v[3] = { { 2, 2, 0.25f, 1 }, { 10, 2, 1.25f, 1 }, { 2, 10, -0.25f, 1 } };
    st.depth_offset = true;
    st.depth_offset_constant = 2.0f;
    st.depth_offset_scale = 0.5f;
    st.depth_format = SF_DEPTH_D16_UNORM;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25 + 2.0 / 65535 + 0.5 * 0.125, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a1, 0.125, 1e-7);   /* the slope is unchanged */
    st.depth_format = SF_DEPTH_D24_UNORM_X8;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25 + 2.0 / 16777215 + 0.0625, 1e-7);
    /* D32_FLOAT: 2^(exponent(max z = 1.25) - 23) = 2^-23 */
    st.depth_format = SF_DEPTH_D32_FLOAT;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25 + 2.0 * ldexp(1, -23) + 0.0625, 1e-9);
    /* a positive clamp limits it; legacy makes r 1.0 */
    st.depth_offset_clamp = 0.01f;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.26, 1e-7);
    st.depth_offset_clamp = 0;
    st.legacy_depth_bias = true;
    st.depth_format = SF_DEPTH_D16_UNORM;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25 + 2.0 + 0.0625, 1e-6);
    /* not on rectangles (L15725: triangles only) */
    struct sf_setup_vertex r[3] = { { 2, 2, 0.5f, 1 }, { 0, 2, 0.5f, 1 }, { 0, 0, 0.5f, 1 } };
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, r, true, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.5, 0);
}

/* The three SF_INT enables (003 L15003-15015): the one of the triangle's
 * face's fill mode applies (3DSTATE_RASTER Front / Back Face Fill Mode). */
static void test_depth_offset_fill_mode_enables(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    /* clockwise on the screen: back-facing under CCW front winding; the same
     * vertices counter-clockwise (v0, v2, v1) face the front */
    struct sf_setup_vertex back[3] = { { 2, 2, 0.25f, 1 }, { 10, 2, 1.25f, 1 },
                                       { 2, 10, -0.25f, 1 } };
    struct sf_setup_vertex front[3] = { back[0], back[2], back[1] };
    st.depth_offset_scale = 1.0f;       /* bias = MaxDepthSlope = 0.125 */
    st.depth_format = SF_DEPTH_D16_UNORM;
    st.front_fill_mode = SF_FILL_SOLID;
    st.back_fill_mode = SF_FILL_WIREFRAME;
    st.depth_offset = true;             /* solid only */
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, front, false, &p), SF_SETUP_OK);
    CU_ASSERT_FALSE(p.flags & PRIM_BACK_FACING);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.375, 1e-7);
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, back, false, &p), SF_SETUP_OK);
    CU_ASSERT_TRUE(p.flags & PRIM_BACK_FACING);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25, 0);        /* wireframe: its enable is off */
    st.depth_offset_wireframe = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, back, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.375, 1e-7);
    /* point fill: the Point enable, whatever Solid and Wireframe say */
    st.back_fill_mode = SF_FILL_POINT;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, back, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25, 0);
    st.depth_offset_point = true;
    st.depth_offset = st.depth_offset_wireframe = false;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, back, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.375, 1e-7);
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, front, false, &p), SF_SETUP_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.depth.a0, 0.25, 0);        /* solid front: Solid is off now */
}

/* Multisample rasterization at the 4x pattern (seed 000 L3905-3929,
 * MSRASTMODE_ON_PATTERN): every pixel holding a sample point inside the
 * triangle (decided here in double precision at the standard 4x offsets)
 * must be a candidate, i.e. inside the box. The msaa scene's triangle
 * (tests/integration/test_gen7_ext.c) has its left vertex at x = 9.6:
 * pixel 9's centre lies left of it, its samples at x 9.875 and 9.625 need
 * not. */
static void test_sample_pattern_box(void)
{
    struct sf_setup_state st = open_state();
    st.sample_pattern_raster = true;
    const double position[4][2] = { { 0.375, 0.125 }, { 0.875, 0.375 }, { 0.125, 0.625 },
                                    { 0.625, 0.875 } };
    struct sf_setup_vertex v[3] = { { 9.6f, 12.8f, 0.5f, 1 }, { 57.6f, 25.6f, 0.5f, 1 },
                                    { 25.6f, 57.6f, 0.5f, 1 } };
    struct setup_primitive p;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    double px[3], py[3];
    for (int k = 0; k < 3; k++) {
        px[k] = (double)sf_quantize(v[k].x, 8) / 256;
        py[k] = (double)sf_quantize(v[k].y, 8) / 256;
    }
    uint32_t outside_box = 0, with_samples = 0;
    for (int32_t y = 0; y < 64; y++)
        for (int32_t x = 0; x < 64; x++) {
            bool any = false;
            for (int k = 0; k < 4; k++)
                any = any || convex_side(px, py, 3, x + position[k][0], y + position[k][1]) > 0;
            with_samples += any;
            outside_box += any && (x < p.x_min || x > p.x_max || y < p.y_min || y > p.y_max);
        }
    CU_ASSERT(with_samples > 1000);
    CU_ASSERT_EQUAL(outside_box, 0);
    CU_ASSERT_EQUAL(p.x_min, 9);
    /* single-sampled: only pixels whose centre may be inside */
    st.sample_pattern_raster = false;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.x_min, 10);
}

static const struct test_case cases[] = {
    { "quantization: ties to even, 4 and 8 bits, guardband clamp", test_quantize },
    { "a right triangle's coverage under the top-left rule", test_right_triangle_top_left },
    { "triangles sharing edges cover each pixel once", test_shared_edges_cover_once },
    { "face culling, winding and degenerate objects", test_face_and_degenerate_culling },
    { "rectangle completion, drawing rectangle, scissor, viewport extents",
      test_rectangle_and_clip_rectangle },
    { "depth and 1/w planes", test_depth_and_inverse_w_planes },
    { "barycentric planes against area ratios; strip orientation", test_barycentric_planes },
    { "points: 4x4 on a pixel corner, the point rasterization rules, widths", test_points },
    { "lines: horizontal, vertical, diagonal, wide, last pixel, degenerate", test_lines },
    { "global depth offset for UNORM and float depth, clamp, legacy", test_depth_offset },
    { "global depth offset: the Solid, Wireframe and Point enables by fill mode",
      test_depth_offset_fill_mode_enables },
    { "multisample rasterization: every pixel with a sample inside is a candidate (model fix)",
      test_sample_pattern_box },
    { 0 }
};
TEST_SUITE(sf_setup, cases);
