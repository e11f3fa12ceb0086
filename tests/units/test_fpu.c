/* tests/units/test_fpu.c - the FPU pipe (units/fpu) against the EU executor
 * (units/eu/eu_exec.c): every request also runs as a one-instruction SIMD4
 * (DF: SIMD2) kernel (encoded by isa/intel/eu_encode.h, decoded, executed on
 * one thread with cr0.0 set from the request's mode), and results and flags
 * must agree bit for bit: 50k random requests, every pair/triple of special
 * operands in every mode (F and DF), and 300 kernels run on a standalone EU
 * unit (tests/support/eu_rig.h). Plus values worked out from the seed, and the
 * pipe's timing and back-pressure through the fabric. */
#include "../test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/config.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "units/eu/eu.h"
#include "isa/intel/eu_encode.h"
#include "units/eu/eu_exec.h"
#include "units/fpu/fpu.h"
#include "units/fpu/fpu_gen.h"
#include "units/registry.h"

enum { OP_MOV = 1, OP_SEL = 2, OP_CMP = 16, OP_ADD = 64, OP_MUL = 65, OP_MAD = 91 };

static enum eu_type eu_type_of(unsigned t)
{
    return t == FPU_T_F ? EU_TYPE_F : t == FPU_T_D ? EU_TYPE_D : t == FPU_T_UD ? EU_TYPE_UD
                                                                              : EU_TYPE_DF;
}

/* DF requests run on two 64-bit channels. */
static bool is_df(const struct fpu_request *q)
{
    unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
    return q->op == FPU_OP_MOV ? (sty == FPU_T_DF || dty == FPU_T_DF) : (q->ctrl & FPU_CTRL_DF);
}

static struct eu_enc_opnd src_opnd(const struct fpu_request *q, unsigned i, enum eu_type ty)
{
    struct eu_enc_opnd o = eu_enc_grf(2 + i, 0, ty);
    o = is_df(q) ? eu_enc_rgn(o, 2, 2, 1) : eu_enc_rgn(o, 4, 4, 1);
    o.negate = q->ctrl & FPU_CTRL_NEG(i);
    o.abs = q->ctrl & FPU_CTRL_ABS(i);
    return o;
}

/* The EU side: one thread, and the last instruction decoded (requests of the
 * same shape reuse it: only registers and cr0 change). */
struct eu_side {
    struct eu_thread *t;
    struct eu_instruction d;
    bool have;
    uint8_t op, cond;
    uint32_t ctrl;
};

/* Runs q through the EU executor; fills r as the FPU would. */
static void eu_run(struct eu_side *e, const struct fpu_request *q, struct fpu_response *r)
{
    static const uint8_t opc[FPU_OP_COUNT] = { OP_ADD, OP_MUL, OP_MAD, OP_SEL, OP_CMP, OP_MOV };
    if (!e->have || e->op != q->op || e->cond != q->cond || e->ctrl != q->ctrl) {
        unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3;
        unsigned dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
        enum eu_type ft = is_df(q) ? EU_TYPE_DF : EU_TYPE_F;
        enum eu_type st = q->op == FPU_OP_MOV ? eu_type_of(sty) : ft;
        enum eu_type dt = q->op == FPU_OP_MOV ? eu_type_of(dty) : ft;
        struct eu_enc_insn in = { .opcode = opc[q->op], .exec_size = is_df(q) ? 2 : 4,
                                  .cond = q->cond,
                                  .sat = q->ctrl & FPU_CTRL_SAT };
        in.dst = eu_enc_grf(10, 0, dt);
        unsigned ns = q->op == FPU_OP_MOV ? 1 : q->op == FPU_OP_MAD ? 3 : 2;
        for (unsigned i = 0; i < ns; i++) {
            /* Align1 <4;4,1> regions; mad is Align16 with .xyzw swizzles */
            in.src[i] = ns == 3 ? eu_enc_grf(2 + i, 0, st) : src_opnd(q, i, st);
            in.src[i].negate = q->ctrl & FPU_CTRL_NEG(i);
            in.src[i].abs = q->ctrl & FPU_CTRL_ABS(i);
        }
        in.nsrc = (uint8_t)ns;
        in.align16 = ns == 3;
        struct eu_enc_buf b = { .gen = 9 };
        eu_enc_emit(&b, &in);
        CU_ASSERT_EQUAL_FATAL(b.errors, 0);
        CU_ASSERT_FATAL(eu_decode(9, b.bytes, b.len, &e->d) == 16);
        eu_enc_free(&b);
        e->have = true;
        e->op = q->op;
        e->cond = q->cond;
        e->ctrl = q->ctrl;
    }
    struct eu_thread *t = e->t;
    eu_thread_init(t, 9, 0, 0, is_df(q) ? q->mask & 3u : q->mask);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned l = 0; l < FPU_LANES; l++)
            eu_grf_set_ud(t, 2 + i, l, q->src[i][l]);
    memcpy(t->arf[EU_ARF_CR0], &q->mode, 4);
    struct eu_send_request rq;
    CU_ASSERT_EQUAL(eu_exec(t, &e->d, &rq, 0), EU_STEP_OK);
    memset(r, 0, sizeof *r);
    for (unsigned l = 0; l < FPU_LANES; l++)
        r->result[l] = eu_grf_ud(t, 10, l);
    r->flags = eu_flag_get(t, 0) & (is_df(q) ? 3u : 15u);
}

static void describe(const struct fpu_request *q, char *buf, size_t n)
{
    snprintf(buf, n, "%s cond %u mask %x ctrl %#x mode %#x src0 %08x %08x %08x %08x "
             "src1 %08x %08x %08x %08x src2 %08x %08x %08x %08x", fpu_op_name(q->op), q->cond,
             q->mask, q->ctrl, q->mode, q->src[0][0], q->src[0][1], q->src[0][2], q->src[0][3],
             q->src[1][0], q->src[1][1], q->src[1][2], q->src[1][3], q->src[2][0], q->src[2][1],
             q->src[2][2], q->src[2][3]);
}

/* Compares n random requests; returns the mismatching lanes (printing the
 * first few). */
/* One request both ways; returns the lanes that differ (printing a few). */
static unsigned check_one(struct eu_side *e, const struct fpu_request *q, unsigned *shown)
{
    struct fpu_response a, x;
    CU_ASSERT_TRUE(fpu_compute(q, &a));
    eu_run(e, q, &x);
    unsigned bad = 0;
    for (unsigned l = 0; l < FPU_LANES; l++) {
        if (a.result[l] == x.result[l] && ((a.flags ^ x.flags) >> l & 1) == 0)
            continue;
        bad++;
        if ((*shown)++ < 10) {
            char buf[512];
            describe(q, buf, sizeof buf);
            fprintf(stderr, "\nfpu vs eu: %s: lane %u: result fpu %08x eu %08x, flag fpu %u "
                    "eu %u", buf, l, a.result[l], x.result[l], a.flags >> l & 1,
                    x.flags >> l & 1);
        }
    }
    return bad;
}

static unsigned compare_with_eu(uint64_t seed, unsigned n, unsigned *lanes)
{
    struct eu_side e = { .t = malloc(sizeof(struct eu_thread)) };
    struct fpu_gen g;
    fpu_gen_init(&g, seed);
    unsigned bad = 0, shown = 0;
    for (unsigned k = 0; k < n; k++) {
        struct fpu_request q;
        fpu_gen_request(&g, &q);
        bad += check_one(&e, &q, &shown);
        *lanes += FPU_LANES;
    }
    free(e.t);
    return bad;
}

static void test_fpu_matches_eu_executor(void)
{
    unsigned lanes = 0;
    unsigned bad = compare_with_eu(1, 50000, &lanes);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(lanes, 200000);
}


/* The same through a standalone EU unit (tests/support/eu_rig.h): each request
 * is a kernel - cr0.0 from the payload, the one instruction, the flags and the
 * result register out through an EOT send - dispatched to a real EU with the
 * sources as payload registers. Checks that what eu_exec computes alone is
 * what the EU unit computes (results, flags), not only the executor. */
static void test_fpu_matches_eu_unit_kernels(void)
{
    enum { SEND = 49 };
    struct fpu_gen g;
    fpu_gen_init(&g, 77);
    unsigned bad = 0, shown = 0, done = 0;
    for (unsigned k = 0; k < 300; k++) {
        struct fpu_request q;
        fpu_gen_request(&g, &q);
        q.mask = is_df(&q) ? 3 : 15;                /* every lane: the dispatch mask is 0xff */
        struct fpu_response want;
        fpu_compute(&q, &want);
        /* the kernel: eu_run's instruction, reading r2..r4 into r10 */
        struct eu_side e = { .t = malloc(sizeof(struct eu_thread)) };
        struct fpu_response direct;
        eu_run(&e, &q, &direct);                    /* and the executor alone */
        free(e.t);
        struct eu_enc_buf b = { .gen = 9 };
        struct eu_enc_insn m = { .opcode = OP_MOV, .exec_size = 1, .nsrc = 1, .nomask = true };
        m.dst = eu_enc_arf(0x80, 0, EU_TYPE_UD);                        /* cr0.0 */
        m.src[0] = eu_enc_scalar(5, 0, EU_TYPE_UD);
        eu_enc_emit(&b, &m);
        {
            /* the instruction eu_run uses */
            static const uint8_t opc[FPU_OP_COUNT] = { OP_ADD, OP_MUL, OP_MAD, OP_SEL, OP_CMP, OP_MOV };
            unsigned sty = (q.ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q.ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
            enum eu_type ft = is_df(&q) ? EU_TYPE_DF : EU_TYPE_F;
            enum eu_type st = q.op == FPU_OP_MOV ? eu_type_of(sty) : ft;
            enum eu_type dt = q.op == FPU_OP_MOV ? eu_type_of(dty) : ft;
            struct eu_enc_insn in = { .opcode = opc[q.op], .exec_size = is_df(&q) ? 2 : 4,
                                      .cond = q.cond, .sat = q.ctrl & FPU_CTRL_SAT };
            in.dst = eu_enc_grf(10, 0, dt);
            unsigned ns = q.op == FPU_OP_MOV ? 1 : q.op == FPU_OP_MAD ? 3 : 2;
            for (unsigned i = 0; i < ns; i++) {
                in.src[i] = ns == 3 ? eu_enc_grf(2 + i, 0, st) : src_opnd(&q, i, st);
                in.src[i].negate = q.ctrl & FPU_CTRL_NEG(i);
                in.src[i].abs = q.ctrl & FPU_CTRL_ABS(i);
            }
            in.nsrc = (uint8_t)ns;
            in.align16 = ns == 3;
            eu_enc_emit(&b, &in);
        }
        m.dst = eu_enc_grf(10, 16, EU_TYPE_UD);                         /* r10.4 = f0.0 */
        m.src[0] = eu_enc_rgn(eu_enc_arf(0x30, 0, EU_TYPE_UD), 0, 1, 0);
        eu_enc_emit(&b, &m);
        struct eu_enc_insn snd = { .opcode = SEND, .exec_size = 8, .nsrc = 1, .sfid = 10,
                                   .eot = true, .nomask = true };
        snd.dst = eu_enc_null(EU_TYPE_UD);
        snd.src[0] = eu_enc_grf(10, 0, EU_TYPE_UD);
        snd.desc = 1u << 25;
        eu_enc_emit(&b, &snd);
        CU_ASSERT_EQUAL_FATAL(b.errors, 0);

        struct sim *sim = probe_sim(NULL);
        struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
        struct unit *sf = probe_add(sim, &stub_sf_ops, "sf", NULL);
        const char *sink_over[] = { "per_cycle=4", NULL };
        struct unit *ends = probe_add(sim, &probe_sink_ops, "ends", sink_over);
        probe_link(sim, eu, "send", sf, "in", 1, 16, 4);
        probe_link(sim, sf, "out", eu, "writeback", 1, 16, 4);
        probe_link(sim, eu, "td", ends, "in", 1, 16, 4);
        rig_memory(sim);
        struct gt_error err;
        CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
        rig_load(sim, 0x10000, &b);
        uint32_t regs[6][8];
        memset(regs, 0, sizeof regs);
        for (unsigned i = 0; i < 3; i++)
            for (unsigned l = 0; l < FPU_LANES; l++)
                regs[2 + i][l] = q.src[i][l];
        regs[5][0] = q.mode;
        struct msg *dm = rig_dispatch_msg(sim, 0x10000, 0, 8, (const uint32_t (*)[8])regs, 6, 1, 0);
        CU_ASSERT_TRUE(port_inject(unit_port(eu, "dispatch", 0), dm));
        CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
        struct stub_sf *st = unit_state(sf);
        CU_ASSERT_EQUAL_FATAL(st->eots, 1);
        uint32_t lanes_mask = is_df(&q) ? 3u : 15u;
        bool ok = true;
        for (unsigned l = 0; l < FPU_LANES; l++)
            ok &= st->eot_first[0][l] == want.result[l] && direct.result[l] == want.result[l];
        ok &= (st->eot_first[0][4] & lanes_mask) == want.flags && direct.flags == want.flags;
        if (!ok) {
            bad++;
            if (shown++ < 5) {
                char buf[512];
                describe(&q, buf, sizeof buf);
                fprintf(stderr, "\nfpu vs eu unit: %s: fpu %08x %08x %08x %08x flags %x, eu unit "
                        "%08x %08x %08x %08x flags %x", buf, want.result[0], want.result[1],
                        want.result[2], want.result[3], want.flags, st->eot_first[0][0],
                        st->eot_first[0][1], st->eot_first[0][2], st->eot_first[0][3],
                        st->eot_first[0][4] & lanes_mask);
            }
        }
        done++;
        sim_destroy(sim);
        eu_enc_free(&b);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(done, 300);
}

/* Every pair of special operands (MAD: every triple) in every rounding mode,
 * denormal mode and F->int mode, with and without .sat, every condition. */
static void test_fpu_specials_match_eu(void)
{
    struct eu_side e = { .t = malloc(sizeof(struct eu_thread)) };
    const unsigned n = FPU_SPECIAL_F_COUNT;
    unsigned bad = 0, shown = 0, requests = 0;
    struct fpu_request q;
    for (unsigned mode = 0; mode < 32; mode++) {
        uint32_t cr0 = (mode & 3) << FPU_MODE_RM_SHIFT | ((mode & 4) ? FPU_MODE_SP_DENORM : 0) |
                       ((mode & 8) ? FPU_MODE_F2I_RM : 0) | ((mode & 16) ? FPU_MODE_IEEE_MINMAX : 0);
        for (unsigned op = 0; op < FPU_OP_COUNT; op++)
            for (unsigned cm = 0; cm <= 9; cm++) {
                if (cm == 7 || (op == FPU_OP_CMP && cm == 0) || (op == FPU_OP_SEL && cm == 0))
                    continue;
                if ((mode & 8) && op != FPU_OP_MOV)
                    continue;                   /* cr0.0[12] only matters to F->int */
                if ((mode & 16) && op != FPU_OP_SEL)
                    continue;                   /* cr0.0[11] only to min/max */
                for (unsigned k = 0; k < n * n; k += 4) {
                    memset(&q, 0, sizeof q);
                    q.op = (uint8_t)op;
                    q.cond = (uint8_t)cm;
                    q.mask = 15;
                    q.mode = cr0;
                    q.ctrl = (k / 4 % 2) ? FPU_CTRL_SAT : 0;
                    if (k / 4 % 7 == 3)
                        q.ctrl |= FPU_CTRL_NEG(0) | FPU_CTRL_ABS(1);
                    if (op == FPU_OP_MOV)
                        q.ctrl |= (k / 8 % 3) << FPU_CTRL_DTYPE_SHIFT;
                    for (unsigned l = 0; l < 4; l++) {
                        unsigned p = k + l;
                        q.src[0][l] = fpu_special_f[p / n % n];
                        q.src[1][l] = fpu_special_f[p % n];
                        q.src[2][l] = fpu_special_f[(p * 7) % n];
                    }
                    bad += check_one(&e, &q, &shown);
                    requests++;
                }
            }
        if (mode & 24)
            continue;
        for (unsigned k = 0; k < n * n * n; k += 4) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 15;
            q.mode = cr0;
            for (unsigned l = 0; l < 4; l++) {
                unsigned p = k + l;
                q.src[0][l] = fpu_special_f[p / (n * n) % n];
                q.src[1][l] = fpu_special_f[p / n % n];
                q.src[2][l] = fpu_special_f[p % n];
            }
            bad += check_one(&e, &q, &shown);
            requests++;
        }
    }
    free(e.t);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(requests > 150000);
}

/* DF: every pair of DF specials (MAD: every triple) for every op and
 * condition, DF <-> F/D/UD conversions of the DF and F specials, in every
 * rounding mode and DF/SP denormal mode. */
static void test_fpu_df_specials_match_eu(void)
{
    struct eu_side e = { .t = malloc(sizeof(struct eu_thread)) };
    const unsigned n = FPU_SPECIAL_D_COUNT;
    unsigned bad = 0, shown = 0, requests = 0;
    struct fpu_request q;
    for (unsigned mode = 0; mode < 64; mode++) {
        uint32_t cr0 = (mode & 3) << FPU_MODE_RM_SHIFT | ((mode & 4) ? FPU_MODE_DP_DENORM : 0) |
                       ((mode & 8) ? FPU_MODE_SP_DENORM : 0) | ((mode & 16) ? FPU_MODE_F2I_RM : 0) |
                       ((mode & 32) ? FPU_MODE_IEEE_MINMAX : 0);
        for (unsigned op = 0; op < FPU_OP_COUNT; op++)
            for (unsigned cm = 0; cm <= 9; cm++) {
                if (cm == 7 || (op == FPU_OP_CMP && cm == 0) || (op == FPU_OP_SEL && cm == 0))
                    continue;
                if ((mode & 24) && op != FPU_OP_MOV)
                    continue;
                if ((mode & 32) && (op != FPU_OP_SEL || (mode & 24)))
                    continue;                   /* cr0.0[11] only to min/max */
                for (unsigned k = 0; k < n * n; k += 2) {
                    memset(&q, 0, sizeof q);
                    q.op = (uint8_t)op;
                    q.cond = (uint8_t)cm;
                    q.mask = 3;
                    q.mode = cr0;
                    q.ctrl = (k / 2 % 2) ? FPU_CTRL_SAT : 0;
                    if (k / 2 % 7 == 3)
                        q.ctrl |= FPU_CTRL_NEG(0) | FPU_CTRL_ABS(1);
                    if (op == FPU_OP_MOV) {
                        unsigned sty = k / 4 % 2 ? FPU_T_DF : (k / 8 % 3);
                        unsigned dty = sty == FPU_T_DF ? k / 8 % 4 : FPU_T_DF;
                        q.ctrl |= sty << FPU_CTRL_STYPE_SHIFT | dty << FPU_CTRL_DTYPE_SHIFT;
                        if (sty == FPU_T_F) {
                            for (unsigned l = 0; l < 2; l++)
                                q.src[0][l] = fpu_special_f[(k + l) % FPU_SPECIAL_F_COUNT];
                            bad += check_one(&e, &q, &shown);
                            requests++;
                            continue;
                        }
                    } else {
                        q.ctrl |= FPU_CTRL_DF;
                    }
                    for (unsigned l = 0; l < 2; l++) {
                        unsigned p = k + l;
                        uint64_t v[3] = { fpu_special_d[p / n % n], fpu_special_d[p % n],
                                          fpu_special_d[(p * 7) % n] };
                        for (unsigned i = 0; i < 3; i++) {
                            q.src[i][2 * l] = (uint32_t)v[i];
                            q.src[i][2 * l + 1] = (uint32_t)(v[i] >> 32);
                        }
                    }
                    bad += check_one(&e, &q, &shown);
                    requests++;
                }
            }
        if (mode & 56)
            continue;
        for (unsigned k = 0; k < n * n * n; k += 2) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 3;
            q.mode = cr0;
            q.ctrl = FPU_CTRL_DF;
            for (unsigned l = 0; l < 2; l++) {
                unsigned p = k + l;
                uint64_t v[3] = { fpu_special_d[p / (n * n) % n], fpu_special_d[p / n % n],
                                  fpu_special_d[p % n] };
                for (unsigned i = 0; i < 3; i++) {
                    q.src[i][2 * l] = (uint32_t)v[i];
                    q.src[i][2 * l + 1] = (uint32_t)(v[i] >> 32);
                }
            }
            bad += check_one(&e, &q, &shown);
            requests++;
        }
    }
    free(e.t);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(requests > 200000);
}

/* Values worked out from the seed, not from either model. */
static uint32_t one(unsigned op, unsigned cond, uint32_t ctrl, uint32_t mode, uint32_t a,
                    uint32_t b, uint32_t c, bool *flag)
{
    struct fpu_request q = { .op = (uint8_t)op, .cond = (uint8_t)cond, .mask = 1, .ctrl = ctrl,
                             .mode = mode };
    q.src[0][0] = a;
    q.src[1][0] = b;
    q.src[2][0] = c;
    struct fpu_response r;
    CU_ASSERT_TRUE(fpu_compute(&q, &r));
    if (flag)
        *flag = r.flags & 1;
    return r.result[0];
}

#define RM(x) ((uint32_t)(x) << FPU_MODE_RM_SHIFT)
#define MOVTO(t) ((uint32_t)(t) << FPU_CTRL_DTYPE_SHIFT)

#define MOVFROM(t) ((uint32_t)(t) << FPU_CTRL_STYPE_SHIFT)

/* The rules the EU executor used to miss, values from the seed's text. */
static void test_fpu_seed_rules(void)
{
    bool f;
    /* int -> F "use the current rounding mode" (L21694-21700): 2^24 + 1 */
    static const uint32_t up[4] = { 0x4b800000, 0x4b800001, 0x4b800000, 0x4b800000 };
    for (unsigned rm = 0; rm < 4; rm++) {
        CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVFROM(FPU_T_D) | MOVTO(FPU_T_F), RM(rm), 0x01000001,
                            0, 0, NULL), up[rm]);
        CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVFROM(FPU_T_UD) | MOVTO(FPU_T_F), RM(rm), 0x01000001,
                            0, 0, NULL), up[rm]);
    }
    /* post conditions after conversion and flush, before .sat (L20866-20873) */
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, FPU_CM_Z, MOVTO(FPU_T_D), 0, 0x3f000000, 0, 0, &f), 0);
    CU_ASSERT_TRUE(f);                                      /* mov.z (D<-F) 0.5 */
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, FPU_CM_L, MOVTO(FPU_T_UD), 0, 0xbf800000, 0, 0, &f), 0);
    CU_ASSERT_FALSE(f);                                     /* mov.l (UD<-F) -1.0 */
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, FPU_CM_Z, 0, 0, 0x0d800000, 0x2b800000, 0, &f), 0);
    CU_ASSERT_TRUE(f);                                      /* 2^-100 * 2^-40 flushes to 0 */
    one(FPU_OP_MUL, FPU_CM_Z, 0, FPU_MODE_SP_DENORM, 0x0d800000, 0x2b800000, 0, &f);
    CU_ASSERT_FALSE(f);                                     /* kept denormal: not zero */
    one(FPU_OP_MOV, FPU_CM_Z, MOVTO(FPU_T_D), 0, 0x7fc00000, 0, 0, &f);
    CU_ASSERT_FALSE(f);                                     /* NaN -> 0, NC forces false */
    /* cr0.0[11] IEEE min/max (L20025-20029, L21702-21739) */
    const uint32_t IEEE = FPU_MODE_IEEE_MINMAX;
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, 0, 0x7f800001, 0x3f800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, IEEE, 0x7f800001, 0x3f800000, 0, NULL), 0x7fc00001);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_GE, 0, IEEE, 0x3f800000, 0xff800002, 0, NULL), 0xffc00002);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_GE, 0, IEEE, 0x7fc00003, 0x7f800001, 0, NULL), 0x7fc00001);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_GE, 0, 0, 0x7fc00003, 0x7f800001, 0, NULL), 0x7fc00003);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, 0, 0x7fc00000, 0x3f800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, IEEE, 0x7fc00000, 0x3f800000, 0, NULL), 0x3f800000);
    /* DF min of two sNaNs: "qNaN (of the first source)" (L21732) */
    struct fpu_request dq = { .op = FPU_OP_SEL, .cond = FPU_CM_L, .mask = 1, .ctrl = FPU_CTRL_DF };
    dq.src[0][0] = 1;
    dq.src[0][1] = 0x7ff00000;
    dq.src[1][0] = 2;
    dq.src[1][1] = 0xfff00000;
    struct fpu_response dr;
    CU_ASSERT_TRUE(fpu_compute(&dq, &dr));
    CU_ASSERT(dr.result[0] == 1 && dr.result[1] == 0x7ff80000);
    /* sNaNs quietened except by raw moves (L21565, L21813-21821) */
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, 0, 0, 0x7f800001, 0, 0, NULL), 0x7f800001);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, FPU_CTRL_NEG(0), 0, 0x7f800001, 0, 0, NULL), 0xffc00001);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, FPU_CTRL_ABS(0), 0, 0xff800001, 0, 0, NULL), 0x7fc00001);
    /* a same-type mov keeps denormals under the flushing default cr0, raw,
     * with .sat or with a source modifier (004 L22970-22974); ADD flushes */
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, 0, 0, 0x00000003, 0, 0, NULL), 0x00000003);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, FPU_CTRL_SAT, 0, 0x00000003, 0, 0, NULL), 0x00000003);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, FPU_CTRL_NEG(0), 0, 0x00000003, 0, 0, NULL), 0x80000003);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, FPU_CM_Z, 0, 0, 0x00000003, 0, 0, &f), 0x00000003);
    CU_ASSERT_FALSE(f);                                     /* the value held is not zero */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, 0, 0x00000003, 0, 0, NULL), 0);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), 0, 0x00000003, 0, 0, NULL), 0);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_NZ, 0, 0, 0x7f800001, 0x3f800000, 0, NULL), 0x7fc00001);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_G, 0, 0, 0x7f800001, 0x3f800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_G, 0, 0, 0x3f800000, 0xff800001, 0, NULL), 0xffc00001);
    /* .o: outside the destination type's range (L20890) */
    one(FPU_OP_MUL, FPU_CM_O, 0, 0, 0x7f000000, 0x40000000, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* 2^127 * 2 */
    one(FPU_OP_MUL, FPU_CM_O, 0, 0, 0x7f800000, 0x40000000, 0, &f);
    CU_ASSERT_FALSE(f);                                     /* inf * 2: exact */
    one(FPU_OP_ADD, FPU_CM_O, 0, 0, 0x3f800000, 0x40000000, 0, &f);
    CU_ASSERT_FALSE(f);
    one(FPU_OP_MOV, FPU_CM_O, MOVTO(FPU_T_D), 0, 0x7f800000, 0, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* inf -> D (named by L20890) */
    one(FPU_OP_MOV, FPU_CM_O, MOVTO(FPU_T_D), 0, 0x4f000000, 0, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* 2^31 */
    one(FPU_OP_MOV, FPU_CM_O, MOVTO(FPU_T_D), 0, 0x4effffff, 0, 0, &f);
    CU_ASSERT_FALSE(f);
    one(FPU_OP_MOV, FPU_CM_O, MOVTO(FPU_T_UD), 0, 0xbf800000, 0, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* -1.0 -> UD */
    one(FPU_OP_MOV, FPU_CM_O, MOVFROM(FPU_T_D) | MOVTO(FPU_T_UD), 0, 0xffffffff, 0, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* -1 -> UD */
    one(FPU_OP_MOV, FPU_CM_O, MOVFROM(FPU_T_UD) | MOVTO(FPU_T_D), 0, 0x7fffffff, 0, 0, &f);
    CU_ASSERT_FALSE(f);
    one(FPU_OP_MOV, FPU_CM_O, MOVFROM(FPU_T_D) | MOVTO(FPU_T_D) | FPU_CTRL_NEG(0), 0, 0x80000000,
        0, 0, &f);
    CU_ASSERT_TRUE(f);                                      /* -(-2^31) */
    /* DF -> F: 1e300 overflows F */
    dq = (struct fpu_request){ .op = FPU_OP_MOV, .cond = FPU_CM_O, .mask = 1,
                               .ctrl = MOVFROM(FPU_T_DF) | MOVTO(FPU_T_F) };
    dq.src[0][1] = 0x7e37e43c;
    CU_ASSERT_TRUE(fpu_compute(&dq, &dr));
    CU_ASSERT_EQUAL(dr.result[0], 0x7f800000);
    CU_ASSERT_EQUAL(dr.flags & 1, 1);
}

static void test_fpu_seed_values(void)
{
    bool f;
    /* rounding (L21575-21610): 1 + 2^-24 is a tie; 1 + 1.5*2^-24 is not */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(0), 0x3f800000, 0x33800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(1), 0x3f800000, 0x33800000, 0, NULL), 0x3f800001);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(2), 0x3f800000, 0x33800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(3), 0x3f800000, 0x33800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(0), 0x3f800000, 0x33c00000, 0, NULL), 0x3f800001);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(2), 0xbf800000, 0xb3800000, 0, NULL), 0xbf800001);
    /* overflow by mode (L21611-21614): +inf/+fmax, -fmax/-inf */
    static const uint32_t pos[4] = { 0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff };
    static const uint32_t neg[4] = { 0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff };
    for (unsigned rm = 0; rm < 4; rm++) {
        CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, RM(rm), 0x7f7fffff, 0x40000000, 0, NULL), pos[rm]);
        CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, RM(rm), 0xff7fffff, 0x40000000, 0, NULL), neg[rm]);
    }
    /* x - x = +0, -0 under RD (L21614); -0 + 0 = +0 */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(0), 0x40400000, 0xc0400000, 0, NULL), 0x00000000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(2), 0x40400000, 0xc0400000, 0, NULL), 0x80000000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, RM(0), 0x80000000, 0x00000000, 0, NULL), 0x00000000);
    /* inf - inf, 0 * inf: NaN (L21388-21389) */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, 0, 0x7f800000, 0xff800000, 0, NULL) & 0x7fc00000,
                    0x7fc00000);
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, 0, 0x00000000, 0xff800000, 0, NULL) & 0x7fc00000,
                    0x7fc00000);
    /* an sNaN source comes out quietened, payload kept (L21556-21571) */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, 0, 0, 0x7f800001, 0x3f800000, 0, NULL), 0x7fc00001);
    /* denormals (cr0.0[7]): flushed as sources and results, or kept */
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, 0, 0x00000001, 0x3f800000, 0, NULL), 0x00000000);
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, FPU_MODE_SP_DENORM, 0x00000001, 0x3f800000, 0, NULL),
                    0x00000001);
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, 0, 0x00800000, 0x3f000000, 0, NULL), 0x00000000);
    CU_ASSERT_EQUAL(one(FPU_OP_MUL, 0, 0, FPU_MODE_SP_DENORM, 0x00800000, 0x3f000000, 0, NULL),
                    0x00400000);
    /* mad is fused (L21622-21635): (1+2^-23)(1-2^-23) - 1 = -2^-46, not 0 */
    CU_ASSERT_EQUAL(one(FPU_OP_MAD, 0, 0, 0, 0xbf800000, 0x3f800001, 0x3f7ffffe, NULL),
                    0xa8800000);
    /* min/max (L21702-21739): a NaN is ignored; -0 < +0 */
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, 0, 0x7fc00000, 0x3f800000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_GE, 0, 0, 0x3f800000, 0xffc00000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_L, 0, 0, 0x00000000, 0x80000000, 0, NULL), 0x80000000);
    CU_ASSERT_EQUAL(one(FPU_OP_SEL, FPU_CM_GE, 0, 0, 0x80000000, 0x00000000, 0, NULL), 0x00000000);
    /* cmp with a NaN: EQ..LE false, NE true (L21396) */
    CU_ASSERT_EQUAL(one(FPU_OP_CMP, FPU_CM_Z, 0, 0, 0x7fc00000, 0x7fc00000, 0, &f), 0);
    CU_ASSERT_FALSE(f);
    CU_ASSERT_EQUAL(one(FPU_OP_CMP, FPU_CM_NZ, 0, 0, 0x7fc00000, 0x3f800000, 0, &f), 0xffffffff);
    CU_ASSERT_TRUE(f);
    one(FPU_OP_CMP, FPU_CM_Z, 0, 0, 0x80000000, 0x00000000, 0, &f);      /* -0 == +0 */
    CU_ASSERT_TRUE(f);
    /* .sat (notes: [0,1], NaN -> 0) */
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, FPU_CTRL_SAT, 0, 0x3f800000, 0x3f000000, 0, NULL), 0x3f800000);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, FPU_CTRL_SAT, 0, 0xbf800000, 0x3f000000, 0, NULL), 0);
    CU_ASSERT_EQUAL(one(FPU_OP_ADD, 0, FPU_CTRL_SAT, 0, 0x7fc00000, 0x3f000000, 0, NULL), 0);
    /* F -> D/UD (L21657-21693, L22066-22076): RTZ, or cr0 rounding with cr0.0[12] */
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), RM(1), 0x40200000, 0, 0, NULL), 2);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), RM(0) | FPU_MODE_F2I_RM, 0x40200000, 0, 0,
                        NULL), 2);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), RM(1) | FPU_MODE_F2I_RM, 0x40200000, 0, 0,
                        NULL), 3);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), RM(2) | FPU_MODE_F2I_RM, 0xc0200000, 0, 0,
                        NULL), 0xfffffffd);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), 0, 0x7fc00000, 0, 0, NULL), 0);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), 0, 0x7f800000, 0, 0, NULL), 0x7fffffff);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_D), 0, 0xff800000, 0, 0, NULL), 0x80000000);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_UD), 0, 0x7f800000, 0, 0, NULL), 0xffffffff);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_UD), 0, 0xbf800000, 0, 0, NULL), 0);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, MOVTO(FPU_T_UD), 0, 0x4f800000, 0, 0, NULL), 0xffffffff);
    /* int -> F: 2^24 + 1 is a tie -> even; never -0 (L21694-21700) */
    uint32_t d2f = (uint32_t)FPU_T_D << FPU_CTRL_STYPE_SHIFT;
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, d2f, 0, 0x01000001, 0, 0, NULL), 0x4b800000);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, d2f, 0, 0x80000000, 0, 0, NULL), 0xcf000000);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, d2f | FPU_CTRL_NEG(0), 0, 0, 0, 0, NULL), 0);
    /* D <-> UD: wrap, or clamp with .sat */
    uint32_t d2ud = d2f | MOVTO(FPU_T_UD);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, d2ud, 0, 0xffffffff, 0, 0, NULL), 0xffffffff);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, d2ud | FPU_CTRL_SAT, 0, 0xffffffff, 0, 0, NULL), 0);
    uint32_t ud2d = (uint32_t)FPU_T_UD << FPU_CTRL_STYPE_SHIFT | MOVTO(FPU_T_D);
    CU_ASSERT_EQUAL(one(FPU_OP_MOV, 0, ud2d | FPU_CTRL_SAT, 0, 0x80000000, 0, 0, NULL), 0x7fffffff);
    /* a conditional modifier sees the result before .sat */
    one(FPU_OP_ADD, FPU_CM_L, FPU_CTRL_SAT, 0, 0xbf800000, 0x3f000000, 0, &f);
    CU_ASSERT_TRUE(f);
    /* DF: two lanes; 1 + 2^-53 is a tie in double; F -> DF quietens an sNaN;
     * DF -> F overflows by mode and rounds by mode */
    struct fpu_request dq = { .op = FPU_OP_ADD, .mask = 3, .ctrl = FPU_CTRL_DF, .mode = RM(1) };
    dq.src[0][1] = 0x3ff00000;                              /* 1.0 */
    dq.src[1][1] = 0x3ca00000;                              /* 2^-53 */
    struct fpu_response dr;
    CU_ASSERT_TRUE(fpu_compute(&dq, &dr));
    CU_ASSERT(dr.result[0] == 1 && dr.result[1] == 0x3ff00000);    /* RU: 1 + 2^-52 */
    CU_ASSERT(dr.result[2] == 0 && dr.result[3] == 0);               /* lane 1: 0 + 0 */
    dq.mode = RM(0);
    CU_ASSERT_TRUE(fpu_compute(&dq, &dr));
    CU_ASSERT(dr.result[0] == 0 && dr.result[1] == 0x3ff00000);    /* RTNE: 1.0 */
    struct fpu_request cq = { .op = FPU_OP_MOV, .mask = 3,
                              .ctrl = FPU_T_F << FPU_CTRL_STYPE_SHIFT | MOVTO(FPU_T_DF) };
    cq.src[0][0] = 0x7f800001;
    cq.src[0][1] = 0xc0400000;                              /* -3.0 */
    CU_ASSERT_TRUE(fpu_compute(&cq, &dr));
    CU_ASSERT(dr.result[0] == 0x20000000 && dr.result[1] == 0x7ff80000);
    CU_ASSERT(dr.result[2] == 0 && dr.result[3] == 0xc0080000);
    cq.ctrl = FPU_T_DF << FPU_CTRL_STYPE_SHIFT | MOVTO(FPU_T_F);
    cq.src[0][0] = 0;
    cq.src[0][1] = 0x47f00000;                              /* 2^128 */
    cq.src[0][2] = 0x10000000;
    cq.src[0][3] = 0x3ff00000;                              /* 1 + 2^-24: a float tie */
    static const uint32_t big[4] = { 0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff };
    static const uint32_t tie[4] = { 0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000 };
    for (unsigned rm = 0; rm < 4; rm++) {
        cq.mode = RM(rm);
        CU_ASSERT_TRUE(fpu_compute(&cq, &dr));
        CU_ASSERT_EQUAL(dr.result[0], big[rm]);
        CU_ASSERT_EQUAL(dr.result[1], tie[rm]);
    }
    /* bad requests: ALT mode, unknown op, MBZ */
    struct fpu_request q = { .op = FPU_OP_ADD, .mask = 15, .mode = FPU_MODE_ALT };
    struct fpu_response r;
    CU_ASSERT_FALSE(fpu_compute(&q, &r));
    CU_ASSERT_EQUAL(r.status, 1);
    q.mode = 0;
    q.op = FPU_OP_COUNT;
    CU_ASSERT_FALSE(fpu_compute(&q, &r));
    q.op = FPU_OP_ADD;
    q.pad = 1;
    CU_ASSERT_FALSE(fpu_compute(&q, &r));
}

/* ---- the unit through its ports ------------------------------------------------ */

struct rig {
    struct sim *sim;
    struct unit *fpu, *sink;
};

static struct rig make_rig(const char *const *fpu_over, const char *const *sink_over,
                           uint32_t capacity)
{
    struct rig g = { .sim = probe_sim(NULL) };
    g.fpu = probe_add(g.sim, unit_kind_find("fpu"), "fpu", fpu_over);
    g.sink = probe_add(g.sim, &probe_sink_ops, "sink", sink_over);
    CU_ASSERT_EQUAL(probe_link(g.sim, g.fpu, "response", g.sink, "in", 1, capacity, 1), 0);
    return g;
}

static void inject(struct rig *g, uint32_t tag, uint32_t size)
{
    struct msg *m = msg_alloc(g->sim, MSG_GENERIC, size);
    struct fpu_request q = { .op = FPU_OP_ADD, .mask = 15 };
    for (unsigned l = 0; l < FPU_LANES; l++) {
        q.src[0][l] = 0x3f800000;               /* 1 + (tag + l) */
        float b = (float)(tag + l);
        memcpy(&q.src[1][l], &b, 4);
    }
    memcpy(m->payload, &q, size < sizeof q ? size : sizeof q);
    m->tag = tag;
    CU_ASSERT(port_inject(unit_port(g->fpu, "request", 0), m));
}

/* Three requests visible at cycle 0 are taken at 0, 1, 2 and sent depth
 * cycles later; the sink sees them one cycle after that. */
static void test_fpu_unit_timing(void)
{
    for (unsigned depth = 1; depth <= 7; depth += 3) {
        char over[32];
        snprintf(over, sizeof over, "depth=%u", depth);
        const char *fpu_over[] = { over, NULL };
        struct rig g = make_rig(fpu_over, NULL, 4);
        inject(&g, 10, sizeof(struct fpu_request));
        inject(&g, 11, sizeof(struct fpu_request));
        inject(&g, 12, sizeof(struct fpu_request) - 1);         /* short: a bad request */
        CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
        CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
        struct probe_sink *d = unit_state(g.sink);
        CU_ASSERT_EQUAL_FATAL(d->received, 3);
        for (unsigned k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL(d->tag[k], 10 + k);
            CU_ASSERT_EQUAL(d->cycle[k], k + depth + 1);
        }
        CU_ASSERT_EQUAL(probe_stat(g.sim, "fpu.requests"), 3);
        CU_ASSERT_EQUAL(probe_stat(g.sim, "fpu.lane_ops"), 8);      /* not the bad one */
        CU_ASSERT_EQUAL(probe_stat(g.sim, "fpu.bad_requests"), 1);
        sim_destroy(g.sim);
    }
}

/* Capacity 1 and a sink that pops from cycle 20: the first result (sent at
 * 4, depth 4, seen at 5) fills the channel; the second waits in the last stage
 * from 5 and the whole pipe holds until the slot freed at 20 is usable at 21
 * (seen at 22, popped then); the third holds at 22, leaves at 23, seen at 24:
 * 16 + 1 stall cycles. */
static void test_fpu_unit_backpressure_and_values(void)
{
    const char *sink_over[] = { "start_cycle=20", NULL };
    struct rig g = make_rig(NULL, sink_over, 1);
    for (uint32_t t = 0; t < 3; t++)
        inject(&g, t, sizeof(struct fpu_request));
    CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *d = unit_state(g.sink);
    CU_ASSERT_EQUAL_FATAL(d->received, 3);
    CU_ASSERT_EQUAL(d->cycle[0], 20);
    CU_ASSERT_EQUAL(d->cycle[1], 22);
    CU_ASSERT_EQUAL(d->cycle[2], 24);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "fpu.stall_cycles"), 17);   /* 5..20, 22 */
    sim_destroy(g.sim);
    /* the values through the ports */
    const char *keep[] = { "per_cycle=0", NULL };
    g = make_rig(NULL, keep, 4);
    inject(&g, 5, sizeof(struct fpu_request));
    CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(g.sim, 50 * 1000), SIM_STOP_TIME_LIMIT);
    struct msg *m = port_pop(unit_port(g.sink, "in", 0));
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->tag, 5);
    CU_ASSERT_EQUAL(m->size, sizeof(struct fpu_response));
    const struct fpu_response *r = (const void *)m->payload;
    for (unsigned l = 0; l < FPU_LANES; l++) {
        float x;
        memcpy(&x, &r->result[l], 4);
        CU_ASSERT_EQUAL(x, 1.0f + (float)(5 + l));
    }
    CU_ASSERT_EQUAL(r->status, 0);
    msg_free(g.sim, m);
    sim_destroy(g.sim);
}

static const struct test_case cases[] = {
    { "fpu matches the EU executor on 50k random SIMD4 instructions", test_fpu_matches_eu_executor },
    { "fpu matches a standalone EU unit running 300 one-instruction kernels",
      test_fpu_matches_eu_unit_kernels },
    { "fpu matches the EU executor on every pair/triple of special operands in every mode",
      test_fpu_specials_match_eu },
    { "DF: every pair/triple of DF specials and DF conversions in every mode, against eu_exec",
      test_fpu_df_specials_match_eu },
    { "values worked out from the seed", test_fpu_seed_values },
    { "seed rules: int->F rounding, post conditions, IEEE min/max, sNaN, .o", test_fpu_seed_rules },
    { "unit timing: depth cycles, one per cycle, bad requests", test_fpu_unit_timing },
    { "unit back-pressure holds the pipe; values and tags through the ports",
      test_fpu_unit_backpressure_and_values },
    { 0 }
};
TEST_SUITE(fpu, cases);
