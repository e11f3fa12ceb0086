/* units/sf/sf_setup.c - see sf_setup.h. */
#include "units/sf/sf_setup.h"

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

enum sf_setup_result sf_setup_object(const struct sf_setup_state *st, const struct sf_setup_vertex v[3],
                                     bool rectangle, struct setup_primitive *out)
{
    const uint32_t s = st->subpixel_bits ? st->subpixel_bits : 8;
    const int64_t one = (int64_t)1 << s;
    const int64_t half = st->pixel_center ? one / 2 : 0;
    int64_t X[4], Y[4];
    for (int i = 0; i < 3; i++) {
        X[i] = sf_quantize((double)v[i].x + st->origin_x, s);
        Y[i] = sf_quantize((double)v[i].y + st->origin_y, s);
    }
    memset(out, 0, sizeof *out);
    out->subpixel_bits = s;
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
        bx0 = ceil_div(xlo - half, one);
        bx1 = ceil_div(xhi - half, one) - 1;
        by0 = ceil_div(ylo - half, one);
        by1 = ceil_div(yhi - half, one) - 1;
        out->topology = PRIM_RECTLIST;
    } else {
        if (area2 == 0)
            return SF_SETUP_DEGENERATE;         /* collinear or coincident (L14830) */
        /* X right, Y down: area2 > 0 is clockwise on the screen */
        bool clockwise = area2 > 0;
        bool front = clockwise == (st->front_winding == SF_FRONT_CW);
        if (!front)
            out->flags |= PRIM_BACK_FACING;
        if (st->cull_mode == SF_CULL_BOTH || (st->cull_mode == SF_CULL_FRONT && front) ||
            (st->cull_mode == SF_CULL_BACK && !front))
            return SF_SETUP_CULLED_FACE;
        int64_t xlo = X[0], xhi = X[0], ylo = Y[0], yhi = Y[0];
        for (int i = 1; i < 3; i++) {
            xlo = X[i] < xlo ? X[i] : xlo;
            xhi = X[i] > xhi ? X[i] : xhi;
            ylo = Y[i] < ylo ? Y[i] : ylo;
            yhi = Y[i] > yhi ? Y[i] : yhi;
        }
        bx0 = ceil_div(xlo - half, one);
        bx1 = floor_div(xhi - half, one);
        by0 = ceil_div(ylo - half, one);
        by1 = floor_div(yhi - half, one);
        out->topology = PRIM_TRILIST;
    }
    int32_t cx0, cy0, cx1, cy1;
    clip_rectangle(st, &cx0, &cy0, &cx1, &cy1);
    if (bx0 < cx0) bx0 = cx0;
    if (by0 < cy0) by0 = cy0;
    if (bx1 > cx1) bx1 = cx1;
    if (by1 > cy1) by1 = cy1;
    if (bx0 > bx1 || by0 > by1)
        return SF_SETUP_OUTSIDE;
    out->x_min = (int32_t)bx0;
    out->y_min = (int32_t)by0;
    out->x_max = (int32_t)bx1;
    out->y_max = (int32_t)by1;
    /* edges relative to the bounding box origin, inside positive */
    const int64_t ox = bx0 * one, oy = by0 * one;
    if (rectangle) {
        /* the box is exact: every edge stays zero (always inside) */
    } else {
        int64_t sign = area2 > 0 ? 1 : -1;
        for (int e = 0; e < 3; e++) {
            int p = e, q = (e + 1) % 3;
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
    double px[3], py[3], z[3], rw[3];
    for (int i = 0; i < 3; i++) {
        px[i] = (double)X[i] / (double)one;
        py[i] = (double)Y[i] / (double)one;
        z[i] = v[i].z;
        rw[i] = v[i].w != 0 ? 1.0 / v[i].w : 0.0;
    }
    out->x0 = (float)px[0];
    out->y0 = (float)py[0];
    out->depth = plane(px, py, z);
    out->inverse_w = plane(px, py, rw);
    return SF_SETUP_OK;
}

bool sf_setup_covers(const struct setup_primitive *p, int32_t px, int32_t py, bool pixel_center)
{
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
