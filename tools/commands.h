/* tools/commands.h - the gtsim subcommands. Each takes argv from its own name
 * on (argv[0] = "run") and returns the process exit status. */
#ifndef GTSIM_TOOLS_COMMANDS_H
#define GTSIM_TOOLS_COMMANDS_H

#include "fabric/topology.h"

/* The whole command line with the given kind lookup: gtsim passes
 * unit_kind_find; a build with more kinds (gtsim-cosim, with Verilated units)
 * passes its own, which falls back to unit_kind_find. */
int gtsim_main(int argc, char **argv, unit_kind_lookup_fn lookup);

int cmd_run(int argc, char **argv, unit_kind_lookup_fn lookup);
int cmd_config(int argc, char **argv, unit_kind_lookup_fn lookup);
int cmd_units(int argc, char **argv, unit_kind_lookup_fn lookup);
int cmd_decode(int argc, char **argv, unit_kind_lookup_fn lookup);
int cmd_sweep(int argc, char **argv, unit_kind_lookup_fn lookup);
/* What `gtsim sweep FILE` does before any point runs (read the sweep file,
 * build every point's machine), for at most max_runs runs (points x
 * workloads); nothing runs and nothing is written. The number of runs, or -1
 * with err naming the sweep file's line (fuzz/fuzz_sweep.c). */
#include "fabric/error.h"
int sweep_file_check(const char *file, unit_kind_lookup_fn lookup, int max_runs,
                     struct gt_error *err);
int cmd_compare(int argc, char **argv, unit_kind_lookup_fn lookup);
int cmd_plot(int argc, char **argv, unit_kind_lookup_fn lookup);

/* A whole unsigned number as the commands take them (decimal, 0x hex, 0
 * octal; no sign, nothing after it). */
#include <stdbool.h>
#include <stdint.h>
bool cli_parse_u64(const char *s, uint64_t *out);
/* True when `program` is an executable on $PATH. */
bool cli_on_path(const char *program);

/* Exit statuses. */
enum {
    EXIT_OK = 0,
    EXIT_ERROR = 1,         /* bad config, bad arguments, unreadable input */
    EXIT_DEADLOCK = 2,      /* the run stopped on the watchdog */
};

#endif
