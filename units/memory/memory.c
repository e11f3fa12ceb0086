/* units/memory/memory.c - see memory.h. */
#include "units/memory/memory.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "fabric/port.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "fabric/stats.h"

#define MAX_CLIENTS 64

struct waiting {
    struct msg *m;
    uint32_t client;
    uint64_t arrived;
};

struct memory {
    /* params */
    uint32_t clients, llc_kib, llc_ways, llc_latency, dram_latency, bytes_per_cycle, queue;
    /* ports */
    struct port **client, **client_reply;
    uint32_t client_replies;
    /* LLC */
    uint32_t sets;
    uint64_t *tags, *stamp;
    uint8_t *valid, *dirty;
    uint64_t use_clock;
    /* queue and replies */
    struct waiting *fifo;
    uint32_t head, count;
    struct reply_queue replies;         /* by due cycle (a hit may be due before an earlier
                                           miss), then arrival; the requests, turned into
                                           replies when sent; the unit's bytes: the hit flag */
    uint64_t dram_free;                 /* first cycle the DRAM bus is free */
    uint64_t busy_cycles;
    uint32_t next_client;
    /* stats */
    uint64_t requests, reads, writes, llc_hits, llc_misses, dram_reads, dram_writebacks;
    uint64_t dram_bytes, queue_cycles, latency_cycles, unexpected;
};

static const struct param_desc memory_params[] = {
    PARAM_U32_FIELD("llc_kib", struct memory, llc_kib, 2048, 0, 1 << 20,
                    "LLC capacity the GPU sees, KiB (0: no LLC)"),
    PARAM_U32_FIELD("llc_ways", struct memory, llc_ways, 16, 1, 64, "LLC associativity"),
    PARAM_U32_FIELD("llc_latency", struct memory, llc_latency, 40, 1, 100000,
                    "cycles for an LLC hit"),
    PARAM_U32_FIELD("dram_latency", struct memory, dram_latency, 100, 1, 100000,
                    "cycles a DRAM access adds after its transfer"),
    PARAM_U32_FIELD("bytes_per_cycle", struct memory, bytes_per_cycle, 32, 1, 4096,
                    "DRAM bandwidth in bytes per cycle of this unit's clock (DDR4-2133 "
                    "dual channel: 34 GB/s = 32 B at 1066 MHz)"),
    PARAM_U32_FIELD("queue", struct memory, queue, 64, 1, 1 << 20, "requests queued at once"),
    PARAM_END
};

static const struct port_desc memory_ports[] = {
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPEN,
      .help = "MSG_MEMORY_REQUEST from an L3" },
    { .name = "client_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "MSG_MEMORY_RESPONSE to the client of the same index" },
    PORT_END
};

#define M_STAT(n, f, m, h) STAT_COUNTER_FIELD(n, struct memory, f, m, h)
static const struct stat_desc memory_stats[] = {
    M_STAT("requests", requests, "requests", "requests taken"),
    M_STAT("reads", reads, "requests", "read requests"),
    M_STAT("writes", writes, "requests", "write and atomic requests"),
    M_STAT("llc_hits", llc_hits, "requests", "requests the LLC served"),
    M_STAT("llc_misses", llc_misses, "requests", "requests that went to DRAM"),
    M_STAT("dram_reads", dram_reads, "lines", "lines read from DRAM"),
    M_STAT("dram_writebacks", dram_writebacks, "lines", "dirty LLC lines written to DRAM"),
    M_STAT("dram_bytes", dram_bytes, "bytes", "bytes moved on the DRAM bus"),
    M_STAT("queue_cycles", queue_cycles, "request-cycles", "cycles requests waited in the queue"),
    M_STAT("latency_cycles", latency_cycles, "cycles", "sum of request-to-reply latencies"),
    M_STAT("unexpected", unexpected, "messages", "messages that were no memory request (dropped)"),
    STAT_END
};

static int memory_realize(struct unit *u, struct gt_error *err)
{
    struct memory *s = unit_state(u);
    /* one client per link made to "client" (an open array) */
    s->client = unit_port_array(u, "client", &s->clients);
    s->client_reply = unit_port_array(u, "client_reply", &s->client_replies);
    if (s->clients > MAX_CLIENTS)
        return gt_error_set(err, "%u clients linked; at most %d", s->clients, MAX_CLIENTS);
    if (s->client_replies > s->clients)
        return gt_error_set(err, "client_reply[%u] is linked but client[%u] is not",
                            s->client_replies - 1, s->client_replies - 1);
    uint64_t lines = (uint64_t)s->llc_kib * 1024 / MEMREQ_LINE_BYTES;
    if (lines % s->llc_ways)
        return gt_error_set(err, "llc_kib %u is not a whole number of %u-way sets", s->llc_kib,
                            s->llc_ways);
    s->sets = (uint32_t)(lines / s->llc_ways);
    if (lines) {
        s->tags = gt_xcalloc(lines, sizeof *s->tags);
        s->stamp = gt_xcalloc(lines, sizeof *s->stamp);
        s->valid = gt_xcalloc(lines, 1);
        s->dirty = gt_xcalloc(lines, 1);
    }
    s->fifo = gt_xcalloc(s->queue, sizeof *s->fifo);
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .data_size = sizeof(uint8_t), .order = REPLY_QUEUE_READY_THEN_INSERTION,
        .refusal = REPLY_QUEUE_STOP, .ports = s->client_reply, .port_count = s->client_replies,
        .build = memreq_reply_build });
    return 0;
}

/* Occupies the DRAM bus for one line from `now`; returns when it is done. */
static uint64_t dram_transfer(struct memory *s, uint64_t now)
{
    uint64_t start = s->dram_free > now ? s->dram_free : now;
    uint64_t cycles = (MEMREQ_LINE_BYTES + s->bytes_per_cycle - 1) / s->bytes_per_cycle;
    s->dram_free = start + cycles;
    s->busy_cycles += cycles;
    s->dram_bytes += MEMREQ_LINE_BYTES;
    return s->dram_free;
}

/* LLC lookup and fill (true LRU by use stamp); returns hit. */
static bool llc_access(struct memory *s, uint64_t line, bool write, uint64_t now)
{
    if (!s->sets)
        return false;
    uint32_t base = (uint32_t)(line % s->sets) * s->llc_ways;
    uint32_t lru = 0;
    for (uint32_t w = 0; w < s->llc_ways; w++) {
        uint32_t i = base + w;
        if (s->valid[i] && s->tags[i] == line) {
            s->stamp[i] = ++s->use_clock;
            s->dirty[i] |= write;
            return true;
        }
        if (!s->valid[i] || (s->valid[base + lru] && s->stamp[i] < s->stamp[base + lru]))
            lru = w;
    }
    uint32_t i = base + lru;
    if (s->valid[i] && s->dirty[i]) {
        s->dram_writebacks++;
        dram_transfer(s, now);
    }
    s->tags[i] = line;
    s->valid[i] = 1;
    s->dirty[i] = write;
    s->stamp[i] = ++s->use_clock;
    return false;
}

static enum unit_activity memory_tick(struct unit *u)
{
    struct memory *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    /* take requests while the queue has room, round-robin over clients */
    for (uint32_t k = 0; k < s->clients && s->count < s->queue; k++) {
        uint32_t c = (s->next_client + k) % s->clients;
        struct msg *m;
        while (s->count < s->queue && (m = port_pop(s->client[c]))) {
            if (m->kind != MSG_MEMORY_REQUEST || m->size < sizeof(struct memreq)) {
                s->unexpected++;
                msg_free(unit_sim(u), m);
                continue;
            }
            s->fifo[(s->head + s->count++) % s->queue] = (struct waiting){ m, c, now };
        }
    }
    s->next_client = (s->next_client + 1) % s->clients;
    /* one request per cycle enters the LLC/DRAM pipeline */
    if (s->count > 1)
        s->queue_cycles += s->count - 1;
    if (s->count) {
        struct waiting w = s->fifo[s->head];
        s->head = (s->head + 1) % s->queue;
        s->count--;
        const struct memreq *q = (const struct memreq *)w.m->payload;
        bool write = q->op != MEMREQ_READ;
        s->requests++;
        if (write)
            s->writes++;
        else
            s->reads++;
        uint64_t line = q->address / MEMREQ_LINE_BYTES;
        bool hit = q->target != MEMREQ_UNCACHED && llc_access(s, line, write, now);
        uint64_t due;
        if (hit) {
            s->llc_hits++;
            due = now + s->llc_latency;
        } else {
            s->llc_misses++;
            s->dram_reads++;
            due = dram_transfer(s, now) + s->dram_latency;
        }
        s->latency_cycles += due - w.arrived;
        uint8_t hit_flag = hit;
        reply_queue_push(&s->replies, due, w.client, w.m, &hit_flag);
    }
    /* replies in due order (no client_reply: dropped) */
    reply_queue_send(&s->replies, u);
    if (s->count)
        return UNIT_BUSY;
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void memory_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct memory *s = unit_state(u);
    stats_emit(w, "llc_hit_rate", s->requests ? (double)s->llc_hits / (double)s->requests : 0.0,
               "ratio", "LLC hits / requests");
    stats_emit(w, "average_latency", s->requests ? (double)s->latency_cycles / (double)s->requests
                                                 : 0.0, "cycles", "mean request-to-reply latency");
    uint64_t cycles = unit_cycle(u) + 1;
    stats_emit(w, "dram_utilisation", (double)s->busy_cycles / (double)cycles, "ratio",
               "DRAM bus busy cycles / cycles");
}

static void memory_destroy(struct unit *u)
{
    struct memory *s = unit_state(u);
    for (uint32_t i = 0; i < s->count; i++)
        msg_free(unit_sim(u), s->fifo[(s->head + i) % s->queue].m);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->fifo);
    free(s->tags);
    free(s->stamp);
    free(s->valid);
    free(s->dirty);
}

const struct unit_ops memory_ops = {
    .kind = "memory",
    .help = "LLC and DRAM timing below the L3: set-associative LRU LLC, DRAM latency and "
            "bandwidth, a shared request queue (figures are configuration; the seeds give none).",
    .state_size = sizeof(struct memory),
    .params = memory_params,
    .ports = memory_ports,
    .stats = memory_stats,
    .realize = memory_realize,
    .tick = memory_tick,
    .stats_derived = memory_stats_derived,
    .destroy = memory_destroy,
};
