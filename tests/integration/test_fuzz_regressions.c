/* tests/integration/test_fuzz_regressions.c - every input a fuzz target found
 * a crash, hang, leak or sanitizer report with (issue 18) is kept under
 * tests/data/fuzz/<target>/ and fed through the target's own entry point
 * (fuzz/fuzz_common.c, linked into the tests): the machine must reject it
 * cleanly or run it to a clean stop (quiescent, the cycle limit, or a deadlock
 * after the model logged an error about the input), never hang silently;
 * crashes and sanitizer reports show under `make test-san`.
 *   machine/   AUB captures played on the small Gen9 machine (fuzz_machine)
 *   threads/   AUB captures of fuzz_threads, played by its check: a capture
 *              of empty memory writes only, whose host kept no data pool and
 *              offset a null pointer for each (units/host/host.c keep_data;
 *              clang's UBSan sees it, gcc's does not: fuzz/run.sh seeds the
 *              fuzz-smoke run with these files)
 *   cs_batch/  ring dwords of fuzz_cs_batch, wrapped with
 *              fuzz_write_ring_capture (FEED_RING): the 3D batches of
 *              skl_tri and bdw_tri with no memory behind their state, whose
 *              VS thread is killed on an instruction fetch fault; the VS
 *              waited forever for its end until the EU reported killed
 *              threads to the unit that tells their stage
 *              (units/eu/eu_schedule.c end_thread). And a
 *              3DSTATE_CLEAR_PARAMS whose float depth clear value is out of a
 *              uint's range: WM converted it to the Gen7 integer form on
 *              every generation (undefined behaviour; test-san builds with
 *              float-cast-overflow to see it).
 *   sweep/     sweep files of fuzz_sweep, given to `gtsim sweep` itself (the
 *              binary the tests run, GTSIM): each must be refused with exit
 *              status 1 and one error line naming the file and its line. The
 *              finding was a leak inside libconfig's scanner on this input
 *              (fuzz/lsan.supp says why it is libconfig's); the child runs
 *              with those suppressions so that any other leak still fails.
 * And the check of fuzz_threads (results the same on one and two host
 * threads and in a shuffled tick order) on two of its seeds, and that it can
 * fail. */
#include <dirent.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "tests/test.h"

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    *size = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *size = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

/* How a kept input is played: as a capture on fuzz_machine's machine, as ring
 * dwords wrapped into one (fuzz_cs_batch), or through fuzz_threads' check. */
enum feed_mode { FEED_CAPTURE, FEED_RING, FEED_THREADS };

/* Feeds every file of tests/data/fuzz/<target>/: each must be rejected or
 * stop cleanly, never hang, and through the threads check give the same
 * results on one and two host threads and in a shuffled tick order. Returns
 * how many. */
static int feed(const char *target, enum feed_mode mode)
{
    char dir[256];
    snprintf(dir, sizeof dir, "tests/data/fuzz/%s", target);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[600], capture[128];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        const char *run_path = path;
        if (mode == FEED_RING) {
            size_t size;
            char *data = slurp(path, &size);
            CU_ASSERT_PTR_NOT_NULL_FATAL(data);
            fuzz_write_ring_capture((const uint8_t *)data, size, capture, sizeof capture);
            free(data);
            run_path = capture;
        }
        int result = mode == FEED_THREADS ? fuzz_run_capture_threads(run_path)
                                          : fuzz_run_capture(run_path);
        if (result == FUZZ_HANG || result == FUZZ_DIVERGED)
            fprintf(stderr, "fuzz regression %s: %s\n", path,
                    result == FUZZ_HANG ? "hangs" : "differs");
        CU_ASSERT_TRUE(result != FUZZ_HANG && result != FUZZ_DIVERGED);
        count++;
    }
    closedir(d);
    return count;
}

static void test_threads_findings(void)
{
    CU_ASSERT_TRUE(feed("threads", FEED_THREADS) > 0);
}

static void test_machine_findings(void)
{
    CU_ASSERT_TRUE(feed("machine", FEED_CAPTURE) > 0);
}

static void test_cs_batch_findings(void)
{
    CU_ASSERT_TRUE(feed("cs_batch", FEED_RING) > 0);
}

static void test_sweep_findings(void)
{
    DIR *d = opendir("tests/data/fuzz/sweep");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[600], command[2048], line[1024];
        snprintf(path, sizeof path, "tests/data/fuzz/sweep/%s", e->d_name);
        snprintf(command, sizeof command,
                 "LSAN_OPTIONS=suppressions=fuzz/lsan.supp:print_suppressions=0 %s sweep %s -o %s/sweep 2>&1",
                 test_gtsim_binary(), path, test_temp_dir());
        FILE *p = popen(command, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        int lines = 0, named = 0;
        char want[640];
        snprintf(want, sizeof want, "%s:", path);
        while (fgets(line, sizeof line, p)) {
            lines++;
            named += strstr(line, want) != NULL;
        }
        int status = pclose(p);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || lines != 1 || named != 1)
            fprintf(stderr, "fuzz regression %s: status 0x%x, %d lines, %d naming it\n", path,
                    status, lines, named);
        CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
        CU_ASSERT_EQUAL(lines, 1);
        CU_ASSERT_EQUAL(named, 1);
        count++;
    }
    closedir(d);
    CU_ASSERT_TRUE(count > 0);
}

/* fuzz_threads' check (fuzz/fuzz_common.h fuzz_run_capture_threads) on two of
 * its seeds, whole: a compute and a 3D capture give the same stop, time,
 * stats and GPU memory on one host thread, on two with every edge whose units
 * are on both ticked in parallel, and in a shuffled tick order. */
static void test_threads_check_agrees_on_captures(void)
{
    static const char *const captures[] = { "tests/data/traces/skl_compute.aub.gz",
                                            "tests/data/traces/skl_tri.aub.gz" };
    for (size_t i = 0; i < sizeof captures / sizeof captures[0]; i++) {
        int result = fuzz_run_capture_threads(captures[i]);
        if (result != 0)
            fprintf(stderr, "threads check %s: %d\n", captures[i], result);
        CU_ASSERT_EQUAL(result, 0);
    }
}

/* The check can fail: the same capture with a longer FPU result latency on
 * the second run differs (in its stats), and a run of the capture against a
 * run on other settings that change nothing of the result (a thread) does not. */
static void test_threads_check_sees_a_difference(void)
{
    const char *path = "tests/data/traces/skl_compute.aub.gz";
    const char *one[] = { "simulation.threads=1" };
    const char *slower[] = { "simulation.threads=1", "gpu.slice.subslice.eu.fpu_latency=9" };
    CU_ASSERT_EQUAL(fuzz_compare_capture(path, one, 1, slower, 2), FUZZ_DIVERGED);
    CU_ASSERT_EQUAL(fuzz_compare_capture(path, one, 1, one, 1), 0);
}

static const struct test_case cases[] = {
    { "machine findings stop cleanly", test_machine_findings },
    { "sweep findings are refused with one error naming the line", test_sweep_findings },
    { "cs_batch findings stop cleanly", test_cs_batch_findings },
    { "threads findings stop cleanly, the same on 1 and 2 threads", test_threads_findings },
    { "threads check: captures agree on one and two host threads",
      test_threads_check_agrees_on_captures },
    { "threads check: it tells different runs apart", test_threads_check_sees_a_difference },
    { 0 }
};
TEST_SUITE(fuzz_regressions, cases);
