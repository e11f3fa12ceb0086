/* isa/intel/eu_encode.c - see eu_encode.h. Field positions and codes come from the
 * generated spec tables (spec/eu/native-fields.txt, opcodes.txt). */
#include "isa/intel/eu_encode.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "msg_desc.h"

struct eu_enc_opnd eu_enc_grf(unsigned reg, unsigned subreg, enum eu_type type)
{
    struct eu_enc_opnd o = { .file = EU_FILE_GRF, .type = (uint8_t)type, .reg = (uint8_t)reg,
                             .subreg = (uint8_t)subreg, .vstride = 8, .width = 8, .hstride = 1,
                             .swizzle = { 0, 1, 2, 3 } };
    return o;
}

struct eu_enc_opnd eu_enc_rgn(struct eu_enc_opnd o, unsigned vstride, unsigned width, unsigned hstride)
{
    o.vstride = (uint8_t)vstride;
    o.width = (uint8_t)width;
    o.hstride = (uint8_t)hstride;
    return o;
}

struct eu_enc_opnd eu_enc_scalar(unsigned reg, unsigned subreg, enum eu_type type)
{
    struct eu_enc_opnd o = eu_enc_grf(reg, subreg, type);
    o.vstride = 0;
    o.width = 1;
    o.hstride = 0;
    o.rep = true;
    return o;
}

struct eu_enc_opnd eu_enc_imm(enum eu_type type, uint64_t bits)
{
    struct eu_enc_opnd o = { .file = EU_FILE_IMM, .type = (uint8_t)type, .imm = bits };
    return o;
}

struct eu_enc_opnd eu_enc_immf(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return eu_enc_imm(EU_TYPE_F, b);
}

struct eu_enc_opnd eu_enc_null(enum eu_type type)
{
    struct eu_enc_opnd o = eu_enc_arf(0, 0, type);
    return o;
}

struct eu_enc_opnd eu_enc_arf(unsigned nr, unsigned subreg, enum eu_type type)
{
    struct eu_enc_opnd o = eu_enc_grf(nr, subreg, type);
    o.file = EU_FILE_ARF;
    return o;
}

static int type_code(int gi, unsigned type, bool imm)
{
    const char *name = eu_type_name((enum eu_type)type);
    for (unsigned c = 0; c < 16; c++) {
        const char *n = imm ? eu_imm_type_names[gi][c] : eu_reg_type_names[gi][c];
        if (n && strcmp(n, name) == 0)
            return (int)c;
    }
    return -1;
}

static int type3_code(int gi, unsigned type)
{
    const char *name = eu_type_name((enum eu_type)type);
    for (unsigned c = 0; c < 8; c++) {
        const char *n = eu_3src_type_names[gi][c];
        if (n && strcmp(n, name) == 0)
            return (int)c;
    }
    return -1;
}

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

static unsigned hs_code(unsigned h) { return h == 0 ? 0 : log2u(h) + 1; }
static unsigned vs_code(unsigned v) { return v == 0 ? 0 : (v == 0xff ? 15 : log2u(v) + 1); }

static uint64_t sw_bits(const uint8_t s[4])
{
    return (uint64_t)(s[0] & 3) | (uint64_t)(s[1] & 3) << 2 | (uint64_t)(s[2] & 3) << 4 |
           (uint64_t)(s[3] & 3) << 6;
}

#define SET(f, v) eu_field_set(gen, f, w, (uint64_t)(v))

int eu_encode(int gen, const struct eu_enc_insn *in, uint32_t w[4])
{
    int gi = eu_gen_index(gen);
    memset(w, 0, 16);
    if (gi < 0)
        return -1;
    const struct eu_opcode_desc *od = &eu_opcode_table[gi][in->opcode & 127];
    bool three = od->mnemonic && od->nsrc == 3;
    /* gen4: ALU instructions only (its send and jump-count forms are not
     * written here) */
    if (gi == EU_GEN4_IDX && (three || in->opcode == EU_OPCODE_SEND || in->opcode == EU_OPCODE_SENDC ||
                              (in->opcode >= 44 && in->opcode <= 47)))
        return -1;
    SET(EU_F_OPCODE, in->opcode);
    SET(EU_F_ACCESS_MODE, in->align16 || three);
    SET(EU_F_QTR_CONTROL, in->qtr);
    SET(EU_F_PRED_CONTROL, in->pred);
    SET(EU_F_PRED_INV, in->pred_inv);
    SET(EU_F_EXEC_SIZE, log2u(in->exec_size ? in->exec_size : 1));
    SET(EU_F_COND_MODIFIER, in->cond);
    SET(EU_F_ACC_WR_CONTROL, in->acc_wr);
    SET(EU_F_SATURATE, in->sat);
    if (three) {
        SET(EU_F_3SRC_FLAG_REG_NR, in->flag_reg);
        SET(EU_F_3SRC_FLAG_SUBREG_NR, in->flag_subreg);
        SET(EU_F_3SRC_MASK_CONTROL, in->nomask);
        SET(EU_F_3SRC_NIB_CONTROL, in->nib);
        int st = type3_code(gi, in->src[0].type), dt = type3_code(gi, in->dst.type);
        if (st < 0 || dt < 0)
            return -1;
        SET(EU_F_3SRC_SRC_TYPE, st);
        SET(EU_F_3SRC_DST_TYPE, dt);
        SET(EU_F_3SRC_DST_REG_NR, in->dst.reg);
        SET(EU_F_3SRC_DST_SUBREG_NR, in->dst.subreg / 4);
        SET(EU_F_3SRC_DST_WRITEMASK, in->dst.writemask ? in->dst.writemask : 15);
        static const enum eu_field F[3][8] = {
            { EU_F_3SRC_SRC0_REG_NR, EU_F_3SRC_SRC0_SUBREG_NR, EU_F_3SRC_SRC0_SUBREG_NR_X,
              EU_F_3SRC_SRC0_SWIZZLE, EU_F_3SRC_SRC0_REP_CTRL, EU_F_3SRC_SRC0_ABS,
              EU_F_3SRC_SRC0_NEGATE },
            { EU_F_3SRC_SRC1_REG_NR, EU_F_3SRC_SRC1_SUBREG_NR, EU_F_3SRC_SRC1_SUBREG_NR_X,
              EU_F_3SRC_SRC1_SWIZZLE, EU_F_3SRC_SRC1_REP_CTRL, EU_F_3SRC_SRC1_ABS,
              EU_F_3SRC_SRC1_NEGATE },
            { EU_F_3SRC_SRC2_REG_NR, EU_F_3SRC_SRC2_SUBREG_NR, EU_F_3SRC_SRC2_SUBREG_NR_X,
              EU_F_3SRC_SRC2_SWIZZLE, EU_F_3SRC_SRC2_REP_CTRL, EU_F_3SRC_SRC2_ABS,
              EU_F_3SRC_SRC2_NEGATE },
        };
        for (unsigned i = 0; i < 3; i++) {
            const struct eu_enc_opnd *s = &in->src[i];
            SET(F[i][0], s->reg);
            SET(F[i][1], s->subreg / 4);
            SET(F[i][2], (s->subreg % 4) / 2);
            SET(F[i][3], sw_bits(s->swizzle));
            SET(F[i][4], s->rep);
            SET(F[i][5], s->abs);
            SET(F[i][6], s->negate);
        }
        return 0;
    }
    SET(EU_F_MASK_CONTROL, in->nomask);
    SET(EU_F_NIB_CONTROL, in->nib);
    SET(EU_F_FLAG_REG_NR, in->flag_reg);
    SET(EU_F_FLAG_SUBREG_NR, in->flag_subreg);
    if (in->opcode == EU_OPCODE_SENDS || in->opcode == EU_OPCODE_SENDSC) {
        /* gen9 split send (native-fields.txt [sends]): src0 and src1 are the
         * two payloads; reg files are single bits; ex_mlen in ex_desc 9:6 */
        if (gi != EU_GEN9_IDX)
            return -1;
        SET(EU_F_SENDS_DST_REG_FILE_1B, in->dst.file == EU_FILE_GRF);
        SET(EU_F_SENDS_DST_REG_NR, in->dst.reg);
        SET(EU_F_SENDS_DST_SUBREG_NR, in->dst.subreg / 16);
        SET(EU_F_SENDS_SRC0_REG_NR, in->src[0].reg);
        SET(EU_F_SENDS_SRC0_SUBREG_NR, in->src[0].subreg / 16);
        SET(EU_F_SENDS_SRC1_REG_FILE_1B, in->src[1].file == EU_FILE_GRF);
        SET(EU_F_SENDS_SRC1_REG_NR, in->src[1].reg);
        SET(EU_F_SENDS_DESC, in->desc);
        SET(EU_F_SENDS_EX_DESC_31_16, desc_exdesc_ex_function_control(in->ex_desc));
        SET(EU_F_SENDS_EX_DESC_9_6, desc_exdesc_ex_mlen(in->ex_desc));
        SET(EU_F_SENDS_EOT, in->eot);
        SET(EU_F_SENDS_SFID, in->sfid);
        return 0;
    }
    /* dst */
    const struct eu_enc_opnd *d = &in->dst;
    int dt = type_code(gi, d->type, false);
    if (dt < 0)
        return -1;
    SET(EU_F_DST_REG_FILE, d->file);
    SET(EU_F_DST_TYPE, dt);
    SET(EU_F_DST_ADDR_MODE, d->indirect);
    if (d->indirect) {
        SET(EU_F_DST_IA_SUBREG_NR, d->addr_subreg);
        if (in->align16)
            SET(EU_F_DST_IA16_ADDR_IMM, (uint16_t)d->addr_imm >> 4);
        else
            SET(EU_F_DST_IA1_ADDR_IMM, (uint16_t)d->addr_imm & 0x3ff);
    } else {
        SET(EU_F_DST_REG_NR, d->reg);
        if (in->align16)
            SET(EU_F_DST_DA16_SUBREG_NR, d->subreg / 16);
        else
            SET(EU_F_DST_SUBREG_NR, d->subreg);
    }
    if (in->align16)
        SET(EU_F_DST_WRITEMASK, d->writemask ? d->writemask : 15);
    else
        SET(EU_F_DST_HSTRIDE, hs_code(d->hstride ? d->hstride : 1));
    static const enum eu_field S[2][17] = {
        { EU_F_SRC0_REG_FILE, EU_F_SRC0_TYPE, EU_F_SRC0_SUBREG_NR, EU_F_SRC0_REG_NR,
          EU_F_SRC0_ABS, EU_F_SRC0_NEGATE, EU_F_SRC0_ADDR_MODE, EU_F_SRC0_HSTRIDE,
          EU_F_SRC0_WIDTH, EU_F_SRC0_VSTRIDE, EU_F_SRC0_SWIZZLE_X, EU_F_SRC0_SWIZZLE_Y,
          EU_F_SRC0_SWIZZLE_Z, EU_F_SRC0_SWIZZLE_W, EU_F_SRC0_DA16_SUBREG_NR,
          EU_F_SRC0_IA_SUBREG_NR, EU_F_SRC0_IA1_ADDR_IMM },
        { EU_F_SRC1_REG_FILE, EU_F_SRC1_TYPE, EU_F_SRC1_SUBREG_NR, EU_F_SRC1_REG_NR,
          EU_F_SRC1_ABS, EU_F_SRC1_NEGATE, EU_F_SRC1_ADDR_MODE, EU_F_SRC1_HSTRIDE,
          EU_F_SRC1_WIDTH, EU_F_SRC1_VSTRIDE, EU_F_SRC1_SWIZZLE_X, EU_F_SRC1_SWIZZLE_Y,
          EU_F_SRC1_SWIZZLE_Z, EU_F_SRC1_SWIZZLE_W, EU_F_SRC1_DA16_SUBREG_NR,
          EU_F_SRC1_IA_SUBREG_NR, EU_F_SRC1_IA1_ADDR_IMM },
    };
    unsigned ns = in->nsrc > 2 ? 2 : in->nsrc;
    for (unsigned i = 0; i < ns; i++) {
        const struct eu_enc_opnd *s = &in->src[i];
        const enum eu_field *f = S[i];
        int tc = type_code(gi, s->type, s->file == EU_FILE_IMM);
        if (tc < 0)
            return -1;
        SET(f[0], s->file);
        SET(f[1], tc);
        if (s->file == EU_FILE_IMM) {
            if (eu_type_size((enum eu_type)s->type) == 8)
                SET(EU_F_IMM64, s->imm);
            else if (s->type == EU_TYPE_W || s->type == EU_TYPE_UW || s->type == EU_TYPE_HF)
                SET(EU_F_IMM32, (s->imm & 0xffff) | (s->imm & 0xffff) << 16);  /* replicated */
            else
                SET(EU_F_IMM32, s->imm);
            continue;
        }
        SET(f[4], s->abs);
        SET(f[5], s->negate);
        SET(f[6], s->indirect);
        SET(f[9], vs_code(s->vstride));
        if (s->indirect) {
            SET(f[15], s->addr_subreg);
            SET(f[16], (uint16_t)s->addr_imm & 0x3ff);
        } else {
            SET(f[3], s->reg);
        }
        if (in->align16) {
            SET(f[10], s->swizzle[0]);
            SET(f[11], s->swizzle[1]);
            SET(f[12], s->swizzle[2]);
            SET(f[13], s->swizzle[3]);
            if (!s->indirect)
                SET(f[14], s->subreg / 16);
        } else {
            if (!s->indirect)
                SET(f[2], s->subreg);
            SET(f[7], hs_code(s->hstride));
            SET(f[8], log2u(s->width ? s->width : 1));
        }
    }
    bool send = in->opcode == EU_OPCODE_SEND || in->opcode == EU_OPCODE_SENDC;
    if (send) {
        SET(EU_F_SRC1_REG_FILE, EU_FILE_IMM);
        SET(EU_F_SRC1_TYPE, type_code(gi, EU_TYPE_UD, true));
        SET(EU_F_SFID, in->sfid);
        SET(EU_F_DESC, in->desc);
        SET(EU_F_EOT, in->eot);
        if (gi == EU_GEN9_IDX) {
            SET(EU_F_EX_DESC_31_28, desc_exdesc_piece_31_28(in->ex_desc));
            SET(EU_F_EX_DESC_27_24, desc_exdesc_piece_27_24(in->ex_desc));
            SET(EU_F_EX_DESC_23_20, desc_exdesc_piece_23_20(in->ex_desc));
            SET(EU_F_EX_DESC_19_16, desc_exdesc_piece_19_16(in->ex_desc));
        }
    }
    if (od->mnemonic && (strcmp(od->mnemonic, "if") == 0 || strcmp(od->mnemonic, "else") == 0 ||
                         strcmp(od->mnemonic, "endif") == 0 || strcmp(od->mnemonic, "while") == 0 ||
                         strcmp(od->mnemonic, "break") == 0 || strcmp(od->mnemonic, "cont") == 0 ||
                         strcmp(od->mnemonic, "halt") == 0 || strcmp(od->mnemonic, "call") == 0 ||
                         strcmp(od->mnemonic, "goto") == 0 || strcmp(od->mnemonic, "join") == 0 ||
                         strcmp(od->mnemonic, "brd") == 0 || strcmp(od->mnemonic, "brc") == 0 ||
                         strcmp(od->mnemonic, "iff") == 0)) {
        if (gi == EU_GEN4_IDX) {
            /* gen4: jip = the jump count in bytes (16 per instruction), uip =
             * the pop count (native-fields.txt [branch]); src1 an immediate D */
            SET(EU_F_SRC1_REG_FILE, EU_FILE_IMM);
            SET(EU_F_SRC1_TYPE, type_code(gi, EU_TYPE_D, true));
            SET(EU_F_JUMP_COUNT, (uint32_t)(in->jip / 16) & 0xffff);
            SET(EU_F_POP_COUNT, (uint32_t)in->uip);
            return 0;
        }
        int unit = gi == EU_GEN7_IDX ? 8 : 1;
        SET(EU_F_JIP, (uint32_t)(in->jip / unit));
        SET(EU_F_UIP, (uint32_t)(in->uip / unit));
    }
    return 0;
}

size_t eu_enc_emit(struct eu_enc_buf *b, const struct eu_enc_insn *in)
{
    uint32_t w[4];
    if (eu_encode(b->gen, in, w) < 0)
        b->errors++;
    if (b->len + 16 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 1024;
        b->bytes = gt_xrealloc(b->bytes, b->cap);
    }
    size_t at = b->len;
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 4; k++)
            b->bytes[at + 4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    b->len += 16;
    return at;
}

void eu_enc_patch_jump(struct eu_enc_buf *b, size_t offset, int32_t jip, int32_t uip)
{
    uint32_t w[4];
    int gen = b->gen;
    for (unsigned i = 0; i < 4; i++)
        w[i] = (uint32_t)b->bytes[offset + 4 * i] | (uint32_t)b->bytes[offset + 4 * i + 1] << 8 |
               (uint32_t)b->bytes[offset + 4 * i + 2] << 16 | (uint32_t)b->bytes[offset + 4 * i + 3] << 24;
    if (gen == 4) {
        SET(EU_F_JUMP_COUNT, (uint32_t)(jip / 16) & 0xffff);
        SET(EU_F_POP_COUNT, (uint32_t)uip);
    } else {
        int unit = gen == 7 ? 8 : 1;
        SET(EU_F_JIP, (uint32_t)(jip / unit));
        SET(EU_F_UIP, (uint32_t)(uip / unit));
    }
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 4; k++)
            b->bytes[offset + 4 * i + k] = (uint8_t)(w[i] >> (8 * k));
}

void eu_enc_free(struct eu_enc_buf *b)
{
    free(b->bytes);
    b->bytes = NULL;
    b->len = b->cap = 0;
}
