/* units/vc4_sfu/vc4_sfu.c - the VideoCore IV SFU; see vc4_sfu.h. */
#include "units/vc4_sfu/vc4_sfu.h"

#include <math.h>
#include <string.h>

#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "isa/vc4/qpu_exec.h"
#include "units/common/vc4_io.h"

#define NAN_BITS 0x7fc00000u
#define KEPT_FRACTION_BITS 15u

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

uint32_t vc4_sfu_compute(unsigned waddr, uint32_t x_bits)
{
    x_bits = qpu_float_flush(x_bits);
    double x = (double)as_float(x_bits);
    double r;
    switch (waddr) {
    case QPU_IO_SFU_RECIP:
        r = 1.0 / x;    /* +-0 -> +-inf */
        break;
    case QPU_IO_SFU_RECIPSQRT:
        if (x < 0)
            return NAN_BITS;
        r = x == 0 ? (signbit(x) ? -INFINITY : INFINITY) : 1.0 / sqrt(x);
        break;
    case QPU_IO_SFU_EXP:
        r = exp2(x);
        break;
    case QPU_IO_SFU_LOG:
        if (x < 0)
            return NAN_BITS;
        r = x == 0 ? -INFINITY : log2(x);
        break;
    default:
        return 0;
    }
    if (isnan(r))
        return NAN_BITS;
    /* to float32 by truncation (double -> float rounds to nearest, so truncate in double
     * first: keep 15 + 1 leading bits), then flush a denormal result */
    uint32_t b = as_bits((float)r);
    if (!isinf(r) && isfinite(as_float(b))) {
        int e;
        double m = frexp(r, &e);   /* r = m * 2^e, 0.5 <= |m| < 1 */
        double scaled = ldexp(m, (int)KEPT_FRACTION_BITS + 1);
        scaled = trunc(scaled);
        b = as_bits((float)ldexp(scaled, e - (int)KEPT_FRACTION_BITS - 1));
    }
    return qpu_float_flush(b);
}

struct vc4_sfu {
    /* params */
    uint32_t latency, per_cycle;
    /* ports */
    struct port **in, **out;
    uint32_t ins, outs;
    struct reply_queue replies;
    /* stats */
    uint64_t requests, by_function[4], bad_messages, reply_stalls;
};

static const struct param_desc sfu_params[] = {
    PARAM_U32_FIELD("latency", struct vc4_sfu, latency, 8, 1, 10000,
                    "cycles from a write's arrival to its result leaving (002 @64904: r4 "
                    "ready for the 3rd instruction after the write)"),
    PARAM_U32_FIELD("per_cycle", struct vc4_sfu, per_cycle, 1, 1, 64,
                    "requests accepted per cycle (the seed gives none)"),
    PARAM_END
};

static const struct port_desc sfu_ports[] = {
    { .name = "qpu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "SFU writes from each QPU of the slice" },
    { .name = "result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "r4 results to the QPU of the same index" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_sfu, f, m, h)
static const struct stat_desc sfu_stats[] = {
    C("requests", requests, "requests", "SFU writes computed"),
    C("recip", by_function[0], "requests", "SFU_RECIP writes"),
    C("rsqrt", by_function[1], "requests", "SFU_RECIPSQRT writes"),
    C("exp", by_function[2], "requests", "SFU_EXP (2^x) writes"),
    C("log", by_function[3], "requests", "SFU_LOG (log2) writes"),
    C("bad_messages", bad_messages, "messages", "not an SFU write (dropped, no result)"),
    C("reply_stalls", reply_stalls, "events", "results held by a full channel"),
    STAT_END
};
#undef C

static void take(struct vc4_sfu *s, struct unit *u, uint32_t index, struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r || r->op != QPU_IO_WRITE ||
        r->reg < QPU_IO_SFU_RECIP || r->reg > QPU_IO_SFU_LOG) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "not an SFU write from qpu[%u] (dropped)", index);
        msg_free(unit_sim(u), m);
        return;
    }
    s->requests++;
    s->by_function[r->reg - QPU_IO_SFU_RECIP]++;
    /* the request becomes its result in place */
    struct qpu_io_result res = { .reg = r->reg, .qpu = r->qpu, .thread = r->thread, .to_r4 = 1 };
    for (unsigned i = 0; i < QPU_LANES; i++)
        res.value[i] = vc4_sfu_compute(r->reg, r->value[i]);
    uint32_t tag = m->tag;
    msg_free(unit_sim(u), m);
    struct msg *out = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof res);
    memcpy(out->payload, &res, sizeof res);
    out->tag = tag;
    reply_queue_push(&s->replies, unit_cycle(u) + s->latency, index, out, NULL);
}

static int sfu_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct vc4_sfu *s = unit_state(u);
    s->in = unit_port_array(u, "qpu", &s->ins);
    s->out = unit_port_array(u, "result", &s->outs);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->outs, .stall_count = &s->reply_stalls });
    return 0;
}

static void sfu_reset(struct unit *u)
{
    struct vc4_sfu *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
}

static enum unit_activity sfu_tick(struct unit *u)
{
    struct vc4_sfu *s = unit_state(u);
    uint32_t taken = 0;
    bool more = false;
    for (uint32_t q = 0; q < s->ins; q++) {
        if (!s->in[q])
            continue;
        while (port_visible(s->in[q])) {
            if (taken >= s->per_cycle) {
                more = true;
                break;
            }
            take(s, u, q, port_pop(s->in[q]));
            taken++;
            unit_progress(u);
        }
    }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void sfu_destroy(struct unit *u)
{
    struct vc4_sfu *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
}

const struct unit_ops vc4_sfu_ops = {
    .kind = "vc4_sfu",
    .help = "VideoCore IV special function unit of a slice: recip, rsqrt, exp2, log2 of each "
            "element into r4 (seed 002 @64904), 15 fraction bits as measured on hardware.",
    .state_size = sizeof(struct vc4_sfu),
    .params = sfu_params,
    .ports = sfu_ports,
    .stats = sfu_stats,
    .realize = sfu_realize,
    .reset = sfu_reset,
    .tick = sfu_tick,
    .destroy = sfu_destroy,
};
