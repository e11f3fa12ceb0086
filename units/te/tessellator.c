/* units/te/tessellator.c - see tessellator.h for what this follows and where
 * the facts come from (seed 003 L12717-12786; the D3D11 reference
 * tessellator's algorithm, re-implemented here). */
#include "units/te/tessellator.h"

#include <math.h>
#include <string.h>

#define FIXED_ONE TESS_FIXED_ONE
#define FIXED_HALF 0x8000u
#define FIXED_THIRD 0x5555u                 /* 1/3 truncated to 16 bits, as the reference */
#define FIXED_TWO_THIRDS 0xaaaau
#define FIXED_FRACTION_MASK 0xffffu
#define FIXED_INTEGER_MASK 0x7fff0000u      /* 15 integer bits */

/* D3D11 limits (reference tessellator header). */
#define MIN_ODD_FACTOR 1.0f
#define MAX_ODD_FACTOR 63.0f
#define MIN_EVEN_FACTOR 2.0f
#define MAX_EVEN_FACTOR 64.0f
#define MIN_LINE_DENSITY 1.0f
#define MAX_LINE_DENSITY 64.0f
/* 2^-16, the smallest 16.16 fraction: FRACTIONAL_ODD inside factors are kept
 * above 1 by this much when any factor exceeds 1 + 2^-17. */
#define FIXED_EPSILON 0.0000152587890625f

enum { AXIS_U = 0, AXIS_V = 1 };

/* ---- 16.16 fixed point ----------------------------------------------------------- */

uint32_t tess_fixed_from_float(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    uint32_t exponent = (bits >> 23) & 0xffu, mantissa = bits & 0x7fffffu;
    if (exponent == 0xffu && mantissa)
        return 0;                               /* NaN */
    if (bits >> 31)
        return 0;                               /* unsigned format: negatives are 0 */
    if (exponent >= 127u + 15u)
        return 0xffffffffu;                     /* >= 2^15 (and infinity) saturate */
    int e = (int)exponent - 127;
    if (e < -17)
        return 0;                               /* below half the last bit */
    uint32_t m = mantissa | 0x800000u;
    int extra = 23 - 16 - e;                    /* mantissa bits below 2^-16 */
    if (extra <= 0)
        return m << -extra;
    uint32_t last = 1u << extra, half = last >> 1;
    if ((m & last) || (m & (last - 1u)) > half)     /* round to nearest, ties to even */
        m += half;
    return m >> extra;
}

static float fixed_to_float(uint32_t x)
{
    /* exact: the values are at most a few times 2^16 */
    return (float)(x >> 16) + (float)(x & FIXED_FRACTION_MASK) / 65536.0f;
}

static uint32_t fixed_ceil(uint32_t x)
{
    return (x & FIXED_FRACTION_MASK) ? (x & FIXED_INTEGER_MASK) + FIXED_ONE : x;
}

static uint32_t fixed_floor(uint32_t x)
{
    return x & FIXED_INTEGER_MASK;
}

/* 1/n in 16.16, rounded to nearest (the reference's table for n = 1..64). */
static uint32_t fixed_reciprocal(int n)
{
    return n <= 0 ? 0xffffffffu : (FIXED_ONE + (uint32_t)n / 2u) / (uint32_t)n;
}

/* n without its most significant set bit (n >= 0). */
static int without_top_bit(int n)
{
    for (int bit = 30; bit >= 0; bit--)
        if (n & (1 << bit))
            return n & ~(1 << bit);
    return 0;
}

/* ---- one tessellation factor along one edge ---------------------------------------- */

/* What placing points along an edge needs, worked out once per factor: the
 * edge is tessellated as the blend of the tessellations at the half factor
 * rounded down and up (each half mirrored onto the other). */
struct edge_factor {
    bool odd;
    uint32_t inverse_floor_segments, inverse_ceil_segments;
    uint32_t half_fraction;             /* position of the half factor between floor and ceil */
    int half_points;                    /* points on one half (EVEN: without the midpoint) */
    int split_point;                    /* from here on the floor tessellation lags by one */
};

static int points_for_factor(uint32_t factor, bool odd)
{
    if (odd)
        return (int)((fixed_ceil(FIXED_HALF + (factor + 1u) / 2u) * 2u) >> 16);
    return (int)((fixed_ceil((factor + 1u) / 2u) * 2u) >> 16) + 1;
}

static void edge_factor_init(struct edge_factor *f, uint32_t factor, bool odd)
{
    uint32_t half = (factor + 1u) / 2u;
    if (odd || half == FIXED_HALF)      /* a factor of 1 is treated as odd */
        half += FIXED_HALF;
    uint32_t floor_half = fixed_floor(half), ceil_half = fixed_ceil(half);
    f->odd = odd;
    f->half_fraction = half - floor_half;
    f->half_points = (int)(ceil_half >> 16);
    if (ceil_half == floor_half)
        f->split_point = f->half_points + 1;    /* never reached */
    else if (odd)
        f->split_point = floor_half == FIXED_ONE
                             ? 0 : (without_top_bit((int)(floor_half >> 16) - 1) << 1) + 1;
    else
        f->split_point = (without_top_bit((int)(floor_half >> 16)) << 1) + 1;
    int floor_segments = (int)((floor_half * 2u) >> 16), ceil_segments = (int)((ceil_half * 2u) >> 16);
    if (odd) {
        floor_segments--;
        ceil_segments--;
    }
    f->inverse_floor_segments = fixed_reciprocal(floor_segments);
    f->inverse_ceil_segments = fixed_reciprocal(ceil_segments);
}

/* The 16.16 position of point `point` (0 at one end) along the edge. */
static uint32_t place_point(const struct edge_factor *f, int point)
{
    bool mirrored = false;
    if (point >= f->half_points) {
        point = (f->half_points << 1) - point - (f->odd ? 1 : 0);
        mirrored = true;
    }
    if (point == f->half_points)
        return FIXED_HALF;                      /* the midpoint, exactly */
    uint32_t on_ceil = (uint32_t)point, on_floor = (uint32_t)point;
    if (point > f->split_point)
        on_floor--;
    uint32_t at_floor = on_floor * f->inverse_floor_segments;
    uint32_t at_ceil = on_ceil * f->inverse_ceil_segments;
    uint32_t blended = at_floor * (FIXED_ONE - f->half_fraction) + at_ceil * f->half_fraction;
    uint32_t position = (blended + FIXED_HALF) >> 16;
    return mirrored ? FIXED_ONE - position : position;
}

/* ---- output ------------------------------------------------------------------------ */

/* How stitching indices map to points: stitching walks two rows whose points
 * are consecutive; where a row is not (the last edge of a ring wraps to the
 * ring's first points; a degenerate centre row is walked backwards) the
 * indices are rewritten. */
enum index_map {
    MAP_NONE = 0,
    MAP_WRAP,           /* inside row at 0.., outside row at outside_start.. */
    MAP_REVERSE,        /* from pivot on, i -> mirror - i; `corner` -> corner_to */
};

struct writer {
    struct tess_result *out;
    bool counter_clockwise;
    enum index_map map;
    int inside_delta, inside_last, inside_first;
    int outside_start, outside_delta, outside_last, outside_first;
    int pivot, mirror, corner, corner_to;
};

static void add_point(struct writer *w, uint32_t u, uint32_t v)
{
    struct tess_result *r = w->out;
    if (r->point_count >= TESS_MAX_POINTS)
        return;
    r->fixed_u[r->point_count] = u;
    r->fixed_v[r->point_count] = v;
    r->u[r->point_count] = fixed_to_float(u);
    r->v[r->point_count] = fixed_to_float(v);
    r->point_count++;
}

static int mapped(const struct writer *w, int i)
{
    switch (w->map) {
    case MAP_WRAP:
        if (i >= w->outside_start)
            return i == w->outside_last ? w->outside_first : i + w->outside_delta;
        return i == w->inside_last ? w->inside_first : i + w->inside_delta;
    case MAP_REVERSE:
        if (i == w->corner)
            return w->corner_to;
        return i >= w->pivot ? w->mirror - i : i;
    default:
        return i;
    }
}

static void add_index(struct writer *w, int i)
{
    struct tess_result *r = w->out;
    if (r->index_count < TESS_MAX_INDICES)
        r->indices[r->index_count++] = (uint16_t)mapped(w, i);
}

/* A triangle given clockwise; stored clockwise or counter-clockwise. */
static void add_triangle(struct writer *w, int a, int b, int c)
{
    add_index(w, a);
    add_index(w, w->counter_clockwise ? c : b);
    add_index(w, w->counter_clockwise ? b : c);
}

static void all_points(struct writer *w)
{
    for (uint32_t p = 0; p < w->out->point_count; p++)
        add_index(w, (int)p);
}

static void points_as_line_list(struct writer *w)
{
    for (uint32_t p = 1; p < w->out->point_count; p++) {
        add_index(w, (int)p - 1);
        add_index(w, (int)p);
    }
}

/* ---- stitching two rows of points -------------------------------------------------- */

enum diagonals {
    DIAGONALS_INSIDE_TO_OUTSIDE,
    DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE,  /* odd rows */
    DIAGONALS_MIRRORED,
};

/* Two rows where the outside one has two more points (trapezoid) or the
 * same number. */
static void stitch_regular(struct writer *w, bool trapezoid, enum diagonals diagonals,
                           int inside_points, int inside, int outside)
{
    if (trapezoid) {
        add_triangle(w, outside, outside + 1, inside);
        outside++;
    }
    int p = 0;
    switch (diagonals) {
    case DIAGONALS_INSIDE_TO_OUTSIDE:
        for (; p < inside_points - 1; p++, inside++, outside++) {
            add_triangle(w, inside, outside, outside + 1);
            add_triangle(w, inside, outside + 1, inside + 1);
        }
        break;
    case DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE:
        for (; p < inside_points / 2 - 1; p++, inside++, outside++) {
            add_triangle(w, outside, outside + 1, inside);
            add_triangle(w, inside, outside + 1, inside + 1);
        }
        add_triangle(w, outside, inside + 1, inside);           /* the middle quad */
        add_triangle(w, outside, outside + 1, inside + 1);
        inside++;
        outside++;
        p += 2;
        for (; p < inside_points; p++, inside++, outside++) {
            add_triangle(w, outside, outside + 1, inside);
            add_triangle(w, inside, outside + 1, inside + 1);
        }
        break;
    case DIAGONALS_MIRRORED:
        for (; p < inside_points / 2; p++, inside++, outside++) {
            add_triangle(w, outside, inside + 1, inside);
            add_triangle(w, outside, outside + 1, inside + 1);
        }
        for (; p < inside_points - 1; p++, inside++, outside++) {
            add_triangle(w, inside, outside, outside + 1);
            add_triangle(w, inside, outside + 1, inside + 1);
        }
        break;
    }
    if (trapezoid)
        add_triangle(w, outside, outside + 1, inside);
}

/* Where the point introduced i-th on a half edge ends up at the largest
 * factor (ruler-function split order): point i of a half edge with n points
 * exists when the entry is < n. Supports odd factors up to 65 and even up to
 * 64. A table of the D3D11 reference tessellator ("finalPointPositionTable"). */
static const int split_order[33] = {
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23,
    1, 24, 12, 25, 6, 26, 13, 27, 3, 28, 14, 29, 7, 30, 15, 31,
};

/* The outermost ring: two rows with arbitrary factors, walked from both
 * ends toward the middle, advancing on whichever row has its next point in
 * the split order. */
static void stitch_transition(struct writer *w, int inside, int inside_half_points, bool inside_odd,
                              int outside, int outside_half_points, bool outside_odd)
{
    if (inside_odd)
        inside_half_points--;
    if (outside_odd)
        outside_half_points--;
    for (int i = 0; i <= 32; i++) {             /* first half */
        if (i > 0 && split_order[i] < inside_half_points) {
            add_triangle(w, inside, outside, inside + 1);
            inside++;
        }
        if (split_order[i] < outside_half_points) {
            add_triangle(w, outside, outside + 1, inside);
            outside++;
        }
    }
    if (inside_odd != outside_odd || inside_odd) {      /* the middle */
        if (inside_odd == outside_odd) {
            add_triangle(w, inside, outside, inside + 1);
            add_triangle(w, inside + 1, outside, outside + 1);
            inside++;
            outside++;
        } else if (!inside_odd) {
            add_triangle(w, inside, outside, outside + 1);
            outside++;
        } else {
            add_triangle(w, inside, outside, inside + 1);
            inside++;
        }
    }
    for (int i = 32; i >= 0; i--) {             /* second half, mirrored */
        if (split_order[i] < outside_half_points) {
            add_triangle(w, outside, outside + 1, inside);
            outside++;
        }
        if (i > 0 && split_order[i] < inside_half_points) {
            add_triangle(w, inside, outside, inside + 1);
            inside++;
        }
    }
}

/* The last edge of a ring: both rows wrap to the ring's first points. */
static void map_wrap(struct writer *w, int inside_base, int inside_points, int inside_first,
                     int outside_base, int outside_points, int outside_first)
{
    w->map = MAP_WRAP;
    w->inside_delta = inside_base;
    w->inside_last = inside_points - 1;
    w->inside_first = inside_first;
    w->outside_start = inside_points;
    w->outside_delta = outside_base - inside_points;
    w->outside_last = inside_points + outside_points - 1;
    w->outside_first = outside_first;
}

static void map_reverse(struct writer *w, int pivot, int mirror, int corner, int corner_to)
{
    w->map = MAP_REVERSE;
    w->pivot = pivot;
    w->mirror = mirror;
    w->corner = corner;
    w->corner_to = corner_to;
}

/* ---- factor processing --------------------------------------------------------------- */

struct limits {
    float lower, upper;
};

static bool partition_odd(uint32_t partitioning)
{
    return partitioning == TESS_PARTITION_ODD_FRACTIONAL;
}

/* The D3D11 range for the partitioning, with 3DSTATE_TE's maximum applied
 * (seed 003 L12741: Odd for FRACTIONAL_ODD, Not Odd otherwise). */
static struct limits factor_limits(const struct tess_config *c, uint32_t partitioning,
                                   uint32_t *bad_config)
{
    struct limits l;
    float state_max;
    switch (partitioning) {
    case TESS_PARTITION_ODD_FRACTIONAL:
        l = (struct limits){ MIN_ODD_FACTOR, MAX_ODD_FACTOR };
        state_max = c->max_factor_odd;
        break;
    case TESS_PARTITION_EVEN_FRACTIONAL:
        l = (struct limits){ MIN_EVEN_FACTOR, MAX_EVEN_FACTOR };
        state_max = c->max_factor_not_odd;
        break;
    default:
        l = (struct limits){ MIN_ODD_FACTOR, MAX_EVEN_FACTOR };
        state_max = c->max_factor_not_odd;
        break;
    }
    if (state_max != 0.0f) {
        if (state_max >= l.lower && state_max <= l.upper)
            l.upper = state_max;
        else
            (*bad_config)++;
    }
    return l;
}

/* min(upper, max(lower, f)); NaN becomes lower (IEEE 754R min/max as the
 * reference uses them; denormals compare as 0, below every lower bound). */
static float clamp_factor(float f, struct limits l)
{
    if (isnan(f) || !(f > l.lower))
        return l.lower;
    return f > l.upper ? l.upper : f;
}

static void count_bad(float f, struct limits l, uint32_t *bad)
{
    if (isnan(f) || isinf(f) || f > l.upper)
        (*bad)++;
}

static bool float_even(float f)
{
    return (((int)f) & 1) == 0;
}

/* ---- QUAD ------------------------------------------------------------------------------- */

static void quad_minimal(struct writer *w, uint32_t topology)
{
    add_point(w, 0, 0);
    add_point(w, FIXED_ONE, 0);
    add_point(w, FIXED_ONE, FIXED_ONE);
    add_point(w, 0, FIXED_ONE);
    if (topology == TESS_OUTPUT_POINT) {
        all_points(w);
    } else if (topology == TESS_OUTPUT_LINE) {
        points_as_line_list(w);
    } else {
        add_triangle(w, 0, 1, 3);
        add_triangle(w, 1, 2, 3);
    }
}

static void tessellate_quad(const struct tess_config *c, uint32_t partitioning, uint32_t topology,
                            const struct tess_factors *tf, struct writer *w)
{
    struct tess_result *r = w->out;
    struct limits l = factor_limits(c, partitioning, &r->bad_config);
    bool integer = partitioning == TESS_PARTITION_INTEGER;
    for (int e = 0; e < 4; e++)
        count_bad(tf->outer[e], l, &r->bad_factors);
    for (int a = 0; a < 2; a++)
        count_bad(tf->inner[a], l, &r->bad_factors);
    for (int e = 0; e < 4; e++) {
        if (!(tf->outer[e] > 0.0f)) {           /* seed 003 L12737: <= 0 or NaN */
            r->culled = true;
            return;
        }
    }
    float outer[4], inner[2];
    for (int e = 0; e < 4; e++) {
        outer[e] = clamp_factor(tf->outer[e], l);
        if (integer)
            outer[e] = ceilf(outer[e]);
    }
    struct limits inner_limits = l;
    if (partition_odd(partitioning)) {
        const float above_one = MIN_ODD_FACTOR + FIXED_EPSILON / 2.0f;
        bool frame = tf->inner[0] > above_one || tf->inner[1] > above_one;
        for (int e = 0; e < 4; e++)
            frame = frame || outer[e] > above_one;
        if (frame)
            inner_limits.lower = MIN_ODD_FACTOR + FIXED_EPSILON;
    }
    for (int a = 0; a < 2; a++) {
        inner[a] = clamp_factor(tf->inner[a], inner_limits);
        if (integer)
            inner[a] = ceilf(inner[a]);
    }

    bool outer_odd[4], inner_odd[2];
    uint32_t outer_fixed[4], inner_fixed[2];
    bool all_one = true;
    for (int e = 0; e < 4; e++) {
        outer_odd[e] = integer ? !float_even(outer[e]) : partition_odd(partitioning);
        outer_fixed[e] = tess_fixed_from_float(outer[e]);
        all_one = all_one && outer_fixed[e] == FIXED_ONE;
    }
    for (int a = 0; a < 2; a++) {
        inner_odd[a] = integer ? !(float_even(inner[a]) || inner[a] == 1.0f)
                               : partition_odd(partitioning);
        inner_fixed[a] = tess_fixed_from_float(inner[a]);
        all_one = all_one && inner_fixed[a] == FIXED_ONE;
    }
    if ((integer || partition_odd(partitioning)) && all_one) {
        quad_minimal(w, topology);
        return;
    }

    struct edge_factor outer_f[4], inner_f[2];
    int outer_points[4], inner_points[2];
    int inside_base = -4;
    for (int e = 0; e < 4; e++) {
        edge_factor_init(&outer_f[e], outer_fixed[e], outer_odd[e]);
        outer_points[e] = points_for_factor(outer_fixed[e], outer_odd[e]);
        inside_base += outer_points[e];
    }
    for (int a = 0; a < 2; a++) {
        edge_factor_init(&inner_f[a], inner_fixed[a], inner_odd[a]);
        int least = inner_odd[a] ? 4 : 3;       /* a degenerate transition ring at factor 1 */
        int n = points_for_factor(inner_fixed[a], inner_odd[a]);
        inner_points[a] = n > least ? n : least;
    }
    const int n_u = inner_points[AXIS_U], n_v = inner_points[AXIS_V];

    /* Points: the outside ring clockwise from (0, 1): U=0 (V falling), V=0
     * (U rising), U=1 (V rising), V=1 (U falling); each edge's last point is
     * the next edge's first. */
    for (int e = 0; e < 4; e++) {
        int last = outer_points[e] - 1;
        for (int p = 0; p < last; p++) {
            uint32_t t = place_point(&outer_f[e], (e == 1 || e == 2) ? p : last - p);
            if (e & 1)
                add_point(w, t, e == 3 ? FIXED_ONE : 0);
            else
                add_point(w, e == 2 ? FIXED_ONE : 0, t);
        }
    }
    /* ... then the inside rings, the same way round, spiralling in. */
    int rings = (n_u < n_v ? n_u : n_v) >> 1;
    for (int ring = 1; ring < rings; ring++) {
        int last[2] = { n_u - 1 - ring, n_v - 1 - ring };
        for (int e = 0; e < 4; e++) {
            int across = e & 1, along = (e + 1) & 1;
            uint32_t fixed_across = place_point(&inner_f[across], e < 2 ? ring : last[across]);
            for (int p = ring; p < last[along]; p++) {
                int q = (e == 1 || e == 2) ? p : last[along] - (p - ring);
                uint32_t t = place_point(&inner_f[along], q);
                if (along == AXIS_V)
                    add_point(w, fixed_across, t);
                else
                    add_point(w, t, fixed_across);
            }
        }
    }
    /* ... and an even inside factor leaves a row of points in the middle. */
    if (n_u > n_v && !inner_odd[AXIS_V]) {
        for (int p = rings; p <= n_u - 1 - rings; p++)
            add_point(w, place_point(&inner_f[AXIS_U], p), FIXED_HALF);
    } else if (n_v >= n_u && !inner_odd[AXIS_U]) {
        for (int p = n_v - 1 - rings; p >= rings; p--)
            add_point(w, FIXED_HALF, place_point(&inner_f[AXIS_V], p));
    }

    if (topology == TESS_OUTPUT_POINT) {
        all_points(w);
        return;
    }
    if (topology == TESS_OUTPUT_LINE) {
        points_as_line_list(w);
        return;
    }

    /* Primitives: ring by ring, edge by edge (edge e stitches to the inside
     * row along axis (e + 1) & 1). */
    int rows_to_centre[2] = { (n_u + 1) >> 1, (n_v + 1) >> 1 };    /* even: with the centre */
    int ring_count = rows_to_centre[0] < rows_to_centre[1] ? rows_to_centre[0] : rows_to_centre[1];
    /* the ring at which an even factor's degenerate middle row is reached,
     * by the axis an edge runs along */
    int degenerate_ring[2] = {
        !inner_odd[AXIS_V] ? rows_to_centre[AXIS_V] - 1 : -1,
        !inner_odd[AXIS_U] ? rows_to_centre[AXIS_U] - 1 : -1,
    };
    int outside_points[4];
    memcpy(outside_points, outer_points, sizeof outside_points);
    int inside_at = inside_base, outside_at = 0;
    for (int ring = 1; ring < ring_count; ring++) {
        int inside_points[2] = { n_u - 2 * ring, n_v - 2 * ring };
        int ring_inside_first = inside_at, ring_outside_first = outside_at;
        for (int e = 0; e < 4; e++) {
            int axis = (e + 1) & 1;
            bool degenerate = ring == degenerate_ring[axis];
            int inside = inside_at, outside = outside_at;
            if (e == 3 && degenerate) {
                map_reverse(w, inside_at + 1, ((inside_at + 1) << 1) - 1,
                            outside_at + outside_points[e] - 1, ring_outside_first);
                inside = inside_at + 1;
            } else if (e == 3) {
                map_wrap(w, inside_at, inside_points[axis], ring_inside_first,
                         outside_at, outside_points[e], ring_outside_first);
                inside = 0;
                outside = inside_points[axis];
            } else if (e == 2 && degenerate) {
                map_reverse(w, inside_at, inside_at << 1, -1, -1);
            }
            if (ring == 1)
                stitch_transition(w, inside, inner_f[axis].half_points, inner_odd[axis],
                                  outside, outer_f[e].half_points, outer_odd[e]);
            else
                stitch_regular(w, true, DIAGONALS_MIRRORED, inside_points[axis], inside, outside);
            w->map = MAP_NONE;
            outside_at += outside_points[e] - 1;
            if (e == 2 && degenerate)
                inside_at -= inside_points[axis] - 1;
            else
                inside_at += inside_points[axis] - 1;
            outside_points[e] = inside_points[axis];
        }
    }
    /* The centre: an odd inside factor leaves a strip of quads. */
    if (n_u > n_v && inner_odd[AXIS_V]) {
        int quads = (((n_u >> 1) - (n_v >> 1)) << 1) + (!inner_odd[AXIS_U] ? 2 : 1);
        int pivot = outside_at + quads + 2;
        map_reverse(w, pivot, pivot + pivot + quads, pivot, outside_at);
        stitch_regular(w, false, DIAGONALS_INSIDE_TO_OUTSIDE, quads + 1, pivot, outside_at + 1);
        w->map = MAP_NONE;
    } else if (n_v >= n_u && inner_odd[AXIS_U]) {
        int quads = (((n_v >> 1) - (n_u >> 1)) << 1) + (!inner_odd[AXIS_V] ? 2 : 1);
        int pivot = outside_at + quads + 1;
        map_reverse(w, pivot, pivot + pivot + quads, -1, -1);
        stitch_regular(w, false,
                       !inner_odd[AXIS_V] ? DIAGONALS_INSIDE_TO_OUTSIDE
                                          : DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE,
                       quads + 1, pivot, outside_at);
        w->map = MAP_NONE;
    }
}

/* ---- TRI -------------------------------------------------------------------------------- */

static void tessellate_tri(const struct tess_config *c, uint32_t partitioning, uint32_t topology,
                           const struct tess_factors *tf, struct writer *w)
{
    struct tess_result *r = w->out;
    struct limits l = factor_limits(c, partitioning, &r->bad_config);
    bool integer = partitioning == TESS_PARTITION_INTEGER;
    for (int e = 0; e < 3; e++)
        count_bad(tf->outer[e], l, &r->bad_factors);
    count_bad(tf->inner[0], l, &r->bad_factors);
    for (int e = 0; e < 3; e++) {
        if (!(tf->outer[e] > 0.0f)) {
            r->culled = true;
            return;
        }
    }
    float outer[3];
    bool frame = false;
    const float above_one = MIN_ODD_FACTOR + FIXED_EPSILON / 2.0f;
    for (int e = 0; e < 3; e++) {
        outer[e] = clamp_factor(tf->outer[e], l);
        if (integer)
            outer[e] = ceilf(outer[e]);
        frame = frame || outer[e] > above_one;
    }
    struct limits inner_limits = l;
    if (partition_odd(partitioning) && frame)   /* the outside factors only (one inside) */
        inner_limits.lower = MIN_ODD_FACTOR + FIXED_EPSILON;
    float inner = clamp_factor(tf->inner[0], inner_limits);
    if (integer)
        inner = ceilf(inner);

    bool outer_odd[3], inner_odd;
    uint32_t outer_fixed[3], inner_fixed;
    bool all_one = true;
    for (int e = 0; e < 3; e++) {
        outer_odd[e] = integer ? !float_even(outer[e]) : partition_odd(partitioning);
        outer_fixed[e] = tess_fixed_from_float(outer[e]);
        all_one = all_one && outer_fixed[e] == FIXED_ONE;
    }
    inner_odd = integer ? !(float_even(inner) || inner == 1.0f) : partition_odd(partitioning);
    inner_fixed = tess_fixed_from_float(inner);
    all_one = all_one && inner_fixed == FIXED_ONE;
    if ((integer || partition_odd(partitioning)) && all_one) {
        add_point(w, 0, FIXED_ONE);             /* V = 1: where the U = 0 edge starts */
        add_point(w, 0, 0);                     /* W = 1 */
        add_point(w, FIXED_ONE, 0);             /* U = 1 */
        if (topology == TESS_OUTPUT_POINT)
            all_points(w);
        else if (topology == TESS_OUTPUT_LINE)
            points_as_line_list(w);
        else
            add_triangle(w, 0, 1, 2);
        return;
    }

    struct edge_factor outer_f[3], inner_f;
    int outer_points[3];
    int inside_base = -3;
    for (int e = 0; e < 3; e++) {
        edge_factor_init(&outer_f[e], outer_fixed[e], outer_odd[e]);
        outer_points[e] = points_for_factor(outer_fixed[e], outer_odd[e]);
        inside_base += outer_points[e];
    }
    edge_factor_init(&inner_f, inner_fixed, inner_odd);
    int n = points_for_factor(inner_fixed, inner_odd);
    int least = inner_odd ? 4 : 3;
    if (n < least)
        n = least;

    /* Points: the outside ring clockwise from V = 1: U=0 (V falling), V=0
     * (U rising), W=0 (U falling). */
    for (int e = 0; e < 3; e++) {
        int last = outer_points[e] - 1;
        for (int p = 0; p < last; p++) {
            uint32_t t = place_point(&outer_f[e], (e & 1) ? p : last - p);
            if (e == 0)
                add_point(w, 0, t);
            else
                add_point(w, t, e == 2 ? FIXED_ONE - t : 0);
        }
    }
    /* ... the inside rings: each edge's 1D positions pulled in toward the
     * centre by the ring's distance (2/3 of its 1D position, in barycentric
     * terms), half of that taken off the parameter along the edge. */
    int rings = n >> 1;
    for (int ring = 1; ring < rings; ring++) {
        int last = n - 1 - ring;
        for (int e = 0; e < 3; e++) {
            uint32_t across = place_point(&inner_f, ring);
            across = (across * FIXED_TWO_THIRDS + FIXED_HALF) >> 16;
            for (int p = ring; p < last; p++) {
                uint32_t t = place_point(&inner_f, (e & 1) ? p : last - (p - ring));
                uint32_t along = t - (across + 1u) / 2u;
                if (e == 0)
                    add_point(w, across, along);
                else if (e == 1)
                    add_point(w, along, across);
                else
                    add_point(w, along, FIXED_ONE - along - across);
            }
        }
    }
    if (!inner_odd)
        add_point(w, FIXED_THIRD, FIXED_THIRD);     /* the centre */

    if (topology == TESS_OUTPUT_POINT) {
        all_points(w);
        return;
    }
    if (topology == TESS_OUTPUT_LINE) {
        points_as_line_list(w);
        return;
    }

    int ring_count = (n + 1) >> 1;
    int outside_points[3];
    memcpy(outside_points, outer_points, sizeof outside_points);
    int inside_at = inside_base, outside_at = 0;
    for (int ring = 1; ring < ring_count; ring++) {
        int inside_points = n - 2 * ring;
        int ring_inside_first = inside_at, ring_outside_first = outside_at;
        for (int e = 0; e < 3; e++) {
            int inside = inside_at, outside = outside_at;
            if (e == 2) {
                map_wrap(w, inside_at, inside_points, ring_inside_first,
                         outside_at, outside_points[e], ring_outside_first);
                inside = 0;
                outside = inside_points;
            }
            if (ring == 1)
                stitch_transition(w, inside, inner_f.half_points, inner_odd,
                                  outside, outer_f[e].half_points, outer_odd[e]);
            else
                stitch_regular(w, true, DIAGONALS_MIRRORED, inside_points, inside, outside);
            w->map = MAP_NONE;
            outside_at += outside_points[e] - 1;
            inside_at += inside_points - 1;
            outside_points[e] = inside_points;
        }
    }
    if (inner_odd)                              /* the centre triangle */
        add_triangle(w, outside_at, outside_at + 1, outside_at + 2);
}

/* ---- ISOLINE ------------------------------------------------------------------------------ */

static void tessellate_isoline(const struct tess_config *c, uint32_t partitioning,
                               uint32_t topology, const struct tess_factors *tf, struct writer *w)
{
    struct tess_result *r = w->out;
    float density = tf->outer[0], detail = tf->outer[1];
    struct limits detail_limits = factor_limits(c, partitioning, &r->bad_config);
    /* Line density: always integer, and always the Not Odd maximum (L12743). */
    uint32_t ignored = 0;              /* a bad maximum is counted once, with the detail */
    struct limits density_limits = factor_limits(c, TESS_PARTITION_INTEGER, &ignored);
    density_limits.lower = MIN_LINE_DENSITY;
    if (density_limits.upper > MAX_LINE_DENSITY)
        density_limits.upper = MAX_LINE_DENSITY;
    count_bad(density, density_limits, &r->bad_factors);
    count_bad(detail, detail_limits, &r->bad_factors);
    if (!(density > 0.0f) || !(detail > 0.0f)) {
        r->culled = true;
        return;
    }
    density = ceilf(clamp_factor(density, density_limits));
    detail = clamp_factor(detail, detail_limits);
    bool detail_odd = partition_odd(partitioning);
    if (partitioning == TESS_PARTITION_INTEGER) {
        detail = ceilf(detail);
        detail_odd = !float_even(detail);
    }
    bool density_odd = !float_even(density);
    struct edge_factor detail_f, density_f;
    uint32_t detail_fixed = tess_fixed_from_float(detail);
    uint32_t density_fixed = tess_fixed_from_float(density);
    edge_factor_init(&detail_f, detail_fixed, detail_odd);
    edge_factor_init(&density_f, density_fixed, density_odd);
    int points_per_line = points_for_factor(detail_fixed, detail_odd);
    int lines = points_for_factor(density_fixed, density_odd) - 1;     /* none at V = 1 */

    for (int line = 0; line < lines; line++) {
        uint32_t v = place_point(&density_f, line);
        for (int p = 0; p < points_per_line; p++)
            add_point(w, place_point(&detail_f, p), v);
    }
    if (topology == TESS_OUTPUT_POINT) {
        all_points(w);
        return;
    }
    for (int line = 0, at = 0; line < lines; line++, at++) {       /* lines (and TRI_*) */
        for (int p = 1; p < points_per_line; p++) {
            add_index(w, at);
            add_index(w, at + 1);
            at++;
        }
    }
}

/* ---- entry --------------------------------------------------------------------------------- */

void tessellate(const struct tess_config *config, const struct tess_factors *factors,
                struct tess_result *out)
{
    out->culled = false;
    out->point_count = out->index_count = 0;
    out->bad_factors = out->bad_config = 0;
    uint32_t partitioning = config->partitioning, topology = config->output_topology;
    if (partitioning > TESS_PARTITION_EVEN_FRACTIONAL) {
        out->bad_config++;
        partitioning = TESS_PARTITION_INTEGER;
    }
    if (topology > TESS_OUTPUT_TRI_CCW) {
        out->bad_config++;
        topology = TESS_OUTPUT_POINT;
    }
    struct writer w = { .out = out, .counter_clockwise = topology == TESS_OUTPUT_TRI_CCW };
    switch (config->domain) {
    case TESS_DOMAIN_QUAD:
        out->vertices_per_primitive = topology == TESS_OUTPUT_POINT ? 1 : topology == TESS_OUTPUT_LINE ? 2 : 3;
        tessellate_quad(config, partitioning, topology, factors, &w);
        break;
    case TESS_DOMAIN_TRI:
        out->vertices_per_primitive = topology == TESS_OUTPUT_POINT ? 1 : topology == TESS_OUTPUT_LINE ? 2 : 3;
        tessellate_tri(config, partitioning, topology, factors, &w);
        break;
    case TESS_DOMAIN_ISOLINE:
        out->vertices_per_primitive = topology == TESS_OUTPUT_POINT ? 1 : 2;
        tessellate_isoline(config, partitioning, topology, factors, &w);
        break;
    default:
        out->vertices_per_primitive = 1;
        out->bad_config++;
        out->culled = true;
        break;
    }
    if (out->culled)
        out->point_count = out->index_count = 0;
}
