/* rtl-cosim/cosim_kinds.c - see cosim_kinds.h. */
#include "rtl-cosim/cosim_kinds.h"

#include <string.h>

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

const struct unit_ops *cosim_kind_find(const char *kind)
{
    for (const struct unit_ops *const *k = cosim_kinds; *k; k++)
        if (strcmp((*k)->kind, kind) == 0)
            return *k;
    return unit_kind_find(kind);
}

void cosim_kinds_each(void (*fn)(const struct unit_ops *ops, void *context), void *context)
{
    for (const struct unit_ops *const *k = cosim_kinds; *k; k++)
        fn(*k, context);
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
