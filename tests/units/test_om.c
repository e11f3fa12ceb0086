/* tests/units/test_om.c - the pixel back end (units/om) driven alone: render
 * target writes are injected as SEND messages built here (the three forms
 * Mesa's iris kernels use in the skl_tri capture: SIMD8 0x88031400 mlen 4,
 * SIMD16 0x90031000 mlen 8, replicated 0x82031100 mlen 1, all headerless),
 * state packets on "wm", the RT's SURFACE_STATE and BLEND_STATE in physical
 * memory. Expected values are worked out here: UNORM8 = round(c * 255), the
 * Y-tile address by hand (4 KiB tiles of 128 B x 32 rows made of 16-byte
 * columns, seed 003 L5332-5344), blends from the factor table (003
 * L16585-16617), the sRGB curve (IEC 61966-2-1) written out again. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/images.h"
#include "tools/png.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/l3/l3.h"
#include "units/memory/memory.h"
#include "units/om/om.h"
#include "units/om/om_color.h"

#define SSBA 0x100000u          /* surface state base (physical space) */
#define BT 0x40u                /* binding table offset */
#define DSB 0x180000u           /* dynamic state base */
#define RT_BASE 0x400000u

enum { R8G8B8A8_UNORM = 0xc7, R8G8B8A8_UNORM_SRGB = 0xc8 };

struct catcher {
    struct port *in;
    uint32_t count;
    struct eu_thread_end last;
    uint32_t regs[8][8];            /* of the last write-back */
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
        if (m->kind == MSG_WRITEBACK) {
            const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
            memcpy(c->regs, w->regs, (size_t)(w->rlen > 8 ? 8 : w->rlen) * 32);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_om_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *om;
    struct catcher *eot, *wb;
    const uint8_t *aa_alpha;        /* non-NULL: the threads' AA line coverage (32 slots) */
};

static struct rig rig_new_opts(bool with_l3, FILE *log)
{
    struct rig r = { 0 };
    struct sim_options options = { .log_level = SIM_LOG_NOTE, .log_file = log };
    r.sim = probe_sim(log ? &options : NULL);
    r.mem = probe_memory(r.sim);
    r.om = probe_add(r.sim, &om_ops, "om", NULL);
    struct unit *eot = probe_add(r.sim, &catcher_ops, "eot", NULL);
    probe_link(r.sim, r.om, "eot_ps", eot, "in", 1, 8, 4);
    struct unit *wb = probe_add(r.sim, &catcher_ops, "wb", NULL);
    probe_link(r.sim, r.om, "writeback[0]", wb, "in", 1, 8, 4);
    if (with_l3) {
        const char *l3_over[] = { "size_kib=768", "banks=4", "cache_kib=384", "urb_kib=384", NULL };
        struct unit *l3 = probe_add(r.sim, &l3_ops, "l3", l3_over);
        struct unit *mem = probe_add(r.sim, &memory_ops, "mem", NULL);
        probe_link(r.sim, r.om, "l3", l3, "client[0]", 1, 16, 4);
        probe_link(r.sim, l3, "client_reply[0]", r.om, "l3_reply", 1, 16, 4);
        probe_link(r.sim, l3, "memory", mem, "client[0]", 1, 16, 4);
        probe_link(r.sim, mem, "client_reply[0]", l3, "memory_reply", 1, 16, 4);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "om.eu[0]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "om.wm", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    r.eot = unit_state(eot);
    r.wb = unit_state(wb);
    return r;
}

static struct rig rig_new_l3(bool with_l3)
{
    return rig_new_opts(with_l3, NULL);
}

static struct rig rig_new(void)
{
    return rig_new_l3(false);
}

/* A 2D RT at BTI 0: width x height, `tile_mode` 0 linear / 3 Y-major; Gen9
 * clear colour dwords 12-15 from clear[]. */
static void put_rt(struct rig *r, uint32_t format, uint32_t width, uint32_t height,
                   uint32_t pitch, uint32_t tile_mode, const float clear[4])
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = format;
    v.Width = width - 1;
    v.Height = height - 1;
    v.SurfacePitch = pitch - 1;
    v.SurfaceBaseAddress = RT_BASE;
    v.TileMode = tile_mode;
    v.SurfaceHorizontalAlignment = tile_mode ? 3 : 1;
    v.SurfaceVerticalAlignment = 1;
    v.MipTailStartLOD = 15;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    if (clear)
        memcpy(&dw[12], clear, 16);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r->mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r->mem, SSBA + BT, &state_off, 4, NULL);
}

/* The byte offset of pixel (x, y) of a 4-byte-texel Y-tiled surface, by hand. */
static uint64_t ytile_offset(uint32_t x, uint32_t y, uint32_t pitch)
{
    uint32_t xb = x * 4;
    return (uint64_t)(y / 32) * pitch * 32 + (uint64_t)(xb / 128) * 4096 + ((xb % 128) / 16) * 512 +
           (y % 32) * 16 + xb % 16;
}

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

/* BLEND_STATE (header dword + entry 0) at DSB + 0x100, through the pointer command. */
static void set_blend(struct rig *r, uint32_t header, const struct GEN9_BLEND_STATE_ENTRY *e)
{
    uint32_t dw[3] = { header, 0, 0 };
    CU_ASSERT_EQUAL(GEN9_BLEND_STATE_ENTRY_pack(dw + 1, e), 0);
    gpu_memory_write(r->mem, DSB + 0x100, dw, sizeof dw, NULL);
    struct spec_STATE_BASE_ADDRESS sba = { .DynamicStateBaseAddressModifyEnable = true,
                                           .DynamicStateBaseAddress = DSB };
    inject_state(r, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct spec_3DSTATE_BLEND_STATE_POINTERS p = { .BlendStatePointerValid = true,
                                                   .BlendStatePointer = 0x100 };
    inject_state(r, SPEC_ID_3DSTATE_BLEND_STATE_POINTERS, &p, sizeof p);
}

/* A SEND on SFID 5 with the given descriptor (mlen in it), the thread's
 * subspans in ctx, EOT. */
static void send_rt_samples(struct rig *r, uint32_t desc, const uint32_t (*regs)[8],
                            uint32_t exec_mask, uint8_t subspans, const uint16_t *px,
                            const uint16_t *py, uint32_t pixel_mask, bool eot, uint8_t rlen,
                            const uint16_t *sample_mask)
{
    unsigned n = (desc >> 25) & 15;
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = (uint8_t)n;
    p->slot = 2;
    p->exec_size = 16;
    p->flags = (eot ? EU_SEND_EOT : 0) | EU_SEND_SENDC | (rlen ? 0 : EU_SEND_DST_NULL);
    p->rlen = rlen;
    p->dst_reg = 40;
    p->desc = desc;
    p->exec_mask = exec_mask;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT, .surface_state_base = SSBA,
                                         .binding_table_entries = 1, .group = 77,
                                         .subspans = subspans, .pixel_mask = pixel_mask };
    for (unsigned k = 0; k < subspans; k++) {
        p->ctx.pixel_x[k] = px[k];
        p->ctx.pixel_y[k] = py[k];
    }
    if (sample_mask) {
        p->ctx.sample_masks_valid = 1;
        memcpy(p->ctx.sample_mask, sample_mask, sizeof p->ctx.sample_mask);
    }
    if (r->aa_alpha) {
        p->ctx.aa_alpha_valid = 1;
        memcpy(p->ctx.aa_alpha, r->aa_alpha, sizeof p->ctx.aa_alpha);
    }
    memcpy(p->regs, regs, n * 32);
    CU_ASSERT_TRUE(port_inject(unit_port(r->om, "eu", 0), m));
    sim_run(r->sim, 0);
}

static void send_rt_full(struct rig *r, uint32_t desc, const uint32_t (*regs)[8],
                         uint32_t exec_mask, uint8_t subspans, const uint16_t *px,
                         const uint16_t *py, uint32_t pixel_mask, bool eot, uint8_t rlen)
{
    send_rt_samples(r, desc, regs, exec_mask, subspans, px, py, pixel_mask, eot, rlen, NULL);
}

static void send_rt(struct rig *r, uint32_t desc, const uint32_t (*regs)[8], uint32_t exec_mask,
                    uint8_t subspans, const uint16_t *px, const uint16_t *py, uint32_t pixel_mask)
{
    send_rt_full(r, desc, regs, exec_mask, subspans, px, py, pixel_mask, true, 0);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint8_t unorm8(float c)
{
    return (uint8_t)lrintf(fminf(fmaxf(c, 0.0f), 1.0f) * 255.0f);
}

static void fill(struct rig *r, uint64_t bytes, uint8_t value)
{
    uint8_t *b = malloc(bytes);
    memset(b, value, bytes);
    gpu_memory_write(r->mem, RT_BASE, b, bytes, NULL);
    free(b);
}

static void read_texel(struct rig *r, uint64_t off, uint8_t out[4])
{
    gpu_memory_read(r->mem, RT_BASE + off, out, 4, NULL);
}

/* ---- the three skl_tri message forms ---------------------------------------------------- */

static void test_simd8_headerless(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 64, 64, 256, 3, NULL);
    fill(&r, 64 * 64 * 4, 0x11);
    /* R G B A, one register each: R = slot / 8, G = 0.5, B = 0.25, A = 1 */
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits((float)i / 8.0f);
        regs[1][i] = fbits(0.5f);
        regs[2][i] = fbits(0.25f);
        regs[3][i] = fbits(1.0f);
    }
    /* subspans at (4, 2) and (38, 30); pixel 5 (subspan 1 UR) unlit, the
     * exec mask has it on (a helper pixel) */
    const uint16_t px[2] = { 4, 38 }, py[2] = { 2, 30 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff & ~(1u << 5));
    for (unsigned slot = 0; slot < 8; slot++) {
        uint32_t x = px[slot / 4] + (slot & 1), y = py[slot / 4] + ((slot >> 1) & 1);
        uint8_t t[4];
        read_texel(&r, ytile_offset(x, y, 256), t);
        if (slot == 5) {
            CU_ASSERT_EQUAL(t[0], 0x11);
            continue;
        }
        CU_ASSERT_EQUAL(t[0], unorm8((float)slot / 8.0f));
        CU_ASSERT_EQUAL(t[1], 128);
        CU_ASSERT_EQUAL(t[2], 64);
        CU_ASSERT_EQUAL(t[3], 255);
    }
    /* a neighbour untouched */
    uint8_t t[4];
    read_texel(&r, ytile_offset(6, 2, 256), t);
    CU_ASSERT_EQUAL(t[0], 0x11);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.rt_write.simd8"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 7);
    /* EOT: the thread's end goes to WM with its request id */
    CU_ASSERT_EQUAL(r.eot->count, 1);
    CU_ASSERT_EQUAL(r.eot->last.op, EU_TD_THREAD_END);
    CU_ASSERT_EQUAL(r.eot->last.request_id, 77);
    CU_ASSERT_EQUAL(r.eot->last.ffid, FFID_PS);
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    CU_ASSERT_EQUAL(s[0].address, RT_BASE);
    CU_ASSERT_EQUAL(s[0].width, 64);
    CU_ASSERT_EQUAL(s[0].tiling, TILING_Y);
    CU_ASSERT_EQUAL(s[0].draw_count, 1);
    /* state between two runs of writes starts a new draw; a second message
     * of the same draw adds none */
    struct spec_3DSTATE_PS_EXTRA extra = { .PixelShaderValid = true };
    inject_state(&r, SPEC_ID_3DSTATE_PS_EXTRA, &extra, sizeof extra);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    CU_ASSERT_EQUAL(s[0].draw_count, 2);
    CU_ASSERT_EQUAL(s[0].draws[0], 1);
    CU_ASSERT_EQUAL(s[0].draws[1], 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.draws"), 2);
    sim_destroy(r.sim);
}

static void test_simd16_headerless(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 64, 64, 256, 3, NULL);
    fill(&r, 64 * 64 * 4, 0);
    /* R, G, B, A two registers each (slots 0-7, 8-15): R = slot / 16 */
    uint32_t regs[8][8];
    for (int i = 0; i < 16; i++) {
        regs[0 + i / 8][i % 8] = fbits((float)i / 16.0f);
        regs[2 + i / 8][i % 8] = fbits(1.0f);
        regs[4 + i / 8][i % 8] = fbits(0.0f);
        regs[6 + i / 8][i % 8] = fbits(0.5f);
    }
    const uint16_t px[4] = { 0, 2, 32, 62 }, py[4] = { 0, 0, 32, 62 };
    send_rt(&r, 0x90031000, regs, 0xffff, 4, px, py, 0xffff);
    for (unsigned slot = 0; slot < 16; slot++) {
        uint32_t x = px[slot / 4] + (slot & 1), y = py[slot / 4] + ((slot >> 1) & 1);
        uint8_t t[4];
        read_texel(&r, ytile_offset(x, y, 256), t);
        CU_ASSERT_EQUAL(t[0], unorm8((float)slot / 16.0f));
        CU_ASSERT_EQUAL(t[1], 255);
        CU_ASSERT_EQUAL(t[2], 0);
        CU_ASSERT_EQUAL(t[3], 128);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.rt_write.simd16"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 16);
    sim_destroy(r.sim);
}

static void test_replicated(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 64, 64, 256, 3, NULL);
    fill(&r, 64 * 64 * 4, 0);
    uint32_t regs[1][8] = { { fbits(0.0f), fbits(0.0f), fbits(0.25f), fbits(1.0f) } };
    const uint16_t px[4] = { 10, 12, 10, 12 }, py[4] = { 10, 10, 12, 12 };
    send_rt(&r, 0x82031100, regs, 0xffff, 4, px, py, 0xffff);
    for (uint32_t y = 10; y < 14; y++)
        for (uint32_t x = 10; x < 14; x++) {
            uint8_t t[4];
            read_texel(&r, ytile_offset(x, y, 256), t);
            CU_ASSERT_EQUAL(t[0], 0);
            CU_ASSERT_EQUAL(t[2], 64);
            CU_ASSERT_EQUAL(t[3], 255);
        }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.rt_write.rep16"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 16);
    /* a thread without positions cannot write headerless: counted, still ends */
    send_rt(&r, 0x82031100, regs, 0xffff, 0, px, py, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.no_positions"), 1);
    CU_ASSERT_EQUAL(r.eot->count, 2);
    sim_destroy(r.sim);
}

/* A header (M0: RT index 1 in M0.2; M1: subspan 0 at (4, 6), pixel mask in
 * M1.7) selects BLEND_STATE entry 1 and overrides the exec mask (L8200); an
 * RT read with a header reads the pixels back (L7995-8021). Through the L3. */
static void test_header_rt_index_and_read(void)
{
    struct rig r = rig_new_l3(true);
    put_rt(&r, R8G8B8A8_UNORM, 16, 16, 64, 0, NULL);
    fill(&r, 16 * 64, 0x22);
    /* entry 0 writes everything, entry 1 disables red */
    uint32_t dw[5] = { 0 };
    struct GEN9_BLEND_STATE_ENTRY e0 = { .PreBlendColorClampEnable = true };
    struct GEN9_BLEND_STATE_ENTRY e1 = { .PreBlendColorClampEnable = true, .WriteDisableRed = true };
    CU_ASSERT_EQUAL(GEN9_BLEND_STATE_ENTRY_pack(dw + 1, &e0), 0);
    CU_ASSERT_EQUAL(GEN9_BLEND_STATE_ENTRY_pack(dw + 3, &e1), 0);
    gpu_memory_write(r.mem, DSB + 0x100, dw, sizeof dw, NULL);
    struct spec_STATE_BASE_ADDRESS sba = { .DynamicStateBaseAddressModifyEnable = true,
                                           .DynamicStateBaseAddress = DSB };
    inject_state(&r, SPEC_ID_STATE_BASE_ADDRESS, &sba, sizeof sba);
    struct spec_3DSTATE_BLEND_STATE_POINTERS bp = { .BlendStatePointerValid = true,
                                                    .BlendStatePointer = 0x100 };
    inject_state(&r, SPEC_ID_3DSTATE_BLEND_STATE_POINTERS, &bp, sizeof bp);
    uint32_t regs[6][8] = { { 0 } };
    regs[0][2] = 1;                                 /* M0.2 Render Target Index */
    regs[1][2] = 4u | 6u << 16;                     /* M1.2 subspan 0 X/Y */
    regs[1][7] = 0x9;                               /* M1.7 mask: UL and LR */
    for (int i = 0; i < 8; i++) {
        regs[2][i] = fbits(1.0f);
        regs[3][i] = fbits(0.5f);
        regs[4][i] = fbits(0.0f);
        regs[5][i] = fbits(1.0f);
    }
    /* SIMD8 single source with a header: mlen 6, desc bit 19; the exec mask
     * (all on) is ignored; the thread's ctx has no positions */
    uint32_t desc = 6u << 25 | 1u << 19 | 12u << 14 | 1u << 12 | 4u << 8;
    send_rt_full(&r, desc, regs, 0xff, 0, NULL, NULL, 0, false, 0);
    uint8_t t[4];
    gpu_memory_read(r.mem, RT_BASE + 6 * 64 + 4 * 4, t, 4, NULL);      /* (4, 6) */
    CU_ASSERT_EQUAL(t[0], 0x22);                    /* red disabled by entry 1 */
    CU_ASSERT_EQUAL(t[1], 128);
    CU_ASSERT_EQUAL(t[3], 255);
    gpu_memory_read(r.mem, RT_BASE + 6 * 64 + 5 * 4, t, 4, NULL);      /* (5, 6): masked */
    CU_ASSERT_EQUAL(t[1], 0x22);
    gpu_memory_read(r.mem, RT_BASE + 7 * 64 + 5 * 4, t, 4, NULL);      /* (5, 7) */
    CU_ASSERT_EQUAL(t[1], 128);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 2);
    CU_ASSERT_TRUE(probe_stat(r.sim, "om.lines") > 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.l3_replies"), probe_stat(r.sim, "om.lines"));
    CU_ASSERT_EQUAL(r.eot->count, 0);               /* no EOT: no thread end */
    /* RT read, SIMD8, header: 4 registers R G B A back */
    uint32_t rd[2][8] = { { 0 } };
    rd[1][2] = 4u | 6u << 16;
    uint32_t rdesc = 2u << 25 | 4u << 20 | 1u << 19 | 13u << 14;
    send_rt_full(&r, rdesc, rd, 0xff, 0, NULL, NULL, 0, false, 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.rt_reads"), 1);
    CU_ASSERT_DOUBLE_EQUAL(*(float *)&r.wb->regs[0][0], 0x22 / 255.0, 1e-6);   /* (4, 6) R */
    CU_ASSERT_DOUBLE_EQUAL(*(float *)&r.wb->regs[1][0], 128 / 255.0, 1e-6);    /* (4, 6) G */
    CU_ASSERT_DOUBLE_EQUAL(*(float *)&r.wb->regs[1][1], 0x22 / 255.0, 1e-6);   /* (5, 6) G */
    CU_ASSERT_DOUBLE_EQUAL(*(float *)&r.wb->regs[3][3], 1.0, 1e-6);            /* (5, 7) A */
    sim_destroy(r.sim);
}

/* ---- blending ------------------------------------------------------------------------------ */

static void test_blend_arithmetic(void)
{
    struct om_blend_inputs in = { .src = { 1.0f, 0.5f, 0.0f, 0.25f },
                                  .src1 = { 0.5f, 0.25f, 1.0f, 0.75f },
                                  .dst = { 0.0f, 1.0f, 0.5f, 0.6f },
                                  .constant = { 0.5f, 0.5f, 2.0f, 0.2f } };
    float out[4];
    /* classic alpha: src*a + dst*(1-a), a = 0.25 */
    struct spec_BLEND_STATE_ENTRY e = { .SourceBlendFactor = OM_BF_SRC_ALPHA,
                                        .DestinationBlendFactor = OM_BF_INV_SRC_ALPHA,
                                        .ColorBlendFunction = OM_BLEND_ADD };
    CU_ASSERT_TRUE(om_blend(&e, false, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[0], 0.25, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[1], 0.125 + 0.75, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[2], 0.375, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[3], 0.0625 + 0.45, 1e-6);
    /* MIN applies the factors: min(src*const, dst*dst.a) */
    e = (struct spec_BLEND_STATE_ENTRY){ .SourceBlendFactor = OM_BF_CONST_COLOR,
                                         .DestinationBlendFactor = OM_BF_DST_ALPHA,
                                         .ColorBlendFunction = OM_BLEND_MIN };
    CU_ASSERT_TRUE(om_blend(&e, false, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[0], 0.0, 1e-6);          /* min(0.5, 0) */
    CU_ASSERT_DOUBLE_EQUAL(out[1], 0.25, 1e-6);         /* min(0.25, 0.6) */
    CU_ASSERT_DOUBLE_EQUAL(out[2], 0.0, 1e-6);          /* min(0, 0.3) */
    CU_ASSERT_DOUBLE_EQUAL(out[3], 0.05, 1e-6);         /* min(0.25*0.2, 0.36) */
    /* MAX with SRC_ALPHA_SATURATE: f = min(1 - 0.6, 0.25) = 0.25 on RGB, 1 on A */
    e = (struct spec_BLEND_STATE_ENTRY){ .SourceBlendFactor = OM_BF_SRC_ALPHA_SATURATE,
                                         .DestinationBlendFactor = OM_BF_INV_CONST_ALPHA,
                                         .ColorBlendFunction = OM_BLEND_MAX };
    CU_ASSERT_TRUE(om_blend(&e, false, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[0], 0.25, 1e-6);         /* max(0.25, 0) */
    CU_ASSERT_DOUBLE_EQUAL(out[1], 0.8, 1e-6);          /* max(0.125, 0.8) */
    CU_ASSERT_DOUBLE_EQUAL(out[2], 0.4, 1e-6);          /* max(0, 0.4) */
    CU_ASSERT_DOUBLE_EQUAL(out[3], 0.48, 1e-6);         /* max(0.25, 0.48) */
    /* independent alpha, dual source, reverse subtract on alpha */
    e = (struct spec_BLEND_STATE_ENTRY){ .SourceBlendFactor = OM_BF_SRC1_COLOR,
                                         .DestinationBlendFactor = OM_BF_INV_SRC1_COLOR,
                                         .ColorBlendFunction = OM_BLEND_ADD,
                                         .SourceAlphaBlendFactor = OM_BF_ONE,
                                         .DestinationAlphaBlendFactor = OM_BF_ONE,
                                         .AlphaBlendFunction = OM_BLEND_REVERSE_SUBTRACT };
    CU_ASSERT_TRUE(om_blend(&e, true, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[0], 0.5, 1e-6);          /* 1*0.5 + 0*0.5 */
    CU_ASSERT_DOUBLE_EQUAL(out[1], 0.125 + 0.75, 1e-6); /* 0.5*0.25 + 1*0.75 */
    CU_ASSERT_DOUBLE_EQUAL(out[2], 0.0, 1e-6);          /* 0*1 + 0.5*0 */
    CU_ASSERT_DOUBLE_EQUAL(out[3], 0.35, 1e-6);         /* 0.6 - 0.25 */
    /* without independent alpha, A uses the colour factors: 0.25*0.75 + 0.6*0.25 */
    CU_ASSERT_TRUE(om_blend(&e, false, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[3], 0.1875 + 0.15, 1e-6);
    /* subtract with constants */
    e = (struct spec_BLEND_STATE_ENTRY){ .SourceBlendFactor = OM_BF_ONE,
                                         .DestinationBlendFactor = OM_BF_CONST_ALPHA,
                                         .ColorBlendFunction = OM_BLEND_SUBTRACT };
    CU_ASSERT_TRUE(om_blend(&e, false, &in, out));
    CU_ASSERT_DOUBLE_EQUAL(out[1], 0.5 - 0.2, 1e-6);
    /* an encoding the table lacks is reported */
    e.SourceBlendFactor = 0;
    CU_ASSERT_FALSE(om_blend(&e, false, &in, out));
    /* alpha test and alpha to coverage */
    CU_ASSERT_TRUE(om_alpha_test(2 /* LESS */, 0.25f, false, 0.5f, 0));
    CU_ASSERT_FALSE(om_alpha_test(5 /* GREATER */, 0.25f, false, 0.5f, 0));
    CU_ASSERT_TRUE(om_alpha_test(3 /* EQUAL */, 128.0f / 255.0f, true, 0, 128));
    CU_ASSERT_EQUAL(om_alpha_to_coverage(0.5f, 4), 0x3);
    CU_ASSERT_EQUAL(om_alpha_to_coverage(NAN, 4), 0);
    CU_ASSERT_EQUAL(om_alpha_to_coverage(0.4f, 1), 0);
}

static float srgb_encode(float c)
{
    return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static float srgb_decode(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* Through the unit: ADD ONE ONE on an sRGB RT decodes the destination, encodes the sum. */
static void test_blend_srgb_and_constant(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM_SRGB, 8, 8, 32, 0, NULL);
    uint8_t dst[4] = { 100, 200, 30, 128 };
    for (int i = 0; i < 64; i++)
        gpu_memory_write(r.mem, RT_BASE + 4u * i, dst, 4, NULL);
    struct GEN9_BLEND_STATE_ENTRY e = { .ColorBufferBlendEnable = true,
                                        .SourceBlendFactor = OM_BF_ONE,
                                        .DestinationBlendFactor = OM_BF_ONE,
                                        .ColorBlendFunction = OM_BLEND_ADD,
                                        .PreBlendColorClampEnable = true,
                                        .PostBlendColorClampEnable = true,
                                        .ColorClampRange = OM_CLAMP_RTFORMAT };
    set_blend(&r, 0, &e);
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.1f);
        regs[1][i] = fbits(0.2f);
        regs[2][i] = fbits(0.05f);
        regs[3][i] = fbits(0.25f);
    }
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0x01);
    uint8_t t[4];
    gpu_memory_read(r.mem, RT_BASE, t, 4, NULL);
    const float src[4] = { 0.1f, 0.2f, 0.05f, 0.25f };
    for (int c = 0; c < 3; c++) {
        float lin = srgb_decode(dst[c] / 255.0f) + src[c];
        CU_ASSERT_EQUAL(t[c], unorm8(srgb_encode(fminf(lin, 1.0f))));
    }
    CU_ASSERT_EQUAL(t[3], unorm8(128 / 255.0f + 0.25f));        /* alpha stays linear */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_blended"), 1);
    sim_destroy(r.sim);
}

static void test_constant_colour_and_write_mask(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 8, 8, 32, 0, NULL);
    uint8_t dst[4] = { 10, 20, 30, 40 };
    gpu_memory_write(r.mem, RT_BASE, dst, 4, NULL);
    /* COLOR_CALC_STATE with the constant colour at DSB + 0x200 */
    struct GEN9_COLOR_CALC_STATE cc = { .BlendConstantColorRed = 0.5f,
                                        .BlendConstantColorGreen = 0.25f,
                                        .BlendConstantColorBlue = 1.0f,
                                        .BlendConstantColorAlpha = 0.5f };
    uint32_t dw[6] = { 0 };
    CU_ASSERT_EQUAL(GEN9_COLOR_CALC_STATE_pack(dw, &cc), 0);
    gpu_memory_write(r.mem, DSB + 0x200, dw, sizeof dw, NULL);
    struct GEN9_BLEND_STATE_ENTRY e = { .ColorBufferBlendEnable = true,
                                        .SourceBlendFactor = OM_BF_CONST_COLOR,
                                        .DestinationBlendFactor = OM_BF_ZERO,
                                        .ColorBlendFunction = OM_BLEND_ADD,
                                        .WriteDisableGreen = true, .WriteDisableAlpha = true,
                                        .PreBlendColorClampEnable = true,
                                        .PostBlendColorClampEnable = true };
    set_blend(&r, 0, &e);
    struct spec_3DSTATE_CC_STATE_POINTERS ccp = { .ColorCalcStatePointerValid = true,
                                                  .ColorCalcStatePointer = 0x200 };
    inject_state(&r, SPEC_ID_3DSTATE_CC_STATE_POINTERS, &ccp, sizeof ccp);
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits(1.0f);
        regs[1][i] = fbits(1.0f);
        regs[2][i] = fbits(0.4f);
        regs[3][i] = fbits(1.0f);
    }
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0x01);
    uint8_t t[4];
    gpu_memory_read(r.mem, RT_BASE, t, 4, NULL);
    CU_ASSERT_EQUAL(t[0], 128);         /* 1 * 0.5 */
    CU_ASSERT_EQUAL(t[1], 20);          /* write disabled */
    CU_ASSERT_EQUAL(t[2], 102);         /* 0.4 * 1.0 = 0.4 -> 102 */
    CU_ASSERT_EQUAL(t[3], 40);          /* write disabled */
    sim_destroy(r.sim);
}

/* Antialiased lines: each pixel's coverage (WM's, with the thread) is
 * multiplied into Src0.alpha before anything else (seed 003 L16448), so
 * SRC_ALPHA / INV_SRC_ALPHA blending mixes by alpha x coverage; the expected
 * bytes are computed here from the formula. */
static void test_aa_line_alpha(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 8, 8, 32, 0, NULL);
    const uint8_t dst[4] = { 40, 80, 200, 255 };
    for (int i = 0; i < 64; i++)
        gpu_memory_write(r.mem, RT_BASE + 4u * i, dst, 4, NULL);
    struct GEN9_BLEND_STATE_ENTRY e = { .ColorBufferBlendEnable = true,
                                        .SourceBlendFactor = OM_BF_SRC_ALPHA,
                                        .DestinationBlendFactor = OM_BF_INV_SRC_ALPHA,
                                        .ColorBlendFunction = OM_BLEND_ADD,
                                        .PreBlendColorClampEnable = true,
                                        .PostBlendColorClampEnable = true,
                                        .ColorClampRange = OM_CLAMP_RTFORMAT };
    set_blend(&r, 0, &e);
    const float src[4] = { 1.0f, 0.5f, 0.25f, 0.8f };
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            regs[c][i] = fbits(src[c]);
    uint8_t aa[32] = { 255, 191, 128, 64, 0, 32, 200, 100 };
    r.aa_alpha = aa;
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    for (unsigned slot = 0; slot < 8; slot++) {
        unsigned x = px[slot / 4] + (slot & 1u), y = py[slot / 4] + ((slot >> 1) & 1u);
        float a = src[3] * (float)aa[slot] / 255.0f;
        uint8_t t[4];
        read_texel(&r, (uint64_t)y * 32 + x * 4, t);
        for (int c = 0; c < 4; c++) {
            float d = dst[c] / 255.0f;
            float want = (c < 3 ? src[c] : a) * a + d * (1.0f - a);
            int diff = (int)t[c] - (int)unorm8(want);
            if (diff < -1 || diff > 1)
                fprintf(stderr, "slot %u channel %d: %u, want %u\n", slot, c, t[c], unorm8(want));
            CU_ASSERT_TRUE(diff >= -1 && diff <= 1);
        }
    }
    /* coverage 0: the destination stays */
    uint8_t t[4];
    read_texel(&r, 0 * 32 + 2 * 4, t);
    CU_ASSERT_EQUAL(memcmp(t, dst, 4), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.aa_alpha_pixels"), 8);
    sim_destroy(r.sim);
}

/* Bad input (issue 12): an RT format the model cannot render is counted and
 * warned about by name, an RT outside memory faults per pixel; neither
 * writes anything, and the thread's end still reaches WM. */
static void test_bad_render_targets(void)
{
    FILE *log = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    struct rig r = rig_new_opts(false, log);
    put_rt(&r, 0x186 /* BC1_UNORM: block compressed, not a render target */, 8, 8, 32, 0, NULL);
    fill(&r, 256, 0x5a);
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            regs[c][i] = fbits(1.0f);
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.unsupported_formats"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.thread_ends"), 1);
    uint8_t t[4];
    read_texel(&r, 0, t);
    CU_ASSERT_EQUAL(t[0], 0x5a);
    fflush(log);
    rewind(log);
    char text[4096] = { 0 };
    size_t n = fread(text, 1, sizeof text - 1, log);
    CU_ASSERT_TRUE(n > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "BC1_UNORM"));
    sim_destroy(r.sim);
    fclose(log);
    /* the RT's base far beyond the memory: every pixel faults, none written */
    r = rig_new();
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 7;
    v.Height = 7;
    v.SurfacePitch = 31;
    v.SurfaceBaseAddress = 1ull << 50;           /* beyond the 48-bit physical space */
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.MipTailStartLOD = 15;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT, &state_off, 4, NULL);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.page_faults"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.thread_ends"), 1);
    CU_ASSERT_EQUAL(r.eot->count, 1);
    sim_destroy(r.sim);
}

/* An 8x8 R8G8B8A8 Y-tiled RT at BTI 0 with `samples_encoding` samples and
 * surface type `type` (1 = 2D, 2 = 3D). */
static void put_rt_samples(struct rig *r, uint32_t type, uint32_t samples_encoding)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = type;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 7;
    v.Height = 7;
    v.SurfacePitch = 127;
    v.SurfaceBaseAddress = RT_BASE;
    v.TileMode = 3;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.MipTailStartLOD = 15;
    v.NumberOfMultisamples = samples_encoding;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r->mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r->mem, SSBA + BT, &state_off, 4, NULL);
}

/* Bad input (issue 12): sample counts a surface may not have. Gen9's
 * Number of Multisamples encodings are 0-4 (1-16 samples; genxml gen9.xml
 * RENDER_SURFACE_STATE MULTISAMPLECOUNT_*), so 5 (32) is reserved; a
 * multisampled surface must be SURFTYPE_2D (a 3D one with 4 samples is
 * refused). Each is counted (bad_state) and warned, nothing is written, the
 * thread still ends. A reserved 3DSTATE_MULTISAMPLE count is counted too
 * and a 1x RT is then written normally. */
static void test_bad_sample_counts(void)
{
    FILE *log = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    struct rig r = rig_new_opts(false, log);
    fill(&r, 4096, 0x5a);
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            regs[c][i] = fbits(1.0f);
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    put_rt_samples(&r, 1, 5);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.bad_state"), 1);
    put_rt_samples(&r, 2 /* 3D */, 2 /* 4 samples */);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.bad_state"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.thread_ends"), 2);
    CU_ASSERT_EQUAL(r.eot->count, 2);
    uint8_t all[4096];
    gpu_memory_read(r.mem, RT_BASE, all, sizeof all, NULL);
    unsigned changed = 0;
    for (unsigned i = 0; i < sizeof all; i++)
        changed += all[i] != 0x5a;
    CU_ASSERT_EQUAL(changed, 0);
    fflush(log);
    rewind(log);
    char text[4096] = { 0 };
    size_t n = fread(text, 1, sizeof text - 1, log);
    CU_ASSERT_TRUE(n > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "refused"));
    /* 3DSTATE_MULTISAMPLE asking for 32 samples: counted; a 1x RT still takes
     * the write at 1x (8 pixels, R8G8B8A8 1.0 = 0xff) */
    struct spec_3DSTATE_MULTISAMPLE ms = { .NumberOfMultisamples = 5 };
    inject_state(&r, SPEC_ID_3DSTATE_MULTISAMPLE, &ms, sizeof ms);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.bad_state"), 3);
    put_rt_samples(&r, 1, 0);
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 8);
    uint8_t t[4];
    read_texel(&r, ytile_offset(3, 1, 128), t);
    CU_ASSERT_EQUAL(t[0], 0xff);
    CU_ASSERT_EQUAL(t[3], 0xff);
    read_texel(&r, ytile_offset(4, 0, 128), t);     /* outside the two subspans */
    CU_ASSERT_EQUAL(t[0], 0x5a);
    sim_destroy(r.sim);
    fclose(log);
}

/* ---- logic ops ------------------------------------------------------------------------------ */

static void test_logic_ops(void)
{
    const uint32_t s = 0xF0F0CC00u, d = 0xFF00AA0Fu;
    const uint32_t want[16] = { 0, ~(s | d), ~s & d, ~s, s & ~d, ~d, s ^ d, ~(s & d), s & d,
                                ~(s ^ d), d, ~s | d, s, s | ~d, s | d, 0xFFFFFFFFu };
    for (uint32_t op = 0; op < 16; op++)
        CU_ASSERT_EQUAL(om_logic_op(op, s, d), want[op]);
    /* through the unit: XOR of the packed source with the destination */
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 8, 8, 32, 0, NULL);
    uint8_t dst[4] = { 0x0f, 0xf0, 0x55, 0xff };
    gpu_memory_write(r.mem, RT_BASE + 4, dst, 4, NULL);
    struct GEN9_BLEND_STATE_ENTRY e = { .LogicOpEnable = true, .LogicOpFunction = OM_LOGIC_XOR,
                                        .PreBlendColorClampEnable = true };
    set_blend(&r, 0, &e);
    uint32_t regs[4][8];
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits(1.0f);
        regs[1][i] = fbits(1.0f);
        regs[2][i] = fbits(0.0f);
        regs[3][i] = fbits(1.0f);
    }
    const uint16_t px[2] = { 0, 2 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 0x02);        /* pixel (1, 0) only */
    uint8_t t[4];
    gpu_memory_read(r.mem, RT_BASE + 4, t, 4, NULL);
    CU_ASSERT_EQUAL(t[0], 0xf0);
    CU_ASSERT_EQUAL(t[1], 0x0f);
    CU_ASSERT_EQUAL(t[2], 0x55);
    CU_ASSERT_EQUAL(t[3], 0x00);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_logic_op"), 1);
    sim_destroy(r.sim);
}

/* ---- fast clear ------------------------------------------------------------------------------ */

static void test_fast_clear_blocks(void)
{
    struct rig r = rig_new();
    const float clear[4] = { 0.0f, 0.0f, 0.25f, 1.0f };
    /* 192 x 64, Y-tiled, 32 bpp: blocks of 64 x 32 pixels */
    put_rt(&r, R8G8B8A8_UNORM, 192, 64, 768, 3, clear);
    fill(&r, 768 * 64, 0x11);
    struct spec_3DSTATE_PS ps = { .RenderTargetFastClearEnable = true };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &ps, sizeof ps);
    uint32_t regs[1][8] = { { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu } };
    /* one subspan at (0, 0), another at (2, 0): lit (1, 0), (2, 1) and (3, 1),
     * the last beyond the surface (3 * 64 >= 192) */
    const uint16_t px[4] = { 0, 2, 0, 0 }, py[4] = { 0, 0, 0, 0 };
    uint32_t mask = (1u << 1) | (1u << (4 + 2)) | (1u << (4 + 3));
    send_rt(&r, 0x82031100, regs, 0xffff, 2, px, py, mask);
    uint8_t want_clear[4] = { 0, 0, 64, 255 };
    uint32_t wrong = 0, cleared = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 192; x++) {
            bool in = (x >= 64 && x < 128 && y < 32) || (x >= 128 && y >= 32);
            uint8_t t[4];
            read_texel(&r, ytile_offset(x, y, 768), t);
            if (in) {
                cleared++;
                wrong += memcmp(t, want_clear, 4) != 0;
            } else {
                wrong += t[0] != 0x11 || t[3] != 0x11;
            }
        }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(cleared, 2 * 64 * 32);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.fast_clear_blocks"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.fast_clear_pixels"), 2 * 64 * 32);
    /* a resolve writes nothing */
    struct spec_3DSTATE_PS res = { .RenderTargetResolveType = 1 };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &res, sizeof res);
    send_rt(&r, 0x82031100, regs, 0xffff, 2, px, py, 0xff);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.resolve_messages"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.aux.not_modelled"), 1);   /* no aux bound */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.fast_clear_blocks"), 2);
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    CU_ASSERT_EQUAL(s[0].draw_count, 1);
    sim_destroy(r.sim);
}

#define CCS_BASE (RT_BASE + 0x10000u)

/* The CCS element (u, v) of a Gen9 CCS_D/E surface with one CCS tile a row,
 * by the Sky Lake Y row of Mesa's docs/isl/ccs.rst bit table (address bits 11
 * down to -2 in quarter bytes: u6 u5 u4 v6 v5 v4 v3 v2 v1 u3 u2 u1 v0 u0),
 * scattered one bit at a time here. */
static unsigned ccs_value(struct rig *r, uint32_t u, uint32_t v)
{
    static const struct { char coord; unsigned bit; } table[14] = {
        { 'u', 6 }, { 'u', 5 }, { 'u', 4 }, { 'v', 6 }, { 'v', 5 }, { 'v', 4 }, { 'v', 3 },
        { 'v', 2 }, { 'v', 1 }, { 'u', 3 }, { 'u', 2 }, { 'u', 1 }, { 'v', 0 }, { 'u', 0 },
    };
    uint32_t quarters = 0;
    for (unsigned i = 0; i < 14; i++) {
        uint32_t c = table[i].coord == 'u' ? u : v;
        quarters |= ((c >> table[i].bit) & 1u) << (13 - i);     /* position 11 - i, + 2 */
    }
    uint8_t byte;
    gpu_memory_read(r->mem, CCS_BASE + (quarters >> 2), &byte, 1, NULL);
    return (byte >> (2 * (quarters & 3))) & 3u;
}

/* skl_tri's first draw: the fast clear of its 64x64 Y-tiled R8G8B8A8_UNORM RT
 * (the SURFACE_STATE dwords of skl_tri.aubinator.txt lines ~1525-1610, with
 * the base address moved from 0xfffffffeffc00000 into this test's physical
 * space and the aux base to CCS_BASE; AUX_CCS_E, clear colour (0, 0,
 * 0x3e808081 = 0.25098, 1.0)); the RECTLIST (0,0)-(2,2) in scaled space
 * lights pixels (0..1, 0..1), of which (0, 0) and (0, 1) stand for the blocks
 * 0..63 x 0..31 and 0..63 x 32..63: every CCS element becomes CLEAR (3, seed
 * 003 L16852), the memory keeps its bytes, the image reads the clear colour.
 * Then an RT write of one pixel fills its cache-line pair, and a partial
 * resolve of the upper block writes the clear colour into its other pairs. */
static void test_skl_tri_fast_clear(void)
{
    struct rig r = rig_new();
    uint32_t dw[16] = { 0x331df03f, 0x04000010, 0x003f003f, 0x000000ff, 0x00000000, 0x00000f00,
                        0x00400005, 0x09770000, RT_BASE, 0, CCS_BASE, 0, 0, 0,
                        0x3e808081, 0x3f800000 };
    uint32_t state_off = 0x1000;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT, &state_off, 4, NULL);
    fill(&r, 64 * 64 * 4, 0x33);
    struct spec_3DSTATE_PS ps = { .RenderTargetFastClearEnable = true };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &ps, sizeof ps);
    /* the SIMD16 replicated clear kernel (mov g114 <- g2.3; sendc 0x82031100) */
    uint32_t regs[1][8] = { { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu } };
    const uint16_t px[1] = { 0 }, py[1] = { 0 };
    send_rt(&r, 0x82031100, regs, 0xffff, 1, px, py, 0xf);
    /* no colour is written: the 8 x 16 cache-line pairs' CCS elements are CLEAR */
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint8_t t[4];
            read_texel(&r, ytile_offset(x, y, 256), t);
            wrong += t[0] != 0x33 || t[2] != 0x33;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    wrong = 0;
    for (uint32_t v = 0; v < 16; v++)
        for (uint32_t u = 0; u < 8; u++)
            wrong += ccs_value(&r, u, v) != 3;
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.ccs.cleared"), 128);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.fast_clear_blocks"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 64 * 64);
    /* its image: every pixel (0, 0, 64, 255) */
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    uint64_t faults = 0;
    uint8_t *img = images_surface_rgba8(r.sim, &s[0], &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    wrong = 0;
    for (uint32_t i = 0; i < 64 * 64; i++)
        wrong += img[4 * i] != 0 || img[4 * i + 2] != 64 || img[4 * i + 3] != 255;
    CU_ASSERT_EQUAL(wrong, 0);
    free(img);
    /* a draw (the same state: its clear colour, L16847) writes red to (9, 5)
     * only: the pair 8..15 x 4..7 holds the clear colour around it and is
     * uncompressed (0); its neighbours stay CLEAR */
    struct spec_3DSTATE_PS draw = { 0 };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &draw, sizeof draw);
    uint32_t red[1][8] = { { fbits(1.0f), 0, 0, fbits(1.0f) } };
    const uint16_t dx[1] = { 8 }, dy[1] = { 4 };
    send_rt(&r, 0x82031100, red, 0xffff, 1, dx, dy, 1u << 3);    /* pixel LR = (9, 5) */
    wrong = 0;
    for (uint32_t y = 4; y < 8; y++)
        for (uint32_t x = 8; x < 16; x++) {
            uint8_t t[4];
            read_texel(&r, ytile_offset(x, y, 256), t);
            if (x == 9 && y == 5)
                wrong += t[0] != 255 || t[1] != 0 || t[2] != 0 || t[3] != 255;
            else
                wrong += t[0] != 0 || t[1] != 0 || t[2] != 64 || t[3] != 255;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(ccs_value(&r, 1, 1), 0);
    CU_ASSERT_EQUAL(ccs_value(&r, 0, 1), 3);
    CU_ASSERT_EQUAL(ccs_value(&r, 2, 1), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.ccs.filled"), 1);
    /* partial resolve: pixel (0, 0) stands for 64 x 32 pixels; the lower
     * block stays as it was */
    struct spec_3DSTATE_PS res = { .RenderTargetResolveType = 1 };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &res, sizeof res);
    send_rt(&r, 0x82031100, regs, 0xffff, 1, px, py, 0x1);
    wrong = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint8_t t[4];
            read_texel(&r, ytile_offset(x, y, 256), t);
            if (x == 9 && y == 5)
                wrong += t[0] != 255 || t[2] != 0;
            else if (y < 32)
                wrong += t[0] != 0 || t[1] != 0 || t[2] != 64 || t[3] != 255;
            else
                wrong += t[0] != 0x33 || t[2] != 0x33;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    wrong = 0;
    for (uint32_t v = 0; v < 16; v++)
        for (uint32_t u = 0; u < 8; u++)
            wrong += ccs_value(&r, u, v) != (v < 8 ? 0u : 3u);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.resolve_pixels"), 64 * 32 - 32);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.ccs.resolved"), 63);
    sim_destroy(r.sim);
}

/* A 4x MSS 8 x 4 linear R8G8B8A8_UNORM RT (samples as array slices 4 rows
 * apart: QPitch field 1) with an MCS (Gen9 AUX_CCS_D on a multisampled
 * surface, seed 003 L16780-16788) at MCS_BASE, 128 B pitch, Y-tiled (L16795):
 * pixel (x, y)'s byte at (x / 16) * 512 + y * 16 + x % 16, by hand. The fast
 * clear sets every MCS byte to 0xff; a fully covered pixel whose samples end
 * equal is stored compressed (MCS 0, plane 0 only); a pixel with samples 0
 * and 1 covered keeps the clear colour in samples 2 and 3 (MCS 0xe4, sample s
 * in plane s: Mesa's ambiguate value, log2(4) = 2 bits a sample). */
#define MCS_BASE (RT_BASE + 0x20000u)
static void test_mcs_clear_and_compression(void)
{
    struct rig r = rig_new();
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 7;
    v.Height = 3;
    v.SurfaceArray = true;
    v.SurfacePitch = 32 - 1;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.SurfaceQPitch = 1;
    v.NumberOfMultisamples = 2;             /* MULTISAMPLECOUNT_4 */
    v.AuxiliarySurfaceMode = 1;
    v.AuxiliarySurfaceBaseAddress = MCS_BASE;
    v.SurfaceBaseAddress = RT_BASE;
    v.MipTailStartLOD = 15;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    const float clear[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
    memcpy(&dw[12], clear, 16);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT, &state_off, 4, NULL);
    fill(&r, 4 * 4 * 32, 0x33);
    struct spec_3DSTATE_PS ps = { .RenderTargetFastClearEnable = true };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &ps, sizeof ps);
    uint32_t regs[1][8] = { { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu } };
    /* the clear rectangle: ceil(8 / 8) x ceil(4 / 2) = pixels (0, 0), (0, 1) */
    const uint16_t px[1] = { 0 }, py[1] = { 0 };
    send_rt(&r, 0x82031100, regs, 0xffff, 1, px, py, 0x5);
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint8_t b;
            gpu_memory_read(r.mem, MCS_BASE + (x / 16) * 512 + y * 16 + x % 16, &b, 1, NULL);
            wrong += b != 0xff;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.mcs.cleared"), 32);
    /* green to subspan (2, 2): UL all samples, UR samples 0 and 1 */
    struct spec_3DSTATE_PS draw = { 0 };
    inject_state(&r, SPEC_ID_3DSTATE_PS, &draw, sizeof draw);
    uint32_t green[1][8] = { { 0, fbits(1.0f), 0, fbits(1.0f) } };
    const uint16_t dx[1] = { 2 }, dy[1] = { 2 };
    uint16_t masks[32] = { 0 };
    masks[0] = 0xf;
    masks[1] = 0x3;
    send_rt_samples(&r, 0x82031100, green, 0xffff, 1, dx, dy, 0x3, true, 0, masks);
    uint8_t b;
    gpu_memory_read(r.mem, MCS_BASE + 2 * 16 + 2, &b, 1, NULL);
    CU_ASSERT_EQUAL(b, 0x00);
    gpu_memory_read(r.mem, MCS_BASE + 2 * 16 + 3, &b, 1, NULL);
    CU_ASSERT_EQUAL(b, 0xe4);
    uint8_t t[4];
    read_texel(&r, (0 * 4 + 2) * 32 + 4 * 2, t);            /* (2, 2) plane 0 */
    CU_ASSERT(t[0] == 0 && t[1] == 255 && t[2] == 0 && t[3] == 255);
    read_texel(&r, (1 * 4 + 2) * 32 + 4 * 2, t);            /* (2, 2) plane 1: untouched */
    CU_ASSERT_EQUAL(t[0], 0x33);
    for (uint32_t smp = 0; smp < 4; smp++) {
        read_texel(&r, (smp * 4 + 2) * 32 + 4 * 3, t);      /* (3, 2) plane smp */
        bool is_green = t[0] == 0 && t[1] == 255 && t[2] == 0 && t[3] == 255;
        bool is_blue = t[0] == 0 && t[1] == 0 && t[2] == 255 && t[3] == 255;
        CU_ASSERT(smp < 2 ? is_green : is_blue);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.mcs.compressed"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.mcs.uncompressed"), 1);
    /* the averaged image: (2, 2) green, (3, 2) half green half blue, the rest
     * the clear colour */
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    uint64_t faults = 0;
    uint8_t *img = images_surface_rgba8(r.sim, &s[0], &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    const uint8_t *p22 = img + 4 * (2 * 8 + 2), *p32 = img + 4 * (2 * 8 + 3), *p00 = img;
    CU_ASSERT(p22[1] == 255 && p22[2] == 0);
    CU_ASSERT(p32[1] == 128 && p32[2] == 128);
    CU_ASSERT(p00[1] == 0 && p00[2] == 255 && p00[3] == 255);
    free(img);
    sim_destroy(r.sim);
}

/* Per-sample dispatch's RT writes (seed 003 L7700-7725, "sspi = Starting
 * Sample Pair Index (from the message header)"): a SIMD8 PERSAMPLE thread
 * at 4x holds Subspan[0].Pixel[3:0].Sample[2 SSPI] in slots 3:0 and
 * Sample[2 SSPI + 1] in slots 7:4. The render cache writes each slot to that
 * one sample, taking SSPI from the header's R0.0[7:6] (L16149), or from the
 * thread (thread_msg.h starting_sample_pair) for a headerless write; no
 * per-pixel sample masks are given, so only the SSPI decides. A 4x MSS
 * 8 x 4 linear R8G8B8A8_UNORM RT without MCS, sample s in the array slice
 * 4 rows down per sample (QPitch 1, as test_mcs_clear_and_compression). */
static void put_rt_4x_linear(struct rig *r)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = 7;
    v.Height = 3;
    v.SurfaceArray = true;
    v.SurfacePitch = 32 - 1;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.SurfaceQPitch = 1;
    v.NumberOfMultisamples = 2;             /* MULTISAMPLECOUNT_4 */
    v.SurfaceBaseAddress = RT_BASE;
    v.MipTailStartLOD = 15;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000;
    gpu_memory_write(r->mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r->mem, SSBA + BT, &state_off, 4, NULL);
    fill(r, 4 * 4 * 32, 0x33);
}

static void send_rt_per_sample(struct rig *r, uint32_t desc, const uint32_t (*regs)[8],
                               uint32_t exec_mask, uint32_t pixel_mask, uint8_t sspi)
{
    unsigned n = (desc >> 25) & 15;
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = (uint8_t)n;
    p->slot = 2;
    p->exec_size = 8;
    p->flags = EU_SEND_SENDC | EU_SEND_DST_NULL;
    p->desc = desc;
    p->exec_mask = exec_mask;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT, .surface_state_base = SSBA,
                                         .binding_table_entries = 1, .group = 78, .subspans = 2,
                                         .pixel_mask = pixel_mask,
                                         .pixel_flags = EU_PIXEL_PER_SAMPLE,
                                         .starting_sample_pair = sspi };
    /* both slot groups are subspan (2, 2)'s samples */
    p->ctx.pixel_x[0] = p->ctx.pixel_x[1] = 2;
    p->ctx.pixel_y[0] = p->ctx.pixel_y[1] = 2;
    memcpy(p->regs, regs, n * 32);
    CU_ASSERT_TRUE(port_inject(unit_port(r->om, "eu", 0), m));
    sim_run(r->sim, 0);
}

static void test_per_sample_rt_writes(void)
{
    struct rig r = rig_new();
    put_rt_4x_linear(&r);
    /* header, SSPI 1 in R0.0[7:6]: slots 3:0 are sample 2 (red at UL and
     * UR), slots 7:4 sample 3 (green at UL); the thread's own SSPI (0) is
     * not the one used */
    uint32_t regs[6][8] = { { 0 } };
    regs[0][0] = 1u << 6;
    regs[1][2] = 2u | 2u << 16;                     /* M1.2 group 0: subspan (2, 2) */
    regs[1][3] = 2u | 2u << 16;                     /* M1.3 group 1: the same subspan */
    regs[1][7] = 0x3u | 0x1u << 4;
    for (int i = 0; i < 8; i++) {
        regs[2][i] = fbits(i < 4 ? 1.0f : 0.0f);     /* R */
        regs[3][i] = fbits(i < 4 ? 0.0f : 1.0f);     /* G */
        regs[4][i] = fbits(0.0f);
        regs[5][i] = fbits(1.0f);
    }
    uint32_t desc = 6u << 25 | 1u << 19 | 12u << 14 | 1u << 12 | 4u << 8;
    send_rt_per_sample(&r, desc, regs, 0xff, 0x13, 0);
    uint8_t t[4];
    /* sample s of pixel (x, y) at ((s * 4 + y) * 32 + 4 x) */
    for (uint32_t smp = 0; smp < 4; smp++) {
        read_texel(&r, (smp * 4 + 2) * 32 + 4 * 2, t);      /* (2, 2) */
        bool red = t[0] == 255 && t[1] == 0 && t[3] == 255;
        bool green = t[0] == 0 && t[1] == 255 && t[3] == 255;
        CU_ASSERT(smp == 2 ? red : smp == 3 ? green : t[0] == 0x33);
        read_texel(&r, (smp * 4 + 2) * 32 + 4 * 3, t);      /* (3, 2) */
        red = t[0] == 255 && t[1] == 0 && t[3] == 255;
        CU_ASSERT(smp == 2 ? red : t[0] == 0x33);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.per_sample_slots"), 3);
    /* headerless, the thread's SSPI 0: slots 3:0 sample 0, 7:4 sample 1;
     * lit: UL of group 0, LR of group 1 (blue) */
    uint32_t blue[4][8] = { { 0 } };
    for (int i = 0; i < 8; i++) {
        blue[2][i] = fbits(1.0f);
        blue[3][i] = fbits(1.0f);
    }
    uint32_t hdesc = 4u << 25 | 12u << 14 | 1u << 12 | 4u << 8;
    send_rt_per_sample(&r, hdesc, blue, 0xff, 0x1u | 0x8u << 4, 0);
    read_texel(&r, (0 * 4 + 2) * 32 + 4 * 2, t);            /* (2, 2) sample 0 */
    CU_ASSERT(t[0] == 0 && t[2] == 255);
    read_texel(&r, (1 * 4 + 2) * 32 + 4 * 2, t);            /* (2, 2) sample 1: not lit */
    CU_ASSERT_EQUAL(t[0], 0x33);
    read_texel(&r, (1 * 4 + 3) * 32 + 4 * 3, t);            /* (3, 3) sample 1 */
    CU_ASSERT(t[0] == 0 && t[2] == 255);
    read_texel(&r, (0 * 4 + 3) * 32 + 4 * 3, t);            /* (3, 3) sample 0: not lit */
    CU_ASSERT_EQUAL(t[0], 0x33);
    read_texel(&r, (2 * 4 + 2) * 32 + 4 * 2, t);            /* (2, 2) sample 2: still red */
    CU_ASSERT(t[0] == 255 && t[2] == 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "om.pixels_written"), 5);
    sim_destroy(r.sim);
}

/* ---- the PNG writer and images ------------------------------------------------------------- */

/* CRC-32 written again, table-driven, for checking the writer's chunks. */
static uint32_t crc_table_driven(const uint8_t *p, size_t n)
{
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Parses a PNG made of IHDR, IDAT(s), IEND with a stored-block zlib stream;
 * checks every CRC and the Adler-32, returns the raw (filtered) bytes. */
static uint8_t *parse_png(const uint8_t *png, size_t n, uint32_t *w, uint32_t *h, size_t *raw_n)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    CU_ASSERT_FATAL(n > 8 && memcmp(png, sig, 8) == 0);
    uint8_t *z = malloc(n);
    size_t zn = 0, at = 8;
    bool end = false;
    while (at + 12 <= n && !end) {
        uint32_t len = be32(png + at);
        CU_ASSERT_FATAL(at + 12 + len <= n);
        const uint8_t *type = png + at + 4;
        CU_ASSERT_EQUAL(be32(png + at + 8 + len), crc_table_driven(type, len + 4));
        if (!memcmp(type, "IHDR", 4)) {
            *w = be32(type + 4);
            *h = be32(type + 8);
            CU_ASSERT_EQUAL(type[12], 8);   /* bit depth */
            CU_ASSERT_EQUAL(type[13], 6);   /* RGBA */
        } else if (!memcmp(type, "IDAT", 4)) {
            memcpy(z + zn, type + 4, len);
            zn += len;
        } else if (!memcmp(type, "IEND", 4)) {
            CU_ASSERT_EQUAL(be32(png + at + 8), 0xAE426082u);     /* the well-known IEND CRC */
            end = true;
        }
        at += 12 + len;
    }
    CU_ASSERT_TRUE(end);
    CU_ASSERT_EQUAL(at, n);
    /* zlib: header, stored blocks, Adler-32 */
    CU_ASSERT_EQUAL((z[0] << 8 | z[1]) % 31, 0);
    CU_ASSERT_EQUAL(z[0] & 15, 8);
    uint8_t *raw = malloc(zn);
    size_t rn = 0, p = 2;
    bool final = false;
    while (!final && p + 5 <= zn) {
        final = z[p] & 1;
        CU_ASSERT_EQUAL((z[p] >> 1) & 3, 0);
        uint32_t len = z[p + 1] | z[p + 2] << 8, nlen = z[p + 3] | z[p + 4] << 8;
        CU_ASSERT_EQUAL(len ^ 0xffff, nlen);
        memcpy(raw + rn, z + p + 5, len);
        rn += len;
        p += 5 + len;
    }
    CU_ASSERT_TRUE(final);
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < rn; i++) {
        a = (a + raw[i]) % 65521;
        b = (b + a) % 65521;
    }
    CU_ASSERT_EQUAL(be32(z + p), b << 16 | a);
    CU_ASSERT_EQUAL(p + 4, zn);
    free(z);
    *raw_n = rn;
    return raw;
}

static void test_png_writer(void)
{
    /* the standard check values */
    CU_ASSERT_EQUAL(png_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
    CU_ASSERT_EQUAL(png_adler32((const uint8_t *)"Wikipedia", 9), 0x11E60398u);
    /* 200 x 100: 80100 bytes of rows, two stored blocks */
    uint32_t w = 200, h = 100;
    uint8_t *rgba = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        rgba[i] = (uint8_t)(i * 7 + i / 13);
    uint8_t *png;
    size_t n = png_encode_rgba8(w, h, rgba, &png);
    uint32_t pw = 0, ph = 0;
    size_t rn;
    uint8_t *raw = parse_png(png, n, &pw, &ph, &rn);
    CU_ASSERT_EQUAL(pw, w);
    CU_ASSERT_EQUAL(ph, h);
    CU_ASSERT_EQUAL_FATAL(rn, (size_t)(w * 4 + 1) * h);
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++) {
        bad += raw[y * (w * 4 + 1)] != 0;
        bad += memcmp(raw + y * (w * 4 + 1) + 1, rgba + (size_t)y * w * 4, w * 4) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(raw);
    free(png);
    free(rgba);
}

static void test_images_match_memory(void)
{
    struct rig r = rig_new();
    put_rt(&r, R8G8B8A8_UNORM, 4, 2, 16, 0, NULL);
    uint8_t mem[2][4][4];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++)
                mem[y][x][c] = (uint8_t)(y * 100 + x * 20 + c * 3);
    gpu_memory_write(r.mem, RT_BASE, mem, sizeof mem, NULL);
    /* one pixel written by the unit so the surface is recorded: (3, 1) */
    uint32_t regs[4][8] = { { 0 } };
    for (int i = 0; i < 8; i++) {
        regs[0][i] = fbits(1.0f);
        regs[3][i] = fbits(1.0f);
    }
    const uint16_t px[2] = { 2, 0 }, py[2] = { 0, 0 };
    send_rt(&r, 0x88031400, regs, 0xff, 2, px, py, 1u << 3);
    memcpy(mem[1][3], (uint8_t[]){ 255, 0, 0, 255 }, 4);
    uint64_t faults = 0;
    const struct om_surface *s;
    CU_ASSERT_EQUAL_FATAL(om_written_surfaces(r.om, &s), 1);
    uint8_t *img = images_surface_rgba8(r.sim, &s[0], &faults);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    CU_ASSERT_EQUAL(faults, 0);
    CU_ASSERT_EQUAL(memcmp(img, mem, sizeof mem), 0);
    free(img);
    /* and on disk, with the listing */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/images", test_temp_dir());
    struct gt_error err;
    CU_ASSERT_EQUAL(images_write(r.sim, dir, &err), 1);
    char path[4400];
    snprintf(path, sizeof path, "%s/400000-4x2-R8G8B8A8_UNORM.png", dir);
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    uint8_t buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint32_t w = 0, h = 0;
    size_t rn;
    uint8_t *raw = parse_png(buf, n, &w, &h, &rn);
    CU_ASSERT_EQUAL(w, 4);
    CU_ASSERT_EQUAL(h, 2);
    CU_ASSERT_EQUAL_FATAL(rn, 2 * 17);
    CU_ASSERT_EQUAL(memcmp(raw + 1, mem[0], 16), 0);
    CU_ASSERT_EQUAL(memcmp(raw + 18, mem[1], 16), 0);
    free(raw);
    snprintf(path, sizeof path, "%s/images.json", dir);
    f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr((char *)buf, "\"address\": \"0x400000\""));
    CU_ASSERT_PTR_NOT_NULL(strstr((char *)buf, "\"draws\": [1]"));
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "per-sample RT writes: each slot to the sample its SSPI names", test_per_sample_rt_writes },
    { "SIMD8 headerless RT write (skl_tri 0x88031400) to a Y-tiled RT", test_simd8_headerless },
    { "SIMD16 headerless RT write (skl_tri 0x90031000)", test_simd16_headerless },
    { "SIMD16 replicated RT write (skl_tri 0x82031100)", test_replicated },
    { "header: RT index selects the BLEND_STATE entry, pixel mask; RT read; L3 timing",
      test_header_rt_index_and_read },
    { "blend factors and functions, MIN/MAX with factors, alpha test and coverage",
      test_blend_arithmetic },
    { "blending on an sRGB RT decodes the destination and encodes the result",
      test_blend_srgb_and_constant },
    { "constant colour and per-channel write disables", test_constant_colour_and_write_mask },
    { "logic ops", test_logic_ops },
    { "antialiased lines: coverage multiplies source alpha before blending", test_aa_line_alpha },
    { "bad RTs: unsupported format named and counted, RT outside memory", test_bad_render_targets },
    { "bad sample counts: reserved, MSAA on a 3D surface, 3DSTATE_MULTISAMPLE", test_bad_sample_counts },
    { "fast clear fills the blocks of a Y-tiled RT; resolve writes nothing", test_fast_clear_blocks },
    { "skl_tri's fast clear marks its CCS; a write fills a pair; a partial resolve",
      test_skl_tri_fast_clear },
    { "MCS: fast clear, compressed and uncompressed pixels, the image", test_mcs_clear_and_compression },
    { "PNG writer: chunks, CRCs, stored deflate blocks, Adler-32", test_png_writer },
    { "images of written surfaces match the bytes in memory", test_images_match_memory },
    { 0 }
};
TEST_SUITE(om, cases);
