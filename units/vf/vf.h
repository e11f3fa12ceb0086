/* units/vf/vf.h - the Vertex Fetch unit of Gen8/Gen9 (seed 003 L11845-12201):
 * executes 3DPRIMITIVE, writes each vertex's input VUE into the URB for the
 * VS and sends the objects the topology makes, in order, to the VS.
 *
 * What is modelled
 * - State (layouts: seed 004 / spec/data/gen8.xml, gen9.xml):
 *   3DSTATE_VERTEX_BUFFERS (VERTEX_BUFFER_STATE: address taken when Address
 *   Modify Enable is set, pitch, size; Null Vertex Buffer reads as size 0),
 *   3DSTATE_VERTEX_ELEMENTS (replaces every element; the valid ones must run
 *   from element 0 without a gap, 004 L6423-6430, a valid one after a gap is
 *   counted and ignored), 3DSTATE_INDEX_BUFFER, 3DSTATE_VF (Indexed / Gen9
 *   Sequential Draw Cut Index Enable, Cut Index), 3DSTATE_VF_TOPOLOGY (Gen8+
 *   take the topology from it, the 3DPRIMITIVE field is ignored, 004
 *   L620-624), 3DSTATE_VF_INSTANCING (per element, step rate),
 *   3DSTATE_VF_SGVS, 3DSTATE_VF_STATISTICS, 3DSTATE_VS (Vertex Cache
 *   Disable) and 3DSTATE_URB_VS (the VS entry count and size). The vertex
 *   inputs (buffers, elements, index buffer, instancing, SGVS) are consumed;
 *   the rest goes on to the VS in order (units/common/ff_stage.h).
 * - 3DPRIMITIVE (004 L564-640, the loops of seed 001 L4789-4869, which 003
 *   describes in prose at L11962-11992): InstanceLoop over Instance Count
 *   (InstanceID from 0; an implied cut and a cache flush between instances),
 *   VertexLoop over Vertex Count Per Instance. SEQUENTIAL: VertexIndex =
 *   StartVertexLocation + VertexNumber, VertexID = VertexNumber. RANDOM:
 *   the index buffer entry StartVertexLocation + VertexNumber is VertexID,
 *   VertexIndex = VertexID + BaseVertexLocation. Instanced elements read
 *   structure StartInstanceLocation + InstanceID / step rate (vf_fetch.h).
 *   Indirect Parameter Enable takes DW2-6 from the 3DPRIM_* registers (004
 *   L597-610); End Offset Enable draws 3DPRIM_END_OFFSET / VB0 pitch
 *   vertices (004 L612: a vertex not wholly before the offset is not output;
 *   read as "its structure", inferred). 0 vertices or 0 instances is a no-op
 *   (004 L611, L615), counted.
 * - Out of range: an element beyond its buffer's size reads as zeros (003
 *   L11893), an index beyond the index buffer's size reads 0 (004 L631-634);
 *   both counted. Formats and component controls: vf_fetch.h.
 * - Cut (primitive restart): a RANDOM draw's index value equal to the Cut
 *   Index ends the topology when Indexed Draw Cut Index Enable is set; with
 *   Gen9's Sequential Draw Cut Index Enable a SEQUENTIAL VertexIndex equal to
 *   it does (inferred: the seed names the bit only). Not for RECTLIST and
 *   TRIFAN_NOSTIPPLE (003 L11867-11883). Topologies, object orders, dangling
 *   vertex removal and the IA counters: vf_assembly.h.
 * - The vertex cache (003 L11986-11992): tagged by VertexIndex, it holds the
 *   handles of vertices already fetched; a hit sends the same handle again
 *   (nothing fetched or written). Hardware marks it VCHit so the VS does not
 *   shade it again (001 L4817); here every primitive's new_vertices mask
 *   (primitive.h) marks the handles no earlier primitive carried, which the
 *   VS shades, once - hits and vertices shared between objects are not. Only for
 *   RANDOM draws (sequential ones never hit, 001 L5508), off with the VS's
 *   Vertex Cache Disable or a PrimitiveID stored in the VUE (001 L5506),
 *   flushed between instances and draws (001 L5522-5524). Its size is not in
 *   the seed (param cache_entries, FIFO replacement; at most half of the VS
 *   entries the VF does not need for itself, below, so it cannot starve).
 * - PrimitiveID: the object's number within its instance (001 L5096-5108); a
 *   vertex's STORE_PID component is the number of objects made before it was
 *   added (the S/R counter rule of 001 L5110-5160 for each listed topology).
 *
 * The VUE the VF writes (the VS's input): element k (k-th valid
 * VERTEX_ELEMENT_STATE) fills dwords 4k..4k+3 of the entry, from the entry's
 * start: Gen8+ elements have no destination offset and "the pitch between
 * elements packed in the URB will always be 128 bits" (004 L6431); a NOSTORE
 * component is left 0. 3DSTATE_VF_SGVS then puts VertexID / InstanceID in
 * dword 4 x Element Offset + Component, zeros before it (004 L6556-6558).
 * The VS reads it from Vertex URB Entry Read Offset (256-bit units, i.e. two
 * elements each) for Read Length rows (003 L11730-11731, 004 L3247-3263), so
 * element k is in row k / 2, half k % 2, as the SIMD8 payload's "Element 0
 * Component 0 ..." order expects (003 L12286). No vertex header is written:
 * with the VS enabled the VF's VUEs need none (003 L11773-11775). Data beyond
 * the VS entry size (3DSTATE_URB_VS) is cut and counted.
 *
 * URB references (units/common/primitive.h owner_handle): a new VUE comes with
 * one reference, the VF's own, kept while the vertex may still be used (the
 * assembler's window, the held object, the cache) and dropped after
 * (URB_OP_DEREFERENCE) - so dangling vertices are freed (003 L12193-12195).
 * Each object sent takes one reference per vertex (URB_OP_REFERENCE, sent
 * before the primitive) that the primitive carries on. An object leaves only
 * when its vertices' writes are done (URB_OP_WRITE_DONE). The VF may hold
 * 2 x (history + 1 + first) entries itself (vf_assembly_history: the object
 * held back for its END flag and the vertices later objects may use); a draw
 * when 3DSTATE_URB_VS gives fewer is skipped and counted (bad.urb_too_small)
 * rather than waiting for itself forever. The REFERENCE for a primitive is
 * sent before the primitive, on the VF's own URB channel, so that it reaches
 * the URB before a consumer's DEREFERENCE can (with the usual 1-cycle links).
 *
 * Ports: "cs" in (MSG_STATE, MSG_MMIO: CS_MMIO_WRITE of the 3DPRIM_* and
 *        IA_* registers is applied and consumed, other writes go on;
 *        CS_MMIO_SYNC gets IA_VERTICES_COUNT / IA_PRIMITIVES_COUNT written
 *        into its struct pipeline_registers and goes on once the draws before
 *        it have left), "vs" out (state, registers, MSG_PRIMITIVE, then the
 *        3DPRIMITIVE itself after its primitives), "urb" out / "urb_reply" in
 *        (MSG_URB, client URB_CLIENT_VS: ALLOC of one entry per vertex, WRITE of
 *        its rows, REFERENCE, DEREFERENCE), "l3" out / "l3_reply" in (one
 *        MEMREQ_READ per 64-byte line a vertex's elements touch, and index
 *        lines, four ahead; the data itself is read functionally through the
 *        packet's address space; the Gen8/Gen9 machines link it to slice 0's
 *        L3, configs/). All but "cs" optional: without a URB, handles
 *        are URB_HANDLE_NONE and nothing is written; without an L3, fetch is
 *        untimed.
 * Back-pressure: a busy port, an entry the URB has not given, lines not
 *        answered, a full object queue: the draw waits ("not now"), counted
 *        by cause; the replies wake the unit.
 * Stats: draws (.empty .indirect .bad), instances, vertices (.fetched),
 *        cache.hits/misses, primitives, objects_dropped, lines (.index),
 *        urb.allocs/writes/references/dereferences/refused, stall.urb/l3/
 *        output/records, bad.* (out_of_bounds, index_out_of_bounds,
 *        unsupported_format, unavailable_component, component_hole,
 *        invalid_control, topology, state, unsupported_gen, messages,
 *        address_faults, sgvs_beyond_entry, urb_too_small), dangling, cuts,
 *        IA_VERTICES_COUNT, IA_PRIMITIVES_COUNT, registers_written, syncs, ff.*.
 *
 * Gen7 (vf_gen7.c): VERTEX_BUFFER_STATE's inclusive End Address and per-buffer
 * instancing (INSTANCEDATA, Instance Data Step Rate), 3DSTATE_INDEX_BUFFER's
 * Buffer Ending Address and header Cut Index Enable (cut value all ones of the
 * index size), the topology from 3DPRIMITIVE, STORE_VID/STORE_IID.
 *
 * Gen4 (vf_gen4.c, issue 14): VERTEX_BUFFER_STATE's Max Index (seed 001
 * L3970-4184), per-buffer instancing as on Gen7; 3DSTATE_PIPELINED_POINTERS'
 * VS_STATE (General State Base + pointer) sizes the VF's VS entries and is
 * told to the urb_fence unit (URB_OP_CONFIGURE); URB_FENCE, CS_URB_STATE and
 * CONSTANT_BUFFER go on "urb_state". Stats gen4.state_faults (VS_STATE
 * outside memory), gen4.configures.
 *
 * Not modelled: Gen5/Gen6 state layouts (counted), the edge flag (Edge Flag
 * Enable elements are counted; primitive.h has no edge flags), the GS
 * Reorder Mode for strips (each strip triangle leaves as its own packet in
 * strip order, typed as the draw's topology; an inverted one - odd of
 * TRISTRIP, even of TRISTRIP_REVERSE - carries PRIM_STRIP_ODD, primitive.h,
 * for SOL's reorder), 3DSTATE_VF_COMPONENT_PACKING (forwarded,
 * ignored), Predicate Enable (the CS's concern), the address-based VF cache of
 * vertex lines (every vertex asks its lines; the L3 hits), LINELOOP's closing
 * line PrimitiveID quirk (001 L5140), the VF preemption registers and
 * LINESTRIP_ADJ_CONT/POLYGON_CONT.
 */
#ifndef GTSIM_UNITS_VF_VF_H
#define GTSIM_UNITS_VF_VF_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops vf_ops;

/* Per-draw records (issue 17 item 5), for `gtsim run`'s draws.csv and
 * stats.json: one per 3DPRIMITIVE the VF took, in order (numbered as the
 * primitives' draw field, primitive.h), up to VF_OBSERVED_DRAWS (later draws
 * are in the totals only). first_cycle is the cycle VF took the command (the
 * draw's issue into the 3D pipeline); last_cycle its last vertex fetched or
 * the end of its generation; skipped marks a draw of no work (empty or
 * refused, counted in draws.empty / draws.bad). */
#define VF_OBSERVED_DRAWS (1u << 20)

struct vf_observed_draw {
    uint32_t draw;
    bool skipped;
    uint64_t vertices;              /* vertices fetched into VUEs (cache hits are not) */
    uint64_t instances;
    uint64_t first_cycle, last_cycle;   /* VF's clock */
};

uint32_t vf_observed_draws(struct unit *u, const struct vf_observed_draw **draws);

#endif
