/* tests/units/test_wm_gen4.c - the Gen4 (965G) back half (issue 14 item 3):
 * WM's Gen4 state through 3DSTATE_PIPELINED_POINTERS and its PS payload
 * (seed 001 L18251-19005, units/wm/wm_gen4.h), the setup URB rows read from
 * the URB and the entry handed back, bad pointers; and a set-up triangle
 * through the real WM, TD, EU (running the g965_tri capture's own SIMD16
 * pixel shader), math and om into a linear RGBA8 surface, compared pixel by
 * pixel with an independent computation of coverage and of the kernel's
 * interpolation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen4_pack.h"
#include "tests/support/probes.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/gen4_cc.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"
#include "units/eu/eu.h"
#include "units/math/math.h"
#include "units/om/om.h"
#include "units/sf/sf_setup.h"
#include "units/td/td.h"
#include "units/wm/wm.h"

#define GENERAL_BASE 0x100000u
#define SURFACE_BASE 0x200000u
#define RT_BASE 0x300000u
#define CURBE_ADDRESS 0x380000u
#define KSP 0x1000u
#define WM_STATE_OFFSET 0x340u
#define CC_STATE_OFFSET 0x240u
#define CC_VIEWPORT_OFFSET 0x1e0u
#define BINDING_TABLE 0x1a0u
#define SURFACE_STATE 0x1c0u
#define SETUP_HANDLE 5u
#define RT_SIZE 32u

/* The g965_tri capture's SIMD16 pixel shader (g965_tri.aubinator.txt "WM
 * State Table ... Referenced SIMD16 fragment shader", kernel at 0x1e0c0),
 * its 30 instructions copied from g965_tri.aub.gz: pixel X/Y from R1.2-R1.5,
 * minus Xstart/Ystart (R1.0/R1.1), a 1/W plane (setup row 1, dwords 4-7)
 * inverted by the math SEND, four colour planes (rows 2-3) multiplied by it,
 * and the SIMD16 RT write with EOT (descriptor 0x85a04800). */
static const uint32_t capture_ps[30][4] = {
    { 0x00800040, 0x20406d29, 0x00480028, 0x10101010 },
    { 0x00800040, 0x20c06d29, 0x0048002a, 0x11001100 },
    { 0x00802040, 0x2f80753d, 0x008d0040, 0x00004020 },
    { 0x00802040, 0x2fc0753d, 0x008d00c0, 0x00004024 },
    { 0x00802059, 0x200077bc, 0x00000070, 0x008d0f80 },
    { 0x00802048, 0x20c077bd, 0x00000074, 0x008d0fc0 },
    { 0x02600031, 0x20400fbd, 0x008d00c0, 0x01110001 },
    { 0x00802059, 0x200077bc, 0x00000080, 0x008d0f80 },
    { 0x00802048, 0x210077bd, 0x00000084, 0x008d0fc0 },
    { 0x02601031, 0x20600fbd, 0x008d00e0, 0x01110001 },
    { 0x00802041, 0x214077bd, 0x008d0100, 0x008d0040 },
    { 0x00802059, 0x200077bc, 0x00000090, 0x008d0f80 },
    { 0x00802048, 0x20c077bd, 0x00000094, 0x008d0fc0 },
    { 0x00600001, 0x206003be, 0x008d0140, 0x00000000 },
    { 0x00601001, 0x20e003be, 0x008d0160, 0x00000000 },
    { 0x00802041, 0x210077bd, 0x008d00c0, 0x008d0040 },
    { 0x00802059, 0x200077bc, 0x000000a0, 0x008d0f80 },
    { 0x00802048, 0x20c077bd, 0x000000a4, 0x008d0fc0 },
    { 0x00600001, 0x208003be, 0x008d0100, 0x00000000 },
    { 0x00601001, 0x210003be, 0x008d0120, 0x00000000 },
    { 0x00802041, 0x210077bd, 0x008d00c0, 0x008d0040 },
    { 0x00802059, 0x200077bc, 0x000000b0, 0x008d0f80 },
    { 0x00802048, 0x20c077bd, 0x000000b4, 0x008d0fc0 },
    { 0x00600001, 0x20a003be, 0x008d0100, 0x00000000 },
    { 0x00601001, 0x212003be, 0x008d0120, 0x00000000 },
    { 0x00802041, 0x208077bd, 0x008d00c0, 0x008d0040 },
    { 0x00600001, 0x20c003be, 0x008d0080, 0x00000000 },
    { 0x00601001, 0x214003be, 0x008d00a0, 0x00000000 },
    { 0x00600201, 0x20400022, 0x008d0020, 0x00000000 },
    { 0x01800031, 0x20000d28, 0x008d0000, 0x85a04800 },
};

static uint32_t fbits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static float bitsf(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static void put(struct gpu_memory *mem, uint64_t address, const void *data, size_t bytes)
{
    CU_ASSERT_EQUAL(gpu_memory_write(mem, address, data, bytes, NULL), 0);
}

/* WM_STATE (SIMD16 only, GRF start 2, setup rows 0-3, constants as given)
 * and CC_STATE (no depth, no blend) with its CC_VIEWPORT, at GENERAL_BASE. */
static void write_unit_states(struct gpu_memory *mem, uint32_t constant_offset,
                              uint32_t constant_length)
{
    struct GEN4_WM_STATE w = {
        .KernelStartPointer0 = KSP, .GRFRegisterCount0 = 7, .BindingTableEntryCount = 1,
        .DispatchGRFStartRegisterForConstantSetupData0 = 2, .SetupURBEntryReadOffset = 0,
        .SetupURBEntryReadLength = 4, .ConstantURBEntryReadOffset = constant_offset,
        .ConstantURBEntryReadLength = constant_length, ._16PixelDispatchEnable = true,
        .EarlyDepthTestEnable = true, .ThreadDispatchEnable = true, .MaximumNumberOfThreads = 31,
        .StatisticsEnable = true, .DepthCoefficientURBReadOffset = 1,
    };
    uint32_t dw[8];
    CU_ASSERT_EQUAL(GEN4_WM_STATE_pack(dw, &w), 0);
    put(mem, GENERAL_BASE + WM_STATE_OFFSET, dw, sizeof dw);
    struct GEN4_COLOR_CALC_STATE cc = { .CCViewportStatePointer = CC_VIEWPORT_OFFSET,
                                        .AlphaTestFormat = 1 };
    CU_ASSERT_EQUAL(GEN4_COLOR_CALC_STATE_pack(dw, &cc), 0);
    put(mem, GENERAL_BASE + CC_STATE_OFFSET, dw, sizeof dw);
    float vp[2] = { 0.0f, 1.0f };
    put(mem, GENERAL_BASE + CC_VIEWPORT_OFFSET, vp, sizeof vp);
}

/* A Gen4 state packet (only the generation-neutral body: what the units read). */
static struct msg *gen4_msg(struct sim *sim, uint32_t id, uint32_t dwords, size_t body,
                            void **common)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(sim, MSG_STATE, (uint32_t)(off + body));
    memset(m->payload, 0, off + body);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 4;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *common = (uint8_t *)p + off;
    return m;
}

/* The state packets; the pointers' packet in address space `space` (a Gen4
 * GTT with no entries: every pointer is outside memory). */
static void send_gen4_state(struct sim *sim, struct port *in, uint32_t wm_pointer,
                            enum gpu_address_space_format space)
{
    struct spec_STATE_BASE_ADDRESS *b;
    struct msg *m = gen4_msg(sim, SPEC_ID_STATE_BASE_ADDRESS, 6, sizeof *b, (void **)&b);
    b->GeneralStateBaseAddressModifyEnable = b->SurfaceStateBaseAddressModifyEnable = true;
    b->GeneralStateBaseAddress = GENERAL_BASE;
    b->SurfaceStateBaseAddress = SURFACE_BASE;
    CU_ASSERT_TRUE(port_inject(in, m));
    struct spec_3DSTATE_BINDING_TABLE_POINTERS *t;
    m = gen4_msg(sim, SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS, 6, sizeof *t, (void **)&t);
    t->PointerToPSBindingTable = BINDING_TABLE;
    CU_ASSERT_TRUE(port_inject(in, m));
    struct spec_CONSTANT_BUFFER *c;
    m = gen4_msg(sim, SPEC_ID_CONSTANT_BUFFER, 2, sizeof *c, (void **)&c);
    c->Valid = true;
    c->BufferLength = 1;            /* two 512-bit units: 4 registers */
    c->BufferStartingAddress = CURBE_ADDRESS;
    CU_ASSERT_TRUE(port_inject(in, m));
    struct spec_3DSTATE_PIPELINED_POINTERS *p;
    m = gen4_msg(sim, SPEC_ID_3DSTATE_PIPELINED_POINTERS, 7, sizeof *p, (void **)&p);
    p->PointerToWMState = wm_pointer;
    p->PointerToColorCalcState = CC_STATE_OFFSET;
    ((struct cs_state_packet *)m->payload)->space_format = space;
    CU_ASSERT_TRUE(port_inject(in, m));
}

/* ---- WM alone: the payload ------------------------------------------------------------ */

/* The rig's triangle (8,4) (12,4) (8,8): pixel centres with i + j < 3 from
 * (8, 4) are inside (6 pixels), in subspans (8,4) all four, (10,4) UL,
 * (8,6) UL in rasterization order: one SIMD16 thread. */
static void test_payload(void)
{
    struct wm_rig r = wm_rig_new();
    uint32_t curbe[4][8];
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t j = 0; j < 8; j++)
            curbe[i][j] = 100u * i + j;
    put(r.mem, CURBE_ADDRESS, curbe, sizeof curbe);
    write_unit_states(r.mem, 1, 2);
    send_gen4_state(r.sim, unit_port(r.wm, "sf", 0), WM_STATE_OFFSET, GPU_ADDRESS_SPACE_PHYSICAL);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    p.setup_urb_rows = 0;
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 1);
    const struct eu_dispatch *d = &r.td->head[0];
    CU_ASSERT_EQUAL(d->simd, 16);
    CU_ASSERT_EQUAL(d->kernel_offset, KSP);
    CU_ASSERT_EQUAL(d->inst_base, GENERAL_BASE);    /* Gen4 KSPs are General State offsets */
    CU_ASSERT_EQUAL(d->gen, 4);
    CU_ASSERT_EQUAL(d->dmask, 0xfffu);              /* three subspans, all channels */
    /* GRF start 2 + constants 2 + setup 4 */
    CU_ASSERT_EQUAL(d->grf_count, 8);
    const uint32_t (*g)[8] = (const uint32_t (*)[8])r.td->grf[0];
    uint32_t mask = 0xfu | 0x1u << 4 | 0x1u << 8;
    CU_ASSERT_EQUAL(g[0][0], mask << 16 | mask);
    CU_ASSERT_EQUAL(g[0][1], CC_STATE_OFFSET);
    CU_ASSERT_EQUAL(g[0][4], BINDING_TABLE);
    CU_ASSERT_EQUAL(g[1][0], fbits(p.x0));
    CU_ASSERT_EQUAL(g[1][1], fbits(p.y0));
    CU_ASSERT_EQUAL(g[1][2], 8u | 4u << 16);
    CU_ASSERT_EQUAL(g[1][3], 10u | 4u << 16);
    CU_ASSERT_EQUAL(g[1][4], 8u | 6u << 16);
    CU_ASSERT_EQUAL(g[1][6], ((p.flags & PRIM_BACK_FACING) ? 1u << 31 : 0) | PRIM_TRILIST);
    CU_ASSERT_EQUAL(g[1][7], 0);
    /* Constant URB Entry Read Offset 1, Length 2: CURBE rows 1 and 2 at R2 */
    for (uint32_t j = 0; j < 8; j++) {
        CU_ASSERT_EQUAL(g[2][j], 100u + j);
        CU_ASSERT_EQUAL(g[3][j], 200u + j);
        CU_ASSERT_EQUAL(g[4][j], 0);    /* no setup entry: zero rows */
    }
    CU_ASSERT_EQUAL(d->ctx.subspans, 3);
    CU_ASSERT_EQUAL(d->ctx.pixel_mask, mask);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "gen4.pointers"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.threads16"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.invocations"), 6);  /* Statistics Enable */
    /* CC_STATE and the pointers went on to the back end */
    uint32_t pointers = 0;
    for (uint32_t i = 0; i < r.om->count && i < WM_CATCH_MAX; i++)
        pointers += r.om->state_id[i] == SPEC_ID_3DSTATE_PIPELINED_POINTERS;
    CU_ASSERT_EQUAL(pointers, 1);
    sim_destroy(r.sim);
}

/* A WM_STATE pointer outside memory (unmapped in the GTT): counted, WM disabled (no thread), the
 * primitive still rasterized; a good pointer afterwards dispatches again. */
static void test_bad_pointer(void)
{
    struct wm_rig r = wm_rig_new();
    write_unit_states(r.mem, 0, 0);
    send_gen4_state(r.sim, unit_port(r.wm, "sf", 0), WM_STATE_OFFSET, GPU_ADDRESS_SPACE_GTT_GEN4);
    struct setup_primitive p = wm_rig_triangle(8, 4);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "gen4.bad_pointers"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.primitives"), 1);
    send_gen4_state(r.sim, unit_port(r.wm, "sf", 0), WM_STATE_OFFSET, GPU_ADDRESS_SPACE_PHYSICAL);
    wm_rig_send_setup(&r, &p);
    wm_rig_run(&r, 40);
    CU_ASSERT_EQUAL(r.td->count, 1);
    sim_destroy(r.sim);
}

/* ---- a URB stub: answers setup reads, counts dereferences ----------------------------- */

struct urb_stub {
    struct port *in, *out;
    uint32_t handle;
    uint8_t rows[8][URB_ROW_BYTES];
    uint32_t reads, last_row, last_rows, derefs, deref_handle, wrong_handle;
};

static const struct port_desc urb_stub_ports[] = {
    { .name = "in", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB), .help = "requests" },
    { .name = "out", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB), .help = "replies" },
    PORT_END
};

static int urb_stub_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct urb_stub *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity urb_stub_tick(struct unit *u)
{
    struct urb_stub *s = unit_state(u);
    struct msg *m;
    while (port_can_send(s->out) && (m = port_pop(s->in)) != NULL) {
        const struct urb_msg *q = (const struct urb_msg *)m->payload;
        if (q->op == URB_OP_DEREFERENCE) {
            s->derefs++;
            s->deref_handle = q->handles[0];
        } else if (q->op == URB_OP_READ) {
            s->reads++;
            s->last_row = q->row;
            s->last_rows = q->rows;
            if (q->handles[0] != s->handle)
                s->wrong_handle++;
            uint32_t rows = q->rows;
            struct msg *r = msg_alloc(unit_sim(u), MSG_URB,
                                      (uint32_t)(sizeof(struct urb_msg) + rows * URB_ROW_BYTES));
            struct urb_msg *a = (struct urb_msg *)r->payload;
            memset(a, 0, sizeof *a + rows * URB_ROW_BYTES);
            a->op = URB_OP_DATA;
            a->tag = q->tag;
            a->row = q->row;
            a->rows = rows;
            for (uint32_t i = 0; i < rows; i++)
                if (q->row + i < 8)
                    memcpy(a->data[i], s->rows[q->row + i], URB_ROW_BYTES);
            port_try_send(s->out, r);
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops urb_stub_ops = {
    .kind = "test_urb_stub",
    .state_size = sizeof(struct urb_stub),
    .ports = urb_stub_ports,
    .realize = urb_stub_realize,
    .tick = urb_stub_tick,
};

/* ---- WM + TD + EU + math + om: the capture's kernel draws a triangle ------------------- */

struct plane4 {
    float cx, cy, c0;
};

/* Setup row dwords 4k .. 4k+3 = Cx, Cy, reserved, C0 (seed 001 L18985-19000). */
static void put_plane(uint8_t row[URB_ROW_BYTES], uint32_t half, struct plane4 pl)
{
    uint32_t v[4] = { fbits(pl.cx), fbits(pl.cy), 0, fbits(pl.c0) };
    memcpy(row + 16 * half, v, 16);
}

static bool near_edge(double d)
{
    return fabs(d) < 1e-3;
}

static void test_capture_kernel_draws(void)
{
    struct sim *sim = probe_sim(NULL);
    struct gpu_memory *mem = probe_memory(sim);
    static const char *const om_gen4[] = { "gen=4", NULL };
    struct unit *wm = probe_add(sim, &wm_ops, "wm", NULL);
    struct unit *urb = probe_add(sim, &urb_stub_ops, "urb", NULL);
    struct unit *td = probe_add(sim, &td_ops, "td", NULL);
    struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
    struct unit *math = probe_add(sim, &math_ops, "math", NULL);
    struct unit *om = probe_add(sim, &om_ops, "om", om_gen4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    probe_link(sim, wm, "td[0]", td, "wm", 1, 16, 1);
    probe_link(sim, td, "eu[0]", eu, "dispatch", 1, 16, 1);
    probe_link(sim, eu, "td", td, "eu_end[0]", 1, 16, 1);
    probe_link(sim, eu, "sfid[1]", math, "eu[0]", 1, 16, 1);
    probe_link(sim, math, "eu_reply[0]", eu, "writeback[1]", 1, 16, 1);
    probe_link(sim, eu, "sfid[5]", om, "eu[0]", 1, 16, 1);
    probe_link(sim, om, "eot_ps", wm, "eot[0]", 1, 16, 1);
    probe_link(sim, wm, "om[0]", om, "wm", 1, 16, 1);
    probe_link(sim, wm, "urb", urb, "in", 1, 16, 1);
    probe_link(sim, urb, "out", wm, "urb_reply", 1, 16, 1);
    /* WM's "sf" input is fed by injection (its first one binds it) */
    send_gen4_state(sim, unit_port(wm, "sf", 0), WM_STATE_OFFSET, GPU_ADDRESS_SPACE_PHYSICAL);
    struct gt_error err;
    int rc = sim_realize(sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);

    /* state in memory: the kernel, WM_STATE, CC_STATE, binding table, RT */
    put(mem, GENERAL_BASE + KSP, capture_ps, sizeof capture_ps);
    write_unit_states(mem, 0, 0);
    uint32_t entry = SURFACE_STATE;
    put(mem, SURFACE_BASE + BINDING_TABLE, &entry, 4);
    struct GEN4_RENDER_SURFACE_STATE ss = {
        .SurfaceType = 1, .SurfaceFormat = 199 /* R8G8B8A8_UNORM */, .SurfaceBaseAddress = RT_BASE,
        .Width = RT_SIZE - 1, .Height = RT_SIZE - 1, .SurfacePitch = 4 * RT_SIZE - 1,
    };
    uint32_t dw[5];
    CU_ASSERT_EQUAL(GEN4_RENDER_SURFACE_STATE_pack(dw, &ss), 0);
    put(mem, SURFACE_BASE + SURFACE_STATE, dw, sizeof dw);
    static uint32_t background[RT_SIZE * RT_SIZE];
    for (uint32_t i = 0; i < RT_SIZE * RT_SIZE; i++)
        background[i] = 0x11223344u;
    put(mem, RT_BASE, background, sizeof background);

    /* the SF thread's setup rows: 0 position (unused), 1 depth | 1/W plane,
     * 2 R | G, 3 B | A */
    struct urb_stub *st = unit_state(urb);
    st->handle = SETUP_HANDLE;
    const struct plane4 w = { 0, 0, 1.0f }, red = { 1.0f / 32, 0, 0.125f },
                        green = { 0, 1.0f / 32, 0.0625f }, blue = { 1.0f / 64, 1.0f / 64, 0.25f },
                        alpha = { 0, 0, 1.0f };
    put_plane(st->rows[0], 0, (struct plane4){ 7, 7, 7 });
    put_plane(st->rows[1], 0, (struct plane4){ 0, 0, 0.5f });
    put_plane(st->rows[1], 1, w);
    put_plane(st->rows[2], 0, red);
    put_plane(st->rows[2], 1, green);
    put_plane(st->rows[3], 0, blue);
    put_plane(st->rows[3], 1, alpha);

    struct sf_setup_state sst = {
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = RT_SIZE - 1, .clip_y_max = RT_SIZE - 1,
    };
    const float vx[3] = { 2.25f, 27.5f, 6.75f }, vy[3] = { 3.0f, 5.5f, 29.25f };
    struct sf_setup_vertex v[3];
    for (int i = 0; i < 3; i++)
        v[i] = (struct sf_setup_vertex){ vx[i], vy[i], 0.5f, 1.0f };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL_FATAL(sf_setup_object(&sst, v, false, &p), SF_SETUP_OK);
    p.topology = PRIM_TRILIST;
    p.setup_urb_handle = SETUP_HANDLE;
    p.setup_urb_rows = 4;
    struct msg *m = msg_alloc(sim, MSG_SETUP, sizeof p);
    memcpy(m->payload, &p, sizeof p);
    CU_ASSERT_TRUE(port_inject(unit_port(wm, "sf", 0), m));
    sim_run(sim, sim_now(sim) + 200000 * 1000ull);

    /* the setup entry: read once (rows 0-3 of SETUP_HANDLE), handed back once */
    CU_ASSERT_EQUAL(st->reads, 1);
    CU_ASSERT_EQUAL(st->last_row, 0);
    CU_ASSERT_EQUAL(st->last_rows, 4);
    CU_ASSERT_EQUAL(st->wrong_handle, 0);
    CU_ASSERT_EQUAL(st->derefs, 1);
    CU_ASSERT_EQUAL(st->deref_handle, SETUP_HANDLE);

    /* every pixel: inside (centre strictly inside the three edges, pixels
     * whose centre lies on an edge skipped: the top-left rule decides them)
     * holds the kernel's value, R = 0.125 + (x - Xstart) / 32 and so on with
     * X, Y the pixel's integer coordinates and Xstart = vertex 0's x; outside
     * keeps the background */
    static uint32_t out[RT_SIZE * RT_SIZE];
    CU_ASSERT_EQUAL(gpu_memory_read(mem, RT_BASE, out, sizeof out, NULL), 0);
    uint32_t inside = 0, checked = 0, bad = 0;
    double area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vy[1] - vy[0]) * (vx[2] - vx[0]);
    for (uint32_t y = 0; y < RT_SIZE; y++)
        for (uint32_t x = 0; x < RT_SIZE; x++) {
            double px = x + 0.5, py = y + 0.5, e[3];
            for (int i = 0; i < 3; i++) {
                int j = (i + 1) % 3;
                e[i] = ((vx[j] - vx[i]) * (py - vy[i]) - (vy[j] - vy[i]) * (px - vx[i])) /
                       (area > 0 ? 1.0 : -1.0);
            }
            if (near_edge(e[0]) || near_edge(e[1]) || near_edge(e[2]))
                continue;
            bool in = e[0] > 0 && e[1] > 0 && e[2] > 0;
            uint32_t got = out[y * RT_SIZE + x];
            checked++;
            if (!in) {
                if (got != 0x11223344u && bad < 8)
                    fprintf(stderr, "(%u,%u) outside got 0x%08x\n", x, y, got);
                bad += got != 0x11223344u;
                continue;
            }
            inside++;
            double dx = (double)x - p.x0, dy = (double)y - p.y0;
            const struct plane4 *pl[4] = { &red, &green, &blue, &alpha };
            for (int c = 0; c < 4; c++) {
                double value = pl[c]->cx * dx + pl[c]->cy * dy + pl[c]->c0;
                value = value < 0 ? 0 : value > 1 ? 1 : value;
                double want = floor(value * 255.0 + 0.5);
                double have = (double)((got >> (8 * c)) & 0xffu);
                if (fabs(have - want) > 1.0 && bad < 8)
                    fprintf(stderr, "(%u,%u) c%d have %g want %g got 0x%08x\n", x, y, c, have,
                            want, got);
                bad += fabs(have - want) > 1.0;
            }
        }
    CU_ASSERT_EQUAL(bad, 0);
    if (bad) {
        static const char *const names[] = { "om.pixels_written", "wm.ps.pixels", "om.messages",
            "om.unsupported_messages", "om.bad_state", "om.state_read_failures", "om.out_of_bounds",
            "om.pixels_discarded", "om.unsupported_formats", "om.page_faults", "om.no_positions",
            "wm.threads.dispatched", "eu.threads_ended", "om.rt_write.simd16", "wm.raster.pixels", NULL };
        for (int i = 0; names[i]; i++)
            fprintf(stderr, "%s = %g\n", names[i], probe_stat(sim, names[i]));
    }
    CU_ASSERT_TRUE(inside > 200);
    CU_ASSERT_TRUE(checked > 900);
    CU_ASSERT_EQUAL(probe_stat(sim, "wm.gen4.setup_reads"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "wm.threads.ended"), probe_stat(sim, "wm.threads.dispatched"));
    CU_ASSERT_EQUAL(probe_stat(sim, "om.pixels_written"), probe_stat(sim, "wm.ps.pixels"));
    CU_ASSERT_EQUAL(probe_stat(sim, "om.bad_messages"), 0);
    (void)bitsf;
    sim_destroy(sim);
}

/* Gen4's D24_UNORM_S8_UINT depth buffer (seed 001 L17094-17653, Y-major
 * tiled; L19328-19363: the stencil test reads the S8 of D24_UNORM_S8_UINT)
 * as two views of each 32-bit element: depth bytes 2:0, stencil byte 3. A
 * depth write keeps the stencil byte and a stencil write the depth. The
 * Y-tile address is worked out here: 128-byte x 32-row tiles of 16-byte
 * columns, 32 rows each. */
static void test_d24s8_stencil_view(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct gpu_address_space as;
    gpu_address_space_init(&as, mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    const uint64_t base = 0x40000;
    struct spec_3DSTATE_DEPTH_BUFFER v;
    memset(&v, 0, sizeof v);
    v.SurfaceType = 1;                  /* 2D */
    v.SurfaceFormat = DS_D24_UNORM_S8_UINT;
    v.TiledSurface = true;
    v.TileWalk = 1;                     /* Y major */
    v.SurfacePitch = 256 - 1;
    v.SurfaceBaseAddress = base;
    v.Width = v.Height = 64 - 1;
    struct ds_surface depth, stencil;
    uint32_t format;
    CU_ASSERT_TRUE_FATAL(gen4_depth_buffer(&v, &depth, &stencil, &format));
    CU_ASSERT_EQUAL(format, DS_D24_UNORM_X8_UINT);
    CU_ASSERT_TRUE_FATAL(stencil.valid);
    /* pixel (37, 45): byte column 148 = tile 1 (4096 bytes on), 16-byte
     * column 1 (512 on), row 45 = tile row 1 (256 x 32 on), row 13 in it */
    uint64_t want = base + 256 * 32 + 4096 + 512 + 13 * 16 + (148 % 16), at;
    CU_ASSERT_TRUE(ds_surface_address(&depth, 37, 45, 0, &at));
    CU_ASSERT_EQUAL(at, want);
    CU_ASSERT_TRUE(ds_surface_address(&stencil, 37, 45, 0, &at));
    CU_ASSERT_EQUAL(at, want + 3);
    uint32_t fill = 0x5a000000u | 0x123456u, got = 0;
    gpu_memory_write(mem, want, &fill, 4, &err);
    CU_ASSERT_TRUE(ds_surface_write(&depth, &as, 37, 45, 0, 0xabcdefu));
    gpu_memory_read(mem, want, &got, 4, &err);
    CU_ASSERT_EQUAL(got, 0x5aabcdefu);
    CU_ASSERT_TRUE(ds_surface_write(&stencil, &as, 37, 45, 0, 0x81u));
    gpu_memory_read(mem, want, &got, 4, &err);
    CU_ASSERT_EQUAL(got, 0x81abcdefu);
    uint32_t value = 0;
    CU_ASSERT_TRUE(ds_surface_read(&stencil, &as, 37, 45, 0, &value));
    CU_ASSERT_EQUAL(value, 0x81u);
    CU_ASSERT_TRUE(ds_surface_read(&depth, &as, 37, 45, 0, &value));
    CU_ASSERT_EQUAL(value, 0xabcdefu);
    /* D24_UNORM_X8_UINT has no stencil view */
    v.SurfaceFormat = DS_D24_UNORM_X8_UINT;
    CU_ASSERT_TRUE(gen4_depth_buffer(&v, &depth, &stencil, &format));
    CU_ASSERT_FALSE(stencil.valid);
    gpu_memory_destroy(mem);
}

static const struct test_case cases[] = {
    { "Gen4 WM_STATE via pipelined pointers: SIMD16 payload", test_payload },
    { "Gen4 WM_STATE pointer outside memory disables WM", test_bad_pointer },
    { "Gen4 back half: the g965_tri PS kernel draws a triangle", test_capture_kernel_draws },
    { "Gen4 D24_UNORM_S8_UINT: depth bytes 2:0 and stencil byte 3 of each element",
      test_d24s8_stencil_view },
    { 0 }
};
TEST_SUITE(wm_gen4, cases);
