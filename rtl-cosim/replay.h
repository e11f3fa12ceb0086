/* rtl-cosim/replay.h - replay: port traffic recorded in a full run
 * (rtl-cosim/recording.h) drives one unit alone, usually its RTL, and what it
 * sends is checked against what was recorded.
 *
 * The machine replay builds: for every recorded input port a "cosim_player"
 * that makes each message visible to the unit on the cycle the unit took it in
 * the recorded run (sent one cycle earlier over a latency-1 link); the unit
 * under test (any kind: "cs_alu:rtl", "cs_alu:rtl_broken", "cs_alu" ...),
 * named as in the recording; for every recorded output port a "cosim_checker"
 * that pops every message as it arrives and compares it with the recording:
 * each payload field (layouts from compare.h) and the cycle it was sent,
 * exactly. A recording of a port of an array (client[2]) drives or checks
 * that index. An output's checker channel keeps the width of the channel the
 * port was recorded on (the recording's `link` line), so a unit that the
 * width held back in the full run is held back the same way; the replay
 * assumes the recorded unit was not back-pressured on its outputs otherwise
 * (the checker pops every message as it arrives; a full run whose receiver
 * let a channel fill would not replay exactly).
 *
 * With a wave file, a replay that finds a mismatch runs again (replay is
 * deterministic) with the unit's `wave` params set to dump only the cycles
 * from `wave_before` before the first mismatch to `wave_after` after it.
 */
#ifndef GTSIM_RTL_COSIM_REPLAY_H
#define GTSIM_RTL_COSIM_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "fabric/topology.h"

#define REPLAY_MAX_PORTS 16
#define REPLAY_MAX_SETS 32

struct replay_options {
    const char *kind;                   /* the unit under test: "cs_alu:rtl" */
    const char *inputs[REPLAY_MAX_PORTS];   /* recordings of input ports */
    const char *expects[REPLAY_MAX_PORTS];  /* recordings of output ports */
    const char *sets[REPLAY_MAX_SETS];  /* "param=value" for the unit */
    const char *wave;                   /* FST file, or NULL */
    uint64_t wave_before, wave_after;   /* cycles around the first mismatch */
    unit_kind_lookup_fn lookup;
    FILE *report;                       /* mismatch lines; NULL = none */
};

struct replay_result {
    uint64_t messages_in, messages_checked;
    uint64_t mismatches;                /* messages that differ, missing or extra */
    uint64_t first_mismatch;            /* cycle; UINT64_MAX when none */
    uint64_t cycles;                    /* cycles simulated */
    char first_report[1024];            /* the first mismatch line, "" when none */
};

/* Runs a replay. -1 with err when it cannot be set up (unreadable recording,
 * unknown kind, ports that do not match); 0 otherwise, the result saying
 * whether the unit matched. */
int cosim_replay(const struct replay_options *o, struct replay_result *r, struct gt_error *err);

extern const struct unit_ops cosim_player_ops;
extern const struct unit_ops cosim_checker_ops;

#endif
