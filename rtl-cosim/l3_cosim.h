/* rtl-cosim/l3_cosim.h - the L3 RTL (rtl/l3_slice.sv, one slice: its banks,
 * shared miss entries, reply heap and memory FIFO) in the fabric: adapter
 * kinds with the same ports, params and stats as the C unit (units/l3/l3.h,
 * seed 003 L18291-18573), picked by `impl = "..."` on a unit of kind "l3",
 * e.g. `--set gpu.slice.l3.impl=rtl` in a real machine:
 *
 *   l3:rtl        the Verilated slice alone drives the ports. Its stats are
 *                 the RTL's counters (reply_stalls and unexpected are the
 *                 adapter's, as they are port events), with the C unit's
 *                 names and derived stats (hit_rate; with "cs" linked
 *                 ro_reads, slm_unallocated, reprograms,
 *                 programming_violations, rejected_programmings,
 *                 partition.*). Request messages are kept until their reply
 *                 and memory requests allocated when the RTL queues them, as
 *                 the C unit does, so even the machine's message counts match.
 *   l3:lockstep   the C unit itself (a unit of kind "l3" inside the adapter,
 *                 rtl-cosim/lockstep.h: its own state, this unit's ports)
 *                 drives the ports; port observers hand every message it pops (L3CNTLREG
 *                 writes, client requests, memory replies) to the RTL in the
 *                 same cycle, in the same order. The RTL's memory requests are
 *                 compared in order with the C unit's (fields, same cycle); its
 *                 replies are matched per client port by tag (hits pass misses,
 *                 so replies are out of order) and compared field by field
 *                 (address, tag, op, hit, the header tag) and by cycle.
 *                 Back-pressure: the RTL may send on a client port this cycle
 *                 as many replies as the C unit did, and as many memory
 *                 requests, so both see the same channels. At the end the
 *                 RTL's counters (ro_reads and slm_unallocated included) are
 *                 compared with the C unit's.
 *   l3:rtl_broken, l3:lockstep_broken
 *                 the same with rtl/l3_slice.sv built with `define BROKEN (the
 *                 LRU evicts its pool's second way instead of its first): the
 *                 checker must catch it.
 *
 * L3CNTLREG ("cs", both modes): decoded and checked by the C unit's own
 * l3_partition_decode (units/l3/l3.h); an applied write becomes the RTL's
 * FLUSH (dirty lines of the current ways written back in the C unit's order,
 * everything invalidated) and new pool pins (ways, DC, RO, SLM on).
 *
 * Replies (both modes): the RTL's heap pops in its order into per-client
 * egress queues the adapter keeps as the C unit keeps them (units/l3/l3.h,
 * `egress_depth`: the crossbar's output to each client is port work, not the
 * slice's), and each egress queue sends as its channel allows.
 *
 * Cycle tolerance: 0. The RTL is cycle-exact with the C unit, including the
 * order of replies due on the same cycle under back-pressure (its reply heap
 * is laid out as the C model's). `cycle_tolerance` loosens the reply check.
 *
 * Geometry: everything the C unit accepts within the RTL's compile-time
 * maxima (rtl-cosim/l3_rtl.h): banks 1..4, way_kib 2 (32 sets), at most 96
 * ways per bank in the whole L3 (size_kib / banks / way_kib, so that any
 * L3CNTLREG partition fits), misses <= 64, bank_queue <= 16; past them realize
 * fails with the limit named. At most 512 replies and 16384 memory requests
 * waiting and 64 requests merged per line (past them the RTL flags an
 * overflow, logged in rtl mode, a mismatch in lockstep). Ops above ATOMIC and
 * targets above RO data are passed as the classes the C unit gives them
 * (atomic, R/W data); an uncached request's memory op is then ATOMIC, not the
 * raw byte.
 *
 * Params: the C unit's, plus wave (FST file), wave_from, wave_to, max_reports,
 * cycle_tolerance, stop_on_mismatch. Lockstep uses the port observers of the
 * L3's ports, beside a --record-port recorder (a port holds four).
 * Stats: the C unit's, plus rtl_clocks, compared, mismatches, unmatched (the
 * only rows a machine's stats.csv gains with l3:rtl or l3:lockstep).
 */
#ifndef GTSIM_RTL_COSIM_L3_COSIM_H
#define GTSIM_RTL_COSIM_L3_COSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"
#include "rtl-cosim/lockstep.h"

extern const struct lockstep_desc l3_cosim_desc;
extern const struct unit_ops l3_rtl_ops;
extern const struct unit_ops l3_lockstep_ops;
extern const struct unit_ops l3_rtl_broken_ops;
extern const struct unit_ops l3_lockstep_broken_ops;

/* The queries (cosim_finish, cosim_errors, ...) are rtl-cosim/lockstep.h's. */

#endif
