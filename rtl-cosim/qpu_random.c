/* rtl-cosim/qpu_random.c - see qpu_random.h. */
#include "rtl-cosim/qpu_random.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rtl-cosim/qpu_alu_rtl.h"

#define BATCH 64u

static uint64_t next(uint64_t *x)
{
    /* splitmix64 */
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *x, uint32_t n)
{
    return (uint32_t)(next(x) % n);
}

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00400000, 0x00800000, 0x80800000,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fbfffff,
    0x3f800000, 0xbf800000, 0x3f000000, 0x437f0000, 0x437f8000, 0x4b000000, 0x3b808081,
    0x3b808080, 0x3c008081, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0x4effffff, 0x4f000000,
    0xcf000000, 0xcf000001, 0x00000100, 0x000000ff, 0x7fffffff, 0xffffffff, 0x80000001,
    0x00007fff, 0x00008000, 0xffff8000, 0xffff7fff, 0x0000ffff, 0x3c00, 0x7c00, 0xfc00, 0x7e00,
    0x0001, 0x3bff0000, 0x01010101, 0xff00ff00, 0x34000000, 0x33800000, 0x0c800000, 0x3e800000,
};

static uint32_t operand(uint64_t *x)
{
    switch (below(x, 8)) {
    case 0: case 1:
        return specials[below(x, sizeof specials / sizeof specials[0])];
    case 2:  /* a normal float of moderate range, either sign */
        return (uint32_t)(below(x, 2) << 31 | (100 + below(x, 56)) << 23 | below(x, 1u << 23));
    case 3:  /* bytes / halves for the unpacks */
        return (uint32_t)next(x) & (below(x, 2) ? 0xffffu : 0xff00ffu);
    case 4:  /* a float near k/255 (the mul pack's rounding) */
        return (uint32_t)(0x3b800000u + below(x, 0x03800000u));
    case 5:  /* a small integer */
        return (uint32_t)(int32_t)(below(x, 512) - 256);
    default:
        return (uint32_t)next(x);
    }
}

static void random_request(uint64_t *x, struct qpu_alu_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->op_add = (uint8_t)below(x, 32);
    rq->op_mul = (uint8_t)below(x, 8);
    uint8_t *mux[4] = { &rq->add_a, &rq->add_b, &rq->mul_a, &rq->mul_b };
    for (unsigned k = 0; k < 4; k++)
        *mux[k] = (uint8_t)(below(x, 3) == 0 ? 6 : below(x, 3) == 0 ? 4 : below(x, 8));
    rq->pm = (uint8_t)below(x, 2);
    rq->unpack = (uint8_t)below(x, 8);
    rq->pack = (uint8_t)below(x, 16);
    rq->cond_add = (uint8_t)(below(x, 4) == 0 ? 1 : below(x, 8));
    rq->cond_mul = (uint8_t)(below(x, 4) == 0 ? 1 : below(x, 8));
    rq->sf = below(x, 2);
    rq->add_pack_a = below(x, 2);
    rq->mul_pack_a = below(x, 2);
    rq->flag_z = (uint16_t)next(x);
    rq->flag_n = (uint16_t)next(x);
    rq->flag_c = (uint16_t)next(x);
    bool same = below(x, 16) == 0;  /* equal operands (borrow, min/max on equal) */
    for (unsigned i = 0; i < QPU_LANES; i++) {
        rq->add_operand[0][i] = operand(x);
        rq->add_operand[1][i] = same ? rq->add_operand[0][i] : operand(x);
        rq->mul_operand[0][i] = operand(x);
        rq->mul_operand[1][i] = same ? rq->mul_operand[0][i] : operand(x);
        rq->add_old[i] = (uint32_t)next(x);
        rq->mul_old[i] = (uint32_t)next(x);
    }
}

/* Boundary mode (qpu_random_options.boundary): float adds, subtracts and multiplies
 * whose results land around 2^-126, the smallest normal (seed 002: denormals
 * flushed on input and output, results rounded first), where the rounding, the
 * renormalisation and the flush meet: random operands rarely get there. */
static uint32_t near_normal_boundary(uint64_t *x, uint32_t exponent)
{
    return (uint32_t)(below(x, 2) << 31 | exponent << 23 | (next(x) & 0x7fffff));
}

static void boundary_request(uint64_t *x, struct qpu_alu_request *rq)
{
    random_request(x, rq);
    rq->op_add = (uint8_t)(1 + below(x, 2));         /* fadd, fsub */
    rq->op_mul = 1;                                 /* fmul */
    rq->pm = 0;
    rq->unpack = 0;                                 /* no unpack, no pack */
    rq->pack = 0;
    for (unsigned i = 0; i < QPU_LANES; i++) {
        rq->add_operand[0][i] = near_normal_boundary(x, 1 + (uint32_t)below(x, 3));
        rq->add_operand[1][i] = near_normal_boundary(x, 1 + (uint32_t)below(x, 3));
        /* exponent fields ea + eb - 127 in -1..2: products of about 2^-127 .. 2^-124 */
        uint32_t ea = 1 + (uint32_t)below(x, 126);
        uint32_t eb = 127 + (uint32_t)below(x, 4) - 1 - ea;
        rq->mul_operand[0][i] = near_normal_boundary(x, ea);
        rq->mul_operand[1][i] = near_normal_boundary(x, eb);
        if (below(x, 4) == 0) {
            /* (1 + x 2^-23) (2 - 2x 2^-23) 2^-126 = (2 - 2x^2 2^-46) 2^-126: a product
             * just under 2^-125 whose significand rounds up and carries from
             * exponent field 1 into 2, e.g. 0x3f800001 x 0x00fffffe = 0x01000000
             * (the smallest normal's double, kept, not flushed) */
            uint32_t k = 1 + (uint32_t)below(x, 3);
            rq->mul_operand[0][i] = (uint32_t)(below(x, 2) << 31) | (0x3f800000u + k);
            rq->mul_operand[1][i] = (uint32_t)(below(x, 2) << 31) | 0x00800000u |
                                    (0x800000u - 2 * k);
        }
    }
}

bool qpu_alu_result_differs(const struct qpu_alu_result *c, const struct qpu_alu_result *rtl,
                            char *what, size_t size)
{
    for (unsigned i = 0; i < QPU_LANES; i++) {
        if (c->add_value[i] != rtl->add_value[i]) {
            snprintf(what, size, "element %u field add_value: c-model 0x%08x, rtl 0x%08x", i,
                     c->add_value[i], rtl->add_value[i]);
            return true;
        }
        if (c->mul_value[i] != rtl->mul_value[i]) {
            snprintf(what, size, "element %u field mul_value: c-model 0x%08x, rtl 0x%08x", i,
                     c->mul_value[i], rtl->mul_value[i]);
            return true;
        }
    }
    static const char *const names[5] = { "add_lanes", "mul_lanes", "flag_z", "flag_n",
                                          "flag_c" };
    const uint16_t cv[5] = { c->add_lanes, c->mul_lanes, c->flag_z, c->flag_n, c->flag_c };
    const uint16_t rv[5] = { rtl->add_lanes, rtl->mul_lanes, rtl->flag_z, rtl->flag_n,
                             rtl->flag_c };
    for (unsigned k = 0; k < 5; k++)
        if (cv[k] != rv[k]) {
            unsigned lane = 0;
            while (!(((cv[k] ^ rv[k]) >> lane) & 1))
                lane++;
            snprintf(what, size, "element %u field %s: c-model 0x%04x, rtl 0x%04x", lane,
                     names[k], cv[k], rv[k]);
            return true;
        }
    return false;
}

void qpu_alu_request_text(const struct qpu_alu_request *rq, unsigned lane, char *text,
                          size_t size)
{
    lane &= 15;
    snprintf(text, size,
             "op_add %u op_mul %u mux %u %u %u %u pm %u unpack %u pack %u cond %u %u sf %d "
             "pack_a %d %d flags z %04x n %04x c %04x; element %u: add %08x %08x mul %08x "
             "%08x old %08x %08x",
             rq->op_add, rq->op_mul, rq->add_a, rq->add_b, rq->mul_a, rq->mul_b, rq->pm,
             rq->unpack, rq->pack, rq->cond_add, rq->cond_mul, rq->sf, rq->add_pack_a,
             rq->mul_pack_a, rq->flag_z, rq->flag_n, rq->flag_c, lane,
             rq->add_operand[0][lane], rq->add_operand[1][lane], rq->mul_operand[0][lane],
             rq->mul_operand[1][lane], rq->add_old[lane], rq->mul_old[lane]);
}

static void mismatch(struct qpu_random_result *r, uint64_t clock, const char *fmt, ...)
{
    r->mismatches++;
    if (r->mismatches > 1)
        return;
    r->first_mismatch = clock;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first_report, sizeof r->first_report, fmt, ap);
    va_end(ap);
}

static void seen(struct qpu_random_result *r, const struct qpu_alu_request *rq)
{
    if (rq->op_add && (rq->cond_add & 7))
        r->add_ops_seen |= 1u << (rq->op_add & 31);
    if (rq->op_mul && (rq->cond_mul & 7))
        r->mul_ops_seen |= (uint8_t)(1u << (rq->op_mul & 7));
    if ((rq->pm == 0 && (rq->add_pack_a || rq->mul_pack_a)) || rq->pm == 1)
        r->packs_seen[rq->pm & 1] |= (uint16_t)(1u << (rq->pack & 15));
    const uint8_t mux[4] = { rq->add_a, rq->add_b, rq->mul_a, rq->mul_b };
    for (unsigned k = 0; k < 4; k++)
        if (mux[k] == (rq->pm ? 4 : 6))
            r->unpacks_seen[rq->pm & 1] |= (uint8_t)(1u << (rq->unpack & 7));
}

int qpu_random_run(const struct qpu_random_options *o, struct qpu_random_result *r,
                   struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    struct qpu_alu_rtl *rtl = qpu_alu_rtl_create(o->broken, o->wave != NULL);
    qpu_alu_rtl_reset(rtl);
    if (o->wave && qpu_alu_rtl_trace_open(rtl, o->wave, o->wave_from, o->wave_to) < 0) {
        qpu_alu_rtl_destroy(rtl);
        return gt_error_set(err, "qpu-random: cannot write the wave '%s'", o->wave);
    }
    uint64_t x = o->seed;
    struct qpu_alu_request rq[BATCH];
    struct qpu_alu_result c[BATCH], v[BATCH];
    for (uint64_t done = 0; done < o->requests;) {
        unsigned n = (unsigned)(o->requests - done < BATCH ? o->requests - done : BATCH);
        for (unsigned k = 0; k < n; k++) {
            if (o->boundary)
                boundary_request(&x, &rq[k]);
            else
                random_request(&x, &rq[k]);
            seen(r, &rq[k]);
            qpu_alu_compute(&rq[k], &c[k]);
        }
        memset(v, 0, sizeof v);
        uint64_t clock0 = qpu_alu_rtl_clocks(rtl);
        unsigned missing = qpu_alu_rtl_compute_many(rtl, rq, v, n);
        if (missing) {
            r->no_answer += missing;
            mismatch(r, clock0, "instructions #%" PRIu64 "..#%" PRIu64 ": block qpu_alu port "
                     "out_valid: %u quads not answered %u clocks after in_valid with their tag",
                     done + 1, done + n, missing, QPU_ALU_RTL_LATENCY);
        }
        for (unsigned k = 0; k < n; k++) {
            char what[160], text[400];
            r->compared++;
            if (qpu_alu_result_differs(&c[k], &v[k], what, sizeof what)) {
                unsigned lane = 0;
                sscanf(what, "element %u", &lane);
                qpu_alu_request_text(&rq[k], lane, text, sizeof text);
                /* the quad of that element left the RTL on this clock */
                mismatch(r, clock0 + 4ull * k + lane / 4 + QPU_ALU_RTL_LATENCY,
                         "instruction #%" PRIu64 ": %s (%s)", done + k + 1, what, text);
            }
        }
        done += n;
        r->instructions = done;
        if (o->stop_at_first && r->mismatches)
            break;
    }
    r->clocks = qpu_alu_rtl_clocks(rtl);
    qpu_alu_rtl_destroy(rtl);
    return 0;
}
