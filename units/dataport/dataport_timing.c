/* units/dataport/dataport_timing.c - when a message's reply goes: one MSG_MEMORY_REQUEST
 * per 64-byte line it touched to the slice's L3 (units/common/memreq.h; SLM lines with
 * target SLM), the reply when every line is answered, or after `latency` cycles when no
 * L3 is linked or the data port is `functional` (fast mode: nothing timed); and the
 * reply queue (write-backs in order, each at its due cycle). */
#include "units/dataport/dataport_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"

/* ---- the reply queue (fabric/reply_queue.h): transactions whose reply can go, in the
 * order they became ready (an entry not yet due holds every later one), each with the
 * cycle it is due at; a refused write-back holds everything after it ---------------- */

/* Leaves the queue: the transaction (the entry's data) is finished. */
static void reply_left(void *context, const struct reply_queue_entry *e, bool sent)
{
    (void)sent;
    struct unit *u = context;
    uint32_t ti;
    memcpy(&ti, reply_queue_data(e), sizeof ti);
    dp_finish(unit_state(u), u, ti);
    unit_progress(u);
}

void dp_reply_queue_init(struct dp *s, struct unit *u)
{
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .capacity = s->max_outstanding, .data_size = sizeof(uint32_t),
        .order = REPLY_QUEUE_INSERTION, .refusal = REPLY_QUEUE_STOP,
        .ports = s->wb, .port_count = s->eus, .stall_count = &s->stall_writeback,
        .done = reply_left, .context = u });
}

/* The write-back (if any) goes to the EU's port from `due`; the queue owns it from now
 * on. One entry per transaction in flight, so the queue (max_outstanding) has room. */
static void ready_push(struct dp *s, uint32_t ti, uint64_t due)
{
    struct txn *t = &s->txn[ti];
    reply_queue_push(&s->replies, due, t->eu, t->wb, &ti);
    t->wb = NULL;
}

void dp_send_replies(struct dp *s, struct unit *u, bool wake)
{
    reply_queue_send(&s->replies, u);
    if (wake)
        reply_queue_wake(&s->replies, u);
}

/* Whether the reply queue's first entry is due by the next cycle (the unit stays busy). */
bool dp_reply_due(const struct dp *s, uint64_t now)
{
    return reply_queue_next_ready(&s->replies) <= now + 1;
}

/* ---- line requests ----------------------------------------------------------------- */

/* Where a message's lines go once it has executed: through the constant cache (SFID 9
 * with an L3: hits need no request), as line requests to the L3 (the reply when all
 * are answered), or, without an L3, a fence, or no lines, a reply after `latency`. */
void dp_route_lines(struct dp *s, uint32_t ti, enum dp_op op, bool sfid_ro, uint64_t now)
{
    struct txn *t = &s->txn[ti];
    t->lines_left = 0;
    if (s->functional) {
        t->ro = false;
        ready_push(s, ti, now + s->latency);
        return;
    }
    t->ro = sfid_ro && op != OP_UNSUPPORTED && s->cc_lines && s->l3 && port_is_bound(s->l3);
    if (t->ro && t->nlines && dp_const_cache_filter(s, t) == 0) {
        ready_push(s, ti, now + s->cc_latency);
        return;
    }
    if (s->l3 && port_is_bound(s->l3) && t->nlines && op != OP_FENCE) {
        t->lines_left = t->nlines;
        for (uint32_t i = 0; i < t->nlines; i++)
            fifo_push(&s->line_queue, &(struct pending_line){ ti, i });
    } else {
        ready_push(s, ti, now + s->latency);
    }
}

void dp_send_lines(struct dp *s, struct unit *u)
{
    while (fifo_count(&s->line_queue)) {
        if (!port_can_send(s->l3)) {
            s->stall_l3++;
            return;
        }
        struct pending_line pl;
        fifo_pop(&s->line_queue, &pl);
        const struct txn *t = &s->txn[pl.txn];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = t->lines[pl.index];
        r->tag = pl.txn;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = t->ops[pl.index];
        r->target = t->targets[pl.index];
        r->client = unit_id(u);
        port_try_send(s->l3, m);
        s->lines++;
    }
}

void dp_take_l3_replies(struct dp *s, struct unit *u)
{
    struct msg *m;
    while (s->l3_reply && (m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *r || r->tag >= s->max_outstanding ||
            !s->txn[r->tag].used || s->txn[r->tag].lines_left == 0) {
            s->bad_messages++;
        } else {
            s->l3_replies++;
            if (s->txn[r->tag].ro)
                dp_const_cache_fill(s, r->address);
            if (--s->txn[r->tag].lines_left == 0)
                ready_push(s, r->tag, 0);
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

void dp_finish(struct dp *s, struct unit *u, uint32_t ti)
{
    struct txn *t = &s->txn[ti];
    uint64_t now = unit_cycle(u);
    s->latency_sum += now > t->start ? now - t->start : 0;
    t->used = false;
    s->txn_used[ti / 64] &= ~(UINT64_C(1) << (ti % 64));
    t->wb = NULL;
    s->in_flight--;
    if (s->free_txn == UINT32_MAX)
        s->free_txn = ti;
}
