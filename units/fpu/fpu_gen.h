/* units/fpu/fpu_gen.h - seeded random FPU requests for tests and the
 * co-simulation: every operation, conditional modifier, rounding mode, denormal
 * mode, saturate and source modifier; operands drawn with special values
 * over-represented (signed zeros, infinities, quiet and signalling NaNs,
 * denormals, FLT_MAX/FLT_MIN, rounding ties, integer range edges, values near
 * 2^31/2^32, MAD addends that cancel the product). Deterministic per seed. */
#ifndef GTSIM_UNITS_FPU_FPU_GEN_H
#define GTSIM_UNITS_FPU_FPU_GEN_H

#include <stdint.h>

#include "units/fpu/fpu.h"

struct fpu_gen {
    uint64_t s;                 /* xorshift state (never 0) */
    uint64_t per_op[FPU_OP_COUNT];
    uint64_t per_rm[4];
    uint64_t ftz, keep;         /* requests per denormal mode (single precision) */
    uint64_t df;                /* requests with DF lanes or a DF conversion */
};

/* The special float operands the generator favours (signed zeros, infinities,
 * NaNs quiet and signalling, denormals, FLT_MAX/FLT_MIN, ties, 2^31/2^32). */
#define FPU_SPECIAL_F_COUNT 42
extern const uint32_t fpu_special_f[FPU_SPECIAL_F_COUNT];
/* The same for DF (and values near float rounding points and range edges). */
#define FPU_SPECIAL_D_COUNT 40
extern const uint64_t fpu_special_d[FPU_SPECIAL_D_COUNT];

void fpu_gen_init(struct fpu_gen *g, uint64_t seed);
uint64_t fpu_gen_next(struct fpu_gen *g);
/* A random valid request (ALT never set). */
void fpu_gen_request(struct fpu_gen *g, struct fpu_request *q);

#endif
