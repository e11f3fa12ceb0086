/* units/vc4_tmu/vc4_tmu.h - a VideoCore IV texture and memory lookup unit (TMU): for now its
 * direct ("general") memory lookups (seed 002 Sec 4 @93323; notes §4.1).
 *
 * What it models:
 *  - one request FIFO and one receive FIFO per client (a QPU's TMU port: "there is one FIFO per
 *    QPU", @96330);
 *  - direct lookups: a write to the s register (TMUn_S) with no t/r/b written before it is "a
 *    direct memory lookup ... using the absolute memory address ... the bottom two bits of the
 *    address are ignored" and returns 32 bits per element (@96330, notes §4.1); elements not
 *    written (lane_mask) read nothing and return 0 [chosen];
 *  - a load signal (sig 10/11, QPU_IO_SIGNAL) pops the oldest result into r4 (to_r4), at the
 *    earliest `latency` cycles after its request arrived (the seed gives no TMU latency);
 *  - TFREQ/TFRCV depth: "eight data slots" and "eight color slots" per QPU (@96330): a request
 *    beyond 8 outstanding (not yet loaded) results is counted as fifo_overruns (hardware
 *    misbehaviour: the QPU would stall or lose data) and still served; a load with nothing
 *    requested answers 0 and is counted.
 * Not modelled yet: texture lookups (t/r/b with their configuration uniforms, formats, T/LT
 * tiling, filters, wrap modes, cube maps: counted as texture_requests and answered 0), the TMU
 * L1 cache and the L2 (a fixed latency), the memory traffic timing.
 *
 * Ports: "qpu"[n] in (MSG_QPU_IO writes of 56-63 and load signals, an open array: one per
 * client), "result"[n] out (MSG_QPU_RESULT, to_r4 = 1, to the client of the same index).
 * Stats: direct_lookups, loads, texture_requests, fifo_overruns, loads_without_request,
 * lookups_beyond_memory, bad_messages, reply_stalls.
 */
#ifndef GTSIM_UNITS_VC4_TMU_H
#define GTSIM_UNITS_VC4_TMU_H

#include "fabric/unit.h"

extern const struct unit_ops vc4_tmu_ops;

#endif
