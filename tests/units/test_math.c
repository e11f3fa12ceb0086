/* tests/units/test_math.c - the Gen4 extended math shared function
 * (units/math/math.h): the functions against values worked out from their
 * definitions (003 L24065-24250: INV 1/x, LOG log2, EXP 2^x, ..., INT DIV
 * sign rules L24244), the message layout (operands, SINCOS and INT DIV
 * quotient+remainder replies, saturate, scalar), bad programming, and the
 * unit answering a real EU's SEND to SFID 1 through its ports. */
#include "../test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "units/eu/eu.h"
#include "units/common/thread_msg.h"
#include "msg_desc.h"
#include "units/math/math.h"

static uint32_t fb(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float bf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

static uint32_t get(const uint8_t (*r)[32], unsigned reg, unsigned ch)
{
    uint32_t v;
    memcpy(&v, r[reg] + 4 * ch, 4);
    return v;
}

static void put(uint8_t (*r)[32], unsigned reg, unsigned ch, uint32_t v)
{
    memcpy(r[reg] + 4 * ch, &v, 4);
}

static void run1(unsigned desc, const float *x, const float *y, unsigned nops, uint8_t (*out)[32],
                 unsigned rlen, struct math_gen4_status *st)
{
    uint8_t p[2][32];
    for (unsigned ch = 0; ch < 8; ch++) {
        put(p, 0, ch, fb(x[ch]));
        put(p, 1, ch, y ? fb(y[ch]) : 0);
    }
    math_gen4_execute(desc, (const uint8_t (*)[32])p, nops, 0xff, out, rlen, st);
}

static void test_float_functions(void)
{
    struct math_gen4_status st;
    uint8_t out[2][32];
    const float x[8] = { 4.0f, 0.25f, 1.0f, 16.0f, 0.0f, -0.0f, -1.0f, INFINITY };
    run1(DESC_MATH_INV, x, NULL, 1, out, 1, &st);
    CU_ASSERT_FALSE(st.bad);
    const float inv[8] = { 0.25f, 4.0f, 1.0f, 0.0625f, INFINITY, -INFINITY, -1.0f, 0.0f };
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(get(out, 0, ch), fb(inv[ch]));
    run1(DESC_MATH_SQRT, x, NULL, 1, out, 1, &st);
    CU_ASSERT_EQUAL(bf(get(out, 0, 0)), 2.0f);
    CU_ASSERT_EQUAL(bf(get(out, 0, 1)), 0.5f);
    CU_ASSERT_TRUE(isnan(bf(get(out, 0, 6))));          /* sqrt(-1) = NaN */
    run1(DESC_MATH_RSQ, x, NULL, 1, out, 1, &st);
    CU_ASSERT_EQUAL(bf(get(out, 0, 0)), 0.5f);
    CU_ASSERT_EQUAL(bf(get(out, 0, 3)), 0.25f);
    CU_ASSERT_EQUAL(get(out, 0, 4), fb(INFINITY));      /* rsq(+0) = +inf */
    const float lx[8] = { 8.0f, 0.5f, 1.0f, 1024.0f, 0.0f, -1.0f, 2.0f, 0.125f };
    run1(DESC_MATH_LOG, lx, NULL, 1, out, 1, &st);
    const float lg[8] = { 3.0f, -1.0f, 0.0f, 10.0f, -INFINITY, NAN, 1.0f, -3.0f };
    for (unsigned ch = 0; ch < 8; ch++) {
        if (isnan(lg[ch])) {
            CU_ASSERT_TRUE(isnan(bf(get(out, 0, ch))));
        } else {
            CU_ASSERT_EQUAL(get(out, 0, ch), fb(lg[ch]));
        }
    }
    run1(DESC_MATH_EXP, lg, NULL, 1, out, 1, &st);           /* exp2 undoes log2 on these */
    CU_ASSERT_EQUAL(bf(get(out, 0, 0)), 8.0f);
    CU_ASSERT_EQUAL(bf(get(out, 0, 1)), 0.5f);
    CU_ASSERT_EQUAL(bf(get(out, 0, 4)), 0.0f);          /* 2^-inf = 0 */
    const float px[8] = { 2, 3, 4, 10, 2, 0.5f, 9, 1 }, py[8] = { 10, 2, 0.5f, 3, -1, 2, 0.5f, 100 };
    run1(DESC_MATH_POW, px, py, 2, out, 1, &st);
    const float pw[8] = { 1024, 9, 2, 1000, 0.5f, 0.25f, 3, 1 };
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(bf(get(out, 0, ch)), pw[ch]);
    /* sincos: sines in the first register, cosines in the second */
    const float sx[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    run1(DESC_MATH_SINCOS, sx, NULL, 1, out, 2, &st);
    CU_ASSERT_EQUAL(bf(get(out, 0, 3)), 0.0f);
    CU_ASSERT_EQUAL(bf(get(out, 1, 3)), 1.0f);
    /* saturate (desc bit 6): results clamped to [0, 1] */
    run1(DESC_MATH_INV | 1u << 6, x, NULL, 1, out, 1, &st);
    CU_ASSERT_EQUAL(bf(get(out, 0, 0)), 0.25f);
    CU_ASSERT_EQUAL(bf(get(out, 0, 1)), 1.0f);          /* 4 -> 1 */
    CU_ASSERT_EQUAL(bf(get(out, 0, 5)), 0.0f);          /* -inf -> 0 */
    /* scalar data (desc bit 7): channel 0's result everywhere */
    run1(DESC_MATH_INV | 1u << 7, x, NULL, 1, out, 1, &st);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(bf(get(out, 0, ch)), 0.25f);
}

static void test_integer_division(void)
{
    /* INT DIV (003 L24244): quotient sign = xor of the signs, remainder sign
     * = the numerator's */
    uint8_t p[2][32], out[2][32];
    const int32_t n[8] = { 7, -7, 7, -7, 100, 0, INT32_MIN, 5 };
    const int32_t d[8] = { 2, 2, -2, -2, 7, 3, -1, 0 };
    for (unsigned ch = 0; ch < 8; ch++) {
        put(p, 0, ch, (uint32_t)n[ch]);
        put(p, 1, ch, (uint32_t)d[ch]);
    }
    struct math_gen4_status st;
    math_gen4_execute(DESC_MATH_INTDIVMOD | 1u << 4, (const uint8_t (*)[32])p, 2, 0xff, out, 2, &st);
    const int32_t q[7] = { 3, -3, -3, 3, 14, 0, INT32_MIN }, r[7] = { 1, -1, 1, -1, 2, 0, 0 };
    for (unsigned ch = 0; ch < 7; ch++) {
        CU_ASSERT_EQUAL((int32_t)get(out, 0, ch), q[ch]);
        CU_ASSERT_EQUAL((int32_t)get(out, 1, ch), r[ch]);
    }
    CU_ASSERT_TRUE(st.divide_by_zero);                   /* channel 7 */
    CU_ASSERT_EQUAL(get(out, 0, 7), 0xffffffffu);
    CU_ASSERT_EQUAL(get(out, 1, 7), 5u);
    /* the same division by zero in a disabled channel is not counted */
    math_gen4_execute(DESC_MATH_INTDIV | 1u << 4, (const uint8_t (*)[32])p, 2, 0x7f, out, 1, &st);
    CU_ASSERT_FALSE(st.divide_by_zero);
    /* unsigned (bit 4 clear): -7 is 0xfffffff9 */
    math_gen4_execute(DESC_MATH_INTMOD, (const uint8_t (*)[32])p, 2, 0xff, out, 1, &st);
    CU_ASSERT_EQUAL(get(out, 0, 1), 0xfffffff9u % 2u);
    CU_ASSERT_EQUAL(get(out, 0, 4), 2u);
}

static void test_bad_messages(void)
{
    uint8_t p[2][32] = { { 0 } }, out[2][32];
    memset(out, 0x55, sizeof out);
    struct math_gen4_status st;
    math_gen4_execute(9, (const uint8_t (*)[32])p, 1, 0xff, out, 2, &st);      /* reserved */
    CU_ASSERT_TRUE(st.bad);
    CU_ASSERT_EQUAL(get(out, 0, 0), 0u);
    CU_ASSERT_EQUAL(get(out, 1, 7), 0u);
    math_gen4_execute(DESC_MATH_POW, (const uint8_t (*)[32])p, 1, 0xff, out, 1, &st); /* one operand */
    CU_ASSERT_TRUE(st.bad);
}

static void test_eu_send_to_math_unit(void)
{
    /* A Gen9 EU sends g2 to SFID 1 (its sfid[1] port linked to the math
     * unit) with function INV, gets g4 back, adds 1 and ends with an EOT to
     * the stub shared function, which records g4. */
    struct sim *sim = probe_sim(NULL);
    const char *eu_over[] = { "fast=false", NULL };
    struct unit *eu = probe_add(sim, &eu_ops, "eu", eu_over);
    const char *m_over[] = { "latency=30", NULL };
    struct unit *mu = probe_add(sim, &math_ops, "math", m_over);
    struct unit *sf = probe_add(sim, &stub_sf_ops, "sf", NULL);
    probe_link(sim, eu, "sfid[1]", mu, "eu[0]", 1, 16, 4);
    probe_link(sim, mu, "eu_reply[0]", eu, "writeback[1]", 1, 16, 4);
    probe_link(sim, eu, "send", sf, "in", 1, 16, 4);
    rig_memory(sim);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    struct eu_enc_buf k = { .gen = 9 };
    struct eu_enc_insn s = { .opcode = 49, .exec_size = 8, .nsrc = 1, .sfid = 1,
                             .desc = 1u << 25 | 1u << 20 | DESC_MATH_INV };
    s.dst = eu_enc_grf(4, 0, EU_TYPE_F);
    s.src[0] = eu_enc_grf(2, 0, EU_TYPE_F);
    eu_enc_emit(&k, &s);
    struct eu_enc_insn a = { .opcode = 64, .exec_size = 8, .nsrc = 2 };
    a.dst = eu_enc_grf(5, 0, EU_TYPE_F);
    a.src[0] = eu_enc_grf(4, 0, EU_TYPE_F);
    a.src[1] = eu_enc_immf(1.0f);
    eu_enc_emit(&k, &a);
    struct eu_enc_insn e = { .opcode = 49, .exec_size = 8, .nsrc = 1, .sfid = 10, .eot = true,
                             .nomask = true, .desc = 1u << 25 };
    e.dst = eu_enc_null(EU_TYPE_UD);
    e.src[0] = eu_enc_grf(5, 0, EU_TYPE_UD);
    eu_enc_emit(&k, &e);
    rig_load(sim, 0x10000, &k);
    uint32_t regs[3][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = 0;
        regs[1][i] = 0;
        regs[2][i] = fb((float)(1u << i));              /* g2 = 1, 2, 4, ... */
    }
    struct msg *m = rig_dispatch_msg(sim, 0x10000, 0, 8, (const uint32_t (*)[8])regs, 3, 1, 0);
    CU_ASSERT_TRUE(port_inject(unit_port(eu, "dispatch", 0), m));
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *st = unit_state(sf);
    CU_ASSERT_EQUAL(st->eots, 1);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(bf(st->eot_first[0][i]), 1.0f + 1.0f / (float)(1u << i));
    CU_ASSERT_EQUAL(probe_stat(sim, "math.messages"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "math.replies"), 1);
    /* the reply comes `latency` cycles after the message arrived, so the EOT
     * leaves after that */
    CU_ASSERT_TRUE(st->eot_cycle[0] >= 30);
    eu_enc_free(&k);
    sim_destroy(sim);
}

/* Appends one 128-bit instruction, given as its four dwords. */
static void emit_words(struct eu_enc_buf *b, const uint32_t w[4])
{
    if (b->len + 16 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->bytes = realloc(b->bytes, b->cap);
    }
    for (unsigned i = 0; i < 16; i++)
        b->bytes[b->len + i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    b->len += 16;
}

static void emit_insn(struct eu_enc_buf *b, const struct eu_enc_insn *in)
{
    uint32_t w[4];
    CU_ASSERT_EQUAL_FATAL(eu_encode(b->gen, in, w), 0);
    emit_words(b, w);
}

static void test_gen4_math_reply_to_enabled_channels(void)
{
    /* A Gen4 math reply is written to the destination region's enabled
     * channels only. Two sends of the g965_tri capture's kernels, as their
     * words (the encoder does not write Gen4 sends):
     *  - the clip kernel's "send(1) 0 g27.3<1>F g27.3<0,1,0>F 0x01110081
     *    math inv mlen 1 rlen 1" (scalar INV; Mesa's brw_clip_util.c inverts
     *    w in place): only g27.3 becomes 1/g27.3, g27.0-2 and .4-7 keep
     *    their values (the kernel keeps live values there);
     *  - the VS's "send(8) 1 g4<1>.wF g2<4>.wF 0x01110001 math inv
     *    { align16 }": only the .w channels of g4 (dwords 3 and 7) are
     *    written, with 1/g2.w of each vertex (the VS reads g4.xyz after).
     * Then g0.0-3 = g27.0-3 and g0.4-7 = g4.4-7, and the clip kernel's
     * "send(8) 0 null g0 0x86108000 urb mlen 1 EOT" hands g0 to the stub. */
    struct sim *sim = probe_sim(NULL);
    const char *eu_over[] = { "fast=false", "gen=4", NULL };
    struct unit *eu = probe_add(sim, &eu_ops, "eu", eu_over);
    struct unit *mu = probe_add(sim, &math_ops, "math", NULL);
    struct unit *sf = probe_add(sim, &stub_sf_ops, "sf", NULL);
    probe_link(sim, eu, "sfid[1]", mu, "eu[0]", 1, 16, 4);
    probe_link(sim, mu, "eu_reply[0]", eu, "writeback[1]", 1, 16, 4);
    probe_link(sim, eu, "send", sf, "in", 1, 16, 4);
    rig_memory(sim);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    struct eu_enc_buf k = { .gen = 4 };
    static const uint32_t clip_inv[4] = { 0x00000231, 0x236c0fbd, 0x0000036c, 0x01110081 };
    static const uint32_t vs_inv[4] = { 0x01600131, 0x20880fbd, 0x006f004f, 0x01110001 };
    static const uint32_t urb_eot[4] = { 0x00600231, 0x20000c20, 0x008d0000, 0x86108000 };
    emit_words(&k, clip_inv);
    emit_words(&k, vs_inv);
    struct eu_enc_insn m = { .opcode = 1, .exec_size = 4, .nsrc = 1, .nomask = true };
    m.dst = eu_enc_grf(0, 0, EU_TYPE_UD);
    m.src[0] = eu_enc_rgn(eu_enc_grf(27, 0, EU_TYPE_UD), 4, 4, 1);
    emit_insn(&k, &m);                          /* mov(4) g0<1>UD g27<4,4,1>UD */
    m.dst = eu_enc_grf(0, 16, EU_TYPE_UD);
    m.src[0] = eu_enc_rgn(eu_enc_grf(4, 16, EU_TYPE_UD), 4, 4, 1);
    emit_insn(&k, &m);                          /* mov(4) g0.4<1>UD g4.4<4,4,1>UD */
    emit_words(&k, urb_eot);
    rig_load(sim, 0x10000, &k);
    uint32_t regs[28][8];
    memset(regs, 0, sizeof regs);
    for (unsigned i = 0; i < 8; i++) {
        regs[27][i] = fb((float)(i + 1));           /* g27 = 1, 2, ..., 8 */
        regs[4][i] = fb(-(float)(i + 1));           /* g4 = -1, ..., -8 */
        regs[2][i] = fb((float)(2u << i));          /* g2 = 2, 4, ..., 256 */
    }
    struct msg *d = rig_dispatch_msg(sim, 0x10000, 0, 8, (const uint32_t (*)[8])regs, 28, 1, 0);
    ((struct eu_dispatch *)d->payload)->gen = 4;
    CU_ASSERT_TRUE(port_inject(unit_port(eu, "dispatch", 0), d));
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *st = unit_state(sf);
    CU_ASSERT_EQUAL_FATAL(st->eots, 1);
    const float want[8] = { 1, 2, 3, 1.0f / 4, -5, -6, -7, 1.0f / 256 };
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(bf(st->eot_first[0][i]), want[i]);
    CU_ASSERT_EQUAL(probe_stat(sim, "math.messages"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "eu.bad_messages"), 0);
    eu_enc_free(&k);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "float functions", test_float_functions },
    { "integer division", test_integer_division },
    { "bad messages", test_bad_messages },
    { "eu send to math unit", test_eu_send_to_math_unit },
    { "gen4 math reply to the enabled channels", test_gen4_math_reply_to_enabled_channels },
    { 0 }
};
TEST_SUITE(math, cases);
