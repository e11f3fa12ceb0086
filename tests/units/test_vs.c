/* tests/units/test_vs.c - the VS stage (units/vs) driven alone: state packets
 * and primitives injected on its "vf" input, the real URB unit holding the
 * VUEs (and telling the VS its threads ended, urb.eot_vs), catchers on two
 * TD outputs and a sink on "hs".
 * Expected payloads are computed here from the VUE contents the test wrote
 * and the SIMD8 VS payload table of seed 003 (L12257-12300: R1.n = vertex n's
 * return handle, constants from Dispatch GRF Start, then register 4e + c =
 * element e component c with vertex n in dword n). */
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
#include "spec_gen4_pack.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/eu/eu.h"
#include "units/td/td.h"
#include "units/urb/urb.h"
#include "units/vs/vs.h"

/* ---- a catcher of dispatches (TD) and of what leaves on "hs" ------------------------ */

#define CATCH_MAX 16
#define CATCH_REGS 40

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[CATCH_MAX];
    uint64_t cycle[CATCH_MAX];
    struct eu_dispatch head[CATCH_MAX];
    uint32_t grf[CATCH_MAX][CATCH_REGS][8];
    struct primitive_packet prim[CATCH_MAX];
    uint32_t state_id[CATCH_MAX];
    struct cs_mmio mmio[CATCH_MAX];
    struct pipeline_registers regs[CATCH_MAX];
    struct urb_msg urb[CATCH_MAX];
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
        uint32_t i = c->count++;
        if (i < CATCH_MAX) {
            c->kind[i] = m->kind;
            c->cycle[i] = unit_cycle(u);
            if (m->kind == MSG_THREAD_DISPATCH) {
                const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
                c->head[i] = *d;
                uint32_t n = d->grf_count < CATCH_REGS ? d->grf_count : CATCH_REGS;
                memcpy(c->grf[i], d->grf, n * 32u);
            } else if (m->kind == MSG_PRIMITIVE) {
                memcpy(&c->prim[i], m->payload, sizeof c->prim[i]);
            } else if (m->kind == MSG_STATE) {
                c->state_id[i] = ((const struct cs_state_packet *)m->payload)->id;
            } else if (m->kind == MSG_URB) {
                memcpy(&c->urb[i], m->payload, sizeof c->urb[i]);
            } else if (m->kind == MSG_MMIO) {
                memcpy(&c->mmio[i], m->payload, sizeof c->mmio[i]);
                if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers))
                    memcpy(&c->regs[i], m->payload + sizeof(struct cs_mmio), sizeof c->regs[i]);
            }
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_vs_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* Primitives among what the catcher got, in order. */
static uint32_t primitives(const struct catcher *c, const struct primitive_packet **out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->count && i < CATCH_MAX; i++)
        if (c->kind[i] == MSG_PRIMITIVE)
            out[n++] = &c->prim[i];
    return n;
}

/* ---- the rig -------------------------------------------------------------------------- */

/* A unit that only keeps time passing (every cycle of a run and one beyond)
 * while the test plays the EUs: messages held for threads the test has not
 * ended yet are no deadlock. */
static enum unit_activity idle_tick(struct unit *u)
{
    const uint64_t *until = unit_state(u);
    return unit_cycle(u) < *until ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops idle_ops = {
    .kind = "test_vs_idle",
    .state_size = sizeof(uint64_t),
    .tick = idle_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb, *vs, *idle;
    struct catcher *td[2], *hs, *alloc;
    uint32_t handles[32];
};

static void run(struct rig *r, uint64_t cycles)
{
    uint64_t now = sim_now(r->sim) / 1000;                 /* 1000 ps clock */
    *(uint64_t *)unit_state(r->idle) = now + cycles + 1;
    unit_wake_at(r->idle, now + 1);
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

static void to_vs(struct rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->vs, "vf", 0), m));
}

/* 3DSTATE_URB_VS: start in 8 KB units, size in 64 B units minus one (seed 004 L6335-6352). */
static void urb_vs_state(struct rig *r, uint32_t start, uint32_t size, uint32_t entries)
{
    struct spec_3DSTATE_URB_VS *v;
    struct msg *m = state_msg(r, SPEC_ID_3DSTATE_URB_VS, 2, sizeof *v, (void **)&v);
    v->VSNumberOfURBEntries = entries;
    v->VSURBEntryAllocationSize = size;
    v->VSURBStartingAddress = start;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

static struct rig rig_build(const char *const *vs_over, bool real_eus)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.vs = probe_add(r.sim, &vs_ops, "vs", vs_over);
    r.idle = probe_add(r.sim, &idle_ops, "idle", NULL);
    struct unit *t0 = real_eus ? NULL : probe_add(r.sim, &catcher_ops, "td0", NULL);
    struct unit *t1 = real_eus ? NULL : probe_add(r.sim, &catcher_ops, "td1", NULL);
    struct unit *hs = probe_add(r.sim, &catcher_ops, "hs", NULL);
    struct unit *al = probe_add(r.sim, &catcher_ops, "alloc", NULL);
    if (real_eus) {
        /* one subslice: the real TD and two EUs; the EUs' URB SENDs (SFID 6)
         * go to the URB, its replies come back on writeback[2] */
        const char *td_over[] = { "eus=2", NULL };
        struct unit *td = probe_add(r.sim, &td_ops, "td", td_over);
        probe_link(r.sim, r.vs, "td[0]", td, "vs", 1, 4, 1);
        for (uint32_t i = 0; i < 2; i++) {
            char name[16], port[16];
            snprintf(name, sizeof name, "eu%u", i);
            struct unit *eu = probe_add(r.sim, &eu_ops, name, NULL);
            snprintf(port, sizeof port, "eu[%u]", i);
            probe_link(r.sim, td, port, eu, "dispatch", 1, 8, 2);
            snprintf(port, sizeof port, "eu_end[%u]", i);
            probe_link(r.sim, eu, "td", td, port, 1, 8, 2);
            snprintf(port, sizeof port, "eu[%u]", i);
            probe_link(r.sim, eu, "sfid[6]", r.urb, port, 1, 8, 2);
            snprintf(port, sizeof port, "writeback[%u]", i);
            probe_link(r.sim, r.urb, port, eu, "writeback[2]", 1, 8, 2);
        }
    } else {
        probe_link(r.sim, r.vs, "td[0]", t0, "in", 1, 4, 1);
        probe_link(r.sim, r.vs, "td[1]", t1, "in", 1, 4, 1);
    }
    probe_link(r.sim, r.vs, "hs", hs, "in", 1, 64, 4);
    probe_link(r.sim, r.vs, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.vs, "urb_reply", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", al, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_vs", r.vs, "eot", 1, 16, 1);
    /* the "vf" input is fed through the backdoor: a first packet (a
     * STATE_BASE_ADDRESS changing nothing) gives it its channel */
    struct spec_STATE_BASE_ADDRESS *nothing;
    to_vs(&r, state_msg(&r, SPEC_ID_STATE_BASE_ADDRESS, 19, sizeof *nothing, (void **)&nothing));
    struct gt_error err;
    if (!real_eus)
        CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td[0] = t0 ? unit_state(t0) : NULL;
    r.td[1] = t1 ? unit_state(t1) : NULL;
    r.hs = unit_state(hs);
    r.alloc = unit_state(al);
    /* the VS's URB: 32 KB on, 32 entries of 2 x 64 B (4 rows); VF's part is
     * played here: allocate 16 VUEs and write vertex i's dword j = 0x1000 i + j */
    urb_vs_state(&r, 4, 1, 32);
    run(&r, 2);
    struct msg *m = msg_alloc(r.sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = 16;
    CU_ASSERT_TRUE(port_inject(unit_port(r.urb, "client", 1), m));
    run(&r, 4);
    CU_ASSERT_EQUAL_FATAL(r.alloc->count, 1);
    CU_ASSERT_EQUAL_FATAL(r.alloc->urb[0].count, 16);
    for (uint32_t i = 0; i < 16; i++) {
        r.handles[i] = r.alloc->urb[0].handles[i];
        uint32_t vue[32];
        for (uint32_t j = 0; j < 32; j++)
            vue[j] = 0x1000u * i + j;
        CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, urb_handle_offset(r.handles[i]), vue,
                                           sizeof vue), sizeof vue);
    }
    return r;
}

static struct rig rig_new(const char *const *vs_over)
{
    return rig_build(vs_over, false);
}

static void base_address(struct rig *r, uint64_t dynamic, uint64_t instruction)
{
    struct spec_STATE_BASE_ADDRESS *v;
    struct msg *m = state_msg(r, SPEC_ID_STATE_BASE_ADDRESS, 19, sizeof *v, (void **)&v);
    v->DynamicStateBaseAddressModifyEnable = true;
    v->DynamicStateBaseAddress = dynamic;
    v->InstructionBaseAddressModifyEnable = true;
    v->InstructionBaseAddress = instruction;
    to_vs(r, m);
}

static void constant_vs(struct rig *r, uint64_t buffer0, uint32_t length)
{
    struct spec_3DSTATE_CONSTANT_VS *v;
    struct msg *m = state_msg(r, SPEC_ID_3DSTATE_CONSTANT_VS, 11, sizeof *v, (void **)&v);
    v->ConstantBody.Buffer[0] = buffer0;
    v->ConstantBody.ReadLength[0] = length;
    to_vs(r, m);
}

struct vs_setup {
    bool enable, statistics;
    uint64_t kernel;
    uint32_t read_offset, read_length, grf_start, max_threads;
};

static void vs_state(struct rig *r, struct vs_setup s)
{
    struct spec_3DSTATE_VS *v;
    struct msg *m = state_msg(r, SPEC_ID_3DSTATE_VS, 9, sizeof *v, (void **)&v);
    v->Enable = s.enable;
    v->SIMD8DispatchEnable = true;
    v->StatisticsEnable = s.statistics;
    v->KernelStartPointer = s.kernel;
    v->VertexURBEntryReadOffset = s.read_offset;
    v->VertexURBEntryReadLength = s.read_length;
    v->DispatchGRFStartRegisterForURBData = s.grf_start;
    v->MaximumNumberOfThreads = s.max_threads - 1;
    to_vs(r, m);
}

/* A triangle of the rig's VUEs a, b, c; `fresh` marks the new vertices. */
static void triangle(struct rig *r, uint32_t a, uint32_t b, uint32_t c, uint32_t fresh,
                     uint32_t id)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_TRILIST;
    p->vertex_count = 3;
    p->primitive_id = id;
    p->owner_handle = URB_HANDLE_NONE;
    p->new_vertices = fresh;
    p->handles[0] = r->handles[a];
    p->handles[1] = r->handles[b];
    p->handles[2] = r->handles[c];
    to_vs(r, m);
}

static void mmio(struct rig *r, uint32_t op, uint32_t offset, uint32_t value)
{
    uint32_t bytes = (uint32_t)(sizeof(struct cs_mmio) +
                                (op == CS_MMIO_SYNC ? sizeof(struct pipeline_registers) : 0));
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, bytes);
    memset(m->payload, 0, bytes);
    struct cs_mmio *io = (struct cs_mmio *)m->payload;
    io->op = op;
    io->offset = offset;
    io->value = value;
    to_vs(r, m);
}

/* A URB SIMD8 write with EOT from the thread of request `request` (its
 * ctx.group), as the thread's last message would be. */
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
    p->ffid = FFID_VS;
    p->ctx.valid = 1;
    p->ctx.gen = 9;
    p->ctx.group = request;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

/* The n-th dispatch over both TDs, by request number (1, 2, ...). */
static const struct catcher *dispatch_of(struct rig *r, uint32_t request, uint32_t *index)
{
    for (uint32_t t = 0; t < 2; t++)
        for (uint32_t i = 0; i < r->td[t]->count && i < CATCH_MAX; i++)
            if (r->td[t]->head[i].request_id == request) {
                *index = i;
                return r->td[t];
            }
    return NULL;
}

static uint32_t dispatches(struct rig *r)
{
    return r->td[0]->count + r->td[1]->count;
}

static uint64_t stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "vs.%s", name);
    return (uint64_t)probe_stat(r->sim, path);
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_payload_batches_and_order(void)
{
    struct rig r = rig_new(NULL);
    /* one register of push constants at dynamic base + 0x400 */
    uint32_t constants[8];
    for (uint32_t i = 0; i < 8; i++)
        constants[i] = 0xc0000000u + i;
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, 0x30000400, constants, sizeof constants, NULL), 0);
    base_address(&r, 0x30000000, 0x40000000);
    constant_vs(&r, 0x400, 1);
    /* read rows 1..2 (elements 2..5), constants from R3: vertex data from R4 */
    vs_state(&r, (struct vs_setup){ .enable = true, .statistics = true, .kernel = 0x1c0,
                                    .read_offset = 1, .read_length = 2, .grf_start = 3,
                                    .max_threads = 4 });
    /* new vertices in arrival order: 0 1 2 | 3 | 4 5 6 | 7 8 9 */
    triangle(&r, 0, 1, 2, 0x7, 10);
    triangle(&r, 2, 1, 3, 0x4, 11);         /* 2 and 1 are cache hits */
    triangle(&r, 4, 5, 6, 0x7, 12);
    triangle(&r, 7, 8, 9, 0x7, 13);
    run(&r, 60);
    /* 10 new vertices: a full thread and a partial one (nothing more came) */
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 2);
    uint32_t i1, i2;
    const struct catcher *c1 = dispatch_of(&r, 1, &i1), *c2 = dispatch_of(&r, 2, &i2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    const struct eu_dispatch *d1 = &c1->head[i1], *d2 = &c2->head[i2];
    CU_ASSERT_EQUAL(d1->ffid, FFID_VS);
    CU_ASSERT_EQUAL(d1->simd, 8);
    CU_ASSERT_EQUAL(d1->kernel_offset, 0x1c0);
    CU_ASSERT_EQUAL(d1->inst_base, 0x40000000u);
    CU_ASSERT_EQUAL(d1->dmask, 0xff);
    CU_ASSERT_EQUAL(d2->dmask, 0x3);
    CU_ASSERT_EQUAL(d1->grf_count, 3 + 1 + 2 * 8);
    CU_ASSERT_EQUAL(d1->ctx.group, 1);
    /* R1: the VUE handles VF wrote, in arrival order of the new vertices */
    static const uint32_t order1[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    for (uint32_t n = 0; n < 8; n++)
        CU_ASSERT_EQUAL(c1->grf[i1][1][n], r.handles[order1[n]]);
    CU_ASSERT_EQUAL(c2->grf[i2][1][0], r.handles[8]);
    CU_ASSERT_EQUAL(c2->grf[i2][1][1], r.handles[9]);
    CU_ASSERT_EQUAL(c2->grf[i2][1][2], 0);
    /* constants at R3 (R2 untouched) */
    CU_ASSERT_EQUAL(c1->grf[i1][3][0], 0xc0000000u);
    CU_ASSERT_EQUAL(c1->grf[i1][3][7], 0xc0000007u);
    CU_ASSERT_EQUAL(c1->grf[i1][2][0], 0);
    /* SoA vertex data: R4 + 4e + c, dword n = vertex n's element (2 + e)
     * component c, i.e. VUE dword 8 (row 1) + 4e + c */
    uint32_t wrong = 0;
    for (uint32_t e = 0; e < 4; e++)
        for (uint32_t comp = 0; comp < 4; comp++) {
            for (uint32_t n = 0; n < 8; n++)
                wrong += c1->grf[i1][4 + 4 * e + comp][n] != 0x1000u * order1[n] + 8 + 4 * e + comp;
            wrong += c2->grf[i2][4 + 4 * e + comp][0] != 0x1000u * 8 + 8 + 4 * e + comp;
            wrong += c2->grf[i2][4 + 4 * e + comp][1] != 0x1000u * 9 + 8 + 4 * e + comp;
            wrong += c2->grf[i2][4 + 4 * e + comp][2] != 0;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    /* state went on; no primitive before its vertices' threads ended */
    const struct primitive_packet *out[CATCH_MAX];
    CU_ASSERT_EQUAL(primitives(r.hs, out), 0);
    CU_ASSERT_EQUAL(r.hs->count, 4);       /* the rig's first packet, then the test's three */
    CU_ASSERT_EQUAL(r.hs->state_id[3], SPEC_ID_3DSTATE_VS);
    /* the second thread ends first: the first primitive still waits, so all do */
    eot_write(&r, 2);
    run(&r, 40);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 0);
    eot_write(&r, 1);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(primitives(r.hs, out), 4);
    for (uint32_t k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL(out[k]->primitive_id, 10 + k);
        CU_ASSERT_EQUAL(out[k]->new_vertices, 0);
        CU_ASSERT_EQUAL(out[k]->owner_handle, URB_HANDLE_NONE);
    }
    CU_ASSERT_EQUAL(out[1]->handles[0], r.handles[2]);
    CU_ASSERT_EQUAL(out[1]->handles[2], r.handles[3]);
    CU_ASSERT_EQUAL(out[3]->handles[2], r.handles[9]);
    CU_ASSERT_EQUAL(stat(&r, "vertices_shaded"), 10);
    CU_ASSERT_EQUAL(stat(&r, "vertices_cached"), 2);
    CU_ASSERT_EQUAL(stat(&r, "threads"), 2);
    CU_ASSERT_EQUAL(stat(&r, "partial_threads"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb_reads"), 10);
    CU_ASSERT_EQUAL(stat(&r, "invocations"), 10);
    CU_ASSERT_EQUAL(stat(&r, "primitives_in"), 4);
    CU_ASSERT_EQUAL(stat(&r, "primitives_out"), 4);
    CU_ASSERT_EQUAL(stat(&r, "threads.ended"), 2);
    sim_destroy(r.sim);
}

/* Gen7 (seed 003 L12220-12251, the SIMD4x2 payload; byt_tri's 3DSTATE_VS
 * L3307: Kernel Start Pointer 0, Read Length 1, GRF start 1): two vertices
 * per thread, R0.0 / R0.1 their URB handles, then per 128-bit element one
 * register with vertex 0 in DW3:0 and vertex 1 in DW7:4; 4 channels enabled
 * per vertex present. A triangle of 3 new vertices takes 2 threads. */
static void test_gen7_simd4x2(void)
{
    struct rig r = rig_new(NULL);
    struct spec_3DSTATE_VS *v;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_VS, 6, sizeof *v, (void **)&v);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    v->Enable = true;
    v->StatisticsEnable = true;
    v->KernelStartPointer = 0;          /* the first kernel of the instruction state */
    v->VertexURBEntryReadOffset = 1;
    v->VertexURBEntryReadLength = 1;
    v->DispatchGRFStartRegisterForURBData = 1;
    v->MaximumNumberOfThreads = 3;
    to_vs(&r, m);
    triangle(&r, 0, 1, 2, 0x7, 20);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 2);
    uint32_t i1, i2;
    const struct catcher *c1 = dispatch_of(&r, 1, &i1), *c2 = dispatch_of(&r, 2, &i2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    const struct eu_dispatch *d1 = &c1->head[i1], *d2 = &c2->head[i2];
    CU_ASSERT_EQUAL(d1->dmask, 0xff);
    CU_ASSERT_EQUAL(d2->dmask, 0x0f);
    CU_ASSERT_EQUAL(d1->grf_count, 1 + 2);             /* R0, then 2 element registers */
    CU_ASSERT_EQUAL(c1->grf[i1][0][0], r.handles[0]);
    CU_ASSERT_EQUAL(c1->grf[i1][0][1], r.handles[1]);
    CU_ASSERT_EQUAL(c2->grf[i2][0][0], r.handles[2]);
    CU_ASSERT_EQUAL(c2->grf[i2][0][1], 0);
    /* row 1 = VUE dwords 8..15: R1 holds dwords 8..11, R2 dwords 12..15 */
    uint32_t wrong = 0;
    for (uint32_t reg = 0; reg < 2; reg++)
        for (uint32_t c = 0; c < 4; c++) {
            wrong += c1->grf[i1][1 + reg][c] != 0x1000u * 0 + 8 + 4 * reg + c;
            wrong += c1->grf[i1][1 + reg][4 + c] != 0x1000u * 1 + 8 + 4 * reg + c;
            wrong += c2->grf[i2][1 + reg][c] != 0x1000u * 2 + 8 + 4 * reg + c;
            wrong += c2->grf[i2][1 + reg][4 + c] != 0;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    eot_write(&r, 1);
    eot_write(&r, 2);
    run(&r, 40);
    const struct primitive_packet *out[CATCH_MAX];
    CU_ASSERT_EQUAL(primitives(r.hs, out), 1);
    CU_ASSERT_EQUAL(stat(&r, "threads"), 2);
    CU_ASSERT_EQUAL(stat(&r, "partial_threads"), 1);
    CU_ASSERT_EQUAL(stat(&r, "bad.simd4x2"), 0);
    CU_ASSERT_EQUAL(stat(&r, "bad.kernel"), 0);
    CU_ASSERT_EQUAL(stat(&r, "bad.grf_start"), 0);
    sim_destroy(r.sim);
}

static void test_partial_release_cache_hits_and_sync(void)
{
    struct rig r = rig_new(NULL);
    base_address(&r, 0, 0x40000000);
    vs_state(&r, (struct vs_setup){ .enable = true, .statistics = true, .kernel = 0x80,
                                    .read_offset = 0, .read_length = 1, .grf_start = 2,
                                    .max_threads = 8 });
    triangle(&r, 0, 1, 2, 0x7, 1);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 1);       /* a partial thread: nothing more came */
    /* the same vertices again, all cache hits: shaded no more, and behind the first */
    triangle(&r, 2, 0, 1, 0x0, 2);
    triangle(&r, 3, 4, 5, 0x7, 3);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 2);
    uint32_t i2;
    const struct catcher *c2 = dispatch_of(&r, 2, &i2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    CU_ASSERT_EQUAL(c2->head[i2].dmask, 0x7);
    CU_ASSERT_EQUAL(c2->head[i2].grf_count, 2 + 8);
    CU_ASSERT_EQUAL(c2->grf[i2][1][0], r.handles[3]);
    CU_ASSERT_EQUAL(c2->grf[i2][2][2], 0x1000u * 5);       /* element 0 comp 0 of vertex 5 */
    CU_ASSERT_EQUAL(c2->grf[i2][9][1], 0x1000u * 4 + 7);   /* element 1 comp 3 of vertex 4 */
    /* register traffic behind the primitives: the counter write and the sync wait */
    mmio(&r, CS_MMIO_WRITE, VS_INVOCATION_COUNT_OFFSET + 4, 1);
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    const struct primitive_packet *out[CATCH_MAX];
    /* the second thread ends: nothing leaves, the first primitive waits */
    eot_write(&r, 2);
    run(&r, 40);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 0);
    eot_write(&r, 1);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(primitives(r.hs, out), 3);
    CU_ASSERT_EQUAL(out[0]->primitive_id, 1);
    CU_ASSERT_EQUAL(out[1]->primitive_id, 2);
    CU_ASSERT_EQUAL(out[2]->primitive_id, 3);
    /* the last message: the sync with the counter (high dword written, then
     * nothing counted since: the write came after the 6 vertices) */
    uint32_t last = r.hs->count - 1;
    CU_ASSERT_EQUAL_FATAL(r.hs->kind[last], MSG_MMIO);
    CU_ASSERT_EQUAL(r.hs->mmio[last].op, CS_MMIO_SYNC);
    CU_ASSERT_TRUE(r.hs->regs[last].written & (1u << PIPE_REG_VS_INVOCATIONS));
    CU_ASSERT_EQUAL(r.hs->regs[last].value[PIPE_REG_VS_INVOCATIONS], (1ull << 32) + 6);
    CU_ASSERT_EQUAL(stat(&r, "vertices_shaded"), 6);
    CU_ASSERT_EQUAL(stat(&r, "vertices_cached"), 3);
    CU_ASSERT_EQUAL(stat(&r, "mmio.invocation_writes"), 1);
    CU_ASSERT_EQUAL(stat(&r, "mmio.syncs"), 1);
    CU_ASSERT_TRUE(stat(&r, "stall.drain") > 0);
    /* a sync with nothing ahead passes at once; the low dword write sets it */
    mmio(&r, CS_MMIO_WRITE, VS_INVOCATION_COUNT_OFFSET, 5);
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r, 10);
    last = r.hs->count - 1;
    CU_ASSERT_EQUAL(r.hs->regs[last].value[PIPE_REG_VS_INVOCATIONS], (1ull << 32) + 5);
    sim_destroy(r.sim);
}

static void test_disabled_and_bad_state(void)
{
    struct rig r = rig_new(NULL);
    /* disabled, statistics on: primitives pass as they came, the counter counts
     * ("increments even if VS Function Enable is DISABLED", seed 003 L11035) */
    vs_state(&r, (struct vs_setup){ .enable = false, .statistics = true, .max_threads = 1 });
    triangle(&r, 0, 1, 2, 0x5, 1);
    run(&r, 20);
    const struct primitive_packet *out[CATCH_MAX];
    CU_ASSERT_EQUAL_FATAL(primitives(r.hs, out), 1);
    CU_ASSERT_EQUAL(out[0]->new_vertices, 0x5);
    CU_ASSERT_EQUAL(dispatches(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "invocations"), 2);
    /* enabled with no kernel: counted, vertices pass unshaded, no hang */
    vs_state(&r, (struct vs_setup){ .enable = true, .kernel = 0, .read_length = 1,
                                    .grf_start = 2, .max_threads = 1 });
    triangle(&r, 3, 4, 5, 0x7, 2);
    run(&r, 20);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 2);
    CU_ASSERT_EQUAL(dispatches(&r), 0);
    CU_ASSERT_EQUAL(stat(&r, "bad.kernel"), 1);
    CU_ASSERT_EQUAL(stat(&r, "vertices_unshaded"), 5);
    /* a read length of 63 rows: cut to 15 (30 elements, seed 003 L12300),
     * which also fits 128 registers after R0-R1 */
    vs_state(&r, (struct vs_setup){ .enable = true, .kernel = 0x40, .read_length = 63,
                                    .grf_start = 2, .max_threads = 1 });
    triangle(&r, 6, 7, 8, 0x1, 3);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 1);
    uint32_t i1;
    const struct catcher *c1 = dispatch_of(&r, 1, &i1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
    CU_ASSERT_EQUAL(c1->head[i1].grf_count, 2 + 15 * 8);
    CU_ASSERT_EQUAL(c1->head[i1].dmask, 0x1);
    CU_ASSERT_EQUAL(stat(&r, "bad.read_length"), 1);
    eot_write(&r, 1);
    run(&r, 40);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 3);
    /* read length 0 (INVALID, L11731): counted, a payload without vertex data;
     * Dispatch GRF Start 0 would overwrite R0/R1: counted, R2 used */
    vs_state(&r, (struct vs_setup){ .enable = true, .kernel = 0x40, .read_length = 0,
                                    .grf_start = 0, .max_threads = 1 });
    triangle(&r, 9, 10, 11, 0x2, 4);
    run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 2);
    uint32_t i2;
    const struct catcher *c2 = dispatch_of(&r, 2, &i2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    CU_ASSERT_EQUAL(c2->head[i2].grf_count, 2);
    CU_ASSERT_EQUAL(c2->grf[i2][1][0], r.handles[10]);
    CU_ASSERT_EQUAL(stat(&r, "bad.read_length"), 2);
    CU_ASSERT_EQUAL(stat(&r, "bad.grf_start"), 1);
    eot_write(&r, 2);
    run(&r, 40);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 4);
    /* a malformed primitive and a stray thread end: counted, nothing else moves */
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, 8);
    memset(m->payload, 0, 8);
    to_vs(&r, m);
    eot_write(&r, 99);
    run(&r, 40);
    CU_ASSERT_EQUAL(stat(&r, "bad.primitive"), 1);
    CU_ASSERT_EQUAL(stat(&r, "threads.unknown_ends"), 1);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 4);
    sim_destroy(r.sim);
}

static void test_thread_limit(void)
{
    struct rig r = rig_new(NULL);
    vs_state(&r, (struct vs_setup){ .enable = true, .kernel = 0x40, .read_length = 1,
                                    .grf_start = 2, .max_threads = 1 });
    /* 16 new vertices in 6 triangles: two threads' worth, one thread at a time */
    for (uint32_t t = 0; t < 5; t++)
        triangle(&r, 3 * t, 3 * t + 1, 3 * t + 2, 0x7, t);
    triangle(&r, 15, 0, 1, 0x1, 5);
    run(&r, 60);
    CU_ASSERT_EQUAL(dispatches(&r), 1);
    CU_ASSERT_TRUE(stat(&r, "threads.stall.max_threads") > 0);
    eot_write(&r, 1);
    run(&r, 60);
    CU_ASSERT_EQUAL_FATAL(dispatches(&r), 2);
    const struct primitive_packet *out[CATCH_MAX];
    /* triangles 0 and 1 (vertices 0-5) and 2 (6-8: 8 is in thread 2) */
    CU_ASSERT_EQUAL(primitives(r.hs, out), 2);
    uint32_t i2;
    const struct catcher *c2 = dispatch_of(&r, 2, &i2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    CU_ASSERT_EQUAL(c2->head[i2].dmask, 0xff);
    CU_ASSERT_EQUAL(c2->grf[i2][1][7], r.handles[15]);
    eot_write(&r, 2);
    run(&r, 60);
    CU_ASSERT_EQUAL(primitives(r.hs, out), 6);
    sim_destroy(r.sim);
}

/* Real EUs behind a real TD run a tiny VS: out.dword 16 (row 2) of each
 * vertex = element 0 component 0 + 100, written with a SIMD8 URB write with
 * EOT to the handles of R1; the URB's EOT notice lets the primitives go. */
static void test_real_eus(void)
{
    struct rig r = rig_build(NULL, true);
    struct eu_enc_buf b = { .gen = 9 };
    struct eu_enc_insn mov = { .opcode = 1, .exec_size = 8, .nsrc = 1 };
    mov.dst = eu_enc_grf(112, 0, EU_TYPE_UD);
    mov.src[0] = eu_enc_grf(1, 0, EU_TYPE_UD);                 /* the return handles */
    eu_enc_emit(&b, &mov);
    struct eu_enc_insn add = { .opcode = 64, .exec_size = 8, .nsrc = 2 };
    add.dst = eu_enc_grf(113, 0, EU_TYPE_D);
    add.src[0] = eu_enc_grf(2, 0, EU_TYPE_D);                  /* element 0 component 0 */
    add.src[1] = eu_enc_imm(EU_TYPE_D, 100);
    eu_enc_emit(&b, &add);
    struct eu_enc_insn send = { .opcode = 49, .exec_size = 8, .nsrc = 1, .sfid = 6, .eot = true };
    send.dst = eu_enc_null(EU_TYPE_UD);
    send.src[0] = eu_enc_grf(112, 0, EU_TYPE_UD);
    send.desc = desc_urb_opcode_gen8_encode(DESC_URB_SIMD8_WRITE) |
                desc_urb_global_offset_gen8_encode(4) | desc_msg_header_present_encode(1) |
                desc_msg_mlen_gen5_encode(2);
    eu_enc_emit(&b, &send);
    rig_load(r.sim, 0x40000100, &b);
    eu_enc_free(&b);
    base_address(&r, 0, 0x40000000);
    vs_state(&r, (struct vs_setup){ .enable = true, .statistics = true, .kernel = 0x100,
                                    .read_offset = 0, .read_length = 1, .grf_start = 2,
                                    .max_threads = 4 });
    for (uint32_t t = 0; t < 4; t++)
        triangle(&r, 3 * t, 3 * t + 1, 3 * t + 2, 0x7, t);
    run(&r, 3000);
    const struct primitive_packet *out[CATCH_MAX];
    CU_ASSERT_EQUAL(primitives(r.hs, out), 4);
    CU_ASSERT_EQUAL(stat(&r, "threads"), 2);
    CU_ASSERT_EQUAL(stat(&r, "threads.ended"), 2);
    for (uint32_t i = 0; i < 12; i++) {
        uint32_t v = 0;
        urb_backdoor_read(r.urb, urb_handle_offset(r.handles[i]) + 64, &v, 4);
        CU_ASSERT_EQUAL(v, 0x1000u * i + 100);
    }
    sim_destroy(r.sim);
}

/* Gen4 (seed 001 L1220-1349, L5589-6158): VS_STATE read from memory at
 * General State Base + the 3DSTATE_PIPELINED_POINTERS pointer; a pointer
 * outside memory is counted and the VS treated as disabled. */
static void test_gen4_pipelined_vs_state(void)
{
    struct rig r = rig_new(NULL);
    struct GEN4_VS_STATE g;
    memset(&g, 0, sizeof g);
    g.Enable = true;
    g.KernelStartPointer = 0x2000;
    g.MaximumNumberOfThreads = 3;
    g.VertexURBEntryReadLength = 1;
    g.DispatchGRFStartRegisterForURBData = 1;
    g.ConstantURBEntryReadLength = 1;
    g.NumberOfURBEntries = 32;
    uint32_t dw[GEN4_VS_STATE_length] = { 0 };
    GEN4_VS_STATE_pack(dw, &g);
    gpu_memory_write(r.mem, 0x1000, dw, sizeof dw, NULL);
    struct spec_3DSTATE_PIPELINED_POINTERS *pp;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_PIPELINED_POINTERS, 7, sizeof *pp, (void **)&pp);
    ((struct cs_state_packet *)m->payload)->gen = 4;
    pp->PointerToVSState = 0x1000;
    to_vs(&r, m);
    run(&r, 20);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.state.vs"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.gen4.state_faults"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.bad.kernel"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.bad.grf_start"), 0);      /* R1 is fine for SIMD4x2 */
    /* a pointer far past memory: counted, the VS disabled, no crash */
    m = state_msg(&r, SPEC_ID_3DSTATE_PIPELINED_POINTERS, 7, sizeof *pp, (void **)&pp);
    ((struct cs_state_packet *)m->payload)->gen = 4;
    ((struct cs_state_packet *)m->payload)->space_format = GPU_ADDRESS_SPACE_GTT_GEN4;
    pp->PointerToVSState = 0xffffffe0ull;
    to_vs(&r, m);
    run(&r, 20);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.gen4.state_faults"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vs.state.vs"), 2);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "Gen4 VS_STATE through 3DSTATE_PIPELINED_POINTERS; a pointer outside memory",
      test_gen4_pipelined_vs_state },
    { "Gen7 SIMD4x2 dispatch: handles in R0, interleaved vertex data", test_gen7_simd4x2 },
    { "SIMD8 payload from the URB, batches of 8, primitives in order after their threads",
      test_payload_batches_and_order },
    { "partial threads, cache hits, VS_INVOCATION_COUNT and the pipeline sync",
      test_partial_release_cache_hits_and_sync },
    { "disabled pass-through and bad state counted", test_disabled_and_bad_state },
    { "Maximum Number of Threads holds dispatch", test_thread_limit },
    { "real EUs behind a TD run a VS kernel that writes the URB with EOT", test_real_eus },
    { 0 }
};
TEST_SUITE(vs, cases);
