/* tests/units/test_om_late.c - late depth/stencil in the pixel back end
 * (units/om/om_depth.h) driven without kernels: render target writes built
 * here as SENDs from a thread WM marked EU_PIXEL_LATE_DEPTH_STENCIL, with the
 * primitive's depth plane in the thread context. Expected values are worked
 * out here: source depth a0 + a1 (x + 0.5) + a2 (y + 0.5), D16 = round(z *
 * 65535), LESS against the stored value, the Y-tile address of a 2-byte
 * element by hand (4 KiB tiles of 128 B x 32 rows of 16-byte columns, seed
 * 003 L5332-5344); the colour calculator's order (L16420-16431): killed
 * (exec mask off) pixels are neither tested nor written, failing ones keep
 * their colour and depth. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/om/om.h"

#define SSBA 0x100000u
#define BT 0x40u
#define DSB 0x180000u
#define RT_BASE 0x400000u
#define DEPTH_BASE 0x600000u
#define RT_PITCH 256u               /* linear, 64 x 64 RGBA8 */

enum { R8G8B8A8_UNORM = 0xc7 };

struct catcher {
    struct port *in;
    uint32_t count;
    struct eu_thread_end last;
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
        if (m->kind == MSG_THREAD_DISPATCH && m->size >= sizeof c->last)
            memcpy(&c->last, m->payload, sizeof c->last);
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_om_late_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *om;
    struct catcher *eot;
};

static void inject_state(struct rig *r, uint32_t id, const void *common, size_t size)
{
    size_t off = cs_state_common_offset(1);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + size));
    memset(m->payload, 0, off + size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = 1;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy((uint8_t *)p + off, common, size);
    CU_ASSERT_TRUE(port_inject(unit_port(r->om, "wm", 0), m));
    sim_run(r->sim, 0);
}

/* om with a linear RGBA8 RT at BTI 0 (filled 0x11), a 64x64 Y-tiled D16
 * depth buffer (filled 0x8000), depth LESS with writes, CC viewport [0, 1]. */
static struct rig rig_new(bool depth_write)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.om = probe_add(r.sim, &om_ops, "om", NULL);
    struct unit *eot = probe_add(r.sim, &catcher_ops, "eot", NULL);
    probe_link(r.sim, r.om, "eot_ps", eot, "in", 1, 8, 4);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "om.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "om.wm", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.eot = unit_state(eot);

    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 63;
    v.Height = 63;
    v.SurfacePitch = RT_PITCH - 1;
    v.SurfaceBaseAddress = RT_BASE;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.MipTailStartLOD = 15;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT, &state_off, 4, NULL);
    static uint8_t rt[64 * 64 * 4], depth[64 * 64 * 2];
    memset(rt, 0x11, sizeof rt);
    for (size_t i = 0; i < sizeof depth; i += 2) {
        depth[i] = 0x00;
        depth[i + 1] = 0x80;
    }
    gpu_memory_write(r.mem, RT_BASE, rt, sizeof rt, NULL);
    gpu_memory_write(r.mem, DEPTH_BASE, depth, sizeof depth, NULL);
    float cc[2] = { 0.0f, 1.0f };
    gpu_memory_write(r.mem, DSB + 0x200, cc, sizeof cc, NULL);

    struct spec_STATE_BASE_ADDRESS sba = { .DynamicStateBaseAddressModifyEnable = true,
                                           .DynamicStateBaseAddress = DSB };
    inject_state(&r, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_CC ccp = { .CCViewportPointer = 0x200 };
    inject_state(&r, SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_CC, &ccp, sizeof ccp);
    struct spec_3DSTATE_DEPTH_BUFFER db = { .SurfaceType = 1, .SurfaceFormat = 5 /* D16 */,
                                            .SurfaceBaseAddress = DEPTH_BASE, .SurfacePitch = 127,
                                            .Width = 63, .Height = 63,
                                            .DepthWriteEnable = depth_write };
    inject_state(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, &db, sizeof db);
    struct spec_3DSTATE_WM_DEPTH_STENCIL ds = { .DepthTestEnable = true,
                                                .DepthBufferWriteEnable = true,
                                                .DepthTestFunction = 2 /* LESS */ };
    inject_state(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, &ds, sizeof ds);
    return r;
}

/* Y-tiled offset of a 2-byte element, pitch 128 (one tile across), by hand. */
static uint64_t ytile16(uint32_t x, uint32_t y)
{
    uint32_t xb = x * 2;
    return (uint64_t)(y / 32) * 128 * 32 + (uint64_t)(xb / 128) * 4096 + ((xb % 128) / 16) * 512 +
           (y % 32) * 16 + xb % 16;
}

static uint32_t depth_at(struct rig *r, uint32_t x, uint32_t y)
{
    uint8_t b[2];
    gpu_memory_read(r->mem, DEPTH_BASE + ytile16(x, y), b, 2, NULL);
    return b[0] | (uint32_t)b[1] << 8;
}

static uint8_t red_at(struct rig *r, uint32_t x, uint32_t y)
{
    uint8_t b[4];
    gpu_memory_read(r->mem, RT_BASE + (uint64_t)y * RT_PITCH + x * 4, b, 4, NULL);
    return b[0];
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A SIMD8 headerless RT write (mlen = regs) of a late-tested thread with
 * subspans (0,0) and (4,0); depth plane z = 0.25 + 0.125 dx. */
static void send(struct rig *r, uint32_t desc, const uint32_t (*regs)[8], uint32_t exec_mask,
                 bool eot, uint32_t group)
{
    unsigned n = (desc >> 25) & 15;
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = (uint8_t)n;
    p->slot = 3;
    p->exec_size = 8;
    p->flags = (eot ? EU_SEND_EOT : 0) | EU_SEND_DST_NULL;
    p->desc = desc;
    p->exec_mask = exec_mask;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT, .surface_state_base = SSBA,
                                         .binding_table_entries = 1, .group = group,
                                         .subspans = 2, .pixel_mask = 0xff, .draw = 5,
                                         .pixel_flags = EU_PIXEL_LATE_DEPTH_STENCIL };
    p->ctx.pixel_x[0] = 0;
    p->ctx.pixel_x[1] = 4;
    p->ctx.setup = (struct eu_pixel_setup){ .offset = 0.5f, .depth = { 0.25f, 0.125f, 0.0f } };
    memcpy(p->regs, regs, n * 32);
    CU_ASSERT_TRUE(port_inject(unit_port(r->om, "eu", 0), m));
    sim_run(r->sim, 0);
}

static void colour(uint32_t regs[][8], float red)
{
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits(red);
        regs[1][i] = regs[2][i] = 0;
        regs[3][i] = fbits(1.0f);
    }
}

static const uint32_t stored = 0x8000;

/* slot 4k+i: subspan k (x 0 or 4), pixel i (UL UR LL LR) */
static void slot_xy(unsigned slot, uint32_t *x, uint32_t *y)
{
    *x = (slot / 4) * 4 + (slot & 1);
    *y = (slot >> 1) & 1;
}

static void test_late_depth_plane_and_kill(void)
{
    struct rig r = rig_new(true);
    uint32_t regs[4][8];
    colour(regs, 1.0f);
    /* slot 1 killed by the shader's discard (exec mask off) */
    send(&r, 0x88031400, regs, 0xfd, true, 9);
    uint32_t passed = 0;
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x, y;
        slot_xy(slot, &x, &y);
        float z = 0.25f + 0.125f * ((float)x + 0.5f);
        uint32_t z16 = (uint32_t)lrint(z * 65535.0);
        bool pass = slot != 1 && z16 < stored;
        passed += pass;
        CU_ASSERT_EQUAL(depth_at(&r, x, y), pass ? z16 : stored);
        CU_ASSERT_EQUAL(red_at(&r, x, y), pass ? 255 : 0x11);
    }
    CU_ASSERT_EQUAL(passed, 3);     /* x = 0 (two rows) and x = 1 (z 0.4375) of the lower row */
    CU_ASSERT_EQUAL(r.eot->count, 1);
    CU_ASSERT_EQUAL(r.eot->last.request_id, 9);
    CU_ASSERT_EQUAL(r.eot->last.pixels_written, 3);
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.depth_failed"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.depth_writes"), 3);
    /* the thread's draw number names the draw */
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    CU_ASSERT_EQUAL(s[0].draws[0], 5);
    sim_destroy(r.sim);
}

/* The shader's depth (sZ, PS_EXTRA Computed Depth Mode) replaces the plane. */
static void test_late_shader_depth(void)
{
    struct rig r = rig_new(true);
    struct spec_3DSTATE_PS_EXTRA x = { .PixelShaderValid = true,
                                       .PixelShaderComputedDepthMode = 1 };
    inject_state(&r, SPEC_ID_3DSTATE_PS_EXTRA, &x, sizeof x);
    uint32_t regs[5][8];
    colour(regs, 1.0f);
    const float sz[8] = { 0.75f, 0.125f, 0.9f, 0.5f, 0.0f, 0.6f, 0.3f, 1.0f };
    for (int i = 0; i < 8; i++)
        regs[4][i] = fbits(sz[i]);
    send(&r, 0x8A031400, regs, 0xff, true, 4);     /* mlen 5: R G B A sZ */
    uint32_t passed = 0;
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t px, py;
        slot_xy(slot, &px, &py);
        uint32_t z16 = (uint32_t)lrint(sz[slot] * 65535.0);
        bool pass = z16 < stored;
        passed += pass;
        CU_ASSERT_EQUAL(depth_at(&r, px, py), pass ? z16 : stored);
        CU_ASSERT_EQUAL(red_at(&r, px, py), pass ? 255 : 0x11);
    }
    CU_ASSERT_EQUAL(passed, 3);                     /* 0.125, 0.0, 0.3 */
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, passed);
    sim_destroy(r.sim);
}

/* Two RT writes of one thread: the first (no Last RT) tests without updating;
 * the last updates; the end reports the thread's totals. */
static void test_late_two_render_targets(void)
{
    struct rig r = rig_new(true);
    uint32_t regs[4][8];
    colour(regs, 0.0f);
    send(&r, 0x88030400, regs, 0xff, false, 6);    /* not the last RT */
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x, y;
        slot_xy(slot, &x, &y);
        CU_ASSERT_EQUAL(depth_at(&r, x, y), stored);
        CU_ASSERT_EQUAL(red_at(&r, x, y), slot < 4 ? 0 : 0x11);
    }
    CU_ASSERT_EQUAL(r.eot->count, 0);
    colour(regs, 1.0f);
    send(&r, 0x88031400, regs, 0xff, true, 6);
    uint32_t x0 = (uint32_t)lrint((0.25 + 0.125 * 0.5) * 65535.0);
    CU_ASSERT_EQUAL(depth_at(&r, 0, 0), x0);
    CU_ASSERT_EQUAL(red_at(&r, 0, 0), 255);
    CU_ASSERT_EQUAL(red_at(&r, 4, 0), 0x11);
    CU_ASSERT_EQUAL(r.eot->count, 1);
    CU_ASSERT_EQUAL(r.eot->last.pixels_written, 8);        /* 4 per message */
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 4);   /* counted once */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.tested"), 8);
    sim_destroy(r.sim);
}

/* A thread WM tested early: nothing here touches depth. */
static void test_early_thread_untouched(void)
{
    struct rig r = rig_new(true);
    uint32_t regs[4][8];
    colour(regs, 1.0f);
    /* the same message without the flag, built by hand */
    unsigned n = 4;
    struct msg *m = msg_alloc(r.sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = 4;
    p->flags = EU_SEND_EOT | EU_SEND_DST_NULL;
    p->desc = 0x88031400;
    p->exec_mask = 0xff;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT, .surface_state_base = SSBA,
                                         .subspans = 2, .pixel_mask = 0xff };
    p->ctx.pixel_x[1] = 4;
    memcpy(p->regs, regs, sizeof regs);
    CU_ASSERT_TRUE(port_inject(unit_port(r.om, "eu", 0), m));
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(depth_at(&r, 0, 0), stored);
    CU_ASSERT_EQUAL(red_at(&r, 4, 0), 255);
    CU_ASSERT_EQUAL(r.eot->last.pixels_written, 8);
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.tested"), 0);
    sim_destroy(r.sim);
}

/* 4x (3DSTATE_MULTISAMPLE 4, which the depth buffer inherits, seed 003
 * L15605): each covered sample of a late-tested pixel is tested on its own at
 * its position (the thread's sample positions: the standard 4x pattern, X <<
 * 4 | Y in 1/16 from the pixel's corner), in the interleaved D16 surface
 * (sample s of pixel (x, y) at physical column 4 (x / 2) + 2 (s & 1) + (x &
 * 1), row 4 (y / 2) + (s & 2) + (y & 1), pitch 256). Plane z = 0.125 + 0.25
 * X: a sample passes LESS against 0x8000 when X < 1.5, so pixel x = 1 keeps
 * samples 0 and 2 (X 1.375, 1.125) and loses 1 and 3 (1.875, 1.625). */
static const uint8_t pos4[4] = { 0x62, 0xe6, 0x2a, 0xae };

static uint32_t depth_sample_at(struct rig *r, uint32_t x, uint32_t y, uint32_t s)
{
    uint32_t px = 4 * (x / 2) + 2 * (s & 1) + (x & 1), py = 4 * (y / 2) + (s & 2) + (y & 1);
    uint32_t u = 2 * px;
    uint8_t b[2];
    gpu_memory_read(r->mem, DEPTH_BASE + (u / 16) * 512 + py * 16 + u % 16, b, 2, NULL);
    return b[0] | (uint32_t)b[1] << 8;
}

static void test_late_msaa_per_sample(void)
{
    struct rig r = rig_new(true);
    struct spec_3DSTATE_MULTISAMPLE ms = { .NumberOfMultisamples = 2 };
    inject_state(&r, SPEC_ID_3DSTATE_MULTISAMPLE, &ms, sizeof ms);
    struct spec_3DSTATE_DEPTH_BUFFER db = { .SurfaceType = 1, .SurfaceFormat = 5,
                                            .SurfaceBaseAddress = DEPTH_BASE, .SurfacePitch = 255,
                                            .Width = 63, .Height = 63, .DepthWriteEnable = true };
    inject_state(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, &db, sizeof db);
    /* the RT 4x too (Number of Multisamples must match, L15605): MSS planes
     * 64 rows apart */
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 63;
    v.Height = 63;
    v.SurfacePitch = RT_PITCH - 1;
    v.SurfaceBaseAddress = RT_BASE;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.MipTailStartLOD = 15;
    v.NumberOfMultisamples = 2;
    v.SurfaceQPitch = 16;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    gpu_memory_write(r.mem, SSBA + 0x1000, dw, sizeof dw, NULL);
    uint32_t regs[4][8];
    colour(regs, 1.0f);
    const uint16_t cover[8] = { 0xf, 0xf, 0x6, 0x3, 0xf, 0xf, 0xf, 0xf };
    struct msg *m = msg_alloc(r.sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + 4 * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = 4;
    p->slot = 3;
    p->exec_size = 8;
    p->flags = EU_SEND_EOT | EU_SEND_DST_NULL;
    p->desc = 0x88031400;
    p->exec_mask = 0xff;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT, .surface_state_base = SSBA,
                                         .binding_table_entries = 1, .group = 12,
                                         .subspans = 2, .pixel_mask = 0xff, .draw = 5,
                                         .pixel_flags = EU_PIXEL_LATE_DEPTH_STENCIL,
                                         .sample_masks_valid = 1, .sample_count = 4 };
    p->ctx.pixel_x[1] = 4;
    memcpy(p->ctx.sample_mask, cover, sizeof cover);
    memcpy(p->ctx.sample_position, pos4, sizeof pos4);
    p->ctx.setup = (struct eu_pixel_setup){ .offset = 0.5f, .depth = { 0.125f, 0.25f, 0.0f } };
    memcpy(p->regs, regs, sizeof regs);
    CU_ASSERT_TRUE(port_inject(unit_port(r.om, "eu", 0), m));
    sim_run(r.sim, 0);
    uint32_t passed = 0;
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x, y;
        slot_xy(slot, &x, &y);
        for (uint32_t smp = 0; smp < 4; smp++) {
            double X = x + (pos4[smp] >> 4) / 16.0;
            uint32_t z16 = (uint32_t)lrint((0.125 + 0.25 * X) * 65535.0);
            bool pass = ((cover[slot] >> smp) & 1u) && z16 < stored;
            passed += pass;
            CU_ASSERT_EQUAL(depth_sample_at(&r, x, y, smp), pass ? z16 : stored);
        }
    }
    /* x = 0: 4 + 2 (samples 1, 2 of the lower pixel); x = 1: 2 + 1 (sample 0) */
    CU_ASSERT_EQUAL(passed, 9);
    CU_ASSERT_EQUAL(r.eot->count, 1);
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 9);   /* samples (L16766) */
    CU_ASSERT_EQUAL(r.eot->last.pixels_written, 9);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.tested"), 28);  /* covered samples */
    sim_destroy(r.sim);
}

/* The shader's output stencil (oS) as the stencil reference (om_depth.h):
 * with 3DSTATE_PS_EXTRA Pixel Shader Computes Stencil the SIMD8 RT write
 * carries oS after the colour (seed 003 L7856-7950: "R G B A oS", one byte a
 * slot as Mesa's brw packs it), and its low 8 bits replace the state's
 * Stencil Reference Value for the test and for REPLACE. A W-tiled stencil
 * buffer whose every byte is 5 (so no address arithmetic is needed), depth
 * off (genxml: EQUAL 3, ALWAYS 0, KEEP 0, REPLACE 2):
 *  1. EQUAL, state reference 9, oS {5, 9, 5, 4, 5, 0, 5, 9}: the slots whose
 *     oS is 5 pass (red 255), the others keep 0x11; with the state's 9 it
 *     would be slots 1 and 7;
 *  2. ALWAYS, pass op REPLACE, oS 7 in subspan 0 and 3 in subspan 1, red 1.0;
 *  3. no oS (Computes Stencil off), EQUAL against the state's 7, red 0.0:
 *     subspan 0 (stencil 7 from 2.) turns 0, subspan 1 (3) stays 255. */
static void send_stencil_state(struct rig *r, uint32_t function, uint32_t pass_op,
                               uint32_t reference, bool computes)
{
    struct spec_3DSTATE_PS_EXTRA x = { .PixelShaderValid = true,
                                       .PixelShaderComputesStencil = computes };
    inject_state(r, SPEC_ID_3DSTATE_PS_EXTRA, &x, sizeof x);
    struct spec_3DSTATE_WM_DEPTH_STENCIL ds = { .StencilTestEnable = true,
                                                .StencilBufferWriteEnable = true,
                                                .StencilTestFunction = function,
                                                .StencilPassDepthPassOp = pass_op,
                                                .StencilTestMask = 0xff,
                                                .StencilWriteMask = 0xff,
                                                .StencilReferenceValue = reference };
    inject_state(r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, &ds, sizeof ds);
}

static void test_late_output_stencil_reference(void)
{
    enum { STENCIL_BASE = 0x700000 };
    struct rig r = rig_new(false);
    static uint8_t fives[8192];
    memset(fives, 5, sizeof fives);
    gpu_memory_write(r.mem, STENCIL_BASE, fives, sizeof fives, NULL);
    struct spec_3DSTATE_STENCIL_BUFFER sb = { .StencilBufferEnable = true, .SurfacePitch = 63,
                                              .SurfaceBaseAddress = STENCIL_BASE };
    inject_state(&r, SPEC_ID_3DSTATE_STENCIL_BUFFER, &sb, sizeof sb);
    /* 3DSTATE_DEPTH_BUFFER's Stencil Write Enable gates stencil writes (WM_INT, L15428ff) */
    struct spec_3DSTATE_DEPTH_BUFFER db = { .SurfaceType = 1, .SurfaceFormat = 5 /* D16 */,
                                            .SurfaceBaseAddress = DEPTH_BASE, .SurfacePitch = 127,
                                            .Width = 63, .Height = 63, .StencilWriteEnable = true };
    inject_state(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, &db, sizeof db);
    uint32_t regs[5][8];

    send_stencil_state(&r, 3, 0, 9, true);
    colour(regs, 1.0f);
    static const uint8_t os1[8] = { 5, 9, 5, 4, 5, 0, 5, 9 };
    memset(regs[4], 0, sizeof regs[4]);
    memcpy(regs[4], os1, sizeof os1);
    send(&r, 0x8A031400, regs, 0xff, true, 1);      /* mlen 5: R G B A oS */
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x, y;
        slot_xy(slot, &x, &y);
        CU_ASSERT_EQUAL(red_at(&r, x, y), os1[slot] == 5 ? 255 : 0x11);
    }
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.stencil_failed"), 4);

    send_stencil_state(&r, 0, 2, 9, true);
    static const uint8_t os2[8] = { 7, 7, 7, 7, 3, 3, 3, 3 };
    memset(regs[4], 0, sizeof regs[4]);
    memcpy(regs[4], os2, sizeof os2);
    send(&r, 0x8A031400, regs, 0xff, true, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.stencil_writes"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.stencil_exported"), 16);

    send_stencil_state(&r, 3, 0, 7, false);
    colour(regs, 0.0f);
    send(&r, 0x88031400, regs, 0xff, true, 3);      /* mlen 4: no oS */
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x, y;
        slot_xy(slot, &x, &y);
        CU_ASSERT_EQUAL(red_at(&r, x, y), slot < 4 ? 0 : 255);
    }
    CU_ASSERT_EQUAL(r.eot->last.pixels_depth_passed, 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.stencil_exported"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.late.stencil_export_ignored"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "late depth: the thread's depth plane, killed pixels untested, failures keep colour",
      test_late_depth_plane_and_kill },
    { "late depth: the shader's sZ is the source depth", test_late_shader_depth },
    { "late depth: two RT writes test twice, update and count once", test_late_two_render_targets },
    { "threads tested early: the back end leaves depth alone", test_early_thread_untouched },
    { "late depth under 4x: each covered sample at its position", test_late_msaa_per_sample },
    { "late stencil: the shader's oS is the reference, for the test and REPLACE",
      test_late_output_stencil_reference },
    { 0 }
};
TEST_SUITE(om_late, cases);
