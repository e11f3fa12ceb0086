/* units/dataport/dataport.c - the data port unit: its parameters, ports and stats,
 * taking messages from the EUs, and the tick; see dataport.h for what it models and
 * dataport_internal.h for the files of each concern. */
#include "units/dataport/dataport.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"
#include "units/dataport/dataport_internal.h"

static const struct param_desc dp_params[] = {
    PARAM_U32_FIELD("max_outstanding", struct dp, max_outstanding, 64, 1, DP_MAX_TXN,
                    "messages in flight at most (waiting for their L3 lines)"),
    PARAM_U32_FIELD("latency", struct dp, latency, 20, 1, 100000,
                    "cycles from a message to its reply when no L3 is linked"),
    PARAM_U32_FIELD("messages_per_cycle", struct dp, messages_per_cycle, 1, 1, 64,
                    "messages taken per cycle"),
    PARAM_U32_FIELD("slm_kib", struct dp, slm_kib, 64, 4, 128,
                    "shared local memory of the subslice, KiB (seed 003 L17346: 64 KB)"),
    PARAM_U32_FIELD("gen", struct dp, gen, 9, 7, 9,
                    "generation of the message encodings when a thread names none"),
    PARAM_U32_FIELD("cc_lines", struct dp, cc_lines, 64, 0, 65536,
                    "constant cache lines (64 B, direct mapped; 0: none). The seed names the "
                    "read-only port's constant cache but gives no size: model choice"),
    PARAM_BOOL_FIELD("functional", struct dp, functional, 0,
                     "functional mode (with the EUs' fast mode): every message executes and replies "
                     "after `latency` cycles, no line goes to the L3 (no cache or memory timing); "
                     "fast EUs call it (fabric/port.h port_call): no queueing, no messages_per_cycle"),
    PARAM_U32_FIELD("cc_latency", struct dp, cc_latency, 10, 1, 100000,
                    "cycles from an SFID 9 read whose lines all hit the constant cache to its "
                    "reply (model choice; IGC's heuristic has 60 for DP CC against 400 for DC)"),
    PARAM_END
};

static const struct port_desc dp_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND) | MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "SEND messages from each EU (MSG_SEND)" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "write-backs to the EU of the same index (MSG_WRITEBACK)" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "line requests to the slice's L3 (MSG_MEMORY_REQUEST)" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their completions (MSG_MEMORY_RESPONSE)" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "the same line requests straight to memory, on machines without an L3 (Gen4)" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their completions" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct dp, f, m, h)
static const struct stat_desc dp_stats[] = {
    C("messages", messages, "messages", "SEND messages taken"),
    C("calls", calls, "messages", "of them taken as calls, executed at once (fast mode with "
      "`functional`: fabric/port.h port_call)"),
    C("reads", reads, "messages", "read messages"),
    C("writes", writes, "messages", "write messages"),
    C("atomics", atomics, "messages", "atomic messages"),
    C("fences", fences, "messages", "memory fences"),
    C("lines", lines, "requests", "64-byte line requests made to the L3"),
    C("l3_replies", l3_replies, "replies", "line completions from the L3"),
    C("bytes_read", bytes_read, "bytes", "bytes read for enabled slots"),
    C("bytes_written", bytes_written, "bytes", "bytes written for enabled slots"),
    C("slm_accesses", slm_accesses, "accesses", "slot accesses to shared local memory"),
    C("out_of_bounds", out_of_bounds, "accesses", "slot accesses outside their surface (read 0 / dropped)"),
    C("bti_beyond_table", bti_beyond_table, "messages",
      "binding table indices beyond the descriptor's entry count (null surface)"),
    C("state_faults", state_faults, "messages", "binding table entries or surface states unreadable"),
    C("page_faults", page_faults, "accesses", "accesses to unmapped memory (read 0 / dropped)"),
    C("slm_out_of_bounds", slm_out_of_bounds, "accesses", "SLM accesses beyond the group's allocation"),
    C("unsupported", unsupported, "messages", "unknown or unmodelled messages (zeros returned)"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("sunk", sunk, "messages", "generic (test) messages taken and dropped"),
    C("stall.l3", stall_l3, "cycles", "cycles with line requests held by a full L3 channel"),
    C("stall.writeback", stall_writeback, "cycles", "cycles with a reply held by a full channel"),
    C("lines_dropped", lines_dropped, "lines", "lines beyond what one message may track (not timed)"),
    C("latency_sum", latency_sum, "cycles", "message latency summed over replied messages"),
    C("cc_hits", cc_hits, "lines", "SFID 9 lines found in the constant cache (no L3 request)"),
    C("cc_misses", cc_misses, "lines", "SFID 9 lines sent to the L3 as read-only data"),
    STAT_END
};
#undef C

/* ---- taking messages --------------------------------------------------------- */

void dp_warn_once(struct dp *s, struct unit *u, unsigned bit, const char *fmt, uint32_t a,
                  uint32_t b)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    unit_log(u, SIM_LOG_NOTE, fmt, a, b);
}

/* Whether message m from EU port `eu` is one to execute; a generic (test) message
 * is sunk and a malformed one counted, both dropped. */
static bool message_ok(struct dp *s, struct unit *u, uint32_t eu, const struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind == MSG_GENERIC) {
        s->sunk++;              /* the fabric's default workload: no hardware meaning */
        return false;
    }
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message (%u bytes) from eu %u dropped",
                 msg_kind_name(m->kind), m->size, eu);
        return false;
    }
    return true;
}

/* Executes message m from EU port `eu` as transaction t: its reply (if any) in t->wb,
 * the lines it touched in t->lines. Returns what it was. */
static enum dp_op execute_message(struct dp *s, struct unit *u, uint32_t eu, const struct msg *m,
                                  struct txn *t)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    t->eu = eu;
    t->nlines = 0;
    t->wb = NULL;
    t->start = unit_cycle(u);
    s->messages++;
    unsigned gen = p->ctx.valid && p->ctx.gen ? p->ctx.gen : s->gen;
    enum dp_op op = dp_decode(gen, p->sfid, p->desc);
    uint32_t rlen = p->rlen;
    if (rlen) {
        t->wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                          (uint32_t)(sizeof(struct eu_writeback_msg) + rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)t->wb->payload;
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = (uint8_t)rlen;
        t->wb->tag = m->tag;
    }
    if (op == OP_UNSUPPORTED) {
        s->unsupported++;
        dp_warn_once(s, u, 3, "data port message not modelled (SFID %u, descriptor 0x%08x): zeros "
                     "returned", p->sfid, p->desc);
    } else {
        struct acc a = { .s = s, .u = u, .t = t, .ctx = &p->ctx };
        gpu_address_space_init(&a.as, sim_memory(unit_sim(u)),
                               (enum gpu_address_space_format)p->ctx.space_format,
                               p->ctx.space_root);
        uint8_t *wb = t->wb ? ((struct eu_writeback_msg *)t->wb->payload)->regs[0] : NULL;
        dp_execute(&a, p, (uint32_t)p->mlen + p->ex_mlen, wb, rlen, op);
    }
    return op;
}

static void take_message(struct dp *s, struct unit *u, uint32_t eu, struct msg *m)
{
    if (!message_ok(s, u, eu, m))
        return;
    uint32_t ti = s->free_txn;
    struct txn *t = &s->txn[ti];
    s->free_txn = UINT32_MAX;
    t->used = true;
    s->txn_used[ti / 64] |= UINT64_C(1) << (ti % 64);
    /* the lowest unused transaction below max_outstanding */
    for (uint32_t w = 0; w * 64 < s->max_outstanding; w++) {
        uint64_t fr = ~s->txn_used[w];
        if (fr) {
            uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(fr);
            if (k < s->max_outstanding)
                s->free_txn = k;
            break;
        }
    }
    s->in_flight++;
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    enum dp_op op = execute_message(s, u, eu, m, t);
    dp_route_lines(s, ti, op, p->sfid == SFID_DCRO, unit_cycle(u));
}

/* ---- calls (fabric/port.h port_call): functional mode only --------------------------
 * An EU in fast mode calls instead of sending when the data port is functional: the
 * message executes in the EU's edge commit (the fabric runs those in unit order, so
 * memory sees the same order on any number of host threads) and its reply is due at
 * the EU when the channels would have brought it with no queueing: the link's
 * latency, `latency`, and the write-back link's latency. Not modelled in calls: the
 * `messages_per_cycle` limit and `max_outstanding` (functional mode times nothing). */

static bool dp_callable(const struct unit *u, const struct port *in)
{
    (void)in;
    return ((const struct dp *)unit_state(u))->functional;
}

static struct msg *dp_call(struct unit *u, struct port *in, const struct msg *m, uint64_t arrival,
                           uint64_t *reply_cycle)
{
    struct dp *s = unit_state(u);
    uint32_t eu = port_index(in);
    struct msg *reply = NULL;   /* (port_call notes the progress) */
    if (message_ok(s, u, eu, m)) {
        struct txn *t = s->call_txn;
        s->calls++;
        s->in_call = true;      /* atomics on memory apply now (dataport_atomic.c) */
        execute_message(s, u, eu, m, t);
        s->in_call = false;
        s->latency_sum += s->latency;
        reply = t->wb;
        t->wb = NULL;
        struct link_params back;
        if (reply && s->wb[eu] && port_link(s->wb[eu], &back)) {
            *reply_cycle = arrival + s->latency + back.latency;
        } else if (reply) {     /* as the reply queue drops a reply to an unbound port */
            msg_free(unit_sim(u), reply);
            reply = NULL;
        }
    }
    return reply;
}

/* ---- the unit ------------------------------------------------------------------- */

static int dp_realize(struct unit *u, struct gt_error *err)
{
    struct dp *s = unit_state(u);
    s->eus = unit_port_count(u, "eu");
    if (s->eus > DP_MAX_EUS)
        return gt_error_set(err, "%u eu links; at most %d", s->eus, DP_MAX_EUS);
    free(s->eu);
    free(s->wb);
    s->eu = gt_xcalloc(s->eus + 1, sizeof *s->eu);
    s->wb = gt_xcalloc(s->eus + 1, sizeof *s->wb);
    for (uint32_t i = 0; i < s->eus; i++) {
        s->eu[i] = unit_port(u, "eu", i);
        s->eu_bit[i] = port_queued_bit(s->eu[i]);
        s->wb[i] = i < unit_port_count(u, "writeback") ? unit_port(u, "writeback", i) : NULL;
    }
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    if (!port_is_bound(s->l3)) {
        s->l3 = unit_port(u, "memory", 0);
        s->l3_reply = unit_port(u, "memory_reply", 0);
    }
    dp_reply_queue_init(s, u);
    return 0;
}

static void dp_release(struct dp *s, struct unit *u)
{
    reply_queue_clear(&s->replies, unit_sim(u));
    if (s->txn)
        for (uint32_t i = 0; i < DP_MAX_TXN; i++)
            if (s->txn[i].wb)
                msg_free(unit_sim(u), s->txn[i].wb);
    free(s->txn);
    free(s->call_txn);
    s->call_txn = NULL;
    fifo_release(&s->line_queue);
    free(s->slm);
    free(s->cc);
    s->cc = NULL;
    s->deferred_count = 0;
    s->txn = NULL;
    s->slm = NULL;
}

static void dp_reset(struct unit *u)
{
    struct dp *s = unit_state(u);
    dp_release(s, u);
    s->txn = gt_xcalloc(DP_MAX_TXN, sizeof *s->txn);
    s->call_txn = gt_xcalloc(1, sizeof *s->call_txn);
    s->slm = gt_xcalloc(1, s->slm_kib * 1024u);
    s->cc = gt_xcalloc(s->cc_lines ? s->cc_lines : 1, sizeof *s->cc);
    s->free_txn = 0;
    memset(s->txn_used, 0, sizeof s->txn_used);
    memset(s->memo, 0, sizeof s->memo);
    memset(s->xlate, 0, sizeof s->xlate);
    memset(s->bti_cache, 0, sizeof s->bti_cache);
    s->memo_next = 0;
    fifo_init(&s->line_queue, sizeof(struct pending_line));
    s->in_flight = 0;
}

static enum unit_activity dp_tick(struct unit *u)
{
    struct dp *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    /* Nothing in any input channel: no poll below could take a message. */
    bool queued = unit_has_queued(u);
    if (queued) {
        dp_take_l3_replies(s, u);
        queued = unit_has_queued(u);    /* what is left for the EU ports */
    }
    dp_send_replies(s, u, false);
    uint32_t taken = 0;
    /* the inputs' bits as the polls start: what arrives in this tick is visible later */
    uint64_t bits = queued ? unit_queued_ports(u) : 0;
    for (uint32_t k = 0; queued && k < s->eus && taken < s->messages_per_cycle; k++) {
        uint32_t e = (s->next_eu + k) % s->eus;
        if (!(bits & s->eu_bit[e]))
            continue;   /* nothing in its channel */
        struct msg *m;
        /* an atomic on memory is the last message of its cycle: it is applied
         * at the cycle's end, and a later message must see it */
        while (taken < s->messages_per_cycle && s->free_txn != UINT32_MAX &&
               s->deferred_count == 0 &&
               (m = port_pop(s->eu[e])) != NULL) {
            take_message(s, u, e, m);
            msg_free(unit_sim(u), m);
            taken++;
            unit_progress(u);
            s->next_eu = (e + 1) % s->eus;
        }
    }
    if (s->l3 && port_is_bound(s->l3))
        dp_send_lines(s, u);
    dp_send_replies(s, u, true);
    bool more = fifo_count(&s->line_queue) > 0;
    /* a message left visible for a free transaction: none when no input
     * channel holds any message now */
    if (!more && s->free_txn != UINT32_MAX && unit_has_queued(u)) {
        bits = unit_queued_ports(u);
        for (uint32_t e = 0; e < s->eus && !more; e++)
            more = (bits & s->eu_bit[e]) && port_peek(s->eu[e]) != NULL;
    }
    if (dp_reply_due(s, now))
        more = true;
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void dp_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct dp *s = unit_state(u);
    (void)s;
    (void)w;
}

static void dp_destroy(struct unit *u)
{
    struct dp *s = unit_state(u);
    dp_release(s, u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->eu);
    free(s->wb);
    free(s->deferred);
    s->deferred = NULL;
    s->eu = s->wb = NULL;
}

const struct unit_ops dataport_ops = {
    .kind = "dataport",
    .help = "Data port (HDC) of a subslice: DC0/DC1/constant-cache messages (untyped surface "
            "read/write and atomics, A64, byte/dword scattered, OWord block, fence) over the "
            "binding table, A32/A64 stateless and SLM address models; one L3 request per line "
            "touched, reply when all are done (seed 003 L4828-7583).",
    .state_size = sizeof(struct dp),
    .params = dp_params,
    .ports = dp_ports,
    .stats = dp_stats,
    .realize = dp_realize,
    .reset = dp_reset,
    .tick = dp_tick,
    .edge_commit = dp_edge_commit,
    .callable = dp_callable,
    .call = dp_call,
    .stats_derived = dp_stats_derived,
    .destroy = dp_destroy,
};
