/* rtl-cosim/cosim_kinds.h - the kind lookup of gtsim-cosim: the co-simulation
 * kinds (cs_alu:rtl, cs_alu:lockstep, cs_alu:record and the *_broken ones),
 * the stimulus, sink and replay kinds, then everything gtsim knows. */
#ifndef GTSIM_RTL_COSIM_COSIM_KINDS_H
#define GTSIM_RTL_COSIM_COSIM_KINDS_H

#include "fabric/unit.h"

/* The kind named `kind`. An adapter kind ("om:lockstep") comes with its own
 * tables joined to its C kind's ("om"'s unit_ops): its own params and ports
 * first (they win on a name both have; the adapter's state holds them), then
 * every param and port of the C kind it does not have, the params stored past
 * the adapter's own state at the C unit's own offsets (unit_create_inner copies
 * them by name into the C unit). So a param or port added to a C unit is
 * accepted by its adapters with no change here. */
const struct unit_ops *cosim_kind_find(const char *kind);
/* An adapter kind's own ops (its tables alone, not joined), or NULL. */
const struct unit_ops *cosim_kind_own_tables(const char *kind);

/* What a co-simulation kind's name says after its ':' ("l3:lockstep_broken"):
 * the mode, and whether the RTL is the variant built with `define BROKEN.
 * The adapters' one create op reads it from unit_kind(). False when the name
 * has no such suffix. */
enum cosim_mode { COSIM_MODE_RTL, COSIM_MODE_LOCKSTEP, COSIM_MODE_RECORD };
#include <stdbool.h>
bool cosim_kind_mode(const char *kind, enum cosim_mode *mode, bool *broken);

/* The descriptor of the co-simulated kind an adapter kind's name starts with
 * ("l3" for "l3:lockstep"), or NULL. */
struct lockstep_desc;
const struct lockstep_desc *cosim_desc_find(const char *kind);

/* Calls fn for every co-simulation kind (not the gtsim ones). */
void cosim_kinds_each(void (*fn)(const struct unit_ops *ops, void *context), void *context);

#endif
