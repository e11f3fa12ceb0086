/* rtl-cosim/l3_cosim.h - the L3 RTL (rtl/l3_bank.sv, one bank) in the fabric:
 * adapter kinds with the same ports, params and stats as the C unit
 * (units/l3/l3.h), picked by `impl = "..."` on a unit of kind "l3":
 *
 *   l3:rtl        the Verilated bank alone drives the ports. Its stats are
 *                 the RTL's counters (reply_stalls and unexpected are the
 *                 adapter's, as they are port events).
 *   l3:lockstep   the C unit itself (l3_ops, run on this unit's ports) drives
 *                 the ports; port observers hand every message it pops (client
 *                 requests, memory replies) to the RTL in the same cycle, in
 *                 the same order. The RTL's memory requests are compared in
 *                 order with the C unit's (fields, same cycle); its replies
 *                 are matched per client port by tag (hits pass misses, so
 *                 replies are out of order) and compared field by field
 *                 (address, tag, op, hit, the header tag) and by cycle.
 *                 Back-pressure: the RTL may send on a client port this cycle
 *                 as many replies as the C unit did, and as many memory
 *                 requests, so both see the same channels.
 *                 At the end the RTL's counters are compared with the C
 *                 unit's stats.
 *   l3:rtl_broken, l3:lockstep_broken
 *                 the same with rtl/l3_bank.sv built with `define BROKEN (the
 *                 LRU evicts way 1 instead of way 0): the checker must catch it.
 *
 * Cycle tolerance: 0. The RTL is cycle-exact with the C unit, including the
 * order of replies due on the same cycle under back-pressure (its reply heap
 * is laid out as the C model's). `cycle_tolerance` loosens the reply check.
 *
 * Geometry: the RTL is one bank, so `banks` must be 1, `way_kib` 2 (32 sets),
 * ways (cache_kib / way_kib) <= 8, misses <= 16, bank_queue <= 16; at most 64
 * replies and 64 memory requests waiting and 16 requests merged per line
 * (past them the RTL flags an overflow, reported as a mismatch).
 *
 * Params: the C unit's, plus wave (FST file), wave_from, wave_to, max_reports,
 * cycle_tolerance, stop_on_mismatch. Lockstep uses the port observers of the
 * L3's ports (so --record-port cannot record an l3:lockstep's ports).
 * Stats: the C unit's, plus rtl_clocks, compared, mismatches, unmatched.
 */
#ifndef GTSIM_RTL_COSIM_L3_COSIM_H
#define GTSIM_RTL_COSIM_L3_COSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"
#include "rtl-cosim/compare.h"

extern const struct unit_ops l3_rtl_ops;
extern const struct unit_ops l3_lockstep_ops;
extern const struct unit_ops l3_rtl_broken_ops;
extern const struct unit_ops l3_lockstep_broken_ops;

bool l3_cosim_is(const struct unit *u);
/* Ends the comparison (lockstep): what one side sent and the other did not,
 * and the counters. Returns the mismatches so far; safe to call twice. */
uint64_t l3_cosim_finish(struct unit *u);
const struct cosim_errors *l3_cosim_errors(const struct unit *u);
uint64_t l3_cosim_compared(const struct unit *u);
uint64_t l3_cosim_first_mismatch(const struct unit *u);

#endif
