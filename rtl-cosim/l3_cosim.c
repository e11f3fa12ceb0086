/* rtl-cosim/l3_cosim.c - see l3_cosim.h. */
#include "rtl-cosim/l3_cosim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/l3_rtl.h"
#include "rtl-cosim/lockstep.h"
#include "units/common/mmio.h"
#include "units/l3/l3.h"

#define MAX_CLIENTS 64
#define NSTATS 12           /* the counters both sides keep in the stat table */
enum { STAT_HITS = 3, STAT_MISSES = 4 };   /* their places in counter_names */

static const char *const counter_names[NSTATS] = {
    "reads", "writes", "atomics", "hits", "misses", "merged_misses", "evictions", "writebacks",
    "urb_accesses", "uncached", "mshr_stalls", "queue_cycles",
};

struct fill_ev { uint64_t addr; uint32_t tag; };
struct prog_ev { uint32_t value; };
struct mem_ev { uint64_t line; uint8_t op; bool wb; };
struct rep_ev { uint64_t cycle, addr; uint32_t tag, mtag; uint8_t op, hit, port; };

struct l3_cosim {
    struct lockstep ls;                 /* first: the co-simulation's params and reports */
    /* params: the C unit's (same names, defaults and ranges; in lockstep the C
     * unit gets them by name) */
    uint32_t size_kib, banks, cache_kib, urb_kib, slm_kib, way_kib, bank_queue, misses;
    uint32_t hit_latency, fill_latency, urb_latency, atomic_cycles, egress_depth;
    /* set up */
    bool lockstep;
    struct l3_rtl *rtl;
    uint32_t clients, next_client;
    struct port *client[MAX_CLIENTS], *client_reply[MAX_CLIENTS], *memory, *memory_reply;
    struct port *cs;                    /* NULL: not linked */
    uint32_t max_ways;                  /* size_kib / banks / way_kib */
    /* the partition (rtl mode: the adapter's, as the C unit keeps it) */
    uint32_t ways, dc_ways, ro_ways;
    uint32_t part_urb, part_slm, part_dc, part_ro, part_rest;
    uint64_t reprograms, programming_violations, rejected_programmings;
    /* rtl mode: the messages the C unit would hold, so the machine's message
     * count is the same: requests taken (each becomes a reply, any one will
     * do) and one per memory request the RTL holds, in its order */
    struct msg **spare, **mq_msgs;
    uint32_t nspare, capspare, mq_head, mq_count, mq_cap;
    /* lockstep: what the C unit did this cycle */
    struct fill_ev *fills;
    struct l3_rtl_req *reqs;
    struct mem_ev *cmem;
    struct prog_ev *progs;
    uint32_t nfills, nreqs, ncmem, capfills, capreqs, capcmem, nprogs, capprogs;
    uint32_t credit[MAX_CLIENTS];
    /* lockstep: replies waiting for the other side */
    struct rep_ev *pend_c, *pend_r;
    uint32_t npend_c, npend_r, cappend_c, cappend_r;
    uint64_t mem_compared;
    bool overflow_seen;
    /* stats (rtl mode: the C unit's names, the RTL's counters) */
    uint64_t st[NSTATS];
    uint64_t reply_stalls, unexpected;
    uint64_t ro_reads, slm_unallocated;
    uint64_t rtl_clocks;
    /* the egress queues (both modes): per client port a ring of egress_depth
     * replies the RTL's heap gave, as the C unit's send_replies keeps them */
    struct l3_rtl_reply *egress;
    uint32_t egress_head[MAX_CLIENTS], egress_count[MAX_CLIENTS];
};

#define S struct l3_cosim
static const struct param_desc l3c_params[] = {
    PARAM_U32_FIELD("size_kib", S, size_kib, 768, 64, 8192, "as the C unit's"),
    PARAM_U32_FIELD("banks", S, banks, 4, 1, 64, "as the C unit's (the RTL: 1..4)"),
    PARAM_U32_FIELD("cache_kib", S, cache_kib, 384, 1, 8192, "as the C unit's"),
    PARAM_U32_FIELD("urb_kib", S, urb_kib, 384, 0, 8192, "as the C unit's"),
    PARAM_U32_FIELD("slm_kib", S, slm_kib, 0, 0, 8192, "as the C unit's"),
    PARAM_U32_FIELD("way_kib", S, way_kib, 2, 1, 64, "as the C unit's (the RTL: 2)"),
    PARAM_U32_FIELD("bank_queue", S, bank_queue, 16, 1, 4096, "as the C unit's (the RTL: <= 16)"),
    PARAM_U32_FIELD("misses", S, misses, 64, 1, 65536, "as the C unit's (the RTL: <= 64)"),
    PARAM_U32_FIELD("hit_latency", S, hit_latency, 30, 1, 10000, "as the C unit's"),
    PARAM_U32_FIELD("fill_latency", S, fill_latency, 4, 1, 10000, "as the C unit's"),
    PARAM_U32_FIELD("urb_latency", S, urb_latency, 20, 1, 10000, "as the C unit's"),
    PARAM_U32_FIELD("atomic_cycles", S, atomic_cycles, 2, 1, 1000, "as the C unit's"),
    PARAM_U32_FIELD("egress_depth", S, egress_depth, 4, 1, 64,
                    "as the C unit's (the adapter's egress queues, not the RTL's)"),
    LOCKSTEP_PARAMS(S, ls, "lockstep: cycles an RTL reply may be early or late (exact: 0)"),
    PARAM_END
};

static const struct port_desc l3c_ports[] = {
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPEN,
      .help = "MSG_MEMORY_REQUEST from a client" },
    { .name = "client_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "MSG_MEMORY_RESPONSE to the client of the same index" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .help = "misses and writebacks to LLC/DRAM" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .help = "fills from LLC/DRAM" },
    { .name = "cs", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO), .flags = PORT_OPTIONAL,
      .help = "MSG_MMIO CS_MMIO_WRITE of L3CNTLREG (0x7034): decoded by l3_partition_decode, "
              "applied to the RTL as a flush and new partition pins" },
    PORT_END
};

#define ST(n, i, m, h) { n, STAT_COUNTER, offsetof(S, st) + (i) * sizeof(uint64_t), m, h }
static const struct stat_desc l3c_stats[] = {
    ST("reads", 0, "requests", "read requests"),
    ST("writes", 1, "requests", "write requests"),
    ST("atomics", 2, "requests", "atomic requests"),
    ST("hits", 3, "requests", "cached requests found in the L3"),
    ST("misses", 4, "requests", "cached requests that went to memory"),
    ST("merged_misses", 5, "requests",
       "misses to a line already being filled (no new memory request)"),
    ST("evictions", 6, "lines", "lines replaced by fills"),
    ST("writebacks", 7, "lines", "dirty lines written back to memory"),
    ST("urb_accesses", 8, "requests", "URB and SLM requests"),
    ST("uncached", 9, "requests", "requests passed straight to memory"),
    ST("mshr_stalls", 10, "cycles", "bank cycles lost with every miss entry in use"),
    ST("queue_cycles", 11, "request-cycles", "cycles requests spent waiting in bank queues"),
    STAT_COUNTER_FIELD("reply_stalls", S, reply_stalls, "cycles",
                       "cycles a reply waited for its port"),
    STAT_COUNTER_FIELD("unexpected", S, unexpected, "messages",
                       "messages that were no memory request (dropped)"),
#define L3C_COSIM_STATS                                                                     \
    STAT_COUNTER_FIELD("rtl_clocks", S, rtl_clocks, "clocks",                                 \
                       "RTL clocks given (frames of commands)"),                              \
    STAT_COUNTER_FIELD("compared", S, ls.compared, "messages",                                \
                       "lockstep: replies and memory requests compared"),                     \
    STAT_COUNTER_FIELD("mismatches", S, ls.mismatches, "messages",                            \
                       "lockstep: messages (or counters) that differ"),                       \
    STAT_COUNTER_FIELD("unmatched", S, ls.unmatched, "messages",                              \
                       "lockstep: messages one side sent and the other did not")
    L3C_COSIM_STATS,
    STAT_END
};

/* Lockstep: the C unit's own table and derived stats are the unit's rows,
 * with these between them (see l3c_stats_derived). */
static const struct stat_desc l3c_lockstep_stats[] = {
    L3C_COSIM_STATS,
    STAT_END
};
#undef ST
#undef S

#define GROW(arr, n, cap)                                                   \
    do {                                                                    \
        if ((n) == (cap)) {                                                 \
            (cap) = (cap) ? 2 * (cap) : 16;                                 \
            (arr) = gt_xrealloc((arr), (cap) * sizeof *(arr));              \
        }                                                                   \
    } while (0)

/* ---- set up ----------------------------------------------------------------- */

static int l3c_realize(struct unit *u, struct gt_error *err)
{
    struct l3_cosim *s = unit_state(u);
    s->lockstep = s->ls.mode == COSIM_MODE_LOCKSTEP;
    if (s->cache_kib + s->urb_kib + s->slm_kib > s->size_kib)
        return gt_error_set(err, "cache_kib %u + urb_kib %u + slm_kib %u exceed size_kib %u",
                            s->cache_kib, s->urb_kib, s->slm_kib, s->size_kib);
    if (s->cache_kib % (s->banks * s->way_kib))
        return gt_error_set(err, "cache_kib %u is not a whole number of %u KiB ways in each of "
                            "%u banks", s->cache_kib, s->way_kib, s->banks);
    /* the RTL's compile-time maxima (rtl-cosim/l3_rtl.h) */
    if (s->banks > L3_RTL_BANKS)
        return gt_error_set(err, "banks %u: the L3 RTL has at most %d banks per slice", s->banks,
                            L3_RTL_BANKS);
    if (s->way_kib * 1024 / MEMREQ_LINE_BYTES != L3_RTL_SETS)
        return gt_error_set(err, "way_kib %u: the L3 RTL has %d sets (way_kib = 2)", s->way_kib,
                            L3_RTL_SETS);
    s->max_ways = s->size_kib / s->banks / s->way_kib;
    if (s->max_ways > L3_RTL_WAYS)
        return gt_error_set(err, "size_kib %u: %u ways of %u KiB per bank in %u banks, the L3 "
                            "RTL has at most %d (any L3CNTLREG partition must fit)", s->size_kib,
                            s->max_ways, s->way_kib, s->banks, L3_RTL_WAYS);
    if (s->misses > L3_RTL_MSHRS || s->bank_queue > L3_RTL_QDEPTH)
        return gt_error_set(err, "misses %u, bank_queue %u: the L3 RTL has at most %d miss "
                            "entries and %d queued requests per bank", s->misses, s->bank_queue,
                            L3_RTL_MSHRS, L3_RTL_QDEPTH);
    s->cs = unit_port(u, "cs", 0);
    if (s->cs && !port_is_bound(s->cs))
        s->cs = NULL;
    s->clients = unit_port_count(u, "client");
    if (s->clients > MAX_CLIENTS)
        return gt_error_set(err, "%u clients linked; at most %d", s->clients, MAX_CLIENTS);
    if (unit_port_count(u, "client_reply") > s->clients)
        return gt_error_set(err, "client_reply[%u] is linked but client[%u] is not",
                            unit_port_count(u, "client_reply") - 1,
                            unit_port_count(u, "client_reply") - 1);
    for (uint32_t i = 0; i < s->clients; i++) {
        s->client[i] = unit_port(u, "client", i);
        s->client_reply[i] = unit_port(u, "client_reply", i);
    }
    s->memory = unit_port(u, "memory", 0);
    s->memory_reply = unit_port(u, "memory_reply", 0);
    free(s->egress);
    s->egress = gt_xcalloc((size_t)MAX_CLIENTS * s->egress_depth, sizeof *s->egress);
    return 0;
}

static int rtl_open(struct unit *u, struct gt_error *err)
{
    struct l3_cosim *s = unit_state(u);
    if (!s->rtl) {
        s->rtl = l3_rtl_create(s->ls.broken ? L3_RTL_BROKEN : L3_RTL_GOOD, s->ls.wave[0] != 0);
        if (s->ls.wave[0] &&
            l3_rtl_trace_open(s->rtl, s->ls.wave, s->ls.wave_from, s->ls.wave_to) < 0)
            return gt_error_set(err, "wave: cannot write FST file '%s'", s->ls.wave);
    }
    return 0;
}

static void l3c_reset(struct unit *u)
{
    struct l3_cosim *s = unit_state(u);
    /* the params' partition: all Rest */
    s->ways = s->cache_kib / s->banks / s->way_kib;
    s->dc_ways = s->ro_ways = 0;
    s->part_urb = s->urb_kib;
    s->part_slm = s->slm_kib;
    s->part_dc = s->part_ro = 0;
    s->part_rest = s->cache_kib;
    memset(s->egress_head, 0, sizeof s->egress_head);
    memset(s->egress_count, 0, sizeof s->egress_count);
    struct l3_rtl_cfg cfg = { s->ways, s->misses, s->hit_latency, s->fill_latency,
                              s->urb_latency, s->atomic_cycles, s->banks, s->dc_ways,
                              s->ro_ways, s->part_slm != 0 };
    l3_rtl_reset(s->rtl, &cfg);
}

static void l3c_destroy(struct unit *u)
{
    struct l3_cosim *s = unit_state(u);
    l3_rtl_destroy(s->rtl);
    s->rtl = NULL;
    free(s->fills);
    free(s->reqs);
    free(s->cmem);
    free(s->progs);
    for (uint32_t i = 0; i < s->nspare; i++)
        msg_free(unit_sim(u), s->spare[i]);
    free(s->spare);
    for (uint32_t i = 0; i < s->mq_count; i++)
        msg_free(unit_sim(u), s->mq_msgs[(s->mq_head + i) % s->mq_cap]);
    free(s->mq_msgs);
    free(s->pend_c);
    free(s->pend_r);
    free(s->egress);
    s->egress = NULL;
}

/* ---- messages ----------------------------------------------------------------- */

static bool good_request(const struct msg *m)
{
    return m->kind == MSG_MEMORY_REQUEST && m->size >= sizeof(struct memreq);
}
static bool good_reply(const struct msg *m)
{
    return m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof(struct memreply);
}

static struct l3_rtl_req rtl_req(const struct msg *m, uint32_t port)
{
    const struct memreq *q = (const struct memreq *)m->payload;
    /* the C unit's classes: op READ, WRITE, anything else atomic; target URB, SLM,
     * UNCACHED, RO data, anything else R/W data */
    uint8_t op = q->op > MEMREQ_ATOMIC ? MEMREQ_ATOMIC : q->op;
    uint8_t target = q->target > MEMREQ_RO_DATA ? MEMREQ_DATA : q->target;
    return (struct l3_rtl_req){ q->address, q->tag, m->tag, op, target, (uint8_t)port };
}

/* A request message kept for its reply (rtl mode). */
static struct msg *spare_take(struct l3_cosim *s, struct sim *sim)
{
    if (s->nspare)
        return s->spare[--s->nspare];
    return msg_alloc(sim, MSG_MEMORY_RESPONSE, sizeof(struct memreply));   /* not reached */
}

/* The RTL's replies due now, as the C unit's send_replies (units/l3/l3.c) moves
 * them: out of the heap in its order into their client's egress queue (a full
 * one holds the heap), then each egress queue as far as `may_send` lets it go. */
static void rtl_replies(struct unit *u, uint64_t now, bool (*may_send)(struct unit *, uint32_t),
                        void (*sent_fn)(struct unit *, const struct l3_rtl_reply *, uint64_t))
{
    struct l3_cosim *s = unit_state(u);
    struct l3_rtl_reply r;
    bool waited = false, held;
    do {
        held = false;
        while (l3_rtl_reply_head(s->rtl, &r) && r.due <= now) {
            struct port *out = r.port < s->clients ? s->client_reply[r.port] : NULL;
            if (!out || !port_is_bound(out)) {
                l3_rtl_reply_pop(s->rtl, now);
                if (!s->lockstep)
                    msg_free(unit_sim(u), spare_take(s, unit_sim(u)));
                continue;
            }
            if (s->egress_count[r.port] == s->egress_depth) {
                held = true;
                break;
            }
            s->egress[r.port * s->egress_depth +
                      (s->egress_head[r.port] + s->egress_count[r.port]++) % s->egress_depth] = r;
            l3_rtl_reply_pop(s->rtl, now);
        }
        bool sent = false;
        for (uint32_t port = 0; port < s->clients; port++) {
            while (s->egress_count[port]) {
                if (!may_send(u, port)) {
                    waited = true;
                    break;
                }
                sent_fn(u, &s->egress[port * s->egress_depth + s->egress_head[port]], now);
                s->egress_head[port] = (s->egress_head[port] + 1) % s->egress_depth;
                s->egress_count[port]--;
                sent = true;
            }
        }
        if (held && !sent)
            waited = true;
        held = held && sent;
    } while (held);
    if (waited && !s->lockstep)
        s->reply_stalls++;
}

static bool egress_waiting(const struct l3_cosim *s)
{
    for (uint32_t port = 0; port < s->clients; port++)
        if (s->egress_count[port])
            return true;
    return false;
}

/* ---- rtl mode: the adapter does the C unit's port work around the RTL ------- */

/* An L3CNTLREG write, as the C unit's program(): the rules (the shared
 * decode), then, when applied, the RTL's flush and the new partition. */
static void rtl_program(struct unit *u, uint64_t now, uint32_t value)
{
    struct l3_cosim *s = unit_state(u);
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
    l3_rtl_program(s->rtl, now, p.ways, p.dc_ways, p.ro_ways, p.slm_kib != 0);
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

static bool rtl_may_send(struct unit *u, uint32_t port)
{
    struct l3_cosim *s = unit_state(u);
    return port_can_send(s->client_reply[port]);
}

/* Memory request messages for what the RTL queued since the last call, as
 * the C unit allocates them when it queues them. */
static void mq_sync(struct unit *u)
{
    struct l3_cosim *s = unit_state(u);
    uint32_t n = l3_rtl_mem_count(s->rtl);
    while (s->mq_count < n) {
        if (s->mq_count == s->mq_cap) {
            uint32_t cap = s->mq_cap ? 2 * s->mq_cap : 64;
            struct msg **q = gt_xmalloc(cap * sizeof *q);
            for (uint32_t i = 0; i < s->mq_count; i++)
                q[i] = s->mq_msgs[(s->mq_head + i) % s->mq_cap];
            free(s->mq_msgs);
            s->mq_msgs = q;
            s->mq_head = 0;
            s->mq_cap = cap;
        }
        s->mq_msgs[(s->mq_head + s->mq_count++) % s->mq_cap] =
            msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
    }
}

static void rtl_sent(struct unit *u, const struct l3_rtl_reply *r, uint64_t now)
{
    (void)now;
    struct l3_cosim *s = unit_state(u);
    struct msg *m = spare_take(s, unit_sim(u));
    struct memreply *a = (struct memreply *)m->payload;
    memset(a, 0, sizeof *a);
    m->kind = MSG_MEMORY_RESPONSE;
    m->size = sizeof *a;
    a->address = r->addr;
    a->tag = r->tag;
    a->op = r->op;
    a->hit = r->hit;
    m->tag = r->mtag;
    port_try_send(s->client_reply[r->port], m);
}

static enum unit_activity rtl_tick(struct unit *u)
{
    struct l3_cosim *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while (s->cs && (m = port_pop(s->cs)) != NULL) {
        const struct cs_mmio *w = (const struct cs_mmio *)m->payload;
        if (m->kind == MSG_MMIO && m->size >= sizeof *w && w->op == CS_MMIO_WRITE &&
            w->offset == L3CNTLREG)
            rtl_program(u, now, w->value);
        else
            s->unexpected++;
        msg_free(sim, m);
        mq_sync(u);
    }
    while ((m = port_pop(s->memory_reply))) {
        if (good_reply(m)) {
            const struct memreply r = *(const struct memreply *)m->payload;
            msg_free(sim, m);
            l3_rtl_fill(s->rtl, now, r.address, r.tag);
            mq_sync(u);
        } else {
            s->unexpected++;
            msg_free(sim, m);
        }
    }
    for (uint32_t k = 0; k < s->clients; k++) {
        uint32_t c = (s->next_client + k) % s->clients;
        while ((m = port_peek(s->client[c]))) {
            if (!good_request(m)) {
                port_pop(s->client[c]);
                s->unexpected++;
                msg_free(sim, m);
                continue;
            }
            const struct memreq *mq = (const struct memreq *)m->payload;
            uint32_t bank = (uint32_t)(mq->address / MEMREQ_LINE_BYTES % s->banks);
            if (l3_rtl_bank_queue_count(s->rtl, bank) >= s->bank_queue)
                break;
            port_pop(s->client[c]);
            struct l3_rtl_req q = rtl_req(m, c);
            l3_rtl_enq(s->rtl, now, &q);
            GROW(s->spare, s->nspare, s->capspare);
            s->spare[s->nspare++] = m;
        }
    }
    if (s->clients)
        s->next_client = (s->next_client + 1) % s->clients;
    l3_rtl_serve(s->rtl, now);
    mq_sync(u);
    uint64_t line;
    uint8_t op;
    bool wb;
    while (s->mq_count && l3_rtl_mem_head(s->rtl, &line, &op, &wb)) {
        m = s->mq_msgs[s->mq_head];
        struct memreq *q = (struct memreq *)m->payload;
        q->address = line * MEMREQ_LINE_BYTES;
        q->bytes = MEMREQ_LINE_BYTES;
        q->op = op;
        q->target = MEMREQ_DATA;
        q->client = unit_id(u);
        q->tag = wb ? UINT32_MAX : 0;
        if (!port_try_send(s->memory, m))
            break;
        s->mq_head = (s->mq_head + 1) % s->mq_cap;
        s->mq_count--;
        l3_rtl_mem_pop(s->rtl, now);
    }
    rtl_replies(u, now, rtl_may_send, rtl_sent);
    struct l3_rtl_stats st;
    l3_rtl_stats(s->rtl, &st);
    memcpy(s->st, &st, sizeof s->st);
    s->ro_reads = st.ro_reads;
    s->slm_unallocated = st.slm_unallocated;
    s->rtl_clocks = l3_rtl_clocks(s->rtl);
    if (l3_rtl_overflow(s->rtl) && !s->overflow_seen) {
        s->overflow_seen = true;
        unit_log(u, SIM_LOG_ERROR, "the L3 RTL overflowed one of its fixed capacities "
                 "(rtl-cosim/l3_rtl.h); its behaviour is no longer the C unit's");
    }
    if (l3_rtl_queue_count(s->rtl) || egress_waiting(s))
        return UNIT_BUSY;
    struct l3_rtl_reply r;
    if (l3_rtl_reply_head(s->rtl, &r) && r.due > now)
        unit_wake_at(u, r.due);
    return UNIT_IDLE;
}

/* ---- lockstep ------------------------------------------------------------------ */

static void wave_window(struct unit *u, uint64_t from, uint64_t to)
{
    struct l3_cosim *s = unit_state(u);
    l3_rtl_trace_window(s->rtl, from, to);
}

#define report lockstep_report
#define mismatch_at lockstep_mismatch

static void observe(struct unit *u, const struct port *p, const struct msg *m, uint64_t cycle)
{
    struct l3_cosim *s = unit_state(u);
    const char *name = port_name(p);
    if (strcmp(name, "client") == 0) {
        if (!good_request(m))
            return;
        GROW(s->reqs, s->nreqs, s->capreqs);
        s->reqs[s->nreqs++] = rtl_req(m, port_index(p));
    } else if (strcmp(name, "memory_reply") == 0) {
        if (!good_reply(m))
            return;
        const struct memreply *r = (const struct memreply *)m->payload;
        GROW(s->fills, s->nfills, s->capfills);
        s->fills[s->nfills++] = (struct fill_ev){ r->address, r->tag };
    } else if (strcmp(name, "memory") == 0) {
        const struct memreq *q = (const struct memreq *)m->payload;
        GROW(s->cmem, s->ncmem, s->capcmem);
        s->cmem[s->ncmem++] = (struct mem_ev){ q->address / MEMREQ_LINE_BYTES, q->op,
                                               q->tag == UINT32_MAX };
    } else if (strcmp(name, "cs") == 0) {
        const struct cs_mmio *w = (const struct cs_mmio *)m->payload;
        if (m->kind == MSG_MMIO && m->size >= sizeof *w && w->op == CS_MMIO_WRITE &&
            w->offset == L3CNTLREG) {
            GROW(s->progs, s->nprogs, s->capprogs);
            s->progs[s->nprogs++] = (struct prog_ev){ w->value };
        }
    } else if (strcmp(name, "client_reply") == 0) {
        const struct memreply *a = (const struct memreply *)m->payload;
        uint32_t port = port_index(p);
        if (port < MAX_CLIENTS)
            s->credit[port]++;
        GROW(s->pend_c, s->npend_c, s->cappend_c);
        s->pend_c[s->npend_c++] = (struct rep_ev){ cycle, a->address, a->tag, m->tag, a->op,
                                                   a->hit, (uint8_t)port };
    }
}

static void compare_replies(struct unit *u, const struct rep_ev *c, const struct rep_ev *r)
{
    struct l3_cosim *s = unit_state(u);
    char prefix[512];
    snprintf(prefix, sizeof prefix,
             "cosim mismatch: unit %s port client_reply[%u] message tag %u cycle %" PRIu64,
             unit_name(u), c->port, c->tag, c->cycle);
    uint32_t diffs = 0;
#define FIELD(name, a, b)                                                                   \
    if ((uint64_t)(a) != (uint64_t)(b)) {                                                   \
        diffs++;                                                                            \
        report(u, "%s: field %s: c-model 0x%" PRIx64 ", rtl 0x%" PRIx64, prefix, name,      \
               (uint64_t)(a), (uint64_t)(b));                                               \
    }
    FIELD("address", c->addr, r->addr)
    FIELD("op", c->op, r->op)
    FIELD("hit", c->hit, r->hit)
    FIELD("msg.tag", c->mtag, r->mtag)
#undef FIELD
    diffs += lockstep_check_cycle(u, prefix, "reply sent", c->cycle, r->cycle);
    s->ls.compared++;
    if (diffs)
        mismatch_at(u, c->cycle < r->cycle ? c->cycle : r->cycle);
}

/* Pairs replies per client port by tag, oldest first. */
static void match_replies(struct unit *u)
{
    struct l3_cosim *s = unit_state(u);
    for (uint32_t i = 0; i < s->npend_r;) {
        const struct rep_ev *r = &s->pend_r[i];
        uint32_t k = 0;
        while (k < s->npend_c && (s->pend_c[k].port != r->port || s->pend_c[k].tag != r->tag))
            k++;
        if (k == s->npend_c) {
            i++;
            continue;
        }
        compare_replies(u, &s->pend_c[k], r);
        memmove(&s->pend_c[k], &s->pend_c[k + 1], (s->npend_c - k - 1) * sizeof *s->pend_c);
        s->npend_c--;
        memmove(&s->pend_r[i], &s->pend_r[i + 1], (s->npend_r - i - 1) * sizeof *s->pend_r);
        s->npend_r--;
    }
}

static bool lockstep_may_send(struct unit *u, uint32_t port)
{
    struct l3_cosim *s = unit_state(u);
    if (!s->credit[port])
        return false;
    s->credit[port]--;
    return true;
}

static void lockstep_sent(struct unit *u, const struct l3_rtl_reply *r, uint64_t now)
{
    struct l3_cosim *s = unit_state(u);
    GROW(s->pend_r, s->npend_r, s->cappend_r);
    s->pend_r[s->npend_r++] = (struct rep_ev){ now, r->addr, r->tag, r->mtag, r->op, r->hit,
                                               r->port };
}

/* After the C unit's tick: the same cycle for the RTL. */
static enum unit_activity lockstep_step(struct unit *u, uint64_t now, enum unit_activity act)
{
    struct l3_cosim *s = unit_state(u);

    /* The same cycle for the RTL: the L3CNTLREG writes, fills and requests the C
     * unit took. */
    for (uint32_t i = 0; i < s->nprogs; i++) {
        struct l3_partition p;
        l3_partition_decode(s->progs[i].value, s->banks, s->way_kib, s->max_ways, &p);
        if (p.apply)
            l3_rtl_program(s->rtl, now, p.ways, p.dc_ways, p.ro_ways, p.slm_kib != 0);
    }
    for (uint32_t i = 0; i < s->nfills; i++)
        l3_rtl_fill(s->rtl, now, s->fills[i].addr, s->fills[i].tag);
    for (uint32_t i = 0; i < s->nreqs; i++)
        l3_rtl_enq(s->rtl, now, &s->reqs[i]);
    l3_rtl_serve(s->rtl, now);
    /* Memory requests: in order, on the same cycle. */
    for (uint32_t i = 0; i < s->ncmem; i++) {
        const struct mem_ev *c = &s->cmem[i];
        uint64_t line;
        uint8_t op;
        bool wb;
        char prefix[256];
        snprintf(prefix, sizeof prefix, "cosim mismatch: unit %s port memory message #%" PRIu64
                 " cycle %" PRIu64, unit_name(u), s->mem_compared, now);
        s->mem_compared++;
        s->ls.compared++;
        if (!l3_rtl_mem_head(s->rtl, &line, &op, &wb)) {
            s->ls.unmatched++;
            report(u, "%s: the c-model sent line 0x%" PRIx64 " op %u%s, the rtl nothing", prefix,
                   c->line, c->op, c->wb ? " (writeback)" : "");
            mismatch_at(u, now);
            continue;
        }
        uint32_t diffs = 0;
        if (line != c->line) {
            diffs++;
            report(u, "%s: field address/64: c-model 0x%" PRIx64 ", rtl 0x%" PRIx64, prefix,
                   c->line, line);
        }
        if (op != c->op) {
            diffs++;
            report(u, "%s: field op: c-model %u, rtl %u", prefix, c->op, op);
        }
        if (wb != c->wb) {
            diffs++;
            report(u, "%s: field tag (writeback): c-model 0x%x, rtl 0x%x", prefix,
                   c->wb ? UINT32_MAX : 0, wb ? UINT32_MAX : 0);
        }
        if (diffs)
            mismatch_at(u, now);
        l3_rtl_mem_pop(s->rtl, now);
    }
    /* Replies: as many per port as the C unit could send. */
    rtl_replies(u, now, lockstep_may_send, lockstep_sent);
    match_replies(u);
    if (l3_rtl_overflow(s->rtl) && !s->overflow_seen) {
        s->overflow_seen = true;
        report(u, "cosim mismatch: unit %s cycle %" PRIu64 ": the rtl overflowed one of its fixed "
               "capacities (rtl-cosim/l3_rtl.h)", unit_name(u), now);
        mismatch_at(u, now);
    }
    s->rtl_clocks = l3_rtl_clocks(s->rtl);
    /* what the observers collected is used */
    s->nfills = s->nreqs = s->ncmem = s->nprogs = 0;
    memset(s->credit, 0, sizeof s->credit);
    return act;
}

/* The C unit's rows, same names and descriptions: lockstep writes the C
 * unit's own table, the co-simulation's counters, the C unit's derived
 * stats; rtl mode the RTL's counters and the adapter's partition. */
static void l3c_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct l3_cosim *s = unit_state(u);
    if (s->lockstep) {
        struct lockstep *ls = &s->ls;
        unit_write_stat_table(ls->c_unit, w);
        for (const struct stat_desc *d = l3c_lockstep_stats; d->name; d++)
            stats_emit_u64(w, d->name, *(const uint64_t *)((const char *)s + d->offset),
                           d->measure, d->help);
        ls->c_ops->stats_derived(ls->c_unit, w);
        return;
    }
    l3_derived_emit(w, &(struct l3_derived){
        .hits = s->st[STAT_HITS], .misses = s->st[STAT_MISSES], .programmable = s->cs != NULL,
        .ro_reads = s->ro_reads, .slm_unallocated = s->slm_unallocated,
        .reprograms = s->reprograms, .programming_violations = s->programming_violations,
        .rejected_programmings = s->rejected_programmings, .urb_kib = s->part_urb,
        .slm_kib = s->part_slm, .ro_kib = s->part_ro, .dc_kib = s->part_dc,
        .rest_kib = s->part_rest });
}

/* ---- queries ------------------------------------------------------------------- */

/* The end of the comparison: what one side sent and the other did not, and
 * the counters. */
static void lockstep_finish(struct unit *u, uint64_t now)
{
    struct l3_cosim *s = unit_state(u);
    for (uint32_t i = 0; i < s->npend_c; i++) {
        const struct rep_ev *c = &s->pend_c[i];
        report(u, "cosim mismatch: unit %s port client_reply[%u] message tag %u cycle %" PRIu64
               ": the c-model replied, the rtl did not", unit_name(u), c->port, c->tag, c->cycle);
        s->ls.unmatched++;
        mismatch_at(u, c->cycle);
    }
    for (uint32_t i = 0; i < s->npend_r; i++) {
        const struct rep_ev *r = &s->pend_r[i];
        report(u, "cosim mismatch: unit %s port client_reply[%u] message tag %u cycle %" PRIu64
               ": the rtl replied, the c-model did not", unit_name(u), r->port, r->tag, r->cycle);
        s->ls.unmatched++;
        mismatch_at(u, r->cycle);
    }
    uint64_t line;
    uint8_t op;
    bool wb;
    if (l3_rtl_mem_head(s->rtl, &line, &op, &wb)) {
        report(u, "cosim mismatch: unit %s port memory: the rtl still holds a request for line "
               "0x%" PRIx64 " the c-model never sent", unit_name(u), line);
        s->ls.unmatched++;
        mismatch_at(u, now);
    }
    struct l3_rtl_stats st;
    l3_rtl_stats(s->rtl, &st);
    const uint64_t *rst = &st.reads;
    for (uint32_t k = 0; k < NSTATS; k++) {
        uint64_t c = lockstep_c_stat(u, counter_names[k]);
        if (rst[k] != c) {
            report(u, "cosim mismatch: unit %s stat %s at the end (cycle %" PRIu64 "): c-model "
                   "%" PRIu64 ", rtl %" PRIu64, unit_name(u), counter_names[k], now, c, rst[k]);
            mismatch_at(u, now);
        }
    }
    /* the derived counters both keep (the C unit emits them with "cs" linked) */
    struct stats_writer *w = stats_writer_create();
    s->ls.c_ops->stats_derived(s->ls.c_unit, w);
    const struct { const char *name; uint64_t rtl; } derived[] = {
        { "ro_reads", st.ro_reads }, { "slm_unallocated", st.slm_unallocated },
    };
    for (size_t k = 0; k < sizeof derived / sizeof derived[0]; k++) {
        double c;
        if (stats_lookup(w, derived[k].name, &c) && (uint64_t)c != derived[k].rtl) {
            report(u, "cosim mismatch: unit %s stat %s at the end (cycle %" PRIu64 "): c-model "
                   "%" PRIu64 ", rtl %" PRIu64, unit_name(u), derived[k].name, now, (uint64_t)c,
                   derived[k].rtl);
            mismatch_at(u, now);
        }
    }
    stats_writer_destroy(w);
}

/* ---- the kinds ------------------------------------------------------------------- */

const struct lockstep_desc l3_cosim_desc = {
    .c_kind = "l3",
    .modes = 1u << COSIM_MODE_RTL | 1u << COSIM_MODE_LOCKSTEP,
    .realize = l3c_realize,
    .rtl_open = rtl_open,
    .reset = l3c_reset,
    .destroy = l3c_destroy,
    .rtl_tick = rtl_tick,
    .observe = observe,
    .rtl_step = lockstep_step,
    .finish = lockstep_finish,
    .wave_window = wave_window,
    .stats_derived = l3c_stats_derived,
};

#define L3_KIND(sym, name, stat_table, text) \
    LOCKSTEP_KIND(sym, name, struct l3_cosim, l3c_params, l3c_ports, stat_table, l3_key_figures, text)

L3_KIND(l3_rtl_ops, "l3:rtl", l3c_stats,
        "l3 as RTL: rtl-cosim/rtl/l3_slice.sv (a slice: banks, shared miss entries), "
        "Verilated, behind the C unit's ports.");
L3_KIND(l3_lockstep_ops, "l3:lockstep", NULL,
        "l3 in lockstep: the C unit drives the ports, the slice RTL takes the same "
        "messages; replies matched by tag per client and compared (fields, cycle exactly).");
L3_KIND(l3_rtl_broken_ops, "l3:rtl_broken", l3c_stats,
        "l3 as RTL built with `define BROKEN (the LRU evicts the wrong way).");
L3_KIND(l3_lockstep_broken_ops, "l3:lockstep_broken", NULL,
        "l3 in lockstep against the BROKEN RTL: must report mismatches.");
