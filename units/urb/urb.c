/* units/urb/urb.c - the URB unit: state, allocation, stage accesses, timing;
 * see urb.h. The SFID 6 message forms are in urb_send.c. */
#include "units/urb/urb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/memreq.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/urb/urb_internal.h"

#define KIB 1024u
#define URB_START_UNIT_BYTES (8u * KIB)     /* URB Starting Address: 8 KB (004 L6335) */
/* push-constant offsets and sizes are kept in KB: the commands' units are 2 KB
 * on Gen8/Gen9 (004 L4620-4632) and 1 KB on Gen7 (seed 000 L826-902) */
#define URB_PUSH_UNIT_BYTES (1u * KIB)
#define URB_PUSH_LIMIT_BYTES (32u * KIB)    /* PC buffers in the first 32 KB (003 L11329) */
#define URB_MAX_FF_ROWS 1024u               /* rows one stage READ/WRITE may carry */

static const struct param_desc urb_params[] = {
    PARAM_U32_FIELD("size_kib", struct urb, size_kib, 384, 16, 1024,
                    "URB partition of one slice in KiB. 384: Gen9 GT2's default L3 configuration "
                    "(no SLM: URB 384 KB, rest 384 KB, seed 003 L18866-18878), as "
                    "configs/fragments/gen9-slice.cfg programs its L3"),
    PARAM_U32_FIELD("slices", struct urb, slices, 1, 1, 3,
                    "slices the 3DSTATE_URB_* allocations are scaled to (seed 003 L11345); the "
                    "store is size_kib x slices"),
    PARAM_U32_FIELD("latency", struct urb, latency, 20, 1, 100000,
                    "cycles from a message to its reply when no L3 is linked (the L3's own "
                    "urb_latency default; the seed gives no figure)"),
    PARAM_END
};

static const struct port_desc urb_ports[] = {
    { .name = "state", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE), .flags = PORT_OPTIONAL,
      .help = "3DSTATE_URB_VS/HS/DS/GS and 3DSTATE_PUSH_CONSTANT_ALLOC_*" },
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "a stage's allocations, references and accesses" },
    { .name = "client_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "replies to the client of the same index" },
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "URB messages (SEND to SFID 6) from each EU" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "write-backs to the EU of the same index" },
    { .name = "eot_vs", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends (EU_TD_THREAD_END) of FFID_VS threads" },
    { .name = "eot_hs", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_HS threads" },
    { .name = "eot_ds", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_DS threads" },
    { .name = "eot_gs", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_GS threads" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "MEMREQ_URB line requests to the slice's L3" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "the L3's answers" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct urb, f, m, h)
#define L(n, f, m, h) STAT_LEVEL_FIELD(n, struct urb, f, m, h)
#define PER_CLIENT(name, i)                                                                  \
    L("entries_in_use_peak." name, peak[i], "entries", "most entries the client held at once"), \
    C("stall_cycles." name, stall[i], "cycles", "cycles the client's allocations waited for entries")
static const struct stat_desc urb_stats[] = {
    C("alloc_requests", alloc_requests, "messages", "URB_OP_ALLOC requests"),
    C("allocations", allocations, "entries", "entries handed out"),
    C("frees", frees, "entries", "entries freed by their last dereference"),
    C("references", references, "handles", "references added"),
    C("dereferences", dereferences, "handles", "references dropped"),
    C("refused_allocations", refused_allocations, "messages",
      "requests no allocation could ever satisfy (answered with no handles)"),
    C("bad_handles", bad_handles, "handles", "(de)references of handles that are not live entries"),
    C("reprogrammed_in_use", reprogrammed_in_use, "events",
      "allocations reprogrammed while entries were in use"),
    PER_CLIENT("vs", URB_CLIENT_VS), PER_CLIENT("hs", URB_CLIENT_HS),
    PER_CLIENT("ds", URB_CLIENT_DS), PER_CLIENT("gs", URB_CLIENT_GS),
    PER_CLIENT("clip", URB_CLIENT_CLIP), PER_CLIENT("sf", URB_CLIENT_SF),
    PER_CLIENT("cs", URB_CLIENT_CS), PER_CLIENT("vfe", URB_CLIENT_VFE),
    C("ff_reads", ff_reads, "messages", "URB_OP_READ from stages"),
    C("ff_writes", ff_writes, "messages", "URB_OP_WRITE from stages"),
    C("send.write_hword", write_hword, "messages", "URB_WRITE_HWORD"),
    C("send.write_oword", write_oword, "messages", "URB_WRITE_OWORD"),
    C("send.read_hword", read_hword, "messages", "URB_READ_HWORD"),
    C("send.read_oword", read_oword, "messages", "URB_READ_OWORD"),
    C("send.simd8_write", simd8_write, "messages", "URB SIMD8_WRITE"),
    C("send.simd8_read", simd8_read, "messages", "URB SIMD8_READ"),
    C("send.atomic", atomics, "messages", "URB_ATOMIC_MOV/INC/ADD"),
    C("out_of_bounds", out_of_bounds, "messages",
      "accesses reaching outside the URB (reads 0, writes dropped)"),
    C("bad_messages", bad_messages, "messages", "malformed messages or programming"),
    C("unsupported", unsupported, "messages", "reserved opcodes and other generations' forms"),
    C("eot_not_on_write", eot_not_on_write, "messages", "EOT on a read or an atomic"),
    C("killed_thread_ends", killed_thread_ends, "threads",
      "threads the EU ended for bad programming before their EOT write (their stage is told)"),
    C("eot_notified", eot_notified, "threads", "EOT writes whose stage was told the thread ended"),
    C("eot_unrouted", eot_unrouted, "threads",
      "EOT writes with no stage linked at their FFID's eot_<stage> port (nobody told)"),
    C("lines", lines, "requests", "64-byte line requests sent to the L3"),
    C("l3_stalls", l3_stalls, "cycles", "ticks a line request waited for the L3's channel"),
    C("reply_stalls", reply_stalls, "events", "replies held by a full channel"),
    C("state.urb", state_urb, "packets", "3DSTATE_URB_* taken"),
    C("state.push_constant_alloc", state_push, "packets", "3DSTATE_PUSH_CONSTANT_ALLOC_* taken"),
    C("state.ignored", state_ignored, "packets", "other state packets (freed)"),
    C("check.overlaps", check_overlaps, "pairs", "allocations overlapping each other (L11327)"),
    C("check.beyond_urb", check_beyond, "allocations", "allocations past the URB's end (L11327)"),
    C("check.entry_count_rule", check_entry_count, "allocations",
      "entry size <= 8 x 64 B with an entry count not a multiple of 8 (L11367)"),
    C("check.push_constant_beyond_32kb", check_push_beyond, "buffers",
      "push-constant buffers past the first 32 KB (L11329)"),
    C("check.start_below_32kb", check_start_low, "allocations",
      "multi-slice allocations starting below 32 KB (not scalable, L11345)"),
    STAT_END
};
#undef C
#undef L
#undef PER_CLIENT

static const char *const client_names[URB_CLIENT_COUNT] = {
    "VS", "HS", "DS", "GS", "CLIP", "SF", "CS", "VFE"
};

void urb_warn_once(struct urb *s, struct unit *u, unsigned bit, const char *fmt, ...)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_NOTE, "%s", text);
}

/* ---- timing ---------------------------------------------------------------------- */

static uint32_t txn_new(struct urb *s)
{
    for (uint32_t i = 0; i < s->txn_cap; i++)
        if (!s->txn[i].used)
            return i;
    uint32_t cap = s->txn_cap ? s->txn_cap * 2 : 64;
    s->txn = gt_xrealloc(s->txn, cap * sizeof *s->txn);
    memset(s->txn + s->txn_cap, 0, (cap - s->txn_cap) * sizeof *s->txn);
    uint32_t i = s->txn_cap;
    s->txn_cap = cap;
    return i;
}

static void reply_at(struct urb *s, uint64_t cycle, uint32_t port, struct msg *reply)
{
    if (reply)
        reply_queue_push(&s->replies, cycle, port, reply, NULL);
}

/* A transaction of n lines (or the reply after `latency` when no L3 is linked
 * or there are no lines); returns the transaction, or UINT32_MAX. */
static uint32_t txn_start(struct urb *s, struct unit *u, uint32_t n, bool out_of_bounds,
                          uint32_t port, struct msg *reply)
{
    if (out_of_bounds)
        s->out_of_bounds++;
    if (!port_is_bound(s->l3) || n == 0) {
        reply_at(s, unit_cycle(u) + (n ? s->latency : 1), port, reply);
        return UINT32_MAX;
    }
    uint32_t t = txn_new(s);
    s->txn[t] = (struct urb_txn){ .used = true, .lines_left = n, .port = port, .reply = reply };
    return t;
}

void urb_time_access(struct urb *s, struct unit *u, const struct urb_lines *lines, uint32_t port,
                     struct msg *reply)
{
    uint32_t t = txn_start(s, u, lines->count, lines->out_of_bounds, port, reply);
    for (uint32_t i = 0; t != UINT32_MAX && i < lines->count; i++)
        fifo_push(&s->line_queue, &(struct urb_line){ t, lines->address[i], lines->op[i] });
}

/* n consecutive lines from byte `first`. */
static void urb_time_span(struct urb *s, struct unit *u, uint32_t first, uint32_t n, uint8_t op,
                          bool out_of_bounds, uint32_t port, struct msg *reply)
{
    uint32_t t = txn_start(s, u, n, out_of_bounds, port, reply);
    for (uint32_t i = 0; t != UINT32_MAX && i < n; i++)
        fifo_push(&s->line_queue, &(struct urb_line){ t, first + i * MEMREQ_LINE_BYTES, op });
}

static void send_lines(struct urb *s, struct unit *u)
{
    while (fifo_count(&s->line_queue)) {
        if (!port_can_send(s->l3)) {
            s->l3_stalls++;
            return;
        }
        struct urb_line line;
        fifo_pop(&s->line_queue, &line);
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = line.address;      /* the offset in the URB partition */
        r->tag = line.txn;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = line.op;
        r->target = MEMREQ_URB;
        r->client = unit_id(u);
        port_try_send(s->l3, m);
        s->lines++;
    }
}

static void take_l3_replies(struct urb *s, struct unit *u)
{
    struct msg *m;
    while (s->l3_reply && (m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *r || r->tag >= s->txn_cap ||
            !s->txn[r->tag].used || s->txn[r->tag].lines_left == 0) {
            s->bad_messages++;
        } else {
            s->l3_replies++;
            struct urb_txn *t = &s->txn[r->tag];
            if (--t->lines_left == 0) {
                reply_at(s, unit_cycle(u), t->port, t->reply);
                t->reply = NULL;
                t->used = false;
            }
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

static void serve(struct urb *s, struct unit *u, enum urb_client c);

/* ---- state ----------------------------------------------------------------------- */

static void pool_release(struct urb_pool *p)
{
    free(p->refs);
    free(p->free_ring);
    p->refs = NULL;
    p->free_ring = NULL;
    p->free_head = p->free_count = p->in_use = 0;
}

/* Builds a client's entries from its programmed state (slice scaling, L11345). */
static void pool_build(struct urb *s, struct unit *u, struct urb_pool *p)
{
    pool_release(p);
    uint32_t start = p->prog_start * URB_START_UNIT_BYTES;
    if (s->slices > 1 && p->prog_entries) {
        if (start >= URB_PUSH_LIMIT_BYTES) {
            start = (start - URB_PUSH_LIMIT_BYTES) * s->slices + URB_PUSH_LIMIT_BYTES;
        } else {
            s->check_start_low++;
            urb_warn_once(s, u, 5, "a URB allocation starts below 32 KB on %u slices", s->slices);
        }
    }
    p->start = start;
    p->entry_bytes = (p->prog_size + 1) * URB_HANDLE_UNIT_BYTES;
    p->entries = p->prog_entries * s->slices;
    if (p->entries) {
        p->refs = gt_xcalloc(p->entries, sizeof *p->refs);
        p->free_ring = gt_xcalloc(p->entries, sizeof *p->free_ring);
        for (uint32_t i = 0; i < p->entries; i++)
            p->free_ring[i] = i;
        p->free_count = p->entries;
    }
}

static void take_urb_state(struct urb *s, struct unit *u, enum urb_client c, uint32_t start,
                           uint32_t size, uint32_t entries)
{
    struct urb_pool *p = &s->pool[c];
    s->state_urb++;
    if (p->programmed && p->prog_start == start && p->prog_size == size &&
        p->prog_entries == entries)
        return;                 /* the same allocation again (drivers re-send it per draw) */
    if (p->in_use) {
        s->reprogrammed_in_use++;
        urb_warn_once(s, u, 6, "the %s URB allocation changed with %u entries in use",
                      client_names[c], p->in_use);
    }
    p->programmed = true;
    p->prog_start = start;
    p->prog_size = size;
    p->prog_entries = entries;
    pool_build(s, u, p);
    s->state_dirty = true;
    serve(s, u, c);             /* requests waiting on the old allocation */
}

static bool ranges_overlap(uint64_t a, uint64_t a_len, uint64_t b, uint64_t b_len)
{
    return a_len && b_len && a < b + b_len && b < a + a_len;
}

/* The rules of 003 L11327, L11329, L11367, checked once per change. */
static void check_allocations(struct urb *s, struct unit *u)
{
    s->state_dirty = false;
    uint64_t urb_bytes = s->store_bytes;
    for (uint32_t c = 0; c < URB_GEOMETRY_STAGES; c++) {
        const struct urb_pool *p = &s->pool[c];
        uint64_t len = (uint64_t)p->entries * p->entry_bytes;
        if (!p->programmed || !p->entries)
            continue;
        if (p->start + len > urb_bytes) {
            s->check_beyond++;
            urb_warn_once(s, u, 7, "the %s URB allocation ends at %llu bytes, past the URB's %llu",
                          client_names[c], (unsigned long long)(p->start + len),
                          (unsigned long long)urb_bytes);
        }
        if (p->prog_size + 1 <= 8 && p->prog_entries % 8) {
            s->check_entry_count++;
            urb_warn_once(s, u, 8, "%s: %u URB entries of %u x 64 B: not a multiple of 8",
                          client_names[c], p->prog_entries, p->prog_size + 1);
        }
        for (uint32_t d = c + 1; d < URB_GEOMETRY_STAGES; d++) {
            const struct urb_pool *q = &s->pool[d];
            if (q->programmed && ranges_overlap(p->start, len, q->start,
                                                (uint64_t)q->entries * q->entry_bytes)) {
                s->check_overlaps++;
                urb_warn_once(s, u, 9, "the %s and %s URB allocations overlap", client_names[c],
                              client_names[d]);
            }
        }
        for (uint32_t k = 0; k < URB_PUSH_STAGES; k++)
            if (ranges_overlap(p->start, len, (uint64_t)s->push_offset[k] * URB_PUSH_UNIT_BYTES,
                               (uint64_t)s->push_size[k] * URB_PUSH_UNIT_BYTES)) {
                s->check_overlaps++;
                urb_warn_once(s, u, 10, "the %s URB allocation overlaps a push-constant buffer",
                              client_names[c]);
            }
    }
    for (uint32_t k = 0; k < URB_PUSH_STAGES; k++) {
        uint64_t off = (uint64_t)s->push_offset[k] * URB_PUSH_UNIT_BYTES;
        uint64_t len = (uint64_t)s->push_size[k] * URB_PUSH_UNIT_BYTES;
        if (len && off + len > URB_PUSH_LIMIT_BYTES) {
            s->check_push_beyond++;
            urb_warn_once(s, u, 11, "a push-constant buffer ends past the first 32 KB of the URB");
        }
        for (uint32_t j = k + 1; j < URB_PUSH_STAGES; j++)
            if (ranges_overlap(off, len, (uint64_t)s->push_offset[j] * URB_PUSH_UNIT_BYTES,
                               (uint64_t)s->push_size[j] * URB_PUSH_UNIT_BYTES))
                s->check_overlaps++;
    }
}

static void take_state(struct urb *s, struct unit *u, struct msg *m)
{
    const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
    if (m->kind != MSG_STATE || m->size < sizeof *p || p->common_offset > m->size) {
        s->bad_messages++;
        return;
    }
    switch ((enum spec_id)p->id) {
#define URB_STATE(STAGE, CLIENT)                                                              \
    case SPEC_ID_3DSTATE_URB_##STAGE: {                                                       \
        const struct spec_3DSTATE_URB_##STAGE *v = cs_state_common(p);                       \
        take_urb_state(s, u, CLIENT, v->STAGE##URBStartingAddress,                            \
                       v->STAGE##URBEntryAllocationSize, v->STAGE##NumberOfURBEntries);       \
        break;                                                                                \
    }
    URB_STATE(VS, URB_CLIENT_VS)
    URB_STATE(HS, URB_CLIENT_HS)
    URB_STATE(DS, URB_CLIENT_DS)
    URB_STATE(GS, URB_CLIENT_GS)
#undef URB_STATE
#define PUSH_STATE(STAGE, INDEX)                                                              \
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_##STAGE: {                                       \
        const struct spec_3DSTATE_PUSH_CONSTANT_ALLOC_##STAGE *v = cs_state_common(p);       \
        uint32_t kib = p->gen == 7 ? 1u : 2u;                                                 \
        s->push_offset[INDEX] = v->ConstantBufferOffset * kib;                                \
        s->push_size[INDEX] = v->ConstantBufferSize * kib;                                    \
        s->state_push++;                                                                      \
        s->state_dirty = true;                                                                \
        break;                                                                                \
    }
    PUSH_STATE(VS, 0)
    PUSH_STATE(HS, 1)
    PUSH_STATE(DS, 2)
    PUSH_STATE(GS, 3)
    PUSH_STATE(PS, 4)
#undef PUSH_STATE
    default:
        s->state_ignored++;
    }
}

/* ---- allocation ------------------------------------------------------------------ */

static struct msg *urb_reply(struct unit *u, uint32_t op, uint32_t client, uint32_t tag,
                             uint32_t rows)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB,
                              (uint32_t)(sizeof(struct urb_msg) + (size_t)rows * URB_ROW_BYTES));
    struct urb_msg *r = (struct urb_msg *)m->payload;
    memset(r, 0, sizeof *r + (size_t)rows * URB_ROW_BYTES);
    r->op = op;
    r->client = client;
    r->tag = tag;
    r->rows = rows;
    m->tag = tag;
    return m;
}

/* The handle's client and entry; false when it is no live entry. */
static bool find_entry(struct urb *s, uint32_t handle, struct urb_pool **pool, uint32_t *entry)
{
    uint64_t offset = urb_handle_offset(handle);
    for (uint32_t c = 0; c < URB_CLIENT_COUNT; c++) {
        struct urb_pool *p = &s->pool[c];
        if (!p->entries || offset < p->start)
            continue;
        uint64_t rel = offset - p->start;
        if (rel % p->entry_bytes || rel / p->entry_bytes >= p->entries)
            continue;
        uint32_t i = (uint32_t)(rel / p->entry_bytes);
        if (!p->refs[i])
            continue;
        *pool = p;
        *entry = i;
        return true;
    }
    return false;
}

/* Serves a client's waiting requests in order, as far as its free entries go. */
static void serve(struct urb *s, struct unit *u, enum urb_client c)
{
    struct urb_pool *p = &s->pool[c];
    uint64_t now = unit_cycle(u);
    while (p->wait_count) {
        struct urb_waiter *w = &p->waiters[p->wait_head];
        uint32_t n = w->count;
        struct msg *m = urb_reply(u, URB_OP_ALLOCATED, c, w->tag, 0);
        struct urb_msg *r = (struct urb_msg *)m->payload;
        if (n > p->entries) {
            s->refused_allocations++;
            urb_warn_once(s, u, 12, "%s asked for %u URB entries; its allocation has %u",
                          client_names[c], n, p->entries);
            n = 0;
        } else if (n > p->free_count) {
            msg_free(unit_sim(u), m);
            return;             /* back-pressure: waits for frees */
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = p->free_ring[p->free_head];
            p->free_head = (p->free_head + 1) % p->entries;
            p->free_count--;
            p->refs[i] = 1;
            r->handles[k] = (p->start + i * p->entry_bytes) / URB_HANDLE_UNIT_BYTES;
        }
        r->count = n;
        p->in_use += n;
        s->allocations += n;
        if (p->in_use > s->peak[c])
            s->peak[c] = p->in_use;
        reply_at(s, now, w->port, m);
        p->wait_head = (p->wait_head + 1) % p->wait_cap;
        if (--p->wait_count == 0)
            s->stall[c] += now - p->wait_since;
    }
}

static void wait_push(struct urb *s, struct unit *u, enum urb_client c, struct urb_waiter w)
{
    struct urb_pool *p = &s->pool[c];
    if (p->wait_count == p->wait_cap) {
        uint32_t cap = p->wait_cap ? p->wait_cap * 2 : 16;
        struct urb_waiter *q = gt_xmalloc(cap * sizeof *q);
        for (uint32_t k = 0; k < p->wait_count; k++)
            q[k] = p->waiters[(p->wait_head + k) % p->wait_cap];
        free(p->waiters);
        p->waiters = q;
        p->wait_head = 0;
        p->wait_cap = cap;
    }
    if (p->wait_count == 0)
        p->wait_since = unit_cycle(u);
    p->waiters[(p->wait_head + p->wait_count++) % p->wait_cap] = w;
}

static void dereference(struct urb *s, struct unit *u, uint32_t handle)
{
    struct urb_pool *p;
    uint32_t i;
    if (!find_entry(s, handle, &p, &i)) {
        s->bad_handles++;
        urb_warn_once(s, u, 13, "a dereference of URB handle 0x%x, which is no live entry", handle);
        return;
    }
    s->dereferences++;
    if (--p->refs[i])
        return;
    p->free_ring[(p->free_head + p->free_count++) % p->entries] = i;
    p->in_use--;
    s->frees++;
    serve(s, u, (enum urb_client)(p - s->pool));
}

/* URB_OP_READ / URB_OP_WRITE: rows of the entry handles[0] from `row`. */
static void ff_access(struct urb *s, struct unit *u, uint32_t port, const struct urb_msg *q,
                      uint32_t size)
{
    bool write = q->op == URB_OP_WRITE;
    if (q->count < 1 || q->rows < 1 || q->rows > URB_MAX_FF_ROWS ||
        (write && size < sizeof *q + (size_t)q->rows * URB_ROW_BYTES)) {
        s->bad_messages++;
        return;
    }
    write ? s->ff_writes++ : s->ff_reads++;
    struct msg *m = urb_reply(u, write ? URB_OP_WRITE_DONE : URB_OP_DATA, q->client, q->tag,
                              write ? 0 : q->rows);
    struct urb_msg *r = (struct urb_msg *)m->payload;
    r->row = q->row;
    r->count = 1;
    r->handles[0] = q->handles[0];
    uint64_t base = (uint64_t)urb_handle_offset(q->handles[0]) + (uint64_t)q->row * URB_ROW_BYTES;
    uint64_t end = base + (uint64_t)q->rows * URB_ROW_BYTES;
    bool out_of_bounds = end > s->store_bytes;
    if (base < s->store_bytes) {
        uint64_t inside = (out_of_bounds ? s->store_bytes : end) - base;
        if (write)
            memcpy(s->bytes + base, q->data, inside);
        else
            memcpy(r->data, s->bytes + base, inside);
    }
    /* the lines inside the URB (a stage's access may be longer than one SEND's) */
    uint64_t first = base / MEMREQ_LINE_BYTES;
    uint64_t last = ((out_of_bounds ? s->store_bytes : end) + MEMREQ_LINE_BYTES - 1) / MEMREQ_LINE_BYTES;
    uint32_t n = last > first ? (uint32_t)(last - first) : 0;
    urb_time_span(s, u, (uint32_t)(first * MEMREQ_LINE_BYTES), n,
                  write ? MEMREQ_WRITE : MEMREQ_READ, out_of_bounds, port, m);
}

static void take_client(struct urb *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct urb_msg *q = (const struct urb_msg *)m->payload;
    if (m->kind != MSG_URB || m->size < sizeof *q || q->client >= URB_CLIENT_COUNT ||
        q->count > URB_MAX_HANDLES_PER_MSG) {
        s->bad_messages++;
        urb_warn_once(s, u, 14, "malformed URB request (%s, %u bytes) dropped",
                      msg_kind_name(m->kind), m->size);
        return;
    }
    enum urb_client c = (enum urb_client)q->client;
    switch ((enum urb_op)q->op) {
    case URB_OP_ALLOC:
        s->alloc_requests++;
        if (s->state_dirty)
            check_allocations(s, u);
        wait_push(s, u, c, (struct urb_waiter){ port, q->tag, q->count });
        serve(s, u, c);
        break;
    case URB_OP_REFERENCE:
        for (uint32_t k = 0; k < q->count; k++) {
            struct urb_pool *p;
            uint32_t i;
            if (!find_entry(s, q->handles[k], &p, &i) || p->refs[i] == UINT16_MAX) {
                s->bad_handles++;
                continue;
            }
            p->refs[i]++;
            s->references++;
        }
        break;
    case URB_OP_DEREFERENCE:
        for (uint32_t k = 0; k < q->count; k++)
            dereference(s, u, q->handles[k]);
        break;
    case URB_OP_WRITE:
    case URB_OP_READ:
        ff_access(s, u, port, q, m->size);
        break;
    default:
        s->bad_messages++;
        urb_warn_once(s, u, 15, "URB request op %u is not one a stage sends", q->op);
    }
}

/* ---- EU messages ----------------------------------------------------------------- */

static void take_send(struct urb *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES || p->rlen > 8) {
        s->bad_messages++;
        urb_warn_once(s, u, 16, "malformed %s message (%u bytes) from eu %u dropped",
                      msg_kind_name(m->kind), m->size, eu);
        return;
    }
    struct msg *wb = NULL;
    uint8_t (*regs)[32] = NULL;
    if (p->rlen) {
        wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                       (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)wb->payload;
        memset(w, 0, sizeof *w + p->rlen * EU_MSG_REG_BYTES);
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = p->rlen;
        wb->tag = m->tag;
        regs = w->regs;
    }
    struct urb_lines lines = { 0 };
    if (p->flags & EU_SEND_THREAD_KILLED)
        s->killed_thread_ends++;        /* no data: only the end is reported */
    else
        urb_execute_send(s, u, p, (uint32_t)p->mlen + p->ex_mlen, regs, p->rlen, &lines);
    struct msg *end = NULL;
    uint32_t end_port = 0;
    if (p->flags & EU_SEND_EOT) {
        /* "EOT returns to owning FF via FFID/FFTID" (notes/003-skl-pipeline.md
         * §10): the stage that dispatched the thread learns it ended once the
         * EOT write reaches its GO point, so what it hands on next reads
         * the thread's outputs (units/common/thread_msg.h, enum ff_id). */
        if (p->ffid < s->eots && s->eot[p->ffid]) {
            end = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
            struct eu_thread_end *t = (struct eu_thread_end *)end->payload;
            memset(t, 0, sizeof *t);
            t->op = EU_TD_THREAD_END;
            t->request_id = p->ctx.group;
            t->slot = p->slot;
            t->ffid = p->ffid;
            t->thread_life_ps = p->thread_life_ps;
            if ((p->flags & EU_SEND_HEADER) && p->mlen)
                memcpy(&t->eot_header_dword2, &p->regs[0][8], 4);
            end_port = s->client_replies + s->writebacks + p->ffid;
            s->eot_notified++;
        } else {
            s->eot_unrouted++;
        }
    }
    if (end && !wb) {
        urb_time_access(s, u, &lines, end_port, end);
        return;
    }
    urb_time_access(s, u, &lines, s->client_replies + eu, wb);
    if (end)
        urb_time_access(s, u, &(struct urb_lines){ 0 }, end_port, end);
}

/* ---- the unit -------------------------------------------------------------------- */

uint32_t urb_backdoor_read(struct unit *u, uint32_t offset, void *out, uint32_t bytes)
{
    struct urb *s = unit_state(u);
    if (offset >= s->store_bytes)
        return 0;
    uint32_t n = bytes < s->store_bytes - offset ? bytes : s->store_bytes - offset;
    memcpy(out, s->bytes + offset, n);
    return n;
}

uint32_t urb_backdoor_write(struct unit *u, uint32_t offset, const void *in, uint32_t bytes)
{
    struct urb *s = unit_state(u);
    if (offset >= s->store_bytes)
        return 0;
    uint32_t n = bytes < s->store_bytes - offset ? bytes : s->store_bytes - offset;
    memcpy(s->bytes + offset, in, n);
    return n;
}

static int urb_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct urb *s = unit_state(u);
    s->state = unit_port(u, "state", 0);
    s->client = unit_port_array(u, "client", &s->clients);
    s->client_reply = unit_port_array(u, "client_reply", &s->client_replies);
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->writeback = unit_port_array(u, "writeback", &s->writebacks);
    /* the stages whose threads end with a URB write, by FFID (thread_msg.h) */
    static const struct { uint32_t ffid; const char *port; } eot_ports[] = {
        { FFID_VS, "eot_vs" }, { FFID_HS, "eot_hs" }, { FFID_DS, "eot_ds" }, { FFID_GS, "eot_gs" },
    };
    s->eots = FFID_COUNT;
    free(s->eot);
    s->eot = gt_xcalloc(FFID_COUNT, sizeof *s->eot);
    for (unsigned i = 0; i < sizeof eot_ports / sizeof eot_ports[0]; i++) {
        struct port *p = unit_port(u, eot_ports[i].port, 0);
        s->eot[eot_ports[i].ffid] = port_is_bound(p) ? p : NULL;
    }
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    free(s->out);
    s->out = gt_xcalloc(s->client_replies + s->writebacks + s->eots + 1, sizeof *s->out);
    for (uint32_t i = 0; i < s->client_replies; i++)
        s->out[i] = s->client_reply[i];
    for (uint32_t i = 0; i < s->writebacks; i++)
        s->out[s->client_replies + i] = s->writeback[i];
    for (uint32_t i = 0; i < s->eots; i++)
        s->out[s->client_replies + s->writebacks + i] = s->eot[i];
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->client_replies + s->writebacks + s->eots,
        .stall_count = &s->reply_stalls });
    s->store_bytes = s->size_kib * KIB * s->slices;
    return 0;
}

static void release_all(struct urb *s, struct unit *u)
{
    reply_queue_clear(&s->replies, unit_sim(u));
    for (uint32_t i = 0; i < s->txn_cap; i++)
        if (s->txn[i].reply)
            msg_free(unit_sim(u), s->txn[i].reply);
    free(s->txn);
    s->txn = NULL;
    s->txn_cap = 0;
    fifo_release(&s->line_queue);
    fifo_init(&s->line_queue, sizeof(struct urb_line));
    for (uint32_t c = 0; c < URB_CLIENT_COUNT; c++) {
        pool_release(&s->pool[c]);
        free(s->pool[c].waiters);
        memset(&s->pool[c], 0, sizeof s->pool[c]);
    }
}

static void urb_reset(struct unit *u)
{
    struct urb *s = unit_state(u);
    release_all(s, u);
    free(s->bytes);
    s->bytes = gt_xcalloc(s->store_bytes ? s->store_bytes : 1, 1);
    memset(s->push_offset, 0, sizeof s->push_offset);
    memset(s->push_size, 0, sizeof s->push_size);
    s->state_dirty = false;
    s->warned = 0;
}

static enum unit_activity urb_tick(struct unit *u)
{
    struct urb *s = unit_state(u);
    struct msg *m;
    take_l3_replies(s, u);
    while (s->state && (m = port_pop(s->state)) != NULL) {
        take_state(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    for (uint32_t i = 0; i < s->clients; i++)
        while (s->client[i] && (m = port_pop(s->client[i])) != NULL) {
            take_client(s, u, i, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    for (uint32_t i = 0; i < s->eus; i++)
        while (s->eu[i] && (m = port_pop(s->eu[i])) != NULL) {
            take_send(s, u, i, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    if (fifo_count(&s->line_queue))
        send_lines(s, u);
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return fifo_count(&s->line_queue) ? UNIT_BUSY : UNIT_IDLE;
}

static void urb_destroy(struct unit *u)
{
    struct urb *s = unit_state(u);
    release_all(s, u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->bytes);
    free(s->out);
    free(s->eot);
    s->bytes = NULL;
    s->out = NULL;
    s->eot = NULL;
}

const struct unit_ops urb_ops = {
    .kind = "urb",
    .help = "Unified Return Buffer (Gen8/Gen9): 3DSTATE_URB_* allocations, entry handles with "
            "reference counts and back-pressure, the URB's bytes, URB messages on SFID 6 "
            "(HWORD/OWORD/SIMD8/atomics), timed through the L3 (seed 003 L8419-9015, "
            "L11323-11368).",
    .state_size = sizeof(struct urb),
    .params = urb_params,
    .ports = urb_ports,
    .stats = urb_stats,
    .realize = urb_realize,
    .reset = urb_reset,
    .tick = urb_tick,
    .destroy = urb_destroy,
};
