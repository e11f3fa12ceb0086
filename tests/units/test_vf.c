/* tests/units/test_vf.c - the VF unit driven alone: Gen9 state packets and
 * 3DPRIMITIVE injected on "cs" (packed with the generated packers, unpacked
 * into their superset as the CS sends them), the real URB unit on "urb", a
 * stub answering "l3" line requests after a delay, and a catcher on "vs".
 * Vertex data is put in memory here; the expected VUE contents, index triples
 * and counts are worked out here from that data and the seed's rules (each
 * test says which), never taken from the unit's output. A vertex is
 * recognised by its VUE: element 0 holds (100 + i, 2 x i, ...) for buffer
 * structure i. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/format.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/urb/urb.h"
#include "units/vf/vf.h"
#include "units/vf/vf_fetch.h"

#define VB0 0x10000u            /* vertex buffer 0: float4 per vertex (pitch 16) */
#define VB1 0x20000u            /* vertex buffer 1: instance data */
#define IB 0x30000u
#define MAX_CAUGHT 512

/* ---- the catcher on "vs" ------------------------------------------------------------ */

struct caught {
    uint32_t kind;
    uint32_t id;                        /* MSG_STATE: the spec id */
    struct primitive_packet prim;       /* MSG_PRIMITIVE */
    struct cs_mmio mmio;                /* MSG_MMIO */
    struct pipeline_registers regs;     /* CS_MMIO_SYNC */
};

struct catcher {
    struct port *in, *urb;
    bool dereference;                   /* a consumer: drops each primitive's references */
    uint32_t count;
    struct caught items[MAX_CAUGHT];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "what the VF sends" },
    { .name = "urb", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "dereferences" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    c->urb = unit_port(u, "urb", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_peek(c->in))) {
        bool prim = m->kind == MSG_PRIMITIVE;
        if (prim && c->dereference && !port_can_send(c->urb))
            return UNIT_IDLE;
        port_pop(c->in);
        if (c->count < MAX_CAUGHT) {
            struct caught *k = &c->items[c->count];
            memset(k, 0, sizeof *k);
            k->kind = m->kind;
            if (m->kind == MSG_STATE)
                k->id = ((const struct cs_state_packet *)m->payload)->id;
            if (prim)
                memcpy(&k->prim, m->payload, sizeof k->prim);
            if (m->kind == MSG_MMIO) {
                memcpy(&k->mmio, m->payload, sizeof k->mmio);
                if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers))
                    memcpy(&k->regs, ((const struct cs_mmio *)m->payload)->data, sizeof k->regs);
            }
        }
        c->count++;
        if (prim && c->dereference) {
            const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
            struct msg *d = msg_alloc(unit_sim(u), MSG_URB, sizeof(struct urb_msg));
            struct urb_msg *q = (struct urb_msg *)d->payload;
            memset(q, 0, sizeof *q);
            q->op = URB_OP_DEREFERENCE;
            q->client = URB_CLIENT_VS;
            q->count = p->vertex_count;
            memcpy(q->handles, p->handles, p->vertex_count * sizeof p->handles[0]);
            port_try_send(c->urb, d);
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_vf_catcher", .state_size = sizeof(struct catcher), .ports = catcher_ports,
    .realize = catcher_realize, .tick = catcher_tick,
};

/* ---- an L3 stub: answers each line `delay` cycles later ---------------------------- */

#define STUB_MAX 4096

struct l3_stub {
    uint32_t delay;
    struct port *in, *out;
    struct msg *held[STUB_MAX];
    uint64_t ready[STUB_MAX];
    uint32_t head, count;
    uint64_t requests;
    uint64_t addresses[STUB_MAX];
};

static const struct port_desc stub_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "line requests" },
    { .name = "out", .direction = PORT_OUT, .help = "replies" },
    PORT_END
};

static int stub_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct l3_stub *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity stub_tick(struct unit *u)
{
    struct l3_stub *s = unit_state(u);
    struct msg *m;
    while (s->count < STUB_MAX && (m = port_pop(s->in))) {
        uint32_t i = (s->head + s->count++) % STUB_MAX;
        if (s->requests < STUB_MAX)
            s->addresses[s->requests] = ((const struct memreq *)m->payload)->address;
        s->requests++;
        memreq_make_reply(m, 1);
        s->held[i] = m;
        s->ready[i] = unit_cycle(u) + s->delay;
    }
    while (s->count && s->ready[s->head] <= unit_cycle(u) && port_can_send(s->out)) {
        port_try_send(s->out, s->held[s->head]);
        s->head = (s->head + 1) % STUB_MAX;
        s->count--;
    }
    if (s->count && s->ready[s->head] > unit_cycle(u))
        unit_wake_at(u, s->ready[s->head]);
    return UNIT_IDLE;
}

static void stub_destroy(struct unit *u)
{
    struct l3_stub *s = unit_state(u);
    for (; s->count; s->count--, s->head = (s->head + 1) % STUB_MAX)
        msg_free(unit_sim(u), s->held[s->head]);
}

static const struct unit_ops stub_ops = {
    .kind = "test_vf_l3_stub", .state_size = sizeof(struct l3_stub), .ports = stub_ports,
    .realize = stub_realize, .tick = stub_tick, .destroy = stub_destroy,
};

/* ---- a feeder on "cs": sends what the test queued, in order ------------------------ */

#define FEED_MAX 256

struct feeder {
    struct port *out;
    struct msg *queue[FEED_MAX];
    uint32_t count, next;
};

static const struct port_desc feeder_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "to the VF's cs" }, PORT_END
};

static int feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    ((struct feeder *)unit_state(u))->out = unit_port(u, "out", 0);
    return 0;
}

static void feeder_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity feeder_tick(struct unit *u)
{
    struct feeder *f = unit_state(u);
    while (f->next < f->count && port_can_send(f->out))
        port_try_send(f->out, f->queue[f->next++]);
    return UNIT_IDLE;       /* woken when the channel frees up */
}

static void feeder_destroy(struct unit *u)
{
    struct feeder *f = unit_state(u);
    while (f->next < f->count)
        msg_free(unit_sim(u), f->queue[f->next++]);
}

static const struct unit_ops feeder_ops = {
    .kind = "test_vf_feeder", .state_size = sizeof(struct feeder), .ports = feeder_ports,
    .realize = feeder_realize, .reset = feeder_reset, .tick = feeder_tick,
    .destroy = feeder_destroy,
};

/* ---- the rig ------------------------------------------------------------------------ */

struct rig_options {
    const char *const *vf_over;
    uint32_t l3_delay;              /* 0: no L3 linked */
    bool consumer;                  /* the catcher dereferences what it gets */
    uint32_t vs_capacity;           /* the vf -> catcher link; 0: 64 */
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *vf, *urb, *catcher_unit, *l3_unit;
    struct catcher *caught;
    struct feeder *feed;
    struct l3_stub *l3;
};

static struct rig rig_new(const struct rig_options *o)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.vf = probe_add(r.sim, &vf_ops, "vf", o->vf_over);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.catcher_unit = probe_add(r.sim, &catcher_ops, "catcher", NULL);
    struct unit *feeder = probe_add(r.sim, &feeder_ops, "feeder", NULL);
    probe_link(r.sim, feeder, "out", r.vf, "cs", 1, 4, 1);
    r.feed = unit_state(feeder);
    uint32_t cap = o->vs_capacity ? o->vs_capacity : 64;
    probe_link(r.sim, r.vf, "vs", r.catcher_unit, "in", 1, cap, cap < 4 ? cap : 4);
    probe_link(r.sim, r.vf, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.vf, "urb_reply", 1, 16, 4);
    if (o->consumer)
        probe_link(r.sim, r.catcher_unit, "urb", r.urb, "client[1]", 1, 256, 16);
    if (o->l3_delay) {
        r.l3_unit = probe_add(r.sim, &stub_ops, "l3", NULL);
        ((struct l3_stub *)unit_state(r.l3_unit))->delay = o->l3_delay;
        probe_link(r.sim, r.vf, "l3", r.l3_unit, "in", 1, 16, 4);
        probe_link(r.sim, r.l3_unit, "out", r.vf, "l3_reply", 1, 16, 4);
        r.l3 = unit_state(r.l3_unit);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    int realized = sim_realize(r.sim, &err);
    if (realized)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(realized, 0);
    r.caught = unit_state(r.catcher_unit);
    r.caught->dereference = o->consumer;
    return r;
}

static double stat(const struct rig *r, const char *path)
{
    return probe_stat(r->sim, path);
}

/* A command of generation gen as the CS sends it (units/common/state_packet.h). */
static struct msg *state_msg_gen(struct sim *sim, uint32_t gen, const char *name, const uint32_t *dw,
                                 uint32_t n)
{
    const struct spec_element *e = spec_find_element((int)gen, SPEC_COMMAND, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    uint32_t off = (uint32_t)cs_state_common_offset(n);
    struct msg *m = msg_alloc(sim, MSG_STATE, off + (uint32_t)e->common_size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    memset(p, 0, off + e->common_size);
    p->id = e->id;
    p->gen = gen;
    p->dword_count = n;
    p->common_offset = off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy(p->dwords, dw, n * 4);
    e->unpack_common(dw, (uint8_t *)p + off);
    return m;
}

static struct msg *state_msg(struct sim *sim, const char *name, const uint32_t *dw, uint32_t n)
{
    return state_msg_gen(sim, 9, name, dw, n);
}

static void to_vf(struct rig *r, struct msg *m)
{
    CU_ASSERT_FATAL(r->feed->count < FEED_MAX);
    r->feed->queue[r->feed->count++] = m;
}

static void send_state(struct rig *r, const char *name, const uint32_t *dw, uint32_t n)
{
    to_vf(r, state_msg(r->sim, name, dw, n));
}

/* 3DSTATE_URB_VS to the URB (its own state port) and to the VF. */
static void urb_vs(struct rig *r, uint32_t entries, uint32_t size_64b_minus_1)
{
    uint32_t dw[2];
    struct GEN9_3DSTATE_URB_VS v = { GEN9_3DSTATE_URB_VS_header, .VSURBStartingAddress = 4,
                                     .VSURBEntryAllocationSize = size_64b_minus_1,
                                     .VSNumberOfURBEntries = entries };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_URB_VS_pack(dw, &v), 0);
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), state_msg(r->sim, "3DSTATE_URB_VS", dw, 2)));
    send_state(r, "3DSTATE_URB_VS", dw, 2);
}

struct vb { uint32_t index, address, pitch, size; };

static void vertex_buffers(struct rig *r, const struct vb *b, uint32_t n)
{
    uint32_t dw[1 + 4 * 8] = { 0 };
    struct GEN9_3DSTATE_VERTEX_BUFFERS h = { GEN9_3DSTATE_VERTEX_BUFFERS_header };
    h.DWordLength = 4 * n - 1;
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VERTEX_BUFFERS_pack(dw, &h), 0);
    for (uint32_t i = 0; i < n; i++) {
        struct GEN9_VERTEX_BUFFER_STATE v = { .VertexBufferIndex = b[i].index,
                                              .AddressModifyEnable = true,
                                              .BufferStartingAddress = b[i].address,
                                              .BufferPitch = b[i].pitch, .BufferSize = b[i].size };
        CU_ASSERT_EQUAL(GEN9_VERTEX_BUFFER_STATE_pack(dw + 1 + 4 * i, &v), 0);
    }
    send_state(r, "3DSTATE_VERTEX_BUFFERS", dw, 1 + 4 * n);
}

struct ve { uint32_t buffer, format, offset, c[4]; };

static void vertex_elements(struct rig *r, const struct ve *e, uint32_t n)
{
    uint32_t dw[1 + 2 * 8] = { 0 };
    struct GEN9_3DSTATE_VERTEX_ELEMENTS h = { GEN9_3DSTATE_VERTEX_ELEMENTS_header };
    h.DWordLength = 2 * n - 1;
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VERTEX_ELEMENTS_pack(dw, &h), 0);
    for (uint32_t i = 0; i < n; i++) {
        struct GEN9_VERTEX_ELEMENT_STATE v = {
            .VertexBufferIndex = e[i].buffer, .Valid = true, .SourceElementFormat = e[i].format,
            .SourceElementOffset = e[i].offset, .Component0Control = e[i].c[0],
            .Component1Control = e[i].c[1], .Component2Control = e[i].c[2],
            .Component3Control = e[i].c[3] };
        CU_ASSERT_EQUAL(GEN9_VERTEX_ELEMENT_STATE_pack(dw + 1 + 2 * i, &v), 0);
    }
    send_state(r, "3DSTATE_VERTEX_ELEMENTS", dw, 1 + 2 * n);
}

static void topology(struct rig *r, uint32_t t)
{
    uint32_t dw[2];
    struct GEN9_3DSTATE_VF_TOPOLOGY v = { GEN9_3DSTATE_VF_TOPOLOGY_header, .PrimitiveTopologyType = t };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VF_TOPOLOGY_pack(dw, &v), 0);
    send_state(r, "3DSTATE_VF_TOPOLOGY", dw, 2);
}

static void statistics(struct rig *r, bool on)
{
    uint32_t dw[1];
    struct GEN9_3DSTATE_VF_STATISTICS v = { GEN9_3DSTATE_VF_STATISTICS_header, .StatisticsEnable = on };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VF_STATISTICS_pack(dw, &v), 0);
    send_state(r, "3DSTATE_VF_STATISTICS", dw, 1);
}

static void vf_cut(struct rig *r, bool indexed, uint32_t cut)
{
    uint32_t dw[2];
    struct GEN9_3DSTATE_VF v = { GEN9_3DSTATE_VF_header, .IndexedDrawCutIndexEnable = indexed,
                                 .CutIndex = cut };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VF_pack(dw, &v), 0);
    send_state(r, "3DSTATE_VF", dw, 2);
}

static void vs_state(struct rig *r, bool cache_disable)
{
    uint32_t dw[GEN9_3DSTATE_VS_length];
    struct GEN9_3DSTATE_VS v = { GEN9_3DSTATE_VS_header, .Enable = true,
                                 .VertexCacheDisable = cache_disable };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VS_pack(dw, &v), 0);
    send_state(r, "3DSTATE_VS", dw, GEN9_3DSTATE_VS_length);
}

static void index_buffer(struct rig *r, uint32_t format, uint32_t size)
{
    uint32_t dw[GEN9_3DSTATE_INDEX_BUFFER_length];
    struct GEN9_3DSTATE_INDEX_BUFFER v = { GEN9_3DSTATE_INDEX_BUFFER_header, .IndexFormat = format,
                                           .BufferStartingAddress = IB, .BufferSize = size };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_INDEX_BUFFER_pack(dw, &v), 0);
    send_state(r, "3DSTATE_INDEX_BUFFER", dw, GEN9_3DSTATE_INDEX_BUFFER_length);
}

static void instancing(struct rig *r, uint32_t element, uint32_t rate)
{
    uint32_t dw[3];
    struct GEN9_3DSTATE_VF_INSTANCING v = { GEN9_3DSTATE_VF_INSTANCING_header,
                                            .VertexElementIndex = element, .InstancingEnable = true,
                                            .InstanceDataStepRate = rate };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VF_INSTANCING_pack(dw, &v), 0);
    send_state(r, "3DSTATE_VF_INSTANCING", dw, 3);
}

struct draw { uint32_t count, start, instances, start_instance; int32_t base; bool random, indirect; };

static void draw(struct rig *r, const struct draw *d)
{
    uint32_t dw[GEN9_3DPRIMITIVE_length];
    struct GEN9_3DPRIMITIVE v = { GEN9_3DPRIMITIVE_header, .VertexCountPerInstance = d->count,
                                  .StartVertexLocation = d->start, .InstanceCount = d->instances,
                                  .StartInstanceLocation = d->start_instance,
                                  .BaseVertexLocation = d->base, .VertexAccessType = d->random,
                                  .IndirectParameterEnable = d->indirect };
    CU_ASSERT_EQUAL(GEN9_3DPRIMITIVE_pack(dw, &v), 0);
    send_state(r, "3DPRIMITIVE", dw, GEN9_3DPRIMITIVE_length);
}

static void mmio(struct rig *r, uint32_t op, uint32_t offset, uint32_t value)
{
    uint32_t extra = op == CS_MMIO_SYNC ? (uint32_t)sizeof(struct pipeline_registers) : 0;
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, (uint32_t)sizeof(struct cs_mmio) + extra);
    memset(m->payload, 0, sizeof(struct cs_mmio) + extra);
    struct cs_mmio *q = (struct cs_mmio *)m->payload;
    q->op = op;
    q->offset = offset;
    q->value = value;
    to_vf(r, m);
}

/* Buffer structure i of VB0: float4 (100 + i, 2i, -i, 1). */
static void fill_vb0(struct rig *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        float v[4] = { 100.0f + (float)i, 2.0f * (float)i, -(float)i, 1.0f };
        gpu_memory_write(r->mem, VB0 + 16 * i, v, 16, NULL);
    }
}

#define SRC VFCOMP_STORE_SRC
static const struct ve position = { 0, SURFACE_FORMAT_R32G32B32A32_FLOAT, 0, { SRC, SRC, SRC, SRC } };

/* The common set-up: URB, VS, one float4 element from VB0 of n structures. */
static void basic_state(struct rig *r, uint32_t entries, uint32_t structures, uint32_t topo)
{
    urb_vs(r, entries, 1);          /* 128-byte entries: 8 elements */
    vs_state(r, false);
    statistics(r, true);
    fill_vb0(r, structures);
    vertex_buffers(r, &(struct vb){ 0, VB0, 16, 16 * structures }, 1);
    vertex_elements(r, &position, 1);
    topology(r, topo);
}

static uint32_t vue_dword(const struct rig *r, uint32_t handle, uint32_t dword)
{
    uint32_t v = 0;
    CU_ASSERT_EQUAL(urb_backdoor_read(r->urb, urb_handle_offset(handle) + 4 * dword, &v, 4), 4);
    return v;
}

static float vue_float(const struct rig *r, uint32_t handle, uint32_t dword)
{
    uint32_t u = vue_dword(r, handle, dword);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The buffer structure a vertex came from, read back from its VUE (x = 100 + i). */
static int vertex_of(const struct rig *r, uint32_t handle)
{
    return (int)lroundf(vue_float(r, handle, 0) - 100.0f);
}

/* The primitives caught, in order. */
static uint32_t primitives(const struct rig *r, const struct primitive_packet **out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->caught->count && i < MAX_CAUGHT; i++)
        if (r->caught->items[i].kind == MSG_PRIMITIVE && n < max)
            out[n++] = &r->caught->items[i].prim;
    return n;
}

static void check_vertices(const struct rig *r, const struct primitive_packet *p, const int *expect,
                           uint32_t n)
{
    CU_ASSERT_EQUAL_FATAL(p->vertex_count, n);
    for (uint32_t i = 0; i < n; i++) {
        int got = vertex_of(r, p->handles[i]);
        if (got != expect[i])
            fprintf(stderr, "vertex %u: structure %d, expected %d\n", i, got, expect[i]);
        CU_ASSERT_EQUAL(got, expect[i]);
    }
}

static void run(struct rig *r)
{
    CU_ASSERT_EQUAL(sim_run(r->sim, 0), SIM_STOP_QUIESCENT);
}

/* ---- tests ---------------------------------------------------------------------------- */

/* A strip of 5 vertices makes 3 triangles (v0 v1 v2) (v1 v2 v3) (v2 v3 v4)
 * (003 L11559-11654; SF's TriangleStripDecomposition L14632-14650); its VUEs hold
 * the float4s put in memory; IA_VERTICES_COUNT 5 and IA_PRIMITIVES_COUNT 3
 * (003 L12185-12200) reach the sync. */
static void test_strip(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 5 });
    basic_state(&r, 64, 5, PRIM_TRISTRIP);
    draw(&r, &(struct draw){ .count = 5, .instances = 1 });
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r);
    const struct primitive_packet *p[8];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 8), 3);
    for (int t = 0; t < 3; t++) {
        check_vertices(&r, p[t], (int[]){ t, t + 1, t + 2 }, 3);
        CU_ASSERT_EQUAL(p[t]->topology, PRIM_TRISTRIP);
        CU_ASSERT_EQUAL(p[t]->primitive_id, (uint32_t)t);
        CU_ASSERT_EQUAL(p[t]->owner_handle, URB_HANDLE_NONE);
    }
    /* each vertex is new in the first primitive that carries it */
    CU_ASSERT_EQUAL(p[0]->new_vertices, 0x7);
    CU_ASSERT_EQUAL(p[1]->new_vertices, 0x4);
    CU_ASSERT_EQUAL(p[2]->new_vertices, 0x4);
    CU_ASSERT_EQUAL(p[0]->flags & (PRIM_START | PRIM_END), PRIM_START);
    CU_ASSERT_EQUAL(p[1]->flags & (PRIM_START | PRIM_END), 0);
    CU_ASSERT_EQUAL(p[2]->flags & (PRIM_START | PRIM_END), PRIM_END);
    /* the odd triangle is the inverted one (SF's invertOrientation, 003
     * L14631-14651): it carries the strip's parity (primitive.h) */
    CU_ASSERT_EQUAL(p[0]->flags & PRIM_STRIP_ODD, 0);
    CU_ASSERT_EQUAL(p[1]->flags & PRIM_STRIP_ODD, PRIM_STRIP_ODD);
    CU_ASSERT_EQUAL(p[2]->flags & PRIM_STRIP_ODD, 0);
    /* the whole VUE of structure 3: (103, 6, -3, 1) */
    uint32_t h = p[1]->handles[2];
    CU_ASSERT_EQUAL(vue_float(&r, h, 0), 103.0f);
    CU_ASSERT_EQUAL(vue_float(&r, h, 1), 6.0f);
    CU_ASSERT_EQUAL(vue_float(&r, h, 2), -3.0f);
    CU_ASSERT_EQUAL(vue_float(&r, h, 3), 1.0f);
    /* state went on before the primitives, the 3DPRIMITIVE after them, then the sync */
    const struct catcher *c = r.caught;
    CU_ASSERT_EQUAL(c->items[0].kind, MSG_STATE);
    CU_ASSERT_EQUAL(c->items[0].id, SPEC_ID_3DSTATE_URB_VS);
    uint32_t n = c->count;
    CU_ASSERT_EQUAL_FATAL(n >= 2, true);
    CU_ASSERT_EQUAL(c->items[n - 2].kind, MSG_STATE);
    CU_ASSERT_EQUAL(c->items[n - 2].id, SPEC_ID_3DPRIMITIVE);
    CU_ASSERT_EQUAL(c->items[n - 1].kind, MSG_MMIO);
    CU_ASSERT_EQUAL(c->items[n - 1].mmio.op, CS_MMIO_SYNC);
    CU_ASSERT_EQUAL(c->items[n - 1].regs.value[PIPE_REG_IA_VERTICES], 5);
    CU_ASSERT_EQUAL(c->items[n - 1].regs.value[PIPE_REG_IA_PRIMITIVES], 3);
    CU_ASSERT_TRUE(c->items[n - 1].regs.written & (1ull << PIPE_REG_IA_VERTICES));
    for (uint32_t i = 0; i < n; i++)   /* the vertex inputs end at VF */
        CU_ASSERT_NOT_EQUAL(c->items[i].kind == MSG_STATE ? c->items[i].id : 0,
                            SPEC_ID_3DSTATE_VERTEX_ELEMENTS);
    /* URB: 5 entries, one reference per vertex per primitive (9), the VF's own
     * 5 dropped; each vertex of 5 x 16 B of VB0 in its own line: 2 lines */
    CU_ASSERT_EQUAL(stat(&r, "urb.allocations"), 5);
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 9);
    CU_ASSERT_EQUAL(stat(&r, "urb.dereferences"), 5);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.vertices.fetched"), 5);
    CU_ASSERT_EQUAL(stat(&r, "vf.primitives"), 3);
    CU_ASSERT_EQUAL(stat(&r, "vf.lines"), 5);   /* one line per vertex (16 B each) */
    CU_ASSERT_EQUAL(r.l3->requests, 5);
    CU_ASSERT_EQUAL(r.l3->addresses[4], VB0 + 64);
    sim_destroy(r.sim);
}

/* Conversion into the VUE (003 L12047-12179): element 1 R8G8B8A8_UNORM (b / 255)
 * with component 3 STORE_1_FP, element 2 R16G16_SSCALED then STORE_0 and
 * STORE_1_INT; element k at dwords 4k..4k+3 (004 L6431). */
static void test_conversion_and_layout(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 0 });
    urb_vs(&r, 64, 1);
    vs_state(&r, false);
    fill_vb0(&r, 2);
    const uint8_t colour[2][4] = { { 0, 51, 255, 7 }, { 128, 1, 2, 3 } };
    const int16_t shorts[2][2] = { { -3, 300 }, { 32767, -32768 } };
    for (int i = 0; i < 2; i++) {
        gpu_memory_write(r.mem, VB1 + 8 * i, colour[i], 4, NULL);
        gpu_memory_write(r.mem, VB1 + 8 * i + 4, shorts[i], 4, NULL);
    }
    vertex_buffers(&r, (struct vb[]){ { 0, VB0, 16, 32 }, { 1, VB1, 8, 16 } }, 2);
    vertex_elements(&r, (struct ve[]){
        position,
        { 1, SURFACE_FORMAT_R8G8B8A8_UNORM, 0, { SRC, SRC, SRC, VFCOMP_STORE_1_FP } },
        { 1, SURFACE_FORMAT_R16G16_SSCALED, 4, { SRC, SRC, VFCOMP_STORE_0, VFCOMP_STORE_1_INT } },
    }, 3);
    topology(&r, PRIM_LINELIST);
    draw(&r, &(struct draw){ .count = 2, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[2];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 2), 1);
    check_vertices(&r, p[0], (int[]){ 0, 1 }, 2);
    for (int i = 0; i < 2; i++) {
        uint32_t h = p[0]->handles[i];
        for (int c = 0; c < 3; c++)
            CU_ASSERT_DOUBLE_EQUAL(vue_float(&r, h, 4 + c), colour[i][c] / 255.0, 1e-6);
        CU_ASSERT_EQUAL(vue_float(&r, h, 7), 1.0f);
        CU_ASSERT_EQUAL(vue_float(&r, h, 8), (float)shorts[i][0]);
        CU_ASSERT_EQUAL(vue_float(&r, h, 9), (float)shorts[i][1]);
        CU_ASSERT_EQUAL(vue_dword(&r, h, 10), 0);
        CU_ASSERT_EQUAL(vue_dword(&r, h, 11), 1);
    }
    sim_destroy(r.sim);
}

/* An indexed TRILIST with repeated indices: the cache (003 L11986) fetches each
 * VertexIndex once and sends the same handle again; with the VS's Vertex Cache
 * Disable every index is fetched. Indices (WORD) 0 1 2, 2 1 3, 0 2 3, base
 * vertex 1: structures 1 2 3, 3 2 4, 1 3 4. */
/* Gen4's 3DSTATE_INDEX_BUFFER (below) instead of Gen9's when gen4: its
 * inclusive Buffer Ending Address IB + gen4_end, or 0 (no check) when
 * gen4_end is 0. */
static void indexed_draw(bool cache_disable, bool gen4, uint32_t gen4_end, struct rig *out)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 3 });
    basic_state(&r, 64, 5, PRIM_TRILIST);
    vs_state(&r, cache_disable);
    const uint16_t idx[9] = { 0, 1, 2, 2, 1, 3, 0, 2, 3 };
    gpu_memory_write(r.mem, IB, idx, sizeof idx, NULL);
    if (gen4) {
        uint32_t dw[GEN4_3DSTATE_INDEX_BUFFER_length];
        struct GEN4_3DSTATE_INDEX_BUFFER v = { GEN4_3DSTATE_INDEX_BUFFER_header,
                                               .IndexFormat = VF_INDEX_WORD,
                                               .BufferStartingAddress = IB,
                                               .BufferEndingAddress = gen4_end ? IB + gen4_end : 0 };
        CU_ASSERT_EQUAL(GEN4_3DSTATE_INDEX_BUFFER_pack(dw, &v), 0);
        to_vf(&r, state_msg_gen(r.sim, 4, "3DSTATE_INDEX_BUFFER", dw,
                                GEN4_3DSTATE_INDEX_BUFFER_length));
    } else {
        index_buffer(&r, VF_INDEX_WORD, sizeof idx);
    }
    draw(&r, &(struct draw){ .count = 9, .instances = 1, .random = true, .base = 1 });
    run(&r);
    *out = r;
}

static void indexed(bool cache_disable, struct rig *out)
{
    struct rig r;
    indexed_draw(cache_disable, false, 0, &r);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
    check_vertices(&r, p[0], (int[]){ 1, 2, 3 }, 3);
    check_vertices(&r, p[1], (int[]){ 3, 2, 4 }, 3);
    check_vertices(&r, p[2], (int[]){ 1, 3, 4 }, 3);
    *out = r;
}

static void test_vertex_cache(void)
{
    struct rig r;
    indexed(false, &r);
    const struct primitive_packet *p[4];
    primitives(&r, p, 4);
    CU_ASSERT_EQUAL(p[1]->handles[0], p[0]->handles[2]);      /* index 2 hit */
    CU_ASSERT_EQUAL(p[2]->handles[0], p[0]->handles[0]);      /* index 0 hit */
    /* hits are not new: the VS does not shade them again (VCHit, 001 L4817) */
    CU_ASSERT_EQUAL(p[0]->new_vertices, 0x7);
    CU_ASSERT_EQUAL(p[1]->new_vertices, 0x4);
    CU_ASSERT_EQUAL(p[2]->new_vertices, 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.cache.hits"), 5);
    CU_ASSERT_EQUAL(stat(&r, "vf.cache.misses"), 4);
    CU_ASSERT_EQUAL(stat(&r, "vf.vertices.fetched"), 4);
    CU_ASSERT_EQUAL(stat(&r, "urb.allocations"), 4);
    CU_ASSERT_EQUAL(stat(&r, "urb.references"), 9);
    CU_ASSERT_EQUAL(stat(&r, "vf.lines.index"), 1);         /* 18 bytes of IB: one line */
    sim_destroy(r.sim);
    indexed(true, &r);
    CU_ASSERT_EQUAL(stat(&r, "vf.cache.hits"), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.vertices.fetched"), 9);
    CU_ASSERT_EQUAL(stat(&r, "urb.allocations"), 9);
    sim_destroy(r.sim);
}

/* Gen4's 3DSTATE_INDEX_BUFFER (seed 001 L3733-3878): DW2 is an inclusive
 * Buffer Ending Address (indices past it read 0, counted), and an Ending
 * Address of 0 means no bounds check [Pre-SNB]. indexed()'s indices and
 * draw. */
static void test_gen4_index_buffer_ending_address(void)
{
    struct rig r;
    const struct primitive_packet *p[4];
    /* the last byte of the nine indices, and 0 (no check): all read */
    for (uint32_t end = 0; end <= 17; end += 17) {
        indexed_draw(true, true, end, &r);
        CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
        check_vertices(&r, p[0], (int[]){ 1, 2, 3 }, 3);
        check_vertices(&r, p[1], (int[]){ 3, 2, 4 }, 3);
        check_vertices(&r, p[2], (int[]){ 1, 3, 4 }, 3);
        CU_ASSERT_EQUAL(stat(&r, "vf.bad.index_out_of_bounds"), 0);
        sim_destroy(r.sim);
    }
    /* ending on the fourth index's last byte: the last five read 0 (+ base 1) */
    indexed_draw(true, true, 7, &r);
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
    check_vertices(&r, p[0], (int[]){ 1, 2, 3 }, 3);
    check_vertices(&r, p[1], (int[]){ 3, 1, 1 }, 3);
    check_vertices(&r, p[2], (int[]){ 1, 1, 1 }, 3);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.index_out_of_bounds"), 5);
    sim_destroy(r.sim);
}

/* Instancing: element 1 from VB1 with step rate 2, start instance 1: instance k
 * reads structure 1 + k / 2 (004 3DSTATE_VF_INSTANCING; 001 L4930-4936); SGVS puts
 * VertexID in element 2 component 0 and InstanceID in component 1 (004 L6556),
 * VertexID = VertexNumber for a sequential draw (001 L4845). POINTLIST of 2
 * vertices from start vertex 3, 4 instances: 8 points. */
static void test_instancing_and_sgvs(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 2 });
    basic_state(&r, 64, 8, PRIM_POINTLIST);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t v = 1000 + i;
        gpu_memory_write(r.mem, VB1 + 4 * i, &v, 4, NULL);
    }
    vertex_buffers(&r, (struct vb[]){ { 0, VB0, 16, 128 }, { 1, VB1, 4, 16 } }, 2);
    vertex_elements(&r, (struct ve[]){
        position,
        { 1, SURFACE_FORMAT_R32_UINT, 0, { SRC, VFCOMP_STORE_0, VFCOMP_STORE_0, VFCOMP_STORE_0 } },
    }, 2);
    instancing(&r, 1, 2);
    uint32_t dw[2];
    struct GEN9_3DSTATE_VF_SGVS g = { GEN9_3DSTATE_VF_SGVS_header, .VertexIDEnable = true,
                                      .VertexIDElementOffset = 2, .VertexIDComponentNumber = 0,
                                      .InstanceIDEnable = true, .InstanceIDElementOffset = 2,
                                      .InstanceIDComponentNumber = 1 };
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VF_SGVS_pack(dw, &g), 0);
    send_state(&r, "3DSTATE_VF_SGVS", dw, 2);
    draw(&r, &(struct draw){ .count = 2, .start = 3, .instances = 4, .start_instance = 1 });
    run(&r);
    const struct primitive_packet *p[8];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 8), 8);
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t v = 0; v < 2; v++) {
            const struct primitive_packet *q = p[2 * k + v];
            uint32_t h = q->handles[0];
            CU_ASSERT_EQUAL(vertex_of(&r, h), (int)(3 + v));
            CU_ASSERT_EQUAL(q->instance, k);
            CU_ASSERT_EQUAL(q->primitive_id, v);              /* restarts per instance */
            CU_ASSERT_EQUAL(vue_dword(&r, h, 4), 1000 + 1 + k / 2);
            CU_ASSERT_EQUAL(vue_dword(&r, h, 8), v);          /* VertexID */
            CU_ASSERT_EQUAL(vue_dword(&r, h, 9), k);          /* InstanceID */
            CU_ASSERT_EQUAL(vue_dword(&r, h, 10), 0);
        }
    CU_ASSERT_EQUAL(stat(&r, "vf.instances"), 4);
    sim_destroy(r.sim);
}

/* Gen7 (crocus on ValleyView, as byt_tri programs it): VERTEX_BUFFER_STATE
 * ends at an inclusive End Address, and a buffer of Buffer Access Type
 * INSTANCEDATA steps every Instance Data Step Rate instances (genxml
 * gen7.xml; seed 000 L3036-3098); VertexID / InstanceID come from STORE_VID /
 * STORE_IID component controls; the topology is 3DPRIMITIVE's own. VB0 ends
 * after 2 of its 3 structures (End Address VB0 + 31): the third vertex reads
 * zeros. VB1 (uint32 1000 + i) steps every 2 instances from instance 1. */
static void test_gen7_buffers(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    uint32_t u[2];
    struct GEN7_3DSTATE_URB_VS uv = { GEN7_3DSTATE_URB_VS_header, .VSURBStartingAddress = 4,
                                      .VSURBEntryAllocationSize = 1, .VSNumberOfURBEntries = 64 };
    CU_ASSERT_EQUAL(GEN7_3DSTATE_URB_VS_pack(u, &uv), 0);
    CU_ASSERT_TRUE(port_inject(unit_port(r.urb, "state", 0),
                               state_msg_gen(r.sim, 7, "3DSTATE_URB_VS", u, 2)));
    to_vf(&r, state_msg_gen(r.sim, 7, "3DSTATE_URB_VS", u, 2));
    fill_vb0(&r, 3);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t v = 1000 + i;
        gpu_memory_write(r.mem, VB1 + 4 * i, &v, 4, NULL);
    }
    uint32_t dw[9] = { 0 };
    struct GEN7_3DSTATE_VERTEX_BUFFERS vbh = { GEN7_3DSTATE_VERTEX_BUFFERS_header };
    vbh.DWordLength = 7;
    CU_ASSERT_EQUAL(GEN7_3DSTATE_VERTEX_BUFFERS_pack(dw, &vbh), 0);
    struct GEN7_VERTEX_BUFFER_STATE b0 = { .VertexBufferIndex = 0, .AddressModifyEnable = true,
                                           .BufferStartingAddress = VB0, .EndAddress = VB0 + 31,
                                           .BufferPitch = 16 };
    struct GEN7_VERTEX_BUFFER_STATE b1 = {
        .VertexBufferIndex = 1, .AddressModifyEnable = true, .BufferStartingAddress = VB1,
        .EndAddress = VB1 + 15, .BufferPitch = 4,
        .BufferAccessType = GEN7_VERTEX_BUFFER_STATE_BufferAccessType_INSTANCEDATA,
        .InstanceDataStepRate = 2 };
    CU_ASSERT_EQUAL(GEN7_VERTEX_BUFFER_STATE_pack(dw + 1, &b0), 0);
    CU_ASSERT_EQUAL(GEN7_VERTEX_BUFFER_STATE_pack(dw + 5, &b1), 0);
    to_vf(&r, state_msg_gen(r.sim, 7, "3DSTATE_VERTEX_BUFFERS", dw, 9));
    uint32_t ve[5] = { 0 };
    struct GEN7_3DSTATE_VERTEX_ELEMENTS eh = { GEN7_3DSTATE_VERTEX_ELEMENTS_header };
    eh.DWordLength = 3;
    CU_ASSERT_EQUAL(GEN7_3DSTATE_VERTEX_ELEMENTS_pack(ve, &eh), 0);
    struct GEN7_VERTEX_ELEMENT_STATE e0 = {
        .VertexBufferIndex = 0, .Valid = true, .SourceElementFormat = SURFACE_FORMAT_R32G32B32A32_FLOAT,
        .Component0Control = SRC, .Component1Control = SRC, .Component2Control = SRC,
        .Component3Control = SRC };
    struct GEN7_VERTEX_ELEMENT_STATE e1 = {
        .VertexBufferIndex = 1, .Valid = true, .SourceElementFormat = SURFACE_FORMAT_R32_UINT,
        .Component0Control = SRC, .Component1Control = VFCOMP_STORE_VID,
        .Component2Control = VFCOMP_STORE_IID, .Component3Control = VFCOMP_STORE_0 };
    CU_ASSERT_EQUAL(GEN7_VERTEX_ELEMENT_STATE_pack(ve + 1, &e0), 0);
    CU_ASSERT_EQUAL(GEN7_VERTEX_ELEMENT_STATE_pack(ve + 3, &e1), 0);
    to_vf(&r, state_msg_gen(r.sim, 7, "3DSTATE_VERTEX_ELEMENTS", ve, 5));
    uint32_t pd[GEN7_3DPRIMITIVE_length];
    struct GEN7_3DPRIMITIVE d = { GEN7_3DPRIMITIVE_header,
                                  .PrimitiveTopologyType = GEN7_3DPRIMITIVE_PrimitiveTopologyType_POINTLIST,
                                  .VertexCountPerInstance = 3, .InstanceCount = 4,
                                  .StartInstanceLocation = 1 };
    CU_ASSERT_EQUAL(GEN7_3DPRIMITIVE_pack(pd, &d), 0);
    to_vf(&r, state_msg_gen(r.sim, 7, "3DPRIMITIVE", pd, GEN7_3DPRIMITIVE_length));
    run(&r);
    const struct primitive_packet *p[12];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 12), 12);
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t v = 0; v < 3; v++) {
            const struct primitive_packet *q = p[3 * k + v];
            uint32_t h = q->handles[0];
            CU_ASSERT_EQUAL(q->topology, PRIM_POINTLIST);
            if (v < 2) {
                CU_ASSERT_EQUAL(vertex_of(&r, h), (int)v);
            } else {
                for (uint32_t c = 0; c < 4; c++)
                    CU_ASSERT_EQUAL(vue_dword(&r, h, c), 0);        /* past End Address */
            }
            CU_ASSERT_EQUAL(vue_dword(&r, h, 4), 1000 + 1 + k / 2);
            CU_ASSERT_EQUAL(vue_dword(&r, h, 5), v);          /* VertexID */
            CU_ASSERT_EQUAL(vue_dword(&r, h, 6), k);          /* InstanceID */
        }
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.out_of_bounds"), 4);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.unsupported_gen"), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.state"), 0);
    sim_destroy(r.sim);
}

/* Cut index: DWORD indices 0 1 2 3 cut 4 5 6 of a TRISTRIP with the cut enabled:
 * (0 1 2) (1 2 3), then a new strip (4 5 6) flagged START and RESTARTED
 * (003 L11867-11883; 001 L4870-4885); the cut is no vertex of an object. */
static void test_cut_index(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    basic_state(&r, 64, 7, PRIM_TRISTRIP);
    const uint32_t idx[8] = { 0, 1, 2, 3, 0xffffffffu, 4, 5, 6 };
    gpu_memory_write(r.mem, IB, idx, sizeof idx, NULL);
    index_buffer(&r, VF_INDEX_DWORD, sizeof idx);
    vf_cut(&r, true, 0xffffffffu);
    draw(&r, &(struct draw){ .count = 8, .instances = 1, .random = true });
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
    check_vertices(&r, p[0], (int[]){ 0, 1, 2 }, 3);
    check_vertices(&r, p[1], (int[]){ 1, 2, 3 }, 3);
    check_vertices(&r, p[2], (int[]){ 4, 5, 6 }, 3);
    CU_ASSERT_TRUE(p[1]->flags & PRIM_END);
    CU_ASSERT_TRUE(p[2]->flags & PRIM_START);
    CU_ASSERT_TRUE(p[2]->flags & PRIM_RESTARTED);
    CU_ASSERT_EQUAL(p[2]->primitive_id, 2);
    CU_ASSERT_EQUAL(stat(&r, "vf.cuts"), 1);
    const struct caught *sync = &r.caught->items[r.caught->count - 1];
    CU_ASSERT_EQUAL(sync->regs.value[PIPE_REG_IA_VERTICES], 7);
    CU_ASSERT_EQUAL(sync->regs.value[PIPE_REG_IA_PRIMITIVES], 3);
    sim_destroy(r.sim);
}

/* Out of bounds: VB0 holds 2 structures (32 bytes), the third point reads as
 * zeros (003 L11893): (0, 0, 0, 0) for R32G32B32A32_FLOAT. An IB of 2 WORD
 * entries: the third index reads 0 (004 L631-634). */
static void test_out_of_bounds(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    basic_state(&r, 64, 3, PRIM_POINTLIST);
    vertex_buffers(&r, &(struct vb){ 0, VB0, 16, 32 }, 1);
    draw(&r, &(struct draw){ .count = 3, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
    CU_ASSERT_EQUAL(vertex_of(&r, p[1]->handles[0]), 1);
    for (int c = 0; c < 4; c++)
        CU_ASSERT_EQUAL(vue_dword(&r, p[2]->handles[0], (uint32_t)c), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.out_of_bounds"), 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.lines"), 2);           /* nothing read for the third */
    sim_destroy(r.sim);

    r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    basic_state(&r, 64, 4, PRIM_POINTLIST);
    const uint16_t idx[3] = { 2, 3, 3 };                /* the third is beyond the IB's 4 bytes */
    gpu_memory_write(r.mem, IB, idx, sizeof idx, NULL);
    index_buffer(&r, VF_INDEX_WORD, 4);
    draw(&r, &(struct draw){ .count = 3, .instances = 1, .random = true });
    run(&r);
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), 3);
    CU_ASSERT_EQUAL(vertex_of(&r, p[0]->handles[0]), 2);
    CU_ASSERT_EQUAL(vertex_of(&r, p[1]->handles[0]), 3);
    CU_ASSERT_EQUAL(vertex_of(&r, p[2]->handles[0]), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.index_out_of_bounds"), 1);
    sim_destroy(r.sim);
}

/* Indirect: the 3DPRIM_* registers arrive as CS_MMIO_WRITEs (004 L597-610):
 * 3 vertices from index 1, 2 instances, base vertex 2 -> LINESTRIP of
 * structures 2+idx; the register writes stay in the VF, others go on. */
static void test_indirect(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    basic_state(&r, 64, 8, PRIM_LINESTRIP);
    const uint8_t idx[4] = { 9, 0, 3, 1 };
    gpu_memory_write(r.mem, IB, idx, sizeof idx, NULL);
    index_buffer(&r, VF_INDEX_BYTE, 4);
    mmio(&r, CS_MMIO_WRITE, 0x2434, 3);         /* 3DPRIM_VERTEX_COUNT */
    mmio(&r, CS_MMIO_WRITE, 0x2430, 1);         /* 3DPRIM_START_VERTEX */
    mmio(&r, CS_MMIO_WRITE, 0x2438, 2);         /* 3DPRIM_INSTANCE_COUNT */
    mmio(&r, CS_MMIO_WRITE, 0x243c, 0);         /* 3DPRIM_START_INSTANCE */
    mmio(&r, CS_MMIO_WRITE, 0x2440, 2);         /* 3DPRIM_BASE_VERTEX */
    mmio(&r, CS_MMIO_WRITE, 0x5280, 77);        /* SO_WRITE_OFFSET0: not the VF's */
    draw(&r, &(struct draw){ .count = 100, .start = 7, .instances = 9, .random = true, .indirect = true });
    run(&r);
    const struct primitive_packet *p[8];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 8), 4);
    for (int k = 0; k < 2; k++) {
        check_vertices(&r, p[2 * k], (int[]){ 2, 5 }, 2);
        check_vertices(&r, p[2 * k + 1], (int[]){ 5, 3 }, 2);
    }
    uint32_t forwarded = 0;
    for (uint32_t i = 0; i < r.caught->count; i++)
        forwarded += r.caught->items[i].kind == MSG_MMIO;
    CU_ASSERT_EQUAL(forwarded, 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.draws.indirect"), 1);
    sim_destroy(r.sim);
}

/* Every topology through vf_assembly, spot checks of the object orders
 * (GS table 003 L13071-13125): TRIFAN of 5, QUADLIST of 8 (-> POLYGON), LINELOOP
 * of 3 (closing line), PATCHLIST_3 of 7 (one dangling), RECTLIST of 3. */
static void test_topologies(void)
{
    struct { uint32_t topology, count, prims, out; int v[3][4]; uint32_t n; } cases[] = {
        { PRIM_TRIFAN, 5, 3, PRIM_TRIFAN, { { 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 } }, 3 },
        { PRIM_QUADLIST, 8, 2, PRIM_POLYGON, { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } }, 4 },
        { PRIM_LINELOOP, 3, 3, PRIM_LINESTRIP, { { 0, 1 }, { 1, 2 }, { 2, 0 } }, 2 },
        { PRIM_PATCHLIST_1 + 2, 7, 2, PRIM_PATCHLIST_1 + 2, { { 0, 1, 2 }, { 3, 4, 5 } }, 3 },
        { PRIM_RECTLIST, 3, 1, PRIM_RECTLIST, { { 0, 1, 2 } }, 3 },
    };
    for (unsigned t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
        basic_state(&r, 64, 8, cases[t].topology);
        draw(&r, &(struct draw){ .count = cases[t].count, .instances = 1 });
        run(&r);
        const struct primitive_packet *p[4];
        CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 4), cases[t].prims);
        for (uint32_t i = 0; i < cases[t].prims; i++) {
            check_vertices(&r, p[i], cases[t].v[i], cases[t].n);
            CU_ASSERT_EQUAL(p[i]->topology, cases[t].out);
        }
        if (cases[t].topology == PRIM_PATCHLIST_1 + 2) {
            /* the 7th vertex dangles: its entry (if it got one) is freed, only the 6
             * vertices the patches carry stay (003 L12181-12187) */
            CU_ASSERT_EQUAL(stat(&r, "vf.dangling"), 1);
            CU_ASSERT_EQUAL(stat(&r, "urb.allocations") - stat(&r, "urb.frees"), 6);
        }
        sim_destroy(r.sim);
    }
}

/* Empty and absurd draws are counted, send nothing but the 3DPRIMITIVE, and
 * never hang; IA counters set by CS_MMIO_WRITE keep counting from the value. */
static void test_bad_draws_and_registers(void)
{
    const char *over[] = { "max_draw_vertices=1000", NULL };
    struct rig r = rig_new(&(struct rig_options){ .vf_over = over });
    basic_state(&r, 64, 3, PRIM_TRILIST);
    draw(&r, &(struct draw){ .count = 0, .instances = 1 });
    draw(&r, &(struct draw){ .count = 3, .instances = 0 });
    draw(&r, &(struct draw){ .count = 0xffffffffu, .instances = 0xffffffffu });
    mmio(&r, CS_MMIO_WRITE, 0x2310, 40);        /* IA_VERTICES_COUNT low */
    mmio(&r, CS_MMIO_WRITE, 0x231c, 1);         /* IA_PRIMITIVES_COUNT high */
    draw(&r, &(struct draw){ .count = 3, .instances = 1 });
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r);
    const struct primitive_packet *p[4];
    CU_ASSERT_EQUAL(primitives(&r, p, 4), 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.draws"), 4);
    CU_ASSERT_EQUAL(stat(&r, "vf.draws.empty"), 2);
    CU_ASSERT_EQUAL(stat(&r, "vf.draws.bad"), 1);
    const struct caught *sync = &r.caught->items[r.caught->count - 1];
    CU_ASSERT_EQUAL(sync->regs.value[PIPE_REG_IA_VERTICES], 43);
    CU_ASSERT_EQUAL(sync->regs.value[PIPE_REG_IA_PRIMITIVES], (1ull << 32) + 1);
    sim_destroy(r.sim);
}

/* IA_VERTICES_COUNT and IA_PRIMITIVES_COUNT count only while 3DSTATE_VF_STATISTICS
 * enables them (004 L6657): two TRILIST draws of 3, the first with statistics off. */
static void test_statistics_enable(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    basic_state(&r, 64, 3, PRIM_TRILIST);
    statistics(&r, false);
    draw(&r, &(struct draw){ .count = 3, .instances = 1 });
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    statistics(&r, true);
    draw(&r, &(struct draw){ .count = 3, .instances = 1 });
    mmio(&r, CS_MMIO_SYNC, 0, 0);
    run(&r);
    const struct caught *sync[2];
    uint32_t n = 0;
    for (uint32_t i = 0; i < r.caught->count && n < 2; i++)
        if (r.caught->items[i].kind == MSG_MMIO)
            sync[n++] = &r.caught->items[i];
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(sync[0]->regs.value[PIPE_REG_IA_VERTICES], 0);
    CU_ASSERT_EQUAL(sync[0]->regs.value[PIPE_REG_IA_PRIMITIVES], 0);
    CU_ASSERT_EQUAL(sync[1]->regs.value[PIPE_REG_IA_VERTICES], 3);
    CU_ASSERT_EQUAL(sync[1]->regs.value[PIPE_REG_IA_PRIMITIVES], 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.IA_VERTICES_COUNT"), 3);
    sim_destroy(r.sim);
}

/* Back-pressure: 8 VS entries, a slow L3 and a narrow output for 60 triangles
 * (180 vertices); the consumer frees entries as it takes primitives. The draw
 * completes (no deadlock), stalls are counted, every entry is freed. */
static void test_back_pressure(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 20, .consumer = true, .vs_capacity = 1 });
    basic_state(&r, 8, 180, PRIM_TRILIST);
    draw(&r, &(struct draw){ .count = 180, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[64];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 64), 60);
    for (int t = 0; t < 60; t += 7)
        CU_ASSERT_EQUAL(p[t]->primitive_id, (uint32_t)t);
    CU_ASSERT_TRUE(stat(&r, "vf.stall.urb") > 0);
    CU_ASSERT_TRUE(stat(&r, "vf.stall.l3") > 0);
    CU_ASSERT_TRUE(stat(&r, "urb.stall_cycles.vs") > 0);
    CU_ASSERT_EQUAL(stat(&r, "urb.allocations"), 180);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 180);
    sim_destroy(r.sim);
}

/* The fewest VS entries the VF accepts for a topology, 2 x (history + 1 + first)
 * (vf.h): PATCHLIST_4 needs 8, and 10 patches run through 8 entries with a
 * consumer; with 7 the draw is skipped and counted, as is an unknown topology. */
static void test_entries_needed(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 7, .consumer = true });
    basic_state(&r, 8, 40, PRIM_PATCHLIST_1 + 3);
    draw(&r, &(struct draw){ .count = 40, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[16];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 16), 10);
    check_vertices(&r, p[9], (int[]){ 36, 37, 38, 39 }, 4);
    CU_ASSERT_EQUAL(stat(&r, "urb.frees"), 40);
    sim_destroy(r.sim);

    r = rig_new(&(struct rig_options){ .l3_delay = 7, .consumer = true });
    basic_state(&r, 7, 40, PRIM_PATCHLIST_1 + 3);
    draw(&r, &(struct draw){ .count = 40, .instances = 1 });
    topology(&r, 21);                   /* no 3D_Prim_Topo_Type has 21 */
    draw(&r, &(struct draw){ .count = 40, .instances = 1 });
    run(&r);
    CU_ASSERT_EQUAL(primitives(&r, p, 16), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.urb_too_small"), 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.topology"), 1);
    CU_ASSERT_EQUAL(stat(&r, "urb.alloc_requests"), 0);
    sim_destroy(r.sim);
}

/* A valid element after an invalid one breaks 004 L6429: counted, ignored. */
static void test_element_gap(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 0 });
    basic_state(&r, 64, 2, PRIM_POINTLIST);
    uint32_t dw[1 + 2 * 3] = { 0 };
    struct GEN9_3DSTATE_VERTEX_ELEMENTS h = { GEN9_3DSTATE_VERTEX_ELEMENTS_header };
    h.DWordLength = 5;
    CU_ASSERT_EQUAL(GEN9_3DSTATE_VERTEX_ELEMENTS_pack(dw, &h), 0);
    struct GEN9_VERTEX_ELEMENT_STATE e0 = { .Valid = true, .SourceElementFormat = SURFACE_FORMAT_R32G32B32A32_FLOAT,
                                            .Component0Control = SRC, .Component1Control = SRC,
                                            .Component2Control = SRC, .Component3Control = SRC };
    struct GEN9_VERTEX_ELEMENT_STATE e2 = e0;
    e2.Component0Control = VFCOMP_STORE_1_INT;
    CU_ASSERT_EQUAL(GEN9_VERTEX_ELEMENT_STATE_pack(dw + 1, &e0), 0);
    CU_ASSERT_EQUAL(GEN9_VERTEX_ELEMENT_STATE_pack(dw + 5, &e2), 0);   /* element 1 invalid */
    send_state(&r, "3DSTATE_VERTEX_ELEMENTS", dw, 7);
    draw(&r, &(struct draw){ .count = 2, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[2];
    CU_ASSERT_EQUAL_FATAL(primitives(&r, p, 2), 2);
    CU_ASSERT_EQUAL(vertex_of(&r, p[1]->handles[0]), 1);
    CU_ASSERT_EQUAL(vue_dword(&r, p[1]->handles[0], 8), 0);     /* element 2 not stored */
    CU_ASSERT_EQUAL(stat(&r, "vf.bad.state"), 1);
    sim_destroy(r.sim);
}

/* No URB allocation: the URB refuses, objects are dropped and counted, no hang. */
static void test_no_allocation(void)
{
    struct rig r = rig_new(&(struct rig_options){ .l3_delay = 1 });
    vs_state(&r, false);
    fill_vb0(&r, 3);
    vertex_buffers(&r, &(struct vb){ 0, VB0, 16, 48 }, 1);
    vertex_elements(&r, &position, 1);
    topology(&r, PRIM_TRILIST);
    draw(&r, &(struct draw){ .count = 3, .instances = 1 });
    run(&r);
    const struct primitive_packet *p[2];
    CU_ASSERT_EQUAL(primitives(&r, p, 2), 0);
    CU_ASSERT_EQUAL(stat(&r, "vf.objects_dropped"), 1);
    CU_ASSERT_EQUAL(stat(&r, "vf.urb.refused"), 3);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "strip of 5", test_strip },
    { "conversion and VUE layout", test_conversion_and_layout },
    { "vertex cache", test_vertex_cache },
    { "Gen4 index buffer: inclusive Ending Address, 0 = no bounds check",
      test_gen4_index_buffer_ending_address },
    { "instancing and SGVS", test_instancing_and_sgvs },
    { "Gen7 vertex buffers: End Address, per-buffer instancing, STORE_VID/IID",
      test_gen7_buffers },
    { "cut index", test_cut_index },
    { "out of bounds", test_out_of_bounds },
    { "indirect", test_indirect },
    { "topologies", test_topologies },
    { "bad draws and registers", test_bad_draws_and_registers },
    { "statistics enable", test_statistics_enable },
    { "back-pressure", test_back_pressure },
    { "no allocation", test_no_allocation },
    { "entries needed", test_entries_needed },
    { "element gap", test_element_gap },
    { 0 }
};
TEST_SUITE(vf, cases);
