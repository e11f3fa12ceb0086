/* rtl-cosim/cs_alu_directed.h - directed checks of rtl/cs_alu.sv alone, on the
 * pins the fabric adapters never drive that way: cfg_cpi 0, a count over 256
 * (clamped before the pin by cs_alu_rtl_set_request, end to end), the flags of the first request after reset, resp_ready high while the ALU
 * runs, a second request held valid while the first runs. Each expected value
 * is the C unit's documented behaviour (units/cs_alu/cs_alu.h: answered on
 * T + 1 + n x cpi, count clamped to 256, flags ZF/CF start clear) or worked out
 * here by hand. The mutation runner (tools/mutant_main.c) runs them on every
 * cs_alu mutant after the random runs: mutants of these paths survived the
 * random lockstep runs, which drive a request only when the C unit takes one
 * and resp_ready only when the C unit answers (rtl-cosim/README.md "Test
 * adequacy"); the tests (suite `rtl`) run them on the RTL as written. */
#ifndef GTSIM_RTL_COSIM_CS_ALU_DIRECTED_H
#define GTSIM_RTL_COSIM_CS_ALU_DIRECTED_H

#include <stdint.h>
#include <stdio.h>

#include "rtl-cosim/cs_alu_rtl.h"

/* Runs every check on a model of `variant`; returns the number that failed,
 * each named on `report` (may be NULL). */
uint32_t cs_alu_directed_checks(enum cs_alu_rtl_variant variant, FILE *report);

#endif
