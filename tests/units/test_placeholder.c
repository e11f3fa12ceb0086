/* tests/units/test_placeholder.c - placeholders and the host, driven alone:
 * a placeholder counts what it receives and spreads it round-robin over its
 * outputs at `throughput` per cycle, or sinks it; the host sends exactly what
 * it is told at its rate. */
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/host/host.h"
#include "units/registry.h"

static void test_placeholder_spreads_round_robin(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=9", "payload=10", NULL };
    const char *ph_over[] = { "throughput=3", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    CU_ASSERT_PTR_NOT_NULL_FATAL(probe_add(sim, unit_kind_find("te:placeholder"), "te", ph_over));
    struct unit *d[3];
    struct gt_error err;
    struct link_params lp = { 1, 16, 16 };
    CU_ASSERT_EQUAL_FATAL(sim_connect(sim, unit_port(src, "out", 0),
                                      sim_resolve_port(sim, "te.hs", PORT_IN, &err), &lp, &err), 0);
    for (int i = 0; i < 3; i++) {
        char name[8], out[16];
        snprintf(name, sizeof name, "d%d", i);
        snprintf(out, sizeof out, "te.ds[%d]", i);
        d[i] = probe_add(sim, &probe_sink_ops, name, NULL);
        CU_ASSERT_EQUAL_FATAL(sim_connect(sim, sim_resolve_port(sim, out, PORT_OUT, &err),
                                          unit_port(d[i], "in", 0), &lp, &err), 0);
    }
    /* a name is one direction only */
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "te.ds[5]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "port 'ds' is already an output"));
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    for (int i = 0; i < 3; i++) {
        struct probe_sink *s = unit_state(d[i]);
        CU_ASSERT_EQUAL(s->received, 3);
        for (int k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(s->tag[k], (uint32_t)(3 * k + i));   /* round-robin */
    }
    CU_ASSERT_EQUAL(probe_stat(sim, "te.received"), 9);
    CU_ASSERT_EQUAL(probe_stat(sim, "te.received_bytes"), 90);
    CU_ASSERT_EQUAL(probe_stat(sim, "te.forwarded"), 9);
    CU_ASSERT_EQUAL(probe_stat(sim, "te.sunk"), 0);
    sim_destroy(sim);
}

static void test_placeholder_sinks_without_outputs(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=40", "per_cycle=8", NULL };
    const char *ph_over[] = { "throughput=2", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    probe_add(sim, unit_kind_find("urb_fence:placeholder"), "mem", ph_over);
    struct gt_error err;
    struct link_params lp = { 1, 64, 8 };
    sim_connect(sim, unit_port(src, "out", 0), sim_resolve_port(sim, "mem.in", PORT_IN, &err), &lp,
                &err);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "mem.sunk"), 40);
    /* 2 per cycle from cycle 1: the last two are taken at cycle 20 */
    CU_ASSERT_EQUAL(sim_now(sim), 20 * 1000);
    sim_destroy(sim);
}

/* builtin:fabric: the host asks the CS its generation and sends that many
 * 3DSTATE_VF_STATISTICS commands; the CS passes each down its 3D port. */
static void test_host_builtin_workload_through_the_cs(void)
{
    static const unsigned gens[] = { 4, 7, 8, 9 };
    for (size_t g = 0; g < 4; g++) {
        struct sim *sim = probe_sim(NULL);
        struct gt_error err;
        probe_memory(sim);
        char gen[16];
        snprintf(gen, sizeof gen, "gen=%u", gens[g]);
        const char *host_over[] = { "messages=5000", NULL };
        const char *cs_over[] = { gen, NULL };
        struct unit *host = probe_add(sim, &host_ops, "host", host_over);
        struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", cs_over);
        struct unit *dst = probe_add(sim, &probe_sink_ops, "dst", NULL);
        probe_link(sim, host, "gpu", cs, "host", 1, 8, 1);
        probe_link(sim, cs, "host_reply", host, "gpu_reply", 1, 4, 1);
        probe_link(sim, cs, "vf", dst, "in", 1, 4, 1);
        CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
        CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
        struct probe_sink *s = unit_state(dst);
        CU_ASSERT_EQUAL(s->received, 5000);
        CU_ASSERT_EQUAL(probe_stat(sim, "host.injected"), 5000);
        CU_ASSERT_EQUAL(probe_stat(sim, "cs.by_command.3DSTATE_VF_STATISTICS"), 5000);
        CU_ASSERT_EQUAL(probe_stat(sim, "cs.unknown_commands"), 0);
        sim_destroy(sim);
    }
}

static void test_host_refuses_what_it_cannot_play(void)
{
    static const struct { const char *workload, *says; } bad[] = {
        { "workload=tests/data/no-such.aub", "tests/data/no-such.aub: cannot open" },
        { "workload=builtin:teapot", "no built-in workload 'builtin:teapot'" },
        { "workload=tests/data/traces/skl_compute.batch.00.bin", "tests/data/traces/skl_compute" },
    };
    for (size_t i = 0; i < 3; i++) {
        struct sim *sim = probe_sim(NULL);
        struct gt_error err;
        probe_memory(sim);
        const char *over[] = { bad[i].workload, NULL };
        struct unit *host = probe_add(sim, &host_ops, "host", over);
        struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", NULL);
        probe_link(sim, host, "gpu", cs, "host", 1, 8, 1);
        probe_link(sim, cs, "host_reply", host, "gpu_reply", 1, 4, 1);
        CU_ASSERT_EQUAL(sim_realize(sim, &err), -1);
        if (!strstr(err.message, bad[i].says))
            fprintf(stderr, "\n%s: %s\n", bad[i].workload, err.message);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].says));
        sim_destroy(sim);
    }
}

/* impl = "placeholder": the stand-in even where the real kind exists. */
static void test_placeholder_impl_lookup(void)
{
    const struct unit_ops *real = unit_kind_find("urb");
    const struct unit_ops *stand_in = unit_kind_find("urb:placeholder");
    CU_ASSERT_PTR_NOT_NULL_FATAL(real);
    CU_ASSERT_PTR_NOT_NULL_FATAL(stand_in);
    CU_ASSERT_FALSE(real->placeholder);
    CU_ASSERT_TRUE(stand_in->placeholder);
    CU_ASSERT_STRING_EQUAL(stand_in->kind, "urb");
    CU_ASSERT_PTR_NULL(unit_kind_find("no_such_unit:placeholder"));
    CU_ASSERT_PTR_NULL(unit_kind_find(":placeholder"));
    CU_ASSERT_PTR_NULL(unit_kind_find("ur:placeholder"));
}

static const struct test_case cases[] = {
    { "placeholder spreads round-robin", test_placeholder_spreads_round_robin },
    { "impl = placeholder finds the stand-in", test_placeholder_impl_lookup },
    { "placeholder sinks without outputs", test_placeholder_sinks_without_outputs },
    { "host builtin workload through the cs", test_host_builtin_workload_through_the_cs },
    { "host refuses what it cannot play", test_host_refuses_what_it_cannot_play },
    { 0 }
};
TEST_SUITE(placeholder, cases);
