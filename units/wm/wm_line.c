/* units/wm/wm_line.c - see wm_line.h. */
#include "units/wm/wm_line.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* The slope facts the diamond rules depend on (003 L14910-14955), from the
 * directed segment (ex, ey), Y down. */
struct diamond_rule {
    bool legacy, slope_pos_one, slope_neg_one, x_major;
};

static struct diamond_rule rule_of(const struct setup_primitive *p)
{
    int64_t ex = (int64_t)p->line_x[1] - p->line_x[0], ey = (int64_t)p->line_y[1] - p->line_y[0];
    return (struct diamond_rule){
        .legacy = p->line_mode == SETUP_LINE_DIAMOND_LEGACY,
        .slope_pos_one = ex != 0 && ey == ex,
        .slope_neg_one = ex != 0 && ey == -ex,
        .x_major = llabs(ex) >= llabs(ey),
    };
}

/* The seed's inside() (L14926-14938 legacy, L14957-14969 DX10) at (dx, dy)
 * from the sample point, h = half a pixel, all in subpixels. */
static bool diamond_inside(const struct diamond_rule *r, int64_t dx, int64_t dy, int64_t h)
{
    int64_t distance = llabs(dx) + llabs(dy);
    bool interior = distance < h;
    bool bottom_corner = dx == 0 && dy == h;
    bool left_corner = dx == -h && dy == 0;
    bool right_corner = dx == h && dy == 0;
    bool bottom_left_edge = distance == h && dx < 0 && dy > 0;
    bool bottom_right_edge = distance == h && dx > 0 && dy > 0;
    if (r->legacy)
        return interior || bottom_corner || (r->slope_pos_one ? left_corner : right_corner) ||
               (r->slope_pos_one && bottom_left_edge) || (r->slope_neg_one && bottom_right_edge);
    return interior || bottom_corner || (!r->x_major && right_corner) || bottom_left_edge ||
           bottom_right_edge;
}

/* Whether the segment A -> B (relative to the sample point) has a point
 * inside the diamond. |x| + |y| is convex and piecewise linear along the
 * segment, least at an end or where it crosses an axis: the interior is
 * reached iff one of those is inside; otherwise it can only touch the
 * boundary there, or run along an edge. */
static bool segment_touches(const struct diamond_rule *r, int64_t ax, int64_t ay, int64_t bx,
                            int64_t by, int64_t h)
{
    if (diamond_inside(r, ax, ay, h) || diamond_inside(r, bx, by, h))
        return true;
    int64_t ex = bx - ax, ey = by - ay;
    int64_t cross = ay * bx - ax * by;
    if ((ax < 0 && bx > 0) || (ax > 0 && bx < 0)) {
        /* crosses x = 0 at y = cross / ex */
        int64_t num = ex > 0 ? cross : -cross, den = llabs(ex);
        if (llabs(num) < h * den)
            return true;
        if (num == h * den && diamond_inside(r, 0, h, h))
            return true;                /* through the bottom corner */
    }
    if ((ay < 0 && by > 0) || (ay > 0 && by < 0)) {
        /* crosses y = 0 at x = -cross / ey */
        int64_t num = ey > 0 ? -cross : cross, den = llabs(ey);
        if (llabs(num) < h * den)
            return true;
        if (num == h * den && diamond_inside(r, h, 0, h))
            return true;                /* through the right corner */
        if (num == -h * den && diamond_inside(r, -h, 0, h))
            return true;                /* through the left corner */
    }
    /* along the bottom-left edge (x - y = -h, x in (-h, 0)) or the bottom-right
     * one (x + y = h, x in (0, h)) for more than a point */
    int64_t lo = ax < bx ? ax : bx, hi = ax < bx ? bx : ax;
    if (ex != 0 && ey == ex && ax - ay == -h) {
        int64_t l = lo > -h ? lo : -h, u = hi < 0 ? hi : 0;
        if (l < u && diamond_inside(r, -(h / 2), h - h / 2, h))
            return true;
    }
    if (ex != 0 && ey == -ex && ax + ay == h) {
        int64_t l = lo > 0 ? lo : 0, u = hi < h ? hi : h;
        if (l < u && diamond_inside(r, h / 2, h - h / 2, h))
            return true;
    }
    return false;
}

bool wm_line_diamond_lit(const struct setup_primitive *p, int32_t px, int32_t py,
                         bool pixel_center)
{
    if (p->line_mode != SETUP_LINE_DIAMOND_LEGACY && p->line_mode != SETUP_LINE_DIAMOND_DX10)
        return false;
    if (px < p->x_min || px > p->x_max || py < p->y_min || py > p->y_max)
        return false;
    const int64_t one = (int64_t)1 << p->subpixel_bits, h = one / 2;
    const int64_t sx = (int64_t)px * one + (pixel_center ? h : 0);
    const int64_t sy = (int64_t)py * one + (pixel_center ? h : 0);
    struct diamond_rule r = rule_of(p);
    int64_t ax = p->line_x[0] - sx, ay = p->line_y[0] - sy;
    int64_t bx = p->line_x[1] - sx, by = p->line_y[1] - sy;
    if (!segment_touches(&r, ax, ay, bx, by, h))
        return false;
    /* a line that ends in the diamond does not exit it (L14890) */
    return (p->line_flags & SETUP_LINE_LAST_PIXEL) || !diamond_inside(&r, bx, by, h);
}

float wm_line_aa_coverage(const struct setup_primitive *p, double x, double y)
{
    const double one = (double)((int64_t)1 << p->subpixel_bits);
    double x0 = p->line_x[0] / one, y0 = p->line_y[0] / one;
    double dx = p->line_x[1] / one - x0, dy = p->line_y[1] / one - y0;
    double length = sqrt(dx * dx + dy * dy);
    if (!(length > 0))
        return 0.0f;
    double ux = dx / length, uy = dy / length;
    double rx = x - x0, ry = y - y0;
    double along = rx * ux + ry * uy, across = fabs(ry * ux - rx * uy);
    double inside = (double)p->line_width / 2 - across;     /* to the nearer parallel edge */
    if (!(inside > 0))
        return 0.0f;
    double ramp = (double)p->line_aa_region / 2;
    double edge = ramp > 0 ? fmin(1.0, inside / ramp) : 1.0;
    double cap = p->line_cap_aa_region, end = 1.0;
    if (along < 0)
        end = cap > 0 ? 1.0 + along / cap : 0.0;
    else if (along > length)
        end = cap > 0 ? 1.0 - (along - length) / cap : 0.0;
    end = fmax(0.0, fmin(1.0, end));
    return (float)(edge * end);
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

/* Whether any pixel at major position m of a diamond line is lit. */
static bool diamond_position_lit(const struct setup_primitive *p, bool x_major, int64_t m,
                                 bool pixel_center)
{
    const int64_t one = (int64_t)1 << p->subpixel_bits, h = pixel_center ? one / 2 : 0;
    int64_t a0 = x_major ? p->line_x[0] : p->line_y[0], a1 = x_major ? p->line_x[1] : p->line_y[1];
    int64_t b0 = x_major ? p->line_y[0] : p->line_x[0], b1 = x_major ? p->line_y[1] : p->line_x[1];
    int64_t c = m * one + h;                    /* the sample's major coordinate */
    int64_t minor = a1 != a0 ? b0 + (b1 - b0) * (c - a0) / (a1 - a0) : b0;
    int64_t base = floor_div(minor, one);
    struct setup_primitive q = *p;              /* unclipped: the whole line counts */
    q.x_min = q.y_min = INT32_MIN;
    q.x_max = q.y_max = INT32_MAX;
    for (int64_t k = base - 2; k <= base + 2; k++) {
        int64_t px = x_major ? m : k, py = x_major ? k : m;
        if (px < INT32_MIN || px > INT32_MAX || py < INT32_MIN || py > INT32_MAX)
            continue;
        if (wm_line_diamond_lit(&q, (int32_t)px, (int32_t)py, pixel_center))
            return true;
    }
    return false;
}

bool wm_line_positions(const struct setup_primitive *p, bool pixel_center, int64_t *first,
                       int64_t *count, int32_t *step)
{
    const int64_t one = (int64_t)1 << p->subpixel_bits, h = pixel_center ? one / 2 : 0;
    bool x_major = (p->line_flags & SETUP_LINE_X_MAJOR) != 0;
    int64_t a0 = x_major ? p->line_x[0] : p->line_y[0], a1 = x_major ? p->line_x[1] : p->line_y[1];
    if (a0 == a1)
        return false;
    int32_t d = a1 > a0 ? 1 : -1;
    int64_t lo, hi;                             /* the lit positions, inclusive */
    if (p->line_mode == SETUP_LINE_DIAMOND_LEGACY || p->line_mode == SETUP_LINE_DIAMOND_DX10) {
        int64_t s0 = floor_div(a0, one) - d, s1 = floor_div(a1, one) + d;
        int64_t f = s0, l = s1;
        while (f != s1 + d && !diamond_position_lit(p, x_major, f, pixel_center))
            f += d;
        if (f == s1 + d)
            return false;
        while (l != f && !diamond_position_lit(p, x_major, l, pixel_center))
            l -= d;
        *first = f;
        *count = (l - f) * d + 1;
        *step = d;
        return true;
    }
    /* the parallelogram's ends across the major axis: the start edge, the
     * end edge (half a pixel further with Last Pixel Enable); the left/top
     * one inclusive, the other not (top-left rule) */
    int64_t end = a1 + ((p->line_flags & SETUP_LINE_LAST_PIXEL) ? d * (one / 2) : 0);
    if (d > 0) {
        lo = ceil_div(a0 - h, one);
        hi = ceil_div(end - h, one) - 1;
    } else {
        lo = ceil_div(end - h, one);
        hi = ceil_div(a0 - h, one) - 1;
    }
    if (lo > hi)
        return false;
    *first = d > 0 ? lo : hi;
    *count = hi - lo + 1;
    *step = d;
    return true;
}
