/* units/hs/hs.h - the Hull Shader stage (HS) of Gen7-Gen9: patch objects in,
 * HS threads dispatched per patch (or per group of patches), patch URB
 * entries (patch records) out to the tessellator (TE).
 *
 * Models (seed 003 L12309-12716, layouts seed 004 / Mesa's genxml gen9.xml
 * 3DSTATE_HS):
 *  - State: 3DSTATE_HS (Enable, Instance Count + 1 threads per patch,
 *    Maximum Number of Threads + 1, Dispatch Mode, Include Vertex Handles,
 *    Include Primitive ID, kernel, scratch, FP mode, exceptions, statistics),
 *    3DSTATE_CONSTANT_HS (push constants, units/common/stage_thread.h),
 *    3DSTATE_BINDING_TABLE_POINTERS_HS, 3DSTATE_SAMPLER_STATE_POINTERS_HS,
 *    STATE_BASE_ADDRESS. Everything state is passed on downstream.
 *  - Patch object staging: each PATCHLIST_n primitive (n input control
 *    points, ICPs) gets one patch URB entry from the HS allocation
 *    (URB_OP_ALLOC, URB_CLIENT_HS); "all thread instances for an input
 *    patch are passed the same patch record handle".
 *  - Dispatch modes (Dispatch Mode field: 0 SINGLE_PATCH, 1 DUAL_PATCH,
 *    2 8_PATCH) with the payloads of L12450-12660 and the dispatch masks
 *    of "HS Thread Dispatch Mask":
 *      SINGLE_PATCH: one patch per thread, dmask 0xff; R0.0 patch handle,
 *        R0.1 Primitive ID, R0.2[23:17] Instance Number ([22:16] on
 *        Gen7: Mesa's vec4 TCS reads it there on IVB/BYT; Gen7 has no
 *        Dispatch Mode field, so SINGLE_PATCH); with Include
 *        Vertex Handles R1.. hold ICP handles 0-7, 8-15, ... (one register
 *        per 8 ICPs; the seed's "R2 ... when ICP Count > 7" is read as
 *        "more than 8", since R1 holds eight);
 *      DUAL_PATCH: two patches (0x0f for one, 0xff for two); R0.0/R0.1 the
 *        patch handles, R0.2 instance; Include Primitive ID adds R1 (R1.0,
 *        R1.4); Include Vertex Handles a register with ICPs 0-3 of each
 *        patch (DW3:0, DW7:4) - patches of more than 4 ICPs are counted
 *        (dual_patch_icp_overflow) and only their first 4 handles passed;
 *      8_PATCH: up to eight patches, dmask (1 << patches) - 1; R1.p patch
 *        handles, R2.p Primitive IDs (Include Primitive ID), then one
 *        register per ICP k with patch p's handle in DWp (Include Vertex
 *        Handles).
 *    Push constants follow the fixed payload. Instance Count + 1 threads per
 *    dispatch (R0.2 Instance Number 0..count-1). A group is dispatched when
 *    it is full, when something other than a patch reaches the HS, or when
 *    no input waits.
 *  - When every thread of a group has ended (the URB's "eot_hs" notice),
 *    each patch goes to TE in order as MSG_PRIMITIVE (topology PATCHLIST_n,
 *    owner_handle = handles[0] = the patch entry, holding the one reference
 *    the allocation made) and the HS dereferences the input vertices.
 *  - HS_INVOCATIONS (HS_INVOCATION_COUNT 0x2300, 64 bits): "the number of
 *    patches processed by the HS stage", counted when Statistics Enable is
 *    set; written into the in-band CS_MMIO_SYNC (PIPE_REG_HS_INVOCATIONS),
 *    set by CS_MMIO_WRITEs of 0x2300/0x2304; INSTPM goes to the push
 *    constants (units/common/mmio.h, stage_thread.h).
 *  - HS disabled: every primitive passes through unchanged.
 * Ordering: state, register traffic and non-patch primitives wait until
 * every patch ahead of them has left for TE.
 *
 * Ports: "vs" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO, anything else is
 *        passed on in order), "te" out, "td"[open] out (MSG_THREAD_DISPATCH),
 *        "eot" in (the URB's "eot_hs"), "urb" out / "urb_reply" in (MSG_URB); "td",
 *        "eot" and "urb"/"urb_reply" must be linked (a realize error otherwise).
 * Stats: ff.* (FF_STAGE_STATS), threads.* (STAGE_THREADS_STATS), patches,
 *        dispatches (thread groups), hs_invocations, bad_patches,
 *        refused_allocations, non_patch_primitives, unexpected_urb_replies,
 *        bad_state, unsupported_pushed_icps, dual_patch_icp_overflow,
 *        bad_mmio, alloc_wait_cycles.
 *
 * Not modelled: pushed ICP vertex data (Vertex URB Entry Read Length > 0:
 * counted, the threads get the handles only), barrier indices (R0.2[16:13]
 * is 0; HS barriers between instances are the gateway's), the "Dereference
 * Thread" bit R0.6[31], the TE's cull test on the patch header, HPCXT
 * limits, the timing of patch staging beyond one patch per cycle.
 */
#ifndef GTSIM_UNITS_HS_H
#define GTSIM_UNITS_HS_H

#include "fabric/unit.h"

extern const struct unit_ops hs_ops;

#endif
