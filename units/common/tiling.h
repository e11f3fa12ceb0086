/* units/common/tiling.h - how a tiled surface lays its bytes out in memory.
 *
 * A tiled surface is a grid of tiles in row-major order, each tile stored
 * contiguously; inside a tile every byte's offset is made by scattering the
 * bits of its byte column u and row v over the offset's bits. The scatter of
 * each tiling is one row of a table (tiling.c), written from the seed's
 * "Tiled 2D Surface Address Offset" table (003 L5332-5344: TileX, TileY,
 * TileYF, TileYS per bits per element) and, for TileW (not in that table),
 * from the public layout of the stencil W tile (Mesa i965's intel_offset_S8
 * and gmmlib's CpuSwizzleBlt.c INTEL_TILE_W agree: 64 B x 64 rows,
 * A[11:0] = u5 u4 u3 v5 v4 v3 v2 u2 v1 u1 v0 u0).
 *
 *   linear  offset = v * pitch + u
 *   X       4 KiB tile, 512 B x 8 rows, rows of the tile stored one after another
 *   Y       4 KiB tile, 128 B x 32 rows, made of 16 B (OWord) columns of 32 rows
 *   W       4 KiB tile, 64 B x 64 rows (stencil), the W swizzle above
 *   Yf      4 KiB tile, shape by bits per element: 8: 64 B x 64, 16/32: 128 B x 32,
 *           64/128: 256 B x 16 (Gen9 "TileYF")
 *   Ys      64 KiB tile: 8: 256 B x 256, 16/32: 512 B x 128, 64/128: 1 KiB x 64
 *
 * Not modelled: bit-6 address swizzling (the memory controller's XOR of bit 6
 * with bits 9/10/11 on some parts; the simulator's memory is not channel
 * interleaved), the Yf/Ys tile shapes of 3D and multisampled surfaces (gmmlib's
 * INTEL_TILE_YF_3D_* / _MSAA*_*; tiling_shape refuses none of them, the
 * surface library refuses those surfaces), and the TileYS/YF mip tail.
 */
#ifndef GTSIM_UNITS_COMMON_TILING_H
#define GTSIM_UNITS_COMMON_TILING_H

#include <stdbool.h>
#include <stdint.h>

enum tiling {
    TILING_LINEAR,
    TILING_X,
    TILING_Y,
    TILING_W,
    TILING_YF,      /* Gen9 TileYF: Tile Mode YMAJOR + Tiled Resource Mode 4KB */
    TILING_YS,      /* Gen9 TileYS: Tile Mode YMAJOR + Tiled Resource Mode 64KB */
    TILING_COUNT
};

/* One tile's shape. Linear reports a 1-row "tile" of 1 byte. */
struct tile_shape {
    uint32_t width_bytes;       /* bytes of one tile row */
    uint32_t height_rows;
    uint32_t size_bytes;        /* width_bytes * height_rows */
};

const char *tiling_name(enum tiling t);

/* The tile shape of tiling t for elements of element_bytes bytes (only Yf/Ys
 * depend on it: 1, 2, 4, 8 or 16). False for an unknown tiling or an element
 * size Yf/Ys have no shape for. */
bool tiling_shape(enum tiling t, uint32_t element_bytes, struct tile_shape *out);

/* The byte offset of byte column x_bytes of row y_rows from the surface's
 * origin, for a surface of pitch bytes per row (a whole number of tile widths
 * when tiled). False when tiling_shape is false. */
bool tiling_offset(enum tiling t, uint32_t element_bytes, uint32_t pitch, uint64_t x_bytes,
                   uint64_t y_rows, uint64_t *offset);

#endif
