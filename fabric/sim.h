/* fabric/sim.h - the simulation kernel: one `struct sim` holds a whole machine.
 *
 * Everything hangs off a struct sim passed explicitly: clock domains, units,
 * channels, message pools, the log, the trace. There are no globals, so two
 * machines can live in one process and tests can run units alone.
 *
 * Time is integer picoseconds. Each clock domain has a period; its cycle N is
 * the edge at N * period. A unit lives in one domain and is ticked on an edge
 * only when it has work: a message arrives, a timer it set fires, it returned
 * UNIT_BUSY, or an output it was blocked on frees up. Idle units cost nothing.
 *
 * The scheduler is a timing wheel per clock domain (4096 cycles, one bit per
 * slot to skip empty ones) with an overflow heap for wakes further out; wakes
 * are small pooled records, so a send costs O(1).
 */
#ifndef GTSIM_FABRIC_SIM_H
#define GTSIM_FABRIC_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "fabric/port.h"
#include "fabric/unit.h"

struct sim;
struct stats_writer;

enum sim_log_level { SIM_LOG_ERROR = 0, SIM_LOG_WARNING = 1, SIM_LOG_NOTE = 2, SIM_LOG_DEBUG = 3 };

enum sim_stop_reason {
    SIM_STOP_NONE = 0,
    SIM_STOP_QUIESCENT,     /* nothing left to do, every channel empty */
    SIM_STOP_TIME_LIMIT,    /* reached the time asked for */
    SIM_STOP_REQUESTED,     /* sim_request_stop() */
    SIM_STOP_DEADLOCK,      /* the watchdog fired, or quiescent with messages stranded */
};

struct sim_options {
    uint64_t watchdog_cycles;   /* cycles of the fastest clock with no progress; 0 = off */
    uint64_t tick_order_seed;   /* 0: natural order; else shuffle each cycle's tick order */
    int log_level;              /* messages at or below this level are written */
    FILE *log_file;             /* NULL = stderr */
    uint32_t threads;           /* host threads to tick units on; 0 or 1: one (sim_set_threads) */
    /* With threads > 1: every edge that ticks units of more than one thread
     * is ticked in parallel, instead of as the adaptive chooser finds faster
     * (fabric/sim.c adaptive_choose). Results are the same either way; this
     * runs the parallel engine on every such edge (tests, fuzzing, measuring
     * a partition). */
    bool parallel_every_edge;
};

struct sim *sim_create(const struct sim_options *options);   /* options may be NULL */
void sim_destroy(struct sim *sim);

/* ---- building ----------------------------------------------------------- */

/* Adds a clock domain; returns its index, or -1 with err (bad period, name taken). */
int sim_add_clock(struct sim *sim, const char *name, uint64_t period_ps, struct gt_error *err);
int sim_find_clock(const struct sim *sim, const char *name);
uint32_t sim_clock_count(const struct sim *sim);
const char *sim_clock_name(const struct sim *sim, uint32_t domain);
uint64_t sim_clock_period(const struct sim *sim, uint32_t domain);
uint64_t sim_clock_cycle(const struct sim *sim, uint32_t domain);    /* last edge processed */

/* Creates a unit of the given kind named `name` (unique; the full hierarchical
 * name). Its params come from the defaults, then `config` (a libconfig group,
 * may be NULL), then `overrides` ("key=value" strings, NULL-terminated, may be
 * NULL). Then the kind's create() runs and its ports are made. */
struct unit *sim_add_unit(struct sim *sim, const struct unit_ops *ops, const char *name,
                          uint32_t domain, const void *config_setting,
                          const char *const *overrides, struct gt_error *err);

struct unit *sim_find_unit(const struct sim *sim, const char *name);
uint32_t sim_unit_count(const struct sim *sim);
struct unit *sim_unit(const struct sim *sim, uint32_t id);

/* Joins an output port to an input port. Each port joins at most one channel. */
int sim_connect(struct sim *sim, struct port *out, struct port *in,
                const struct link_params *link, struct gt_error *err);

/* Finds a port by "unit.name.port[index]" (index optional, default 0), asking
 * the unit's port() op to make it when the kind allows. */
struct port *sim_resolve_port(struct sim *sim, const char *endpoint, enum port_direction dir,
                              struct gt_error *err);

/* Checks every unit (required ports bound, then the kind's realize()) and
 * resets them all. After this the machine can run. */
int sim_realize(struct sim *sim, struct gt_error *err);

/* ---- running ------------------------------------------------------------ */

/* Runs until quiescent, stopped, deadlocked, or time `until_ps` (0 = no
 * limit). Returns the reason. Can be called again to continue. */
enum sim_stop_reason sim_run(struct sim *sim, uint64_t until_ps);

/* Processes the next point in time that has work; false when there is none. */
bool sim_step(struct sim *sim);

void sim_request_stop(struct sim *sim);

/* Host threads (issue 19): units tick on up to n host threads (1..64), with
 * results bit-identical to one thread. The units are partitioned by slice
 * and subslice (the part of a unit's name up to "sliceN" / "subsliceN"),
 * weighted by what they cost per cycle, with the unslice on the calling
 * thread; each clock edge whose ready units fall on more than one thread is
 * ticked in parallel and its effects committed in thread order (struct
 * sim_thread in sim_internal.h), or on the calling thread alone when that
 * was faster: the fabric times both ways as it runs, keeps the faster for a
 * stretch of up to 262144 edges (the run's first, timed while the workers
 * start cold, for 512), and times them again sooner when the units ticked
 * per edge double or halve (host time only; no result depends on it). A
 * machine with no slice in its names, a run with a trace attached, port
 * observers (recordings, lockstep co-simulation) or co-simulated units
 * (inner units) runs on one thread.
 * Set before the first sim_run() (later calls are ignored); sim_threads():
 * the threads the runs use (1 until a run made workers). */
void sim_set_threads(struct sim *sim, uint32_t n);
uint32_t sim_threads(const struct sim *sim);
/* How the work falls on the host threads (issue 19), to judge the
 * partition without wall time: barriers (edges ticked in parallel) per cycle
 * of the first clock; when sim_set_thread_timing asked before the run, where
 * a parallel edge's host time goes (a worker's start after the release, each
 * thread's ticks, thread 0's commits and its wait for the workers); per
 * slice/subslice group its thread, unit ticks and, with that timing, the
 * host time of those ticks; each thread's share of that work in the split in use and in the
 * one the earlier weights (EU 8, others 1) would give, with the speed-up
 * each allows (total over the busiest thread's share). Host-dependent: not
 * stats. */
void sim_thread_report(const struct sim *sim, FILE *out);
/* Times every unit tick (two clock reads each) for sim_thread_report; off
 * by default. */
void sim_set_thread_timing(struct sim *sim, bool on);
/* Edges ticked in parallel (each one barrier: the threads hand over and
 * wait for each other) and edges ticked on the calling thread alone. */
uint64_t sim_barriers(const struct sim *sim);
uint64_t sim_serial_edges(const struct sim *sim);
/* The number of host processors online (the default of `gtsim run`). */
uint32_t sim_host_cores(void);
uint64_t sim_now(const struct sim *sim);            /* picoseconds */
enum sim_stop_reason sim_stop_reason(const struct sim *sim);
const char *sim_stop_reason_name(enum sim_stop_reason reason);

/* The watchdog's report after SIM_STOP_DEADLOCK: every non-empty channel with
 * its occupancy and the units waiting on it. Empty string otherwise. */
const char *sim_deadlock_report(const struct sim *sim);

/* Called every `every_steps` steps with the host-side view of progress (the
 * CLI uses it to print progress on a terminal). */
typedef void (*sim_progress_fn)(void *context, const struct sim *sim);
void sim_set_progress(struct sim *sim, sim_progress_fn fn, void *context, uint64_t every_steps);

/* ---- figures ------------------------------------------------------------ */

struct sim_totals {
    uint64_t steps;             /* points in time processed */
    uint64_t ticks;             /* unit ticks */
    uint64_t messages_sent;
    uint64_t messages_delivered;/* popped by receivers */
    uint64_t stalls;            /* cycles some sender was refused */
    uint64_t messages_live;     /* allocated and not yet freed */
    uint64_t messages_peak;
    uint64_t pool_bytes;        /* host memory held by the message pools */
};
void sim_totals(const struct sim *sim, struct sim_totals *out);

/* Writes every unit's stats (its table, its derived values, the fabric's
 * per-unit and per-port counters) to `w`. */
void sim_write_stats(struct sim *sim, struct stats_writer *w);

/* ---- log ---------------------------------------------------------------- */

void sim_log(struct sim *sim, int level, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
uint64_t sim_log_count(const struct sim *sim, int level);
/* Sends of a message kind the sending port does not declare (a model bug;
 * each port's first is logged as a warning). */
uint64_t sim_undeclared_sends(const struct sim *sim);

/* ---- trace -------------------------------------------------------------- */

struct trace;
/* Attaches a Chrome trace-event writer (see fabric/trace.h); NULL detaches. */
void sim_set_trace(struct sim *sim, struct trace *trace);

/* ---- backdoor ----------------------------------------------------------- */

/* Untimed access to the machine's functional memory (a struct gpu_memory,
 * fabric/memory.h), set by whoever builds the machine; NULL when it has none.
 * The sim owns it from then on and frees it with `destroy` (may be NULL). */
void sim_set_memory(struct sim *sim, void *memory, void (*destroy)(void *memory));
void *sim_memory(const struct sim *sim);

/* ---- shared objects ------------------------------------------------------ */

/* An object the units of this simulation share that is no unit's state (as
 * the functional memory above is), made by `create` on the first request for
 * `name` (at most 47 characters) and destroyed with the sim by `destroy` (may
 * be NULL); later requests for the name return the same object. A unit reaches
 * it through unit_sim(), never through another unit. Safe from any host
 * thread; the object guards its own use by several threads. Used by the EUs'
 * decoded-kernel cache (units/eu/eu_decode_cache.h). */
void *sim_shared(struct sim *sim, const char *name, void *(*create)(void),
                 void (*destroy)(void *object));

#endif
