/* units/fpu/fpu.h - the FPU pipe of one EU for one group of four 32-bit lanes
 * or two 64-bit (DF) lanes (the SIMD4 width of a Gen9 FPU: 003 L19171 "SIMD4
 * still executes in 2 cycles" read as a 4-wide 32-bit datapath, notes §11.1).
 * One operation is issued per cycle and its results leave `depth` cycles later.
 *
 * Semantics are the EU executor's (units/eu/eu_exec.c) for one instruction on
 * four channels, as cr0.0 sets them (003 L20019-20065, L21377-22100):
 *  - source read: F sources flushed to a signed zero when cr0.0[7] = 0
 *    (single-precision denormals flushed) and then the source modifiers abs,
 *    neg, applied to NaNs too (L21571; L21415 says the opposite, notes §14.13;
 *    the EU applies them);
 *  - ADD s0+s1, MUL s0*s1, MAD s0 + s1*s2 fused (one rounding, L21622-21635),
 *    rounded by cr0.0[5:4] (RTNE, RU, RD, RTZ, L21575-21614): overflow to inf or
 *    fmax by mode, x-x = +0 (-0 under RD), denormal results kept and then
 *    flushed after rounding when cr0.0[7] = 0;
 *  - NaNs (L21556-21571): a NaN source gives that NaN, quietened; with two or
 *    three NaN sources the first in the order ADD/MUL s0, s1 and MAD s1, s2,
 *    s0 (the order the EU's host arithmetic picks, x86 SSE/FMA: see
 *    tests/units/test_fpu.c); an invalid operation (inf-inf, 0*inf) gives the
 *    qNaN indefinite 0xffc00000;
 *  - SEL: cond L = min, GE = max (L21702-21739): a NaN source is ignored, two
 *    NaNs give the first source quietened, -0 < +0; the other conditions pick
 *    s0 when "s0 cond s1" holds, else s1; no flags; cond 0 (a predicated sel
 *    in the EU) picks s0;
 *  - CMP (L21916-22058): flags = s0 cond s1 (Z NZ G GE L LE U); false for EQ..LE
 *    when a source is NaN, true for NZ; results all ones / zero;
 *  - MOV with a type change among F, D, UD (L21657-21694, L22060-22100):
 *    F->D/UD rounds toward zero (or by cr0.0[5:4] when cr0.0[12] = 1),
 *    saturates to the type's range, NaN -> 0; D/UD->F rounds to nearest even
 *    (the EU's choice, see "not modelled"); D<->UD wraps, or clamps with sat;
 *  - saturate (.sat) on an F destination clamps to [0.0, 1.0], NaN -> +0,
 *    before the output flush; on an integer destination it clamps to the range;
 *  - a conditional modifier on ADD/MUL/MAD/MOV sets the flags from the result
 *    as the destination holds it before saturation and before the denormal
 *    flush (L20872-20895), NaN -> false except NZ and U.
 * DF (ctrl FPU_CTRL_DF for ADD..CMP; type FPU_T_DF on either side of a MOV):
 * two lanes, the same rules in double precision with cr0.0[6] for DF denormals;
 * MOV F->DF is exact (NaNs quietened), DF->F rounds by cr0.0[5:4] (NaNs keep
 * their top payload, quietened) and flushes by cr0.0[7], D/UD->DF is exact,
 * DF->D/UD as F->D/UD; min/max of two DF NaNs give src0 unquietened (the EU
 * widens F to double for min/max, which quietens; DF is not widened).
 * Lane layout: 32-bit lane l is src[i][l] / result[l]; 64-bit lane l is
 * src[i][2l] (low) and src[i][2l+1] (high), likewise result; a DF request uses
 * mask bits 1:0 and flags bits 1:0.
 * Lanes whose `mask` bit is 0 produce result 0 and flag 0.
 *
 * Ports: "request" in (struct fpu_request), "response" out (struct
 * fpu_response), both MSG_GENERIC; the response carries the request's tag.
 * Params: depth (stages, default 4 = the EU's fpu_latency default, 1..64).
 * Timing: a request taken on cycle T is sent on T + depth. The pipe is a shift
 * register of `depth` stages; when the last stage holds a result the response
 * channel refuses, the whole pipe stalls (nothing moves, nothing is taken).
 * Stats: requests, responses, lane_ops, stall_cycles, bad_kind, bad_requests.
 * Where the EU executor (and so this unit) disagrees with the seed:
 *  - int -> F rounds to nearest even whatever cr0.0[5:4] says; the seed says
 *    "use the current rounding mode" (L21694-21700): mov (F<-D) 0x01000001
 *    under RU gives 0x4b800000, the seed 0x4b800001;
 *  - post conditions are taken before the format conversion and before the
 *    denormal flush, the seed takes them "after all the clamping, normalizing,
 *    or format conversion logic" (L20866-20873, "equivalent to ... a separate
 *    cmp" of the result): mov.z (D<-F) 0.5 writes 0 with flag 0 (seed 1);
 *    mov.l (UD<-F) -1.0 writes 0 with flag 1 (seed 0); mul.z of a result that
 *    flushes to 0 gives flag 0 (seed 1);
 *  - cr0.0[11] IEEE MinMax (L20025) is ignored: min/max with an sNaN always
 *    return the other source (the DX rule), never the quietened sNaN of the
 *    IEEE rule (L21702-21739);
 *  - sNaNs pass unquietened through non-raw moves (modifiers, .sat aside) and
 *    compare-selects (L21565 quietens on any operation but raw moves); DF
 *    min/max of two sNaNs returns src0 unquietened (L21732/L21738: "qNaN (of
 *    the first source)"; F is quietened, by the host's widening to double);
 *  - source modifiers change a NaN's sign (L21571; L21415 says they do not);
 *  - .o (overflow) is never set (L20890);
 *  - a DF->F conversion whose result is an F denormal is flushed when cr0.0[7]
 *    = 0; L21417 says denormal outputs "are retained if there is a format
 *    conversion" (stated for mixed HF/F mode; whether it covers DF->F is not
 *    said).
 * Not modelled: HF, ALT mode (cr0.0[0]: refused as a
 * bad request), IEEE exception flags, cr0.0[11] min/max sNaN preference (the EU
 * ignores it too), accumulator sources, the EU's predicated sel; int->F follows
 * the EU, which rounds to nearest even whatever cr0 says, while the seed says
 * "use the current rounding mode" (L21694-21700).
 */
#ifndef GTSIM_UNITS_FPU_FPU_H
#define GTSIM_UNITS_FPU_FPU_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"

#define FPU_LANES 4
#define FPU_DF_LANES 2
#define FPU_MAX_DEPTH 64

enum fpu_op { FPU_OP_ADD = 0, FPU_OP_MUL, FPU_OP_MAD, FPU_OP_SEL, FPU_OP_CMP, FPU_OP_MOV,
              FPU_OP_COUNT };
/* Conditional modifiers, the EU encoding (003 L20846-20895). */
enum fpu_cond { FPU_CM_NONE = 0, FPU_CM_Z, FPU_CM_NZ, FPU_CM_G, FPU_CM_GE, FPU_CM_L, FPU_CM_LE,
                FPU_CM_U = 9 };
/* MOV types. */
enum fpu_type { FPU_T_F = 0, FPU_T_D = 1, FPU_T_UD = 2, FPU_T_DF = 3 };

/* ctrl bits */
#define FPU_CTRL_SAT 1u                         /* .sat */
#define FPU_CTRL_NEG(i) (1u << (1 + 2 * (i)))   /* -src i */
#define FPU_CTRL_ABS(i) (1u << (2 + 2 * (i)))   /* (abs)src i */
#define FPU_CTRL_STYPE_SHIFT 8                  /* MOV: source type, 2 bits */
#define FPU_CTRL_DTYPE_SHIFT 10                 /* MOV: destination type, 2 bits */
#define FPU_CTRL_DF (1u << 12)                  /* ADD..CMP: DF, two 64-bit lanes */

/* cr0.0 bits the pipe reads (others ignored; ALT refused). */
#define FPU_MODE_ALT 1u
#define FPU_MODE_RM_SHIFT 4                     /* 0 RTNE, 1 RU, 2 RD, 3 RTZ */
#define FPU_MODE_SP_DENORM 0x80u                /* 1: keep single-precision denormals */
#define FPU_MODE_DP_DENORM 0x40u                /* 1: keep double-precision denormals */
#define FPU_MODE_F2I_RM 0x1000u                 /* 1: F->int rounds by RM, 0: RTZ */

/* "request" payload, 64 bytes (no pointers: recordings replay it as is). */
struct fpu_request {
    uint8_t op;                 /* enum fpu_op */
    uint8_t cond;               /* enum fpu_cond */
    uint8_t mask;               /* lanes enabled, bits 3:0 */
    uint8_t reserved;           /* MBZ */
    uint32_t ctrl;              /* FPU_CTRL_* */
    uint32_t mode;              /* cr0.0 */
    uint32_t pad;               /* MBZ */
    uint32_t src[3][FPU_LANES]; /* raw 32-bit operands per source and lane */
};

/* "response" payload, 24 bytes. */
struct fpu_response {
    uint32_t result[FPU_LANES]; /* raw 32-bit results */
    uint32_t flags;             /* bit l: lane l's condition (CMP, or a cond modifier) */
    uint32_t status;            /* 0, or 1 for a bad request (results and flags 0) */
};

/* The pure function: one request's response. Returns false for a bad request
 * (unknown op or type, ALT mode, nonzero MBZ fields). */
bool fpu_compute(const struct fpu_request *q, struct fpu_response *r);
const char *fpu_op_name(unsigned op);
/* A request message's payload as a struct fpu_request; a short payload
 * becomes a bad request. */
void fpu_request_from_payload(struct fpu_request *q, const void *payload, uint32_t size);

/* The pipeline, shared with the co-simulation adapters. */
struct fpu_stage {
    bool valid;
    uint32_t tag;
    struct fpu_response r;
};
struct fpu_engine {
    uint32_t depth;             /* param */
    struct fpu_stage st[FPU_MAX_DEPTH];
    uint32_t occupancy;
    uint64_t requests, responses, lane_ops, stall_cycles, bad_requests;
};
void fpu_engine_reset(struct fpu_engine *e);
/* The result in the last stage, or NULL. */
const struct fpu_stage *fpu_engine_out(const struct fpu_engine *e);
/* One cycle: `out_taken` says whether the last stage's result was sent (must
 * be true when it left, false when it was held); when the pipe moves, `q`
 * (may be NULL) enters stage 0. Returns false when the pipe stalled (q not
 * taken; nothing changes). stall_cycles is the caller's to count. */
bool fpu_engine_step(struct fpu_engine *e, bool out_taken, const struct fpu_request *q,
                     uint32_t tag);
/* Whether the pipe moves this cycle given whether the output can be sent. */
static inline bool fpu_engine_moves(const struct fpu_engine *e, bool can_send)
{
    return can_send || !e->st[e->depth - 1].valid;
}

extern const struct unit_ops fpu_ops;

#endif
