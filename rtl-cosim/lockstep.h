/* rtl-cosim/lockstep.h - what every co-simulation adapter shares: the
 * lockstep loop, the mismatch book-keeping and the queries.
 *
 * A co-simulated kind ("l3", "cs_alu", "fpu") has adapter kinds named
 * "<kind>:<mode>" (rtl-cosim/cosim_kinds.h), picked by `impl =` in a config.
 * Each adapter's state starts with a `struct lockstep` and its params table
 * with LOCKSTEP_PARAMS; a `struct lockstep_desc` says the rest:
 *
 *   lockstep  The C unit runs as a unit of its own kind inside the adapter
 *             (fabric/unit.h unit_create_inner: its ops, its own state behind
 *             unit_state, the adapter's ports and params of the same names).
 *             Every tick the C unit ticks first and drives the ports; port
 *             observers on every port of the adapter hand the kind's observe()
 *             each message the C unit popped or sent, in order; then the
 *             kind's rtl_step() gives the RTL the same cycle's inputs and
 *             compares its outputs with what the C unit sent. The adapter
 *             never sees the C unit's state: its counters come from the C
 *             unit's stat table.
 *   record    (cs_alu) the C unit alone, as in lockstep, with no RTL.
 *   rtl       The kind's rtl_tick() alone drives the ports.
 *
 * Mismatch reports (ibex dv/cosim style: both sides named, accumulated, not
 * fatal) name the unit, port, message, field and cycle:
 *   cosim mismatch: unit gpu.l3 port client_reply[2] message tag 17 cycle 1234:
 *   field hit: c-model 0x1, rtl 0x0
 * The first max_reports lines are logged as errors; the first mismatch narrows
 * a wave dump to end wave_after cycles later and stops the run when
 * stop_on_mismatch is set. */
#ifndef GTSIM_RTL_COSIM_LOCKSTEP_H
#define GTSIM_RTL_COSIM_LOCKSTEP_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"
#include "rtl-cosim/compare.h"
#include "rtl-cosim/cosim_kinds.h"

struct stats_writer;
/* A co-simulated kind: the C unit's kind, and what its adapter does around
 * the shared loop. Hooks may be NULL where marked. */
struct lockstep_desc {
    const char *c_kind;         /* "l3": the C unit's kind, and the adapters' prefix */
    unsigned modes;             /* 1u << enum cosim_mode it serves */
    /* create, after the C unit's (may be NULL) */
    int (*create)(struct unit *u, struct gt_error *err);
    /* realize: the adapter's ports and checks, before the C unit's realize */
    int (*realize)(struct unit *u, struct gt_error *err);
    /* realize, after the C unit's: the RTL model and its wave (may be NULL) */
    int (*rtl_open)(struct unit *u, struct gt_error *err);
    /* reset, after the C unit's; destroy, before it (may be NULL) */
    void (*reset)(struct unit *u);
    void (*destroy)(struct unit *u);
    /* rtl mode: the RTL alone drives the ports */
    enum unit_activity (*rtl_tick)(struct unit *u);
    /* Lockstep: a message the C unit popped from input port p, or sent on
     * output port p, on `cycle`. */
    void (*observe)(struct unit *u, const struct port *p, const struct msg *m, uint64_t cycle);
    /* Lockstep, after the C unit's tick on cycle `now`: the RTL's cycle and
     * the comparison. Returns the activity of the two together. */
    enum unit_activity (*rtl_step)(struct unit *u, uint64_t now, enum unit_activity c_activity);
    /* Lockstep, at the end: what one side sent and the other did not. */
    void (*finish)(struct unit *u, uint64_t now);
    /* Narrows the RTL's wave dump to cycles from..to (may be NULL). */
    void (*wave_window)(struct unit *u, uint64_t from, uint64_t to);
    /* The adapter's stats beyond its table (may be NULL). */
    void (*stats_derived)(struct unit *u, struct stats_writer *w);
};

struct lockstep {
    /* params (LOCKSTEP_PARAMS) */
    char wave[PARAM_STRING_MAX];
    uint64_t wave_from, wave_to, wave_after;
    uint32_t max_reports, cycle_tolerance;
    bool stop_on_mismatch;
    /* set up */
    const struct lockstep_desc *desc;
    enum cosim_mode mode;
    bool broken;                        /* the RTL built with `define BROKEN */
    const struct unit_ops *c_ops;       /* lockstep, record: the C unit's kind ... */
    struct unit *c_unit;                /* ... and the C unit */
    /* the comparison */
    uint64_t compared, mismatches, unmatched;
    uint64_t first_mismatch;            /* UINT64_MAX: none */
    bool finished;
    struct cosim_errors errors;
};

/* The params every adapter takes, for a state S whose `struct lockstep` is
 * member M; `tolerance_help` states the kind's cycle tolerance. */
#define LOCKSTEP_PARAMS(S, M, tolerance_help)                                                  \
    PARAM_STRING_FIELD("wave", S, M.wave, "", "dump the RTL to this FST file"),                 \
    PARAM_U64_FIELD("wave_from", S, M.wave_from, 0, 0, INT64_MAX, "first cycle dumped"),        \
    PARAM_U64_FIELD("wave_to", S, M.wave_to, INT64_MAX, 0, INT64_MAX, "last cycle dumped"),     \
    PARAM_U64_FIELD("wave_after", S, M.wave_after, 64, 0, INT64_MAX,                            \
                    "lockstep: cycles dumped after the first mismatch"),                        \
    PARAM_U32_FIELD("max_reports", S, M.max_reports, 20, 0, 1000000, "mismatch lines logged"),  \
    PARAM_U32_FIELD("cycle_tolerance", S, M.cycle_tolerance, 0, 0, 1000000, tolerance_help),    \
    PARAM_BOOL_FIELD("stop_on_mismatch", S, M.stop_on_mismatch, 0,                              \
                     "lockstep: stop the simulation at the first mismatch")

/* The state of an adapter unit: its `struct lockstep` comes first. */
static inline struct lockstep *lockstep_of(const struct unit *u)
{
    return (struct lockstep *)unit_state(u);
}

/* The ops of every adapter kind (see LOCKSTEP_KIND): the mode and, in
 * lockstep and record, the C unit from the kind's name, then the hooks of
 * the kind's descriptor (cosim_kinds.h cosim_desc_find). */
int lockstep_unit_create(struct unit *u, struct gt_error *err);
int lockstep_unit_realize(struct unit *u, struct gt_error *err);
void lockstep_unit_reset(struct unit *u);
enum unit_activity lockstep_unit_tick(struct unit *u);
void lockstep_unit_stats_derived(struct unit *u, struct stats_writer *w);
void lockstep_unit_destroy(struct unit *u);

/* An adapter kind `name` ("l3:lockstep") with state S (a struct lockstep
 * first), the kind's tables, the C kind's key figures for the run summary
 * (NULL: none) and help. */
#define LOCKSTEP_KIND(sym, name, S, param_table, port_table, stat_table, figures, text)     \
    const struct unit_ops sym = {                                                         \
        .kind = name,                                                                     \
        .help = text,                                                                     \
        .state_size = sizeof(S),                                                          \
        .params = param_table,                                                            \
        .ports = port_table,                                                              \
        .stats = stat_table,                                                              \
        .key_figures = figures,                                                           \
        .create = lockstep_unit_create,                                                   \
        .realize = lockstep_unit_realize,                                                 \
        .reset = lockstep_unit_reset,                                                     \
        .tick = lockstep_unit_tick,                                                       \
        .stats_derived = lockstep_unit_stats_derived,                                     \
        .destroy = lockstep_unit_destroy,                                                 \
    }

/* One mismatch line: logged while fewer than max_reports were kept. */
void lockstep_report(struct unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Counts a mismatching message seen at `cycle` (the first narrows the wave
 * and may stop the run). */
void lockstep_mismatch(struct unit *u, uint64_t cycle);
/* Reports and counts a cycle outside the tolerance; returns 1 when so. */
uint32_t lockstep_check_cycle(struct unit *u, const char *prefix, const char *what,
                              uint64_t c_cycle, uint64_t rtl_cycle);
/* Logs report lines from..count that are within max_reports (for lines
 * added with cosim_compare_payload). */
void lockstep_log_from(struct unit *u, uint32_t from);

/* A counter of the C unit's stat table, by name (0 when it has none). */
uint64_t lockstep_c_stat(struct unit *u, const char *name);

/* A stats row of an adapter: a counter of its state (offset), or, when the
 * C unit runs, the C unit's counter `c_stat`. */
struct lockstep_row {
    const char *name;
    size_t offset;
    const char *c_stat;         /* NULL: always the adapter's */
    const char *measure, *help;
};
#define LOCKSTEP_ROW_END { NULL, 0, NULL, NULL, NULL }
void lockstep_emit_rows(struct unit *u, struct stats_writer *w, const struct lockstep_row *rows);

/* rtl mode: the oldest MSG_GENERIC message on `in`; others are dropped,
 * counted in *bad_kind and noted in the log. NULL when none is left. */
struct msg *lockstep_pop_generic(struct unit *u, struct port *in, uint64_t *bad_kind);

/* ---- queries (every adapter kind) ----------------------------------------- */

/* True when u is an adapter kind ("l3:lockstep", ...). */
bool cosim_unit_is(const struct unit *u);
/* Ends the comparison (lockstep): what one side sent and the other did not
 * becomes mismatches. Returns the mismatching messages so far; safe to call
 * more than once. */
uint64_t cosim_finish(struct unit *u);
const struct cosim_errors *cosim_errors(const struct unit *u);
uint64_t cosim_compared(const struct unit *u);
uint64_t cosim_first_mismatch(const struct unit *u);   /* UINT64_MAX: none */

#endif
