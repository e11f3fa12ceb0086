/* tests/units/test_vc4_cle.c - the control list executor's threads (units/vc4_v3d/vc4_cle.h)
 * on vc4_tri's validated binning list and generated render list (tests/data/vc4, a copy of
 * ../shared/traces/vc4/vc4_tri.vc4dump.gz), and on small lists written here. The expected
 * record order is vc4-submit.md §10.1 (the BCL's 18 packets) and §10.3 (the RCL), plus the
 * tile list's Return from sub-list that Flush writes (seed 002 Table 38, ID 4).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "tests/test.h"
#include "units/vc4_host/vc4_submit.h"
#include "units/vc4_v3d/vc4_cle.h"
#include "tests/support/vc4_submit_rig.h"

enum { CT0CS = 0x100, CT1CS = 0x104, CT0EA = 0x108, CT1EA = 0x10c, CT0CA = 0x110,
       CT1CA = 0x114, BFC = 0x134, RFC = 0x138 };   /* seed 002 Table 48 */

static unsigned run(struct vc4_cle *c, struct gpu_memory *mem, unsigned max_cycles)
{
    unsigned cycles = 0;
    while (vc4_cle_busy(c) && cycles < max_cycles) {
        vc4_cle_step(c, 0, mem);
        vc4_cle_step(c, 1, mem);
        cycles++;
    }
    return cycles;
}

static void test_tri_lists(void)
{
    /* the submit loaded by the shared rig; this CLE has no pipeline behind it */
    struct vc4_submit_rig rig;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(vc4_submit_rig_open(&rig, VC4_RIG_TRI, &err), 0);
    struct gpu_memory *mem = rig.mem;
    const struct vc4_job *job = &rig.job;
    struct vc4_cle c;
    vc4_cle_init(&c, 0x3fffffff);
    /* the kernel's order: CA then EA, binning then rendering; bus alias bits set on the
     * render list's addresses are masked off */
    CU_ASSERT_TRUE(vc4_cle_write(&c, CT0CA, job->ct0ca));
    CU_ASSERT_FALSE(vc4_cle_busy(&c));            /* CA alone does not start */
    vc4_cle_write(&c, CT0EA, job->ct0ea);
    vc4_cle_write(&c, CT1CA, job->ct1ca | 0xc0000000u);
    vc4_cle_write(&c, CT1EA, job->ct1ea | 0xc0000000u);
    CU_ASSERT_TRUE(vc4_cle_busy(&c));
    unsigned cycles = run(&c, mem, 1000);
    CU_ASSERT_FALSE(vc4_cle_busy(&c));
    /* §10.1 */
    static const uint8_t bin[18] = { 112, 6, 56, 102, 96, 101, 98, 99, 105, 106, 103, 97, 64,
                                     33, 64, 33, 7, 4 };
    static const uint16_t bin_offset[18] = { 0x00, 0x10, 0x11, 0x13, 0x1c, 0x20, 0x25, 0x2a,
                                             0x2f, 0x38, 0x41, 0x46, 0x4b, 0x50, 0x5a, 0x5f,
                                             0x69, 0x6a };
    CU_ASSERT_EQUAL_FATAL(c.thread[0].traced, 18u);
    for (int i = 0; i < 18; i++) {
        CU_ASSERT_EQUAL(c.thread[0].trace_id[i], bin[i]);
        CU_ASSERT_EQUAL(c.thread[0].trace_address[i], job->ct0ca + bin_offset[i]);
    }
    /* §10.3 plus the tile list (Return from sub-list at the tile's block) */
    static const uint8_t render[9] = { 113, 114, 115, 28, 115, 8, 17, 18, 25 };
    CU_ASSERT_EQUAL_FATAL(c.thread[1].traced, 9u);
    for (int i = 0; i < 9; i++)
        CU_ASSERT_EQUAL(c.thread[1].trace_id[i], render[i]);
    CU_ASSERT_EQUAL(c.thread[1].trace_address[7], job->tile_alloc_address);
    CU_ASSERT_EQUAL(c.thread[1].trace_address[8], (job->ct1ca + 0x2c) | 0xc0000000u);
    /* the render thread waited for the binning flush: it reached Wait (its 6th record)
     * before the binning thread's 17th, so it waited */
    CU_ASSERT_TRUE(c.thread[1].semaphore_waits > 0);
    CU_ASSERT_TRUE(cycles >= 18);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, BFC), 1u);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, RFC), 1u);
    CU_ASSERT_EQUAL(c.thread[0].invalid + c.thread[1].invalid, 0u);
    CU_ASSERT_EQUAL(c.thread[0].wrong_list + c.thread[1].wrong_list, 0u);
    CU_ASSERT_EQUAL(c.thread[0].ca, job->ct0ea);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, CT0CS), 0u);   /* stopped at end, semaphore 0 */
    CU_ASSERT_EQUAL(vc4_cle_read(&c, CT1CS), 0u);
    /* BFC and RFC clear when 1 is written */
    vc4_cle_write(&c, BFC, 1);
    vc4_cle_write(&c, RFC, 1);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, BFC), 0u);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, RFC), 0u);
    vc4_submit_rig_close(&rig);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static void test_branches_and_bad_records(void)
{
    struct gt_error err;
    struct gpu_memory *mem = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    struct vc4_cle c;
    vc4_cle_init(&c, 0x3fffffff);
    /* main list at 0x1000: sub(0x2000); NOP; end. 0x2000: sub(0x3000); return.
     * 0x3000: return. Return with an empty stack is ignored (@152923). */
    uint8_t list[16] = { 17, 0, 0, 0, 0, 1, 18 };
    put32(list + 1, 0x2000);
    gpu_memory_write(mem, 0x1000, list, 7, NULL);
    uint8_t sub[6] = { 17, 0, 0, 0, 0, 18 };
    put32(sub + 1, 0x3000);
    gpu_memory_write(mem, 0x2000, sub, 6, NULL);
    uint8_t ret = 18;
    gpu_memory_write(mem, 0x3000, &ret, 1, NULL);
    vc4_cle_write(&c, CT1CA, 0x1000);
    vc4_cle_write(&c, CT1EA, 0x1007);
    run(&c, mem, 100);
    static const uint32_t at[6] = { 0x1000, 0x2000, 0x3000, 0x2005, 0x1005, 0x1006 };
    CU_ASSERT_EQUAL_FATAL(c.thread[1].traced, 6u);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(c.thread[1].trace_address[i], at[i]);
    CU_ASSERT_EQUAL(c.thread[1].state, VC4_CLE_STOPPED_AT_END);
    /* three levels of sub-lists: "a maximum of 2 levels" -> stopped with CTERR */
    uint8_t deep[5] = { 17, 0, 0, 0, 0 };
    put32(deep + 1, 0x4000);
    gpu_memory_write(mem, 0x3000, deep, 5, NULL);
    vc4_cle_write(&c, CT1CA, 0x1000);
    vc4_cle_write(&c, CT1EA, 0x1007);
    run(&c, mem, 100);
    CU_ASSERT_EQUAL(c.thread[1].state, VC4_CLE_ERROR);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, CT1CS) >> 3 & 1, 1u);   /* CTERR */
    CU_ASSERT_EQUAL(c.thread[1].overflows, 1u);
    /* an unknown record ID (2) stops the thread with CTERR, counted */
    vc4_cle_write(&c, CT1CS, 1u << 15);                     /* CTRSTA */
    uint8_t bad[2] = { 1, 2 };
    gpu_memory_write(mem, 0x5000, bad, 2, NULL);
    vc4_cle_write(&c, CT1CA, 0x5000);
    vc4_cle_write(&c, CT1EA, 0x5010);
    run(&c, mem, 100);
    CU_ASSERT_EQUAL(c.thread[1].invalid, 1u);
    CU_ASSERT_EQUAL(c.thread[1].ca, 0x5001u);
    CU_ASSERT_EQUAL(c.thread[1].state, VC4_CLE_ERROR);
    /* a branch to itself runs away: stopped after the limit, never a hang */
    c.limit = 1000;
    uint8_t loop[5] = { 16, 0, 0, 0, 0 };
    put32(loop + 1, 0x6000);
    gpu_memory_write(mem, 0x6000, loop, 5, NULL);
    vc4_cle_write(&c, CT0CA, 0x6000);
    vc4_cle_write(&c, CT0EA, 0x6100);
    unsigned cycles = run(&c, mem, 100000);
    CU_ASSERT_TRUE(cycles <= 1002);
    CU_ASSERT_EQUAL(c.thread[0].state, VC4_CLE_ERROR);
    /* Halt stops the thread; CTSUBS clears "stopped at halt" and runs on */
    uint8_t halt[3] = { 0, 1, 1 };
    gpu_memory_write(mem, 0x7000, halt, 3, NULL);
    vc4_cle_write(&c, CT0CS, 1u << 15);
    vc4_cle_write(&c, CT0CA, 0x7000);
    vc4_cle_write(&c, CT0EA, 0x7003);
    run(&c, mem, 100);
    CU_ASSERT_EQUAL(c.thread[0].state, VC4_CLE_HALTED);
    CU_ASSERT_EQUAL(vc4_cle_read(&c, CT0CS) >> 4 & 1, 1u);
    vc4_cle_write(&c, CT0CS, 1u << 4);
    run(&c, mem, 100);
    CU_ASSERT_EQUAL(c.thread[0].state, VC4_CLE_STOPPED_AT_END);
    CU_ASSERT_EQUAL(c.thread[0].ca, 0x7003u);
    gpu_memory_destroy(mem);
}

static const struct test_case cases[] = {
    { "vc4_tri binning and render lists: record order, semaphore, BFC and RFC", test_tri_lists },
    { "sub-lists, nesting limit, unknown records, runaway lists, halt", test_branches_and_bad_records },
    { 0 }
};
TEST_SUITE(vc4_cle, cases);
