/* units/registry.c - the table of unit kinds. A new unit adds its ops here. */
#include "units/registry.h"

#include <string.h>

#include "units/blitter/blitter.h"
#include "units/cs/cs.h"
#include "units/cs_alu/cs_alu.h"
#include "units/dataport/dataport.h"
#include "units/eu/eu.h"
#include "units/fpu/fpu.h"
#include "units/gateway/gateway.h"
#include "units/host/host.h"
#include "units/icache/icache.h"
#include "units/l3/l3.h"
#include "units/math/math.h"
#include "units/memory/memory.h"
#include "units/td/td.h"
#include "units/urb/urb.h"
#include "units/urb_fence/urb_fence.h"
#include "units/vfe/vfe.h"
#include "units/vf/vf.h"
#include "units/vs/vs.h"
#include "units/hs/hs.h"
#include "units/te/te.h"
#include "units/ds/ds.h"
#include "units/gs/gs.h"
#include "units/sol/sol.h"
#include "units/clip/clip.h"
#include "units/sf/sf.h"
#include "units/pi/pi.h"
#include "units/placeholder/placeholder.h"
#include "units/om/om.h"
#include "units/sampler/sampler.h"
#include "units/wm/wm.h"
#include "units/qpu/qpu.h"
#include "units/vc4_host/vc4_host.h"
#include "units/vc4_sfu/vc4_sfu.h"
#include "units/vc4_sync/vc4_sync.h"
#include "units/vc4_l2/vc4_l2.h"
#include "units/vc4_tmu/vc4_tmu.h"
#include "units/vc4_v3d/vc4_v3d.h"
#include "units/vc4_vpm/vc4_vpm.h"

static const struct unit_ops *const real_kinds[] = {
    &host_ops,
    &cs_ops,
    &cs_alu_ops,
    &eu_ops,
    &fpu_ops,
    &td_ops,
    &l3_ops,
    &math_ops,
    &memory_ops,
    &vfe_ops,
    &dataport_ops,
    &gateway_ops,
    &pi_ops,
    &icache_ops,
    &blitter_ops,
    &urb_ops,
    &urb_fence_ops,
    &vf_ops,
    &vs_ops,
    &hs_ops,
    &te_ops,
    &ds_ops,
    &gs_ops,
    &sol_ops,
    &clip_ops,
    &sf_ops,
    &wm_ops,
    &om_ops,
    &sampler_ops,
    /* VideoCore IV (issue 15) */
    &qpu_ops,
    &vc4_host_ops,
    &vc4_sfu_ops,
    &vc4_sync_ops,
    &vc4_l2_ops,
    &vc4_tmu_ops,
    &vc4_v3d_ops,
    &vc4_vpm_ops,
    NULL
};

void unit_kinds_each(void (*fn)(const struct unit_ops *ops, void *context), void *context)
{
    for (const struct unit_ops *const *k = real_kinds; *k; k++)
        fn(*k, context);
    for (const struct unit_ops *const *k = placeholder_kinds; *k; k++) {
        /* A real unit replaces its placeholder of the same name. */
        bool replaced = false;
        for (const struct unit_ops *const *r = real_kinds; *r; r++)
            if (strcmp((*r)->kind, (*k)->kind) == 0)
                replaced = true;
        if (!replaced)
            fn(*k, context);
    }
}

const struct unit_ops *unit_kind_find(const char *kind)
{
    /* impl = "placeholder" (fabric/topology.c looks up "<kind>:<impl>"):
     * the stand-in even where a real unit of that kind exists, for a
     * machine whose generation the real unit does not model yet. */
    const char *suffix = ":placeholder";
    size_t n = strlen(kind), m = strlen(suffix);
    if (n > m && strcmp(kind + n - m, suffix) == 0) {
        for (const struct unit_ops *const *k = placeholder_kinds; *k; k++)
            if (strlen((*k)->kind) == n - m && strncmp((*k)->kind, kind, n - m) == 0)
                return *k;
        return NULL;
    }
    for (const struct unit_ops *const *k = real_kinds; *k; k++)
        if (strcmp((*k)->kind, kind) == 0)
            return *k;
    for (const struct unit_ops *const *k = placeholder_kinds; *k; k++)
        if (strcmp((*k)->kind, kind) == 0)
            return *k;
    return NULL;
}
