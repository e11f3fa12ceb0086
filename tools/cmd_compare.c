/* tools/cmd_compare.c - `gtsim compare` (two runs: the stats and config values
 * that differ) and `gtsim plot` (a stat of a sweep against a swept key, as a
 * PNG drawn by gnuplot). */
#include <errno.h>
#include <libconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/alloc.h"
#include "fabric/config.h"
#include "tools/commands.h"
#include "tools/csv.h"

/* ---- compare -------------------------------------------------------------- */

static const char compare_usage[] =
    "usage: gtsim compare RUN_A RUN_B\n"
    "\n"
    "RUN_A and RUN_B are `gtsim run` output directories (or sweep run directories,\n"
    "DIR/points/<hash>). Prints every stat whose value differs between their\n"
    "stats.csv, with A, B, the change B - A and the relative change (B - A) / |A|,\n"
    "the largest relative change first (a stat that was 0 in A first of all), then\n"
    "the stats only one run has (the first 20 of each), then every config value\n"
    "(from config.cfg) that "
    "differs. Exit status: 0 (whether or not they differ), 1 error.\n";

struct named_text {
    char *name, *value;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct named_text *)a)->name, ((const struct named_text *)b)->name);
}

struct text_list {
    struct named_text *items;
    size_t count, capacity;
};

static void list_add(struct text_list *l, const char *name, const char *value)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 256;
        l->items = gt_xrealloc(l->items, l->capacity * sizeof *l->items);
    }
    l->items[l->count++] = (struct named_text){ gt_xstrdup(name), gt_xstrdup(value) };
}

static void list_free(struct text_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].name);
        free(l->items[i].value);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int read_stats(const char *run, struct text_list *l, struct gt_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/stats.csv", run);
    struct csv_table t;
    if (csv_read(path, &t, err) < 0)
        return -1;
    if (csv_column(&t, "path") != 0 || csv_column(&t, "value") != 1) {
        csv_free(&t);
        return gt_error_set(err, "%s: not a gtsim stats.csv (path,value,... header)", path);
    }
    for (int r = 1; r < t.row_count; r++)
        list_add(l, csv_field(&t, r, 0), csv_field(&t, r, 1));
    csv_free(&t);
    qsort(l->items, l->count, sizeof *l->items, by_name);
    return 0;
}

/* Every scalar of the config as "a.b.c" (lists and arrays: "a.b[2]"). */
static void flatten(const config_setting_t *s, const char *prefix, struct text_list *l)
{
    int type = config_setting_type(s);
    if (type == CONFIG_TYPE_GROUP || type == CONFIG_TYPE_LIST || type == CONFIG_TYPE_ARRAY) {
        for (int i = 0; i < config_setting_length(s); i++) {
            const config_setting_t *c = config_setting_get_elem(s, (unsigned)i);
            char path[2048];
            if (type == CONFIG_TYPE_GROUP)
                snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                         config_setting_name(c));
            else
                snprintf(path, sizeof path, "%s[%d]", prefix, i);
            flatten(c, path, l);
        }
        return;
    }
    char value[1024];
    switch (type) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(value, sizeof value, "%lld", config_setting_get_int64(s));
        break;
    case CONFIG_TYPE_FLOAT:
        snprintf(value, sizeof value, "%.17g", config_setting_get_float(s));
        break;
    case CONFIG_TYPE_BOOL:
        snprintf(value, sizeof value, "%s", config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        snprintf(value, sizeof value, "\"%s\"", config_setting_get_string(s));
        break;
    default:
        snprintf(value, sizeof value, "?");
    }
    list_add(l, prefix, value);
}

static int read_config(const char *run, struct text_list *l, struct gt_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/config.cfg", run);
    config_t cfg;
    config_init(&cfg);
    int rc = 0;
    if (gt_config_check_includes(path, NULL, err) < 0)
        rc = -1;
    else if (!config_read_file(&cfg, path))
        rc = gt_error_set(err, "%s:%d: %s", path, config_error_line(&cfg),
                          config_error_type(&cfg) == CONFIG_ERR_FILE_IO ? "cannot open"
                                                                         : config_error_text(&cfg));
    else
        flatten(config_root_setting(&cfg), "", l);
    config_destroy(&cfg);
    qsort(l->items, l->count, sizeof *l->items, by_name);
    return rc;
}

struct stat_change {
    const char *name, *a, *b;
    double change, relative;        /* relative: INFINITY when A is 0 */
};

static int by_relative(const void *x, const void *y)
{
    const struct stat_change *p = x, *q = y;
    double rp = fabs(p->relative), rq = fabs(q->relative);
    if (rp != rq)
        return rp < rq ? 1 : -1;
    if (fabs(p->change) != fabs(q->change))
        return fabs(p->change) < fabs(q->change) ? 1 : -1;
    return strcmp(p->name, q->name);
}

/* Walks two sorted lists together: `both` for names in both, `only` for the rest. */
static void merge_lists(const struct text_list *a, const struct text_list *b,
                        void (*both)(void *, const struct named_text *, const struct named_text *),
                        void (*only)(void *, const struct named_text *, char side), void *context)
{
    size_t i = 0, j = 0;
    while (i < a->count || j < b->count) {
        int c = i == a->count ? 1 : j == b->count ? -1 : strcmp(a->items[i].name, b->items[j].name);
        if (c == 0)
            both(context, &a->items[i++], &b->items[j++]);
        else if (c < 0)
            only(context, &a->items[i++], 'A');
        else
            only(context, &b->items[j++], 'B');
    }
}

struct stat_diff {
    struct stat_change *changes;
    size_t count;
    struct text_list only_a, only_b;
    size_t compared;
};

static void stat_both(void *context, const struct named_text *a, const struct named_text *b)
{
    struct stat_diff *d = context;
    d->compared++;
    if (strcmp(a->value, b->value) == 0)
        return;
    double x, y;
    bool numbers = csv_number(a->value, &x) && csv_number(b->value, &y);
    if (numbers && x == y)
        return;
    struct stat_change *c = &d->changes[d->count++];
    *c = (struct stat_change){ a->name, a->value, b->value, 0, INFINITY };
    if (numbers) {
        c->change = y - x;
        c->relative = x != 0 ? (y - x) / fabs(x) : INFINITY;
    }
}

static void stat_only(void *context, const struct named_text *t, char side)
{
    struct stat_diff *d = context;
    list_add(side == 'A' ? &d->only_a : &d->only_b, t->name, t->value);
}

struct config_diff {
    size_t count;
};

static void config_both(void *context, const struct named_text *a, const struct named_text *b)
{
    struct config_diff *d = context;
    if (strcmp(a->value, b->value) == 0)
        return;
    printf("  %-48s %s -> %s\n", a->name, a->value, b->value);
    d->count++;
}

static void config_only(void *context, const struct named_text *t, char side)
{
    struct config_diff *d = context;
    printf("  %-48s %s\n", t->name, side == 'A' ? "only in A" : "only in B");
    printf("  %-48s   = %s\n", "", t->value);
    d->count++;
}

/* The first ONLY_SHOWN stats one run alone has (a machine with more units has
 * hundreds). */
#define ONLY_SHOWN 20

static void print_only(const char *side, const struct text_list *l)
{
    for (size_t i = 0; i < l->count && i < ONLY_SHOWN; i++)
        printf("  only in %s  %14s  %s\n", side, l->items[i].value, l->items[i].name);
    if (l->count > ONLY_SHOWN)
        printf("  only in %s  ... and %zu more\n", side, l->count - ONLY_SHOWN);
}

int cmd_compare(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    (void)lookup;
    const char *run[2] = { NULL, NULL };
    int runs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(compare_usage, stdout);
            return EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gtsim compare: unknown option '%s' (try gtsim compare --help)\n",
                    argv[i]);
            return EXIT_ERROR;
        }
        if (runs == 2) {
            fprintf(stderr, "gtsim compare: two runs at a time\n");
            return EXIT_ERROR;
        }
        run[runs++] = argv[i];
    }
    if (runs != 2) {
        fprintf(stderr, "gtsim compare: name two run directories (try gtsim compare --help)\n");
        return EXIT_ERROR;
    }
    struct text_list stats[2] = { { 0 } }, configs[2] = { { 0 } };
    struct gt_error err;
    int status = EXIT_ERROR;
    for (int k = 0; k < 2; k++)
        if (read_stats(run[k], &stats[k], &err) < 0 || read_config(run[k], &configs[k], &err) < 0) {
            fprintf(stderr, "gtsim compare: %s\n", err.message);
            goto done;
        }
    struct stat_diff d = { gt_xcalloc(stats[0].count + 1, sizeof *d.changes), 0, { 0 }, { 0 }, 0 };
    merge_lists(&stats[0], &stats[1], stat_both, stat_only, &d);
    qsort(d.changes, d.count, sizeof *d.changes, by_relative);
    printf("gtsim compare: A = %s, B = %s\n", run[0], run[1]);
    printf("stats that differ: %zu of %zu\n", d.count, d.compared);
    if (d.count)
        printf("  %10s %14s %14s %14s  %s\n", "relative", "change", "A", "B", "stat");
    for (size_t i = 0; i < d.count; i++) {
        const struct stat_change *c = &d.changes[i];
        char relative[32], change[32];
        if (isinf(c->relative))
            snprintf(relative, sizeof relative, "%s", c->change != 0 || !c->a[0] ? "new" : "text");
        else
            snprintf(relative, sizeof relative, "%+.2f%%", 100.0 * c->relative);
        snprintf(change, sizeof change, "%+.6g", c->change);
        printf("  %10s %14s %14s %14s  %s\n", relative, change, c->a, c->b, c->name);
    }
    if (d.only_a.count || d.only_b.count) {
        printf("stats in one run only: %zu in A, %zu in B\n", d.only_a.count, d.only_b.count);
        print_only("A", &d.only_a);
        print_only("B", &d.only_b);
    }
    printf("config values that differ:\n");
    struct config_diff cd = { 0 };
    merge_lists(&configs[0], &configs[1], config_both, config_only, &cd);
    if (!cd.count)
        printf("  (none)\n");
    free(d.changes);
    list_free(&d.only_a);
    list_free(&d.only_b);
    status = EXIT_OK;
done:
    for (int k = 0; k < 2; k++) {
        list_free(&stats[k]);
        list_free(&configs[k]);
    }
    return status;
}

/* ---- plot ----------------------------------------------------------------- */

static const char plot_usage[] =
    "usage: gtsim plot DIR --stat S [--x KEY] [-o FILE.png]\n"
    "\n"
    "Plots column S of the sweep's DIR/results.csv (cycles, host_seconds or a stat\n"
    "the sweep file chose) against the swept key KEY (default: the first), a line\n"
    "per workload (and per value of the other swept keys), into FILE.png (default\n"
    "DIR/<S>-vs-<KEY>.png), with gnuplot (Debian package gnuplot-nox). Only rows\n"
    "with status ok are drawn. The gnuplot script is left beside the PNG (.gp).\n";

/* `text` inside a gnuplot single-quoted string ('' is a quote). */
static void gnuplot_string(FILE *f, const char *text)
{
    fputc('\'', f);
    for (; *text; text++) {
        if (*text == '\'')
            fputc('\'', f);
        fputc(*text, f);
    }
    fputc('\'', f);
}

struct plot_point {
    double x, y;
    int group;
};

static int by_group_then_x(const void *a, const void *b)
{
    const struct plot_point *p = a, *q = b;
    if (p->group != q->group)
        return p->group - q->group;
    return (p->x > q->x) - (p->x < q->x);
}

static void safe_name(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    for (; *src && n + 1 < size; src++)
        dst[n++] = (char)((*src == '/' || *src == ' ' || *src == '\'' || *src == '"') ? '_' : *src);
    dst[n] = 0;
}

int cmd_plot(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    (void)lookup;
    const char *dir = NULL, *stat_wanted = NULL, *x_key = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(plot_usage, stdout);
            return EXIT_OK;
        }
        const char **target = !strcmp(a, "--stat") ? &stat_wanted : !strcmp(a, "--x") ? &x_key
                              : (!strcmp(a, "-o") || !strcmp(a, "--out")) ? &out : NULL;
        if (target) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gtsim plot: %s needs a value\n", a);
                return EXIT_ERROR;
            }
            *target = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gtsim plot: unknown option '%s' (try gtsim plot --help)\n", a);
            return EXIT_ERROR;
        } else if (dir) {
            fprintf(stderr, "gtsim plot: one sweep directory at a time\n");
            return EXIT_ERROR;
        } else {
            dir = a;
        }
    }
    if (!dir || !stat_wanted) {
        fprintf(stderr, "gtsim plot: name a sweep directory and --stat S (try gtsim plot "
                "--help)\n");
        return EXIT_ERROR;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    struct csv_table t;
    struct gt_error err;
    if (csv_read(path, &t, &err) < 0) {
        fprintf(stderr, "gtsim plot: %s (is %s a sweep directory?)\n", err.message, dir);
        return EXIT_ERROR;
    }
    int status = EXIT_ERROR;
    struct plot_point *points = NULL;
    char **labels = NULL;
    int label_count = 0;
    int workload_column = csv_column(&t, "workload"), status_column = csv_column(&t, "status");
    int stat_column = csv_column(&t, stat_wanted);
    int x_column = x_key ? csv_column(&t, x_key) : 0;
    if (workload_column <= 0 || status_column < 0) {
        fprintf(stderr, "gtsim plot: %s: not a gtsim sweep's results.csv\n", path);
        goto done;
    }
    if (stat_column < 0 || stat_column <= workload_column) {
        fprintf(stderr, "gtsim plot: %s has no stat column '%s' (cycles, host_seconds and the "
                "sweep file's stats are)\n", path, stat_wanted);
        goto done;
    }
    if (x_column < 0 || x_column >= workload_column) {
        fprintf(stderr, "gtsim plot: '%s' is not a swept key of %s (", x_key, path);
        for (int c = 0; c < workload_column; c++)
            fprintf(stderr, "%s%s", c ? ", " : "", csv_field(&t, 0, c));
        fprintf(stderr, ")\n");
        goto done;
    }
    if (!cli_on_path("gnuplot")) {
        fprintf(stderr, "gtsim plot: gnuplot is not installed (Debian: apt-get install "
                "gnuplot-nox, or make deps)\n");
        goto done;
    }
    points = gt_xcalloc((size_t)t.row_count, sizeof *points);
    labels = gt_xcalloc((size_t)t.row_count, sizeof *labels);
    int count = 0;
    for (int r = 1; r < t.row_count; r++) {
        double x, y;
        if (strcmp(csv_field(&t, r, status_column), "ok") != 0 ||
            !csv_number(csv_field(&t, r, stat_column), &y))
            continue;
        if (!csv_number(csv_field(&t, r, x_column), &x)) {
            fprintf(stderr, "gtsim plot: key '%s' has the value '%s', not a number\n",
                    csv_field(&t, 0, x_column), csv_field(&t, r, x_column));
            goto done;
        }
        /* a line per workload and values of the other swept keys */
        char label[2048];
        size_t n = (size_t)snprintf(label, sizeof label, "%s", csv_field(&t, r, workload_column));
        for (int c = 0; c < workload_column && n < sizeof label; c++)
            if (c != x_column)
                n += (size_t)snprintf(label + n, sizeof label - n, ", %s=%s", csv_field(&t, 0, c),
                                      csv_field(&t, r, c));
        int g = 0;
        while (g < label_count && strcmp(labels[g], label) != 0)
            g++;
        if (g == label_count)
            labels[label_count++] = gt_xstrdup(label);
        points[count++] = (struct plot_point){ x, y, g };
    }
    if (count == 0) {
        fprintf(stderr, "gtsim plot: %s has no row with status ok and a value of '%s'\n", path,
                stat_wanted);
        goto done;
    }
    qsort(points, (size_t)count, sizeof *points, by_group_then_x);
    char png[4200], script[4300], stat_name[1024], key_name[1024];
    safe_name(stat_name, sizeof stat_name, stat_wanted);
    safe_name(key_name, sizeof key_name, csv_field(&t, 0, x_column));
    if (out)
        snprintf(png, sizeof png, "%s", out);
    else
        snprintf(png, sizeof png, "%s/%s-vs-%s.png", dir, stat_name, key_name);
    snprintf(script, sizeof script, "%s.gp", png);
    FILE *f = fopen(script, "w");
    if (!f) {
        fprintf(stderr, "gtsim plot: cannot write %s: %s\n", script, strerror(errno));
        goto done;
    }
    fprintf(f, "set terminal pngcairo size 960,600 noenhanced\nset output ");
    gnuplot_string(f, png);
    fprintf(f, "\nset title ");
    char title[3000];
    snprintf(title, sizeof title, "%s against %s (%s)", stat_wanted, csv_field(&t, 0, x_column), dir);
    gnuplot_string(f, title);
    fprintf(f, "\nset xlabel ");
    gnuplot_string(f, csv_field(&t, 0, x_column));
    fprintf(f, "\nset ylabel ");
    gnuplot_string(f, stat_wanted);
    fprintf(f, "\nset grid\nset key below\nplot");
    for (int g = 0; g < label_count; g++) {
        fprintf(f, "%s '-' using 1:2 with linespoints title ", g ? "," : "");
        gnuplot_string(f, labels[g]);
    }
    fputc('\n', f);
    for (int g = 0, i = 0; g < label_count; g++) {
        for (; i < count && points[i].group == g; i++)
            fprintf(f, "%.17g %.17g\n", points[i].x, points[i].y);
        fprintf(f, "e\n");
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "gtsim plot: cannot write %s\n", script);
        goto done;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "gtsim plot: gnuplot failed on %s (its message is above)\n", script);
        goto done;
    }
    struct stat st_png;
    if (stat(png, &st_png) < 0 || st_png.st_size == 0) {
        fprintf(stderr, "gtsim plot: gnuplot wrote no %s\n", png);
        goto done;
    }
    printf("gtsim plot: %s (%d points, %d line%s; script %s)\n", png, count, label_count,
           label_count == 1 ? "" : "s", script);
    status = EXIT_OK;
done:
    for (int g = 0; g < label_count; g++)
        free(labels[g]);
    free(labels);
    free(points);
    csv_free(&t);
    return status;
}
