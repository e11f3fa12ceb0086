/* fabric/config.h - machine configs: libconfig files with @include fragments,
 * overridden from the command line with --set KEY=VALUE.
 *
 * Errors name the file and line ("configs/x.cfg:12: syntax error"). The
 * resolved config (includes expanded, overrides applied) can be written back
 * out, and is, into every run's output directory.
 */
#ifndef GTSIM_FABRIC_CONFIG_H
#define GTSIM_FABRIC_CONFIG_H

#include <stdio.h>

#include "fabric/error.h"

struct gt_config;

/* Checks that `path` is not a directory and that every file it @includes, at
 * every depth (names joined to include_dir, or as they are when it is NULL,
 * as libconfig 1.5 does), is a regular file, before a libconfig reader is
 * given it: libconfig exits the process on an @include of a directory. A
 * path that is a pipe or a device is not read here (it could not be read
 * again), so its includes go unchecked. gt_config_load and gt_config_parse
 * do this themselves; other readers of libconfig files call it. */
int gt_config_check_includes(const char *path, const char *include_dir, struct gt_error *err);
/* Reads `path`; @include paths are relative to the file's directory. */
struct gt_config *gt_config_load(const char *path, struct gt_error *err);
/* Parses config text held in memory (tests); includes relative to include_dir. */
struct gt_config *gt_config_parse(const char *text, const char *include_dir,
                                  struct gt_error *err);
void gt_config_free(struct gt_config *c);

/* Applies "a.b.c=value": the value keeps the type of the setting it replaces
 * when it parses as that type; new settings take the type the text reads as
 * (true/false, integer, number, "quoted" or bare string). Groups on the way
 * are made as needed. */
int gt_config_set(struct gt_config *c, const char *assignment, struct gt_error *err);

/* The root group, as a libconfig `config_setting_t *`. */
void *gt_config_root(const struct gt_config *c);
const char *gt_config_path(const struct gt_config *c);

int gt_config_write(const struct gt_config *c, FILE *f, struct gt_error *err);

#endif
