/* tests/integration/test_determinism.c - the model is deterministic (issue 18):
 * every capture in tests/data/traces and the builtin workload, run twice by
 * `gtsim run`, give byte-identical stats.csv and identical outputs (the
 * --images PNGs and images.json, and for skl_compute the --dump of its two
 * result buffers); a third run with the tick order of every cycle shuffled
 * (simulation.tick_order_seed, fabric/sim.h) gives the same results.
 *
 * No stat depends on host time (tools/cmd_run.c reads the clock only for the
 * summary it prints, which -q drops), so the repeated runs compare whole
 * files. With a shuffled tick order exactly one stat may differ:
 * sim.messages_peak, the fabric's count of messages alive at once, which
 * counts allocations of the simulator itself (a unit that frees a message
 * before or after another allocates one in the same cycle) and is not a
 * result of any unit; every unit's stats must match.
 *
 * skl_fill_heavy is run only in the optimised build: it takes ~5 s there and
 * far longer under the sanitizers (the binary under test is build/san/...). */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "workloads/workload.h"

#define SHUFFLE_SEED "12345"

/* Runs `gtsim run -q -o DIR --images DIR/img EXTRA WORKLOAD`; the exit status. */
static int run(const char *dir, const char *extra, const char *workload)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s run -q -o %s --images %s/img %s %s >%s.stdout 2>%s.stderr </dev/null",
             test_gtsim_binary(), dir, dir, extra, workload, dir, dir);
    int s = system(cmd);
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}

static char *slurp(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
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

/* Whether files a and b hold the same bytes (both must exist). */
static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* Compares two stats.csv line by line; a line whose stat is `allowed` (NULL:
 * none) may differ. Prints every other differing stat (unless quiet); returns
 * their count. */
static int stats_compare(const char *name, const char *a, const char *b, const char *allowed, int quiet)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    if (!x || !y) {
        fprintf(stderr, "determinism %s: no stats.csv\n", name);
        free(x);
        free(y);
        return 1;
    }
    int differences = 0;
    char *save_x, *save_y;
    char *lx = strtok_r(x, "\n", &save_x), *ly = strtok_r(y, "\n", &save_y);
    while (lx || ly) {
        if (!lx || !ly || strcmp(lx, ly) != 0) {
            size_t key = lx ? strcspn(lx, ",") : 0;
            int excused = lx && ly && allowed && strlen(allowed) == key && strncmp(lx, allowed, key) == 0 &&
                          strncmp(lx, ly, key + 1) == 0;
            if (!excused && !quiet)
                fprintf(stderr, "determinism %s: stats differ:\n  %s\n  %s\n", name, lx ? lx : "(end)",
                        ly ? ly : "(end)");
            differences += !excused;
        }
        lx = lx ? strtok_r(NULL, "\n", &save_x) : NULL;
        ly = ly ? strtok_r(NULL, "\n", &save_y) : NULL;
    }
    free(x);
    free(y);
    return differences;
}

static int stats_differences(const char *name, const char *a, const char *b, const char *allowed)
{
    return stats_compare(name, a, b, allowed, 0);
}

/* Every file of directory a/sub is in b/sub with the same bytes, and b has no
 * other file; returns how many do not match (printing each). */
static int files_differences(const char *name, const char *a, const char *b, const char *sub)
{
    char da[4200], db[4200], fa[4600], fb[4600];
    snprintf(da, sizeof da, "%s/%s", a, sub);
    snprintf(db, sizeof db, "%s/%s", b, sub);
    int differences = 0, count_a = 0, count_b = 0;
    DIR *d = opendir(da);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            count_a++;
            snprintf(fa, sizeof fa, "%s/%s", da, e->d_name);
            snprintf(fb, sizeof fb, "%s/%s", db, e->d_name);
            if (!same_file(fa, fb)) {
                fprintf(stderr, "determinism %s: %s/%s differs\n", name, sub, e->d_name);
                differences++;
            }
        }
        closedir(d);
    }
    if ((d = opendir(db)) != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            count_b += e->d_name[0] != '.';
        closedir(d);
    }
    if (count_a != count_b) {
        fprintf(stderr, "determinism %s: %s has %d files in one run, %d in the other\n", name, sub,
                count_a, count_b);
        differences++;
    }
    return differences;
}

/* Three runs of one workload ("" = the config's, builtin:fabric): natural
 * order twice, then shuffled; extra = more run arguments (may hold %s for the
 * run's directory, e.g. for --dump). */
static void check_workload(const char *name, const char *workload, const char *extra_format)
{
    const char *tmp = test_temp_dir();
    static const char *const runs[] = { "a", "b", "shuffled" };
    char dirs[3][2048];
    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof dirs[i], "%s/%s.%s", tmp, name, runs[i]);
        char extra[4096] = "";
        if (extra_format)
            snprintf(extra, sizeof extra, extra_format, dirs[i], dirs[i]);
        char mkdir[2200];
        snprintf(mkdir, sizeof mkdir, "mkdir -p %s/dump", dirs[i]);     /* --dump writes there */
        CU_ASSERT_EQUAL(system(mkdir), 0);
        if (i == 2)
            strncat(extra, " --set simulation.tick_order_seed=" SHUFFLE_SEED, sizeof extra - strlen(extra) - 1);
        int status = run(dirs[i], extra, workload);
        if (status != 0)
            fprintf(stderr, "determinism %s: run %s exited %d\n", name, runs[i], status);
        CU_ASSERT_EQUAL(status, 0);
    }
    char sa[2200], sb[2200], ss[2200], ca[2200], cb[2200];
    snprintf(sa, sizeof sa, "%s/stats.csv", dirs[0]);
    snprintf(sb, sizeof sb, "%s/stats.csv", dirs[1]);
    snprintf(ss, sizeof ss, "%s/stats.csv", dirs[2]);
    snprintf(ca, sizeof ca, "%s/config.cfg", dirs[0]);
    snprintf(cb, sizeof cb, "%s/config.cfg", dirs[1]);
    CU_ASSERT_TRUE(same_file(sa, sb));
    CU_ASSERT_TRUE(same_file(ca, cb));
    CU_ASSERT_EQUAL(stats_differences(name, sa, sb, NULL), 0);
    CU_ASSERT_EQUAL(files_differences(name, dirs[0], dirs[1], "img"), 0);
    CU_ASSERT_EQUAL(files_differences(name, dirs[0], dirs[1], "dump"), 0);
    CU_ASSERT_EQUAL(stats_differences(name, sa, ss, "sim.messages_peak"), 0);
    CU_ASSERT_EQUAL(files_differences(name, dirs[0], dirs[2], "img"), 0);
    CU_ASSERT_EQUAL(files_differences(name, dirs[0], dirs[2], "dump"), 0);
}

static int sanitized_binary(void)
{
    return strstr(test_gtsim_binary(), "/san/") != NULL;
}

static void test_every_capture_is_deterministic(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob("tests/data/traces/*.aub.gz", 0, NULL, &g), 0);
    CU_ASSERT_TRUE(g.gl_pathc >= 16);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i];
        char name[256];
        const char *base = strrchr(path, '/') + 1;
        snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - strlen(".aub.gz")), base);
        if (strcmp(name, "skl_fill_heavy") == 0 && sanitized_binary())
            continue;
        /* skl_compute's results are buffers, not render targets: dump them
         * (the addresses of tests/integration/test_cli.c's dump test) */
        const char *extra = strcmp(name, "skl_compute") == 0
            ? "--dump 0xfffffffeffc00000:4096:%s/dump/a.bin --dump 0xfffffffeffc01000:4096:%s/dump/b.bin"
            : NULL;
        check_workload(name, path, extra);
    }
    globfree(&g);
}

static void test_builtin_workload_is_deterministic(void)
{
    check_workload("builtin", "builtin:fabric", NULL);
}

/* Same-cycle atomics on one address from different subslices' data ports
 * return the same values in a shuffled tick order: the data ports apply them
 * at the cycle's end in unit order (units/dataport/dataport_atomic.c). Before
 * that, the shuffled run's tickets differed from the natural order's. */
static void test_tickets_are_deterministic(void)
{
    char extra[300];
    snprintf(extra, sizeof extra, "-c configs/gen9-skl-gt3.cfg --dump 0x%llx:%u:%%s/dump/out.bin",
             (unsigned long long)WORKLOAD_OUT_VA, WORKLOAD_OUT_BYTES);
    if (access("build/gen/workloads/tickets.gen9.aub.gz", R_OK) != 0) {
        CU_FAIL("build/gen/workloads/tickets.gen9.aub.gz is missing: `make workloads` writes it");
        return;
    }
    check_workload("tickets", "build/gen/workloads/tickets.gen9.aub.gz", extra);
}

/* The same in fast mode with functional data ports, where the EUs call the data
 * ports from their edge commits (fabric/port.h port_call) instead of sending:
 * the calls, and so the atomics, come in unit order whatever the tick order. */
static void test_tickets_by_calls_are_deterministic(void)
{
    char extra[400];
    snprintf(extra, sizeof extra, "-c configs/gen9-skl-gt3.cfg --set gpu.slice.subslice.eu.fast=true "
             "--set gpu.slice.subslice.dataport.functional=true --dump 0x%llx:%u:%%s/dump/out.bin",
             (unsigned long long)WORKLOAD_OUT_VA, WORKLOAD_OUT_BYTES);
    if (access("build/gen/workloads/tickets.gen9.aub.gz", R_OK) != 0) {
        CU_FAIL("build/gen/workloads/tickets.gen9.aub.gz is missing: `make workloads` writes it");
        return;
    }
    check_workload("tickets_calls", "build/gen/workloads/tickets.gen9.aub.gz", extra);
}

/* The comparison can fail: two different workloads' stats differ. */
static void test_comparison_sees_a_difference(void)
{
    const char *tmp = test_temp_dir();
    char a[2200], b[2200], sa[2300], sb[2300];
    snprintf(a, sizeof a, "%s/cmp.a", tmp);
    snprintf(b, sizeof b, "%s/cmp.b", tmp);
    CU_ASSERT_EQUAL(run(a, "--set host.messages=100", "builtin:fabric"), 0);
    CU_ASSERT_EQUAL(run(b, "--set host.messages=101", "builtin:fabric"), 0);
    snprintf(sa, sizeof sa, "%s/stats.csv", a);
    snprintf(sb, sizeof sb, "%s/stats.csv", b);
    CU_ASSERT_FALSE(same_file(sa, sb));
    CU_ASSERT_TRUE(stats_compare("(expected to differ)", sa, sb, "sim.messages_peak", 1) > 0);
}

static const struct test_case cases[] = {
    { "every capture is deterministic, shuffled too", test_every_capture_is_deterministic },
    { "builtin workload is deterministic, shuffled too", test_builtin_workload_is_deterministic },
    { "same-cycle atomics return the same values in a shuffled tick order", test_tickets_are_deterministic },
    { "same with the data ports called (fast mode)", test_tickets_by_calls_are_deterministic },
    { "comparison sees a difference", test_comparison_sees_a_difference },
    { 0 }
};
TEST_SUITE(determinism, cases);
