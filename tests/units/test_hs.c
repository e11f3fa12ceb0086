/* tests/units/test_hs.c - the Hull Shader stage (units/hs) with the real URB
 * unit: patch entries allocated from 3DSTATE_URB_HS, the thread payloads of
 * the dispatch modes, thread ends through the URB's "eot_hs", patches to TE
 * in order with their references, HS_INVOCATION_COUNT.
 * Expected payloads are worked out here from seed 003's tables (SINGLE_PATCH
 * L12450-12560: R0.0 patch handle, R0.1 PrimitiveID, R0.2[23:17] Instance
 * Number, R1.. ICP handles; 8_PATCH L12600-12660: R1.p patch handles, R2.p
 * PrimitiveIDs, then one register per ICP; dispatch masks from "HS Thread
 * Dispatch Mask") and the URB's handle arithmetic (start in 8 KB units,
 * handles in 64-byte units, seed 003 L8459, 004 L6335). */
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
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/hs/hs.h"
#include "units/urb/urb.h"

#define MAX_CAUGHT 16

/* ---- catchers: thread dispatches, the TE side, URB replies ------------------------------- */

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[MAX_CAUGHT];
    _Alignas(16) uint8_t payload[MAX_CAUGHT][1024];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
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
        if (c->count < MAX_CAUGHT) {
            c->kind[c->count] = m->kind;
            memcpy(c->payload[c->count], m->payload, m->size < 1024 ? m->size : 1024);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_hs_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* ---- a feeder: messages injected on "in" go out to the unit under test, in order --- */

struct feeder {
    struct port *in, *out;
};

static const struct port_desc feeder_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "injected" },
    { .name = "out", .direction = PORT_OUT, .help = "to the unit" },
    PORT_END
};

static int feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct feeder *f = unit_state(u);
    f->in = unit_port(u, "in", 0);
    f->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity feeder_tick(struct unit *u)
{
    struct feeder *f = unit_state(u);
    struct msg *m;
    while ((m = port_peek(f->in)) && port_can_send(f->out)) {
        port_pop(f->in);
        port_try_send(f->out, m);
    }
    return port_peek(f->in) ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops feeder_ops = {
    .kind = "test_feeder",
    .state_size = sizeof(struct feeder),
    .ports = feeder_ports,
    .realize = feeder_realize,
    .tick = feeder_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb, *hs_unit, *feeder;
    struct catcher *td, *te, *vs_reply;
};

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    /* the test plays the EUs: while the HS waits for thread ends the input
     * behind it looks stranded to the fabric's quiescence check (reported on
     * the log, which is kept quiet here) */
    r.sim = probe_sim(&(struct sim_options){ .watchdog_cycles = 10000, .log_level = -1 });
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.hs_unit = probe_add(r.sim, &hs_ops, "hs", NULL);
    r.feeder = probe_add(r.sim, &feeder_ops, "vs", NULL);
    probe_link(r.sim, r.feeder, "out", r.hs_unit, "vs", 1, 4, 1);
    struct unit *td = probe_add(r.sim, &catcher_ops, "td0", NULL);
    struct unit *te = probe_add(r.sim, &catcher_ops, "te", NULL);
    struct unit *vs = probe_add(r.sim, &catcher_ops, "vs_reply", NULL);
    probe_link(r.sim, r.hs_unit, "td[0]", td, "in", 1, 8, 1);
    probe_link(r.sim, r.hs_unit, "te", te, "in", 1, 8, 1);
    probe_link(r.sim, r.hs_unit, "urb", r.urb, "client[0]", 1, 8, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.hs_unit, "urb_reply", 1, 8, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", vs, "in", 1, 8, 4);
    probe_link(r.sim, r.urb, "eot_hs", r.hs_unit, "eot", 1, 8, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td = unit_state(td);
    r.te = unit_state(te);
    r.vs_reply = unit_state(vs);
    return r;
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

/* A state packet of `id` whose superset struct (size bytes) the caller fills. */
static void *state_msg(struct rig *r, uint32_t id, size_t size, struct msg **out)
{
    size_t off = cs_state_common_offset(2);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + size));
    memset(m->payload, 0, off + size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = 2;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *out = m;
    return (uint8_t *)p + off;
}

static void to_hs(struct rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->feeder, "in", 0), m));
}

/* 3DSTATE_URB_<stage> to the URB: start in 8 KB units, size in 64 B units - 1. */
static void urb_state(struct rig *r, uint32_t id, uint32_t start, uint32_t size, uint32_t entries)
{
    struct msg *m;
    struct spec_3DSTATE_URB_VS *v = state_msg(r, id, sizeof *v, &m);
    v->VSNumberOfURBEntries = entries;      /* the four supersets share one layout */
    v->VSURBEntryAllocationSize = size;
    v->VSURBStartingAddress = start;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

/* The test plays the VS: `count` VS entries, their handles into out[]. */
static void vs_entries(struct rig *r, uint32_t count, uint32_t *out)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = count;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->vs_reply->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r->vs_reply->payload[0];
    CU_ASSERT_EQUAL_FATAL(a->count, count);
    memcpy(out, a->handles, count * sizeof *out);
    r->vs_reply->count = 0;
}

static void vs_reference(struct rig *r, const uint32_t *handles, uint32_t count)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_REFERENCE;
    q->client = URB_CLIENT_VS;
    q->count = count;
    memcpy(q->handles, handles, count * sizeof *handles);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
}

static void patch(struct rig *r, uint32_t topology, uint32_t count, const uint32_t *handles,
                  uint32_t primitive_id)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->vertex_count = count;
    p->primitive_id = primitive_id;
    p->draw = 7;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, count * sizeof *handles);
    to_hs(r, m);
}

static void mmio(struct rig *r, uint32_t op, uint32_t offset, uint32_t value)
{
    size_t bytes = sizeof(struct cs_mmio) + sizeof(struct pipeline_registers);
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, (uint32_t)bytes);
    memset(m->payload, 0, bytes);
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = op;
    c->offset = offset;
    c->value = value;
    c->size = (uint32_t)sizeof(struct pipeline_registers);
    to_hs(r, m);
}

struct hs_setup {
    bool enable;
    uint32_t instance_count, max_threads, mode;
    bool vertex_handles, primitive_id;
};

static void hs_state(struct rig *r, const struct hs_setup *h)
{
    struct msg *m;
    struct spec_3DSTATE_HS *v = state_msg(r, SPEC_ID_3DSTATE_HS, sizeof *v, &m);
    v->Enable = h->enable;
    v->StatisticsEnable = true;
    v->InstanceCount = h->instance_count;
    v->MaximumNumberOfThreads = h->max_threads;
    v->DispatchMode = h->mode;
    v->IncludeVertexHandles = h->vertex_handles;
    v->IncludePrimitiveID = h->primitive_id;
    v->KernelStartPointer = 0x7040;
    v->DispatchGRFStartRegisterForURBData = 5;
    to_hs(r, m);
}

/* A SIMD8 URB write with EOT from the thread of request `request` (see
 * tests/units/test_stage_thread.c). */
static void eot_write(struct rig *r, uint32_t request)
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
    p->ffid = FFID_HS;
    p->ctx.valid = 1;
    p->ctx.gen = 9;
    p->ctx.group = request;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static const struct eu_dispatch *dispatch_at(const struct rig *r, uint32_t i)
{
    return (const struct eu_dispatch *)r->td->payload[i];
}

static uint32_t grf32(const struct eu_dispatch *d, uint32_t reg, uint32_t dword)
{
    uint32_t v;
    memcpy(&v, &d->grf[reg][dword * 4], 4);
    return v;
}

static const struct primitive_packet *prim_at(const struct rig *r, uint32_t i)
{
    return (const struct primitive_packet *)r->te->payload[i];
}

/* HS URB allocation used below: start 5 x 8 KB, entries of 2 x 64 B. */
#define HS_START 5u
#define HS_FIRST_HANDLE (HS_START * 8192u / 64u)
#define HS_ENTRY_UNITS 2u

/* The capture's mode (skl_tess: SINGLE_PATCH, Include Vertex Handles), with
 * two instances per patch and a push constant register. */
static void test_single_patch(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[8];
    vs_entries(&r, 8, v);
    vs_reference(&r, v + 2, 2);     /* vertices 2 and 3 are in both patches */
    /* push constants: one register at dynamic base + 0x400 */
    uint32_t words[8] = { 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7 };
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x30000400, words, 32, NULL), 0);
    struct msg *m;
    struct spec_STATE_BASE_ADDRESS *sba = state_msg(&r, SPEC_ID_STATE_BASE_ADDRESS, sizeof *sba, &m);
    sba->DynamicStateBaseAddress = 0x30000000;
    sba->DynamicStateBaseAddressModifyEnable = true;
    sba->InstructionBaseAddress = 0x40000000;
    sba->InstructionBaseAddressModifyEnable = true;
    to_hs(&r, m);
    struct spec_3DSTATE_CONSTANT_HS *c = state_msg(&r, SPEC_ID_3DSTATE_CONSTANT_HS, sizeof *c, &m);
    c->ConstantBody.ReadLength[0] = 1;
    c->ConstantBody.Buffer[0] = 0x400;
    to_hs(&r, m);
    struct spec_3DSTATE_BINDING_TABLE_POINTERS_HS *bt =
        state_msg(&r, SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_HS, sizeof *bt, &m);
    bt->PointerToHSBindingTable = 0x340;
    to_hs(&r, m);
    hs_state(&r, &(struct hs_setup){ .enable = true, .instance_count = 1, .max_threads = 7,
                                     .mode = 0, .vertex_handles = true });
    mmio(&r, CS_MMIO_WRITE, 0x2300, 5);
    mmio(&r, CS_MMIO_WRITE, 0x2304, 1);
    patch(&r, PRIM_PATCHLIST_1 + 3, 4, v, 11);
    uint32_t bad[2] = { v[6], v[7] };
    patch(&r, PRIM_PATCHLIST_1 + 2, 2, bad, 12);          /* PATCHLIST_3 with 2 vertices */
    patch(&r, PRIM_PATCHLIST_1 + 3, 4, v + 2, 13);
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r, 60);
    /* two patches x (Instance Count + 1 = 2) threads; nothing reaches TE yet
     * but the state (6 packets, forwarded in order) */
    CU_ASSERT_EQUAL_FATAL(r.td->count, 4);
    uint32_t state_ahead = r.te->count;
    CU_ASSERT_EQUAL(state_ahead, 6);
    for (uint32_t i = 0; i < 4; i++) {
        const struct eu_dispatch *d = dispatch_at(&r, i);
        uint32_t patch_index = i / 2, instance = i % 2;
        const uint32_t *icp = patch_index ? v + 2 : v;
        CU_ASSERT_EQUAL(d->ffid, FFID_HS);
        CU_ASSERT_EQUAL(d->dmask, 0xffu);
        CU_ASSERT_EQUAL(d->simd, 8);
        CU_ASSERT_EQUAL(d->kernel_offset, 0x7040u);
        CU_ASSERT_EQUAL(d->inst_base, 0x40000000u);
        CU_ASSERT_EQUAL(d->grf_count, 3);                  /* R0, R1 handles, R2 constants */
        CU_ASSERT_EQUAL(d->ctx.group, d->request_id);
        CU_ASSERT_EQUAL(grf32(d, 0, 0), HS_FIRST_HANDLE + patch_index * HS_ENTRY_UNITS);
        CU_ASSERT_EQUAL(grf32(d, 0, 1), patch_index ? 13u : 11u);
        CU_ASSERT_EQUAL((grf32(d, 0, 2) >> 17) & 0x7f, instance);
        CU_ASSERT_EQUAL(grf32(d, 0, 4), 0x340u);            /* binding table */
        for (uint32_t k = 0; k < 4; k++)
            CU_ASSERT_EQUAL(grf32(d, 1, k), icp[k]);
        CU_ASSERT_EQUAL(grf32(d, 1, 4), 0u);
        CU_ASSERT_EQUAL(grf32(d, 2, 0), 0xc0u);
        CU_ASSERT_EQUAL(grf32(d, 2, 7), 0xc7u);
    }
    /* the second patch's threads end first: still nothing, order is kept */
    eot_write(&r, dispatch_at(&r, 2)->request_id);
    eot_write(&r, dispatch_at(&r, 3)->request_id);
    eot_write(&r, dispatch_at(&r, 0)->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL(r.te->count, state_ahead);
    eot_write(&r, dispatch_at(&r, 1)->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.te->count, state_ahead + 3);
    for (uint32_t p = 0; p < 2; p++) {
        const struct primitive_packet *o = prim_at(&r, state_ahead + p);
        CU_ASSERT_EQUAL(r.te->kind[state_ahead + p], MSG_PRIMITIVE);
        CU_ASSERT_EQUAL(o->topology, PRIM_PATCHLIST_1 + 3);
        CU_ASSERT_EQUAL(o->owner_handle, HS_FIRST_HANDLE + p * HS_ENTRY_UNITS);
        CU_ASSERT_EQUAL(o->handles[0], o->owner_handle);
        CU_ASSERT_EQUAL(o->vertex_count, 1);
        CU_ASSERT_EQUAL(o->primitive_id, p ? 13u : 11u);
        CU_ASSERT_EQUAL(o->draw, 7);
    }
    /* the sync follows the patches with HS_INVOCATION_COUNT = 0x1_00000005 + 2 */
    CU_ASSERT_EQUAL(r.te->kind[state_ahead + 2], MSG_MMIO);
    const struct cs_mmio *sync = (const struct cs_mmio *)r.te->payload[state_ahead + 2];
    const struct pipeline_registers *regs = (const struct pipeline_registers *)sync->data;
    CU_ASSERT_EQUAL(regs->value[PIPE_REG_HS_INVOCATIONS], 0x100000007ull);
    CU_ASSERT_TRUE(regs->written & (1ull << PIPE_REG_HS_INVOCATIONS));
    /* references: every input vertex dereferenced once per patch (and the bad
     * patch's two), all 8 VS entries free; the 2 patch entries live on in TE */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 10);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.allocations"), 10);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.patches"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.bad_patches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.hs_invocations"), 0x100000007ull);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.threads.dispatched"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.threads.ended"), 4);
    sim_destroy(r.sim);
}

/* 8_PATCH (Gen9): three PATCHLIST_3 patches in one thread. */
static void test_eight_patch(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[9];
    vs_entries(&r, 9, v);
    hs_state(&r, &(struct hs_setup){ .enable = true, .instance_count = 0, .max_threads = 7,
                                     .mode = 2, .vertex_handles = true, .primitive_id = true });
    for (uint32_t p = 0; p < 3; p++)
        patch(&r, PRIM_PATCHLIST_1 + 2, 3, v + 3 * p, 20 + p);
    run(&r, 80);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = dispatch_at(&r, 0);
    CU_ASSERT_EQUAL(d->dmask, 0x7u);                        /* 3 patches */
    CU_ASSERT_EQUAL(d->grf_count, 2 + 1 + 3);               /* R0, R1 handles, R2 IDs, 3 ICPs */
    CU_ASSERT_EQUAL((grf32(d, 0, 2) >> 17) & 0x7f, 0u);
    for (uint32_t p = 0; p < 3; p++) {
        CU_ASSERT_EQUAL(grf32(d, 1, p), HS_FIRST_HANDLE + p * HS_ENTRY_UNITS);
        CU_ASSERT_EQUAL(grf32(d, 2, p), 20 + p);
        for (uint32_t k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(grf32(d, 3 + k, p), v[3 * p + k]);
    }
    CU_ASSERT_EQUAL(grf32(d, 1, 3), 0u);
    uint32_t before = r.te->count;
    eot_write(&r, d->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.te->count, before + 3);
    for (uint32_t p = 0; p < 3; p++)
        CU_ASSERT_EQUAL(prim_at(&r, before + p)->owner_handle, HS_FIRST_HANDLE + p * HS_ENTRY_UNITS);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 9);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.dispatches"), 1);
    sim_destroy(r.sim);
}

/* DUAL_PATCH: two patches per thread, masks 0xff / 0x0f. */
static void test_dual_patch(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[9];
    vs_entries(&r, 9, v);
    hs_state(&r, &(struct hs_setup){ .enable = true, .max_threads = 7, .mode = 1,
                                     .vertex_handles = true, .primitive_id = true });
    for (uint32_t p = 0; p < 3; p++)
        patch(&r, PRIM_PATCHLIST_1 + 2, 3, v + 3 * p, 30 + p);
    run(&r, 80);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    const struct eu_dispatch *d = dispatch_at(&r, 0);
    CU_ASSERT_EQUAL(d->dmask, 0xffu);
    CU_ASSERT_EQUAL(d->grf_count, 3);
    CU_ASSERT_EQUAL(grf32(d, 0, 0), HS_FIRST_HANDLE);
    CU_ASSERT_EQUAL(grf32(d, 0, 1), HS_FIRST_HANDLE + HS_ENTRY_UNITS);
    CU_ASSERT_EQUAL(grf32(d, 1, 0), 30u);
    CU_ASSERT_EQUAL(grf32(d, 1, 4), 31u);
    for (uint32_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(grf32(d, 2, k), v[k]);
        CU_ASSERT_EQUAL(grf32(d, 2, 4 + k), v[3 + k]);
    }
    CU_ASSERT_EQUAL(dispatch_at(&r, 1)->dmask, 0x0fu);     /* the last patch alone */
    eot_write(&r, dispatch_at(&r, 0)->request_id);
    eot_write(&r, dispatch_at(&r, 1)->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.patches"), 3);
    sim_destroy(r.sim);
}

/* HS disabled: patches pass unchanged. HS enabled without a URB allocation:
 * the patch is dropped (its vertices dereferenced), counted, nothing hangs. */
static void test_disabled_and_refused(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    run(&r, 5);
    uint32_t v[4];
    vs_entries(&r, 4, v);
    hs_state(&r, &(struct hs_setup){ .enable = false });
    patch(&r, PRIM_PATCHLIST_1 + 3, 4, v, 1);
    run(&r, 20);
    CU_ASSERT_EQUAL_FATAL(r.te->count, 2);
    CU_ASSERT_EQUAL(r.te->kind[1], MSG_PRIMITIVE);
    CU_ASSERT_EQUAL(prim_at(&r, 1)->vertex_count, 4);
    CU_ASSERT_EQUAL(prim_at(&r, 1)->handles[3], v[3]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 0);
    hs_state(&r, &(struct hs_setup){ .enable = true, .max_threads = 3 });
    patch(&r, PRIM_PATCHLIST_1 + 3, 4, v, 2);
    uint32_t tri[3] = { v[0], v[1], v[2] };
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_TRILIST;
    p->vertex_count = 3;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, tri, sizeof tri);
    to_hs(&r, m);
    run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.refused_allocations"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.refused_allocations"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.non_patch_primitives"), 1);
    CU_ASSERT_EQUAL(r.te->count, 4);                       /* state, patch, state, triangle */
    CU_ASSERT_EQUAL(prim_at(&r, 3)->topology, PRIM_TRILIST);
    sim_destroy(r.sim);
}

/* SINGLE_PATCH with 10 ICPs: handles in R1 (ICPs 0-7) and R2 (8, 9). */
static void test_single_patch_many_icps(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[10];
    vs_entries(&r, 10, v);
    hs_state(&r, &(struct hs_setup){ .enable = true, .max_threads = 7, .vertex_handles = true });
    patch(&r, PRIM_PATCHLIST_1 + 9, 10, v, 5);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = dispatch_at(&r, 0);
    CU_ASSERT_EQUAL(d->grf_count, 3);
    for (uint32_t k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(grf32(d, 1 + k / 8, k % 8), v[k]);
    CU_ASSERT_EQUAL(grf32(d, 2, 2), 0u);
    eot_write(&r, d->request_id);
    run(&r, 40);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.patches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 10);
    sim_destroy(r.sim);
}

/* Maximum Number of Threads 0 (one thread): the second instance waits for
 * the first to end; the patch leaves after both. */
static void test_thread_limit(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[3];
    vs_entries(&r, 3, v);
    hs_state(&r, &(struct hs_setup){ .enable = true, .instance_count = 1, .max_threads = 0 });
    patch(&r, PRIM_PATCHLIST_1 + 2, 3, v, 9);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(dispatch_at(&r, 0)->grf_count, 1);     /* no handles asked for */
    CU_ASSERT_TRUE(probe_stat(r.sim, "hs.threads.stall.max_threads") > 0);
    eot_write(&r, dispatch_at(&r, 0)->request_id);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    CU_ASSERT_EQUAL((grf32(dispatch_at(&r, 1), 0, 2) >> 17) & 0x7f, 1u);
    CU_ASSERT_EQUAL(r.te->count, 1);                       /* the state only */
    eot_write(&r, dispatch_at(&r, 1)->request_id);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.te->count, 2);
    CU_ASSERT_EQUAL(prim_at(&r, 1)->owner_handle, HS_FIRST_HANDLE);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.threads.in_flight_peak"), 1);
    sim_destroy(r.sim);
}

/* Gen7 (ValleyView): 3DSTATE_HS has no Dispatch Mode (SINGLE_PATCH) and the
 * Instance Number sits in R0.2 bits 22:16 (Mesa's vec4 TCS reads it there
 * on IVB/BYT, 23:17 from Haswell on; seed 003 L12472 gives Gen9's 23:17).
 * Three instances: R0.2 = instance << 16 for each, the dispatch is a Gen7 one. */
static void test_gen7_instance_number(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 0, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_HS, HS_START, HS_ENTRY_UNITS - 1, 8);
    run(&r, 5);
    uint32_t v[3];
    vs_entries(&r, 3, v);
    struct msg *m;
    struct spec_3DSTATE_HS *h = state_msg(&r, SPEC_ID_3DSTATE_HS, sizeof *h, &m);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    h->Enable = true;
    h->InstanceCount = 2;
    h->MaximumNumberOfThreads = 7;
    h->KernelStartPointer = 0x7040;
    to_hs(&r, m);
    patch(&r, PRIM_PATCHLIST_1 + 2, 3, v, 21);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 3);
    for (uint32_t i = 0; i < 3; i++) {
        const struct eu_dispatch *d = dispatch_at(&r, i);
        CU_ASSERT_EQUAL(d->gen, 7);
        CU_ASSERT_EQUAL(d->dmask, 0xffu);
        CU_ASSERT_EQUAL(grf32(d, 0, 0), HS_FIRST_HANDLE);
        CU_ASSERT_EQUAL(grf32(d, 0, 1), 21u);
        CU_ASSERT_EQUAL(grf32(d, 0, 2) & 0xff0000u, i << 16);
    }
    for (uint32_t i = 0; i < 3; i++)
        eot_write(&r, dispatch_at(&r, i)->request_id);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.te->count, 2);                  /* the state, the patch */
    CU_ASSERT_EQUAL(prim_at(&r, 1)->owner_handle, HS_FIRST_HANDLE);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "hs.bad_state"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "SINGLE_PATCH payload, instances, order, references, HS_INVOCATION_COUNT", test_single_patch },
    { "SINGLE_PATCH with 10 ICP handles", test_single_patch_many_icps },
    { "8_PATCH payload and dispatch mask", test_eight_patch },
    { "DUAL_PATCH payload and dispatch masks", test_dual_patch },
    { "disabled pass-through, refused allocation", test_disabled_and_refused },
    { "Maximum Number of Threads holds the second instance", test_thread_limit },
    { "Gen7: SINGLE_PATCH, Instance Number in R0.2[22:16]", test_gen7_instance_number },
    { 0 }
};
TEST_SUITE(hs, cases);
