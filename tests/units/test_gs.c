/* tests/units/test_gs.c - the GS stage (units/gs) alone with the real URB
 * unit: 3DSTATE_URB_VS/GS allocations, input VUEs written through the URB's
 * backdoor, a catcher on "td[0]", a recorder on "sol". The thread is
 * simulated: the test writes the output entry (vertex count, control data)
 * with urb_backdoor_write and sends the EOT write the thread would. Expected
 * payloads are worked out here from seed 003's SIMD8 GS payload table
 * (L13527-13676): R0.2[21:16] topology, R0.2[22] Hint; R1.n instance id
 * [31:27] | URB return handle; R2 primitive ids; ICP handles; pushed vertex
 * data one component per register (InstanceCount == 1) or as is (> 1). The
 * entry layout (L13178-13206): OUTPUT_VERTEX_COUNT row unless Static Output,
 * control data rows, vertices of (Output Vertex Size + 1) x 16 bytes. */
#include <stdbool.h>
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
#include "units/gs/gs.h"
#include "units/urb/urb.h"

/* ---- a catcher of dispatches / a recorder of what leaves on "sol" ----------------- */

#define REC_MAX 32u
#define REC_BYTES 512u

struct recorder {
    struct port *in;
    uint32_t count;
    uint32_t kind[REC_MAX];
    _Alignas(16) uint8_t payload[REC_MAX][REC_BYTES];
};

static const struct port_desc recorder_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
    PORT_END
};

static int recorder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct recorder *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity recorder_tick(struct unit *u)
{
    struct recorder *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        if (c->count < REC_MAX) {
            c->kind[c->count] = m->kind;
            memcpy(c->payload[c->count], m->payload, m->size < REC_BYTES ? m->size : REC_BYTES);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops recorder_ops = {
    .kind = "test_gs_recorder",
    .state_size = sizeof(struct recorder),
    .ports = recorder_ports,
    .realize = recorder_realize,
    .tick = recorder_tick,
};

/* the dispatches keep their whole payload */
struct td_catcher {
    struct port *in;
    uint32_t count;
    struct eu_dispatch head[4];
    uint32_t grf[4][128][8];
};

static const struct port_desc td_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "dispatches" },
    PORT_END
};

static int td_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct td_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity td_tick(struct unit *u)
{
    struct td_catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
        if (c->count < 4) {
            c->head[c->count] = *d;
            memcpy(c->grf[c->count], d->grf, (size_t)(d->grf_count < 128 ? d->grf_count : 128) * 32u);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops td_ops = {
    .kind = "test_gs_td",
    .state_size = sizeof(struct td_catcher),
    .ports = td_ports,
    .realize = td_realize,
    .tick = td_tick,
};

/* the DS stage's place: sends what the test queued, in order */
#define FEED_MAX 64u

struct feeder {
    struct port *out;
    struct msg *queue[FEED_MAX];
    uint32_t head, count;
};

static const struct port_desc feeder_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "to gs.ds" },
    PORT_END
};

static int feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct feeder *f = unit_state(u);
    f->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity feeder_tick(struct unit *u)
{
    struct feeder *f = unit_state(u);
    while (f->count && port_try_send(f->out, f->queue[f->head])) {
        f->head = (f->head + 1) % FEED_MAX;
        f->count--;
    }
    return UNIT_IDLE;
}

static void feeder_destroy(struct unit *u)
{
    struct feeder *f = unit_state(u);
    for (; f->count; f->count--, f->head = (f->head + 1) % FEED_MAX)
        msg_free(unit_sim(u), f->queue[f->head]);
}

static const struct unit_ops feeder_ops = {
    .kind = "test_gs_feeder",
    .state_size = sizeof(struct feeder),
    .ports = feeder_ports,
    .realize = feeder_realize,
    .tick = feeder_tick,
    .destroy = feeder_destroy,
};

static bool feed(struct unit *u, struct msg *m)
{
    struct feeder *f = unit_state(u);
    if (f->count == FEED_MAX) {
        msg_free(unit_sim(u), m);
        return false;
    }
    f->queue[(f->head + f->count++) % FEED_MAX] = m;
    unit_wake_at(u, unit_cycle(u));
    return true;
}

/* ---- the rig ----------------------------------------------------------------------- */

struct rig {
    struct sim *sim;
    struct unit *urb, *gs, *feed;   /* feed: a relay into gs.ds (the DS stage's place) */
    struct td_catcher *td;
    struct recorder *sol, *vs;      /* vs: the URB's replies to the test's own client */
};

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.gs = probe_add(r.sim, &gs_ops, "gs", NULL);
    struct unit *td = probe_add(r.sim, &td_ops, "td0", NULL);
    struct unit *sol = probe_add(r.sim, &recorder_ops, "sol", NULL);
    struct unit *vs = probe_add(r.sim, &recorder_ops, "vs", NULL);
    r.feed = probe_add(r.sim, &feeder_ops, "ds", NULL);
    probe_link(r.sim, r.feed, "out", r.gs, "ds", 1, 64, 1);
    probe_link(r.sim, r.gs, "td[0]", td, "in", 1, 4, 1);
    probe_link(r.sim, r.gs, "sol", sol, "in", 1, 64, 4);
    probe_link(r.sim, r.gs, "urb", r.urb, "client[0]", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.gs, "urb_reply", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", vs, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_gs", r.gs, "eot", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td = unit_state(td);
    r.sol = unit_state(sol);
    r.vs = unit_state(vs);
    return r;
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

static struct msg *state_msg(struct rig *r, uint32_t id, uint32_t dwords, size_t body,
                             void **common)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + body));
    memset(m->payload, 0, off + body);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *common = (uint8_t *)p + off;
    return m;
}

/* 3DSTATE_URB_<stage> to the URB and (for the GS's entry size) to the GS. */
static void urb_state(struct rig *r, uint32_t id, uint32_t start, uint32_t size, uint32_t entries)
{
    for (int to_gs = 0; to_gs < 2; to_gs++) {
        void *c;
        struct msg *m = state_msg(r, id, 2, sizeof(struct spec_3DSTATE_URB_VS), &c);
        struct spec_3DSTATE_URB_VS *v = c;     /* the four supersets share one layout */
        v->VSNumberOfURBEntries = entries;
        v->VSURBEntryAllocationSize = size;
        v->VSURBStartingAddress = start;
        CU_ASSERT_TRUE(to_gs ? feed(r->feed, m) : port_inject(unit_port(r->urb, "state", 0), m));
    }
}

static void gs_state(struct rig *r, const struct spec_3DSTATE_GS *g)
{
    void *c;
    struct msg *m = state_msg(r, SPEC_ID_3DSTATE_GS, 10, sizeof *g, &c);
    memcpy(c, g, sizeof *g);
    CU_ASSERT_TRUE(feed(r->feed, m));
}

static void urb_request(struct rig *r, uint32_t op, uint32_t client, uint32_t count,
                        const uint32_t *handles)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = client;
    q->count = count;
    for (uint32_t i = 0; handles && i < count; i++)
        q->handles[i] = handles[i];
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
}

static void send_primitive(struct rig *r, uint32_t topology, const uint32_t *handles, uint32_t n,
                           uint32_t primitive_id)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = n;
    p->primitive_id = primitive_id;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, n * sizeof *handles);
    CU_ASSERT_TRUE(feed(r->feed, m));
}

static void send_mmio(struct rig *r, uint32_t op, uint32_t offset, uint32_t value)
{
    uint32_t bytes = (uint32_t)(sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, bytes);
    memset(m->payload, 0, bytes);
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = op;
    c->offset = offset;
    c->value = value;
    c->size = sizeof(struct pipeline_registers);
    CU_ASSERT_TRUE(feed(r->feed, m));
}

/* The thread's EOT write (a SIMD8 URB write with EOT, ffid GS, ctx.group =
 * the dispatch's request number), as test_stage_thread.c does. */
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
    p->ffid = FFID_GS;
    p->ctx.valid = 1;
    p->ctx.gen = 9;
    p->ctx.group = request;
    /* M0: the handle is 0 (an entry of nobody); the write's bytes do not matter */
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static const struct primitive_packet *sol_prim(const struct rig *r, uint32_t i)
{
    return (const struct primitive_packet *)r->sol->payload[i];
}

/* The VS's input VUEs: three entries of 128 B from 32 KB (handles 512, 514,
 * 516); row n dword d of vertex v holds 0x1000 v + 0x10 n + d. */
static void input_vues(struct rig *r, uint32_t *handles)
{
    urb_request(r, URB_OP_ALLOC, URB_CLIENT_VS, 3, NULL);
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->vs->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r->vs->payload[0];
    CU_ASSERT_EQUAL_FATAL(a->count, 3);
    for (uint32_t v = 0; v < 3; v++) {
        handles[v] = a->handles[v];
        CU_ASSERT_EQUAL(handles[v], (32768 + v * 128) / 64);
        uint32_t words[4 * 8];
        for (uint32_t i = 0; i < 32; i++)
            words[i] = 0x1000u * v + 0x10u * (i / 8) + i % 8;
        CU_ASSERT_EQUAL(urb_backdoor_write(r->urb, handles[v] * 64, words, sizeof words), sizeof words);
    }
}

static uint32_t grf(const struct td_catcher *c, uint32_t t, uint32_t reg, uint32_t dw)
{
    return c->grf[t][reg][dw];
}

/* SIMD8, one instance: payload, a strip cut by a cut bit, too many vertices,
 * references and counters, then the in-band sync. */
static void test_simd8_strip_with_cut(void)
{
    struct rig r = rig_new();
    /* VS: 32 KB, 128 B entries x 16; GS: 64 KB, 512 B entries x 8 */
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 7, 8);
    run(&r, 5);
    uint32_t in[3];
    input_vues(&r, in);
    struct spec_3DSTATE_GS g = {
        .Enable = true, .DispatchMode = 3, .KernelStartPointer = 0x400, .IncludeVertexHandles = true,
        .IncludePrimitiveID = true, .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 2,
        .OutputTopology = PRIM_TRISTRIP, .OutputVertexSize = 3, .ControlDataHeaderSize = 1,
        .ControlDataFormat = 0, .StatisticsEnable = 1, .InvocationsIncrementValue = 1,
        .MaximumNumberOfThreads = 3, .Hint = 1, .ReorderMode = 1,
    };
    gs_state(&r, &g);
    send_primitive(&r, PRIM_TRILIST, in, 3, 5);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = &r.td->head[0];
    CU_ASSERT_EQUAL(d->ffid, FFID_GS);
    CU_ASSERT_EQUAL(d->dmask, 0x1);
    CU_ASSERT_EQUAL(d->kernel_offset, 0x400);
    uint32_t entry = 65536 / 64;        /* the first GS entry */
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 2) & 0x7f0000u, (PRIM_TRILIST << 16) | (1u << 22));
    CU_ASSERT_EQUAL(grf(r.td, 0, 1, 0), entry);             /* instance 0 | handle */
    CU_ASSERT_EQUAL(grf(r.td, 0, 2, 0), 5);                 /* primitive id */
    for (uint32_t v = 0; v < 3; v++)                         /* ICP v handle, object 0 */
        CU_ASSERT_EQUAL(grf(r.td, 0, 3 + v, 0), in[v]);
    /* vertex data from R6: vertex v, rows 1..2 (read offset 1), one register
     * per dword, object 0 in DW0 */
    uint32_t regs = 6 + 3 * 2 * 8;
    CU_ASSERT_EQUAL(d->grf_count, regs);
    for (uint32_t v = 0; v < 3; v++)
        for (uint32_t row = 0; row < 2; row++)
            for (uint32_t dw = 0; dw < 8; dw++)
                CU_ASSERT_EQUAL(grf(r.td, 0, 6 + (v * 2 + row) * 8 + dw, 0),
                                0x1000u * v + 0x10u * (1 + row) + dw);
    /* the thread: 9 vertices written (only 7 of 64 B fit after the two header
     * rows of a 512 B entry), cut after vertex 2 */
    uint32_t count_row[8] = { 9 }, cut_row[8] = { 1u << 2 };
    urb_backdoor_write(r.urb, entry * 64, count_row, 32);
    urb_backdoor_write(r.urb, entry * 64 + 32, cut_row, 32);
    eot_write(&r, d->request_id);
    run(&r, 200);
    /* strip A = v0..v2: one triangle; strip B = v3..v6: (3,4,5), then the odd
     * (4,5,6) reordered trailing as (5,4,6). Vertex k at entry + 64 B x (1 + k). */
    /* 3DSTATE_URB_VS, 3DSTATE_URB_GS and 3DSTATE_GS went on ahead */
    CU_ASSERT_EQUAL_FATAL(r.sol->count, 3 + 3);
    CU_ASSERT_EQUAL(r.sol->kind[2], MSG_STATE);
    uint32_t want[3][3] = { { 0, 1, 2 }, { 3, 4, 5 }, { 5, 4, 6 } };
    uint32_t want_flags[3] = { PRIM_START | PRIM_END, PRIM_START, PRIM_END };
    for (uint32_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(r.sol->kind[3 + i], MSG_PRIMITIVE);
        const struct primitive_packet *p = sol_prim(&r, 3 + i);
        CU_ASSERT_EQUAL(p->owner_handle, entry);
        CU_ASSERT_EQUAL(p->vertex_count, 3);
        CU_ASSERT_EQUAL(p->flags, want_flags[i]);
        CU_ASSERT_EQUAL(p->stream, 0);
        CU_ASSERT_EQUAL(p->primitive_id, 5);
        for (uint32_t k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(p->handles[k], entry + 1 + want[i][k]);
    }
    CU_ASSERT_EQUAL(sol_prim(&r, 5)->topology, PRIM_TRISTRIP_REVERSE);
    CU_ASSERT_EQUAL(sol_prim(&r, 3)->topology, PRIM_TRISTRIP);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.vertex_count_clamped"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gs_primitives"), 3);
    /* Invocations Increment Value 1 is an increment of 2 (004 L3315-3319) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.unaligned_vertices"), 0);
    /* the input VUEs were freed when the thread ended; the entry lives on
     * with the primitives' three references */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    for (uint32_t i = 0; i < 3; i++)
        urb_request(&r, URB_OP_DEREFERENCE, URB_CLIENT_GS, 1, &entry);
    run(&r, 10);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    /* the in-band sync carries the counters; a register write sets them */
    send_mmio(&r, CS_MMIO_WRITE, GS_PRIMITIVES_COUNT_OFFSET, 40);
    send_mmio(&r, CS_MMIO_WRITE, GS_PRIMITIVES_COUNT_OFFSET + 4, 1);
    send_mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r, 20);
    CU_ASSERT_EQUAL_FATAL(r.sol->count, 9);
    const struct cs_mmio *sync = (const struct cs_mmio *)r.sol->payload[8];
    CU_ASSERT_EQUAL(sync->op, CS_MMIO_SYNC);
    const struct pipeline_registers *regs_out = (const struct pipeline_registers *)sync->data;
    CU_ASSERT_EQUAL(regs_out->value[PIPE_REG_GS_INVOCATIONS], 2);
    CU_ASSERT_EQUAL(regs_out->value[PIPE_REG_GS_PRIMITIVES], (1ull << 32) | 40);
    CU_ASSERT_TRUE(regs_out->written & (1ull << PIPE_REG_GS_PRIMITIVES));
    sim_destroy(r.sim);
}

/* Instancing (three instances in one SIMD8 thread), Static Output, stream
 * ids from the control data, POINTLIST output; then a disabled GS passes a
 * primitive through. */
static void test_instances_streams_and_pass_through(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 7, 8);
    run(&r, 5);
    uint32_t in[3];
    input_vues(&r, in);
    struct spec_3DSTATE_GS g = {
        .Enable = true, .DispatchMode = 3, .IncludeVertexHandles = true,
        .VertexURBEntryReadOffset = 0, .VertexURBEntryReadLength = 1,
        .OutputTopology = PRIM_POINTLIST, .OutputVertexSize = 1, .ControlDataHeaderSize = 1,
        .ControlDataFormat = 1, .StaticOutput = true, .StaticOutputVertexCount = 2,
        .StatisticsEnable = 1, .InvocationsIncrementValue = 1, .InstanceControl = 2,
        .MaximumNumberOfThreads = 3, .DefaultStreamId = 1,
    };
    gs_state(&r, &g);
    send_mmio(&r, CS_MMIO_WRITE, GS_INVOCATION_COUNT_OFFSET, 100);
    send_primitive(&r, PRIM_TRILIST, in, 3, 9);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = &r.td->head[0];
    CU_ASSERT_EQUAL(d->dmask, 0x7);
    uint32_t entries[3] = { 1024, 1032, 1040 };     /* 64 KB + 512 B x i, 64 B units */
    for (uint32_t l = 0; l < 3; l++)
        CU_ASSERT_EQUAL(grf(r.td, 0, 1, l), (l << 27) | entries[l]);
    /* InstanceCount > 1: the ICP handles eight to a register, then the
     * object's vertices as they are (row 0 of each) */
    for (uint32_t v = 0; v < 3; v++)
        CU_ASSERT_EQUAL(grf(r.td, 0, 2, v), in[v]);
    CU_ASSERT_EQUAL(d->grf_count, 3 + 3);
    for (uint32_t v = 0; v < 3; v++)
        for (uint32_t dw = 0; dw < 8; dw++)
            CU_ASSERT_EQUAL(grf(r.td, 0, 3 + v, dw), 0x1000u * v + dw);
    /* each instance emits 2 points: stream ids (2 bits per vertex) l and 3 */
    for (uint32_t l = 0; l < 3; l++) {
        uint32_t control[8] = { l | (3u << 2) };
        urb_backdoor_write(r.urb, entries[l] * 64, control, 32);
    }
    eot_write(&r, d->request_id);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.sol->count, 3 + 1 + 6);     /* 3 states, mmio write, 6 points */
    for (uint32_t l = 0; l < 3; l++)
        for (uint32_t k = 0; k < 2; k++) {
            const struct primitive_packet *p = sol_prim(&r, 4 + 2 * l + k);
            CU_ASSERT_EQUAL(p->topology, PRIM_POINTLIST);
            CU_ASSERT_EQUAL(p->vertex_count, 1);
            CU_ASSERT_EQUAL(p->owner_handle, entries[l]);
            CU_ASSERT_EQUAL(p->stream, k ? 3u : l);
            /* vertex k at 32 B + 32 B x k: within the entry's first 64 B units */
            CU_ASSERT_EQUAL(p->handles[0], entries[l] + (32 + 32 * k) / 64);
            /* vertex 0 at 32 B is one row past its handle; vertex 1 at 64 B is not */
            CU_ASSERT_EQUAL(p->half_row, k ? 0u : 1u);
        }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.unaligned_vertices"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 100 + 3 * 2);  /* value 1: +2 each */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.instances"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);  /* the input VUEs */
    /* disabled: the primitive goes through unchanged */
    g.Enable = false;
    gs_state(&r, &g);
    send_primitive(&r, PRIM_TRILIST, in, 3, 10);
    run(&r, 20);
    CU_ASSERT_EQUAL_FATAL(r.sol->count, 12);
    CU_ASSERT_EQUAL(r.sol->kind[11], MSG_PRIMITIVE);
    CU_ASSERT_EQUAL(sol_prim(&r, 11)->primitive_id, 10);
    CU_ASSERT_EQUAL(sol_prim(&r, 11)->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.passed_through"), 1);
    CU_ASSERT_EQUAL(r.td->count, 1);
    sim_destroy(r.sim);
}

/* Two objects, two threads: the second ends first, output still leaves in
 * dispatch order (L13249); TRIFAN output; a thread that emits nothing frees
 * its entry. */
static void test_output_order_fan_and_empty(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 7, 8);
    run(&r, 5);
    uint32_t in[3];
    input_vues(&r, in);
    struct spec_3DSTATE_GS g = {
        .Enable = true, .DispatchMode = 3, .OutputTopology = PRIM_TRIFAN, .OutputVertexSize = 3,
        .ControlDataHeaderSize = 1, .StatisticsEnable = 1, .MaximumNumberOfThreads = 3,
    };
    gs_state(&r, &g);
    send_primitive(&r, PRIM_POINTLIST, &in[0], 1, 1);
    send_primitive(&r, PRIM_POINTLIST, &in[1], 1, 2);
    send_primitive(&r, PRIM_POINTLIST, &in[2], 1, 3);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 3);
    uint32_t entries[3] = { 1024, 1032, 1040 };
    for (uint32_t t = 0; t < 3; t++)
        CU_ASSERT_EQUAL(grf(r.td, t, 1, 0), entries[t]);
    /* thread 0: 5 vertices, one fan; thread 1: 3 vertices; thread 2: none */
    uint32_t five[8] = { 5 }, three[8] = { 3 }, none[8] = { 0 };
    urb_backdoor_write(r.urb, entries[0] * 64, five, 32);
    urb_backdoor_write(r.urb, entries[1] * 64, three, 32);
    urb_backdoor_write(r.urb, entries[2] * 64, none, 32);
    eot_write(&r, r.td->head[1].request_id);
    eot_write(&r, r.td->head[2].request_id);
    run(&r, 100);
    CU_ASSERT_EQUAL(r.sol->count, 3);           /* the states only: thread 0 still runs */
    eot_write(&r, r.td->head[0].request_id);
    run(&r, 100);
    CU_ASSERT_EQUAL_FATAL(r.sol->count, 3 + 3 + 1);
    uint32_t fan[3][3] = { { 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 } };
    for (uint32_t i = 0; i < 3; i++) {
        const struct primitive_packet *p = sol_prim(&r, 3 + i);
        CU_ASSERT_EQUAL(p->owner_handle, entries[0]);
        CU_ASSERT_EQUAL(p->primitive_id, 1);
        for (uint32_t k = 0; k < 3; k++)        /* vertex k at 64 B x (1 + k): after the count and header rows */
            CU_ASSERT_EQUAL(p->handles[k], entries[0] + 1 + fan[i][k]);
    }
    CU_ASSERT_EQUAL(sol_prim(&r, 6)->owner_handle, entries[1]);
    CU_ASSERT_EQUAL(sol_prim(&r, 6)->primitive_id, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gs_primitives"), 4);
    /* increment value 0 = an increment of 1 per object (004 L3315-3319) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 3);
    /* freed: the three input VUEs and the empty thread's entry */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    sim_destroy(r.sim);
}

/* SIMD4x2 DUAL_INSTANCE: three instances make two threads (2 + 1), the
 * SIMD4x2 payload table (003 L13253-13570): R0.0/R0.1 instance | handle,
 * ICP handles eight to a register, vertex data not swizzled. */
static void test_dual_instance_payload(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 7, 8);
    run(&r, 5);
    uint32_t in[3];
    input_vues(&r, in);
    struct spec_3DSTATE_GS g = {
        .Enable = true, .DispatchMode = 1, .IncludeVertexHandles = true, .IncludePrimitiveID = true,
        .VertexURBEntryReadOffset = 2, .VertexURBEntryReadLength = 1, .OutputTopology = PRIM_POINTLIST,
        .OutputVertexSize = 3, .ControlDataHeaderSize = 1, .InstanceControl = 2,
        .MaximumNumberOfThreads = 3, .StatisticsEnable = 1, .InvocationsIncrementValue = 1,
    };
    gs_state(&r, &g);
    send_primitive(&r, PRIM_TRILIST, in, 3, 7);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    uint32_t entries[3] = { 1024, 1032, 1040 };
    CU_ASSERT_EQUAL(r.td->head[0].dmask, 0xff);
    CU_ASSERT_EQUAL(r.td->head[1].dmask, 0x0f);
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 0), entries[0]);
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 1), (1u << 27) | entries[1]);
    CU_ASSERT_EQUAL(grf(r.td, 1, 0, 0), (2u << 27) | entries[2]);
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 2) & 0x3f0000u, PRIM_TRILIST << 16);
    CU_ASSERT_EQUAL(grf(r.td, 0, 1, 0), 7);                 /* primitive id */
    for (uint32_t v = 0; v < 3; v++)
        CU_ASSERT_EQUAL(grf(r.td, 0, 2, v), in[v]);
    CU_ASSERT_EQUAL(r.td->head[0].grf_count, 3 + 3);
    for (uint32_t v = 0; v < 3; v++)
        for (uint32_t dw = 0; dw < 8; dw++)                  /* row 2 of each vertex */
            CU_ASSERT_EQUAL(grf(r.td, 1, 3 + v, dw), 0x1000u * v + 0x20u + dw);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 3 * 2);  /* value 1: +2 each */
    sim_destroy(r.sim);
}

/* Gen7 (genxml gen7.xml: no Static Output, no SIMD8): DUAL_INSTANCE, two
 * instances in one thread; the thread ends with its output vertex counts in
 * the EOT header's DWord 2 (WORD 4 slot 0, WORD 5 slot 1: Mesa's Gen7 vec4
 * GS, generate_gs_set_vertex_count), the entry holds the control data header
 * (one 32-byte row of cut bits) and then the vertices, with no count row.
 * LINESTRIP, 64-byte vertices: slot 0 emits 3 vertices (2 lines), slot 1
 * emits 4 with a cut after vertex 1 (lines 0-1 and 2-3). Vertex k of an
 * entry starts at byte 32 + 64 k: the handle of its 64 bytes is entry + k,
 * half_row set (primitive.h). */
static void test_gen7_counts_in_eot_header(void)
{
    struct rig r = rig_new();
    urb_state(&r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(&r, SPEC_ID_3DSTATE_URB_GS, 8, 7, 8);
    run(&r, 5);
    uint32_t in[3];
    input_vues(&r, in);
    struct spec_3DSTATE_GS g = {
        .Enable = true, .DispatchMode = 1, .OutputTopology = PRIM_LINESTRIP,
        .OutputVertexSize = 3, .ControlDataHeaderSize = 1, .InstanceControl = 1,
        .MaximumNumberOfThreads = 3, .StatisticsEnable = 1,
    };
    void *c;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_GS, 7, sizeof g, &c);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    memcpy(c, &g, sizeof g);
    CU_ASSERT_TRUE(feed(r.feed, m));
    send_primitive(&r, PRIM_TRILIST, in, 3, 5);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    uint32_t entries[2] = { 1024, 1032 };
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 0), entries[0]);
    CU_ASSERT_EQUAL(grf(r.td, 0, 0, 1), (1u << 27) | entries[1]);
    /* the thread's output: slot 1's cut bit after vertex 1; a Gen9 GS would
     * read this first row as the vertex count */
    uint8_t cuts[32] = { 0 };
    cuts[0] = 0x02;
    CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, entries[1] * 64, cuts, sizeof cuts), sizeof cuts);
    uint32_t nregs = 2;
    m = msg_alloc(r.sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + nregs * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p + nregs * EU_MSG_REG_BYTES);
    p->sfid = 6;
    p->mlen = (uint8_t)nregs;
    p->exec_size = 8;
    p->flags = EU_SEND_HEADER | EU_SEND_EOT;
    p->desc = desc_urb_opcode_gen7_encode(DESC_URB_WRITE_OWORD) |
              desc_msg_header_present_encode(1) | desc_msg_mlen_gen5_encode(nregs);
    p->ffid = FFID_GS;
    p->ctx.valid = 1;
    p->ctx.gen = 7;
    p->ctx.group = r.td->head[0].request_id;
    uint32_t dword2 = 3u | 4u << 16;                      /* slot 0: 3, slot 1: 4 vertices */
    memcpy(&p->regs[0][8], &dword2, 4);
    CU_ASSERT_TRUE(port_inject(unit_port(r.urb, "eu", 0), m));
    run(&r, 200);
    uint32_t ahead = 3;                                 /* URB_VS, URB_GS, GS state */
    CU_ASSERT_EQUAL_FATAL(r.sol->count, ahead + 4);
    static const uint32_t lines[4][3] = { { 0, 0, 1 }, { 0, 1, 2 }, { 1, 0, 1 }, { 1, 2, 3 } };
    for (uint32_t k = 0; k < 4; k++) {
        const struct primitive_packet *o = sol_prim(&r, ahead + k);
        uint32_t entry = entries[lines[k][0]];
        CU_ASSERT_EQUAL(o->vertex_count, 2);
        CU_ASSERT_EQUAL(o->owner_handle, entry);
        CU_ASSERT_EQUAL(o->handles[0], entry + lines[k][1]);
        CU_ASSERT_EQUAL(o->handles[1], entry + lines[k][2]);
        CU_ASSERT_EQUAL(o->half_row, 0x3u);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.vertices_out"), 7);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gs_primitives"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.unaligned_vertices"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "SIMD8 payload, strip cut by a cut bit, vertex count clamp, references, sync",
      test_simd8_strip_with_cut },
    { "instancing, static output, stream ids, pass-through when disabled",
      test_instances_streams_and_pass_through },
    { "output in dispatch order, TRIFAN output, a thread that emits nothing",
      test_output_order_fan_and_empty },
    { "SIMD4x2 DUAL_INSTANCE payload", test_dual_instance_payload },
    { "Gen7: output vertex counts from the EOT header, no count row", test_gen7_counts_in_eot_header },
    { 0 }
};
TEST_SUITE(gs, cases);
