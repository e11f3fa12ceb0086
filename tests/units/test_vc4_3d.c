/* tests/units/test_vc4_3d.c - the VideoCore IV 3D pipeline behind the CLE (units/vc4_v3d/
 * vc4_3d.h): vc4_tri's lists run through the PTB and the renderer; the tile list is walked with
 * the record lengths of seed 002 Table 38 and the codes of Table 39; the render target's pixels
 * are checked against the submit's clear colour and the draw's constant colour (vc4-submit.md
 * §10.2: BO 3 holds the colour (1, 1, 0, 1)); T/LT/raster addressing against offsets worked out
 * by hand from Sec 11 and notes §4.7; malformed input is counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "tests/test.h"
#include "units/vc4_host/vc4_submit.h"
#include "units/vc4_v3d/vc4_3d.h"
#include "units/vc4_v3d/vc4_cle.h"
#include "tests/support/vc4_submit_rig.h"

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void test_tri_through_the_pipeline(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_job *job = &rig.job;
    const struct vc4_dump_submit *submit = &rig.dump.submit[0];
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    unsigned cycles = vc4_submit_rig_run(&rig, 100000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_EQUAL(c->thread[0].invalid + c->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(p->stats.primitives_binned, 2u);
    CU_ASSERT_EQUAL(p->stats.primitives_rendered, 2u);
    /* every shader ran to its end: the programs are 13 (FS), 25 (VS) and 23 (CS) instructions
     * long (vc4-submit.md §10.2), once per batch */
    CU_ASSERT_EQUAL(p->stats.coordinate_shader_runs, 2u);
    CU_ASSERT_EQUAL(p->stats.coordinate_instructions, 2 * 23u);
    CU_ASSERT_EQUAL(p->stats.vertex_instructions, 25 * p->stats.vertex_shader_runs);
    CU_ASSERT_EQUAL(p->stats.fragment_instructions, 13 * p->stats.fragment_shader_runs);
    /* timing: the rendering thread was held for its work; the tile holds the store's 64 x 64
     * pixels at 4 a clock and each fragment batch's 13 x 4 clocks over 12 QPUs (5) */
    CU_ASSERT_EQUAL(p->stats.held_cycles[1], p->stats.render_work_cycles);
    CU_ASSERT_TRUE(p->stats.tile_cycles_max >= 1024 + 5 * p->stats.fragment_shader_runs);
    CU_ASSERT_TRUE(cycles > p->stats.render_work_cycles);

    /* the tile list: walk it with Table 38's lengths; the two GL Shader State dwords are the
     * validated BCL's (offsets 0x4b and 0x5a, §10.1) and each draw is triangle (0, 1, 2) */
    uint8_t bcl[0x60];
    gpu_memory_read(mem, job->ct0ca, bcl, sizeof bcl, NULL);
    uint32_t state[2] = { rd32(bcl + 0x4c), rd32(bcl + 0x5b) };
    uint32_t at = job->tile_alloc_address, states = 0, triangles = 0, branches = 0;
    bool returned = false;
    for (unsigned guard = 0; guard < 200 && !returned; guard++) {
        uint8_t b[16] = { 0 };
        gpu_memory_read(mem, at, b, sizeof b, NULL);
        switch (b[0]) {
        case 96: at += 4; break;
        case 97: case 98: case 99: case 101: case 103: at += 5; break;
        case 102: at += 9; break;
        case 56:
            CU_ASSERT_EQUAL(b[1], 0x12);          /* 16-bit indices, triangles */
            at += 2;
            break;
        case 64:
            CU_ASSERT_TRUE_FATAL(states < 2);
            CU_ASSERT_EQUAL(rd32(b + 1), state[states]);
            states++;
            at += 5;
            break;
        case 16:
            branches++;
            CU_ASSERT_TRUE(rd32(b + 1) >= job->tile_alloc_address + 256);   /* the pool */
            at = rd32(b + 1);
            break;
        case 48:
            at++;
            for (;;) {
                uint8_t code[7];
                gpu_memory_read(mem, at, code, 7, NULL);
                if (code[0] == 128) {
                    at++;
                    break;
                }
                CU_ASSERT_EQUAL_FATAL(code[0], 129);
                CU_ASSERT_EQUAL(code[1] | code[2] << 8, 0);
                CU_ASSERT_EQUAL(code[3] | code[4] << 8, 1);
                CU_ASSERT_EQUAL(code[5] | code[6] << 8, 2);
                triangles++;
                at += 7;
            }
            break;
        case 18:
            returned = true;
            break;
        default:
            CU_FAIL("unexpected record in the tile list");
            returned = true;
            break;
        }
    }
    CU_ASSERT_TRUE(returned);
    CU_ASSERT_EQUAL(states, 2u);
    CU_ASSERT_EQUAL(triangles, 2u);
    CU_ASSERT_TRUE(branches >= 1);              /* the state does not fit 32 bytes */

    /* the render target: the clear colour outside, the constant colour (1, 1, 0, 1) of the
     * first draw inside it: NDC (-0.5, -0.6) is pixel (16, 12) of the 64 x 64 frame */
    CU_ASSERT_EQUAL_FATAL(p->render.surface_count, 1u);
    const struct vc4_written_surface *s = &p->render.surfaces[0];
    uint8_t px[4];
    gpu_memory_read(mem, s->address + vc4_surface_offset(1, 4, 64, 16, 12), px, 4, NULL);
    CU_ASSERT_EQUAL(rd32(px), 0xff00ffffu);
    gpu_memory_read(mem, s->address + vc4_surface_offset(1, 4, 64, 1, 62), px, 4, NULL);
    CU_ASSERT_EQUAL(rd32(px), submit->f.clear_color[0]);
    vc4_submit_rig_close(&rig);
}

/* "tile allocation too small": vc4_tri with its Tile Allocation Memory Size cut to the 256
 * bytes of initial blocks: the state does not fit a 32-byte block and no 128-byte block is
 * left, so the PTB counts the loss (the hardware would raise OUTOMEM), still caps the list,
 * and the frame completes with the clear colour only */
static void test_tile_allocation_too_small(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_job *job = &rig.job;
    const struct vc4_dump_submit *submit = &rig.dump.submit[0];
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    static const uint8_t size[4] = { 0, 1, 0, 0 };           /* 256, little-endian */
    gpu_memory_write(mem, job->ct0ca + 5, size, 4, NULL);     /* 112: 32@32 size */
    vc4_submit_rig_run(&rig, 100000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_TRUE(p->stats.bin_out_of_memory > 0);
    CU_ASSERT_EQUAL(p->stats.tile_list_blocks, 0u);
    CU_ASSERT_EQUAL(p->stats.primitives_rendered, 0u);
    CU_ASSERT_EQUAL(c->rfc_total, 1u);
    CU_ASSERT_EQUAL(c->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL_FATAL(p->render.surface_count, 1u);
    uint8_t px[4];
    gpu_memory_read(mem, p->render.surfaces[0].address + vc4_surface_offset(1, 4, 64, 16, 12),
                    px, 4, NULL);
    CU_ASSERT_EQUAL(rd32(px), submit->f.clear_color[0]);
    vc4_submit_rig_close(&rig);
}

/* The same tiny tile allocation with overspill memory given in BPOA/BPOS, as the kernel gives
 * it when OUTOMEM fires (notes 002 §4.6: "Once the PTB has taken this overspill memory this
 * register is set to 0"; vc4-submit.md §7): the initial block branches (16) into the overspill,
 * nothing is lost, BPOS reads 0 afterwards and the triangle is drawn in its constant colour */
static void test_tile_allocation_overspill(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_job *job = &rig.job;
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    static const uint8_t size[4] = { 0, 1, 0, 0 };           /* 256, little-endian */
    gpu_memory_write(mem, job->ct0ca + 5, size, 4, NULL);     /* 112: 32@32 size */
    const uint32_t overspill = 0x08000000u;                  /* free memory far from the BOs */
    p->bpoa = overspill | 0xc0000000u;                      /* an uncached alias, masked off */
    p->bpos = 4096;
    vc4_submit_rig_run(&rig, 100000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_EQUAL(p->stats.bin_out_of_memory, 0u);
    CU_ASSERT_FALSE(p->bmoom);
    CU_ASSERT_EQUAL(p->stats.overspill_taken, 1u);
    CU_ASSERT_EQUAL(p->bpos, 0u);
    CU_ASSERT_TRUE(p->stats.tile_list_blocks >= 1);
    CU_ASSERT_EQUAL(p->stats.primitives_rendered, 2u);
    /* the tile's 32-byte initial block ends in Branch (16) to the overspill's first block */
    uint8_t block[32];
    gpu_memory_read(mem, job->tile_alloc_address, block, sizeof block, NULL);
    bool branches = false;
    for (unsigned i = 0; i + 5 <= sizeof block; i++)
        if (block[i] == 16 && rd32(block + i + 1) == overspill)
            branches = true;
    CU_ASSERT_TRUE(branches);
    CU_ASSERT_EQUAL_FATAL(p->render.surface_count, 1u);
    uint8_t px[4];
    gpu_memory_read(mem, p->render.surfaces[0].address + vc4_surface_offset(1, 4, 64, 16, 12),
                    px, 4, NULL);
    CU_ASSERT_EQUAL(rd32(px), 0xff00ffffu);
    vc4_submit_rig_close(&rig);
}

/* Sec 11: 64-byte micro-tiles (4 x 4 at 32 bpp), 1 KB sub-tiles, 4 KB tiles; tile row 0 runs
 * left to right with sub-tiles BL, TL, TR, BR; row 1 right to left with TR, BR, BL, TL */
static void test_surface_addressing(void)
{
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 0, 0), 0u);
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 1, 0), 4u);
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 0, 1), 16u);
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 4, 0), 64u);      /* next micro-tile */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 0, 4), 256u);     /* next micro-tile row */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 0, 16), 1024u);   /* TL second */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 16, 16), 2048u);  /* TR third */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 16, 0), 3072u);   /* BR fourth */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 32, 0), 4096u);   /* second tile of row 0 */
    /* row 1 runs right to left: its first tile is the right one (x 32..63), sub-tile TR */
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 48, 48), 2 * 4096u);
    CU_ASSERT_EQUAL(vc4_surface_offset(1, 4, 64, 0, 32), 3 * 4096u + 2 * 1024u);
    /* LT: micro-tiles in raster order; raster: rows of width x 4 bytes */
    CU_ASSERT_EQUAL(vc4_surface_offset(2, 4, 64, 4, 0), 64u);
    CU_ASSERT_EQUAL(vc4_surface_offset(2, 4, 64, 0, 4), 16 * 64u);
    CU_ASSERT_EQUAL(vc4_surface_offset(0, 4, 64, 3, 2), (2 * 64 + 3) * 4u);
    /* 16 bpp: 8 x 4 micro-tiles */
    CU_ASSERT_EQUAL(vc4_surface_offset(2, 2, 64, 8, 0), 64u);
}


/* ---- near-plane clipping (vc4_ptb.c: the PTB clips, record 49 carries the clipped vertices,
 * Table 44 @173368; the algorithm is chosen, the seed gives none) ---------------------------- */

static float lerp(float a, float b, float t)
{
    return a + t * (b - a);
}

static bool near(float a, float b)
{
    return a - b < 1e-5f && b - a < 1e-5f;
}

/* the polygon against Zc >= -Wc: intersections at t = d_a / (d_a - d_b) with d = z + w,
 * worked out here for one vertex and for two vertices behind the plane */
static void test_clip_triangle(void)
{
    const float one_out[3][4] = { { -0.9f, -0.9f, 0, 1 }, { -0.1f, -0.9f, 0, 1 },
                                  { -0.5f, -0.1f, -3, 1 } };
    float out[8][4], weight[8][3];
    CU_ASSERT_EQUAL_FATAL(vc4_clip_triangle(one_out, out, weight), 4u);
    /* v0, v1, then v1->v2 at t = 1 / (1 + 2), then v2->v0 at t = -2 / (-2 - 1) */
    float t12 = 1.0f / 3.0f, t20 = 2.0f / 3.0f;
    const float expect[4][4] = {
        { -0.9f, -0.9f, 0, 1 }, { -0.1f, -0.9f, 0, 1 },
        { lerp(-0.1f, -0.5f, t12), lerp(-0.9f, -0.1f, t12), lerp(0, -3, t12), 1 },
        { lerp(-0.5f, -0.9f, t20), lerp(-0.1f, -0.9f, t20), lerp(-3, 0, t20), 1 } };
    const float expect_weight[4][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 1 - t12, t12 },
                                        { t20, 0, 1 - t20 } };
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT_TRUE(near(out[k][c], expect[k][c]));
        for (unsigned c = 0; c < 3; c++)
            CU_ASSERT_TRUE(near(weight[k][c], expect_weight[k][c]));
        CU_ASSERT_TRUE(out[k][2] >= -out[k][3] - 1e-6f);   /* inside the near plane */
    }
    /* two behind, one of them at w < 0: v0, then v0->v1 and v2->v0 */
    const float two_out[3][4] = { { 0, 0, 0, 1 }, { 1, 0, -2, -1 }, { 0, 1, -5, 2 } };
    CU_ASSERT_EQUAL_FATAL(vc4_clip_triangle(two_out, out, weight), 3u);
    float d0 = 1, d1 = -3, d2 = -3;
    float a = d0 / (d0 - d1), b = d2 / (d2 - d0);
    CU_ASSERT_TRUE(near(out[1][0], lerp(0, 1, a)) && near(out[1][3], lerp(1, -1, a)));
    CU_ASSERT_TRUE(near(out[2][1], lerp(1, 0, b)) && near(out[2][3], lerp(2, 1, b)));
    CU_ASSERT_TRUE(near(weight[1][1], a) && near(weight[2][2], 1 - b));
    /* wholly behind: nothing */
    const float all_out[3][4] = { { 0, 0, -2, 1 }, { 1, 0, -2, 1 }, { 0, 1, -2, 1 } };
    CU_ASSERT_EQUAL(vc4_clip_triangle(all_out, out, weight), 0u);
}

/* vc4_tri with the first draw's third vertex moved behind the near plane (z = -3, w = 1): the
 * PTB clips it into a fan of two 49 records and only the part below the clipped edge is drawn,
 * in the draw's constant colour (the varyings weighted back from the original vertices) */
static void test_clipped_triangle_renders(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_dump_submit *submit = &rig.dump.submit[0];
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    /* BO 3 + 0x10 holds the positions (vc4-submit.md §10.2): find (-0.5, -0.1, z, w) */
    const float third[2] = { -0.5f, -0.1f };
    uint32_t position = vc4_submit_rig_find(&rig, third, 8);
    CU_ASSERT_TRUE_FATAL(position != 0);
    const float zw[2] = { -3.0f, 1.0f };
    gpu_memory_write(mem, position + 8, zw, 8, NULL);
    vc4_submit_rig_run(&rig, 100000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_EQUAL(c->thread[0].invalid + c->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(p->stats.primitives_clipped, 1u);
    CU_ASSERT_EQUAL(p->stats.primitives_unclipped, 0u);
    CU_ASSERT_EQUAL(p->stats.primitives_binned, 2u);
    CU_ASSERT_EQUAL(p->stats.primitives_rendered, 3u);     /* two fan triangles + draw 2 */
    CU_ASSERT_EQUAL(c->thread[1].by_id[49], 2u);
    /* the clipped edge runs at NDC y = -0.9 + 0.8 / 3 (both intersections): rows with their
     * centre below it are drawn at x = 16 (NDC -0.48), rows above it keep the clear colour;
     * pixel y = 32 + 32 * NDC y (viewport 64 x 64, Clipper XY scale 512 / 16 px) */
    float edge = 32.0f + 32.0f * (-0.9f + 0.8f / 3.0f);
    CU_ASSERT_EQUAL_FATAL(p->render.surface_count, 1u);
    const struct vc4_written_surface *s = &p->render.surfaces[0];
    for (uint32_t y = 4; y < 20; y++) {
        if (y + 0.5f > edge - 0.5f && y + 0.5f < edge + 0.5f)
            continue;                  /* the edge's own row: the tie rule decides */
        uint8_t px[4];
        gpu_memory_read(mem, s->address + vc4_surface_offset(1, 4, 64, 16, y), px, 4, NULL);
        CU_ASSERT_EQUAL(rd32(px), y + 0.5f < edge ? 0xff00ffffu : submit->f.clear_color[0]);
    }
    vc4_submit_rig_close(&rig);
}

/* ---- guard band and lines (vc4_ptb.c: the 12.4 XS/YS range, +-32767 / 16 px; chosen) ---- */

/* a triangle reaching past x = 10 W (guard[0] = 10): cut at x = 10 on both edges through the
 * far vertex, intersections at t = d_a / (d_a - d_b) with d = 10 W - X, worked out here */
static void test_clip_guard_band_polygon(void)
{
    const float tri[3][4] = { { 0, 0, 0, 1 }, { 0, 1, 0, 1 }, { 100, 0, 0, 1 } };
    const float guard[2] = { 10, 0 };
    float out[10][4], weight[10][3];
    CU_ASSERT_EQUAL_FATAL(vc4_clip_polygon(tri, guard, out, weight), 4u);
    /* v0, v1, v1->v2 at t = 10 / (10 + 90) = 0.1, v2->v0 at t = -90 / (-90 - 10) = 0.9 */
    const float expect[4][4] = { { 0, 0, 0, 1 }, { 0, 1, 0, 1 }, { 10, 0.9f, 0, 1 },
                                 { 10, 0, 0, 1 } };
    const float expect_weight[4][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0.9f, 0.1f },
                                        { 0.9f, 0, 0.1f } };
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT_TRUE(near(out[k][c], expect[k][c]));
        for (unsigned c = 0; c < 3; c++)
            CU_ASSERT_TRUE(near(weight[k][c], expect_weight[k][c]));
    }
    /* without the guard band the triangle is whole */
    const float none[2] = { 0, 0 };
    CU_ASSERT_EQUAL(vc4_clip_polygon(tri, none, out, weight), 3u);
}

/* segments against the near plane and the guard band: the parameters of the part inside */
static void test_clip_line(void)
{
    const float guard[2] = { 10, 10 };
    float t[2];
    /* z + w goes 1 -> -2: inside up to t = 1/3 */
    const float behind[2][4] = { { 0, 0, 0, 1 }, { 0, 0, -3, 1 } };
    CU_ASSERT_TRUE_FATAL(vc4_clip_line(behind, guard, t));
    CU_ASSERT_TRUE(near(t[0], 0) && near(t[1], 1.0f / 3.0f));
    /* 10 W - X goes 10 -> -90 at the far end, 10 W + X goes -90 -> 10 at the near end */
    const float across[2][4] = { { -100, 0, 0, 1 }, { 100, 0, 0, 1 } };
    CU_ASSERT_TRUE_FATAL(vc4_clip_line(across, guard, t));
    CU_ASSERT_TRUE(near(t[0], 0.45f) && near(t[1], 0.55f));
    /* wholly beyond one plane: nothing */
    const float beyond[2][4] = { { 0, 20, 0, 1 }, { 5, 30, 0, 1 } };
    CU_ASSERT_FALSE(vc4_clip_line(beyond, guard, t));
    /* wholly inside: untouched */
    const float inside[2][4] = { { 0, 0, 0, 1 }, { 1, 1, 0, 1 } };
    CU_ASSERT_TRUE(vc4_clip_line(inside, guard, t) && t[0] == 0 && t[1] == 1);
}

/* vc4_tri with the first draw's second vertex moved to x = 100 W (3200 px right of the centre
 * with the 512/16 px scale: past the 2048 px of 12.4, where the shader's 16-bit XS wraps): the
 * PTB clips the triangle at the guard band and what is drawn is the triangle's part left of
 * it; at pixel column 22 (centre NDC -0.297) the long edge from (-0.5, -0.1) to (100, -0.9) is
 * at NDC y = -0.1 - 0.8 (0.203 / 100.5) (row 28.75; pixel y = 32 + 32 NDC y), the bottom edge
 * at row 3.2, so rows 5..27 are drawn in the constant colour and rows 31..40 are not (draw 2
 * reaches column 22 only above row 44); a wrapped vertex would put the triangle 896 px left
 * instead, away from column 22 */
static void test_guard_band_triangle_renders(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_dump_submit *submit = &rig.dump.submit[0];
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    const float second[2] = { -0.1f, -0.9f };
    uint32_t position = vc4_submit_rig_find(&rig, second, 8);
    CU_ASSERT_TRUE_FATAL(position != 0);
    const float x = 100.0f;
    gpu_memory_write(mem, position, &x, 4, NULL);
    vc4_submit_rig_run(&rig, 100000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_EQUAL(c->thread[0].invalid + c->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(p->stats.primitives_clipped, 1u);
    CU_ASSERT_EQUAL(p->stats.primitives_binned, 2u);
    CU_ASSERT_TRUE(c->thread[1].by_id[49] >= 1u);
    CU_ASSERT_EQUAL_FATAL(p->render.surface_count, 1u);
    const struct vc4_written_surface *s = &p->render.surfaces[0];
    for (uint32_t y = 5; y <= 40; y++) {
        if (y > 27 && y < 31)
            continue;                  /* the edge's rows */
        uint8_t px[4];
        gpu_memory_read(mem, s->address + vc4_surface_offset(1, 4, 64, 22, y), px, 4, NULL);
        CU_ASSERT_EQUAL(rd32(px), y <= 27 ? 0xff00ffffu : submit->f.clear_color[0]);
    }
    vc4_submit_rig_close(&rig);
}

/* ---- a line and points through the whole submit path (loader, binning, tiles) ------------ */

/* vc4_tri with draw 1 (Vertex Array Primitives at BCL byte 0x50, mode at 0x51) turned into
 * GL_LINES (1) or GL_POINTS (0) and its positions (BO 3 + 0x10, vec4 each, vc4-submit.md
 * §10.2) replaced; pixel = 32 + 32 NDC (§10.1). Returns the rig run to its end. */
static bool run_patched_draw(struct vc4_submit_rig *rig, uint8_t mode, const float pos[3][4])
{
    size_t size;
    uint8_t *b = vc4_submit_rig_inflate(VC4_RIG_TRI, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    const size_t bcl = 16 + 8 + 180 + 8;
    CU_ASSERT_EQUAL_FATAL(b[bcl + 0x50], 33);
    b[bcl + 0x51] = mode;
    const float first[4] = { -0.9f, -0.9f }, second[2] = { -0.1f, -0.9f };
    size_t at = 0;
    for (size_t o = 0; !at && o + 48 <= size; o++)
        if (!memcmp(b + o, first, 8) && !memcmp(b + o + 16, second, 8))
            at = o;
    CU_ASSERT_TRUE_FATAL(at != 0);
    memcpy(b + at, pos, 48);
    struct gt_error err;
    if (vc4_submit_rig_open_bytes(rig, b, size, &err) < 0) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    vc4_submit_rig_run(rig, 200000);
    return !vc4_cle_busy(rig->cle) && rig->pipe->render.surface_count == 1;
}

/* A line from pixel (10.25, 20.25) to NDC (100, 0.5) = pixel (3232, 48): past the 12.4 guard
 * band (2048 px), so the PTB clips it (one 49 record) and the part drawn keeps its direction:
 * y = 20.25 + (x + 1/2 - 10.25) 27.75 / 3221.75 stays in row 20 for x = 10..63 (one pixel a
 * column, x-major, half-open span from the first centre at or after 10.25). A wrapped XS
 * (3232 x 16 = 51712 > 32767) would send it left of x = 10 instead. Points at the same first
 * vertex, at NDC x = 100 and behind the near plane: only the first is drawn (points are
 * rejected by their centre, vc4_ptb.c), as the one pixel (10, 20) of its 1 px square. */
static void test_clipped_line_and_points_end_to_end(void)
{
    const float px = (10.25f - 32) / 32, py = (20.25f - 32) / 32;   /* exact in binary */
    const float line[3][4] = { { px, py, 0, 1 }, { 100, 0.5f, 0, 1 }, { 0, 0, 0, 1 } };
    struct vc4_submit_rig rig;
    CU_ASSERT_TRUE_FATAL(run_patched_draw(&rig, 1, line));
    const uint32_t clear = rig.dump.submit[0].f.clear_color[0];
    CU_ASSERT_EQUAL(rig.cle->thread[0].invalid + rig.cle->thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(rig.pipe->stats.primitives_clipped, 1u);
    CU_ASSERT_TRUE(rig.cle->thread[1].by_id[49] >= 1u);
    unsigned drawn = 0;
    for (uint32_t y = 0; y < 40; y++)
        for (uint32_t x = 0; x < 64 && x + y < 60; x++) {
            bool want = y == 20 && x >= 10;
            uint32_t v = vc4_submit_rig_pixel(&rig, 0, x, y);
            CU_ASSERT_EQUAL(v != clear, want);
            if ((v != clear) != want)
                fprintf(stderr, "line pixel (%u, %u) %08x\n", x, y, v);
            drawn += v != clear;
        }
    CU_ASSERT_EQUAL(drawn, 60u - 20u - 10u);    /* x = 10..39 (x + y < 60 here) */
    vc4_submit_rig_close(&rig);

    const float points[3][4] = { { px, py, 0, 1 }, { 100, 0.5f, 0, 1 },
                                 { 0, 0, -3, 1 } };
    CU_ASSERT_TRUE_FATAL(run_patched_draw(&rig, 0, points));
    CU_ASSERT_EQUAL(rig.cle->thread[0].invalid + rig.cle->thread[1].invalid, 0u);
    for (uint32_t y = 0; y < 40; y++)
        for (uint32_t x = 0; x < 64 && x + y < 60; x++) {
            bool want = x == 10 && y == 20;
            uint32_t v = vc4_submit_rig_pixel(&rig, 0, x, y);
            CU_ASSERT_EQUAL(v != rig.dump.submit[0].f.clear_color[0], want);
        }
    vc4_submit_rig_close(&rig);
}

/* a GL Shader State record (64) pointing at memory nothing was written to (bad input the kernel
 * would have caught; the hardware reads what is there): the record reads as zeros, so the
 * shaders run from address 0, whose zero words never end the program: every such shader is
 * stopped by the watchdog and counted, and both lists still run to their ends. vc4-submit.md
 * §10.3: the validated BCL holds packet 64 at byte 0x4B. */
static void test_shader_record_pointing_nowhere(void)
{
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_job *job = &rig.job;
    struct vc4_3d *p = rig.pipe;
    struct vc4_cle *c = rig.cle;
    uint8_t record[5];
    gpu_memory_read(mem, job->ct0ca + 0x4b, record, 5, NULL);
    CU_ASSERT_EQUAL_FATAL(record[0], 64);
    uint32_t nowhere = 0x3f000000u | (rd32(record + 1) & 15);
    gpu_memory_write(mem, job->ct0ca + 0x4c, &nowhere, 4, NULL);
    vc4_submit_rig_run(&rig, 10000000);
    CU_ASSERT_FALSE(vc4_cle_busy(c));
    CU_ASSERT_TRUE(p->stats.shader_watchdogs >= 1u);
    CU_ASSERT_EQUAL(c->rfc_total, 1u);                 /* the frame still ended */
    vc4_submit_rig_close(&rig);
}

/* records the pipeline cannot use are counted, never a crash */
static void test_bad_input(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct vc4_3d *p = calloc(1, sizeof *p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    vc4_3d_init(p, 0x3fffffff);
    /* a draw before Tile Binning Mode Configuration and any shader state */
    static const uint8_t draw[10] = { 33, 4, 3, 0, 0, 0, 0, 0, 0, 0 };
    vc4_bin_record(p, mem, draw);
    CU_ASSERT_EQUAL(p->stats.bad_records, 1u);
    CU_ASSERT_EQUAL(p->stats.primitives_binned, 0u);
    /* a 112 with zero tiles is refused */
    static const uint8_t config[16] = { 112 };
    vc4_bin_record(p, mem, config);
    CU_ASSERT_EQUAL(p->stats.bad_records, 2u);
    /* a compressed list in an x/y format is not decoded: 0 bytes (the CLE stops with CTERR) */
    static const uint8_t format[2] = { 56, 0x32 };
    vc4_render_record(p, mem, format);
    CU_ASSERT_EQUAL(vc4_render_compressed(p, mem, 0x1000), 0u);
    CU_ASSERT_EQUAL(p->stats.unsupported, 1u);
    /* a primitive with no shader state or tile: dropped, counted */
    static const uint8_t indices[2] = { 56, 0x12 };
    vc4_render_record(p, mem, indices);
    static const uint8_t list[8] = { 129, 0, 0, 1, 0, 2, 0, 128 };
    gpu_memory_write(mem, 0x2000, list, sizeof list, NULL);
    CU_ASSERT_EQUAL(vc4_render_compressed(p, mem, 0x2000), 8u);
    CU_ASSERT_EQUAL(p->stats.bad_records, 3u);
    free(p);
    gpu_memory_destroy(mem);
}

static const struct test_case cases[] = {
    { "vc4_tri: tile list records, compressed triangles, rendered pixels",
      test_tri_through_the_pipeline },
    { "tile allocation too small: counted, lists capped, frame completes",
      test_tile_allocation_too_small },
    { "tile allocation too small with overspill memory (BPOA/BPOS): taken, BPOS set to 0, "
      "nothing lost", test_tile_allocation_overspill },
    { "T, LT and raster addressing", test_surface_addressing },
    { "near-plane clipping: polygon and weights against vertices worked out in the test",
      test_clip_triangle },
    { "vc4_tri with a vertex behind the near plane: clipped fan (49), drawn below the edge",
      test_clipped_triangle_renders },
    { "guard-band clipping: polygon and weights worked out in the test",
      test_clip_guard_band_polygon },
    { "line clipping against the near plane and the guard band", test_clip_line },
    { "vc4_tri with a vertex past the 12.4 guard band: clipped (49), drawn left of it",
      test_guard_band_triangle_renders },
    { "a line past the guard band and points outside the clip volume, end to end: the pixels "
      "worked out in the test", test_clipped_line_and_points_end_to_end },
    { "a shader state record pointing at unwritten memory: shaders stopped by the watchdog, "
      "counted, the frame ends", test_shader_record_pointing_nowhere },
    { "bad records are counted", test_bad_input },
    { 0 }
};
TEST_SUITE(vc4_3d, cases);
