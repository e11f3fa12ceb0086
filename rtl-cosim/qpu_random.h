/* rtl-cosim/qpu_random.h - seeded random instructions through the QPU ALUs' RTL
 * (rtl/qpu_alu.sv, qpu_alu_rtl.h) against the C datapath (isa/vc4/qpu_exec.h
 * qpu_alu_compute): `gtsim-cosim qpu-random` and the cosim tests.
 *
 * The mix: every add opcode (reserved codes now and then) and every mul opcode, nops and
 * the never condition included; mux codes any of the eight (so regfile-A and r4 operands
 * are unpacked), pm 0 or 1 with every unpack and pack code, writes to regfile A or not,
 * every condition, sf on or off, random flags and old contents. Operands per element from
 * a table of specials - signed zeros, denormals, infinities, quiet and signalling NaNs, 1.0,
 * 255.0, values on and between the x/255 steps, int32 extremes, small and 16-bit extremes,
 * equal pairs - or any bits, now and then as half floats or bytes in the right places for
 * the unpacks. Instructions are streamed back to back (a quad a clock) in batches of 64.
 * Comparison as qpu:lockstep's (qpu_cosim.h): exact. The "cycle" of a mismatch is the RTL
 * clock. */
#ifndef GTSIM_RTL_COSIM_QPU_RANDOM_H
#define GTSIM_RTL_COSIM_QPU_RANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"
#include "isa/vc4/qpu_exec.h"

struct qpu_random_options {
    uint64_t seed, requests;        /* requests: instructions (16 elements each) */
    bool broken;                    /* the RTL built with `define BROKEN */
    bool stop_at_first;             /* end the run at the first mismatch */
    bool boundary;                  /* only fadd/fsub/fmul with results around 2^-126,
                                       the smallest normal (qpu_random.c) */
    const char *wave;               /* FST of RTL clocks wave_from..wave_to (NULL: none) */
    uint64_t wave_from, wave_to;
};

struct qpu_random_result {
    uint64_t instructions, compared, mismatches, no_answer;
    uint64_t first_mismatch;        /* RTL clock, UINT64_MAX: none */
    char first_report[1024];
    uint32_t add_ops_seen;          /* bit = add opcode with an active add */
    uint8_t mul_ops_seen;           /* bit = mul opcode with an active mul */
    uint16_t packs_seen[2];         /* bit = pack code applied, [pm] */
    uint8_t unpacks_seen[2];        /* bit = unpack code on an operand, [pm] */
    uint64_t clocks;
};

/* The first difference of two answers (qpu:lockstep's comparison, exact), written to what (the element and field, both
 * values); false when they are equal. */
bool qpu_alu_result_differs(const struct qpu_alu_result *c, const struct qpu_alu_result *rtl,
                            char *what, size_t size);
/* The request in one line (ops, modes, flags, the operands of element `lane`). */
void qpu_alu_request_text(const struct qpu_alu_request *rq, unsigned lane, char *text,
                          size_t size);

int qpu_random_run(const struct qpu_random_options *o, struct qpu_random_result *r,
                   struct gt_error *err);

#endif
