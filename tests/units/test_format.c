/* tests/units/test_format.c - the surface format library (units/common/format.h).
 *
 * Expected values come from the seeds (encodings and bits per element of 003's
 * typed and media surface tables L5216-5273, L5375-5420, the ASTC table L3523-3570,
 * the channel mapping L3577-3760) or are worked out by hand or by converters
 * written here, independently of the library (a half/float11/float10 decoder from
 * the IEEE definition; bytes computed on paper). With ../shared/seeds present the
 * table is also checked against every seed format table; without it that test
 * checks nothing and says so. */
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units/common/format.h"

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float bitsf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

static struct format_value fv(float r, float g, float b, float a)
{
    struct format_value v = { .kind = FORMAT_VALUE_FLOAT };
    v.f[0] = r; v.f[1] = g; v.f[2] = b; v.f[3] = a;
    return v;
}

static struct format_value uv(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    struct format_value v = { .kind = FORMAT_VALUE_UINT };
    v.u[0] = r; v.u[1] = g; v.u[2] = b; v.u[3] = a;
    return v;
}

static struct format_value iv(int32_t r, int32_t g, int32_t b, int32_t a)
{
    struct format_value v = { .kind = FORMAT_VALUE_SINT };
    v.i[0] = r; v.i[1] = g; v.i[2] = b; v.i[3] = a;
    return v;
}

/* pack `v` into `fmt` and compare with the bytes `want` */
static int packs_to(unsigned fmt, struct format_value v, const uint8_t *want, unsigned n)
{
    uint8_t got[32];
    memset(got, 0xcc, sizeof got);
    if (format_pack(fmt, &v, got) != FORMAT_OK)
        return 0;
    if (memcmp(got, want, n) != 0) {
        fprintf(stderr, "format %#x packs to", fmt);
        for (unsigned i = 0; i < n; i++)
            fprintf(stderr, " %02x", got[i]);
        fprintf(stderr, "\n");
        return 0;
    }
    return 1;
}

/* ---- the table ---- */

/* 003 "Supported Typed Surface Write and Read Formats" (L5216-5273) and "Supported
 * Media Surface Formats" (L5375-5420): encoding, name, bits per element. */
static const struct { unsigned value; const char *name; unsigned bpe; } seed_typed[] = {
    { 0x000, "R32G32B32A32_FLOAT", 128 }, { 0x001, "R32G32B32A32_SINT", 128 },
    { 0x002, "R32G32B32A32_UINT", 128 },  { 0x080, "R16G16B16A16_UNORM", 64 },
    { 0x081, "R16G16B16A16_SNORM", 64 },  { 0x082, "R16G16B16A16_SINT", 64 },
    { 0x083, "R16G16B16A16_UINT", 64 },   { 0x084, "R16G16B16A16_FLOAT", 64 },
    { 0x085, "R32G32_FLOAT", 64 },        { 0x086, "R32G32_SINT", 64 },
    { 0x087, "R32G32_UINT", 64 },         { 0x0C0, "B8G8R8A8_UNORM", 32 },
    { 0x0C2, "R10G10B10A2_UNORM", 32 },   { 0x0C4, "R10G10B10A2_UINT", 32 },
    { 0x0C7, "R8G8B8A8_UNORM", 32 },      { 0x0C9, "R8G8B8A8_SNORM", 32 },
    { 0x0CA, "R8G8B8A8_SINT", 32 },       { 0x0CB, "R8G8B8A8_UINT", 32 },
    { 0x0CC, "R16G16_UNORM", 32 },        { 0x0CD, "R16G16_SNORM", 32 },
    { 0x0CE, "R16G16_SINT", 32 },         { 0x0CF, "R16G16_UINT", 32 },
    { 0x0D0, "R16G16_FLOAT", 32 },        { 0x0D1, "B10G10R10A2_UNORM", 32 },
    { 0x0D3, "R11G11B10_FLOAT", 32 },     { 0x0D6, "R32_SINT", 32 },
    { 0x0D7, "R32_UINT", 32 },            { 0x0D8, "R32_FLOAT", 32 },
    { 0x100, "B5G6R5_UNORM", 16 },        { 0x102, "B5G5R5A1_UNORM", 16 },
    { 0x104, "B4G4R4A4_UNORM", 16 },      { 0x106, "R8G8_UNORM", 16 },
    { 0x107, "R8G8_SNORM", 16 },          { 0x108, "R8G8_SINT", 16 },
    { 0x109, "R8G8_UINT", 16 },           { 0x10A, "R16_UNORM", 16 },
    { 0x10B, "R16_SNORM", 16 },           { 0x10C, "R16_SINT", 16 },
    { 0x10D, "R16_UINT", 16 },            { 0x10E, "R16_FLOAT", 16 },
    { 0x113, "A16_UNORM", 16 },           { 0x11A, "B5G5R5X1_UNORM", 16 },
    { 0x140, "R8_UNORM", 8 },             { 0x141, "R8_SNORM", 8 },
    { 0x142, "R8_SINT", 8 },              { 0x143, "R8_UINT", 8 },
    { 0x144, "A8_UNORM", 8 },
};

static void test_table_matches_seed_spot_checks(void)
{
    for (size_t i = 0; i < sizeof seed_typed / sizeof seed_typed[0]; i++) {
        const struct format_desc *d = format_describe(seed_typed[i].value);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_STRING_EQUAL(d->name, seed_typed[i].name);
        CU_ASSERT_EQUAL(d->bits, seed_typed[i].bpe);
        CU_ASSERT_TRUE(format_on_gen(d, 9));
    }
    /* YCRCB: 16 bits a texel (003 L5417-5420), a 2x1 pair per 32-bit block */
    const struct format_desc *y = format_describe(0x182);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    CU_ASSERT_STRING_EQUAL(y->name, "YCRCB_NORMAL");
    CU_ASSERT_EQUAL(y->bits / (y->block_width * y->block_height), 16);
    CU_ASSERT_EQUAL(format_describe(0x190)->layout, FORMAT_LAYOUT_YUV422);
    /* ASTC (003 L3523-3570): 9-bit encoding with ASTC Enable, block WxH, 128 bits */
    static const struct { unsigned enc; const char *name; unsigned w, h; } astc[] = {
        { 0x000, "ASTC_LDR_2D_4x4_U8sRGB", 4, 4 },   { 0x031, "ASTC_LDR_2D_10x5_U8sRGB", 10, 5 },
        { 0x03f, "ASTC_LDR_2D_12x12_U8sRGB", 12, 12 }, { 0x049, "ASTC_LDR_2D_5x5_FLT16", 5, 5 },
        { 0x07e, "ASTC_LDR_2D_12x10_FLT16", 12, 10 }, { 0x164, "ASTC_FULL_2D_8x8_FLT16", 8, 8 },
        { 0x17f, "ASTC_FULL_2D_12x12_FLT16", 12, 12 },
    };
    for (size_t i = 0; i < sizeof astc / sizeof astc[0]; i++) {
        const struct format_desc *d = format_describe(0x200 | astc[i].enc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_STRING_EQUAL(d->name, astc[i].name);
        CU_ASSERT_EQUAL(d->block_width, astc[i].w);
        CU_ASSERT_EQUAL(d->block_height, astc[i].h);
        CU_ASSERT_EQUAL(d->bits, 128);
        CU_ASSERT_EQUAL(d->layout, FORMAT_LAYOUT_ASTC);
        CU_ASSERT_FALSE(format_on_gen(d, 8));
    }
    /* the 12x12 row's "(BPE)" column says 0.89 bits a texel */
    CU_ASSERT_DOUBLE_EQUAL(128.0 / 144.0, 0.89, 0.005);
    /* 001 Table 3-1 (965G VF, L4965-5082): these are on Gen4 */
    static const char *const gen4[] = { "R64G64B64A64_FLOAT", "R8G8B8_SSCALED",
                                        "R10G10B10X2_USCALED", "R32G32B32A32_SSCALED",
                                        "R16G16B16_UNORM", "R10G10B10_SNORM_A2_UNORM" };
    for (size_t i = 0; i < sizeof gen4 / sizeof gen4[0]; i++)
        CU_ASSERT_TRUE(format_on_gen(format_find(gen4[i]), 4));
    /* compressed formats record their blocks: BC1 4x4 in 64 bits, FXT1 8x4 in 128 */
    CU_ASSERT_EQUAL(format_find("BC1_UNORM")->bits, 64);
    CU_ASSERT_EQUAL(format_find("BC1_UNORM")->block_width, 4);
    CU_ASSERT_EQUAL(format_find("FXT1")->block_width, 8);
    CU_ASSERT_EQUAL(format_find("FXT1")->block_height, 4);
    CU_ASSERT_EQUAL(format_find("BC7_UNORM_SRGB")->space, FORMAT_SPACE_SRGB);
    CU_ASSERT_EQUAL(format_find("R9G9B9E5_SHAREDEXP")->layout, FORMAT_LAYOUT_SHAREDEXP);
    CU_ASSERT_EQUAL(format_find("P8A8_UNORM_PALETTE0")->layout, FORMAT_LAYOUT_PALETTE);
    CU_ASSERT_EQUAL(format_find("PLANAR_420_8")->space, FORMAT_SPACE_YUV);
    CU_ASSERT_PTR_NULL(format_describe(0x0D5));     /* R10G10B10_FLOAT_A2_UNORM: Gen12 */
    CU_ASSERT_PTR_NULL(format_describe(SURFACE_FORMAT_KEYS));
    CU_ASSERT_PTR_NULL(format_find("R8G8B8A8_UNORMX"));
}

static void test_table_is_consistent(void)
{
    unsigned described = 0;
    for (unsigned key = 0; key < SURFACE_FORMAT_KEYS; key++)
        described += format_describe(key) != NULL;
    CU_ASSERT_EQUAL(described, SURFACE_FORMAT_COUNT);
    for (unsigned n = 0; n < SURFACE_FORMAT_COUNT; n++) {
        const struct format_desc *d = format_nth(n);
        CU_ASSERT_PTR_EQUAL(format_describe(d->key), d);
        CU_ASSERT_PTR_EQUAL(format_find(d->name), d);
        CU_ASSERT_TRUE(d->since_gen == 4 || d->since_gen == 7 || d->since_gen == 8 ||
                       d->since_gen == 9);
        CU_ASSERT_TRUE(d->block_width >= 1 && d->block_height >= 1);
        CU_ASSERT_EQUAL(strstr(d->name, "SRGB") != NULL || strstr(d->name, "sRGB") != NULL,
                        d->space == FORMAT_SPACE_SRGB);
        bool bit_fields = d->layout == FORMAT_LAYOUT_PLAIN || d->layout == FORMAT_LAYOUT_PALETTE ||
                          d->layout == FORMAT_LAYOUT_SHAREDEXP || d->layout == FORMAT_LAYOUT_YUV422;
        if (!bit_fields)
            continue;
        /* every field's bits add up to the bits per element, in order, no gaps */
        unsigned next = 0;
        for (unsigned i = 0; i < d->field_count; i++) {
            CU_ASSERT_EQUAL(d->fields[i].shift, next);
            CU_ASSERT_TRUE(d->fields[i].bits > 0);
            next += d->fields[i].bits;
        }
        if (next != d->bits)
            fprintf(stderr, "%s: fields add up to %u bits, not %u\n", d->name, next, d->bits);
        CU_ASSERT_EQUAL(next, d->bits);
    }
}

/* ---- the table against the seeds' own tables, when ../shared is there ---- */

static FILE *open_seed(const char *name)
{
    static const char *const dirs[] = { "../shared/seeds", "/work/shared/seeds" };
    char path[256];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dirs[i], name);
        FILE *f = fopen(path, "r");
        if (f)
            return f;
    }
    return NULL;
}

/* The seed spells SSCALED/USCALED "SSACLED"/"USACLED" in its VF table (003 L12063ff). */
static void fix_seed_typo(char *name)
{
    char *p = strstr(name, "SACLED");
    if (p)
        memcpy(p, "SCALED", 6);
}

static void test_table_matches_seed_tables(void)
{
    FILE *f3 = open_seed("003_59eaf1066a666480.txt");
    FILE *f1 = open_seed("001_cac73f28c8cd0b58.txt");
    if (!f3 || !f1) {
        fprintf(stderr, "  (seeds not found: the seed-table check is skipped)\n");
        if (f3) fclose(f3);
        if (f1) fclose(f1);
        return;
    }
    char line[4096];
    unsigned lineno = 0, checked = 0, wrong = 0;
    while (fgets(line, sizeof line, f3)) {
        lineno++;
        char name[128];
        unsigned value, bpe;
        bool typed = (lineno >= 5216 && lineno <= 5273) || (lineno >= 5375 && lineno <= 5420);
        bool astc = lineno >= 3523 && lineno <= 3570;
        bool names = (lineno >= 3586 && lineno <= 3760) || (lineno >= 7606 && lineno <= 7687) ||
                     (lineno >= 12053 && lineno <= 12173);
        if (typed && sscanf(line, "%x\t%127[A-Z0-9_]\t%u", &value, name, &bpe) == 3) {
            const struct format_desc *d = format_find(name);
            bool ycrcb = strncmp(name, "YCRCB", 5) == 0;
            bool ok = d && d->key == value && d->bits == (ycrcb ? 2 * bpe : bpe) &&
                      format_on_gen(d, 9);
            if (!ok)
                fprintf(stderr, "003:%u %s %#x %u differs\n", lineno, name, value, bpe);
            wrong += !ok;
            checked++;
        } else if (astc && sscanf(line, "%xh\t", &value) == 1 && strstr(line, "\tASTC_")) {
            char *tab = strrchr(line, '\t');
            *tab = 0;
            char *nm = strrchr(line, '\t') + 1;
            const struct format_desc *d = format_find(nm);
            unsigned w, h;
            bool ok = d && d->key == (0x200u | value) &&
                      sscanf(strstr(nm, "2D_") + 3, "%ux%u", &w, &h) == 2 &&
                      d->block_width == w && d->block_height == h;
            if (!ok)
                fprintf(stderr, "003:%u %s differs\n", lineno, nm);
            wrong += !ok;
            checked++;
        } else if (names && sscanf(line, "%127[A-Z0-9_]", name) == 1 &&
                   line[strlen(name)] == '\t' && name[0] >= 'A' && name[0] <= 'Z' &&
                   (strpbrk(name, "0123456789") || !strcmp(name, "FXT1")) &&
                   strcmp(name, "ASTC") != 0) {
            fix_seed_typo(name);
            const struct format_desc *d = format_find(name);
            bool ok = d && format_on_gen(d, 9);
            if (!ok)
                fprintf(stderr, "003:%u %s missing on Gen9\n", lineno, name);
            wrong += !ok;
            checked++;
        }
    }
    lineno = 0;
    while (fgets(line, sizeof line, f1)) {
        lineno++;
        char name[128], kind[16];
        if (lineno >= 4965 && lineno <= 5082 &&
            sscanf(line, "%127[A-Z0-9_] %15[A-Z] ", name, kind) == 2 &&
            (!strcmp(kind, "FLOAT") || !strcmp(kind, "SINT") || !strcmp(kind, "UINT"))) {
            const struct format_desc *d = format_find(name);
            bool ok = d && format_on_gen(d, 4);
            if (!ok)
                fprintf(stderr, "001:%u %s missing on Gen4\n", lineno, name);
            wrong += !ok;
            checked++;
        }
    }
    fclose(f1);
    fclose(f3);
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(checked > 400);      /* the tables were found where the notes say */
}

/* ---- conversions, against values worked out here ---- */

/* IEEE binary16 (or an unsigned 5-bit-exponent float) decoded from its definition */
static double reference_small_float(uint32_t bits, unsigned mantissa_bits, bool has_sign)
{
    uint32_t m = bits & ((1u << mantissa_bits) - 1), e = (bits >> mantissa_bits) & 31;
    double sign = has_sign && (bits >> (mantissa_bits + 5)) & 1 ? -1.0 : 1.0;
    double frac = (double)m / (double)(1u << mantissa_bits);
    if (e == 31)
        return m ? NAN : sign * INFINITY;
    if (e == 0)
        return sign * frac * pow(2.0, -14);
    return sign * (1.0 + frac) * pow(2.0, (double)e - 15);
}

static void check_small_float(unsigned mantissa_bits, bool has_sign)
{
    unsigned total = mantissa_bits + 5 + has_sign, wrong = 0;
    uint32_t inf = 31u << mantissa_bits;
    for (uint32_t h = 0; h < (1u << total); h++) {
        double want = reference_small_float(h, mantissa_bits, has_sign);
        float got = has_sign ? format_half_to_float((uint16_t)h)
                             : format_ufloat_to_float(h, mantissa_bits);
        if (isnan(want) ? !isnan(got) : (double)got != want)
            wrong++;
        if (isnan(want))
            continue;
        uint32_t back = has_sign ? format_float_to_half((float)want)
                                 : format_float_to_ufloat((float)want, mantissa_bits);
        wrong += back != h;
        /* halfway to the next value up rounds to the even one of the two */
        uint32_t mag = h & ((1u << (mantissa_bits + 5)) - 1);
        if (mag <= inf - 1) {
            double next = reference_small_float(h + 1, mantissa_bits, has_sign);
            double mid = (want + next) / 2;
            if (mag == inf - 1)
                mid = want + (want - reference_small_float(h - 1, mantissa_bits, has_sign)) / 2;
            uint32_t even = (h & 1) ? h + 1 : h;
            uint32_t got_mid = has_sign ? format_float_to_half((float)mid)
                                        : format_float_to_ufloat((float)mid, mantissa_bits);
            if ((float)mid == mid && got_mid != even) {
                if (wrong < 5)
                    fprintf(stderr, "m%u: mid %.10g after %#x -> %#x\n", mantissa_bits, mid, h, got_mid);
                wrong++;
            }
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

static void test_half_float(void)
{
    CU_ASSERT_EQUAL(format_float_to_half(1.0f), 0x3C00);
    CU_ASSERT_EQUAL(format_half_to_float(0x3C00), 1.0f);
    CU_ASSERT_EQUAL(format_float_to_half(-2.0f), 0xC000);
    CU_ASSERT_EQUAL(format_float_to_half(65504.0f), 0x7BFF);            /* largest finite */
    CU_ASSERT_EQUAL(format_float_to_half(65519.0f), 0x7BFF);
    CU_ASSERT_EQUAL(format_float_to_half(65520.0f), 0x7C00);            /* halfway: to even = inf */
    CU_ASSERT_EQUAL(format_float_to_half(INFINITY), 0x7C00);
    CU_ASSERT_EQUAL(format_float_to_half(-INFINITY), 0xFC00);
    CU_ASSERT_EQUAL(format_float_to_half(-0.0f), 0x8000);
    CU_ASSERT_EQUAL(format_float_to_half(ldexpf(1, -24)), 0x0001);      /* smallest denormal */
    CU_ASSERT_EQUAL(format_float_to_half(ldexpf(1, -25)), 0x0000);      /* tie: to even 0 */
    CU_ASSERT_EQUAL(format_float_to_half(ldexpf(3, -25)), 0x0002);      /* tie: to even 2 */
    CU_ASSERT_EQUAL(format_float_to_half(ldexpf(1, -14)), 0x0400);      /* smallest normal */
    uint16_t nan = format_float_to_half(NAN);
    CU_ASSERT_EQUAL(nan & 0x7C00, 0x7C00);
    CU_ASSERT_TRUE(nan & 0x0200);                                       /* quiet */
    CU_ASSERT_TRUE(isnan(format_half_to_float(0x7C01)));
    check_small_float(10, true);
}

static void test_float11_float10(void)
{
    CU_ASSERT_EQUAL(format_float_to_ufloat(1.0f, 6), 0x3C0);
    CU_ASSERT_EQUAL(format_float_to_ufloat(1.0f, 5), 0x1E0);
    CU_ASSERT_EQUAL(format_float_to_ufloat(-1.0f, 6), 0);               /* no sign bit */
    CU_ASSERT_EQUAL(format_float_to_ufloat(-INFINITY, 5), 0);
    CU_ASSERT_EQUAL(format_float_to_ufloat(INFINITY, 6), 0x7C0);
    CU_ASSERT_EQUAL(format_float_to_ufloat(65024.0f, 6), 0x7BF);        /* largest float11 */
    CU_ASSERT_EQUAL(format_float_to_ufloat(64512.0f, 5), 0x3DF);        /* largest float10 */
    uint32_t nan = format_float_to_ufloat(NAN, 6);
    CU_ASSERT_TRUE((nan & 0x7C0) == 0x7C0 && (nan & 0x3F));
    check_small_float(6, false);
    check_small_float(5, false);
    /* R11G11B10_FLOAT {1, 1, 1}: 0x3C0 | 0x3C0 << 11 | 0x1E0 << 22 = 0x781E03C0 */
    static const uint8_t ones[4] = { 0xc0, 0x03, 0x1e, 0x78 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R11G11B10_FLOAT, fv(1, 1, 1, 1), ones, 4));
    struct format_value out;
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R11G11B10_FLOAT, ones, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.f[0] == 1 && out.f[1] == 1 && out.f[2] == 1 && out.f[3] == 1);
}

static void test_unorm_snorm(void)
{
    /* {1, 0.5, 0, 1}: 0.5 * 255 = 127.5 rounds to even 128 (003 L5197) */
    static const uint8_t rgba[4] = { 0xff, 0x80, 0x00, 0xff };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8G8B8A8_UNORM, fv(1, 0.5f, 0, 1), rgba, 4));
    static const uint8_t bgra[4] = { 0x00, 0x00, 0xff, 0xff };         /* B first in memory */
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_B8G8R8A8_UNORM, fv(1, 0, 0, 1), bgra, 4));
    struct format_value out;
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8G8B8A8_UNORM, rgba, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.kind, FORMAT_VALUE_FLOAT);
    CU_ASSERT_EQUAL(out.f[0], 1.0f);
    CU_ASSERT_EQUAL(out.f[1], (float)(128.0 / 255.0));
    CU_ASSERT_EQUAL(out.f[2], 0.0f);
    /* clamping and NaN */
    static const uint8_t clamped[4] = { 0xff, 0x00, 0x00, 0x00 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8G8B8A8_UNORM, fv(7, -3, NAN, -0.0f), clamped, 4));
    /* B5G6R5: R 15:11, G 10:5, B 4:0 */
    static const uint8_t magenta[2] = { 0x1f, 0xf8 }, green[2] = { 0xe0, 0x07 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_B5G6R5_UNORM, fv(1, 0, 1, 0), magenta, 2));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_B5G6R5_UNORM, fv(0, 1, 0, 0), green, 2));
    /* R10G10B10A2 {1, 0, 0.5, 1}: B = 511.5 -> 512 (even): 0x3FF | 512 << 20 | 3 << 30 */
    static const uint8_t r10[4] = { 0xff, 0x03, 0x00, 0xe0 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R10G10B10A2_UNORM, fv(1, 0, 0.5f, 1), r10, 4));
    /* a 1-bit alpha of 0.5 is a tie between 0 and 1: even is 0 (half-up would give 1) */
    static const uint8_t a1[2] = { 0x00, 0x00 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_B5G5R5A1_UNORM, fv(0, 0, 0, 0.5f), a1, 2));
    /* SNORM: -1 -> 0x81; 0x80 and 0x81 both read -1; 0.5 * 127 = 63.5 -> 64 */
    static const uint8_t m1[1] = { 0x81 }, half[1] = { 0x40 }, minus[1] = { 0x80 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SNORM, fv(-1, 0, 0, 0), m1, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SNORM, fv(-9, 0, 0, 0), m1, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SNORM, fv(0.5f, 0, 0, 0), half, 1));
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_SNORM, minus, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], -1.0f);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_SNORM, m1, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], -1.0f);
    static const uint8_t r24[4] = { 0xff, 0xff, 0xff, 0x12 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R24_UNORM_X8_TYPELESS, r24, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], 1.0f);
    /* R10G10B10_SNORM_A2_UNORM: R = -511 (0x201) -> -1.0, A = 3 -> 1.0 */
    static const uint8_t mixed[4] = { 0x01, 0x02, 0x00, 0xc0 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R10G10B10_SNORM_A2_UNORM, mixed, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], -1.0f);
    CU_ASSERT_EQUAL(out.f[3], 1.0f);
}

static void test_srgb(void)
{
    /* linear 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536 -> * 255 = 187.5 -> 188;
     * alpha stays linear: 127.5 -> 128 */
    static const uint8_t want[4] = { 188, 188, 188, 128 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8G8B8A8_UNORM_SRGB, fv(0.5f, 0.5f, 0.5f, 0.5f), want, 4));
    struct format_value out;
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8G8B8A8_UNORM_SRGB, want, &out), FORMAT_OK);
    CU_ASSERT_DOUBLE_EQUAL(out.f[0], 0.502886, 1e-5);     /* the sRGB table's 188 */
    CU_ASSERT_EQUAL(out.f[3], (float)(128.0 / 255.0));
    /* the linear segment: 0.002 * 12.92 * 255 = 6.59 -> 7 */
    static const uint8_t dark[4] = { 7, 0, 255, 255 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8G8B8A8_UNORM_SRGB, fv(0.002f, 0, 1, 1), dark, 4));
    CU_ASSERT_DOUBLE_EQUAL(format_srgb_to_linear(0.04045f), 0.04045 / 12.92, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(format_linear_to_srgb(1.0f), 1.0, 1e-6);
    /* L8_UNORM_SRGB: L feeds R, G, B, each decoded; 255 -> 1.0 */
    static const uint8_t l[1] = { 255 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_L8_UNORM_SRGB, l, &out), FORMAT_OK);
    CU_ASSERT_DOUBLE_EQUAL(out.f[2], 1.0, 1e-6);
    CU_ASSERT_EQUAL(out.f[3], 1.0f);
}

static void test_integers_saturate(void)
{
    static const uint8_t u255[1] = { 0xff }, s_min[1] = { 0x80 }, s_max[1] = { 0x7f };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_UINT, uv(300, 0, 0, 0), u255, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SINT, iv(-200, 0, 0, 0), s_min, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SINT, iv(200, 0, 0, 0), s_max, 1));
    static const uint8_t u16[2] = { 0xff, 0xff };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R16_UINT, uv(0xffffffffu, 0, 0, 0), u16, 2));
    /* R10G10B10A2_UINT {1024, 5, 0, 7}: 1023 | 5 << 10 | 3 << 30 = 0xC00017FF */
    static const uint8_t r10[4] = { 0xff, 0x17, 0x00, 0xc0 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R10G10B10A2_UINT, uv(1024, 5, 0, 7), r10, 4));
    struct format_value out;
    static const uint8_t neg[4] = { 0xfe, 0xff, 0xff, 0xff };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8G8B8A8_SINT, neg, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.kind, FORMAT_VALUE_SINT);
    CU_ASSERT_EQUAL(out.i[0], -2);                          /* sign-extended (003 L5198) */
    CU_ASSERT_EQUAL(out.i[3], -1);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8G8B8A8_UINT, neg, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.u[0], 254u);                        /* zero-extended (L5199) */
    /* scaled: the integer's value as a float; packing rounds to even */
    static const uint8_t c8[1] = { 200 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_USCALED, c8, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], 200.0f);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_SSCALED, c8, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], -56.0f);
    static const uint8_t two[1] = { 2 }, four[1] = { 4 }, mtwo[1] = { 0xfe };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SSCALED, fv(2.5f, 0, 0, 0), two, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SSCALED, fv(3.5f, 0, 0, 0), four, 1));
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R8_SSCALED, fv(-2.5f, 0, 0, 0), mtwo, 1));
    /* SFIXED 16.16: 0x00018000 = 1.5; -2.25 = 0xFFFDC000 */
    static const uint8_t fx[4] = { 0x00, 0x80, 0x01, 0x00 }, mfx[4] = { 0x00, 0xc0, 0xfd, 0xff };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R32_SFIXED, fx, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], 1.5f);
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R32_SFIXED, fv(-2.25f, 0, 0, 0), mfx, 4));
    /* the kind has to match */
    struct format_value f = fv(1, 0, 0, 0);
    uint8_t buf[4];
    CU_ASSERT_EQUAL(format_pack(SURFACE_FORMAT_R8_UINT, &f, buf), FORMAT_KIND_MISMATCH);
}

static void test_missing_channels_and_mapping(void)
{
    struct format_value out;
    static const uint8_t ff[1] = { 0xff }, seven[1] = { 7 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_UNORM, ff, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.f[0] == 1 && out.f[1] == 0 && out.f[2] == 0 && out.f[3] == 1);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R8_UINT, seven, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.u[0] == 7 && out.u[1] == 0 && out.u[2] == 0 && out.u[3] == 1);
    static const uint8_t la[2] = { 0x33, 0xff }, i8[1] = { 0x66 }, a8[1] = { 0x33 };
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_L8A8_UNORM, la, &out), FORMAT_OK);   /* L L L A */
    CU_ASSERT_TRUE(out.f[0] == 0.2f && out.f[1] == 0.2f && out.f[2] == 0.2f && out.f[3] == 1);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_I8_UNORM, i8, &out), FORMAT_OK);     /* I I I I */
    CU_ASSERT_TRUE(out.f[0] == 0.4f && out.f[1] == 0.4f && out.f[2] == 0.4f && out.f[3] == 0.4f);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_A8_UNORM, a8, &out), FORMAT_OK);     /* 0 0 0 A */
    CU_ASSERT_TRUE(out.f[0] == 0 && out.f[1] == 0 && out.f[2] == 0 && out.f[3] == 0.2f);
    static const uint8_t g8[4] = { 0xaa, 0xbb, 0xcc, 9 };                              /* 0 G 0 1 */
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_X24_TYPELESS_G8_UINT, g8, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.u[0] == 0 && out.u[1] == 9 && out.u[2] == 0 && out.u[3] == 1);
    /* X bits are written as 0 */
    static const uint8_t x8[4] = { 0x00, 0x00, 0xff, 0x00 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_B8G8R8X8_UNORM, fv(1, 0, 0, 0.7f), x8, 4));
    /* R32G32_FLOAT and R64_FLOAT */
    uint8_t buf[8];
    uint32_t w[2] = { fbits(1.5f), fbits(-2.0f) };
    memcpy(buf, w, 8);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R32G32_FLOAT, buf, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.f[0] == 1.5f && out.f[1] == -2.0f && out.f[2] == 0 && out.f[3] == 1);
    double d = -0.375;
    memcpy(buf, &d, 8);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R64_FLOAT, buf, &out), FORMAT_OK);
    CU_ASSERT_EQUAL(out.f[0], -0.375f);
    /* a signalling NaN is written quiet (003 L5196) */
    struct format_value snan = fv(bitsf(0x7f800001u), 0, 0, 0);
    CU_ASSERT_EQUAL(format_pack(SURFACE_FORMAT_R32_FLOAT, &snan, buf), FORMAT_OK);
    uint32_t q;
    memcpy(&q, buf, 4);
    CU_ASSERT_EQUAL(q, 0x7fc00001u);
}

static void test_shared_exponent(void)
{
    /* {1, 1, 1}: shared exponent floor(log2 1) + 1 + 15 = 16, step 2^(16-15-9) = 1/256,
     * mantissas 256: 256 | 256 << 9 | 256 << 18 | 16 << 27 = 0x84020100 */
    static const uint8_t ones[4] = { 0x00, 0x01, 0x02, 0x84 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R9G9B9E5_SHAREDEXP, fv(1, 1, 1, 0), ones, 4));
    /* {0.5, 0.25, 0}: exponent 15, step 2^-9: 256 | 128 << 9 | 15 << 27 = 0x78010100 */
    static const uint8_t mix[4] = { 0x00, 0x01, 0x01, 0x78 };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R9G9B9E5_SHAREDEXP, fv(0.5f, 0.25f, -3, 0), mix, 4));
    struct format_value out;
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R9G9B9E5_SHAREDEXP, mix, &out), FORMAT_OK);
    CU_ASSERT_TRUE(out.f[0] == 0.5f && out.f[1] == 0.25f && out.f[2] == 0 && out.f[3] == 1);
    /* the largest value, 511/512 * 2^16 = 65408, and anything above: all ones */
    static const uint8_t top[4] = { 0xff, 0xff, 0xff, 0xff };
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R9G9B9E5_SHAREDEXP, fv(65408, 65408, 1e9f, 0), top, 4));
    /* 511.9 would need mantissa 512 at exponent 24: it moves up to exponent 25, 256 */
    static const uint8_t up[4] = { 0x00, 0x01, 0x00, 0xc8 };            /* 256 | 25 << 27 */
    CU_ASSERT_TRUE(packs_to(SURFACE_FORMAT_R9G9B9E5_SHAREDEXP, fv(511.9f, 0, 0, 0), up, 4));
}

static void test_not_supported(void)
{
    uint8_t buf[16] = { 0 };
    struct format_value out;
    struct format_value in = fv(0, 0, 0, 0);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_BC1_UNORM, buf, &out), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_pack(SURFACE_FORMAT_ETC2_RGB8, &in, buf), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_P8A8_UNORM_PALETTE0, buf, &out), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_YCRCB_NORMAL, buf, &out), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R1_UNORM, buf, &out), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_unpack(SURFACE_FORMAT_R64_PASSTHRU, buf, &out), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_unpack(0x0D5, buf, &out), FORMAT_UNKNOWN);
    CU_ASSERT_EQUAL(format_unpack(0x3ff, buf, &out), FORMAT_UNKNOWN);
    /* the raw fields are still there: P8A8 has P in bits 7:0, A in 15:8 */
    static const uint8_t pa[2] = { 0x12, 0x34 };
    uint64_t raw[FORMAT_MAX_FIELDS];
    CU_ASSERT_EQUAL(format_unpack_fields(SURFACE_FORMAT_P8A8_UNORM_PALETTE0, pa, raw), FORMAT_OK);
    CU_ASSERT_TRUE(raw[0] == 0x12 && raw[1] == 0x34);
    /* YCRCB_SWAPY is UYVY (003 L5420): U, Y0, V, Y1 */
    static const uint8_t uyvy[4] = { 0x80, 0x10, 0x90, 0x20 };
    CU_ASSERT_EQUAL(format_unpack_fields(SURFACE_FORMAT_YCRCB_SWAPY, uyvy, raw), FORMAT_OK);
    const struct format_desc *d = format_describe(SURFACE_FORMAT_YCRCB_SWAPY);
    CU_ASSERT_TRUE(d->fields[0].channel == FORMAT_CH_U && raw[0] == 0x80);
    CU_ASSERT_TRUE(d->fields[1].channel == FORMAT_CH_Y && raw[1] == 0x10);
}

/* BC1-BC3 blocks worked out by hand from the EXT_texture_compression_s3tc definition */
static int texel_is(const struct format_value *t, float r, float g, float b, float a)
{
    const float eps = 1e-6f;
    return fabsf(t->f[0] - r) < eps && fabsf(t->f[1] - g) < eps && fabsf(t->f[2] - b) < eps &&
           fabsf(t->f[3] - a) < eps;
}

static void test_bc1_to_bc3_blocks(void)
{
    struct format_value t[16];
    /* c0 = 0xF800 red > c1 = 0x001F blue: four colours; texels 0-3 take indices
     * 0, 1, 2, 3 (0xE4 = 11 10 01 00b), the rest index 0 */
    static const uint8_t four[8] = { 0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x00, 0x00, 0x00 };
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC1_UNORM, four, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[0], 1, 0, 0, 1));
    CU_ASSERT_TRUE(texel_is(&t[1], 0, 0, 1, 1));
    CU_ASSERT_TRUE(texel_is(&t[2], 2.0f / 3, 0, 1.0f / 3, 1));
    CU_ASSERT_TRUE(texel_is(&t[3], 1.0f / 3, 0, 2.0f / 3, 1));
    CU_ASSERT_TRUE(texel_is(&t[15], 1, 0, 0, 1));
    /* c0 = blue < c1 = red: three colours and transparent black (BC1) or opaque
     * black (DXT1_RGB); texel 5 takes index 2 (bits 11:10), texel 6 index 3 */
    static const uint8_t three[8] = { 0x1f, 0x00, 0x00, 0xf8, 0x00, 0x38, 0x00, 0x00 };
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC1_UNORM, three, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[5], 0.5f, 0, 0.5f, 1));
    CU_ASSERT_TRUE(texel_is(&t[6], 0, 0, 0, 0));
    CU_ASSERT_TRUE(texel_is(&t[0], 0, 0, 1, 1));
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_DXT1_RGB, three, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[6], 0, 0, 0, 1));
    /* BC2: alphas 0xF, 0x0, 0x8 for texels 0-2 (bytes 0x0f, 0x08), colour block with
     * c0 == c1 (green 0x07E0) still four-colour: index 3 is green, not black */
    static const uint8_t bc2[16] = { 0x0f, 0x08, 0, 0, 0, 0, 0, 0,
                                     0xe0, 0x07, 0xe0, 0x07, 0xc0, 0x00, 0x00, 0x00 };
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC2_UNORM, bc2, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[0], 0, 1, 0, 1));
    CU_ASSERT_TRUE(texel_is(&t[1], 0, 1, 0, 0));
    CU_ASSERT_TRUE(texel_is(&t[2], 0, 1, 0, 8.0f / 15));
    CU_ASSERT_TRUE(texel_is(&t[3], 0, 1, 0, 0));
    /* BC3, a0 = 255 > a1 = 0: eight alphas; texels 0-3 take alpha indices 0, 1, 2, 7
     * (3-bit fields: 0 | 1 << 3 | 2 << 6 | 7 << 9 = 0x0E88) */
    static const uint8_t bc3[16] = { 0xff, 0x00, 0x88, 0x0e, 0, 0, 0, 0,
                                     0xe0, 0x07, 0xe0, 0x07, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC3_UNORM, bc3, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[0], 0, 1, 0, 1));
    CU_ASSERT_TRUE(texel_is(&t[1], 0, 1, 0, 0));
    CU_ASSERT_TRUE(texel_is(&t[2], 0, 1, 0, 6.0f / 7));
    CU_ASSERT_TRUE(texel_is(&t[3], 0, 1, 0, 1.0f / 7));
    /* a0 = 0 <= a1 = 255: six alphas, index 2 is 1/5, 6 is 0, 7 is 1 (texels 0-2
     * take indices 2, 6, 7: 2 | 6 << 3 | 7 << 6 = 0x1F2) */
    static const uint8_t bc3b[16] = { 0x00, 0xff, 0xf2, 0x01, 0, 0, 0, 0,
                                      0xe0, 0x07, 0xe0, 0x07, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC3_UNORM, bc3b, t), FORMAT_OK);
    CU_ASSERT_TRUE(texel_is(&t[0], 0, 1, 0, 0.2f));
    CU_ASSERT_TRUE(texel_is(&t[1], 0, 1, 0, 0));
    CU_ASSERT_TRUE(texel_is(&t[2], 0, 1, 0, 1));
    /* sRGB: a full-on endpoint stays 1.0, alpha is linear */
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_BC1_UNORM_SRGB, four, t), FORMAT_OK);
    CU_ASSERT_TRUE(fabsf(t[0].f[0] - 1) < 1e-6f && t[0].f[3] == 1);
    CU_ASSERT_TRUE(fabsf(t[2].f[2] - 0.0908417f) < 1e-5f);   /* sRGB 1/3 -> 0.0908417 */
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_FXT1, four, t), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_ASTC_FULL_2D_4x4_FLT16, four, t), FORMAT_NOT_SUPPORTED);
    CU_ASSERT_EQUAL(format_decode_block(SURFACE_FORMAT_R8_UNORM, four, t), FORMAT_NOT_SUPPORTED);
}

/* ---- round trips over every format this library converts ---- */

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* Whether a float channel holds every raw value of its field exactly (so bytes ->
 * value -> bytes must give the same bytes). */
static bool exact_in_float(const struct format_field *field)
{
    switch (field->type) {
    case FORMAT_TYPE_UNORM: case FORMAT_TYPE_SNORM:
    case FORMAT_TYPE_USCALED: case FORMAT_TYPE_SSCALED: case FORMAT_TYPE_SFIXED:
        return field->bits <= 16;
    case FORMAT_TYPE_SFLOAT:
        return field->bits <= 32;
    default:
        return true;
    }
}

static void put_field(uint8_t *bytes, unsigned shift, unsigned width, uint64_t value)
{
    for (unsigned b = 0; b < width; b++) {
        unsigned bit = shift + b;
        bytes[bit / 8] = (uint8_t)((bytes[bit / 8] & ~(1u << (bit % 8))) |
                                   (((value >> b) & 1) << (bit % 8)));
    }
}

static void test_round_trips(void)
{
    unsigned formats = 0, wrong = 0;
    uint32_t state = 12345;
    for (unsigned n = 0; n < SURFACE_FORMAT_COUNT; n++) {
        const struct format_desc *d = format_nth(n);
        uint8_t texel[32] = { 0 }, back[32];
        struct format_value value;
        if (d->layout == FORMAT_LAYOUT_SHAREDEXP || format_unpack(d->key, texel, &value) != FORMAT_OK)
            continue;
        formats++;
        unsigned bytes = format_block_bytes(d);
        for (unsigned sample = 0; sample < 200; sample++) {
            /* random fields; ones a float cannot hold get 0 or 1 steps; the SNORM
             * minimum (which reads as -1 like minimum + 1) and float NaNs (whose
             * payload is not kept) are moved aside; unused bits are 0 */
            memset(texel, 0, sizeof texel);
            for (unsigned i = 0; i < d->field_count; i++) {
                const struct format_field *f = &d->fields[i];
                uint64_t raw = ((uint64_t)next_random(&state) << 40) ^
                               ((uint64_t)next_random(&state) << 16) ^ next_random(&state);
                raw &= f->bits >= 64 ? ~0ull : (1ull << f->bits) - 1;
                if (f->type == FORMAT_TYPE_X)
                    raw = 0;
                if (!exact_in_float(f))
                    raw = f->type == FORMAT_TYPE_SFLOAT ? 0x3ff8000000000000ull /* 1.5 */ : raw & 1;
                if (f->type == FORMAT_TYPE_SNORM && raw == 1ull << (f->bits - 1))
                    raw += 1;
                if (f->type == FORMAT_TYPE_SFLOAT && f->bits == 16 && (raw & 0x7c00) == 0x7c00)
                    raw &= ~0x4000ull;
                if (f->type == FORMAT_TYPE_SFLOAT && f->bits == 32 && (raw & 0x7f800000) == 0x7f800000)
                    raw &= ~0x40000000ull;
                if (f->type == FORMAT_TYPE_UFLOAT && (raw >> (f->bits - 5)) == 31)
                    raw &= ~(1ull << (f->bits - 1));
                put_field(texel, f->shift, f->bits, raw);
            }
            memset(back, 0xcc, sizeof back);
            if (format_unpack(d->key, texel, &value) != FORMAT_OK ||
                format_pack(d->key, &value, back) != FORMAT_OK || memcmp(texel, back, bytes)) {
                if (wrong < 5)
                    fprintf(stderr, "%s: sample %u does not round-trip\n", d->name, sample);
                wrong++;
            }
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(formats > 130);

    /* values: pack(unpack(pack(v))) == pack(v) for every format, over sample values */
    static const float samples[][4] = {
        { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 0.5f, 0.25f, 0.125f, 0.75f },
        { -1, -0.5f, 2, 100 }, { 3, 7, 1000, -1000 }, { 1e-6f, 65504, 0.1f, 0.9f },
    };
    wrong = 0;
    for (unsigned n = 0; n < SURFACE_FORMAT_COUNT; n++) {
        const struct format_desc *d = format_nth(n);
        for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
            struct format_value v = { .kind = d->value_kind }, out;
            for (unsigned c = 0; c < 4; c++) {
                if (d->value_kind == FORMAT_VALUE_FLOAT)
                    v.f[c] = samples[s][c];
                else
                    v.i[c] = (int32_t)samples[s][c];
            }
            uint8_t once[32] = { 0 }, twice[32] = { 0 };
            if (format_pack(d->key, &v, once) != FORMAT_OK)
                continue;
            if (format_unpack(d->key, once, &out) != FORMAT_OK ||
                format_pack(d->key, &out, twice) != FORMAT_OK ||
                memcmp(once, twice, format_block_bytes(d))) {
                if (wrong < 5)
                    fprintf(stderr, "%s: value sample %zu is not stable\n", d->name, s);
                wrong++;
            }
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

static const struct test_case cases[] = {
    { "table matches seed spot checks", test_table_matches_seed_spot_checks },
    { "table is consistent", test_table_is_consistent },
    { "table matches seed tables", test_table_matches_seed_tables },
    { "half float", test_half_float },
    { "float11 and float10", test_float11_float10 },
    { "unorm and snorm", test_unorm_snorm },
    { "srgb", test_srgb },
    { "integers saturate", test_integers_saturate },
    { "missing channels and mapping", test_missing_channels_and_mapping },
    { "shared exponent", test_shared_exponent },
    { "not supported", test_not_supported },
    { "bc1 to bc3 blocks", test_bc1_to_bc3_blocks },
    { "round trips", test_round_trips },
    { 0 }
};
TEST_SUITE(format, cases);
