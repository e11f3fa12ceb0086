/* units/math/math.c - see math.h. */
#include "units/math/math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "units/common/thread_msg.h"

#define MATH_MAX_EUS 64
#define CH_PER_REG (MATH_REG_BYTES / 4)

/* ---- the function library ------------------------------------------------------ */

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void wr32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static float as_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t as_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* One float function of 003 L24065-24250 (the same codes as the Gen4 message). */
static float float_fn(unsigned fn, float x, float y)
{
    switch (fn) {
    case DESC_MATH_INV: return 1.0f / x;
    case DESC_MATH_LOG: return log2f(x);
    case DESC_MATH_EXP: return exp2f(x);
    case DESC_MATH_SQRT: return sqrtf(x);
    case DESC_MATH_RSQ: return 1.0f / sqrtf(x);
    case DESC_MATH_SIN: return sinf(x);
    case DESC_MATH_COS: return cosf(x);
    default: return powf(x, y);             /* DESC_MATH_POW */
    }
}

void math_gen4_execute(uint32_t desc, const uint8_t (*payload)[MATH_REG_BYTES], unsigned mlen,
                       uint32_t exec_mask, uint8_t (*out)[MATH_REG_BYTES], unsigned rlen,
                       struct math_gen4_status *status)
{
    memset(status, 0, sizeof *status);
    for (unsigned r = 0; r < rlen; r++)
        memset(out[r], 0, MATH_REG_BYTES);
    /* the gen4 math message descriptor (opcodes.txt [message-descriptors] math rows) */
    unsigned fn = desc_math_function(desc);
    bool is_signed = desc_math_signed_int(desc), saturate = desc_math_saturate(desc);
    bool scalar = desc_math_data_type(desc);
    bool integer = fn >= DESC_MATH_INTDIVMOD && fn <= DESC_MATH_INTMOD;
    bool valid = (fn >= DESC_MATH_INV && fn <= DESC_MATH_SINCOS) || fn == DESC_MATH_POW || integer;
    unsigned nops = fn == DESC_MATH_POW || integer ? 2 : 1;
    unsigned results = fn == DESC_MATH_SINCOS || fn == DESC_MATH_INTDIVMOD ? 2 : 1;
    if (!valid || mlen < nops) {
        status->bad = true;
        return;
    }
    unsigned per = mlen / nops;                 /* registers per operand */
    unsigned nch = per * CH_PER_REG;
    for (unsigned ch = 0; ch < nch; ch++) {
        unsigned src = scalar ? 0 : ch;
        uint32_t a = rd32(payload[src / CH_PER_REG] + 4 * (src % CH_PER_REG));
        uint32_t b = nops > 1 ? rd32(payload[per + src / CH_PER_REG] + 4 * (src % CH_PER_REG)) : 0;
        uint32_t res[2] = { 0, 0 };
        if (integer) {
            if (b == 0) {
                if (exec_mask >> ch & 1)
                    status->divide_by_zero = true;
                res[0] = 0xffffffffu;
                res[1] = a;
            } else if (is_signed) {
                int32_t x = (int32_t)a, y = (int32_t)b;
                if (x == INT32_MIN && y == -1) {
                    res[0] = (uint32_t)INT32_MIN;
                    res[1] = 0;
                } else {
                    res[0] = (uint32_t)(x / y);
                    res[1] = (uint32_t)(x % y);
                }
            } else {
                res[0] = a / b;
                res[1] = a % b;
            }
            if (fn == DESC_MATH_INTMOD)
                res[0] = res[1];
        } else {
            float x = as_float(a), y = as_float(b);
            float r0 = fn == DESC_MATH_SINCOS ? sinf(x) : float_fn(fn, x, y);
            float r1 = fn == DESC_MATH_SINCOS ? cosf(x) : 0.0f;
            if (saturate) {
                r0 = isnan(r0) || r0 < 0 ? 0.0f : (r0 > 1 ? 1.0f : r0);
                r1 = isnan(r1) || r1 < 0 ? 0.0f : (r1 > 1 ? 1.0f : r1);
            }
            res[0] = as_bits(r0);
            res[1] = as_bits(r1);
        }
        for (unsigned k = 0; k < results; k++) {
            unsigned reg = k * per + ch / CH_PER_REG;
            if (reg < rlen)
                wr32(out[reg] + 4 * (ch % CH_PER_REG), res[k]);
        }
    }
}

/* ---- the unit ---------------------------------------------------------------------- */

struct math_unit {
    /* params */
    uint32_t latency, per_cycle, queue;
    /* ports */
    uint32_t eus;
    struct port **eu, **eu_reply;
    uint32_t eu_replies;
    /* state: replies by due cycle (all `latency` after arrival: arrival order),
     * at most `queue`; one held by a full channel holds the rest */
    struct reply_queue pending;
    uint32_t next_port;
    /* stats */
    uint64_t messages, replies, divide_by_zero, bad_messages, reply_stalls;
};

static const struct param_desc math_params[] = {
    PARAM_U32_FIELD("latency", struct math_unit, latency, 22, 1, 100000,
                    "cycles from a message's arrival to its reply (no seed figure: 001 has no "
                    "timing at all, notes/001-gen4.md §8)"),
    PARAM_U32_FIELD("per_cycle", struct math_unit, per_cycle, 1, 1, 64,
                    "messages accepted per cycle"),
    PARAM_U32_FIELD("queue", struct math_unit, queue, 32, 1, 65536,
                    "messages in flight at most (more wait in the input channels)"),
    PARAM_END
};

static const struct port_desc math_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND), .flags = PORT_OPEN,
      .help = "SEND messages (MSG_SEND, SFID 1) from the EU of this index" },
    { .name = "eu_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "MSG_WRITEBACK to the EU of the same index" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct math_unit, f, m, h)
static const struct stat_desc math_stats[] = {
    C("messages", messages, "messages", "math messages taken"),
    C("replies", replies, "messages", "write-backs sent"),
    C("divide_by_zero", divide_by_zero, "messages", "messages with an integer division by zero"),
    C("bad_messages", bad_messages, "messages",
      "malformed messages (wrong kind, reserved function, short payload): answered with zeros "
      "or dropped"),
    C("reply_stalls", reply_stalls, "attempts", "replies held by a full eu_reply channel"),
    STAT_END
};
#undef C

static int math_realize(struct unit *u, struct gt_error *err)
{
    struct math_unit *s = unit_state(u);
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->eu_reply = unit_port_array(u, "eu_reply", &s->eu_replies);
    if (s->eus > MATH_MAX_EUS)
        return gt_error_set(err, "%u EUs linked; at most %d", s->eus, MATH_MAX_EUS);
    if (s->eu_replies > s->eus)
        return gt_error_set(err, "eu_reply[%u] is linked but eu[%u] is not",
                            s->eu_replies - 1, s->eu_replies - 1);
    reply_queue_free(&s->pending, unit_sim(u));
    reply_queue_init(&s->pending, &(struct reply_queue_config){
        .capacity = s->queue, .order = REPLY_QUEUE_READY_THEN_INSERTION,
        .refusal = REPLY_QUEUE_STOP, .ports = s->eu_reply, .port_count = s->eu_replies,
        .stall_count = &s->reply_stalls });
    return 0;
}

static void math_reset(struct unit *u)
{
    struct math_unit *s = unit_state(u);
    reply_queue_clear(&s->pending, unit_sim(u));
    s->next_port = 0;
}

static void take(struct math_unit *s, struct unit *u, struct msg *m, uint32_t port, uint64_t now)
{
    struct sim *sim = unit_sim(u);
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "dropped a malformed %s message on eu[%u]", msg_kind_name(m->kind),
                 port);
        return;
    }
    s->messages++;
    if ((p->flags & EU_SEND_EOT) || p->rlen == 0 || (p->flags & EU_SEND_DST_NULL)) {
        if (p->flags & EU_SEND_EOT) {
            s->bad_messages++;
            unit_log(u, SIM_LOG_NOTE, "EOT message to the math unit (thread end is not its job)");
        }
        return;                             /* nothing to write back */
    }
    struct msg *w = msg_alloc(sim, MSG_WRITEBACK,
                              (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * EU_MSG_REG_BYTES));
    struct eu_writeback_msg *wb = (struct eu_writeback_msg *)w->payload;
    wb->slot = p->slot;
    wb->dst_reg = p->dst_reg;
    wb->rlen = p->rlen;
    struct math_gen4_status st;
    math_gen4_execute(p->desc, (const uint8_t (*)[MATH_REG_BYTES])p->regs, p->mlen, p->exec_mask,
                      (uint8_t (*)[MATH_REG_BYTES])wb->regs, p->rlen, &st);
    if (st.bad) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "math message with function %u, mlen %u: answered with zeros",
                 desc_math_function(p->desc), p->mlen);
    }
    if (st.divide_by_zero)
        s->divide_by_zero++;
    w->tag = m->tag;
    reply_queue_push(&s->pending, now + s->latency, port, w, NULL);  /* tick checked room */
}

static enum unit_activity math_tick(struct unit *u)
{
    struct math_unit *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    uint64_t now = unit_cycle(u);
    /* replies due, in order (no eu_reply: dropped) */
    s->replies += reply_queue_send(&s->pending, u).sent;
    /* new messages, round-robin over the EUs */
    uint32_t taken = 0;
    for (uint32_t k = 0; k < s->eus && taken < s->per_cycle && !reply_queue_full(&s->pending);
         k++) {
        uint32_t i = (s->next_port + k) % s->eus;
        struct msg *m = port_pop(s->eu[i]);
        if (!m)
            continue;
        take(s, u, m, i, now);
        msg_free(sim, m);
        taken++;
        s->next_port = i + 1;
    }
    /* a reply held by a full channel is tried again next cycle (each try a stall) */
    if (reply_queue_count(&s->pending)) {
        uint64_t due = reply_queue_next_ready(&s->pending);
        unit_wake_at(u, due > now ? due : now + 1);
    }
    return taken ? UNIT_BUSY : UNIT_IDLE;
}

static void math_destroy(struct unit *u)
{
    struct math_unit *s = unit_state(u);
    reply_queue_free(&s->pending, unit_sim(u));
}

const struct unit_ops math_ops = {
    .kind = "math",
    .help = "Gen4 extended math shared function (SFID 1; seed 001 L280-L281, functions as seed "
            "003 L24065-24295): INV, LOG, EXP, SQRT, RSQ, SIN, COS, SINCOS, POW, INT DIV on "
            "8-channel operands; answers each message `latency` cycles after it arrives.",
    .state_size = sizeof(struct math_unit),
    .params = math_params,
    .ports = math_ports,
    .stats = math_stats,
    .realize = math_realize,
    .reset = math_reset,
    .tick = math_tick,
    .destroy = math_destroy,
};
