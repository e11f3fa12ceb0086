/* tests/units/test_sampler_formats.c - the block-compressed formats the sampler
 * reads (units/common/format.c format_decode_block): BC4, BC5, EAC, ETC1 and
 * ETC2 blocks built here field by field from the Khronos Data Format
 * Specification 1.3 ("RGTC Compressed Texture Image Formats", "ETC1 ..." and
 * "ETC2 Compressed Texture Image Formats"; the same text as OpenGL ES 3.0 §C.1),
 * and each texel's expected value computed here from the chosen field values
 * with the specification's formulas (written per texel, not through the
 * decoder's bit extraction). The modifier tables are the specification's. */
#include <math.h>
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

static const struct test_case cases[] = {
    { "BC4 and BC5: both palettes, UNORM and SNORM", test_bc4_bc5 },
    { "EAC R11, signed R11, RG11", test_eac },
    { "ETC1 individual and differential modes, both flips", test_etc1_modes },
    { "ETC2 T, H, planar, punch-through, EAC alpha", test_etc2_modes },
    { 0 }
};
TEST_SUITE(sampler_formats, cases);
