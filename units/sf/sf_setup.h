/* units/sf/sf_setup.h - SF's object setup for triangles and rectangles, as
 * a library with no fabric dependency: from an object's screen-space
 * vertices (after the perspective divide and the viewport transform) to the
 * struct setup_primitive the rasterizer takes (units/common/primitive.h).
 *
 * Seed 003 "Object Setup" (L14722-14870), in the seed's order:
 *  - rectangle completion (L14797): a RECTLIST object's implied 4th vertex
 *    is v0 + v2 - v1 (the corner opposite v1), its other attributes unused;
 *  - drawing rectangle offset (L14766): the unclipped Drawing Rectangle
 *    Origin is added to X and Y;
 *  - XY quantization (L14805-14818): X and Y rounded to the nearest
 *    subpixel, ties to even ("matching the DirectX reference device"), with
 *    8 or 4 fractional bits (Vertex SubPixel Precision Select), then clamped
 *    to the guardband [-32K, 32K-1];
 *  - degenerate culling (L14820-14832): a triangle whose vertices are
 *    collinear or coincident after quantization, a rectangle with coincident
 *    corners;
 *  - face culling (L14834-14856): winding from v0 -> v1 -> v2 in screen
 *    space (X right, Y down), Front Winding selects which winding is front,
 *    Cull Mode (3DSTATE_RASTER on Gen8/9) discards front, back, both or
 *    none; rectangles are never face-culled;
 *  - the clip rectangle (L14858-14870): the clipped drawing rectangle,
 *    intersected with the scissor rectangle when Scissor Rectangle Enable
 *    and with the viewport extents (XMin..XMax ViewPort, rounded outwards to
 *    whole pixels) when Viewport Transform Enable is set; an object whose
 *    bounding box misses it is discarded.
 * The edge equations then follow the contract of primitive.h: a*X + b*Y + c
 * >= 0 inside, X and Y in subpixels relative to the bounding box origin
 * (x_min, y_min) in pixels. Samples exactly on an edge belong to the object
 * only on a top or left edge (the top-left rule of the D3D rasterization
 * rules the Intel drivers program, notes/raster-and-qpu-facts.md); the rule
 * is baked into c. A pixel's sample point is its centre (Pixel Location
 * CENTER, 3DSTATE_MULTISAMPLE) or its upper-left corner (UL_CORNER).
 * The depth and 1/w planes are solved from the quantized positions:
 * value = a0 + a1 * dx + a2 * dy with dx, dy in pixels from vertex 0.
 *
 * Not here: points and lines (their rules differ, L14876-14993), polygons
 * (CLIP's POLYGONs are fanned into triangles by the caller), attribute
 * planes (SBE), depth offset, multisample positions.
 */
#ifndef GTSIM_UNITS_SF_SF_SETUP_H
#define GTSIM_UNITS_SF_SF_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/primitive.h"

/* 3DSTATE_RASTER Cull Mode and Front Winding (reference genxml gen9.xml). */
enum sf_cull_mode { SF_CULL_BOTH = 0, SF_CULL_NONE = 1, SF_CULL_FRONT = 2, SF_CULL_BACK = 3 };
enum sf_front_winding { SF_FRONT_CW = 0, SF_FRONT_CCW = 1 };

struct sf_setup_state {
    uint32_t subpixel_bits;         /* 8 (Select 0) or 4 (Select 1) */
    uint32_t cull_mode;             /* enum sf_cull_mode */
    uint32_t front_winding;         /* enum sf_front_winding */
    bool pixel_center;              /* Pixel Location CENTER (else UL_CORNER) */
    int32_t origin_x, origin_y;     /* Drawing Rectangle Origin */
    int32_t clip_x_min, clip_y_min, clip_x_max, clip_y_max;     /* clipped drawing rectangle */
    bool scissor_enable;
    int32_t scissor_x_min, scissor_y_min, scissor_x_max, scissor_y_max;
    bool viewport_extents_enable;   /* Viewport Transform Enable */
    float viewport_x_min, viewport_y_min, viewport_x_max, viewport_y_max;
};

struct sf_setup_vertex {
    float x, y, z, w;               /* screen x, y, z; w as the VUE held it (for 1/w) */
};

enum sf_setup_result {
    SF_SETUP_OK = 0,
    SF_SETUP_DEGENERATE,
    SF_SETUP_CULLED_FACE,
    SF_SETUP_OUTSIDE,               /* the bounding box misses the clip rectangle */
};

/* Sets up a triangle (v[0..2]) or, with `rectangle`, a RECTLIST object (v[0..2]
 * and the implied 4th vertex). `out` is filled (topology PRIM_TRILIST or
 * PRIM_RECTLIST, flags PRIM_BACK_FACING when back-facing) when the result is
 * SF_SETUP_OK. */
enum sf_setup_result sf_setup_object(const struct sf_setup_state *st, const struct sf_setup_vertex v[3],
                                     bool rectangle, struct setup_primitive *out);

/* Rounds a screen coordinate to `bits` fractional bits, ties to even, and
 * clamps to the guardband [-32K, 32K-1] (in subpixels). */
int64_t sf_quantize(double coordinate, uint32_t bits);

/* Whether pixel (px, py) is inside a set-up primitive (the edge test at its
 * sample point): what a rasterizer does, for tests and harnesses. */
bool sf_setup_covers(const struct setup_primitive *p, int32_t px, int32_t py, bool pixel_center);

#endif
