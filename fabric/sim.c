/* fabric/sim.c - the simulation kernel: clock domains, the wake scheduler,
 * the run loop, the watchdog and the log. See sim.h for the model of time. */
#include "fabric/sim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"
#include "fabric/trace.h"

#define WAKE_BLOCK 4096u
#define DEFAULT_WATCHDOG_CYCLES 100000u

/* ---- creation ------------------------------------------------------------ */

struct sim *sim_create(const struct sim_options *options)
{
    struct sim *sim = gt_xcalloc(1, sizeof *sim);
    if (options) {
        sim->options = *options;
    } else {
        sim->options.watchdog_cycles = DEFAULT_WATCHDOG_CYCLES;
        sim->options.log_level = SIM_LOG_WARNING;
    }
    sim->shuffle_state = sim->options.tick_order_seed * 0x9E3779B97F4A7C15ull + 1;
    sim->deadlock_report = gt_xstrdup("");
    return sim;
}

void sim_destroy(struct sim *sim)
{
    if (!sim)
        return;
    for (uint32_t i = 0; i < sim->channel_count; i++)
        channel_destroy(sim, sim->channels[i]);
    free(sim->channels);
    for (uint32_t i = 0; i < sim->unit_count; i++)
        unit_destroy_instance(sim->units[i]);
    free(sim->units);
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        free(sim->domains[i]->overflow.items);
        free(sim->domains[i]);
    }
    free(sim->domains);
    for (uint32_t i = 0; i < sim->wake_block_count; i++)
        free(sim->wake_blocks[i]);
    free(sim->wake_blocks);
    free(sim->ready);
    msg_pools_destroy(sim);
    free(sim->deadlock_report);
    if (sim->memory && sim->memory_destroy)
        sim->memory_destroy(sim->memory);
    free(sim);
}

/* ---- clock domains ------------------------------------------------------- */

int sim_add_clock(struct sim *sim, const char *name, uint64_t period_ps, struct gt_error *err)
{
    if (period_ps == 0)
        return gt_error_set(err, "clock '%s': period must be at least 1 ps", name);
    if (strlen(name) == 0 || strlen(name) >= sizeof sim->domains[0]->name)
        return gt_error_set(err, "clock name '%s' must be 1 to 31 characters", name);
    if (sim_find_clock(sim, name) >= 0)
        return gt_error_set(err, "clock '%s' is declared twice", name);
    struct clock_domain *d = gt_xcalloc(1, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->period_ps = period_ps;
    sim->domains = gt_xrealloc(sim->domains, (sim->domain_count + 1) * sizeof *sim->domains);
    sim->domains[sim->domain_count] = d;
    uint64_t fastest = period_ps;
    for (uint32_t i = 0; i < sim->domain_count; i++)
        if (sim->domains[i]->period_ps < fastest)
            fastest = sim->domains[i]->period_ps;
    sim->watchdog_ps = sim->options.watchdog_cycles * fastest;
    return (int)sim->domain_count++;
}

int sim_find_clock(const struct sim *sim, const char *name)
{
    for (uint32_t i = 0; i < sim->domain_count; i++)
        if (strcmp(sim->domains[i]->name, name) == 0)
            return (int)i;
    return -1;
}

uint32_t sim_clock_count(const struct sim *sim) { return sim->domain_count; }
const char *sim_clock_name(const struct sim *sim, uint32_t d) { return sim->domains[d]->name; }
uint64_t sim_clock_period(const struct sim *sim, uint32_t d) { return sim->domains[d]->period_ps; }
uint64_t sim_clock_cycle(const struct sim *sim, uint32_t d) { return sim->domains[d]->cycle; }

uint64_t sim_domain_cycle_after(const struct sim *sim, uint32_t domain, uint64_t time_ps)
{
    return time_ps / sim->domains[domain]->period_ps + 1;
}

/* ---- wakes --------------------------------------------------------------- */

static struct wake *wake_alloc(struct sim *sim)
{
    if (!sim->free_wakes) {
        struct wake *block = gt_xmalloc(WAKE_BLOCK * sizeof *block);
        if (sim->wake_block_count == sim->wake_block_capacity) {
            sim->wake_block_capacity = sim->wake_block_capacity ? 2 * sim->wake_block_capacity : 8;
            sim->wake_blocks = gt_xrealloc(sim->wake_blocks,
                                           sim->wake_block_capacity * sizeof(void *));
        }
        sim->wake_blocks[sim->wake_block_count++] = block;
        for (uint32_t i = 0; i < WAKE_BLOCK; i++) {
            block[i].next = sim->free_wakes;
            sim->free_wakes = &block[i];
        }
    }
    struct wake *w = sim->free_wakes;
    sim->free_wakes = w->next;
    return w;
}

static void heap_push(struct wake_heap *h, struct wake *w)
{
    if (h->count == h->size) {
        h->size = h->size ? 2 * h->size : 64;
        h->items = gt_xrealloc(h->items, h->size * sizeof *h->items);
    }
    uint32_t i = h->count++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (h->items[parent]->cycle <= w->cycle)
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = w;
}

static struct wake *heap_pop(struct wake_heap *h)
{
    struct wake *top = h->items[0];
    struct wake *last = h->items[--h->count];
    uint32_t i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && h->items[child + 1]->cycle < h->items[child]->cycle)
            child++;
        if (h->items[child]->cycle >= last->cycle)
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->count)
        h->items[i] = last;
    return top;
}

static void wheel_insert(struct clock_domain *d, struct wake *w)
{
    uint32_t slot = (uint32_t)(w->cycle & WHEEL_MASK);
    w->next = d->slots[slot];
    d->slots[slot] = w;
    d->occupied[slot >> 6] |= 1ull << (slot & 63);
    d->wheel_count++;
}

void sim_schedule(struct sim *sim, struct unit *u, uint64_t cycle)
{
    struct clock_domain *d = sim->domains[u->domain];
    if (cycle < d->next_unprocessed)
        cycle = d->next_unprocessed;
    if (u->last_wake_request == cycle + 1)
        return;
    u->last_wake_request = cycle + 1;
    struct wake *w = wake_alloc(sim);
    w->cycle = cycle;
    w->unit = u;
    if (cycle - d->next_unprocessed < WHEEL_SLOTS)
        wheel_insert(d, w);
    else
        heap_push(&d->overflow, w);
}

/* Moves overflow wakes that now fall inside the wheel's window. */
static void migrate_overflow(struct clock_domain *d)
{
    while (d->overflow.count &&
           d->overflow.items[0]->cycle - d->next_unprocessed < WHEEL_SLOTS)
        wheel_insert(d, heap_pop(&d->overflow));
}

/* The next cycle with a wake in domain d, or UINT64_MAX. */
static uint64_t domain_next_cycle(struct clock_domain *d)
{
    if (d->wheel_count == 0)
        return d->overflow.count ? d->overflow.items[0]->cycle : UINT64_MAX;
    uint64_t base = d->next_unprocessed;
    uint32_t start = (uint32_t)(base & WHEEL_MASK);
    uint32_t word = start >> 6;
    uint64_t bits = d->occupied[word] & (~0ull << (start & 63));
    for (uint32_t n = 0; n <= WHEEL_WORDS; n++) {
        if (bits) {
            uint32_t slot = (word << 6) | (uint32_t)__builtin_ctzll(bits);
            uint32_t distance = (slot - start) & WHEEL_MASK;
            return base + distance;
        }
        word = (word + 1) & (WHEEL_WORDS - 1);
        bits = d->occupied[word];
    }
    return UINT64_MAX;      /* not reached: wheel_count > 0 means a bit is set */
}

void unit_wake_at(struct unit *u, uint64_t cycle)
{
    sim_schedule(u->sim, u->host ? u->host : u, cycle);
}

uint64_t unit_clock_period(const struct unit *u)
{
    return u->sim->domains[u->domain]->period_ps;
}

uint64_t unit_cycle(const struct unit *u)
{
    return u->sim->domains[u->domain]->cycle;
}

void unit_progress(struct unit *u)
{
    u->sim->last_progress_ps = u->sim->now_ps;
}

/* ---- running ------------------------------------------------------------- */

static uint64_t shuffle_next(struct sim *sim)
{
    uint64_t x = sim->shuffle_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return sim->shuffle_state = x;
}

static void ready_push(struct sim *sim, struct unit *u)
{
    if (sim->ready_count == sim->ready_capacity) {
        sim->ready_capacity = sim->ready_capacity ? 2 * sim->ready_capacity : 64;
        sim->ready = gt_xrealloc(sim->ready, sim->ready_capacity * sizeof *sim->ready);
    }
    sim->ready[sim->ready_count++] = u;
}

static void process_domain_edge(struct sim *sim, struct clock_domain *d, uint64_t cycle)
{
    d->cycle = cycle;
    d->next_unprocessed = cycle + 1;
    d->edges++;
    uint32_t slot = (uint32_t)(cycle & WHEEL_MASK);
    struct wake *w = d->slots[slot];
    d->slots[slot] = NULL;
    d->occupied[slot >> 6] &= ~(1ull << (slot & 63));
    sim->ready_count = 0;
    while (w) {
        struct wake *next = w->next;
        struct unit *u = w->unit;
        if (u->ready_stamp != cycle + 1) {
            u->ready_stamp = cycle + 1;
            ready_push(sim, u);
        }
        w->next = sim->free_wakes;
        sim->free_wakes = w;
        d->wheel_count--;
        w = next;
    }
    migrate_overflow(d);
    if (sim->options.tick_order_seed && sim->ready_count > 1) {
        for (uint32_t i = sim->ready_count - 1; i > 0; i--) {
            uint32_t j = (uint32_t)(shuffle_next(sim) % (i + 1));
            struct unit *t = sim->ready[i];
            sim->ready[i] = sim->ready[j];
            sim->ready[j] = t;
        }
    }
    sim->ticks += sim->ready_count;
    for (uint32_t i = 0; i < sim->ready_count; i++) {
        struct unit *u = sim->ready[i];
        u->ticks++;
        if (sim->trace)
            trace_unit_tick(sim->trace, sim, u, cycle);
        if (u->ops->tick(u) == UNIT_BUSY) {
            u->busy_ticks++;
            sim_schedule(sim, u, cycle + 1);
        }
    }
}

/* The earliest time (ps) any domain has work, or UINT64_MAX. Each domain's
 * next cycle is kept for step_at(), which then needs no division. */
static uint64_t next_event_time(struct sim *sim)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        struct clock_domain *d = sim->domains[i];
        uint64_t c = domain_next_cycle(d);
        d->pending_cycle = c;
        d->pending_time = c == UINT64_MAX ? UINT64_MAX : c * d->period_ps;
        if (d->pending_time < best)
            best = d->pending_time;
    }
    return best;
}

/* Processes time t, which next_event_time() just returned. */
static bool step_at(struct sim *sim, uint64_t t)
{
    sim->now_ps = t;
    sim->steps++;
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        struct clock_domain *d = sim->domains[i];
        if (d->pending_time != t)
            continue;
        uint64_t cycle = d->pending_cycle;
        /* A wake from the overflow heap lands in the wheel once the window
         * reaches it: move the window to this edge first. */
        d->next_unprocessed = cycle;
        migrate_overflow(d);
        process_domain_edge(sim, d, cycle);
    }
    return true;
}

bool sim_step(struct sim *sim)
{
    uint64_t t = next_event_time(sim);
    if (t == UINT64_MAX)
        return false;
    return step_at(sim, t);
}

static void append_report(char **report, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append_report(char **report, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(*report + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (*len + (size_t)n < *cap) {
            *len += (size_t)n;
            return;
        }
        *cap = 2 * (*cap + (size_t)n);
        *report = gt_xrealloc(*report, *cap);
    }
}

static void port_label(const struct port *p, char *buf, size_t size)
{
    if (!p) {
        snprintf(buf, size, "(backdoor)");
        return;
    }
    snprintf(buf, size, "%s.%s[%u]", p->owner->name, p->name, p->index);
}

/* Builds the deadlock report: every non-empty channel, its occupancy, and the
 * units waiting on it. Returns the number of such channels. */
static uint32_t build_deadlock_report(struct sim *sim, const char *why)
{
    size_t cap = 1024, len = 0;
    char *r = gt_xmalloc(cap);
    r[0] = 0;
    append_report(&r, &len, &cap, "deadlock at %" PRIu64 " ps: %s\n", sim->now_ps, why);
    uint32_t stuck = 0;
    for (uint32_t i = 0; i < sim->channel_count; i++) {
        struct channel *ch = sim->channels[i];
        uint32_t occupancy = channel_occupancy(ch);
        if (occupancy == 0)
            continue;
        stuck++;
        char from[256], to[256];
        port_label(ch->from, from, sizeof from);
        port_label(ch->to, to, sizeof to);
        const struct msg *oldest = ch->ring[ch->head & ch->mask];
        append_report(&r, &len, &cap,
                      "  channel %s -> %s: %u/%u messages (oldest #%" PRIu64 " %s, visible since "
                      "cycle %" PRIu64 ")\n",
                      from, to, occupancy, ch->link.capacity, oldest->id,
                      msg_kind_name(oldest->kind), ch->arrival[ch->head & ch->mask]);
        append_report(&r, &len, &cap, "    waiting to receive: %s (last ticked at cycle %" PRIu64
                      ", %" PRIu64 " ticks)\n", ch->to->owner->name,
                      ch->to->owner->ready_stamp ? ch->to->owner->ready_stamp - 1 : 0,
                      ch->to->owner->ticks);
        if (ch->from && (ch->sender_waiting || occupancy >= ch->link.capacity))
            append_report(&r, &len, &cap, "    waiting to send: %s (%" PRIu64 " stalled cycles)\n",
                          ch->from->owner->name, ch->stall_full + ch->stall_width);
    }
    if (stuck == 0)
        append_report(&r, &len, &cap, "  no channel holds a message; units are busy without "
                      "moving any (check unit_progress() in long-running units)\n");
    free(sim->deadlock_report);
    sim->deadlock_report = r;
    return stuck;
}

enum sim_stop_reason sim_run(struct sim *sim, uint64_t until_ps)
{
    sim->stop_requested = false;
    sim->stop_reason = SIM_STOP_NONE;
    uint64_t next_progress = sim->progress_every ? sim->steps + sim->progress_every : UINT64_MAX;
    if (sim->last_progress_ps < sim->now_ps)
        sim->last_progress_ps = sim->now_ps;
    for (;;) {
        if (sim->stop_requested) {
            sim->stop_reason = SIM_STOP_REQUESTED;
            break;
        }
        uint64_t t = next_event_time(sim);
        if (t == UINT64_MAX) {
            uint32_t stuck = 0;
            for (uint32_t i = 0; i < sim->channel_count; i++)
                if (channel_occupancy(sim->channels[i]))
                    stuck++;
            if (stuck) {
                build_deadlock_report(sim, "no unit has work but messages are left in channels");
                sim->stop_reason = SIM_STOP_DEADLOCK;
            } else {
                sim->stop_reason = SIM_STOP_QUIESCENT;
            }
            break;
        }
        if (until_ps && t > until_ps) {
            sim->now_ps = until_ps;
            sim->stop_reason = SIM_STOP_TIME_LIMIT;
            break;
        }
        if (sim->watchdog_ps && t - sim->last_progress_ps > sim->watchdog_ps) {
            char why[128];
            snprintf(why, sizeof why, "nothing moved for %" PRIu64 " cycles of the fastest clock",
                     sim->options.watchdog_cycles);
            build_deadlock_report(sim, why);
            sim->stop_reason = SIM_STOP_DEADLOCK;
            break;
        }
        step_at(sim, t);
        if (sim->steps >= next_progress) {
            sim->progress_fn(sim->progress_context, sim);
            next_progress = sim->steps + sim->progress_every;
        }
    }
    if (sim->trace)
        trace_flush_units(sim->trace, sim);
    if (sim->stop_reason == SIM_STOP_DEADLOCK)
        sim_log(sim, SIM_LOG_ERROR, "watchdog", "%s", sim->deadlock_report);
    return sim->stop_reason;
}

void sim_request_stop(struct sim *sim) { sim->stop_requested = true; }
uint64_t sim_now(const struct sim *sim) { return sim->now_ps; }
enum sim_stop_reason sim_stop_reason(const struct sim *sim) { return sim->stop_reason; }
const char *sim_deadlock_report(const struct sim *sim) { return sim->deadlock_report; }

const char *sim_stop_reason_name(enum sim_stop_reason reason)
{
    switch (reason) {
    case SIM_STOP_NONE: return "not run";
    case SIM_STOP_QUIESCENT: return "finished";
    case SIM_STOP_TIME_LIMIT: return "time limit";
    case SIM_STOP_REQUESTED: return "stopped";
    case SIM_STOP_DEADLOCK: return "deadlock";
    }
    return "unknown";
}

void sim_set_progress(struct sim *sim, sim_progress_fn fn, void *context, uint64_t every_steps)
{
    sim->progress_fn = fn;
    sim->progress_context = context;
    sim->progress_every = fn ? (every_steps ? every_steps : 1) : 0;
}

void sim_totals(const struct sim *sim, struct sim_totals *out)
{
    out->steps = sim->steps;
    out->ticks = sim->ticks;
    out->messages_sent = sim->messages_sent;
    out->messages_delivered = sim->messages_delivered;
    out->stalls = sim->stalls;
    out->messages_live = sim->messages_live;
    out->messages_peak = sim->messages_peak;
    out->pool_bytes = sim->pool_bytes;
}

/* ---- log ----------------------------------------------------------------- */

static const char *const level_names[] = { "error", "warning", "note", "debug" };

void sim_log(struct sim *sim, int level, const char *who, const char *fmt, ...)
{
    if (level < 0)
        level = 0;
    if (level > SIM_LOG_DEBUG)
        level = SIM_LOG_DEBUG;
    sim->log_counts[level]++;
    if (level > sim->options.log_level)
        return;
    FILE *f = sim->options.log_file ? sim->options.log_file : stderr;
    fprintf(f, "gtsim: %s: %s: ", level_names[level], who);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    size_t n = strlen(fmt);
    if (n == 0 || fmt[n - 1] != '\n')
        fputc('\n', f);
}

uint64_t sim_undeclared_sends(const struct sim *sim) { return sim->undeclared_sends; }

uint64_t sim_log_count(const struct sim *sim, int level)
{
    return (level >= 0 && level <= SIM_LOG_DEBUG) ? sim->log_counts[level] : 0;
}

void unit_log(struct unit *u, int level, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sim_log(u->sim, level, u->name, "%s", text);
}

void sim_set_trace(struct sim *sim, struct trace *trace) { sim->trace = trace; }
void sim_set_memory(struct sim *sim, void *memory, void (*destroy)(void *memory))
{
    if (sim->memory && sim->memory_destroy && sim->memory != memory)
        sim->memory_destroy(sim->memory);
    sim->memory = memory;
    sim->memory_destroy = destroy;
}
void *sim_memory(const struct sim *sim) { return sim->memory; }
