/* tests/spec/test_vc4_packets.c - the control-list record data (spec/vc4/packets.txt).
 *
 * Codes, lengths and field positions typed here from seed 002 Table 38 (@152147..@161789);
 * the comparison with Mesa's v3d_packet_v21.xml runs the data's checker when
 * ../shared/reference/vc4/v3d_packet_v21.xml exists (skips with a note otherwise).
 */
#include "../test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vc4_packets.h"

static const struct vc4_packet_field *field(unsigned code, const char *name)
{
    const struct vc4_packet_info *p = &vc4_packets[code];
    for (unsigned i = 0; i < p->field_count; i++)
        if (strcmp(p->fields[i].name, name) == 0)
            return &p->fields[i];
    return NULL;
}

static void test_codes_and_lengths(void)
{
    /* Table 38: code -> total bytes (payload + ID) */
    static const struct { unsigned code, length; char cl; } seed[] = {
        { 0, 1, '-' },   { 1, 1, '-' },   { 4, 1, 'B' },   { 5, 1, 'B' },   { 6, 1, 'B' },
        { 7, 1, '-' },   { 8, 1, '-' },   { 16, 5, '-' },  { 17, 5, '-' },  { 18, 1, '-' },
        { 24, 1, 'R' },  { 25, 1, 'R' },  { 26, 5, 'R' },  { 27, 5, 'R' },  { 28, 7, 'R' },
        { 29, 7, 'R' },  { 32, 14, '-' }, { 33, 10, '-' }, { 56, 2, 'R' },  { 64, 5, '-' },
        { 65, 5, '-' },  { 66, 5, '-' },  { 67, 9, '-' },  { 96, 4, '-' },  { 97, 5, '-' },
        { 100, 3, '-' }, { 102, 9, '-' }, { 105, 9, 'B' }, { 106, 9, 'B' }, { 112, 16, 'B' },
        { 113, 11, 'R' }, { 114, 14, 'R' }, { 115, 3, 'R' },
    };
    for (unsigned i = 0; i < sizeof seed / sizeof seed[0]; i++) {
        const struct vc4_packet_info *p = &vc4_packets[seed[i].code];
        CU_ASSERT_PTR_NOT_NULL_FATAL(p->name);
        CU_ASSERT_EQUAL(p->length, seed[i].length);
        CU_ASSERT_EQUAL(p->cl, seed[i].cl);
    }
    /* reserved codes have no record */
    const unsigned reserved[] = { 2, 3, 9, 15, 19, 23, 30, 31, 34, 40, 43, 47, 50, 55, 57, 63,
                                  68, 95, 107, 111, 116, 255 };
    for (unsigned i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        CU_ASSERT_PTR_NULL(vc4_packets[reserved[i]].name);
    CU_ASSERT_EQUAL(VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION, 112);
    CU_ASSERT_EQUAL(VC4_PACKET_CLIPPER_Z_SCALE_AND_OFFSET, 106);
    CU_ASSERT_EQUAL(VC4_PACKET_GL_SHADER_STATE, 64);
}

static void test_fields(void)
{
    /* Table 38 rows: bits@offset */
    const struct vc4_packet_field *f = field(112, "Width (in tiles)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->start, 96);
    CU_ASSERT_EQUAL(f->size, 8);
    f = field(113, "Non-HDR Frame Buffer Color Format");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->start, 66);
    CU_ASSERT_STRING_EQUAL(f->values[1].name, "rendering config rgba8888");
    CU_ASSERT_EQUAL(VC4_PACKET_STORE_TILE_BUFFER_GENERAL_PIXEL_COLOR_FORMAT_RGBA8888, 0);
    CU_ASSERT_EQUAL(VC4_PACKET_STORE_TILE_BUFFER_GENERAL_MEMORY_BASE_ADDRESS_OF_FRAME_TILE_DUMP_BUFFER_START, 20);
    CU_ASSERT_EQUAL(VC4_PACKET_CONFIGURATION_BITS_DEPTH_TEST_FUNCTION_START, 12);
    CU_ASSERT_EQUAL(VC4_PACKET_CONFIGURATION_BITS_DEPTH_TEST_FUNCTION_SIZE, 3);
    CU_ASSERT_EQUAL(VC4_PACKET_CLEAR_COLORS_CLEAR_ZS_SIZE, 24);
    CU_ASSERT_EQUAL(VC4_PACKET_TILE_COORDINATES_TILE_ROW_NUMBER_START, 8);
    CU_ASSERT_EQUAL(VC4_PACKET_VERTEX_ARRAY_PRIMITIVES_INDEX_OF_FIRST_VERTEX_START, 40);
    CU_ASSERT_EQUAL(VC4_PACKET_INDEXED_PRIMITIVE_LIST_MAXIMUM_INDEX_START, 72);
    /* GL Shader State address: bits 31:4 of the payload (notes 8.8) */
    CU_ASSERT_EQUAL(VC4_PACKET_GL_SHADER_STATE_ADDRESS_START, 4);
    CU_ASSERT_EQUAL(VC4_PACKET_GL_SHADER_STATE_ADDRESS_SIZE, 28);
    /* every field fits its record */
    for (unsigned c = 0; c < 256; c++) {
        const struct vc4_packet_info *p = &vc4_packets[c];
        if (!p->name || !p->length)
            continue;
        for (unsigned i = 0; i < p->field_count; i++)
            CU_ASSERT((p->fields[i].start + p->fields[i].size + 7) / 8 + 1 <= p->length);
    }
}

static void test_memory_records(void)
{
    /* Table 45 @174647: byte offsets of the GL shader state record, Table 46 the NV record */
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_LENGTH, 36);
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_FRAGMENT_SHADER_NUMBER_OF_VARYINGS_START, 3 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_FRAGMENT_SHADER_CODE_ADDRESS_START, 4 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_VERTEX_SHADER_ATTRIBUTE_ARRAY_SELECT_BITS_START, 14 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_VERTEX_SHADER_UNIFORMS_ADDRESS_START, 20 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_SHADER_RECORD_COORDINATE_SHADER_UNIFORMS_ADDRESS_START, 32 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_ATTRIBUTE_RECORD_LENGTH, 8);
    CU_ASSERT_EQUAL(VC4_RECORD_ATTRIBUTE_RECORD_NUMBER_OF_BYTES_MINUS_1_START, (40 - 36) * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_ATTRIBUTE_RECORD_COORDINATE_SHADER_VPM_OFFSET_START, (43 - 36) * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_NV_SHADER_RECORD_SHADED_VERTEX_DATA_ADDRESS_START, 12 * 8);
    CU_ASSERT_EQUAL(VC4_RECORD_NV_SHADER_RECORD_CLIP_COORDINATES_HEADER_INCLUDED_IN_SHADED_VERTEX_DATA_START, 3);
    CU_ASSERT_EQUAL(VC4_RECORD_VG_SHADER_RECORD_LENGTH, 12);
}

static void test_against_mesa_xml(void)
{
    const char *xml = "../shared/reference/vc4/v3d_packet_v21.xml";
    if (access(xml, R_OK) != 0) {
        printf("\n  [vc4_packets] %s absent: comparison with Mesa's packets skipped ", xml);
        return;
    }
    int rc = system("python3 spec/vc4/gen_vc4_packets.py --check spec/vc4/packets.txt "
                    "../shared/reference/vc4/v3d_packet_v21.xml >/dev/null");
    CU_ASSERT_EQUAL(rc, 0);
}

static const struct test_case cases[] = {
    { "record codes, lengths and classes (Table 38)", test_codes_and_lengths },
    { "field positions", test_fields },
    { "shader state and attribute records (Tables 45-47)", test_memory_records },
    { "agrees with Mesa's v3d_packet_v21.xml (skips without ../shared)", test_against_mesa_xml },
    { 0 }
};
TEST_SUITE(vc4_packets, cases);
