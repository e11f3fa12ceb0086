/* tests/units/test_sampler.c - the sampler driven alone: SFID 2 SEND messages are
 * injected on its "eu" port, its write-backs caught. Surfaces, SAMPLER_STATEs and
 * texels are written by the test; expected values are computed here:
 *  - Y tiling from seed 003 L5332-5344 (4 KiB tiles of 128 B x 32 rows made of
 *    16-byte columns of 32 rows), written out in this file;
 *  - UNORM8 as byte / 255 (003 L5193-5199);
 *  - texel space and filtering as GL 4.6 §8.14 / Vulkan "Texel Filtering" define
 *    them (the texel centre at +0.5, bilinear weights from frac(t - 0.5); the
 *    sampler's 8 fraction bits, its `weight_bits` model choice, applied here too);
 *  - address modes with the Vulkan "Wrapping Operation" formulas (repeat,
 *    mirrored repeat, clamp to edge / border, mirror clamp to edge), written
 *    differently from the unit's;
 *  - LOD: log2 of the subspan's texel-space derivatives (003 L3090-3094), and the
 *    mip selection of 003 L3132-3198;
 *  - the skl_tri read-back blit's message: `send(8) ... 0x0643a001 ld_lz SIMD8
 *    Surface = 1 Sampler = 0 mlen 3 rlen 4` with u, v, r integers
 *    (/work/shared/traces/intel/skl/skl_tri.aubinator.txt, the SIMD8 PS of the
 *    read-back blit; descriptor copied here). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/format.h"
#include "units/common/sampler.h"
#include "units/common/surface.h"
#include "units/common/thread_msg.h"
#include "units/l3/l3.h"
#include "units/memory/memory.h"
#include "units/sampler/sampler.h"
#include "units/sampler/sampler_internal.h"

#define SSBA 0x100000u          /* surface state base (physical) */
#define BT 0x40u                /* binding table offset */
#define DSBA 0x200000u          /* dynamic state base */
#define SSP 0x100u              /* sampler state table, from DSBA */
#define BORDER 0x400u           /* border colour, from DSBA */
#define TEX 0x400000u           /* textures */

#define SKL_TRI_LD_LZ_SIMD8 0x0643a001u
#define SKL_TRI_LD_LZ_SIMD16 0x0c85a001u

struct catcher {
    struct port *in;
    uint64_t count;
    uint64_t cycle;
    uint8_t rlen;
    uint32_t regs[16][8];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "write-backs" },
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
        const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
        CU_ASSERT_EQUAL(m->kind, MSG_WRITEBACK);
        c->count++;
        c->cycle = unit_cycle(u);
        c->rlen = w->rlen;
        memset(c->regs, 0, sizeof c->regs);
        memcpy(c->regs, w->regs, (size_t)(w->rlen > 16 ? 16 : w->rlen) * 32);
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_sampler_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *smp, *catcher;
};

static struct rig rig_new(bool with_l3, const char *const *over)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.smp = probe_add(r.sim, &sampler_ops, "smp", over);
    r.catcher = probe_add(r.sim, &catcher_ops, "wb", NULL);
    probe_link(r.sim, r.smp, "writeback[0]", r.catcher, "in", 1, 8, 4);
    if (with_l3) {
        const char *l3_over[] = { "size_kib=768", "banks=4", "cache_kib=384", "urb_kib=384", NULL };
        struct unit *l3 = probe_add(r.sim, &l3_ops, "l3", l3_over);
        struct unit *mem = probe_add(r.sim, &memory_ops, "mem", NULL);
        probe_link(r.sim, r.smp, "l3", l3, "client[0]", 1, 16, 4);
        probe_link(r.sim, l3, "client_reply[0]", r.smp, "l3_reply", 1, 16, 4);
        probe_link(r.sim, l3, "memory", mem, "client[0]", 1, 16, 4);
        probe_link(r.sim, mem, "client_reply[0]", l3, "memory_reply", 1, 16, 4);
    }
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "smp.eu[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

static struct catcher *caught(struct rig *r)
{
    return unit_state(r->catcher);
}

/* ---- state ---------------------------------------------------------------------------- */

struct surf_desc {
    uint32_t type, format, width, height, depth, pitch, tile_mode, mip_count, min_lod;
    uint32_t qpitch_field;      /* SurfaceQPitch (rows / 4) */
    double resource_min_lod;
    uint64_t base;
    bool array;
};

/* Packs a Gen9 RENDER_SURFACE_STATE with identity channel selects at BTI bti;
 * returns its decode through the surfaces library (for mip addresses). */
static struct surface put_surface(struct rig *r, uint32_t bti, const struct surf_desc *d)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = d->type;
    v.SurfaceFormat = d->format;
    v.Width = d->width - 1;
    v.Height = d->height - 1;
    v.Depth = d->depth ? d->depth - 1 : 0;
    v.SurfaceArray = d->array;
    v.SurfacePitch = d->pitch - 1;
    v.TileMode = d->tile_mode;
    v.SurfaceHorizontalAlignment = 1;   /* HALIGN_4 */
    v.SurfaceVerticalAlignment = 1;     /* VALIGN_4 */
    v.MIPCountLOD = d->mip_count;
    v.SurfaceMinLOD = d->min_lod;
    v.SurfaceBaseAddress = d->base;
    v.SurfaceQPitch = d->qpitch_field;
    v.ResourceMinLOD = d->resource_min_lod;
    v.ShaderChannelSelectRed = 4;
    v.ShaderChannelSelectGreen = 5;
    v.ShaderChannelSelectBlue = 6;
    v.ShaderChannelSelectAlpha = 7;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000 + bti * 64;
    gpu_memory_write(r->mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r->mem, SSBA + BT + 4 * bti, &state_off, 4, NULL);
    struct surface sd;
    surface_from_state(9, dw, &sd);
    sd.levels = sd.min_lod + sd.mip_count_lod + 1;
    return sd;
}

struct samp_desc {
    uint32_t min, mag, mip;
    uint32_t tcx, tcy, tcz;
    double bias, min_lod, max_lod;
    bool non_normalized;
    uint32_t shadow;            /* Shadow Function (PREFILTEROP_*) */
    bool reduction_enable;
    uint32_t reduction;         /* Reduction Type: 2 MINIMUM, 3 MAXIMUM */
    uint32_t max_aniso;         /* Maximum Anisotropy: ratio 2 (n + 1) */
    bool cube_override;         /* Cube Surface Control Mode OVERRIDE */
};

static void put_sampler(struct rig *r, uint32_t index, const struct samp_desc *d)
{
    struct GEN9_SAMPLER_STATE v = { 0 };
    v.MinModeFilter = d->min;
    v.MagModeFilter = d->mag;
    v.MipModeFilter = d->mip;
    v.TCXAddressControlMode = d->tcx;
    v.TCYAddressControlMode = d->tcy;
    v.TCZAddressControlMode = d->tcz;
    v.TextureLODBias = d->bias;
    v.MinLOD = d->min_lod;
    v.MaxLOD = d->max_lod;
    v.NonNormalizedCoordinateEnable = d->non_normalized;
    v.ShadowFunction = d->shadow;
    v.ReductionTypeEnable = d->reduction_enable;
    v.ReductionType = d->reduction;
    v.MaximumAnisotropy = d->max_aniso;
    v.CubeSurfaceControlMode = d->cube_override;
    v.BorderColorPointer = BORDER;
    uint32_t dw[4] = { 0 };
    CU_ASSERT_EQUAL(GEN9_SAMPLER_STATE_pack(dw, &v), 0);
    gpu_memory_write(r->mem, DSBA + SSP + 16 * index, dw, sizeof dw, NULL);
}

static const float border_colour[4] = { 0.25f, 0.5f, 0.75f, 1.0f };

static void put_border(struct rig *r)
{
    gpu_memory_write(r->mem, DSBA + BORDER, border_colour, sizeof border_colour, NULL);
}

/* A SEND to the sampler: desc's message fields plus mlen/rlen/header. */
static struct msg *send_msg(struct rig *r, uint32_t desc, uint8_t mlen, uint8_t rlen,
                            uint32_t exec_mask, bool header, const uint32_t (*regs)[8])
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + mlen * 32u));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    memset(p, 0, sizeof *p);
    p->sfid = 2;
    p->mlen = mlen;
    p->rlen = rlen;
    p->slot = 2;
    p->dst_reg = 40;
    p->exec_size = 16;
    p->flags = header ? EU_SEND_HEADER : 0;
    p->desc = (desc & ~(0xfu << 25 | 0x1fu << 20 | 1u << 19)) | (uint32_t)mlen << 25 |
              (uint32_t)rlen << 20 | (header ? 1u << 19 : 0);
    p->exec_mask = exec_mask;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT,
                                         .surface_state_base = SSBA, .dynamic_state_base = DSBA,
                                         .binding_table_entries = 8, .sampler_state = SSP };
    memcpy(p->regs, regs, (size_t)mlen * 32);
    return m;
}

static void run(struct rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->smp, "eu", 0), m));
    sim_run(r->sim, 0);
}

/* Descriptor of a headerless sampler message (mlen/rlen filled by send_msg). */
static uint32_t desc_of(uint32_t type, uint32_t simd, uint32_t bti, uint32_t sampler)
{
    return type << 12 | simd << 17 | sampler << 8 | bti;
}

static float as_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* ---- an independent Y tiling (003 L5332-5344) ------------------------------------- */

static uint64_t tile_y_offset(uint32_t pitch, uint32_t x_bytes, uint32_t y)
{
    uint64_t tile = (uint64_t)(y / 32) * (pitch / 128) + x_bytes / 128;
    return tile * 4096 + (x_bytes % 128) / 16 * 512 + (y % 32) * 16 + x_bytes % 16;
}

static void texel_rgba8(uint32_t x, uint32_t y, uint8_t t[4])
{
    t[0] = (uint8_t)(x * 3 + 1);
    t[1] = (uint8_t)(y * 5 + 2);
    t[2] = (uint8_t)((x ^ y) * 7);
    t[3] = (uint8_t)(255 - x);
}

/* A 64 x 32 R8G8B8A8_UNORM Y-tiled surface at BTI 1, texels placed by tile_y_offset. */
static void put_tiled_rgba8(struct rig *r)
{
    struct surf_desc d = { .type = 1, .format = 0xC7, .width = 64, .height = 32, .pitch = 256,
                           .tile_mode = 3, .base = TEX };
    put_surface(r, 1, &d);
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint8_t t[4];
            texel_rgba8(x, y, t);
            gpu_memory_write(r->mem, TEX + tile_y_offset(256, x * 4, y), t, 4, NULL);
        }
}

/* ---- decode ---------------------------------------------------------------------------- */

/* The skl_tri read-back blit's SIMD8 ld_lz: headerless, mlen 3 (u, v, r), rlen 4. */
static void test_decode_skl_tri_ld_lz(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t regs[3][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = 10 + i;
        regs[1][i] = 20 + i;
        regs[2][i] = 0;
    }
    struct msg *m = send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs);
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    CU_ASSERT_EQUAL(p->desc, SKL_TRI_LD_LZ_SIMD8);      /* the capture's descriptor, as is */
    struct smp s = { .gen = 9 };
    struct smp_exec x = { .s = &s, .p = p, .ctx = &p->ctx, .gen = 9, .rlen = 4 };
    CU_ASSERT_TRUE(smp_decode(&x));
    CU_ASSERT_EQUAL(x.req.message, SAMPLER_LD_LZ);
    CU_ASSERT_EQUAL(x.req.simd, SAMPLER_SIMD8);
    CU_ASSERT_EQUAL(x.req.lanes, 8);
    CU_ASSERT_EQUAL(x.req.surface_index, 1);
    CU_ASSERT_EQUAL(x.req.sampler_index, 0);
    CU_ASSERT_EQUAL(x.req.parameter_count, 3);
    CU_ASSERT_EQUAL(x.req.channel_mask, 0xf);
    CU_ASSERT_EQUAL(x.req.half_precision, 0);
    CU_ASSERT_EQUAL(x.req.sampler_state, DSBA + SSP);
    CU_ASSERT_FALSE(x.header);
    CU_ASSERT_EQUAL(x.req.parameters[0][5], 15);
    CU_ASSERT_EQUAL(x.req.parameters[1][7], 27);
    /* a header overrides the pointer and the channels, and gives offsets */
    uint32_t hregs[4][8] = { { 0 } };
    hregs[0][2] = 0xau << 12 | 0xfu << 8 | 0x1u << 4 | 0x8u;   /* G, A masked; U -1, V 1, R -8 */
    hregs[0][3] = 0x2e0;
    struct msg *h = send_msg(&r, SKL_TRI_LD_LZ_SIMD16, 4, 4, 0xffff, true, hregs);
    const struct eu_send_msg *hp = (const struct eu_send_msg *)h->payload;
    struct smp_exec y = { .s = &s, .p = hp, .ctx = &hp->ctx, .gen = 9, .rlen = 4 };
    CU_ASSERT_TRUE(smp_decode(&y));
    CU_ASSERT_EQUAL(y.req.simd, SAMPLER_SIMD16);
    CU_ASSERT_EQUAL(y.req.lanes, 16);
    CU_ASSERT_EQUAL(y.req.parameter_count, 1);          /* (4 - 1) / 2 */
    CU_ASSERT_EQUAL(y.req.channel_mask, 0x5);
    CU_ASSERT_EQUAL(y.req.offset_u, -1);
    CU_ASSERT_EQUAL(y.req.offset_v, 1);
    CU_ASSERT_EQUAL(y.req.offset_r, -8);
    CU_ASSERT_EQUAL(y.req.sampler_state, DSBA + 0x2e0);
    msg_free(r.sim, m);
    msg_free(r.sim, h);
    sim_destroy(r.sim);
}

/* ---- ld --------------------------------------------------------------------------------- */

static const uint32_t ld_u[16] = { 0, 1, 5, 17, 31, 32, 63, 40, 2, 9, 60, 33, 7, 0, 63, 12 };
static const uint32_t ld_v[16] = { 0, 0, 3, 9, 31, 1, 30, 16, 5, 6, 7, 8, 29, 31, 0, 3 };

static void check_rgba8_lane(const struct catcher *c, unsigned regs_per_ch, unsigned lane,
                             uint32_t x, uint32_t y)
{
    uint8_t t[4];
    texel_rgba8(x, y, t);
    for (unsigned ch = 0; ch < 4; ch++) {
        float got = as_float(c->regs[ch * regs_per_ch + lane / 8][lane % 8]);
        CU_ASSERT_DOUBLE_EQUAL(got, t[ch] / 255.0, 1e-7);
    }
}

/* ld_lz of the skl_tri form on a Y-tiled RGBA8 surface, SIMD8 and SIMD16 (the
 * SIMD16 reply: two registers a channel, 003 L4654-4680; lanes off the exec mask
 * keep zeros). */
static void test_ld_lz_tiled(void)
{
    struct rig r = rig_new(false, NULL);
    put_tiled_rgba8(&r);
    uint32_t regs[6][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = ld_u[i];
        regs[1][i] = ld_v[i];
    }
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    CU_ASSERT_EQUAL(c->rlen, 4);
    for (unsigned i = 0; i < 8; i++)
        check_rgba8_lane(c, 1, i, ld_u[i], ld_v[i]);
    /* SIMD16: u in M0-M1, v in M2-M3, r in M4-M5 */
    memset(regs, 0, sizeof regs);
    for (unsigned i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = ld_u[i];
        regs[2 + i / 8][i % 8] = ld_v[i];
    }
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD16, 6, 8, 0x7fff, false, regs));
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    for (unsigned i = 0; i < 15; i++)
        check_rgba8_lane(c, 2, i, ld_u[i], ld_v[i]);
    for (unsigned ch = 0; ch < 4; ch++)
        CU_ASSERT_EQUAL(c->regs[ch * 2 + 1][7], 0);     /* lane 15 disabled */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.ld_lz"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.texels"), 23);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.out_of_bounds"), 0);
    sim_destroy(r.sim);
}

/* Out-of-range ld coordinates, array index and LOD return zero (003 L4558), with
 * header offsets (M0.2) added to the coordinates; resinfo (L4304-4323). */
static void test_ld_out_of_bounds_and_resinfo(void)
{
    struct rig r = rig_new(false, NULL);
    put_tiled_rgba8(&r);
    uint32_t regs[5][8] = { { 0 } };
    /* Gen9 ld: u, v, lod, r */
    const uint32_t u[8] = { 64, 3, 0xffffffffu, 3, 3, 63, 10, 4 };
    const uint32_t v[8] = { 0, 32, 0, 1, 1, 31, 2, 4 };
    const uint32_t lod[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };
    const uint32_t rr[8] = { 0, 0, 0, 0, 1, 0, 0, 0 };
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = u[i];
        regs[1][i] = v[i];
        regs[2][i] = lod[i];
        regs[3][i] = rr[i];
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_LD, 1, 1, 0), 4, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 5; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            CU_ASSERT_EQUAL(c->regs[ch][i], 0);
    for (unsigned i = 5; i < 8; i++)
        check_rgba8_lane(c, 1, i, u[i], v[i]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.out_of_bounds"), 5);
    /* header offsets: U +2, V -3 (4-bit two's complement), write mask: B masked */
    uint32_t h[5][8] = { { 0 } };
    h[0][2] = 0x4u << 12 | 0x2u << 8 | 0xdu << 4;
    for (unsigned i = 0; i < 8; i++) {
        h[1][i] = 10 + i;
        h[2][i] = 5 + i;
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 1, 0), 4, 3, 0xff, true, h));
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    for (unsigned i = 0; i < 8; i++) {
        uint8_t t[4];
        texel_rgba8(12 + i, 2 + i, t);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), t[0] / 255.0, 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[1][i]), t[1] / 255.0, 1e-7);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[2][i]), t[3] / 255.0, 1e-7);   /* A squeezed down */
    }
    /* resinfo on a 64 x 32 surface with MIP Count 3: LOD 1 -> 32, 16; LOD 4 -> 0 */
    struct surf_desc d = { .type = 1, .format = 0xC7, .width = 64, .height = 32, .pitch = 256,
                           .mip_count = 3, .base = TEX + 0x100000 };
    put_surface(&r, 2, &d);
    uint32_t q[1][8] = { { 1, 0, 4, 3 } };
    run(&r, send_msg(&r, desc_of(SAMPLER_RESINFO, 1, 2, 0), 1, 4, 0xf, false, q));
    CU_ASSERT_EQUAL_FATAL(c->count, 3);
    CU_ASSERT_EQUAL(c->regs[0][0], 32);
    CU_ASSERT_EQUAL(c->regs[1][0], 16);
    CU_ASSERT_EQUAL(c->regs[2][0], 0);
    CU_ASSERT_EQUAL(c->regs[3][0], 4);
    CU_ASSERT_EQUAL(c->regs[0][1], 64);
    CU_ASSERT_EQUAL(c->regs[1][1], 32);
    CU_ASSERT_EQUAL(c->regs[0][2], 0);              /* LOD beyond the MIP Count */
    CU_ASSERT_EQUAL(c->regs[0][3], 8);
    CU_ASSERT_EQUAL(c->regs[1][3], 4);
    sim_destroy(r.sim);
}


/* The skl_tri read-back blit's source, BTI 1, with the capture's own
 * RENDER_SURFACE_STATE dwords 0-7 (skl_tri.aubinator.txt, "pointer 1" after
 * 3DSTATE_BINDING_TABLE_POINTERS_PS, ~line 5960: 64 x 64 R8G8B8A8_UINT, 2D array,
 * TileY, pitch 256, QPitch 16, HALIGN_16, identity channel selects); the base
 * address replaced by the test's. UINT formats return U32 channels (notes/003-skl-sharedfn-eu.md §3.8,
 * "Format of returned data"). */
static void test_skl_tri_blit_surface(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t dw[16] = { 0x332df03f, 0x04000010, 0x003f003f, 0x000000ff,
                        0x00000000, 0x00000f00, 0x00000000, 0x09770000 };
    dw[8] = TEX;
    uint32_t state_off = 0x1000 + 64;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT + 4, &state_off, 4, NULL);
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint8_t t[4];
            texel_rgba8(x, y, t);
            gpu_memory_write(r.mem, TEX + tile_y_offset(256, x * 4, y), t, 4, NULL);
        }
    uint32_t regs[3][8] = { { 0 } };
    const uint32_t u[8] = { 0, 63, 31, 32, 1, 40, 5, 63 };
    const uint32_t v[8] = { 0, 63, 32, 31, 33, 50, 62, 0 };
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = u[i];
        regs[1][i] = v[i];
    }
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 8; i++) {
        uint8_t t[4];
        texel_rgba8(u[i], v[i], t);
        for (unsigned ch = 0; ch < 4; ch++)
            CU_ASSERT_EQUAL(c->regs[ch][i], t[ch]);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.state_faults"), 0);
    sim_destroy(r.sim);
}

/* ---- filtering ------------------------------------------------------------------------- */

/* The Vulkan "Wrapping Operation" for texel index i of a level of `size` texels;
 * -1: the border. Modes as SAMPLER_STATE numbers them. */
static int wrap_index(int i, int size, unsigned mode)
{
    switch (mode) {
    case 0: {                               /* repeat */
        int m = i % size;
        return m < 0 ? m + size : m;
    }
    case 1: {                               /* mirrored repeat: (size-1) - mirror((i mod 2size) - size) */
        int m = i % (2 * size);
        if (m < 0)
            m += 2 * size;
        int a = m - size;
        int mir = a >= 0 ? a : -(1 + a);
        return size - 1 - mir;
    }
    case 4:                                 /* clamp to border */
        return i < 0 || i >= size ? -1 : i;
    case 5: {                               /* mirror clamp to edge */
        int mir = i >= 0 ? i : -(1 + i);
        return mir > size - 1 ? size - 1 : mir;
    }
    default:                                /* clamp to edge */
        return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

/* A level of a test texture: texel (x, y) channel ch as a float. */
typedef double (*texel_fn)(uint32_t lod, int x, int y, unsigned ch);

static float quantize8(float f)
{
    return floorf(f * 256.0f + 0.5f) / 256.0f;
}

/* GL/Vulkan bilinear (or nearest) at (u, v) on a level of w x h texels. */
static double filter2d(texel_fn tex, uint32_t lod, uint32_t w, uint32_t h, float u, float v,
                       bool linear, unsigned mode_u, unsigned mode_v, unsigned ch)
{
    float tu = u * (float)w, tv = v * (float)h;
    if (!linear) {
        int i = wrap_index((int)floorf(tu), (int)w, mode_u), j = wrap_index((int)floorf(tv), (int)h, mode_v);
        return i < 0 || j < 0 ? border_colour[ch] : tex(lod, i, j, ch);
    }
    float fu = tu - 0.5f, fv = tv - 0.5f;
    int i0 = (int)floorf(fu), j0 = (int)floorf(fv);
    double a = quantize8(fu - floorf(fu)), b = quantize8(fv - floorf(fv));
    double sum = 0;
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            int i = wrap_index(i0 + di, (int)w, mode_u), j = wrap_index(j0 + dj, (int)h, mode_v);
            double t = i < 0 || j < 0 ? border_colour[ch] : tex(lod, i, j, ch);
            sum += (di ? a : 1 - a) * (dj ? b : 1 - b) * t;
        }
    return sum;
}

/* Mip texture: 16 x 16 RGBA8, 5 levels, texel bytes from (lod, x, y, ch). */
static uint8_t mip_byte(uint32_t lod, int x, int y, unsigned ch)
{
    return (uint8_t)(lod * 50 + (uint32_t)x * 13 + (uint32_t)y * 29 + ch * 61);
}

static double mip_texel(uint32_t lod, int x, int y, unsigned ch)
{
    return mip_byte(lod, x, y, ch) / 255.0;
}

static void put_mip_texture(struct rig *r)
{
    struct surf_desc d = { .type = 1, .format = 0xC7, .width = 16, .height = 16, .pitch = 64,
                           .mip_count = 4, .base = TEX };
    /* the texels of every level where the surfaces library places them (its mip
     * layout is tested in test_surface.c; this test is about filtering) */
    struct surface sd = put_surface(r, 3, &d);
    for (uint32_t l = 0; l < 5; l++)
        for (uint32_t y = 0; y < (16u >> l); y++)
            for (uint32_t x = 0; x < (16u >> l); x++) {
                uint64_t a;
                CU_ASSERT_EQUAL_FATAL(surface_address(&sd, x, y, 0, l, 0, &a), SURFACE_OK);
                uint8_t t[4];
                for (unsigned ch = 0; ch < 4; ch++)
                    t[ch] = mip_byte(l, (int)x, (int)y, ch);
                gpu_memory_write(r->mem, a, t, 4, NULL);
            }
}

/* sample_l on level 0 with LINEAR filters: the bilinear result of GL's rule with
 * 8-bit weights; then LOD 1.25 with MIPFILTER_LINEAR: levels 1 and 2 blended
 * 0.75 / 0.25 (003 L3132-3198 "TriBeta = frac(LOD)"). */
static void test_bilinear_trilinear(void)
{
    struct rig r = rig_new(false, NULL);
    put_mip_texture(&r);
    struct samp_desc sd = { .min = 1, .mag = 1, .mip = 3, .tcx = 2, .tcy = 2, .tcz = 2,
                            .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    const float us[8] = { 0.3f, 0.51f, 0.07f, 0.9f, 0.123f, 0.77f, 0.5f, 0.999f };
    const float vs[8] = { 0.7f, 0.2f, 0.33f, 0.01f, 0.456f, 0.61f, 0.5f, 0.8f };
    const float lods[2] = { 0.0f, 1.25f };
    for (unsigned k = 0; k < 2; k++) {
        uint32_t regs[3][8];
        for (unsigned i = 0; i < 8; i++) {
            regs[0][i] = fbits(lods[k]);
            regs[1][i] = fbits(us[i]);
            regs[2][i] = fbits(vs[i]);
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 3, 0), 3, 4, 0xff, false, regs));
        struct catcher *c = caught(&r);
        CU_ASSERT_EQUAL_FATAL(c->count, k + 1);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned ch = 0; ch < 4; ch++) {
                double want = k == 0 ? filter2d(mip_texel, 0, 16, 16, us[i], vs[i], true, 2, 2, ch)
                                     : 0.75 * filter2d(mip_texel, 1, 8, 8, us[i], vs[i], true, 2, 2, ch) +
                                       0.25 * filter2d(mip_texel, 2, 4, 4, us[i], vs[i], true, 2, 2, ch);
                CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch][i]), want, 2e-6);
            }
    }
    /* a LOD bias of 1.0 in SAMPLER_STATE (S4.8) moves sample_l's LOD 0.25 to 1.25 */
    sd.bias = 1.0;
    put_sampler(&r, 1, &sd);
    uint32_t regs[3][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.25f);
        regs[1][i] = fbits(us[i]);
        regs[2][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 3, 1), 3, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    for (unsigned i = 0; i < 8; i++) {
        double want = 0.75 * filter2d(mip_texel, 1, 8, 8, us[i], vs[i], true, 2, 2, 0) +
                      0.25 * filter2d(mip_texel, 2, 4, 4, us[i], vs[i], true, 2, 2, 0);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), want, 2e-6);
    }
    sim_destroy(r.sim);
}

/* sample (implicit LOD): each subspan's LOD is log2 of its texel-space step
 * (003 L3090-3094, pixels 0 UL, 1 UR, 2 LL): a step of 4 texels of 16 is LOD 2,
 * of 1 texel LOD 0 (magnified: MAG_CLAMP_MIPNONE keeps level 0); MIPFILTER_NEAREST,
 * NEAREST filters: floor(u * size) of the chosen level. sample_d with explicit
 * gradients of 2 texels: LOD 1. sample_b adds its bias. SIMD16 with 16-bit return:
 * halves, two lanes a dword (003 L4700-4730). */
static void test_sample_implicit_lod(void)
{
    struct rig r = rig_new(false, NULL);
    put_mip_texture(&r);
    struct samp_desc sd = { .min = 0, .mag = 0, .mip = 1, .tcx = 2, .tcy = 2, .tcz = 2,
                            .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    const float u0[2] = { 0.3f, 0.55f }, v0[2] = { 0.2f, 0.65f };
    const float step[2] = { 4.0f / 16.0f, 1.0f / 16.0f };
    const uint32_t want_lod[2] = { 2, 0 };
    uint32_t regs[2][8];
    float us[8], vs[8];
    for (unsigned i = 0; i < 8; i++) {
        unsigned ss = i / 4, px = i % 4;
        us[i] = u0[ss] + (px & 1 ? step[ss] : 0.0f);
        vs[i] = v0[ss] + (px & 2 ? step[ss] : 0.0f);
        regs[0][i] = fbits(us[i]);
        regs[1][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 1, 3, 0), 2, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t l = want_lod[i / 4], size = 16u >> l;
        for (unsigned ch = 0; ch < 4; ch++) {
            double want = filter2d(mip_texel, l, size, size, us[i], vs[i], false, 2, 2, ch);
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch][i]), want, 1e-7);
        }
    }
    /* lanes off the exec mask still give their subspan's derivatives (L3900-3910) */
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 1, 3, 0), 2, 4, 0x08, false, regs));
    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][3]),
                           filter2d(mip_texel, 2, 4, 4, us[3], vs[3], false, 2, 2, 0), 1e-7);
    CU_ASSERT_EQUAL(c->regs[0][0], 0);
    /* sample_d: u, dudx, dudy, v, dvdx, dvdy; gradients of 2 texels -> LOD 1 */
    uint32_t d[6][8];
    for (unsigned i = 0; i < 8; i++) {
        d[0][i] = fbits(us[i]);
        d[1][i] = fbits(2.0f / 16.0f);
        d[2][i] = fbits(0.0f);
        d[3][i] = fbits(vs[i]);
        d[4][i] = fbits(0.0f);
        d[5][i] = fbits(1.0f / 16.0f);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_D, 1, 3, 0), 6, 4, 0xff, false, d));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[1][i]),
                               filter2d(mip_texel, 1, 8, 8, us[i], vs[i], false, 2, 2, 1), 1e-7);
    /* sample_b: bias 1.0 on subspan LODs 2 and 0 -> 3 and 1 (round to nearest) */
    uint32_t b[3][8];
    for (unsigned i = 0; i < 8; i++) {
        b[0][i] = fbits(1.0f);
        b[1][i] = regs[0][i];
        b[2][i] = regs[1][i];
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_B, 1, 3, 0), 3, 4, 0xff, false, b));
    for (unsigned i = 0; i < 8; i++) {
        uint32_t l = want_lod[i / 4] + 1, size = 16u >> l;
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[2][i]),
                               filter2d(mip_texel, l, size, size, us[i], vs[i], false, 2, 2, 2), 1e-7);
    }
    /* SIMD16, 16-bit return (desc bit 30), sample_lz: level 0, halves */
    uint32_t z[4][8];
    float zu[16], zv[16];
    for (unsigned i = 0; i < 16; i++) {
        zu[i] = 0.03f + 0.06f * (float)i;
        zv[i] = 0.9f - 0.05f * (float)i;
        z[i / 8][i % 8] = fbits(zu[i]);
        z[2 + i / 8][i % 8] = fbits(zv[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_LZ, 2, 3, 0) | 1u << 30, 4, 4, 0xffff, false, z));
    for (unsigned i = 0; i < 16; i++) {
        uint16_t hbits = (uint16_t)(c->regs[3][i / 2] >> (16 * (i % 2)));
        double want = filter2d(mip_texel, 0, 16, 16, zu[i], zv[i], false, 2, 2, 3);
        CU_ASSERT_DOUBLE_EQUAL(format_half_to_float(hbits), want, 1.0 / 2048);
    }
    /* lod (003 L4286-4302): R clamped (Max LOD 1.5), G unclamped, per subspan */
    struct samp_desc capped = sd;
    capped.max_lod = 1.5;
    put_sampler(&r, 1, &capped);
    run(&r, send_msg(&r, desc_of(SAMPLER_LOD, 1, 3, 1), 2, 2, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), i < 4 ? 1.5f : 0.0f);
        CU_ASSERT_EQUAL(as_float(c->regs[1][i]), i < 4 ? 2.0f : 0.0f);
    }
    /* sampleinfo (L4270-4282): 1 sample, palette index 0 + 1 */
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLEINFO, 1, 3, 0), 1, 4, 0x1, false, regs));
    CU_ASSERT_EQUAL(c->regs[0][0], 1);
    CU_ASSERT_EQUAL(c->regs[3][0], 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_d"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_b"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_lz"), 1);
    sim_destroy(r.sim);
}

/* 4 x 4 R32G32B32A32_FLOAT texels: R = x + 10 y, G = x, B = y, A = 1. */
static double float_texel(uint32_t lod, int x, int y, unsigned ch)
{
    (void)lod;
    return ch == 0 ? x + 10.0 * y : ch == 1 ? x : ch == 2 ? y : 1.0;
}

/* Address modes at and beyond the edges (003 L3286-3356) against the Vulkan
 * wrapping formulas: NEAREST for WRAP, MIRROR, CLAMP, CLAMP_BORDER, MIRROR_ONCE,
 * then LINEAR with the border colour blended at the edge. */
static void test_wrap_modes(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x0, .width = 4, .height = 4, .pitch = 64,
                           .base = TEX };
    put_surface(&r, 4, &d);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)float_texel(0, (int)x, (int)y, ch);
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    put_border(&r);
    const unsigned modes[5] = { 0, 1, 2, 4, 5 };
    const float us[8] = { -0.125f, 1.125f, -1.375f, 0.375f, 2.625f, -0.625f, 1.9f, -3.1f };
    const float vs[8] = { 0.375f, 0.375f, -0.2f, 1.3f, 0.6f, -0.9f, 2.2f, 0.1f };
    for (unsigned k = 0; k < 5; k++) {
        for (unsigned linear = 0; linear < 2; linear++) {
            struct samp_desc sd = { .min = linear, .mag = linear, .mip = 0, .tcx = modes[k],
                                    .tcy = modes[k], .tcz = 2, .max_lod = 14.0 };
            put_sampler(&r, 2, &sd);
            uint32_t regs[3][8];
            for (unsigned i = 0; i < 8; i++) {
                regs[0][i] = fbits(0.0f);
                regs[1][i] = fbits(us[i]);
                regs[2][i] = fbits(vs[i]);
            }
            run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 4, 2), 3, 4, 0xff, false, regs));
            struct catcher *c = caught(&r);
            for (unsigned i = 0; i < 8; i++)
                for (unsigned ch = 0; ch < 4; ch++) {
                    double want = filter2d(float_texel, 0, 4, 4, us[i], vs[i], linear, modes[k],
                                           modes[k], ch);
                    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch][i]), want, 1e-5);
                }
        }
    }
    CU_ASSERT_TRUE(probe_stat(r.sim, "smp.border_texels") > 0);
    /* HALF_BORDER (L3351-3353): an outside texel is halfway between the edge texel
     * and the border colour; u = -0.125 is texel -1, v = 0.375 texel 1 */
    struct samp_desc half = { .min = 0, .mag = 0, .tcx = 6, .tcy = 2, .tcz = 2, .max_lod = 14.0 };
    put_sampler(&r, 3, &half);
    uint32_t h[3][8] = { { 0 } };
    h[1][0] = fbits(-0.125f);
    h[2][0] = fbits(0.375f);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 4, 3), 3, 4, 0x1, false, h));
    for (unsigned ch = 0; ch < 4; ch++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(caught(&r)->regs[ch][0]),
                               0.5 * (float_texel(0, 0, 1, ch) + border_colour[ch]), 1e-6);
    /* Out_of_Bounds (L3132-3200): Resource Min LOD beyond the MIP Count gives zeros,
     * alpha 1 for a format without alpha (R32_FLOAT) */
    const struct format_desc *r32 = format_find("R32_FLOAT");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r32);
    struct surf_desc oob = { .type = 1, .format = r32->key, .width = 4, .height = 4, .pitch = 64,
                             .mip_count = 1, .resource_min_lod = 3.0, .base = TEX };
    put_surface(&r, 5, &oob);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 5, 3), 3, 4, 0x1, false, h));
    CU_ASSERT_EQUAL(as_float(caught(&r)->regs[0][0]), 0.0f);
    CU_ASSERT_EQUAL(as_float(caught(&r)->regs[3][0]), 1.0f);
    /* without it the same texel reads: R = texel (0, 1)'s first float, missing A = 1 */
    oob.resource_min_lod = 0.0;
    put_surface(&r, 5, &oob);
    h[1][0] = fbits(0.125f);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 5, 3), 3, 4, 0x1, false, h));
    CU_ASSERT_EQUAL(as_float(caught(&r)->regs[0][0]), (float)float_texel(0, 0, 1, 0));
    CU_ASSERT_EQUAL(as_float(caught(&r)->regs[3][0]), 1.0f);
    /* hand-checked corners of the formulas: u = -0.125 is texel -1 */
    CU_ASSERT_EQUAL(wrap_index(-1, 4, 0), 3);
    CU_ASSERT_EQUAL(wrap_index(-1, 4, 1), 0);
    CU_ASSERT_EQUAL(wrap_index(-6, 4, 1), 2);
    CU_ASSERT_EQUAL(wrap_index(-6, 4, 5), 3);
    CU_ASSERT_EQUAL(wrap_index(4, 4, 4), -1);
    sim_destroy(r.sim);
}

/* sRGB texels are linearized before filtering (003 L3417): the mean of two
 * texels 0 and 255 of R8G8B8A8_UNORM_SRGB is 0.5 linear, not the decode of 127.5. */
static void test_srgb_linear_filter(void)
{
    struct rig r = rig_new(false, NULL);
    const struct format_desc *f = format_find("R8G8B8A8_UNORM_SRGB");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    struct surf_desc d = { .type = 1, .format = f->key, .width = 2, .height = 1, .pitch = 64,
                           .base = TEX };
    put_surface(&r, 5, &d);
    uint8_t t[8] = { 0, 188, 0, 0, 255, 188, 0, 255 };
    gpu_memory_write(r.mem, TEX, t, 8, NULL);
    struct samp_desc sd = { .min = 1, .mag = 1, .tcx = 2, .tcy = 2, .tcz = 2, .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    uint32_t regs[3][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++) {
        regs[1][i] = fbits(0.5f);
        regs[2][i] = fbits(0.5f);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 5, 0), 3, 4, 0x1, false, regs));
    struct catcher *c = caught(&r);
    double g = 188 / 255.0;
    g = g <= 0.04045 ? g / 12.92 : pow((g + 0.055) / 1.055, 2.4);
    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][0]), 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[1][0]), g, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[3][0]), 0.5, 1e-6);
    sim_destroy(r.sim);
}


/* R = x + 10 y + 100 slice + 1000 face, G = x, B = y, A = slice: a texel names itself. */
static void put_float_texels(struct rig *r, const struct surface *sd, uint32_t w, uint32_t h,
                             uint32_t slices)
{
    for (uint32_t sl = 0; sl < slices; sl++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint64_t a;
                CU_ASSERT_EQUAL_FATAL(surface_address(sd, x, y, sl, 0, 0, &a), SURFACE_OK);
                float t[4] = { (float)(x + 10 * y + 100 * sl), (float)x, (float)y, (float)sl };
                gpu_memory_write(r->mem, a, t, 16, NULL);
            }
}

/* The GL cube-map face table (GL 4.6 Table 8.19): face (+X -X +Y -Y +Z -Z) and s, t. */
static void gl_cube(float rx, float ry, float rz, unsigned *face, float *s, float *t)
{
    float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz), sc, tc, ma;
    if (ax >= ay && ax >= az) {
        ma = ax;
        if (rx > 0) *face = 0, sc = -rz, tc = -ry;
        else *face = 1, sc = rz, tc = -ry;
    } else if (ay >= az) {
        ma = ay;
        if (ry > 0) *face = 2, sc = rx, tc = rz;
        else *face = 3, sc = rx, tc = -rz;
    } else {
        ma = az;
        if (rz > 0) *face = 4, sc = rx, tc = -ry;
        else *face = 5, sc = -rx, tc = -ry;
    }
    *s = 0.5f * (sc / ma + 1.0f);
    *t = 0.5f * (tc / ma + 1.0f);
}

/* 2D arrays (r = layer, rounded and clamped, 003 L4550), 1D arrays (v = layer),
 * 3D (trilinear over 8 texels), cubes (the face of the largest component),
 * non-normalized coordinates (texel units). */
static void test_surface_types(void)
{
    struct rig r = rig_new(false, NULL);
    struct samp_desc nearest = { .min = 0, .mag = 0, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                                 .max_lod = 14.0 };
    struct samp_desc linear = nearest;
    linear.min = linear.mag = 1;
    put_sampler(&r, 0, &nearest);
    put_sampler(&r, 1, &linear);
    struct catcher *c = caught(&r);
    /* 2D array of 3 layers, 4 x 4 */
    struct surf_desc a2 = { .type = 1, .format = 0, .width = 4, .height = 4, .depth = 3,
                            .array = true, .pitch = 64, .qpitch_field = 4, .base = TEX };
    struct surface s2 = put_surface(&r, 1, &a2);
    put_float_texels(&r, &s2, 4, 4, 3);
    const float layer[8] = { 0.0f, 1.0f, 1.6f, -3.0f, 7.0f, 2.0f, 0.49f, 1.5f };
    const uint32_t want_layer[8] = { 0, 1, 2, 0, 2, 2, 0, 2 };
    uint32_t regs[4][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.0f);
        regs[1][i] = fbits(0.6f);       /* x 2 */
        regs[2][i] = fbits(0.3f);       /* y 1 */
        regs[3][i] = fbits(layer[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 1, 0), 4, 4, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)(2 + 10 + 100 * want_layer[i]));
    /* 1D array of 2 layers, 8 wide: lod, u, v = layer */
    struct surf_desc a1 = { .type = 0, .format = 0, .width = 8, .height = 1, .depth = 2,
                            .array = true, .pitch = 128, .qpitch_field = 16, .base = TEX + 0x10000 };
    struct surface s1 = put_surface(&r, 2, &a1);
    put_float_texels(&r, &s1, 8, 1, 2);
    for (unsigned i = 0; i < 8; i++) {
        regs[1][i] = fbits(((float)i + 0.5f) / 8.0f);
        regs[2][i] = fbits((float)(i % 2));
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 2, 0), 3, 4, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)(i + 100 * (i % 2)));
    /* 3D 4 x 4 x 4, LINEAR: the weights of each axis from frac(t - 0.5) */
    struct surf_desc a3 = { .type = 2, .format = 0, .width = 4, .height = 4, .depth = 4,
                            .pitch = 64, .qpitch_field = 4, .base = TEX + 0x20000 };
    struct surface s3 = put_surface(&r, 3, &a3);
    put_float_texels(&r, &s3, 4, 4, 4);
    const float p3[3] = { 0.4f, 0.55f, 0.7f };
    for (unsigned i = 0; i < 8; i++) {
        regs[1][i] = fbits(p3[0]);
        regs[2][i] = fbits(p3[1]);
        regs[3][i] = fbits(p3[2]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 3, 1), 4, 4, 0x1, false, regs));
    double want = 0;
    float f[3];
    int i0[3];
    for (unsigned k = 0; k < 3; k++) {
        float t = p3[k] * 4.0f - 0.5f;
        i0[k] = (int)floorf(t);
        f[k] = quantize8(t - floorf(t));
    }
    for (int dz = 0; dz < 2; dz++)
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                double w = (dx ? f[0] : 1 - f[0]) * (dy ? f[1] : 1 - f[1]) * (dz ? f[2] : 1 - f[2]);
                want += w * ((i0[0] + dx) + 10.0 * (i0[1] + dy) + 100.0 * (i0[2] + dz));
            }
    CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][0]), want, 1e-4);
    /* a cube of 2 x 2 faces: faces are slices 0..5 (+X -X +Y -Y +Z -Z) */
    struct surf_desc cb = { .type = 3, .format = 0, .width = 2, .height = 2, .depth = 1,
                            .pitch = 32, .qpitch_field = 1, .base = TEX + 0x30000 };
    struct surface sc = put_surface(&r, 4, &cb);
    put_float_texels(&r, &sc, 2, 2, 6);
    const float dir[8][3] = { { 1, 0.2f, -0.3f }, { -1, 0.6f, 0.1f }, { 0.3f, 1, 0.7f },
                              { -0.5f, -1, -0.2f }, { 0.1f, -0.4f, 1 }, { 0.8f, 0.3f, -1 },
                              { -0.9f, 0.95f, 0.2f }, { 0.2f, 0.1f, -0.15f } };
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 3; k++)
            regs[1 + k][i] = fbits(dir[i][k]);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 4, 0), 4, 4, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++) {
        unsigned face;
        float s, t;
        gl_cube(dir[i][0], dir[i][1], dir[i][2], &face, &s, &t);
        uint32_t x = (uint32_t)floorf(s * 2.0f), y = (uint32_t)floorf(t * 2.0f);
        x = x > 1 ? 1 : x;
        y = y > 1 ? 1 : y;
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)(x + 10 * y + 100 * face));
    }
    /* non-normalized coordinates: u, v in texels of the 2D array's layer 0 */
    struct samp_desc nn = nearest;
    nn.non_normalized = true;
    put_sampler(&r, 2, &nn);
    for (unsigned i = 0; i < 8; i++) {
        regs[1][i] = fbits((float)(i % 4) + 0.5f);
        regs[2][i] = fbits((float)(i / 4) + 2.25f);
        regs[3][i] = fbits(0.0f);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 1, 2), 4, 4, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)(i % 4 + 10 * (i / 4 + 2)));
    sim_destroy(r.sim);
}

/* ---- bad input ------------------------------------------------------------------------- */

static void test_bad_input(void)
{
    struct rig r = rig_new(false, NULL);
    put_tiled_rgba8(&r);
    uint32_t regs[4][8];
    memset(regs, 0x11, sizeof regs);
    struct catcher *c = caught(&r);
    /* a reserved Mip Mode Filter (2): counted, zeros */
    struct samp_desc bad = { .min = 1, .mag = 1, .mip = 2, .max_lod = 14.0 };
    put_sampler(&r, 0, &bad);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 1, 0), 3, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.bad_sampler_state"), 1);
    CU_ASSERT_EQUAL(c->count, 1);
    CU_ASSERT_EQUAL(c->regs[0][0], 0);
    /* a binding table index beyond the thread's 8 entries: null surface */
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 9, 0), 3, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.bti_beyond_table"), 1);
    CU_ASSERT_EQUAL(c->count, 2);
    /* a binding table entry pointing at garbage state: refused or null, counted or zero */
    uint32_t junk[16];
    memset(junk, 0xff, sizeof junk);
    gpu_memory_write(r.mem, SSBA + 0x1000 + 6 * 64, junk, sizeof junk, NULL);
    uint32_t off = 0x1000 + 6 * 64;
    gpu_memory_write(r.mem, SSBA + BT + 4 * 6, &off, 4, NULL);
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 6, 0), 3, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL(c->count, 3);
    CU_ASSERT_TRUE(probe_stat(r.sim, "smp.state_faults") + probe_stat(r.sim, "smp.unsupported_formats") >= 1);
    /* SIMD32 (not modelled), headerless SIMD mode 0 on Gen9 (SIMD8D, not
     * modelled): zeros, the thread still gets its reply */
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 3, 1, 0), 3, 4, 0xff, false, regs));
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 0, 1, 0), 2, 1, 0xff, false, regs));
    CU_ASSERT_EQUAL(c->count, 5);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_messages"), 2);
    for (unsigned ch = 0; ch < 1; ch++)
        CU_ASSERT_EQUAL(c->regs[ch][3], 0);
    /* a format the sampler does not read (a palette format) */
    const struct format_desc *pal = format_find("P8_UNORM_PALETTE0");
    CU_ASSERT_PTR_NOT_NULL_FATAL(pal);
    struct surf_desc d = { .type = 1, .format = pal->key, .width = 8, .height = 8, .pitch = 64,
                           .base = TEX + 0x200000 };
    put_surface(&r, 7, &d);
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 7, 0), 3, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 1);
    CU_ASSERT_EQUAL(c->count, 6);
    /* a truncated message */
    struct msg *m = msg_alloc(r.sim, MSG_SEND, 4);
    run(&r, m);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.bad_messages"), 1);
    /* a header masking all four channels (not allowed, 003 L3930-3996): counted,
     * the thread still gets its (zero) reply */
    uint32_t hm[4][8];
    memcpy(hm, regs, sizeof hm);
    memset(hm[0], 0, 32);
    hm[0][2] = 0xfu << 12;
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 1, 0), 4, 4, 0xff, true, hm));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.bad_messages"), 2);
    CU_ASSERT_EQUAL(c->count, 7);
    sim_destroy(r.sim);
}

static uint32_t xorshift(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* Random descriptors, payloads and state pointers: one reply each, no crash. */
static void test_random_messages(void)
{
    struct rig r = rig_new(true, NULL);
    put_tiled_rgba8(&r);
    put_mip_texture(&r);
    struct samp_desc sd = { .min = 1, .mag = 1, .mip = 3, .tcx = 0, .tcy = 1, .tcz = 4, .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    put_border(&r);
    uint32_t x = 12345;
    unsigned expected = 0;
    for (int n = 0; n < 300; n++) {
        uint32_t regs[11][8];
        for (unsigned k = 0; k < 11; k++)
            for (unsigned i = 0; i < 8; i++) {
                uint32_t v = xorshift(&x);
                regs[k][i] = v % 3 == 0 ? v : v % 3 == 1 ? fbits((float)(int32_t)v / 1e8f) : v % 70;
            }
        uint32_t desc = xorshift(&x) & 0x4007ffffu;
        desc = (desc & ~0xffu) | (xorshift(&x) % 10);
        uint8_t mlen = (uint8_t)(1 + xorshift(&x) % 11);
        uint8_t rlen = (uint8_t)(xorshift(&x) % 9);
        struct msg *m = send_msg(&r, desc, mlen, rlen, xorshift(&x), xorshift(&x) & 1, regs);
        struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
        if (n % 7 == 0)
            p->ctx.sampler_state = xorshift(&x);
        if (n % 11 == 0)
            p->ctx.surface_state_base = xorshift(&x);
        if (n % 13 == 0)
            p->ctx.gen = (uint8_t)(7 + xorshift(&x) % 3);
        run(&r, m);
        expected += rlen ? 1 : 0;
    }
    CU_ASSERT_EQUAL(caught(&r)->count, expected);
    sim_destroy(r.sim);
}

/* ---- timing ---------------------------------------------------------------------------- */

/* The lines a message's texels lie in go to the L3 once; the same message again
 * hits the sampler cache (no L3 request) and replies sooner. */
static void test_cache_and_l3_lines(void)
{
    struct rig r = rig_new(true, NULL);
    put_tiled_rgba8(&r);
    uint32_t regs[3][8] = { { 0 } };
    uint64_t lines[8];
    unsigned distinct = 0;
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = ld_u[i];
        regs[1][i] = ld_v[i];
        uint64_t line = (TEX + tile_y_offset(256, ld_u[i] * 4, ld_v[i])) / 64;
        bool seen = false;
        for (unsigned k = 0; k < distinct; k++)
            seen |= lines[k] == line;
        if (!seen)
            lines[distinct++] = line;
    }
    struct catcher *c = caught(&r);
    uint64_t t0 = unit_cycle(r.smp);
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    uint64_t first = c->cycle - t0;
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.lines"), distinct);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.cache_misses"), distinct);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.l3_replies"), distinct);
    uint64_t t1 = unit_cycle(r.smp);
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    uint64_t second = c->cycle - t1;
    CU_ASSERT_EQUAL(c->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.lines"), distinct);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.l1_hits"), distinct);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.cache_hits"), 0);
    CU_ASSERT_TRUE(second < first);
    sim_destroy(r.sim);
    /* without an L1 the second message hits the L2: l2_latency (12) more */
    const char *no_l1[] = { "l1_lines=0", NULL };
    r = rig_new(true, no_l1);
    put_tiled_rgba8(&r);
    c = caught(&r);
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    t1 = unit_cycle(r.smp);
    run(&r, send_msg(&r, SKL_TRI_LD_LZ_SIMD8, 3, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.cache_hits"), distinct);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.l1_hits"), 0);
    CU_ASSERT_EQUAL(c->cycle - t1, second + 12);
    sim_destroy(r.sim);
}

/* Texel rates per filter mode (the params' definitions: samples_per_cycle 4
 * footprints, texels_per_cycle 16): a SIMD16 sample_l is 16 bilinear footprints
 * (4 cycles), 32 when trilinear (8 cycles), 16 NEAREST texels (4 cycles:
 * footprint bound); the filter counters count pixel samples. */
static void test_filter_rates(void)
{
    struct rig r = rig_new(false, NULL);
    put_mip_texture(&r);
    struct samp_desc lin = { .min = 1, .mag = 1, .mip = 3, .tcx = 2, .tcy = 2, .tcz = 2,
                             .max_lod = 14.0 };
    struct samp_desc near = lin;
    near.min = near.mag = 0;
    near.mip = 0;
    put_sampler(&r, 0, &lin);
    put_sampler(&r, 1, &near);
    uint32_t regs[6][8];
    const float lods[2] = { 1.0f, 1.5f };
    const uint64_t want_cycles[3] = { 4, 8, 4 };
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned i = 0; i < 16; i++) {
            regs[i / 8][i % 8] = fbits(k == 2 ? 0.0f : lods[k]);
            regs[2 + i / 8][i % 8] = fbits(0.05f * (float)i + 0.1f);
            regs[4 + i / 8][i % 8] = fbits(0.4f);
        }
        uint64_t before = probe_stat(r.sim, "smp.busy_cycles");
        run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 2, 3, k == 2 ? 1 : 0), 6, 8, 0xffff,
                         false, regs));
        CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.busy_cycles") - before, want_cycles[k]);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.filter.bilinear"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.filter.trilinear"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.filter.nearest"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.footprints"), 16 + 32 + 16);
    sim_destroy(r.sim);
}


/* A Gen9 single-sampled AUX_CCS_E surface: the sampler reads its CCS (seed 003
 * L16841) and a CLEAR (3, L16852) cache-line pair reads the state's clear
 * colour (L16884). The 64 x 32 Y-tiled RGBA8 surface of put_tiled_rgba8 gets
 * a CCS at TEX + 0x100000 (one CCS tile a row) whose element (u, v) = (1, 1)
 * (pixels 8..15 x 4..7: 32 bytes x 4 rows a pair) is CLEAR: by the Sky Lake
 * row of Mesa's docs/isl/ccs.rst bit table, u0 and v0 are the two lowest
 * quarter-byte address bits and u1..u3, v1.. are 0, so it is the top two bits
 * of byte 0. */
static void test_ccs_clear_texels(void)
{
    struct rig r = rig_new(false, NULL);
    put_tiled_rgba8(&r);
    uint32_t dw[16], state_off = 0x1000 + 1 * 64;
    gpu_memory_read(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    dw[6] = (dw[6] & ~7u) | 5u;                 /* Auxiliary Surface Mode AUX_CCS_E */
    dw[10] = TEX + 0x100000u;                   /* Auxiliary Surface Base Address */
    dw[11] = 0;
    const float clear[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    memcpy(&dw[12], clear, 16);
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    uint8_t ccs = 0xc0;
    gpu_memory_write(r.mem, TEX + 0x100000u, &ccs, 1, NULL);
    uint32_t regs[4][8] = { { 0 } };
    const uint32_t u[8] = { 9, 8, 15, 7, 16, 9, 0, 12 };
    const uint32_t v[8] = { 5, 4, 7, 5, 5, 3, 0, 8 };
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = u[i];
        regs[1][i] = v[i];
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_LD, 1, 1, 0), 4, 4, 0xff, false, regs));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 8; i++) {
        bool in = u[i] >= 8 && u[i] < 16 && v[i] >= 4 && v[i] < 8;
        if (!in) {
            check_rgba8_lane(c, 1, i, u[i], v[i]);
            continue;
        }
        for (unsigned k = 0; k < 4; k++)
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[k][i]), clear[k], 1e-6);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.aux.ccs_clear_texels"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.aux.ccs_reads"), 8);
    sim_destroy(r.sim);
}

/* ---- multisampled surfaces ------------------------------------------------------------- */

#define MS_BASE (TEX + 0x200000u)

/* Byte k of sample `smp` of texel (x, y) of the 4x test surface. */
static uint8_t ms_byte(uint32_t x, uint32_t y, uint32_t smp, unsigned k)
{
    const uint8_t b[4] = { (uint8_t)(x * 16 + y), (uint8_t)(smp * 60 + 10), 7, 255 };
    return b[k];
}

/* The 4x surface's MCS byte of pixel (x, y): any value but all ones. */
static uint8_t ms_mcs(uint32_t x, uint32_t y)
{
    return (uint8_t)(0xe4 ^ (x * 8 + y));
}

/* A 4x MSFMT_MSS linear R8G8B8A8_UNORM 8 x 4 2D array surface with an MCS
 * (Gen9 AUX_CCS_D on a multisampled surface) at BTI 3. Each sample is an array
 * slice QPitch rows apart (seed 004 L1905-1925: QPitch[16:2]; field 1 = 4
 * rows), so sample s of (x, y) is at base + (4 s + y) * pitch + 4 x: the
 * layout is written here without the surfaces library. */
static void put_ms_surface(struct rig *r)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = 0xC7;
    v.Width = 7;
    v.Height = 3;
    v.SurfaceArray = true;
    v.SurfacePitch = 32 - 1;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    v.SurfaceQPitch = 1;
    v.NumberOfMultisamples = 2;         /* MULTISAMPLECOUNT_4 */
    v.MultisampledSurfaceStorageFormat = 0;
    v.AuxiliarySurfaceMode = 1;
    v.AuxiliarySurfaceBaseAddress = TEX + 0x300000u;
    v.SurfaceBaseAddress = MS_BASE;
    float clear[4] = { 0.5f, 0.25f, 0.0f, 1.0f };
    memcpy(&v.RedClearColor, &clear[0], 4);
    memcpy(&v.GreenClearColor, &clear[1], 4);
    memcpy(&v.BlueClearColor, &clear[2], 4);
    memcpy(&v.AlphaClearColor, &clear[3], 4);
    v.ShaderChannelSelectRed = 4;
    v.ShaderChannelSelectGreen = 5;
    v.ShaderChannelSelectBlue = 6;
    v.ShaderChannelSelectAlpha = 7;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000 + 3 * 64;
    gpu_memory_write(r->mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r->mem, SSBA + BT + 4 * 3, &state_off, 4, NULL);
    for (uint32_t smp = 0; smp < 4; smp++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 8; x++) {
                uint8_t t[4];
                for (unsigned k = 0; k < 4; k++)
                    t[k] = ms_byte(x, y, smp, k);
                gpu_memory_write(r->mem, MS_BASE + (4 * smp + y) * 32 + 4 * x, t, 4, NULL);
            }
    /* the MCS: one byte a pixel, Y-tiled (seed 003 L16795), pitch 128 B
     * (Auxiliary Surface Pitch 0 + 1 tiles): byte column x, row y of the first
     * tile at (x / 16) * 512 + y * 16 + x % 16 (the Y tile's 16-byte columns
     * of 32 rows, 003 L5332-5344), written by hand */
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint8_t b = ms_mcs(x, y);
            gpu_memory_write(r->mem, TEX + 0x300000u + (x / 16) * 512 + y * 16 + x % 16, &b, 1,
                             NULL);
        }
}

/* ld_mcs returns the MCS element of the pixel from the auxiliary surface
 * (R8_UINT for 4x, L4195; zeros out of range); ld2dms (Mesa's SIMD8 order si, mcs, u, v, r) reads sample si from
 * the slice the MCS names, a cleared MCS (all ones) returns the clear colour
 * (003 L16884), MCS 0 puts every sample in slice 0; ld2dss reads slice ssi. */
static void test_multisample_loads(void)
{
    struct rig r = rig_new(false, NULL);
    put_ms_surface(&r);
    uint32_t q[3][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++) {
        q[0][i] = i;
        q[1][i] = i % 4;
    }
    q[0][7] = 8;                        /* out of range: zeros */
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_MCS, 1, 3, 0), 3, 4, 0xff, false, q));
    struct catcher *c = caught(&r);
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(c->regs[0][i], ms_mcs(i, i % 4));
        CU_ASSERT_EQUAL(c->regs[1][i], 0u);
    }
    CU_ASSERT_EQUAL(c->regs[0][7], 0u);
    uint32_t m[5][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++) {
        m[0][i] = i % 4;                /* si */
        m[1][i] = 0xe4;                 /* mcs */
        m[2][i] = i;                    /* u */
        m[3][i] = (i + 1) % 4;          /* v */
    }
    m[1][5] = 0xff;                     /* cleared */
    m[1][6] = 0x00;                     /* all samples in slice 0 */
    run(&r, send_msg(&r, desc_of(SAMPLER_LD2DMS, 1, 3, 0), 5, 4, 0xff, false, m));
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t smp = i == 6 ? 0 : i % 4;
        for (unsigned k = 0; k < 4; k++) {
            double want = i == 5 ? (const double[]){ 0.5, 0.25, 0.0, 1.0 }[k]
                                 : ms_byte(i, (i + 1) % 4, smp, k) / 255.0;
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[k][i]), want, 1e-6);
        }
    }
    uint32_t d[4][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++) {
        d[0][i] = 2;                    /* ssi */
        d[1][i] = 7 - i;
        d[2][i] = i % 4;
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_LD2DSS, 1, 3, 0), 4, 4, 0xff, false, d));
    CU_ASSERT_EQUAL_FATAL(c->count, 3);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[1][i]), ms_byte(7 - i, i % 4, 2, 1) / 255.0, 1e-6);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.ld_msaa"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.out_of_bounds"), 1);
    sim_destroy(r.sim);
}

/* ---- shadow compare, gather4, min/max, SIMD4x2, the header ------------------------ */

/* A 4 x 4 R32_FLOAT depth texture at BTI 5: texel (x, y) = (x + 4 y) / 16. */
static double depth_texel(int x, int y)
{
    return (x + 4.0 * y) / 16.0;
}

static void put_depth_texture(struct rig *r)
{
    struct surf_desc d = { .type = 1, .format = 0xD8, .width = 4, .height = 4, .pitch = 16,
                           .base = TEX + 0x40000 };
    put_surface(r, 5, &d);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            float f = (float)depth_texel(x, y);
            gpu_memory_write(r->mem, TEX + 0x40000 + (uint64_t)y * 16 + (uint64_t)x * 4, &f, 4, NULL);
        }
}

/* The seed's prefilter table (003 L3394-3402) as "result 0.0 exactly when the
 * relation texel OP ref holds", written as a truth table of (less, equal,
 * greater) per PREFILTEROP value: ALWAYS, NEVER, LESS, EQUAL, LEQUAL, GREATER,
 * NOTEQUAL, GEQUAL. */
static double seed_compare(unsigned function, double texel, double ref)
{
    static const bool holds[8][3] = {
        { 1, 1, 1 }, { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 },
        { 1, 1, 0 }, { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 },
    };
    unsigned rel = texel < ref ? 0 : texel == ref ? 1 : 2;
    return holds[function][rel] ? 0.0 : 1.0;
}

/* sample_l_c, NEAREST (Mesa's SIMD8 order: ref, lod, u, v): every shadow
 * function against the seed's table, the reference equal to, above and below
 * the texel; then LINEAR: the four compare results weighted bilinearly (the
 * compare happens before filtering, L3403-3405); sample_c_lz (ref, u, v). */
static void test_shadow_compare(void)
{
    struct rig r = rig_new(false, NULL);
    put_depth_texture(&r);
    struct catcher *c = caught(&r);
    const float us[8] = { 0.1f, 0.3f, 0.6f, 0.9f, 0.13f, 0.37f, 0.62f, 0.88f };
    const float vs[8] = { 0.1f, 0.1f, 0.4f, 0.4f, 0.6f, 0.9f, 0.9f, 0.35f };
    for (unsigned fn = 0; fn < 8; fn++) {
        struct samp_desc sd = { .min = 0, .mag = 0, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                                .max_lod = 14.0, .shadow = fn };
        put_sampler(&r, 0, &sd);
        uint32_t regs[4][8];
        float refs[8];
        for (unsigned i = 0; i < 8; i++) {
            int x = (int)floorf(us[i] * 4), y = (int)floorf(vs[i] * 4);
            refs[i] = (float)depth_texel(x, y) + (float)((int)(i % 3) - 1) / 32.0f;
            regs[0][i] = fbits(refs[i]);
            regs[1][i] = fbits(0.0f);
            regs[2][i] = fbits(us[i]);
            regs[3][i] = fbits(vs[i]);
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L_C, 1, 5, 0), 4, 1, 0xff, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, fn + 1);
        for (unsigned i = 0; i < 8; i++) {
            int x = (int)floorf(us[i] * 4), y = (int)floorf(vs[i] * 4);
            CU_ASSERT_EQUAL(as_float(c->regs[0][i]),
                            (float)seed_compare(fn, depth_texel(x, y), refs[i]));
        }
    }
    /* LINEAR, LEQUAL (4), reference 0.4: percentage-closer weights */
    struct samp_desc lin = { .min = 1, .mag = 1, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                             .max_lod = 14.0, .shadow = 4 };
    put_sampler(&r, 1, &lin);
    uint32_t regs[4][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.4f);
        regs[1][i] = fbits(0.0f);
        regs[2][i] = fbits(us[i]);
        regs[3][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L_C, 1, 5, 1), 4, 1, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++) {
        float fu = us[i] * 4 - 0.5f, fv = vs[i] * 4 - 0.5f;
        int i0 = (int)floorf(fu), j0 = (int)floorf(fv);
        double a = quantize8(fu - floorf(fu)), b = quantize8(fv - floorf(fv)), want = 0;
        for (int dj = 0; dj < 2; dj++)
            for (int di = 0; di < 2; di++) {
                int x = wrap_index(i0 + di, 4, 2), y = wrap_index(j0 + dj, 4, 2);
                want += (di ? a : 1 - a) * (dj ? b : 1 - b) * seed_compare(4, depth_texel(x, y), 0.4);
            }
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), want, 1e-6);
    }
    /* sample_c_lz: ref, u, v; GREATER (5) */
    struct samp_desc gt = { .tcx = 2, .tcy = 2, .tcz = 2, .max_lod = 14.0, .shadow = 5 };
    put_sampler(&r, 2, &gt);
    uint32_t z[3][8];
    for (unsigned i = 0; i < 8; i++) {
        z[0][i] = fbits(0.5f);
        z[1][i] = fbits(us[i]);
        z[2][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_C_LZ, 1, 5, 2), 3, 1, 0xff, false, z));
    for (unsigned i = 0; i < 8; i++) {
        int x = (int)floorf(us[i] * 4), y = (int)floorf(vs[i] * 4);
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)seed_compare(5, depth_texel(x, y), 0.5));
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_c"), 10);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.shadow_compares"), 8 * 8 + 8 * 4 + 8);
    /* a compare on an integer format: counted, zeros */
    struct surf_desc ui = { .type = 1, .format = 0xD7 /* R32_UINT */, .width = 4, .height = 4,
                            .pitch = 16, .base = TEX + 0x40000 };
    put_surface(&r, 6, &ui);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_C_LZ, 1, 6, 2), 3, 1, 0xff, false, z));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 1);
    CU_ASSERT_EQUAL(c->regs[0][0], 0);
    sim_destroy(r.sim);
}

/* A header register: M0.2 (write channel mask, offsets, gather channel, SIMD
 * mode extension, null mask) and M0.3 the sampler state pointer. */
static void header_reg(uint32_t reg[8], uint32_t m2)
{
    memset(reg, 0, 32);
    reg[2] = m2;
    reg[3] = SSP;
}

/* gather4 (003 L4224-4268) on the 4 x 4 float texture of float_texel (R = x +
 * 10 y, G = x, B = y, A = 1): R, G, B, A = the lower-left, lower-right,
 * upper-right, upper-left texels of the bilinear footprint, the header's
 * channel (M0.2[17:16]) and offsets; gather4_po with per-pixel offsets (their
 * low 6 bits); gather4_c and gather4_po_c compare the depth texture's texels. */
static void test_gather4(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x0, .width = 4, .height = 4, .pitch = 64,
                           .base = TEX };
    put_surface(&r, 4, &d);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)float_texel(0, (int)x, (int)y, ch);
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    put_depth_texture(&r);
    /* NEAREST filters, WRAP: gather ignores the filters; mip NONE */
    struct samp_desc sd = { .min = 0, .mag = 0, .mip = 0, .tcx = 0, .tcy = 0, .tcz = 0,
                            .max_lod = 14.0, .shadow = 2 };
    put_sampler(&r, 0, &sd);
    struct catcher *c = caught(&r);
    const float us[8] = { 0.1f, 0.3f, 0.6f, 0.95f, 0.13f, 0.37f, 0.62f, 0.01f };
    const float vs[8] = { 0.1f, 0.2f, 0.4f, 0.45f, 0.6f, 0.9f, 0.99f, 0.35f };
    /* channel 0 (R) and 1 (G), header offsets U +1, V -1, gather4: u, v */
    for (unsigned ch = 0; ch < 2; ch++) {
        int ou = ch ? 1 : 0, ov = ch ? -1 : 0;
        uint32_t regs[3][8];
        header_reg(regs[0], ch << 16 | ((uint32_t)ou & 0xf) << 8 | ((uint32_t)ov & 0xf) << 4);
        for (unsigned i = 0; i < 8; i++) {
            regs[1][i] = fbits(us[i]);
            regs[2][i] = fbits(vs[i]);
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_GATHER4, 1, 4, 0), 3, 4, 0xff, true, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, ch + 1);
        for (unsigned i = 0; i < 8; i++) {
            int i0 = (int)floorf(us[i] * 4 - 0.5f) + ou, j0 = (int)floorf(vs[i] * 4 - 0.5f) + ov;
            /* lower left, lower right, upper right, upper left */
            const int dx[4] = { 0, 1, 1, 0 }, dy[4] = { 1, 1, 0, 0 };
            for (unsigned k = 0; k < 4; k++) {
                int x = wrap_index(i0 + dx[k], 4, 0), y = wrap_index(j0 + dy[k], 4, 0);
                CU_ASSERT_EQUAL(as_float(c->regs[k][i]), (float)float_texel(0, x, y, ch));
            }
        }
    }
    /* gather4_po: u, v, offu, offv; offsets 65 (low 6 bits: 1) and -2 */
    uint32_t po[4][8];
    for (unsigned i = 0; i < 8; i++) {
        po[0][i] = fbits(us[i]);
        po[1][i] = fbits(vs[i]);
        po[2][i] = 65;
        po[3][i] = (uint32_t)-2;
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_GATHER4_PO, 1, 4, 0), 4, 4, 0xff, false, po));
    for (unsigned i = 0; i < 8; i++) {
        int i0 = (int)floorf(us[i] * 4 - 0.5f) + 1, j0 = (int)floorf(vs[i] * 4 - 0.5f) - 2;
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]),
                        (float)float_texel(0, wrap_index(i0, 4, 0), wrap_index(j0 + 1, 4, 0), 0));
        CU_ASSERT_EQUAL(as_float(c->regs[3][i]),
                        (float)float_texel(0, wrap_index(i0, 4, 0), wrap_index(j0, 4, 0), 0));
    }
    /* gather4_c: ref, u, v; LESS (2): 0.0 where texel < ref */
    uint32_t gc[3][8];
    for (unsigned i = 0; i < 8; i++) {
        gc[0][i] = fbits(0.45f);
        gc[1][i] = fbits(us[i]);
        gc[2][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_GATHER4_C, 1, 5, 0), 3, 4, 0xff, false, gc));
    for (unsigned i = 0; i < 8; i++) {
        int i0 = (int)floorf(us[i] * 4 - 0.5f), j0 = (int)floorf(vs[i] * 4 - 0.5f);
        const int dx[4] = { 0, 1, 1, 0 }, dy[4] = { 1, 1, 0, 0 };
        for (unsigned k = 0; k < 4; k++) {
            int x = wrap_index(i0 + dx[k], 4, 0), y = wrap_index(j0 + dy[k], 4, 0);
            CU_ASSERT_EQUAL(as_float(c->regs[k][i]), (float)seed_compare(2, depth_texel(x, y), 0.45));
        }
    }
    /* gather4_po_c: ref, u, v, offu, offv */
    uint32_t pc[5][8];
    for (unsigned i = 0; i < 8; i++) {
        pc[0][i] = fbits(0.45f);
        pc[1][i] = fbits(us[i]);
        pc[2][i] = fbits(vs[i]);
        pc[3][i] = (uint32_t)-1;
        pc[4][i] = 1;
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_GATHER4_PO_C, 1, 5, 0), 5, 4, 0xff, false, pc));
    for (unsigned i = 0; i < 8; i++) {
        int i0 = (int)floorf(us[i] * 4 - 0.5f) - 1, j0 = (int)floorf(vs[i] * 4 - 0.5f) + 1;
        int x = wrap_index(i0 + 1, 4, 0), y = wrap_index(j0 + 1, 4, 0);
        CU_ASSERT_EQUAL(as_float(c->regs[1][i]), (float)seed_compare(2, depth_texel(x, y), 0.45));
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.gather4"), 5);
    /* gather4_po on a cube (2D only): counted, zeros */
    struct surf_desc cb = { .type = 3, .format = 0, .width = 2, .height = 2, .depth = 1,
                            .pitch = 32, .qpitch_field = 1, .base = TEX + 0x30000 };
    put_surface(&r, 3, &cb);
    uint64_t before = probe_stat(r.sim, "smp.unsupported_messages");
    run(&r, send_msg(&r, desc_of(SAMPLER_GATHER4_PO, 1, 3, 0), 4, 4, 0xff, false, po));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_messages"), before + 1);
    sim_destroy(r.sim);
}

/* sample_min / sample_max (003 L4018-4031: the minimum / maximum channel value
 * of all contributing texels) and SAMPLER_STATE's Reduction Type MINIMUM: on the
 * 4 x 4 float texture with LINEAR filters, the min and max over the four
 * texels of each footprint. */
static void test_min_max(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x0, .width = 4, .height = 4, .pitch = 64,
                           .base = TEX };
    put_surface(&r, 4, &d);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            /* R descends with x, ascends with y: neither corner is always the min */
            float t[4] = { (float)(10.0 * y - 3.0 * x), (float)(x * x), (float)((x + y) % 3), 1.0f };
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    struct samp_desc sd = { .min = 1, .mag = 1, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                            .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    sd.reduction_enable = true;
    sd.reduction = 2;
    put_sampler(&r, 1, &sd);
    struct catcher *c = caught(&r);
    const float us[8] = { 0.2f, 0.3f, 0.6f, 0.8f, 0.13f, 0.37f, 0.62f, 0.5f };
    const float vs[8] = { 0.2f, 0.25f, 0.4f, 0.45f, 0.6f, 0.7f, 0.8f, 0.35f };
    uint32_t regs[2][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(us[i]);
        regs[1][i] = fbits(vs[i]);
    }
    const uint32_t msgs[3] = { SAMPLER_SAMPLE_MIN, SAMPLER_SAMPLE_MAX, SAMPLER_SAMPLE_LZ };
    const uint32_t samplers[3] = { 0, 0, 1 };
    for (unsigned m = 0; m < 3; m++) {
        run(&r, send_msg(&r, desc_of(msgs[m], 1, 4, samplers[m]), 2, 4, 0xff, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, m + 1);
        for (unsigned i = 0; i < 8; i++) {
            float fu = us[i] * 4 - 0.5f, fv = vs[i] * 4 - 0.5f;
            int i0 = (int)floorf(fu), j0 = (int)floorf(fv);
            for (unsigned ch = 0; ch < 3; ch++) {
                double best = m == 1 ? -1e30 : 1e30;
                for (int dj = 0; dj < 2; dj++)
                    for (int di = 0; di < 2; di++) {
                        int x = i0 + di, y = j0 + dj;
                        double t = ch == 0 ? 10.0 * y - 3.0 * x : ch == 1 ? x * x : (x + y) % 3;
                        best = m == 1 ? fmax(best, t) : fmin(best, t);
                    }
                CU_ASSERT_EQUAL(as_float(c->regs[ch][i]), (float)best);
            }
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_minmax"), 2);
    sim_destroy(r.sim);
}

/* SIMD4x2 (003 L4566-4653, L4654-4810): one register holds parameters 0-3 of
 * sample 0 (dwords 0-3) and sample 1 (dwords 4-7); the reply is one register,
 * each sample's R, G, B, A. On Gen9 the header's M0.2[22] selects SIMD4x2 over
 * SIMD8D. sample_l (u v r ai lod) on the float texture, ld (u v r lod);
 * the null-mask phase (M0.2[23]); headerless SIMD mode 0 on Gen9 is SIMD8D
 * (not modelled: counted); sample (implicit LOD) has no SIMD4x2 form. */
static void test_simd4x2(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x0, .width = 4, .height = 4, .pitch = 64,
                           .base = TEX };
    put_surface(&r, 4, &d);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)float_texel(0, (int)x, (int)y, ch);
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    struct samp_desc sd = { .min = 0, .mag = 0, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                            .max_lod = 14.0 };
    put_sampler(&r, 0, &sd);
    struct catcher *c = caught(&r);
    uint32_t regs[3][8];
    header_reg(regs[0], 1u << 22 | 1u << 23);
    memset(regs[1], 0, 32);
    memset(regs[2], 0, 32);
    /* sample 0: u 0.3 v 0.8 (texel 1, 3); sample 1: u 0.9 v 0.1 (texel 3, 0) */
    regs[1][0] = fbits(0.3f), regs[1][1] = fbits(0.8f);
    regs[1][4] = fbits(0.9f), regs[1][5] = fbits(0.1f);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 0, 4, 0), 3, 2, 0xff, true, regs));
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned ch = 0; ch < 4; ch++) {
        CU_ASSERT_EQUAL(as_float(c->regs[0][ch]), (float)float_texel(0, 1, 3, ch));
        CU_ASSERT_EQUAL(as_float(c->regs[0][4 + ch]), (float)float_texel(0, 3, 0, ch));
    }
    CU_ASSERT_EQUAL(c->regs[1][0], 0x3u);
    /* ld: u v r lod integers; sample 1 disabled by the exec mask (bits 4-7) */
    uint32_t ld[2][8];
    header_reg(ld[0], 1u << 22);
    memset(ld[1], 0, 32);
    ld[1][0] = 2, ld[1][1] = 1;
    ld[1][4] = 3, ld[1][5] = 3;
    run(&r, send_msg(&r, desc_of(SAMPLER_LD, 0, 4, 0), 2, 1, 0x0f, true, ld));
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    CU_ASSERT_EQUAL(as_float(c->regs[0][0]), (float)float_texel(0, 2, 1, 0));
    CU_ASSERT_EQUAL(as_float(c->regs[0][1]), (float)float_texel(0, 2, 1, 1));
    CU_ASSERT_EQUAL(c->regs[0][4], 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.simd4x2"), 2);
    /* headerless mode 0 on Gen9 (SIMD8D) and sample in SIMD4x2: counted, zeros */
    uint64_t before = probe_stat(r.sim, "smp.unsupported_messages");
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 0, 4, 0), 2, 2, 0xff, false, regs + 1));
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 0, 4, 0), 3, 2, 0xff, true, regs));
    CU_ASSERT_EQUAL(c->count, 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_messages"), before + 2);
    /* the null mask after a SIMD8 message's channels: header mask R, G only */
    uint32_t s8[3][8];
    header_reg(s8[0], 1u << 23 | 0xcu << 12);
    for (unsigned i = 0; i < 8; i++) {
        s8[1][i] = fbits(0.0f);
        s8[2][i] = fbits(0.6f);
    }
    uint32_t s8b[4][8];
    memcpy(s8b[0], s8[0], 32);
    memcpy(s8b[1], s8[1], 32);
    memcpy(s8b[2], s8[2], 32);
    for (unsigned i = 0; i < 8; i++)
        s8b[3][i] = fbits(0.3f);
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 4, 0), 4, 3, 0xff, true, s8b));
    CU_ASSERT_EQUAL(as_float(c->regs[0][0]), (float)float_texel(0, 2, 1, 0));
    CU_ASSERT_EQUAL(as_float(c->regs[1][0]), (float)float_texel(0, 2, 1, 1));
    CU_ASSERT_EQUAL(c->regs[2][0], 0xffff00ffu);
    sim_destroy(r.sim);
}

/* MAPFILTER_ANISOTROPIC (003 L3234-3240) computed here from the seed's words:
 * ratio = major / minor axis (at most Maximum Anisotropy), ways = the next even
 * integer above the ratio, subpixels one texel of the sampled level apart along
 * the major axis, each bilinear, interior weights 1 and the endpoints' (ratio -
 * (ways - 2)) / 2 (the unit's stated choice), over a sum of ratio; LOD from
 * major / ratio. Subspan 0: 4 texels along u, 1 along v (ratio 4: six ways, the
 * endpoints weigh 0); subspan 1: 3 and 1 (ratio 3: four ways, endpoints 0.5).
 * Then Maximum Anisotropy 2:1 on 8 and 1: ratio 2, LOD 2, two subpixels. */
/* A 16 x 16 R32G32B32A32_FLOAT texture at BTI 6 whose texels are not linear in
 * x (so averaging along u differs from one bilinear sample). */
static double nonlinear_texel(uint32_t lod, int x, int y, unsigned ch)
{
    (void)lod;
    return ch == 0 ? (x * x) % 7 + 0.25 * y : ch == 1 ? (x * 3 + y * y) % 5 : ch == 2 ? x : 1.0;
}

static double aniso_expected(float u, float v, double ratio, unsigned ch)
{
    unsigned ways = 2 * (unsigned)floor(ratio / 2) + 2;
    double end = (ratio - (ways - 2)) / 2, sum = 0;
    for (unsigned k = 0; k < ways; k++) {
        double w = k == 0 || k == ways - 1 ? end : 1.0;
        double texels = (double)k - (ways - 1) / 2.0;
        sum += w * filter2d(nonlinear_texel, 0, 16, 16, u + (float)(texels / 16.0), v, true, 2, 2, ch);
    }
    return sum / ratio;
}

static void test_anisotropic(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x0, .width = 16, .height = 16, .pitch = 256,
                           .base = TEX + 0x50000 };
    put_surface(&r, 6, &d);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)nonlinear_texel(0, x, y, ch);
            gpu_memory_write(r.mem, TEX + 0x50000 + (uint64_t)y * 256 + (uint64_t)x * 16, t, 16, NULL);
        }
    struct samp_desc sd = { .min = 2, .mag = 2, .mip = 0, .tcx = 2, .tcy = 2, .tcz = 2,
                            .max_lod = 14.0, .max_aniso = 7 };
    put_sampler(&r, 0, &sd);
    struct samp_desc capped = sd;
    capped.max_aniso = 0;
    put_sampler(&r, 1, &capped);
    struct catcher *c = caught(&r);
    const float u0[2] = { 0.4f, 0.3f }, v0[2] = { 0.45f, 0.6f };
    const float step_u[2] = { 4.0f / 16.0f, 3.0f / 16.0f };
    uint32_t regs[2][8];
    float us[8], vs[8];
    for (unsigned i = 0; i < 8; i++) {
        unsigned ss = i / 4, px = i % 4;
        us[i] = u0[ss] + (px & 1 ? step_u[ss] : 0.0f);
        vs[i] = v0[ss] + (px & 2 ? 1.0f / 16.0f : 0.0f);
        regs[0][i] = fbits(us[i]);
        regs[1][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 1, 6, 0), 2, 4, 0xff, false, regs));
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch][i]),
                                   aniso_expected(us[i], vs[i], i < 4 ? 4.0 : 3.0, ch), 2e-5);
    /* not the same as one bilinear sample (the test can tell them apart) */
    CU_ASSERT_TRUE(fabs(aniso_expected(us[0], vs[0], 4.0, 0) -
                        filter2d(nonlinear_texel, 0, 16, 16, us[0], vs[0], true, 2, 2, 0)) > 0.05);
    /* 8 texels along u, Maximum Anisotropy 2:1: ratio 2 (LOD log2(8 / 2) = 2,
     * MIPFILTER_NONE keeps level 0): two subpixels half a texel either side */
    for (unsigned i = 0; i < 8; i++) {
        us[i] = 0.3f + (i % 4 & 1 ? 0.5f : 0.0f) + 0.05f * (float)(i / 4);
        vs[i] = 0.4f + (i % 4 & 2 ? 1.0f / 16.0f : 0.0f);
        regs[0][i] = fbits(us[i]);
        regs[1][i] = fbits(vs[i]);
    }
    run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE, 1, 6, 1), 2, 4, 0xff, false, regs));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), aniso_expected(us[i], vs[i], 2.0, 0), 2e-5);
    sim_destroy(r.sim);
}

/* TEXCOORDMODE_CUBE (003 L3355-3357): a bilinear footprint off the +X face's
 * s = 0 edge reads the +Z face's last column (the GL face table: +X has s =
 * -rz / |rx|, +Z has s = rx / |rz|, both t = -ry / |major|: the shared edge is +X
 * column -1 = +Z column n - 1, rows alike). 4 x 4 faces, texel R = x + 10 y + 100
 * face. With CLAMP the same footprint clamps to +X column 0; Cube Surface
 * Control Mode OVERRIDE turns CLAMP into CUBE. */
static void test_cube_seamless(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc cb = { .type = 3, .format = 0, .width = 4, .height = 4, .depth = 1,
                            .pitch = 64, .qpitch_field = 1, .base = TEX + 0x60000 };
    struct surface sc = put_surface(&r, 5, &cb);
    put_float_texels(&r, &sc, 4, 4, 6);
    struct samp_desc cube = { .min = 1, .mag = 1, .mip = 0, .tcx = 3, .tcy = 3, .tcz = 2,
                              .max_lod = 14.0 };
    struct samp_desc clamp = cube;
    clamp.tcx = clamp.tcy = 2;
    struct samp_desc over = clamp;
    over.cube_override = true;
    put_sampler(&r, 0, &cube);
    put_sampler(&r, 1, &clamp);
    put_sampler(&r, 2, &over);
    struct catcher *c = caught(&r);
    const float dir[3] = { 1.0f, -0.1f, 0.85f };
    uint32_t regs[4][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.0f);
        for (unsigned k = 0; k < 3; k++)
            regs[1 + k][i] = fbits(dir[k]);
    }
    unsigned face;
    float s, t;
    gl_cube(dir[0], dir[1], dir[2], &face, &s, &t);
    CU_ASSERT_EQUAL_FATAL(face, 0);
    float fs = s * 4 - 0.5f, ft = t * 4 - 0.5f;
    int i0 = (int)floorf(fs), j0 = (int)floorf(ft);
    CU_ASSERT_EQUAL_FATAL(i0, -1);
    double a = quantize8(fs - floorf(fs)), b = quantize8(ft - floorf(ft));
    /* +X (i, j) for i >= 0; +Z (3, j) for i = -1 */
    double t00 = 400 + 3 + 10 * j0, t10 = 0 + 10 * j0, t01 = 400 + 3 + 10 * (j0 + 1), t11 = 10 * (j0 + 1);
    double want_cube = (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
    double c00 = 10 * j0, c01 = 10 * (j0 + 1);         /* CLAMP: column 0 twice */
    double want_clamp = (1 - b) * c00 + b * c01;
    const double want[3] = { want_cube, want_clamp, want_cube };
    for (unsigned smp = 0; smp < 3; smp++) {
        run(&r, send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 5, smp), 4, 1, 0x1, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, smp + 1);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][0]), want[smp], 1e-3);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.cube_edge_texels"), 4);
    sim_destroy(r.sim);
}

/* Gen7 (Ivybridge state layouts, spec/data/gen7.xml): a 32-byte
 * RENDER_SURFACE_STATE and a Gen7 SAMPLER_STATE, sample_l LINEAR against GL's
 * bilinear rule; ld in the Gen7 order u, lod, v; SIMD4x2 without a header (Gen7
 * has no SIMD8D: mode 0 is SIMD4x2). */
static struct msg *gen7(struct msg *m)
{
    ((struct eu_send_msg *)m->payload)->ctx.gen = 7;
    return m;
}

static void test_gen7_forms(void)
{
    struct rig r = rig_new(false, NULL);
    struct GEN7_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = 0;            /* R32G32B32A32_FLOAT */
    v.Width = 3;
    v.Height = 3;
    v.SurfacePitch = 63;
    v.SurfaceBaseAddress = TEX;
    uint32_t dw[8] = { 0 };
    CU_ASSERT_EQUAL_FATAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1800;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT + 4 * 2, &state_off, 4, NULL);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)float_texel(0, (int)x, (int)y, ch);
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    struct GEN7_SAMPLER_STATE st = { 0 };
    st.MinModeFilter = 1;
    st.MagModeFilter = 1;
    st.MipModeFilter = 0;
    st.TCXAddressControlMode = 2;
    st.TCYAddressControlMode = 2;
    st.TCZAddressControlMode = 2;
    st.MaxLOD = 14.0;
    uint32_t sdw[4] = { 0 };
    CU_ASSERT_EQUAL_FATAL(GEN7_SAMPLER_STATE_pack(sdw, &st), 0);
    gpu_memory_write(r.mem, DSBA + SSP, sdw, sizeof sdw, NULL);
    struct catcher *c = caught(&r);
    const float us[8] = { 0.1f, 0.3f, 0.6f, 0.9f, 0.13f, 0.37f, 0.62f, 0.88f };
    const float vs[8] = { 0.2f, 0.15f, 0.4f, 0.45f, 0.6f, 0.9f, 0.7f, 0.35f };
    uint32_t regs[3][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = fbits(0.0f);
        regs[1][i] = fbits(us[i]);
        regs[2][i] = fbits(vs[i]);
    }
    run(&r, gen7(send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 1, 2, 0), 3, 4, 0xff, false, regs)));
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch][i]),
                                   filter2d(float_texel, 0, 4, 4, us[i], vs[i], true, 2, 2, ch), 1e-4);
    /* ld: u, lod, v */
    uint32_t ld[3][8];
    for (unsigned i = 0; i < 8; i++) {
        ld[0][i] = i % 4;
        ld[1][i] = 0;
        ld[2][i] = 3 - i % 4;
    }
    run(&r, gen7(send_msg(&r, desc_of(SAMPLER_LD, 1, 2, 0), 3, 4, 0xff, false, ld)));
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(as_float(c->regs[0][i]), (float)float_texel(0, (int)(i % 4), (int)(3 - i % 4), 0));
    /* SIMD4x2 headerless: u v r ai lod; sample 0 (0.3, 0.8), sample 1 (0.9, 0.1) */
    uint32_t s4b[2][8] = { { 0 } };
    s4b[0][0] = fbits(0.3f), s4b[0][1] = fbits(0.8f);
    s4b[0][4] = fbits(0.9f), s4b[0][5] = fbits(0.1f);
    run(&r, gen7(send_msg(&r, desc_of(SAMPLER_SAMPLE_L, 0, 2, 0), 2, 1, 0xff, false, s4b)));
    CU_ASSERT_EQUAL_FATAL(c->count, 3);
    for (unsigned ch = 0; ch < 4; ch++) {
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][ch]),
                               filter2d(float_texel, 0, 4, 4, 0.3f, 0.8f, true, 2, 2, ch), 1e-4);
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][4 + ch]),
                               filter2d(float_texel, 0, 4, 4, 0.9f, 0.1f, true, 2, 2, ch), 1e-4);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_messages"), 0);
    sim_destroy(r.sim);
}

/* A block-compressed surface through the sampler: an 8 x 8 BC4_UNORM surface
 * (2 x 2 blocks of 8 bytes, pitch 16 bytes a row of blocks) whose block (bx, by) has endpoints 200 -
 * 40 (bx + 2 by) and 20 and the index of texel i = i % 8; ld of every texel
 * against the RGTC palette (Khronos Data Format Specification: red_0 > red_1,
 * ((8 - i) red_0 + (i - 1) red_1) / 7). Channels G, B 0, A 1 (L3577-3760's
 * BC4 mapping). */
static void test_compressed_surface(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x189, .width = 8, .height = 8, .pitch = 16,
                           .base = TEX + 0x70000 };
    put_surface(&r, 6, &d);
    for (unsigned by = 0; by < 2; by++)
        for (unsigned bx = 0; bx < 2; bx++) {
            uint8_t blk[8] = { (uint8_t)(200 - 40 * (bx + 2 * by)), 20 };
            uint64_t bits = 0;
            for (unsigned i = 0; i < 16; i++)
                bits |= (uint64_t)(i % 8) << (3 * i);
            for (unsigned k = 0; k < 6; k++)
                blk[2 + k] = (uint8_t)(bits >> (8 * k));
            gpu_memory_write(r.mem, TEX + 0x70000 + by * 16 + bx * 8, blk, 8, NULL);
        }
    struct catcher *c = caught(&r);
    for (unsigned row = 0; row < 8; row++) {
        uint32_t regs[3][8];
        for (unsigned i = 0; i < 8; i++) {
            regs[0][i] = i;
            regs[1][i] = row;
            regs[2][i] = 0;
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 6, 0), 3, 4, 0xff, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, row + 1);
        for (unsigned i = 0; i < 8; i++) {
            unsigned bx = i / 4, by = row / 4, t = (row % 4) * 4 + i % 4, idx = t % 8;
            double r0 = (200 - 40 * (bx + 2 * by)) / 255.0, r1 = 20 / 255.0;
            double want = idx == 0 ? r0 : idx == 1 ? r1 : ((8 - idx) * r0 + (idx - 1) * r1) / 7;
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), want, 1e-6);
            CU_ASSERT_EQUAL(as_float(c->regs[1][i]), 0.0f);
            CU_ASSERT_EQUAL(as_float(c->regs[3][i]), 1.0f);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 0);
    sim_destroy(r.sim);
}

/* Gen4 (965) message forms (spec/eu/opcodes.txt [gen4-sampler-message-type]:
 * descriptor type 15:14 read by the SIMD mode, codes shared by two messages told
 * apart by the length; Mesa's Gen4 payload order u, v, r, lod/bias, ref with a
 * header) on a Gen4 RENDER_SURFACE_STATE and SAMPLER_STATE, the state pointers
 * relative to General State Base: SIMD16 sample (u, v), sample_l, ld, resinfo,
 * SIMD8 sample_b_c (shadow compare with a bias); the header read with or
 * without the send's header flag (the EU sets none on Gen4). */
static struct msg *gen4(struct msg *m, uint8_t exec_size)
{
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->ctx.gen = 4;
    p->ctx.general_state_base = DSBA;
    p->ctx.dynamic_state_base = 0x7700000;      /* not used on Gen4 */
    p->exec_size = exec_size;
    return m;
}

static uint32_t gen4_desc(uint32_t type, uint32_t bti)
{
    return type << 14 | bti;
}

static void test_gen4_forms(void)
{
    struct rig r = rig_new(false, NULL);
    struct GEN4_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = 0;            /* R32G32B32A32_FLOAT */
    v.Width = 3;
    v.Height = 3;
    v.SurfacePitch = 63;
    v.SurfaceBaseAddress = TEX;
    uint32_t dw[8] = { 0 };
    CU_ASSERT_EQUAL_FATAL(GEN4_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1c00;
    gpu_memory_write(r.mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(r.mem, SSBA + BT + 4 * 3, &state_off, 4, NULL);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            float t[4];
            for (unsigned ch = 0; ch < 4; ch++)
                t[ch] = (float)float_texel(0, (int)x, (int)y, ch);
            gpu_memory_write(r.mem, TEX + y * 64 + x * 16, t, 16, NULL);
        }
    struct GEN4_SAMPLER_STATE st = { 0 };
    st.MinModeFilter = 1;
    st.MagModeFilter = 1;
    st.MipModeFilter = 0;
    st.TCXAddressControlMode = 2;
    st.TCYAddressControlMode = 2;
    st.TCZAddressControlMode = 2;
    st.MaxLOD = 13.0;
    st.ShadowFunction = 2;          /* PREFILTEROP_LESS */
    uint32_t sdw[4] = { 0 };
    CU_ASSERT_EQUAL_FATAL(GEN4_SAMPLER_STATE_pack(sdw, &st), 0);
    gpu_memory_write(r.mem, DSBA + SSP, sdw, sizeof sdw, NULL);
    struct catcher *c = caught(&r);
    float us[16], vs[16];
    for (unsigned i = 0; i < 16; i++) {
        us[i] = 0.05f + 0.057f * (float)i;
        vs[i] = 0.9f - 0.049f * (float)i;
    }
    /* SIMD16 sample: header, u, v */
    uint32_t m[9][8];
    memset(m, 0, sizeof m);
    header_reg(m[0], 0);
    for (unsigned i = 0; i < 16; i++) {
        m[1 + i / 8][i % 8] = fbits(us[i]);
        m[3 + i / 8][i % 8] = fbits(vs[i]);
    }
    run(&r, gen4(send_msg(&r, gen4_desc(0, 3), 5, 8, 0xffff, true, m), 16));
    CU_ASSERT_EQUAL_FATAL(c->count, 1);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned ch = 0; ch < 4; ch++)
            CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[ch * 2 + i / 8][i % 8]),
                                   filter2d(float_texel, 0, 4, 4, us[i], vs[i], true, 2, 2, ch), 1e-4);
    /* model fix: the same message as the EU sends it on Gen4, without the
     * header flag (Gen4 descriptors have no Header Present bit: it came with
     * Gen5), still read after its g0 header (Mesa's Gen4 sampler payloads
     * always carry it [EXT]; seed 001 has no sampler chapter) */
    run(&r, gen4(send_msg(&r, gen4_desc(0, 3), 5, 8, 0xffff, false, m), 16));
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[2 + i / 8][i % 8]),
                               filter2d(float_texel, 0, 4, 4, us[i], vs[i], true, 2, 2, 1), 1e-4);
    /* SIMD16 sample_l (type 1): u, v, r, lod */
    run(&r, gen4(send_msg(&r, gen4_desc(1, 3), 9, 8, 0xffff, true, m), 16));
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[2 + i / 8][i % 8]),
                               filter2d(float_texel, 0, 4, 4, us[i], vs[i], true, 2, 2, 1), 1e-4);
    /* SIMD16 ld (type 3): u, v, r, lod as integers */
    uint32_t ld[9][8];
    memset(ld, 0, sizeof ld);
    header_reg(ld[0], 0);
    for (unsigned i = 0; i < 16; i++) {
        ld[1 + i / 8][i % 8] = i % 4;
        ld[3 + i / 8][i % 8] = i / 4;
    }
    run(&r, gen4(send_msg(&r, gen4_desc(3, 3), 9, 8, 0xffff, true, ld), 16));
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(as_float(c->regs[i / 8][i % 8]), (float)float_texel(0, (int)(i % 4), (int)(i / 4), 0));
    /* SIMD16 resinfo (type 2 with one parameter): width, height */
    uint32_t ri[3][8];
    memset(ri, 0, sizeof ri);
    header_reg(ri[0], 0);
    run(&r, gen4(send_msg(&r, gen4_desc(2, 3), 3, 8, 0xffff, true, ri), 16));
    CU_ASSERT_EQUAL(c->regs[0][0], 4);
    CU_ASSERT_EQUAL(c->regs[2][0], 4);
    /* SIMD8 sample_b_c (type 0 with five parameters): u, v, r, bias, ref; LESS
     * against ref 15 on R = x + 10 y, filtered */
    uint32_t bc[6][8];
    memset(bc, 0, sizeof bc);
    header_reg(bc[0], 0);
    for (unsigned i = 0; i < 8; i++) {
        bc[1][i] = fbits(us[i]);
        bc[2][i] = fbits(vs[i]);
        bc[5][i] = fbits(15.0f);
    }
    run(&r, gen4(send_msg(&r, gen4_desc(0, 3), 6, 4, 0xff, true, bc), 8));
    CU_ASSERT_EQUAL_FATAL(c->count, 6);
    for (unsigned i = 0; i < 8; i++) {
        float fu = us[i] * 4 - 0.5f, fv = vs[i] * 4 - 0.5f;
        int i0 = (int)floorf(fu), j0 = (int)floorf(fv);
        double a = quantize8(fu - floorf(fu)), b = quantize8(fv - floorf(fv)), want = 0;
        for (int dj = 0; dj < 2; dj++)
            for (int di = 0; di < 2; di++) {
                int x = wrap_index(i0 + di, 4, 2), y = wrap_index(j0 + dj, 4, 2);
                want += (di ? a : 1 - a) * (dj ? b : 1 - b) * seed_compare(2, x + 10.0 * y, 15.0);
            }
        CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[0][i]), want, 1e-6);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_messages"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.msg.sample_c"), 1);
    sim_destroy(r.sim);
}

/* ---- BPTC surfaces through the sampler ----
 * Two-block (8 x 4) BC7_UNORM and BC6H_UF16 surfaces (16-byte blocks, pitch 32),
 * ld of every texel. Blocks are built bit by bit as the Khronos Data Format
 * Specification's BPTC section lays them out, and the expected texels come from
 * its formulas written here. */

static void bptc_put(uint8_t blk[16], unsigned *pos, unsigned count, unsigned value)
{
    for (unsigned i = 0; i < count; i++, (*pos)++)
        if (value >> i & 1)
            blk[*pos / 8] |= (uint8_t)(1u << (*pos % 8));
}

static const int bptc_weight4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

/* ld_lz of every texel of an 8 x 4 surface of format `format` holding blocks
 * blk[0], blk[1] side by side, against want[block][texel][channel]. */
static void check_bptc_surface(uint32_t format, uint8_t blk[2][16], double want[2][16][4], double tolerance)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = format, .width = 8, .height = 4, .pitch = 32,
                           .base = TEX + 0x78000 };
    put_surface(&r, 7, &d);
    for (unsigned b = 0; b < 2; b++)
        gpu_memory_write(r.mem, TEX + 0x78000 + 16 * b, blk[b], 16, NULL);
    struct catcher *c = caught(&r);
    for (unsigned row = 0; row < 4; row++) {
        uint32_t regs[3][8];
        for (unsigned i = 0; i < 8; i++) {
            regs[0][i] = i;
            regs[1][i] = row;
            regs[2][i] = 0;
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 7, 0), 3, 4, 0xff, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, row + 1);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned k = 0; k < 4; k++)
                CU_ASSERT_DOUBLE_EQUAL(as_float(c->regs[k][i]), want[i / 4][row * 4 + i % 4][k], tolerance);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 0);
    sim_destroy(r.sim);
}

static void test_bptc_surfaces(void)
{
    /* BC7 mode 6 (one subset; 7-bit RGBA endpoints and a p-bit each; 4-bit
     * indices, texel 0's 3 bits): endpoint e of block b = (v << 1 | p), 8 bits,
     * value = ((64 - w) e0 + w e1 + 32) >> 6 */
    uint8_t blk[2][16] = { { 0 } };
    double want[2][16][4];
    for (unsigned b = 0; b < 2; b++) {
        unsigned ep[2][4] = { { 5 + 40 * b, 127, 60, 0 }, { 120, 9 * b, 33, 127 - 50 * b } };
        unsigned p[2] = { b, 1 }, pos = 0, idx[16];
        bptc_put(blk[b], &pos, 7, 1u << 6);
        for (unsigned k = 0; k < 4; k++)
            for (unsigned e = 0; e < 2; e++)
                bptc_put(blk[b], &pos, 7, ep[e][k]);
        bptc_put(blk[b], &pos, 1, p[0]);
        bptc_put(blk[b], &pos, 1, p[1]);
        for (unsigned t = 0; t < 16; t++) {
            idx[t] = (t * 3 + b * 5 + 1) % (t == 0 ? 8 : 16);
            bptc_put(blk[b], &pos, t == 0 ? 3 : 4, idx[t]);
        }
        CU_ASSERT_EQUAL(pos, 128);
        for (unsigned t = 0; t < 16; t++)
            for (unsigned k = 0; k < 4; k++) {
                int e0 = (int)(ep[0][k] * 2 + p[0]), e1 = (int)(ep[1][k] * 2 + p[1]), w = bptc_weight4[idx[t]];
                want[b][t][k] = (((64 - w) * e0 + w * e1 + 32) >> 6) / 255.0;
            }
    }
    check_bptc_surface(0x1A2, blk, want, 1e-6);

    /* BC6H_UF16 mode 11 (bits 4:0 = 00011; one region; 10-bit endpoints as they
     * are: rw, gw, bw, rx, gx, bx; 4-bit indices): unquantize ((e << 16) +
     * 0x8000) >> 10 (0 and 1023 to 0 and 0xFFFF), interpolate, scale (v * 31) >> 6
     * to a half float's bits */
    memset(blk, 0, sizeof blk);
    for (unsigned b = 0; b < 2; b++) {
        unsigned wv[3] = { 0, 300 + 200 * b, 1000 }, xv[3] = { 1023, 77, 400 - 100 * b };
        unsigned pos = 0, idx[16];
        bptc_put(blk[b], &pos, 5, 0x03);
        for (unsigned k = 0; k < 3; k++)
            bptc_put(blk[b], &pos, 10, wv[k]);
        for (unsigned k = 0; k < 3; k++)
            bptc_put(blk[b], &pos, 10, xv[k]);
        for (unsigned t = 0; t < 16; t++) {
            idx[t] = (t * 7 + b) % (t == 0 ? 8 : 16);
            bptc_put(blk[b], &pos, t == 0 ? 3 : 4, idx[t]);
        }
        CU_ASSERT_EQUAL(pos, 128);
        for (unsigned t = 0; t < 16; t++) {
            for (unsigned k = 0; k < 3; k++) {
                int q[2];
                unsigned raw[2] = { wv[k], xv[k] };
                for (unsigned e = 0; e < 2; e++)
                    q[e] = raw[e] == 0 ? 0 : raw[e] == 1023 ? 0xffff : (int)(((raw[e] << 16) + 0x8000) >> 10);
                int w = bptc_weight4[idx[t]];
                int half = ((((64 - w) * q[0] + w * q[1] + 32) >> 6) * 31) >> 6;
                int exponent = half >> 10, mantissa = half & 1023;
                want[b][t][k] = exponent == 0 ? ldexp(mantissa, -24) : ldexp(1024 + mantissa, exponent - 25);
            }
            want[b][t][3] = 1.0;
        }
    }
    check_bptc_surface(0x1A4, blk, want, 0.0);
}

/* ---- an ASTC surface through the sampler ----
 * A 10 x 4 ASTC_LDR_2D_5x4_FLT16 surface (key 0x248: ASTC Enable | encoding 0x48,
 * 003 L3523-3550; two 16-byte blocks side by side, pitch 32), ld_lz of texels of
 * both blocks. Blocks built bit by bit from the Khronos Data Format Specification
 * 1.3 ASTC chapter: block 0 a void-extent block (bits 8:0 = 1 1111 1100, bits
 * 11:10 = 11, all extent coordinates ones, RGBA UNORM16 from bit 64) of
 * (0xFFFF, 0x8000, 0x4000, 0): decode_float16 gives (1.0, 0.5, 0.25, 0); block 1 a
 * 4x4 grid of 2-bit weights (block mode 0x42), CEM 0 (luminance direct) with
 * bytes v0 = 0, v1 = 0x80 from bit 17 and every weight 3 (64): the texels are
 * e1 = 0x80 * 257 = 32896 -> 32896 / 65536 = 1028 * 2^-11 = 0.501953125, alpha 1. */
static void test_astc_surface(void)
{
    struct rig r = rig_new(false, NULL);
    struct surf_desc d = { .type = 1, .format = 0x248, .width = 10, .height = 4, .pitch = 32,
                           .base = TEX + 0x7c000 };
    put_surface(&r, 7, &d);
    uint8_t blk[2][16] = { { 0 } };
    unsigned pos = 0;
    bptc_put(blk[0], &pos, 9, 0x1fc);
    bptc_put(blk[0], &pos, 1, 0);
    bptc_put(blk[0], &pos, 2, 3);
    for (unsigned k = 0; k < 4; k++)
        bptc_put(blk[0], &pos, 13, 0x1fff);
    static const unsigned colour[4] = { 0xffff, 0x8000, 0x4000, 0 };
    for (unsigned k = 0; k < 4; k++)
        bptc_put(blk[0], &pos, 16, colour[k]);
    pos = 0;
    bptc_put(blk[1], &pos, 11, 0x42);
    bptc_put(blk[1], &pos, 2, 0);
    bptc_put(blk[1], &pos, 4, 0);
    bptc_put(blk[1], &pos, 8, 0);
    bptc_put(blk[1], &pos, 8, 0x80);
    for (unsigned b = 96; b < 128; b++)     /* the 32 weight bits, all ones */
        blk[1][b / 8] |= (uint8_t)(1u << (b % 8));
    for (unsigned b = 0; b < 2; b++)
        gpu_memory_write(r.mem, TEX + 0x7c000 + 16 * b, blk[b], 16, NULL);
    struct catcher *c = caught(&r);
    static const unsigned xs[8] = { 0, 1, 2, 4, 5, 6, 8, 9 };
    for (unsigned row = 0; row < 4; row++) {
        uint32_t regs[3][8];
        for (unsigned i = 0; i < 8; i++) {
            regs[0][i] = xs[i];
            regs[1][i] = row;
            regs[2][i] = 0;
        }
        run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 7, 0), 3, 4, 0xff, false, regs));
        CU_ASSERT_EQUAL_FATAL(c->count, row + 1);
        for (unsigned i = 0; i < 8; i++) {
            bool second = xs[i] >= 5;
            const float want[4] = { second ? 0.501953125f : 1.0f, second ? 0.501953125f : 0.5f,
                                    second ? 0.501953125f : 0.25f, second ? 1.0f : 0.0f };
            for (unsigned k = 0; k < 4; k++)
                CU_ASSERT_EQUAL(as_float(c->regs[k][i]), want[k]);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 0);
    /* an ASTC_FULL (HDR) surface is not decoded: counted, zeros (bad input) */
    d.format = 0x348;
    put_surface(&r, 7, &d);
    run(&r, send_msg(&r, desc_of(SAMPLER_LD_LZ, 1, 7, 0), 3, 4, 0xff, false,
                     (uint32_t[3][8]){ { 0 } }));
    CU_ASSERT_EQUAL_FATAL(c->count, 5);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(c->regs[k][0], 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "smp.unsupported_formats"), 1);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "decode: the skl_tri ld_lz message form, header fields", test_decode_skl_tri_ld_lz },
    { "ld_lz on a Y-tiled RGBA8 surface, SIMD8 and SIMD16", test_ld_lz_tiled },
    { "ld out of bounds returns zero; header offsets; resinfo", test_ld_out_of_bounds_and_resinfo },
    { "skl_tri blit: the capture's surface state, ld_lz U32 texels", test_skl_tri_blit_surface },
    { "bilinear and trilinear against GL's rule", test_bilinear_trilinear },
    { "implicit LOD from subspans, sample_d, sample_b, 16-bit SIMD16", test_sample_implicit_lod },
    { "address modes at and beyond the edges", test_wrap_modes },
    { "sRGB decoded before filtering", test_srgb_linear_filter },
    { "2D and 1D arrays, 3D trilinear, cube faces, non-normalized", test_surface_types },
    { "bad state, BTI, formats and messages counted", test_bad_input },
    { "random messages: no crash, one reply each", test_random_messages },
    { "L3 lines once, then sampler cache hits", test_cache_and_l3_lines },
    { "ld_mcs, ld2dms and ld2dss on a 4x MSS surface", test_multisample_loads },
    { "a CCS_E surface's CLEAR pairs read the clear colour", test_ccs_clear_texels },
    { "shadow compare: every function, PCF, sample_c_lz", test_shadow_compare },
    { "gather4, _po, _c, _po_c: corners, channel, offsets", test_gather4 },
    { "sample_min, sample_max and the min reduction", test_min_max },
    { "SIMD4x2 sample_l and ld, null mask, SIMD8D refused", test_simd4x2 },
    { "anisotropic: ways, endpoint weights, ratio clamp", test_anisotropic },
    { "cube: TEXCOORDMODE_CUBE reads the adjacent face", test_cube_seamless },
    { "texel rates per filter mode: bilinear, trilinear, nearest", test_filter_rates },
    { "Gen7 state layouts: sample_l, ld (u, lod, v), SIMD4x2", test_gen7_forms },
    { "a BC4 surface through the sampler: every texel of four blocks", test_compressed_surface },
    { "BC7 and BC6H surfaces through the sampler: every texel of two blocks", test_bptc_surfaces },
    { "an ASTC 5x4 FLT16 surface through the sampler: void extent and weights", test_astc_surface },
    { "Gen4 message forms: sample (with or without the header flag), sample_l, ld, resinfo, "
      "sample_b_c", test_gen4_forms },
    { 0 }
};
TEST_SUITE(sampler, cases);
