/* tests/units/test_urb_fence.c - the Gen4 URB (urb_fence) driven alone:
 * URB_FENCE / CS_URB_STATE / CONSTANT_BUFFER on "state", MSG_URB on
 * "client[0]", SFID 6 SENDs on "eu[0]"; replies caught. The fences are
 * g965_tri's (g965_tri.aubinator.txt, first URB_FENCE: VS 32, GS 40, CLIP 50,
 * SF 82, VFE 0, CS 256) and its unit states' entry counts and sizes (VS_STATE
 * 32 entries of 1 x 512 bits, SF_STATE 8 of 4); the expected handles are the
 * regions' starts plus entry x size, worked out here. The URB_WRITE forms
 * follow units/urb_fence/urb_fence.h; the expected bytes are computed here. */
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/urb_fence/urb_fence.h"

#define CATCH_MAX 64
#define CATCH_BYTES 1024

struct catcher {
    struct port *in;
    uint32_t count;
    uint64_t cycle[CATCH_MAX];
    uint8_t payload[CATCH_MAX][CATCH_BYTES];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "replies" },
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
        if (c->count < CATCH_MAX) {
            c->cycle[c->count] = unit_cycle(u);
            memcpy(c->payload[c->count], m->payload, m->size < CATCH_BYTES ? m->size : CATCH_BYTES);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_urb_fence_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb;
    struct catcher *stage, *eu, *eot_vs, *eot_sf;
};

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_fence_ops, "urb", NULL);
    struct unit *stage = probe_add(r.sim, &catcher_ops, "stage", NULL);
    struct unit *eu = probe_add(r.sim, &catcher_ops, "eu", NULL);
    struct unit *vs = probe_add(r.sim, &catcher_ops, "vs", NULL);
    struct unit *sf = probe_add(r.sim, &catcher_ops, "sf", NULL);
    probe_link(r.sim, r.urb, "client_reply[0]", stage, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "writeback[0]", eu, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_vs", vs, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_sf", sf, "in", 1, 16, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.stage = unit_state(stage);
    r.eu = unit_state(eu);
    r.eot_vs = unit_state(vs);
    r.eot_sf = unit_state(sf);
    return r;
}

static void *state_packet(struct rig *r, uint32_t id, size_t common_size)
{
    size_t off = cs_state_common_offset(3);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + common_size));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off + common_size);
    p->id = id;
    p->gen = 4;
    p->dword_count = 3;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
    return (uint8_t *)p + off;
}

/* URB_FENCE with every Reallocation Request set. */
static void fence(struct rig *r, uint32_t vs, uint32_t gs, uint32_t clip, uint32_t sf,
                  uint32_t vfe, uint32_t cs)
{
    struct spec_URB_FENCE *v = state_packet(r, SPEC_ID_URB_FENCE, sizeof *v);
    v->VSUnitURBReallocationRequest = v->GSUnitURBReallocationRequest = true;
    v->CLIPUnitURBReallocationRequest = v->SFUnitURBReallocationRequest = true;
    v->VFEUnitURBReallocationRequest = v->CSUnitURBReallocationRequest = true;
    v->VSFence = vs;
    v->GSFence = gs;
    v->CLIPFence = clip;
    v->SFFence = sf;
    v->VFEFence = vfe;
    v->CSFence = cs;
}

static void g965_fences(struct rig *r)
{
    fence(r, 32, 40, 50, 82, 0, 256);
}

static void request(struct rig *r, uint32_t op, uint32_t client, uint32_t tag, uint32_t count,
                    const uint32_t *handles, uint32_t row, uint32_t rows, const void *data)
{
    uint32_t bytes = data ? rows * URB_ROW_BYTES : 0;
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)(sizeof(struct urb_msg) + bytes));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = client;
    q->tag = tag;
    q->count = count;
    q->row = row;
    q->rows = rows;
    for (uint32_t i = 0; handles && i < count; i++)
        q->handles[i] = handles[i];
    if (data)
        memcpy(q->data, data, bytes);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 0), m));
}

/* A unit state's Number of URB Entries and Allocation Size (512-bit units - 1). */
static void configure(struct rig *r, uint32_t client, uint32_t entries, uint32_t size_field)
{
    request(r, URB_OP_CONFIGURE, client, 0, entries, NULL, 0, 2 * (size_field + 1), NULL);
}

static void alloc(struct rig *r, uint32_t client, uint32_t tag, uint32_t count)
{
    request(r, URB_OP_ALLOC, client, tag, count, NULL, 0, 0, NULL);
}

static const struct urb_msg *caught(const struct catcher *c, uint32_t i)
{
    return (const struct urb_msg *)c->payload[i];
}

static void send_masked(struct rig *r, uint32_t ffid, uint32_t desc, uint32_t (*regs)[8],
                        uint32_t nregs, uint8_t rlen, uint8_t flags, uint32_t group,
                        uint32_t exec_mask)
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND,
                              (uint32_t)(sizeof(struct eu_send_msg) + nregs * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p);
    p->sfid = 6;
    p->mlen = (uint8_t)nregs;
    p->rlen = rlen;
    p->slot = 2;
    p->dst_reg = 12;
    p->exec_size = 8;
    p->flags = flags;
    p->desc = desc;
    p->exec_mask = exec_mask;
    p->ffid = ffid;
    p->ctx.valid = 1;
    p->ctx.gen = 4;
    p->ctx.group = group;
    memcpy(p->regs, regs, nregs * EU_MSG_REG_BYTES);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static void send(struct rig *r, uint32_t ffid, uint32_t desc, uint32_t (*regs)[8], uint32_t nregs,
                 uint8_t rlen, uint8_t flags, uint32_t group)
{
    send_masked(r, ffid, desc, regs, nregs, rlen, flags, group, 0xff);
}

static uint32_t urb_dword(struct rig *r, uint32_t address)
{
    uint32_t v = 0xdeadbeef;
    CU_ASSERT_EQUAL(urb_fence_backdoor_read(r->urb, address, &v, 4), 4);
    return v;
}

/* Gen4 URB descriptor function control (urb_fence.h): offset 9:4, swizzle
 * 11:10, allocate 13, used 14, complete 15; SFID 6 in 27:24, mlen 23:20. */
static uint32_t urb_desc(uint32_t offset, uint32_t swizzle, bool allocate, bool used,
                         bool complete, uint32_t mlen, uint32_t rlen)
{
    return offset << 4 | swizzle << 10 | (uint32_t)allocate << 13 | (uint32_t)used << 14 |
           (uint32_t)complete << 15 | rlen << 16 | mlen << 20 | 6u << 24;
}

/* ---- cases ---------------------------------------------------------------------------- */

static void test_g965_fences_and_handles(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_VS, 32, 0);    /* VS_STATE: 32 entries, size 0 */
    configure(&r, URB_CLIENT_SF, 8, 3);     /* first SF_STATE: 8 entries, size 3 */
    alloc(&r, URB_CLIENT_VS, 1, 2);
    alloc(&r, URB_CLIENT_SF, 2, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->op, URB_OP_ALLOCATED);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->client, URB_CLIENT_VS);
    CU_ASSERT_EQUAL_FATAL(caught(r.stage, 0)->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->handles[0], 0);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->handles[1], 1);
    /* SF's region starts at the CLIP fence, 50; entries of 4 rows */
    CU_ASSERT_EQUAL_FATAL(caught(r.stage, 1)->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[0], 50);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[1], 54);
    /* a VFE fence of 0 is the 3D driver's "no VFE region": nothing counted */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.fence_order"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.fence_beyond_urb"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.entries_beyond_fence"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fences"), 1);
    sim_destroy(r.sim);
}

static void test_back_pressure_at_the_fence(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_SF, 8, 3);
    alloc(&r, URB_CLIENT_SF, 1, 8);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->count, 8);
    alloc(&r, URB_CLIENT_SF, 2, 1);         /* the region is full: waits */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.stage->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.fence_waits"), 1);
    /* the entry at 62 (the 4th: 50 + 3 x 4) is dereferenced */
    uint32_t h = 62;
    request(&r, URB_OP_DEREFERENCE, URB_CLIENT_SF, 0, 1, &h, 0, 0, NULL);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->tag, 2);
    CU_ASSERT_EQUAL_FATAL(caught(r.stage, 1)->count, 1);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[0], 62);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    sim_destroy(r.sim);
}

static void test_bad_fences_counted_and_clamped(void)
{
    struct rig r = rig_new();
    /* GS below VS, CS past the 256-row URB */
    fence(&r, 20, 10, 50, 82, 90, 300);
    configure(&r, URB_CLIENT_VS, 24, 0);    /* VS region [0, 20): 4 entries do not fit */
    configure(&r, URB_CLIENT_GS, 1, 0);     /* GS clamped to [20, 20): none fits */
    alloc(&r, URB_CLIENT_VS, 1, 20);
    alloc(&r, URB_CLIENT_VS, 2, 21);        /* more than the region has: refused */
    alloc(&r, URB_CLIENT_GS, 3, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.fence_order"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.fence_beyond_urb"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.entries_beyond_fence"), 4 + 1);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 3);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->count, 20);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->handles[19], 19);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->count, 0);
    CU_ASSERT_EQUAL(caught(r.stage, 2)->count, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.refused_allocations"), 2);
    sim_destroy(r.sim);
}

static void test_vs_interleaved_write_and_eot(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_VS, 32, 1);    /* entries of 2 x 512 bits */
    alloc(&r, URB_CLIENT_VS, 1, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    uint32_t h0 = caught(r.stage, 0)->handles[0], h1 = caught(r.stage, 0)->handles[1];
    CU_ASSERT_EQUAL(h0, 0);
    CU_ASSERT_EQUAL(h1, 2);
    /* g965_tri's VS write: header + 4 registers, interleaved, used, complete, EOT
     * (0x8650c400 without the EOT bit, which travels in the flags) */
    uint32_t regs[5][8] = { { h0 | 0x10000, h1 | 0x20000 } };
    for (uint32_t k = 1; k < 5; k++)
        for (uint32_t d = 0; d < 8; d++)
            regs[k][d] = 100 * k + d;
    CU_ASSERT_EQUAL(urb_desc(0, 1, false, true, true, 5, 0), 0x0650c000 | 0x400);
    send(&r, FFID_VS, 0x0650c400, regs, 5, 0, EU_SEND_EOT | EU_SEND_HEADER, 77);
    sim_run(r.sim, 0);
    /* register k's DW3:0 -> vertex 0's slot k, DW7:4 -> vertex 1's slot k */
    for (uint32_t k = 1; k < 5; k++)
        for (uint32_t d = 0; d < 4; d++) {
            CU_ASSERT_EQUAL(urb_dword(&r, h0 * 64 + (k - 1) * 16 + d * 4), 100 * k + d);
            CU_ASSERT_EQUAL(urb_dword(&r, h1 * 64 + (k - 1) * 16 + d * 4), 100 * k + 4 + d);
        }
    CU_ASSERT_EQUAL_FATAL(r.eot_vs->count, 1);
    const struct eu_thread_end *t = (const struct eu_thread_end *)r.eot_vs->payload[0];
    CU_ASSERT_EQUAL(t->op, EU_TD_THREAD_END);
    CU_ASSERT_EQUAL(t->request_id, 77);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_notified"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.write"), 1);
    /* a stage reads the rows back: row 1 of vertex 1 = slots 2 and 3 */
    request(&r, URB_OP_READ, URB_CLIENT_VS, 5, 1, &h1, 1, 1, NULL);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    uint32_t dw[8];
    memcpy(dw, caught(r.stage, 1)->data[0], sizeof dw);
    CU_ASSERT_EQUAL(dw[0], 304);
    CU_ASSERT_EQUAL(dw[4], 404);
    sim_destroy(r.sim);
}

/* A one-vertex VS thread (seed 001 L6159-6177: the unused half disabled by
 * the execution mask; L6382-6389: URB Return Handle 1 = handle 0): its
 * interleaved write stores DW3:0 only, so neither its own vertex nor the
 * entry another handle names is overwritten by the disabled channels. */
static void test_vs_one_vertex_write_keeps_the_disabled_half(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_VS, 32, 0);    /* entries of one 512-bit unit */
    alloc(&r, URB_CLIENT_VS, 1, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    uint32_t h0 = caught(r.stage, 0)->handles[0], h1 = caught(r.stage, 0)->handles[1];
    CU_ASSERT_NOT_EQUAL(h0, h1);
    /* first a full pair writes both entries */
    uint32_t regs[3][8] = { { h0 | 0x10000, h1 | 0x20000 } };
    for (uint32_t d = 0; d < 8; d++)
        regs[1][d] = regs[2][d] = 1000 + d;
    send(&r, FFID_VS, urb_desc(0, 1, false, true, true, 3, 0), regs, 3, 0, EU_SEND_HEADER, 1);
    sim_run(r.sim, 0);
    /* then a one-vertex thread on h1 (handle 1 repeats it), DW7:4 garbage */
    uint32_t one[3][8] = { { h1 | 0x30000, h1 | 0x30000 } };
    for (uint32_t d = 0; d < 8; d++)
        one[1][d] = one[2][d] = d < 4 ? 2000 + d : 0xbad;
    send_masked(&r, FFID_VS, urb_desc(0, 1, false, true, true, 3, 0), one, 3, 0,
                EU_SEND_EOT | EU_SEND_HEADER, 2, 0x0f);
    sim_run(r.sim, 0);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t d = 0; d < 4; d++) {
            CU_ASSERT_EQUAL(urb_dword(&r, h1 * 64 + k * 16 + d * 4), 2000 + d);
            CU_ASSERT_EQUAL(urb_dword(&r, h0 * 64 + k * 16 + d * 4), 1000 + d);
        }
    sim_destroy(r.sim);
}

static void test_sf_transposed_write_complete_unused(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_SF, 8, 1);     /* entries of 2 x 512 bits = 4 rows */
    alloc(&r, URB_CLIENT_SF, 1, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    uint32_t h = caught(r.stage, 0)->handles[0];
    CU_ASSERT_EQUAL(h, 50);
    uint32_t regs[4][8] = { { h } };
    for (uint32_t k = 1; k < 4; k++)
        for (uint32_t d = 0; d < 8; d++)
            regs[k][d] = 10 * k + d;
    /* g965_tri's setup kernel: M1 = Cx, M2 = Cy, M3 = Co, mlen 4 (desc 0x8640c800) */
    send(&r, FFID_SF, urb_desc(0, 2, false, true, true, 4, 0), regs, 4, 0, EU_SEND_EOT, 3);
    sim_run(r.sim, 0);
    /* seed 001 L14400-14420: attribute j's slot is Cx[j], Cy[j], null, Co[j] */
    for (uint32_t j = 0; j < 8; j++) {
        CU_ASSERT_EQUAL(urb_dword(&r, h * 64 + j * 16 + 0), 10 + j);
        CU_ASSERT_EQUAL(urb_dword(&r, h * 64 + j * 16 + 4), 20 + j);
        CU_ASSERT_EQUAL(urb_dword(&r, h * 64 + j * 16 + 8), 0);
        CU_ASSERT_EQUAL(urb_dword(&r, h * 64 + j * 16 + 12), 30 + j);
    }
    CU_ASSERT_EQUAL(r.eot_sf->count, 1);
    /* complete and not used: the thread gives the entry back */
    send(&r, FFID_SF, urb_desc(0, 0, false, false, true, 2, 0), regs, 2, 0, 0, 3);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.complete_unused"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    sim_destroy(r.sim);
}

static void test_allocate_send_returns_a_handle(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    configure(&r, URB_CLIENT_CLIP, 10, 0);
    uint32_t regs[2][8] = { { 40 } };
    /* no entry handed out yet: the write targets 40, and asks for one more */
    send(&r, FFID_CLIP, urb_desc(0, 0, true, true, false, 2, 1), regs, 2, 1, 0, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 1);
    const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)r.eu->payload[0];
    uint32_t handle;
    memcpy(&handle, w->regs[0], 4);
    CU_ASSERT_EQUAL(handle, 40);            /* CLIP's region starts at the GS fence */
    CU_ASSERT_EQUAL(w->dst_reg, 12);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.allocate"), 1);
    sim_destroy(r.sim);
}

static void test_constant_buffer_copied_into_a_cs_entry(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    struct spec_CS_URB_STATE *cs = state_packet(&r, SPEC_ID_CS_URB_STATE, sizeof *cs);
    cs->NumberOfURBEntries = 4;
    cs->URBEntryAllocationSize = 0;
    uint32_t data[16];
    for (uint32_t i = 0; i < 16; i++)
        data[i] = 0x1000 + i;
    gpu_memory_write(r.mem, 0x132000, data, sizeof data, NULL);
    struct spec_CONSTANT_BUFFER *v = state_packet(&r, SPEC_ID_CONSTANT_BUFFER, sizeof *v);
    v->Valid = true;
    v->BufferLength = 0;
    v->BufferStartingAddress = 0x132000;
    sim_run(r.sim, 0);
    /* the CS region starts at the SF fence, 82 */
    for (uint32_t i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(urb_dword(&r, 82 * 64 + 4 * i), 0x1000 + i);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.constant_bytes"), 64);
    /* a second buffer replaces the first: still one entry in use */
    v = state_packet(&r, SPEC_ID_CONSTANT_BUFFER, sizeof *v);
    v->Valid = true;
    v->BufferStartingAddress = 0x132000;
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.entries_in_use_peak.cs"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.constant_buffers"), 2);
    /* CS_URB_STATE with no entries: the next buffer has nowhere to go (counted) */
    cs = state_packet(&r, SPEC_ID_CS_URB_STATE, sizeof *cs);
    cs->NumberOfURBEntries = 0;
    v = state_packet(&r, SPEC_ID_CONSTANT_BUFFER, sizeof *v);
    v->Valid = true;
    v->BufferStartingAddress = 0x132000;
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.constant_faults"), 1);
    sim_destroy(r.sim);
}

static void test_bad_messages(void)
{
    struct rig r = rig_new();
    g965_fences(&r);
    /* an ALLOC for a client without a region (HS), a READ of 0 rows, a SEND
     * with an unsupported opcode, a dereference of a dead handle */
    alloc(&r, URB_CLIENT_HS, 1, 1);
    uint32_t h = 3;
    request(&r, URB_OP_READ, URB_CLIENT_VS, 2, 1, &h, 0, 0, NULL);
    request(&r, URB_OP_DEREFERENCE, URB_CLIENT_VS, 0, 1, &h, 0, 0, NULL);
    uint32_t regs[2][8] = { { 0 } };
    send(&r, FFID_VS, urb_desc(0, 0, false, false, false, 2, 0) | 1, regs, 2, 0, 0, 0);
    /* a write past the URB's end: dropped, counted */
    uint32_t far[2][8] = { { 0x1ff } };
    send(&r, FFID_VS, urb_desc(2, 0, false, true, false, 2, 0), far, 2, 0, 0, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_messages"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.unsupported"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.out_of_bounds"), 1);
    CU_ASSERT_EQUAL(r.stage->count, 1);     /* the refused ALLOC still answered */
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "g965_tri's fences and unit states give each region its handles",
      test_g965_fences_and_handles },
    { "a full region holds allocations at its fence until an entry frees",
      test_back_pressure_at_the_fence },
    { "fences out of order or past the URB, entries past a fence: counted, clamped",
      test_bad_fences_counted_and_clamped },
    { "the VS's interleaved URB_WRITE and its EOT", test_vs_interleaved_write_and_eot },
    { "a one-vertex VS thread's URB_WRITE leaves the disabled half unwritten",
      test_vs_one_vertex_write_keeps_the_disabled_half },
    { "the SF's transposed URB_WRITE; Complete without Used frees the entry",
      test_sf_transposed_write_complete_unused },
    { "an Allocate URB_WRITE returns a new handle", test_allocate_send_returns_a_handle },
    { "CONSTANT_BUFFER is copied into a CS-region entry", test_constant_buffer_copied_into_a_cs_entry },
    { "bad messages are counted, never a crash", test_bad_messages },
    { 0 }
};
TEST_SUITE(urb_fence, cases);
