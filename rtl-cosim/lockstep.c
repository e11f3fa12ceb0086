/* rtl-cosim/lockstep.c - see lockstep.h. */
#include "rtl-cosim/lockstep.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "units/registry.h"

int lockstep_unit_create(struct unit *u, struct gt_error *err)
{
    struct lockstep *ls = lockstep_of(u);
    ls->desc = cosim_desc_find(unit_kind(u));
    ls->first_mismatch = UINT64_MAX;
    ls->errors.keep = 1000;
    if (!ls->desc || !cosim_kind_mode(unit_kind(u), &ls->mode, &ls->broken) ||
        !(ls->desc->modes & 1u << ls->mode))
        return gt_error_set(err, "%s: not a co-simulation kind", unit_kind(u));
    if (ls->mode != COSIM_MODE_RTL) {
        ls->c_ops = unit_kind_find(ls->desc->c_kind);
        if (!ls->c_ops)
            return gt_error_set(err, "%s: no C unit of kind '%s'", unit_kind(u),
                                ls->desc->c_kind);
        /* The C unit takes the adapter's values of its params (same path and type). */
        const struct param_desc *mine = cosim_kind_find(unit_kind(u))->params;
        for (const struct param_desc *p = ls->c_ops->params; p && p->path; p++) {
            const struct param_desc *twin = param_find(mine, p->path);
            if (!twin || twin->type != p->type)
                return gt_error_set(err, "%s: the C unit's param '%s' has no twin here",
                                    unit_kind(u), p->path);
        }
        ls->c_unit = unit_create_inner(u, ls->c_ops, err);
        if (!ls->c_unit)
            return -1;
    }
    return ls->desc->create ? ls->desc->create(u, err) : 0;
}

static void observe(void *context, const struct port *p, const struct msg *m, uint64_t cycle)
{
    struct unit *u = context;
    lockstep_of(u)->desc->observe(u, p, m, cycle);
}

int lockstep_unit_realize(struct unit *u, struct gt_error *err)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->desc->realize(u, err) < 0)
        return -1;
    if (ls->c_unit) {
        if (ls->c_ops->realize && ls->c_ops->realize(ls->c_unit, err) < 0)
            return -1;
        /* beside any other observer (a --record-port recorder) */
        for (struct port *p = unit_first_port(u); p; p = unit_next_port(p))
            if (port_is_bound(p) && !port_add_observer(p, observe, u))
                return gt_error_set(err, "%s: port %s[%u] already has %d observers",
                                    unit_kind(u), port_name(p), port_index(p),
                                    PORT_MAX_OBSERVERS);
    }
    return ls->desc->rtl_open ? ls->desc->rtl_open(u, err) : 0;
}

void lockstep_unit_reset(struct unit *u)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->c_unit && ls->c_ops->reset)
        ls->c_ops->reset(ls->c_unit);
    if (ls->desc->reset)
        ls->desc->reset(u);
}

enum unit_activity lockstep_unit_tick(struct unit *u)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->mode == COSIM_MODE_RTL)
        return ls->desc->rtl_tick(u);
    enum unit_activity c = ls->c_ops->tick(ls->c_unit);
    return ls->desc->rtl_step(u, unit_cycle(u), c);
}

void lockstep_unit_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->desc->stats_derived)
        ls->desc->stats_derived(u, w);
}

void lockstep_unit_destroy(struct unit *u)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->desc && ls->desc->destroy)
        ls->desc->destroy(u);
    unit_destroy_inner(ls->c_unit);
    ls->c_unit = NULL;
    cosim_errors_free(&ls->errors);
}

void lockstep_report(struct unit *u, const char *fmt, ...)
{
    struct lockstep *ls = lockstep_of(u);
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (ls->errors.count < ls->max_reports)
        unit_log(u, SIM_LOG_ERROR, "%s", buf);
    cosim_errors_add(&ls->errors, "%s", buf);
}

void lockstep_log_from(struct unit *u, uint32_t from)
{
    struct lockstep *ls = lockstep_of(u);
    for (uint32_t i = from; i < ls->errors.count && i < ls->max_reports; i++)
        unit_log(u, SIM_LOG_ERROR, "%s", ls->errors.line[i]);
}

void lockstep_mismatch(struct unit *u, uint64_t cycle)
{
    struct lockstep *ls = lockstep_of(u);
    ls->mismatches++;
    if (ls->first_mismatch != UINT64_MAX)
        return;
    ls->first_mismatch = cycle;
    if (ls->desc->wave_window) {
        uint64_t to = cycle + ls->wave_after;
        ls->desc->wave_window(u, ls->wave_from, to < ls->wave_to ? to : ls->wave_to);
    }
    if (ls->stop_on_mismatch)
        sim_request_stop(unit_sim(u));
}

uint32_t lockstep_check_cycle(struct unit *u, const char *prefix, const char *what,
                              uint64_t c_cycle, uint64_t rtl_cycle)
{
    uint64_t d = c_cycle > rtl_cycle ? c_cycle - rtl_cycle : rtl_cycle - c_cycle;
    if (d <= lockstep_of(u)->cycle_tolerance)
        return 0;
    lockstep_report(u, "%s: field cycle (%s): c-model %" PRIu64 ", rtl %" PRIu64, prefix, what,
                    c_cycle, rtl_cycle);
    return 1;
}

uint64_t lockstep_c_stat(struct unit *u, const char *name)
{
    struct lockstep *ls = lockstep_of(u);
    if (!ls->c_unit)
        return 0;
    struct stats_writer *w = stats_writer_create();
    unit_write_stat_table(ls->c_unit, w);
    double v = 0;
    stats_lookup(w, name, &v);
    stats_writer_destroy(w);
    return (uint64_t)v;
}

void lockstep_emit_rows(struct unit *u, struct stats_writer *w, const struct lockstep_row *rows)
{
    struct lockstep *ls = lockstep_of(u);
    for (const struct lockstep_row *r = rows; r->name; r++) {
        uint64_t v = r->c_stat && ls->c_unit
                         ? lockstep_c_stat(u, r->c_stat)
                         : *(const uint64_t *)((const char *)unit_state(u) + r->offset);
        stats_emit_u64(w, r->name, v, r->measure, r->help);
    }
}

struct msg *lockstep_pop_generic(struct unit *u, struct port *in, uint64_t *bad_kind)
{
    struct msg *m;
    while ((m = port_pop(in))) {
        if (m->kind == MSG_GENERIC)
            return m;
        (*bad_kind)++;
        unit_log(u, SIM_LOG_NOTE, "dropped a %s message on port %s", msg_kind_name(m->kind),
                 port_name(in));
        msg_free(unit_sim(u), m);
    }
    return NULL;
}

/* ---- queries -------------------------------------------------------------- */

bool cosim_unit_is(const struct unit *u)
{
    enum cosim_mode mode;
    bool broken;
    return cosim_kind_mode(unit_kind(u), &mode, &broken);
}

uint64_t cosim_finish(struct unit *u)
{
    struct lockstep *ls = lockstep_of(u);
    if (ls->mode != COSIM_MODE_LOCKSTEP || ls->finished)
        return ls->mismatches;
    ls->finished = true;
    ls->desc->finish(u, unit_cycle(u));
    return ls->mismatches;
}

const struct cosim_errors *cosim_errors(const struct unit *u) { return &lockstep_of(u)->errors; }
uint64_t cosim_compared(const struct unit *u) { return lockstep_of(u)->compared; }
uint64_t cosim_first_mismatch(const struct unit *u) { return lockstep_of(u)->first_mismatch; }
