/* units/clip/clip.h - the CLIP stage of Gen8/Gen9's 3D pipeline: the clip
 * tests, the Clip Modes and the fixed-function clipper (seed 003 L13826-14360,
 * VUE formats L11747-11844; layouts seed 004 3DSTATE_CLIP L1367-1555,
 * 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP L6729-6760, SF_CLIP_VIEWPORT from
 * the reference genxml). Built on units/common/ff_stage.h; the arithmetic is
 * the pure library clip_polygon.h.
 *
 * Models:
 *  - State: 3DSTATE_CLIP (Clip Enable, API Mode, Viewport XY / Guardband Clip
 *    Test Enables, Clip Mode, user clip distance clip/cull masks and their
 *    Force bits, Perspective Divide Disable, provoking vertex selects, Maximum
 *    VP Index, Force Zero RTA Index, Statistics Enable); 3DSTATE_RASTER's
 *    Viewport Z (Near/Far) Clip Test Enable (CLIP_INT, 003 L13884); 3DSTATE_VS/
 *    DS/GS Enable and user clip/cull masks, resolved as CLIP_INT says
 *    (L13890-13891: Force ? CLIP's : GS ? GS's : DS ? DS's : VS ? VS's : 0);
 *    3DSTATE_URB_VS/DS/GS entry sizes and 3DSTATE_GS Output Vertex Size (the
 *    rows of a vertex); 3DSTATE_SF Statistics Enable; STATE_BASE_ADDRESS's
 *    Dynamic State Base and 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP: the 16
 *    SF_CLIP_VIEWPORTs (64 B apart, L15104) are read functionally through the
 *    packet's address space when the pointer arrives; their guardband extents
 *    (NDC) are what the guardband test uses. Every packet is forwarded to SF.
 *  - The VUE readback (L13893-13899): each object vertex's header row (and the
 *    clip distance row when a mask enables distances) is read with URB_OP_READ;
 *    the Viewport Index (D2, above Maximum VP Index reads 0) selects the
 *    guardband.
 *  - Object staging (L14123-14131): a packet is cut into objects (points,
 *    lines, triangles) by its topology; partial LINESTRIP/TRISTRIP objects (and
 *    leftover list vertices) are removed and counted; adjacency vertices are
 *    removed (pass-through table L14311-14335: *_ADJ to the plain topology);
 *    PATCHLIST is rejected unconditionally (L13878); LINELOOP, QUADLIST and
 *    QUADSTRIP (not allowed after GS) are counted and dropped.
 *  - VertexClipTest, ClipDetermination, ClipMode: clip_polygon.h. RECTLIST
 *    objects are screen-space and pass unclipped unless BAD (L11591). With
 *    Perspective Divide Disable a must-clip object passes (software must use
 *    ACCEPT_ALL, 004 L1496; counted).
 *  - Actions: PASSTHRU objects leave as they came; a packet whose objects all
 *    pass leaves whole (unchanged, its references passed on), otherwise object
 *    by object (one packet each, START|END, strip triangles typed TRISTRIP or
 *    TRISTRIP_REVERSE by their winding, each taking its own URB reference);
 *    DISCARD drops the object; SPAWN hands it to the clipper. A packet's input
 *    references are dropped (URB_OP_DEREFERENCE) once its objects are done.
 *  - The clipper: clip_polygon.h cuts the object in clip space; a triangle
 *    leaves as POLYGON (provoking vertex 0, rotated to start at the source's
 *    provoking vertex when it survived, 3DSTATE_CLIP's selects; L14691), a line
 *    as its pass-through topology, flagged PRIM_CLIPPED. Surviving source
 *    vertices keep their handles (one more reference each); each new vertex
 *    gets an entry (URB_OP_ALLOC) and is written (URB_OP_WRITE) before the
 *    object leaves: header D0-D3 from the provoking vertex (RTAIndex 0 with
 *    Force Zero RTA Index), the clipped clip-space position in D4-D7, every
 *    later dword the barycentric blend of the source vertices' values.
 *  - Where the new vertices live: the seed's fixed-function clipper keeps new
 *    positions and barycentric attributes itself and "shares vertices with the
 *    source primitive for the rest" (L13862); no URB allocation for it exists
 *    on Gen8/Gen9 (3DSTATE_URB_* has none). The model writes them as VUEs
 *    (units/common/urb.h: "CLIP allocates for the vertices it makes",
 *    inferred) in the allocation of the stage whose VUEs reach CLIP (GS > DS >
 *    VS), whose entries have the layout SF/SBE read. A packet owning one GS
 *    entry (owner_handle) has all its clipped vertices written as new entries.
 *  - Registers: CL_INVOCATION_COUNT += complete objects received when Clip
 *    Enable and Statistics Enable (L14353-14359; not partial objects, L11045);
 *    CL_PRIMITIVES_COUNT, which SF counts on CLIP's behalf (L15201-15205,
 *    L11046: +1 per trivially accepted object, + the objects a clipped one
 *    became, 0 for rejected), is counted here from what CLIP sends to SF when
 *    3DSTATE_SF Statistics Enable is set (param count_cl_primitives).
 *    CS_MMIO_WRITE of 0x2338/0x233C and 0x2340/0x2344 set them; CS_MMIO_SYNC
 *    gets both in its struct pipeline_registers (units/common/mmio.h) once the
 *    work ahead has left; with "drained" linked CLIP returns it to the CS as
 *    CS_MMIO_SYNC_DONE (and register writes end here), else it goes on to SF.
 *
 * Gen4 (965G): once a Gen4 3DSTATE_PIPELINED_POINTERS arrives the unit runs
 * the forms of units/clip/clip_gen4.h instead (CLIP_STATE, the seed 001
 * clip tests and Clip Modes, CLIP threads through "td" / "eot", the
 * thread_timeout watchdog, gen4.* stats).
 *
 * Ports: "sol" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO, in order), "sf" out (the
 *        same kinds), "urb" out / "urb_reply" in (MSG_URB, to the URB unit's
 *        client[i] / client_reply[i]; without them CLIP passes primitives
 *        untested, counted), "drained" out (MSG_MMIO, optional); Gen4: "td"[open]
 *        out (MSG_THREAD_DISPATCH to td.clip) and "eot" in (urb.eot_clip).
 * Stats: primitives_in, objects_in, trivially_accepted, trivially_rejected,
 *        clipped, culled_by_distance, bad_objects, discarded, vertices_made,
 *        objects_out, passed_whole, stall.urb_alloc, stall.urb_read,
 *        stall.urb_port, partial_objects, adjacency_vertices, patches_rejected,
 *        unsupported_topology, clipped_away, clip_overflow, clip_nonfinite,
 *        alloc_refused, reserved_clip_mode, clip_without_divide, bad_viewport,
 *        viewport_unreadable, bad_messages, bad_replies, reserved_provoking,
 *        no_urb, vue_size_unknown, register_writes, syncs, state.clip,
 *        cl_invocation_count, cl_primitives_count, ff.* (the skeleton's).
 *
 * Not modelled: face culling and Early Cull (3DSTATE_RASTER Cull Mode, SF's
 * work here); non-perspective barycentrics (Non-Perspective Barycentric
 * Enable: the new vertices' values are linear in clip space, i.e. right for
 * perspective-correct attributes only); flat (constant-interpolated)
 * attributes of a new vertex that becomes the provoking one are blended, not
 * copied (which attributes are flat is 3DSTATE_SBE's); integer attributes are
 * blended as floats; point width clamping; the clipper's latency and rate
 * (seed gaps: one input message per cycle plus the URB's latencies); Force
 * Clip Mode (its "normal" computation is not in the seed: the programmed mode
 * is used); TRISTRIP_ADJ packets longer than one object; LINESTRIP_ADJ_CONT,
 * POLYGON_CONT.
 */
#ifndef GTSIM_UNITS_CLIP_CLIP_H
#define GTSIM_UNITS_CLIP_CLIP_H

#include "fabric/unit.h"

extern const struct unit_ops clip_ops;

#endif
