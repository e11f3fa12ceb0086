/* units/eu/eu_fast.c - the fast path of units/eu/eu_exec.h (struct eu_fast):
 * mov/add/mul/mad on F with direct contiguous or scalar operands, executed
 * with the same results as eu_exec (IEEE single precision, RTNE, cr0.0[7]
 * denormal flushing of sources and results, L20019-20065). Kept apart from
 * eu_exec.c, which is compiled for dynamic rounding modes; this path only runs
 * when cr0 selects RTNE. */
#include "units/eu/eu_exec.h"

#include <math.h>
#include <string.h>

enum { OP_MOV = 1, OP_AND = 5, OP_OR = 6, OP_XOR = 7, OP_CMP = 16, OP_ADD = 64, OP_MUL = 65,
       OP_MAD = 91 };
enum { CM_Z = 1, CM_NZ, CM_G, CM_GE, CM_L, CM_LE };

static uint32_t chan_bits(unsigned n)
{
    return n >= 32 ? ~0u : ((1u << n) - 1);
}


static bool fast_src_ok(const struct eu_instruction *in, const struct eu_operand *o, unsigned i,
                        struct eu_fast *f)
{
    bool ok_type = f->integer ? (o->type == EU_TYPE_D || o->type == EU_TYPE_UD) : o->type == EU_TYPE_F;
    if (!ok_type || o->abs || o->negate)
        return false;
    if (o->type == EU_TYPE_D)
        f->sign |= (uint8_t)(1u << i);
    if (o->file == EU_FILE_IMM) {
        f->scalar |= (uint8_t)(1u << i);
        f->immediate |= (uint8_t)(1u << i);
        f->imm[i] = (uint32_t)o->imm;
        return true;
    }
    if (o->file != EU_FILE_GRF || o->indirect)
        return false;
    uint32_t base = o->reg_nr * 32u + o->subreg_nr;
    bool scalar, contiguous;
    if (in->access_mode == 1 && !o->rep_ctrl) {
        bool ident = o->swizzle[0] == 0 && o->swizzle[1] == 1 && o->swizzle[2] == 2 && o->swizzle[3] == 3;
        scalar = false;
        contiguous = ident && (o->vstride == 4 || in->exec_size <= 4);
    } else if (in->access_mode == 1) {
        scalar = true;
        contiguous = false;
    } else {
        scalar = o->vstride == 0 && o->hstride == 0 && o->width == 1;
        contiguous = o->hstride == 1 && (o->vstride == o->width || in->exec_size <= o->width) &&
                     o->vstride != EU_VSTRIDE_VXH;
    }
    if (!scalar && !contiguous)
        return false;
    if (base + (scalar ? 4u : in->exec_size * 4u) > EU_GRF_BYTES)
        return false;
    if (scalar)
        f->scalar |= (uint8_t)(1u << i);
    f->src[i] = (uint16_t)base;
    return true;
}

void eu_fast_prepare(const struct eu_instruction *in, struct eu_fast *f)
{
    memset(f, 0, sizeof *f);
    unsigned op = in->opcode;
    if (in->illegal || in->gen < 7 || in->saturate || in->pred_control || in->acc_wr_control ||
        in->exec_size < 4 || (in->cond_modifier && op != OP_CMP))
        return;
    const struct eu_operand *d = &in->dst;
    bool integer = in->src[0].type == EU_TYPE_D || in->src[0].type == EU_TYPE_UD;
    unsigned ns;
    switch (op) {
    case OP_MOV: ns = 1; break;
    case OP_ADD: case OP_MUL: ns = 2; break;
    case OP_AND: case OP_OR: case OP_XOR: ns = integer ? 2 : 0; break;
    case OP_MAD: ns = integer ? 0 : 3; break;
    case OP_CMP: ns = in->cond_modifier >= CM_Z && in->cond_modifier <= CM_LE ? 2 : 0; break;
    default: ns = 0; break;
    }
    if (!ns || (ns == 3) != in->is_3src)
        return;
    f->integer = integer;
    bool null_dst = d->file == EU_FILE_ARF && (d->reg_nr >> 4) == 0 && !d->indirect;
    if (op == OP_CMP && null_dst) {
        f->dst_null = true;
    } else {
        bool dtype = integer ? (d->type == EU_TYPE_D || d->type == EU_TYPE_UD) : d->type == EU_TYPE_F;
        if (d->file != EU_FILE_GRF || d->indirect || !dtype)
            return;
        if (in->access_mode == 1 ? d->writemask != 15 : d->hstride != 1)
            return;
        uint32_t dbase = d->reg_nr * 32u + d->subreg_nr;
        if (dbase + in->exec_size * 4u > EU_GRF_BYTES)
            return;
        f->dst = (uint16_t)dbase;
    }
    for (unsigned i = 0; i < ns; i++)
        if (!fast_src_ok(in, &in->src[i], i, f)) {
            memset(f, 0, sizeof *f);
            return;
        }
    f->cond = in->cond_modifier;
    f->flag_bit = (uint8_t)(in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u);
    f->nch = in->exec_size;
    f->nsrc = (uint8_t)ns;
    f->off = (uint8_t)((in->qtr_control * 8u + in->nib_control * 4u) & 31);
    f->nomask = in->mask_control != 0;
    f->size = (uint8_t)in->size;
    f->op = (uint8_t)op;
}

static inline __attribute__((always_inline)) void
fast_load(const struct eu_thread *t, const struct eu_fast *f, unsigned i, float *v, unsigned n)
{
    if (f->scalar >> i & 1) {
        uint32_t b;
        if (f->immediate >> i & 1)
            b = f->imm[i];
        else
            memcpy(&b, t->grf + f->src[i], 4);
        float x;
        memcpy(&x, &b, 4);
        for (unsigned ch = 0; ch < n; ch++)
            v[ch] = x;
    } else {
        memcpy(v, t->grf + f->src[i], n * 4u);
    }
}

/* Fused multiply-add per channel. On x86-64 hosts with FMA the loop uses the
 * instruction directly (same IEEE result as fmaf, without a call per channel). */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void mad_fma(float *r, const float *a, const float *b,
                                                  const float *c, unsigned n)
{
    for (unsigned ch = 0; ch < n; ch++)
        r[ch] = __builtin_fmaf(b[ch], c[ch], a[ch]);
}
#endif

static void mad_loop(float *r, const float *a, const float *b, const float *c, unsigned n)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("fma")) {
        mad_fma(r, a, b, c, n);
        return;
    }
#endif
    for (unsigned ch = 0; ch < n; ch++)
        r[ch] = fmaf(b[ch], c[ch], a[ch]);
}

static inline void store(struct eu_thread *t, const struct eu_fast *f, const void *r, unsigned n,
                         uint32_t en)
{
    uint8_t *dst = t->grf + f->dst;
    if (en == chan_bits(n)) {
        memcpy(dst, r, n * 4u);
    } else {
        for (unsigned ch = 0; ch < n; ch++)
            if (en >> ch & 1)
                memcpy(dst + 4 * ch, (const uint8_t *)r + 4 * ch, 4);
    }
}

static inline __attribute__((always_inline)) float ftzf(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    b = (b & 0x7f800000u) ? b : (b & 0x80000000u);
    memcpy(&x, &b, 4);
    return x;
}

/* n is a constant at each call site, so the copies and loops are fixed-size
 * and each operation is one pass over the channels. */
static inline __attribute__((always_inline)) void
fast_body(struct eu_thread *t, const struct eu_fast *f, unsigned n, bool ftz, uint32_t en)
{
    float a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS], c[EU_MAX_CHANNELS], r[EU_MAX_CHANNELS];
    fast_load(t, f, 0, a, n);
    if (f->nsrc > 1) fast_load(t, f, 1, b, n);
    if (f->nsrc > 2) fast_load(t, f, 2, c, n);
    if (ftz) {
        switch (f->op) {
        case OP_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = ftzf(a[ch]); break;
        case OP_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = ftzf(ftzf(a[ch]) + ftzf(b[ch])); break;
        case OP_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = ftzf(ftzf(a[ch]) * ftzf(b[ch])); break;
        default:
            for (unsigned ch = 0; ch < n; ch++) {
                a[ch] = ftzf(a[ch]);
                b[ch] = ftzf(b[ch]);
                c[ch] = ftzf(c[ch]);
            }
            mad_loop(r, a, b, c, n);
            for (unsigned ch = 0; ch < n; ch++)
                r[ch] = ftzf(r[ch]);
            break;
        }
    } else {
        switch (f->op) {
        case OP_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;
        case OP_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] + b[ch]; break;
        case OP_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] * b[ch]; break;
        default: mad_loop(r, a, b, c, n); break;
        }
    }
    store(t, f, r, n, en);
}

static inline __attribute__((always_inline)) void
int_load(const struct eu_thread *t, const struct eu_fast *f, unsigned i, uint32_t *v, unsigned n)
{
    if (f->scalar >> i & 1) {
        uint32_t b;
        if (f->immediate >> i & 1)
            b = f->imm[i];
        else
            memcpy(&b, t->grf + f->src[i], 4);
        for (unsigned ch = 0; ch < n; ch++)
            v[ch] = b;
    } else {
        memcpy(v, t->grf + f->src[i], n * 4u);
    }
}

static inline bool rel(unsigned cm, bool lt, bool eq, bool gt)
{
    switch (cm) {
    case CM_Z: return eq;
    case CM_NZ: return !eq;
    case CM_G: return gt;
    case CM_GE: return gt || eq;
    case CM_L: return lt;
    default: return lt || eq;
    }
}

/* cmp: the flag bits of enabled channels, and all ones / zero in the
 * destination (L20872-20895); NaN is unordered: only .ne holds. */
static void fast_cmp(struct eu_thread *t, const struct eu_fast *f, unsigned n, bool ftz, uint32_t en)
{
    uint32_t res = 0;
    if (f->integer) {
        uint32_t a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS];
        int_load(t, f, 0, a, n);
        int_load(t, f, 1, b, n);
        for (unsigned ch = 0; ch < n; ch++) {
            int64_t x = (f->sign & 1) ? (int64_t)(int32_t)a[ch] : (int64_t)a[ch];
            int64_t y = (f->sign & 2) ? (int64_t)(int32_t)b[ch] : (int64_t)b[ch];
            res |= (uint32_t)rel(f->cond, x < y, x == y, x > y) << ch;
        }
    } else {
        float a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS];
        fast_load(t, f, 0, a, n);
        fast_load(t, f, 1, b, n);
        for (unsigned ch = 0; ch < n; ch++) {
            float x = ftz ? ftzf(a[ch]) : a[ch], y = ftz ? ftzf(b[ch]) : b[ch];
            res |= (uint32_t)rel(f->cond, x < y, x == y, x > y) << ch;
        }
    }
    uint64_t flags;
    uint32_t lo, hi;
    memcpy(&lo, t->arf[EU_ARF_F0], 4);
    memcpy(&hi, t->arf[EU_ARF_F1], 4);
    flags = (uint64_t)lo | (uint64_t)hi << 32;
    unsigned base = f->flag_bit + f->off;
    for (unsigned ch = 0; ch < n && base + ch < 64; ch++)
        if (en >> ch & 1) {
            uint64_t bit = UINT64_C(1) << (base + ch);
            flags = (res >> ch & 1) ? (flags | bit) : (flags & ~bit);
        }
    lo = (uint32_t)flags;
    hi = (uint32_t)(flags >> 32);
    memcpy(t->arf[EU_ARF_F0], &lo, 4);
    memcpy(t->arf[EU_ARF_F1], &hi, 4);
    if (!f->dst_null) {
        uint32_t r[EU_MAX_CHANNELS];
        for (unsigned ch = 0; ch < n; ch++)
            r[ch] = (res >> ch & 1) ? 0xffffffffu : 0;
        store(t, f, r, n, en);
    }
}

static inline __attribute__((always_inline)) void
int_body(struct eu_thread *t, const struct eu_fast *f, unsigned n, uint32_t en)
{
    uint32_t a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS], r[EU_MAX_CHANNELS];
    int_load(t, f, 0, a, n);
    if (f->nsrc > 1) int_load(t, f, 1, b, n);
    switch (f->op) {
    case OP_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;
    case OP_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] + b[ch]; break;
    case OP_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] * b[ch]; break;
    case OP_AND: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] & b[ch]; break;
    case OP_OR: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] | b[ch]; break;
    default: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] ^ b[ch]; break;
    }
    store(t, f, r, n, en);
}

bool eu_exec_fast(struct eu_thread *t, const struct eu_fast *f)
{
    uint32_t crv;
    memcpy(&crv, t->arf[EU_ARF_CR0], 4);
    if (((crv >> 4) & 3) || (crv & 1))
        return false;                   /* directed rounding or ALT mode: the general path */
    bool ftz = !(crv >> 7 & 1);
    unsigned n = f->nch;
    uint32_t bits = chan_bits(n);
    uint32_t en = f->nomask ? bits : (t->amask >> f->off) & bits;
    if (f->op == OP_CMP) {
        fast_cmp(t, f, n, ftz, en);
    } else if (f->integer) {
        switch (n) {
        case 8: int_body(t, f, 8, en); break;
        case 16: int_body(t, f, 16, en); break;
        default: int_body(t, f, n, en); break;
        }
    } else {
        switch (n) {
        case 8: fast_body(t, f, 8, ftz, en); break;
        case 16: fast_body(t, f, 16, ftz, en); break;
        case 4: fast_body(t, f, 4, ftz, en); break;
        default: fast_body(t, f, 32, ftz, en); break;
        }
    }
    t->counts.instructions++;
    t->ip += f->size;
    if (t->wmask)
        eu_rejoin(t);
    return true;
}
