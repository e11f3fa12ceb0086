/* tests/units/test_wm_msaa_depth.c - WM's early depth and stencil on a
 * multisampled (4x) depth/stencil buffer (issue 12 items 2, 5): each covered
 * sample tested against its own stored value, its depth evaluated at its
 * sample position ("nX output merge, eval depth at Sample Offsets", seed 003
 * Table 3 L15658-15667), the dispatch's per-pixel sample masks keeping the
 * samples that passed.
 *
 * Expected values are computed here: the 4x positions are the standard
 * pattern (D3D11's standard 4x pattern, (-2,-6) (6,-2) (-6,2) (2,6) in
 * 1/16 pixel from the centre; what Mesa programs in 3DSTATE_SAMPLE_PATTERN),
 * sent in 3DSTATE_SAMPLE_PATTERN (dword 7, X << 4 | Y, U0.4 from the pixel's
 * corner); a sample (X, Y) of the test triangle (0,0) (4,0) (0,4) is covered
 * when X + Y < 4 (the hypotenuse is neither a top nor a left edge); the
 * interleaved layout of the 4x surfaces (Mesa blorp's encode_msaa for IMS,
 * units/common/depth_stencil.h) is written here as "pixel (x, y) sample s sits
 * in the 2x2 quad of the pixel pair's 4x4 physical block that s selects:
 * column 4 (x / 2) + 2 (s & 1) + (x & 1), row 4 (y / 2) + (s & 2) + (y & 1)",
 * and the Y tile (128-byte rows of 16-byte columns, 32 rows) and W tile
 * layouts by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"

#define DEPTH_BASE 0x100000u
#define STENCIL_BASE 0x200000u
#define HIZ_BASE 0x300000u

/* standard 4x sample positions, X << 4 | Y in 1/16 from the pixel's corner */
static const uint8_t pos4[4] = { 0x62, 0xe6, 0x2a, 0xae };

static double sample_x(uint32_t x, uint32_t s)
{
    return x + (pos4[s] >> 4) / 16.0;
}

static double sample_y(uint32_t y, uint32_t s)
{
    return y + (pos4[s] & 15) / 16.0;
}

/* the physical element of sample s of pixel (x, y) of a 4x interleaved surface */
static void physical(uint32_t x, uint32_t y, uint32_t s, uint32_t *px, uint32_t *py)
{
    *px = 4 * (x / 2) + 2 * (s & 1) + (x & 1);
    *py = 4 * (y / 2) + (s & 2) + (y & 1);
}

/* byte offset of a 4-byte element of a Y-tiled surface one tile (128 B) wide */
static uint64_t ytile32(uint32_t px, uint32_t py)
{
    uint32_t u = 4 * px;
    return (uint64_t)(py / 32) * 4096 + (u / 16) * 512 + (py % 32) * 16 + u % 16;
}

/* byte of (u, v) of a W-tiled surface one tile (64 B) wide:
 * A[11:0] = u5 u4 u3 v5 v4 v3 v2 u2 v1 u1 v0 u0 */
static uint64_t wtile(uint32_t u, uint32_t v)
{
    uint32_t bits[12] = { u & 1, v & 1, (u >> 1) & 1, (v >> 1) & 1, (u >> 2) & 1, (v >> 2) & 1,
                          (v >> 3) & 1, (v >> 4) & 1, (v >> 5) & 1, (u >> 3) & 1, (u >> 4) & 1,
                          (u >> 5) & 1 };
    uint64_t a = 0;
    for (uint32_t i = 0; i < 12; i++)
        a |= (uint64_t)bits[i] << i;
    return (uint64_t)(v / 64) * 4096 + a;
}

static bool triangle_covers(uint32_t x, uint32_t y, uint32_t s)
{
    return sample_x(x, s) + sample_y(y, s) < 4.0;
}

/* 4x pattern rasterization with the standard pattern, every sample enabled,
 * a SIMD8 PS with statistics. */
static void msaa_state(struct wm_rig *r)
{
    wm_rig_ps_state(r, (struct wm_ps_setup){ .e8 = true, .grf = { 2 }, .ksp = { 0x40 },
                                             .statistics = true });
    struct spec_3DSTATE_MULTISAMPLE *ms;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_MULTISAMPLE, 2, sizeof *ms, (void **)&ms));
    ms->NumberOfMultisamples = 2;
    struct spec_3DSTATE_RASTER *ra;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_RASTER, 5, sizeof *ra, (void **)&ra));
    ra->DXMultisampleRasterizationEnable = true;
    struct spec_3DSTATE_SAMPLE_MASK *sm;
    wm_rig_to_wm(r, wm_rig_state_msg(r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *sm, (void **)&sm));
    sm->SampleMask = 0xffff;
    void *body;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_SAMPLE_PATTERN, 9, 4, &body);
    struct cs_state_packet *pk = (struct cs_state_packet *)m->payload;
    pk->dwords[7] = (uint32_t)pos4[0] | (uint32_t)pos4[1] << 8 | (uint32_t)pos4[2] << 16 |
                    (uint32_t)pos4[3] << 24;
    pk->dwords[8] = 0x008844cc;
    wm_rig_to_wm(r, m);
}

/* An 8x8 RECTLIST at pixels (0..7, 0..7) with depth plane a0 + a1 X. */
static struct setup_primitive square(float a0, float a1, uint32_t draw)
{
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_max = 7;
    p.y_max = 7;
    p.depth = (struct setup_plane){ a0, a1, 0 };
    p.draw = draw;
    return p;
}

/* Runs the rig, ending each thread dispatched (the scoreboard keeps a later
 * draw's subspans behind the earlier threads). */
static void run_ending_threads(struct wm_rig *r, uint32_t *ended)
{
    for (int round = 0; round < 400; round++) {
        wm_rig_run(r, 4);
        if (*ended < r->td->count)     /* the feeder takes one a cycle */
            wm_rig_end_thread(r, r->td->head[(*ended)++].request_id, 0, 0);
    }
}

/* The samples of pixel (x, y) the dispatches of draw `draw` carry (the
 * thread context's render cache masks); *lit counts the lit pixels seen. */
static uint32_t dispatched_samples(const struct wm_rig *r, uint32_t draw, uint32_t x, uint32_t y,
                                   uint32_t *seen)
{
    uint32_t mask = 0;
    for (uint32_t t = 0; t < r->td->count; t++) {
        const struct eu_thread_context *c = &r->td->head[t].ctx;
        if (c->draw != draw + 1)
            continue;
        for (uint32_t k = 0; k < c->subspans; k++)
            for (uint32_t i = 0; i < 4; i++) {
                if (c->pixel_x[k] + (i & 1) != x || c->pixel_y[k] + (i >> 1) != y)
                    continue;
                if (!((c->pixel_mask >> (4 * k + i)) & 1u))
                    continue;
                CU_ASSERT_EQUAL(c->sample_masks_valid, 1);
                mask |= c->sample_mask[4 * k + i];
                (*seen)++;
            }
    }
    return mask;
}

static float stored_depth(struct wm_rig *r, uint32_t x, uint32_t y, uint32_t s)
{
    uint32_t px, py;
    physical(x, y, s, &px, &py);
    float f = 0;
    gpu_memory_read(r->mem, DEPTH_BASE + ytile32(px, py), &f, 4, NULL);
    return f;
}

/* 4x D32_FLOAT: a WM_HZ_OP depth clear of every sample, a square whose depth
 * rises along X (z = 0.25 + X / 32 at each sample's X), then the test
 * triangle at z = 0.25 - X / 16 + Y / 16 (LESS): a sample passes when covered
 * and nearer than what the square left there, so a pixel on the triangle's
 * edge or on the depth crossing keeps only some of its samples. */
static void msaa_early_depth(bool hiz)
{
    struct wm_rig r = wm_rig_new();
    msaa_state(&r);
    /* junk in the whole physical 16x16 surface */
    static uint8_t junk[4096];
    memset(junk, 0xee, sizeof junk);
    gpu_memory_write(r.mem, DEPTH_BASE, junk, sizeof junk, NULL);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 1;           /* D32_FLOAT */
    d->SurfaceBaseAddress = DEPTH_BASE;
    d->SurfacePitch = 127;          /* the physical surface's: 16 samples x 4 bytes fit */
    d->Width = 7;                   /* logical: 8x8 pixels */
    d->Height = 7;
    d->DepthWriteEnable = true;
    d->HierarchicalDepthBufferEnable = hiz;
    wm_rig_to_wm(&r, m);
    if (hiz) {
        /* the model's HiZ records (depth_stencil.h), one per 8x4 pixels of
         * every sample; zeroed memory is AMBIGUOUS */
        static uint8_t zeros[4096];
        gpu_memory_write(r.mem, HIZ_BASE, zeros, sizeof zeros, NULL);
        struct spec_3DSTATE_HIER_DEPTH_BUFFER *hb;
        m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER, 5, sizeof *hb, (void **)&hb);
        hb->SurfaceBaseAddress = HIZ_BASE;
        hb->SurfacePitch = 127;
        wm_rig_to_wm(&r, m);
    }
    struct spec_3DSTATE_CLEAR_PARAMS *c;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_CLEAR_PARAMS, 3, sizeof *c, (void **)&c);
    c->DepthClearValue = 1.0f;
    c->DepthClearValueValid = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_WM_HZ_OP *h;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    h->DepthBufferClearEnable = true;
    h->NumberOfMultisamples = 2;
    h->ClearRectangleXMax = 8;
    h->ClearRectangleYMax = 8;
    wm_rig_to_wm(&r, m);
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    wm_rig_to_wm(&r, m);
    wm_rig_run(&r, 60);
    if (hiz) {
        /* a fast clear: both 8x4 blocks CLEARED, no depth written */
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "hiz.blocks_cleared"), 2);
        uint32_t raw = 0;
        gpu_memory_read(r.mem, DEPTH_BASE, &raw, 4, NULL);
        CU_ASSERT_EQUAL(raw, 0xeeeeeeeeu);
    } else {
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++)
                for (uint32_t s = 0; s < 4; s++)
                    CU_ASSERT_EQUAL(stored_depth(&r, x, y, s), 1.0f);
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "hz_op.pixels"), 64);
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.unsupported_samples"), 0);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(&r, m);

    uint32_t ended = 0;
    struct setup_primitive sq = square(0.25f, 1.0f / 32.0f, 1);
    wm_rig_send_setup(&r, &sq);
    run_ending_threads(&r, &ended);
    double want[8][8][4];
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++)
            for (uint32_t s = 0; s < 4; s++) {
                want[y][x][s] = 0.25 + sample_x(x, s) / 32.0;
                CU_ASSERT_DOUBLE_EQUAL(stored_depth(&r, x, y, s), want[y][x][s], 1e-6);
            }
    /* the test triangle moved nearer: z = 0.25 - X / 16 + Y / 16 */
    struct setup_primitive tri = wm_rig_triangle(0, 0);
    tri.draw = 2;
    tri.depth.a0 = 0.25f;
    CU_ASSERT_DOUBLE_EQUAL(tri.depth.a1, -1.0 / 16.0, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(tri.depth.a2, 1.0 / 16.0, 1e-7);
    wm_rig_send_setup(&r, &tri);
    run_ending_threads(&r, &ended);
    uint32_t passed = 0, failed = 0, partial = 0, lit = 0, seen = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint32_t expect = 0;
            for (uint32_t s = 0; s < 4; s++) {
                if (!triangle_covers(x, y, s))
                    continue;
                double z = 0.25 - sample_x(x, s) / 16.0 + sample_y(y, s) / 16.0;
                if (z < want[y][x][s]) {
                    expect |= 1u << s;
                    want[y][x][s] = z;
                    passed++;
                } else {
                    failed++;
                }
            }
            lit += expect != 0;
            partial += expect != 0 && expect != 0xf;
            CU_ASSERT_EQUAL(dispatched_samples(&r, 2, x, y, &seen), expect);
            for (uint32_t s = 0; s < 4; s++)
                CU_ASSERT_DOUBLE_EQUAL(stored_depth(&r, x, y, s), want[y][x][s], 1e-6);
        }
    CU_ASSERT_EQUAL(seen, lit);
    /* the test means something: pixels split by the depth crossing 2Y = 3X */
    CU_ASSERT_TRUE(partial >= 3);
    CU_ASSERT_TRUE(failed >= 10);
    /* PS_DEPTH_COUNT counts samples (L16766, L11050): the square's 256 and the passes */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "ps.depth_count"), 256 + passed);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.depth_failed"), failed);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.faults"), 0);
    if (hiz) {
        /* the first draw materialised the cleared blocks into every sample;
         * a square behind everything (z 0.95, every sample holds at most
         * 0.5) is rejected by HiZ whole, its 256 samples counted as failures */
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "hiz.blocks_filled"), 2);
        struct setup_primitive far = square(0.95f, 0, 3);
        wm_rig_send_setup(&r, &far);
        run_ending_threads(&r, &ended);
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "hiz.blocks_rejected"), 2);
        CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.depth_failed"), failed + 256);
        uint32_t none = 0;
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++)
                CU_ASSERT_EQUAL(dispatched_samples(&r, 3, x, y, &none), 0);
    }
    sim_destroy(r.sim);
}

static void test_msaa_early_depth_per_sample(void)
{
    msaa_early_depth(false);
}

/* The same with HiZ (3DSTATE_HIER_DEPTH_BUFFER): WM_HZ_OP's fast clear of
 * 4x blocks, their materialisation into every sample, a HiZ reject. */
static void test_msaa_early_depth_hiz(void)
{
    msaa_early_depth(true);
}

static uint8_t stored_stencil(struct wm_rig *r, uint32_t x, uint32_t y, uint32_t s)
{
    uint32_t px, py;
    physical(x, y, s, &px, &py);
    uint8_t b = 0;
    gpu_memory_read(r->mem, STENCIL_BASE + wtile(px, py), &b, 1, NULL);
    return b;
}

/* 4x separate stencil: the triangle REPLACEs 0x5a into the samples it covers;
 * a square then tests EQUAL 0x5a, INCRSAT: exactly the triangle's samples
 * pass (and are dispatched), the others fail and keep 0. */
static void test_msaa_stencil_per_sample(void)
{
    struct wm_rig r = wm_rig_new();
    msaa_state(&r);
    static uint8_t zeros[4096];
    gpu_memory_write(r.mem, STENCIL_BASE, zeros, sizeof zeros, NULL);
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 1;
    d->SurfaceBaseAddress = DEPTH_BASE;
    d->SurfacePitch = 127;
    d->Width = 7;
    d->Height = 7;
    d->StencilWriteEnable = true;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_STENCIL_BUFFER *sb;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_STENCIL_BUFFER, 5, sizeof *sb, (void **)&sb);
    sb->StencilBufferEnable = true;
    sb->SurfaceBaseAddress = STENCIL_BASE;
    sb->SurfacePitch = 63;
    wm_rig_to_wm(&r, m);
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->StencilTestEnable = true;
    ds->StencilBufferWriteEnable = true;
    ds->StencilTestFunction = 0;    /* ALWAYS */
    ds->StencilReferenceValue = 0x5a;
    ds->StencilTestMask = 0xff;
    ds->StencilWriteMask = 0xff;
    ds->StencilPassDepthPassOp = 2; /* REPLACE */
    wm_rig_to_wm(&r, m);
    uint32_t ended = 0;
    struct setup_primitive tri = wm_rig_triangle(0, 0);
    tri.draw = 1;
    wm_rig_send_setup(&r, &tri);
    run_ending_threads(&r, &ended);
    m = wm_rig_state_msg(&r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->StencilTestEnable = true;
    ds->StencilBufferWriteEnable = true;
    ds->StencilTestFunction = 3;    /* EQUAL */
    ds->StencilReferenceValue = 0x5a;
    ds->StencilTestMask = 0xff;
    ds->StencilWriteMask = 0xff;
    ds->StencilPassDepthPassOp = 3; /* INCRSAT */
    wm_rig_to_wm(&r, m);
    struct setup_primitive sq = square(0.5f, 0, 2);
    wm_rig_send_setup(&r, &sq);
    run_ending_threads(&r, &ended);
    uint32_t covered = 0, partial = 0, seen = 0, lit = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint32_t cover = 0;
            for (uint32_t s = 0; s < 4; s++)
                if (triangle_covers(x, y, s))
                    cover |= 1u << s;
            covered += (uint32_t)__builtin_popcount(cover);
            partial += cover != 0 && cover != 0xf;
            lit += cover != 0;
            CU_ASSERT_EQUAL(dispatched_samples(&r, 2, x, y, &seen), cover);
            for (uint32_t s = 0; s < 4; s++)
                CU_ASSERT_EQUAL(stored_stencil(&r, x, y, s), (cover >> s) & 1u ? 0x5b : 0);
        }
    CU_ASSERT_EQUAL(seen, lit);
    CU_ASSERT_TRUE(partial >= 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.stencil_failed"), 256 - covered);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.stencil_writes"), 2 * covered);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "4x early depth per sample at the sample positions, HZ_OP clear of every sample",
      test_msaa_early_depth_per_sample },
    { "4x early depth with HiZ: fast clear, materialised samples, whole-block reject",
      test_msaa_early_depth_hiz },
    { "4x separate stencil per sample", test_msaa_stencil_per_sample },
    { 0 }
};
TEST_SUITE(wm_msaa_depth, cases);
