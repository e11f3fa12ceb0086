/* tests/integration/test_cli.c - the gtsim command line as a user meets it:
 * the default run and its outputs, help for every command, one-line errors
 * with a nonzero exit, the trace, the deadlock exit, no progress output when
 * stderr is not a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

/* Runs `gtsim ARGS` with stdout and stderr captured to files. */
static struct result *gtsim(const char *args)
{
    static const size_t size = sizeof(struct result);
    struct result *r = calloc(1, size);
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

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The value of `path` in stats.csv text ("path,value,..."); -1 if absent. */
static double csv_value(const char *csv, const char *path)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,", path);
    const char *p = strstr(csv, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

static void test_default_run_writes_its_outputs(void)
{
    char args[600], file[600];
    const char *dir = test_temp_dir();
    snprintf(args, sizeof args, "run -o %s/out", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_STRING_EQUAL(r->err, "");                 /* not a terminal: no progress */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "result       finished"));
    char *buf = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/out/stats.csv", dir);
    slurp(file, buf, 1 << 20);
    CU_ASSERT_EQUAL(strncmp(buf, "path,value,measure,description\n", 31), 0);
    /* builtin:fabric: the host sends 100000 messages (its default) and the
     * memory placeholder is the only sink, so all of them end there. */
    CU_ASSERT_EQUAL(csv_value(buf, "host.injected"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.memory.sunk"), 100000);
    /* the 24 EUs each saw a share: 100000 over 3 dispatchers over 8 EUs */
    double eu_total = 0;
    for (int ss = 0; ss < 3; ss++)
        for (int e = 0; e < 8; e++) {
            char path[96];
            snprintf(path, sizeof path, "gpu.slice0.subslice%d.eu%d.received", ss, e);
            double v = csv_value(buf, path);
            CU_ASSERT_TRUE(v > 4000);
            eu_total += v;
        }
    CU_ASSERT_EQUAL(eu_total, 100000);
    snprintf(file, sizeof file, "%s/out/stats.json", dir);
    slurp(file, buf, 1 << 20);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"subslice1\": {"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"eu3\": {"));
    snprintf(file, sizeof file, "%s/out/config.cfg", dir);
    slurp(file, buf, 1 << 20);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "subslice"));    /* includes expanded */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "threads = 7"));
    free(buf);
    free(r);
}

static void test_help_for_every_command(void)
{
    static const char *const commands[] = { "--help", "run --help", "units --help",
                                            "config --help" };
    for (size_t i = 0; i < 4; i++) {
        struct result *r = gtsim(commands[i]);
        CU_ASSERT_EQUAL(r->status, 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "usage: gtsim"));
        free(r);
    }
}

static void test_errors_are_one_line_and_nonzero(void)
{
    static const struct { const char *args, *says; } cases[] = {
        { "run -c /nonexistent.cfg", "gtsim run: /nonexistent.cfg: cannot open config" },
        { "run --set gpu.slice.subslice.eu.threads=99",
          "--set threads: gpu.slice0.subslice0.eu0 parameter 'threads' = 99 is out of range" },
        { "run --set host.messages=-5", "is out of range" },
        { "run --bogus", "unknown option '--bogus'" },
        { "run --max-cycles", "--max-cycles needs a value" },
        { "run tests/data/nothing.aub", "workload 'tests/data/nothing.aub' is not supported yet" },
        { "frobnicate", "unknown command 'frobnicate'" },
        { "units no_such_kind", "no unit kind 'no_such_kind'" },
        { "config --set simulation.speed=3", "simulation has no setting 'speed'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct result *r = gtsim(cases[i].args);
        CU_ASSERT_EQUAL(r->status, 1);
        CU_ASSERT_EQUAL(lines(r->err), 1);
        if (!strstr(r->err, cases[i].says))
            fprintf(stderr, "\n%s: got '%s'\n", cases[i].args, r->err);
        CU_ASSERT_PTR_NOT_NULL(strstr(r->err, cases[i].says));
        free(r);
    }
}

static void test_units_lists_kinds_with_help(void)
{
    struct result *r = gtsim("units");
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "host\n"));
    /* the EU and TD are real units now; the sampler is still a placeholder */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "sampler (placeholder)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "threads"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "injected"));
    free(r);
    r = gtsim("config --set gpu.slice.subslice.count=2");
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "count = 2"));
    free(r);
}

static void test_trace_is_written_and_bounded(void)
{
    char args[600], file[600];
    const char *dir = test_temp_dir();
    snprintf(args, sizeof args, "run -q -o %s --set host.messages=50 --trace", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    char *buf = malloc(1 << 22);
    snprintf(file, sizeof file, "%s/trace.json", dir);
    slurp(file, buf, 1 << 22);
    CU_ASSERT_EQUAL(strncmp(buf, "{\"traceEvents\":[", 16), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"name\":\"thread_name\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"args\":{\"name\":\"gpu.slice0.subslice2.eu7\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"ph\":\"X\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"truncated\":false"));
    snprintf(args, sizeof args, "run -q -o %s --set host.messages=5000 --trace "
             "--trace-max-events 100", dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    slurp(file, buf, 1 << 22);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"events\":100,\"max_events\":100,\"truncated\":true"));
    free(buf);
}

static void test_deadlock_exits_two_with_a_report(void)
{
    const char *dir = test_temp_dir();
    char path[600], args[900];
    snprintf(path, sizeof path, "%s/ring.cfg", dir);
    FILE *f = fopen(path, "w");
    fputs("clocks = { gt = { mhz = 1000.0; }; };\n"
          "host = { kind = \"host\"; messages = 20; };\n"
          "p = { kind = \"vf\"; };\nq = { kind = \"vs\"; };\n"
          "links = ( { from = \"host.gpu\"; to = \"p.host\"; },\n"
          "  { from = \"p.out\"; to = \"q.in\"; capacity = 2; },\n"
          "  { from = \"q.out\"; to = \"p.back\"; capacity = 2; } );\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run -q -c %s -o %s/out", path, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "channel p.out[0] -> q.in[0]: 2/2 messages"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "gtsim run: deadlock"));
    free(r);
}

static const struct test_case cases[] = {
    { "default run writes its outputs", test_default_run_writes_its_outputs },
    { "help for every command", test_help_for_every_command },
    { "errors are one line and nonzero", test_errors_are_one_line_and_nonzero },
    { "units lists kinds with help", test_units_lists_kinds_with_help },
    { "trace is written and bounded", test_trace_is_written_and_bounded },
    { "deadlock exits 2 with a report", test_deadlock_exits_two_with_a_report },
    { 0 }
};
TEST_SUITE(cli, cases);
