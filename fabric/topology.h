/* fabric/topology.h - builds a machine (units, clocks, links) from a config.
 *
 * The config's root group is the top block. A block holds:
 *   units   groups with `kind = "..."`; the other keys are the kind's params;
 *           `count = N` makes N of them (name0 .. nameN-1); `clock = "..."`
 *           picks the clock domain (default: the block's, else the first);
 *           `impl = "rtl"` picks the kind registered as "<kind>:rtl" (same
 *           ports, another implementation; "c", the default, is the C model);
 *   blocks  groups without `kind` (slice, subslice), also with `count`,
 *           `clock`, units, blocks and links of their own;
 *   links   a list of { from = "a.out"; to = "b.in"; latency; capacity; width }.
 * The root also holds `clocks = { gt = { mhz = 1150.0; }; ... }` (or
 * `period_ps`), `link_defaults = { latency; capacity; width; }`, and optional
 * `description`. `simulation = { ... }` is read by the front end, not here.
 *
 * Names are hierarchical: a unit `eu` with count 8 inside block `subslice`
 * (count 3) inside `slice` (count 1) inside `gpu` is gpu.slice0.subslice2.eu7.
 *
 * Link endpoints are paths relative to the block that holds the link, the
 * last segment being the port: "td.eu[3]", "eu[*].dispatch",
 * "slice[*].subslice[*].dataport.l3". `[N]` picks one of a counted unit,
 * block or port array; `[*]` takes all of them, in order; a counted thing
 * must be indexed. Both sides expand to lists that are joined pairwise, so
 * they must be the same length; a `[*]` on a port array made on demand (a
 * PORT_OPEN array, or any port of a placeholder) takes its length from the
 * other side. `[+]` on such an array does the same with new ports numbered
 * after those earlier links made: "l3.client[+]" after "l3.client[*]" adds a
 * second set of clients after the first.
 */
#ifndef GTSIM_FABRIC_TOPOLOGY_H
#define GTSIM_FABRIC_TOPOLOGY_H

#include "fabric/error.h"
#include "fabric/unit.h"

struct sim;
struct gt_config;

typedef const struct unit_ops *(*unit_kind_lookup_fn)(const char *kind);

/* Declares the clocks, makes every unit and every link the config describes.
 * Errors name the config file and line. sim_realize() comes next. */
int topology_build(struct sim *sim, const struct gt_config *config, unit_kind_lookup_fn lookup,
                   struct gt_error *err);

#endif
