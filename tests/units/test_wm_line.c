/* tests/units/test_wm_line.c - lines (seed 003 L14876-14993, L15494-15546)
 * and the WM counters and HiZ items of issue 12:
 *  - the GIQ diamond-exit rule (units/wm/wm_line.h) checked pixel by pixel
 *    against this file's own implementation: the segment clipped to the
 *    closed diamond by its four half-planes (Cyrus-Beck, exact rationals),
 *    the touched part classified by the seed's inside() written here, for
 *    thousands of lines in both modes, with and without Last Pixel Enable;
 *  - hand cases worked from the seed's text (pixels through centres,
 *    between rows (bottom corner), between columns (right corner), a slope 1
 *    line through the corners);
 *  - SF's choice of line algorithm (Table 2, L15636-15643), the AA
 *    rectangle and coverage ramps (L14978-14990), the MSAA rectangle;
 *  - line stipple in WM: pattern bits, repeat count, restart per line and
 *    continuation within a strip;
 *  - PS_INVOCATION_COUNT counts samples under per-sample dispatch (L15695);
 *  - HiZ trivial accept and the HiZ record cycles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "spec_common.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/sf/sf_setup.h"
#include "units/wm/wm_line.h"

/* ---- the test's own diamond rule ----------------------------------------------------------- */

/* A rational point (x / d, y / d), d > 0, relative to the sample point, in
 * subpixels; h = half a pixel. The seed's inside() (L14926, L14957). */
static bool ref_inside(bool legacy, bool pos1, bool neg1, bool xmajor, long double x,
                       long double y, long double h)
{
    long double dist = fabsl(x) + fabsl(y);
    bool interior = dist < h;
    bool bottom_corner = x == 0 && y == h;
    bool left_corner = x == -h && y == 0;
    bool right_corner = x == h && y == 0;
    bool ble = dist == h && x < 0 && y > 0;
    bool bre = dist == h && x > 0 && y > 0;
    if (legacy)
        return interior || bottom_corner || (pos1 ? left_corner : right_corner) || (pos1 && ble) ||
               (neg1 && bre);
    return interior || bottom_corner || (!xmajor && right_corner) || ble || bre;
}

/* Points P(t) = A + t E with t = tn / td are classified scaled by td (the
 * rule is homogeneous), so every value is an integer below 2^50: exact in a
 * long double's 64-bit mantissa. */
static bool ref_lit(bool legacy, bool last, int64_t ax, int64_t ay, int64_t bx, int64_t by,
                    int64_t h)
{
    int64_t ex = bx - ax, ey = by - ay;
    bool pos1 = ex != 0 && ey == ex, neg1 = ex != 0 && ey == -ex;
    bool xmajor = llabs(ex) >= llabs(ey);
    /* Cyrus-Beck against s1*x + s2*y <= h for the four sign pairs: t in
     * [tlo, thi] as fractions num/den with den > 0 */
    long double tlo_n = 0, tlo_d = 1, thi_n = 1, thi_d = 1;
    for (int k = 0; k < 4; k++) {
        int64_t s1 = (k & 1) ? -1 : 1, s2 = (k & 2) ? -1 : 1;
        int64_t f0 = s1 * ax + s2 * ay - h;         /* <= 0 inside */
        int64_t df = s1 * ex + s2 * ey;             /* f(t) = f0 + df t */
        if (df == 0) {
            if (f0 > 0)
                return false;
            continue;
        }
        /* f0 + df t <= 0 */
        if (df > 0) {               /* t <= -f0 / df */
            long double n = (long double)-f0, d = (long double)df;
            if (n * thi_d < thi_n * d) {
                thi_n = n;
                thi_d = d;
            }
        } else {                    /* t >= f0 / -df */
            long double n = (long double)f0, d = (long double)-df;
            if (n * tlo_d > tlo_n * d) {
                tlo_n = n;
                tlo_d = d;
            }
        }
    }
    if (tlo_n * thi_d > thi_n * tlo_d)
        return false;               /* misses the closed diamond */
    /* the touched part: [tlo, thi]; test its ends and its middle (all of the
     * part's points are of the classes of these three: the ends and, when it
     * has length, interior or one edge's inside) */
    long double ts_n[3] = { tlo_n * thi_d, thi_n * tlo_d, tlo_n * thi_d + thi_n * tlo_d };
    long double ts_d[3] = { tlo_d * thi_d, tlo_d * thi_d, 2 * tlo_d * thi_d };
    bool touched = false;
    for (int i = 0; i < 3 && !touched; i++) {
        /* the rule is homogeneous: scale the point and h by the denominator */
        long double x = (long double)ax * ts_d[i] + (long double)ex * ts_n[i];
        long double y = (long double)ay * ts_d[i] + (long double)ey * ts_n[i];
        touched = ref_inside(legacy, pos1, neg1, xmajor, x, y, (long double)h * ts_d[i]);
    }
    if (!touched)
        return false;
    return last || !ref_inside(legacy, pos1, neg1, xmajor, (long double)bx, (long double)by,
                               (long double)h);
}

static struct setup_primitive diamond_line(uint32_t mode, bool last, int32_t x0, int32_t y0,
                                           int32_t x1, int32_t y1)
{
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_LINELIST;
    p.subpixel_bits = 8;
    p.line_mode = mode;
    p.line_flags = last ? SETUP_LINE_LAST_PIXEL : 0;
    p.line_x[0] = x0;
    p.line_y[0] = y0;
    p.line_x[1] = x1;
    p.line_y[1] = y1;
    p.x_min = p.y_min = -4;
    p.x_max = p.y_max = 40;
    return p;
}

/* Random lines with ends on the 1/16 grid (so that they hit corners and
 * edges often) and on the 1/256 grid, plus the slopes the rules single out. */
static void test_diamond_exhaustive(void)
{
    srand(12345);
    uint32_t wrong = 0, lit_total = 0, cases = 0;
    for (int n = 0; n < 1500; n++) {
        int32_t g = n % 3 == 0 ? 1 : n % 3 == 1 ? 16 : 128;     /* grid in subpixels */
        int32_t x0 = (rand() % (8 * 256 / g)) * g + 2 * 256, y0 = (rand() % (8 * 256 / g)) * g + 2 * 256;
        int32_t x1, y1;
        switch (n % 5) {
        case 0: { int32_t d = (rand() % 12 - 6) * g * 8; x1 = x0 + d; y1 = y0 + d; break; }
        case 1: { int32_t d = (rand() % 12 - 6) * g * 8; x1 = x0 + d; y1 = y0 - d; break; }
        case 2: x1 = x0 + (rand() % 12 - 6) * 128; y1 = y0; break;
        case 3: x1 = x0; y1 = y0 + (rand() % 12 - 6) * 128; break;
        default:
            x1 = (rand() % (8 * 256 / g)) * g + 2 * 256;
            y1 = (rand() % (8 * 256 / g)) * g + 2 * 256;
        }
        if (x0 == x1 && y0 == y1)
            continue;
        for (int mode = 0; mode < 2; mode++)
            for (int last = 0; last < 2; last++) {
                uint32_t m = mode ? SETUP_LINE_DIAMOND_LEGACY : SETUP_LINE_DIAMOND_DX10;
                struct setup_primitive p = diamond_line(m, last, x0, y0, x1, y1);
                cases++;
                for (int32_t py = 0; py < 14; py++)
                    for (int32_t px = 0; px < 14; px++) {
                        int64_t sx = px * 256 + 128, sy = py * 256 + 128;
                        bool want = ref_lit(mode, last, x0 - sx, y0 - sy, x1 - sx, y1 - sy, 128);
                        bool got = wm_line_diamond_lit(&p, px, py, true);
                        wrong += want != got;
                        lit_total += got;
                    }
            }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(cases > 5000);
    CU_ASSERT_TRUE(lit_total > 10000);          /* the lines light something */
}

/* The lit pixels of a line as a list, row-major. */
static uint32_t lit_pixels(const struct setup_primitive *p, int32_t (*out)[2], uint32_t max)
{
    uint32_t n = 0;
    for (int32_t y = -2; y < 20; y++)
        for (int32_t x = -2; x < 20; x++)
            if (wm_line_diamond_lit(p, x, y, true) && n < max) {
                out[n][0] = x;
                out[n][1] = y;
                n++;
            }
    return n;
}

/* Worked from the seed's text (L14884-14955). */
static void test_diamond_hand_cases(void)
{
    int32_t px[32][2];
    for (int mode = 0; mode < 2; mode++) {
        uint32_t m = mode ? SETUP_LINE_DIAMOND_LEGACY : SETUP_LINE_DIAMOND_DX10;
        /* (0.5,0.5) -> (4.5,0.5) through the centres: the start diamond is
         * exited (lit), the end one is not (the line ends in it) */
        struct setup_primitive p = diamond_line(m, false, 128, 128, 4 * 256 + 128, 128);
        uint32_t n = lit_pixels(&p, px, 32);
        CU_ASSERT_EQUAL(n, 4);
        for (uint32_t i = 0; i < n && i < 4; i++)
            CU_ASSERT(px[i][0] == (int32_t)i && px[i][1] == 0);
        /* Last Pixel Enable lights the end's pixel too */
        p = diamond_line(m, true, 128, 128, 4 * 256 + 128, 128);
        CU_ASSERT_EQUAL(lit_pixels(&p, px, 32), 5);
        /* exactly between rows 0 and 1 (y = 1.0): row 0's bottom corners are
         * in, row 1's top corners out: row 0, x 0..3 */
        p = diamond_line(m, false, 128, 256, 4 * 256 + 128, 256);
        n = lit_pixels(&p, px, 32);
        CU_ASSERT_EQUAL(n, 4);
        for (uint32_t i = 0; i < n && i < 4; i++)
            CU_ASSERT(px[i][0] == (int32_t)i && px[i][1] == 0);
        /* exactly between columns 0 and 1 (x = 1.0), Y-major: column 0's
         * right corners are in (DX10: not X-major; legacy: slope not 1) */
        p = diamond_line(m, false, 256, 128, 256, 4 * 256 + 128);
        n = lit_pixels(&p, px, 32);
        CU_ASSERT_EQUAL(n, 4);
        for (uint32_t i = 0; i < n && i < 4; i++)
            CU_ASSERT(px[i][0] == 0 && px[i][1] == (int32_t)i);
        /* slope 1 through (k, k + 0.5), the left corners of pixels (k, k):
         * legacy takes the left corner, DX10 the bottom-left edge the line
         * runs along; the end (4, 4.5) is pixel (4, 4)'s left corner: legacy
         * ends inside (unlit), DX10 never touches it; pixels (k, k), k < 4 */
        p = diamond_line(m, false, 0, 128, 4 * 256, 4 * 256 + 128);
        n = lit_pixels(&p, px, 32);
        CU_ASSERT_EQUAL(n, 4);
        for (uint32_t i = 0; i < n && i < 4; i++)
            CU_ASSERT(px[i][0] == (int32_t)i && px[i][1] == (int32_t)i);
    }
    /* a line starting on pixel (0, 0)'s right corner (1, 0.5) and leaving
     * right and down at slope 1/2 touches that diamond only there: DX10
     * excludes the right corner of an X-major line, legacy includes it
     * (slope not 1), so only legacy lights the pixel */
    struct setup_primitive q = diamond_line(SETUP_LINE_DIAMOND_DX10, false, 256, 128,
                                            256 + 512, 128 + 256);
    CU_ASSERT_FALSE(wm_line_diamond_lit(&q, 0, 0, true));   /* right corner, X-major: out */
    q.line_mode = SETUP_LINE_DIAMOND_LEGACY;
    CU_ASSERT_TRUE(wm_line_diamond_lit(&q, 0, 0, true));    /* legacy: right corner in */
}

/* ---- SF's choice and the rectangles ----------------------------------------------------------- */

static struct sf_setup_state open_state(void)
{
    return (struct sf_setup_state){
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = 8191, .clip_y_max = 8191,
        .line_aa_region = 1.0f, .line_cap_aa_region = 0.5f, .aa_distance_true = true,
    };
}

static void test_sf_line_modes(void)
{
    struct sf_setup_state st = open_state();
    struct setup_primitive p;
    struct sf_object o = { .type = SF_OBJECT_LINE };
    o.v[0] = (struct sf_setup_vertex){ 2.5f, 5.5f, 0, 1 };
    o.v[1] = (struct sf_setup_vertex){ 12.5f, 5.5f, 1, 1 };
    /* Table 2: width 0 -> diamond (AA ignored), per Legacy Diamond */
    st.line_width = 0;
    st.line_antialiasing = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.line_mode, SETUP_LINE_DIAMOND_DX10);
    CU_ASSERT(p.line_x[0] == 640 && p.line_y[0] == 1408 && p.line_x[1] == 3200);
    st.legacy_diamond = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.line_mode, SETUP_LINE_DIAMOND_LEGACY);
    /* width and AA -> AA rectangle: +-w/2 across, ends a cap region beyond */
    st.line_width = 2;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.line_mode, SETUP_LINE_AA_RECTANGLE);
    /* rectangle x in [2.0, 13.0], y in [4.5, 6.5]: the box of centres x 2..12,
     * rows 4..6 (row 6's centres on the bottom edge: the edges leave them out) */
    CU_ASSERT(p.x_min == 2 && p.x_max == 12 && p.y_min == 4 && p.y_max == 6);
    /* coverage: 1 on the line, ramp over 0.5 px (region 1.0 / 2) from the
     * edges: at 0.25 px from an edge 0.5; end cap: 1 at the end point, 0 at
     * 0.5 px beyond, half way 0.5; corner: the product */
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 7.5, 5.5), 1.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 7.5, 4.75), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 7.5, 6.4), 0.2, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 12.75, 5.5), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 2.25, 4.75), 0.25, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(wm_line_aa_coverage(&p, 7.5, 7.0), 0.0, 0);
    /* without AA: the parallelogram (as before) */
    st.line_antialiasing = false;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.line_mode, SETUP_LINE_PARALLELOGRAM);
    /* multisample rasterization ON: MSAA rectangle ending at the endpoints:
     * x in [2.5, 12.5), y in [4.5, 6.5): 10 x 2 pixels */
    st.line_multisample = true;
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL(p.line_mode, SETUP_LINE_MSAA_RECTANGLE);
    uint32_t n = 0;
    for (int32_t y = 0; y < 12; y++)
        for (int32_t x = 0; x < 16; x++) {
            bool in = sf_setup_covers(&p, x, y, true);
            n += in;
            CU_ASSERT_EQUAL(in, x >= 2 && x <= 11 && (y == 4 || y == 5));
        }
    CU_ASSERT_EQUAL(n, 20);
}

/* The positions a stipple counts: a parallelogram's columns, both ways. */
static void test_line_positions(void)
{
    struct sf_setup_state st = open_state();
    st.line_width = 1;
    struct setup_primitive p;
    struct sf_object o = { .type = SF_OBJECT_LINE };
    o.v[0] = (struct sf_setup_vertex){ 2.5f, 5.5f, 0, 1 };
    o.v[1] = (struct sf_setup_vertex){ 12.5f, 5.5f, 0, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    int64_t first, count;
    int32_t step;
    CU_ASSERT_TRUE_FATAL(wm_line_positions(&p, true, &first, &count, &step));
    CU_ASSERT(first == 2 && count == 10 && step == 1);          /* pixels 2..11 */
    o.v[0].x = 12.5f;
    o.v[1].x = 2.5f;        /* right to left: 11..2 (the left edge, now the end, is in) */
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_TRUE_FATAL(wm_line_positions(&p, true, &first, &count, &step));
    CU_ASSERT(first == 11 && count == 10 && step == -1);
    /* a diamond line, Y-major, upwards: rows 9 .. 1 (ends in row 0's diamond) */
    st.line_width = 0;
    o.v[0] = (struct sf_setup_vertex){ 3.5f, 9.5f, 0, 1 };
    o.v[1] = (struct sf_setup_vertex){ 3.5f, 0.5f, 0, 1 };
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_TRUE_FATAL(wm_line_positions(&p, true, &first, &count, &step));
    CU_ASSERT(first == 9 && count == 9 && step == -1);
    /* the bit rule: floor(s / r) mod 16 */
    CU_ASSERT_TRUE(wm_line_stipple_keep(0x0001, 3, 2));
    CU_ASSERT_FALSE(wm_line_stipple_keep(0x0001, 3, 3));
    CU_ASSERT_TRUE(wm_line_stipple_keep(0x8000, 1, 15));
    CU_ASSERT_TRUE(wm_line_stipple_keep(0x0001, 1, 16));        /* mod 16 */
    CU_ASSERT_TRUE(wm_line_stipple_keep(0x0001, 0, 0));         /* repeat 0 taken as 1 */
}

/* ---- WM: stipple, PS_INVOCATION_COUNT, HiZ ---------------------------------------------------- */

static void wm_line_state(struct wm_rig *r, bool stipple, uint32_t pattern, uint32_t repeat)
{
    wm_rig_ps_state(r, (struct wm_ps_setup){ .e8 = true, .grf = { 8 }, .ksp = { 0x40 },
                                             .modes = 1, .statistics = true });
    struct spec_3DSTATE_WM *w;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM, 2, sizeof *w, (void **)&w));
    w->BarycentricInterpolationMode = 1;
    w->StatisticsEnable = true;
    w->LineStippleEnable = stipple;
    struct spec_3DSTATE_LINE_STIPPLE *ls;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_LINE_STIPPLE, 3, sizeof *ls, (void **)&ls));
    ls->LineStipplePattern = pattern;
    ls->LineStippleRepeatCount = repeat;
}

static void run_ending_threads(struct wm_rig *r)
{
    uint32_t ended = 0;
    for (int round = 0; round < 300; round++) {
        wm_rig_run(r, 4);
        if (ended < r->td->count)
            wm_rig_end_thread(r, r->td->head[ended++].request_id, 0, 0);
    }
}

/* The pixels the PS threads got: bit x of rows[y]. */
static void shaded(const struct wm_rig *r, uint32_t rows[16])
{
    memset(rows, 0, 16 * sizeof rows[0]);
    for (uint32_t t = 0; t < r->td->count && t < WM_CATCH_MAX; t++) {
        const struct eu_thread_context *c = &r->td->head[t].ctx;
        uint32_t lit = r->td->grf[t][1][7] & 0xffffu;
        for (uint32_t k = 0; k < c->subspans; k++)
            for (uint32_t i = 0; i < 4; i++)
                if ((lit >> (4 * k + i)) & 1u) {
                    uint32_t x = c->pixel_x[k] + (i & 1u), y = c->pixel_y[k] + (i >> 1);
                    if (y < 16 && x < 32)
                        rows[y] |= 1u << x;
                }
    }
}

static struct setup_primitive setup_line(float x0, float y0, float x1, float y1, bool restart)
{
    struct sf_setup_state st = open_state();
    st.line_width = 1;
    struct sf_object o = { .type = SF_OBJECT_LINE, .stipple_restart = restart };
    o.v[0] = (struct sf_setup_vertex){ x0, y0, 0.5f, 1 };
    o.v[1] = (struct sf_setup_vertex){ x1, y1, 0.5f, 1 };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    return p;
}

static void test_wm_line_stipple(void)
{
    /* pattern 0b0011 repeat 2: s 0..3 kept, 4..31 dropped: of the line's
     * pixels 1..12 (s 0..11) the first four stay */
    struct wm_rig r = wm_rig_new();
    wm_line_state(&r, true, 0x0003, 2);
    struct setup_primitive p = setup_line(1.5f, 2.5f, 13.5f, 2.5f, true);
    wm_rig_send_setup(&r, &p);
    run_ending_threads(&r);
    uint32_t rows[16];
    shaded(&r, rows);
    CU_ASSERT_EQUAL(rows[2], 0x1eu);                /* x 1..4 */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.line_stippled"), 8);
    /* a strip's next line continues the counter (s 12..): pattern bits 6, 7
     * (0x00c0, repeat 2 -> s 12..15 kept); restart puts s back to 0 */
    sim_destroy(r.sim);
    r = wm_rig_new();
    wm_line_state(&r, true, 0x00c3, 2);
    p = setup_line(1.5f, 2.5f, 13.5f, 2.5f, true);          /* s 0..11: keeps s 0..3 */
    wm_rig_send_setup(&r, &p);
    p = setup_line(1.5f, 5.5f, 7.5f, 5.5f, false);          /* s 12..17: keeps 12..15 */
    wm_rig_send_setup(&r, &p);
    p = setup_line(1.5f, 8.5f, 7.5f, 8.5f, true);           /* s 0..5: keeps 0..3 */
    wm_rig_send_setup(&r, &p);
    run_ending_threads(&r);
    shaded(&r, rows);
    CU_ASSERT_EQUAL(rows[2], 0x1eu);
    CU_ASSERT_EQUAL(rows[5], 0x1eu);
    CU_ASSERT_EQUAL(rows[8], 0x1eu);
    /* stipple off: the whole line */
    sim_destroy(r.sim);
    r = wm_rig_new();
    wm_line_state(&r, false, 0x0003, 2);
    p = setup_line(1.5f, 2.5f, 13.5f, 2.5f, true);
    wm_rig_send_setup(&r, &p);
    run_ending_threads(&r);
    shaded(&r, rows);
    CU_ASSERT_EQUAL(rows[2], 0x1ffeu);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.line_stippled"), 0);
    sim_destroy(r.sim);
}

/* Antialiased lines: the coverage of each lit pixel reaches the render cache
 * with the PS thread (thread_msg.h aa_alpha, U0.8). The line (2.75, 5.25) -
 * (12.25, 5.25), width 2, Line AA Region 1.0, Cap Region 0.5: its rectangle
 * is y 4.25..6.25, x 2.25..12.75 (L14978-14990); coverage at the pixel
 * centre computed here = the edge ramp (0 at the edge, 1 at region / 2 =
 * 0.5 px inside) times the cap ramp (1 at the end point, 0 at 0.5 px
 * beyond), all values exact in SF's 1/256 subpixels. */
static float ref_aa_coverage(float cx, float cy)
{
    const float ax = 2.75f, bx = 12.25f, yc = 5.25f, half = 1.0f, ramp = 0.5f, cap = 0.5f;
    float across = half - fabsf(cy - yc);
    if (across <= 0)
        return 0;
    float edge = fminf(1.0f, across / ramp);
    float beyond = cx < ax ? ax - cx : cx > bx ? cx - bx : 0.0f;
    float end = beyond >= cap ? 0.0f : 1.0f - beyond / cap;
    return edge * end;
}

static void test_wm_aa_line_coverage_delivered(void)
{
    struct wm_rig r = wm_rig_new();
    wm_line_state(&r, false, 0, 1);
    struct sf_setup_state st = open_state();
    st.line_width = 2;
    st.line_antialiasing = true;
    struct sf_object o = { .type = SF_OBJECT_LINE, .stipple_restart = true };
    o.v[0] = (struct sf_setup_vertex){ 2.75f, 5.25f, 0.5f, 1 };
    o.v[1] = (struct sf_setup_vertex){ 12.25f, 5.25f, 0.5f, 1 };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL_FATAL(sf_setup(&st, &o, &p), SF_SETUP_OK);
    CU_ASSERT_EQUAL_FATAL(p.line_mode, SETUP_LINE_AA_RECTANGLE);
    wm_rig_send_setup(&r, &p);
    run_ending_threads(&r);
    uint32_t pixels = 0, rows[16] = { 0 };
    CU_ASSERT_TRUE_FATAL(r.td->count > 0);
    for (uint32_t t = 0; t < r.td->count && t < WM_CATCH_MAX; t++) {
        const struct eu_thread_context *c = &r.td->head[t].ctx;
        CU_ASSERT_EQUAL(c->aa_alpha_valid, 1);
        uint32_t lit = r.td->grf[t][1][7] & 0xffffu;
        for (uint32_t k = 0; k < c->subspans; k++)
            for (uint32_t i = 0; i < 4; i++) {
                if (!((lit >> (4 * k + i)) & 1u))
                    continue;
                uint32_t x = c->pixel_x[k] + (i & 1u), y = c->pixel_y[k] + (i >> 1);
                float want = ref_aa_coverage((float)x + 0.5f, (float)y + 0.5f);
                int diff = (int)c->aa_alpha[4 * k + i] - (int)lrintf(want * 255.0f);
                if (diff < -1 || diff > 1)
                    fprintf(stderr, "pixel (%u, %u): %u, want %.3f\n", x, y,
                            c->aa_alpha[4 * k + i], want);
                CU_ASSERT_TRUE(diff >= -1 && diff <= 1);
                pixels++;
                if (y < 16 && x < 32)
                    rows[y] |= 1u << x;
            }
    }
    /* the pixels whose centres lie in the rectangle: x 2..12 of rows 4 and 5 */
    CU_ASSERT_EQUAL(pixels, 22);
    CU_ASSERT_EQUAL(rows[4], 0x1ffcu);
    CU_ASSERT_EQUAL(rows[5], 0x1ffcu);
    /* row 4 (centre 0.25 px inside the edge) at half coverage, the end
     * pixels (0.25 px beyond their end points) at half again */
    CU_ASSERT_DOUBLE_EQUAL(ref_aa_coverage(7.5f, 4.5f), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(ref_aa_coverage(2.5f, 4.5f), 0.25, 1e-6);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.aa_line_pixels"), 22);
    sim_destroy(r.sim);
}

/* PS_INVOCATION_COUNT under per-sample dispatch: "once for each unmasked
 * pixel (or sample) that is dispatched" (L15695-15699): the test triangle
 * (0,0) (4,0) (0,4) at 4x with the pattern below covers 36 samples (counted
 * here from the positions), in 10 pixels. */
static const uint8_t ms_pos[4] = { 0xff, 0x11, 0x81, 0x1d };

static void test_ps_invocations_per_sample(void)
{
    for (int per_sample = 0; per_sample < 2; per_sample++) {
        struct wm_rig r = wm_rig_new();
        wm_rig_ps_state(&r, (struct wm_ps_setup){ .e8 = true, .grf = { 8 }, .ksp = { 0x40 },
                                                  .modes = 1, .statistics = true });
        struct spec_3DSTATE_PS_EXTRA *x;
        wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x));
        x->PixelShaderValid = true;
        x->PixelShaderIsPerSample = per_sample;
        struct spec_3DSTATE_MULTISAMPLE *ms;
        wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms,
                                          (void **)&ms));
        ms->NumberOfMultisamples = 2;
        struct spec_3DSTATE_RASTER *ra;
        wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_RASTER, 5, sizeof *ra, (void **)&ra));
        ra->DXMultisampleRasterizationEnable = true;
        struct spec_3DSTATE_SAMPLE_MASK *sm;
        wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm,
                                          (void **)&sm));
        sm->SampleMask = 0xffff;
        void *body;
        struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_PATTERN, 9, 4, &body);
        struct cs_state_packet *pk = (struct cs_state_packet *)m->payload;
        pk->dwords[7] = (uint32_t)ms_pos[0] | (uint32_t)ms_pos[1] << 8 |
                        (uint32_t)ms_pos[2] << 16 | (uint32_t)ms_pos[3] << 24;
        pk->dwords[8] = 0x008844cc;
        wm_rig_to_wm(&r, m);
        struct setup_primitive p = wm_rig_triangle(0, 0);
        wm_rig_send_setup(&r, &p);
        run_ending_threads(&r);
        uint32_t samples = 0, pixels = 0;
        for (int32_t j = 0; j < 8; j++)
            for (int32_t i = 0; i < 8; i++) {
                uint32_t c = 0;
                for (uint32_t smp = 0; smp < 4; smp++)
                    c += i + (ms_pos[smp] >> 4) / 16.0 + j + (ms_pos[smp] & 15) / 16.0 < 4.0;
                samples += c;
                pixels += c != 0;
            }
        CU_ASSERT_EQUAL(samples, 36);
        CU_ASSERT_EQUAL(pixels, 10);
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), per_sample ? samples : pixels);
        sim_destroy(r.sim);
    }
}

static const struct test_case cases[] = {
    { "diamond lines: every pixel against an independent Cyrus-Beck rule", test_diamond_exhaustive },
    { "diamond lines: cases worked from the seed's rules", test_diamond_hand_cases },
    { "SF picks the line algorithm of Table 2; AA and MSAA rectangles", test_sf_line_modes },
    { "line positions in pixel order and the stipple bit rule", test_line_positions },
    { "WM line stipple: pattern, repeat, continuation, restart", test_wm_line_stipple },
    { "AA lines: each pixel's coverage goes with the PS thread", test_wm_aa_line_coverage_delivered },
    { "PS_INVOCATION_COUNT counts samples under per-sample dispatch",
      test_ps_invocations_per_sample },
    { 0 }
};
TEST_SUITE(wm_line, cases);
