/* units/gateway/gateway.c - the message gateway; see gateway.h. */
#include "units/gateway/gateway.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "units/common/thread_msg.h"

#define GW_BARRIERS 32
#define GW_MAX_WAITERS 64

struct waiter {
    uint32_t eu;
    uint8_t slot;
    uint8_t dst_reg;
    uint8_t rlen;
    uint32_t predicate;
};

struct barrier {
    uint32_t count;             /* threads it waits for; 0 = not programmed */
    uint32_t arrived;
    uint32_t predicate_sum;
    struct waiter w[GW_MAX_WAITERS];
};

struct gateway {
    /* params */
    uint32_t latency, max_waiters;
    /* ports */
    struct port **eu, **wb;
    uint32_t eus, wbs;
    /* state */
    struct barrier *bar;
    /* replies by due cycle (all `latency` after their cause, so in the order
     * made); one held by a full channel holds only later ones to its EU */
    struct reply_queue replies;
    uint32_t warned;
    /* stats */
    uint64_t messages, barrier_msgs, barriers_released, timestamps, notifications;
    uint64_t unsupported, bad_messages, no_count, overflow;
};

static const struct param_desc gw_params[] = {
    PARAM_U32_FIELD("latency", struct gateway, latency, 4, 1, 100000,
                    "cycles from the message completing a barrier (or a timestamp request) to "
                    "its write-backs (the seed gives none)"),
    PARAM_U32_FIELD("max_waiters", struct gateway, max_waiters, 64, 1, GW_MAX_WAITERS,
                    "threads one barrier can hold"),
    PARAM_END
};

static const struct port_desc gw_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "gateway messages (SEND to SFID 3) from each EU" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "notifications and replies to the EU of the same index" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct gateway, f, m, h)
static const struct stat_desc gw_stats[] = {
    C("messages", messages, "messages", "messages taken"),
    C("barrier_messages", barrier_msgs, "messages", "BarrierMsg requests"),
    C("barriers_released", barriers_released, "barriers", "barriers whose count was met"),
    C("notifications", notifications, "messages", "notifications sent to waiting threads"),
    C("timestamps", timestamps, "messages", "GetTimeStamp requests"),
    C("unsupported", unsupported, "messages", "SubFuncIDs not modelled (zeros returned)"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("no_count", no_count, "messages",
      "barrier requests with no thread count (released at once, bad programming)"),
    C("overflow", overflow, "messages", "requesters beyond max_waiters (released at once)"),
    STAT_END
};
#undef C

static void queue_reply(struct gateway *s, struct unit *u, uint32_t eu, uint8_t slot,
                        uint8_t dst_reg, uint8_t rlen, const uint32_t *w0)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                              (uint32_t)(sizeof(struct eu_writeback_msg) + rlen * EU_MSG_REG_BYTES));
    struct eu_writeback_msg *w = (struct eu_writeback_msg *)m->payload;
    w->slot = slot;
    w->dst_reg = dst_reg;
    w->rlen = rlen;
    if (rlen && w0)
        memcpy(w->regs[0], w0, EU_MSG_REG_BYTES);
    m->tag = slot;
    reply_queue_push(&s->replies, unit_cycle(u) + s->latency, eu, m, NULL);
}

static void release(struct gateway *s, struct unit *u, struct barrier *b)
{
    for (uint32_t i = 0; i < b->arrived && i < GW_MAX_WAITERS; i++) {
        uint32_t w0[8] = { b->predicate_sum & 0xffff, 0, 0, 0, 0, 0, 0, 0 };
        queue_reply(s, u, b->w[i].eu, b->w[i].slot, b->w[i].dst_reg, b->w[i].rlen, w0);
        s->notifications++;
    }
    b->arrived = 0;
    b->predicate_sum = 0;
    s->barriers_released++;
}

static void take(struct gateway *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p || p->mlen < 1 ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        return;
    }
    s->messages++;
    uint32_t m0[8];
    memcpy(m0, p->regs[0], sizeof m0);
    unsigned fn = desc_gw_subfunction(p->desc);   /* SubFuncID, 003 L9024-9036 */
    uint8_t rlen = p->rlen > 1 ? 1 : p->rlen;
    if (fn == DESC_GW_BARRIER_MSG) {
        s->barrier_msgs++;
        uint32_t id = ((m0[2] >> 24) & 15) | ((m0[2] >> 31) << 4);
        struct barrier *b = &s->bar[id];
        uint32_t count = p->ctx.barrier_threads;
        if (m0[2] & (1u << 15))
            count = (m0[2] >> 9) & 0x3f;
        if (count)
            b->count = count;
        if (!b->count) {
            s->no_count++;
            if (!(s->warned & 1)) {
                s->warned |= 1;
                unit_log(u, SIM_LOG_NOTE, "barrier %u has no thread count: released at once", id);
            }
            queue_reply(s, u, eu, p->slot, p->dst_reg, rlen, NULL);
            return;
        }
        if (b->arrived >= s->max_waiters) {
            s->overflow++;
            queue_reply(s, u, eu, p->slot, p->dst_reg, rlen, NULL);
            return;
        }
        b->w[b->arrived++] = (struct waiter){ eu, p->slot, p->dst_reg, rlen, m0[3] };
        if (m0[2] & (1u << 30))
            b->predicate_sum += (uint32_t)__builtin_popcount(m0[3] & 0xffff);
        if (b->arrived >= b->count)
            release(s, u, b);
    } else if (fn == DESC_GW_GET_TIMESTAMP) {
        s->timestamps++;
        uint64_t t = unit_cycle(u);
        uint32_t w0[8] = { 0 };
        unsigned h = (m0[5] >> 31) ? 4 : 0;
        w0[h + 0] = (uint32_t)t;
        w0[h + 1] = (uint32_t)(t >> 32);
        w0[h + 2] = (uint32_t)t;
        w0[h + 3] = (uint32_t)(t >> 32);
        if (rlen)
            queue_reply(s, u, eu, p->slot, p->dst_reg, rlen, w0);
    } else {
        s->unsupported++;
        if (!(s->warned & 2)) {
            s->warned |= 2;
            unit_log(u, SIM_LOG_NOTE, "gateway SubFuncID %u is not modelled", fn);
        }
        if (rlen)
            queue_reply(s, u, eu, p->slot, p->dst_reg, rlen, NULL);
    }
}

static int gw_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct gateway *s = unit_state(u);
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->wb = unit_port_array(u, "writeback", &s->wbs);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->wb, .port_count = s->wbs });
    return 0;
}

static void gw_reset(struct unit *u)
{
    struct gateway *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    if (!s->bar)
        s->bar = gt_xcalloc(GW_BARRIERS, sizeof *s->bar);
    memset(s->bar, 0, GW_BARRIERS * sizeof *s->bar);
}

static enum unit_activity gw_tick(struct unit *u)
{
    struct gateway *s = unit_state(u);
    struct msg *m;
    for (uint32_t e = 0; e < s->eus; e++)
        while ((m = port_pop(s->eu[e])) != NULL) {
            take(s, u, e, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void gw_destroy(struct unit *u)
{
    struct gateway *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->bar);
    s->bar = NULL;
}

const struct unit_ops gateway_ops = {
    .kind = "gateway",
    .help = "Message gateway of a subslice (SFID 3): thread-group barriers (BarrierMsg, "
            "predicated barriers) and GetTimeStamp (seed 003 L9016-9140).",
    .state_size = sizeof(struct gateway),
    .params = gw_params,
    .ports = gw_ports,
    .stats = gw_stats,
    .realize = gw_realize,
    .reset = gw_reset,
    .tick = gw_tick,
    .destroy = gw_destroy,
};
