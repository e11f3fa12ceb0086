/* tools/dispatch_stats.c - see dispatch_stats.h. */
#include "tools/dispatch_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/trace.h"
#include "fabric/unit.h"
#include "units/sf/sf.h"
#include "units/vf/vf.h"
#include "units/vfe/vfe.h"
#include "units/wm/wm.h"

/* The real windower (a placeholder of kind "wm" makes its ports on demand
 * and keeps no draws; the Gen4 windower is its own kind). */
static bool is_real_wm(struct unit *u)
{
    return strcmp(unit_kind(u), "wm") == 0 && !unit_port_is_open(u, "sf");
}

/* The record of draw number `draw` (from 1), made on first sight; draws are
 * kept in number order (each unit reports them in order). */
static struct draw_record *draw_of(struct dispatch_stats *d, uint32_t *capacity, uint32_t draw)
{
    for (uint32_t i = d->draw_count; i-- > 0;) {
        if (d->draws[i].draw == draw)
            return &d->draws[i];
        if (d->draws[i].draw < draw)
            break;
    }
    if (d->draw_count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 64;
        d->draws = gt_xrealloc(d->draws, *capacity * sizeof *d->draws);
    }
    /* insert in order (a unit that saw a later draw first is rare: a skipped
     * draw never reaches WM) */
    uint32_t at = d->draw_count;
    while (at > 0 && d->draws[at - 1].draw > draw)
        at--;
    memmove(&d->draws[at + 1], &d->draws[at], (d->draw_count - at) * sizeof *d->draws);
    d->draw_count++;
    struct draw_record *r = &d->draws[at];
    memset(r, 0, sizeof *r);
    r->draw = draw;
    r->issue_cycle = UINT64_MAX;
    return r;
}

/* A cycle of unit `from`'s clock in the clock of period `to_period`. */
static uint64_t convert_cycle(uint64_t cycle, const struct unit *from, uint64_t to_period)
{
    uint64_t p = unit_clock_period(from);
    return to_period && p != to_period ? cycle * p / to_period : cycle;
}

/* The mean share of the machine's thread slots the threads held over cycles. */
static double occupancy(uint64_t thread_cycles, uint64_t cycles, uint64_t hardware_threads)
{
    return hardware_threads && cycles
           ? (double)thread_cycles / ((double)cycles * (double)hardware_threads) : 0.0;
}

void dispatch_stats_collect(struct sim *sim, struct dispatch_stats *out)
{
    memset(out, 0, sizeof *out);
    uint32_t capacity = 0;
    uint64_t draw_period = 0;
    char text[64];
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        if (strcmp(unit_kind(u), "eu") == 0 && unit_param_text(u, "threads", text, sizeof text) == 0)
            out->hardware_threads += strtoull(text, NULL, 10);
    }
    /* VF first: its clock is the draws' clock */
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        if (unit_ops_of(u) != &vf_ops)
            continue;
        draw_period = unit_clock_period(u);
        const struct vf_observed_draw *v;
        uint32_t n = vf_observed_draws(u, &v);
        for (uint32_t k = 0; k < n; k++) {
            struct draw_record *r = draw_of(out, &capacity, v[k].draw + 1);
            r->skipped = v[k].skipped;
            r->vertices += v[k].vertices;
            r->instances += v[k].instances;
            if (v[k].first_cycle < r->issue_cycle)
                r->issue_cycle = v[k].first_cycle;
            if (v[k].last_cycle > r->completion_cycle)
                r->completion_cycle = v[k].last_cycle;
        }
    }
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        if (unit_ops_of(u) == &sf_ops) {
            const struct sf_observed_draw *s;
            uint32_t n = sf_observed_draws(u, &s);
            for (uint32_t k = 0; k < n; k++)
                draw_of(out, &capacity, s[k].draw + 1)->primitives_setup += s[k].primitives;
        } else if (is_real_wm(u)) {
            if (!draw_period)
                draw_period = unit_clock_period(u);
            const struct wm_observed_draw *w;
            uint32_t n = wm_observed_draws(u, &w);
            for (uint32_t k = 0; k < n; k++) {
                struct draw_record *r = draw_of(out, &capacity, w[k].draw + 1);
                r->primitives_rasterized += w[k].primitives;
                r->pixels_rasterized += w[k].pixels_rasterized;
                r->pixels_depth_rejected += w[k].pixels_depth_rejected;
                r->pixels_hiz_rejected += w[k].pixels_hiz_rejected;
                r->pixels_stencil_rejected += w[k].pixels_stencil_rejected;
                r->pixels_passed += w[k].pixels_passed;
                r->pixels_shaded += w[k].pixels_shaded;
                r->pixels_written += w[k].pixels_written;
                r->threads += w[k].threads;
                r->thread_cycles += convert_cycle(w[k].thread_cycles, u, draw_period);
                uint64_t first = convert_cycle(w[k].first_cycle, u, draw_period);
                uint64_t last = convert_cycle(w[k].last_cycle, u, draw_period);
                if (first < r->issue_cycle)
                    r->issue_cycle = first;     /* no VF record (a machine without one) */
                if (last > r->completion_cycle)
                    r->completion_cycle = last;
            }
        }
    }
    for (uint32_t k = 0; k < out->draw_count; k++) {
        struct draw_record *r = &out->draws[k];
        if (r->issue_cycle == UINT64_MAX)
            r->issue_cycle = r->completion_cycle;
        r->cycles = r->completion_cycle - r->issue_cycle + 1;
        r->occupancy = occupancy(r->thread_cycles, r->cycles, out->hardware_threads);
    }
    uint32_t wcap = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        if (unit_ops_of(u) != &vfe_ops)
            continue;
        const struct vfe_observed_walker *v;
        uint32_t n = vfe_observed_walkers(u, &v);
        for (uint32_t k = 0; k < n; k++) {
            if (out->walker_count == wcap) {
                wcap = wcap ? 2 * wcap : 64;
                out->walkers = gt_xrealloc(out->walkers, wcap * sizeof *out->walkers);
            }
            struct walker_record *r = &out->walkers[out->walker_count++];
            memset(r, 0, sizeof *r);
            r->walker = v[k].walker;
            r->refused = v[k].refused;
            r->simd = v[k].simd;
            r->issue_cycle = v[k].first_cycle;
            r->dispatched_cycle = v[k].dispatched_cycle;
            r->completion_cycle = v[k].last_cycle;
            r->cycles = v[k].last_cycle - v[k].first_cycle + 1;
            r->groups = v[k].groups;
            r->threads = v[k].threads_dispatched;
            r->threads_ended = v[k].threads_ended;
            r->thread_cycles = v[k].thread_cycles;
            r->occupancy = occupancy(r->thread_cycles, r->cycles, out->hardware_threads);
        }
    }
}

void dispatch_stats_free(struct dispatch_stats *d)
{
    free(d->draws);
    free(d->walkers);
    memset(d, 0, sizeof *d);
}

void dispatch_stats_emit(const struct dispatch_stats *d, struct stats_writer *w)
{
    char prefix[64];
    for (uint32_t k = 0; k < d->draw_count; k++) {
        const struct draw_record *r = &d->draws[k];
        snprintf(prefix, sizeof prefix, "draws.%u", r->draw);
        stats_set_prefix(w, prefix);
        stats_emit_u64(w, "issue_cycle", r->issue_cycle, "cycles",
                       "the cycle VF took the 3DPRIMITIVE (GT clock)");
        stats_emit_u64(w, "completion_cycle", r->completion_cycle, "cycles",
                       "its last vertex fetched or pixel written, whichever is later");
        stats_emit_u64(w, "cycles", r->cycles, "cycles", "issue to completion");
        stats_emit_u64(w, "vertices", r->vertices, "vertices", "vertices VF fetched");
        stats_emit_u64(w, "instances", r->instances, "instances", "the draw's instance count");
        stats_emit_u64(w, "primitives", r->primitives_setup, "primitives", "primitives SF set up");
        stats_emit_u64(w, "pixels_rasterized", r->pixels_rasterized, "pixels",
                       "lit pixels before depth/stencil");
        stats_emit_u64(w, "pixels_rejected_early", r->pixels_depth_rejected +
                       r->pixels_stencil_rejected, "pixels", "failed the early depth or stencil test");
        stats_emit_u64(w, "pixels_shaded", r->pixels_shaded, "pixels", "pixels in PS threads");
        stats_emit_u64(w, "pixels_written", r->pixels_written, "pixels",
                       "pixels (samples) the render target writes stored");
        stats_emit_u64(w, "threads", r->threads, "threads", "PS threads dispatched");
        stats_emit(w, "eu_occupancy", r->occupancy, "ratio",
                   "PS thread cycles / (cycles x the EUs' hardware threads)");
    }
    for (uint32_t k = 0; k < d->walker_count; k++) {
        const struct walker_record *r = &d->walkers[k];
        snprintf(prefix, sizeof prefix, "walkers.%u", r->walker);
        stats_set_prefix(w, prefix);
        stats_emit_u64(w, "issue_cycle", r->issue_cycle, "cycles",
                       "the cycle the front end took the GPGPU_WALKER");
        stats_emit_u64(w, "completion_cycle", r->completion_cycle, "cycles",
                       "its last thread's end");
        stats_emit_u64(w, "cycles", r->cycles, "cycles", "issue to completion");
        stats_emit_u64(w, "groups", r->groups, "groups", "thread groups dispatched");
        stats_emit_u64(w, "threads", r->threads, "threads", "threads dispatched");
        stats_emit(w, "eu_occupancy", r->occupancy, "ratio",
                   "thread cycles / (cycles x the EUs' hardware threads)");
    }
    stats_set_prefix(w, "");
}

int dispatch_stats_write_csv(const struct dispatch_stats *d, struct sim *sim, const char *dir,
                             struct gt_error *err)
{
    char path[4200];
    bool has_wm = false;
    for (uint32_t i = 0; i < sim_unit_count(sim) && !has_wm; i++)
        has_wm = is_real_wm(sim_unit(sim, i));
    if (d->draw_count || has_wm) {
        snprintf(path, sizeof path, "%s/draws.csv", dir);
        FILE *f = fopen(path, "w");
        if (!f)
            return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
        fprintf(f, "draw,skipped,issue_cycle,completion_cycle,cycles,vertices,instances,"
                   "primitives_setup,primitives_rasterized,pixels_rasterized,"
                   "pixels_depth_rejected,pixels_hiz_rejected,pixels_stencil_rejected,"
                   "pixels_passed,pixels_shaded,pixels_written,ps_threads,ps_thread_cycles,"
                   "eu_occupancy\n");
        for (uint32_t k = 0; k < d->draw_count; k++) {
            const struct draw_record *r = &d->draws[k];
            fprintf(f, "%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f\n",
                    r->draw, r->skipped, r->issue_cycle, r->completion_cycle, r->cycles,
                    r->vertices, r->instances, r->primitives_setup, r->primitives_rasterized,
                    r->pixels_rasterized, r->pixels_depth_rejected, r->pixels_hiz_rejected,
                    r->pixels_stencil_rejected, r->pixels_passed, r->pixels_shaded,
                    r->pixels_written, r->threads, r->thread_cycles, r->occupancy);
        }
        if (fclose(f) != 0)
            return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    }
    if (d->walker_count) {
        snprintf(path, sizeof path, "%s/walkers.csv", dir);
        FILE *f = fopen(path, "w");
        if (!f)
            return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
        fprintf(f, "walker,refused,simd,issue_cycle,dispatched_cycle,completion_cycle,cycles,"
                   "groups,threads,threads_ended,thread_cycles,eu_occupancy\n");
        for (uint32_t k = 0; k < d->walker_count; k++) {
            const struct walker_record *r = &d->walkers[k];
            fprintf(f, "%u,%d,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f\n",
                    r->walker, r->refused, r->simd, r->issue_cycle, r->dispatched_cycle,
                    r->completion_cycle, r->cycles, r->groups, r->threads, r->threads_ended,
                    r->thread_cycles, r->occupancy);
        }
        if (fclose(f) != 0)
            return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

/* The period of the clock the records count in: the first VF's (draws) or
 * front end's (walkers); the first domain's when there is none. */
static uint64_t record_period(struct sim *sim, const struct unit_ops *ops)
{
    for (uint32_t i = 0; i < sim_unit_count(sim); i++)
        if (unit_ops_of(sim_unit(sim, i)) == ops)
            return unit_clock_period(sim_unit(sim, i));
    return sim_clock_period(sim, 0);
}

void dispatch_stats_trace(const struct dispatch_stats *d, struct sim *sim, struct trace *t)
{
    if (!t)
        return;
    char name[48], args[512];
    if (d->draw_count) {
        uint64_t period = record_period(sim, &vf_ops);
        trace_track_name(t, 0, "draws (3DPRIMITIVE issue to completion)");
        for (uint32_t k = 0; k < d->draw_count; k++) {
            const struct draw_record *r = &d->draws[k];
            snprintf(name, sizeof name, "draw %u", r->draw);
            snprintf(args, sizeof args,
                     "\"cycles\":%" PRIu64 ",\"vertices\":%" PRIu64 ",\"primitives\":%" PRIu64
                     ",\"pixels_rasterized\":%" PRIu64 ",\"pixels_written\":%" PRIu64
                     ",\"ps_threads\":%" PRIu64 ",\"eu_occupancy\":%.4f",
                     r->cycles, r->vertices, r->primitives_setup, r->pixels_rasterized,
                     r->pixels_written, r->threads, r->occupancy);
            trace_track_slice(t, 0, name, r->issue_cycle * period,
                              (r->completion_cycle + 1) * period, args);
        }
    }
    if (d->walker_count) {
        uint64_t period = record_period(sim, &vfe_ops);
        trace_track_name(t, 1, "walkers (GPGPU_WALKER issue to completion)");
        for (uint32_t k = 0; k < d->walker_count; k++) {
            const struct walker_record *r = &d->walkers[k];
            snprintf(name, sizeof name, "walker %u", r->walker);
            snprintf(args, sizeof args,
                     "\"cycles\":%" PRIu64 ",\"groups\":%" PRIu64 ",\"threads\":%" PRIu64
                     ",\"simd\":%u,\"eu_occupancy\":%.4f",
                     r->cycles, r->groups, r->threads, r->simd, r->occupancy);
            trace_track_slice(t, 1, name, r->issue_cycle * period,
                              (r->completion_cycle + 1) * period, args);
        }
    }
}
