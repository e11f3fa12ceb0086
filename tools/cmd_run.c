/* tools/cmd_run.c - `gtsim run` and `gtsim config`. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fabric/config.h"
#include "fabric/recording.h"
#include "fabric/stats.h"
#include "fabric/trace.h"
#include "tools/dispatch_stats.h"
#include "tools/commands.h"
#include "tools/images.h"
#include "tools/machine.h"
#include "units/cs/cs.h"
#include "units/wm/wm.h"
#include "fabric/memory.h"

/* The default job: a real capture kept in the repository (issue 12 item 7). */
#define DEFAULT_WORKLOAD "tests/data/traces/skl_tri.aub.gz"

#define MAX_SETS 256
#define MAX_DUMPS 64
#define MAX_RECORDS 64
#define MAX_WAVES 8

struct dump_request {
    uint64_t address, bytes;
    const char *file;
};

struct run_args {
    struct machine_request req;
    const char *sets[MAX_SETS];
    struct dump_request dumps[MAX_DUMPS];
    int dump_count;
    const char *records[MAX_RECORDS];       /* "UNIT.PORT[N]=FILE" */
    const char *wave;                       /* --wave FILE.fst: every co-simulated unit */
    char wave_sets[MAX_WAVES][4200];        /* --wave UNIT=FILE.fst as UNIT.wave="FILE" */
    int wave_count;
    int record_count;
    const char *out_dir;
    const char *images_dir;                 /* --images DIR */
    bool no_images;                         /* --no-images */
    char default_images_dir[4200];          /* OUTDIR/images */
    int images_written;                     /* by this run, into images_dir */
    bool trace;
    uint64_t trace_max_events;
    uint64_t max_cycles;
    uint64_t threads;                       /* --threads N; 0: the config's */
    bool thread_report;                     /* --thread-report */
    bool quiet;
};

static const char run_usage[] =
    "usage: gtsim run [-c CONFIG] [-o OUTDIR] [--set KEY=VALUE]... [options] [WORKLOAD]\n"
    "\n"
    "Builds the machine CONFIG describes (default configs/gen9-skl-gt2.cfg), plays\n"
    "WORKLOAD on it until it is done, and writes stats.json, stats.csv and the\n"
    "resolved config.cfg into OUTDIR, and the images the run drew into\n"
    "OUTDIR/images. With neither -c nor WORKLOAD it plays the default job,\n"
    "" DEFAULT_WORKLOAD " (a real capture: Mesa's iris drawing two\n"
    "triangles on Skylake GT2), when it is there; otherwise, and with -c alone,\n"
    "the config's workload (builtin:fabric: state commands through every link).\n"
    "\n"
    "  -c, --config FILE        machine config (libconfig)\n"
    "  -o, --out DIR            output directory (default out/run); made if missing\n"
    "  -s, --set KEY=VALUE      override a config value, e.g. gpu.slice.subslice.count=2\n"
    "                           or simulation.watchdog_cycles=5000 (repeatable)\n"
    "      --trace              also write trace.json (Chrome trace events; open in Perfetto)\n"
    "      --trace-max-events N bound the trace (default 1000000 events)\n"
    "      --max-cycles N       stop after N cycles of the first clock\n"
    "      --threads N          tick the units on N host threads (1..64; default the\n"
    "                           config's simulation.threads, else the host's cores);\n"
    "                           results are the same for every N\n"
    "      --thread-report      after the run, print how the host threads shared the\n"
    "                           work (units, ticks, host time each; barriers per cycle)\n"
    "      --images DIR         after the run, write every colour surface the pixel back\n"
    "                           end (om units) wrote as DIR/<address>-<w>x<h>-<FORMAT>.png\n"
    "                           (8-bit RGBA as glReadPixels would give it, row 0 first)\n"
    "                           and DIR/images.json listing them (default\n"
    "                           OUTDIR/images, when the run drew anything)\n"
    "      --no-images          write no images\n"
    "      --dump ADDR:BYTES:FILE  after the run, write BYTES of GPU memory at ADDR\n"
    "                           (the last executed context's address space) to FILE\n"
    "                           (repeatable; numbers in C syntax, e.g. 0x1000:4096:c.bin)\n"
    "      --record-port UNIT.PORT[N]=FILE  record every message the port carries, with\n"
    "                           its cycle, for replay into a unit or its RTL (repeatable;\n"
    "                           format: fabric/recording.h)\n"
    "      --wave FILE.fst      dump the waveform of every unit run as RTL (impl rtl or\n"
    "                           lockstep, gtsim-cosim); in lockstep it ends wave_after\n"
    "                           cycles past the first mismatch; several such units each\n"
    "                           get FILE.<unit>.fst. --wave UNIT=FILE.fst: one unit\n"
    "  -q, --quiet              no summary\n"
    "  -h, --help               this text\n"
    "\n"
    "Exit status: 0 done, 1 error (a one-line message says which), 2 deadlock\n"
    "(the watchdog's report names every non-empty channel).\n";

static const char config_usage[] =
    "usage: gtsim config [-c CONFIG] [--set KEY=VALUE]... [WORKLOAD]\n"
    "\n"
    "Checks that CONFIG builds a machine, then prints it resolved: @include\n"
    "fragments expanded and --set overrides applied.\n";

/* Takes "--opt VALUE" or "--opt=VALUE"; NULL when the option is not `name`. */
static const char *option_value(int argc, char **argv, int *i, const char *shortname,
                                const char *name, bool *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    *missing = false;
    if ((shortname && strcmp(a, shortname) == 0) || strcmp(a, name) == 0) {
        if (*i + 1 >= argc) {
            *missing = true;
            return NULL;
        }
        return argv[++*i];
    }
    if (strncmp(a, name, n) == 0 && a[n] == '=')
        return a + n + 1;
    return NULL;
}

/* Returns -1 on error (printed), 1 for --help (printed), 0 to go on. */
static int parse_args(int argc, char **argv, struct run_args *a, const char *command,
                      const char *usage)
{
    memset(a, 0, sizeof *a);
    a->req.sets = a->sets;
    a->out_dir = "out/run";
    a->trace_max_events = 1000000;
    for (int i = 1; i < argc; i++) {
        const char *v;
        bool missing;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 1;
        }
        if ((v = option_value(argc, argv, &i, "-c", "--config", &missing))) {
            a->req.config_path = v;
        } else if (!missing && (v = option_value(argc, argv, &i, "-o", "--out", &missing))) {
            a->out_dir = v;
        } else if (!missing && (v = option_value(argc, argv, &i, "-s", "--set", &missing))) {
            if (a->req.set_count == MAX_SETS) {
                fprintf(stderr, "gtsim %s: more than %d --set options\n", command, MAX_SETS);
                return -1;
            }
            a->sets[a->req.set_count++] = v;
        } else if (!missing &&
                   (v = option_value(argc, argv, &i, NULL, "--trace-max-events", &missing))) {
            if (!cli_parse_u64(v, &a->trace_max_events)) {
                fprintf(stderr, "gtsim %s: --trace-max-events wants a number, not '%s'\n",
                        command, v);
                return -1;
            }
        } else if (!missing && (v = option_value(argc, argv, &i, NULL, "--threads", &missing))) {
            if (!cli_parse_u64(v, &a->threads) || a->threads < 1 || a->threads > 64) {
                fprintf(stderr, "gtsim %s: --threads wants a number from 1 to 64, not '%s'\n",
                        command, v);
                return -1;
            }
        } else if (!missing && (v = option_value(argc, argv, &i, NULL, "--max-cycles", &missing))) {
            if (!cli_parse_u64(v, &a->max_cycles)) {
                fprintf(stderr, "gtsim %s: --max-cycles wants a number, not '%s'\n", command, v);
                return -1;
            }
        } else if (!missing &&
                   (v = option_value(argc, argv, &i, NULL, "--record-port", &missing))) {
            if (a->record_count == MAX_RECORDS || !strchr(v, '=')) {
                fprintf(stderr, "gtsim %s: --record-port wants UNIT.PORT[N]=FILE (at most %d), "
                        "not '%s'\n", command, MAX_RECORDS, v);
                return -1;
            }
            a->records[a->record_count++] = v;
        } else if (!missing && (v = option_value(argc, argv, &i, NULL, "--wave", &missing))) {
            const char *eq = strchr(v, '=');
            if (!eq) {
                a->wave = v;
            } else if (eq == v || !eq[1] || a->req.set_count == MAX_SETS ||
                       a->wave_count == MAX_WAVES) {
                fprintf(stderr, "gtsim %s: --wave wants FILE.fst or UNIT=FILE.fst (at most %d), "
                        "not '%s'\n", command, MAX_WAVES, v);
                return -1;
            } else {
                char *set = a->wave_sets[a->wave_count++];
                snprintf(set, sizeof a->wave_sets[0], "%.*s.wave=\"%s\"", (int)(eq - v), v,
                         eq + 1);
                a->sets[a->req.set_count++] = set;
            }
        } else if (!missing && (v = option_value(argc, argv, &i, NULL, "--images", &missing))) {
            a->images_dir = v;
        } else if (!missing && (v = option_value(argc, argv, &i, NULL, "--dump", &missing))) {
            if (a->dump_count == MAX_DUMPS) {
                fprintf(stderr, "gtsim %s: more than %d --dump options\n", command, MAX_DUMPS);
                return -1;
            }
            struct dump_request *d = &a->dumps[a->dump_count];
            char *end = NULL;
            d->address = strtoull(v, &end, 0);
            bool ok = end != v && *end == ':';
            const char *bytes = ok ? end + 1 : v;
            d->bytes = ok ? strtoull(bytes, &end, 0) : 0;
            ok = ok && end != bytes && *end == ':' && end[1] && d->bytes > 0 &&
                 d->bytes <= (1ull << 32);
            if (!ok) {
                fprintf(stderr, "gtsim %s: --dump wants ADDR:BYTES:FILE with 0 < BYTES <= 4 GiB, "
                        "not '%s'\n", command, v);
                return -1;
            }
            d->file = end + 1;
            a->dump_count++;
        } else if (missing) {
            fprintf(stderr, "gtsim %s: %s needs a value\n", command, argv[i]);
            return -1;
        } else if (!strcmp(argv[i], "--no-images")) {
            a->no_images = true;
        } else if (!strcmp(argv[i], "--trace")) {
            a->trace = true;
        } else if (!strcmp(argv[i], "--thread-report")) {
            a->thread_report = true;
        } else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
            a->quiet = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gtsim %s: unknown option '%s' (try gtsim %s --help)\n", command,
                    argv[i], command);
            return -1;
        } else if (a->req.workload) {
            fprintf(stderr, "gtsim %s: one workload at a time ('%s' and '%s')\n", command,
                    a->req.workload, argv[i]);
            return -1;
        } else {
            a->req.workload = argv[i];
        }
    }
    return 0;
}

static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) < 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct progress {
    double start, last_print;
    bool printed;
};

/* On a terminal, runs longer than a second show the simulated cycles and the
 * rate, refreshed four times a second. */
static void show_progress(void *context, const struct sim *sim)
{
    struct progress *p = context;
    double now = host_seconds();
    if (now - p->start < 1.0 || now - p->last_print < 0.25)
        return;
    p->last_print = now;
    p->printed = true;
    uint64_t cycles = sim_now(sim) / sim_clock_period(sim, 0);
    fprintf(stderr, "\rgtsim: %" PRIu64 " %s cycles, %.2f Mcycles/s   ", cycles,
            sim_clock_name(sim, 0), (double)cycles / (now - p->start) / 1e6);
    fflush(stderr);
}

static int write_file_with(const char *dir, const char *name,
                           int (*writer)(const void *, FILE *, struct gt_error *),
                           const void *object, struct gt_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    int rc = writer(object, f, err);
    if (fclose(f) != 0 && rc == 0)
        rc = gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    return rc;
}

static int write_config(const void *c, FILE *f, struct gt_error *err)
{
    return gt_config_write(c, f, err);
}

static int write_json(const void *w, FILE *f, struct gt_error *err)
{
    return stats_write_json(w, f, err);
}

static int write_csv(const void *w, FILE *f, struct gt_error *err)
{
    return stats_write_csv(w, f, err);
}

/* --record-port: a recorder on an existing port of the built machine. */
static struct recorder *start_recording(struct sim *sim, const char *spec, struct gt_error *err)
{
    const char *eq = strchr(spec, '=');
    char endpoint[512];
    snprintf(endpoint, sizeof endpoint, "%.*s", (int)(eq - spec), spec);
    char *dot = strrchr(endpoint, '.');
    if (!dot) {
        gt_error_set(err, "--record-port '%s': expected UNIT.PORT[N]=FILE", spec);
        return NULL;
    }
    *dot = 0;
    char port[128];
    snprintf(port, sizeof port, "%s", dot + 1);
    uint32_t index = 0;
    char *bracket = strchr(port, '[');
    if (bracket) {
        index = (uint32_t)strtoul(bracket + 1, NULL, 10);
        *bracket = 0;
    }
    struct unit *u = sim_find_unit(sim, endpoint);
    struct port *p = u ? unit_port(u, port, index) : NULL;
    if (!p) {
        gt_error_set(err, "--record-port '%s': %s", spec, u ? "the unit has no such port"
                                                          : "no unit of that name");
        return NULL;
    }
    struct recorder *r = recorder_attach(p, eq + 1, err);
    if (!r)
        gt_error_prefix(err, "--record-port '%s'", spec);
    return r;
}

/* --dump: memory of the last executed context's address space. */
static int write_dump(struct sim *sim, const struct dump_request *d, struct gt_error *err)
{
    struct gpu_address_space *space = NULL;
    for (uint32_t i = 0; i < sim_unit_count(sim) && !space; i++)
        if (strcmp(unit_kind(sim_unit(sim, i)), "cs") == 0)
            space = cs_last_address_space(sim_unit(sim, i));
    if (!space)
        return gt_error_set(err, "--dump 0x%llx: no context was executed, so there is no "
                            "address space to dump", (unsigned long long)d->address);
    if (gpu_address_space_dump(space, d->address, d->bytes, d->file, err) < 0)
        return gt_error_prefix(err, "--dump 0x%llx:%llu:%s", (unsigned long long)d->address,
                               (unsigned long long)d->bytes, d->file);
    return 0;
}

/* The GPU's work in one line: every kind that names key figures
 * (fabric/unit.h) has each figure's stat summed over its units from the
 * finished stats dump. The kind whose figure gates the line (the EU: nothing
 * when no EU ran) leads it; the others follow in the machine's unit order.
 * Kinds sharing one table (an RTL twin of a C kind) add up together. */
#define SUMMARY_KINDS 32
#define SUMMARY_FIGURES 8

struct figure_group {
    const struct key_figure *figures;
    uint32_t units;
    uint64_t cycles;                    /* the latest cycle of the group's units */
    double total[SUMMARY_FIGURES], other[SUMMARY_FIGURES];
};

static double unit_stat(const struct stats_writer *w, const struct unit *u, const char *stat)
{
    char path[600];
    double v;
    snprintf(path, sizeof path, "%s.%s", unit_name(u), stat);
    return stats_lookup(w, path, &v) ? v : 0;
}

static bool group_gates(const struct figure_group *g)
{
    for (const struct key_figure *f = g->figures; f->label; f++)
        if (f->flags & KEY_FIGURE_GATES)
            return true;
    return false;
}

/* Prints one figure (with its ", " separator unless first); false when left out. */
static bool print_figure(const struct figure_group *g, unsigned i, bool first)
{
    const struct key_figure *f = &g->figures[i];
    double total = g->total[i], of = 0;
    const char *sep = first ? "" : ", ";
    const char *note_sep = f->note ? " " : "", *note = f->note ? f->note : "";
    switch (f->form) {
    case KEY_FIGURE_TOTAL:
        printf("%s%.0f %s%s%s", sep, total, f->label, note_sep, note);
        return true;
    case KEY_FIGURE_PER_CYCLE:
    case KEY_FIGURE_MEAN:
        of = f->form == KEY_FIGURE_MEAN ? (double)g->units
                                        : (double)g->units * (double)g->cycles;
        if (of == 0 && (f->flags & KEY_FIGURE_IF_ANY))
            return false;
        printf("%s%s %.1f%%%s%s", sep, f->label, of > 0 ? 100.0 * total / of : 0.0, note_sep,
               note);
        return true;
    case KEY_FIGURE_HIT_RATE:
    case KEY_FIGURE_SHARE:
        of = f->form == KEY_FIGURE_HIT_RATE ? total + g->other[i] : g->other[i];
        if (of == 0 && (f->flags & KEY_FIGURE_IF_ANY))
            return false;
        printf("%s%s %.1f%% (%.0f of %.0f)%s%s", sep, f->label,
               of > 0 ? 100.0 * total / of : 0.0, total, of, note_sep, note);
        return true;
    }
    return false;
}

static void print_gpu_work(const struct sim *sim, const struct stats_writer *w,
                           unit_kind_lookup_fn lookup)
{
    struct figure_group groups[SUMMARY_KINDS];
    unsigned count = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        const struct unit_ops *ops = lookup(unit_kind(u));
        const struct key_figure *figures = ops ? ops->key_figures : NULL;
        if (!figures || !figures->label)
            continue;
        unsigned k = 0;
        while (k < count && groups[k].figures != figures)
            k++;
        if (k == count) {
            if (count == SUMMARY_KINDS)
                continue;
            memset(&groups[count], 0, sizeof groups[count]);
            groups[count++].figures = figures;
        }
        struct figure_group *g = &groups[k];
        g->units++;
        g->cycles = unit_cycle(u) > g->cycles ? unit_cycle(u) : g->cycles;
        for (unsigned f = 0; f < SUMMARY_FIGURES && figures[f].label; f++) {
            g->total[f] += unit_stat(w, u, figures[f].stat);
            if (figures[f].other)
                g->other[f] += unit_stat(w, u, figures[f].other);
        }
    }
    bool any_gate = false;
    for (unsigned k = 0; k < count; k++)
        for (unsigned f = 0; f < SUMMARY_FIGURES && groups[k].figures[f].label; f++)
            if (groups[k].figures[f].flags & KEY_FIGURE_GATES) {
                if (groups[k].total[f] == 0)
                    return;
                any_gate = true;
            }
    if (!any_gate)
        return;
    printf("  gpu          ");
    bool first = true;
    for (int leading = 1; leading >= 0; leading--)
        for (unsigned k = 0; k < count; k++) {
            if (group_gates(&groups[k]) != (bool)leading)
                continue;
            for (unsigned f = 0; f < SUMMARY_FIGURES && groups[k].figures[f].label; f++)
                if (print_figure(&groups[k], f, first))
                    first = false;
        }
    printf("\n");
}

static void print_summary(const struct sim *sim, const struct gt_config *config,
                          const struct run_args *a, double seconds, enum sim_stop_reason reason,
                          const struct stats_writer *w, unit_kind_lookup_fn lookup)
{
    struct sim_totals t;
    sim_totals(sim, &t);
    printf("gtsim: %s\n", gt_config_path(config));
    printf("  result       %s\n", sim_stop_reason_name(reason));
    printf("  workload     %s\n", a->req.workload ? a->req.workload : "(the config's)");
    double us = (double)sim_now(sim) / 1e6;
    printf("  simulated    %.3f us:", us);
    for (uint32_t d = 0; d < sim_clock_count(sim); d++)
        printf("%s %" PRIu64 " %s cycles", d ? "," : "", sim_now(sim) / sim_clock_period(sim, d),
               sim_clock_name(sim, d));
    printf("\n");
    uint64_t cycles0 = sim_now(sim) / sim_clock_period(sim, 0);
    printf("  messages     %" PRIu64 " sent, %" PRIu64 " delivered, %" PRIu64
           " stalled channel-cycles\n", t.messages_sent, t.messages_delivered, t.stalls);
    printf("  units        %u, %" PRIu64 " ticks, on %u host thread%s", sim_unit_count(sim),
           t.ticks, sim_threads(sim), sim_threads(sim) == 1 ? "" : "s");
    if (sim_threads(sim) > 1) {
        /* how many edges the fabric chose to tick in parallel (it times both
         * ways as it runs: fabric/sim.c adaptive_choose); host time, not a stat */
        uint64_t parallel = sim_barriers(sim), serial = sim_serial_edges(sim);
        printf(" (%.0f%% of busy edges in parallel)",
               parallel + serial ? 100.0 * (double)parallel / (double)(parallel + serial) : 0.0);
    }
    printf("\n");
    printf("  host         %.3f s, %.2f M%s-cycles/s, %.2f M messages/s\n", seconds,
           seconds > 0 ? (double)cycles0 / seconds / 1e6 : 0.0, sim_clock_name(sim, 0),
           seconds > 0 ? (double)t.messages_delivered / seconds / 1e6 : 0.0);
    print_gpu_work(sim, w, lookup);
    printf("  output       %s/{stats.json,stats.csv,config.cfg%s}\n", a->out_dir,
           a->trace ? ",trace.json" : "");
    if (a->images_dir && !a->no_images)
        printf("  images       %d in %s (images.json lists them)\n", a->images_written,
               a->images_dir);
}

int cmd_run(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    struct run_args a;
    int parsed = parse_args(argc, argv, &a, "run", run_usage);
    if (parsed)
        return parsed > 0 ? EXIT_OK : EXIT_ERROR;
    if (!a.req.workload && !a.req.config_path && access(DEFAULT_WORKLOAD, R_OK) == 0)
        a.req.workload = DEFAULT_WORKLOAD;
    struct gt_error err;
    struct gt_config *config = machine_config(&a.req, &err);
    if (config && a.wave && machine_set_wave(config, a.wave, &err) < 0) {
        gt_config_free(config);
        config = NULL;
    }
    if (!config) {
        fprintf(stderr, "gtsim run: %s\n", err.message);
        return EXIT_ERROR;
    }
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim) {
        fprintf(stderr, "gtsim run: %s\n", err.message);
        gt_config_free(config);
        return EXIT_ERROR;
    }
    if (a.threads)
        sim_set_threads(sim, (uint32_t)a.threads);
    sim_set_thread_timing(sim, a.thread_report);
    int status = EXIT_OK;
    struct trace *trace = NULL;
    struct stats_writer *stats = NULL;
    struct dispatch_stats dispatches = { 0 };
    struct recorder *recorders[MAX_RECORDS] = { 0 };
    if (make_dirs(a.out_dir) < 0) {
        fprintf(stderr, "gtsim run: cannot make output directory '%s': %s\n", a.out_dir,
                strerror(errno));
        status = EXIT_ERROR;
        goto done;
    }
    if (write_file_with(a.out_dir, "config.cfg", write_config, config, &err) < 0)
        goto fail;
    if (a.trace) {
        char path[4200];
        snprintf(path, sizeof path, "%s/trace.json", a.out_dir);
        trace = trace_open(path, a.trace_max_events, &err);
        if (!trace)
            goto fail;
        sim_set_trace(sim, trace);
    }
    for (int i = 0; i < a.record_count; i++)
        if (!(recorders[i] = start_recording(sim, a.records[i], &err)))
            goto fail;
    struct progress progress = { .start = host_seconds() };
    if (isatty(STDERR_FILENO))
        sim_set_progress(sim, show_progress, &progress, 1u << 14);
    uint64_t until = a.max_cycles ? a.max_cycles * sim_clock_period(sim, 0) : 0;
    enum sim_stop_reason reason = sim_run(sim, until);
    double seconds = host_seconds() - progress.start;
    if (progress.printed)
        fprintf(stderr, "\r\033[K");
    if (a.thread_report)
        sim_thread_report(sim, stdout);     /* fabric/sim.h */
    dispatch_stats_collect(sim, &dispatches);
    if (trace) {
        dispatch_stats_trace(&dispatches, sim, trace);
        if (trace_close(trace, sim, &err) < 0)
            goto fail;
        trace = NULL;
    }
    stats = stats_writer_create();
    sim_write_stats(sim, stats);
    dispatch_stats_emit(&dispatches, stats);
    if (write_file_with(a.out_dir, "stats.json", write_json, stats, &err) < 0 ||
        write_file_with(a.out_dir, "stats.csv", write_csv, stats, &err) < 0 ||
        dispatch_stats_write_csv(&dispatches, sim, a.out_dir, &err) < 0)
        goto fail;
    for (int i = 0; i < a.record_count; i++) {
        int rc = recorder_close(recorders[i], &err);
        recorders[i] = NULL;
        if (rc < 0)
            goto fail;
    }
    for (int i = 0; i < a.dump_count; i++)
        if (write_dump(sim, &a.dumps[i], &err) < 0)
            goto fail;
    if (!a.images_dir && !a.no_images && images_surface_count(sim) > 0) {
        snprintf(a.default_images_dir, sizeof a.default_images_dir, "%s/images", a.out_dir);
        a.images_dir = a.default_images_dir;
    }
    if (a.images_dir && !a.no_images &&
        (a.images_written = images_write(sim, a.images_dir, &err)) < 0)
        goto fail;
    if (!a.quiet)
        print_summary(sim, config, &a, seconds, reason, stats, lookup);
    if (reason == SIM_STOP_DEADLOCK) {
        fprintf(stderr, "gtsim run: deadlock (the watchdog's report is above)\n");
        status = EXIT_DEADLOCK;
    } else if (sim_log_count(sim, SIM_LOG_ERROR)) {
        fprintf(stderr, "gtsim run: the run logged %llu error(s) (above)\n",
                (unsigned long long)sim_log_count(sim, SIM_LOG_ERROR));
        status = EXIT_ERROR;
    }
    goto done;
fail:
    fprintf(stderr, "gtsim run: %s\n", err.message);
    status = EXIT_ERROR;
done:
    for (int i = 0; i < a.record_count; i++)
        if (recorders[i])
            recorder_close(recorders[i], NULL);
    if (trace)
        trace_close(trace, sim, &err);
    stats_writer_destroy(stats);
    dispatch_stats_free(&dispatches);
    sim_destroy(sim);
    gt_config_free(config);
    return status;
}

int cmd_config(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    struct run_args a;
    int parsed = parse_args(argc, argv, &a, "config", config_usage);
    if (parsed)
        return parsed > 0 ? EXIT_OK : EXIT_ERROR;
    struct gt_error err;
    struct gt_config *config = machine_config(&a.req, &err);
    if (config && a.wave && machine_set_wave(config, a.wave, &err) < 0) {
        gt_config_free(config);
        config = NULL;
    }
    if (!config) {
        fprintf(stderr, "gtsim config: %s\n", err.message);
        return EXIT_ERROR;
    }
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim) {
        fprintf(stderr, "gtsim config: %s\n", err.message);
        gt_config_free(config);
        return EXIT_ERROR;
    }
    sim_destroy(sim);
    int rc = gt_config_write(config, stdout, &err);
    gt_config_free(config);
    return rc < 0 ? EXIT_ERROR : EXIT_OK;
}

static const char decode_usage[] =
    "usage: gtsim decode [-c CONFIG] [--set KEY=VALUE]... WORKLOAD\n"
    "\n"
    "Runs WORKLOAD (an AUB capture) and prints every command the command streamer\n"
    "executes, with its GPU address and every field, as Mesa's aubinator does; then\n"
    "a summary: commands by name, unknown commands, hangs. Without -c the capture\n"
    "runs on the config of the generation it was made on.\n";

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

struct named_count {
    const char *name;
    double count;
};

static int by_count(const void *a, const void *b)
{
    const struct named_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

int cmd_decode(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    struct run_args a;
    int parsed = parse_args(argc, argv, &a, "decode", decode_usage);
    if (parsed)
        return parsed > 0 ? EXIT_OK : EXIT_ERROR;
    if (!a.req.workload) {
        fprintf(stderr, "gtsim decode: name a workload (an AUB capture)\n");
        return EXIT_ERROR;
    }
    struct gt_error err;
    struct gt_config *config = machine_config(&a.req, &err);
    if (!config || machine_set_kind_param(config, "cs", "print_commands=\"-\"", &err) < 0) {
        fprintf(stderr, "gtsim decode: %s\n", err.message);
        gt_config_free(config);
        return EXIT_ERROR;
    }
    struct sim *sim = machine_build(config, lookup, &err);
    if (!sim) {
        fprintf(stderr, "gtsim decode: %s\n", err.message);
        gt_config_free(config);
        return EXIT_ERROR;
    }
    enum sim_stop_reason reason = sim_run(sim, 0);
    fflush(stdout);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    struct named_count *counts = calloc(stats_row_count(w), sizeof *counts);
    size_t n = 0;
    double total = 0, unknown = 0, hangs = 0;
    for (size_t i = 0; i < stats_row_count(w); i++) {
        const char *path;
        double v;
        stats_row(w, i, &path, &v);
        const char *by = strstr(path, ".by_command.");
        if (by) {
            counts[n++] = (struct named_count){ by + 12, v };
            total += v;
        } else if (ends_with(path, "cs.unknown_commands")) {
            unknown += v;
        } else if (ends_with(path, "cs.hangs")) {
            hangs += v;
        }
    }
    qsort(counts, n, sizeof *counts, by_count);
    printf("\nsummary: %.0f commands executed, %.0f unknown, %.0f hangs (%s)\n", total + unknown,
           unknown, hangs, sim_stop_reason_name(reason));
    for (size_t i = 0; i < n; i++)
        printf("  %6.0f  %s\n", counts[i].count, counts[i].name);
    free(counts);
    stats_writer_destroy(w);
    int status = reason == SIM_STOP_DEADLOCK ? EXIT_DEADLOCK
               : sim_log_count(sim, SIM_LOG_ERROR) ? EXIT_ERROR : EXIT_OK;
    sim_destroy(sim);
    gt_config_free(config);
    return status;
}
