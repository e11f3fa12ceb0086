/* tests/units/test_sf_setup.c - SF object setup (units/sf/sf_setup) against
 * results worked out here: quantization ties to even (seed 003 L14805-14818),
 * pixel coverage of hand-drawn triangles under the top-left rule, the
 * property that triangles sharing edges cover every pixel centre inside
 * their union exactly once (a convex polygon fanned from an inner point,
 * its inside decided here in double precision), face and degenerate
 * culling (L14820-14856), rectangle completion (L14797), the clip rectangle
 * (L14858-14870) and the depth plane. */
#include <math.h>
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

static const struct test_case cases[] = {
    { "quantization: ties to even, 4 and 8 bits, guardband clamp", test_quantize },
    { "a right triangle's coverage under the top-left rule", test_right_triangle_top_left },
    { "triangles sharing edges cover each pixel once", test_shared_edges_cover_once },
    { "face culling, winding and degenerate objects", test_face_and_degenerate_culling },
    { "rectangle completion, drawing rectangle, scissor, viewport extents",
      test_rectangle_and_clip_rectangle },
    { "depth and 1/w planes", test_depth_and_inverse_w_planes },
    { 0 }
};
TEST_SUITE(sf_setup, cases);
