/* tests/units/test_vf_fetch.c - vertex element addressing and conversion
 * (units/vf/vf_fetch.h).
 *
 * Expected values are worked out here from the seeds: the VF's format table
 * (003 L12053-12173: 108 rows), the IEEE/PRM definitions of each encoding
 * (UNORM x/(2^n-1), SNORM x/(2^(n-1)-1) clamped to -1, SCALED = the integer's
 * value, SFIXED 16.16, half/float11/float10 by exponent and mantissa on paper),
 * the index formula of 001 L4930-4936 and the bound of 003 L11893-11920. */
#include "../test.h"

#include <string.h>

#include "units/common/format.h"
#include "units/vf/vf_fetch.h"

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static struct spec_VERTEX_ELEMENT_STATE element(unsigned format, unsigned c0, unsigned c1,
                                                unsigned c2, unsigned c3)
{
    struct spec_VERTEX_ELEMENT_STATE ve = { 0 };
    ve.Valid = true;
    ve.SourceElementFormat = format;
    ve.Component0Control = c0;
    ve.Component1Control = c1;
    ve.Component2Control = c2;
    ve.Component3Control = c3;
    return ve;
}

#define SRC VFCOMP_STORE_SRC

/* Fetch with all four components from the source; returns the counters. */
static struct vf_fetch_counters fetch(unsigned format, const void *bytes, uint32_t out[4])
{
    struct spec_VERTEX_ELEMENT_STATE ve = element(format, SRC, SRC, SRC, SRC);
    struct vf_generated_ids ids = { 0 };
    struct vf_element_result result;
    struct vf_fetch_counters counters = { 0 };
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, bytes, &ids, &result, &counters), 0);
    CU_ASSERT_EQUAL(result.write_mask, 0xfu);
    memcpy(out, result.dwords, 16);
    return counters;
}

static void test_table_rows(void)
{
    /* every row of the seed table is a format the VF takes, with its bytes */
    unsigned rows = 0;
    for (unsigned key = 0; key < 0x400; key++)
        if (vf_source_format(key)) {
            rows++;
            CU_ASSERT(vf_source_bytes(key) > 0);
        }
    CU_ASSERT_EQUAL(rows, 108);
    CU_ASSERT_EQUAL(vf_source_bytes(SURFACE_FORMAT_R8G8B8_UNORM), 3);
    CU_ASSERT_EQUAL(vf_source_bytes(SURFACE_FORMAT_R64G64B64_FLOAT), 24);
    CU_ASSERT_EQUAL(vf_source_format(SURFACE_FORMAT_R32G32B32_FLOAT)->available, 3);
    CU_ASSERT_EQUAL(vf_source_format(SURFACE_FORMAT_R16G16_SINT)->kind, VF_VALUE_SINT);
    CU_ASSERT_EQUAL(vf_source_format(SURFACE_FORMAT_R10G10B10A2_UINT)->kind, VF_VALUE_UINT);
    CU_ASSERT_EQUAL(vf_source_format(SURFACE_FORMAT_R64_PASSTHRU)->kind, VF_VALUE_NONE);
    /* sampler-only formats are not in the VF's table */
    CU_ASSERT_PTR_NULL(vf_source_format(SURFACE_FORMAT_R8G8B8A8_UNORM_SRGB));
    CU_ASSERT_PTR_NULL(vf_source_format(SURFACE_FORMAT_BC1_UNORM));
    CU_ASSERT_PTR_NULL(vf_source_format(SURFACE_FORMAT_B5G6R5_UNORM));
}

/* Every row converts: zero bytes give zero in each available component (0.0f
 * and integer 0 share their bits), and nothing is counted. */
static void test_every_row_converts(void)
{
    const uint8_t zeros[32] = { 0 };
    unsigned converted = 0;
    for (unsigned key = 0; key < 0x400; key++) {
        const struct vf_source_format *row = vf_source_format(key);
        if (!row)
            continue;
        uint32_t out[4];
        struct vf_fetch_counters c = fetch(key, zeros, out);
        CU_ASSERT_EQUAL(c.unsupported_format, 0);
        /* the seed lists an A column for R64G64B64_FLOAT, which has no A: the
         * missing-alpha default 1.0 */
        for (unsigned k = 0; k < row->available && k < 4; k++)
            CU_ASSERT_EQUAL(out[k], key == SURFACE_FORMAT_R64G64B64_FLOAT && k == 3
                                        ? fbits(1.0f) : 0u);
        converted++;
    }
    CU_ASSERT_EQUAL(converted, 108);
}

static void test_unorm_snorm(void)
{
    uint32_t out[4];
    const uint8_t rgba8[4] = { 0x80, 0xff, 0x00, 0x40 };
    fetch(SURFACE_FORMAT_R8G8B8A8_UNORM, rgba8, out);
    CU_ASSERT_EQUAL(out[0], fbits(128 / 255.0f));
    CU_ASSERT_EQUAL(out[1], fbits(1.0f));
    CU_ASSERT_EQUAL(out[2], fbits(0.0f));
    CU_ASSERT_EQUAL(out[3], fbits(64 / 255.0f));

    /* B8G8R8A8: bytes B, G, R, A; components come out R, G, B, A */
    const uint8_t bgra8[4] = { 0x00, 0x33, 0xff, 0x80 };
    fetch(SURFACE_FORMAT_B8G8R8A8_UNORM, bgra8, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.0f));
    CU_ASSERT_EQUAL(out[1], fbits(0x33 / 255.0f));
    CU_ASSERT_EQUAL(out[2], fbits(0.0f));
    CU_ASSERT_EQUAL(out[3], fbits(128 / 255.0f));

    /* 8-bit SNORM: 0x81 = -127 -> -1.0, 0x80 = -128 -> -1.0, 0x7f -> 1.0, 0x40 -> 64/127 */
    const uint8_t snorm8[4] = { 0x81, 0x80, 0x7f, 0x40 };
    fetch(SURFACE_FORMAT_R8G8B8A8_SNORM, snorm8, out);
    CU_ASSERT_EQUAL(out[0], fbits(-1.0f));
    CU_ASSERT_EQUAL(out[1], fbits(-1.0f));
    CU_ASSERT_EQUAL(out[2], fbits(1.0f));
    CU_ASSERT_EQUAL(out[3], fbits(64 / 127.0f));

    /* R10G10B10A2_SNORM: R = 0x200 (-512 -> -1.0), G = 0x1ff (511 -> 1.0),
     * B = 0x3ff (-1 -> -1/511), A = 2 bits 0b01 (1 -> 1.0); sign extension of each field */
    uint32_t packed = 0x200u | 0x1ffu << 10 | 0x3ffu << 20 | 1u << 30;
    fetch(SURFACE_FORMAT_R10G10B10A2_SNORM, &packed, out);
    CU_ASSERT_EQUAL(out[0], fbits(-1.0f));
    CU_ASSERT_EQUAL(out[1], fbits(1.0f));
    CU_ASSERT_EQUAL(out[2], fbits(-1.0f / 511.0f));
    CU_ASSERT_EQUAL(out[3], fbits(1.0f));
    packed = 2u << 30;      /* A = -2 -> -1.0; R, G, B zero */
    fetch(SURFACE_FORMAT_R10G10B10A2_SNORM, &packed, out);
    CU_ASSERT_EQUAL(out[3], fbits(-1.0f));
    CU_ASSERT_EQUAL(out[0], fbits(0.0f));

    /* R10G10B10_SNORM_A2_UNORM: A = 0b10 -> 2/3 unsigned */
    packed = 0x001u | 2u << 30;
    fetch(SURFACE_FORMAT_R10G10B10_SNORM_A2_UNORM, &packed, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.0f / 511.0f));
    CU_ASSERT_EQUAL(out[3], fbits(2.0f / 3.0f));

    /* 16-bit UNORM 0xffff -> 1.0, 0x8000 -> 32768/65535 */
    const uint16_t rg16[2] = { 0xffff, 0x8000 };
    struct vf_fetch_counters c = fetch(SURFACE_FORMAT_R16G16_UNORM, rg16, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.0f));
    CU_ASSERT_EQUAL(out[1], fbits((float)(32768.0 / 65535.0)));
    /* B and A are '-': counted; the defaults 0 and 1.0 are stored */
    CU_ASSERT_EQUAL(c.unavailable_component, 2);
    CU_ASSERT_EQUAL(out[2], 0u);
    CU_ASSERT_EQUAL(out[3], fbits(1.0f));
}

static void test_scaled_fixed_integer(void)
{
    uint32_t out[4];
    const int16_t minus_two = -2;
    struct spec_VERTEX_ELEMENT_STATE ve = element(SURFACE_FORMAT_R16_SSCALED, SRC,
                                                  VFCOMP_STORE_0, VFCOMP_STORE_0,
                                                  VFCOMP_STORE_1_FP);
    struct vf_generated_ids ids = { 0 };
    struct vf_element_result r;
    struct vf_fetch_counters c = { 0 };
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, (const uint8_t *)&minus_two, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.dwords[0], fbits(-2.0f));
    CU_ASSERT_EQUAL(r.dwords[1], 0u);
    CU_ASSERT_EQUAL(r.dwords[2], 0u);
    CU_ASSERT_EQUAL(r.dwords[3], 0x3f800000u);
    CU_ASSERT_EQUAL(c.unavailable_component, 0);

    const uint8_t u8[4] = { 200, 0, 255, 7 };
    fetch(SURFACE_FORMAT_R8G8B8A8_USCALED, u8, out);
    CU_ASSERT_EQUAL(out[0], fbits(200.0f));
    CU_ASSERT_EQUAL(out[2], fbits(255.0f));
    CU_ASSERT_EQUAL(out[3], fbits(7.0f));
    fetch(SURFACE_FORMAT_R8G8B8A8_SSCALED, u8, out);
    CU_ASSERT_EQUAL(out[0], fbits(-56.0f));
    CU_ASSERT_EQUAL(out[2], fbits(-1.0f));

    /* SFIXED 16.16: 0x00018000 = 1.5, 0xffff0000 = -1.0, 0xffff8000 = -0.5 */
    const uint32_t fixed[4] = { 0x00018000u, 0xffff0000u, 0xffff8000u, 0 };
    fetch(SURFACE_FORMAT_R32G32B32A32_SFIXED, fixed, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.5f));
    CU_ASSERT_EQUAL(out[1], fbits(-1.0f));
    CU_ASSERT_EQUAL(out[2], fbits(-0.5f));

    /* SINT sign-extends, UINT zero-extends; missing A of an integer format is 1 */
    const uint8_t ints[3] = { 0xff, 0x80, 0x05 };
    fetch(SURFACE_FORMAT_R8G8B8_SINT, ints, out);
    CU_ASSERT_EQUAL(out[0], 0xffffffffu);
    CU_ASSERT_EQUAL(out[1], (uint32_t)-128);
    CU_ASSERT_EQUAL(out[2], 5u);
    CU_ASSERT_EQUAL(out[3], 1u);
    fetch(SURFACE_FORMAT_R8G8B8_UINT, ints, out);
    CU_ASSERT_EQUAL(out[0], 255u);
    CU_ASSERT_EQUAL(out[1], 128u);

    /* R10G10B10A2_UINT: R = 1023, G = 0, B = 512, A = 3 */
    uint32_t packed = 1023u | 512u << 20 | 3u << 30;
    fetch(SURFACE_FORMAT_R10G10B10A2_UINT, &packed, out);
    CU_ASSERT_EQUAL(out[0], 1023u);
    CU_ASSERT_EQUAL(out[1], 0u);
    CU_ASSERT_EQUAL(out[2], 512u);
    CU_ASSERT_EQUAL(out[3], 3u);
    /* B10G10R10A2_SINT: B in bits 9:0 = 0x3ff (-1), R in 29:20 = 0x200 (-512) */
    packed = 0x3ffu | 0x200u << 20;
    fetch(SURFACE_FORMAT_B10G10R10A2_SINT, &packed, out);
    CU_ASSERT_EQUAL(out[0], (uint32_t)-512);
    CU_ASSERT_EQUAL(out[2], 0xffffffffu);
    /* R10G10B10X2_USCALED: R, G, B scaled, X ignored, component 3 is '-' */
    packed = 3u | 4u << 10 | 5u << 20 | 3u << 30;
    struct vf_fetch_counters cx = fetch(SURFACE_FORMAT_R10G10B10X2_USCALED, &packed, out);
    CU_ASSERT_EQUAL(out[0], fbits(3.0f));
    CU_ASSERT_EQUAL(out[1], fbits(4.0f));
    CU_ASSERT_EQUAL(out[2], fbits(5.0f));
    CU_ASSERT_EQUAL(cx.unavailable_component, 1);
}

static void test_floats(void)
{
    uint32_t out[4];
    /* half: 0x3c00 = 1.0, 0xc000 = -2.0, 0x3800 = 0.5, 0x0001 = 2^-24 */
    const uint16_t halves[4] = { 0x3c00, 0xc000, 0x3800, 0x0001 };
    fetch(SURFACE_FORMAT_R16G16B16A16_FLOAT, halves, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.0f));
    CU_ASSERT_EQUAL(out[1], fbits(-2.0f));
    CU_ASSERT_EQUAL(out[2], fbits(0.5f));
    CU_ASSERT_EQUAL(out[3], fbits(1.0f / 16777216.0f));

    /* R11G11B10: float11 1.0 = exponent 15 << 6, 2.0 = 16 << 6; float10 0.5 = 14 << 5 */
    uint32_t packed = (15u << 6) | (16u << 6) << 11 | (14u << 5) << 22;
    struct vf_fetch_counters c = fetch(SURFACE_FORMAT_R11G11B10_FLOAT, &packed, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.0f));
    CU_ASSERT_EQUAL(out[1], fbits(2.0f));
    CU_ASSERT_EQUAL(out[2], fbits(0.5f));
    CU_ASSERT_EQUAL(out[3], fbits(1.0f));
    CU_ASSERT_EQUAL(c.unavailable_component, 1);

    const float f3[3] = { 1.25f, -7.0f, 1e30f };
    fetch(SURFACE_FORMAT_R32G32B32_FLOAT, f3, out);
    CU_ASSERT_EQUAL(out[0], fbits(1.25f));
    CU_ASSERT_EQUAL(out[1], fbits(-7.0f));
    CU_ASSERT_EQUAL(out[2], fbits(1e30f));
    CU_ASSERT_EQUAL(out[3], fbits(1.0f));

    /* 64-bit floats narrow to 32 */
    const double d2[2] = { 3.25, -0.125 };
    fetch(SURFACE_FORMAT_R64G64_FLOAT, d2, out);
    CU_ASSERT_EQUAL(out[0], fbits(3.25f));
    CU_ASSERT_EQUAL(out[1], fbits(-0.125f));

    /* passthrough: raw dwords, no conversion */
    const uint32_t raw[4] = { 0xdeadbeefu, 0x01234567u, 0x89abcdefu, 0x7fffffffu };
    fetch(SURFACE_FORMAT_R64G64_PASSTHRU, raw, out);
    CU_ASSERT_EQUAL(memcmp(out, raw, 16), 0);
}

static void test_component_controls(void)
{
    const uint8_t bytes[4] = { 1, 2, 3, 4 };
    struct vf_generated_ids ids = { .vertex_id = 17, .instance_id = 3, .primitive_id = 9 };
    struct vf_element_result r;
    struct vf_fetch_counters c = { 0 };
    struct spec_VERTEX_ELEMENT_STATE ve = element(SURFACE_FORMAT_R8G8B8A8_UINT, VFCOMP_STORE_VID,
                                                  VFCOMP_STORE_IID, VFCOMP_STORE_PID,
                                                  VFCOMP_STORE_1_INT);
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, bytes, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.dwords[0], 17u);
    CU_ASSERT_EQUAL(r.dwords[1], 3u);
    CU_ASSERT_EQUAL(r.dwords[2], 9u);
    CU_ASSERT_EQUAL(r.dwords[3], 1u);
    CU_ASSERT_EQUAL(r.write_mask, 0xfu);

    /* NOSTORE from component 2 up: two components written */
    ve = element(SURFACE_FORMAT_R8G8B8A8_UINT, SRC, VFCOMP_STORE_1_FP, VFCOMP_NOSTORE,
                 VFCOMP_NOSTORE);
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, bytes, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.write_mask, 0x3u);
    CU_ASSERT_EQUAL(r.dwords[0], 1u);
    CU_ASSERT_EQUAL(r.dwords[1], 0x3f800000u);
    CU_ASSERT_EQUAL(c.component_hole, 0);

    /* a hole (store after NOSTORE) is counted and not written */
    ve = element(SURFACE_FORMAT_R8G8B8A8_UINT, SRC, VFCOMP_NOSTORE, SRC, VFCOMP_STORE_0);
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, bytes, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.write_mask, 0x1u);
    CU_ASSERT_EQUAL(c.component_hole, 2);

    /* no STORE_SRC: the format is not looked at (001 L4922-4925) */
    ve = element(SURFACE_FORMAT_BC1_UNORM, VFCOMP_STORE_0, VFCOMP_STORE_0, VFCOMP_STORE_0,
                 VFCOMP_STORE_1_FP);
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, NULL, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.write_mask, 0xfu);
    CU_ASSERT_EQUAL(c.unsupported_format, 0);
    CU_ASSERT_EQUAL(c.out_of_bounds, 0);
}

static void test_unsupported_format(void)
{
    const uint8_t bytes[8] = { 0 };
    struct vf_generated_ids ids = { 0 };
    struct vf_element_result r;
    struct vf_fetch_counters c = { 0 };
    unsigned formats[] = { SURFACE_FORMAT_R8G8B8A8_UNORM_SRGB, SURFACE_FORMAT_BC1_UNORM, 0x3ff };
    for (unsigned i = 0; i < 3; i++) {
        struct spec_VERTEX_ELEMENT_STATE ve = element(formats[i], SRC, SRC, SRC, SRC);
        CU_ASSERT_EQUAL(vf_fetch_element(&ve, bytes, &ids, &r, &c), -1);
        CU_ASSERT_EQUAL(r.write_mask, 0u);
    }
    CU_ASSERT_EQUAL(c.unsupported_format, 3);
}

static void test_addresses_and_bounds(void)
{
    /* 001 L4930-4936 */
    CU_ASSERT_EQUAL(vf_structure_index(false, 2, 11, 7, 5), 11u);
    CU_ASSERT_EQUAL(vf_structure_index(true, 2, 11, 7, 5), 5u + 7u / 2u);
    CU_ASSERT_EQUAL(vf_structure_index(true, 1, 11, 7, 5), 12u);
    CU_ASSERT_EQUAL(vf_structure_index(true, 0, 11, 7, 5), 5u);

    /* base 0x1000, pitch 16, size 48 (three structures), element 8 bytes at offset 4 */
    struct vf_buffer vb = { .base = 0x1000, .pitch = 16, .size = 48 };
    uint64_t address;
    CU_ASSERT_TRUE(vf_element_address(&vb, 2, 4, 8, &address));
    CU_ASSERT_EQUAL(address, 0x1000u + 2 * 16 + 4);
    CU_ASSERT_FALSE(vf_element_address(&vb, 3, 4, 8, &address));
    CU_ASSERT_EQUAL(address, 0x1000u + 3 * 16 + 4);
    /* ends exactly at the last byte: inside; one byte further: outside */
    CU_ASSERT_TRUE(vf_element_address(&vb, 2, 8, 8, &address));
    CU_ASSERT_FALSE(vf_element_address(&vb, 2, 9, 8, &address));

    /* out of bounds reads zeros, then converts: R8G8B8A8_UNORM gives 0, 0, 0, 0;
     * R16G16_SINT gives 0, 0 and the defaults 0, 1 */
    uint32_t out[4];
    struct spec_VERTEX_ELEMENT_STATE ve = element(SURFACE_FORMAT_R8G8B8A8_UNORM, SRC, SRC, SRC, SRC);
    struct vf_generated_ids ids = { 0 };
    struct vf_element_result r;
    struct vf_fetch_counters c = { 0 };
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, NULL, &ids, &r, &c), 0);
    CU_ASSERT_EQUAL(r.dwords[0] | r.dwords[1] | r.dwords[2] | r.dwords[3], 0u);
    CU_ASSERT_EQUAL(c.out_of_bounds, 1);
    ve = element(SURFACE_FORMAT_R16G16_SINT, SRC, SRC, SRC, SRC);
    CU_ASSERT_EQUAL(vf_fetch_element(&ve, NULL, &ids, &r, &c), 0);
    memcpy(out, r.dwords, 16);
    CU_ASSERT_EQUAL(out[0], 0u);
    CU_ASSERT_EQUAL(out[1], 0u);
    CU_ASSERT_EQUAL(out[2], 0u);
    CU_ASSERT_EQUAL(out[3], 1u);
    CU_ASSERT_EQUAL(c.out_of_bounds, 2);
}

static void test_index_buffer(void)
{
    CU_ASSERT_EQUAL(vf_index_bytes(VF_INDEX_BYTE), 1);
    CU_ASSERT_EQUAL(vf_index_bytes(VF_INDEX_WORD), 2);
    CU_ASSERT_EQUAL(vf_index_bytes(VF_INDEX_DWORD), 4);
    CU_ASSERT_EQUAL(vf_index_bytes(3), 0);
    CU_ASSERT_EQUAL(vf_index_all_ones(VF_INDEX_BYTE), 0xffu);
    CU_ASSERT_EQUAL(vf_index_all_ones(VF_INDEX_WORD), 0xffffu);
    CU_ASSERT_EQUAL(vf_index_all_ones(VF_INDEX_DWORD), 0xffffffffu);

    /* a 10-byte IB of WORD indices at 0x2000: entries 0..4 inside, 5 outside */
    uint64_t address;
    CU_ASSERT_TRUE(vf_index_address(0x2000, 10, VF_INDEX_WORD, 4, &address));
    CU_ASSERT_EQUAL(address, 0x2008u);
    CU_ASSERT_FALSE(vf_index_address(0x2000, 10, VF_INDEX_WORD, 5, &address));
    CU_ASSERT_EQUAL(address, 0x200au);
    CU_ASSERT_FALSE(vf_index_address(0x2000, 10, 3, 0, &address));

    /* unsigned little-endian values; out of bounds reads 0 */
    const uint8_t bytes[4] = { 0xfe, 0xff, 0x12, 0x80 };
    CU_ASSERT_EQUAL(vf_index_value(VF_INDEX_BYTE, bytes), 0xfeu);
    CU_ASSERT_EQUAL(vf_index_value(VF_INDEX_WORD, bytes), 0xfffeu);
    CU_ASSERT_EQUAL(vf_index_value(VF_INDEX_DWORD, bytes), 0x8012fffeu);
    CU_ASSERT_EQUAL(vf_index_value(VF_INDEX_DWORD, NULL), 0u);

    /* SEQUENTIAL: start + number, base vertex ignored; RANDOM: value + base */
    CU_ASSERT_EQUAL(vf_vertex_index(false, 10, -5, 3, 999), 13u);
    CU_ASSERT_EQUAL(vf_vertex_index(true, 10, -5, 3, 7), 2u);
    CU_ASSERT_EQUAL(vf_vertex_index(true, 10, 100, 3, 7), 107u);
    CU_ASSERT_EQUAL(vf_vertex_index(true, 0, -8, 0, 7), 0xffffffffu);
}

static const struct test_case cases[] = {
    { "table rows", test_table_rows },
    { "every row converts", test_every_row_converts },
    { "unorm and snorm", test_unorm_snorm },
    { "scaled, fixed and integer", test_scaled_fixed_integer },
    { "floats and passthrough", test_floats },
    { "component controls", test_component_controls },
    { "unsupported format", test_unsupported_format },
    { "addresses and bounds", test_addresses_and_bounds },
    { "index buffer", test_index_buffer },
    { 0 }
};
TEST_SUITE(vf_fetch, cases);
