/* rtl-cosim/fpu_directed.c - see fpu_directed.h. */
#include "rtl-cosim/fpu_directed.h"

#include <stdbool.h>
#include <string.h>

#include "units/fpu/fpu_gen.h"

struct direct {
    struct fpu_rtl *rtl;
    uint64_t cycle, requests, bad, stop_after;
    FILE *report;
};

static bool done(const struct direct *d)
{
    return d->stop_after && d->bad >= d->stop_after;
}

/* One request through the RTL (depth 1: answered after one clock) and fpu_compute. */
static void one(struct direct *d, const struct fpu_request *q)
{
    if (done(d))
        return;
    struct fpu_response want, got;
    uint32_t tag = 0;
    fpu_compute(q, &want);
    fpu_rtl_set_request(d->rtl, q, (uint32_t)d->requests);
    fpu_rtl_set_resp_ready(d->rtl, true);
    fpu_rtl_clock(d->rtl, d->cycle++);
    bool valid = fpu_rtl_resp_valid(d->rtl);
    memset(&got, 0, sizeof got);
    if (valid)
        fpu_rtl_response(d->rtl, &got, &tag);
    d->requests++;
    if (!valid || memcmp(&want, &got, sizeof want) != 0 || tag != (uint32_t)(d->requests - 1)) {
        if (d->report && d->bad < 3)
            fprintf(d->report, "fpu_pipe directed: %s op %u cond %u ctrl %#x mode %#x src %08x %08x "
                    "%08x %08x: c %08x %08x flags %x, rtl %08x %08x flags %x\n",
                    valid ? "mismatch" : "no answer", q->op, q->cond, q->ctrl, q->mode,
                    q->src[0][0], q->src[0][1], q->src[1][0], q->src[2][0], want.result[0],
                    want.result[1], want.flags, got.result[0], got.result[1], got.flags);
        d->bad++;
    }
}

static void set_d(struct fpu_request *q, unsigned i, unsigned lane, uint64_t v)
{
    q->src[i][2 * lane] = (uint32_t)v;
    q->src[i][2 * lane + 1] = (uint32_t)(v >> 32);
}

uint64_t fpu_directed_checks(enum fpu_rtl_variant variant, uint64_t stop_after, FILE *report,
                             uint64_t *requests)
{
    struct direct d = { .rtl = fpu_rtl_create(variant, false), .stop_after = stop_after,
                        .report = report };
    fpu_rtl_reset(d.rtl);
    fpu_rtl_set_depth(d.rtl, 1);
    struct fpu_request q;
    const unsigned nf = FPU_SPECIAL_F_COUNT, nd = FPU_SPECIAL_D_COUNT;
    /* products below the smallest denormal, exact sums and products: under RU
     * and RD only the sticky bit decides (2^-100 x 2^-100 = 2^-200, 2^-75 x
     * 2^-75, 1 + 2, 3 x 5, 2 x 3 + 1, 1.5 x 1.5, min denormal x 0.5) */
    static const uint32_t small_f[][3] = {
        { 0x0d800000, 0x0d800000, 0 }, { 0x1a000000, 0x1a000000, 0 },
        { 0x3f800000, 0x40000000, 0 }, { 0x40400000, 0x40a00000, 0x3f800000 },
        { 0x40000000, 0x40400000, 0x3f800000 }, { 0x3fc00000, 0x3fc00000, 0xbf800000 },
        { 0x00000001, 0x3f000000, 0 }, { 0x8d800000, 0x0d800000, 0x00000001 },
    };
    static const uint64_t small_d[][3] = {
        { 0x1000000000000000ull, 0x1000000000000000ull, 0 },      /* 2^-767 squared */
        { 0x3ff0000000000000ull, 0x4000000000000000ull, 0 },      /* 1, 2 */
        { 0x4008000000000000ull, 0x4014000000000000ull, 0x3ff0000000000000ull },
        { 0x0000000000000001ull, 0x3fe0000000000000ull, 0 },      /* min denormal, 0.5 */
        { 0x9000000000000000ull, 0x1000000000000000ull, 0x0000000000000001ull },
    };
    for (unsigned mode = 0; mode < 8 && !done(&d); mode++) {
        uint32_t rm = (mode & 3) << FPU_MODE_RM_SHIFT;
        uint32_t sp = rm | ((mode & 4) ? FPU_MODE_SP_DENORM : 0);
        uint32_t dp = rm | ((mode & 4) ? FPU_MODE_DP_DENORM : 0);
        for (unsigned op = FPU_OP_ADD; op <= FPU_OP_MAD; op++) {
            for (unsigned k = 0; k < sizeof small_f / sizeof small_f[0]; k++) {
                memset(&q, 0, sizeof q);
                q.op = (uint8_t)op;
                q.mask = 15;
                q.mode = sp;
                for (unsigned l = 0; l < 4; l++)
                    for (unsigned i = 0; i < 3; i++)   /* lanes: as given, then rotated */
                        q.src[i][l] = small_f[k][(i + l) % 3];
                one(&d, &q);
            }
            for (unsigned k = 0; k < sizeof small_d / sizeof small_d[0]; k++) {
                memset(&q, 0, sizeof q);
                q.op = (uint8_t)op;
                q.mask = 3;
                q.mode = dp;
                q.ctrl = FPU_CTRL_DF;
                for (unsigned l = 0; l < 2; l++)
                    for (unsigned i = 0; i < 3; i++)
                        set_d(&q, i, l, small_d[k][(i + l) % 3]);
                one(&d, &q);
            }
        }
        /* every pair of specials: ADD, MUL, SEL (min/max), CMP .l */
        static const uint8_t ops[4][2] = { { FPU_OP_ADD, 0 }, { FPU_OP_MUL, 0 },
                                           { FPU_OP_SEL, 5 }, { FPU_OP_CMP, 5 } };
        for (unsigned o = 0; o < 4; o++) {
            for (unsigned k = 0; k < nf * nf; k += 4) {
                memset(&q, 0, sizeof q);
                q.op = ops[o][0];
                q.cond = ops[o][1];
                q.mask = 15;
                q.mode = sp;
                for (unsigned l = 0; l < 4; l++) {
                    unsigned p = (k + l) % (nf * nf);
                    q.src[0][l] = fpu_special_f[p / nf];
                    q.src[1][l] = fpu_special_f[p % nf];
                }
                one(&d, &q);
            }
            for (unsigned k = 0; k < nd * nd; k += 2) {
                memset(&q, 0, sizeof q);
                q.op = ops[o][0];
                q.cond = ops[o][1];
                q.mask = 3;
                q.mode = dp;
                q.ctrl = FPU_CTRL_DF;
                for (unsigned l = 0; l < 2; l++) {
                    set_d(&q, 0, l, fpu_special_d[(k + l) / nd % nd]);
                    set_d(&q, 1, l, fpu_special_d[(k + l) % nd]);
                }
                one(&d, &q);
            }
        }
        /* every MAD triple */
        for (unsigned k = 0; k < nf * nf * nf && !done(&d); k += 4) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 15;
            q.mode = sp;
            for (unsigned l = 0; l < 4; l++) {
                unsigned p = (k + l) % (nf * nf * nf);
                q.src[0][l] = fpu_special_f[p / (nf * nf)];
                q.src[1][l] = fpu_special_f[p / nf % nf];
                q.src[2][l] = fpu_special_f[p % nf];
            }
            one(&d, &q);
        }
        for (unsigned k = 0; k < nd * nd * nd && !done(&d); k += 2) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 3;
            q.mode = dp;
            q.ctrl = FPU_CTRL_DF;
            for (unsigned l = 0; l < 2; l++) {
                unsigned p = k + l;
                set_d(&q, 0, l, fpu_special_d[p / (nd * nd) % nd]);
                set_d(&q, 1, l, fpu_special_d[p / nd % nd]);
                set_d(&q, 2, l, fpu_special_d[p % nd]);
            }
            one(&d, &q);
        }
        /* conversions: every special F -> D, UD, DF and DF -> F, D, UD, DF; every
         * other request with the reserved condition 7 (accepted, sets no flag:
         * the default arms of the condition functions, which no random request
         * reaches - fpu_gen never draws 7) */
        for (unsigned dty = FPU_T_D; dty <= FPU_T_DF; dty++)
            for (unsigned k = 0; k < nf; k += 4) {
                memset(&q, 0, sizeof q);
                q.cond = (k / 4) % 2 ? 7 : 0;
                q.op = FPU_OP_MOV;
                q.mask = dty == FPU_T_DF ? 3 : 15;     /* two DF lanes from lanes 0, 1 */
                q.mode = sp | dp | ((mode & 1) ? FPU_MODE_F2I_RM : 0);
                q.ctrl = dty << FPU_CTRL_DTYPE_SHIFT;
                for (unsigned l = 0; l < 4; l++)
                    q.src[0][l] = fpu_special_f[(k + l) % nf];
                one(&d, &q);
            }
        /* DF -> F, D, UD by the rounding mode (cr0.0[12]) with .o: the integer
         * ranges' edges, which DF holds exactly and F does not (2^31 - 1,
         * -2^31 - 1, 2^32 - 1; the flag tells an edge value from an overflow),
         * and fractions whose only low bit is the one below the guard (x.25;
         * for F, 1 + 2^-25: the sticky alone decides RU and RD); DF -> F too */
        static const uint64_t round_d[] = {
            0x41dfffffffc00000ull, 0xc1e0000000000000ull, 0xc1e0000000200000ull,
            0x41efffffffe00000ull, 0x41f0000000000000ull, 0x41e0000000000000ull,
            0x41dfffffffd00000ull, 0x41effffffff00000ull, 0x3ff4000000000000ull,
            0xbff4000000000000ull, 0x4002000000000000ull, 0xc002000000000000ull,
            0x3ff0000008000000ull, 0xbff0000008000000ull,
        };
        for (unsigned dty = FPU_T_F; dty <= FPU_T_UD; dty++)
            for (unsigned k = 0; k < sizeof round_d / sizeof round_d[0]; k += 2) {
                memset(&q, 0, sizeof q);
                q.op = FPU_OP_MOV;
                q.cond = FPU_CM_O;
                q.mask = 3;
                q.mode = sp | dp | FPU_MODE_F2I_RM;
                q.ctrl = FPU_T_DF << FPU_CTRL_STYPE_SHIFT | dty << FPU_CTRL_DTYPE_SHIFT;
                for (unsigned l = 0; l < 2; l++)
                    set_d(&q, 0, l, round_d[k + l]);
                one(&d, &q);
            }
        for (unsigned dty = FPU_T_F; dty <= FPU_T_DF; dty++)
            for (unsigned k = 0; k < nd; k += 2) {
                memset(&q, 0, sizeof q);
                q.cond = (k / 2) % 2 ? 7 : 0;
                q.op = FPU_OP_MOV;
                q.mask = 3;
                q.mode = sp | dp | ((mode & 1) ? FPU_MODE_F2I_RM : 0);
                q.ctrl = FPU_T_DF << FPU_CTRL_STYPE_SHIFT | dty << FPU_CTRL_DTYPE_SHIFT;
                for (unsigned l = 0; l < 2; l++)
                    set_d(&q, 0, l, fpu_special_d[(k + l) % nd]);
                one(&d, &q);
            }
    }
    /* requests just past a field's range (bad: status 1, results and flags 0)
     * and just inside it: cond 10 / 9, mask 16 / 15 */
    static const uint8_t bound_cond[4] = { 10, 9, 0, 0 }, bound_mask[4] = { 15, 15, 16, 15 };
    for (unsigned k = 0; k < 4; k++) {
        memset(&q, 0, sizeof q);
        q.op = FPU_OP_ADD;
        q.cond = bound_cond[k];
        q.mask = bound_mask[k];
        for (unsigned l = 0; l < 4; l++) {
            q.src[0][l] = 0x3f800000u;
            q.src[1][l] = 0x7fc00000u;
        }
        one(&d, &q);
    }
    fpu_rtl_destroy(d.rtl);
    if (requests)
        *requests = d.requests;
    return d.bad;
}

/* The pipe held: depth 3 filled with three requests, then resp_ready low for four
 * edges with a fourth request waiting (the answer must stay, req_ready low),
 * then drained: every answer as fpu_compute's, in order. fpu:lockstep never
 * clocks the RTL while the C pipe holds, so no other check reaches the hold. */
uint32_t fpu_hold_check(enum fpu_rtl_variant variant, FILE *report)
{
    struct fpu_rtl *rtl = fpu_rtl_create(variant, false);
    fpu_rtl_reset(rtl);
    fpu_rtl_set_depth(rtl, 3);
    fpu_rtl_set_resp_ready(rtl, true);
    struct fpu_request q[4];
    struct fpu_response want[4];
    for (unsigned k = 0; k < 4; k++) {
        memset(&q[k], 0, sizeof q[k]);
        q[k].op = FPU_OP_ADD;
        q[k].mask = 15;
        for (unsigned l = 0; l < 4; l++) {
            q[k].src[0][l] = 0x3f800000u + (k << 20) + l;      /* 1.0 and up */
            q[k].src[1][l] = 0x40000000u + (l << 21);
        }
        fpu_compute(&q[k], &want[k]);
    }
    uint32_t failed = 0, next = 0;      /* next: the answer due */
    uint64_t cycle = 0;
    struct fpu_response got;
    uint32_t tag;
    for (unsigned k = 0; k < 3; k++) {
        fpu_rtl_set_request(rtl, &q[k], 100 + k);
        fpu_rtl_clock(rtl, cycle++);
    }
    fpu_rtl_set_request(rtl, &q[3], 103);
    fpu_rtl_set_resp_ready(rtl, false);
    for (unsigned t = 0; t < 4; t++) {
        bool ready = fpu_rtl_req_ready(rtl), valid = fpu_rtl_resp_valid(rtl);
        memset(&got, 0, sizeof got);
        tag = 0;
        if (valid)
            fpu_rtl_response(rtl, &got, &tag);
        if (ready || !valid || tag != 100 || memcmp(&got, &want[0], sizeof got) != 0) {
            if (report && failed < 3)
                fprintf(report, "fpu_pipe hold: edge %u with resp_ready low: req_ready %d "
                        "resp_valid %d tag %u, expected 0 1 100 and the first answer held\n",
                        t, ready, valid, tag);
            failed++;
        }
        fpu_rtl_clock(rtl, cycle++);
    }
    fpu_rtl_set_resp_ready(rtl, true);
    for (unsigned t = 0; t < 8 && next < 4; t++) {
        if (fpu_rtl_resp_valid(rtl)) {
            memset(&got, 0, sizeof got);
            fpu_rtl_response(rtl, &got, &tag);
            if (tag != 100 + next || memcmp(&got, &want[next], sizeof got) != 0) {
                if (report && failed < 3)
                    fprintf(report, "fpu_pipe hold: drained answer %u has tag %u, expected %u "
                            "(or its result differs)\n", next, tag, 100 + next);
                failed++;
            }
            next++;
        }
        bool taken = fpu_rtl_req_ready(rtl);
        fpu_rtl_clock(rtl, cycle++);
        if (taken)
            fpu_rtl_set_request(rtl, NULL, 0);
    }
    if (next != 4) {
        if (report)
            fprintf(report, "fpu_pipe hold: %u of 4 answers after the hold\n", next);
        failed++;
    }
    fpu_rtl_destroy(rtl);
    return failed;
}
