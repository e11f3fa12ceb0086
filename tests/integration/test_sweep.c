/* tests/integration/test_sweep.c - the architects' commands as they meet them,
 * through the built gtsim binary: `gtsim sweep` (a product and a zip sweep,
 * the table against runs made one by one with `gtsim run`, resume, a failing
 * point, errors naming the sweep file's line), `gtsim compare` and
 * `gtsim plot`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"

struct result {
    int status;
    char out[1 << 16];
    char err[1 << 14];
};

static void slurp(const char *path, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Runs `[ENV] gtsim ARGS` with stdout and stderr captured. */
static struct result *gtsim_env(const char *env, const char *args)
{
    struct result *r = calloc(1, sizeof *r);
    const char *dir = test_temp_dir();
    char cmd[8192], out[512], err[512];
    snprintf(out, sizeof out, "%s/stdout", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "%s %s %s >%s 2>%s </dev/null", env, test_gtsim_binary(), args,
             out, err);
    int s = system(cmd);
    r->status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    return r;
}

static struct result *gtsim(const char *args)
{
    return gtsim_env("", args);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* The value of `path` in stats.csv text; -1 if absent. */
static double csv_value(const char *csv, const char *path)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,", path);
    const char *p = strstr(csv, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

/* results.csv split into lines and comma-separated fields (the rows these
 * tests make hold no quoted field). */
#define MAX_ROWS 16
#define MAX_FIELDS 16

struct table {
    char text[1 << 14];
    char *field[MAX_ROWS][MAX_FIELDS];
    int rows;
};

static void read_table(const char *path, struct table *t)
{
    slurp(path, t->text, sizeof t->text);
    t->rows = 0;
    char *line = t->text;
    while (*line && t->rows < MAX_ROWS) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        int f = 0;
        for (char *p = line; p && f < MAX_FIELDS; f++) {
            t->field[t->rows][f] = p;
            p = strchr(p, ',');
            if (p)
                *p++ = 0;
        }
        for (; f < MAX_FIELDS; f++)
            t->field[t->rows][f] = "";
        t->rows++;
        line = end ? end + 1 : line + strlen(line);
    }
}

static int column(const struct table *t, const char *name)
{
    for (int c = 0; c < MAX_FIELDS; c++)
        if (strcmp(t->field[0][c], name) == 0)
            return c;
    return -1;
}

static const char product_sweep[] =
    "base = \"configs/gen9-skl-gt2.cfg\";\n"
    "workloads = [ \"tests/data/traces/skl_compute.aub.gz\" ];\n"
    "params = (\n"
    "  { key = \"gpu.slice.subslice.count\"; values = [ 1, 3 ]; },\n"
    "  { key = \"gpu.slice.subslice.eu.threads\"; values = [ 2, 7 ]; }\n"
    ");\n"
    "mode = \"product\";\n"
    "stats = [ \"gpu.slice0.subslice0.td.thread_cycles\" ];\n";

/* A 2x2 product gives 4 rows, the last key varying fastest, each with the
 * cycles that running the point alone with `gtsim run` gives. */
static void test_product_sweep_matches_single_runs(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[2400];
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    write_text(path, product_sweep);
    snprintf(args, sizeof args, "sweep %s -o %s/out -j 2", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_STRING_EQUAL(r->err, "");         /* not a terminal: no progress */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "4 run now, 0 done before, 0 failed"));
    free(r);
    struct table *t = calloc(1, sizeof *t);
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    read_table(path, t);
    CU_ASSERT_EQUAL_FATAL(t->rows, 5);
    CU_ASSERT_STRING_EQUAL(t->field[0][0], "gpu.slice.subslice.count");
    CU_ASSERT_STRING_EQUAL(t->field[0][1], "gpu.slice.subslice.eu.threads");
    int cycles = column(t, "cycles"), status = column(t, "status"), run_dir = column(t, "run_dir");
    int sent = column(t, "gpu.slice0.subslice0.td.thread_cycles");
    CU_ASSERT_TRUE_FATAL(cycles > 0 && status > 0 && run_dir > 0 && sent > 0);
    CU_ASSERT_TRUE(column(t, "host_seconds") > 0 && column(t, "workload") == 2);
    static const char *const expect[4][2] = { { "1", "2" }, { "1", "7" }, { "3", "2" },
                                              { "3", "7" } };
    char *csv = malloc(1 << 20);
    for (int row = 1; row <= 4; row++) {
        CU_ASSERT_STRING_EQUAL(t->field[row][0], expect[row - 1][0]);
        CU_ASSERT_STRING_EQUAL(t->field[row][1], expect[row - 1][1]);
        CU_ASSERT_STRING_EQUAL(t->field[row][status], "ok");
        snprintf(args, sizeof args, "run -q -o %s/alone%d --set gpu.slice.subslice.count=%s "
                 "--set gpu.slice.subslice.eu.threads=%s tests/data/traces/skl_compute.aub.gz",
                 dir, row, expect[row - 1][0], expect[row - 1][1]);
        r = gtsim(args);
        CU_ASSERT_EQUAL(r->status, 0);
        free(r);
        snprintf(path, sizeof path, "%s/alone%d/stats.csv", dir, row);
        slurp(path, csv, 1 << 20);
        double alone = csv_value(csv, "sim.clock.gt.cycles");
        CU_ASSERT_TRUE(alone > 0);
        CU_ASSERT_EQUAL(strtod(t->field[row][cycles], NULL), alone);
        CU_ASSERT_EQUAL(strtod(t->field[row][sent], NULL),
                        csv_value(csv, "gpu.slice0.subslice0.td.thread_cycles"));
        snprintf(path, sizeof path, "%s/stats.csv", t->field[row][run_dir]);
        CU_ASSERT_EQUAL(access(path, R_OK), 0);
    }
    /* more EU threads finish the one-subslice machine sooner */
    CU_ASSERT_TRUE(strtod(t->field[2][cycles], NULL) < strtod(t->field[1][cycles], NULL));
    snprintf(path, sizeof path, "%s/out/results.json", dir);
    slurp(path, csv, 1 << 20);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\"gpu.slice.subslice.count\": 3, "
                                       "\"gpu.slice.subslice.eu.threads\": 7, \"workload\": "
                                       "\"tests/data/traces/skl_compute.aub.gz\", \"cycles\": "));
    free(csv);
    free(t);
}

static const char fabric_sweep[] =
    "workloads = [ \"builtin:fabric\" ];\n"
    "params = ( { key = \"host.messages\"; values = [ 100, 200 ]; },\n"
    "           { key = \"gpu.slice.subslice.count\"; values = [ 1, 2 ]; } );\n";

/* A second sweep into the same directory runs nothing; a point whose status
 * is gone runs again, alone. */
static void test_resume_skips_done_points(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    write_text(path, fabric_sweep);
    snprintf(args, sizeof args, "sweep %s -o %s/out", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "4 run now, 0 done before"));
    free(r);
    struct table *t = calloc(1, sizeof *t);
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    read_table(path, t);
    CU_ASSERT_EQUAL_FATAL(t->rows, 5);
    char first_cycles[64], status_file[1200];
    snprintf(first_cycles, sizeof first_cycles, "%s", t->field[1][column(t, "cycles")]);
    snprintf(status_file, sizeof status_file, "%s/point.status", t->field[3][column(t, "run_dir")]);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "0 run now, 4 done before"));
    free(r);
    CU_ASSERT_EQUAL(unlink(status_file), 0);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "1 run now, 3 done before"));
    free(r);
    CU_ASSERT_EQUAL(access(status_file, R_OK), 0);
    read_table(path, t);
    CU_ASSERT_EQUAL(t->rows, 5);
    CU_ASSERT_STRING_EQUAL(t->field[1][column(t, "cycles")], first_cycles);
    free(t);
}

/* The job array's pieces, without a scheduler: --collect runs nothing and
 * tabulates what is done ("not run" rows); --task I runs the I-th point only. */
static void test_task_and_collect(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    write_text(path, fabric_sweep);
    snprintf(args, sizeof args, "sweep %s -o %s/out --collect", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    free(r);
    struct table *t = calloc(1, sizeof *t);
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    read_table(path, t);
    CU_ASSERT_EQUAL_FATAL(t->rows, 5);
    for (int row = 1; row <= 4; row++)
        CU_ASSERT_STRING_EQUAL(t->field[row][column(t, "status")], "not run");
    snprintf(args, sizeof args, "sweep %s/sweep.cfg -o %s/out --task 2", dir, dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    snprintf(args, sizeof args, "sweep %s/sweep.cfg -o %s/out --task 4", dir, dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "--task 4: the sweep has 4 distinct points (0..3)"));
    free(r);
    snprintf(args, sizeof args, "sweep %s/sweep.cfg -o %s/out --collect", dir, dir);
    r = gtsim(args);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "0 run now, 1 done before, 3 failed or not run"));
    free(r);
    read_table(path, t);
    /* points in order: messages 100 x count 1, 2; then 200 x 1, 2: the third is 200, 1 */
    CU_ASSERT_STRING_EQUAL(t->field[3][column(t, "status")], "ok");
    CU_ASSERT_STRING_EQUAL(t->field[3][0], "200");
    CU_ASSERT_STRING_EQUAL(t->field[3][1], "1");
    CU_ASSERT_STRING_EQUAL(t->field[1][column(t, "status")], "not run");
    free(t);
    snprintf(args, sizeof args, "sweep %s/sweep.cfg -o %s/out --slurm", dir, dir);
    r = gtsim_env("PATH=/nonexistent", args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "--slurm: sbatch is not on PATH"));
    free(r);
}

/* zip pairs the i-th values: 3 rows, not 9; lists of unequal length are an
 * error naming the line. */
static void test_zip_pairs_values(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/zip.cfg", dir);
    write_text(path, "workloads = [ \"builtin:fabric\" ];\nmode = \"zip\";\n"
                     "params = ( { key = \"host.messages\"; values = [ 100, 200, 300 ]; },\n"
                     "  { key = \"simulation.watchdog_cycles\"; values = [ 5000, 6000, 7000 ]; } );\n");
    snprintf(args, sizeof args, "sweep %s -o %s/out", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    struct table *t = calloc(1, sizeof *t);
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    read_table(path, t);
    CU_ASSERT_EQUAL_FATAL(t->rows, 4);
    static const char *const pairs[3][2] = { { "100", "5000" }, { "200", "6000" },
                                             { "300", "7000" } };
    for (int row = 1; row <= 3; row++) {
        CU_ASSERT_STRING_EQUAL(t->field[row][0], pairs[row - 1][0]);
        CU_ASSERT_STRING_EQUAL(t->field[row][1], pairs[row - 1][1]);
    }
    /* builtin:fabric takes one cycle a message more on this path */
    CU_ASSERT_TRUE(strtod(t->field[2][column(t, "cycles")], NULL) >
                   strtod(t->field[1][column(t, "cycles")], NULL));
    free(t);
    snprintf(path, sizeof path, "%s/zip.cfg", dir);
    write_text(path, "mode = \"zip\";\n"
                     "params = ( { key = \"host.messages\"; values = [ 100, 200 ]; },\n"
                     "  { key = \"simulation.watchdog_cycles\"; values = [ 5000 ]; } );\n");
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "zip.cfg:3: mode \"zip\""));
    free(r);
}

/* Each bad sweep file stops before any run, with one line naming the sweep
 * file's line and the key (or workload, or stat). */
static void test_errors_name_the_line(void)
{
    static const struct { const char *text, *says; } cases[] = {
        { "params = (\n  { key = \"gpu.slice.subslice.eu.bogus\";\n    values = [ 1 ]; } );\n",
          "sweep.cfg:2: key 'gpu.slice.subslice.eu.bogus' = 1: " },
        { "params = (\n  { key = \"gpu.slice.subslice.eu.threads\";\n    values = [ 7,\n 99 ]; } );\n",
          "sweep.cfg:4: key 'gpu.slice.subslice.eu.threads' = 99: " },
        { "params = ( { key = \"gpu.nosuch.count\"; values = [ 2 ]; } );\n",
          "sweep.cfg:1: key 'gpu.nosuch.count': the base config" },
        { "workloads = [ \"builtin:fabric\",\n  \"tests/data/nothing.aub\" ];\n"
          "params = ( { key = \"host.messages\"; values = [ 10 ]; } );\n",
          "sweep.cfg:2: workload 'tests/data/nothing.aub'" },
        { "params = ( { key = \"host.messages\";\n  values = [ ]; } );\n",
          "sweep.cfg:2: key 'host.messages': values is empty" },
        { "params = ( { key = \"host.messages\"; values = [ 1 ]; } );\n\nstats = [ \"gpu.none\" ];\n",
          "sweep.cfg:3: stat 'gpu.none'" },
        { "params = ( { key = \"host.messages\"; values = [ 1 ]; } );\nspeed = 3;\n",
          "sweep.cfg:2: unknown setting 'speed'" },
        { "base = \"configs/none.cfg\";\nparams = ( { key = \"host.messages\"; values = [ 1 ]; } );\n",
          "sweep.cfg:1: base config 'configs/none.cfg'" },
        { "params = ( { key = ; } );\n", "sweep.cfg:1: syntax error" },
    };
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(path, cases[i].text);
        snprintf(args, sizeof args, "sweep %s -o %s/out", path, dir);
        struct result *r = gtsim(args);
        CU_ASSERT_EQUAL(r->status, 1);
        CU_ASSERT_EQUAL(strchr(r->err, '\n') - r->err + 1, (long)strlen(r->err));
        if (!strstr(r->err, cases[i].says))
            fprintf(stderr, "\ncase %zu: got '%s'\n", i, r->err);
        CU_ASSERT_PTR_NOT_NULL(strstr(r->err, cases[i].says));
        free(r);
        snprintf(path, sizeof path, "%s/out", dir);
        CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);     /* nothing ran */
        snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    }
}

/* A point that deadlocks keeps its exit status and message in the table; the
 * other point still runs; the sweep exits 1. The base is found beside the
 * sweep file. */
static void test_failed_point_is_recorded(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/ring.cfg", dir);
    write_text(path, "clocks = { gt = { mhz = 1000.0; }; };\n"
                     "host = { kind = \"host\"; messages = 20; };\n"
                     "cs = { kind = \"cs\"; };\n"
                     "p = { kind = \"vf\"; impl = \"placeholder\"; };\n"
                     "q = { kind = \"vs\"; impl = \"placeholder\"; };\n"
                     "links = ( { from = \"host.gpu\"; to = \"cs.host\"; },\n"
                     "  { from = \"cs.host_reply\"; to = \"host.gpu_reply\"; },\n"
                     "  { from = \"cs.vf\"; to = \"p.cs\"; },\n"
                     "  { from = \"p.out\"; to = \"q.in\"; capacity = 2; },\n"
                     "  { from = \"q.out\"; to = \"p.back\"; capacity = 2; } );\n");
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    write_text(path, "base = \"ring.cfg\";\n"
                     "params = ( { key = \"host.messages\"; values = [ 20, 0 ]; } );\n");
    snprintf(args, sizeof args, "sweep %s -o %s/out -j 1", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "1 of 2 runs failed"));
    free(r);
    struct table *t = calloc(1, sizeof *t);
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    read_table(path, t);
    CU_ASSERT_EQUAL_FATAL(t->rows, 3);
    int status = column(t, "status"), exit_status = column(t, "exit_status");
    int message = column(t, "message");
    CU_ASSERT_STRING_EQUAL(t->field[1][status], "deadlock");
    CU_ASSERT_STRING_EQUAL(t->field[1][exit_status], "2");
    CU_ASSERT_PTR_NOT_NULL(strstr(t->field[1][message], "gtsim run: deadlock"));
    CU_ASSERT_STRING_EQUAL(t->field[2][status], "ok");
    CU_ASSERT_STRING_EQUAL(t->field[2][exit_status], "0");
    free(t);
}

/* compare: the host injected twice the messages (+100%), and the config
 * values that made it so. */
static void test_compare_lists_changes(void)
{
    const char *dir = test_temp_dir();
    char args[1400];
    snprintf(args, sizeof args, "run -q -o %s/a --set host.messages=200 builtin:fabric", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    snprintf(args, sizeof args, "run -q -o %s/b --set host.messages=400 builtin:fabric", dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    snprintf(args, sizeof args, "compare %s/a %s/b", dir, dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    const char *injected = strstr(r->out, "host.injected\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(injected);
    const char *line = injected;
    while (line > r->out && line[-1] != '\n')
        line--;
    char expect[200];
    snprintf(expect, sizeof expect, "  %10s %14s %14s %14s  host.injected\n", "+100.00%", "+200",
             "200", "400");
    CU_ASSERT_EQUAL(strncmp(line, expect, strlen(expect)), 0);
    /* sorted: no stat below it changed by more */
    CU_ASSERT_PTR_NULL(strstr(injected, "+200.00%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "config values that differ:\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "host.messages"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, " 200 -> 400\n"));
    free(r);
    snprintf(args, sizeof args, "compare %s/a %s/a", dir, dir);
    r = gtsim(args);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "stats that differ: 0 of"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "  (none)\n"));
    free(r);
    snprintf(args, sizeof args, "compare %s/a %s/nothing", dir, dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "nothing/stats.csv: cannot open"));
    free(r);
}

/* plot: a PNG when gnuplot is there; without it on PATH, a clear error. */
static void test_plot_writes_a_png(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[1400];
    snprintf(path, sizeof path, "%s/sweep.cfg", dir);
    write_text(path, fabric_sweep);
    snprintf(args, sizeof args, "sweep %s -o %s/out", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    snprintf(args, sizeof args, "plot %s/out --stat cycles --x host.messages -o %s/c.png", dir,
             dir);
    r = gtsim_env("PATH=/nonexistent", args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "gnuplot is not installed"));
    free(r);
    snprintf(args, sizeof args, "plot %s/out --stat nothing", dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "no stat column 'nothing'"));
    free(r);
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "\n  (gnuplot not installed: the PNG is not checked; make deps)\n");
        return;
    }
    snprintf(args, sizeof args, "plot %s/out --stat cycles --x host.messages -o %s/c.png", dir,
             dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "4 points, 2 lines"));
    free(r);
    char png[16];
    snprintf(path, sizeof path, "%s/c.png", dir);
    slurp(path, png, sizeof png);
    CU_ASSERT_EQUAL(memcmp(png, "\x89PNG", 4), 0);
    snprintf(path, sizeof path, "%s/c.png.gp", dir);
    char *script = malloc(1 << 16);
    slurp(path, script, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set xlabel 'host.messages'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set ylabel 'cycles'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "title 'builtin:fabric, gpu.slice.subslice.count=2'"));
    free(script);
}

static const struct test_case cases[] = {
    { "product sweep matches single runs", test_product_sweep_matches_single_runs },
    { "resume skips done points", test_resume_skips_done_points },
    { "task and collect", test_task_and_collect },
    { "zip pairs values", test_zip_pairs_values },
    { "errors name the line", test_errors_name_the_line },
    { "failed point is recorded", test_failed_point_is_recorded },
    { "compare lists changes", test_compare_lists_changes },
    { "plot writes a png", test_plot_writes_a_png },
    { 0 }
};
TEST_SUITE(sweep, cases);
