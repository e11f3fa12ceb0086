/* tools/cmd_sweep.c - `gtsim sweep`: runs a machine config over a grid of
 * parameter values and workloads (design points) and tabulates the results.
 *
 * The sweep file is libconfig:
 *
 *     base = "configs/gen9-skl-gt2.cfg";          # the machine every point starts from
 *     workloads = [ "tests/data/traces/skl_compute.aub.gz" ];   # optional: the config's
 *     params = ( { key = "gpu.slice.subslice.count"; values = [ 1, 2, 3 ]; } );
 *     mode = "product";                           # or "zip" (the i-th values together)
 *     stats = [ "gpu.slice0.l3.hits" ];           # optional: columns besides the defaults
 *     set = [ "simulation.watchdog_cycles=20000" ];   # optional: on every point
 *
 * Every point's config is built (not run) before any point runs, so a bad key,
 * an out-of-range value or a missing workload stops the sweep with the sweep
 * file's line. Points run as `gtsim run` child processes of this same binary
 * (/proc/self/exe), -j at a time, each into DIR/points/<hash>/, where <hash>
 * hashes the binary (size and modification time), the resolved config and the
 * workload (its path, size and modification time): a point whose directory
 * holds a point.status from a finished run is not run again (resume). A point
 * that fails or deadlocks keeps its exit status and last error line in the
 * table; the others go on. DIR/results.csv and DIR/results.json have one row
 * per point and workload.
 *
 * --slurm hands the points not done yet to SLURM as one job array (task I runs
 * `gtsim sweep FILE -o DIR --task I`, the I-th distinct point) and writes the
 * table when it ends; --collect writes the table of what is done. No scheduler
 * of our own across machines.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fabric/alloc.h"
#include "fabric/config.h"
#include "fabric/stats.h"
#include "tools/commands.h"
#include "tools/csv.h"
#include "tools/machine.h"

#define SWEEP_MAX_POINTS 100000
#define SWEEP_TEXT 512
#define SWEEP_MAX_SETS 512

typedef char set_text[SWEEP_TEXT * 2 + 2];      /* one "key=value" */

struct sweep_value {
    char set[SWEEP_TEXT];           /* as --set takes it: 2, 1.5, true, "text" */
    char shown[SWEEP_TEXT];         /* as the table shows it: 2, 1.5, true, text */
    unsigned line;
};

struct sweep_param {
    char key[SWEEP_TEXT];
    unsigned line;
    struct sweep_value *values;
    int count;
};

struct sweep_item {                 /* a workload, a stat or a fixed --set */
    char text[SWEEP_TEXT];
    unsigned line;
};

struct sweep {
    const char *file;
    char base[4096];
    unsigned base_line, params_line;
    struct sweep_param *params;
    int param_count;
    struct sweep_item *workloads, *stats, *sets;
    int workload_count, stat_count, set_count;
    bool zip;
};

/* One run: a point (a value of each param) on one workload. */
struct sweep_run {
    int *choice;                    /* value index per param */
    int workload;                   /* index, or -1: the config's */
    char hash[17];
    char dir[4200];
    int same_as;                    /* an earlier run with the same hash, or -1 */
    bool done_before;               /* finished in an earlier sweep */
    bool skip;                      /* not this process's to run (--task, --collect) */
    bool ran;
    int exit_status;                /* the child's exit status; -1 killed */
    int signal;
    double host_seconds;
};

struct sweep_args {
    const char *file;
    const char *out_dir;
    int jobs;
    bool slurm, collect;
    const char *slurm_opts;         /* added to sbatch's command line as the shell splits it */
    long task;                      /* --task N: run only distinct run N (a job array task) */
};

static const char sweep_usage[] =
    "usage: gtsim sweep SWEEP.cfg [-o DIR] [-j N]\n"
    "\n"
    "Runs every design point of the sweep file (a libconfig file: base config,\n"
    "workloads, params with key and values, mode product or zip, optional stats\n"
    "and fixed sets; README.md has an example) on N local processes (default:\n"
    "the cores), each into DIR/points/<hash>/ (a `gtsim run` output directory),\n"
    "and writes DIR/results.csv and DIR/results.json: one row per point and\n"
    "workload with a column per swept key, cycles (the first clock's cycles, as\n"
    "the run summary's `simulated` line), host_seconds, the chosen stats, status\n"
    "(ok, deadlock, error, killed), exit_status, message and run_dir.\n"
    "Every point's config is checked before any runs; points already done (same\n"
    "gtsim binary, resolved config and workload) are not run again.\n"
    "\n"
    "  -o, --out DIR   the sweep's directory (default out/sweep)\n"
    "  -j, --jobs N    processes at a time (default: the cores)\n"
    "      --slurm     run the points as a SLURM job array instead (sbatch --wait;\n"
    "                  DIR must be on a file system the nodes share), then\n"
    "                  write the table; each task runs `gtsim sweep --task I`\n"
    "      --slurm-opts \"...\"  more sbatch options (e.g. \"-p big --time=10\")\n"
    "      --collect   run nothing: write the table of the points done so far\n"
    "      --task I    run only the I-th distinct point (what a job array task does)\n"
    "\n"
    "Exit status: 0 every point ran to the end, 1 a bad sweep file or argument, or\n"
    "some point failed (its row says how).\n";

/* ---- reading the sweep file ----------------------------------------------- */

static int scalar_text(const config_setting_t *s, char *set, char *shown, size_t size)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(set, size, "%lld", config_setting_get_int64(s));
        break;
    case CONFIG_TYPE_FLOAT: {
        snprintf(set, size, "%.17g", config_setting_get_float(s));
        if (!strpbrk(set, ".eEn"))          /* keep it a float for --set */
            strncat(set, ".0", size - strlen(set) - 1);
        break;
    }
    case CONFIG_TYPE_BOOL:
        snprintf(set, size, "%s", config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        snprintf(set, size, "\"%s\"", config_setting_get_string(s));
        snprintf(shown, size, "%s", config_setting_get_string(s));
        return 0;
    default:
        return -1;
    }
    snprintf(shown, size, "%s", set);
    return 0;
}

static unsigned line_of(const config_setting_t *s, unsigned fallback)
{
    unsigned line = config_setting_source_line(s);
    return line ? line : fallback;
}

/* A list or array of strings into items; an empty one is an error. */
static int read_strings(const struct sweep *sw, const config_setting_t *s, const char *name,
                        struct sweep_item **items, int *count, struct gt_error *err)
{
    unsigned line = line_of(s, 0);
    int type = config_setting_type(s);
    if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
        return gt_error_set(err, "%s:%u: %s must be a list of strings, e.g. [ \"a\", \"b\" ]",
                            sw->file, line, name);
    int n = config_setting_length(s);
    if (n == 0)
        return gt_error_set(err, "%s:%u: %s is empty", sw->file, line, name);
    *items = gt_xcalloc((size_t)n, sizeof **items);
    *count = n;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        (*items)[i].line = line_of(e, line);
        if (config_setting_type(e) != CONFIG_TYPE_STRING)
            return gt_error_set(err, "%s:%u: %s[%d] must be a string", sw->file,
                                (*items)[i].line, name, i);
        snprintf((*items)[i].text, SWEEP_TEXT, "%s", config_setting_get_string(e));
    }
    return 0;
}

static int read_param(struct sweep *sw, const config_setting_t *g, int index,
                      struct gt_error *err)
{
    struct sweep_param *p = &sw->params[index];
    p->line = line_of(g, sw->params_line);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return gt_error_set(err, "%s:%u: params[%d] must be a group { key = \"...\"; values = "
                            "[ ... ]; }", sw->file, p->line, index);
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(m);
        if (strcmp(name, "key") && strcmp(name, "values"))
            return gt_error_set(err, "%s:%u: params[%d] has no setting '%s' (key, values)",
                                sw->file, line_of(m, p->line), index, name);
    }
    const config_setting_t *key = config_setting_get_member(g, "key");
    const config_setting_t *values = config_setting_get_member(g, "values");
    if (!key || config_setting_type(key) != CONFIG_TYPE_STRING || !*config_setting_get_string(key))
        return gt_error_set(err, "%s:%u: params[%d] needs key = \"a.b.c\" (a config path)",
                            sw->file, p->line, index);
    snprintf(p->key, sizeof p->key, "%s", config_setting_get_string(key));
    p->line = line_of(key, p->line);
    if (strchr(p->key, '=') || strchr(p->key, ' '))
        return gt_error_set(err, "%s:%u: key '%s' must be a config path like gpu.slice.count",
                            sw->file, p->line, p->key);
    if (!values || (config_setting_type(values) != CONFIG_TYPE_ARRAY &&
                    config_setting_type(values) != CONFIG_TYPE_LIST))
        return gt_error_set(err, "%s:%u: key '%s' needs values = [ ... ]", sw->file, p->line,
                            p->key);
    p->count = config_setting_length(values);
    if (p->count == 0)
        return gt_error_set(err, "%s:%u: key '%s': values is empty", sw->file,
                            line_of(values, p->line), p->key);
    p->values = gt_xcalloc((size_t)p->count, sizeof *p->values);
    for (int i = 0; i < p->count; i++) {
        const config_setting_t *v = config_setting_get_elem(values, (unsigned)i);
        p->values[i].line = line_of(v, line_of(values, p->line));
        if (scalar_text(v, p->values[i].set, p->values[i].shown, SWEEP_TEXT) < 0)
            return gt_error_set(err, "%s:%u: key '%s': values[%d] must be a number, a boolean "
                                "or a string", sw->file, p->values[i].line, p->key, i);
    }
    for (int k = 0; k < index; k++)
        if (strcmp(sw->params[k].key, p->key) == 0)
            return gt_error_set(err, "%s:%u: key '%s' is swept twice (also line %u)", sw->file,
                                p->line, p->key, sw->params[k].line);
    return 0;
}

/* A relative base config is taken from the working directory, else from the
 * sweep file's directory. */
static void resolve_base(struct sweep *sw, const char *base)
{
    snprintf(sw->base, sizeof sw->base, "%s", base);
    if (base[0] == '/' || access(base, R_OK) == 0)
        return;
    const char *slash = strrchr(sw->file, '/');
    if (!slash)
        return;
    char beside[4096];
    snprintf(beside, sizeof beside, "%.*s/%s", (int)(slash - sw->file), sw->file, base);
    if (access(beside, R_OK) == 0)
        snprintf(sw->base, sizeof sw->base, "%s", beside);
}

static int sweep_read(struct sweep *sw, const char *file, struct gt_error *err)
{
    memset(sw, 0, sizeof *sw);
    sw->file = file;
    config_t cfg;
    config_init(&cfg);
    int rc = -1;
    if (gt_config_check_includes(file, NULL, err) < 0)
        goto out;
    if (!config_read_file(&cfg, file)) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
            gt_error_set(err, "%s: cannot open the sweep file: %s", file, strerror(errno));
        else
            gt_error_set(err, "%s:%d: %s", config_error_file(&cfg) ? config_error_file(&cfg)
                                                                    : file,
                         config_error_line(&cfg), config_error_text(&cfg));
        goto out;
    }
    config_setting_t *root = config_root_setting(&cfg);
    static const char *const known[] = { "base", "workloads", "params", "mode", "stats", "set" };
    for (int i = 0; i < config_setting_length(root); i++) {
        const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= strcmp(config_setting_name(s), known[k]) == 0;
        if (!ok) {
            gt_error_set(err, "%s:%u: unknown setting '%s' (base, workloads, params, mode, "
                         "stats, set)", file, line_of(s, 0), config_setting_name(s));
            goto out;
        }
    }
    const config_setting_t *s = config_setting_get_member(root, "base");
    if (s && config_setting_type(s) != CONFIG_TYPE_STRING) {
        gt_error_set(err, "%s:%u: base must be a config file name", file, line_of(s, 0));
        goto out;
    }
    sw->base_line = s ? line_of(s, 0) : 0;
    char def[4096];
    resolve_base(sw, s ? config_setting_get_string(s) : machine_default_config(def, sizeof def));
    if ((s = config_setting_get_member(root, "workloads")) &&
        read_strings(sw, s, "workloads", &sw->workloads, &sw->workload_count, err) < 0)
        goto out;
    if ((s = config_setting_get_member(root, "stats")) &&
        read_strings(sw, s, "stats", &sw->stats, &sw->stat_count, err) < 0)
        goto out;
    if ((s = config_setting_get_member(root, "set")) &&
        read_strings(sw, s, "set", &sw->sets, &sw->set_count, err) < 0)
        goto out;
    if ((s = config_setting_get_member(root, "mode"))) {
        const char *mode = config_setting_type(s) == CONFIG_TYPE_STRING
                               ? config_setting_get_string(s) : "";
        if (strcmp(mode, "product") && strcmp(mode, "zip")) {
            gt_error_set(err, "%s:%u: mode must be \"product\" or \"zip\"", file, line_of(s, 0));
            goto out;
        }
        sw->zip = strcmp(mode, "zip") == 0;
    }
    s = config_setting_get_member(root, "params");
    if (!s) {
        gt_error_set(err, "%s: no params = ( { key = \"...\"; values = [ ... ]; } ); to sweep",
                     file);
        goto out;
    }
    sw->params_line = line_of(s, 0);
    if (config_setting_type(s) != CONFIG_TYPE_LIST || config_setting_length(s) == 0) {
        gt_error_set(err, "%s:%u: params must be a non-empty list ( { key = ...; values = "
                     "[ ... ]; }, ... )", file, sw->params_line);
        goto out;
    }
    sw->param_count = config_setting_length(s);
    sw->params = gt_xcalloc((size_t)sw->param_count, sizeof *sw->params);
    for (int i = 0; i < sw->param_count; i++)
        if (read_param(sw, config_setting_get_elem(s, (unsigned)i), i, err) < 0)
            goto out;
    if (sw->zip)
        for (int i = 1; i < sw->param_count; i++)
            if (sw->params[i].count != sw->params[0].count) {
                gt_error_set(err, "%s:%u: mode \"zip\" pairs the i-th values of every key: key "
                             "'%s' has %d values, key '%s' %d", file, sw->params[i].line,
                             sw->params[i].key, sw->params[i].count, sw->params[0].key,
                             sw->params[0].count);
                goto out;
            }
    rc = 0;
out:
    config_destroy(&cfg);
    return rc;
}

static void sweep_free(struct sweep *sw)
{
    for (int i = 0; i < sw->param_count; i++)
        free(sw->params[i].values);
    free(sw->params);
    free(sw->workloads);
    free(sw->stats);
    free(sw->sets);
}

/* ---- design points -------------------------------------------------------- */

static long point_count(const struct sweep *sw)
{
    if (sw->zip)
        return sw->params[0].count;
    long n = 1;
    for (int i = 0; i < sw->param_count && n <= SWEEP_MAX_POINTS; i++)
        n *= sw->params[i].count;
    return n;
}

/* Point p's value index of each param: the last key varies fastest. */
static void point_choice(const struct sweep *sw, long p, int *choice)
{
    for (int i = sw->param_count - 1; i >= 0; i--) {
        if (sw->zip) {
            choice[i] = (int)p;
            continue;
        }
        choice[i] = (int)(p % sw->params[i].count);
        p /= sw->params[i].count;
    }
}

/* The --set assignments of a run (fixed sets first); `only` >= 0 takes just
 * that param (its value `value`), for checking one value alone. */
static int run_sets(const struct sweep *sw, const int *choice, int only, int value,
                    set_text *buf, const char **sets)
{
    int n = 0;
    for (int i = 0; i < sw->set_count; i++)
        sets[n++] = sw->sets[i].text;
    for (int i = 0; i < sw->param_count; i++) {
        if (only >= 0 && i != only)
            continue;
        const struct sweep_param *p = &sw->params[i];
        snprintf(buf[i], sizeof buf[i], "%s=%s", p->key, p->values[only >= 0 ? value
                                                                              : choice[i]].set);
        sets[n++] = buf[i];
    }
    return n;
}

/* Builds (does not run) the machine of the config; on success the resolved
 * config's text (to free) and, if stats_found, marks which stats it has. */
static char *check_config(const struct sweep *sw, const char **sets, int set_count,
                          const char *workload, unit_kind_lookup_fn lookup, bool *stats_found,
                          struct gt_error *err)
{
    struct machine_request req = { sw->base, sets, set_count, workload };
    struct gt_config *config = machine_config(&req, err);
    if (!config)
        return NULL;
    struct sim *sim = machine_build(config, lookup, err);
    if (!sim) {
        gt_config_free(config);
        return NULL;
    }
    if (stats_found) {
        struct stats_writer *w = stats_writer_create();
        sim_write_stats(sim, w);
        for (int i = 0; i < sw->stat_count; i++) {
            double v;
            stats_found[i] |= stats_lookup(w, sw->stats[i].text, &v);
        }
        stats_writer_destroy(w);
    }
    sim_destroy(sim);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f || gt_config_write(config, f, err) < 0) {
        if (f)
            fclose(f);
        free(text);
        gt_config_free(config);
        if (!f)
            gt_error_set(err, "out of memory");
        return NULL;
    }
    fclose(f);
    gt_config_free(config);
    return text;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* A file's identity for the point hash: its size and modification time. */
static void file_identity(const char *path, char *buf, size_t size)
{
    struct stat st;
    if (stat(path, &st) < 0)
        snprintf(buf, size, "%s:-", path);
    else
        snprintf(buf, size, "%s:%lld:%lld.%09ld", path, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

static const char *workload_of(const struct sweep *sw, const struct sweep_run *r)
{
    return r->workload >= 0 ? sw->workloads[r->workload].text : NULL;
}

static void describe_point(const struct sweep *sw, const struct sweep_run *r, char *buf,
                           size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < sw->param_count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", i ? ", " : "", sw->params[i].key,
                              sw->params[i].values[r->choice[i]].shown);
    if (r->workload >= 0 && n < size)
        snprintf(buf + n, size - n, " on %s", workload_of(sw, r));
}

static int check_points(const struct sweep *sw, struct sweep_run *runs, int run_count,
                        const char *exe, unit_kind_lookup_fn lookup, set_text *buf,
                        const char **sets, struct gt_error *err);

/* A key's groups must be in the base config (a new leaf is checked by the
 * unit's params; a new group would be an empty block, silently). */
static int check_key_groups(const struct sweep *sw, struct gt_error *err)
{
    struct machine_request req = { sw->base, NULL, 0, NULL };
    struct gt_config *config = machine_config(&req, err);
    if (!config)
        return gt_error_prefix(err, "%s:%u: base config", sw->file, sw->base_line);
    int rc = 0;
    for (int k = 0; k < sw->param_count && rc == 0; k++) {
        char path[SWEEP_TEXT];
        snprintf(path, sizeof path, "%s", sw->params[k].key);
        char *dot = strrchr(path, '.');
        if (!dot)
            continue;
        *dot = 0;
        const config_setting_t *g = config_setting_lookup(gt_config_root(config), path);
        if (!g || config_setting_type(g) != CONFIG_TYPE_GROUP)
            rc = gt_error_set(err, "%s:%u: key '%s': the base config %s has no group '%s'",
                              sw->file, sw->params[k].line, sw->params[k].key, sw->base, path);
    }
    gt_config_free(config);
    return rc;
}

/* Every check before any point runs: the base, each fixed set, each value
 * alone, each workload, then every point (which also gives its hash). */
static int sweep_check(const struct sweep *sw, struct sweep_run *runs, int run_count,
                       const char *exe, unit_kind_lookup_fn lookup, struct gt_error *err)
{
    if (sw->set_count + sw->param_count > SWEEP_MAX_SETS)
        return gt_error_set(err, "%s: at most %d sets and keys", sw->file, SWEEP_MAX_SETS);
    const char *sets[SWEEP_MAX_SETS];
    set_text *buf = gt_xcalloc(SWEEP_MAX_SETS, sizeof *buf);
    int rc = check_points(sw, runs, run_count, exe, lookup, buf, sets, err);
    free(buf);
    return rc;
}

static int check_points(const struct sweep *sw, struct sweep_run *runs, int run_count,
                        const char *exe, unit_kind_lookup_fn lookup, set_text *buf,
                        const char **sets, struct gt_error *err)
{
    char *text;
    struct gt_error e;
    if (access(sw->base, R_OK) != 0)
        return gt_error_set(err, "%s:%u: base config '%s': %s", sw->file, sw->base_line,
                            sw->base, strerror(errno));
    for (int i = 0; i < sw->set_count; i++) {
        if (!strchr(sw->sets[i].text, '='))
            return gt_error_set(err, "%s:%u: set '%s' must be KEY=VALUE", sw->file,
                                sw->sets[i].line, sw->sets[i].text);
        const char *one[1] = { sw->sets[i].text };
        if (!(text = check_config(sw, one, 1, NULL, lookup, NULL, &e)))
            return gt_error_set(err, "%s:%u: set '%s': %s", sw->file, sw->sets[i].line,
                                sw->sets[i].text, e.message);
        free(text);
    }
    if (check_key_groups(sw, err) < 0)
        return -1;
    /* a value that fails is named by its line; when every value fails, the
     * key is the trouble and its line is named */
    for (int k = 0; k < sw->param_count; k++) {
        const struct sweep_param *p = &sw->params[k];
        int first_bad = -1, bad = 0;
        struct gt_error first;
        for (int v = 0; v < p->count; v++) {
            int n = run_sets(sw, NULL, k, v, buf, sets);
            if ((text = check_config(sw, sets, n, NULL, lookup, NULL, &e))) {
                free(text);
                continue;
            }
            if (bad++ == 0) {
                first_bad = v;
                first = e;
            }
        }
        if (bad)
            return gt_error_set(err, "%s:%u: key '%s' = %s: %s", sw->file,
                                bad == p->count ? p->line : p->values[first_bad].line, p->key,
                                p->values[first_bad].shown, first.message);
    }
    for (int w = 0; w < sw->workload_count; w++) {
        const char *name = sw->workloads[w].text;
        if (strncmp(name, "builtin:", 8) != 0 && access(name, R_OK) != 0)
            return gt_error_set(err, "%s:%u: workload '%s': %s", sw->file,
                                sw->workloads[w].line, name, strerror(errno));
        for (int i = 0; i < sw->set_count; i++)
            sets[i] = sw->sets[i].text;
        if (!(text = check_config(sw, sets, sw->set_count, name, lookup, NULL, &e)))
            return gt_error_set(err, "%s:%u: workload '%s': %s", sw->file,
                                sw->workloads[w].line, name, e.message);
        free(text);
    }
    bool *found = gt_xcalloc((size_t)sw->stat_count + 1, sizeof *found);
    char build[4200];
    file_identity(exe, build, sizeof build);
    int rc = 0;
    for (int r = 0; r < run_count && rc == 0; r++) {
        struct sweep_run *run = &runs[r];
        int n = run_sets(sw, run->choice, -1, 0, buf, sets);
        const char *workload = workload_of(sw, run);
        if (!(text = check_config(sw, sets, n, workload, lookup, found, &e))) {
            char point[2048];
            describe_point(sw, run, point, sizeof point);
            rc = gt_error_set(err, "%s:%u: the point %s: %s", sw->file, sw->params_line, point,
                              e.message);
            break;
        }
        char identity[4200] = "";
        if (workload)
            file_identity(workload, identity, sizeof identity);
        uint64_t h = 0xcbf29ce484222325ull;
        h = fnv1a(h, build, strlen(build) + 1);
        h = fnv1a(h, text, strlen(text) + 1);
        h = fnv1a(h, identity, strlen(identity) + 1);
        free(text);
        snprintf(run->hash, sizeof run->hash, "%016llx", (unsigned long long)h);
        run->same_as = -1;
        for (int k = 0; k < r; k++)
            if (strcmp(runs[k].hash, run->hash) == 0) {
                run->same_as = k;
                break;
            }
    }
    for (int i = 0; i < sw->stat_count && rc == 0; i++)
        if (!found[i])
            rc = gt_error_set(err, "%s:%u: stat '%s': no point's machine has it (gtsim units "
                              "lists each kind's stats; paths as in stats.csv)", sw->file,
                              sw->stats[i].line, sw->stats[i].text);
    free(found);
    return rc;
}

/* ---- running -------------------------------------------------------------- */

static int make_dirs(const char *path)
{
    char buf[4200];
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

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* point.status: written when the child has ended, so its presence with no
 * signal means the point is done. */
static int write_status(const struct sweep_run *r, struct gt_error *err)
{
    char path[4300], tmp[4300];
    snprintf(path, sizeof path, "%s/point.status", r->dir);
    snprintf(tmp, sizeof tmp, "%s/point.status.tmp", r->dir);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gt_error_set(err, "cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "exit_status = %d\nsignal = %d\nhost_seconds = %.6f\n", r->exit_status, r->signal,
            r->host_seconds);
    if (fclose(f) != 0 || rename(tmp, path) < 0)
        return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* True when the run directory holds the status of a run that ended by itself. */
static bool read_status(struct sweep_run *r)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/point.status", r->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    int got = fscanf(f, "exit_status = %d signal = %d host_seconds = %lf", &r->exit_status,
                     &r->signal, &r->host_seconds);
    fclose(f);
    return got == 3 && r->signal == 0;
}

/* The child: `gtsim run -q -c BASE --set ... -o DIR [WORKLOAD]`, its output
 * into DIR/stdout and DIR/stderr; also written to DIR/command for rerunning. */
static int build_argv(const struct sweep *sw, const struct sweep_run *r, const char *exe,
                      set_text *buf, const char **argv)
{
    const char *sets[SWEEP_MAX_SETS];
    int n = run_sets(sw, r->choice, -1, 0, buf, sets);
    int a = 0;
    argv[a++] = exe;
    argv[a++] = "run";
    argv[a++] = "-q";
    argv[a++] = "-c";
    argv[a++] = sw->base;
    argv[a++] = "-o";
    argv[a++] = r->dir;
    for (int i = 0; i < n; i++) {
        argv[a++] = "--set";
        argv[a++] = sets[i];
    }
    if (r->workload >= 0)
        argv[a++] = workload_of(sw, r);
    argv[a] = NULL;
    return a;
}

static void write_command(const char *dir, const char **argv)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/command", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int i = 0; argv[i]; i++) {
        fputs(i ? " '" : "'", f);
        for (const char *c = argv[i]; *c; c++)
            if (*c == '\'')
                fputs("'\\''", f);
            else
                fputc(*c, f);
        fputc('\'', f);
    }
    fputc('\n', f);
    fclose(f);
}

static pid_t start_run(const struct sweep *sw, const struct sweep_run *r, const char *exe,
                       struct gt_error *err)
{
    set_text *buf = gt_xcalloc(SWEEP_MAX_SETS, sizeof *buf);
    const char *argv[2 * SWEEP_MAX_SETS + 16];
    build_argv(sw, r, exe, buf, argv);
    write_command(r->dir, argv);
    char out[4300], errs[4300];
    snprintf(out, sizeof out, "%s/stdout", r->dir);
    snprintf(errs, sizeof errs, "%s/stderr", r->dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        gt_error_set(err, "cannot start a run: fork: %s", strerror(errno));
        free(buf);
        return -1;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int e = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        execv(exe, (char *const *)argv);
        dprintf(2, "gtsim sweep: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    free(buf);
    return pid;
}

struct sweep_progress {
    int total, done, failed, done_before;
    bool shown;
};

static void show_progress(struct sweep_progress *p, int running)
{
    if (!isatty(STDERR_FILENO))
        return;
    fprintf(stderr, "\rgtsim sweep: %d/%d runs done (%d failed, %d done before), %d running   ",
            p->done, p->total, p->failed, p->done_before, running);
    fflush(stderr);
    p->shown = true;
}

static int sweep_execute(const struct sweep *sw, struct sweep_run *runs, int run_count,
                         const char *out_dir, const char *exe, int jobs, struct sweep_progress *pr,
                         struct gt_error *err)
{
    pid_t *pids = gt_xcalloc((size_t)jobs, sizeof *pids);
    int *which = gt_xcalloc((size_t)jobs, sizeof *which);
    double *started = gt_xcalloc((size_t)jobs, sizeof *started);
    int running = 0, next = 0, rc = 0;
    pr->total = run_count;
    for (int r = 0; r < run_count; r++) {
        snprintf(runs[r].dir, sizeof runs[r].dir, "%s/points/%s", out_dir, runs[r].hash);
        if (runs[r].same_as < 0 && read_status(&runs[r])) {
            runs[r].done_before = true;
            pr->done_before++;
        }
    }
    show_progress(pr, 0);
    while (next < run_count || running > 0) {
        while (rc == 0 && running < jobs && next < run_count) {
            struct sweep_run *r = &runs[next++];
            if (r->same_as >= 0 || r->done_before || r->skip) {
                pr->done += r->done_before;
                continue;
            }
            if (make_dirs(r->dir) < 0) {
                rc = gt_error_set(err, "cannot make %s: %s", r->dir, strerror(errno));
                break;
            }
            char stale[4300];
            snprintf(stale, sizeof stale, "%s/point.status", r->dir);
            unlink(stale);
            int slot = 0;
            while (pids[slot])
                slot++;
            started[slot] = now_seconds();
            if ((pids[slot] = start_run(sw, r, exe, err)) < 0) {
                pids[slot] = 0;
                rc = -1;
                break;
            }
            which[slot] = (int)(r - runs);
            running++;
        }
        show_progress(pr, running);
        if (running == 0)
            break;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            rc = gt_error_set(err, "waitpid: %s", strerror(errno));
            break;
        }
        int slot = 0;
        while (slot < jobs && pids[slot] != pid)
            slot++;
        if (slot == jobs)
            continue;
        struct sweep_run *r = &runs[which[slot]];
        pids[slot] = 0;
        running--;
        r->ran = true;
        r->host_seconds = now_seconds() - started[slot];
        r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        pr->done++;
        pr->failed += r->exit_status != 0;
        struct gt_error e;
        if (write_status(r, &e) < 0 && rc == 0)
            rc = gt_error_set(err, "%s", e.message);
    }
    /* a failure to start leaves the runs already started to finish */
    while (running > 0) {
        int st;
        if (waitpid(-1, &st, 0) < 0 && errno != EINTR)
            break;
        running--;
    }
    if (pr->shown)
        fprintf(stderr, "\r\033[K");
    free(pids);
    free(which);
    free(started);
    return rc;
}

/* ---- the table ------------------------------------------------------------ */

struct sweep_row {
    const char *status;
    char message[512];
    char cycles[64];
    char **stats;                   /* text as in stats.csv, "" when absent */
};

/* The last non-empty line of the run's stderr: the one-line error of gtsim run. */
static void last_error_line(const char *dir, char *buf, size_t size)
{
    char path[4300], line[1024];
    snprintf(path, sizeof path, "%s/stderr", dir);
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0])
            snprintf(buf, size, "%s", line);
    }
    fclose(f);
}

static void fill_row(const struct sweep *sw, const struct sweep_run *r, struct sweep_row *row)
{
    row->stats = gt_xcalloc((size_t)sw->stat_count + 1, sizeof *row->stats);
    for (int i = 0; i < sw->stat_count; i++)
        row->stats[i] = gt_xstrdup("");
    if (!r->done_before && !r->ran) {
        row->status = "not run";
        snprintf(row->message, sizeof row->message, "no point.status in %s", r->dir);
        return;
    }
    row->status = r->signal ? "killed" : r->exit_status == 0 ? "ok"
                  : r->exit_status == EXIT_DEADLOCK ? "deadlock" : "error";
    if (r->exit_status != 0)
        last_error_line(r->dir, row->message, sizeof row->message);
    char path[4300];
    snprintf(path, sizeof path, "%s/stats.csv", r->dir);
    struct csv_table t;
    struct gt_error e;
    if (csv_read(path, &t, &e) < 0) {
        if (r->exit_status == 0) {
            row->status = "error";
            snprintf(row->message, sizeof row->message, "%s", e.message);
        }
        return;
    }
    for (int k = 1; k < t.row_count; k++) {
        const char *stat = csv_field(&t, k, 0), *value = csv_field(&t, k, 1);
        size_t n = strlen(stat);
        /* the first clock's cycles, as the summary's `simulated` line */
        if (!row->cycles[0] && strncmp(stat, "sim.clock.", 10) == 0 && n > 7 &&
            strcmp(stat + n - 7, ".cycles") == 0)
            snprintf(row->cycles, sizeof row->cycles, "%s", value);
        for (int i = 0; i < sw->stat_count; i++)
            if (strcmp(stat, sw->stats[i].text) == 0) {
                free(row->stats[i]);
                row->stats[i] = gt_xstrdup(value);
            }
    }
    csv_free(&t);
}

static void json_value(FILE *f, const char *text)
{
    double v;
    if (!text[0])
        fputs("null", f);
    else if (csv_number(text, &v) && strcmp(text, "nan") && strcmp(text, "inf"))
        fputs(text, f);
    else
        json_write_string(f, text);
}

static FILE *open_temp(const char *dir, const char *name, char *tmp, size_t size,
                       struct gt_error *err)
{
    snprintf(tmp, size, "%s/%s.tmp", dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f)
        gt_error_set(err, "cannot write %s: %s", tmp, strerror(errno));
    return f;
}

static int close_temp(FILE *f, const char *tmp, const char *dir, const char *name,
                      struct gt_error *err)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (fclose(f) != 0 || rename(tmp, path) < 0)
        return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

static int write_results(const struct sweep *sw, const struct sweep_run *runs, int run_count,
                         const char *out_dir, int *failed, struct gt_error *err)
{
    char tmp_csv[4300], tmp_json[4300];
    FILE *csv = open_temp(out_dir, "results.csv", tmp_csv, sizeof tmp_csv, err);
    if (!csv)
        return -1;
    FILE *json = open_temp(out_dir, "results.json", tmp_json, sizeof tmp_json, err);
    if (!json) {
        fclose(csv);
        return -1;
    }
    for (int i = 0; i < sw->param_count; i++) {
        csv_write_field(csv, sw->params[i].key);
        fputc(',', csv);
    }
    fputs("workload,cycles,host_seconds", csv);
    for (int i = 0; i < sw->stat_count; i++) {
        fputc(',', csv);
        csv_write_field(csv, sw->stats[i].text);
    }
    fputs(",status,exit_status,message,run_dir\n", csv);
    fputs("{\n  \"sweep\": ", json);
    json_write_string(json, sw->file);
    fputs(",\n  \"base\": ", json);
    json_write_string(json, sw->base);
    fputs(",\n  \"keys\": [", json);
    for (int i = 0; i < sw->param_count; i++) {
        fputs(i ? ", " : "", json);
        json_write_string(json, sw->params[i].key);
    }
    fputs("],\n  \"rows\": [\n", json);
    *failed = 0;
    for (int k = 0; k < run_count; k++) {
        const struct sweep_run *r = &runs[k];
        const struct sweep_run *done = r->same_as >= 0 ? &runs[r->same_as] : r;
        struct sweep_row row = { 0 };
        fill_row(sw, done, &row);
        *failed += strcmp(row.status, "ok") != 0;
        const char *workload = r->workload >= 0 ? workload_of(sw, r) : "(the config's)";
        char seconds[64];
        snprintf(seconds, sizeof seconds, "%.3f", done->host_seconds);
        char exit_status[32] = "null";
        if (done->ran || done->done_before)
            snprintf(exit_status, sizeof exit_status, "%d", done->exit_status);
        fputs(k ? ",\n    {" : "    {", json);
        for (int i = 0; i < sw->param_count; i++) {
            const char *v = sw->params[i].values[r->choice[i]].shown;
            csv_write_field(csv, v);
            fputc(',', csv);
            json_write_string(json, sw->params[i].key);
            fputs(": ", json);
            json_value(json, v);
            fputs(", ", json);
        }
        csv_write_field(csv, workload);
        fprintf(csv, ",%s,%s", row.cycles, seconds);
        fputs("\"workload\": ", json);
        json_write_string(json, workload);
        fputs(", \"cycles\": ", json);
        json_value(json, row.cycles);
        fprintf(json, ", \"host_seconds\": %s", seconds);
        for (int i = 0; i < sw->stat_count; i++) {
            fputc(',', csv);
            csv_write_field(csv, row.stats[i]);
            fputs(", ", json);
            json_write_string(json, sw->stats[i].text);
            fputs(": ", json);
            json_value(json, row.stats[i]);
            free(row.stats[i]);
        }
        free(row.stats);
        fprintf(csv, ",%s,%s,", row.status, strcmp(exit_status, "null") ? exit_status : "");
        csv_write_field(csv, row.message);
        fputc(',', csv);
        csv_write_field(csv, done->dir);
        fputc('\n', csv);
        fprintf(json, ", \"status\": \"%s\", \"exit_status\": %s, \"message\": ", row.status,
                exit_status);
        json_write_string(json, row.message);
        fputs(", \"run_dir\": ", json);
        json_write_string(json, done->dir);
        fputs("}", json);
    }
    fputs("\n  ]\n}\n", json);
    int rc = close_temp(csv, tmp_csv, out_dir, "results.csv", err);
    if (close_temp(json, tmp_json, out_dir, "results.json", err) < 0)
        rc = -1;
    return rc;
}

/* ---- SLURM ------------------------------------------------------------------ */

/* `text` as one shell word. */
static void shell_word(FILE *f, const char *text)
{
    fputc('\'', f);
    for (; *text; text++)
        if (*text == '\'')
            fputs("'\\''", f);
        else
            fputc(*text, f);
    fputc('\'', f);
}

/* Submits the distinct points not done yet as one job array whose task I runs
 * `gtsim sweep FILE -o DIR --task I` (from this working directory, so DIR and
 * the sweep's paths must be where the nodes see them: a shared file system),
 * waits for it (sbatch --wait) and reads the points' status. */
static int run_on_slurm(const struct sweep_args *a, struct sweep_run *runs, int run_count,
                        const char *exe, struct sweep_progress *pr, struct gt_error *err)
{
    char *list = NULL;
    size_t list_size = 0;
    FILE *l = open_memstream(&list, &list_size);
    if (!l)
        return gt_error_set(err, "out of memory");
    int todo = 0;
    for (int r = 0, distinct = 0; r < run_count; r++)
        if (runs[r].same_as < 0) {
            if (!runs[r].done_before)
                fprintf(l, "%s%d", todo++ ? "," : "", distinct);
            distinct++;
        }
    fclose(l);
    int rc = 0;
    char script[4300], cwd[4096];
    FILE *f = NULL;
    if (!todo)
        goto out;
    if (!cli_on_path("sbatch")) {
        rc = gt_error_set(err, "--slurm: sbatch is not on PATH (SLURM's client commands, Debian "
                          "slurm-client); without --slurm the sweep runs here");
        goto out;
    }
    if (!getcwd(cwd, sizeof cwd)) {
        rc = gt_error_set(err, "--slurm: getcwd: %s", strerror(errno));
        goto out;
    }
    snprintf(script, sizeof script, "%s/slurm-task.sh", a->out_dir);
    if (!(f = fopen(script, "w"))) {
        rc = gt_error_set(err, "cannot write %s: %s", script, strerror(errno));
        goto out;
    }
    fputs("#!/bin/sh\n# a task of a gtsim sweep's SLURM job array: one distinct point\nexec ", f);
    shell_word(f, exe);
    fputs(" sweep ", f);
    shell_word(f, a->file);
    fputs(" -o ", f);
    shell_word(f, a->out_dir);
    fputs(" --task \"$SLURM_ARRAY_TASK_ID\"\n", f);
    if (fclose(f) != 0 || chmod(script, 0755) < 0) {
        rc = gt_error_set(err, "cannot write %s: %s", script, strerror(errno));
        goto out;
    }
    char *command = NULL;
    size_t command_size = 0;
    FILE *c = open_memstream(&command, &command_size);
    fprintf(c, "sbatch --wait --job-name=gtsim-sweep --array=%s --chdir=", list);
    shell_word(c, cwd);
    fputs(" -o ", c);
    char log[4300];
    snprintf(log, sizeof log, "%s/points/slurm-%%A_%%a.out", a->out_dir);
    shell_word(c, log);
    if (a->slurm_opts)
        fprintf(c, " %s", a->slurm_opts);
    fputc(' ', c);
    shell_word(c, script);
    fclose(c);
    char points[4300];
    snprintf(points, sizeof points, "%s/points", a->out_dir);
    make_dirs(points);
    printf("gtsim sweep: submitting %d points as a SLURM job array: %s\n", todo, command);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    bool waited = pid > 0 && waitpid(pid, &st, 0) == pid;
    free(command);
    int ran = 0;
    for (int r = 0; r < run_count; r++)
        if (runs[r].same_as < 0 && !runs[r].done_before && read_status(&runs[r])) {
            runs[r].ran = true;
            pr->done++;
            pr->failed += runs[r].exit_status != 0;
            ran++;
        }
    if (!waited || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (!ran)
            rc = gt_error_set(err, "--slurm: sbatch failed (exit status %d; its message is "
                              "above) and no point ran: is SLURM reachable (sinfo)?",
                              waited && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        else
            fprintf(stderr, "gtsim sweep: sbatch ended with exit status %d; %d of %d points "
                    "ran (the table says which did not)\n",
                    waited && WIFEXITED(st) ? WEXITSTATUS(st) : -1, ran, todo);
    }
out:
    free(list);
    return rc;
}

/* ---- the command ---------------------------------------------------------- */

static int parse_sweep_args(int argc, char **argv, struct sweep_args *a)
{
    memset(a, 0, sizeof *a);
    a->out_dir = "out/sweep";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cores > 0 ? (int)cores : 1;
    a->task = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(sweep_usage, stdout);
            return 1;
        }
        bool out = !strcmp(arg, "-o") || !strcmp(arg, "--out");
        bool jobs = !strcmp(arg, "-j") || !strcmp(arg, "--jobs");
        bool opts = !strcmp(arg, "--slurm-opts"), task = !strcmp(arg, "--task");
        const char *v = NULL;
        if (!strcmp(arg, "--slurm")) {
            a->slurm = true;
            continue;
        }
        if (!strcmp(arg, "--collect")) {
            a->collect = true;
            continue;
        }
        if (opts || task) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gtsim sweep: %s needs a value\n", arg);
                return -1;
            }
            v = argv[++i];
            uint64_t n;
            if (opts) {
                a->slurm_opts = v;
            } else if (!cli_parse_u64(v, &n) || n > SWEEP_MAX_POINTS) {
                fprintf(stderr, "gtsim sweep: --task wants a point number, not '%s'\n", v);
                return -1;
            } else {
                a->task = (long)n;
            }
            continue;
        }
        if (out || jobs) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gtsim sweep: %s needs a value\n", arg);
                return -1;
            }
            v = argv[++i];
        } else if (!strncmp(arg, "--out=", 6)) {
            out = true;
            v = arg + 6;
        } else if (!strncmp(arg, "--jobs=", 7)) {
            jobs = true;
            v = arg + 7;
        } else if (!strncmp(arg, "-j", 2) && arg[2]) {
            jobs = true;
            v = arg + 2;
        }
        if (out) {
            a->out_dir = v;
        } else if (jobs) {
            uint64_t n;
            if (!cli_parse_u64(v, &n) || n == 0 || n > 1024) {
                fprintf(stderr, "gtsim sweep: -j wants a number of processes from 1 to 1024, "
                        "not '%s'\n", v);
                return -1;
            }
            a->jobs = (int)n;
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(stderr, "gtsim sweep: unknown option '%s' (try gtsim sweep --help)\n", arg);
            return -1;
        } else if (a->file) {
            fprintf(stderr, "gtsim sweep: one sweep file at a time ('%s' and '%s')\n", a->file,
                    arg);
            return -1;
        } else {
            a->file = arg;
        }
    }
    if (!a->file) {
        fprintf(stderr, "gtsim sweep: name a sweep file (try gtsim sweep --help)\n");
        return -1;
    }
    if (a->slurm + a->collect + (a->task >= 0) > 1) {
        fprintf(stderr, "gtsim sweep: --slurm, --collect and --task go one at a time\n");
        return -1;
    }
    if (a->slurm_opts && !a->slurm) {
        fprintf(stderr, "gtsim sweep: --slurm-opts goes with --slurm\n");
        return -1;
    }
    return 0;
}

int sweep_file_check(const char *file, unit_kind_lookup_fn lookup, int max_runs,
                     struct gt_error *err)
{
    struct sweep sw;
    if (sweep_read(&sw, file, err) < 0) {
        sweep_free(&sw);
        return -1;
    }
    long points = point_count(&sw);
    int workloads = sw.workload_count ? sw.workload_count : 1;
    int limit = max_runs < SWEEP_MAX_POINTS ? max_runs : SWEEP_MAX_POINTS;
    if (points * workloads > limit) {
        gt_error_set(err, "%s:%u: %ld points x %d workloads is more than %d runs", sw.file,
                     sw.params_line, points, workloads, limit);
        sweep_free(&sw);
        return -1;
    }
    int run_count = (int)points * workloads;
    struct sweep_run *runs = gt_xcalloc((size_t)run_count, sizeof *runs);
    for (long p = 0; p < points; p++)
        for (int w = 0; w < workloads; w++) {
            struct sweep_run *r = &runs[p * workloads + w];
            r->choice = gt_xcalloc((size_t)sw.param_count, sizeof *r->choice);
            point_choice(&sw, p, r->choice);
            r->workload = sw.workload_count ? w : -1;
        }
    int rc = sweep_check(&sw, runs, run_count, "/proc/self/exe", lookup, err);
    for (int r = 0; r < run_count; r++)
        free(runs[r].choice);
    free(runs);
    sweep_free(&sw);
    return rc < 0 ? -1 : run_count;
}

int cmd_sweep(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    struct sweep_args a;
    int parsed = parse_sweep_args(argc, argv, &a);
    if (parsed)
        return parsed > 0 ? EXIT_OK : EXIT_ERROR;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "gtsim sweep: cannot find the gtsim binary (/proc/self/exe): %s\n",
                strerror(errno));
        return EXIT_ERROR;
    }
    exe[n] = 0;
    struct sweep sw;
    struct gt_error err;
    if (sweep_read(&sw, a.file, &err) < 0) {
        fprintf(stderr, "gtsim sweep: %s\n", err.message);
        sweep_free(&sw);
        return EXIT_ERROR;
    }
    long points = point_count(&sw);
    int workloads = sw.workload_count ? sw.workload_count : 1;
    if (points * workloads > SWEEP_MAX_POINTS) {
        fprintf(stderr, "gtsim sweep: %s:%u: %ld points x %d workloads is more than %d runs\n",
                sw.file, sw.params_line, points, workloads, SWEEP_MAX_POINTS);
        sweep_free(&sw);
        return EXIT_ERROR;
    }
    int run_count = (int)points * workloads;
    struct sweep_run *runs = gt_xcalloc((size_t)run_count, sizeof *runs);
    for (long p = 0; p < points; p++)
        for (int w = 0; w < workloads; w++) {
            struct sweep_run *r = &runs[p * workloads + w];
            r->choice = gt_xcalloc((size_t)sw.param_count, sizeof *r->choice);
            point_choice(&sw, p, r->choice);
            r->workload = sw.workload_count ? w : -1;
        }
    int status = EXIT_ERROR;
    struct sweep_progress progress = { 0 };
    int failed = 0;
    if (sweep_check(&sw, runs, run_count, exe, lookup, &err) < 0)
        goto fail;
    if (make_dirs(a.out_dir) < 0) {
        gt_error_set(&err, "cannot make the sweep directory '%s': %s", a.out_dir,
                     strerror(errno));
        goto fail;
    }
    int distinct = 0;
    for (int r = 0; r < run_count; r++)
        if (runs[r].same_as < 0) {
            runs[r].skip = (a.task >= 0 && distinct != a.task) || a.collect || a.slurm;
            distinct++;
        }
    if (a.task >= distinct) {
        gt_error_set(&err, "--task %ld: the sweep has %d distinct points (0..%d)", a.task,
                     distinct, distinct - 1);
        goto fail;
    }
    int rc = sweep_execute(&sw, runs, run_count, a.out_dir, exe, a.jobs, &progress, &err);
    if (rc == 0 && a.task >= 0) {
        /* a job array task: its point's status is written; the table is the
         * collecting process's */
        status = EXIT_OK;
        goto done;
    }
    if (rc == 0 && a.slurm)
        rc = run_on_slurm(&a, runs, run_count, exe, &progress, &err);
    /* the table of every run that finished, even when starting another failed */
    struct gt_error table_err;
    if (write_results(&sw, runs, run_count, a.out_dir, &failed, &table_err) < 0 && rc == 0) {
        err = table_err;
        rc = -1;
    }
    if (rc < 0)
        goto fail;
    int unique = 0;
    for (int r = 0; r < run_count; r++)
        unique += runs[r].same_as < 0;
    printf("gtsim sweep: %s: %ld points x %d workload%s = %d runs (%d distinct): %d run now, "
           "%d done before, %d failed or not run\n  results    %s/results.csv, %s/results.json\n",
           sw.file, points, workloads, workloads == 1 ? "" : "s", run_count, unique,
           progress.done - progress.done_before, progress.done_before, failed, a.out_dir,
           a.out_dir);
    if (failed)
        fprintf(stderr, "gtsim sweep: %d of %d runs failed or did not run (status, exit_status and "
                "message in "
                "%s/results.csv)\n", failed, run_count, a.out_dir);
    status = failed ? EXIT_ERROR : EXIT_OK;
    goto done;
fail:
    fprintf(stderr, "gtsim sweep: %s\n", err.message);
done:
    for (int r = 0; r < run_count; r++)
        free(runs[r].choice);
    free(runs);
    sweep_free(&sw);
    return status;
}
