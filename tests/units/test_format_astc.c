/* tests/units/test_format_astc.c - ASTC LDR 2D decoding (units/common/astc.h and
 * the ASTC_LDR_2D formats of units/common/format.h).
 *
 * Every block is built here bit by bit from the Khronos Data Format Specification
 * 1.3's ASTC chapter (block mode table, partition/CEM fields, integer sequence
 * encoding layouts, weights stored bit-reversed from bit 127, void-extent
 * layout); the expected texels are worked out by hand from its "Color Encoding"
 * and "Weight Unquantization" rules (written in the comments) or computed by the
 * spec's formulas written again here (weight infill, weight application, the
 * partition hash, decode_float16 by a binary search over binary16 values). */
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units/common/astc.h"
#include "units/common/format.h"

/* ---- building blocks ---------------------------------------------------------------- */

struct blk {
    uint8_t b[16];
};

static void put(struct blk *k, unsigned pos, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++)
        if ((v >> i) & 1)
            k->b[(pos + i) / 8] |= (uint8_t)(1u << ((pos + i) % 8));
}

/* weight stream bit `pos` is block bit 127 - pos */
static void put_weights(struct blk *k, unsigned pos, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++)
        if ((v >> i) & 1) {
            unsigned p = 127 - (pos + i);
            k->b[p / 8] |= (uint8_t)(1u << (p % 8));
        }
}

/* ---- expected values ------------------------------------------------------------------ */

/* binary16 value of a positive bit pattern (IEEE 754) */
static double half_value(unsigned h)
{
    unsigned e = (h >> 10) & 31, m = h & 1023;
    return e == 0 ? ldexp(m, -24) : ldexp(1024 + m, (int)e - 25);
}

/* decode_float16: 0xFFFF -> 1.0, else the largest binary16 <= C / 65536 */
static float f16_of(unsigned c16)
{
    if (c16 == 0xffff)
        return 1.0f;
    double v = c16 / 65536.0;
    unsigned lo = 0, hi = 0x3c00;
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (half_value(mid) <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (float)half_value(lo);
}

static float srgb_curve(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* "Weight Application" for channel ch of 8-bit endpoints e0, e1 with weight w */
static float apply(unsigned e0, unsigned e1, unsigned w, unsigned ch, bool srgb)
{
    unsigned c0 = srgb && ch < 3 ? (e0 << 8 | 0x80) : e0 * 257;
    unsigned c1 = srgb && ch < 3 ? (e1 << 8 | 0x80) : e1 * 257;
    unsigned c = (c0 * (64 - w) + c1 * w + 32) / 64;
    if (!srgb)
        return f16_of(c);
    float v = (float)(c >> 8) / 255.0f;
    return ch < 3 ? srgb_curve(v) : v;
}

static bool near(float a, float b)
{
    return fabsf(a - b) <= 1e-6f;
}

static int check_texel(const char *what, const float got[4], const float want[4])
{
    for (unsigned c = 0; c < 4; c++)
        if (!near(got[c], want[c])) {
            fprintf(stderr, "%s: channel %u is %.9g, want %.9g\n", what, c, got[c], want[c]);
            return 1;
        }
    return 0;
}

static const float magenta[4] = { 1, 0, 1, 1 };

/* Block mode of a WxH grid of the first table rows ("Block Mode" 2D layout):
 * bits[1:0] != 0: R = {bit1, bit0, bit4}; bits 3:2 select the row; A = bits 6:5,
 * B = bits 8:7; H = bit 9, D = bit 10. Row 0: W = B + 4, H = A + 2. */
static uint32_t mode_row0(unsigned gw, unsigned gh, unsigned r, bool high, bool dual)
{
    unsigned a = gh - 2, b = gw - 4;
    return ((r >> 2) & 1) << 1 | ((r >> 1) & 1) | (r & 1) << 4 | a << 5 | b << 7 |
           (unsigned)high << 9 | (unsigned)dual << 10;
}

/* ---- cases ---------------------------------------------------------------------------------- */

static void test_block_mode_fields(void)
{
    /* the 4x4 grid, range 0..3 (R = 4 = 100b, H = 0): bit1 = 1, A = 2: 0x42 */
    CU_ASSERT_EQUAL(mode_row0(4, 4, 4, false, false), 0x42);
    /* 1-bit weights (R = 2 = 010b: bit0 = 1) dual plane: 0x441 */
    CU_ASSERT_EQUAL(mode_row0(4, 4, 2, false, true), 0x441);
}

/* One partition, CEM 8 (LDR RGB direct), 4x4 grid of 2-bit weights: 32 weight bits,
 * 128 - 32 - 17 = 79 bits for 6 colour values: the 0..255 range (48 bits) fits,
 * nothing larger exists, so v0..v5 are plain bytes from bit 17. */
static struct blk rgb_direct_block(const unsigned v[6], const unsigned q[16])
{
    struct blk k;
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
    put(&k, 11, 2, 0);          /* one partition */
    put(&k, 13, 4, 8);          /* CEM 8 */
    for (unsigned i = 0; i < 6; i++)
        put(&k, 17 + 8 * i, 8, v[i]);
    for (unsigned i = 0; i < 16; i++)
        put_weights(&k, 2 * i, 2, q[i]);
    return k;
}

/* 2-bit weights unquantize by bit replication to 6 bits, then +1 above 32:
 * 0 -> 0, 1 -> 21, 2 -> 42 + 1 = 43, 3 -> 63 + 1 = 64 */
static const unsigned weight2[4] = { 0, 21, 43, 64 };

static void test_rgb_direct_every_footprint(void)
{
    static const unsigned v[6] = { 10, 250, 20, 128, 200, 64 };  /* R0 R1 G0 G1 B0 B1 */
    /* v1 + v3 + v5 = 442 >= v0 + v2 + v4 = 230: e0 = (10, 20, 200), e1 = (250, 128, 64) */
    static const unsigned e0[4] = { 10, 20, 200, 255 }, e1[4] = { 250, 128, 64, 255 };
    unsigned q[16];
    for (unsigned i = 0; i < 16; i++)
        q[i] = (i * 7 + 1) % 4;
    struct blk k = rgb_direct_block(v, q);
    int wrong = 0, formats = 0;
    for (unsigned key = 0x200; key < 0x300; key++) {
        const struct format_desc *d = format_describe(key);
        if (!d || d->layout != FORMAT_LAYOUT_ASTC)
            continue;
        formats++;
        unsigned bw = d->block_width, bh = d->block_height;
        bool srgb = d->space == FORMAT_SPACE_SRGB;
        struct format_value texels[ASTC_MAX_TEXELS];
        if (format_decode_block(key, k.b, texels) != FORMAT_OK) {
            fprintf(stderr, "%s: not decoded\n", d->name);
            wrong++;
            continue;
        }
        /* "Weight Infill": Ds = (1024 + W/2) / (W - 1); gs = (Ds s (Gw - 1) + 32) >> 6 */
        unsigned ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
        for (unsigned t = 0; t < bh; t++)
            for (unsigned s = 0; s < bw; s++) {
                unsigned gs = (ds * s * 3 + 32) >> 6, gt = (dt * t * 3 + 32) >> 6;
                unsigned js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
                unsigned p[2][2];
                for (unsigned y = 0; y < 2; y++)
                    for (unsigned x = 0; x < 2; x++)
                        p[y][x] = js + x < 4 && jt + y < 4 ? weight2[q[(jt + y) * 4 + js + x]] : 0;
                unsigned w11 = (fs * ft + 8) >> 4;
                unsigned w = (p[0][0] * (16 - fs - ft + w11) + p[0][1] * (fs - w11) +
                              p[1][0] * (ft - w11) + p[1][1] * w11 + 8) >> 4;
                float want[4];
                for (unsigned c = 0; c < 4; c++)
                    want[c] = apply(e0[c], e1[c], w, c, srgb);
                char what[64];
                snprintf(what, sizeof what, "%s texel (%u,%u)", d->name, s, t);
                wrong += check_texel(what, texels[t * bw + s].f, want);
                struct format_value one;
                CU_ASSERT_EQUAL(format_decode_block_texel(key, k.b, s + bw, t, &one), FORMAT_OK);
                wrong += check_texel(what, one.f, want);
            }
    }
    CU_ASSERT_EQUAL(formats, 28);       /* 14 footprints, U8sRGB and FLT16 (003 L3523-3550) */
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Endpoints of each LDR colour endpoint mode, read at weights 0 and 64 of a 4x4
 * grid of 2-bit weights (0 -> 0, 3 -> 64). Values are bytes (the 0..255 range fits
 * every mode here: at most 8 values, 64 bits of the 128 - 32 - 17). */
struct cem_case {
    unsigned cem, n;
    unsigned v[8];
    unsigned e0[4], e1[4];      /* worked out by hand from "Color Encoding" */
};

static const struct cem_case cem_cases[] = {
    /* 0: luminance direct */
    { 0, 2, { 30, 200 }, { 30, 30, 30, 255 }, { 200, 200, 200, 255 } },
    /* 1: L0 = (v0 >> 2) | (v1 & 0xC0) = 0x25 | 0x40 = 101; L1 = L0 + (v1 & 0x3F) = 101 + 5 */
    { 1, 2, { 0x94, 0x45 }, { 101, 101, 101, 255 }, { 106, 106, 106, 255 } },
    /* 1 saturating: L0 = 0x3F | 0xC0 = 255, L1 = min(255 + 63, 255) */
    { 1, 2, { 0xFC, 0xFF }, { 255, 255, 255, 255 }, { 255, 255, 255, 255 } },
    /* 4: luminance + alpha direct: (v0, v0, v0, v2), (v1, v1, v1, v3) */
    { 4, 4, { 5, 250, 100, 7 }, { 5, 5, 5, 100 }, { 250, 250, 250, 7 } },
    /* 5: bit_transfer_signed(v1, v0): v0 = (v0 >> 1) | (v1 & 0x80), v1 = 6-bit signed of
     * (v1 >> 1) & 0x3F. v0 = 100, v1 = 0x50: v0 = 50, v1 = 0x28 -> 40 - 64 = -24;
     * v2 = 40, v3 = 0x86: v2 = 20 | 0x80 = 148, v3 = 0x03 -> 3.
     * e0 = (50, 50, 50, 148), e1 = (26, 26, 26, 151) */
    { 5, 4, { 100, 0x50, 40, 0x86 }, { 50, 50, 50, 148 }, { 26, 26, 26, 151 } },
    /* 6: base + scale: e0 = (v0 v3 >> 8, ...), e1 = (v0, v1, v2); 200 * 128 >> 8 = 100 */
    { 6, 4, { 200, 100, 50, 128 }, { 100, 50, 25, 255 }, { 200, 100, 50, 255 } },
    /* 8 with s1 < s0: blue_contract: e0 = bc(v1, v3, v5) = ((10 + 30) >> 1, (20 + 30) >> 1, 30),
     * e1 = bc(v0, v2, v4) = ((200 + 100) >> 1, (150 + 100) >> 1, 100) */
    { 8, 6, { 200, 10, 150, 20, 100, 30 }, { 20, 25, 30, 255 }, { 150, 125, 100, 255 } },
    /* 9, positive offsets: bts(v1 = 0x0A, v0 = 0x40): v0 = 0x20, v1 = 5; bts(0x14, 0x60):
     * v2 = 0x30, v3 = 10; bts(0x02, 0x80): v4 = 0x40, v5 = 1; sum 16 >= 0:
     * e0 = (32, 48, 64), e1 = (37, 58, 65) */
    { 9, 6, { 0x40, 0x0A, 0x60, 0x14, 0x80, 0x02 }, { 32, 48, 64, 255 }, { 37, 58, 65, 255 } },
    /* 9, negative: bts(0x7E, 0x40): v0 = 0x20 = 32, v1 = 0x3F -> -1; bts(0x7C, 0x60): v2 = 48,
     * v3 = 0x3E -> -2; bts(0x7A, 0x80): v4 = 64, v5 = 0x3D -> -3; sum -6 < 0:
     * e0 = bc(31, 46, 61) = (46, 53, 61), e1 = bc(32, 48, 64) = (48, 56, 64) */
    { 9, 6, { 0x40, 0x7E, 0x60, 0x7C, 0x80, 0x7A }, { 46, 53, 61, 255 }, { 48, 56, 64, 255 } },
    /* 10: base + scale plus two alphas */
    { 10, 6, { 200, 100, 40, 64, 9, 240 }, { 50, 25, 10, 9 }, { 200, 100, 40, 240 } },
    /* 12: RGBA direct, s1 >= s0 */
    { 12, 8, { 1, 2, 3, 4, 5, 6, 70, 80 }, { 1, 3, 5, 70 }, { 2, 4, 6, 80 } },
    /* 13: bts pairs as mode 9 plus (v7, v6): bts(0x08, 0xC8): v6 = 0x64 = 100, v7 = 4;
     * RGB as the positive 9 case */
    { 13, 8, { 0x40, 0x0A, 0x60, 0x14, 0x80, 0x02, 0xC8, 0x08 },
      { 32, 48, 64, 100 }, { 37, 58, 65, 104 } },
};

static void test_colour_endpoint_modes(void)
{
    int wrong = 0;
    for (size_t i = 0; i < sizeof cem_cases / sizeof cem_cases[0]; i++) {
        const struct cem_case *c = &cem_cases[i];
        struct blk k;
        memset(&k, 0, sizeof k);
        put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
        put(&k, 13, 4, c->cem);
        for (unsigned j = 0; j < c->n; j++)
            put(&k, 17 + 8 * j, 8, c->v[j]);
        put_weights(&k, 2 * 5, 2, 3);       /* texel (1, 1) takes weight 64 */
        for (unsigned srgb = 0; srgb < 2; srgb++) {
            float got[4], want[4];
            char what[64];
            CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, 0, 0, srgb, got));
            for (unsigned ch = 0; ch < 4; ch++)
                want[ch] = apply(c->e0[ch], c->e1[ch], 0, ch, srgb);
            snprintf(what, sizeof what, "CEM %u case %zu e0 srgb %u", c->cem, i, srgb);
            wrong += check_texel(what, got, want);
            CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, 1, 1, srgb, got));
            for (unsigned ch = 0; ch < 4; ch++)
                want[ch] = apply(c->e0[ch], c->e1[ch], 64, ch, srgb);
            snprintf(what, sizeof what, "CEM %u case %zu e1 srgb %u", c->cem, i, srgb);
            wrong += check_texel(what, got, want);
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Trit and quint weights ("Integer Sequence Encoding"). Ranges without bits: the
 * sequence is only the T (Q) bits in order. Trits: T = 0x02 decodes to
 * (2,0,0,0,0) (C = T[4:0] = 00010: t0 = {C1, C0 & ~C1} = 2), 0x20 to (0,0,0,1,0)
 * (T[6:5] = 01: t3 = 1, t4 = T7), 0x60 to (0,0,0,0,2) (T[6:5] = 11: t4 = 2, t3 = T7),
 * 0x01 to (1,0,0,0,0); trits unquantize to 0, 32, 63 -> 64. Quints: Q = 0x06
 * decodes to (4,4,0) (Q[2:1] = 11, Q[6:5] = 00: q2 = {Q0, Q4 & ~Q0, Q3 & ~Q0}),
 * 0x05 to (0,4,0) (C[2:0] = 101: q1 = 4, q0 = C[4:3]), 0x20 to (0,0,1), 0x0E to
 * (4,4,1); quints unquantize to 0, 16, 32, 47 -> 48, 63 -> 64. */
static void test_trit_and_quint_weights(void)
{
    struct {
        unsigned r;             /* R field: 3 = 0..2 (trits), 5 = 0..4 (quints) */
        unsigned group_bits, groups;
        uint32_t code[6];
        unsigned weight[16];
    } cases[2] = {
        { 3, 8, 4, { 0x02, 0x20, 0x60, 0x01 },
          { 64, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 64, 32 } },
        { 5, 7, 6, { 0x06, 0x05, 0x20, 0x0E, 0x00, 0x01 },
          { 64, 64, 0, 0, 64, 0, 0, 0, 16, 64, 64, 16, 0, 0, 0, 16 } },
    };
    int wrong = 0;
    for (unsigned i = 0; i < 2; i++) {
        struct blk k;
        memset(&k, 0, sizeof k);
        put(&k, 0, 11, mode_row0(4, 4, cases[i].r, false, false));
        put(&k, 13, 4, 0);                  /* CEM 0: luminance 0 .. 255 */
        put(&k, 17, 8, 0);
        put(&k, 25, 8, 255);
        for (unsigned g = 0; g < cases[i].groups; g++)
            put_weights(&k, g * cases[i].group_bits, cases[i].group_bits, cases[i].code[g]);
        for (unsigned t = 0; t < 16; t++) {
            float got[4], want[4];
            CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, t % 4, t / 4, false, got));
            for (unsigned ch = 0; ch < 4; ch++)
                want[ch] = apply(ch < 3 ? 0 : 255, 255, cases[i].weight[t], ch, false);
            char what[64];
            snprintf(what, sizeof what, "%s weight %u", i ? "quint" : "trit", t);
            wrong += check_texel(what, got, want);
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Quint-coded colour values: a 6x5 grid of 2-bit weights (60 bits) leaves
 * 128 - 60 - 17 = 51 bits for CEM 12's 8 values: 0..79 (quints with 4 bits:
 * 32 + ceil(7 * 8 / 3) = 51) fits and is the largest range that does (0..95 needs
 * 40 + 13 = 53, 0..127 needs 56). */
static void test_quint_coded_colours(void)
{
    /* block mode 6x5 grid: row 0 (W = B + 4 = 6, H = A + 2 = 5), R = 4 */
    struct blk k;
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(6, 5, 4, false, false));
    put(&k, 13, 4, 12);
    /* 8 values of range 0..79: quint blocks of 3 values over 3 * 4 + 7 bits:
     * m0 Q[2:0] m1 Q[4:3] m2 Q[6:5]. Values v = q * 16 + m.
     * Block A: m = (1, 2, 3), Q = 0 -> quints (0,0,0): values 1, 2, 3.
     * Block B: m = (4, 5, 6), Q = 0x01 -> (1,0,0): values 20, 5, 6.
     * Block C: m = (7, 8), Q = 0 (its Q[6:5] is past the sequence's 51 bits): 7, 8. */
    unsigned pos = 17;
    const unsigned m[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    const uint32_t Q[3] = { 0x00, 0x01, 0x00 };
    for (unsigned b = 0; b < 3; b++) {
        static const unsigned qbits[3] = { 3, 2, 2 };
        unsigned qpos = 0;
        for (unsigned j = 0; j < 3; j++) {
            unsigned idx = b * 3 + j;
            if (idx < 8)
                put(&k, pos, 4, m[idx]);
            pos += 4;
            put(&k, pos, qbits[j], Q[b] >> qpos);
            pos += qbits[j];
            qpos += qbits[j];
        }
    }
    /* "Endpoint Unquantization", quints with 4 bits (0..79): C = 13, B = dcb0000dc,
     * A = bit0 replicated; T = D * C + B; T ^= A; out = (A & 0x80) | (T >> 2).
     * v = 1 (D 0, m 0001): A = 0x1FF, B = 0, T = 0 ^ 0x1FF = 511 -> 0x80 | 127 = 255
     * v = 2 (m 0010, b = 1): B = 0b001000000 = 64, T = 64 ^ 0 = 64 -> 16
     * v = 3 (m 0011, a = 1, b = 1): T = 64 ^ 511 = 447 -> 0x80 | 111 = 239
     * v = 20 (D 1, m 0100, c = 1): B = 0b010000001 = 129, T = 13 + 129 = 142 -> 35
     * v = 5 (m 0101, a, c): B = 129, T = 129 ^ 511 = 382 -> 0x80 | 95 = 223
     * v = 6 (m 0110, b, c): B = 0b011000001 = 193, T = 193 -> 48
     * v = 7 (m 0111): B = 193, T = 193 ^ 511 = 318 -> 0x80 | 79 = 207
     * v = 8 (m 1000, d = 1): B = 0b100000010 = 258, T = 258 -> 64
     * CEM 12: s0 = v0 + v2 + v4 = 255 + 239 + 223 = 717 > s1 = 16 + 35 + 48 = 99:
     * e0 = bc(v1, v3, v5, v7) = ((16 + 48) >> 1, (35 + 48) >> 1, 48, 64) = (32, 41, 48, 64)
     * e1 = bc(v0, v2, v4, v6) = ((255 + 223) >> 1, (239 + 223) >> 1, 223, 207) */
    static const unsigned e0[4] = { 32, 41, 48, 64 }, e1[4] = { 239, 231, 223, 207 };
    float got[4], want[4];
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 6, 5, 0, 0, false, got));
    for (unsigned ch = 0; ch < 4; ch++)
        want[ch] = apply(e0[ch], e1[ch], 0, ch, false);
    CU_ASSERT_EQUAL(check_texel("quint colours e0", got, want), 0);
    /* all weights 3 -> 64: e1 */
    for (unsigned i = 0; i < 30; i++)
        put_weights(&k, 2 * i, 2, 3);
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 6, 5, 5, 4, false, got));
    for (unsigned ch = 0; ch < 4; ch++)
        want[ch] = apply(e0[ch], e1[ch], 64, ch, false);
    CU_ASSERT_EQUAL(check_texel("quint colours e1", got, want), 0);
}

/* Dual plane: 4x4 grid of 1-bit weights, twice (32 bits); the colour component
 * selector sits in the 2 bits below the weights (bits 94-95); CEM 12 needs 64 of
 * the 94 - 17 = 77 bits: bytes. Weights alternate plane 0, plane 1 per texel. */
static void test_dual_plane(void)
{
    for (unsigned ccs = 0; ccs < 4; ccs++) {
        struct blk k;
        memset(&k, 0, sizeof k);
        put(&k, 0, 11, mode_row0(4, 4, 2, false, true));
        put(&k, 13, 4, 12);
        static const unsigned v[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
        for (unsigned j = 0; j < 8; j++)
            put(&k, 17 + 8 * j, 8, v[j]);
        put(&k, 94, 2, ccs);
        for (unsigned i = 0; i < 16; i++)
            put_weights(&k, 2 * i, 1, 1);   /* plane 0 weight 64, plane 1 weight 0 */
        /* e0 = (10, 30, 50, 70), e1 = (20, 40, 60, 80) */
        static const unsigned e0[4] = { 10, 30, 50, 70 }, e1[4] = { 20, 40, 60, 80 };
        float got[4], want[4];
        CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, 2, 3, false, got));
        for (unsigned ch = 0; ch < 4; ch++)
            want[ch] = apply(e0[ch], e1[ch], ch == ccs ? 0 : 64, ch, false);
        CU_ASSERT_EQUAL(check_texel("dual plane", got, want), 0);
    }
}

/* "Partition Pattern Generation", written again from the spec for the expected map */
static uint32_t spec_hash52(uint32_t p)
{
    p ^= p >> 15; p -= p << 17; p += p << 7; p += p << 4;
    p ^= p >> 5; p += p << 16; p ^= p >> 7; p ^= p >> 3;
    p ^= p << 6; p ^= p >> 17;
    return p;
}

static unsigned spec_partition(unsigned seed, unsigned x, unsigned y, unsigned count, bool small)
{
    if (small) { x <<= 1; y <<= 1; }
    seed += (count - 1) * 1024;
    uint32_t r = spec_hash52(seed);
    uint8_t s1 = r & 0xF, s2 = (r >> 4) & 0xF, s3 = (r >> 8) & 0xF, s4 = (r >> 12) & 0xF;
    uint8_t s5 = (r >> 16) & 0xF, s6 = (r >> 20) & 0xF, s7 = (r >> 24) & 0xF, s8 = (r >> 28) & 0xF;
    s1 *= s1; s2 *= s2; s3 *= s3; s4 *= s4; s5 *= s5; s6 *= s6; s7 *= s7; s8 *= s8;
    int sh1, sh2;
    if (seed & 1) { sh1 = (seed & 2 ? 4 : 5); sh2 = (count == 3 ? 6 : 5); }
    else { sh1 = (count == 3 ? 6 : 5); sh2 = (seed & 2 ? 4 : 5); }
    s1 >>= sh1; s2 >>= sh2; s3 >>= sh1; s4 >>= sh2; s5 >>= sh1; s6 >>= sh2; s7 >>= sh1; s8 >>= sh2;
    int a = (int)((s1 * x + s2 * y + (r >> 14)) & 0x3F);
    int b = (int)((s3 * x + s4 * y + (r >> 10)) & 0x3F);
    int c = (int)((s5 * x + s6 * y + (r >> 6)) & 0x3F);
    int d = (int)((s7 * x + s8 * y + (r >> 2)) & 0x3F);
    if (count < 4) d = 0;
    if (count < 3) c = 0;
    if (a >= b && a >= c && a >= d) return 0;
    if (b >= c && b >= d) return 1;
    if (c >= d) return 2;
    return 3;
}

/* Two to four partitions of CEM 0 (shared: CEM field bits 23-28 = CEM << 2, selector
 * 0); partition p's luminance endpoints are (lum[p], lum[p]); all weights 0 so a
 * texel shows its partition's value. Colour data from bit 29, 2 values a partition,
 * bytes (8 values, 64 bits <= 128 - 32 - 29). */
static void test_partitions(void)
{
    static const unsigned lum[4] = { 0, 85, 170, 255 };
    int wrong = 0;
    for (unsigned count = 2; count <= 4; count++)
        for (unsigned seed = 0; seed < 1024; seed += 37) {
            for (unsigned fp = 0; fp < 2; fp++) {
                unsigned bw = fp ? 8 : 4, bh = fp ? 6 : 4;   /* 16 texels: small; 48 not */
                struct blk k;
                memset(&k, 0, sizeof k);
                put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
                put(&k, 11, 2, count - 1);
                put(&k, 13, 10, seed);
                put(&k, 23, 6, 0 << 2 | 0);
                for (unsigned p = 0; p < count; p++) {
                    put(&k, 29 + 16 * p, 8, lum[p]);
                    put(&k, 37 + 16 * p, 8, lum[p]);
                }
                for (unsigned t = 0; t < bh; t++)
                    for (unsigned s = 0; s < bw; s++) {
                        float got[4], want[4];
                        astc_decode_texel(k.b, bw, bh, s, t, false, got);
                        unsigned p = spec_partition(seed, s, t, count, bw * bh < 31);
                        for (unsigned ch = 0; ch < 4; ch++)
                            want[ch] = apply(ch < 3 ? lum[p] : 255, ch < 3 ? lum[p] : 255, 0,
                                             ch, false);
                        char what[80];
                        snprintf(what, sizeof what, "%u partitions seed %u (%u,%u) of %ux%u",
                                 count, seed, s, t, bw, bh);
                        wrong += check_texel(what, got, want);
                    }
            }
        }
    CU_ASSERT_EQUAL(wrong, 0);
    /* the hash does split blocks: seed 1 of 2 partitions on 4x4 uses both */
    unsigned seen = 0;
    for (unsigned t = 0; t < 16; t++)
        seen |= 1u << spec_partition(1, t % 4, t / 4, 2, true);
    CU_ASSERT_EQUAL(seen, 3);
}

/* Per-partition CEMs ("Color Endpoint Mode", selector != 0): two partitions,
 * CEM 0 and CEM 4 are classes 0 and 1: selector = base class + 1 = 1, C bits
 * (0, 1), M bits (0, 0): the 8-bit field 1 | 0 << 2 | 1 << 3 | 0 << 4 | 0 << 6 = 9,
 * whose low 6 bits sit at 23-28 and whose high 3 * 2 - 4 = 2 bits (0) sit just
 * below the weights. Values: p0 (v0, v1), p1 (v2, v3, v4, v5) = L0 L1 A0 A1. */
static void test_partition_cems(void)
{
    unsigned seed = 1;
    struct blk k;
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
    put(&k, 11, 2, 1);
    put(&k, 13, 10, seed);
    put(&k, 23, 6, 9);
    static const unsigned v[6] = { 40, 40, 200, 200, 99, 99 };
    for (unsigned j = 0; j < 6; j++)
        put(&k, 29 + 8 * j, 8, v[j]);
    int wrong = 0;
    for (unsigned t = 0; t < 16; t++) {
        float got[4], want[4];
        CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, t % 4, t / 4, false, got));
        unsigned p = spec_partition(seed, t % 4, t / 4, 2, true);
        for (unsigned ch = 0; ch < 4; ch++) {
            unsigned e = p == 0 ? (ch < 3 ? 40 : 255) : (ch < 3 ? 200 : 99);
            want[ch] = apply(e, e, 0, ch, false);
        }
        wrong += check_texel("partition CEMs", got, want);
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* "Void-Extent Blocks": bits 0-8 = 1 1111 1100, bit 9 = HDR, 10-11 = 11, four 13-bit
 * extent coordinates (all ones: none), RGBA as UNORM16 from bit 64. */
static struct blk void_extent(unsigned hdr, unsigned smin, unsigned smax, const unsigned c[4])
{
    struct blk k;
    memset(&k, 0, sizeof k);
    put(&k, 0, 9, 0x1fc);
    put(&k, 9, 1, hdr);
    put(&k, 10, 2, 3);
    put(&k, 12, 13, smin);
    put(&k, 25, 13, smax);
    put(&k, 38, 13, smin);
    put(&k, 51, 13, smax);
    for (unsigned i = 0; i < 4; i++)
        put(&k, 64 + 16 * i, 16, c[i]);
    return k;
}

static void test_void_extent(void)
{
    static const unsigned c[4] = { 0xffff, 0x0000, 0x8000, 0x4000 };
    struct blk k = void_extent(0, 0x1fff, 0x1fff, c);
    float got[4];
    /* FLT16: 0xFFFF -> 1.0, 0x8000 -> 0.5, 0x4000 -> 0.25 */
    static const float flt[4] = { 1.0f, 0.0f, 0.5f, 0.25f };
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 12, 12, 11, 11, false, got));
    CU_ASSERT_EQUAL(check_texel("void extent FLT16", got, flt), 0);
    /* U8sRGB: the top 8 bits: R 0xFF -> 1.0, B 0x80 through the sRGB curve, A 0x40 / 255 */
    float srgb[4] = { 1.0f, 0.0f, srgb_curve(128.0f / 255.0f), 64.0f / 255.0f };
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 5, 4, 0, 3, true, got));
    CU_ASSERT_EQUAL(check_texel("void extent sRGB", got, srgb), 0);
    /* with a real extent (low < high) it is still constant */
    k = void_extent(0, 3, 9, c);
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, 1, 2, false, got));
    CU_ASSERT_EQUAL(check_texel("void extent with extent", got, flt), 0);
    /* illegal: HDR void extent in LDR; low >= high */
    k = void_extent(1, 0x1fff, 0x1fff, c);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    CU_ASSERT_EQUAL(check_texel("HDR void extent", got, magenta), 0);
    k = void_extent(0, 9, 3, c);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    CU_ASSERT_EQUAL(check_texel("inverted extent", got, magenta), 0);
}

/* decode_float16 rounds toward zero: 254 * 257 = 65278; 65278 / 65536 lies in
 * [0.5, 1) where binary16 steps by 2^-11: 65278 / 32 = 2039.9375 -> 2039 * 2^-11
 * (round to nearest would give 2040 * 2^-11) */
static void test_float16_rounds_toward_zero(void)
{
    CU_ASSERT_TRUE(f16_of(65278) == (float)ldexp(2039, -11));
    struct blk k;
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
    put(&k, 13, 4, 0);
    put(&k, 17, 8, 254);
    put(&k, 25, 8, 254);
    float got[4];
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    CU_ASSERT_TRUE(got[0] == (float)ldexp(2039, -11));
    CU_ASSERT_TRUE(got[3] == 1.0f);
}

/* "Illegal Encodings" give the error colour for every texel. */
static void test_illegal_encodings(void)
{
    struct blk k;
    float got[4];
    int wrong = 0;
    /* reserved block mode: bits 3:0 = 0000 */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, 0x100);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    wrong += check_texel("reserved mode", got, magenta);
    /* 2x2 grid of 1-bit weights (row 4: bits 3:2 = 11, bit 8 = 1, W = B + 2, H = A + 2):
     * 4 weight bits < 24 */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, 0x1 | 3 << 2 | 1 << 8);
    put(&k, 13, 4, 0);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    wrong += check_texel("too few weight bits", got, magenta);
    /* 6x6 grid (bits 8:7 = 10, A = B = 0, R = 2 = {bit3, bit2, bit4} = 010: bit2)
     * of 36 weight bits: legal on 6x6, larger than a 4x4 block */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, 1 << 2 | 2 << 7);
    put(&k, 13, 4, 0);
    put(&k, 25, 8, 255);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    wrong += check_texel("grid larger than block", got, magenta);
    CU_ASSERT_TRUE(astc_decode_texel(k.b, 6, 6, 0, 0, false, got));
    /* dual plane with four partitions */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 2, false, true));
    put(&k, 11, 2, 3);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    wrong += check_texel("dual plane, 4 partitions", got, magenta);
    /* more than 18 colour values: 4 partitions of CEM 12 (32 values) */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
    put(&k, 11, 2, 3);
    put(&k, 23, 6, 12 << 2);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, false, got));
    wrong += check_texel("32 colour values", got, magenta);
    /* an HDR endpoint mode (CEM 2) in the LDR profile */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, mode_row0(4, 4, 4, false, false));
    put(&k, 13, 4, 2);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 0, 0, true, got));
    wrong += check_texel("HDR CEM", got, magenta);
    /* more than 64 weights: 12x? not reachable below 8x8 dual: 6x6 dual-plane row 0
     * can't, so a 8x? grid: row 1 (W = B + 8, H = A + 2) 8x5 dual = 80 weights */
    memset(&k, 0, sizeof k);
    put(&k, 0, 11, 0x1 | 1 << 2 | 3 << 5 | 0 << 7 | 1 << 10);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 12, 12, 0, 0, false, got));
    wrong += check_texel("80 weights", got, magenta);
    /* footprints the formats do not have */
    memset(&k, 0, sizeof k);
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 3, 4, 0, 0, false, got));
    CU_ASSERT_FALSE(astc_decode_texel(k.b, 4, 4, 4, 0, false, got));
    CU_ASSERT_EQUAL(wrong, 0);
    /* the HDR (ASTC_FULL) formats are not decoded */
    struct format_value texels[ASTC_MAX_TEXELS];
    CU_ASSERT_EQUAL(format_decode_block(0x340, k.b, texels), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_decode_block_texel(0x340, k.b, 0, 0, texels), FORMAT_NOT_SUPPORTED);
}

static const struct test_case cases[] = {
    { "block mode fields", test_block_mode_fields },
    { "rgb direct, every footprint", test_rgb_direct_every_footprint },
    { "colour endpoint modes", test_colour_endpoint_modes },
    { "trit and quint weights", test_trit_and_quint_weights },
    { "quint-coded colours", test_quint_coded_colours },
    { "dual plane", test_dual_plane },
    { "partitions", test_partitions },
    { "per-partition endpoint modes", test_partition_cems },
    { "void extent", test_void_extent },
    { "float16 rounds toward zero", test_float16_rounds_toward_zero },
    { "illegal encodings", test_illegal_encodings },
    { 0 }
};
TEST_SUITE(format_astc, cases);
