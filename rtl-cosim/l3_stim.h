/* rtl-cosim/l3_stim.h - "l3_stim": a seeded random requester for the L3
 * (registered only in gtsim-cosim; no hardware meaning).
 *
 * `clients` request streams on ports "out"[clients] (MSG_MEMORY_REQUEST) with
 * their replies on "in"[clients]. Each stream sends `requests` requests, at
 * most `outstanding` unanswered, on a cycle with chance send_permille; tags
 * are the request's number in its stream. Requests: urb_permille to the URB,
 * uncached_permille uncached, the rest cached data; writes write_permille,
 * atomics atomic_permille, the rest reads. Addresses: hot_permille from
 * `hot_lines` lines spread over the sets (hits), the rest from
 * `conflict_sets` sets x `conflict_lines` lines per set (misses, set
 * conflicts, evictions and dirty writebacks once conflict_lines > ways).
 * pop_permille < 1000 pops a reply only on that share of cycles, so the L3's
 * reply channels fill (back-pressure). ro_permille of the cached requests go
 * to read-only data (MEMREQ_RO_DATA), slm_permille of the URB ones to SLM;
 * with "cs" linked, program_permille of the cycles send an L3CNTLREG write
 * (mostly ways adding up to program_ways, with URB, RO, DC, All pools and
 * now and then SLM; now and then a write the L3 must reject).
 * Stats: sent, received, bad_replies (a tag not outstanding on that stream,
 * or a reply of another kind), latency_cycles (sum, send to reply), programs.
 */
#ifndef GTSIM_RTL_COSIM_L3_STIM_H
#define GTSIM_RTL_COSIM_L3_STIM_H

#include "fabric/unit.h"

extern const struct unit_ops l3_stim_ops;

#endif
