/* fabric/unit.h - the unit contract: what every unit module provides and uses.
 *
 * A unit kind is one `const struct unit_ops` with three descriptor tables:
 *  - params: every configuration key the kind accepts (path, type, where it is
 *    stored in the unit's state, default, range, help). The fabric fills the
 *    state from the config before create() runs; unknown keys and values out
 *    of range are errors naming the config file and line.
 *  - ports: every port (name, direction, array size, required or optional,
 *    the message kinds it carries, help). The fabric creates them after
 *    create(); the unit looks them up with unit_port() or unit_port_array()
 *    (usually once, in realize()) and keeps the pointers.
 *  - stats: every counter kept in the state (name, unit of measure, help). The
 *    fabric dumps them hierarchically; stats_derived() adds computed values.
 *
 * Lifecycle, driven by the fabric (DESIGN.md "The unit contract"):
 *   create  -> state allocated and zeroed, params filled; allocate, set up
 *   bind    -> the fabric connects ports by name from the config
 *   realize -> check params together and that bindings make sense; return an
 *              error (-1 and err filled), never exit
 *   reset   -> architectural reset values; request the first wake if the unit
 *              starts work by itself
 *   tick    -> pop inputs, work, push outputs; return UNIT_BUSY to be ticked
 *              again next cycle, UNIT_IDLE to sleep until a message arrives,
 *              a timer set with unit_wake_at() fires, or an output it was
 *              blocked on frees up
 *   destroy -> free what create allocated (not the state itself)
 *
 * Rules: a unit talks to other units only through its ports; it keeps no
 * globals; it touches only its own state and stats.
 */
#ifndef GTSIM_FABRIC_UNIT_H
#define GTSIM_FABRIC_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"
#include "fabric/msg.h"
#include "fabric/port.h"

struct sim;
struct unit;
struct stats_writer;

enum unit_activity {
    UNIT_IDLE = 0,      /* nothing more to do until something wakes the unit */
    UNIT_BUSY = 1,      /* tick again on the next edge of the unit's clock */
};

/* ---- parameters ---------------------------------------------------------- */

enum param_type {
    PARAM_BOOL,         /* bool */
    PARAM_U32,          /* uint32_t */
    PARAM_U64,          /* uint64_t (0 .. INT64_MAX through the config) */
    PARAM_I64,          /* int64_t */
    PARAM_DOUBLE,       /* double */
    PARAM_STRING,       /* char[PARAM_STRING_MAX], NUL-terminated */
};

#define PARAM_STRING_MAX 256

/* "bool", "u32", ... for listings and messages. */
const char *param_type_name(enum param_type t);
/* Bytes a param of the type takes in the state (strings: PARAM_STRING_MAX). */
size_t param_type_size(enum param_type t);

struct param_desc {
    const char *path;       /* key in the unit's config group; '.' nests groups */
    enum param_type type;
    size_t offset;          /* where in the unit's state the value lives */
    int64_t min, max, def;  /* integer and bool types */
    double fmin, fmax, fdef;/* PARAM_DOUBLE */
    const char *sdef;       /* PARAM_STRING default */
    const char *help;
};

/* The entry of a param table (ending in PARAM_END) with that path, or NULL. */
const struct param_desc *param_find(const struct param_desc *table, const char *path);

#define PARAM_BOOL_FIELD(p, st, fld, d, h) \
    { .path = p, .type = PARAM_BOOL, .offset = offsetof(st, fld), .min = 0, .max = 1, .def = (d), .help = h }
#define PARAM_U32_FIELD(p, st, fld, d, lo, hi, h) \
    { .path = p, .type = PARAM_U32, .offset = offsetof(st, fld), .min = (lo), .max = (hi), .def = (d), .help = h }
#define PARAM_U64_FIELD(p, st, fld, d, lo, hi, h) \
    { .path = p, .type = PARAM_U64, .offset = offsetof(st, fld), .min = (lo), .max = (hi), .def = (d), .help = h }
#define PARAM_I64_FIELD(p, st, fld, d, lo, hi, h) \
    { .path = p, .type = PARAM_I64, .offset = offsetof(st, fld), .min = (lo), .max = (hi), .def = (d), .help = h }
#define PARAM_DOUBLE_FIELD(p, st, fld, d, lo, hi, h) \
    { .path = p, .type = PARAM_DOUBLE, .offset = offsetof(st, fld), .fmin = (lo), .fmax = (hi), .fdef = (d), .help = h }
#define PARAM_STRING_FIELD(p, st, fld, d, h) \
    { .path = p, .type = PARAM_STRING, .offset = offsetof(st, fld), .sdef = (d), .help = h }
#define PARAM_END { .path = NULL }

/* ---- ports --------------------------------------------------------------- */

enum port_flags {
    PORT_REQUIRED = 0,      /* realize fails when it is not bound */
    PORT_OPTIONAL = 1,      /* may stay unbound; sends on it fail and are counted */
    PORT_OPEN = 2,          /* an array with as many ports as links name (index by
                               index); the unit counts them at realize with
                               unit_port_count(). `[*]` in a link takes its length
                               from the other side. Its `count` ports (0 unless
                               set) are made with the unit, linked or not. */
};

struct port_desc {
    const char *name;
    enum port_direction direction;
    uint32_t count;             /* array size; 0 is read as 1 */
    const char *count_param;    /* or: the PARAM_U32 whose value is the array size */
    unsigned flags;             /* enum port_flags */
    uint32_t msg_kinds;         /* MSG_BIT() of each kind it takes or sends; 0 = any (only
                                   placeholders and test rigs). A link between ports whose
                                   kinds do not meet is a config error; a send of a kind
                                   not declared is logged and counted. */
    const char *help;
};

#define PORT_END { .name = NULL }

/* ---- stats --------------------------------------------------------------- */

enum stat_type {
    STAT_COUNTER,           /* uint64_t that only grows */
    STAT_LEVEL,             /* uint64_t that goes up and down (occupancy, peaks) */
    STAT_REAL,              /* double */
};

struct stat_desc {
    const char *name;       /* '.' nests: "stall.full" */
    enum stat_type type;
    size_t offset;
    const char *measure;    /* "messages", "cycles", "bytes", ... */
    const char *help;
};

#define STAT_COUNTER_FIELD(n, st, fld, m, h) { n, STAT_COUNTER, offsetof(st, fld), m, h }
#define STAT_LEVEL_FIELD(n, st, fld, m, h)   { n, STAT_LEVEL, offsetof(st, fld), m, h }
#define STAT_REAL_FIELD(n, st, fld, m, h)    { n, STAT_REAL, offsetof(st, fld), m, h }
#define STAT_END { NULL, STAT_COUNTER, 0, NULL, NULL }

/* Adds one computed value (a ratio, an average) to a stats dump. */
void stats_emit(struct stats_writer *w, const char *name, double value, const char *measure,
                const char *help);

/* ---- key figures: what a kind puts in the run summary ----------------------
 *
 * `gtsim run` ends with one line of the GPU's work; each kind names the stats
 * that belong there and how its units' values add up (tools/cmd_run.c sums a
 * stat over every unit of the kind, from the finished stats dump). */

enum key_figure_form {
    KEY_FIGURE_TOTAL,       /* "<total> <label>" */
    KEY_FIGURE_PER_CYCLE,   /* "<label> <100 x total / (units x cycles)>%": a per-cycle
                               count over the units' cycles (the latest unit_cycle) */
    KEY_FIGURE_MEAN,        /* "<label> <100 x total / units>%": a per-unit fraction, averaged */
    KEY_FIGURE_HIT_RATE,    /* "<label> <100 x total / (total + other)>% (<total> of <sum>)":
                               stat counts hits, `other` misses */
    KEY_FIGURE_SHARE,       /* "<label> <100 x total / other>% (<total> of <other>)":
                               stat counts hits, `other` every lookup */
};

enum key_figure_flags {
    KEY_FIGURE_GATES = 1,   /* no summary line when this figure's total is 0 (no EU ran);
                               the kind carrying it leads the line */
    KEY_FIGURE_IF_ANY = 2,  /* left out when its denominator is 0 */
};

struct key_figure {
    const char *label;          /* "EU utilisation" */
    enum key_figure_form form;
    const char *stat;           /* a stat of the kind (table or derived) */
    const char *other;          /* the second stat of HIT_RATE and SHARE */
    const char *note;           /* printed after the value: "(issuing)" */
    unsigned flags;             /* enum key_figure_flags */
};

#define KEY_FIGURE_END { .label = NULL }

/* ---- the ops ------------------------------------------------------------- */

struct unit_ops {
    const char *kind;               /* config `kind = "..."` */
    const char *help;               /* one paragraph: what it models, seed refs */
    bool placeholder;               /* a stand-in that counts what it receives */
    size_t state_size;
    const struct param_desc *params;
    const struct port_desc *ports;
    const struct stat_desc *stats;
    const struct key_figure *key_figures;   /* optional, ends in KEY_FIGURE_END */

    int (*create)(struct unit *u, struct gt_error *err);
    /* Optional: ports beyond the table, made when a link names them (a
     * placeholder takes any port name). NULL return + err when refused. */
    struct port *(*port)(struct unit *u, const char *name, uint32_t index,
                         enum port_direction direction, struct gt_error *err);
    int (*realize)(struct unit *u, struct gt_error *err);
    void (*reset)(struct unit *u);
    enum unit_activity (*tick)(struct unit *u);
    /* Optional: run after every unit of the edge has ticked, for each unit
     * that called unit_request_edge_commit() in its tick, one at a time in
     * unit id order on the simulation's thread. For work whose order across
     * units must not depend on the tick order or the host thread count (the
     * data ports' atomics on shared memory). It touches only the unit's own
     * state and the functional memory, may port_call() (fabric/port.h) and may
     * ask for wakes (unit_wake_at); it sends on no channel. */
    void (*edge_commit)(struct unit *u);
    /* Optional: calls (fabric/port.h port_call), from another unit's edge
     * commit. callable: whether input port `in` takes calls (NULL: yes),
     * asked once for each linked port when the simulation is realized (after
     * every realize(); the answer may depend only on the unit's params).
     * call: takes m as if popped from `in` on cycle `arrival` (the caller's
     * cycle plus the link's latency), without keeping it (the caller owns
     * it), and returns its reply (NULL: none) and the cycle the reply would
     * be visible at the caller. It may not request an edge commit. */
    bool (*callable)(const struct unit *u, const struct port *in);
    struct msg *(*call)(struct unit *u, struct port *in, const struct msg *m, uint64_t arrival,
                        uint64_t *reply_cycle);
    /* Optional: before the unit's stats are written, brings its counters up
     * to its clock's current cycle as ticks on every cycle would have: a unit
     * that sleeps through cycles and adds their counts when it wakes adds the
     * cycles slept so far (a run stopped by --max-cycles mid-sleep). Changes
     * nothing a later tick reads but those counts. */
    void (*stats_settle)(struct unit *u);
    void (*stats_derived)(struct unit *u, struct stats_writer *w);
    void (*destroy)(struct unit *u);
};

/* ---- what a unit may ask of the fabric ----------------------------------- */

void *unit_state(const struct unit *u);
const char *unit_name(const struct unit *u);        /* "gpu.slice0.subslice1.eu3" */
const char *unit_kind(const struct unit *u);
/* The unit's kind table: a harness API of a kind checks it before reading
 * the unit's state (a placeholder may carry the same kind name). */
const struct unit_ops *unit_ops_of(const struct unit *u);
bool unit_is_placeholder(const struct unit *u);     /* a placeholder stands in for the kind */
uint32_t unit_id(const struct unit *u);
struct sim *unit_sim(const struct unit *u);

/* The port `name[index]` declared by the kind (or made by its port() op); NULL
 * when there is none. */
struct port *unit_port(struct unit *u, const char *name, uint32_t index);

/* Number of ports named `name` (the array size), 0 when none. */
uint32_t unit_port_count(const struct unit *u, const char *name);

/* The ports `name[0..count-1]` in one array (count: unit_port_count()), with
 * one NULL after the last; an index no link made (a gap in an open array) is
 * NULL too. The array is the fabric's, freed with the unit; each call makes a
 * new one (call it once, in realize). */
struct port **unit_port_array(struct unit *u, const char *name, uint32_t *count);

/* Backdoor: a param's current value as text ("7", "true", "1150.5"); -1 when
 * the kind has no such param. */
int unit_param_text(const struct unit *u, const char *path, char *buf, size_t size);

/* Whether port `name` of the unit is made on demand: the kind has a port()
 * op, or declares `name` as a PORT_OPEN array. */
bool unit_port_is_open(const struct unit *u, const char *name);

/* Walks a unit's ports in the order they were made. */
struct port *unit_first_port(const struct unit *u);
struct port *unit_next_port(const struct port *p);

/* Makes a port for a kind's port() op. */
struct port *unit_add_port(struct unit *u, const char *name, uint32_t index,
                           enum port_direction direction, unsigned flags);

/* The period of the unit's clock, in picoseconds. */
uint64_t unit_clock_period(const struct unit *u);

/* The current cycle of the unit's clock domain (the edge being ticked). */
uint64_t unit_cycle(const struct unit *u);

/* Ticks the unit on the given edge of its clock (later than the current one;
 * an earlier or equal cycle is taken as the next edge). */
void unit_wake_at(struct unit *u, uint64_t cycle);

/* Whether any of the unit's input channels holds a message, visible yet or
 * not (sent and not yet popped). False: every port_pop()/port_peek() of its
 * inputs would return NULL this cycle, so a unit that polls many inputs each
 * tick (an EU's write-back ports) may skip them all. */
bool unit_has_queued(const struct unit *u);

/* Its inputs' queued bits (port_queued_bit): an input whose bit is clear
 * holds no message, so a poll of it would return NULL this cycle. */
uint64_t unit_queued_ports(const struct unit *u);

/* From a tick: calls the kind's edge_commit() once this edge's ticks are all
 * done (more calls in the same tick ask once). */
void unit_request_edge_commit(struct unit *u);

/* Tells the watchdog the unit made progress without moving a message (an EU
 * executing ALU instructions). */
void unit_progress(struct unit *u);

/* Logs a message tagged with the unit's name: warnings for unmodelled
 * features, notes for bad workload programming (which the unit also counts). */
void unit_log(struct unit *u, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- a unit run inside another ------------------------------------------ */

/* A unit of kind `ops` that `host` runs (a co-simulation adapter running the
 * C model beside an RTL): its own state, whose params are the kind's defaults
 * overwritten by the host's values of the params both kinds name alike (same
 * path and type); the host's ports, name, id and clock; its wake-ups wake the
 * host. create() has run when this returns (NULL and err when it failed). The
 * fabric never realizes, resets, ticks or lists it: the host calls its ops and
 * writes its stat table with unit_write_stat_table(). */
struct unit *unit_create_inner(struct unit *host, const struct unit_ops *ops,
                               struct gt_error *err);
void unit_destroy_inner(struct unit *inner);       /* runs destroy(); NULL is fine */

/* The first unit `host` runs inside it (a co-simulation adapter's C model),
 * or NULL: how a tool reads the C unit's results (om_written_surfaces) when an
 * adapter stands in its place. */
struct unit *unit_inner(const struct unit *host);

/* Writes the counters of a unit's stat table to w, under w's prefix (what
 * sim_write_stats writes for each unit before its stats_derived()). */
void unit_write_stat_table(struct unit *u, struct stats_writer *w);

#endif
