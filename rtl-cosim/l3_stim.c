/* rtl-cosim/l3_stim.c - see l3_stim.h. */
#include "rtl-cosim/l3_stim.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "units/common/mmio.h"
#include "units/l3/l3.h"

#define MAX_STREAMS 16

struct stream {
    struct port *out, *in;
    uint32_t sent, received, outstanding;
    uint64_t *sent_at;          /* per tag; UINT64_MAX when not outstanding */
};

struct l3_stim {
    uint64_t seed;
    uint32_t clients, requests, outstanding, send_permille, pop_permille;
    uint32_t urb_permille, uncached_permille, write_permille, atomic_permille;
    uint32_t hot_permille, hot_lines, conflict_sets, conflict_lines;
    uint32_t ro_permille, slm_permille, program_permille, program_ways;
    struct port *cs;
    uint64_t programs;
    uint64_t rng;
    struct stream st[MAX_STREAMS];
    uint64_t sent, received, bad_replies, latency_cycles;
};

#define S struct l3_stim
static const struct param_desc stim_params[] = {
    PARAM_U64_FIELD("seed", S, seed, 1, 0, INT64_MAX, "random seed"),
    PARAM_U32_FIELD("clients", S, clients, 1, 1, MAX_STREAMS, "request streams (ports)"),
    PARAM_U32_FIELD("requests", S, requests, 1000, 0, 100000000, "requests per stream"),
    PARAM_U32_FIELD("outstanding", S, outstanding, 8, 1, 4096, "unanswered requests per stream"),
    PARAM_U32_FIELD("send_permille", S, send_permille, 600, 1, 1000, "chance of sending a cycle"),
    PARAM_U32_FIELD("pop_permille", S, pop_permille, 1000, 1, 1000,
                    "chance of popping a reply a cycle (< 1000: back-pressure)"),
    PARAM_U32_FIELD("urb_permille", S, urb_permille, 60, 0, 1000, "URB requests"),
    PARAM_U32_FIELD("uncached_permille", S, uncached_permille, 60, 0, 1000, "uncached requests"),
    PARAM_U32_FIELD("write_permille", S, write_permille, 250, 0, 1000, "writes"),
    PARAM_U32_FIELD("atomic_permille", S, atomic_permille, 60, 0, 1000, "atomics"),
    PARAM_U32_FIELD("hot_permille", S, hot_permille, 450, 0, 1000, "addresses from the hot lines"),
    PARAM_U32_FIELD("hot_lines", S, hot_lines, 24, 1, 1 << 20, "hot lines"),
    PARAM_U32_FIELD("conflict_sets", S, conflict_sets, 3, 1, 4096, "sets the other lines share"),
    PARAM_U32_FIELD("conflict_lines", S, conflict_lines, 10, 1, 1 << 16, "lines per such set"),
    PARAM_U32_FIELD("ro_permille", S, ro_permille, 0, 0, 1000,
                    "cached requests to read-only data (target MEMREQ_RO_DATA)"),
    PARAM_U32_FIELD("slm_permille", S, slm_permille, 0, 0, 1000, "URB requests sent as SLM"),
    PARAM_U32_FIELD("program_permille", S, program_permille, 0, 0, 1000,
                    "chance a cycle of an L3CNTLREG write on \"cs\" (linked)"),
    PARAM_U32_FIELD("program_ways", S, program_ways, 32, 2, 127,
                    "the L3's ways per bank (size_kib / banks / way_kib): most writes sum to it"),
    PARAM_END
};

static const struct port_desc stim_ports[] = {
    { .name = "out", .direction = PORT_OUT, .count_param = "clients",
      .msg_kinds = 1u << MSG_MEMORY_REQUEST, .help = "requests" },
    { .name = "in", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .count_param = "clients", .flags = PORT_OPTIONAL,
      .help = "replies" },
    { .name = "cs", .direction = PORT_OUT, .flags = PORT_OPTIONAL,
      .msg_kinds = 1u << MSG_MMIO, .help = "L3CNTLREG writes (MSG_MMIO CS_MMIO_WRITE)" },
    PORT_END
};

static const struct stat_desc stim_stats[] = {
    STAT_COUNTER_FIELD("sent", S, sent, "messages", "requests sent"),
    STAT_COUNTER_FIELD("received", S, received, "messages", "replies received"),
    STAT_COUNTER_FIELD("bad_replies", S, bad_replies, "messages",
                       "replies with a tag not outstanding, or of another kind"),
    STAT_COUNTER_FIELD("latency_cycles", S, latency_cycles, "cycles", "sum of reply latencies"),
    STAT_COUNTER_FIELD("programs", S, programs, "messages", "L3CNTLREG writes sent"),
    STAT_END
};
#undef S

static uint64_t next(struct l3_stim *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return s->rng;
}

static uint32_t below(struct l3_stim *s, uint32_t n)
{
    return (uint32_t)(next(s) % n);
}

static int stim_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct l3_stim *s = unit_state(u);
    for (uint32_t i = 0; i < s->clients; i++) {
        s->st[i].out = unit_port(u, "out", i);
        s->st[i].in = unit_port(u, "in", i);
        s->st[i].sent_at = gt_xmalloc((s->requests + 1) * sizeof(uint64_t));
    }
    s->cs = unit_port(u, "cs", 0);
    if (s->cs && !port_is_bound(s->cs))
        s->cs = NULL;
    return 0;
}

static void stim_reset(struct unit *u)
{
    struct l3_stim *s = unit_state(u);
    s->rng = s->seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    for (uint32_t i = 0; i < s->clients; i++) {
        struct stream *t = &s->st[i];
        t->sent = t->received = t->outstanding = 0;
        for (uint32_t k = 0; k <= s->requests; k++)
            t->sent_at[k] = UINT64_MAX;
    }
    unit_wake_at(u, 1);
}

static void stim_destroy(struct unit *u)
{
    struct l3_stim *s = unit_state(u);
    for (uint32_t i = 0; i < s->clients; i++)
        free(s->st[i].sent_at);
}

static struct memreq make_request(struct l3_stim *s, uint32_t tag, uint32_t client)
{
    struct memreq q = { .tag = tag, .client = client, .bytes = MEMREQ_LINE_BYTES };
    uint32_t r = below(s, 1000);
    q.target = r < s->urb_permille ? MEMREQ_URB
             : r < s->urb_permille + s->uncached_permille ? MEMREQ_UNCACHED : MEMREQ_DATA;
    /* drawn only when asked for, so older runs keep their sequences */
    if (q.target == MEMREQ_URB && s->slm_permille && below(s, 1000) < s->slm_permille)
        q.target = MEMREQ_SLM;
    if (q.target == MEMREQ_DATA && s->ro_permille && below(s, 1000) < s->ro_permille)
        q.target = MEMREQ_RO_DATA;
    r = below(s, 1000);
    q.op = r < s->write_permille ? MEMREQ_WRITE
         : r < s->write_permille + s->atomic_permille ? MEMREQ_ATOMIC : MEMREQ_READ;
    uint64_t line;
    if (below(s, 1000) < s->hot_permille)
        line = 0x1000 + below(s, s->hot_lines) * 5;      /* every fifth set: spread */
    else
        line = 0x8000 + (uint64_t)below(s, s->conflict_lines) * 4096 + below(s, s->conflict_sets) * 7;
    q.address = line * MEMREQ_LINE_BYTES + (below(s, 4) ? 0 : below(s, 64));
    if (q.address % MEMREQ_LINE_BYTES)
        q.bytes = (uint16_t)(MEMREQ_LINE_BYTES - q.address % MEMREQ_LINE_BYTES);
    return q;
}

/* An L3CNTLREG value: mostly ways that add up to program_ways (URB, RO, DC,
 * All; now and then SLM on), now and then one that does not (rejected). */
static uint32_t make_program(struct l3_stim *s)
{
    uint32_t n = s->program_ways;
    uint32_t slm = below(s, 8) == 0, slm_ways = slm ? n / 2 : 0;
    uint32_t left = n - slm_ways;
    uint32_t urb = below(s, left / 2 + 1);
    uint32_t ro = below(s, 3) ? below(s, (left - urb) / 3 + 1) : 0;
    uint32_t dc = below(s, 2) ? below(s, (left - urb - ro) / 2 + 1) : 0;
    uint32_t all = left - urb - ro - dc;
    if (below(s, 6) == 0)
        all = below(s, 2) ? all + 1 : 0;       /* sum off, or Rest 0 */
    return slm | (urb & 0x7F) << 1 | (ro & 0x7F) << 11 | (dc & 0x7F) << 18 |
           (all & 0x7F) << 25;
}

static enum unit_activity stim_tick(struct unit *u)
{
    struct l3_stim *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    uint64_t now = unit_cycle(u);
    bool busy = false;
    if (s->cs && s->program_permille && below(s, 1000) < s->program_permille &&
        port_can_send(s->cs)) {
        struct msg *m = msg_alloc(sim, MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        w->op = CS_MMIO_WRITE;
        w->offset = L3CNTLREG;
        w->value = make_program(s);
        port_try_send(s->cs, m);
        s->programs++;
    }
    for (uint32_t i = 0; i < s->clients; i++) {
        struct stream *t = &s->st[i];
        struct msg *m;
        if (t->in && port_peek(t->in) && below(s, 1000) < s->pop_permille) {
            m = port_pop(t->in);
            const struct memreply *a = (const struct memreply *)m->payload;
            if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *a || a->tag >= s->requests ||
                t->sent_at[a->tag] == UINT64_MAX || m->tag != a->tag) {
                s->bad_replies++;
            } else {
                s->latency_cycles += now - t->sent_at[a->tag];
                t->sent_at[a->tag] = UINT64_MAX;
                t->outstanding--;
                t->received++;
                s->received++;
            }
            msg_free(sim, m);
        }
        if (t->sent < s->requests && t->outstanding < s->outstanding &&
            below(s, 1000) < s->send_permille && port_can_send(t->out)) {
            m = msg_alloc(sim, MSG_MEMORY_REQUEST, sizeof(struct memreq));
            struct memreq q = make_request(s, t->sent, unit_id(u));
            memcpy(m->payload, &q, sizeof q);
            m->tag = t->sent;
            port_try_send(t->out, m);
            t->sent_at[t->sent] = now;
            t->sent++;
            t->outstanding++;
            s->sent++;
        }
        if (t->sent < s->requests || (t->in && t->outstanding))
            busy = true;
    }
    return busy ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops l3_stim_ops = {
    .kind = "l3_stim",
    .help = "co-simulation stimulus: seeded random L3 requests (hits, misses, set conflicts, "
            "evictions, writebacks, URB, uncached, atomics) with optional reply back-pressure",
    .state_size = sizeof(struct l3_stim),
    .params = stim_params,
    .ports = stim_ports,
    .stats = stim_stats,
    .realize = stim_realize,
    .reset = stim_reset,
    .tick = stim_tick,
    .destroy = stim_destroy,
};
