/* tests/units/test_td.c - the thread dispatcher with real EUs behind it: it
 * dispatches only into free slots it learns of from thread-end messages,
 * by priority then age, queues within its depth, and counts what it does. */
#include "../test.h"

#include <stdio.h>
#include <string.h>

#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"
#include "units/eu/eu.h"
#include "units/common/thread_msg.h"
#include "units/td/td.h"

#define MAX_EUS 4

struct tdrig {
    struct sim *sim;
    struct unit *td, *eu[MAX_EUS], *sf[MAX_EUS];
    unsigned eus;
};

static struct tdrig tdrig_new(unsigned eus, unsigned threads, unsigned queue_depth)
{
    struct tdrig r = { .eus = eus };
    r.sim = probe_sim(NULL);
    char a[64], b[64], c[64];
    snprintf(a, sizeof a, "eus=%u", eus);
    snprintf(b, sizeof b, "threads_per_eu=%u", threads);
    snprintf(c, sizeof c, "queue_depth=%u", queue_depth);
    const char *td_over[] = { a, b, c, NULL };
    r.td = probe_add(r.sim, &td_ops, "td", td_over);
    char t[32];
    snprintf(t, sizeof t, "threads=%u", threads);
    const char *eu_over[] = { t, NULL };
    struct gt_error err;
    struct link_params lp = { 1, 8, 2 };
    for (unsigned i = 0; i < eus; i++) {
        char name[16];
        snprintf(name, sizeof name, "eu%u", i);
        r.eu[i] = probe_add(r.sim, &eu_ops, name, eu_over);
        snprintf(name, sizeof name, "sf%u", i);
        r.sf[i] = probe_add(r.sim, &stub_sf_ops, name, NULL);
        sim_connect(r.sim, unit_port(r.td, "eu", i), unit_port(r.eu[i], "dispatch", 0), &lp, &err);
        sim_connect(r.sim, unit_port(r.eu[i], "td", 0), unit_port(r.td, "eu_end", i), &lp, &err);
        probe_link(r.sim, r.eu[i], "send", r.sf[i], "in", 1, 8, 2);
        probe_link(r.sim, r.sf[i], "out", r.eu[i], "writeback", 3, 8, 2);
    }
    rig_memory(r.sim);
    CU_ASSERT_EQUAL(sim_realize(r.sim, &err), 0);
    return r;
}

/* r2 = r1 + 1 (a few dependent adds), EOT carrying r2 */
static void load_kernel(struct sim *sim, uint64_t at, unsigned adds)
{
    struct eu_enc_buf b = { .gen = 9 };
    for (unsigned i = 0; i < adds; i++) {
        struct eu_enc_insn a = { .opcode = 64, .exec_size = 8, .nsrc = 2 };
        a.dst = eu_enc_grf(2, 0, EU_TYPE_D);
        a.src[0] = eu_enc_grf(i ? 2 : 1, 0, EU_TYPE_D);
        a.src[1] = eu_enc_imm(EU_TYPE_D, 1);
        eu_enc_emit(&b, &a);
    }
    struct eu_enc_insn s = { .opcode = 49, .exec_size = 8, .nsrc = 1, .sfid = 10, .eot = true,
                             .nomask = true };
    s.dst = eu_enc_null(EU_TYPE_UD);
    s.src[0] = eu_enc_grf(2, 0, EU_TYPE_UD);
    s.desc = 1u << 25;
    eu_enc_emit(&b, &s);
    rig_load(sim, at, &b);
    eu_enc_free(&b);
}

static void request(struct tdrig *r, uint32_t id, uint8_t priority)
{
    uint32_t regs[2][8] = { { 0 } };
    for (unsigned i = 0; i < 8; i++)
        regs[1][i] = id * 1000 + i;
    struct msg *m = rig_dispatch_msg(r->sim, 0x8000, 0, 8, (const uint32_t (*)[8])regs, 2, id, priority);
    CU_ASSERT_TRUE(port_inject(unit_port(r->td, "vfe", 0), m));
}

static void test_dispatch_fills_free_slots_only(void)
{
    struct tdrig r = tdrig_new(2, 2, 16);
    load_kernel(r.sim, 0x8000, 20);
    for (uint32_t id = 0; id < 10; id++)
        request(&r, id, 0);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.requests"), 10);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.dispatched"), 10);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.thread_ends"), 10);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.queue_peak"), 10);
    CU_ASSERT_TRUE(rig_stat(r.sim, "td.no_slot_cycles") > 0);
    CU_ASSERT_TRUE(rig_stat(r.sim, "td.queue_wait") > 0);
    CU_ASSERT_TRUE(rig_stat(r.sim, "td.thread_cycles") > 0);
    unsigned eots = 0;
    for (unsigned e = 0; e < 2; e++) {
        char path[64];
        snprintf(path, sizeof path, "eu%u.active_threads_peak", e);
        CU_ASSERT_EQUAL(rig_stat(r.sim, path), 2);      /* never more than the TD allows */
        struct stub_sf *sf = unit_state(r.sf[e]);
        for (unsigned k = 0; k < sf->eots; k++) {
            uint32_t id = (sf->eot_first[k][0] - 20) / 1000;
            for (unsigned i = 0; i < 8; i++)
                CU_ASSERT_EQUAL(sf->eot_first[k][i], id * 1000 + i + 20);
        }
        eots += (unsigned)sf->eots;
        /* both EUs got work (most free slots first) */
        CU_ASSERT_TRUE(sf->eots >= 4);
    }
    CU_ASSERT_EQUAL(eots, 10);
    sim_destroy(r.sim);
}

static void test_priority_then_age(void)
{
    /* one EU with one slot: requests arriving together leave by priority, then
     * in arrival order */
    struct tdrig r = tdrig_new(1, 1, 16);
    load_kernel(r.sim, 0x8000, 2);
    request(&r, 1, 0);
    request(&r, 2, 0);
    request(&r, 3, 5);
    request(&r, 4, 1);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct stub_sf *sf = unit_state(r.sf[0]);
    CU_ASSERT_EQUAL_FATAL(sf->eots, 4);
    const uint32_t order[4] = { 3, 4, 1, 2 };
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL((sf->eot_first[k][0] - 2) / 1000, order[k]);
    sim_destroy(r.sim);
}

static void test_queue_depth_back_pressure(void)
{
    struct tdrig r = tdrig_new(1, 1, 2);
    load_kernel(r.sim, 0x8000, 4);
    for (uint32_t id = 0; id < 6; id++)
        request(&r, id, 0);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.queue_peak"), 2);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.dispatched"), 6);
    struct stub_sf *sf = unit_state(r.sf[0]);
    CU_ASSERT_EQUAL(sf->eots, 6);
    /* one slot: strictly in arrival order */
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL((sf->eot_first[k][0] - 4) / 1000, k);
    sim_destroy(r.sim);
}

static void test_eu_choice_policies(void)
{
    /* Three EUs of 4 slots. Two requests go to EU0 and EU1 under either policy;
     * then EU0 reports a thread end and a third request comes: most_free
     * gives it to EU0 (4 free, lowest index among the freest), round_robin to
     * EU2 (next in turn). */
    for (int rr = 0; rr < 2; rr++) {
        struct sim *sim = probe_sim(NULL);
        const char *over[] = { "eus=3", "threads_per_eu=4",
                               rr ? "eu_choice=round_robin" : "eu_choice=most_free", NULL };
        struct unit *td = probe_add(sim, &td_ops, "td", over);
        struct unit *sink[3];
        struct gt_error err;
        struct link_params lp = { 1, 8, 2 };
        for (unsigned e = 0; e < 3; e++) {
            char name[8];
            snprintf(name, sizeof name, "s%u", e);
            sink[e] = probe_add(sim, &probe_sink_ops, name, NULL);
            sim_connect(sim, unit_port(td, "eu", e), unit_port(sink[e], "in", 0), &lp, &err);
        }
        CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
        for (uint32_t id = 0; id < 2; id++)
            CU_ASSERT_TRUE(port_inject(unit_port(td, "cs", 0), rig_dispatch_msg(sim, 0, 0, 8, NULL, 0, id, 0)));
        CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
        struct msg *end = msg_alloc(sim, MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
        ((struct eu_thread_end *)end->payload)->op = EU_TD_THREAD_END;
        CU_ASSERT_TRUE(port_inject(unit_port(td, "eu_end", 0), end));
        CU_ASSERT_TRUE(port_inject(unit_port(td, "cs", 0), rig_dispatch_msg(sim, 0, 0, 8, NULL, 0, 2, 0)));
        CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
        unsigned got[3];
        for (unsigned e = 0; e < 3; e++)
            got[e] = (unsigned)((struct probe_sink *)unit_state(sink[e]))->received;
        CU_ASSERT_EQUAL(got[0], rr ? 1u : 2u);
        CU_ASSERT_EQUAL(got[1], 1u);
        CU_ASSERT_EQUAL(got[2], rr ? 1u : 0u);
        CU_ASSERT_EQUAL(rig_stat(sim, "td.thread_ends"), 1);
        sim_destroy(sim);
    }
    struct sim *sim = probe_sim(NULL);
    const char *bad[] = { "eu_choice=random", NULL };
    probe_add(sim, &td_ops, "td", bad);
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(sim, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "eu_choice"));
    sim_destroy(sim);
}

static void test_unexpected_messages_are_counted(void)
{
    struct tdrig r = tdrig_new(1, 1, 4);
    struct msg *m = msg_alloc(r.sim, MSG_SEND, 16);
    CU_ASSERT_TRUE(port_inject(unit_port(r.td, "wm", 0), m));
    m = msg_alloc(r.sim, MSG_THREAD_DISPATCH, 2);
    CU_ASSERT_TRUE(port_inject(unit_port(r.td, "gs", 0), m));
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.bad_messages"), 2);
    CU_ASSERT_EQUAL(rig_stat(r.sim, "td.dispatched"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "dispatch fills free slots only", test_dispatch_fills_free_slots_only },
    { "priority then age", test_priority_then_age },
    { "queue depth back-pressure", test_queue_depth_back_pressure },
    { "eu choice policies", test_eu_choice_policies },
    { "unexpected messages are counted", test_unexpected_messages_are_counted },
    { 0 }
};
TEST_SUITE(td, cases);
