/* units/vf/vf_assembly.h - the vertex fetcher's primitive assembly: a stream of
 * vertex indices (from the index buffer or sequential) and the draw's topology
 * in, objects (point, line, triangle, polygon, rectangle, patch) out. A pure
 * library; the VF unit feeds it and turns objects into MSG_PRIMITIVE.
 *
 * What is modelled (seed 003)
 * - Every 3D_Prim_Topo_Type of units/common/primitive.h, with the object vertex
 *   orders of the GS "Object Vertex Ordering" table (L13071-13125) and SF's
 *   decompositions (L14484-14720): lists take 1/2/3/4/6/n vertices per object,
 *   LINESTRIP* (v[i], v[i+1]), LINESTRIP_ADJ (v[i]..v[i+3]), TRIFAN,
 *   TRIFAN_NOSTIPPLE and POLYGON (v0, v[i], v[i+1]), QUADSTRIP (v[2i], v[2i+1],
 *   v[2i+3], v[2i+2]).
 * - LINELOOP becomes LINESTRIP at the top of the pipe with the closing line
 *   (v[N-1], v0) (L11578, L13095); QUADLIST and QUADSTRIP become POLYGON in VF
 *   (L11589, L13119-13120); RECTLIST objects have 3 vertices (L11591).
 * - Strip winding: objects leave in the SF order (v[i], v[i+1], v[i+2]) with
 *   invert_orientation alternating, starting TRUE for TRISTRIP_REVERSE (SF's
 *   TriangleStripDecomposition, L14632-14650). With reorder LEADING or TRAILING
 *   (3DSTATE_GS Reorder Mode; the GS table L13099-13106) an inverted triangle's
 *   vertices are reordered instead ((k, k+2, k+1) leading, (k+1, k, k+2)
 *   trailing) and it is typed TRISTRIP_REVERSE, the others TRISTRIP.
 * - TRISTRIP_ADJ: objects of 6 vertices (v0, adjacent 0-1, v1, adjacent 1-2, v2,
 *   adjacent 2-0) with the seed's first/middle/last/only forms (L13107-13112; the
 *   trailing rows are OpenGL's order, the leading rows' odd objects "rotated");
 *   LEADING rotates odd objects to start at vertex 2k, TRAILING (and NONE) keeps
 *   the trailing rows. Every TRISTRIP_ADJ object is already wound right.
 * - Provoking vertex: SF's Provoking Vertex Selects (L14524, L14553, L14600,
 *   L14636, L14672; default 0 = the object's first vertex), POLYGON and RECTLIST
 *   always 0 (L14691, L14711); for adjacency objects the select is taken to count
 *   the non-adjacent vertices (1 + select for LINELIST_ADJ/LINESTRIP_ADJ, 2 *
 *   select for TRILIST_ADJ/TRISTRIP_ADJ; inferred, the seed gives no rule).
 * - Primitive restart: an index equal to the cut index ends the topology and
 *   starts a new one, for every topology but RECTLIST and TRIFAN_NOSTIPPLE (the
 *   cut table L11867-11883 says N for those; the topologies it does not list are
 *   taken to honour the cut). The cut index is not a vertex.
 * - Flags: PRIM_START on the first object of each topology (draw start or after
 *   a cut), PRIM_END on its last, PRIM_RESTARTED on objects after a cut.
 * - Dangling vertices (L12181-12187): vertices of incomplete objects are dropped
 *   and counted; IA_VERTICES_COUNT counts the others, IA_PRIMITIVES_COUNT every
 *   object including LINELOOP's closing line (L12191-12200).
 *
 * The VF unit sends invert_orientation on as PRIM_STRIP_ODD
 * (units/common/primitive.h).
 *
 * Not modelled: LINESTRIP_ADJ_CONT and POLYGON_CONT (made only on restoring a
 * preempted draw), the vertex cache (the VF unit's), PrimitiveID numbering,
 * MI_TOPOLOGY_FILTER. An unknown topology is counted and its vertices dropped.
 */
#ifndef GTSIM_UNITS_VF_VF_ASSEMBLY_H
#define GTSIM_UNITS_VF_VF_ASSEMBLY_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/primitive.h"

enum vf_reorder { VF_REORDER_NONE, VF_REORDER_LEADING, VF_REORDER_TRAILING };

struct vf_object {
    uint32_t topology;          /* enum prim_topology as it leaves VF */
    uint32_t flags;             /* PRIM_START, PRIM_END, PRIM_RESTARTED */
    uint32_t vertex_count;
    uint32_t provoking;         /* index into vertices[] */
    bool invert_orientation;    /* SF flips the winding (strip triangles) */
    uint32_t vertices[PRIM_MAX_VERTICES];  /* vertex indices, in object order */
};

struct vf_assembly_config {
    uint32_t topology;          /* enum prim_topology */
    bool cut_enable;            /* 3DSTATE_VF Indexed Draw Cut Index Enable */
    uint32_t cut_index;
    uint32_t reorder;           /* enum vf_reorder */
    uint32_t tri_provoking;     /* Triangle List/Strip Provoking Vertex Select (0..2) */
    uint32_t line_provoking;    /* Line List/Strip Provoking Vertex Select (0..1) */
    uint32_t fan_provoking;     /* Triangle Fan Provoking Vertex Select (0..2) */
};

struct vf_assembly_counters {
    uint64_t vertices;          /* IA_VERTICES_COUNT: vertices of complete objects */
    uint64_t objects;           /* IA_PRIMITIVES_COUNT */
    uint64_t dangling_vertices;
    uint64_t cuts;
    uint64_t bad_topology;      /* draws of a topology VF does not know */
};

typedef void (*vf_emit_fn)(void *context, const struct vf_object *object);

#define VF_ASSEMBLY_WINDOW 32u  /* the last vertices kept (PATCHLIST_32) */

struct vf_assembler {
    struct vf_assembly_config config;
    vf_emit_fn emit;
    void *context;
    struct vf_assembly_counters counters;
    /* private */
    bool known;                 /* topology is one VF assembles */
    bool restarted;             /* the current topology follows a cut */
    bool have_pending;          /* an object held back until its END flag is known */
    bool pending_first;
    struct vf_object pending;
    uint32_t first;             /* vertex 0 of the current topology */
    uint64_t count;             /* vertices in the current topology */
    uint64_t objects_in_run;
    uint32_t window[VF_ASSEMBLY_WINDOW];
};

/* Starts a draw (counters keep accumulating across draws). */
void vf_assembly_begin(struct vf_assembler *assembler, const struct vf_assembly_config *config,
                       vf_emit_fn emit, void *context);
/* One index from the index buffer (or a sequential number). */
void vf_assembly_vertex(struct vf_assembler *assembler, uint32_t index);
/* Ends the draw: flushes the held object, LINELOOP's closing line, dangling vertices. */
void vf_assembly_end(struct vf_assembler *assembler);

/* Whether the cut index applies to the topology (L11867-11883). */
bool vf_topology_cuts(uint32_t topology);

/* How many of the latest vertices of a topology objects not yet made may
 * still use (the vertices before the one being added), and whether they may
 * also use the topology's first vertex (fans, POLYGON, LINELOOP's closing
 * line). A caller that holds resources per vertex keeps exactly those, plus
 * the vertices of the held object below. 0 for a topology VF does not know. */
unsigned vf_assembly_history(uint32_t topology, bool *uses_first);

/* Whether VF assembles the topology at all (a draw of any other is dropped). */
bool vf_topology_known(uint32_t topology);

/* The object made but held back until its END flag is known (it leaves on
 * the next object or at the end of the topology); NULL when there is none. */
const struct vf_object *vf_assembly_held(const struct vf_assembler *assembler);

#endif
