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
    t->etc_flip = (p1 >> 19) & 1;
    for (unsigned k = 2; k < count && k < 4; k++)
        if ((param[k] >> 30) == 1) {                    /* PTYPE 1: cube map stride */
            t->cube_stride = param[k] & 0x3ffff000u;
            t->bias_only = param[k] & 1;                /* BSLOD */
        }
}

unsigned vc4_texture_bpp(uint32_t type)
{
    static const unsigned bpp[] = { 32, 32, 16, 16, 16, 8, 8, 16, 4, 16, 8, 16, 1, 4, 1, 64,
                                    32, 32 };
    return type < sizeof bpp / sizeof bpp[0] ? bpp[type] : 0;
}

bool vc4_texture_type_supported(uint32_t type)
{
    return type <= VC4_TEX_YUYV422R;
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

/* ETC1 images are addressed as images of 64-bit blocks of 4 x 4 pixels ("a 2 x 4 block of
 * 64-bit blocks", Sec 11): their bpp for addressing is 64. */
static unsigned addressing_bpp(uint32_t type)
{
    return type == VC4_TEX_ETC1 ? 64 : vc4_texture_bpp(type);
}

enum vc4_layout vc4_texture_layout(uint32_t type, uint32_t width, uint32_t height)
{
    if (type == VC4_TEX_RGBA32R || type == VC4_TEX_YUYV422R)
        return VC4_LAYOUT_RASTER;
    unsigned uw, uh;
    if (type == VC4_TEX_ETC1) {
        width = (width + 3) / 4;
        height = (height + 3) / 4;
    }
    vc4_utile_size(addressing_bpp(type), &uw, &uh);
    /* a 4 KiB tile is 8 x 8 micro-tiles */
    return (width < 8 * uw || height < 8 * uh) ? VC4_LAYOUT_LT : VC4_LAYOUT_T;
}

uint32_t vc4_texel_offset(enum vc4_layout layout, uint32_t width, uint32_t height,
                          unsigned bpp, uint32_t x, uint32_t y)
{
    return (uint32_t)(vc4_texel_bit_offset(layout, width, height, bpp, x, y) / 8);
}

uint64_t vc4_texel_bit_offset(enum vc4_layout layout, uint32_t width, uint32_t height,
                              unsigned bpp, uint32_t x, uint32_t y)
{
    (void)height;
    if (layout == VC4_LAYOUT_RASTER)
        return ((uint64_t)y * width + x) * bpp;
    unsigned uw, uh;
    vc4_utile_size(bpp, &uw, &uh);
    uint64_t in_utile = ((uint64_t)(y % uh) * uw + (x % uw)) * bpp;
    uint32_t ux = x / uw, uy = y / uh;                  /* micro-tile coordinates */
    if (layout == VC4_LAYOUT_LT) {
        uint32_t per_row = (width + uw - 1) / uw;
        return ((uint64_t)uy * per_row + ux) * 512 + in_utile;
    }
    uint32_t tiles_per_row = (width + 8 * uw - 1) / (8 * uw);
    uint32_t tx = ux / 8, ty = uy / 8;
    uint32_t tile = ty * tiles_per_row + ((ty & 1) ? tiles_per_row - 1 - tx : tx);
    uint32_t sx = (ux / 4) & 1, sy = (uy / 4) & 1;
    static const uint8_t even[4] = { 0, 3, 1, 2 }, odd[4] = { 2, 1, 3, 0 };  /* [(sy<<1)+sx] */
    uint32_t sub = (ty & 1) ? odd[(sy << 1) | sx] : even[(sy << 1) | sx];
    uint32_t utile = (uy % 4) * 4 + (ux % 4);
    return ((uint64_t)tile * 4096 + sub * 1024 + utile * 64) * 8 + in_utile;
}

/* ---- texel decode --------------------------------------------------------------------------- */

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
    case VC4_TEX_S8:
        return v & 255;
    case VC4_TEX_S16:
    case VC4_TEX_S16F:
        return v & 0xffff;
    case VC4_TEX_BW1:
        return (v & 1) ? 0xffffffffu : 0xff000000u;
    case VC4_TEX_A4:
        return rgba(0, 0, 0, widen(v & 15, 4));
    case VC4_TEX_A1:
        return rgba(0, 0, 0, widen(v & 1, 1));
    default:
        return 0;
    }
}

float vc4_half_to_float(uint32_t h)
{
    uint32_t sign = h >> 15 & 1, exponent = h >> 10 & 31, mantissa = h & 1023;
    float v;
    if (exponent == 0)
        v = ldexpf((float)mantissa, -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = ldexpf((float)(mantissa | 1024), (int)exponent - 25);
    return sign ? -v : v;
}

uint32_t vc4_float_to_half(float f)
{
    uint32_t sign = signbit(f) ? 0x8000u : 0;
    if (isnan(f))
        return 0x7e00u;
    f = fabsf(f);
    if (f >= 65520.0f)
        return sign | 0x7c00u;                  /* rounds to infinity */
    if (f < ldexpf(1, -25))
        return sign;                            /* below half the smallest subnormal */
    int e;
    frexpf(f, &e);                              /* f = m * 2^e, m in [0.5, 1) */
    int exponent = e - 1 + 15;                  /* biased exponent of the normal form */
    double scaled = exponent >= 1 ? ldexp(f, 10 - (e - 1)) : ldexp(f, 24);
    double r = nearbyint(scaled);               /* round to nearest, ties to even */
    uint32_t q = (uint32_t)r;
    if (exponent < 1)
        return sign | q;                        /* subnormal (q == 1024 is the smallest normal) */
    if (q == 2048) {
        q = 1024;
        exponent++;
    }
    if (exponent >= 31)
        return sign | 0x7c00u;
    return sign | (uint32_t)exponent << 10 | (q & 1023);
}

uint32_t vc4_etc1_texel(uint64_t block, unsigned x, unsigned y)
{
    static const int modifier[8][2] = { { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 },
                                        { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 } };
    bool differential = block >> 33 & 1, flip = block >> 32 & 1;
    unsigned codeword[2] = { (unsigned)(block >> 37 & 7), (unsigned)(block >> 34 & 7) };
    int base[2][3];
    for (unsigned c = 0; c < 3; c++) {
        if (differential) {
            int b5 = (int)(block >> (59 - 8 * c) & 31);
            int d = (int)(block >> (56 - 8 * c) & 7);
            int b5b = (b5 + (d >= 4 ? d - 8 : d)) & 31;
            base[0][c] = (b5 << 3) | (b5 >> 2);
            base[1][c] = (b5b << 3) | (b5b >> 2);
        } else {
            base[0][c] = (int)(block >> (60 - 8 * c) & 15) * 17;
            base[1][c] = (int)(block >> (56 - 8 * c) & 15) * 17;
        }
    }
    unsigned sub = flip ? (y >= 2) : (x >= 2);
    unsigned bit = x * 4 + y;
    unsigned index = (unsigned)((block >> (16 + bit) & 1) << 1 | (block >> bit & 1));
    int m = modifier[codeword[sub]][index & 1];
    if (index & 2)
        m = -m;
    uint32_t out = 0xff000000u;
    for (unsigned c = 0; c < 3; c++) {
        int v = base[sub][c] + m;
        out |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << (8 * c);
    }
    return out;
}

uint32_t vc4_yuyv_texel(uint32_t pair, unsigned odd)
{
    double y = (double)(odd ? pair >> 16 & 255 : pair & 255) - 16;
    double u = (double)(pair >> 8 & 255) - 128, v = (double)(pair >> 24 & 255) - 128;
    double c[3] = { 1.164 * y + 1.596 * v, 1.164 * y - 0.813 * v - 0.391 * u,
                    1.164 * y + 2.018 * u };
    uint32_t out = 0xff000000u;
    for (unsigned k = 0; k < 3; k++) {
        double q = floor(c[k] + 0.5);
        out |= (uint32_t)(q < 0 ? 0 : q > 255 ? 255 : q) << (8 * k);
    }
    return out;
}

/* ---- mipmap levels ----------------------------------------------------------------------- */

static uint32_t power_of_two_above(uint32_t v)
{
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* A level's image: its address, its container in addressing units (pixels, ETC1 blocks) and
 * its size in pixels for sampling. */
struct level {
    uint32_t base;
    uint32_t width, height;             /* container, addressing units */
    uint32_t pixel_width, pixel_height; /* sampling */
    enum vc4_layout layout;
};

static uint32_t max1(uint32_t v)
{
    return v ? v : 1;
}

static void level_geometry(const struct vc4_texture *t, unsigned level, struct level *lv)
{
    bool etc = t->type == VC4_TEX_ETC1;
    uint32_t w0 = etc ? (t->width + 3) / 4 : t->width, h0 = etc ? (t->height + 3) / 4 : t->height;
    if (level == 0) {
        lv->width = w0;
        lv->height = h0;
    } else {
        lv->width = max1(power_of_two_above(w0) >> level);
        lv->height = max1(power_of_two_above(h0) >> level);
    }
    lv->pixel_width = max1(t->width >> level);
    lv->pixel_height = max1(t->height >> level);
    lv->layout = vc4_texture_layout(etc ? VC4_TEX_RGBA64 : t->type, lv->width, lv->height);
    if (t->type == VC4_TEX_RGBA32R || t->type == VC4_TEX_YUYV422R)
        lv->layout = VC4_LAYOUT_RASTER;
}

uint32_t vc4_texture_level_bytes(const struct vc4_texture *t, unsigned level)
{
    struct level lv;
    level_geometry(t, level, &lv);
    unsigned bpp = addressing_bpp(t->type);
    if (t->type == VC4_TEX_YUYV422R)
        bpp = 16;
    uint64_t w = lv.width, h = lv.height;
    if (lv.layout != VC4_LAYOUT_RASTER) {
        unsigned uw, uh;
        vc4_utile_size(bpp, &uw, &uh);
        unsigned aw = lv.layout == VC4_LAYOUT_T ? 8 * uw : uw;
        unsigned ah = lv.layout == VC4_LAYOUT_T ? 8 * uh : uh;
        w = (w + aw - 1) / aw * aw;
        h = (h + ah - 1) / ah * ah;
    }
    return (uint32_t)((w * h * bpp + 7) / 8);
}

uint32_t vc4_texture_level_address(const struct vc4_texture *t, uint32_t base, unsigned level)
{
    uint32_t a = base;
    for (unsigned k = 1; k <= level; k++)
        a -= vc4_texture_level_bytes(t, k);
    return a;
}

/* ---- lookups ------------------------------------------------------------------------------ */

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

static bool is_float_type(uint32_t type)
{
    return type == VC4_TEX_RGBA64 || type == VC4_TEX_S16F;
}

static void rgba8_channels(uint32_t v, double c[4])
{
    for (unsigned k = 0; k < 4; k++)
        c[k] = (double)(v >> (8 * k) & 255);
}

struct lookup_context {
    const struct vc4_texture *t;
    uint32_t border;
    vc4_texture_read_fn read;
    void *context;
};

/* The channels of texel (x, y) of a level: 0..255 for the 8-bit results, floats for the
 * 16-bit float types, the integer for S16. */
static void texel(const struct lookup_context *k, const struct level *lv, int64_t x, int64_t y,
                  double c[4])
{
    const struct vc4_texture *t = k->t;
    memset(c, 0, 4 * sizeof c[0]);
    x = wrap(x, lv->pixel_width, t->wrap_s);
    y = wrap(y, lv->pixel_height, t->wrap_t);
    if (x < 0 || y < 0) {
        rgba8_channels(k->border, c);
        if (is_float_type(t->type))
            for (unsigned i = 0; i < 4; i++)
                c[i] /= 255;
        return;
    }
    if (t->flip_y)
        y = lv->pixel_height - 1 - y;
    uint8_t bytes[8] = { 0 };
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    if (t->type == VC4_TEX_ETC1) {
        uint32_t offset = vc4_texel_offset(lv->layout, lv->width, lv->height, 64, ux / 4, uy / 4);
        if (!k->read(k->context, lv->base + offset, bytes, 8))
            return;
        uint64_t block = 0;
        for (unsigned i = 0; i < 8; i++)
            block = block << 8 | bytes[i];          /* byte 0 = bits 63:56 [chosen] */
        unsigned row = uy % 4;
        rgba8_channels(vc4_etc1_texel(block, ux % 4, t->etc_flip ? 3 - row : row), c);
        return;
    }
    if (t->type == VC4_TEX_YUYV422R) {
        uint32_t offset = (uy * lv->width + (ux & ~1u)) * 2;
        if (!k->read(k->context, lv->base + offset, bytes, 4))
            return;
        uint32_t pair = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | (uint32_t)bytes[3] << 24;
        rgba8_channels(vc4_yuyv_texel(pair, ux & 1), c);
        return;
    }
    unsigned bpp = vc4_texture_bpp(t->type);
    uint64_t bit = vc4_texel_bit_offset(lv->layout, lv->width, lv->height, bpp, ux, uy);
    unsigned n = bpp >= 8 ? bpp / 8 : 1;
    if (!k->read(k->context, lv->base + (uint32_t)(bit / 8), bytes, n))
        return;
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | bytes[i];                      /* little endian */
    if (bpp < 8)                                    /* the lowest bits first [chosen] */
        v = v >> (bit % 8) & ((1u << bpp) - 1);
    if (t->type == VC4_TEX_RGBA64) {
        for (unsigned i = 0; i < 4; i++)
            c[i] = vc4_half_to_float((uint32_t)(v >> (16 * i)) & 0xffff);
    } else if (t->type == VC4_TEX_S16F) {
        c[0] = vc4_half_to_float((uint32_t)v & 0xffff);
    } else if (t->type == VC4_TEX_S16) {
        c[0] = (double)(v & 0xffff);
    } else {
        rgba8_channels(vc4_texel_to_rgba8(t->type, (uint32_t)v), c);
    }
}

/* nearest or bilinear (weights at texel centres) in one level */
static void sample_level(const struct lookup_context *k, uint32_t face_base, unsigned level,
                         float s, float tc, bool linear, double out[4])
{
    struct level lv;
    level_geometry(k->t, level, &lv);
    lv.base = vc4_texture_level_address(k->t, face_base, level);
    /* keep coordinates in a range where the integer arithmetic cannot overflow */
    double u = fmax(fmin((double)s * lv.pixel_width, 1e9), -1e9);
    double v = fmax(fmin((double)tc * lv.pixel_height, 1e9), -1e9);
    if (!linear || k->t->type == VC4_TEX_S16) {     /* S16: "point sampling only" */
        texel(k, &lv, (int64_t)floor(u), (int64_t)floor(v), out);
        return;
    }
    u -= 0.5;
    v -= 0.5;
    int64_t x0 = (int64_t)floor(u), y0 = (int64_t)floor(v);
    double fx = u - (double)x0, fy = v - (double)y0;
    double c00[4], c10[4], c01[4], c11[4];
    texel(k, &lv, x0, y0, c00);
    texel(k, &lv, x0 + 1, y0, c10);
    texel(k, &lv, x0, y0 + 1, c01);
    texel(k, &lv, x0 + 1, y0 + 1, c11);
    for (unsigned c = 0; c < 4; c++) {
        double a = c00[c] * (1 - fx) + c10[c] * fx;
        double b = c01[c] * (1 - fx) + c11[c] * fx;
        out[c] = a * (1 - fy) + b * fy;
    }
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

float vc4_texture_quad_lod(const struct vc4_texture *t, const float s[4], const float tc[4],
                           const float r[4], float bias)
{
    bias = finite_or_zero(bias);
    if (t->bias_only)
        return bias;
    float u[4], v[4];
    for (unsigned i = 0; i < 4; i++) {
        u[i] = finite_or_zero(s[i]);
        v[i] = finite_or_zero(tc[i]);
        if (t->cube)
            cube_face(u[i], v[i], finite_or_zero(r[i]), &u[i], &v[i]);
    }
    /* element i of a quad at (i & 1, i >> 1) */
    double dudx = ((double)u[1] - u[0]) * t->width, dvdx = ((double)v[1] - v[0]) * t->height;
    double dudy = ((double)u[2] - u[0]) * t->width, dvdy = ((double)v[2] - v[0]) * t->height;
    double rho = fmax(hypot(dudx, dvdx), hypot(dudy, dvdy));
    if (!(rho > 0) || !isfinite(rho))
        return isfinite(rho) ? -1000.0f + bias : 1000.0f;
    double lod = log2(rho) + bias;
    return (float)fmax(fmin(lod, 1000.0), -1000.0);
}

unsigned vc4_texture_sample_lod(const struct vc4_texture *t, float s, float tc, float r,
                                float lod, uint32_t border, vc4_texture_read_fn read,
                                void *context, uint32_t out[2])
{
    out[0] = out[1] = 0;
    if (!vc4_texture_type_supported(t->type))
        return 1;
    s = finite_or_zero(s);
    tc = finite_or_zero(tc);
    r = finite_or_zero(r);
    if (isnan(lod))
        lod = 0;
    uint32_t base = t->base;
    if (t->cube) {
        unsigned face = cube_face(s, tc, r, &s, &tc);
        base += face * t->cube_stride;
    }
    struct lookup_context k = { t, border, read, context };
    unsigned last = t->levels ? t->levels - 1 : 0;
    double c[4];
    unsigned filter = t->min_filter;
    if (lod <= 0 || filter > 5) {
        /* magnification (Sec 3.8.9: lambda <= c, c = 0 [chosen]); MINFILT 6, 7 are not in
         * Table 19: taken as LINEAR [chosen] */
        bool linear = lod <= 0 ? t->mag_filter == 0 : true;
        sample_level(&k, base, 0, s, tc, linear, c);
    } else if (filter <= 1) {
        sample_level(&k, base, 0, s, tc, filter == 0, c);          /* LOD 0 only */
    } else {
        bool linear = filter >= 4;                                  /* LIN_MIP_* */
        bool between = filter == 3 || filter == 5;                  /* *_MIP_LIN */
        if (!between) {
            /* nearest level: d = ceil(lambda + 1/2) - 1 (Sec 3.8.8), at most q */
            double d = lod <= 0.5f ? 0 : ceil((double)lod + 0.5) - 1;
            sample_level(&k, base, d > last ? last : (unsigned)d, s, tc, linear, c);
        } else if (lod >= (float)last) {
            sample_level(&k, base, last, s, tc, linear, c);
        } else {
            unsigned d1 = (unsigned)floor(lod);
            double f = (double)lod - d1, c2[4];
            sample_level(&k, base, d1, s, tc, linear, c);
            sample_level(&k, base, d1 + 1, s, tc, linear, c2);
            for (unsigned i = 0; i < 4; i++)
                c[i] = (1 - f) * c[i] + f * c2[i];
        }
    }
    if (t->type == VC4_TEX_RGBA64) {
        out[0] = vc4_float_to_half((float)c[0]) | vc4_float_to_half((float)c[1]) << 16;
        out[1] = vc4_float_to_half((float)c[2]) | vc4_float_to_half((float)c[3]) << 16;
        return 2;
    }
    if (t->type == VC4_TEX_S16F) {
        out[0] = vc4_float_to_half((float)c[0]);
        return 1;
    }
    if (t->type == VC4_TEX_S16) {
        double q = floor(c[0] + 0.5);
        out[0] = (uint32_t)(q < 0 ? 0 : q > 65535 ? 65535 : q);
        return 1;
    }
    for (unsigned i = 0; i < 4; i++) {
        double q = floor(c[i] + 0.5);
        out[0] |= (uint32_t)(q < 0 ? 0 : q > 255 ? 255 : q) << (8 * i);
    }
    return 1;
}

uint32_t vc4_texture_sample(const struct vc4_texture *t, float s, float tc, float r,
                            uint32_t border, vc4_texture_read_fn read, void *context)
{
    uint32_t out[2];
    vc4_texture_sample_lod(t, s, tc, r, -INFINITY, border, read, context, out);
    return out[0];
}
