/* units/fpu/fpu.h - the FPU pipe of one EU for one group of four 32-bit lanes
 * or two 64-bit (DF) lanes (the SIMD4 width of a Gen9 FPU: 003 L19171 "SIMD4
 * still executes in 2 cycles" read as a 4-wide 32-bit datapath, notes §11.1).
 * One operation is issued per cycle and its results leave `depth` cycles later.
 * Not modelled: half precision and mixed HF/F mode, ALT mode (refused as a bad
 * request), the IEEE exception flags, the .r (round-increment) modifier,
 * accumulator sources, and any use by the EU itself (the EU executes its own
 * float instructions; this unit exists so the FPU RTL can be co-simulated).
 *
 * Semantics are the EU executor's (units/eu/eu_exec.c) for one instruction on
 * four channels, as cr0.0 sets them (003 L20019-20065, L21377-22100):
 *  - source read: F sources flushed to a signed zero when cr0.0[7] = 0
 *    (single-precision denormals flushed; never for a MOV F->F or DF->DF,
 *    whose source and result keep their denormals with or without .sat and
 *    source modifiers, 004 L22970-22974) and then the source modifiers abs,
 *    neg, applied to NaNs too (decision, see "seed choices" below);
 *  - ADD s0+s1, MUL s0*s1, MAD s0 + s1*s2 fused (one rounding, L21622-21635),
 *    rounded by cr0.0[5:4] (RTNE, RU, RD, RTZ, L21575-21614): overflow to inf or
 *    fmax by mode, x-x = +0 (-0 under RD), denormal results kept and then
 *    flushed after rounding when cr0.0[7] = 0;
 *  - NaNs (L21556-21571): a NaN source gives that NaN, quietened; with two or
 *    three NaN sources the first in the order ADD/MUL s0, s1 and MAD s1, s2,
 *    s0 (the order the EU's host arithmetic picks, x86 SSE/FMA: see
 *    tests/units/test_fpu.c); an invalid operation (inf-inf, 0*inf) gives the
 *    qNaN indefinite 0xffc00000;
 *  - every operation but a raw move quietens an sNaN (L21565, "Raw moves do
 *    not ... quietize NaN values"; L21813-21821 lists mov "except for raw
 *    moves" and sel among the operations producing a qNaN): a raw move is MOV
 *    F->F or DF->DF without modifiers and without .sat; SEL quietens a NaN it
 *    selects, whatever its condition;
 *  - SEL: cond L = min, GE = max (L21702-21739), -0 < +0. cr0.0[11] (IEEE
 *    MinMax, L20025-20029) = 0: a NaN source is ignored (the DX rule); = 1: an
 *    sNaN source is preferred to a number and gives its quietened value. Two
 *    NaNs give the first source quietened (L21728-21738 "qNaN (of the first
 *    source)"), except that under cr0.0[11] = 1 a qNaN and an sNaN give the
 *    quietened sNaN (L21730, L21736). The other conditions pick s0 when "s0
 *    cond s1" holds, else s1; no flags; cond 0 (a predicated sel in the EU)
 *    picks s0;
 *  - CMP (L21916-22058): flags = s0 cond s1 (Z NZ G GE L LE U); false for EQ..LE
 *    when a source is NaN, true for NZ; results all ones / zero;
 *  - MOV with a type change among F, D, UD (L21657-21694, L22060-22100):
 *    F->D/UD rounds toward zero (or by cr0.0[5:4] when cr0.0[12] = 1),
 *    saturates to the type's range, NaN -> 0; D/UD->F rounds by cr0.0[5:4]
 *    ("use the current rounding mode", L21694-21700); D<->UD wraps, or clamps
 *    with sat;
 *  - saturate (.sat) on an F destination clamps to [0.0, 1.0], NaN -> +0,
 *    before the output flush; on an integer destination it clamps to the range;
 *  - a conditional modifier on ADD/MUL/MAD/MOV sets the flags from the result
 *    "after all the clamping, normalizing, or format conversion logic"
 *    (L20866-20873): the value the destination holds, converted to its type
 *    and with denormals flushed, but before .sat (L20873). NC (NaN) is the
 *    computed value's, so a NaN converted to D/UD (written 0) still forces
 *    Z..LE false and sets U. .o (L20890, "outside the range of the destination
 *    data type"): a float result that is +/-inf from finite sources (ADD/MUL:
 *    s0, s1; MAD: s0, s1, s2; DF->F: its source), an F/DF->D/UD conversion out
 *    of range (inf included, NaN not), a D/UD->D/UD move out of range (after
 *    the modifiers); never for int->F/DF, F->DF or same-type float moves.
 *    An overflow that rounds to fmax (RTZ, RD/RU away from inf) is not seen;
 * DF (ctrl FPU_CTRL_DF for ADD..CMP; type FPU_T_DF on either side of a MOV):
 * two lanes, the same rules in double precision with cr0.0[6] for DF denormals;
 * MOV F->DF is exact (NaNs quietened), DF->F rounds by cr0.0[5:4] (NaNs keep
 * their top payload, quietened) and flushes by cr0.0[7], D/UD->DF is exact,
 * DF->D/UD as F->D/UD.
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
 * Seed choices (the EU executor makes the same):
 *  - source modifiers on a NaN: L21571 ("The EU applies numeric source
 *    modifiers ... to NaN source values ... possibly changing the sign bit")
 *    against L21415 ("Source modifiers are not applied to NAN", one terse
 *    line of the "Complete Listing of Deviations ... vs IEEE-754",
 *    L21409-21417). L21571 is the NaN section's own rule and says what
 *    happens to the sign and the payload ("NaN sign bits are normally don't
 *    care values", L21571-21573), so it is followed: modifiers are applied
 *    (-sNaN 0x7f800001 on a non-raw move gives 0xffc00001);
 *  - DF->F results that are F denormals are flushed when cr0.0[7] = 0 (the F
 *    denormal control, L20019-20065). L21417 ("the denorms are retained if
 *    there is a format conversion") is stated for mixed HF/F mode, where the
 *    HF denorm control (cr0.0[10]) is the one at stake; DF->F is not mixed
 *    mode, so it does not apply.
 * Not modelled: HF, ALT mode (cr0.0[0]: refused as a bad request), IEEE
 * exception flags, accumulator sources, the EU's predicated sel.
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
                FPU_CM_O = 8, FPU_CM_U = 9 };
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
#define FPU_MODE_IEEE_MINMAX 0x800u             /* 1: min/max prefer an sNaN source */

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
