/* tests/integration/test_cli.c - the gtsim command line as a user meets it:
 * the default run and its outputs, help for every command, one-line errors
 * with a nonzero exit, the trace, the deadlock exit, no progress output when
 * stderr is not a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tests/test.h"

struct result {
    int status;
    char out[1 << 18];
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
    snprintf(args, sizeof args, "run -o %s/out builtin:fabric", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_STRING_EQUAL(r->err, "");                 /* not a terminal: no progress */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "result       finished"));
    char *buf = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/out/stats.csv", dir);
    slurp(file, buf, 1 << 20);
    CU_ASSERT_EQUAL(strncmp(buf, "path,value,measure,description\n", 31), 0);
    /* builtin:fabric: the host sends 100000 3D state commands (its default);
     * the CS passes each down its 3D port, VF takes them (3DSTATE_VF_STATISTICS
     * is VF's), and every stage passes them on as far as the windower, which
     * takes them. */
    CU_ASSERT_EQUAL(csv_value(buf, "host.injected"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.cs.state_packets"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.cs.by_command.3DSTATE_VF_STATISTICS"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.vf.ff.taken"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.wm.ff.taken"), 100000);
    CU_ASSERT_EQUAL(csv_value(buf, "gpu.slice0.l3.hits"), 0);
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
        { "run tests/data/nothing.aub", "gtsim run: tests/data/nothing.aub: cannot open" },
        { "run builtin:nothing", "no built-in workload 'builtin:nothing'" },
        { "decode", "name a workload" },
        { "frobnicate", "unknown command 'frobnicate'" },
        { "units no_such_kind", "no unit kind 'no_such_kind'" },
        { "config --set simulation.speed=3", "simulation has no setting 'speed'" },
        { "run --wave w.fst", "--wave w.fst: no unit of the machine uses an RTL impl" },
        { "run --wave =w.fst", "--wave wants FILE.fst or UNIT=FILE.fst" },
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

/* A bare run plays the default job, the skl_tri capture kept in tests/data,
 * and writes the images it drew (test_images.c judges the picture itself). */
static void test_bare_run_renders_the_default_capture(void)
{
    char args[600], file[600];
    const char *dir = test_temp_dir();
    snprintf(args, sizeof args, "run -o %s/bare", dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "workload     tests/data/traces/skl_tri.aub.gz"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "images       2 in "));
    free(r);
    snprintf(file, sizeof file, "%s/bare/images/fffffffeffc00000-64x64-R8G8B8A8_UNORM.png", dir);
    CU_ASSERT_EQUAL(access(file, R_OK), 0);
    char *buf = malloc(1 << 16);
    snprintf(file, sizeof file, "%s/bare/images/images.json", dir);
    slurp(file, buf, 1 << 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"address\": \"0xfffffffeffc00000\", \"width\": 64"));
    free(buf);
    /* --no-images writes none */
    snprintf(args, sizeof args, "run -o %s/none --no-images", dir);
    r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    snprintf(file, sizeof file, "%s/none/images", dir);
    CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
}

static void test_units_lists_kinds_with_help(void)
{
    struct result *r = gtsim("units");
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "host\n"));
    /* the EU, TD, sampler, pixel interpolator and Gen4's URB_FENCE URB are
     * real units now */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "\npi\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "\nurb_fence\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "threads"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "injected"));
    free(r);
    /* a port says which message kinds it carries; a kind names its key figures */
    r = gtsim("units l3");
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "client           in  (open: one port per link)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "carries: memory_request"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "carries: mmio"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "L3 hit rate: hits, misses"));
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
    /* the bound is kept: a span is 2 events, so the last one may leave one unused */
    CU_ASSERT_TRUE(strstr(buf, "\"events\":100,\"max_events\":100,\"truncated\":true") != NULL ||
                   strstr(buf, "\"events\":99,\"max_events\":100,\"truncated\":true") != NULL);
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
          "cs = { kind = \"cs\"; };\n"
          "p = { kind = \"vf\"; impl = \"placeholder\"; };\nq = { kind = \"vs\"; impl = \"placeholder\"; };\n"
          "links = ( { from = \"host.gpu\"; to = \"cs.host\"; },\n"
          "  { from = \"cs.host_reply\"; to = \"host.gpu_reply\"; },\n"
          "  { from = \"cs.vf\"; to = \"p.cs\"; },\n"
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

/* The compute capture's input buffers, as the trace README defines them:
 * a[i] = i and b[i] = 0.5 * (1024 - i), 1024 floats each; their GPU addresses
 * are the SURFACE_STATE base addresses aubinator printed for skl_compute. */
static void test_run_capture_and_dump_buffers(void)
{
    const char *dir = test_temp_dir();
    char args[1200], file[600];
    snprintf(args, sizeof args, "run -q -o %s/out --dump 0xfffffffeffc00000:4096:%s/a.bin "
             "--dump 0xfffffffeffc01000:4096:%s/b.bin tests/data/traces/skl_compute.aub.gz",
             dir, dir, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_STRING_EQUAL(r->err, "");
    free(r);
    float a[1024], b[1024];
    snprintf(file, sizeof file, "%s/a.bin", dir);
    FILE *f = fopen(file, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(a, 4, 1024, f), 1024);
    fclose(f);
    snprintf(file, sizeof file, "%s/b.bin", dir);
    f = fopen(file, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(b, 4, 1024, f), 1024);
    fclose(f);
    for (int i = 0; i < 1024; i++) {
        CU_ASSERT_EQUAL(a[i], (float)i);
        CU_ASSERT_EQUAL(b[i], 0.5f * (float)(1024 - i));
    }
    /* bad --dump requests: one line, exit 1 */
    r = gtsim("run -q --dump 0x1000:0:x.bin tests/data/traces/skl_compute.aub.gz");
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "--dump wants ADDR:BYTES:FILE"));
    free(r);
    snprintf(args, sizeof args, "run -q -o %s/out --set host.messages=10 --dump 0x1000:16:%s/x.bin "
             "builtin:fabric", dir, dir);
    r = gtsim(args);
    /* builtin: the context is the GGTT, where nothing is mapped: a clear fault */
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "GGTT fault at 0x1000: not present"));
    free(r);
}

/* --record-port: one "m" line per message the port carried, as many as the
 * port's own count of messages sent. */
static void test_record_port(void)
{
    const char *dir = test_temp_dir();
    char args[1200], file[600];
    snprintf(args, sizeof args, "run -q -o %s/out --record-port gpu.cs.vf=%s/vf.rec "
             "tests/data/traces/skl_compute.aub.gz", dir, dir);
    struct result *r = gtsim(args);
    CU_ASSERT_EQUAL(r->status, 0);
    free(r);
    char *buf = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/vf.rec", dir);
    slurp(file, buf, 1 << 20);
    CU_ASSERT_EQUAL(strncmp(buf, "gtsim-port-recording 1\n", 23), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nunit gpu.cs\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nport vf out\n"));
    int messages = 0;
    for (const char *p = buf; (p = strstr(p, "\nm ")); p++)
        messages++;
    char *csv = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/out/stats.csv", dir);
    slurp(file, csv, 1 << 20);
    CU_ASSERT_EQUAL(messages, csv_value(csv, "gpu.cs.port.vf.sent"));
    CU_ASSERT_TRUE(messages > 0);
    free(csv);
    free(buf);
    r = gtsim("run -q --record-port gpu.cs.nope=x.rec");
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, "the unit has no such port"));
    free(r);
}

static void test_decode_prints_and_summarises(void)
{
    struct result *r = gtsim("decode tests/data/traces/g965_tri.aub.gz");
    CU_ASSERT_EQUAL(r->status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "0x00010000:  0x"));     /* the batch's first command */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "3DPRIMITIVE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "summary: 35 commands executed, 0 unknown, 0 hangs"));
    /* 1 ring MI_BATCH_BUFFER_START + the batch's 34 commands (g965_tri.batch.00.cmds) */
    CU_ASSERT_PTR_NOT_NULL(strstr(r->out, "       3  3DPRIMITIVE"));
    free(r);
}

static const struct test_case cases[] = {
    { "a bare run renders the default capture", test_bare_run_renders_the_default_capture },
    { "run a capture and dump buffers", test_run_capture_and_dump_buffers },
    { "decode prints and summarises", test_decode_prints_and_summarises },
    { "record port", test_record_port },
    { "default run writes its outputs", test_default_run_writes_its_outputs },
    { "help for every command", test_help_for_every_command },
    { "errors are one line and nonzero", test_errors_are_one_line_and_nonzero },
    { "units lists kinds with help", test_units_lists_kinds_with_help },
    { "trace is written and bounded", test_trace_is_written_and_bounded },
    { "deadlock exits 2 with a report", test_deadlock_exits_two_with_a_report },
    { 0 }
};
TEST_SUITE(cli, cases);
