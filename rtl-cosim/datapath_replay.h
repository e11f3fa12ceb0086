/* rtl-cosim/datapath_replay.h - replay of a datapath recording
 * (datapath_recording.h) into the block's RTL: `gtsim-cosim datapath-replay`.
 * Every recorded request goes to the Verilated block (om_pixel: one request,
 * two clocks; qpu_alu: one instruction, four quads) in order, and the RTL's
 * answer is compared with the recorded C answer exactly as om:lockstep and
 * qpu:lockstep compare (colour channels bit for bit with NaN equal to NaN; the
 * ALUs' values, written elements and flags exactly). A request the RTL does
 * not answer in its clocks is a mismatch naming block, port out_valid, record
 * and cycle. With a wave, a second pass dumps the FST from `wave_before` RTL
 * clocks before the first mismatch to `wave_after` after it (the whole run
 * when nothing mismatches: no file is written then). A malformed recording is
 * an error naming the file and line (the records before it are replayed). */
#ifndef GTSIM_RTL_COSIM_DATAPATH_REPLAY_H
#define GTSIM_RTL_COSIM_DATAPATH_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"

struct datapath_replay_options {
    const char *path;
    bool broken;                    /* the RTL built with `define BROKEN */
    const char *wave;               /* FST around the first mismatch, or NULL */
    uint64_t wave_before, wave_after;   /* RTL clocks (default 300 and 20 when both 0) */
    FILE *report;                   /* every mismatch line (NULL: none) */
};

struct datapath_replay_result {
    char block[32], unit[256];
    uint64_t records, compared, mismatches, no_answer;
    uint64_t first_mismatch;        /* RTL clock of the first mismatch, UINT64_MAX: none */
    uint64_t first_record;          /* its record number (1-based) */
    uint64_t clocks;
    bool wave_written;
    uint64_t wave_from, wave_to;
    char first_report[1200];
};

/* 0: replayed (mismatches or not); -1: the recording could not be read or is
 * malformed (err names file and line), or the wave could not be written. */
int datapath_replay(const struct datapath_replay_options *o, struct datapath_replay_result *r,
                    struct gt_error *err);

#endif
