/* rtl-cosim/tests/cosim_tests.c - gtsim-cosim-tests: the co-simulation tests
 * (they need the Verilated models, so they live outside tests/ and run with
 * `make test-cosim`).
 *
 *  - the RTL alone behind the C unit's ports has the C unit's exact timing
 *    (the cycles of tests/units/test_cs_alu.c, worked out by hand);
 *  - seeded random lockstep, >= 1M ALU instructions covering every opcode and
 *    register encoding and reserved encodings, with back-pressure: no mismatch;
 *  - the same with 3 cycles per instruction;
 *  - the BROKEN RTL in lockstep: the checker reports the mismatch, naming the
 *    unit, port, message, field, both values and the cycle, and writes a wave;
 *  - record a run, replay it into the RTL (matches) and into the BROKEN RTL
 *    (mismatch reported, FST written around it);
 *  - impl = "rtl" / "lockstep" through a config and topology_build.
 * The L3 (suite l3):
 *  - the slice RTL (one bank) alone against cycles, LRU victims and merging
 *    worked out by hand; the BROKEN RTL evicts the wrong (dirty) line;
 *  - seeded random traffic from three clients in lockstep (4 seeds, 144k
 *    requests, ~200k replies and memory requests compared, with reply and
 *    memory back-pressure), every path of the L3 reached: no mismatch;
 *  - the RTL alone gives the C unit's cycles, latencies and counters exactly;
 *  - the BROKEN RTL in lockstep: caught, reported, a wave written;
 *  - the C unit's ports recorded, replayed into the RTL (and the BROKEN RTL),
 *    through the API and through gtsim-cosim run --record-port / replay;
 *  - the example config: impl c, lockstep and rtl give the same stats;
 *  - 2, 3 and 4 banks with RO data, SLM and random L3CNTLREG writes in
 *    lockstep (no mismatch) and alone (the C unit's run);
 *  - real machines (every Gen8/Gen9 capture, VLV's one-bank L3, GT4's three
 *    slices, SGEMM on GT2, GT3 and an evicting GT2 L3) with the slices' L3 as
 *    l3, l3:rtl, l3:lockstep: identical stats.csv but the adapter's rows,
 *    identical result buffers, lockstep clean; the BROKEN slice caught there;
 *    geometries past the RTL refused at realize.
 * MI_MATH in a machine (suite math): a built Gen9 capture on the GT2 config
 * with the ALU c, rtl and lockstep: results equal the seed's ALU recomputed
 * here, identical stats but the ALU's own; the BROKEN ALU caught.
 *
 * The FPU pipe (suite fpu):
 *  - every pair (and, for MAD, triple) of 42 special operands through the RTL
 *    alone in every rounding and denormal mode, against units/fpu's C function;
 *  - 1M seeded random operations (4M lanes) in lockstep, every operation,
 *    condition, rounding mode and denormal mode, special values
 *    over-represented; more seeds with back-pressure and depths 1 and 7;
 *  - the RTL alone gives the C unit's cycles and stalls; the BROKEN RTL (RU
 *    ignores sticky) is caught with a lane-and-field report and a wave;
 *  - the C unit's ports recorded, replayed into the RTL, the C unit and the
 *    BROKEN RTL.
 *
 * `gtsim-cosim-tests [SUITE [TEST]]` runs a part. Exit status: 0 all passed. */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/cs_alu_cosim.h"
#include "rtl-cosim/cs_alu_directed.h"
#include "rtl-cosim/cs_alu_rtl.h"
#include "rtl-cosim/datapath_replay.h"
#include "rtl-cosim/fpu_directed.h"
#include "rtl-cosim/fpu_random.h"
#include "rtl-cosim/fpu_rtl.h"
#include "rtl-cosim/l3_cosim.h"
#include "rtl-cosim/l3_directed.h"
#include "rtl-cosim/l3_random.h"
#include "rtl-cosim/l3_rtl.h"
#include "rtl-cosim/math_aub.h"
#include "rtl-cosim/om_random.h"
#include "rtl-cosim/om_rtl.h"
#include "rtl-cosim/qpu_alu_rtl.h"
#include "rtl-cosim/qpu_cosim.h"
#include "rtl-cosim/qpu_random.h"
#include "rtl-cosim/random_run.h"
#include "fabric/recording.h"
#include "rtl-cosim/replay.h"
#include "units/fpu/fpu.h"
#include "units/fpu/fpu_gen.h"
#include "units/registry.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char paths[16][512];
    static unsigned next;
    char *p = paths[next++ % 16];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* ---- the RTL alone: the C unit's timing, exactly ----------------------------- */

/* Three requests (2, 0 and 5 ADDs) injected at cycle 0: taken at 0, 3, 4 and
 * answered at 3, 4, 10 (1 + n cycles each); with 3 cycles per instruction at 7,
 * 8, 24 - the cycles tests/units/test_cs_alu.c works out for the C unit. The
 * adapters' record_response gives the cycle each response was sent. */
static void timing_by_recording(const char *kind, uint32_t cpi, const uint64_t sent[3])
{
    struct sim_options so = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&so);
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_add_clock(sim, "gt", 1000, &err), 0);
    char over[64], rec[600];
    snprintf(over, sizeof over, "cycles_per_instruction=%u", cpi);
    const char *path = tmp_path("timing.rec");
    snprintf(rec, sizeof rec, "record_response=%s", path);
    const char *alu_over[] = { over, rec, NULL };
    struct unit *alu = sim_add_unit(sim, cosim_kind_find(kind), "alu", 0, NULL, alu_over, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alu);
    struct unit *sink = sim_add_unit(sim, cosim_kind_find("cosim_sink"), "sink", 0, NULL, NULL,
                                     &err);
    struct link_params lp = { 1, 4, 1 };
    CU_ASSERT_EQUAL_FATAL(sim_connect(sim, unit_port(alu, "response", 0),
                                      unit_port(sink, "in", 0), &lp, &err), 0);
    static const uint32_t counts[3] = { 2, 0, 5 };
    for (int k = 0; k < 3; k++) {
        struct msg *m = msg_alloc(sim, MSG_GENERIC, cs_alu_request_size(counts[k]));
        struct cs_alu_request *q = (struct cs_alu_request *)m->payload;
        q->count = counts[k];
        q->gpr[0] = 5;
        for (uint32_t i = 0; i < counts[k]; i++)
            q->instruction[i] = cs_alu_instruction(CS_ALU_OP_ADD, 0, 0);
        m->tag = 10 + (uint32_t)k;
        CU_ASSERT(port_inject(unit_port(alu, "request", 0), m));
    }
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    if (cosim_unit_is(alu))
        CU_ASSERT_EQUAL(cosim_finish(alu), 0);
    sim_destroy(sim);                       /* closes the recording */
    struct recording *r = recording_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    struct recorded_msg m;
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL_FATAL(recording_next(r, &m, &err), 1);
        CU_ASSERT_EQUAL(m.cycle, sent[k]);
        CU_ASSERT_EQUAL(m.tag, 10 + (uint32_t)k);
        const struct cs_alu_response *p = (const void *)m.payload;
        CU_ASSERT_EQUAL(p->executed, k == 0 ? 2u : k == 1 ? 0u : 5u);
        CU_ASSERT_EQUAL(p->gpr[0], 5);
    }
    CU_ASSERT_EQUAL(recording_next(r, &m, &err), 0);
    recording_close(r);
}

/* Clocks from the clock that takes a request of n NOOPs (MI_MATH opcode 0x000) to the
 * first clock with resp_valid, the RTL alone at cycles_per_instruction cpi. */
static uint64_t alu_rtl_answer_clocks(uint32_t cpi, uint32_t n)
{
    struct cs_alu_rtl *r = cs_alu_rtl_create(CS_ALU_RTL_GOOD, false);
    cs_alu_rtl_reset(r);
    cs_alu_rtl_set_cpi(r, cpi);
    cs_alu_rtl_set_resp_ready(r, false);
    static struct cs_alu_request q;
    memset(&q, 0, sizeof q);
    q.count = n;
    cs_alu_rtl_set_request(r, &q, n);
    uint64_t cycle = 1, clocks = 0;
    CU_ASSERT(cs_alu_rtl_req_ready(r));
    cs_alu_rtl_clock(r, cycle++);
    cs_alu_rtl_set_request(r, NULL, 0);
    while (!cs_alu_rtl_resp_valid(r) && clocks < 10000) {
        cs_alu_rtl_clock(r, cycle++);
        clocks++;
    }
    cs_alu_rtl_destroy(r);
    return clocks;
}

/* cfg_cpi 0 reads as 1 (rtl/cs_alu.sv takes a request with cpi = max(cfg_cpi, 1): no
 * instruction takes zero clocks), and each instruction costs cpi clocks (the C unit's
 * documented timing, units/cs_alu/cs_alu.h: answered on T + 1 + n x cpi). The fabric never
 * drives 0 (the param's minimum is 1), so only this test reaches the clamp (a mutant of it
 * survived the random runs). */
static void test_rtl_cpi_zero_reads_as_one(void)
{
    uint64_t one = alu_rtl_answer_clocks(1, 5), two = alu_rtl_answer_clocks(2, 5);
    CU_ASSERT_EQUAL(two, one + 5);
    CU_ASSERT_EQUAL(alu_rtl_answer_clocks(3, 5), one + 10);
    CU_ASSERT_EQUAL(alu_rtl_answer_clocks(0, 5), one);
    CU_ASSERT_EQUAL(alu_rtl_answer_clocks(0, 1), alu_rtl_answer_clocks(1, 1));
}

/* The directed checks the mutation runner adds to the random runs (cs_alu_directed.h):
 * all pass on the RTL as written; the BROKEN RTL (SUB's CF inverted) fails the one of
 * 5 - 7's borrow. */
static void test_rtl_directed_checks(void)
{
    CU_ASSERT_EQUAL(cs_alu_directed_checks(CS_ALU_RTL_GOOD, stdout), 0);
    FILE *quiet = fopen("/dev/null", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(quiet);
    CU_ASSERT_EQUAL(cs_alu_directed_checks(CS_ALU_RTL_BROKEN, quiet), 1);
    fclose(quiet);
}

static void test_rtl_timing_matches_c_unit(void)
{
    static const uint64_t cpi1[3] = { 3, 4, 10 }, cpi3[3] = { 7, 8, 24 };
    static const char *const kinds[] = { "cs_alu:rtl", "cs_alu:record", "cs_alu:lockstep" };
    for (unsigned k = 0; k < 3; k++) {
        timing_by_recording(kinds[k], 1, cpi1);
        timing_by_recording(kinds[k], 3, cpi3);
    }
}

/* ---- random lockstep ------------------------------------------------------------ */

static void check_coverage(const struct random_run_result *r)
{
    for (int k = 0; k < 13; k++)
        CU_ASSERT(r->cov.opcode[k] > 0);
    for (int k = 0; k < 21; k++)
        CU_ASSERT(r->cov.reg[k] > 0);
    CU_ASSERT(r->cov.malformed > 0);
    CU_ASSERT_EQUAL(r->engine.malformed, r->cov.malformed);
    /* the C model saw every class, reserved encodings included */
    CU_ASSERT(r->engine.loads > 0 && r->engine.alu_ops > 0 && r->engine.stores > 0 &&
              r->engine.noops > 0 && r->engine.reserved > 0);
}

static void test_random_lockstep_1m(void)
{
    struct random_run_options o = { .impl = "lockstep", .seed = 2026, .ops = 1000000,
                                    .pop_permille = 700, .capacity = 2, .report = stderr };
    struct random_run_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    printf("\n    lockstep: %" PRIu64 " requests, %" PRIu64 " ALU ops, %" PRIu64
           " compared, %" PRIu64 " mismatches, %" PRIu64 " cycles, %.2f s ",
           r.requests, r.instructions, r.compared, r.mismatches, r.cycles, r.seconds);
    CU_ASSERT(r.instructions >= 1000000);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, r.requests);
    CU_ASSERT_EQUAL(r.responses, r.requests);
    CU_ASSERT_EQUAL(r.engine.instructions, r.instructions);
    check_coverage(&r);
}

static void test_random_lockstep_cpi3_long_requests(void)
{
    struct random_run_options o = { .impl = "lockstep", .seed = 7, .ops = 200000,
                                    .cycles_per_instruction = 3, .max_count = 256,
                                    .pop_permille = 300, .capacity = 1, .report = stderr };
    struct random_run_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    CU_ASSERT(r.instructions >= 200000);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, r.requests);
    check_coverage(&r);
}

/* Short requests and a sink that rarely pops: the response channel is full
 * most of the time, so both sides hold their answers under back-pressure. */
static void test_random_lockstep_backpressure(void)
{
    struct random_run_options o = { .impl = "lockstep", .seed = 99, .ops = 100000,
                                    .max_count = 6, .pop_permille = 40, .capacity = 1,
                                    .report = stderr };
    struct random_run_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    CU_ASSERT(r.instructions >= 100000);
    CU_ASSERT(r.response_stalls > r.requests / 2);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, r.requests);
    /* the RTL alone under the same back-pressure delivers everything */
    o.impl = "rtl";
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    CU_ASSERT_EQUAL(r.responses, r.requests);
    CU_ASSERT(r.response_stalls > r.requests / 2);
}

/* The planted bug (SUB: CF on carry instead of borrow) must be caught, and the
 * report must name unit, port, message, field, both values and the cycle. */
static void test_broken_rtl_is_caught(void)
{
    const char *wave = tmp_path("broken.fst");
    FILE *report = fopen(tmp_path("broken.log"), "w");
    struct random_run_options o = { .impl = "lockstep_broken", .seed = 3, .ops = 20000,
                                    .wave = wave, .wave_from = 0, .wave_to = 0,
                                    .report = report };
    struct random_run_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    fclose(report);
    printf("\n    caught: %s ", r.first_report);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT(r.first_mismatch != UINT64_MAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "unit gpu.cs_alu"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "port response"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "message #"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "cycle "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "field "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "c-model 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "rtl 0x"));
    /* the wave runs from the start to 64 cycles (wave_after) past the mismatch */
    uint64_t t0, t1, nsig;
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(wave, &t0, &t1, &nsig), 0);
    CU_ASSERT(t0 <= 2000);                          /* the first cycle the unit ticked */
    CU_ASSERT(t1 >= r.first_mismatch * 1000 && t1 <= (r.first_mismatch + 65) * 1000);
    CU_ASSERT(nsig > 20);
    /* a window: from 50 cycles before the mismatch */
    const char *wave2 = tmp_path("window.fst");
    o.wave = wave2;
    o.wave_from = r.first_mismatch - 50;
    o.wave_to = r.first_mismatch + 10;
    report = fopen(tmp_path("broken2.log"), "w");
    o.report = report;
    uint64_t m = r.first_mismatch;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    fclose(report);
    CU_ASSERT_EQUAL(r.first_mismatch, m);           /* deterministic */
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(wave2, &t0, &t1, &nsig), 0);
    CU_ASSERT(t0 >= (m - 50) * 1000 && t0 <= (m - 49) * 1000);
    CU_ASSERT(t1 >= m * 1000 && t1 <= (m + 11) * 1000);
    /* the good RTL with the same seed: nothing */
    o.impl = "lockstep";
    o.wave = NULL;
    o.report = stderr;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    CU_ASSERT_EQUAL(r.mismatches, 0);
}

/* A timing difference alone (the RTL at 2 clocks per instruction, the C model
 * at 1) is a mismatch on the cycle, unless within cycle_tolerance. (With many
 * requests the slower RTL falls further behind each time.) */
static void lockstep_timing(uint32_t requests, uint32_t tolerance, uint64_t *mismatches,
                            char *first, size_t size)
{
    char text[1024];
    snprintf(text, sizeof text,
             "clocks = { gt = { period_ps = 1000; }; };\n"
             "gpu = { stim = { kind = \"cs_alu_stim\"; requests = %u; max_count = 4; };\n"
             "        cs_alu = { kind = \"cs_alu\"; impl = \"lockstep\";\n"
             "                   rtl_cycles_per_instruction = 2; cycle_tolerance = %u; };\n"
             "        sink = { kind = \"cosim_sink\"; };\n"
             "        links = ( { from = \"stim.out\"; to = \"cs_alu.request\"; },\n"
             "                  { from = \"cs_alu.response\"; to = \"sink.in\"; } ); };\n",
             requests, tolerance);
    struct gt_error err;
    struct gt_config *c = gt_config_parse(text, ".", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    FILE *log = fopen(tmp_path("timing.log"), "w");
    struct sim_options so = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR,
                              .log_file = log };
    struct sim *sim = sim_create(&so);
    CU_ASSERT_EQUAL_FATAL(topology_build(sim, c, cosim_kind_find, &err), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    sim_run(sim, 0);
    struct unit *alu = sim_find_unit(sim, "gpu.cs_alu");
    *mismatches = cosim_finish(alu);
    const struct cosim_errors *e = cosim_errors(alu);
    snprintf(first, size, "%s", e->count ? e->line[0] : "");
    sim_destroy(sim);
    gt_config_free(c);
    fclose(log);
}

static void test_timing_difference_is_caught(void)
{
    uint64_t n;
    char first[1024];
    lockstep_timing(50, 0, &n, first, sizeof first);
    CU_ASSERT(n > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "field cycle (response ready): c-model "));
    lockstep_timing(1, 0, &n, first, sizeof first);     /* one request of 1..4: late */
    CU_ASSERT_EQUAL(n, 1);
    lockstep_timing(1, 4, &n, first, sizeof first);     /* at most 4 cycles late */
    CU_ASSERT_EQUAL(n, 0);
}

/* ---- record and replay ------------------------------------------------------------ */

static void test_record_then_replay(void)
{
    const char *rq = tmp_path("request.rec"), *rs = tmp_path("response.rec");
    struct random_run_options o = { .impl = "record", .seed = 11, .ops = 50000,
                                    .record_request = rq, .record_response = rs,
                                    .report = stderr };
    struct random_run_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(cosim_random_run(&o, &r, &err), 0);
    CU_ASSERT(file_size(rq) > 0 && file_size(rs) > 0);

    struct replay_options ro = { .kind = "cs_alu:rtl", .lookup = cosim_kind_find,
                                 .wave_before = 300, .wave_after = 20 };
    ro.inputs[0] = rq;
    ro.expects[0] = rs;
    struct replay_result rr;
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    CU_ASSERT_EQUAL(rr.messages_in, r.requests);
    CU_ASSERT_EQUAL(rr.messages_checked, r.requests);
    CU_ASSERT_EQUAL(rr.mismatches, 0);

    /* the C model replays its own recording too */
    ro.kind = "cs_alu";
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    CU_ASSERT_EQUAL(rr.mismatches, 0);

    /* the broken RTL: caught, and a wave around the first mismatch */
    const char *wave = tmp_path("replay.fst");
    ro.kind = "cs_alu:rtl_broken";
    ro.wave = wave;
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    printf("\n    replay caught: %s ", rr.first_report);
    CU_ASSERT(rr.mismatches > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rr.first_report, "recorded 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rr.first_report, "rtl_broken 0x"));
    uint64_t t0, t1, nsig;
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(wave, &t0, &t1, &nsig), 0);
    CU_ASSERT(t0 >= (rr.first_mismatch > 300 ? rr.first_mismatch - 300 : 0) * 1000);
    CU_ASSERT(t0 <= rr.first_mismatch * 1000);
    CU_ASSERT(t1 >= rr.first_mismatch * 1000 && t1 <= (rr.first_mismatch + 21) * 1000);

    /* a recording that does not parse is an error naming file and line */
    FILE *f = fopen(tmp_path("bad.rec"), "w");
    fputs("gtsim-port-recording 1\nunit u\nkind cs_alu\nport request in\nperiod_ps 1000\n"
          "m 1 2 0 4 abc\n", f);
    fclose(f);
    ro.inputs[0] = tmp_path("bad.rec");
    ro.wave = NULL;
    ro.kind = "cs_alu:rtl";
    struct recording *rec = recording_open(ro.inputs[0], &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    struct recorded_msg m;
    CU_ASSERT_EQUAL(recording_next(rec, &m, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bad.rec:6"));
    recording_close(rec);
}

/* ---- through a config ------------------------------------------------------------- */

static void test_impl_in_config(void)
{
    static const char *const impls[] = { "rtl", "lockstep", "c" };
    for (int k = 0; k < 3; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "clocks = { gt = { mhz = 1150.0; }; };\n"
                 "gpu = { stim = { kind = \"cs_alu_stim\"; requests = 300; };\n"
                 "        cs_alu = { kind = \"cs_alu\"; impl = \"%s\"; };\n"
                 "        sink = { kind = \"cosim_sink\"; };\n"
                 "        links = ( { from = \"stim.out\"; to = \"cs_alu.request\"; },\n"
                 "                  { from = \"cs_alu.response\"; to = \"sink.in\"; } ); };\n",
                 impls[k]);
        struct gt_error err;
        struct gt_config *c = gt_config_parse(text, ".", &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        struct sim *sim = sim_create(NULL);
        CU_ASSERT_EQUAL_FATAL(topology_build(sim, c, cosim_kind_find, &err), 0);
        CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
        CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
        struct unit *alu = sim_find_unit(sim, "gpu.cs_alu");
        CU_ASSERT_PTR_NOT_NULL_FATAL(alu);
        if (k == 2) {
            CU_ASSERT_STRING_EQUAL(unit_kind(alu), "cs_alu");
        } else {
            char want[32];
            snprintf(want, sizeof want, "cs_alu:%s", impls[k]);
            CU_ASSERT_STRING_EQUAL(unit_kind(alu), want);
        }
        if (k == 1) {
            CU_ASSERT_EQUAL(cosim_finish(alu), 0);
            CU_ASSERT_EQUAL(cosim_compared(alu), 300);
        }
        sim_destroy(sim);
        gt_config_free(c);
    }
    /* the plain gtsim lookup has no RTL: a clear error */
    struct gt_error err;
    struct gt_config *c = gt_config_parse(
        "clocks = { gt = { mhz = 1.0; }; };\n"
        "gpu = { cs_alu = { kind = \"cs_alu\"; impl = \"rtl\"; }; };\n", ".", &err);
    struct sim *sim = sim_create(NULL);
    CU_ASSERT_EQUAL(topology_build(sim, c, unit_kind_find, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no 'rtl' implementation"));
    sim_destroy(sim);
    gt_config_free(c);
}

/* ---- the command line ------------------------------------------------------------ */

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* gtsim-cosim run with the example config, recording both ports and a wave,
 * then gtsim-cosim replay of the recordings: into the RTL (exit 0) and into
 * the BROKEN RTL (exit 3, mismatch lines, a wave). */
static void test_command_line(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/cs_alu_lockstep.cfg -o %s/out "
                       "--set gpu.stim.requests=300 --record-port gpu.cs_alu.request=%s/req.rec "
                       "--record-port gpu.cs_alu.response=%s/resp.rec --wave gpu.cs_alu=%s/run.fst",
                       bin, d, d, d, d), 0);
    CU_ASSERT(file_size(tmp_path("req.rec")) > 0 && file_size(tmp_path("run.fst")) > 100);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.cs_alu.compared,300,' %s/out/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.cs_alu.mismatches,0,' %s/out/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("%s replay --in %s/req.rec --expect %s/resp.rec > %s/replay.txt", bin, d,
                       d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '300 checked, 0 mismatching' %s/replay.txt", d), 0);
    CU_ASSERT_EQUAL(sh("%s replay --kind cs_alu:rtl_broken --in %s/req.rec --expect %s/resp.rec "
                       "--wave %s/broken.fst > %s/broken.txt", bin, d, d, d, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q '^cosim mismatch: unit gpu.cs_alu port response message #' "
                       "%s/broken.txt", d), 0);
    CU_ASSERT(file_size(tmp_path("broken.fst")) > 100);
    CU_ASSERT_EQUAL(sh("%s random --impl lockstep_broken --ops 3000 > /dev/null 2>&1", bin), 3);
    /* --wave FILE.fst: every unit run as RTL (here the one) */
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/cs_alu_lockstep.cfg -o %s/outw "
                       "--set gpu.stim.requests=100 --wave %s/all.fst", bin, d, d), 0);
    CU_ASSERT(file_size(tmp_path("all.fst")) > 100);
    CU_ASSERT_EQUAL(sh("grep -q 'wave = \"%s/all.fst\"' %s/outw/config.cfg", d, d), 0);
    /* two units run as RTL: each gets FILE.<unit>.fst */
    CU_ASSERT_EQUAL(sh("%s config --set gpu.cs_alu.impl=rtl --set gpu.slice.l3.impl=lockstep "
                       "--wave %s/two.fst > %s/two.cfg", bin, d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'wave = \"%s/two.gpu.cs_alu.fst\"' %s/two.cfg", d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'wave = \"%s/two.gpu.slice.l3.fst\"' %s/two.cfg", d, d), 0);
    /* the plain impl names a missing kind clearly */
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/cs_alu_lockstep.cfg -o %s/out2 "
                       "--set gpu.cs_alu.impl=vhdl 2> %s/err.txt", bin, d, d), 1);
    CU_ASSERT_EQUAL(sh("grep -q \"no 'vhdl' implementation\" %s/err.txt", d), 0);
}


/* ---- the L3 ------------------------------------------------------------------------ */

enum { L3_READS, L3_WRITES, L3_ATOMICS, L3_HITS, L3_MISSES, L3_MERGED, L3_EVICTIONS,
       L3_WRITEBACKS, L3_URB, L3_UNCACHED, L3_MSHR_STALLS, L3_QUEUE_CYCLES, L3_REPLY_STALLS,
       L3_UNEXPECTED, L3_RO_READS, L3_SLM_UNALLOCATED, L3_REPROGRAMS, L3_VIOLATIONS,
       L3_REJECTED };

static void l3_run(const struct l3_random_options *o, struct l3_random_result *r)
{
    struct gt_error err;
    int rc = l3_random_run(o, r, &err);
    if (rc < 0)
        printf("\n    l3_random_run: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

/* The bank alone through l3_rtl.h, cycles and victims worked out by hand from
 * units/l3/l3.h's rules (not from the C unit): 2 ways, hit 5, fill 2, URB 3,
 * atomics hold the bank 2 cycles; lines 0x100, 0x120, 0x140, 0x160 share set 0.
 * Returns the evictions' writebacks seen when C is filled (0 when the LRU
 * works: A is clean). */
static uint32_t l3_bank_by_hand(enum l3_rtl_variant variant)
{
    struct l3_rtl *r = l3_rtl_create(variant, false);
    struct l3_rtl_cfg cfg = { 2, 4, 5, 2, 3, 2, 1, 0, 0, false };
    l3_rtl_reset(r, &cfg);
    struct l3_rtl_reply rep;
    uint64_t line;
    uint8_t op;
    bool wb;
    uint32_t early_writebacks = 0;
#define REQ(addr, tag, o, t) (&(struct l3_rtl_req){ (addr), (tag), (tag) + 100, (o), (t), 1 })
    /* a read miss of A: one memory read, the reply 2 cycles after the fill */
    l3_rtl_enq(r, 1, REQ(0x100 * 64, 1, 0, 0));
    l3_rtl_serve(r, 1);
    CU_ASSERT_FALSE(l3_rtl_reply_head(r, &rep));
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb));
    CU_ASSERT(line == 0x100 && op == 0 && !wb);
    l3_rtl_mem_pop(r, 1);
    l3_rtl_fill(r, 10, 0x100 * 64, 0);
    CU_ASSERT_TRUE_FATAL(l3_rtl_reply_head(r, &rep));
    CU_ASSERT(rep.due == 12 && rep.tag == 1 && rep.mtag == 101 && !rep.hit && rep.port == 1);
    l3_rtl_reply_pop(r, 12);
    /* a hit: 5 cycles */
    l3_rtl_enq(r, 13, REQ(0x100 * 64 + 8, 2, 0, 0));
    l3_rtl_serve(r, 13);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.due == 18 && rep.hit && rep.tag == 2);
    l3_rtl_reply_pop(r, 18);
    /* B written (miss, dirty on fill into way 1), then C and D: with LRU bits
     * {1,1} C clears them and takes way 0 (A, clean: no writeback); D takes
     * way 1 (B, dirty: written back) */
    const uint64_t lines[3] = { 0x120, 0x140, 0x160 };
    for (int k = 0; k < 3; k++) {
        uint64_t now = 20 + 10 * (uint64_t)k;
        l3_rtl_enq(r, now, REQ(lines[k] * 64, 3 + (uint32_t)k, k == 0 ? 1 : 0, 0));
        l3_rtl_serve(r, now);
        CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == lines[k] && !wb);
        l3_rtl_mem_pop(r, now);
        l3_rtl_fill(r, now + 5, lines[k] * 64, 0);
        if (k == 1)
            while (l3_rtl_mem_head(r, &line, &op, &wb)) {
                early_writebacks++;
                l3_rtl_mem_pop(r, now + 5);
            }
        CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.due == now + 7 && !rep.hit);
        l3_rtl_reply_pop(r, now + 7);
    }
    if (variant == L3_RTL_GOOD) {
        CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb));
        CU_ASSERT(line == 0x120 && op == 1 && wb);                  /* B written back */
        l3_rtl_mem_pop(r, 45);
    }
    /* two reads of E in one frame each: one memory read, the second merged;
     * the fill releases both, in arrival order */
    l3_rtl_enq(r, 50, REQ(0x180 * 64, 7, 0, 0));
    l3_rtl_enq(r, 50, REQ(0x180 * 64, 8, 0, 0));
    l3_rtl_serve(r, 50);
    l3_rtl_serve(r, 51);
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == 0x180);
    l3_rtl_mem_pop(r, 51);
    CU_ASSERT_FALSE(l3_rtl_mem_head(r, &line, &op, &wb));
    l3_rtl_fill(r, 60, 0x180 * 64, 0);
    CU_ASSERT_EQUAL(l3_rtl_reply_count(r), 2);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.tag == 7 && rep.due == 62);
    l3_rtl_reply_pop(r, 62);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.tag == 8 && rep.due == 62);
    l3_rtl_reply_pop(r, 62);
    /* URB: no tags, 3 cycles; an atomic hit holds the bank 2 cycles */
    l3_rtl_enq(r, 70, REQ(0x5000, 9, 0, 1));
    l3_rtl_serve(r, 70);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.tag == 9 && rep.due == 73 && rep.hit);
    l3_rtl_reply_pop(r, 73);
    l3_rtl_enq(r, 80, REQ(0x180 * 64, 10, 2, 0));
    l3_rtl_enq(r, 80, REQ(0x180 * 64, 11, 0, 0));
    l3_rtl_serve(r, 80);
    l3_rtl_serve(r, 81);
    CU_ASSERT_EQUAL(l3_rtl_queue_count(r), 1);                      /* held */
    l3_rtl_serve(r, 82);
    CU_ASSERT_EQUAL(l3_rtl_queue_count(r), 0);
    CU_ASSERT_EQUAL(l3_rtl_reply_count(r), 2);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.tag == 10 && rep.due == 85);
    struct l3_rtl_stats st;
    l3_rtl_stats(r, &st);
    CU_ASSERT(st.reads == 7 && st.writes == 1 && st.atomics == 1 && st.urb_accesses == 1);
    /* hits: A, the atomic and the read of E; misses A B C D E E (merged) */
    CU_ASSERT(st.hits == 3 && st.misses == 6 && st.merged_misses == 1);
    CU_ASSERT(st.queue_cycles == 2);        /* serves at 50 and 80 with two queued */
    /* E (0x180) is in set 0 too: its fill evicts C (bits {1,1} cleared, way 0) */
    if (variant == L3_RTL_GOOD)
        CU_ASSERT(st.evictions == 3 && st.writebacks == 1);
    CU_ASSERT_FALSE(l3_rtl_overflow(r));
#undef REQ
    l3_rtl_destroy(r);
    return early_writebacks;
}

static void test_l3_bank_by_hand(void)
{
    CU_ASSERT_EQUAL(l3_bank_by_hand(L3_RTL_GOOD), 0);
    /* BROKEN evicts B (dirty) instead of A when C is filled */
    CU_ASSERT_EQUAL(l3_bank_by_hand(L3_RTL_BROKEN), 1);
}

/* Two banks with DC | Rest | RO pools, then an L3CNTLREG flush, through
 * l3_rtl.h; lines, ways and write-back order worked out by hand from
 * units/l3/l3.h's rules (not from the C unit): 4 ways, DC = way 0, RO = way 3,
 * so R/W data fills ways 0..2 and RO data ways 1..3; a line's bank is
 * line mod 2, its set (line / 2) mod 32. */
static void test_l3_slice_by_hand(void)
{
    struct l3_rtl *r = l3_rtl_create(L3_RTL_GOOD, false);
    struct l3_rtl_cfg cfg = { 4, 4, 5, 2, 3, 2, 2, 1, 1, false };
    l3_rtl_reset(r, &cfg);
    struct l3_rtl_reply rep;
    uint64_t line;
    uint8_t op;
    bool wb;
#define SREQ(ln, tag, o, t) (&(struct l3_rtl_req){ (ln) * 64, (tag), (tag), (o), (t), 0 })
    /* write miss of 0x100 (bank 0, set 0): R/W pool, LRU picks way 0, dirty */
    l3_rtl_enq(r, 1, SREQ(0x100, 1, 1, 0));
    CU_ASSERT_EQUAL(l3_rtl_bank_queue_count(r, 0), 1);
    CU_ASSERT_EQUAL(l3_rtl_bank_queue_count(r, 1), 0);
    l3_rtl_serve(r, 1);
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == 0x100 && op == 0 && !wb);
    l3_rtl_mem_pop(r, 1);
    l3_rtl_fill(r, 5, 0x100 * 64, 0);
    CU_ASSERT_TRUE(l3_rtl_reply_head(r, &rep) && rep.tag == 1 && rep.due == 7 && !rep.hit);
    l3_rtl_reply_pop(r, 7);
    /* RO read miss of 0x101 (bank 1, set 0): RO pool, first way 1; clean */
    l3_rtl_enq(r, 8, SREQ(0x101, 2, 0, 4));
    CU_ASSERT_EQUAL(l3_rtl_bank_queue_count(r, 1), 1);
    l3_rtl_serve(r, 8);
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == 0x101);
    l3_rtl_mem_pop(r, 8);
    l3_rtl_fill(r, 12, 0x101 * 64, 0);
    l3_rtl_reply_pop(r, 14);
    /* write miss of 0x141 (bank 1, set 0): R/W pool, way 1 taken: way 0, dirty */
    l3_rtl_enq(r, 15, SREQ(0x141, 3, 1, 0));
    l3_rtl_serve(r, 15);
    l3_rtl_mem_pop(r, 15);
    l3_rtl_fill(r, 20, 0x141 * 64, 0);
    l3_rtl_reply_pop(r, 22);
    /* both bank-1 lines hit; an SLM request with no SLM partition is counted */
    l3_rtl_enq(r, 23, SREQ(0x101, 4, 0, 4));
    l3_rtl_enq(r, 23, SREQ(0x141, 5, 0, 0));
    l3_rtl_enq(r, 23, SREQ(0x40, 6, 0, 2));
    l3_rtl_serve(r, 23);            /* bank 0: the SLM request, bank 1: 0x101 */
    l3_rtl_serve(r, 24);            /* bank 1: 0x141 */
    CU_ASSERT_EQUAL(l3_rtl_queue_count(r), 0);
    CU_ASSERT_EQUAL(l3_rtl_reply_count(r), 3);
    CU_ASSERT_FALSE(l3_rtl_mem_head(r, &line, &op, &wb));
    while (l3_rtl_reply_head(r, &rep)) {
        CU_ASSERT(rep.hit);
        l3_rtl_reply_pop(r, 30);
    }
    /* write miss of 0x181 (bank 1, set 0): ways 0 and 1 have their bit: way 2 */
    l3_rtl_enq(r, 40, SREQ(0x181, 9, 1, 0));
    l3_rtl_serve(r, 40);
    l3_rtl_mem_pop(r, 40);
    l3_rtl_fill(r, 45, 0x181 * 64, 0);
    CU_ASSERT_FALSE(l3_rtl_mem_head(r, &line, &op, &wb));
    /* write miss of 0x1c1: the R/W pool's bits all set: cleared, way 0 taken,
     * so dirty 0x141 is evicted and written back (the RO line in way 1 stays) */
    l3_rtl_enq(r, 50, SREQ(0x1c1, 10, 1, 0));
    l3_rtl_serve(r, 50);
    l3_rtl_mem_pop(r, 50);
    l3_rtl_fill(r, 55, 0x1c1 * 64, 0);
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == 0x141 && op == 1 && wb);
    l3_rtl_mem_pop(r, 55);
    /* L3CNTLREG applied: the dirty lines written back in bank, set, way order
     * (0x100 of bank 0; 0x1c1 in way 0 and 0x181 in way 2 of bank 1; the RO
     * line is clean), everything invalid */
    l3_rtl_program(r, 60, 4, 0, 0, true);
    CU_ASSERT_EQUAL(l3_rtl_mem_count(r), 3);
    static const uint64_t flushed[3] = { 0x100, 0x1c1, 0x181 };
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == flushed[i] && op == 1 &&
                       wb);
        l3_rtl_mem_pop(r, 60);
    }
    l3_rtl_enq(r, 61, SREQ(0x101, 7, 0, 0));
    l3_rtl_enq(r, 61, SREQ(0x40, 8, 0, 2));
    l3_rtl_serve(r, 61);
    CU_ASSERT_TRUE(l3_rtl_mem_head(r, &line, &op, &wb) && line == 0x101 && !wb);   /* a miss */
    struct l3_rtl_stats st;
    l3_rtl_stats(r, &st);
    CU_ASSERT_EQUAL(st.writebacks, 4);
    CU_ASSERT_EQUAL(st.ro_reads, 2);
    CU_ASSERT_EQUAL(st.hits, 2);
    CU_ASSERT_EQUAL(st.misses, 6);
    CU_ASSERT_EQUAL(st.evictions, 1);
    CU_ASSERT_EQUAL(st.urb_accesses, 2);
    CU_ASSERT_EQUAL(st.slm_unallocated, 1);     /* SLM on after the write */
    CU_ASSERT_FALSE(l3_rtl_overflow(r));
#undef SREQ
    l3_rtl_destroy(r);
}

/* The fill pools' corners (l3_directed.h, expected hits worked out by hand):
 * the RTL as written passes all four; the BROKEN RTL (a full pool evicts its
 * second way) fails the two that fill a pool past its ways. The two pool
 * mutants these were written for are run by the mutation runner. */
static void test_l3_pools_by_hand(void)
{
    CU_ASSERT_EQUAL(l3_pool_checks(L3_RTL_GOOD, stdout), 0);
    CU_ASSERT_EQUAL(l3_pool_checks(L3_RTL_BROKEN, NULL), 2);
}

/* Seeded random traffic from three clients, in lockstep: every reply (by tag
 * per client) and memory request compared, fields and cycle exactly, and the
 * counters at the end. With and without back-pressure on replies and memory.
 * The traffic must have reached every path of the L3. */
static void test_l3_random_lockstep(void)
{
    static const struct { uint64_t seed; uint32_t pop, memcap; } runs[] = {
        { 1, 1000, 2 }, { 2, 350, 1 }, { 3, 700, 16 }, { 4, 120, 1 },
    };
    uint64_t total = 0;
    for (unsigned k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        struct l3_random_options o = { .impl = "lockstep", .seed = runs[k].seed,
                                       .requests = 12000, .pop_permille = runs[k].pop,
                                       .memory_capacity = runs[k].memcap, .report = stderr };
        struct l3_random_result r;
        l3_run(&o, &r);
        CU_ASSERT_EQUAL(r.mismatches, 0);
        CU_ASSERT_EQUAL(r.sent, 3 * 12000);
        CU_ASSERT_EQUAL(r.received, r.sent);
        CU_ASSERT_EQUAL(r.bad_replies, 0);
        /* every reply and every memory request was compared */
        CU_ASSERT_EQUAL(r.compared, r.received + r.memory_requests);
        CU_ASSERT(r.stats[L3_HITS] > 1000 && r.stats[L3_MISSES] > 1000);
        CU_ASSERT(r.stats[L3_MERGED] > 50 && r.stats[L3_EVICTIONS] > 500);
        CU_ASSERT(r.stats[L3_WRITEBACKS] > 200 && r.stats[L3_ATOMICS] > 500);
        CU_ASSERT(r.stats[L3_URB] > 500 && r.stats[L3_UNCACHED] > 500);
        CU_ASSERT(r.stats[L3_MSHR_STALLS] > 0 && r.stats[L3_REPLY_STALLS] > 0);
        /* the requests add up: every one counted once by kind */
        CU_ASSERT_EQUAL(r.stats[L3_READS] + r.stats[L3_WRITES] + r.stats[L3_ATOMICS] +
                        r.stats[L3_URB] + r.stats[L3_UNCACHED], r.sent);
        CU_ASSERT_EQUAL(r.stats[L3_HITS] + r.stats[L3_MISSES],
                        r.stats[L3_READS] + r.stats[L3_WRITES] + r.stats[L3_ATOMICS]);
        if (r.mismatches)
            printf("\n    seed %" PRIu64 ": %s\n", o.seed, r.first_report);
        total += r.compared;
    }
    printf("\n    %" PRIu64 " L3 messages compared ", total);
}

/* Runs o with impl "c", then "rtl", and requires the same run: cycles,
 * replies, latencies, memory requests and every counter (o->impl is left
 * "rtl"). */
static void l3_run_c_then_rtl(struct l3_random_options *o, struct l3_random_result *c,
                              struct l3_random_result *rtl)
{
    o->impl = "c";
    l3_run(o, c);
    o->impl = "rtl";
    l3_run(o, rtl);
    CU_ASSERT_EQUAL(rtl->cycles, c->cycles);
    CU_ASSERT_EQUAL(rtl->received, c->received);
    CU_ASSERT_EQUAL(rtl->latency_cycles, c->latency_cycles);
    CU_ASSERT_EQUAL(rtl->memory_requests, c->memory_requests);
    for (int i = 0; i < L3_RANDOM_STATS; i++) {
        if (rtl->stats[i] != c->stats[i])
            printf("\n    %s: c %" PRIu64 ", rtl %" PRIu64, l3_random_stat_names[i],
                   c->stats[i], rtl->stats[i]);
        CU_ASSERT_EQUAL(rtl->stats[i], c->stats[i]);
    }
}

/* The RTL alone behind the ports gives the C unit's run: the same cycles, the
 * same latencies seen by the requesters, the same counters. */
static void test_l3_rtl_equals_c(void)
{
    struct l3_random_options o = { .impl = "c", .seed = 5, .requests = 8000, .pop_permille = 500,
                                   .memory_capacity = 1, .report = stderr };
    struct l3_random_result c, rtl;
    l3_run_c_then_rtl(&o, &c, &rtl);
    CU_ASSERT(rtl.rtl_clocks > rtl.cycles / 2);
    /* the broken RTL alone gives another run */
    o.impl = "rtl_broken";
    struct l3_random_result bad;
    l3_run(&o, &bad);
    CU_ASSERT(bad.latency_cycles != c.latency_cycles || bad.stats[L3_HITS] != c.stats[L3_HITS]);
}

/* A slice of 2, 3 and 4 banks in lockstep, with read-only data, SLM and
 * random L3CNTLREG writes (flushes of dirty lines, DC | Rest | RO pools,
 * rejected writes) besides the traffic above: nothing differs, and every one
 * of those paths was reached. */
static void test_l3_random_slice_lockstep(void)
{
    FILE *quiet = fopen("/dev/null", "w");     /* the rule warnings of the random writes */
    static const struct { uint64_t seed; uint32_t banks, pop, memcap, program; } runs[] = {
        { 21, 4, 1000, 2, 1 }, { 22, 2, 350, 1, 2 }, { 23, 3, 700, 16, 1 }, { 24, 4, 200, 1, 3 },
    };
    uint64_t total = 0, evictions = 0;
    for (unsigned k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        struct l3_random_options o = { .impl = "lockstep", .seed = runs[k].seed,
                                       .requests = 8000, .banks = runs[k].banks,
                                       .pop_permille = runs[k].pop,
                                       .memory_capacity = runs[k].memcap, .ro_permille = 300,
                                       .slm_permille = 300, .program_permille = runs[k].program,
                                       .report = quiet };
        struct l3_random_result r;
        l3_run(&o, &r);
        CU_ASSERT_EQUAL(r.mismatches, 0);
        CU_ASSERT_EQUAL(r.received, 3 * 8000);
        CU_ASSERT_EQUAL(r.bad_replies, 0);
        CU_ASSERT_EQUAL(r.compared, r.received + r.memory_requests);
        CU_ASSERT(r.stats[L3_HITS] > 1000 && r.stats[L3_MISSES] > 500);
        CU_ASSERT(r.stats[L3_WRITEBACKS] > 100);   /* evictions and flushes */
        evictions += r.stats[L3_EVICTIONS];
        CU_ASSERT(r.stats[L3_RO_READS] > 1000 && r.stats[L3_SLM_UNALLOCATED] > 50);
        CU_ASSERT(r.stats[L3_REPROGRAMS] > 5 && r.stats[L3_REJECTED] > 0);
        CU_ASSERT(r.stats[L3_VIOLATIONS] > 0 && r.stats[L3_MSHR_STALLS] > 0);
        if (r.mismatches)
            printf("\n    seed %" PRIu64 ": %s\n", o.seed, r.first_report);
        total += r.compared;
    }
    fclose(quiet);
    CU_ASSERT(evictions > 200);
    printf("\n    %" PRIu64 " L3 messages compared ", total);
}

/* The slice RTL alone (4 banks, RO, SLM, L3CNTLREG writes) gives the C unit's
 * run: cycles, latencies, every counter including the partition's. */
static void test_l3_slice_rtl_equals_c(void)
{
    FILE *quiet = fopen("/dev/null", "w");
    struct l3_random_options o = { .impl = "c", .seed = 31, .requests = 6000, .banks = 4,
                                   .pop_permille = 500, .memory_capacity = 1,
                                   .ro_permille = 300, .slm_permille = 300,
                                   .program_permille = 2, .report = quiet };
    struct l3_random_result c, rtl;
    l3_run_c_then_rtl(&o, &c, &rtl);
    CU_ASSERT(c.stats[L3_REPROGRAMS] > 0 && c.stats[L3_RO_READS] > 0);
    fclose(quiet);
}

/* The BROKEN RTL (the LRU evicts way 1 when every bit is set) in lockstep: the
 * checker reports it naming unit, port, message, field, both values, cycle;
 * the wave is written. */
static void test_l3_broken_is_caught(void)
{
    const char *wave = tmp_path("l3_broken.fst");
    FILE *quiet = fopen("/dev/null", "w");
    struct l3_random_options o = { .impl = "lockstep_broken", .seed = 1, .requests = 3000,
                                   .wave = wave, .report = quiet };
    struct l3_random_result r;
    l3_run(&o, &r);
    fclose(quiet);
    o.report = NULL;
    printf("\n    caught: %s ", r.first_report);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT(r.first_mismatch < r.cycles);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "cosim mismatch: unit gpu.l3 port "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "c-model "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, ", rtl "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, " cycle "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, ": field "));
    CU_ASSERT(file_size(wave) > 100);
    /* the good RTL with a cycle tolerance still matches; lockstep is deterministic */
    o.impl = "lockstep";
    o.wave = NULL;
    l3_run(&o, &r);
    CU_ASSERT_EQUAL(r.mismatches, 0);
}

/* Record the C unit's four ports in a run (no back-pressure on its outputs, as
 * replay assumes), replay them into the RTL alone: every reply and memory
 * request at its recorded cycle; the BROKEN RTL is caught. */
static void test_l3_record_then_replay(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/l3rec", tmpdir);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0777), 0);
    struct l3_random_options o = { .impl = "c", .seed = 9, .requests = 6000, .clients = 1,
                                   .reply_capacity = 64, .memory_capacity = 64, .width = 8,
                                   .record_dir = dir, .report = stderr };
    struct l3_random_result r;
    l3_run(&o, &r);
    CU_ASSERT_EQUAL(r.stats[L3_REPLY_STALLS], 0);
    CU_ASSERT(r.stats[L3_EVICTIONS] > 100 && r.stats[L3_WRITEBACKS] > 50);
    char in0[600], in1[600], ex0[600], ex1[600];
    snprintf(in0, sizeof in0, "%s/client.rec", dir);
    snprintf(in1, sizeof in1, "%s/memory_reply.rec", dir);
    snprintf(ex0, sizeof ex0, "%s/client_reply.rec", dir);
    snprintf(ex1, sizeof ex1, "%s/memory.rec", dir);
    struct replay_options ro = { .kind = "l3:rtl", .lookup = cosim_kind_find,
                                 .wave_before = 300, .wave_after = 20 };
    ro.inputs[0] = in0;
    ro.inputs[1] = in1;
    ro.expects[0] = ex0;
    ro.expects[1] = ex1;
    static const char *const sets[] = { "banks=1", "size_kib=64", "cache_kib=8", "urb_kib=32",
                                        "way_kib=2", "misses=6", "bank_queue=8",
                                        "hit_latency=12", "fill_latency=3", "urb_latency=7",
                                        "atomic_cycles=3", NULL };
    for (int i = 0; sets[i]; i++)
        ro.sets[i] = sets[i];
    struct replay_result rr;
    struct gt_error err;
    int rc = cosim_replay(&ro, &rr, &err);
    if (rc < 0)
        printf("\n    replay: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    if (rr.mismatches)
        printf("\n    replay: %s\n", rr.first_report);
    CU_ASSERT_EQUAL(rr.mismatches, 0);
    CU_ASSERT_EQUAL(rr.messages_checked, r.received + r.memory_requests);
    CU_ASSERT_EQUAL(rr.messages_in, r.sent + r.memory_requests);  /* writebacks are replied to */
    /* the C unit replays its own recording too */
    ro.kind = "l3";
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    CU_ASSERT_EQUAL(rr.mismatches, 0);
    ro.kind = "l3:rtl_broken";
    ro.report = NULL;
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    printf("\n    replay caught: %s ", rr.first_report);
    CU_ASSERT(rr.mismatches > 0);
}

/* Every Gen8/Gen9 trace with the CS ALU as rtl and lockstep gives the C
 * model's stats for every unit but the ALU itself (whose adapter kinds keep
 * their own counters: requests, responses, compared ...), with 0 mismatches.
 * None of the captures runs MI_MATH (the MI_MATH capture of our own does,
 * test_mi_math_workload), so this shows the RTL in the full machine on real
 * work leaves the run as it was. */
static void test_cs_alu_on_every_trace(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    static const char *const traces[] = { "skl_compute", "skl_tri", "bdw_compute", "bdw_tri" };
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    const char *d = tmpdir;
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL(sh("%s run -q tests/data/traces/%s.aub.gz --set gpu.cs_alu.impl=%s "
                               "-o %s/alu_%s_%s", bin, traces[t], impls[k], d, traces[t],
                               impls[k]), 0);
            CU_ASSERT_EQUAL(sh("grep -v '^gpu.cs_alu\\.' %s/alu_%s_%s/stats.csv > %s/alu_%s_%s.csv",
                               d, traces[t], impls[k], d, traces[t], impls[k]), 0);
        }
        CU_ASSERT_EQUAL(sh("grep -q '^gpu.cs.commands,[1-9]' %s/alu_%s_c.csv", d, traces[t]), 0);
        CU_ASSERT_EQUAL(sh("cmp -s %s/alu_%s_c.csv %s/alu_%s_rtl.csv", d, traces[t], d,
                           traces[t]), 0);
        CU_ASSERT_EQUAL(sh("cmp -s %s/alu_%s_c.csv %s/alu_%s_lockstep.csv", d, traces[t], d,
                           traces[t]), 0);
        CU_ASSERT_EQUAL(sh("grep -q '^gpu.cs_alu.mismatches,0,' %s/alu_%s_lockstep/stats.csv", d,
                           traces[t]), 0);
    }
}

/* Replay of L3 traffic recorded from the real traces: gtsim-cosim run records
 * every port of the slice's L3 (three data port clients and their replies,
 * the memory side, the CS's L3CNTLREG writes) while the capture runs on its
 * own generation's machine with the C L3; the recordings then drive the L3
 * alone. The C unit must replay its own traffic exactly (the recording is
 * complete), and so must the RTL: every reply and memory request, fields and
 * cycle. `expect_replies` is the requests the trace makes of the L3 (tests
 * in tests/integration check the data, here the stats say how many). */
static long count_messages(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    long n = 0;
    bool at_start = true;
    while (fgets(line, sizeof line, f)) {
        n += at_start && line[0] == 'm' && line[1] == ' ';
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return n;
}

static void replay_l3_of_trace(const char *trace)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    char dir[600];
    snprintf(dir, sizeof dir, "%s/trace_%s", tmpdir, trace);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0777), 0);
    /* how many clients the machine links to the L3 (the unslice's VF, SOL
     * and URB, the data ports, the instruction caches, the samplers, the
     * render cache): a first run's stats name every client port */
    CU_ASSERT_EQUAL_FATAL(sh("%s run -q -o %s/plain tests/data/traces/%s.aub.gz", bin, dir,
                             trace), 0);
    int clients = 0;
    for (; clients < 32; clients++)
        if (sh("grep -q '^gpu.slice0.l3.port.client.%d.received,' %s/plain/stats.csv", clients,
               dir) != 0)
            break;
    CU_ASSERT_FATAL(clients >= 3 && clients <= 31);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.port.client.%d.received,' %s/plain/stats.csv",
                       clients, dir), 1);
    /* inputs: every client, memory_reply, cs; outputs: every client_reply, memory */
    char ports[68][32];
    int nin = 0, nout = 0;
    for (int i = 0; i < clients; i++)
        snprintf(ports[nin++], sizeof ports[0], "client[%d]", i);
    snprintf(ports[nin++], sizeof ports[0], "memory_reply");
    snprintf(ports[nin++], sizeof ports[0], "cs");
    for (int i = 0; i < clients; i++)
        snprintf(ports[nin + nout++], sizeof ports[0], "client_reply[%d]", i);
    snprintf(ports[nin + nout++], sizeof ports[0], "memory");
    static char files[68][700];
    char cmd[8192];
    int len = snprintf(cmd, sizeof cmd, "%s run -q -o %s/out tests/data/traces/%s.aub.gz", bin,
                       dir, trace);
    for (int i = 0; i < nin + nout; i++) {
        snprintf(files[i], sizeof files[i], "%s/%d.rec", dir, i);
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " --record-port "
                        "'gpu.slice0.l3.%s=%s'", ports[i], files[i]);
    }
    CU_ASSERT_EQUAL_FATAL(sh("%s", cmd), 0);
    /* recording changes nothing: the same stats as the plain run */
    CU_ASSERT_EQUAL(sh("cmp -s %s/plain/stats.csv %s/out/stats.csv", dir, dir), 0);
    long recorded_out = 0, replies = 0;
    for (int i = nin; i < nin + nout; i++)
        recorded_out += count_messages(files[i]);
    for (int i = nin; i < nin + clients; i++)
        replies += count_messages(files[i]);
    /* the first client with replies (the unslice's VF, SOL and URB come
     * first and are idle in a compute trace) */
    int busy = 0;
    while (busy + 1 < clients && count_messages(files[nin + busy]) == 0)
        busy++;
    CU_ASSERT(count_messages(files[nin + busy]) > 0);
    /* the run's own counters say how many replies the L3 sent */
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.port.client_reply.%d.sent,%ld,' %s/out/stats.csv",
                       busy, count_messages(files[nin + busy]), dir), 0);
    CU_ASSERT(replies > 100);
    /* a port holds several observers: the same replies recorded from an
     * l3:lockstep run (whose adapter watches its own ports) */
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/lockstep --set gpu.slice.l3.impl=lockstep "
                       "--record-port 'gpu.slice0.l3.client_reply[%d]=%s/lockstep.rec' "
                       "tests/data/traces/%s.aub.gz", bin, dir, busy, dir, trace), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.mismatches,0,' %s/lockstep/stats.csv", dir), 0);
    CU_ASSERT_EQUAL(sh("cmp -s %s %s/lockstep.rec", files[nin + busy], dir), 0);
    static const char *const kinds[] = { "l3", "l3:rtl" };
    for (int k = 0; k < 2; k++) {
        struct replay_options ro = { .kind = kinds[k], .lookup = cosim_kind_find,
                                     .wave_before = 300, .wave_after = 20, .report = stderr };
        for (int i = 0; i < nin; i++)
            ro.inputs[i] = files[i];
        for (int i = 0; i < nout; i++)
            ro.expects[i] = files[nin + i];
        struct replay_result rr;
        struct gt_error err;
        int rc = cosim_replay(&ro, &rr, &err);
        if (rc < 0)
            printf("\n    %s replay (%s): %s\n", trace, kinds[k], err.message);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(rr.mismatches, 0);
        CU_ASSERT_EQUAL(rr.messages_checked, (uint64_t)recorded_out);
        printf("\n    %s, %s: %d clients, %" PRIu64 " messages in, %" PRIu64 " checked, %"
               PRIu64 " mismatching", trace, kinds[k], clients, rr.messages_in,
               rr.messages_checked, rr.mismatches);
    }
}

static void test_l3_replay_skl_compute(void) { replay_l3_of_trace("skl_compute"); }
static void test_l3_replay_bdw_compute(void) { replay_l3_of_trace("bdw_compute"); }

/* The example config through gtsim-cosim run: impl = "c", "lockstep" and
 * "rtl" give the same stats (the L3's, the requesters', memory's), apart from
 * the co-simulation's own counters and the simulator's message peak. */
static void test_l3_config(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    const char *d = tmpdir;
    static const char *const impls[] = { "c", "lockstep", "rtl" };
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/l3_lockstep.cfg -o %s/l3_%s "
                           "--set gpu.l3.impl=%s", bin, d, impls[k], impls[k]), 0);
        CU_ASSERT_EQUAL(sh("grep -v -e '^gpu.l3.rtl_clocks,' -e '^gpu.l3.compared,' "
                           "-e '^gpu.l3.mismatches,' -e '^gpu.l3.unmatched,' "
                           "-e '^sim.messages_peak,' %s/l3_%s/stats.csv > %s/l3_%s.csv", d,
                           impls[k], d, impls[k]), 0);
    }
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.l3.writebacks,[1-9]' %s/l3_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.stim.received,12000,' %s/l3_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("cmp -s %s/l3_c.csv %s/l3_lockstep.csv", d, d), 0);
    CU_ASSERT_EQUAL(sh("cmp -s %s/l3_c.csv %s/l3_rtl.csv", d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.l3.mismatches,0,' %s/l3_lockstep/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.l3.compared,[1-9]' %s/l3_lockstep/stats.csv", d), 0);
    /* the broken RTL in the same machine: a nonzero exit is not promised, the
     * mismatch count is */
    sh("%s run -q -c rtl-cosim/configs/l3_lockstep.cfg -o %s/l3_bad "
       "--set gpu.l3.impl=lockstep_broken 2> %s/l3_bad.txt", bin, d, d);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.l3.mismatches,[1-9]' %s/l3_bad/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'cosim mismatch: unit gpu.l3 port' %s/l3_bad.txt", d), 0);
}


/* gtsim-cosim run records the C L3's four ports with --record-port on the
 * example machine (one requester, no back-pressure on the L3's outputs, as
 * replay assumes); gtsim-cosim replay drives the RTL alone from them (exit 0)
 * and the BROKEN RTL (exit 3, a mismatch line); --wave dumps the lockstep RTL. */
static void test_l3_command_line(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/l3_lockstep.cfg -o %s/l3cli "
                       "--set gpu.l3.impl=c --set gpu.stim.clients=1 "
                       "--set gpu.stim.pop_permille=1000 --set link_defaults.width=4 "
                       "--set link_defaults.capacity=64 "
                       "--record-port 'gpu.l3.client[0]=%s/l3c.rec' "
                       "--record-port gpu.l3.memory_reply=%s/l3mr.rec "
                       "--record-port 'gpu.l3.client_reply[0]=%s/l3cr.rec' "
                       "--record-port gpu.l3.memory=%s/l3m.rec", bin, d, d, d, d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.l3.reply_stalls,0,' %s/l3cli/stats.csv", d), 0);
    const char *sets = "--set banks=1 --set size_kib=64 --set cache_kib=8 --set urb_kib=32 "
                       "--set way_kib=2 --set misses=8 --set bank_queue=12";
    CU_ASSERT_EQUAL(sh("%s replay --kind l3:rtl --in %s/l3c.rec --in %s/l3mr.rec --expect "
                       "%s/l3cr.rec --expect %s/l3m.rec %s > %s/l3replay.txt", bin, d, d, d, d,
                       sets, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q ' 0 mismatching' %s/l3replay.txt", d), 0);
    CU_ASSERT_EQUAL(sh("%s replay --kind l3:rtl_broken --in %s/l3c.rec --in %s/l3mr.rec "
                       "--expect %s/l3cr.rec --expect %s/l3m.rec %s > %s/l3bad.txt", bin, d, d,
                       d, d, sets, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q '^cosim mismatch: unit gpu.l3 port ' %s/l3bad.txt", d), 0);
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/l3_lockstep.cfg -o %s/l3wave "
                       "--set gpu.stim.requests=300 --wave gpu.l3=%s/l3.fst", bin, d, d), 0);
    CU_ASSERT(file_size(tmp_path("l3.fst")) > 100);
    /* l3-random: the BROKEN RTL gives exit status 3 and a wave around the mismatch */
    CU_ASSERT_EQUAL(sh("%s l3-random --impl lockstep_broken --requests 1000 --wave %s/l3r.fst "
                       "> %s/l3r.txt 2>&1", bin, d, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q 'first mismatch at cycle' %s/l3r.txt", d), 0);
    CU_ASSERT(file_size(tmp_path("l3r.fst")) > 100);
    CU_ASSERT_EQUAL(sh("%s l3-random --requests 1000 > %s/l3ok.txt", bin, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q ', 0 mismatching' %s/l3ok.txt", d), 0);
}

/* ---- the L3 in whole machines ------------------------------------------------------ */

static void cosim_bin(char *bin, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", bin, size - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
}

/* The only rows an l3:rtl or l3:lockstep adds to a run's stats.csv: the
 * adapter's own counters, one set per slice. */
#define L3_ADAPTER_ROWS "-e '^gpu\\.slice[0-9]*\\.l3\\.\\(rtl_clocks\\|compared\\|mismatches\\|unmatched\\),'"

struct l3_machine {
    const char *name, *config, *workload;
    const char *sets;           /* more --set options, or "" */
    const char *dump;           /* "ADDR:BYTES" of the result buffer, or NULL */
    uint32_t slices;
    bool traffic;               /* the L3s take requests (not only L3CNTLREG writes) */
};

/* A real machine with its slices' L3 as the C unit, as the RTL alone and in
 * lockstep: every stats.csv row equal (but the adapter's own), the result
 * buffer equal, lockstep without a mismatch in any slice and, where the L3s
 * had traffic, with replies compared in every slice. The expected values are
 * the C unit's run. */
static void l3_machine_run(const struct l3_machine *m)
{
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    for (int k = 0; k < 3; k++) {
        char dump[600] = "";
        if (m->dump)
            snprintf(dump, sizeof dump, "--dump %s:%s/%s_%s.bin", m->dump, d, m->name, impls[k]);
        int rc = sh("%s run -q -c %s -o %s/%s_%s --set gpu.slice.l3.impl=%s %s %s %s "
                    "> %s/%s_%s.log 2>&1", bin, m->config, d, m->name, impls[k], impls[k],
                    m->sets, dump, m->workload, d, m->name, impls[k]);
        if (rc != 0)
            printf("\n    %s with l3 impl %s: exit %d (%s/%s_%s.log)", m->name, impls[k], rc, d,
                   m->name, impls[k]);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(sh("grep -v " L3_ADAPTER_ROWS " %s/%s_%s/stats.csv > %s/%s_%s.csv", d,
                           m->name, impls[k], d, m->name, impls[k]), 0);
    }
    /* the C unit's run has none of those rows; the others differ in nothing else */
    CU_ASSERT_EQUAL(sh("cmp -s %s/%s_c.csv %s/%s_c/stats.csv", d, m->name, d, m->name), 0);
    for (int k = 1; k < 3; k++) {
        int rc = sh("cmp -s %s/%s_c.csv %s/%s_%s.csv", d, m->name, d, m->name, impls[k]);
        if (rc)
            sh("diff %s/%s_c.csv %s/%s_%s.csv | head -5", d, m->name, d, m->name, impls[k]);
        CU_ASSERT_EQUAL(rc, 0);
        if (m->dump)
            CU_ASSERT_EQUAL(sh("cmp -s %s/%s_c.bin %s/%s_%s.bin", d, m->name, d, m->name,
                               impls[k]), 0);
    }
    CU_ASSERT_EQUAL(sh("test $(grep -c '^gpu.slice[0-9]*.l3.mismatches,0,' "
                       "%s/%s_lockstep/stats.csv) -eq %u", d, m->name, m->slices), 0);
    CU_ASSERT_EQUAL(sh("test $(grep -c '^gpu.slice[0-9]*.l3.unmatched,0,' "
                       "%s/%s_lockstep/stats.csv) -eq %u", d, m->name, m->slices), 0);
    if (m->traffic)
        CU_ASSERT_EQUAL(sh("test $(grep -c '^gpu.slice[0-9]*.l3.compared,[1-9]' "
                           "%s/%s_lockstep/stats.csv) -eq %u", d, m->name, m->slices), 0);
    /* every slice took the capture's L3CNTLREG writes (Gen8/Gen9: the CS links "cs") */
    if (strstr(m->config, "gen7") == NULL)
        CU_ASSERT_EQUAL(sh("test $(grep -c '^gpu.slice[0-9]*.l3.port.cs.received,[1-9]' "
                           "%s/%s_rtl/stats.csv) -eq %u", d, m->name, m->slices), 0);
}

#define SGEMM_AUB "build/gen/workloads/sgemm.gen9.aub.gz"
#define SGEMM_C "0x10180000:16384"      /* C: 64 x 64 floats (workloads/workload.h) */
/* A GT2 slice L3 too small for the workload's L3CNTLREG (64 ways per bank, the
 * capture's value adds up to 96: rejected), so the params' 16 KB cache (2 ways
 * per bank) stays: evictions, dirty writebacks, SLM with no SLM partition. */
#define SMALL_L3 "--set gpu.slice.l3.size_kib=512 --set gpu.slice.l3.cache_kib=16"

static void test_l3_machine_captures(void)
{
    static const struct l3_machine m[] = {
        { "skl_compute", "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_compute.aub.gz", "",
          "0xfffffffefffdc000:4096", 1, true },
        { "skl_tri", "configs/gen9-skl-gt2.cfg", "tests/data/traces/skl_tri.aub.gz", "", NULL,
          1, false },
        { "bdw_compute", "configs/gen8-bdw-gt2.cfg", "tests/data/traces/bdw_compute.aub.gz", "",
          "0xfffffffefffdc000:4096", 1, true },
        { "bdw_tri", "configs/gen8-bdw-gt2.cfg", "tests/data/traces/bdw_tri.aub.gz", "", NULL,
          1, false },
        { "byt_compute", "configs/gen7-vlv.cfg", "tests/data/traces/byt_compute.aub.gz", "",
          "0x23000:4096", 1, true },
        { "skl_compute_gt4", "configs/gen9-skl-gt4.cfg", "tests/data/traces/skl_compute.aub.gz",
          "", "0xfffffffefffdc000:4096", 3, false },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        l3_machine_run(&m[i]);
}

static void test_l3_machine_sgemm(void)
{
    static const struct l3_machine m[] = {
        { "sgemm_gt2", "configs/gen9-skl-gt2.cfg", SGEMM_AUB, "", SGEMM_C, 1, true },
        { "sgemm_gt3", "configs/gen9-skl-gt3.cfg", SGEMM_AUB, "", SGEMM_C, 2, true },
        { "sgemm_small", "configs/gen9-skl-gt2.cfg", SGEMM_AUB, SMALL_L3, SGEMM_C, 1, true },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        l3_machine_run(&m[i]);
    const char *d = tmpdir;
    /* the runs did reach the L3's paths: hits and merged misses; on the small
     * L3 evictions, dirty writebacks, SLM without a partition, a rejected write */
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.hits,[1-9]' %s/sgemm_gt2_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.merged_misses,[1-9]' %s/sgemm_gt2_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice1.l3.hits,[1-9]' %s/sgemm_gt3_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.evictions,[1-9][0-9][0-9]' %s/sgemm_small_c.csv",
                       d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.writebacks,[1-9][0-9]' %s/sgemm_small_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.slm_unallocated,[1-9]' %s/sgemm_small_c.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.rejected_programmings,1,' %s/sgemm_small_c.csv",
                       d), 0);
}

/* The BROKEN slice RTL (the LRU evicts the wrong way) in lockstep in the
 * machine whose L3 evicts: mismatches reported, naming the slice's L3. */
static void test_l3_machine_broken(void)
{
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    sh("%s run -q -c configs/gen9-skl-gt2.cfg -o %s/sgemm_bad "
       "--set gpu.slice.l3.impl=lockstep_broken " SMALL_L3 " " SGEMM_AUB " 2> %s/sgemm_bad.txt",
       bin, d, d);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.l3.mismatches,[1-9]' %s/sgemm_bad/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'cosim mismatch: unit gpu.slice0.l3 port' %s/sgemm_bad.txt", d),
                    0);
    /* the RTL's maxima: a clear error at realize, no crash */
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/l3_big --set gpu.slice.l3.impl=rtl "
                       "--set gpu.slice.l3.banks=8 --set gpu.slice.l3.cache_kib=384 "
                       "tests/data/traces/skl_compute.aub.gz > %s/l3_big.txt 2>&1", bin, d, d),
                    1);
    CU_ASSERT_EQUAL(sh("grep -q 'banks 8: the L3 RTL has at most 4 banks' %s/l3_big.txt", d), 0);
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/l3_big2 --set gpu.slice.l3.impl=lockstep "
                       "--set gpu.slice.l3.size_kib=1024 "
                       "tests/data/traces/skl_compute.aub.gz > %s/l3_big2.txt 2>&1", bin, d, d),
                    1);
    CU_ASSERT_EQUAL(sh("grep -q 'size_kib 1024: 128 ways .* at most 96' %s/l3_big2.txt", d), 0);
}

/* ---- MI_MATH in a whole machine ------------------------------------------------- */

/* The seed's ALU (003 L1321-1528), written here again from the text and not
 * from units/cs_alu: LOAD/LOADINV/LOAD0/LOAD1 set SRCA or SRCB; ADD, SUB, AND,
 * OR, XOR set ACCU, ZF = (ACCU == 0), CF = carry (ADD), borrow (SUB), 0 (logic);
 * STORE/STOREINV copy ACCU, ZF or CF (a flag on all 64 bits) into a GPR. */
struct ref_alu { uint64_t gpr[16], srca, srcb, accu; bool zf, cf; };

static void ref_execute(struct ref_alu *a, uint32_t dw)
{
    uint32_t op = dw >> 20, x = dw >> 10 & 0x3FF, y = dw & 0x3FF;
    uint64_t *src = x == 0x20 ? &a->srca : &a->srcb;
    switch (op) {
    case 0x080: *src = a->gpr[y]; break;
    case 0x480: *src = ~a->gpr[y]; break;
    case 0x081: *src = 0; break;
    case 0x481: *src = ~0ull; break;
    case 0x100: a->accu = a->srca + a->srcb; a->cf = a->accu < a->srca; break;
    case 0x101: a->accu = a->srca - a->srcb; a->cf = a->srca < a->srcb; break;
    case 0x102: a->accu = a->srca & a->srcb; a->cf = false; break;
    case 0x103: a->accu = a->srca | a->srcb; a->cf = false; break;
    case 0x104: a->accu = a->srca ^ a->srcb; a->cf = false; break;
    case 0x180: case 0x580: {
        uint64_t v = y == 0x31 ? a->accu : y == 0x32 ? (a->zf ? ~0ull : 0) : (a->cf ? ~0ull : 0);
        a->gpr[x] = op == 0x580 ? ~v : v;
        return;
    }
    default: return;                    /* NOOP */
    }
    if (op >= 0x100 && op <= 0x104)
        a->zf = a->accu == 0;
}

static bool read_file(const char *path, void *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, size, f);
    fclose(f);
    return n == size;
}

/* Sum of the lines of a stats.csv other than the ALU's own and the
 * simulator's tick totals (which count the ALU's ticks too). */
static int stats_without_alu(const char *dir, const char *out)
{
    return sh("grep -v -e '^gpu.cs_alu\\.' -e '^sim.steps,' -e '^sim.ticks,' "
              "-e '^sim.clock.gt.active_edges,' %s/stats.csv > %s", dir, out);
}

static uint64_t csv_value(const char *dir, const char *key)
{
    char cmd[1024], line[256] = "";
    snprintf(cmd, sizeof cmd, "grep '^%s,' %s/stats.csv | cut -d, -f2", key, dir);
    FILE *p = popen(cmd, "r");
    if (!p)
        return UINT64_MAX;
    if (!fgets(line, sizeof line, p))
        line[0] = 0;
    pclose(p);
    return line[0] ? strtoull(line, NULL, 10) : UINT64_MAX;
}

/* gtsim-cosim build-math-aub, then gtsim-cosim run on the Gen9 GT2 machine
 * with gpu.cs_alu.impl = c, rtl and lockstep, dumping the result buffer: the
 * results equal the seed's ALU computed here, the three runs give the same
 * results and the same stats but the ALU unit's own; the BROKEN ALU is caught
 * in lockstep, and alone (rtl_broken) stores wrong results. */
static void test_mi_math_workload(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    const char *d = tmpdir;
    CU_ASSERT_EQUAL_FATAL(sh("%s build-math-aub %s/math.aub", bin, d), 0);

    /* every opcode and every operand register of the seed's tables is used */
    static const uint32_t opcodes[12] = { 0x000, 0x080, 0x480, 0x081, 0x481, 0x100, 0x101,
                                          0x102, 0x103, 0x104, 0x180, 0x580 };
    bool used_op[12] = { 0 }, used_load[16] = { 0 }, used_store[16] = { 0 }, used_src[2] = { 0 };
    bool used_flag[3] = { 0 };
    uint32_t total = 0;
    struct ref_alu ref = { 0 };
    memcpy(ref.gpr, math_aub_initial_gprs, sizeof ref.gpr);
    uint64_t expect[MATH_AUB_PROGRAMS][16];
    for (int p = 0; p < MATH_AUB_PROGRAMS; p++) {
        const struct math_aub_program *m = &math_aub_programs[p];
        for (uint32_t k = 0; k < m->count; k++) {
            uint32_t dw = m->instruction[k], op = dw >> 20, x = dw >> 10 & 0x3FF, y = dw & 0x3FF;
            for (int o = 0; o < 12; o++)
                used_op[o] |= op == opcodes[o];
            if (op == 0x080 || op == 0x480)
                used_load[y & 15] = true;
            if (op == 0x081 || op == 0x481 || op == 0x080 || op == 0x480)
                used_src[x & 1] = true;
            if (op == 0x180 || op == 0x580) {
                used_store[x & 15] = true;
                used_flag[y - 0x31] = true;
            }
            ref_execute(&ref, dw);
        }
        total += m->count;
        memcpy(expect[p], ref.gpr, sizeof ref.gpr);
    }
    for (int o = 0; o < 12; o++)
        CU_ASSERT(used_op[o]);
    for (int i = 0; i < 16; i++)
        CU_ASSERT(used_load[i] && used_store[i]);
    CU_ASSERT(used_src[0] && used_src[1] && used_flag[0] && used_flag[1] && used_flag[2]);
    /* spot values worked out by hand: ~0 + 1 = 0 with CF; 1 - ~0 = 2 with a borrow */
    CU_ASSERT_EQUAL(expect[0][5], 0);
    CU_ASSERT_EQUAL(expect[0][6], ~0ull);
    CU_ASSERT_EQUAL(expect[0][13], ~0ull);
    CU_ASSERT_EQUAL(expect[1][7], 2);
    CU_ASSERT_EQUAL(expect[1][8], 0);
    CU_ASSERT_EQUAL(expect[2][11], 0x123456789ABCDEF0ull & 0x0F0F0F0F0F0F0F0Full);

    static const char *const impls[] = { "c", "rtl", "lockstep", "rtl_broken" };
    uint64_t got[4][MATH_AUB_PROGRAMS][16];
    for (int k = 0; k < 4; k++) {
        char dir[600];
        snprintf(dir, sizeof dir, "%s/math_%s", d, impls[k]);
        CU_ASSERT_EQUAL(sh("%s run -q -c configs/gen9-skl-gt2.cfg --set gpu.cs_alu.impl=%s -o %s "
                           "--dump 0x%x:%d:%s/result.bin %s/math.aub", bin, impls[k], dir,
                           MATH_AUB_RESULT_GGTT, MATH_AUB_RESULT_BYTES, dir, d), 0);
        char path[700];
        snprintf(path, sizeof path, "%s/result.bin", dir);
        CU_ASSERT_FATAL(read_file(path, got[k], sizeof got[k]));
        CU_ASSERT_EQUAL(csv_value(dir, "gpu.cs.mi_math_instructions"), total);
        CU_ASSERT_EQUAL(csv_value(dir, "gpu.cs.hangs"), 0);
        CU_ASSERT_EQUAL(csv_value(dir, "gpu.cs.submissions"), 1);
        CU_ASSERT_EQUAL(csv_value(dir, "gpu.cs_alu.requests"), MATH_AUB_PROGRAMS);
        char csv[700];
        snprintf(csv, sizeof csv, "%s/math_%s.csv", d, impls[k]);
        CU_ASSERT_EQUAL(stats_without_alu(dir, csv), 0);
    }
    for (int k = 0; k < 3; k++)
        for (int p = 0; p < MATH_AUB_PROGRAMS; p++)
            for (int i = 0; i < 16; i++) {
                if (got[k][p][i] != expect[p][i])
                    printf("\n    impl %s program %d R%d: 0x%016" PRIx64 ", expected 0x%016" PRIx64,
                           impls[k], p, i, got[k][p][i], expect[p][i]);
                CU_ASSERT_EQUAL(got[k][p][i], expect[p][i]);
            }
    CU_ASSERT(memcmp(got[3], expect, sizeof expect) != 0);      /* the broken ALU alone */
    CU_ASSERT_EQUAL(sh("cmp -s %s/math_c.csv %s/math_rtl.csv", d, d), 0);
    CU_ASSERT_EQUAL(sh("cmp -s %s/math_c.csv %s/math_lockstep.csv", d, d), 0);
    /* the totals differ only by the ALU's own ticks */
    char dc[600], dr[600];
    snprintf(dc, sizeof dc, "%s/math_c", d);
    snprintf(dr, sizeof dr, "%s/math_rtl", d);
    CU_ASSERT_EQUAL(csv_value(dc, "sim.ticks") - csv_value(dc, "gpu.cs_alu.ticks"),
                    csv_value(dr, "sim.ticks") - csv_value(dr, "gpu.cs_alu.ticks"));
    snprintf(dr, sizeof dr, "%s/math_lockstep", d);
    CU_ASSERT_EQUAL(csv_value(dr, "gpu.cs_alu.compared"), MATH_AUB_PROGRAMS);
    CU_ASSERT_EQUAL(csv_value(dr, "gpu.cs_alu.mismatches"), 0);
    /* the BROKEN ALU in lockstep */
    sh("%s run -q -c configs/gen9-skl-gt2.cfg --set gpu.cs_alu.impl=lockstep_broken -o "
       "%s/math_bad %s/math.aub 2> %s/math_bad.txt", bin, d, d, d);
    snprintf(dr, sizeof dr, "%s/math_bad", d);
    uint64_t bad = csv_value(dr, "gpu.cs_alu.mismatches");
    CU_ASSERT(bad > 0 && bad != UINT64_MAX);
    CU_ASSERT_EQUAL(sh("grep -q 'cosim mismatch: unit gpu.cs_alu port response message #' "
                       "%s/math_bad.txt", d), 0);
}

/* ---- the FPU pipe ---------------------------------------------------------------- */


struct fpu_direct {
    struct fpu_rtl *rtl;
    uint64_t cycle, requests, bad;
};

/* One request through the RTL (depth 1) and fpu_compute; counts differences. */
static void fpu_direct_one(struct fpu_direct *d, const struct fpu_request *q)
{
    struct fpu_response want, got;
    uint32_t tag;
    fpu_compute(q, &want);
    fpu_rtl_set_request(d->rtl, q, (uint32_t)d->requests);
    fpu_rtl_set_resp_ready(d->rtl, true);
    fpu_rtl_clock(d->rtl, d->cycle++);
    CU_ASSERT_FATAL(fpu_rtl_resp_valid(d->rtl));
    fpu_rtl_response(d->rtl, &got, &tag);
    d->requests++;
    if (memcmp(&want, &got, sizeof want) != 0 || tag != (uint32_t)(d->requests - 1)) {
        if (d->bad++ < 5)
            printf("\n    %s cond %u ctrl %#x mode %#x src %08x %08x %08x: c %08x flags %x, "
                   "rtl %08x flags %x", fpu_op_name(q->op), q->cond, q->ctrl, q->mode,
                   q->src[0][0], q->src[1][0], q->src[2][0], want.result[0], want.flags,
                   got.result[0], got.flags);
    }
}

static void test_fpu_specials_by_hand(void)
{
    struct fpu_direct d = { .rtl = fpu_rtl_create(FPU_RTL_GOOD, false) };
    fpu_rtl_reset(d.rtl);
    fpu_rtl_set_depth(d.rtl, 1);
    const unsigned n = 42;
    struct fpu_request q;
    for (unsigned mode = 0; mode < 32; mode++) {
        uint32_t cr0 = (mode & 3) << FPU_MODE_RM_SHIFT | ((mode & 4) ? FPU_MODE_SP_DENORM : 0) |
                       ((mode & 8) ? FPU_MODE_F2I_RM : 0) | ((mode & 16) ? FPU_MODE_IEEE_MINMAX : 0);
        /* pairs, four per request, for every two-source op and condition */
        for (unsigned op = 0; op < FPU_OP_COUNT; op++)
            for (unsigned cm = 0; cm <= 9; cm++) {
                if (cm == 7 || (op == FPU_OP_CMP && cm == 0))
                    continue;
                if ((mode & 16) && op != FPU_OP_SEL)
                    continue;               /* cr0.0[11]: min/max only */
                for (unsigned sat = 0; sat < 2; sat++)
                    for (unsigned k = 0; k < n * n; k += 4) {
                        memset(&q, 0, sizeof q);
                        q.op = (uint8_t)op;
                        q.cond = (uint8_t)cm;
                        q.mask = 15;
                        q.mode = cr0;
                        q.ctrl = sat ? FPU_CTRL_SAT : 0;
                        if (op == FPU_OP_MOV)      /* F -> F, D, UD by k */
                            q.ctrl |= (k / 4 % 3) << FPU_CTRL_DTYPE_SHIFT;
                        if (k / 4 % 7 == 3)         /* a non-raw move quietens */
                            q.ctrl |= FPU_CTRL_NEG(0);
                        for (unsigned l = 0; l < 4; l++) {
                            unsigned p = (k + l) % (n * n);
                            q.src[0][l] = fpu_special_f[p / n];
                            q.src[1][l] = fpu_special_f[p % n];
                            q.src[2][l] = fpu_special_f[(p * 7) % n];
                        }
                        fpu_direct_one(&d, &q);
                    }
            }
        /* MAD: every triple, with source modifiers on some */
        if (mode & 24)
            continue;
        for (unsigned k = 0; k < n * n * n; k += 4) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 15;
            q.mode = cr0;
            q.ctrl = (k / 4 % 5 == 0) ? FPU_CTRL_NEG(0) | FPU_CTRL_ABS(2) : 0;
            for (unsigned l = 0; l < 4; l++) {
                unsigned p = (k + l) % (n * n * n);
                q.src[0][l] = fpu_special_f[p / (n * n)];
                q.src[1][l] = fpu_special_f[p / n % n];
                q.src[2][l] = fpu_special_f[p % n];
            }
            fpu_direct_one(&d, &q);
        }
    }
    /* integer sources: D/UD -> F, D, UD with neg/abs and sat */
    static const uint32_t ints[] = { 0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001,
                                     0x00ffffff, 0x01000001, 0x7fffff80, 0x7fffffc0, 0xffffff80,
                                     0x01000003, 0xfefffffd };
    for (unsigned sty = 1; sty <= 2; sty++)
        for (unsigned dty = 0; dty <= 2; dty++)
            for (unsigned mods = 0; mods < 8; mods++)
                for (unsigned cm = 0; cm <= 6; cm++) {
                    memset(&q, 0, sizeof q);
                    q.op = FPU_OP_MOV;
                    q.cond = (uint8_t)cm;
                    q.mask = 15;
                    q.ctrl = (mods & 1 ? FPU_CTRL_SAT : 0) | (mods & 2 ? FPU_CTRL_NEG(0) : 0) |
                             (mods & 4 ? FPU_CTRL_ABS(0) : 0) | sty << FPU_CTRL_STYPE_SHIFT |
                             dty << FPU_CTRL_DTYPE_SHIFT;
                    for (unsigned k = 0; k < sizeof ints / sizeof ints[0]; k += 4) {
                        for (unsigned l = 0; l < 4; l++)
                            q.src[0][l] = ints[(k + l) % (sizeof ints / sizeof ints[0])];
                        fpu_direct_one(&d, &q);
                    }
                }
    /* bad requests: status 1, results and flags 0 */
    memset(&q, 0, sizeof q);
    q.op = 6;
    q.mask = 15;
    fpu_direct_one(&d, &q);
    q.op = FPU_OP_ADD;
    q.mode = FPU_MODE_ALT;
    fpu_direct_one(&d, &q);
    printf("\n    %" PRIu64 " requests (%" PRIu64 " lanes) of special operands ", d.requests,
           d.requests * 4);
    CU_ASSERT_EQUAL(d.bad, 0);
    CU_ASSERT(d.requests > 100000);
    fpu_rtl_destroy(d.rtl);
}

static void test_fpu_df_specials_by_hand(void)
{
    struct fpu_direct d = { .rtl = fpu_rtl_create(FPU_RTL_GOOD, false) };
    fpu_rtl_reset(d.rtl);
    fpu_rtl_set_depth(d.rtl, 1);
    const unsigned n = FPU_SPECIAL_D_COUNT;
    struct fpu_request q;
    for (unsigned mode = 0; mode < 64; mode++) {
        uint32_t cr0 = (mode & 3) << FPU_MODE_RM_SHIFT | ((mode & 4) ? FPU_MODE_DP_DENORM : 0) |
                       ((mode & 8) ? FPU_MODE_SP_DENORM : 0) | ((mode & 16) ? FPU_MODE_F2I_RM : 0) |
                       ((mode & 32) ? FPU_MODE_IEEE_MINMAX : 0);
        for (unsigned op = 0; op < FPU_OP_COUNT; op++)
            for (unsigned cm = 0; cm <= 9; cm++) {
                if (cm == 7 || (op == FPU_OP_CMP && cm == 0))
                    continue;
                if ((mode & 24) && op != FPU_OP_MOV)
                    continue;
                if ((mode & 32) && (op != FPU_OP_SEL || (mode & 24)))
                    continue;               /* cr0.0[11]: min/max only */
                for (unsigned k = 0; k < n * n; k += 2) {
                    memset(&q, 0, sizeof q);
                    q.op = (uint8_t)op;
                    q.cond = (uint8_t)cm;
                    q.mask = 3;
                    q.mode = cr0;
                    q.ctrl = (k / 2 % 2) ? FPU_CTRL_SAT : 0;
                    if (k / 2 % 7 == 3)
                        q.ctrl |= FPU_CTRL_NEG(0) | FPU_CTRL_ABS(1);
                    if (op == FPU_OP_MOV) {
                        unsigned sty = k / 4 % 2 ? FPU_T_DF : (k / 8 % 3);
                        unsigned dty = sty == FPU_T_DF ? k / 8 % 4 : FPU_T_DF;
                        q.ctrl |= sty << FPU_CTRL_STYPE_SHIFT | dty << FPU_CTRL_DTYPE_SHIFT;
                    } else {
                        q.ctrl |= FPU_CTRL_DF;
                    }
                    for (unsigned l = 0; l < 2; l++) {
                        unsigned p = k + l;
                        uint64_t v[3] = { fpu_special_d[p / n % n], fpu_special_d[p % n],
                                          fpu_special_d[(p * 7) % n] };
                        for (unsigned i = 0; i < 3; i++) {
                            q.src[i][2 * l] = (uint32_t)v[i];
                            q.src[i][2 * l + 1] = (uint32_t)(v[i] >> 32);
                        }
                    }
                    if (op == FPU_OP_MOV && ((q.ctrl >> FPU_CTRL_STYPE_SHIFT) & 3) == FPU_T_F)
                        for (unsigned l = 0; l < 2; l++)
                            q.src[0][l] = fpu_special_f[(k + l) % FPU_SPECIAL_F_COUNT];
                    fpu_direct_one(&d, &q);
                }
            }
        if (mode & 56)
            continue;
        for (unsigned k = 0; k < n * n * n; k += 2) {
            memset(&q, 0, sizeof q);
            q.op = FPU_OP_MAD;
            q.mask = 3;
            q.mode = cr0;
            q.ctrl = FPU_CTRL_DF | ((k / 2 % 5 == 0) ? FPU_CTRL_NEG(0) | FPU_CTRL_ABS(2) : 0);
            for (unsigned l = 0; l < 2; l++) {
                unsigned p = k + l;
                uint64_t v[3] = { fpu_special_d[p / (n * n) % n], fpu_special_d[p / n % n],
                                  fpu_special_d[p % n] };
                for (unsigned i = 0; i < 3; i++) {
                    q.src[i][2 * l] = (uint32_t)v[i];
                    q.src[i][2 * l + 1] = (uint32_t)(v[i] >> 32);
                }
            }
            fpu_direct_one(&d, &q);
        }
    }
    printf("\n    %" PRIu64 " DF requests (%" PRIu64 " lanes) of special operands ", d.requests,
           d.requests * 2);
    CU_ASSERT_EQUAL(d.bad, 0);
    CU_ASSERT(d.requests > 200000);
    fpu_rtl_destroy(d.rtl);
}

/* The mutation runner's cut of the special operands plus the sticky-bit corners
 * (fpu_directed.h) against fpu_compute: the RTL as written agrees on every
 * request; the BROKEN RTL (RU ignores the sticky bit) is caught by them. */
static void test_fpu_directed(void)
{
    uint64_t sent = 0;
    CU_ASSERT_EQUAL(fpu_directed_checks(FPU_RTL_GOOD, 0, stdout, &sent), 0);
    printf("\n    %" PRIu64 " directed requests ", sent);
    CU_ASSERT(sent > 100000);
    CU_ASSERT(fpu_directed_checks(FPU_RTL_BROKEN, 1, NULL, NULL) == 1);
    CU_ASSERT_EQUAL(fpu_hold_check(FPU_RTL_GOOD, stdout), 0);
}

static void test_fpu_lockstep_1m(void)
{
    struct fpu_random_options o = { .impl = "lockstep", .seed = 1, .requests = 1000000,
                                    .report = stderr };
    struct fpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r, &err), 0);
    printf("\n    %" PRIu64 " ops (%" PRIu64 " lanes) in %.2f s, %" PRIu64 " compared ", r.sent,
           r.sent * 4, r.seconds, r.compared);
    CU_ASSERT_EQUAL(r.sent, 1000000);
    CU_ASSERT_EQUAL(r.received, 1000000);
    CU_ASSERT_EQUAL(r.compared, 1000000);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    for (int op = 0; op < FPU_OP_COUNT; op++)
        CU_ASSERT(r.cov.per_op[op] > 150000);
    for (int rm = 0; rm < 4; rm++)
        CU_ASSERT(r.cov.per_rm[rm] > 230000);
    CU_ASSERT(r.cov.ftz > 450000 && r.cov.keep > 450000);
    CU_ASSERT(r.cov.df > 230000);
}

static void test_fpu_lockstep_backpressure_depths(void)
{
    static const struct { uint32_t depth, pop; uint64_t seed; } runs[] = {
        { 4, 300, 2 }, { 1, 600, 3 }, { 7, 1000, 4 }, { 16, 500, 5 },
    };
    for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct fpu_random_options o = { .impl = "lockstep", .seed = runs[i].seed,
                                        .requests = 50000, .depth = runs[i].depth,
                                        .pop_permille = runs[i].pop, .report = stderr };
        struct fpu_random_result r;
        struct gt_error err;
        CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r, &err), 0);
        CU_ASSERT_EQUAL(r.compared, 50000);
        CU_ASSERT_EQUAL(r.mismatches, 0);
        if (runs[i].pop < 1000)
            CU_ASSERT(r.stall_cycles > 1000);
    }
}

static void test_fpu_rtl_equals_c(void)
{
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    struct fpu_random_result r[3];
    for (int i = 0; i < 3; i++) {
        struct fpu_random_options o = { .impl = impls[i], .seed = 9, .requests = 30000,
                                        .depth = 5, .pop_permille = 700, .report = stderr };
        struct gt_error err;
        CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r[i], &err), 0);
    }
    for (int i = 1; i < 3; i++) {
        CU_ASSERT_EQUAL(r[i].cycles, r[0].cycles);
        CU_ASSERT_EQUAL(r[i].received, r[0].received);
        CU_ASSERT_EQUAL(r[i].stall_cycles, r[0].stall_cycles);
    }
    CU_ASSERT(r[0].stall_cycles > 0);
    CU_ASSERT_EQUAL(r[2].mismatches, 0);
}

static void test_fpu_broken_is_caught(void)
{
    const char *wave = tmp_path("fpu_broken.fst");
    FILE *report = fopen(tmp_path("fpu_broken.log"), "w");
    struct fpu_random_options o = { .impl = "lockstep_broken", .seed = 3, .requests = 5000,
                                    .wave = wave, .report = report };
    struct fpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r, &err), 0);
    fclose(report);
    printf("\n    caught: %s ", r.first_report);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "unit gpu.fpu port response message #"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "lane "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "field result: c-model 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, ", rtl 0x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, " ru sp-denorm-"));     /* the broken mode */
    uint64_t t0, t1, nsig;
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(wave, &t0, &t1, &nsig), 0);
    CU_ASSERT(t1 >= r.first_mismatch * 1000 && t1 <= (r.first_mismatch + 65) * 1000);
    CU_ASSERT(nsig > 20);
    /* the RTL alone differs from the C unit's results too (no checker): the
     * sink receives everything, in the same cycles */
    o.impl = "rtl_broken";
    o.wave = NULL;
    o.report = NULL;
    struct fpu_random_result r2;
    CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r2, &err), 0);
    CU_ASSERT_EQUAL(r2.received, 5000);
}

static void test_fpu_record_then_replay(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tmp_path("fpu_rec"));
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    struct fpu_random_options o = { .impl = "c", .seed = 11, .requests = 20000,
                                    .record_dir = dir, .report = stderr };
    struct fpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(fpu_random_run(&o, &r, &err), 0);
    char rq[600], rs[600];
    snprintf(rq, sizeof rq, "%s/request.rec", dir);
    snprintf(rs, sizeof rs, "%s/response.rec", dir);
    static const char *const kinds[] = { "fpu:rtl", "fpu", "fpu:lockstep" };
    for (int i = 0; i < 3; i++) {
        struct replay_options ro = { .kind = kinds[i], .lookup = cosim_kind_find,
                                     .wave_before = 300, .wave_after = 20 };
        ro.inputs[0] = rq;
        ro.expects[0] = rs;
        struct replay_result rr;
        CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
        CU_ASSERT_EQUAL(rr.messages_in, 20000);
        CU_ASSERT_EQUAL(rr.messages_checked, 20000);
        CU_ASSERT_EQUAL(rr.mismatches, 0);
        if (rr.mismatches)
            printf("\n    %s: %s", kinds[i], rr.first_report);
    }
    struct replay_options ro = { .kind = "fpu:rtl_broken", .lookup = cosim_kind_find,
                                 .wave = tmp_path("fpu_replay.fst"), .wave_before = 300,
                                 .wave_after = 20 };
    ro.inputs[0] = rq;
    ro.expects[0] = rs;
    struct replay_result rr;
    CU_ASSERT_EQUAL_FATAL(cosim_replay(&ro, &rr, &err), 0);
    printf("\n    replay caught: %s ", rr.first_report);
    CU_ASSERT(rr.mismatches > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rr.first_report, "field result["));
    uint64_t t0, t1, nsig;
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(ro.wave, &t0, &t1, &nsig), 0);
    CU_ASSERT(t1 >= rr.first_mismatch * 1000 && t1 <= (rr.first_mismatch + 21) * 1000);
}

static void test_fpu_command_line(void)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    CU_ASSERT_FATAL(n > 0);
    bin[n] = 0;
    strcpy(strrchr(bin, '/') + 1, "gtsim-cosim");
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -c rtl-cosim/configs/fpu_lockstep.cfg -o %s/fout "
                       "--set gpu.stim.requests=3000 --set gpu.sink.pop_permille=1000 "
                       "--record-port gpu.fpu.request=%s/freq.rec "
                       "--record-port gpu.fpu.response=%s/fresp.rec --wave gpu.fpu=%s/frun.fst",
                       bin, d, d, d, d), 0);
    CU_ASSERT(file_size(tmp_path("freq.rec")) > 0 && file_size(tmp_path("frun.fst")) > 100);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.fpu.compared,3000,' %s/fout/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.fpu.mismatches,0,' %s/fout/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("%s replay --kind fpu:rtl --in %s/freq.rec --expect %s/fresp.rec "
                       "> %s/freplay.txt", bin, d, d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '3000 checked, 0 mismatching' %s/freplay.txt", d), 0);
    CU_ASSERT_EQUAL(sh("%s fpu-random --impl lockstep_broken --requests 3000 --wave %s/frand.fst "
                       "> %s/frand.txt 2>&1", bin, d, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q 'lane [0-3] field result: c-model 0x' %s/frand.txt", d), 0);
    CU_ASSERT(file_size(tmp_path("frand.fst")) > 100);
    CU_ASSERT_EQUAL(sh("%s fpu-random --impl rtl --requests 2000 --depth 9 --pop-permille 500 "
                       "> /dev/null 2>&1", bin), 0);
    CU_ASSERT_EQUAL(sh("%s fpu-random --depth 17 > /dev/null 2>&1", bin), 1);
}

/* ---- runner ---------------------------------------------------------------------- */

/* ---- the pixel back end's datapath (om_pixel.sv) ------------------------------------ */

static float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The RTL alone on values worked out by hand (every one exact in binary, so
 * no rounding question arises; the rounding cases are the random test's). */
static void test_om_by_hand(void)
{
    struct om_rtl *r = om_rtl_create(false, false);
    om_rtl_reset(r);
    /* SRC_ALPHA / INV_SRC_ALPHA, ADD: src (1, 0, 0.5, 0.25) over dst (0, 0, 1, 1):
     * colour = s * 0.25 + d * 0.75, alpha = 0.25 * 0.25 + 1 * 0.75 = 0.8125 */
    struct om_color_request rq;
    memset(&rq, 0, sizeof rq);
    rq.blend = true;
    rq.source_factor = rq.source_alpha_factor = 3;
    rq.destination_factor = rq.destination_alpha_factor = 19;
    rq.lo = 0.0f;
    rq.hi = 1.0f;
    float src[4] = { 1.0f, 0.0f, 0.5f, 0.25f }, dst[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
    memcpy(rq.in.src, src, sizeof src);
    memcpy(rq.in.dst, dst, sizeof dst);
    float out[4];
    CU_ASSERT(om_rtl_color(r, &rq, out));
    CU_ASSERT(om_rtl_answered(r));
    CU_ASSERT_EQUAL(u32(out[0]), u32(0.25f));
    CU_ASSERT_EQUAL(u32(out[1]), u32(0.0f));
    CU_ASSERT_EQUAL(u32(out[2]), u32(0.875f));       /* 0.125 + 0.75 */
    CU_ASSERT_EQUAL(u32(out[3]), u32(0.8125f));
    /* REVERSE_SUBTRACT with ONE/ONE: d - s = (-1, 0, 0.5, 0.75); the
     * post-blend clamp to [0, 1] makes the red 0 */
    rq.source_factor = rq.destination_factor = rq.source_alpha_factor =
        rq.destination_alpha_factor = 1;
    rq.function = rq.alpha_function = 2;
    rq.post_clamp = true;
    om_rtl_color(r, &rq, out);
    CU_ASSERT_EQUAL(u32(out[0]), u32(0.0f));
    CU_ASSERT_EQUAL(u32(out[2]), u32(0.5f));
    CU_ASSERT_EQUAL(u32(out[3]), u32(0.75f));
    /* MIN of the terms with CONST_COLOR (0.5, 2, 0.25, 1) as both factors */
    float k[4] = { 0.5f, 2.0f, 0.25f, 1.0f };
    memcpy(rq.in.constant, k, sizeof k);
    rq.source_factor = rq.destination_factor = 7;
    rq.function = 3;
    rq.post_clamp = false;
    rq.independent_alpha = true;        /* alpha keeps ONE/ONE REVERSE_SUBTRACT */
    om_rtl_color(r, &rq, out);
    CU_ASSERT_EQUAL(u32(out[0]), u32(0.0f));         /* min(1 * 0.5, 0 * 0.5) */
    CU_ASSERT_EQUAL(u32(out[2]), u32(0.125f));       /* min(0.5 * 0.25, 1 * 0.25) */
    CU_ASSERT_EQUAL(u32(out[3]), u32(0.75f));
    /* SRC_ALPHA_SATURATE: min(1 - dst.a, src.a) = min(0.5, 0.25) for R G B, 1 for A */
    rq.independent_alpha = false;
    rq.source_factor = 6;
    rq.destination_factor = 17;
    rq.function = 0;
    rq.in.dst[3] = 0.5f;
    om_rtl_color(r, &rq, out);
    CU_ASSERT_EQUAL(u32(out[0]), u32(0.25f));
    CU_ASSERT_EQUAL(u32(out[2]), u32(0.125f));
    CU_ASSERT_EQUAL(u32(out[3]), u32(0.25f));        /* src.a * 1 */
    /* an unknown factor (22) reads as ZERO and is flagged */
    rq.source_factor = 22;
    CU_ASSERT_FALSE(om_rtl_color(r, &rq, out));
    CU_ASSERT_EQUAL(u32(out[0]), u32(0.0f));
    /* no blend: the pre-blend clamp alone (SNORM range) */
    memset(&rq, 0, sizeof rq);
    rq.pre_clamp = true;
    rq.lo = -1.0f;
    rq.hi = 1.0f;
    rq.in.src[0] = -3.0f;
    rq.in.src[1] = 7.0f;
    rq.in.src[2] = f32(0x7fc00000);                  /* NaN stays NaN */
    rq.in.src[3] = -0.5f;
    CU_ASSERT(om_rtl_color(r, &rq, out));
    CU_ASSERT_EQUAL(u32(out[0]), u32(-1.0f));
    CU_ASSERT_EQUAL(u32(out[1]), u32(1.0f));
    CU_ASSERT_EQUAL(u32(out[2]) & 0x7fc00000u, 0x7fc00000u);
    CU_ASSERT_EQUAL(u32(out[3]), u32(-0.5f));
    /* logic ops (genxml 3D_Logic_Op_Function) and write disables */
    CU_ASSERT_EQUAL(om_rtl_bits(r, true, 6, 0xff00ff00u, 0x0ff00ff0u, 0), 0xf0f0f0f0u);   /* XOR */
    CU_ASSERT_EQUAL(om_rtl_bits(r, true, 1, 0xff00ff00u, 0x0ff00ff0u, 0), 0x000f000fu);   /* NOR */
    CU_ASSERT_EQUAL(om_rtl_bits(r, true, 15, 0, 0, 0), 0xffffffffu);                     /* SET */
    CU_ASSERT_EQUAL(om_rtl_bits(r, true, 12 + 16, 0x12345678u, 0, 0), 0x12345678u);      /* op & 15: COPY */
    CU_ASSERT_EQUAL(om_rtl_bits(r, false, 0, 0x11223344u, 0xaabbccddu, 0xff000000u), 0xaa223344u);
    CU_ASSERT_EQUAL(om_rtl_bits(r, true, 5, 0x11223344u, 0xaabbccddu, 0x0000ffffu), 0x5544ccddu);
    /* depth: D24 of 0.5 is 8388607.5 rounded half up = 0x800000; LESS against
     * 0x800001 passes and writes; D16 of 0.5: 0x8000 */
    struct ds_state st;
    memset(&st, 0, sizeof st);
    st.depth_test = st.depth_write = true;
    st.depth_function = 2;
    st.min_depth = 1.0f;
    st.max_depth = 0.0f;                /* min > max: no clamp */
    uint32_t depth = 0xab800001u;
    uint8_t stencil = 0x42;
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, false, 3, 0.5f, &depth, &stencil), 1u | 8u);
    CU_ASSERT_EQUAL(depth, 0x800000u);
    CU_ASSERT_EQUAL(stencil, 0x42);
    depth = 0x8000;
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, false, 5, 0.5f, &depth, &stencil), 4u);  /* not less */
    CU_ASSERT_EQUAL(depth, 0x8000u);
    /* the CC viewport clamps 0.9 to 0.75 before a D32_FLOAT EQUAL */
    st.depth_function = 3;
    st.min_depth = 0.25f;
    st.max_depth = 0.75f;
    depth = u32(0.75f);
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, false, 1, 0.9f, &depth, &stencil), 1u | 8u);
    CU_ASSERT_EQUAL(depth, u32(0.75f));
    /* stencil: back face of a double-sided state, (ref 0x0f & 0x0f) EQUAL
     * (0x3f & 0x0f) passes, depth NEVER fails: the back face's depth-fail op
     * DECRSAT on 0 stays 0 (BROKEN: wraps to 0xff) and counts as a write;
     * INCR through write mask 0xf0 on 0xff gives 0x0f */
    memset(&st, 0, sizeof st);
    st.depth_test = true;
    st.depth_function = 1;
    st.stencil_test = st.stencil_write = st.double_sided = true;
    st.back = (struct ds_face){ 3, 0, 4, 0, 0x0f, 0xff, 0x0f };
    st.front = (struct ds_face){ 1, 7, 7, 7, 0xff, 0xff, 0 };
    st.min_depth = 1.0f;
    depth = 0;
    stencil = 0x00;
    st.back.reference = 0x00;
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, true, 1, 0.5f, &depth, &stencil), 4u | 16u);
    CU_ASSERT_EQUAL(stencil, 0x00);
    st.back.depth_fail_op = 5;
    st.back.write_mask = 0xf0;
    st.back.test_mask = 0x0f;
    st.back.reference = 0x0f;
    stencil = 0xff;
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, true, 1, 0.5f, &depth, &stencil), 4u | 16u);
    CU_ASSERT_EQUAL(stencil, 0x0f);
    /* front face (not back-facing): NEVER fails the stencil, INVERT */
    stencil = 0x3c;
    CU_ASSERT_EQUAL(om_rtl_depth(r, &st, false, 1, 0.5f, &depth, &stencil), 2u | 16u);
    CU_ASSERT_EQUAL(stencil, 0xc3);
    CU_ASSERT_EQUAL(om_rtl_clocks(r), 2u * 18u);     /* 6 colour, 6 bits, 6 depth requests */
    om_rtl_destroy(r);
}

/* Millions of random requests against the C block: 0 mismatches, every
 * blend factor and function, stencil op and depth format reached. */
static void test_om_random_lockstep(void)
{
    struct om_random_options o = { .seed = 7, .requests = 2000000 };
    struct om_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(om_random_run(&o, &r, &err), 0);
    if (r.mismatches)
        printf("\n    %" PRIu64 " mismatches, first: %s ", r.mismatches, r.first_report);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, 2000000);
    CU_ASSERT_EQUAL(r.factors_seen & 0x07be07feu, 0x07be07feu);   /* 1..10, 17..21, 23..26 */
    CU_ASSERT_EQUAL(r.functions_seen & 0x1fu, 0x1fu);
    CU_ASSERT_EQUAL(r.stencil_ops_seen & 0x1ffu, 0x1ffu);          /* 0..7 and unknown */
    CU_ASSERT_EQUAL(r.formats_seen & 0x2au, 0x2au);                /* D32F, D24, D16 */
    CU_ASSERT(r.color > 900000 && r.bits > 300000 && r.depth > 500000);
}

/* The directed checks (om_random.h om_directed_run): no out_valid after reset
 * without a request, and colour products at the normal/denormal boundary equal
 * to the C block's, the other kinds' outputs 0. */
static void test_om_directed(void)
{
    struct om_random_result r;
    om_directed_run(false, &r);
    if (r.mismatches)
        printf("\n    %" PRIu64 " mismatches, first: %s ", r.mismatches, r.first_report);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, 15);
    CU_ASSERT_EQUAL(r.color, 15);
}

static void test_om_broken_is_caught(void)
{
    struct om_random_options o = { .seed = 3, .requests = 100000, .broken = true };
    struct om_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(om_random_run(&o, &r, &err), 0);
    printf("\n    caught: %.160s ", r.first_report);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "depth request #"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, ", rtl flags 0x"));
    /* the wave around it, from the command line */
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s om-random --impl lockstep_broken --requests 20000 --seed 3 "
                       "--wave %s/om_bad.fst > %s/om_bad.txt", bin, d, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q 'first mismatch at cycle' %s/om_bad.txt", d), 0);
    CU_ASSERT(file_size(tmp_path("om_bad.fst")) > 100);
    uint64_t t0, t1, nsig;
    CU_ASSERT_EQUAL_FATAL(cs_alu_rtl_fst_info(tmp_path("om_bad.fst"), &t0, &t1, &nsig), 0);
    CU_ASSERT(nsig > 50);
    CU_ASSERT(t1 - t0 <= (300 + 65) * 10);
    CU_ASSERT_EQUAL(sh("%s om-random --requests 20000 > %s/om_ok.txt", bin, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q ', 0 mismatching' %s/om_ok.txt", d), 0);
}

static uint64_t csv_value_of(const char *d, const char *name, const char *impl, const char *key)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s_%s", d, name, impl);
    return csv_value(dir, key);
}

/* The only rows om:rtl / om:lockstep add to stats.csv. */
#define OM_ADAPTER_ROWS "-e '^gpu\\.slice0\\.om\\.\\(rtl\\.[a-z_]*\\|compared\\|mismatches\\|no_answer\\),'"

struct om_frame {
    const char *name, *trace;
    const char *dumps[3];               /* the surfaces the capture draws (images.json) */
    const char *options;                /* more options of the runs, or NULL */
};

/* A real frame with om as the C unit, with its datapath as RTL and in
 * lockstep: stats.csv equal but the adapter's rows, every render target's
 * memory equal, lockstep with every blended pixel compared and no mismatch. */
static void om_frame_run(const struct om_frame *f)
{
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    for (int k = 0; k < 3; k++) {
        char dump[1200] = "";
        size_t n = 0;
        for (int i = 0; i < 3 && f->dumps[i]; i++)
            n += (size_t)snprintf(dump + n, sizeof dump - n, " --dump %s:%s/%s_%s.%d.bin",
                                  f->dumps[i], d, f->name, impls[k], i);
        int rc = sh("%s run -q -o %s/%s_%s --set gpu.slice.om.impl=%s %s %s %s > %s/%s_%s.log "
                    "2>&1", bin, d, f->name, impls[k], impls[k], f->options ? f->options : "",
                    dump, f->trace, d, f->name, impls[k]);
        if (rc != 0)
            printf("\n    %s with om impl %s: exit %d", f->name, impls[k], rc);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(sh("grep -v " OM_ADAPTER_ROWS " %s/%s_%s/stats.csv > %s/%s_%s.csv", d,
                           f->name, impls[k], d, f->name, impls[k]), 0);
    }
    CU_ASSERT_EQUAL(sh("cmp -s %s/%s_c.csv %s/%s_c/stats.csv", d, f->name, d, f->name), 0);
    for (int k = 1; k < 3; k++) {
        int rc = sh("cmp -s %s/%s_c.csv %s/%s_%s.csv", d, f->name, d, f->name, impls[k]);
        if (rc)
            sh("diff %s/%s_c.csv %s/%s_%s.csv | head -5", d, f->name, d, f->name, impls[k]);
        CU_ASSERT_EQUAL(rc, 0);
        for (int i = 0; i < 3 && f->dumps[i]; i++)
            CU_ASSERT_EQUAL(sh("cmp -s %s/%s_c.%d.bin %s/%s_%s.%d.bin", d, f->name, i, d, f->name,
                               impls[k], i), 0);
        /* the adapter's run writes the C om's images: the same PNGs and list */
        CU_ASSERT_EQUAL(sh("test -s %s/%s_%s/images/images.json && diff -r %s/%s_c/images "
                           "%s/%s_%s/images > /dev/null", d, f->name, impls[k], d, f->name, d,
                           f->name, impls[k]), 0);
    }
    /* the dumps are the surfaces the C run drew */
    for (int i = 0; i < 3 && f->dumps[i]; i++) {
        char address[64];
        snprintf(address, sizeof address, "%s", f->dumps[i]);
        *strchr(address, ':') = 0;
        CU_ASSERT_EQUAL(sh("grep -q '\"address\": \"%s\"' %s/%s_c/images/images.json", address, d,
                           f->name), 0);
    }
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.om.mismatches,0,' %s/%s_lockstep/stats.csv", d,
                       f->name), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.om.no_answer,0,' %s/%s_rtl/stats.csv", d, f->name), 0);
    /* every blended pixel went through the RTL and was compared */
    uint64_t blended = csv_value_of(d, f->name, "c", "gpu.slice0.om.pixels_blended");
    uint64_t colour = csv_value_of(d, f->name, "lockstep", "gpu.slice0.om.rtl.color_ops");
    uint64_t compared = csv_value_of(d, f->name, "lockstep", "gpu.slice0.om.compared");
    CU_ASSERT(blended > 0);
    CU_ASSERT(colour >= blended);
    CU_ASSERT(compared >= colour);
    CU_ASSERT_EQUAL(csv_value_of(d, f->name, "rtl", "gpu.slice0.om.rtl.color_ops"), colour);
}

static void test_om_frames(void)
{
    static const struct om_frame f[] = {
        { "blend_stencil", "tests/data/traces/skl_blend_stencil.aub.gz",
          { "0xfffffffeffc40000:4096", "0xfffffffeffc00000:16384", "0xfffffffefffd9000:16384" },
          NULL },
        { "fill_heavy", "tests/data/traces/skl_fill_heavy.aub.gz",
          { "0xfffffffeffe9d000:1048576", "0xfffffffeff500000:1048576", NULL }, NULL },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        om_frame_run(&f[i]);
}

/* om:lockstep_broken in a frame: the kind builds, runs and compares. Its bug
 * (DECRSAT) is on the late depth/stencil path, which SKL's captures do not
 * take (WM tests them early), so the frame itself matches; the bug is caught
 * by the random test (test_om_broken_is_caught). */
static void test_om_broken_kind_runs(void)
{
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/bs_broken --set gpu.slice.om.impl=lockstep_broken "
                       "tests/data/traces/skl_blend_stencil.aub.gz > %s/bs_broken.log 2>&1",
                       bin, d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q '^gpu.slice0.om.compared,[1-9]' %s/bs_broken/stats.csv", d), 0);
}

/* ---- the QPU ALUs (rtl/qpu_alu.sv) -------------------------------------------------- */

/* One instruction with every element alike, worked out by hand from seed 002's tables and
 * the C model's documented choices (isa/vc4/qpu_exec.c): IEEE bits written out, bytes and
 * halves by hand. -1 in a flag: not checked. */
struct qpu_hand {
    const char *what;
    uint8_t op_add, op_mul, add_a, add_b, mul_a, mul_b, pm, unpack, pack, cond_add, cond_mul;
    bool sf, add_pack_a, mul_pack_a;
    uint32_t a, b, ma, mb, old;
    uint32_t add, mul;
    int z, n, c;
};

static void qpu_hand_request(const struct qpu_hand *h, struct qpu_alu_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->op_add = h->op_add;
    rq->op_mul = h->op_mul;
    rq->add_a = h->add_a;
    rq->add_b = h->add_b;
    rq->mul_a = h->mul_a;
    rq->mul_b = h->mul_b;
    rq->pm = h->pm;
    rq->unpack = h->unpack;
    rq->pack = h->pack;
    rq->cond_add = h->cond_add;
    rq->cond_mul = h->cond_mul;
    rq->sf = h->sf;
    rq->add_pack_a = h->add_pack_a;
    rq->mul_pack_a = h->mul_pack_a;
    for (unsigned i = 0; i < QPU_LANES; i++) {
        rq->add_operand[0][i] = h->a;
        rq->add_operand[1][i] = h->b;
        rq->mul_operand[0][i] = h->ma;
        rq->mul_operand[1][i] = h->mb;
        rq->add_old[i] = rq->mul_old[i] = h->old;
    }
}

static void qpu_hand_check(const char *who, const struct qpu_hand *h,
                           const struct qpu_alu_result *r)
{
    bool ok = r->add_value[5] == h->add && r->mul_value[5] == h->mul &&
              (h->z < 0 || (r->flag_z == 0xffff) == (h->z == 1)) &&
              (h->n < 0 || (r->flag_n == 0xffff) == (h->n == 1)) &&
              (h->c < 0 || (r->flag_c == 0xffff) == (h->c == 1));
    if (!ok)
        printf("\n    %s: %s: add 0x%08x (want 0x%08x) mul 0x%08x (want 0x%08x) z %04x n %04x "
               "c %04x", who, h->what, r->add_value[5], h->add, r->mul_value[5], h->mul,
               r->flag_z, r->flag_n, r->flag_c);
    CU_ASSERT(ok);
}

/* mux codes: R0 0, R4 4, RA 6, RB 7; add ops: FADD 1 FSUB 2 FMIN 3 FMAXABS 6 FTOI 7 ITOF 8
 * ADD 12 SUB 13 ASR 15 ROR 16 CLZ 24 V8ADDS 30 V8SUBS 31; mul ops: FMUL 1 MUL24 2 V8MULD 3 */
static const struct qpu_hand qpu_hand_cases[] = {
    { "fadd 1 + 2 = 3", 1, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x3f800000, 0x40000000, 0, 0, 0, 0x40400000, 0, 0, 0, 0 },
    { "fsub 1 - 1 = +0: Z", 2, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x3f800000, 0x3f800000, 0, 0, 0, 0x00000000, 0, 1, 0, 0 },
    { "fadd of a denormal and -0: both flushed, +0 (float Z)", 1, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0,
      true, false, false, 0x00000001, 0x80000000, 0, 0, 0, 0x00000000, 0, 1, 0, 0 },
    { "fmul 1.5 * -2 = -3, flags from the mul (add nop): N", 0, 1, 0, 0, 6, 7, 0, 0, 0, 0, 1,
      true, false, false, 0, 0, 0x3fc00000, 0xc0000000, 0, 0, 0xc0400000, 0, 1, 0 },
    { "fmul 2^-100 * 2^-30: a denormal, flushed to +0", 0, 1, 0, 0, 6, 7, 0, 0, 0, 0, 1, true,
      false, false, 0, 0, 0x0d800000, 0x30800000, 0, 0, 0x00000000, 1, 0, 0 },
    { "fmul 2^-63 * -2^-63 = -2^-126 (the smallest normal, kept)", 0, 1, 0, 0, 6, 7, 0, 0, 0,
      0, 1, true, false, false, 0, 0, 0x20000000, 0xa0000000, 0, 0, 0x80800000, 0, 1, 0 },
    { "fsub inf - inf: the default NaN 0xffc00000, N", 2, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true,
      false, false, 0x7f800000, 0x7f800000, 0, 0, 0, 0xffc00000, 0, 0, 1, 0 },
    { "fmin(2, 1) = 1, C (a > b)", 3, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x40000000, 0x3f800000, 0, 0, 0, 0x3f800000, 0, 0, 0, 1 },
    { "fmaxabs(-3, 2) = 3, C", 6, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0xc0400000, 0x40000000, 0, 0, 0, 0x40400000, 0, 0, 0, 1 },
    { "ftoi -1.5 = -1 (truncation)", 7, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0xbfc00000, 0, 0, 0, 0, 0xffffffff, 0, 0, 1, 0 },
    { "ftoi 3e9: out of range, 0", 7, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x4f32d05e, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
    { "itof -1 = -1.0", 8, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0xffffffff, 0, 0, 0, 0, 0xbf800000, 0, 0, 1, 0 },
    { "itof 2^24 + 1 rounds to even: 2^24", 8, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x01000001, 0, 0, 0, 0, 0x4b800000, 0, 0, 0, 0 },
    { "sub 1 - 2 = -1: N, C (borrow)", 13, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      1, 2, 0, 0, 0, 0xffffffff, 0, 0, 1, 1 },
    { "add 0x7fffffff + 1 packed 32_sat: 0x7fffffff; flags of 0x80000000", 12, 0, 6, 7, 0, 0,
      0, 0, 8, 1, 0, true, true, false, 0x7fffffff, 1, 0, 0, 0, 0x7fffffff, 0, 0, 1, 0 },
    { "asr 0x80000000 by 4 = 0xf8000000", 15, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x80000000, 4, 0, 0, 0, 0xf8000000, 0, 0, 1, 0 },
    { "ror 0x12345678 by 8 (b's low 5 bits: 0x28)", 16, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true,
      false, false, 0x12345678, 0x28, 0, 0, 0, 0x78123456, 0, 0, 0, 0 },
    { "clz 0 = 32", 24, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0, 0, 0, 0, 0, 32, 0, 0, 0, 0 },
    { "v8adds saturates, v8muld rounds (x*y + 127) / 255", 30, 3, 6, 7, 6, 7, 0, 0, 0, 1, 1,
      true, false, false, 0xf0107f01, 0x20207f01, 0xff80ff01, 0xff80ff01, 0,
      0xff30fe02, 0xff40ff00, 0, 1, 0 },
    { "v8subs clamps at 0", 31, 0, 6, 7, 0, 0, 0, 0, 0, 1, 0, true, false, false,
      0x10ff0505, 0x20010506, 0, 0, 0, 0x00fe0000, 0, 0, 0, 0 },
    { "mul24 ignores the top bytes", 0, 2, 0, 0, 6, 7, 0, 0, 0, 0, 1, true, false, false,
      0, 0, 0x01000003, 0xff000002, 0, 0, 6, 0, 0, 0 },
    { "unpack 8a as a float (fadd consumes ra): 0xff -> 1.0", 1, 0, 6, 0, 0, 0, 0, 4, 0, 1, 0,
      true, false, false, 0x123456ff, 0, 0, 0, 0, 0x3f800000, 0, 0, 0, 0 },
    { "unpack 8b as a float: 0x80 -> 128/255", 1, 0, 6, 0, 0, 0, 0, 5, 0, 1, 0, true, false,
      false, 0x00008000, 0, 0, 0, 0, 0x3f008081, 0, 0, 0, 0 },
    { "unpack 8a as an integer (add consumes ra)", 12, 0, 6, 0, 0, 0, 0, 4, 0, 1, 0, true,
      false, false, 0x123456ff, 0, 0, 0, 0, 0xff, 0, 0, 0, 0 },
    { "unpack 16a as a half float: 0x3c00 -> 1.0", 1, 0, 6, 0, 0, 0, 0, 1, 0, 1, 0, true, false,
      false, 0x12343c00, 0, 0, 0, 0, 0x3f800000, 0, 0, 0, 0 },
    { "unpack 16b as an integer, sign-extended", 12, 0, 6, 0, 0, 0, 0, 2, 0, 1, 0, true, false,
      false, 0x80001234, 0, 0, 0, 0, 0xffff8000, 0, 0, 1, 0 },
    { "unpack 8d_rep replicates the top byte", 12, 0, 6, 0, 0, 0, 0, 3, 0, 1, 0, true, false,
      false, 0xab000000, 0, 0, 0, 0, 0xabababab, 0, 0, 1, 0 },
    { "r4 unpack 8b (pm=1) as a float into fmul: 0xff -> 1.0", 0, 1, 0, 0, 4, 7, 1, 5, 0, 0, 1,
      true, false, false, 0, 0, 0x0000ff00, 0x3f800000, 0, 0, 0x3f800000, 0, 0, 0 },
    { "mul pack 8888 (pm=1): 0.5 * 255 = 127.5 rounds to even 128", 0, 1, 0, 0, 6, 7, 1, 0, 3,
      0, 1, true, false, false, 0, 0, 0x3f000000, 0x3f800000, 0, 0, 0x80808080, 0, 0, 0 },
    { "mul pack 8c (pm=1) keeps the other bytes", 0, 1, 0, 0, 6, 7, 1, 0, 6, 0, 1, true, false,
      false, 0, 0, 0x3f800000, 0x3f800000, 0x11223344, 0, 0x11ff3344, 0, 0, 0 },
    { "regfile-A pack 16a of a float: half 1.0, the high half kept", 1, 0, 6, 7, 0, 0, 0, 0, 1,
      1, 0, true, true, false, 0x3f800000, 0, 0, 0, 0xaaaabbbb, 0xaaaa3c00, 0, 0, 0, 0 },
    { "regfile-A pack 16b_sat of an integer: 70000 -> 0x7fff", 12, 0, 6, 7, 0, 0, 0, 0, 10, 1,
      0, true, true, false, 70000, 0, 0, 0, 0x0000bbbb, 0x7fffbbbb, 0, 0, 0, 0 },
    { "regfile-A pack 8888_sat of -5: 0", 13, 0, 6, 7, 0, 0, 0, 0, 11, 1, 0, true, true, false,
      0, 5, 0, 0, 0, 0x00000000, 0, 0, 1, 1 },
    { "never: nothing written, flags kept (all clear)", 12, 1, 6, 7, 6, 7, 0, 0, 0, 0, 0, true,
      false, false, 1, 1, 0x3f800000, 0x3f800000, 0, 2, 0x3f800000, 0, 0, 0 },
};

static void test_qpu_by_hand(void)
{
    struct qpu_alu_rtl *rtl = qpu_alu_rtl_create(false, false);
    qpu_alu_rtl_reset(rtl);
    for (size_t k = 0; k < sizeof qpu_hand_cases / sizeof qpu_hand_cases[0]; k++) {
        const struct qpu_hand *h = &qpu_hand_cases[k];
        struct qpu_alu_request rq;
        struct qpu_alu_result c, v;
        qpu_hand_request(h, &rq);
        memset(&v, 0, sizeof v);
        CU_ASSERT_EQUAL(qpu_alu_rtl_compute_many(rtl, &rq, &v, 1), 0);
        qpu_hand_check("rtl", h, &v);
        qpu_alu_compute(&rq, &c);
        qpu_hand_check("c", h, &c);
        uint16_t want_lanes = h->cond_add ? 0xffff : 0;
        CU_ASSERT_EQUAL(v.add_lanes, h->op_add ? want_lanes : 0);
    }
    /* conditions per element: ZS with Z set on elements 0..7 writes those, and only their
     * flags change */
    struct qpu_alu_request rq;
    qpu_hand_request(&qpu_hand_cases[0], &rq);
    rq.cond_add = 2;
    rq.flag_z = 0x00ff;
    struct qpu_alu_result v;
    memset(&v, 0, sizeof v);
    CU_ASSERT_EQUAL(qpu_alu_rtl_compute_many(rtl, &rq, &v, 1), 0);
    CU_ASSERT_EQUAL(v.add_lanes, 0x00ff);
    CU_ASSERT_EQUAL(v.flag_z, 0x0000);      /* 3.0 is not zero: cleared where written */
    rq.flag_z = 0xff00;
    CU_ASSERT_EQUAL(qpu_alu_rtl_compute_many(rtl, &rq, &v, 1), 0);
    CU_ASSERT_EQUAL(v.add_lanes, 0xff00);
    CU_ASSERT_EQUAL(v.flag_z, 0x0000);
    CU_ASSERT_EQUAL(qpu_alu_rtl_clocks(rtl) > 0, 1);
    qpu_alu_rtl_destroy(rtl);
}

/* The idle rule after reset: with no quad given, out_valid stays low (three reset
 * values of the valid pipeline survived every random run, which looks at out_valid
 * only when a quad is due; the mutation runner runs this first). */
static void test_qpu_idle_after_reset(void)
{
    struct qpu_alu_rtl *r = qpu_alu_rtl_create(false, false);
    CU_ASSERT_EQUAL(qpu_alu_rtl_idle_after_reset(r, 4), 0);
    qpu_alu_rtl_destroy(r);
}

static void test_qpu_random_lockstep(void)
{
    struct qpu_random_options o = { .seed = 11, .requests = 1000000 };
    struct qpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(qpu_random_run(&o, &r, &err), 0);
    if (r.mismatches)
        printf("\n    %" PRIu64 " mismatches, first: %s ", r.mismatches, r.first_report);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.no_answer, 0);
    CU_ASSERT_EQUAL(r.compared, 1000000);   /* 16M element operations of each ALU */
    CU_ASSERT_EQUAL(r.add_ops_seen, 0xfffffffeu);   /* every code, reserved ones too */
    CU_ASSERT_EQUAL(r.mul_ops_seen, 0xfe);
    CU_ASSERT_EQUAL(r.packs_seen[0], 0xffff);
    CU_ASSERT_EQUAL(r.packs_seen[1], 0xffff);
    CU_ASSERT_EQUAL(r.unpacks_seen[0], 0xff);
    CU_ASSERT_EQUAL(r.unpacks_seen[1], 0xff);
    /* a quad a clock, two more clocks to drain each batch of 64 */
    CU_ASSERT_EQUAL(r.clocks, 1000000ull * 4 + 2 * (1000000 / 64));
}

/* Results around the smallest normal (qpu_random.h boundary): a mutant of round_pack's
 * denormal test (e < 1 -> e < 2) survived the random instructions: it differs only for a
 * result of exponent field 1 whose significand of ones rounds up into field 2 (e.g.
 * 0x3f800001 x 0x00fffffe = 0x01000000, which it flushes to 0). */
static void test_qpu_boundary_lockstep(void)
{
    struct qpu_random_options o = { .seed = 12, .requests = 100000, .boundary = true };
    struct qpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(qpu_random_run(&o, &r, &err), 0);
    if (r.mismatches)
        printf("\n    %" PRIu64 " mismatches, first: %s ", r.mismatches, r.first_report);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    CU_ASSERT_EQUAL(r.compared, 100000);
    CU_ASSERT_EQUAL(r.add_ops_seen, 0x6u);          /* fadd, fsub */
    CU_ASSERT_EQUAL(r.mul_ops_seen, 0x2u);          /* fmul */
}

static void test_qpu_broken_is_caught(void)
{
    struct qpu_random_options o = { .seed = 3, .requests = 20000, .broken = true,
                                    .stop_at_first = true };
    struct qpu_random_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(qpu_random_run(&o, &r, &err), 0);
    printf("\n    caught: %.160s ", r.first_report);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.first_report, "field mul_value: c-model 0x"));
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s qpu-random --impl lockstep_broken --requests 5000 --seed 3 "
                       "--wave %s/qpu_bad.fst > %s/qpu_bad.txt", bin, d, d), 3);
    CU_ASSERT_EQUAL(sh("grep -q 'first mismatch at cycle' %s/qpu_bad.txt", d), 0);
    CU_ASSERT(file_size(tmp_path("qpu_bad.fst")) > 100);
    CU_ASSERT_EQUAL(sh("%s qpu-random --requests 5000 > %s/qpu_ok.txt", bin, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q ', 0 mismatching' %s/qpu_ok.txt", d), 0);
}

/* The only rows qpu:rtl / qpu:lockstep add to stats.csv. */
#define QPU_ADAPTER_ROWS "-e '\\.qpu[0-9]*\\.\\(rtl\\.[a-z_]*\\|compared\\|mismatches\\|no_answer\\),'"

/* GPU_FFT (the real shaders, ../shared/workloads/gpu_fft/hex) on the twelve QPUs as qpu,
 * qpu:rtl and qpu:lockstep: the same stats.csv but the adapters' rows, the same printed
 * result, every ALU instruction compared with no mismatch. */
static void test_qpu_gpu_fft(void)
{
    if (access("../shared/workloads/gpu_fft/hex", R_OK) != 0) {
        printf("\n    ../shared/workloads/gpu_fft/hex absent: skipped ");
        return;
    }
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    for (int k = 0; k < 3; k++) {
        int rc = sh("%s run -q -o %s/fft_%s --set gpu.slice.qpu.impl=%s gpu_fft:log2n=8 > "
                    "%s/fft_%s.log 2>&1", bin, d, impls[k], impls[k], d, impls[k]);
        if (rc)
            sh("tail -5 %s/fft_%s.log", d, impls[k]);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(sh("grep -v " QPU_ADAPTER_ROWS " %s/fft_%s/stats.csv > %s/fft_%s.csv", d,
                           impls[k], d, impls[k]), 0);
    }
    CU_ASSERT_EQUAL(sh("cmp -s %s/fft_c.csv %s/fft_c/stats.csv", d, d), 0);
    for (int k = 1; k < 3; k++) {
        int rc = sh("cmp -s %s/fft_c.csv %s/fft_%s.csv", d, d, impls[k]);
        if (rc)
            sh("diff %s/fft_c.csv %s/fft_%s.csv | head -5", d, d, impls[k]);
        CU_ASSERT_EQUAL(rc, 0);
    }
    CU_ASSERT_EQUAL(sh("! grep -q 'qpu[0-9]*\\.mismatches,[1-9]' %s/fft_lockstep/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("! grep -q 'qpu[0-9]*\\.no_answer,[1-9]' %s/fft_rtl/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'slice0\\.qpu0\\.compared,[1-9]' %s/fft_lockstep/stats.csv", d), 0);
    /* the broken RTL (fmul truncates) in the frame: caught, the run fails, every mismatch
     * named (unit, instruction, cycle, element, field, operands) */
    CU_ASSERT_NOT_EQUAL(sh("%s run -q -o %s/fft_broken --set gpu.slice.qpu.impl=lockstep_broken "
                           "gpu_fft:log2n=8 > %s/fft_broken.log 2>&1", bin, d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'qpu[0-9]*\\.mismatches,[1-9]' %s/fft_broken/stats.csv", d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'cosim mismatch: unit gpu.slice[0-9].qpu[0-9] port alu "
                       "instruction #[0-9]* cycle [0-9]* (rtl clock [0-9]*): element [0-9]* "
                       "field mul_value' %s/fft_broken.log", d), 0);
}

/* The VideoCore IV captures kept in tests/data/vc4 (vc4_tri: Mesa's vc4
 * driver's triangle; vc4_strip_fan: the ext suite's strip_fan, binning and
 * tile rendering, 25 primitives) with the QPUs' ALUs as C, RTL and lockstep:
 * identical stats.csv but the adapters' rows, identical images (--images:
 * the same PNG bytes per surface), 0 mismatches with every QPU that ran an
 * instruction compared, and the BROKEN RTL (fmul truncates) caught in the
 * frame when the shaders multiply. Issue 20 item 3. */
static void test_qpu_vc4_frames(void)
{
    static const char *const captures[] = { "vc4_tri", "vc4_strip_fan" };
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    for (int f = 0; f < 2; f++) {
        const char *cap = captures[f];
        for (int k = 0; k < 3; k++) {
            int rc = sh("%s run -q -o %s/%s_%s --images %s/%s_%s/images --set "
                        "gpu.slice.qpu.impl=%s tests/data/vc4/%s.vc4dump.gz > %s/%s_%s.log 2>&1",
                        bin, d, cap, impls[k], d, cap, impls[k], impls[k], cap, d, cap, impls[k]);
            if (rc)
                sh("tail -5 %s/%s_%s.log", d, cap, impls[k]);
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_EQUAL(sh("grep -v " QPU_ADAPTER_ROWS " %s/%s_%s/stats.csv > %s/%s_%s.csv", d,
                               cap, impls[k], d, cap, impls[k]), 0);
        }
        /* the C run has no adapter rows to drop: the filter cannot hide a difference */
        CU_ASSERT_EQUAL(sh("cmp -s %s/%s_c.csv %s/%s_c/stats.csv", d, cap, d, cap), 0);
        CU_ASSERT_EQUAL(sh("ls %s/%s_c/images/*.png > /dev/null", d, cap), 0);
        for (int k = 1; k < 3; k++) {
            int rc = sh("cmp -s %s/%s_c.csv %s/%s_%s.csv", d, cap, d, cap, impls[k]);
            if (rc)
                sh("diff %s/%s_c.csv %s/%s_%s.csv | head -5", d, cap, d, cap, impls[k]);
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_EQUAL(sh("diff -r %s/%s_c/images %s/%s_%s/images", d, cap, d, cap,
                               impls[k]), 0);
        }
        CU_ASSERT_EQUAL(sh("! grep -q 'qpu[0-9]*\\.mismatches,[1-9]' %s/%s_lockstep/stats.csv", d,
                           cap), 0);
        CU_ASSERT_EQUAL(sh("! grep -q 'qpu[0-9]*\\.no_answer,[1-9]' %s/%s_rtl/stats.csv", d, cap),
                        0);
        CU_ASSERT_EQUAL(sh("grep -q 'qpu[0-9]*\\.compared,[1-9]' %s/%s_lockstep/stats.csv", d,
                           cap), 0);
        /* every QPU that issued an instruction had its ALU answers compared */
        CU_ASSERT_EQUAL(sh("awk -F, '/\\.qpu[0-9]*\\.instructions,/ { split($1, a, \".instructions\"); "
                           "if ($2 > 0) ran[a[1]] = 1 } /\\.qpu[0-9]*\\.compared,/ { "
                           "split($1, a, \".compared\"); if ($2 > 0) cmp[a[1]] = 1 } END { n = 0; "
                           "for (q in ran) { n++; if (!(q in cmp)) exit 1 } exit n == 0 }' "
                           "%s/%s_lockstep/stats.csv", d, cap), 0);
        printf("\n    %s: stats and images identical with qpu, qpu:rtl, qpu:lockstep ", cap);
    }
    /* the broken RTL in a frame: caught, named */
    CU_ASSERT_NOT_EQUAL(sh("%s run -q -o %s/vc4_broken --set gpu.slice.qpu.impl=lockstep_broken "
                           "tests/data/vc4/vc4_strip_fan.vc4dump.gz > %s/vc4_broken.log 2>&1", bin,
                           d, d), 0);
    CU_ASSERT_EQUAL(sh("grep -q 'cosim mismatch: unit gpu.slice[0-9].qpu[0-9]* port alu' "
                       "%s/vc4_broken.log", d), 0);
}

/* ---- the depth/stencil path in real frames, datapath replay ------------------------------ */

#define LATE_DEPTH "--set gpu.wm.force_late_depth=true"

/* A stat of the run written to tmpdir/sub. */
static uint64_t csv_in(const char *sub, const char *key)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
    return csv_value(dir, key);
}

/* skl blend_stencil with WM's Early Depth/Stencil Control read as PSEXEC (the
 * param force_late_depth, a mode the driver may program): every depth/stencil
 * test of the frame is done late, by om's datapath, so the RTL's depth path
 * runs in a real frame. om, om:rtl and om:lockstep give the same stats.csv
 * (but the adapter's rows) and render targets, 0 mismatches; every late test
 * went through the RTL; and the late frame draws what the early one draws
 * (WM's early test and om's late test are one function, ds_test). */
static void test_om_late_depth_frame(void)
{
    static const struct om_frame late = {
        "late_bs", "tests/data/traces/skl_blend_stencil.aub.gz",
        { "0xfffffffeffc40000:4096", "0xfffffffeffc00000:16384", "0xfffffffefffd9000:16384" },
        LATE_DEPTH,
    };
    om_frame_run(&late);
    const char *d = tmpdir;
    uint64_t late_pixels = csv_value_of(d, "late_bs", "c", "gpu.wm.depth.late_pixels");
    uint64_t depth_ops = csv_value_of(d, "late_bs", "lockstep", "gpu.slice0.om.rtl.depth_ops");
    CU_ASSERT(late_pixels > 1000);
    CU_ASSERT(depth_ops >= late_pixels);
    printf("\n    %" PRIu64 " late-tested pixels, %" PRIu64 " depth/stencil requests compared ",
           late_pixels, depth_ops);
    CU_ASSERT_EQUAL(csv_value_of(d, "late_bs", "rtl", "gpu.slice0.om.rtl.depth_ops"), depth_ops);
    /* the early run (WM tests) draws the same colour, depth and stencil */
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/early_bs --dump 0xfffffffeffc40000:4096:%s/early_bs.0.bin "
                       "--dump 0xfffffffeffc00000:16384:%s/early_bs.1.bin --dump "
                       "0xfffffffefffd9000:16384:%s/early_bs.2.bin "
                       "tests/data/traces/skl_blend_stencil.aub.gz > %s/early_bs.log 2>&1", bin, d,
                       d, d, d, d), 0);
    CU_ASSERT_EQUAL(csv_in("early_bs", "gpu.wm.depth.late_pixels"), 0);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(sh("cmp -s %s/early_bs.%d.bin %s/late_bs_c.%d.bin", d, i, d, i), 0);
}

static int replay_file(const char *path, bool broken, const char *wave,
                       struct datapath_replay_result *r, struct gt_error *err)
{
    struct datapath_replay_options o = { .path = path, .broken = broken, .wave = wave };
    return datapath_replay(&o, r, err);
}

/* om's datapath requests of the late-depth blend_stencil frame, recorded by
 * om:lockstep (record_datapath), replayed into the RTL: every request, 0
 * mismatches; the BROKEN RTL (DECRSAT wraps 0 to 0xff) is caught replaying a
 * recorded request that decrements a zero stencil with saturation (the C
 * block's answer 0, as seed 003's DECRSAT says), with the wave around it. */
static void test_om_datapath_replay(void)
{
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/rec_bs --set gpu.slice.om.impl=lockstep " LATE_DEPTH
                       " --set gpu.slice.om.record_datapath=%s/om.dprec "
                       "tests/data/traces/skl_blend_stencil.aub.gz > %s/rec_bs.log 2>&1", bin, d,
                       d, d), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/om.dprec", d);
    struct datapath_replay_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL(replay_file(path, false, NULL, &r, &err), 0);
    uint64_t ops = csv_in("rec_bs", "gpu.slice0.om.rtl.color_ops") +
                   csv_in("rec_bs", "gpu.slice0.om.rtl.bits_ops") +
                   csv_in("rec_bs", "gpu.slice0.om.rtl.depth_ops");
    CU_ASSERT(ops > 1000);
    CU_ASSERT_EQUAL(r.records, ops);
    CU_ASSERT_EQUAL(r.compared, ops);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    printf("\n    %" PRIu64 " recorded om datapath requests replayed ", r.records);
    CU_ASSERT_STRING_EQUAL(r.block, "om_pixel");
    CU_ASSERT_STRING_EQUAL(r.unit, "gpu.slice0.om");
    if (r.mismatches)
        printf("\n    %s", r.first_report);
    /* a recorded stencil request decrementing 0 with saturation (DECRSAT = 4) as the pass op
     * of a stencil test ALWAYS (0), masks 0xff; depth test off, D32_FLOAT (1). The answer as
     * seed 003 gives it: the pixel passes, DECRSAT keeps 0, and the stencil is written since
     * the op is not KEEP (L16677-16711): flags PASS | STENCIL_WRITTEN, depth 0, stencil 0 */
    CU_ASSERT_EQUAL(sh("head -3 %s/om.dprec > %s/decrsat.dprec && grep -m 40 '^color' "
                       "%s/om.dprec >> %s/decrsat.dprec && printf 'depth 9 0 0 0 1 1 0 0 0 0 4 ff "
                       "ff 0 0 0 0 4 ff ff 0 bf800000 3f800000 0 1 3f000000 0 0 = %x 0 0\\n' >> "
                       "%s/decrsat.dprec", d, d, d, d, DS_PASS | DS_STENCIL_WRITTEN, d), 0);
    snprintf(path, sizeof path, "%s/decrsat.dprec", d);
    CU_ASSERT_EQUAL(replay_file(path, false, NULL, &r, &err), 0);
    CU_ASSERT_EQUAL(r.records, 41);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    char wave[400];
    snprintf(wave, sizeof wave, "%s/decrsat.fst", d);
    CU_ASSERT_EQUAL(replay_file(path, true, wave, &r, &err), 0);
    CU_ASSERT_EQUAL(r.mismatches, 1);
    CU_ASSERT_EQUAL(r.first_record, 41);
    CU_ASSERT(strstr(r.first_report, "port depth record #41 cycle 9 (rtl clock ") != NULL);
    CU_ASSERT(strstr(r.first_report, "field stencil: c-model flags") != NULL);
    CU_ASSERT(r.wave_written && r.wave_from == 0);
    CU_ASSERT_EQUAL(sh("test -s %s", wave), 0);
    /* the command line: exit 3, the line, the wave */
    CU_ASSERT_EQUAL(sh("%s datapath-replay --in %s --broken --wave %s/cli.fst > %s/dpr.log; "
                       "test $? -eq 3 && grep -q 'cosim mismatch: replay .* unit gpu.slice0.om "
                       "port depth record #41' %s/dpr.log && grep -q 'wave: ' %s/dpr.log && "
                       "test -s %s/cli.fst", bin, path, d, d, d, d, d), 0);
}

/* The QPU ALU requests of GPU_FFT 2^8, recorded by qpu:lockstep (a file a QPU) and qpu0's
 * replayed into the RTL: every instruction, 0 mismatches; into the BROKEN RTL (fmul truncates): caught,
 * with the wave around the first mismatch. */
static void test_qpu_datapath_replay(void)
{
    if (access("../shared/workloads/gpu_fft/hex", R_OK) != 0) {
        printf("\n    ../shared/workloads/gpu_fft/hex absent: skipped ");
        return;
    }
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    const char *d = tmpdir;
    CU_ASSERT_EQUAL(sh("%s run -q -o %s/rec_fft --set gpu.slice.qpu.impl=lockstep "
                       "--set gpu.slice.qpu.record_datapath=%s/qpu.@.dprec gpu_fft:log2n=8 > "
                       "%s/rec_fft.log 2>&1", bin, d, d, d), 0);
    char path[400], wave[400];
    snprintf(path, sizeof path, "%s/qpu.gpu.slice0.qpu0.dprec", d);
    CU_ASSERT_EQUAL(sh("test -s %s/qpu.gpu.slice2.qpu3.dprec", d), 0);   /* one a QPU */
    snprintf(wave, sizeof wave, "%s/qpu.fst", d);
    struct datapath_replay_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL(replay_file(path, false, NULL, &r, &err), 0);
    uint64_t compared = csv_in("rec_fft", "gpu.slice0.qpu0.compared");
    CU_ASSERT(compared > 500);
    CU_ASSERT_EQUAL(r.records, compared);
    CU_ASSERT_EQUAL(r.compared, compared);
    CU_ASSERT_EQUAL(r.mismatches, 0);
    printf("\n    %" PRIu64 " recorded ALU instructions of qpu0 replayed ", r.records);
    CU_ASSERT_STRING_EQUAL(r.block, "qpu_alu");
    if (r.mismatches)
        printf("\n    %s", r.first_report);
    CU_ASSERT_EQUAL(replay_file(path, true, wave, &r, &err), 0);
    CU_ASSERT(r.mismatches > 0);
    CU_ASSERT(strstr(r.first_report, "unit gpu.slice0.qpu0 port alu record #") != NULL);
    CU_ASSERT(strstr(r.first_report, "field mul_value") != NULL);
    CU_ASSERT(r.wave_written && r.wave_to == r.first_mismatch + 20);
    CU_ASSERT_EQUAL(sh("test -s %s", wave), 0);
}

/* Malformed recordings: an error naming the file and line, never a crash; the records
 * before the bad line are replayed. */
static void test_datapath_recording_malformed(void)
{
    static const char header[] = "gtsim-datapath-recording 1\nblock om_pixel\nunit u\n";
    /* no logic op, no disabled channel: the source word (seed 003 L16657-16721) */
    static const char good_bits[] = "bits 5 0 3 f0f0f0f0 ff00ff00 0 = f0f0f0f0\n";
    static const struct { const char *text, *line, *what; } cases[] = {
        { "not a recording\n", "line 1", "not a datapath recording" },
        { "gtsim-datapath-recording 1\nblock gpu\nunit u\n", "line 2", "block om_pixel" },
        { "gtsim-datapath-recording 1\nblock om_pixel\n", "line 3", "unit NAME" },
        { "frobnicate 1 2 = 3\n", "line 5", "unknown record kind" },
        { "alu 1 0 = 0\n", "line 5", "in a recording of block om_pixel" },
        { "bits 5 1 3 f0f0f0f0 = f0f0f0f0\n", "line 5", "request word 4 of 5" },
        { "bits 5 2 3 f0f0f0f0 ff00ff00 0 = f0f0f0f0\n", "line 5", "a bool: 0 or 1" },
        { "bits 5 1 3 f0f0f0f0 ff00ff00 0 1 = 0\n", "line 5", "no '='" },
        { "bits 5 1 3 f0f0f0f0 ff00ff00 0 = f0f0f0f0 7\n", "line 5", "answer longer" },
        { "bits 5 1 3 f0f0f0f0 ff00ff00 zz = 1\n", "line 5", "not hexadecimal" },
        { "bits 5 1 3 f0f0f0f0 ff00ff00 123456789 = 1\n", "line 5", "out of range" },
        { "depth 1 0 0 0 0 0 0 0 0 0 0 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 = 0 0 0\n", "line 5",
          "8 bits" },
        { "bits\n", "line 5", "no cycle" },
        { "bits 5 1 3 f0f0f0f0 ff00ff00 0 =", "line 5", "answer word 1 of 1" },
    };
    char path[400];
    snprintf(path, sizeof path, "%s/bad.dprec", tmpdir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        bool with_header = strncmp(cases[i].text, "gtsim", 5) != 0 &&
                           strncmp(cases[i].text, "not a", 5) != 0;
        if (with_header)
            fprintf(f, "%s%s", header, good_bits);
        fputs(cases[i].text, f);
        fclose(f);
        struct datapath_replay_result r;
        struct gt_error err;
        int rc = replay_file(path, false, NULL, &r, &err);
        CU_ASSERT_EQUAL(rc, -1);
        bool named = rc < 0 && strstr(err.message, path) && strstr(err.message, cases[i].line) &&
                     strstr(err.message, cases[i].what);
        if (!named)
            printf("\n    case %zu: %s", i, rc < 0 ? err.message : "accepted");
        CU_ASSERT(named);
        if (with_header) {
            CU_ASSERT_EQUAL(r.records, 1);      /* the good line before it was replayed */
            CU_ASSERT_EQUAL(r.mismatches, 0);
        }
    }
    struct datapath_replay_result r;
    struct gt_error err;
    CU_ASSERT_EQUAL(replay_file("/nonexistent/x.dprec", false, NULL, &r, &err), -1);
    CU_ASSERT(strstr(err.message, "cannot read") != NULL);
    char bin[4096];
    cosim_bin(bin, sizeof bin);
    CU_ASSERT_EQUAL(sh("%s datapath-replay --in %s > /dev/null 2>&1; test $? -eq 1", bin, path),
                    0);
}

struct test { const char *suite, *name; void (*run)(void); };


/* ---- adapter tables: every <kind>:<mode> takes its C kind's params and ports ---- */

/* A value of param p other than its default, in range, as config text (""
 * when there is none: a string, or a one-value range). */
static void other_value(const struct param_desc *p, char *buf, size_t size)
{
    buf[0] = 0;
    switch (p->type) {
    case PARAM_BOOL:
        snprintf(buf, size, "%s", p->def ? "false" : "true");
        break;
    case PARAM_U32:
    case PARAM_U64:
    case PARAM_I64:
        if (p->def < p->max)
            snprintf(buf, size, "%" PRId64, p->def + 1);
        else if (p->def > p->min)
            snprintf(buf, size, "%" PRId64, p->def - 1);
        break;
    case PARAM_DOUBLE:
        if (p->fdef < p->fmax)
            snprintf(buf, size, "%.17g", p->fdef + (p->fmax - p->fdef) / 2);
        break;
    case PARAM_STRING:
        break;
    }
}

/* The kind of every co-simulated C unit, the adapters' modes: the adapter's
 * tables (as the lookup gives them) hold every param of the C kind with its
 * type, range and default, and every port with its direction, array, flags
 * and message kinds; a unit of the adapter kind takes each C param set to a
 * value other than its default (one at a time) exactly when the C unit
 * alone takes it, and in lockstep the C unit inside gets that value. The
 * tables are joined from the C kinds' unit_ops (cosim_kinds.h), so this holds
 * for a param or port added to a C unit later. */
static void test_adapters_take_c_tables(void)
{
    static const char *const modes[] = { "lockstep", "rtl", "lockstep_broken", "record" };
    static const char *const c_kinds[] = { "cs_alu", "fpu", "l3", "om", "qpu" };
    unsigned checked_params = 0, checked_ports = 0, transferred = 0;
    for (size_t k = 0; k < sizeof c_kinds / sizeof c_kinds[0]; k++) {
        const struct unit_ops *c_ops = unit_kind_find(c_kinds[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c_ops);
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            char kind[64];
            snprintf(kind, sizeof kind, "%s:%s", c_kinds[k], modes[m]);
            const struct unit_ops *a_ops = cosim_kind_find(kind);
            if (!a_ops) {
                CU_ASSERT(m == 3);      /* record: cs_alu only */
                continue;
            }
            const struct unit_ops *own = cosim_kind_own_tables(kind);
            CU_ASSERT_PTR_NOT_NULL_FATAL(own);
            /* om's and qpu's adapters declare none of their C kind's params and
             * ports: every one they take comes from the join */
            unsigned joined_only = 0;
            for (const struct param_desc *p = c_ops->params; p && p->path; p++)
                joined_only += !param_find(own->params, p->path);
            if (!strcmp(c_kinds[k], "om") || !strcmp(c_kinds[k], "qpu"))
                CU_ASSERT(joined_only > 0 && own->ports && !own->ports->name);
            for (const struct param_desc *p = c_ops->params; p && p->path; p++) {
                const struct param_desc *q = param_find(a_ops->params, p->path);
                if (!q) {
                    CU_FAIL("an adapter lacks a param of its C kind");
                    printf("\n  %s has no param '%s' of %s\n", kind, p->path, c_kinds[k]);
                    continue;
                }
                checked_params++;
                CU_ASSERT_EQUAL(q->type, p->type);
                if (!param_find(own->params, p->path)) {
                    /* taken from the C kind: its range and default */
                    CU_ASSERT(q->min == p->min && q->max == p->max && q->def == p->def);
                    CU_ASSERT(q->offset >= own->state_size);
                    CU_ASSERT(q->offset + param_type_size(q->type) <= a_ops->state_size);
                }
            }
            for (const struct port_desc *d = c_ops->ports; d && d->name; d++) {
                const struct port_desc *e = NULL;
                for (const struct port_desc *x = a_ops->ports; x && x->name && !e; x++)
                    if (strcmp(x->name, d->name) == 0)
                        e = x;
                if (!e) {
                    CU_FAIL("an adapter lacks a port of its C kind");
                    printf("\n  %s has no port '%s' of %s\n", kind, d->name, c_kinds[k]);
                    continue;
                }
                checked_ports++;
                CU_ASSERT_EQUAL(e->direction, d->direction);
                CU_ASSERT_EQUAL(e->msg_kinds, d->msg_kinds);
                CU_ASSERT_EQUAL(e->flags & PORT_OPEN, d->flags & PORT_OPEN);
            }
            /* each param set on a unit of the adapter kind, one at a time */
            for (const struct param_desc *p = c_ops->params; p && p->path; p++) {
                char value[64], over[PARAM_STRING_MAX + 64];
                other_value(p, value, sizeof value);
                snprintf(over, sizeof over, "%s=%s", p->path, value);
                const char *overrides[] = { value[0] ? over : NULL, NULL };
                struct sim_options so = { .log_level = SIM_LOG_ERROR };
                struct gt_error err;
                struct sim *c_sim = sim_create(&so), *a_sim = sim_create(&so);
                CU_ASSERT_EQUAL_FATAL(sim_add_clock(c_sim, "gt", 1000, &err), 0);
                CU_ASSERT_EQUAL_FATAL(sim_add_clock(a_sim, "gt", 1000, &err), 0);
                struct unit *c = sim_add_unit(c_sim, c_ops, "u", 0, NULL, overrides, &err);
                struct unit *a = sim_add_unit(a_sim, a_ops, "u", 0, NULL, overrides, &err);
                if (!c != !a)
                    printf("\n  %s=%s: %s %s, %s %s (%s)\n", p->path, value, c_kinds[k],
                           c ? "takes it" : "refuses it", kind, a ? "takes it" : "refuses it",
                           err.message);
                CU_ASSERT(!c == !a);
                struct unit *inner = a ? unit_inner(a) : NULL;
                if (inner && c && value[0]) {
                    CU_ASSERT(memcmp((const char *)unit_state(inner) + p->offset,
                                     (const char *)unit_state(c) + p->offset,
                                     param_type_size(p->type)) == 0);
                    transferred++;
                }
                sim_destroy(c_sim);
                sim_destroy(a_sim);
            }
            /* the C kind's ports that exist without links, on the adapter's unit */
            struct sim_options so = { .log_level = SIM_LOG_ERROR };
            struct gt_error err;
            struct sim *a_sim = sim_create(&so);
            CU_ASSERT_EQUAL_FATAL(sim_add_clock(a_sim, "gt", 1000, &err), 0);
            struct unit *a = sim_add_unit(a_sim, a_ops, "u", 0, NULL, NULL, &err);
            CU_ASSERT_PTR_NOT_NULL(a);
            for (const struct port_desc *d = c_ops->ports; a && d && d->name; d++)
                if (!(d->flags & PORT_OPEN) && !d->count_param)
                    CU_ASSERT_PTR_NOT_NULL(unit_port(a, d->name, 0));
            sim_destroy(a_sim);
        }
    }
    printf("\n  %u params and %u ports of the C kinds found in their adapters; %u param values "
           "passed to the C unit inside\n", checked_params, checked_ports, transferred);
    CU_ASSERT(checked_params > 40 && checked_ports > 30 && transferred > 20);
}

static const struct test tests[] = {
    { "tables", "every <kind>:<mode> takes its C kind's params and ports",
      test_adapters_take_c_tables },
    { "rtl", "RTL and adapters keep the C unit's timing", test_rtl_timing_matches_c_unit },
    { "rtl", "cs_alu RTL alone: cfg_cpi 0 reads as 1, cpi clocks an instruction",
      test_rtl_cpi_zero_reads_as_one },
    { "rtl", "cs_alu RTL alone: directed checks (reset flags, count over 256, handshakes)",
      test_rtl_directed_checks },
    { "lockstep", "1M random ALU ops in lockstep, every opcode and register",
      test_random_lockstep_1m },
    { "lockstep", "cpi 3, requests of up to 256 instructions",
      test_random_lockstep_cpi3_long_requests },
    { "lockstep", "BROKEN RTL is caught and reported with a wave", test_broken_rtl_is_caught },
    { "lockstep", "back-pressure on the response channel", test_random_lockstep_backpressure },
    { "lockstep", "a timing difference is caught, within tolerance not",
      test_timing_difference_is_caught },
    { "replay", "record a run, replay it into the RTL and the BROKEN RTL", test_record_then_replay },
    { "cli", "gtsim-cosim run --record-port --wave, then replay", test_command_line },
    { "config", "impl = rtl / lockstep / c through topology_build", test_impl_in_config },
    { "l3", "the bank alone: cycles, LRU victims, merging worked out by hand",
      test_l3_bank_by_hand },
    { "l3", "random traffic in lockstep, with back-pressure: no mismatch",
      test_l3_random_lockstep },
    { "l3", "two banks, DC|Rest|RO pools, an L3CNTLREG flush, worked out by hand",
      test_l3_slice_by_hand },
    { "l3", "the fill pools' corners (full R/W pool beside RO, pools with no ways) by hand",
      test_l3_pools_by_hand },
    { "l3", "the RTL alone gives the C unit's cycles and counters", test_l3_rtl_equals_c },
    { "l3", "2, 3, 4 banks with RO, SLM and L3CNTLREG writes in lockstep: no mismatch",
      test_l3_random_slice_lockstep },
    { "l3", "the slice RTL alone with L3CNTLREG writes gives the C unit's run",
      test_l3_slice_rtl_equals_c },
    { "l3", "BROKEN L3 RTL is caught and reported with a wave", test_l3_broken_is_caught },
    { "l3", "record the C unit's ports, replay into the RTL and the BROKEN RTL",
      test_l3_record_then_replay },
    { "l3", "the example config: c, lockstep and rtl give the same stats", test_l3_config },
    { "l3", "L3 traffic recorded from skl_compute replayed into the C unit and the RTL",
      test_l3_replay_skl_compute },
    { "l3", "L3 traffic recorded from bdw_compute replayed into the C unit and the RTL",
      test_l3_replay_bdw_compute },
    { "l3", "real captures on GT2/GT4/BDW/VLV: l3, l3:rtl, l3:lockstep give the same run",
      test_l3_machine_captures },
    { "l3", "SGEMM on GT2, GT3 and an evicting L3: the same stats and C matrix",
      test_l3_machine_sgemm },
    { "l3", "BROKEN slice RTL caught in a machine; geometries past the RTL refused",
      test_l3_machine_broken },
    { "l3", "gtsim-cosim run --record-port of the C L3, replay into the RTL",
      test_l3_command_line },
    { "math", "an MI_MATH capture on Gen9 GT2: c, rtl, lockstep agree with the seed's ALU",
      test_mi_math_workload },
    { "math", "every Gen8/Gen9 trace with the ALU as c, rtl, lockstep: the same stats",
      test_cs_alu_on_every_trace },
    { "fpu", "special operands, every pair (MAD: triple) and mode, RTL against the C function",
      test_fpu_specials_by_hand },
    { "fpu", "DF specials: every pair (MAD: triple), DF<->F/D/UD, every mode, RTL against C",
      test_fpu_df_specials_by_hand },
    { "fpu", "1M random operations in lockstep: every op, condition, rounding and denormal mode",
      test_fpu_lockstep_1m },
    { "fpu", "lockstep with back-pressure and depths 1, 4, 7, 16", test_fpu_lockstep_backpressure_depths },
    { "fpu", "the mutation runner's special and sticky-bit operands through the RTL alone",
      test_fpu_directed },
    { "fpu", "the RTL alone gives the C unit's cycles and stalls", test_fpu_rtl_equals_c },
    { "fpu", "BROKEN FPU RTL is caught: lane, field, mode, and a wave", test_fpu_broken_is_caught },
    { "fpu", "record the C unit's ports, replay into the RTL, C, lockstep and BROKEN RTL",
      test_fpu_record_then_replay },
    { "fpu", "gtsim-cosim run --record-port --wave, replay, fpu-random", test_fpu_command_line },
    { "om", "the datapath RTL alone: blends, clamps, logic ops, masks, depth and stencil by hand",
      test_om_by_hand },
    { "om", "2M random colour, bit and depth/stencil requests against the C block",
      test_om_random_lockstep },
    { "om", "no out_valid after reset; products at the normal/denormal boundary (directed)",
      test_om_directed },
    { "om", "BROKEN datapath RTL is caught, with a wave, through the command line",
      test_om_broken_is_caught },
    { "om", "skl blend_stencil and fill_heavy: om, om:rtl, om:lockstep give the same run",
      test_om_frames },
    { "om", "om:lockstep_broken runs a frame and compares", test_om_broken_kind_runs },
    { "om", "blend_stencil with late depth/stencil: the RTL's depth path in a frame, 0 mismatches",
      test_om_late_depth_frame },
    { "om", "a frame's datapath requests recorded and replayed into the RTL; BROKEN caught",
      test_om_datapath_replay },
    { "om", "malformed datapath recordings: file and line named, no crash",
      test_datapath_recording_malformed },
    { "qpu", "the ALUs' RTL (and C) alone: ops, unpacks, packs, conditions, flags by hand",
      test_qpu_by_hand },
    { "qpu", "no out_valid after reset without a quad", test_qpu_idle_after_reset },
    { "qpu", "1M random instructions (16M element operations) against the C datapath",
      test_qpu_random_lockstep },
    { "qpu", "100k instructions with float results around the smallest normal",
      test_qpu_boundary_lockstep },
    { "qpu", "BROKEN QPU ALU RTL is caught, with a wave, through the command line",
      test_qpu_broken_is_caught },
    { "qpu", "GPU_FFT 2^8 with qpu, qpu:rtl, qpu:lockstep: the same run, 0 mismatches",
      test_qpu_gpu_fft },
    { "qpu", "vc4_tri and vc4_strip_fan with qpu, qpu:rtl, qpu:lockstep: same stats and images",
      test_qpu_vc4_frames },
    { "qpu", "GPU_FFT's ALU requests recorded and replayed into the RTL; BROKEN caught",
      test_qpu_datapath_replay },
    { NULL, NULL, NULL }
};

int main(int argc, char **argv)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gtsim-cosim-tests.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite suites[16] = { 0 };
    const char *names[16] = { 0 };
    unsigned ns = 0, selected = 0;
    for (const struct test *t = tests; t->suite; t++) {
        if (argc > 1 && strcmp(argv[1], t->suite) != 0)
            continue;
        if (argc > 2 && strcmp(argv[2], t->name) != 0)
            continue;
        unsigned k = 0;
        while (k < ns && strcmp(names[k], t->suite) != 0)
            k++;
        if (k == ns) {
            names[ns] = t->suite;
            suites[ns++] = CU_add_suite(t->suite, NULL, NULL);
        }
        CU_add_test(suites[k], t->name, t->run);
        selected++;
    }
    if (!selected) {
        fprintf(stderr, "gtsim-cosim-tests: no test matches\n");
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned run = CU_get_number_of_tests_run(), failed = CU_get_number_of_tests_failed();
    printf("\n%u passed, %u failed\n", run - failed, failed);
    CU_cleanup_registry();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (failed == 0 && system(cmd) != 0)
        fprintf(stderr, "gtsim-cosim-tests: could not remove %s\n", tmpdir);
    return failed ? 1 : 0;
}
