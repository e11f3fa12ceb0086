/* tools/machine.h - what the front end does to get from a config file and
 * command-line overrides to a realized machine. */
#ifndef GTSIM_TOOLS_MACHINE_H
#define GTSIM_TOOLS_MACHINE_H

#include "fabric/config.h"
#include "fabric/error.h"
#include "fabric/sim.h"
#include "fabric/topology.h"

#define DEFAULT_CONFIG "configs/gen9-skl-gt2.cfg"

struct machine_request {
    const char *config_path;        /* NULL: DEFAULT_CONFIG */
    const char **sets;              /* "key=value" overrides */
    int set_count;
    const char *workload;           /* NULL: the config's */
};

/* Loads the config and applies the overrides and the workload. Without a
 * config named, a capture runs on the config of the generation it was made
 * on (its AUB header's PCI id), anything else on DEFAULT_CONFIG. */
struct gt_config *machine_config(const struct machine_request *req, struct gt_error *err);

/* Sets "param=value" (`assignment`) on every unit of `kind` in the config;
 * returns how many, or -1 (none is an error). */
int machine_set_kind_param(struct gt_config *c, const char *kind, const char *assignment,
                           struct gt_error *err);

/* --wave: sets the `wave` param of every unit whose `impl` is not "c" (the
 * co-simulation kinds take it) to `file`; with several such units each gets
 * `file` with ".<unit config path>" put before its extension. Returns how
 * many, or -1 (none is an error). */
int machine_set_wave(struct gt_config *c, const char *file, struct gt_error *err);

/* Builds and realizes the machine the config describes. */
struct sim *machine_build(const struct gt_config *config, unit_kind_lookup_fn lookup,
                          struct gt_error *err);

/* Finds the default config: in the working directory, else beside the binary's
 * repository (build/<variant>/gtsim -> ../../configs). */
const char *machine_default_config(char *buf, size_t size);

#endif
