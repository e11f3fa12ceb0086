/* tests/integration/test_workloads.c - the project's own GPGPU workloads
 * (workloads/workload.h; AUBs written at build time by mk/workloads.mk with
 * kernels from intel-gen4asm) run through `gtsim run` on Gen9, Gen8 and
 * Gen7 (the ext suite's compute tests, "cs-*"); the
 * output buffer read back with --dump is compared with the result computed
 * here on the CPU from the same input formulas. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "workloads/workload.h"

#define AUB_DIR "build/gen/workloads"

/* Runs aub on config in directory dir and reads bytes at address at back
 * into out; the run's stats are in dir/run/stats.csv. 0, or -1. */
static int run_at(const char *dir, const char *config, const char *aub, uint64_t at, void *out,
                  size_t bytes)
{
    char cmd[2048], file[600];
    snprintf(file, sizeof file, "%s/out.bin", dir);
    snprintf(cmd, sizeof cmd, "%s run -q -c %s -o %s/run --dump 0x%llx:%zu:%s %s >%s/log 2>&1",
             test_gtsim_binary(), config, dir, (unsigned long long)at, bytes, file, aub, dir);
    int s = system(cmd);
    FILE *f = fopen(file, "rb");
    if (!f)
        return -1;
    size_t n = fread(out, 1, bytes, f);
    fclose(f);
    return WIFEXITED(s) && WEXITSTATUS(s) == 0 && n == bytes ? 0 : -1;
}

static int run(const char *config, const char *aub, uint32_t *out, size_t bytes)
{
    return run_at(test_temp_dir(), config, aub, WORKLOAD_OUT_VA, out, bytes);
}

static bool have(const char *aub)
{
    if (access(aub, R_OK) == 0)
        return true;
    fprintf(stderr, "%s is missing: `make workloads` writes it\n", aub);
    return false;
}

static void check_histogram_aub(const char *aub, const char *config)
{
    CU_ASSERT_TRUE_FATAL(have(aub));
    uint32_t out[16], expect[16] = { 0 };
    for (uint32_t i = 0; i < WORKLOAD_ELEMENTS; i++)
        expect[workload_histogram_input(i)]++;
    CU_ASSERT_EQUAL_FATAL(run(config, aub, out, sizeof out), 0);
    for (int v = 0; v < 16; v++)
        CU_ASSERT_EQUAL(out[v], expect[v]);
}

static void check_histogram(int gen, const char *config)
{
    char aub[256];
    snprintf(aub, sizeof aub, AUB_DIR "/histogram.gen%d.aub.gz", gen);
    check_histogram_aub(aub, config);
}

/* The walker's dimensions come from GPGPU_DISPATCHDIMX/Y/Z (the command's are 0). */
static void test_histogram_indirect(void)
{
    check_histogram_aub(AUB_DIR "/histogram-indirect.gen9.aub.gz", "configs/gen9-skl-gt2.cfg");
}

static void check_reduce(int gen, const char *config)
{
    char aub[256];
    snprintf(aub, sizeof aub, AUB_DIR "/reduce.gen%d.aub.gz", gen);
    CU_ASSERT_TRUE_FATAL(have(aub));
    enum { GROUPS = WORKLOAD_ELEMENTS / 32 };
    uint32_t out[GROUPS * WORKLOAD_GROUP_THREADS];
    CU_ASSERT_EQUAL_FATAL(run(config, aub, out, sizeof out), 0);
    int wrong = 0;
    for (uint32_t g = 0; g < GROUPS; g++) {
        uint32_t sum = 0;
        for (uint32_t i = 32 * g; i < 32 * g + 32; i++)
            sum += workload_reduce_input(i);
        for (uint32_t t = 0; t < WORKLOAD_GROUP_THREADS; t++)
            wrong += out[g * WORKLOAD_GROUP_THREADS + t] != sum;
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Returns the run's directory (stats in run/stats.csv). */
static const char *check_sgemm_named(const char *name, int gen, const char *config, uint32_t M,
                              uint32_t N, const char *extra)
{
    char aub[256];
    snprintf(aub, sizeof aub, AUB_DIR "/%s.gen%d.aub.gz", name, gen);
    CU_ASSERT_TRUE_FATAL(have(aub));
    enum { K = WORKLOAD_SGEMM_K };
    static float c[WORKLOAD_SGEMM256_MN * WORKLOAD_SGEMM256_MN];
    const char *dir = test_temp_dir();
    char cmd[2048], file[600];
    snprintf(file, sizeof file, "%s/c.bin", dir);
    snprintf(cmd, sizeof cmd, "%s run -q -c %s %s -o %s/run --dump 0x%llx:%zu:%s %s >%s/log 2>&1",
             test_gtsim_binary(), config, extra, dir, (unsigned long long)WORKLOAD_SGEMM_C_VA,
             (size_t)M * N * 4, file, aub, dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    FILE *f = fopen(file, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(c, 4, (size_t)M * N, f), (size_t)M * N);
    fclose(f);
    int wrong = 0;
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t col = 0; col < N; col++) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < K; k++) {
                float p = workload_sgemm_a(r * K + k) * workload_sgemm_b(k * N + col);
                acc = acc + p;
            }
            wrong += c[r * N + col] != acc;
        }
    CU_ASSERT_EQUAL(wrong, 0);
    /* the batch gives the L3 an SLM partition (L3CNTLREG 60000021h: SLM
     * 256 KB) before the walker, so no SLM access finds SLM disabled */
    snprintf(cmd, sizeof cmd, "grep -q 'l3.partition.slm_kib,256,' %s/run/stats.csv && "
             "! grep -q 'l3.slm_unallocated,[1-9]' %s/run/stats.csv && "
             "grep -q 'l3.slm_unallocated,0,' %s/run/stats.csv", dir, dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    return dir;
}

static void check_sgemm(int gen, const char *config)
{
    check_sgemm_named("sgemm", gen, config, WORKLOAD_SGEMM_M, WORKLOAD_SGEMM_N, "");
}

/* The bench's large problem (256x256x64, MEDIA_VFE_STATE programmed for 336
 * threads) on GT3 with fast EUs: the right C, and the front end filled all
 * 2 x 3 x 8 x 7 = 336 hardware threads. */
static void test_sgemm256_gt3(void)
{
    const char *dir = check_sgemm_named("sgemm256", 9, "configs/gen9-skl-gt3.cfg", WORKLOAD_SGEMM256_MN,
                      WORKLOAD_SGEMM256_MN, "--set gpu.slice.subslice.eu.fast=true");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "grep -q '^gpu.vfe.in_flight_peak,336,' %s/run/stats.csv",
             dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_sgemm_gen9(void) { check_sgemm(9, "configs/gen9-skl-gt2.cfg"); }

/* Fast mode as `make bench` runs it: fast EUs and functional data ports (no
 * L3 lines): the same right C, no data port sent a line to the L3, and every
 * message was a call (fabric/port.h port_call). */
static void test_sgemm_fast_functional(void)
{
    const char *dir = check_sgemm_named("sgemm", 9, "configs/gen9-skl-gt2.cfg", WORKLOAD_SGEMM_M,
                                        WORKLOAD_SGEMM_N, "--set gpu.slice.subslice.eu.fast=true "
                                        "--set gpu.slice.subslice.dataport.functional=true");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "grep -q '^gpu.slice0.subslice0.dataport.lines,0,' %s/run/stats.csv && "
             "! grep -q '^gpu.slice0.subslice[0-9].dataport.lines,[1-9]' %s/run/stats.csv", dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "awk -F, '$1 == \"gpu.slice0.subslice0.dataport.messages\" { m = $2 } "
             "$1 == \"gpu.slice0.subslice0.dataport.calls\" { c = $2 } END { exit !(m > 0 && m == c) }' "
             "%s/run/stats.csv", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}
/* The EU's decoded-instruction table is a host-speed device (eu_fetch.c):
 * at its smallest (16 entries, flushed every 12 decodes here) SGEMM gives
 * the right C and every stat of the default-size run but the host's own
 * (ticks, steps, decode_misses), and it decodes more (so it did flush). */
static void test_sgemm_small_decoded_cache(void)
{
    char first[1024], cmd[4096];
    snprintf(first, sizeof first, "%s", check_sgemm_named("sgemm", 9, "configs/gen9-skl-gt2.cfg",
                                                          WORKLOAD_SGEMM_M, WORKLOAD_SGEMM_N, ""));
    const char *dir = check_sgemm_named("sgemm", 9, "configs/gen9-skl-gt2.cfg", WORKLOAD_SGEMM_M,
                                        WORKLOAD_SGEMM_N,
                                        "--set gpu.slice.subslice.eu.decode_cache_entries=16");
    snprintf(cmd, sizeof cmd, "cp %s/run/stats.csv %s/default.csv", first, dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    const char *host_stats = "grep -vE '[.](ticks|busy_ticks|decode_misses),|^sim[.](steps|ticks),"
                             "|[.]active_edges,'";
    snprintf(cmd, sizeof cmd, "%s %s/default.csv > %s/default.kept && %s %s/run/stats.csv > "
             "%s/small.kept && cmp -s %s/default.kept %s/small.kept", host_stats, dir, dir,
             host_stats, dir, dir, dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "awk -F, 'FNR == 1 { f++ } $1 == \"gpu.slice0.subslice0.eu0.decode_misses\" "
             "{ m[f] = $2 } END { exit !(m[1] > 0 && m[2] > m[1]) }' %s/default.csv %s/run/stats.csv",
             dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_sgemm_gen8(void) { check_sgemm(8, "configs/gen8-bdw-gt2.cfg"); }

static void test_histogram_gen9(void) { check_histogram(9, "configs/gen9-skl-gt2.cfg"); }

/* Every lane's atomic INC of in[0] returned a different value: out is a
 * permutation of in[0]'s first value + 0 .. WORKLOAD_ELEMENTS - 1 (an update
 * lost or applied twice shows as a repeated or missing value). Which lane got
 * which is test_threads' and test_determinism's: the same on any thread count
 * and tick order. */
/* dir: where the run's stats go (dir/run/stats.csv) */
static void check_tickets(const char *config, const char *dir)
{
    const char *aub = AUB_DIR "/tickets.gen9.aub.gz";
    CU_ASSERT_TRUE_FATAL(have(aub));
    static uint32_t out[WORKLOAD_ELEMENTS];
    static bool seen[WORKLOAD_ELEMENTS];
    memset(seen, 0, sizeof seen);
    CU_ASSERT_EQUAL_FATAL(run_at(dir, config, aub, WORKLOAD_OUT_VA, out, sizeof out), 0);
    uint32_t first = workload_histogram_input(0), bad = 0;
    for (uint32_t i = 0; i < WORKLOAD_ELEMENTS; i++) {
        uint32_t k = out[i] - first;
        if (k >= WORKLOAD_ELEMENTS || seen[k])
            bad++;
        else
            seen[k] = true;
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_tickets_gen9(void) { check_tickets("configs/gen9-skl-gt3.cfg", test_temp_dir()); }

/* The same with the atomics taken as calls (fast mode, functional data ports):
 * applied at once in the EUs' edge commits instead of at the cycle's end. */
static void test_tickets_gen9_calls(void)
{
    const char *dir = test_temp_dir();
    check_tickets("configs/gen9-skl-gt3.cfg --set gpu.slice.subslice.eu.fast=true "
                  "--set gpu.slice.subslice.dataport.functional=true", dir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "grep -q '^gpu.slice0.subslice0.dataport.calls,[1-9]' "
             "%s/run/stats.csv", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}
static void test_histogram_gen8(void) { check_histogram(8, "configs/gen8-bdw-gt2.cfg"); }
static void test_reduce_gen9(void) { check_reduce(9, "configs/gen9-skl-gt2.cfg"); }
static void test_reduce_gen8(void) { check_reduce(8, "configs/gen8-bdw-gt2.cfg"); }
static void test_reduce_gen9_gt3(void) { check_reduce(9, "configs/gen9-skl-gt3.cfg"); }

/* ---- Gen7 (ValleyView): the ext suite's compute tests as captures of our own
 * (workload.h "cs-*", issue 14 item 5). The inputs are gltrace_ext.c's (the
 * formulas in workload.h); the expected results are computed here, in the
 * order the GLSL states them. */
#define VLV "configs/gen7-vlv.cfg"

/* Runs the Gen7 capture `name`, reading bytes at GTT at into out; then checks
 * the run's stats: every thread ended by its EOT (threads_ended = threads),
 * none killed or illegal, and `barriers` barriers released (-1: unchecked). */
static void run7(const char *name, uint64_t at, void *out, size_t bytes, uint32_t threads,
                 int barriers)
{
    char aub[256], cmd[1400];
    snprintf(aub, sizeof aub, AUB_DIR "/%s.gen7.aub.gz", name);
    CU_ASSERT_TRUE_FATAL(have(aub));
    const char *dir = test_temp_dir();
    CU_ASSERT_EQUAL_FATAL(run_at(dir, VLV, aub, at, out, bytes), 0);
    snprintf(cmd, sizeof cmd, "grep -q '^gpu.vfe.threads_ended,%u,' %s/run/stats.csv && "
             "! grep -Eq '(threads_killed|illegal_instructions|runaway_threads|bad_messages|"
             "unsupported),[1-9]' %s/run/stats.csv", threads, dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    if (barriers >= 0) {
        snprintf(cmd, sizeof cmd, "grep -q '^gpu.slice0.subslice0.gateway.barriers_released,%d,' "
                 "%s/run/stats.csv", barriers, dir);
        CU_ASSERT_EQUAL(system(cmd), 0);
    }
}

/* compute_reduce: 16 sums of 4096 integer-valued floats (exact in any order). */
static void test_gen7_reduce(void)
{
    enum { G = WORKLOAD7_REDUCE_GROUPS, PER = WORKLOAD7_REDUCE_PER_GROUP };
    const uint32_t stride = workload7_stride(G * PER * 4);
    float out[G], expect[G];
    for (uint32_t g = 0; g < G; g++) {
        double sum = 0;
        for (uint32_t i = g * PER; i < (g + 1) * PER; i++)
            sum += (double)((i * 7u) % 13u) - 6.0 + (double)((i >> 12) & 3u);
        expect[g] = (float)sum;
    }
    /* 16 threads a group; 9 barriers each (after the stores, then one per
     * stride 128 .. 1) */
    run7("cs-reduce", WORKLOAD7_BUFFER_GTT(1, stride), out, sizeof out, G * 16, G * 9);
    int wrong = 0;
    for (uint32_t g = 0; g < G; g++)
        wrong += out[g] != expect[g];
    CU_ASSERT_EQUAL(wrong, 0);
}

/* compute_atomic: 64 histogram bins and the bit-12 counter. */
static void test_gen7_atomic(void)
{
    enum { N = WORKLOAD7_ATOMIC_N, BINS = WORKLOAD7_ATOMIC_BINS };
    const uint32_t stride = workload7_stride(N * 4);
    uint32_t expect[BINS] = { 0 }, count = 0, x = 12345;
    for (uint32_t i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        uint32_t v = x >> 8, a = v & 63u, b = (v >> 6) & 63u;
        expect[a < b ? a : b]++;
        count += (v & 0x1000u) != 0;
    }
    /* hist (BTI 1) up to the counter (BTI 2) in one read */
    uint32_t *out = calloc(stride / 4 + 1, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    run7("cs-atomic", WORKLOAD7_BUFFER_GTT(1, stride), out, stride + 4, N / 16, 0);
    int wrong = 0;
    for (uint32_t b = 0; b < BINS; b++)
        wrong += out[b] != expect[b];
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(out[stride / 4], count);
    free(out);
}

/* compute_sgemm: C = A B, each dot product exact (small integers). */
static void check_gen7_sgemm(const char *name, uint32_t bti, uint32_t threads, int barriers)
{
    enum { N = WORKLOAD7_SGEMM_N };
    const uint32_t stride = workload7_stride(N * N * 4);
    static float c[N * N];
    run7(name, WORKLOAD7_BUFFER_GTT(bti, stride), c, sizeof c, threads, barriers);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0;
            for (int k = 0; k < N; k++)
                sum += (float)((i * 3 + k * 5) % 7 - 3) * (float)((k * 2 + j) % 5 - 2);
            wrong += c[i * N + j] != sum;
        }
    CU_ASSERT_EQUAL(wrong, 0);
}

static void test_gen7_sgemm(void)
{
    /* dispatch 1: 8 x 8 groups of 8 x 8 invocations (4 threads), no barrier */
    check_gen7_sgemm("cs-sgemm", 2, 64 * 4, 0);
}

static void test_gen7_sgemm_tiled(void)
{
    /* dispatch 2: 4 x 4 groups of 16 x 16 (16 threads), 2 barriers a tile, 4 tiles */
    check_gen7_sgemm("cs-sgemm-tiled", 3, 16 * 16, 16 * 8);
}

/* compute_big: c = a + b, every element. */
static void check_gen7_big(const char *name, uint32_t n)
{
    const uint32_t stride = workload7_stride(n * 4);
    float *c = malloc((size_t)n * 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run7(name, WORKLOAD7_BUFFER_GTT(2, stride), c, (size_t)n * 4, n / 16, -1);
    int wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += c[i] != (float)(i & 4095u) + (float)(i >> 12) * 0.5f;
    CU_ASSERT_EQUAL(wrong, 0);
    free(c);
}

/* scaled: 65536 floats (1024 groups), the same kernel and walker */
static void test_gen7_big(void) { check_gen7_big("cs-big", WORKLOAD7_BIG_N); }

/* the ext test's full 1,048,576 floats: `make test-slow` writes the capture
 * and runs this test; skipped (saying so) when the capture is absent */
static void test_gen7_big_full(void)
{
    if (access(AUB_DIR "/cs-big-full.gen7.aub.gz", R_OK) != 0) {
        fprintf(stderr, "cs-big-full.gen7.aub.gz absent (`make test-slow` writes it): skipped\n");
        return;
    }
    check_gen7_big("cs-big-full", WORKLOAD7_BIG_FULL_N);
}

/* gtsim-workload (next to the gtsim under test, else the release build's,
 * which wrote the AUBs) refuses a Gen7 compute workload for another
 * generation and an unknown cs-* name, saying why. */
static void test_gen7_compute_bad_requests(void)
{
    char tool[600], cmd[2048];
    snprintf(tool, sizeof tool, "%s", test_gtsim_binary());
    char *slash = strrchr(tool, '/');
    snprintf(slash ? slash + 1 : tool, sizeof tool - (size_t)(slash ? slash + 1 - tool : 0),
             "gtsim-workload");
    if (access(tool, X_OK) != 0)
        snprintf(tool, sizeof tool, "build/release/gtsim-workload");
    const char *dir = test_temp_dir();
    const char *hex = AUB_DIR "/cs-reduce.gen7.hex";
    CU_ASSERT_TRUE_FATAL(have(hex));
    snprintf(cmd, sizeof cmd, "%s cs-reduce 8 %s %s/a.aub >%s/log 2>&1; test $? -ne 0 && "
             "grep -q 'cs-reduce is a Gen7 workload, not Gen8' %s/log && test ! -s %s/a.aub",
             tool, hex, dir, dir, dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s cs-nothing 7 %s %s/b.aub >%s/log 2>&1; test $? -ne 0 && "
             "grep -q \"unknown Gen7 compute workload 'cs-nothing'\" %s/log", tool, hex, dir, dir,
             dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static const struct test_case cases[] = {
    { "atomics histogram, Gen9", test_histogram_gen9 },
    { "atomic tickets, Gen9 GT3: every lane a different value", test_tickets_gen9 },
    { "atomic tickets as calls (fast mode): every lane a different value", test_tickets_gen9_calls },
    { "atomics histogram, Gen8", test_histogram_gen8 },
    { "atomics histogram, indirect walker (Gen9)", test_histogram_indirect },
    { "SLM + barrier reduction, Gen9", test_reduce_gen9 },
    { "SLM + barrier reduction, Gen8", test_reduce_gen8 },
    { "SLM + barrier reduction, Gen9 GT3", test_reduce_gen9_gt3 },
    { "tiled SGEMM (SLM panel, barrier), Gen9", test_sgemm_gen9 },
    { "tiled SGEMM, fast EUs and functional data ports", test_sgemm_fast_functional },
    { "tiled SGEMM, a 16-entry decoded-instruction table changes no result",
      test_sgemm_small_decoded_cache },
    { "tiled SGEMM (SLM panel, barrier), Gen8", test_sgemm_gen8 },
    { "tiled SGEMM 256x256x64 on GT3, fast EUs", test_sgemm256_gt3 },
    { "Gen7 compute_reduce: SLM tree with barriers", test_gen7_reduce },
    { "Gen7 compute_atomic: histogram + counter atomics", test_gen7_atomic },
    { "Gen7 compute_sgemm, plain", test_gen7_sgemm },
    { "Gen7 compute_sgemm, tiled (SLM, barriers)", test_gen7_sgemm_tiled },
    { "Gen7 compute_big (scaled to 65536)", test_gen7_big },
    { "Gen7 compute_big, 1048576 floats (make test-slow)", test_gen7_big_full },
    { "Gen7 compute workloads: other generations and unknown names refused",
      test_gen7_compute_bad_requests },
    { 0 }
};
TEST_SUITE(workloads, cases);
