/* fabric/stats.h - collecting and writing statistics.
 *
 * A stats_writer gathers rows "path = value" (with the measure and help of
 * each) from sim_write_stats(), then writes them as a nested stats.json
 * (`{"gpu": {"slice0": {"subslice1": {"eu3": {"ticks": 12}}}}}`) and a flat
 * stats.csv (path,value,measure,description), in the order units were made.
 * Integers are kept exact; everything else is a double.
 */
#ifndef GTSIM_FABRIC_STATS_H
#define GTSIM_FABRIC_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"

struct stats_writer;

struct stats_writer *stats_writer_create(void);
void stats_writer_destroy(struct stats_writer *w);

/* Prefix for the rows that follow ("gpu.vf"); "" for none. */
void stats_set_prefix(struct stats_writer *w, const char *prefix);

void stats_emit_u64(struct stats_writer *w, const char *name, uint64_t value,
                    const char *measure, const char *help);
/* stats_emit() (declared in fabric/unit.h) adds a double. */

size_t stats_row_count(const struct stats_writer *w);
/* Row i: its full path and value (integers converted); false past the end. */
bool stats_row(const struct stats_writer *w, size_t i, const char **path, double *value);
/* The value at a full path; false when there is none. */
bool stats_lookup(const struct stats_writer *w, const char *path, double *value);
/* The sum of stat `name` over every unit of `kind` in sim (0 when none has it). */
struct sim;
double stats_sum_of_kind(struct sim *sim, const struct stats_writer *w, const char *kind,
                         const char *name);

int stats_write_json(const struct stats_writer *w, FILE *f, struct gt_error *err);
int stats_write_csv(const struct stats_writer *w, FILE *f, struct gt_error *err);

#endif
