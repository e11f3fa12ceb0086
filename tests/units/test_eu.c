/* tests/units/test_eu.c - the EU unit driven alone through its ports: dispatch
 * messages in, SENDs out to a stub shared function (tests/support/eu_rig.h),
 * write-backs in, thread ends out. Timing and fast mode, thread slots,
 * scoreboard, and bad programming (fetch faults, illegal opcodes, runaway
 * kernels) giving counted, deterministic outcomes. */
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "units/eu/eu.h"
#include "units/eu/eu_decode_cache.h"
#include "units/icache/icache.h"
#include "units/common/thread_msg.h"

enum { MOV = 1, ADD = 64, MUL = 65, JMPI = 32, SEND = 49, MAD = 91 };

#define G(r, t) eu_enc_grf(r, 0, EU_TYPE_##t)
#define IMM(t, v) eu_enc_imm(EU_TYPE_##t, (uint64_t)(v))

struct rig {
    struct sim *sim;
    struct unit *src, *eu, *sf, *ends;
};

/* The rig with the shared function's replies on the EU's port `wb_port`. */
static struct rig rig_new_on(const char *const *eu_over, uint32_t wb_latency, const char *wb_port)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    /* the dispatch port stays unlinked: port_inject feeds it directly */
    r.src = NULL;
    r.eu = probe_add(r.sim, &eu_ops, "eu", eu_over);
    r.sf = probe_add(r.sim, &stub_sf_ops, "sf", NULL);
    const char *sink_over[] = { "per_cycle=4", NULL };
    r.ends = probe_add(r.sim, &probe_sink_ops, "ends", sink_over);
    probe_link(r.sim, r.eu, "send", r.sf, "in", 1, 16, 4);
    probe_link(r.sim, r.sf, "out", r.eu, wb_port, wb_latency, 16, 4);
    probe_link(r.sim, r.eu, "td", r.ends, "in", 1, 16, 4);
    rig_memory(r.sim);
    struct gt_error err;
    CU_ASSERT_EQUAL(sim_realize(r.sim, &err), 0);
    return r;
}

static struct rig rig_new(const char *const *eu_over, uint32_t wb_latency)
{
    return rig_new_on(eu_over, wb_latency, "writeback");
}

static void dispatch(struct rig *r, uint64_t base, const uint32_t (*regs)[8], unsigned n, uint32_t id)
{
    struct msg *m = rig_dispatch_msg(r->sim, base, 0, 8, regs, n, id, 0);
    CU_ASSERT_TRUE(port_inject(unit_port(r->eu, "dispatch", 0), m));
}

static struct eu_enc_insn op2(unsigned op, unsigned es, struct eu_enc_opnd d, struct eu_enc_opnd a,
                              struct eu_enc_opnd b)
{
    struct eu_enc_insn in = { .opcode = (uint8_t)op, .exec_size = (uint8_t)es, .dst = d, .nsrc = 2 };
    in.src[0] = a;
    in.src[1] = b;
    return in;
}

static struct eu_enc_insn send(unsigned dst, unsigned src, unsigned mlen, unsigned rlen, bool eot)
{
    struct eu_enc_insn s = { .opcode = SEND, .exec_size = 8, .nsrc = 1, .sfid = 10 };
    s.dst = rlen ? G(dst, UD) : eu_enc_null(EU_TYPE_UD);
    s.src[0] = G(src, UD);
    s.desc = mlen << 25 | rlen << 20;
    s.eot = eot;
    s.nomask = eot;
    return s;
}

/* send r1 -> r4 (reply = r1 + add); r5 = r4 + 1; r6 = r1 * 3; EOT with r5, r6 */
static struct eu_enc_buf kernel_send_roundtrip(void)
{
    struct eu_enc_buf b = { .gen = 9 };
    struct eu_enc_insn s = send(4, 1, 1, 1, false);
    eu_enc_emit(&b, &s);
    struct eu_enc_insn a = op2(ADD, 8, G(5, D), G(4, D), IMM(D, 1));
    eu_enc_emit(&b, &a);
    a = op2(MUL, 8, G(6, D), G(1, D), IMM(D, 3));
    eu_enc_emit(&b, &a);
    s = send(0, 5, 2, 0, true);
    eu_enc_emit(&b, &s);
    return b;
}

static void check_roundtrip(bool fast)
{
    const char *over_fast[] = { "fast=true", NULL };
    struct rig r = rig_new(fast ? over_fast : NULL, 20);
    struct eu_enc_buf k = kernel_send_roundtrip();
    rig_load(r.sim, 0x10000, &k);
    uint32_t regs[2][8];
    for (unsigned i = 0; i < 8; i++) {
        regs[0][i] = 0;
        regs[1][i] = 1000 * i + 7;
    }
    dispatch(&r, 0x10000, (const uint32_t (*)[8])regs, 2, 42);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL(sf->sends, 2);
    CU_ASSERT_EQUAL(sf->eots, 1);
    CU_ASSERT_EQUAL(sf->writebacks, 1);
    CU_ASSERT_EQUAL(sf->last_mlen, 2);
    CU_ASSERT_EQUAL(sf->last_sfid, 10);
    CU_ASSERT_TRUE(sf->last_flags & EU_SEND_EOT);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(sf->eot_first[0][i], regs[1][i] + 100 + 1);   /* stub adds 100 */
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_dispatched"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.instructions"), 4);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.writebacks"), 1);
    /* the add waited (the EOT's payload above has its result). Fast mode
     * counts stalls only on the cycles the EU ticks, and it sleeps through
     * a wait that holds every thread (eu_tick_fast) */
    if (!fast)
        CU_ASSERT_TRUE(rig_stat(r.sim, "eu.stall.send_wait") > 0);
    struct probe_sink *ends = unit_state(r.ends);
    CU_ASSERT_EQUAL(ends->received, 1);
    CU_ASSERT_EQUAL(ends->tag[0], 42);
    if (!fast) {
        /* the EOT cannot leave before the write-back: 20-cycle return latency */
        CU_ASSERT_TRUE(sf->eot_cycle[0] >= 20);
    }
    eu_enc_free(&k);
    sim_destroy(r.sim);
}

/* A Gen4 thread through the unit: the g965_tri interpolating pixel kernel
 * (SIMD16; two SENDs to the math shared function, SFID 1, and an EOT render
 * target write, SFID 5, in aubinator's listing of the capture) runs to its
 * EOT in both modes; the payload comes from the message registers. */
static void check_gen4_thread(bool fast)
{
    const char *over_fast[] = { "fast=true", "gen=4", NULL };
    const char *over[] = { "gen=4", NULL };
    struct rig r = rig_new(fast ? over_fast : over, 5);
    CU_ASSERT_TRUE_FATAL(rig_load_file(r.sim, 0x20000, "tests/data/eu/aub/g965_tri.k02.gen4.bin") > 0);
    uint32_t regs[6][8];
    memset(regs, 0, sizeof regs);
    for (unsigned d = 0; d < 8; d++)
        regs[1][d] = ((10u + 2 * d) << 16) | (20u + 2 * d);
    struct msg *m = rig_dispatch_msg(r.sim, 0x20000, 0, 16, (const uint32_t (*)[8])regs, 6, 7, 0);
    ((struct eu_dispatch *)m->payload)->gen = 4;
    CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL(sf->sends, 3);
    CU_ASSERT_EQUAL(sf->eots, 1);
    CU_ASSERT_EQUAL(sf->last_sfid, 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.register_faults"), 0);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.illegal_instructions"), 0);
    sim_destroy(r.sim);
}

static void test_gen4_thread_timing(void) { check_gen4_thread(false); }
static void test_gen4_thread_fast(void) { check_gen4_thread(true); }

/* The write-back ports are an open array: a fifth shared function answering on
 * writeback[4] (beyond the four made with the EU) reaches the thread like the
 * first; the reply is the stub's r1 + 100 (tests/support/eu_rig.c), then + 1. */
static void test_writeback_open_array(void)
{
    struct rig r = rig_new_on(NULL, 3, "writeback[4]");
    CU_ASSERT_EQUAL(unit_port_count(r.eu, "writeback"), 5);
    struct eu_enc_buf k = kernel_send_roundtrip();
    rig_load(r.sim, 0x10000, &k);
    uint32_t regs[2][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++)
        regs[1][i] = 5 * i + 1;
    dispatch(&r, 0x10000, (const uint32_t (*)[8])regs, 2, 9);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(sf->eot_first[0][i], 5 * i + 1 + 100 + 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.writebacks"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.port.writeback.4.received"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.port.writeback.0.received"), 0);
    eu_enc_free(&k);
    sim_destroy(r.sim);

    /* an open array has no holes: writeback[6] without [4] and [5] is refused */
    struct sim *sim = probe_sim(NULL);
    struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
    struct unit *sf2 = probe_add(sim, &stub_sf_ops, "sf", NULL);
    probe_link(sim, sf2, "out", eu, "writeback[6]", 1, 16, 4);
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(sim, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "port writeback[4] is not linked"));
    sim_destroy(sim);
}

static void test_send_and_writeback_timing(void) { check_roundtrip(false); }
static void test_send_and_writeback_fast(void) { check_roundtrip(true); }

static void test_thread_slots_fill_and_free(void)
{
    /* 20 threads into a 7-slot EU: at most 7 resident; each computes its own
     * result; every slot's end is reported */
    struct rig r = rig_new(NULL, 5);
    struct eu_enc_buf k = kernel_send_roundtrip();
    rig_load(r.sim, 0x2000, &k);
    for (uint32_t t = 0; t < 20; t++) {
        uint32_t regs[2][8] = { { 0 } };
        for (unsigned i = 0; i < 8; i++)
            regs[1][i] = t * 100 + i;
        dispatch(&r, 0x2000, (const uint32_t (*)[8])regs, 2, t);
    }
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL(sf->eots, 20);
    bool seen[20] = { false };
    for (unsigned e = 0; e < 20; e++) {
        uint32_t t = (sf->eot_first[e][0] - 101) / 100;
        CU_ASSERT_FATAL(t < 20);
        seen[t] = true;
        for (unsigned i = 0; i < 8; i++)
            CU_ASSERT_EQUAL(sf->eot_first[e][i], t * 100 + i + 101);
    }
    for (unsigned t = 0; t < 20; t++)
        CU_ASSERT_TRUE(seen[t]);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.active_threads_peak"), 7);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 20);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.active_threads"), 0);
    CU_ASSERT_TRUE(rig_stat(r.sim, "eu.thread_cycles") > 0);
    struct probe_sink *ends = unit_state(r.ends);
    CU_ASSERT_EQUAL(ends->received, 20);
    eu_enc_free(&k);
    sim_destroy(r.sim);
}

/* n dependent adds (each reads the previous result), then EOT */
static struct eu_enc_buf kernel_chain(unsigned n, bool dependent)
{
    struct eu_enc_buf b = { .gen = 9 };
    for (unsigned i = 0; i < n; i++) {
        struct eu_enc_insn a = dependent ? op2(ADD, 8, G(10, F), G(10, F), eu_enc_immf(1.0f))
                                         : op2(ADD, 8, G(10 + i % 8, F), G(2, F), eu_enc_immf(1.0f));
        eu_enc_emit(&b, &a);
    }
    struct eu_enc_insn s = send(0, 10, 1, 0, true);
    eu_enc_emit(&b, &s);
    return b;
}

static uint64_t run_chain(const char *const *over, bool dependent, unsigned threads, double *stall,
                          double *issuing)
{
    struct rig r = rig_new(over, 1);
    struct eu_enc_buf k = kernel_chain(32, dependent);
    rig_load(r.sim, 0x4000, &k);
    for (unsigned t = 0; t < threads; t++)
        dispatch(&r, 0x4000, NULL, 0, t);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL(sf->eots, threads);
    if (dependent)
        for (unsigned e = 0; e < threads; e++)
            CU_ASSERT_EQUAL(sf->eot_first[e][0], 0x42000000u);    /* 32.0f */
    *stall = rig_stat(r.sim, "eu.stall.dependency");
    *issuing = rig_stat(r.sim, "eu.cycles_issuing");
    uint64_t cycles = sim_now(r.sim) / 1000;
    eu_enc_free(&k);
    sim_destroy(r.sim);
    return cycles;
}

static void test_scoreboard_and_co_issue(void)
{
    double stall, issuing;
    /* instruction cache misses off, so only the ALU timing shows */
    const char *base[] = { "icache_latency=0", NULL };
    /* one thread, dependent chain: each add waits occupancy (SIMD8 F: 2
     * cycles) + fpu_latency (4) */
    uint64_t dep = run_chain(base, true, 1, &stall, &issuing);
    CU_ASSERT_TRUE(stall > 0);
    CU_ASSERT_TRUE(dep >= 32 * 6);
    CU_ASSERT_TRUE(dep <= 32 * 6 + 16);
    /* independent adds of one thread: no dependency stall; one per cycle
     * alternating between the FPU and EM pipes (2 cycles each) */
    uint64_t ind = run_chain(base, false, 1, &stall, &issuing);
    CU_ASSERT_EQUAL(stall, 0);
    CU_ASSERT_TRUE(ind <= 32 + 16);
    /* two threads of dependent chains overlap: about the time of one */
    uint64_t two = run_chain(base, true, 2, &stall, &issuing);
    CU_ASSERT_TRUE(two < dep + 16);
    CU_ASSERT_TRUE(issuing < 2 * 33);           /* some cycles issued two at once */
    /* fast mode: no latencies at all */
    const char *fast[] = { "fast=true", NULL };
    uint64_t f = run_chain(fast, true, 1, &stall, &issuing);
    CU_ASSERT_TRUE(f < 10);
    /* FPU and EM latency 10: 6 more cycles per dependent add */
    const char *slow[] = { "icache_latency=0", "fpu_latency=10", "em_latency=10", NULL };
    uint64_t s = run_chain(slow, true, 1, &stall, &issuing);
    CU_ASSERT_TRUE(s >= dep + 32 * 6 - 8);
    CU_ASSERT_TRUE(s <= dep + 32 * 6 + 8);
    /* without co-issue the two threads' chains, ready in the same cycles,
     * issue one after the other: no cycle issues two ALU instructions (the
     * two EOT sends go to the send pipe, one per cycle, in either case) */
    const char *solo[] = { "icache_latency=0", "co_issue=false", NULL };
    double issuing1;
    uint64_t two_solo = run_chain(solo, true, 2, &stall, &issuing1);
    CU_ASSERT_TRUE(two_solo >= two);
    CU_ASSERT_EQUAL(issuing1, 2 * 33);
}

/* The stall count of a dependent chain from the scoreboard's rule alone: one
 * thread, each add (and the EOT send reading its result) waits occupancy (2,
 * SIMD8 F) + fpu_latency cycles after the one before it issued, and every cycle
 * it waits is one dependency stall; 33 cycles issue. The EU sleeps through
 * those waits (eu.c): the counts must be what ticking every cycle gives. */
static void test_chain_stalls_counted_exactly(void)
{
    static const unsigned latencies[] = { 4, 10 };
    for (unsigned k = 0; k < 2; k++) {
        char lat[40];
        snprintf(lat, sizeof lat, "fpu_latency=%u", latencies[k]);
        const char *over[] = { "icache_latency=0", lat, NULL };
        double stall, issuing;
        run_chain(over, true, 1, &stall, &issuing);
        CU_ASSERT_EQUAL(issuing, 33);
        CU_ASSERT_EQUAL(stall, 32.0 * (2 + latencies[k] - 1));
    }
}

/* Stats read while the EU sleeps through a wait (a run stopped by a time
 * limit, as --max-cycles does) count the cycles slept so far, as ticks on
 * every cycle would have (unit_ops.stats_settle). One thread's dependent
 * chain with fpu_latency 50: each add waits 2 + 50 cycles after the one
 * before, every cycle of it one dependency stall. Stopped and read on each of
 * the first 200 cycles, the count grows by 1 a cycle, except on the few
 * cycles an add issues (by 0); read only when the EU wakes it would jump by 51.
 * Reading changes nothing: the run's total is the exact count, and its
 * thread-cycles one a cycle while the thread lives. */
static void test_stats_mid_sleep_count_cycles_slept(void)
{
    const char *over[] = { "icache_latency=0", "fpu_latency=50", NULL };
    struct rig r = rig_new(over, 1);
    struct eu_enc_buf k = kernel_chain(32, true);
    rig_load(r.sim, 0x4000, &k);
    dispatch(&r, 0x4000, NULL, 0, 0);
    uint64_t period = unit_clock_period(r.eu);
    double last = 0, last_threads = 0;
    unsigned ones = 0, other = 0;
    for (uint64_t c = 1; c <= 200; c++) {
        CU_ASSERT_EQUAL(sim_run(r.sim, c * period), SIM_STOP_TIME_LIMIT);
        double stall = rig_stat(r.sim, "eu.stall.dependency");
        double threads = rig_stat(r.sim, "eu.thread_cycles");
        if (stall == last + 1)
            ones++;
        else if (stall != last)
            other++;
        if (c > 4)
            CU_ASSERT_EQUAL(threads, last_threads + 1);
        last = stall;
        last_threads = threads;
    }
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_TRUE(ones >= 190);        /* at most 4 adds issue in 200 cycles, 52 apart */
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.stall.dependency"), 32.0 * (2 + 50 - 1));
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.cycles_issuing"), 33);
    eu_enc_free(&k);
    sim_destroy(r.sim);
}

static void test_flag_dependency_stalls(void)
{
    /* cmp writes f0.0, the predicated mov right after it reads f0.0: it waits
     * for the compare's occupancy + latency like a GRF consumer would */
    const char *over[] = { "icache_latency=0", NULL };
    uint64_t cycles[2];
    for (int dep = 0; dep < 2; dep++) {
        struct rig r = rig_new(over, 1);
        struct eu_enc_buf b = { .gen = 9 };
        for (unsigned k = 0; k < 8; k++) {
            /* baseline: the same instruction shapes without the flag traffic */
            struct eu_enc_insn c = dep ? op2(16, 8, eu_enc_null(EU_TYPE_F), G(2, F), eu_enc_immf(0.5f))
                                       : op2(ADD, 8, G(40 + k, F), G(2, F), eu_enc_immf(0.5f));
            c.cond = dep ? 5 : 0;
            eu_enc_emit(&b, &c);
            struct eu_enc_insn m = { .opcode = MOV, .exec_size = 8, .nsrc = 1 };
            m.dst = G(20 + k, F);
            m.src[0] = G(3, F);
            m.pred = dep ? 1 : 0;
            eu_enc_emit(&b, &m);
        }
        struct eu_enc_insn e = send(0, 20, 1, 0, true);
        eu_enc_emit(&b, &e);
        rig_load(r.sim, 0x7000, &b);
        dispatch(&r, 0x7000, NULL, 0, 1);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        cycles[dep] = sim_now(r.sim) / 1000;
        if (dep)
            CU_ASSERT_TRUE(rig_stat(r.sim, "eu.stall.dependency") > 0);
        eu_enc_free(&b);
        sim_destroy(r.sim);
    }
    /* each predicated mov waits about occupancy (2) + fpu_latency (4) */
    CU_ASSERT_TRUE(cycles[1] >= cycles[0] + 8 * 4);
}

static void test_round_robin_and_bad_arbitration(void)
{
    double stall, issuing;
    const char *rr[] = { "arbitration=round_robin", NULL };
    uint64_t c = run_chain(rr, true, 3, &stall, &issuing);
    CU_ASSERT_TRUE(c > 0);
    struct sim *sim = probe_sim(NULL);
    const char *bad[] = { "arbitration=random", NULL };
    probe_add(sim, &eu_ops, "eu", bad);
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(sim, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "arbitration"));
    sim_destroy(sim);
}

static void test_icache_misses_cost_cycles(void)
{
    double stall, issuing;
    const char *cold[] = { "icache_latency=100", NULL };
    uint64_t slow = run_chain(cold, false, 1, &stall, &issuing);
    uint64_t fast = run_chain(NULL, false, 1, &stall, &issuing);
    /* 33 instructions x 16 bytes = 9 lines of 64 bytes: 9 misses */
    CU_ASSERT_TRUE(slow >= fast + 9 * 80);
}

static void test_fetch_fault_ends_thread(void)
{
    /* a GGTT address with no PTE: the fetch faults, the thread ends, the slot
     * frees and the end is reported with its status */
    struct rig r = rig_new(NULL, 1);
    struct msg *m = rig_dispatch_msg(r.sim, 0x100000, 0, 8, NULL, 0, 9, 0);
    ((struct eu_dispatch *)m->payload)->space_format = GPU_ADDRESS_SPACE_GGTT_GEN8;
    CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.fetch_faults"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_killed"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 1);
    struct probe_sink *ends = unit_state(r.ends);
    CU_ASSERT_EQUAL(ends->received, 1);
    CU_ASSERT_TRUE(sim_log_count(r.sim, SIM_LOG_NOTE) >= 1);
    sim_destroy(r.sim);
}

static void test_unwritten_memory_is_illegal_opcode(void)
{
    /* memory never written reads as zero: opcode 0 is illegal (L22275) */
    struct rig r = rig_new(NULL, 1);
    dispatch(&r, 0x900000, NULL, 0, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.illegal_instructions"), 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_killed"), 1);
    sim_destroy(r.sim);
}

static void test_runaway_kernel_is_stopped(void)
{
    /* jmpi to itself forever: ended after max_thread_instructions */
    const char *over[] = { "max_thread_instructions=1000", NULL };
    for (int fast = 0; fast < 2; fast++) {
        const char *over_fast[] = { "max_thread_instructions=1000", "fast=true", NULL };
        struct rig r = rig_new(fast ? over_fast : over, 1);
        struct eu_enc_buf b = { .gen = 9 };
        struct eu_enc_insn j = { .opcode = JMPI, .exec_size = 1, .nsrc = 1, .nomask = true };
        j.dst = eu_enc_null(EU_TYPE_D);
        j.src[0] = IMM(D, (uint32_t)-16);
        eu_enc_emit(&b, &j);
        rig_load(r.sim, 0x3000, &b);
        dispatch(&r, 0x3000, NULL, 0, 5);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.runaway_threads"), 1);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.instructions"), 1000);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 1);
        eu_enc_free(&b);
        sim_destroy(r.sim);
    }
}

static void test_back_pressure_on_send_and_td_ports(void)
{
    /* a slow shared function (capacity 1, one pop every 50 cycles) and a TD
     * side that pops slowly: SENDs and thread ends wait in the EU, nothing is
     * lost, the run ends */
    struct sim *sim = probe_sim(NULL);
    struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
    const char *slow[] = { "per_cycle=1", "start_cycle=300", NULL };
    struct unit *sink = probe_add(sim, &probe_sink_ops, "sf", slow);
    struct unit *ends = probe_add(sim, &probe_sink_ops, "ends", slow);
    probe_link(sim, eu, "send", sink, "in", 1, 1, 1);
    probe_link(sim, eu, "td", ends, "in", 1, 1, 1);
    rig_memory(sim);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    struct eu_enc_buf b = { .gen = 9 };
    struct eu_enc_insn e = send(0, 1, 1, 0, true);
    eu_enc_emit(&b, &e);
    rig_load(sim, 0x8000, &b);
    for (uint32_t t = 0; t < 30; t++) {
        struct msg *m = rig_dispatch_msg(sim, 0x8000, 0, 8, NULL, 0, t, 0);
        CU_ASSERT_TRUE(port_inject(unit_port(eu, "dispatch", 0), m));
    }
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *ps = unit_state(sink), *pe = unit_state(ends);
    CU_ASSERT_EQUAL(ps->received, 30);
    CU_ASSERT_EQUAL(pe->received, 30);
    CU_ASSERT_EQUAL(rig_stat(sim, "eu.threads_ended"), 30);
    CU_ASSERT_TRUE(rig_stat(sim, "eu.stall.port") > 0);
    eu_enc_free(&b);
    sim_destroy(sim);
}

static void test_unmodelled_wait_is_a_counted_nop(void)
{
    /* wait (n0 notifications are not modelled): a nop, counted, warned once;
     * the thread still reaches its EOT */
    struct rig r = rig_new(NULL, 1);
    struct eu_enc_buf b = { .gen = 9 };
    for (int k = 0; k < 3; k++) {
        struct eu_enc_insn w = { .opcode = 48, .exec_size = 1, .nsrc = 1, .nomask = true };
        w.dst = eu_enc_arf(0x90, 0, EU_TYPE_UD);
        w.src[0] = eu_enc_rgn(eu_enc_arf(0x90, 0, EU_TYPE_UD), 0, 1, 0);
        eu_enc_emit(&b, &w);
    }
    struct eu_enc_insn e = send(0, 1, 1, 0, true);
    eu_enc_emit(&b, &e);
    rig_load(r.sim, 0x9000, &b);
    dispatch(&r, 0x9000, NULL, 0, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.unmodelled_instructions"), 3);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_killed"), 0);
    CU_ASSERT_EQUAL(sim_log_count(r.sim, SIM_LOG_WARNING), 1);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL(sf->eots, 1);
    eu_enc_free(&b);
    sim_destroy(r.sim);
}

static void test_bad_messages_are_counted(void)
{
    struct rig r = rig_new(NULL, 1);
    struct msg *m = msg_alloc(r.sim, MSG_THREAD_DISPATCH, 4);      /* too short */
    CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
    m = msg_alloc(r.sim, MSG_WRITEBACK, sizeof(struct eu_writeback_msg));
    CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
    struct msg *w = msg_alloc(r.sim, MSG_WRITEBACK, sizeof(struct eu_writeback_msg));
    CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "writeback", 1), w));  /* nothing pending */
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.bad_messages"), 3);
    sim_destroy(r.sim);
}

static void test_assembled_flow_control_gen7(void)
{
    /* tests/data/eu/exec/flow.gen7.g4a: JIP/UIP written by intel-gen4asm */
    for (int fast = 0; fast < 2; fast++) {
        const char *over_fast[] = { "fast=true", NULL };
        struct rig r = rig_new(fast ? over_fast : NULL, 1);
        CU_ASSERT_FATAL(rig_load_file(r.sim, 0x30000, "build/gen/eu/exec/flow.gen7.hex") == 17 * 16);
        uint32_t regs[2][8] = { { 0 } };
        for (unsigned i = 0; i < 8; i++)
            regs[1][i] = i;
        struct msg *m = rig_dispatch_msg(r.sim, 0x30000, 0, 8, (const uint32_t (*)[8])regs, 2, 1, 0);
        ((struct eu_dispatch *)m->payload)->gen = 7;
        CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        struct stub_sf *sf = unit_state(r.sf);
        CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
        for (int ch = 0; ch < 8; ch++) {
            int n = 0, count = 0;
            for (;;) {
                n++;
                if (n >= ch) break;
                if (n == 2) continue;
                count++;
            }
            CU_ASSERT_EQUAL((int32_t)sf->last_eot[0][ch], ch < 4 ? 1 : 10);
            CU_ASSERT_EQUAL((int32_t)sf->last_eot[1][ch], n);
            CU_ASSERT_EQUAL((int32_t)sf->last_eot[2][ch], count);
        }
        sim_destroy(r.sim);
    }
}

static void test_split_send_payloads(void)
{
    /* sends (gen9): src0 carries mlen registers, src1 ex_mlen more (ex_desc
     * 9:6); the shared function sees them in order and replies to dst */
    struct rig r = rig_new(NULL, 2);
    struct eu_enc_buf b = { .gen = 9 };
    struct eu_enc_insn s = { .opcode = 51, .exec_size = 8, .nsrc = 2, .sfid = 10 };
    s.dst = G(20, UD);
    s.src[0] = G(3, UD);
    s.src[1] = G(7, UD);
    s.desc = 1u << 25 | 2u << 20;                   /* mlen 1, rlen 2 */
    s.ex_desc = 1u << 6;                            /* ex_mlen 1 */
    eu_enc_emit(&b, &s);
    struct eu_enc_insn e = send(0, 20, 2, 0, true);
    eu_enc_emit(&b, &e);
    rig_load(r.sim, 0x5000, &b);
    uint32_t regs[8][8];
    for (unsigned g = 0; g < 8; g++)
        for (unsigned i = 0; i < 8; i++)
            regs[g][i] = g * 100 + i;
    dispatch(&r, 0x5000, (const uint32_t (*)[8])regs, 8, 3);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf);
    CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
    /* reply register k = payload register (k mod 2) + 100: r3 then r7 */
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(sf->last_eot[0][i], 300 + i + 100);
        CU_ASSERT_EQUAL(sf->last_eot[1][i], 700 + i + 100);
    }
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.writebacks"), 1);
    eu_enc_free(&b);
    sim_destroy(r.sim);
}

static void test_assembled_kernel_gen8_and_gen9(void)
{
    /* tests/data/eu/exec/alu_eot.gen{8,9}.g4a, assembled by intel-gen4asm at
     * build time: the same kernel on both generations, in both modes */
    for (int gen = 8; gen <= 9; gen++)
        for (int fast = 0; fast < 2; fast++) {
            const char *over_fast[] = { "fast=true", NULL };
            struct rig r = rig_new(fast ? over_fast : NULL, 1);
            char path[128];
            snprintf(path, sizeof path, "build/gen/eu/exec/alu_eot.gen%d.hex", gen);
            CU_ASSERT_FATAL(rig_load_file(r.sim, 0x20000, path) == 9 * 16);
            float x[8] = { 0.25f, 1.0f, 2.0f, 3.0f, -4.0f, 9.0f, 100.0f, 0.0f };
            int32_t y[8] = { 1, -2, 3, 0x40000000, -5, 6, 7, 8 };
            uint32_t regs[3][8];
            memset(regs, 0, sizeof regs);
            memcpy(regs[1], x, 32);
            memcpy(regs[2], y, 32);
            struct msg *m = rig_dispatch_msg(r.sim, 0x20000, 0, 8, (const uint32_t (*)[8])regs, 3, 1, 0);
            ((struct eu_dispatch *)m->payload)->gen = (uint8_t)gen;
            CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
            CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
            struct stub_sf *sf = unit_state(r.sf);
            CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
            CU_ASSERT_EQUAL(sf->last_mlen, 4);
            for (unsigned i = 0; i < 8; i++) {
                float a = x[i] + 1.5f, b = a * x[i], sel = b < 10.0f ? b : a;
                uint32_t xb, sb;
                memcpy(&xb, &x[i], 4);
                memcpy(&sb, &sel, 4);
                CU_ASSERT_EQUAL(sf->last_eot[0][i], sb);
                CU_ASSERT_EQUAL(sf->last_eot[1][i], xb & 0x00ff0000u);
                float sq = sqrtf(x[i]), got;
                memcpy(&got, &sf->last_eot[2][i], 4);
                if (x[i] < 0) {
                    CU_ASSERT_TRUE(isnan(got));
                } else {
                    CU_ASSERT_DOUBLE_EQUAL(got, sq, sq * 1e-6);
                }
                CU_ASSERT_EQUAL((int32_t)sf->last_eot[3][i], (int32_t)((uint32_t)y[i] * (uint32_t)-3));
            }
            sim_destroy(r.sim);
        }
}

static void test_random_kernels_end_cleanly(void)
{
    /* random instruction words as kernels, in both modes: every thread ends
     * (EOT, illegal instruction, fetch fault or the instruction limit), the
     * machine goes quiet, nothing crashes */
    uint32_t x = 99;
    for (int fast = 0; fast < 2; fast++) {
        const char *over[] = { "max_thread_instructions=3000", fast ? "fast=true" : "fast=false", NULL };
        struct rig r = rig_new(over, 3);
        struct eu_enc_buf b = { .gen = 9 };
        static const uint8_t ops[] = { 1, 5, 9, 16, 34, 36, 37, 39, 40, 41, 42, 49, 56, 64, 65, 91 };
        for (unsigned k = 0; k < 40 * 16; k++) {
            x = x * 1664525u + 1013904223u;
            if (b.len + 1 > b.cap) {
                b.cap = b.cap ? 2 * b.cap : 1024;
                b.bytes = realloc(b.bytes, b.cap);
            }
            b.bytes[b.len++] = (uint8_t)(x >> 24);
        }
        for (size_t at = 0; at < b.len; at += 16) {
            b.bytes[at + 3] &= (uint8_t)~0x20;
            b.bytes[at] = ops[(b.bytes[at + 5] + at) % sizeof ops];
        }
        rig_load(r.sim, 0x6000, &b);
        for (uint32_t t = 0; t < 16; t++)
            dispatch(&r, 0x6000 + (t % 8) * 64, NULL, 0, t);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_dispatched"), 16);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_ended"), 16);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.active_threads"), 0);
        eu_enc_free(&b);
        sim_destroy(r.sim);
    }
}

static void test_driver_kernels_from_aub_captures(void)
{
    /* The shader kernels Mesa compiled in the AUB captures (tests/data/eu/aub,
     * gen7/8/9; compacted instructions, SIMD8/16, 3-source, sampler, URB,
     * render-target and data-port messages): every one runs to its EOT on a
     * standalone EU with zero payload and the stub shared function, with no
     * illegal instruction and no register fault. */
    static const char *const kernels[] = {
        "byt_compute.k00.gen7", "byt_tri.k00.gen7", "byt_tri.k01.gen7", "byt_tri.k02.gen7",
        "byt_tri.k03.gen7", "byt_tri.k04.gen7", "bdw_compute.k00.gen8", "bdw_tri.k00.gen8",
        "bdw_tri.k01.gen8", "bdw_tri.k02.gen8", "bdw_tri.k03.gen8", "skl_compute.k00.gen9",
        "skl_tri.k00.gen9", "skl_tri.k01.gen9", "skl_tri.k02.gen9", "skl_tri.k03.gen9",
        "skl_tri.k04.gen9", "skl_tri.k05.gen9", "skl_tri.k06.gen9",
    };
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        for (int fast = 0; fast < 2; fast++) {
            const char *over[] = { fast ? "fast=true" : "fast=false", NULL };
            struct rig r = rig_new(over, 4);
            char path[128];
            snprintf(path, sizeof path, "tests/data/eu/aub/%s.bin", kernels[k]);
            CU_ASSERT_FATAL(rig_load_file(r.sim, 0x40000, path) > 0);
            bool compute = strstr(kernels[k], "compute") != NULL;
            int gen = kernels[k][strlen(kernels[k]) - 1] - '0';
            struct stub_sf *sf = unit_state(r.sf);
            sf->add = 0x3f800000u;          /* replies: payload bits + 1.0f's bits */
            struct msg *m = rig_dispatch_msg(r.sim, 0x40000, 0, compute ? 16 : 8, NULL, 0, 1, 0);
            ((struct eu_dispatch *)m->payload)->gen = (uint8_t)gen;
            CU_ASSERT_TRUE(port_inject(unit_port(r.eu, "dispatch", 0), m));
            CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
            if (sf->eots != 1 || rig_stat(r.sim, "eu.threads_killed") != 0)
                fprintf(stderr, "\n%s: eots %llu killed %g\n", kernels[k],
                        (unsigned long long)sf->eots, rig_stat(r.sim, "eu.threads_killed"));
            CU_ASSERT_EQUAL(sf->eots, 1);
            CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.threads_killed"), 0);
            CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.illegal_instructions"), 0);
            CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.register_faults"), 0);
            if (compute) {
                /* c[i] = a[i] + b[i] at byte address 4 * (lane + 16 * group):
                 * with r0 = r1 = 0, the write's address registers hold 4 *
                 * lane and both reads return the address bits + 1.0f's
                 * bits, so each sum is twice that float */
                CU_ASSERT_EQUAL(sf->last_sfid, 7);          /* the EOT goes to the thread spawner */
                for (unsigned lane = 0; lane < 16; lane++) {
                    CU_ASSERT_EQUAL(sf->last_send[lane / 8][lane % 8], 4 * lane);
                    uint32_t bits = 0x3f800000u + 4 * lane;
                    float f, got;
                    memcpy(&f, &bits, 4);
                    memcpy(&got, &sf->last_send[2 + lane / 8][lane % 8], 4);
                    CU_ASSERT_EQUAL(got, f + f);
                }
            }
            sim_destroy(r.sim);
        }
}

/* ---- fetch through the subslice instruction cache ("icache" linked) ---------------- */

struct ic_rig {
    struct sim *sim;
    struct unit *eu[2], *sf[2], *icache;
};

/* `eus` EUs, each with its own stub shared function, fetching through one
 * icache (no memory behind it: a miss fills miss_latency cycles after its
 * lookup); every link latency 1. */
static struct ic_rig ic_rig_new(const char *const *eu_over, const char *const *ic_over,
                                unsigned eus)
{
    struct ic_rig r;
    memset(&r, 0, sizeof r);
    r.sim = probe_sim(NULL);
    r.icache = probe_add(r.sim, &icache_ops, "icache", ic_over);
    for (unsigned i = 0; i < eus; i++) {
        char name[16], port[32];
        snprintf(name, sizeof name, "eu%u", i);
        r.eu[i] = probe_add(r.sim, &eu_ops, name, eu_over);
        snprintf(name, sizeof name, "sf%u", i);
        r.sf[i] = probe_add(r.sim, &stub_sf_ops, name, NULL);
        probe_link(r.sim, r.eu[i], "send", r.sf[i], "in", 1, 16, 4);
        probe_link(r.sim, r.sf[i], "out", r.eu[i], "writeback", 1, 16, 4);
        snprintf(port, sizeof port, "eu[%u]", i);
        probe_link(r.sim, r.eu[i], "icache", r.icache, port, 1, 16, 4);
        snprintf(port, sizeof port, "eu_reply[%u]", i);
        probe_link(r.sim, r.icache, port, r.eu[i], "icache_reply", 1, 16, 4);
    }
    rig_memory(r.sim);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

static void ic_dispatch(struct ic_rig *r, unsigned eu, uint64_t base, uint32_t id)
{
    struct msg *m = rig_dispatch_msg(r->sim, base, 0, 8, NULL, 0, id, 0);
    CU_ASSERT_TRUE(port_inject(unit_port(r->eu[eu], "dispatch", 0), m));
}

/* 11 independent adds and the EOT send: 12 native instructions of 16 bytes
 * = 192 bytes = 3 lines of 64 bytes at a line-aligned base. One thread, no
 * prefetch: each line is one fetch request and one icache miss, and the
 * thread waits for each: sent at t, looked up at t + 1, filled at
 * t + 1 + miss_latency, seen by the EU at t + 2 + miss_latency, when the
 * thread issues. So stall.fetch is 3 x (miss_latency + 2), and the run takes
 * exactly as long as the EU's own cache model with icache_latency =
 * miss_latency + 2 (a miss there holds the thread icache_latency cycles). */
static void test_fetch_through_icache_one_thread(void)
{
    uint64_t cycles[3];
    const uint32_t miss_latency[2] = { 30, 50 };
    struct eu_enc_buf k = kernel_chain(11, false);
    CU_ASSERT_EQUAL_FATAL(k.len, 3 * 64);
    for (unsigned v = 0; v < 2; v++) {
        char ml[32];
        snprintf(ml, sizeof ml, "miss_latency=%u", miss_latency[v]);
        const char *ic_over[] = { ml, NULL };
        const char *no_prefetch[] = { "fetch_prefetch_lines=0", NULL };
        struct ic_rig r = ic_rig_new(no_prefetch, ic_over, 1);
        rig_load(r.sim, 0x4000, &k);
        ic_dispatch(&r, 0, 0x4000, 1);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        cycles[v] = sim_now(r.sim) / 1000;
        CU_ASSERT_EQUAL(((struct stub_sf *)unit_state(r.sf[0]))->eots, 1);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.requests"), 3);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.stall.fetch"), 3 * (miss_latency[v] + 2));
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.icache_misses"), 0);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.requests"), 3);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.misses"), 3);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.fills"), 3);
        sim_destroy(r.sim);
    }
    /* the same kernel on a lone EU with its own cache */
    const char *own[] = { "icache_latency=32", NULL };
    struct rig r = rig_new(own, 1);
    rig_load(r.sim, 0x4000, &k);
    dispatch(&r, 0x4000, NULL, 0, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    cycles[2] = sim_now(r.sim) / 1000;
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu.icache_misses"), 3);
    sim_destroy(r.sim);
    CU_ASSERT_EQUAL(cycles[0], cycles[2]);
    CU_ASSERT_EQUAL(cycles[1], cycles[0] + 3 * (50 - 30));
    eu_enc_free(&k);
}

/* The same kernel with 2 lines of prefetch (the default): entering line 0
 * the thread asks for it and for lines 1 and 2; entering line 1 for line 3,
 * entering line 2 for line 4 (the seed's fetch up to 8 instructions past the
 * end, L20915): 5 requests. With the rig's links 4 wide and 2 lookups per
 * cycle, lines 1 and 2 are back by the time the thread reaches them (line 2
 * at most one cycle after line 0, while line 0's 4 instructions take 4
 * cycles), so only line 0's miss_latency + 2 is a stall, and the EOT goes
 * out 2 x (miss_latency + 2) cycles earlier than without prefetch. */
static void test_fetch_prefetch_hides_lines(void)
{
    struct eu_enc_buf k = kernel_chain(11, false);
    uint64_t eot[2];
    for (unsigned prefetch = 0; prefetch < 2; prefetch++) {
        const char *ic_over[] = { "miss_latency=30", NULL };
        const char *none[] = { "fetch_prefetch_lines=0", NULL };
        struct ic_rig r = ic_rig_new(prefetch ? NULL : none, ic_over, 1);
        rig_load(r.sim, 0x4000, &k);
        ic_dispatch(&r, 0, 0x4000, 1);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        struct stub_sf *sf = unit_state(r.sf[0]);
        CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
        eot[prefetch] = sf->eot_cycle[0];
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.requests"), prefetch ? 5 : 3);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.prefetches"), prefetch ? 4 : 0);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.stall.fetch"), (prefetch ? 1 : 3) * (30 + 2));
        sim_destroy(r.sim);
    }
    CU_ASSERT_EQUAL(eot[1] + 2 * (30 + 2), eot[0]);
    eu_enc_free(&k);
}

/* With the default 2 lines of prefetch an EU asks for the kernel's 3 lines
 * and the 2 after them: 5 lines (test above). Two threads of one EU run the
 * kernel side by side: the EU still asks for each of the 5 lines once (the
 * second thread joins a request already made or finds the line in the fetch
 * buffer). Two EUs running it at once: each EU sends its 5 requests; the
 * icache misses 10 times but fills each line once, the other EU's miss
 * merging into it. Run again afterwards, a thread finds every line in its
 * EU's fetch buffer (its 64 lines hold all 5): no new request. */
static void test_fetch_shared_by_threads_and_eus(void)
{
    struct eu_enc_buf k = kernel_chain(11, false);
    struct ic_rig r = ic_rig_new(NULL, NULL, 1);
    rig_load(r.sim, 0x4000, &k);
    ic_dispatch(&r, 0, 0x4000, 1);
    ic_dispatch(&r, 0, 0x4000, 2);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(((struct stub_sf *)unit_state(r.sf[0]))->eots, 2);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.requests"), 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.requests"), 5);
    sim_destroy(r.sim);

    r = ic_rig_new(NULL, NULL, 2);
    rig_load(r.sim, 0x4000, &k);
    ic_dispatch(&r, 0, 0x4000, 1);
    ic_dispatch(&r, 1, 0x4000, 2);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    for (unsigned i = 0; i < 2; i++)
        CU_ASSERT_EQUAL(((struct stub_sf *)unit_state(r.sf[i]))->eots, 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.requests"), 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu1.fetch.requests"), 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.requests"), 10);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.misses"), 10);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.merged_misses"), 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.fills"), 5);
    ic_dispatch(&r, 0, 0x4000, 3);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.fetch.requests"), 5);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.threads_ended"), 2);
    sim_destroy(r.sim);
    eu_enc_free(&k);
}

/* Fast mode fetches nothing through the icache (no latencies at all), and a
 * half-linked fetch path is a config error. */
static void test_fetch_fast_mode_and_half_link(void)
{
    struct eu_enc_buf k = kernel_chain(11, false);
    const char *fast[] = { "fast=true", NULL };
    struct ic_rig r = ic_rig_new(fast, NULL, 1);
    rig_load(r.sim, 0x4000, &k);
    ic_dispatch(&r, 0, 0x4000, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(((struct stub_sf *)unit_state(r.sf[0]))->eots, 1);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "icache.requests"), 0);
    sim_destroy(r.sim);
    eu_enc_free(&k);

    struct sim *sim = probe_sim(NULL);
    struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
    struct unit *ic = probe_add(sim, &icache_ops, "icache", NULL);
    probe_link(sim, eu, "icache", ic, "eu[0]", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(sim, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "icache_reply"));
    sim_destroy(sim);
}


/* ---- the decoded-kernel cache the EUs of a simulation share ---------------------- */

/* Two EUs, each with its own stub shared function and thread-end sink. */
struct rig2 {
    struct sim *sim;
    struct unit *eu[2], *sf[2];
};

static struct rig2 rig2_new(const char *const *eu_over)
{
    struct rig2 r;
    r.sim = probe_sim(NULL);
    const char *sink_over[] = { "per_cycle=4", NULL };
    for (unsigned e = 0; e < 2; e++) {
        char name[16];
        snprintf(name, sizeof name, "eu%u", e);
        r.eu[e] = probe_add(r.sim, &eu_ops, name, eu_over);
        snprintf(name, sizeof name, "sf%u", e);
        r.sf[e] = probe_add(r.sim, &stub_sf_ops, name, NULL);
        snprintf(name, sizeof name, "ends%u", e);
        struct unit *ends = probe_add(r.sim, &probe_sink_ops, name, sink_over);
        probe_link(r.sim, r.eu[e], "send", r.sf[e], "in", 1, 16, 4);
        probe_link(r.sim, r.sf[e], "out", r.eu[e], "writeback", 3, 16, 4);
        probe_link(r.sim, r.eu[e], "td", ends, "in", 1, 16, 4);
    }
    rig_memory(r.sim);
    struct gt_error err;
    CU_ASSERT_EQUAL(sim_realize(r.sim, &err), 0);
    return r;
}

/* Runs kernel_roundtrip_times(factor) at
 * 0x10000 on EU e and checks its EOT payload: the reply r1 + 100, then + 1,
 * and r1 * factor. */
static void run_roundtrip_on(struct rig2 *r, unsigned e, unsigned factor)
{
    uint32_t regs[2][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++)
        regs[1][i] = 11 * i + 2;
    struct msg *m = rig_dispatch_msg(r->sim, 0x10000, 0, 8, (const uint32_t (*)[8])regs, 2, 5, 0);
    CU_ASSERT_TRUE(port_inject(unit_port(r->eu[e], "dispatch", 0), m));
    CU_ASSERT_EQUAL(sim_run(r->sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r->sf[e]);
    CU_ASSERT_EQUAL_FATAL(sf->eots, 1);
    for (unsigned i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(sf->last_eot[0][i], regs[1][i] + 100 + 1);
        CU_ASSERT_EQUAL(sf->last_eot[1][i], regs[1][i] * factor);
    }
}

/* The kernel of kernel_send_roundtrip with its multiply by `factor`. */
static struct eu_enc_buf kernel_roundtrip_times(unsigned factor)
{
    struct eu_enc_buf b = { .gen = 9 };
    struct eu_enc_insn s = send(4, 1, 1, 1, false);
    eu_enc_emit(&b, &s);
    struct eu_enc_insn a = op2(ADD, 8, G(5, D), G(4, D), IMM(D, 1));
    eu_enc_emit(&b, &a);
    a = op2(MUL, 8, G(6, D), G(1, D), IMM(D, factor));
    eu_enc_emit(&b, &a);
    s = send(0, 5, 2, 0, true);
    eu_enc_emit(&b, &s);
    return b;
}

/* Two EUs run the same 4-instruction kernel: each misses its own decoded
 * table 4 times (eu.decode_misses, as before the shared cache), but the
 * simulation decodes the kernel once: 4 entries added, the second EU's 4
 * misses hit. Both threads compute the kernel's results; timing and fast. */
static void test_decoded_kernels_shared_by_eus(void)
{
    for (int fast = 0; fast < 2; fast++) {
        const char *over_fast[] = { "fast=true", NULL };
        struct rig2 r = rig2_new(fast ? over_fast : NULL);
        struct eu_enc_buf k = kernel_roundtrip_times(3);
        rig_load(r.sim, 0x10000, &k);
        run_roundtrip_on(&r, 0, 3);
        run_roundtrip_on(&r, 1, 3);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.decode_misses"), 4);
        CU_ASSERT_EQUAL(rig_stat(r.sim, "eu1.decode_misses"), 4);
        uint64_t added, hits;
        eu_decode_cache_counts(eu_decode_cache_of(r.sim), &added, &hits);
        CU_ASSERT_EQUAL(added, 4);
        CU_ASSERT_EQUAL(hits, 4);
        eu_enc_free(&k);
        sim_destroy(r.sim);
    }
    /* two simulations share nothing: a new one decodes again */
    struct rig2 r = rig2_new(NULL);
    uint64_t added, hits;
    eu_decode_cache_counts(eu_decode_cache_of(r.sim), &added, &hits);
    CU_ASSERT_EQUAL(added, 0);
    CU_ASSERT_EQUAL(hits, 0);
    sim_destroy(r.sim);
}

/* A kernel rewritten at the same address (as the captures load new kernels
 * between batches): the second EU, which never ran the first, runs the new
 * bytes (r6 = r1 * 5), not the decode the first EU left in the shared cache. */
static void test_decoded_kernel_rewritten_is_decoded_again(void)
{
    struct rig2 r = rig2_new(NULL);
    struct eu_enc_buf k3 = kernel_roundtrip_times(3), k5 = kernel_roundtrip_times(5);
    CU_ASSERT_EQUAL_FATAL(k3.len, k5.len);
    rig_load(r.sim, 0x10000, &k3);
    run_roundtrip_on(&r, 0, 3);
    rig_load(r.sim, 0x10000, &k5);
    run_roundtrip_on(&r, 1, 5);
    uint64_t added, hits;
    eu_decode_cache_counts(eu_decode_cache_of(r.sim), &added, &hits);
    CU_ASSERT_EQUAL(added, 5);      /* the multiply's new bytes */
    CU_ASSERT_EQUAL(hits, 3);       /* the other three are unchanged */
    eu_enc_free(&k3);
    eu_enc_free(&k5);
    sim_destroy(r.sim);
}

/* The shared cache's entries never move (EUs keep pointers to them): the
 * first entry is where it was, unchanged, after the cache has grown to
 * EU_DECODE_CACHE_MAX entries, with the cache's own copy of the instruction
 * and the address it was added at. Full, it adds none (add returns NULL, find finds nothing new),
 * but an entry it holds is still found and still returned by add. */
static void test_decode_cache_stable_and_bounded(void)
{
    struct sim *sim = probe_sim(NULL);
    struct eu_decode_cache *c = eu_decode_cache_of(sim);
    struct dinfo info;
    struct eu_instruction in;
    memset(&info, 0, sizeof info);
    memset(&in, 0, sizeof in);
    uint8_t bytes[16] = { 0x41, 0, 0x20, 0 };
    const struct dinfo *first = NULL;
    for (uint32_t i = 0; i < EU_DECODE_CACHE_MAX; i++) {
        in.opcode = (uint8_t)(i % 127);
        info.occupancy = (uint8_t)(i % 200);
        const struct dinfo *p = eu_decode_cache_add(c, 9, 0x10000 + 16 * (uint64_t)i, bytes, 16,
                                                    &info, &in);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(p->occupancy, i % 200);
        CU_ASSERT_PTR_NOT_EQUAL_FATAL(dinfo_insn(p), &in);
        CU_ASSERT_EQUAL(dinfo_insn(p)->opcode, i % 127);
        CU_ASSERT_EQUAL(p->addr, 0x10000 + 16 * (uint64_t)i);
        if (i == 0)
            first = p;
    }
    uint64_t added, hits;
    eu_decode_cache_counts(c, &added, &hits);
    CU_ASSERT_EQUAL(added, EU_DECODE_CACHE_MAX);
    CU_ASSERT_PTR_EQUAL(eu_decode_cache_find(c, 9, 0x10000, bytes, 16), first);
    CU_ASSERT_EQUAL(first->occupancy, 0);
    CU_ASSERT_EQUAL(dinfo_insn(first)->opcode, 0);
    const struct dinfo *last =
        eu_decode_cache_find(c, 9, 0x10000 + 16 * (uint64_t)(EU_DECODE_CACHE_MAX - 1), bytes, 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(last);
    CU_ASSERT_EQUAL(last->occupancy, (EU_DECODE_CACHE_MAX - 1) % 200);
    CU_ASSERT_EQUAL(dinfo_insn(last)->opcode, (EU_DECODE_CACHE_MAX - 1) % 127);
    /* full: a new key is not added; an old one is still returned */
    uint64_t beyond = 0x10000 + 16 * (uint64_t)EU_DECODE_CACHE_MAX;
    CU_ASSERT_PTR_NULL(eu_decode_cache_add(c, 9, beyond, bytes, 16, &info, &in));
    CU_ASSERT_PTR_NULL(eu_decode_cache_find(c, 9, beyond, bytes, 16));
    CU_ASSERT_PTR_EQUAL(eu_decode_cache_add(c, 9, 0x10000, bytes, 16, &info, &in), first);
    eu_decode_cache_counts(c, &added, &hits);
    CU_ASSERT_EQUAL(added, EU_DECODE_CACHE_MAX);
    sim_destroy(sim);
}

/* With the shared cache full (filled here with other addresses), an EU keeps
 * its own copies of what it decodes: both EUs still compute the kernel's
 * results, each decoding it itself (the cache takes nothing more). */
static void test_decode_cache_full_eus_keep_own_copies(void)
{
    struct rig2 r = rig2_new(NULL);
    struct eu_decode_cache *c = eu_decode_cache_of(r.sim);
    struct dinfo info;
    struct eu_instruction in;
    memset(&info, 0, sizeof info);
    memset(&in, 0, sizeof in);
    uint8_t bytes[16] = { 0 };
    for (uint32_t i = 0; i < EU_DECODE_CACHE_MAX; i++)
        CU_ASSERT_PTR_NOT_NULL(eu_decode_cache_add(c, 9, 0x900000 + 16 * (uint64_t)i, bytes, 16,
                                                   &info, &in));
    struct eu_enc_buf k = kernel_roundtrip_times(7);
    rig_load(r.sim, 0x10000, &k);
    run_roundtrip_on(&r, 0, 7);
    run_roundtrip_on(&r, 1, 7);
    uint64_t added, hits;
    eu_decode_cache_counts(c, &added, &hits);
    CU_ASSERT_EQUAL(added, EU_DECODE_CACHE_MAX);
    CU_ASSERT_EQUAL(hits, 0);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu0.decode_misses"), 4);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "eu1.decode_misses"), 4);
    eu_enc_free(&k);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "decoded kernels shared by the EUs of a sim", test_decoded_kernels_shared_by_eus },
    { "decoded kernel rewritten at its address is decoded again", test_decoded_kernel_rewritten_is_decoded_again },
    { "decode cache: entries never move; full, it adds none", test_decode_cache_stable_and_bounded },
    { "decode cache full: EUs keep their own copies", test_decode_cache_full_eus_keep_own_copies },
    { "gen4 thread through the unit, timing", test_gen4_thread_timing },
    { "gen4 thread through the unit, fast", test_gen4_thread_fast },
    { "send and writeback (timing)", test_send_and_writeback_timing },
    { "send and writeback (fast)", test_send_and_writeback_fast },
    { "write-backs on an open port array", test_writeback_open_array },
    { "thread slots fill and free", test_thread_slots_fill_and_free },
    { "dependent chain: every stalled cycle counted once", test_chain_stalls_counted_exactly },
    { "stats read mid-sleep count the cycles slept", test_stats_mid_sleep_count_cycles_slept },
    { "scoreboard and co-issue", test_scoreboard_and_co_issue },
    { "round robin and bad arbitration", test_round_robin_and_bad_arbitration },
    { "flag dependency stalls", test_flag_dependency_stalls },
    { "icache misses cost cycles", test_icache_misses_cost_cycles },
    { "fetch through the icache: one thread, cycles from the lines", test_fetch_through_icache_one_thread },
    { "fetch through the icache: prefetch hides the next lines", test_fetch_prefetch_hides_lines },
    { "fetch through the icache: shared by threads and EUs", test_fetch_shared_by_threads_and_eus },
    { "fetch through the icache: fast mode, half link refused", test_fetch_fast_mode_and_half_link },
    { "fetch fault ends thread", test_fetch_fault_ends_thread },
    { "unwritten memory is illegal opcode", test_unwritten_memory_is_illegal_opcode },
    { "runaway kernel is stopped", test_runaway_kernel_is_stopped },
    { "bad messages are counted", test_bad_messages_are_counted },
    { "unmodelled wait is a counted nop", test_unmodelled_wait_is_a_counted_nop },
    { "back-pressure on send and td ports", test_back_pressure_on_send_and_td_ports },
    { "assembled kernel gen8 and gen9", test_assembled_kernel_gen8_and_gen9 },
    { "split send payloads", test_split_send_payloads },
    { "assembled flow control (gen7)", test_assembled_flow_control_gen7 },
    { "random kernels end cleanly", test_random_kernels_end_cleanly },
    { "driver kernels from aub captures", test_driver_kernels_from_aub_captures },
    { 0 }
};
TEST_SUITE(eu, cases);
