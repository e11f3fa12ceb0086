/* fabric/stats.c - see stats.h. */
#include "fabric/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"
#include "fabric/unit.h"

struct stats_row {
    char *path;
    bool is_integer;
    uint64_t integer;
    double real;
    const char *measure;
    const char *help;
};

struct stats_writer {
    char prefix[512];
    struct stats_row *rows;
    size_t count, capacity;
};

struct stats_writer *stats_writer_create(void)
{
    return gt_xcalloc(1, sizeof(struct stats_writer));
}

void stats_writer_destroy(struct stats_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->count; i++)
        free(w->rows[i].path);
    free(w->rows);
    free(w);
}

void stats_set_prefix(struct stats_writer *w, const char *prefix)
{
    snprintf(w->prefix, sizeof w->prefix, "%s", prefix);
}

static struct stats_row *add_row(struct stats_writer *w, const char *name, const char *measure,
                                 const char *help)
{
    if (w->count == w->capacity) {
        w->capacity = w->capacity ? 2 * w->capacity : 256;
        w->rows = gt_xrealloc(w->rows, w->capacity * sizeof *w->rows);
    }
    struct stats_row *r = &w->rows[w->count++];
    /* prefix "." name (name alone without a prefix), built without snprintf:
     * a run's stats have thousands of rows */
    size_t prefix_len = strlen(w->prefix), name_len = strlen(name);
    size_t dot = prefix_len ? 1 : 0;
    r->path = gt_xmalloc(prefix_len + dot + name_len + 1);
    memcpy(r->path, w->prefix, prefix_len);
    r->path[prefix_len] = '.';
    memcpy(r->path + prefix_len + dot, name, name_len + 1);
    r->measure = measure ? measure : "";
    r->help = help ? help : "";
    return r;
}

void stats_emit_u64(struct stats_writer *w, const char *name, uint64_t value,
                    const char *measure, const char *help)
{
    struct stats_row *r = add_row(w, name, measure, help);
    r->is_integer = true;
    r->integer = value;
}

void stats_emit(struct stats_writer *w, const char *name, double value, const char *measure,
                const char *help)
{
    struct stats_row *r = add_row(w, name, measure, help);
    r->is_integer = false;
    r->real = value;
}

size_t stats_row_count(const struct stats_writer *w) { return w->count; }

static double row_value(const struct stats_row *r)
{
    return r->is_integer ? (double)r->integer : r->real;
}

bool stats_row(const struct stats_writer *w, size_t i, const char **path, double *value)
{
    if (i >= w->count)
        return false;
    *path = w->rows[i].path;
    *value = row_value(&w->rows[i]);
    return true;
}

bool stats_lookup(const struct stats_writer *w, const char *path, double *value)
{
    for (size_t i = 0; i < w->count; i++)
        if (strcmp(w->rows[i].path, path) == 0) {
            *value = row_value(&w->rows[i]);
            return true;
        }
    return false;
}

/* An integer in decimal, as "%" PRIu64 prints it (a stats file has thousands of
 * them: fprintf's format parsing was most of the writing's cost). */
static void write_u64(FILE *f, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(digits + sizeof digits - n, 1, n, f);
}

/* A newline and `count` spaces (the JSON's indentation). */
static void write_indent(FILE *f, int count)
{
    static const char spaces[] = "                                                                ";
    fputc('\n', f);
    while (count > 0) {
        int n = count < (int)sizeof spaces - 1 ? count : (int)sizeof spaces - 1;
        fwrite(spaces, 1, (size_t)n, f);
        count -= n;
    }
}

static void write_number(FILE *f, const struct stats_row *r)
{
    if (r->is_integer)
        write_u64(f, r->integer);
    else if (isfinite(r->real))
        fprintf(f, "%.17g", r->real);
    else
        fputs("null", f);       /* JSON has no NaN or infinity */
}

static void write_json_string(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    size_t plain = 0;           /* characters before i still to write */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c != '"' && c != '\\' && c >= 0x20) {
            plain++;
            continue;
        }
        fwrite(s + i - plain, 1, plain, f);
        plain = 0;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else
            fprintf(f, "\\u%04x", c);
    }
    fwrite(s + n - plain, 1, plain, f);
    fputc('"', f);
}

/* The tree of path components, children in first-seen order. */
struct stats_node {
    const char *name;
    size_t name_len;
    const struct stats_row *row;
    struct stats_node *first_child, *last_child, *next;
};

static struct stats_node *child(struct stats_node *parent, const char *name, size_t len)
{
    for (struct stats_node *c = parent->first_child; c; c = c->next)
        if (c->name_len == len && memcmp(c->name, name, len) == 0)
            return c;
    struct stats_node *c = gt_xcalloc(1, sizeof *c);
    c->name = name;
    c->name_len = len;
    if (parent->last_child)
        parent->last_child->next = c;
    else
        parent->first_child = c;
    parent->last_child = c;
    return c;
}

static void free_tree(struct stats_node *n)
{
    struct stats_node *c = n->first_child;
    while (c) {
        struct stats_node *next = c->next;
        free_tree(c);
        free(c);
        c = next;
    }
}

static void write_tree(FILE *f, const struct stats_node *n, int depth)
{
    fputs("{", f);
    bool first = true;
    if (n->row && n->first_child) {
        write_indent(f, 2 * (depth + 1));
        fputs("\"value\": ", f);
        write_number(f, n->row);
        first = false;
    }
    for (const struct stats_node *c = n->first_child; c; c = c->next) {
        if (!first)
            fputc(',', f);
        write_indent(f, 2 * (depth + 1));
        first = false;
        write_json_string(f, c->name, c->name_len);
        fputs(": ", f);
        if (c->first_child)
            write_tree(f, c, depth + 1);
        else
            write_number(f, c->row);
    }
    write_indent(f, 2 * depth);
    fputc('}', f);
}

int stats_write_json(const struct stats_writer *w, FILE *f, struct gt_error *err)
{
    struct stats_node root = { 0 };
    /* Index nodes by path prefix: consecutive rows usually share their unit,
     * so remember the last leaf's parent to keep building cheap. */
    for (size_t i = 0; i < w->count; i++) {
        struct stats_node *n = &root;
        const char *p = w->rows[i].path;
        for (;;) {
            const char *dot = strchr(p, '.');
            size_t len = dot ? (size_t)(dot - p) : strlen(p);
            n = child(n, p, len);
            if (!dot)
                break;
            p = dot + 1;
        }
        n->row = &w->rows[i];
    }
    write_tree(f, &root, 0);
    fputc('\n', f);
    free_tree(&root);
    if (ferror(f))
        return gt_error_set(err, "writing stats.json failed");
    return 0;
}

static void write_csv_field(FILE *f, const char *s)
{
    size_t plain = strcspn(s, ",\"\n");
    if (!s[plain]) {
        fwrite(s, 1, plain, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int stats_write_csv(const struct stats_writer *w, FILE *f, struct gt_error *err)
{
    fputs("path,value,measure,description\n", f);
    for (size_t i = 0; i < w->count; i++) {
        const struct stats_row *r = &w->rows[i];
        write_csv_field(f, r->path);
        fputc(',', f);
        write_number(f, r);
        fputc(',', f);
        write_csv_field(f, r->measure);
        fputc(',', f);
        write_csv_field(f, r->help);
        fputc('\n', f);
    }
    if (ferror(f))
        return gt_error_set(err, "writing stats.csv failed");
    return 0;
}

/* ---- gathering from a simulation ------------------------------------------ */

static void emit_port_stats(struct stats_writer *w, const struct unit *u, const struct port *p)
{
    char base[160];
    if (unit_port_count(u, p->name) > 1)
        snprintf(base, sizeof base, "port.%s.%u", p->name, p->index);
    else
        snprintf(base, sizeof base, "port.%s", p->name);
    char name[224];
    if (p->direction == PORT_IN) {
        snprintf(name, sizeof name, "%s.received", base);
        stats_emit_u64(w, name, p->received, "messages", "messages popped from this input");
        return;
    }
    const struct channel *ch = p->channel;
    snprintf(name, sizeof name, "%s.sent", base);
    stats_emit_u64(w, name, ch ? ch->sent : 0, "messages", "messages sent on this output");
    snprintf(name, sizeof name, "%s.stalled_full", base);
    stats_emit_u64(w, name, ch ? ch->stall_full : 0, "cycles",
                   "cycles a send was refused because the channel was full");
    snprintf(name, sizeof name, "%s.stalled_width", base);
    stats_emit_u64(w, name, ch ? ch->stall_width : 0, "cycles",
                   "cycles a send was refused because the channel's width was used up");
    snprintf(name, sizeof name, "%s.peak_occupancy", base);
    stats_emit_u64(w, name, ch ? ch->peak_occupancy : 0, "messages",
                   "most messages in flight and queued at once");
    if (p->unbound_sends) {
        snprintf(name, sizeof name, "%s.unbound_sends", base);
        stats_emit_u64(w, name, p->unbound_sends, "messages",
                       "sends attempted on this output while it was not linked");
    }
}

void unit_write_stat_table(struct unit *u, struct stats_writer *w)
{
    if (u->ops->stats) {
        for (const struct stat_desc *s = u->ops->stats; s->name; s++) {
            const char *field = (const char *)u->state + s->offset;
            if (s->type == STAT_REAL)
                stats_emit(w, s->name, *(const double *)field, s->measure, s->help);
            else
                stats_emit_u64(w, s->name, *(const uint64_t *)field, s->measure, s->help);
        }
    }
}

void sim_write_stats(struct sim *sim, struct stats_writer *w)
{
    stats_set_prefix(w, "sim");
    stats_emit_u64(w, "time_ps", sim->now_ps, "ps", "simulated time");
    stats_emit_u64(w, "steps", sim->steps, "steps", "points in time with work");
    stats_emit_u64(w, "ticks", sim->ticks, "ticks", "unit ticks, all units");
    struct sim_totals totals;
    sim_totals(sim, &totals);
    stats_emit_u64(w, "messages_sent", totals.messages_sent, "messages", "messages sent, all units");
    stats_emit_u64(w, "messages_delivered", totals.messages_delivered, "messages",
                   "messages popped by receivers, all units");
    stats_emit_u64(w, "stalls", totals.stalls, "cycles", "channel-cycles with a refused send");
    stats_emit_u64(w, "messages_peak", sim->messages_peak, "messages",
                   "most messages alive at once");
    stats_emit_u64(w, "log.errors", sim->log_counts[SIM_LOG_ERROR], "messages", "errors logged");
    stats_emit_u64(w, "log.warnings", sim->log_counts[SIM_LOG_WARNING], "messages",
                   "warnings logged");
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        char name[96];
        snprintf(name, sizeof name, "clock.%s.cycles", sim->domains[i]->name);
        stats_emit_u64(w, name, sim->now_ps / sim->domains[i]->period_ps, "cycles",
                       "cycles of this clock in the simulated time");
        snprintf(name, sizeof name, "clock.%s.active_edges", sim->domains[i]->name);
        stats_emit_u64(w, name, sim->domains[i]->edges, "cycles",
                       "edges on which some unit of this clock ticked");
    }
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        struct unit *u = sim->units[i];
        if (u->ops->stats_settle)
            u->ops->stats_settle(u);
        stats_set_prefix(w, u->name);
        stats_emit_u64(w, "ticks", unit_tick_count(sim, u, false), "cycles",
                       "cycles the unit was ticked");
        stats_emit_u64(w, "busy_ticks", unit_tick_count(sim, u, true), "cycles",
                       "ticks after which the unit asked to be ticked again");
        unit_write_stat_table(u, w);
        if (u->ops->stats_derived)
            u->ops->stats_derived(u, w);
        for (const struct port *p = u->ports; p; p = p->next_in_unit)
            emit_port_stats(w, u, p);
    }
    stats_set_prefix(w, "");
}

double stats_sum_of_kind(struct sim *sim, const struct stats_writer *w, const char *kind,
                         const char *name)
{
    double sum = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        char path[600];
        double v;
        snprintf(path, sizeof path, "%s.%s", unit_name(u), name);
        if (strcmp(unit_kind(u), kind) == 0 && stats_lookup(w, path, &v))
            sum += v;
    }
    return sum;
}
