/* tests/integration/test_gpgpu.c - the driver-captured compute workloads end
 * to end through `gtsim run`: the result buffer read back with --dump must be
 * c[i] = a[i] + b[i] = i + 0.5 * (1024 - i) for all 1024 elements (the
 * traces' README defines the workload); the walker's shape (16 groups of 4
 * SIMD16 threads, from the aubinator listings) shows in the stats; a kernel
 * stopped by the EU's runaway limit ends the run cleanly. The result
 * surface's address is BTI 0's SURFACE_STATE base in each *_compute.aubinator.txt. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/test.h"

struct result {
    int status;
    char out[16384];
    char err[16384];
};

static void slurp(const char *path, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
}

static struct result *gtsim(const char *args)
{
    struct result *r = calloc(1, sizeof *r);
    const char *dir = test_temp_dir();
    char cmd[4096], out[512], err[512];
    snprintf(out, sizeof out, "%s/stdout", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", test_gtsim_binary(), args, out, err);
    int s = system(cmd);
    r->status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    return r;
}

/* The sum of every stat whose path ends in `suffix`. */
static double csv_sum(const char *csv, const char *suffix)
{
    double sum = 0;
    size_t n = strlen(suffix);
    for (const char *line = csv; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *comma = strchr(line, ',');
        if (!comma || (size_t)(comma - line) < n)
            continue;
        if (strncmp(comma - n, suffix, n) == 0 && (comma - n == line || comma[-(long)n - 1] == '.'))
            sum += strtod(comma + 1, NULL);
    }
    return sum;
}

static char *read_csv(const char *dir)
{
    char file[600];
    char *csv = malloc(1 << 22);
    snprintf(file, sizeof file, "%s/out/stats.csv", dir);
    slurp(file, csv, 1 << 22);
    return csv;
}

static void check_compute(const char *config, const char *trace, const char *c_address,
                          unsigned subslices)
{
    const char *dir = test_temp_dir();
    char args[1600], file[600];
    snprintf(args, sizeof args, "run -c %s -o %s/out --dump %s:4096:%s/c.bin "
             "tests/data/traces/%s", config, dir, c_address, dir, trace);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "EU utilisation"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "L3 hit rate"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "icache hit rate"));
    free(r);
    float c[1024];
    snprintf(file, sizeof file, "%s/c.bin", dir);
    FILE *f = fopen(file, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(c, 4, 1024, f), 1024);
    fclose(f);
    int wrong = 0;
    for (int i = 0; i < 1024; i++)
        wrong += c[i] != (float)i + 0.5f * (float)(1024 - i);
    CU_ASSERT_EQUAL(wrong, 0);
    char *csv = read_csv(dir);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.walkers"), 1);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.groups"), 16);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.threads_dispatched"), 64);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.threads_ended"), 64);
    /* two untyped reads and one untyped write per thread, 64 bytes each */
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.reads"), 128);
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.writes"), 64);
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.bytes_read"), 2 * 4096);
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.bytes_written"), 4096);
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.out_of_bounds"), 0);
    /* each message's 16 dwords are one 64-byte line: 192 lines, all first touches */
    CU_ASSERT_EQUAL(csv_sum(csv, "dataport.lines"), 192);
    CU_ASSERT_EQUAL(csv_sum(csv, "threads_killed"), 0);
    /* instruction fetch: the kernel is 208 bytes of straight-line code (the
     * *_compute.k00.*.bin files) from a 64-byte aligned start, so 4 lines,
     * and the EU asks for 2 lines past the one a thread enters (its default
     * fetch_prefetch_lines, seed 003 L20915), so lines 4 and 5 too: 6 lines,
     * all in the kernel's page. Each subslice's instruction cache (48 KiB)
     * reads each of them from the L3 once, as read-only data; each EU asks
     * for each at most once (its fetch buffer of 64 lines keeps all 6), and
     * every request is looked up */
    double requests = csv_sum(csv, "icache.requests");
    CU_ASSERT_EQUAL(csv_sum(csv, "icache.memory_requests"), 6 * subslices);
    CU_ASSERT_EQUAL(csv_sum(csv, "icache.fills"), 6 * subslices);
    if (strstr(csv, "l3.ro_reads"))     /* (shown when the L3 has "cs" linked) */
        CU_ASSERT_EQUAL(csv_sum(csv, "l3.ro_reads"), 6 * subslices);
    CU_ASSERT_EQUAL(csv_sum(csv, "icache.hits") + csv_sum(csv, "icache.misses"), requests);
    CU_ASSERT_EQUAL(csv_sum(csv, "fetch.requests"), requests);
    CU_ASSERT_TRUE(requests >= 6 * subslices);
    CU_ASSERT_EQUAL((uint64_t)requests % 6, 0);
    /* one of each EU's 6 requests is the first line, asked for on need */
    CU_ASSERT_EQUAL(csv_sum(csv, "fetch.prefetches"), requests / 6 * 5);
    CU_ASSERT_EQUAL(csv_sum(csv, "icache.bad_messages"), 0);
    free(csv);
}

static void test_gen9_compute(void)
{
    check_compute("configs/gen9-skl-gt2.cfg", "skl_compute.aub.gz", "0xfffffffefffdc000", 3);
}

static void test_gen8_compute(void)
{
    check_compute("configs/gen8-bdw-gt2.cfg", "bdw_compute.aub.gz", "0xfffffffefffdc000", 3);
}

static void test_gen7_compute(void)
{
    check_compute("configs/gen7-vlv.cfg", "byt_compute.aub.gz", "0x23000", 1);
}

/* The same capture on GT3 and GT4 (more slices and subslices) gives the same buffer. */
static void test_gen9_compute_gt3_gt4(void)
{
    check_compute("configs/gen9-skl-gt3.cfg", "skl_compute.aub.gz", "0xfffffffefffdc000", 6);
    check_compute("configs/gen9-skl-gt4.cfg", "skl_compute.aub.gz", "0xfffffffefffdc000", 9);
}

/* A kernel that never ends, as the EU sees it: every thread runs past
 * max_thread_instructions, is ended and counted, the thread spawner is told,
 * and the run finishes (no hang, no deadlock). */
static void test_runaway_kernel_ends(void)
{
    const char *dir = test_temp_dir();
    char args[1200];
    snprintf(args, sizeof args, "run -q -o %s/out --set gpu.slice.subslice.eu.max_thread_instructions=5 "
             "tests/data/traces/skl_compute.aub.gz", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    char *csv = read_csv(dir);
    CU_ASSERT_EQUAL(csv_sum(csv, "runaway_threads"), 64);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.threads_ended"), 64);
    free(csv);
}

/* The captures program L3CNTLREG with MI_LOAD_REGISTER_IMM (their aubinator
 * dumps: skl_compute writes 60000021h, SLM on, URB 16 + All 48 ways, before
 * the walker and the default 60000060h, URB 48 + All 48 ways, after it). Started
 * from another partition (URB 512, cache 256 KB), the L3 ends with the one the
 * capture programmed last: URB 384 KB, Rest 384 KB (48 ways x 2 KB x 4 banks;
 * 003 notes §4.5), on every slice, with no rule broken. */
static void test_l3_partition_from_the_capture(void)
{
    const char *dir = test_temp_dir();
    char args[1200];
    snprintf(args, sizeof args, "run -q -o %s/out -c configs/gen9-skl-gt3.cfg "
             "--set gpu.slice.l3.urb_kib=512 --set gpu.slice.l3.cache_kib=256 "
             "tests/data/traces/skl_compute.aub.gz", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    char *csv = read_csv(dir);
    CU_ASSERT_EQUAL(csv_sum(csv, "cs.l3_writes"), 2);
    CU_ASSERT_EQUAL(csv_sum(csv, "l3.reprograms"), 2 * 2);
    CU_ASSERT_EQUAL(csv_sum(csv, "l3.programming_violations"), 0);
    CU_ASSERT_EQUAL(csv_sum(csv, "l3.rejected_programmings"), 0);
    CU_ASSERT_EQUAL(csv_sum(csv, "partition.urb_kib"), 2 * 384);
    CU_ASSERT_EQUAL(csv_sum(csv, "partition.rest_kib"), 2 * 384);
    CU_ASSERT_EQUAL(csv_sum(csv, "partition.slm_kib"), 0);
    CU_ASSERT_EQUAL(csv_sum(csv, "partition.dc_kib") + csv_sum(csv, "partition.ro_kib"), 0);
    /* the batch's stalling PIPE_CONTROLs waited for the GPGPU front end */
    CU_ASSERT_TRUE(csv_sum(csv, "cs.cs_stalls") > 0);
    CU_ASSERT_EQUAL(csv_sum(csv, "vfe.threads_ended"), 64);
    free(csv);
}

static const struct test_case cases[] = {
    { "Gen9 skl_compute: c = a + b for all 1024 elements", test_gen9_compute },
    { "Gen8 bdw_compute: c = a + b for all 1024 elements", test_gen8_compute },
    { "Gen7 byt_compute: c = a + b for all 1024 elements", test_gen7_compute },
    { "Gen9 compute on GT3 and GT4", test_gen9_compute_gt3_gt4 },
    { "a kernel that never ends is stopped and the run finishes", test_runaway_kernel_ends },
    { "the L3 partition is the one the capture programmed", test_l3_partition_from_the_capture },
    { 0 }
};
TEST_SUITE(gpgpu, cases);
