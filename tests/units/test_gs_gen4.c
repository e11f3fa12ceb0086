/* tests/units/test_gs_gen4.c - the Gen4 (965G) GS threads (units/gs/gs_gen4.h)
 * with the real urb_fence unit, a real TD and real EUs running a quad kernel
 * assembled by intel-gen4asm at build time (tests/data/eu/exec/
 * gs_quad.gen4.g4a: a 4-vertex object becomes a TRISTRIP of its payload
 * vertices P0, P1, P3, P2, each output vertex's row 0 a copy of the payload
 * vertex's row).
 *
 * Expected values come from seed 001: the GS object vertex ordering table
 * (L7160-7395: QUADLIST [i] = (4i .. 4i+3); QUADSTRIP [i] = (2i, 2i+1,
 * 2i+3, 2i+2); TRISTRIP with Reorder ENABLED odd k = (k, k+2, k+1)
 * {TRISTRIP_REV}, DISABLED (k, k+1, k+2) {TRISTRIP_REV}; TRISTRIP_REV's rows;
 * POLYGON's Edge Indicators), the GS payload Table 5-1 (L7396-7584: R0.0
 * 8:0 URB Return Handle, R0.2 4:0 topology, vertices one after the other
 * from Dispatch GRF Start), GS_STATE's layout (L6534-7159: DW3 Vertex URB
 * Entry Read Length 16:11, Dispatch GRF Start 3:0; DW4 Maximum Number of
 * Threads 29:25, URB Entry Allocation Size 23:19, Number of URB Entries
 * 17:11, Statistics 10; DW6 Reorder Enable 30) and the fences' handle
 * arithmetic (urb_fence.h: entries laid from the region's start, handles in
 * 512-bit rows). Input VUE v holds 0x1000 v + d in dword d of row 0. */
#include <stdio.h>
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
#include "units/gs/gs_gen4.h"
#include "units/td/td.h"
#include "units/urb_fence/urb_fence.h"

#define KERNEL_PATH "build/gen/eu/exec/gs_quad.gen4.hex"
#define KERNEL_AT 0x2000u
#define GS_STATE_AT 0x1200u
#define GS_FIRST_HANDLE 32u             /* the GS region [32, 48) */

/* ---- object staging: the seed's table (no unit) -------------------------------------- */

static void check_object(const struct gs_gen4_object *o, uint32_t topology, uint32_t n,
                         const uint32_t *v)
{
    CU_ASSERT_EQUAL(o->topology, topology);
    CU_ASSERT_EQUAL_FATAL(o->n, n);
    for (uint32_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(o->v[i], v[i]);
}

static void test_stage_objects(void)
{
    struct gs_gen4_object o[PRIM_MAX_VERTICES];
    bool unsupported;
    /* TRISTRIP, N = 5, Reorder ENABLED: (0,1,2), (1,3,2){REV}, (2,3,4) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP, 0, 5, true, o, 32, &unsupported), 3);
    check_object(&o[0], PRIM_TRISTRIP, 3, (uint32_t[]){ 0, 1, 2 });
    check_object(&o[1], PRIM_TRISTRIP_REVERSE, 3, (uint32_t[]){ 1, 3, 2 });
    check_object(&o[2], PRIM_TRISTRIP, 3, (uint32_t[]){ 2, 3, 4 });
    /* Reorder DISABLED: (1,2,3) typed TRISTRIP_REV */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP, 0, 4, false, o, 32, &unsupported), 2);
    check_object(&o[1], PRIM_TRISTRIP_REVERSE, 3, (uint32_t[]){ 1, 2, 3 });
    /* TRISTRIP_REV, Reorder ENABLED: (0,2,1){REV}, (1,2,3){TRISTRIP} */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP_REVERSE, 0, 4, true, o, 32,
                                                &unsupported), 2);
    check_object(&o[0], PRIM_TRISTRIP_REVERSE, 3, (uint32_t[]){ 0, 2, 1 });
    check_object(&o[1], PRIM_TRISTRIP, 3, (uint32_t[]){ 1, 2, 3 });
    /* a lone odd strip triangle from VF (PRIM_STRIP_ODD): reordered */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP, PRIM_STRIP_ODD, 3, true, o, 32,
                                                &unsupported), 1);
    check_object(&o[0], PRIM_TRISTRIP_REVERSE, 3, (uint32_t[]){ 0, 2, 1 });
    /* QUADLIST: (0,1,2,3), (4,5,6,7); QUADSTRIP: (0,1,3,2), (2,3,5,4) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_QUADLIST, 0, 8, true, o, 32, &unsupported), 2);
    check_object(&o[1], PRIM_QUADLIST, 4, (uint32_t[]){ 4, 5, 6, 7 });
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_QUADSTRIP, 0, 6, true, o, 32, &unsupported), 2);
    check_object(&o[0], PRIM_QUADSTRIP, 4, (uint32_t[]){ 0, 1, 3, 2 });
    check_object(&o[1], PRIM_QUADSTRIP, 4, (uint32_t[]){ 2, 3, 5, 4 });
    /* VF's quads (4-vertex POLYGONs, units/vf): typed as the table's rows
     * (L7377-7395) - QUADSTRIP when VF marks it so, else QUADLIST */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_POLYGON, PRIM_START | PRIM_QUADSTRIP_OBJECT, 4,
                                                true, o, 32, &unsupported), 1);
    check_object(&o[0], PRIM_QUADSTRIP, 4, (uint32_t[]){ 0, 1, 2, 3 });
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_POLYGON, PRIM_START, 4, true, o, 32,
                                                &unsupported), 1);
    check_object(&o[0], PRIM_QUADLIST, 4, (uint32_t[]){ 0, 1, 2, 3 });
    /* LINELOOP: (0,1), (1,2), [N] = (2,0); LINESTRIP_ADJ: (0..3), (1..4) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_LINELOOP, 0, 3, true, o, 32, &unsupported), 3);
    check_object(&o[2], PRIM_LINELOOP, 2, (uint32_t[]){ 2, 0 });
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_LINESTRIP_ADJ, 0, 5, true, o, 32,
                                                &unsupported), 2);
    check_object(&o[1], PRIM_LINESTRIP_ADJ, 4, (uint32_t[]){ 1, 2, 3, 4 });
    /* POLYGON of 5: (0,1,2) edge V0->V1, (0,2,3) none, (0,3,4) edge V2->V0 */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_POLYGON, 0, 5, true, o, 32, &unsupported), 3);
    check_object(&o[2], PRIM_POLYGON, 3, (uint32_t[]){ 0, 3, 4 });
    CU_ASSERT_EQUAL(o[0].edges, 1u << 8);
    CU_ASSERT_EQUAL(o[1].edges, 0);
    CU_ASSERT_EQUAL(o[2].edges, 1u << 9);
    /* a lone POLYGON triangle from VF: its place from PrimStart / PrimEnd */
    gs_gen4_stage_objects(PRIM_POLYGON, PRIM_START, 3, true, o, 32, &unsupported);
    CU_ASSERT_EQUAL(o[0].edges, 1u << 8);
    gs_gen4_stage_objects(PRIM_POLYGON, PRIM_END, 3, true, o, 32, &unsupported);
    CU_ASSERT_EQUAL(o[0].edges, 1u << 9);
    /* TRISTRIP_ADJ longer than one object, the table's rows (L7335-7360):
     * N = 8 (or 9): [0] = (0,1,2,6,4,3), [1] = (2,5,6,7,4,0) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP_ADJ, 0, 9, true, o, 32,
                                                &unsupported), 2);
    CU_ASSERT_FALSE(unsupported);
    check_object(&o[0], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 0, 1, 2, 6, 4, 3 });
    check_object(&o[1], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 2, 5, 6, 7, 4, 0 });
    /* N = 12: [0] = (0,1,2,6,4,3); [1] = (2,5,6,8,4,0) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP_ADJ, 0, 12, true, o, 32,
                                                &unsupported), 4);
    check_object(&o[0], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 0, 1, 2, 6, 4, 3 });
    check_object(&o[1], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 2, 5, 6, 8, 4, 0 });
    /* [k>1, even] = (2k, 2k-2, 2k+2, 2k+6, 2k+4, 2k+3), k = 2 */
    check_object(&o[2], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 4, 2, 6, 10, 8, 7 });
    /* trailing, k = N/2-3 = 3 odd: (N-6, N-3, N-2, N-1, N-4, N-8) */
    check_object(&o[3], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 6, 9, 10, 11, 8, 4 });
    /* N = 14: trailing k = 4 even: (N-6, N-8, N-4, N-1, N-2, N-3); k = 3 odd
     * (not trailing): (2k, 2k+3, 2k+4, 2k+6, 2k+2, 2k-2) */
    CU_ASSERT_EQUAL_FATAL(gs_gen4_stage_objects(PRIM_TRISTRIP_ADJ, 0, 14, true, o, 32,
                                                &unsupported), 5);
    check_object(&o[3], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 6, 9, 10, 12, 8, 4 });
    check_object(&o[4], PRIM_TRISTRIP_ADJ, 6, (uint32_t[]){ 8, 6, 10, 13, 12, 11 });
    /* no topology 0: counted by the unit */
    CU_ASSERT_EQUAL(gs_gen4_stage_objects(0, 0, 3, true, o, 32, &unsupported), 0);
    CU_ASSERT_TRUE(unsupported);
}

/* ---- the rig: GS, urb_fence, a TD with two EUs (or a catcher), "sol" recorded --------- */

#define REC_MAX 64u
#define REC_BYTES 2048u

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
    .kind = "test_gs4_recorder",
    .state_size = sizeof(struct recorder),
    .ports = recorder_ports,
    .realize = recorder_realize,
    .tick = recorder_tick,
};

/* the DS stage's place: forwards what the test injects, in order */
struct relay {
    struct port *in, *out;
};

static const struct port_desc relay_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "injected" },
    { .name = "out", .direction = PORT_OUT, .help = "to gs.ds" },
    PORT_END
};

static int relay_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct relay *f = unit_state(u);
    f->in = unit_port(u, "in", 0);
    f->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity relay_tick(struct unit *u)
{
    struct relay *f = unit_state(u);
    struct msg *m;
    while (port_can_send(f->out) && (m = port_pop(f->in)))
        port_try_send(f->out, m);
    return port_visible(f->in) ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops relay_ops = {
    .kind = "test_gs4_relay",
    .state_size = sizeof(struct relay),
    .ports = relay_ports,
    .realize = relay_realize,
    .tick = relay_tick,
};

struct rig {
    struct sim *sim;
    struct unit *relay;
    struct gpu_memory *mem;
    struct unit *urb, *gs;
    struct recorder *sol, *vs, *td;
};

/* real_eus false: the thread requests go to a recorder (no thread ever ends) */
static struct rig rig_new(bool real_eus, const char *timeout)
{
    struct rig r = { 0 };
    r.sim = probe_sim(&(struct sim_options){ .watchdog_cycles = 0, .log_level = -1 });
    r.mem = probe_memory(r.sim);
    const char *over[] = { timeout, NULL };
    r.urb = probe_add(r.sim, &urb_fence_ops, "urb", NULL);
    r.gs = probe_add(r.sim, &gs_ops, "gs", over);
    struct unit *sol = probe_add(r.sim, &recorder_ops, "sol", NULL);
    struct unit *vs = probe_add(r.sim, &recorder_ops, "vs", NULL);
    r.relay = probe_add(r.sim, &relay_ops, "ds", NULL);
    probe_link(r.sim, r.relay, "out", r.gs, "ds", 1, 64, 4);
    probe_link(r.sim, r.gs, "sol", sol, "in", 1, 64, 4);
    probe_link(r.sim, r.gs, "urb", r.urb, "client[0]", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.gs, "urb_reply", 1, 64, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", vs, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_gs", r.gs, "eot", 1, 16, 4);
    if (real_eus) {
        const char *td_over[] = { "eus=2", NULL };
        struct unit *td = probe_add(r.sim, &td_ops, "td", td_over);
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
    } else {
        struct unit *td = probe_add(r.sim, &recorder_ops, "td", NULL);
        probe_link(r.sim, r.gs, "td[0]", td, "in", 1, 16, 4);
        r.td = unit_state(td);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "ds.in", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.sol = unit_state(sol);
    r.vs = unit_state(vs);
    if (real_eus)
        CU_ASSERT_EQUAL_FATAL(rig_load_file(r.sim, KERNEL_AT, KERNEL_PATH), 15 * 16);
    return r;
}

static void run(struct rig *r, uint64_t cycles)
{
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

static void *state_packet(struct rig *r, struct port *to, uint32_t id, size_t common_size)
{
    size_t off = cs_state_common_offset(7);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + common_size));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off + common_size);
    p->id = id;
    p->gen = 4;
    p->dword_count = 7;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    CU_ASSERT_TRUE(port_inject(to, m));
    return (uint8_t *)p + off;
}

/* GS_STATE (one thread, 8 entries of one 512-bit unit, statistics, Reorder
 * on), the fences (VS [0, 32), GS [32, 48)), n VS entries (handles 0..n-1)
 * holding 0x1000 v + d in row 0, and the pointers with GS on. */
static void program(struct rig *r, uint32_t n, uint32_t threads)
{
    uint32_t gs[7] = { 0 };
    gs[0] = KERNEL_AT | 1u << 1;                    /* GRF Register Count 1 (2 blocks) */
    gs[1] = 1u << 31;                               /* Single Program Flow */
    gs[3] = 1u << 11 | 1u;                          /* read length 1, offset 0, GRF start 1 */
    gs[4] = (threads - 1) << 25 | 8u << 11 | 1u << 10;  /* threads, 8 entries, statistics */
    gs[6] = 1u << 30;                               /* Reorder Enable */
    CU_ASSERT_EQUAL(gpu_memory_write(r->mem, GS_STATE_AT, gs, sizeof gs, NULL), 0);
    struct spec_URB_FENCE *f = state_packet(r, unit_port(r->urb, "state", 0), SPEC_ID_URB_FENCE,
                                            sizeof *f);
    f->VSUnitURBReallocationRequest = f->GSUnitURBReallocationRequest = true;
    f->CLIPUnitURBReallocationRequest = f->SFUnitURBReallocationRequest = true;
    f->VFEUnitURBReallocationRequest = f->CSUnitURBReallocationRequest = true;
    f->VSFence = 32, f->GSFence = 48, f->CLIPFence = 58, f->SFFence = 90, f->CSFence = 256;
    struct port *client = unit_port(r->urb, "client", 1);
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_CONFIGURE, q->client = URB_CLIENT_VS, q->count = 32, q->rows = 2;
    CU_ASSERT_TRUE(port_inject(client, m));
    m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC, q->client = URB_CLIENT_VS, q->count = n;
    CU_ASSERT_TRUE(port_inject(client, m));
    for (uint32_t v = 0; v < n; v++) {
        uint32_t row[8];
        for (uint32_t d = 0; d < 8; d++)
            row[d] = 0x1000u * v + d;
        CU_ASSERT_EQUAL(urb_fence_backdoor_write(r->urb, v * 64u, row, sizeof row), sizeof row);
    }
    struct spec_3DSTATE_PIPELINED_POINTERS *pp =
        state_packet(r, unit_port(r->relay, "in", 0), SPEC_ID_3DSTATE_PIPELINED_POINTERS,
                     sizeof *pp);
    pp->GSEnable = true;
    pp->PointerToGSState = GS_STATE_AT;
    run(r, 10);
}

static void send_packet(struct rig *r, uint32_t topology, uint32_t n)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = n;
    p->primitive_id = 7;
    p->owner_handle = URB_HANDLE_NONE;
    for (uint32_t v = 0; v < n; v++)
        p->handles[v] = v;
    CU_ASSERT_TRUE(port_inject(unit_port(r->relay, "in", 0), m));
}

static uint32_t sol_primitives(const struct rig *r, const struct primitive_packet **out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->sol->count && i < REC_MAX && n < max; i++)
        if (r->sol->kind[i] == MSG_PRIMITIVE)
            out[n++] = (const struct primitive_packet *)r->sol->payload[i];
    return n;
}

/* A TRISTRIP primitive of four output entries `first`.. whose rows are
 * copies of input vertices `expect` (in strip order). */
static void check_strip(struct rig *r, const struct primitive_packet *p, uint32_t first,
                        const uint32_t expect[4])
{
    CU_ASSERT_EQUAL(p->topology, PRIM_TRISTRIP);
    CU_ASSERT_EQUAL(p->flags & (PRIM_START | PRIM_END), PRIM_START | PRIM_END);
    CU_ASSERT_EQUAL(p->primitive_id, 7);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 4);
    for (uint32_t k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL(p->handles[k], first + k);
        uint32_t row[8];
        urb_fence_backdoor_read(r->urb, p->handles[k] * 64u, row, sizeof row);
        for (uint32_t d = 0; d < 8; d++)
            CU_ASSERT_EQUAL(row[d], 0x1000u * expect[k] + d);
    }
}

/* A QUADLIST of 8 vertices: two objects (0,1,2,3), (4,5,6,7), one thread
 * each (Maximum Number of Threads 1: the second object's entry is asked for
 * once the first thread ended). The kernel's strip P0, P1, P3, P2 is input
 * vertices 0, 1, 3, 2 and 4, 5, 7, 6; the first thread's entries are the
 * GS region's first four (32: its payload entry, 33-35 by Allocate), the
 * second's the next four. Every input vertex is freed (the payload holds
 * them). */
static void test_quadlist_real_eus(void)
{
    struct rig r = rig_new(true, "thread_timeout=0");
    program(&r, 8, 1);
    send_packet(&r, PRIM_QUADLIST, 8);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.objects"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.threads_dispatched"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.threads_ended"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.outputs"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.primitives_out"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.invocations"), 2);   /* Statistics Enable */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.dangling_outputs"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.outputs_notified"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 8);       /* the 8 input vertices */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.bad_messages"), 0);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL_FATAL(sol_primitives(&r, p, 4), 2);
    check_strip(&r, p[0], GS_FIRST_HANDLE, (uint32_t[]){ 0, 1, 3, 2 });
    check_strip(&r, p[1], GS_FIRST_HANDLE + 4, (uint32_t[]){ 4, 5, 7, 6 });
    sim_destroy(r.sim);
}

/* A QUADSTRIP of 6 vertices with two threads allowed: objects (0,1,3,2) and
 * (2,3,5,4) in the payload, so the kernel's strips are (0,1,2,3) and
 * (2,3,4,5); the two threads may overlap, their output still leaves in
 * object order (L8544-8552). */
static void test_quadstrip_two_threads(void)
{
    struct rig r = rig_new(true, "thread_timeout=0");
    program(&r, 6, 2);
    send_packet(&r, PRIM_QUADSTRIP, 6);
    run(&r, 3000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.threads_ended"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 6);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL_FATAL(sol_primitives(&r, p, 4), 2);
    uint32_t first[2];
    for (uint32_t i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(p[i]->vertex_count, 4);
        first[i] = p[i]->handles[0];
    }
    /* the entries depend on which thread allocated first; the rows do not */
    static const uint32_t expect[2][4] = { { 0, 1, 2, 3 }, { 2, 3, 4, 5 } };
    for (uint32_t i = 0; i < 2; i++)
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t row[8];
            urb_fence_backdoor_read(r.urb, p[i]->handles[k] * 64u, row, sizeof row);
            CU_ASSERT_EQUAL(row[0], 0x1000u * expect[i][k]);
        }
    CU_ASSERT_NOT_EQUAL(first[0], first[1]);
    sim_destroy(r.sim);
}

/* The payload itself (Table 5-1) as the TD receives it: R0.0 the URB
 * Return Handle (the region's first entry) with the Handle ID, R0.2 the
 * object's topology; the vertices from g1 in the table's order (a QUADSTRIP
 * object's (0,1,3,2)). The thread never ends: the watchdog drops the object,
 * frees its entry and the input vertices (counted), nothing goes down. */
static void test_payload_and_watchdog(void)
{
    struct rig r = rig_new(false, "thread_timeout=500");
    program(&r, 4, 1);
    send_packet(&r, PRIM_QUADSTRIP, 4);
    run(&r, 200);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = (const struct eu_dispatch *)r.td->payload[0];
    CU_ASSERT_EQUAL(d->kernel_offset, KERNEL_AT);
    uint32_t r0[8];
    memcpy(r0, d->grf[0], sizeof r0);
    CU_ASSERT_EQUAL(r0[0] & 0x1ffu, GS_FIRST_HANDLE);
    CU_ASSERT_EQUAL(r0[2] & 0x1fu, PRIM_QUADSTRIP);
    static const uint32_t order[4] = { 0, 1, 3, 2 };
    for (uint32_t v = 0; v < 4; v++) {
        uint32_t row[8];
        memcpy(row, d->grf[1 + v], sizeof row);
        CU_ASSERT_EQUAL(row[0], 0x1000u * order[v]);
        CU_ASSERT_EQUAL(row[7], 0x1000u * order[v] + 7);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 4);       /* inputs: consumed at dispatch */
    run(&r, 1000);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "gs.gen4.watchdog_drops"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 5);       /* and the GS entry */
    const struct primitive_packet *p[2];
    CU_ASSERT_EQUAL(sol_primitives(&r, p, 2), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "object staging follows seed 001's GS vertex ordering table", test_stage_objects },
    { "QUADLIST on real EUs: one GS thread per quad, output strips in order",
      test_quadlist_real_eus },
    { "QUADSTRIP with two GS threads: payload order (0,1,3,2), output in object order",
      test_quadstrip_two_threads },
    { "the Table 5-1 payload; a GS thread that never ends is dropped by the watchdog",
      test_payload_and_watchdog },
    { 0 }
};
TEST_SUITE(gs_gen4, cases);
