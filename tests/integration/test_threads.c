/* tests/integration/test_threads.c - units on several host threads give the
 * results of one (issue 19, fabric/sim.h sim_set_threads): every capture in
 * tests/data/traces and the project's small built workloads (mk/workloads.mk),
 * run by `gtsim run --threads N` with N = 1, 2 and 4 (and 2 with every edge
 * that can be ticked in parallel so ticked), give byte-identical
 * stats.csv (every stat, sim.messages_peak too), the same --images PNGs, and
 * the same --dump of their output buffers. The expected values are the
 * one-thread run's: the claim under test is that the thread count changes
 * nothing. A further test shows the runs really used the threads (the
 * summary names them), so the comparison is not of three one-thread runs.
 *
 * skl_fill_heavy is run only in the optimised build (as in
 * test_determinism.c: it is slow under the sanitizers). */
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "workloads/workload.h"

#define WORKLOAD_DIR "build/gen/workloads"

/* The runs compared: 1, 2 and 4 threads as a user runs them (the fabric
 * chooses edge by edge whether parallel is faster), and 2 threads with every
 * edge whose units are on both ticked in parallel (simulation.
 * parallel_every_edge), where the chooser may keep a short capture serial. */
static const struct {
    unsigned threads;
    bool every_edge;
} runs_made[] = { { 1, false }, { 2, false }, { 4, false }, { 2, true } };
#define RUNS (sizeof runs_made / sizeof runs_made[0])

static char *slurp(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = 0;
    *size = n;
    return buf;
}

/* Whether a and b hold the same bytes (both must exist); prints the first
 * differing line of text files. */
static int same_file(const char *what, const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    if (!same) {
        fprintf(stderr, "threads %s: %s and %s differ\n", what, a, b);
        if (x && y) {
            size_t i = 0, line = 0;
            while (i < na && i < nb && x[i] == y[i])
                i++;
            while (line < i && i - line < na && x[i - line - 1] != '\n')
                line++;
            fprintf(stderr, "  first difference at byte %zu: %.120s\n", i, x + i - line);
        }
    }
    free(x);
    free(y);
    return same;
}

/* Every regular file of a/sub equals b/sub's of the same name, and they have
 * as many. */
static int same_files(const char *what, const char *a, const char *b, const char *sub)
{
    char pattern[2300];
    glob_t ga, gb;
    snprintf(pattern, sizeof pattern, "%s/%s/*", a, sub);
    int ra = glob(pattern, 0, NULL, &ga);
    snprintf(pattern, sizeof pattern, "%s/%s/*", b, sub);
    int rb = glob(pattern, 0, NULL, &gb);
    size_t count_a = ra == 0 ? ga.gl_pathc : 0, count_b = rb == 0 ? gb.gl_pathc : 0;
    int same = count_a == count_b;
    if (!same)
        fprintf(stderr, "threads %s: %zu files in %s/%s, %zu in %s/%s\n", what, count_a, a, sub,
                count_b, b, sub);
    for (size_t i = 0; same && i < count_a; i++) {
        const char *name = strrchr(ga.gl_pathv[i], '/') + 1;
        char other[2400];
        snprintf(other, sizeof other, "%s/%s/%s", b, sub, name);
        same = same_file(what, ga.gl_pathv[i], other);
    }
    if (ra == 0)
        globfree(&ga);
    if (rb == 0)
        globfree(&gb);
    return same;
}

/* Runs WORKLOAD at each thread count and compares with the one-thread run.
 * config: -c argument or NULL; dump: "ADDR:BYTES" or NULL; extra: more run
 * arguments or NULL. */
static void check_with(const char *name, const char *config, const char *workload,
                       const char *dump, const char *extra)
{
    const char *tmp = test_temp_dir();
    char dirs[RUNS][2100];
    for (size_t r = 0; r < RUNS; r++) {
        snprintf(dirs[r], sizeof dirs[r], "%s/%s.t%u%s", tmp, name, runs_made[r].threads,
                 runs_made[r].every_edge ? "e" : "");
        char cmd[8192], dump_arg[2400] = "", config_arg[600] = "";
        if (config)
            snprintf(config_arg, sizeof config_arg, "-c %s", config);
        if (dump)
            snprintf(dump_arg, sizeof dump_arg, "--dump %s:%s/dump/out.bin", dump, dirs[r]);
        snprintf(cmd, sizeof cmd, "mkdir -p %s/dump && %s run -q %s -o %s --images %s/img "
                 "--threads %u %s %s %s %s >%s.log 2>&1 </dev/null", dirs[r], test_gtsim_binary(),
                 config_arg, dirs[r], dirs[r], runs_made[r].threads,
                 runs_made[r].every_edge ? "--set simulation.parallel_every_edge=1" : "",
                 dump_arg, extra ? extra : "", workload, dirs[r]);
        int s = system(cmd);
        int status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
        if (status != 0)
            fprintf(stderr, "threads %s: the run on %u threads exited %d (%s.log)\n", name,
                    runs_made[r].threads, status, dirs[r]);
        CU_ASSERT_EQUAL(status, 0);
    }
    for (size_t r = 1; r < RUNS; r++) {
        char a[2300], b[2300], what[300];
        snprintf(what, sizeof what, "%s, 1 vs %u threads%s", name, runs_made[r].threads,
                 runs_made[r].every_edge ? " (every edge parallel)" : "");
        snprintf(a, sizeof a, "%s/stats.csv", dirs[0]);
        snprintf(b, sizeof b, "%s/stats.csv", dirs[r]);
        CU_ASSERT_TRUE(same_file(what, a, b));
        CU_ASSERT_TRUE(same_files(what, dirs[0], dirs[r], "img"));
        CU_ASSERT_TRUE(same_files(what, dirs[0], dirs[r], "dump"));
    }
}

static void check(const char *name, const char *config, const char *workload, const char *dump)
{
    check_with(name, config, workload, dump, NULL);
}

static int sanitized_binary(void)
{
    return strstr(test_gtsim_binary(), "/san/") != NULL;
}

static void test_every_capture_same_on_1_2_4_threads(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob("tests/data/traces/*.aub.gz", 0, NULL, &g), 0);
    CU_ASSERT_TRUE(g.gl_pathc >= 16);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - strlen(".aub.gz")), base);
        if (strcmp(name, "skl_fill_heavy") == 0 && sanitized_binary())
            continue;
        /* skl_compute's results are buffers (test_determinism.c's addresses) */
        check(name, NULL, g.gl_pathv[i],
              strcmp(name, "skl_compute") == 0 ? "0xfffffffeffc00000:8192" : NULL);
    }
    globfree(&g);
}

static void test_workloads_same_on_1_2_4_threads(void)
{
    char out[64], c[64];
    snprintf(out, sizeof out, "0x%llx:%u", (unsigned long long)WORKLOAD_OUT_VA, WORKLOAD_OUT_BYTES);
    snprintf(c, sizeof c, "0x%llx:%u", (unsigned long long)WORKLOAD_SGEMM_C_VA,
             WORKLOAD_SGEMM_M * WORKLOAD_SGEMM_N * 4);
    /* fast mode with functional data ports: the EUs call the data ports from
     * their edge commits (fabric/port.h port_call) instead of sending */
    static const char fast[] = "--set gpu.slice.subslice.eu.fast=true "
                               "--set gpu.slice.subslice.dataport.functional=true";
    static const struct {
        const char *name, *config, *aub;
        int sgemm;
        const char *extra;
    } runs[] = {
        { "histogram_gen9", "configs/gen9-skl-gt2.cfg", "histogram.gen9", 0, NULL },
        { "histogram_indirect_gen9", "configs/gen9-skl-gt2.cfg", "histogram-indirect.gen9", 0, NULL },
        { "histogram_gen8", "configs/gen8-bdw-gt2.cfg", "histogram.gen8", 0, NULL },
        /* same-cycle atomics on one address: which lane gets which value */
        { "tickets_gen9_gt3", "configs/gen9-skl-gt3.cfg", "tickets.gen9", 0, NULL },
        { "reduce_gen9_gt3", "configs/gen9-skl-gt3.cfg", "reduce.gen9", 0, NULL },
        { "sgemm_gen9_gt3", "configs/gen9-skl-gt3.cfg", "sgemm.gen9", 1, NULL },
        /* GT2 on 2 threads splits a subslice's EUs (partition_move_eus) */
        { "sgemm_gen9_gt2", "configs/gen9-skl-gt2.cfg", "sgemm.gen9", 1, NULL },
        { "sgemm_gen8", "configs/gen8-bdw-gt2.cfg", "sgemm.gen8", 1, NULL },
        { "tickets_gen9_gt3_calls", "configs/gen9-skl-gt3.cfg", "tickets.gen9", 0, fast },
        { "sgemm_gen9_gt2_calls", "configs/gen9-skl-gt2.cfg", "sgemm.gen9", 1, fast },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char aub[300];
        snprintf(aub, sizeof aub, WORKLOAD_DIR "/%s.aub.gz", runs[i].aub);
        if (access(aub, R_OK) != 0) {
            fprintf(stderr, "%s is missing: `make workloads` writes it\n", aub);
            CU_FAIL("workload missing");
            continue;
        }
        check_with(runs[i].name, runs[i].config, aub, runs[i].sgemm ? c : out, runs[i].extra);
    }
    check("builtin", NULL, "builtin:fabric", NULL);
}

/* Runs reduce.gen9 on CONFIG at THREADS host threads with EXTRA options and
 * returns what gtsim printed (NULL when unreadable); the run must exit 0. */
static char *run_reduce(const char *config, unsigned threads, const char *extra, const char *tag)
{
    char cmd[4096], log[2300];
    const char *tmp = test_temp_dir();
    snprintf(log, sizeof log, "%s/%s.log", tmp, tag);
    snprintf(cmd, sizeof cmd, "%s run -c configs/%s.cfg -o %s/%s --no-images --threads %u %s "
             "%s/reduce.gen9.aub.gz >%s 2>&1 </dev/null", test_gtsim_binary(), config, tmp, tag,
             threads, extra, WORKLOAD_DIR, log);
    CU_ASSERT_EQUAL(system(cmd), 0);
    size_t size;
    char *text = slurp(log, &size);
    if (text && !size) {
        free(text);
        text = NULL;
    }
    return text;
}

/* The runs above really ran on several threads: the summary of a GT3 run
 * with --threads 2 says 2 (and the share of edges ticked in parallel), and
 * with --threads 1 says 1. */
static void test_runs_use_the_threads(void)
{
    for (unsigned n = 1; n <= 2; n++) {
        char tag[32], expect[64];
        snprintf(tag, sizeof tag, "used.%u", n);
        char *text = run_reduce("gen9-skl-gt3", n, "", tag);
        snprintf(expect, sizeof expect, "on %u host thread%s", n, n == 1 ? "\n" : "s (");
        CU_ASSERT_TRUE(text && strstr(text, expect) != NULL);
        free(text);
    }
}

/* GT2's groups (one slice, three subslices) do not halve: at 2 threads the
 * partition puts some of one subslice's EUs on the other thread, which the
 * thread report names; GT3's six subslices halve and keep every group whole.
 * (The comparisons above show such a split changes no result.) */
static void test_gt2_splits_a_subslice(void)
{
    static const char *const configs[] = { "gen9-skl-gt2", "gen9-skl-gt3" };
    for (unsigned c = 0; c < 2; c++) {
        char tag[32];
        snprintf(tag, sizeof tag, "split.%u", c);
        char *text = run_reduce(configs[c], 2, "--thread-report", tag);
        CU_ASSERT_TRUE(text && strstr(text, "on 2 host threads (") != NULL);
        bool split = text && strstr(text, "of its units on another thread") != NULL;
        if (split != (c == 0))
            fprintf(stderr, "threads: %s at 2 threads %s a group (run %s)\n", configs[c],
                    split ? "splits" : "does not split", tag);
        CU_ASSERT_EQUAL(split, c == 0);
        free(text);
    }
}

static const struct test_case cases[] = {
    { "every capture: same stats, images, dumps on 1, 2, 4 threads",
      test_every_capture_same_on_1_2_4_threads },
    { "built workloads: same stats and buffers on 1, 2, 4 threads",
      test_workloads_same_on_1_2_4_threads },
    { "--threads N runs on N threads", test_runs_use_the_threads },
    { "GT2 on 2 threads splits a subslice's EUs, GT3 none", test_gt2_splits_a_subslice },
    { 0 }
};
TEST_SUITE(threads, cases);
