/* tests/fabric/test_config.c - configs and the topology built from them:
 * every bad input names its file and line (or unit and port), --set works,
 * @include fragments resolve, and the default Gen9 GT2 machine has the shape
 * the seeds give it (1 slice x 3 subslices x 8 EUs x 7 threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric/config.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "tests/support/probes.h"
#include "tests/test.h"

static void write_text(const char *dir, const char *name, const char *text, char *path,
                       size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* Loads and builds; returns 0 or -1 with the error in err. */
static int try_build(const char *path, const char *const *sets, struct gt_error *err)
{
    struct gt_config *c = gt_config_load(path, err);
    if (!c)
        return -1;
    for (const char *const *s = sets; s && *s; s++)
        if (gt_config_set(c, *s, err) < 0) {
            gt_config_free(c);
            return -1;
        }
    struct sim_options o = { .watchdog_cycles = 1000, .log_level = -1 };
    struct sim *sim = sim_create(&o);
    int rc = topology_build(sim, c, probe_kind_find, err);
    if (rc == 0)
        rc = sim_realize(sim, err);
    sim_destroy(sim);
    gt_config_free(c);
    return rc;
}

#define CLOCKS "clocks = { a = { mhz = 1000.0; }; };\n"

struct bad_case {
    const char *text;
    const char *expect;         /* substring of the error, after "FILE:" */
};

static void test_bad_configs_name_file_and_line(void)
{
    static const struct bad_case bad[] = {
        /* syntax error on line 3 */
        { CLOCKS "x = { kind = \"vf\"; };\ny = { kind = ; };\n", ":3: syntax error" },
        /* unknown parameter on line 2 */
        { CLOCKS "x = { kind = \"test_sink\";\n  speed = 3; };\n",
          ":3: x (kind 'test_sink') has no parameter 'speed'" },
        /* out of range on line 2 */
        { CLOCKS "e = { kind = \"eu\"; threads = 99; };\n",
          ":2: e parameter 'threads' = 99 is out of range 1..16" },
        /* wrong type */
        { CLOCKS "e = { kind = \"eu\"; threads = \"seven\"; };\n",
          ":2: e parameter 'threads' wants an integer" },
        /* unknown kind */
        { CLOCKS "x = { kind = \"warp_drive\"; };\n", ":2: unknown unit kind 'warp_drive'" },
        /* duplicate instance names, one from a count */
        { CLOCKS "eu = { kind = \"eu\"; count = 2; };\neu1 = { kind = \"eu\"; };\n",
          ":3: unit 'eu1' is declared twice" },
        /* duplicate setting names: libconfig refuses them while parsing */
        { CLOCKS "x = { kind = \"vf\"; };\nx = { kind = \"vs\"; };\n", ":3: duplicate setting name" },
        /* a link to a port that does not exist */
        { CLOCKS "s = { kind = \"test_source\"; };\nd = { kind = \"test_sink\"; };\n"
                 "links = ( { from = \"s.out\"; to = \"d.nothing\"; } );\n",
          ":4: link s.out[0] -> d.nothing[0]: endpoint 'd.nothing[0]': kind 'test_sink' has no port "
          "'nothing'" },
        /* a link to a unit that does not exist */
        { CLOCKS "s = { kind = \"test_source\"; };\n"
                 "links = ( { from = \"s.out\"; to = \"ghost.in\"; } );\n",
          ":3: link endpoint 'ghost.in': no unit or block 'ghost'" },
        /* a counted unit used without an index */
        { CLOCKS "s = { kind = \"test_source\"; };\nd = { kind = \"test_sink\"; count = 2; };\n"
                 "links = ( { from = \"s.out\"; to = \"d.in\"; } );\n",
          ":4: link endpoint 'd.in': 'd' has count 2; write d[*] or d[N]" },
        /* lists of different lengths */
        { CLOCKS "s = { kind = \"test_source\"; count = 2; };\n"
                 "d = { kind = \"test_sink\"; count = 3; };\n"
                 "links = ( { from = \"s[*].out\"; to = \"d[*].in\"; } );\n",
          ":4: 's[*].out' gives 2 endpoints but 'd[*].in' gives 3" },
        /* a port linked twice */
        { CLOCKS "s = { kind = \"test_source\"; };\nd = { kind = \"test_sink\"; count = 2; };\n"
                 "links = ( { from = \"s.out\"; to = \"d[0].in\"; },\n"
                 "          { from = \"s.out\"; to = \"d[1].in\"; } );\n",
          ":5: link s.out[0] -> d1.in[0]: s.out[0] is already linked" },
        /* a bad link setting */
        { CLOCKS "s = { kind = \"test_source\"; };\nd = { kind = \"test_sink\"; };\n"
                 "links = ( { from = \"s.out\"; to = \"d.in\"; latency = 0; } );\n",
          ":4: latency 0 is out of range" },
        /* a bad count */
        { CLOCKS "e = { kind = \"eu\"; count = 0; };\n", ":2: count 0 is out of range" },
        /* a clock that is not declared */
        { CLOCKS "e = { kind = \"eu\"; clock = \"warp\"; };\n", ":2: no clock named 'warp'" },
        /* a stray value in a block */
        { CLOCKS "speed = 7;\n", ":2: 'speed' in block '(root)'" },
        /* an implementation this build does not have */
        { CLOCKS "x = { kind = \"vf\"; impl = \"rtl\"; };\n",
          ":2: kind 'vf' has no 'rtl' implementation in this build" },
        /* [+] on a unit rather than a port */
        { CLOCKS "s = { kind = \"test_source\"; count = 2; };\nd = { kind = \"test_sink\"; };\n"
                 "links = ( { from = \"s[+].out\"; to = \"d.in\"; } );\n",
          ":4: link endpoint 's[+].out': [+] is for a port made on demand, not 's'" },
        /* [+] on a port the kind does not make on demand */
        { CLOCKS "s = { kind = \"test_source\"; };\nd = { kind = \"test_sink\"; };\n"
                 "links = ( { from = \"s.out\"; to = \"d.in[+]\"; } );\n",
          ":4: link endpoint 'd.in[+]': [+] needs a port made on demand; kind 'test_sink' does "
          "not make 'in'" },
        /* a bad clock */
        { "clocks = { a = { mhz = 0.0; }; };\ne = { kind = \"eu\"; };\n",
          ":1: clock 'a': mhz must be a number" },
    };
    const char *dir = test_temp_dir();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[512], name[32];
        snprintf(name, sizeof name, "bad%zu.cfg", i);
        write_text(dir, name, bad[i].text, path, sizeof path);
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL(try_build(path, NULL, &err), -1);
        char expect[700];
        snprintf(expect, sizeof expect, "%s%s", path, bad[i].expect);
        if (!strstr(err.message, expect))
            fprintf(stderr, "\ncase %zu:\n  got:    %s\n  wanted: %s\n", i, err.message, expect);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, expect));
    }
}

/* [+] on a port array made on demand adds ports after those earlier links
 * made: 2 then 3 sources give in[0..4], each bound once. */
static void test_append_ports_after_earlier_links(void)
{
    struct gt_error err;
    struct gt_config *c = gt_config_parse(CLOCKS "s = { kind = \"test_source\"; count = 2; };\n"
                                          "t = { kind = \"test_source\"; count = 3; };\n"
                                          "p = { kind = \"urb_fence\"; impl = \"placeholder\"; };\n"
                                          "links = ( { from = \"s[*].out\"; to = \"p.in[*]\"; },\n"
                                          "  { from = \"t[*].out\"; to = \"p.in[+]\"; } );\n",
                                          ".", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    struct sim *sim = sim_create(NULL);
    CU_ASSERT_EQUAL_FATAL(topology_build(sim, c, probe_kind_find, &err), 0);
    struct unit *p = sim_find_unit(sim, "p");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(unit_port_count(p, "in"), 5);
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_TRUE(port_is_bound(unit_port(p, "in", i)));
    sim_destroy(sim);
    gt_config_free(c);
}

/* impl = "alt" picks the kind registered as "<kind>:alt"; "c" the kind itself. */
static void test_impl_picks_another_implementation(void)
{
    struct gt_error err;
    struct gt_config *c = gt_config_parse(CLOCKS "r = { kind = \"test_relay\"; impl = \"alt\"; };\n"
                                          "s = { kind = \"test_relay\"; impl = \"c\"; };\n", ".",
                                          &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    struct sim *sim = sim_create(NULL);
    CU_ASSERT_EQUAL_FATAL(topology_build(sim, c, probe_kind_find, &err), 0);
    CU_ASSERT_STRING_EQUAL(unit_kind(sim_find_unit(sim, "r")), "test_relay:alt");
    CU_ASSERT_STRING_EQUAL(unit_kind(sim_find_unit(sim, "s")), "test_relay");
    sim_destroy(sim);
    gt_config_free(c);
}

static void test_unlinked_required_port_names_unit_and_port(void)
{
    const char *dir = test_temp_dir();
    char path[512];
    write_text(dir, "lonely.cfg", CLOCKS "s = { kind = \"test_source\"; };\n", path, sizeof path);
    struct gt_error err;
    CU_ASSERT_EQUAL(try_build(path, NULL, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "s: required output port 'out[0]' is not linked"));
}

static void test_missing_file(void)
{
    struct gt_error err;
    CU_ASSERT_PTR_NULL(gt_config_load("/nonexistent/dir/machine.cfg", &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/dir/machine.cfg: cannot open config"));
    CU_ASSERT_PTR_NULL(gt_config_load(test_temp_dir(), &err));   /* a directory */
}

static void test_include_and_overrides(void)
{
    const char *dir = test_temp_dir();
    char path[512], sub[512];
    snprintf(sub, sizeof sub, "%s/parts", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0777), 0);
    write_text(dir, "parts/eus.cfg", "e = { kind = \"eu\"; count = 2; threads = 5; };\n", path,
               sizeof path);
    write_text(dir, "top.cfg", CLOCKS "@include \"parts/eus.cfg\"\n", path, sizeof path);
    struct gt_error err;
    struct gt_config *c = gt_config_load(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(gt_config_set(c, "e.threads=6", &err), 0);
    CU_ASSERT_EQUAL(gt_config_set(c, "e.count=3", &err), 0);
    CU_ASSERT_EQUAL(gt_config_set(c, "clocks.a.mhz=500", &err), 0);    /* stays a float */
    CU_ASSERT_EQUAL(gt_config_set(c, "e", &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "expected KEY=VALUE"));
    CU_ASSERT_EQUAL(gt_config_set(c, "e=3", &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "is a group or list"));
    CU_ASSERT_EQUAL(gt_config_set(c, "e.threads.x=3", &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "is a value, not a group"));
    struct sim *sim = sim_create(NULL);
    CU_ASSERT_EQUAL_FATAL(topology_build(sim, c, probe_kind_find, &err), 0);
    CU_ASSERT_EQUAL(sim_unit_count(sim), 3);
    char value[64];
    CU_ASSERT_EQUAL(unit_param_text(sim_find_unit(sim, "e2"), "threads", value, sizeof value), 0);
    CU_ASSERT_STRING_EQUAL(value, "6");
    CU_ASSERT_EQUAL(sim_clock_period(sim, 0), 2000);                 /* 500 MHz */
    sim_destroy(sim);
    /* an override that breaks a range names --set */
    CU_ASSERT_EQUAL(gt_config_set(c, "e.threads=40", &err), 0);
    sim = sim_create(NULL);
    CU_ASSERT_EQUAL(topology_build(sim, c, probe_kind_find, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--set threads: e0 parameter 'threads' = 40"));
    sim_destroy(sim);
    gt_config_free(c);
}

/* libconfig 1.5 exits the process when an @include names a directory (its
 * flex input fails); gtsim refuses such a config first, naming the file and
 * line of the @include, at any depth of includes. */
static void test_include_of_a_directory_is_refused(void)
{
    const char *dir = test_temp_dir();
    char path[512], sub[512];
    snprintf(sub, sizeof sub, "%s/incdir", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0777), 0);
    write_text(dir, "direct.cfg", CLOCKS "\n  @include \"incdir\"\n", path, sizeof path);
    struct gt_error err;
    CU_ASSERT_PTR_NULL(gt_config_load(path, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "direct.cfg:3: @include \"incdir\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "is not a regular file"));
    /* one level down: top.cfg includes middle.cfg, which includes a directory */
    write_text(dir, "middle.cfg", "x = 1;\n@include \"incdir/\"\n", path, sizeof path);
    write_text(dir, "nested.cfg", CLOCKS "@include \"middle.cfg\"\n", path, sizeof path);
    CU_ASSERT_PTR_NULL(gt_config_load(path, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "middle.cfg:2: @include \"incdir/\""));
    /* text held in memory, includes relative to its include directory */
    CU_ASSERT_PTR_NULL(gt_config_parse(CLOCKS "@include \"incdir\"\n", dir, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "(text):2: @include"));
    /* a comment line naming a directory is not an include */
    struct gt_config *c = gt_config_parse(CLOCKS "# @include \"incdir\"\n", dir, &err);
    CU_ASSERT_PTR_NOT_NULL(c);
    gt_config_free(c);
    /* a regular file still includes */
    write_text(dir, "part.cfg", "y = 2;\n", path, sizeof path);
    c = gt_config_parse(CLOCKS "@include \"part.cfg\"\n", dir, &err);
    CU_ASSERT_PTR_NOT_NULL(c);
    gt_config_free(c);
}

static void free_memory(void *memory)
{
    gpu_memory_destroy(memory);
}

/* The default machine: the counts come from seed 003 / reference devices.txt
 * for SKL GT2 (0x1912): 1 slice, 3 subslices, 8 EUs each, 7 threads. */
static void test_gen9_gt2_topology(void)
{
    struct gt_error err;
    struct gt_config *c = gt_config_load("configs/gen9-skl-gt2.cfg", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    struct sim *sim = sim_create(NULL);
    sim_set_memory(sim, gpu_memory_create(&err), free_memory);
    int rc = topology_build(sim, c, probe_kind_find, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    unsigned eus = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++)
        if (strcmp(unit_kind(sim_unit(sim, i)), "eu") == 0)
            eus++;
    CU_ASSERT_EQUAL(eus, 24);
    CU_ASSERT_PTR_NOT_NULL(sim_find_unit(sim, "gpu.slice0.subslice2.eu7"));
    CU_ASSERT_PTR_NULL(sim_find_unit(sim, "gpu.slice0.subslice3.eu0"));
    CU_ASSERT_PTR_NULL(sim_find_unit(sim, "gpu.slice1.subslice0.eu0"));
    CU_ASSERT_PTR_NULL(sim_find_unit(sim, "gpu.slice0.subslice0.eu8"));
    char value[64];
    unit_param_text(sim_find_unit(sim, "gpu.slice0.subslice1.eu3"), "threads", value, sizeof value);
    CU_ASSERT_STRING_EQUAL(value, "7");
    /* every EU is reachable from its dispatcher and reaches its data port */
    for (int ss = 0; ss < 3; ss++)
        for (int e = 0; e < 8; e++) {
            char name[64];
            snprintf(name, sizeof name, "gpu.slice0.subslice%d.eu%d", ss, e);
            struct unit *u = sim_find_unit(sim, name);
            CU_ASSERT_TRUE(port_is_bound(unit_port(u, "dispatch", 0)));
            CU_ASSERT_TRUE(port_is_bound(unit_port(u, "send", 0)));
        }
    struct unit *wm = sim_find_unit(sim, "gpu.wm");
    CU_ASSERT_EQUAL(unit_port_count(wm, "td"), 3);
    CU_ASSERT_EQUAL(sim_clock_count(sim), 2);
    sim_destroy(sim);
    gt_config_free(c);
}

static const struct test_case cases[] = {
    { "[+] appends ports after earlier links", test_append_ports_after_earlier_links },
    { "bad configs name file and line", test_bad_configs_name_file_and_line },
    { "unlinked required port names unit and port",
      test_unlinked_required_port_names_unit_and_port },
    { "missing file", test_missing_file },
    { "impl picks another implementation", test_impl_picks_another_implementation },
    { "include and overrides", test_include_and_overrides },
    { "include of a directory is refused", test_include_of_a_directory_is_refused },
    { "gen9 gt2 topology", test_gen9_gt2_topology },
    { 0 }
};
TEST_SUITE(config, cases);
