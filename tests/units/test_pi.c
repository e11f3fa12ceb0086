/* tests/units/test_pi.c - the pixel interpolator (SFID 14) driven alone:
 * messages injected as an EU would send them, write-backs caught. The
 * expected barycentric weights are computed here independently of the unit:
 * from the triangle's screen vertices by signed areas (linear weights) and
 * the perspective-correct form (b_i / w_i) / sum_j (b_j / w_j), at positions
 * the seed gives (003 L8214-8418: S4 offsets in 1/16 pixel, sample index
 * into the pattern, per-slot offsets in the payload). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/thread_msg.h"
#include "units/pi/pi.h"

struct pi_catcher {
    struct port *in;
    uint32_t count;
    uint8_t slot, dst_reg, rlen;
    uint8_t regs[4][EU_MSG_REG_BYTES];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "write-backs" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct pi_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct pi_catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
        c->count++;
        c->slot = w->slot;
        c->dst_reg = w->dst_reg;
        c->rlen = w->rlen;
        memset(c->regs, 0, sizeof c->regs);
        memcpy(c->regs, w->regs, (size_t)(w->rlen > 4 ? 4 : w->rlen) * EU_MSG_REG_BYTES);
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_pi_catcher",
    .state_size = sizeof(struct pi_catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct unit *pi, *catcher;
};

static struct rig rig_new(void)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    r.pi = probe_add(r.sim, &pi_ops, "pi", NULL);
    r.catcher = probe_add(r.sim, &catcher_ops, "c", NULL);
    probe_link(r.sim, r.pi, "writeback[0]", r.catcher, "in", 1, 16, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "pi.eu[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

/* The test triangle: screen positions and clip w of its three vertices. */
static const double vx[3] = { 3.0, 41.0, 9.5 }, vy[3] = { 2.0, 11.0, 37.0 };
static const double vw[3] = { 1.0, 4.0, 2.0 };

static double area(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
}

/* Expected weights of vertices 1 and 2 at (x, y), linear or perspective. */
static void expected(double x, double y, bool linear, double *b1, double *b2)
{
    double whole = area(vx[0], vy[0], vx[1], vy[1], vx[2], vy[2]);
    double l[3] = { area(x, y, vx[1], vy[1], vx[2], vy[2]) / whole,
                    area(vx[0], vy[0], x, y, vx[2], vy[2]) / whole,
                    area(vx[0], vy[0], vx[1], vy[1], x, y) / whole };
    if (linear) {
        *b1 = l[1];
        *b2 = l[2];
        return;
    }
    double s = l[0] / vw[0] + l[1] / vw[1] + l[2] / vw[2];
    *b1 = l[1] / vw[1] / s;
    *b2 = l[2] / vw[2] / s;
}

/* The context WM would give: planes of the linear weights about (x0, y0)
 * (value = a0 + a1 dx + a2 dy), the vertices' 1/w, subspans at (x, y). */
static void fill_context(struct eu_thread_context *c, uint32_t subspans, const uint16_t *sx,
                         const uint16_t *sy)
{
    memset(c, 0, sizeof *c);
    c->valid = 1;
    c->gen = 9;
    c->subspans = (uint8_t)subspans;
    for (uint32_t k = 0; k < subspans; k++) {
        c->pixel_x[k] = sx[k];
        c->pixel_y[k] = sy[k];
    }
    c->setup.x0 = (float)vx[0];
    c->setup.y0 = (float)vy[0];
    c->setup.offset = 0.5f;
    double whole = area(vx[0], vy[0], vx[1], vy[1], vx[2], vy[2]);
    for (int i = 0; i < 2; i++) {
        /* weight of vertex i+1 at (x0, y0) is 0; gradients from the areas */
        double b0, bx, by;
        double lx = 0, ly = 0;
        if (i == 0) {
            b0 = area(vx[0], vy[0], vx[0], vy[0], vx[2], vy[2]) / whole;
            lx = area(vx[0], vy[0], vx[0] + 1, vy[0], vx[2], vy[2]) / whole - b0;
            ly = area(vx[0], vy[0], vx[0], vy[0] + 1, vx[2], vy[2]) / whole - b0;
        } else {
            b0 = area(vx[0], vy[0], vx[1], vy[1], vx[0], vy[0]) / whole;
            lx = area(vx[0], vy[0], vx[1], vy[1], vx[0] + 1, vy[0]) / whole - b0;
            ly = area(vx[0], vy[0], vx[1], vy[1], vx[0], vy[0] + 1) / whole - b0;
        }
        bx = lx;
        by = ly;
        c->setup.barycentric[i][0] = (float)b0;
        c->setup.barycentric[i][1] = (float)bx;
        c->setup.barycentric[i][2] = (float)by;
    }
    for (int i = 0; i < 3; i++)
        c->setup.vertex_inverse_w[i] = (float)(1.0 / vw[i]);
}

static void send(struct rig *r, uint32_t desc, uint32_t exec_mask, uint8_t mlen, uint8_t rlen,
                 const struct eu_thread_context *ctx, const uint32_t (*payload)[8])
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) +
                                                           mlen * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 14;
    p->mlen = mlen;
    p->rlen = rlen;
    p->slot = 3;
    p->dst_reg = 40;
    p->exec_size = (desc & PI_DESC_SIMD16) ? 16 : 8;
    p->desc = desc | (uint32_t)rlen << 20 | (uint32_t)mlen << 25;
    p->exec_mask = exec_mask;
    p->ctx = *ctx;
    for (uint32_t i = 0; i < mlen; i++)
        memcpy(p->regs[i], payload ? payload[i] : (const uint32_t[8]){ 0 }, 32);
    CU_ASSERT_TRUE(port_inject(unit_port(r->pi, "eu", 0), m));
}

static float got(const struct pi_catcher *c, uint32_t reg, uint32_t dw)
{
    float f;
    memcpy(&f, c->regs[reg] + 4 * dw, 4);
    return f;
}

/* Checks slot i's write-back (reg pair by slot / 8) against the weights
 * expected at (x, y). */
static void check_slot(const struct pi_catcher *c, uint32_t i, double x, double y, bool linear)
{
    double b1, b2;
    expected(x, y, linear, &b1, &b2);
    uint32_t base = (i / 8) * 2;
    CU_ASSERT_DOUBLE_EQUAL(got(c, base, i % 8), b1, 2e-5);
    CU_ASSERT_DOUBLE_EQUAL(got(c, base + 1, i % 8), b2, 2e-5);
}

static double slot_x(const uint16_t *sx, uint32_t slot) { return sx[slot / 4] + (slot & 1); }
static double slot_y(const uint16_t *sy, uint32_t slot) { return sy[slot / 4] + ((slot >> 1) & 1); }

/* Per Message Offset, SIMD8, perspective: X +3/16 (0x3), Y -5/16 (0xb)
 * from each pixel's centre. */
static void test_per_message_offset_simd8(void)
{
    struct rig r = rig_new();
    const uint16_t sx[2] = { 10, 12 }, sy[2] = { 14, 14 };
    struct eu_thread_context ctx;
    fill_context(&ctx, 2, sx, sy);
    send(&r, PI_PER_MESSAGE_OFFSET << PI_DESC_TYPE_SHIFT | 0xb3, 0xff, 1, 2, &ctx, NULL);
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    CU_ASSERT_EQUAL(c->rlen, 2);
    CU_ASSERT_EQUAL(c->slot, 3);
    CU_ASSERT_EQUAL(c->dst_reg, 40);
    for (uint32_t i = 0; i < 8; i++)
        check_slot(c, i, slot_x(sx, i) + 0.5 + 3.0 / 16, slot_y(sy, i) + 0.5 - 5.0 / 16, false);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.per_message_offset"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.slots_evaluated"), 8);
    /* the same message in linear mode gives the screen-linear weights */
    send(&r, PI_DESC_LINEAR | PI_PER_MESSAGE_OFFSET << PI_DESC_TYPE_SHIFT | 0x78, 0xff, 1, 2,
         &ctx, NULL);
    sim_run(r.sim, 0);
    for (uint32_t i = 0; i < 8; i++)
        check_slot(c, i, slot_x(sx, i) + 0.5 - 8.0 / 16, slot_y(sy, i) + 0.5 + 7.0 / 16, true);
    sim_destroy(r.sim);
}

/* Sample Position Offset, SIMD16: sample 2 of the 4x pattern (0x2a: X 2/16,
 * Y 10/16 from the pixel's corner); an index beyond the count is counted
 * and evaluated at the centre. */
static void test_sample_position_simd16(void)
{
    struct rig r = rig_new();
    const uint16_t sx[4] = { 8, 10, 8, 10 }, sy[4] = { 20, 20, 22, 22 };
    struct eu_thread_context ctx;
    fill_context(&ctx, 4, sx, sy);
    ctx.sample_count = 4;
    const uint8_t pattern[4] = { 0x62, 0xe6, 0x2a, 0xae };
    memcpy(ctx.sample_position, pattern, 4);
    send(&r, PI_DESC_SIMD16 | PI_SAMPLE_POSITION << PI_DESC_TYPE_SHIFT | 2u << 4, 0xffff, 1, 4,
         &ctx, NULL);
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    CU_ASSERT_EQUAL(c->rlen, 4);
    for (uint32_t i = 0; i < 16; i++)
        check_slot(c, i, slot_x(sx, i) + 2.0 / 16, slot_y(sy, i) + 10.0 / 16, false);
    send(&r, PI_DESC_SIMD16 | PI_SAMPLE_POSITION << PI_DESC_TYPE_SHIFT | 5u << 4, 0xffff, 1, 4,
         &ctx, NULL);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.bad.sample_index"), 1);
    for (uint32_t i = 0; i < 16; i++)
        check_slot(c, i, slot_x(sx, i) + 0.5, slot_y(sy, i) + 0.5, false);
    sim_destroy(r.sim);
}

/* Centroid: a fully covered pixel at its centre, a partly covered one at
 * its lowest covered sample, 1x at the centre. */
static void test_centroid(void)
{
    struct rig r = rig_new();
    const uint16_t sx[2] = { 16, 18 }, sy[2] = { 16, 16 };
    struct eu_thread_context ctx;
    fill_context(&ctx, 2, sx, sy);
    ctx.sample_count = 4;
    const uint8_t pattern[4] = { 0x62, 0xe6, 0x2a, 0xae };
    memcpy(ctx.sample_position, pattern, 4);
    ctx.sample_masks_valid = 1;
    const uint16_t masks[8] = { 0xf, 0x6, 0x8, 0xf, 0x1, 0xc, 0xf, 0xf };
    memcpy(ctx.sample_mask, masks, sizeof masks);
    send(&r, PI_CENTROID << PI_DESC_TYPE_SHIFT, 0xff, 1, 2, &ctx, NULL);
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (uint32_t i = 0; i < 8; i++) {
        double x = slot_x(sx, i) + 0.5, y = slot_y(sy, i) + 0.5;
        if (masks[i] != 0xf) {
            unsigned first = masks[i] & 1 ? 0 : masks[i] & 2 ? 1 : masks[i] & 4 ? 2 : 3;
            x = slot_x(sx, i) + (pattern[first] >> 4) / 16.0;
            y = slot_y(sy, i) + (pattern[first] & 15) / 16.0;
        }
        check_slot(c, i, x, y, false);
    }
    ctx.sample_count = 1;
    ctx.sample_position[0] = 0x88;
    send(&r, PI_CENTROID << PI_DESC_TYPE_SHIFT, 0xff, 1, 2, &ctx, NULL);
    sim_run(r.sim, 0);
    for (uint32_t i = 0; i < 8; i++)
        check_slot(c, i, slot_x(sx, i) + 0.5, slot_y(sy, i) + 0.5, false);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.centroid"), 2);
    sim_destroy(r.sim);
}

/* Per Slot Offset, SIMD16 (mlen 4: M0/M1 X of slots 0-7/8-15, M2/M3 Y; S4
 * in bits 3:0, the upper bits ignored) under a partial execution mask:
 * masked-off slots are not evaluated. */
static void test_per_slot_offset_simd16(void)
{
    struct rig r = rig_new();
    const uint16_t sx[4] = { 4, 6, 4, 6 }, sy[4] = { 30, 30, 32, 32 };
    struct eu_thread_context ctx;
    fill_context(&ctx, 4, sx, sy);
    uint32_t payload[4][8];
    int ox[16], oy[16];
    for (uint32_t i = 0; i < 16; i++) {
        ox[i] = (int)(i % 16) - 8;              /* -8 .. 7 */
        oy[i] = 7 - (int)((i * 5) % 16);        /* -8 .. 7 */
        payload[i / 8][i % 8] = ((uint32_t)ox[i] & 0xfu) | 0xabcd0000u;
        payload[2 + i / 8][i % 8] = ((uint32_t)oy[i] & 0xfu) | 0x12340000u;
    }
    const uint32_t mask = 0xf0f3;
    send(&r, PI_DESC_SIMD16 | PI_PER_SLOT_OFFSET << PI_DESC_TYPE_SHIFT, mask, 4, 4, &ctx,
         (const uint32_t (*)[8])payload);
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (uint32_t i = 0; i < 16; i++) {
        if (mask >> i & 1) {
            check_slot(c, i, slot_x(sx, i) + 0.5 + ox[i] / 16.0, slot_y(sy, i) + 0.5 + oy[i] / 16.0,
                       false);
        } else {
            CU_ASSERT_EQUAL(got(c, (i / 8) * 2, i % 8), 0.0f);
            CU_ASSERT_EQUAL(got(c, (i / 8) * 2 + 1, i % 8), 0.0f);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.slots_evaluated"), __builtin_popcount(mask));
    sim_destroy(r.sim);
}

/* SIMD32 dispatch, Slot Group Select HI: a SIMD16 message evaluates slots
 * 16-31, i.e. subspans 4-7 of the thread. */
static void test_slot_group_high(void)
{
    struct rig r = rig_new();
    const uint16_t sx[8] = { 0, 2, 4, 6, 20, 22, 20, 22 }, sy[8] = { 8, 8, 8, 8, 18, 18, 20, 20 };
    struct eu_thread_context ctx;
    fill_context(&ctx, 8, sx, sy);
    send(&r, PI_DESC_SIMD16 | PI_DESC_SLOT_GROUP_HI | PI_PER_MESSAGE_OFFSET << PI_DESC_TYPE_SHIFT,
         0xffff, 1, 4, &ctx, NULL);
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (uint32_t i = 0; i < 16; i++)
        check_slot(c, i, slot_x(sx, 16 + i) + 0.5, slot_y(sy, 16 + i) + 0.5, false);
    sim_destroy(r.sim);
}

/* Bad input: a header, a short per-slot payload, no pixel context, a
 * truncated message: counted, never a crash; replies still come. */
static void test_bad_messages(void)
{
    struct rig r = rig_new();
    struct eu_thread_context ctx;
    memset(&ctx, 0, sizeof ctx);
    send(&r, PI_DESC_HEADER, 0xff, 1, 2, &ctx, NULL);
    send(&r, PI_DESC_SIMD16 | PI_PER_SLOT_OFFSET << PI_DESC_TYPE_SHIFT, 0xffff, 1, 4, &ctx, NULL);
    struct msg *m = msg_alloc(r.sim, MSG_SEND, 8);
    CU_ASSERT_TRUE(port_inject(unit_port(r.pi, "eu", 0), m));
    sim_run(r.sim, 0);
    struct pi_catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.bad.header"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.bad.length"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.bad.context"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.bad.messages"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "pi.slots_evaluated"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "per message offset, SIMD8, perspective and linear", test_per_message_offset_simd8 },
    { "sample position, SIMD16, and an index beyond the count", test_sample_position_simd16 },
    { "centroid: full, partial and 1x coverage", test_centroid },
    { "per slot offset, SIMD16, partial execution mask", test_per_slot_offset_simd16 },
    { "SIMD32 slot group high", test_slot_group_high },
    { "bad messages counted", test_bad_messages },
    { 0 }
};
TEST_SUITE(pi, cases);
