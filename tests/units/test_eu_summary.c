/* tests/units/test_eu_summary.c - the run summary's GPU line comes from the key
 * figures the kinds name (fabric/unit.h struct key_figure; tools/cmd_run.c
 * prints them): every figure names a stat its kind really emits, and the line
 * `gtsim run` prints equals sums computed here from the run's own stats.csv. */
#include "../test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/support/probes.h"
#include "units/registry.h"

struct kinds_seen {
    unsigned with_figures, gating;
    bool eu, l3, icache;
};

/* One unit of the kind alone: each figure's stat (and second stat) is in its
 * stats dump; a stat renamed without its figure would print 0 silently. */
static void check_kind(const struct unit_ops *ops, void *context)
{
    struct kinds_seen *seen = context;
    if (!ops->key_figures || !ops->key_figures->label)
        return;
    seen->with_figures++;
    seen->eu |= strcmp(ops->kind, "eu") == 0;
    seen->l3 |= strcmp(ops->kind, "l3") == 0;
    seen->icache |= strcmp(ops->kind, "icache") == 0;
    struct sim *sim = probe_sim(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(probe_add(sim, ops, "k", NULL));
    for (const struct key_figure *f = ops->key_figures; f->label; f++) {
        char path[160];
        snprintf(path, sizeof path, "k.%s", f->stat);
        CU_ASSERT_NOT_EQUAL(probe_stat(sim, path), -1);
        if (f->form == KEY_FIGURE_HIT_RATE || f->form == KEY_FIGURE_SHARE) {
            CU_ASSERT_PTR_NOT_NULL_FATAL(f->other);
            snprintf(path, sizeof path, "k.%s", f->other);
            CU_ASSERT_NOT_EQUAL(probe_stat(sim, path), -1);
        }
        if (f->flags & KEY_FIGURE_GATES)
            seen->gating++;
    }
    sim_destroy(sim);
}

static void test_figures_name_real_stats(void)
{
    struct kinds_seen seen = { 0 };
    unit_kinds_each(check_kind, &seen);
    CU_ASSERT_TRUE(seen.eu && seen.l3 && seen.icache);
    CU_ASSERT_EQUAL(seen.with_figures, 6);      /* eu, l3, icache, vf; VideoCore: qpu, vc4_v3d */
    CU_ASSERT_EQUAL(seen.gating, 2);            /* the EU's and the QPU's instructions */
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

/* Sum of the values of the stats whose path has a segment starting with
 * `unit_prefix` (then digits or nothing) followed by ".stat". */
static double sum_stat(const char *csv, const char *unit_prefix, const char *stat, unsigned *units)
{
    double sum = 0;
    unsigned count = 0;
    size_t pn = strlen(unit_prefix), sn = strlen(stat);
    for (const char *line = csv; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *comma = strchr(line, ',');
        if (!comma || (size_t)(comma - line) < sn + 1 || strncmp(comma - sn, stat, sn) != 0 ||
            comma[-(long)sn - 1] != '.')
            continue;
        /* the unit segment: from the previous '.' (or line start) to before ".stat" */
        const char *end = comma - sn - 1, *start = end;
        while (start > line && start[-1] != '.')
            start--;
        if ((size_t)(end - start) < pn || strncmp(start, unit_prefix, pn) != 0)
            continue;
        bool digits = true;
        for (const char *p = start + pn; p < end; p++)
            digits = digits && *p >= '0' && *p <= '9';
        if (!digits)
            continue;
        sum += strtod(comma + 1, NULL);
        count++;
    }
    if (units)
        *units = count;
    return sum;
}

static void test_summary_line_is_the_stats(void)
{
    const char *dir = test_temp_dir();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s run -o %s/out tests/data/traces/skl_compute.aub.gz >%s/stdout "
             "2>/dev/null </dev/null", test_gtsim_binary(), dir, dir);
    int s = system(cmd);
    CU_ASSERT_TRUE_FATAL(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    char path[600];
    snprintf(path, sizeof path, "%s/stdout", dir);
    char *out = slurp(path);
    snprintf(path, sizeof path, "%s/out/stats.csv", dir);
    char *csv = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);

    unsigned eus = 0;
    double instructions = sum_stat(csv, "eu", "instructions", &eus);
    double occupancy = sum_stat(csv, "eu", "occupancy", NULL);
    double l3_hits = sum_stat(csv, "l3", "hits", NULL);
    double l3_misses = sum_stat(csv, "l3", "misses", NULL);
    double ic_hits = sum_stat(csv, "icache", "hits", NULL);
    double ic_requests = sum_stat(csv, "icache", "requests", NULL);
    CU_ASSERT_TRUE_FATAL(eus > 0 && instructions > 0 && l3_hits + l3_misses > 0 && ic_requests > 0);

    char want[512];
    snprintf(want, sizeof want, "  gpu          %.0f EU instructions, EU utilisation ", instructions);
    const char *line = strstr(out, want);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    snprintf(want, sizeof want, "%% (issuing), thread occupancy %.1f%%, L3 hit rate %.1f%% "
             "(%.0f of %.0f), icache hit rate %.1f%% (%.0f of %.0f)\n", 100.0 * occupancy / eus,
             100.0 * l3_hits / (l3_hits + l3_misses), l3_hits, l3_hits + l3_misses,
             100.0 * ic_hits / ic_requests, ic_hits, ic_requests);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, want));
    free(out);
    free(csv);
}

static const struct test_case cases[] = {
    { "every key figure names a stat its kind emits", test_figures_name_real_stats },
    { "the summary line is the sums of the run's stats", test_summary_line_is_the_stats },
    { 0 }
};

TEST_SUITE(eu_summary, cases);
