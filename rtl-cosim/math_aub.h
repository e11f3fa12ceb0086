/* rtl-cosim/math_aub.h - a Gen9 execlist capture whose batch runs MI_MATH:
 * the workload that puts the CS ALU (units/cs_alu, rtl/cs_alu.sv) to work in
 * a whole machine (no capture in tests/data/traces uses MI_MATH).
 * `gtsim-cosim build-math-aub OUT.aub` writes it.
 *
 * Layout as the real Gen8/Gen9 captures (notes/aub-format.md §4): PCI-ID
 * 0x1912 (SKL GT2); GGTT_ENTRY PTE[0] = 0x1, GFX_MODE = 0x80008000 on the
 * three engines, PTE[1..63] -> physical 0x100000 + i * 4 KiB; a 4-level PPGTT
 * whose PML4 is physical page 0 (PDP0 = 0, as in the captures) mapping VA page
 * i to GGTT page i's physical page, so the context's address space (what
 * `gtsim run --dump` reads) sees the GGTT buffers at the same addresses; the
 * ring at GGTT 0x1000; PPHWSP + 22-page context at LRCA 0x2000 with the
 * register state at 0x3000 as the captures' MI_LOAD_REGISTER_IMM lists
 * (RING_HEAD dword 5, RING_TAIL dword 7, RING_START 0x1000, RING_CTL 1, PDP0);
 * HWS_PGA = 0x19000; the ring's MI_BATCH_BUFFER_START (Address Space
 * Indicator 0: GGTT) to the batch at GGTT 0x20000; head 0 / tail 16 written
 * into the image; ELSP 0, 0, 0, LRCA | 0x19 (valid, 4-level); REGISTER_POLL of
 * EXECLIST_STATUS 0x2234.
 *
 * The batch: MI_LOAD_REGISTER_IMM of the sixteen CS_GPRs (0x2600 + 8 * i, low
 * and high dwords) with math_aub_initial_gprs, then for each program p in
 * math_aub_programs an MI_MATH (opcode 0x1A) followed by 32
 * MI_STORE_REGISTER_MEM (Gen8/9: opcode 0x24, Use Global GTT, 4 dwords) of
 * R0..R15 to MATH_AUB_RESULT_GGTT + p * 128 + i * 8 (low, then high dword),
 * then MI_BATCH_BUFFER_END. Every one of the twelve ALU opcodes and every
 * operand register of the seed's tables (R0..R15, SRCA, SRCB, ACCU, ZF, CF)
 * is used; the last program relies on SRCA/SRCB/ACCU persisting between
 * MI_MATHs (seed 003 L1321-1528).
 */
#ifndef GTSIM_RTL_COSIM_MATH_AUB_H
#define GTSIM_RTL_COSIM_MATH_AUB_H

#include <stdint.h>

#include "fabric/error.h"

#define MATH_AUB_PROGRAMS 8
#define MATH_AUB_MAX_INSTRUCTIONS 24
#define MATH_AUB_RESULT_GGTT 0x30000u
#define MATH_AUB_RESULT_BYTES (MATH_AUB_PROGRAMS * 16 * 8)

struct math_aub_program {
    uint32_t count;
    uint32_t instruction[MATH_AUB_MAX_INSTRUCTIONS];
};

extern const uint64_t math_aub_initial_gprs[16];
extern const struct math_aub_program math_aub_programs[MATH_AUB_PROGRAMS];

/* Writes the capture (plain, not gzip). 0, or -1 with err. */
int math_aub_write(const char *path, struct gt_error *err);

#endif
