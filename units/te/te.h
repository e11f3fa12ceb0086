/* units/te/te.h - the Tessellation Engine (TE) of Gen8/Gen9: a fixed-function
 * stage between HS and DS that reads each patch's tessellation factors from
 * its URB entry and hands DS the domain points and primitives.
 *
 * Models (seed 003 TE L12717-12786; HS patch record L12391-12438):
 *  - State: 3DSTATE_TE (TE Enable, TE Mode, TE Domain, Output Topology,
 *    Partitioning, Maximum Tessellation Factor Odd / Not Odd; layout seed 004
 *    and Mesa's genxml gen9.xml), 3DSTATE_HS and 3DSTATE_DS (their Enable
 *    only: "the HS, TE, and DS stages must be enabled and disabled together",
 *    L12725; a patch met with them disagreeing is counted). All three are
 *    taken and forwarded.
 *  - Disabled: primitives (patch lists included) pass through unchanged
 *    (L12725).
 *  - Enabled: each MSG_PRIMITIVE from HS is a patch: its patch URB entry is
 *    owner_handle (or handles[0] when owner_handle is URB_HANDLE_NONE; the
 *    other handles' references are then dropped with URB_OP_DEREFERENCE).
 *    TE reads the entry's first row, the Patch Header (L12397-12438: QUAD
 *    DW7 UEQ0, DW6 VEQ0, DW5 UEQ1, DW4 VEQ1, DW3 InsideU, DW2 InsideV; TRI
 *    DW7 UEQ0, DW6 VEQ0, DW5 WEQ0, DW4 Inside; ISOLINE DW7 Line Detail, DW6
 *    Line Density; FLOAT32), with URB_OP_READ (the TE is a URB read client,
 *    L18420), tessellates with units/te/tessellator (culling, factor limits,
 *    partitioning, domains: L12735-12786) and sends the result to DS as
 *    MSG_DOMAIN batches (units/common/tessellation.h): whole primitives in
 *    output order, each batch self-contained, its points in the
 *    tessellator's order (a patch that fits one batch travels as the
 *    tessellator's lists verbatim), FIRST on the first, LAST on the last. A
 *    culled patch (an outside factor <= 0 or NaN, L12737) is one batch with
 *    CULLED and no points, so that DS drops the patch's reference. The
 *    primitive's reference on the patch entry goes with the first batch;
 *    TE takes one more (URB_OP_REFERENCE) for each further batch, sent
 *    before the batches.
 *  - Order: ff_stage (units/common/ff_stage.h): state, in-band register
 *    traffic (CS_MMIO_SYNC / CS_MMIO_WRITE, units/common/mmio.h; TE owns no
 *    register) and patches leave in the order they came; nothing passes a
 *    patch whose header read is outstanding, so a sync leaves only after the
 *    work ahead of it.
 *  - Timing: one URB read round trip per patch (through the URB unit and its
 *    L3 timing); batches leave as fast as the "ds" link takes them.
 *
 * Ports: "hs" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO), "ds" out (the same,
 *        and MSG_DOMAIN), "urb" out / "urb_reply" in (MSG_URB; to the URB
 *        unit's client[i] / client_reply[i]; required: TE cannot read a patch
 *        without them).
 * Stats: patches, culled_patches, domain_points, output_primitives, batches,
 *        bad_factors (NaN, infinite or above the maximum, clamped),
 *        passed_through (primitives with TE disabled), bad_state (unknown
 *        domain, partitioning, topology or mode; a topology the domain does
 *        not output; a maximum factor out of range), enable_mismatch,
 *        not_patch_list (an enabled TE given another topology: UNDEFINED,
 *        L12725; tessellated as a patch all the same), bad_primitives
 *        (malformed, dropped), bad_replies, urb_reads, urb_wait_cycles
 *        (cycles from a header read to its data), references, dereferences,
 *        and the skeleton's ff.* counters.
 *
 * Not modelled: the TE's own generation rate and buffering (the seed gives
 * none); the URB's HS cull-test assist (L8510); "TE Mode" other than HW_TESS
 * (counted as bad_state, tessellated as HW_TESS); POW2 partitioning. The
 * URB applies a REFERENCE on arrival, which is before DS can dereference a
 * batch (DS runs a thread first); nothing stronger orders the two.
 */
#ifndef GTSIM_UNITS_TE_TE_H
#define GTSIM_UNITS_TE_TE_H

#include "fabric/unit.h"

extern const struct unit_ops te_ops;

#endif
