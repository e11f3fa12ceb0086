/* rtl-cosim/fpu_random.h - seeded random FPU traffic through the fabric:
 * "fpu_stim" (units/fpu/fpu_gen.h requests, one per cycle, with random idle
 * cycles) -> fpu (impl chosen) -> cosim_sink (random back-pressure), built by
 * topology_build from a generated config, as `impl = "..."` in a user's
 * config would be. Used by `gtsim-cosim fpu-random`, the tests and the bench.
 *
 * "fpu_stim" params: seed, requests, idle_permille (cycles per 1000 with no
 * request, default 50), short_permille (requests per 1000 sent with a short
 * payload, a bad request; default 2). Stats: sent. */
#ifndef GTSIM_RTL_COSIM_FPU_RANDOM_H
#define GTSIM_RTL_COSIM_FPU_RANDOM_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "fabric/unit.h"
#include "units/fpu/fpu_gen.h"

extern const struct unit_ops fpu_stim_ops;
/* The generator of a fpu_stim unit (its coverage counters). */
const struct fpu_gen *fpu_stim_gen(const struct unit *u);

struct fpu_random_options {
    const char *impl;           /* "c", "rtl", "lockstep", "rtl_broken", "lockstep_broken" */
    uint64_t seed;
    uint64_t requests;          /* operations (4 lanes each) */
    uint32_t depth;             /* default 4 */
    uint32_t pop_permille;      /* sink: default 1000 (no back-pressure) */
    uint32_t idle_permille;     /* stim: default 50 */
    const char *wave;           /* FST file (rtl/lockstep impls), or NULL */
    uint64_t wave_from, wave_to;
    const char *record_dir;     /* record the fpu's ports to DIR/request.rec, response.rec */
    FILE *report;               /* mismatch lines; NULL = none */
};

struct fpu_random_result {
    uint64_t sent, received, cycles, compared, mismatches, first_mismatch, stall_cycles;
    double seconds;             /* host time of sim_run */
    struct fpu_gen cov;
    char first_report[1024];
};

int fpu_random_run(const struct fpu_random_options *o, struct fpu_random_result *r,
                   struct gt_error *err);

#endif
