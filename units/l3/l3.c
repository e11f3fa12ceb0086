/* units/l3/l3.c - see l3.h. */
#include "units/l3/l3.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "fabric/port.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "units/common/mmio.h"

#define MAX_CLIENTS 64
#define SLM_KIB_PER_BANK 64u        /* "SLM-capable 64KB" per bank (003 notes §4.4-4.5) */

/* A request waiting in a bank queue or a miss entry. */
struct pending {
    struct msg *m;
    uint32_t client;                /* index of the port it came in on */
};

struct bank {
    uint64_t *tags;                 /* line number per set x way */
    uint8_t *valid, *dirty, *lru;   /* per set x way */
    struct pending *queue;          /* ring of bank_queue requests */
    uint32_t head, count;
    uint64_t busy_until;            /* atomics hold the bank */
};

struct miss {
    bool used;
    uint64_t line;
    struct pending *waiters;
    uint32_t count, capacity;
};

struct l3 {
    /* params */
    uint32_t size_kib, banks, cache_kib, urb_kib, slm_kib, way_kib;
    uint32_t clients, bank_queue, misses_max;
    uint32_t hit_latency, fill_latency, urb_latency, atomic_cycles, egress_depth;
    /* derived */
    uint32_t sets, ways, max_ways;
    uint32_t dc_ways, ro_ways;      /* of `ways`: laid out DC | Rest | RO */
    /* the partition in KiB (from the params, then from L3CNTLREG writes) */
    uint32_t part_urb, part_slm, part_dc, part_ro, part_rest;
    /* ports */
    struct port **client, **client_reply;
    uint64_t client_bit[MAX_CLIENTS];   /* port_queued_bit(client[c]) at realize */
    uint32_t client_replies;
    struct port *memory, *memory_reply, *cs;
    /* state */
    struct bank *bank;
    struct miss *miss;
    struct reply_queue replies;     /* the requests, turned into replies when due; the
                                       unit's bytes: the hit flag */
    struct msg **egress;            /* per client_reply port: a ring of egress_depth replies */
    uint32_t *egress_head, *egress_count;
    uint32_t egress_total;          /* replies in all egress queues (none: no port to visit) */
    uint64_t egress_nonempty;       /* bit p: egress queue p holds a reply (MAX_CLIENTS <= 64;
                                       issue 19: the send loop visits only these ports) */
    unsigned char *entry;           /* one reply_queue entry taken out */
    struct msg **to_memory;         /* FIFO of requests for memory */
    uint32_t to_memory_head, to_memory_count, to_memory_capacity;
    uint32_t next_client;
    /* stats */
    uint64_t reads, writes, atomics, hits, misses, merged_misses, evictions, writebacks;
    uint64_t urb_accesses, uncached, mshr_stalls, queue_cycles, reply_stalls, unexpected;
    uint64_t reprograms, programming_violations, rejected_programmings, ro_reads;
    uint64_t slm_unallocated;
};

static const struct param_desc l3_params[] = {
    PARAM_U32_FIELD("size_kib", struct l3, size_kib, 768, 64, 8192,
                    "L3 of the slice in KiB (GT2: 768, seed 003 L18866-18878)"),
    PARAM_U32_FIELD("banks", struct l3, banks, 4, 1, 64, "banks per slice (GT2: 4 of 192 KB)"),
    PARAM_U32_FIELD("cache_kib", struct l3, cache_kib, 384, 1, 8192,
                    "tagged cache part (DC + RO + Rest of the allocation tables)"),
    PARAM_U32_FIELD("urb_kib", struct l3, urb_kib, 384, 0, 8192, "URB partition"),
    PARAM_U32_FIELD("slm_kib", struct l3, slm_kib, 0, 0, 8192,
                    "SLM partition (256 when SLM is on: L18838)"),
    PARAM_U32_FIELD("way_kib", struct l3, way_kib, 2, 1, 64, "logical way size per bank"),
    PARAM_U32_FIELD("bank_queue", struct l3, bank_queue, 16, 1, 4096, "requests a bank queues"),
    PARAM_U32_FIELD("misses", struct l3, misses_max, 64, 1, 65536,
                    "lines missing at once (miss entries)"),
    PARAM_U32_FIELD("hit_latency", struct l3, hit_latency, 30, 1, 10000,
                    "cycles from a bank taking a request to its reply on a hit (model choice: "
                    "the seeds give no figure)"),
    PARAM_U32_FIELD("fill_latency", struct l3, fill_latency, 4, 1, 10000,
                    "cycles from a fill to the replies it releases"),
    PARAM_U32_FIELD("urb_latency", struct l3, urb_latency, 20, 1, 10000,
                    "cycles for URB and SLM accesses (no tag lookup)"),
    PARAM_U32_FIELD("atomic_cycles", struct l3, atomic_cycles, 2, 1, 1000,
                    "cycles an atomic holds its bank"),
    PARAM_U32_FIELD("egress_depth", struct l3, egress_depth, 4, 1, 64,
                    "replies each client's egress queue holds (the crossbar's output to one "
                    "client, L18307-18310; model choice: the seed gives no depth)"),
    PARAM_END
};

static const struct port_desc l3_ports[] = {
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPEN,
      .help = "MSG_MEMORY_REQUEST from a client" },
    { .name = "client_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "MSG_MEMORY_RESPONSE to the client of the same index" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .help = "misses and writebacks to LLC/DRAM" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .help = "fills from LLC/DRAM" },
    { .name = "cs", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO), .flags = PORT_OPTIONAL,
      .help = "MSG_MMIO CS_MMIO_WRITE of L3CNTLREG (0x7034) from the command streamer" },
    PORT_END
};

#define L3_STAT(n, f, m, h) STAT_COUNTER_FIELD(n, struct l3, f, m, h)
static const struct stat_desc l3_stats[] = {
    L3_STAT("reads", reads, "requests", "read requests"),
    L3_STAT("writes", writes, "requests", "write requests"),
    L3_STAT("atomics", atomics, "requests", "atomic requests"),
    L3_STAT("hits", hits, "requests", "cached requests found in the L3"),
    L3_STAT("misses", misses, "requests", "cached requests that went to memory"),
    L3_STAT("merged_misses", merged_misses, "requests",
            "misses to a line already being filled (no new memory request)"),
    L3_STAT("evictions", evictions, "lines", "lines replaced by fills"),
    L3_STAT("writebacks", writebacks, "lines", "dirty lines written back to memory"),
    L3_STAT("urb_accesses", urb_accesses, "requests", "URB and SLM requests"),
    L3_STAT("uncached", uncached, "requests", "requests passed straight to memory"),
    L3_STAT("mshr_stalls", mshr_stalls, "cycles", "bank cycles lost with every miss entry in use"),
    L3_STAT("queue_cycles", queue_cycles, "request-cycles",
            "cycles requests spent waiting in bank queues"),
    L3_STAT("reply_stalls", reply_stalls, "cycles", "cycles a reply waited for its port"),
    L3_STAT("unexpected", unexpected, "messages", "messages that were no memory request (dropped)"),
    STAT_END
};

/* ---- replies: by due cycle, equal ones in binary-heap order (the slice RTL,
 * rtl-cosim/rtl/l3_slice.sv, mirrors it: fabric/min_heap.h) ------------------------ */

static void schedule_reply(struct l3 *s, struct msg *m, uint32_t client, uint64_t due, bool hit)
{
    uint8_t hit_flag = hit;
    reply_queue_push(&s->replies, due, client, m, &hit_flag);
}

/* The crossbar ("Crossbars for data routing", "Ingress/Egress queues", seed 003
 * L18307-18310): due replies leave the heap in its order into their client's
 * egress queue (egress_depth replies); each egress queue sends on its own
 * port as many replies as the channel takes, so a client that cannot take a
 * reply this cycle holds back only its own replies. Only a full egress queue
 * holds the heap (and every reply behind it), until its channel makes room. A reply to a port that
 * is not linked is dropped. A cycle in which a reply waited (the heap for a
 * full egress queue, or an egress queue for its channel) counts one
 * reply_stall. The RTL adapter (rtl-cosim/l3_cosim.c) does the same around
 * the slice's heap. */
static void send_replies(struct l3 *s, struct unit *u, uint64_t now)
{
    bool waited = false, held;
    do {
        /* the due replies into their egress queues, in the heap's order */
        held = false;
        const struct reply_queue_entry *first;
        while ((first = reply_queue_first(&s->replies)) != NULL && first->ready <= now) {
            uint32_t port = first->port;
            bool linked = port < s->client_replies && port_is_bound(s->client_reply[port]);
            if (linked && s->egress_count[port] == s->egress_depth) {
                held = true;
                break;
            }
            reply_queue_take_ready(&s->replies, now, s->entry);
            struct reply_queue_entry *e = (struct reply_queue_entry *)(void *)s->entry;
            if (!linked) {
                msg_free(unit_sim(u), e->msg);
                continue;
            }
            struct msg *m = memreq_reply_build(NULL, e);
            s->egress[port * s->egress_depth +
                      (s->egress_head[port] + s->egress_count[port]++) % s->egress_depth] = m;
            s->egress_total++;
            s->egress_nonempty |= UINT64_C(1) << port;
        }
        /* each egress queue as far as its channel takes them */
        bool sent = false;
        /* the queues holding replies, lowest port first (the order of a visit to every port) */
        for (uint64_t pending = s->egress_nonempty; pending; pending &= pending - 1) {
            uint32_t port = (uint32_t)__builtin_ctzll(pending);
            while (s->egress_count[port]) {
                struct msg **slot = &s->egress[port * s->egress_depth + s->egress_head[port]];
                /* a refused send keeps the message (issue 19: asking port_can_send
                 * first judged every accepted send twice) */
                if (!port_try_send(s->client_reply[port], *slot)) {
                    waited = true;
                    break;
                }
                *slot = NULL;
                s->egress_head[port] = (s->egress_head[port] + 1) % s->egress_depth;
                if (!--s->egress_count[port])
                    s->egress_nonempty &= ~(UINT64_C(1) << port);
                s->egress_total--;
                sent = true;
            }
        }
        /* a held heap goes on while the egress queues make room (a wide channel) */
        if (held && !sent)
            waited = true;
        held = held && sent;
    } while (held);
    if (waited)
        s->reply_stalls++;
}

static bool egress_waiting(const struct l3 *s)
{
    return s->egress_total != 0;
}

/* ---- memory side ------------------------------------------------------------ */

static void to_memory(struct l3 *s, struct msg *m)
{
    if (s->to_memory_count == s->to_memory_capacity) {
        uint32_t capacity = s->to_memory_capacity ? 2 * s->to_memory_capacity : 64;
        struct msg **q = gt_xmalloc(capacity * sizeof *q);
        for (uint32_t i = 0; i < s->to_memory_count; i++)
            q[i] = s->to_memory[(s->to_memory_head + i) % s->to_memory_capacity];
        free(s->to_memory);
        s->to_memory = q;
        s->to_memory_head = 0;
        s->to_memory_capacity = capacity;
    }
    s->to_memory[(s->to_memory_head + s->to_memory_count++) % s->to_memory_capacity] = m;
}

static struct msg *memory_request(struct unit *u, uint64_t line, enum memreq_op op, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
    struct memreq *r = (struct memreq *)m->payload;
    r->address = line * MEMREQ_LINE_BYTES;
    r->bytes = MEMREQ_LINE_BYTES;
    r->op = (uint8_t)op;
    r->target = MEMREQ_DATA;
    r->client = unit_id(u);
    r->tag = tag;
    return m;
}

/* ---- tags -------------------------------------------------------------------- */

static uint32_t bank_of(const struct l3 *s, uint64_t line) { return (uint32_t)(line % s->banks); }
static uint32_t set_of(const struct l3 *s, uint64_t line)
{
    return (uint32_t)((line / s->banks) % s->sets);
}

/* The way holding `line` in its set, or -1. */
static int lookup(const struct l3 *s, const struct bank *b, uint64_t line)
{
    uint32_t base = set_of(s, line) * s->ways;
    for (uint32_t w = 0; w < s->ways; w++)
        if (b->valid[base + w] && b->tags[base + w] == line)
            return (int)w;
    return -1;
}

/* Gen9 1-bit LRU (L18561-18565, read as written): the victim is the first
 * way whose bit is 0, and its bit is set; when every bit is 1 they are all
 * cleared and way 0 is picked (and set). Hits do not update the bits (the
 * replacement state changes on fills only). */
static uint32_t victim(const struct l3 *s, struct bank *b, uint32_t set, uint32_t lo, uint32_t hi)
{
    uint8_t *bits = &b->lru[set * s->ways];
    for (uint32_t w = lo; w < hi; w++)
        if (!bits[w]) {
            bits[w] = 1;
            return w;
        }
    memset(bits + lo, 0, hi - lo);
    bits[lo] = 1;
    return lo;
}

/* Fills allocate in their pool's ways: R/W data in DC + Rest, read-only
 * data in Rest + RO (the ways are laid out DC | Rest | RO, so each pool is
 * one range; with the params' partition, all Rest, both are every way). The
 * 1-bit LRU runs over the pool's range. */
static void fill(struct l3 *s, struct unit *u, uint64_t line, bool dirty, bool ro)
{
    struct bank *b = &s->bank[bank_of(s, line)];
    uint32_t set = set_of(s, line);
    int existing = lookup(s, b, line);
    uint32_t lo = ro ? s->dc_ways : 0, hi = ro ? s->ways : s->ways - s->ro_ways;
    if (lo >= hi) {             /* a pool with no ways (a counted violation): any way */
        lo = 0;
        hi = s->ways;
    }
    uint32_t way = existing >= 0 ? (uint32_t)existing : victim(s, b, set, lo, hi);
    uint32_t i = set * s->ways + way;
    if (existing < 0 && b->valid[i]) {
        s->evictions++;
        if (b->dirty[i]) {
            s->writebacks++;
            to_memory(s, memory_request(u, b->tags[i], MEMREQ_WRITE, UINT32_MAX));
        }
    }
    b->tags[i] = line;
    b->valid[i] = 1;
    b->dirty[i] = dirty || (existing >= 0 && b->dirty[i]);
}

/* ---- the unit ---------------------------------------------------------------- */

static int l3_realize(struct unit *u, struct gt_error *err)
{
    struct l3 *s = unit_state(u);
    if (s->cache_kib + s->urb_kib + s->slm_kib > s->size_kib)
        return gt_error_set(err, "cache_kib %u + urb_kib %u + slm_kib %u exceed size_kib %u",
                            s->cache_kib, s->urb_kib, s->slm_kib, s->size_kib);
    if (s->cache_kib % (s->banks * s->way_kib))
        return gt_error_set(err, "cache_kib %u is not a whole number of %u KiB ways in each of "
                            "%u banks", s->cache_kib, s->way_kib, s->banks);
    s->sets = s->way_kib * 1024 / MEMREQ_LINE_BYTES;
    s->ways = s->cache_kib / s->banks / s->way_kib;
    s->dc_ways = s->ro_ways = 0;        /* the params' cache is all Rest */
    s->max_ways = s->size_kib / s->banks / s->way_kib;   /* room for any L3CNTLREG partition */
    s->part_urb = s->urb_kib;
    s->part_slm = s->slm_kib;
    s->part_dc = 0;
    s->part_ro = 0;
    s->part_rest = s->cache_kib;
    s->cs = unit_port(u, "cs", 0);     /* NULL in a wrapper without the port */
    if (s->cs && !port_is_bound(s->cs))
        s->cs = NULL;
    /* one client per link made to "client" (an open array) */
    s->client = unit_port_array(u, "client", &s->clients);
    s->client_reply = unit_port_array(u, "client_reply", &s->client_replies);
    if (s->clients > MAX_CLIENTS)
        return gt_error_set(err, "%u clients linked; at most %d", s->clients, MAX_CLIENTS);
    for (uint32_t c = 0; c < s->clients; c++)
        s->client_bit[c] = port_queued_bit(s->client[c]);
    if (s->client_replies > s->clients)
        return gt_error_set(err, "client_reply[%u] is linked but client[%u] is not",
                            s->client_replies - 1, s->client_replies - 1);
    s->memory = unit_port(u, "memory", 0);
    s->memory_reply = unit_port(u, "memory_reply", 0);
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .data_size = sizeof(uint8_t), .order = REPLY_QUEUE_READY_HEAP_TIES,
        .refusal = REPLY_QUEUE_STOP, .ports = s->client_reply, .port_count = s->client_replies,
        .stall_count = &s->reply_stalls, .build = memreq_reply_build });
    /* the egress queues (send_replies takes the due replies out of the heap) */
    s->egress = gt_xcalloc((size_t)s->client_replies * s->egress_depth + 1, sizeof *s->egress);
    s->egress_head = gt_xcalloc(s->client_replies + 1, sizeof *s->egress_head);
    s->egress_count = gt_xcalloc(s->client_replies + 1, sizeof *s->egress_count);
    s->entry = gt_xmalloc(reply_queue_entry_size(&s->replies));
    s->bank = gt_xcalloc(s->banks, sizeof *s->bank);
    size_t lines = (size_t)s->sets * s->max_ways;
    for (uint32_t i = 0; i < s->banks; i++) {
        s->bank[i].tags = gt_xcalloc(lines, sizeof(uint64_t));
        s->bank[i].valid = gt_xcalloc(lines, 1);
        s->bank[i].dirty = gt_xcalloc(lines, 1);
        s->bank[i].lru = gt_xcalloc(lines, 1);
        s->bank[i].queue = gt_xcalloc(s->bank_queue, sizeof(struct pending));
    }
    s->miss = gt_xcalloc(s->misses_max, sizeof *s->miss);
    return 0;
}

static struct miss *find_miss(struct l3 *s, uint64_t line, bool allocate)
{
    struct miss *free_entry = NULL;
    for (uint32_t i = 0; i < s->misses_max; i++) {
        if (s->miss[i].used && s->miss[i].line == line)
            return &s->miss[i];
        if (!s->miss[i].used && !free_entry)
            free_entry = &s->miss[i];
    }
    if (!allocate || !free_entry)
        return NULL;
    free_entry->used = true;
    free_entry->line = line;
    free_entry->count = 0;
    return free_entry;
}

static void add_waiter(struct miss *x, struct pending p)
{
    if (x->count == x->capacity) {
        x->capacity = x->capacity ? 2 * x->capacity : 4;
        x->waiters = gt_xrealloc(x->waiters, x->capacity * sizeof *x->waiters);
    }
    x->waiters[x->count++] = p;
}

/* Fills from memory release the requests waiting on the line. */
static void take_fills(struct l3 *s, struct unit *u, uint64_t now)
{
    struct msg *m;
    while ((m = port_pop(s->memory_reply))) {
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof(struct memreply)) {
            s->unexpected++;
            msg_free(unit_sim(u), m);
            continue;
        }
        const struct memreply *r = (const struct memreply *)m->payload;
        uint64_t line = r->address / MEMREQ_LINE_BYTES;
        struct miss *x = r->tag == UINT32_MAX ? NULL : find_miss(s, line, false);
        msg_free(unit_sim(u), m);
        if (!x)
            continue;               /* a writeback's completion, or an uncached reply's */
        bool dirty = false, cached = false, ro = true;
        for (uint32_t i = 0; i < x->count; i++) {
            const struct memreq *q = (const struct memreq *)x->waiters[i].m->payload;
            if (q->target == MEMREQ_UNCACHED)
                continue;
            cached = true;
            dirty |= q->op != MEMREQ_READ;
            ro &= q->target == MEMREQ_RO_DATA;
        }
        if (cached)
            fill(s, u, line, dirty, ro);
        for (uint32_t i = 0; i < x->count; i++)
            schedule_reply(s, x->waiters[i].m, x->waiters[i].client, now + s->fill_latency, false);
        x->used = false;
        x->count = 0;
    }
}

/* Requests from the clients go into their line's bank queue (round-robin
 * over the clients; a full bank queue leaves the request in its channel). */
static void take_requests(struct l3 *s, struct unit *u, uint64_t queued)
{
    for (uint32_t k = 0, c = s->next_client; k < s->clients; k++, c = c + 1 == s->clients ? 0 : c + 1) {
        if (!(queued & s->client_bit[c]))
            continue;   /* nothing in its channel: the poll would find nothing */
        struct msg *m;
        while ((m = port_peek(s->client[c]))) {
            if (m->kind != MSG_MEMORY_REQUEST || m->size < sizeof(struct memreq)) {
                port_pop(s->client[c]);
                s->unexpected++;
                msg_free(unit_sim(u), m);
                continue;
            }
            const struct memreq *q = (const struct memreq *)m->payload;
            struct bank *b = &s->bank[bank_of(s, q->address / MEMREQ_LINE_BYTES)];
            if (b->count == s->bank_queue)
                break;
            port_pop(s->client[c]);
            b->queue[(b->head + b->count++) % s->bank_queue] = (struct pending){ m, c };
        }
    }
    s->next_client = (s->next_client + 1) % s->clients;
}

/* One request per bank per cycle. */
static void serve_banks(struct l3 *s, struct unit *u, uint64_t now)
{
    for (uint32_t i = 0; i < s->banks; i++) {
        struct bank *b = &s->bank[i];
        if (b->count > 1)
            s->queue_cycles += b->count - 1;
        if (!b->count || now < b->busy_until)
            continue;
        struct pending p = b->queue[b->head];
        const struct memreq *q = (const struct memreq *)p.m->payload;
        uint64_t line = q->address / MEMREQ_LINE_BYTES;
        if (q->target == MEMREQ_URB || q->target == MEMREQ_SLM) {
            s->urb_accesses++;
            if (q->target == MEMREQ_SLM && s->part_slm == 0)
                s->slm_unallocated++;       /* SLM used with SLM Enable clear */
            schedule_reply(s, p.m, p.client, now + s->urb_latency, true);
        } else if (q->target == MEMREQ_UNCACHED) {
            struct miss *x = find_miss(s, line, true);
            if (!x) {
                s->mshr_stalls++;
                continue;
            }
            s->uncached++;
            if (x->count == 0)
                to_memory(s, memory_request(u, line, (enum memreq_op)q->op, 0));
            add_waiter(x, p);
        } else {
            int way = lookup(s, b, line);
            struct miss *x = way < 0 ? find_miss(s, line, true) : NULL;
            if (way < 0 && !x) {
                s->mshr_stalls++;
                continue;               /* the bank waits for a miss entry */
            }
            if (q->target == MEMREQ_RO_DATA)
                s->ro_reads++;          /* one pool with DC and Rest here */
            if (q->op == MEMREQ_READ)
                s->reads++;
            else if (q->op == MEMREQ_WRITE)
                s->writes++;
            else {
                s->atomics++;
                b->busy_until = now + s->atomic_cycles;
            }
            if (way >= 0) {
                s->hits++;
                if (q->op != MEMREQ_READ)
                    b->dirty[set_of(s, line) * s->ways + (uint32_t)way] = 1;
                schedule_reply(s, p.m, p.client, now + s->hit_latency, true);
            } else {
                s->misses++;
                if (x->count == 0)
                    to_memory(s, memory_request(u, line, MEMREQ_READ, 0));
                else
                    s->merged_misses++;
                add_waiter(x, p);
            }
        }
        b->head = (b->head + 1) % s->bank_queue;
        b->count--;
    }
}

static void send_memory(struct l3 *s)
{
    while (s->to_memory_count && port_try_send(s->memory, s->to_memory[s->to_memory_head])) {
        s->to_memory_head = (s->to_memory_head + 1) % s->to_memory_capacity;
        s->to_memory_count--;
    }
}

/* L3CNTLREG (Gen8/Gen9 genxml: 0 SLM Enable, 7:1 URB Allocation, 17:11 RO
 * Allocation, 24:18 DC Allocation, 31:25 All Allocation, in ways; the
 * default 0x60000060 is URB 48 + All 48 = 96 ways of 2 KB in 4 banks = 768 KB,
 * the GT2 row {URB 384, Rest 384}: 003 notes §4.5). SLM, when enabled, is
 * the 64 KB per bank the allocation tables give it. The rules (L18834-18911)
 * are checked and each broken one counted; a write whose ways do not add up
 * to the L3, or that leaves no cache, is not applied. The L3 must be empty
 * when it is reprogrammed (L18855-18858): dirty lines are written back and
 * every line is invalidated. */
void l3_partition_decode(uint32_t value, uint32_t banks, uint32_t way_kib, uint32_t max_ways,
                         struct l3_partition *out)
{
    struct l3_partition p = { 0 };
    p.slm_ways = (value & 1) ? SLM_KIB_PER_BANK / way_kib : 0;
    p.urb = (value >> 1) & 0x7F;
    p.ro = (value >> 11) & 0x7F;
    p.dc = (value >> 18) & 0x7F;
    p.all = (value >> 25) & 0x7F;
    uint32_t slice_way_kib = way_kib * banks;           /* one way across the banks */
    uint32_t step_kib = 4 * banks, max_kib = 128 * banks, rw_min_kib = 32 * banks;
    bool sum_ok = p.slm_ways + p.urb + p.ro + p.dc + p.all == max_ways;
    p.violations += !sum_ok;                            /* "All L3 ways have to be included" */
    p.violations += p.dc && p.dc * slice_way_kib < rw_min_kib;  /* R/W 0 or >= 128 KB (GT2) */
    p.violations += p.all && p.all * slice_way_kib < rw_min_kib;
    p.violations += !p.all && !p.ro;                    /* Rest = 0 implies RO != 0 */
    const uint32_t parts[4] = { p.urb, p.all, p.dc, p.ro };  /* 0 to 512 KB in 16 KB steps (GT2) */
    for (int i = 0; i < 4; i++)
        p.violations += parts[i] * slice_way_kib > max_kib ||
                        (parts[i] * slice_way_kib) % step_kib;
    uint32_t cache_ways = p.ro + p.dc + p.all;
    p.apply = sum_ok && cache_ways != 0;
    if (p.apply) {
        p.ways = cache_ways;
        p.dc_ways = p.dc;
        p.ro_ways = p.ro;
        p.slm_kib = p.slm_ways * slice_way_kib;
        p.urb_kib = p.urb * slice_way_kib;
        p.ro_kib = p.ro * slice_way_kib;
        p.dc_kib = p.dc * slice_way_kib;
        p.rest_kib = p.all * slice_way_kib;
    }
    *out = p;
}

static void program(struct l3 *s, struct unit *u, uint32_t value)
{
    struct l3_partition p;
    l3_partition_decode(value, s->banks, s->way_kib, s->max_ways, &p);
    s->programming_violations += p.violations;
    if (p.violations)
        unit_log(u, SIM_LOG_WARNING, "L3CNTLREG 0x%08x breaks %u programming rule(s) (SLM %u, "
                 "URB %u, RO %u, DC %u, All %u ways of %u)", value, p.violations,
                 p.slm_ways, p.urb, p.ro, p.dc, p.all, s->max_ways);
    if (!p.apply) {
        s->rejected_programmings++;
        return;
    }
    for (uint32_t i = 0; i < s->banks; i++) {
        struct bank *b = &s->bank[i];
        size_t lines = (size_t)s->sets * s->ways;
        for (size_t k = 0; k < lines; k++)
            if (b->valid[k] && b->dirty[k]) {
                s->writebacks++;
                to_memory(s, memory_request(u, b->tags[k], MEMREQ_WRITE, UINT32_MAX));
            }
        size_t all_lines = (size_t)s->sets * s->max_ways;
        memset(b->valid, 0, all_lines);
        memset(b->dirty, 0, all_lines);
        memset(b->lru, 0, all_lines);
    }
    s->ways = p.ways;
    s->dc_ways = p.dc_ways;
    s->ro_ways = p.ro_ways;
    s->part_slm = p.slm_kib;
    s->part_urb = p.urb_kib;
    s->part_ro = p.ro_kib;
    s->part_dc = p.dc_kib;
    s->part_rest = p.rest_kib;
    s->reprograms++;
}

static void take_programming(struct l3 *s, struct unit *u)
{
    struct msg *m;
    while (s->cs && (m = port_pop(s->cs)) != NULL) {
        const struct cs_mmio *w = (const struct cs_mmio *)m->payload;
        if (m->kind == MSG_MMIO && m->size >= sizeof *w && w->op == CS_MMIO_WRITE &&
            w->offset == L3CNTLREG)
            program(s, u, w->value);
        else
            s->unexpected++;
        msg_free(unit_sim(u), m);
    }
}

static enum unit_activity l3_tick(struct unit *u)
{
    struct l3 *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    /* the ports' owner: this unit, or the co-simulation adapter running it inside
     * (fabric/unit.h unit_create_inner: it has the host's ports and their count) */
    const struct unit *owner = s->memory_reply ? port_unit(s->memory_reply) : NULL;
    if (!owner || unit_has_queued(owner)) {
        take_programming(s, u);
        take_fills(s, u, now);
        /* the bits as the tick starts: what arrives in it is visible later */
        take_requests(s, u, owner ? unit_queued_ports(owner) : UINT64_MAX);
    } else {
        /* every input is empty (fabric/unit.h): the polls would find nothing; the
         * round-robin start still moves on, as take_requests does every cycle */
        s->next_client = (s->next_client + 1) % s->clients;
    }
    serve_banks(s, u, now);
    send_memory(s);
    send_replies(s, u, now);                /* no client_reply: dropped */
    bool queued = egress_waiting(s);        /* a held heap means a full egress queue */
    for (uint32_t i = 0; i < s->banks; i++)
        queued |= s->bank[i].count != 0;
    if (queued)
        return UNIT_BUSY;
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

void l3_derived_emit(struct stats_writer *w, const struct l3_derived *d)
{
    uint64_t cached = d->hits + d->misses;
    stats_emit(w, "hit_rate", cached ? (double)d->hits / (double)cached : 0.0, "ratio",
               "hits / (hits + misses)");
    if (!d->programmable)
        return;         /* no command streamer linked: the params' partition, never changed */
    stats_emit(w, "ro_reads", (double)d->ro_reads, "requests",
               "read-only data (constant cache) requests, part of reads");
    stats_emit(w, "slm_unallocated", (double)d->slm_unallocated, "requests",
               "SLM requests while the partition has no SLM (L3CNTLREG SLM Enable clear: "
               "bad programming)");
    stats_emit(w, "reprograms", (double)d->reprograms, "writes",
               "L3CNTLREG writes taken (partition changed)");
    stats_emit(w, "programming_violations", (double)d->programming_violations, "rules",
               "L3CNTLREG programming rules broken (003 notes §4.5: sum of ways, R/W 0 or "
               ">= 128 KB, Rest = 0 needs RO != 0, 0..512 KB in 16 KB steps)");
    stats_emit(w, "rejected_programmings", (double)d->rejected_programmings, "writes",
               "L3CNTLREG writes not applied (ways do not sum to the L3, or no cache ways)");
    stats_emit(w, "partition.urb_kib", d->urb_kib, "KiB", "URB partition");
    stats_emit(w, "partition.slm_kib", d->slm_kib, "KiB", "SLM partition");
    stats_emit(w, "partition.ro_kib", d->ro_kib, "KiB", "read-only data partition");
    stats_emit(w, "partition.dc_kib", d->dc_kib, "KiB", "data cache (R/W) partition");
    stats_emit(w, "partition.rest_kib", d->rest_kib, "KiB", "\"All\" (Rest) partition");
}

static void l3_stats_derived(struct unit *u, struct stats_writer *w)
{
    const struct l3 *s = unit_state(u);
    l3_derived_emit(w, &(struct l3_derived){
        .hits = s->hits, .misses = s->misses, .programmable = s->cs != NULL,
        .ro_reads = s->ro_reads, .slm_unallocated = s->slm_unallocated,
        .reprograms = s->reprograms, .programming_violations = s->programming_violations,
        .rejected_programmings = s->rejected_programmings, .urb_kib = s->part_urb,
        .slm_kib = s->part_slm, .ro_kib = s->part_ro, .dc_kib = s->part_dc,
        .rest_kib = s->part_rest });
}

static void l3_destroy(struct unit *u)
{
    struct l3 *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    for (uint32_t i = 0; s->bank && i < s->banks; i++) {
        for (uint32_t k = 0; k < s->bank[i].count; k++)
            msg_free(sim, s->bank[i].queue[(s->bank[i].head + k) % s->bank_queue].m);
        free(s->bank[i].tags);
        free(s->bank[i].valid);
        free(s->bank[i].dirty);
        free(s->bank[i].lru);
        free(s->bank[i].queue);
    }
    free(s->bank);
    for (uint32_t i = 0; s->miss && i < s->misses_max; i++) {
        for (uint32_t k = 0; k < s->miss[i].count; k++)
            msg_free(sim, s->miss[i].waiters[k].m);
        free(s->miss[i].waiters);
    }
    free(s->miss);
    reply_queue_free(&s->replies, sim);
    for (uint32_t port = 0; s->egress && port < s->client_replies; port++)
        for (uint32_t k = 0; k < s->egress_count[port]; k++)
            msg_free(sim, s->egress[port * s->egress_depth +
                                    (s->egress_head[port] + k) % s->egress_depth]);
    free(s->egress);
    free(s->egress_head);
    free(s->egress_count);
    free(s->entry);
    for (uint32_t i = 0; i < s->to_memory_count; i++)
        msg_free(sim, s->to_memory[(s->to_memory_head + i) % s->to_memory_capacity]);
    free(s->to_memory);
}

/* The run summary's figure (fabric/unit.h): the hit rate of cached requests. */
const struct key_figure l3_key_figures[] = {
    { .label = "L3 hit rate", .form = KEY_FIGURE_HIT_RATE, .stat = "hits", .other = "misses" },
    KEY_FIGURE_END
};

const struct unit_ops l3_ops = {
    .kind = "l3",
    .help = "One slice's L3: banks taking a 64-byte request per cycle, 2 KiB logical ways, "
            "Gen9 1-bit LRU, allocation on fill, dirty writebacks, URB/SLM bypassing the "
            "tags (seed 003 L18291-18573).",
    .state_size = sizeof(struct l3),
    .params = l3_params,
    .ports = l3_ports,
    .stats = l3_stats,
    .key_figures = l3_key_figures,
    .realize = l3_realize,
    .tick = l3_tick,
    .stats_derived = l3_stats_derived,
    .destroy = l3_destroy,
};
