/* fabric/error.h - how gtsim reports an error to its caller.
 *
 * The four kinds of error (DESIGN.md "Errors") and their mechanisms:
 *  - a model bug: assert();
 *  - a bad config or bad command line: a function returns -1 and fills a
 *    struct gt_error with one line naming the file and line (or the unit and
 *    port) and what was expected; only the CLI prints it and exits;
 *  - bad workload programming: counted in the unit's stats and logged through
 *    sim_log() with a deterministic hardware-like outcome (never a crash);
 *  - a feature that is not modelled: a warning through sim_log() naming it.
 */
#ifndef GTSIM_FABRIC_ERROR_H
#define GTSIM_FABRIC_ERROR_H

#include <stdarg.h>

#define GT_ERROR_MAX 512

struct gt_error {
    char message[GT_ERROR_MAX];
};

/* Formats the message into err (when err is not NULL) and returns -1, so that
 * error paths read `return gt_error_set(err, "...", ...);`. */
int gt_error_set(struct gt_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int gt_error_vset(struct gt_error *err, const char *fmt, va_list ap);

/* Puts "prefix: " in front of the message already in err; returns -1. */
int gt_error_prefix(struct gt_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
