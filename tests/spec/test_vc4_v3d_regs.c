/* tests/spec/test_vc4_v3d_regs.c - the V3D register data (spec/vc4/v3d_registers.txt)
 * against seed 002: offsets typed from Table 48 (@178773, @180544, @182688), fields from
 * Tables 49-93, the reference configuration's IDENT1 reset value from Table 80 (@203828).
 */
#include "../test.h"

#include <stdbool.h>
#include <string.h>

#include "vc4_v3d_regs.h"

static void test_offsets(void)
{
    static const struct { uint32_t offset; const char *name; } seed[] = {
        { 0x00000, "IDENT0" },  { 0x00004, "IDENT1" },  { 0x00008, "IDENT2" },
        { 0x00010, "SCRATCH" }, { 0x00020, "L2CACTL" }, { 0x00024, "SLCACTL" },
        { 0x00030, "INTCTL" },  { 0x00034, "INTENA" },  { 0x00038, "INTDIS" },
        { 0x00100, "CT0CS" },   { 0x00104, "CT1CS" },   { 0x00108, "CT0EA" },
        { 0x0010c, "CT1EA" },   { 0x00110, "CT0CA" },   { 0x00114, "CT1CA" },
        { 0x00118, "CT00RA0" }, { 0x0011c, "CT01RA0" }, { 0x00120, "CT0LC" },
        { 0x00124, "CT1LC" },   { 0x00128, "CT0PC" },   { 0x0012c, "CT1PC" },
        { 0x00130, "PCS" },     { 0x00134, "BFC" },     { 0x00138, "RFC" },
        { 0x00300, "BPCA" },    { 0x00304, "BPCS" },    { 0x00308, "BPOA" },
        { 0x0030c, "BPOS" },    { 0x00310, "BXCF" },    { 0x00410, "SQRSV0" },
        { 0x00414, "SQRSV1" },  { 0x00418, "SQCNTL" },  { 0x00430, "SRQPC" },
        { 0x00434, "SRQUA" },   { 0x00438, "SRQUL" },   { 0x0043c, "SRQCS" },
        { 0x00500, "VPACNTL" }, { 0x00504, "VPMBASE" }, { 0x00670, "PCTRC" },
        { 0x00674, "PCTRE" },   { 0x00680, "PCTR0" },   { 0x00684, "PCTRS0" },
        { 0x006d8, "PCTR11" },  { 0x006dc, "PCTRS11" }, { 0x006f8, "PCTR15" },
        { 0x006fc, "PCTRS15" }, { 0x00f00, "DBGE" },    { 0x00f04, "FDBGO" },
        { 0x00f08, "FDBGB" },   { 0x00f0c, "FDBGR" },   { 0x00f10, "FDBGS" },
        { 0x00f20, "ERRSTAT" },
    };
    for (unsigned i = 0; i < sizeof seed / sizeof seed[0]; i++) {
        const struct v3d_register_info *r = v3d_register_at(seed[i].offset);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_STRING_EQUAL(r->name, seed[i].name);
    }
    /* Table 48 rows: 26 + 37 + 15, plus DBCFG, DBQITE, DBQITC from GPU_FFT's source */
    CU_ASSERT_EQUAL(V3D_REGISTER_COUNT, 26 + 37 + 15 + 3);
    CU_ASSERT_EQUAL(V3D_DBQITE, 0xe2c);
    CU_ASSERT_EQUAL(V3D_DBQITC, 0xe30);
    CU_ASSERT_EQUAL(V3D_SRQPC, 0x430);
    CU_ASSERT_EQUAL(V3D_CTnCS(1), 0x104);
    CU_ASSERT_EQUAL(V3D_PCTRSn(3), 0x69c);
    CU_ASSERT_STRING_EQUAL(v3d_register_at(0x104)->family, "CTnCS");
    CU_ASSERT_PTR_NULL(v3d_register_at(0x00c));
    CU_ASSERT_PTR_NULL(v3d_register_at(0xfff));
    for (unsigned i = 1; i < V3D_REGISTER_COUNT; i++)
        CU_ASSERT(v3d_registers[i - 1].offset < v3d_registers[i].offset);
}

static uint32_t put(uint32_t v, unsigned shift, uint32_t mask)
{
    return (v & mask) << shift;
}

static void test_fields(void)
{
    /* IDENT1 reference reset values (Table 80): VPMSZ 12, HDRT 1, NSEM 16, TUPS 2, QUPS 4,
     * NSLC 3, REV 1 at 31:28, 27:24, 23:16, 15:12, 11:8, 7:4, 3:0 */
    uint32_t ident1 = put(12, V3D_IDENT1_VPMSZ_SHIFT, V3D_IDENT1_VPMSZ_MASK) |
                      put(1, V3D_IDENT1_HDRT_SHIFT, V3D_IDENT1_HDRT_MASK) |
                      put(16, V3D_IDENT1_NSEM_SHIFT, V3D_IDENT1_NSEM_MASK) |
                      put(2, V3D_IDENT1_TUPS_SHIFT, V3D_IDENT1_TUPS_MASK) |
                      put(4, V3D_IDENT1_QUPS_SHIFT, V3D_IDENT1_QUPS_MASK) |
                      put(3, V3D_IDENT1_NSLC_SHIFT, V3D_IDENT1_NSLC_MASK) |
                      put(1, V3D_IDENT1_REV_SHIFT, V3D_IDENT1_REV_MASK);
    CU_ASSERT_EQUAL(ident1, 12u << 28 | 1u << 24 | 16u << 16 | 2u << 12 | 4u << 8 | 3u << 4 | 1u);
    /* SRQCS (Table 68): 23:16 QPURQCC, 15:8 QPURQCM, 7 QPURQERR, 5:0 QPURQL */
    CU_ASSERT_EQUAL(V3D_SRQCS_QPURQCC_SHIFT, 16);
    CU_ASSERT_EQUAL(V3D_SRQCS_QPURQCC_MASK, 0xff);
    CU_ASSERT_EQUAL(V3D_SRQCS_QPURQCM_SHIFT, 8);
    CU_ASSERT_EQUAL(V3D_SRQCS_QPURQERR_SHIFT, 7);
    CU_ASSERT_EQUAL(V3D_SRQCS_QPURQL_MASK, 0x3f);
    /* CTnCS (Table 49): 15 CTRSTA, 14:12 CTSEMA, 9:8 CTRTSD, 5 CTRUN, 4 CTSUBS */
    CU_ASSERT_EQUAL(V3D_CTnCS_CTRSTA_SHIFT, 15);
    CU_ASSERT_EQUAL(V3D_CTnCS_CTSEMA_SHIFT, 12);
    CU_ASSERT_EQUAL(V3D_CTnCS_CTSEMA_MASK, 7);
    CU_ASSERT_EQUAL(V3D_CTnCS_CTRTSD_SHIFT, 8);
    CU_ASSERT_EQUAL(V3D_CTnCS_CTRUN_SHIFT, 5);
    /* INTCTL (Table 75): 0 FRDONE, 1 FLDONE, 2 OUTOMEM, 3 SPILLUSE */
    CU_ASSERT_EQUAL(V3D_INTCTL_INT_OUTOMEM_SHIFT, 2);
    CU_ASSERT_EQUAL(V3D_SRQUL_QPURQUL_MASK, 0xfff);
    CU_ASSERT_EQUAL(V3D_VPMBASE_VPMURSV_MASK, 0x1f);
    CU_ASSERT_EQUAL(V3D_ERRSTAT_L2CARE_SHIFT, 15);
    /* every field row names a register the map has */
    for (unsigned i = 0; i < V3D_FIELD_COUNT; i++) {
        bool found = false;
        for (unsigned k = 0; k < V3D_REGISTER_COUNT && !found; k++)
            found = strcmp(v3d_registers[k].family, v3d_fields[i].reg) == 0;
        CU_ASSERT(found);
        CU_ASSERT(v3d_fields[i].hi >= v3d_fields[i].lo && v3d_fields[i].hi < 32);
    }
}

static void test_perf_sources(void)
{
    /* Table 82: 30 sources, 13 QPU idle cycles, 28/29 L2C hits/misses */
    CU_ASSERT_EQUAL(V3D_PERF_SOURCE_COUNT, 30);
    CU_ASSERT_EQUAL(V3D_PERF_QPU_IDLE, 13);
    CU_ASSERT_EQUAL(V3D_PERF_QPU_TMU_STALLS, 17);
    CU_ASSERT_EQUAL(V3D_PERF_L2C_HITS, 28);
    CU_ASSERT_STRING_EQUAL(v3d_perf_source_name[29], "L2C_MISSES");
}

static const struct test_case cases[] = {
    { "register offsets of Table 48", test_offsets },
    { "register fields", test_fields },
    { "performance counter sources (Table 82)", test_perf_sources },
    { 0 }
};
TEST_SUITE(vc4_v3d_regs, cases);
