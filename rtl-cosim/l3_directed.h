/* rtl-cosim/l3_directed.h - directed checks of rtl/l3_slice.sv alone (through
 * l3_rtl.h) on the fill pools' corners: the R/W pool beside an RO partition
 * filled past its ways, and the pools with no ways (every way RO, or every way
 * DC) that fall back to every way; and the capacities' overflow pin (a bank queue, the
 * reply heap, a miss entry's waiters, each given one more than it holds). Each expected hit or miss is worked out here
 * by hand from units/l3/l3.c's rules (fill(), victim(): R/W data fills
 * [0, ways - ro), read-only data [dc, ways), an empty pool every way; the
 * victim is the pool's first way whose LRU bit is 0, all set: the pool's bits
 * cleared and its first way taken), not from the C unit's output. The random
 * runs (l3_random.h) reprogram L3CNTLREG, which flushes, long before a set's
 * R/W pool is full, so two pool mutants survived them (rtl-cosim/README.md
 * "Test adequacy"); the mutation runner (tools/mutant_main.c) runs these after
 * the random runs and the tests (suite `l3`) on the RTL as written. */
#ifndef GTSIM_RTL_COSIM_L3_DIRECTED_H
#define GTSIM_RTL_COSIM_L3_DIRECTED_H

#include <stdint.h>
#include <stdio.h>

#include "rtl-cosim/l3_rtl.h"

/* Runs every check on a model of `variant`; returns the number that failed,
 * each named on `report` (may be NULL). */
uint32_t l3_pool_checks(enum l3_rtl_variant variant, FILE *report);

#endif
