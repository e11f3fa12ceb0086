/* units/urb_fence/urb_fence.h - the Gen4 (965G) URB: one fixed buffer divided
 * by URB_FENCE into the regions of the VS, GS, CLIP, SF, VFE and CS, each
 * region's entries with reference counts and back-pressure, the URB's bytes,
 * and the URB shared function (SFID 6) the Gen4 threads write it through
 * (unit kind "urb_fence"; Gen7-Gen9 use units/urb).
 *
 * Models:
 *  - The URB: `rows` 512-bit rows (default 256 = 16 KB, reference/eu/
 *    devices.txt 0x29a2; seed 001 gives no size, notes/001-gen4.md §2). Rows
 *    are 256 bits to a thread (L299-302) and entries are sized in 512-bit
 *    units (L5933-5935); handles count 512-bit (64-byte) units from the URB's
 *    start, U9 in the payloads ("U9 opaque handle [Pre-DevILK]", Table 6-1).
 *  - URB_FENCE (layout: spec/data/gen4.xml, from the reference genxml; seed
 *    001 only names it, L667-668 "Virtual, movable boundaries between the URB
 *    regions owned by each FF unit"): VS, GS, CLIP, SF, VFE and CS Fence give
 *    each region's end in 512-bit rows; a region starts where the one before
 *    it ends. Only regions whose Reallocation Request bit is set take their
 *    new fence. A fence below the one before it, or past the URB, is counted
 *    (check.fence_order, check.fence_beyond_urb) and clamped. A VFE Fence of 0
 *    with the CS fence past the SF's is the 3D driver's "no VFE region" (Mesa
 *    leaves it 0: g965_tri.aubinator.txt URB_FENCE): the VFE region is empty
 *    and not counted.
 *  - Entries: each Gen4 stage reads its own unit state (VS_STATE, GS_STATE,
 *    CLIP_STATE, SF_STATE: Number of URB Entries, URB Entry Allocation Size,
 *    L5933-5996, L6820-6827, L9560-9567, L12820-12826) and tells this unit
 *    with URB_OP_CONFIGURE (units/common/urb.h); CS_URB_STATE gives the CS
 *    region's constant entries. Entries are laid from the region's start; the
 *    entries that do not fit inside the fence are counted
 *    (check.entries_beyond_fence) and dropped. A changed fence or
 *    configuration takes effect once the region's entries are all free (the
 *    reallocation waits for the old entries to drain; meanwhile allocations
 *    wait). The entries that do not fit are counted when the region's entries
 *    are next asked for (a stage's URB_OP_CONFIGURE may arrive after the
 *    fence it goes with and set the region right first).
 *  - Fences in command order (param stage_fences, set in configs/gen4-g965.cfg): a
 *    fence is pipelined and takes effect at each unit in command order (seed
 *    001 L667-668; a change of a unit's URB sizes needs a later URB_FENCE,
 *    notes §3.6). The VS, GS, CLIP and SF regions take the n-th URB_FENCE
 *    only once their stage sent its n-th URB_OP_FENCE (units/common/urb.h):
 *    the VF for the VS region (it allocates the VS entries), the GS, CLIP and
 *    SF when the URB_FENCE reaches them, after the allocations of the work
 *    before it; until then the region keeps its fence, so entries allocated
 *    under the old fence finish under it (fences_deferred,
 *    fence_stage_wait_cycles.<region>). Without stage_fences a region follows
 *    its stage's markers from the first one on (before, a fence takes effect
 *    when it arrives here). The VFE and CS regions take a fence when it
 *    arrives (the CS reached it: CS_URB_STATE and CONSTANT_BUFFER come the
 *    same way). Before this, g965_tri counted check.entries_beyond_fence = 4:
 *    its second fence (SF [50, 66)) reached this unit from VF while the
 *    clear's setup threads were still to come at SF under the first SF_STATE
 *    (8 x 4 rows); now SF's region moves after SF's second configuration (8 x
 *    2) and the clear, and nothing is dropped. Not modelled: a region whose
 *    new fence overlaps a neighbour still draining under its old one (the CS
 *    region's new start inside the SF region's old rows) does not wait for
 *    it.
 *    URB_OP_ALLOC waits while the region has too few free entries:
 *    that is the back-pressure at the fences (fence_waits counts requests
 *    that waited, stall_cycles.<region> the cycles); a request for more
 *    entries than the region has is answered with none (refused_allocations).
 *    URB_OP_REFERENCE / URB_OP_DEREFERENCE as in units/urb (the last
 *    dereference frees the entry).
 *  - Data: stages read and write rows with URB_OP_READ / URB_OP_WRITE. EU
 *    threads send URB_WRITE on SFID 6. The Gen4 descriptor is not in seed 001
 *    (its SEND chapter is absent, notes §0); its layout here is the public one
 *    Mesa's brw_structs.h gives (function control: opcode 3:0 (0 = WRITE),
 *    offset 9:4, swizzle 11:10 (0 none, 1 interleave, 2 transpose), allocate
 *    13, used 14, complete 15), checked against g965_tri's VS kernel
 *    (0x8650c400 = "urb_write interleave used complete mlen 5"). M0 is the
 *    header (R0's copy, L2324-2331): handle 0 in M0.0[8:0], handle 1 in
 *    M0.1[8:0]. Offset counts 256-bit rows of the entry (a modelling choice).
 *    NOSWIZZLE: data register k is row offset + k of handle 0. INTERLEAVE
 *    (the VS's two vertices): register k's DW3:0 go to 128-bit slot
 *    2 x offset + k of handle 0, DW7:4 to the same slot of handle 1, each
 *    half only when the SEND's execution mask enables its channels (3:0,
 *    7:4: a one-vertex thread's disabled half, seed 001 L6159-6177).
 *    TRANSPOSE (the SF thread's setup planes, seed 001 L14380-14420): every 3
 *    data registers (Cx, Cy, Co of 8 attributes) become 8 slots of 4 dwords,
 *    slot j = Cx[j], Cy[j], null (0), Co[j] ("Cx1Cy1nullCo1"), i.e. 4 rows.
 *    Allocate=1 (GS/CLIP, L2651-2670): one more entry of the thread's region
 *    (by FFID), returned in the write-back's DW0 (waits like an ALLOC).
 *    Complete=1 Used=0 dereferences the written entry (L2698-2707); Complete
 *    with Used=1 hands it on (the stage owns the reference): for GS and CLIP
 *    threads (L2636-2640, the FF unit snooping its threads' URB messages)
 *    the stage is told on eot_<stage> with an EU_TD_URB_OUTPUT notice (the
 *    handle, and M0.2 with PrimType 6:2, PrimStart 1, PrimEnd 0: Mesa's
 *    brw_eu_defines.h layout; the seed's URB chapter is absent), queued
 *    before the write's EOT notice. EOT (L2709-2718)
 *    tells the thread's stage on eot_<stage> (request_id = ctx.group) once the
 *    write is done.
 *  - CONSTANT_BUFFER (the CS "reads 'constant data' from memory buffers and
 *    places it in the URB", L737-741): when Valid, one CS-region entry is
 *    allocated, (Buffer Length + 1) x 64 bytes are copied into it from memory
 *    (the packet's address space) and it becomes the current constant entry
 *    (the previous one is dereferenced). Choice: the stages read their CURBE
 *    constants functionally from memory at the buffer's address (the same
 *    bytes); the copy's traffic and the CS region's occupancy are counted here
 *    (constant_buffers, constant_bytes, constant_faults).
 *  - Timing: Gen4 has no L3 (notes §0): every access answers `latency`
 *    cycles after it arrives; allocations at once, through fabric/reply_queue.
 *
 * Ports: "state" in (MSG_STATE: URB_FENCE, CS_URB_STATE, CONSTANT_BUFFER;
 *        others counted in state.ignored and freed), "client"[open] in and
 *        "client_reply"[open] out (MSG_URB), "eu"[open] in (MSG_SEND, SFID 6)
 *        and "writeback"[open] out (MSG_WRITEBACK to the EU of the same
 *        index), "eot_vs", "eot_gs", "eot_clip", "eot_sf" out
 *        (MSG_THREAD_DISPATCH EU_TD_THREAD_END), all optional.
 * Params: rows, latency, stage_fences.
 * Stats: fences, cs_urb_states, configures, alloc_requests, allocations,
 *        frees, references, dereferences, refused_allocations, bad_handles,
 *        fence_waits, stall_cycles.<region>, entries_in_use_peak.<region>,
 *        reallocations, ff_reads, ff_writes, send.write, send.allocate,
 *        send.complete_unused, send.eot, eot_notified, eot_unrouted,
 *        outputs_notified, fence_waits.<region>,
 *        out_of_bounds, bad_messages, unsupported, constant_buffers,
 *        constant_bytes, constant_faults, check.fence_order,
 *        check.fence_beyond_urb, check.entries_beyond_fence, state.ignored,
 *        reply_stalls, fence_markers, fences_deferred, check.fence_queue_full,
 *        fence_stage_wait_cycles.<region>.
 *
 * Not modelled: URB_READ and the other URB opcodes (counted unsupported), the retained-handle limits (L2675-2688),
 * the VFE's entries (the media pipe is not run on Gen4), the real timing of
 * the CS's constant copy and of the URB's ports (no figures in the seed).
 */
#ifndef GTSIM_UNITS_URB_FENCE_H
#define GTSIM_UNITS_URB_FENCE_H

#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops urb_fence_ops;

/* Backdoor for tests only (no timing, no stats): bytes from byte `offset`.
 * Returns the bytes copied (fewer past the URB's end). */
uint32_t urb_fence_backdoor_read(struct unit *u, uint32_t offset, void *out, uint32_t bytes);
uint32_t urb_fence_backdoor_write(struct unit *u, uint32_t offset, const void *in, uint32_t bytes);

#endif
