/* tests/units/test_sampler_formats.c - the block-compressed formats the sampler
 * reads (units/common/format.c format_decode_block): BC4, BC5, EAC, ETC1, ETC2,
 * BC7 and BC6H blocks built here field by field from the Khronos Data Format
 * Specification 1.3 ("RGTC Compressed Texture Image Formats", "ETC1 ...",
 * "ETC2 Compressed Texture Image Formats", the same text as OpenGL ES 3.0 §C.1;
 * "BPTC Compressed Texture Image Formats", BC6H layouts in its notation),
 * and each texel's expected value computed here from the chosen field values
 * with the specification's formulas (written per texel, not through the
 * decoder's bit extraction). The modifier tables are the specification's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "units/common/format.h"

/* ---- builders -------------------------------------------------------------------- */

/* A 64-bit ETC/EAC word: value placed at bits low .. low + width - 1. */
static void put(uint64_t *w, unsigned low, unsigned width, uint64_t value)
{
    uint64_t mask = (width == 64 ? ~0ull : (1ull << width) - 1) << low;
    *w = (*w & ~mask) | ((value << low) & mask);
}

/* ETC/EAC words are big-endian in memory (byte 0 = bits 63:56). */
static void store_be(uint8_t *out, uint64_t w)
{
    for (unsigned i = 0; i < 8; i++)
        out[i] = (uint8_t)(w >> (56 - 8 * i));
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- BC4, BC5 -------------------------------------------------------------------- */

/* An RGTC channel block: endpoints and 16 3-bit indices, texel i = x + 4 y at
 * bits 3i of the 48-bit little-endian field after the endpoints. */
static void rgtc_block(uint8_t out[8], uint8_t e0, uint8_t e1, const unsigned idx[16])
{
    out[0] = e0;
    out[1] = e1;
    uint64_t bits = 0;
    for (unsigned i = 0; i < 16; i++)
        bits |= (uint64_t)(idx[i] & 7) << (3 * i);
    for (unsigned b = 0; b < 6; b++)
        out[2 + b] = (uint8_t)(bits >> (8 * b));
}

/* The specification's RGTC palette entry for index i, endpoints as floats. */
static double rgtc_expected(double r0, double r1, bool eight, bool is_signed, unsigned i)
{
    if (i == 0)
        return r0;
    if (i == 1)
        return r1;
    if (eight)
        return ((8 - i) * r0 + (i - 1) * r1) / 7.0;
    if (i == 6)
        return is_signed ? -1.0 : 0.0;
    if (i == 7)
        return 1.0;
    return ((6 - i) * r0 + (i - 1) * r1) / 5.0;
}

static void test_bc4_bc5(void)
{
    unsigned idx[16], idx2[16];
    for (unsigned i = 0; i < 16; i++) {
        idx[i] = (i * 5 + 3) % 8;
        idx2[i] = 7 - i % 8;
    }
    struct format_value t[16];
    uint8_t b[16];
    /* UNORM, red_0 > red_1: eight values */
    rgtc_block(b, 200, 40, idx);
    CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_BC4_UNORM, b, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], rgtc_expected(200 / 255.0, 40 / 255.0, true, false, idx[i]), 1e-6);
        CU_ASSERT_EQUAL(t[i].f[1], 0.0f);
        CU_ASSERT_EQUAL(t[i].f[3], 1.0f);
    }
    /* UNORM, red_0 <= red_1: six values, 0 and 1 */
    rgtc_block(b, 40, 200, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC4_UNORM, b, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], rgtc_expected(40 / 255.0, 200 / 255.0, false, false, idx[i]), 1e-6);
    /* SNORM: -128 reads as -127; -127 < 100: six values, -1 and 1 */
    rgtc_block(b, 0x80, 100, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC4_SNORM, b, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], rgtc_expected(-1.0, 100 / 127.0, false, true, idx[i]), 1e-6);
    /* SNORM, 90 > -20 (0xEC): eight values */
    rgtc_block(b, 90, 0xEC, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC4_SNORM, b, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], rgtc_expected(90 / 127.0, -20 / 127.0, true, true, idx[i]), 1e-6);
    /* BC5: red block, then green block */
    rgtc_block(b, 10, 250, idx);
    rgtc_block(b + 8, 250, 10, idx2);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC5_UNORM, b, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], rgtc_expected(10 / 255.0, 250 / 255.0, false, false, idx[i]), 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[1], rgtc_expected(250 / 255.0, 10 / 255.0, true, false, idx2[i]), 1e-6);
        CU_ASSERT_EQUAL(t[i].f[2], 0.0f);
        CU_ASSERT_EQUAL(t[i].f[3], 1.0f);
    }
}

/* ---- EAC -------------------------------------------------------------------------- */

/* The specification's EAC modifier table (Table "Intensity modifier sets for
 * the alpha component"). */
static const int eac_table[16][8] = {
    { -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
    { -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
    { -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
    { -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
    { -2, -6, -8, -10, 1, 5, 7, 9 },  { -2, -5, -8, -10, 1, 4, 7, 9 },
    { -2, -4, -8, -10, 1, 3, 7, 9 },  { -2, -5, -7, -10, 1, 4, 6, 9 },
    { -3, -4, -7, -10, 2, 3, 6, 9 },  { -1, -2, -3, -10, 0, 1, 2, 9 },
    { -4, -6, -8, -9, 3, 5, 7, 8 },   { -3, -5, -7, -9, 2, 4, 6, 8 },
};

/* An EAC block: base 63:56, multiplier 55:52, table 51:48, pixel a (x 0, y 0),
 * b (0, 1) ... p (3, 3) at bits 47:45, 44:42 ... 2:0. idx[x][y]. */
static void eac_block(uint8_t out[8], unsigned base, unsigned mult, unsigned table,
                      const unsigned idx[4][4])
{
    uint64_t w = 0;
    put(&w, 56, 8, base);
    put(&w, 52, 4, mult);
    put(&w, 48, 4, table);
    unsigned pixel = 0;
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++, pixel++)
            put(&w, 45 - 3 * pixel, 3, idx[x][y]);
    store_be(out, w);
}

static void test_eac(void)
{
    unsigned idx[4][4];
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            idx[x][y] = (x * 3 + y * 5 + 1) % 8;
    struct format_value t[16];
    uint8_t b[16];
    /* R11 unsigned: base 100, multiplier 3, table 5 */
    eac_block(b, 100, 3, 5, idx);
    CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_EAC_R11, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            int v = clampi(100 * 8 + 4 + eac_table[5][idx[x][y]] * 3 * 8, 0, 2047);
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[0], v / 2047.0, 1e-6);
            CU_ASSERT_EQUAL(t[y * 4 + x].f[3], 1.0f);
        }
    /* multiplier 0: the modifier unscaled; base 255, table 0 clamps at 2047 */
    eac_block(b, 255, 0, 0, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_EAC_R11, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            int v = clampi(255 * 8 + 4 + eac_table[0][idx[x][y]], 0, 2047);
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[0], v / 2047.0, 1e-6);
        }
    /* signed: base -128 (as -127), multiplier 15, table 0: clamps at -1023 */
    eac_block(b, 0x80, 15, 0, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_EAC_SIGNED_R11, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            int v = clampi(-127 * 8 + eac_table[0][idx[x][y]] * 15 * 8, -1023, 1023);
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[0], v / 1023.0, 1e-6);
        }
    /* RG11: R block then G block */
    eac_block(b, 20, 1, 13, idx);
    eac_block(b + 8, 230, 2, 7, idx);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_EAC_RG11, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            int r = clampi(20 * 8 + 4 + eac_table[13][idx[x][y]] * 8, 0, 2047);
            int g = clampi(230 * 8 + 4 + eac_table[7][idx[x][y]] * 16, 0, 2047);
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[0], r / 2047.0, 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[1], g / 2047.0, 1e-6);
        }
}

/* ---- ETC1 and ETC2 ------------------------------------------------------------------ */

/* The specification's ETC1 intensity modifier table, a and b a codeword (index
 * 0: a, 1: b, 2: -a, 3: -b). */
static const int etc1_table[8][2] = {
    { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 }, { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

static const int etc2_distance[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };

/* The 2-bit pixel indices idx[x][y]: MSB of pixel k = 4 x + y at bit 16 + k, LSB at k. */
static void put_indices(uint64_t *w, const unsigned idx[4][4])
{
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            unsigned k = 4 * x + y;
            put(w, 16 + k, 1, idx[x][y] >> 1);
            put(w, k, 1, idx[x][y] & 1);
        }
}

static double channel8(int v)
{
    return clampi(v, 0, 255) / 255.0;
}

/* ETC1 individual and differential modes, both flips. */
static void test_etc1_modes(void)
{
    unsigned idx[4][4];
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            idx[x][y] = (x + 2 * y) % 4;
    struct format_value t[16];
    uint8_t b[8];
    /* individual: R 0xA / 0x3, G 0x5 / 0xF, B 0x0 / 0x8, codewords 2 and 6 */
    const unsigned c1[3] = { 0xA, 0x5, 0x0 }, c2[3] = { 0x3, 0xF, 0x8 };
    for (unsigned flip = 0; flip < 2; flip++) {
        uint64_t w = 0;
        for (unsigned c = 0; c < 3; c++) {
            put(&w, 60 - 8 * c, 4, c1[c]);
            put(&w, 56 - 8 * c, 4, c2[c]);
        }
        put(&w, 37, 3, 2);
        put(&w, 34, 3, 6);
        put(&w, 33, 1, 0);
        put(&w, 32, 1, flip);
        put_indices(&w, idx);
        store_be(b, w);
        CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_ETC1_RGB8, b, t), FORMAT_OK);
        for (unsigned x = 0; x < 4; x++)
            for (unsigned y = 0; y < 4; y++) {
                bool second = flip ? y >= 2 : x >= 2;
                const int *row = etc1_table[second ? 6 : 2];
                int mod = idx[x][y] == 0 ? row[0] : idx[x][y] == 1 ? row[1]
                        : idx[x][y] == 2 ? -row[0] : -row[1];
                for (unsigned c = 0; c < 3; c++) {
                    int base = (int)(second ? c2[c] : c1[c]) * 17;    /* 4 -> 8 bits */
                    CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[c], channel8(base + mod), 1e-6);
                }
                CU_ASSERT_EQUAL(t[y * 4 + x].f[3], 1.0f);
            }
    }
    /* differential: R 20 - 3, G 5 + 2, B 31 - 4 (5-bit), codewords 7 and 0, flip 1 */
    const int base5[3] = { 20, 5, 31 }, delta[3] = { -3, 2, -4 };
    uint64_t w = 0;
    for (unsigned c = 0; c < 3; c++) {
        put(&w, 59 - 8 * c, 5, (uint64_t)base5[c]);
        put(&w, 56 - 8 * c, 3, (uint64_t)(delta[c] & 7));
    }
    put(&w, 37, 3, 7);
    put(&w, 34, 3, 0);
    put(&w, 33, 1, 1);
    put(&w, 32, 1, 1);
    put_indices(&w, idx);
    store_be(b, w);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_RGB8, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            bool second = y >= 2;
            const int *row = etc1_table[second ? 0 : 7];
            int mod = idx[x][y] == 0 ? row[0] : idx[x][y] == 1 ? row[1]
                    : idx[x][y] == 2 ? -row[0] : -row[1];
            for (unsigned c = 0; c < 3; c++) {
                int v5 = base5[c] + (second ? delta[c] : 0);
                int base = v5 * 8 + v5 / 4;                           /* 5 -> 8 bits */
                CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[c], channel8(base + mod), 1e-6);
            }
        }
}

/* ETC2's T, H and planar modes (an overflowing R, G or B of the differential
 * mode), the punch-through form and the EAC alpha of ETC2_EAC_RGBA8. */
static void test_etc2_modes(void)
{
    unsigned idx[4][4];
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            idx[x][y] = (3 * x + y) % 4;
    struct format_value t[16];
    uint8_t b[16];
    /* T: R1 7 (bits 60:59 = 01, 57:56 = 11); bits 63:61 = 111 and 58 = 0 make
     * the differential R 29 + 3 = 32: overflow. G1 2, B1 12, R2 9, G2 14, B2 4,
     * distance index 5 (35:34 = 10, 32 = 1). */
    uint64_t w = 0;
    put(&w, 61, 3, 7);
    put(&w, 59, 2, 1);
    put(&w, 58, 1, 0);
    put(&w, 56, 2, 3);
    put(&w, 52, 4, 2);
    put(&w, 48, 4, 12);
    put(&w, 44, 4, 9);
    put(&w, 40, 4, 14);
    put(&w, 36, 4, 4);
    put(&w, 34, 2, 2);
    put(&w, 33, 1, 1);
    put(&w, 32, 1, 1);
    put_indices(&w, idx);
    store_be(b, w);
    CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_ETC2_RGB8, b, t), FORMAT_OK);
    {
        const int t1[3] = { 7 * 17, 2 * 17, 12 * 17 }, t2[3] = { 9 * 17, 14 * 17, 4 * 17 };
        int d = etc2_distance[5];
        for (unsigned x = 0; x < 4; x++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned c = 0; c < 3; c++) {
                    const int paint[4] = { t1[c], t2[c] + d, t2[c], t2[c] - d };
                    CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[c], channel8(paint[idx[x][y]]), 1e-6);
                }
    }
    /* H: R1 6 (62:59), G1 5 = 010 (58:56) . 1 (52), B1 11 = 1 (51) . 011 (49:47),
     * R2 13, G2 3, B2 8, distance bits 34 = 1, 32 = 0. The differential R is
     * 0 0110 + 010 = 8 (no overflow); bits 55:53 = 111 make G 111 1 1 = 31 and
     * dG (50:48) = 0 01 . = 1 or more: 31 + 1 overflows (B1's 49:48 = 01). */
    w = 0;
    put(&w, 63, 1, 0);
    put(&w, 59, 4, 6);
    put(&w, 56, 3, 2);
    put(&w, 53, 3, 7);
    put(&w, 52, 1, 1);
    put(&w, 51, 1, 1);
    put(&w, 50, 1, 0);
    put(&w, 47, 3, 3);
    put(&w, 43, 4, 13);
    put(&w, 39, 4, 3);
    put(&w, 35, 4, 8);
    put(&w, 34, 1, 1);
    put(&w, 33, 1, 1);
    put(&w, 32, 1, 0);
    put_indices(&w, idx);
    store_be(b, w);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_RGB8, b, t), FORMAT_OK);
    {
        const int h1[3] = { 6 * 17, 5 * 17, 11 * 17 }, h2[3] = { 13 * 17, 3 * 17, 8 * 17 };
        unsigned lsb = (h1[0] << 16 | h1[1] << 8 | h1[2]) >= (h2[0] << 16 | h2[1] << 8 | h2[2]);
        int d = etc2_distance[4 | 0 | lsb];
        for (unsigned x = 0; x < 4; x++)
            for (unsigned y = 0; y < 4; y++)
                for (unsigned c = 0; c < 3; c++) {
                    const int paint[4] = { h1[c] + d, h1[c] - d, h2[c] + d, h2[c] - d };
                    CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[c], channel8(paint[idx[x][y]]), 1e-6);
                }
    }
    /* planar: O = (RO 40, GO 100, BO 20), H = (RH 63, GH 0, BH 33), V = (RV 0,
     * GV 127, BV 50); 6- and 7-bit values. The R, G of the differential mode
     * must not overflow and B must: bits 63 = 0, 55 = 0, 47:45 = 111, 42 = 0. */
    const unsigned ro = 40, go = 100, bo = 20, rh = 63, gh = 0, bh = 33, rv = 0, gv = 127, bv = 50;
    w = 0;
    put(&w, 57, 6, ro);
    put(&w, 56, 1, go >> 6);
    put(&w, 49, 6, go & 63);
    put(&w, 48, 1, bo >> 5);
    put(&w, 43, 2, (bo >> 3) & 3);
    put(&w, 39, 3, bo & 7);
    put(&w, 34, 5, rh >> 1);
    put(&w, 32, 1, rh & 1);
    put(&w, 25, 7, gh);
    put(&w, 19, 6, bh);
    put(&w, 13, 6, rv);
    put(&w, 6, 7, gv);
    put(&w, 0, 6, bv);
    put(&w, 45, 3, 7);
    put(&w, 42, 1, 0);
    put(&w, 33, 1, 1);
    /* the preconditions: R and G of the differential reading in range, B out */
    {
        int r = (int)((w >> 59) & 31), dr = (int)((w >> 56) & 7), g = (int)((w >> 51) & 31);
        int dg = (int)((w >> 48) & 7), bb = (int)((w >> 43) & 31), db = (int)((w >> 40) & 7);
        dr = dr >= 4 ? dr - 8 : dr, dg = dg >= 4 ? dg - 8 : dg, db = db >= 4 ? db - 8 : db;
        CU_ASSERT_TRUE_FATAL(r + dr >= 0 && r + dr <= 31 && g + dg >= 0 && g + dg <= 31);
        CU_ASSERT_TRUE_FATAL(bb + db < 0 || bb + db > 31);
    }
    store_be(b, w);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_RGB8, b, t), FORMAT_OK);
    {
        /* 6 -> 8 bits: (c << 2) | (c >> 4); 7 -> 8: (c << 1) | (c >> 6) */
        const int o[3] = { (int)(ro << 2 | ro >> 4), (int)(go << 1 | go >> 6), (int)(bo << 2 | bo >> 4) };
        const int h[3] = { (int)(rh << 2 | rh >> 4), (int)(gh << 1 | gh >> 6), (int)(bh << 2 | bh >> 4) };
        const int v[3] = { (int)(rv << 2 | rv >> 4), (int)(gv << 1 | gv >> 6), (int)(bv << 2 | bv >> 4) };
        for (int x = 0; x < 4; x++)
            for (int y = 0; y < 4; y++)
                for (unsigned c = 0; c < 3; c++) {
                    int want = (x * (h[c] - o[c]) + y * (v[c] - o[c]) + 4 * o[c] + 2) >> 2;
                    CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[c], channel8(want), 1e-6);
                }
    }
    /* punch-through, opaque bit 0 (bit 33), differential: index 2 transparent
     * black, indices 0 and 2 without modifier; codewords 3 and 3 */
    w = 0;
    for (unsigned c = 0; c < 3; c++) {
        put(&w, 59 - 8 * c, 5, 16);
        put(&w, 56 - 8 * c, 3, 0);
    }
    put(&w, 37, 3, 3);
    put(&w, 34, 3, 3);
    put(&w, 33, 1, 0);
    put_indices(&w, idx);
    store_be(b, w);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_RGB8_PTA, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            const struct format_value *tv = &t[y * 4 + x];
            unsigned i = idx[x][y];
            int base = 16 * 8 + 16 / 4;
            int mod = i == 1 ? etc1_table[3][1] : i == 3 ? -etc1_table[3][1] : 0;
            CU_ASSERT_EQUAL(tv->f[3], i == 2 ? 0.0f : 1.0f);
            CU_ASSERT_DOUBLE_EQUAL(tv->f[0], i == 2 ? 0.0 : channel8(base + mod), 1e-6);
        }
    /* ETC2_EAC_RGBA8: the 8-bit EAC alpha block (base 128, multiplier 5, table
     * 9: clamp(base + modifier * multiplier, 0, 255)), then the colour block */
    unsigned aidx[4][4];
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            aidx[x][y] = (x + y * 3) % 8;
    eac_block(b, 128, 5, 9, aidx);
    w |= 1ull << 33;            /* the colour block in the differential mode */
    store_be(b + 8, w);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_EAC_RGBA8, b, t), FORMAT_OK);
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++)
            CU_ASSERT_DOUBLE_EQUAL(t[y * 4 + x].f[3],
                                   clampi(128 + eac_table[9][aidx[x][y]] * 5, 0, 255) / 255.0, 1e-6);
    /* the sRGB form: the colour channels decoded with the sRGB curve */
    struct format_value lin[16];
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ETC2_EAC_SRGB8_A8, b, t), FORMAT_OK);
    format_decode_block(SURFACE_FORMAT_ETC2_EAC_RGBA8, b, lin);
    for (unsigned i = 0; i < 16; i++) {
        double c = lin[i].f[0];
        double want = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
        CU_ASSERT_DOUBLE_EQUAL(t[i].f[0], want, 1e-5);
        CU_ASSERT_EQUAL(t[i].f[3], lin[i].f[3]);
    }
}

/* ---- BC7 and BC6H (BPTC) ----------------------------------------------------------
 * Khronos Data Format Specification 1.3, "BPTC Compressed Texture Image Formats":
 * blocks are written here field by field, upwards from bit 0 in the order the
 * specification lists them, and every texel's expected value comes from the
 * specification's formulas written out below. The partition rows and anchor
 * indices the tests use are typed from the specification's tables. */

struct bit_writer {
    uint8_t block[16];
    unsigned pos;
};

/* value's count low bits at the next free position, lowest bit first */
static void emit(struct bit_writer *w, unsigned count, unsigned value)
{
    for (unsigned i = 0; i < count; i++, w->pos++)
        if (value >> i & 1)
            w->block[w->pos / 8] |= (uint8_t)(1u << (w->pos % 8));
}

static const int bptc_w2[4] = { 0, 21, 43, 64 };
static const int bptc_w3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const int bptc_w4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

/* the specification's interpolation, with an arithmetic (flooring) shift */
static int bptc_lerp(int e0, int e1, int w)
{
    return (int)floor(((64 - w) * e0 + w * e1 + 32) / 64.0);
}

/* an n-bit endpoint widened to 8 bits: shifted to the top, its high bits
 * repeated below */
static int widen8(unsigned v, unsigned n)
{
    return (int)(v * (1u << (8 - n)) + v / (1u << (2 * n - 8)));
}

/* BC7 mode 6: one subset, 7-bit RGBA endpoints with a p-bit each, 4-bit
 * indices (texel 0's has 3 bits). */
static void bc7_mode6(struct bit_writer *w, const unsigned ep[2][4], const unsigned p[2],
                      const unsigned idx[16])
{
    memset(w, 0, sizeof *w);
    emit(w, 7, 1u << 6);
    for (unsigned c = 0; c < 4; c++)
        for (unsigned e = 0; e < 2; e++)
            emit(w, 7, ep[e][c]);
    emit(w, 1, p[0]);
    emit(w, 1, p[1]);
    for (unsigned t = 0; t < 16; t++)
        emit(w, t == 0 ? 3 : 4, idx[t]);
    CU_ASSERT_EQUAL(w->pos, 128);
}

static void test_bc7_one_subset(void)
{
    struct format_value t[16];
    struct bit_writer w;
    const unsigned ep[2][4] = { { 10, 100, 127, 0 }, { 120, 3, 64, 127 } }, p[2] = { 1, 0 };
    unsigned idx[16];
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 7 + 2) % 16 % (i == 0 ? 8 : 16);
    bc7_mode6(&w, ep, p, idx);
    CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 4; c++) {
            int e0 = widen8(ep[0][c] * 2 + p[0], 8), e1 = widen8(ep[1][c] * 2 + p[1], 8);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], bptc_lerp(e0, e1, bptc_w4[idx[i]]) / 255.0, 1e-6);
        }
    /* the sRGB form: R, G, B through the sRGB curve, A linear */
    struct format_value s[16];
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM_SRGB, w.block, s), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        double c = t[i].f[1];
        CU_ASSERT_DOUBLE_EQUAL(s[i].f[1], c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4), 1e-5);
        CU_ASSERT_EQUAL(s[i].f[3], t[i].f[3]);
    }

    /* mode 5: 7-bit colour and 8-bit alpha endpoints, no p-bits, rotation 2
     * (swap A and G after interpolation), 2-bit colour and alpha indices */
    const unsigned c5[2][3] = { { 127, 64, 1 }, { 0, 90, 33 } }, a5[2] = { 255, 17 };
    unsigned ci[16], ai[16];
    for (unsigned i = 0; i < 16; i++) {
        ci[i] = (i + 1) % 4 % (i == 0 ? 2 : 4);
        ai[i] = (3 * i + 1) % 4 % (i == 0 ? 2 : 4);
    }
    memset(&w, 0, sizeof w);
    emit(&w, 6, 1u << 5);
    emit(&w, 2, 2);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < 2; e++)
            emit(&w, 7, c5[e][c]);
    emit(&w, 8, a5[0]);
    emit(&w, 8, a5[1]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 ? 1 : 2, ci[i]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 ? 1 : 2, ai[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        int rgba[4];
        for (unsigned c = 0; c < 3; c++)
            rgba[c] = bptc_lerp(widen8(c5[0][c], 7), widen8(c5[1][c], 7), bptc_w2[ci[i]]);
        rgba[3] = bptc_lerp((int)a5[0], (int)a5[1], bptc_w2[ai[i]]);
        int want[4] = { rgba[0], rgba[3], rgba[2], rgba[1] };
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], want[c] / 255.0, 1e-6);
    }

    /* mode 4: 5-bit colour, 6-bit alpha, rotation 1 (swap A and R), index
     * selection 1: colour from the 3-bit set, alpha from the 2-bit set */
    const unsigned c4[2][3] = { { 31, 0, 17 }, { 2, 30, 9 } }, a4[2] = { 5, 63 };
    unsigned i2[16], i3[16];
    for (unsigned i = 0; i < 16; i++) {
        i2[i] = (i * 3) % 4 % (i == 0 ? 2 : 4);
        i3[i] = (i * 5 + 3) % 8 % (i == 0 ? 4 : 8);
    }
    memset(&w, 0, sizeof w);
    emit(&w, 5, 1u << 4);
    emit(&w, 2, 1);
    emit(&w, 1, 1);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < 2; e++)
            emit(&w, 5, c4[e][c]);
    emit(&w, 6, a4[0]);
    emit(&w, 6, a4[1]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 ? 1 : 2, i2[i]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 ? 2 : 3, i3[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        int rgba[4];
        for (unsigned c = 0; c < 3; c++)
            rgba[c] = bptc_lerp(widen8(c4[0][c], 5), widen8(c4[1][c], 5), bptc_w3[i3[i]]);
        rgba[3] = bptc_lerp(widen8(a4[0], 6), widen8(a4[1], 6), bptc_w2[i2[i]]);
        int want[4] = { rgba[3], rgba[1], rgba[2], rgba[0] };
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], want[c] / 255.0, 1e-6);
    }

    /* reserved mode 8 (byte 0 is 0): every texel (0, 0, 0, 0) */
    memset(&w, 0, sizeof w);
    w.block[5] = 0xff;
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 4; c++)
            CU_ASSERT_EQUAL(t[i].f[c], 0.0f);
}

/* The specification's partition rows used below (texel t = x + 4 y) and their
 * anchor indices. */
static const unsigned p2_row17[16] = { 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
static const unsigned p2_row18[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0 };
static const unsigned p3_row0[16] = { 0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 1, 2, 2, 2, 2 };
static const unsigned p3_row22[16] = { 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2 };

static void test_bc7_partitions(void)
{
    struct format_value t[16];
    struct bit_writer w;
    /* mode 1: two subsets (partition 17, anchor of subset 1 at texel 2), 6-bit
     * RGB endpoints, one p-bit shared per subset, 3-bit indices */
    const unsigned ep[4][3] = { { 63, 0, 10 }, { 0, 63, 20 }, { 5, 40, 60 }, { 33, 1, 0 } };
    const unsigned sp[2] = { 1, 0 };
    unsigned idx[16];
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 3 + 5) % 8 % (i == 0 || i == 2 ? 4 : 8);
    memset(&w, 0, sizeof w);
    emit(&w, 2, 2);
    emit(&w, 6, 17);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < 4; e++)
            emit(&w, 6, ep[e][c]);
    emit(&w, 1, sp[0]);
    emit(&w, 1, sp[1]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 || i == 2 ? 2 : 3, idx[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL_FATAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = p2_row17[i];
        for (unsigned c = 0; c < 3; c++) {
            int e0 = widen8(ep[2 * s][c] * 2 + sp[s], 7), e1 = widen8(ep[2 * s + 1][c] * 2 + sp[s], 7);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], bptc_lerp(e0, e1, bptc_w3[idx[i]]) / 255.0, 1e-6);
        }
        CU_ASSERT_EQUAL(t[i].f[3], 1.0f);
    }

    /* mode 7: two subsets (partition 18, anchor at texel 8), 5-bit RGBA
     * endpoints with a p-bit each, 2-bit indices */
    const unsigned e7[4][4] = { { 31, 0, 3, 31 }, { 0, 31, 9, 1 }, { 16, 8, 4, 2 }, { 1, 2, 30, 29 } };
    const unsigned p7[4] = { 1, 0, 0, 1 };
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 5 + 1) % 4 % (i == 0 || i == 8 ? 2 : 4);
    memset(&w, 0, sizeof w);
    emit(&w, 8, 1u << 7);
    emit(&w, 6, 18);
    for (unsigned c = 0; c < 4; c++)
        for (unsigned e = 0; e < 4; e++)
            emit(&w, 5, e7[e][c]);
    for (unsigned e = 0; e < 4; e++)
        emit(&w, 1, p7[e]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 || i == 8 ? 1 : 2, idx[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = p2_row18[i];
        for (unsigned c = 0; c < 4; c++) {
            int e0 = widen8(e7[2 * s][c] * 2 + p7[2 * s], 6);
            int e1 = widen8(e7[2 * s + 1][c] * 2 + p7[2 * s + 1], 6);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], bptc_lerp(e0, e1, bptc_w2[idx[i]]) / 255.0, 1e-6);
        }
    }

    /* mode 0: three subsets (partition 0: anchors at texels 3 and 15), 4-bit
     * RGB endpoints with a p-bit each, 3-bit indices */
    unsigned e0s[6][3], p0[6];
    for (unsigned e = 0; e < 6; e++) {
        for (unsigned c = 0; c < 3; c++)
            e0s[e][c] = (e * 5 + c * 3 + 1) % 16;
        p0[e] = e % 2 ^ (e / 4);
    }
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 7 + 3) % 8 % (i == 0 || i == 3 || i == 15 ? 4 : 8);
    memset(&w, 0, sizeof w);
    emit(&w, 1, 1);
    emit(&w, 4, 0);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < 6; e++)
            emit(&w, 4, e0s[e][c]);
    for (unsigned e = 0; e < 6; e++)
        emit(&w, 1, p0[e]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 || i == 3 || i == 15 ? 2 : 3, idx[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = p3_row0[i];
        for (unsigned c = 0; c < 3; c++) {
            int a = widen8(e0s[2 * s][c] * 2 + p0[2 * s], 5), b = widen8(e0s[2 * s + 1][c] * 2 + p0[2 * s + 1], 5);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], bptc_lerp(a, b, bptc_w3[idx[i]]) / 255.0, 1e-6);
        }
    }

    /* mode 2: three subsets (partition 22: anchors at texels 6 and 15), 5-bit
     * RGB endpoints, no p-bits, 2-bit indices */
    for (unsigned e = 0; e < 6; e++)
        for (unsigned c = 0; c < 3; c++)
            e0s[e][c] = (e * 11 + c * 7 + 4) % 32;
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 3 + 2) % 4 % (i == 0 || i == 6 || i == 15 ? 2 : 4);
    memset(&w, 0, sizeof w);
    emit(&w, 3, 4);
    emit(&w, 6, 22);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < 6; e++)
            emit(&w, 5, e0s[e][c]);
    for (unsigned i = 0; i < 16; i++)
        emit(&w, i == 0 || i == 6 || i == 15 ? 1 : 2, idx[i]);
    CU_ASSERT_EQUAL(w.pos, 128);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC7_UNORM, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = p3_row22[i];
        for (unsigned c = 0; c < 3; c++) {
            int a = widen8(e0s[2 * s][c], 5), b = widen8(e0s[2 * s + 1][c], 5);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], bptc_lerp(a, b, bptc_w2[idx[i]]) / 255.0, 1e-6);
        }
    }
}

/* ---- BC6H: the mode layouts as the specification writes them ---- */

/* "m[4:0], rw[9:0], ..." : fields in stored order; a field [a:b] stores bit b
 * first and bit a last ("rw[10:15]" stores bit 15 first). */
struct bc6h_fields {
    unsigned mode, mode_bits;
    int w[3], x[3], y[3], z[3];     /* raw field values as stored (two's complement bits) */
};

/* Writes the header a layout string describes; returns the bits written. */
static unsigned bc6h_header(struct bit_writer *out, const char *layout, const struct bc6h_fields *f)
{
    memset(out, 0, sizeof *out);
    const char *s = layout;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        unsigned len = s[0] == 'm' ? 1 : 2;      /* "m" or "rw", "gz", ... */
        char name[3] = { s[0], len == 2 ? s[1] : 0, 0 };
        int hi = 0, lo = 0, n = 0;
        if (sscanf(s + len, "[%d:%d]%n", &hi, &lo, &n) != 2) {
            sscanf(s + len, "[%d]%n", &hi, &n);
            lo = hi;
        }
        CU_ASSERT_FATAL(n > 0);
        s += len + (unsigned)n;
        unsigned value;
        const char *channels = "rgb";
        if (name[0] == 'm') {
            value = f->mode;
        } else {
            unsigned c = (unsigned)(strchr(channels, name[0]) - channels);
            value = (unsigned)(name[1] == 'w' ? f->w[c] : name[1] == 'x' ? f->x[c]
                             : name[1] == 'y' ? f->y[c] : f->z[c]);
        }
        int step = hi >= lo ? 1 : -1;
        for (int b = lo;; b += step) {
            emit(out, 1, value >> b & 1);
            if (b == hi)
                break;
        }
    }
    return out->pos;
}

/* the spec's layouts of the modes tested (Direct3D's numbering 1 .. 14) */
static const char *bc6h_layout_1 =
    "m[1:0], gy[4], by[4], bz[4], rw[9:0], gw[9:0], bw[9:0], rx[4:0], gz[4], gy[3:0], "
    "gx[4:0], bz[0], gz[3:0], bx[4:0], bz[1], by[3:0], ry[4:0], bz[2], rz[4:0], bz[3]";
static const char *bc6h_layout_4 =
    "m[4:0], rw[9:0], gw[9:0], bw[9:0], rx[3:0], rw[10], gz[4], gy[3:0], gx[4:0], gw[10], "
    "gz[3:0], bx[3:0], bw[10], bz[1], by[3:0], ry[3:0], bz[0], bz[2], rz[3:0], gy[4], bz[3]";
static const char *bc6h_layout_10 =
    "m[4:0], rw[5:0], gz[4], bz[0], bz[1], by[4], gw[5:0], gy[5], by[5], bz[2], gy[4], "
    "bw[5:0], gz[5], bz[3], bz[5], bz[4], rx[5:0], gy[3:0], gx[5:0], gz[3:0], bx[5:0], "
    "by[3:0], ry[5:0], rz[5:0]";
static const char *bc6h_layout_11 = "m[4:0], rw[9:0], gw[9:0], bw[9:0], rx[9:0], gx[9:0], bx[9:0]";
static const char *bc6h_layout_13 =
    "m[4:0], rw[9:0], gw[9:0], bw[9:0], rx[7:0], rw[10:11], gx[7:0], gw[10:11], bx[7:0], bw[10:11]";
static const char *bc6h_layout_14 =
    "m[4:0], rw[9:0], gw[9:0], bw[9:0], rx[3:0], rw[10:15], gx[3:0], gw[10:15], bx[3:0], bw[10:15]";

/* two's complement of the low `bits` bits */
static int sext(int v, unsigned bits)
{
    v &= (1 << bits) - 1;
    return v >= (1 << (bits - 1)) ? v - (1 << bits) : v;
}

static int unquantize(int e, unsigned bits, bool sgn)
{
    if (!sgn) {
        if (bits >= 15)
            return e;
        if (e == 0)
            return 0;
        if (e == (1 << bits) - 1)
            return 0xffff;
        return ((e << 16) + 0x8000) >> bits;
    }
    if (bits >= 16)
        return e;
    int m = abs(e), q;
    if (m == 0)
        q = 0;
    else if (m >= (1 << (bits - 1)) - 1)
        q = 0x7fff;
    else
        q = ((m << 15) + 0x4000) >> (bits - 1);
    return e < 0 ? -q : q;
}

/* the final scale, then the half float's value */
static double bc6h_value(int v, bool sgn)
{
    int magnitude, negative = 0;
    if (!sgn) {
        magnitude = (v * 31) >> 6;
    } else if (v < 0) {
        magnitude = ((-v) * 31) >> 5;
        negative = 1;
    } else {
        magnitude = (v * 31) >> 5;
    }
    int exponent = magnitude >> 10, mantissa = magnitude & 1023;
    double value = exponent == 31 ? INFINITY
                 : exponent == 0 ? ldexp(mantissa, -24) : ldexp(1024 + mantissa, exponent - 25);
    return negative ? -value : value;
}

/* Decodes and checks a block whose endpoints (before unquantizing) are e[4][3]. */
static void check_bc6h(const struct bit_writer *w, bool sgn, unsigned regions, const unsigned row[16],
                       const int e[4][3], unsigned prec, const unsigned idx[16])
{
    struct format_value t[16];
    unsigned key = sgn ? SURFACE_FORMAT_BC6H_SF16 : SURFACE_FORMAT_BC6H_UF16;
    CU_ASSERT_EQUAL_FATAL(format_decode_block(key, w->block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        unsigned s = regions == 2 ? row[i] : 0;
        for (unsigned c = 0; c < 3; c++) {
            int a = unquantize(e[2 * s][c], prec, sgn), b = unquantize(e[2 * s + 1][c], prec, sgn);
            int weight = regions == 2 ? bptc_w3[idx[i]] : bptc_w4[idx[i]];
            double want = bc6h_value(bptc_lerp(a, b, weight), sgn);
            CU_ASSERT_DOUBLE_EQUAL(t[i].f[c], want, fabs(want) * 1e-7);
        }
        CU_ASSERT_EQUAL(t[i].f[3], 1.0f);
    }
}

static void emit_indices(struct bit_writer *w, unsigned bits, unsigned anchor2, unsigned idx[16])
{
    for (unsigned i = 0; i < 16; i++) {
        unsigned n = i == 0 || i == anchor2 ? bits - 1 : bits;
        idx[i] %= 1u << n;
        emit(w, n, idx[i]);
    }
    CU_ASSERT_EQUAL(w->pos, 128);
}

static void test_bc6h_modes(void)
{
    struct bit_writer w;
    unsigned idx[16];
    int e[4][3];
    /* mode 11 (00011): one region, 10-bit endpoints as they are; unsigned:
     * 0 stays 0, 1023 becomes 0xFFFF */
    struct bc6h_fields f11 = { .mode = 0x03, .w = { 0, 512, 1 }, .x = { 1023, 100, 700 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_11, &f11), 65);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 11 + 5) % 16;
    emit_indices(&w, 4, 99, idx);
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = f11.w[c];
        e[1][c] = f11.x[c];
    }
    check_bc6h(&w, false, 1, NULL, e, 10, idx);

    /* mode 14 (01111): 16-bit base, 4-bit deltas (stored high bits reversed);
     * green's base + delta wraps around 16 bits */
    struct bc6h_fields f14 = { .mode = 0x0f, .w = { 0x1234, 0xfffe, 0x8001 }, .x = { 0xd, 5, 0x8 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_14, &f14), 65);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 5 + 9) % 16;
    emit_indices(&w, 4, 99, idx);
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = f14.w[c];
        e[1][c] = (f14.w[c] + sext(f14.x[c], 4)) & 0xffff;
    }
    CU_ASSERT_EQUAL(e[1][1], 3);
    check_bc6h(&w, false, 1, NULL, e, 16, idx);
    /* the same block as signed: the base sign-extended from 16 bits */
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = sext(f14.w[c], 16);
        e[1][c] = sext(f14.w[c] + sext(f14.x[c], 4), 16);
    }
    check_bc6h(&w, true, 1, NULL, e, 16, idx);

    /* mode 13 (01011): 12-bit base (bits 11:10 stored reversed), 8-bit deltas */
    struct bc6h_fields f13 = { .mode = 0x0b, .w = { 0x801, 0x7ff, 0x400 }, .x = { 0x7f, 0x80, 0x01 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_13, &f13), 65);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 3 + 1) % 16;
    emit_indices(&w, 4, 99, idx);
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = sext(f13.w[c], 12);
        e[1][c] = sext(f13.w[c] + sext(f13.x[c], 8), 12);
    }
    check_bc6h(&w, true, 1, NULL, e, 12, idx);

    /* mode 1 (00): two regions (partition 18, anchor texel 8), 10-bit base,
     * 5-bit deltas; signed, with negative bases and deltas */
    struct bc6h_fields f1 = { .mode = 0x00, .w = { 0x3f0, 300, 0x200 }, .x = { 15, 0x1b, 3 },
                              .y = { 0x10, 1, 0x1f }, .z = { 7, 0x11, 0 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_1, &f1), 77);
    emit(&w, 5, 18);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 5 + 2) % 8;
    emit_indices(&w, 3, 8, idx);
    for (unsigned c = 0; c < 3; c++) {
        int base = sext(f1.w[c], 10);
        e[0][c] = base;
        e[1][c] = sext(base + sext(f1.x[c], 5), 10);
        e[2][c] = sext(base + sext(f1.y[c], 5), 10);
        e[3][c] = sext(base + sext(f1.z[c], 5), 10);
    }
    check_bc6h(&w, true, 2, p2_row18, e, 10, idx);
    /* unsigned: the deltas still sign-extended, sums wrapped to 10 bits */
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = f1.w[c];
        e[1][c] = (f1.w[c] + sext(f1.x[c], 5)) & 0x3ff;
        e[2][c] = (f1.w[c] + sext(f1.y[c], 5)) & 0x3ff;
        e[3][c] = (f1.w[c] + sext(f1.z[c], 5)) & 0x3ff;
    }
    check_bc6h(&w, false, 2, p2_row18, e, 10, idx);

    /* mode 4 (00110): 11-bit base, deltas 4, 5, 4 bits; partition 17 */
    struct bc6h_fields f4 = { .mode = 0x06, .w = { 0x7ff, 0x001, 0x555 }, .x = { 8, 0x10, 7 },
                              .y = { 1, 0x1f, 9 }, .z = { 0xf, 0x0f, 0 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_4, &f4), 77);
    emit(&w, 5, 17);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 3 + 7) % 8;
    emit_indices(&w, 3, 2, idx);
    const unsigned delta4[3] = { 4, 5, 4 };
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = f4.w[c];
        e[1][c] = (f4.w[c] + sext(f4.x[c], delta4[c])) & 0x7ff;
        e[2][c] = (f4.w[c] + sext(f4.y[c], delta4[c])) & 0x7ff;
        e[3][c] = (f4.w[c] + sext(f4.z[c], delta4[c])) & 0x7ff;
    }
    check_bc6h(&w, false, 2, p2_row17, e, 11, idx);

    /* mode 10 (11110): two regions, four 6-bit endpoints as they are (no
     * transform); signed: each sign-extended, magnitude 31 and 32 saturate */
    struct bc6h_fields f10 = { .mode = 0x1e, .w = { 0x20, 5, 0x3f }, .x = { 31, 0x21, 12 },
                               .y = { 0, 0x30, 17 }, .z = { 0x2a, 1, 30 } };
    CU_ASSERT_EQUAL(bc6h_header(&w, bc6h_layout_10, &f10), 77);
    emit(&w, 5, 17);
    for (unsigned i = 0; i < 16; i++)
        idx[i] = (i * 7 + 4) % 8;
    emit_indices(&w, 3, 2, idx);
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = sext(f10.w[c], 6);
        e[1][c] = sext(f10.x[c], 6);
        e[2][c] = sext(f10.y[c], 6);
        e[3][c] = sext(f10.z[c], 6);
    }
    check_bc6h(&w, true, 2, p2_row17, e, 6, idx);

    /* a reserved mode (10011): RGB 0, alpha 1 */
    struct format_value t[16];
    memset(&w, 0, sizeof w);
    w.block[0] = 0x13;
    w.block[7] = 0xff;
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC6H_UF16, w.block, t), FORMAT_OK);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(t[i].f[0], 0.0f);
        CU_ASSERT_EQUAL(t[i].f[2], 0.0f);
        CU_ASSERT_EQUAL(t[i].f[3], 1.0f);
    }
}

static const struct test_case cases[] = {
    { "BC4 and BC5: both palettes, UNORM and SNORM", test_bc4_bc5 },
    { "EAC R11, signed R11, RG11", test_eac },
    { "ETC1 individual and differential modes, both flips", test_etc1_modes },
    { "ETC2 T, H, planar, punch-through, EAC alpha", test_etc2_modes },
    { "BC7 modes 6, 5, 4 (rotation, index selection), sRGB, reserved", test_bc7_one_subset },
    { "BC7 modes 1, 7, 0, 2: two- and three-subset partitions, anchors", test_bc7_partitions },
    { "BC6H modes 11, 14, 13, 1, 4, 10: transforms, signs, reserved", test_bc6h_modes },
    { 0 }
};
TEST_SUITE(sampler_formats, cases);
