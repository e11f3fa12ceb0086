/* rtl-cosim/cosim_kinds.c - see cosim_kinds.h. */
#include "rtl-cosim/cosim_kinds.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "fabric/alloc.h"

#include "rtl-cosim/cs_alu_cosim.h"
#include "rtl-cosim/fpu_cosim.h"
#include "rtl-cosim/fpu_random.h"
#include "rtl-cosim/l3_cosim.h"
#include "rtl-cosim/l3_stim.h"
#include "rtl-cosim/om_cosim.h"
#include "rtl-cosim/qpu_cosim.h"
#include "rtl-cosim/replay.h"
#include "rtl-cosim/stim.h"
#include "units/registry.h"

static const struct unit_ops *const cosim_kinds[] = {
    &cs_alu_rtl_ops, &cs_alu_lockstep_ops, &cs_alu_record_ops, &cs_alu_rtl_broken_ops,
    &cs_alu_lockstep_broken_ops, &cs_alu_stim_ops, &cosim_sink_ops, &cosim_player_ops,
    &cosim_checker_ops, &l3_rtl_ops, &l3_lockstep_ops, &l3_rtl_broken_ops,
    &l3_lockstep_broken_ops, &l3_stim_ops, &fpu_rtl_ops, &fpu_lockstep_ops,
    &fpu_rtl_broken_ops, &fpu_lockstep_broken_ops, &fpu_stim_ops, &om_rtl_ops, &om_lockstep_ops,
    &om_rtl_broken_ops, &om_lockstep_broken_ops, &qpu_rtl_ops, &qpu_lockstep_ops,
    &qpu_rtl_broken_ops, &qpu_lockstep_broken_ops, NULL
};

static const struct lockstep_desc *const cosim_descs[] = {
    &cs_alu_cosim_desc, &fpu_cosim_desc, &l3_cosim_desc, &om_cosim_desc, &qpu_cosim_desc, NULL
};

const struct lockstep_desc *cosim_desc_find(const char *kind)
{
    const char *colon = strchr(kind, ':');
    for (const struct lockstep_desc *const *d = cosim_descs; colon && *d; d++)
        if (strlen((*d)->c_kind) == (size_t)(colon - kind) &&
            strncmp((*d)->c_kind, kind, (size_t)(colon - kind)) == 0)
            return *d;
    return NULL;
}

#define COSIM_KIND_COUNT (sizeof cosim_kinds / sizeof cosim_kinds[0] - 1)

/* The kinds as the lookup gives them: an adapter's own tables joined with its
 * C kind's (cosim_kinds.h). Computed once, on the first lookup, and never
 * written again: C cannot join two files' const tables at compile time, so
 * this is the one table of the lookup built at run time (read-only after
 * pthread_once, so --threads and several simulations share it safely). */
static struct {
    pthread_once_t once;
    struct unit_ops ops[COSIM_KIND_COUNT];
} joined = { .once = PTHREAD_ONCE_INIT };

/* The state offset of the C kind's params in an adapter's state: after the
 * adapter's own state, aligned as any object. */
static size_t inner_base(const struct unit_ops *adapter)
{
    size_t align = _Alignof(max_align_t);
    return (adapter->state_size + align - 1) / align * align;
}

static void join_tables(struct unit_ops *out, const struct unit_ops *adapter,
                        const struct unit_ops *c_ops)
{
    *out = *adapter;
    size_t base = inner_base(adapter), n = 0, m = 0;
    for (const struct param_desc *p = adapter->params; p && p->path; p++)
        n++;
    for (const struct param_desc *p = c_ops->params; p && p->path; p++)
        n++;
    struct param_desc *params = gt_xcalloc(n + 1, sizeof *params);
    n = 0;
    for (const struct param_desc *p = adapter->params; p && p->path; p++)
        params[n++] = *p;
    for (const struct param_desc *p = c_ops->params; p && p->path; p++)
        if (!param_find(adapter->params, p->path)) {
            params[n] = *p;
            params[n++].offset = base + p->offset;
        }
    for (const struct port_desc *d = adapter->ports; d && d->name; d++)
        m++;
    for (const struct port_desc *d = c_ops->ports; d && d->name; d++)
        m++;
    struct port_desc *ports = gt_xcalloc(m + 1, sizeof *ports);
    m = 0;
    for (const struct port_desc *d = adapter->ports; d && d->name; d++)
        ports[m++] = *d;
    for (const struct port_desc *d = c_ops->ports; d && d->name; d++) {
        bool own = false;
        for (const struct port_desc *a = adapter->ports; a && a->name && !own; a++)
            own = strcmp(a->name, d->name) == 0;
        if (!own)
            ports[m++] = *d;
    }
    out->params = params;
    out->ports = ports;
    out->state_size = base + c_ops->state_size;
}

static void join_all(void)
{
    for (size_t i = 0; i < COSIM_KIND_COUNT; i++) {
        const struct lockstep_desc *d = cosim_desc_find(cosim_kinds[i]->kind);
        const struct unit_ops *c_ops = d ? unit_kind_find(d->c_kind) : NULL;
        if (c_ops)
            join_tables(&joined.ops[i], cosim_kinds[i], c_ops);
        else
            joined.ops[i] = *cosim_kinds[i];
    }
}

const struct unit_ops *cosim_kind_find(const char *kind)
{
    pthread_once(&joined.once, join_all);
    for (size_t i = 0; i < COSIM_KIND_COUNT; i++)
        if (strcmp(joined.ops[i].kind, kind) == 0)
            return &joined.ops[i];
    return unit_kind_find(kind);
}

const struct unit_ops *cosim_kind_own_tables(const char *kind)
{
    for (const struct unit_ops *const *k = cosim_kinds; *k; k++)
        if (strcmp((*k)->kind, kind) == 0)
            return *k;
    return NULL;
}

void cosim_kinds_each(void (*fn)(const struct unit_ops *ops, void *context), void *context)
{
    pthread_once(&joined.once, join_all);
    for (size_t i = 0; i < COSIM_KIND_COUNT; i++)
        fn(&joined.ops[i], context);
}

bool cosim_kind_mode(const char *kind, enum cosim_mode *mode, bool *broken)
{
    static const struct { const char *suffix; enum cosim_mode mode; bool broken; } names[] = {
        { "rtl", COSIM_MODE_RTL, false },
        { "lockstep", COSIM_MODE_LOCKSTEP, false },
        { "record", COSIM_MODE_RECORD, false },
        { "rtl_broken", COSIM_MODE_RTL, true },
        { "lockstep_broken", COSIM_MODE_LOCKSTEP, true },
    };
    const char *colon = strchr(kind, ':');
    for (size_t i = 0; colon && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(colon + 1, names[i].suffix) == 0) {
            *mode = names[i].mode;
            *broken = names[i].broken;
            return true;
        }
    return false;
}
