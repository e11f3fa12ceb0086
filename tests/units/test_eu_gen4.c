/* tests/units/test_eu_gen4.c - Gen4 (965G) execution: the kernels of the
 * g965_tri capture run to their EOT, and per-opcode checks (MRF, sechalf and
 * compressed SIMD16, the implicit accumulator, the Gen4 jump counts).
 * Expected values come from what the instructions mean (the aubinator
 * listings next to the kernels, native-fields.txt [branch] for the jump
 * counts), worked out here, never from the executor's output.
 *
 * The kernels run on one thread through eu_exec, with a shared function that
 * answers like the stub of tests/support/eu_rig.h: reply register r, dword k
 * = payload register (r mod mlen), dword k, + 100. (The EU unit, eu.c, does
 * not take Gen4 dispatches yet: see units/eu/eu_exec.h.) */
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_encode.h"
#include "units/eu/eu_exec.h"

#define STUB_ADD 100u

static float bitsf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

struct run4 {
    unsigned steps, sends;
    bool ended;
    struct eu_send_request eot;
    uint32_t eot_payload[16][8];
    uint8_t sfids[16];
};

/* Runs a Gen4 kernel (raw bytes at ip 0) to its EOT or a fault. */
static void run_gen4(struct eu_thread *t, const uint8_t *k, size_t len, struct run4 *r)
{
    memset(r, 0, sizeof *r);
    while (r->steps < 10000 && t->ip + 16 <= len) {
        struct eu_instruction in;
        CU_ASSERT_FATAL(eu_decode(4, k + t->ip, len - t->ip, &in) == 16);
        struct eu_send_request rq;
        enum eu_step_result res = eu_exec(t, &in, &rq, r->steps);
        r->steps++;
        CU_ASSERT_NOT_EQUAL(res, EU_STEP_FAULT);
        if (res == EU_STEP_FAULT)
            return;
        if (res == EU_STEP_SEND || res == EU_STEP_END) {
            if (r->sends < 16)
                r->sfids[r->sends] = rq.sfid;
            r->sends++;
        }
        if (res == EU_STEP_SEND && rq.rlen && !rq.dst_null) {
            for (unsigned q = 0; q < rq.rlen; q++)
                for (unsigned d = 0; d < 8; d++) {
                    const uint8_t *p = eu_send_payload_reg(t, &rq, q % rq.mlen);
                    uint32_t v;
                    memcpy(&v, p + 4 * d, 4);
                    if (rq.dst_reg + q < EU_GRF_COUNT)
                        eu_grf_set_ud(t, rq.dst_reg + q, d, v + STUB_ADD);
                }
        }
        if (res == EU_STEP_END) {
            r->ended = true;
            r->eot = rq;
            for (unsigned q = 0; q < rq.mlen && q < 16; q++) {
                const uint8_t *p = eu_send_payload_reg(t, &rq, q);
                CU_ASSERT_PTR_NOT_NULL_FATAL(p);
                memcpy(r->eot_payload[q], p, 32);
            }
            return;
        }
    }
}

static uint8_t *load(const char *path, size_t *len)
{
    uint8_t *bytes = NULL;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(eu_load_kernel_file(path, &bytes, len, &err), 0);
    return bytes;
}

static void test_g965_constant_color_fragment_kernel(void)
{
    /* k00: m3..m10 = four scalars (g4.3, g4.7, g5.3, g5.7) broadcast to 16
     * pixels in two halves (sechalf writes m7..m10), m2 = g1 (nomask), then
     * an RT write from g0 (the implied move puts it in m1), mlen 10, EOT. */
    size_t len;
    uint8_t *k = load("tests/data/eu/aub/g965_tri.k00.gen4.bin", &len);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xffff);
    for (unsigned r = 0; r < 6; r++)
        for (unsigned d = 0; d < 8; d++)
            eu_grf_set_ud(t, r, d, fbits(1000.0f * (float)r + (float)d));
    struct run4 res;
    run_gen4(t, k, len, &res);
    CU_ASSERT_TRUE(res.ended);
    CU_ASSERT_EQUAL(res.eot.mlen, 10);
    CU_ASSERT_EQUAL(res.eot.sfid, 5);                   /* gen4 dp_write */
    CU_ASSERT_TRUE(res.eot.eot);
    for (unsigned d = 0; d < 8; d++) {
        CU_ASSERT_EQUAL(res.eot_payload[0][d], fbits((float)d));              /* m1 = g0 */
        CU_ASSERT_EQUAL(res.eot_payload[1][d], fbits(1000.0f + (float)d));    /* m2 = g1 */
        CU_ASSERT_EQUAL(res.eot_payload[2][d], fbits(4003.0f));             /* m3 = g4.3 */
        CU_ASSERT_EQUAL(res.eot_payload[6][d], fbits(4003.0f));             /* m7 = g4.3 (second half) */
        CU_ASSERT_EQUAL(res.eot_payload[3][d], fbits(4007.0f));             /* m4 = g4.7 */
        CU_ASSERT_EQUAL(res.eot_payload[7][d], fbits(4007.0f));
        CU_ASSERT_EQUAL(res.eot_payload[4][d], fbits(5003.0f));             /* m5 = g5.3 */
        CU_ASSERT_EQUAL(res.eot_payload[8][d], fbits(5003.0f));
        CU_ASSERT_EQUAL(res.eot_payload[5][d], fbits(5007.0f));             /* m6 = g5.7 */
        CU_ASSERT_EQUAL(res.eot_payload[9][d], fbits(5007.0f));
    }
    free(t);
    free(k);
}

static void test_g965_vertex_kernel_simd4x2(void)
{
    /* k01 (align16, two vertices): g4.w = math inv(g2) (here: the stub's
     * reply, g2's bits + 100 per dword), g4.xyz = g2.xyz * g4.w, then where
     * g4.w < 0: g5.w |= 0x40 and g4 = 0; m2 = g5, m3 = g4, m4 = g2, m5 = g3;
     * URB write from g0 (m1), mlen 5, EOT. Vertex 0 has w = 2.0, vertex 1
     * w = -1.0. */
    size_t len;
    uint8_t *k = load("tests/data/eu/aub/g965_tri.k01.gen4.bin", &len);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    float pos[8] = { 1.5f, -2.0f, 3.0f, 2.0f, 0.25f, 8.0f, -4.0f, -1.0f };
    for (unsigned d = 0; d < 8; d++) {
        eu_grf_set_ud(t, 2, d, fbits(pos[d]));
        eu_grf_set_ud(t, 3, d, fbits(300.0f + (float)d));
        eu_grf_set_ud(t, 0, d, 0x100u + d);
    }
    struct run4 res;
    run_gen4(t, k, len, &res);
    CU_ASSERT_TRUE(res.ended);
    CU_ASSERT_EQUAL(res.sends, 2);
    CU_ASSERT_EQUAL(res.sfids[0], 1);                   /* gen4 math */
    CU_ASSERT_EQUAL(res.eot.sfid, 6);                   /* urb */
    CU_ASSERT_EQUAL(res.eot.mlen, 5);
    for (unsigned v = 0; v < 2; v++) {
        uint32_t wbits = fbits(pos[4 * v + 3]) + STUB_ADD;
        float w = bitsf(wbits);
        bool neg = w < 0;
        for (unsigned c = 0; c < 4; c++) {
            uint32_t want = neg ? 0 : (c == 3 ? wbits : fbits(pos[4 * v + c] * w));
            CU_ASSERT_EQUAL(res.eot_payload[2][4 * v + c], want);              /* m3 = g4 */
            CU_ASSERT_EQUAL(res.eot_payload[3][4 * v + c], fbits(pos[4 * v + c])); /* m4 = g2 */
            CU_ASSERT_EQUAL(res.eot_payload[4][4 * v + c], fbits(300.0f + (float)(4 * v + c))); /* m5 = g3 */
            CU_ASSERT_EQUAL(res.eot_payload[1][4 * v + c], c == 3 && neg ? 0x40u : 0u); /* m2 = g5 */
        }
    }
    for (unsigned d = 0; d < 8; d++)
        CU_ASSERT_EQUAL(res.eot_payload[0][d], 0x100u + d);                     /* m1 = g0 */
    free(t);
    free(k);
}

static void test_g965_interpolating_fragment_kernel(void)
{
    /* k02: SIMD16 pixel kernel with compressed instructions, line/mac through
     * the implicit accumulator and two math sends (one sechalf); it runs to
     * its EOT render-target write. Checked: the pixel X coordinates computed
     * by its first instruction, add(16) g2<1>UW g1.4<2,4,0>UW 0x10101010V
     * (subspan origin X g1.4, g1.6, ... + 0,1,0,1 ...), and the compressed
     * conversion of them to floats. */
    size_t len;
    uint8_t *k = load("tests/data/eu/aub/g965_tri.k02.gen4.bin", &len);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xffff);
    for (unsigned d = 0; d < 8; d++)
        eu_grf_set_ud(t, 1, d, ((10u + 2 * d) << 16) | (20u + 2 * d));  /* UW pairs */
    for (unsigned r = 3; r < 6; r++)
        for (unsigned d = 0; d < 8; d++)
            eu_grf_set_ud(t, r, d, fbits(0.5f * (float)(d + 1)));
    /* the first instruction alone: g2 = subspan X + (0,1,0,1...) as UW */
    struct eu_instruction first;
    struct eu_send_request rq;
    CU_ASSERT_FATAL(eu_decode(4, k, len, &first) == 16);
    CU_ASSERT_EQUAL(eu_exec(t, &first, &rq, 0), EU_STEP_OK);
    /* g1 UW element e: e even = 20 + e, odd = 9 + e; g1.4<2,4,0>: element
     * 4 + 2 * (c / 4) for channel c; the V immediate's nibble c % 8 */
    unsigned want[16];
    for (unsigned c = 0; c < 16; c++) {
        want[c] = 24 + 2 * (c / 4) + (0x10101010u >> (4 * (c % 8)) & 15);
        uint32_t dw = eu_grf_ud(t, 2, c / 2);
        CU_ASSERT_EQUAL((c & 1) ? dw >> 16 : dw & 0xffff, want[c]);
    }
    struct run4 res;
    run_gen4(t, k, len, &res);
    CU_ASSERT_TRUE(res.ended);
    CU_ASSERT_EQUAL(res.sends, 3);
    CU_ASSERT_EQUAL(res.sfids[0], 1);
    CU_ASSERT_EQUAL(res.sfids[1], 1);
    CU_ASSERT_EQUAL(res.eot.sfid, 5);
    /* add(16) g124<1>F g2<8,8,1>UW -g1<0,1,0>F {compr}: the 16 X values as
     * floats over g124..g125, less g1.0 read as a float (a denormal here,
     * flushed under the default cr0) */
    for (unsigned c = 0; c < 16; c++)
        CU_ASSERT_EQUAL(bitsf(eu_grf_ud(t, 124 + c / 8, c % 8)), (float)want[c]);
    free(t);
    free(k);
}

/* ---- per-opcode Gen4 checks on assembled instructions ---------------------- */

static void run_words(struct eu_thread *t, const struct eu_enc_buf *b)
{
    unsigned steps = 0;
    while (t->ip < b->len && steps++ < 1000) {
        struct eu_instruction in;
        CU_ASSERT_FATAL(eu_decode(4, b->bytes + t->ip, b->len - t->ip, &in) == 16);
        struct eu_send_request rq;
        enum eu_step_result r = eu_exec(t, &in, &rq, 0);
        if (r == EU_STEP_FAULT)
            fprintf(stderr, "fault: %s (%s)\n", t->fault_reason, in.illegal_reason ? in.illegal_reason : "");
        CU_ASSERT_NOT_EQUAL_FATAL(r, EU_STEP_FAULT);
        if (r == EU_STEP_END)
            break;
    }
}

static struct eu_enc_opnd G(unsigned reg, enum eu_type ty) { return eu_enc_grf(reg, 0, ty); }

static void test_sechalf_and_compressed(void)
{
    /* add(16) compressed: channels 0..15 over two registers; mov(8) sechalf
     * uses channels 8..15 of the masks (only 8..11 enabled here). */
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn a = { .opcode = 64, .exec_size = 16, .nsrc = 2, .qtr = 2 };
    a.dst = G(10, EU_TYPE_D);
    a.src[0] = eu_enc_rgn(G(2, EU_TYPE_D), 8, 8, 1);
    a.src[1] = eu_enc_imm(EU_TYPE_D, 5);
    eu_enc_emit(&b, &a);
    struct eu_enc_insn m = { .opcode = 1, .exec_size = 8, .nsrc = 1, .qtr = 1 };
    m.dst = G(20, EU_TYPE_D);
    m.src[0] = eu_enc_rgn(G(2, EU_TYPE_D), 8, 8, 1);
    eu_enc_emit(&b, &m);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0x0fff);
    for (unsigned d = 0; d < 16; d++)
        eu_grf_set_ud(t, 2 + d / 8, d % 8, 100 + d);
    run_words(t, &b);
    for (unsigned ch = 0; ch < 16; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10 + ch / 8, ch % 8), ch < 12 ? 105 + ch : 0);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 20, ch), ch < 4 ? 100 + ch : 0);   /* channels 8..11 */
    free(t);
    eu_enc_free(&b);
}

static void test_implicit_accumulator_line_mac(void)
{
    /* Gen4 arithmetic writes the accumulator without AccWrCtrl: line then
     * mac gives p*x + q + r*y (the g965 interpolation pattern). */
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn l = { .opcode = 89, .exec_size = 8, .nsrc = 2 };
    l.dst = eu_enc_null(EU_TYPE_F);
    l.src[0] = eu_enc_scalar(3, 0, EU_TYPE_F);
    l.src[1] = eu_enc_rgn(G(4, EU_TYPE_F), 8, 8, 1);
    eu_enc_emit(&b, &l);
    struct eu_enc_insn mc = { .opcode = 72, .exec_size = 8, .nsrc = 2 };
    mc.dst = G(6, EU_TYPE_F);
    mc.src[0] = eu_enc_scalar(3, 4, EU_TYPE_F);
    mc.src[1] = eu_enc_rgn(G(5, EU_TYPE_F), 8, 8, 1);
    eu_enc_emit(&b, &mc);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    eu_grf_set_ud(t, 3, 0, fbits(2.0f));     /* p */
    eu_grf_set_ud(t, 3, 3, fbits(0.5f));     /* q */
    eu_grf_set_ud(t, 3, 1, fbits(3.0f));     /* r (read by mac as g3.1) */
    for (unsigned ch = 0; ch < 8; ch++) {
        eu_grf_set_ud(t, 4, ch, fbits((float)ch));
        eu_grf_set_ud(t, 5, ch, fbits((float)(10 * ch)));
    }
    run_words(t, &b);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(bitsf(eu_grf_ud(t, 6, ch)), 2.0f * (float)ch + 0.5f + 3.0f * (float)(10 * ch));
    free(t);
    eu_enc_free(&b);
}

static struct eu_enc_insn alu(unsigned op, struct eu_enc_opnd d, struct eu_enc_opnd a,
                              struct eu_enc_opnd b, unsigned nsrc)
{
    struct eu_enc_insn in = { .opcode = (uint8_t)op, .exec_size = 8, .nsrc = (uint8_t)nsrc };
    in.dst = d;
    in.src[0] = a;
    in.src[1] = b;
    return in;
}

static struct eu_enc_insn cmp(unsigned cm, struct eu_enc_opnd a, struct eu_enc_opnd b)
{
    struct eu_enc_insn in = alu(16, eu_enc_null(EU_TYPE_D), a, b, 2);
    in.cond = (uint8_t)cm;
    return in;
}

static struct eu_enc_insn addi(unsigned reg, int v)
{
    return alu(64, G(reg, EU_TYPE_D), G(reg, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, (uint32_t)v), 2);
}

/* a Gen4 flow instruction: jump count in instructions, pop count */
static struct eu_enc_insn flow4(unsigned op, bool pred)
{
    struct eu_enc_insn in = { .opcode = (uint8_t)op, .exec_size = 8, .pred = pred ? 1 : 0 };
    in.dst = eu_enc_null(EU_TYPE_D);
    return in;
}

static void patch4(struct eu_enc_buf *b, size_t at, size_t to, int extra, unsigned pop)
{
    eu_enc_patch_jump(b, at, ((int32_t)to - (int32_t)at) + 16 * extra, (int32_t)pop);
}

enum { IF4 = 34, ELSE4 = 36, ENDIF4 = 37, DO4 = 38, WHILE4 = 39, BREAK4 = 40, CONT4 = 41 };

static void test_gen4_divergent_nested_if_else(void)
{
    /* if (ch < 4) { +1; if (ch == 2) { +100 } } else { +10 }; +1000, with
     * the jump counts as native-fields.txt [branch] gives Mesa's layout:
     * IF -> ELSE = else - if, IF -> ENDIF = endif - if, ELSE -> ENDIF =
     * endif - else + 1 with pop count 1. */
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn m = alu(1, G(1, EU_TYPE_D), eu_enc_imm(EU_TYPE_V, 0x76543210), eu_enc_null(EU_TYPE_D), 1);
    eu_enc_emit(&b, &m);
    struct eu_enc_insn z = alu(1, G(10, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 0), eu_enc_null(EU_TYPE_D), 1);
    eu_enc_emit(&b, &z);
    struct eu_enc_insn c1 = cmp(5, G(1, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 4));
    eu_enc_emit(&b, &c1);
    struct eu_enc_insn i1 = flow4(IF4, true);
    size_t if1 = eu_enc_emit(&b, &i1);
    struct eu_enc_insn a1 = addi(10, 1);
    eu_enc_emit(&b, &a1);
    struct eu_enc_insn c2 = cmp(1, G(1, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 2));
    eu_enc_emit(&b, &c2);
    struct eu_enc_insn i2 = flow4(IF4, true);
    size_t if2 = eu_enc_emit(&b, &i2);
    struct eu_enc_insn a2 = addi(10, 100);
    eu_enc_emit(&b, &a2);
    struct eu_enc_insn e2 = flow4(ENDIF4, false);
    size_t endif2 = eu_enc_emit(&b, &e2);
    struct eu_enc_insn el = flow4(ELSE4, false);
    size_t else1 = eu_enc_emit(&b, &el);
    struct eu_enc_insn a3 = addi(10, 10);
    eu_enc_emit(&b, &a3);
    struct eu_enc_insn e1 = flow4(ENDIF4, false);
    size_t endif1 = eu_enc_emit(&b, &e1);
    struct eu_enc_insn a4 = addi(10, 1000);
    eu_enc_emit(&b, &a4);
    patch4(&b, if1, else1, 0, 0);
    patch4(&b, if2, endif2, 0, 0);
    patch4(&b, else1, endif1, 1, 1);
    patch4(&b, endif2, endif2, 0, 1);
    patch4(&b, endif1, endif1, 0, 1);
    CU_ASSERT_EQUAL(b.errors, 0);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    run_words(t, &b);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10, ch), ch < 4 ? 1001u + (ch == 2 ? 100u : 0u) : 1010u);
    /* no channel taking the if: the ip jumps straight to the else */
    eu_thread_init(t, 4, 0, 0, 0xf0);
    run_words(t, &b);
    for (unsigned ch = 4; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10, ch), 1010u);
    free(t);
    eu_enc_free(&b);
}

static void test_gen4_loop_with_break_and_continue(void)
{
    /* do { i++; if (i == 3) continue; sum += i; if (i > ch) break; } while (i < 6)
     * per channel, jump counts as Mesa lays them out: WHILE = do - while + 1,
     * BREAK = while - break + 1, CONT = while - cont. The sums, worked by
     * hand: ch 0: 1; 1: 1+2; 2, 3: 1+2+4; 4: 1+2+4+5; 5, 6, 7: 1+2+4+5+6. */
    static const uint32_t want[8] = { 1, 3, 7, 7, 12, 18, 18, 18 };
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn in;
    in = alu(1, G(1, EU_TYPE_D), eu_enc_imm(EU_TYPE_V, 0x76543210), eu_enc_null(EU_TYPE_D), 1);
    eu_enc_emit(&b, &in);
    in = alu(1, G(10, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 0), eu_enc_null(EU_TYPE_D), 1);
    eu_enc_emit(&b, &in);
    in = alu(1, G(11, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 0), eu_enc_null(EU_TYPE_D), 1);
    eu_enc_emit(&b, &in);
    in = flow4(DO4, false);
    size_t d = eu_enc_emit(&b, &in);
    in = addi(11, 1);
    eu_enc_emit(&b, &in);
    in = cmp(1, G(11, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 3));
    eu_enc_emit(&b, &in);
    in = flow4(CONT4, true);
    size_t ct = eu_enc_emit(&b, &in);
    in = alu(64, G(10, EU_TYPE_D), G(10, EU_TYPE_D), G(11, EU_TYPE_D), 2);
    eu_enc_emit(&b, &in);
    in = cmp(3, G(11, EU_TYPE_D), G(1, EU_TYPE_D));
    eu_enc_emit(&b, &in);
    in = flow4(BREAK4, true);
    size_t br = eu_enc_emit(&b, &in);
    in = cmp(5, G(11, EU_TYPE_D), eu_enc_imm(EU_TYPE_D, 6));
    eu_enc_emit(&b, &in);
    in = flow4(WHILE4, true);
    size_t wh = eu_enc_emit(&b, &in);
    in = addi(10, 0);
    eu_enc_emit(&b, &in);
    patch4(&b, wh, d, 1, 0);
    patch4(&b, br, wh, 1, 0);
    patch4(&b, ct, wh, 0, 0);
    CU_ASSERT_EQUAL(b.errors, 0);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    run_words(t, &b);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10, ch), want[ch]);
    free(t);
    eu_enc_free(&b);
}

static void test_gen4_flow_kernel_from_intel_gen4asm(void)
{
    /* tests/data/eu/exec/flow.gen4.g4a, jump counts by intel-gen4asm: the
     * results are what its comment works out per channel. */
    size_t len;
    uint8_t *k = load("build/gen/eu/exec/flow.gen4.hex", &len);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    for (unsigned ch = 0; ch < 8; ch++)
        eu_grf_set_ud(t, 1, ch, ch);
    struct run4 res;
    run_gen4(t, k, len, &res);
    CU_ASSERT_TRUE(res.ended);
    CU_ASSERT_EQUAL(res.eot.mlen, 3);
    for (unsigned ch = 0; ch < 8; ch++) {
        unsigned n = ch ? ch : 1;                       /* n++ happens before the test */
        unsigned count = 0;
        for (unsigned i = 1; i < n; i++)
            count += i != 2;
        CU_ASSERT_EQUAL(res.eot_payload[0][ch], ch < 4 ? 1u : 10u);
        CU_ASSERT_EQUAL(res.eot_payload[1][ch], n);
        CU_ASSERT_EQUAL(res.eot_payload[2][ch], count);
    }
    free(t);
    free(k);
}

static void test_gen4_jmpi(void)
{
    /* jmpi (1) ip ip 2: the count is of 128-bit instructions from the one
     * after the jmpi (Mesa's Gen4 layout), so the two adds after it are
     * skipped. */
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn j = { .opcode = 32, .exec_size = 1, .nsrc = 2, .nomask = true };
    j.dst = eu_enc_arf(0xa0, 0, EU_TYPE_UD);
    j.src[0] = eu_enc_rgn(eu_enc_arf(0xa0, 0, EU_TYPE_UD), 0, 1, 0);
    j.src[1] = eu_enc_imm(EU_TYPE_D, 2);
    eu_enc_emit(&b, &j);
    struct eu_enc_insn in = addi(10, 1);
    eu_enc_emit(&b, &in);                       /* skipped */
    in = addi(10, 10);
    eu_enc_emit(&b, &in);                       /* skipped */
    in = addi(10, 100);
    eu_enc_emit(&b, &in);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    run_words(t, &b);
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10, ch), 100u);
    free(t);
    eu_enc_free(&b);
}

static void test_gen4_predicated_ip_write(void)
{
    /* Mesa's Gen4 kernels branch by writing ip: "(-f0.0) add(1) ip ip N"
     * (brw_eu_emit.c's Gen4 jumps, the g965_tri clip kernel at 0x4b0). A
     * write the predicate turns off leaves ip alone, so execution goes on at
     * the next instruction; an enabled one jumps N bytes from the add
     * itself. With f0.0 clear (g11 = 0 is not 1): the (+f0.0) jump falls
     * through to the +1, the (-f0.0) jump skips the +10, then +100. */
    struct eu_enc_buf b = { .gen = 4 };
    struct eu_enc_insn c = { .opcode = 16, .exec_size = 1, .nsrc = 2, .nomask = true, .cond = 1 };
    c.dst = eu_enc_null(EU_TYPE_D);
    c.src[0] = eu_enc_scalar(11, 0, EU_TYPE_D);
    c.src[1] = eu_enc_imm(EU_TYPE_D, 1);
    eu_enc_emit(&b, &c);                        /* cmp.z.f0.0(1) null g11 1: false */
    for (unsigned k = 0; k < 2; k++) {
        struct eu_enc_insn j = { .opcode = 64, .exec_size = 1, .nsrc = 2, .pred = 1,
                                 .pred_inv = k == 1 };
        j.dst = eu_enc_arf(0xa0, 0, EU_TYPE_UD);
        j.src[0] = eu_enc_rgn(eu_enc_arf(0xa0, 0, EU_TYPE_UD), 0, 1, 0);
        j.src[1] = eu_enc_imm(EU_TYPE_D, 32);
        eu_enc_emit(&b, &j);                    /* (+f0.0) / (-f0.0) add(1) ip ip 32 */
        struct eu_enc_insn a = addi(10, k == 0 ? 1 : 10);
        eu_enc_emit(&b, &a);
    }
    struct eu_enc_insn last = addi(10, 100);
    eu_enc_emit(&b, &last);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    run_words(t, &b);
    CU_ASSERT_EQUAL(t->ip, (uint32_t)b.len);    /* ran off the end, no loop */
    for (unsigned ch = 0; ch < 8; ch++)
        CU_ASSERT_EQUAL(eu_grf_ud(t, 10, ch), 101u);
    free(t);
    eu_enc_free(&b);
}

static void test_gen4_alu_opcodes_from_intel_gen4asm(void)
{
    /* tests/data/eu/exec/alu.gen4.g4a: one result per opcode, each worked
     * out here from what the opcode computes. */
    static const int32_t g1[8] = { -3, -2, -1, 0, 1, 2, 3, 4 };
    static const float g2[8] = { 1.5f, -2.25f, 0.5f, 3.75f, -0.5f, 2.5f, -1.5f, 7.0f };
    static const int32_t g3[8] = { 5, 7, -9, 12, 100, -1, 0x12345678, 3 };
    static const float g4[8] = { 2, 3, 4, 5, 6, 7, 8, 9 };
    size_t len;
    uint8_t *k = load("build/gen/eu/exec/alu.gen4.hex", &len);
    struct eu_thread *t = calloc(1, sizeof *t);
    eu_thread_init(t, 4, 0, 0, 0xff);
    for (unsigned ch = 0; ch < 8; ch++) {
        eu_grf_set_ud(t, 1, ch, (uint32_t)g1[ch]);
        eu_grf_set_ud(t, 2, ch, fbits(g2[ch]));
        eu_grf_set_ud(t, 3, ch, (uint32_t)g3[ch]);
        eu_grf_set_ud(t, 4, ch, fbits(g4[ch]));
    }
    struct run4 res;
    run_gen4(t, k, len, &res);
    CU_ASSERT_FALSE(res.ended);                         /* no EOT: runs off the end */
#define R(reg) eu_grf_ud(t, reg, ch)
#define RF(reg) bitsf(eu_grf_ud(t, reg, ch))
    for (unsigned ch = 0; ch < 8; ch++) {
        uint32_t a = (uint32_t)g1[ch], b = (uint32_t)g3[ch];
        CU_ASSERT_EQUAL(R(10), a);
        CU_ASSERT_EQUAL(R(11), ~b);
        CU_ASSERT_EQUAL(R(12), a & b);
        CU_ASSERT_EQUAL(R(13), a | b);
        CU_ASSERT_EQUAL(R(14), a ^ b);
        CU_ASSERT_EQUAL(R(15), b << 2);
        CU_ASSERT_EQUAL(R(16), b >> 4);
        CU_ASSERT_EQUAL(R(17), (b >> 31) ? ~(~b >> 4) : b >> 4);     /* arithmetic */
        bool gt = g1[ch] > g3[ch];
        CU_ASSERT_EQUAL(R(18), gt ? 0xffffffffu : 0u);
        CU_ASSERT_EQUAL(R(19), gt ? a : b);                         /* the larger */
        CU_ASSERT_EQUAL(RF(21), g2[ch] + g4[ch]);
        CU_ASSERT_EQUAL(RF(22), g2[ch] * g4[ch]);
        int64_t sum = (int64_t)g1[ch] + g3[ch] + 1;
        CU_ASSERT_EQUAL((int32_t)R(23), (int32_t)(sum >= 0 ? sum / 2 : -((-sum + 1) / 2)));
        CU_ASSERT_EQUAL(RF(24), g2[ch] - floorf(g2[ch]));
        CU_ASSERT_EQUAL(RF(25), floorf(g2[ch]));
        CU_ASSERT_EQUAL(RF(26), ceilf(g2[ch]));
        static const float rne[8] = { 2, -2, 0, 4, -0.0f, 2, -2, 7 };
        CU_ASSERT_EQUAL(R(27), fbits(rne[ch]));
        CU_ASSERT_EQUAL(RF(28), truncf(g2[ch]));
        unsigned lz = 0;
        while (lz < 32 && !(b >> (31 - lz) & 1))
            lz++;
        CU_ASSERT_EQUAL(R(29), lz);
        unsigned g = ch / 4 * 4;
        float d2 = g2[g] * g4[g] + g2[g + 1] * g4[g + 1];
        float d3 = d2 + g2[g + 2] * g4[g + 2];
        CU_ASSERT_EQUAL(RF(30), d3 + g2[g + 3] * g4[g + 3]);
        CU_ASSERT_EQUAL(RF(31), d3 + g4[g + 3]);
        CU_ASSERT_EQUAL(RF(32), d3);
        CU_ASSERT_EQUAL(RF(33), d2);
        float line = 6.0f * g2[ch] + 9.0f;                          /* p = g4[4], q = g4[7] */
        CU_ASSERT_EQUAL(RF(34), line);
        CU_ASSERT_EQUAL(RF(35), line + g2[ch] * g4[ch]);            /* mac: the line's acc */
        static const unsigned yxwz[4] = { 1, 0, 3, 2 };
        CU_ASSERT_EQUAL(RF(36), g2[g + yxwz[ch % 4]] * g4[g]);
        CU_ASSERT_EQUAL(RF(37), g2[g] < 0 ? g4[ch] : 0.0f);          /* .x replicated */
        CU_ASSERT_EQUAL(RF(38), ch % 2 == 0 ? g2[ch] : 0.0f);       /* writemask .xz */
        CU_ASSERT_EQUAL(RF(39), g2[ch] < 0 ? 0.0f : (g2[ch] > 1 ? 1.0f : g2[ch]));
        CU_ASSERT_EQUAL((int32_t)R(40), (int32_t)truncf(g2[ch]));
    }
#undef R
#undef RF
    free(t);
    free(k);
}

static const struct test_case cases[] = {
    { "g965 constant color fragment kernel", test_g965_constant_color_fragment_kernel },
    { "g965 vertex kernel simd4x2", test_g965_vertex_kernel_simd4x2 },
    { "g965 interpolating fragment kernel", test_g965_interpolating_fragment_kernel },
    { "sechalf and compressed", test_sechalf_and_compressed },
    { "implicit accumulator line mac", test_implicit_accumulator_line_mac },
    { "gen4 divergent nested if else", test_gen4_divergent_nested_if_else },
    { "gen4 loop with break and continue", test_gen4_loop_with_break_and_continue },
    { "gen4 flow kernel from intel-gen4asm", test_gen4_flow_kernel_from_intel_gen4asm },
    { "gen4 jmpi", test_gen4_jmpi },
    { "gen4 predicated ip write falls through", test_gen4_predicated_ip_write },
    { "gen4 alu opcodes from intel-gen4asm", test_gen4_alu_opcodes_from_intel_gen4asm },
    { 0 }
};
TEST_SUITE(eu_gen4, cases);
