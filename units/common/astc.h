/* units/common/astc.h - ASTC LDR decoding of 2D blocks (the Gen9 sampler's
 * ASTC_LDR_2D_<W>x<H>_U8sRGB and _FLT16 surface formats, 003 L3521-3570).
 *
 * Written from the Khronos Data Format Specification 1.3, chapter "ASTC
 * Compressed Texture Image Formats" (the same text as KHR_texture_compression_
 * astc_ldr); section names below are that chapter's:
 *  - "Block Encoding" / "Block Mode": the 11-bit block mode (weight grid size,
 *    weight range, dual plane), the reserved encodings, partition count;
 *  - "Color Endpoint Mode" (one CEM for all partitions, or the base class +
 *    per-partition encoding whose high bits sit just below the weights),
 *    "Color Encoding" (the LDR modes 0, 1, 4, 5, 6, 8, 9, 10, 12, 13 with
 *    bit_transfer_signed and blue_contract; the HDR modes 2, 3, 7, 11, 14, 15
 *    give the error colour in the LDR profile);
 *  - "Integer Sequence Encoding" (bits, trits in blocks of 5 over 8 bits,
 *    quints in blocks of 3 over 7 bits, truncated final blocks read as zeros)
 *    and "Endpoint Unquantization" / "Weight Unquantization";
 *  - "Weight Decoding" / "Weight Infill" (weights stored bit-reversed from the
 *    top of the block, bilinear infill with the spec's fixed-point steps),
 *    "Weight Application" (endpoints expanded to 16 bits: (C << 8) | 0x80 for
 *    sRGB colour channels, C * 257 otherwise; (C0 (64 - w) + C1 w + 32) / 64);
 *  - "Dual-Plane Decoding" (the 2-bit colour component selector below the
 *    weights and the extra CEM bits);
 *  - "Partition Pattern Generation" (the spec's hash, small blocks of fewer
 *    than 31 texels doubling the coordinates);
 *  - "Void-Extent Blocks" (UNORM16 constant colour; the HDR flag is an error in
 *    LDR; low >= high coordinates, unless all are ones, are illegal);
 *  - "Illegal Encodings": reserved block modes, more than 64 weights, fewer than
 *    24 or more than 96 weight bits, a weight grid larger than the block, dual
 *    plane with four partitions, more than 18 colour values or too few bits
 *    for the smallest colour range (0..5): the LDR error colour, magenta
 *    (1, 0, 1, 1), for every texel of the block.
 * Outputs: the U8sRGB formats keep the top 8 bits of the 16-bit result
 * (decode_unorm8) and pass R, G, B through the sRGB curve (alpha linear, n/255);
 * the FLT16 formats give the 16-bit result as the spec's decode_float16 does:
 * 0xFFFF is 1.0, any other value is C / 65536 rounded toward zero to binary16.
 * Not modelled: 3D blocks, the HDR profile (ASTC_FULL formats: not decoded).
 */
#ifndef GTSIM_UNITS_COMMON_ASTC_H
#define GTSIM_UNITS_COMMON_ASTC_H

#include <stdbool.h>
#include <stdint.h>

#define ASTC_MAX_TEXELS 144     /* 12x12 */

/* Texel (s, t) of a 128-bit block of footprint width x height (4..12 each) into
 * rgba (floats, linear for srgb). Returns false when the block is illegal (rgba
 * is then the error colour). */
bool astc_decode_texel(const uint8_t block[16], unsigned width, unsigned height, unsigned s,
                       unsigned t, bool srgb, float rgba[4]);

/* Every texel of the block, row-major: rgba[(t * width + s) * 4 + c]. */
bool astc_decode_block(const uint8_t block[16], unsigned width, unsigned height, bool srgb,
                       float *rgba);

#endif
