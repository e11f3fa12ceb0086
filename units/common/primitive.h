/* units/common/primitive.h - primitives between the geometry stages
 * (MSG_PRIMITIVE) and set-up primitives from SF to WM (MSG_SETUP).
 *
 * Between fixed-function stages the hardware passes vertex packets of
 * {VUE handle, PrimType, StartPrim, EndPrim, optionally vertex header data}
 * (seed 003 L11749-11757). We carry one whole primitive (or one instance's
 * worth of a strip) per message, in API order end to end: the handles of
 * its vertices in the URB, the topology they came from and the flags each
 * stage needs. A stage that takes a primitive dereferences its handles when
 * it is done with them (units/common/urb.h).
 *
 * After SF the vertices are in screen space and set up: MSG_SETUP carries
 * what the rasterizer and the pixel shader payload need (edge equations in
 * the rasterizer's fixed point, the depth plane, and each attribute's plane
 * coefficients a0/a1/a2 for SBE; the payload layout of the deltas is a gap
 * in the seed, 003 notes §3.13).
 *
 * VideoCore IV reuses MSG_PRIMITIVE for its vertex batches, with VPM indices
 * instead of URB handles (struct vc4_primitive, vc4_io.h).
 */
#ifndef GTSIM_UNITS_COMMON_PRIMITIVE_H
#define GTSIM_UNITS_COMMON_PRIMITIVE_H

#include <stdint.h>

/* 3D_Prim_Topo_Type (003 L11559-11654; numeric encodings are a gap in the
 * seed, taken from Mesa's genxml gen9.xml "3D_Prim_Topo_Type"). */
enum prim_topology {
    PRIM_POINTLIST = 1,
    PRIM_LINELIST = 2,
    PRIM_LINESTRIP = 3,
    PRIM_TRILIST = 4,
    PRIM_TRISTRIP = 5,
    PRIM_TRIFAN = 6,
    PRIM_QUADLIST = 7,
    PRIM_QUADSTRIP = 8,
    PRIM_LINELIST_ADJ = 9,
    PRIM_LINESTRIP_ADJ = 10,
    PRIM_TRILIST_ADJ = 11,
    PRIM_TRISTRIP_ADJ = 12,
    PRIM_TRISTRIP_REVERSE = 13,
    PRIM_POLYGON = 14,
    PRIM_RECTLIST = 15,
    PRIM_LINELOOP = 16,
    PRIM_POINTLIST_BF = 17,
    PRIM_LINESTRIP_CONT = 18,
    PRIM_LINESTRIP_BF = 19,
    PRIM_LINESTRIP_CONT_BF = 20,
    PRIM_TRIFAN_NOSTIPPLE = 22,
    PRIM_PATCHLIST_1 = 32,          /* PATCHLIST_n = 31 + n, n = 1..32 */
    PRIM_PATCHLIST_32 = 63,
};

/* Vertices in a patch list's patch; 0 when the topology is no patch list. */
static inline uint32_t prim_patch_vertices(uint32_t topology)
{
    return topology >= PRIM_PATCHLIST_1 && topology <= PRIM_PATCHLIST_32
               ? topology - PRIM_PATCHLIST_1 + 1 : 0;
}

enum prim_flags {
    PRIM_START = 1u << 0,           /* StartPrim: first primitive of a strip/fan/draw */
    PRIM_END = 1u << 1,             /* EndPrim: last of it */
    PRIM_BACK_FACING = 1u << 2,     /* set by SF's face determination */
    PRIM_RESTARTED = 1u << 3,       /* follows a primitive restart (cut index) */
    PRIM_CLIPPED = 1u << 4,         /* vertices made by CLIP */
    /* A TRISTRIP / TRISTRIP_REVERSE triangle sent alone (3 vertices) that is an
     * "inverted" triangle of its strip - an odd one of TRISTRIP, an even one of
     * TRISTRIP_REVERSE (SF's invertOrientation, seed 003 L14631-14651) - with
     * its vertices still in strip order (k, k+1, k+2). VF sends every strip
     * triangle as its own packet and sets this, so the strip's parity is not
     * lost: SOL reorders such a triangle as its table's odd triangles (003
     * L13759-13767: (k, k+2, k+1) LEADING, (k+1, k, k+2) TRAILING); without it
     * a lone strip triangle is taken in the order it comes (e.g. the GS's
     * output triangles, which units/gs already reorders and types). CLIP
     * inverts such a triangle as SF's strip decomposition would (L14631). */
    PRIM_STRIP_ODD = 1u << 5,
    /* Set by SF on a set-up triangle whose topology polygon stipple does not
     * apply to: anything but POLYGON, TRIFAN, TRILIST, TRISTRIP and
     * TRISTRIP_REVERSE (TRIFAN_NOSTIPPLE in particular; seed 003 L15560-15575) */
    PRIM_NO_POLY_STIPPLE = 1u << 6,
    /* Set by VF on the 4-vertex POLYGON it makes of a QUADSTRIP quad (vertices
     * (2i, 2i+1, 2i+3, 2i+2)); without it a 4-vertex POLYGON is a QUADLIST
     * quad. The Gen4 GS tells its thread which (seed 001 L7377-7395). */
    PRIM_QUADSTRIP_OBJECT = 1u << 7,
};

#define PRIM_MAX_VERTICES 32u       /* PATCHLIST_32 */

struct primitive_packet {
    uint32_t topology;              /* enum prim_topology as the stage received it */
    uint32_t flags;                 /* enum prim_flags */
    uint32_t vertex_count;          /* handles in use */
    uint32_t provoking;             /* index in handles[] of the provoking vertex */
    uint32_t instance;              /* InstanceID */
    uint32_t primitive_id;          /* PrimitiveID as the stages count it */
    uint32_t stream;                /* GS stream (SOL); 0 otherwise */
    uint32_t draw;                  /* the 3DPRIMITIVE it came from (ordering, stats) */
    /* The URB references a primitive owns (the convention every stage keeps,
     * so that entries free exactly when their last reader is done): with
     * owner_handle URB_HANDLE_NONE the packet holds one reference on each of
     * handles[0..vertex_count); otherwise one reference on owner_handle only,
     * and handles[] point inside that entry (a GS output entry holds all the
     * vertices its thread emitted, 003 L13031-13676). A stage that forwards a
     * primitive passes its references on; a stage that consumes it (and makes
     * new vertices, or drops it) dereferences them when it no longer reads
     * them. VF takes one reference per primitive on each vertex it sends. */
    uint32_t owner_handle;
    /* VF -> VS: bit i set when handles[i] is a vertex VF has just written and no
     * earlier primitive carried: the VS shades exactly these, once. A vertex
     * shared with an earlier object (strips, fans) or found in the vertex cache
     * (the VCHit mark, seed 001 L4817) comes with its bit clear. 0 elsewhere. */
    uint32_t new_vertices;
    /* bit i: vertex i's data starts one 32-byte URB row past handles[i]
     * (handles count 64-byte units; a GS output vertex can sit at an odd
     * row, e.g. after a one-row control data header, 003 L13031-13676):
     * readers add one to the row they read from. */
    uint32_t half_row;
    uint32_t handles[PRIM_MAX_VERTICES];    /* VUE handles (urb.h), 64-byte units */
};

/* A set-up primitive, SF -> WM (003 L14361-15206).
 *
 * Coverage: up to four edges a*X + b*Y + c >= 0 inside, in the rasterizer's
 * fixed point (subpixel_bits fractional bits), X and Y relative to the
 * bounding box origin (x_min, y_min) in pixels, each sample point taken at
 * the pixel centre or its upper-left corner (3DSTATE_MULTISAMPLE Pixel
 * Location). The top-left rule is baked into c. An edge whose a, b and c
 * are all zero always passes: a triangle uses three, a line's parallelogram
 * four, and a RECTLIST rectangle or a point's square none (their bounding
 * box is exact). The bounding box is already clipped to the clip rectangle
 * (drawing rectangle, scissor, viewport extents).
 *
 * Planes in screen space: value = a0 + a1 * dx + a2 * dy with dx, dy in
 * pixels from (x0, y0), evaluated wherever the rasterizer samples:
 *  - depth: the interpolated source depth (z after the viewport transform);
 *  - barycentric[0], barycentric[1]: the screen-linear barycentric weights
 *    of vertex 1 and vertex 2 (vertex 0's is 1 - b1 - b2). WM derives the
 *    perspective weights from them and vertex_inverse_w:
 *    p_i = b_i * iw_i / (b0 * iw0 + b1 * iw1 + b2 * iw2);
 *  - inverse_w: 1/w, for the payload's source W.
 * A line has vertex 2 = vertex 0 (barycentric[1] zero); a point has its
 * weights chosen by SF so that point sprite coordinates interpolate.
 *
 * Attributes, in the form the pixel shader payload carries them (seed 003
 * L15189: "A = a0 + a1 * b1 + a2 * b2"): a0 the value at vertex 0 (the
 * provoking vertex's for a constant/flat attribute), a1 = value at vertex 1
 * - a0, a2 = value at vertex 2 - a0 (zero for constant attributes), where
 * b1, b2 are the barycentric weights of the mode the kernel asks for. SBE
 * has already applied its selection, swizzles and constant overrides:
 * attributes[i] is PS input attribute i. */
#define SETUP_MAX_ATTRIBUTES 32u
#define SETUP_MAX_EDGES 4u

struct setup_plane {
    float a0, a1, a2;
};

struct setup_primitive {
    uint32_t topology;              /* PRIM_TRILIST, PRIM_RECTLIST, PRIM_LINELIST or PRIM_POINTLIST:
                                       the form the rasterizer draws */
    uint32_t flags;                 /* enum prim_flags (BACK_FACING here) */
    uint32_t primitive_id;
    uint32_t draw;                  /* the 3DPRIMITIVE it came from (per-draw stats) */
    uint32_t viewport_index, rt_array_index;
    int32_t x_min, y_min, x_max, y_max;     /* bounding box in pixels, inclusive, clipped */
    int64_t edge_a[SETUP_MAX_EDGES], edge_b[SETUP_MAX_EDGES], edge_c[SETUP_MAX_EDGES];
    uint32_t subpixel_bits;
    float x0, y0;                   /* the planes' origin in screen space (vertex 0) */
    struct setup_plane depth;       /* z */
    struct setup_plane inverse_w;   /* 1/w */
    struct setup_plane barycentric[2];      /* screen-linear weights of vertices 1 and 2 */
    float vertex_inverse_w[3];      /* 1/w of vertices 0, 1, 2 */
    uint32_t attribute_count;       /* attributes in use (4 components each) */
    uint32_t constant_mask;         /* bit i: attribute i is constant (a1 = a2 = 0) */
    struct setup_plane attributes[SETUP_MAX_ATTRIBUTES][4];
    /* Gen4 (seed 001 SF): the URB entry the SF thread wrote its attribute
     * setup to (urb_fence handle; rows of 256 bits), one reference owned by
     * the primitive; 0 rows: none. Zero on Gen7-Gen9. */
    uint32_t setup_urb_handle; uint32_t setup_urb_rows;
    /* Lines (003 L14876-14993, WM L15494-15546; appended, zero for every
     * other object). line_mode says which of the seed's line algorithms SF
     * chose (Table 2, L15636-15643) and so how WM decides the pixels:
     *  - SETUP_LINE_PARALLELOGRAM (non-antialiased wide lines) and
     *    SETUP_LINE_MSAA_RECTANGLE (multisample rasterization ON): the edges
     *    above under the top-left rule;
     *  - SETUP_LINE_DIAMOND_LEGACY / _DX10 (Line Width 0): no edges; WM lights
     *    a pixel when the line exits its diamond (GIQ rules, units/wm/wm_line.h);
     *  - SETUP_LINE_AA_RECTANGLE (Antialiasing Enable, width not 0): the
     *    rectangle's edges (end caps included), WM computes each pixel's
     *    coverage from the endpoints, line_width and the AA region widths.
     * Endpoints are in the rasterizer's fixed point (subpixel_bits), absolute
     * screen coordinates after the drawing rectangle offset (not box-relative). */
    uint32_t line_mode;             /* enum setup_line_mode */
    uint32_t line_flags;            /* enum setup_line_flags */
    int32_t line_x[2], line_y[2];   /* start and end point, subpixels */
    float line_width;               /* pixels, as drawn (0 for diamond lines) */
    float line_aa_region;           /* 3DSTATE_WM Line Antialiasing Region Width, pixels */
    float line_cap_aa_region;       /* Line End Cap Antialiasing Region Width, pixels */
};

enum setup_line_mode {
    SETUP_LINE_NONE = 0,            /* not a line */
    SETUP_LINE_PARALLELOGRAM,
    SETUP_LINE_DIAMOND_LEGACY,      /* 3DSTATE_WM Legacy Diamond Line Rasterization set */
    SETUP_LINE_DIAMOND_DX10,
    SETUP_LINE_AA_RECTANGLE,
    SETUP_LINE_MSAA_RECTANGLE,
};

enum setup_line_flags {
    SETUP_LINE_LAST_PIXEL = 1u << 0,        /* Last Pixel Enable applies to this line */
    SETUP_LINE_STIPPLE_RESTART = 1u << 1,   /* the line stipple counter restarts (L15540) */
    SETUP_LINE_X_MAJOR = 1u << 2,           /* |dx| >= |dy| (diagonals X-major, L14983) */
    SETUP_LINE_AA_MANHATTAN = 1u << 3,      /* AA Line Distance Mode not TRUE */
};

#endif
