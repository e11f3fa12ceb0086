/* units/eu/eu_exec_alu.c - the ALU operation families of EU instructions, one
 * function each, reached through the opcode table in eu_exec.c with their
 * sources already read into lanes (see eu_exec.h for the seed lines;
 * eu_exec_internal.h for the files). Float rules: see eu_exec.c's head. */
#include "units/eu/eu_exec_internal.h"

#include <fenv.h>
#include <float.h>
#include <math.h>



/* The magnitude of a - b wrapped to 64 signed bits, as a 64-bit subtract
 * gives it: the true |a - b| whenever a - b fits in an int64_t. */
static uint64_t abs_difference(int64_t a, int64_t b)
{
    uint64_t d = (uint64_t)a - (uint64_t)b;
    return (int64_t)d < 0 ? 0 - d : d;
}

static uint32_t bitrev32(uint32_t x)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

/* rnde: round to nearest even, independent of cr0 rounding (L23977-24062). */
static float rnde_f(float a)
{
    float r = floorf(a), d = a - r;
    if (d > 0.5f || (d == 0.5f && fmodf(r, 2.0f) != 0))
        r += 1.0f;
    return isnan(d) ? a : copysignf(r, a);       /* rnde(-0.5) = -0 */
}

static double rnde_d(double a)
{
    double r = floor(a), d = a - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0))
        r += 1.0;
    return isnan(d) ? a : copysign(r, a);
}

static uint64_t raw_of_src_type(int64_t v, unsigned ty)
{
    unsigned b = type_bytes(ty);
    return b >= 8 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << (8 * b)) - 1);
}

/* min/max (L21702-21739): with cr0.0[11] = 0 (the DX rule, L20025-20029) a
 * NaN source is ignored; with cr0.0[11] = 1 (IEEE) an sNaN source is
 * preferred to a number and gives its quietened value. Two NaNs give the
 * first source's NaN quietened, except that under the IEEE rule a qNaN and an
 * sNaN give the quietened sNaN (L21728-21738). -0 < +0. */
static float minmax_f(float a, float b, bool min, bool ieee)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    bool na = isnan(a), nb = isnan(b);
    bool sa = na && !(ua & 0x00400000u), sb = nb && !(ub & 0x00400000u);
    uint32_t r;
    if (na || nb) {
        if (na && nb) r = (ieee && sb && !sa) ? ub : ua;
        else if (ieee && (sa || sb)) r = sa ? ua : ub;
        else return na ? b : a;
        r |= 0x00400000u;
        float f;
        memcpy(&f, &r, 4);
        return f;
    }
    if (a == b && a == 0)   /* -0 < +0 for min/max */
        return min ? (signbit(a) ? a : b) : (signbit(a) ? b : a);
    return min ? (a < b ? a : b) : (a > b ? a : b);
}

static double minmax_d(double a, double b, bool min, bool ieee)
{
    uint64_t ua, ub;
    const uint64_t qb = UINT64_C(0x0008000000000000);
    memcpy(&ua, &a, 8);
    memcpy(&ub, &b, 8);
    bool na = isnan(a), nb = isnan(b);
    bool sa = na && !(ua & qb), sb = nb && !(ub & qb);
    uint64_t r;
    if (na || nb) {
        if (na && nb) r = (ieee && sb && !sa) ? ub : ua;
        else if (ieee && (sa || sb)) r = sa ? ua : ub;
        else return na ? b : a;
        r |= qb;
        double d;
        memcpy(&d, &r, 8);
        return d;
    }
    if (a == b && a == 0)
        return min ? (signbit(a) ? a : b) : (signbit(a) ? b : a);
    return min ? (a < b ? a : b) : (a > b ? a : b);
}

static bool cmp_rel(unsigned cm, lane_t a, lane_t b, enum kind k, bool cmpn)
{
    if (k == K_INT) {
        switch (cm) {
        case EU_COND_MOD_Z: return a.i == b.i;
        case EU_COND_MOD_NZ: return a.i != b.i;
        case EU_COND_MOD_G: return a.i > b.i;
        case EU_COND_MOD_GE: return a.i >= b.i;
        case EU_COND_MOD_L: return a.i < b.i;
        case EU_COND_MOD_LE: return a.i <= b.i;
        default: return false;
        }
    }
    double x = k == K_F ? (double)a.f : a.d, y = k == K_F ? (double)b.f : b.d;
    bool nx = isnan(x), ny = isnan(y);
    if (cmpn && (nx || ny)) {
        /* cmpn (L21397-21403): true when src1 is NaN, false when only src0 is;
         * .ne the reverse */
        bool r = ny;
        return cm == EU_COND_MOD_NZ ? !r : r;
    }
    switch (cm) {
    case EU_COND_MOD_Z: return x == y;
    case EU_COND_MOD_NZ: return !(x == y);
    case EU_COND_MOD_G: return x > y;
    case EU_COND_MOD_GE: return x >= y;
    case EU_COND_MOD_L: return x < y;
    case EU_COND_MOD_LE: return x <= y;
    case EU_COND_MOD_U: return nx || ny;
    default: return false;
    }
}

static double math1(unsigned fn, double x, bool *dz)
{
    switch (fn) {
    case DESC_MATH_INV: case DESC_MATH_INVM:
        if (x == 0) *dz = true;
        return 1.0 / x;
    case DESC_MATH_LOG:
        if (x == 0) *dz = true;
        return log2(x);
    case DESC_MATH_EXP: return exp2(x);
    case DESC_MATH_SQRT: return sqrt(x);
    case DESC_MATH_RSQ: case DESC_MATH_RSQRTM:
        if (x == 0) *dz = true;
        return 1.0 / sqrt(x);
    case DESC_MATH_SIN: return sin(x);
    case DESC_MATH_COS: return cos(x);
    default: return NAN;
    }
}

/* Single-precision math: the function in single precision where C has it
 * (the seed allows 1..4 ULP, L24110-24250). */
static float math1f(unsigned fn, float x, bool *dz)
{
    switch (fn) {
    case DESC_MATH_INV: case DESC_MATH_INVM:
        if (x == 0) *dz = true;
        return 1.0f / x;
    case DESC_MATH_LOG:
        if (x == 0) *dz = true;
        return log2f(x);
    case DESC_MATH_EXP: return exp2f(x);
    case DESC_MATH_SQRT: return sqrtf(x);
    case DESC_MATH_RSQ: case DESC_MATH_RSQRTM:
        if (x == 0) *dz = true;
        return 1.0f / sqrtf(x);
    case DESC_MATH_SIN: return sinf(x);
    case DESC_MATH_COS: return cosf(x);
    default: return NAN;
    }
}

/* ---- the families ------------------------------------------------------------ */

#define FOR_CH for (unsigned ch = 0; ch < n; ch++)
#define FOP(expr_f, expr_d, expr_i)                                                        \
    do {                                                                                   \
        if (k == K_F) { FOR_CH { float a = s0[ch].f, b = s1[ch].f; (void)a; (void)b; r[ch].f = (expr_f); } } \
        else if (k == K_DF) { FOR_CH { double a = s0[ch].d, b = s1[ch].d; (void)a; (void)b; r[ch].d = (expr_d); } } \
        else { FOR_CH { int64_t a = s0[ch].i, b = s1[ch].i; (void)a; (void)b; r[ch].i = (expr_i); } } \
    } while (0)

/* moves and conversions: mov, smov (004 L24086-24120), movi (004 L23026-23066),
 * f32to16, f16to32. */
enum eu_step_result exec_moves(struct ctx *c, struct lanes *l)
{
    struct eu_thread *t = c->t;
    const struct eu_instruction *in = c->in;
    unsigned n = c->nch;
    enum kind k = l->k;
    lane_t *s0 = l->s0;
    lane_t *r = l->r;
    switch (c->in->opcode) {
    case EU_OPCODE_MOV:
        FOR_CH r[ch] = s0[ch];
        exec_write_dst(c, r, k, NULL, true);
        break;
    case EU_OPCODE_F32TO16:
        FOR_CH r[ch].i = exec_float_to_half(k == K_F ? s0[ch].f : (float)s0[ch].d);
        exec_write_dst(c, r, K_INT, NULL, true);
        break;
    case EU_OPCODE_F16TO32:
        FOR_CH r[ch].f = exec_hf_value(c, (uint16_t)s0[ch].i);
        exec_write_dst(c, r, K_F, NULL, true);
        break;
    case EU_OPCODE_SMOV: {
        /* 004 L24086-24120: src1 is an immediate channel mask. Without
         * predication it masks the execution mask; with predication the
         * flags are not used: the instruction runs (with its execution
         * mask) only when some channel survives the immediate mask. */
        uint32_t imm = (uint32_t)in->src[1].imm >> c->off;
        uint32_t base_en = in->mask_control ? chan_bits(n) : (t->amask >> c->off) & chan_bits(n);
        c->en = in->pred_control ? ((base_en & imm) ? base_en : 0) : (base_en & imm);
        FOR_CH r[ch] = s0[ch];
        exec_write_dst(c, r, k, NULL, true);
        break;
    }
    case EU_OPCODE_MOVI: {
        /* 004 L23026-23066: src0 is indirect; every channel reads the
         * register a0.0[11:5] + addr_imm[9:5], at the subregister of its
         * own address subregister a0.(n mod 8)[4:0] + addr_imm[4:0] (aligned
         * down to the element size). */
        const struct eu_operand *o = &in->src[0];
        unsigned es = type_bytes(o->type);
        uint32_t a00 = exec_a0_word(t, 0);
        uint32_t reg = ((a00 >> 5) + ((uint32_t)(int32_t)o->addr_imm >> 5)) & 0x7f;
        FOR_CH {
            uint32_t sub = (exec_a0_word(t, ch % 8) + (uint32_t)(int32_t)o->addr_imm) & 31u & ~(es - 1);
            uint64_t raw = 0;
            if (o->file == EU_FILE_GRF && o->indirect)
                raw = rd_le(t->grf + reg * EU_REG_BYTES + sub, es);
            else
                exec_fault(c);
            r[ch] = exec_to_kind(c, o->type, raw, k);
            if (o->abs || o->negate) {
                if (k == K_INT) {
                    if (o->abs && r[ch].i < 0) r[ch].i = -r[ch].i;
                    if (o->negate) r[ch].i = -r[ch].i;
                } else if (k == K_F) {
                    if (o->abs) r[ch].f = fabsf(r[ch].f);
                    if (o->negate) r[ch].f = -r[ch].f;
                }
            }
        }
        exec_write_dst(c, r, k, NULL, true);
        break;
    }
    default:
        break;
    }
    return EU_STEP_OK;
}

/* logic and bit operations: not, and, or, xor, shifts, bfrev, bfe, bfi1,
 * bfi2, lzd, fbh, fbl, cbit. */
enum eu_step_result exec_logic(struct ctx *c, struct lanes *l)
{
    const struct eu_instruction *in = c->in;
    unsigned op = c->in->opcode;
    unsigned n = c->nch;
    lane_t *s0 = l->s0;
    lane_t *s1 = l->s1;
    lane_t *s2 = l->s2;
    lane_t *r = l->r;
    switch (op) {
    case EU_OPCODE_NOT: FOR_CH r[ch].i = ~s0[ch].i; exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_AND: FOR_CH r[ch].i = s0[ch].i & s1[ch].i; exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_OR:  FOR_CH r[ch].i = s0[ch].i | s1[ch].i; exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_XOR: FOR_CH r[ch].i = s0[ch].i ^ s1[ch].i; exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_SHR: case EU_OPCODE_SHL: case EU_OPCODE_ASR: {
        /* shift count: low 5 bits, low 6 in QWord mode (opcode table) */
        bool q = type_bytes(in->src[0].type) == 8 || type_bytes(in->dst.type) == 8;
        unsigned mask = q ? 63 : 31;
        FOR_CH {
            unsigned sh = (unsigned)s1[ch].u & mask;
            if (op == EU_OPCODE_SHL) r[ch].u = s0[ch].u << sh;
            else if (op == EU_OPCODE_SHR) r[ch].u = raw_of_src_type(s0[ch].i, in->src[0].type) >> sh;
            else {
                int64_t v = type_bytes(in->src[0].type) >= 8 ? s0[ch].i
                          : exec_int_from_raw(type_bytes(in->src[0].type) == 4 ? EU_TYPE_D :
                                         type_bytes(in->src[0].type) == 2 ? EU_TYPE_W : EU_TYPE_B,
                                         (uint64_t)s0[ch].i);
                r[ch].i = v >> sh;
            }
        }
        exec_write_dst(c, r, K_INT, NULL, true);
        break;
    }
    case EU_OPCODE_BFREV: FOR_CH r[ch].i = bitrev32((uint32_t)s0[ch].i); exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_BFE: FOR_CH {
        /* width = src0[4:0], offset = src1[4:0], value = src2 */
        unsigned w = (unsigned)s0[ch].u & 31, o = (unsigned)s1[ch].u & 31;
        uint32_t v = (uint32_t)s2[ch].u;
        if (w == 0) r[ch].i = 0;
        else if (w + o < 32) {
            uint32_t f = (v << (32 - w - o)) ;
            r[ch].i = in->dst.type == EU_TYPE_D ? (int64_t)((int32_t)f >> (32 - w)) : (int64_t)(f >> (32 - w));
        } else {
            r[ch].i = in->dst.type == EU_TYPE_D ? (int64_t)((int32_t)v >> o) : (int64_t)(v >> o);
        }
    } exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_BFI1: FOR_CH {
        unsigned w = (unsigned)s0[ch].u & 31, o = (unsigned)s1[ch].u & 31;
        r[ch].i = (int64_t)(uint32_t)((((uint32_t)1 << w) - 1) << o);
    } exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_BFI2: FOR_CH {
        uint32_t m = (uint32_t)s0[ch].u;
        r[ch].i = (int64_t)(uint32_t)((m & (uint32_t)s1[ch].u) | (~m & (uint32_t)s2[ch].u));
    } exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_LZD: FOR_CH { uint32_t v = (uint32_t)s0[ch].u; r[ch].i = v ? __builtin_clz(v) : 32; }
        exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_FBH: FOR_CH {
        /* UD: first 1 from the MSB; D: first bit differing from the sign;
         * result counts from the MSB, 0xFFFFFFFF when none */
        uint32_t v = (uint32_t)s0[ch].u;
        if (in->src[0].type == EU_TYPE_D && (v >> 31))
            v = ~v;
        if (in->src[0].type == EU_TYPE_D)
            r[ch].i = v ? (int64_t)__builtin_clz(v) : (int64_t)0xffffffff;
        else
            r[ch].i = v ? (int64_t)__builtin_clz(v) : (int64_t)0xffffffff;
    } exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_FBL: FOR_CH { uint32_t v = (uint32_t)s0[ch].u; r[ch].i = v ? (int64_t)__builtin_ctz(v) : (int64_t)0xffffffff; }
        exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_CBIT: FOR_CH r[ch].i = __builtin_popcount((uint32_t)raw_of_src_type(s0[ch].i, in->src[0].type));
        exec_write_dst(c, r, K_INT, NULL, true); break;
    default:
        break;
    }
    return EU_STEP_OK;
}

/* compare and select: sel (min/max with .l/.ge, L21702-21739), cmp, cmpn
 * (L21397-21403), csel. */
enum eu_step_result exec_compare(struct ctx *c, struct lanes *l)
{
    const struct eu_instruction *in = c->in;
    unsigned op = c->in->opcode;
    unsigned n = c->nch;
    enum kind k = l->k;
    lane_t *s0 = l->s0;
    lane_t *s1 = l->s1;
    lane_t *s2 = l->s2;
    lane_t *r = l->r;
    bool *cv = l->cv;
    switch (op) {
    case EU_OPCODE_SEL: {
        /* sel.l / sel.ge: min / max; otherwise the predicate selects (no flag update) */
        uint32_t pm = in->pred_control ? exec_pred_mask(c) : ~0u;
        unsigned cm = in->cond_modifier;
        FOR_CH {
            if (cm == EU_COND_MOD_L || cm == EU_COND_MOD_GE) {
                bool mn = cm == EU_COND_MOD_L;
                if (k == K_F) r[ch].f = minmax_f(s0[ch].f, s1[ch].f, mn, c->ieee_minmax);
                else if (k == K_DF) r[ch].d = minmax_d(s0[ch].d, s1[ch].d, mn, c->ieee_minmax);
                else r[ch].i = mn ? (s0[ch].i < s1[ch].i ? s0[ch].i : s1[ch].i)
                                  : (s0[ch].i >= s1[ch].i ? s0[ch].i : s1[ch].i);
            } else if (cm) {
                r[ch] = cmp_rel(cm, s0[ch], s1[ch], k, false) ? s0[ch] : s1[ch];
            } else {
                r[ch] = (pm >> ch & 1) ? s0[ch] : s1[ch];
            }
        }
        exec_write_dst(c, r, k, NULL, false);
        break;
    }
    case EU_OPCODE_CMP: case EU_OPCODE_CMPN: {
        uint64_t bits[EU_MAX_CHANNELS];
        uint64_t ones = UINT64_MAX;
        FOR_CH {
            cv[ch] = cmp_rel(in->cond_modifier, s0[ch], s1[ch], k, op == EU_OPCODE_CMPN);
            bits[ch] = cv[ch] ? ones : 0;
        }
        exec_update_flags(c, cv);
        exec_write_dst_bits(c, bits);
        break;
    }
    case EU_OPCODE_CSEL:
        /* csel.cm: src2 compared with 0 selects src0 or src1 (gen8+) */
        FOR_CH {
            lane_t z; z.u = 0;
            if (k == K_F) z.f = 0;
            cv[ch] = cmp_rel(in->cond_modifier, s2[ch], z, k, false);
            r[ch] = cv[ch] ? s0[ch] : s1[ch];
        }
        exec_write_dst(c, r, k, NULL, false);
        break;
    default:
        break;
    }
    return EU_STEP_OK;
}

/* arithmetic: add, mul, avg, frc, the rounds, dp4/dph/dp3/dp2, line, pln,
 * mad/madm (L21622-21635), lrp. */
enum eu_step_result exec_arithmetic(struct ctx *c, struct lanes *l)
{
    struct eu_thread *t = c->t;
    const struct eu_instruction *in = c->in;
    unsigned op = c->in->opcode;
    unsigned n = c->nch;
    enum kind k = l->k;
    lane_t *s0 = l->s0;
    lane_t *s1 = l->s1;
    lane_t *s2 = l->s2;
    lane_t *r = l->r;
    switch (op) {
    case EU_OPCODE_ADD: FOP(a + b, a + b, (int64_t)((uint64_t)a + (uint64_t)b)); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_MUL: FOP(a * b, a * b, (int64_t)((uint64_t)a * (uint64_t)b)); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_AVG: FOR_CH r[ch].i = (int64_t)((uint64_t)s0[ch].i + (uint64_t)s1[ch].i + 1) >> 1;
        exec_write_dst(c, r, K_INT, NULL, true); break;
    case EU_OPCODE_FRC: FOP(a - floorf(a), a - floor(a), 0); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_RNDU: FOP(ceilf(a), ceil(a), a); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_RNDD: FOP(floorf(a), floor(a), a); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_RNDE: FOP(rnde_f(a), rnde_d(a), a); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_RNDZ: FOP(truncf(a), trunc(a), a); exec_write_dst(c, r, k, NULL, true); break;
    case EU_OPCODE_DP4: case EU_OPCODE_DPH: case EU_OPCODE_DP3: case EU_OPCODE_DP2: {
        for (unsigned g = 0; g + 3 < n || g < n; g += 4) {
            double acc = 0;
            unsigned m = op == EU_OPCODE_DP2 ? 2 : (op == EU_OPCODE_DP4 ? 4 : 3);
            for (unsigned i = 0; i < m && g + i < n; i++)
                acc += k == K_DF ? s0[g + i].d * s1[g + i].d : (double)(s0[g + i].f * s1[g + i].f);
            if (op == EU_OPCODE_DPH && g + 3 < n)
                acc += k == K_DF ? s1[g + 3].d : s1[g + 3].f;
            for (unsigned i = 0; i < 4 && g + i < n; i++) {
                if (k == K_DF) r[g + i].d = acc; else r[g + i].f = (float)acc;
            }
        }
        exec_write_dst(c, r, k, NULL, true);
        break;
    }
    case EU_OPCODE_LINE: case EU_OPCODE_PLN: {
        /* line: p * src1 + q (p = src0.0, q = src0.3); pln: p * u + q * v + r
         * (p, q, r = src0.0, .1, .3; u in src1's registers, v in the next one per
         * 8 channels) */
        const struct eu_operand *o0 = &in->src[0], *o1 = &in->src[1];
        uint32_t b0 = o0->reg_nr * 32u + o0->subreg_nr, b1 = o1->reg_nr * 32u + o1->subreg_nr;
        if (o0->file != EU_FILE_GRF || o1->file != EU_FILE_GRF || b0 + 16 > EU_GRF_BYTES ||
            b1 + (n > 8 ? 128u : 64u) > EU_GRF_BYTES) {
            exec_fault(c);
            break;
        }
        float p, q, rr;
        memcpy(&p, t->grf + b0, 4);
        memcpy(&q, t->grf + b0 + (op == EU_OPCODE_LINE ? 12 : 4), 4);
        memcpy(&rr, t->grf + b0 + 12, 4);
        FOR_CH {
            float u, v;
            memcpy(&u, t->grf + b1 + (ch / 8) * 32 * (op == EU_OPCODE_PLN ? 2 : 1) + (ch % 8) * 4, 4);
            if (op == EU_OPCODE_LINE) {
                r[ch].f = p * u + q;
            } else {
                memcpy(&v, t->grf + b1 + (ch / 8) * 64 + 32 + (ch % 8) * 4, 4);
                r[ch].f = p * u + q * v + rr;
            }
        }
        exec_write_dst(c, r, K_F, NULL, true);
        break;
    }
    case EU_OPCODE_MAD: case EU_OPCODE_MADM:
        /* mad: src0 + src1 * src2, fused (L21622-21635) */
        FOR_CH {
            if (k == K_F) r[ch].f = fmaf(s1[ch].f, s2[ch].f, s0[ch].f);
            else if (k == K_DF) r[ch].d = fma(s1[ch].d, s2[ch].d, s0[ch].d);
            else r[ch].i = (int64_t)((uint64_t)s0[ch].i + (uint64_t)s1[ch].i * (uint64_t)s2[ch].i);
        }
        exec_write_dst(c, r, k, NULL, true);
        break;
    case EU_OPCODE_LRP:
        /* lrp: src0 * src1 + (1 - src0) * src2 */
        FOR_CH {
            if (k == K_DF) r[ch].d = s0[ch].d * s1[ch].d + (1 - s0[ch].d) * s2[ch].d;
            else r[ch].f = s0[ch].f * s1[ch].f + (1 - s0[ch].f) * s2[ch].f;
        }
        exec_write_dst(c, r, k, NULL, true);
        break;
    default:
        break;
    }
    return EU_STEP_OK;
}

/* arithmetic through the accumulator: mac, mach (004 L23186-23215),
 * sad2/sada2 (004 L24782-24845), addc, subb. */
enum eu_step_result exec_accumulator(struct ctx *c, struct lanes *l)
{
    struct eu_thread *t = c->t;
    const struct eu_instruction *in = c->in;
    unsigned op = c->in->opcode;
    unsigned n = c->nch;
    enum kind k = l->k;
    lane_t *s0 = l->s0;
    lane_t *s1 = l->s1;
    lane_t *s2 = l->s2;
    lane_t *r = l->r;
    switch (op) {
    case EU_OPCODE_MAC: {
        /* dst = acc + src0 * src1 */
        const uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH {
            if (k == K_F) { float a; memcpy(&a, acc + 4 * (ch & 15), 4); r[ch].f = a + s0[ch].f * s1[ch].f; }
            else if (k == K_DF) { double a; memcpy(&a, acc + 8 * (ch & 7), 8); r[ch].d = a + s0[ch].d * s1[ch].d; }
            else r[ch].i = (int64_t)((uint64_t)t->acc_wide[ch] + (uint64_t)s0[ch].i * (uint64_t)s1[ch].i);
        }
        exec_write_dst(c, r, k, NULL, true);
        break;
    }
    case EU_OPCODE_MACH: {
        /* 004 L23186-23215: acc[63:0] = (src1[31:16] * src0[31:0]) << 16 +
         * acc[63:0]; dst = acc[63:32]. With mul acc0 src0 src1:uw before it
         * (the low half of src1), acc ends as the full 64-bit product. The
         * high word is signed for D, unsigned for UD; Gen4-7 take the high
         * word from src0 instead ("mach reverses the roles of the two source
         * operands compared to previous generations", 003 L21114). */
        bool rev = in->gen < 8;
        const struct eu_operand *hop = rev ? &in->src[0] : &in->src[1];
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH {
            uint32_t hv = (uint32_t)(rev ? s0[ch].u : s1[ch].u);
            uint32_t fv = (uint32_t)(rev ? s1[ch].u : s0[ch].u);
            const struct eu_operand *fop = rev ? &in->src[1] : &in->src[0];
            int64_t hi = hop->type == EU_TYPE_D ? (int64_t)(int16_t)(hv >> 16) : (int64_t)(hv >> 16);
            int64_t full = fop->type == EU_TYPE_D ? (int64_t)(int32_t)fv : (int64_t)fv;
            uint64_t a = (uint64_t)((hi * full) * 65536) + (uint64_t)t->acc_wide[ch];
            r[ch].i = (int64_t)a >> 32;
            if (c->en >> ch & 1) {
                t->acc_wide[ch] = (int64_t)a;
                wr_le(acc + 4 * (ch & 15), 4, (uint32_t)a);
            }
        }
        struct eu_instruction plain = *in;
        plain.acc_wr_control = false;   /* the accumulator holds the 64-bit sum */
        c->in = &plain;
        exec_write_dst(c, r, K_INT, NULL, true);
        c->in = in;
        break;
    }
    case EU_OPCODE_SAD2: case EU_OPCODE_SADA2: {
        /* 004 L24782-24845: per 2-tuple of channels, |s0[n] - s1[n]| +
         * |s0[n+1] - s1[n+1]| (plus the accumulator's channel n for sada2)
         * goes to the first channel of the tuple, and to the accumulator
         * (16 bits per channel kept in dst; the accumulator keeps its guide
         * bits). The odd channels are "written but with undefined values":
         * here they are written 0. */
        FOR_CH r[ch].i = 0;
        for (unsigned ch = 0; ch + 1 < n; ch += 2) {
            /* in 64 bits, wrapping: the byte sources the seed gives cannot
             * come near them, and wider ones (not the seed's) wrap instead of
             * overflowing (eu_exec fuzz finding: sad2 of Q operands) */
            uint64_t sad = abs_difference(s0[ch].i, s1[ch].i) +
                           abs_difference(s0[ch + 1].i, s1[ch + 1].i);
            if (op == EU_OPCODE_SADA2) sad += (uint64_t)t->acc_wide[ch];
            r[ch].i = (int64_t)sad;
            if (c->en >> ch & 1) {
                t->acc_wide[ch] = sad;
                t->acc_wide[ch + 1] = 0;
            }
        }
        exec_write_dst(c, r, K_INT, NULL, true);
        break;
    }
    case EU_OPCODE_ADDC: case EU_OPCODE_SUBB: {
        /* UD: carry / borrow to the accumulator */
        FOR_CH {
            uint64_t a = (uint32_t)s0[ch].u, b = (uint32_t)s1[ch].u;
            if (op == EU_OPCODE_ADDC) { r[ch].i = (int64_t)(uint32_t)(a + b); s2[ch].i = (a + b) >> 32; }
            else { r[ch].i = (int64_t)(uint32_t)(a - b); s2[ch].i = a < b; }
        }
        exec_write_dst(c, r, K_INT, NULL, true);
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH if (c->en >> ch & 1) {
            t->acc_wide[ch] = s2[ch].i;
            wr_le(acc + 4 * ch, 4, (uint32_t)s2[ch].i);
        }
        break;
    }
    default:
        break;
    }
    return EU_STEP_OK;
}

/* the in-EU math functions (L24065-24295), INT DIV with the sign table
 * (L24244). */
enum eu_step_result exec_math(struct ctx *c, struct lanes *l)
{
    struct eu_thread *t = c->t;
    const struct eu_instruction *in = c->in;
    unsigned n = c->nch;
    enum kind k = l->k;
    unsigned ns = l->ns;
    lane_t *s0 = l->s0;
    lane_t *s1 = l->s1;
    lane_t *r = l->r;
    switch (c->in->opcode) {
    case EU_OPCODE_MATH: {
        unsigned fn = in->math_function;
        bool dz = false;
        if (fn >= DESC_MATH_INTDIVMOD && fn <= DESC_MATH_INTMOD) {
            /* INT DIV (L24244): quotient sign = xor of the signs, remainder
             * takes the numerator's. Divide by zero is not defined by the
             * seed: quotient all ones, remainder = numerator (counted). */
            bool u = in->src[0].type == EU_TYPE_UD || in->src[1].type == EU_TYPE_UD;
            lane_t rem[EU_MAX_CHANNELS];
            FOR_CH {
                if (u) {
                    uint32_t a = (uint32_t)s0[ch].u, b = (uint32_t)s1[ch].u;
                    if (!b) { if (c->en >> ch & 1) dz = true; r[ch].i = 0xffffffff; rem[ch].i = a; }
                    else { r[ch].i = a / b; rem[ch].i = a % b; }
                } else {
                    int32_t a = (int32_t)s0[ch].i, b = (int32_t)s1[ch].i;
                    if (!b) { if (c->en >> ch & 1) dz = true; r[ch].i = -1; rem[ch].i = a; }
                    else if (a == INT32_MIN && b == -1) { r[ch].i = INT32_MIN; rem[ch].i = 0; }
                    else { r[ch].i = a / b; rem[ch].i = a % b; }
                }
            }
            if (fn == DESC_MATH_INTMOD) {
                exec_write_dst(c, rem, K_INT, NULL, false);
            } else {
                exec_write_dst(c, r, K_INT, NULL, false);
                if (fn == DESC_MATH_INTDIVMOD) {
                    /* remainder to the next register */
                    struct eu_instruction copy = *in;
                    copy.dst.reg_nr = (uint8_t)(copy.dst.reg_nr + 1);
                    c->in = &copy;
                    exec_write_dst(c, rem, K_INT, NULL, false);
                    c->in = in;
                }
            }
        } else {
            FOR_CH {
                if (k == K_DF) {
                    if (fn == DESC_MATH_POW) r[ch].d = pow(s0[ch].d, s1[ch].d);
                    else if (fn == DESC_MATH_FDIV) { if (s1[ch].d == 0 && (c->en >> ch & 1)) dz = true; r[ch].d = s0[ch].d / s1[ch].d; }
                    else r[ch].d = math1(fn, s0[ch].d, &dz);
                } else {
                    float a = k == K_F ? s0[ch].f : (float)s0[ch].i;
                    if (c->alt && (fn == DESC_MATH_LOG || fn == DESC_MATH_SQRT || fn == DESC_MATH_RSQ))
                        a = fabsf(a);   /* ALT: log, rsq, sqrt take abs() of the source */
                    float b = ns > 1 ? (k == K_F ? s1[ch].f : (float)s1[ch].i) : 0;
                    if (fn == DESC_MATH_INVM && ns > 1)
                        a = b;  /* invm a, b: the approximation of 1/b for a / b (003 L24255-24270) */
                    if (fn == DESC_MATH_POW) r[ch].f = powf(a, b);
                    else if (fn == DESC_MATH_FDIV) { if (b == 0 && (c->en >> ch & 1)) dz = true; r[ch].f = a / b; }
                    else r[ch].f = math1f(fn, a, &dz);
                }
            }
            exec_write_dst(c, r, k == K_DF ? K_DF : K_F, NULL, false);
        }
        if (dz) {
            t->counts.divide_by_zero++;
            /* sr0.1 IEEE Divide by Zero sticky bit when trapping is enabled (cr0.0[9]) */
            if (c->crv >> 9 & 1) {
                uint32_t s = (uint32_t)rd_le(t->arf[EU_ARF_SR0] + 4, 4) | 2u;
                wr_le(t->arf[EU_ARF_SR0] + 4, 4, s);
            }
        }
        break;
    }
    default:
        break;
    }
    return EU_STEP_OK;
}

/* nop, and wait (no notification registers are modelled: a nop, counted). */
enum eu_step_result exec_no_operation(struct ctx *c, struct lanes *l)
{
    (void)l;
    struct eu_thread *t = c->t;
    switch (c->in->opcode) {
    case EU_OPCODE_NOP:
        break;
    case EU_OPCODE_WAIT:
        /* wait: no notification registers are modelled; a nop, counted (the
         * unit warns) */
        t->counts.unmodelled++;
        break;
    default:
        break;
    }
    return EU_STEP_OK;
}
#undef FOP
#undef FOR_CH
