/* units/ds/ds.h - the Domain Shader stage (DS) of Gen7-Gen9: the domain
 * points the tessellator (TE) made, shaded by SIMD8 or SIMD4x2 DS threads
 * into new vertex URB entries, and the primitives that connect them out to
 * the GS.
 *
 * Models (seed 003 L12787-13030, layouts seed 004 / Mesa's genxml gen9.xml
 * 3DSTATE_DS; the input contract is units/common/tessellation.h):
 *  - State: 3DSTATE_DS (Enable, Dispatch Mode, Compute W Coordinate Enable,
 *    Patch URB Entry Read Offset/Length, Dispatch GRF Start Register For
 *    URB Data, Maximum Number of Threads + 1, kernel, scratch, FP mode,
 *    exceptions, Statistics Enable), 3DSTATE_CONSTANT_DS,
 *    3DSTATE_BINDING_TABLE_POINTERS_DS, 3DSTATE_SAMPLER_STATE_POINTERS_DS,
 *    STATE_BASE_ADDRESS, 3DSTATE_URB_DS (its entry count: a batch holds
 *    all its entries until its primitives leave, so a batch of more points
 *    than the allocation has entries could never be shaded: counted and
 *    dropped, never waited for); all passed on downstream.
 *  - Per MSG_DOMAIN batch, in order: one output URB entry per domain point
 *    (URB_OP_ALLOC, URB_CLIENT_DS), the patch data the threads get pushed
 *    (URB_OP_READ of Patch URB Entry Read Length 256-bit rows from Read
 *    Offset, as Mesa's kernels read them: skl_tess's DS reads g5-g7 with
 *    Read Length 3 and GRF start 5), then SIMD8 threads of up to 8 points
 *    with the SIMD8 payload (L12890-12990): R0.0 Patch URB Offset, R0.1
 *    PrimitiveID, R0.2 zeros; R1 U, R2 V, R3 W per channel (W = 1 - U - V
 *    when Compute W Coordinate Enable is set, else 0.0); R4 the points' URB
 *    Return Handles; then the push constants; the patch data at Dispatch GRF
 *    Start Register For URB Data (or after the constants when that overlaps
 *    them, counted). Dispatch mask: one bit per point.
 *  - SIMD4x2 (Dispatch Mode 0; Gen7's only mode: its 3DSTATE_DS has no
 *    Dispatch Mode field, genxml gen7.xml; seed 003 L12809-12888): threads
 *    of two points, R0.0 / R0.1 URB Return Handle 0 / 1, R0.2 zeros, R1.0-2
 *    U, V, W of point 0, R1.3 Patch URB Handle, R1.4-6 U, V, W of point 1,
 *    R1.7 PrimitiveID, then the constants and the patch data (not
 *    interleaved) placed as above; dispatch mask 0x0f (one point) or 0xff.
 *  - When the batch's threads have ended: its primitives go to "gs" as
 *    MSG_PRIMITIVE (POINTLIST, LINELIST or TRILIST by the output topology,
 *    in the batch's order), each holding one reference per vertex handle:
 *    the allocation's reference serves the first use of a point, one
 *    URB_OP_REFERENCE per further use is sent before the primitives, a point
 *    no primitive uses is dereferenced; the patch entry is dereferenced once
 *    (TE took one reference per batch).
 *  - DS_INVOCATIONS (DS_INVOCATION_COUNT 0x2308): "the number of incoming
 *    domain points, irrespective of cache hit/miss", with Statistics Enable;
 *    in-band CS_MMIO_SYNC / CS_MMIO_WRITE as units/common/mmio.h says; INSTPM
 *    to the push constants.
 *  - DS disabled: primitives pass through; a batch reaching a disabled DS is
 *    counted and its patch reference dropped.
 * One batch is handled at a time (it stays at the head of the input until
 * its primitives left), so state and register traffic keep their order.
 *
 * Ports: "te" in (MSG_STATE, MSG_DOMAIN, MSG_PRIMITIVE, MSG_MMIO), "gs" out,
 *        "td"[open] out, "eot" in (the URB's "eot_ds"), "urb" out /
 *        "urb_reply" in; all but "gs" must be linked (a realize error otherwise).
 * Stats: ff.*, threads.*, batches, points, primitives, ds_invocations,
 *        culled_batches, bad_batches, disabled_batches, refused_allocations,
 *        unexpected_urb_replies, bad_state, simd4x2_threads,
 *        grf_start_overlaps, batch_beyond_allocation, bad_mmio, urb_wait_cycles.
 *
 * Not modelled: the DS vertex cache (the seed's cache tagged by U,V within a
 * patch: TE's batches name each point once, so every point is shaded), the
 * DUAL_PATCH kernel of SIMD8_SINGLE_OR_DUAL_PATCH (the hardware's choice of
 * kernel is an implementation note; SINGLE_PATCH threads are used), user
 * clip distance tests (CLIP's), overlap of consecutive batches' threads,
 * the URB slices' scaling of the entry count (the one-slice number is the
 * bound used). The URB_OP_REFERENCEs leave on "urb" before the primitives
 * leave on "gs"; that they reach the URB before a later stage's
 * dereference relies on the links' latencies, not on a handshake.
 */
#ifndef GTSIM_UNITS_DS_H
#define GTSIM_UNITS_DS_H

#include "fabric/unit.h"

extern const struct unit_ops ds_ops;

#endif
