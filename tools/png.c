/* tools/png.c - see png.h. */
#include "tools/png.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

uint32_t png_crc32(uint32_t crc, const uint8_t *data, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

uint32_t png_adler32(const uint8_t *data, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + data[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

struct buffer {
    uint8_t *data;
    size_t size;
};

static void put(struct buffer *b, const void *data, size_t n)
{
    memcpy(b->data + b->size, data, n);
    b->size += n;
}

static void put_be32(struct buffer *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    put(b, x, 4);
}

/* A chunk: length, type, data, CRC of type and data. */
static void chunk(struct buffer *b, const char type[4], const uint8_t *data, size_t n)
{
    put_be32(b, (uint32_t)n);
    size_t start = b->size;
    put(b, type, 4);
    if (n)
        put(b, data, n);
    put_be32(b, png_crc32(0, b->data + start, n + 4));
}

size_t png_encode_rgba8(uint32_t width, uint32_t height, const uint8_t *rgba, uint8_t **out)
{
    *out = NULL;
    if (!width || !height)
        return 0;
    /* the raw image: each row a filter byte (0, none) and its pixels */
    size_t row = 1 + (size_t)width * 4, raw_size = row * height;
    uint8_t *raw = gt_xcalloc(raw_size, 1);
    for (uint32_t y = 0; y < height; y++)
        memcpy(raw + y * row + 1, rgba + (size_t)y * width * 4, (size_t)width * 4);
    /* zlib: CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (check bits: 0x7801 % 31
     * == 0, no dictionary, fastest), stored blocks of at most 65535 bytes,
     * Adler-32 big-endian */
    size_t blocks = (raw_size + 65534) / 65535;
    size_t z_size = 2 + blocks * 5 + raw_size + 4;
    uint8_t *z = gt_xcalloc(z_size, 1);
    struct buffer zb = { z, 0 };
    put(&zb, (const uint8_t[]){ 0x78, 0x01 }, 2);
    for (size_t off = 0; off < raw_size; off += 65535) {
        size_t n = raw_size - off < 65535 ? raw_size - off : 65535;
        uint8_t h[5] = { (uint8_t)(off + n == raw_size), (uint8_t)n, (uint8_t)(n >> 8),
                         (uint8_t)~n, (uint8_t)(~n >> 8) };
        put(&zb, h, 5);
        put(&zb, raw + off, n);
    }
    put_be32(&zb, png_adler32(raw, raw_size));
    free(raw);
    size_t total = 8 + (12 + 13) + (12 + zb.size) + 12;
    struct buffer b = { gt_xcalloc(total, 1), 0 };
    put(&b, (const uint8_t[]){ 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' }, 8);
    /* IHDR: width, height, bit depth 8, colour type 6 (RGBA), deflate, filter
     * method 0, no interlace */
    uint8_t ihdr[13] = { (uint8_t)(width >> 24), (uint8_t)(width >> 16), (uint8_t)(width >> 8),
                         (uint8_t)width, (uint8_t)(height >> 24), (uint8_t)(height >> 16),
                         (uint8_t)(height >> 8), (uint8_t)height, 8, 6, 0, 0, 0 };
    chunk(&b, "IHDR", ihdr, sizeof ihdr);
    chunk(&b, "IDAT", zb.data, zb.size);
    chunk(&b, "IEND", NULL, 0);
    free(z);
    *out = b.data;
    return b.size;
}

int png_write_rgba8(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                    struct gt_error *err)
{
    uint8_t *png;
    size_t n = png_encode_rgba8(width, height, rgba, &png);
    if (!n)
        return gt_error_set(err, "%s: an image of %ux%u pixels has nothing to write", path, width,
                            height);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(png);
        return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    }
    bool ok = fwrite(png, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    free(png);
    return ok ? 0 : gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
}
