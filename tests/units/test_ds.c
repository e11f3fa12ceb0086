/* tests/units/test_ds.c - the Domain Shader stage (units/ds) with the real
 * URB unit: output entries from 3DSTATE_URB_DS, the patch data pushed from
 * the patch entry, the SIMD8 payload, thread ends through the URB's
 * "eot_ds", the batch's primitives with one reference per vertex,
 * DS_INVOCATION_COUNT, bad batches.
 * Expected payloads are worked out here from seed 003's SIMD8 DS payload
 * table (L12890-12990: R0.0 Patch URB Offset, R0.1 PrimitiveID, R1 U, R2 V,
 * R3 W = 1 - U - V with Compute W Coordinate Enable, R4 URB Return Handles,
 * then constants and patch data) and the URB's handle arithmetic (start in
 * 8 KB units, handles in 64-byte units, seed 003 L8459, 004 L6335). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "spec_common.h"
#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/tessellation.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/ds/ds.h"
#include "units/eu/eu.h"
#include "units/td/td.h"
#include "units/urb/urb.h"

#define MAX_CAUGHT 48

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
    .kind = "test_ds_catcher",
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
    .kind = "test_ds_feeder",
    .state_size = sizeof(struct feeder),
    .ports = feeder_ports,
    .realize = feeder_realize,
    .tick = feeder_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb, *ds_unit, *feeder;
    struct catcher *td, *gs, *hs_reply;
};

/* real_eus: one subslice's real TD with two EUs in place of the catcher;
 * their URB SENDs (SFID 6) go to the URB, its replies to writeback[2]. */
static struct rig rig_build(bool real_eus)
{
    struct rig r = { 0 };
    /* the test plays the EUs: while the DS waits for thread ends the input
     * behind it looks stranded to the fabric's quiescence check (reported on
     * the log, which is kept quiet here) */
    r.sim = probe_sim(&(struct sim_options){ .watchdog_cycles = 10000, .log_level = -1 });
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.ds_unit = probe_add(r.sim, &ds_ops, "ds", NULL);
    r.feeder = probe_add(r.sim, &feeder_ops, "te", NULL);
    probe_link(r.sim, r.feeder, "out", r.ds_unit, "te", 1, 4, 1);
    struct unit *td = real_eus ? NULL : probe_add(r.sim, &catcher_ops, "td0", NULL);
    struct unit *gs = probe_add(r.sim, &catcher_ops, "gs", NULL);
    struct unit *hs = probe_add(r.sim, &catcher_ops, "hs_reply", NULL);
    if (real_eus) {
        const char *td_over[] = { "eus=2", NULL };
        struct unit *real_td = probe_add(r.sim, &td_ops, "td", td_over);
        probe_link(r.sim, r.ds_unit, "td[0]", real_td, "ds", 1, 4, 1);
        for (uint32_t i = 0; i < 2; i++) {
            char name[16], port[16];
            snprintf(name, sizeof name, "eu%u", i);
            struct unit *eu = probe_add(r.sim, &eu_ops, name, NULL);
            snprintf(port, sizeof port, "eu[%u]", i);
            probe_link(r.sim, real_td, port, eu, "dispatch", 1, 8, 2);
            snprintf(port, sizeof port, "eu_end[%u]", i);
            probe_link(r.sim, eu, "td", real_td, port, 1, 8, 2);
            snprintf(port, sizeof port, "eu[%u]", i);
            probe_link(r.sim, eu, "sfid[6]", r.urb, port, 1, 8, 2);
            snprintf(port, sizeof port, "writeback[%u]", i);
            probe_link(r.sim, r.urb, port, eu, "writeback[2]", 1, 8, 2);
        }
    } else {
        probe_link(r.sim, r.ds_unit, "td[0]", td, "in", 1, 8, 1);
    }
    probe_link(r.sim, r.ds_unit, "gs", gs, "in", 1, 8, 1);
    probe_link(r.sim, r.ds_unit, "urb", r.urb, "client[0]", 1, 8, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.ds_unit, "urb_reply", 1, 8, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", hs, "in", 1, 8, 4);
    probe_link(r.sim, r.urb, "eot_ds", r.ds_unit, "eot", 1, 8, 1);
    struct gt_error err;
    if (!real_eus)
        CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td = td ? unit_state(td) : NULL;
    r.gs = unit_state(gs);
    r.hs_reply = unit_state(hs);
    return r;
}

static struct rig rig_new(void)
{
    return rig_build(false);
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

static void to_ds(struct rig *r, struct msg *m)
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
    to_ds(r, m);
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
    p->ffid = FFID_DS;
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

static float grff(const struct eu_dispatch *d, uint32_t reg, uint32_t dword)
{
    float v;
    memcpy(&v, &d->grf[reg][dword * 4], 4);
    return v;
}

static const struct primitive_packet *prim_at(const struct rig *r, uint32_t i)
{
    return (const struct primitive_packet *)r->gs->payload[i];
}

/* The test plays the HS: one patch entry, `refs` references on it. */
static uint32_t patch_entry(struct rig *r, uint32_t refs)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_HS;
    q->count = 1;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->hs_reply->count, 1);
    uint32_t handle = ((const struct urb_msg *)r->hs_reply->payload[0])->handles[0];
    r->hs_reply->count = 0;
    for (uint32_t i = 1; i < refs; i++) {
        m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
        q = (struct urb_msg *)m->payload;
        memset(q, 0, sizeof *q);
        q->op = URB_OP_REFERENCE;
        q->client = URB_CLIENT_HS;
        q->count = 1;
        q->handles[0] = handle;
        CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    }
    return handle;
}

struct ds_setup {
    bool enable, compute_w;
    uint32_t read_length, grf_start, max_threads;
};

static void ds_state(struct rig *r, const struct ds_setup *s)
{
    struct msg *m;
    struct spec_3DSTATE_DS *v = state_msg(r, SPEC_ID_3DSTATE_DS, sizeof *v, &m);
    v->Enable = s->enable;
    v->StatisticsEnable = true;
    v->DispatchMode = 1;        /* SIMD8_SINGLE_PATCH, as skl_tess programs it */
    v->ComputeWCoordinateEnable = s->compute_w;
    v->PatchURBEntryReadOffset = 0;
    v->PatchURBEntryReadLength = s->read_length;
    v->DispatchGRFStartRegisterForURBData = s->grf_start;
    v->MaximumNumberOfThreads = s->max_threads;
    v->KernelStartPointer = 0x71c0;
    to_ds(r, m);
}

static void domain_batch(struct rig *r, const struct tess_domain_batch *b)
{
    struct msg *m = msg_alloc(r->sim, MSG_DOMAIN, (uint32_t)sizeof *b);
    memcpy(m->payload, b, sizeof *b);
    to_ds(r, m);
}

#define DS_START 4u
#define DS_FIRST_HANDLE (DS_START * 8192u / 64u)
#define DS_ENTRIES 16u

static void setup_urb_entries(struct rig *r, uint32_t entries)
{
    urb_state(r, SPEC_ID_3DSTATE_URB_DS, DS_START, 0, entries);
    urb_state(r, SPEC_ID_3DSTATE_URB_HS, 6, 1, 4);
    /* the DS sees 3DSTATE_URB_DS in the pipeline too */
    struct msg *m;
    struct spec_3DSTATE_URB_DS *v = state_msg(r, SPEC_ID_3DSTATE_URB_DS, sizeof *v, &m);
    v->DSNumberOfURBEntries = entries;
    v->DSURBStartingAddress = DS_START;
    to_ds(r, m);
    run(r, 5);
}

static void setup_urb(struct rig *r)
{
    setup_urb_entries(r, DS_ENTRIES);
}

static void test_batches(void)
{
    struct rig r = rig_new();
    setup_urb(&r);
    uint32_t patch = patch_entry(&r, 3);        /* TE's reference per batch: 3 batches */
    float data[24];
    for (uint32_t i = 0; i < 24; i++)
        data[i] = 0.5f * (float)i;
    CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, urb_handle_offset(patch), data, sizeof data),
                    sizeof data);
    uint32_t words[8] = { 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7 };
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x30000400, words, 32, NULL), 0);
    struct msg *m;
    struct spec_STATE_BASE_ADDRESS *sba = state_msg(&r, SPEC_ID_STATE_BASE_ADDRESS, sizeof *sba, &m);
    sba->DynamicStateBaseAddress = 0x30000000;
    sba->DynamicStateBaseAddressModifyEnable = true;
    to_ds(&r, m);
    struct spec_3DSTATE_CONSTANT_DS *c = state_msg(&r, SPEC_ID_3DSTATE_CONSTANT_DS, sizeof *c, &m);
    c->ConstantBody.ReadLength[0] = 1;
    c->ConstantBody.Buffer[0] = 0x400;
    to_ds(&r, m);
    /* Mesa's layout: R0-R4, one constant register, patch data from R6 */
    ds_state(&r, &(struct ds_setup){ .enable = true, .compute_w = true, .read_length = 3,
                                     .grf_start = 6, .max_threads = 7 });
    struct tess_domain_batch *b = calloc(1, sizeof *b);
    b->patch_handle = patch;
    b->flags = TESS_BATCH_FIRST;
    b->domain = TESS_DOMAIN_TRI;
    b->output_topology = TESS_OUTPUT_TRI_CW;
    b->primitive_id = 42;
    b->instance = 1;
    b->draw = 3;
    b->point_count = 11;
    for (uint32_t i = 0; i < 11; i++) {
        b->u[i] = (float)i / 16.0f;
        b->v[i] = (float)(10 - i) / 32.0f;
    }
    static const uint8_t tris[12] = { 0, 1, 2, 2, 1, 3, 4, 5, 6, 7, 8, 9 };  /* point 10 unused */
    b->index_count = 12;
    memcpy(b->indices, tris, sizeof tris);
    domain_batch(&r, b);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    uint32_t ahead = r.gs->count;   /* the state packets: URB_DS, SBA, CONSTANT_DS, DS */
    CU_ASSERT_EQUAL(ahead, 4);
    for (uint32_t t = 0; t < 2; t++) {
        const struct eu_dispatch *d = dispatch_at(&r, t);
        uint32_t n = t ? 3 : 8;
        CU_ASSERT_EQUAL(d->ffid, FFID_DS);
        CU_ASSERT_EQUAL(d->simd, 8);
        CU_ASSERT_EQUAL(d->kernel_offset, 0x71c0u);
        CU_ASSERT_EQUAL(d->dmask, (1u << n) - 1u);
        CU_ASSERT_EQUAL(d->grf_count, 9);
        CU_ASSERT_EQUAL(grf32(d, 0, 0), patch);
        CU_ASSERT_EQUAL(grf32(d, 0, 1), 42u);
        CU_ASSERT_EQUAL(grf32(d, 0, 2), 0u);
        for (uint32_t ch = 0; ch < 8; ch++) {
            uint32_t i = 8 * t + ch;
            if (ch >= n) {
                CU_ASSERT_EQUAL(grf32(d, 4, ch), 0u);
                continue;
            }
            float u = (float)i / 16.0f, v = (float)(10 - i) / 32.0f;
            CU_ASSERT_EQUAL(grff(d, 1, ch), u);
            CU_ASSERT_EQUAL(grff(d, 2, ch), v);
            CU_ASSERT_EQUAL(grff(d, 3, ch), 1.0f - u - v);
            CU_ASSERT_EQUAL(grf32(d, 4, ch), DS_FIRST_HANDLE + i);
        }
        CU_ASSERT_EQUAL(grf32(d, 5, 0), 0xd0u);
        for (uint32_t k = 0; k < 24; k++)
            CU_ASSERT_EQUAL(grff(d, 6 + k / 8, k % 8), 0.5f * (float)k);
    }
    eot_write(&r, dispatch_at(&r, 1)->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL(r.gs->count, ahead);            /* one thread still running */
    eot_write(&r, dispatch_at(&r, 0)->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.gs->count, ahead + 4);
    for (uint32_t k = 0; k < 4; k++) {
        const struct primitive_packet *o = prim_at(&r, ahead + k);
        CU_ASSERT_EQUAL(r.gs->kind[ahead + k], MSG_PRIMITIVE);
        CU_ASSERT_EQUAL(o->topology, PRIM_TRILIST);
        CU_ASSERT_EQUAL(o->vertex_count, 3);
        CU_ASSERT_EQUAL(o->owner_handle, URB_HANDLE_NONE);
        CU_ASSERT_EQUAL(o->primitive_id, 42u);
        CU_ASSERT_EQUAL(o->instance, 1u);
        CU_ASSERT_EQUAL(o->flags, k == 0 ? (uint32_t)PRIM_START : 0u);
        for (uint32_t v = 0; v < 3; v++)
            CU_ASSERT_EQUAL(o->handles[v], DS_FIRST_HANDLE + tris[3 * k + v]);
    }
    /* references: the test's 2 on the patch + points 1 and 2 used twice;
     * dereferences: point 10 (freed) and the patch once */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.references"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    /* a line batch, then a malformed one, then the sync */
    memset(b, 0, sizeof *b);
    b->patch_handle = patch;
    b->flags = TESS_BATCH_FIRST | TESS_BATCH_LAST;
    b->domain = TESS_DOMAIN_ISOLINE;
    b->output_topology = TESS_OUTPUT_LINE;
    b->point_count = 2;
    b->u[1] = 1.0f;
    b->index_count = 2;
    b->indices[1] = 1;
    domain_batch(&r, b);
    b->output_topology = TESS_OUTPUT_TRI_CW;
    b->point_count = 3;
    b->index_count = 3;
    b->indices[2] = 5;                              /* no point 5 */
    domain_batch(&r, b);
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 3);
    const struct eu_dispatch *d = dispatch_at(&r, 2);
    CU_ASSERT_EQUAL(d->dmask, 0x3u);
    CU_ASSERT_EQUAL(grff(d, 1, 1), 1.0f);
    CU_ASSERT_EQUAL(grff(d, 3, 0), 1.0f);           /* W = 1 - 0 - 0 */
    eot_write(&r, d->request_id);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.gs->count, ahead + 6);
    const struct primitive_packet *line = prim_at(&r, ahead + 4);
    CU_ASSERT_EQUAL(line->topology, PRIM_LINELIST);
    CU_ASSERT_EQUAL(line->flags, (uint32_t)(PRIM_START | PRIM_END));
    /* oldest-freed first (units/urb): the never-used 11 comes before the freed 10 */
    CU_ASSERT_EQUAL(line->handles[0], DS_FIRST_HANDLE + 11);
    CU_ASSERT_EQUAL(line->handles[1], DS_FIRST_HANDLE + 12);
    CU_ASSERT_EQUAL(r.gs->kind[ahead + 5], MSG_MMIO);
    const struct cs_mmio *sync = (const struct cs_mmio *)r.gs->payload[ahead + 5];
    const struct pipeline_registers *regs = (const struct pipeline_registers *)sync->data;
    CU_ASSERT_EQUAL(regs->value[PIPE_REG_DS_INVOCATIONS], 13u);  /* 11 + 2 points */
    CU_ASSERT_TRUE(regs->written & (1ull << PIPE_REG_DS_INVOCATIONS));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.bad_batches"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.ds_invocations"), 13);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.primitives"), 5);
    /* the patch's three references are gone: it is free */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    free(b);
    sim_destroy(r.sim);
}

/* DS disabled: primitives pass; batches are counted and dropped. A batch
 * larger than the DS allocation is dropped, not waited for forever. */
static void test_disabled_and_oversized(void)
{
    struct rig r = rig_new();
    setup_urb(&r);
    ds_state(&r, &(struct ds_setup){ .enable = true, .max_threads = 7 });
    struct tess_domain_batch *b = calloc(1, sizeof *b);
    b->patch_handle = URB_HANDLE_NONE;
    b->output_topology = TESS_OUTPUT_POINT;
    b->point_count = DS_ENTRIES + 4;
    b->index_count = DS_ENTRIES + 4;
    for (uint32_t i = 0; i < b->index_count; i++)
        b->indices[i] = (uint8_t)i;
    domain_batch(&r, b);
    run(&r, 30);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.batch_beyond_allocation"), 1);
    CU_ASSERT_EQUAL(r.td->count, 0);
    ds_state(&r, &(struct ds_setup){ .enable = false });
    b->point_count = b->index_count = 1;
    domain_batch(&r, b);
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_TRILIST;
    p->vertex_count = 3;
    p->handles[2] = 77;
    p->owner_handle = URB_HANDLE_NONE;
    to_ds(&r, m);
    run(&r, 30);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.disabled_batches"), 1);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL_FATAL(r.gs->count, 4);          /* URB_DS, DS, DS, the triangle */
    CU_ASSERT_EQUAL(r.gs->kind[3], MSG_PRIMITIVE);
    CU_ASSERT_EQUAL(prim_at(&r, 3)->handles[2], 77u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.allocations"), 0);
    free(b);
    sim_destroy(r.sim);
}

/* A batch of 40 points: its entries come in two allocations (32 handles a
 * message, urb.h), five threads, 40 point primitives; no pushed data, W 0.0
 * without Compute W Coordinate Enable. */
static void test_large_batch(void)
{
    struct rig r = rig_new();
    setup_urb_entries(&r, 64);
    uint32_t patch = patch_entry(&r, 1);
    ds_state(&r, &(struct ds_setup){ .enable = true, .max_threads = 7 });
    struct tess_domain_batch *b = calloc(1, sizeof *b);
    b->patch_handle = patch;
    b->flags = TESS_BATCH_FIRST | TESS_BATCH_LAST;
    b->domain = TESS_DOMAIN_QUAD;
    b->output_topology = TESS_OUTPUT_POINT;
    b->point_count = b->index_count = 40;
    for (uint32_t i = 0; i < 40; i++) {
        b->u[i] = 0.25f;
        b->v[i] = (float)i / 64.0f;
        b->indices[i] = (uint8_t)(39 - i);          /* emitted in reverse */
    }
    domain_batch(&r, b);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 5);
    for (uint32_t t = 0; t < 5; t++) {
        const struct eu_dispatch *d = dispatch_at(&r, t);
        CU_ASSERT_EQUAL(d->dmask, 0xffu);
        CU_ASSERT_EQUAL(d->grf_count, 5);
        CU_ASSERT_EQUAL(grff(d, 3, 7), 0.0f);
        CU_ASSERT_EQUAL(grff(d, 2, 7), (float)(8 * t + 7) / 64.0f);
        CU_ASSERT_EQUAL(grf32(d, 4, 7), DS_FIRST_HANDLE + 8 * t + 7);
    }
    for (uint32_t t = 0; t < 5; t++)
        eot_write(&r, dispatch_at(&r, t)->request_id);
    run(&r, 120);
    uint32_t ahead = 2;                             /* URB_DS, DS */
    CU_ASSERT_EQUAL_FATAL(r.gs->count, ahead + 40);
    for (uint32_t k = 0; k < 40; k++) {
        CU_ASSERT_EQUAL(prim_at(&r, ahead + k)->topology, PRIM_POINTLIST);
        CU_ASSERT_EQUAL(prim_at(&r, ahead + k)->vertex_count, 1);
        CU_ASSERT_EQUAL(prim_at(&r, ahead + k)->handles[0], DS_FIRST_HANDLE + 39 - k);
    }
    CU_ASSERT_EQUAL(prim_at(&r, ahead)->flags, (uint32_t)PRIM_START);
    CU_ASSERT_EQUAL(prim_at(&r, ahead + 39)->flags, (uint32_t)PRIM_END);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.alloc_requests"), 3);    /* the patch's, 32, 8 */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.references"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.dereferences"), 1);      /* the patch */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 1);
    free(b);
    sim_destroy(r.sim);
}

/* Gen7's DS (no Dispatch Mode field: SIMD4x2, seed 003 L12809-12888) with
 * real EUs: a vec4-style kernel writes its whole R1 and the pushed patch
 * row, interleaved (Gen7 URB_WRITE_HWORD with Swizzle Control, Global
 * Offset 1 = byte 32), to the two return handles of R0.0/R0.1. The
 * expected entries follow from the payload table: point 0 gets R1.0-3 (U,
 * V, W, Patch URB Handle) and the patch row's DW3:0, point 1 R1.4-7 (U, V,
 * W, PrimitiveID) and DW7:4. W = 1 - U - V is computed here. */
static void test_gen7_simd4x2_real_eus(void)
{
    struct rig r = rig_build(true);
    setup_urb(&r);
    uint32_t patch = patch_entry(&r, 1);
    uint32_t row[8];
    for (uint32_t i = 0; i < 8; i++)
        row[i] = 0xa0u + i;
    CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, urb_handle_offset(patch), row, sizeof row),
                    sizeof row);
    struct eu_enc_buf k = { .gen = 7 };
    struct eu_enc_insn header = { .opcode = 1, .exec_size = 8, .nsrc = 1, .nomask = true };
    header.dst = eu_enc_grf(112, 0, EU_TYPE_UD);
    header.src[0] = eu_enc_grf(0, 0, EU_TYPE_UD);           /* the return handles */
    eu_enc_emit(&k, &header);
    struct eu_enc_insn enables = { .opcode = 1, .exec_size = 1, .nsrc = 1, .nomask = true };
    enables.dst = eu_enc_grf(112, 20, EU_TYPE_UD);          /* M0.5[15:8] channel enables */
    enables.src[0] = eu_enc_imm(EU_TYPE_UD, 0xff00);
    eu_enc_emit(&k, &enables);
    for (uint32_t i = 0; i < 2; i++) {
        struct eu_enc_insn mov = { .opcode = 1, .exec_size = 8, .nsrc = 1 };
        mov.dst = eu_enc_grf(113 + i, 0, EU_TYPE_UD);
        mov.src[0] = eu_enc_grf(1 + i, 0, EU_TYPE_UD);       /* R1, then the patch row */
        eu_enc_emit(&k, &mov);
    }
    struct eu_enc_insn send = { .opcode = 49, .exec_size = 8, .nsrc = 1, .sfid = 6, .eot = true };
    send.dst = eu_enc_null(EU_TYPE_UD);
    send.src[0] = eu_enc_grf(112, 0, EU_TYPE_UD);
    send.desc = desc_urb_opcode_gen7_encode(DESC_URB_WRITE_HWORD) |
                desc_urb_global_offset_gen7_encode(1) | desc_urb_swizzle_gen7_encode(1) |
                desc_msg_header_present_encode(1) | desc_msg_mlen_gen5_encode(3);
    eu_enc_emit(&k, &send);
    CU_ASSERT_EQUAL(k.errors, 0);
    rig_load(r.sim, 0x40000100, &k);
    eu_enc_free(&k);
    struct msg *m;
    struct spec_STATE_BASE_ADDRESS *sba = state_msg(&r, SPEC_ID_STATE_BASE_ADDRESS, sizeof *sba, &m);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    sba->InstructionBaseAddress = 0x40000000;
    sba->InstructionBaseAddressModifyEnable = true;
    to_ds(&r, m);
    struct spec_3DSTATE_DS *v = state_msg(&r, SPEC_ID_3DSTATE_DS, sizeof *v, &m);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    v->Enable = true;
    v->StatisticsEnable = true;
    v->ComputeWCoordinateEnable = true;
    v->PatchURBEntryReadLength = 1;
    v->DispatchGRFStartRegisterForURBData = 2;
    v->MaximumNumberOfThreads = 3;
    v->KernelStartPointer = 0x100;
    to_ds(&r, m);
    struct tess_domain_batch *b = calloc(1, sizeof *b);
    b->patch_handle = patch;
    b->flags = TESS_BATCH_FIRST | TESS_BATCH_LAST;
    b->domain = TESS_DOMAIN_TRI;
    b->output_topology = TESS_OUTPUT_TRI_CW;
    b->primitive_id = 7;
    b->point_count = 3;
    static const float us[3] = { 0.25f, 0.5f, 0.125f }, vs[3] = { 0.5f, 0.25f, 0.375f };
    for (uint32_t i = 0; i < 3; i++) {
        b->u[i] = us[i];
        b->v[i] = vs[i];
        b->indices[i] = (uint8_t)i;
    }
    b->index_count = 3;
    domain_batch(&r, b);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.simd4x2_threads"), 2);    /* points 0+1, then 2 */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "ds.ds_invocations"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_notified"), 2);
    uint32_t ahead = 3;                                 /* URB_DS, SBA, DS */
    CU_ASSERT_EQUAL_FATAL(r.gs->count, ahead + 1);
    const struct primitive_packet *o = prim_at(&r, ahead);
    CU_ASSERT_EQUAL(o->topology, PRIM_TRILIST);
    for (uint32_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(o->handles[i], DS_FIRST_HANDLE + i);
        uint32_t out[8] = { 0 };
        urb_backdoor_read(r.urb, urb_handle_offset(DS_FIRST_HANDLE + i) + 32, out, sizeof out);
        float got[3], w = 1.0f - us[i] - vs[i];
        memcpy(got, out, sizeof got);
        CU_ASSERT_EQUAL(got[0], us[i]);
        CU_ASSERT_EQUAL(got[1], vs[i]);
        CU_ASSERT_EQUAL(got[2], w);
        CU_ASSERT_EQUAL(out[3], i % 2 ? 7u : patch);    /* upper half: PrimitiveID */
        for (uint32_t d = 0; d < 4; d++)
            CU_ASSERT_EQUAL(out[4 + d], 0xa0u + 4 * (i % 2) + d);
    }
    free(b);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "SIMD8 payload, pushed patch data, primitives, references, DS_INVOCATION_COUNT", test_batches },
    { "disabled pass-through, batch beyond the allocation", test_disabled_and_oversized },
    { "a batch of 40 points: two allocations, five threads", test_large_batch },
    { "Gen7 SIMD4x2: two points per thread, payload written back by real EUs",
      test_gen7_simd4x2_real_eus },
    { 0 }
};
TEST_SUITE(ds, cases);
