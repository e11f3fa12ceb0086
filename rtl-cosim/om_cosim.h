/* rtl-cosim/om_cosim.h - the pixel back end's datapath RTL (rtl/om_pixel.sv)
 * in the fabric, picked by `impl` on a unit of kind "om" (units/om/om.h):
 *
 *   om:rtl        the C unit runs inside the adapter (fabric/unit.h
 *                 unit_create_inner: its ports, params, messages, memory
 *                 accesses, timing) with its datapath (units/om/om_color.h
 *                 struct om_datapath, om_set_datapath) answered by the
 *                 Verilated block: the colour calculator's float part
 *                 (pre-blend clamp, blend factors and functions, constant
 *                 colour, post-blend clamp), its bit part (logic ops, write
 *                 disables) and the late depth/stencil test.
 *   om:lockstep   the C block computes every pixel and the RTL the same
 *                 request beside it; the answers are compared field by field
 *                 (colour channels bit for bit, every NaN equal to every NaN:
 *                 the C block's NaN payloads follow the compiler's operand
 *                 order; the unknown-encoding flag; the bit word; the depth
 *                 test's flags, depth and stencil). A mismatch line names the
 *                 unit, the datapath port (colour, bits, depth), the request
 *                 number, the fabric cycle, the RTL clock, the field, both
 *                 values and the request.
 *   om:rtl_broken, om:lockstep_broken
 *                 the same with `define BROKEN (DECRSAT wraps 0 to 0xff).
 *
 * The datapath is not on the unit's ports (the block sits inside om), so the
 * comparison is per request, not per port message; the unit's ports, timing
 * and stats are the C unit's in every mode. An RTL that does not answer in
 * its two clocks is reported (`no_answer`, the C block's answer is used).
 * Params and ports: om's own tables (om_ops, whatever they hold; joined by the
 * lookup, cosim_kinds.h), LOCKSTEP_PARAMS and record_datapath; wave_from, wave_to and wave_after count RTL clocks
 * (two a request), and so does the first mismatch's "cycle".
 * Stats: every om stat (the C unit's table), then rtl.color_ops, rtl.bits_ops,
 * rtl.depth_ops, rtl.clocks, compared, mismatches, no_answer.
 * Images: the surfaces are the inner om's (om_cosim_c_unit); `gtsim run
 * --images` writes none for an adapter.
 */
#ifndef GTSIM_RTL_COSIM_OM_COSIM_H
#define GTSIM_RTL_COSIM_OM_COSIM_H

#include "fabric/unit.h"
#include "rtl-cosim/lockstep.h"

extern const struct lockstep_desc om_cosim_desc;
extern const struct unit_ops om_rtl_ops;
extern const struct unit_ops om_lockstep_ops;
extern const struct unit_ops om_rtl_broken_ops;
extern const struct unit_ops om_lockstep_broken_ops;

/* The om unit running inside an om adapter (for om_written_surfaces); NULL
 * when u is not one. */
struct unit *om_cosim_c_unit(struct unit *u);

#endif
