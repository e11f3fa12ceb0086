/* units/icache/icache.c - the subslice instruction cache; see icache.h. */
#include "units/icache/icache.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "units/l3/l3.h"

#define IC_MAX_MISS_ENTRIES 256
#define IC_MAX_WAYS 64

struct waiter {
    uint64_t address;
    uint32_t eu, tag;
};

/* One miss in flight: the line, and every request waiting for its fill. */
struct miss_entry {
    bool used;
    bool sent;                  /* its memory request has gone out */
    uint64_t line;              /* address / 64 */
    uint64_t fill_due;          /* with no memory linked: the cycle it fills */
    struct waiter *waiters;
    uint32_t waiter_count, waiter_capacity;
};

struct way {
    uint64_t line_plus1;        /* 0: invalid */
    uint64_t last_use;          /* LRU stamp */
};

/* What a queued reply says (its message is made when the channel can take it). */
struct reply {
    uint64_t address;
    uint32_t tag;
    bool hit;
};

struct icache {
    /* params */
    uint32_t size_kib, ways, hit_latency, miss_latency, lookups_per_cycle, miss_entry_count;
    /* ports */
    struct port **eu, **eu_reply;
    uint32_t eus, eu_replies;
    struct port *memory, *memory_reply;
    bool memory_linked;
    /* state */
    uint32_t sets;
    struct way *tags;           /* sets x ways */
    uint64_t use_clock;
    struct miss_entry entries[IC_MAX_MISS_ENTRIES];
    uint32_t entries_used;
    uint32_t *send_queue;       /* miss entries whose memory request waits for the port */
    uint32_t send_head, send_count;
    struct reply_queue replies; /* struct reply by (due, issue order), to eu_reply[eu] */
    uint32_t next_port;
    bool *port_blocked;         /* this cycle: its request found no free miss entry */
    /* stats */
    uint64_t requests, hits, misses, merged_misses, memory_requests, fills, evictions;
    uint64_t stall_bandwidth, stall_miss_entries, stall_reply, stall_memory, bad_messages;
};

static const struct param_desc icache_params[] = {
    PARAM_U32_FIELD("size_kib", struct icache, size_kib, 48, 1, 4096,
                    "capacity in KiB (64-byte lines). The seed gives no figure (notes/003-skl-"
                    "sharedfn-eu.md §14.17); 48 is the EU's former per-EU cache default"),
    PARAM_U32_FIELD("ways", struct icache, ways, 8, 1, IC_MAX_WAYS,
                    "ways per set (true LRU within a set); size_kib x 16 lines must divide by it"),
    PARAM_U32_FIELD("hit_latency", struct icache, hit_latency, 4, 0, 10000,
                    "cycles from a lookup that hits to its reply (no figure in the seed)"),
    PARAM_U32_FIELD("miss_latency", struct icache, miss_latency, 30, 0, 100000,
                    "cycles from a lookup that misses to its fill when \"memory\" is not linked"),
    PARAM_U32_FIELD("lookups_per_cycle", struct icache, lookups_per_cycle, 2, 1, 64,
                    "requests looked up per cycle, round-robin over the EU ports (bandwidth)"),
    PARAM_U32_FIELD("miss_entries", struct icache, miss_entry_count, 8, 1, IC_MAX_MISS_ENTRIES,
                    "lines missing at once; misses to a missing line merge into its entry"),
    PARAM_END
};

static const struct port_desc icache_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "line fetch requests (MSG_MEMORY_REQUEST, read) from each EU" },
    { .name = "eu_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "the replies (MSG_MEMORY_RESPONSE, same tag) to the EU of the same index" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "line reads for misses (MSG_MEMORY_REQUEST, read-only data) to the L3" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their replies (MSG_MEMORY_RESPONSE)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct icache, f, m, h)
static const struct stat_desc icache_stats[] = {
    C("requests", requests, "requests", "line fetch requests looked up"),
    C("hits", hits, "requests", "requests whose line was in the cache"),
    C("misses", misses, "requests", "requests whose line was not (merged ones included)"),
    C("merged_misses", merged_misses, "requests",
      "misses to a line already being fetched (no request of their own)"),
    C("memory_requests", memory_requests, "lines", "line reads sent to \"memory\""),
    C("fills", fills, "lines", "lines written into the cache"),
    C("evictions", evictions, "lines", "valid lines replaced by a fill"),
    C("stall.bandwidth", stall_bandwidth, "request-cycles",
      "requests left waiting because the cycle's lookups were used up"),
    C("stall.miss_entries", stall_miss_entries, "attempts",
      "lookups that missed with every miss entry in use (the request waits)"),
    C("stall.reply", stall_reply, "attempts", "replies held by a full channel to the EU"),
    C("stall.memory", stall_memory, "attempts", "memory requests held by a full channel"),
    C("bad_messages", bad_messages, "messages",
      "malformed or unexpected messages (other kinds, writes, unasked replies), dropped"),
    STAT_END
};
#undef C

/* ---- replies (fabric/reply_queue.h): by due cycle, then issue order; one refused by
 * a full channel holds the rest (the fabric wakes the unit when it frees up) ------------ */

static void reply_push(struct icache *s, uint64_t due, uint32_t eu, uint32_t tag,
                       uint64_t address, bool hit)
{
    reply_queue_push(&s->replies, due, eu, NULL, &(struct reply){ address, tag, hit });
}

/* The message of a reply, made once its channel can take it. */
static struct msg *make_reply(void *context, struct reply_queue_entry *e)
{
    const struct reply *r = reply_queue_data(e);
    struct msg *m = msg_alloc(unit_sim(context), MSG_MEMORY_RESPONSE, sizeof(struct memreply));
    struct memreply *a = (struct memreply *)m->payload;
    a->address = r->address;
    a->tag = r->tag;
    a->op = MEMREQ_READ;
    a->hit = r->hit;
    m->tag = r->tag;
    return m;
}

/* ---- tags and miss entries --------------------------------------------------------- */

static struct way *find_way(struct icache *s, uint64_t line)
{
    struct way *set = &s->tags[(line % s->sets) * s->ways];
    for (uint32_t w = 0; w < s->ways; w++)
        if (set[w].line_plus1 == line + 1)
            return &set[w];
    return NULL;
}

static void add_waiter(struct miss_entry *e, uint32_t eu, uint32_t tag, uint64_t address)
{
    if (e->waiter_count == e->waiter_capacity) {
        e->waiter_capacity = e->waiter_capacity ? e->waiter_capacity * 2 : 8;
        e->waiters = gt_xrealloc(e->waiters, e->waiter_capacity * sizeof *e->waiters);
    }
    e->waiters[e->waiter_count++] = (struct waiter){ address, eu, tag };
}

/* The line arrives: it takes an invalid way of its set or the least
 * recently used one, and every waiter is answered now. */
static void fill(struct icache *s, struct miss_entry *e, uint64_t now)
{
    struct way *set = &s->tags[(e->line % s->sets) * s->ways], *victim = &set[0];
    for (uint32_t w = 0; w < s->ways; w++) {
        if (!set[w].line_plus1) {
            victim = &set[w];
            break;
        }
        if (set[w].last_use < victim->last_use)
            victim = &set[w];
    }
    if (victim->line_plus1)
        s->evictions++;
    victim->line_plus1 = e->line + 1;
    victim->last_use = ++s->use_clock;
    s->fills++;
    for (uint32_t i = 0; i < e->waiter_count; i++)
        reply_push(s, now, e->waiters[i].eu, e->waiters[i].tag, e->waiters[i].address, false);
    e->waiter_count = 0;
    e->used = false;
    e->sent = false;
    s->entries_used--;
}

static void take_memory_replies(struct icache *s, struct unit *u, uint64_t now)
{
    struct msg *m;
    while ((m = port_pop(s->memory_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        struct miss_entry *e = m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof *r &&
                                       r->tag < s->miss_entry_count ? &s->entries[r->tag] : NULL;
        if (!e || !e->used || !e->sent || r->address / MEMREQ_LINE_BYTES != e->line) {
            s->bad_messages++;
            unit_log(u, SIM_LOG_NOTE, "unexpected %s message on memory_reply dropped",
                     msg_kind_name(m->kind));
        } else {
            fill(s, e, now);
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

static void send_memory_requests(struct icache *s, struct unit *u)
{
    while (s->send_count) {
        if (!port_can_send(s->memory)) {
            s->stall_memory++;
            return;
        }
        uint32_t i = s->send_queue[s->send_head];
        s->send_head = (s->send_head + 1) % s->miss_entry_count;
        s->send_count--;
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = s->entries[i].line * MEMREQ_LINE_BYTES;
        r->tag = i;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = MEMREQ_READ;
        r->target = MEMREQ_RO_DATA;      /* the RO(I/S/C/T) pool, seed 003 L18366-18384 */
        r->client = unit_id(u);
        m->tag = i;
        port_try_send(s->memory, m);
        s->entries[i].sent = true;
        s->memory_requests++;
    }
}

enum lookup_result { LOOKUP_DONE, LOOKUP_BLOCKED };

/* Looks one request up; LOOKUP_BLOCKED leaves it in its channel (a miss with
 * no free miss entry). */
static enum lookup_result lookup(struct icache *s, uint32_t eu, const struct memreq *q, uint64_t now)
{
    uint64_t line = q->address / MEMREQ_LINE_BYTES;
    struct way *w = find_way(s, line);
    if (w) {
        w->last_use = ++s->use_clock;
        s->requests++;
        s->hits++;
        reply_push(s, now + s->hit_latency, eu, q->tag, q->address, true);
        return LOOKUP_DONE;
    }
    struct miss_entry *free_entry = NULL;
    for (uint32_t i = 0; i < s->miss_entry_count; i++) {
        struct miss_entry *e = &s->entries[i];
        if (e->used && e->line == line) {
            add_waiter(e, eu, q->tag, q->address);
            s->requests++;
            s->misses++;
            s->merged_misses++;
            return LOOKUP_DONE;
        }
        if (!e->used && !free_entry)
            free_entry = e;
    }
    if (!free_entry) {
        s->stall_miss_entries++;
        return LOOKUP_BLOCKED;
    }
    free_entry->used = true;
    free_entry->sent = false;
    free_entry->line = line;
    add_waiter(free_entry, eu, q->tag, q->address);
    s->entries_used++;
    s->requests++;
    s->misses++;
    uint32_t index = (uint32_t)(free_entry - s->entries);
    if (s->memory_linked) {
        s->send_queue[(s->send_head + s->send_count) % s->miss_entry_count] = index;
        s->send_count++;
    } else {
        free_entry->fill_due = now + s->miss_latency;
    }
    return LOOKUP_DONE;
}

/* Takes up to lookups_per_cycle requests, one per EU port per round, starting
 * after the port served last. Returns true when requests are left for the
 * next cycle because the bandwidth was used up. */
static bool take_requests(struct icache *s, struct unit *u, uint64_t now)
{
    if (s->eus == 0)
        return false;
    memset(s->port_blocked, 0, s->eus * sizeof *s->port_blocked);
    uint32_t budget = s->lookups_per_cycle, last = UINT32_MAX;
    /* a message cannot arrive during the tick, so a port seen empty stays
     * empty: later rounds run only while some port had more than one */
    bool more = true;
    while (budget && more) {
        more = false;
        for (uint32_t k = 0; k < s->eus && budget; k++) {
            uint32_t p = (s->next_port + k) % s->eus;
            if (s->port_blocked[p])
                continue;
            struct msg *m = port_peek(s->eu[p]);
            if (!m)
                continue;
            const struct memreq *q = (const struct memreq *)m->payload;
            if (m->kind != MSG_MEMORY_REQUEST || m->size < sizeof *q || q->op != MEMREQ_READ) {
                /* instruction streams are read-only (seed 003 L19102) */
                port_pop(s->eu[p]);
                s->bad_messages++;
                unit_log(u, SIM_LOG_NOTE, "unexpected %s message on eu[%u] dropped",
                         msg_kind_name(m->kind), p);
                msg_free(unit_sim(u), m);
                more = true;
                continue;
            }
            if (lookup(s, p, q, now) == LOOKUP_BLOCKED) {
                s->port_blocked[p] = true;
                continue;
            }
            port_pop(s->eu[p]);
            msg_free(unit_sim(u), m);
            unit_progress(u);
            budget--;
            last = p;
            more = more || port_peek(s->eu[p]) != NULL;
        }
    }
    if (last != UINT32_MAX)
        s->next_port = (last + 1) % s->eus;
    if (budget)
        return false;
    uint64_t waiting = 0;
    for (uint32_t p = 0; p < s->eus; p++)
        if (!s->port_blocked[p] && port_peek(s->eu[p]))
            waiting++;
    s->stall_bandwidth += waiting;
    return waiting > 0;
}

/* ---- the unit ------------------------------------------------------------------------ */

static void icache_release(struct icache *s, struct sim *sim)
{
    free(s->tags);
    free(s->send_queue);
    reply_queue_free(&s->replies, sim);
    free(s->port_blocked);
    for (uint32_t i = 0; i < IC_MAX_MISS_ENTRIES; i++)
        free(s->entries[i].waiters);
    s->tags = NULL;
    s->send_queue = NULL;
    s->port_blocked = NULL;
    memset(s->entries, 0, sizeof s->entries);
}

static int icache_realize(struct unit *u, struct gt_error *err)
{
    struct icache *s = unit_state(u);
    uint32_t lines = s->size_kib * (1024 / MEMREQ_LINE_BYTES);
    if (lines % s->ways)
        return gt_error_set(err, "size_kib %u holds %u lines, which %u ways do not divide",
                            s->size_kib, lines, s->ways);
    s->memory = unit_port(u, "memory", 0);
    s->memory_reply = unit_port(u, "memory_reply", 0);
    s->memory_linked = port_is_bound(s->memory);
    if (s->memory_linked != port_is_bound(s->memory_reply))
        return gt_error_set(err, "\"memory\" and \"memory_reply\" are linked together or not at all");
    icache_release(s, unit_sim(u));
    s->sets = lines / s->ways;
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->eu_reply = unit_port_array(u, "eu_reply", &s->eu_replies);
    if (s->eu_replies > s->eus)
        return gt_error_set(err, "eu_reply[%u] is linked but eu[%u] is not", s->eu_replies - 1,
                            s->eu_replies - 1);
    s->port_blocked = gt_xcalloc(s->eus + 1, sizeof *s->port_blocked);
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .data_size = sizeof(struct reply), .order = REPLY_QUEUE_READY_THEN_INSERTION,
        .refusal = REPLY_QUEUE_STOP, .ports = s->eu_reply, .port_count = s->eu_replies,
        .stall_count = &s->stall_reply, .build = make_reply, .context = u });
    s->tags = gt_xcalloc((size_t)s->sets * s->ways, sizeof *s->tags);
    s->send_queue = gt_xcalloc(s->miss_entry_count, sizeof *s->send_queue);
    return 0;
}

static void icache_reset(struct unit *u)
{
    struct icache *s = unit_state(u);
    memset(s->tags, 0, (size_t)s->sets * s->ways * sizeof *s->tags);
    for (uint32_t i = 0; i < IC_MAX_MISS_ENTRIES; i++) {
        s->entries[i].used = s->entries[i].sent = false;
        s->entries[i].waiter_count = 0;
    }
    s->entries_used = 0;
    s->use_clock = 0;
    s->send_head = s->send_count = 0;
    reply_queue_clear(&s->replies, unit_sim(u));
    s->next_port = 0;
}

static enum unit_activity icache_tick(struct unit *u)
{
    struct icache *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    /* fills first: they answer their waiters and free miss entries this cycle */
    if (s->memory_linked) {
        take_memory_replies(s, u, now);
    } else if (s->entries_used) {
        for (uint32_t i = 0; i < s->miss_entry_count; i++)
            if (s->entries[i].used && s->entries[i].fill_due <= now)
                fill(s, &s->entries[i], now);
    }
    bool more = take_requests(s, u, now);
    if (s->send_count)
        send_memory_requests(s, u);
    reply_queue_send(&s->replies, u);       /* no eu_reply: dropped */
    /* a reply or memory request held by a full channel needs no tick: the
     * fabric wakes the unit when the channel frees up */
    reply_queue_wake(&s->replies, u);
    if (!s->memory_linked && s->entries_used) {
        uint64_t next = UINT64_MAX;
        for (uint32_t i = 0; i < s->miss_entry_count; i++)
            if (s->entries[i].used && s->entries[i].fill_due < next)
                next = s->entries[i].fill_due;
        unit_wake_at(u, next);
    }
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void icache_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct icache *s = unit_state(u);
    stats_emit(w, "hit_rate", s->requests ? (double)s->hits / (double)s->requests : 0.0, "ratio",
               "hits / requests");
}

static void icache_destroy(struct unit *u)
{
    icache_release(unit_state(u), unit_sim(u));
}

/* The run summary's figure (fabric/unit.h): hits over lookups, when EUs fetched
 * through an instruction cache. */
static const struct key_figure icache_key_figures[] = {
    { .label = "icache hit rate", .form = KEY_FIGURE_SHARE, .stat = "hits", .other = "requests",
      .flags = KEY_FIGURE_IF_ANY },
    KEY_FIGURE_END
};

const struct unit_ops icache_ops = {
    .kind = "icache",
    .help = "A subslice's instruction cache shared by its EUs (seed 003 L18408: an L3 read "
            "client, RO pool L18366-18384): size_kib in ways-way sets with LRU, 64-byte lines, "
            "hit_latency, lookups_per_cycle, miss entries that merge misses to one line from "
            "several EUs; misses go to \"memory\" (the slice's L3, read-only data) or take "
            "miss_latency when it is not linked. Sizes and latencies are modelling choices "
            "(the seed gives none).",
    .state_size = sizeof(struct icache),
    .params = icache_params,
    .ports = icache_ports,
    .stats = icache_stats,
    .key_figures = icache_key_figures,
    .realize = icache_realize,
    .reset = icache_reset,
    .tick = icache_tick,
    .stats_derived = icache_stats_derived,
    .destroy = icache_destroy,
};
