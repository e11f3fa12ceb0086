/* units/sf/sf_setup.h - SF's object setup for points, lines, triangles and
 * rectangles, as a library with no fabric dependency: from an object's
 * screen-space vertices (after the perspective divide and the viewport
 * transform) to the struct setup_primitive the rasterizer takes
 * (units/common/primitive.h): edges, bounding box, and the depth, 1/w and
 * screen-linear barycentric planes. Attribute planes are SBE's
 * (units/sf/sf_attributes.h), built on the barycentric planes made here.
 *
 * Seed 003 "Object Setup" (L14722-14870), in the seed's order:
 *  - point width application (L14786-14795): a point becomes a square of
 *    +-width/2 about its centre, Z and W copied; the Point Rasterization
 *    Rule (3DSTATE_WM on Gen8/9, L14758-14762) decides the samples exactly
 *    on its edges: RASTRULE_UPPER_LEFT keeps the top and left edges,
 *    RASTRULE_UPPER_RIGHT the top and right ones (the seed's figure is
 *    missing; the names are our reading);
 *  - rectangle completion (L14797): a RECTLIST object's implied 4th vertex
 *    is v0 + v2 - v1 (the corner opposite v1), its other attributes unused;
 *  - drawing rectangle offset (L14766): the unclipped Drawing Rectangle
 *    Origin is added to X and Y;
 *  - XY quantization (L14805-14818): X and Y rounded to the nearest
 *    subpixel, ties to even ("matching the DirectX reference device"), with
 *    8 or 4 fractional bits (Vertex SubPixel Precision Select), then clamped
 *    to the guardband [-32K, 32K-1] (after points and lines are expanded);
 *  - degenerate culling (L14820-14832): a triangle whose vertices are
 *    collinear or coincident after quantization, a line whose endpoints
 *    coincide, a point or rectangle with coincident corners;
 *  - face culling (L14834-14856): winding from v0 -> v1 -> v2 in screen
 *    space (X right, Y down), inverted for a strip's odd triangles
 *    (invertOrientation, L14631-14651), Front Winding selects which winding
 *    is front, Cull Mode (3DSTATE_RASTER on Gen8/9) discards front, back,
 *    both or none; only triangles are face-culled; _BF points and lines are
 *    marked back-facing (L14482-14580);
 *  - the clip rectangle (L14858-14870): the clipped drawing rectangle,
 *    intersected with the scissor rectangle when Scissor Rectangle Enable
 *    and with the viewport extents (XMin..XMax ViewPort, rounded outwards to
 *    whole pixels) when Viewport Transform Enable is set; an object whose
 *    bounding box misses it is discarded.
 * Lines (L14876-14993): the algorithm is Table 2's (L15636-15643):
 *  - multisample rasterization ON_* (line_multisample): MSAA lines, a
 *    rectangle centred on and aligned to the line, +-LineWidth/2 (1 when the
 *    width is 0) perpendicular to it, ending at the endpoints, edges under
 *    the top-left rule (L15634);
 *  - else Line Width 0: zero-width (cosmetic) lines by the GIQ diamond rules,
 *    Legacy or DX10 per 3DSTATE_WM Legacy Diamond Line Rasterization
 *    (L14888-14955); Anti-aliasing Enable is ignored (L14886). SF gives the
 *    endpoints and a box one pixel wider than theirs, WM decides the pixels
 *    (units/wm/wm_line.h); Last Pixel Enable lights the end point's diamond;
 *  - else Anti-aliasing Enable: antialiased lines, a rectangle +-LineWidth/2
 *    perpendicular to the line whose ends lie Line End Cap Antialiasing
 *    Region Width beyond the endpoints (L14978-14990); WM computes coverage;
 *  - else non-antialiased wide lines: parallelograms made by moving the
 *    endpoints +-LineWidth/2 along the minor axis (diagonals are X-major),
 *    their four edges under the top-left rule (L14961-14976). Last Pixel
 *    Enable moves the end half a pixel further along the major axis, so
 *    that the pixel whose diamond holds the end point is drawn.
 * Every line carries its snapped endpoints, width and AA region widths
 * (primitive.h line fields) for WM's diamond test, coverage and stipple.
 *
 * The edge equations follow the contract of primitive.h: a*X + b*Y + c
 * >= 0 inside, X and Y in subpixels relative to the bounding box origin
 * (x_min, y_min) in pixels. Samples exactly on an edge belong to the object
 * only on a top or left edge (the top-left rule of the D3D rasterization
 * rules the Intel drivers program, notes/raster-and-qpu-facts.md); the rule
 * is baked into c. A pixel's sample point is its centre (Pixel Location
 * CENTER, 3DSTATE_MULTISAMPLE) or its upper-left corner (UL_CORNER).
 *
 * Planes (value = a0 + a1 * dx + a2 * dy, dx, dy in pixels from vertex 0)
 * are solved from the quantized positions: for a triangle or rectangle
 * through its three vertices; for a line along it (the value at a sample
 * is the one at the sample's projection on the line, vertex 2 = vertex 0);
 * for a point, vertex 0, 1, 2 are its top-left, top-right and bottom-left
 * corners, so b1 and b2 run 0..1 across the square (point sprites).
 * Global depth offset (003 L15719-15758, SF_INT enables L15003-15015) is
 * added to the depth plane of triangles ("only applied to 3DOBJ_TRIANGLE
 * objects", "not applied to any point or line primitives", L15725, L15758;
 * rectangles neither) when the SF_INT enable of the triangle's fill mode is
 * on: Solid, Wireframe or Point by the Front or Back Face Fill Mode of its
 * facing (the fill modes themselves are drawn SOLID, below, so a wireframe
 * triangle takes the Wireframe enable's offset over its whole area): MaxDepthSlope =
 * max(|dz/dx|, |dz/dy|), Bias = Constant * r + Scale * MaxDepthSlope with
 * r the depth format's smallest step (UNORM; 1.0 with Legacy Global Depth
 * Bias) or 2^(exponent(max z) - 23) (D32_FLOAT), clamped by Clamp's sign.
 * A depth format never programmed (or none the seed names) counts as D24.
 *
 * Not here: polygons (CLIP's POLYGONs are fanned into triangles by the
 * caller), WIREFRAME and POINT fill modes (drawn SOLID), multisample
 * positions, conservative rasterization.
 */
#ifndef GTSIM_UNITS_SF_SF_SETUP_H
#define GTSIM_UNITS_SF_SF_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/primitive.h"

/* 3DSTATE_RASTER Cull Mode and Front Winding (reference genxml gen9.xml). */
enum sf_cull_mode { SF_CULL_BOTH = 0, SF_CULL_NONE = 1, SF_CULL_FRONT = 2, SF_CULL_BACK = 3 };
enum sf_front_winding { SF_FRONT_CW = 0, SF_FRONT_CCW = 1 };
/* 3DSTATE_RASTER Front/Back Face Fill Mode (reference genxml gen9.xml FILL_MODE_*). */
enum sf_fill_mode { SF_FILL_SOLID = 0, SF_FILL_WIREFRAME = 1, SF_FILL_POINT = 2 };

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
    float line_width;               /* 3DSTATE_SF Line Width; 0 (cosmetic) is drawn as 1 */
    bool point_rule_upper_right;    /* 3DSTATE_WM Point Rasterization Rule */
    bool depth_offset;              /* SF_INT::Global Depth Offset Enable Solid */
    bool depth_offset_wireframe;    /* SF_INT::Global Depth Offset Enable Wireframe */
    bool depth_offset_point;        /* SF_INT::Global Depth Offset Enable Point */
    uint32_t front_fill_mode, back_fill_mode;   /* enum sf_fill_mode (3DSTATE_RASTER / Gen7 SF) */
    float depth_offset_constant, depth_offset_scale, depth_offset_clamp;
    uint32_t depth_format;          /* enum sf_depth_format (3DSTATE_DEPTH_BUFFER) */
    bool legacy_depth_bias;         /* 3DSTATE_SF Legacy Global Depth Bias Enable */
    /* lines (003 L14876-14993, Table 2 L15636-15643) */
    bool line_antialiasing;         /* SF_INT::Anti-aliasing Enable (3DSTATE_RASTER) */
    bool line_multisample;          /* WM_INT::Multisample Rasterization Mode is ON_* */
    bool sample_pattern_raster;     /* coverage at the sample pattern (WM's multisample
                                       rasterization): a triangle's or parallelogram's
                                       candidate pixels are all it touches */
    bool legacy_diamond;            /* 3DSTATE_WM Legacy Diamond Line Rasterization */
    bool aa_distance_true;          /* 3DSTATE_SF AA Line Distance Mode AALINEDISTANCE_TRUE */
    float line_aa_region;           /* 3DSTATE_WM Line Antialiasing Region Width, pixels */
    float line_cap_aa_region;       /* 3DSTATE_SF Line End Cap Antialiasing Region Width, pixels */
};

/* 3DSTATE_DEPTH_BUFFER Surface Format (reference genxml gen9.xml). */
enum sf_depth_format { SF_DEPTH_D32_FLOAT = 1, SF_DEPTH_D24_UNORM_X8 = 3, SF_DEPTH_D16_UNORM = 5 };

struct sf_setup_vertex {
    float x, y, z, w;               /* screen x, y, z; w as the VUE held it (for 1/w) */
};

enum sf_setup_result {
    SF_SETUP_OK = 0,
    SF_SETUP_DEGENERATE,
    SF_SETUP_CULLED_FACE,
    SF_SETUP_OUTSIDE,               /* the bounding box misses the clip rectangle */
    SF_SETUP_BAD_WIDTH,             /* a point width that is NaN, infinite or negative */
};

/* 3D object types (003 L14427-14435). */
enum sf_object_type {
    SF_OBJECT_POINT = 1,
    SF_OBJECT_LINE,
    SF_OBJECT_TRIANGLE,
    SF_OBJECT_RECTANGLE,
};

struct sf_object {
    uint32_t type;                  /* enum sf_object_type */
    struct sf_setup_vertex v[3];    /* point: v[0]; line: v[0], v[1] */
    bool invert_orientation;        /* triangles of a strip (L14631-14651) */
    bool back_facing;               /* _BF points and lines (L14482-14580) */
    float point_width;              /* points: from the state or the vertex (L14788) */
    bool last_pixel;                /* lines: Last Pixel Enable applies to this one */
    bool stipple_restart;           /* lines: the stipple counter restarts (L15540) */
};

/* Sets up any object: `out` is filled when the result is SF_SETUP_OK
 * (topology PRIM_POINTLIST, PRIM_LINELIST, PRIM_TRILIST or PRIM_RECTLIST;
 * flags PRIM_BACK_FACING; primitive_id, draw, viewport and RT indices and
 * attributes are the caller's). */
enum sf_setup_result sf_setup(const struct sf_setup_state *st, const struct sf_object *o,
                              struct setup_primitive *out);

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
