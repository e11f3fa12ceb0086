/* tests/integration/test_ubench.c - the microbenchmark workloads of
 * `make microbench` (workloads/workload.h "ubench-*", kernels from
 * workloads/kernels/gen_ubench.py) run through `gtsim run` on Gen9 GT2 with
 * fast EUs (functional results only; their timing is what `make microbench`
 * prints): every thread's out[] dword is compared with the value worked out
 * here from what the kernel is said to do. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "workloads/workload.h"

#define AUB_DIR "build/gen/workloads"

static int run_ubench(const char *name, uint32_t *out)
{
    const char *dir = test_temp_dir();
    char cmd[2048], file[600], aub[300];
    size_t bytes = UBENCH_THREADS * 4;
    snprintf(aub, sizeof aub, AUB_DIR "/ubench-%s.gen9.aub.gz", name);
    if (access(aub, R_OK) != 0) {
        fprintf(stderr, "%s is missing: `make workloads` writes it\n", aub);
        return -1;
    }
    snprintf(file, sizeof file, "%s/ubench-%s.bin", dir, name);
    snprintf(cmd, sizeof cmd, "%s run -q -c configs/gen9-skl-gt2.cfg -o %s/run "
             "--set gpu.slice.subslice.eu.fast=true --dump 0x%llx:%zu:%s %s >%s/log 2>&1",
             test_gtsim_binary(), dir, (unsigned long long)UBENCH_OUT_VA, bytes, file, aub, dir);
    int s = system(cmd);
    FILE *f = fopen(file, "rb");
    if (!f)
        return -1;
    size_t n = fread(out, 1, bytes, f);
    fclose(f);
    return WIFEXITED(s) && WEXITSTATUS(s) == 0 && n == bytes ? 0 : -1;
}

/* 8 chains x = x * 1.0 + 0.5 from 0, UBENCH_FLOPS_ROUNDS times: exact. */
static void test_flops(void)
{
    uint32_t out[UBENCH_THREADS];
    CU_ASSERT_EQUAL_FATAL(run_ubench("flops", out), 0);
    float expect = 0.0f;
    for (uint32_t r = 0; r < UBENCH_FLOPS_ROUNDS; r++)
        expect = expect * 1.0f + 0.5f;
    int wrong = 0;
    for (uint32_t g = 0; g < UBENCH_THREADS; g++) {
        float v;
        memcpy(&v, &out[g], 4);
        wrong += v != expect;
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* in[i] = i; thread g's last read (i = UBENCH_L3_READS - 1) starts at byte
 * ((i + 5 g) * 128) mod the 16 KB buffer; lane 0 reads its first dword. */
static void test_l3bw(void)
{
    uint32_t out[UBENCH_THREADS];
    CU_ASSERT_EQUAL_FATAL(run_ubench("l3bw", out), 0);
    const uint32_t buffer = UBENCH_L3_READS * UBENCH_READ_BYTES;
    int wrong = 0;
    for (uint32_t g = 0; g < UBENCH_THREADS; g++)
        wrong += out[g] != ((UBENCH_L3_READS - 1 + 5 * g) * UBENCH_READ_BYTES) % buffer / 4;
    CU_ASSERT_EQUAL(wrong, 0);
}

/* Thread g streams bytes g * 32 * 128 on; its last read is the chunk's last 128 bytes. */
static void test_drambw(void)
{
    uint32_t out[UBENCH_THREADS];
    CU_ASSERT_EQUAL_FATAL(run_ubench("drambw", out), 0);
    int wrong = 0;
    for (uint32_t g = 0; g < UBENCH_THREADS; g++)
        wrong += out[g] != (g * UBENCH_DRAM_READS + UBENCH_DRAM_READS - 1) *
                           UBENCH_READ_BYTES / 4;
    CU_ASSERT_EQUAL(wrong, 0);
}

/* SLM is not initialised: the run must end cleanly with every thread's write done. */
static void test_slmbw(void)
{
    uint32_t out[UBENCH_THREADS];
    CU_ASSERT_EQUAL(run_ubench("slmbw", out), 0);
}

/* The texture is in[] (in[i] = i) as a 64 x 64 R8G8B8A8_UNORM image: texel
 * (x, y) has R = (64 y + x) & 255. Thread g's last sample (i = 63), lane 0:
 * u = 63 / 16 + 1 / 256, v = g / 64 + 1 / 256, WRAP; bilinear with the texel
 * centres at +0.5: x = 64 u - 0.5, y = 64 v - 0.5 (mod 64), weights the
 * fractions (0.75 each, exact in 8 bits). R is that blend of R / 255. */
static void test_texrate(void)
{
    uint32_t out[UBENCH_THREADS];
    CU_ASSERT_EQUAL_FATAL(run_ubench("texrate", out), 0);
    const double n = UBENCH_TEX_SIZE;
    int wrong = 0;
    for (uint32_t g = 0; g < UBENCH_THREADS; g++) {
        double u = (UBENCH_TEX_SAMPLES - 1) / 16.0 + 1.0 / 256, v = g / n + 1.0 / 256;
        double x = u * n - 0.5, y = v * n - 0.5;
        double x0 = floor(x), y0 = floor(y), fx = x - x0, fy = y - y0;
        double r[2][2];
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                uint32_t tx = (uint32_t)(((long)x0 + k) & (long)(n - 1));
                uint32_t ty = (uint32_t)(((long)y0 + j) & (long)(n - 1));
                r[j][k] = ((ty * UBENCH_TEX_SIZE + tx) & 255u) / 255.0;
            }
        double expect = (1 - fy) * ((1 - fx) * r[0][0] + fx * r[0][1]) +
                        fy * ((1 - fx) * r[1][0] + fx * r[1][1]);
        float got;
        memcpy(&got, &out[g], 4);
        wrong += fabs(got - expect) > 1.0 / 512;
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

static const struct test_case cases[] = {
    { "FP32 MAD chains give x = 0.5 * rounds", test_flops },
    { "L3 reads return in[] at each thread's last offset", test_l3bw },
    { "DRAM stream reads return each thread's chunk", test_drambw },
    { "SLM reads run to the end", test_slmbw },
    { "bilinear samples of the 64 x 64 texture at each thread's last coordinates", test_texrate },
    { 0 }
};
TEST_SUITE(ubench, cases);
