/* units/vc4_tmu/vc4_tmu.c - TMU direct and texture lookups; see vc4_tmu.h. */
#include "units/vc4_tmu/vc4_tmu.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"
#include "units/vc4_tmu/vc4_texture.h"

#define TMU_SLOTS 8u            /* TFREQ data slots / TFRCV colour slots per QPU (@96330) */
#define RESULT_QUEUE 32u        /* results held per client (beyond TMU_SLOTS: counted) */

struct lookup {
    uint64_t ready;
    uint32_t sequence;          /* the client's lookup number (tags its L2 requests) */
    uint32_t pending;           /* L2 line requests not yet answered */
    uint32_t value[QPU_LANES];
};

/* A load signal held until its lookup's lines have come from the L2. */
struct held_load {
    uint32_t tag, reg, qpu;
};

struct tmu_client {
    struct lookup q[RESULT_QUEUE];
    unsigned head, count;
    unsigned components;        /* t/r/b written since the last s */
    uint32_t param[4];          /* the uniforms of this lookup's writes, in write order */
    uint32_t written;           /* bit per component (s 0, t 1, r 2, b 3) */
    uint32_t value[4][QPU_LANES];
    uint64_t last_answer;
    uint32_t pushed;            /* lookups pushed so far: lookup n sits in q[n % RESULT_QUEUE] */
    struct held_load held[RESULT_QUEUE];
    unsigned held_head, held_count;
};

/* A line request waiting for the "l2" channel. */
struct line_request {
    uint32_t address, tag;
};

#define TAG_CLIENT_SHIFT 20u
#define TAG_SEQUENCE_MASK ((1u << TAG_CLIENT_SHIFT) - 1)

#define CACHE_LINE 64u

struct vc4_tmu {
    uint32_t latency, address_mask, memory_mb, cache_kb, miss_latency;
    uint32_t *cache_tag;        /* line address + 1 per direct-mapped line; 0: empty */
    uint32_t cache_lines;
    bool missed;                /* the lookup being served missed the cache */
    struct lookup *current;     /* the lookup being served (its L2 requests) */
    uint32_t current_tag;
    struct port **in, **out, *l2, *l2_reply, *control;
    struct line_request *line_queue;
    uint32_t line_head, line_count, line_capacity;
    uint32_t ins, outs;
    struct tmu_client *client;
    uint32_t clients;
    struct reply_queue replies;
    uint32_t logged;
    uint64_t direct_lookups, loads, texture_requests, fifo_overruns, loads_without_request;
    uint64_t unsupported_types, mipmap_lookups, cube_lookups, cache_hits, cache_misses;
    uint64_t beyond_memory, bad_messages, reply_stalls;
    uint64_t l2_requests, l2_hits, l2_held_loads, l2_stray_replies, cache_clears;
    uint64_t rgba64_lookups;
};

static const struct param_desc tmu_params[] = {
    PARAM_U32_FIELD("latency", struct vc4_tmu, latency, 20, 1, 100000,
                    "cycles from a lookup's arrival to its data being loadable (the seed gives "
                    "no TMU latency)"),
    PARAM_U32_FIELD("address_mask", struct vc4_tmu, address_mask, 0xffffffffu, 1, 0xffffffffu,
                    "mask applied to bus addresses (BCM2835: 0x3fffffff)"),
    PARAM_U32_FIELD("memory_mb", struct vc4_tmu, memory_mb, 1024, 1, 4096,
                    "memory the TMU can address, MiB; elements beyond it read 0 (counted)"),
    PARAM_U32_FIELD("cache_kb", struct vc4_tmu, cache_kb, 4, 0, 1024,
                    "the TMU cache, KiB, direct mapped in 64-byte lines (the seed gives no size; "
                    "0: none)"),
    PARAM_U32_FIELD("miss_latency", struct vc4_tmu, miss_latency, 0, 0, 100000,
                    "cycles a lookup that misses the TMU cache adds when \"l2\" is not bound "
                    "(bound: the L2's replies decide)"),
    PARAM_END
};

static const struct port_desc tmu_ports[] = {
    { .name = "qpu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "TMU writes and load signals of each client" },
    { .name = "result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "r4 data to the client of the same index" },
    { .name = "control", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "V3D_SLCACTL writes: TMU cache clears" },
    { .name = "l2", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "TMU cache line fills from the L2C (memreq.h)" },
    { .name = "l2_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "the L2C's replies to the line fills" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_tmu, f, m, h)
static const struct stat_desc tmu_stats[] = {
    C("direct_lookups", direct_lookups, "requests", "direct (general) memory lookups"),
    C("loads", loads, "signals", "load signals answered"),
    C("texture_requests", texture_requests, "requests",
      "texture lookups (t, r or b written before s)"),
    C("unsupported_types", unsupported_types, "requests",
      "texture lookups of a type not in Table 18 (18-31: answered 0)"),
    C("mipmap_lookups", mipmap_lookups, "requests",
      "lookups of a mipmapped texture (MIPLVLS > 0) or with a mip filter"),
    C("rgba64_lookups", rgba64_lookups, "requests",
      "RGBA64 lookups (two results each: RG then BA, @95448)"),
    C("cube_lookups", cube_lookups, "requests", "cube map lookups"),
    C("cache_hits", cache_hits, "lines", "64-byte lines found in the TMU cache"),
    C("cache_misses", cache_misses, "lines", "64-byte lines not found (filled)"),
    C("fifo_overruns", fifo_overruns, "requests",
      "requests beyond the 8 TFREQ/TFRCV slots of a QPU (@96330)"),
    C("loads_without_request", loads_without_request, "signals",
      "load signals with no lookup outstanding (answered 0)"),
    C("lookups_beyond_memory", beyond_memory, "elements", "elements beyond memory (read 0)"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("reply_stalls", reply_stalls, "events", "answers held by a full channel"),
    C("cache_clears", cache_clears, "events",
      "V3D_SLCACTL writes with a TMU cache clear bit (T0CCS/T1CCS, Table 72)"),
    C("l2_requests", l2_requests, "lines", "TMU cache misses sent to the L2C"),
    C("l2_hits", l2_hits, "lines", "of those, answered as L2C hits"),
    C("l2_held_loads", l2_held_loads, "signals",
      "load signals that waited for the L2C (the QPU counts its r4 stall cycles)"),
    C("l2_stray_replies", l2_stray_replies, "messages",
      "L2C replies for no outstanding request (dropped)"),
    STAT_END
};
#undef C

static void note(struct vc4_tmu *s, struct unit *u, unsigned bit, const char *what)
{
    if (!(s->logged & (1u << bit))) {
        s->logged |= 1u << bit;
        unit_log(u, SIM_LOG_NOTE, "%s (counted; later ones are not logged)", what);
    }
}

struct read_context {
    struct vc4_tmu *s;
    struct unit *u;
    struct gpu_memory *mem;
};

/* `address` is masked; `alias` the bus address bits the mask removed (the BCM2835 cache
 * alias, bits 31:30), which the L2 request carries so that the L2C can tell the uncached
 * alias (units/vc4_l2). */
static void touch_cache(struct vc4_tmu *s, uint32_t address, uint32_t alias)
{
    if (!s->cache_lines)
        return;
    uint32_t line = address / CACHE_LINE;
    uint32_t *tag = &s->cache_tag[line % s->cache_lines];
    if (*tag == line + 1) {
        s->cache_hits++;
    } else {
        *tag = line + 1;
        s->cache_misses++;
        s->missed = true;
        if (s->l2 && s->current) {
            if (s->line_count == s->line_capacity) {
                uint32_t grown = s->line_capacity ? 2 * s->line_capacity : 64;
                struct line_request *q = gt_xcalloc(grown, sizeof *q);
                for (uint32_t i = 0; i < s->line_count; i++)
                    q[i] = s->line_queue[(s->line_head + i) % s->line_capacity];
                free(s->line_queue);
                s->line_queue = q;
                s->line_head = 0;
                s->line_capacity = grown;
            }
            s->line_queue[(s->line_head + s->line_count++) % s->line_capacity] =
                (struct line_request){ (line * CACHE_LINE) | alias, s->current_tag };
            s->current->pending++;
        }
    }
}

static bool read_memory(void *context, uint32_t address, void *data, uint32_t bytes)
{
    struct read_context *c = context;
    uint64_t a = address & c->s->address_mask;
    if (!c->mem || a + bytes > (uint64_t)c->s->memory_mb << 20) {
        c->s->beyond_memory++;
        note(c->s, c->u, 2, "TMU lookup beyond memory: reads 0");
        return false;
    }
    touch_cache(c->s, (uint32_t)a, address & ~c->s->address_mask);
    gpu_memory_read(c->mem, a, data, bytes, NULL);
    return true;
}

/* A texture lookup into l; RGBA64 makes a second word per element (its BA), in second[].
 * Returns the words per element (1 or 2). */
static unsigned texture_lookup(struct vc4_tmu *s, struct unit *u, struct tmu_client *c,
                               const struct qpu_io_request *r, struct lookup *l,
                               uint32_t second[QPU_LANES])
{
    s->texture_requests++;
    struct vc4_texture t;
    vc4_texture_decode(c->param, c->components + 1 < 4 ? c->components + 1 : 4, &t);
    if (!vc4_texture_type_supported(t.type)) {
        s->unsupported_types++;
        note(s, u, 4, "texture type not in Table 18 (18-31): answers 0");
        return 1;
    }
    if (t.levels > 1 || t.min_filter >= 2)
        s->mipmap_lookups++;
    if (t.cube)
        s->cube_lookups++;
    struct read_context rc = { s, u, sim_memory(unit_sim(u)) };
    /* the border colour: element 0 of the r write (notes §4.1) */
    uint32_t border = (c->written >> 2 & 1) ? c->value[2][0] : 0;
    float fs[QPU_LANES], ft[QPU_LANES] = { 0 }, fr[QPU_LANES] = { 0 }, fb[QPU_LANES] = { 0 };
    for (unsigned i = 0; i < QPU_LANES; i++) {
        memcpy(&fs[i], &r->value[i], 4);
        if (c->written >> 1 & 1)
            memcpy(&ft[i], &c->value[1][i], 4);
        if (c->written >> 2 & 1)
            memcpy(&fr[i], &c->value[2][i], 4);
        if (c->written >> 3 & 1)    /* "only used if the shader program writes to ... 'b'" */
            memcpy(&fb[i], &c->value[3][i], 4);
    }
    unsigned words = 1;
    for (unsigned q = 0; q < QPU_LANES / 4; q++) {
        /* the level of detail of each quad from its four elements (vc4_texture.h), the bias
         * of its first element */
        float lod = vc4_texture_quad_lod(&t, &fs[4 * q], &ft[4 * q], &fr[4 * q], fb[4 * q]);
        for (unsigned i = 4 * q; i < 4 * q + 4; i++) {
            if (!(r->lane_mask >> i & 1))
                continue;
            uint32_t out[2];
            words = vc4_texture_sample_lod(&t, fs[i], ft[i], fr[i], lod, border, read_memory,
                                           &rc, out);
            l->value[i] = out[0];
            second[i] = out[1];
        }
    }
    if (t.type == VC4_TEX_RGBA64)
        s->rgba64_lookups++;
    return t.type == VC4_TEX_RGBA64 ? 2 : words;
}

static struct lookup *push_lookup(struct vc4_tmu *s, struct unit *u, struct tmu_client *c)
{
    if (c->count >= TMU_SLOTS) {
        s->fifo_overruns++;
        note(s, u, 0, "more than 8 TMU lookups outstanding for a QPU (FIFO overrun)");
    }
    if (c->count >= RESULT_QUEUE) {     /* drop the oldest to make room */
        c->head = (c->head + 1) % RESULT_QUEUE;
        c->count--;
    }
    struct lookup *l = &c->q[(c->head + c->count++) % RESULT_QUEUE];
    memset(l, 0, sizeof *l);
    l->ready = unit_cycle(u) + s->latency;
    l->sequence = c->pushed++;
    return l;
}

static void answer_load(struct vc4_tmu *s, struct unit *u, uint32_t port, uint32_t tag,
                        uint32_t reg, uint32_t qpu);

static void take(struct vc4_tmu *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r || port >= s->clients) {
        s->bad_messages++;
        return;
    }
    struct tmu_client *c = &s->client[port];
    if (r->op == QPU_IO_WRITE && r->reg >= QPU_IO_TMU0_S && r->reg <= QPU_IO_TMU1_B) {
        unsigned component = r->reg & 3;    /* s, t, r, b */
        if (component) {
            /* "For each write of texture unit sampling vector data (t, b, etc.) a uniform is
             * automatically read"; config parameter k goes with the k-th write (notes §4.1) */
            if (c->components < 4)
                c->param[c->components] = r->uniform_valid ? r->uniform : 0;
            c->components++;
            c->written |= 1u << component;
            memcpy(c->value[component], r->value, sizeof c->value[component]);
            return;
        }
        struct lookup *l = push_lookup(s, u, c);
        s->missed = false;
        s->current = l;
        s->current_tag = port << TAG_CLIENT_SHIFT | (l->sequence & TAG_SEQUENCE_MASK);
        if (c->components) {
            if (c->components < 4)
                c->param[c->components] = r->uniform_valid ? r->uniform : 0;
            uint32_t second[QPU_LANES] = { 0 };
            if (texture_lookup(s, u, c, r, l, second) == 2) {
                /* RGBA64: "two read requests are required, the first to load the packed 1616
                 * RG data, the second to load the packed BA data" (@95448): a second result
                 * behind the first, ready with it */
                uint64_t ready = l->ready;
                struct lookup *ba = push_lookup(s, u, c);
                memcpy(ba->value, second, sizeof ba->value);
                ba->ready = ready;
            }
            c->components = 0;
            c->written = 0;
            memset(c->param, 0, sizeof c->param);
        } else {
            s->direct_lookups++;
            struct read_context rc = { s, u, sim_memory(unit_sim(u)) };
            for (unsigned i = 0; i < QPU_LANES; i++)
                if (r->lane_mask >> i & 1)
                    read_memory(&rc, r->value[i] & ~3u, &l->value[i], 4);
        }
        s->current = NULL;
        if (s->missed && !s->l2)
            l->ready += s->miss_latency;
        return;
    }
    if (r->op == QPU_IO_SIGNAL) {
        /* loads answer in order: one behind a lookup still waiting for the L2 is held */
        if (c->held_count || (c->count && c->q[c->head].pending)) {
            if (c->held_count < RESULT_QUEUE) {
                c->held[(c->held_head + c->held_count++) % RESULT_QUEUE] =
                    (struct held_load){ m->tag, r->reg, r->qpu };
                s->l2_held_loads++;
                return;
            }
            s->bad_messages++;      /* more loads than lookups can be outstanding */
            note(s, u, 6, "more load signals held than the TMU can queue: answered early");
        }
        answer_load(s, u, port, m->tag, r->reg, r->qpu);
        return;
    }
    s->bad_messages++;
}

/* Answers a load signal with the oldest lookup (or 0 when none), no earlier than it is ready. */
static void answer_load(struct vc4_tmu *s, struct unit *u, uint32_t port, uint32_t tag,
                        uint32_t reg, uint32_t qpu)
{
    struct tmu_client *c = &s->client[port];
    struct msg *out = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof(struct qpu_io_result));
    struct qpu_io_result *res = (struct qpu_io_result *)out->payload;
    res->reg = reg;
    res->qpu = qpu;
    res->to_r4 = 1;
    uint64_t ready = unit_cycle(u) + 1;
    if (c->count) {
        struct lookup *l = &c->q[c->head];
        c->head = (c->head + 1) % RESULT_QUEUE;
        c->count--;
        memcpy(res->value, l->value, sizeof res->value);
        if (l->ready > ready)
            ready = l->ready;
        s->loads++;
    } else {
        s->loads_without_request++;
        note(s, u, 3, "TMU load signal with no lookup outstanding: answers 0");
    }
    if (ready < c->last_answer)
        ready = c->last_answer;
    c->last_answer = ready;
    out->tag = tag;
    reply_queue_push(&s->replies, ready, port, out, NULL);
}

/* An L2C reply: one line of a lookup has arrived; its lookup may now be loadable. */
static void take_l2_reply(struct vc4_tmu *s, struct unit *u, struct msg *m)
{
    const struct memreply *a = (const struct memreply *)m->payload;
    if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *a) {
        s->bad_messages++;
        return;
    }
    uint32_t port = a->tag >> TAG_CLIENT_SHIFT, sequence = a->tag & TAG_SEQUENCE_MASK;
    struct tmu_client *c = port < s->clients ? &s->client[port] : NULL;
    struct lookup *l = c ? &c->q[sequence % RESULT_QUEUE] : NULL;
    if (!l || (l->sequence & TAG_SEQUENCE_MASK) != sequence || !l->pending) {
        s->l2_stray_replies++;
        note(s, u, 7, "L2C reply for no outstanding line request (dropped)");
        return;
    }
    l->pending--;
    if (a->hit)
        s->l2_hits++;
    if (l->ready < unit_cycle(u) + 1)
        l->ready = unit_cycle(u) + 1;
}

static void answer_held_loads(struct vc4_tmu *s, struct unit *u)
{
    for (uint32_t p = 0; p < s->clients; p++) {
        struct tmu_client *c = &s->client[p];
        while (c->held_count && !(c->count && c->q[c->head].pending)) {
            struct held_load h = c->held[c->held_head];
            c->held_head = (c->held_head + 1) % RESULT_QUEUE;
            c->held_count--;
            answer_load(s, u, p, h.tag, h.reg, h.qpu);
            unit_progress(u);
        }
    }
}

static void send_line_requests(struct vc4_tmu *s, struct unit *u)
{
    while (s->line_count && port_can_send(s->l2)) {
        struct line_request *r = &s->line_queue[s->line_head];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *q = (struct memreq *)m->payload;
        memset(q, 0, sizeof *q);
        q->address = r->address;
        q->tag = r->tag;
        q->bytes = CACHE_LINE;
        q->op = MEMREQ_READ;
        q->target = MEMREQ_RO_DATA;
        q->client = unit_id(u);
        if (!port_try_send(s->l2, m)) {
            msg_free(unit_sim(u), m);
            break;
        }
        s->line_head = (s->line_head + 1) % s->line_capacity;
        s->line_count--;
        s->l2_requests++;
        unit_progress(u);
    }
}

static int tmu_realize(struct unit *u, struct gt_error *err)
{
    struct vc4_tmu *s = unit_state(u);
    s->in = unit_port_array(u, "qpu", &s->ins);
    s->out = unit_port_array(u, "result", &s->outs);
    s->l2 = unit_port(u, "l2", 0);
    s->l2_reply = unit_port(u, "l2_reply", 0);
    s->control = unit_port(u, "control", 0);
    if (s->l2 && !port_is_bound(s->l2))
        s->l2 = NULL;
    if (s->l2_reply && !port_is_bound(s->l2_reply))
        s->l2_reply = NULL;
    if (!s->l2 != !s->l2_reply)
        return gt_error_set(err, "%s: \"l2\" and \"l2_reply\" are bound together or not at all",
                            unit_name(u));
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->outs, .stall_count = &s->reply_stalls });
    free(s->client);
    free(s->cache_tag);
    s->cache_lines = s->cache_kb * 1024 / CACHE_LINE;
    s->cache_tag = s->cache_lines ? gt_xcalloc(s->cache_lines, sizeof *s->cache_tag) : NULL;
    s->clients = s->ins;
    s->client = s->ins ? gt_xcalloc(s->ins, sizeof *s->client) : NULL;
    return 0;
}

static void tmu_reset(struct unit *u)
{
    struct vc4_tmu *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    if (s->client)
        memset(s->client, 0, s->clients * sizeof *s->client);
    if (s->cache_tag)
        memset(s->cache_tag, 0, s->cache_lines * sizeof *s->cache_tag);
    s->line_head = s->line_count = 0;
    s->current = NULL;
}

static enum unit_activity tmu_tick(struct unit *u)
{
    struct vc4_tmu *s = unit_state(u);
    struct msg *m;
    for (uint32_t q = 0; q < s->ins; q++)
        while (s->in[q] && (m = port_pop(s->in[q])) != NULL) {
            take(s, u, q, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    while (s->control && (m = port_pop(s->control)) != NULL) {
        const struct cs_mmio *w = (const struct cs_mmio *)m->payload;
        if (m->kind != MSG_MMIO || m->size < sizeof *w || w->op != CS_MMIO_WRITE)
            s->bad_messages++;
        else if (w->offset == 0x024 && (w->value & 0x0f0f0000u) && s->cache_tag) {
            /* SLCACTL T1CCS 27:24, T0CCS 19:16 (Table 72): any set bit clears this TMU's
             * cache (which slice and TMU this is is not known here: a clear of another
             * slice's cache also clears this one, which costs only refills [chosen]) */
            memset(s->cache_tag, 0, s->cache_lines * sizeof *s->cache_tag);
            s->cache_clears++;
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    while (s->l2_reply && (m = port_pop(s->l2_reply)) != NULL) {
        take_l2_reply(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    if (s->l2)
        send_line_requests(s, u);
    answer_held_loads(s, u);
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void tmu_destroy(struct unit *u)
{
    struct vc4_tmu *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->client);
    s->client = NULL;
    free(s->cache_tag);
    s->cache_tag = NULL;
    free(s->line_queue);
    s->line_queue = NULL;
    s->line_capacity = 0;
}

const struct unit_ops vc4_tmu_ops = {
    .kind = "vc4_tmu",
    .help = "VideoCore IV texture and memory lookup unit: direct (general) 32-bit lookups and "
            "2D / cube texture lookups (config uniforms, T/LT/raster formats, nearest and "
            "bilinear filters, wrap modes) with per-QPU FIFOs into r4 and the TMU cache "
            "(seed 002 Sec 4 @93323, Sec 11).",
    .state_size = sizeof(struct vc4_tmu),
    .params = tmu_params,
    .ports = tmu_ports,
    .stats = tmu_stats,
    .realize = tmu_realize,
    .reset = tmu_reset,
    .tick = tmu_tick,
    .destroy = tmu_destroy,
};
