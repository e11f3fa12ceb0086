/* tests/units/test_depth_stencil.c - the depth/stencil library
 * (units/common/depth_stencil) against hand-worked values: every compare
 * function, every stencil op (seed 003 L16677-16711), the stencil test with
 * masks and the back face (L16488-16500), the depth test with the CC
 * viewport clamp (L16502-16516), UNORM rounding, and the Y / W tiled
 * addresses worked out here from the tile layouts (tiling.h's sources). */
#include <string.h>

#include "tests/test.h"
#include "units/common/depth_stencil.h"

static void test_compare_functions(void)
{
    /* a FUNC b for (1, 2), (2, 2), (3, 2) */
    static const struct { uint32_t f; bool r[3]; } t[] = {
        { DS_COMPARE_ALWAYS, { 1, 1, 1 } }, { DS_COMPARE_NEVER, { 0, 0, 0 } },
        { DS_COMPARE_LESS, { 1, 0, 0 } },   { DS_COMPARE_EQUAL, { 0, 1, 0 } },
        { DS_COMPARE_LEQUAL, { 1, 1, 0 } }, { DS_COMPARE_GREATER, { 0, 0, 1 } },
        { DS_COMPARE_NOTEQUAL, { 1, 0, 1 } }, { DS_COMPARE_GEQUAL, { 0, 1, 1 } },
    };
    for (uint32_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (uint32_t a = 1; a <= 3; a++) {
            CU_ASSERT_EQUAL(ds_compare_uint(t[i].f, a, 2), t[i].r[a - 1]);
            CU_ASSERT_EQUAL(ds_compare_float(t[i].f, (float)a * 0.25f, 0.5f), t[i].r[a - 1]);
        }
    CU_ASSERT_FALSE(ds_compare_uint(99, 1, 1));     /* no such function: fails, no crash */
}

static void test_stencil_ops(void)
{
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_KEEP, 0x5a, 0x11), 0x5a);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_ZERO, 0x5a, 0x11), 0);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_REPLACE, 0x5a, 0x11), 0x11);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_INCRSAT, 0xff, 0), 0xff);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_INCRSAT, 0x10, 0), 0x11);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_DECRSAT, 0, 0), 0);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_DECRSAT, 0x10, 0), 0x0f);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_INCR, 0xff, 0), 0);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_DECR, 0, 0), 0xff);
    CU_ASSERT_EQUAL(ds_stencil_apply(DS_STENCIL_INVERT, 0x5a, 0), 0xa5);
}

static struct ds_state stencil_state(void)
{
    struct ds_state st;
    memset(&st, 0, sizeof st);
    st.stencil_test = st.stencil_write = true;
    st.min_depth = 1.0f;        /* no clamp */
    st.front = (struct ds_face){ DS_COMPARE_EQUAL, DS_STENCIL_ZERO, DS_STENCIL_INVERT,
                                 DS_STENCIL_REPLACE, 0x0f, 0x3c, 0x0f };
    st.back = (struct ds_face){ DS_COMPARE_NEVER, DS_STENCIL_INCR, DS_STENCIL_KEEP,
                                DS_STENCIL_KEEP, 0xff, 0xff, 0 };
    return st;
}

static void test_stencil_test_masks_and_faces(void)
{
    struct ds_state st = stencil_state();
    uint32_t depth = 0;
    /* stored 0xf0: (0x0f & 0x0f) == (0xf0 & 0x0f)? 0x0f vs 0x00: fails; ZERO
     * through write mask 0x3c: 0xf0 & ~0x3c = 0xc0 */
    uint8_t s = 0xf0;
    uint32_t r = ds_test(&st, false, DS_D16_UNORM, 0.5f, &depth, &s);
    CU_ASSERT_FALSE(r & DS_PASS);
    CU_ASSERT_TRUE(r & DS_STENCIL_FAILED);
    CU_ASSERT_EQUAL(s, 0xc0);
    /* stored 0xff: 0x0f == 0x0f passes; REPLACE 0x0f through 0x3c:
     * (0xff & ~0x3c) | (0x0f & 0x3c) = 0xc3 | 0x0c = 0xcf */
    s = 0xff;
    r = ds_test(&st, false, DS_D16_UNORM, 0.5f, &depth, &s);
    CU_ASSERT_TRUE(r & DS_PASS);
    CU_ASSERT_EQUAL(s, 0xcf);
    /* back facing without double-sided: the front state */
    s = 0xff;
    CU_ASSERT_TRUE(ds_test(&st, true, DS_D16_UNORM, 0.5f, &depth, &s) & DS_PASS);
    /* double-sided: back NEVER, fail op INCR (mask 0xff): 0xff -> 0x00 */
    st.double_sided = true;
    s = 0xff;
    r = ds_test(&st, true, DS_D16_UNORM, 0.5f, &depth, &s);
    CU_ASSERT_FALSE(r & DS_PASS);
    CU_ASSERT_EQUAL(s, 0x00);
    /* stencil writes off: the buffer keeps its value */
    st.stencil_write = false;
    s = 0x33;
    ds_test(&st, true, DS_D16_UNORM, 0.5f, &depth, &s);
    CU_ASSERT_EQUAL(s, 0x33);
}

static void test_depth_test_and_formats(void)
{
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D16_UNORM, 0.5f), 32768u);    /* 32767.5 + .5 */
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D16_UNORM, 0.25f), 16384u);   /* 16383.75 + .5 */
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D16_UNORM, -1.0f), 0u);
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D24_UNORM_X8_UINT, 1.0f), 0xffffffu);
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D24_UNORM_X8_UINT, 0.5f), 0x800000u);  /* 8388607.5+.5 */
    CU_ASSERT_EQUAL(ds_depth_encode(DS_D32_FLOAT, 0.75f), 0x3f400000u);
    CU_ASSERT_EQUAL(ds_depth_bytes(DS_D16_UNORM), 2u);
    CU_ASSERT_EQUAL(ds_depth_bytes(DS_D24_UNORM_S8_UINT), 0u);       /* interleaved: refused */

    struct ds_state st;
    memset(&st, 0, sizeof st);
    st.depth_test = st.depth_write = true;
    st.depth_function = DS_COMPARE_LESS;
    st.min_depth = 1.0f;                    /* min > max: no clamp */
    uint8_t s = 7;
    uint32_t d = 32768;
    uint32_t r = ds_test(&st, false, DS_D16_UNORM, 0.25f, &d, &s);
    CU_ASSERT_TRUE(r & DS_PASS);
    CU_ASSERT_TRUE(r & DS_DEPTH_WRITTEN);
    CU_ASSERT_EQUAL(d, 16384u);
    CU_ASSERT_EQUAL(s, 7);                  /* no stencil test: untouched */
    /* the same depth again: LESS fails, nothing written */
    r = ds_test(&st, false, DS_D16_UNORM, 0.25f, &d, &s);
    CU_ASSERT_TRUE(r & DS_DEPTH_FAILED);
    CU_ASSERT_FALSE(r & (DS_PASS | DS_DEPTH_WRITTEN));
    /* the CC viewport clamp [0.5, 1]: 0.25 becomes 0.5 = 32768, not < 32768 */
    st.min_depth = 0.5f;
    st.max_depth = 1.0f;
    d = 32768;
    CU_ASSERT_FALSE(ds_test(&st, false, DS_D16_UNORM, 0.25f, &d, &s) & DS_PASS);
    /* depth fail with a stencil depth-fail op; D24 ignores the X8 bits */
    st = stencil_state();
    st.depth_test = true;
    st.depth_function = DS_COMPARE_GREATER;
    st.front.function = DS_COMPARE_ALWAYS;
    st.front.write_mask = 0xff;
    d = 0xff800000u;                        /* 0.5 with X8 = 0xff */
    s = 0x0f;
    r = ds_test(&st, false, DS_D24_UNORM_X8_UINT, 0.5f, &d, &s);   /* 0.5 > 0.5 fails */
    CU_ASSERT_TRUE(r & DS_DEPTH_FAILED);
    CU_ASSERT_EQUAL(s, 0xf0);               /* INVERT */
    d = 0xff7fffffu;
    s = 0x0f;
    r = ds_test(&st, false, DS_D24_UNORM_X8_UINT, 0.5f, &d, &s);   /* 0x800000 > 0x7fffff */
    CU_ASSERT_TRUE(r & DS_PASS);
    CU_ASSERT_EQUAL(s, 0x0f);               /* REPLACE with 0x0f */
    /* D32_FLOAT compares floats */
    memset(&st, 0, sizeof st);
    st.depth_test = true;
    st.depth_function = DS_COMPARE_GEQUAL;
    st.min_depth = 1.0f;
    d = 0x3f400000u;                        /* 0.75 */
    CU_ASSERT_FALSE(ds_test(&st, false, DS_D32_FLOAT, 0.5f, &d, &s) & DS_PASS);
    CU_ASSERT_TRUE(ds_test(&st, false, DS_D32_FLOAT, 0.75f, &d, &s) & DS_PASS);
}

static void test_surface_addresses(void)
{
    /* D16 Y-tiled, pitch 256 (two tiles across): pixel (70, 40) is byte
     * column 140, row 40: tile (1, 1) = tile 3 at 12288; in the tile u = 12,
     * v = 8: OWord column 0, 16 * 8 + 12 = 140 */
    struct ds_surface d = { .valid = true, .base = 0x100000, .pitch = 256, .width = 128,
                            .height = 64, .element_bytes = 2, .tiling = TILING_Y };
    uint64_t a;
    CU_ASSERT_TRUE(ds_surface_address(&d, 70, 40, 0, &a));
    CU_ASSERT_EQUAL(a, 0x100000u + 12288u + 140u);
    /* (9, 1): byte column 18 = OWord column 1: 512 + 16 + 2 */
    CU_ASSERT_TRUE(ds_surface_address(&d, 9, 1, 0, &a));
    CU_ASSERT_EQUAL(a, 0x100000u + 530u);
    CU_ASSERT_FALSE(ds_surface_address(&d, 128, 0, 0, &a));     /* out of the surface */
    /* W-tiled stencil, pitch 64: (5, 3): u = 101b, v = 011b: A = u0 | v0<<1 |
     * u1<<2 | v1<<3 | u2<<4 = 1 + 2 + 8 + 16 = 27 */
    struct ds_surface s = { .valid = true, .base = 0x200000, .pitch = 64, .element_bytes = 1,
                            .tiling = TILING_W };
    CU_ASSERT_TRUE(ds_surface_address(&s, 5, 3, 0, &a));
    CU_ASSERT_EQUAL(a, 0x200000u + 27u);
    /* (8, 4): u3 -> bit 9, v2 -> bit 5: 512 + 32 */
    CU_ASSERT_TRUE(ds_surface_address(&s, 8, 4, 0, &a));
    CU_ASSERT_EQUAL(a, 0x200000u + 544u);
    /* a zero-size surface is refused, not a crash */
    struct ds_surface z = { .valid = true, .element_bytes = 2, .tiling = TILING_Y };
    CU_ASSERT_FALSE(ds_surface_address(&z, 0, 0, 0, &a));
}

/* The interleaved (IMS) layout of multisampled depth/stencil (Mesa blorp's
 * encode_msaa, depth_stencil.h): spot values worked out by hand, and for each
 * count the samples of a 4x4-pixel area fill the physical area (width and
 * height times 2x1, 2x2, 4x2, 4x4) once each. */
static void test_interleaved_sample_positions(void)
{
    uint32_t px, py;
    /* 4x: pixel (3, 1) sample 3 -> pair column 1 (x 4..7), sample column 1
     * (+2), pixel column 1 (+1): 7; row: pair 0, sample row 1 (+2), +1: 3 */
    CU_ASSERT_TRUE(ds_ims_position(4, 3, 1, 3, &px, &py));
    CU_ASSERT_EQUAL(px, 7);
    CU_ASSERT_EQUAL(py, 3);
    /* 8x: pixel (2, 0) sample 5 (101b): X = 8 + 4 + 2 + 0 = 14, Y = 0 */
    CU_ASSERT_TRUE(ds_ims_position(8, 2, 0, 5, &px, &py));
    CU_ASSERT_EQUAL(px, 14);
    CU_ASSERT_EQUAL(py, 0);
    /* 16x: pixel (0, 3) sample 10 (1010b): X = 0 (sample bits 0 and 2
     * clear), Y = 8 + 4 (bit 3) + 2 (bit 1) + 1 = 15 */
    CU_ASSERT_TRUE(ds_ims_position(16, 0, 3, 10, &px, &py));
    CU_ASSERT_EQUAL(px, 0);
    CU_ASSERT_EQUAL(py, 15);
    /* 2x: pixel (1, 5) sample 1: X = 2 + 1 = 3, Y = 5 */
    CU_ASSERT_TRUE(ds_ims_position(2, 1, 5, 1, &px, &py));
    CU_ASSERT_EQUAL(px, 3);
    CU_ASSERT_EQUAL(py, 5);
    static const uint32_t counts[4] = { 2, 4, 8, 16 }, sx[4] = { 2, 2, 4, 4 },
                          sy[4] = { 1, 2, 2, 4 };
    for (uint32_t c = 0; c < 4; c++) {
        uint8_t hit[16][16];
        memset(hit, 0, sizeof hit);
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 4; x++)
                for (uint32_t smp = 0; smp < counts[c]; smp++) {
                    CU_ASSERT_TRUE_FATAL(ds_ims_position(counts[c], x, y, smp, &px, &py));
                    CU_ASSERT_TRUE_FATAL(px < 4 * sx[c] && py < 4 * sy[c]);
                    hit[py][px]++;
                }
        for (uint32_t y = 0; y < 4 * sy[c]; y++)
            for (uint32_t x = 0; x < 4 * sx[c]; x++)
                CU_ASSERT_EQUAL(hit[y][x], 1);
        CU_ASSERT_FALSE(ds_ims_position(counts[c], 0, 0, counts[c], &px, &py));
    }
    CU_ASSERT_FALSE(ds_ims_position(3, 0, 0, 0, &px, &py));    /* no such count */
    /* a 4x D32 surface, pitch 128: pixel (1, 1) sample 2 is physical (1, 3):
     * byte column 4, row 3 of the first tile: 3 * 16 + 4 */
    struct ds_surface d = { .valid = true, .base = 0x100000, .pitch = 128, .width = 8,
                            .height = 8, .element_bytes = 4, .tiling = TILING_Y, .samples = 4 };
    uint64_t a;
    CU_ASSERT_TRUE(ds_surface_sample_address(&d, 1, 1, 2, 0, &a));
    CU_ASSERT_EQUAL(a, 0x100000u + 52u);
    CU_ASSERT_FALSE(ds_surface_sample_address(&d, 8, 0, 0, 0, &a));    /* logical bound */
    CU_ASSERT_FALSE(ds_surface_sample_address(&d, 0, 0, 4, 0, &a));    /* no sample 4 */
    CU_ASSERT_EQUAL(ds_surface_samples(&d), 4);
    d.samples = 0;
    CU_ASSERT_EQUAL(ds_surface_samples(&d), 1);
}

static const struct test_case cases[] = {
    { "compare functions", test_compare_functions },
    { "stencil operations", test_stencil_ops },
    { "stencil test: masks, reference, back face", test_stencil_test_masks_and_faces },
    { "depth test, formats and the CC viewport clamp", test_depth_test_and_formats },
    { "Y-tiled depth and W-tiled stencil addresses", test_surface_addresses },
    { "interleaved multisampled depth/stencil sample positions", test_interleaved_sample_positions },
    { 0 }
};
TEST_SUITE(depth_stencil, cases);
