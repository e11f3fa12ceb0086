/* units/fpu/fpu_gen.c - see fpu_gen.h. */
#include "units/fpu/fpu_gen.h"

#include <string.h>

void fpu_gen_init(struct fpu_gen *g, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    if (!g->s)
        g->s = 1;
}

uint64_t fpu_gen_next(struct fpu_gen *g)
{
    uint64_t x = g->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    g->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

static uint32_t below(struct fpu_gen *g, uint32_t n)
{
    return (uint32_t)((fpu_gen_next(g) >> 32) % n);
}

const uint32_t fpu_special_f[FPU_SPECIAL_F_COUNT] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
    0xff800001, 0x7fa00000, 0x7fffffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
    0x00400000, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
    0x3f000000, 0xbf000000, 0x3f800001, 0x3f7fffff, 0x4f000000, 0xcf000000, 0x4effffff,
    0x4f800000, 0x4f7fffff, 0xcf000001, 0x3fc00000, 0x40000000, 0x33800000, 0x34000000,
    0x00800001, 0x4b000000, 0x4b800000, 0x3effffff, 0xbf800001, 0x7f000000, 0x0c000000,
};
static const uint32_t special_i[] = {
    0x00000000, 0x00000001, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0x00ffffff,
    0x01000000, 0x01000001, 0x7fffff80, 0x7fffffc0, 0xffffff80, 0x00000002, 0xfffffffe,
};

static uint32_t gen_f(struct fpu_gen *g)
{
    uint32_t k = below(g, 16);
    uint32_t r = (uint32_t)fpu_gen_next(g);
    if (k < 5)
        return fpu_special_f[below(g, FPU_SPECIAL_F_COUNT)];
    if (k < 7)
        return (r & 0x807fffffu);                           /* denormal or zero */
    if (k < 9)
        return (r & 0x80000000u) | (0x3f000000u + (r & 0x01ffffffu)); /* near 1 */
    if (k < 10)
        return (r & 0x807fffffu) | 0x7f000000u;             /* huge */
    if (k < 11)
        return (r & 0x807fffffu) | 0x00800000u;             /* smallest normals */
    if (k < 12)
        return (r & 0x807fffffu) | ((0x9c + (r >> 24 & 7)) << 23);     /* 2^29..2^36 */
    return r;
}

const uint64_t fpu_special_d[FPU_SPECIAL_D_COUNT] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ff4000000000000ull,
    0xfff0000020000000ull, 0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull,
    0x0010000000000000ull, 0x8010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, 0x3ff0000000000001ull,
    0x3fefffffffffffffull, 0x3ca0000000000000ull, 0x3ff0000010000000ull, 0x3ff0000010000001ull,
    0x3ff0000030000000ull, 0x47efffffe0000000ull, 0x47effffff0000000ull, 0x47f0000000000000ull,
    0x36a0000000000000ull, 0x3690000000000000ull, 0x3690000000000001ull, 0x380fffffe0000000ull,
    0x3810000000000000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull, 0x41efffffffe00000ull,
    0x41f0000000000000ull, 0x41efffffffffffffull, 0xc1e0000000100000ull, 0x4330000000000000ull,
};

static uint64_t gen_d(struct fpu_gen *g)
{
    uint32_t k = below(g, 16);
    uint64_t r = fpu_gen_next(g);
    if (k < 5)
        return fpu_special_d[below(g, FPU_SPECIAL_D_COUNT)];
    if (k < 7)
        return r & 0x800fffffffffffffull;                           /* denormal or zero */
    if (k < 9)
        return (r & 0x8000000000000000ull) | (0x3fe0000000000000ull + (r & 0x003fffffffffffffull));
    if (k < 12) {
        /* a float's value plus low bits: DF -> F rounding, float denormals, overflow */
        uint32_t f = gen_f(g);
        uint32_t e = f >> 23 & 0xff;
        if (e == 0xff)
            return fpu_special_d[below(g, 8)];
        uint64_t d = (uint64_t)(f >> 31) << 63 | (uint64_t)(e ? e - 127 + 1023 : 1023 - 140) << 52 |
                     (uint64_t)(f & 0x7fffff) << 29;
        return d | (below(g, 2) ? (r & 0x1fffffff) : (below(g, 2) ? 0x10000000 : 0));
    }
    if (k < 13)
        return (r & 0x800fffffffffffffull) | ((uint64_t)(0x41c + (r >> 58 & 7)) << 52);  /* 2^29..2^36 */
    return r;
}

static uint32_t gen_i(struct fpu_gen *g)
{
    uint32_t k = below(g, 4);
    uint32_t r = (uint32_t)fpu_gen_next(g);
    if (k == 0)
        return special_i[below(g, sizeof special_i / sizeof special_i[0])];
    if (k == 1)
        return r >> below(g, 32);
    return r;
}

void fpu_gen_request(struct fpu_gen *g, struct fpu_request *q)
{
    memset(q, 0, sizeof *q);
    unsigned op = below(g, FPU_OP_COUNT);
    q->op = (uint8_t)op;
    static const uint8_t conds[] = { FPU_CM_NONE, FPU_CM_Z, FPU_CM_NZ, FPU_CM_G, FPU_CM_GE,
                                     FPU_CM_L, FPU_CM_LE, FPU_CM_O, FPU_CM_U };
    if (op == FPU_OP_SEL)
        q->cond = below(g, 2) ? (below(g, 2) ? FPU_CM_L : FPU_CM_GE) : conds[1 + below(g, 8)];
    else if (op == FPU_OP_CMP)
        q->cond = conds[1 + below(g, 8)];
    else
        q->cond = below(g, 2) ? conds[below(g, 9)] : 0;
    q->mask = below(g, 8) ? 15 : (uint8_t)below(g, 16);
    unsigned rm = below(g, 4);
    bool keep = below(g, 2);
    q->mode = rm << FPU_MODE_RM_SHIFT | (keep ? FPU_MODE_SP_DENORM : 0) |
              (below(g, 2) ? FPU_MODE_F2I_RM : 0) | (below(g, 2) ? FPU_MODE_IEEE_MINMAX : 0);
    uint32_t ctrl = below(g, 4) == 0 ? FPU_CTRL_SAT : 0;
    for (unsigned i = 0; i < 3; i++)
        if (below(g, 4) == 0)
            ctrl |= (below(g, 3) + 1) << (1 + 2 * i);       /* neg, abs or -abs */
    unsigned sty = FPU_T_F, dty = FPU_T_F;
    bool df = below(g, 4) == 0;
    if (op == FPU_OP_MOV) {
        sty = below(g, df ? 4 : 3);
        dty = below(g, df ? 4 : 3);
        if (df && sty != FPU_T_DF && dty != FPU_T_DF)
            *(below(g, 2) ? &sty : &dty) = FPU_T_DF;
        ctrl |= sty << FPU_CTRL_STYPE_SHIFT | dty << FPU_CTRL_DTYPE_SHIFT;
    } else if (df) {
        ctrl |= FPU_CTRL_DF;
        sty = FPU_T_DF;
    }
    if (df) {
        g->df++;
        if (below(g, 2))
            q->mode |= FPU_MODE_DP_DENORM;
    }
    q->ctrl = ctrl;
    if (sty == FPU_T_DF) {
        for (unsigned l = 0; l < FPU_DF_LANES; l++)
            for (unsigned i = 0; i < 3; i++) {
                uint64_t v = gen_d(g);
                q->src[i][2 * l] = (uint32_t)v;
                q->src[i][2 * l + 1] = (uint32_t)(v >> 32);
            }
        for (unsigned l = 0; l < FPU_DF_LANES; l++) {
            if (below(g, 8) == 0) {             /* equal or negated: x - x, min/max ties */
                q->src[1][2 * l] = q->src[0][2 * l];
                q->src[1][2 * l + 1] = q->src[0][2 * l + 1] ^ (below(g, 2) ? 0x80000000u : 0);
            } else if (op == FPU_OP_MAD && below(g, 8) == 0) {
                double b, c, a;
                uint64_t u;
                u = (uint64_t)q->src[1][2 * l] | (uint64_t)q->src[1][2 * l + 1] << 32;
                memcpy(&b, &u, 8);
                u = (uint64_t)q->src[2][2 * l] | (uint64_t)q->src[2][2 * l + 1] << 32;
                memcpy(&c, &u, 8);
                a = -(b * c);
                memcpy(&u, &a, 8);
                u ^= below(g, 2);
                q->src[0][2 * l] = (uint32_t)u;
                q->src[0][2 * l + 1] = (uint32_t)(u >> 32);
            }
        }
        goto done;
    }
    for (unsigned l = 0; l < FPU_LANES; l++)
        for (unsigned i = 0; i < 3; i++)
            q->src[i][l] = sty == FPU_T_F ? gen_f(g) : gen_i(g);
    /* equal or negated operands: cancellations, x - x, min/max of equal values */
    for (unsigned l = 0; l < FPU_LANES; l++) {
        uint32_t k = below(g, 8);
        if (k == 0)
            q->src[1][l] = q->src[0][l] ^ (below(g, 2) ? 0x80000000u : 0);
        else if (k == 1 && op == FPU_OP_MAD) {
            /* s0 close to -(s1 * s2): massive cancellation */
            uint32_t p;
            float a, b, c;
            memcpy(&b, &q->src[1][l], 4);
            memcpy(&c, &q->src[2][l], 4);
            a = -(b * c);
            memcpy(&p, &a, 4);
            q->src[0][l] = p ^ (below(g, 2) ? 1u : 0);
        }
    }
done:
    g->per_op[op]++;
    g->per_rm[rm]++;
    if (keep)
        g->keep++;
    else
        g->ftz++;
}
