/* isa/intel/eu_encode.h - a small encoder for Gen4/7/8/9 native instructions,
 * for tests and workload builders that need kernels intel-gen4asm cannot
 * express (every type, JIP/UIP flow control, split sends). It writes the
 * fields through the same spec tables the decoder reads (spec/eu/
 * native-fields.txt, opcodes.txt), so what it emits is checked by decoding it.
 * Only the native (uncompacted) form is produced. */
#ifndef GTSIM_ISA_INTEL_EU_ENCODE_H
#define GTSIM_ISA_INTEL_EU_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "isa/intel/eu_isa.h"

/* One operand. Source regions are in elements (<vstride;width,hstride>). */
struct eu_enc_opnd {
    uint8_t file;               /* enum eu_regfile */
    uint8_t type;               /* enum eu_type */
    uint8_t reg, subreg;        /* subreg in bytes */
    uint8_t vstride, width, hstride;
    uint8_t swizzle[4];         /* align16 sources: x y z w = 0 1 2 3 */
    uint8_t writemask;          /* align16 destinations, 0 = all (0xf) */
    bool negate, abs;
    bool indirect;
    uint8_t addr_subreg;
    int16_t addr_imm;
    bool rep;                   /* 3-source: replicate scalar */
    uint64_t imm;
};

struct eu_enc_insn {
    uint8_t opcode;             /* opcodes.txt value */
    uint8_t exec_size;          /* 1..32 */
    bool align16;
    bool nomask;
    uint8_t qtr, nib;
    uint8_t pred;               /* pred_control */
    bool pred_inv;
    uint8_t flag_reg, flag_subreg;
    uint8_t cond;               /* conditional modifier / math function */
    bool sat, acc_wr;
    struct eu_enc_opnd dst, src[3];
    uint8_t nsrc;
    int32_t jip, uip;           /* flow control, bytes (gen4: jip = jump count x 16, uip = pop count) */
    /* send */
    uint8_t sfid;
    uint32_t desc, ex_desc;
    bool eot;
};

/* Operand builders. */
struct eu_enc_opnd eu_enc_grf(unsigned reg, unsigned subreg, enum eu_type type);     /* <8;8,1> */
struct eu_enc_opnd eu_enc_rgn(struct eu_enc_opnd o, unsigned vstride, unsigned width, unsigned hstride);
struct eu_enc_opnd eu_enc_scalar(unsigned reg, unsigned subreg, enum eu_type type); /* <0;1,0> */
struct eu_enc_opnd eu_enc_imm(enum eu_type type, uint64_t bits);
struct eu_enc_opnd eu_enc_immf(float f);
struct eu_enc_opnd eu_enc_null(enum eu_type type);
struct eu_enc_opnd eu_enc_arf(unsigned nr, unsigned subreg, enum eu_type type);

/* Encodes into out[4]; returns 0, or -1 when a type has no encoding on gen. */
int eu_encode(int gen, const struct eu_enc_insn *in, uint32_t out[4]);

/* A growing kernel buffer. */
struct eu_enc_buf {
    int gen;
    uint8_t *bytes;
    size_t len, cap;
    unsigned errors;
};
/* Appends; returns the byte offset of the instruction. */
size_t eu_enc_emit(struct eu_enc_buf *b, const struct eu_enc_insn *in);
/* Rewrites the JIP/UIP of the flow instruction at offset. */
void eu_enc_patch_jump(struct eu_enc_buf *b, size_t offset, int32_t jip, int32_t uip);
void eu_enc_free(struct eu_enc_buf *b);

#endif
