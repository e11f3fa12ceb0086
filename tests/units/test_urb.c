/* tests/units/test_urb.c - the URB unit driven alone: 3DSTATE_URB_* packets
 * injected on "state", MSG_URB requests on "client[0]", SFID 6 SENDs on
 * "eu[0]"; replies caught. Expected handles come from the state values worked
 * out here (start x 8 KB, (size + 1) x 64 B entries, handles in 64 B units,
 * seed 004 L6335-6352, seed 003 L8459); expected bytes from the message
 * layouts of seed 003 L8502-9015, computed here independently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/l3/l3.h"
#include "units/memory/memory.h"
#include "units/urb/urb.h"

/* ---- a catcher keeping copies of what arrives ---------------------------------------- */

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
    .kind = "test_urb_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* A unit that does nothing: woken at a cycle, it makes time pass in a quiet sim. */
static enum unit_activity idle_tick(struct unit *u)
{
    (void)u;
    return UNIT_IDLE;
}

static const struct unit_ops idle_ops = {
    .kind = "test_urb_idle",
    .state_size = sizeof(uint64_t),
    .tick = idle_tick,
};

/* ---- the rig ------------------------------------------------------------------------- */

struct rig {
    struct sim *sim;
    struct unit *urb, *l3, *idle;
    struct catcher *stage, *eu;
};

static struct rig rig_new(const char *const *over, bool with_l3, const char *const *l3_over)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", over);
    struct unit *stage = probe_add(r.sim, &catcher_ops, "stage", NULL);
    struct unit *eu = probe_add(r.sim, &catcher_ops, "eu", NULL);
    r.idle = probe_add(r.sim, &idle_ops, "idle", NULL);
    probe_link(r.sim, r.urb, "client_reply[0]", stage, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "writeback[0]", eu, "in", 1, 16, 4);
    if (with_l3) {
        r.l3 = probe_add(r.sim, &l3_ops, "l3", l3_over);
        struct unit *mem = probe_add(r.sim, &memory_ops, "mem", NULL);
        probe_link(r.sim, r.urb, "l3", r.l3, "client[0]", 1, 16, 4);
        probe_link(r.sim, r.l3, "client_reply[0]", r.urb, "l3_reply", 1, 16, 4);
        probe_link(r.sim, r.l3, "memory", mem, "client[0]", 1, 16, 4);
        probe_link(r.sim, mem, "client_reply[0]", r.l3, "memory_reply", 1, 16, 4);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.stage = unit_state(stage);
    r.eu = unit_state(eu);
    return r;
}

/* 3DSTATE_URB_<stage>: start in 8 KB units, size in 64 B units minus one. */
static void urb_state(struct rig *r, uint32_t id, uint32_t start, uint32_t size, uint32_t entries)
{
    size_t off = cs_state_common_offset(2);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_3DSTATE_URB_VS)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = 2;
    p->common_offset = (uint32_t)off;
    p->dwords[1] = entries | size << 16 | start << 25;      /* seed 004 L6335-6352 */
    /* the four 3DSTATE_URB_* supersets share one layout */
    struct spec_3DSTATE_URB_VS *v = (struct spec_3DSTATE_URB_VS *)((uint8_t *)p + off);
    v->VSNumberOfURBEntries = entries;
    v->VSURBEntryAllocationSize = size;
    v->VSURBStartingAddress = start;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

static void push_state(struct rig *r, uint32_t id, uint32_t offset, uint32_t size)
{
    size_t off = cs_state_common_offset(2);
    struct msg *m = msg_alloc(r->sim, MSG_STATE,
                              (uint32_t)(off + sizeof(struct spec_3DSTATE_PUSH_CONSTANT_ALLOC_VS)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = 2;
    p->common_offset = (uint32_t)off;
    struct spec_3DSTATE_PUSH_CONSTANT_ALLOC_VS *v = (void *)((uint8_t *)p + off);
    v->ConstantBufferOffset = offset;
    v->ConstantBufferSize = size;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
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

static void alloc(struct rig *r, uint32_t client, uint32_t tag, uint32_t count)
{
    request(r, URB_OP_ALLOC, client, tag, count, NULL, 0, 0, NULL);
}

static void deref(struct rig *r, uint32_t client, uint32_t handle)
{
    request(r, URB_OP_DEREFERENCE, client, 0, 1, &handle, 0, 0, NULL);
}

static const struct urb_msg *caught(const struct catcher *c, uint32_t i)
{
    return (const struct urb_msg *)c->payload[i];
}

/* An SFID 6 SEND of `regs` registers (header included), desc given, from a
 * thread of generation gen. */
static void send_gen(struct rig *r, uint32_t gen, uint32_t desc, uint32_t (*regs)[8],
                     uint32_t nregs, uint8_t rlen, uint32_t exec_mask, uint8_t flags)
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND,
                              (uint32_t)(sizeof(struct eu_send_msg) + nregs * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p);
    p->sfid = 6;
    p->mlen = (uint8_t)nregs;
    p->rlen = rlen;
    p->slot = 3;
    p->dst_reg = 40;
    p->exec_size = 8;
    p->flags = (uint8_t)(flags | EU_SEND_HEADER);
    p->desc = desc;
    p->exec_mask = exec_mask;
    p->ctx.valid = 1;
    p->ctx.gen = (uint8_t)gen;
    memcpy(p->regs, regs, nregs * EU_MSG_REG_BYTES);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static void send(struct rig *r, uint32_t desc, uint32_t (*regs)[8], uint32_t nregs, uint8_t rlen,
                 uint32_t exec_mask, uint8_t flags)
{
    send_gen(r, 9, desc, regs, nregs, rlen, exec_mask, flags);
}

static uint32_t urb_dword(struct rig *r, uint32_t address)
{
    uint32_t v = 0xdeadbeef;
    CU_ASSERT_EQUAL(urb_backdoor_read(r->urb, address, &v, 4), 4);
    return v;
}

static uint32_t wb_dword(const struct catcher *c, uint32_t i, uint32_t reg, uint32_t dword)
{
    const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)c->payload[i];
    uint32_t v;
    memcpy(&v, &w->regs[reg][dword * 4], 4);
    return v;
}

/* ---- allocation ---------------------------------------------------------------------- */

static void test_handles_from_state(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    /* VS: start 4 x 8 KB = 32 KB, entries of (1 + 1) x 64 = 128 B, 16 of them;
     * GS: start 8 x 8 KB = 64 KB, entries of (3 + 1) x 64 = 256 B, 8 of them */
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 3, 8);
    push_state(&r, SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_VS, 0, 8);   /* 0..16 KB */
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 7, 3);
    alloc(&r, URB_CLIENT_GS, 8, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    const struct urb_msg *a = caught(r.stage, 0), *b = caught(r.stage, 1);
    CU_ASSERT_EQUAL(a->op, URB_OP_ALLOCATED);
    CU_ASSERT_EQUAL(a->tag, 7);
    CU_ASSERT_EQUAL_FATAL(a->count, 3);
    for (uint32_t i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(a->handles[i], (32768 + i * 128) / 64);     /* 512, 514, 516 */
    CU_ASSERT_EQUAL(b->tag, 8);
    CU_ASSERT_EQUAL_FATAL(b->count, 2);
    CU_ASSERT_EQUAL(b->handles[0], 65536 / 64);
    CU_ASSERT_EQUAL(b->handles[1], (65536 + 256) / 64);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.allocations"), 5);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.entries_in_use_peak.vs"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.entries_in_use_peak.gs"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.overlaps"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.entry_count_rule"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.state.urb"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.state.push_constant_alloc"), 1);
    sim_destroy(r.sim);
}

static void test_state_checks_and_slices(void)
{
    const char *over[] = { "size_kib=64", "slices=2", NULL };
    struct rig r = rig_new(over, false, NULL);
    /* VS at 5 x 8 KB = 40 KB on 2 slices: (40 - 32) x 2 + 32 = 48 KB; 10 entries
     * of 64 B (size 0: must be a multiple of 8, L11367) -> 20 entries;
     * HS at 6 x 8 KB = 48 KB on 2 slices: 64 KB, 1 entry of 512 x 64 B = 32 KB
     * (size 511) -> 2 entries, ending at 128 KB, the URB's end (64 KB x 2 slices);
     * DS overlapping VS (5 x 8 KB);
     * a PS push-constant buffer of 10 x 2 KB at 16 KB: ends at 36 KB > 32 KB */
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 5, 0, 10);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, 6, 511, 1);
    urb_state(&r, SPEC_ID_3DSTATE_URB_DS, 5, 0, 8);
    push_state(&r, SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_PS, 8, 10);
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 1, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->handles[0], 48 * 1024 / 64);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->handles[1], 48 * 1024 / 64 + 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.entry_count_rule"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.overlaps"), 1);      /* VS with DS */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.push_constant_beyond_32kb"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.beyond_urb"), 0);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, 6, 511, 2);      /* 4 x 32 KB from 64 KB: 192 KB */
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_HS, 2, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.check.beyond_urb"), 1);
    sim_destroy(r.sim);
}

static void test_out_of_entries_waits_in_order(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 8);    /* 8 entries of 64 B from 32 KB */
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 1, 8);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    uint32_t h[8];
    for (int i = 0; i < 8; i++) {
        h[i] = caught(r.stage, 0)->handles[i];
        CU_ASSERT_EQUAL(h[i], 512u + (uint32_t)i);
    }
    alloc(&r, URB_CLIENT_VS, 2, 2);
    alloc(&r, URB_CLIENT_VS, 3, 1);
    sim_run(r.sim, 0);
    unit_wake_at(r.idle, unit_cycle(r.idle) + 1000);   /* 1000 cycles without entries */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.stage->count, 1);
    deref(&r, URB_CLIENT_VS, h[5]);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.stage->count, 1);     /* one free: the first waiter needs two; no overtaking */
    deref(&r, URB_CLIENT_VS, h[2]);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->tag, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[0], h[5]);      /* oldest freed first */
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[1], h[2]);
    deref(&r, URB_CLIENT_VS, h[7]);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 3);
    CU_ASSERT_EQUAL(caught(r.stage, 2)->tag, 3);
    CU_ASSERT_EQUAL(caught(r.stage, 2)->handles[0], h[7]);
    double stall = probe_stat(r.sim, "urb.stall_cycles.vs");
    CU_ASSERT_TRUE(stall >= 1000 && stall < 1010);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.entries_in_use_peak.vs"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.stall_cycles.gs"), 0);
    sim_destroy(r.sim);
}

static void test_reference_counts_and_refusals(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 8);
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 1, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    uint32_t h = caught(r.stage, 0)->handles[0];
    uint32_t two[2] = { h, h };
    request(&r, URB_OP_REFERENCE, URB_CLIENT_VS, 0, 2, two, 0, 0, NULL);    /* 3 readers */
    deref(&r, URB_CLIENT_VS, h);
    deref(&r, URB_CLIENT_VS, h);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 0);
    deref(&r, URB_CLIENT_VS, h);            /* the last reader frees it */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    deref(&r, URB_CLIENT_VS, h);            /* no longer live */
    deref(&r, URB_CLIENT_VS, 3);            /* never an entry */
    alloc(&r, URB_CLIENT_VS, 2, 9);         /* more than the allocation has: refused */
    alloc(&r, URB_CLIENT_CLIP, 3, 1);       /* no allocation: refused */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.refused_allocations"), 2);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 3);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->count, 0);
    CU_ASSERT_EQUAL(caught(r.stage, 2)->count, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.references"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 3);
    sim_destroy(r.sim);
}

static void test_state_resent_and_reprogrammed(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 8);
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 1, 8);
    sim_run(r.sim, 0);
    alloc(&r, URB_CLIENT_VS, 2, 1);             /* waits: all 8 in use */
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 8);    /* the same state again: nothing changes */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.stage->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.reprogrammed_in_use"), 0);
    /* a new allocation (16 entries from 8 x 8 KB = 64 KB) while 8 are in use:
     * counted, rebuilt, and the waiting request is served from it */
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 8, 0, 16);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.reprogrammed_in_use"), 1);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->tag, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 1)->handles[0], 65536 / 64);
    deref(&r, URB_CLIENT_VS, 512);              /* a handle of the old allocation */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.state.urb"), 3);
    sim_destroy(r.sim);
}

/* ---- data ---------------------------------------------------------------------------- */

static void test_stage_write_then_read(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    uint8_t rows[2][URB_ROW_BYTES];
    for (uint32_t i = 0; i < sizeof rows; i++)
        rows[i / URB_ROW_BYTES][i % URB_ROW_BYTES] = (uint8_t)(i * 7 + 1);
    uint32_t h = 600;
    request(&r, URB_OP_WRITE, URB_CLIENT_VS, 4, 1, &h, 1, 2, rows);
    sim_run(r.sim, 0);
    request(&r, URB_OP_READ, URB_CLIENT_GS, 5, 1, &h, 0, 3, NULL);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 2);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->op, URB_OP_WRITE_DONE);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->tag, 4);
    const struct urb_msg *d = caught(r.stage, 1);
    CU_ASSERT_EQUAL(d->op, URB_OP_DATA);
    CU_ASSERT_EQUAL(d->rows, 3);
    uint8_t zero[URB_ROW_BYTES] = { 0 };
    CU_ASSERT_EQUAL(memcmp(d->data[0], zero, URB_ROW_BYTES), 0);
    CU_ASSERT_EQUAL(memcmp(d->data[1], rows, sizeof rows), 0);
    uint8_t back[64];
    CU_ASSERT_EQUAL(urb_backdoor_read(r.urb, 600 * 64 + 32, back, 64), 64);
    CU_ASSERT_EQUAL(memcmp(back, rows, 64), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.ff_writes"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.ff_reads"), 1);
    sim_destroy(r.sim);
}

static uint32_t urb_desc(uint32_t opcode, uint32_t global, bool swizzle_or_mask, bool per_slot,
                         uint32_t mlen, uint32_t rlen)
{
    return desc_urb_opcode_gen8_encode(opcode) | desc_urb_global_offset_gen8_encode(global) |
           desc_urb_swizzle_gen8_encode(swizzle_or_mask) |
           desc_urb_per_slot_offset_gen8_encode(per_slot) | desc_msg_header_present_encode(1) |
           desc_msg_mlen_gen5_encode(mlen) | desc_msg_rlen_gen5_encode(rlen);
}

static void test_send_hword(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    /* NOSWIZZLE: handle 100, Global Offset 1 + slot 0 offset 2 = 3 x 32 B;
     * channel masks M0.5[15:8] = 0xfb (DW2 off), execution mask 0x7f (DW7 off) */
    uint32_t regs[3][8] = { { 100, 0, 0, 2, 0, 0xfbu << 8, 0, 0 } };
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t d = 0; d < 8; d++)
            regs[1 + k][d] = 0x1000 * (k + 1) + d;
    send(&r, urb_desc(DESC_URB_WRITE_HWORD, 1, false, true, 3, 0), regs, 3, 0, 0x7f, EU_SEND_EOT);
    sim_run(r.sim, 0);
    uint32_t base = 100 * 64 + 3 * 32;
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t d = 0; d < 8; d++) {
            uint32_t want = (d == 2 || d == 7) ? 0 : 0x1000 * (k + 1) + d;
            CU_ASSERT_EQUAL(urb_dword(&r, base + k * 32 + d * 4), want);   /* Vertex Data[8k+d] */
        }
    CU_ASSERT_EQUAL(r.eu->count, 0);        /* a write has no write-back */

    /* INTERLEAVED: handles 200 and 300, slot offsets 0 and 1 (x 32 B); phase k:
     * DW3:0 = vertex 0 Data[4k..4k+3], DW7:4 = vertex 1 Data[4k..4k+3] */
    uint32_t il[3][8] = { { 200, 300, 0, 0, 1, 0xffu << 8, 0, 0 } };
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t d = 0; d < 8; d++)
            il[1 + k][d] = 0xa000 + 16 * k + d;
    send(&r, urb_desc(DESC_URB_WRITE_HWORD, 0, true, true, 3, 0), il, 3, 0, 0xff, 0);
    sim_run(r.sim, 0);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t j = 0; j < 4; j++) {
            CU_ASSERT_EQUAL(urb_dword(&r, 200 * 64 + 0 * 32 + 16 * k + 4 * j), 0xa000 + 16 * k + j);
            CU_ASSERT_EQUAL(urb_dword(&r, 300 * 64 + 1 * 32 + 16 * k + 4 * j),
                            0xa000 + 16 * k + 4 + j);
        }
    /* and read back the same way: the write-back is the payload written */
    uint32_t rd[1][8] = { { 200, 300, 0, 0, 1, 0xffu << 8, 0, 0 } };
    send(&r, urb_desc(DESC_URB_READ_HWORD, 0, true, true, 1, 2), rd, 1, 2, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 1);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t d = 0; d < 8; d++)
            CU_ASSERT_EQUAL(wb_dword(r.eu, 0, k, d), il[1 + k][d]);
    const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)r.eu->payload[0];
    CU_ASSERT_EQUAL(w->slot, 3);
    CU_ASSERT_EQUAL(w->dst_reg, 40);
    CU_ASSERT_EQUAL(w->rlen, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.write_hword"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.read_hword"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_not_on_write"), 0);
    sim_destroy(r.sim);
}

/* Gen7's URB descriptor (opcode 2:0, Global Offset 13:3, Swizzle 14,
 * Complete 15, Per-Slot Offset 16): byt_tri's vec4 VS write, descriptor
 * 0x8a08c000 as aubinator decodes it ("urb offset 0 write HWord interleave
 * complete mlen 5", ../shared/traces/intel/byt/byt_tri.aubinator.txt L3339):
 * vertex 0's 4 slots at handle 0, vertex 1's at handle 1, 16 bytes per phase. */
static void test_send_gen7_forms(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    uint32_t regs[5][8] = { { 40, 80, 0, 0, 0, 0xffu << 8, 0, 0 } };
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t d = 0; d < 8; d++)
            regs[1 + k][d] = 0x100 * (k + 1) + d;
    send_gen(&r, 7, 0x0a08c000u, regs, 5, 0, 0xff, EU_SEND_EOT);
    sim_run(r.sim, 0);
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t j = 0; j < 4; j++) {
            CU_ASSERT_EQUAL(urb_dword(&r, 40 * 64 + 16 * k + 4 * j), 0x100 * (k + 1) + j);
            CU_ASSERT_EQUAL(urb_dword(&r, 80 * 64 + 16 * k + 4 * j), 0x100 * (k + 1) + 4 + j);
        }
    /* Global Offset 3 in bits 13:3 (x 32 B), no swizzle: Vertex Data[8k+d]
     * (the Gen8 reading of these bits would be offset 1, swizzled) */
    uint32_t lin[2][8] = { { 120, 0, 0, 0, 0, 0xffu << 8, 0, 0 }, { 1, 2, 3, 4, 5, 6, 7, 8 } };
    send_gen(&r, 7, 1u << 19 | 3u << 3, lin, 2, 0, 0xff, 0);
    sim_run(r.sim, 0);
    for (uint32_t d = 0; d < 8; d++)
        CU_ASSERT_EQUAL(urb_dword(&r, 120 * 64 + 3 * 32 + 4 * d), d + 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.write_hword"), 2);
    /* Gen7 has three opcode bits and no SIMD8 forms: opcode 6 is reserved */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.unsupported"), 0);
    send_gen(&r, 7, 1u << 19 | 6u, lin, 2, 0, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.unsupported"), 1);
    sim_destroy(r.sim);
}

static void test_send_oword(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    /* NOSWIZZLE with High OWORD Enable: DW7:4 go to handle 50 + 3 x 16 B */
    uint32_t regs[2][8] = { { 50, 0, 0, 0, 0, 1u << 16 | 0xffu << 8, 0, 0 },
                            { 1, 2, 3, 4, 5, 6, 7, 8 } };
    send(&r, urb_desc(DESC_URB_WRITE_OWORD, 3, false, false, 2, 0), regs, 2, 0, 0xff, 0);
    sim_run(r.sim, 0);
    for (uint32_t j = 0; j < 4; j++)
        CU_ASSERT_EQUAL(urb_dword(&r, 50 * 64 + 48 + 4 * j), 5 + j);
    CU_ASSERT_EQUAL(urb_dword(&r, 50 * 64 + 64), 0);    /* nothing past the OWord */
    /* read it back into the low half: DW3:0 = the OWord, DW7:4 left 0 */
    uint32_t rd[1][8] = { { 50, 0, 0, 0, 0, 0xffu << 8, 0, 0 } };
    send(&r, urb_desc(DESC_URB_READ_OWORD, 3, false, false, 1, 1), rd, 1, 1, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 1);
    for (uint32_t d = 0; d < 8; d++)
        CU_ASSERT_EQUAL(wb_dword(r.eu, 0, 0, d), d < 4 ? 5 + d : 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.write_oword"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.read_oword"), 1);
    sim_destroy(r.sim);
}

static void test_send_simd8(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    /* channel n: handle 400 + 2n, offset Global 1 + M1.n = n % 2 (x 16 B);
     * DATA[k] mask M2.n[23:16] = 0x3 for even n, 0x1 for odd n; channel 7 off */
    uint32_t regs[5][8];
    memset(regs, 0, sizeof regs);
    for (uint32_t n = 0; n < 8; n++) {
        regs[0][n] = 400 + 2 * n;
        regs[1][n] = n % 2;
        regs[2][n] = (n % 2 ? 0x1u : 0x3u) << 16;
        regs[3][n] = 1000 * n + 0;
        regs[4][n] = 1000 * n + 1;
    }
    send(&r, urb_desc(DESC_URB_SIMD8_WRITE, 1, true, true, 5, 0), regs, 5, 0, 0x7f, 0);
    sim_run(r.sim, 0);
    uint32_t expect[8][2];
    for (uint32_t n = 0; n < 8; n++)
        for (uint32_t k = 0; k < 2; k++) {
            bool on = n < 7 && ((n % 2 ? 0x1u : 0x3u) >> k & 1);
            expect[n][k] = on ? 1000 * n + k : 0;
            uint32_t address = (400 + 2 * n) * 64 + (1 + n % 2) * 16 + 4 * k;
            CU_ASSERT_EQUAL(urb_dword(&r, address), expect[n][k]);
        }
    /* read back with the same per-slot offsets, no masks, every channel */
    uint32_t rd[2][8];
    memcpy(rd, regs, sizeof rd);
    send(&r, urb_desc(DESC_URB_SIMD8_READ, 1, false, true, 2, 2), rd, 2, 2, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 1);
    for (uint32_t n = 0; n < 8; n++)
        for (uint32_t k = 0; k < 2; k++)
            CU_ASSERT_EQUAL(wb_dword(r.eu, 0, k, n), expect[n][k]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.simd8_write"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.simd8_read"), 1);
    sim_destroy(r.sim);
}

static void test_send_atomics(void)
{
    struct rig r = rig_new(NULL, false, NULL);
    uint32_t address = 70 * 64 + 5 * 4, v = 41;
    CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, address, &v, 4), 4);
    uint32_t hdr[1][8] = { { 70, 0, 8, 0, 0, 0, 0, 0 } };   /* src0 = 8 in M0.2 */
    send(&r, urb_desc(DESC_URB_ATOMIC_INC, 5, false, false, 1, 1), hdr, 1, 1, 0xff, 0);
    sim_run(r.sim, 0);
    send(&r, urb_desc(DESC_URB_ATOMIC_ADD, 5, false, false, 1, 1), hdr, 1, 1, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 2);
    CU_ASSERT_EQUAL(wb_dword(r.eu, 0, 0, 0), 41);   /* old value */
    CU_ASSERT_EQUAL(wb_dword(r.eu, 1, 0, 0), 42);
    CU_ASSERT_EQUAL(urb_dword(&r, address), 50);
    hdr[0][2] = 7;
    send(&r, urb_desc(DESC_URB_ATOMIC_MOV, 5, false, false, 1, 0), hdr, 1, 0, 0xff, EU_SEND_EOT);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(urb_dword(&r, address), 7);
    CU_ASSERT_EQUAL(r.eu->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.send.atomic"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_not_on_write"), 1);
    sim_destroy(r.sim);
}

static void test_out_of_bounds_and_bad_messages(void)
{
    const char *over[] = { "size_kib=16", NULL };      /* 16384 bytes: handles 0..255 */
    struct rig r = rig_new(over, false, NULL);
    uint32_t regs[2][8] = { { 256, 0, 0, 0, 0, 0xffu << 8, 0, 0 }, { 9, 9, 9, 9, 9, 9, 9, 9 } };
    send(&r, urb_desc(DESC_URB_WRITE_HWORD, 0, false, false, 2, 0), regs, 2, 0, 0xff, 0);
    regs[0][0] = 255;   /* handle 255 + 1 x 32 B: the URB's last 32 bytes */
    send(&r, urb_desc(DESC_URB_WRITE_HWORD, 1, false, false, 2, 0), regs, 2, 0, 0xff, 0);
    sim_run(r.sim, 0);
    uint8_t past[4];
    CU_ASSERT_EQUAL(urb_backdoor_read(r.urb, 16384, past, 4), 0);
    CU_ASSERT_EQUAL(urb_dword(&r, 255 * 64 + 32), 9);
    /* a read reaching past the end returns 0 there (its second phase) */
    uint32_t rd[1][8] = { { 255, 0, 0, 0, 0, 0xffu << 8, 0, 0 } };
    send(&r, urb_desc(DESC_URB_READ_HWORD, 1, false, false, 1, 2), rd, 1, 2, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 1);
    CU_ASSERT_EQUAL(wb_dword(r.eu, 0, 0, 0), 9);
    CU_ASSERT_EQUAL(wb_dword(r.eu, 0, 1, 0), 0);    /* byte 16384: outside */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.out_of_bounds"), 2);
    /* a stage's write of rows 1-2 of handle 255: row 1 is the URB's last, row 2 is dropped */
    uint8_t rows[2][URB_ROW_BYTES];
    memset(rows, 0x55, sizeof rows);
    uint32_t h = 255;
    request(&r, URB_OP_WRITE, URB_CLIENT_VS, 6, 1, &h, 1, 2, rows);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(urb_dword(&r, 255 * 64 + 60), 0x55555555u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.out_of_bounds"), 3);
    CU_ASSERT_EQUAL_FATAL(r.stage->count, 1);
    CU_ASSERT_EQUAL(caught(r.stage, 0)->op, URB_OP_WRITE_DONE);
    /* SIMD8 with both optional phases but only 2 registers; reserved opcode 9
     * (zeros back to the waiting thread); a stage op it never sends */
    send(&r, urb_desc(DESC_URB_SIMD8_READ, 0, true, true, 2, 1), rd, 1, 1, 0xff, 0);
    send(&r, urb_desc(9, 0, false, false, 1, 1), rd, 1, 1, 0xff, 0);
    request(&r, 99, URB_CLIENT_VS, 0, 0, NULL, 0, 0, NULL);
    request(&r, URB_OP_ALLOC, URB_CLIENT_COUNT, 0, 1, NULL, 0, 0, NULL);
    /* Header Present clear (must be 1, L8491): counted, executed */
    send(&r, urb_desc(DESC_URB_READ_HWORD, 1, false, false, 1, 1) & ~desc_msg_header_present_encode(1),
         rd, 1, 1, 0xff, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_messages"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.unsupported"), 1);
    CU_ASSERT_EQUAL_FATAL(r.eu->count, 4);      /* every read replied: zeros for the bad ones */
    CU_ASSERT_EQUAL(wb_dword(r.eu, 3, 0, 0), 0x55555555u);  /* the stage's write above */
    CU_ASSERT_EQUAL(wb_dword(r.eu, 2, 0, 0), 0);
    sim_destroy(r.sim);
}

/* ---- timing -------------------------------------------------------------------------- */

/* Cycle from injecting a SIMD8 read of 8 vertices (handles 2 lines apart) to its write-back. */
static uint64_t read_time(struct rig *r)
{
    uint32_t rd[1][8];
    for (uint32_t n = 0; n < 8; n++)
        rd[0][n] = 128 + 2 * n;
    uint64_t start = sim_now(r->sim) / 1000;
    send(r, urb_desc(DESC_URB_SIMD8_READ, 0, false, false, 1, 1), rd, 1, 1, 0xff, 0);
    sim_run(r->sim, 0);
    CU_ASSERT_EQUAL_FATAL(r->eu->count, 1);
    return r->eu->cycle[0] - start;
}

static void test_timing_without_and_with_l3(void)
{
    const char *fast[] = { "latency=20", NULL }, *slow[] = { "latency=50", NULL };
    struct rig a = rig_new(fast, false, NULL), b = rig_new(slow, false, NULL);
    uint64_t ta = read_time(&a), tb = read_time(&b);
    CU_ASSERT_EQUAL(tb - ta, 30);
    CU_ASSERT_TRUE(ta >= 20);
    CU_ASSERT_EQUAL(probe_stat(a.sim, "urb.lines"), 0);
    sim_destroy(a.sim);
    sim_destroy(b.sim);

    /* with an L3: one MEMREQ_URB request per line (8 vertices in 8 lines), the
     * reply after the L3's urb_latency; the `latency` param no longer counts */
    const char *l3_over[] = { "size_kib=768", "banks=4", "cache_kib=384", "urb_kib=384",
                              "urb_latency=100", NULL };
    struct rig c = rig_new(slow, true, l3_over);
    uint64_t tc = read_time(&c);
    CU_ASSERT_TRUE(tc >= 100);
    CU_ASSERT_TRUE(tc < 100 + 50);
    CU_ASSERT_EQUAL(probe_stat(c.sim, "urb.lines"), 8);
    CU_ASSERT_EQUAL(probe_stat(c.sim, "l3.urb_accesses"), 8);
    CU_ASSERT_EQUAL(probe_stat(c.sim, "l3.misses"), 0);
    /* a stage's read of 5 rows from row 1 of handle 600: bytes 600 x 64 + 32 up
     * to + 192, lines 600, 601 and 602 */
    uint32_t h = 600;
    uint64_t start = sim_now(c.sim) / 1000;
    request(&c, URB_OP_READ, URB_CLIENT_GS, 9, 1, &h, 1, 5, NULL);
    sim_run(c.sim, 0);
    CU_ASSERT_EQUAL_FATAL(c.stage->count, 1);
    CU_ASSERT_TRUE(c.stage->cycle[0] - start >= 100);
    CU_ASSERT_EQUAL(probe_stat(c.sim, "urb.lines"), 8 + 3);
    CU_ASSERT_EQUAL(probe_stat(c.sim, "l3.urb_accesses"), 8 + 3);
    sim_destroy(c.sim);
}

static const struct test_case cases[] = {
    { "Gen7 URB descriptor: interleaved vec4 write, global offset, reserved opcode",
      test_send_gen7_forms },
    { "handles and entry sizes from 3DSTATE_URB_*", test_handles_from_state },
    { "allocation checks and multi-slice scaling", test_state_checks_and_slices },
    { "out of entries: requests wait and resume in order", test_out_of_entries_waits_in_order },
    { "reference counts, refused allocations", test_reference_counts_and_refusals },
    { "state sent again, allocation reprogrammed in use", test_state_resent_and_reprogrammed },
    { "a stage writes rows and reads them back", test_stage_write_then_read },
    { "SFID 6 HWORD writes and reads, masks and per-slot offsets", test_send_hword },
    { "SFID 6 OWORD write and read", test_send_oword },
    { "SFID 6 SIMD8 write and read with both optional phases", test_send_simd8 },
    { "SFID 6 atomics", test_send_atomics },
    { "out-of-bounds accesses and bad messages", test_out_of_bounds_and_bad_messages },
    { "timing with and without an L3", test_timing_without_and_with_l3 },
    { 0 }
};
TEST_SUITE(urb, cases);
