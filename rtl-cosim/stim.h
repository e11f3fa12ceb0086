/* rtl-cosim/stim.h - stimulus and sinks for co-simulation runs (no hardware
 * meaning; registered only in gtsim-cosim).
 *
 * "cs_alu_stim": seeded random MI_MATH requests on port "out". Each request
 * has random GPRs (a mix of 0, ~0, 1, 0x8000000000000000, small and full
 * random values, so carries, borrows and zero results all happen) and 1..
 * max_count instructions (sometimes 0); each instruction is one of the twelve
 * opcodes with valid operands, every register encoding drawn uniformly
 * (R0..R15, SRCA/SRCB, ACCU/ZF/CF), or - reserved_permille times in 1000 - a
 * reserved encoding (an unknown opcode or an operand outside the seed's table).
 * malformed_permille requests in 1000 announce more instructions than their
 * payload carries (or than MI_MATH allows).
 * Params: seed, requests, max_count, reserved_permille, malformed_permille,
 * per_cycle.
 * Coverage it generated is readable with cs_alu_stim_coverage().
 *
 * "cosim_sink": pops what arrives on "in"; with pop_permille < 1000 it skips
 * cycles at random (seeded), so its channel fills and the sender sees
 * back-pressure. Params: seed, pop_permille. Stats: received.
 */
#ifndef GTSIM_RTL_COSIM_STIM_H
#define GTSIM_RTL_COSIM_STIM_H

#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops cs_alu_stim_ops;
extern const struct unit_ops cosim_sink_ops;

/* What a stimulus unit generated: instructions per opcode (index: the twelve
 * in seed order NOOP LOAD LOADINV LOAD0 LOAD1 ADD SUB AND OR XOR STORE
 * STOREINV, then reserved) and uses of each operand register encoding (index:
 * R0..R15, SRCA, SRCB, ACCU, ZF, CF). */
struct cs_alu_coverage {
    uint64_t opcode[13];
    uint64_t reg[21];
    uint64_t instructions, requests, malformed;
};
const struct cs_alu_coverage *cs_alu_stim_coverage(const struct unit *u);

#endif
