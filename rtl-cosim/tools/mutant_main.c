/* rtl-cosim/tools/mutant_main.c - the mutant runner of rtl-cosim/tools/mutate.py
 * for every co-simulated block: the block's seeded random lockstep runs with
 * its RTL built as the BROKEN variant, which mutate.py replaces by the mutant.
 *
 * The runner is linked once per mutate.py session with the five BROKEN models
 * as shared libraries (lib<prefix>.so, found through LD_LIBRARY_PATH); a
 * mutant is then only verilated and compiled into its own lib<prefix>.so,
 * never relinked with gtsim (an LTO link of gtsim-cosim took minutes per
 * mutant on the shared build machine).
 *
 * The runs per block, each stopping the runner at its first failing one, mirror
 * the block's random tests in tests/cosim_tests.c (smaller):
 *   cs_alu    cosim_random_run: N instructions; then N/4 with 256-instruction
 *             requests, cycles_per_instruction 3 and a back-pressuring sink;
 *             then the directed checks of the RTL alone (cs_alu_directed.h)
 *   fpu_pipe  the special and directed operands and the pipe held (fpu_directed.h); then
 *             fpu_random_run: N operations at depth 4; then N/4 at depth 7
 *             with back-pressure and N/4 at depth 1
 *   l3_slice  the directed checks of the fill pools (l3_directed.h); then
 *             l3_random_run: N requests per client on one bank; then the
 *             four multi-bank runs of the test suite (RO data, SLM, L3CNTLREG
 *             writes, back-pressure, a narrow memory link) of N/4 each
 *   om_pixel  the directed checks (om_random.h om_directed_run: idle after reset,
 *             products at the normal/denormal boundary); then om_random_run: N
 *             requests, stopping at the first mismatch (both also check that
 *             the outputs of the other kinds read 0)
 *   qpu_alu   the idle rule after reset (qpu_alu_rtl_idle_after_reset); then
 *             qpu_random_run: N instructions, then N/10 whose float results land
 *             around the smallest normal (boundary), stopping at the first mismatch
 * usage: cosim-mutant BLOCK [N [SEED]]
 * exit 0: every run passed; 3: a mismatch (or bad replies); 1: a run could not
 * be set up, or bad arguments. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl-cosim/cs_alu_directed.h"
#include "rtl-cosim/fpu_directed.h"
#include "rtl-cosim/fpu_random.h"
#include "rtl-cosim/l3_directed.h"
#include "rtl-cosim/l3_random.h"
#include "rtl-cosim/om_random.h"
#include "rtl-cosim/qpu_alu_rtl.h"
#include "rtl-cosim/qpu_random.h"
#include "rtl-cosim/random_run.h"

/* The DPI import of a mutant schemata (rtl-cosim/tools/mutate.py): which mutant
 * the schemata model runs, from $GTSIM_MUTANT (0 or unset: the original RTL).
 * Exported from the runner (-rdynamic) for the schemata's shared library; the
 * BROKEN models the runner is linked with do not import it. */
__attribute__((used, visibility("default"))) int gtsim_mutant_select(void);
__attribute__((used, visibility("default"))) int gtsim_mutant_select(void)
{
    const char *k = getenv("GTSIM_MUTANT");
    return k ? atoi(k) : 0;
}

static int verdict(const char *block, int run, uint64_t compared, uint64_t mismatches,
                   uint64_t failures, const char *first)
{
    printf("cosim-mutant %s run %d: %" PRIu64 " compared, %" PRIu64 " mismatching, %" PRIu64
           " other failures%s%s\n", block, run, compared, mismatches, failures,
           mismatches ? ": " : "", mismatches ? first : "");
    return mismatches || failures ? 3 : 0;
}

static int setup_failed(const char *block, const struct gt_error *err)
{
    fprintf(stderr, "cosim-mutant %s: %s\n", block, err->message);
    return 1;
}

static int cs_alu_runs(uint64_t n, uint64_t seed, FILE *quiet)
{
    const struct random_run_options runs[] = {
        { .impl = "lockstep_broken", .seed = seed, .ops = n, .report = quiet },
        { .impl = "lockstep_broken", .seed = seed + 1, .ops = n / 4, .max_count = 256,
          .cycles_per_instruction = 3, .pop_permille = 400, .report = quiet },
    };
    for (int k = 0; k < 2; k++) {
        struct random_run_result r;
        struct gt_error err;
        if (cosim_random_run(&runs[k], &r, &err) < 0)
            return setup_failed("cs_alu", &err);
        int rc = verdict("cs_alu", k, r.compared, r.mismatches, r.requests - r.responses,
                         r.first_report);
        if (rc)
            return rc;
    }
    /* the RTL alone on the pins the adapters never drive that way (cs_alu_directed.h) */
    uint32_t failed = cs_alu_directed_checks(CS_ALU_RTL_BROKEN, stdout);
    printf("cosim-mutant cs_alu directed checks: %u failed\n", failed);
    return failed ? 3 : 0;
}

static int fpu_runs(uint64_t n, uint64_t seed, FILE *quiet)
{
    /* first the special and directed operands through the RTL alone
     * (fpu_directed.h), stopping at the first difference: cheap */
    uint64_t sent = 0, bad = fpu_directed_checks(FPU_RTL_BROKEN, 1, stdout, &sent);
    printf("cosim-mutant fpu_pipe directed: %" PRIu64 " requests, %" PRIu64 " differ\n", sent, bad);
    if (bad)
        return 3;
    uint32_t held = fpu_hold_check(FPU_RTL_BROKEN, stdout);
    printf("cosim-mutant fpu_pipe hold: %u failed\n", held);
    if (held)
        return 3;
    const struct fpu_random_options runs[] = {
        { .impl = "lockstep_broken", .seed = seed, .requests = n, .report = quiet },
        { .impl = "lockstep_broken", .seed = seed + 1, .requests = n / 4, .depth = 7,
          .pop_permille = 500, .report = quiet },
        { .impl = "lockstep_broken", .seed = seed + 2, .requests = n / 4, .depth = 1,
          .report = quiet },
    };
    for (int k = 0; k < 3; k++) {
        struct fpu_random_result r;
        struct gt_error err;
        if (fpu_random_run(&runs[k], &r, &err) < 0)
            return setup_failed("fpu_pipe", &err);
        int rc = verdict("fpu_pipe", k, r.compared, r.mismatches, r.sent - r.received,
                         r.first_report);
        if (rc)
            return rc;
    }
    return 0;
}

static int l3_runs(uint64_t n, uint64_t seed, FILE *quiet)
{
    /* first the RTL alone on the fill pools' corners (l3_directed.h): cheap */
    uint32_t failed = l3_pool_checks(L3_RTL_BROKEN, stdout);
    printf("cosim-mutant l3_slice directed checks: %u failed\n", failed);
    if (failed)
        return 3;
    /* the multi-bank configurations of test_l3_lockstep_banks (cosim_tests.c) */
    static const struct { uint32_t banks, pop, memcap, program; } multi[] = {
        { 4, 1000, 2, 1 }, { 2, 350, 1, 2 }, { 3, 700, 16, 1 }, { 4, 200, 1, 3 },
    };
    for (int k = 0; k < 5; k++) {
        /* watchdog: a mutant that stops replies or memory requests ends after 5000
         * cycles without progress (reported deadlocked, exit 1: killed) instead of at
         * the default 100000 or mutate.py's timeout (the original passes with it) */
        struct l3_random_options o = { .impl = "lockstep_broken", .seed = seed + k,
                                       .requests = (uint32_t)n, .report = quiet,
                                       .watchdog_cycles = 5000 };
        if (k > 0) {
            o.requests = (uint32_t)(n / 4);
            o.banks = multi[k - 1].banks;
            o.pop_permille = multi[k - 1].pop;
            o.memory_capacity = multi[k - 1].memcap;
            o.program_permille = multi[k - 1].program;
            o.ro_permille = 300;
            o.slm_permille = 300;
        }
        struct l3_random_result r;
        struct gt_error err;
        if (l3_random_run(&o, &r, &err) < 0)
            return setup_failed("l3_slice", &err);
        uint64_t expected = (uint64_t)o.requests * 3;
        uint64_t missing = r.received < expected ? expected - r.received : 0;
        int rc = verdict("l3_slice", k, r.compared, r.mismatches, missing + r.bad_replies,
                         r.first_report);
        if (rc)
            return rc;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: cosim-mutant cs_alu|fpu_pipe|l3_slice|om_pixel|qpu_alu "
                "[N [SEED]]\n");
        return 1;
    }
    const char *block = argv[1];
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    if (n < 4) {
        fprintf(stderr, "cosim-mutant: N must be at least 4\n");
        return 1;
    }
    FILE *quiet = fopen("/dev/null", "w");
    if (!quiet)
        return 1;
    int rc = 1;
    struct gt_error err;
    if (!strcmp(block, "cs_alu")) {
        rc = cs_alu_runs(n, seed, quiet);
    } else if (!strcmp(block, "fpu_pipe")) {
        rc = fpu_runs(n, seed, quiet);
    } else if (!strcmp(block, "l3_slice")) {
        rc = l3_runs(n, seed, quiet);
    } else if (!strcmp(block, "om_pixel")) {
        /* first the directed checks (om_random.h: idle after reset, products at the
         * normal/denormal boundary), then the random requests */
        struct om_random_result r;
        om_directed_run(true, &r);
        printf("cosim-mutant om_pixel directed: %" PRIu64 " requests, %" PRIu64 " differ%s%s\n",
               r.compared, r.mismatches, r.mismatches ? ": " : "",
               r.mismatches ? r.first_report : "");
        rc = r.mismatches ? 3 : 0;
        struct om_random_options o = { .seed = seed, .requests = n, .broken = true,
                                       .stop_at_first = true };
        if (!rc)
            rc = om_random_run(&o, &r, &err) < 0 ? setup_failed(block, &err)
                 : verdict(block, 0, r.compared, r.mismatches, 0, r.first_report);
    } else if (!strcmp(block, "qpu_alu")) {
        /* first the idle rule after reset (qpu_alu_rtl.h: no out_valid without a quad),
         * then the random instructions, then N/10 around the smallest normal */
        struct qpu_alu_rtl *alone = qpu_alu_rtl_create(true, false);
        unsigned spurious = qpu_alu_rtl_idle_after_reset(alone, 4);
        qpu_alu_rtl_destroy(alone);
        printf("cosim-mutant qpu_alu idle after reset: out_valid high %u times\n", spurious);
        if (spurious)
            rc = 3;
        for (int k = 0; k < 2 && rc != 3; k++) {
            struct qpu_random_options o = { .seed = seed + (uint64_t)k,
                                            .requests = k ? n / 10 : n, .broken = true,
                                            .stop_at_first = true, .boundary = k == 1 };
            struct qpu_random_result r;
            rc = qpu_random_run(&o, &r, &err) < 0 ? setup_failed(block, &err)
                 : verdict(block, k, r.compared, r.mismatches, r.no_answer, r.first_report);
            if (rc == 1)
                break;
        }
    } else {
        fprintf(stderr, "cosim-mutant: unknown block %s\n", block);
    }
    fclose(quiet);
    return rc;
}
