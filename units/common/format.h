/* units/common/format.h - surface formats: what each SURFACE_FORMAT holds, and
 * one texel converted to and from four floats or integers.
 *
 * What is modelled
 * - The table (generated from spec/formats/surface_formats.txt, whose header says
 *   where every fact comes from): every SURFACE_FORMAT the seeds list for Gen4-Gen9,
 *   with its encoding, first generation, bits per block, block size, colour space,
 *   layout and bit fields (channel, type, width, position from bit 0 of the texel's
 *   little-endian bytes, as the name reads: R8G8B8A8 has R in bits 7:0). The ASTC
 *   encodings, which the same 9-bit Surface Format field takes when RENDER_SURFACE_
 *   STATE "ASTC Enable" is set (003 L3521), are keys 0x200 | encoding.
 * - format_unpack: a texel of a bit-field format to float4, int4 or uint4 (the kind
 *   the table gives: U32 for UINT formats, S32 for SINT, float for the rest, 003
 *   L5206). Channels feed the outputs as the Gen9 sampler's "Sampler Output Channel
 *   Mapping" shows (003 L3577-3760): L feeds R, G, B; I feeds R, G, B, A; Y feeds R,
 *   G, B; a channel the format lacks is 0 for R, G, B and 1 (or 1.0) for A (003
 *   L5214: "The default value for missing components is 0 for RGB, and either 1 or
 *   1.0 for A"). Read conversions follow 003 L5193-5199: UNORM/SNORM fixed point to
 *   IEEE float, SINT sign-extended, UINT zero-extended, narrower floats widened
 *   exactly (denormals included). SNORM: both -2^(n-1) and -2^(n-1)+1 read as -1.0
 *   (the only reading that keeps -1.0 .. 1.0 symmetric; Direct3D 10+ functional
 *   spec, "SNORM -> FLOAT"). USCALED/SSCALED read as the integer's float value (001
 *   Table 3-1, L4978ff: "FLOAT"); SFIXED is 16.16 signed fixed point.
 * - format_pack: the reverse (003 L5196-5199): float to UNORM/SNORM clamps to
 *   [0,1]/[-1,1] and rounds to nearest even (NaN gives 0); float to a narrower
 *   float rounds to nearest even, keeps denormals, overflows to infinity and turns a
 *   NaN into a quiet NaN; R11G11B10's unsigned floats take negative values and -inf
 *   as 0; UINT and SINT saturate to the field's range ("Clamp to min/max if
 *   destination is narrower"). USCALED/SSCALED/SFIXED (vertex-fetch-only formats the
 *   seeds give no write rule for) round to nearest even and saturate, like UNORM.
 * - sRGB formats: R, G, B (and L) pass through the sRGB curve (IEC 61966-2-1:
 *   c <= 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4, and its inverse with the
 *   0.0031308 knee); alpha stays linear. The seed's "^(2.4)" (003 L3399) is the
 *   curve's short name; the exact curve is modelled.
 * - R9G9B9E5_SHAREDEXP: read as m * 2^(e-15-9); written as the
 *   EXT_texture_shared_exponent specification's rgb9e5 conversion (clamp to
 *   [0, 65408], shared exponent from the largest channel, mantissas rounded half up).
 *
 * Not modelled (format_unpack/format_pack return FORMAT_NOT_SUPPORTED)
 * - compressed formats: the table has their block sizes; format_decode_block
 *   decodes BC1-BC5, DXT1_RGB, ETC1, ETC2 (RGB8, PTA, EAC_RGBA8 and their sRGB
 *   forms), EAC (R11, RG11, signed), BC7 (BPTC unorm and sRGB: all 8 modes,
 *   partitions, anchors, p-bits, rotation, index selection), BC6H (BPTC
 *   float, SF16 and UF16: all 14 modes, to half floats, returned as floats)
 *   and ASTC LDR 2D (every footprint 4x4-12x12, U8sRGB and FLT16; astc.h)
 *   blocks (see format.c for the definitions used: EXT_texture_compression_s3tc,
 *   the Khronos Data Format Specification 1.3, its BPTC section for BC6H/BC7;
 *   reserved BPTC modes decode to 0, alpha 1 for BC6H) but not FXT1 or the
 *   ASTC_FULL (HDR) formats;
 *   format_unpack/pack take none of them (no compressed format is written);
 * - palette (P is an index into a palette the sampler holds), 4:2:2 YCRCB (a texel
 *   is half of a 32-bit pair), planar YUV, MONO8, RAW, the 64-bit PASSTHRU formats
 *   and formats of fewer than 8 bits per texel (R1_UNORM, P2): format_unpack_fields
 *   still gives the raw bit fields of the palette, YCRCB and PASSTHRU formats;
 * - sampler-only behaviour: the Border Color Mode differences, chroma key, shadow
 *   compare, the SINT "minimum + 1" filtering quirk (003 L3780).
 * Endianness: texels are the bytes as they lie in memory, little-endian.
 */
#ifndef GTSIM_UNITS_COMMON_FORMAT_H
#define GTSIM_UNITS_COMMON_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "surface_formats.h"     /* generated: enum surface_format, SURFACE_FORMAT_KEYS */

enum format_channel {
    FORMAT_CH_R, FORMAT_CH_G, FORMAT_CH_B, FORMAT_CH_A,
    FORMAT_CH_L,    /* luminance: feeds R, G, B */
    FORMAT_CH_I,    /* intensity: feeds R, G, B, A */
    FORMAT_CH_P,    /* palette index */
    FORMAT_CH_Y,    /* luma: feeds R, G, B (Y8_UNORM, 003 L3691) */
    FORMAT_CH_U,    /* Cb of a YCRCB pair */
    FORMAT_CH_V,    /* Cr of a YCRCB pair */
    FORMAT_CH_E,    /* shared exponent */
    FORMAT_CH_X,    /* unused bits */
};

enum format_type {
    FORMAT_TYPE_UNORM, FORMAT_TYPE_SNORM, FORMAT_TYPE_UINT, FORMAT_TYPE_SINT,
    FORMAT_TYPE_USCALED, FORMAT_TYPE_SSCALED,
    FORMAT_TYPE_SFLOAT,     /* IEEE binary16/32/64 */
    FORMAT_TYPE_UFLOAT,     /* no sign bit: 5-bit exponent, 6- or 5-bit mantissa (R11G11B10),
                               9-bit mantissa of R9G9B9E5 */
    FORMAT_TYPE_SFIXED,     /* signed 16.16 */
    FORMAT_TYPE_X,          /* unused */
    FORMAT_TYPE_RAW,        /* 64-bit passthrough */
};

enum format_layout {
    FORMAT_LAYOUT_PLAIN,        /* bit fields, converted channel by channel */
    FORMAT_LAYOUT_SHAREDEXP,    /* R9G9B9E5 */
    FORMAT_LAYOUT_PALETTE,      /* bit fields; P indexes a palette */
    FORMAT_LAYOUT_YUV422,       /* 4:2:2 pair: 2x1 texels in 32 bits */
    FORMAT_LAYOUT_PLANAR,       /* planar YUV; bits are the luma plane's */
    FORMAT_LAYOUT_RAW,          /* untyped buffer */
    FORMAT_LAYOUT_MONO,
    FORMAT_LAYOUT_BC1, FORMAT_LAYOUT_BC2, FORMAT_LAYOUT_BC3, FORMAT_LAYOUT_BC4,
    FORMAT_LAYOUT_BC5, FORMAT_LAYOUT_BC6H, FORMAT_LAYOUT_BC7, FORMAT_LAYOUT_DXT1RGB,
    FORMAT_LAYOUT_FXT1, FORMAT_LAYOUT_ETC1, FORMAT_LAYOUT_ETC2, FORMAT_LAYOUT_EAC,
    FORMAT_LAYOUT_ASTC,
};

enum format_space { FORMAT_SPACE_LINEAR, FORMAT_SPACE_SRGB, FORMAT_SPACE_YUV };

enum format_value_kind { FORMAT_VALUE_FLOAT, FORMAT_VALUE_SINT, FORMAT_VALUE_UINT };

#define FORMAT_MAX_FIELDS 4

struct format_field {
    uint8_t channel;        /* enum format_channel */
    uint8_t type;           /* enum format_type */
    uint8_t bits;           /* width; 0 for the decoded channels of a compressed format */
    uint8_t shift;          /* lowest bit in the texel */
};

struct format_desc {
    const char *name;       /* as the PRM spells it */
    uint16_t key;           /* (ASTC Enable << 9) | Surface Format */
    uint8_t since_gen;      /* first of 4, 7, 8, 9 that has it */
    uint8_t layout;         /* enum format_layout */
    uint8_t space;          /* enum format_space */
    uint16_t bits;          /* bits per block (per texel when the block is 1x1) */
    uint8_t block_width, block_height;
    uint8_t value_kind;     /* enum format_value_kind: what format_unpack gives */
    uint8_t field_count;
    struct format_field fields[FORMAT_MAX_FIELDS];
};

/* One texel's value: f[] for FORMAT_VALUE_FLOAT, i[] for SINT, u[] for UINT, in
 * R, G, B, A order. */
struct format_value {
    enum format_value_kind kind;
    union {
        float f[4];
        int32_t i[4];
        uint32_t u[4];
    };
};

enum format_status {
    FORMAT_OK = 0,
    FORMAT_UNKNOWN = -1,        /* no format has that key */
    FORMAT_NOT_SUPPORTED = -2,  /* a layout this library does not convert (see above) */
    FORMAT_KIND_MISMATCH = -3,  /* format_pack given floats for an integer format or so */
};

/* The table (generated, build/gen/surface_formats.c). */
const struct format_desc *format_describe(unsigned key);    /* NULL if undefined */
const struct format_desc *format_find(const char *name);    /* "R8G8B8A8_UNORM" */
const struct format_desc *format_nth(unsigned n);           /* n < SURFACE_FORMAT_COUNT */

/* Whether generation `gen` (4, 7, 8 or 9) has the format. */
bool format_on_gen(const struct format_desc *desc, unsigned gen);

/* Bytes one block occupies (bits / 8), 0 for formats under 8 bits a texel. */
unsigned format_block_bytes(const struct format_desc *desc);

/* One texel (for a 1x1-block bit-field format) to and from a value. format_pack
 * writes format_block_bytes() bytes, unused bits as 0, and needs in->kind to be the
 * format's value_kind. */
int format_unpack(unsigned key, const void *texel, struct format_value *out);
int format_pack(unsigned key, const struct format_value *in, void *texel);

/* The texels of one compressed block, row-major, block_width * block_height of
 * them (up to 144 for ASTC 12x12), as floats: BC1-BC7, DXT1_RGB, ETC1, ETC2, EAC
 * (and their _SRGB forms), the ASTC_LDR_2D formats (units/common/astc.h); FXT1 and
 * the ASTC_FULL (HDR) formats return FORMAT_NOT_SUPPORTED. */
int format_decode_block(unsigned key, const void *block, struct format_value *texels);

/* Texel (x mod block_width, y mod block_height) of one compressed block: the same
 * values as format_decode_block, without decoding the whole block for ASTC. */
int format_decode_block_texel(unsigned key, const void *block, unsigned x, unsigned y,
                              struct format_value *texel);

/* The raw bit fields of a texel, in the table's field order (plain, palette,
 * sharedexp, yuv422 and PASSTHRU layouts of 8 bits or more). */
int format_unpack_fields(unsigned key, const void *texel, uint64_t raw[FORMAT_MAX_FIELDS]);

/* The conversions format_pack/unpack use, for units that need them alone. */
float format_half_to_float(uint16_t half);
uint16_t format_float_to_half(float value);
/* An unsigned float of 5 exponent bits and `mantissa_bits` (6: float11, 5: float10). */
float format_ufloat_to_float(uint32_t bits, unsigned mantissa_bits);
uint32_t format_float_to_ufloat(float value, unsigned mantissa_bits);
float format_srgb_to_linear(float encoded);
float format_linear_to_srgb(float linear);
uint32_t format_float3_to_rgb9e5(const float rgb[3]);
void format_rgb9e5_to_float3(uint32_t packed, float rgb[3]);

#endif
