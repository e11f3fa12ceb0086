/* units/urb/urb.h - the Unified Return Buffer of Gen8/Gen9: the stages' URB
 * allocations, entry handles and their reference counts, the URB's bytes, and
 * the URB shared function (SFID 6) the EU threads read and write it through.
 *
 * Models:
 *  - State (seed 003 L11323-11368; layouts seed 004 L6333-6356 and L4615-4632):
 *    3DSTATE_URB_VS/HS/DS/GS give each geometry stage its allocation: URB
 *    Starting Address in 8 KB units, Entry Allocation Size in 64-byte units
 *    minus one, Number of URB Entries. With `slices` > 1 the numbers are those
 *    of one slice and are scaled as L11345 says: entries x slices, start
 *    (start - 32 KB) x slices + 32 KB, entry size unchanged.
 *    3DSTATE_PUSH_CONSTANT_ALLOC_VS/HS/DS/GS/PS give each stage's push-constant
 *    buffer (offset and size in 2 KB units, seed 004 L4620-4632; not scaled).
 *    The allocation rules of L11327, L11329 and L11367 are checked when a stage
 *    first allocates after a change (a stage's state alone may overlap the old
 *    state of another while software reprograms them one by one): allocations
 *    overlapping each other or a push-constant buffer, allocations beyond the
 *    URB, "if the URBEntryAllocatedSize is less than or equal to 8 64B units,
 *    this number shall be 0 or a multiple of 8", push-constant buffers beyond
 *    the first 32 KB (L11329). Each is counted and logged once; the state is
 *    applied as programmed.
 *  - Allocation (MSG_URB, units/common/urb.h): URB_OP_ALLOC of `count`
 *    entries from a stage's allocation -> URB_OP_ALLOCATED with their handles
 *    (64-byte units, L8459; free entries are handed out oldest-freed first).
 *    A new entry has one reference; URB_OP_REFERENCE adds one per handle,
 *    URB_OP_DEREFERENCE takes one and the last frees the entry (the hardware's
 *    protocol is a gap in the seed, notes/003-skl-pipeline.md §4.2). When the
 *    allocation has too few free entries the request waits (back-pressure):
 *    each client's requests are served in order as entries free, the cycles a
 *    client waits are counted. A request the allocation can never satisfy
 *    (more entries than it has, or no allocation) is answered at once with no
 *    handles and counted, so the URB never deadlocks by itself.
 *    Reprogramming a stage's allocation while its entries are in use is
 *    counted; the allocation is rebuilt (the old handles become unknown).
 *  - Data: the URB's bytes live once here (size_kib x slices KiB). Stages read
 *    and write rows with URB_OP_READ / URB_OP_WRITE (replies URB_OP_DATA /
 *    URB_OP_WRITE_DONE); EU threads with MSG_SEND on SFID 6 (L8455-9015),
 *    decoded with build/gen/msg_desc.h: URB_WRITE/READ_HWORD and _OWORD, with
 *    NOSWIZZLE or INTERLEAVED (two handles, DW3:0 and DW7:4), per-slot offsets
 *    (M0.3/M0.4), the header's channel masks (M0.5[15:8]) ANDed with the
 *    execution mask, High OWORD Enable (M0.5[16]); URB SIMD8_WRITE/READ with a
 *    handle per channel (M0.n), the optional per-slot offset phase and channel
 *    mask phase (M2.n[23:16]); URB_ATOMIC_MOV/INC/ADD on one dword (MOV stores
 *    src0, notes/003-skl-pipeline.md item 21). Reads outside the URB return 0,
 *    writes outside it are dropped (L8465), counted. EOT on a write is an
 *    ordinary write (the EU ends the thread); on a read or atomic it is counted
 *    as bad programming (L8461).
 *  - Timing: every access goes to the L3 as one MEMREQ_URB request per 64-byte
 *    line it touches (port "l3"; the URB is a partition of the L3's data
 *    arrays, L8459, L18499); the reply leaves when the last line is answered.
 *    Without an L3 linked the reply leaves `latency` cycles after the message.
 *    The Gen8/Gen9 machines link "l3" to slice 0's L3 (configs/: the bytes
 *    are one store here, so with several slices all URB traffic times on
 *    slice 0's URB partition; how the hardware spreads the URB over the
 *    slices' L3s, L11345, is not modelled).
 *    Replies go through fabric/reply_queue (a refused one holds only later
 *    replies to the same port). Allocation replies leave at once.
 *
 * Ports: "state" in (MSG_STATE: the 3DSTATE_URB_* and PUSH_CONSTANT_ALLOC_*;
 *        other packets are counted and freed, nothing is forwarded),
 *        "client"[open] in and "client_reply"[open] out (MSG_URB, a stage and
 *        its replies on the same index), "eu"[open] in (MSG_SEND, SFID 6) and
 *        "writeback"[open] out (MSG_WRITEBACK to the EU of the same index),
 *        "eot_vs", "eot_hs", "eot_ds", "eot_gs" out (MSG_THREAD_DISPATCH: an
 *        EU_TD_THREAD_END to the stage of the thread's FFID, units/common/
 *        thread_msg.h enum ff_id, when its EOT write reached its GO point;
 *        request_id is the thread's ctx.group), "l3" out (MSG_MEMORY_REQUEST) and "l3_reply"
 *        in (MSG_MEMORY_RESPONSE), all optional.
 * Stats: alloc_requests, allocations, frees, references, dereferences,
 *        refused_allocations, bad_handles, reprogrammed_in_use,
 *        entries_in_use_peak.<client>, stall_cycles.<client> (added when a
 *        wait ends), ff_reads, ff_writes, send.<form>, out_of_bounds,
 *        bad_messages, unsupported, eot_not_on_write, killed_thread_ends, eot_notified,
 *        eot_unrouted, lines, l3_stalls,
 *        reply_stalls, state.urb, state.push_constant_alloc, state.ignored,
 *        check.overlaps, check.beyond_urb, check.entry_count_rule,
 *        check.push_constant_beyond_32kb, check.start_below_32kb.
 *
 * Gen7: its descriptor layout (opcode 2:0, Global Offset 13:3, Swizzle 14,
 * Complete 15, Per-Slot Offset 16; HWORD/OWORD/ATOMIC_MOV/INC forms) and its
 * push-constant units of 1 KB (Gen8/Gen9: 2 KB).
 *
 * Not modelled: Gen4's fences (their SENDs are counted as unsupported); the
 * Gen7 Complete bit (entries are complete when the EOT write lands); 3DSTATE_URB_CLEAR, MI_URB_ATOMIC_ALLOC and the
 * MI_*_URB_MEM commands; the minimum and maximum entry counts per dispatch
 * mode (a gap, Vol 2); the HS tessellation-factor cull test of M0.5[7:0];
 * "not written to GRF" dwords of a read (disabled channels come back as 0 and
 * the EU writes whole registers); the order between the "state" port and the
 * stages' requests (a stage is expected to send its ALLOC after the state that
 * governs it has arrived); the CLIP/SF/CS/VFE clients have no allocation state
 * here yet (their ALLOCs are refused and counted).
 */
#ifndef GTSIM_UNITS_URB_H
#define GTSIM_UNITS_URB_H

#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops urb_ops;

/* Backdoor for tests and harnesses only (no timing, no stats): copies bytes
 * out of / into the URB's store from byte `offset`. Returns the bytes copied
 * (fewer when the range runs past the URB's end). */
uint32_t urb_backdoor_read(struct unit *u, uint32_t offset, void *out, uint32_t bytes);
uint32_t urb_backdoor_write(struct unit *u, uint32_t offset, const void *in, uint32_t bytes);

#endif
