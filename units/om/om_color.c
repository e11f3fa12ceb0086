/* units/om/om_color.c - see om_color.h. */
#include "units/om/om_color.h"

#include <math.h>
#include <string.h>

/* MIN and MAX written out (x86-64 glibc's fminf/fmaxf on numbers, minss and
 * maxss: equal operands, +0 and -0 among them, give the second; a NaN operand
 * loses to a number): the compiler may swap fminf's operands (it takes them
 * as commutative), which made the sign of MIN(+0, -0) depend on the build and
 * the RTL twin (rtl-cosim/rtl/om_pixel.sv) could not match it. */
static float min_of(float a, float b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a < b ? a : b;
}

static float max_of(float a, float b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a > b ? a : b;
}

float om_blend_factor(uint32_t factor, unsigned c, const struct om_blend_inputs *in, bool *bad)
{
    const float *s = in->src, *s1 = in->src1, *d = in->dst, *k = in->constant;
    switch ((enum om_blend_factor)factor) {
    case OM_BF_ONE: return 1.0f;
    case OM_BF_ZERO: return 0.0f;
    case OM_BF_SRC_COLOR: return s[c];
    case OM_BF_SRC_ALPHA: return s[3];
    case OM_BF_DST_ALPHA: return d[3];
    case OM_BF_DST_COLOR: return d[c];
    case OM_BF_SRC_ALPHA_SATURATE: return c == 3 ? 1.0f : min_of(1.0f - d[3], s[3]);
    case OM_BF_CONST_COLOR: return k[c];
    case OM_BF_CONST_ALPHA: return k[3];
    case OM_BF_SRC1_COLOR: return s1[c];
    case OM_BF_SRC1_ALPHA: return s1[3];
    case OM_BF_INV_SRC_COLOR: return 1.0f - s[c];
    case OM_BF_INV_SRC_ALPHA: return 1.0f - s[3];
    case OM_BF_INV_DST_ALPHA: return 1.0f - d[3];
    case OM_BF_INV_DST_COLOR: return 1.0f - d[c];
    case OM_BF_INV_CONST_COLOR: return 1.0f - k[c];
    case OM_BF_INV_CONST_ALPHA: return 1.0f - k[3];
    case OM_BF_INV_SRC1_COLOR: return 1.0f - s1[c];
    case OM_BF_INV_SRC1_ALPHA: return 1.0f - s1[3];
    }
    *bad = true;
    return 0.0f;
}

float om_blend_function(uint32_t function, float src_term, float dst_term, bool *bad)
{
    switch ((enum om_blend_function)function) {
    case OM_BLEND_ADD: return src_term + dst_term;
    case OM_BLEND_SUBTRACT: return src_term - dst_term;
    case OM_BLEND_REVERSE_SUBTRACT: return dst_term - src_term;
    case OM_BLEND_MIN: return min_of(src_term, dst_term);
    case OM_BLEND_MAX: return max_of(src_term, dst_term);
    }
    *bad = true;
    return src_term + dst_term;
}

bool om_blend(const struct spec_BLEND_STATE_ENTRY *e, bool independent_alpha,
              const struct om_blend_inputs *in, float out[4])
{
    bool bad = false;
    for (unsigned c = 0; c < 4; c++) {
        bool alpha = c == 3 && independent_alpha;
        uint32_t sf = alpha ? e->SourceAlphaBlendFactor : e->SourceBlendFactor;
        uint32_t df = alpha ? e->DestinationAlphaBlendFactor : e->DestinationBlendFactor;
        uint32_t fn = alpha ? e->AlphaBlendFunction : e->ColorBlendFunction;
        float st = in->src[c] * om_blend_factor(sf, c, in, &bad);
        float dt = in->dst[c] * om_blend_factor(df, c, in, &bad);
        out[c] = om_blend_function(fn, st, dt, &bad);
    }
    return !bad;
}

void om_clamp4(float c[4], float lo, float hi)
{
    for (unsigned i = 0; i < 4; i++) {
        if (c[i] < lo)
            c[i] = lo;
        else if (c[i] > hi)
            c[i] = hi;
    }
}

void om_clamp_range(uint32_t range, unsigned rt_kind, float *lo, float *hi)
{
    if (range == OM_CLAMP_SNORM || (range == OM_CLAMP_RTFORMAT && rt_kind == 1)) {
        *lo = -1.0f;
        *hi = 1.0f;
    } else if (range == OM_CLAMP_RTFORMAT && rt_kind == 2) {
        *lo = -INFINITY;
        *hi = INFINITY;
    } else {
        *lo = 0.0f;
        *hi = 1.0f;
    }
}

uint32_t om_logic_op(uint32_t op, uint32_t s, uint32_t d)
{
    switch ((enum om_logic_op)(op & 15)) {
    case OM_LOGIC_CLEAR: return 0;
    case OM_LOGIC_NOR: return ~(s | d);
    case OM_LOGIC_AND_INVERTED: return ~s & d;
    case OM_LOGIC_COPY_INVERTED: return ~s;
    case OM_LOGIC_AND_REVERSE: return s & ~d;
    case OM_LOGIC_INVERT: return ~d;
    case OM_LOGIC_XOR: return s ^ d;
    case OM_LOGIC_NAND: return ~(s & d);
    case OM_LOGIC_AND: return s & d;
    case OM_LOGIC_EQUIV: return ~(s ^ d);
    case OM_LOGIC_NOOP: return d;
    case OM_LOGIC_OR_INVERTED: return ~s | d;
    case OM_LOGIC_COPY: return s;
    case OM_LOGIC_OR_REVERSE: return s | ~d;
    case OM_LOGIC_OR: return s | d;
    case OM_LOGIC_SET: return ~0u;
    }
    return s;
}

static bool compare(uint32_t function, double a, double b)
{
    switch (function & 7) {
    case 0: return true;            /* ALWAYS */
    case 1: return false;           /* NEVER */
    case 2: return a < b;
    case 3: return a == b;
    case 4: return a <= b;
    case 5: return a > b;
    case 6: return a != b;
    default: return a >= b;         /* GEQUAL */
    }
}

bool om_alpha_test(uint32_t function, float alpha, bool unorm8, float ref_float, uint32_t ref_unorm8)
{
    if (unorm8) {
        float a = isnan(alpha) ? 0.0f : fminf(fmaxf(alpha, 0.0f), 1.0f);
        return compare(function, (double)lrintf(a * 255.0f), (double)(ref_unorm8 & 0xff));
    }
    return compare(function, alpha, ref_float);
}

uint32_t om_alpha_to_coverage(float alpha, uint32_t samples)
{
    if (isnan(alpha) || samples == 0)
        return 0;
    float a = fminf(fmaxf(alpha, 0.0f), 1.0f);
    uint32_t n = (uint32_t)lrintf(a * (float)samples);
    return n >= 32 ? ~0u : (1u << n) - 1;
}

bool om_color_compute(const struct om_color_request *rq, float out[4])
{
    float col[4] = { rq->in.src[0], rq->in.src[1], rq->in.src[2], rq->in.src[3] };
    bool ok = true;
    if (rq->pre_clamp)
        om_clamp4(col, rq->lo, rq->hi);
    if (rq->blend) {
        struct om_blend_inputs in = rq->in;
        memcpy(in.src, col, sizeof col);
        if (rq->pre_clamp) {
            om_clamp4(in.dst, rq->lo, rq->hi);
            om_clamp4(in.constant, rq->lo, rq->hi);
        }
        struct spec_BLEND_STATE_ENTRY e;
        memset(&e, 0, sizeof e);
        e.SourceBlendFactor = rq->source_factor;
        e.DestinationBlendFactor = rq->destination_factor;
        e.ColorBlendFunction = rq->function;
        e.SourceAlphaBlendFactor = rq->source_alpha_factor;
        e.DestinationAlphaBlendFactor = rq->destination_alpha_factor;
        e.AlphaBlendFunction = rq->alpha_function;
        ok = om_blend(&e, rq->independent_alpha, &in, col);
        if (rq->post_clamp)
            om_clamp4(col, rq->lo, rq->hi);
    }
    memcpy(out, col, sizeof col);
    return ok;
}

uint32_t om_color_bits(bool logic, uint32_t op, uint32_t source, uint32_t destination,
                       uint32_t keep)
{
    uint32_t r = logic ? om_logic_op(op, source, destination) : source;
    return (r & ~keep) | (destination & keep);
}
