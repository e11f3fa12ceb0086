/* tests/units/test_sf_attributes.c - SF's attribute setup (SBE,
 * units/sf/sf_attributes) against values worked out here: planes that give
 * each vertex's value back and interpolate linearly in between (the weights
 * computed here from signed areas, A = a0 + a1*b1 + a2*b2, seed 003
 * L15189), the swizzle selects and constant overrides (L15116-15133, seed
 * 000 L1432-1560), constant interpolation from the provoking vertex
 * (L15135), WrapShortest (L15140-15143), point sprite coordinates
 * (L15149-15157), the PrimitiveID override and the active component formats. */
#include <math.h>
#include <string.h>

#include "tests/test.h"
#include "units/sf/sf_attributes.h"
#include "units/sf/sf_setup.h"

static struct sf_setup_state open_state(void)
{
    return (struct sf_setup_state){
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = 8191, .clip_y_max = 8191,
    };
}

static struct sbe_state plain(uint32_t outputs)
{
    struct sbe_state st = { .output_count = outputs, .read_length = (outputs + 1) / 2 };
    for (uint32_t i = 0; i < SETUP_MAX_ATTRIBUTES; i++)
        st.active[i] = SBE_ACTIVE_XYZW;
    return st;
}

static uint16_t detail(uint32_t source, uint32_t swizzle, uint32_t constant, uint32_t overrides)
{
    return (uint16_t)(source | swizzle << 6 | constant << 9 | overrides << 12);
}

/* Weights of (x, y) in triangle t from signed areas. */
static void weights(const double t[3][2], double x, double y, double w[3])
{
    double area = (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]);
    for (int i = 0; i < 3; i++) {
        const double *a = t[(i + 1) % 3], *b = t[(i + 2) % 3];
        w[i] = ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) / area;
    }
}

static double eval(const struct setup_plane *a, double b1, double b2)
{
    return a->a0 + a->a1 * b1 + a->a2 * b2;
}

static void test_triangle_planes(void)
{
    const double t[3][2] = { { 4.5, 3.0 }, { 28.25, 9.5 }, { 10.0, 30.75 } };
    struct sf_setup_vertex v[3];
    for (int i = 0; i < 3; i++)
        v[i] = (struct sf_setup_vertex){ (float)t[i][0], (float)t[i][1], 0.5f, 1 };
    struct sf_setup_state ss = open_state();
    struct setup_primitive p;
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&ss, v, false, &p), SF_SETUP_OK);
    /* two input attributes per vertex: a colour and a coordinate */
    const float in[3][2][4] = {
        { { 1.0f, 0.0f, 0.0f, 1.0f }, { -3.0f, 10.0f, 0.25f, 2.0f } },
        { { 0.0f, 1.0f, 0.0f, 0.5f }, { 5.0f, -6.0f, 0.75f, 4.0f } },
        { { 0.0f, 0.0f, 1.0f, 0.0f }, { 1.0f, 2.0f, 0.5f, 8.0f } },
    };
    struct sbe_state st = plain(2);
    float out[3][SETUP_MAX_ATTRIBUTES][4];
    struct sbe_faults f = { 0 };
    for (int i = 0; i < 3; i++)
        sbe_select(&st, in[i], 2, false, 0, out[i], &f);
    CU_ASSERT_EQUAL(f.source_out_of_range, 0);
    const float (*const vals[3])[4] = { out[0], out[1], out[2] };
    sbe_planes(&st, vals, 0, false, &p);
    CU_ASSERT_EQUAL(p.attribute_count, 2);
    CU_ASSERT_EQUAL(p.constant_mask, 0);
    const double probes[5][2] = { { 4.5, 3.0 }, { 28.25, 9.5 }, { 10.0, 30.75 }, { 12, 12 }, { 20, 14.5 } };
    for (int k = 0; k < 5; k++) {
        double w[3];
        weights(t, probes[k][0], probes[k][1], w);
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 4; c++) {
                double want = w[0] * in[0][a][c] + w[1] * in[1][a][c] + w[2] * in[2][a][c];
                CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[a][c], w[1], w[2]), want, 1e-5);
            }
    }
    /* flat: every provoking vertex in turn gives its value everywhere */
    st.constant_interpolation = 1u << 1;
    for (uint32_t pv = 0; pv < 3; pv++) {
        sbe_planes(&st, vals, pv, false, &p);
        CU_ASSERT_EQUAL(p.constant_mask, 2u);
        for (int c = 0; c < 4; c++) {
            CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[1][c], 0.3, 0.3), in[pv][1][c], 0);
            CU_ASSERT_DOUBLE_EQUAL(p.attributes[1][c].a1, 0, 0);
            CU_ASSERT_DOUBLE_EQUAL(p.attributes[1][c].a2, 0, 0);
        }
        /* attribute 0 still varies */
        CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[0][0], 1, 0), 0.0, 1e-7);
    }
}

static void test_swizzles_and_overrides(void)
{
    const float in[4][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 }, { 13, 14, 15, 16 } };
    struct sbe_state st = plain(6);
    st.swizzle_enable = true;
    st.detail[0] = detail(2, SBE_INPUTATTR, 0, 0);             /* input 2 */
    st.detail[1] = detail(1, SBE_INPUTATTR_FACING, 0, 0);      /* 1 front, 2 back */
    st.detail[2] = detail(3, SBE_INPUTATTR_W, 0, 0);           /* W to X */
    st.detail[3] = detail(0, SBE_INPUTATTR_FACING_W, SBE_CONST_0001, 0x4);  /* Z := 0 */
    st.detail[4] = detail(0, SBE_INPUTATTR, SBE_CONST_1111, 0xf);
    st.detail[5] = detail(0, SBE_INPUTATTR, SBE_CONST_PRIM_ID, 0x1);
    float out[SETUP_MAX_ATTRIBUTES][4];
    struct sbe_faults f = { 0 };
    sbe_select(&st, in, 4, false, 77, out, &f);
    const float front[5][4] = { { 9, 10, 11, 12 }, { 5, 6, 7, 8 }, { 16, 14, 15, 16 },
                                { 4, 2, 0, 4 }, { 1, 1, 1, 1 } };
    for (int i = 0; i < 5; i++)
        for (int c = 0; c < 4; c++)
            CU_ASSERT_DOUBLE_EQUAL(out[i][c], front[i][c], 0);
    uint32_t id;
    memcpy(&id, &out[5][0], 4);
    CU_ASSERT_EQUAL(id, 77);                    /* PrimID's bits, replicated where overridden */
    CU_ASSERT_DOUBLE_EQUAL(out[5][1], 2, 0);
    sbe_select(&st, in, 4, true, 77, out, &f);  /* back-facing: the next attribute */
    CU_ASSERT_DOUBLE_EQUAL(out[1][0], 9, 0);
    CU_ASSERT_DOUBLE_EQUAL(out[3][0], 8, 0);    /* input 1's W */
    CU_ASSERT_DOUBLE_EQUAL(out[3][2], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(out[0][0], 9, 0);    /* INPUTATTR ignores the face */
    CU_ASSERT_EQUAL(f.source_out_of_range, 0);
    /* a source past the rows read reads zeros, counted */
    st.detail[0] = detail(9, SBE_INPUTATTR, 0, 0);
    sbe_select(&st, in, 4, false, 0, out, &f);
    CU_ASSERT_EQUAL(f.source_out_of_range, 1);
    CU_ASSERT_DOUBLE_EQUAL(out[0][3], 0, 0);
    /* without swizzling output i is input i; the active component formats
     * fill the rest with 0, 0, 0, 1 */
    st = plain(4);
    st.active[0] = SBE_ACTIVE_XY;
    st.active[1] = SBE_ACTIVE_XYZ;
    st.active[2] = SBE_ACTIVE_NONE;
    sbe_select(&st, in, 4, false, 0, out, &f);
    const float want[4][4] = { { 1, 2, 0, 1 }, { 5, 6, 7, 1 }, { 0, 0, 0, 1 }, { 13, 14, 15, 16 } };
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 4; c++)
            CU_ASSERT_DOUBLE_EQUAL(out[i][c], want[i][c], 0);
    /* PrimitiveID override of attribute 1's Y and W */
    st = plain(2);
    st.primitive_id_override = true;
    st.primitive_id_attribute = 1;
    st.primitive_id_components = 0xa;
    sbe_select(&st, in, 4, false, 5, out, &f);
    memcpy(&id, &out[1][3], 4);
    CU_ASSERT_EQUAL(id, 5);
    memcpy(&id, &out[1][1], 4);
    CU_ASSERT_EQUAL(id, 5);
    CU_ASSERT_DOUBLE_EQUAL(out[1][0], 5, 0);
}

static void test_wrap_shortest(void)
{
    /* a hue wrapping 0.9 -> 0.1 goes the short way (+0.2), not -0.8 */
    struct sbe_state st = plain(1);
    st.wrap_shortest[0] = 0x1;                  /* X only */
    const float v0[1][4] = { { 0.9f, 0.9f, 0, 0 } }, v1[1][4] = { { 0.1f, 0.1f, 0, 0 } },
                v2[1][4] = { { 0.9f, 0.5f, 0, 0 } };
    float out[3][SETUP_MAX_ATTRIBUTES][4];
    struct sbe_faults f = { 0 };
    sbe_select(&st, v0, 1, false, 0, out[0], &f);
    sbe_select(&st, v1, 1, false, 0, out[1], &f);
    sbe_select(&st, v2, 1, false, 0, out[2], &f);
    const float (*const vals[3])[4] = { out[0], out[1], out[2] };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    sbe_planes(&st, vals, 0, false, &p);
    CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][0].a1, 0.2, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][1].a1, -0.8, 1e-6);     /* Y not enabled */
    CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][1].a2, -0.4, 1e-6);
}

static void test_point_sprites(void)
{
    struct sf_setup_state ss = open_state();
    struct sf_object o = { .type = SF_OBJECT_POINT, .point_width = 4.0f };
    o.v[0] = (struct sf_setup_vertex){ 10, 20, 0.5f, 1 };
    struct setup_primitive p;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&ss, &o, &p), SF_SETUP_OK);
    const float in[2][4] = { { 0.25f, 0.5f, 0.75f, 1 }, { 7, 7, 7, 7 } };
    struct sbe_state st = plain(2);
    st.point_sprite = 1u << 1;
    float out[SETUP_MAX_ATTRIBUTES][4];
    struct sbe_faults f = { 0 };
    sbe_select(&st, in, 2, false, 0, out, &f);
    const float (*const vals[3])[4] = { out, out, out };
    for (int origin = 0; origin < 2; origin++) {
        st.point_sprite_lower_left = origin;
        sbe_planes(&st, vals, 0, true, &p);
        /* the colour is constant over the point */
        CU_ASSERT_EQUAL(p.constant_mask & 1u, 1u);
        CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][2].a0, 0.75, 0);
        CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][2].a1, 0, 0);
        /* corners from the barycentric planes at the square's corners:
         * UPPERLEFT TL (0,0) TR (1,0) BL (0,1) BR (1,1); LOWERLEFT flips t */
        const double corner[4][2] = { { 8, 18 }, { 12, 18 }, { 8, 22 }, { 12, 22 } };
        const float want_s[4] = { 0, 1, 0, 1 }, want_t[4] = { 0, 0, 1, 1 };
        for (int k = 0; k < 4; k++) {
            double b1 = p.barycentric[0].a0 + p.barycentric[0].a1 * (corner[k][0] - p.x0) +
                        p.barycentric[0].a2 * (corner[k][1] - p.y0);
            double b2 = p.barycentric[1].a0 + p.barycentric[1].a1 * (corner[k][0] - p.x0) +
                        p.barycentric[1].a2 * (corner[k][1] - p.y0);
            CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[1][0], b1, b2), want_s[k], 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[1][1], b1, b2),
                                   origin ? 1 - want_t[k] : want_t[k], 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[1][2], b1, b2), 0, 0);
            CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[1][3], b1, b2), 1, 0);
        }
    }
}

static void test_line_planes(void)
{
    struct sf_setup_state ss = open_state();
    ss.line_width = 1;
    struct sf_object o = { .type = SF_OBJECT_LINE };
    o.v[0] = (struct sf_setup_vertex){ 2.5f, 5.5f, 0, 1 };
    o.v[1] = (struct sf_setup_vertex){ 12.5f, 9.5f, 0, 1 };
    struct setup_primitive p;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&ss, &o, &p), SF_SETUP_OK);
    const float a[1][4] = { { 0, 10, 0, 1 } }, b[1][4] = { { 1, 20, 0, 1 } };
    struct sbe_state st = plain(1);
    float out[2][SETUP_MAX_ATTRIBUTES][4];
    struct sbe_faults f = { 0 };
    sbe_select(&st, a, 1, false, 0, out[0], &f);
    sbe_select(&st, b, 1, false, 0, out[1], &f);
    const float (*const vals[3])[4] = { out[0], out[1], out[0] };
    sbe_planes(&st, vals, 1, false, &p);
    /* at the line's midpoint (7.5, 7.5): halfway */
    double b1 = p.barycentric[0].a0 + p.barycentric[0].a1 * (7.5 - p.x0) + p.barycentric[0].a2 * (7.5 - p.y0);
    CU_ASSERT_DOUBLE_EQUAL(b1, 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[0][1], b1, 0), 15, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(p.attributes[0][0].a2, 0, 0);
    /* flat with provoking vertex 1 (Line Strip/List select 1, as GL programs it) */
    st.constant_interpolation = 1;
    sbe_planes(&st, vals, 1, false, &p);
    CU_ASSERT_DOUBLE_EQUAL(eval(&p.attributes[0][1], 0.1, 0), 20, 0);
}

static const struct test_case cases[] = {
    { "triangle attribute planes interpolate; flat from each provoking vertex", test_triangle_planes },
    { "swizzle selects, facing, W, constant and PrimID overrides, active components",
      test_swizzles_and_overrides },
    { "WrapShortest deltas", test_wrap_shortest },
    { "point sprite coordinates, both origins; other point attributes constant", test_point_sprites },
    { "line attribute planes along the line", test_line_planes },
    { 0 }
};
TEST_SUITE(sf_attributes, cases);
