/* fabric/sim.c - the simulation kernel: clock domains, the wake scheduler,
 * the run loop, the watchdog and the log. See sim.h for the model of time. */
#include "fabric/sim.h"

#include <assert.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"
#include "fabric/trace.h"

#define WAKE_BLOCK 4096u
#define DEFAULT_WATCHDOG_CYCLES 100000u
#define ADAPT_WINDOW 256u           /* edges timed in each mode (adaptive_choose) */
#define ADAPT_WARMUP 32u            /* and run first in it untimed (a sleeping worker wakes) */
#define ADAPT_EXPLOIT_FIRST 512u    /* the run's first winner, timed while the worker's
                                     * caches and pools are cold, runs this long */
#define ADAPT_EXPLOIT_MIN 4096u     /* edges run in the better mode before timing again */
#define ADAPT_EXPLOIT_MAX 262144u   /* at most ~0.2% of edges spent timing the worse mode
                                     * (at 16384, ~2%); a stretch ends early when the edges'
                                     * work changes (ADAPT_BLOCK), so an idle start that chose
                                     * serial does not keep a busy part serial */
#define ADAPT_BLOCK 1024u           /* phase 2's edges compared with the timed ones in blocks */
#define ADAPT_CHANGE 2u             /* a block ticking this many times more or fewer units an
                                     * edge than the timed windows ends phase 2 */

/* ---- creation ------------------------------------------------------------ */

struct sim *sim_create(const struct sim_options *options)
{
    struct sim *sim = gt_xaligned_calloc(_Alignof(struct sim), sizeof *sim);  /* sim_internal.h */
    if (options) {
        sim->options = *options;
    } else {
        sim->options.watchdog_cycles = DEFAULT_WATCHDOG_CYCLES;
        sim->options.log_level = SIM_LOG_WARNING;
    }
    sim->shuffle_state = sim->options.tick_order_seed * 0x9E3779B97F4A7C15ull + 1;
    sim->deadlock_report = gt_xstrdup("");
    sim->threads = gt_xcalloc(1, sizeof *sim->threads);
    sim->threads[0] = gt_xaligned_calloc(64, sizeof *sim->threads[0]);   /* its done line */
    sim->threads[0]->sim = sim;
    sim->thread_count = 1;
    sim_set_threads(sim, sim->options.threads);
    pthread_mutex_init(&sim->lock, NULL);
    pthread_cond_init(&sim->wake_workers, NULL);
    return sim;
}

static void stop_workers(struct sim *sim);

void sim_destroy(struct sim *sim)
{
    if (!sim)
        return;
    stop_workers(sim);
    for (uint32_t i = 0; i < sim->channel_count; i++)
        channel_destroy(sim, sim->channels[i]);
    free(sim->channels);
    for (uint32_t i = 0; i < sim->unit_count; i++)
        unit_destroy_instance(sim->units[i]);
    free(sim->units);
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        free(sim->domains[i]->overflow.items);
        for (uint32_t t = 0; t < SIM_MAX_THREADS; t++) {
            free(sim->domains[i]->due[t].list.units);
            for (uint32_t k = 0; k < DUE_NEAR_SLOTS; k++)
                free(sim->domains[i]->due[t].near[k].units);
        }
        free(sim->domains[i]);
    }
    free(sim->domains);
    for (uint32_t i = 0; i < sim->wake_block_count; i++)
        free(sim->wake_blocks[i]);
    free(sim->wake_blocks);
    free(sim->ready.units);
    if (sim->handoff)
        for (uint32_t i = 0; i < sim->thread_count; i++)
            free(sim->handoff[i].list.units);
    free(sim->handoff);
    msg_pools_destroy(sim);
    for (uint32_t i = 0; i < sim->thread_count; i++) {
        free(sim->threads[i]->ready.units);
        free(sim->threads[i]->wakes);
        free(sim->threads[i]->commits.units);
        free(sim->threads[i]->popped);
        free(sim->threads[i]->tick_counts);
        free(sim->threads[i]);
    }
    free(sim->threads);
    if (sim->thread_key_made)
        pthread_key_delete(sim->thread_key);
    pthread_mutex_destroy(&sim->lock);
    pthread_cond_destroy(&sim->wake_workers);
    free(sim->deadlock_report);
    if (sim->memory && sim->memory_destroy)
        sim->memory_destroy(sim->memory);
    for (uint32_t i = 0; i < sim->shared_count; i++)
        if (sim->shared[i].destroy)
            sim->shared[i].destroy(sim->shared[i].object);
    free(sim->shared);
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
    struct clock_domain *d = gt_xaligned_calloc(_Alignof(struct clock_domain), sizeof *d);
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

/* unit_list_push onto a full list: grows it, then pushes. Out of line, and
 * as the push's last act, so a push that needs no room saves no registers. */
static void __attribute__((noinline)) unit_list_grow_push(struct unit_list *list, struct unit *u)
{
    list->capacity = list->capacity ? 2 * list->capacity : 64;
    list->units = gt_xrealloc(list->units, list->capacity * sizeof *list->units);
    list->units[list->count++] = u;
}

static inline void unit_list_push(struct unit_list *list, struct unit *u)
{
    if (list->count == list->capacity) {
        unit_list_grow_push(list, u);
        return;
    }
    list->units[list->count++] = u;
}

/* The near-wake slot of `cycle` in dl (struct clock_domain.due) when it
 * holds wakes, marked empty; the caller takes its units and zeroes its
 * count before any tick. NULL when it holds none. */
static inline struct unit_list *near_take(struct due_list *dl, uint64_t cycle)
{
    uint32_t bit = 1u << (cycle % DUE_NEAR_SLOTS);
    if (!(dl->near_mask & bit))
        return NULL;
    dl->near_mask &= ~bit;
    return &dl->near[cycle % DUE_NEAR_SLOTS];
}

/* A wake of u for d's next unprocessed cycle (sim_schedule's common case,
 * inline where the serial tick loop asks it of every busy unit). Serial:
 * it writes u's scheduling line. */
static inline void due_push(struct clock_domain *d, struct unit *u)
{
    uint64_t cycle = d->next_unprocessed;
    if (u->last_wake_request == cycle + 1)
        return;
    u->last_wake_request = cycle + 1;
    unit_list_push(&d->due[u->thread].list, u);
}

/* In a parallel phase, u (its thread's own) into its thread's due list for
 * d's next unprocessed cycle, once an edge: every message to a unit wakes
 * it, and the repeats had been half of the due lists' entries (issue 19: ~16
 * a thread's edge on SGEMM 256 GT3). By own_due_stamp, on a line only its own
 * thread writes, not by the scheduling line's stamp, so that line stays
 * thread 0's. */
static inline void own_due_push(struct clock_domain *d, struct due_list *own, struct unit *u)
{
    if (u->own_due_stamp == d->next_unprocessed + 1)
        return;
    u->own_due_stamp = d->next_unprocessed + 1;
    unit_list_push(&own->list, u);
}

/* sim_schedule's wake of a later cycle (the wheel, or the overflow heap), out
 * of line: the common wake, of the next unprocessed cycle (a push), then
 * saves no registers (issue 19: the saves and restores had been ~40% of
 * sim_schedule's host instructions). */
static void __attribute__((noinline)) schedule_later(struct sim *sim, struct clock_domain *d,
                                                     struct unit *u, uint64_t cycle)
{
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

void sim_schedule(struct sim *sim, struct unit *u, uint64_t cycle)
{
    struct clock_domain *d = sim->domains[u->domain];
    if (cycle > d->next_unprocessed) {
        schedule_later(sim, d, u, cycle);
        return;
    }
    due_push(d, u);
}


/* Moves overflow wakes that now fall inside the wheel's window. */
static void migrate_overflow(struct clock_domain *d)
{
    while (d->overflow.count &&
           d->overflow.items[0]->cycle - d->next_unprocessed < WHEEL_SLOTS)
        wheel_insert(d, heap_pop(&d->overflow));
}

static uint64_t wheel_next_cycle(struct clock_domain *d);

/* The next cycle with a wake in domain d, or UINT64_MAX. */
static uint64_t domain_next_cycle(const struct sim *sim, struct clock_domain *d)
{
    uint64_t base = d->next_unprocessed;
    uint64_t near = UINT64_MAX;
    for (uint32_t t = 0; t < sim->thread_count; t++) {
        if (d->due[t].list.count)
            return base;        /* no wake can be earlier */
        if (d->due[t].near_mask) {
            /* its slots in cycle order from base's */
            uint32_t shift = (uint32_t)(base % DUE_NEAR_SLOTS);
            uint32_t mask = d->due[t].near_mask;
            uint32_t ordered = ((mask >> shift) | (mask << (DUE_NEAR_SLOTS - shift))) &
                               ((1u << DUE_NEAR_SLOTS) - 1);
            uint64_t c = base + (uint32_t)__builtin_ctz(ordered);
            if (c < near)
                near = c;
        }
    }
    uint64_t wheel = wheel_next_cycle(d);
    return near < wheel ? near : wheel;
}

/* The next cycle with a wake in d's wheel or overflow heap, or UINT64_MAX. */
static uint64_t wheel_next_cycle(struct clock_domain *d)
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

/* sim_schedule_from in a parallel phase (out of line: the one-thread path
 * stays a tail call of sim_schedule). */
static void __attribute__((noinline)) schedule_parallel(struct sim *sim, struct sim_thread *t,
                                                        struct unit *u, uint64_t cycle)
{
    /* Its own unit, due next: straight into its own due list (struct
     * clock_domain.due, own_due_push). About 90% of a worker's wakes in
     * SGEMM 256 on GT3, which thread 0 used to apply after the workers were
     * done. */
    struct clock_domain *d = sim->domains[u->domain];
    if (u->thread == t->index) {
        struct due_list *own = &d->due[t->index];
        if (cycle <= d->next_unprocessed) {
            own_due_push(d, own, u);
            return;
        }
        if (cycle - d->next_unprocessed < DUE_NEAR_SLOTS) {
            uint32_t slot = (uint32_t)(cycle % DUE_NEAR_SLOTS);
            unit_list_push(&own->near[slot], u);
            own->near_mask |= 1u << slot;
            return;
        }
    }
    if (t->wake_count == t->wake_capacity) {
        t->wake_capacity = t->wake_capacity ? 2 * t->wake_capacity : 256;
        t->wakes = gt_xrealloc(t->wakes, t->wake_capacity * sizeof *t->wakes);
    }
    t->wakes[t->wake_count++] = (struct pending_wake){ u, cycle };
}

void sim_schedule_from(struct sim *sim, struct sim_thread *t, struct unit *u, uint64_t cycle)
{
    if (!sim->parallel_phase)
        sim_schedule(sim, u, cycle);
    else
        schedule_parallel(sim, t, u, cycle);
}

void sim_note_popped(struct sim_thread *t, struct channel *ch)
{
    if (sim_note_popped_in_room(t, ch))
        return;
    t->popped_capacity = t->popped_capacity ? 2 * t->popped_capacity : 64;
    t->popped = gt_xrealloc(t->popped, t->popped_capacity * sizeof *t->popped);
    sim_note_popped_in_room(t, ch);
}

static void __attribute__((noinline, cold)) commit_from_commit(struct unit *u)
{
    sim_log(u->sim, SIM_LOG_ERROR, u->name, "edge commit asked for from an edge commit: not run");
}

void unit_request_edge_commit(struct unit *u)
{
    if (u->commit_requested)
        return;
    if (u->sim->in_edge_commits) {     /* a call's receiver (fabric/unit.h): a model bug */
        commit_from_commit(u);
        return;
    }
    u->commit_requested = true;
    unit_list_push(&sim_acting_thread(u->sim, u->host ? u->host : u)->commits, u);
}

/* The edge commits asked for in this edge's ticks (unit_request_edge_commit),
 * run one at a time in unit id order: the order is neither the tick order
 * (which the tick-order seed shuffles) nor the threads' (which depends on the
 * thread count and the partition), so what the commits do to shared memory
 * is the same on any number of threads. */
static void run_edge_commits(struct sim *sim)
{
    struct sim_thread *first = sim->threads[0];
    for (uint64_t m = sim->commit_threads; m; m &= m - 1) {   /* commit_phase */
        struct sim_thread *t = sim->threads[__builtin_ctzll(m)];
        for (uint32_t k = 0; k < t->commits.count; k++)
            unit_list_push(&first->commits, t->commits.units[k]);
        t->commits.count = 0;
    }
    sim->commit_threads = 0;
    struct unit **list = first->commits.units;
    uint32_t n = first->commits.count;
    /* Units woken together tick in the reverse of the order their wakes were
     * asked for, often unit order when asked from the commits: a list in
     * strictly descending order is reversed, which sorts it. */
    bool descending = n > 1;
    for (uint32_t i = 1; i < n && descending; i++)
        descending = list[i - 1]->id > list[i]->id;
    for (uint32_t i = 0; descending && i < n / 2; i++) {
        struct unit *u = list[i];
        list[i] = list[n - 1 - i];
        list[n - 1 - i] = u;
    }
    for (uint32_t i = 1; i < n; i++) {      /* insertion sort: a handful a edge */
        struct unit *u = list[i];
        uint32_t j = i;
        while (j > 0 && list[j - 1]->id > u->id) {
            list[j] = list[j - 1];
            j--;
        }
        list[j] = u;
    }
    sim->in_edge_commits = true;       /* port_call's condition */
    for (uint32_t i = 0; i < n; i++) {
        list[i]->commit_requested = false;
        if (list[i]->ops->edge_commit)
            list[i]->ops->edge_commit(list[i]);
    }
    sim->in_edge_commits = false;
    first->commits.count = 0;
}

struct sim_thread *sim_calling_thread(struct sim *sim)
{
    if (!sim->parallel_phase)
        return sim->threads[0];
    struct sim_thread *t = pthread_getspecific(sim->thread_key);
    return t ? t : sim->threads[0];
}

void unit_wake_at(struct unit *u, uint64_t cycle)
{
    struct sim *sim = u->sim;
    sim_schedule_from(sim, sim_acting_thread(sim, u), u->host ? u->host : u, cycle);
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
    sim_note_progress(u->sim, sim_acting_thread(u->sim, u));
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


/* ---- host threads -------------------------------------------------------- */

void sim_set_threads(struct sim *sim, uint32_t n)
{
    if (sim->thread_count > 1)
        return;             /* the workers are made: fixed from the first run on */
    if (n < 1)
        n = 1;
    if (n > SIM_MAX_THREADS)
        n = SIM_MAX_THREADS;
    sim->threads_wanted = n;
}

uint32_t sim_threads(const struct sim *sim) { return sim->thread_count; }
uint64_t sim_parallel_edges(const struct sim *sim) { return sim->parallel_edges; }

uint32_t sim_host_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > (long)SIM_MAX_THREADS ? SIM_MAX_THREADS : (uint32_t)n;
}

static uint64_t host_ns(void);

/* A host time stamp for sim_set_thread_timing, which reads one before and
 * after every unit tick: the x86 time-stamp counter where there is one,
 * else host_ns(). With clock_gettime a 2-thread SGEMM 256 GT3 run with
 * --thread-report took 22% longer than one without, with the counter 13%
 * (medians of 4 interleaved runs), so the report's times are that much
 * nearer the run they describe.
 * sim_thread_report converts with the two clocks' ratio over the timed
 * runs (stamps_to_ns). */
static inline uint64_t host_stamp(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    return host_ns();
#endif
}

/* host_stamp() when sim_set_thread_timing asked for it, else 0 (no read). */
static inline uint64_t host_stamp_if(bool timing)
{
    return __builtin_expect(timing, 0) ? host_stamp() : 0;
}

/* Ticks u, timing the tick when sim_set_thread_timing asked for it. */
static inline enum unit_activity tick_unit(struct sim *sim, struct unit *u)
{
    if (__builtin_expect(!sim->thread_timing, 1))
        return u->ops->tick(u);
    uint64_t start = host_stamp();
    enum unit_activity activity = u->ops->tick(u);
    u->tick_stamps += host_stamp() - start;
    return activity;
}

/* Ticks thread t's share of the current edge (a parallel phase): the units
 * thread 0 handed it (sim->handoff: from the wheel), then its own due list
 * and near wakes, which it alone writes (struct clock_domain.due). A unit
 * listed twice ticks once (its ready stamp, which only its own thread
 * writes in a parallel phase). Ends by filling in t->done for the join. */
static void tick_share(struct sim *sim, struct sim_thread *t)
{
    struct clock_domain *d = sim->domains[sim->phase_domain];
    uint64_t stamp = d->cycle + 1;
    const struct unit_list *handed = &sim->handoff[t->index].list;
    for (uint32_t k = 0; k < handed->count; k++)
        unit_list_push(&t->ready, handed->units[k]);
    struct due_list *mine = &d->due[t->index];
    struct unit_list *own = &mine->list;
    for (uint32_t k = own->count; k-- > 0; )
        unit_list_push(&t->ready, own->units[k]);
    own->count = 0;
    struct unit_list *near = near_take(mine, d->cycle);
    if (near) {
        for (uint32_t k = 0; k < near->count; k++)
            unit_list_push(&t->ready, near->units[k]);
        near->count = 0;
    }
    uint64_t ticked = 0;
    for (uint32_t i = 0; i < t->ready.count; i++) {
        struct unit *u = t->ready.units[i];
        if (!sim->phase_stamped) {
            if (u->ready_stamp == stamp)
                continue;
            u->ready_stamp = stamp;
        }
        ticked++;
        count_tick(t, u);
        if (tick_unit(sim, u) == UNIT_BUSY) {
            count_busy_tick(t, u);
            own_due_push(d, mine, u);   /* cycle + 1, unless a wake listed it */
        }
    }
    t->ready.count = 0;
    /* The channels it popped whose sender is one of its own units in this
     * domain are flushed here rather than by thread 0 after the join
     * (flush_popped): no other thread reads their head_start, and their
     * sender has had its tick of this step, so this is what the flush at
     * the step's end would do. Thread 0 writing them had to take each
     * channel's line from this thread's cache and hand it back. */
    uint32_t kept = 0;
    for (uint32_t c = 0; c < t->popped_count; c++) {
        struct channel *ch = t->popped[c];
        struct unit *sender = ch->from ? ch->from->owner : NULL;
        if (!sender || sender->thread != t->index || sender->domain != sim->phase_domain) {
            t->popped[kept++] = ch;
            continue;
        }
        ch->head_start = ch->head;
        ch->popped_listed = false;
        if (ch->sender_waiting) {
            ch->sender_waiting = false;
            unit_list_push(own, sender); /* its first edge after now: cycle + 1 */
        }
    }
    t->popped_count = kept;
    uint32_t flags = 0;
    if (t->wake_count)
        flags |= THREAD_DONE_WAKES;
    if (kept)
        flags |= THREAD_DONE_POPPED;
    if (t->commits.count)
        flags |= THREAD_DONE_COMMITS;
    if (t->index && msg_pools_unbalanced(sim, t))
        flags |= THREAD_DONE_POOLS;
    if (t->progress) {
        flags |= THREAD_DONE_PROGRESS;
        t->progress = false;
    }
    t->done.flags = flags;
    t->done.ticked = ticked;
    t->done.messages_live = t->messages_live;
}

void sim_set_thread_timing(struct sim *sim, bool on) { sim->thread_timing = on; }
uint64_t sim_barriers(const struct sim *sim) { return sim->parallel_edges; }
uint64_t sim_serial_edges(const struct sim *sim) { return sim->serial_edges; }

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *worker_main(void *argument)
{
    struct sim_thread *t = argument;
    struct sim *sim = t->sim;
    pthread_setspecific(sim->thread_key, t);
    uint64_t seen = 0;
    for (;;) {
        /* Spin a little, then yield, then sleep: the host may be loaded. */
        uint64_t g = 0;
        for (uint32_t spin = 0; spin < 4000; spin++) {
            g = __atomic_load_n(&sim->phase_generation, __ATOMIC_ACQUIRE);
            if (g != seen)
                break;
            cpu_relax();
        }
        for (uint32_t yields = 0; g == seen && yields < 200; yields++) {
            sched_yield();
            g = __atomic_load_n(&sim->phase_generation, __ATOMIC_ACQUIRE);
        }
        if (g == seen) {
            pthread_mutex_lock(&sim->lock);
            __atomic_add_fetch(&sim->sleepers, 1, __ATOMIC_SEQ_CST);
            while ((g = __atomic_load_n(&sim->phase_generation, __ATOMIC_SEQ_CST)) == seen)
                pthread_cond_wait(&sim->wake_workers, &sim->lock);
            __atomic_sub_fetch(&sim->sleepers, 1, __ATOMIC_SEQ_CST);
            pthread_mutex_unlock(&sim->lock);
        }
        seen = g;
        if (sim->shutdown)
            break;
        if (__builtin_expect(sim->thread_timing, 0)) {
            uint64_t start = host_stamp();
            t->start_lag_stamps += start - __atomic_load_n(&sim->release_stamp, __ATOMIC_RELAXED);
            tick_share(sim, t);
            uint64_t end = host_stamp();
            t->share_stamps += end - start;
            t->done.end_stamp = end;    /* before the release of `generation` below */
        } else {
            tick_share(sim, t);
        }
        __atomic_store_n(&t->done.generation, g, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void release_workers(struct sim *sim)
{
    __atomic_add_fetch(&sim->phase_generation, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&sim->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&sim->lock);
        pthread_cond_broadcast(&sim->wake_workers);
        pthread_mutex_unlock(&sim->lock);
    }
}

static void stop_workers(struct sim *sim)
{
    bool any = false;
    for (uint32_t i = 1; i < sim->thread_count; i++)
        any |= sim->threads[i]->started;
    if (!any)
        return;
    sim->shutdown = true;
    release_workers(sim);
    for (uint32_t i = 1; i < sim->thread_count; i++)
        if (sim->threads[i]->started) {
            pthread_join(sim->threads[i]->handle, NULL);
            sim->threads[i]->started = false;
        }
    sim->shutdown = false;
}

/* Applies the wakes thread t kept in a parallel phase (struct sim_thread),
 * in the order asked. While the workers still tick (`others_ticking`), a
 * wake of another thread's unit is kept for later: it could go to the due
 * list that thread is adding to. */
static void commit_wakes(struct sim *sim, struct sim_thread *t, bool others_ticking)
{
    uint32_t kept = 0;
    for (uint32_t w = 0; w < t->wake_count; w++) {
        struct pending_wake *p = &t->wakes[w];
        if (others_ticking && p->unit->thread != t->index)
            t->wakes[kept++] = *p;
        else
            sim_schedule(sim, p->unit, p->cycle);
    }
    t->wake_count = kept;
}

/* Applies what the threads of a parallel phase kept, in thread order, after
 * the wakes of thread 0's that parallel_edge committed while the workers
 * ticked. A worker's lists are read only when its t->done says they hold
 * something. */
static void commit_phase(struct sim *sim)
{
    commit_wakes(sim, sim->threads[0], false);      /* the wakes it kept */
    uint64_t unbalanced = 0;
    bool progress = sim->threads[0]->done.flags & THREAD_DONE_PROGRESS;
    for (uint32_t i = 1; i < sim->thread_count; i++) {
        struct sim_thread *t = sim->threads[i];
        uint32_t flags = t->done.flags;
        if (flags & THREAD_DONE_WAKES)
            commit_wakes(sim, t, false);
        if (flags & THREAD_DONE_POPPED)
            sim->flush_threads |= UINT64_C(1) << i;
        if (flags & THREAD_DONE_COMMITS)
            sim->commit_threads |= UINT64_C(1) << i;
        if (flags & THREAD_DONE_POOLS)
            unbalanced |= UINT64_C(1) << i;
        progress |= flags & THREAD_DONE_PROGRESS;
    }
    if (progress)
        sim->last_progress_ps = sim->now_ps;
    msg_pools_balance(sim, unbalanced);
}

/* Ticks the current edge on every thread at once (process_domain_edge has
 * put each thread's units from the wheel in its ready list; each takes its
 * own due list itself), and commits. Returns the units ticked. */
static uint64_t parallel_edge(struct sim *sim)
{
    sim->parallel_edges++;
    sim->parallel_phase = true;
    bool timing = sim->thread_timing;
    uint64_t mark[5];
    mark[0] = host_stamp_if(timing);
    if (__builtin_expect(timing, 0))   /* ordered by the release */
        __atomic_store_n(&sim->release_stamp, mark[0], __ATOMIC_RELAXED);
    release_workers(sim);
    tick_share(sim, sim->threads[0]);
    mark[1] = host_stamp_if(timing);
    /* Thread 0's share of the commit goes first in thread order, so it can
     * be applied while the workers still tick: it writes only the domain
     * wheels, the wake pool, its own units' scheduling lines and due lists
     * and the totals in struct sim, none of which a worker's tick reads or
     * writes during a parallel phase (its wakes and totals go to its own
     * struct sim_thread; commit_thread keeps wakes of the workers' units
     * for later). parallel_phase stays set until the workers are done: they
     * read it. */
    commit_wakes(sim, sim->threads[0], true);
    mark[2] = host_stamp_if(timing);
    uint64_t generation = sim->phase_generation;    /* release_workers' (this thread's) */
    for (uint32_t i = 1; i < sim->thread_count; i++) {
        const uint64_t *done = &sim->threads[i]->done.generation;
        for (uint32_t spin = 0; __atomic_load_n(done, __ATOMIC_ACQUIRE) != generation; spin++) {
            if (spin < 4000)
                cpu_relax();
            else
                sched_yield();
        }
    }
    mark[3] = host_stamp_if(timing);
    sim->parallel_phase = false;
    commit_phase(sim);
    if (__builtin_expect(timing, 0)) {
        mark[4] = host_stamp();
        struct edge_timing *e = &sim->edge_timing;
        e->ticks_stamps += mark[1] - mark[0];
        e->own_commit_stamps += mark[2] - mark[1];
        e->wait_stamps += mark[3] - mark[2];
        e->join_commit_stamps += mark[4] - mark[3];
        uint64_t last = 0;              /* the last worker's end of ticks */
        for (uint32_t i = 1; i < sim->thread_count; i++)
            if (sim->threads[i]->done.end_stamp > last)
                last = sim->threads[i]->done.end_stamp;
        uint64_t seen = last > mark[2] ? last : mark[2];
        e->uneven_stamps += seen - mark[2];
        e->handover_stamps += mark[3] > seen ? mark[3] - seen : 0;
    }
    uint64_t ticked = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++)
        ticked += sim->threads[i]->done.ticked;
    return ticked;
}

static uint64_t host_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}


/* Whether to tick this edge in parallel, chosen by host time: threads that
 * share cores with other work (a loaded host) can make every edge's
 * hand-over cost more than the ticks it shares out. Alternately times
 * ADAPT_WINDOW edges ticked in parallel and ADAPT_WINDOW ticked on this
 * thread (host ns per unit tick, each edge timed from its start to the start
 * of the next edge: a serial edge's channels are committed after it returns,
 * a parallel one's inside parallel_edge, and timing only the call made the
 * serial edge look cheaper than it is), then runs the faster way for a while
 * (longer each time one thread keeps winning). Results never depend on the
 * choice. Asked only of edges with units on more than one thread; the
 * caller reports what the edge ticked with adaptive_sample(). */
static bool adaptive_choose(struct sim *sim)
{
    struct sim_adapt *a = &sim->adapt;
    uint64_t start = 0;
    if (a->phase != 2) {
        start = host_ns();
        if (a->timing) {                /* the edge before this one, to now */
            a->ns[a->timing_mode] += start - a->timing_start;
            a->ticks[a->timing_mode] += a->timing_ticks;
            a->timing = false;
            a->timed_edges[a->timing_mode]++;
            if (a->left == 0) {
                if (a->phase == 0) {
                    a->phase = 1;
                    a->left = ADAPT_WINDOW + ADAPT_WARMUP;
                } else {
                    /* compare ns per tick: parallel wins if clearly faster */
                    bool was = a->use_parallel;
                    a->use_parallel = (double)a->ns[0] * (double)a->ticks[1] <
                                      0.9 * (double)a->ns[1] * (double)a->ticks[0];
                    if (!a->decisions)
                        a->exploit = ADAPT_EXPLOIT_FIRST;
                    else if (a->use_parallel != was || a->exploit < ADAPT_EXPLOIT_MIN)
                        a->exploit = ADAPT_EXPLOIT_MIN;     /* also after a work change: 0 */
                    else if (a->exploit < ADAPT_EXPLOIT_MAX)
                        a->exploit *= 2;
                    a->decisions++;
                    a->phase = 2;
                    a->left = a->exploit;
                    uint64_t edges = a->timed_edges[0] + a->timed_edges[1];
                    a->block_reference = edges ? (a->ticks[0] + a->ticks[1]) * ADAPT_BLOCK / edges
                                               : 0;
                    a->block_ticks = 0;
                    a->block_edges = 0;
                }
            }
        }
    }
    if (a->phase == 2) {
        if (a->left) {
            a->left--;
            a->block_pending = true;
            return a->use_parallel;
        }
        a->phase = 0;
        a->left = ADAPT_WINDOW + ADAPT_WARMUP;
        a->ns[0] = a->ns[1] = a->ticks[0] = a->ticks[1] = 0;
        a->timed_edges[0] = a->timed_edges[1] = 0;
        start = host_ns();
    }
    a->sample_pending = true;
    a->timing_mode = a->phase;          /* 0: timing parallel, 1: timing serial */
    a->timing_start = start;
    return a->phase == 0;
}

/* The edge adaptive_choose() chose a mode for ticked `ticks` units. */
static void adaptive_sample(struct sim *sim, uint64_t ticks)
{
    struct sim_adapt *a = &sim->adapt;
    if (a->block_pending) {
        /* phase 2: a block of edges whose work differs from the timed
         * windows' by ADAPT_CHANGE times or more ends it */
        a->block_pending = false;
        a->block_ticks += ticks;
        if (++a->block_edges == ADAPT_BLOCK) {
            if (a->block_reference && (a->block_ticks >= ADAPT_CHANGE * a->block_reference ||
                                       a->block_ticks * ADAPT_CHANGE <= a->block_reference)) {
                a->left = 0;
                a->exploit = 0;         /* the next winner starts at ADAPT_EXPLOIT_MIN */
                a->work_changes++;
            }
            a->block_ticks = 0;
            a->block_edges = 0;
        }
        return;
    }
    if (!a->sample_pending)
        return;
    a->sample_pending = false;
    a->timing = a->left <= ADAPT_WINDOW;    /* past the warm-up */
    a->timing_ticks = ticks;
    a->left--;
}

/* Every channel popped in this step (or by hand since the last one): its
 * sender's view of the space catches up (head_start), and a sender that
 * found it full is woken on its first edge after now, as port_pop() does on
 * one thread. */
static void flush_popped(struct sim *sim)
{
    /* thread 0's list, and the workers' that kept some (commit_phase) */
    uint64_t threads = sim->flush_threads | 1u;
    sim->flush_threads = 0;
    for (; threads; threads &= threads - 1) {
        struct sim_thread *t = sim->threads[__builtin_ctzll(threads)];
        for (uint32_t c = 0; c < t->popped_count; c++) {
            struct channel *ch = t->popped[c];
            ch->head_start = ch->head;
            ch->popped_listed = false;
            if (ch->sender_waiting && ch->from) {
                ch->sender_waiting = false;
                struct unit *sender = ch->from->owner;
                sim_schedule(sim, sender, sim_domain_cycle_after(sim, sender->domain, sim->now_ps));
            }
        }
        t->popped_count = 0;
    }
}

/* Where a unit's name says it sits: the part up to its last "subsliceN" or
 * "sliceN" component (length), or with `slices` up to its "sliceN"
 * component; 0 for the unslice. */
static size_t partition_key(const char *name, bool slices)
{
    size_t key = 0;
    for (const char *c = name; *c; ) {
        const char *end = strchr(c, '.');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        size_t stem = 0;
        if (n > 8 && strncmp(c, "subslice", 8) == 0 && !slices)
            stem = 8;
        else if (n > 5 && strncmp(c, "slice", 5) == 0)
            stem = 5;
        if (stem) {
            size_t d = stem;
            while (d < n && c[d] >= '0' && c[d] <= '9')
                d++;
            if (d == n)
                key = (size_t)(c - name) + n;
        }
        if (!end)
            break;
        c = end + 1;
    }
    return key;
}

/* What a unit costs per cycle, roughly: host instructions per simulated
 * cycle in a callgrind profile of SGEMM 256 on GT2 (about 800 per EU, 3000
 * per data port, 4500 per L3 slice, next to tens for the rest). The data
 * port and the L3 were weighed as 1 like the rest, which put both of GT3's
 * L3 slices on the same thread as three subslices. */
static uint32_t partition_weight(const struct unit *u)
{
    static const struct { const char *kind; uint32_t weight; } weights[] = {
        { "eu", 8 }, { "dataport", 30 }, { "l3", 45 },
    };
    for (size_t i = 0; i < sizeof weights / sizeof weights[0]; i++)
        if (strcmp(u->ops->kind, weights[i].kind) == 0)
            return weights[i].weight;
    return 1;
}

/* The partition weights before issue 19's second helper (speed19b): an EU
 * 8, every other unit 1. Kept for sim_thread_report's comparison. */
static uint32_t partition_weight_eu_only(const struct unit *u)
{
    return strcmp(u->ops->kind, "eu") == 0 ? 8 : 1;
}

/* Groups units that share a slice/subslice prefix (with `slices`, a slice
 * prefix): group[i] for unit i (UINT32_MAX: the unslice), first[g] the
 * first unit of group g. Returns the number of groups. */
static uint32_t partition_groups(const struct sim *sim, uint32_t *group, uint32_t *first,
                                 bool slices)
{
    uint32_t groups = 0;
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        struct unit *u = sim->units[i];
        size_t key = partition_key(u->name, slices);
        if (key == 0) {
            group[i] = UINT32_MAX;
            continue;
        }
        uint32_t g = 0;
        while (g < groups && !(strlen(sim->units[first[g]]->name) >= key &&
                               partition_key(sim->units[first[g]]->name, slices) == key &&
                               strncmp(sim->units[first[g]]->name, u->name, key) == 0))
            g++;
        if (g == groups)
            first[groups++] = i;
        group[i] = g;
    }
    return groups;
}

/* Gives every group a thread (owner[g]): heaviest first, each to the least
 * loaded thread by `weight_of`; the unslice stays on thread 0. Returns the
 * threads that got work. */
static uint32_t partition_assign(const struct sim *sim, uint32_t threads, const uint32_t *group,
                                 uint32_t groups, uint32_t (*weight_of)(const struct unit *),
                                 uint32_t *owner)
{
    uint64_t *weight = gt_xcalloc(groups ? groups : 1, sizeof *weight);
    uint64_t unslice = 0;
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        if (group[i] == UINT32_MAX)
            unslice += weight_of(sim->units[i]);
        else
            weight[group[i]] += weight_of(sim->units[i]);
    }
    uint64_t load[SIM_MAX_THREADS] = { 0 };
    load[0] = unslice;
    bool *placed = gt_xcalloc(groups ? groups : 1, sizeof *placed);
    uint32_t used = 1;
    for (uint32_t k = 0; k < groups; k++) {
        uint32_t heaviest = UINT32_MAX;
        for (uint32_t g = 0; g < groups; g++)
            if (!placed[g] && (heaviest == UINT32_MAX || weight[g] > weight[heaviest]))
                heaviest = g;
        uint32_t best = 0;
        for (uint32_t t = 1; t < threads; t++)
            if (load[t] < load[best])
                best = t;
        placed[heaviest] = true;
        owner[heaviest] = best;
        load[best] += weight[heaviest];
        if (best + 1 > used)
            used = best + 1;
    }
    free(weight);
    free(placed);
    return used;
}

/* Evens out whole groups' split: while moving one EU from the most to the
 * least loaded thread lowers the most loaded thread's weight, moves it. A
 * machine whose groups do not divide evenly among the threads (GT2: three
 * subslices and the slice's L3 on two threads, 43.5% and 56.5% of the host
 * time of SGEMM 256's ticks) then splits one subslice's EUs, until the
 * threads' weights are within 5% of the whole. Any split gives
 * the same results: units meet only through channels, whose effects a
 * parallel edge commits in thread order (struct sim_thread); only the host
 * time changes (an EU and its subslice's units on two threads share the
 * channels' cache lines). GT3's six subslices and two slices split evenly
 * by groups: no EU moves there. */
static void partition_move_eus(struct sim *sim, uint32_t threads)
{
    uint64_t load[SIM_MAX_THREADS] = { 0 }, total = 0;
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        load[sim->units[i]->thread] += partition_weight(sim->units[i]);
        total += partition_weight(sim->units[i]);
    }
    for (;;) {
        uint32_t most = 0, least = 0;
        for (uint32_t t = 1; t < threads; t++) {
            if (load[t] > load[most])
                most = t;
            if (load[t] < load[least])
                least = t;
        }
        if (20 * (load[most] - load[least]) <= total)
            return;     /* within 5% of the whole: not worth more shared channels */
        struct unit *moved = NULL;
        for (uint32_t i = sim->unit_count; i-- > 0 && !moved; ) {
            struct unit *u = sim->units[i];
            uint32_t w = partition_weight(u);
            if (u->thread == most && strcmp(u->ops->kind, "eu") == 0 && !u->inner && !u->host &&
                load[least] + w < load[most])
                moved = u;
        }
        if (!moved)
            return;
        uint32_t w = partition_weight(moved);
        moved->thread = least;
        load[most] -= w;
        load[least] += w;
    }
}

/* Whether the split in `owner` loads `threads` threads within 5% of an even
 * share each (partition_weight). */
static bool partition_even(const struct sim *sim, uint32_t threads, const uint32_t *group,
                           const uint32_t *owner)
{
    uint64_t load[SIM_MAX_THREADS] = { 0 }, total = 0, most = 0;
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        uint32_t w = partition_weight(sim->units[i]);
        load[group[i] == UINT32_MAX ? 0 : owner[group[i]]] += w;
        total += w;
    }
    for (uint32_t t = 0; t < threads; t++)
        if (load[t] > most)
            most = load[t];
    return 100 * most * threads <= 105 * total;
}

/* Assigns every unit a thread (struct unit.thread). Whole slices (a slice's
 * units and all its subslices) when they share out evenly: a subslice
 * talks to its slice's L3 on every memory message, and on GT3 at 2 threads
 * keeping each slice on one thread (no channel between a subslice and its
 * L3 crosses threads) was 4.5% faster than subslices split 3:3 across the
 * slices (SGEMM 256, median of 8 adjacent pairs of runs). Otherwise groups
 * of units that share a slice/subslice prefix go, heaviest first, to the
 * least loaded thread, and partition_move_eus evens out the rest. The
 * unslice stays on thread 0. Returns the threads that got work. */
static uint32_t sim_partition(struct sim *sim, uint32_t threads)
{
    uint32_t n = sim->unit_count;
    uint32_t *group = gt_xcalloc(n ? n : 1, sizeof *group);
    uint32_t *first = gt_xcalloc(n ? n : 1, sizeof *first);
    uint32_t *owner = gt_xcalloc(n ? n : 1, sizeof *owner);
    uint32_t groups = partition_groups(sim, group, first, true);
    uint32_t used = partition_assign(sim, threads, group, groups, partition_weight, owner);
    bool by_slice = used == threads && partition_even(sim, threads, group, owner);
    if (!by_slice) {
        groups = partition_groups(sim, group, first, false);
        used = partition_assign(sim, threads, group, groups, partition_weight, owner);
    }
    for (uint32_t i = 0; i < n; i++)
        sim->units[i]->thread = group[i] == UINT32_MAX ? 0 : owner[group[i]];
    if (used > 1 && !by_slice)
        partition_move_eus(sim, used);
    for (uint32_t i = 0; i < n; i++) {
        struct unit *u = sim->units[i];
        if (u->inner)
            u->inner->thread = u->thread;
    }
    free(group);
    free(first);
    free(owner);
    return used;
}

/* ns per host_stamp(), from both clocks over the timed runs; 1 when none
 * was timed (or the stamps are ns). */
static double stamps_to_ns(const struct sim *sim)
{
    return sim->timed_stamps && sim->timed_ns ? (double)sim->timed_ns / (double)sim->timed_stamps
                                              : 1.0;
}

void sim_thread_report(const struct sim *sim, FILE *out)
{
    uint32_t n = sim->unit_count, threads = sim->thread_count;
    uint64_t cycles = sim->domain_count ? sim->now_ps / sim->domains[0]->period_ps : 0;
    fprintf(out, "  threads      %u; %" PRIu64 " barriers (edges ticked in parallel), %.2f per %s "
            "cycle; %" PRIu64 " edges ticked on one thread\n", threads, sim->parallel_edges,
            cycles ? (double)sim->parallel_edges / (double)cycles : 0.0,
            sim->domain_count ? sim->domains[0]->name : "-", sim->serial_edges);
    if (threads < 2)
        return;
    double ns = stamps_to_ns(sim);
    if (sim->thread_timing && sim->parallel_edges) {
        /* where a parallel edge's host time goes: a worker's start lag is
         * mostly the time the release's cache line takes to reach its core
         * (bench_sgemm prints the host's round trip) */
        double per_edge = ns / (double)sim->parallel_edges, lag = 0, share = 0;
        for (uint32_t t = 1; t < threads; t++) {
            lag += (double)sim->threads[t]->start_lag_stamps;
            share += (double)sim->threads[t]->share_stamps;
        }
        const struct edge_timing *e = &sim->edge_timing;
        fprintf(out, "  per parallel edge (host ns, mean; clock reads add some): the workers "
                "start %.0f after the release and tick for %.0f; thread 0 ticks for %.0f, "
                "commits its wakes in %.0f, waits %.0f for the workers (%.0f while one still "
                "ticks: the edge's work split unevenly; %.0f for the hand-over), then commits "
                "theirs in %.0f\n", lag * per_edge / (threads - 1),
                share * per_edge / (threads - 1), (double)e->ticks_stamps * per_edge,
                (double)e->own_commit_stamps * per_edge, (double)e->wait_stamps * per_edge,
                (double)e->uneven_stamps * per_edge, (double)e->handover_stamps * per_edge,
                (double)e->join_commit_stamps * per_edge);
    }
    uint32_t *group = gt_xcalloc(n ? n : 1, sizeof *group);
    uint32_t *first = gt_xcalloc(n ? n : 1, sizeof *first);
    uint32_t *owner = gt_xcalloc(n ? n : 1, sizeof *owner);
    uint32_t groups = partition_groups(sim, group, first, false);
    uint64_t *group_stamps = gt_xcalloc(groups + 1, sizeof *group_stamps);
    uint64_t *group_ticks = gt_xcalloc(groups + 1, sizeof *group_ticks);
    uint64_t total_stamps = 0, total_ticks = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t g = group[i] == UINT32_MAX ? groups : group[i];
        uint64_t ticks = unit_tick_count(sim, sim->units[i], false);
        group_stamps[g] += sim->units[i]->tick_stamps;
        group_ticks[g] += ticks;
        total_stamps += sim->units[i]->tick_stamps;
        total_ticks += ticks;
    }
    const char *what = total_stamps ? "host time of its ticks" : "ticks (no timing asked)";
    /* the split in use, and the one the earlier weights (EU 8, others 1) gave */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            for (uint32_t g = 0; g < groups; g++)
                owner[g] = sim->units[first[g]]->thread;
        } else {
            partition_assign(sim, threads, group, groups, partition_weight_eu_only, owner);
        }
        uint64_t work[SIM_MAX_THREADS] = { 0 };
        if (pass == 0) {    /* by unit: partition_move_eus may split a group */
            for (uint32_t i = 0; i < n; i++)
                work[sim->units[i]->thread] +=
                    total_stamps ? sim->units[i]->tick_stamps
                                 : unit_tick_count(sim, sim->units[i], false);
        } else {
            work[0] = total_stamps ? group_stamps[groups] : group_ticks[groups];
            for (uint32_t g = 0; g < groups; g++)
                work[owner[g]] += total_stamps ? group_stamps[g] : group_ticks[g];
        }
        uint64_t total = total_stamps ? total_stamps : total_ticks, most = 0;
        fprintf(out, "  %s: %s per thread", pass == 0 ? "partition in use"
                                                       : "with the weights before speed19b (EU 8, others 1)",
                what);
        for (uint32_t t = 0; t < threads; t++) {
            fprintf(out, "%s %.1f%%", t ? "," : "", total ? 100.0 * (double)work[t] / (double)total : 0.0);
            if (work[t] > most)
                most = work[t];
        }
        fprintf(out, "; best 2-thread speed-up this split allows %.2fx\n",
                most ? (double)total / (double)most : 0.0);
        if (pass == 0)
            for (uint32_t g = 0; g <= groups; g++) {
                const char *name = g < groups ? sim->units[first[g]]->name : "(unslice)";
                int key = g < groups ? (int)partition_key(name, false) : (int)strlen(name);
                uint32_t moved = 0;     /* its EUs partition_move_eus put elsewhere */
                for (uint32_t i = 0; g < groups && i < n; i++)
                    moved += group[i] == g && sim->units[i]->thread != owner[g];
                fprintf(out, "    %-24.*s thread %u: %" PRIu64 " ticks, %.3f s", key, name,
                        g < groups ? owner[g] : 0, group_ticks[g],
                        (double)group_stamps[g] * ns / 1e9);
                if (moved)
                    fprintf(out, " (%u of its units on another thread)", moved);
                fputc('\n', out);
            }
    }
    free(group);
    free(first);
    free(owner);
    free(group_stamps);
    free(group_ticks);
}

/* Whether this run may tick in parallel: no trace, no port observers, no
 * co-simulated (inner) units, whose hosts' libraries need not be safe to
 * run on several threads. */
static bool parallel_safe(const struct sim *sim)
{
    if (sim->trace)
        return false;
    for (uint32_t i = 0; i < sim->unit_count; i++) {
        const struct unit *u = sim->units[i];
        if (u->inner || u->host)
            return false;
        for (const struct port *p = u->ports; p; p = p->next_in_unit)
            if (p->observer_count)
                return false;
    }
    return true;
}

/* Every thread's tick_counts has room for every unit (units may have been
 * added since the last run). */
static void size_tick_counts(struct sim *sim)
{
    for (uint32_t i = 0; i < sim->thread_count; i++) {
        struct sim_thread *t = sim->threads[i];
        if (t->tick_count_units >= sim->unit_count)
            continue;
        t->tick_counts = gt_xrealloc(t->tick_counts,
                                     2 * (size_t)sim->unit_count * sizeof *t->tick_counts);
        memset(t->tick_counts + 2 * (size_t)t->tick_count_units, 0,
               2 * (size_t)(sim->unit_count - t->tick_count_units) * sizeof *t->tick_counts);
        t->tick_count_units = sim->unit_count;
    }
}

uint64_t unit_tick_count(const struct sim *sim, const struct unit *u, bool busy)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++) {
        const struct sim_thread *t = sim->threads[i];
        if (u->id < t->tick_count_units)
            n += t->tick_counts[2 * (size_t)u->id + busy];
    }
    return n;
}

/* Marks each unit some input of which another host thread may send on in a
 * parallel phase: a sender ticked by another thread (a backdoor's receiver is
 * marked when its channel is made, port.c). Its queued bits then change
 * atomically in a parallel phase (port.c queued_set). Again at every run, as
 * links may be made between runs. */
static void mark_shared_inputs(struct sim *sim)
{
    for (uint32_t i = 0; i < sim->channel_count; i++) {
        struct channel *ch = sim->channels[i];
        if (ch->from && ch->from->owner->thread != ch->receiver->thread)
            ch->receiver->queued_shared = true;
    }
}

/* Makes the worker threads sim_set_threads() asked for, once. */
static void start_threads(struct sim *sim)
{
    sim->parallel_allowed = false;
    if (sim->threads_wanted <= 1 || !parallel_safe(sim))
        return;
    if (sim->thread_count == 1) {
        uint32_t used = sim_partition(sim, sim->threads_wanted);
        if (used <= 1)
            return;
        if (!sim->thread_key_made) {
            if (pthread_key_create(&sim->thread_key, NULL) != 0)
                return;
            sim->thread_key_made = true;
        }
        sim->threads = gt_xrealloc(sim->threads, used * sizeof *sim->threads);
        for (uint32_t i = 1; i < used; i++) {
            struct sim_thread *t = gt_xaligned_calloc(64, sizeof *t);
            t->sim = sim;
            t->index = i;
            sim->threads[i] = t;
        }
        sim->thread_count = used;
        sim->handoff = gt_xaligned_calloc(64, used * sizeof *sim->handoff);
        pthread_setspecific(sim->thread_key, sim->threads[0]);
    }
    for (uint32_t i = 1; i < sim->thread_count; i++) {
        struct sim_thread *t = sim->threads[i];
        if (!t->started && pthread_create(&t->handle, NULL, worker_main, t) == 0)
            t->started = true;
        if (!t->started)
            return;     /* no thread: stay on one (sim_log would need the sim) */
    }
    mark_shared_inputs(sim);
    sim->parallel_allowed = true;
    sim->adapt = (struct sim_adapt){ .phase = 0, .left = ADAPT_WINDOW + ADAPT_WARMUP };
}

/* Puts wheel wake w, taken from d's slot, back in the pool; returns the next
 * wake of its slot's list. */
static inline struct wake *wake_release(struct sim *sim, struct clock_domain *d, struct wake *w)
{
    struct wake *next = w->next;
    w->next = sim->free_wakes;
    sim->free_wakes = w;
    d->wheel_count--;
    return next;
}

static inline void ready_push_once(struct sim *sim, struct unit *u, uint64_t cycle)
{
    if (u->ready_stamp != cycle + 1) {
        u->ready_stamp = cycle + 1;
        unit_list_push(&sim->ready, u);
    }
}

/* The units of `list` into sim->ready, each once (newest first, or in the
 * order listed); empties it. */
static inline __attribute__((always_inline)) void gather_list(struct sim *sim,
                                                             struct unit_list *list,
                                                             bool newest_first, uint64_t cycle)
{
    if (newest_first)
        for (uint32_t k = list->count; k-- > 0; )
            ready_push_once(sim, list->units[k], cycle);
    else
        for (uint32_t k = 0; k < list->count; k++)
            ready_push_once(sim, list->units[k], cycle);
    list->count = 0;
}

/* Thread t's due list (newest first) and near wakes of `cycle` into
 * sim->ready, each once; empties them. */
static inline void gather_due(struct sim *sim, struct clock_domain *d, uint32_t t, uint64_t cycle)
{
    gather_list(sim, &d->due[t].list, true, cycle);
    struct unit_list *near = near_take(&d->due[t], cycle);
    if (near)
        gather_list(sim, near, false, cycle);
}

/* The edge's units into sim->ready, each once: the due lists (for this
 * cycle: next_unprocessed was `cycle`), newest first, and the near wakes,
 * then the wheel's list w (see struct clock_domain.due). */
static void gather_ready(struct sim *sim, struct clock_domain *d, struct wake *w, uint64_t cycle)
{
    for (uint32_t t = 0; t < sim->thread_count; t++)
        gather_due(sim, d, t, cycle);
    for (; w; w = wake_release(sim, d, w))
        ready_push_once(sim, w->unit, cycle);
}

/* An edge handed out to the threads but ticked on this one after all: its
 * units into sim->ready, each once. */
static void gather_handed(struct sim *sim, struct clock_domain *d, uint64_t cycle)
{
    for (uint32_t t = 0; t < sim->thread_count; t++) {
        gather_due(sim, d, t, cycle);
        gather_list(sim, &sim->handoff[t].list, false, cycle);
    }
}

/* msg_live() between edges, from the workers' t->done: a worker's count
 * changes only in a parallel phase, at whose end it fills that in. */
static int64_t edge_messages_live(const struct sim *sim)
{
    int64_t live = sim->threads[0]->messages_live;
    for (uint32_t i = 1; i < sim->thread_count; i++)
        live += sim->threads[i]->done.messages_live;
    return live;
}

static void process_domain_edge(struct sim *sim, uint32_t domain, uint64_t cycle)
{
    struct clock_domain *d = sim->domains[domain];
    sim->phase_domain = domain;
    d->cycle = cycle;
    d->next_unprocessed = cycle + 1;
    d->edges++;
    uint32_t slot = (uint32_t)(cycle & WHEEL_MASK);
    struct wake *w = d->slots[slot];
    d->slots[slot] = NULL;
    d->occupied[slot >> 6] &= ~(1ull << (slot & 63));
    sim->ready.count = 0;
    /* With workers and no shuffled order, the wheel's units go straight to
     * their threads' handoff lists and each thread takes its own due list
     * and near wakes itself (tick_share): thread 0 no longer reads the
     * workers' lists. Not while the chooser keeps to serial edges: then the
     * units go to the ready list as on one thread (the hand-off lists cost
     * ~2% of SGEMM 256 GT2 on 2 threads where serial wins). */
    bool handed = sim->parallel_allowed && !sim->options.tick_order_seed &&
                  (sim->adapt.phase != 2 || sim->adapt.use_parallel ||
                   sim->options.parallel_every_edge);
    uint32_t busy_threads = 0;
    if (handed) {
        for (; w; w = wake_release(sim, d, w))
            unit_list_push(&sim->handoff[w->unit->thread].list, w->unit);
        for (uint32_t t = 0; t < sim->thread_count; t++)
            busy_threads += sim->handoff[t].list.count || d->due[t].list.count ||
                            (d->due[t].near_mask & (1u << (cycle % DUE_NEAR_SLOTS)));
    } else {
        gather_ready(sim, d, w, cycle);
        struct unit **ready = sim->ready.units;
        if (sim->options.tick_order_seed && sim->ready.count > 1) {
            for (uint32_t i = sim->ready.count - 1; i > 0; i--) {
                uint32_t j = (uint32_t)(shuffle_next(sim) % (i + 1));
                struct unit *t = ready[i];
                ready[i] = ready[j];
                ready[j] = t;
            }
        }
        if (sim->parallel_allowed && sim->ready.count > 1) {
            busy_threads = 1;
            for (uint32_t i = 1; i < sim->ready.count; i++)
                if (ready[i]->thread != ready[0]->thread)
                    busy_threads = 2;
        }
    }
    migrate_overflow(d);
    if (busy_threads > 1 && (sim->options.parallel_every_edge || adaptive_choose(sim))) {
        sim->phase_stamped = !handed;   /* gather_ready stamped them */
        for (uint32_t i = 0; i < sim->ready.count; i++)
            unit_list_push(&sim->handoff[sim->ready.units[i]->thread].list, sim->ready.units[i]);
        uint64_t ticked = parallel_edge(sim);
        for (uint32_t t = 0; t < sim->thread_count; t++)
            if (sim->handoff[t].list.count)
                sim->handoff[t].list.count = 0;
        sim->ticks += ticked;
        adaptive_sample(sim, ticked);
    } else {
        if (handed)
            gather_handed(sim, d, cycle);
        sim->ticks += sim->ready.count;
        sim->serial_edges++;
        for (uint32_t i = 0; i < sim->ready.count; i++) {
            struct unit *u = sim->ready.units[i];
            count_tick(sim->threads[0], u);
            if (sim->trace)
                trace_unit_tick(sim->trace, sim, u, cycle);
            if (tick_unit(sim, u) == UNIT_BUSY) {
                count_busy_tick(sim->threads[0], u);
                due_push(d, u);     /* cycle + 1, not yet processed (u is in d) */
            }
        }
        adaptive_sample(sim, sim->ready.count);
    }
    if (__builtin_expect(sim->threads[0]->commits.count != 0 || sim->commit_threads != 0, 0))
        run_edge_commits(sim);
    /* The peak of live messages, taken where it does not depend on the
     * order of the ticks or on the thread count. */
    int64_t live = edge_messages_live(sim);
    if (live > 0 && (uint64_t)live > sim->messages_peak)
        sim->messages_peak = (uint64_t)live;
}

/* The earliest time (ps) any domain has work, or UINT64_MAX. Each domain's
 * next cycle is kept for step_at(), which then needs no division. */
static uint64_t next_event_time(struct sim *sim)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        struct clock_domain *d = sim->domains[i];
        uint64_t c = domain_next_cycle(sim, d);
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
    flush_popped(sim);          /* pops made by hand since the last step */
    sim->now_ps = t;
    sim->steps++;
    sim->in_step = true;
    for (uint32_t i = 0; i < sim->domain_count; i++) {
        struct clock_domain *d = sim->domains[i];
        if (d->pending_time != t)
            continue;
        uint64_t cycle = d->pending_cycle;
        /* A wake from the overflow heap lands in the wheel once the window
         * reaches it: move the window to this edge first. */
        d->next_unprocessed = cycle;
        migrate_overflow(d);
        process_domain_edge(sim, i, cycle);
    }
    flush_popped(sim);
    sim->in_step = false;
    return true;
}

bool sim_step(struct sim *sim)
{
    uint64_t t = next_event_time(sim);
    if (t == UINT64_MAX)
        return false;
    size_tick_counts(sim);
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
        const struct msg *oldest = ch->ring[ch->head & ch->mask].msg;
        append_report(&r, &len, &cap,
                      "  channel %s -> %s: %u/%u messages (oldest #%" PRIu64 " %s, visible since "
                      "cycle %" PRIu64 ")\n",
                      from, to, occupancy, ch->link.capacity, oldest->id,
                      msg_kind_name(oldest->kind), ch->ring[ch->head & ch->mask].arrival);
        append_report(&r, &len, &cap, "    waiting to receive: %s (last ticked at cycle %" PRIu64
                      ", %" PRIu64 " ticks)\n", ch->to->owner->name,
                      ch->to->owner->ready_stamp ? ch->to->owner->ready_stamp - 1 : 0,
                      unit_tick_count(sim, ch->to->owner, false));
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
    start_threads(sim);
    size_tick_counts(sim);
    uint64_t timed_from_stamp = host_stamp_if(sim->thread_timing);
    uint64_t timed_from_ns = sim->thread_timing ? host_ns() : 0;
    for (;;) {
        if (__atomic_load_n(&sim->stop_requested, __ATOMIC_RELAXED)) {
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
    if (sim->thread_timing) {
        sim->timed_stamps += host_stamp() - timed_from_stamp;
        sim->timed_ns += host_ns() - timed_from_ns;
    }
    if (sim->trace)
        trace_flush_units(sim->trace, sim);
    if (sim->stop_reason == SIM_STOP_DEADLOCK)
        sim_log(sim, SIM_LOG_ERROR, "watchdog", "%s", sim->deadlock_report);
    return sim->stop_reason;
}

void sim_request_stop(struct sim *sim) { __atomic_store_n(&sim->stop_requested, true, __ATOMIC_RELAXED); }
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
    /* each thread counts what the units it ticks do (thread 0: every serial tick) */
    out->messages_sent = out->messages_delivered = out->stalls = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++) {
        const struct sim_thread *t = sim->threads[i];
        out->messages_sent += t->messages_sent;
        out->messages_delivered += t->messages_delivered;
        out->stalls += t->stalls;
    }
    int64_t live = msg_live(sim);
    out->messages_live = live > 0 ? (uint64_t)live : 0;
    out->messages_peak = sim->messages_peak;
    out->pool_bytes = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++)
        out->pool_bytes += sim->threads[i]->pool_bytes;
}

/* ---- log ----------------------------------------------------------------- */

static const char *const level_names[] = { "error", "warning", "note", "debug" };

void sim_log(struct sim *sim, int level, const char *who, const char *fmt, ...)
{
    if (level < 0)
        level = 0;
    if (level > SIM_LOG_DEBUG)
        level = SIM_LOG_DEBUG;
    bool locked = sim->parallel_phase;  /* units on several threads may log at once */
    if (locked)
        pthread_mutex_lock(&sim->lock);
    sim->log_counts[level]++;
    if (level > sim->options.log_level) {
        if (locked)
            pthread_mutex_unlock(&sim->lock);
        return;
    }
    FILE *f = sim->options.log_file ? sim->options.log_file : stderr;
    fprintf(f, "gtsim: %s: %s: ", level_names[level], who);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    size_t n = strlen(fmt);
    if (n == 0 || fmt[n - 1] != '\n')
        fputc('\n', f);
    if (locked)
        pthread_mutex_unlock(&sim->lock);
}

uint64_t sim_undeclared_sends(const struct sim *sim)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++)
        n += sim->threads[i]->undeclared_sends;
    return n;
}

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

void *sim_shared(struct sim *sim, const char *name, void *(*create)(void),
                 void (*destroy)(void *object))
{
    pthread_mutex_lock(&sim->lock);
    void *object = NULL;
    for (uint32_t i = 0; i < sim->shared_count && !object; i++)
        if (strcmp(sim->shared[i].name, name) == 0)
            object = sim->shared[i].object;
    if (!object) {
        assert(strlen(name) < sizeof sim->shared->name);
        object = create();
        sim->shared = gt_xrealloc(sim->shared, (sim->shared_count + 1) * sizeof *sim->shared);
        struct sim_shared_object *o = &sim->shared[sim->shared_count++];
        snprintf(o->name, sizeof o->name, "%s", name);
        o->object = object;
        o->destroy = destroy;
    }
    pthread_mutex_unlock(&sim->lock);
    return object;
}
