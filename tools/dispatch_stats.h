/* tools/dispatch_stats.h - per-draw and per-dispatch statistics of a run
 * (issue 17 item 5): for each 3DPRIMITIVE and each GPGPU_WALKER, the cycles
 * from its issue to its completion, its threads and the EU thread occupancy
 * they made, and for draws the vertices, primitives and pixels.
 *
 * The figures come from the units that see each part of the work, through
 * their harness accessors (no unit reaches into another; this is a tool):
 *  - VF (units/vf/vf.h vf_observed_draws): the cycle it took the 3DPRIMITIVE
 *    (the draw's issue into the 3D pipeline), vertices fetched, instances;
 *  - SF (units/sf/sf.h): primitives set up;
 *  - WM (units/wm/wm.h): primitives rasterized, pixels rasterized, rejected
 *    early, passed, shaded, written, PS threads and their lives on the EU
 *    (from the EU taking a dispatch into a slot to its EOT leaving, as the
 *    thread-end notices tell them: units/common/thread_msg.h), the draw's
 *    last pixel written;
 *  - the GPGPU front end (units/vfe/vfe.h vfe_observed_walkers): the walker's
 *    issue, groups, threads, their lives on the EU and its last thread's end.
 * A draw completes at the later of its last vertex fetched and its last
 * pixel written; its threads are its PS threads (the vertex stages' threads
 * are not attributed to draws). Occupancy = thread cycles / (cycles x the
 * machine's EU hardware threads): the mean share of thread slots the draw's
 * or walker's threads held while it ran, at most 1 since every life lies in
 * its draw's or walker's cycles (a request waiting in a TD for a free slot
 * holds none; counting from the dispatch request, as before issue 14, gave
 * Gen7 draws up to 1.5). All cycles are in the VF's (draws)
 * or front end's (walkers) clock; WM's are converted through picoseconds.
 *
 * Outputs: draws.csv and walkers.csv in the run directory, rows
 * "draws.N.<field>" / "walkers.N.<field>" in stats.json and stats.csv, and a
 * "draws" and a "walkers" track of slices in --trace's trace.json.
 */
#ifndef GTSIM_TOOLS_DISPATCH_STATS_H
#define GTSIM_TOOLS_DISPATCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"

struct sim;
struct stats_writer;
struct trace;

struct draw_record {
    uint32_t draw;                  /* numbered from 1, as images.json numbers draws */
    bool skipped;                   /* VF found no work (empty or refused) */
    uint64_t issue_cycle, completion_cycle, cycles;
    uint64_t vertices, instances;
    uint64_t primitives_setup, primitives_rasterized;
    uint64_t pixels_rasterized, pixels_depth_rejected, pixels_hiz_rejected;
    uint64_t pixels_stencil_rejected, pixels_passed, pixels_shaded, pixels_written;
    uint64_t threads, thread_cycles;
    double occupancy;
};

struct walker_record {
    uint32_t walker;                /* numbered from 1 */
    bool refused;
    uint32_t simd;
    uint64_t issue_cycle, dispatched_cycle, completion_cycle, cycles;
    uint64_t groups, threads, threads_ended, thread_cycles;
    double occupancy;
};

struct dispatch_stats {
    struct draw_record *draws;
    uint32_t draw_count;
    struct walker_record *walkers;
    uint32_t walker_count;
    uint64_t hardware_threads;      /* the EUs' thread slots (their "threads" params) */
};

/* Gathers the records of a finished run (empty when the machine has no VF,
 * WM or front end). Release with dispatch_stats_free. */
void dispatch_stats_collect(struct sim *sim, struct dispatch_stats *out);
void dispatch_stats_free(struct dispatch_stats *d);

/* Rows draws.N.<field> and walkers.N.<field> (after the units' rows). */
void dispatch_stats_emit(const struct dispatch_stats *d, struct stats_writer *w);

/* DIR/draws.csv (when there are draws or a WM) and DIR/walkers.csv (when
 * there are walkers). */
int dispatch_stats_write_csv(const struct dispatch_stats *d, struct sim *sim, const char *dir,
                             struct gt_error *err);

/* A "draws" and a "walkers" track with one slice per record, issue to
 * completion, its figures as the slice's arguments. */
void dispatch_stats_trace(const struct dispatch_stats *d, struct sim *sim, struct trace *t);

#endif
