/* units/vc4_tmu/vc4_texture.h - VideoCore IV texture vocabulary as a library: the TMU's
 * configuration uniforms, texel addresses in T-format, LT-format and raster images, texel
 * decode to 8-bit RGBA, and one filtered 2D or cube lookup (seed 002 Sec 4 @93323 Tables
 * 15-19, Sec 11 @214806; notes/002-videocore4.md §4.1, §4.7).
 *
 * - Config parameter 0 (Table 15): BASE 31:12 (x 4 KiB), CSWIZ 11:10, CMMODE 9, FLIPY 8,
 *   TYPE 7:4, MIPLVLS 3:0. Parameter 1 (Table 16): TYPE4 31, HEIGHT 30:20 and WIDTH 18:8
 *   (0 = 2048), ETCFLIP 19, MAGFILT 7, MINFILT 6:4, WRAP_T 3:2, WRAP_S 1:0 (0 repeat, 1 clamp,
 *   2 mirror, 3 border). Parameter 2/3 (Table 17): PTYPE 31:30; 1: cube map stride 29:12
 *   (x 4 KiB), BSLOD 0.
 * - Memory formats (Sec 11): micro-tiles of 64 bytes (64/32/16/8/4/1 bpp: 2x4, 4x4, 8x4, 8x8,
 *   16x8, 32x16 pixels, raster order inside); T-format: 4 KiB tiles of four 1 KiB sub-tiles of
 *   4x4 micro-tiles in raster order; tile rows alternate direction, and the sub-tile order
 *   with them (notes §4.7 [ext, Mesa vc4_tiling.c]: rows counted from 0 at the bottom; even
 *   rows left to right with sub-tiles BL, TL, TR, BR; odd rows right to left with TR, BR,
 *   BL, TL); LT-format: micro-tiles in raster order. "All images are assumed to have a
 *   bottom-left origin": t = 0 is the first row in memory. A level is T-format "unless either
 *   the width or height for the level is less than one T-format tile" (@96330 Mipmaps);
 *   types 16, 17 (RGBA32R, YUYV422R) are raster.
 * - Decode to 8-bit RGBA (byte 0 = R .. byte 3 = A, the r4 word the QPU unpacks with 8a-8d):
 *   RGBA8888 and RGBA32R as stored (byte 0 first); RGBX8888 with A = 255; the 16-bit types
 *   with their fields from the most significant bit down in R, G, B, A order [chosen: the
 *   seed names the types only], each widened by bit replication; LUMINANCE to R = G = B,
 *   A = 255; ALPHA to A with R = G = B = 0; LUMALPHA: L the low byte, A the high [chosen].
 * - Filtering: NEAREST and LINEAR (bilinear, weights at texel centres, blended per 8-bit
 *   channel and rounded). The level of detail is not computed (it needs the quad's
 *   derivatives): level 0 and the magnification filter are used; a lookup whose minification
 *   filter or level count asks for mipmaps is counted by the caller.
 * - Wrap modes per axis: repeat, clamp to edge, mirrored repeat (period 2 x size), border (the
 *   border colour: element 0 of the r write, RGBA8888).
 * - Cube maps: the coordinates are a direction; the face is the major axis (+X, -X, +Y, -Y,
 *   +Z, -Z = faces 0-5, each `cube stride` bytes after the previous) and (s, t) come from the
 *   OpenGL 2.0 Sec 3.8.6 table the seed cites (Sec 4 "Cube Map Mode", notes §4.1).
 * Not modelled: ETC1, the 16-bit float and integer sample types, 1- and 4-bit types, RGBA64,
 * YUYV (counted, answered 0); mipmap levels and LOD bias; child images; the cache swizzle.
 */
#ifndef GTSIM_UNITS_VC4_TEXTURE_H
#define GTSIM_UNITS_VC4_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

enum vc4_texture_type {
    VC4_TEX_RGBA8888 = 0, VC4_TEX_RGBX8888 = 1, VC4_TEX_RGBA4444 = 2, VC4_TEX_RGBA5551 = 3,
    VC4_TEX_RGB565 = 4, VC4_TEX_LUMINANCE = 5, VC4_TEX_ALPHA = 6, VC4_TEX_LUMALPHA = 7,
    VC4_TEX_ETC1 = 8, VC4_TEX_S16F = 9, VC4_TEX_S8 = 10, VC4_TEX_S16 = 11, VC4_TEX_BW1 = 12,
    VC4_TEX_A4 = 13, VC4_TEX_A1 = 14, VC4_TEX_RGBA64 = 15, VC4_TEX_RGBA32R = 16,
    VC4_TEX_YUYV422R = 17,
};

enum vc4_wrap { VC4_WRAP_REPEAT = 0, VC4_WRAP_CLAMP = 1, VC4_WRAP_MIRROR = 2, VC4_WRAP_BORDER = 3 };

struct vc4_texture {
    uint32_t base;              /* bus address of level 0 (face 0) */
    uint32_t type;              /* enum vc4_texture_type */
    uint32_t width, height;
    uint32_t levels;            /* MIPLVLS + 1 */
    uint32_t cube_stride;       /* bytes between cube faces (0: not given) */
    uint8_t wrap_s, wrap_t, mag_filter, min_filter;   /* filters: 0 linear, 1 nearest .. */
    bool cube, flip_y;
};

enum vc4_layout { VC4_LAYOUT_T, VC4_LAYOUT_LT, VC4_LAYOUT_RASTER };

/* Decodes config parameters 0, 1 and (cube maps) 2; params past `count` read 0. */
void vc4_texture_decode(const uint32_t *param, unsigned count, struct vc4_texture *t);

/* Bits per pixel of a type; 0 for an unknown type. */
unsigned vc4_texture_bpp(uint32_t type);
/* Whether the lookup decodes the type (the others are counted and answer 0). */
bool vc4_texture_type_supported(uint32_t type);
/* Micro-tile width and height in pixels for a bpp. */
void vc4_utile_size(unsigned bpp, unsigned *width, unsigned *height);
/* The layout of a level of the given size. */
enum vc4_layout vc4_texture_layout(uint32_t type, uint32_t width, uint32_t height);
/* Byte offset of pixel (x, y) (y = 0 the first row in memory) in an image of the given
 * layout, size and bpp (bpp >= 8). */
uint32_t vc4_texel_offset(enum vc4_layout layout, uint32_t width, uint32_t height,
                          unsigned bpp, uint32_t x, uint32_t y);
/* A stored texel (its bytes as a little-endian value) as 8-bit RGBA, byte 0 = R. */
uint32_t vc4_texel_to_rgba8(uint32_t type, uint32_t bits);

/* Reads `bytes` at a bus address; returns false when beyond memory (the texel reads 0). */
typedef bool (*vc4_texture_read_fn)(void *context, uint32_t address, void *data, uint32_t bytes);

/* One lookup: s, t (and r for a cube map) as floats, border colour; returns RGBA8. */
uint32_t vc4_texture_sample(const struct vc4_texture *t, float s, float tc, float r,
                            uint32_t border, vc4_texture_read_fn read, void *context);

#endif
