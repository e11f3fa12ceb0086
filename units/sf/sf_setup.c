/* units/sf/sf_setup.c - see sf_setup.h. */
#include "units/sf/sf_setup.h"

#include "units/wm/wm_line.h"

#include <math.h>
#include <string.h>

#define GUARDBAND_MIN (-32768)          /* [-32K, 32K-1] pixels (L14813) */
#define GUARDBAND_MAX 32767

int64_t sf_quantize(double coordinate, uint32_t bits)
{
    double scaled = coordinate * (double)(1u << bits);
    double lo = (double)GUARDBAND_MIN * (double)(1u << bits);
    double hi = (double)GUARDBAND_MAX * (double)(1u << bits);
    if (!(scaled > lo))                 /* NaN too: the caller discards NaNs first */
        scaled = lo;
    if (scaled > hi)
        scaled = hi;
    return (int64_t)nearbyint(scaled);  /* the default rounding mode: ties to even */
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return -floor_div(-a, b);
}

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

/* The clip rectangle of L14858-14870, inclusive pixel bounds. */
static void clip_rectangle(const struct sf_setup_state *st, int32_t *x0, int32_t *y0, int32_t *x1,
                           int32_t *y1)
{
    *x0 = st->clip_x_min;
    *y0 = st->clip_y_min;
    *x1 = st->clip_x_max;
    *y1 = st->clip_y_max;
    if (st->scissor_enable) {
        /* relative to the drawing rectangle's origin (L14860) */
        *x0 = max_i32(*x0, st->scissor_x_min + st->origin_x);
        *y0 = max_i32(*y0, st->scissor_y_min + st->origin_y);
        *x1 = min_i32(*x1, st->scissor_x_max + st->origin_x);
        *y1 = min_i32(*y1, st->scissor_y_max + st->origin_y);
    }
    if (st->viewport_extents_enable) {
        *x0 = max_i32(*x0, (int32_t)lrintf(st->viewport_x_min) + st->origin_x);
        *y0 = max_i32(*y0, (int32_t)lrintf(st->viewport_y_min) + st->origin_y);
        *x1 = min_i32(*x1, (int32_t)lrintf(st->viewport_x_max) + st->origin_x);
        *y1 = min_i32(*y1, (int32_t)lrintf(st->viewport_y_max) + st->origin_y);
    }
}

/* A plane through three values at the quantized positions (pixels). */
static struct setup_plane plane(const double x[3], const double y[3], const double val[3])
{
    double dx1 = x[1] - x[0], dy1 = y[1] - y[0], dx2 = x[2] - x[0], dy2 = y[2] - y[0];
    double det = dx1 * dy2 - dx2 * dy1;
    struct setup_plane p = { (float)val[0], 0, 0 };
    if (det != 0) {
        double d1 = val[1] - val[0], d2 = val[2] - val[0];
        p.a1 = (float)((d1 * dy2 - d2 * dy1) / det);
        p.a2 = (float)((d2 * dx1 - d1 * dx2) / det);
    }
    return p;
}

static double inverse_w(float w)
{
    return w != 0 ? 1.0 / (double)w : 0.0;
}

/* The pixel range whose sample points s satisfy lo <= s < hi (subpixels;
 * `half` the sample's offset in the pixel), or lo < s <= hi. */
static void span_closed_low(int64_t lo, int64_t hi, int64_t half, int64_t one, int64_t *p0, int64_t *p1)
{
    *p0 = ceil_div(lo - half, one);
    *p1 = ceil_div(hi - half, one) - 1;
}

static void span_closed_high(int64_t lo, int64_t hi, int64_t half, int64_t one, int64_t *p0, int64_t *p1)
{
    *p0 = floor_div(lo - half, one) + 1;
    *p1 = floor_div(hi - half, one);
}

/* Clips the candidate pixels to the clip rectangle and stores the box:
 * false when nothing is left. */
static bool clip_box(const struct sf_setup_state *st, int64_t bx0, int64_t by0, int64_t bx1,
                     int64_t by1, struct setup_primitive *out)
{
    int32_t cx0, cy0, cx1, cy1;
    clip_rectangle(st, &cx0, &cy0, &cx1, &cy1);
    if (bx0 < cx0) bx0 = cx0;
    if (by0 < cy0) by0 = cy0;
    if (bx1 > cx1) bx1 = cx1;
    if (by1 > cy1) by1 = cy1;
    if (bx0 > bx1 || by0 > by1)
        return false;
    out->x_min = (int32_t)bx0;
    out->y_min = (int32_t)by0;
    out->x_max = (int32_t)bx1;
    out->y_max = (int32_t)by1;
    return true;
}

/* The edges of a convex polygon X/Y (n corners, subpixels) whose signed
 * double area is area2 (nonzero), relative to the box origin, with the
 * top-left rule. */
static void polygon_edges(const int64_t *X, const int64_t *Y, uint32_t n, int64_t area2,
                          int64_t one, struct setup_primitive *out)
{
    const int64_t ox = (int64_t)out->x_min * one, oy = (int64_t)out->y_min * one;
    int64_t sign = area2 > 0 ? 1 : -1;
    for (uint32_t e = 0; e < n && e < SETUP_MAX_EDGES; e++) {
        uint32_t p = e, q = (e + 1) % n;
        int64_t a = -sign * (Y[q] - Y[p]);
        int64_t b = sign * (X[q] - X[p]);
        int64_t c = -a * (X[p] - ox) - b * (Y[p] - oy);
        /* a sample on the edge is inside only on a left edge (inside to
         * its right: a > 0) or a top edge (horizontal, inside below) */
        bool top_left = a > 0 || (a == 0 && b > 0);
        if (!top_left)
            c -= 1;
        out->edge_a[e] = a;
        out->edge_b[e] = b;
        out->edge_c[e] = c;
    }
}

/* Inclusive candidate pixels of the corners' box (the edges decide). */
static void corner_box(const int64_t *X, const int64_t *Y, uint32_t n, int64_t half, int64_t one,
                       bool any_sample, int64_t *bx0, int64_t *by0, int64_t *bx1, int64_t *by1)
{
    int64_t xlo = X[0], xhi = X[0], ylo = Y[0], yhi = Y[0];
    for (uint32_t i = 1; i < n; i++) {
        xlo = X[i] < xlo ? X[i] : xlo;
        xhi = X[i] > xhi ? X[i] : xhi;
        ylo = Y[i] < ylo ? Y[i] : ylo;
        yhi = Y[i] > yhi ? Y[i] : yhi;
    }
    if (any_sample) {
        /* model fix: under multisample rasterization the samples sit anywhere
         * in the pixel (the pattern's offsets, seed 000 L3905-3929 and the
         * 3DSTATE_MULTISAMPLE positions), so every pixel the object's box
         * touches is a candidate, not only those whose centre may be inside
         * (a pixel whose centre lies left of a vertex can hold covered
         * samples); the edges decide each sample */
        *bx0 = floor_div(xlo, one);
        *bx1 = floor_div(xhi, one);
        *by0 = floor_div(ylo, one);
        *by1 = floor_div(yhi, one);
        return;
    }
    *bx0 = ceil_div(xlo - half, one);
    *bx1 = floor_div(xhi - half, one);
    *by0 = ceil_div(ylo - half, one);
    *by1 = floor_div(yhi - half, one);
}

/* Global depth offset (003 L15719-15758) of a triangle's depth plane. */
static void depth_offset(const struct sf_setup_state *st, const struct sf_setup_vertex v[3],
                         struct setup_plane *depth)
{
    float slope = fmaxf(fabsf(depth->a1), fabsf(depth->a2));
    float unit;
    if (st->depth_format == SF_DEPTH_D32_FLOAT) {
        float zmax = fmaxf(v[0].z, fmaxf(v[1].z, v[2].z));
        if (st->legacy_depth_bias)
            unit = 1.0f;
        else if (zmax == 0 || !isfinite(zmax))
            unit = ldexpf(1.0f, -126 - 23);         /* the exponent of zero: the smallest */
        else
            unit = ldexpf(1.0f, ilogbf(zmax) - 23);
    } else {
        uint32_t bits = st->depth_format == SF_DEPTH_D16_UNORM ? 16 : 24;
        unit = st->legacy_depth_bias ? 1.0f : 1.0f / (float)((1u << bits) - 1u);
    }
    float bias = st->depth_offset_constant * unit + st->depth_offset_scale * slope;
    if (st->depth_offset_clamp > 0)
        bias = fminf(st->depth_offset_clamp, bias);
    else if (st->depth_offset_clamp < 0)
        bias = fmaxf(st->depth_offset_clamp, bias);
    depth->a0 += bias;
}

static enum sf_setup_result setup_triangle(const struct sf_setup_state *st, const struct sf_object *o,
                                           bool rectangle, struct setup_primitive *out)
{
    const uint32_t s = st->subpixel_bits ? st->subpixel_bits : 8;
    const int64_t one = (int64_t)1 << s;
    const int64_t half = st->pixel_center ? one / 2 : 0;
    const struct sf_setup_vertex *v = o->v;
    int64_t X[4], Y[4];
    for (int i = 0; i < 3; i++) {
        X[i] = sf_quantize((double)v[i].x + st->origin_x, s);
        Y[i] = sf_quantize((double)v[i].y + st->origin_y, s);
    }
    int64_t bx0, by0, bx1, by1;         /* candidate pixels, inclusive */
    int64_t area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (rectangle) {
        /* completion (L14797): v3 = v0 + v2 - v1; only axis-aligned forms
         * (what the drivers send) have their edges on the bounding box */
        X[3] = X[0] + X[2] - X[1];
        Y[3] = Y[0] + Y[2] - Y[1];
        bool aligned = (X[0] == X[1] && Y[1] == Y[2]) || (Y[0] == Y[1] && X[1] == X[2]);
        if (!aligned || area2 == 0)
            return SF_SETUP_DEGENERATE;
        int64_t xlo = X[0], xhi = X[0], ylo = Y[0], yhi = Y[0];
        for (int i = 1; i < 4; i++) {
            xlo = X[i] < xlo ? X[i] : xlo;
            xhi = X[i] > xhi ? X[i] : xhi;
            ylo = Y[i] < ylo ? Y[i] : ylo;
            yhi = Y[i] > yhi ? Y[i] : yhi;
        }
        /* left and top edges in, right and bottom out (the top-left rule) */
        span_closed_low(xlo, xhi, half, one, &bx0, &bx1);
        span_closed_low(ylo, yhi, half, one, &by0, &by1);
        out->topology = PRIM_RECTLIST;
    } else {
        if (area2 == 0)
            return SF_SETUP_DEGENERATE;         /* collinear or coincident (L14830) */
        /* X right, Y down: area2 > 0 is clockwise on the screen; a strip's
         * odd triangles count the other way (invertOrientation, L14850) */
        bool clockwise = (area2 > 0) != o->invert_orientation;
        bool front = clockwise == (st->front_winding == SF_FRONT_CW);
        if (!front)
            out->flags |= PRIM_BACK_FACING;
        if (st->cull_mode == SF_CULL_BOTH || (st->cull_mode == SF_CULL_FRONT && front) ||
            (st->cull_mode == SF_CULL_BACK && !front))
            return SF_SETUP_CULLED_FACE;
        corner_box(X, Y, 3, half, one, st->sample_pattern_raster, &bx0, &by0, &bx1, &by1);
        out->topology = PRIM_TRILIST;
    }
    if (!clip_box(st, bx0, by0, bx1, by1, out))
        return SF_SETUP_OUTSIDE;
    if (!rectangle)
        polygon_edges(X, Y, 3, area2, one, out);  /* a rectangle's box is exact: no edges */
    double px[3], py[3], z[3], rw[3];
    for (int i = 0; i < 3; i++) {
        px[i] = (double)X[i] / (double)one;
        py[i] = (double)Y[i] / (double)one;
        z[i] = v[i].z;
        rw[i] = inverse_w(v[i].w);
        out->vertex_inverse_w[i] = (float)rw[i];
    }
    static const double b1[3] = { 0, 1, 0 }, b2[3] = { 0, 0, 1 };
    out->x0 = (float)px[0];
    out->y0 = (float)py[0];
    out->depth = plane(px, py, z);
    out->inverse_w = plane(px, py, rw);
    out->barycentric[0] = plane(px, py, b1);
    out->barycentric[1] = plane(px, py, b2);
    if (!rectangle) {
        /* the enable of the fill mode of the triangle's face (SF_INT, L15003-15015) */
        uint32_t fill = (out->flags & PRIM_BACK_FACING) ? st->back_fill_mode : st->front_fill_mode;
        bool enable = fill == SF_FILL_WIREFRAME ? st->depth_offset_wireframe
                      : fill == SF_FILL_POINT   ? st->depth_offset_point
                                                : st->depth_offset;
        if (enable)
            depth_offset(st, v, &out->depth);
    }
    return SF_SETUP_OK;
}

static enum sf_setup_result setup_point(const struct sf_setup_state *st, const struct sf_object *o,
                                        struct setup_primitive *out)
{
    const uint32_t s = st->subpixel_bits ? st->subpixel_bits : 8;
    const int64_t one = (int64_t)1 << s;
    const int64_t half = st->pixel_center ? one / 2 : 0;
    double w = o->point_width;
    if (!(w >= 0) || isinf(w))
        return SF_SETUP_BAD_WIDTH;
    /* the square +-w/2 about the centre (L14786-14795), then quantized */
    double cx = (double)o->v[0].x + st->origin_x, cy = (double)o->v[0].y + st->origin_y;
    int64_t xl = sf_quantize(cx - w / 2, s), xr = sf_quantize(cx + w / 2, s);
    int64_t yt = sf_quantize(cy - w / 2, s), yb = sf_quantize(cy + w / 2, s);
    if (xl == xr || yt == yb)
        return SF_SETUP_DEGENERATE;         /* the radius quantized to zero (L14830) */
    int64_t bx0, by0, bx1, by1;
    if (st->point_rule_upper_right)
        span_closed_high(xl, xr, half, one, &bx0, &bx1);
    else
        span_closed_low(xl, xr, half, one, &bx0, &bx1);
    span_closed_low(yt, yb, half, one, &by0, &by1);     /* the top edge in, the bottom out */
    out->topology = PRIM_POINTLIST;
    if (o->back_facing)
        out->flags |= PRIM_BACK_FACING;
    if (!clip_box(st, bx0, by0, bx1, by1, out))
        return SF_SETUP_OUTSIDE;
    /* no edges: the box is exact. Vertices 0, 1, 2 = top-left, top-right,
     * bottom-left: b1 runs 0..1 left to right, b2 top to bottom */
    double width = (double)(xr - xl) / (double)one, height = (double)(yb - yt) / (double)one;
    out->x0 = (float)((double)xl / (double)one);
    out->y0 = (float)((double)yt / (double)one);
    out->depth = (struct setup_plane){ o->v[0].z, 0, 0 };
    float rw = (float)inverse_w(o->v[0].w);
    out->inverse_w = (struct setup_plane){ rw, 0, 0 };
    out->barycentric[0] = (struct setup_plane){ 0, (float)(1.0 / width), 0 };
    out->barycentric[1] = (struct setup_plane){ 0, 0, (float)(1.0 / height) };
    for (int i = 0; i < 3; i++)
        out->vertex_inverse_w[i] = rw;
    return SF_SETUP_OK;
}

/* The corners (subpixels) of a line's rectangle: half width `hw` each side
 * of the line, the ends `cap` pixels beyond the endpoints (L14978-14984;
 * MSAA lines: cap 0, L15634). */
static void line_rectangle(double x0, double y0, double x1, double y1, double hw, double cap,
                           uint32_t s, int64_t X[4], int64_t Y[4])
{
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    double ux = dx / len, uy = dy / len;        /* along the line */
    double nx = -uy, ny = ux;                   /* across it */
    double ax = x0 - cap * ux, ay = y0 - cap * uy, bx = x1 + cap * ux, by = y1 + cap * uy;
    X[0] = sf_quantize(ax - hw * nx, s);
    Y[0] = sf_quantize(ay - hw * ny, s);
    X[1] = sf_quantize(bx - hw * nx, s);
    Y[1] = sf_quantize(by - hw * ny, s);
    X[2] = sf_quantize(bx + hw * nx, s);
    Y[2] = sf_quantize(by + hw * ny, s);
    X[3] = sf_quantize(ax + hw * nx, s);
    Y[3] = sf_quantize(ay + hw * ny, s);
}

static enum sf_setup_result setup_line(const struct sf_setup_state *st, const struct sf_object *o,
                                       struct setup_primitive *out)
{
    const uint32_t s = st->subpixel_bits ? st->subpixel_bits : 8;
    const int64_t one = (int64_t)1 << s;
    const int64_t half = st->pixel_center ? one / 2 : 0;
    double x0 = (double)o->v[0].x + st->origin_x, y0 = (double)o->v[0].y + st->origin_y;
    double x1 = (double)o->v[1].x + st->origin_x, y1 = (double)o->v[1].y + st->origin_y;
    int64_t qx0 = sf_quantize(x0, s), qy0 = sf_quantize(y0, s);
    int64_t qx1 = sf_quantize(x1, s), qy1 = sf_quantize(y1, s);
    if (qx0 == qx1 && qy0 == qy1)
        return SF_SETUP_DEGENERATE;         /* coincident endpoints (L14830) */
    bool width_ok = st->line_width > 0 && isfinite(st->line_width);
    double w = width_ok ? st->line_width : 1.0;
    /* Table 2 (L15636-15643) */
    uint32_t mode = st->line_multisample ? SETUP_LINE_MSAA_RECTANGLE
                    : !width_ok ? (st->legacy_diamond ? SETUP_LINE_DIAMOND_LEGACY
                                                      : SETUP_LINE_DIAMOND_DX10)
                    : st->line_antialiasing ? SETUP_LINE_AA_RECTANGLE
                    : SETUP_LINE_PARALLELOGRAM;
    /* the snapped endpoints decide the rules from here on */
    double sx0 = (double)qx0 / (double)one, sy0 = (double)qy0 / (double)one;
    double sx1 = (double)qx1 / (double)one, sy1 = (double)qy1 / (double)one;
    double dx = sx1 - sx0, dy = sy1 - sy0;
    bool x_major = fabs(dx) >= fabs(dy);    /* diagonals are X-major (L14983) */
    int64_t X[4], Y[4];
    int64_t bx0, by0, bx1, by1;
    int64_t area2 = 0;
    switch (mode) {
    case SETUP_LINE_DIAMOND_LEGACY:
    case SETUP_LINE_DIAMOND_DX10: {
        /* candidate pixels: sample points within half a pixel (Manhattan) of
         * the segment lie in the endpoints' box grown by half a pixel */
        int64_t xlo = qx0 < qx1 ? qx0 : qx1, xhi = qx0 < qx1 ? qx1 : qx0;
        int64_t ylo = qy0 < qy1 ? qy0 : qy1, yhi = qy0 < qy1 ? qy1 : qy0;
        bx0 = ceil_div(xlo - one / 2 - half, one);
        bx1 = floor_div(xhi + one / 2 - half, one);
        by0 = ceil_div(ylo - one / 2 - half, one);
        by1 = floor_div(yhi + one / 2 - half, one);
        w = 0;
        break;
    }
    case SETUP_LINE_AA_RECTANGLE:
    case SETUP_LINE_MSAA_RECTANGLE: {
        double cap = mode == SETUP_LINE_AA_RECTANGLE ? st->line_cap_aa_region : 0.0;
        line_rectangle(sx0, sy0, sx1, sy1, w / 2, cap, s, X, Y);
        break;
    }
    default: {
        /* the unsnapped ends, as quantized below (L14961-14976) */
        double rdx = x1 - x0, rdy = y1 - y0;
        x_major = fabs(rdx) >= fabs(rdy);
        double ex1 = x1, ey1 = y1;
        if (o->last_pixel) {
            if (x_major)
                ex1 += rdx > 0 ? 0.5 : -0.5;
            else
                ey1 += rdy > 0 ? 0.5 : -0.5;
        }
        double ox = x_major ? 0 : w / 2, oy = x_major ? w / 2 : 0;
        /* the parallelogram: the endpoints moved +-w/2 along the minor axis */
        double cx[4] = { x0 - ox, ex1 - ox, ex1 + ox, x0 + ox };
        double cy[4] = { y0 - oy, ey1 - oy, ey1 + oy, y0 + oy };
        for (int i = 0; i < 4; i++) {
            X[i] = sf_quantize(cx[i], s);
            Y[i] = sf_quantize(cy[i], s);
        }
        break;
    }
    }
    bool diamond = mode == SETUP_LINE_DIAMOND_LEGACY || mode == SETUP_LINE_DIAMOND_DX10;
    if (!diamond) {
        for (int i = 0; i < 4; i++) {
            int j = (i + 1) % 4;
            area2 += X[i] * Y[j] - X[j] * Y[i];
        }
        if (area2 == 0)
            return SF_SETUP_DEGENERATE;
        corner_box(X, Y, 4, half, one, st->sample_pattern_raster, &bx0, &by0, &bx1, &by1);
    }
    out->topology = PRIM_LINELIST;
    if (o->back_facing)
        out->flags |= PRIM_BACK_FACING;
    if (!clip_box(st, bx0, by0, bx1, by1, out))
        return SF_SETUP_OUTSIDE;
    if (!diamond)
        polygon_edges(X, Y, 4, area2, one, out);
    out->line_mode = mode;
    out->line_flags = (o->last_pixel ? SETUP_LINE_LAST_PIXEL : 0u) |
                      (o->stipple_restart ? SETUP_LINE_STIPPLE_RESTART : 0u) |
                      (x_major ? SETUP_LINE_X_MAJOR : 0u) |
                      (st->aa_distance_true ? 0u : SETUP_LINE_AA_MANHATTAN);
    out->line_x[0] = (int32_t)qx0;
    out->line_y[0] = (int32_t)qy0;
    out->line_x[1] = (int32_t)qx1;
    out->line_y[1] = (int32_t)qy1;
    out->line_width = (float)w;
    out->line_aa_region = st->line_aa_region;
    out->line_cap_aa_region = st->line_cap_aa_region;
    /* planes along the line: a sample takes the value at its projection on
     * v0 -> v1 (vertex 2 = vertex 0, so b2 is zero) */
    double px0 = (double)qx0 / (double)one, py0 = (double)qy0 / (double)one;
    double ldx = (double)(qx1 - qx0) / (double)one, ldy = (double)(qy1 - qy0) / (double)one;
    double l2 = ldx * ldx + ldy * ldy;
    double gx = ldx / l2, gy = ldy / l2;    /* b1's gradient */
    double rw0 = inverse_w(o->v[0].w), rw1 = inverse_w(o->v[1].w);
    double dz = (double)o->v[1].z - o->v[0].z;
    out->x0 = (float)px0;
    out->y0 = (float)py0;
    out->barycentric[0] = (struct setup_plane){ 0, (float)gx, (float)gy };
    out->barycentric[1] = (struct setup_plane){ 0, 0, 0 };
    out->depth = (struct setup_plane){ o->v[0].z, (float)(dz * gx), (float)(dz * gy) };
    out->inverse_w = (struct setup_plane){ (float)rw0, (float)((rw1 - rw0) * gx),
                                           (float)((rw1 - rw0) * gy) };
    out->vertex_inverse_w[0] = (float)rw0;
    out->vertex_inverse_w[1] = (float)rw1;
    out->vertex_inverse_w[2] = (float)rw0;
    return SF_SETUP_OK;
}

enum sf_setup_result sf_setup(const struct sf_setup_state *st, const struct sf_object *o,
                              struct setup_primitive *out)
{
    memset(out, 0, sizeof *out);
    out->subpixel_bits = st->subpixel_bits ? st->subpixel_bits : 8;
    switch (o->type) {
    case SF_OBJECT_POINT:
        return setup_point(st, o, out);
    case SF_OBJECT_LINE:
        return setup_line(st, o, out);
    case SF_OBJECT_RECTANGLE:
        return setup_triangle(st, o, true, out);
    default:
        return setup_triangle(st, o, false, out);
    }
}

enum sf_setup_result sf_setup_object(const struct sf_setup_state *st, const struct sf_setup_vertex v[3],
                                     bool rectangle, struct setup_primitive *out)
{
    struct sf_object o = { .type = rectangle ? SF_OBJECT_RECTANGLE : SF_OBJECT_TRIANGLE };
    memcpy(o.v, v, sizeof o.v);
    return sf_setup(st, &o, out);
}

bool sf_setup_covers(const struct setup_primitive *p, int32_t px, int32_t py, bool pixel_center)
{
    if (p->line_mode == SETUP_LINE_DIAMOND_LEGACY || p->line_mode == SETUP_LINE_DIAMOND_DX10)
        return wm_line_diamond_lit(p, px, py, pixel_center);    /* WM's rule */
    if (px < p->x_min || px > p->x_max || py < p->y_min || py > p->y_max)
        return false;
    int64_t one = (int64_t)1 << p->subpixel_bits;
    int64_t half = pixel_center ? one / 2 : 0;
    int64_t X = (int64_t)(px - p->x_min) * one + half;
    int64_t Y = (int64_t)(py - p->y_min) * one + half;
    for (uint32_t e = 0; e < SETUP_MAX_EDGES; e++)
        if (p->edge_a[e] * X + p->edge_b[e] * Y + p->edge_c[e] < 0)
            return false;
    return true;
}
