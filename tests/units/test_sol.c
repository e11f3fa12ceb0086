/* tests/units/test_sol.c - the Stream Output Logic unit driven alone, with the
 * real URB unit holding the vertices (written through its backdoor), GPU
 * memory for the SO buffers (a physical address space: the packets carry
 * space_format 0), a memory unit answering its L3 line writes, catchers on
 * "clip" and "drained".
 *
 * Commands are written here as dwords from the seed's layouts (004
 * L5652-5764 and L5852-6011; SO_DECL from the reference genxml) and unpacked
 * into their superset struct by the generated unpacker, as the CS sends them;
 * the 3DSTATE_STREAMOUT and 3DSTATE_SO_DECL_LIST dwords of the first test are
 * those of the skl_xfb capture (Mesa's interleaved vec4 + float to one
 * buffer, pitch 20). Expected bytes are computed here from the VUE contents
 * the test writes, the decl list and the object order of seed 003
 * L13746-13780. */
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/memory/memory.h"
#include "units/sol/sol.h"
#include "units/urb/urb.h"

/* ---- a catcher keeping copies of what arrives ---------------------------------------- */

#define CATCH_MAX 64
#define CATCH_BYTES 512

struct catcher {
    struct port *in;
    uint32_t count, primitives, mmio;
    uint32_t kind[CATCH_MAX];
    alignas(16) uint8_t payload[CATCH_MAX][CATCH_BYTES];    /* message payloads are 16-aligned */
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
        c->primitives += m->kind == MSG_PRIMITIVE;
        c->mmio += m->kind == MSG_MMIO;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_sol_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* The last message of a kind a catcher holds. */
static const void *last_of(const struct catcher *c, uint32_t kind)
{
    for (uint32_t i = c->count < CATCH_MAX ? c->count : CATCH_MAX; i-- > 0;)
        if (c->kind[i] == kind)
            return c->payload[i];
    return NULL;
}

/* ---- the rig ------------------------------------------------------------------------- */

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *urb, *sol;
    struct catcher *alloc, *clip, *drained;
    uint32_t handles[32];
};

static void urb_vs_state(struct rig *r, uint32_t start, uint32_t size, uint32_t entries)
{
    size_t off = cs_state_common_offset(2);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + sizeof(struct spec_3DSTATE_URB_VS)));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = SPEC_ID_3DSTATE_URB_VS;
    p->gen = 9;
    p->dword_count = 2;
    p->common_offset = (uint32_t)off;
    struct spec_3DSTATE_URB_VS *v = (struct spec_3DSTATE_URB_VS *)((uint8_t *)p + off);
    v->VSNumberOfURBEntries = entries;
    v->VSURBEntryAllocationSize = size;
    v->VSURBStartingAddress = start;
    CU_ASSERT_TRUE(port_inject(unit_port(r->urb, "state", 0), m));
}

/* VUE of vertex i (two 256-bit rows, 16 dwords): header row (dword 0-3 zero,
 * position 4-7), then the two outputs the capture streams, o_a (vec4) in
 * dwords 8-11 and o_b (float) in dword 12; dwords 13-15 are never streamed. */
static void vue_of(uint32_t i, float out[16])
{
    memset(out, 0, 16 * sizeof(float));
    out[4] = (float)i;
    out[5] = (float)i + 0.5f;
    out[7] = 1.0f;
    out[8] = 1.5f * (float)i;
    out[9] = -(float)i;
    out[10] = (float)(i * i);
    out[11] = 2.5f;
    out[12] = 100.0f + (float)i;
    out[13] = out[14] = out[15] = 7777.0f;
}

static void command(struct rig *r, enum spec_id id, const uint32_t *dw, uint32_t n);

static struct rig rig_new(bool drained, bool memory_unit)
{
    struct rig r;
    memset(&r, 0, sizeof r);
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    r.sim = probe_sim(&o);
    r.mem = probe_memory(r.sim);
    r.urb = probe_add(r.sim, &urb_ops, "urb", NULL);
    r.sol = probe_add(r.sim, &sol_ops, "sol", NULL);
    struct unit *alloc = probe_add(r.sim, &catcher_ops, "alloc", NULL);
    struct unit *clip = probe_add(r.sim, &catcher_ops, "clip", NULL);
    probe_link(r.sim, r.sol, "urb", r.urb, "client[0]", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[0]", r.sol, "urb_reply", 1, 16, 4);
    probe_link(r.sim, r.urb, "client_reply[1]", alloc, "in", 1, 16, 4);
    probe_link(r.sim, r.sol, "clip", clip, "in", 1, 16, 4);
    if (drained) {
        struct unit *d = probe_add(r.sim, &catcher_ops, "drained", NULL);
        probe_link(r.sim, r.sol, "drained", d, "in", 1, 4, 1);
        r.drained = unit_state(d);
    }
    if (memory_unit) {
        struct unit *m = probe_add(r.sim, &memory_ops, "memory", NULL);
        probe_link(r.sim, r.sol, "l3", m, "client[0]", 1, 16, 4);
        probe_link(r.sim, m, "client_reply[0]", r.sol, "l3_reply", 1, 16, 4);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.client[1]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "urb.state", PORT_IN, &err));
    /* SOL is driven through the backdoor on "gs": the first injection makes
     * that channel (a 3DSTATE_GS with the GS disabled) */
    const uint32_t gs[10] = { 0x78110008u };
    command(&r, SPEC_ID_3DSTATE_GS, gs, 10);
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "\nrealize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.alloc = unit_state(alloc);
    r.clip = unit_state(clip);
    /* VS entries of 64 bytes (size 0: one 64-byte unit, 004 L6335-6352)
     * from 8 KB; 32 of them; then 16 allocated and written */
    urb_vs_state(&r, 1, 0, 32);
    sim_run(r.sim, 0);
    struct msg *m = msg_alloc(r.sim, MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->op = URB_OP_ALLOC;
    q->client = URB_CLIENT_VS;
    q->count = 16;
    CU_ASSERT_TRUE(port_inject(unit_port(r.urb, "client", 1), m));
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.alloc->count, 1);
    const struct urb_msg *a = (const struct urb_msg *)r.alloc->payload[0];
    CU_ASSERT_EQUAL_FATAL(a->count, 16);
    for (uint32_t i = 0; i < 16; i++) {
        r.handles[i] = a->handles[i];
        float vue[16];
        vue_of(i, vue);
        CU_ASSERT_EQUAL(urb_backdoor_write(r.urb, urb_handle_offset(r.handles[i]), vue, 64), 64);
    }
    return r;
}

/* A command as the CS sends it: its dwords, unpacked into the superset by
 * the generation's unpacker. */
static void command_of_gen(struct rig *r, uint32_t gen, enum spec_id id, const uint32_t *dw,
                           uint32_t n)
{
    const struct spec_element *e = spec_element_by_id((int)gen, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    size_t off = cs_state_common_offset(n);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + e->common_size));
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = gen;
    p->dword_count = n;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy(p->dwords, dw, 4ull * n);
    e->unpack_common(p->dwords, (uint8_t *)p + off);
    CU_ASSERT_TRUE(port_inject(unit_port(r->sol, "gs", 0), m));
}

static void command(struct rig *r, enum spec_id id, const uint32_t *dw, uint32_t n)
{
    command_of_gen(r, 9, id, dw, n);
}

/* 3DSTATE_SO_BUFFER (004 L5652-5700): DW1 31 enable, 30:29 index, 28:22
 * MOCS, 21 Stream Offset Write Enable, 20 Offset Address Enable; DW2-3 base,
 * DW4 size in dwords - 1, DW5-6 offset address, DW7 Stream Offset. */
static void so_buffer(struct rig *r, uint32_t dw1, uint64_t base, uint32_t size, uint64_t offset_address,
                      uint32_t stream_offset)
{
    uint32_t dw[8] = { 0x79180006u, dw1, (uint32_t)base, (uint32_t)(base >> 32), size,
                       (uint32_t)offset_address, (uint32_t)(offset_address >> 32), stream_offset };
    command(r, SPEC_ID_3DSTATE_SO_BUFFER, dw, 8);
}

static void draw(struct rig *r)
{
    uint32_t dw[7] = { 0x7B000005u, 4, 6, 0, 1, 0, 0 };     /* 3DPRIMITIVE, TRILIST */
    command(r, SPEC_ID_3DPRIMITIVE, dw, 7);
}

static void primitive_flagged(struct rig *r, uint32_t topology, uint32_t flags, uint32_t stream,
                              uint32_t draw_number, const uint32_t *vertices, uint32_t n);

static void primitive(struct rig *r, uint32_t topology, uint32_t stream, uint32_t draw_number,
                      const uint32_t *vertices, uint32_t n)
{
    primitive_flagged(r, topology, 0, stream, draw_number, vertices, n);
}

static void primitive_flagged(struct rig *r, uint32_t topology, uint32_t flags, uint32_t stream,
                              uint32_t draw_number, const uint32_t *vertices, uint32_t n)
{
    struct msg *m = msg_alloc(r->sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = flags;
    p->stream = stream;
    p->draw = draw_number;
    p->vertex_count = n;
    p->owner_handle = URB_HANDLE_NONE;
    for (uint32_t i = 0; i < n && i < PRIM_MAX_VERTICES; i++)
        p->handles[i] = r->handles[vertices[i]];
    CU_ASSERT_TRUE(port_inject(unit_port(r->sol, "gs", 0), m));
}

static void register_write(struct rig *r, uint32_t offset, uint32_t value)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_WRITE;
    c->offset = offset;
    c->value = value;
    CU_ASSERT_TRUE(port_inject(unit_port(r->sol, "gs", 0), m));
}

/* An in-band sync with every field preset to 0xAA00 + field (so the fields
 * SOL does not own can be seen untouched). */
static void sync(struct rig *r)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO,
                              sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_SYNC;
    c->size = sizeof(struct pipeline_registers);
    struct pipeline_registers regs = { 0 };
    for (int f = 0; f < PIPE_REG_COUNT; f++)
        regs.value[f] = 0xAA00u + (uint32_t)f;
    memcpy(c->data, &regs, sizeof regs);
    CU_ASSERT_TRUE(port_inject(unit_port(r->sol, "gs", 0), m));
}

static void fill(struct rig *r, uint64_t address, uint32_t value, uint32_t dwords)
{
    for (uint32_t i = 0; i < dwords; i++)
        gpu_memory_write(r->mem, address + 4ull * i, &value, 4, NULL);
}

static uint32_t read32(struct rig *r, uint64_t address)
{
    uint32_t v = 0;
    gpu_memory_read(r->mem, address, &v, 4, NULL);
    return v;
}

static float readf(struct rig *r, uint64_t address)
{
    uint32_t v = read32(r, address);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static double stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "sol.%s", name);
    return probe_stat(r->sim, path);
}

/* ---- input buffering: the object order table ----------------------------------------- */

static void expect_objects(uint32_t topology, uint32_t n, bool trailing, uint32_t per_object,
                           const uint32_t *want, uint32_t objects)
{
    uint32_t out[SOL_MAX_OBJECT_INDICES], each = 99;
    uint32_t got = sol_objects(topology, n, trailing, out, &each);
    CU_ASSERT_EQUAL(got, objects);
    CU_ASSERT_EQUAL(each, per_object);
    if (got != objects || each != per_object) {
        fprintf(stderr, "\n  topology %u n %u: %u objects of %u", topology, n, got, each);
        return;
    }
    for (uint32_t i = 0; i < objects * per_object; i++)
        CU_ASSERT_EQUAL(out[i], want[i]);
}

/* Seed 003 L13746-13780, row by row. */
static void test_object_order(void)
{
    const uint32_t points[] = { 0, 1, 2 };
    expect_objects(PRIM_POINTLIST, 3, false, 1, points, 3);
    const uint32_t lines[] = { 0, 1, 2, 3 };
    expect_objects(PRIM_LINELIST, 5, false, 2, lines, 2);
    const uint32_t line_adj[] = { 1, 2, 5, 6 };                 /* (1,2); (5,6) */
    expect_objects(PRIM_LINELIST_ADJ, 8, false, 2, line_adj, 2);
    const uint32_t strip[] = { 0, 1, 1, 2, 2, 3 };
    expect_objects(PRIM_LINESTRIP, 4, false, 2, strip, 3);
    const uint32_t strip_adj[] = { 1, 2, 2, 3 };                /* N-4 + 1 objects */
    expect_objects(PRIM_LINESTRIP_ADJ, 5, false, 2, strip_adj, 2);
    const uint32_t tris[] = { 0, 1, 2, 3, 4, 5 };
    expect_objects(PRIM_TRILIST, 7, false, 3, tris, 2);
    expect_objects(PRIM_RECTLIST, 6, false, 3, tris, 2);
    const uint32_t tri_adj[] = { 0, 2, 4, 6, 8, 10 };
    expect_objects(PRIM_TRILIST_ADJ, 12, false, 3, tri_adj, 2);
    /* TRISTRIP LEADING: [k odd] = (k, k+2, k+1); TRAILING: (k+1, k, k+2) */
    const uint32_t ts_leading[] = { 0, 1, 2, 1, 3, 2, 2, 3, 4 };
    expect_objects(PRIM_TRISTRIP, 5, false, 3, ts_leading, 3);
    const uint32_t ts_trailing[] = { 0, 1, 2, 2, 1, 3, 2, 3, 4 };
    expect_objects(PRIM_TRISTRIP, 5, true, 3, ts_trailing, 3);
    /* TRISTRIP_REV: [0] = (0,2,1) leading, (1,0,2) trailing; [1] = (1,2,3) */
    const uint32_t rev_leading[] = { 0, 2, 1, 1, 2, 3 };
    expect_objects(PRIM_TRISTRIP_REVERSE, 4, false, 3, rev_leading, 2);
    const uint32_t rev_trailing[] = { 1, 0, 2, 1, 2, 3 };
    expect_objects(PRIM_TRISTRIP_REVERSE, 4, true, 3, rev_trailing, 2);
    /* TRISTRIP_ADJ N=10: (0,2,4); (2,6,4) leading / (4,2,6) trailing;
     * trailing object [2] even = (N-6, N-4, N-2) = (4,6,8) */
    const uint32_t tsa_leading[] = { 0, 2, 4, 2, 6, 4, 4, 6, 8 };
    expect_objects(PRIM_TRISTRIP_ADJ, 10, false, 3, tsa_leading, 3);
    const uint32_t tsa_trailing[] = { 0, 2, 4, 4, 2, 6, 4, 6, 8 };
    expect_objects(PRIM_TRISTRIP_ADJ, 10, true, 3, tsa_trailing, 3);
    /* N = 6 or 7: only [0] = (0,2,4) */
    expect_objects(PRIM_TRISTRIP_ADJ, 7, false, 3, tsa_leading, 1);
    const uint32_t fan[] = { 0, 1, 2, 0, 2, 3, 0, 3, 4 };
    expect_objects(PRIM_TRIFAN, 5, false, 3, fan, 3);
    expect_objects(PRIM_POLYGON, 5, false, 3, fan, 3);
    const uint32_t patches[] = { 0, 1, 2, 3, 4, 5 };
    expect_objects(PRIM_PATCHLIST_1 + 2, 7, false, 3, patches, 2);
    /* "Not supported after VF" */
    expect_objects(PRIM_LINELOOP, 4, false, 0, NULL, 0);
    expect_objects(PRIM_QUADLIST, 4, false, 0, NULL, 0);
    expect_objects(PRIM_QUADSTRIP, 4, false, 0, NULL, 0);
    expect_objects(99, 4, false, 0, NULL, 0);
}

/* ---- the capture's programming ------------------------------------------------------- */

/* skl_xfb's 3DSTATE_STREAMOUT (SO on, rendering disabled, TRAILING,
 * statistics; every stream reads 2 rows from 0; buffer 0 pitch 20) and
 * 3DSTATE_SO_DECL_LIST (stream 0 to buffer 0: register 2 xyzw, register 3
 * x), as the capture's aubinator decode gives them. */
static const uint32_t xfb_streamout[5] = { 0x781e0003u, 0xc6000000u, 0x01010101u, 0x14u, 0 };
static const uint32_t xfb_decls[7] = { 0x79170005u, 0x1u, 0x2u, 0x2fu, 0, 0x31u, 0 };

#define SO_BASE 0x10000ull
#define SO_OFFSET_ADDRESS 0x20000ull

/* Two triangles of the capture's 5 floats per vertex into a buffer of 30
 * dwords (Surface Size 29), then a third that does not fit: 30 floats at
 * their offsets, the 10 beyond untouched; SO_NUM_PRIMS_WRITTEN0 2,
 * SO_PRIM_STORAGE_NEEDED0 3, SO_WRITE_OFFSET0 120 stored to the offset
 * address after the draw (DW1[20]) and given to the sync; rendering is
 * disabled, so nothing reaches CLIP and every vertex is dereferenced. */
static void test_capture_programming_and_overflow(void)
{
    struct rig r = rig_new(true, true);
    fill(&r, SO_BASE, bits_of(-1234.5f), 64);
    fill(&r, SO_OFFSET_ADDRESS, 0xDEADBEEFu, 1);
    command(&r, SPEC_ID_3DSTATE_STREAMOUT, xfb_streamout, 5);
    command(&r, SPEC_ID_3DSTATE_SO_DECL_LIST, xfb_decls, 7);
    so_buffer(&r, 0x81300000u, SO_BASE, 29, SO_OFFSET_ADDRESS, 0);  /* the capture's DW1 */
    so_buffer(&r, 0x21000000u, 0, 0, 0, 0);
    so_buffer(&r, 0x41000000u, 0, 0, 0, 0);
    so_buffer(&r, 0x61000000u, 0, 0, 0, 0);
    draw(&r);
    const uint32_t t0[3] = { 2, 0, 1 }, t1[3] = { 3, 4, 5 }, t2[3] = { 6, 7, 8 };
    primitive(&r, PRIM_TRILIST, 0, 0, t0, 3);
    primitive(&r, PRIM_TRILIST, 0, 0, t1, 3);
    primitive(&r, PRIM_TRILIST, 0, 0, t2, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);

    const uint32_t order[6] = { 2, 0, 1, 3, 4, 5 };
    for (uint32_t k = 0; k < 30; k++) {
        float vue[16];
        vue_of(order[k / 5], vue);
        float want = k % 5 < 4 ? vue[8 + k % 5] : vue[12];
        CU_ASSERT_EQUAL(readf(&r, SO_BASE + 4 * k), want);
    }
    for (uint32_t k = 30; k < 40; k++)
        CU_ASSERT_EQUAL(readf(&r, SO_BASE + 4 * k), -1234.5f);
    CU_ASSERT_EQUAL(read32(&r, SO_OFFSET_ADDRESS), 120);

    CU_ASSERT_EQUAL(r.clip->primitives, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.drained);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    const struct cs_mmio *done = (const struct cs_mmio *)r.drained->payload[0];
    CU_ASSERT_EQUAL(done->op, CS_MMIO_SYNC_DONE);
    struct pipeline_registers regs;
    memcpy(&regs, done->data, sizeof regs);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0], 2);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0], 3);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0], 120);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + 1], 0);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_IA_VERTICES], 0xAA00u + PIPE_REG_IA_VERTICES);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_CL_PRIMITIVES], 0xAA00u + PIPE_REG_CL_PRIMITIVES);
    uint64_t sol_fields = 0;
    for (int i = 0; i < 4; i++)
        sol_fields |= 1ull << (PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + i) |
                      1ull << (PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + i) |
                      1ull << (PIPE_REG_SO_WRITE_OFFSET0 + i);
    CU_ASSERT_EQUAL(regs.written, sol_fields);

    CU_ASSERT_EQUAL(stat(&r, "objects"), 3);
    CU_ASSERT_EQUAL(stat(&r, "objects_written"), 2);
    CU_ASSERT_EQUAL(stat(&r, "overflows"), 1);
    CU_ASSERT_EQUAL(stat(&r, "vertices_written"), 6);
    CU_ASSERT_EQUAL(stat(&r, "bytes_written"), 120);
    CU_ASSERT_EQUAL(stat(&r, "so_num_prims_written.0"), 2);
    CU_ASSERT_EQUAL(stat(&r, "so_prim_storage_needed.0"), 3);
    CU_ASSERT_EQUAL(stat(&r, "so_write_offset.0"), 120);
    CU_ASSERT_EQUAL(stat(&r, "stopped.render_disabled"), 3);
    CU_ASSERT_EQUAL(stat(&r, "offset_loads"), 1);
    CU_ASSERT_EQUAL(stat(&r, "offset_stores"), 1);
    /* lines: triangle 0 bytes 0-59 (one line), triangle 1 bytes 60-63 and
     * 64-119 (two), the offset store (one) */
    CU_ASSERT_EQUAL(stat(&r, "l3_writes"), 4);
    /* all nine vertices are read (the overflow check is per object, once the
     * primitive's data is in), and all are dropped here */
    CU_ASSERT_EQUAL(stat(&r, "urb_reads"), 9);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 9);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    CU_ASSERT_EQUAL(stat(&r, "bad_messages"), 0);

    /* Appending (L13725, 004 L5700): the buffer again, 60 dwords, Stream
     * Offset 0xFFFFFFFF: SO_WRITE_OFFSET0 (set to 4 meanwhile) is loaded
     * from the offset address (120) before the draw; the triangle lands at
     * bytes 120-179 and 180 is stored after it. */
    register_write(&r, 0x5280, 4);
    so_buffer(&r, 0x81300000u, SO_BASE, 59, SO_OFFSET_ADDRESS, 0xFFFFFFFFu);
    draw(&r);
    const uint32_t t3[3] = { 9, 10, 11 };
    primitive(&r, PRIM_TRILIST, 0, 1, t3, 3);
    sync(&r);
    sim_run(r.sim, 0);
    for (uint32_t k = 30; k < 45; k++) {
        float vue[16];
        vue_of(9 + (k - 30) / 5, vue);
        CU_ASSERT_EQUAL(readf(&r, SO_BASE + 4 * k), k % 5 < 4 ? vue[8 + k % 5] : vue[12]);
    }
    CU_ASSERT_EQUAL(readf(&r, SO_BASE + 4 * 45), -1234.5f);
    CU_ASSERT_EQUAL(read32(&r, SO_OFFSET_ADDRESS), 180);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 2);
    memcpy(&regs, ((const struct cs_mmio *)r.drained->payload[1])->data, sizeof regs);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0], 3);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0], 4);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0], 180);
    CU_ASSERT_EQUAL(stat(&r, "offset_loads"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.bad_handles"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 12);
    sim_destroy(r.sim);
}

/* A 4-vertex TRISTRIP on stream 1 with Reorder TRAILING: objects (0,1,2) and
 * (2,1,3). Stream 1's decls: register 2 xy to buffer 1, a one-dword hole,
 * register 2 z to buffer 1, register 3 x to buffer 2 (pitches 16 and 8);
 * SO_WRITE_OFFSET1 = 32 by an in-band register write. Rendering enabled with
 * Render Stream Select 1: the strip goes on to CLIP; a stream 0 triangle
 * (no decls: ignored, no counts) stops and is dereferenced. The sync goes
 * on to CLIP with the registers. */
static void test_strip_holes_two_buffers_and_streams(void)
{
    struct rig r = rig_new(false, false);
    fill(&r, 0x30000, 0xCDCDCDCDu, 64);
    fill(&r, 0x40000, 0xCDCDCDCDu, 64);
    /* SO on, rendering on, Render Stream Select 1, TRAILING, statistics;
     * stream 1 reads 2 rows from 0; pitch 1 = 16 (DW3 27:16), pitch 2 = 8 */
    const uint32_t streamout[5] = { 0x781e0003u, 1u << 31 | 1u << 27 | 1u << 26 | 1u << 25,
                                    1u << 8, 16u << 16, 8u };
    command(&r, SPEC_ID_3DSTATE_STREAMOUT, streamout, 5);
    const uint32_t decl[4] = { 2u << 4 | 0x3 | 1u << 12, 0x1 | 1u << 11 | 1u << 12,
                               2u << 4 | 0x4 | 1u << 12, 3u << 4 | 0x1 | 2u << 12 };
    uint32_t list[3 + 8] = { 0x79170000u | (2 * 4 + 1), 0x6u << 4, 4u << 8 };
    for (int i = 0; i < 4; i++) {
        list[3 + 2 * i] = decl[i] << 16;    /* stream 1: DW0 31:16 */
        list[4 + 2 * i] = 0;
    }
    command(&r, SPEC_ID_3DSTATE_SO_DECL_LIST, list, 11);
    so_buffer(&r, 1u << 31 | 1u << 29, 0x30000, 63, 0, 0);
    so_buffer(&r, 1u << 31 | 2u << 29, 0x40000, 63, 0, 0);
    register_write(&r, 0x5284, 32);         /* SO_WRITE_OFFSET1 */
    register_write(&r, 0x2310, 5);          /* IA_VERTICES_COUNT: not SOL's, goes on */
    draw(&r);
    const uint32_t strip[4] = { 0, 1, 2, 3 }, other[3] = { 4, 5, 6 };
    primitive(&r, PRIM_TRISTRIP, 1, 0, strip, 4);
    primitive(&r, PRIM_TRILIST, 0, 0, other, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);

    const uint32_t order[6] = { 0, 1, 2, 2, 1, 3 };
    for (uint32_t v = 0; v < 6; v++) {
        float vue[16];
        vue_of(order[v], vue);
        uint64_t b1 = 0x30000 + 32 + 16 * v, b2 = 0x40000 + 8 * v;
        CU_ASSERT_EQUAL(readf(&r, b1), vue[8]);
        CU_ASSERT_EQUAL(readf(&r, b1 + 4), vue[9]);
        CU_ASSERT_EQUAL(read32(&r, b1 + 8), 0xCDCDCDCDu);     /* the hole */
        CU_ASSERT_EQUAL(readf(&r, b1 + 12), vue[10]);
        CU_ASSERT_EQUAL(readf(&r, b2), vue[12]);
        CU_ASSERT_EQUAL(read32(&r, b2 + 4), 0xCDCDCDCDu);
    }
    CU_ASSERT_EQUAL(read32(&r, 0x30000 + 28), 0xCDCDCDCDu);  /* before the write offset */
    CU_ASSERT_EQUAL(read32(&r, 0x30000 + 32 + 96), 0xCDCDCDCDu);
    CU_ASSERT_EQUAL(read32(&r, 0x40000 + 48), 0xCDCDCDCDu);

    /* CLIP: the strip, unchanged, and the non-SOL register write and the sync */
    CU_ASSERT_EQUAL(r.clip->primitives, 1);
    const struct primitive_packet *p = last_of(r.clip, MSG_PRIMITIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->topology, PRIM_TRISTRIP);
    CU_ASSERT_EQUAL(p->vertex_count, 4);
    CU_ASSERT_EQUAL(p->handles[3], r.handles[3]);
    CU_ASSERT_EQUAL(r.clip->mmio, 2);
    const struct cs_mmio *done = last_of(r.clip, MSG_MMIO);
    CU_ASSERT_EQUAL(done->op, CS_MMIO_SYNC);
    struct pipeline_registers regs;
    memcpy(&regs, done->data, sizeof regs);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + 1], 2);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + 1], 2);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0], 0);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0], 0);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0 + 1], 32 + 6 * 16);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0 + 2], 6 * 8);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_IA_VERTICES], 0xAA00u + PIPE_REG_IA_VERTICES);
    CU_ASSERT_EQUAL(stat(&r, "forwarded"), 1);
    CU_ASSERT_EQUAL(stat(&r, "stopped.other_stream"), 1);
    CU_ASSERT_EQUAL(stat(&r, "register_writes"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);      /* the stream 0 triangle's */
    CU_ASSERT_EQUAL(stat(&r, "urb_reads"), 4);
    CU_ASSERT_EQUAL(stat(&r, "decl_not_selected"), 0);
    sim_destroy(r.sim);
}

/* SO Function Enable clear with rendering on: every stream passes through
 * unchanged, nothing is read or written; SOL's own registers still take
 * in-band writes (SO_NUM_PRIMS_WRITTEN0's two dwords). Then SO on with
 * stream 0 selecting buffer 0 while its SO_BUFFER is disabled: every object
 * overflows (storage needed counts, nothing written). */
static void test_pass_through_and_disabled_buffer(void)
{
    struct rig r = rig_new(true, false);
    const uint32_t off[5] = { 0x781e0003u, 0, 0x01010101u, 0x14u, 0 };
    command(&r, SPEC_ID_3DSTATE_STREAMOUT, off, 5);
    command(&r, SPEC_ID_3DSTATE_SO_DECL_LIST, xfb_decls, 7);
    register_write(&r, 0x5200, 7);
    register_write(&r, 0x5204, 1);
    const uint32_t t0[3] = { 0, 1, 2 }, t1[3] = { 3, 4, 5 };
    primitive(&r, PRIM_TRILIST, 0, 0, t0, 3);
    primitive(&r, PRIM_TRILIST, 2, 0, t1, 3);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.clip->primitives, 2);
    CU_ASSERT_EQUAL(r.clip->mmio, 0);
    CU_ASSERT_EQUAL(stat(&r, "urb_reads"), 0);
    CU_ASSERT_EQUAL(stat(&r, "so_num_prims_written.0"), (double)(7 + (1ull << 32)));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 0);

    fill(&r, SO_BASE, 0x5A5A5A5Au, 16);
    command(&r, SPEC_ID_3DSTATE_STREAMOUT, xfb_streamout, 5);
    so_buffer(&r, 0x01300000u, SO_BASE, 63, SO_OFFSET_ADDRESS, 0);  /* Buffer Enable clear */
    draw(&r);
    const uint32_t t2[3] = { 6, 7, 8 };
    primitive(&r, PRIM_TRILIST, 0, 1, t2, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(read32(&r, SO_BASE), 0x5A5A5A5Au);
    CU_ASSERT_EQUAL(stat(&r, "overflows"), 1);
    CU_ASSERT_EQUAL(stat(&r, "so_prim_storage_needed.0"), 1);
    CU_ASSERT_EQUAL(stat(&r, "so_num_prims_written.0"), (double)(7 + (1ull << 32)));
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 3);
    sim_destroy(r.sim);
}

/* A 5-vertex TRISTRIP as VF sends it - each triangle its own packet in strip
 * order, the odd one marked PRIM_STRIP_ODD (units/common/primitive.h) - then
 * a GS output triangle (typed TRISTRIP_REVERSE, already reordered by the GS,
 * unmarked), with the capture's decls (vec4 + float, pitch 20) and Reorder
 * Mode TRAILING then LEADING. SO order from seed 003's table (L13759-13767),
 * written out here: TRAILING [0] = (0,1,2), [1] = (2,1,3), [2] = (2,3,4);
 * LEADING [0] = (0,1,2), [1] = (1,3,2), [2] = (2,3,4); the GS triangle is
 * streamed as it comes (5,7,6), not reordered a second time. */
static void test_strip_triangles_as_vf_sends_them(void)
{
    static const uint32_t trailing_order[12] = { 0, 1, 2, 2, 1, 3, 2, 3, 4, 5, 7, 6 };
    static const uint32_t leading_order[12] = { 0, 1, 2, 1, 3, 2, 2, 3, 4, 5, 7, 6 };
    for (int trailing = 1; trailing >= 0; trailing--) {
        struct rig r = rig_new(true, false);
        fill(&r, SO_BASE, 0x5A5A5A5Au, 64);
        uint32_t streamout[5];
        memcpy(streamout, xfb_streamout, sizeof streamout);
        streamout[1] = (streamout[1] & ~(1u << 26)) | (uint32_t)trailing << 26;  /* Reorder Mode */
        command(&r, SPEC_ID_3DSTATE_STREAMOUT, streamout, 5);
        command(&r, SPEC_ID_3DSTATE_SO_DECL_LIST, xfb_decls, 7);
        so_buffer(&r, 1u << 31 | 1u << 21, SO_BASE, 63, 0, 0);     /* offset 0 */
        draw(&r);
        const uint32_t t0[3] = { 0, 1, 2 }, t1[3] = { 1, 2, 3 }, t2[3] = { 2, 3, 4 };
        const uint32_t gs[3] = { 5, 7, 6 };
        struct { const uint32_t *v; uint32_t topology, flags; } sent[4] = {
            { t0, PRIM_TRISTRIP, PRIM_START },
            { t1, PRIM_TRISTRIP, PRIM_STRIP_ODD },
            { t2, PRIM_TRISTRIP, PRIM_END },
            { gs, PRIM_TRISTRIP_REVERSE, 0 },
        };
        for (int i = 0; i < 4; i++)
            primitive_flagged(&r, sent[i].topology, sent[i].flags, 0, 0, sent[i].v, 3);
        sync(&r);
        sim_run(r.sim, 0);
        CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);
        const uint32_t *order = trailing ? trailing_order : leading_order;
        for (uint32_t k = 0; k < 60; k++) {
            float vue[16];
            vue_of(order[k / 5], vue);
            float want = k % 5 < 4 ? vue[8 + k % 5] : vue[12];
            CU_ASSERT_EQUAL(readf(&r, SO_BASE + 4 * k), want);
        }
        CU_ASSERT_EQUAL(read32(&r, SO_BASE + 4 * 60), 0x5A5A5A5Au);
        CU_ASSERT_EQUAL(stat(&r, "objects_written"), 4);
        CU_ASSERT_EQUAL(stat(&r, "vertices_written"), 12);
        sim_destroy(r.sim);
    }
}

/* Bad programming is counted, never a crash or a hang: a primitive claiming
 * 40 vertices, a LINELOOP reaching SOL with SO on (not supported after VF:
 * nothing streamed, still dereferenced), Num Entries beyond the SO_DECLs the
 * command carries, a decl naming a buffer outside its stream's selects. */
static void test_bad_programming(void)
{
    struct rig r = rig_new(true, false);
    fill(&r, SO_BASE, 0, 64);
    command(&r, SPEC_ID_3DSTATE_STREAMOUT, xfb_streamout, 5);
    /* 3 entries claimed, 1 carried; its decl writes buffer 1, selects say 0 */
    const uint32_t list[5] = { 0x79170003u, 0x1u, 0x3u, 2u << 4 | 0xF | 1u << 12, 0 };
    command(&r, SPEC_ID_3DSTATE_SO_DECL_LIST, list, 5);
    so_buffer(&r, 1u << 31, SO_BASE, 63, 0, 0);
    struct msg *m = msg_alloc(r.sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->topology = PRIM_TRILIST;
    p->vertex_count = 40;
    CU_ASSERT_TRUE(port_inject(unit_port(r.sol, "gs", 0), m));
    const uint32_t loop[4] = { 0, 1, 2, 3 }, tri[3] = { 4, 5, 6 };
    primitive(&r, PRIM_LINELOOP, 0, 0, loop, 4);
    primitive(&r, PRIM_TRILIST, 0, 0, tri, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(stat(&r, "bad_messages"), 1);
    CU_ASSERT_EQUAL(stat(&r, "unsupported_topology"), 1);
    CU_ASSERT_EQUAL(stat(&r, "decl_list_short"), 1);
    CU_ASSERT_EQUAL(stat(&r, "decl_not_selected"), 3);      /* once per vertex */
    CU_ASSERT_EQUAL(read32(&r, SO_BASE), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "urb.frees"), 7);
    CU_ASSERT_EQUAL(r.drained->count, 1);
    sim_destroy(r.sim);
}

/* ---- Gen7 forms (seed 000) ------------------------------------------------------------ */

/* Gen7 3DSTATE_STREAMOUT (seed 000 L2354-2529): DW1 31 SO Function Enable,
 * 30 Rendering Disable, 28:27 Render Stream Select, 26 Reorder Mode, 25 SO
 * Statistics Enable, 11:8 SO Buffer Enable [3:0]; DW2 stream n's Vertex
 * Read Length (U5-1 rows) at 8n+4:8n and Read Offset at 8n+5. Here: SO on,
 * rendering on, stream 0, LEADING, statistics, stream 0 reads 2 rows from
 * row 0. */
static void gen7_streamout(struct rig *r, uint32_t buffer_enables)
{
    const uint32_t dw[3] = { 0x781e0001u, 1u << 31 | 1u << 25 | buffer_enables << 8, 0x1u };
    command_of_gen(r, 7, SPEC_ID_3DSTATE_STREAMOUT, dw, 3);
}

/* Gen7 3DSTATE_SO_BUFFER (seed 000 L2043-2118): DW1 30:29 index, 11:0
 * Surface Pitch in bytes; DW2 Surface Base Address; DW3 Surface End Address. */
static void gen7_so_buffer(struct rig *r, uint32_t index, uint32_t pitch, uint32_t base, uint32_t end)
{
    const uint32_t dw[4] = { 0x79180002u, index << 29 | pitch, base, end };
    command_of_gen(r, 7, SPEC_ID_3DSTATE_SO_BUFFER, dw, 4);
}

/* Stream 0 to buffers 0 and 1 (Stream to Buffer Selects [0] = 0x3, DW1
 * 3:0), four SO_DECLs (DW2 7:0 Num Entries [0] = 4; SO_DECL: mask 3:0,
 * register 9:4, hole 11, slot 13:12; stream 0's in the low 16 bits of each
 * entry's first dword, seed 000 L2120-2254):
 *   buffer 0: register 1 xyzw (the position, VUE dwords 4-7);
 *   buffer 1: register 2 x and z (VUE dwords 8 and 10), a one-dword hole,
 *             register 3 x (VUE dword 12). */
static const uint32_t gen7_decls[11] = {
    0x79170009u, 0x3u, 0x4u,
    0xF | 1u << 4 | 0u << 12, 0,
    0x5 | 2u << 4 | 1u << 12, 0,
    0x1 | 1u << 11 | 1u << 12, 0,
    0x1 | 3u << 4 | 1u << 12, 0,
};

#define GEN7_BASE0 0x10000u
#define GEN7_BASE1 0x18000u
#define GEN7_PITCH0 16u
#define GEN7_PITCH1 20u
#define GEN7_START1 8u          /* SO_WRITE_OFFSET1 loaded through the register path */
#define SENTINEL 0x5A5A5A5Au

/* Three triangles into two buffers: buffer 0 ends exactly after two
 * triangles (6 x 16 bytes), buffer 1 (pitch 20, from SO_WRITE_OFFSET1 = 8)
 * would hold three. The third triangle overflows buffer 0, so it writes to
 * neither (an object is written whole or not at all, seed 003 L13782-13792;
 * the Gen7 enable text of seed 000 L2467-2474 says the same of a disabled
 * buffer). Expected bytes are the VUE dwords the decls name, at the offsets
 * the pitches give; the hole and the fifth dword of each buffer 1 vertex
 * keep their sentinel. */
static void test_gen7_two_buffers_and_overflow(void)
{
    struct rig r = rig_new(true, true);
    fill(&r, GEN7_BASE0, SENTINEL, 64);
    fill(&r, GEN7_BASE1, SENTINEL, 64);
    gen7_streamout(&r, 0x3);
    command_of_gen(&r, 7, SPEC_ID_3DSTATE_SO_DECL_LIST, gen7_decls, 11);
    gen7_so_buffer(&r, 0, GEN7_PITCH0, GEN7_BASE0, GEN7_BASE0 + 6 * GEN7_PITCH0);
    gen7_so_buffer(&r, 1, GEN7_PITCH1, GEN7_BASE1, GEN7_BASE1 + GEN7_START1 + 9 * GEN7_PITCH1);
    register_write(&r, 0x5280u, 0);             /* SO_WRITE_OFFSET0 (MI_LOAD_REGISTER_IMM) */
    register_write(&r, 0x5284u, GEN7_START1);   /* SO_WRITE_OFFSET1 */
    const uint32_t d7[7] = { 0x7B000005u, 4, 9, 0, 1, 0, 0 };  /* Gen7 3DPRIMITIVE */
    command_of_gen(&r, 7, SPEC_ID_3DPRIMITIVE, d7, 7);
    const uint32_t t0[3] = { 0, 1, 2 }, t1[3] = { 3, 4, 5 }, t2[3] = { 6, 7, 8 };
    primitive(&r, PRIM_TRILIST, 0, 0, t0, 3);
    primitive(&r, PRIM_TRILIST, 0, 0, t1, 3);
    primitive(&r, PRIM_TRILIST, 0, 0, t2, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);

    for (uint32_t v = 0; v < 6; v++) {
        float vue[16];
        vue_of(v, vue);
        for (uint32_t c = 0; c < 4; c++)
            CU_ASSERT_EQUAL(read32(&r, GEN7_BASE0 + GEN7_PITCH0 * v + 4 * c), bits_of(vue[4 + c]));
        uint64_t at = GEN7_BASE1 + GEN7_START1 + GEN7_PITCH1 * v;
        CU_ASSERT_EQUAL(read32(&r, at + 0), bits_of(vue[8]));
        CU_ASSERT_EQUAL(read32(&r, at + 4), bits_of(vue[10]));
        CU_ASSERT_EQUAL(read32(&r, at + 8), SENTINEL);      /* the hole */
        CU_ASSERT_EQUAL(read32(&r, at + 12), bits_of(vue[12]));
        CU_ASSERT_EQUAL(read32(&r, at + 16), SENTINEL);     /* beyond the decls, within the pitch */
    }
    /* nothing of the third triangle, nor before buffer 1's start offset */
    for (uint32_t k = 0; k < 16; k++)
        CU_ASSERT_EQUAL(read32(&r, GEN7_BASE0 + 6 * GEN7_PITCH0 + 4 * k), SENTINEL);
    CU_ASSERT_EQUAL(read32(&r, GEN7_BASE1), SENTINEL);
    CU_ASSERT_EQUAL(read32(&r, GEN7_BASE1 + 4), SENTINEL);
    for (uint32_t k = 0; k < 15; k++)
        CU_ASSERT_EQUAL(read32(&r, GEN7_BASE1 + GEN7_START1 + 6 * GEN7_PITCH1 + 4 * k), SENTINEL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(r.drained);
    CU_ASSERT_EQUAL_FATAL(r.drained->count, 1);
    const struct cs_mmio *done = (const struct cs_mmio *)r.drained->payload[0];
    struct pipeline_registers regs;
    memcpy(&regs, done->data, sizeof regs);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0], 2);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0], 3);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0], 6 * GEN7_PITCH0);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0 + 1], GEN7_START1 + 6 * GEN7_PITCH1);
    CU_ASSERT_EQUAL(regs.value[PIPE_REG_SO_WRITE_OFFSET0 + 2], 0);
    CU_ASSERT_EQUAL(stat(&r, "objects_written"), 2);
    CU_ASSERT_EQUAL(stat(&r, "overflows"), 1);
    CU_ASSERT_EQUAL(stat(&r, "bytes_written"), 6 * (16 + 12));
    CU_ASSERT_EQUAL(stat(&r, "unsupported_generation"), 0);
    CU_ASSERT_EQUAL(stat(&r, "offset_loads"), 0);
    CU_ASSERT_EQUAL(stat(&r, "offset_stores"), 0);
    CU_ASSERT_EQUAL(stat(&r, "register_writes"), 2);
    /* rendering is on and stream 0 is the render stream: all go on to CLIP */
    CU_ASSERT_EQUAL(r.clip->primitives, 3);
    sim_destroy(r.sim);
}

/* A Gen7 buffer takes part only when 3DSTATE_STREAMOUT enables it and its
 * 3DSTATE_SO_BUFFER binds it (nonzero pitch, seed 000 L2103): either missing,
 * a stream selecting it overflows (L2467-2474); an end below the base is
 * counted and taken as unbound. Enables and bindings may come in any order. */
static void test_gen7_enables_and_bindings(void)
{
    struct rig r = rig_new(true, false);
    fill(&r, GEN7_BASE0, SENTINEL, 64);
    fill(&r, GEN7_BASE1, SENTINEL, 64);
    command_of_gen(&r, 7, SPEC_ID_3DSTATE_SO_DECL_LIST, gen7_decls, 11);
    const uint32_t tri[3] = { 0, 1, 2 };
    gen7_streamout(&r, 0x3);
    gen7_so_buffer(&r, 0, GEN7_PITCH0, GEN7_BASE0, GEN7_BASE0 + 256);
    gen7_so_buffer(&r, 1, 0, GEN7_BASE1, GEN7_BASE1 + 256);             /* pitch 0: unbound */
    primitive(&r, PRIM_TRILIST, 0, 0, tri, 3);
    gen7_so_buffer(&r, 1, GEN7_PITCH1, GEN7_BASE1 + 256, GEN7_BASE1);   /* end below base */
    primitive(&r, PRIM_TRILIST, 0, 0, tri, 3);
    gen7_so_buffer(&r, 1, GEN7_PITCH1, GEN7_BASE1, GEN7_BASE1 + 256);   /* bound ... */
    gen7_streamout(&r, 0x1);                                            /* ... not enabled */
    primitive(&r, PRIM_TRILIST, 0, 0, tri, 3);
    gen7_streamout(&r, 0x3);                                            /* both: written */
    primitive(&r, PRIM_TRILIST, 0, 0, tri, 3);
    sync(&r);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(stat(&r, "bad_so_buffer"), 1);
    CU_ASSERT_EQUAL(stat(&r, "objects"), 4);
    CU_ASSERT_EQUAL(stat(&r, "overflows"), 3);
    CU_ASSERT_EQUAL(stat(&r, "objects_written"), 1);
    CU_ASSERT_EQUAL(stat(&r, "so_prim_storage_needed.0"), 4);
    CU_ASSERT_EQUAL(stat(&r, "so_num_prims_written.0"), 1);
    float vue[16];
    vue_of(0, vue);
    CU_ASSERT_EQUAL(read32(&r, GEN7_BASE0), bits_of(vue[4]));
    CU_ASSERT_EQUAL(read32(&r, GEN7_BASE1), bits_of(vue[8]));
    CU_ASSERT_EQUAL(read32(&r, GEN7_BASE0 + 3 * GEN7_PITCH0), SENTINEL);
    CU_ASSERT_EQUAL(stat(&r, "so_write_offset.0"), 3 * GEN7_PITCH0);
    CU_ASSERT_EQUAL(stat(&r, "so_write_offset.1"), 3 * GEN7_PITCH1);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "object order", test_object_order },
    { "capture programming and overflow", test_capture_programming_and_overflow },
    { "strip, holes, two buffers and streams", test_strip_holes_two_buffers_and_streams },
    { "pass through and disabled buffer", test_pass_through_and_disabled_buffer },
    { "strip triangles as VF sends them", test_strip_triangles_as_vf_sends_them },
    { "bad programming", test_bad_programming },
    { "Gen7 two buffers and overflow", test_gen7_two_buffers_and_overflow },
    { "Gen7 enables and bindings", test_gen7_enables_and_bindings },
    { 0 }
};
TEST_SUITE(sol, cases);
