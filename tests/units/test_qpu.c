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
#include "units/common/mmio.h"
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

/* The instruction and uniforms caches fill through the L2C (units/qpu "l2"): a program of
 * one 64-byte line (8 instructions) reading two uniforms (one line) misses each cache once
 * on its first run and hits on its second. The rig's L2 (vc4_rig.h): a miss is answered
 * 1 (link) + 5 (lookup) + 64 / 16 (transfer) + 40 (SDRAM) + 1 (link) = 51 cycles after the
 * request; the instruction's fetch waits that long (stall.icache), so does the first uniform
 * read (stall.uniforms), and the second run takes 8 instructions at 4 clocks. */
static void test_caches_fill_through_l2(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_L2, NULL, NULL);
    uint64_t prog[] = {
        vc4_nop(),
        vc4_mov(W_R0, MUX_RA, RD_UNIFORM),
        vc4_mov(W_R1, MUX_RA, RD_UNIFORM),
        vc4_add(OP_ADD, W_VPM, MUX_R0, MUX_R1, RD_NOP, RD_NOP),
        vc4_nop(), vc4_end(), vc4_nop(), vc4_nop(),
    };
    uint32_t unif[] = { 5, 6 };
    vc4_rig_program(&r, CODE, prog, 8);
    vc4_rig_words(&r, UNIF, unif, 2);
    vc4_rig_start(&r, 0, CODE, UNIF, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    enum { MISS = 1 + 5 + 64 / 16 + 40 + 1 };
    uint64_t icache = probe_stat(r.sim, "qpu0.stall.icache");
    uint64_t uniforms = probe_stat(r.sim, "qpu0.stall.uniforms");
    CU_ASSERT_TRUE(icache >= MISS && icache <= MISS + 2);
    /* the uniform's fill is asked for when its instruction first tries to issue */
    CU_ASSERT_TRUE(uniforms >= MISS - 1 && uniforms <= MISS + 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_hits"), 7);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.uniforms_cache_misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.uniforms_cache_hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 2);
    uint64_t first_end = r.done[0]->cycle[0];
    /* the second run: everything hits, no L2 traffic, no stalls */
    vc4_rig_start(&r, 0, CODE, UNIF, 2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_hits"), 15);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.uniforms_cache_hits"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.reads"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.stall.icache"), icache);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.stall.uniforms"), uniforms);
    CU_ASSERT_EQUAL(r.vpm_writes->count, 2);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 1)[i], 11u);
    /* 8 instructions 4 clocks apart from the start (the done report a few link cycles on) */
    uint64_t second = r.done[0]->cycle[1] - first_end;
    CU_ASSERT_TRUE(second >= 4 * 7 && second <= 4 * 7 + 8);
    sim_destroy(r.sim);
}

/* A program fetched through the uncached alias (bus address 0xC0000000 | address, the QPU
 * masking bits 31:30) has its instruction lines read around the L2C: the L2C counts them as
 * uncached and keeps nothing; a V3D_SLCACTL write with ICCS set clears the instruction cache,
 * so the next run misses again; one with only TMU bits set does not. */
static void test_uncached_alias_and_cache_clear(void)
{
    static const char *const over[] = { "address_mask=0x3fffffff", NULL };
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_L2, over, NULL);
    uint64_t prog[] = { vc4_nop(), vc4_end(), vc4_nop(), vc4_nop() };
    vc4_rig_program(&r, CODE, prog, 4);
    vc4_rig_start(&r, 0, 0xc0000000u | CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.alias_uncached_reads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_misses"), 1);
    static const uint32_t slcactl[] = { 0x0f0f0000u, 0x00000001u };   /* TMU bits; ICCS0 */
    static const uint64_t misses_after[] = { 1, 2 };
    for (unsigned k = 0; k < 2; k++) {
        struct msg *m = msg_alloc(r.sim, MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        memset(w, 0, sizeof *w);
        w->op = CS_MMIO_WRITE;
        w->offset = 0x024;                                  /* V3D_SLCACTL (Table 72) */
        w->value = slcactl[k];
        CU_ASSERT_TRUE(port_inject(unit_port(r.qpu[0], "control", 0), m));
        vc4_rig_start(&r, 0, CODE, UNIF, 0);                /* the cached alias now */
        sim_run(r.sim, 0);
        CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.icache_misses"), misses_after[k]);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.cache_clears"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 1);     /* the cached alias' one fill */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.hits"), 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 3);
    sim_destroy(r.sim);
}

/* Bad input a programmer needs to see (seed 002): a read of a write-only I/O address (raddr a
 * 52 is SFU_RECIP, which Table 14 maps only for writes), both ALUs writing one accumulator
 * ("must not write to the same accumulator", @49015) and an SFU and a TMU write in one
 * instruction (one peripheral access per instruction, @88994 item 12): each instruction is
 * counted once, the program still runs to its end. */
static void test_illegal_combinations_counted(void)
{
    struct vc4_rig r = vc4_rig_new(1, 0, NULL, NULL);
    struct vc4_alu read_write_only = { .sig = SIG_NONE, .cond_add = COND_ALWAYS,
                                       .waddr_add = W_R0, .waddr_mul = W_NOP, .op_add = OP_OR,
                                       .raddr_a = 52, .raddr_b = RD_NOP, .add_a = MUX_RA,
                                       .add_b = MUX_RA };
    struct vc4_alu same_acc = { .sig = SIG_NONE, .cond_add = COND_ALWAYS,
                                .cond_mul = COND_ALWAYS, .waddr_add = W_R1, .waddr_mul = W_R1,
                                .op_add = OP_OR, .op_mul = MOP_FMUL, .raddr_a = RD_NOP,
                                .raddr_b = RD_NOP };
    struct vc4_alu two_peripherals = { .sig = SIG_NONE, .cond_add = COND_ALWAYS,
                                       .cond_mul = COND_ALWAYS, .waddr_add = W_SFU_RECIP,
                                       .waddr_mul = W_TMU0_S, .op_add = OP_OR,
                                       .op_mul = MOP_FMUL, .raddr_a = RD_NOP,
                                       .raddr_b = RD_NOP };
    uint64_t prog[] = { vc4_alu_word(read_write_only), vc4_alu_word(same_acc),
                        vc4_alu_word(two_peripherals), vc4_nop(), vc4_nop(), vc4_end(),
                        vc4_nop(), vc4_nop() };
    vc4_rig_program(&r, CODE, prog, 8);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    CU_ASSERT_EQUAL(done_msg(&r, 0, 0)->status, QPU_PROGRAM_ENDED);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.illegal_instructions"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.instructions"), 8);
    sim_destroy(r.sim);
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
    { "instruction and uniforms caches fill through the L2", test_caches_fill_through_l2 },
    { "write-only reads and illegal combinations counted", test_illegal_combinations_counted },
    { "uncached alias fetches and SLCACTL cache clears", test_uncached_alias_and_cache_clear },
    { "two-threaded fragment shaders switch after THRSW's two delay slots; single-threaded "
      "ones run one after the other", test_fragment_thread_switch },
    { "random words never crash", test_random_words_never_crash },
    { 0 }
};
TEST_SUITE(qpu, cases);
