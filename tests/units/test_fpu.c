/* tests/units/test_fpu.c - the FPU pipe (units/fpu) against the EU executor
 * (units/eu/eu_exec.c): every request also runs as a one-instruction SIMD4
 * kernel (encoded by units/eu/eu_encode.h, decoded, executed on one thread with
 * cr0.0 set from the request's mode), and results and flags must agree bit for
 * bit. Plus the pipe's timing and back-pressure through the fabric. */
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
#include "units/eu/eu_encode.h"
#include "units/eu/eu_exec.h"
#include "units/fpu/fpu.h"
#include "units/fpu/fpu_gen.h"
#include "units/registry.h"

enum { OP_MOV = 1, OP_SEL = 2, OP_CMP = 16, OP_ADD = 64, OP_MUL = 65, OP_MAD = 91 };

static enum eu_type eu_type_of(unsigned t)
{
    return t == FPU_T_F ? EU_TYPE_F : t == FPU_T_D ? EU_TYPE_D : EU_TYPE_UD;
}

static struct eu_enc_opnd src_opnd(const struct fpu_request *q, unsigned i, enum eu_type ty)
{
    struct eu_enc_opnd o = eu_enc_grf(2 + i, 0, ty);
    o = eu_enc_rgn(o, 4, 4, 1);
    o.negate = q->ctrl & FPU_CTRL_NEG(i);
    o.abs = q->ctrl & FPU_CTRL_ABS(i);
    return o;
}

/* Runs q through the EU executor; fills r as the FPU would. */
static void eu_run(const struct fpu_request *q, struct fpu_response *r)
{
    static const uint8_t opc[FPU_OP_COUNT] = { OP_ADD, OP_MUL, OP_MAD, OP_SEL, OP_CMP, OP_MOV };
    unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
    enum eu_type st = q->op == FPU_OP_MOV ? eu_type_of(sty) : EU_TYPE_F;
    enum eu_type dt = q->op == FPU_OP_MOV ? eu_type_of(dty) : EU_TYPE_F;
    struct eu_enc_insn in = { .opcode = opc[q->op], .exec_size = 4, .cond = q->cond,
                              .sat = q->ctrl & FPU_CTRL_SAT };
    in.dst = eu_enc_grf(10, 0, dt);
    unsigned ns = q->op == FPU_OP_MOV ? 1 : q->op == FPU_OP_MAD ? 3 : 2;
    for (unsigned i = 0; i < ns; i++)
        in.src[i] = src_opnd(q, i, st);
    in.nsrc = (uint8_t)ns;
    if (ns == 3) {
        in.align16 = true;
        for (unsigned i = 0; i < 3; i++)
            in.src[i] = eu_enc_grf(2 + i, 0, st), in.src[i].negate = q->ctrl & FPU_CTRL_NEG(i),
            in.src[i].abs = q->ctrl & FPU_CTRL_ABS(i);
    }
    struct eu_enc_buf b = { .gen = 9 };
    eu_enc_emit(&b, &in);
    CU_ASSERT_EQUAL_FATAL(b.errors, 0);
    struct eu_thread *t = malloc(sizeof *t);
    eu_thread_init(t, 9, 0, 0, q->mask);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned l = 0; l < FPU_LANES; l++)
            eu_grf_set_ud(t, 2 + i, l, q->src[i][l]);
    memcpy(t->arf[EU_ARF_CR0], &q->mode, 4);
    struct eu_instruction d;
    CU_ASSERT_FATAL(eu_decode(9, b.bytes, b.len, &d) == 16);
    struct eu_send_request rq;
    CU_ASSERT_EQUAL(eu_exec(t, &d, &rq, 0), EU_STEP_OK);
    memset(r, 0, sizeof *r);
    for (unsigned l = 0; l < FPU_LANES; l++)
        r->result[l] = eu_grf_ud(t, 10, l);
    r->flags = eu_flag_get(t, 0) & 15;
    free(t);
    eu_enc_free(&b);
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
static unsigned compare_with_eu(uint64_t seed, unsigned n, unsigned *lanes)
{
    struct fpu_gen g;
    fpu_gen_init(&g, seed);
    unsigned bad = 0, shown = 0;
    for (unsigned k = 0; k < n; k++) {
        struct fpu_request q;
        struct fpu_response a, e;
        fpu_gen_request(&g, &q);
        CU_ASSERT_TRUE(fpu_compute(&q, &a));
        eu_run(&q, &e);
        for (unsigned l = 0; l < FPU_LANES; l++) {
            (*lanes)++;
            if (a.result[l] == e.result[l] && ((a.flags ^ e.flags) >> l & 1) == 0)
                continue;
            bad++;
            if (shown++ < 10) {
                char buf[512];
                describe(&q, buf, sizeof buf);
                fprintf(stderr, "\nfpu vs eu: %s: lane %u: result fpu %08x eu %08x, flag fpu %u "
                        "eu %u", buf, l, a.result[l], e.result[l], a.flags >> l & 1,
                        e.flags >> l & 1);
            }
        }
    }
    return bad;
}

static void test_fpu_matches_eu_executor(void)
{
    unsigned lanes = 0;
    unsigned bad = compare_with_eu(1, 50000, &lanes);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(lanes, 200000);
}

static const struct test_case cases[] = {
    { "fpu matches the EU executor on 50k random SIMD4 instructions", test_fpu_matches_eu_executor },
    { 0 }
};
TEST_SUITE(fpu, cases);
