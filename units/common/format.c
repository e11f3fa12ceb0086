/* units/common/format.c - texel conversions for the surface format table
 * (units/common/format.h says what is modelled, with the seed lines, and what is
 * not). Everything is driven by the table's bit fields: one routine per channel
 * type, none per format. */
#include "units/common/format.h"

#include "units/common/astc.h"

#include <math.h>
#include <string.h>

bool format_on_gen(const struct format_desc *desc, unsigned gen)
{
    return desc && gen >= desc->since_gen;
}

unsigned format_block_bytes(const struct format_desc *desc)
{
    return desc->bits % 8 ? 0 : desc->bits / 8u;
}

/* ---- bit fields of little-endian bytes ---- */

static uint64_t get_bits(const uint8_t *bytes, unsigned shift, unsigned width)
{
    uint64_t value = 0;
    for (unsigned done = 0; done < width;) {
        unsigned bit = shift + done, offset = bit % 8;
        unsigned take = 8 - offset < width - done ? 8 - offset : width - done;
        uint64_t piece = (bytes[bit / 8] >> offset) & ((1u << take) - 1);
        value |= piece << done;
        done += take;
    }
    return value;
}

static void put_bits(uint8_t *bytes, unsigned shift, unsigned width, uint64_t value)
{
    for (unsigned done = 0; done < width;) {
        unsigned bit = shift + done, offset = bit % 8;
        unsigned take = 8 - offset < width - done ? 8 - offset : width - done;
        unsigned mask = ((1u << take) - 1) << offset;
        bytes[bit / 8] = (uint8_t)((bytes[bit / 8] & ~mask) | (((value >> done) << offset) & mask));
        done += take;
    }
}

static uint64_t field_mask(unsigned width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static int64_t sign_extend(uint64_t raw, unsigned width)
{
    if (width >= 64)
        return (int64_t)raw;
    uint64_t sign = 1ull << (width - 1);
    return (int64_t)((raw ^ sign) - sign);
}

/* ---- small floats: IEEE-style, 5-bit exponent (bias 15) ---- */

/* A float of `exponent_bits`, `mantissa_bits` and an optional sign bit on top to
 * double: exact, denormals included. */
static double small_float_decode(uint32_t bits, unsigned exponent_bits, unsigned mantissa_bits,
                                 bool has_sign)
{
    uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
    uint32_t exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
    bool negative = has_sign && ((bits >> (mantissa_bits + exponent_bits)) & 1);
    int bias = (1 << (exponent_bits - 1)) - 1;
    double magnitude;
    if (exponent == (1u << exponent_bits) - 1)
        magnitude = mantissa ? NAN : INFINITY;
    else if (exponent == 0)
        magnitude = ldexp((double)mantissa, 1 - bias - (int)mantissa_bits);
    else
        magnitude = ldexp((double)(mantissa | (1u << mantissa_bits)),
                          (int)exponent - bias - (int)mantissa_bits);
    return negative ? -magnitude : magnitude;
}

/* double to such a float: round to nearest even, denormals kept, overflow to
 * infinity, NaN to a quiet NaN (003 L5196); without a sign bit negative values
 * and -inf give 0. */
static uint32_t small_float_encode(double value, unsigned exponent_bits, unsigned mantissa_bits,
                                   bool has_sign)
{
    uint32_t all_ones = (1u << exponent_bits) - 1;
    uint32_t sign = 0;
    if (isnan(value))
        return (all_ones << mantissa_bits) | (1u << (mantissa_bits - 1));
    if (signbit(value)) {
        if (!has_sign)
            return 0;
        sign = 1u << (exponent_bits + mantissa_bits);
        value = -value;
    }
    if (isinf(value))
        return sign | (all_ones << mantissa_bits);
    if (value == 0)
        return sign;
    int bias = (1 << (exponent_bits - 1)) - 1;
    int exponent;
    frexp(value, &exponent);
    exponent -= 1;                                  /* value in [2^e, 2^(e+1)) */
    if (exponent < 1 - bias)
        exponent = 1 - bias;                        /* denormal range: fixed quantum */
    double steps = rint(ldexp(value, (int)mantissa_bits - exponent));  /* exact scale */
    uint64_t n = (uint64_t)steps;
    if (n >= (2ull << mantissa_bits)) {             /* rounded up to the next binade */
        n >>= 1;
        exponent += 1;
    }
    if (n < (1ull << mantissa_bits))                /* denormal (or rounded to 0) */
        return sign | (uint32_t)n;
    if (exponent + bias >= (int)all_ones)
        return sign | (all_ones << mantissa_bits);  /* overflow */
    return sign | ((uint32_t)(exponent + bias) << mantissa_bits) |
           (uint32_t)(n - (1ull << mantissa_bits));
}

float format_half_to_float(uint16_t half)
{
    return (float)small_float_decode(half, 5, 10, true);
}

uint16_t format_float_to_half(float value)
{
    return (uint16_t)small_float_encode(value, 5, 10, true);
}

float format_ufloat_to_float(uint32_t bits, unsigned mantissa_bits)
{
    return (float)small_float_decode(bits, 5, mantissa_bits, false);
}

uint32_t format_float_to_ufloat(float value, unsigned mantissa_bits)
{
    return small_float_encode(value, 5, mantissa_bits, false);
}

/* ---- sRGB (IEC 61966-2-1) ---- */

float format_srgb_to_linear(float encoded)
{
    double c = encoded;
    return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

float format_linear_to_srgb(float linear)
{
    double l = isnan(linear) ? 0.0 : linear < 0 ? 0.0 : linear > 1 ? 1.0 : linear;
    return (float)(l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055);
}

/* ---- R9G9B9E5 (EXT_texture_shared_exponent: N = 9 mantissa bits, B = 15) ---- */

enum { RGB9E5_MANTISSA = 9, RGB9E5_BIAS = 15, RGB9E5_EXPONENT_MAX = 31 };

void format_rgb9e5_to_float3(uint32_t packed, float rgb[3])
{
    int exponent = (int)(packed >> 27);
    for (unsigned c = 0; c < 3; c++)
        rgb[c] = (float)ldexp((double)((packed >> (9 * c)) & 0x1ff),
                              exponent - RGB9E5_BIAS - RGB9E5_MANTISSA);
}

uint32_t format_float3_to_rgb9e5(const float rgb[3])
{
    /* largest value: (2^N - 1) / 2^N * 2^(Emax - B) = 65408 */
    const double max_value = ldexp((double)((1 << RGB9E5_MANTISSA) - 1),
                                   RGB9E5_EXPONENT_MAX - RGB9E5_BIAS - RGB9E5_MANTISSA);
    double c[3], largest = 0;
    for (unsigned i = 0; i < 3; i++) {
        double v = rgb[i];
        c[i] = isnan(v) || v < 0 ? 0 : v > max_value ? max_value : v;
        if (c[i] > largest)
            largest = c[i];
    }
    int floor_log2 = -RGB9E5_BIAS - 1;
    if (largest > 0) {
        int e;
        frexp(largest, &e);
        if (e - 1 > floor_log2)
            floor_log2 = e - 1;
    }
    int shared = floor_log2 + 1 + RGB9E5_BIAS;
    double quantum = ldexp(1.0, shared - RGB9E5_BIAS - RGB9E5_MANTISSA);
    if (floor(largest / quantum + 0.5) == (double)(1 << RGB9E5_MANTISSA)) {
        shared += 1;
        quantum *= 2;
    }
    uint32_t packed = (uint32_t)shared << 27;
    for (unsigned i = 0; i < 3; i++)
        packed |= (uint32_t)floor(c[i] / quantum + 0.5) << (9 * i);
    return packed;
}

/* ---- one field <-> one component ---- */

static bool field_convertible(const struct format_field *field)
{
    return field->type != FORMAT_TYPE_RAW;
}

/* The field's raw bits to a float (float formats) or an integer (the union's
 * i/u, integer formats). */
static void field_read(const struct format_field *field, uint64_t raw, float *f, uint32_t *u)
{
    unsigned width = field->bits;
    switch (field->type) {
    case FORMAT_TYPE_UNORM:
        *f = (float)((double)raw / (double)field_mask(width));
        break;
    case FORMAT_TYPE_SNORM: {
        double v = (double)sign_extend(raw, width) / (double)((1ull << (width - 1)) - 1);
        *f = (float)(v < -1.0 ? -1.0 : v);
        break;
    }
    case FORMAT_TYPE_UINT:
        *u = (uint32_t)raw;
        break;
    case FORMAT_TYPE_SINT:
        *u = (uint32_t)(int32_t)sign_extend(raw, width);
        break;
    case FORMAT_TYPE_USCALED:
        *f = (float)raw;
        break;
    case FORMAT_TYPE_SSCALED:
        *f = (float)sign_extend(raw, width);
        break;
    case FORMAT_TYPE_SFLOAT:
        if (width == 16) {
            *f = format_half_to_float((uint16_t)raw);
        } else if (width == 32) {
            uint32_t b = (uint32_t)raw;
            memcpy(f, &b, 4);
        } else {
            double d;
            memcpy(&d, &raw, 8);
            *f = (float)d;
        }
        break;
    case FORMAT_TYPE_UFLOAT:
        *f = format_ufloat_to_float((uint32_t)raw, width - 5);
        break;
    case FORMAT_TYPE_SFIXED:
        *f = (float)((double)sign_extend(raw, width) / 65536.0);
        break;
    default:
        break;
    }
}

/* Round to nearest even and saturate to [lo, hi]; NaN gives 0. */
static int64_t round_saturate(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    v = rint(v);
    return (int64_t)(v < lo ? lo : v > hi ? hi : v);
}

static uint64_t field_write(const struct format_field *field, float f, uint32_t u)
{
    unsigned width = field->bits;
    double smax = (double)((1ull << (width - 1)) - 1), smin = -smax - 1;
    switch (field->type) {
    case FORMAT_TYPE_UNORM: {
        double v = isnan(f) ? 0 : f < 0 ? 0 : f > 1 ? 1 : f;
        return (uint64_t)round_saturate(v * (double)field_mask(width), 0, (double)field_mask(width));
    }
    case FORMAT_TYPE_SNORM: {
        double v = isnan(f) ? 0 : f < -1 ? -1 : f > 1 ? 1 : f;
        return (uint64_t)round_saturate(v * smax, -smax, smax) & field_mask(width);
    }
    case FORMAT_TYPE_UINT:
        return u > field_mask(width) ? field_mask(width) : u;
    case FORMAT_TYPE_SINT: {
        int64_t s = (int32_t)u;
        s = s < (int64_t)smin ? (int64_t)smin : s > (int64_t)smax ? (int64_t)smax : s;
        return (uint64_t)s & field_mask(width);
    }
    case FORMAT_TYPE_USCALED:
        return (uint64_t)round_saturate(f, 0, (double)field_mask(width));
    case FORMAT_TYPE_SSCALED:
        return (uint64_t)round_saturate(f, smin, smax) & field_mask(width);
    case FORMAT_TYPE_SFLOAT:
        if (width == 16)
            return format_float_to_half(f);
        if (width == 32) {
            uint32_t b;
            memcpy(&b, &f, 4);
            return isnan(f) ? b | 0x00400000u : b;      /* SNaN -> QNaN (003 L5196) */
        } else {
            double d = f;
            uint64_t b;
            memcpy(&b, &d, 8);
            return b;
        }
    case FORMAT_TYPE_UFLOAT:
        return format_float_to_ufloat(f, width - 5);
    case FORMAT_TYPE_SFIXED:
        return (uint64_t)round_saturate((double)f * 65536.0, smin, smax) & field_mask(width);
    default:
        return 0;
    }
}

/* Which outputs (bit n = component n of R, G, B, A) a channel feeds (003 L3577-3760). */
static unsigned channel_outputs(unsigned channel)
{
    switch (channel) {
    case FORMAT_CH_R: return 1;
    case FORMAT_CH_G: return 2;
    case FORMAT_CH_B: return 4;
    case FORMAT_CH_A: return 8;
    case FORMAT_CH_L: case FORMAT_CH_Y: return 7;
    case FORMAT_CH_I: return 15;
    default: return 0;
    }
}

/* Which component a channel takes its value from when packed. */
static int channel_source(unsigned channel)
{
    switch (channel) {
    case FORMAT_CH_R: case FORMAT_CH_L: case FORMAT_CH_Y: case FORMAT_CH_I: return 0;
    case FORMAT_CH_G: return 1;
    case FORMAT_CH_B: return 2;
    case FORMAT_CH_A: return 3;
    default: return -1;
    }
}

/* The formats whose texels this file converts: a bit-field layout of whole bytes
 * per texel and no 64-bit passthrough field. */
static const struct format_desc *convertible(unsigned key, int *status)
{
    const struct format_desc *desc = format_describe(key);
    *status = FORMAT_OK;
    if (!desc) {
        *status = FORMAT_UNKNOWN;
        return NULL;
    }
    bool layout_ok = desc->layout == FORMAT_LAYOUT_PLAIN || desc->layout == FORMAT_LAYOUT_SHAREDEXP;
    bool fields_ok = true;
    for (unsigned i = 0; i < desc->field_count; i++)
        fields_ok = fields_ok && field_convertible(&desc->fields[i]);
    if (!layout_ok || !fields_ok || desc->bits % 8 || desc->block_width != 1) {
        *status = FORMAT_NOT_SUPPORTED;
        return NULL;
    }
    return desc;
}

int format_unpack(unsigned key, const void *texel, struct format_value *out)
{
    int status;
    const struct format_desc *desc = convertible(key, &status);
    if (!desc)
        return status;
    const uint8_t *bytes = texel;
    out->kind = desc->value_kind;
    if (desc->layout == FORMAT_LAYOUT_SHAREDEXP) {
        format_rgb9e5_to_float3((uint32_t)get_bits(bytes, 0, 32), out->f);
        out->f[3] = 1.0f;
        return FORMAT_OK;
    }
    bool floats = desc->value_kind == FORMAT_VALUE_FLOAT;
    for (unsigned c = 0; c < 4; c++) {
        if (floats)
            out->f[c] = c == 3 ? 1.0f : 0.0f;
        else
            out->u[c] = c == 3 ? 1u : 0u;
    }
    for (unsigned i = 0; i < desc->field_count; i++) {
        const struct format_field *field = &desc->fields[i];
        unsigned outputs = channel_outputs(field->channel);
        if (!outputs || field->type == FORMAT_TYPE_X)
            continue;
        float f = 0;
        uint32_t u = 0;
        field_read(field, get_bits(bytes, field->shift, field->bits), &f, &u);
        if (desc->space == FORMAT_SPACE_SRGB && field->channel != FORMAT_CH_A)
            f = format_srgb_to_linear(f);
        for (unsigned c = 0; c < 4; c++) {
            if (!(outputs & (1u << c)))
                continue;
            if (floats)
                out->f[c] = f;
            else
                out->u[c] = u;
        }
    }
    return FORMAT_OK;
}

int format_pack(unsigned key, const struct format_value *in, void *texel)
{
    int status;
    const struct format_desc *desc = convertible(key, &status);
    if (!desc)
        return status;
    if (in->kind != desc->value_kind)
        return FORMAT_KIND_MISMATCH;
    uint8_t *bytes = texel;
    memset(bytes, 0, format_block_bytes(desc));
    if (desc->layout == FORMAT_LAYOUT_SHAREDEXP) {
        put_bits(bytes, 0, 32, format_float3_to_rgb9e5(in->f));
        return FORMAT_OK;
    }
    for (unsigned i = 0; i < desc->field_count; i++) {
        const struct format_field *field = &desc->fields[i];
        int source = channel_source(field->channel);
        if (source < 0 || field->type == FORMAT_TYPE_X)
            continue;
        float f = in->kind == FORMAT_VALUE_FLOAT ? in->f[source] : 0.0f;
        uint32_t u = in->kind == FORMAT_VALUE_FLOAT ? 0 : in->u[source];
        if (desc->space == FORMAT_SPACE_SRGB && field->channel != FORMAT_CH_A)
            f = format_linear_to_srgb(f);
        put_bits(bytes, field->shift, field->bits, field_write(field, f, u));
    }
    return FORMAT_OK;
}

int format_unpack_fields(unsigned key, const void *texel, uint64_t raw[FORMAT_MAX_FIELDS])
{
    const struct format_desc *desc = format_describe(key);
    if (!desc)
        return FORMAT_UNKNOWN;
    bool fields = desc->layout == FORMAT_LAYOUT_PLAIN || desc->layout == FORMAT_LAYOUT_PALETTE ||
                  desc->layout == FORMAT_LAYOUT_SHAREDEXP || desc->layout == FORMAT_LAYOUT_YUV422;
    if (!fields || desc->bits % 8)
        return FORMAT_NOT_SUPPORTED;
    for (unsigned i = 0; i < FORMAT_MAX_FIELDS; i++)
        raw[i] = i < desc->field_count
                     ? get_bits(texel, desc->fields[i].shift, desc->fields[i].bits)
                     : 0;
    return FORMAT_OK;
}

/* ---- BC1-BC3 (S3TC/DXT) blocks ----
 * The seeds do not describe the compressed formats ("found in the Memory Data
 * Formats chapter", 003 L3363, which they do not contain); the decoding follows
 * the public EXT_texture_compression_s3tc specification, the same definition as
 * Direct3D's BC1-BC3:
 * - a colour block is two RGB565 endpoints c0, c1 (little-endian 16-bit words)
 *   and 32 bits of 2-bit indices, texel i (row-major) in bits 2i+1:2i; index 0
 *   is c0, 1 is c1; with c0 > c1 (as integers) 2 is (2c0+c1)/3 and 3 is
 *   (c0+2c1)/3; otherwise 2 is (c0+c1)/2 and 3 is black, transparent for
 *   BC1 (alpha 0) and opaque for DXT1_RGB, which has no alpha. BC2 and BC3 colour
 *   blocks always use the four-colour rule.
 * - BC2 puts 64 bits of 4-bit alphas first, texel i in bits 4i+3:4i.
 * - BC3 puts an alpha block first: a0, a1 bytes and 48 bits of 3-bit indices;
 *   with a0 > a1 indices 2-7 are (6a0+a1)/7 ... (a0+6a1)/7; otherwise 2-5 are
 *   (4a0+a1)/5 ... (a0+4a1)/5, 6 is 0 and 7 is 1.
 * Interpolation is in float on the UNORM endpoint values (the hardware's exact
 * rounding of interpolated values is not in the seeds); for the _SRGB formats the
 * interpolated R, G, B are then decoded with the sRGB curve. */

static void bc_colour_block(const uint8_t *block, bool four_colour_always, bool punch_through,
                            struct format_value *texels)
{
    uint16_t c[2] = { (uint16_t)(block[0] | block[1] << 8), (uint16_t)(block[2] | block[3] << 8) };
    float rgb[4][3], alpha[4] = { 1, 1, 1, 1 };
    for (unsigned e = 0; e < 2; e++) {
        rgb[e][0] = (float)((c[e] >> 11) & 31) / 31.0f;
        rgb[e][1] = (float)((c[e] >> 5) & 63) / 63.0f;
        rgb[e][2] = (float)(c[e] & 31) / 31.0f;
    }
    bool four = four_colour_always || c[0] > c[1];
    for (unsigned k = 0; k < 3; k++) {
        if (four) {
            rgb[2][k] = (2 * rgb[0][k] + rgb[1][k]) / 3;
            rgb[3][k] = (rgb[0][k] + 2 * rgb[1][k]) / 3;
        } else {
            rgb[2][k] = (rgb[0][k] + rgb[1][k]) / 2;
            rgb[3][k] = 0;
        }
    }
    if (!four && punch_through)
        alpha[3] = 0;
    uint32_t indices = (uint32_t)block[4] | (uint32_t)block[5] << 8 | (uint32_t)block[6] << 16 |
                       (uint32_t)block[7] << 24;
    for (unsigned t = 0; t < 16; t++) {
        unsigned i = (indices >> (2 * t)) & 3;
        texels[t].kind = FORMAT_VALUE_FLOAT;
        for (unsigned k = 0; k < 3; k++)
            texels[t].f[k] = rgb[i][k];
        texels[t].f[3] = alpha[i];
    }
}

static void bc3_alpha_block(const uint8_t *block, struct format_value *texels)
{
    float a0 = block[0] / 255.0f, a1 = block[1] / 255.0f, alpha[8];
    alpha[0] = a0;
    alpha[1] = a1;
    if (block[0] > block[1]) {
        for (unsigned i = 2; i < 8; i++)
            alpha[i] = ((float)(8 - i) * a0 + (float)(i - 1) * a1) / 7;
    } else {
        for (unsigned i = 2; i < 6; i++)
            alpha[i] = ((float)(6 - i) * a0 + (float)(i - 1) * a1) / 5;
        alpha[6] = 0;
        alpha[7] = 1;
    }
    uint64_t indices = 0;
    for (unsigned b = 0; b < 6; b++)
        indices |= (uint64_t)block[2 + b] << (8 * b);
    for (unsigned t = 0; t < 16; t++)
        texels[t].f[3] = alpha[(indices >> (3 * t)) & 7];
}

static int format_decode_bc1_3(const struct format_desc *desc, const uint8_t *bytes,
                               struct format_value *texels);

/* ---- BC4, BC5 (RGTC) ----
 * Khronos Data Format Specification 1.3, "RGTC Compressed Texture Image
 * Formats" (the same blocks as Direct3D's BC4 and BC5): a channel block is two
 * 8-bit endpoints red_0, red_1 (bytes 0, 1; two's complement for the SNORM
 * forms, -128 read as -127) and 48 bits of 3-bit indices (bytes 2-7
 * little-endian), texel i = x + 4 y in bits 3i+2:3i. Index 0 is red_0, 1 is
 * red_1; with red_0 > red_1 indices 2-7 are ((8-i) red_0 + (i-1) red_1) / 7;
 * otherwise 2-5 are ((6-i) red_0 + (i-1) red_1) / 5, 6 the minimum (0, or -1
 * for SNORM) and 7 the maximum (1). UNORM endpoints are /255, SNORM /127. BC5
 * is a red block then a green block. Output (R, 0, 0, 1) and (R, G, 0, 1). */
static void rgtc_channel(const uint8_t *block, bool is_signed, float out[16])
{
    float e0, e1, v[8];
    bool six_values;
    if (is_signed) {
        int c0 = (int8_t)block[0], c1 = (int8_t)block[1];
        c0 = c0 < -127 ? -127 : c0;
        c1 = c1 < -127 ? -127 : c1;
        e0 = (float)c0 / 127.0f;
        e1 = (float)c1 / 127.0f;
        six_values = c0 > c1;
    } else {
        e0 = (float)block[0] / 255.0f;
        e1 = (float)block[1] / 255.0f;
        six_values = block[0] > block[1];
    }
    v[0] = e0;
    v[1] = e1;
    if (six_values) {
        for (unsigned i = 2; i < 8; i++)
            v[i] = ((float)(8 - i) * e0 + (float)(i - 1) * e1) / 7.0f;
    } else {
        for (unsigned i = 2; i < 6; i++)
            v[i] = ((float)(6 - i) * e0 + (float)(i - 1) * e1) / 5.0f;
        v[6] = is_signed ? -1.0f : 0.0f;
        v[7] = 1.0f;
    }
    uint64_t indices = 0;
    for (unsigned b = 0; b < 6; b++)
        indices |= (uint64_t)block[2 + b] << (8 * b);
    for (unsigned t = 0; t < 16; t++)
        out[t] = v[(indices >> (3 * t)) & 7];
}

/* ---- ETC1, ETC2, EAC ----
 * Khronos Data Format Specification 1.3, "ETC1 Compressed Texture Image Formats"
 * and "ETC2 Compressed Texture Image Formats" (also OpenGL ES 3.0 §C.1). Blocks
 * are 64-bit big-endian words (byte 0 holds bits 63:56). Texel (x, y) is pixel
 * k = 4 x + y (column-major).
 * - EAC channel (R11, RG11, signed forms; the alpha of ETC2_EAC_RGBA8): base
 *   codeword 63:56, multiplier 55:52, table 51:48, 3-bit index of pixel k at
 *   bits 47-3k:45-3k; modifier m = the EAC table's entry. R11: clamp(base * 8 + 4
 *   + m * multiplier * 8, 0, 2047) / 2047 (multiplier 0: base * 8 + 4 + m); signed:
 *   base two's complement (-128 as -127), clamp(base * 8 + m * multiplier * 8,
 *   -1023, 1023) / 1023 (multiplier 0: base * 8 + m); 8-bit alpha:
 *   clamp(base + m * multiplier, 0, 255) / 255.
 * - ETC colour: diff bit 33, flip bit 32, table codewords 39:37 and 36:34; pixel
 *   index of k: MSB at bit 16 + k, LSB at bit k. Individual mode (diff 0): 4-bit
 *   R1 63:60, R2 59:56, G1 55:52, G2 51:48, B1 47:44, B2 43:40, extended by
 *   replication. Differential (diff 1): 5-bit base 63:59, 58:56 3-bit signed
 *   delta (and G 55:51/50:48, B 47:43/42:40), extended (c << 3) | (c >> 2).
 *   Flip 0: sub-block 1 is x < 2; flip 1: y < 2. Texel = clamp(base + modifier,
 *   0, 255), modifier of index 0, 1, 2, 3 = a, b, -a, -b of the codeword's row.
 * - ETC2 (differential only): R1 + dR outside 0..31 is the T mode, else G the
 *   H mode, else B the planar mode. T: R1 = 60:59 . 57:56, G1 55:52, B1 51:48, R2
 *   47:44, G2 43:40, B2 39:36, distance index 35:34 . 32; paint colours base1,
 *   base2 + d, base2, base2 - d. H: R1 62:59, G1 58:56 . 52, B1 51 . 49:47, R2
 *   46:43, G2 42:39, B2 38:35, distance index 34 . 32 . (colour1 >= colour2 as
 *   R << 16 | G << 8 | B); paint colours base1 + d, base1 - d, base2 + d, base2 -
 *   d; the pixel index picks the paint colour. Planar: O = R 62:57, G 56 . 54:49,
 *   B 48 . 44:43 . 41:39; H = R 38:34 . 32, G 31:25, B 24:19; V = R 18:13, G
 *   12:6, B 5:0 (6- and 7-bit values extended by replication); texel =
 *   clamp((x (H - O) + y (V - O) + 4 O + 2) >> 2, 0, 255).
 * - Punch-through alpha (ETC2_RGB8_PTA): bit 33 is "opaque" (the mode is always
 *   differential); with opaque 0, pixel index 2 is transparent black in the
 *   differential, T and H modes, and the differential mode's modifiers of
 *   indices 0 and 2 are 0.
 * - ETC2_EAC_RGBA8: an 8-bit EAC alpha block, then an ETC2 colour block.
 * ETC1_RGB8 blocks are decoded as ETC2 (ETC2 decodes every ETC1 block alike). */
static const int8_t eac_modifiers[16][8] = {
    { -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
    { -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
    { -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
    { -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
    { -2, -6, -8, -10, 1, 5, 7, 9 },  { -2, -5, -8, -10, 1, 4, 7, 9 },
    { -2, -4, -8, -10, 1, 3, 7, 9 },  { -2, -5, -7, -10, 1, 4, 6, 9 },
    { -3, -4, -7, -10, 2, 3, 6, 9 },  { -1, -2, -3, -10, 0, 1, 2, 9 },
    { -4, -6, -8, -9, 3, 5, 7, 8 },   { -3, -5, -7, -9, 2, 4, 6, 8 },
};

/* ETC1's intensity modifier table: a, b of each codeword */
static const int16_t etc1_modifiers[8][2] = {
    { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 }, { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

static const uint8_t etc2_distances[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };

static uint64_t be64(const uint8_t *b)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

static unsigned bits_at(uint64_t v, unsigned low, unsigned width)
{
    return (unsigned)(v >> low) & ((1u << width) - 1);
}

static int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

enum eac_kind { EAC_UNSIGNED11, EAC_SIGNED11, EAC_ALPHA8 };

/* One EAC block into out[t], t = x + 4 y (row-major, as the sampler reads). */
static void eac_channel(const uint8_t *block, enum eac_kind kind, float out[16])
{
    uint64_t v = be64(block);
    int base = (int)bits_at(v, 56, 8), mult = (int)bits_at(v, 52, 4);
    const int8_t *mods = eac_modifiers[bits_at(v, 48, 4)];
    if (kind == EAC_SIGNED11) {
        base = (int8_t)base;
        base = base < -127 ? -127 : base;
    }
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            unsigned k = 4 * x + y;
            int m = mods[bits_at(v, 45 - 3 * k, 3)];
            float f;
            if (kind == EAC_ALPHA8) {
                f = (float)clamp_int(base + m * mult, 0, 255) / 255.0f;
            } else if (kind == EAC_UNSIGNED11) {
                int val = mult ? base * 8 + 4 + m * mult * 8 : base * 8 + 4 + m;
                f = (float)clamp_int(val, 0, 2047) / 2047.0f;
            } else {
                int val = mult ? base * 8 + m * mult * 8 : base * 8 + m;
                f = (float)clamp_int(val, -1023, 1023) / 1023.0f;
            }
            out[y * 4 + x] = f;
        }
}

static int extend_bits(unsigned c, unsigned bits)
{
    return (int)((c << (8 - bits)) | (c >> (2 * bits - 8)));
}

/* An ETC1/ETC2 colour block (punch_through: the PTA form) into RGBA texels. */
static void etc2_colour_block(const uint8_t *block, bool punch_through, struct format_value *texels)
{
    uint64_t v = be64(block);
    bool diff = punch_through || bits_at(v, 33, 1);
    bool opaque = !punch_through || bits_at(v, 33, 1);
    int paint[4][3] = { { 0 } };
    int base[2][3] = { { 0 } };
    enum { MODE_ETC1, MODE_T, MODE_H, MODE_PLANAR } mode = MODE_ETC1;
    for (unsigned c = 0; c < 3; c++) {
        if (!diff) {
            base[0][c] = extend_bits(bits_at(v, 60 - 8 * c, 4), 4);
            base[1][c] = extend_bits(bits_at(v, 56 - 8 * c, 4), 4);
            continue;
        }
        int b = (int)bits_at(v, 59 - 8 * c, 5);
        int d = (int)bits_at(v, 56 - 8 * c, 3);
        int b2 = b + (d >= 4 ? d - 8 : d);
        if (b2 < 0 || b2 > 31) {
            mode = c == 0 ? MODE_T : c == 1 ? MODE_H : MODE_PLANAR;
            break;
        }
        base[0][c] = extend_bits((unsigned)b, 5);
        base[1][c] = extend_bits((unsigned)b2, 5);
    }
    for (unsigned t = 0; t < 16; t++)
        texels[t].kind = FORMAT_VALUE_FLOAT;
    if (mode == MODE_PLANAR) {
        int o[3] = { extend_bits(bits_at(v, 57, 6), 6),
                     extend_bits(bits_at(v, 56, 1) << 6 | bits_at(v, 49, 6), 7),
                     extend_bits(bits_at(v, 48, 1) << 5 | bits_at(v, 43, 2) << 3 | bits_at(v, 39, 3), 6) };
        int h[3] = { extend_bits(bits_at(v, 34, 5) << 1 | bits_at(v, 32, 1), 6),
                     extend_bits(bits_at(v, 25, 7), 7), extend_bits(bits_at(v, 19, 6), 6) };
        int vv[3] = { extend_bits(bits_at(v, 13, 6), 6), extend_bits(bits_at(v, 6, 7), 7),
                      extend_bits(bits_at(v, 0, 6), 6) };
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                struct format_value *tv = &texels[y * 4 + x];
                for (unsigned c = 0; c < 3; c++) {
                    int val = (x * (h[c] - o[c]) + y * (vv[c] - o[c]) + 4 * o[c] + 2) >> 2;
                    tv->f[c] = (float)clamp_int(val, 0, 255) / 255.0f;
                }
                tv->f[3] = 1.0f;
            }
        return;
    }
    if (mode == MODE_T || mode == MODE_H) {
        int c1[3], c2[3];
        unsigned dist_index;
        if (mode == MODE_T) {
            c1[0] = extend_bits(bits_at(v, 59, 2) << 2 | bits_at(v, 56, 2), 4);
            c1[1] = extend_bits(bits_at(v, 52, 4), 4);
            c1[2] = extend_bits(bits_at(v, 48, 4), 4);
            c2[0] = extend_bits(bits_at(v, 44, 4), 4);
            c2[1] = extend_bits(bits_at(v, 40, 4), 4);
            c2[2] = extend_bits(bits_at(v, 36, 4), 4);
            dist_index = bits_at(v, 34, 2) << 1 | bits_at(v, 32, 1);
        } else {
            c1[0] = extend_bits(bits_at(v, 59, 4), 4);
            c1[1] = extend_bits(bits_at(v, 56, 3) << 1 | bits_at(v, 52, 1), 4);
            c1[2] = extend_bits(bits_at(v, 51, 1) << 3 | bits_at(v, 47, 3), 4);
            c2[0] = extend_bits(bits_at(v, 43, 4), 4);
            c2[1] = extend_bits(bits_at(v, 39, 4), 4);
            c2[2] = extend_bits(bits_at(v, 35, 4), 4);
            int first = c1[0] << 16 | c1[1] << 8 | c1[2], second = c2[0] << 16 | c2[1] << 8 | c2[2];
            dist_index = bits_at(v, 34, 1) << 2 | bits_at(v, 32, 1) << 1 | (first >= second ? 1u : 0u);
        }
        int d = etc2_distances[dist_index];
        for (unsigned c = 0; c < 3; c++) {
            if (mode == MODE_T) {
                paint[0][c] = c1[c];
                paint[1][c] = clamp_int(c2[c] + d, 0, 255);
                paint[2][c] = c2[c];
                paint[3][c] = clamp_int(c2[c] - d, 0, 255);
            } else {
                paint[0][c] = clamp_int(c1[c] + d, 0, 255);
                paint[1][c] = clamp_int(c1[c] - d, 0, 255);
                paint[2][c] = clamp_int(c2[c] + d, 0, 255);
                paint[3][c] = clamp_int(c2[c] - d, 0, 255);
            }
        }
    }
    bool flip = bits_at(v, 32, 1);
    unsigned table[2] = { bits_at(v, 37, 3), bits_at(v, 34, 3) };
    for (unsigned x = 0; x < 4; x++)
        for (unsigned y = 0; y < 4; y++) {
            unsigned k = 4 * x + y;
            unsigned index = bits_at(v, 16 + k, 1) << 1 | bits_at(v, k, 1);
            struct format_value *tv = &texels[y * 4 + x];
            tv->f[3] = 1.0f;
            if (!opaque && index == 2) {
                for (unsigned c = 0; c < 4; c++)
                    tv->f[c] = 0.0f;
                continue;
            }
            if (mode != MODE_ETC1) {
                for (unsigned c = 0; c < 3; c++)
                    tv->f[c] = (float)paint[index][c] / 255.0f;
                continue;
            }
            unsigned sub = (flip ? y : x) >= 2 ? 1 : 0;
            int a = etc1_modifiers[table[sub]][0], b = etc1_modifiers[table[sub]][1];
            int modifier = index == 0 ? a : index == 1 ? b : index == 2 ? -a : -b;
            if (!opaque && (index == 0 || index == 2))
                modifier = 0;
            for (unsigned c = 0; c < 3; c++)
                tv->f[c] = (float)clamp_int(base[sub][c] + modifier, 0, 255) / 255.0f;
        }
}

/* ---- BC7 and BC6H (BPTC) ----
 * Khronos Data Format Specification 1.3, "BPTC Compressed Texture Image Formats"
 * (the same blocks as Direct3D's BC7 and BC6H, and ARB_texture_compression_bptc).
 * A block is 128 bits, bit 0 the lowest bit of byte 0; fields are read upwards
 * from bit 0 in the order the spec's tables give. Texel t = x + 4 y.
 *
 * BC7 (BPTC_UNORM; _SRGB converts R, G, B through the sRGB curve after decoding):
 * - the mode is the number of 0 bits below the lowest 1 bit of byte 0 (mode m
 *   takes m + 1 bits); byte 0 = 0 is the reserved mode 8, decoded as (0, 0, 0, 0).
 * - then partition, rotation and index selection bits, the colour endpoints (all
 *   R, then all G, then all B: subset 0 endpoint 0, subset 0 endpoint 1, subset 1
 *   ...), the alpha endpoints, the p-bits (one per endpoint, or one per subset
 *   shared by its two endpoints), the primary indices and the secondary indices.
 * - an endpoint with a p-bit is (value << 1 | p); it widens to 8 bits by bit
 *   replication (v << (8 - n) | v >> (2n - 8)); modes without alpha have A = 255.
 * - the anchor texel of each subset (texel 0 for subset 0; the spec's anchor
 *   tables for the others) stores its index with one bit less (MSB 0); in modes 4
 *   and 5 texel 0 is the anchor of both index sets.
 * - value = ((64 - w) e0 + w e1 + 32) >> 6 with w from the 2-, 3- or 4-bit weight
 *   table. Mode 4 with index selection 1 takes colour from the 3-bit set and alpha
 *   from the 2-bit set (0: the other way round); mode 5 colour from the primary,
 *   alpha from the secondary set. Rotation 1, 2, 3 swaps A with R, G, B after
 *   interpolation.
 * BC6H (BPTC_FLOAT, signed SF16 / unsigned UF16):
 * - the mode is bits 1:0 when they are 00 or 01 (modes 1, 2), else bits 4:0;
 *   10011, 10111, 11011 and 11111 are reserved: RGB 0 (alpha 1, the default of a
 *   missing channel) as the spec says a reserved mode decodes to 0.
 * - each mode's endpoint fields (w, x of region 0; y, z of region 1, per channel)
 *   are scattered as the spec's per-mode table lists (bc6h_modes below: runs of
 *   bits read lowest stored bit first; a run written [10:15] stores bit 15 first).
 *   Two-region modes have a 5-bit partition at bits 81:77 and 3-bit indices from
 *   bit 82 (the partition is one of the first 32 of BC7's two-subset table); one-
 *   region modes have 4-bit indices from bit 65; anchors as BC7.
 * - signed: the base endpoint w is sign-extended from the endpoint precision;
 *   transformed modes store x, y, z as deltas: sign-extended from the delta
 *   width, added to w and wrapped to the endpoint precision (then sign-extended
 *   for signed formats); untransformed modes' endpoints are sign-extended when
 *   signed.
 * - unquantize (unsigned): precision >= 15 unchanged, 0 stays 0, the maximum
 *   becomes 0xFFFF, else ((e << 16) + 0x8000) >> precision; (signed): precision
 *   >= 16 unchanged, else on the magnitude: 0 stays 0, >= 2^(p-1) - 1 becomes
 *   0x7FFF, else ((e << 15) + 0x4000) >> (p - 1), the sign restored.
 * - interpolate with the 3- or 4-bit weights as BC7 (arithmetic shift: floor),
 *   then the final scale to a half float's bits: unsigned (v * 31) >> 6; signed
 *   v < 0 ? -(((-v) * 31) >> 5) : (v * 31) >> 5, stored as sign and magnitude.
 *   The half goes to float (format_half_to_float) for the sampler's float path. */

/* two-subset partitions: bit t is texel t's subset (spec table "Partition table
 * for 2-subset BPTC", 64 entries, row-major texels) */
static const uint16_t bptc_partition2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
    0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
    0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
    0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
    0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
    0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
    0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
    0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

/* three-subset partitions: bits 2t+1:2t are texel t's subset (spec table
 * "Partition table for 3-subset BPTC") */
static const uint32_t bptc_partition3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050,
    0x5555a0a0, 0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090,
    0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054,
    0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414,
    0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424,
    0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444,
    0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580,
    0xaa141414, 0x96960000, 0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000,
    0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
};

/* anchor texel of subset 1 of the two-subset partitions (spec table "BPTC anchor
 * index values for the second subset of two-subset partitioning") */
static const uint8_t bptc_anchor2_second[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15,  2,  8,  2,  2,  8,  8, 15,  2,  8,  2,  2,  8,  8,  2,  2,
    15, 15,  6,  8,  2,  8, 15, 15,  2,  8,  2,  2,  2, 15, 15,  6,
     6,  2,  6,  8, 15, 15,  2,  2, 15, 15, 15, 15, 15,  2,  2, 15,
};

/* anchor texels of subsets 1 and 2 of the three-subset partitions (spec tables
 * "... second subset of three-subset partitioning" and "... third subset ...") */
static const uint8_t bptc_anchor3_second[64] = {
     3,  3, 15, 15,  8,  3, 15, 15,  8,  8,  6,  6,  6,  5,  3,  3,
     3,  3,  8, 15,  3,  3,  6, 10,  5,  8,  8,  6,  8,  5, 15, 15,
     8, 15,  3,  5,  6, 10,  8, 15, 15,  3, 15,  5, 15, 15, 15, 15,
     3, 15,  5,  5,  5,  8,  5, 10,  5, 10,  8, 13, 15, 12,  3,  3,
};
static const uint8_t bptc_anchor3_third[64] = {
    15,  8,  8,  3, 15, 15,  3,  8, 15, 15, 15, 15, 15, 15, 15,  8,
    15,  8, 15,  3, 15,  8, 15,  8,  3, 15,  6, 10, 15, 15, 10,  8,
    15,  3, 15, 10, 10,  8,  9, 10,  6, 15,  8, 15,  3,  6,  6,  8,
    15,  3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,  3, 15, 15,  8,
};

/* interpolation weights of 2-, 3- and 4-bit indices (spec "BPTC interpolation
 * factors") */
static const uint8_t bptc_weights2[4] = { 0, 21, 43, 64 };
static const uint8_t bptc_weights3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const uint8_t bptc_weights4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

static const uint8_t *bptc_weights(unsigned index_bits)
{
    return index_bits == 2 ? bptc_weights2 : index_bits == 3 ? bptc_weights3 : bptc_weights4;
}

/* Reads a 128-bit block upwards from bit 0; past the end reads 0 (no layout
 * below reaches it). */
struct bptc_reader {
    const uint8_t *bytes;
    unsigned pos;
};

static unsigned bptc_bits(struct bptc_reader *r, unsigned count)
{
    unsigned value = 0;
    for (unsigned i = 0; i < count; i++, r->pos++)
        if (r->pos < 128)
            value |= (unsigned)(r->bytes[r->pos / 8] >> (r->pos % 8) & 1) << i;
    return value;
}

/* Subset of texel t, and whether t is its subset's anchor. */
static unsigned bptc_subset(unsigned subsets, unsigned partition, unsigned t)
{
    if (subsets == 2)
        return bptc_partition2[partition] >> t & 1;
    if (subsets == 3)
        return bptc_partition3[partition] >> (2 * t) & 3;
    return 0;
}

static bool bptc_anchor(unsigned subsets, unsigned partition, unsigned t)
{
    if (t == 0)
        return true;
    if (subsets == 2)
        return t == bptc_anchor2_second[partition];
    if (subsets == 3)
        return t == bptc_anchor3_second[partition] || t == bptc_anchor3_third[partition];
    return false;
}

static int bptc_interpolate(int e0, int e1, unsigned weight)
{
    int sum = (64 - (int)weight) * e0 + (int)weight * e1 + 32;
    /* an arithmetic shift right (floor) also for negative BC6H values */
    return sum >= 0 ? sum / 64 : -((-sum + 63) / 64);
}

/* The spec's "Mode Selection" table for BC7 modes 0-7. */
struct bc7_mode {
    uint8_t subsets, partition_bits, rotation_bits, index_selection_bits;
    uint8_t colour_bits, alpha_bits, endpoint_pbits, shared_pbits;
    uint8_t index_bits, index2_bits;
};

static const struct bc7_mode bc7_modes[8] = {
    { 3, 4, 0, 0, 4, 0, 1, 0, 3, 0 },
    { 2, 6, 0, 0, 6, 0, 0, 1, 3, 0 },
    { 3, 6, 0, 0, 5, 0, 0, 0, 2, 0 },
    { 2, 6, 0, 0, 7, 0, 1, 0, 2, 0 },
    { 1, 0, 2, 1, 5, 6, 0, 0, 2, 3 },
    { 1, 0, 2, 0, 7, 8, 0, 0, 2, 2 },
    { 1, 0, 0, 0, 7, 7, 1, 0, 4, 0 },
    { 2, 6, 0, 0, 5, 5, 1, 0, 2, 0 },
};

static void bc7_block(const uint8_t *block, bool srgb, struct format_value *texels)
{
    for (unsigned t = 0; t < 16; t++) {
        texels[t].kind = FORMAT_VALUE_FLOAT;
        for (unsigned c = 0; c < 4; c++)
            texels[t].f[c] = 0.0f;
    }
    unsigned mode_number = 0;
    while (mode_number < 8 && !(block[0] >> mode_number & 1))
        mode_number++;
    if (mode_number == 8)
        return;     /* reserved: (0, 0, 0, 0) */
    const struct bc7_mode *mode = &bc7_modes[mode_number];
    struct bptc_reader r = { block, mode_number + 1 };
    unsigned partition = bptc_bits(&r, mode->partition_bits);
    unsigned rotation = bptc_bits(&r, mode->rotation_bits);
    unsigned index_selection = bptc_bits(&r, mode->index_selection_bits);
    unsigned endpoints = 2u * mode->subsets;
    unsigned raw[6][4] = { { 0 } }, pbit[6] = { 0 };
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < endpoints; e++)
            raw[e][c] = bptc_bits(&r, mode->colour_bits);
    for (unsigned e = 0; e < endpoints && mode->alpha_bits; e++)
        raw[e][3] = bptc_bits(&r, mode->alpha_bits);
    if (mode->endpoint_pbits)
        for (unsigned e = 0; e < endpoints; e++)
            pbit[e] = bptc_bits(&r, 1);
    else if (mode->shared_pbits)
        for (unsigned s = 0; s < mode->subsets; s++)
            pbit[2 * s] = pbit[2 * s + 1] = bptc_bits(&r, 1);
    bool has_pbits = mode->endpoint_pbits || mode->shared_pbits;
    int endpoint[6][4];
    for (unsigned e = 0; e < endpoints; e++)
        for (unsigned c = 0; c < 4; c++) {
            unsigned bits = c < 3 ? mode->colour_bits : mode->alpha_bits;
            if (!bits) {
                endpoint[e][c] = 255;
                continue;
            }
            unsigned v = raw[e][c];
            if (has_pbits) {
                v = v << 1 | pbit[e];
                bits++;
            }
            endpoint[e][c] = (int)((v << (8 - bits) | v >> (2 * bits - 8)) & 0xff);
        }
    unsigned index1[16], index2[16] = { 0 };
    for (unsigned t = 0; t < 16; t++)
        index1[t] = bptc_bits(&r, mode->index_bits - (bptc_anchor(mode->subsets, partition, t) ? 1u : 0u));
    for (unsigned t = 0; t < 16 && mode->index2_bits; t++)
        index2[t] = bptc_bits(&r, mode->index2_bits - (t == 0 ? 1u : 0u));
    for (unsigned t = 0; t < 16; t++) {
        unsigned s = bptc_subset(mode->subsets, partition, t);
        unsigned colour_index = index1[t], colour_bits = mode->index_bits;
        unsigned alpha_index = index1[t], alpha_bits = mode->index_bits;
        if (mode->index2_bits) {
            alpha_index = index2[t];
            alpha_bits = mode->index2_bits;
            if (index_selection) {
                colour_index = index2[t];
                colour_bits = mode->index2_bits;
                alpha_index = index1[t];
                alpha_bits = mode->index_bits;
            }
        }
        int value[4];
        for (unsigned c = 0; c < 4; c++) {
            unsigned weight = c < 3 ? bptc_weights(colour_bits)[colour_index]
                                    : bptc_weights(alpha_bits)[alpha_index];
            value[c] = bptc_interpolate(endpoint[2 * s][c], endpoint[2 * s + 1][c], weight);
        }
        if (rotation) {
            int swap = value[3];
            value[3] = value[rotation - 1];
            value[rotation - 1] = swap;
        }
        for (unsigned c = 0; c < 4; c++) {
            float f = (float)value[c] / 255.0f;
            texels[t].f[c] = srgb && c < 3 ? format_srgb_to_linear(f) : f;
        }
    }
}

/* BC6H endpoint fields: 1 + endpoint (w, x, y, z) * 3 + channel (R, G, B); 0 ends
 * a mode's list of runs */
enum bc6h_field { BC6H_END, RW, GW, BW, RX, GX, BX, RY, GY, BY, RZ, GZ, BZ };

/* a run of bits of one field, stored from bit `last` to bit `first` */
struct bc6h_run {
    uint8_t field, first, last;
};

#define BC6H_MAX_RUNS 24

/* The spec's "BC6H block modes" and per-mode bit layout tables (modes 1-14). */
struct bc6h_mode {
    uint8_t mode_value, mode_bits, regions, transformed;
    uint8_t endpoint_bits, delta_bits[3];
    struct bc6h_run runs[BC6H_MAX_RUNS];
};

#define W10 { RW, 9, 0 }, { GW, 9, 0 }, { BW, 9, 0 }

static const struct bc6h_mode bc6h_modes[14] = {
    { 0x00, 2, 2, 1, 10, { 5, 5, 5 },
      { { GY, 4, 4 }, { BY, 4, 4 }, { BZ, 4, 4 }, W10, { RX, 4, 0 }, { GZ, 4, 4 },
        { GY, 3, 0 }, { GX, 4, 0 }, { BZ, 0, 0 }, { GZ, 3, 0 }, { BX, 4, 0 }, { BZ, 1, 1 },
        { BY, 3, 0 }, { RY, 4, 0 }, { BZ, 2, 2 }, { RZ, 4, 0 }, { BZ, 3, 3 } } },
    { 0x01, 2, 2, 1, 7, { 6, 6, 6 },
      { { GY, 5, 5 }, { GZ, 4, 4 }, { GZ, 5, 5 }, { RW, 6, 0 }, { BZ, 0, 0 }, { BZ, 1, 1 },
        { BY, 4, 4 }, { GW, 6, 0 }, { BY, 5, 5 }, { BZ, 2, 2 }, { GY, 4, 4 }, { BW, 6, 0 },
        { BZ, 3, 3 }, { BZ, 5, 5 }, { BZ, 4, 4 }, { RX, 5, 0 }, { GY, 3, 0 }, { GX, 5, 0 },
        { GZ, 3, 0 }, { BX, 5, 0 }, { BY, 3, 0 }, { RY, 5, 0 }, { RZ, 5, 0 } } },
    { 0x02, 5, 2, 1, 11, { 5, 4, 4 },
      { W10, { RX, 4, 0 }, { RW, 10, 10 }, { GY, 3, 0 }, { GX, 3, 0 }, { GW, 10, 10 },
        { BZ, 0, 0 }, { GZ, 3, 0 }, { BX, 3, 0 }, { BW, 10, 10 }, { BZ, 1, 1 }, { BY, 3, 0 },
        { RY, 4, 0 }, { BZ, 2, 2 }, { RZ, 4, 0 }, { BZ, 3, 3 } } },
    { 0x06, 5, 2, 1, 11, { 4, 5, 4 },
      { W10, { RX, 3, 0 }, { RW, 10, 10 }, { GZ, 4, 4 }, { GY, 3, 0 }, { GX, 4, 0 },
        { GW, 10, 10 }, { GZ, 3, 0 }, { BX, 3, 0 }, { BW, 10, 10 }, { BZ, 1, 1 }, { BY, 3, 0 },
        { RY, 3, 0 }, { BZ, 0, 0 }, { BZ, 2, 2 }, { RZ, 3, 0 }, { GY, 4, 4 }, { BZ, 3, 3 } } },
    { 0x0a, 5, 2, 1, 11, { 4, 4, 5 },
      { W10, { RX, 3, 0 }, { RW, 10, 10 }, { BY, 4, 4 }, { GY, 3, 0 }, { GX, 3, 0 },
        { GW, 10, 10 }, { BZ, 0, 0 }, { GZ, 3, 0 }, { BX, 4, 0 }, { BW, 10, 10 }, { BY, 3, 0 },
        { RY, 3, 0 }, { BZ, 1, 1 }, { BZ, 2, 2 }, { RZ, 3, 0 }, { BZ, 4, 4 }, { BZ, 3, 3 } } },
    { 0x0e, 5, 2, 1, 9, { 5, 5, 5 },
      { { RW, 8, 0 }, { BY, 4, 4 }, { GW, 8, 0 }, { GY, 4, 4 }, { BW, 8, 0 }, { BZ, 4, 4 },
        { RX, 4, 0 }, { GZ, 4, 4 }, { GY, 3, 0 }, { GX, 4, 0 }, { BZ, 0, 0 }, { GZ, 3, 0 },
        { BX, 4, 0 }, { BZ, 1, 1 }, { BY, 3, 0 }, { RY, 4, 0 }, { BZ, 2, 2 }, { RZ, 4, 0 },
        { BZ, 3, 3 } } },
    { 0x12, 5, 2, 1, 8, { 6, 5, 5 },
      { { RW, 7, 0 }, { GZ, 4, 4 }, { BY, 4, 4 }, { GW, 7, 0 }, { BZ, 2, 2 }, { GY, 4, 4 },
        { BW, 7, 0 }, { BZ, 3, 3 }, { BZ, 4, 4 }, { RX, 5, 0 }, { GY, 3, 0 }, { GX, 4, 0 },
        { BZ, 0, 0 }, { GZ, 3, 0 }, { BX, 4, 0 }, { BZ, 1, 1 }, { BY, 3, 0 }, { RY, 5, 0 },
        { RZ, 5, 0 } } },
    { 0x16, 5, 2, 1, 8, { 5, 6, 5 },
      { { RW, 7, 0 }, { BZ, 0, 0 }, { BY, 4, 4 }, { GW, 7, 0 }, { GY, 5, 5 }, { GY, 4, 4 },
        { BW, 7, 0 }, { GZ, 5, 5 }, { BZ, 4, 4 }, { RX, 4, 0 }, { GZ, 4, 4 }, { GY, 3, 0 },
        { GX, 5, 0 }, { GZ, 3, 0 }, { BX, 4, 0 }, { BZ, 1, 1 }, { BY, 3, 0 }, { RY, 4, 0 },
        { BZ, 2, 2 }, { RZ, 4, 0 }, { BZ, 3, 3 } } },
    { 0x1a, 5, 2, 1, 8, { 5, 5, 6 },
      { { RW, 7, 0 }, { BZ, 1, 1 }, { BY, 4, 4 }, { GW, 7, 0 }, { BY, 5, 5 }, { GY, 4, 4 },
        { BW, 7, 0 }, { BZ, 5, 5 }, { BZ, 4, 4 }, { RX, 4, 0 }, { GZ, 4, 4 }, { GY, 3, 0 },
        { GX, 4, 0 }, { BZ, 0, 0 }, { GZ, 3, 0 }, { BX, 5, 0 }, { BY, 3, 0 }, { RY, 4, 0 },
        { BZ, 2, 2 }, { RZ, 4, 0 }, { BZ, 3, 3 } } },
    { 0x1e, 5, 2, 0, 6, { 6, 6, 6 },
      { { RW, 5, 0 }, { GZ, 4, 4 }, { BZ, 0, 0 }, { BZ, 1, 1 }, { BY, 4, 4 }, { GW, 5, 0 },
        { GY, 5, 5 }, { BY, 5, 5 }, { BZ, 2, 2 }, { GY, 4, 4 }, { BW, 5, 0 }, { GZ, 5, 5 },
        { BZ, 3, 3 }, { BZ, 5, 5 }, { BZ, 4, 4 }, { RX, 5, 0 }, { GY, 3, 0 }, { GX, 5, 0 },
        { GZ, 3, 0 }, { BX, 5, 0 }, { BY, 3, 0 }, { RY, 5, 0 }, { RZ, 5, 0 } } },
    { 0x03, 5, 1, 0, 10, { 10, 10, 10 },
      { W10, { RX, 9, 0 }, { GX, 9, 0 }, { BX, 9, 0 } } },
    { 0x07, 5, 1, 1, 11, { 9, 9, 9 },
      { W10, { RX, 8, 0 }, { RW, 10, 10 }, { GX, 8, 0 }, { GW, 10, 10 }, { BX, 8, 0 },
        { BW, 10, 10 } } },
    { 0x0b, 5, 1, 1, 12, { 8, 8, 8 },
      { W10, { RX, 7, 0 }, { RW, 10, 11 }, { GX, 7, 0 }, { GW, 10, 11 }, { BX, 7, 0 },
        { BW, 10, 11 } } },
    { 0x0f, 5, 1, 1, 16, { 4, 4, 4 },
      { W10, { RX, 3, 0 }, { RW, 10, 15 }, { GX, 3, 0 }, { GW, 10, 15 }, { BX, 3, 0 },
        { BW, 10, 15 } } },
};

#undef W10

/* the low `bits` bits of value as a two's complement number */
static int bc6h_signed(unsigned value, unsigned bits)
{
    return (int)sign_extend(value & ((1u << bits) - 1), bits);
}

static int bc6h_unquantize(int e, unsigned bits, bool is_signed)
{
    if (!is_signed) {
        if (bits >= 15 || e == 0)
            return e;
        if (e == (1 << bits) - 1)
            return 0xffff;
        return ((e << 16) + 0x8000) >> bits;
    }
    if (bits >= 16)
        return e;
    bool negative = e < 0;
    int magnitude = negative ? -e : e, q;
    if (magnitude == 0)
        q = 0;
    else if (magnitude >= (1 << (bits - 1)) - 1)
        q = 0x7fff;
    else
        q = ((magnitude << 15) + 0x4000) >> (bits - 1);
    return negative ? -q : q;
}

static uint16_t bc6h_finish(int v, bool is_signed)
{
    if (!is_signed)
        return (uint16_t)((v * 31) >> 6);
    if (v < 0)
        return (uint16_t)(0x8000 | (((-v) * 31) >> 5));
    return (uint16_t)((v * 31) >> 5);
}

static void bc6h_block(const uint8_t *block, bool is_signed, struct format_value *texels)
{
    for (unsigned t = 0; t < 16; t++) {
        texels[t].kind = FORMAT_VALUE_FLOAT;
        texels[t].f[0] = texels[t].f[1] = texels[t].f[2] = 0.0f;
        texels[t].f[3] = 1.0f;
    }
    unsigned mode_value = (block[0] & 2) ? block[0] & 0x1fu : block[0] & 3u;
    const struct bc6h_mode *mode = NULL;
    for (unsigned m = 0; m < 14 && !mode; m++)
        if (bc6h_modes[m].mode_value == mode_value)
            mode = &bc6h_modes[m];
    if (!mode)
        return;     /* reserved mode */
    struct bptc_reader r = { block, mode->mode_bits };
    unsigned raw[12] = { 0 };
    for (unsigned i = 0; i < BC6H_MAX_RUNS && mode->runs[i].field != BC6H_END; i++) {
        const struct bc6h_run *run = &mode->runs[i];
        bool down = run->first < run->last;    /* [10:15]: bit 15 stored first */
        unsigned count = (down ? run->last - run->first : run->first - run->last) + 1u;
        for (unsigned k = 0; k < count; k++) {
            unsigned bit = down ? run->last - k : run->last + k;
            raw[run->field - 1] |= bptc_bits(&r, 1) << bit;
        }
    }
    unsigned partition = 0, index_bits = mode->regions == 2 ? 3 : 4;
    r.pos = mode->regions == 2 ? 77 : 65;
    if (mode->regions == 2)
        partition = bptc_bits(&r, 5);
    unsigned prec = mode->endpoint_bits, endpoints = 2u * mode->regions;
    int e[4][3];
    for (unsigned c = 0; c < 3; c++) {
        e[0][c] = is_signed ? bc6h_signed(raw[c], prec) : (int)raw[c];
        for (unsigned i = 1; i < endpoints; i++) {
            unsigned v = raw[3 * i + c];
            if (mode->transformed) {
                int sum = e[0][c] + bc6h_signed(v, mode->delta_bits[c]);
                unsigned wrapped = (unsigned)sum & ((1u << prec) - 1);
                e[i][c] = is_signed ? bc6h_signed(wrapped, prec) : (int)wrapped;
            } else {
                e[i][c] = is_signed ? bc6h_signed(v, prec) : (int)v;
            }
        }
        for (unsigned i = 0; i < endpoints; i++)
            e[i][c] = bc6h_unquantize(e[i][c], prec, is_signed);
    }
    const uint8_t *weights = bptc_weights(index_bits);
    for (unsigned t = 0; t < 16; t++) {
        unsigned s = bptc_subset(mode->regions, partition, t);
        unsigned index = bptc_bits(&r, index_bits - (bptc_anchor(mode->regions, partition, t) ? 1u : 0u));
        for (unsigned c = 0; c < 3; c++) {
            int v = bptc_interpolate(e[2 * s][c], e[2 * s + 1][c], weights[index]);
            texels[t].f[c] = format_half_to_float(bc6h_finish(v, is_signed));
        }
    }
}

/* The ASTC encodings this library decodes: LDR (encoding bit 8 clear) 2D (bit 7
 * clear) ones (003 L3523: "[8] LDR/Full [7] 2D/3D"). */
static bool astc_ldr_2d(const struct format_desc *desc)
{
    return (desc->key & 0x180u) == 0;
}

int format_decode_block_texel(unsigned key, const void *block, unsigned x, unsigned y,
                              struct format_value *texel)
{
    const struct format_desc *desc = format_describe(key);
    if (!desc)
        return FORMAT_UNKNOWN;
    if (desc->block_width == 0 || desc->block_height == 0 || desc->layout == FORMAT_LAYOUT_PLAIN)
        return FORMAT_NOT_SUPPORTED;
    x %= desc->block_width;
    y %= desc->block_height;
    if (desc->layout == FORMAT_LAYOUT_ASTC) {
        if (!astc_ldr_2d(desc))
            return FORMAT_NOT_SUPPORTED;
        texel->kind = FORMAT_VALUE_FLOAT;
        astc_decode_texel(block, desc->block_width, desc->block_height, x, y,
                          desc->space == FORMAT_SPACE_SRGB, texel->f);
        return FORMAT_OK;
    }
    if ((unsigned)desc->block_width * desc->block_height > 16)
        return FORMAT_NOT_SUPPORTED;
    struct format_value texels[16];
    int status = format_decode_block(key, block, texels);
    if (status == FORMAT_OK)
        *texel = texels[y * desc->block_width + x];
    return status;
}

int format_decode_block(unsigned key, const void *block, struct format_value *texels)
{
    const struct format_desc *desc = format_describe(key);
    if (!desc)
        return FORMAT_UNKNOWN;
    const uint8_t *bytes = block;
    float channel[2][16];
    bool is_signed = desc->field_count && desc->fields[0].type == FORMAT_TYPE_SNORM;
    switch (desc->layout) {
    case FORMAT_LAYOUT_BC4:
    case FORMAT_LAYOUT_BC5:
    case FORMAT_LAYOUT_EAC: {
        bool two = desc->layout == FORMAT_LAYOUT_BC5 || desc->bits == 128;
        for (unsigned c = 0; c < (two ? 2u : 1u); c++) {
            if (desc->layout == FORMAT_LAYOUT_EAC)
                eac_channel(bytes + 8 * c, is_signed ? EAC_SIGNED11 : EAC_UNSIGNED11, channel[c]);
            else
                rgtc_channel(bytes + 8 * c, is_signed, channel[c]);
        }
        for (unsigned t = 0; t < 16; t++) {
            texels[t].kind = FORMAT_VALUE_FLOAT;
            texels[t].f[0] = channel[0][t];
            texels[t].f[1] = two ? channel[1][t] : 0.0f;
            texels[t].f[2] = 0.0f;
            texels[t].f[3] = 1.0f;
        }
        return FORMAT_OK;
    }
    case FORMAT_LAYOUT_ETC1:
    case FORMAT_LAYOUT_ETC2: {
        bool has_alpha = desc->field_count == 4;
        bool eac_alpha = has_alpha && desc->bits == 128;
        etc2_colour_block(bytes + (eac_alpha ? 8 : 0), has_alpha && !eac_alpha, texels);
        if (eac_alpha) {
            eac_channel(bytes, EAC_ALPHA8, channel[0]);
            for (unsigned t = 0; t < 16; t++)
                texels[t].f[3] = channel[0][t];
        }
        break;
    }
    case FORMAT_LAYOUT_BC7:
        bc7_block(bytes, desc->space == FORMAT_SPACE_SRGB, texels);
        return FORMAT_OK;
    case FORMAT_LAYOUT_BC6H:
        bc6h_block(bytes, desc->fields[0].type == FORMAT_TYPE_SFLOAT, texels);
        return FORMAT_OK;
    case FORMAT_LAYOUT_ASTC: {
        if (!astc_ldr_2d(desc))
            return FORMAT_NOT_SUPPORTED;
        float rgba[ASTC_MAX_TEXELS * 4];
        astc_decode_block(bytes, desc->block_width, desc->block_height,
                          desc->space == FORMAT_SPACE_SRGB, rgba);
        for (unsigned t = 0; t < (unsigned)desc->block_width * desc->block_height; t++) {
            texels[t].kind = FORMAT_VALUE_FLOAT;
            memcpy(texels[t].f, rgba + 4 * t, sizeof texels[t].f);
        }
        return FORMAT_OK;
    }
    default:
        break;
    }
    if (desc->layout == FORMAT_LAYOUT_ETC1 || desc->layout == FORMAT_LAYOUT_ETC2) {
        if (desc->space == FORMAT_SPACE_SRGB)
            for (unsigned t = 0; t < 16; t++)
                for (unsigned k = 0; k < 3; k++)
                    texels[t].f[k] = format_srgb_to_linear(texels[t].f[k]);
        return FORMAT_OK;
    }
    return format_decode_bc1_3(desc, bytes, texels);
}

static int format_decode_bc1_3(const struct format_desc *desc, const uint8_t *bytes,
                               struct format_value *texels)
{
    switch (desc->layout) {
    case FORMAT_LAYOUT_BC1:
    case FORMAT_LAYOUT_DXT1RGB:
        bc_colour_block(bytes, false, desc->layout == FORMAT_LAYOUT_BC1, texels);
        break;
    case FORMAT_LAYOUT_BC2:
        bc_colour_block(bytes + 8, true, false, texels);
        for (unsigned t = 0; t < 16; t++)
            texels[t].f[3] = (float)((bytes[t / 2] >> (4 * (t % 2))) & 15) / 15.0f;
        break;
    case FORMAT_LAYOUT_BC3:
        bc_colour_block(bytes + 8, true, false, texels);
        bc3_alpha_block(bytes, texels);
        break;
    default:
        return FORMAT_NOT_SUPPORTED;
    }
    if (desc->space == FORMAT_SPACE_SRGB)
        for (unsigned t = 0; t < 16; t++)
            for (unsigned k = 0; k < 3; k++)
                texels[t].f[k] = format_srgb_to_linear(texels[t].f[k]);
    return FORMAT_OK;
}
