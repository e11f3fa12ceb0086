/* tests/units/test_clip_gen4.c - the Gen4 CLIP (units/clip/clip_gen4.h) driven
 * alone with the real urb_fence: CLIP_STATE and CLIP_VIEWPORT are written
 * into memory here as dwords with the seed's bit positions (seed 001
 * L9274-9910: DW0 Kernel Start Pointer 31:6, GRF Register Count 3:1; DW1
 * Single Program Flow 31; DW3 Dispatch GRF Start 3:0, Vertex URB Entry Read
 * Length 16:11; DW4 Maximum Number of Threads 29:25, Number of URB Entries
 * 17:11, Clipper Statistics Enable 10; DW5 API Mode 30, Viewport XY 28,
 * Viewport Z 27, Guardband 26, UserClipFlags MustClip 24, Bitmask 23:16, Clip
 * Mode 15:13; DW6 Clipper Viewport State Pointer; CLIP_VIEWPORT XMin, XMax,
 * YMin, YMax), and 3DSTATE_PIPELINED_POINTERS names them with CLIP Enable.
 * The fences are g965_tri's (CLIP region [40, 50)). Vertices are VS-region
 * entries whose headers (D4-D7 NDC x, y, z, RHW, seed 001 L1490-1601) the
 * test writes; a triangle goes down "sol". The thread dispatcher is a catcher
 * and the test plays the clip thread itself: its URB_WRITEs go to the URB's
 * eu[0] with FFID CLIP, as an EU's would. Expected outcodes, actions and the
 * payload come from the seed's pseudocode (L10101-10542) and Table 6-1
 * (L10839-11024), worked out by hand in each case. */
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/clip/clip.h"
#include "units/gs/gs.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/urb_fence/urb_fence.h"

#define CATCH_MAX 16
#define CATCH_BYTES 8192

struct catcher {
    struct port *in;
    uint32_t count;
    uint32_t kind[CATCH_MAX];
    _Alignas(16) uint8_t payload[CATCH_MAX][CATCH_BYTES];
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
        if (c->count < CATCH_MAX) {
            c->kind[c->count] = m->kind;
            memcpy(c->payload[c->count], m->payload, m->size < CATCH_BYTES ? m->size : CATCH_BYTES);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_clip_gen4_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* A feeder: what the test injects on its optional "in" goes out on "out". */
struct feeder {
    struct port *in, *out;
};

static const struct port_desc feeder_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "injected" },
    { .name = "out", .direction = PORT_OUT, .help = "forwarded" },
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
    while (port_can_send(f->out) && (m = port_pop(f->in)))
        port_try_send(f->out, m);
    return UNIT_IDLE;
}

static const struct unit_ops feeder_ops = {
    .kind = "test_clip_gen4_feeder",
    .state_size = sizeof(struct feeder),
    .ports = feeder_ports,
    .realize = feeder_realize,
    .tick = feeder_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *clip, *urb;
    struct catcher *sf, *td, *writeback, *vs;
};

static struct rig rig_new(const char *timeout)
{
    struct rig r = { 0 };
    /* no deadlock report: the test plays the clip thread between runs */
    r.sim = probe_sim(&(struct sim_options){ .watchdog_cycles = 0, .log_level = 1 });
    r.mem = probe_memory(r.sim);
    const char *over[] = { timeout, NULL };
    r.clip = probe_add(r.sim, &clip_ops, "clip", over);
    r.urb = probe_add(r.sim, &urb_fence_ops, "urb", NULL);
    struct unit *sf = probe_add(r.sim, &catcher_ops, "sf", NULL);
    struct unit *td = probe_add(r.sim, &catcher_ops, "td", NULL);
    struct unit *wb = probe_add(r.sim, &catcher_ops, "wb", NULL);
    struct unit *vs = probe_add(r.sim, &catcher_ops, "vs", NULL);
    probe_link(r.sim, r.clip, "sf", sf, "in", 1, 64, 4);
    probe_link(r.sim, r.clip, "td[0]", td, "in", 1, 16, 4);
    probe_link(r.sim, r.clip, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.clip, "urb_reply", 1, 16, 4);
    probe_link(r.sim, r.urb, "eot_clip", r.clip, "eot", 1, 16, 4);
    probe_link(r.sim, r.urb, "writeback[0]", wb, "in", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", vs, "in", 1, 16, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "clip.sol", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.sf = unit_state(sf);
    r.td = unit_state(td);
    r.writeback = unit_state(wb);
    r.vs = unit_state(vs);
    return r;
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

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#define CLIP_STATE_AT 0x1000u
#define CLIP_VIEWPORT_AT 0x1100u
#define KERNEL_AT 0x2000u

/* DW5 fields (seed 001 L9625-9760) */
#define DW5_VIEWPORT_XY (1u << 28)
#define DW5_VIEWPORT_Z (1u << 27)
#define DW5_GUARDBAND (1u << 26)
#define DW5_MODE(m) ((uint32_t)(m) << 13)

/* CLIP_STATE, CLIP_VIEWPORT (guardband +-2), the fences, the VS region's
 * three vertices (x, y given; z 0, RHW 1), and the pointers with CLIP on. */
static void program(struct rig *r, uint32_t dw5, const float xy[3][2], uint32_t rhw_bits)
{
    uint32_t cs[11] = { 0 };
    cs[0] = KERNEL_AT | 1u << 1;                    /* GRF Register Count 1 (2 blocks) */
    cs[1] = 1u << 31;                               /* Single Program Flow */
    cs[3] = 2u << 11 | 1u;                          /* read length 2, offset 0, GRF start 1 */
    cs[4] = 1u << 25 | 10u << 11 | 1u << 10;        /* 2 threads, 10 entries, statistics */
    cs[5] = dw5;
    cs[6] = CLIP_VIEWPORT_AT;
    CU_ASSERT_EQUAL(gpu_memory_write(r->mem, CLIP_STATE_AT, cs, sizeof cs, NULL), 0);
    uint32_t vp[4] = { f2u(-2.0f), f2u(2.0f), f2u(-2.0f), f2u(2.0f) };
    CU_ASSERT_EQUAL(gpu_memory_write(r->mem, CLIP_VIEWPORT_AT, vp, sizeof vp, NULL), 0);
    /* g965_tri's fences: VS [0, 32), GS [32, 40), CLIP [40, 50), SF [50, 82) */
    struct spec_URB_FENCE *f = state_packet(r, unit_port(r->urb, "state", 0), SPEC_ID_URB_FENCE,
                                            sizeof *f);
    f->VSUnitURBReallocationRequest = f->GSUnitURBReallocationRequest = true;
    f->CLIPUnitURBReallocationRequest = f->SFUnitURBReallocationRequest = true;
    f->VFEUnitURBReallocationRequest = f->CSUnitURBReallocationRequest = true;
    f->VSFence = 32, f->GSFence = 40, f->CLIPFence = 50, f->SFFence = 82, f->CSFence = 256;
    /* three VS entries (handles 0, 1, 2) as VF would hold them */
    struct port *client = unit_port(r->urb, "client", 1);
    struct msg *m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_CONFIGURE, q->client = URB_CLIENT_VS, q->count = 32, q->rows = 2;
    CU_ASSERT_TRUE(port_inject(client, m));
    m = msg_alloc(r->sim, MSG_URB, sizeof(struct urb_msg));
    q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_ALLOC, q->client = URB_CLIENT_VS, q->count = 3;
    CU_ASSERT_TRUE(port_inject(client, m));
    for (uint32_t v = 0; v < 3; v++) {
        uint32_t header[16] = { 0 };
        header[4] = f2u(xy[v][0]);
        header[5] = f2u(xy[v][1]);
        header[6] = f2u(0.0f);
        header[7] = rhw_bits;
        header[8] = 0x100u + v;     /* the next row: a marker the payload must carry */
        CU_ASSERT_EQUAL(urb_fence_backdoor_write(r->urb, v * 64u, header, sizeof header),
                        sizeof header);
    }
    struct spec_3DSTATE_PIPELINED_POINTERS *pp =
        state_packet(r, unit_port(r->clip, "sol", 0), SPEC_ID_3DSTATE_PIPELINED_POINTERS,
                     sizeof *pp);
    pp->ClipEnable = true;
    pp->PointerToCLIPState = CLIP_STATE_AT;
}

static void triangle(struct rig *r)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = PRIM_TRILIST;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = 3;
    p->owner_handle = URB_HANDLE_NONE;
    p->handles[0] = 0, p->handles[1] = 1, p->handles[2] = 2;
    CU_ASSERT_TRUE(port_inject(unit_port(r->clip, "sol", 0), m));
}

static const struct primitive_packet *prim_caught(const struct rig *r, uint32_t kind_index)
{
    uint32_t seen = 0;
    for (uint32_t i = 0; i < r->sf->count && i < CATCH_MAX; i++)
        if (r->sf->kind[i] == MSG_PRIMITIVE && seen++ == kind_index)
            return (const struct primitive_packet *)r->sf->payload[i];
    return NULL;
}

static uint32_t prims_caught(const struct rig *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->sf->count && i < CATCH_MAX; i++)
        n += r->sf->kind[i] == MSG_PRIMITIVE;
    return n;
}

/* A caught dispatch, copied to aligned storage (the catcher's bytes need not
 * be aligned for struct eu_dispatch). */
static const struct eu_dispatch *dispatch_caught(const struct rig *r, uint32_t i)
{
    static _Alignas(16) uint8_t copy[CATCH_BYTES];
    memcpy(copy, r->td->payload[i], CATCH_BYTES);
    return (const struct eu_dispatch *)(const void *)copy;
}

static const float INSIDE[3][2] = { { -0.5f, -0.5f }, { 0.5f, -0.5f }, { 0.0f, 0.5f } };

static void test_inside_accepted_without_thread(void)
{
    struct rig r = rig_new("thread_timeout=0");
    program(&r, DW5_VIEWPORT_XY | DW5_VIEWPORT_Z | DW5_GUARDBAND | DW5_MODE(0), INSIDE,
            f2u(1.0f));
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.trivially_accepted"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.threads_spawned"), 0);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL_FATAL(prims_caught(&r), 1);
    const struct primitive_packet *p = prim_caught(&r, 0);
    CU_ASSERT_EQUAL(p->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(p->handles[2], 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    /* the CLIP region configured from CLIP_STATE: 10 entries */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.configures"), 1);
    sim_destroy(r.sim);
}

static void test_outside_rejected(void)
{
    struct rig r = rig_new("thread_timeout=0");
    /* all three past the guardband's x max (2): TR_GB and TR_VPXY */
    const float out[3][2] = { { 2.5f, 0.0f }, { 3.0f, 0.5f }, { 2.5f, 1.0f } };
    program(&r, DW5_VIEWPORT_XY | DW5_GUARDBAND | DW5_MODE(0), out, f2u(1.0f));
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.trivially_rejected"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.discarded"), 1);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);
    CU_ASSERT_EQUAL(r.td->count, 0);
    /* the input's references dropped: the three VS entries are free again */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    sim_destroy(r.sim);
}

/* The crossing triangle: v1 past the guardband (x 3 > 2), the others inside:
 * neither TR nor TA: a thread. */
static const float CROSSING[3][2] = { { 0.0f, 0.0f }, { 3.0f, 0.0f }, { 0.0f, 0.5f } };

static uint32_t urb_desc(bool allocate, bool used, bool complete, uint32_t mlen, uint32_t rlen)
{
    /* urb_fence.h: opcode 3:0 = WRITE, allocate 13, used 14, complete 15 */
    return (uint32_t)allocate << 13 | (uint32_t)used << 14 | (uint32_t)complete << 15 |
           rlen << 16 | mlen << 20 | 6u << 24;
}

/* The thread's URB_WRITE of one vertex to `handle`: M0 = R0 with the handle
 * and M0.2 = PrimType << 2 | PrimStart << 1 | PrimEnd; M1 a header row. */
static void thread_write(struct rig *r, uint32_t group, uint32_t handle, uint32_t dw2,
                         bool allocate, bool eot, bool used)
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + 2 * 32));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p + 2 * 32);
    p->sfid = 6;
    p->mlen = 2;
    p->rlen = allocate ? 1 : 0;
    p->exec_size = 8;
    p->exec_mask = 0xff;
    p->flags = eot ? EU_SEND_EOT : 0;
    p->desc = urb_desc(allocate, used, true, 2, p->rlen);
    p->ffid = FFID_CLIP;
    p->ctx.valid = 1;
    p->ctx.gen = 4;
    p->ctx.group = group;
    uint32_t m0[8] = { handle, 0, dw2 };
    memcpy(p->regs[0], m0, sizeof m0);
    uint32_t m1[8] = { 0, 0, 0, 0, f2u(1.0f), f2u(0.0f), f2u(0.0f), f2u(1.0f) };
    memcpy(p->regs[1], m1, sizeof m1);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "eu", 0), m));
}

static void test_crossing_runs_a_clip_thread(void)
{
    struct rig r = rig_new("thread_timeout=0");
    program(&r, DW5_VIEWPORT_XY | DW5_VIEWPORT_Z | DW5_GUARDBAND | DW5_MODE(0), CROSSING,
            f2u(1.0f));
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.must_clip"), 1);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);       /* nothing leaves before the thread ends */
    const struct eu_dispatch *d = dispatch_caught(&r, 0);
    CU_ASSERT_EQUAL(d->ffid, FFID_CLIP);
    CU_ASSERT_EQUAL(d->kernel_offset, KERNEL_AT);
    /* R0 header + 3 vertices x 2 rows, the vertex data from GRF 1 */
    CU_ASSERT_EQUAL_FATAL(d->grf_count, 1 + 3 * 2);
    uint32_t r0[8];
    memcpy(r0, d->grf[0], sizeof r0);
    /* R0.0: URB Return Handle = the CLIP region's first entry (40) */
    CU_ASSERT_EQUAL(r0[0] & 0x1ffu, 40);
    /* R0.2: v1's VP.XMax (30) and GB.XMax (24) ORed; TRILIST (4) in 4:0 */
    CU_ASSERT_EQUAL(r0[2], (1u << 30) | (1u << 24) | 4u);
    for (uint32_t v = 0; v < 3; v++) {
        uint32_t row0[8], row1[8];
        memcpy(row0, d->grf[1 + 2 * v], sizeof row0);
        memcpy(row1, d->grf[2 + 2 * v], sizeof row1);
        CU_ASSERT_EQUAL(row0[4], f2u(CROSSING[v][0]));
        CU_ASSERT_EQUAL(row1[0], 0x100u + v);
    }
    /* pre-CTG CL_INVOCATION_COUNT: one per thread with Statistics Enable */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.cl_invocation_count"), 1);
    /* the thread: a POLYGON of three vertices, allocating as it goes */
    uint32_t group = d->ctx.group;
    thread_write(&r, group, 40, 14u << 2 | 2u, true, false, true);     /* POLYGON, start */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.writeback->count, 1);
    uint32_t h1;
    memcpy(&h1, ((const struct eu_writeback_msg *)r.writeback->payload[0])->regs[0], 4);
    CU_ASSERT_EQUAL(h1, 41);
    thread_write(&r, group, h1, 14u << 2, true, false, true);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.writeback->count, 2);
    uint32_t h2;
    memcpy(&h2, ((const struct eu_writeback_msg *)r.writeback->payload[1])->regs[0], 4);
    CU_ASSERT_EQUAL(h2, 42);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);
    thread_write(&r, group, h2, 14u << 2 | 1u, false, true, true);     /* end, EOT */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.threads_ended"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.outputs"), 3);
    CU_ASSERT_EQUAL_FATAL(prims_caught(&r), 1);
    const struct primitive_packet *p = prim_caught(&r, 0);
    CU_ASSERT_EQUAL(p->topology, PRIM_POLYGON);
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, 3);
    CU_ASSERT_EQUAL(p->handles[0], 40);
    CU_ASSERT_EQUAL(p->handles[1], 41);
    CU_ASSERT_EQUAL(p->handles[2], 42);
    CU_ASSERT_TRUE(p->flags & PRIM_CLIPPED);
    /* the input vertices were consumed: the VS entries are free; the outputs
     * are the primitive's (held) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    sim_destroy(r.sim);
}

/* Clip Mode on the crossing triangle (L10509-10542): ALL and
 * CLIP_NON_REJECTED spawn, REJECT_ALL discards, ACCEPT_ALL passes; on the
 * inside triangle ALL still spawns and CLIP_NON_REJECTED too (TA is not TR). */
static void test_clip_modes(void)
{
    static const struct { uint32_t mode; const float (*xy)[2]; uint32_t threads, out; } cases[] = {
        { 1, CROSSING, 1, 0 }, { 2, CROSSING, 1, 0 }, { 3, CROSSING, 0, 0 }, { 4, CROSSING, 0, 1 },
        { 1, INSIDE, 1, 0 }, { 2, INSIDE, 1, 0 }, { 3, INSIDE, 0, 0 }, { 4, INSIDE, 0, 1 },
    };
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rig r = rig_new("thread_timeout=0");
        program(&r, DW5_VIEWPORT_XY | DW5_GUARDBAND | DW5_MODE(cases[i].mode), cases[i].xy,
                f2u(1.0f));
        triangle(&r);
        sim_run(r.sim, 0);
        CU_ASSERT_EQUAL(r.td->count, cases[i].threads);
        CU_ASSERT_EQUAL(prims_caught(&r), cases[i].out);
        sim_destroy(r.sim);
    }
    /* a NaN RHW is BAD: NORMAL discards it, ALL hands it to a thread */
    uint32_t nan_bits = 0x7fc00000u;
    struct rig r = rig_new("thread_timeout=0");
    program(&r, DW5_VIEWPORT_XY | DW5_MODE(0), INSIDE, nan_bits);
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.bad_objects"), 1);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);
    CU_ASSERT_EQUAL(r.td->count, 0);
    sim_destroy(r.sim);
    /* a negative RHW (965G, pre-DevBW-E0) sets every VP and GB outcode:
     * the inside triangle is then trivially rejected */
    r = rig_new("thread_timeout=0");
    program(&r, DW5_VIEWPORT_XY | DW5_GUARDBAND | DW5_MODE(0), INSIDE, f2u(-1.0f));
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.trivially_rejected"), 1);
    sim_destroy(r.sim);
}

static void test_clip_thread_watchdog(void)
{
    struct rig r = rig_new("thread_timeout=100");
    program(&r, DW5_VIEWPORT_XY | DW5_GUARDBAND | DW5_MODE(0), CROSSING, f2u(1.0f));
    triangle(&r);
    /* the thread never writes: the watchdog gives its object up */
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(r.td->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.watchdog_drops"), 1);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);
    /* the thread's entry is freed; a late output and end are counted */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3 + 1);
    const struct eu_dispatch *d = dispatch_caught(&r, 0);
    thread_write(&r, d->ctx.group, 40, 14u << 2 | 3u, false, true, true);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.late_notices"), 2);
    CU_ASSERT_EQUAL(prims_caught(&r), 0);
    /* the watchdog had freed the thread's entry: the late output's is no
     * live entry any more (counted by the URB) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 1);
    sim_destroy(r.sim);
}

static void test_clip_state_outside_memory(void)
{
    struct rig r = rig_new("thread_timeout=0");
    program(&r, DW5_VIEWPORT_XY | DW5_MODE(3), CROSSING, f2u(1.0f));
    /* a General State Base past the memory's limit, then the pointers again:
     * CLIP_STATE cannot be read (counted), CLIP passes objects on */
    struct spec_STATE_BASE_ADDRESS *sba =
        state_packet(&r, unit_port(r.clip, "sol", 0), SPEC_ID_STATE_BASE_ADDRESS, sizeof *sba);
    sba->GeneralStateBaseAddressModifyEnable = true;
    sba->GeneralStateBaseAddress = 1ull << 62;
    struct spec_3DSTATE_PIPELINED_POINTERS *pp =
        state_packet(&r, unit_port(r.clip, "sol", 0), SPEC_ID_3DSTATE_PIPELINED_POINTERS,
                     sizeof *pp);
    pp->ClipEnable = true;
    pp->PointerToCLIPState = CLIP_STATE_AT;
    triangle(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "clip.gen4.state_faults"), 1);
    CU_ASSERT_EQUAL(prims_caught(&r), 1);
    sim_destroy(r.sim);
}

/* GS_STATE (seed 001 L6534-7159) through the pointers: read when GS Enable
 * is set (counted); an enabled Gen4 GS passes objects on unshaded and counts
 * them (gs_gen4.h); a GS_STATE outside memory is counted and the GS taken as
 * disabled. */
static void test_gs_state(void)
{
    struct sim *sim = probe_sim(NULL);
    struct gpu_memory *mem = probe_memory(sim);
    struct unit *gs = probe_add(sim, &gs_ops, "gs", NULL);
    struct unit *sol = probe_add(sim, &catcher_ops, "sol", NULL);
    struct unit *relay = probe_add(sim, &feeder_ops, "ds", NULL);
    probe_link(sim, relay, "out", gs, "ds", 1, 64, 4);
    probe_link(sim, gs, "sol", sol, "in", 1, 64, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(sim, "ds.in", PORT_IN, &err));
    int realized = sim_realize(sim, &err);
    if (realized)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(realized, 0);
    uint32_t gs_state[7] = { 0x3000, 0, 0, 1u << 11 | 1u, 10u << 11, 0, 1u << 30 };
    CU_ASSERT_EQUAL(gpu_memory_write(mem, 0x1200, gs_state, sizeof gs_state, NULL), 0);
    struct rig r = { .sim = sim };
    struct port *in = unit_port(relay, "in", 0);
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            struct spec_STATE_BASE_ADDRESS *sba =
                state_packet(&r, in, SPEC_ID_STATE_BASE_ADDRESS, sizeof *sba);
            sba->GeneralStateBaseAddressModifyEnable = true;
            sba->GeneralStateBaseAddress = 1ull << 62;
        }
        struct spec_3DSTATE_PIPELINED_POINTERS *pp =
            state_packet(&r, in, SPEC_ID_3DSTATE_PIPELINED_POINTERS, sizeof *pp);
        pp->GSEnable = true;
        pp->PointerToGSState = 0x1200;
        struct msg *m = msg_alloc(sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
        struct primitive_packet *p = (struct primitive_packet *)m->payload;
        memset(p, 0, sizeof *p);
        p->topology = PRIM_QUADLIST;
        p->vertex_count = 4;
        p->owner_handle = URB_HANDLE_NONE;
        CU_ASSERT_TRUE(port_inject(in, m));
        sim_run(sim, 0);
    }
    CU_ASSERT_EQUAL(probe_stat(sim, "gs.gen4.state_reads"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "gs.gen4.objects_unrun"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gs.gen4.state_faults"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gs.passed_through"), 1);
    const struct catcher *c = unit_state(sol);
    uint32_t prims = 0;
    for (uint32_t i = 0; i < c->count && i < CATCH_MAX; i++)
        prims += c->kind[i] == MSG_PRIMITIVE;
    CU_ASSERT_EQUAL(prims, 2);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "a triangle inside the viewport is trivially accepted: no thread", test_inside_accepted_without_thread },
    { "a triangle past the guardband is trivially rejected and its vertices freed", test_outside_rejected },
    { "a triangle crossing the guardband runs a CLIP thread with Table 6-1's payload; its "
      "output VUEs reach SF as one primitive", test_crossing_runs_a_clip_thread },
    { "Clip Modes ALL, CLIP_NON_REJECTED, REJECT_ALL, ACCEPT_ALL; BAD and negative RHW", test_clip_modes },
    { "a CLIP thread that never ends is dropped by the watchdog, late notices counted", test_clip_thread_watchdog },
    { "a CLIP_STATE pointer outside memory is counted and CLIP passes objects on", test_clip_state_outside_memory },
    { "GS_STATE read through the pointers; an enabled Gen4 GS passes objects on, counted; a "
      "GS_STATE outside memory counted", test_gs_state },
    { 0 }
};
TEST_SUITE(clip_gen4, cases);
