/* tests/units/test_qpu.c - the VideoCore IV QPU unit (units/qpu) with the SFU (units/vc4_sfu):
 * programs assembled here as 64-bit words from the seed's bit layout (tests/support/vc4_rig.h),
 * run from memory with their uniform stream; their results come out through VPM_WRITE (caught)
 * and are checked against values computed here from the seed's definitions. Timing: an
 * instruction every 4 clocks (002 @43385); program end after two delay slots (@56274).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/support/vc4_rig.h"
#include "tests/test.h"
#include "units/common/vc4_io.h"
#include "units/vc4_sfu/vc4_sfu.h"

#define CODE 0x1000u
#define UNIF 0x8000u

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static const struct qpu_program *done_msg(struct vc4_rig *r, unsigned q, unsigned n)
{
    return (const struct qpu_program *)r->done[q]->payload[n];
}

/* integer ALU, uniforms, element number, timing, program end */
static void test_alu_uniforms_and_end(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    uint64_t prog[] = {
        vc4_mov(W_R0, MUX_RA, RD_UNIFORM),                          /* r0 = 3 */
        vc4_mov(W_R1, MUX_RA, RD_UNIFORM),                          /* r1 = 4 */
        vc4_add(OP_ADD, W_VPM, MUX_R0, MUX_R1, RD_NOP, RD_NOP),     /* 7 */
        vc4_add(OP_SUB, W_VPM, MUX_R0, MUX_R1, RD_NOP, RD_NOP),     /* -1 */
        vc4_add(OP_ADD, W_VPM, MUX_R0, MUX_RA, RD_ELEMENT, RD_NOP), /* 3 + element */
        vc4_end(), vc4_nop(), vc4_nop(),
    };
    uint32_t unif[] = { 3, 4 };
    vc4_rig_program(&r, CODE, prog, 8);
    vc4_rig_words(&r, UNIF, unif, 2);
    vc4_rig_start(&r, 0, CODE, UNIF, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.vpm_writes->count, 3);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 0)[i], 7u);
        CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 1)[i], 0xffffffffu);
        CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 2)[i], 3u + i);
    }
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    const struct qpu_program *d = done_msg(&r, 0, 0);
    CU_ASSERT_EQUAL(d->op, QPU_IO_PROGRAM_END);
    CU_ASSERT_EQUAL(d->status, QPU_PROGRAM_ENDED);
    CU_ASSERT_EQUAL(d->instructions, 8);
    CU_ASSERT_EQUAL(d->pc, CODE);
    /* 8 instructions at one per 4 clocks: the last issues 28 clocks after the first */
    uint64_t span = r.done[0]->cycle[0] - r.vpm_writes->cycle[0];
    CU_ASSERT_TRUE(span >= 4 * 5 && span <= 4 * 5 + 2);   /* writes at 2, end report at 7 */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.instructions"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.busy_cycles"), 32);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.uniforms"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.programs"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.regfile_read_after_write"), 0);
    sim_destroy(r.sim);
}

/* the SFU's definition as the test reads it: f computed in double, float32 truncated to 15
 * fraction bits (vc4_sfu.h, from hardware outputs with their low 8 bits zero) */
static uint32_t truncated15(double v)
{
    int e;
    double m = frexp(v, &e);
    return fbits((float)ldexp(trunc(ldexp(m, 16)), e - 16));
}

static void test_sfu_functions(void)
{
    /* exact cases */
    CU_ASSERT_EQUAL(vc4_sfu_compute(52, fbits(4.0f)), fbits(0.25f));
    CU_ASSERT_EQUAL(vc4_sfu_compute(53, fbits(16.0f)), fbits(0.25f));
    CU_ASSERT_EQUAL(vc4_sfu_compute(54, fbits(3.0f)), fbits(8.0f));
    CU_ASSERT_EQUAL(vc4_sfu_compute(55, fbits(8.0f)), fbits(3.0f));
    CU_ASSERT_EQUAL(vc4_sfu_compute(54, fbits(-2.0f)), fbits(0.25f));
    /* 1/3 = 1.0101...b x 2^-2: float 0x3eaaaaab rounded; 15 fraction bits keep 0x3eaaaa00 */
    CU_ASSERT_EQUAL(vc4_sfu_compute(52, fbits(3.0f)), 0x3eaaaa00u);
    /* specials: recip(+-0) = +-inf, log2(0) = -inf, exp2 overflow/underflow, negatives NaN */
    CU_ASSERT_EQUAL(vc4_sfu_compute(52, 0x00000000u), 0x7f800000u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(52, 0x80000000u), 0xff800000u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(55, 0x00000000u), 0xff800000u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(54, fbits(200.0f)), 0x7f800000u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(54, fbits(-200.0f)), 0u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(55, fbits(-1.0f)), 0x7fc00000u);
    CU_ASSERT_EQUAL(vc4_sfu_compute(53, fbits(-1.0f)), 0x7fc00000u);
    /* a denormal input is flushed: recip of it is +inf */
    CU_ASSERT_EQUAL(vc4_sfu_compute(52, 0x00000001u), 0x7f800000u);
    /* a sweep: low 8 bits zero, relative error < 2^-15, never above the exact value */
    uint32_t seed = 12345;
    for (int k = 0; k < 2000; k++) {
        seed = seed * 1103515245u + 12345u;
        float x = 0.001f + (float)(seed >> 8) / (float)(1u << 24) * 100.0f;
        double exact[4] = { 1.0 / x, 1.0 / sqrt(x), exp2(x / 10.0), log2(x) };
        float in[4] = { x, x, x / 10.0f, x };
        for (unsigned f = 0; f < 4; f++) {
            exact[f] = f == 2 ? exp2((double)in[2]) : exact[f];
            uint32_t got = vc4_sfu_compute(52 + f, fbits(in[f]));
            CU_ASSERT_EQUAL(got, truncated15(exact[f]));
            CU_ASSERT_EQUAL(got & 0xff, 0u);
            float g;
            memcpy(&g, &got, 4);
            if (exact[f] != 0)
                CU_ASSERT_TRUE(fabs((g - exact[f]) / exact[f]) < 1.0 / 32768);
        }
    }
}

/* the SFU through the QPU: r4 at the 3rd instruction after the write, no stall, no
 * restriction */
static void test_sfu_program(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    uint64_t prog[64];
    unsigned n = 0;
    static const unsigned fn[5] = { W_SFU_RECIP, W_SFU_RECIPSQRT, W_SFU_EXP, W_SFU_LOG,
                                    W_SFU_RECIP };
    for (unsigned k = 0; k < 5; k++) {
        prog[n++] = vc4_mov(fn[k], MUX_RA, RD_UNIFORM);
        prog[n++] = vc4_nop();
        prog[n++] = vc4_nop();
        prog[n++] = vc4_mov(W_VPM, MUX_R4, RD_NOP);
    }
    prog[n++] = vc4_end();
    prog[n++] = vc4_nop();
    prog[n++] = vc4_nop();
    uint32_t unif[] = { fbits(4.0f), fbits(16.0f), fbits(3.0f), fbits(8.0f), fbits(3.0f) };
    vc4_rig_program(&r, CODE, prog, n);
    vc4_rig_words(&r, UNIF, unif, 5);
    vc4_rig_start(&r, 0, CODE, UNIF, 5);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.vpm_writes->count, 5);
    uint32_t want[5] = { fbits(0.25f), fbits(0.25f), fbits(8.0f), fbits(3.0f),
                         fbits(1.0f / 3.0f) & ~0xffu };
    for (unsigned k = 0; k < 5; k++)
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, k)[i], want[k]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.r4_read_too_soon"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.stall.r4"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.sfu_writes"), 5);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sfu.requests"), 5);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sfu.log"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.instructions"), n);
    sim_destroy(r.sim);
}

/* restrictions that span instructions are counted: r4 read right after an SFU write (the QPU
 * waits for the result), a regfile read of the previous instruction's write, a uniform read
 * right after UNIFORMS_ADDRESS, a uniform read in a delay slot of the program end */
static void test_restrictions_counted(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    uint64_t prog[] = {
        vc4_mov(W_SFU_RECIP, MUX_RA, RD_UNIFORM),                /* 1/4 */
        vc4_mov(W_VPM, MUX_R4, RD_NOP),                          /* too soon: item 8 */
        vc4_mov(5, MUX_RA, RD_UNIFORM),                          /* ra5 = 9 */
        vc4_mov(W_VPM, MUX_RA, 5),                               /* item 7 */
        vc4_nop(),
        vc4_mov(W_VPM, MUX_RA, 5),                               /* fine */
        vc4_load_imm(W_UNIFORMS_ADDRESS, UNIF + 64),
        vc4_mov(W_VPM, MUX_RA, RD_UNIFORM),                      /* item 14 */
        vc4_end(),
        vc4_mov(W_R0, MUX_RA, RD_UNIFORM),                       /* item 1 */
        vc4_nop(),
    };
    uint32_t unif[] = { fbits(4.0f), 9 };
    uint32_t later = 77;
    vc4_rig_program(&r, CODE, prog, 11);
    vc4_rig_words(&r, UNIF, unif, 2);
    vc4_rig_words(&r, UNIF + 64, &later, 1);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.vpm_writes->count, 4);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 0)[5], fbits(0.25f));
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 1)[5], 9u);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 2)[5], 9u);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 3)[5], 77u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.r4_read_too_soon"), 1);
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.stall.r4") > 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.regfile_read_after_write"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.uniform_after_address_write"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.restriction.end_io"), 1);
    CU_ASSERT_EQUAL(r.done[0]->count, 1);
    sim_destroy(r.sim);
}

/* a loop: r0 = 3; do { r0 -= 1 (flags); branch if any Z clear; delay slots write r0 } */
static void test_branch_loop_with_delay_slots(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    /* small immediate 1 (Table 5: raddr_b 1 = 1) in mux rb, sig 13, sf */
    uint64_t sub = vc4_alu_word((struct vc4_alu){ .sig = SIG_SMALL_IMM, .cond_add = COND_ALWAYS,
                                                  .sf = 1, .waddr_add = W_R0, .waddr_mul = W_NOP,
                                                  .op_add = OP_SUB, .raddr_a = RD_NOP,
                                                  .raddr_b = 1, .add_a = MUX_R0,
                                                  .add_b = MUX_RB });
    uint64_t prog[] = {
        vc4_load_imm(W_R0, 3),              /* 0x00 */
        sub,                                /* 0x08 loop */
        vc4_branch(3, 8 - (16 + 32)),       /* 0x10: anyzc (Table 11 code 3), to 0x08 */
        vc4_mov(W_VPM, MUX_R0, RD_NOP),     /* delay slots */
        vc4_nop(),
        vc4_nop(),
        vc4_end(), vc4_nop(), vc4_nop(),
    };
    vc4_rig_program(&r, CODE, prog, 9);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.vpm_writes->count, 3);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 0)[0], 2u);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 1)[9], 1u);
    CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 2)[15], 0u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.instructions"), 1 + 3 * 5 + 3);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->instructions, 19);
    sim_destroy(r.sim);
}

/* a program that never ends is stopped by the watchdog; a fetch beyond memory ends it; a
 * second program starts after the first */
static void test_watchdog_fetch_fault_and_next_program(void)
{
    static const char *const over[] = { "watchdog_instructions=100", "memory_mb=1", NULL };
    struct vc4_rig r = vc4_rig_new(1, 0, over, NULL);
    uint64_t prog[] = { vc4_branch(15, -32), vc4_nop(), vc4_nop(), vc4_nop() };
    vc4_rig_program(&r, CODE, prog, 4);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    vc4_rig_start(&r, 0, 0x200000, UNIF, 0);    /* beyond the 1 MiB */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->status, QPU_PROGRAM_WATCHDOG);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->instructions, 100);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 1)->status, QPU_PROGRAM_FETCH_FAULT);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.watchdog_kills"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.fetch_faults"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.programs"), 2);
    sim_destroy(r.sim);
}

/* host interrupts reach the scheduler port with the value written */
static void test_host_interrupt(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    uint64_t prog[] = { vc4_load_imm(W_HOST_INT, 1), vc4_end(), vc4_nop(), vc4_nop() };
    vc4_rig_program(&r, CODE, prog, 4);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->op, QPU_IO_WRITE);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->status, QPU_PROGRAM_HOST_INTERRUPT);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->value, 1u);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 1)->op, QPU_IO_PROGRAM_END);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.host_interrupts"), 1);
    sim_destroy(r.sim);
}

/* random words: the QPU runs them without crashing or hanging (watchdog, counted faults) */
static void test_random_words_never_crash(void)
{
    static const char *const over[] = { "watchdog_instructions=2000", "memory_mb=2", NULL };
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_NO_SFU, over, NULL);
    uint32_t seed = 99;
    for (unsigned k = 0; k < 8; k++) {
        uint64_t prog[256];
        for (unsigned i = 0; i < 256; i++) {
            seed = seed * 1664525u + 1013904223u;
            uint64_t hi = seed;
            seed = seed * 1664525u + 1013904223u;
            prog[i] = hi << 32 | seed;
        }
        vc4_rig_program(&r, CODE + k * 4096, prog, 256);
        vc4_rig_start(&r, 0, CODE + k * 4096, UNIF, 0);
    }
    sim_run(r.sim, 0);
    /* each program ends one way or another, or waits on a VPM answer the catcher never gives */
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.instructions") > 0);
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.illegal_instructions") > 0);
    sim_destroy(r.sim);
}

/* Two-threaded fragment shaders (notes 002 §3.11, @56345): a Thread Switch signal stops the
 * thread "after a further two delay slot instructions" and the other, suspended, thread runs;
 * a thread's end lets the other run on. Thread A writes HOST_INT 0xa1, switches (0xa2, 0xa3
 * in the delay slots), later writes 0xa4; thread B writes 0xb1 and ends. Threaded, the order
 * is a1 a2 a3 b1 (B ends) a4 (A ends); not threaded, the switch is ignored and B waits for A. */
static void start_fragment(struct vc4_rig *r, uint32_t pc, bool threaded, unsigned thread)
{
    struct msg *m = msg_alloc(r->sim, MSG_QPU_IO, sizeof(struct qpu_fragment_start));
    struct qpu_fragment_start *f = (struct qpu_fragment_start *)m->payload;
    f->program.op = QPU_IO_START;
    f->program.pc = pc;
    f->program.kind = QPU_KIND_FRAGMENT;
    f->program.threaded = threaded;
    f->program.thread = thread;
    CU_ASSERT_TRUE(port_inject(unit_port(r->qpu[0], "start", 0), m));
}

static void run_two_threads(bool threaded, uint32_t *order, unsigned *count, unsigned *threads)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    const uint64_t a[] = {
        vc4_load_imm(W_HOST_INT, 0xa1), vc4_with_sig(vc4_nop(), SIG_THREAD_SWITCH),
        vc4_load_imm(W_HOST_INT, 0xa2), vc4_load_imm(W_HOST_INT, 0xa3),
        vc4_load_imm(W_HOST_INT, 0xa4), vc4_end(), vc4_nop(), vc4_nop(),
    };
    const uint64_t b[] = { vc4_load_imm(W_HOST_INT, 0xb1), vc4_end(), vc4_nop(), vc4_nop() };
    vc4_rig_program(&r, CODE, a, 8);
    vc4_rig_program(&r, CODE + 0x100, b, 4);
    start_fragment(&r, CODE, threaded, 0);
    start_fragment(&r, CODE + 0x100, threaded, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    *count = r.done[0]->count;
    for (unsigned i = 0; i < *count && i < 8; i++) {
        const struct qpu_program *d = done_msg(&r, 0, i);
        order[i] = d->op == QPU_IO_PROGRAM_END ? 0xe0u + d->thread : d->value;
        threads[i] = d->thread;
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.programs.fragment"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.instructions.fragment"), 12);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.thread_switches_taken"), threaded ? 1 : 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.thread_switches"), threaded ? 1 : 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.bad_messages"), 0);
    sim_destroy(r.sim);
}

static void test_fragment_thread_switch(void)
{
    uint32_t order[8] = { 0 };
    unsigned count = 0, threads[8] = { 0 };
    run_two_threads(true, order, &count, threads);
    static const uint32_t threaded[] = { 0xa1, 0xa2, 0xa3, 0xb1, 0xe1, 0xa4, 0xe0 };
    CU_ASSERT_EQUAL_FATAL(count, 7);
    for (unsigned i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(order[i], threaded[i]);
    CU_ASSERT_EQUAL(threads[3], 1u);       /* b1 came from thread 1 */
    CU_ASSERT_EQUAL(threads[5], 0u);
    run_two_threads(false, order, &count, threads);
    static const uint32_t single[] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xe0, 0xb1, 0xe1 };
    CU_ASSERT_EQUAL_FATAL(count, 7);
    for (unsigned i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(order[i], single[i]);
}

static const struct test_case cases[] = {
    { "integer ALU, uniforms, element number, 4 clocks per instruction, program end",
      test_alu_uniforms_and_end },
    { "SFU functions: exact cases, specials, 15 fraction bits", test_sfu_functions },
    { "SFU through the QPU: r4 at the 3rd instruction", test_sfu_program },
    { "cross-instruction restrictions counted", test_restrictions_counted },
    { "branch loop with three delay slots", test_branch_loop_with_delay_slots },
    { "watchdog, fetch fault, back-to-back programs", test_watchdog_fetch_fault_and_next_program },
    { "HOST_INT reaches the scheduler", test_host_interrupt },
    { "two-threaded fragment shaders switch after THRSW's two delay slots; single-threaded "
      "ones run one after the other", test_fragment_thread_switch },
    { "random words never crash", test_random_words_never_crash },
    { 0 }
};
TEST_SUITE(qpu, cases);
