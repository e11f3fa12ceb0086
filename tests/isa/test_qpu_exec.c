/* tests/isa/test_qpu_exec.c - VideoCore IV QPU instruction semantics (isa/vc4/qpu_exec).
 *
 * Words are built here from the seed's bit layout (seed 002, Fig 3 @70261 with the Table 1
 * @72071 widths; Fig 5 @82668, Fig 6 @83883, Fig 7 @84940), op/mux/register codes typed from
 * Tables 2-5, 12-14. Expected values are computed in this file from the seed's definitions
 * (plain C integer ops, per-byte loops, float arithmetic) or from constants worked out by
 * hand; where the seed is silent the test checks the choice isa/vc4/qpu_exec.c documents.
 */
#include "../test.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/vc4/qpu_exec.h"

/* codes typed from the seed's tables */
enum { R0 = 0, R1, R2, R3, R4, R5, RA, RB };                      /* Table 3 */
enum { W_R0 = 32, W_R1, W_R2, W_R3, W_R5 = 37, W_NOP = 39,         /* Table 14 */
       W_UNIFORMS_ADDRESS = 40, W_HOST_INT = 38, W_SFU_RECIP = 52 };
enum { RD_UNIFORM = 32, RD_VARYING = 35, RD_ELEMENT = 38, RD_NOP = 39 };
enum { NEVER = 0, ALWAYS, ZS, ZC, NS, NC, CS, CC };                 /* Table 2 */

struct f {
    unsigned sig, unpack, pm, pack, cond_add, cond_mul, sf, ws, waddr_add, waddr_mul;
    unsigned op_mul, op_add, raddr_a, raddr_b, add_a, add_b, mul_a, mul_b;
};

static uint64_t alu(struct f x)
{
    return (uint64_t)x.sig << 60 | (uint64_t)x.unpack << 57 | (uint64_t)x.pm << 56 |
           (uint64_t)x.pack << 52 | (uint64_t)x.cond_add << 49 | (uint64_t)x.cond_mul << 46 |
           (uint64_t)x.sf << 45 | (uint64_t)x.ws << 44 | (uint64_t)x.waddr_add << 38 |
           (uint64_t)x.waddr_mul << 32 | (uint64_t)x.op_mul << 29 | (uint64_t)x.op_add << 24 |
           (uint64_t)x.raddr_a << 18 | (uint64_t)x.raddr_b << 12 | (uint64_t)x.add_a << 9 |
           (uint64_t)x.add_b << 6 | (uint64_t)x.mul_a << 3 | (uint64_t)x.mul_b;
}

/* an add-only instruction: sig 1 (none), mul nop writing nothing */
static uint64_t add_op(unsigned op, unsigned waddr, unsigned a, unsigned b)
{
    return alu((struct f){ .sig = 1, .cond_add = ALWAYS, .waddr_add = waddr, .waddr_mul = W_NOP,
                           .op_add = op, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .add_a = a,
                           .add_b = b });
}

/* the same word with cond_add (bits 51:49) replaced */
static uint64_t with_cond_add(uint64_t word, unsigned cond)
{
    return (word & ~((uint64_t)7 << 49)) | (uint64_t)cond << 49;
}

static uint64_t mul_op(unsigned op, unsigned waddr, unsigned a, unsigned b)
{
    return alu((struct f){ .sig = 1, .cond_mul = ALWAYS, .waddr_add = W_NOP, .waddr_mul = waddr,
                           .op_mul = op, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .mul_a = a,
                           .mul_b = b });
}

static uint64_t imm_word(unsigned type, unsigned pm, unsigned pack, unsigned cond_add,
                         unsigned cond_mul, unsigned sf, unsigned ws, unsigned waddr_add,
                         unsigned waddr_mul, uint32_t imm)
{
    return (uint64_t)14 << 60 | (uint64_t)type << 57 | (uint64_t)pm << 56 | (uint64_t)pack << 52 |
           (uint64_t)cond_add << 49 | (uint64_t)cond_mul << 46 | (uint64_t)sf << 45 |
           (uint64_t)ws << 44 | (uint64_t)waddr_add << 38 | (uint64_t)waddr_mul << 32 | imm;
}

static uint64_t branch_word(unsigned cond, unsigned rel, unsigned reg, unsigned raddr_a,
                            unsigned waddr_add, int32_t imm)
{
    return (uint64_t)15 << 60 | (uint64_t)cond << 52 | (uint64_t)rel << 51 | (uint64_t)reg << 50 |
           (uint64_t)raddr_a << 45 | (uint64_t)waddr_add << 38 | (uint64_t)W_NOP << 32 |
           (uint32_t)imm;
}

static struct qpu_step_result run(struct qpu_state *s, uint64_t word, const struct qpu_io *io)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(word, &in);
    return qpu_step(s, &in, io);
}

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static float bitsf(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* lane values with signs, zero, extremes */
static const uint32_t ivals[16] = { 0, 1, 2, 0xffffffffu, 0x80000000u, 0x7fffffffu, 31, 32, 33,
                                    0x12345678u, 0xdeadbeefu, 0x00ff00ffu, 100, 0xfffffff0u,
                                    0x7f80017fu, 5 };
static const uint32_t ivals2[16] = { 0, 3, 0xffffffffu, 1, 1, 1, 4, 35, 0xfffffffeu, 8, 0x10u,
                                     0xff00ff01u, 100, 0x7fffffffu, 0x81818181u, 64 };

static void load_r0_r1(struct qpu_state *s)
{
    for (unsigned i = 0; i < 16; i++) {
        s->acc[0][i] = ivals[i];
        s->acc[1][i] = ivals2[i];
    }
}

static uint32_t clz_ref(uint32_t v)
{
    uint32_t n = 0;
    for (int b = 31; b >= 0 && !((v >> b) & 1); b--)
        n++;
    return n;
}

/* byte-wise: kind 0 adds, 1 subs, 2 min, 3 max (unsigned bytes, saturating to [0,255]) */
static uint32_t bytes_ref(uint32_t a, uint32_t b, int kind)
{
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        int x = (a >> (8 * k)) & 255, y = (b >> (8 * k)) & 255, z;
        if (kind == 0) z = x + y > 255 ? 255 : x + y;
        else if (kind == 1) z = x - y < 0 ? 0 : x - y;
        else if (kind == 2) z = x < y ? x : y;
        else z = x > y ? x : y;
        r |= (uint32_t)z << (8 * k);
    }
    return r;
}

static uint32_t int_ref(unsigned op, uint32_t a, uint32_t b)
{
    switch (op) {
    case 12: return a + b;
    case 13: return a - b;
    case 14: return a >> (b % 32);
    case 15: return (uint32_t)((int32_t)a >> (b % 32));  /* arithmetic on the compilers we use */
    case 16: return (b % 32) ? (a >> (b % 32)) | (a << (32 - b % 32)) : a;
    case 17: return a << (b % 32);
    case 18: return (int32_t)a < (int32_t)b ? a : b;
    case 19: return (int32_t)a < (int32_t)b ? b : a;
    case 20: return a & b;
    case 21: return a | b;
    case 22: return a ^ b;
    case 23: return ~a;
    case 24: return clz_ref(a);
    case 30: return bytes_ref(a, b, 0);
    default: return bytes_ref(a, b, 1);  /* 31 */
    }
}

static void test_integer_add_ops(void)
{
    static const unsigned ops[] = { 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 30, 31 };
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        struct qpu_state s;
        qpu_state_init(&s, 0);
        load_r0_r1(&s);
        run(&s, add_op(ops[k], W_R2, R0, R1), NULL);
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(s.acc[2][i], int_ref(ops[k], ivals[i], ivals2[i]));
        CU_ASSERT_EQUAL(s.acc[3][0], 0);  /* nothing else written */
    }
}

static void test_mul_ops(void)
{
    struct qpu_state s;
    /* mul24: low 24 bits of each operand, unsigned, low 32 bits of the product */
    qpu_state_init(&s, 0);
    load_r0_r1(&s);
    run(&s, mul_op(2, W_R2, R0, R1), NULL);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(s.acc[2][i],
                        (uint32_t)((uint64_t)(ivals[i] % 16777216u) * (ivals2[i] % 16777216u)));
    /* v8min, v8max, v8adds, v8subs per byte */
    static const unsigned ops[] = { 4, 5, 6, 7 };
    static const int kinds[] = { 2, 3, 0, 1 };
    for (unsigned k = 0; k < 4; k++) {
        qpu_state_init(&s, 0);
        load_r0_r1(&s);
        run(&s, mul_op(ops[k], W_R3, R0, R1), NULL);
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(s.acc[3][i], bytes_ref(ivals[i], ivals2[i], kinds[k]));
    }
    /* v8muld: 0xff * x = x (1.0 * x); 0x80 * 0x80 = 16384/255 = 64.25 -> 64; 0 * x = 0 */
    qpu_state_init(&s, 0);
    s.acc[0][0] = 0xff80ff00u;
    s.acc[1][0] = 0x37808012u;
    run(&s, mul_op(3, W_R2, R0, R1), NULL);
    CU_ASSERT_EQUAL(s.acc[2][0], 0x37408000u);
    /* fmul */
    qpu_state_init(&s, 0);
    s.acc[0][0] = fbits(1.5f);
    s.acc[1][0] = fbits(-2.25f);
    s.acc[0][1] = fbits(1e-20f);
    s.acc[1][1] = fbits(1e-20f);  /* product 1e-40 is a denormal: flushed to +0 */
    run(&s, mul_op(1, W_R2, R0, R1), NULL);
    CU_ASSERT_EQUAL(s.acc[2][0], fbits(-3.375f));
    CU_ASSERT_EQUAL(s.acc[2][1], 0);
}

static void test_float_add_ops(void)
{
    static const float a[8] = { 1.5f, -2.0f, 0.25f, 3.0f, -7.5f, 100.75f, -0.0f, 1e30f };
    static const float b[8] = { 2.25f, 0.5f, -0.25f, 3.0f, 6.0f, -100.5f, 0.0f, -1e30f };
    struct qpu_state s;
    qpu_state_init(&s, 0);
    for (unsigned i = 0; i < 8; i++) {
        s.acc[0][i] = fbits(a[i]);
        s.acc[1][i] = fbits(b[i]);
    }
    struct qpu_state t = s;
    run(&t, add_op(1, W_R2, R0, R1), NULL);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(bitsf(t.acc[2][i]), a[i] + b[i]);
    t = s;
    run(&t, add_op(2, W_R2, R0, R1), NULL);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(bitsf(t.acc[2][i]), a[i] - b[i]);
    t = s;
    run(&t, add_op(3, W_R2, R0, R1), NULL);
    for (unsigned i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(bitsf(t.acc[2][i]), a[i] < b[i] ? a[i] : b[i]);
    t = s;
    run(&t, add_op(4, W_R2, R0, R1), NULL);
    for (unsigned i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(bitsf(t.acc[2][i]), a[i] > b[i] ? a[i] : b[i]);
    t = s;
    run(&t, add_op(5, W_R2, R0, R1), NULL);  /* fminabs: 1.5, 0.5, 0.25, 3, 6, 100.5 */
    CU_ASSERT_EQUAL(bitsf(t.acc[2][1]), 0.5f);
    CU_ASSERT_EQUAL(bitsf(t.acc[2][4]), 6.0f);
    CU_ASSERT_EQUAL(bitsf(t.acc[2][5]), 100.5f);
    t = s;
    run(&t, add_op(6, W_R2, R0, R1), NULL);  /* fmaxabs */
    CU_ASSERT_EQUAL(bitsf(t.acc[2][1]), 2.0f);
    CU_ASSERT_EQUAL(bitsf(t.acc[2][4]), 7.5f);
    CU_ASSERT_EQUAL(bitsf(t.acc[2][5]), 100.75f);
    /* ftoi truncates toward zero; itof */
    t = s;
    run(&t, add_op(7, W_R2, R0, R0), NULL);
    CU_ASSERT_EQUAL(t.acc[2][0], 1);
    CU_ASSERT_EQUAL(t.acc[2][1], (uint32_t)-2);
    CU_ASSERT_EQUAL(t.acc[2][4], (uint32_t)-7);
    CU_ASSERT_EQUAL(t.acc[2][5], 100);
    t = s;
    for (unsigned i = 0; i < 16; i++)
        t.acc[0][i] = ivals[i];
    run(&t, add_op(8, W_R2, R0, R0), NULL);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(bitsf(t.acc[2][i]), (float)(int32_t)ivals[i]);
    /* denormal inputs read as zero: 1e-40 + 0 = +0 */
    t = s;
    t.acc[0][0] = 0x000116c2u;  /* a denormal */
    t.acc[1][0] = 0;
    run(&t, add_op(1, W_R2, R0, R1), NULL);
    CU_ASSERT_EQUAL(t.acc[2][0], 0);
}

static void test_conditions_and_flags(void)
{
    struct qpu_state s;
    qpu_state_init(&s, 0);
    /* r0 = element - 5: negative for 0..4, zero for 5, positive above */
    for (unsigned i = 0; i < 16; i++) {
        s.acc[0][i] = i - 5;
        s.acc[1][i] = 0;
        s.acc[2][i] = 1000 + i;
    }
    /* sub.setf r3, r0, r1 (sf = 1) */
    struct f x = { .sig = 1, .cond_add = ALWAYS, .sf = 1, .waddr_add = W_R3, .waddr_mul = W_NOP,
                   .op_add = 13, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .add_a = R0, .add_b = R1 };
    run(&s, alu(x), NULL);
    CU_ASSERT_EQUAL(s.flag_z, 1u << 5);
    CU_ASSERT_EQUAL(s.flag_n, 0x1f);
    CU_ASSERT_EQUAL(s.flag_c, 0);  /* x - 0 never borrows */
    /* each condition gates the write per element */
    static const unsigned conds[] = { NEVER, ALWAYS, ZS, ZC, NS, NC, CS, CC };
    for (unsigned c = 0; c < 8; c++) {
        struct qpu_state t = s;
        run(&t, with_cond_add(add_op(21, W_R1, R2, R2), conds[c]), NULL);
        for (unsigned i = 0; i < 16; i++) {
            bool z = i == 5, n = i < 5, cf = false, pass;
            switch (conds[c]) {
            case NEVER: pass = false; break;
            case ALWAYS: pass = true; break;
            case ZS: pass = z; break;
            case ZC: pass = !z; break;
            case NS: pass = n; break;
            case NC: pass = !n; break;
            case CS: pass = cf; break;
            default: pass = !cf; break;
            }
            CU_ASSERT_EQUAL(t.acc[1][i], pass ? 1000 + i : 0);
        }
    }
    /* C from an unsigned carry (add 0xffffffff + 1) and borrow (sub 0 - 1) [model's choice] */
    struct qpu_state t;
    qpu_state_init(&t, 0);
    t.acc[0][0] = 0xffffffffu; t.acc[1][0] = 1;
    x.op_add = 12;
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.flag_c & 1, 1);
    CU_ASSERT_EQUAL(t.flag_z & 1, 1);
    /* E3: flags update only where the condition passes: cond zc on lane 0 only */
    qpu_state_init(&t, 0);
    t.flag_z = 0xfffe;            /* only lane 0 has Z clear */
    for (unsigned i = 0; i < 16; i++)
        t.acc[0][i] = 0x80000000u;  /* N would be set everywhere */
    struct f y = x;
    y.op_add = 21; y.add_a = R0; y.add_b = R0; y.cond_add = ZC;
    run(&t, alu(y), NULL);
    CU_ASSERT_EQUAL(t.flag_n, 1);
    CU_ASSERT_EQUAL(t.flag_z, 0xfffe);
    /* flags from the mul ALU when the add ALU is a nop (sf @72071) */
    qpu_state_init(&t, 0);
    for (unsigned i = 0; i < 16; i++)
        t.acc[0][i] = i & 1 ? 0 : 7;
    struct f m = { .sig = 1, .cond_mul = ALWAYS, .sf = 1, .waddr_add = W_NOP, .waddr_mul = W_R2,
                   .op_mul = 4, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .mul_a = R0, .mul_b = R0 };
    run(&t, alu(m), NULL);
    CU_ASSERT_EQUAL(t.flag_z, 0xaaaa);
    /* ...and from the add ALU when both run: add r1 = r0 | r0 (=r0), mul = 0 */
    qpu_state_init(&t, 0);
    for (unsigned i = 0; i < 16; i++)
        t.acc[0][i] = i & 1 ? 0 : 7;
    m.cond_add = ALWAYS; m.op_add = 21; m.waddr_add = W_R1; m.add_a = R0; m.add_b = R0;
    m.mul_a = R3; m.mul_b = R3; /* r3 = 0: mul result zero everywhere */
    run(&t, alu(m), NULL);
    CU_ASSERT_EQUAL(t.flag_z, 0xaaaa);
}

static void test_regfiles_ws_and_io_reads(void)
{
    struct qpu_state s;
    qpu_state_init(&s, 7);
    for (unsigned i = 0; i < 16; i++) {
        s.regfile_a[3][i] = 100 + i;
        s.regfile_b[9][i] = 3;
    }
    /* add ra3 + rb9 -> A location 4 (ws 0); mul v8min ra3,ra3 -> B location 5 */
    struct f x = { .sig = 1, .cond_add = ALWAYS, .cond_mul = ALWAYS, .waddr_add = 4,
                   .waddr_mul = 5, .op_add = 12, .op_mul = 4, .raddr_a = 3, .raddr_b = 9,
                   .add_a = RA, .add_b = RB, .mul_a = RA, .mul_b = RA };
    run(&s, alu(x), NULL);
    CU_ASSERT_EQUAL(s.regfile_a[4][2], 105);
    CU_ASSERT_EQUAL(s.regfile_b[5][2], 102);
    CU_ASSERT_EQUAL(s.regfile_b[4][2], 0);
    /* ws = 1 swaps: add -> B, mul -> A */
    x.ws = 1;
    x.waddr_add = 6; x.waddr_mul = 7;
    run(&s, alu(x), NULL);
    CU_ASSERT_EQUAL(s.regfile_b[6][15], 118);
    CU_ASSERT_EQUAL(s.regfile_a[7][15], 115);
    /* element number (A 38) and QPU number (B 38), Table 14 */
    struct f e = { .sig = 1, .cond_add = ALWAYS, .cond_mul = ALWAYS, .waddr_add = W_R0,
                   .waddr_mul = W_R1, .op_add = 21, .op_mul = 4, .raddr_a = RD_ELEMENT,
                   .raddr_b = 38, .add_a = RA, .add_b = RA, .mul_a = RB, .mul_b = RB };
    run(&s, alu(e), NULL);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(s.acc[0][i], i);
        CU_ASSERT_EQUAL(s.acc[1][i], 7);
    }
}

/* ---- an I/O recorder for the tests ---- */
struct rec {
    uint32_t uniforms[8];
    unsigned uniform_reads, writes, last_waddr, last_sig, signals, sem_number, sem_dec, sems;
    uint32_t last_value0;
    uint16_t last_lanes;
};

static void rec_read(void *ctx, const struct qpu_state *s, unsigned raddr, bool file_b,
                     uint32_t value[16], uint32_t c[16])
{
    struct rec *r = ctx;
    (void)file_b;
    for (unsigned i = 0; i < 16; i++) {
        if (raddr == RD_UNIFORM)
            value[i] = r->uniforms[(s->uniform_address / 4) % 8];
        else if (raddr == RD_VARYING) {
            value[i] = 50 + i;
            c[i] = 70 + i;
        }
    }
    if (raddr == RD_UNIFORM)
        r->uniform_reads++;
}

static void rec_write(void *ctx, struct qpu_state *s, unsigned waddr, bool file_b,
                      const uint32_t value[16], uint16_t lanes)
{
    struct rec *r = ctx;
    (void)s; (void)file_b;
    r->writes++;
    r->last_waddr = waddr;
    r->last_value0 = value[0];
    r->last_lanes = lanes;
}

static void rec_signal(void *ctx, struct qpu_state *s, unsigned sig)
{
    struct rec *r = ctx;
    r->signals++;
    r->last_sig = sig;
    if (sig == 10)  /* a TMU0 load: the unit puts data in r4 */
        for (unsigned i = 0; i < 16; i++)
            s->acc[4][i] = 0xabcd0000u + i;
}

static void rec_semaphore(void *ctx, struct qpu_state *s, unsigned number, bool decrement)
{
    struct rec *r = ctx;
    (void)s;
    r->sems++;
    r->sem_number = number;
    r->sem_dec = decrement;
}

static void test_io_callbacks(void)
{
    struct rec r = { .uniforms = { 11, 22, 33, 44, 55, 66, 77, 88 } };
    struct qpu_io io = { &r, rec_read, rec_write, rec_signal, rec_semaphore, NULL };
    struct qpu_state s;
    qpu_state_init(&s, 0);
    /* or r0, uni, uni ; v8min r1, uni, uni: one uniform read per raddr */
    struct f x = { .sig = 1, .cond_add = ALWAYS, .cond_mul = ALWAYS, .waddr_add = W_R0,
                   .waddr_mul = W_R1, .op_add = 21, .op_mul = 4, .raddr_a = RD_UNIFORM,
                   .raddr_b = RD_NOP, .add_a = RA, .add_b = RA, .mul_a = RA, .mul_b = RA };
    run(&s, alu(x), &io);
    CU_ASSERT_EQUAL(r.uniform_reads, 1);
    CU_ASSERT_EQUAL(s.uniform_address, 4);
    CU_ASSERT_EQUAL(s.acc[0][3], 11);
    /* both raddr_a and raddr_b uniform: two pops */
    x.raddr_b = RD_UNIFORM; x.add_b = RB;
    run(&s, alu(x), &io);
    CU_ASSERT_EQUAL(r.uniform_reads, 3);
    CU_ASSERT_EQUAL(s.uniform_address, 12);
    /* UNIFORMS_ADDRESS takes element 0 and is passed to the I/O side */
    for (unsigned i = 0; i < 16; i++)
        s.acc[2][i] = 0x1000 + 4 * i;
    run(&s, add_op(21, W_UNIFORMS_ADDRESS, R2, R2), &io);
    CU_ASSERT_EQUAL(s.uniform_address, 0x1000);
    CU_ASSERT_EQUAL(r.last_waddr, W_UNIFORMS_ADDRESS);
    /* SFU write with a condition: lanes passed through */
    s.flag_z = 0x00f0;
    run(&s, with_cond_add(add_op(21, W_SFU_RECIP, R2, R2), ZS), &io);
    CU_ASSERT_EQUAL(r.last_waddr, W_SFU_RECIP);
    CU_ASSERT_EQUAL(r.last_lanes, 0x00f0);
    CU_ASSERT_EQUAL(r.last_value0, 0x1000);
    /* varying read: value to the destination, C coefficient in r5 afterwards */
    struct f v = { .sig = 1, .cond_add = ALWAYS, .waddr_add = W_R3, .waddr_mul = W_NOP,
                   .op_add = 21, .raddr_a = RD_VARYING, .raddr_b = RD_NOP, .add_a = RA,
                   .add_b = RA };
    run(&s, alu(v), &io);
    CU_ASSERT_EQUAL(s.acc[3][4], 54);
    CU_ASSERT_EQUAL(s.acc[5][4], 74);
    /* signals: load_tmu0 (10) reaches the I/O side after the writes; thread end reported */
    unsigned before = r.signals;
    struct qpu_step_result res = run(&s, (add_op(0, W_NOP, R0, R0) & ~((uint64_t)15 << 60)) | (uint64_t)9 << 60, &io);
    CU_ASSERT_EQUAL(r.signals, before + 1);
    CU_ASSERT_EQUAL(r.last_sig, 9);
    CU_ASSERT_TRUE(res.program_end);
    res = run(&s, (add_op(0, W_NOP, R0, R0) & ~((uint64_t)15 << 60)) | (uint64_t)10 << 60, &io);
    CU_ASSERT_EQUAL(s.acc[4][3], 0xabcd0003u);
    CU_ASSERT_FALSE(res.program_end);
    res = run(&s, (add_op(0, W_NOP, R0, R0) & ~((uint64_t)15 << 60)) | (uint64_t)6 << 60, &io);
    CU_ASSERT_TRUE(res.thread_switch);
    /* semaphore (Fig 6): decrement 5; also writes its immediate like a load immediate */
    run(&s, imm_word(4, 0, 0, ALWAYS, NEVER, 0, 0, W_R2, W_NOP, 0x10 | 5), &io);
    CU_ASSERT_EQUAL(r.sems, 1);
    CU_ASSERT_EQUAL(r.sem_number, 5);
    CU_ASSERT_EQUAL(r.sem_dec, 1);
    CU_ASSERT_EQUAL(s.acc[2][0], 0x15);
    /* host interrupt write */
    run(&s, add_op(21, W_HOST_INT, R2, R2), &io);
    CU_ASSERT_EQUAL(r.last_waddr, W_HOST_INT);
}

static void test_r5_writes(void)
{
    /* E4: A-space r5 write replicates elements 0/4/8/12 per quad, B-space replicates element 0 */
    struct qpu_state s;
    qpu_state_init(&s, 0);
    for (unsigned i = 0; i < 16; i++)
        s.acc[0][i] = 10 + i;
    run(&s, add_op(21, W_R5, R0, R0), NULL);  /* add writes A space (ws 0) */
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(s.acc[5][i], 10 + (i / 4) * 4);
    run(&s, mul_op(4, W_R5, R0, R0), NULL);  /* mul writes B space */
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(s.acc[5][i], 10);
}

static void test_unpack(void)
{
    struct qpu_state s;
    qpu_state_init(&s, 0);
    for (unsigned i = 0; i < 16; i++)
        s.regfile_a[1][i] = 0x3c00u << 16 | 0xfffeu;  /* 16b = half 1.0, 16a = int -2 */
    s.regfile_a[2][0] = 0x80ff4000u;                  /* bytes a=0x00 b=0x40 c=0xff d=0x80 */
    struct f x = { .sig = 1, .cond_add = ALWAYS, .waddr_add = W_R0, .waddr_mul = W_NOP,
                   .op_add = 21, .raddr_a = 1, .raddr_b = RD_NOP, .add_a = RA, .add_b = RA,
                   .unpack = 1 };
    run(&s, alu(x), NULL);  /* integer consumer: int16 -> int32 */
    CU_ASSERT_EQUAL(s.acc[0][0], (uint32_t)-2);
    x.unpack = 2; x.op_add = 1; x.add_b = R3;  /* fadd ra1.16b, r3 (r3 = 0): half -> float */
    run(&s, alu(x), NULL);
    CU_ASSERT_EQUAL(s.acc[0][0], fbits(1.0f));
    /* 8a..8d: uint8 for an integer consumer, byte/255 for a float one */
    static const uint32_t bytes[4] = { 0x00, 0x40, 0xff, 0x80 };
    for (unsigned k = 0; k < 4; k++) {
        struct f y = { .sig = 1, .cond_add = ALWAYS, .waddr_add = W_R0, .waddr_mul = W_NOP,
                       .op_add = 21, .raddr_a = 2, .raddr_b = RD_NOP, .add_a = RA, .add_b = RA,
                       .unpack = 4 + k };
        run(&s, alu(y), NULL);
        CU_ASSERT_EQUAL(s.acc[0][0], bytes[k]);
        y.op_add = 1; y.add_b = R3;
        run(&s, alu(y), NULL);
        CU_ASSERT_EQUAL(bitsf(s.acc[0][0]), (float)bytes[k] / 255.0f);
    }
    /* 8d replicate */
    struct f z = { .sig = 1, .cond_add = ALWAYS, .waddr_add = W_R0, .waddr_mul = W_NOP,
                   .op_add = 21, .raddr_a = 2, .raddr_b = RD_NOP, .add_a = RA, .add_b = RA,
                   .unpack = 3 };
    run(&s, alu(z), NULL);
    CU_ASSERT_EQUAL(s.acc[0][0], 0x80808080u);
    /* pm = 1: unpack r4 (E1), float forms: r4.8c of 0x00ff0000 = 1.0 via fmul by 1.0 (r1) */
    s.acc[4][0] = 0x00ff0000u;
    s.acc[1][0] = fbits(1.0f);
    struct f m = { .sig = 1, .cond_mul = ALWAYS, .waddr_add = W_NOP, .waddr_mul = W_R2,
                   .op_mul = 1, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .mul_a = R4, .mul_b = R1,
                   .pm = 1, .unpack = 6 };
    run(&s, alu(m), NULL);
    CU_ASSERT_EQUAL(s.acc[2][0], fbits(1.0f));
    /* pm = 1 leaves regfile A reads alone */
    z.pm = 1;
    run(&s, alu(z), NULL);
    CU_ASSERT_EQUAL(s.acc[0][0], 0x80ff4000u);
}

static void test_pack(void)
{
    struct qpu_state s;
    qpu_state_init(&s, 0);
    s.acc[0][0] = 0x123;  s.acc[0][1] = (uint32_t)-5;  s.acc[0][2] = 70000;
    s.regfile_a[6][0] = 0xaabbccddu;
    s.regfile_a[6][1] = 0xaabbccddu;
    s.regfile_a[6][2] = 0xaabbccddu;
    struct f x = { .sig = 1, .cond_add = ALWAYS, .waddr_add = 6, .waddr_mul = W_NOP,
                   .op_add = 21, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .add_a = R0, .add_b = R0 };
    struct qpu_state t = s;
    x.pack = 5;  /* 8b: ls 8 bits into byte 1, others kept */
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][0], 0xaabb23ddu);
    t = s;
    x.pack = 3;  /* 8888 replicate, no saturation */
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][0], 0x23232323u);
    CU_ASSERT_EQUAL(t.regfile_a[6][1], 0xfbfbfbfbu);
    t = s;
    x.pack = 11;  /* 8888 sat: 0x123 -> 255, -5 -> 0, 70000 -> 255 */
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][0], 0xffffffffu);
    CU_ASSERT_EQUAL(t.regfile_a[6][1], 0);
    t = s;
    x.pack = 1;  /* 16a int: ls 16 bits */
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][2], 0xaabb0000u | (70000u & 0xffff));
    t = s;
    x.pack = 10;  /* 16b sat: 70000 -> 32767, -5 -> 0xfffb */
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][2], 0x7fffccddu);
    CU_ASSERT_EQUAL(t.regfile_a[6][1], 0xfffbccddu);
    /* 32 sat: 0x7fffffff + 1 saturates to 0x7fffffff */
    t = s;
    t.acc[0][0] = 0x7fffffffu;
    t.acc[1][0] = 1;
    x.pack = 8; x.op_add = 12; x.add_b = R1;
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][0], 0x7fffffffu);
    /* 16a of a float result: fadd 1.0 + 0.5 = 1.5 = half 0x3e00 */
    t = s;
    t.acc[0][0] = fbits(1.0f);
    t.acc[1][0] = fbits(0.5f);
    x.pack = 1; x.op_add = 1;
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_a[6][0], 0xaabb3e00u);
    /* pack on a B-space write does nothing (pm = 0 packs regfile A only) */
    t = s;
    x.ws = 1; x.op_add = 21; x.add_b = R0; x.pack = 4;
    run(&t, alu(x), NULL);
    CU_ASSERT_EQUAL(t.regfile_b[6][0], 0x123);
    /* pm = 1: mul float -> colour c = sat(round(f*255)): 0.5 -> 127.5 -> 128 (even), 1.2 -> 255,
     * -0.1 -> 0, 0.2 -> 51 */
    static const float in[4] = { 0.5f, 1.2f, -0.1f, 0.2f };
    static const uint32_t col[4] = { 128, 255, 0, 51 };
    for (unsigned k = 0; k < 4; k++) {
        t = s;
        t.acc[0][0] = fbits(in[k]);
        t.acc[1][0] = fbits(1.0f);
        t.acc[2][0] = 0x11223344u;
        struct f m = { .sig = 1, .cond_mul = ALWAYS, .waddr_add = W_NOP, .waddr_mul = W_R2,
                       .op_mul = 1, .raddr_a = RD_NOP, .raddr_b = RD_NOP, .mul_a = R0,
                       .mul_b = R1, .pm = 1, .pack = 3 };
        run(&t, alu(m), NULL);
        CU_ASSERT_EQUAL(t.acc[2][0], col[k] * 0x01010101u);
        m.pack = 6;  /* 8c (E2) */
        t.acc[2][0] = 0x11223344u;
        run(&t, alu(m), NULL);
        CU_ASSERT_EQUAL(t.acc[2][0], 0x11003344u | col[k] << 16);
    }
}

static void test_small_immediates_and_rotation(void)
{
    /* Table 5: 0..15, -16..-1, 2^(v-32) for 32..39, 2^(v-48) for 40..47 */
    for (unsigned code = 0; code < 48; code++) {
        struct qpu_state s;
        qpu_state_init(&s, 0);
        struct f x = { .sig = 13, .cond_add = ALWAYS, .waddr_add = W_R0, .waddr_mul = W_NOP,
                       .op_add = 21, .raddr_a = RD_NOP, .raddr_b = code, .add_a = RB,
                       .add_b = RB };
        run(&s, alu(x), NULL);
        uint32_t want = code < 16 ? code : code < 32 ? (uint32_t)((int)code - 32)
                       : code < 40 ? fbits(ldexpf(1.0f, (int)code - 32))
                                   : fbits(ldexpf(1.0f, (int)code - 48));
        CU_ASSERT_EQUAL(s.acc[0][9], want);
    }
    /* rotation 49..63 of mul inputs from r0-r3: element 0 moves to element n */
    for (unsigned n = 1; n < 16; n++) {
        struct qpu_state s;
        qpu_state_init(&s, 0);
        for (unsigned i = 0; i < 16; i++)
            s.acc[0][i] = 100 + i;
        struct f x = { .sig = 13, .cond_mul = ALWAYS, .waddr_add = W_NOP, .waddr_mul = W_R1,
                       .op_mul = 4, .raddr_a = RD_NOP, .raddr_b = 48 + n, .mul_a = R0,
                       .mul_b = R0 };
        run(&s, alu(x), NULL);
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(s.acc[1][(i + n) % 16], 100 + i);
        /* code 48: by r5 element 0 bits 3:0 */
        qpu_state_init(&s, 0);
        for (unsigned i = 0; i < 16; i++)
            s.acc[0][i] = 100 + i;
        s.acc[5][0] = 0x30 | n;
        x.raddr_b = 48;
        run(&s, alu(x), NULL);
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(s.acc[1][(i + n) % 16], 100 + i);
    }
    /* the add ALU is not rotated */
    struct qpu_state s;
    qpu_state_init(&s, 0);
    for (unsigned i = 0; i < 16; i++)
        s.acc[0][i] = i;
    struct f x = { .sig = 13, .cond_add = ALWAYS, .waddr_add = W_R2, .waddr_mul = W_NOP,
                   .op_add = 21, .raddr_a = RD_NOP, .raddr_b = 50, .add_a = R0, .add_b = R0 };
    run(&s, alu(x), NULL);
    CU_ASSERT_EQUAL(s.acc[2][5], 5);
}

static void test_load_immediates(void)
{
    struct qpu_state s;
    qpu_state_init(&s, 0);
    /* 32-bit: both ALUs "mov" the value; add -> r0, mul -> rb3 (ws 0) */
    run(&s, imm_word(0, 0, 0, ALWAYS, ALWAYS, 0, 0, W_R0, 3, 0xdeadbeefu), NULL);
    CU_ASSERT_EQUAL(s.acc[0][7], 0xdeadbeefu);
    CU_ASSERT_EQUAL(s.regfile_b[3][7], 0xdeadbeefu);
    /* per element: bit i of [31:16] is the MS bit, bit i of [15:0] the LS bit */
    uint32_t ms = 0xa5c3u, ls = 0x0ff0u;
    run(&s, imm_word(1, 0, 0, ALWAYS, NEVER, 0, 0, W_R1, W_NOP, ms << 16 | ls), NULL);
    run(&s, imm_word(3, 0, 0, ALWAYS, NEVER, 0, 0, W_R2, W_NOP, ms << 16 | ls), NULL);
    for (unsigned i = 0; i < 16; i++) {
        int m = (ms >> i) & 1, l = (ls >> i) & 1;
        CU_ASSERT_EQUAL((int32_t)s.acc[1][i], -2 * m + l);
        CU_ASSERT_EQUAL(s.acc[2][i], (uint32_t)(2 * m + l));
    }
    /* sf: flags from the value; cond gates per element */
    s.flag_z = 0;
    run(&s, imm_word(0, 0, 0, ALWAYS, NEVER, 1, 0, W_R3, W_NOP, 0x80000000u), NULL);
    CU_ASSERT_EQUAL(s.flag_n, 0xffff);
    s.flag_z = 0x000f;
    run(&s, imm_word(0, 0, 0, ZS, NEVER, 0, 0, W_R3, W_NOP, 9), NULL);
    CU_ASSERT_EQUAL(s.acc[3][0], 9);
    CU_ASSERT_EQUAL(s.acc[3][4], 0x80000000u);
    /* pack applies: pm 0 16b into regfile A */
    s.regfile_a[8][0] = 0x1111u;
    run(&s, imm_word(0, 0, 2, ALWAYS, NEVER, 0, 0, 8, W_NOP, 0x12345678u), NULL);
    CU_ASSERT_EQUAL(s.regfile_a[8][0], 0x56781111u);
}

/* Run words[] from pc 0 until pc leaves the program or max steps. */
static unsigned run_program(struct qpu_state *s, const uint64_t *words, unsigned n,
                            unsigned max_steps, uint32_t *trace)
{
    unsigned steps = 0;
    while (s->pc / 8 < n && steps < max_steps) {
        trace[steps] = s->pc;
        struct qpu_step_result r = run(s, words[s->pc / 8], NULL);
        qpu_advance(s, &r);
        steps++;
    }
    return steps;
}

static void test_branches(void)
{
    /* a loop counting r0 down from 3: the three delay slots always run; r1 counts every
     * instruction executed in them */
    uint64_t prog[] = {
        imm_word(0, 0, 0, ALWAYS, NEVER, 0, 0, W_R0, W_NOP, 3),       /* 0: r0 = 3 */
        imm_word(0, 0, 0, ALWAYS, NEVER, 0, 0, W_R2, W_NOP, 1),       /* 1: r2 = 1 */
        alu((struct f){ .sig = 1, .cond_add = ALWAYS, .sf = 1, .waddr_add = W_R0,
                        .waddr_mul = W_NOP, .op_add = 13, .raddr_a = RD_NOP, .raddr_b = RD_NOP,
                        .add_a = R0, .add_b = R2 }),                  /* 2: r0 -= 1, setf */
        /* 3: -> instruction 2 if any r0 != 0; relative to PC+4 = instruction 7 */
        branch_word(3 /* any_zc */, 1, 0, 0, W_NOP, (2 - 7) * 8),
        add_op(12, W_R1, R1, R2),                                      /* 4-6: delay slots */
        add_op(12, W_R1, R1, R2),
        add_op(12, W_R1, R1, R2),
        add_op(12, W_R3, R3, R2),                                      /* 7: after the loop */
    };
    struct qpu_state s;
    qpu_state_init(&s, 0);
    uint32_t trace[64];
    unsigned steps = run_program(&s, prog, 8, 64, trace);
    /* 2 setup, 3 iterations of (sub, branch, 3 slots), then instruction 7 */
    CU_ASSERT_EQUAL(steps, 2 + 3 * 5 + 1);
    CU_ASSERT_EQUAL(s.acc[0][0], 0);
    CU_ASSERT_EQUAL(s.acc[1][0], 9);
    CU_ASSERT_EQUAL(s.acc[3][0], 1);
    CU_ASSERT_EQUAL(trace[2 + 5], 16);  /* back at instruction 2 after the first slots */
    /* absolute branch with the register target from element 15 (E5), link written */
    uint64_t p2[] = {
        branch_word(15, 0, 1, 4, W_R3, 8),  /* 0: -> ra4[15] + 8, link -> r3 */
        add_op(0, W_NOP, R0, R0), add_op(0, W_NOP, R0, R0), add_op(0, W_NOP, R0, R0),
        add_op(12, W_R1, R1, R2),           /* 4: skipped */
        add_op(12, W_R1, R1, R2),           /* 5: skipped */
        add_op(12, W_R0, R0, R2),           /* 6: target */
    };
    qpu_state_init(&s, 0);
    for (unsigned i = 0; i < 16; i++)
        s.regfile_a[4][i] = i == 15 ? 40 : 0;
    s.acc[2][0] = 1;
    steps = run_program(&s, p2, 7, 64, trace);
    CU_ASSERT_EQUAL(steps, 5);
    CU_ASSERT_EQUAL(s.acc[0][0], 1);
    CU_ASSERT_EQUAL(s.acc[1][0], 0);
    CU_ASSERT_EQUAL(s.acc[3][5], 32);  /* link = PC + 4 instructions */
    /* all/any conditions over the 16 elements (Table 11) */
    static const struct { unsigned cond; uint16_t z, n, c; bool taken; } bc[] = {
        { 0, 0xffff, 0, 0, true }, { 0, 0xfffe, 0, 0, false }, { 1, 0, 0, 0, true },
        { 1, 1, 0, 0, false }, { 2, 0x0100, 0, 0, true }, { 2, 0, 0, 0, false },
        { 3, 0xfffe, 0, 0, true }, { 3, 0xffff, 0, 0, false }, { 4, 0, 0xffff, 0, true },
        { 5, 0, 0x8000, 0, false }, { 6, 0, 0x0010, 0, true }, { 7, 0, 0xffff, 0, false },
        { 8, 0, 0, 0xffff, true }, { 9, 0, 0, 0x0001, false }, { 10, 0, 0, 0x0001, true },
        { 11, 0, 0, 0, true }, { 11, 0, 0, 0xffff, false }, { 15, 0, 0, 0, true },
    };
    for (unsigned k = 0; k < sizeof bc / sizeof bc[0]; k++) {
        qpu_state_init(&s, 0);
        s.flag_z = bc[k].z; s.flag_n = bc[k].n; s.flag_c = bc[k].c;
        struct qpu_step_result r = run(&s, branch_word(bc[k].cond, 1, 0, 0, W_NOP, 0), NULL);
        CU_ASSERT_EQUAL(r.branch_taken, bc[k].taken);
    }
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void random_state(struct qpu_state *s, uint64_t *seed)
{
    uint32_t *w = (uint32_t *)s->regfile_a;
    for (size_t i = 0; i < sizeof s->regfile_a / 4; i++) w[i] = (uint32_t)rng_next(seed);
    w = (uint32_t *)s->regfile_b;
    for (size_t i = 0; i < sizeof s->regfile_b / 4; i++) w[i] = (uint32_t)rng_next(seed);
    w = (uint32_t *)s->acc;
    for (size_t i = 0; i < sizeof s->acc / 4; i++) w[i] = (uint32_t)rng_next(seed);
    s->flag_z = (uint16_t)rng_next(seed);
    s->flag_n = (uint16_t)rng_next(seed);
    s->flag_c = (uint16_t)rng_next(seed);
}

static void test_random_words(void)
{
    struct rec r = { .uniform_reads = 0 };
    struct qpu_io io = { &r, rec_read, rec_write, rec_signal, rec_semaphore, NULL };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    struct qpu_state s;
    qpu_state_init(&s, 3);
    for (unsigned k = 0; k < 20000; k++) {
        if (k % 64 == 0)
            random_state(&s, &seed);
        struct qpu_step_result res = run(&s, rng_next(&seed), k & 1 ? &io : NULL);
        qpu_advance(&s, &res);
    }
    CU_ASSERT_TRUE(1);  /* reaching here without a crash or sanitizer report is the test */
}

static void test_capture_words(void)
{
    static const char *const patterns[] = { "../shared/traces/vc4/*.run.log",
                                            "../shared/traces/ext/vc4/*.run.log" };
    struct rec r = { .uniform_reads = 0 };
    struct qpu_io io = { &r, rec_read, rec_write, rec_signal, rec_semaphore, NULL };
    unsigned words = 0, files = 0;
    uint64_t seed = 12345;
    for (unsigned p = 0; p < 2; p++) {
        glob_t gl;
        if (glob(patterns[p], 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            FILE *f = fopen(gl.gl_pathv[i], "r");
            if (!f)
                continue;
            files++;
            char line[512];
            while (fgets(line, sizeof line, f)) {
                if (strncmp(line, "0x", 2) != 0)
                    continue;
                char *end;
                unsigned long long w = strtoull(line + 2, &end, 16);
                if (end != line + 18 || (*end != ' ' && *end != '\n'))
                    continue;
                struct qpu_state s;
                qpu_state_init(&s, 1);
                random_state(&s, &seed);
                struct qpu_step_result res = run(&s, (uint64_t)w, &io);
                qpu_advance(&s, &res);
                words++;
            }
            fclose(f);
        }
        globfree(&gl);
    }
    if (!files) {
        printf("\n  [qpu_exec] ../shared/traces/{,ext/}vc4/*.run.log absent: capture words "
               "skipped ");
        return;
    }
    printf("\n  [qpu_exec] %u capture words executed on random state (%u listings) ", words,
           files);
    CU_ASSERT_TRUE(words > 0);
}

static void test_half_float(void)
{
    /* IEEE half: 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff, 0.5 = 0x3800 */
    CU_ASSERT_EQUAL(qpu_half_to_float(0x3c00), fbits(1.0f));
    CU_ASSERT_EQUAL(qpu_half_to_float(0xc000), fbits(-2.0f));
    CU_ASSERT_EQUAL(qpu_half_to_float(0x7bff), fbits(65504.0f));
    CU_ASSERT_EQUAL(qpu_float_to_half(fbits(0.5f)), 0x3800);
    CU_ASSERT_EQUAL(qpu_float_to_half(fbits(65504.0f)), 0x7bff);
    CU_ASSERT_EQUAL(qpu_float_to_half(fbits(1e6f)), 0x7c00);  /* overflow -> inf */
    CU_ASSERT_EQUAL(qpu_float_flush(0x00000001u), 0);
    CU_ASSERT_EQUAL(qpu_float_flush(0x80000001u), 0x80000000u);
}

static const struct test_case cases[] = {
    { "integer add ops lane by lane", test_integer_add_ops },
    { "mul ops: fmul, mul24, v8 ops", test_mul_ops },
    { "float add ops, ftoi, itof, denormal flush", test_float_add_ops },
    { "conditions and flags (E3)", test_conditions_and_flags },
    { "regfile reads, writes and ws", test_regfiles_ws_and_io_reads },
    { "io callbacks: uniforms, varyings, signals, semaphores", test_io_callbacks },
    { "r5 writes replicate per quad / element 0 (E4)", test_r5_writes },
    { "unpack regfile A and r4", test_unpack },
    { "pack regfile A and mul colour", test_pack },
    { "small immediates and rotation", test_small_immediates_and_rotation },
    { "load immediates in 3 forms", test_load_immediates },
    { "branches, delay slots, link, conditions", test_branches },
    { "half float helpers", test_half_float },
    { "random words never crash", test_random_words },
    { "capture words execute", test_capture_words },
    { 0 }
};
TEST_SUITE(qpu_exec, cases);
