/* rtl-cosim/om_random.c - see om_random.h. */
#include "rtl-cosim/om_random.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rtl-cosim/om_rtl.h"
#include "units/common/depth_stencil.h"
#include "units/om/om_color.h"

static uint64_t next(uint64_t *x)            /* splitmix64 */
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *x, uint32_t n) { return (uint32_t)(next(x) % n); }

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
    0xffc00000, 0x7fa00000, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
    0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f000000, 0x40000000, 0x3f7fffff,
    0x3f800001, 0x33800000, 0x34000000, 0x3effffff, 0x3f000001, 0x0c000000, 0x1f800000,
    0x5f000000, 0x3b808081, 0x3c008081,
};

static float any_float(uint64_t *x)
{
    switch (below(x, 10)) {
    case 0:
    case 1: return from_bits(specials[below(x, sizeof specials / sizeof specials[0])]);
    case 2:
    case 3: return (float)below(x, 1u << 24) / 16777216.0f;     /* [0, 1) */
    case 4: return (float)below(x, 256) / 255.0f;                /* UNORM8 steps */
    case 5: return from_bits((uint32_t)next(x));                 /* any bits */
    case 6: return -(float)below(x, 1u << 24) / 16777216.0f;
    default: {
        /* exponents around 1, any mantissa: rounding of the products and sums */
        uint32_t e = 110 + below(x, 30);
        return from_bits((uint32_t)(next(x) & 0x807fffffu) | e << 23);
    }
    }
}

static const uint32_t known_factors[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 18, 19, 20, 21,
                                          23, 24, 25, 26 };

static uint32_t factor(uint64_t *x)
{
    if (below(x, 20) == 0)
        return below(x, 32);                    /* unknown ones too (0, 11..16, 22, 27..31) */
    return known_factors[below(x, sizeof known_factors / sizeof known_factors[0])];
}

static uint32_t function(uint64_t *x) { return below(x, 20) == 0 ? below(x, 8) : below(x, 5); }

static void random_color(uint64_t *x, struct om_color_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->blend = below(x, 8) != 0;
    rq->pre_clamp = below(x, 2);
    rq->post_clamp = below(x, 2);
    rq->independent_alpha = below(x, 2);
    rq->source_factor = factor(x);
    rq->destination_factor = factor(x);
    rq->function = function(x);
    rq->source_alpha_factor = factor(x);
    rq->destination_alpha_factor = factor(x);
    rq->alpha_function = function(x);
    switch (below(x, 5)) {
    case 0: rq->lo = 0.0f; rq->hi = 1.0f; break;
    case 1: rq->lo = -1.0f; rq->hi = 1.0f; break;
    case 2: rq->lo = -INFINITY; rq->hi = INFINITY; break;
    case 3: rq->lo = any_float(x); rq->hi = any_float(x); break;
    default: om_clamp_range(below(x, 4), below(x, 3), &rq->lo, &rq->hi); break;
    }
    for (unsigned c = 0; c < 4; c++) {
        rq->in.src[c] = any_float(x);
        rq->in.src1[c] = any_float(x);
        rq->in.dst[c] = any_float(x);
        rq->in.constant[c] = any_float(x);
    }
}

static uint32_t keep_mask(uint64_t *x)
{
    switch (below(x, 4)) {
    case 0: return 0;
    case 1: return 0xffu << (8 * below(x, 4));
    case 2: return (uint32_t)next(x);
    default: return 0xffffffffu >> below(x, 32);
    }
}

static uint32_t compare_fn(uint64_t *x) { return below(x, 25) == 0 ? 8 + below(x, 24) : below(x, 8); }
static uint32_t stencil_op(uint64_t *x) { return below(x, 25) == 0 ? 8 + below(x, 24) : below(x, 8); }

static uint8_t byte_near_ends(uint64_t *x)
{
    switch (below(x, 4)) {
    case 0: return (uint8_t)below(x, 3);
    case 1: return (uint8_t)(0xff - below(x, 3));
    default: return (uint8_t)next(x);
    }
}

static void random_face(uint64_t *x, struct ds_face *f)
{
    f->function = compare_fn(x);
    f->fail_op = stencil_op(x);
    f->depth_fail_op = stencil_op(x);
    f->pass_op = stencil_op(x);
    f->test_mask = below(x, 2) ? 0xff : (uint8_t)next(x);
    f->write_mask = below(x, 2) ? 0xff : (uint8_t)next(x);
    f->reference = byte_near_ends(x);
}

static float depth_value(uint64_t *x)
{
    switch (below(x, 4)) {
    case 0: return any_float(x);
    case 1: return (float)below(x, 65536) / 65535.0f;
    default: return (float)below(x, 1u << 24) / 16777216.0f;
    }
}

static const uint32_t formats[] = { DS_D32_FLOAT, DS_D24_UNORM_X8_UINT, DS_D16_UNORM, 0, 2, 4, 6, 9 };

struct depth_request {
    struct ds_state st;
    bool back;
    uint32_t format;
    float z;
    uint32_t depth;
    uint8_t stencil;
};

static void random_depth(uint64_t *x, struct depth_request *q)
{
    memset(q, 0, sizeof *q);
    q->st.depth_test = below(x, 4) != 0;
    q->st.depth_write = below(x, 2);
    q->st.depth_function = compare_fn(x);
    q->st.stencil_test = below(x, 3) != 0;
    q->st.stencil_write = below(x, 4) != 0;
    q->st.double_sided = below(x, 2);
    q->back = below(x, 2);
    random_face(x, &q->st.front);
    random_face(x, &q->st.back);
    switch (below(x, 5)) {
    case 0: q->st.min_depth = 1.0f; q->st.max_depth = 0.0f; break;   /* no clamp */
    case 1: q->st.min_depth = any_float(x); q->st.max_depth = any_float(x); break;
    default: {
        float a = depth_value(x), b = depth_value(x);
        q->st.min_depth = a < b ? a : b;
        q->st.max_depth = a < b ? b : a;
    }
    }
    q->format = below(x, 8) == 0 ? formats[below(x, 8)] : formats[below(x, 3)];
    q->z = depth_value(x);
    if (q->format == DS_D32_FLOAT)
        q->depth = below(x, 4) ? bits_of(depth_value(x)) : (uint32_t)next(x);
    else if (below(x, 3) == 0)
        q->depth = ds_depth_encode(q->format, q->z) + below(x, 3) - 1;  /* equal and next to it */
    else
        q->depth = (uint32_t)next(x);
    q->stencil = byte_near_ends(x);
}

static bool same_float(float a, float b)
{
    return bits_of(a) == bits_of(b) || (isnan(a) && isnan(b));
}

/* The request, every operand, as a mismatch line shows it. */
static void describe_color(const struct om_color_request *rq, char *buf, size_t size)
{
    int n = snprintf(buf, size, "blend %d pre %d post %d ia %d sf %u df %u fn %u saf %u daf %u "
                     "afn %u lo %08x hi %08x", rq->blend, rq->pre_clamp, rq->post_clamp,
                     rq->independent_alpha, rq->source_factor, rq->destination_factor,
                     rq->function, rq->source_alpha_factor, rq->destination_alpha_factor,
                     rq->alpha_function, bits_of(rq->lo), bits_of(rq->hi));
    const float *v[4] = { rq->in.src, rq->in.src1, rq->in.dst, rq->in.constant };
    static const char *const names[4] = { "src", "src1", "dst", "const" };
    for (unsigned i = 0; i < 4 && n > 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, " %s %08x %08x %08x %08x", names[i],
                      bits_of(v[i][0]), bits_of(v[i][1]), bits_of(v[i][2]), bits_of(v[i][3]));
}

static void mismatch(struct om_random_result *r, struct om_rtl *rtl, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void mismatch(struct om_random_result *r, struct om_rtl *rtl, const char *fmt, ...)
{
    if (r->mismatches++ == 0) {
        r->first_mismatch = om_rtl_clocks(rtl);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first_report, sizeof r->first_report, fmt, ap);
        va_end(ap);
    }
}

/* One colour request through the C block and the RTL, compared. */
static void check_color(struct om_rtl *rtl, struct om_random_result *r,
                        const struct om_color_request *rq)
{
    float c[4], v[4];
    bool c_ok = om_color_compute(rq, c);
    bool v_ok = om_rtl_color(rtl, rq, v);
    r->color++;
    if (rq->blend) {
        r->factors_seen |= 1u << (rq->source_factor & 31) | 1u << (rq->destination_factor & 31);
        r->functions_seen |= 1u << (rq->function & 31);
    }
    for (unsigned k = 0; k < 4; k++)
        if (!same_float(c[k], v[k])) {
            char in[400];
            describe_color(rq, in, sizeof in);
            mismatch(r, rtl, "colour request #%" PRIu64 ": field color[%u]: c-model "
                     "0x%08x, rtl 0x%08x (%s)", r->color, k, bits_of(c[k]),
                     bits_of(v[k]), in);
            break;
        }
    if (c_ok != v_ok)
        mismatch(r, rtl, "colour request #%" PRIu64 ": field color_bad: c-model %d, rtl %d",
                 r->color, !c_ok, !v_ok);
}

/* One bit request through the C block and the RTL, compared. */
static void check_bits(struct om_rtl *rtl, struct om_random_result *r, bool logic, uint32_t op,
                       uint32_t s, uint32_t d, uint32_t keep)
{
    uint32_t c = om_color_bits(logic, op, s, d, keep);
    uint32_t v = om_rtl_bits(rtl, logic, op, s, d, keep);
    r->bits++;
    if (c != v)
        mismatch(r, rtl, "bits request #%" PRIu64 ": field bits: c-model 0x%08x, rtl "
                 "0x%08x (logic %d op %u source %08x destination %08x keep %08x)",
                 r->bits, c, v, logic, op, s, d, keep);
}

/* One depth/stencil request through ds_test and the RTL, compared. */
static void check_depth(struct om_rtl *rtl, struct om_random_result *r,
                        const struct depth_request *q)
{
    uint32_t cd = q->depth, vd = q->depth;
    uint8_t cs = q->stencil, vs = q->stencil;
    uint32_t cf = ds_test(&q->st, q->back, q->format, q->z, &cd, &cs);
    uint32_t vf = om_rtl_depth(rtl, &q->st, q->back, q->format, q->z, &vd, &vs);
    r->depth++;
    const struct ds_face *f = q->back && q->st.double_sided ? &q->st.back : &q->st.front;
    if (q->st.stencil_test && q->st.stencil_write) {
        uint32_t op = cf & DS_PASS ? f->pass_op
                    : cf & DS_DEPTH_FAILED ? f->depth_fail_op : f->fail_op;
        r->stencil_ops_seen |= 1u << (op < 8 ? op : 8);
    }
    if (q->st.depth_test)
        r->formats_seen |= 1u << (q->format & 31);
    if (cf != vf || cd != vd || cs != vs)
        mismatch(r, rtl, "depth request #%" PRIu64 ": c-model flags 0x%x depth 0x%08x "
                 "stencil 0x%02x, rtl flags 0x%x depth 0x%08x stencil 0x%02x (format %u "
                 "z %08x stored %08x/%02x dt %d dw %d df %u st %d sw %d ds %d back %d "
                 "face %u/%u/%u/%u %02x/%02x/%02x range %08x..%08x)", r->depth, cf, cd,
                 cs, vf, vd, vs, q->format, bits_of(q->z), q->depth, q->stencil,
                 q->st.depth_test, q->st.depth_write, q->st.depth_function,
                 q->st.stencil_test, q->st.stencil_write, q->st.double_sided, q->back,
                 f->function, f->fail_op, f->depth_fail_op, f->pass_op, f->test_mask,
                 f->write_mask, f->reference, bits_of(q->st.min_depth),
                 bits_of(q->st.max_depth));
}

/* After each request: the RTL answered in its two clocks, and the outputs of
 * the other kinds read 0. */
static void check_answered(struct om_rtl *rtl, struct om_random_result *r, uint64_t number)
{
    r->compared++;
    if (!om_rtl_answered(rtl))
        mismatch(r, rtl, "request #%" PRIu64 ": block om_pixel port out_valid: no answer "
                 "%u clocks after in_valid", number, OM_RTL_CLOCKS_PER_OP);
    else if (!om_rtl_others_zero(rtl))
        mismatch(r, rtl, "request #%" PRIu64 ": block om_pixel: an output of another kind "
                 "of request is not 0", number);
}

int om_random_run(const struct om_random_options *o, struct om_random_result *r,
                  struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    struct om_rtl *rtl = om_rtl_create(o->broken, o->wave != NULL);
    om_rtl_reset(rtl);
    if (o->wave && om_rtl_trace_open(rtl, o->wave, o->wave_from, o->wave_to) < 0) {
        om_rtl_destroy(rtl);
        return gt_error_set(err, "om-random: cannot write the wave '%s'", o->wave);
    }
    uint64_t x = o->seed;
    for (uint64_t i = 0; i < o->requests; i++) {
        uint32_t kind = below(&x, 10);
        if (kind < 5) {
            struct om_color_request rq;
            random_color(&x, &rq);
            check_color(rtl, r, &rq);
        } else if (kind < 7) {
            bool logic = below(&x, 2);
            uint32_t op = below(&x, 20) == 0 ? (uint32_t)next(&x) : below(&x, 16);
            uint32_t s = (uint32_t)next(&x), d = (uint32_t)next(&x), keep = keep_mask(&x);
            check_bits(rtl, r, logic, op, s, d, keep);
        } else {
            struct depth_request q;
            random_depth(&x, &q);
            check_depth(rtl, r, &q);
        }
        check_answered(rtl, r, i + 1);
        if (o->stop_at_first && r->mismatches)
            break;
    }
    r->clocks = om_rtl_clocks(rtl);
    om_rtl_destroy(rtl);
    return 0;
}

/* Products at the normal/denormal boundary: col[c] x SRC_ALPHA with a denormal
 * alpha (2^-149 .. 5 x 2^-149, the largest denormal) and colours of 2^21 .. 2^24
 * (odd significands among them), so that the product's leading one sits at bit
 * 23 .. 25 of round_pack's window with a result exponent field of 0 .. 2: shifts
 * of 0, 1 and 2 with the guard bit 0 and 1. The random operands rarely pair a
 * large colour with a tiny alpha like this. */
static const uint32_t boundary_alpha[] = { 0x00000001, 0x00000002, 0x00000003, 0x00000005,
                                           0x007fffff };
static const uint32_t boundary_color[] = { 0x4a000000, 0x4a7fffff, 0x4a800000, 0x4a800001,
                                           0x4ac00000, 0x4b000001, 0x4b7fffff, 0x4b800003,
                                           0x4b000003 };

void om_directed_run(bool broken, struct om_random_result *r)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    struct om_rtl *rtl = om_rtl_create(broken, false);
    unsigned spurious = om_rtl_idle_after_reset(rtl, 4);
    if (spurious)
        mismatch(r, rtl, "after reset without a request: block om_pixel port out_valid high "
                 "%u times in 4 clocks, expected 0", spurious);
    uint64_t n = 0;
    size_t colors = sizeof boundary_color / sizeof boundary_color[0];
    for (size_t a = 0; a < sizeof boundary_alpha / sizeof boundary_alpha[0]; a++)
        for (size_t c = 0; c < colors; c += 3) {
            struct om_color_request rq;
            memset(&rq, 0, sizeof rq);
            rq.blend = true;
            rq.source_factor = 3;                   /* SRC_ALPHA */
            rq.destination_factor = 17;             /* ZERO */
            rq.function = 0;                        /* ADD */
            rq.source_alpha_factor = 1;
            rq.destination_alpha_factor = 17;
            for (unsigned k = 0; k < 3; k++)
                rq.in.src[k] = from_bits(boundary_color[(c + k) % colors]);
            rq.in.src[3] = from_bits(boundary_alpha[a]);
            check_color(rtl, r, &rq);
            check_answered(rtl, r, ++n);
        }
    r->clocks = om_rtl_clocks(rtl);
    om_rtl_destroy(rtl);
}
