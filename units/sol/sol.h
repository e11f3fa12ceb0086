/* units/sol/sol.h - the Stream Output Logic (SOL) stage of Gen7-Gen9: copies
 * the vertices of the topologies it receives into up to four SO buffers in
 * memory and passes the rendered stream on to the clipper.
 *
 * Models (seed 003 L13677-13825; command layouts seed 004 L5652-5764 and
 * L5852-6011, SO_DECL from the reference genxml, spec/data/gen8.xml):
 *  - State: 3DSTATE_STREAMOUT (SO Function Enable, API Rendering Disable,
 *    Force Rendering, Render Stream Select, Reorder Mode, SO Statistics
 *    Enable, each stream's Vertex Read Offset and Length in 256-bit rows,
 *    the four buffers' pitches in bytes); 3DSTATE_SO_DECL_LIST (per stream:
 *    Stream To Buffer Selects, Num Entries, and the SO_DECLs: Component
 *    Mask, Register Index in 128-bit units from the read offset, Hole Flag,
 *    Output Buffer Slot); 3DSTATE_SO_BUFFER (SO Buffer Enable, index, Surface
 *    Base Address, Surface Size in dwords minus 1, Stream Offset Write Enable
 *    DW1[21], Stream Output Buffer Offset Address Enable DW1[20], the offset
 *    address, Stream Offset); 3DSTATE_GS (Enable, Output Vertex Size: the
 *    Render_Enable term of L13714).
 *  - Gen7's forms (packets with gen 7; seed 000): 3DSTATE_STREAMOUT
 *    (L2354-2529) with SO Buffer Enable [3:0] in DW1 11:8 and no Force
 *    Rendering or pitches; 3DSTATE_SO_DECL_LIST as on Gen8 (L2120-2254);
 *    3DSTATE_SO_BUFFER (L2043-2118) with its own Surface Pitch (0: unbound)
 *    and a Surface End Address (taken as exclusive, as Mesa's Gen7 drivers
 *    program base + size): the buffer's size is end - base, and it is
 *    zero-length (a selecting stream overflows) unless both enabled and
 *    bound. Gen7 has no offset load/store in the command: SO_WRITE_OFFSETn
 *    is loaded and stored only through the register path below (the same
 *    register offsets).
 *  - SO_WRITE_OFFSET load and store (the table of L13716-13732): with
 *    DW1[21] the buffer's write offset becomes Stream Offset, or the dword
 *    at the offset address when Stream Offset is 0xFFFFFFFF, "before the
 *    execution of the primitive" (applied when the next draw's 3DPRIMITIVE
 *    packet or first primitive arrives); with DW1[20] the write offset is
 *    stored to the offset address after the draw (when the next state packet
 *    SOL takes, register message, or primitive of another draw arrives).
 *  - Input buffering (L13736-13780): each primitive packet is taken as a
 *    topology of vertex_count vertices and broken into the objects of the
 *    seed's table (sol_objects below): lists, strips (TRISTRIP and
 *    TRISTRIP_REVERSE reordered LEADING or TRAILING; a strip triangle that
 *    comes alone is reordered when it carries PRIM_STRIP_ODD, as VF marks
 *    the inverted ones, and taken as it comes otherwise, units/common/
 *    primitive.h), fans, polygons,
 *    adjacency (adjacent-only vertices ignored), RECTLIST as TRILIST, patch
 *    lists as objects of n vertices. LINELOOP, QUADLIST and QUADSTRIP are
 *    "not supported after VF": counted, nothing streamed.
 *  - The SO function (L13782-13792): the primitive's stream (its stream
 *    field); a stream with Num Entries 0 is ignored (no counts). For each
 *    object: overflow when a selected buffer is disabled or write offset +
 *    vertex count x pitch passes the buffer's size; SO_PRIM_STORAGE_NEEDED
 *    [stream] counts every object, SO_NUM_PRIMS_WRITTEN[stream] the objects
 *    written (L11043-11044, only with SO Statistics Enable); an overflowing
 *    object writes nothing. Otherwise each vertex walks the stream's
 *    SO_DECLs: a declaration appends the masked components of its register
 *    (32 bits each, x to w) to its buffer, a hole skips as many dwords as its
 *    mask has bits; then every selected buffer's write offset grows by its
 *    pitch. Bytes go into memory through the address space of the
 *    3DSTATE_SO_BUFFER packet.
 *  - Rendering (L13714, L13816-13820): Render_Enable = Force_On, or not
 *    Force_Off and not API Rendering Disable and not (GS enabled with Output
 *    Vertex Size 0). When enabled, primitives of the Render Stream Select
 *    stream (any stream while SO Function Enable is clear) go on to "clip",
 *    PATCHLIST_n never; the others stop here and their URB references are
 *    dereferenced (units/common/primitive.h owner_handle).
 *  - Registers (units/common/mmio.h; all generations): in-band CS_MMIO_WRITE of
 *    SO_NUM_PRIMS_WRITTENn (0x5200 + 8n), SO_PRIM_STORAGE_NEEDEDn (0x5240 +
 *    8n; each dword its own write) and SO_WRITE_OFFSETn (0x5280 + 4n) set
 *    them (and stop here; other writes go on); a CS_MMIO_SYNC waits until
 *    the SO writes before it are done (their L3 replies) and the owed offset
 *    stores are made, gets those twelve fields of its struct
 *    pipeline_registers, and goes on to "clip", or back to the CS on
 *    "drained" when that is linked.
 *  - Timing: vertex data is read from the URB (URB_OP_READ of the stream's
 *    read rows for each vertex a streamed object uses; the primitive waits
 *    for the data); SO buffer and offset writes go to the L3 as 64-byte line
 *    write requests (MEMREQ_WRITE, one per line a vertex's components touch,
 *    physical addresses through the buffer's address space), replies counted
 *    only for syncs. One input message per cycle (ff_stage).
 *
 * Ports: "gs" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO), "clip" out (the same;
 * optional: without it nothing is forwarded and every primitive's
 * references are dropped here), "urb" out / "urb_reply" in (MSG_URB to the
 * URB unit's client[i] / client_reply[i]; optional together: without them
 * vertex data reads as zeros, counted in urb_unlinked, and references are
 * not dropped), "l3" out / "l3_reply" in (MSG_MEMORY_REQUEST / RESPONSE;
 * optional together: without them writes are untimed; the Gen8/Gen9 machines
 * link them to slice 0's L3), "drained" out
 * (optional, MSG_MMIO: syncs return to the CS here).
 *
 * Stats: the ff_stage counters (ff.*), primitives, forwarded,
 * stopped.render_disabled, stopped.other_stream, stopped.patch_list, objects,
 * objects_written, overflows, vertices_written, bytes_written,
 * so_num_prims_written.<n>, so_prim_storage_needed.<n>, so_write_offset.<n>
 * (the registers), urb_reads, urb_dereferences, l3_writes, offset_loads,
 * offset_stores, syncs, register_writes, and bad programming: bad_messages,
 * unsupported_topology, unsupported_generation, decl_not_selected,
 * register_beyond_read, components_beyond_buffer, read_length_clamped,
 * decl_list_short, faults, urb_unlinked, bad_so_buffer
 * (Gen7: pitch not a multiple of 4 or beyond 2048, or end below base).
 *
 * Not modelled: generations before Gen7 (their SO packets are counted in
 * unsupported_generation), Gen7's MOCS, the
 * depth/stencil/PS terms of Render_Enable (taken as true: 3DSTATE_INT is
 * "transparent to SW"), the double-buffered MMIO quirk of L13689, the
 * Object Staging Buffer's own timing, LINESTRIP_ADJ_CONT / POLYGON_CONT
 * (made only on restoring a preempted draw), the surface formats of
 * L13802-13814 (SO writes are 32-bit components as the SO_DECLs give them).
 */
#ifndef GTSIM_UNITS_SOL_H
#define GTSIM_UNITS_SOL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops sol_ops;

/* Indices one primitive packet can stream: 30 triangles of a 32-vertex strip. */
#define SOL_MAX_OBJECT_INDICES 96u

/* The objects SOL streams out of a topology of n vertices, in order (seed 003
 * L13746-13780): writes each object's vertex indices (into the packet's
 * handles) to out, *per_object of them per object, and returns the number of
 * objects; trailing selects Reorder Mode TRAILING (else LEADING). Returns 0
 * with *per_object 0 for a topology SOL does not take (LINELOOP, QUADLIST,
 * QUADSTRIP, unknown values). n beyond 32 is read as 32. */
uint32_t sol_objects(uint32_t topology, uint32_t n, bool trailing,
                     uint32_t out[SOL_MAX_OBJECT_INDICES], uint32_t *per_object);

#endif
