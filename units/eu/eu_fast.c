/* units/eu/eu_fast.c - the fast path of units/eu/eu_exec.h (struct eu_fast):
 * mov/add/mul/mad on F with direct contiguous or scalar operands, executed
 * with the same results as eu_exec (IEEE single precision, RTNE, cr0.0[7]
 * denormal flushing of sources and results, L20019-20065). Kept apart from
 * eu_exec.c, which is compiled for dynamic rounding modes; this path only runs
 * when cr0 selects RTNE. */
#include "units/eu/eu_exec.h"

#include <math.h>
#include <string.h>

enum { OP_MOV = 1, OP_ADD = 64, OP_MUL = 65, OP_MAD = 91 };

static uint32_t chan_bits(unsigned n)
{
    return n >= 32 ? ~0u : ((1u << n) - 1);
}


static bool fast_src_ok(const struct eu_instruction *in, const struct eu_operand *o, unsigned i,
                        struct eu_fast *f)
{
    if (o->type != EU_TYPE_F || o->abs || o->negate)
        return false;
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
    if (in->illegal || in->gen < 7 || in->saturate || in->cond_modifier || in->pred_control ||
        in->acc_wr_control)
        return;
    unsigned op = in->opcode;
    unsigned ns = op == OP_MOV ? 1 : op == OP_MAD ? 3 : (op == OP_ADD || op == OP_MUL) ? 2 : 0;
    if (!ns || (ns == 3) != in->is_3src || in->exec_size < 4)
        return;
    const struct eu_operand *d = &in->dst;
    if (d->file != EU_FILE_GRF || d->indirect || d->type != EU_TYPE_F)
        return;
    if (in->access_mode == 1 ? d->writemask != 15 : d->hstride != 1)
        return;
    uint32_t dbase = d->reg_nr * 32u + d->subreg_nr;
    if (dbase + in->exec_size * 4u > EU_GRF_BYTES)
        return;
    for (unsigned i = 0; i < ns; i++)
        if (!fast_src_ok(in, &in->src[i], i, f)) {
            memset(f, 0, sizeof *f);
            return;
        }
    f->dst = (uint16_t)dbase;
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

static inline __attribute__((always_inline)) void flush_denorms(float *v, unsigned n)
{
    uint32_t b[EU_MAX_CHANNELS];
    memcpy(b, v, n * 4u);
    for (unsigned ch = 0; ch < n; ch++)
        b[ch] = (b[ch] & 0x7f800000u) ? b[ch] : (b[ch] & 0x80000000u);
    memcpy(v, b, n * 4u);
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

/* n is a constant at each call site, so the copies and loops are fixed-size. */
static inline __attribute__((always_inline)) void
fast_body(struct eu_thread *t, const struct eu_fast *f, unsigned n, bool ftz, uint32_t en)
{
    float a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS], c[EU_MAX_CHANNELS], r[EU_MAX_CHANNELS];
    fast_load(t, f, 0, a, n);
    if (f->nsrc > 1) fast_load(t, f, 1, b, n);
    if (f->nsrc > 2) fast_load(t, f, 2, c, n);
    if (ftz) {
        flush_denorms(a, n);
        if (f->nsrc > 1) flush_denorms(b, n);
        if (f->nsrc > 2) flush_denorms(c, n);
    }
    switch (f->op) {
    case OP_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;
    case OP_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] + b[ch]; break;
    case OP_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] * b[ch]; break;
    default: mad_loop(r, a, b, c, n); break;
    }
    if (ftz)
        flush_denorms(r, n);
    uint8_t *dst = t->grf + f->dst;
    if (en == chan_bits(n)) {
        memcpy(dst, r, n * 4u);
    } else {
        for (unsigned ch = 0; ch < n; ch++)
            if (en >> ch & 1)
                memcpy(dst + 4 * ch, &r[ch], 4);
    }
}

bool eu_exec_fast(struct eu_thread *t, const struct eu_fast *f)
{
    uint32_t crv;
    memcpy(&crv, t->arf[EU_ARF_CR0], 4);
    if ((crv >> 4) & 3)
        return false;                   /* directed rounding: the general path */
    bool ftz = !(crv >> 7 & 1);
    unsigned n = f->nch;
    uint32_t bits = chan_bits(n);
    uint32_t en = f->nomask ? bits : (t->amask >> f->off) & bits;
    switch (n) {
    case 8: fast_body(t, f, 8, ftz, en); break;
    case 16: fast_body(t, f, 16, ftz, en); break;
    case 4: fast_body(t, f, 4, ftz, en); break;
    default: fast_body(t, f, 32, ftz, en); break;
    }
    t->counts.instructions++;
    t->ip += f->size;
    if (t->wmask)
        eu_rejoin(t);
    return true;
}
