/* tests/units/test_contracts.c - the message contracts in units/common: every
 * header compiles on its own, the kinds have names, and the numbers the
 * contracts fix agree with the seeds and the reference data (typed here from
 * the documents, not from the headers): URB handle units (003 L8459), the
 * VUE header layout (003 L11759-11844), the topology encodings (Mesa genxml
 * gen9.xml 3D_Prim_Topo_Type), the RT write subtypes (003 sharedfn notes §5),
 * the QPU I/O register map (002 Table 14). */
#include "../test.h"

#include <string.h>

#include "fabric/msg.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/pixel.h"
#include "units/common/primitive.h"
#include "units/common/sampler.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/common/vc4_io.h"

static void test_kind_names(void)
{
    for (uint32_t k = 0; k < MSG_KIND_COUNT; k++) {
        const char *n = msg_kind_name(k);
        CU_ASSERT_PTR_NOT_NULL_FATAL(n);
        CU_ASSERT_STRING_NOT_EQUAL(n, "invalid");
        for (uint32_t j = 0; j < k; j++)
            CU_ASSERT_STRING_NOT_EQUAL(n, msg_kind_name(j));
    }
    CU_ASSERT_STRING_EQUAL(msg_kind_name(MSG_KIND_COUNT), "invalid");
    CU_ASSERT_STRING_EQUAL(msg_kind_name(MSG_URB), "urb");
    CU_ASSERT_EQUAL(MSG_BIT(MSG_SEND), 1u << 5);
    /* a port mask must hold every kind */
    CU_ASSERT_TRUE(MSG_KIND_COUNT <= 32);
}

static void test_urb(void)
{
    /* "offsets into the URB partition in the L3 cache, in 512-bit units" */
    CU_ASSERT_EQUAL(urb_handle_offset(1), 512 / 8);
    CU_ASSERT_EQUAL(urb_handle_offset(0x3fff), 0x3fff * 64);
    CU_ASSERT_EQUAL(URB_ROW_BYTES, 256 / 8);
    /* D4-D7 position: bytes 16..31 of the first row */
    CU_ASSERT_EQUAL(VUE_DW_POSITION_X * 4, 16);
    CU_ASSERT_EQUAL(VUE_DW_RT_ARRAY_INDEX, 1);
    CU_ASSERT_EQUAL(VUE_DW_VIEWPORT_INDEX, 2);
    CU_ASSERT_EQUAL(VUE_DW_POINT_WIDTH, 3);
    CU_ASSERT_EQUAL(VUE_DW_CLIP_DISTANCE_0 * 4, URB_ROW_BYTES);
    CU_ASSERT_EQUAL(offsetof(struct urb_msg, data) % 4, 0);
}

static void test_topologies(void)
{
    /* genxml gen9.xml: POINTLIST 1, TRILIST 4, RECTLIST 15, LINELOOP 16,
     * TRIFAN_NOSTIPPLE 22, PATCHLIST_1 32 ... PATCHLIST_32 63 */
    CU_ASSERT_EQUAL(PRIM_POINTLIST, 1);
    CU_ASSERT_EQUAL(PRIM_TRILIST, 4);
    CU_ASSERT_EQUAL(PRIM_TRISTRIP_REVERSE, 13);
    CU_ASSERT_EQUAL(PRIM_RECTLIST, 15);
    CU_ASSERT_EQUAL(PRIM_LINELOOP, 16);
    CU_ASSERT_EQUAL(PRIM_TRIFAN_NOSTIPPLE, 22);
    CU_ASSERT_EQUAL(PRIM_PATCHLIST_32, 63);
    CU_ASSERT_EQUAL(prim_patch_vertices(PRIM_TRILIST), 0);
    CU_ASSERT_EQUAL(prim_patch_vertices(34), 3);
    CU_ASSERT_EQUAL(prim_patch_vertices(63), 32);
    CU_ASSERT_EQUAL(prim_patch_vertices(64), 0);
    CU_ASSERT_EQUAL(PRIM_MAX_VERTICES, 32);
}

static void test_pixels(void)
{
    /* SIMD32 = 8 subspans of 4 pixels */
    CU_ASSERT_EQUAL(PIXEL_MAX_SUBSPANS * 4, PIXEL_MAX_SLOTS);
    CU_ASSERT_EQUAL(RT_WRITE_SIMD16_SINGLE_SOURCE, 0);
    CU_ASSERT_EQUAL(RT_WRITE_SIMD16_REPLICATED, 1);
    CU_ASSERT_EQUAL(RT_WRITE_SIMD8_DUAL_SOURCE_LOW, 2);
    CU_ASSERT_EQUAL(RT_WRITE_SIMD8_DUAL_SOURCE_HIGH, 3);
    CU_ASSERT_EQUAL(RT_WRITE_SIMD8_SINGLE_SOURCE, 4);
    /* "The maximum message length allowed to the sampler is 11." */
    CU_ASSERT_EQUAL(SAMPLER_MAX_PARAMETERS, 11);
    CU_ASSERT_EQUAL(SAMPLER_SIMD16, 2);
}

static void test_memreq(void)
{
    CU_ASSERT_EQUAL(MEMREQ_LINE_BYTES, 64);
    CU_ASSERT_EQUAL(MEMREQ_RO_DATA, 4);
    CU_ASSERT_EQUAL(MEMREQ_TARGET_COUNT, 5);
}

static void test_qpu_io(void)
{
    /* Table 14 write column */
    CU_ASSERT_EQUAL(QPU_IO_TMU_NOSWAP, 36);
    CU_ASSERT_EQUAL(QPU_IO_HOST_INT, 38);
    CU_ASSERT_EQUAL(QPU_IO_TLB_Z, 44);
    CU_ASSERT_EQUAL(QPU_IO_VPM_WRITE, 48);
    CU_ASSERT_EQUAL(QPU_IO_MUTEX, 51);
    CU_ASSERT_EQUAL(QPU_IO_SFU_RECIP, 52);
    CU_ASSERT_EQUAL(QPU_IO_SFU_LOG, 55);
    CU_ASSERT_EQUAL(QPU_IO_TMU0_S, 56);
    CU_ASSERT_EQUAL(QPU_IO_TMU1_B, 63);
    CU_ASSERT_EQUAL(QPU_LANES, 16);
}

static const struct test_case cases[] = {
    { "every kind has a name", test_kind_names },
    { "urb handles and the vue header", test_urb },
    { "topology encodings", test_topologies },
    { "pixels and sampler sizes", test_pixels },
    { "memory request targets", test_memreq },
    { "qpu register-mapped io", test_qpu_io },
    { 0 }
};
TEST_SUITE(contracts, cases);
