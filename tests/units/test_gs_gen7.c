/* tests/units/test_gs_gen7.c - the GS stage's Gen7 SIMD4x2 dispatch modes
 * (units/gs/gs_gen7.h) with the real URB unit, a real TD and real EUs
 * running a kernel assembled by intel-gen4asm at build time
 * (tests/data/eu/exec/gs_dual_object.gen7.g4a: one triangle per input
 * object, output vertex k = four 128-bit rows: input vertex k's pushed row,
 * the Primitive ID register, the ICP handle register).
 *
 * Expected values are worked out here from seed 003's SIMD4x2 GS payload
 * table (L13244-13570: R0.0/R0.1 return handles, R1.0/R1.4 Primitive IDs,
 * object 0's ICP handles in DW3:0 and object 1's in DW7:4, pushed vertex
 * data with object 0 in the lower half and object 1 in the upper), seed
 * 004's Dispatch Mode text (L3296-3303) and the URB's handle arithmetic
 * (start in 8 KB units, handles in 64-byte units; units/common/urb.h).
 * Input VUE v (128 bytes) holds 0x1000 v + 0x10 n + d in dword d of row n;
 * Vertex URB Entry Read Offset 1 pushes row 1. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/eu/eu.h"
#include "units/gs/gs.h"
#include "units/td/td.h"
#include "units/urb/urb.h"

#define KERNEL_PATH "build/gen/eu/exec/gs_dual_object.gen7.hex"
#define INSTRUCTION_BASE 0x40000000u
#define KERNEL_OFFSET 0x200u

/* ---- a recorder of what leaves on "sol" and of the URB's replies to the test -------- */

#define REC_MAX 64u
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
    .kind = "test_gs7_recorder",
    .state_size = sizeof(struct recorder),
    .ports = recorder_ports,
    .realize = recorder_realize,
    .tick = recorder_tick,
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
    return f->count ? UNIT_BUSY : UNIT_IDLE;
}

static void feeder_destroy(struct unit *u)
{
    struct feeder *f = unit_state(u);
    for (; f->count; f->count--, f->head = (f->head + 1) % FEED_MAX)
        msg_free(unit_sim(u), f->queue[f->head]);
}

static const struct unit_ops feeder_ops = {
    .kind = "test_gs7_feeder",
    .state_size = sizeof(struct feeder),
    .ports = feeder_ports,
    .realize = feeder_realize,
    .tick = feeder_tick,
    .destroy = feeder_destroy,
};

static void feed(struct unit *u, struct msg *m)
{
    struct feeder *f = unit_state(u);
    CU_ASSERT_FATAL(f->count < FEED_MAX);
    f->queue[(f->head + f->count++) % FEED_MAX] = m;
    unit_wake_at(u, unit_cycle(u));
}

/* ---- the rig: GS, URB, a TD with two EUs, "sol" recorded ---------------------------- */

struct rig {
    struct sim *sim;
    struct unit *urb, *gs, *feed;
    struct recorder *sol, *vs;      /* vs: the URB's replies to the test's VS-client requests */
};

static struct rig rig_new(void)
{
    struct rig r = { 0 };
    r.sim = probe_sim(&(struct sim_options){ .watchdog_cycles = 20000, .log_level = -1 });
    probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.gs = probe_add(r.sim, &gs_ops, "gs", NULL);
    struct unit *sol = probe_add(r.sim, &recorder_ops, "sol", NULL);
    struct unit *vs = probe_add(r.sim, &recorder_ops, "vs", NULL);
    r.feed = probe_add(r.sim, &feeder_ops, "ds", NULL);
    const char *td_over[] = { "eus=2", NULL };
    struct unit *td = probe_add(r.sim, &td_ops, "td", td_over);
    probe_link(r.sim, r.feed, "out", r.gs, "ds", 1, 64, 1);
    probe_link(r.sim, r.gs, "td[0]", td, "gs", 1, 4, 1);
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
    probe_link(r.sim, r.gs, "sol", sol, "in", 1, 64, 4);
    probe_link(r.sim, r.gs, "urb", r.urb, "client[0]", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.gs, "urb_reply", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", vs, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_gs", r.gs, "eot", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.sol = unit_state(sol);
    r.vs = unit_state(vs);
    CU_ASSERT_EQUAL_FATAL(rig_load_file(r.sim, INSTRUCTION_BASE + KERNEL_OFFSET, KERNEL_PATH),
                          20 * 16);
    return r;
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

/* A Gen7 state packet whose superset struct (body bytes) the caller fills. */
static struct msg *state_msg(struct rig *r, uint32_t id, uint32_t dwords, size_t body, void **common)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + body));
    memset(m->payload, 0, off + body);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 7;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *common = (uint8_t *)p + off;
    return m;
}

/* 3DSTATE_URB_<stage> to the URB and to the GS. */
static void urb_state(struct rig *r, uint32_t id, uint32_t start, uint32_t size, uint32_t entries)
{
    for (int to_gs = 0; to_gs < 2; to_gs++) {
        void *c;
        struct msg *m = state_msg(r, id, 2, sizeof(struct spec_3DSTATE_URB_VS), &c);
        struct spec_3DSTATE_URB_VS *v = c;     /* the four supersets share one layout */
        v->VSNumberOfURBEntries = entries;
        v->VSURBEntryAllocationSize = size;
        v->VSURBStartingAddress = start;
        if (to_gs)
            feed(r->feed, m);
        else
            CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
    }
}

#define GS_START 8u                         /* 64 KB: handle 1024 */
#define GS_FIRST_HANDLE (GS_START * 8192u / 64u)
#define GS_ENTRY_HANDLES 8u                 /* 512-byte entries */

static void setup(struct rig *r, uint32_t gs_entries, const struct spec_3DSTATE_GS *g)
{
    urb_state(r, SPEC_ID_3DSTATE_URB_VS, 4, 1, 16);
    urb_state(r, SPEC_ID_3DSTATE_URB_GS, GS_START, GS_ENTRY_HANDLES - 1, gs_entries);
    void *c;
    struct msg *m = state_msg(r, SPEC_ID_STATE_BASE_ADDRESS, 10,
                              sizeof(struct spec_STATE_BASE_ADDRESS), &c);
    struct spec_STATE_BASE_ADDRESS *sba = c;
    sba->InstructionBaseAddress = INSTRUCTION_BASE;
    sba->InstructionBaseAddressModifyEnable = true;
    feed(r->feed, m);
    m = state_msg(r, SPEC_ID_3DSTATE_GS, 7, sizeof *g, &c);
    memcpy(c, g, sizeof *g);
    feed(r->feed, m);
    run(r, 10);
}

/* n input VUEs of 128 bytes (VS entries from 32 KB: handles 512, 514, ...),
 * written through the URB's backdoor. */
static void input_vues(struct rig *r, uint32_t n, uint32_t *handles)
{
    struct msg *m = msg_alloc(r->sim, MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = n;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "client", 1), m));
    run(r, 10);
    CU_ASSERT_EQUAL_FATAL(r->vs->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r->vs->payload[0];
    CU_ASSERT_EQUAL_FATAL(a->count, n);
    for (uint32_t v = 0; v < n; v++) {
        handles[v] = a->handles[v];
        CU_ASSERT_EQUAL(handles[v], (32768 + v * 128) / 64);
        uint32_t words[32];
        for (uint32_t i = 0; i < 32; i++)
            words[i] = 0x1000u * v + 0x10u * (i / 8) + i % 8;
        urb_backdoor_write(r->urb, handles[v] * 64, words, sizeof words);
    }
}

static void send_object(struct rig *r, uint32_t topology, const uint32_t *handles, uint32_t n,
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
    feed(r->feed, m);
}

/* The primitives on "sol", in order (state packets skipped). */
static uint32_t sol_primitives(const struct rig *r, const struct primitive_packet **out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->sol->count && i < REC_MAX && n < max; i++)
        if (r->sol->kind[i] == MSG_PRIMITIVE)
            out[n++] = (const struct primitive_packet *)r->sol->payload[i];
    return n;
}

/* The 3DSTATE_GS these tests program: DUAL_OBJECT, Include PrimitiveID and
 * Vertex Handles, row 1 of each input vertex pushed from g3 (the payload's
 * fixed part is R0, R1, R2: 004 L3266's formula ((2 x 3) + 7) / 8 + 1, + 1),
 * TRILIST out, 64-byte vertices, no control data header. */
static struct spec_3DSTATE_GS dual_object_gs(void)
{
    return (struct spec_3DSTATE_GS){
        .Enable = true, .DispatchMode = 2, .IncludeVertexHandles = true,
        .IncludePrimitiveID = true, .VertexURBEntryReadOffset = 1,
        .VertexURBEntryReadLength = 1, .DispatchGRFStartRegisterForURBData = 3,
        .OutputTopology = PRIM_TRILIST, .OutputVertexSize = 3, .ControlDataHeaderSize = 0,
        .MaximumNumberOfThreads = 7, .StatisticsEnable = 1, .KernelStartPointer = KERNEL_OFFSET,
    };
}

/* Checks what the kernel wrote for one object into its output entry and
 * the primitive that reached "sol" for it. */
static void check_object_output(struct rig *r, const struct primitive_packet *o, uint32_t entry,
                                const uint32_t *in, uint32_t primitive_id)
{
    CU_ASSERT_EQUAL(o->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(o->vertex_count, 3);
    CU_ASSERT_EQUAL(o->owner_handle, entry);
    CU_ASSERT_EQUAL(o->primitive_id, primitive_id);
    for (uint32_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(o->handles[k], entry + k);          /* vertex k at byte 64 k */
        uint32_t got[16];
        urb_backdoor_read(r->urb, (entry + k) * 64, got, sizeof got);
        uint32_t v = (in[k] * 64 - 32768) / 128;            /* input VUE index */
        for (uint32_t d = 0; d < 8; d++)                    /* its row 1, both elements */
            CU_ASSERT_EQUAL(got[d], 0x1000u * v + 0x10u + d);
        CU_ASSERT_EQUAL(got[8], primitive_id);              /* R1.0 or R1.4 */
        CU_ASSERT_EQUAL(got[9], 0);
        CU_ASSERT_EQUAL(got[10], 0);
        CU_ASSERT_EQUAL(got[11], 0);
        for (uint32_t i = 0; i < 3; i++)                    /* the object's ICP handles */
            CU_ASSERT_EQUAL(got[12 + i], in[i]);
        CU_ASSERT_EQUAL(got[15], 0);
    }
}

/* Three triangles back to back: the first two share a thread (object 0 in
 * the lower half, object 1 in the upper), the third finds no partner and
 * goes alone after the wait, its DW7:4 masked off. The output entries are
 * allocated in dispatch order, two for the pair (1024, 1032), one for the
 * lone object (1040); each object's triangle reaches "sol" in object order. */
static void test_dual_object_real_eus(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_GS g = dual_object_gs();
    setup(&r, 8, &g);
    uint32_t in[9];
    input_vues(&r, 9, in);
    for (uint32_t o = 0; o < 3; o++)
        send_object(&r, PRIM_TRILIST, in + 3 * o, 3, 40 + o);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.objects"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.dual_object_threads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.single_object_threads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.td.dispatched"), 2);
    /* Invocations Increment Value 0: +1 per object (004 L3317) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gs_primitives"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.eot_notified"), 2);
    const struct primitive_packet *p[8];
    CU_ASSERT_EQUAL_FATAL(sol_primitives(&r, p, 8), 3);
    for (uint32_t o = 0; o < 3; o++)
        check_object_output(&r, p[o], GS_FIRST_HANDLE + o * GS_ENTRY_HANDLES, in + 3 * o, 40 + o);
    /* the lone object's upper half stayed unwritten: the URB's store starts zeroed */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.bad_messages"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    sim_destroy(r.sim);
}

/* A state packet between two objects ends the wait for a partner: each goes
 * alone, in order (state keeps its place: it reaches "sol" between them). */
static void test_state_splits_pair(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_GS g = dual_object_gs();
    setup(&r, 8, &g);
    uint32_t in[6];
    input_vues(&r, 6, in);
    uint32_t before = r.sol->count;
    send_object(&r, PRIM_TRILIST, in, 3, 1);
    void *c;
    struct msg *m = state_msg(&r, SPEC_ID_3DSTATE_CLIP, 4, sizeof(struct spec_3DSTATE_CLIP), &c);
    feed(r.feed, m);
    send_object(&r, PRIM_TRILIST, in + 3, 3, 2);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.dual_object_threads"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.single_object_threads"), 2);
    CU_ASSERT_EQUAL_FATAL(r.sol->count, before + 3);
    CU_ASSERT_EQUAL(r.sol->kind[before], MSG_PRIMITIVE);
    CU_ASSERT_EQUAL(r.sol->kind[before + 1], MSG_STATE);
    CU_ASSERT_EQUAL(r.sol->kind[before + 2], MSG_PRIMITIVE);
    check_object_output(&r, (const struct primitive_packet *)r.sol->payload[before],
                        GS_FIRST_HANDLE, in, 1);
    check_object_output(&r, (const struct primitive_packet *)r.sol->payload[before + 2],
                        GS_FIRST_HANDLE + GS_ENTRY_HANDLES, in + 3, 2);
    sim_destroy(r.sim);
}

/* Bad dual-mode state, counted, never a hang: one GS URB entry (two are
 * needed, 004 L3303) shades one object per thread; DUAL_OBJECT with
 * InstanceCount 2 (invalid, L3284) one instance per thread; an object of
 * 17 vertices (DUAL_OBJECT takes at most 16, L3299) goes alone. (The
 * recorder on "sol" keeps its references, so one entry serves one object.) */
static void test_bad_dual_object_state(void)
{
    struct rig r = rig_new();
    struct spec_3DSTATE_GS g = dual_object_gs();
    setup(&r, 1, &g);
    uint32_t in[6];
    input_vues(&r, 3, in);
    send_object(&r, PRIM_TRILIST, in, 3, 1);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.dual_mode_few_entries"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.td.dispatched"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.refused_entries"), 0);
    const struct primitive_packet *p[8];
    CU_ASSERT_EQUAL_FATAL(sol_primitives(&r, p, 8), 1);
    check_object_output(&r, p[0], GS_FIRST_HANDLE, in, 1);
    sim_destroy(r.sim);

    r = rig_new();
    g.InstanceControl = 1;
    setup(&r, 8, &g);
    input_vues(&r, 3, in);
    send_object(&r, PRIM_TRILIST, in, 3, 5);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.dual_object_invalid"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.td.dispatched"), 2);      /* one per instance */
    CU_ASSERT_EQUAL(sol_primitives(&r, p, 8), 2);
    sim_destroy(r.sim);

    r = rig_new();
    g = dual_object_gs();
    g.IncludeVertexHandles = false;
    g.VertexURBEntryReadLength = 0;
    setup(&r, 8, &g);
    uint32_t many[17];
    input_vues(&r, 16, many);
    many[16] = many[0];
    send_object(&r, PRIM_PATCHLIST_1 + 16, many, 17, 6);
    send_object(&r, PRIM_TRILIST, many + 1, 3, 7);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.dual_object_oversized"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.single_object_threads"), 2);
    CU_ASSERT_EQUAL(sol_primitives(&r, p, 8), 2);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "DUAL_OBJECT on real EUs: two objects per thread, a lone one, outputs in order",
      test_dual_object_real_eus },
    { "DUAL_OBJECT: a state packet ends the wait for a partner", test_state_splits_pair },
    { "bad dual-mode state: one URB entry, instancing, 17 vertices (counted)",
      test_bad_dual_object_state },
    { 0 }
};
TEST_SUITE(gs_gen7, cases);
