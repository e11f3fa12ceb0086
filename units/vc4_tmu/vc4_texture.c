/* units/vc4_tmu/vc4_texture.c - VideoCore IV texture decode, addressing and filtering; see
 * vc4_texture.h. */
#include "units/vc4_tmu/vc4_texture.h"

#include <math.h>
#include <string.h>

void vc4_texture_decode(const uint32_t *param, unsigned count, struct vc4_texture *t)
{
    uint32_t p0 = count > 0 ? param[0] : 0, p1 = count > 1 ? param[1] : 0;
    memset(t, 0, sizeof *t);
    t->base = p0 & 0xfffff000u;
    t->cube = (p0 >> 9) & 1;
    t->flip_y = (p0 >> 8) & 1;
    t->type = ((p0 >> 4) & 15) | ((p1 >> 31) << 4);
    t->levels = (p0 & 15) + 1;
    t->height = (p1 >> 20) & 0x7ff;
    t->width = (p1 >> 8) & 0x7ff;
    if (!t->height)
        t->height = 2048;
    if (!t->width)
        t->width = 2048;
    t->mag_filter = (p1 >> 7) & 1;
    t->min_filter = (p1 >> 4) & 7;
    t->wrap_t = (p1 >> 2) & 3;
    t->wrap_s = p1 & 3;
    for (unsigned k = 2; k < count && k < 4; k++)
        if ((param[k] >> 30) == 1)                      /* PTYPE 1: cube map stride */
            t->cube_stride = param[k] & 0x3ffff000u;
}

unsigned vc4_texture_bpp(uint32_t type)
{
    static const unsigned bpp[] = { 32, 32, 16, 16, 16, 8, 8, 16, 4, 16, 8, 16, 1, 4, 1, 64,
                                    32, 32 };
    return type < sizeof bpp / sizeof bpp[0] ? bpp[type] : 0;
}

bool vc4_texture_type_supported(uint32_t type)
{
    return type <= VC4_TEX_LUMALPHA || type == VC4_TEX_RGBA32R;
}

void vc4_utile_size(unsigned bpp, unsigned *width, unsigned *height)
{
    switch (bpp) {
    case 64: *width = 2; *height = 4; break;
    case 32: *width = 4; *height = 4; break;
    case 16: *width = 8; *height = 4; break;
    case 8: *width = 8; *height = 8; break;
    case 4: *width = 16; *height = 8; break;
    default: *width = 32; *height = 16; break;     /* 1 bpp */
    }
}

enum vc4_layout vc4_texture_layout(uint32_t type, uint32_t width, uint32_t height)
{
    if (type == VC4_TEX_RGBA32R || type == VC4_TEX_YUYV422R)
        return VC4_LAYOUT_RASTER;
    unsigned uw, uh;
    vc4_utile_size(vc4_texture_bpp(type), &uw, &uh);
    /* a 4 KiB tile is 8 x 8 micro-tiles */
    return (width < 8 * uw || height < 8 * uh) ? VC4_LAYOUT_LT : VC4_LAYOUT_T;
}

uint32_t vc4_texel_offset(enum vc4_layout layout, uint32_t width, uint32_t height,
                          unsigned bpp, uint32_t x, uint32_t y)
{
    (void)height;
    uint32_t bytes = bpp / 8;
    if (layout == VC4_LAYOUT_RASTER)
        return (y * width + x) * bytes;
    unsigned uw, uh;
    vc4_utile_size(bpp, &uw, &uh);
    uint32_t in_utile = ((y % uh) * uw + (x % uw)) * bytes;
    uint32_t ux = x / uw, uy = y / uh;                  /* micro-tile coordinates */
    if (layout == VC4_LAYOUT_LT) {
        uint32_t per_row = (width + uw - 1) / uw;
        return (uy * per_row + ux) * 64 + in_utile;
    }
    uint32_t tiles_per_row = (width + 8 * uw - 1) / (8 * uw);
    uint32_t tx = ux / 8, ty = uy / 8;
    uint32_t tile = ty * tiles_per_row + ((ty & 1) ? tiles_per_row - 1 - tx : tx);
    uint32_t sx = (ux / 4) & 1, sy = (uy / 4) & 1;
    static const uint8_t even[4] = { 0, 3, 1, 2 }, odd[4] = { 2, 1, 3, 0 };  /* [(sy<<1)+sx] */
    uint32_t sub = (ty & 1) ? odd[(sy << 1) | sx] : even[(sy << 1) | sx];
    uint32_t utile = (uy % 4) * 4 + (ux % 4);
    return tile * 4096 + sub * 1024 + utile * 64 + in_utile;
}

static uint32_t widen(uint32_t v, unsigned bits)
{
    switch (bits) {
    case 1: return v ? 255 : 0;
    case 4: return v * 17;
    case 5: return (v << 3) | (v >> 2);
    case 6: return (v << 2) | (v >> 4);
    default: return v & 255;
    }
}

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    return r | g << 8 | b << 16 | a << 24;
}

uint32_t vc4_texel_to_rgba8(uint32_t type, uint32_t v)
{
    switch (type) {
    case VC4_TEX_RGBA8888:
    case VC4_TEX_RGBA32R:
        return v;
    case VC4_TEX_RGBX8888:
        return v | 0xff000000u;
    case VC4_TEX_RGBA4444:
        return rgba(widen(v >> 12 & 15, 4), widen(v >> 8 & 15, 4), widen(v >> 4 & 15, 4),
                    widen(v & 15, 4));
    case VC4_TEX_RGBA5551:
        return rgba(widen(v >> 11 & 31, 5), widen(v >> 6 & 31, 5), widen(v >> 1 & 31, 5),
                    widen(v & 1, 1));
    case VC4_TEX_RGB565:
        return rgba(widen(v >> 11 & 31, 5), widen(v >> 5 & 63, 6), widen(v & 31, 5), 255);
    case VC4_TEX_LUMINANCE:
        return rgba(v & 255, v & 255, v & 255, 255);
    case VC4_TEX_ALPHA:
        return rgba(0, 0, 0, v & 255);
    case VC4_TEX_LUMALPHA:
        return rgba(v & 255, v & 255, v & 255, v >> 8 & 255);
    default:
        return 0;
    }
}

/* an integer texel coordinate after the wrap mode; -1 for border */
static int64_t wrap(int64_t i, uint32_t size, unsigned mode)
{
    int64_t n = size;
    switch (mode) {
    case VC4_WRAP_REPEAT:
        return ((i % n) + n) % n;
    case VC4_WRAP_CLAMP:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    case VC4_WRAP_MIRROR: {
        int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m >= n ? 2 * n - 1 - m : m;
    }
    default:
        return (i < 0 || i >= n) ? -1 : i;
    }
}

static uint32_t fetch(const struct vc4_texture *t, uint32_t face_base, int64_t x, int64_t y,
                      uint32_t border, vc4_texture_read_fn read, void *context)
{
    x = wrap(x, t->width, t->wrap_s);
    y = wrap(y, t->height, t->wrap_t);
    if (x < 0 || y < 0)
        return border;
    if (t->flip_y)
        y = t->height - 1 - y;
    unsigned bpp = vc4_texture_bpp(t->type);
    enum vc4_layout layout = vc4_texture_layout(t->type, t->width, t->height);
    uint32_t offset = vc4_texel_offset(layout, t->width, t->height, bpp, (uint32_t)x, (uint32_t)y);
    uint32_t bits = 0;
    if (!read(context, face_base + offset, &bits, bpp / 8))
        return 0;
    return vc4_texel_to_rgba8(t->type, bits);
}

/* OpenGL 2.0 Sec 3.8.6: the face of the major axis and its (s, t) */
static unsigned cube_face(float rx, float ry, float rz, float *s, float *t)
{
    float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz), sc, tc, ma;
    unsigned face;
    if (ax >= ay && ax >= az) {
        face = rx >= 0 ? 0 : 1;
        sc = rx >= 0 ? -rz : rz;
        tc = -ry;
        ma = ax;
    } else if (ay >= az) {
        face = ry >= 0 ? 2 : 3;
        sc = rx;
        tc = ry >= 0 ? rz : -rz;
        ma = ay;
    } else {
        face = rz >= 0 ? 4 : 5;
        sc = rz >= 0 ? rx : -rx;
        tc = -ry;
        ma = az;
    }
    if (!(ma > 0))
        ma = 1;
    *s = (sc / ma + 1) / 2;
    *t = (tc / ma + 1) / 2;
    return face;
}

static float finite_or_zero(float v)
{
    return isfinite(v) ? v : 0.0f;
}

uint32_t vc4_texture_sample(const struct vc4_texture *t, float s, float tc, float r,
                            uint32_t border, vc4_texture_read_fn read, void *context)
{
    if (!vc4_texture_type_supported(t->type))
        return 0;
    s = finite_or_zero(s);
    tc = finite_or_zero(tc);
    r = finite_or_zero(r);
    uint32_t base = t->base;
    if (t->cube) {
        unsigned face = cube_face(s, tc, r, &s, &tc);
        base += face * t->cube_stride;
    }
    /* keep coordinates in a range where the integer arithmetic cannot overflow */
    double u = fmax(fmin((double)s * t->width, 1e9), -1e9);
    double v = fmax(fmin((double)tc * t->height, 1e9), -1e9);
    if (t->mag_filter == 1)     /* NEAREST */
        return fetch(t, base, (int64_t)floor(u), (int64_t)floor(v), border, read, context);
    u -= 0.5;
    v -= 0.5;
    int64_t x0 = (int64_t)floor(u), y0 = (int64_t)floor(v);
    double fx = u - (double)x0, fy = v - (double)y0;
    uint32_t c00 = fetch(t, base, x0, y0, border, read, context);
    uint32_t c10 = fetch(t, base, x0 + 1, y0, border, read, context);
    uint32_t c01 = fetch(t, base, x0, y0 + 1, border, read, context);
    uint32_t c11 = fetch(t, base, x0 + 1, y0 + 1, border, read, context);
    uint32_t out = 0;
    for (unsigned c = 0; c < 32; c += 8) {
        double a = (double)(c00 >> c & 255) * (1 - fx) + (double)(c10 >> c & 255) * fx;
        double b = (double)(c01 >> c & 255) * (1 - fx) + (double)(c11 >> c & 255) * fx;
        double m = a * (1 - fy) + b * fy;
        uint32_t q = (uint32_t)floor(m + 0.5);
        out |= (q > 255 ? 255 : q) << c;
    }
    return out;
}
