/* rtl-cosim/l3_random.h - a seeded random run of the L3: l3_stim -> l3 (impl
 * chosen, `banks` banks (default 1) of 4 ways of 2 KiB) -> memory (LLC/DRAM model), built from a
 * generated config by topology_build as `impl = "..."` in a user's config
 * would be. Used by `gtsim-cosim l3-random`, the tests and the bench. */
#ifndef GTSIM_RTL_COSIM_L3_RANDOM_H
#define GTSIM_RTL_COSIM_L3_RANDOM_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"

struct l3_random_options {
    const char *impl;           /* "c", "rtl", "lockstep", "rtl_broken", "lockstep_broken" */
    uint64_t seed;
    uint32_t requests;          /* per client */
    uint32_t clients;           /* default 3 */
    uint32_t banks;             /* L3 banks, default 1 (size, cache and URB scale with it) */
    uint32_t ro_permille, slm_permille;     /* l3_stim's: RO data and SLM requests */
    uint32_t program_permille;  /* > 0: l3_stim's "cs" linked to the L3, L3CNTLREG writes */
    uint32_t pop_permille;      /* requester: default 1000 (no reply back-pressure) */
    uint32_t reply_capacity;    /* L3 -> requester channel capacity, default 2 */
    uint32_t memory_capacity;   /* L3 <-> memory channel capacity, default 2 */
    uint32_t outstanding;       /* per client, default 8 */
    uint32_t width;             /* messages per cycle on the reply and memory links, default 1 */
    const char *wave;           /* FST file (rtl, lockstep), or NULL */
    uint64_t wave_from, wave_to;    /* cycles dumped (both 0: all) */
    const char *record_dir;     /* record the L3's ports of client 0 and memory here */
    FILE *report;               /* mismatch lines; NULL = none */
    uint64_t watchdog_cycles;   /* cycles with no progress before the run is reported
                                 * deadlocked (an error); 0: 100000 */
};

#define L3_RANDOM_STATS 19
extern const char *const l3_random_stat_names[L3_RANDOM_STATS];

struct l3_random_result {
    uint64_t sent, received, bad_replies, latency_cycles;
    uint64_t compared, mismatches, first_mismatch;
    uint64_t cycles, rtl_clocks;
    uint64_t stats[L3_RANDOM_STATS];    /* gpu.l3.<l3_random_stat_names[i]> (0: not emitted) */
    uint64_t memory_requests;           /* gpu.memory.requests */
    double seconds;
    char first_report[1024];
};

int l3_random_run(const struct l3_random_options *o, struct l3_random_result *r,
                  struct gt_error *err);

#endif
