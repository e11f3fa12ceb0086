/* units/eu/eu_fast.c - the fast path of units/eu/eu_exec.h (struct eu_fast):
 * mov/add/mul/mad/cmp on F and mov/add/mul/and/or/xor/shl/shr/asr/cmp on D
 * and UD, SIMD1 to SIMD32, with direct contiguous or scalar operands, executed
 * with the same results as eu_exec (IEEE single precision, RTNE, cr0.0[7]
 * denormal flushing of sources and results, L20019-20065). Kept apart from
 * eu_exec.c, which is compiled for dynamic rounding modes; this path only runs
 * when cr0 selects RTNE. SIMD8/16 float forms run whole registers as AVX2
 * vectors on hosts that have AVX2 and FMA; the denormal flush is an exact
 * integer test of the exponent bits of whole vectors (a source holding a
 * denormal takes the per-channel path). */
#include "units/eu/eu_exec.h"
#include "eu_spec.h"
#include "msg_desc.h"

#include <math.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EU_FAST_AVX2 1
#endif


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
    if (base % 4)
        return false;   /* a dword off its 4-byte grid (SubRegNum is a byte address, 003
                         * L22977): the general path's; lanes would straddle dwords */
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
    /* SIMD1 and SIMD2 in Align1 only (an Align16 instruction works on 4-channel
     * groups: its writemask and swizzles) */
    if (in->illegal || in->gen < 7 || in->saturate || in->pred_control || in->acc_wr_control ||
        (in->exec_size < 4 && in->access_mode != 0) || (in->cond_modifier && op != EU_OPCODE_CMP))
        return;
    const struct eu_operand *d = &in->dst;
    bool integer = in->src[0].type == EU_TYPE_D || in->src[0].type == EU_TYPE_UD;
    unsigned ns;
    switch (op) {
    case EU_OPCODE_MOV: ns = 1; break;
    case EU_OPCODE_ADD: case EU_OPCODE_MUL: ns = 2; break;
    case EU_OPCODE_AND: case EU_OPCODE_OR: case EU_OPCODE_XOR: ns = integer ? 2 : 0; break;
    case EU_OPCODE_SHL: case EU_OPCODE_SHR: case EU_OPCODE_ASR: ns = integer ? 2 : 0; break;
    case EU_OPCODE_MAD: ns = integer ? 0 : 3; break;
    case EU_OPCODE_CMP: ns = in->cond_modifier >= EU_COND_MOD_Z && in->cond_modifier <= EU_COND_MOD_LE ? 2 : 0; break;
    default: ns = 0; break;
    }
    if (!ns || (ns == 3) != in->is_3src)
        return;
    f->integer = integer;
    bool null_dst = d->file == EU_FILE_ARF && (d->reg_nr >> 4) == 0 && !d->indirect;
    if (op == EU_OPCODE_CMP && null_dst) {
        f->dst_null = true;
    } else {
        bool dtype = integer ? (d->type == EU_TYPE_D || d->type == EU_TYPE_UD) : d->type == EU_TYPE_F;
        if (d->file != EU_FILE_GRF || d->indirect || !dtype)
            return;
        if (in->access_mode == 1 ? d->writemask != 15 : d->hstride != 1)
            return;
        uint32_t dbase = d->reg_nr * 32u + d->subreg_nr;
        if (dbase + in->exec_size * 4u > EU_GRF_BYTES || dbase % 4)
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
#ifdef EU_FAST_AVX2
    /* the whole-register form needs a host with AVX2 and FMA (checked once, here) */
    if (!integer && (in->exec_size == 8 || in->exec_size == 16) && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma"))
        f->vec = (uint8_t)(op == EU_OPCODE_MOV ? 1 : op == EU_OPCODE_ADD ? 2
                           : op == EU_OPCODE_MUL ? 3 : op == EU_OPCODE_MAD ? 4 : 0);
#endif
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
        case EU_OPCODE_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;   /* raw (004 L22970) */
        case EU_OPCODE_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = ftzf(ftzf(a[ch]) + ftzf(b[ch])); break;
        case EU_OPCODE_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = ftzf(ftzf(a[ch]) * ftzf(b[ch])); break;
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
        case EU_OPCODE_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;
        case EU_OPCODE_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] + b[ch]; break;
        case EU_OPCODE_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] * b[ch]; break;
        default: mad_loop(r, a, b, c, n); break;
        }
    }
    store(t, f, r, n, en);
}

#ifdef EU_FAST_AVX2
/* SIMD8/SIMD16 float bodies for x86-64 hosts with AVX2 and FMA (chosen at run
 * time): one 32-byte GRF per host vector, loaded and stored straight from the
 * register file. Under the default cr0 (denormals flushed, cr0.0[7] = 0) the
 * flush changes nothing unless a value has a zero exponent and a non-zero
 * fraction: the sources are tested for that with integer vector operations,
 * and a source vector holding a denormal sends the instruction to the
 * per-channel path (returns false, nothing done). Results are flushed
 * branch-free (zero exponent: keep the sign). All sources are read before the
 * destination is written. */
__attribute__((target("avx2,fma"), always_inline)) static inline bool
body_avx(struct eu_thread *t, const struct eu_fast *f, unsigned regs, bool ftz, uint32_t en,
         unsigned op)
{
    __m256 v[3][2], r[2];
    unsigned ns = op == EU_OPCODE_MOV ? 1 : op == EU_OPCODE_MAD ? 3 : 2;
    const __m256i expo = _mm256_set1_epi32(0x7f800000), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i zero = _mm256_setzero_si256();
    __m256i den = zero;
    for (unsigned i = 0; i < ns; i++) {
        for (unsigned k = 0; k < regs; k++) {
            if (f->scalar >> i & 1) {
                uint32_t b;
                if (f->immediate >> i & 1)
                    b = f->imm[i];
                else
                    memcpy(&b, t->grf + f->src[i], 4);
                v[i][k] = _mm256_castsi256_ps(_mm256_set1_epi32((int)b));
            } else {
                v[i][k] = _mm256_loadu_ps((const float *)(t->grf + f->src[i] + 32 * k));
            }
            if (ftz && op != EU_OPCODE_MOV) {   /* a raw mov keeps denormals (004 L22970) */
                __m256i u = _mm256_castps_si256(v[i][k]);
                __m256i ez = _mm256_cmpeq_epi32(_mm256_and_si256(u, expo), zero);
                __m256i fz = _mm256_cmpeq_epi32(_mm256_and_si256(u, frac), zero);
                den = _mm256_or_si256(den, _mm256_andnot_si256(fz, ez));
            }
        }
    }
    if (ftz && !_mm256_testz_si256(den, den))
        return false;
    const __m256i mag = _mm256_set1_epi32(0x7fffffff);
    for (unsigned k = 0; k < regs; k++) {
        switch (op) {
        case EU_OPCODE_MOV: r[k] = v[0][k]; break;
        case EU_OPCODE_ADD: r[k] = _mm256_add_ps(v[0][k], v[1][k]); break;
        case EU_OPCODE_MUL: r[k] = _mm256_mul_ps(v[0][k], v[1][k]); break;
        default: r[k] = _mm256_fmadd_ps(v[1][k], v[2][k], v[0][k]); break;   /* src0 + src1 * src2 */
        }
        if (ftz && op != EU_OPCODE_MOV) {
            __m256i u = _mm256_castps_si256(r[k]);
            __m256i ez = _mm256_cmpeq_epi32(_mm256_and_si256(u, expo), zero);
            r[k] = _mm256_castsi256_ps(_mm256_andnot_si256(_mm256_and_si256(ez, mag), u));
        }
    }
    uint8_t *dst = t->grf + f->dst;
    if (en == chan_bits(regs * 8)) {
        for (unsigned k = 0; k < regs; k++)
            _mm256_storeu_ps((float *)(dst + 32 * k), r[k]);
    } else {
        for (unsigned k = 0; k < regs; k++) {
            uint32_t m = en >> (8 * k) & 0xff;
            __m256i sel = _mm256_set_epi32(-(int)(m >> 7 & 1), -(int)(m >> 6 & 1), -(int)(m >> 5 & 1),
                                           -(int)(m >> 4 & 1), -(int)(m >> 3 & 1), -(int)(m >> 2 & 1),
                                           -(int)(m >> 1 & 1), -(int)(m & 1));
            _mm256_maskstore_ps((float *)(dst + 32 * k), sel, r[k]);
        }
    }
    return true;
}

/* one copy per exec size, flush mode and operation: straight-line code */
#define AVX_COPY(N, FTZ, OP, NAME)                                                           \
    __attribute__((target("avx2,fma"))) static bool NAME(struct eu_thread *t,               \
                                                         const struct eu_fast *f, uint32_t en) \
    {                                                                                      \
        return body_avx(t, f, N, FTZ, en, OP);                                             \
    }
#define AVX_COPIES(N, FTZ, SUFFIX)                                                           \
    AVX_COPY(N, FTZ, EU_OPCODE_MOV, avx_mov##SUFFIX)                                         \
    AVX_COPY(N, FTZ, EU_OPCODE_ADD, avx_add##SUFFIX)                                         \
    AVX_COPY(N, FTZ, EU_OPCODE_MUL, avx_mul##SUFFIX)                                         \
    AVX_COPY(N, FTZ, EU_OPCODE_MAD, avx_mad##SUFFIX)
AVX_COPIES(1, true, 8f)
AVX_COPIES(2, true, 16f)
AVX_COPIES(1, false, 8)
AVX_COPIES(2, false, 16)

typedef bool avx_fn(struct eu_thread *t, const struct eu_fast *f, uint32_t en);
/* [simd16][ftz][mov, add, mul, mad] */
static avx_fn *const avx_table[2][2][4] = {
    { { avx_mov8, avx_add8, avx_mul8, avx_mad8 }, { avx_mov8f, avx_add8f, avx_mul8f, avx_mad8f } },
    { { avx_mov16, avx_add16, avx_mul16, avx_mad16 },
      { avx_mov16f, avx_add16f, avx_mul16f, avx_mad16f } },
};
#endif

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
    case EU_COND_MOD_Z: return eq;
    case EU_COND_MOD_NZ: return !eq;
    case EU_COND_MOD_G: return gt;
    case EU_COND_MOD_GE: return gt || eq;
    case EU_COND_MOD_L: return lt;
    default: return lt || eq;
    }
}

/* cmp: the flag bits of enabled channels, and all ones / zero in the
 * destination (L20872-20895); NaN is unordered: only .ne holds. */
static inline __attribute__((always_inline)) void
fast_cmp(struct eu_thread *t, const struct eu_fast *f, unsigned n, bool ftz, uint32_t en)
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
    if (base < 64) {
        /* only the enabled channels' bits change (the bits past f1 are gone) */
        uint64_t m = (uint64_t)(en & chan_bits(n)) << base, v = (uint64_t)res << base;
        flags = (flags & ~m) | (v & m);
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
    case EU_OPCODE_MOV: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch]; break;
    case EU_OPCODE_ADD: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] + b[ch]; break;
    case EU_OPCODE_MUL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] * b[ch]; break;
    case EU_OPCODE_AND: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] & b[ch]; break;
    case EU_OPCODE_OR: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] | b[ch]; break;
    /* shifts of dwords: the count's low 5 bits; shr is logical on the source's
     * 32 bits, asr arithmetic whatever the source's signedness (as eu_exec_alu.c
     * exec_logic, after the opcode table) */
    case EU_OPCODE_SHL: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] << (b[ch] & 31); break;
    case EU_OPCODE_SHR: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] >> (b[ch] & 31); break;
    case EU_OPCODE_ASR:
        for (unsigned ch = 0; ch < n; ch++)
            r[ch] = (uint32_t)((int32_t)a[ch] >> (b[ch] & 31));
        break;
    default: for (unsigned ch = 0; ch < n; ch++) r[ch] = a[ch] ^ b[ch]; break;
    }
    store(t, f, r, n, en);
}

/* Everything but the whole-register float forms (kept out of line so the
 * common case below has no large stack frame). */
static __attribute__((noinline)) void exec_general(struct eu_thread *t, const struct eu_fast *f,
                                                   bool ftz, uint32_t en)
{
    unsigned n = f->nch;
    if (f->op == EU_OPCODE_CMP) {
        switch (n) {    /* constant sizes: fixed-length copies */
        case 8: fast_cmp(t, f, 8, ftz, en); break;
        case 16: fast_cmp(t, f, 16, ftz, en); break;
        default: fast_cmp(t, f, n, ftz, en); break;
        }
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
        case 1: fast_body(t, f, 1, ftz, en); break;
        case 2: fast_body(t, f, 2, ftz, en); break;
        default: fast_body(t, f, 32, ftz, en); break;
        }
    }
}

bool eu_exec_fast(struct eu_thread *t, const struct eu_fast *f)
{
    uint32_t crv;
    memcpy(&crv, t->arf[EU_ARF_CR0], 4);
    if (((crv >> 4) & 3) || (crv & 1))
        return false;                   /* directed rounding or ALT mode: the general path */
    bool ftz = !(crv >> 7 & 1);
    uint32_t bits = chan_bits(f->nch);
    uint32_t en = f->nomask ? bits : (t->amask >> f->off) & bits;
#ifdef EU_FAST_AVX2
    if (!(f->vec && avx_table[f->nch == 16][ftz][f->vec - 1](t, f, en)))
        exec_general(t, f, ftz, en);
#else
    exec_general(t, f, ftz, en);
#endif
    t->counts.instructions++;
    t->ip += f->size;
    if (t->wmask)
        eu_rejoin(t);
    return true;
}
