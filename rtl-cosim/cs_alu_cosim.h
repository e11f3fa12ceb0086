/* rtl-cosim/cs_alu_cosim.h - the cs_alu RTL in the fabric: adapter kinds with
 * the same ports as the C unit (units/cs_alu/cs_alu.h), picked by a config's
 * `impl = "..."` on a unit of kind "cs_alu":
 *
 *   cs_alu:rtl       the Verilated rtl/cs_alu.sv alone drives the ports.
 *   cs_alu:lockstep  the C unit (a unit of kind "cs_alu" inside the adapter,
 *                    rtl-cosim/lockstep.h) drives the ports; through port
 *                    observers the RTL sees every request on the same cycle and
 *                    its responses are compared message by message: every
 *                    field exactly, and the cycle the response was ready
 *                    exactly (tolerance 0 for the ALU). Mismatches accumulate
 *                    (ibex dv/cosim style) and are logged as errors.
 *   cs_alu:record    the C unit alone, like "cs_alu" (c), with recording.
 *   cs_alu:rtl_broken, cs_alu:lockstep_broken
 *                    the same with rtl/cs_alu.sv built with `define BROKEN
 *                    (one planted bug): the checker must catch it.
 *
 * Params (besides the C unit's cycles_per_instruction):
 *   record_request, record_response  file paths: record the port's traffic in
 *                    the format of rtl-cosim/recording.h (empty = off);
 *   wave             an FST file: dump the RTL (not in cs_alu:record);
 *   wave_from, wave_to  the window of cycles dumped (default: all);
 *   wave_after       lockstep: stop dumping this many cycles after the first
 *                    mismatch (default 64), so the file ends around it;
 *   max_reports      mismatch lines logged (the rest are counted);
 *   cycle_tolerance  lockstep: how many cycles early or late the RTL's response
 *                    may be ready (default 0: exact, as the ALU must be);
 *   rtl_cycles_per_instruction  the RTL's clocks per instruction when they
 *                    differ from the C model's (0, the default: the same);
 *   stop_on_mismatch lockstep: stop the simulation at the first mismatch.
 * Stats: requests, responses, instructions (the C unit's), rtl_edges,
 * compared, mismatches, unmatched, bad_kind; lockstep adds pending_compare.
 */
#ifndef GTSIM_RTL_COSIM_CS_ALU_COSIM_H
#define GTSIM_RTL_COSIM_CS_ALU_COSIM_H

#include <stdint.h>

#include "fabric/unit.h"
#include "rtl-cosim/lockstep.h"
#include "units/cs_alu/cs_alu.h"

extern const struct lockstep_desc cs_alu_cosim_desc;
extern const struct unit_ops cs_alu_rtl_ops;
extern const struct unit_ops cs_alu_lockstep_ops;
extern const struct unit_ops cs_alu_record_ops;
extern const struct unit_ops cs_alu_rtl_broken_ops;
extern const struct unit_ops cs_alu_lockstep_broken_ops;

/* The C unit's counters by instruction class (record, lockstep; zero in rtl
 * mode), read from its stat table. The comparison's queries (cosim_finish,
 * cosim_errors, ...) are rtl-cosim/lockstep.h's. */
void cs_alu_cosim_counters(struct unit *u, struct cs_alu_engine *out);

#endif
