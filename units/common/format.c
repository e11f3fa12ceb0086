/* units/common/format.c - texel conversions for the surface format table
 * (units/common/format.h says what is modelled, with the seed lines, and what is
 * not). Everything is driven by the table's bit fields: one routine per channel
 * type, none per format. */
#include "units/common/format.h"

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
