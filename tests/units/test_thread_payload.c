/* tests/units/test_thread_payload.c - the thread payload builder alone
 * (units/common/thread_payload.h): R0 dword by dword from the seed's layout,
 * the push constants / CURBE placement, the register cap and the thread
 * context. Expected values are worked out here from seed 003 L11369-11479
 * (the R0 header every stage has), L17304-17336 (the GPGPU R0 and CURBE
 * layout) and L11480-11558 (push constants as whole registers). */
#include "../test.h"

#include <string.h>

#include "units/common/thread_payload.h"

static uint32_t dw_of(const uint8_t *r, unsigned i)
{
    uint32_t v;
    memcpy(&v, r + 4 * i, 4);
    return v;
}

static void test_gpgpu_r0(void)
{
    uint8_t r0[EU_MSG_REG_BYTES];
    memset(r0, 0xEE, sizeof r0);
    struct thread_r0 f = {
        .fftid = 0x3AB,                     /* 9 bits kept: 0x1AB */
        .scratch_space_offset = 0x00ABCC00, /* 1 KB aligned */
        .per_thread_scratch = 5,
        .sampler_state_pointer = 0x1234567F,
        .binding_table_pointer = 0x00000FE7,
        .gpgpu = true,
        .slm_base = 8192,                   /* granule 2 of 4 KB */
        .slm_enable = true,
        .barrier_id = 19,                   /* 10011b: [31] = 1, [27:24] = 3 */
        .group_id = { 7, 0x10000, 3 },
    };
    thread_payload_r0(&f, r0);
    CU_ASSERT_EQUAL(dw_of(r0, 0), 2u << 24);                    /* R0.0[29:24] SLM index */
    CU_ASSERT_EQUAL(dw_of(r0, 1), 7);                           /* R0.1 group X */
    /* R0.2: [31] barrier ID bit 4, [29] barrier enable, [28] SLM enable,
     * [27:24] barrier ID bits 3:0 = 0x80000000 + 0x20000000 + 0x10000000 + 0x03000000 */
    CU_ASSERT_EQUAL(dw_of(r0, 2), 0xB3000000u);
    CU_ASSERT_EQUAL(dw_of(r0, 3), 0x12345660u | 5);             /* R0.3[31:5] sampler, [3:0] PTSS */
    CU_ASSERT_EQUAL(dw_of(r0, 4), 0x00000FE0u);                 /* R0.4[31:5] binding table */
    /* R0.5: scratch [31:10], GPGPU dispatch [9], FFTID [8:0] */
    CU_ASSERT_EQUAL(dw_of(r0, 5), 0x00ABCC00u | 0x200u | 0x1ABu);
    CU_ASSERT_EQUAL(dw_of(r0, 6), 0x10000);                     /* R0.6 group Y */
    CU_ASSERT_EQUAL(dw_of(r0, 7), 3);                           /* R0.7 group Z */
}

/* A 3D stage's R0: only the fields every stage has (L11369-11479). */
static void test_common_r0(void)
{
    uint8_t r0[EU_MSG_REG_BYTES];
    memset(r0, 0xEE, sizeof r0);
    struct thread_r0 f = { .fftid = 12, .scratch_space_offset = 0x400, .per_thread_scratch = 11,
                           .sampler_state_pointer = 0x40, .binding_table_pointer = 0x80,
                           .barrier_id = -1 };
    thread_payload_r0(&f, r0);
    CU_ASSERT_EQUAL(dw_of(r0, 0), 0);
    CU_ASSERT_EQUAL(dw_of(r0, 1), 0);
    CU_ASSERT_EQUAL(dw_of(r0, 2), 0);                           /* no barrier, no SLM */
    CU_ASSERT_EQUAL(dw_of(r0, 3), 0x40u | 11);
    CU_ASSERT_EQUAL(dw_of(r0, 4), 0x80);
    CU_ASSERT_EQUAL(dw_of(r0, 5), 0x400u | 12);                 /* bit 9 clear: not GPGPU */
    CU_ASSERT_EQUAL(dw_of(r0, 6), 0);
    CU_ASSERT_EQUAL(dw_of(r0, 7), 0);
    /* a barrier ID below 16 leaves bit 31 clear */
    f.barrier_id = 6;
    thread_payload_r0(&f, r0);
    CU_ASSERT_EQUAL(dw_of(r0, 2), (1u << 29) | (6u << 24));
}

static void test_constants(void)
{
    /* a CURBE of 10 registers, register i filled with byte 0x10 + i */
    uint8_t curbe[10 * EU_MSG_REG_BYTES];
    for (int i = 0; i < 10; i++)
        memset(curbe + i * EU_MSG_REG_BYTES, 0x10 + i, EU_MSG_REG_BYTES);
    struct thread_constants c = { .data = curbe, .data_bytes = sizeof curbe,
                                  .cross_thread_regs = 2, .read_offset_regs = 1,
                                  .per_thread_regs = 3 };
    CU_ASSERT_EQUAL(thread_payload_regs(1, &c), 1 + 2 + 3);
    uint8_t grf[8][EU_MSG_REG_BYTES];
    memset(grf, 0, sizeof grf);
    /* thread 2: cross-thread registers 0, 1 into r1, r2; its own part at
     * cross + offset + 2 x 3 = 2 + 1 + 6 = register 9, then 10 and 11, which
     * the 10-register CURBE does not hold (left zero) */
    CU_ASSERT_EQUAL(thread_payload_constants(&c, 2, grf, 1, 6), 6);
    CU_ASSERT_EQUAL(grf[0][0], 0);
    CU_ASSERT_EQUAL(grf[1][0], 0x10);
    CU_ASSERT_EQUAL(grf[1][31], 0x10);
    CU_ASSERT_EQUAL(grf[2][0], 0x11);
    CU_ASSERT_EQUAL(grf[3][0], 0x19);
    CU_ASSERT_EQUAL(grf[3][31], 0x19);
    CU_ASSERT_EQUAL(grf[4][0], 0);
    CU_ASSERT_EQUAL(grf[5][0], 0);
    /* thread 0: registers 3, 4, 5 */
    memset(grf, 0, sizeof grf);
    thread_payload_constants(&c, 0, grf, 1, 6);
    CU_ASSERT_EQUAL(grf[3][0], 0x13);
    CU_ASSERT_EQUAL(grf[4][0], 0x14);
    CU_ASSERT_EQUAL(grf[5][0], 0x15);
    /* the total stops the copy */
    memset(grf, 0, sizeof grf);
    CU_ASSERT_EQUAL(thread_payload_constants(&c, 0, grf, 1, 3), 3);
    CU_ASSERT_EQUAL(grf[2][0], 0x11);
    CU_ASSERT_EQUAL(grf[3][0], 0);
    /* no buffer: registers counted, nothing copied */
    struct thread_constants none = { .per_thread_regs = 2 };
    memset(grf, 0, sizeof grf);
    CU_ASSERT_EQUAL(thread_payload_constants(&none, 0, grf, 1, 8), 3);
    CU_ASSERT_EQUAL(grf[1][0], 0);
    /* the GRF has 128 registers */
    struct thread_constants big = { .cross_thread_regs = 100, .per_thread_regs = 50 };
    CU_ASSERT_EQUAL(thread_payload_regs(1, &big), 128);
    struct thread_constants fits = { .cross_thread_regs = 100, .per_thread_regs = 27 };
    CU_ASSERT_EQUAL(thread_payload_regs(1, &fits), 128);
}

static void test_context(void)
{
    struct eu_thread_context ctx;
    memset(&ctx, 0xEE, sizeof ctx);
    thread_payload_context(&(struct thread_context_source){
        .gen = 9, .space_format = 3, .space_root = 0x80000, .surface_state_base = 0x1000,
        .general_state_base = 0x2000, .dynamic_state_base = 0x3000, .general_state_pages = 3,
        .binding_table = 0x40, .binding_table_entries = 4, .slm_base = 8192, .slm_size = 4096,
        .group = 17, .barrier_id = 5, .barrier_threads = 64, .scratch_slot = 9,
    }, &ctx);
    CU_ASSERT_EQUAL(ctx.valid, 1);
    CU_ASSERT_EQUAL(ctx.gen, 9);
    CU_ASSERT_EQUAL(ctx.space_format, 3);
    CU_ASSERT_EQUAL(ctx.space_root, 0x80000);
    CU_ASSERT_EQUAL(ctx.surface_state_base, 0x1000);
    CU_ASSERT_EQUAL(ctx.general_state_base, 0x2000);
    CU_ASSERT_EQUAL(ctx.dynamic_state_base, 0x3000);
    CU_ASSERT_EQUAL(ctx.general_state_size, 3 * 4096);      /* 4 KB pages */
    CU_ASSERT_EQUAL(ctx.binding_table, 0x40);
    CU_ASSERT_EQUAL(ctx.binding_table_entries, 4);
    CU_ASSERT_EQUAL(ctx.slm_base, 8192);
    CU_ASSERT_EQUAL(ctx.slm_size, 4096);
    CU_ASSERT_EQUAL(ctx.group, 17);
    CU_ASSERT_EQUAL(ctx.barrier_id, 5);
    CU_ASSERT_EQUAL(ctx.barrier_threads, 64);
    CU_ASSERT_EQUAL(ctx.scratch_slot, 9);
    /* no barrier: ID 0 and no threads to wait for; size 0 = unchecked */
    thread_payload_context(&(struct thread_context_source){ .gen = 8, .barrier_id = -1,
                                                            .barrier_threads = 64 }, &ctx);
    CU_ASSERT_EQUAL(ctx.barrier_id, 0);
    CU_ASSERT_EQUAL(ctx.barrier_threads, 0);
    CU_ASSERT_EQUAL(ctx.general_state_size, 0);
    CU_ASSERT_EQUAL(ctx.valid, 1);
}

static const struct test_case cases[] = {
    { "GPGPU R0 from the seed's layout", test_gpgpu_r0 },
    { "a 3D stage's R0", test_common_r0 },
    { "push constants / CURBE placement", test_constants },
    { "thread context", test_context },
    { 0 }
};
TEST_SUITE(thread_payload, cases);
