/* units/td/td.h - the thread dispatcher of a subslice: takes thread dispatch
 * requests from the stages (fixed functions, the GPGPU front end), picks an EU
 * with a free thread slot and delivers the request with its payload.
 *
 * Models (seed 003): the local thread dispatcher of a subslice (L18415,
 * L17388; notes/003-skl-pipeline.md §6 for the payloads the stages build).
 * The TD learns that a slot is free only from the thread-end messages the EUs
 * send (units/common/thread_msg.h), never by looking at an EU.
 *  - queue: up to `queue_depth` requests wait; when full the TD stops taking
 *    requests (back-pressure on the stage's channel);
 *  - arbitration: highest `priority` first, then oldest;
 *  - EU choice (`eu_choice`): the EU with the most free slots
 *    (`threads_per_eu` minus the threads the TD has dispatched to it and not
 *    yet seen end), the lowest index among equals; or round-robin over the
 *    EUs with a free slot; up to `dispatch_per_cycle` dispatches per cycle.
 * Ports: inputs "vs" "hs" "ds" "gs" "sf" "clip" "wm" "vfe" "cs" (optional,
 *        requests from each stage), "eu_end"[eus] (thread ends); outputs
 *        "eu"[eus]. MSG_GENERIC traffic on any input is passed round-robin to
 *        the EUs unchanged (the fabric's default workload).
 * Stats: requests, dispatched, thread_ends, queue_wait (cycles summed over
 *        dispatched requests), queue_peak, no_slot_cycles, thread_cycles,
 *        bad_messages.
 * Not modelled: per-stage dispatch rules (URB handles, barriers, thread
 * groups), the scoreboard of dependent pixel threads, preemption.
 */
#ifndef GTSIM_UNITS_TD_TD_H
#define GTSIM_UNITS_TD_TD_H

#include "fabric/unit.h"

extern const struct unit_ops td_ops;

#endif
