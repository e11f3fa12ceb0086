/* tools/png.h - a minimal PNG writer: 8-bit RGBA images, no filtering, the
 * zlib stream made of "stored" (uncompressed) deflate blocks, with the CRC-32
 * of every chunk and the zlib Adler-32 computed here (PNG: ISO/IEC 15948 /
 * W3C PNG specification, chunks IHDR IDAT IEND; zlib: RFC 1950; deflate
 * stored blocks: RFC 1951 §3.2.4). No library dependency. */
#ifndef GTSIM_TOOLS_PNG_H
#define GTSIM_TOOLS_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"

/* CRC-32 (the PNG/zlib polynomial 0xEDB88320, reflected), continued from crc
 * (start with 0). */
uint32_t png_crc32(uint32_t crc, const uint8_t *data, size_t n);

/* Adler-32 of data (RFC 1950 §8.2). */
uint32_t png_adler32(const uint8_t *data, size_t n);

/* The PNG file of a width x height RGBA image (rgba: rows top first, 4 bytes
 * a pixel) in a new buffer (*out, freed by the caller); returns its size, 0
 * for a zero-sized image. */
size_t png_encode_rgba8(uint32_t width, uint32_t height, const uint8_t *rgba, uint8_t **out);

/* png_encode_rgba8 into the file at path. */
int png_write_rgba8(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                    struct gt_error *err);

#endif
