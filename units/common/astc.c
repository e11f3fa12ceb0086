/* units/common/astc.c - ASTC LDR 2D block decoding (see astc.h for the sections
 * of the Khronos Data Format Specification 1.3 each step follows). */
#include "units/common/astc.h"

#include <math.h>
#include <string.h>

#include "units/common/format.h"

/* ---- bits ------------------------------------------------------------------------ */

/* n (<= 32) bits from bit pos of a little-endian 128-bit block; bits at or
 * beyond `end` read as 0 (the truncated end of an integer sequence). */
static uint32_t bits_at(const uint8_t *b, unsigned pos, unsigned n, unsigned end)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned p = pos + i;
        if (p < end && p < 128)
            v |= (uint32_t)((b[p / 8] >> (p % 8)) & 1u) << i;
    }
    return v;
}

/* ---- integer sequence encoding ---------------------------------------------------- */

/* The quantization ranges of "Integer Sequence Encoding", by number of levels. */
struct ise_range {
    uint16_t levels;
    uint8_t trits, quints, bits;
};

static const struct ise_range ranges[] = {
    { 2, 0, 0, 1 },   { 3, 1, 0, 0 },   { 4, 0, 0, 2 },   { 5, 0, 1, 0 },   { 6, 1, 0, 1 },
    { 8, 0, 0, 3 },   { 10, 0, 1, 1 },  { 12, 1, 0, 2 },  { 16, 0, 0, 4 },  { 20, 0, 1, 2 },
    { 24, 1, 0, 3 },  { 32, 0, 0, 5 },  { 40, 0, 1, 3 },  { 48, 1, 0, 4 },  { 64, 0, 0, 6 },
    { 80, 0, 1, 4 },  { 96, 1, 0, 5 },  { 128, 0, 0, 7 }, { 160, 0, 1, 5 }, { 192, 1, 0, 6 },
    { 256, 0, 0, 8 },
};
#define RANGE_COUNT (sizeof ranges / sizeof ranges[0])
#define COLOUR_RANGE_FIRST 4        /* 0..5: the smallest endpoint range */

static unsigned ise_bit_count(const struct ise_range *r, unsigned count)
{
    return count * r->bits + (r->trits ? (8 * count + 4) / 5 : 0) +
           (r->quints ? (7 * count + 2) / 3 : 0);
}

/* The five trits of an 8-bit T ("Integer Sequence Encoding", trit decoding). */
static void decode_trits(uint32_t T, unsigned t[5])
{
    uint32_t C;
    if (((T >> 2) & 7) == 7) {
        C = ((T >> 5) & 7) << 2 | (T & 3);
        t[4] = 2;
        t[3] = 2;
    } else {
        C = T & 0x1f;
        if (((T >> 5) & 3) == 3) {
            t[4] = 2;
            t[3] = (T >> 7) & 1;
        } else {
            t[4] = (T >> 7) & 1;
            t[3] = (T >> 5) & 3;
        }
    }
    if ((C & 3) == 3) {
        t[2] = 2;
        t[1] = (C >> 4) & 1;
        t[0] = ((C >> 3) & 1) << 1 | (((C >> 2) & 1) & ~((C >> 3) & 1));
    } else if (((C >> 2) & 3) == 3) {
        t[2] = 2;
        t[1] = 2;
        t[0] = C & 3;
    } else {
        t[2] = (C >> 4) & 1;
        t[1] = (C >> 2) & 3;
        t[0] = ((C >> 1) & 1) << 1 | ((C & 1) & ~((C >> 1) & 1));
    }
}

/* The three quints of a 7-bit Q. */
static void decode_quints(uint32_t Q, unsigned q[3])
{
    if (((Q >> 1) & 3) == 3 && ((Q >> 5) & 3) == 0) {
        unsigned q0 = Q & 1;
        q[2] = q0 << 2 | (((Q >> 4) & 1) & ~q0) << 1 | (((Q >> 3) & 1) & ~q0);
        q[1] = 4;
        q[0] = 4;
        return;
    }
    uint32_t C;
    if (((Q >> 1) & 3) == 3) {
        q[2] = 4;
        C = ((Q >> 3) & 3) << 3 | ((~Q >> 5) & 3) << 1 | (Q & 1);
    } else {
        q[2] = (Q >> 5) & 3;
        C = Q & 0x1f;
    }
    if ((C & 7) == 5) {
        q[1] = 4;
        q[0] = (C >> 3) & 3;
    } else {
        q[1] = (C >> 3) & 3;
        q[0] = C & 7;
    }
}

/* `count` values of range r from bit `start` of data: each value is
 * (trit or quint) << bits | the value's low bits. */
static void ise_decode(const uint8_t *data, unsigned start, const struct ise_range *r,
                       unsigned count, unsigned *values)
{
    unsigned end = start + ise_bit_count(r, count);
    unsigned pos = start, nb = r->bits;
    if (r->trits) {
        /* m0 T1:0 m1 T3:2 m2 T4 m3 T6:5 m4 T7 */
        static const uint8_t tbits[5] = { 2, 2, 1, 2, 1 };
        for (unsigned i = 0; i < count; i += 5) {
            uint32_t m[5], T = 0;
            unsigned tpos = 0;
            for (unsigned k = 0; k < 5; k++) {
                m[k] = bits_at(data, pos, nb, end);
                pos += nb;
                T |= bits_at(data, pos, tbits[k], end) << tpos;
                pos += tbits[k];
                tpos += tbits[k];
            }
            unsigned t[5];
            decode_trits(T, t);
            for (unsigned k = 0; k < 5 && i + k < count; k++)
                values[i + k] = t[k] << nb | m[k];
        }
    } else if (r->quints) {
        /* m0 Q2:0 m1 Q4:3 m2 Q6:5 */
        static const uint8_t qbits[3] = { 3, 2, 2 };
        for (unsigned i = 0; i < count; i += 3) {
            uint32_t m[3], Q = 0;
            unsigned qpos = 0;
            for (unsigned k = 0; k < 3; k++) {
                m[k] = bits_at(data, pos, nb, end);
                pos += nb;
                Q |= bits_at(data, pos, qbits[k], end) << qpos;
                pos += qbits[k];
                qpos += qbits[k];
            }
            unsigned q[3];
            decode_quints(Q, q);
            for (unsigned k = 0; k < 3 && i + k < count; k++)
                values[i + k] = q[k] << nb | m[k];
        }
    } else {
        for (unsigned i = 0; i < count; i++, pos += nb)
            values[i] = bits_at(data, pos, nb, end);
    }
}

/* ---- unquantization ---------------------------------------------------------------- */

static unsigned replicate(unsigned v, unsigned from_bits, unsigned to_bits)
{
    if (from_bits == 0)
        return 0;
    unsigned out = 0;
    int shift = (int)to_bits - (int)from_bits;
    while (shift > -(int)from_bits) {
        out |= shift >= 0 ? v << shift : v >> -shift;
        shift -= (int)from_bits;
    }
    return out & ((1u << to_bits) - 1);
}

/* "Endpoint Unquantization": a colour value to 0..255. */
static unsigned unquantize_colour(const struct ise_range *r, unsigned v)
{
    unsigned nb = r->bits;
    if (!r->trits && !r->quints)
        return replicate(v, nb, 8);
    unsigned m = v & ((1u << nb) - 1), D = v >> nb;
    unsigned a = m & 1, b = (m >> 1) & 1, c = (m >> 2) & 1, d = (m >> 3) & 1, e = (m >> 4) & 1,
             f = (m >> 5) & 1;
    unsigned A = a ? 0x1ff : 0, B = 0, C = 0;
    if (r->trits) {
        switch (nb) {
        case 1: C = 204; break;
        case 2: C = 93; B = b << 8 | b << 4 | b << 2 | b << 1; break;                  /* b000b0bb0 */
        case 3: C = 44; B = c << 8 | b << 7 | c << 3 | b << 2 | c << 1 | b; break;     /* cb000cbcb */
        case 4: C = 22; B = d << 8 | c << 7 | b << 6 | d << 2 | c << 1 | b; break;     /* dcb000dcb */
        case 5: C = 11; B = e << 8 | d << 7 | c << 6 | b << 5 | e << 1 | d; break;     /* edcb000ed */
        case 6: C = 5; B = f << 8 | e << 7 | d << 6 | c << 5 | b << 4 | f; break;      /* fedcb000f */
        default: return 0;
        }
    } else {
        switch (nb) {
        case 1: C = 113; break;
        case 2: C = 54; B = b << 8 | b << 3 | b << 2; break;                           /* b0000bb00 */
        case 3: C = 26; B = c << 8 | b << 7 | c << 2 | b << 1 | c; break;              /* cb0000cbc */
        case 4: C = 13; B = d << 8 | c << 7 | b << 6 | d << 1 | c; break;              /* dcb0000dc */
        case 5: C = 6; B = e << 8 | d << 7 | c << 6 | b << 5 | e; break;               /* edcb0000e */
        default: return 0;
        }
    }
    unsigned T = D * C + B;
    T ^= A;
    return (A & 0x80) | (T >> 2);
}

/* "Weight Unquantization": a weight to 0..64. */
static unsigned unquantize_weight(const struct ise_range *r, unsigned v)
{
    unsigned nb = r->bits, w;
    if (!r->trits && !r->quints) {
        w = replicate(v, nb, 6);
    } else if (nb == 0) {
        static const uint8_t trit0[3] = { 0, 32, 63 }, quint0[5] = { 0, 16, 32, 47, 63 };
        w = r->trits ? trit0[v % 3] : quint0[v % 5];
    } else {
        unsigned m = v & ((1u << nb) - 1), D = v >> nb;
        unsigned a = m & 1, b = (m >> 1) & 1, c = (m >> 2) & 1;
        unsigned A = a ? 0x7f : 0, B = 0, C = 0;
        if (r->trits) {
            switch (nb) {
            case 1: C = 50; break;
            case 2: C = 23; B = b << 6 | b << 2 | b; break;                    /* b000b0b */
            case 3: C = 11; B = c << 6 | b << 5 | c << 1 | b; break;           /* cb000cb */
            default: return 0;
            }
        } else {
            switch (nb) {
            case 1: C = 28; break;
            case 2: C = 13; B = b << 6 | b << 1; break;                        /* b0000b0 */
            default: return 0;
            }
        }
        unsigned T = D * C + B;
        T ^= A;
        w = (A & 0x20) | (T >> 2);
    }
    return w > 32 ? w + 1 : w;
}

/* ---- the parsed block ---------------------------------------------------------------- */

struct astc_block {
    bool error, void_extent;
    uint16_t void_colour[4];
    unsigned grid_w, grid_h, partitions, partition_index, ccs;
    bool dual;
    uint8_t endpoints[4][2][4];     /* partition, endpoint, RGBA (0..255) */
    uint8_t weights[2][64];         /* plane, grid index (0..64) */
};

static int clamp255(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* "Color Encoding": bit_transfer_signed(a, b) */
static void bit_transfer_signed(int *a, int *b)
{
    *b >>= 1;
    *b |= *a & 0x80;
    *a >>= 1;
    *a &= 0x3f;
    if (*a & 0x20)
        *a -= 0x40;
}

static void set_rgba(uint8_t e[4], int r, int g, int b, int a)
{
    e[0] = (uint8_t)clamp255(r);
    e[1] = (uint8_t)clamp255(g);
    e[2] = (uint8_t)clamp255(b);
    e[3] = (uint8_t)clamp255(a);
}

/* blue_contract(r, g, b, a) = ((r + b) >> 1, (g + b) >> 1, b, a) */
static void set_blue_contract(uint8_t e[4], int r, int g, int b, int a)
{
    set_rgba(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

/* The two endpoints of an LDR colour endpoint mode; false for the HDR modes. */
static bool decode_endpoints(unsigned cem, const unsigned *vin, uint8_t e[2][4])
{
    int v[8];
    for (unsigned i = 0; i < 8; i++)
        v[i] = (int)vin[i];
    switch (cem) {
    case 0:     /* LDR luminance, direct */
        set_rgba(e[0], v[0], v[0], v[0], 0xff);
        set_rgba(e[1], v[1], v[1], v[1], 0xff);
        return true;
    case 1: {   /* LDR luminance, base + offset */
        int l0 = (v[0] >> 2) | (v[1] & 0xc0);
        int l1 = l0 + (v[1] & 0x3f);
        if (l1 > 0xff)
            l1 = 0xff;
        set_rgba(e[0], l0, l0, l0, 0xff);
        set_rgba(e[1], l1, l1, l1, 0xff);
        return true;
    }
    case 4:     /* LDR luminance + alpha, direct */
        set_rgba(e[0], v[0], v[0], v[0], v[2]);
        set_rgba(e[1], v[1], v[1], v[1], v[3]);
        return true;
    case 5:     /* LDR luminance + alpha, base + offset */
        bit_transfer_signed(&v[1], &v[0]);
        bit_transfer_signed(&v[3], &v[2]);
        set_rgba(e[0], v[0], v[0], v[0], v[2]);
        set_rgba(e[1], v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
        return true;
    case 6:     /* LDR RGB, base + scale */
        set_rgba(e[0], (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 0xff);
        set_rgba(e[1], v[0], v[1], v[2], 0xff);
        return true;
    case 8:     /* LDR RGB, direct */
    case 12: {  /* LDR RGBA, direct */
        int a0 = cem == 12 ? v[6] : 0xff, a1 = cem == 12 ? v[7] : 0xff;
        if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
            set_rgba(e[0], v[0], v[2], v[4], a0);
            set_rgba(e[1], v[1], v[3], v[5], a1);
        } else {
            set_blue_contract(e[0], v[1], v[3], v[5], a1);
            set_blue_contract(e[1], v[0], v[2], v[4], a0);
        }
        return true;
    }
    case 9:     /* LDR RGB, base + offset */
    case 13: {  /* LDR RGBA, base + offset */
        bit_transfer_signed(&v[1], &v[0]);
        bit_transfer_signed(&v[3], &v[2]);
        bit_transfer_signed(&v[5], &v[4]);
        if (cem == 13)
            bit_transfer_signed(&v[7], &v[6]);
        else
            v[6] = 0xff, v[7] = 0;
        if (v[1] + v[3] + v[5] >= 0) {
            set_rgba(e[0], v[0], v[2], v[4], v[6]);
            set_rgba(e[1], v[0] + v[1], v[2] + v[3], v[4] + v[5], v[6] + v[7]);
        } else {
            set_blue_contract(e[0], v[0] + v[1], v[2] + v[3], v[4] + v[5], v[6] + v[7]);
            set_blue_contract(e[1], v[0], v[2], v[4], v[6]);
        }
        return true;
    }
    case 10:    /* LDR RGB, base + scale, plus two A */
        set_rgba(e[0], (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
        set_rgba(e[1], v[0], v[1], v[2], v[5]);
        return true;
    default:    /* 2, 3, 7, 11, 14, 15: HDR modes */
        return false;
    }
}

/* "Block Mode": grid size, weight range (index into ranges), dual plane; false for
 * the reserved encodings. */
static bool decode_block_mode(uint32_t mode, unsigned *gw, unsigned *gh, bool *dual,
                              unsigned *range_index)
{
    unsigned R, H = (mode >> 9) & 1, A = (mode >> 5) & 3, B;
    *dual = (mode >> 10) & 1;
    if (mode & 3) {
        R = ((mode >> 4) & 1) | (mode & 3) << 1;
        B = (mode >> 7) & 3;
        switch ((mode >> 2) & 3) {
        case 0: *gw = B + 4; *gh = A + 2; break;
        case 1: *gw = B + 8; *gh = A + 2; break;
        case 2: *gw = A + 2; *gh = B + 8; break;
        default:
            B &= 1;
            if (mode & 0x100)
                *gw = B + 2, *gh = A + 2;
            else
                *gw = A + 2, *gh = B + 6;
            break;
        }
    } else {
        if ((mode & 0xf) == 0)
            return false;
        R = ((mode >> 4) & 1) | ((mode >> 2) & 3) << 1;
        switch ((mode >> 7) & 3) {
        case 0: *gw = 12; *gh = A + 2; break;
        case 1: *gw = A + 2; *gh = 12; break;
        case 2:
            B = (mode >> 9) & 3;
            *gw = A + 6;
            *gh = B + 6;
            *dual = false;
            H = 0;
            break;
        default:
            if (A == 0)
                *gw = 6, *gh = 10;
            else if (A == 1)
                *gw = 10, *gh = 6;
            else
                return false;
            break;
        }
    }
    /* weight ranges: R 2..7 -> levels 2,3,4,5,6,8 (H = 0), 10,12,16,20,24,32 (H = 1) */
    static const uint8_t by_r[2][6] = { { 0, 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10, 11 } };
    if (R < 2)
        return false;
    *range_index = by_r[H][R - 2];
    return true;
}

static void parse_void_extent(const uint8_t *b, struct astc_block *blk)
{
    blk->void_extent = true;
    if ((b[1] >> 1) & 1) {      /* bit 9: HDR void extent, an error in LDR */
        blk->error = true;
        return;
    }
    uint32_t smin = bits_at(b, 12, 13, 128), smax = bits_at(b, 25, 13, 128);
    uint32_t tmin = bits_at(b, 38, 13, 128), tmax = bits_at(b, 51, 13, 128);
    bool all_ones = smin == 0x1fff && smax == 0x1fff && tmin == 0x1fff && tmax == 0x1fff;
    if (!all_ones && (smin >= smax || tmin >= tmax)) {
        blk->error = true;
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        blk->void_colour[c] = (uint16_t)bits_at(b, 64 + 16 * c, 16, 128);
}

static void parse(const uint8_t *b, unsigned bw, unsigned bh, struct astc_block *blk)
{
    memset(blk, 0, sizeof *blk);
    uint32_t mode = bits_at(b, 0, 11, 128);
    if ((mode & 0x1ff) == 0x1fc) {
        parse_void_extent(b, blk);
        return;
    }
    unsigned range_index;
    if (!decode_block_mode(mode, &blk->grid_w, &blk->grid_h, &blk->dual, &range_index)) {
        blk->error = true;
        return;
    }
    const struct ise_range *wr = &ranges[range_index];
    unsigned planes = blk->dual ? 2 : 1;
    unsigned weight_count = blk->grid_w * blk->grid_h * planes;
    unsigned weight_bits = weight_count <= 64 ? ise_bit_count(wr, weight_count) : 0;
    blk->partitions = bits_at(b, 11, 2, 128) + 1;
    if (weight_count > 64 || weight_bits < 24 || weight_bits > 96 || blk->grid_w > bw ||
        blk->grid_h > bh || (blk->dual && blk->partitions == 4)) {
        blk->error = true;
        return;
    }
    unsigned cem[4], colour_start, below = 128 - weight_bits;
    if (blk->partitions == 1) {
        cem[0] = bits_at(b, 13, 4, 128);
        colour_start = 17;
    } else {
        blk->partition_index = bits_at(b, 13, 10, 128);
        uint32_t low = bits_at(b, 23, 6, 128);
        colour_start = 29;
        unsigned selector = low & 3;
        if (selector == 0) {
            for (unsigned p = 0; p < blk->partitions; p++)
                cem[p] = low >> 2;
        } else {
            unsigned extra = 3 * blk->partitions - 4;
            below -= extra;
            uint32_t all = low | bits_at(b, below, extra, 128) << 6;
            unsigned base = selector - 1, n = blk->partitions;
            for (unsigned p = 0; p < n; p++) {
                unsigned class_bit = (all >> (2 + p)) & 1;
                unsigned m = (all >> (2 + n + 2 * p)) & 3;
                cem[p] = (base + class_bit) << 2 | m;
            }
        }
    }
    if (blk->dual) {
        below -= 2;
        blk->ccs = bits_at(b, below, 2, 128);
    }
    unsigned colour_values = 0;
    for (unsigned p = 0; p < blk->partitions; p++)
        colour_values += 2 * ((cem[p] >> 2) + 1);
    if (colour_values > 18 || below < colour_start) {
        blk->error = true;
        return;
    }
    unsigned available = below - colour_start;
    int colour_range = -1;
    for (unsigned i = COLOUR_RANGE_FIRST; i < RANGE_COUNT; i++)
        if (ise_bit_count(&ranges[i], colour_values) <= available)
            colour_range = (int)i;
    if (colour_range < 0) {
        blk->error = true;
        return;
    }
    unsigned raw[18], colour[18];
    ise_decode(b, colour_start, &ranges[colour_range], colour_values, raw);
    for (unsigned i = 0; i < colour_values; i++)
        colour[i] = unquantize_colour(&ranges[colour_range], raw[i]);
    unsigned at = 0;
    for (unsigned p = 0; p < blk->partitions; p++) {
        unsigned v[8] = { 0 };
        unsigned n = 2 * ((cem[p] >> 2) + 1);
        memcpy(v, colour + at, n * sizeof v[0]);
        at += n;
        if (!decode_endpoints(cem[p], v, blk->endpoints[p])) {
            blk->error = true;
            return;
        }
    }
    /* weights: read from the top of the block down (the block bit-reversed) */
    uint8_t reversed[16];
    for (unsigned i = 0; i < 16; i++) {
        uint8_t x = b[15 - i], r = 0;
        for (unsigned k = 0; k < 8; k++)
            r |= (uint8_t)(((x >> k) & 1) << (7 - k));
        reversed[i] = r;
    }
    unsigned w[64];
    ise_decode(reversed, 0, wr, weight_count, w);
    for (unsigned i = 0; i < weight_count; i++)
        blk->weights[i % planes][i / planes] = (uint8_t)unquantize_weight(wr, w[i]);
}

/* ---- partition, infill, application -------------------------------------------------- */

static uint32_t hash52(uint32_t p)
{
    p ^= p >> 15;
    p -= p << 17;
    p += p << 7;
    p += p << 4;
    p ^= p >> 5;
    p += p << 16;
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    return p;
}

/* "Partition Pattern Generation" (2D: z = 0) */
static unsigned select_partition(unsigned seed, unsigned x, unsigned y, unsigned count,
                                 bool small_block)
{
    if (small_block) {
        x <<= 1;
        y <<= 1;
    }
    seed += (count - 1) * 1024;
    uint32_t rnum = hash52(seed);
    uint8_t s[12];
    s[0] = rnum & 0xf;
    s[1] = (rnum >> 4) & 0xf;
    s[2] = (rnum >> 8) & 0xf;
    s[3] = (rnum >> 12) & 0xf;
    s[4] = (rnum >> 16) & 0xf;
    s[5] = (rnum >> 20) & 0xf;
    s[6] = (rnum >> 24) & 0xf;
    s[7] = (rnum >> 28) & 0xf;
    s[8] = (rnum >> 18) & 0xf;
    s[9] = (rnum >> 22) & 0xf;
    s[10] = (rnum >> 26) & 0xf;
    s[11] = ((rnum >> 30) | (rnum << 2)) & 0xf;
    for (unsigned i = 0; i < 12; i++)
        s[i] = (uint8_t)(s[i] * s[i]);
    unsigned sh1, sh2, sh3;
    if (seed & 1) {
        sh1 = (seed & 2) ? 4 : 5;
        sh2 = count == 3 ? 6 : 5;
    } else {
        sh1 = count == 3 ? 6 : 5;
        sh2 = (seed & 2) ? 4 : 5;
    }
    sh3 = (seed & 0x10) ? sh1 : sh2;
    for (unsigned i = 0; i < 8; i++)
        s[i] = (uint8_t)(s[i] >> ((i & 1) ? sh2 : sh1));
    for (unsigned i = 8; i < 12; i++)
        s[i] = (uint8_t)(s[i] >> sh3);
    /* z = 0: the seed11, seed12, seed9, seed10 terms vanish */
    unsigned a = (s[0] * x + s[1] * y + (rnum >> 14)) & 0x3f;
    unsigned b = (s[2] * x + s[3] * y + (rnum >> 10)) & 0x3f;
    unsigned c = (s[4] * x + s[5] * y + (rnum >> 6)) & 0x3f;
    unsigned d = (s[6] * x + s[7] * y + (rnum >> 2)) & 0x3f;
    if (count < 4)
        d = 0;
    if (count < 3)
        c = 0;
    if (a >= b && a >= c && a >= d)
        return 0;
    if (b >= c && b >= d)
        return 1;
    if (c >= d)
        return 2;
    return 3;
}

/* "Weight Infill": the weight (0..64) of texel (s, t) on one plane. */
static unsigned infill(const struct astc_block *blk, unsigned plane, unsigned bw, unsigned bh,
                       unsigned s, unsigned t)
{
    unsigned gw = blk->grid_w, gh = blk->grid_h;
    unsigned ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
    unsigned cs = ds * s, ct = dt * t;
    unsigned gs = (cs * (gw - 1) + 32) >> 6, gt = (ct * (gh - 1) + 32) >> 6;
    unsigned js = gs >> 4, fs = gs & 0xf, jt = gt >> 4, ft = gt & 0xf;
    unsigned w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
    const uint8_t *w = blk->weights[plane];
#define GRID(x, y) ((x) < gw && (y) < gh ? w[(y) * gw + (x)] : 0u)
    unsigned p00 = GRID(js, jt), p01 = GRID(js + 1, jt), p10 = GRID(js, jt + 1),
             p11 = GRID(js + 1, jt + 1);
#undef GRID
    return (p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11 + 8) >> 4;
}

/* decode_float16 of a 16-bit result: 0xFFFF is 1.0, else C / 65536 rounded toward
 * zero to binary16 (normals keep 11 significant bits, subnormals steps of 2^-24). */
static float unorm16_to_half(unsigned c)
{
    if (c >= 0xffff)
        return 1.0f;
    if (c == 0)
        return 0.0f;
    float v = (float)c / 65536.0f;
    int e;
    frexpf(v, &e);                      /* v = m * 2^e, m in [0.5, 1) */
    int lead = e - 1;
    int ulp_exp = lead >= -14 ? lead - 10 : -24;
    return ldexpf(floorf(ldexpf(v, -ulp_exp)), ulp_exp);
}

static void error_colour(float rgba[4])
{
    rgba[0] = 1.0f;
    rgba[1] = 0.0f;
    rgba[2] = 1.0f;
    rgba[3] = 1.0f;
}

static void finish(unsigned c16, unsigned channel, bool srgb, float *out)
{
    if (!srgb) {
        *out = unorm16_to_half(c16);
        return;
    }
    float v = (float)(c16 >> 8) / 255.0f;
    *out = channel < 3 ? format_srgb_to_linear(v) : v;
}

static void texel(const struct astc_block *blk, unsigned bw, unsigned bh, unsigned s,
                  unsigned t, bool srgb, float rgba[4])
{
    if (blk->error) {
        error_colour(rgba);
        return;
    }
    if (blk->void_extent) {
        for (unsigned c = 0; c < 4; c++)
            finish(blk->void_colour[c], c, srgb, &rgba[c]);
        return;
    }
    unsigned p = blk->partitions > 1
                     ? select_partition(blk->partition_index, s, t, blk->partitions, bw * bh < 31)
                     : 0;
    unsigned w0 = infill(blk, 0, bw, bh, s, t);
    unsigned w1 = blk->dual ? infill(blk, 1, bw, bh, s, t) : w0;
    for (unsigned c = 0; c < 4; c++) {
        unsigned c0 = blk->endpoints[p][0][c], c1 = blk->endpoints[p][1][c];
        if (srgb && c < 3) {
            c0 = c0 << 8 | 0x80;
            c1 = c1 << 8 | 0x80;
        } else {
            c0 *= 257;
            c1 *= 257;
        }
        unsigned w = blk->dual && c == blk->ccs ? w1 : w0;
        unsigned c16 = (c0 * (64 - w) + c1 * w + 32) / 64;
        finish(c16, c, srgb, &rgba[c]);
    }
}

static bool footprint_ok(unsigned bw, unsigned bh)
{
    return bw >= 4 && bw <= 12 && bh >= 4 && bh <= 12;
}

bool astc_decode_texel(const uint8_t block[16], unsigned width, unsigned height, unsigned s,
                       unsigned t, bool srgb, float rgba[4])
{
    if (!footprint_ok(width, height) || s >= width || t >= height) {
        error_colour(rgba);
        return false;
    }
    struct astc_block blk;
    parse(block, width, height, &blk);
    texel(&blk, width, height, s, t, srgb, rgba);
    return !blk.error;
}

bool astc_decode_block(const uint8_t block[16], unsigned width, unsigned height, bool srgb,
                       float *rgba)
{
    if (!footprint_ok(width, height))
        return false;
    struct astc_block blk;
    parse(block, width, height, &blk);
    for (unsigned t = 0; t < height; t++)
        for (unsigned s = 0; s < width; s++)
            texel(&blk, width, height, s, t, srgb, rgba + 4 * (t * width + s));
    return !blk.error;
}
