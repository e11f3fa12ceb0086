/* tests/units/test_eu_exec.c - the EU's per-channel execution (units/eu/eu_exec*.c)
 * on one thread, instruction by instruction.
 *
 * Kernels are built with the encoder (isa/intel/eu_encode.h), which writes fields
 * through the same spec tables the decoder (tested against intel-gen4disasm in
 * test_eu_decode.c) reads. Every expected value is worked out here from the
 * seed's definitions (seed 003 = SKL PRM vol 7 line numbers) with C arithmetic
 * on the inputs, never copied from the model's output.
 */
#include "../test.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_encode.h"
#include "units/eu/eu_exec.h"

enum {
    MOV = 1, SEL = 2, NOT = 4, AND = 5, OR = 6, XOR = 7, SHR = 8, SHL = 9, ASR = 12, CMP = 16,
    CMPN = 17, CSEL = 18, BFREV = 23, BFE = 24, BFI1 = 25, BFI2 = 26, JMPI = 32, IF = 34,
    ELSE = 36, ENDIF = 37, WHILE = 39, BREAK = 40, CONT = 41, HALT = 42, CALL = 44, RET = 45,
    SEND = 49, MATH = 56, ADD = 64, MUL = 65, AVG = 66, FRC = 67, RNDU = 68, RNDD = 69,
    RNDE = 70, RNDZ = 71, MAC = 72, MACH = 73, LZD = 74, FBH = 75, FBL = 76, CBIT = 77,
    ADDC = 78, SUBB = 79, DP4 = 84, DPH = 85, DP3 = 86, DP2 = 87, LINE = 89, PLN = 90,
    MAD = 91, LRP = 92, NOP = 126,
};
enum { CM_Z = 1, CM_NZ, CM_G, CM_GE, CM_L, CM_LE, CM_O = 8, CM_U };

#define G(r, t) eu_enc_grf(r, 0, EU_TYPE_##t)
#define S(r, sub, t) eu_enc_scalar(r, sub, EU_TYPE_##t)
#define IMM(t, v) eu_enc_imm(EU_TYPE_##t, (uint64_t)(v))
#define NUL(t) eu_enc_null(EU_TYPE_##t)

static struct eu_enc_insn op1(unsigned op, unsigned es, struct eu_enc_opnd d, struct eu_enc_opnd a)
{
    struct eu_enc_insn in = { .opcode = (uint8_t)op, .exec_size = (uint8_t)es, .dst = d, .nsrc = 1 };
    in.src[0] = a;
    return in;
}

static struct eu_enc_insn op2(unsigned op, unsigned es, struct eu_enc_opnd d, struct eu_enc_opnd a,
                              struct eu_enc_opnd b)
{
    struct eu_enc_insn in = op1(op, es, d, a);
    in.src[1] = b;
    in.nsrc = 2;
    return in;
}

static struct eu_enc_insn op3(unsigned op, unsigned es, struct eu_enc_opnd d, struct eu_enc_opnd a,
                              struct eu_enc_opnd b, struct eu_enc_opnd c)
{
    struct eu_enc_insn in = op2(op, es, d, a, b);
    in.src[2] = c;
    in.nsrc = 3;
    in.align16 = true;
    return in;
}

static struct eu_enc_insn flow(unsigned op, int32_t jip, int32_t uip)
{
    struct eu_enc_insn in = { .opcode = (uint8_t)op, .exec_size = 8, .jip = jip, .uip = uip };
    in.dst = NUL(D);
    return in;
}

struct prog {
    struct eu_enc_buf b;
    struct eu_thread *t;
};

static struct prog *prog_new_gen(int gen)
{
    struct prog *p = calloc(1, sizeof *p);
    p->b.gen = gen;
    p->t = calloc(1, sizeof *p->t);
    eu_thread_init(p->t, gen, 0, 0, 0xff);
    return p;
}

static struct prog *prog_new(void)
{
    return prog_new_gen(9);
}

static void prog_free(struct prog *p)
{
    CU_ASSERT_EQUAL(p->b.errors, 0);
    eu_enc_free(&p->b);
    free(p->t);
    free(p);
}

static size_t emit(struct prog *p, struct eu_enc_insn in)
{
    return eu_enc_emit(&p->b, &in);
}

/* Runs from ip 0 until the kernel's end; returns the last step result. */
static enum eu_step_result run(struct prog *p)
{
    struct eu_thread *t = p->t;
    t->ip = 0;
    for (unsigned k = 0; k < 100000; k++) {
        if (t->ip >= p->b.len)
            return EU_STEP_OK;
        struct eu_instruction in;
        if (!eu_decode(p->b.gen, p->b.bytes + t->ip, p->b.len - t->ip, &in))
            return EU_STEP_FAULT;
        struct eu_send_request rq;
        enum eu_step_result r = eu_exec(t, &in, &rq, k);
        if (r == EU_STEP_END || r == EU_STEP_FAULT)
            return r;
    }
    return EU_STEP_FAULT;
}

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float bitsf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t ud(struct prog *p, unsigned reg, unsigned dw) { return eu_grf_ud(p->t, reg, dw); }
static float fl(struct prog *p, unsigned reg, unsigned dw) { return bitsf(ud(p, reg, dw)); }
static void set_f(struct prog *p, unsigned reg, const float *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        eu_grf_set_ud(p->t, reg + i / 8, i % 8, fbits(v[i]));
}
static void set_d(struct prog *p, unsigned reg, const int32_t *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        eu_grf_set_ud(p->t, reg + i / 8, i % 8, (uint32_t)v[i]);
}

/* ---- moves, types, conversions ------------------------------------------------ */

static void test_mov_float_to_int_saturates(void)
{
    /* F -> D/UD/W/UB: RTZ (cr0.0[12] = 0), NaN -> 0, out of range saturates,
     * unsigned negative -> 0 (L21657-21693, L22066-22076). */
    struct prog *p = prog_new();
    float in[8] = { 1.5f, -1.5f, 3e9f, -3e9f, NAN, INFINITY, -INFINITY, 0.99f };
    set_f(p, 1, in, 8);
    emit(p, op1(MOV, 8, G(10, D), G(1, F)));
    emit(p, op1(MOV, 8, G(11, UD), G(1, F)));
    emit(p, op1(MOV, 8, eu_enc_rgn(G(12, W), 0, 0, 2), G(1, F)));    /* dst stride 2 words */
    emit(p, op1(MOV, 8, eu_enc_rgn(G(13, UB), 0, 0, 4), G(1, F)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    const uint32_t d[8] = { 1, 0xffffffff, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0x80000000, 0 };
    const uint32_t u[8] = { 1, 0, 3000000000u, 0, 0, 0xffffffff, 0, 0 };
    const uint16_t w[8] = { 1, 0xffff, 0x7fff, 0x8000, 0, 0x7fff, 0x8000, 0 };
    const uint8_t b[8] = { 1, 0, 0xff, 0, 0, 0xff, 0, 0 };
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(ud(p, 10, i), d[i]);
        CU_ASSERT_EQUAL(ud(p, 11, i), u[i]);
        CU_ASSERT_EQUAL(ud(p, 12, i) & 0xffff, w[i]);
        CU_ASSERT_EQUAL(p->t->grf[13 * 32 + 4 * i], b[i]);
    }
    prog_free(p);
}

static void test_mov_int_conversions_and_sat(void)
{
    struct prog *p = prog_new();
    int32_t in[8] = { 0x1ff, -1, 300, -300, 65536, 127, -128, 16777217 };
    set_d(p, 1, in, 8);
    emit(p, op1(MOV, 8, eu_enc_rgn(G(10, UB), 0, 0, 4), G(1, D)));        /* wraps */
    struct eu_enc_insn s = op1(MOV, 8, eu_enc_rgn(G(11, UB), 0, 0, 4), G(1, D));
    s.sat = true;                                                          /* clamps */
    emit(p, s);
    s = op1(MOV, 8, eu_enc_rgn(G(12, B), 0, 0, 4), G(1, D));
    s.sat = true;
    emit(p, s);
    emit(p, op1(MOV, 8, G(13, F), G(1, D)));                               /* RNE */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(p->t->grf[10 * 32 + 4 * i], (uint8_t)in[i]);
        int v = in[i] < 0 ? 0 : (in[i] > 255 ? 255 : in[i]);
        CU_ASSERT_EQUAL(p->t->grf[11 * 32 + 4 * i], v);
        int sb = in[i] < -128 ? -128 : (in[i] > 127 ? 127 : in[i]);
        CU_ASSERT_EQUAL((int8_t)p->t->grf[12 * 32 + 4 * i], sb);
        CU_ASSERT_EQUAL(fl(p, 13, i), (float)in[i]);
    }
    /* 2^24 + 1 is not representable: round to nearest even gives 2^24 */
    CU_ASSERT_EQUAL(fl(p, 13, 7), 16777216.0f);
    prog_free(p);
}

static void test_vector_immediates(void)
{
    /* V: 8 signed nibbles; UV unsigned; VF: sign 7, exp 6:4 bias 3, frac 3:0
     * (L21345-21371). */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(10, D), IMM(V, 0xf8765410u)));
    emit(p, op1(MOV, 8, G(11, D), IMM(UV, 0xf8765410u)));
    emit(p, op1(MOV, 8, G(12, F), IMM(VF, 0x5f00b040u)));
    emit(p, op1(MOV, 8, G(13, D), IMM(W, 0xfffe)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    const int nib[8] = { 0, 1, 4, 5, 6, 7, 8, 15 };
    const float vf[4] = { 2.0f /* 0x40: 2^(4-3) */, -1.0f /* 0xb0: sign, 2^(3-3) */, 0.0f,
                          4.0f * (1.0f + 15.0f / 16.0f) /* 0x5f: 2^(5-3) x 1.9375 */ };
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL((int32_t)ud(p, 10, i), nib[i] >= 8 ? nib[i] - 16 : nib[i]);
        CU_ASSERT_EQUAL(ud(p, 11, i), (uint32_t)nib[i]);
        CU_ASSERT_EQUAL(fl(p, 12, i), vf[i % 4]);
        CU_ASSERT_EQUAL((int32_t)ud(p, 13, i), -2);
    }
    prog_free(p);
}

static void test_half_float_conversions(void)
{
    /* binary16 (HF parameters L21545-21553): fmax 65504 = 0x7bff; 65520 rounds to
     * infinity; 1/3 rounds to nearest even; 2^-24 is the smallest denormal (kept
     * only with cr0.0[10] = 1). */
    struct prog *p = prog_new();
    float in[8] = { 65504.0f, 65520.0f, 1.0f / 3.0f, -2.0f, 0x1p-24f, NAN, 1.0f, 0.5f };
    set_f(p, 1, in, 8);
    emit(p, op1(MOV, 8, eu_enc_rgn(G(10, HF), 0, 0, 2), G(1, F)));     /* dword-strided */
    emit(p, op1(MOV, 8, G(11, F), eu_enc_rgn(G(10, HF), 16, 8, 2)));   /* and back */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 0) & 0xffff, 0x7bff);
    CU_ASSERT_EQUAL(ud(p, 10, 1) & 0xffff, 0x7c00);
    CU_ASSERT_EQUAL(ud(p, 10, 2) & 0xffff, 0x3555);     /* 0.333251953125 */
    CU_ASSERT_EQUAL(ud(p, 10, 3) & 0xffff, 0xc000);
    CU_ASSERT_EQUAL(ud(p, 10, 4) & 0xffff, 0x0000);     /* denormal flushed (cr0.0[10]=0) */
    CU_ASSERT_EQUAL(ud(p, 10, 5) & 0x7c00, 0x7c00);     /* NaN stays NaN */
    CU_ASSERT_NOT_EQUAL(ud(p, 10, 5) & 0x3ff, 0);
    CU_ASSERT_EQUAL(fl(p, 11, 2), 1365.0f / 4096.0f);
    CU_ASSERT_TRUE(isinf(fl(p, 11, 1)));
    /* with half denormals allowed the smallest one survives */
    eu_thread_init(p->t, 9, 0, 0, 0xff);
    set_f(p, 1, in, 8);
    uint32_t cr = 1u << 10;
    memcpy(p->t->arf[EU_ARF_CR0], &cr, 4);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 4) & 0xffff, 0x0001);
    CU_ASSERT_EQUAL(fl(p, 11, 4), 0x1p-24f);
    prog_free(p);
}

/* ---- arithmetic ---------------------------------------------------------------------- */

static void test_add_mul_sat_and_modifiers(void)
{
    struct prog *p = prog_new();
    float a[8] = { 0.25f, 0.75f, -2.0f, NAN, 3.0f, -0.5f, 1e30f, 2.0f };
    float b[8] = { 0.5f, 0.5f, 1.0f, 1.0f, -1.25f, 0.25f, 1e30f, -3.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    struct eu_enc_insn s = op2(ADD, 8, G(10, F), G(1, F), G(2, F));
    s.sat = true;
    emit(p, s);
    struct eu_enc_opnd na = G(1, F), ab = G(2, F);
    na.negate = true;
    ab.abs = true;
    emit(p, op2(MUL, 8, G(11, F), na, ab));                  /* -a * |b| */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        float sum = a[i] + b[i];
        float sat = isnan(sum) ? 0.0f : (sum < 0 ? 0.0f : (sum > 1 ? 1.0f : sum));
        CU_ASSERT_EQUAL(fbits(fl(p, 10, i)), fbits(sat));
        float prod = -a[i] * fabsf(b[i]);
        if (isnan(prod)) {
            CU_ASSERT_TRUE(isnan(fl(p, 11, i)));
        } else {
            CU_ASSERT_EQUAL(fbits(fl(p, 11, i)), fbits(prod));
        }
    }
    prog_free(p);
}

static void check_integer_alu(int gen)
{
    struct prog *p = prog_new_gen(gen);
    int32_t a[8] = { 5, -7, 0x7fffffff, -1, 100, 0x12345678, -100000, 3 };
    int32_t b[8] = { 3, 2, 1, 31, -7, 4, 33, 0 };
    set_d(p, 1, a, 8);
    set_d(p, 2, b, 8);
    emit(p, op2(ADD, 8, G(10, D), G(1, D), G(2, D)));
    emit(p, op2(MUL, 8, G(11, D), G(1, D), G(2, D)));
    emit(p, op2(AVG, 8, G(12, D), G(1, D), G(2, D)));
    emit(p, op2(SHL, 8, G(13, UD), G(1, UD), G(2, UD)));
    emit(p, op2(SHR, 8, G(14, UD), G(1, UD), G(2, UD)));
    emit(p, op2(ASR, 8, G(15, D), G(1, D), G(2, D)));
    emit(p, op2(AND, 8, G(16, UD), G(1, UD), G(2, UD)));
    emit(p, op2(OR, 8, G(17, UD), G(1, UD), G(2, UD)));
    struct eu_enc_opnd nb = G(2, UD);
    nb.negate = true;                                        /* logic: bitwise NOT */
    emit(p, op2(XOR, 8, G(18, UD), G(1, UD), nb));
    emit(p, op1(NOT, 8, G(19, UD), G(1, UD)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t ua = (uint32_t)a[i], ub = (uint32_t)b[i];
        CU_ASSERT_EQUAL(ud(p, 10, i), ua + ub);
        CU_ASSERT_EQUAL(ud(p, 11, i), (uint32_t)((int64_t)a[i] * b[i]));
        CU_ASSERT_EQUAL((int32_t)ud(p, 12, i), (int32_t)(((int64_t)a[i] + b[i] + 1) >> 1));
        CU_ASSERT_EQUAL(ud(p, 13, i), ua << (ub & 31));
        CU_ASSERT_EQUAL(ud(p, 14, i), ua >> (ub & 31));
        CU_ASSERT_EQUAL((int32_t)ud(p, 15, i), a[i] >> (ub & 31));
        CU_ASSERT_EQUAL(ud(p, 16, i), ua & ub);
        CU_ASSERT_EQUAL(ud(p, 17, i), ua | ub);
        CU_ASSERT_EQUAL(ud(p, 18, i), ua ^ ~ub);
        CU_ASSERT_EQUAL(ud(p, 19, i), ~ua);
    }
    prog_free(p);
}
static void test_integer_alu_gen7(void) { check_integer_alu(7); }
static void test_integer_alu_gen8(void) { check_integer_alu(8); }
static void test_integer_alu_gen9(void) { check_integer_alu(9); }

static void test_bit_operations(void)
{
    struct prog *p = prog_new();
    uint32_t a[8] = { 1, 0x80000000u, 0, 0xf0f0f0f0u, 0xffffffffu, 0x00010000u, 7, 0x12345678u };
    set_d(p, 1, (const int32_t *)a, 8);
    emit(p, op1(BFREV, 8, G(10, UD), G(1, UD)));
    emit(p, op1(FBH, 8, G(11, UD), G(1, UD)));
    emit(p, op1(FBL, 8, G(12, UD), G(1, UD)));
    emit(p, op1(CBIT, 8, G(13, UD), G(1, UD)));
    emit(p, op1(LZD, 8, G(14, UD), G(1, UD)));
    emit(p, op1(FBH, 8, G(15, D), G(1, D)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t x = a[i], rev = 0, pop = 0, lz = 32, fl1 = 0xffffffff, fh = 0xffffffff;
        for (unsigned k = 0; k < 32; k++) {
            if (x >> k & 1) { rev |= 1u << (31 - k); pop++; if (fl1 == 0xffffffff) fl1 = k; }
        }
        for (int k = 31; k >= 0; k--)
            if (x >> k & 1) { lz = 31 - (uint32_t)k; fh = lz; break; }
        /* fbh on D: first bit that differs from the sign, from the MSB */
        uint32_t y = (x >> 31) ? ~x : x, fhd = 0xffffffff;
        for (int k = 31; k >= 0; k--)
            if (y >> k & 1) { fhd = 31 - (uint32_t)k; break; }
        CU_ASSERT_EQUAL(ud(p, 10, i), rev);
        CU_ASSERT_EQUAL(ud(p, 11, i), fh);
        CU_ASSERT_EQUAL(ud(p, 12, i), fl1);
        CU_ASSERT_EQUAL(ud(p, 13, i), pop);
        CU_ASSERT_EQUAL(ud(p, 14, i), lz);
        CU_ASSERT_EQUAL(ud(p, 15, i), fhd);
    }
    prog_free(p);
}

static void test_bitfield_extract_insert(void)
{
    /* bfe width=src0, offset=src1, value=src2; bfi1 mask; bfi2 (mask & src1) |
     * (~mask & src2) */
    struct prog *p = prog_new();
    uint32_t w[8] = { 4, 8, 0, 31, 16, 1, 12, 5 };
    uint32_t o[8] = { 0, 4, 3, 1, 20, 31, 8, 30 };
    uint32_t v[8] = { 0xabcd1234u, 0xabcd1234u, 0xffffffffu, 0x80000001u, 0xdeadbeefu, 0x80000000u,
                      0x00fff000u, 0xc0000000u };
    set_d(p, 1, (const int32_t *)w, 8);
    set_d(p, 2, (const int32_t *)o, 8);
    set_d(p, 3, (const int32_t *)v, 8);
    emit(p, op3(BFE, 8, G(10, UD), G(1, UD), G(2, UD), G(3, UD)));
    emit(p, op3(BFE, 8, G(11, D), G(1, D), G(2, D), G(3, D)));
    emit(p, op2(BFI1, 8, G(12, UD), G(1, UD), G(2, UD)));
    emit(p, op3(BFI2, 8, G(13, UD), G(12, UD), G(3, UD), G(1, UD)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t field = w[i] ? ((uint64_t)v[i] >> o[i]) & ((UINT64_C(1) << w[i]) - 1) : 0;
        CU_ASSERT_EQUAL(ud(p, 10, i), (uint32_t)field);
        int64_t sfield = (int64_t)field;
        unsigned bits = w[i] + o[i] > 32 ? 32 - o[i] : w[i];
        if (w[i] && bits && (field >> (bits - 1) & 1))
            sfield -= (int64_t)1 << bits;       /* sign-extended from the field's top bit */
        CU_ASSERT_EQUAL((int32_t)ud(p, 11, i), (int32_t)sfield);
        uint32_t mask = (uint32_t)((((uint64_t)1 << w[i]) - 1) << o[i]);
        CU_ASSERT_EQUAL(ud(p, 12, i), mask);
        CU_ASSERT_EQUAL(ud(p, 13, i), (mask & v[i]) | (~mask & w[i]));
    }
    prog_free(p);
}

static void test_carry_borrow_and_mach(void)
{
    struct prog *p = prog_new();
    uint32_t a[8] = { 0xffffffffu, 1, 0x80000000u, 0, 5, 0xfffffff0u, 123456789, 0x7fffffff };
    uint32_t b[8] = { 1, 2, 0x80000000u, 1, 5, 0x20, 987654321, 0x7fffffff };
    set_d(p, 1, (const int32_t *)a, 8);
    set_d(p, 2, (const int32_t *)b, 8);
    struct eu_enc_insn c = op2(ADDC, 8, G(10, UD), G(1, UD), G(2, UD));
    c.acc_wr = true;
    emit(p, c);
    emit(p, op1(MOV, 8, G(11, UD), eu_enc_arf(0x20, 0, EU_TYPE_UD)));     /* carries */
    c = op2(SUBB, 8, G(12, UD), G(1, UD), G(2, UD));
    c.acc_wr = true;
    emit(p, c);
    emit(p, op1(MOV, 8, G(13, UD), eu_enc_arf(0x20, 0, EU_TYPE_UD)));     /* borrows */
    /* the 32x32 multiply macro of 004 L23190: mul acc0 src0 src1:uw (low
     * word), mach dst src0 src1 (high dword), mov from acc0 (low dword) */
    struct eu_enc_opnd lo_uw = eu_enc_rgn(G(2, UW), 16, 8, 2);
    emit(p, op2(MUL, 8, eu_enc_arf(0x20, 0, EU_TYPE_UD), G(1, UD), lo_uw));
    c = op2(MACH, 8, G(14, UD), G(1, UD), G(2, UD));
    c.acc_wr = true;
    emit(p, c);
    emit(p, op1(MOV, 8, G(16, UD), eu_enc_arf(0x20, 0, EU_TYPE_UD)));
    emit(p, op2(MUL, 8, eu_enc_arf(0x20, 0, EU_TYPE_D), G(1, D), lo_uw));
    c = op2(MACH, 8, G(15, D), G(1, D), G(2, D));
    c.acc_wr = true;
    emit(p, c);
    emit(p, op1(MOV, 8, G(17, D), eu_enc_arf(0x20, 0, EU_TYPE_D)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t s = (uint64_t)a[i] + b[i];
        CU_ASSERT_EQUAL(ud(p, 10, i), (uint32_t)s);
        CU_ASSERT_EQUAL(ud(p, 11, i), (uint32_t)(s >> 32));
        CU_ASSERT_EQUAL(ud(p, 12, i), a[i] - b[i]);
        CU_ASSERT_EQUAL(ud(p, 13, i), a[i] < b[i] ? 1u : 0u);
        CU_ASSERT_EQUAL(ud(p, 14, i), (uint32_t)(((uint64_t)a[i] * b[i]) >> 32));
        CU_ASSERT_EQUAL(ud(p, 16, i), (uint32_t)((uint64_t)a[i] * b[i]));
        int64_t sp = (int64_t)(int32_t)a[i] * (int32_t)b[i];
        CU_ASSERT_EQUAL((int32_t)ud(p, 15, i), (int32_t)(sp >> 32));
        CU_ASSERT_EQUAL(ud(p, 17, i), (uint32_t)sp);
    }
    prog_free(p);
}

static void test_mad_lrp_mac_fused(void)
{
    struct prog *p = prog_new();
    float a[8] = { 1.0f, 0.5f, -3.0f, 1e-3f, 0.1f, 2.0f, 0.25f, 0.0f };
    float b[8] = { 0x1.000002p0f, 2.0f, 4.0f, 1e3f, 0.2f, -0.5f, 8.0f, 1.0f };
    float c[8] = { 0x1.fffffcp-1f, 0.5f, 0.25f, 3.0f, 0.3f, 7.0f, -1.0f, 9.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    set_f(p, 3, c, 8);
    emit(p, op3(MAD, 8, G(10, F), G(1, F), G(2, F), G(3, F)));
    emit(p, op3(LRP, 8, G(11, F), G(1, F), G(2, F), G(3, F)));
    emit(p, op1(MOV, 8, eu_enc_arf(0x20, 0, EU_TYPE_F), G(1, F)));       /* acc0 = a */
    emit(p, op2(MAC, 8, G(12, F), G(2, F), G(3, F)));                    /* acc + b*c */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        /* mad = src0 + src1 * src2, fused (single rounding, L21622-21635) */
        float m = (float)((double)a[i] + (double)b[i] * (double)c[i]);
        CU_ASSERT_EQUAL(fbits(fl(p, 10, i)), fbits(m));
        float l = a[i] * b[i] + (1.0f - a[i]) * c[i];
        CU_ASSERT_DOUBLE_EQUAL(fl(p, 11, i), l, fabsf(l) * 1e-6 + 1e-6);
        float mc = a[i] + b[i] * c[i];
        CU_ASSERT_DOUBLE_EQUAL(fl(p, 12, i), mc, fabsf(mc) * 1e-6 + 1e-6);
    }
    /* channel 0: b*c = 1 + 2^-23 - 2^-46 (after the 2^-23 terms): fused keeps the
     * -2^-46 so the sum rounds differently from an unfused mul+add */
    prog_free(p);
}

static void test_rounding_and_frc(void)
{
    /* rndd/rndu/rnde/rndz/frc (L23977-24062): frc = x - floor(x) */
    struct prog *p = prog_new();
    float in[8] = { 2.5f, 3.5f, -2.5f, -0.5f, 1.25f, -1.75f, 8388609.0f, -0.0f };
    set_f(p, 1, in, 8);
    emit(p, op1(RNDD, 8, G(10, F), G(1, F)));
    emit(p, op1(RNDU, 8, G(11, F), G(1, F)));
    emit(p, op1(RNDE, 8, G(12, F), G(1, F)));
    emit(p, op1(RNDZ, 8, G(13, F), G(1, F)));
    emit(p, op1(FRC, 8, G(14, F), G(1, F)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    const float rnde[8] = { 2.0f, 4.0f, -2.0f, -0.0f, 1.0f, -2.0f, 8388609.0f, -0.0f };
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(fl(p, 10, i), floorf(in[i]));
        CU_ASSERT_EQUAL(fl(p, 11, i), ceilf(in[i]));
        CU_ASSERT_EQUAL(fbits(fl(p, 12, i)), fbits(rnde[i]));
        CU_ASSERT_EQUAL(fl(p, 13, i), truncf(in[i]));
        CU_ASSERT_EQUAL(fl(p, 14, i), in[i] - floorf(in[i]));
    }
    prog_free(p);
}

static void test_compare_flags_and_select(void)
{
    /* cmp (L20872-20895): dst all ones where true, the flag bit per channel;
     * NaN compares false except .ne; cmpn is true when src1 is NaN
     * (L21397-21403). Predicated sel picks src0 where the flag is set. */
    struct prog *p = prog_new();
    float a[8] = { 1.0f, 2.0f, NAN, 4.0f, -0.0f, 5.0f, NAN, -1.0f };
    float b[8] = { 2.0f, 2.0f, 1.0f, NAN, 0.0f, 3.0f, NAN, -2.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    struct eu_enc_insn c = op2(CMP, 8, G(10, F), G(1, F), G(2, F));
    c.cond = CM_L;
    emit(p, c);
    c = op2(CMP, 8, NUL(F), G(1, F), G(2, F));
    c.cond = CM_NZ;
    c.flag_reg = 1;
    emit(p, c);
    c = op2(CMPN, 8, NUL(F), G(1, F), G(2, F));
    c.cond = CM_L;
    c.flag_subreg = 1;
    emit(p, c);
    c = op2(SEL, 8, G(11, F), G(1, F), G(2, F));
    c.pred = 1;
    emit(p, c);                                             /* (f0.0) sel */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    uint32_t f0 = eu_flag_get(p->t, 0), f1 = eu_flag_get(p->t, 1);
    for (unsigned i = 0; i < 8; i++) {
        bool lt = a[i] < b[i], ne = !(a[i] == b[i]);
        bool ltn = isnan(b[i]) ? true : (isnan(a[i]) ? false : lt);
        CU_ASSERT_EQUAL(ud(p, 10, i), lt ? 0xffffffffu : 0u);
        CU_ASSERT_EQUAL(f0 >> i & 1, lt);
        CU_ASSERT_EQUAL(f1 >> i & 1, ne);
        CU_ASSERT_EQUAL(f0 >> (16 + i) & 1, ltn);
        float sel = lt ? a[i] : b[i];
        CU_ASSERT_EQUAL(fbits(fl(p, 11, i)), fbits(sel));
    }
    prog_free(p);
}

static void test_min_max_nan_rules(void)
{
    /* sel.l / sel.ge = min / max; a NaN source is ignored; both NaN give a NaN;
     * -0 < +0 (L21702-21739); the flags are not touched (L21441-21443). */
    struct prog *p = prog_new();
    float a[8] = { 1.0f, NAN, 3.0f, NAN, -0.0f, 0.0f, -5.0f, INFINITY };
    float b[8] = { 2.0f, 7.0f, NAN, NAN, 0.0f, -0.0f, -6.0f, 1.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    eu_flag_set(p->t, 0, 0x5a5a);
    struct eu_enc_insn s = op2(SEL, 8, G(10, F), G(1, F), G(2, F));
    s.cond = CM_L;
    emit(p, s);
    s.dst = G(11, F);
    s.cond = CM_GE;
    emit(p, s);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        float mn, mx;
        if (isnan(a[i]) && isnan(b[i])) {
            CU_ASSERT_TRUE(isnan(fl(p, 10, i)));
            CU_ASSERT_TRUE(isnan(fl(p, 11, i)));
            continue;
        }
        if (isnan(a[i])) { mn = mx = b[i]; }
        else if (isnan(b[i])) { mn = mx = a[i]; }
        else if (a[i] == 0 && b[i] == 0) { mn = -0.0f; mx = 0.0f; }
        else { mn = a[i] < b[i] ? a[i] : b[i]; mx = a[i] > b[i] ? a[i] : b[i]; }
        CU_ASSERT_EQUAL(fbits(fl(p, 10, i)), fbits(mn));
        CU_ASSERT_EQUAL(fbits(fl(p, 11, i)), fbits(mx));
    }
    CU_ASSERT_EQUAL(eu_flag_get(p->t, 0), 0x5a5a);
    prog_free(p);
}

static void test_post_conditions(void)
{
    /* add.z/.g/.l and .u (L20872-20895): the result against zero; NaN sets .u */
    struct prog *p = prog_new();
    float a[8] = { 1.0f, -1.0f, 2.0f, NAN, 0.5f, -3.0f, 0.0f, 1e38f };
    float b[8] = { -1.0f, -1.0f, 1.0f, 1.0f, 0.5f, 3.0f, -0.0f, 1e38f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    unsigned cms[4] = { CM_Z, CM_G, CM_L, CM_U };
    for (unsigned k = 0; k < 4; k++) {
        struct eu_enc_insn s = op2(ADD, 8, G(10 + k, F), G(1, F), G(2, F));
        s.cond = (uint8_t)cms[k];
        s.flag_reg = (uint8_t)(k / 2);
        s.flag_subreg = (uint8_t)(k % 2);
        emit(p, s);
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    uint64_t f = eu_flag_get(p->t, 0) | (uint64_t)eu_flag_get(p->t, 1) << 32;
    for (unsigned i = 0; i < 8; i++) {
        float r = a[i] + b[i];
        bool nan = isnan(r);
        CU_ASSERT_EQUAL(f >> i & 1, !nan && r == 0);
        CU_ASSERT_EQUAL(f >> (16 + i) & 1, !nan && r > 0);
        CU_ASSERT_EQUAL(f >> (32 + i) & 1, !nan && r < 0);
        CU_ASSERT_EQUAL(f >> (48 + i) & 1, nan);
    }
    prog_free(p);
}

static void test_dot_products_align16(void)
{
    /* dp4/dp3/dp2/dph per 4-channel group, replicated (opcode table L23026+) */
    struct prog *p = prog_new();
    float a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[8] = { 0.5f, -1, 2, 0.25f, 1, 1, -1, 2 };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    struct eu_enc_opnd s0 = eu_enc_rgn(G(1, F), 4, 4, 1), s1 = eu_enc_rgn(G(2, F), 4, 4, 1);
    unsigned ops[4] = { DP4, DP3, DP2, DPH };
    for (unsigned k = 0; k < 4; k++) {
        struct eu_enc_insn in = op2(ops[k], 8, G(10 + k, F), s0, s1);
        in.align16 = true;
        emit(p, in);
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned g = 0; g < 2; g++) {
        const float *x = a + 4 * g, *y = b + 4 * g;
        float dp4 = x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
        float dp3 = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        float dp2 = x[0] * y[0] + x[1] * y[1];
        float dph = dp3 + y[3];
        for (unsigned c = 0; c < 4; c++) {
            CU_ASSERT_EQUAL(fl(p, 10, 4 * g + c), dp4);
            CU_ASSERT_EQUAL(fl(p, 11, 4 * g + c), dp3);
            CU_ASSERT_EQUAL(fl(p, 12, 4 * g + c), dp2);
            CU_ASSERT_EQUAL(fl(p, 13, 4 * g + c), dph);
        }
    }
    prog_free(p);
}

static void test_line_and_plane(void)
{
    /* line: p*src1 + q (p = src0.0, q = src0.3); pln: p*u + q*v + r with u in
     * src1's register and v in the next (SIMD8) */
    struct prog *p = prog_new();
    float pq[4] = { 2.0f, -3.0f, 0.0f, 0.5f };
    float u[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, v[8] = { 1, 1, 2, 2, 3, 3, 4, 4 };
    set_f(p, 1, pq, 4);
    set_f(p, 2, u, 8);
    set_f(p, 3, v, 8);
    emit(p, op2(LINE, 8, G(10, F), S(1, 0, F), G(2, F)));
    emit(p, op2(PLN, 8, G(11, F), S(1, 0, F), G(2, F)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(fl(p, 10, i), pq[0] * u[i] + pq[3]);
        CU_ASSERT_EQUAL(fl(p, 11, i), pq[0] * u[i] + pq[1] * v[i] + pq[3]);
    }
    prog_free(p);
}

static void test_math_functions(void)
{
    /* math (L24065-24295); precision bounds from the same section */
    struct prog *p = prog_new();
    float a[8] = { 4.0f, 0.25f, 2.0f, 1.0f, 0.5f, 100.0f, 3.0f, 0.0f };
    float b[8] = { 2.0f, 0.5f, 3.0f, 7.0f, 2.0f, 0.5f, -1.0f, 1.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    unsigned fns[9] = { 1, 2, 3, 4, 5, 6, 7, 10, 9 };   /* inv log exp sqrt rsq sin cos pow fdiv */
    for (unsigned k = 0; k < 9; k++) {
        struct eu_enc_insn m = fns[k] >= 9 ? op2(MATH, 8, G(10 + k, F), G(1, F), G(2, F))
                                           : op2(MATH, 8, G(10 + k, F), G(1, F), NUL(F));
        m.cond = (uint8_t)fns[k];
        emit(p, m);
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        double x = a[i], y = b[i];
        double want[9] = { 1 / x, log2(x), exp2(x), sqrt(x), 1 / sqrt(x), sin(x), cos(x),
                           pow(x, y), x / y };
        for (unsigned k = 0; k < 9; k++) {
            double got = fl(p, 10 + k, i);
            if (isinf(want[k])) {
                CU_ASSERT_TRUE(isinf(got) && signbit(got) == signbit(want[k]));
                continue;
            }
            CU_ASSERT_DOUBLE_EQUAL(got, want[k], fabs(want[k]) * 1e-5 + 1e-6);
        }
    }
    prog_free(p);
}

static void test_integer_divide_signs(void)
{
    /* INT DIV (L24244): quotient sign = xor of the signs; remainder takes the
     * numerator's. intdivmod writes the remainder to the next register. */
    struct prog *p = prog_new();
    int32_t n[8] = { 7, 7, -7, -7, 100, INT32_MIN, 5, 0 };
    int32_t d[8] = { 2, -2, 2, -2, 7, -1, 0, 3 };
    set_d(p, 1, n, 8);
    set_d(p, 2, d, 8);
    struct eu_enc_insn m = op2(MATH, 8, G(10, D), G(1, D), G(2, D));
    m.cond = 11;                            /* intdivmod -> r10 quotient, r11 remainder */
    emit(p, m);
    m.dst = G(12, D);
    m.cond = 13;                            /* intmod */
    emit(p, m);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 6; i++) {
        int64_t q = (int64_t)n[i] / d[i], r = (int64_t)n[i] % d[i];
        CU_ASSERT_EQUAL((int32_t)ud(p, 10, i), (int32_t)q);
        CU_ASSERT_EQUAL((int32_t)ud(p, 11, i), (int32_t)r);
        CU_ASSERT_EQUAL((int32_t)ud(p, 12, i), (int32_t)r);
        if (r) {
            CU_ASSERT_EQUAL(r < 0, n[i] < 0);
        }
    }
    /* divide by zero: not defined by the seed; counted, deterministic */
    CU_ASSERT_EQUAL(p->t->counts.divide_by_zero, 2);
    CU_ASSERT_EQUAL(ud(p, 10, 6), 0xffffffffu);
    prog_free(p);
}

/* ---- float modes ---------------------------------------------------------------------- */

static void test_denormals_by_cr0(void)
{
    /* cr0.0[7] Single Precision Denorm Mode: 0 flushes denormal sources and
     * results to zero preserving sign; 1 keeps them (L20019-20065). */
    struct prog *p = prog_new();
    float a[8] = { 0x1p-140f, -0x1p-140f, 0x1p-126f, 0x1p-127f, 1.0f, 0, 0, 0 };
    float b[8] = { 0.0f, -0.0f, -0x1p-127f, 0.0f, 0.0f, 0, 0, 0 };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    emit(p, op2(ADD, 8, G(10, F), G(1, F), G(2, F)));     /* -0 + -0 = -0 */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(fbits(fl(p, 10, 0)), fbits(0.0f));
    CU_ASSERT_EQUAL(fbits(fl(p, 10, 1)), fbits(-0.0f));
    CU_ASSERT_EQUAL(fl(p, 10, 2), 0x1p-126f);           /* flushed source: 2^-126 + 0 */
    CU_ASSERT_EQUAL(fl(p, 10, 3), 0.0f);
    uint32_t cr = 1u << 7;
    memcpy(p->t->arf[EU_ARF_CR0], &cr, 4);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(fl(p, 10, 0), 0x1p-140f);
    CU_ASSERT_EQUAL(fl(p, 10, 1), -0x1p-140f);
    CU_ASSERT_EQUAL(fl(p, 10, 2), 0x1p-126f - 0x1p-127f);
    CU_ASSERT_EQUAL(fl(p, 10, 3), 0x1p-127f);
    prog_free(p);
}

static void test_same_type_mov_keeps_denormals(void)
{
    /* 004 L22970-22974: a mov with the same source and destination type and
     * no modifier is a raw move; with .sat or a source modifier the denormal
     * is still kept. So under the default cr0 (denormals flushed) an integer
     * bit pattern moved through F registers (Mesa's blorp sample indices:
     * 1, 2, 3 are denormals as floats) survives, while an ADD or a mov that
     * converts F -> DF flushes it. */
    struct prog *p = prog_new();
    const uint32_t bits[8] = { 1, 2, 3, 0x007fffffu, 0x80000005u, 0x3f800000u, 0, 0x00400000u };
    for (unsigned i = 0; i < 8; i++)
        eu_grf_set_ud(p->t, 1, i, bits[i]);
    emit(p, op1(MOV, 8, G(10, F), G(1, F)));                        /* raw */
    struct eu_enc_insn s = op1(MOV, 8, G(11, F), G(1, F));
    s.sat = true;
    emit(p, s);                                                      /* .sat */
    struct eu_enc_opnd neg = G(1, F);
    neg.negate = true;
    emit(p, op1(MOV, 8, G(12, F), neg));                             /* source modifier */
    emit(p, op2(ADD, 8, G(13, F), G(1, F), IMM(F, 0)));              /* an operation */
    emit(p, op1(MOV, 4, G(14, DF), G(1, F)));                        /* a conversion */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t x = bits[i];
        bool denormal = (x & 0x7f800000u) == 0 && (x & 0x007fffffu) != 0;
        CU_ASSERT_EQUAL(ud(p, 10, i), x);
        /* .sat: [0, 1]; a negative denormal clamps to +0, a positive one stays */
        CU_ASSERT_EQUAL(ud(p, 11, i), (x >> 31) ? 0u : x);
        CU_ASSERT_EQUAL(ud(p, 12, i), x ^ 0x80000000u);
        CU_ASSERT_EQUAL(ud(p, 13, i), denormal ? 0u : x);            /* -0 + +0 = +0 */
    }
    for (unsigned i = 0; i < 4; i++) {       /* DF lanes from F lanes 0..3: all denormal but 5 */
        uint64_t lo = ud(p, 14, 2 * i), hi = ud(p, 14, 2 * i + 1);
        CU_ASSERT_EQUAL(hi << 32 | lo, 0u);
    }
    prog_free(p);
    /* DF -> DF keeps a DF denormal (cr0.0[6] = 0 flushes DF elsewhere) */
    p = prog_new();
    eu_grf_set_ud(p->t, 1, 0, 7);
    eu_grf_set_ud(p->t, 1, 1, 0);
    emit(p, op1(MOV, 1, G(10, DF), G(1, DF)));
    emit(p, op2(ADD, 1, G(11, DF), G(1, DF), G(1, DF)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 0), 7u);
    CU_ASSERT_EQUAL(ud(p, 11, 0), 0u);
    prog_free(p);
}

static void test_rounding_modes_from_cr0(void)
{
    /* cr0.0[5:4]: 00 RTNE, 01 RU, 10 RD, 11 RTZ (L21575-21610); float-to-int
     * uses them when cr0.0[12] is set. */
    struct prog *p = prog_new();
    float a[8] = { 1.0f, -1.0f, 1.0f, 2.5f, -2.5f, 0, 0, 0 };
    float b[8] = { 0x1p-30f, -0x1p-30f, 3.0f, 0, 0, 0, 0, 0 };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    emit(p, op2(ADD, 8, G(10, F), G(1, F), G(2, F)));
    emit(p, op1(MOV, 8, G(11, D), G(1, F)));
    /* expected results by the definitions: 1 + 2^-30 lies between 1 and
     * 1 + 2^-23; 2.5 between 2 and 3 */
    const float up = 1.0f + 0x1p-23f;
    const float e0[4] = { 1.0f, up, 1.0f, 1.0f }, e1[4] = { -1.0f, -1.0f, -up, -1.0f };
    const int32_t i3[4] = { 2, 3, 2, 2 }, i4[4] = { -2, -2, -3, -2 };
    for (unsigned rm = 0; rm < 4; rm++) {
        eu_thread_init(p->t, 9, 0, 0, 0xff);
        set_f(p, 1, a, 8);
        set_f(p, 2, b, 8);
        uint32_t cr = rm << 4 | 1u << 12;
        memcpy(p->t->arf[EU_ARF_CR0], &cr, 4);
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        CU_ASSERT_EQUAL(fbits(fl(p, 10, 0)), fbits(e0[rm]));
        CU_ASSERT_EQUAL(fbits(fl(p, 10, 1)), fbits(e1[rm]));
        CU_ASSERT_EQUAL((int32_t)ud(p, 11, 3), i3[rm]);
        CU_ASSERT_EQUAL((int32_t)ud(p, 11, 4), i4[rm]);
    }
    /* the host's own rounding mode is left as it was */
    CU_ASSERT_EQUAL(fegetround(), FE_TONEAREST);
    prog_free(p);
}

static void test_alt_mode(void)
{
    /* cr0.0[0] ALT (L21473-21511): +/-INF results become +/-fmax; log, rsq and
     * sqrt take abs() of the source. IEEE mode for comparison. */
    struct prog *p = prog_new();
    float a[8] = { 3e38f, -3e38f, -4.0f, -8.0f, -4.0f, 0.0f, 2.0f, 1.0f };
    float b[8] = { 3e38f, 3e38f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    emit(p, op2(ADD, 8, G(10, F), G(1, F), G(2, F)));
    emit(p, op2(MUL, 8, G(11, F), G(1, F), G(2, F)));
    unsigned fns[4] = { 4, 2, 5, 1 };       /* sqrt log rsq inv */
    for (unsigned k = 0; k < 4; k++) {
        struct eu_enc_insn m = op2(MATH, 8, G(12 + k, F), G(1, F), NUL(F));
        m.cond = (uint8_t)fns[k];
        emit(p, m);
    }
    for (int alt = 0; alt < 2; alt++) {
        eu_thread_init(p->t, 9, 0, 0, 0xff);
        set_f(p, 1, a, 8);
        set_f(p, 2, b, 8);
        uint32_t cr = (uint32_t)alt;
        memcpy(p->t->arf[EU_ARF_CR0], &cr, 4);
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        float big = alt ? FLT_MAX : INFINITY;
        CU_ASSERT_EQUAL(fl(p, 10, 0), big);                 /* 3e38 + 3e38 overflows */
        CU_ASSERT_EQUAL(fl(p, 11, 0), big);                 /* 9e76 */
        CU_ASSERT_EQUAL(fl(p, 11, 1), -big);
        if (alt) {
            CU_ASSERT_DOUBLE_EQUAL(fl(p, 12, 2), 2.0, 1e-6);      /* sqrt(|-4|) */
            CU_ASSERT_DOUBLE_EQUAL(fl(p, 13, 3), 3.0, 1e-6);      /* log2(|-8|) */
            CU_ASSERT_DOUBLE_EQUAL(fl(p, 14, 4), 0.5, 1e-6);      /* rsq(|-4|) */
            CU_ASSERT_EQUAL(fl(p, 15, 5), FLT_MAX);               /* inv(0) */
        } else {
            CU_ASSERT_TRUE(isnan(fl(p, 12, 2)));
            CU_ASSERT_TRUE(isnan(fl(p, 13, 3)));
            CU_ASSERT_TRUE(isinf(fl(p, 15, 5)));
        }
    }
    prog_free(p);
}

static void test_double_precision(void)
{
    struct prog *p = prog_new();
    double a[4] = { 1.0 / 3.0, 1e300, -2.5, 0x1p-1060 };
    double b[4] = { 2.0 / 3.0, 1e300, 0.5, 0.0 };
    memcpy(p->t->grf + 1 * 32, a, 32);
    memcpy(p->t->grf + 2 * 32, b, 32);
    emit(p, op2(ADD, 4, eu_enc_rgn(G(10, DF), 0, 0, 1), eu_enc_rgn(G(1, DF), 4, 4, 1),
                eu_enc_rgn(G(2, DF), 4, 4, 1)));
    emit(p, op2(MUL, 4, G(11, DF), eu_enc_rgn(G(1, DF), 4, 4, 1), eu_enc_rgn(G(2, DF), 4, 4, 1)));
    emit(p, op1(MOV, 4, G(12, F), eu_enc_rgn(G(1, DF), 4, 4, 1)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    double r[4], m[4];
    memcpy(r, p->t->grf + 10 * 32, 32);
    memcpy(m, p->t->grf + 11 * 32, 32);
    for (unsigned i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(r[i], a[i] + b[i]);
        CU_ASSERT_EQUAL(m[i], a[i] * b[i]);
        CU_ASSERT_EQUAL(fl(p, 12, i), (float)a[i]);
    }
    CU_ASSERT_EQUAL(r[3], 0.0);             /* DF denormal flushed (cr0.0[6] = 0) */
    prog_free(p);
}

/* ---- seed rules the executor used to miss (item by item) ------------------------------ */

static void set_cr0(struct prog *p, uint32_t cr)
{
    memcpy(p->t->arf[EU_ARF_CR0], &cr, 4);
}

static void test_seed_int_to_float_rounds_by_cr0(void)
{
    /* "If the integer source value is not exactly representable in the
     * destination floating-point format, use the current rounding mode"
     * (L21694-21700). 2^24 + 1 lies halfway between 2^24 (0x4b800000) and
     * 2^24 + 2 (0x4b800001). */
    const uint32_t pos[4] = { 0x4b800000u, 0x4b800001u, 0x4b800000u, 0x4b800000u };
    const uint32_t neg[4] = { 0xcb800000u, 0xcb800000u, 0xcb800001u, 0xcb800000u };
    for (unsigned rm = 0; rm < 4; rm++) {
        struct prog *p = prog_new();
        int32_t v[8] = { 0x01000001, -0x01000001, 3, 0, 0, 0, 0, 0 };
        set_d(p, 1, v, 8);
        set_cr0(p, rm << 4);
        emit(p, op1(MOV, 8, G(10, F), G(1, D)));
        emit(p, op2(ADD, 8, G(11, F), G(1, D), IMM(D, 0)));     /* int compute, F destination */
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        CU_ASSERT_EQUAL(ud(p, 10, 0), pos[rm]);
        CU_ASSERT_EQUAL(ud(p, 10, 1), neg[rm]);
        CU_ASSERT_EQUAL(ud(p, 10, 2), 0x40400000u);
        CU_ASSERT_EQUAL(ud(p, 11, 0), pos[rm]);
        CU_ASSERT_EQUAL(ud(p, 11, 1), neg[rm]);
        CU_ASSERT_EQUAL(fegetround(), FE_TONEAREST);
        prog_free(p);
    }
}

static void test_seed_post_conditions_after_conversion(void)
{
    /* post_sign / post_zero are "after all the clamping, normalizing, or
     * format conversion logic" (L20866-20868), before .sat (L20873). */
    struct prog *p = prog_new();
    float a[8] = { 0.5f, -1.0f, 0x1p-100f, NAN, 2.0f, -0.25f, 0, 0 };
    set_f(p, 1, a, 8);
    struct eu_enc_insn m = op1(MOV, 8, G(10, D), G(1, F));
    m.cond = CM_Z;                              /* f0.0 */
    emit(p, m);
    m = op1(MOV, 8, G(11, UD), G(1, F));
    m.cond = CM_L;                              /* f0.1 */
    m.flag_subreg = 1;
    emit(p, m);
    struct eu_enc_insn u = op2(MUL, 8, G(12, F), G(1, F), IMM(F, fbits(0x1p-40f)));
    u.cond = CM_Z;                              /* f1.0: 2^-140 flushes to 0 (cr0.0[7] = 0) */
    u.flag_reg = 1;
    emit(p, u);
    struct eu_enc_insn t = op2(ADD, 8, G(13, F), G(1, F), IMM(F, 0));
    t.cond = CM_L;                              /* f1.1: .sat clamps after the flags */
    t.sat = true;
    t.flag_reg = 1;
    t.flag_subreg = 1;
    emit(p, t);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    uint32_t f0 = eu_flag_get(p->t, 0), f1 = eu_flag_get(p->t, 1);
    CU_ASSERT_EQUAL(ud(p, 10, 0), 0u);
    CU_ASSERT_EQUAL(f0 & 1, 1u);                /* mov.z (D<-F) 0.5: writes 0, flag 1 */
    CU_ASSERT_EQUAL(f0 >> 1 & 1, 0u);           /* -1.0 -> -1: not zero */
    CU_ASSERT_EQUAL(f0 >> 3 & 1, 0u);           /* NaN -> 0, but NC forces false */
    CU_ASSERT_EQUAL(f0 >> 5 & 1, 1u);           /* -0.25 -> 0 */
    CU_ASSERT_EQUAL(ud(p, 11, 1), 0u);
    CU_ASSERT_EQUAL(f0 >> 17 & 1, 0u);          /* mov.l (UD<-F) -1.0: writes 0, flag 0 */
    CU_ASSERT_EQUAL(f0 >> 21 & 1, 0u);          /* -0.25 -> 0 */
    CU_ASSERT_EQUAL(ud(p, 12, 2), 0u);
    CU_ASSERT_EQUAL(f1 >> 2 & 1, 1u);           /* mul.z, result flushed to 0: flag 1 */
    CU_ASSERT_EQUAL(f1 >> 4 & 1, 0u);           /* 2 * 2^-40 is not zero */
    CU_ASSERT_EQUAL(ud(p, 13, 1), 0u);          /* .sat: -1 -> 0 ... */
    CU_ASSERT_EQUAL(f1 >> 17 & 1, 1u);          /* ... but the flag sees -1 */
    prog_free(p);
}

static void test_seed_ieee_minmax_prefers_snan(void)
{
    /* cr0.0[11] (L20025-20029): 0 = the result is the non-sNaN source, 1 =
     * the sNaN source, quietened (L21702-21739); two sNaNs give the first,
     * quietened (L21732, L21738); qNaN with sNaN gives the quietened sNaN. */
    const uint32_t snan = 0x7f800001u, snan2 = 0xff800005u, qnan = 0x7fc00007u;
    uint32_t a[8] = { snan, 0x3f800000u, snan, qnan, snan, 0, 0, 0 };
    uint32_t b[8] = { 0x3f800000u, snan, snan2, snan, qnan, 0, 0, 0 };
    for (unsigned ieee = 0; ieee < 2; ieee++) {
        struct prog *p = prog_new();
        for (unsigned i = 0; i < 8; i++) {
            eu_grf_set_ud(p->t, 1, i, a[i]);
            eu_grf_set_ud(p->t, 2, i, b[i]);
        }
        set_cr0(p, ieee << 11);
        struct eu_enc_insn s = op2(SEL, 8, G(10, F), G(1, F), G(2, F));
        s.cond = CM_L;
        emit(p, s);
        s.dst = G(11, F);
        s.cond = CM_GE;
        emit(p, s);
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        for (unsigned r = 10; r <= 11; r++) {
            CU_ASSERT_EQUAL(ud(p, r, 0), ieee ? 0x7fc00001u : 0x3f800000u);
            CU_ASSERT_EQUAL(ud(p, r, 1), ieee ? 0x7fc00001u : 0x3f800000u);
            CU_ASSERT_EQUAL(ud(p, r, 2), 0x7fc00001u);
            CU_ASSERT_EQUAL(ud(p, r, 3), ieee ? 0x7fc00001u : qnan);
            CU_ASSERT_EQUAL(ud(p, r, 4), 0x7fc00001u);
        }
        prog_free(p);
    }
    /* DF: Min(sNaN, sNaN) = "qNaN (of the first source)" (L21732) */
    for (unsigned ieee = 0; ieee < 2; ieee++) {
        struct prog *p = prog_new();
        uint64_t da[4] = { 0x7ff0000000000001ull, 0x7ff0000000000001ull, 0x3ff0000000000000ull, 0 };
        uint64_t db[4] = { 0xfff0000000000002ull, 0x3ff0000000000000ull, 0x7ff8000000000003ull, 0 };
        memcpy(p->t->grf + 32, da, 32);
        memcpy(p->t->grf + 64, db, 32);
        set_cr0(p, ieee << 11);
        struct eu_enc_insn s = op2(SEL, 4, G(10, DF), eu_enc_rgn(G(1, DF), 4, 4, 1),
                                   eu_enc_rgn(G(2, DF), 4, 4, 1));
        s.cond = CM_L;
        emit(p, s);
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        uint64_t r[4];
        memcpy(r, p->t->grf + 10 * 32, 32);
        CU_ASSERT_EQUAL(r[0], 0x7ff8000000000001ull);
        CU_ASSERT_EQUAL(r[1], ieee ? 0x7ff8000000000001ull : 0x3ff0000000000000ull);
        CU_ASSERT_EQUAL(r[2], 0x3ff0000000000000ull);
        prog_free(p);
    }
}

static void test_seed_snan_quietened_except_raw_moves(void)
{
    /* "Raw moves do not check for NaNs and do not ... quietize NaN values"
     * (L21565); mov (other than raw moves) and sel produce a qNaN (L21813-21821).
     * Source modifiers apply to NaNs (L21571; L21415 says the opposite, for
     * mixed HF/F mode: the general rule is kept). */
    struct prog *p = prog_new();
    const uint32_t snan = 0x7f800001u;
    for (unsigned i = 0; i < 8; i++)
        eu_grf_set_ud(p->t, 1, i, snan);
    for (unsigned i = 0; i < 8; i++)
        eu_grf_set_ud(p->t, 2, i, 0x3f800000u);
    emit(p, op1(MOV, 8, G(10, F), G(1, F)));                    /* raw */
    struct eu_enc_opnd ng = G(1, F);
    ng.negate = true;
    emit(p, op1(MOV, 8, G(11, F), ng));                         /* modifier: not raw */
    struct eu_enc_insn s = op2(SEL, 8, G(12, F), G(1, F), G(2, F));
    s.cond = CM_NZ;                                              /* compare-select */
    emit(p, s);
    s.dst = G(13, F);
    s.cond = 0;                                                  /* no predicate: src0 */
    emit(p, s);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 0), snan);
    CU_ASSERT_EQUAL(ud(p, 11, 0), 0xffc00001u);
    CU_ASSERT_EQUAL(ud(p, 12, 0), 0x7fc00001u);                 /* NaN != 1: src0 */
    CU_ASSERT_EQUAL(ud(p, 13, 0), 0x7fc00001u);
    prog_free(p);

    /* csel (a select) and DF moves: raw DF keeps it, F -> DF and -DF do not */
    p = prog_new();
    for (unsigned i = 0; i < 8; i++) {
        eu_grf_set_ud(p->t, 1, i, snan);
        eu_grf_set_ud(p->t, 2, i, 0x3f800000u);
        eu_grf_set_ud(p->t, 3, i, 0x3f800000u);                 /* src2 = 1 > 0 */
    }
    struct eu_enc_insn cs = op3(CSEL, 8, G(10, F), eu_enc_rgn(G(1, F), 4, 4, 1),
                                eu_enc_rgn(G(2, F), 4, 4, 1), eu_enc_rgn(G(3, F), 4, 4, 1));
    cs.cond = CM_G;
    emit(p, cs);
    uint64_t dsn[4] = { 0x7ff0000000000001ull, 0x7ff0000000000001ull, 0x7ff0000000000001ull,
                        0x7ff0000000000001ull };
    memcpy(p->t->grf + 4 * 32, dsn, 32);
    emit(p, op1(MOV, 4, G(11, DF), eu_enc_rgn(G(4, DF), 4, 4, 1)));
    struct eu_enc_opnd dn = eu_enc_rgn(G(4, DF), 4, 4, 1);
    dn.negate = true;
    emit(p, op1(MOV, 4, G(12, DF), dn));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 0), 0x7fc00001u);
    uint64_t r11, r12;
    memcpy(&r11, p->t->grf + 11 * 32, 8);
    memcpy(&r12, p->t->grf + 12 * 32, 8);
    CU_ASSERT_EQUAL(r11, 0x7ff0000000000001ull);
    CU_ASSERT_EQUAL(r12, 0xfff8000000000001ull);
    prog_free(p);
}

static void test_seed_overflow_condition(void)
{
    /* .o = OF: "the computed result is outside the range of the destination
     * data type"; inf float -> int sets it (L20890). */
    struct prog *p = prog_new();
    float a[8] = { 3e38f, 2.0f, INFINITY, 3e9f, -3e9f, 1.5f, 0, 0 };
    set_f(p, 1, a, 8);
    struct eu_enc_insn m = op2(MUL, 8, G(10, F), G(1, F), IMM(F, fbits(10.0f)));
    m.cond = CM_O;
    emit(p, m);
    struct eu_enc_insn c = op1(MOV, 8, G(11, D), G(1, F));
    c.cond = CM_O;
    c.flag_subreg = 1;
    emit(p, c);
    int32_t d[8] = { 0x7fffffff, 1, -0x7fffffff - 1, 5, 0, 0, 0, 0 };
    set_d(p, 2, d, 8);
    struct eu_enc_insn ad = op2(ADD, 8, G(12, D), G(2, D), IMM(D, 1));
    ad.cond = CM_O;
    ad.flag_reg = 1;
    emit(p, ad);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    uint32_t f0 = eu_flag_get(p->t, 0), f1 = eu_flag_get(p->t, 1);
    CU_ASSERT_EQUAL(f0 & 0x3f, 0x01u);          /* 3e39 overflows; inf * 10 is not an overflow */
    CU_ASSERT_EQUAL(f0 >> 16 & 0x3f, 0x1du);    /* 3e38, inf, 3e9, -3e9 do not fit in D */
    CU_ASSERT_EQUAL(f1 & 0x0f, 0x01u);          /* 0x7fffffff + 1 */
    prog_free(p);

    /* DF -> F: 1e300 is outside F's range, 1.0 and inf (exact) are not */
    p = prog_new();
    double dv[4] = { 1e300, 1.0, INFINITY, -1e300 };
    memcpy(p->t->grf + 32, dv, 32);
    struct eu_enc_insn n = op1(MOV, 4, G(10, F), eu_enc_rgn(G(1, DF), 4, 4, 1));
    n.cond = CM_O;
    emit(p, n);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(eu_flag_get(p->t, 0) & 0xf, 0x9u);
    CU_ASSERT_EQUAL(ud(p, 10, 0), 0x7f800000u);
    prog_free(p);
}

/* ---- regions and addressing ---------------------------------------------------------- */

static void test_region_addressing(void)
{
    /* Channel addresses by the pseudocode of L20362-20380 computed here:
     * Address = RegNum*32 + SubRegNum + row*VertStride*size + col*HorzStride*size */
    struct prog *p = prog_new();
    p->t->dmask = p->t->amask = 0xffff;                 /* a SIMD16 thread */
    for (unsigned i = 0; i < 64; i++)
        eu_grf_set_ud(p->t, 2 + i / 8, i % 8, 1000 + i);
    struct { unsigned sub, vs, w, hs, es; } rg[4] = {
        { 4, 8, 4, 2, 8 }, { 0, 1, 4, 0, 8 }, { 8, 0, 1, 0, 16 }, { 12, 16, 4, 3, 16 },
    };
    rg[3].hs = 4;
    for (unsigned k = 0; k < 4; k++) {
        struct eu_enc_opnd s = eu_enc_rgn(eu_enc_grf(2, rg[k].sub, EU_TYPE_UD), rg[k].vs, rg[k].w, rg[k].hs);
        emit(p, op1(MOV, rg[k].es, G(20 + 2 * k, UD), s));
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned k = 0; k < 4; k++)
        for (unsigned ch = 0; ch < rg[k].es; ch++) {
            unsigned addr = 2 * 32 + rg[k].sub + (ch / rg[k].w) * rg[k].vs * 4 + (ch % rg[k].w) * rg[k].hs * 4;
            CU_ASSERT_EQUAL(eu_grf_ud(p->t, 20 + 2 * k + ch / 8, ch % 8), 1000 + (addr - 64) / 4);
        }
    prog_free(p);
}

static void test_seed_region_examples(void)
{
    /* The region examples of seed 003 L20380-20470:
     *  (a) add (16) r6.0<1>:w r1.7<16;8,1>:b r2.1<16;8,1>:b
     *  (b) the same with src0 a vector of replicated scalars (HorzStride 0,
     *      Width 8; VertStride 1 here: one new scalar per row of 8)
     *  (c) add (8) r8.0<1>:f r[a0.0]<4,1>:w r6.0<4;4,1>:f   (Vx1: a0.0, a0.1
     *      give the origins of the two rows of 4 words) */
    struct prog *p = prog_new();
    p->t->dmask = p->t->amask = 0xffff;
    for (unsigned i = 0; i < 64; i++) {
        p->t->grf[1 * 32 + i] = (uint8_t)(i + 1);              /* r1, r2: bytes 1..64 */
        p->t->grf[3 * 32 + i] = (uint8_t)(200 - i);            /* r3, r4 */
    }
    struct eu_enc_opnd s0 = eu_enc_rgn(eu_enc_grf(1, 7, EU_TYPE_B), 16, 8, 1);
    struct eu_enc_opnd s1 = eu_enc_rgn(eu_enc_grf(3, 1, EU_TYPE_B), 16, 8, 1);
    emit(p, op2(ADD, 16, eu_enc_rgn(eu_enc_grf(6, 0, EU_TYPE_W), 0, 0, 1), s0, s1));
    struct eu_enc_opnd r0 = eu_enc_rgn(eu_enc_grf(1, 7, EU_TYPE_B), 1, 8, 0);
    emit(p, op2(ADD, 16, eu_enc_rgn(eu_enc_grf(7, 0, EU_TYPE_W), 0, 0, 1), r0, s1));
    /* (c): words at r10 (two rows from a0.0 = &r10.2, a0.1 = &r11.6), floats at r12 */
    for (unsigned i = 0; i < 32; i++) {
        int16_t w = (int16_t)(i * 3 - 20);
        memcpy(p->t->grf + 10 * 32 + 2 * i, &w, 2);
    }
    float f6[8] = { 0.5f, 1.5f, 2.5f, 3.5f, -1, -2, -3, -4 };
    set_f(p, 12, f6, 8);
    emit(p, op1(MOV, 1, eu_enc_arf(0x10, 0, EU_TYPE_UW), IMM(UW, 10 * 32 + 4)));
    emit(p, op1(MOV, 1, eu_enc_arf(0x10, 2, EU_TYPE_UW), IMM(UW, 11 * 32 + 12)));
    struct eu_enc_opnd vx1 = eu_enc_rgn(eu_enc_grf(0, 0, EU_TYPE_W), 0xff, 4, 1);
    vx1.indirect = true;
    emit(p, op2(ADD, 8, G(8, F), vx1, eu_enc_rgn(G(12, F), 4, 4, 1)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 16; ch++) {
        unsigned row = ch / 8, col = ch % 8;
        /* byte addresses from the pseudocode of L20362-20380 */
        unsigned a0 = 1 * 32 + 7 + row * 16 + col, a1 = 3 * 32 + 1 + row * 16 + col;
        unsigned ar = 1 * 32 + 7 + row * 1 + 0;
        int want = (int8_t)p->t->grf[a0] + (int8_t)p->t->grf[a1];
        int want_r = (int8_t)p->t->grf[ar] + (int8_t)p->t->grf[a1];
        int16_t got, got_r;
        memcpy(&got, p->t->grf + 6 * 32 + 2 * ch, 2);
        memcpy(&got_r, p->t->grf + 7 * 32 + 2 * ch, 2);
        CU_ASSERT_EQUAL(got, want);
        CU_ASSERT_EQUAL(got_r, want_r);
    }
    for (unsigned ch = 0; ch < 8; ch++) {
        unsigned origin = ch < 4 ? 10 * 32 + 4 : 11 * 32 + 12;
        int16_t w;
        memcpy(&w, p->t->grf + origin + 2 * (ch % 4), 2);
        CU_ASSERT_EQUAL(fl(p, 8, ch), (float)w + f6[ch]);
    }
    prog_free(p);
}

static void test_align16_swizzle_and_writemask(void)
{
    struct prog *p = prog_new();
    float a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, init[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
    set_f(p, 1, a, 8);
    set_f(p, 10, init, 8);
    struct eu_enc_opnd s = eu_enc_rgn(G(1, F), 4, 4, 1);
    s.swizzle[0] = 3; s.swizzle[1] = 2; s.swizzle[2] = 1; s.swizzle[3] = 0;    /* .wzyx */
    struct eu_enc_opnd d = G(10, F);
    d.writemask = 0x5;                                                    /* .xz */
    struct eu_enc_insn in = op1(MOV, 8, d, s);
    in.align16 = true;
    emit(p, in);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    const float want[8] = { 4, -1, 2, -1, 8, -1, 6, -1 };
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(fl(p, 10, i), want[i]);
    prog_free(p);
}

static void test_indirect_addressing(void)
{
    /* a0.N holds a byte address in the GRF; 1x1 and VxH (L20308-20708) */
    struct prog *p = prog_new();
    for (unsigned i = 0; i < 16; i++)
        eu_grf_set_ud(p->t, 4 + i / 8, i % 8, 500 + i);
    struct eu_enc_insn m = op1(MOV, 1, eu_enc_arf(0x10, 0, EU_TYPE_UW), IMM(UW, 4 * 32 + 8));
    emit(p, m);                                     /* a0.0 = &r4.2 */
    struct eu_enc_opnd s = eu_enc_rgn(eu_enc_grf(0, 0, EU_TYPE_UD), 0, 1, 0);
    s.indirect = true;
    s.addr_subreg = 0;
    s.addr_imm = 4;                                 /* + 4 bytes: r4.3 */
    emit(p, op1(MOV, 8, G(10, UD), s));
    /* VxH: a0.0..a0.3 = addresses of r5.7, r4.0, r5.1, r4.6 */
    const unsigned at[4] = { 5 * 32 + 28, 4 * 32, 5 * 32 + 4, 4 * 32 + 24 };
    for (unsigned k = 0; k < 4; k++)
        emit(p, op1(MOV, 1, eu_enc_arf(0x10, 2 * k, EU_TYPE_UW), IMM(UW, at[k])));
    struct eu_enc_opnd v = eu_enc_rgn(eu_enc_grf(0, 0, EU_TYPE_UD), 0xff, 1, 0);
    v.indirect = true;
    emit(p, op1(MOV, 4, G(11, UD), v));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(ud(p, 10, i), 503u);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(ud(p, 11, k), 500u + (at[k] - 4 * 32) / 4);
    prog_free(p);
}

static void test_out_of_range_register_access_is_counted(void)
{
    /* r127 + a SIMD16 region runs past the GRF: counted, read as zero */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 16, G(10, UD), eu_enc_rgn(G(127, UD), 8, 8, 1)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(p->t->counts.register_faults, 8);
    CU_ASSERT_EQUAL(ud(p, 11, 0), 0);
    prog_free(p);
}

/* ---- predication and masks ----------------------------------------------------------- */

static void test_predication_forms(void)
{
    /* sequential, inverted, any4h, all4h (L20752-20836), and the dispatch
     * mask with NoMask (L23850-23884) */
    struct prog *p = prog_new();
    p->t->dmask = p->t->amask = 0x7f;                       /* channel 7 not dispatched */
    eu_flag_set(p->t, 0, 0x1f);                             /* channels 0-4 */
    struct eu_enc_insn m = op1(MOV, 8, G(10, UD), IMM(UD, 1));
    m.pred = 1;
    emit(p, m);
    m.dst = G(11, UD); m.pred_inv = true;
    emit(p, m);
    m.dst = G(12, UD); m.pred_inv = false; m.pred = 6;       /* any4h */
    emit(p, m);
    m.dst = G(13, UD); m.pred = 7;                           /* all4h */
    emit(p, m);
    m.dst = G(14, UD); m.pred = 0; m.nomask = true;
    emit(p, m);
    m.dst = G(15, UD); m.nomask = false;
    emit(p, m);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        bool en = i < 7;
        CU_ASSERT_EQUAL(ud(p, 10, i), (en && i < 5) ? 1u : 0u);
        CU_ASSERT_EQUAL(ud(p, 11, i), (en && i >= 5) ? 1u : 0u);
        CU_ASSERT_EQUAL(ud(p, 12, i), en ? 1u : 0u);                  /* each group has a bit */
        CU_ASSERT_EQUAL(ud(p, 13, i), (en && i < 4) ? 1u : 0u);       /* only group 0 is full */
        CU_ASSERT_EQUAL(ud(p, 14, i), 1u);                            /* NoMask */
        CU_ASSERT_EQUAL(ud(p, 15, i), en ? 1u : 0u);
    }
    prog_free(p);
}

/* ---- flow control -------------------------------------------------------------------------- */

static struct eu_enc_insn pred_cmp(unsigned cm, unsigned fsub, struct eu_enc_opnd a, struct eu_enc_opnd b)
{
    struct eu_enc_insn c = op2(CMP, 8, NUL(D), a, b);
    c.cond = (uint8_t)cm;
    c.flag_subreg = (uint8_t)fsub;
    return c;
}

static struct eu_enc_insn add_imm(unsigned reg, int v)
{
    return op2(ADD, 8, G(reg, D), G(reg, D), IMM(D, (uint32_t)v));
}

static void check_divergent_nested_if_else(int gen)
{
    /* r1 = channel index; outer if (ch < 4) { +1; if (ch == 2) { +100 } } else { +10 }
     * JIP/UIP as Mesa lays them out: if -> else+1 / endif, else -> endif,
     * inner endif -> the enclosing block end (the else). */
    struct prog *p = prog_new_gen(gen);
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    emit(p, pred_cmp(CM_L, 0, G(1, D), IMM(D, 4)));
    struct eu_enc_insn f = flow(IF, 0, 0);
    f.pred = 1;
    size_t if0 = emit(p, f);
    emit(p, add_imm(10, 1));
    emit(p, pred_cmp(CM_Z, 1, G(1, D), IMM(D, 2)));
    f.flag_subreg = 1;
    size_t if1 = emit(p, f);
    emit(p, add_imm(10, 100));
    size_t endif1 = emit(p, flow(ENDIF, 0, 0));
    size_t else0 = emit(p, flow(ELSE, 0, 0));
    emit(p, add_imm(10, 10));
    size_t endif0 = emit(p, flow(ENDIF, 16, 0));
    eu_enc_patch_jump(&p->b, if0, (int32_t)(else0 + 16 - if0), (int32_t)(endif0 - if0));
    eu_enc_patch_jump(&p->b, if1, (int32_t)(endif1 - if1), (int32_t)(endif1 - if1));
    eu_enc_patch_jump(&p->b, endif1, (int32_t)(else0 - endif1), 0);
    eu_enc_patch_jump(&p->b, else0, (int32_t)(endif0 - else0), (int32_t)(endif0 - else0));
    emit(p, add_imm(10, 1000));                              /* after: everyone */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++) {
        int want = (ch < 4 ? 1 + (ch == 2 ? 100 : 0) : 10) + 1000;
        CU_ASSERT_EQUAL((int32_t)ud(p, 10, ch), want);
    }
    CU_ASSERT_EQUAL(p->t->amask, 0xff);
    prog_free(p);
}
static void test_divergent_nested_if_else_gen7(void) { check_divergent_nested_if_else(7); }
static void test_divergent_nested_if_else_gen8(void) { check_divergent_nested_if_else(8); }
static void test_divergent_nested_if_else_gen9(void) { check_divergent_nested_if_else(9); }

static void test_if_with_no_channel_taken_jumps(void)
{
    /* every channel fails: the if jumps to JIP at once; the block is skipped */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    emit(p, pred_cmp(CM_L, 0, G(10, D), IMM(D, -5)));
    struct eu_enc_insn f = flow(IF, 0, 0);
    f.pred = 1;
    size_t i0 = emit(p, f);
    emit(p, add_imm(10, 1));
    size_t e0 = emit(p, flow(ENDIF, 16, 0));
    eu_enc_patch_jump(&p->b, i0, (int32_t)(e0 - i0), (int32_t)(e0 - i0));
    emit(p, add_imm(10, 7));
    uint64_t before = p->t->counts.instructions;
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(ud(p, 10, ch), 7u);
    CU_ASSERT_EQUAL(p->t->counts.instructions - before, 5);   /* the add inside never ran */
    prog_free(p);
}

static void check_loop_with_break_and_continue(int gen)
{
    /* do { n++; if (n >= ch) break; if (n == 2) continue; count++; } while (1)
     * break/cont: JIP = next block end, UIP = the while (Gen7+ layout) */
    struct prog *p = prog_new_gen(gen);
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    emit(p, op1(MOV, 8, G(11, D), IMM(D, 0)));
    size_t top = emit(p, add_imm(11, 1));
    emit(p, pred_cmp(CM_GE, 0, G(11, D), G(1, D)));
    struct eu_enc_insn b = flow(BREAK, 0, 0);
    b.pred = 1;
    size_t br = emit(p, b);
    emit(p, pred_cmp(CM_Z, 1, G(11, D), IMM(D, 2)));
    struct eu_enc_insn c = flow(CONT, 0, 0);
    c.pred = 1;
    c.flag_subreg = 1;
    size_t co = emit(p, c);
    emit(p, add_imm(10, 1));
    size_t wh = emit(p, flow(WHILE, 0, 0));
    eu_enc_patch_jump(&p->b, wh, (int32_t)top - (int32_t)wh, 0);
    eu_enc_patch_jump(&p->b, br, (int32_t)(wh - br), (int32_t)(wh - br));
    eu_enc_patch_jump(&p->b, co, (int32_t)(wh - co), (int32_t)(wh - co));
    emit(p, add_imm(10, 1000));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (int ch = 0; ch < 8; ch++) {
        int n = 0, count = 0;
        for (;;) {
            n++;
            if (n >= ch) break;
            if (n == 2) continue;
            count++;
        }
        CU_ASSERT_EQUAL((int32_t)ud(p, 11, (unsigned)ch), n);
        CU_ASSERT_EQUAL((int32_t)ud(p, 10, (unsigned)ch), count + 1000);
    }
    prog_free(p);
}
static void test_loop_with_break_and_continue_gen7(void) { check_loop_with_break_and_continue(7); }
static void test_loop_with_break_and_continue_gen8(void) { check_loop_with_break_and_continue(8); }
static void test_loop_with_break_and_continue_gen9(void) { check_loop_with_break_and_continue(9); }

static void test_halt_and_jmpi_and_call(void)
{
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    /* channels 0-2 halt: wait at UIP (the final instructions) */
    emit(p, pred_cmp(CM_L, 0, G(1, D), IMM(D, 3)));
    struct eu_enc_insn h = flow(HALT, 0, 0);
    h.pred = 1;
    size_t ha = emit(p, h);
    emit(p, add_imm(10, 1));
    /* jmpi over one instruction: IP = IP + 16 + offset */
    struct eu_enc_insn j = op1(JMPI, 1, NUL(D), IMM(D, 16));
    j.nomask = true;
    emit(p, j);
    emit(p, add_imm(10, 50));                   /* skipped */
    /* call a subroutine that adds 7, return */
    struct eu_enc_insn cl = { .opcode = CALL, .exec_size = 1, .dst = G(20, UD), .nsrc = 0 };
    cl.nomask = true;
    size_t ca = emit(p, cl);
    struct eu_enc_insn jo = op1(JMPI, 1, NUL(D), IMM(D, 32));
    jo.nomask = true;
    emit(p, jo);                                /* over the subroutine */
    size_t sub = emit(p, add_imm(10, 7));
    struct eu_enc_insn rt = op1(RET, 1, NUL(UD), S(20, 0, UD));
    rt.nomask = true;
    emit(p, rt);
    size_t end = emit(p, add_imm(10, 300));     /* halt target: everyone */
    eu_enc_patch_jump(&p->b, ha, (int32_t)(end - ha), (int32_t)(end - ha));
    eu_enc_patch_jump(&p->b, ca, (int32_t)(sub - ca), 0);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(ud(p, 10, ch), ch < 3 ? 300u : 308u);
    prog_free(p);
}

static void test_jmpi_units_by_generation(void)
{
    /* seed 003 L21110: jmpi offsets are bytes on Gen8+, 8-byte units
     * before. An offset of 16 bytes (Gen9) and of 2 units (Gen7) both skip
     * the one 16-byte instruction after the jmpi; Gen7 with 16 would land
     * 128 bytes further, past the end of the kernel. */
    const int gens[] = { 7, 8, 9 };
    for (unsigned g = 0; g < 3; g++) {
        struct prog *p = prog_new_gen(gens[g]);
        emit(p, op1(MOV, 8, G(10, D), IMM(D, 1)));
        struct eu_enc_insn j = op1(JMPI, 1, NUL(D), IMM(D, gens[g] < 8 ? 2 : 16));
        j.nomask = true;
        emit(p, j);
        emit(p, add_imm(10, 50));               /* skipped */
        emit(p, add_imm(10, 2));
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        CU_ASSERT_EQUAL(ud(p, 10, 0), 3u);
        prog_free(p);
    }
}

/* Mesa's brw_JMPI (and intel-gen4asm) write "jmpi ip ip index" on every
 * generation: src0 the IP register, src1 the immediate index. The index is
 * the immediate (Gen7: 8-byte units, seed 003 L21110), src0 is not read as
 * an operand; a backward jump taken while a counter runs down makes a loop. */
static void test_jmpi_ip_ip_index_form(void)
{
    const int gens[] = { 7, 9 };
    for (unsigned g = 0; g < 2; g++) {
        struct prog *p = prog_new_gen(gens[g]);
        struct eu_enc_opnd ip = eu_enc_arf(0xa0, 0, EU_TYPE_UD);
        emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
        emit(p, op1(MOV, 8, G(11, D), IMM(D, 3)));
        emit(p, add_imm(10, 5));                            /* loop: r10 += 5 */
        struct eu_enc_insn dec = op2(ADD, 1, G(11, D), G(11, D), IMM(D, -1));
        dec.nomask = true;
        emit(p, dec);
        emit(p, pred_cmp(CM_NZ, 0, G(11, D), IMM(D, 0)));
        /* back to the loop: 4 instructions before the next one */
        struct eu_enc_insn j = op2(JMPI, 1, ip, ip, IMM(D, gens[g] < 8 ? -8 : -64));
        j.nomask = true;
        j.pred = 1;
        emit(p, j);
        emit(p, add_imm(10, 100));
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        CU_ASSERT_EQUAL(ud(p, 10, 0), 115u);
        prog_free(p);
    }
}

static void test_write_to_ip_is_a_jump(void)
{
    /* "Unconditional branches are done using mov with IP as the destination"
     * (L20955) */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 1)));
    struct eu_enc_insn m = op1(MOV, 1, eu_enc_arf(0xa0, 0, EU_TYPE_UD), IMM(UD, 48));
    m.nomask = true;
    emit(p, m);
    emit(p, add_imm(10, 5));                    /* skipped */
    emit(p, add_imm(10, 2));                    /* at 48 */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(ud(p, 10, 0), 3u);
    prog_free(p);
}

/* ---- send and illegal ---------------------------------------------------------------------- */

static void test_send_request_fields(void)
{
    /* desc: mlen 28:25, rlen 24:20, header 19 (opcodes.txt [message-descriptors]);
     * ex_desc 3:0 SFID, 5 EOT (L24378-24386) */
    struct prog *p = prog_new();
    struct eu_enc_insn s = op1(SEND, 8, G(30, UD), G(12, UD));
    s.sfid = 10;
    s.desc = 2u << 25 | 4u << 20 | 1u << 19 | 0x1234;
    size_t at = emit(p, s);
    struct eu_instruction in;
    CU_ASSERT_EQUAL(eu_decode(9, p->b.bytes + at, 16, &in), 16);
    struct eu_send_request rq;
    CU_ASSERT_EQUAL(eu_exec(p->t, &in, &rq, 0), EU_STEP_SEND);
    CU_ASSERT_EQUAL(rq.sfid, 10);
    CU_ASSERT_EQUAL(rq.mlen, 2);
    CU_ASSERT_EQUAL(rq.rlen, 4);
    CU_ASSERT_TRUE(rq.header_present);
    CU_ASSERT_EQUAL(rq.src_reg, 12);
    CU_ASSERT_EQUAL(rq.dst_reg, 30);
    CU_ASSERT_EQUAL(rq.exec_mask, 0xff);
    CU_ASSERT_FALSE(rq.eot);
    s.eot = true;
    at = emit(p, s);
    CU_ASSERT_EQUAL(eu_decode(9, p->b.bytes + at, 16, &in), 16);
    CU_ASSERT_EQUAL(eu_exec(p->t, &in, &rq, 0), EU_STEP_END);
    CU_ASSERT_TRUE(rq.eot);
    prog_free(p);
}

static void test_illegal_opcode_ends_thread(void)
{
    /* opcode 0 = illegal (L22275): status bit cr0.1[28], counted */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 1)));
    uint8_t zero[16] = { 0 };
    size_t at = p->b.len;
    emit(p, op1(MOV, 8, G(11, D), IMM(D, 1)));
    memcpy(p->b.bytes + at, zero, 16);
    emit(p, op1(MOV, 8, G(12, D), IMM(D, 1)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_FAULT);
    CU_ASSERT_EQUAL(p->t->counts.illegal, 1);
    uint32_t cr1;
    memcpy(&cr1, p->t->arf[EU_ARF_CR0] + 4, 4);
    CU_ASSERT_EQUAL(cr1 >> 28 & 1, 1);
    CU_ASSERT_EQUAL(ud(p, 12, 0), 0);
    prog_free(p);
}

/* cr0 operands for the System Routine tests: cr0.N as a scalar source, and
 * as a SIMD1 destination */
static struct eu_enc_opnd cr0_src(unsigned dword)
{
    struct eu_enc_opnd o = eu_enc_scalar(0x80, dword * 4, EU_TYPE_UD);
    o.file = EU_FILE_ARF;
    return o;
}

static struct eu_enc_insn cr0_op(unsigned op, unsigned dword, uint32_t imm)
{
    struct eu_enc_insn i = op2(op, 1, eu_enc_arf(0x80, dword * 4, EU_TYPE_UD), cr0_src(dword),
                               IMM(UD, imm));
    i.nomask = true;
    return i;
}

static uint32_t cr0_dword(struct prog *p, unsigned dword)
{
    uint32_t v;
    memcpy(&v, p->t->arf[EU_ARF_CR0] + 4 * dword, 4);
    return v;
}

/* 003 L22170-22200, L20019-20065: an illegal opcode with cr0.1[12] set goes
 * to the SIP with AIP = its IP, cr0.1[28] and cr0.0[31] set; the routine
 * moves AIP past it and clears cr0.0[31], which returns there. Layout:
 * 0 mov r10=1; 16 illegal; 32 add r10+=2; 48 jmpi over the routine;
 * 64 routine: mov r20=cr0.1; add cr0.2+=16; and cr0.1 &= ~bit28;
 * and cr0.0 &= ~bit31; 128 end. */
static void test_illegal_opcode_enters_the_system_routine(void)
{
    for (int enabled = 0; enabled < 2; enabled++) {
        struct prog *p = prog_new();
        emit(p, op1(MOV, 8, G(10, D), IMM(D, 1)));
        size_t at = p->b.len;
        emit(p, op1(MOV, 8, G(11, D), IMM(D, 1)));
        memset(p->b.bytes + at, 0, 16);                     /* opcode 0: illegal */
        emit(p, add_imm(10, 2));
        struct eu_enc_insn j = op1(JMPI, 1, NUL(D), IMM(D, 64));
        j.nomask = true;
        emit(p, j);
        struct eu_enc_insn m = op1(MOV, 1, G(20, UD), cr0_src(1));
        m.nomask = true;
        CU_ASSERT_EQUAL(emit(p, m), 64);
        emit(p, cr0_op(ADD, 2, 16));
        emit(p, cr0_op(AND, 1, ~(1u << 28)));
        emit(p, cr0_op(AND, 0, 0x7fffffffu));
        CU_ASSERT_EQUAL(p->b.len, 128);
        eu_thread_set_system(p->t, 0, enabled ? 1u << 12 : 0, true, 64);
        enum eu_step_result r = run(p);
        CU_ASSERT_EQUAL(p->t->counts.illegal, 1);
        if (enabled) {
            CU_ASSERT_EQUAL(r, EU_STEP_OK);
            CU_ASSERT_EQUAL(ud(p, 10, 0), 3u);              /* resumed after the illegal one */
            CU_ASSERT_EQUAL(ud(p, 20, 0), 1u << 28 | 1u << 12);  /* status seen in the routine */
            CU_ASSERT_EQUAL(cr0_dword(p, 2), 32u);          /* AIP = 16, moved on by 16 */
            CU_ASSERT_EQUAL(cr0_dword(p, 0) >> 31, 0u);
            CU_ASSERT_EQUAL(p->t->counts.exceptions, 1);
        } else {
            /* disabled: the thread ends with the status and AIP set */
            CU_ASSERT_EQUAL(r, EU_STEP_FAULT);
            CU_ASSERT_EQUAL(cr0_dword(p, 1) >> 28 & 1, 1u);
            CU_ASSERT_EQUAL(cr0_dword(p, 2), 16u);
            CU_ASSERT_EQUAL(p->t->counts.exceptions, 0);
        }
        prog_free(p);
    }
}

/* A software exception (cr0.1[29] set by the application, enabled by
 * cr0.1[13]) enters the routine with AIP = the next instruction (L20057);
 * the routine clears the bit and cr0.0[31] and the thread carries on. Not
 * enabled: the write just stays in cr0.1. An illegal opcode inside the
 * routine is not nested (L22180s): the thread ends. Writing 1 to cr0.0[31]
 * outside the routine has no effect. Layout: 0 or cr0.1 |= bit29;
 * 16 add r10+=5; 32 jmpi over; 48 routine: mov r21=77; (illegal);
 * and cr0.1 &= ~bit29; and cr0.0 &= ~bit31; end. */
static void test_software_exception_and_nesting(void)
{
    for (int variant = 0; variant < 3; variant++) {    /* enabled, disabled, nested illegal */
        struct prog *p = prog_new();
        emit(p, cr0_op(OR, 1, 1u << 29));
        emit(p, add_imm(10, 5));
        struct eu_enc_insn j = op1(JMPI, 1, NUL(D), IMM(D, variant == 2 ? 64 : 48));
        j.nomask = true;
        emit(p, j);
        struct eu_enc_insn m = op1(MOV, 1, G(21, UD), IMM(UD, 77));
        m.nomask = true;
        CU_ASSERT_EQUAL(emit(p, m), 48);
        if (variant == 2) {
            size_t at = p->b.len;
            emit(p, m);
            memset(p->b.bytes + at, 0, 16);
        }
        emit(p, cr0_op(AND, 1, ~(1u << 29)));
        emit(p, cr0_op(AND, 0, 0x7fffffffu));
        eu_thread_set_system(p->t, 0, variant == 1 ? 0 : 1u << 13, true, 48);
        enum eu_step_result r = run(p);
        if (variant == 0) {
            CU_ASSERT_EQUAL(r, EU_STEP_OK);
            CU_ASSERT_EQUAL(ud(p, 21, 0), 77u);
            CU_ASSERT_EQUAL(ud(p, 10, 0), 5u);
            CU_ASSERT_EQUAL(cr0_dword(p, 2), 16u);
            CU_ASSERT_EQUAL(cr0_dword(p, 1) >> 29 & 1, 0u);
            CU_ASSERT_EQUAL(p->t->counts.exceptions, 1);
        } else if (variant == 1) {
            CU_ASSERT_EQUAL(r, EU_STEP_OK);
            CU_ASSERT_EQUAL(ud(p, 21, 0), 0u);
            CU_ASSERT_EQUAL(ud(p, 10, 0), 5u);
            CU_ASSERT_EQUAL(cr0_dword(p, 1) >> 29 & 1, 1u);
            CU_ASSERT_EQUAL(p->t->counts.exceptions, 0);
        } else {
            CU_ASSERT_EQUAL(r, EU_STEP_FAULT);
            CU_ASSERT_EQUAL(ud(p, 21, 0), 77u);
            CU_ASSERT_EQUAL(cr0_dword(p, 1) >> 28 & 1, 1u);   /* latched */
            CU_ASSERT_EQUAL(cr0_dword(p, 2), 16u);            /* AIP of the first */
            CU_ASSERT_EQUAL(p->t->counts.exceptions, 1);
        }
        prog_free(p);
    }
    /* writing 1 to cr0.0[31] outside the routine does nothing */
    struct prog *p = prog_new();
    emit(p, cr0_op(OR, 0, 1u << 31));
    eu_thread_set_system(p->t, 0, 0, true, 0);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    CU_ASSERT_EQUAL(cr0_dword(p, 0) >> 31, 0u);
    prog_free(p);
}

static void test_simd16_and_quarter_control(void)
{
    /* SIMD16 region spans two registers; a SIMD8 instruction with QtrCtrl 2Q
     * uses channels 8-15 of the masks and flags */
    struct prog *p = prog_new();
    eu_thread_init(p->t, 9, 0, 0, 0xffff);
    float a[16];
    for (unsigned i = 0; i < 16; i++)
        a[i] = (float)i * 0.5f;
    set_f(p, 2, a, 16);
    emit(p, op2(ADD, 16, G(10, F), G(2, F), eu_enc_immf(1.0f)));
    eu_flag_set(p->t, 0, 0x0f00);
    struct eu_enc_insn q = op1(MOV, 8, G(12, F), G(3, F));
    q.qtr = 1;
    q.pred = 1;
    emit(p, q);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(fl(p, 10 + i / 8, i % 8), a[i] + 1.0f);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(fl(p, 12, i), i < 4 ? a[8 + i] : 0.0f);
    prog_free(p);
}

static void test_csel(void)
{
    /* csel.cm (gen8+, 3-source): src2 compared with 0 by the modifier picks
     * src0 or src1; flags untouched */
    struct prog *p = prog_new();
    float a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[8] = { -1, -2, -3, -4, -5, -6, -7, -8 };
    float c[8] = { 0.5f, -0.5f, 0.0f, -0.0f, NAN, 1e-3f, -1e30f, 2.0f };
    set_f(p, 1, a, 8);
    set_f(p, 2, b, 8);
    set_f(p, 3, c, 8);
    struct eu_enc_insn in = op3(CSEL, 8, G(10, F), eu_enc_rgn(G(1, F), 4, 4, 1),
                                eu_enc_rgn(G(2, F), 4, 4, 1), eu_enc_rgn(G(3, F), 4, 4, 1));
    in.cond = CM_L;
    emit(p, in);
    in.dst = G(11, F);
    in.cond = CM_GE;
    emit(p, in);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(fl(p, 10, i), c[i] < 0 ? a[i] : b[i]);
        CU_ASSERT_EQUAL(fl(p, 11, i), c[i] >= 0 ? a[i] : b[i]);     /* NaN: neither */
    }
    CU_ASSERT_EQUAL(eu_flag_get(p->t, 0), 0);
    prog_free(p);
}

static void test_gen7_half_conversion_opcodes(void)
{
    /* f32to16 / f16to32 exist on gen7 only (opcodes.txt); the half goes to the
     * low word of a dword-strided destination */
    struct prog *p = prog_new();
    p->b.gen = 7;
    eu_thread_init(p->t, 7, 0, 0, 0xff);
    float in[8] = { 1.0f, -2.5f, 65504.0f, 1e6f, 0.1f, -0.0f, 3.0f, 0.5f };
    set_f(p, 1, in, 8);
    emit(p, op1(19, 8, G(10, UD), G(1, F)));
    emit(p, op1(20, 8, G(11, F), G(10, UD)));
    struct eu_thread *t = p->t;
    t->ip = 0;
    for (unsigned k = 0; k < 2; k++) {
        struct eu_instruction d;
        CU_ASSERT_FATAL(eu_decode(7, p->b.bytes + t->ip, p->b.len - t->ip, &d) == 16);
        CU_ASSERT_FALSE(d.illegal);
        struct eu_send_request rq;
        CU_ASSERT_EQUAL(eu_exec(t, &d, &rq, 0), EU_STEP_OK);
    }
    const uint16_t h[8] = { 0x3c00, 0xc100, 0x7bff, 0x7c00, 0x2e66, 0x8000, 0x4200, 0x3800 };
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(ud(p, 10, i), h[i]);
        float back = i == 3 ? INFINITY : (i == 4 ? 0.0999755859375f : in[i]);
        CU_ASSERT_EQUAL(fbits(fl(p, 11, i)), fbits(back));
    }
    prog_free(p);
}

static void test_qword_and_byte_types(void)
{
    /* Q/UQ (gen8+): 64-bit integer arithmetic; B/UB sources promote, SIMD32
     * on a byte region */
    struct prog *p = prog_new();
    p->t->dmask = p->t->amask = 0xffffffffu;
    int64_t q[4] = { INT64_C(0x123456789), -5, INT64_MAX, INT64_C(1) << 40 };
    memcpy(p->t->grf + 1 * 32, q, 32);
    emit(p, op2(ADD, 4, G(10, Q), eu_enc_rgn(G(1, Q), 4, 4, 1), IMM(D, 7)));   /* imm64 is 1-source only */
    emit(p, op2(SHL, 4, G(11, UQ), eu_enc_rgn(G(1, UQ), 4, 4, 1), IMM(UD, 33)));
    for (unsigned i = 0; i < 32; i++)
        p->t->grf[4 * 32 + i] = (uint8_t)(i * 9);
    emit(p, op2(ADD, 32, eu_enc_rgn(G(12, W), 0, 0, 1), eu_enc_rgn(G(4, UB), 16, 16, 1),
                eu_enc_rgn(G(4, B), 16, 16, 1)));   /* width is at most 16 */
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    int64_t r[4];
    uint64_t sh[4];
    memcpy(r, p->t->grf + 10 * 32, 32);
    memcpy(sh, p->t->grf + 11 * 32, 32);
    for (unsigned i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(r[i], (int64_t)((uint64_t)q[i] + 7));
        CU_ASSERT_EQUAL(sh[i], (uint64_t)q[i] << 33);
    }
    for (unsigned i = 0; i < 32; i++) {
        uint8_t v = (uint8_t)(i * 9);
        int16_t want = (int16_t)(v + (int8_t)v);
        int16_t got;
        memcpy(&got, p->t->grf + 12 * 32 + 2 * i, 2);
        CU_ASSERT_EQUAL(got, want);
    }
    prog_free(p);
}

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x;
}

static void test_fast_path_matches_general(void)
{
    /* The prepared fast path (struct eu_fast) against the general executor on
     * the same thread state: random bit patterns (denormals, NaNs, infinities
     * included; every other case has no denormal source but tiny normals whose
     * results underflow, the whole-register path's case), SIMD4/8/16, scalar
     * and immediate operands, partial masks, both denormal modes; SIMD1 and
     * SIMD2 in Align1 (mad, an Align16 instruction, is not prepared there),
     * and the shifts with counts past 31. */
    uint32_t seed = 12345;
    unsigned prepared = 0, expected = 0;
    for (unsigned iter = 0; iter < 1500; iter++) {
        struct eu_enc_buf b = { .gen = 9 };
        unsigned es = (unsigned[]){ 4, 8, 16, 1, 2 }[iter % 5];
        unsigned kind = (iter / 5) % 3;                 /* 0 float, 1 integer, 2 cmp */
        bool eligible = true;
        struct eu_enc_insn in;
        if (kind == 0) {
            unsigned op = (unsigned[]){ MOV, ADD, MUL, MAD }[(iter / 15) % 4];
            eligible = !(op == MAD && es < 4);
            struct eu_enc_opnd s0 = G(2, F), s1 = (iter & 16) ? S(6, 4, F) : G(6, F), s2 = G(10, F);
            if (op == MUL && (iter & 32))
                s1 = eu_enc_immf(bitsf(lcg(&seed)));
            in = op == MOV ? op1(op, es, G(20, F), s0)
               : op == MAD ? op3(op, es, G(20, F), eu_enc_rgn(s0, 4, 4, 1),
                                 (iter & 16) ? s1 : eu_enc_rgn(s1, 4, 4, 1), eu_enc_rgn(s2, 4, 4, 1))
               : op2(op, es, G(20, F), s0, s1);
        } else if (kind == 1) {
            unsigned op = (unsigned[]){ MOV, ADD, MUL, AND, OR, XOR, SHL, SHR, ASR }[(iter / 15) % 9];
            struct eu_enc_opnd s0 = (iter & 64) ? G(2, UD) : G(2, D);
            struct eu_enc_opnd s1 = (iter & 16) ? IMM(D, lcg(&seed)) : ((iter & 32) ? S(6, 8, UD) : G(6, D));
            in = op == MOV ? op1(op, es, G(20, D), s0) : op2(op, es, (iter & 128) ? G(20, UD) : G(20, D), s0, s1);
        } else {
            bool fl = iter & 16;
            struct eu_enc_opnd s0 = fl ? G(2, F) : ((iter & 64) ? G(2, UD) : G(2, D));
            struct eu_enc_opnd s1 = fl ? ((iter & 32) ? eu_enc_immf(0.5f) : G(6, F)) : ((iter & 32) ? S(6, 0, D) : G(6, UD));
            in = op2(CMP, es, (iter & 128) ? NUL(D) : (fl ? G(20, F) : G(20, D)), s0, s1);
            in.cond = (uint8_t)(1 + (iter / 15) % 6);
            in.flag_reg = (uint8_t)((iter >> 8) & 1);
            in.flag_subreg = (uint8_t)((iter >> 9) & 1);
        }
        eu_enc_emit(&b, &in);
        struct eu_instruction d;
        CU_ASSERT_FATAL(eu_decode(9, b.bytes, b.len, &d) == 16);
        struct eu_fast f;
        eu_fast_prepare(&d, &f);
        CU_ASSERT_EQUAL(f.op != 0, eligible);
        expected += eligible;
        if (!f.op) {
            eu_enc_free(&b);
            continue;
        }
        prepared++;
        struct eu_thread *t1 = calloc(1, sizeof *t1), *t2 = calloc(1, sizeof *t2);
        eu_thread_init(t1, 9, 0, 0, lcg(&seed) | 1);
        for (unsigned r = 0; r < 24 * 8; r++) {
            uint32_t v = lcg(&seed);
            if ((v & 7) == 0 && (iter & 8))
                v = (v & 0x807fffffu) | 0x00800000u;        /* tiny normal: results underflow */
            else if ((v & 7) == 0) v &= 0x807fffffu;        /* denormal */
            else if ((v & 7) == 1) v |= 0x7f800000u;        /* inf / NaN */
            eu_grf_set_ud(t1, r / 8, r % 8, v);
        }
        eu_flag_set(t1, 0, lcg(&seed));
        eu_flag_set(t1, 1, lcg(&seed));
        uint32_t cr = (iter & 4) ? 1u << 7 : 0;
        memcpy(t1->arf[EU_ARF_CR0], &cr, 4);
        memcpy(t2, t1, sizeof *t1);
        struct eu_send_request rq;
        CU_ASSERT_EQUAL(eu_exec(t1, &d, &rq, 0), EU_STEP_OK);
        CU_ASSERT_TRUE(eu_exec_fast(t2, &f));
        /* bit-identical, except which NaN payload a NaN result carries (the
         * host's choice among NaN operands; both paths give a NaN) */
        unsigned diff = 0;
        for (unsigned k = 0; k < EU_GRF_BYTES / 4; k++) {
            uint32_t x = eu_grf_ud(t1, k / 8, k % 8), y = eu_grf_ud(t2, k / 8, k % 8);
            if (x != y && !(isnan(bitsf(x)) && isnan(bitsf(y))))
                diff++;
        }
        CU_ASSERT_EQUAL(diff, 0);
        CU_ASSERT_EQUAL(eu_flag_get(t1, 0), eu_flag_get(t2, 0));
        CU_ASSERT_EQUAL(eu_flag_get(t1, 1), eu_flag_get(t2, 1));
        CU_ASSERT_EQUAL(t1->ip, t2->ip);
        free(t1);
        free(t2);
        eu_enc_free(&b);
    }
    CU_ASSERT_EQUAL(prepared, expected);
    CU_ASSERT_TRUE(expected > 1400);
    /* not eligible: saturate, predication, a W type, a strided region, a
     * destination or source off the dword grid (fuzz_eu_fast: lanes straddle
     * dwords, so a NaN payload the host picks differently lands in two) */
    struct eu_enc_insn no[6] = { op2(ADD, 8, G(20, F), G(2, F), G(3, F)), op2(ADD, 8, G(20, F), G(2, F), G(3, F)),
                                 op2(ADD, 8, G(20, W), G(2, W), G(3, W)),
                                 op2(ADD, 8, G(20, F), eu_enc_rgn(G(2, F), 16, 8, 2), G(3, F)),
                                 op2(ADD, 16, eu_enc_grf(0, 1, EU_TYPE_F), G(0, F), G(1, F)),
                                 op2(ADD, 8, G(20, D), eu_enc_grf(2, 2, EU_TYPE_D), G(3, D)) };
    no[0].sat = true;
    no[1].pred = 1;
    for (unsigned k = 0; k < 6; k++) {
        struct eu_enc_buf b = { .gen = 9 };
        eu_enc_emit(&b, &no[k]);
        struct eu_instruction d;
        eu_decode(9, b.bytes, b.len, &d);
        struct eu_fast f;
        eu_fast_prepare(&d, &f);
        CU_ASSERT_EQUAL(f.op, 0);
        eu_enc_free(&b);
    }
}

/* ---- smov, movi, sad2, sada2, brd, brc, call/ret, the fdiv/sqrt macros ---- */

enum { MOVI = 3, SMOV = 10, BRD = 33, BRC = 35, SAD2 = 80, SADA2 = 81, MADM = 93 };

static void test_smov_and_movi(void)
{
    /* smov (004 L24086-24120): without predication the src1 immediate masks
     * the execution mask; with predication the flags are not used, the
     * instruction runs with its whole mask when some channel survives the
     * immediate. */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op2(SMOV, 8, G(10, D), G(1, D), IMM(UD, 0x5a)));
    struct eu_enc_insn sp = op2(SMOV, 8, G(11, D), G(1, D), IMM(UD, 0x01));
    sp.pred = 1;                                 /* f0.0 is 0: a flag predicate would disable all */
    emit(p, sp);
    struct eu_enc_insn sn = op2(SMOV, 8, G(12, D), G(1, D), IMM(UD, 0x100));
    sn.pred = 1;                                 /* no channel of 8 in the immediate */
    emit(p, sn);
    /* movi (004 L23026-23066): register from a0.0[11:5], each channel's
     * subregister from its own a0.n[4:0]; a0.1..7 carry no register bits */
    struct eu_enc_opnd ind = eu_enc_rgn(G(0, D), 8, 8, 1);
    ind.indirect = true;
    ind.addr_subreg = 0;
    ind.addr_imm = 0;
    emit(p, op1(MOV, 8, eu_enc_arf(0x10, 0, EU_TYPE_UW), G(30, UW)));
    emit(p, op1(MOVI, 8, G(13, D), ind));
    for (unsigned n = 0; n < 8; n++) {
        uint16_t a = (uint16_t)(4 * (7 - n) | (n == 0 ? 20u << 5 : 0));
        uint32_t w = eu_grf_ud(p->t, 30, n / 2);
        w = (n & 1) ? (w & 0xffff) | (uint32_t)a << 16 : (w & 0xffff0000u) | a;
        eu_grf_set_ud(p->t, 30, n / 2, w);
        eu_grf_set_ud(p->t, 20, n, 100 + n);
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++) {
        CU_ASSERT_EQUAL(ud(p, 10, ch), (0x5au >> ch & 1) ? ch : 0u);
        CU_ASSERT_EQUAL(ud(p, 11, ch), ch);
        CU_ASSERT_EQUAL(ud(p, 12, ch), 0u);
        CU_ASSERT_EQUAL(ud(p, 13, ch), 107u - ch);
    }
    prog_free(p);
}

static void test_sad2_and_sada2(void)
{
    /* 004 L24782-24845: per 2-tuple, |s0[n]-s1[n]| + |s0[n+1]-s1[n+1]| into
     * channel n (and the accumulator); sada2 adds the accumulator's channel n */
    static const uint8_t a[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
    static const uint8_t b[8] = { 13, 15, 30, 50, 45, 66, 71, 70 };
    struct prog *p = prog_new();
    emit(p, op2(SAD2, 8, G(13, W), G(2, UB), G(3, UB)));
    emit(p, op2(SADA2, 8, G(14, W), G(2, UB), G(4, UB)));
    for (unsigned k = 0; k < 2; k++) {
        eu_grf_set_ud(p->t, 2, k, (uint32_t)a[4 * k] | (uint32_t)a[4 * k + 1] << 8 |
                                  (uint32_t)a[4 * k + 2] << 16 | (uint32_t)a[4 * k + 3] << 24);
        eu_grf_set_ud(p->t, 3, k, (uint32_t)b[4 * k] | (uint32_t)b[4 * k + 1] << 8 |
                                  (uint32_t)b[4 * k + 2] << 16 | (uint32_t)b[4 * k + 3] << 24);
    }
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned n = 0; n < 8; n += 2) {
        unsigned sad = (unsigned)abs(a[n] - b[n]) + (unsigned)abs(a[n + 1] - b[n + 1]);
        unsigned sada = a[n] + a[n + 1] + sad;          /* r4 is zero */
        CU_ASSERT_EQUAL(ud(p, 13, n / 2) & 0xffff, sad);
        CU_ASSERT_EQUAL(ud(p, 14, n / 2) & 0xffff, sada);
    }
    CU_ASSERT_EQUAL(ud(p, 13, 0) & 0xffff, 8u);         /* 3 + 5, worked by hand */
    CU_ASSERT_EQUAL(ud(p, 14, 3) & 0xffff, 161u);       /* 70 + 80 + 1 + 10 */
    prog_free(p);
}

static void check_brd_and_brc(int gen)
{
    /* 004 L9253-9321. Channels 0-2 (r1 < 3) take brd to A; 3-7 go on, add
     * 100, and brc to END (all branch away: the ip jumps to its JIP, END);
     * ...the ip is at A: 0-2 add 1, brc to END with JIP back at the waiting
     * channels (the add 100): they run it, their brc sends all to END. */
    struct prog *p = prog_new_gen(gen);
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    emit(p, pred_cmp(CM_L, 0, G(1, D), IMM(D, 3)));
    struct eu_enc_insn d = flow(BRD, 0, 0);
    d.pred = 1;
    size_t bd = emit(p, d);
    size_t b100 = emit(p, add_imm(10, 100));
    size_t c1 = emit(p, flow(BRC, 0, 0));
    size_t a = emit(p, add_imm(10, 1));
    size_t c2 = emit(p, flow(BRC, 0, 0));
    size_t end = emit(p, add_imm(10, 1000));
    eu_enc_patch_jump(&p->b, bd, (int32_t)(a - bd), 0);
    eu_enc_patch_jump(&p->b, c1, (int32_t)(end - c1), (int32_t)(end - c1));
    eu_enc_patch_jump(&p->b, c2, (int32_t)b100 - (int32_t)c2, (int32_t)(end - c2));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(ud(p, 10, ch), ch < 3 ? 1001u : 1100u);
    prog_free(p);
}

/* sad2 of Q operands (sources the seed does not give it, 004 L24782-24845
 * names bytes): differences that leave 64 signed bits wrap, no overflow
 * (an eu_exec fuzz finding; test-san's UBSan reports a signed overflow).
 * Channel 0's figure is worked out modulo 2^64 by hand: INT64_MIN minus
 * 1369129558435001940 wraps to 0x6cffdfeba9fe89ac, INT64_MAX minus -1 to
 * INT64_MIN, whose magnitude is 2^63; their sum 0xecffdfeba9fe89ac. Channel 2
 * is in range: |5 - 9| + |-3 - 4| = 11. The odd channels are written 0. */
static void test_sad2_of_qwords_wraps(void)
{
    struct prog *p = prog_new();
    int64_t a[4] = { INT64_MIN, INT64_MAX, 5, -3 };
    int64_t b[4] = { INT64_C(1369129558435001940), -1, 9, 4 };
    memcpy(p->t->grf + 2 * 32, a, 32);
    memcpy(p->t->grf + 3 * 32, b, 32);
    emit(p, op2(SAD2, 4, G(13, Q), eu_enc_rgn(G(2, Q), 4, 4, 1), eu_enc_rgn(G(3, Q), 4, 4, 1)));
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    uint64_t r[4];
    memcpy(r, p->t->grf + 13 * 32, 32);
    CU_ASSERT_EQUAL(r[0], UINT64_C(0xecffdfeba9fe89ac));
    CU_ASSERT_EQUAL(r[1], 0);
    CU_ASSERT_EQUAL(r[2], 11);
    CU_ASSERT_EQUAL(r[3], 0);
    prog_free(p);
}

static void test_brd_and_brc_gen7(void) { check_brd_and_brc(7); }
static void test_brd_and_brc_gen8(void) { check_brd_and_brc(8); }
static void test_brd_and_brc_gen9(void) { check_brd_and_brc(9); }

static void test_predicated_call_and_ret(void)
{
    /* 004 L9471 (call), L23936 (ret): channels 0-2 (predicate) enter the
     * subroutine, 3-7 wait at the next instruction; ret sends them back and,
     * the CallMask being empty, the ip follows. */
    struct prog *p = prog_new();
    emit(p, op1(MOV, 8, G(1, D), IMM(V, 0x76543210)));
    emit(p, op1(MOV, 8, G(10, D), IMM(D, 0)));
    emit(p, pred_cmp(CM_L, 0, G(1, D), IMM(D, 3)));
    struct eu_enc_insn cl = { .opcode = CALL, .exec_size = 8, .dst = G(20, UD), .nsrc = 0, .pred = 1 };
    size_t ca = emit(p, cl);
    emit(p, add_imm(10, 10));
    struct eu_enc_insn jo = op1(JMPI, 1, NUL(D), IMM(D, 32));
    jo.nomask = true;
    emit(p, jo);                                /* over the subroutine */
    size_t sub = emit(p, add_imm(10, 1));
    emit(p, op1(RET, 8, NUL(UD), S(20, 0, UD)));
    emit(p, add_imm(10, 100));
    eu_enc_patch_jump(&p->b, ca, (int32_t)(sub - ca), 0);
    CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(ud(p, 10, ch), ch < 3 ? 111u : 110u);
    CU_ASSERT_EQUAL(ud(p, 20, 1), 0x7u);        /* CallMask */
    CU_ASSERT_EQUAL(ud(p, 20, 0), (uint32_t)ca + 16);
    prog_free(p);
}

static struct eu_enc_insn madm(unsigned d, unsigned s0, unsigned s1, unsigned s2, bool neg1)
{
    struct eu_enc_insn in = op3(MADM, 8, G(d, F), eu_enc_rgn(G(s0, F), 4, 4, 1),
                                eu_enc_rgn(G(s1, F), 4, 4, 1), eu_enc_rgn(G(s2, F), 4, 4, 1));
    in.src[1].negate = neg1;
    return in;
}

static void test_fdiv_and_sqrt_macros(void)
{
    /* The seed's single-precision IEEE fdiv and sqrt macros (003 L24255-
     * 24290): invm / rsqrtm give the first approximation, the madm steps
     * refine it; the result must be the correctly rounded a / b and
     * sqrt(a) (IEEE, computed here by the host). The acc2-acc9 selectors
     * carry 2 extra exponent bits the seed does not lay out; the values
     * here stay far from the range ends, where those bits do not matter. */
    uint32_t seed = 99;
    for (unsigned round = 0; round < 16; round++) {
        struct prog *p = prog_new();
        /* fdiv: r2 = 0, r6 = a, r4 = b, r5 = 1 */
        struct eu_enc_insn m = op2(MATH, 8, G(8, F), G(6, F), G(4, F));
        m.cond = 14;                            /* INVM */
        emit(p, m);
        emit(p, madm(9, 2, 6, 8, false));       /* q0 = a*y0 */
        emit(p, madm(10, 5, 4, 8, true));       /* e0 = 1-b*y0 */
        emit(p, madm(1, 8, 10, 8, false));      /* y1 = y0+e0*y0 */
        emit(p, madm(11, 6, 4, 9, true));       /* r0 = a-b*q0 */
        emit(p, madm(9, 9, 11, 1, false));      /* q1 = q0+r0*y1 */
        emit(p, madm(12, 6, 4, 9, true));       /* r1 = a-b*q1 (r6 kept: r12 here) */
        emit(p, madm(13, 9, 12, 1, false));     /* q = q1+r1*y1 */
        /* sqrt: r0' = r2 = 0, r16 = 1/2, r14 = a' */
        struct eu_enc_insn q = op1(MATH, 8, G(17, F), G(14, F));
        q.cond = 15;                            /* RSQRTM */
        emit(p, q);
        emit(p, madm(19, 2, 16, 17, false));    /* H0 = 1/2*y0 */
        emit(p, madm(21, 2, 14, 17, false));    /* S0 = a*y0 */
        emit(p, madm(20, 16, 21, 19, true));    /* d0 = 1/2-S0*H0 */
        emit(p, madm(19, 19, 20, 19, false));   /* H1 = H0+d0*H0 */
        emit(p, madm(17, 21, 20, 21, false));   /* S1 = S0+d0*S0 */
        emit(p, madm(20, 14, 17, 17, true));    /* e0 = a-S1*S1 */
        emit(p, madm(22, 17, 20, 19, false));   /* S = S1+e0*H1 */
        float a[8], b[8], sa[8];
        for (unsigned ch = 0; ch < 8; ch++) {
            a[ch] = ldexpf(1.0f + (float)(lcg(&seed) >> 9) / 8388608.0f, (int)(lcg(&seed) % 40) - 20);
            b[ch] = ldexpf(1.0f + (float)(lcg(&seed) >> 9) / 8388608.0f, (int)(lcg(&seed) % 40) - 20);
            if (lcg(&seed) & 1) a[ch] = -a[ch];
            sa[ch] = ldexpf(1.0f + (float)(lcg(&seed) >> 9) / 8388608.0f, (int)(lcg(&seed) % 40) - 20);
            eu_grf_set_ud(p->t, 6, ch, fbits(a[ch]));
            eu_grf_set_ud(p->t, 4, ch, fbits(b[ch]));
            eu_grf_set_ud(p->t, 5, ch, fbits(1.0f));
            eu_grf_set_ud(p->t, 14, ch, fbits(sa[ch]));
            eu_grf_set_ud(p->t, 16, ch, fbits(0.5f));
        }
        CU_ASSERT_EQUAL(run(p), EU_STEP_OK);
        for (unsigned ch = 0; ch < 8; ch++) {
            CU_ASSERT_EQUAL(ud(p, 13, ch), fbits(a[ch] / b[ch]));
            CU_ASSERT_EQUAL(ud(p, 22, ch), fbits(sqrtf(sa[ch])));
        }
        prog_free(p);
    }
}

static void test_random_words_never_crash(void)
{
    /* Bad input: random 128-bit words (and compact 64-bit ones) on all four
     * generations decode and execute to some outcome on a thread with random
     * registers - no crash, no undefined behaviour (run under ASan/UBSan by
     * make test-san), every step returns. */
    uint32_t seed = 777;
    struct eu_thread *t = calloc(1, sizeof *t);
    unsigned counts[4] = { 0 };
    for (unsigned iter = 0; iter < 8000; iter++) {
        int gen = (int[]){ 4, 7, 8, 9 }[iter % 4];
        if (iter % 64 == 0) {
            eu_thread_init(t, gen, 0, 0, lcg(&seed));
            for (unsigned r = 0; r < EU_GRF_COUNT * 8; r++)
                eu_grf_set_ud(t, r / 8, r % 8, lcg(&seed));
            for (unsigned a = 0; a < EU_ARF_COUNT; a++)
                for (unsigned k = 0; k < EU_REG_BYTES; k++)
                    t->arf[a][k] = (uint8_t)lcg(&seed);
        }
        t->gen = gen;
        uint8_t w[16];
        for (unsigned k = 0; k < 16; k++)
            w[k] = (uint8_t)(lcg(&seed) >> 24);
        if (iter & 1) {
            /* native, with an opcode the generation defines: more of the executor */
            static const uint8_t ops[] = { 1, 2, 4, 5, 6, 7, 8, 9, 12, 16, 17, 18, 24, 25, 26, 32,
                                           34, 36, 37, 39, 40, 41, 42, 44, 45, 49, 56, 64, 65,
                                           66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78,
                                           79, 80, 81, 84, 85, 86, 87, 89, 90, 91, 92, 93, 3,
                                           10, 33, 35, 38, 43, 126 };
            w[3] &= (uint8_t)~0x20;
            w[0] = ops[lcg(&seed) % sizeof ops];
        }
        struct eu_instruction in;
        if (!eu_decode(gen, w, 16, &in))
            continue;
        struct eu_send_request rq;
        enum eu_step_result r = eu_exec(t, &in, &rq, iter);
        CU_ASSERT_TRUE(r <= EU_STEP_FAULT);
        counts[r]++;
        struct eu_fast f;
        eu_fast_prepare(&in, &f);
        if (f.op)
            eu_exec_fast(t, &f);
    }
    /* most random words are illegal, but plenty execute */
    CU_ASSERT_TRUE(counts[EU_STEP_OK] > 500);
    CU_ASSERT_TRUE(counts[EU_STEP_FAULT] > 500);
    free(t);
}

static const struct test_case cases[] = {
    { "mov float to int saturates", test_mov_float_to_int_saturates },
    { "mov int conversions and sat", test_mov_int_conversions_and_sat },
    { "vector immediates V UV VF W", test_vector_immediates },
    { "half float conversions", test_half_float_conversions },
    { "add mul sat and source modifiers", test_add_mul_sat_and_modifiers },
    { "integer alu (gen7)", test_integer_alu_gen7 },
    { "integer alu (gen8)", test_integer_alu_gen8 },
    { "integer alu (gen9)", test_integer_alu_gen9 },
    { "bit operations", test_bit_operations },
    { "bitfield extract and insert", test_bitfield_extract_insert },
    { "addc subb mach", test_carry_borrow_and_mach },
    { "mad lrp mac", test_mad_lrp_mac_fused },
    { "rounding and frc", test_rounding_and_frc },
    { "compare flags and select", test_compare_flags_and_select },
    { "min max nan rules", test_min_max_nan_rules },
    { "post conditions", test_post_conditions },
    { "seed: int to float rounds by cr0", test_seed_int_to_float_rounds_by_cr0 },
    { "seed: post conditions after conversion", test_seed_post_conditions_after_conversion },
    { "seed: ieee minmax prefers snan", test_seed_ieee_minmax_prefers_snan },
    { "seed: snan quietened except raw moves", test_seed_snan_quietened_except_raw_moves },
    { "seed: overflow condition", test_seed_overflow_condition },
    { "dot products align16", test_dot_products_align16 },
    { "line and plane", test_line_and_plane },
    { "math functions", test_math_functions },
    { "integer divide signs", test_integer_divide_signs },
    { "denormals by cr0", test_denormals_by_cr0 },
    { "same-type mov keeps denormals", test_same_type_mov_keeps_denormals },
    { "rounding modes from cr0", test_rounding_modes_from_cr0 },
    { "double precision", test_double_precision },
    { "alt mode", test_alt_mode },
    { "region addressing", test_region_addressing },
    { "seed region examples", test_seed_region_examples },
    { "align16 swizzle and writemask", test_align16_swizzle_and_writemask },
    { "indirect addressing", test_indirect_addressing },
    { "out of range register access", test_out_of_range_register_access_is_counted },
    { "predication forms", test_predication_forms },
    { "divergent nested if else (gen7)", test_divergent_nested_if_else_gen7 },
    { "divergent nested if else (gen8)", test_divergent_nested_if_else_gen8 },
    { "divergent nested if else (gen9)", test_divergent_nested_if_else_gen9 },
    { "if with no channel taken", test_if_with_no_channel_taken_jumps },
    { "loop with break and continue (gen7)", test_loop_with_break_and_continue_gen7 },
    { "loop with break and continue (gen8)", test_loop_with_break_and_continue_gen8 },
    { "loop with break and continue (gen9)", test_loop_with_break_and_continue_gen9 },
    { "halt jmpi call ret", test_halt_and_jmpi_and_call },
    { "jmpi ip ip index (Mesa's form) loops", test_jmpi_ip_ip_index_form },
    { "jmpi units by generation", test_jmpi_units_by_generation },
    { "write to ip is a jump", test_write_to_ip_is_a_jump },
    { "send request fields", test_send_request_fields },
    { "illegal opcode ends thread", test_illegal_opcode_ends_thread },
    { "illegal opcode enters the System Routine", test_illegal_opcode_enters_the_system_routine },
    { "software exception, no nesting", test_software_exception_and_nesting },
    { "simd16 and quarter control", test_simd16_and_quarter_control },
    { "fast path matches general", test_fast_path_matches_general },
    { "smov and movi", test_smov_and_movi },
    { "sad2 and sada2", test_sad2_and_sada2 },
    { "sad2 of qwords wraps", test_sad2_of_qwords_wraps },
    { "brd and brc (gen7)", test_brd_and_brc_gen7 },
    { "brd and brc (gen8)", test_brd_and_brc_gen8 },
    { "brd and brc (gen9)", test_brd_and_brc_gen9 },
    { "predicated call and ret", test_predicated_call_and_ret },
    { "fdiv and sqrt macros (invm, rsqrtm, madm)", test_fdiv_and_sqrt_macros },
    { "csel", test_csel },
    { "random words never crash", test_random_words_never_crash },
    { "gen7 half conversion opcodes", test_gen7_half_conversion_opcodes },
    { "qword and byte types, simd32", test_qword_and_byte_types },
    { 0 }
};
TEST_SUITE(eu_exec, cases);
