/* fabric/trace.c - see trace.h. Times are written in microseconds with
 * picosecond resolution, as the trace-event format expects. */
#include "fabric/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"

struct trace {
    FILE *file;
    uint64_t max_events;
    uint64_t events;
    uint64_t next_flow;
    bool truncated;
};

struct trace *trace_open(const char *path, uint64_t max_events, struct gt_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gt_error_set(err, "cannot write trace '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct trace *t = gt_xcalloc(1, sizeof *t);
    t->file = f;
    t->max_events = max_events;
    fputs("{\"traceEvents\":[\n"
          "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"gtsim\"}}", f);
    return t;
}

static bool room(struct trace *t, uint64_t n)
{
    if (t->truncated)
        return false;
    if (t->events + n > t->max_events) {
        t->truncated = true;
        return false;
    }
    t->events += n;
    return true;
}

/* Picoseconds as microseconds with six decimals. */
static void write_time(FILE *f, uint64_t ps)
{
    fprintf(f, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
}

static void flush_span(struct trace *t, const struct sim *sim, struct unit *u)
{
    if (!u->span_end)
        return;
    uint64_t period = sim->domains[u->domain]->period_ps;
    uint64_t start = u->span_start;
    uint64_t end = u->span_end;
    u->span_end = 0;
    if (!room(t, 1))
        return;
    fputs(",\n{\"name\":\"active\",\"ph\":\"X\",\"pid\":0,\"tid\":", t->file);
    fprintf(t->file, "%" PRIu32 ",\"ts\":", u->id);
    write_time(t->file, start * period);
    fputs(",\"dur\":", t->file);
    write_time(t->file, (end - start) * period);
    fputc('}', t->file);
}

void trace_unit_tick(struct trace *t, const struct sim *sim, struct unit *u, uint64_t cycle)
{
    if (u->span_end && u->span_end == cycle) {
        u->span_end = cycle + 1;
        return;
    }
    flush_span(t, sim, u);
    u->span_start = cycle;
    u->span_end = cycle + 1;
}

void trace_message(struct trace *t, const struct sim *sim, const struct channel *ch,
                   const struct msg *m)
{
    if (!room(t, 2))
        return;
    struct unit *to = ch->to->owner;
    uint64_t arrival_cycle = sim_domain_cycle_after(sim, to->domain, sim->now_ps)
                           + ch->link.latency - 1;
    uint64_t arrival_ps = arrival_cycle * sim->domains[to->domain]->period_ps;
    uint64_t flow = t->next_flow++;
    fprintf(t->file, ",\n{\"name\":\"%s\",\"cat\":\"msg\",\"ph\":\"s\",\"id\":%" PRIu64
            ",\"pid\":0,\"tid\":%" PRIu32 ",\"ts\":", msg_kind_name(m->kind), flow,
            ch->from->owner->id);
    write_time(t->file, sim->now_ps);
    fprintf(t->file, ",\"args\":{\"msg\":%" PRIu64 ",\"to\":\"%s.%s\"}}", m->id, to->name,
            ch->to->name);
    fprintf(t->file, ",\n{\"name\":\"%s\",\"cat\":\"msg\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%"
            PRIu64 ",\"pid\":0,\"tid\":%" PRIu32 ",\"ts\":", msg_kind_name(m->kind), flow,
            to->id);
    write_time(t->file, arrival_ps);
    fputc('}', t->file);
}

/* The tools' tracks sit after every unit's track id. */
#define TRACE_EXTRA_TRACK_BASE 0x40000000u

void trace_track_name(struct trace *t, uint32_t track, const char *name)
{
    if (!t || track >= TRACE_EXTRA_TRACKS)
        return;
    fprintf(t->file, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%" PRIu32
            ",\"args\":{\"name\":\"%s\"}}", TRACE_EXTRA_TRACK_BASE + track, name);
    fprintf(t->file, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":%"
            PRIu32 ",\"args\":{\"sort_index\":%" PRIu32 "}}", TRACE_EXTRA_TRACK_BASE + track,
            track);
}

void trace_track_slice(struct trace *t, uint32_t track, const char *name, uint64_t start_ps,
                       uint64_t end_ps, const char *args_json)
{
    if (!t || track >= TRACE_EXTRA_TRACKS || !room(t, 1))
        return;
    fprintf(t->file, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%" PRIu32
            ",\"ts\":", name, TRACE_EXTRA_TRACK_BASE + track);
    write_time(t->file, start_ps);
    fputs(",\"dur\":", t->file);
    write_time(t->file, end_ps > start_ps ? end_ps - start_ps : 0);
    if (args_json && *args_json)
        fprintf(t->file, ",\"args\":{%s}", args_json);
    fputc('}', t->file);
}

void trace_flush_units(struct trace *t, struct sim *sim)
{
    for (uint32_t i = 0; i < sim->unit_count; i++)
        flush_span(t, sim, sim->units[i]);
}

int trace_close(struct trace *t, struct sim *sim, struct gt_error *err)
{
    if (!t)
        return 0;
    if (sim) {
        trace_flush_units(t, sim);
        for (uint32_t i = 0; i < sim->unit_count; i++) {
            fprintf(t->file, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%"
                    PRIu32 ",\"args\":{\"name\":\"%s\"}}", sim->units[i]->id,
                    sim->units[i]->name);
            fprintf(t->file, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,"
                    "\"tid\":%" PRIu32 ",\"args\":{\"sort_index\":%" PRIu32 "}}",
                    sim->units[i]->id, sim->units[i]->id);
        }
        if (sim->trace == t)
            sim->trace = NULL;
    }
    fprintf(t->file, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"gtsim\","
            "\"events\":%" PRIu64 ",\"max_events\":%" PRIu64 ",\"truncated\":%s}}\n",
            t->events, t->max_events, t->truncated ? "true" : "false");
    int bad = ferror(t->file);
    bad |= fclose(t->file);
    free(t);
    if (bad)
        return gt_error_set(err, "writing the trace failed");
    return 0;
}

uint64_t trace_event_count(const struct trace *t) { return t->events; }
bool trace_truncated(const struct trace *t) { return t->truncated; }
