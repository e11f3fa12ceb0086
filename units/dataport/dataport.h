/* units/dataport/dataport.h - a subslice's data port (HDC): the data cache
 * data ports DC0 and DC1 and the read-only/constant cache port, Gen7/8/9.
 *
 * Models (seed 003 L4828-7583; notes/003-skl-sharedfn-eu.md §4; descriptor
 * layouts where the seed has names only from Mesa, marked [EXT] there, read through
 * the generated accessors of build/gen/msg_desc.h, spec/eu/descriptors.txt; the
 * files of each concern are listed in dataport_internal.h):
 *  - SFIDs: 10 = DC0, 12 = DC1 (Gen8/9), 9 = read-only data/constant cache;
 *    Gen7 puts the untyped messages on DC0 (types 5, 6, 13);
 *  - address models (L4862-5014): binding table + RENDER_SURFACE_STATE (BTI <
 *    240; the entry at Surface State Base + binding table pointer + 4 x BTI,
 *    the state at Surface State Base + entry; SURFTYPE_BUFFER/STRBUF bounds =
 *    (Depth:Height:Width) + 1 bytes, L5085; SURFTYPE_NULL and out-of-bounds:
 *    reads return 0, writes are dropped), A32 stateless (BTI 253/255: General
 *    State Base + offset, bounded by the General State Buffer Size when set),
 *    A64 stateless (the A64 messages; not bound-checked, L4960), SLM (BTI
 *    254: the group's allocation in this subslice's `slm_kib` array; addresses
 *    wrap at the array's size, L4980);
 *  - messages: untyped surface read/write (SIMD8/16, 1-4 channels, L5583ff),
 *    A64 untyped surface read/write, A64 byte scattered read/write, byte and
 *    dword scattered read/write, OWord block read/write (1-8 OWords, header
 *    offset in OWords), untyped atomics and A64 untyped atomics (the 32-bit
 *    ops of L18634-18680: AND OR XOR MOV INC DEC ADD SUB RSUB IMAX IMIN UMAX
 *    UMIN CMPWR PREDEC), typed surface read/write (Gen8/9, 8 slots by slot
 *    group, 1D/2D/3D linear and BUFFER surfaces, the formats R32/R32G32/
 *    R32G32B32A32 FLOAT/SINT/UINT, R8G8B8A8 and R8 UNORM/UINT with the
 *    conversions of L5193-5203; out of bounds: 0, missing alpha 1, writes
 *    dropped), scratch block read/write (DC0 desc[18]: General State Base +
 *    the header's M0.5[31:10] + desc[11:0] HWords), memory fence (replies
 *    when the lines before it are done), the
 *    constant cache path (the read messages on SFID 9, the read-only data
 *    port, notes §4.1: OWord block, DWord and byte scattered reads): with an
 *    L3 linked they go through a direct-mapped constant cache of `cc_lines`
 *    64-byte lines; a message whose lines all hit replies after `cc_latency`
 *    without L3 traffic, missing lines go to the L3 as read-only data
 *    (MEMREQ_RO_DATA, units/l3/l3.h) and fill the cache when answered.
 *    The data itself always comes from memory when the message is taken,
 *    so the cache is timing only (no stale data); stats cc_hits, cc_misses;
 *  - timing: the functional access happens when the message is taken; the
 *    write-back goes to the EU when every 64-byte line the message touched
 *    has been answered by the slice's L3 (one MSG_MEMORY_REQUEST per line,
 *    units/common/memreq.h; SLM lines with target SLM), or after `latency` cycles
 *    when no L3 is linked or the data port is `functional` (fast mode: no line
 *    goes to the L3, nothing is timed); at most `max_outstanding` messages in
 *    flight. Atomics on memory are the exception to "when taken": their
 *    read-modify-write happens at the end of the cycle, the data ports of the
 *    machine in unit order (the fabric's edge commit), so the old values two
 *    same-cycle atomics on one address return do not depend on the host
 *    threads; which subslice's atomic the hardware's L3 applies first is not in
 *    the seed (model choice). SLM atomics happen when taken. A `functional`
 *    data port also takes calls (fabric/port.h port_call) from fast EUs: the
 *    message executes in the caller's edge commit, its atomics at once, and
 *    the reply is due after the link's latency, `latency` and the write-back
 *    link's latency, with no `messages_per_cycle` limit or queueing (host
 *    speed, not hardware). Translations and binding-table resolutions are kept
 *    across messages while the memory's metadata epoch holds
 *    (fabric/memory.h): host time only, no result depends on them.
 * Bad programming (counted, logged once per kind, never a crash or hang): a
 * BTI beyond the interface descriptor's binding table entry count, or whose
 * entry or surface state cannot be read, is a null surface
 * (bti_beyond_table, state_faults); out-of-bounds accesses (out_of_bounds);
 * SLM accesses beyond the group's allocation (slm_out_of_bounds; they wrap
 * in the subslice's array as the seed says); faulting memory (page_faults:
 * reads give 0, writes are dropped); unknown SFIDs or message types
 * (unsupported: replied with zeros so the thread goes on).
 * Ports: "eu"[open] in (MSG_SEND from each EU; MSG_GENERIC is counted and
 *        dropped), "writeback"[open] out (to the EU of the same index), "l3"
 *        out and "l3_reply" in (optional), or "memory" and "memory_reply" on
 *        machines without an L3 (Gen4).
 * Not modelled: other typed formats, tiled surfaces, typed atomics and
 * media block messages (replied with zeros, counted as unsupported), DC2
 * scaled messages, atomic counters, float atomics, the render cache,
 * coherency types and the cache-control bits, per-message ordering beyond
 * issue order of the line requests, constant cache invalidation (PIPE_CONTROL
 * Constant Cache Invalidation Enable has no path to the data ports: the cache
 * only ever changes timing), the sampler cache path.
 */
#ifndef GTSIM_UNITS_DATAPORT_H
#define GTSIM_UNITS_DATAPORT_H

#include "fabric/unit.h"

extern const struct unit_ops dataport_ops;

#endif
