/* rtl-cosim/fpu_cosim.h - the FPU pipe's RTL (rtl/fpu_pipe.sv) in the fabric,
 * picked by `impl` on a unit of kind "fpu" (units/fpu/fpu.h):
 *
 *   fpu:rtl        the Verilated pipe alone drives the ports.
 *   fpu:lockstep   the C unit (a unit of kind "fpu" inside the adapter,
 *                  rtl-cosim/lockstep.h) drives the ports; through port
 *                  observers the RTL gets the same request on the same
 *                  cycle and the same output handshake, and on every cycle
 *                  the two outputs must agree: both silent, or both answering
 *                  with the same tag, per-lane results, flags and status
 *                  (values exact, cycles exact). A mismatch line names the
 *                  lane (a 64-bit lane for DF), the field, both values, the
 *                  operation and the lane's operands and modes.
 *   fpu:rtl_broken, fpu:lockstep_broken
 *                  the same with `define BROKEN (RU ignores the sticky bit).
 *
 * Params: depth (as the C unit's; 1..16 here: the RTL's MAXD), wave (FST
 * file), wave_from, wave_to, wave_after (lockstep: cycles dumped past the
 * first mismatch, 64), max_reports (20), stop_on_mismatch; cycle_tolerance
 * is taken and not used (every cycle is compared, exact).
 * Stats: requests, responses, compared, mismatches, unmatched, rtl_edges,
 * stall_cycles, bad_kind. Recording: port observers (fabric/recording.h) work
 * in every mode, the adapters do not use them.
 */
#ifndef GTSIM_RTL_COSIM_FPU_COSIM_H
#define GTSIM_RTL_COSIM_FPU_COSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"
#include "rtl-cosim/lockstep.h"

extern const struct lockstep_desc fpu_cosim_desc;
extern const struct unit_ops fpu_rtl_ops;
extern const struct unit_ops fpu_lockstep_ops;
extern const struct unit_ops fpu_rtl_broken_ops;
extern const struct unit_ops fpu_lockstep_broken_ops;

/* The comparison's queries (cosim_finish, cosim_errors, ...) are
 * rtl-cosim/lockstep.h's. */

#endif
