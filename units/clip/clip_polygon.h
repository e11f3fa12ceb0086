/* units/clip/clip_polygon.h - the clipper's arithmetic as a pure library: the
 * per-vertex VertexClipTest, the per-object ClipDetermination, the ClipMode
 * action, and the fixed-function clipper that cuts points, lines and polygons
 * against the clip planes in clip space. No unit, no URB, no fabric.
 *
 * What is modelled (seed 003, the CLIP chapter L13826-14360)
 * - VertexClipTest (L13901-14121), literally: BAD when x, y, z, w or an enabled
 *   clip distance is NaN; the perspective divide (x, y, z times rhw = 1/w,
 *   L11806-11843) unless Perspective Divide Disable (then the VUE holds NDC x,
 *   y, z and rhw already, seed 004 L1496); NEGW when rhw is negative, -0
 *   included; VP X/Y against [-1, 1] when Viewport XY ClipTest is enabled, GB
 *   X/Y against the viewport's guardband when Guardband ClipTest is (not for
 *   points: seed 004 L1470 "for non-point objects"), both with the strict
 *   comparisons flipped when rhw is negative (the non-#ifdef branch, notes
 *   item 12); one set copied to the other when only one is enabled; VP Z
 *   against [0, 1] (D3D) or [-1, 1] (OpenGL) with separate near and far
 *   enables; NaN x (or y) sets all X (Y) outcodes when either XY test is on,
 *   NaN z the Z outcodes of the enabled Z tests; user clip flags: a clip
 *   distance "less than 0 or a NaN" (L11788) under the clip-test or the
 *   cull-test mask.
 * - ClipDetermination (L14133-14225): objAND/objOR of the object's vertices;
 *   TR = TR_GB || TR_VPXY || TR_VPZ || TR_UC || TR_NEGW (TR_NEGW included,
 *   notes item 12); TA = !TR && TA_GB && TA_VPZ && TA_NEGW and, for the UC
 *   planes, the clip-test mask behaves as "UserClipFlags MustClip Enable" (its
 *   planes must be TA: seed 004 L1477 "trivial reject / trivial accept / must
 *   clip") and the cull-test mask as disabled (only TR: L1445 "does not cause a
 *   must clip"); MC = !(TA || TR).
 * - ClipMode (L14235-14301): NORMAL, CLIP_ALL, CLIP_NON_REJECT, REJECT_ALL,
 *   ACCEPT_ALL. Seed 004 (L1481) marks 1 and 2 reserved on Gen8; seed 003's
 *   values for them (the Gen4 CLIP_STATE order) are kept, and the caller counts
 *   their use; 5-7 are reserved and act as NORMAL here (the caller counts them).
 * - The clipper (L13856-13866 "new vertex positions, barycentric attributes
 *   and shares vertices with the source primitive"): each output vertex carries
 *   its clip-space position, its clip distances and its barycentric weights
 *   over the source object's vertices, all linear in clip space along the cut
 *   edge. A new vertex on the edge from an inside vertex a to an outside vertex
 *   b of a plane with signed distances da >= 0 > db is a + t (b - a) with
 *   t = da / (da - db) (always from the inside vertex, so an edge shared by two
 *   objects is cut at the same point). Polygons are clipped plane by plane,
 *   Sutherland-Hodgman; lines by moving the outside end to the cut.
 *
 * Not in the seed (notes item 16: plane order, precision, output order and
 * guardband use are unspecified), chosen here: the planes are w > 0 (w >=
 * CLIP_W_EPSILON, and a vertex cut there gets w >= CLIP_W_EPSILON even when
 * rounding lands it at 0, so no output vertex divides by zero), near, far, x min, x
 * max, y min, y max, then the user clip-test planes 0-7; X/Y are cut at the
 * guardband when its test is on, else at the viewport, and not at all when
 * neither test is on (an infinite guardband side is no plane); the output
 * polygon keeps the source winding and starts where Sutherland-Hodgman leaves
 * it (the unit rotates it to put the provoking vertex first).
 */
#ifndef GTSIM_UNITS_CLIP_CLIP_POLYGON_H
#define GTSIM_UNITS_CLIP_CLIP_POLYGON_H

#include <stdbool.h>
#include <stdint.h>

/* Outcode bits (the seed's outCode[] names). */
enum clip_outcode {
    CLIP_OC_BAD = 1u << 0,
    CLIP_OC_NEGW = 1u << 1,
    CLIP_OC_VP_XMIN = 1u << 2,
    CLIP_OC_VP_XMAX = 1u << 3,
    CLIP_OC_VP_YMIN = 1u << 4,
    CLIP_OC_VP_YMAX = 1u << 5,
    CLIP_OC_VP_ZMIN = 1u << 6,
    CLIP_OC_VP_ZMAX = 1u << 7,
    CLIP_OC_GB_XMIN = 1u << 8,
    CLIP_OC_GB_XMAX = 1u << 9,
    CLIP_OC_GB_YMIN = 1u << 10,
    CLIP_OC_GB_YMAX = 1u << 11,
    CLIP_OC_UC_CLIP0 = 1u << 16,    /* 8 bits: clip distance i under the clip-test mask */
    CLIP_OC_UC_CULL0 = 1u << 24,    /* 8 bits: clip distance i under the cull-test mask */
};

#define CLIP_OC_VP_XY (CLIP_OC_VP_XMIN | CLIP_OC_VP_XMAX | CLIP_OC_VP_YMIN | CLIP_OC_VP_YMAX)
#define CLIP_OC_VP_Z (CLIP_OC_VP_ZMIN | CLIP_OC_VP_ZMAX)
#define CLIP_OC_GB (CLIP_OC_GB_XMIN | CLIP_OC_GB_XMAX | CLIP_OC_GB_YMIN | CLIP_OC_GB_YMAX)
#define CLIP_OC_UC_CLIP (0xffu * CLIP_OC_UC_CLIP0)
#define CLIP_OC_UC_CULL (0xffu * CLIP_OC_UC_CULL0)

#define CLIP_DISTANCES 8u
#define CLIP_SOURCE_VERTICES 3u     /* a clipped object has at most 3 vertices */
#define CLIP_MAX_PLANES 15u         /* w, near, far, 4 x/y, 8 user */
#define CLIP_POLYGON_MAX 24u        /* 3 + one per plane, with room */
#define CLIP_W_EPSILON 1e-6f        /* w below this is outside the w > 0 plane */

/* What VertexClipTest needs (3DSTATE_CLIP, 3DSTATE_RASTER, SF_CLIP_VIEWPORT). */
struct clip_test_config {
    bool viewport_xy;               /* Viewport XY Clip Test Enable */
    bool guardband;                 /* Guardband Clip Test Enable */
    bool z_near, z_far;             /* Viewport Z (Near/Far) Clip Test Enable */
    bool d3d;                       /* API Mode D3D: z in [0, 1]; else OpenGL [-1, 1] */
    bool perspective_divide_disable;
    float gb_xmin, gb_xmax, gb_ymin, gb_ymax;   /* NDC guardband of the vertex's viewport */
    uint8_t clip_mask, cull_mask;   /* CLIP_INT user clip distance clip/cull test masks */
};

/* The outcode of one vertex: pos is the VUE's x, y, z, w (D4-D7), dist its
 * clip distances 0-7 (D8-D15; read only when a mask enables them). point:
 * the vertex is a point object's (the guardband test is off for points). */
uint32_t clip_vertex_test(const struct clip_test_config *c, const float pos[4],
                          const float dist[CLIP_DISTANCES], bool point);

struct clip_determination {
    bool bad, trivial_reject, trivial_accept, must_clip;
};

/* ClipDetermination over the outcodes of an object's n vertices (1-3). */
struct clip_determination clip_determine(const uint32_t *outcodes, uint32_t n);

enum clip_mode {
    CLIP_MODE_NORMAL = 0,
    CLIP_MODE_CLIP_ALL = 1,         /* 003 only; 004: reserved */
    CLIP_MODE_CLIP_NON_REJECT = 2,  /* 003 only; 004: reserved */
    CLIP_MODE_REJECT_ALL = 3,
    CLIP_MODE_ACCEPT_ALL = 4,
};

enum clip_action { CLIP_PASSTHRU = 0, CLIP_DISCARD, CLIP_SPAWN };

/* The ClipMode table (L14235-14281); modes 5-7 act as NORMAL. */
enum clip_action clip_mode_action(uint32_t mode, struct clip_determination d);

/* A vertex as the clipper carries it. */
struct clip_point {
    float pos[4];                       /* clip space */
    float dist[CLIP_DISTANCES];
    float weight[CLIP_SOURCE_VERTICES]; /* barycentric over the source object's vertices */
    int32_t source;                     /* the source vertex it is, or -1 when it is new */
};

/* A plane: inside where coef . pos + offset >= 0, or, with distance >= 0,
 * where dist[distance] >= 0. */
struct clip_plane {
    float coef[4];
    float offset;
    int32_t distance;                   /* -1: a position plane */
    bool w_floor;                       /* the w > 0 plane: a cut's w is at least CLIP_W_EPSILON */
};

/* The planes of the chosen order (see above) for the configuration; returns
 * how many. */
uint32_t clip_planes(const struct clip_test_config *c, struct clip_plane planes[CLIP_MAX_PLANES]);

/* The signed distance of p to the plane. */
float clip_plane_distance(const struct clip_plane *pl, const struct clip_point *p);

/* p = a + t (b - a) for position, distances and weights; source -1. */
void clip_point_lerp(const struct clip_point *a, const struct clip_point *b, float t,
                     struct clip_point *p);

/* Clips the polygon in[0..n) (n >= 3, in order) against the planes; out gets
 * the result (at most CLIP_POLYGON_MAX vertices). Returns the count (0: all
 * cut away, or fewer than 3 left). *overflow is set when a step would pass
 * CLIP_POLYGON_MAX (the result is then 0). */
uint32_t clip_polygon(const struct clip_plane *planes, uint32_t plane_count,
                      const struct clip_point *in, uint32_t n,
                      struct clip_point out[CLIP_POLYGON_MAX], bool *overflow);

/* Clips the line v[0]-v[1] in place; false when nothing is left. */
bool clip_line(const struct clip_plane *planes, uint32_t plane_count, struct clip_point v[2]);

/* True when every position component and weight of p is finite. */
bool clip_point_finite(const struct clip_point *p);

#endif
