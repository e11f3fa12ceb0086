/* tests/units/test_vc4_msaa.c - VideoCore IV 4x multisampling (units/vc4_v3d/vc4_3d.h
 * vc4_tile_entry): vc4_tri's submit patched into an MSAA one (as Mesa sets it: color_write bits
 * 0 MS 4x and 4 decimate 4x, the bin config's MS bit, the Configuration Bits' oversample 4x,
 * and a full-resolution msaa_color_write), played through the loader, binning and tiles;
 * the per-sample coverage and the resolved colour are computed here from the triangle's
 * NDC vertices (vc4-submit.md §10.2), the viewport (§10.1: 32 px a unit, centre 32, 32) and
 * the sample positions vc4_3d.h chose; the full-resolution store and load round trip; the
 * per-sample Z test and the one-sample TLB_COLOUR_MS order (seed 002 @108711); and the
 * kernel's checks on MSAA render set-ups (vc4-submit.md §8.3 and its MSAA summary).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/vc4_submit_rig.h"
#include "tests/test.h"
#include "units/vc4_v3d/vc4_shade.h"

/* byte offsets in vc4_tri's decompressed dump (as test_vc4_submit.c): the SUBM payload after
 * the file header (16), its record header (8) and the submit index (4); the BCL after SUBM */
#define SUBM 28
#define BCL (16 + 8 + 180 + 8)
#define MSAA_OFFSET 0x80000u       /* msaa_color_write in BO 3 (1 MiB) */

static const uint32_t YELLOW = 0xff00ffffu;    /* draw 1's constant colour (1, 1, 0, 1) */

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* vc4_tri as a 4x MSAA submit: 2 x 2 tiles of 32 px for its 64 x 64 frame */
static uint8_t *msaa_tri(size_t *size, bool full_resolution)
{
    uint8_t *b = vc4_submit_rig_inflate(VC4_RIG_TRI, size);
    if (!b)
        return NULL;
    uint8_t *sub = b + SUBM, *bcl = b + BCL;
    sub[58] = 1;                   /* max_x_tile, max_y_tile */
    sub[59] = 1;
    sub[80] |= 0x11;               /* color_write bits: MS 4x, decimate 4x */
    if (full_resolution) {
        wr32(sub + 108, 3);        /* msaa_color_write: BO 3 + MSAA_OFFSET, bits 0, flags 0 */
        wr32(sub + 112, MSAA_OFFSET);
        wr32(sub + 116, 0);
    }
    bcl[13] = 2;                   /* 112: 2 x 2 tiles, MS 4x */
    bcl[14] = 2;
    bcl[15] |= 1;
    bcl[0x1d] |= 0x40;             /* 96 at 0x1C: Rasteriser Oversample Mode 4x (2@6) */
    return b;
}

/* ---- the expected picture, from the geometry ---------------------------------------------- */

struct point { double x, y; };

/* draw 1's vertices in pixels: NDC (-0.9, -0.9), (-0.1, -0.9), (-0.5, -0.1) */
static struct point screen(double x, double y)
{
    return (struct point){ 32 + 32 * x, 32 + 32 * y };
}

/* signed distance of p from the edge a -> b (positive left of it: inside a CCW triangle) */
static double edge_distance(struct point a, struct point b, struct point p)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    return (dx * (p.y - a.y) - dy * (p.x - a.x)) / sqrt(dx * dx + dy * dy);
}

/* sample s of pixel (x, y): inside (1), outside (0), or too near an edge to say (-1): the
 * shaders round the vertices to 1/16 px, which moves an edge by up to 0.09 px */
static int sample_inside(int x, int y, unsigned s)
{
    const struct point v[3] = { screen(-0.9, -0.9), screen(-0.1, -0.9), screen(-0.5, -0.1) };
    struct point p = { x + vc4_sample_position[s][0] / 16.0, y + vc4_sample_position[s][1] / 16.0 };
    int inside = 1;
    for (int k = 0; k < 3; k++) {
        double d = edge_distance(v[k], v[(k + 1) % 3], p);
        if (fabs(d) < 0.125)
            return -1;
        if (d < 0)
            inside = 0;
    }
    return inside;
}

/* the rounded per-channel average the decimation makes (vc4_3d.h: (sum + 2) / 4) */
static uint32_t resolve(unsigned covered, uint32_t inside, uint32_t outside)
{
    uint32_t out = 0;
    for (unsigned ch = 0; ch < 4; ch++) {
        uint32_t sum = covered * (inside >> 8 * ch & 0xff) +
                       (4 - covered) * (outside >> 8 * ch & 0xff);
        out |= (sum + 2) / 4 << 8 * ch;
    }
    return out;
}

/* (a) the MSAA submit end to end: every sample of the full-resolution dump, and every pixel of
 * the resolved colour write, where the geometry decides */
static void test_msaa_triangle_coverage_and_resolve(void)
{
    size_t size;
    uint8_t *b = msaa_tri(&size, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    struct vc4_submit_rig rig;
    struct gt_error err;
    int rc = vc4_submit_rig_open_bytes(&rig, b, size, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(rig.job.tile_width, 32u);
    vc4_submit_rig_run(&rig, 200000);
    CU_ASSERT_FALSE(vc4_cle_busy(rig.cle));
    CU_ASSERT_EQUAL(rig.cle->thread[0].invalid + rig.cle->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(rig.cle->rfc_total, 1u);
    CU_ASSERT_EQUAL(rig.pipe->render.samples, 4u);
    CU_ASSERT_EQUAL(rig.pipe->render.tile_size, 32u);
    CU_ASSERT_EQUAL(rig.pipe->stats.multisample_ignored, 0u);
    CU_ASSERT_EQUAL(rig.pipe->stats.tiles_rendered, 4u);
    const uint32_t clear = rig.dump.submit[0].f.clear_color[0];
    const uint32_t full = rig.job.bo_address[3] + MSAA_OFFSET;
    CU_ASSERT_EQUAL_FATAL(rig.pipe->render.surface_count, 1u);
    unsigned checked = 0, partial = 0, samples_checked = 0;
    /* draw 2 covers X + Y >= 67.2 px (its edge x + y = 0.1 in NDC): stay below 60 */
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32 && x + y < 60; x++) {
            unsigned covered = 0;
            bool decided = true;
            for (unsigned s = 0; s < 4; s++) {
                int in = sample_inside(x, y, s);
                if (in < 0) {
                    decided = false;
                    continue;
                }
                covered += (unsigned)in;
                /* tile (0, 0) is the first 16 KiB; entry 4 (32 y + x) + s (vc4_tile_entry) */
                uint8_t w[4];
                gpu_memory_read(rig.mem, full + 4 * (4 * (32u * y + x) + s), w, 4, NULL);
                CU_ASSERT_EQUAL(rd32(w), in ? YELLOW : clear);
                samples_checked++;
            }
            if (!decided)
                continue;
            CU_ASSERT_EQUAL(vc4_submit_rig_pixel(&rig, 0, x, y), resolve(covered, YELLOW, clear));
            if (vc4_submit_rig_pixel(&rig, 0, x, y) != resolve(covered, YELLOW, clear))
                fprintf(stderr, "pixel (%d, %d): %08x, want %u of 4 samples\n", x, y,
                        vc4_submit_rig_pixel(&rig, 0, x, y), covered);
            checked++;
            partial += covered > 0 && covered < 4;
        }
    /* the edges cross enough pixels for the test to mean something */
    CU_ASSERT_TRUE(partial >= 8);
    CU_ASSERT_TRUE(checked >= 900);
    CU_ASSERT_TRUE(samples_checked >= 3600);
    /* one fragment shader run a pixel, not a sample: the two draws cover 25.6^2 / 2 = 328 and
     * 54.4^2 / 2 = 1480 px (NDC (-0.8, 0.9), (0.9, -0.8), (0.9, 0.9)) plus their edge pixels,
     * where shading per sample would make four times as many */
    CU_ASSERT_TRUE(rig.pipe->stats.fragments_shaded < 2 * (328 + 1480));
    CU_ASSERT_TRUE(rig.pipe->stats.fragments_shaded > 328 + 1480);
    vc4_submit_rig_close(&rig);
}

/* without the oversample bit the pixel centre decides for all four samples: no pixel of the
 * resolved image is between the two colours */
static void test_msaa_without_oversample_is_per_pixel(void)
{
    size_t size;
    uint8_t *b = msaa_tri(&size, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    b[BCL + 0x1d] &= (uint8_t)~0xc0;
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open_bytes(&rig, b, size, &err), 0);
    vc4_submit_rig_run(&rig, 200000);
    CU_ASSERT_EQUAL_FATAL(rig.pipe->render.surface_count, 1u);
    const uint32_t clear = rig.dump.submit[0].f.clear_color[0];
    unsigned yellow = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32 && x + y < 60; x++) {
            uint32_t v = vc4_submit_rig_pixel(&rig, 0, x, y);
            CU_ASSERT_TRUE(v == YELLOW || v == clear);
            yellow += v == YELLOW;
        }
    CU_ASSERT_TRUE(yellow > 250);
    vc4_submit_rig_close(&rig);
}

/* ---- tile buffer: full-resolution round trip, decimated and sample-0 stores ---------------- */

static void record113(uint8_t *r, uint32_t address, uint16_t width, uint16_t height,
                      uint16_t bits)
{
    r[0] = 113;
    wr32(r + 1, address);
    r[5] = (uint8_t)width;
    r[6] = (uint8_t)(width >> 8);
    r[7] = (uint8_t)height;
    r[8] = (uint8_t)(height >> 8);
    r[9] = (uint8_t)bits;
    r[10] = (uint8_t)(bits >> 8);
}

/* (b) 4x MS tile (1, 0) of a 64 x 32 frame: every sample set to its own value, dumped with 26,
 * the tile buffer cleared, loaded back with 27 (at the next 115), dumped again: the same 16 KiB;
 * then a general store (28) with decimate x4 writes each pixel's rounded average and one with
 * mode 0 sample 0, raster rgba8888 */
static void test_full_resolution_round_trip(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct vc4_3d *p = calloc(1, sizeof *p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    vc4_3d_init(p, 0x3fffffff);
    uint8_t r[16];
    record113(r, 0, 64, 32, 0x0001);           /* MS 4x, no frame write */
    vc4_render_record(p, mem, r);
    CU_ASSERT_EQUAL(p->render.tile_size, 32u);
    const uint8_t tile[3] = { 115, 1, 0 };
    vc4_render_record(p, mem, tile);
    /* sample s of tile pixel (x, y): r = x, g = y, b = 64 s, a = 0xff */
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++)
            for (unsigned s = 0; s < 4; s++)
                p->render.colour[vc4_tile_entry(&p->render, 32 + x, y, s)] =
                    x | y << 8 | (64u * s) << 16 | 0xffu << 24;
    const uint32_t A = 0x100000, B = 0x200000, RASTER = 0x300000, SAMPLE0 = 0x400000;
    uint8_t store[5] = { 26 };
    wr32(store + 1, A | 2);                    /* colour only (disable Z/S) */
    vc4_render_record(p, mem, store);
    CU_ASSERT_EQUAL(p->render.colour[0], 0u);  /* cleared after the store (bit 2 clear) */
    uint8_t load[5] = { 27 };
    wr32(load + 1, A | 2);
    vc4_render_record(p, mem, load);
    vc4_render_record(p, mem, tile);           /* the load runs at the tile coordinates */
    wr32(store + 1, B | 2 | 4);                /* again, without the clear */
    vc4_render_record(p, mem, store);
    uint8_t *a = malloc(16384), *bb = malloc(16384);
    gpu_memory_read(mem, A, a, 16384, NULL);
    gpu_memory_read(mem, B, bb, 16384, NULL);
    CU_ASSERT_EQUAL(memcmp(a, bb, 16384), 0);
    /* the dump holds every sample once: 4 x 32 x 32 distinct words */
    CU_ASSERT_EQUAL(rd32(a + 4 * (4 * (32 * 5 + 7) + 3)), 7u | 5u << 8 | 192u << 16 | 0xffu << 24);
    free(a);
    free(bb);
    /* 28: buffer colour, raster, rgba8888, mode decimate x4 (1 << 6), colour clear disabled */
    uint8_t general[7] = { 28, 0x01 | 1 << 6, 0x20 };
    wr32(general + 3, RASTER);
    vc4_render_record(p, mem, general);
    general[1] = 0x01;                         /* mode 0: sample 0 */
    wr32(general + 3, SAMPLE0);
    vc4_render_record(p, mem, general);
    for (uint32_t y = 0; y < 32; y += 3)
        for (uint32_t x = 0; x < 32; x += 5) {
            uint8_t w[4];
            /* blue: (0 + 64 + 128 + 192 + 2) / 4 = 96 */
            gpu_memory_read(mem, RASTER + 4 * (64 * y + 32 + x), w, 4, NULL);
            CU_ASSERT_EQUAL(rd32(w), x | y << 8 | 96u << 16 | 0xffu << 24);
            gpu_memory_read(mem, SAMPLE0 + 4 * (64 * y + 32 + x), w, 4, NULL);
            CU_ASSERT_EQUAL(rd32(w), x | y << 8 | 0xffu << 24);
        }
    CU_ASSERT_EQUAL(p->stats.multisample_ignored, 0u);
    /* a general load fills all four samples of a pixel */
    uint8_t general_load[7] = { 29, 0x01, 0 };
    wr32(general_load + 3, RASTER);
    vc4_render_record(p, mem, general_load);
    vc4_render_record(p, mem, tile);
    for (unsigned s = 0; s < 4; s++)
        CU_ASSERT_EQUAL(p->render.colour[vc4_tile_entry(&p->render, 32 + 9, 4, s)],
                        9u | 4u << 8 | 96u << 16 | 0xffu << 24);
    /* decimate x16 is not modelled: counted */
    general[1] = 0x01 | 2 << 6;
    vc4_render_record(p, mem, general);
    CU_ASSERT_EQUAL(p->stats.multisample_ignored, 1u);
    vc4_3d_release(p);
    free(p);
    gpu_memory_destroy(mem);
}

/* ---- the fragment side: per-sample Z, MS_FLAGS, TLB_COLOUR_MS order ----------------------- */

static void test_per_sample_depth_and_colour_writes(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct vc4_3d *p = calloc(1, sizeof *p);
    struct vc4_fragment_batch *batch = calloc(1, sizeof *batch);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(batch);
    vc4_3d_init(p, 0x3fffffff);
    uint8_t r[16];
    record113(r, 0, 32, 32, 0x0001);
    vc4_render_record(p, mem, r);
    const uint8_t tile[3] = { 115, 0, 0 };
    vc4_render_record(p, mem, tile);
    /* pixel (3, 2): stored Z per sample 100, 300, 100, 300; the rasterizer covered samples
     * 0, 1, 2 (not 3) */
    for (unsigned s = 0; s < 4; s++)
        p->render.depth[vc4_tile_entry(&p->render, 3, 2, s)] = s & 1 ? 300 : 100;
    batch->lanes = 1;
    batch->x[0] = 3;
    batch->y[0] = 2;
    batch->coverage[0] = 0x7;
    struct vc4_fragment_thread f;
    /* Configuration Bits: depth function 1 "lt" (3@12), Z updates (1@15) */
    vc4_fragment_begin(&f, batch, 1u << 12 | 1u << 15);
    uint32_t value[16] = { 200 }, c[16];
    CU_ASSERT_TRUE(vc4_fragment_write(p, &f, 44, value, 1));        /* TLB_Z */
    /* Z 200 < 300 passes at sample 1 only (sample 3 was not covered) */
    CU_ASSERT_TRUE(vc4_fragment_read(p, &f, 42, false, value, c));  /* MS_FLAGS */
    CU_ASSERT_EQUAL(value[0], 0x2u);
    CU_ASSERT_EQUAL(p->stats.depth_failed, 2u);
    CU_ASSERT_EQUAL(p->render.depth[vc4_tile_entry(&p->render, 3, 2, 1)], 200u);
    CU_ASSERT_EQUAL(p->render.depth[vc4_tile_entry(&p->render, 3, 2, 3)], 300u);
    /* TLB_COLOUR_ALL: the live samples only */
    value[0] = 0x11111111u;
    CU_ASSERT_TRUE(vc4_fragment_write(p, &f, 46, value, 1));
    static const uint32_t after_all[4] = { 0, 0x11111111u, 0, 0 };
    for (unsigned s = 0; s < 4; s++)
        CU_ASSERT_EQUAL(p->render.colour[vc4_tile_entry(&p->render, 3, 2, s)], after_all[s]);
    /* a new thread on the same pixel, all samples covered and Z always: Colour Loads and
     * TLB_COLOUR_MS writes take samples 0, 1, 2, 3 in turn */
    batch->coverage[0] = 0xf;
    vc4_fragment_begin(&f, batch, 7u << 12);
    for (unsigned s = 0; s < 4; s++) {
        vc4_fragment_colour_load(p, &f, value);
        CU_ASSERT_EQUAL(value[0], after_all[s]);
        value[0] = 0xa0 + s;
        CU_ASSERT_TRUE(vc4_fragment_write(p, &f, 45, value, 1));   /* TLB_COLOUR_MS */
    }
    for (unsigned s = 0; s < 4; s++)
        CU_ASSERT_EQUAL(p->render.colour[vc4_tile_entry(&p->render, 3, 2, s)], 0xa0 + s);
    vc4_3d_release(p);
    free(batch);
    free(p);
    gpu_memory_destroy(mem);
}

/* ---- (c) the kernel's checks on MSAA render set-ups (vc4-submit.md §8.3, MSAA summary) ---- */

static int prepare(uint8_t *bytes, size_t size, struct vc4_job *job, char *message, size_t cap)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    struct vc4_dump d;
    struct gt_error err;
    message[0] = 0;
    if (vc4_dump_parse(copy, size, "msaa", &d, &err) < 0) {
        free(copy);
        snprintf(message, cap, "%s", err.message);
        return -1;
    }
    struct vc4_placement pl = { 0 };
    int rc = vc4_submit_prepare(&d, 0, &pl, job, &err);
    if (rc)
        snprintf(message, cap, "%s", err.message);
    vc4_placement_free(&pl);
    vc4_dump_free(&d);
    return rc;
}

static void expect(uint8_t *b, size_t size, const char *needle)
{
    char msg[512];
    struct vc4_job job;
    int rc = prepare(b, size, &job, msg, sizeof msg);
    if (!needle) {
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "refused: %s\n", msg);
        else
            vc4_job_free(&job);
        return;
    }
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, needle));
    if (rc == 0)
        vc4_job_free(&job);
    else if (!strstr(msg, needle))
        fprintf(stderr, "message was: %s\n", msg);
}

static void test_kernel_checks_msaa_setups(void)
{
    size_t size;
    uint8_t *b = msaa_tri(&size, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    uint8_t *m = malloc(size);
    uint8_t *sub = m + SUBM;
    /* accepted: MS 4x colour write with a full-resolution MSAA colour dump; the render list
     * per tile is 115, [8], 17, 26 (full-res address | disable Z/S | disable clear, a colour
     * write follows), 115, 24 or 25 (§8.2 c-f, i); full-res address = base + 16 KiB x
     * (ceil(64 / 32) y + x) */
    memcpy(m, b, size);
    char msg[512];
    struct vc4_job job;
    CU_ASSERT_EQUAL_FATAL(prepare(m, size, &job, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(job.tile_width, 32u);
    const uint32_t full = job.bo_address[3] + MSAA_OFFSET;
    uint8_t want[64];
    size_t w = 0;
    static const uint8_t order[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
    size_t at = 11 + 24;           /* after 113 and the clear prologue (§8.1) */
    for (int t = 0; t < 4; t++) {
        uint8_t x = order[t][0], y = order[t][1];
        w = 0;
        want[w++] = 115; want[w++] = x; want[w++] = y;
        if (t == 0)
            want[w++] = 8;
        want[w++] = 17;
        wr32(want + w, job.tile_alloc_address + 32u * (y * 2u + x));
        w += 4;
        want[w++] = 26;
        wr32(want + w, (full + 16384u * (2u * y + x)) | 2u | 4u);
        w += 4;
        want[w++] = 115; want[w++] = x; want[w++] = y;
        want[w++] = t == 3 ? 25 : 24;
        CU_ASSERT_EQUAL(memcmp(job.rcl + at, want, w), 0);
        at += w;
    }
    CU_ASSERT_EQUAL(job.rcl_size, at);
    CU_ASSERT_EQUAL(job.rcl[0], 113);
    CU_ASSERT_EQUAL(job.rcl[9] | job.rcl[10] << 8, 0x55);   /* 113 carries the bits */
    vc4_job_free(&job);
    /* the kernel does not cross-check the bin config's MS bit with the render set-up */
    memcpy(m, b, size);
    m[BCL + 15] &= (uint8_t)~1;
    expect(m, size, NULL);
    /* 64-bit colour (bit 1) is not among the bits user space may set (0x00dd) */
    memcpy(m, b, size);
    sub[80] |= 0x02;
    expect(m, size, "only 0x00dd");
    /* a full-resolution surface takes no bits and no flags */
    memcpy(m, b, size);
    sub[116] = 0x01;
    expect(m, size, "bits must be 0");
    memcpy(m, b, size);
    sub[118] = 0x01;
    expect(m, size, "flags");
    /* it must hold tiles up to (1, 1): 16 KiB x (2 x 1 + 1) after the offset; BO 5 has 16 KiB */
    memcpy(m, b, size);
    wr32(sub + 108, 5);
    wr32(sub + 112, 0);
    expect(m, size, "do not fit");
    /* ... which one tile (0, 0) needs: accepted (frame 32 x 32, colour write 4 KiB) */
    sub[58] = sub[59] = 0;
    sub[52] = sub[54] = 32;
    expect(m, size, NULL);
    /* offsets 16-byte aligned */
    memcpy(m, b, size);
    wr32(sub + 112, MSAA_OFFSET + 8);
    expect(m, size, "16-byte aligned");
    /* an MSAA Z/S dump alone is a written surface: accepted, its 26 the frame's last store
     * with EOF (bit 3) on the last tile and colour disabled (bit 0) */
    memcpy(m, b, size);
    wr32(sub + 72, 0xffffffffu);   /* no color_write, no msaa_color_write */
    wr32(sub + 108, 0xffffffffu);
    wr32(sub + 120, 3);
    wr32(sub + 124, MSAA_OFFSET);
    CU_ASSERT_EQUAL_FATAL(prepare(m, size, &job, msg, sizeof msg), 0);
    /* no color_write: 64 px tiles (the MS bit is in color_write's bits), one tile (0,0) of
     * the 2 x 2 range at 16 KiB x (1 x y + x) */
    CU_ASSERT_EQUAL(job.tile_width, 64u);
    CU_ASSERT_EQUAL(job.rcl[job.rcl_size - 5], 26);
    CU_ASSERT_EQUAL(rd32(job.rcl + job.rcl_size - 4),
                    (job.bo_address[3] + MSAA_OFFSET + 16384u * (1u * 1 + 1)) | 1u | 8u);
    vc4_job_free(&job);
    /* and with nothing written at all the submit is refused */
    wr32(sub + 120, 0xffffffffu);
    expect(m, size, "no surface is written");
    free(m);
    free(b);
}

static const struct test_case cases[] = {
    { "msaa_triangle_coverage_and_resolve", test_msaa_triangle_coverage_and_resolve },
    { "msaa_without_oversample_is_per_pixel", test_msaa_without_oversample_is_per_pixel },
    { "full_resolution_round_trip", test_full_resolution_round_trip },
    { "per_sample_depth_and_colour_writes", test_per_sample_depth_and_colour_writes },
    { "kernel_checks_msaa_setups", test_kernel_checks_msaa_setups },
    { NULL, NULL },
};
TEST_SUITE(vc4_msaa, cases);
