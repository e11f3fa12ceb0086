/* units/registry.h - every unit kind gtsim knows, for the config and `gtsim units`. */
#ifndef GTSIM_UNITS_REGISTRY_H
#define GTSIM_UNITS_REGISTRY_H

#include "fabric/unit.h"

/* Calls fn for every kind, real kinds first, then placeholders. */
void unit_kinds_each(void (*fn)(const struct unit_ops *ops, void *context), void *context);

/* The kind named `kind`, or NULL. */
const struct unit_ops *unit_kind_find(const char *kind);

#endif
