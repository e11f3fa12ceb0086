/* units/placeholder/placeholder.h - stand-ins for units not written yet.
 *
 * Models nothing of the hardware: a placeholder counts what it receives
 * (messages and bytes, by port) and, when it has outputs, forwards every
 * message round-robin over them, `throughput` messages per cycle; with no
 * outputs it is a sink. It takes any port name a link gives it, so the
 * machine's config can be written with the real units' port names and stay
 * the same when the real unit replaces the placeholder.
 *
 * Each placeholder kind is named after the unit it stands for (vf, vs, eu, l3,
 * ...) and carries the params the config already needs for it (an EU's
 * thread count), so configs name the real kinds from the start.
 * Ports: any name, any index, either direction (made when a link names them).
 * Stats: received, received_bytes, forwarded, sunk.
 */
#ifndef GTSIM_UNITS_PLACEHOLDER_H
#define GTSIM_UNITS_PLACEHOLDER_H

#include "fabric/unit.h"

/* All placeholder kinds, NULL-terminated. */
extern const struct unit_ops *const placeholder_kinds[];

#endif
