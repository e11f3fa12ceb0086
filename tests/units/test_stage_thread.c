/* tests/units/test_stage_thread.c - the 3D stages' thread dispatch library
 * (units/common/stage_thread) inside a test stage, with the real URB unit
 * telling it a thread ended (its "eot"[FFID] port, units/urb).
 * Expected values are worked out here from the seed's R0 layout (003
 * L11369-11479: R0.3 sampler pointer | scratch code, R0.4 binding table,
 * R0.5 scratch offset | FFTID) and the push-constant rules (L11480-11558). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/stage_thread.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/urb/urb.h"

/* ---- a stage that dispatches `want` threads tagged 100, 101, ... ----------------- */

struct test_stage {
    uint32_t want, made;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_constants constants;
    uint64_t ended_tags[16];
    uint32_t ended;
};

static const struct port_desc test_stage_ports[] = {
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "dispatches" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends" },
    PORT_END
};

static int test_stage_realize(struct unit *u, struct gt_error *err)
{
    struct test_stage *s = unit_state(u);
    return stage_threads_init(&s->threads, u, FFID_VS, err);
}

static void test_stage_reset(struct unit *u)
{
    struct test_stage *s = unit_state(u);
    stage_threads_reset(&s->threads);
}

static enum unit_activity test_stage_tick(struct unit *u)
{
    struct test_stage *s = unit_state(u);
    uint64_t tag;
    while (stage_threads_poll_end(&s->threads, u, &tag))
        if (s->ended < 16)
            s->ended_tags[s->ended++] = tag;
    while (s->made < s->want && stage_threads_can_dispatch(&s->threads, &s->kernel)) {
        struct stage_space space = { 9, GPU_ADDRESS_SPACE_PHYSICAL, 0 };
        uint32_t regs = 2 + s->constants.regs;
        struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &space, regs,
                                          0xff, 100 + s->made);
        struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
        stage_constants_write(&s->constants, d->grf, 2, regs);
        stage_threads_send(&s->threads, u, m);
        s->made++;
    }
    return UNIT_IDLE;
}

static void test_stage_destroy(struct unit *u)
{
    struct test_stage *s = unit_state(u);
    stage_threads_release(&s->threads);
}

static const struct unit_ops test_stage_ops = {
    .kind = "test_stage",
    .state_size = sizeof(struct test_stage),
    .ports = test_stage_ports,
    .realize = test_stage_realize,
    .reset = test_stage_reset,
    .tick = test_stage_tick,
    .destroy = test_stage_destroy,
};

/* ---- a catcher of dispatches ---------------------------------------------------------- */

struct catcher {
    struct port *in;
    uint32_t count;
    struct eu_dispatch head[8];
    uint32_t grf[8][4][8];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "dispatches" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
        if (c->count < 8) {
            c->head[c->count] = *d;
            memcpy(c->grf[c->count], d->grf, (d->grf_count < 4 ? d->grf_count : 4) * 32u);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_stage_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct unit *urb, *stage_unit;
    struct test_stage *stage;
    struct catcher *td[2];
};

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.stage_unit = probe_add(r.sim, &test_stage_ops, "vs", NULL);
    struct unit *t0 = probe_add(r.sim, &catcher_ops, "td0", NULL);
    struct unit *t1 = probe_add(r.sim, &catcher_ops, "td1", NULL);
    probe_link(r.sim, r.stage_unit, "td[0]", t0, "in", 1, 4, 1);
    probe_link(r.sim, r.stage_unit, "td[1]", t1, "in", 1, 4, 1);
    probe_link(r.sim, r.urb, "eot_vs", r.stage_unit, "eot", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.stage = unit_state(r.stage_unit);
    r.td[0] = unit_state(t0);
    r.td[1] = unit_state(t1);
    return r;
}

/* A URB SIMD8 write with EOT from a thread whose context group is `request`
 * (the stage's request number), FFID `ffid`. */
static void eot_write(struct rig *r, uint32_t request, uint32_t ffid)
{
    uint32_t nregs = 2;
    struct msg *m = msg_alloc(r->sim, MSG_SEND,
                              (uint32_t)(sizeof(struct eu_send_msg) + nregs * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p + nregs * EU_MSG_REG_BYTES);
    p->sfid = 6;
    p->mlen = (uint8_t)nregs;
    p->exec_size = 8;
    p->flags = EU_SEND_HEADER | EU_SEND_EOT;
    p->desc = desc_urb_opcode_gen8_encode(DESC_URB_SIMD8_WRITE) |
              desc_msg_header_present_encode(1) | desc_msg_mlen_gen5_encode(nregs);
    p->exec_mask = 0x1;
    p->ffid = ffid;
    p->ctx.valid = 1;
    p->ctx.gen = 9;
    p->ctx.group = request;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

static void test_dispatch_payload_and_thread_limit(void)
{
    struct rig r = rig_new();
    struct test_stage *s = r.stage;
    s->kernel = (struct stage_kernel){
        .enable = true, .kernel_start = 0x1c0, .binding_table = 0x340, .sampler_state = 0x7e0,
        .scratch_base = 0x100000, .per_thread_scratch = 2, .max_threads = 2, .simd = 8,
        .priority = 1, .alternate_fp = true, .illegal_opcode_exception = true,
    };
    s->bases = (struct stage_bases){ .general = 0x10000000, .surface = 0x20000000,
                                     .dynamic = 0x30000000, .instruction = 0x40000000 };
    s->want = 3;
    unit_wake_at(r.stage_unit, 0);
    run(&r, 20);
    /* two threads (Maximum Number of Threads), one to each TD in turn */
    CU_ASSERT_EQUAL(r.td[0]->count, 1);
    CU_ASSERT_EQUAL(r.td[1]->count, 1);
    CU_ASSERT_EQUAL(s->made, 2);
    CU_ASSERT_TRUE(s->threads.stats.stall_threads > 0);
    const struct eu_dispatch *d = &r.td[0]->head[0];
    CU_ASSERT_EQUAL(d->request_id, 1);
    CU_ASSERT_EQUAL(d->ffid, FFID_VS);
    CU_ASSERT_EQUAL(d->inst_base, 0x40000000u);
    CU_ASSERT_EQUAL(d->kernel_offset, 0x1c0);
    CU_ASSERT_EQUAL(d->simd, 8);
    CU_ASSERT_EQUAL(d->dmask, 0xff);
    CU_ASSERT_EQUAL(d->cr0_0, 1);
    CU_ASSERT_EQUAL(d->cr0_1, 1u << 12);
    CU_ASSERT_EQUAL(d->ctx.group, 1);
    CU_ASSERT_EQUAL(d->ctx.surface_state_base, 0x20000000u);
    CU_ASSERT_EQUAL(d->ctx.binding_table, 0x340);
    const uint32_t *r0 = r.td[0]->grf[0][0];
    CU_ASSERT_EQUAL(r0[3], 0x7e0u | 2u);                    /* sampler | scratch code */
    CU_ASSERT_EQUAL(r0[4], 0x340u);                         /* binding table */
    CU_ASSERT_EQUAL(r0[5], 0x100000u | 1u);                 /* slot 0 scratch | FFTID 1 */
    const uint32_t *r0b = r.td[1]->grf[0][0];
    CU_ASSERT_EQUAL(r0b[5], (0x100000u + 4096u) | 2u);      /* slot 1: 1 KB << 2 further */
    /* the URB tells the stage thread 1 ended; the third goes out */
    eot_write(&r, 1, FFID_VS);
    run(&r, 60);
    CU_ASSERT_EQUAL(s->ended, 1);
    CU_ASSERT_EQUAL(s->ended_tags[0], 100);
    CU_ASSERT_EQUAL(s->made, 3);
    CU_ASSERT_EQUAL(r.td[0]->count + r.td[1]->count, 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_notified"), 1);
    /* the freed scratch slot 0 is reused by thread 3 */
    const struct catcher *third = r.td[0]->count == 2 ? r.td[0] : r.td[1];
    CU_ASSERT_EQUAL(third->grf[1][0][5], 0x100000u | 3u);
    /* an end for a thread never dispatched, and one to an FFID nobody listens on */
    eot_write(&r, 77, FFID_VS);
    eot_write(&r, 2, FFID_GS);
    run(&r, 60);
    CU_ASSERT_EQUAL(s->threads.stats.unknown_ends, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_unrouted"), 1);
    CU_ASSERT_EQUAL(s->ended, 1);
    sim_destroy(r.sim);
}

static struct cs_state_packet *constant_packet(struct msg **out, struct sim *sim,
                                               struct spec_3DSTATE_CONSTANT_BODY **body)
{
    size_t off = cs_state_common_offset(11);
    struct msg *m = msg_alloc(sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_3DSTATE_CONSTANT_VS)));
    memset(m->payload, 0, off + sizeof(struct spec_3DSTATE_CONSTANT_VS));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = SPEC_ID_3DSTATE_CONSTANT_VS;
    p->gen = 9;
    p->dword_count = 11;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *body = &((struct spec_3DSTATE_CONSTANT_VS *)((uint8_t *)p + off))->ConstantBody;
    *out = m;
    return p;
}

static void test_push_constants(void)
{
    struct sim *sim = probe_sim(NULL);
    struct gpu_memory *mem = probe_memory(sim);
    uint32_t words[32 * 8];
    for (uint32_t i = 0; i < 32 * 8; i++)
        words[i] = 0xc0000000u + i;
    /* buffer 0 at dynamic base + 0x400 (one register), buffer 2 at +0x800 (two) */
    CU_ASSERT_EQUAL(gpu_memory_write(mem, 0x30000400, words, 32, NULL), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(mem, 0x30000800, words + 8, 64, NULL), 0);
    struct stage_bases b = { .dynamic = 0x30000000 };
    struct stage_constants *c = calloc(1, sizeof *c);
    struct msg *m;
    struct spec_3DSTATE_CONSTANT_BODY *body;
    struct cs_state_packet *p = constant_packet(&m, sim, &body);
    body->ReadLength[0] = 1;
    body->Buffer[0] = 0x400;
    body->ReadLength[2] = 2;
    body->Buffer[2] = 0x800;
    stage_constants_take(c, sim, p, &b, body);
    CU_ASSERT_EQUAL(c->regs, 3);
    uint32_t got[3][8];
    memcpy(got, c->data, sizeof got);
    CU_ASSERT_EQUAL(got[0][0], 0xc0000000u);
    CU_ASSERT_EQUAL(got[1][0], 0xc0000008u);     /* buffer 2 follows buffer 0 */
    CU_ASSERT_EQUAL(got[2][7], 0xc0000017u);
    /* INSTPM's new value (the CS applied the masked write, mmio.h): bit 6
     * set makes the pointers graphics addresses (L11480-11558) */
    CU_ASSERT_FALSE(stage_constants_take_mmio(c, 0x2310, 0xffffffffu));
    CU_ASSERT_FALSE(c->address_offset_disable);
    CU_ASSERT_TRUE(stage_constants_take_mmio(c, INSTPM_OFFSET, 1u << 6));
    CU_ASSERT_TRUE(c->address_offset_disable);
    CU_ASSERT_TRUE(stage_constants_take_mmio(c, INSTPM_OFFSET, 0));
    CU_ASSERT_FALSE(c->address_offset_disable);
    /* Gen9's CS_DEBUG_MODE2 bit 4 does the same (Mesa writes 0x00100010,
     * skl_tri.structs.gz; the CS forwards the value 0x10) */
    CU_ASSERT_TRUE(stage_constants_take_mmio(c, CS_DEBUG_MODE2_OFFSET, 0x10));
    CU_ASSERT_TRUE(c->address_offset_disable);
    body->ReadLength[2] = 0;
    body->Buffer[0] = 0x30000800;
    stage_constants_take(c, sim, p, &b, body);
    CU_ASSERT_EQUAL(c->regs, 1);
    memcpy(got, c->data, 32);
    CU_ASSERT_EQUAL(got[0][0], 0xc0000008u);
    /* the writer stops at the payload's end */
    uint8_t grf[4][32];
    memset(grf, 0xee, sizeof grf);
    CU_ASSERT_EQUAL(stage_constants_write(c, grf, 3, 4), 4);
    CU_ASSERT_EQUAL(grf[3][0], 0x08);
    CU_ASSERT_EQUAL(grf[2][0], 0xee);
    msg_free(sim, m);
    free(c);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "dispatch payload, thread limit, URB thread-end notice", test_dispatch_payload_and_thread_limit },
    { "push constants from 3DSTATE_CONSTANT_* and INSTPM", test_push_constants },
    { 0 }
};
TEST_SUITE(stage_thread, cases);
