/* rtl-cosim/random_command.h - the shape gtsim-cosim's seeded random
 * subcommands (random, l3-random, fpu-random) share: their options, one run,
 * the lockstep verdict, and in lockstep a second run of the deterministic
 * stimulus that dumps the RTL's wave only around the first mismatch.
 *
 * Each command gives its own options (an `option` callback), its run and its
 * summary lines; the driver parses -h/--help, --impl and --wave, and prints
 *   "  compared N WHAT, M mismatching"
 *   "  first mismatch at cycle C: LINE"
 *   "  wave: FILE (cycles A..B)"  or  "  wave: none written (no mismatch)"
 * after the command's lines in lockstep. Exit status: 0, 1 (bad options or a
 * run that could not be set up), 3 (mismatches, or what the command counts
 * as a failure). */
#ifndef GTSIM_RTL_COSIM_RANDOM_COMMAND_H
#define GTSIM_RTL_COSIM_RANDOM_COMMAND_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"

struct random_outcome {
    uint64_t compared, mismatches, first_mismatch;
    const char *first_report;       /* valid until the next run */
    bool failed;                    /* a failure besides mismatches (e.g. bad replies) */
};

/* One run. wave NULL: none; else dump cycles from..to (both 0: all). The
 * repeat for the wave (`repeat` true) reports nothing and records nothing. */
typedef int (*random_run_fn)(void *context, const char *wave, uint64_t from, uint64_t to,
                             bool repeat, struct random_outcome *out, struct gt_error *err);

struct random_command {
    const char *name;               /* "l3-random" */
    const char *usage;
    const char *compared;           /* what lockstep compares: "responses" */
    const char **impl;              /* the command's impl option */
    /* a command option: true when taken, false for an unknown name or a bad value */
    bool (*option)(void *context, const char *name, const char *value);
    random_run_fn run;
    void (*print)(void *context);   /* the command's summary lines, after the first run */
    void *context;
};

/* The options start at argv[1]. */
int random_command_main(const struct random_command *c, int argc, char **argv);

#endif
