/* units/gs/gs.h - the Geometry Shader stage of Gen7-Gen9 (unit kind "gs").
 *
 * Models (seed 003 GS L13031-13676, VUE formats L11747-11844; 3DSTATE_GS and
 * 3DSTATE_URB_GS layouts from seed 004 / reference genxml gen9.xml):
 *  - Objects: VF already splits topologies into objects in the order of the
 *    seed's Object Vertex Ordering table (L13071-13125, units/vf/vf_assembly),
 *    so each MSG_PRIMITIVE that reaches the GS is one object.
 *  - Dispatch, SIMD8 (the mode Mesa programs on Gen9: the skl_gs capture's
 *    3DSTATE_GS has Dispatch Mode 3 = SIMD8), payload L13527-13676: R0 common
 *    fields (stage_thread) + R0.2[21:16] topology (0 when Discard Adjacency),
 *    R0.2[22] Hint; R1.n = GS Instance ID [31:27] | URB Return Handle [15:0];
 *    R2.n Primitive ID when Include PrimitiveID; the ICP handles when Include
 *    Vertex Handles (one register per ICP with the object in DW0 when
 *    InstanceCount == 1, eight handles per register when > 1); push
 *    constants; pushed vertex data (Vertex URB Entry Read Offset/Length rows
 *    of each input vertex, read through the URB unit), swizzled one
 *    component per register (InstanceCount == 1) or as is (> 1). The vertex
 *    data starts at Dispatch GRF Start Register For URB Data when that lies
 *    past the constants (else right after them, counted).
 *  - Dispatch, SIMD4x2 (L13253-13570; the payload in units/gs/gs_gen7.h):
 *    SINGLE (one instance per thread), DUAL_INSTANCE (two), DUAL_OBJECT (one
 *    instance of two objects: R0.0/R0.1 both objects' return handles, R1.0 /
 *    R1.4 their Primitive IDs, their ICP handles four each per register,
 *    their vertex data in the lower / upper halves). DUAL_OBJECT pairing: an
 *    object waits for the next one (same topology and vertex count, at most
 *    16 vertices, 004 L3299) while the input has one or for
 *    GS_PAIR_WAIT_CYCLES; state or a register message behind it, or no
 *    partner, sends it alone (DW7:4 masked off). The first object's output
 *    leaves before the second's.
 *  - Instancing: Instance Control + 1 instances per object; a thread takes
 *    up to 8 (SIMD8) or 2 (DUAL_INSTANCE) instances of one object.
 *  - Bad dual-mode state, counted: DUAL_OBJECT with InstanceCount > 1
 *    (dual_object_invalid: one instance per thread), objects of more than 16
 *    vertices (dual_object_oversized: alone), fewer than two GS URB entries
 *    (dual_mode_few_entries: one object / instance per thread, as two
 *    entries could never be had at once; 004 L3303 "UNDEFINED").
 *  - Output entries: one URB_CLIENT_GS entry per object instance (L13178),
 *    allocated before dispatch. After the thread's EOT write (the URB's
 *    "eot_gs" notice) the unit reads back each entry's OUTPUT_VERTEX_COUNT
 *    (the first 32 bytes when Static Output is clear, L13194-13206; else
 *    Static Output Vertex Count) and the control data header (Control Data
 *    Header Size x 32 bytes; cut bits 1/vertex or stream ids 2/vertex, L13180)
 *    and builds the output topology's primitives: vertex k at byte
 *    (count header + control header) + k x (Output Vertex Size + 1) x 16 in
 *    the entry; a cut bit ends the strip after that vertex; stream ids as
 *    the seed's "GS Output StreamID" (L13236-13245); the provoking vertex as
 *    3DSTATE_CLIP selects it (as VF does). Each primitive carries
 *    owner_handle = the entry with one reference (URB_OP_REFERENCE), the
 *    GS's own reference is then dropped; the input object's references are
 *    dropped when its threads ended. Output leaves in dispatch order (L13249).
 *  - Gen7 (3DSTATE_GS of generation 7: no Static Output, no SIMD8 mode,
 *    genxml gen7.xml): a thread ends with its entries' output vertex counts
 *    in DWord 2 of the EOT write's message header (bits 15:0 slot 0, 31:16
 *    slot 1; Mesa's Gen7 vec4 GS generator, generate_gs_set_vertex_count,
 *    public fact: the seeds have no Gen7 GS page), which the URB's notice
 *    carries (thread_msg.h eot_header_dword2); the entry has no count row:
 *    the control data header starts it and the vertices follow.
 *  - Vertex counts beyond 1024 (L13203) or beyond what fits in the entry
 *    (3DSTATE_URB_GS size, when it came down the pipeline) are clamped and
 *    counted.
 *  - Statistics (003 L11041-11042): GS_INVOCATION_COUNT += the increment
 *    Invocations Increment Value encodes per dispatched instance - a field
 *    value v is an increment of v + 1 (004 L3315-3319: "[0,31] indicating an
 *    increment of [1,32]"). Mesa programs 0 (skl_gs.aubinator.txt's
 *    3DSTATE_GS), so its 16 points with one GS invocation each count 16, as
 *    GL's GEOMETRY_SHADER_INVOCATIONS query expects; GS_PRIMITIVES_COUNT += complete
 *    primitives parsed from thread output, both when Statistics Enable; set
 *    by CS_MMIO_WRITE (0x2328/0x2330, each dword its own write) and reported
 *    in CS_MMIO_SYNC (PIPE_REG_GS_INVOCATIONS / PIPE_REG_GS_PRIMITIVES).
 *  - GS disabled: primitives pass through unchanged (L13037).
 *  - Gen4 (965G, units/gs/gs_gen4.h): GS_STATE and GS Enable through
 *    3DSTATE_PIPELINED_POINTERS; enabled, objects staged as seed 001's
 *    vertex ordering table says, one GS thread per object with Table 5-1's
 *    payload, a GS-region entry from the urb_fence unit, the thread's output
 *    VUEs (URB_WRITE Complete + Used) to CLIP in object order as
 *    PrimStart..PrimEnd primitives, the thread_timeout watchdog. With no
 *    "td" or "urb" linked an enabled Gen4 GS passes objects on (counted
 *    gen4.objects_unrun).
 *
 * Ports: "ds" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO), "sol" out, "td"[open]
 *        out (MSG_THREAD_DISPATCH), "eot" in (urb.eot_gs), "urb" out /
 *        "urb_reply" in (MSG_URB).
 * Params: thread_timeout (Gen4).
 * Stats: objects, instances, primitives_out, vertices_out,
 *        invocations, gs_primitives, vertex_count_clamped, refused_entries,
 *        unaligned_vertices, grf_start_adjusted, payload_truncated,
 *        partial_primitives, no_thread_dispatcher,
 *        bad_output_topology, bad_messages, passed_through,
 *        dual_object_threads, single_object_threads, dual_object_invalid,
 *        dual_object_oversized, dual_mode_few_entries,
 *        gen4.* (gs_gen4.h: objects, threads_dispatched, threads_ended,
 *        outputs, primitives_out, vertices_out, watchdog_drops, ...),
 *        td.*, ff.*.
 *
 * Not modelled: packing several objects into one SIMD8 thread (each SIMD8
 * thread carries one object's instances); L3 timing of
 * the FF reads; the semaphore handle; user clip distance tests; handles are
 * 64-byte units (primitive.h) so a vertex that does not start on a 64-byte
 * boundary gets the handle of the 64 bytes it starts in (counted as
 * unaligned_vertices).
 */
#ifndef GTSIM_UNITS_GS_H
#define GTSIM_UNITS_GS_H

#include "fabric/unit.h"

extern const struct unit_ops gs_ops;

#define GS_INVOCATION_COUNT_OFFSET 0x2328u
#define GS_PRIMITIVES_COUNT_OFFSET 0x2330u

#endif
