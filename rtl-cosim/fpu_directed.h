/* rtl-cosim/fpu_directed.h - directed operands through rtl/fpu_pipe.sv alone
 * (fpu_rtl.h, depth 1), each answer compared with the C pipe's own computation
 * (fpu_compute, units/fpu/fpu.h, itself checked bit for bit against the EU
 * executor in tests/units/test_fpu.c): every pair of the special operands
 * (units/fpu/fpu_gen.h: signed zeros, infinities, NaNs, denormals, FLT_MIN/MAX,
 * ties, ...) for ADD, MUL, SEL and CMP, every MAD triple, in every rounding mode
 * with denormals flushed and kept, single and double; and products far below
 * the smallest denormal (rounded up to it under RU, to 0 otherwise), exact sums
 * and products under RU and RD. A smaller cut of the suite's special-operand
 * tests (suite `fpu`), for the mutation runner (tools/mutant_main.c), which
 * runs it before the random runs: the random operands rarely reach these
 * corners, and it kills most mutants in a fraction of a second. */
#ifndef GTSIM_RTL_COSIM_FPU_DIRECTED_H
#define GTSIM_RTL_COSIM_FPU_DIRECTED_H

#include <stdint.h>
#include <stdio.h>

#include "rtl-cosim/fpu_rtl.h"

/* Requests through a model of `variant` until `stop_after` of them differ from
 * fpu_compute (0: run all); the number that differed, the first ones named on
 * `report` (may be NULL). *requests (may be NULL) gets the number sent. */
uint64_t fpu_directed_checks(enum fpu_rtl_variant variant, uint64_t stop_after, FILE *report,
                             uint64_t *requests);

/* The pipe held (resp_ready low with an answer waiting) for four edges at
 * depth 3, then drained: the failures (0 is right), the first ones named on
 * `report` (may be NULL). */
uint32_t fpu_hold_check(enum fpu_rtl_variant variant, FILE *report);

#endif
