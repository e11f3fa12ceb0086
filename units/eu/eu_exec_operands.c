/* units/eu/eu_exec_operands.c - operands of EU instructions: types and
 * conversions, register regions, sources read into lanes, destinations written
 * with saturate, conditional modifiers, flags and the implicit accumulator,
 * predication (see eu_exec.h for the seed lines; eu_exec_internal.h for the
 * files). */
#include "units/eu/eu_exec_internal.h"

#include <float.h>
#include <math.h>

static uint64_t flags64(const struct eu_thread *t)
{
    return (uint64_t)eu_flag_get(t, 0) | (uint64_t)eu_flag_get(t, 1) << 32;
}

static void set_flags64(struct eu_thread *t, uint64_t f)
{
    eu_flag_set(t, 0, (uint32_t)f);
    eu_flag_set(t, 1, (uint32_t)(f >> 32));
}

/* ---- types ----------------------------------------------------------------- */

static int64_t int_min(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_B: return INT8_MIN;
    case EU_TYPE_W: return INT16_MIN;
    case EU_TYPE_D: return INT32_MIN;
    case EU_TYPE_Q: return INT64_MIN;
    default: return 0;
    }
}

static uint64_t int_max_u(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_B: return INT8_MAX;
    case EU_TYPE_UB: return UINT8_MAX;
    case EU_TYPE_W: return INT16_MAX;
    case EU_TYPE_UW: return UINT16_MAX;
    case EU_TYPE_D: return INT32_MAX;
    case EU_TYPE_UD: return UINT32_MAX;
    case EU_TYPE_Q: return INT64_MAX;
    default: return UINT64_MAX;
    }
}

/* Raw bits of an integer type -> int64 (sign or zero extension). */
int64_t exec_int_from_raw(unsigned ty, uint64_t raw)
{
    switch (ty) {
    case EU_TYPE_B: return (int8_t)raw;
    case EU_TYPE_UB: return (uint8_t)raw;
    case EU_TYPE_W: return (int16_t)raw;
    case EU_TYPE_UW: return (uint16_t)raw;
    case EU_TYPE_D: return (int32_t)raw;
    case EU_TYPE_UD: return (uint32_t)raw;
    default: return (int64_t)raw;
    }
}

/* binary16 <-> binary32 (IEEE 754; HF parameters 003 L21545-21553). */
static float half_to_float(uint16_t h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 0x400), (int)e - 25);
    if (e == 31 && m) {
        uint32_t bits = 0x7f800000u | (uint32_t)m << 13;
        memcpy(&v, &bits, 4);
    }
    return s ? -v : v;
}

uint16_t exec_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)                          /* inf / NaN (quiet, payload kept) */
        return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 | ((ax >> 13) & 0x3ff) : 0));
    /* Round to nearest even through double arithmetic: exact scaling. */
    double a = fabs((double)f);
    if (a >= 65520.0)
        return (uint16_t)(sign | 0x7c00);
    if (a < ldexp(1.0, -14)) {                      /* denormal range: units of 2^-24 */
        double q = nearbyint(a * 16777216.0);
        return (uint16_t)(sign | (uint16_t)q);
    }
    int e;
    double fr = frexp(a, &e);                       /* a = fr * 2^e, fr in [0.5,1) */
    double mant = nearbyint(fr * 2048.0);           /* 11 significant bits */
    if (mant >= 2048.0) {
        mant /= 2;
        e++;
    }
    unsigned he = (unsigned)(e - 1 + 15);
    if (he >= 31)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | he << 10 | ((unsigned)mant & 0x3ff));
}

/* VF: restricted 8-bit float, sign 7, exponent 6:4 bias 3, fraction 3:0 (003
 * L21345-21371); 0x00 = +0, 0x80 = -0. */
static float vf_to_float(unsigned b)
{
    unsigned e = (b >> 4) & 7, m = b & 15;
    float v = (b & 0x7f) == 0 ? 0.0f : ldexpf(1.0f + (float)m / 16.0f, (int)e - 3);
    return (b & 0x80) ? -v : v;
}

static float ftz32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static double ftz64(double d)
{
    return fpclassify(d) == FP_SUBNORMAL ? copysign(0.0, d) : d;
}

float exec_hf_value(const struct ctx *c, uint16_t h)
{
    if (c->ftz_hf && (h & 0x7c00) == 0)
        return (h & 0x8000) ? -0.0f : 0.0f;
    return half_to_float(h);
}

/* ---- register addressing ----------------------------------------------------- */

/* ARF register number (type in 7:4, number in 3:0) -> storage slot. */
static int arf_slot(unsigned nr)
{
    unsigned n = nr & 15;
    switch (nr >> 4) {
    case 0: return EU_ARF_NULL;
    case 1: return EU_ARF_A0;
    case 2: return n <= 9 ? EU_ARF_ACC0 + (int)n : -1;
    case 3: return n <= 1 ? EU_ARF_F0 + (int)n : -1;
    case 4: return EU_ARF_CE;
    case 6: return EU_ARF_SP;
    case 7: return EU_ARF_SR0;
    case 8: return EU_ARF_CR0;
    case 9: return EU_ARF_N0;
    case 10: return EU_ARF_IP;
    case 11: return EU_ARF_TDR0;
    case 12: return EU_ARF_TM0;
    default: return -1;
    }
}

static bool is_null(const struct eu_operand *op)
{
    return op->file == EU_FILE_ARF && (op->reg_nr >> 4) == 0;
}

static bool is_acc(const struct eu_operand *op)
{
    return op->file == EU_FILE_ARF && (op->reg_nr >> 4) == 2;
}

/* The storage an operand addresses and its size; NULL for an unknown ARF. */
static uint8_t *operand_space(struct eu_thread *t, const struct eu_operand *op, uint32_t *base,
                              uint32_t *limit)
{
    if (op->file == EU_FILE_ARF) {
        int s = arf_slot(op->reg_nr);
        if (s < 0)
            return NULL;
        *base = (uint32_t)s * EU_REG_BYTES + op->subreg_nr;
        *limit = EU_ARF_COUNT * EU_REG_BYTES;
        return &t->arf[0][0];
    }
    if (op->file == EU_FILE_MRF) {
        /* Gen4 message registers; reg_nr bit 7 is the COMPR4 flag (opcodes.txt
         * [register-file]) */
        *base = (uint32_t)(op->reg_nr & 15) * EU_REG_BYTES + op->subreg_nr;
        *limit = EU_MRF_COUNT * EU_REG_BYTES;
        return t->mrf;
    }
    *base = (uint32_t)op->reg_nr * EU_REG_BYTES + op->subreg_nr;
    *limit = EU_GRF_BYTES;
    return t->grf;
}

uint32_t exec_a0_word(const struct eu_thread *t, unsigned n)
{
    return (uint32_t)rd_le(t->arf[EU_ARF_A0] + 2 * (n & 15), 2);
}

/* Byte address of each channel's element (L20362-20380 for Align1; Align16
 * swizzles per 4-channel group; indirect through a0, L20308-20708). */
static void region_addrs(const struct ctx *c, const struct eu_operand *op, bool is_dst,
                         uint32_t base, uint32_t *addr)
{
    unsigned es = type_bytes(op->type);
    unsigned n = c->nch;
    const struct eu_thread *t = c->t;
    if (is_dst) {
        unsigned hs = c->in->access_mode ? 1 : (op->hstride ? op->hstride : 1);
        if (op->indirect)
            base = (exec_a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
        for (unsigned ch = 0; ch < n; ch++)
            addr[ch] = base + ch * hs * es;
        if (op->file == EU_FILE_MRF && (op->reg_nr & 0x80) && n == 16)
            for (unsigned ch = 8; ch < 16; ch++)   /* Gen4 COMPR4: the second half to m+4 */
                addr[ch] = base + 4 * EU_REG_BYTES + (ch - 8) * hs * es;
        return;
    }
    if (c->in->access_mode == 1 && !op->rep_ctrl) {
        if (op->indirect)
            base = (exec_a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
        for (unsigned ch = 0; ch < n; ch++)
            addr[ch] = base + (ch / 4) * op->vstride * es + op->swizzle[ch & 3] * es;
        return;
    }
    unsigned w = op->width ? op->width : 1;
    if (op->indirect && op->vstride == EU_VSTRIDE_VXH) {
        /* Vx1 (one a0 subregister per row) or VxH (Width 1: one per channel) */
        for (unsigned ch = 0; ch < n; ch++) {
            unsigned row = ch / w, col = ch % w;
            uint32_t rb = (exec_a0_word(t, op->addr_subreg_nr + row) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
            addr[ch] = rb + col * op->hstride * es;
        }
        return;
    }
    if (op->indirect)
        base = (exec_a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
    unsigned vs = op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride;
    for (unsigned ch = 0; ch < n; ch++)
        addr[ch] = base + (ch / w) * vs * es + (ch % w) * op->hstride * es;
}

/* ---- sources ------------------------------------------------------------------- */

enum kind exec_kind_of_type(unsigned ty)
{
    if (ty == EU_TYPE_DF)
        return K_DF;
    return type_is_float(ty) ? K_F : K_INT;
}

/* A float read as an integer lane (only mixed-type programming gets here):
 * saturating like the conversions of L21657-21693, never undefined. */
static int64_t sat_i64(double d)
{
    if (isnan(d))
        return 0;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    return (int64_t)d;
}

lane_t exec_to_kind(const struct ctx *c, unsigned ty, uint64_t raw, enum kind k)
{
    lane_t v;
    switch (ty) {
    case EU_TYPE_F: {
        float f;
        uint32_t r = (uint32_t)raw;
        memcpy(&f, &r, 4);
        if (c->ftz_f)
            f = ftz32(f);
        if (k == K_F) v.f = f;
        else if (k == K_DF) v.d = f;
        else v.i = sat_i64(f);
        return v;
    }
    case EU_TYPE_HF:
    case EU_TYPE_VF: {
        float f = ty == EU_TYPE_HF ? exec_hf_value(c, (uint16_t)raw) : vf_to_float((unsigned)raw & 0xff);
        if (k == K_F) v.f = f;
        else if (k == K_DF) v.d = f;
        else v.i = sat_i64(f);
        return v;
    }
    case EU_TYPE_DF: {
        double d;
        memcpy(&d, &raw, 8);
        if (c->ftz_df)
            d = ftz64(d);
        if (k == K_DF) v.d = d;
        else if (k == K_F) v.f = (float)d;
        else v.i = sat_i64(d);
        return v;
    }
    default: {
        int64_t i = exec_int_from_raw(ty, raw);
        if (k == K_INT) v.i = i;
        else if (k == K_F) v.f = (float)i;
        else v.d = (double)i;
        return v;
    }
    }
}

void exec_fault(struct ctx *c)
{
    c->t->counts.register_faults++;
}

/* Reads source op (index i of the instruction) as lanes of kind k, with its
 * source modifiers. logic: negate is a bitwise NOT (logic instructions). */
void exec_read_src(struct ctx *c, const struct eu_operand *op, enum kind k, lane_t *v, bool logic)
{
    unsigned n = c->nch;
    if (op->file == EU_FILE_IMM) {
        for (unsigned ch = 0; ch < n; ch++) {
            uint64_t raw = op->imm;
            unsigned ty = op->type;
            if (ty == EU_TYPE_V || ty == EU_TYPE_UV) {
                /* 8 x 4-bit, element ch % 8 (L21178-21376) */
                unsigned nib = (unsigned)(op->imm >> (4 * (ch & 7))) & 15;
                int64_t iv = ty == EU_TYPE_V ? (int64_t)nib - ((nib & 8) ? 16 : 0) : (int64_t)nib;
                v[ch] = exec_to_kind(c, EU_TYPE_Q, (uint64_t)iv, k);
                continue;
            }
            if (ty == EU_TYPE_VF)
                raw = (op->imm >> (8 * (ch & 3))) & 0xff;
            v[ch] = exec_to_kind(c, ty, raw, k);
        }
    } else {
        uint32_t base, limit, addr[EU_MAX_CHANNELS];
        uint8_t *space = operand_space(c->t, op, &base, &limit);
        if (op->file == EU_FILE_ARF) {
            /* live ARF values */
            struct eu_thread *t = c->t;
            wr_le(t->arf[EU_ARF_IP], 4, t->ip);
            wr_le(t->arf[EU_ARF_TM0], 8, c->cycle);
            wr_le(t->arf[EU_ARF_CE], 4, c->en << c->off);
        }
        unsigned es = type_bytes(op->type);
        if (!space || is_null(op)) {
            for (unsigned ch = 0; ch < n; ch++)
                v[ch] = exec_to_kind(c, op->type, 0, k);
        } else {
            region_addrs(c, op, false, base, addr);
            for (unsigned ch = 0; ch < n; ch++) {
                uint64_t raw = 0;
                if (addr[ch] + es <= limit)
                    raw = rd_le(space + addr[ch], es);
                else
                    exec_fault(c);
                v[ch] = exec_to_kind(c, op->type, raw, k);
            }
        }
    }
    if (op->abs || op->negate) {
        for (unsigned ch = 0; ch < n; ch++) {
            if (k == K_INT) {
                if (logic) {
                    if (op->negate)
                        v[ch].i = ~v[ch].i;
                    continue;
                }
                if (op->abs && v[ch].i < 0)
                    v[ch].u = 0 - v[ch].u;
                if (op->negate)
                    v[ch].u = 0 - v[ch].u;
            } else if (k == K_F) {
                if (op->abs) v[ch].f = fabsf(v[ch].f);
                if (op->negate) v[ch].f = -v[ch].f;
            } else {
                if (op->abs) v[ch].d = fabs(v[ch].d);
                if (op->negate) v[ch].d = -v[ch].d;
            }
        }
    }
}

/* ---- destination ------------------------------------------------------------- */

/* Float -> integer type: RTZ unless cr0.0[12]; NaN -> 0, out of range
 * saturates (L21657-21693, L22066-22076). */
static uint64_t float_to_int_raw(const struct ctx *c, double d, unsigned ty)
{
    if (isnan(d))
        return 0;
    d = c->f2i_round ? nearbyint(d) : trunc(d);
    int64_t lo = int_min(ty);
    uint64_t hi = int_max_u(ty);
    if (d <= (double)lo)
        return (uint64_t)lo;
    if (d >= (double)hi)
        return hi;
    if (type_is_signed(ty))
        return (uint64_t)(int64_t)d;
    return (uint64_t)d;
}

static uint64_t int_to_type_raw(int64_t i, unsigned ty, bool sat)
{
    if (sat) {
        if (type_is_signed(ty)) {
            if (i < int_min(ty)) return (uint64_t)int_min(ty);
            if (i > (int64_t)int_max_u(ty)) return int_max_u(ty);
        } else {
            if (i < 0) return 0;
            if (ty != EU_TYPE_UQ && (uint64_t)i > int_max_u(ty)) return int_max_u(ty);
        }
    }
    return (uint64_t)i;
}

/* A lane of kind k as the destination type's raw bits. */
static uint64_t lane_to_raw(const struct ctx *c, lane_t v, enum kind k, unsigned ty, bool sat)
{
    if (k == K_INT) {
        switch (ty) {
        case EU_TYPE_F: {
            float f = (float)v.i;
            if (sat) f = f < 0 ? 0.0f : (f > 1 ? 1.0f : f);
            uint32_t r; memcpy(&r, &f, 4); return r;
        }
        case EU_TYPE_DF: {
            double d = (double)v.i;
            if (sat) d = d < 0 ? 0.0 : (d > 1 ? 1.0 : d);
            uint64_t r; memcpy(&r, &d, 8); return r;
        }
        case EU_TYPE_HF: {
            float f = (float)v.i;
            if (sat) f = f < 0 ? 0.0f : (f > 1 ? 1.0f : f);
            return exec_float_to_half(f);
        }
        default:
            return int_to_type_raw(v.i, ty, sat);
        }
    }
    double d = k == K_F ? (double)v.f : v.d;
    if (!type_is_float(ty))
        return float_to_int_raw(c, d, ty);
    if (sat) {
        /* .sat clamps to [0.0, 1.0]; NaN -> 0 */
        if (isnan(d) || d < 0) d = 0;
        else if (d > 1) d = 1;
        if (k == K_F) v.f = (float)d; else v.d = d;
    }
    switch (ty) {
    case EU_TYPE_F: {
        float f = k == K_F ? v.f : (float)v.d;
        if (c->alt && isinf(f))
            f = copysignf(FLT_MAX, f);  /* ALT: +/-INF results become +/-fmax (L21473-21511) */
        if (c->ftz_f) f = ftz32(f);
        uint32_t r; memcpy(&r, &f, 4);
        if (c->quiet && isnan(f)) r |= 0x00400000u;
        return r;
    }
    case EU_TYPE_DF: {
        double o = k == K_F ? (double)v.f : v.d;
        if (c->ftz_df) o = ftz64(o);
        uint64_t r; memcpy(&r, &o, 8);
        if (c->quiet && isnan(o)) r |= UINT64_C(0x0008000000000000);
        return r;
    }
    default: {
        uint16_t h = exec_float_to_half(k == K_F ? v.f : (float)v.d);
        if (c->ftz_hf && (h & 0x7c00) == 0)
            h &= 0x8000;
        if (c->quiet && (h & 0x7fff) > 0x7c00) h |= 0x0200;
        return h;
    }
    }
}

/* Gen4 has no AccWrCtrl bit (native-fields.txt acc_wr_control: reserved on
 * gen4): the arithmetic instructions (opcode groups 100xxxx and 101xxxx, 003
 * L23013) write the accumulator implicitly. Mesa's Gen4 code relies on it
 * (line then mac, the g965_tri fragment kernel); which opcodes exactly is
 * inferred, the Gen4 EU volume not being a seed. */
static bool gen4_implicit_acc(unsigned op)
{
    return op >= EU_OPCODE_ADD && op <= 95;
}

/* Post-operation condition (L20864-20895): post_sign and post_zero are taken
 * "after all the clamping, normalizing, or format conversion logic", i.e. on
 * the value the destination holds (converted to its type, denormals flushed)
 * but before .sat ("the bits generated at the output of a compute are before
 * the .sat"). NC is the computed result's NaN-ness (a NaN converted to an
 * integer type writes 0 but still forces the flag false). .o (OF, L20890):
 * the result is outside the destination type's range: an integer result that
 * does not fit (D/UD/W/UW/B/UB; 64-bit results never flag), a float result
 * that went to +/-inf from finite sources, a float -> integer conversion out
 * of range (inf included). */
static bool cond_post(const struct ctx *c, unsigned cm, lane_t v, enum kind k, unsigned dty,
                      unsigned ch)
{
    bool nan = false, zero, sign, of = false;
    if (k != K_INT)
        nan = isnan(k == K_F ? (double)v.f : v.d);
    uint64_t raw = lane_to_raw(c, v, k, dty, false);
    if (type_is_float(dty)) {
        bool inf;
        if (dty == EU_TYPE_DF) {
            zero = (raw << 1) == 0;
            inf = (raw << 1) == UINT64_C(0xffe0000000000000);
            sign = raw >> 63;
        } else if (dty == EU_TYPE_HF) {
            zero = (raw & 0x7fff) == 0;
            inf = (raw & 0x7fff) == 0x7c00;
            sign = raw >> 15 & 1;
        } else {
            zero = (raw & 0x7fffffffu) == 0;
            inf = (raw & 0x7fffffffu) == 0x7f800000u;
            sign = raw >> 31 & 1;
        }
        sign = sign && !zero;
        of = inf && !(c->src_inf >> ch & 1);
    } else {
        int64_t x = exec_int_from_raw(dty, raw);
        zero = x == 0;
        sign = x < 0;
        if (cm == EU_COND_MOD_O && k == K_INT) {
            of = type_bytes(dty) < 8 && (v.i < int_min(dty) || v.i > (int64_t)int_max_u(dty));
        } else if (cm == EU_COND_MOD_O && !nan) {
            double d = k == K_F ? (double)v.f : v.d;
            d = c->f2i_round ? nearbyint(d) : trunc(d);
            double hi = (double)int_max_u(dty);
            of = d < (double)int_min(dty) || (type_bytes(dty) == 8 ? d >= hi : d > hi);
        }
    }
    switch (cm) {
    case EU_COND_MOD_Z: return zero && !nan;
    case EU_COND_MOD_NZ: return !(zero && !nan);
    case EU_COND_MOD_G: return !sign && !zero && !nan;
    case EU_COND_MOD_GE: return (!sign || zero) && !nan;
    case EU_COND_MOD_L: return sign && !zero && !nan;
    case EU_COND_MOD_LE: return (sign || zero) && !nan;
    case EU_COND_MOD_O: return of;
    case EU_COND_MOD_U: return nan;
    default: return false;
    }
}

/* Writes the result lanes to the destination for the enabled channels,
 * updating flags (cond) and the implicit accumulator. */
void exec_write_dst(struct ctx *c, const lane_t *r, enum kind k, const bool *cond_val,
                      bool set_flags)
{
    const struct eu_instruction *in = c->in;
    const struct eu_operand *d = &in->dst;
    struct eu_thread *t = c->t;
    unsigned n = c->nch;
    uint32_t en = c->en;
    if (set_flags && in->cond_modifier && in->opcode != EU_OPCODE_SEL) {
        uint64_t f = flags64(t);
        unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u + c->off;
        for (unsigned ch = 0; ch < n; ch++) {
            if (!(en >> ch & 1) || fb + ch >= 64)
                continue;
            bool b = cond_val ? cond_val[ch] : cond_post(c, in->cond_modifier, r[ch], k, d->type, ch);
            if (b) f |= UINT64_C(1) << (fb + ch);
            else f &= ~(UINT64_C(1) << (fb + ch));
        }
        set_flags64(t, f);
    }
    if ((in->acc_wr_control || (in->gen == 4 && gen4_implicit_acc(in->opcode))) && !is_acc(d)) {
        /* implicit accumulator update (L19606-19766) */
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        for (unsigned ch = 0; ch < n; ch++) {
            if (!(en >> ch & 1))
                continue;
            if (k == K_INT) {
                t->acc_wide[ch] = r[ch].i;
                wr_le(acc + 4 * ch, 4, (uint32_t)r[ch].u);
            } else if (k == K_F) {
                if (4 * ch + 4 <= 2 * EU_REG_BYTES) memcpy(acc + 4 * ch, &r[ch].f, 4);
            } else if (8 * ch + 8 <= 2 * EU_REG_BYTES) {
                memcpy(acc + 8 * ch, &r[ch].d, 8);
            }
        }
    }
    if (is_null(d) && !d->indirect)
        return;
    uint32_t base, limit, addr[EU_MAX_CHANNELS];
    uint8_t *space = operand_space(t, d, &base, &limit);
    if (!space) {
        exec_fault(c);
        return;
    }
    region_addrs(c, d, true, base, addr);
    unsigned es = type_bytes(d->type);
    bool align16 = in->access_mode == 1;
    for (unsigned ch = 0; ch < n; ch++) {
        if (!(en >> ch & 1))
            continue;
        if (align16 && !(d->writemask >> (ch & 3) & 1))
            continue;
        if (addr[ch] + es > limit) {
            exec_fault(c);
            continue;
        }
        uint64_t raw = lane_to_raw(c, r[ch], k, d->type, in->saturate);
        wr_le(space + addr[ch], es, raw);
        if (is_acc(d) && k == K_INT && ch < EU_MAX_CHANNELS)
            /* D/UD: the accumulator keeps 64 bits (the full D x W product
             * of a mul, 004 L23100; 003 L19692-19702) */
            t->acc_wide[ch] = type_bytes(d->type) == 4 ? r[ch].i : exec_int_from_raw(d->type, raw);
    }
}

/* Flags from per-channel conditions (cmp/cmpn pre-conditions, L20872-20895):
 * only enabled channels' bits change (L19768-19817). */
void exec_update_flags(struct ctx *c, const bool *cv)
{
    const struct eu_instruction *in = c->in;
    if (!in->cond_modifier)
        return;
    uint64_t f = flags64(c->t);
    unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u + c->off;
    for (unsigned ch = 0; ch < c->nch; ch++) {
        if (!(c->en >> ch & 1) || fb + ch >= 64)
            continue;
        if (cv[ch]) f |= UINT64_C(1) << (fb + ch);
        else f &= ~(UINT64_C(1) << (fb + ch));
    }
    set_flags64(c->t, f);
}

/* Raw-bits write for results that are bit patterns already (cmp's all-ones). */
void exec_write_dst_bits(struct ctx *c, const uint64_t *bits)
{
    lane_t r[EU_MAX_CHANNELS];
    for (unsigned ch = 0; ch < c->nch; ch++)
        r[ch].u = bits[ch];
    /* as an integer kind: int_to_type_raw truncates to the destination width */
    const struct eu_operand *d = &c->in->dst;
    struct eu_thread *t = c->t;
    if (is_null(d))
        return;
    uint32_t base, limit, addr[EU_MAX_CHANNELS];
    uint8_t *space = operand_space(t, d, &base, &limit);
    if (!space)
        return;
    region_addrs(c, d, true, base, addr);
    unsigned es = type_bytes(d->type);
    for (unsigned ch = 0; ch < c->nch; ch++) {
        if (!(c->en >> ch & 1))
            continue;
        if (c->in->access_mode == 1 && !(d->writemask >> (ch & 3) & 1))
            continue;
        if (addr[ch] + es > limit) {
            exec_fault(c);
            continue;
        }
        wr_le(space + addr[ch], es, r[ch].u);
    }
}

/* ---- predication and masks -------------------------------------------------------- */

/* PMask for the instruction's channels (L20752-20836), relative to off. */
uint32_t exec_pred_mask(const struct ctx *c)
{
    const struct eu_instruction *in = c->in;
    uint64_t f = flags64(c->t);
    unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u;
    unsigned n = c->nch;
    uint32_t seq = (uint32_t)(f >> ((fb + c->off) & 63));
    uint32_t m = 0;
    unsigned pc = in->pred_control;
    if (pc == 1) {
        m = seq;
    } else if (in->access_mode == 1) {
        /* Align16: .x .y .z .w replicate; any4h / all4h */
        for (unsigned g = 0; g < n; g += 4) {
            unsigned q = (seq >> g) & 15, b;
            switch (pc) {
            case 2: case 3: case 4: case 5: b = (q >> (pc - 2)) & 1; break;
            case 6: b = q != 0; break;
            case 7: b = q == 15; break;
            default: b = 0; break;
            }
            if (b) m |= 15u << g;
        }
    } else if (pc == 2 || pc == 3) {
        /* anyv / allv: f0 vs f1 channel by channel (32-channel form) */
        uint32_t a = (uint32_t)(f >> c->off), b = (uint32_t)(f >> (32 + c->off));
        m = pc == 2 ? (a | b) : (a & b);
    } else if (pc >= 4 && pc <= 13) {
        unsigned group = 2u << ((pc - 4) / 2);      /* 2, 4, 8, 16, 32 */
        bool any = (pc & 1) == 0;
        for (unsigned g = 0; g < n; g += group) {
            uint32_t gm = group >= 32 ? ~0u : ((1u << group) - 1);
            uint32_t q = (seq >> g) & gm;
            bool b = any ? q != 0 : q == gm;
            if (b) m |= gm << g;
        }
    }
    if (in->pred_inv)
        m = ~m;
    return m;
}
