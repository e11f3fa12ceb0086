/* tests/units/test_hiz.c - the hierarchical depth buffer (HiZ): the block
 * record and its place in the Y-tiled HiZ surface (units/common/
 * depth_stencil.h; seed 003 L15777-15801 gives the size, the record is the
 * model's), the whole-block reject rule against an exhaustive search, and
 * WM's WM_HZ_OP depth clear / depth resolve / HiZ resolve and HiZ rejection
 * (L15810-15924) checked against the same work done without HiZ: the depth
 * buffer after a resolve must hold the bytes the non-HiZ path wrote. */
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "spec_common.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/depth_stencil.h"
#include "units/common/memreq.h"

/* ---- the reject rule --------------------------------------------------------------------- */

/* a FUNC b, written out here (genxml 3D_Compare_Function encodings) */
static bool passes(uint32_t function, double a, double b)
{
    switch (function) {
    case 0: return true;            /* ALWAYS */
    case 1: return false;           /* NEVER */
    case 2: return a < b;
    case 3: return a == b;
    case 4: return a <= b;
    case 5: return a > b;
    case 6: return a != b;
    case 7: return a >= b;
    default: return false;
    }
}

/* Every (source, destination) pair of the two ranges fails, over the domain
 * values[]; the ranges are index intervals. */
static bool all_fail(uint32_t function, const double *values, uint32_t s0, uint32_t s1,
                     uint32_t d0, uint32_t d1)
{
    for (uint32_t s = s0; s <= s1; s++)
        for (uint32_t d = d0; d <= d1; d++)
            if (passes(function, values[s], values[d]))
                return false;
    return true;
}

static void test_reject_rule_exhaustive(void)
{
    /* D16: stored integers 0..6 */
    double ints[7] = { 0, 1, 2, 3, 4, 5, 6 };
    uint32_t checked = 0, rejects = 0;
    for (uint32_t f = 0; f < 8; f++)
        for (uint32_t s0 = 0; s0 < 7; s0++)
            for (uint32_t s1 = s0; s1 < 7; s1++)
                for (uint32_t d0 = 0; d0 < 7; d0++)
                    for (uint32_t d1 = d0; d1 < 7; d1++) {
                        struct hiz_block b = { HIZ_RANGE, d0, d1 };
                        bool want = all_fail(f, ints, s0, s1, d0, d1);
                        CU_ASSERT_EQUAL(hiz_rejects(f, DS_D16_UNORM, &b, s0, s1), want);
                        if (d0 == d1) {     /* a cleared block is one value */
                            b.state = HIZ_CLEARED;
                            CU_ASSERT_EQUAL(hiz_rejects(f, DS_D16_UNORM, &b, s0, s1), want);
                        }
                        b.state = HIZ_AMBIGUOUS;
                        CU_ASSERT_FALSE(hiz_rejects(f, DS_D16_UNORM, &b, s0, s1));
                        checked++;
                        rejects += want;
                    }
    CU_ASSERT_EQUAL(checked, 8u * 28u * 28u);
    CU_ASSERT_TRUE(rejects > 0 && rejects < checked);
    /* D32_FLOAT: the float's bits, negative values included */
    float floats[5] = { -1.0f, 0.0f, 0.25f, 0.5f, 1.0f };
    double fd[5];
    uint32_t bits[5];
    for (uint32_t i = 0; i < 5; i++) {
        fd[i] = floats[i];
        memcpy(&bits[i], &floats[i], 4);
    }
    for (uint32_t f = 0; f < 8; f++)
        for (uint32_t s0 = 0; s0 < 5; s0++)
            for (uint32_t s1 = s0; s1 < 5; s1++)
                for (uint32_t d0 = 0; d0 < 5; d0++)
                    for (uint32_t d1 = d0; d1 < 5; d1++) {
                        struct hiz_block b = { HIZ_RANGE, bits[d0], bits[d1] };
                        CU_ASSERT_EQUAL(hiz_rejects(f, DS_D32_FLOAT, &b, bits[s0], bits[s1]),
                                        all_fail(f, fd, s0, s1, d0, d1));
                    }
    /* a NaN bound never rejects */
    uint32_t nan = 0x7fc00000u;
    struct hiz_block b = { HIZ_RANGE, nan, nan };
    CU_ASSERT_FALSE(hiz_rejects(2, DS_D32_FLOAT, &b, bits[4], bits[4]));
}

/* ---- the record in memory ---------------------------------------------------------------- */

/* Byte offset of (x bytes, row) in a Y-tiled surface of pitch 128 (one tile
 * across): 16-byte columns of 32 rows, 4 KiB tiles. */
static uint64_t y_offset(uint32_t x, uint32_t row)
{
    return (uint64_t)(row / 32) * 4096 + (x / 16) * 512 + (row % 32) * 16 + x % 16;
}

static uint32_t dword_at(struct gpu_address_space *as, uint64_t a)
{
    uint32_t v = 0;
    struct gt_error err;
    CU_ASSERT_EQUAL(gpu_address_space_read(as, a, &v, 4, &err), 0);
    return v;
}

static void test_record_layout(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct gpu_address_space as;
    gpu_address_space_init(&as, mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    const uint64_t base = 0x10000;
    struct hiz_surface h = { .valid = true, .base = base, .pitch = 128, .slice_rows = 8,
                             .blocks_x = 16, .blocks_y = 8 };
    struct hiz_block b = { HIZ_RANGE, 0x1234, 0x5678 }, back;
    CU_ASSERT_TRUE(hiz_block_write(&h, &as, 5, 3, 0, &b));
    /* block (5, 3): 8 bytes at byte 40 of HiZ rows 6 and 7 */
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(40, 6)), HIZ_RANGE);
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(44, 6)), 0x1234);
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(40, 7)), 0x5678);
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(44, 7)), 0);
    bool bad = true;
    CU_ASSERT_TRUE(hiz_block_read(&h, &as, 5, 3, 0, &back, &bad));
    CU_ASSERT_FALSE(bad);
    CU_ASSERT_EQUAL(back.state, HIZ_RANGE);
    CU_ASSERT_EQUAL(back.min, 0x1234);
    CU_ASSERT_EQUAL(back.max, 0x5678);
    /* slice 1 of block (0, 1): rows 2 (1 + 8) and 2 (1 + 8) + 1 */
    b = (struct hiz_block){ HIZ_CLEARED, 7, 7 };
    CU_ASSERT_TRUE(hiz_block_write(&h, &as, 0, 1, 1, &b));
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(0, 18)), HIZ_CLEARED);
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(4, 18)), 7);
    CU_ASSERT_EQUAL(dword_at(&as, base + y_offset(0, 19)), 7);
    /* zeroed memory is AMBIGUOUS; an unknown state reads as AMBIGUOUS, flagged */
    CU_ASSERT_TRUE(hiz_block_read(&h, &as, 1, 1, 0, &back, &bad));
    CU_ASSERT_EQUAL(back.state, HIZ_AMBIGUOUS);
    CU_ASSERT_FALSE(bad);
    uint32_t junk = 9;
    gpu_address_space_write(&as, base + y_offset(8, 2), &junk, 4, &err);
    CU_ASSERT_TRUE(hiz_block_read(&h, &as, 1, 1, 0, &back, &bad));
    CU_ASSERT_EQUAL(back.state, HIZ_AMBIGUOUS);
    CU_ASSERT_TRUE(bad);
    /* outside the blocks or the pitch: refused */
    CU_ASSERT_FALSE(hiz_block_write(&h, &as, 16, 0, 0, &b));
    CU_ASSERT_FALSE(hiz_block_read(&h, &as, 0, 8, 0, &back, NULL));
    h.blocks_x = 0;
    CU_ASSERT_FALSE(hiz_block_write(&h, &as, 16, 0, 0, &b));  /* byte 128: past the pitch */
    gpu_memory_destroy(mem);
}

/* ---- WM: HZ_OP and rejection, with and without HiZ --------------------------------------- */

#define DEPTH_BASE 0x40000u
#define HIZ_BASE 0x80000u
#define SURFACE_BYTES 4096u         /* D16 64x32, pitch 128: one Y tile */

static uint64_t d16_offset(uint32_t x, uint32_t y)
{
    return y_offset(2 * x, y);
}

static void send_depth_buffer(struct wm_rig *r, bool hiz)
{
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 8, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = DEPTH_BASE;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    d->DepthWriteEnable = true;
    d->HierarchicalDepthBufferEnable = hiz;
    wm_rig_to_wm(r, m);
    if (!hiz)
        return;
    /* HZ_Width = ceil(64 / 16) * 16 = 64 bytes (L15785); a Y tile is 128 */
    struct spec_3DSTATE_HIER_DEPTH_BUFFER *h;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER, 5, sizeof *h, (void **)&h);
    h->SurfaceBaseAddress = HIZ_BASE;
    h->SurfacePitch = 127;
    wm_rig_to_wm(r, m);
}

static void send_clear_value(struct wm_rig *r, double value)
{
    struct spec_3DSTATE_CLEAR_PARAMS *c;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_CLEAR_PARAMS, 3, sizeof *c, (void **)&c);
    c->DepthClearValue = value;
    c->DepthClearValueValid = true;
    wm_rig_to_wm(r, m);
}

enum op { OP_CLEAR, OP_DEPTH_RESOLVE, OP_HIZ_RESOLVE };

static void send_hz_op(struct wm_rig *r, enum op op, uint32_t x0, uint32_t y0, uint32_t x1,
                       uint32_t y1)
{
    struct spec_3DSTATE_WM_HZ_OP *h;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    h->DepthBufferClearEnable = op == OP_CLEAR;
    h->DepthBufferResolveEnable = op == OP_DEPTH_RESOLVE;
    h->HierarchicalDepthBufferResolveEnable = op == OP_HIZ_RESOLVE;
    h->ClearRectangleXMin = x0;
    h->ClearRectangleYMin = y0;
    h->ClearRectangleXMax = x1;
    h->ClearRectangleYMax = y1;
    wm_rig_to_wm(r, m);
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM_HZ_OP, 5, sizeof *h, (void **)&h);
    wm_rig_to_wm(r, m);             /* the end of the sequence */
    wm_rig_run(r, 20);
}

static void read_surface(struct wm_rig *r, uint64_t base, uint8_t *out, uint32_t bytes)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, r->mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    CU_ASSERT_EQUAL(gpu_address_space_read(&as, base, out, bytes, &err), 0);
}

static void fill_surface(struct wm_rig *r, uint64_t base, uint8_t byte, uint32_t bytes)
{
    uint8_t b[SURFACE_BYTES];
    memset(b, byte, sizeof b);
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, r->mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    CU_ASSERT_EQUAL(gpu_address_space_write(&as, base, b, bytes, &err), 0);
}

static struct hiz_block rig_block(struct wm_rig *r, uint32_t bx, uint32_t by)
{
    struct gpu_address_space as;
    gpu_address_space_init(&as, r->mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    struct hiz_surface h = { .valid = true, .base = HIZ_BASE, .pitch = 128 };
    struct hiz_block b = { 99, 0, 0 };
    CU_ASSERT_TRUE(hiz_block_read(&h, &as, bx, by, 0, &b, NULL));
    return b;
}

static uint16_t depth_at(const uint8_t *surface, uint32_t x, uint32_t y)
{
    uint64_t o = d16_offset(x, y);
    return (uint16_t)(surface[o] | surface[o + 1] << 8);
}

static void test_fast_clear_and_depth_resolve(void)
{
    struct wm_rig plain = wm_rig_new(), hiz = wm_rig_new();
    struct wm_rig *rigs[2] = { &plain, &hiz };
    for (uint32_t i = 0; i < 2; i++) {
        fill_surface(rigs[i], DEPTH_BASE, 0xee, SURFACE_BYTES);
        send_depth_buffer(rigs[i], i == 1);
        send_clear_value(rigs[i], 0.5);
        /* x 2..20, y 1..8: block (1, 1) inside, its neighbours in part */
        send_hz_op(rigs[i], OP_CLEAR, 2, 1, 21, 9);
    }
    uint8_t want[SURFACE_BYTES], got[SURFACE_BYTES];
    read_surface(&plain, DEPTH_BASE, want, SURFACE_BYTES);
    read_surface(&hiz, DEPTH_BASE, got, SURFACE_BYTES);
    /* the fast clear left block (1, 1)'s pixels alone, wrote the others */
    for (uint32_t y = 0; y < 12; y++)
        for (uint32_t x = 0; x < 24; x++) {
            bool in = x >= 2 && x <= 20 && y >= 1 && y <= 8;
            bool fast = x >= 8 && x < 16 && y >= 4 && y < 8;
            CU_ASSERT_EQUAL(depth_at(want, x, y), in ? 0x8000 : 0xeeee);   /* 0.5 -> 32768 */
            CU_ASSERT_EQUAL(depth_at(got, x, y), fast ? 0xeeee : in ? 0x8000 : 0xeeee);
        }
    struct hiz_block b = rig_block(&hiz, 1, 1);
    CU_ASSERT_EQUAL(b.state, HIZ_CLEARED);
    CU_ASSERT_EQUAL(b.min, 0x8000);
    b = rig_block(&hiz, 0, 0);          /* in part: the covered pixels are in its bound */
    CU_ASSERT_EQUAL(b.state, HIZ_AMBIGUOUS);        /* it knew no bound before */
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_cleared"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&plain, "hz_op.pixels"), 19 * 8);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hz_op.pixels"), 19 * 8 - 32);
    /* the depth resolve (L15851): the buffer as without HiZ */
    send_hz_op(&hiz, OP_DEPTH_RESOLVE, 0, 0, 64, 32);
    send_hz_op(&plain, OP_DEPTH_RESOLVE, 0, 0, 64, 32);
    read_surface(&hiz, DEPTH_BASE, got, SURFACE_BYTES);
    read_surface(&plain, DEPTH_BASE, want, SURFACE_BYTES);
    CU_ASSERT_EQUAL(memcmp(got, want, SURFACE_BYTES), 0);
    b = rig_block(&hiz, 1, 1);
    CU_ASSERT_EQUAL(b.state, HIZ_RANGE);
    CU_ASSERT_EQUAL(b.min, 0x8000);
    CU_ASSERT_EQUAL(b.max, 0x8000);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_resolved"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hz_op.depth_resolves"), 1);
    sim_destroy(plain.sim);
    sim_destroy(hiz.sim);
}

static void test_hiz_resolve_rebuilds(void)
{
    struct wm_rig r = wm_rig_new();
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, r.mem, GPU_ADDRESS_SPACE_PHYSICAL, 0);
    /* depth written "outside of the 3D rendering operation" (L15868): x * 100 + y */
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint16_t v = (uint16_t)(x * 100 + y);
            gpu_address_space_write(&as, DEPTH_BASE + d16_offset(x, y), &v, 2, &err);
        }
    fill_surface(&r, HIZ_BASE, 0x5a, SURFACE_BYTES);   /* garbage HiZ */
    send_depth_buffer(&r, true);
    send_hz_op(&r, OP_HIZ_RESOLVE, 0, 0, 64, 32);
    for (uint32_t by = 0; by < 8; by++)
        for (uint32_t bx = 0; bx < 8; bx++) {
            struct hiz_block b = rig_block(&r, bx, by);
            CU_ASSERT_EQUAL(b.state, HIZ_RANGE);
            CU_ASSERT_EQUAL(b.min, bx * 8 * 100 + by * 4);
            CU_ASSERT_EQUAL(b.max, (bx * 8 + 7) * 100 + by * 4 + 3);
        }
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "hiz.blocks_rebuilt"), 64);
    sim_destroy(r.sim);
}

static void send_less_test(struct wm_rig *r)
{
    struct spec_3DSTATE_WM_DEPTH_STENCIL *ds;
    struct msg *m =
        wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM_DEPTH_STENCIL, 4, sizeof *ds, (void **)&ds);
    ds->DepthTestEnable = true;
    ds->DepthBufferWriteEnable = true;
    ds->DepthTestFunction = 2;      /* LESS */
    wm_rig_to_wm(r, m);
}

/* A rectangle (no PS: early depth only) over [x0, x1] x [y0, y1] at depth
 * z + dzdx (x - x0). */
static void draw_rect(struct wm_rig *r, int32_t x0, int32_t y0, int32_t x1, int32_t y1, float z,
                      float dzdx)
{
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_min = x0;
    p.y_min = y0;
    p.x_max = x1;
    p.y_max = y1;
    p.x0 = (float)x0;
    p.y0 = (float)y0;
    p.depth = (struct setup_plane){ z - 0.5f * dzdx, dzdx, 0 };   /* z at (x0, y0)'s centre */
    wm_rig_send_setup(r, &p);
    wm_rig_run(r, 200);
}

static void test_hiz_rejects_blocks(void)
{
    struct wm_rig plain = wm_rig_new(), hiz = wm_rig_new();
    struct wm_rig *rigs[2] = { &plain, &hiz };
    for (uint32_t i = 0; i < 2; i++) {
        fill_surface(rigs[i], DEPTH_BASE, 0x11, SURFACE_BYTES);
        send_depth_buffer(rigs[i], i == 1);
        send_clear_value(rigs[i], 0.25);
        send_hz_op(rigs[i], OP_CLEAR, 0, 0, 64, 32);
        send_less_test(rigs[i]);
        /* 1: 16x8 pixels at 0.5 behind the 0.25 clear: 4 blocks fail whole */
        draw_rect(rigs[i], 0, 0, 15, 7, 0.5f, 0);
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_tested"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_rejected"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.pixels_rejected"), 128);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_filled"), 0);    /* no depth touched */
    CU_ASSERT_EQUAL(wm_rig_stat(&plain, "depth.depth_failed"), 128);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "depth.depth_failed"), 128);
    /* 2: a slope 0.1 .. 0.2 in front, over parts of four blocks: every pixel
     * passes LESS against the 0.25 clear, a trivial accept (no depth reads);
     * the blocks are filled with the clear value first (the draw covers them
     * in part) */
    for (uint32_t i = 0; i < 2; i++)
        draw_rect(rigs[i], 4, 2, 11, 5, 0.1f, 0.0125f);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_rejected"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_ambiguous"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_accepted"), 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.pixels_accepted"), 32);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_filled"), 4);
    /* block (0, 0) now spans [0.1, 0.25]: a draw at 0.3 over it is rejected,
     * one at 0.2 is not (some pixels hold 0.25) */
    struct hiz_block b = rig_block(&hiz, 0, 0);
    CU_ASSERT_EQUAL(b.state, HIZ_RANGE);
    CU_ASSERT_EQUAL(b.max, 16384);          /* 0.25 * 65535 rounded */
    CU_ASSERT_TRUE(b.min >= 6553 && b.min <= 7372);    /* 0.1 .. 0.1125 */
    for (uint32_t i = 0; i < 2; i++) {
        draw_rect(rigs[i], 0, 0, 7, 3, 0.3f, 0);
        draw_rect(rigs[i], 0, 0, 7, 3, 0.2f, 0);
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_rejected"), 5);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_ambiguous"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_accepted"), 4);
    /* each record the rasterizer read or wrote held it hiz_record_cycles (1) */
    CU_ASSERT_TRUE(wm_rig_stat(&hiz, "hiz.record_reads") >= 9);
    CU_ASSERT_TRUE(wm_rig_stat(&hiz, "hiz.stall_cycles") >= wm_rig_stat(&hiz, "hiz.record_reads"));
    CU_ASSERT_EQUAL(wm_rig_stat(&plain, "hiz.stall_cycles"), 0);
    /* the HiZ path failed and wrote exactly the pixels the plain path did */
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "depth.depth_failed"),
                    wm_rig_stat(&plain, "depth.depth_failed"));
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "depth.depth_writes"),
                    wm_rig_stat(&plain, "depth.depth_writes"));
    /* a draw covering block (1, 1) whole at 0.05 rewrites all 32 pixels: the
     * bound becomes exactly [0.05, 0.05] */
    for (uint32_t i = 0; i < 2; i++)
        draw_rect(rigs[i], 8, 4, 15, 7, 0.05f, 0);
    b = rig_block(&hiz, 1, 1);
    CU_ASSERT_EQUAL(b.state, HIZ_RANGE);
    CU_ASSERT_EQUAL(b.min, 3277);           /* 0.05 * 65535 = 3276.75 */
    CU_ASSERT_EQUAL(b.max, 3277);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "hiz.blocks_tightened"), 1);
    /* after a depth resolve the two depth buffers are the same bytes */
    send_hz_op(&hiz, OP_DEPTH_RESOLVE, 0, 0, 64, 32);
    uint8_t got[SURFACE_BYTES], want[SURFACE_BYTES];
    read_surface(&hiz, DEPTH_BASE, got, SURFACE_BYTES);
    read_surface(&plain, DEPTH_BASE, want, SURFACE_BYTES);
    CU_ASSERT_EQUAL(memcmp(got, want, SURFACE_BYTES), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&hiz, "ps.depth_count"), wm_rig_stat(&plain, "ps.depth_count"));
    sim_destroy(plain.sim);
    sim_destroy(hiz.sim);
}

/* HiZ records through WM's record cache and the L3 (WM's "l3" / "l3_reply"
 * to a probe L3 that answers after 12 cycles). The record of block (bx, by)
 * is bytes 8 bx of HiZ rows 2 by and 2 by + 1 (test_record_layout); in the
 * Y-tiled surface both rows lie in one 64-byte line, that of rows 4k..4k+3
 * of the 16-byte column: HIZ_BASE + y_offset(8 bx, 2 by) rounded down to
 * 64, computed here; so blocks (2i..2i+1, 2j..2j+1) share a line, and the
 * 64 x 32 surface (8 x 8 blocks) has 16 lines. */
static uint64_t record_line(uint32_t bx, uint32_t by)
{
    return (HIZ_BASE + y_offset(8 * bx, 2 * by)) & ~(uint64_t)63;
}

/* The cache holds the whole surface (64 lines, the default): a whole-surface
 * fast clear writes every record without reading one (whole blocks are
 * overwritten), its 16 lines allocated dirty in the cache (one miss a line,
 * its 3 other records hits) and nothing goes to the L3; a second pass over
 * blocks (0..1, 0..1), a draw at 0.5 behind the 0.25 clear that HiZ rejects
 * whole, finds its line in the cache: no L3 read, the rasterizer never
 * held. Depth and HiZ results are those of the rig without an L3. */
static void test_hiz_cache_hits(void)
{
    struct wm_rig plain = wm_rig_new(), l3 = wm_rig_new_l3(12);
    struct wm_rig *rigs[2] = { &plain, &l3 };
    for (uint32_t i = 0; i < 2; i++) {
        fill_surface(rigs[i], DEPTH_BASE, 0x11, SURFACE_BYTES);
        send_depth_buffer(rigs[i], true);
        send_clear_value(rigs[i], 0.25);
        send_hz_op(rigs[i], OP_CLEAR, 0, 0, 64, 32);
    }
    wm_rig_run(&l3, 300);
    const struct wm_l3_probe *p = l3.l3;
    CU_ASSERT_EQUAL(p->count, 0u);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_misses"), 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_hits"), 64 - 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_writebacks"), 0);
    for (uint32_t i = 0; i < 2; i++) {
        send_less_test(rigs[i]);
        draw_rect(rigs[i], 0, 0, 15, 7, 0.5f, 0);
    }
    CU_ASSERT_EQUAL(record_line(1, 1), record_line(0, 0));
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.blocks_rejected"), 4);
    CU_ASSERT_EQUAL(p->count, 0u);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.l3_reads"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_misses"), 16);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_hits"), 64 - 16 + 4);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.l3_stall_cycles"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.stall_cycles"), 0);   /* not timed by cycles */
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "depth.depth_failed"),
                    wm_rig_stat(&plain, "depth.depth_failed"));
    uint8_t got[SURFACE_BYTES], want[SURFACE_BYTES];
    read_surface(&l3, HIZ_BASE, got, SURFACE_BYTES);
    read_surface(&plain, HIZ_BASE, want, SURFACE_BYTES);
    CU_ASSERT_EQUAL(memcmp(got, want, SURFACE_BYTES), 0);
    sim_destroy(plain.sim);
    sim_destroy(l3.sim);
}

/* A 4-line cache (wm.hiz_cache_lines=4): the whole-surface fast clear walks
 * the blocks row by row, each line row (block rows 2j, 2j + 1) allocating 4
 * dirty lines; each new line row evicts the previous one, least recently
 * used first, so the lines of block rows 0-1, 2-3 and 4-5 (12) are written
 * back once each in that order and those of rows 6-7 stay in the cache.
 * A draw over blocks (0..1, 0..1) then misses: the least recently used
 * line (that of blocks (0, 6)) is written back and line (0, 0) read, the
 * rasterizer held for the answer; the same draw again hits (no new
 * request). The depth results are those of the rig without an L3. */
static void test_hiz_cache_writebacks(void)
{
    static const char *const small[] = { "hiz_cache_lines=4", NULL };
    struct wm_rig plain = wm_rig_new(), l3 = wm_rig_new_l3_with(12, small);
    struct wm_rig *rigs[2] = { &plain, &l3 };
    for (uint32_t i = 0; i < 2; i++) {
        fill_surface(rigs[i], DEPTH_BASE, 0x11, SURFACE_BYTES);
        send_depth_buffer(rigs[i], true);
        send_clear_value(rigs[i], 0.25);
        send_hz_op(rigs[i], OP_CLEAR, 0, 0, 64, 32);
    }
    wm_rig_run(&l3, 300);
    const struct wm_l3_probe *p = l3.l3;
    CU_ASSERT_EQUAL_FATAL(p->count, 12u);
    for (uint32_t k = 0; k < 12; k++) {
        CU_ASSERT_EQUAL(p->op[k], MEMREQ_WRITE);
        CU_ASSERT_EQUAL(p->address[k], record_line(2 * (k % 4), 2 * (k / 4)));
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.cache_writebacks"), 12);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.l3_writes"), 12);
    for (uint32_t i = 0; i < 2; i++) {
        send_less_test(rigs[i]);
        draw_rect(rigs[i], 0, 0, 15, 7, 0.5f, 0);
    }
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.blocks_rejected"), 4);
    CU_ASSERT_EQUAL_FATAL(p->count, 14u);
    CU_ASSERT_EQUAL(p->op[12], MEMREQ_WRITE);
    CU_ASSERT_EQUAL(p->address[12], record_line(0, 6));
    CU_ASSERT_EQUAL(p->op[13], MEMREQ_READ);
    CU_ASSERT_EQUAL(p->address[13], record_line(0, 0));
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.l3_reads"), 1);
    CU_ASSERT_TRUE(wm_rig_stat(&l3, "hiz.l3_stall_cycles") >= 12);
    uint64_t stalled = wm_rig_stat(&l3, "hiz.l3_stall_cycles");
    for (uint32_t i = 0; i < 2; i++)
        draw_rect(rigs[i], 0, 0, 15, 7, 0.5f, 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.blocks_rejected"), 8);
    CU_ASSERT_EQUAL(p->count, 14u);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "hiz.l3_stall_cycles"), stalled);
    CU_ASSERT_EQUAL(wm_rig_stat(&plain, "hiz.l3_reads"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&l3, "depth.depth_failed"),
                    wm_rig_stat(&plain, "depth.depth_failed"));
    uint8_t got[SURFACE_BYTES], want[SURFACE_BYTES];
    read_surface(&l3, HIZ_BASE, got, SURFACE_BYTES);
    read_surface(&plain, HIZ_BASE, want, SURFACE_BYTES);
    CU_ASSERT_EQUAL(memcmp(got, want, SURFACE_BYTES), 0);
    sim_destroy(plain.sim);
    sim_destroy(l3.sim);
}

/* The lookahead across primitives (wm.hiz_lookahead_primitives, 3 by
 * default; units/wm/wm.c): four rectangles, x 0-15, 16-31, 32-47, 48-63 at y
 * 0-7, each over one record line (blocks 2i..2i+1 x 0..1, record_line(2i,
 * 0)), queued at once behind each other, with a probe L3 answering after 40
 * cycles. With the lookahead the first rectangle's line is read on demand
 * and, while it waits, the lines of the three queued behind it: the four
 * reads reach the L3 in order before the first answer, and the rasterizer
 * waits about one round trip in all (less than two). Without it
 * (hiz_lookahead_primitives=0) each rectangle's line is read when its turn
 * comes: four round trips, each read sent after the previous answer. The
 * depth results are the same. */
static void queue_rect(struct wm_rig *r, int32_t x0, int32_t x1, float z)
{
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    p.topology = PRIM_RECTLIST;
    p.subpixel_bits = 8;
    p.x_min = x0;
    p.x_max = x1;
    p.y_max = 7;
    p.x0 = (float)x0;
    p.depth = (struct setup_plane){ z, 0, 0 };
    wm_rig_send_setup(r, &p);
}

static void test_hiz_lookahead(void)
{
    static const char *const off[] = { "hiz_lookahead_primitives=0", NULL };
    struct wm_rig ahead = wm_rig_new_l3(40), late = wm_rig_new_l3_with(40, off);
    struct wm_rig *rigs[2] = { &ahead, &late };
    for (uint32_t i = 0; i < 2; i++) {
        fill_surface(rigs[i], DEPTH_BASE, 0xff, SURFACE_BYTES);
        send_depth_buffer(rigs[i], true);
        send_less_test(rigs[i]);
        wm_rig_run(rigs[i], 10);
        for (int32_t k = 0; k < 4; k++)
            queue_rect(rigs[i], 16 * k, 16 * k + 15, 0.25f + 0.125f * (float)k);
        wm_rig_run(rigs[i], 400);
    }
    const struct wm_l3_probe *a = ahead.l3, *l = late.l3;
    CU_ASSERT_EQUAL_FATAL(a->count, 4u);
    CU_ASSERT_EQUAL_FATAL(l->count, 4u);
    for (uint32_t k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL(a->op[k], MEMREQ_READ);
        CU_ASSERT_EQUAL(a->address[k], record_line(2 * k, 0));
        CU_ASSERT_EQUAL(l->address[k], record_line(2 * k, 0));
        if (k) {
            CU_ASSERT_TRUE(l->cycle[k] >= l->cycle[k - 1] + 40);
        }
    }
    CU_ASSERT_TRUE(a->cycle[3] < a->cycle[0] + 40);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "hiz.lookahead_primitives"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "hiz.lookahead_lines"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "hiz.lookahead_used"), 3);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "hiz.lookahead_evicted"), 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&late, "hiz.lookahead_lines"), 0);
    uint64_t sa = wm_rig_stat(&ahead, "hiz.l3_stall_cycles");
    uint64_t sl = wm_rig_stat(&late, "hiz.l3_stall_cycles");
    CU_ASSERT_TRUE(sa >= 36 && sa < 80);
    CU_ASSERT_TRUE(sl >= 4 * 36);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "raster.pixels"), 64 * 8);
    CU_ASSERT_EQUAL(wm_rig_stat(&ahead, "depth.depth_writes"),
                    wm_rig_stat(&late, "depth.depth_writes"));
    uint8_t got[SURFACE_BYTES], want[SURFACE_BYTES];
    read_surface(&ahead, DEPTH_BASE, got, SURFACE_BYTES);
    read_surface(&late, DEPTH_BASE, want, SURFACE_BYTES);
    CU_ASSERT_EQUAL(memcmp(got, want, SURFACE_BYTES), 0);
    CU_ASSERT_EQUAL(depth_at(got, 20, 3), 24576);      /* 0.375 * 65535 rounded */
    sim_destroy(ahead.sim);
    sim_destroy(late.sim);
}

static const struct test_case cases[] = {
    { "the whole-block reject rule against an exhaustive search", test_reject_rule_exhaustive },
    { "the HiZ record in the Y-tiled HiZ surface", test_record_layout },
    { "fast depth clear, then depth resolve: the bytes of the non-HiZ clear",
      test_fast_clear_and_depth_resolve },
    { "HiZ resolve rebuilds every block's bound from depth", test_hiz_resolve_rebuilds },
    { "HiZ rejects whole blocks; depth as without HiZ", test_hiz_rejects_blocks },
    { "HiZ record cache: a second pass over the same blocks reads nothing from the L3",
      test_hiz_cache_hits },
    { "HiZ record cache: evicted dirty lines written back, misses read through the L3",
      test_hiz_cache_writebacks },
    { "HiZ lookahead: the record lines of queued primitives read before their turn",
      test_hiz_lookahead },
    { 0 }
};
TEST_SUITE(hiz, cases);
