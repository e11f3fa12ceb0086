/* units/common/tiling.c - tile shapes and the offset of a byte in a tiled
 * surface (see tiling.h for the layouts and their sources). */
#include "units/common/tiling.h"

#include <stddef.h>

/* One tiling's scatter: bit i of the in-tile offset takes the next bit of the
 * byte column u where u_mask has bit i, the next bit of the row v where v_mask
 * has it. Written from 003 L5332-5344, listed there from A[15] down:
 *   TileX           A[11:0] = v2 v1 v0 u8 u7 u6 u5 u4 u3 u2 u1 u0
 *   TileY           A[11:0] = u6 u5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0
 *   TileYS 64/128   A[15:0] = u9 v5 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0
 *   TileYS 16/32    A[15:0] = u8 v6 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0
 *   TileYS 8        A[15:0] = u7 v7 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0
 *   TileYF          the low 12 bits of TileYS of the same bits per element
 *                   (the seed's YF rows share the YS cells of A[11:0]).
 * TileW from Mesa/gmmlib (tiling.h). */
struct scatter {
    uint16_t u_mask, v_mask;
};

static const struct scatter scatter_x = { 0x01FF, 0x0E00 };
static const struct scatter scatter_y = { 0x0E0F, 0x01F0 };
static const struct scatter scatter_w = { 0x0E15, 0x01EA };
/* Ys by log2(bytes per element) 0..4 (8, 16, 32, 64, 128 bits) */
static const struct scatter scatter_ys[5] = {
    { 0xAA0F, 0x55F0 }, { 0xAA8F, 0x5570 }, { 0xAA8F, 0x5570 },
    { 0xAACF, 0x5530 }, { 0xAACF, 0x5530 },
};

static const char *const names[TILING_COUNT] = {
    [TILING_LINEAR] = "linear", [TILING_X] = "X", [TILING_Y] = "Y",
    [TILING_W] = "W", [TILING_YF] = "Yf", [TILING_YS] = "Ys",
};

const char *tiling_name(enum tiling t)
{
    return (unsigned)t < TILING_COUNT ? names[t] : "?";
}

static int log2_exact(uint32_t v)
{
    for (int i = 0; i < 32; i++)
        if (v == 1u << i)
            return i;
    return -1;
}

/* The scatter of t for elements of element_bytes, or false. */
static bool scatter_of(enum tiling t, uint32_t element_bytes, struct scatter *out)
{
    int e = log2_exact(element_bytes);
    switch (t) {
    case TILING_X: *out = scatter_x; return true;
    case TILING_Y: *out = scatter_y; return true;
    case TILING_W: *out = scatter_w; return true;
    case TILING_YS:
    case TILING_YF:
        if (e < 0 || e > 4)
            return false;
        *out = scatter_ys[e];
        if (t == TILING_YF) {
            out->u_mask &= 0x0FFF;
            out->v_mask &= 0x0FFF;
        }
        return true;
    default:
        return false;
    }
}

static uint32_t popcount16(uint32_t m)
{
    uint32_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* Scatters the low bits of value over the set bits of mask, lowest first. */
static uint32_t deposit(uint32_t value, uint32_t mask)
{
    uint32_t out = 0;
    for (uint32_t bit = 1; mask; bit <<= 1) {
        if (mask & bit) {
            if (value & 1)
                out |= bit;
            value >>= 1;
            mask &= ~bit;
        }
    }
    return out;
}

bool tiling_shape(enum tiling t, uint32_t element_bytes, struct tile_shape *out)
{
    if (t == TILING_LINEAR) {
        *out = (struct tile_shape){ 1, 1, 1 };
        return true;
    }
    struct scatter s;
    if (!scatter_of(t, element_bytes, &s))
        return false;
    out->width_bytes = 1u << popcount16(s.u_mask);
    out->height_rows = 1u << popcount16(s.v_mask);
    out->size_bytes = out->width_bytes * out->height_rows;
    return true;
}

bool tiling_offset(enum tiling t, uint32_t element_bytes, uint32_t pitch, uint64_t x_bytes,
                   uint64_t y_rows, uint64_t *offset)
{
    if (t == TILING_LINEAR) {
        *offset = y_rows * pitch + x_bytes;
        return true;
    }
    struct scatter s;
    struct tile_shape shape;
    if (!scatter_of(t, element_bytes, &s) || !tiling_shape(t, element_bytes, &shape))
        return false;
    uint64_t tile_row = y_rows / shape.height_rows, tile_column = x_bytes / shape.width_bytes;
    uint32_t u = (uint32_t)(x_bytes % shape.width_bytes), v = (uint32_t)(y_rows % shape.height_rows);
    *offset = tile_row * (uint64_t)pitch * shape.height_rows + tile_column * shape.size_bytes +
              (deposit(u, s.u_mask) | deposit(v, s.v_mask));
    return true;
}
