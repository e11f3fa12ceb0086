/* tests/isa/test_vc4_decode.c - the VideoCore IV QPU decoder and the generated tables.
 *
 * Words are built here field by field from the seed's bit layout (seed 002, Fig 3 @70261
 * with the Table 1 @72071 widths: sig 4, unpack 3, pm 1, pack 4, cond_add 3, cond_mul 3,
 * sf 1, ws 1, waddr_add 6, waddr_mul 6, op_mul 3, op_add 5, raddr_a 6, raddr_b 6, add_a 3,
 * add_b 3, mul_a 3, mul_b 3 from bit 63 down; Fig 5 @82668, Fig 6 @83883, Fig 7 @84940 +
 * Table 10 for the other formats), with shifts written out in this file, not taken from
 * the generated header. Expected codes come from the seed's tables.
 */
#include "../test.h"

#include <string.h>

#include "isa/vc4/qpu_decode.h"

/* Bit positions written from the seed's figures (independent of spec/vc4/qpu.txt). */
struct alu_fields {
    unsigned sig, unpack, pm, pack, cond_add, cond_mul, sf, ws, waddr_add, waddr_mul;
    unsigned op_mul, op_add, raddr_a, raddr_b, add_a, add_b, mul_a, mul_b;
};

static uint64_t alu_word(const struct alu_fields *f)
{
    return (uint64_t)f->sig << 60 | (uint64_t)f->unpack << 57 | (uint64_t)f->pm << 56 |
           (uint64_t)f->pack << 52 | (uint64_t)f->cond_add << 49 | (uint64_t)f->cond_mul << 46 |
           (uint64_t)f->sf << 45 | (uint64_t)f->ws << 44 | (uint64_t)f->waddr_add << 38 |
           (uint64_t)f->waddr_mul << 32 | (uint64_t)f->op_mul << 29 | (uint64_t)f->op_add << 24 |
           (uint64_t)f->raddr_a << 18 | (uint64_t)f->raddr_b << 12 | (uint64_t)f->add_a << 9 |
           (uint64_t)f->add_b << 6 | (uint64_t)f->mul_a << 3 | (uint64_t)f->mul_b;
}

/* load immediate (Fig 5): 1110, type (3), pm, pack, cond_add, cond_mul, sf, ws, waddr_add,
 * waddr_mul, 32-bit immediate. */
static uint64_t imm_word(unsigned type, unsigned pm, unsigned pack, unsigned cond_add,
                         unsigned cond_mul, unsigned sf, unsigned ws, unsigned waddr_add,
                         unsigned waddr_mul, uint32_t imm)
{
    return (uint64_t)14 << 60 | (uint64_t)type << 57 | (uint64_t)pm << 56 | (uint64_t)pack << 52 |
           (uint64_t)cond_add << 49 | (uint64_t)cond_mul << 46 | (uint64_t)sf << 45 |
           (uint64_t)ws << 44 | (uint64_t)waddr_add << 38 | (uint64_t)waddr_mul << 32 | imm;
}

/* branch (Fig 7, Table 10): 1111, unused 59:56, cond_br 55:52, rel 51, reg 50, raddr_a 49:45,
 * ws 44, waddr_add 43:38, waddr_mul 37:32, immediate 31:0. */
static uint64_t branch_word(unsigned cond, unsigned rel, unsigned reg, unsigned raddr_a,
                            unsigned ws, unsigned waddr_add, unsigned waddr_mul, int32_t imm)
{
    return (uint64_t)15 << 60 | (uint64_t)cond << 52 | (uint64_t)rel << 51 | (uint64_t)reg << 50 |
           (uint64_t)raddr_a << 45 | (uint64_t)ws << 44 | (uint64_t)waddr_add << 38 |
           (uint64_t)waddr_mul << 32 | (uint32_t)imm;
}

static void test_alu_fields(void)
{
    /* every field a distinct value so a swapped or shifted field shows */
    struct alu_fields f = { .sig = 3, .unpack = 5, .pm = 1, .pack = 6, .cond_add = 2,
                            .cond_mul = 7, .sf = 1, .ws = 1, .waddr_add = 44, .waddr_mul = 19,
                            .op_mul = 2, .op_add = 17, .raddr_a = 35, .raddr_b = 12,
                            .add_a = 4, .add_b = 6, .mul_a = 7, .mul_b = 1 };
    struct vc4_qpu_instr in;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_EQUAL(in.word, alu_word(&f));
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_ALU);
    CU_ASSERT_EQUAL(in.sig, 3);
    CU_ASSERT_EQUAL(in.unpack, 5);
    CU_ASSERT_EQUAL(in.pm, 1);
    CU_ASSERT_EQUAL(in.pack, 6);
    CU_ASSERT_EQUAL(in.cond_add, 2);
    CU_ASSERT_EQUAL(in.cond_mul, 7);
    CU_ASSERT_EQUAL(in.sf, 1);
    CU_ASSERT_EQUAL(in.ws, 1);
    CU_ASSERT_EQUAL(in.waddr_add, 44);
    CU_ASSERT_EQUAL(in.waddr_mul, 19);
    CU_ASSERT_EQUAL(in.op_mul, 2);
    CU_ASSERT_EQUAL(in.op_add, 17);
    CU_ASSERT_EQUAL(in.raddr_a, 35);
    CU_ASSERT_EQUAL(in.raddr_b, 12);
    CU_ASSERT_EQUAL(in.add_a, 4);
    CU_ASSERT_EQUAL(in.add_b, 6);
    CU_ASSERT_EQUAL(in.mul_a, 7);
    CU_ASSERT_EQUAL(in.mul_b, 1);
    CU_ASSERT_EQUAL(in.illegal, 0);
    /* ws = 1: add writes B, mul writes A (Table 1) */
    CU_ASSERT_FALSE(vc4_qpu_writes_a(&in, false));
    CU_ASSERT_TRUE(vc4_qpu_writes_a(&in, true));
    in.ws = 0;
    CU_ASSERT_TRUE(vc4_qpu_writes_a(&in, false));
    CU_ASSERT_FALSE(vc4_qpu_writes_a(&in, true));
}

static void test_small_immediate_format(void)
{
    struct alu_fields f = { .sig = 13, .waddr_add = 33, .waddr_mul = 39, .op_add = 12,
                            .raddr_a = 39, .raddr_b = 20, .add_a = 0, .add_b = 7,
                            .cond_add = 1 };
    struct vc4_qpu_instr in;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_ALU_SMALL_IMM);
    CU_ASSERT_EQUAL(in.small_imm, 20);
    CU_ASSERT_EQUAL(in.raddr_b, 0);
    CU_ASSERT_EQUAL(in.op_add, VC4_ADD_OP_ADD);
    CU_ASSERT_EQUAL(in.illegal, 0);
    /* Table 5 @76692: 20 is -12 (16..31 = -16..-1) */
    CU_ASSERT_EQUAL(vc4_small_imm[20].kind, VC4_SMALL_IMM_INT);
    CU_ASSERT_EQUAL((int32_t)vc4_small_imm[20].bits, -12);
    /* a rotation code read as a value through mux rb has no value */
    f.raddr_b = 50;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SMALL_IMM_READ);
    /* rotation with a mul input from the regfile: not a full rotate (@54948) */
    struct alu_fields g = { .sig = 13, .waddr_add = 39, .waddr_mul = 33, .op_mul = 1,
                            .raddr_a = 0, .raddr_b = 49, .mul_a = 6, .mul_b = 1,
                            .cond_mul = 1 };
    vc4_qpu_decode(alu_word(&g), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_ROTATE_INPUT);
    g.mul_a = 2;
    vc4_qpu_decode(alu_word(&g), &in);
    CU_ASSERT_EQUAL(in.illegal, 0);
}

static void test_small_immediate_table(void)
{
    /* Table 5 @76692: ints, then the float powers of two with the seed's bit patterns */
    for (unsigned v = 0; v < 16; v++) {
        CU_ASSERT_EQUAL(vc4_small_imm[v].kind, VC4_SMALL_IMM_INT);
        CU_ASSERT_EQUAL(vc4_small_imm[v].bits, v);
        CU_ASSERT_EQUAL((int32_t)vc4_small_imm[v + 16].bits, (int32_t)v - 16);
    }
    CU_ASSERT_EQUAL(vc4_small_imm[32].bits, 0x3f800000u);  /* 1.0 */
    CU_ASSERT_EQUAL(vc4_small_imm[33].bits, 0x40000000u);  /* 2.0 */
    CU_ASSERT_EQUAL(vc4_small_imm[38].bits, 0x42800000u);  /* 64.0 */
    CU_ASSERT_EQUAL(vc4_small_imm[39].bits, 0x43000000u);  /* 128.0 */
    CU_ASSERT_EQUAL(vc4_small_imm[40].bits, 0x3b800000u);  /* 1/256 */
    CU_ASSERT_EQUAL(vc4_small_imm[41].bits, 0x3c000000u);  /* 1/128 */
    CU_ASSERT_EQUAL(vc4_small_imm[46].bits, 0x3e800000u);  /* 1/4 */
    CU_ASSERT_EQUAL(vc4_small_imm[47].bits, 0x3f000000u);  /* 1/2 */
    CU_ASSERT_EQUAL(vc4_small_imm[48].kind, VC4_SMALL_IMM_ROTATE_R5);
    for (unsigned v = 49; v < 64; v++) {
        CU_ASSERT_EQUAL(vc4_small_imm[v].kind, VC4_SMALL_IMM_ROTATE);
        CU_ASSERT_EQUAL(vc4_small_imm[v].rotate, (int)v - 48);
    }
}

static void test_load_immediate_forms(void)
{
    struct vc4_qpu_instr in;
    /* 32-bit: waddr_add 49 (A: VPMVCD_RD_SETUP), waddr_mul 39 (NOP) */
    vc4_qpu_decode(imm_word(0, 0, 0, 1, 0, 0, 0, 49, 39, 0x00801a00u), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_LOAD_IMM_32);
    CU_ASSERT_EQUAL(in.sig, 14);
    CU_ASSERT_EQUAL(in.imm_type, 0);
    CU_ASSERT_EQUAL(in.immediate, 0x00801a00u);
    CU_ASSERT_EQUAL(in.waddr_add, 49);
    CU_ASSERT_EQUAL(in.waddr_mul, 39);
    CU_ASSERT_EQUAL(in.cond_add, 1);
    CU_ASSERT_EQUAL(in.cond_mul, 0);
    CU_ASSERT_EQUAL(in.illegal, 0);

    /* per-element: bit i of [31:16] is element i's MS bit, bit i of [15:0] its LS bit */
    uint32_t ms = 0x8421, ls = 0xc3a5;
    uint32_t imm = ms << 16 | ls;
    vc4_qpu_decode(imm_word(1, 1, 3, 2, 3, 1, 1, 5, 6, imm), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED);
    CU_ASSERT_EQUAL(in.pm, 1);
    CU_ASSERT_EQUAL(in.pack, 3);
    CU_ASSERT_EQUAL(in.cond_add, 2);
    CU_ASSERT_EQUAL(in.cond_mul, 3);
    CU_ASSERT_EQUAL(in.sf, 1);
    CU_ASSERT_EQUAL(in.ws, 1);
    for (unsigned e = 0; e < 16; e++) {
        int m = (ms >> e) & 1, l = (ls >> e) & 1;
        CU_ASSERT_EQUAL(vc4_qpu_load_imm_element(&in, e), (m ? -2 : 0) + l);
    }
    vc4_qpu_decode(imm_word(3, 0, 0, 1, 1, 0, 0, 5, 6, imm), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_LOAD_IMM_PER_ELMT_UNSIGNED);
    for (unsigned e = 0; e < 16; e++) {
        int m = (ms >> e) & 1, l = (ls >> e) & 1;
        CU_ASSERT_EQUAL(vc4_qpu_load_imm_element(&in, e), m * 2 + l);
    }
    /* types 2, 5, 6, 7 are not in Fig 5/6 */
    vc4_qpu_decode(imm_word(2, 0, 0, 1, 1, 0, 0, 5, 6, 0), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_LOAD_IMM_RESERVED);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_IMM_TYPE);
}

static void test_semaphore(void)
{
    struct vc4_qpu_instr in;
    /* Fig 6 @83883: [4] sa, [3:0] semaphore; bits 31:5 don't care */
    vc4_qpu_decode(imm_word(4, 0, 0, 0, 0, 0, 0, 39, 39, 0xabcdef00u | 1u << 4 | 9u), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_SEMAPHORE);
    CU_ASSERT_EQUAL(in.semaphore, 9);
    CU_ASSERT_EQUAL(in.sa, 1);
    CU_ASSERT_EQUAL(in.illegal, 0);
    vc4_qpu_decode(imm_word(4, 0, 0, 0, 0, 0, 0, 39, 39, 3), &in);
    CU_ASSERT_EQUAL(in.semaphore, 3);
    CU_ASSERT_EQUAL(in.sa, 0);
    /* waddr must not be TLB (43-47), TMU (56-63) or SFU (52-55) */
    const unsigned bad[] = { 44, 46, 52, 55, 56, 63 };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        vc4_qpu_decode(imm_word(4, 0, 0, 1, 0, 0, 0, bad[i], 39, 0), &in);
        CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SEMAPHORE_WADDR);
        vc4_qpu_decode(imm_word(4, 0, 0, 0, 1, 0, 0, 39, bad[i], 0), &in);
        CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SEMAPHORE_WADDR);
    }
    vc4_qpu_decode(imm_word(4, 0, 0, 1, 0, 0, 0, 48, 32, 0), &in);  /* VPM, r0: fine */
    CU_ASSERT_EQUAL(in.illegal, 0);
}

static void test_branch(void)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(branch_word(6, 1, 1, 21, 1, 32, 39, -48), &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_BRANCH);
    CU_ASSERT_EQUAL(in.sig, 15);
    CU_ASSERT_EQUAL(in.cond_br, 6);
    CU_ASSERT_EQUAL(in.rel, 1);
    CU_ASSERT_EQUAL(in.reg, 1);
    CU_ASSERT_EQUAL(in.raddr_a, 21);
    CU_ASSERT_EQUAL(in.ws, 1);
    CU_ASSERT_EQUAL(in.waddr_add, 32);
    CU_ASSERT_EQUAL(in.waddr_mul, 39);
    CU_ASSERT_EQUAL((int32_t)in.immediate, -48);
    CU_ASSERT_EQUAL(in.illegal, 0);
    /* Table 11 @86594: 12-14 reserved, 15 always */
    for (unsigned c = 0; c < 16; c++) {
        vc4_qpu_decode(branch_word(c, 0, 0, 0, 0, 39, 39, 0), &in);
        bool reserved = c >= 12 && c <= 14;
        CU_ASSERT_EQUAL((in.illegal & VC4_ILLEGAL_BRANCH_COND) != 0, reserved);
    }
}

static void test_illegal_alu(void)
{
    struct vc4_qpu_instr in;
    struct alu_fields nop = { .sig = 1, .waddr_add = 39, .waddr_mul = 39, .raddr_a = 39,
                              .raddr_b = 39 };
    vc4_qpu_decode(alu_word(&nop), &in);
    CU_ASSERT_EQUAL(in.illegal, 0);
    /* Table 12: reserved add opcodes */
    const unsigned reserved[] = { 9, 10, 11, 25, 26, 27, 28, 29 };
    for (unsigned i = 0; i < 8; i++) {
        struct alu_fields f = nop;
        f.op_add = reserved[i];
        vc4_qpu_decode(alu_word(&f), &in);
        CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_ADD_OP);
    }
    /* Table 9: pm=1 pack codes 1, 2, 8-15 reserved; 0, 3-7 fine */
    for (unsigned p = 0; p < 16; p++) {
        struct alu_fields f = nop;
        f.pm = 1;
        f.pack = p;
        vc4_qpu_decode(alu_word(&f), &in);
        bool bad = p == 1 || p == 2 || p >= 8;
        CU_ASSERT_EQUAL((in.illegal & VC4_ILLEGAL_MUL_PACK) != 0, bad);
    }
    /* Table 14: A address 33 reads nothing; B 33 neither; A 38 is ELEMENT_NUMBER */
    struct alu_fields f = nop;
    f.raddr_a = 33;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_READ_UNMAPPED);
    f.raddr_a = 38;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_EQUAL(in.illegal, 0);
    f = nop;
    f.raddr_b = 56;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_READ_UNMAPPED);
    /* both ALUs writing r1 (33); 41 is QUAD_X on A and QUAD_Y on B: two registers */
    f = nop;
    f.waddr_add = 33;
    f.waddr_mul = 33;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    /* under complementary conditions each element is written once (zs/zc, ns/nc, cs/cc);
     * zs with ns may both hold */
    f.cond_add = 2;
    f.cond_mul = 3;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_FALSE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    f.cond_add = 7;
    f.cond_mul = 6;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_FALSE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    f.cond_add = 2;
    f.cond_mul = 4;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    f.cond_add = 3;
    f.cond_mul = 4;     /* zc and ns: adjacent codes of different pairs */
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    f.cond_add = f.cond_mul = 0;
    f.waddr_add = f.waddr_mul = 41;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_FALSE(in.illegal & VC4_ILLEGAL_SAME_WRITE);
    /* two peripherals: an SFU write (52) and a TMU write (56) */
    f = nop;
    f.waddr_add = 52;
    f.waddr_mul = 56;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_PERIPHERALS);
    /* a TMU read signal (10) and a mutex read (raddr_a 51) */
    f = nop;
    f.sig = 10;
    f.raddr_a = 51;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_PERIPHERALS);
    /* a TLB colour read signal with a TLB colour write counts once */
    f = nop;
    f.sig = 8;
    f.waddr_add = 46;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_EQUAL(in.illegal, 0);
    /* TMU write with a uniform read (raddr_b 32) */
    f = nop;
    f.waddr_add = 57;
    f.raddr_b = 32;
    vc4_qpu_decode(alu_word(&f), &in);
    CU_ASSERT_TRUE(in.illegal & VC4_ILLEGAL_TMU_UNIFORM);
    CU_ASSERT_STRING_EQUAL(vc4_illegal_name(VC4_ILLEGAL_TMU_UNIFORM), "tmu_uniform");
    CU_ASSERT_PTR_NULL(vc4_illegal_name(3));
}

static void test_code_tables(void)
{
    /* Table 12 @87353 and Table 13 @88413 mnemonics and numbers */
    static const struct { unsigned v; const char *name; } add[] = {
        { 0, "nop" }, { 1, "fadd" }, { 7, "ftoi" }, { 8, "itof" }, { 12, "add" }, { 13, "sub" },
        { 15, "asr" }, { 16, "ror" }, { 21, "or" }, { 24, "clz" }, { 30, "v8adds" }, { 31, "v8subs" },
    };
    for (unsigned i = 0; i < sizeof add / sizeof add[0]; i++)
        CU_ASSERT_STRING_EQUAL(vc4_add_op_name[add[i].v], add[i].name);
    CU_ASSERT_PTR_NULL(vc4_add_op_name[9]);
    CU_ASSERT_PTR_NULL(vc4_add_op_name[29]);
    CU_ASSERT_STRING_EQUAL(vc4_mul_op_name[2], "mul24");
    CU_ASSERT_STRING_EQUAL(vc4_mul_op_name[4], "v8min");
    CU_ASSERT_EQUAL(VC4_MUL_OP_V8SUBS, 7);
    /* Table 4 @75687 */
    CU_ASSERT_EQUAL(VC4_SIG_PROGRAM_END, 3);
    CU_ASSERT_EQUAL(VC4_SIG_LOAD_TMU1, 11);
    CU_ASSERT_EQUAL(VC4_SIG_SMALL_IMMEDIATE, 13);
    /* Table 2 @74529, Table 3 @74901 */
    CU_ASSERT_EQUAL(VC4_COND_NEVER, 0);
    CU_ASSERT_EQUAL(VC4_COND_CC, 7);
    CU_ASSERT_EQUAL(VC4_MUX_RA, 6);
    CU_ASSERT_EQUAL(VC4_MUX_RB, 7);
    /* Table 14 @91738: the rows where A and B differ */
    CU_ASSERT_STRING_EQUAL(vc4_register[38 - 32].read_a, "ELEMENT_NUMBER");
    CU_ASSERT_STRING_EQUAL(vc4_register[38 - 32].read_b, "QPU_NUMBER");
    CU_ASSERT_STRING_EQUAL(vc4_register[41 - 32].write_a, "QUAD_X");
    CU_ASSERT_STRING_EQUAL(vc4_register[41 - 32].write_b, "QUAD_Y");
    CU_ASSERT_STRING_EQUAL(vc4_register[49 - 32].write_a, "VPMVCD_RD_SETUP");
    CU_ASSERT_STRING_EQUAL(vc4_register[49 - 32].write_b, "VPMVCD_WR_SETUP");
    CU_ASSERT_STRING_EQUAL(vc4_register[50 - 32].read_b, "VPM_ST_WAIT");
    CU_ASSERT_PTR_NULL(vc4_register[52 - 32].read_a);
    CU_ASSERT_EQUAL(VC4_WADDR_A_TMU0_S, 56);
    CU_ASSERT_EQUAL(VC4_WADDR_B_TMU1_B, 63);
    CU_ASSERT_EQUAL(VC4_WADDR_A_HOST_INT, 38);
    CU_ASSERT_EQUAL(VC4_RADDR_A_VPM_READ, 48);
    /* Table 11 @86594 */
    CU_ASSERT_EQUAL(VC4_BRANCH_COND_ANY_CC, 11);
    CU_ASSERT_EQUAL(VC4_BRANCH_COND_ALWAYS, 15);
    /* errata are listed: R4 unpack title, mul pack 8b-8d, branch element 15 */
    bool seen_r4 = false, seen_e15 = false;
    for (unsigned i = 0; i < VC4_ERRATA_COUNT; i++) {
        seen_r4 |= strstr(vc4_errata[i].text, "R4 Pack Encoding") != NULL;
        seen_e15 |= strstr(vc4_errata[i].text, "element 15") != NULL;
    }
    CU_ASSERT_TRUE(seen_r4);
    CU_ASSERT_TRUE(seen_e15);
}

/* Random words: the decode reassembles into the same word (every bit lands in one field). */
static void test_random_roundtrip(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        struct vc4_qpu_instr in;
        vc4_qpu_decode(x, &in);
        CU_ASSERT_EQUAL_FATAL(in.word, x);
        uint64_t back;
        if (in.format == VC4_FORMAT_ALU || in.format == VC4_FORMAT_ALU_SMALL_IMM) {
            struct alu_fields f = { in.sig, in.unpack, in.pm, in.pack, in.cond_add, in.cond_mul,
                                    in.sf, in.ws, in.waddr_add, in.waddr_mul, in.op_mul,
                                    in.op_add, in.raddr_a,
                                    in.format == VC4_FORMAT_ALU ? in.raddr_b : in.small_imm,
                                    in.add_a, in.add_b, in.mul_a, in.mul_b };
            back = alu_word(&f);
        } else if (in.format == VC4_FORMAT_BRANCH) {
            back = branch_word(in.cond_br, in.rel, in.reg, in.raddr_a, in.ws, in.waddr_add,
                               in.waddr_mul, (int32_t)in.immediate) | (x & 0x0f00000000000000ull);
        } else {
            back = imm_word(in.imm_type, in.pm, in.pack, in.cond_add, in.cond_mul, in.sf, in.ws,
                            in.waddr_add, in.waddr_mul, in.immediate);
        }
        CU_ASSERT_EQUAL_FATAL(back, x);
    }
}

static const struct test_case cases[] = {
    { "ALU fields at the seed's bit positions", test_alu_fields },
    { "ALU with small immediate", test_small_immediate_format },
    { "small immediate table (Table 5)", test_small_immediate_table },
    { "load immediate: 32-bit, per-element signed and unsigned", test_load_immediate_forms },
    { "semaphore", test_semaphore },
    { "branch", test_branch },
    { "illegal ALU combinations are flagged", test_illegal_alu },
    { "code tables against the seed", test_code_tables },
    { "random words decode and reassemble", test_random_roundtrip },
    { 0 }
};
TEST_SUITE(vc4_decode, cases);
