/* fabric/recording.c - see recording.h. */
#include "fabric/recording.h"

#include <errno.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/unit.h"

struct recorder {
    FILE *f;
    char *path;
    uint64_t count;
    struct port *observed;          /* recorder_attach's port, or NULL */
};

struct recorder *recorder_open(const char *path, const struct recording_header *h,
                               struct gt_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gt_error_set(err, "cannot write recording %s: %s", path, strerror(errno));
        return NULL;
    }
    fprintf(f, "gtsim-port-recording 1\n");
    fprintf(f, "# m CYCLE TAG KIND SIZE PAYLOAD-HEX (cycle: %s)\n",
            h->direction == PORT_IN ? "taken" : "sent");
    fprintf(f, "unit %s\nkind %s\n", h->unit, h->kind);
    if (h->indexed)
        fprintf(f, "port %s[%u] %s\n", h->port, h->index, h->direction == PORT_IN ? "in" : "out");
    else
        fprintf(f, "port %s %s\n", h->port, h->direction == PORT_IN ? "in" : "out");
    if (h->link.latency)
        fprintf(f, "link %u %u %u\n", h->link.latency, h->link.capacity, h->link.width);
    fprintf(f, "period_ps %" PRIu64 "\n", h->period_ps);
    struct recorder *r = gt_xcalloc(1, sizeof *r);
    r->f = f;
    r->path = gt_xstrdup(path);
    return r;
}

void recorder_write_raw(struct recorder *r, uint64_t cycle, uint32_t tag, uint32_t kind,
                        const void *payload, uint32_t size)
{
    static const char hex[] = "0123456789abcdef";
    char buf[4096];
    size_t n = 0;
    fprintf(r->f, "m %" PRIu64 " %u %u %u ", cycle, tag, kind, size);
    const unsigned char *p = payload;
    for (uint32_t i = 0; i < size; i++) {
        buf[n++] = hex[p[i] >> 4];
        buf[n++] = hex[p[i] & 15];
        if (n == sizeof buf) {
            fwrite(buf, 1, n, r->f);
            n = 0;
        }
    }
    fwrite(buf, 1, n, r->f);
    fputc('\n', r->f);
    r->count++;
}

void recorder_write(struct recorder *r, uint64_t cycle, const struct msg *m)
{
    recorder_write_raw(r, cycle, m->tag, m->kind, m->payload, m->size);
}

uint64_t recorder_count(const struct recorder *r)
{
    return r->count;
}

static void record_message(void *context, const struct port *p, const struct msg *m,
                           uint64_t cycle)
{
    (void)p;
    recorder_write(context, cycle, m);
}

struct recorder *recorder_attach(struct port *p, const char *path, struct gt_error *err)
{
    struct unit *u = port_unit(p);
    struct recording_header h = { .direction = port_direction(p),
                                  .period_ps = unit_clock_period(u),
                                  .index = port_index(p) };
    snprintf(h.unit, sizeof h.unit, "%s", unit_name(u));
    snprintf(h.kind, sizeof h.kind, "%.*s", (int)strcspn(unit_kind(u), ":"), unit_kind(u));
    snprintf(h.port, sizeof h.port, "%s", port_name(p));
    h.indexed = h.index > 0 || unit_port_count(u, port_name(p)) > 1;
    port_link(p, &h.link);
    struct recorder *r = recorder_open(path, &h, err);
    if (!r)
        return NULL;
    if (!port_add_observer(p, record_message, r)) {
        recorder_close(r, NULL);
        gt_error_set(err, "cannot record %s.%s: the port already has %d observers",
                     unit_name(u), port_name(p), PORT_MAX_OBSERVERS);
        return NULL;
    }
    r->observed = p;
    return r;
}

int recorder_close(struct recorder *r, struct gt_error *err)
{
    if (!r)
        return 0;
    if (r->observed)
        port_remove_observer(r->observed, record_message, r);
    int rc = 0;
    if (ferror(r->f) | fclose(r->f))
        rc = gt_error_set(err, "cannot write recording %s", r->path);
    free(r->path);
    free(r);
    return rc;
}

struct recording {
    FILE *f;
    char *path;
    unsigned line_no;
    char *line;
    size_t line_cap;
    unsigned char *payload;
    size_t payload_cap;
    struct recording_header h;
};

static int next_line(struct recording *r)
{
    for (;;) {
        ssize_t n = getline(&r->line, &r->line_cap, r->f);
        if (n < 0)
            return 0;
        r->line_no++;
        while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
            r->line[--n] = 0;
        if (n == 0 || r->line[0] == '#')
            continue;
        return 1;
    }
}

void recording_close(struct recording *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    free(r->path);
    free(r->line);
    free(r->payload);
    free(r);
}

struct recording *recording_open(const char *path, struct gt_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        gt_error_set(err, "cannot read recording %s: %s", path, strerror(errno));
        return NULL;
    }
    struct recording *r = gt_xcalloc(1, sizeof *r);
    r->f = f;
    r->path = gt_xstrdup(path);
    if (!next_line(r) || strcmp(r->line, "gtsim-port-recording 1") != 0) {
        gt_error_set(err, "%s:%u: not a gtsim port recording (version 1)", path, r->line_no);
        recording_close(r);
        return NULL;
    }
    unsigned seen = 0;
    while (seen != 15) {
        if (!next_line(r)) {
            gt_error_set(err, "%s:%u: header ends early (unit, kind, port, period_ps)", path,
                         r->line_no);
            recording_close(r);
            return NULL;
        }
        char a[256], b[64];
        unsigned long long v;
        if (sscanf(r->line, "unit %255s", a) == 1) {
            snprintf(r->h.unit, sizeof r->h.unit, "%s", a);
            seen |= 1;
        } else if (sscanf(r->line, "kind %63s", b) == 1) {
            snprintf(r->h.kind, sizeof r->h.kind, "%s", b);
            seen |= 2;
        } else if (sscanf(r->line, "port %63s %255s", b, a) == 2 &&
                   (!strcmp(a, "in") || !strcmp(a, "out"))) {
            char *bracket = strchr(b, '[');
            if (bracket) {
                char *end = NULL;
                unsigned long index = strtoul(bracket + 1, &end, 10);
                if (end == bracket + 1 || strcmp(end, "]") != 0 || index > 65535) {
                    gt_error_set(err, "%s:%u: bad port index in '%.60s'", path, r->line_no,
                                 r->line);
                    recording_close(r);
                    return NULL;
                }
                *bracket = 0;
                r->h.index = (uint32_t)index;
                r->h.indexed = true;
            }
            snprintf(r->h.port, sizeof r->h.port, "%s", b);
            r->h.direction = strcmp(a, "in") == 0 ? PORT_IN : PORT_OUT;
            seen |= 4;
        } else if (!strncmp(r->line, "link ", 5)) {
            unsigned latency, capacity, width;
            char extra;
            if (sscanf(r->line, "link %u %u %u %c", &latency, &capacity, &width, &extra) != 3 ||
                !latency || !capacity || !width) {
                gt_error_set(err, "%s:%u: bad link line '%.60s' (latency capacity width, each "
                             ">= 1)", path, r->line_no, r->line);
                recording_close(r);
                return NULL;
            }
            r->h.link = (struct link_params){ latency, capacity, width };
        } else if (sscanf(r->line, "period_ps %llu", &v) == 1 && v > 0) {
            r->h.period_ps = v;
            seen |= 8;
        } else {
            gt_error_set(err, "%s:%u: bad header line '%.60s'", path, r->line_no, r->line);
            recording_close(r);
            return NULL;
        }
    }
    return r;
}

const struct recording_header *recording_header(const struct recording *r)
{
    return &r->h;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int recording_next(struct recording *r, struct recorded_msg *out, struct gt_error *err)
{
    if (!next_line(r))
        return 0;
    unsigned long long cycle;
    unsigned tag, kind, size;
    int off = 0;
    if (sscanf(r->line, "m %llu %u %u %u %n", &cycle, &tag, &kind, &size, &off) != 4 ||
        off == 0 || size > (1u << 24))
        return gt_error_set(err, "%s:%u: expected 'm CYCLE TAG KIND SIZE HEX'", r->path,
                            r->line_no);
    const char *h = r->line + off;
    if (strlen(h) != 2 * (size_t)size)
        return gt_error_set(err, "%s:%u: %u payload bytes announced, %zu hex digits given",
                            r->path, r->line_no, size, strlen(h));
    if (size > r->payload_cap) {
        r->payload_cap = size;
        r->payload = gt_xrealloc(r->payload, size);
    }
    for (unsigned i = 0; i < size; i++) {
        int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return gt_error_set(err, "%s:%u: bad hex digit in the payload", r->path, r->line_no);
        r->payload[i] = (unsigned char)(hi << 4 | lo);
    }
    out->cycle = cycle;
    out->tag = tag;
    out->kind = kind;
    out->size = size;
    out->payload = r->payload;
    return 1;
}
