/* isa/vc4/qpu_decode.h - VideoCore IV QPU instructions: a 64-bit word -> its named fields.
 *
 * The field positions, codes and register map come from spec/vc4/qpu.txt (seed 002,
 * "VideoCore IV 3D Architecture Reference Guide", Sec 3 "QPU Instruction Encoding"
 * @70153..@93323) through build/gen/vc4_qpu_spec.h. Decoding never fails: codes the seed
 * leaves reserved and combinations its "Summary of Instruction Restrictions" (@88994)
 * forbids within one instruction are flagged in `illegal` (enum vc4_illegal). Restrictions
 * that span instructions (regfile read after write, r4 after SFU, ...) need the program
 * and are the executor's business, not the decoder's.
 */
#ifndef GTSIM_ISA_VC4_QPU_DECODE_H
#define GTSIM_ISA_VC4_QPU_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "vc4_qpu_spec.h"

/* The instruction formats (Fig 3 @70261, Fig 5 @82668, Fig 6 @83883, Fig 7 @84940). */
enum vc4_format {
    VC4_FORMAT_ALU,                  /* sig 0..12 */
    VC4_FORMAT_ALU_SMALL_IMM,        /* sig 13: raddr_b is a small immediate or rotation */
    VC4_FORMAT_LOAD_IMM_32,          /* sig 14, bits 59:57 = 000 */
    VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED,   /* 001 */
    VC4_FORMAT_LOAD_IMM_PER_ELMT_UNSIGNED, /* 011 */
    VC4_FORMAT_SEMAPHORE,            /* 100 */
    VC4_FORMAT_LOAD_IMM_RESERVED,    /* 010, 101, 110, 111: not in the seed (flagged) */
    VC4_FORMAT_BRANCH,               /* sig 15 */
};

/* Problems found in one instruction (bit set in vc4_qpu_instr.illegal). */
enum vc4_illegal {
    VC4_ILLEGAL_ADD_OP          = 1u << 0,  /* op_add 9-11, 25-29 reserved (Table 12 @87353) */
    VC4_ILLEGAL_MUL_PACK        = 1u << 1,  /* pm=1 pack 1-2, 8-15 reserved (Table 9 @81964) */
    VC4_ILLEGAL_IMM_TYPE        = 1u << 2,  /* load-immediate type not in Fig 5/6 */
    VC4_ILLEGAL_BRANCH_COND     = 1u << 3,  /* cond_br 12-14 reserved (Table 11 @86594) */
    VC4_ILLEGAL_READ_UNMAPPED   = 1u << 4,  /* raddr of a write-only/unmapped address (Table 14 @91738) */
    VC4_ILLEGAL_SMALL_IMM_READ  = 1u << 5,  /* mux rb reads a rotation code, not a value (Table 5 @76692) */
    VC4_ILLEGAL_ROTATE_INPUT    = 1u << 6,  /* rotation with a mul input outside r0-r3 (@54948) */
    VC4_ILLEGAL_SAME_WRITE      = 1u << 7,  /* both ALUs write one accumulator or I/O register (@49015) */
    VC4_ILLEGAL_PERIPHERALS     = 1u << 8,  /* >1 of TMU/TLB/SFU/mutex/semaphore access (@88994 item 12) */
    VC4_ILLEGAL_TMU_UNIFORM     = 1u << 9,  /* TMU write and uniform read together (@88994) */
    VC4_ILLEGAL_SEMAPHORE_WADDR = 1u << 10, /* semaphore writing TLB, TMU or SFU (@83883) */
    VC4_ILLEGAL_COUNT           = 11
};

/* A decoded instruction: every field of every format, named as in Table 1 (@72071),
 * Fig 5/6 and Table 10. Fields a format does not have are 0. */
struct vc4_qpu_instr {
    uint64_t word;
    enum vc4_format format;
    uint8_t sig;          /* enum vc4_sig, bits 63:60 */
    /* ALU, load immediate, semaphore */
    uint8_t unpack;       /* ALU: bits 59:57 (enum vc4_unpack) */
    uint8_t imm_type;     /* load immediate: bits 59:57 (enum vc4_imm_type) */
    uint8_t pm;           /* 0: pack/unpack regfile A; 1: unpack r4, pack mul output */
    uint8_t pack;         /* enum vc4_pack_a (pm=0) or vc4_pack_mul (pm=1) */
    uint8_t cond_add, cond_mul;  /* enum vc4_cond */
    uint8_t sf;           /* set flags */
    uint8_t ws;           /* write swap: 0 = add->A, mul->B; 1 = add->B, mul->A */
    uint8_t waddr_add, waddr_mul;  /* also present in branches (link writes) */
    uint8_t op_mul;       /* enum vc4_mul_op */
    uint8_t op_add;       /* enum vc4_add_op */
    uint8_t raddr_a;      /* ALU: 6 bits; branch: 5 bits */
    uint8_t raddr_b;      /* ALU (sig != 13) */
    uint8_t small_imm;    /* ALU small immediate (sig 13): the raddr_b bits */
    uint8_t add_a, add_b, mul_a, mul_b;  /* enum vc4_mux */
    uint32_t immediate;   /* load immediate (all forms), branch target immediate */
    uint8_t semaphore;    /* semaphore number 0-15 */
    uint8_t sa;           /* 0 = increment, 1 = decrement */
    /* branch */
    uint8_t cond_br;      /* enum vc4_branch_cond */
    uint8_t rel;          /* relative to PC+4 */
    uint8_t reg;          /* add regfile A[raddr_a] (element 15: erratum E5 in qpu.txt) */
    uint32_t illegal;     /* enum vc4_illegal bits */
};

void vc4_qpu_decode(uint64_t word, struct vc4_qpu_instr *out);

/* Whether the add (false) or mul (true) ALU of a decoded instruction writes register
 * file A (else B): ws swaps the default add->A, mul->B (Table 1 @72071). */
bool vc4_qpu_writes_a(const struct vc4_qpu_instr *in, bool is_mul);

/* Per-element value of a per-element load immediate (Fig 5 @82668): element i gets
 * {MS bit i+16, LS bit i}, sign-extended for the signed form. */
int32_t vc4_qpu_load_imm_element(const struct vc4_qpu_instr *in, unsigned element);

/* Short name of one vc4_illegal bit ("add_op", ...), NULL if not a single known bit. */
const char *vc4_illegal_name(uint32_t bit);

#endif
