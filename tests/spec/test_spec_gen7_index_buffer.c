/* tests/spec/test_spec_gen7_index_buffer.c - Gen7's 3DSTATE_INDEX_BUFFER
 * (model fix, issue 14 item 5): the command was missing from
 * spec/data/gen7.xml (it lies outside seed 000's alphabetical slice,
 * 3DSTATE_POLY_STIPPLE_OFFSET .. 3DSTATE_WM), so the Gen7 command streamer
 * skipped it as unknown and every indexed Gen7 draw read index 0
 * (units/vf: "indexed 3DPRIMITIVE with no 3DSTATE_INDEX_BUFFER"). The layout
 * is the reference genxml gen7.xml's (L971-986): DW0 Index Format 9:8, Cut
 * Index Enable 10, MOCS 15:12, sub-opcode 0x0a, length 3 (bias 2); DW1 the
 * starting address, DW2 the inclusive ending address. The words below are
 * what crocus emits for a 16-bit index buffer (0x780a1101), written out
 * here by hand. */
#include "../test.h"

#include "spec/spec.h"
#include "spec_common.h"

static void test_decodes(void)
{
    const uint32_t dw[3] = { 0x780a1101u | (1u << 10), 0x00143000u, 0x0014300bu };
    const struct spec_element *e = spec_find_command(7, dw, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->name, "3DSTATE_INDEX_BUFFER");
    CU_ASSERT_EQUAL(e->id, SPEC_ID_3DSTATE_INDEX_BUFFER);
    CU_ASSERT_EQUAL(spec_command_length(e, dw), 3);
    struct spec_3DSTATE_INDEX_BUFFER v = { 0 };
    e->unpack_common(dw, &v);
    CU_ASSERT_EQUAL(v.IndexFormat, 1);                  /* INDEX_WORD */
    CU_ASSERT_TRUE(v.CutIndexEnable);
    CU_ASSERT_EQUAL(v.MOCS, 1);
    CU_ASSERT_EQUAL(v.BufferStartingAddress, 0x143000u);
    CU_ASSERT_EQUAL(v.BufferEndingAddress, 0x14300bu);
    CU_ASSERT_PTR_EQUAL(spec_element_by_id(7, SPEC_ID_3DSTATE_INDEX_BUFFER), e);
}

static const struct test_case cases[] = {
    { "Gen7 3DSTATE_INDEX_BUFFER decodes (format, cut, MOCS, start, inclusive end)",
      test_decodes },
    { 0 }
};
TEST_SUITE(spec_gen7_index_buffer, cases);
