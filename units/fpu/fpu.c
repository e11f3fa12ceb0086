/* units/fpu/fpu.c - see fpu.h. Seed 003 line numbers. The arithmetic is the
 * host's IEEE single precision under the cr0 rounding mode (as the EU
 * executor's), with NaNs chosen explicitly so the result does not depend on
 * how the compiler orders operands. */
#include "units/fpu/fpu.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"

#pragma GCC optimize("-frounding-math")

#define QNAN_INDEFINITE 0xffc00000u

static float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t u_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static bool is_nan(uint32_t u)
{
    return (u & 0x7fffffffu) > 0x7f800000u;
}

static bool is_sub(uint32_t u)
{
    return (u & 0x7f800000u) == 0 && (u & 0x7fffffu) != 0;
}

/* A float source as the EU reads it: flushed, then abs, then neg. */
static uint32_t read_f(uint32_t u, bool ftz, uint32_t ctrl, unsigned i)
{
    if (ftz && is_sub(u))
        u &= 0x80000000u;
    if (ctrl & FPU_CTRL_ABS(i))
        u &= 0x7fffffffu;
    if (ctrl & FPU_CTRL_NEG(i))
        u ^= 0x80000000u;
    return u;
}

/* An integer source as an int64 lane, with abs and neg. */
static int64_t read_i(uint32_t u, unsigned ty, uint32_t ctrl, unsigned i)
{
    int64_t v = ty == FPU_T_D ? (int64_t)(int32_t)u : (int64_t)u;
    if ((ctrl & FPU_CTRL_ABS(i)) && v < 0)
        v = -v;
    if (ctrl & FPU_CTRL_NEG(i))
        v = -v;
    return v;
}

/* Post condition on a float result (L20872-20895). */
static bool cond_f(unsigned cm, uint32_t u)
{
    bool nan = is_nan(u), zero = (u & 0x7fffffffu) == 0, sign = (u >> 31) && !zero;
    switch (cm) {
    case FPU_CM_Z: return zero && !nan;
    case FPU_CM_NZ: return !(zero && !nan);
    case FPU_CM_G: return !sign && !zero && !nan;
    case FPU_CM_GE: return (!sign || zero) && !nan;
    case FPU_CM_L: return sign && !zero && !nan;
    case FPU_CM_LE: return (sign || zero) && !nan;
    case FPU_CM_U: return nan;
    default: return false;
    }
}

/* F/D/UD -> integer: whether the conversion is outside the type's range
 * (.o, L20890; a NaN is not an overflow). */
static bool f2i_of(double d, unsigned ty, bool f2i_rm)
{
    if (isnan(d))
        return false;
    d = f2i_rm ? nearbyint(d) : trunc(d);
    return ty == FPU_T_D ? (d < -2147483648.0 || d > 2147483647.0) : (d < 0.0 || d > 4294967295.0);
}

static bool i_of(int64_t v, unsigned ty)
{
    return ty == FPU_T_D ? (v < INT32_MIN || v > INT32_MAX) : (v < 0 || v > (int64_t)UINT32_MAX);
}

/* The post condition of an integer destination x converted from a float
 * that may be NaN (NC forces the relations false, L20872-20895). */
static bool cond_conv(unsigned cm, int64_t x, bool nan, bool of)
{
    if (cm == FPU_CM_O) return of;
    if (cm == FPU_CM_U) return nan;
    if (nan) return cm == FPU_CM_NZ;
    switch (cm) {
    case FPU_CM_Z: return x == 0;
    case FPU_CM_NZ: return x != 0;
    case FPU_CM_G: return x > 0;
    case FPU_CM_GE: return x >= 0;
    case FPU_CM_L: return x < 0;
    case FPU_CM_LE: return x <= 0;
    default: return false;
    }
}

static bool cond_i(unsigned cm, int64_t x)
{
    switch (cm) {
    case FPU_CM_Z: return x == 0;
    case FPU_CM_NZ: return x != 0;
    case FPU_CM_G: return x > 0;
    case FPU_CM_GE: return x >= 0;
    case FPU_CM_L: return x < 0;
    case FPU_CM_LE: return x <= 0;
    default: return false;
    }
}

/* s0 cond s1 for floats (cmp, L21916-22058). */
static bool rel_f(unsigned cm, uint32_t a, uint32_t b)
{
    float x = f_of(a), y = f_of(b);
    switch (cm) {
    case FPU_CM_Z: return x == y;
    case FPU_CM_NZ: return !(x == y);
    case FPU_CM_G: return x > y;
    case FPU_CM_GE: return x >= y;
    case FPU_CM_L: return x < y;
    case FPU_CM_LE: return x <= y;
    case FPU_CM_U: return is_nan(a) || is_nan(b);
    default: return false;
    }
}

/* .sat then the output flush (lane_to_raw's order). */
static uint32_t write_f(uint32_t u, bool sat, bool ftz)
{
    if (sat) {
        if (is_nan(u) || ((u >> 31) && (u & 0x7fffffffu)))
            u = 0;
        else if (f_of(u) > 1.0f)
            u = 0x3f800000u;
    }
    if (ftz && is_sub(u))
        u &= 0x80000000u;
    return u;
}

static uint32_t quiet(uint32_t u)
{
    return u | 0x00400000u;
}

/* The first NaN of up to three sources, quietened; 0 when none. */
static bool first_nan(uint32_t *out, const uint32_t *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (is_nan(v[i])) {
            *out = quiet(v[i]);
            return true;
        }
    return false;
}

static uint32_t arith(unsigned op, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    if (op == FPU_OP_MAD) {
        /* s0 + s1 * s2; NaN order s1, s2, s0 */
        uint32_t v[3] = { b, c, a };
        if (first_nan(&r, v, 3))
            return r;
        return u_of(fmaf(f_of(b), f_of(c), f_of(a)));
    }
    uint32_t v[2] = { a, b };
    if (first_nan(&r, v, 2))
        return r;
    float x = f_of(a), y = f_of(b);
    float z = op == FPU_OP_ADD ? x + y : x * y;
    r = u_of(z);
    if (is_nan(r))
        r = QNAN_INDEFINITE;
    return r;
}

/* min/max (L21702-21739): cr0.0[11] = 0 ignores a NaN source, = 1 prefers an
 * sNaN source (quietened); two NaNs: the first quietened, or under the IEEE
 * rule the sNaN when the other is a qNaN. */
static uint32_t minmax(bool min, uint32_t a, uint32_t b, bool ieee)
{
    bool na = is_nan(a), nb = is_nan(b);
    bool sa = na && !(a & 0x00400000u), sb = nb && !(b & 0x00400000u);
    if (na && nb) return quiet((ieee && sb && !sa) ? b : a);
    if (ieee && sa) return quiet(a);
    if (ieee && sb) return quiet(b);
    if (na) return b;
    if (nb) return a;
    float x = f_of(a), y = f_of(b);
    if (x == y && x == 0)
        return min ? ((a >> 31) ? a : b) : ((a >> 31) ? b : a);
    return min ? (x < y ? a : b) : (x > y ? a : b);
}

/* F -> D/UD (L21657-21693). */
static uint32_t f_to_int(uint32_t u, unsigned ty, bool f2i_rm)
{
    if (is_nan(u))
        return 0;
    float f = f_of(u);
    double d = f2i_rm ? nearbyint((double)f) : trunc((double)f);
    double lo = ty == FPU_T_D ? -2147483648.0 : 0.0;
    double hi = ty == FPU_T_D ? 2147483647.0 : 4294967295.0;
    if (d <= lo)
        return (uint32_t)(int64_t)lo;
    if (d >= hi)
        return (uint32_t)(int64_t)hi;
    return ty == FPU_T_D ? (uint32_t)(int32_t)d : (uint32_t)d;
}

static uint32_t int_to_int(int64_t v, unsigned ty, bool sat)
{
    if (sat) {
        int64_t lo = ty == FPU_T_D ? INT32_MIN : 0;
        int64_t hi = ty == FPU_T_D ? INT32_MAX : (int64_t)UINT32_MAX;
        if (v < lo) v = lo;
        if (v > hi) v = hi;
    }
    return (uint32_t)v;
}

/* ---- DF: two 64-bit lanes ---------------------------------------------------------- */

#define DNAN_INDEFINITE 0xfff8000000000000ull

static double d_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static uint64_t du_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static bool d_nan(uint64_t u)
{
    return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static bool d_inf(uint64_t u)
{
    return (u & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}

static bool d_sub(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) == 0 && (u & 0x000fffffffffffffull) != 0;
}

static uint64_t d_quiet(uint64_t u)
{
    return u | 0x0008000000000000ull;
}

static uint64_t read_d(uint64_t u, bool ftz, uint32_t ctrl, unsigned i)
{
    if (ftz && d_sub(u))
        u &= 0x8000000000000000ull;
    if (ctrl & FPU_CTRL_ABS(i))
        u &= 0x7fffffffffffffffull;
    if (ctrl & FPU_CTRL_NEG(i))
        u ^= 0x8000000000000000ull;
    return u;
}

static bool cond_d(unsigned cm, uint64_t u)
{
    bool nan = d_nan(u), zero = (u << 1) == 0, sign = (u >> 63) && !zero;
    switch (cm) {
    case FPU_CM_Z: return zero && !nan;
    case FPU_CM_NZ: return !(zero && !nan);
    case FPU_CM_G: return !sign && !zero && !nan;
    case FPU_CM_GE: return (!sign || zero) && !nan;
    case FPU_CM_L: return sign && !zero && !nan;
    case FPU_CM_LE: return (sign || zero) && !nan;
    case FPU_CM_U: return nan;
    default: return false;
    }
}

static bool rel_d(unsigned cm, uint64_t a, uint64_t b)
{
    double x = d_of(a), y = d_of(b);
    switch (cm) {
    case FPU_CM_Z: return x == y;
    case FPU_CM_NZ: return !(x == y);
    case FPU_CM_G: return x > y;
    case FPU_CM_GE: return x >= y;
    case FPU_CM_L: return x < y;
    case FPU_CM_LE: return x <= y;
    case FPU_CM_U: return d_nan(a) || d_nan(b);
    default: return false;
    }
}

static uint64_t write_d(uint64_t u, bool sat, bool ftz)
{
    if (sat) {
        if (d_nan(u) || ((u >> 63) && (u << 1)))
            u = 0;
        else if (d_of(u) > 1.0)
            u = 0x3ff0000000000000ull;
    }
    if (ftz && d_sub(u))
        u &= 0x8000000000000000ull;
    return u;
}

static uint64_t arith_d(unsigned op, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t v[3] = { op == FPU_OP_MAD ? b : a, op == FPU_OP_MAD ? c : b, a };
    unsigned n = op == FPU_OP_MAD ? 3 : 2;
    for (unsigned i = 0; i < n; i++)
        if (d_nan(v[i]))
            return d_quiet(v[i]);
    double x = d_of(a), y = d_of(b);
    double z = op == FPU_OP_MAD ? fma(y, d_of(c), x) : op == FPU_OP_ADD ? x + y : x * y;
    uint64_t r = du_of(z);
    return d_nan(r) ? DNAN_INDEFINITE : r;
}

/* min/max on doubles: as minmax */
static uint64_t minmax_d(bool min, uint64_t a, uint64_t b, bool ieee)
{
    const uint64_t qb = 0x0008000000000000ull;
    bool na = d_nan(a), nb = d_nan(b);
    bool sa = na && !(a & qb), sb = nb && !(b & qb);
    if (na && nb) return d_quiet((ieee && sb && !sa) ? b : a);
    if (ieee && sa) return d_quiet(a);
    if (ieee && sb) return d_quiet(b);
    if (na) return b;
    if (nb) return a;
    double x = d_of(a), y = d_of(b);
    if (x == y && x == 0)
        return min ? ((a >> 63) ? a : b) : ((a >> 63) ? b : a);
    return min ? (x < y ? a : b) : (x > y ? a : b);
}

static uint32_t d_to_int(uint64_t u, unsigned ty, bool f2i_rm)
{
    if (d_nan(u))
        return 0;
    double d = d_of(u);
    d = f2i_rm ? nearbyint(d) : trunc(d);
    double lo = ty == FPU_T_D ? -2147483648.0 : 0.0;
    double hi = ty == FPU_T_D ? 2147483647.0 : 4294967295.0;
    if (d <= lo)
        return (uint32_t)(int64_t)lo;
    if (d >= hi)
        return (uint32_t)(int64_t)hi;
    return ty == FPU_T_D ? (uint32_t)(int32_t)d : (uint32_t)d;
}

static uint64_t src64(const struct fpu_request *q, unsigned i, unsigned l)
{
    return (uint64_t)q->src[i][2 * l] | (uint64_t)q->src[i][2 * l + 1] << 32;
}

static bool compute_df(const struct fpu_request *q, struct fpu_response *r)
{
    unsigned op = q->op, cm = q->cond;
    unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
    if (op != FPU_OP_MOV)
        sty = dty = FPU_T_DF;
    bool ftz_f = !(q->mode & FPU_MODE_SP_DENORM), ftz_d = !(q->mode & FPU_MODE_DP_DENORM);
    bool sat = q->ctrl & FPU_CTRL_SAT;
    unsigned rm = (q->mode >> FPU_MODE_RM_SHIFT) & 3;
    static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    int saved = fegetround();
    for (unsigned l = 0; l < FPU_DF_LANES; l++) {
        if (!(q->mask >> l & 1))
            continue;
        uint64_t res = 0;
        bool flag = false;
        if (sty == FPU_T_D || sty == FPU_T_UD) {
            /* int -> DF: exact */
            int64_t v = read_i(q->src[0][l], sty, q->ctrl, 0);
            double d = (double)v;
            if (sat) d = d < 0 ? 0.0 : (d > 1 ? 1.0 : d);
            res = du_of(d);
            flag = cond_i(cm, v);       /* exact: the sign and zero of v; never .o */
        } else if (sty == FPU_T_F) {
            /* F -> DF: exact; a NaN comes out quietened (the host's widening) */
            uint32_t a = read_f(q->src[0][l], ftz_f, q->ctrl, 0);
            uint64_t d = du_of((double)f_of(a));
            if (is_nan(a))
                d = (uint64_t)(a >> 31) << 63 | 0x7ff8000000000000ull |
                    (uint64_t)(a & 0x003fffffu) << 29;
            flag = cond_d(cm, write_d(d, false, ftz_d));    /* exact: never .o */
            res = write_d(d, sat, ftz_d);
        } else {
            /* mov DF->DF keeps denormals as mov F->F does (004 L22970-22974) */
            uint64_t a = read_d(src64(q, 0, l), ftz_d && !(op == FPU_OP_MOV && dty == FPU_T_DF),
                                q->ctrl, 0);
            uint64_t b = read_d(src64(q, 1, l), ftz_d, q->ctrl, 1);
            uint64_t c = read_d(src64(q, 2, l), ftz_d, q->ctrl, 2);
            if (rm)
                fesetround(modes[rm]);
            switch (op) {
            case FPU_OP_ADD: case FPU_OP_MUL: case FPU_OP_MAD:
                res = arith_d(op, a, b, c);
                if (cm == FPU_CM_O)
                    flag = d_inf(write_d(res, false, ftz_d)) && !d_inf(a) && !d_inf(b) &&
                           !(op == FPU_OP_MAD && d_inf(c));
                else
                    flag = cond_d(cm, write_d(res, false, ftz_d));
                res = write_d(res, sat, ftz_d);
                break;
            case FPU_OP_SEL:
                if (cm == FPU_CM_L || cm == FPU_CM_GE)
                    res = minmax_d(cm == FPU_CM_L, a, b, q->mode & FPU_MODE_IEEE_MINMAX);
                else if (cm)
                    res = rel_d(cm, a, b) ? a : b;
                else
                    res = a;
                if (d_nan(res))
                    res = d_quiet(res);     /* sel quietens (L21820) */
                res = write_d(res, sat, ftz_d);
                break;
            case FPU_OP_CMP:
                flag = rel_d(cm, a, b);
                res = flag ? ~0ull : 0;
                break;
            default: /* MOV from DF */
                if (dty == FPU_T_DF) {
                    /* a raw move keeps an sNaN; modifiers or .sat make it an operation */
                    if (d_nan(a) && (q->ctrl & (FPU_CTRL_NEG(0) | FPU_CTRL_ABS(0) | FPU_CTRL_SAT)))
                        a = d_quiet(a);
                    flag = cm == FPU_CM_O ? false : cond_d(cm, a);
                    res = write_d(a, sat, false);
                } else if (dty == FPU_T_F) {
                    /* narrowing: rounded by cr0; a NaN keeps its top payload, quietened */
                    uint64_t s = a;
                    if (sat)
                        s = write_d(a, true, false);
                    uint32_t f = u_of((float)d_of(s));
                    if (d_nan(s))
                        f = (uint32_t)(s >> 63) << 31 | 0x7fc00000u |
                            (uint32_t)(s >> 29 & 0x003fffffu);
                    res = write_f(f, false, ftz_f);
                    if (cm) {
                        /* the flags see the conversion without .sat */
                        uint32_t g = u_of((float)d_of(a));
                        if (d_nan(a))
                            g = (uint32_t)(a >> 63) << 31 | 0x7fc00000u |
                                (uint32_t)(a >> 29 & 0x003fffffu);
                        g = write_f(g, false, ftz_f);
                        flag = cm == FPU_CM_O ? (g & 0x7fffffffu) == 0x7f800000u && !d_inf(a)
                                              : cond_f(cm, g);
                    }
                } else {
                    res = d_to_int(a, dty, q->mode & FPU_MODE_F2I_RM);
                    flag = cond_conv(cm, dty == FPU_T_D ? (int64_t)(int32_t)res : (int64_t)res,
                                     d_nan(a), f2i_of(d_of(a), dty, q->mode & FPU_MODE_F2I_RM));
                }
                break;
            }
            if (rm)
                fesetround(saved);
        }
        if (dty == FPU_T_DF) {
            r->result[2 * l] = (uint32_t)res;
            r->result[2 * l + 1] = (uint32_t)(res >> 32);
        } else {
            r->result[l] = (uint32_t)res;
        }
        if (flag && (cm || op == FPU_OP_CMP) && op != FPU_OP_SEL)
            r->flags |= 1u << l;
    }
    return true;
}

bool fpu_compute(const struct fpu_request *q, struct fpu_response *r)
{
    memset(r, 0, sizeof *r);
    unsigned op = q->op, cm = q->cond;
    unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
    if (op >= FPU_OP_COUNT || (q->mode & FPU_MODE_ALT) || q->reserved || q->pad ||
        (q->ctrl >> 13) || q->mask > 15 || cm > FPU_CM_U) {
        r->status = 1;
        return false;
    }
    if (op == FPU_OP_MOV ? (sty == FPU_T_DF || dty == FPU_T_DF) : (q->ctrl & FPU_CTRL_DF) != 0)
        return compute_df(q, r);
    bool ftz = !(q->mode & FPU_MODE_SP_DENORM);
    bool sat = q->ctrl & FPU_CTRL_SAT;
    unsigned rm = (q->mode >> FPU_MODE_RM_SHIFT) & 3;
    static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    int saved = fegetround();
    for (unsigned l = 0; l < FPU_LANES; l++) {
        if (!(q->mask >> l & 1))
            continue;
        uint32_t res = 0;
        bool flag = false;
        if (op == FPU_OP_MOV && sty != FPU_T_F) {
            int64_t v = read_i(q->src[0][l], sty, q->ctrl, 0);
            if (dty == FPU_T_F) {
                /* int -> F: rounded by cr0.0[5:4] (L21694-21700) */
                if (rm)
                    fesetround(modes[rm]);
                float f = (float)v;
                if (rm)
                    fesetround(saved);
                if (sat) f = f < 0 ? 0.0f : (f > 1 ? 1.0f : f);
                res = u_of(f);
                flag = cond_i(cm, v);       /* the sign and zero of v; never .o */
            } else {
                res = int_to_int(v, dty, sat);
                flag = cm == FPU_CM_O ? i_of(v, dty)
                                      : cond_i(cm, dty == FPU_T_D ? (int64_t)(int32_t)(uint32_t)v
                                                                  : (int64_t)(uint32_t)v);
            }
        } else {
            /* a mov F->F never flushes: raw, or with .sat / a source
             * modifier still keeping the denormal (004 L22970-22974) */
            bool same_type_move = op == FPU_OP_MOV && dty == FPU_T_F;
            uint32_t a = read_f(q->src[0][l], ftz && !same_type_move, q->ctrl, 0);
            uint32_t b = read_f(q->src[1][l], ftz, q->ctrl, 1);
            uint32_t c = read_f(q->src[2][l], ftz, q->ctrl, 2);
            if (rm)
                fesetround(modes[rm]);
            switch (op) {
            case FPU_OP_ADD: case FPU_OP_MUL: case FPU_OP_MAD:
                res = arith(op, a, b, c);
                if (cm == FPU_CM_O)
                    flag = (write_f(res, false, ftz) & 0x7fffffffu) == 0x7f800000u &&
                           (a & 0x7fffffffu) != 0x7f800000u && (b & 0x7fffffffu) != 0x7f800000u &&
                           !(op == FPU_OP_MAD && (c & 0x7fffffffu) == 0x7f800000u);
                else
                    flag = cond_f(cm, write_f(res, false, ftz));
                res = write_f(res, sat, ftz);
                break;
            case FPU_OP_SEL:
                if (cm == FPU_CM_L || cm == FPU_CM_GE)
                    res = minmax(cm == FPU_CM_L, a, b, q->mode & FPU_MODE_IEEE_MINMAX);
                else if (cm)
                    res = rel_f(cm, a, b) ? a : b;
                else
                    res = a;
                if (is_nan(res))
                    res = quiet(res);       /* sel quietens (L21820) */
                res = write_f(res, sat, ftz);
                break;
            case FPU_OP_CMP:
                flag = rel_f(cm, a, b);
                res = flag ? 0xffffffffu : 0;
                break;
            default: /* MOV from F */
                if (dty == FPU_T_F) {
                    /* a raw move keeps an sNaN; modifiers or .sat make it an operation */
                    if (is_nan(a) && (q->ctrl & (FPU_CTRL_NEG(0) | FPU_CTRL_ABS(0) | FPU_CTRL_SAT)))
                        a = quiet(a);
                    flag = cm == FPU_CM_O ? false : cond_f(cm, a);
                    res = write_f(a, sat, false);
                } else {
                    res = f_to_int(a, dty, q->mode & FPU_MODE_F2I_RM);
                    flag = cond_conv(cm, dty == FPU_T_D ? (int64_t)(int32_t)res : (int64_t)res,
                                     is_nan(a), f2i_of(f_of(a), dty, q->mode & FPU_MODE_F2I_RM));
                }
                break;
            }
            if (rm)
                fesetround(saved);
        }
        r->result[l] = res;
        if (flag && (cm || op == FPU_OP_CMP) && op != FPU_OP_SEL)
            r->flags |= 1u << l;
    }
    return true;
}

const char *fpu_op_name(unsigned op)
{
    static const char *const names[FPU_OP_COUNT] = { "ADD", "MUL", "MAD", "SEL", "CMP", "MOV" };
    return op < FPU_OP_COUNT ? names[op] : "?";
}

/* ---- the pipeline ------------------------------------------------------------ */

void fpu_engine_reset(struct fpu_engine *e)
{
    memset(e->st, 0, sizeof e->st);
    e->occupancy = 0;
}

const struct fpu_stage *fpu_engine_out(const struct fpu_engine *e)
{
    const struct fpu_stage *s = &e->st[e->depth - 1];
    return s->valid ? s : NULL;
}

bool fpu_engine_step(struct fpu_engine *e, bool out_taken, const struct fpu_request *q,
                     uint32_t tag)
{
    uint32_t d = e->depth;
    if (e->st[d - 1].valid && !out_taken)
        return false;
    if (e->st[d - 1].valid) {
        e->responses++;
        e->occupancy--;
    }
    for (uint32_t i = d - 1; i > 0; i--)
        e->st[i] = e->st[i - 1];
    e->st[0].valid = q != NULL;
    if (q) {
        e->st[0].tag = tag;
        if (fpu_compute(q, &e->st[0].r))
            e->lane_ops += (uint64_t)__builtin_popcount(q->mask & 15u);
        else
            e->bad_requests++;
        e->requests++;
        e->occupancy++;
    }
    return true;
}

/* ---- the unit ------------------------------------------------------------------ */

struct fpu {
    struct fpu_engine e;
    struct port *request, *response;
    bool stalled;
    uint64_t stall_from;
    uint64_t bad_kind;
};

static const struct param_desc fpu_params[] = {
    PARAM_U32_FIELD("depth", struct fpu, e.depth, 4, 1, FPU_MAX_DEPTH,
                    "pipeline stages: results leave depth cycles after the request is taken "
                    "(default: the EU's fpu_latency default)"),
    PARAM_END
};

static const struct port_desc fpu_ports[] = {
    { .name = "request", .direction = PORT_IN, .msg_kinds = 1u << MSG_GENERIC,
      .help = "one operation on 4 (DF: 2) lanes: struct fpu_request (op, cond, mask, ctrl, cr0, "
              "sources)" },
    { .name = "response", .direction = PORT_OUT, .msg_kinds = 1u << MSG_GENERIC,
      .help = "its results depth cycles later: struct fpu_response (results, flags, status)" },
    PORT_END
};

static const struct stat_desc fpu_stats[] = {
    STAT_COUNTER_FIELD("requests", struct fpu, e.requests, "messages", "operations issued"),
    STAT_COUNTER_FIELD("responses", struct fpu, e.responses, "messages", "results sent"),
    STAT_COUNTER_FIELD("lane_ops", struct fpu, e.lane_ops, "lanes", "enabled lanes computed"),
    STAT_COUNTER_FIELD("stall_cycles", struct fpu, e.stall_cycles, "cycles",
                       "cycles the pipe stood still: the response channel was full"),
    STAT_COUNTER_FIELD("bad_requests", struct fpu, e.bad_requests, "messages",
                       "requests refused (unknown op/type, ALT mode, MBZ fields, short payload)"),
    STAT_COUNTER_FIELD("bad_kind", struct fpu, bad_kind, "messages",
                       "requests of a message kind other than generic (dropped)"),
    STAT_END
};

static int fpu_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct fpu *s = unit_state(u);
    s->request = unit_port(u, "request", 0);
    s->response = unit_port(u, "response", 0);
    return 0;
}

static void fpu_reset(struct unit *u)
{
    struct fpu *s = unit_state(u);
    fpu_engine_reset(&s->e);
    s->stalled = false;
}

void fpu_request_from_payload(struct fpu_request *q, const void *payload, uint32_t size)
{
    memset(q, 0, sizeof *q);
    if (size < sizeof *q) {
        q->op = 0xff;
        return;
    }
    memcpy(q, payload, sizeof *q);
}

static enum unit_activity fpu_tick(struct unit *u)
{
    struct fpu *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    const struct fpu_stage *out = fpu_engine_out(&s->e);
    bool can = !out || port_can_send(s->response);
    if (!fpu_engine_moves(&s->e, can)) {
        if (!s->stalled) {
            s->stalled = true;
            s->stall_from = unit_cycle(u);
        }
        return UNIT_IDLE;                       /* woken when the channel frees up */
    }
    if (s->stalled) {
        s->e.stall_cycles += unit_cycle(u) - s->stall_from;
        s->stalled = false;
    }
    if (out) {
        struct msg *m = msg_alloc(sim, MSG_GENERIC, sizeof(struct fpu_response));
        memcpy(m->payload, &out->r, sizeof out->r);
        m->tag = out->tag;
        port_try_send(s->response, m);
    }
    struct msg *m;
    while ((m = port_pop(s->request)) && m->kind != MSG_GENERIC) {
        s->bad_kind++;
        unit_log(u, SIM_LOG_NOTE, "dropped a %s message on port request", msg_kind_name(m->kind));
        msg_free(sim, m);
    }
    struct fpu_request q;
    if (m)
        fpu_request_from_payload(&q, m->payload, m->size);
    fpu_engine_step(&s->e, out != NULL, m ? &q : NULL, m ? m->tag : 0);
    if (m)
        msg_free(sim, m);
    return s->e.occupancy || port_visible(s->request) ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops fpu_ops = {
    .kind = "fpu",
    .help = "The FPU pipe of one EU for four 32-bit or two DF lanes (seed 003 L19171, float "
            "rules L21377-22100): ADD, MUL, MAD (fused), SEL min/max, CMP, MOV F/D/UD/DF "
            "conversions, with cr0 rounding and denormal modes, saturate and source modifiers, "
            "as the EU executes them; one operation per cycle, results depth cycles later.",
    .state_size = sizeof(struct fpu),
    .params = fpu_params,
    .ports = fpu_ports,
    .stats = fpu_stats,
    .realize = fpu_realize,
    .reset = fpu_reset,
    .tick = fpu_tick,
};
