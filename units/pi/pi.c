/* units/pi/pi.c - the pixel interpolator shared function; see pi.h. */
#include "units/pi/pi.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/reply_queue.h"
#include "fabric/sim.h"

struct pi {
    /* params */
    uint32_t latency, messages_per_cycle;
    /* ports */
    struct port **eu, **wb;
    uint32_t eus, wbs;
    uint32_t next_eu;               /* round-robin start over the inputs */
    struct reply_queue replies;
    uint32_t warned;
    /* stats */
    uint64_t messages, per_message_offset, sample_position, centroid, per_slot_offset;
    uint64_t slots_evaluated;
    uint64_t bad_messages, bad_header, bad_length, bad_context, bad_sample_index;
};

static const struct param_desc pi_params[] = {
    PARAM_U32_FIELD("latency", struct pi, latency, 8, 1, 100000,
                    "cycles from a message to its write-back (the seed gives none)"),
    PARAM_U32_FIELD("messages_per_cycle", struct pi, messages_per_cycle, 1, 1, 64,
                    "messages taken a cycle over all EUs (the seed gives no rate)"),
    PARAM_END
};

static const struct port_desc pi_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "pixel interpolator messages (SEND to SFID 14) from each EU" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "barycentric write-backs to the EU of the same index" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct pi, f, m, h)
static const struct stat_desc pi_stats[] = {
    C("messages", messages, "messages", "messages evaluated"),
    C("per_message_offset", per_message_offset, "messages", "Per Message Offset messages"),
    C("sample_position", sample_position, "messages", "Sample Position Offset messages"),
    C("centroid", centroid, "messages", "Centroid Position Offset messages"),
    C("per_slot_offset", per_slot_offset, "messages", "Per Slot Offset messages"),
    C("slots_evaluated", slots_evaluated, "slots", "slots of the execution masks evaluated"),
    C("bad.messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("bad.header", bad_header, "messages", "messages with Header Present set (must be 0)"),
    C("bad.length", bad_length, "messages",
      "message or write-back lengths not the mode's (evaluated with what there is)"),
    C("bad.context", bad_context, "messages",
      "messages from threads without a pixel shader context (zeros returned)"),
    C("bad.sample_index", bad_sample_index, "messages",
      "sample indices at or beyond the sample count (evaluated at the pixel centre)"),
    STAT_END
};
#undef C

static void warn_once(struct pi *s, struct unit *u, uint32_t which, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void warn_once(struct pi *s, struct unit *u, uint32_t which, const char *fmt, ...)
{
    if (s->warned & which)
        return;
    s->warned |= which;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_WARNING, "%s", text);
}

/* S4 two's complement in 1/16 pixel (L8257-8266, L8289ff): [-8, 7] / 16 */
static float s4_offset(uint32_t v)
{
    int32_t o = (int32_t)(v & 0xfu);
    if (o >= 8)
        o -= 16;
    return (float)o / 16.0f;
}

/* The barycentric weights of vertices 1 and 2 at the point (x, y). */
static void evaluate(const struct eu_pixel_setup *e, bool linear, float x, float y, float *out)
{
    float dx = x - e->x0, dy = y - e->y0;
    float b1 = e->barycentric[0][0] + e->barycentric[0][1] * dx + e->barycentric[0][2] * dy;
    float b2 = e->barycentric[1][0] + e->barycentric[1][1] * dx + e->barycentric[1][2] * dy;
    if (linear) {
        out[0] = b1;
        out[1] = b2;
        return;
    }
    float q0 = (1.0f - b1 - b2) * e->vertex_inverse_w[0], q1 = b1 * e->vertex_inverse_w[1],
          q2 = b2 * e->vertex_inverse_w[2];
    float sum = q0 + q1 + q2;
    out[0] = sum != 0.0f ? q1 / sum : b1;
    out[1] = sum != 0.0f ? q2 / sum : b2;
}

static void put(uint8_t (*regs)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dw, float v)
{
    memcpy(regs[reg] + 4 * dw, &v, 4);
}

static uint32_t get(const struct eu_send_msg *p, uint32_t reg, uint32_t dw)
{
    uint32_t v;
    memcpy(&v, p->regs[reg] + 4 * dw, 4);
    return v;
}

static void take(struct pi *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        warn_once(s, u, 1, "malformed pixel interpolator message dropped");
        return;
    }
    s->messages++;
    uint32_t desc = p->desc;
    bool simd16 = desc & PI_DESC_SIMD16, linear = desc & PI_DESC_LINEAR;
    unsigned type = (desc >> PI_DESC_TYPE_SHIFT) & 3u;
    uint32_t group = (desc & PI_DESC_SLOT_GROUP_HI) ? 16 : 0;
    uint32_t slots = simd16 ? 16 : 8;
    uint32_t rlen = simd16 ? 4 : 2;
    if (desc & PI_DESC_HEADER) {
        s->bad_header++;
        warn_once(s, u, 2, "pixel interpolator message with a header (desc 0x%08x)", desc);
    }
    uint32_t want_mlen = type == PI_PER_SLOT_OFFSET ? (simd16 ? 4u : 2u) : 1u;
    if (p->mlen + p->ex_mlen < want_mlen || (p->rlen && p->rlen != rlen)) {
        s->bad_length++;
        warn_once(s, u, 4, "pixel interpolator message lengths mlen %u rlen %u (desc 0x%08x)",
                  p->mlen, p->rlen, desc);
    }
    switch (type) {
    case PI_PER_MESSAGE_OFFSET: s->per_message_offset++; break;
    case PI_SAMPLE_POSITION: s->sample_position++; break;
    case PI_CENTROID: s->centroid++; break;
    default: s->per_slot_offset++; break;
    }
    const struct eu_thread_context *c = &p->ctx;
    bool context = c->valid && c->subspans > 0;
    if (!context) {
        s->bad_context++;
        warn_once(s, u, 8, "pixel interpolator message from a thread without pixel context");
    }
    uint32_t samples = c->sample_count ? c->sample_count : 1;
    if (samples > 16)
        samples = 16;
    uint32_t sample_index = (desc >> 4) & 0xfu;
    bool bad_index = type == PI_SAMPLE_POSITION && sample_index >= samples && c->sample_count;
    if (bad_index) {
        s->bad_sample_index++;
        warn_once(s, u, 16, "sample index %u of %u samples", sample_index, samples);
    }
    uint8_t rl = (uint8_t)(p->rlen < rlen ? p->rlen : rlen);
    struct msg *r = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                              (uint32_t)(sizeof(struct eu_writeback_msg) + rl * EU_MSG_REG_BYTES));
    struct eu_writeback_msg *w = (struct eu_writeback_msg *)r->payload;
    w->slot = p->slot;
    w->dst_reg = p->dst_reg;
    w->rlen = rl;
    uint8_t out[4][EU_MSG_REG_BYTES];
    memset(out, 0, sizeof out);
    for (uint32_t i = 0; i < slots && context; i++) {
        if (!(p->exec_mask >> i & 1))
            continue;
        uint32_t slot = group + i, k = slot / 4, pixel = slot % 4;
        if (k >= c->subspans || k >= 8)
            continue;
        float px = (float)c->pixel_x[k] + (float)(pixel & 1);
        float py = (float)c->pixel_y[k] + (float)(pixel >> 1);
        float x = px + 0.5f, y = py + 0.5f;
        switch (type) {
        case PI_PER_MESSAGE_OFFSET:
            x += s4_offset(desc);
            y += s4_offset(desc >> 4);
            break;
        case PI_SAMPLE_POSITION:
            if (c->sample_count && !bad_index) {
                x = px + (float)(c->sample_position[sample_index] >> 4) / 16.0f;
                y = py + (float)(c->sample_position[sample_index] & 0xfu) / 16.0f;
            }
            break;
        case PI_CENTROID: {
            uint32_t all = (1u << samples) - 1;
            uint32_t cover = c->sample_masks_valid ? c->sample_mask[slot] & all : all;
            if (c->sample_count > 1 && cover && cover != all) {
                unsigned first = (unsigned)__builtin_ctz(cover);
                x = px + (float)(c->sample_position[first] >> 4) / 16.0f;
                y = py + (float)(c->sample_position[first] & 0xfu) / 16.0f;
            }
            break;
        }
        default: {
            /* SIMD8: M0 X, M1 Y; SIMD16: M0/M1 X of slots 0-7/8-15, M2/M3 Y */
            uint32_t xr = simd16 ? i / 8 : 0, yr = simd16 ? 2 + i / 8 : 1;
            if (yr < (uint32_t)(p->mlen + p->ex_mlen)) {
                x += s4_offset(get(p, xr, i % 8));
                y += s4_offset(get(p, yr, i % 8));
            }
            break;
        }
        }
        float b[2];
        evaluate(&c->setup, linear, x, y, b);
        uint32_t base = (i / 8) * 2;
        put(out, base, i % 8, b[0]);
        put(out, base + 1, i % 8, b[1]);
        s->slots_evaluated++;
    }
    if (rl)
        memcpy(w->regs, out, (size_t)rl * EU_MSG_REG_BYTES);
    r->tag = p->slot;
    if (!rl) {
        msg_free(unit_sim(u), r);
        return;
    }
    reply_queue_push(&s->replies, unit_cycle(u) + s->latency, eu, r, NULL);
}

static int pi_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct pi *s = unit_state(u);
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->wb = unit_port_array(u, "writeback", &s->wbs);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->wb, .port_count = s->wbs });
    return 0;
}

static void pi_reset(struct unit *u)
{
    struct pi *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    s->next_eu = 0;
}

static enum unit_activity pi_tick(struct unit *u)
{
    struct pi *s = unit_state(u);
    uint32_t taken = 0;
    for (uint32_t n = 0; n < s->eus && taken < s->messages_per_cycle; n++) {
        uint32_t e = (s->next_eu + n) % s->eus;
        struct msg *m;
        while (taken < s->messages_per_cycle && (m = port_pop(s->eu[e])) != NULL) {
            take(s, u, e, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
            taken++;
        }
        if (taken >= s->messages_per_cycle)
            s->next_eu = (e + 1) % s->eus;
    }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    for (uint32_t e = 0; e < s->eus; e++)
        if (port_peek(s->eu[e]))
            return UNIT_BUSY;
    return UNIT_IDLE;
}

static void pi_destroy(struct unit *u)
{
    struct pi *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
}

const struct unit_ops pi_ops = {
    .kind = "pi",
    .help = "Pixel interpolator of a subslice (SFID 14): barycentric weights of a pixel "
            "shader's slots at an offset, a sample position or the centroid (seed 003 "
            "L8214-8418).",
    .state_size = sizeof(struct pi),
    .params = pi_params,
    .ports = pi_ports,
    .stats = pi_stats,
    .realize = pi_realize,
    .reset = pi_reset,
    .tick = pi_tick,
    .destroy = pi_destroy,
};
