/* rtl-cosim/random_run.h - a seeded random co-simulation of cs_alu through the
 * fabric: cs_alu_stim -> cs_alu (impl chosen) -> cosim_sink, built from a
 * generated config by topology_build, exactly as `impl = "..."` in a user's
 * config would be. Used by `gtsim-cosim random`, the tests and the bench. */
#ifndef GTSIM_RTL_COSIM_RANDOM_RUN_H
#define GTSIM_RTL_COSIM_RANDOM_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "rtl-cosim/stim.h"
#include "units/cs_alu/cs_alu.h"

struct random_run_options {
    const char *impl;           /* "c", "rtl", "lockstep", "record", "rtl_broken", "lockstep_broken" */
    uint64_t seed;
    uint64_t ops;               /* ALU instructions wanted (at least; whole requests) */
    uint32_t max_count;         /* instructions per request at most (default 64) */
    uint32_t cycles_per_instruction;    /* default 1 */
    uint32_t reserved_permille; /* default 20 */
    uint32_t pop_permille;      /* sink: default 1000 (never back-pressures) */
    uint32_t capacity;          /* response channel capacity, default 2 */
    const char *wave;           /* FST file (rtl/lockstep), or NULL */
    uint64_t wave_from, wave_to;    /* cycles dumped (both 0: all) */
    const char *record_request, *record_response;  /* recordings, or NULL */
    FILE *report;               /* mismatch lines; NULL = none */
};

struct random_run_result {
    uint64_t requests, responses, instructions;
    uint64_t compared, mismatches, first_mismatch;
    uint64_t cycles;
    uint64_t response_stalls;   /* cycles the unit's response channel refused a send */
    double seconds;             /* host time of sim_run */
    struct cs_alu_coverage cov;
    struct cs_alu_engine engine;    /* the C model's counters (lockstep, record) */
    char first_report[1024];
};

int cosim_random_run(const struct random_run_options *o, struct random_run_result *r,
                     struct gt_error *err);

#endif
