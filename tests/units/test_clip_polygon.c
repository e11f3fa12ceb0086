/* tests/units/test_clip_polygon.c - the clipper's arithmetic (units/clip/
 * clip_polygon.h): VertexClipTest outcodes, ClipDetermination, the ClipMode
 * table and the clipper. Expected outcodes are read off the seed's pseudocode
 * (003 L13921-14121, L14133-14225, L14235-14281) for positions chosen by hand;
 * expected cut points are computed here from the edge parameter
 * t = d_in / (d_in - d_out) of the plane crossed (for x = w:
 * t = (w0 - x0) / ((w0 - x0) - (w1 - x1)), v0 inside). */
#include "../test.h"

#include <math.h>
#include <string.h>

#include "units/clip/clip_polygon.h"

static const float no_dist[CLIP_DISTANCES] = { 0 };

/* Viewport XY test only (guardband coincident), OpenGL. */
static struct clip_test_config vp_only(void)
{
    struct clip_test_config c;
    memset(&c, 0, sizeof c);
    c.viewport_xy = true;
    c.gb_xmin = c.gb_ymin = -1.0f;
    c.gb_xmax = c.gb_ymax = 1.0f;
    return c;
}

static struct clip_point point(float x, float y, float z, float w, int source)
{
    struct clip_point p;
    memset(&p, 0, sizeof p);
    p.pos[0] = x, p.pos[1] = y, p.pos[2] = z, p.pos[3] = w;
    if (source >= 0)
        p.weight[source] = 1.0f;
    p.source = source;
    return p;
}

static bool close_to(float a, float b)
{
    return fabsf(a - b) <= 1e-6f * (1.0f + fabsf(b));
}

static struct clip_determination determine3(const struct clip_test_config *c,
                                            const float p[3][4], const float d[3][8])
{
    uint32_t oc[3];
    for (int i = 0; i < 3; i++)
        oc[i] = clip_vertex_test(c, p[i], d ? d[i] : no_dist, false);
    return clip_determine(oc, 3);
}

/* ---- VertexClipTest ---------------------------------------------------------------------- */

static void test_view_volume_outcodes(void)
{
    struct clip_test_config c = vp_only();
    float inside[4] = { 0.5f, -0.5f, 0.0f, 1.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, inside, no_dist, false), 0);
    /* x = 3, w = 2: NDC 1.5 > 1 -> VP_XMAX, and GB_XMAX copied (GB disabled) */
    float right[4] = { 3.0f, 0.0f, 0.0f, 2.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, right, no_dist, false),
                    CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX);
    /* y = -5, w = 4: NDC -1.25 < -1 -> VP_YMIN (and GB_YMIN) */
    float below[4] = { 0.0f, -5.0f, 0.0f, 4.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, below, no_dist, false),
                    CLIP_OC_VP_YMIN | CLIP_OC_GB_YMIN);
    /* exactly on the boundary x = w is inside (strict comparison) */
    float edge[4] = { 2.0f, 0.0f, 0.0f, 2.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, edge, no_dist, false), 0);
    /* neither XY test enabled: nothing in X/Y */
    c.viewport_xy = false;
    CU_ASSERT_EQUAL(clip_vertex_test(&c, right, no_dist, false), 0);
}

static void test_z_per_api_mode(void)
{
    struct clip_test_config c = vp_only();
    c.z_near = c.z_far = true;
    float z_neg[4] = { 0.0f, 0.0f, -0.5f, 1.0f };   /* NDC z = -0.5 */
    float z_far[4] = { 0.0f, 0.0f, 3.0f, 2.0f };    /* NDC z = 1.5 */
    c.d3d = false;                                  /* OpenGL: [-1, 1] */
    CU_ASSERT_EQUAL(clip_vertex_test(&c, z_neg, no_dist, false), 0);
    CU_ASSERT_EQUAL(clip_vertex_test(&c, z_far, no_dist, false), CLIP_OC_VP_ZMAX);
    c.d3d = true;                                   /* D3D: [0, 1] */
    CU_ASSERT_EQUAL(clip_vertex_test(&c, z_neg, no_dist, false), CLIP_OC_VP_ZMIN);
    /* the near and far enables are separate (3DSTATE_RASTER) */
    c.z_near = false;
    CU_ASSERT_EQUAL(clip_vertex_test(&c, z_neg, no_dist, false), 0);
    CU_ASSERT_EQUAL(clip_vertex_test(&c, z_far, no_dist, false), CLIP_OC_VP_ZMAX);
}

static void test_negative_w(void)
{
    struct clip_test_config c = vp_only();
    /* w = -1, x = 0: rhw = -1 -> NEGW; NDC x = -0; flipped comparisons: XMIN = x > -1,
     * XMAX = x < 1: both set */
    float behind[4] = { 0.0f, 0.0f, 0.0f, -1.0f };
    uint32_t oc = clip_vertex_test(&c, behind, no_dist, false);
    CU_ASSERT_TRUE(oc & CLIP_OC_NEGW);
    CU_ASSERT_EQUAL(oc & CLIP_OC_VP_XY, CLIP_OC_VP_XY);
    /* w = -0 counts as negative ("including negative 0") */
    float minus_zero[4] = { 1.0f, 1.0f, 0.0f, -0.0f };
    CU_ASSERT_TRUE(clip_vertex_test(&c, minus_zero, no_dist, false) & CLIP_OC_NEGW);
    /* a triangle all behind the eye: TR (TR_NEGW) */
    float tri[3][4] = { { 0, 0, 0, -1 }, { 5, 0, 0, -2 }, { 0, 5, 0, -3 } };
    struct clip_determination d = determine3(&c, tri, NULL);
    CU_ASSERT_TRUE(d.trivial_reject);
    /* one vertex behind: not TA (TA_NEGW), must clip */
    float straddle[3][4] = { { 0, 0, 0, 1 }, { 0.5f, 0, 0, 1 }, { 0, 0, 0, -1 } };
    d = determine3(&c, straddle, NULL);
    CU_ASSERT_FALSE(d.trivial_accept);
    CU_ASSERT_FALSE(d.trivial_reject);
    CU_ASSERT_TRUE(d.must_clip);
}

static void test_guardband(void)
{
    struct clip_test_config c = vp_only();
    c.guardband = true;
    c.gb_xmin = c.gb_ymin = -4.0f;
    c.gb_xmax = c.gb_ymax = 4.0f;
    /* NDC x = 2: outside the viewport, inside the guardband */
    float p[4] = { 2.0f, 0.0f, 0.0f, 1.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, p, no_dist, false), CLIP_OC_VP_XMAX);
    /* the guardband decides TA: a triangle reaching x = 2 is trivially accepted */
    float tri[3][4] = { { 0, 0, 0, 1 }, { 2, 0, 0, 1 }, { 0, 1, 0, 1 } };
    struct clip_determination d = determine3(&c, tri, NULL);
    CU_ASSERT_TRUE(d.trivial_accept);
    /* all three right of the viewport (inside the guardband): TR_VPXY */
    float right[3][4] = { { 2, 0, 0, 1 }, { 3, 0, 0, 1 }, { 2, 1, 0, 1 } };
    d = determine3(&c, right, NULL);
    CU_ASSERT_TRUE(d.trivial_reject);
    /* past the guardband: must clip */
    float wide[3][4] = { { 0, 0, 0, 1 }, { 6, 0, 0, 1 }, { 0, 1, 0, 1 } };
    d = determine3(&c, wide, NULL);
    CU_ASSERT_TRUE(d.must_clip);
    /* the guardband is off for points: a point at x = 2 is outside (VP copied to GB) */
    CU_ASSERT_EQUAL(clip_vertex_test(&c, p, no_dist, true), CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX);
    /* guardband alone: its outcodes are copied to VP */
    c.viewport_xy = false;
    float far[4] = { 5.0f, 0.0f, 0.0f, 1.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, far, no_dist, false), CLIP_OC_GB_XMAX | CLIP_OC_VP_XMAX);
}

static void test_nan_is_bad(void)
{
    struct clip_test_config c = vp_only();
    float nan_x[4] = { NAN, 0.0f, 0.0f, 1.0f };
    uint32_t oc = clip_vertex_test(&c, nan_x, no_dist, false);
    CU_ASSERT_TRUE(oc & CLIP_OC_BAD);
    /* NaN x: all X outcodes set since an XY test is enabled */
    uint32_t x_codes = CLIP_OC_VP_XMIN | CLIP_OC_VP_XMAX | CLIP_OC_GB_XMIN | CLIP_OC_GB_XMAX;
    CU_ASSERT_EQUAL(oc & x_codes, x_codes);
    c.viewport_xy = false;
    CU_ASSERT_EQUAL(clip_vertex_test(&c, nan_x, no_dist, false), CLIP_OC_BAD);
    /* NaN w */
    float nan_w[4] = { 0.0f, 0.0f, 0.0f, NAN };
    CU_ASSERT_TRUE(clip_vertex_test(&c, nan_w, no_dist, false) & CLIP_OC_BAD);
    /* a NaN clip distance is BAD only when a mask enables it */
    float d[8] = { 0, NAN, 0, 0, 0, 0, 0, 0 };
    float ok[4] = { 0, 0, 0, 1 };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, ok, d, false), 0);
    c.cull_mask = 0x2;
    CU_ASSERT_EQUAL(clip_vertex_test(&c, ok, d, false), CLIP_OC_BAD | (CLIP_OC_UC_CULL0 << 1));
    /* BAD objects: NORMAL and ACCEPT_ALL discard, CLIP_ALL still spawns */
    uint32_t codes[3] = { CLIP_OC_BAD, 0, 0 };
    struct clip_determination det = clip_determine(codes, 3);
    CU_ASSERT_TRUE(det.bad);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_NORMAL, det), CLIP_DISCARD);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_ACCEPT_ALL, det), CLIP_DISCARD);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_CLIP_ALL, det), CLIP_SPAWN);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_CLIP_NON_REJECT, det), CLIP_DISCARD);
}

static void test_user_distances(void)
{
    struct clip_test_config c = vp_only();
    float p[3][4] = { { 0, 0, 0, 1 }, { 0.5f, 0, 0, 1 }, { 0, 0.5f, 0, 1 } };
    float all_neg[3][8] = { { -1 }, { -2 }, { -0.5f } };
    float straddle[3][8] = { { -1 }, { 2 }, { 1 } };
    /* no mask: distances ignored, TA */
    CU_ASSERT_TRUE(determine3(&c, p, all_neg).trivial_accept);
    /* clip-test mask bit 0, negative everywhere: trivially rejected (culled) */
    c.clip_mask = 1;
    CU_ASSERT_TRUE(determine3(&c, p, all_neg).trivial_reject);
    /* clip-test plane straddled: must clip */
    CU_ASSERT_TRUE(determine3(&c, p, straddle).must_clip);
    /* cull-test plane: negative everywhere rejects, straddled is accepted (no must clip) */
    c.clip_mask = 0;
    c.cull_mask = 1;
    CU_ASSERT_TRUE(determine3(&c, p, all_neg).trivial_reject);
    CU_ASSERT_TRUE(determine3(&c, p, straddle).trivial_accept);
    /* -0 is not "less than 0" */
    float minus_zero[8] = { -0.0f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, p[0], minus_zero, false), 0);
}

/* ---- ClipDetermination and ClipMode -------------------------------------------------------- */

static void test_clip_modes(void)
{
    uint32_t ta[3] = { 0, 0, 0 };
    uint32_t tr[3] = { CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX, CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX,
                       CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX };
    uint32_t mc[3] = { 0, CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX, 0 };
    struct clip_determination a = clip_determine(ta, 3), r = clip_determine(tr, 3),
                              m = clip_determine(mc, 3);
    CU_ASSERT_TRUE(a.trivial_accept && !a.trivial_reject && !a.must_clip);
    CU_ASSERT_TRUE(r.trivial_reject && !r.trivial_accept && !r.must_clip);
    CU_ASSERT_TRUE(m.must_clip && !m.trivial_accept && !m.trivial_reject);
    /* NORMAL: TA passes, TR discards, MC spawns */
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_NORMAL, a), CLIP_PASSTHRU);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_NORMAL, r), CLIP_DISCARD);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_NORMAL, m), CLIP_SPAWN);
    /* REJECT_ALL discards everything, ACCEPT_ALL passes everything not BAD */
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_REJECT_ALL, a), CLIP_DISCARD);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_ACCEPT_ALL, r), CLIP_PASSTHRU);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_ACCEPT_ALL, m), CLIP_PASSTHRU);
    /* CLIP_ALL spawns all; CLIP_NON_REJECT discards TR and spawns the rest */
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_CLIP_ALL, a), CLIP_SPAWN);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_CLIP_NON_REJECT, a), CLIP_SPAWN);
    CU_ASSERT_EQUAL(clip_mode_action(CLIP_MODE_CLIP_NON_REJECT, r), CLIP_DISCARD);
    /* reserved 5-7 act as NORMAL */
    CU_ASSERT_EQUAL(clip_mode_action(6, m), CLIP_SPAWN);
    /* lines and points: AND/OR over 2 and 1 vertices */
    uint32_t line[2] = { CLIP_OC_VP_ZMIN, CLIP_OC_VP_ZMIN };
    CU_ASSERT_TRUE(clip_determine(line, 2).trivial_reject);
    CU_ASSERT_TRUE(clip_determine(line, 1).trivial_reject);
}

/* ---- the clipper ------------------------------------------------------------------------- */

static void test_triangle_crossing_x_equals_w(void)
{
    struct clip_test_config c = vp_only();
    struct clip_plane planes[CLIP_MAX_PLANES];
    uint32_t n = clip_planes(&c, planes);
    CU_ASSERT_EQUAL(n, 5);      /* w > 0 and the four X/Y planes */
    struct clip_point in[3] = { point(0, 0, 0, 1, 0), point(3, 0, 0.5f, 1, 1),
                                point(0, 1, 0, 2, 2) };
    in[0].dist[0] = 1.0f, in[1].dist[0] = 4.0f, in[2].dist[0] = -2.0f;
    struct clip_point out[CLIP_POLYGON_MAX];
    bool overflow = false;
    uint32_t count = clip_polygon(planes, n, in, 3, out, &overflow);
    CU_ASSERT_FALSE(overflow);
    CU_ASSERT_EQUAL_FATAL(count, 4);
    /* v0 and v2 kept; the edges v0-v1 and v1-v2 cut at x = w, in order v0, A, B, v2 */
    CU_ASSERT_EQUAL(out[0].source, 0);
    CU_ASSERT_EQUAL(out[1].source, -1);
    CU_ASSERT_EQUAL(out[2].source, -1);
    CU_ASSERT_EQUAL(out[3].source, 2);
    /* A: from v0 (inside) to v1: t = (w0 - x0) / ((w0 - x0) - (w1 - x1)) = 1 / 3 */
    float t = (1.0f - 0.0f) / ((1.0f - 0.0f) - (1.0f - 3.0f));
    CU_ASSERT_TRUE(close_to(out[1].pos[0], 0 + t * 3));
    CU_ASSERT_TRUE(close_to(out[1].pos[2], 0 + t * 0.5f));
    CU_ASSERT_TRUE(close_to(out[1].pos[3], 1));
    CU_ASSERT_TRUE(close_to(out[1].pos[0], out[1].pos[3]));     /* on the plane */
    CU_ASSERT_TRUE(close_to(out[1].weight[0], 1 - t));
    CU_ASSERT_TRUE(close_to(out[1].weight[1], t));
    CU_ASSERT_TRUE(close_to(out[1].weight[2], 0));
    CU_ASSERT_TRUE(close_to(out[1].dist[0], 1 + t * (4 - 1)));
    /* B: from v2 (inside) to v1: t = (w2 - x2) / ((w2 - x2) - (w1 - x1)) = 2 / 4 */
    float u = (2.0f - 0.0f) / ((2.0f - 0.0f) - (1.0f - 3.0f));
    CU_ASSERT_TRUE(close_to(out[2].pos[0], 0 + u * 3));
    CU_ASSERT_TRUE(close_to(out[2].pos[1], 1 + u * (0 - 1)));
    CU_ASSERT_TRUE(close_to(out[2].pos[3], 2 + u * (1 - 2)));
    CU_ASSERT_TRUE(close_to(out[2].pos[0], out[2].pos[3]));
    CU_ASSERT_TRUE(close_to(out[2].weight[2], 1 - u));
    CU_ASSERT_TRUE(close_to(out[2].weight[1], u));
    CU_ASSERT_TRUE(close_to(out[2].dist[0], -2 + u * (4 + 2)));
    /* the determination agrees: v1 is outside x = w only */
    float p[3][4] = { { 0, 0, 0, 1 }, { 3, 0, 0.5f, 1 }, { 0, 1, 0, 2 } };
    CU_ASSERT_TRUE(determine3(&c, p, NULL).must_clip);
}

static void test_inside_and_outside(void)
{
    struct clip_test_config c = vp_only();
    c.z_near = c.z_far = true;
    struct clip_plane planes[CLIP_MAX_PLANES];
    uint32_t n = clip_planes(&c, planes);
    CU_ASSERT_EQUAL(n, 7);
    /* inside: the same three vertices, untouched, in order */
    struct clip_point in[3] = { point(0, 0, 0, 1, 0), point(0.5f, 0, 0.5f, 1, 1),
                                point(0, 0.5f, -0.5f, 1, 2) };
    struct clip_point out[CLIP_POLYGON_MAX];
    CU_ASSERT_EQUAL_FATAL(clip_polygon(planes, n, in, 3, out, NULL), 3);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(out[i].source, i);
        CU_ASSERT_EQUAL(memcmp(out[i].pos, in[i].pos, sizeof in[i].pos), 0);
    }
    /* all beyond x = w: nothing left */
    struct clip_point far[3] = { point(2, 0, 0, 1, 0), point(3, 0, 0, 1, 1), point(2, 1, 0, 1, 2) };
    CU_ASSERT_EQUAL(clip_polygon(planes, n, far, 3, out, NULL), 0);
    /* past the far plane z = w in OpenGL */
    struct clip_point deep[3] = { point(0, 0, 2, 1, 0), point(0.5f, 0, 3, 1, 1),
                                  point(0, 0.5f, 2, 1, 2) };
    CU_ASSERT_EQUAL(clip_polygon(planes, n, deep, 3, out, NULL), 0);
    /* too many vertices in: overflow, nothing out */
    struct clip_point many[CLIP_POLYGON_MAX + 1];
    memset(many, 0, sizeof many);
    bool overflow = false;
    CU_ASSERT_EQUAL(clip_polygon(planes, n, many, CLIP_POLYGON_MAX + 1, out, &overflow), 0);
    CU_ASSERT_TRUE(overflow);
}

static void test_near_plane_d3d_and_w(void)
{
    /* D3D near plane z = 0: the edge from z = 0.5 (w 1) to z = -0.5 (w 1) is cut at
     * t = 0.5 / (0.5 + 0.5) */
    struct clip_test_config c = vp_only();
    c.viewport_xy = false;
    c.z_near = true;
    c.d3d = true;
    struct clip_plane planes[CLIP_MAX_PLANES];
    uint32_t n = clip_planes(&c, planes);
    CU_ASSERT_EQUAL(n, 2);
    struct clip_point line[2] = { point(0, 0, 0.5f, 1, 0), point(1, 0, -0.5f, 1, 1) };
    CU_ASSERT_TRUE_FATAL(clip_line(planes, n, line));
    CU_ASSERT_EQUAL(line[0].source, 0);
    CU_ASSERT_EQUAL(line[1].source, -1);
    CU_ASSERT_TRUE(close_to(line[1].pos[2], 0));
    CU_ASSERT_TRUE(close_to(line[1].pos[0], 0.5f));
    CU_ASSERT_TRUE(close_to(line[1].weight[1], 0.5f));
    /* a line wholly behind the eye (w < 0) is gone: the w > 0 plane */
    struct clip_point behind[2] = { point(0, 0, 0, -1, 0), point(1, 0, 0, -2, 1) };
    CU_ASSERT_FALSE(clip_line(planes, n, behind));
    /* w from 1 to -1: cut at w = CLIP_W_EPSILON, t = (1 - e) / 2 */
    struct clip_point through[2] = { point(0, 0, 0.5f, 1, 0), point(0, 0, 0.5f, -1, 1) };
    CU_ASSERT_TRUE_FATAL(clip_line(planes, n, through));
    CU_ASSERT_TRUE(through[1].pos[3] > 0);
    CU_ASSERT_TRUE(close_to(through[1].weight[1], (1.0f - CLIP_W_EPSILON) / 2.0f));
}

static void test_guardband_planes_and_user_planes(void)
{
    /* guardband x max 4: the cut is at x = 4 w */
    struct clip_test_config c = vp_only();
    c.guardband = true;
    c.gb_xmin = c.gb_ymin = -4.0f;
    c.gb_xmax = 4.0f;
    c.gb_ymax = INFINITY;       /* an infinite side is no plane */
    c.clip_mask = 0x4;          /* user clip distance 2 */
    struct clip_plane planes[CLIP_MAX_PLANES];
    uint32_t n = clip_planes(&c, planes);
    CU_ASSERT_EQUAL(n, 1 + 3 + 1);
    struct clip_point in[3] = { point(0, 0, 0, 1, 0), point(8, 0, 0, 1, 1), point(0, 1, 0, 1, 2) };
    for (int i = 0; i < 3; i++)
        in[i].dist[2] = 1.0f;
    struct clip_point out[CLIP_POLYGON_MAX];
    uint32_t count = clip_polygon(planes, n, in, 3, out, NULL);
    CU_ASSERT_EQUAL_FATAL(count, 4);
    /* t = (4 w0 - x0) / ((4 w0 - x0) - (4 w1 - x1)) = 4 / (4 + 4) */
    float t = 4.0f / (4.0f - (4.0f - 8.0f));
    CU_ASSERT_TRUE(close_to(out[1].pos[0], t * 8));
    CU_ASSERT_TRUE(close_to(out[1].pos[0], 4 * out[1].pos[3]));
    /* user distance 2 negative at v2: the triangle is cut where it crosses 0 */
    for (int i = 0; i < 3; i++)
        in[i] = point(i == 1 ? 0.5f : 0, i == 2 ? 0.5f : 0, 0, 1, i);
    in[0].dist[2] = 1.0f, in[1].dist[2] = 1.0f, in[2].dist[2] = -3.0f;
    count = clip_polygon(planes, n, in, 3, out, NULL);
    CU_ASSERT_EQUAL_FATAL(count, 4);
    for (uint32_t k = 0; k < count; k++)
        CU_ASSERT_TRUE(out[k].dist[2] >= -1e-6f);
    /* v2 replaced: on the edge v1-v2, t = 1 / (1 + 3) from v1 */
    bool found = false;
    for (uint32_t k = 0; k < count; k++)
        if (out[k].source < 0 && close_to(out[k].weight[1], 0.75f) &&
            close_to(out[k].weight[2], 0.25f))
            found = true;
    CU_ASSERT_TRUE(found);
}

static void test_infinite_positions_flagged(void)
{
    struct clip_point p = point(INFINITY, 0, 0, 1, -1);
    CU_ASSERT_FALSE(clip_point_finite(&p));
    p = point(0, 0, 0, 1, 0);
    CU_ASSERT_TRUE(clip_point_finite(&p));
    /* an infinite x is not BAD (no NaN) but outside: VP_XMAX */
    struct clip_test_config c = vp_only();
    float inf[4] = { INFINITY, 0, 0, 1 };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, inf, no_dist, false), CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX);
    /* perspective divide disabled: the VUE holds NDC and rhw already */
    c.perspective_divide_disable = true;
    float ndc[4] = { 1.5f, 0, 0, 0.5f };
    CU_ASSERT_EQUAL(clip_vertex_test(&c, ndc, no_dist, false), CLIP_OC_VP_XMAX | CLIP_OC_GB_XMAX);
}

static const struct test_case cases[] = {
    { "view volume outcodes", test_view_volume_outcodes },
    { "z range per API mode, near and far enables", test_z_per_api_mode },
    { "negative w flips the tests and rejects", test_negative_w },
    { "guardband decides trivial accept", test_guardband },
    { "NaN is BAD and the modes' answer", test_nan_is_bad },
    { "user clip and cull distances", test_user_distances },
    { "clip determination and clip modes", test_clip_modes },
    { "triangle crossing x = w", test_triangle_crossing_x_equals_w },
    { "inside untouched, outside rejected, overflow", test_inside_and_outside },
    { "D3D near plane and the w > 0 plane on lines", test_near_plane_d3d_and_w },
    { "guardband planes and user clip planes", test_guardband_planes_and_user_planes },
    { "infinite positions and no perspective divide", test_infinite_positions_flagged },
    { 0 }
};
TEST_SUITE(clip_polygon, cases);
