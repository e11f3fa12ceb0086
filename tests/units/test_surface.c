/* tests/units/test_surface.c - the surfaces library (units/common/surface.h,
 * tiling.h): RENDER_SURFACE_STATE decode for Gen4/7/8/9 (states packed with
 * the generated GENn_RENDER_SURFACE_STATE_pack, and real states from the
 * captures in tests/data/traces/<capture>.structs.gz, whose expected values are the
 * captures' own aubinator decode), and addresses against computations written
 * here from the layout descriptions, not from the library:
 * - tiles: a byte walk per tiling (X: rows of 512 B; Y: 16 B columns of 32
 *   rows; W: nested 2x2 blocks as Mesa's intel_offset_S8 states them; Yf/Ys:
 *   the seed's bit strings, 003 L5332-5344, read character by character);
 * - mip chains: a cursor walk (LOD 1 below LOD 0, then right once, then down);
 * - 3D slices: rows of 2^lod slices; QPitch by the Gen7 formula h0+h1+12j;
 * - MSAA: MSS as array slices, interleaved by blorp's encode_msaa formulas.
 * Garbage states (random dwords) must never crash. */
#include "../test.h"

#include <stdlib.h>
#include <string.h>

#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"
#include "units/common/surface.h"
#include "units/common/tiling.h"

/* ---- independent tile walks --------------------------------------------------- */

/* Yf/Ys from the seed's table: the in-tile offset bits from the top down, "uN"
 * = bit N of the byte column, "vN" = bit N of the row (003 L5332-5344). */
static const char *const seed_ys[3] = {
    /* 8 bpe    */ "u7 v7 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0",
    /* 16, 32   */ "u8 v6 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0",
    /* 64, 128  */ "u9 v5 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0",
};
/* the seed's tile constants Cu (log2 bytes wide) and Cv (log2 rows) */
static const unsigned seed_ys_cu[3] = { 8, 9, 10 }, seed_ys_cv[3] = { 8, 7, 6 };
static const unsigned seed_yf_cu[3] = { 6, 7, 8 }, seed_yf_cv[3] = { 6, 5, 4 };

static unsigned bpe_class(unsigned bytes)
{
    return bytes == 1 ? 0 : bytes <= 4 ? 1 : 2;
}

/* Offset inside one tile, from a bit string: the last `bits` entries. */
static uint64_t string_offset(const char *s, unsigned bits, uint64_t u, uint64_t v)
{
    unsigned total = (unsigned)(strlen(s) + 1) / 3;      /* "uN " per entry */
    uint64_t off = 0;
    for (unsigned i = 0; i < total; i++) {
        unsigned position = total - 1 - i;              /* A[position] */
        if (position >= bits)
            continue;
        unsigned n = (unsigned)(s[3 * i + 1] - '0');
        uint64_t bit = (s[3 * i] == 'u' ? u : v) >> n & 1;
        off |= bit << position;
    }
    return off;
}

/* Reference byte offset of (x_bytes, y) in a surface of the given tiling. */
static uint64_t ref_tiled(enum tiling t, unsigned bpe, uint64_t pitch, uint64_t x, uint64_t y)
{
    uint64_t tw, th, inner;
    switch (t) {
    case TILING_LINEAR:
        return y * pitch + x;
    case TILING_X:      /* 8 rows of 512 bytes */
        tw = 512, th = 8;
        inner = (y % 8) * 512 + x % 512;
        break;
    case TILING_Y:      /* 8 OWord columns, each 32 rows of 16 bytes */
        tw = 128, th = 32;
        inner = (x % 128) / 16 * 512 + (y % 32) * 16 + x % 16;
        break;
    case TILING_W: {    /* 8x8 blocks of 8x8 bytes, column-major; 2x2 nesting inside */
        uint64_t bx = x % 64, by = y % 64;
        tw = 64, th = 64;
        inner = 512 * (bx / 8) + 64 * (by / 8) + 32 * ((by / 4) % 2) + 16 * ((bx / 4) % 2) +
                8 * ((by / 2) % 2) + 4 * ((bx / 2) % 2) + 2 * (by % 2) + bx % 2;
        break;
    }
    case TILING_YF:
    case TILING_YS: {
        unsigned c = bpe_class(bpe);
        bool f = t == TILING_YF;
        tw = 1u << (f ? seed_yf_cu[c] : seed_ys_cu[c]);
        th = 1u << (f ? seed_yf_cv[c] : seed_ys_cv[c]);
        inner = string_offset(seed_ys[c], f ? 12 : 16, x % tw, y % th);
        break;
    }
    default:
        return ~0ull;
    }
    return (y / th) * pitch * th + (x / tw) * tw * th + inner;
}

static void test_tile_shapes(void)
{
    static const struct { enum tiling t; unsigned bpe, w, h; } cases[] = {
        { TILING_X, 4, 512, 8 }, { TILING_Y, 4, 128, 32 }, { TILING_W, 1, 64, 64 },
        { TILING_YF, 1, 64, 64 }, { TILING_YF, 2, 128, 32 }, { TILING_YF, 4, 128, 32 },
        { TILING_YF, 8, 256, 16 }, { TILING_YF, 16, 256, 16 }, { TILING_YS, 1, 256, 256 },
        { TILING_YS, 4, 512, 128 }, { TILING_YS, 16, 1024, 64 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tile_shape s;
        CU_ASSERT_TRUE_FATAL(tiling_shape(cases[i].t, cases[i].bpe, &s));
        CU_ASSERT_EQUAL(s.width_bytes, cases[i].w);
        CU_ASSERT_EQUAL(s.height_rows, cases[i].h);
        CU_ASSERT_EQUAL(s.size_bytes, cases[i].w * cases[i].h);
    }
    struct tile_shape s;
    CU_ASSERT_FALSE(tiling_shape(TILING_YF, 3, &s));
    CU_ASSERT_FALSE(tiling_shape(TILING_YS, 32, &s));
    CU_ASSERT_FALSE(tiling_shape(TILING_COUNT, 4, &s));
}

/* Every byte of a 3 x 2 tile region against the reference walk, and every
 * offset of those six tiles hit exactly once. */
static void check_tiling(enum tiling t, unsigned bpe)
{
    struct tile_shape s;
    CU_ASSERT_TRUE_FATAL(tiling_shape(t, bpe, &s));
    uint64_t pitch = 3ull * s.width_bytes, bytes = 6ull * s.size_bytes;
    uint8_t *seen = calloc(bytes, 1);
    unsigned bad = 0, twice = 0;
    for (uint64_t y = 0; y < 2ull * s.height_rows; y++)
        for (uint64_t x = 0; x < pitch; x++) {
            uint64_t off = ~0ull;
            if (!tiling_offset(t, bpe, (uint32_t)pitch, x, y, &off) ||
                off != ref_tiled(t, bpe, pitch, x, y) || off >= bytes) {
                bad++;
                continue;
            }
            twice += seen[off]++ != 0;
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(twice, 0);
    free(seen);
}

static void test_tile_walks(void)
{
    uint64_t off;
    CU_ASSERT_TRUE(tiling_offset(TILING_LINEAR, 4, 100, 7, 3, &off));
    CU_ASSERT_EQUAL(off, 307);
    check_tiling(TILING_X, 4);
    check_tiling(TILING_Y, 4);
    check_tiling(TILING_W, 1);
    static const unsigned bpes[] = { 1, 2, 4, 8, 16 };
    for (unsigned i = 0; i < 5; i++) {
        check_tiling(TILING_YF, bpes[i]);
        check_tiling(TILING_YS, bpes[i]);
    }
    /* a few by hand: Y-tile byte 16 of row 0 is the second OWord column (offset 512);
     * X-tile row 1 starts 512 bytes in; W-tile (1, 0) is byte 1, (0, 1) byte 2 */
    CU_ASSERT_TRUE(tiling_offset(TILING_Y, 4, 256, 16, 0, &off));
    CU_ASSERT_EQUAL(off, 512);
    CU_ASSERT_TRUE(tiling_offset(TILING_Y, 4, 256, 128, 0, &off));
    CU_ASSERT_EQUAL(off, 4096);
    CU_ASSERT_TRUE(tiling_offset(TILING_Y, 4, 256, 0, 32, &off));
    CU_ASSERT_EQUAL(off, 8192);
    CU_ASSERT_TRUE(tiling_offset(TILING_X, 4, 1024, 0, 1, &off));
    CU_ASSERT_EQUAL(off, 512);
    CU_ASSERT_TRUE(tiling_offset(TILING_W, 1, 128, 0, 1, &off));
    CU_ASSERT_EQUAL(off, 2);
    CU_ASSERT_TRUE(tiling_offset(TILING_W, 1, 128, 8, 0, &off));
    CU_ASSERT_EQUAL(off, 512);
    CU_ASSERT_STRING_EQUAL(tiling_name(TILING_YS), "Ys");
}

/* ---- decode -------------------------------------------------------------------- */

static void test_decode_gen4(void)
{
    struct GEN4_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN4_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_2D;
    v.SurfaceFormat = 0x0C7;
    v.SurfaceBaseAddress = 0x123000;
    v.Width = 99, v.Height = 49, v.MIPCountLOD = 3, v.SurfaceMinLOD = 1;
    v.TiledSurface = 1, v.TileWalk = GEN4_RENDER_SURFACE_STATE_TileWalk_TILEWALK_YMAJOR;
    v.SurfacePitch = 511, v.Depth = 2, v.MinimumArrayElement = 1, v.RenderTargetViewExtent = 2;
    v.MIPMapLayoutMode = GEN4_RENDER_SURFACE_STATE_MIPMapLayoutMode_MIPLAYOUT_RIGHT;
    uint32_t dw[5];
    CU_ASSERT_EQUAL_FATAL(GEN4_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(4, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_2D);
    CU_ASSERT_EQUAL(s.format, 0x0C7);
    CU_ASSERT_EQUAL(s.element_bytes, 4);
    CU_ASSERT_EQUAL(s.base_address, 0x123000);
    CU_ASSERT_EQUAL(s.width, 100);
    CU_ASSERT_EQUAL(s.height, 50);
    CU_ASSERT_EQUAL(s.array_length, 3);
    CU_ASSERT_EQUAL(s.levels, 4);
    CU_ASSERT_EQUAL(s.min_lod, 1);
    CU_ASSERT_EQUAL(s.min_array_element, 1);
    CU_ASSERT_EQUAL(s.render_target_view_extent, 3);
    CU_ASSERT_EQUAL(s.pitch, 512);
    CU_ASSERT_EQUAL(s.tiling, TILING_Y);
    CU_ASSERT_EQUAL(s.mip_layout, SURFACE_MIP_RIGHT);
    CU_ASSERT_EQUAL(s.halign, 4);
    CU_ASSERT_EQUAL(s.valign, 2);
    CU_ASSERT_EQUAL(s.samples, 1);
    /* QPitch = h0 + h1 + 11j, j = 2: 50 + 26 + 22 */
    CU_ASSERT_EQUAL(s.qpitch, 98);
}

/* g965_tri.structs.gz: the render target's state and aubinator's decode of it */
static void test_decode_gen4_capture(void)
{
    const uint32_t dw[5] = { 0x231c003f, 0x00023000, 0x01f80fc0, 0x00000ffa, 0x00000000 };
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(4, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_2D);
    CU_ASSERT_EQUAL(s.format, 199);
    CU_ASSERT_EQUAL(s.base_address, 0x23000);
    CU_ASSERT_EQUAL(s.width, 64);
    CU_ASSERT_EQUAL(s.height, 64);
    CU_ASSERT_EQUAL(s.tiling, TILING_X);
    CU_ASSERT_EQUAL(s.pitch, 512);
    CU_ASSERT_EQUAL(s.levels, 1);
    CU_ASSERT_EQUAL(s.cube_face_enables, 0x3F);
    CU_ASSERT_EQUAL(s.mip_layout, SURFACE_MIP_BELOW);
    uint64_t a;
    /* pixel (10, 9): byte 40 of row 9 = tile row 1 (4 KiB), row 1 of it (512) */
    CU_ASSERT_EQUAL(surface_address(&s, 10, 9, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 0x23000 + 4096 + 512 + 40);
}

static void test_decode_gen7(void)
{
    struct GEN7_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN7_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_2D;
    v.SurfaceFormat = 0x085;    /* R32G32_FLOAT */
    v.SurfaceBaseAddress = 0x40000;
    v.Width = 31, v.Height = 15, v.Depth = 3, v.SurfacePitch = 255, v.SurfaceArray = true;
    v.TiledSurface = true, v.TileWalk = GEN7_RENDER_SURFACE_STATE_TileWalk_TILEWALK_YMAJOR;
    v.SurfaceHorizontalAlignment = GEN7_RENDER_SURFACE_STATE_SurfaceHorizontalAlignment_HALIGN_8;
    v.SurfaceVerticalAlignment = GEN7_RENDER_SURFACE_STATE_SurfaceVerticalAlignment_VALIGN_4;
    v.NumberOfMultisamples = GEN7_RENDER_SURFACE_STATE_NumberOfMultisamples_MULTISAMPLECOUNT_4;
    v.MultisampledSurfaceStorageFormat = GEN7_RENDER_SURFACE_STATE_MultisampledSurfaceStorageFormat_MSFMT_MSS;
    v.MinimumArrayElement = 2, v.RenderTargetViewExtent = 1, v.XOffset = 2, v.YOffset = 3;
    v.MCSEnable = true, v.AuxiliarySurfacePitch = 7, v.AuxiliarySurfaceBaseAddress = 0x90000;
    uint32_t dw[8];
    CU_ASSERT_EQUAL_FATAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(7, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.element_bytes, 8);
    CU_ASSERT_EQUAL(s.array_length, 4);
    CU_ASSERT_TRUE(s.surface_array);
    CU_ASSERT_EQUAL(s.halign, 8);
    CU_ASSERT_EQUAL(s.valign, 4);
    CU_ASSERT_EQUAL(s.samples, 4);
    CU_ASSERT_EQUAL(s.msaa_layout, SURFACE_MSAA_ARRAY);
    CU_ASSERT_EQUAL(s.x_offset, 8);
    CU_ASSERT_EQUAL(s.y_offset, 6);
    CU_ASSERT_EQUAL(s.aux_mode, SURFACE_AUX_MCS);
    CU_ASSERT_EQUAL(s.aux_address, 0x90000);
    CU_ASSERT_EQUAL(s.aux_pitch, 8);
    /* h0 = 16, h1 = 8, j = 4: 16 + 8 + 48 */
    CU_ASSERT_EQUAL(s.qpitch, 72);
}

/* byt_tri.structs.gz (Gen7, Bay Trail) */
static void test_decode_gen7_capture(void)
{
    const uint32_t dw[8] = { 0x331d643f, 0x00023000, 0x003f003f, 0x000000ff,
                             0x00000000, 0x00010000, 0x00027001, 0x00000000 };
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(7, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_2D);
    CU_ASSERT_EQUAL(s.format, 199);
    CU_ASSERT_EQUAL(s.tiling, TILING_Y);
    CU_ASSERT_EQUAL(s.halign, 4);
    CU_ASSERT_EQUAL(s.valign, 4);
    CU_ASSERT_TRUE(s.array_spacing_lod0);
    CU_ASSERT_TRUE(s.surface_array);
    CU_ASSERT_EQUAL(s.pitch, 256);
    CU_ASSERT_EQUAL(s.width, 64);
    CU_ASSERT_EQUAL(s.base_address, 0x23000);
    CU_ASSERT_EQUAL(s.aux_mode, SURFACE_AUX_MCS);
    CU_ASSERT_EQUAL(s.aux_address, 0x27000);
    CU_ASSERT_EQUAL(s.qpitch, 64);      /* ARYSPC_LOD0: h0 */
    /* the second surface of that capture is SURFTYPE_NULL */
    const uint32_t null_dw[8] = { 0xf31c4000, 0, 0x003f003f, 0, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(surface_from_state(7, null_dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_NULL);
    uint64_t a;
    CU_ASSERT_EQUAL(surface_address(&s, 0, 0, 0, 0, 0, &a), SURFACE_NOT_ADDRESSABLE);
}

static void test_decode_gen8(void)
{
    struct GEN8_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN8_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_CUBE;
    v.SurfaceFormat = 0x0C0;
    v.SurfaceBaseAddress = 0x1234567000ull;
    v.Width = 63, v.Height = 63, v.Depth = 1, v.SurfacePitch = 511, v.SurfaceArray = true;
    v.TileMode = GEN8_RENDER_SURFACE_STATE_TileMode_WMAJOR;
    v.SurfaceHorizontalAlignment = GEN8_RENDER_SURFACE_STATE_SurfaceHorizontalAlignment_HALIGN_16;
    v.SurfaceVerticalAlignment = GEN8_RENDER_SURFACE_STATE_SurfaceVerticalAlignment_VALIGN_8;
    v.SurfaceQPitch = 100 >> 2, v.BaseMipLevel = 1.5, v.MIPCountLOD = 6;
    v.AuxiliarySurfaceMode = GEN8_RENDER_SURFACE_STATE_AuxiliarySurfaceMode_AUX_HIZ;
    v.AuxiliarySurfaceBaseAddress = 0x55000, v.AuxiliarySurfacePitch = 3, v.AuxiliarySurfaceQPitch = 9;
    v.CubeFaceEnablePositiveX = true, v.CubeFaceEnableNegativeZ = true;
    uint32_t dw[16];
    CU_ASSERT_EQUAL_FATAL(GEN8_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(8, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_CUBE);
    CU_ASSERT_EQUAL(s.base_address, 0x1234567000ull);
    CU_ASSERT_EQUAL(s.array_length, 12);
    CU_ASSERT_EQUAL(s.tiling, TILING_W);
    CU_ASSERT_EQUAL(s.halign, 16);
    CU_ASSERT_EQUAL(s.valign, 8);
    CU_ASSERT_EQUAL(s.qpitch, 100);
    CU_ASSERT_EQUAL(s.base_mip_half, 3);
    CU_ASSERT_EQUAL(s.levels, 7);
    CU_ASSERT_EQUAL(s.aux_mode, SURFACE_AUX_HIZ);
    CU_ASSERT_EQUAL(s.aux_address, 0x55000);
    CU_ASSERT_EQUAL(s.aux_pitch, 4);
    CU_ASSERT_EQUAL(s.aux_qpitch, 36);
    CU_ASSERT_EQUAL(s.cube_face_enables, 0x12);
}

/* bdw_tri.structs.gz (Gen8) render target, dwords 0-11 as captured (aubinator
 * shows no more; 12-15 hold no field read here) */
static void test_decode_gen8_capture(void)
{
    const uint32_t dw[16] = { 0x331df03f, 0x78000010, 0x003f003f, 0x000000ff, 0, 0,
                              0x00200001, 0x09770000, 0xffc00000, 0xfffffffe, 0xffc04000,
                              0xfffffffe };
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(8, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_2D);
    CU_ASSERT_EQUAL(s.format, 199);
    CU_ASSERT_EQUAL(s.tiling, TILING_Y);
    CU_ASSERT_EQUAL(s.halign, 16);
    CU_ASSERT_EQUAL(s.valign, 4);
    CU_ASSERT_TRUE(s.surface_array);
    CU_ASSERT_EQUAL(s.qpitch, 64);
    CU_ASSERT_EQUAL(s.width, 64);
    CU_ASSERT_EQUAL(s.height, 64);
    CU_ASSERT_EQUAL(s.pitch, 256);
    CU_ASSERT_EQUAL(s.aux_mode, SURFACE_AUX_MCS);
    CU_ASSERT_EQUAL(s.aux_pitch, 1);
    CU_ASSERT_EQUAL(s.aux_qpitch, 128);     /* Auxiliary Surface QPitch 32 */
    CU_ASSERT_EQUAL(s.base_address, 0xfffffffeffc00000ull);
    CU_ASSERT_EQUAL(s.aux_address, 0xfffffffeffc04000ull);
    uint64_t a;
    /* pixel (33, 2): byte 132 = OWord column 8 = the second Y tile */
    CU_ASSERT_EQUAL(surface_offset(&s, 33, 2, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 4096 + 2 * 16 + 4);
}

/* skl_tri.structs.gz (Gen9) render target and skl_compute's buffer */
static void test_decode_gen9_capture(void)
{
    const uint32_t rt[16] = { 0x331df03f, 0x04000010, 0x003f003f, 0x000000ff, 0, 0x00000f00,
                              0x00400005, 0x09770000, 0xffc00000, 0xfffffffe, 0xffc04000,
                              0xfffffffe, 0, 0, 0x3e808081, 0x3f800000 };
    struct surface s;
    CU_ASSERT_EQUAL(surface_from_state(9, rt, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_2D);
    CU_ASSERT_EQUAL(s.tiling, TILING_Y);
    CU_ASSERT_EQUAL(s.halign, 16);
    CU_ASSERT_EQUAL(s.valign, 4);
    CU_ASSERT_EQUAL(s.qpitch, 64);      /* Surface QPitch 16 = QPitch[16:2] */
    CU_ASSERT_EQUAL(s.pitch, 256);
    CU_ASSERT_EQUAL(s.mip_tail_start, 15);
    CU_ASSERT_EQUAL(s.aux_mode, SURFACE_AUX_CCS_E);
    CU_ASSERT_EQUAL(s.base_address, 0xfffffffeffc00000ull);
    CU_ASSERT_EQUAL(s.aux_address, 0xfffffffeffc04000ull);
    const uint32_t buf[16] = { 0x87fd4000, 0x04000000, 0x001f007f, 0, 0, 0, 0, 0x09770000,
                               0xfffdc000, 0xfffffffe };
    CU_ASSERT_EQUAL(surface_from_state(9, buf, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.type, SURFACE_BUFFER);
    CU_ASSERT_EQUAL(s.format, 511);
    /* entries - 1 = Height 31 << 7 | Width 127 */
    CU_ASSERT_EQUAL(s.buffer_entries, 4096);
    uint64_t a;
    CU_ASSERT_EQUAL(surface_offset(&s, 4095, 0, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 4095);
    CU_ASSERT_EQUAL(surface_offset(&s, 4096, 0, 0, 0, 0, &a), SURFACE_OUT_OF_BOUNDS);
}

/* Buffers: entries element_bytes apart; structured buffers: structure x at
 * x * pitch, byte y inside it (bounds U < entries, V < pitch, 003 L5092-5120) */
static void test_address_buffers(void)
{
    struct GEN8_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN8_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_BUFFER;
    v.SurfaceFormat = 0x000;    /* 16-byte entries */
    v.Width = 0x7F, v.Height = 1, v.Depth = 0, v.SurfaceBaseAddress = 0x8000;
    uint32_t dw[16];
    CU_ASSERT_EQUAL_FATAL(GEN8_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL_FATAL(surface_from_state(8, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.buffer_entries, 256);
    uint64_t a;
    CU_ASSERT_EQUAL(surface_address(&s, 255, 0, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 0x8000 + 255 * 16);
    CU_ASSERT_EQUAL(surface_address(&s, 256, 0, 0, 0, 0, &a), SURFACE_OUT_OF_BOUNDS);
    v.SurfaceType = GEN8_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_STRBUF;
    v.SurfaceFormat = 0x1FF, v.SurfacePitch = 31, v.Width = 9, v.Height = 0;
    CU_ASSERT_EQUAL_FATAL(GEN8_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL_FATAL(surface_from_state(8, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(surface_offset(&s, 3, 5, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 3 * 32 + 5);
    CU_ASSERT_EQUAL(surface_offset(&s, 3, 32, 0, 0, 0, &a), SURFACE_OUT_OF_BOUNDS);
    CU_ASSERT_EQUAL(surface_offset(&s, 10, 0, 0, 0, 0, &a), SURFACE_OUT_OF_BOUNDS);
    v.TileMode = GEN8_RENDER_SURFACE_STATE_TileMode_YMAJOR;    /* buffers are never tiled */
    CU_ASSERT_EQUAL_FATAL(GEN8_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL(surface_from_state(8, dw, &s), SURFACE_RESERVED);
}

/* ---- Gen9 states for the address tests ----------------------------------------- */

struct gen9_desc {
    uint32_t type, format, width, height, depth, pitch, levels, qpitch;
    uint32_t tile_mode, tr_mode, halign_code, valign_code, samples_code, msfmt;
};

static void pack9(const struct gen9_desc *d, struct surface *s)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = d->type, v.SurfaceFormat = d->format;
    v.Width = d->width - 1, v.Height = d->height - 1, v.Depth = d->depth - 1;
    v.SurfacePitch = d->pitch - 1, v.MIPCountLOD = d->levels - 1, v.SurfaceQPitch = d->qpitch >> 2;
    v.SurfaceArray = d->depth > 1;
    v.TileMode = d->tile_mode, v.TiledResourceMode = d->tr_mode;
    v.SurfaceHorizontalAlignment = d->halign_code ? d->halign_code : 1;
    v.SurfaceVerticalAlignment = d->valign_code ? d->valign_code : 1;
    v.NumberOfMultisamples = d->samples_code, v.MultisampledSurfaceStorageFormat = d->msfmt;
    v.MipTailStartLOD = 15;
    v.SurfaceBaseAddress = 0x100000;
    uint32_t dw[16];
    CU_ASSERT_EQUAL_FATAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL_FATAL(surface_from_state(9, dw, s), SURFACE_OK);
}

static uint32_t align_to(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static uint32_t minify(uint32_t v, uint32_t l)
{
    return v >> l ? v >> l : 1;
}

/* The 2D mip layout as a cursor: LOD 0 at (0,0); step down by its height; after
 * LOD 1 step right by its width instead; afterwards keep stepping down. */
static void ref_lod_xy(uint32_t w0, uint32_t h0, uint32_t ha, uint32_t va, uint32_t lod,
                       uint32_t *x, uint32_t *y)
{
    uint32_t cx = 0, cy = 0;
    for (uint32_t l = 0; l < lod; l++) {
        if (l == 1)
            cx += align_to(minify(w0, l), ha);
        else
            cy += align_to(minify(h0, l), va);
    }
    *x = cx, *y = cy;
}

static unsigned count_mismatches_2d(const struct surface *s, enum tiling t, unsigned bpe,
                                    uint32_t ha, uint32_t va, uint32_t qpitch)
{
    unsigned bad = 0;
    for (uint32_t slice = 0; slice < s->array_length; slice++)
        for (uint32_t lod = 0; lod < s->levels; lod++) {
            uint32_t lx, ly;
            ref_lod_xy(s->width, s->height, ha, va, lod, &lx, &ly);
            for (uint32_t y = 0; y < minify(s->height, lod); y += 3)
                for (uint32_t x = 0; x < minify(s->width, lod); x += 5) {
                    uint64_t got, want = ref_tiled(t, bpe, s->pitch, (uint64_t)(lx + x) * bpe,
                                                   ly + y + (uint64_t)slice * qpitch);
                    if (surface_offset(s, x, y, slice, lod, 0, &got) != SURFACE_OK || got != want)
                        bad++;
                }
        }
    return bad;
}

/* 2D arrays with mips, every tiling and several element sizes */
static void test_address_2d_mips(void)
{
    static const struct { uint32_t format, bpe, tile_mode; enum tiling t; } cases[] = {
        { 0x0C7, 4, 3, TILING_Y }, { 0x140, 1, 3, TILING_Y }, { 0x000, 16, 2, TILING_X },
        { 0x106, 2, 0, TILING_LINEAR }, { 0x085, 8, 3, TILING_Y }, { 0x140, 1, 1, TILING_W },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gen9_desc d = { .type = 1, .format = cases[i].format, .width = 77, .height = 45,
                               .depth = 3, .pitch = 4096, .levels = 7, .qpitch = 96,
                               .tile_mode = cases[i].tile_mode, .halign_code = 2,
                               .valign_code = 1 };
        struct surface s;
        pack9(&d, &s);
        CU_ASSERT_EQUAL(s.tiling, cases[i].t);
        CU_ASSERT_EQUAL(count_mismatches_2d(&s, cases[i].t, cases[i].bpe, 8, 4, 96), 0);
    }
}

/* Gen9 cube array: face f of cube c is slice 6c + f */
static void test_address_cube(void)
{
    struct gen9_desc d = { .type = 3, .format = 0x0C7, .width = 32, .height = 32, .depth = 2,
                           .pitch = 256, .levels = 1, .qpitch = 32, .tile_mode = 3,
                           .halign_code = 1, .valign_code = 1 };
    struct surface s;
    pack9(&d, &s);
    CU_ASSERT_EQUAL(s.array_length, 12);
    for (uint32_t face = 0; face < 12; face++) {
        uint64_t got;
        CU_ASSERT_EQUAL(surface_offset(&s, 5, 7, face, 0, 0, &got), SURFACE_OK);
        CU_ASSERT_EQUAL(got, ref_tiled(TILING_Y, 4, 256, 20, 7 + 32ull * face));
    }
    uint64_t got;
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 12, 0, 0, &got), SURFACE_OUT_OF_BOUNDS);
}

/* Gen9 3D: the 2D layout, z as slice at QPitch; Gen7 3D: 2^lod slices per row */
static void test_address_3d(void)
{
    struct gen9_desc d = { .type = 2, .format = 0x0C7, .width = 16, .height = 16, .depth = 8,
                           .pitch = 128, .levels = 3, .qpitch = 64, .tile_mode = 3,
                           .halign_code = 1, .valign_code = 1 };
    struct surface s;
    pack9(&d, &s);
    uint64_t got;
    CU_ASSERT_EQUAL(s.depth, 8);
    CU_ASSERT_EQUAL(surface_offset(&s, 1, 2, 3, 1, 0, &got), SURFACE_OK);
    /* LOD 1 at (0, 16); z = 3 at 3 * 64 rows (LOD 1 has 4 slices) */
    CU_ASSERT_EQUAL(got, ref_tiled(TILING_Y, 4, 128, 4, 16 + 2 + 3 * 64));
    CU_ASSERT_EQUAL(surface_offset(&s, 1, 2, 7, 0, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, ref_tiled(TILING_Y, 4, 128, 4, 2 + 7 * 64));
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 4, 1, 0, &got), SURFACE_OUT_OF_BOUNDS);

    struct GEN7_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN7_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_3D;
    v.SurfaceFormat = 0x0C7, v.Width = 15, v.Height = 11, v.Depth = 4, v.SurfacePitch = 511;
    v.MIPCountLOD = 3, v.TiledSurface = true, v.TileWalk = 1;
    v.SurfaceVerticalAlignment = GEN7_RENDER_SURFACE_STATE_SurfaceVerticalAlignment_VALIGN_4;
    uint32_t dw[8];
    CU_ASSERT_EQUAL_FATAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL_FATAL(surface_from_state(7, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.mip_layout, SURFACE_MIP_3D);
    unsigned bad = 0;
    uint32_t base_y = 0;
    for (uint32_t lod = 0; lod < 4; lod++) {
        uint32_t w = align_to(minify(16, lod), 4), h = align_to(minify(12, lod), 4);
        uint32_t d_l = minify(5, lod), per_row = 1u << lod;
        for (uint32_t q = 0; q < d_l; q++) {
            uint32_t sx = (q % per_row) * w, sy = base_y + (q / per_row) * h;
            uint64_t want = ref_tiled(TILING_Y, 4, 512, (uint64_t)(sx + 1) * 4, sy);
            if (minify(16, lod) < 2 || surface_offset(&s, 1, 0, q, lod, 0, &got) != SURFACE_OK ||
                got != want)
                bad += minify(16, lod) >= 2;
        }
        base_y += h * ((d_l + per_row - 1) / per_row);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* Gen4 cube maps are stored like 3D surfaces of depth 6 (isl, G45 PRM 6.17.4.1) */
static void test_address_gen4_cube(void)
{
    struct GEN4_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN4_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_CUBE;
    v.SurfaceFormat = 0x0C7, v.Width = 7, v.Height = 7, v.SurfacePitch = 127, v.MIPCountLOD = 2;
    uint32_t dw[5];
    CU_ASSERT_EQUAL_FATAL(GEN4_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL_FATAL(surface_from_state(4, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.array_length, 6);
    uint64_t got;
    /* LOD 0: 6 rows of one 8x8 face; LOD 1: 2 faces per row (4 wide, 4 high): face 3 at (4, 48 + 4) */
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 5, 0, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, 40ull * 128);
    CU_ASSERT_EQUAL(surface_offset(&s, 1, 1, 3, 1, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, (48ull + 4 + 1) * 128 + (4 + 1) * 4);
    /* LOD 2: 2x2 padded to 4x2, 4 per row: face 5 is row 1, column 1 */
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 5, 2, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, (48ull + 12 + 2) * 128 + 4 * 4);
}

/* Gen4 MIPLAYOUT_RIGHT: LOD 1 to the right of LOD 0, LOD 2 below LOD 1 */
static void test_address_gen4_right(void)
{
    struct GEN4_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = GEN4_RENDER_SURFACE_STATE_SurfaceType_SURFTYPE_2D;
    v.SurfaceFormat = 0x140, v.Width = 15, v.Height = 15, v.SurfacePitch = 63, v.MIPCountLOD = 3;
    v.MIPMapLayoutMode = GEN4_RENDER_SURFACE_STATE_MIPMapLayoutMode_MIPLAYOUT_RIGHT;
    uint32_t dw[5];
    CU_ASSERT_EQUAL_FATAL(GEN4_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL_FATAL(surface_from_state(4, dw, &s), SURFACE_OK);
    uint64_t got;
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 0, 1, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, 16);
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 0, 2, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, 8 * 64 + 16);
    CU_ASSERT_EQUAL(surface_offset(&s, 0, 0, 0, 3, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, 12 * 64 + 16);
}

/* Gen9 linear 1D: LODs along one row aligned to 64 elements, slices QPitch apart */
static void test_address_gen9_1d(void)
{
    struct gen9_desc d = { .type = 0, .format = 0x10A, .width = 100, .height = 1, .depth = 4,
                           .pitch = 64, .levels = 4, .qpitch = 256, .tile_mode = 0 };
    struct surface s;
    pack9(&d, &s);
    CU_ASSERT_EQUAL(s.mip_layout, SURFACE_MIP_1D);
    uint64_t got;
    /* LOD 2 starts after 128 + 64 elements; slice 3 at 3 * 256 */
    CU_ASSERT_EQUAL(surface_offset(&s, 7, 0, 3, 2, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, (3 * 256 + 128 + 64 + 7) * 2);
    CU_ASSERT_EQUAL(surface_offset(&s, 7, 1, 3, 2, 0, &got), SURFACE_OUT_OF_BOUNDS);
    CU_ASSERT_EQUAL(surface_offset(&s, 25, 0, 0, 2, 0, &got), SURFACE_OUT_OF_BOUNDS);
}

/* blorp's encode_msaa for interleaved surfaces, written as in its comment */
static void ref_ims(uint32_t n, uint32_t x, uint32_t y, uint32_t s, uint32_t *xo, uint32_t *yo)
{
    switch (n) {
    case 2: *xo = (x & ~1u) << 1 | (s & 1) << 1 | (x & 1); *yo = y; break;
    case 4: *xo = (x & ~1u) << 1 | (s & 1) << 1 | (x & 1);
            *yo = (y & ~1u) << 1 | (s & 2) | (y & 1); break;
    case 8: *xo = (x & ~1u) << 2 | (s & 4) | (s & 1) << 1 | (x & 1);
            *yo = (y & ~1u) << 1 | (s & 2) | (y & 1); break;
    default: *xo = (x & ~1u) << 2 | (s & 4) | (s & 1) << 1 | (x & 1);
             *yo = (y & ~1u) << 2 | (s & 8) >> 1 | (s & 2) | (y & 1); break;
    }
}

static void test_address_msaa(void)
{
    static const uint32_t counts[4] = { 2, 4, 8, 16 };
    for (unsigned k = 0; k < 4; k++) {
        /* interleaved (MSFMT_DEPTH_STENCIL), Y tiled, 32 bpp */
        struct gen9_desc d = { .type = 1, .format = 0x0D8, .width = 20, .height = 10, .depth = 2,
                               .pitch = 512, .levels = 1, .qpitch = 128, .tile_mode = 3,
                               .samples_code = k + 1, .msfmt = 1 };
        struct surface s;
        pack9(&d, &s);
        CU_ASSERT_EQUAL(s.samples, counts[k]);
        CU_ASSERT_EQUAL(s.msaa_layout, SURFACE_MSAA_INTERLEAVED);
        unsigned bad = 0;
        for (uint32_t smp = 0; smp < counts[k]; smp++)
            for (uint32_t y = 0; y < 10; y++)
                for (uint32_t x = 0; x < 20; x++) {
                    uint32_t px, py;
                    uint64_t got;
                    ref_ims(counts[k], x, y, smp, &px, &py);
                    uint64_t want = ref_tiled(TILING_Y, 4, 512, px * 4ull, py + 128);
                    bad += surface_offset(&s, x, y, 1, 0, smp, &got) != SURFACE_OK || got != want;
                }
        CU_ASSERT_EQUAL(bad, 0);
        /* MSS: sample s of slice a is physical slice a * n + s */
        d.msfmt = 0;
        pack9(&d, &s);
        CU_ASSERT_EQUAL(s.msaa_layout, SURFACE_MSAA_ARRAY);
        uint64_t got;
        uint32_t last = counts[k] - 1;
        CU_ASSERT_EQUAL(surface_offset(&s, 3, 4, 1, 0, last, &got), SURFACE_OK);
        CU_ASSERT_EQUAL(got, ref_tiled(TILING_Y, 4, 512, 12, 4 + 128ull * (counts[k] + last)));
        CU_ASSERT_EQUAL(surface_offset(&s, 3, 4, 1, 0, counts[k], &got), SURFACE_OUT_OF_BOUNDS);
    }
}

/* Yf / Ys 2D: each LOD aligned to the tile's shape in elements */
static void test_address_yf_ys(void)
{
    static const struct { uint32_t format, bpe, tr; enum tiling t; uint32_t ha, va; } cases[] = {
        { 0x0C7, 4, 1, TILING_YF, 32, 32 }, { 0x140, 1, 1, TILING_YF, 64, 64 },
        { 0x000, 16, 2, TILING_YS, 64, 64 }, { 0x106, 2, 2, TILING_YS, 256, 128 },
        { 0x085, 8, 1, TILING_YF, 32, 16 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t pitch = 4 * cases[i].ha * cases[i].bpe;
        struct gen9_desc d = { .type = 1, .format = cases[i].format, .width = 70, .height = 40,
                               .depth = 2, .pitch = pitch, .levels = 3,
                               .qpitch = 8 * cases[i].va, .tile_mode = 3, .tr_mode = cases[i].tr };
        struct surface s;
        pack9(&d, &s);
        CU_ASSERT_EQUAL(s.tiling, cases[i].t);
        CU_ASSERT_EQUAL(s.halign, cases[i].ha);
        CU_ASSERT_EQUAL(s.valign, cases[i].va);
        CU_ASSERT_EQUAL(count_mismatches_2d(&s, cases[i].t, cases[i].bpe, cases[i].ha, cases[i].va,
                                            8 * cases[i].va), 0);
    }
}

/* Gen7 2D array with mips: QPitch from the formula, X/Y Offset added */
static void test_address_gen7_array(void)
{
    struct GEN7_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1, v.SurfaceFormat = 0x0C7, v.Width = 40, v.Height = 30, v.Depth = 2;
    v.SurfacePitch = 1023, v.MIPCountLOD = 4, v.SurfaceArray = true;
    v.TiledSurface = true, v.TileWalk = 0;      /* X */
    v.SurfaceHorizontalAlignment = 1, v.SurfaceVerticalAlignment = 0;      /* 8 x 2 */
    uint32_t dw[8];
    CU_ASSERT_EQUAL_FATAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    struct surface s;
    CU_ASSERT_EQUAL_FATAL(surface_from_state(7, dw, &s), SURFACE_OK);
    uint32_t q = align_to(31, 2) + align_to(15, 2) + 12 * 2;
    CU_ASSERT_EQUAL(s.qpitch, q);
    CU_ASSERT_EQUAL(count_mismatches_2d(&s, TILING_X, 4, 8, 2, q), 0);
    v.XOffset = 1, v.YOffset = 2;       /* 4 pixels right, 4 rows down */
    CU_ASSERT_EQUAL_FATAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL_FATAL(surface_from_state(7, dw, &s), SURFACE_OK);
    uint64_t got;
    CU_ASSERT_EQUAL(surface_address(&s, 1, 1, 1, 0, 0, &got), SURFACE_OK);
    CU_ASSERT_EQUAL(got, ref_tiled(TILING_X, 4, 1024, 5 * 4, 5 + q));
}

/* ---- bad states ------------------------------------------------------------------ */

static void test_reserved_encodings(void)
{
    struct surface s;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(surface_from_state(5, dw, &s), SURFACE_BAD_GEN);
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1, v.SurfaceFormat = 0x0C7, v.SurfacePitch = 127;
    v.SurfaceHorizontalAlignment = 1, v.SurfaceVerticalAlignment = 1;
    CU_ASSERT_EQUAL_FATAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_OK);
    v.SurfaceHorizontalAlignment = 0;           /* reserved */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_RESERVED);
    v.SurfaceType = 0;                          /* ... but ignored for Gen9 1D */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_OK);
    v.SurfaceType = 1;
    v.SurfaceHorizontalAlignment = 1, v.TileMode = 2, v.TiledResourceMode = 1;  /* Yf needs Y */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_RESERVED);
    v.TileMode = 3, v.TiledResourceMode = 3;    /* reserved */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_RESERVED);
    v.TiledResourceMode = 1, v.SurfaceType = 2;     /* Yf 3D: not modelled */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_UNSUPPORTED);
    v.TiledResourceMode = 0, v.SurfaceType = 6;     /* reserved type */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_RESERVED);
    v.SurfaceType = 1, v.SurfacePitch = 99;         /* Y tiled pitch not whole tiles */
    GEN9_RENDER_SURFACE_STATE_pack(dw, &v);
    CU_ASSERT_EQUAL(surface_from_state(9, dw, &s), SURFACE_RESERVED);
    uint64_t a;
    CU_ASSERT_EQUAL(surface_address(&s, 0, 0, 0, 0, 0, &a), SURFACE_NOT_ADDRESSABLE);
    /* Gen7 has no 2x MSAA */
    struct GEN7_RENDER_SURFACE_STATE v7 = { 0 };
    v7.SurfaceType = 1, v7.NumberOfMultisamples = 1;
    GEN7_RENDER_SURFACE_STATE_pack(dw, &v7);
    CU_ASSERT_EQUAL(surface_from_state(7, dw, &s), SURFACE_RESERVED);
    /* a format the formats table lacks (0x0D5): addresses wait for
     * surface_set_element */
    v7.NumberOfMultisamples = 0, v7.SurfaceFormat = 0x0D5, v7.Width = 15, v7.Height = 15;
    v7.SurfacePitch = 63;
    GEN7_RENDER_SURFACE_STATE_pack(dw, &v7);
    CU_ASSERT_EQUAL(surface_from_state(7, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(surface_offset(&s, 4, 4, 0, 0, 0, &a), SURFACE_NO_ELEMENT_SIZE);
    surface_set_element(&s, 8, 4, 4);       /* a BC1-like 4x4 block of 8 bytes */
    CU_ASSERT_EQUAL(surface_offset(&s, 5, 9, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 2 * 64 + 1 * 8);
    /* BC1_UNORM (0x186) is sized by the formats table: 8 bytes a 4x4 block
     * (S3TC: two 16-bit colours and 16 2-bit indices) */
    v7.SurfaceFormat = 0x186;
    GEN7_RENDER_SURFACE_STATE_pack(dw, &v7);
    CU_ASSERT_EQUAL(surface_from_state(7, dw, &s), SURFACE_OK);
    CU_ASSERT_EQUAL(s.element_bytes, 8);
    CU_ASSERT_EQUAL(s.block_width, 4);
    CU_ASSERT_EQUAL(s.block_height, 4);
    CU_ASSERT_EQUAL(surface_offset(&s, 5, 9, 0, 0, 0, &a), SURFACE_OK);
    CU_ASSERT_EQUAL(a, 2 * 64 + 1 * 8);
    CU_ASSERT_STRING_EQUAL(surface_status_name(SURFACE_RESERVED), "reserved encoding");
}

static uint32_t xorshift(uint32_t *st)
{
    uint32_t x = *st;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *st = x;
}

/* Random dwords: any status, never a crash; decoded surfaces answer every
 * address query with a status. */
static void test_garbage_states(void)
{
    static const unsigned gens[4] = { 4, 7, 8, 9 };
    uint32_t st = 0x2545F491;
    unsigned ok = 0, addressed = 0;
    for (unsigned i = 0; i < 40000; i++) {
        uint32_t dw[16];
        for (unsigned k = 0; k < 16; k++)
            dw[k] = xorshift(&st);
        if (i & 1)      /* keep small sizes often so that addresses get computed */
            dw[2] &= 0x00FF00FF, dw[3] &= 0x0FE000FF;
        struct surface s;
        enum surface_status r = surface_from_state(gens[i % 4], dw, &s);
        CU_ASSERT(r == SURFACE_OK || r == SURFACE_RESERVED || r == SURFACE_UNSUPPORTED);
        ok += r == SURFACE_OK;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t a;
            uint32_t c = xorshift(&st);
            enum surface_status q = surface_address(&s, c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xF,
                                                    c >> 20 & 0xF, c >> 24 & 0xF, &a);
            addressed += q == SURFACE_OK;
            if (k == 0) {
                uint64_t x, y;
                surface_lod_origin(&s, c >> 20 & 0xF, c >> 16 & 0xF, &x, &y);
            }
        }
    }
    CU_ASSERT(ok > 0);
    CU_ASSERT(addressed > 0);
}

/* MCS encodings (units/common/surface.h): element bytes 1/1/4/8 for 2x/4x/8x/16x
 * (seed 003 L4195: R8_UINT, R32_UINT, R32G32_UINT); the uncompressed value has
 * sample s's log2(samples)-bit entry = s (Mesa's get_mcs_ambiguate_pixel),
 * written out by hand: 2x 0b10, 4x 0b11100100, 8x 111 110 101 100 011 010 001
 * 000, 16x the nibbles F..0; the cleared value is all ones and 2x only looks
 * at its low 2 bits (blorp_nir_mcs_is_clear_color). */
static void test_mcs_encodings(void)
{
    CU_ASSERT_EQUAL(surface_mcs_element_bytes(2), 1);
    CU_ASSERT_EQUAL(surface_mcs_element_bytes(4), 1);
    CU_ASSERT_EQUAL(surface_mcs_element_bytes(8), 4);
    CU_ASSERT_EQUAL(surface_mcs_element_bytes(16), 8);
    CU_ASSERT_EQUAL(surface_mcs_uncompressed(2), 0x2u);
    CU_ASSERT_EQUAL(surface_mcs_uncompressed(4), 0xe4u);
    CU_ASSERT_EQUAL(surface_mcs_uncompressed(8), 0xfac688u);
    CU_ASSERT_EQUAL(surface_mcs_uncompressed(16), 0xfedcba9876543210ull);
    CU_ASSERT_EQUAL(surface_mcs_cleared(4), 0xffu);
    CU_ASSERT_EQUAL(surface_mcs_cleared(8), 0xffffffffu);
    CU_ASSERT_TRUE(surface_mcs_is_clear(2, 0x0f));
    CU_ASSERT_FALSE(surface_mcs_is_clear(2, 0xfd));
    CU_ASSERT_TRUE(surface_mcs_is_clear(4, 0xff));
    CU_ASSERT_FALSE(surface_mcs_is_clear(4, 0xe4));
    CU_ASSERT_FALSE(surface_mcs_is_clear(8, 0x00ffffffu));
    CU_ASSERT_TRUE(surface_mcs_is_clear(16, ~0ull));
    CU_ASSERT_FALSE(surface_mcs_is_clear(16, 0xffffffffu));
}

static const struct test_case cases[] = {
    { "tile shapes", test_tile_shapes },
    { "tile walks match the layouts", test_tile_walks },
    { "gen4 decode", test_decode_gen4 },
    { "gen4 capture state", test_decode_gen4_capture },
    { "gen7 decode", test_decode_gen7 },
    { "gen7 capture state", test_decode_gen7_capture },
    { "gen8 decode", test_decode_gen8 },
    { "gen8 capture state", test_decode_gen8_capture },
    { "gen9 capture states", test_decode_gen9_capture },
    { "buffers and structured buffers", test_address_buffers },
    { "2d arrays with mips, every tiling", test_address_2d_mips },
    { "cube arrays", test_address_cube },
    { "3d surfaces", test_address_3d },
    { "gen4 cube like 3d", test_address_gen4_cube },
    { "gen4 miplayout right", test_address_gen4_right },
    { "gen9 1d", test_address_gen9_1d },
    { "msaa interleaved and mss", test_address_msaa },
    { "yf and ys", test_address_yf_ys },
    { "gen7 array qpitch and offsets", test_address_gen7_array },
    { "reserved encodings", test_reserved_encodings },
    { "garbage states never crash", test_garbage_states },
    { "mcs encodings", test_mcs_encodings },
    { 0 },
};

TEST_SUITE(surface, cases);
