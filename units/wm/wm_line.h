/* units/wm/wm_line.h - the Windower's line rules as a library with no fabric
 * dependency: which pixels a zero-width (diamond) line lights, the coverage
 * of an antialiased line, and the order of a line's pixels for line stipple.
 * SF has set the line up (struct setup_primitive's line fields,
 * units/common/primitive.h: endpoints in subpixels, mode, width, regions).
 *
 * Diamond lines (seed 003 L14884-14955): a pixel is lit when the directed
 * segment from the start to the end point exits the pixel's diamond (the
 * points whose Manhattan distance to its sample point is below half a pixel,
 * plus the boundary pieces the rule includes); a segment that ends inside
 * the diamond does not light it, unless Last Pixel Enable applies to the
 * line (then every diamond the segment touches is lit). Included boundary:
 *  - Legacy (3DSTATE_WM Legacy Diamond Line Rasterization): the bottom
 *    corner; the right corner, or the left one for a slope +1 line; the
 *    bottom-left edge for slope +1, the bottom-right edge for slope -1
 *    (L14910-14925);
 *  - DX10: the bottom corner; the right corner unless the line is X-major
 *    (-1 <= slope <= 1); both bottom edges (L14940-14955).
 * Screen Y grows downwards, so slope = dy/dx with Y down. The rule is
 * evaluated exactly on the segment between SF's snapped endpoints (integer
 * arithmetic at SF's subpixel precision); the seed's 16x16 subpixel grid
 * (the diamond's points "referenced by their upper left corners") is not
 * modelled: at 8-bit precision a point between the 1/16 grid lines is taken
 * where it is.
 *
 * Antialiased lines (L14978-14992): coverage = the product of the ramp from
 * the nearer parallel edge (0 at the edge, 1 at Line Antialiasing Region
 * Width / 2 inside it) and the end-cap ramp (1 at the endpoint, 0 at Line
 * End Cap Antialiasing Region Width beyond it), distances measured
 * perpendicular to the edges (AA Line Distance Mode TRUE; the other mode's
 * distance is not in the seed and is taken as the true one too).
 *
 * Line stipple (L15532-15546): pixels are produced in order from the start
 * point; the counter s counts the major-axis positions (columns of an
 * X-major line, rows of a Y-major one) from the line's first lit one, so a
 * wide line's pixels across the line share one stipple bit (the seed counts
 * "each pixel"; for one-pixel lines the two agree). A pixel is kept when bit
 * floor(s / repeat) mod 16 of the pattern is set.
 */
#ifndef GTSIM_UNITS_WM_WM_LINE_H
#define GTSIM_UNITS_WM_WM_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/primitive.h"

/* Whether a diamond line (SETUP_LINE_DIAMOND_*) lights pixel (px, py), its
 * sample point at the centre (pixel_center) or the upper-left corner. */
bool wm_line_diamond_lit(const struct setup_primitive *p, int32_t px, int32_t py,
                         bool pixel_center);

/* The antialiased line's coverage (0..1) at screen point (x, y) in pixels. */
float wm_line_aa_coverage(const struct setup_primitive *p, double x, double y);

/* The line's lit major-axis positions in pixel order: the first one, how
 * many, and the step (+1 or -1) from one to the next; false for a line none
 * of whose positions is lit. Independent of the clip rectangle. */
bool wm_line_positions(const struct setup_primitive *p, bool pixel_center, int64_t *first,
                       int64_t *count, int32_t *step);

/* Line stipple: whether the pixel with counter value s is kept (pattern
 * bit floor(s / repeat) mod 16; a repeat of 0 is taken as 1). */
static inline bool wm_line_stipple_keep(uint32_t pattern, uint32_t repeat, uint64_t s)
{
    uint64_t r = repeat ? repeat : 1;
    return ((pattern >> ((s / r) % 16u)) & 1u) != 0;
}

#endif
