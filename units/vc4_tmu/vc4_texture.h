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
 * - Decode (Table 18, every type): "for all texture types except RGBA64 ... pixel data is
 *   returned as 32-bit packed RGBA8888. For RGBA64 texture data, two read requests are
 *   required, the first to load the packed 1616 RG data, the second to load the packed BA
 *   data" (@95448). RGBA8888 and RGBA32R as stored (byte 0 = R .. byte 3 = A, the r4 word the
 *   QPU unpacks with 8a-8d); RGBX8888 with A = 255; RGBA4444, RGBA5551, RGB565 with their
 *   fields from the most significant bit down in R, G, B, A order [chosen: the seed names
 *   the types only], each widened by bit replication; LUMINANCE to R = G = B, A = 255; ALPHA
 *   to A with R = G = B = 0; LUMALPHA: L the low byte, A the high [chosen]; BW1 ("1-bit black
 *   and white") to R = G = B = 0 or 255, A = 255; A4 and A1 ("4-bit alpha", "1-bit alpha")
 *   to A widened, R = G = B = 0; the sub-byte types (BW1, A1, A4) take the lowest bits of a
 *   byte first [chosen]. The single-sample types return the sample in the low bits of the
 *   word [chosen: the seed says only "sample"]: S8 ("8-bit integer sample (blending
 *   supported)") in 7:0, filtered like an 8-bit channel; S16 ("16-bit integer sample (point
 *   sampling only)") in 15:0, always nearest; S16F ("16-bit float sample (blending
 *   supported)") as a 1.5.10 float in 15:0, filtered in float. RGBA64 ("16-bit float per
 *   RGBA channel", 1.5.10): R in bits 15:0 of the texel, then G, B, A [chosen], filtered in
 *   float and returned as two words, R | G << 16 then B | A << 16. ETC1 (the OpenGL ES
 *   OES_compressed_ETC1_RGB8_texture block, "a 2 x 4 block of 64-bit blocks, each ... a 4 x 4
 *   image block" in a 64-byte micro-tile: addressed as a 64 bpp image of blocks): the block's
 *   first byte is its bits 63:56 (the standard's order [chosen]); block rows from the first
 *   in memory, or from the last with ETCFLIP ("Flip ETC Y (per block)") [chosen]. YUYV422R
 *   (raster "Y, U, Y, V", 32 bits a pair of pixels): BT.601 video-range conversion
 *   R = 1.164 (Y-16) + 1.596 (V-128), G = 1.164 (Y-16) - 0.813 (V-128) - 0.391 (U-128),
 *   B = 1.164 (Y-16) + 2.018 (U-128), rounded and clamped, A = 255 [chosen: the seed gives no
 *   conversion, notes §8 "YUYV conversion"].
 * - Mipmaps (@97624): "The texture's base pointer gives the start address of the LOD0 image
 *   data. The mipmaps are stored in reverse order before this in memory", the levels above 0
 *   padded "to fit within a power of 2 container image": level L > 0 is a container of
 *   max(1, pot(W0) >> L) x max(1, pot(H0) >> L) (ETC1: blocks), T-format unless a side is
 *   below one T tile (then LT), padded to whole 4 KiB tiles (T) or micro-tiles (LT); level L
 *   starts at base - (bytes of levels 1..L) (Mesa's vc4 layout agrees [ext: Mesa
 *   vc4_resource.c]). Each cube face is a whole mip chain from its face base.
 * - Level of detail: "automatic level-of-detail (LOD) determination" (@93430) from the
 *   quad's derivatives, as OpenGL 2.0 Sec 3.8.8 [chosen: the seed gives no formula, notes
 *   §8]: element i of a quad at (i & 1, i >> 1), lambda = log2(max(|d(u,v)/dx|,
 *   |d(u,v)/dy|)) with u = s W0, v = t H0 (cube maps: each element's face coordinates), plus
 *   the bias b when written ("added to the automatically calculated level of detail",
 *   @105044); BSLOD (Table 17): lambda = b. Filters (Table 19) as OpenGL's with c = 0:
 *   lambda <= 0 magnifies with MAGFILT (0 bilinear, 1 nearest) in level 0; else MINFILT:
 *   0 LINEAR ("Bilinear sample from LOD 0 only"), 1 NEAREST (LOD 0), 2 NEAR_MIP_NEAR and
 *   4 LIN_MIP_NEAR in level ceil(lambda + 1/2) - 1, 3 NEAR_MIP_LIN and 5 LIN_MIP_LIN between
 *   levels floor(lambda) and + 1 weighted by the fraction, levels at most MIPLVLS; 6 and 7
 *   (not in the table) as LINEAR [chosen].
 * - Filtering: NEAREST and LINEAR (bilinear, weights at texel centres, blended per channel
 *   in double and rounded to 8 bits, or to 1.5.10 for the float types).
 * - Wrap modes per axis: repeat, clamp to edge, mirrored repeat (period 2 x size), border (the
 *   border colour: element 0 of the r write, RGBA8888).
 * - Cube maps: the coordinates are a direction; the face is the major axis (+X, -X, +Y, -Y,
 *   +Z, -Z = faces 0-5, each `cube stride` bytes after the previous) and (s, t) come from the
 *   OpenGL 2.0 Sec 3.8.6 table the seed cites (Sec 4 "Cube Map Mode", notes §4.1).
 * Not modelled: child images (PTYPE 2, 3: ignored); the cache swizzle; types 18-31 (not in
 * Table 18: answered 0, counted by the caller); filtering precision (the seed gives none).
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
    bool cube, flip_y, etc_flip;
    bool bias_only;             /* BSLOD: "Disable automatic LOD, use bias only" */
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
/* The same in bits, for any bpp (1 and 4 included). */
uint64_t vc4_texel_bit_offset(enum vc4_layout layout, uint32_t width, uint32_t height,
                              unsigned bpp, uint32_t x, uint32_t y);
/* Bytes of mip level `level` (its padded container) and its address for a level-0 base. */
uint32_t vc4_texture_level_bytes(const struct vc4_texture *t, unsigned level);
uint32_t vc4_texture_level_address(const struct vc4_texture *t, uint32_t base, unsigned level);
/* One ETC1 texel of a block (byte 0 = bits 63:56), x right, y down from the block's first
 * row, as RGBA8 (A = 255); one YUYV422R pixel (the 32-bit pair, odd: the second pixel). */
uint32_t vc4_etc1_texel(uint64_t block, unsigned x, unsigned y);
uint32_t vc4_yuyv_texel(uint32_t pair, unsigned odd);
/* 1.5.10 half floats: to float, and from float rounding to nearest even. */
float vc4_half_to_float(uint32_t half);
uint32_t vc4_float_to_half(float f);
/* A stored texel (its bytes as a little-endian value) as 8-bit RGBA, byte 0 = R. */
uint32_t vc4_texel_to_rgba8(uint32_t type, uint32_t bits);

/* Reads `bytes` at a bus address; returns false when beyond memory (the texel reads 0). */
typedef bool (*vc4_texture_read_fn)(void *context, uint32_t address, void *data, uint32_t bytes);

/* The level of detail of a quad (elements 0-3: (0,0), (1,0), (0,1), (1,1)) plus `bias`
 * (0 when b was not written). */
float vc4_texture_quad_lod(const struct vc4_texture *t, const float s[4], const float tc[4],
                           const float r[4], float bias);
/* One lookup at a level of detail: s, t (and r for a cube map) as floats, border colour;
 * out[0] the r4 word (RGBA8, or the sample of S8/S16/S16F, or RGBA64's RG), out[1] RGBA64's
 * BA. Returns the words it makes (2 for RGBA64, else 1). */
unsigned vc4_texture_sample_lod(const struct vc4_texture *t, float s, float tc, float r,
                                float lod, uint32_t border, vc4_texture_read_fn read,
                                void *context, uint32_t out[2]);
/* A magnified lookup in level 0 (lod -infinity): the RGBA8 word. */
uint32_t vc4_texture_sample(const struct vc4_texture *t, float s, float tc, float r,
                            uint32_t border, vc4_texture_read_fn read, void *context);

#endif
