/* tests/integration/test_workloads.c - the project's own GPGPU workloads
 * (workloads/workload.h; AUBs written at build time by mk/workloads.mk with
 * kernels from intel-gen4asm) run through `gtsim run` on Gen9 and Gen8; the
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

static int run(const char *config, const char *aub, uint32_t *out, size_t bytes)
{
    const char *dir = test_temp_dir();
    char cmd[2048], file[600];
    snprintf(file, sizeof file, "%s/out.bin", dir);
    snprintf(cmd, sizeof cmd, "%s run -q -c %s -o %s/run --dump 0x%llx:%zu:%s %s >%s/log 2>&1",
             test_gtsim_binary(), config, dir, (unsigned long long)WORKLOAD_OUT_VA, bytes, file,
             aub, dir);
    int s = system(cmd);
    FILE *f = fopen(file, "rb");
    if (!f)
        return -1;
    size_t n = fread(out, 1, bytes, f);
    fclose(f);
    return WIFEXITED(s) && WEXITSTATUS(s) == 0 && n == bytes ? 0 : -1;
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
static void test_sgemm_gen8(void) { check_sgemm(8, "configs/gen8-bdw-gt2.cfg"); }

static void test_histogram_gen9(void) { check_histogram(9, "configs/gen9-skl-gt2.cfg"); }
static void test_histogram_gen8(void) { check_histogram(8, "configs/gen8-bdw-gt2.cfg"); }
static void test_reduce_gen9(void) { check_reduce(9, "configs/gen9-skl-gt2.cfg"); }
static void test_reduce_gen8(void) { check_reduce(8, "configs/gen8-bdw-gt2.cfg"); }
static void test_reduce_gen9_gt3(void) { check_reduce(9, "configs/gen9-skl-gt3.cfg"); }

static const struct test_case cases[] = {
    { "atomics histogram, Gen9", test_histogram_gen9 },
    { "atomics histogram, Gen8", test_histogram_gen8 },
    { "atomics histogram, indirect walker (Gen9)", test_histogram_indirect },
    { "SLM + barrier reduction, Gen9", test_reduce_gen9 },
    { "SLM + barrier reduction, Gen8", test_reduce_gen8 },
    { "SLM + barrier reduction, Gen9 GT3", test_reduce_gen9_gt3 },
    { "tiled SGEMM (SLM panel, barrier), Gen9", test_sgemm_gen9 },
    { "tiled SGEMM (SLM panel, barrier), Gen8", test_sgemm_gen8 },
    { "tiled SGEMM 256x256x64 on GT3, fast EUs", test_sgemm256_gt3 },
    { 0 }
};
TEST_SUITE(workloads, cases);
