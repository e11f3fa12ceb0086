/* units/urb_fence/urb_fence.c - the Gen4 URB divided by fences; see urb_fence.h. */
#include "units/urb_fence/urb_fence.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"

#define FENCE_ROW_BYTES 64u             /* fences, entry sizes and handles: 512-bit rows */
#define HANDLE_MASK 0x1ffu              /* "U9 opaque handle [Pre-DevILK]" (001 Table 6-1) */
#define MAX_FF_ROWS 128u                /* 256-bit rows one stage READ/WRITE may carry */

/* Gen4 URB descriptor, function control bits (Mesa brw_structs.h; see urb_fence.h) */
#define DESC_OPCODE(d) ((d) & 0xfu)
#define DESC_OFFSET(d) (((d) >> 4) & 0x3fu)
#define DESC_SWIZZLE(d) (((d) >> 10) & 0x3u)
#define DESC_ALLOCATE(d) (((d) >> 13) & 1u)
#define DESC_USED(d) (((d) >> 14) & 1u)
#define DESC_COMPLETE(d) (((d) >> 15) & 1u)
enum { SWIZZLE_NONE = 0, SWIZZLE_INTERLEAVE = 1, SWIZZLE_TRANSPOSE = 2 };

enum fence_region { REGION_VS, REGION_GS, REGION_CLIP, REGION_SF, REGION_VFE, REGION_CS,
                    REGION_COUNT };
static const char *const region_names[REGION_COUNT] = { "VS", "GS", "CLIP", "SF", "VFE", "CS" };

struct waiter {
    uint32_t port;              /* reply port (client_reply[i] or writeback[i]) */
    uint32_t tag, count, client;
    struct msg *writeback;      /* an Allocate SEND's write-back (handle into DW0), or NULL */
};

#define FENCE_QUEUE 8u                  /* fences a region may have pending */

struct region {
    /* fences in command order (urb_fence.h): the n-th URB_FENCE's bounds for
     * the region, taken once the region's stage sent its n-th URB_OP_FENCE */
    bool follows_stage;         /* its stage sends URB_OP_FENCE */
    uint32_t fences_seen, markers;
    uint32_t pending_head, pending_count;
    uint32_t pending_seq[FENCE_QUEUE], pending_start[FENCE_QUEUE], pending_end[FENCE_QUEUE];
    uint64_t pending_since;
    /* wanted (programmed) and in effect, in 512-bit rows */
    uint32_t want_start, want_end, want_entries, want_units;
    uint32_t start, end, entries, units;
    bool dirty;
    uint32_t overflow;          /* entries the layout in effect could not fit, not yet counted */
    uint16_t *refs;
    uint32_t *free_ring;
    uint32_t free_head, free_count, in_use;
    struct waiter *waiters;
    uint32_t wait_head, wait_count, wait_cap;
    uint64_t wait_since;
};

struct urb_fence {
    uint32_t rows, latency;
    bool stage_fences;
    struct port *state;
    struct port **client, **client_reply, **eu, **writeback;
    uint32_t clients, client_replies, eus, writebacks;
    struct port *eot[FFID_COUNT];
    struct port **out;
    uint32_t out_count, eot_base;
    uint8_t *bytes;
    uint32_t store_bytes;
    uint32_t fence[REGION_COUNT];
    struct region region[REGION_COUNT];
    uint32_t constant_handle;   /* the current CONSTANT_BUFFER entry, or URB_HANDLE_NONE */
    struct reply_queue replies;
    uint32_t warned;
    /* stats */
    uint64_t fences, cs_urb_states, configures, alloc_requests, allocations, frees;
    uint64_t references, dereferences, refused_allocations, bad_handles, fence_waits;
    uint64_t stall[REGION_COUNT], peak[REGION_COUNT], waits[REGION_COUNT], reallocations;
    uint64_t outputs_notified;
    uint64_t ff_reads, ff_writes, send_write, send_allocate, send_complete_unused, send_eot;
    uint64_t eot_notified, eot_unrouted, out_of_bounds, bad_messages, unsupported;
    uint64_t constant_buffers, constant_bytes, constant_faults;
    uint64_t check_fence_order, check_fence_beyond, check_entries_beyond;
    uint64_t fence_markers, fences_deferred, fence_queue_full;
    uint64_t fence_wait[REGION_COUNT];
    uint64_t state_ignored, reply_stalls;
};

static const struct param_desc urb_fence_params[] = {
    PARAM_U32_FIELD("rows", struct urb_fence, rows, 256, 16, 1024,
                    "512-bit rows of the URB: 256 = 16 KB (reference/eu/devices.txt 0x29a2: "
                    "URB 256 rows of 64 bytes; seed 001 gives no size)"),
    PARAM_U32_FIELD("latency", struct urb_fence, latency, 4, 1, 100000,
                    "cycles from an access to its reply (the seed gives no figure)"),
    PARAM_BOOL_FIELD("stage_fences", struct urb_fence, stage_fences, false,
                     "the VS, GS, CLIP and SF regions take each URB_FENCE when their stage "
                     "reaches it (URB_OP_FENCE from VF, GS, CLIP, SF); false: when it arrives "
                     "here, unless the region's stage has sent a URB_OP_FENCE before"),
    PARAM_END
};

static const struct port_desc urb_fence_ports[] = {
    { .name = "state", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE), .flags = PORT_OPTIONAL,
      .help = "URB_FENCE, CS_URB_STATE and CONSTANT_BUFFER" },
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "a stage's configuration, allocations and accesses" },
    { .name = "client_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "replies to the client of the same index" },
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "URB messages (SEND to SFID 6) from each EU" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "write-backs to the EU of the same index" },
    { .name = "eot_vs", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_VS threads" },
    { .name = "eot_gs", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_GS threads" },
    { .name = "eot_clip", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_CLIP threads" },
    { .name = "eot_sf", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends of FFID_SF threads" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct urb_fence, f, m, h)
#define L(n, f, m, h) STAT_LEVEL_FIELD(n, struct urb_fence, f, m, h)
#define PER_REGION(name, i)                                                                   \
    L("entries_in_use_peak." name, peak[i], "entries", "most entries of the region held at once"), \
    C("stall_cycles." name, stall[i], "cycles", "cycles allocations waited at the region's fence"), \
    C("fence_waits." name, waits[i], "requests", "allocations of the region that waited at its fence")
static const struct stat_desc urb_fence_stats[] = {
    C("fences", fences, "packets", "URB_FENCE taken"),
    C("cs_urb_states", cs_urb_states, "packets", "CS_URB_STATE taken"),
    C("configures", configures, "messages", "URB_OP_CONFIGURE from the stages (unit state)"),
    C("alloc_requests", alloc_requests, "messages", "URB_OP_ALLOC requests and Allocate SENDs"),
    C("allocations", allocations, "entries", "entries handed out"),
    C("frees", frees, "entries", "entries freed by their last dereference"),
    C("references", references, "handles", "references added"),
    C("dereferences", dereferences, "handles", "references dropped"),
    C("refused_allocations", refused_allocations, "messages",
      "requests the region can never satisfy (answered with no handles)"),
    C("bad_handles", bad_handles, "handles", "(de)references of handles that are no live entry"),
    C("fence_waits", fence_waits, "requests",
      "allocations that waited because their region had no free entry (back-pressure)"),
    PER_REGION("vs", REGION_VS), PER_REGION("gs", REGION_GS), PER_REGION("clip", REGION_CLIP),
    PER_REGION("sf", REGION_SF), PER_REGION("vfe", REGION_VFE), PER_REGION("cs", REGION_CS),
    C("reallocations", reallocations, "events", "regions rebuilt for a new fence or configuration"),
    C("ff_reads", ff_reads, "messages", "URB_OP_READ from stages"),
    C("ff_writes", ff_writes, "messages", "URB_OP_WRITE from stages"),
    C("send.write", send_write, "messages", "URB_WRITE from threads"),
    C("send.allocate", send_allocate, "messages", "URB_WRITE with Allocate"),
    C("send.complete_unused", send_complete_unused, "messages",
      "URB_WRITE with Complete and not Used (the entry dereferenced)"),
    C("send.eot", send_eot, "messages", "URB_WRITE with EOT"),
    C("eot_notified", eot_notified, "threads", "EOT writes whose stage was told the thread ended"),
    C("eot_unrouted", eot_unrouted, "threads", "EOT writes with no eot_<stage> port linked"),
    C("outputs_notified", outputs_notified, "entries",
      "GS/CLIP thread writes with Complete and Used whose stage was handed the entry"),
    C("out_of_bounds", out_of_bounds, "messages", "accesses past the URB (reads 0, writes dropped)"),
    C("bad_messages", bad_messages, "messages", "malformed messages or programming"),
    C("unsupported", unsupported, "messages", "URB opcodes other than WRITE, other swizzles"),
    C("constant_buffers", constant_buffers, "packets", "CONSTANT_BUFFER copied into a CS entry"),
    C("constant_bytes", constant_bytes, "bytes", "bytes of constants copied into the URB"),
    C("constant_faults", constant_faults, "packets",
      "CONSTANT_BUFFERs with no CS entry or unreadable memory"),
    C("check.fence_order", check_fence_order, "fences", "fences below the previous one (clamped)"),
    C("check.fence_beyond_urb", check_fence_beyond, "fences", "fences past the URB (clamped)"),
    C("check.entries_beyond_fence", check_entries_beyond, "entries",
      "entries of a unit state that do not fit in its region (dropped)"),
    C("fence_markers", fence_markers, "messages",
      "URB_OP_FENCE from the stages (a stage reached a URB_FENCE in its command order)"),
    C("fences_deferred", fences_deferred, "fences",
      "region fences held until their stage reached the URB_FENCE"),
    C("check.fence_queue_full", fence_queue_full, "fences",
      "region fences taken at once because too many were pending"),
    C("fence_stage_wait_cycles.vs", fence_wait[REGION_VS], "cycles",
      "cycles the VS region's new fence waited for its stage (VF) to reach the URB_FENCE"),
    C("fence_stage_wait_cycles.gs", fence_wait[REGION_GS], "cycles",
      "cycles the GS region's new fence waited for the GS to reach the URB_FENCE"),
    C("fence_stage_wait_cycles.clip", fence_wait[REGION_CLIP], "cycles",
      "cycles the CLIP region's new fence waited for CLIP to reach the URB_FENCE"),
    C("fence_stage_wait_cycles.sf", fence_wait[REGION_SF], "cycles",
      "cycles the SF region's new fence waited for SF to reach the URB_FENCE"),
    C("state.ignored", state_ignored, "packets", "other state packets (freed)"),
    C("reply_stalls", reply_stalls, "events", "replies held by a full channel"),
    STAT_END
};
#undef C
#undef L
#undef PER_REGION

static void warn_once(struct urb_fence *s, struct unit *u, unsigned bit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void warn_once(struct urb_fence *s, struct unit *u, unsigned bit, const char *fmt, ...)
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

static bool region_of_client(uint32_t client, enum fence_region *r)
{
    switch ((enum urb_client)client) {
    case URB_CLIENT_VS: *r = REGION_VS; return true;
    case URB_CLIENT_GS: *r = REGION_GS; return true;
    case URB_CLIENT_CLIP: *r = REGION_CLIP; return true;
    case URB_CLIENT_SF: *r = REGION_SF; return true;
    case URB_CLIENT_VFE: *r = REGION_VFE; return true;
    case URB_CLIENT_CS: *r = REGION_CS; return true;
    default: return false;
    }
}

static bool region_of_ffid(uint32_t ffid, enum fence_region *r)
{
    switch ((enum ff_id)ffid) {
    case FFID_VS: *r = REGION_VS; return true;
    case FFID_GS: *r = REGION_GS; return true;
    case FFID_CLIP: *r = REGION_CLIP; return true;
    case FFID_SF: *r = REGION_SF; return true;
    default: return false;
    }
}

static void reply_at(struct urb_fence *s, uint64_t cycle, uint32_t port, struct msg *m)
{
    if (m)
        reply_queue_push(&s->replies, cycle, port, m, NULL);
}

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

/* ---- regions --------------------------------------------------------------------- */

static void region_release(struct region *g)
{
    free(g->refs);
    free(g->free_ring);
    g->refs = NULL;
    g->free_ring = NULL;
    g->free_head = g->free_count = g->in_use = 0;
}

/* Takes the wanted fence and configuration once no entry is in use. */
static void region_apply(struct urb_fence *s, struct unit *u, struct region *g)
{
    (void)u;
    if (!g->dirty || g->in_use || !s->fences)
        return;                     /* no fence yet: the stages' state waits for one */
    region_release(g);
    g->dirty = false;
    g->start = g->want_start;
    g->end = g->want_end;
    g->units = g->want_units ? g->want_units : 1;
    uint32_t fit = (g->end - g->start) / g->units;
    g->entries = g->want_entries;
    g->overflow = 0;
    if (g->entries > fit) {
        /* counted at the region's first allocation (overflow_check): the
         * configuration may still be on its way (urb_fence.h) */
        g->overflow = g->entries - fit;
        g->entries = fit;
    }
    if (g->entries) {
        g->refs = gt_xcalloc(g->entries, sizeof *g->refs);
        g->free_ring = gt_xcalloc(g->entries, sizeof *g->free_ring);
        for (uint32_t i = 0; i < g->entries; i++)
            g->free_ring[i] = i;
        g->free_count = g->entries;
    }
    s->reallocations++;
}

/* The entries the region's layout could not fit, counted once entries are
 * asked for under it (check.entries_beyond_fence). */
static void overflow_check(struct urb_fence *s, struct unit *u, struct region *g)
{
    if (!g->overflow || g->dirty)
        return;
    s->check_entries_beyond += g->overflow;
    warn_once(s, u, 0, "the %s unit state asks for %u URB entries of %u rows; its fence "
              "region [%u, %u) holds %u", region_names[g - s->region], g->entries + g->overflow,
              g->units, g->start, g->end, g->entries);
    g->overflow = 0;
}

static void serve(struct urb_fence *s, struct unit *u, enum fence_region r)
{
    struct region *g = &s->region[r];
    uint64_t now = unit_cycle(u);
    region_apply(s, u, g);
    if (g->wait_count)
        overflow_check(s, u, g);
    while (g->wait_count && !g->dirty) {
        struct waiter *w = &g->waiters[g->wait_head];
        uint32_t n = w->count;
        if (n > g->entries) {
            s->refused_allocations++;
            warn_once(s, u, 1, "%s asked for %u URB entries; its region has %u", region_names[r],
                      n, g->entries);
            n = 0;
        } else if (n > g->free_count) {
            return;                 /* back-pressure at the fence: waits for frees */
        }
        uint32_t handles[URB_MAX_HANDLES_PER_MSG] = { 0 };
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = g->free_ring[g->free_head];
            g->free_head = (g->free_head + 1) % g->entries;
            g->free_count--;
            g->refs[i] = 1;
            handles[k] = g->start + i * g->units;
        }
        g->in_use += n;
        s->allocations += n;
        if (g->in_use > s->peak[r])
            s->peak[r] = g->in_use;
        if (w->writeback) {
            struct eu_writeback_msg *wb = (struct eu_writeback_msg *)w->writeback->payload;
            uint32_t handle = n ? handles[0] : URB_HANDLE_NONE;
            memcpy(wb->regs[0], &handle, sizeof handle);
            reply_at(s, now + s->latency, w->port, w->writeback);
        } else {
            struct msg *m = urb_reply(u, URB_OP_ALLOCATED, w->client, w->tag, 0);
            struct urb_msg *q = (struct urb_msg *)m->payload;
            q->count = n;
            memcpy(q->handles, handles, sizeof handles);
            reply_at(s, now, w->port, m);
        }
        g->wait_head = (g->wait_head + 1) % g->wait_cap;
        if (--g->wait_count == 0 && now > g->wait_since)
            s->stall[r] += now - g->wait_since;
    }
}

static void wait_push(struct urb_fence *s, struct unit *u, enum fence_region r, struct waiter w)
{
    struct region *g = &s->region[r];
    if (g->wait_count == g->wait_cap) {
        uint32_t cap = g->wait_cap ? g->wait_cap * 2 : 16;
        struct waiter *q = gt_xmalloc(cap * sizeof *q);
        for (uint32_t k = 0; k < g->wait_count; k++)
            q[k] = g->waiters[(g->wait_head + k) % g->wait_cap];
        free(g->waiters);
        g->waiters = q;
        g->wait_head = 0;
        g->wait_cap = cap;
    }
    if (g->wait_count == 0)
        g->wait_since = unit_cycle(u);
    g->waiters[(g->wait_head + g->wait_count++) % g->wait_cap] = w;
    serve(s, u, r);
    if (g->wait_count) {
        s->fence_waits++;           /* this request (or one ahead of it) waits */
        s->waits[r]++;
    }
}

/* The region and entry of a live handle. */
static bool find_entry(struct urb_fence *s, uint32_t handle, struct region **region,
                       uint32_t *entry)
{
    for (uint32_t r = 0; r < REGION_COUNT; r++) {
        struct region *g = &s->region[r];
        if (!g->entries || handle < g->start)
            continue;
        uint32_t rel = handle - g->start;
        if (rel % g->units || rel / g->units >= g->entries || !g->refs[rel / g->units])
            continue;
        *region = g;
        *entry = rel / g->units;
        return true;
    }
    return false;
}

static void dereference(struct urb_fence *s, struct unit *u, uint32_t handle)
{
    struct region *g;
    uint32_t i;
    if (!find_entry(s, handle, &g, &i)) {
        s->bad_handles++;
        warn_once(s, u, 2, "a dereference of URB handle 0x%x, which is no live entry", handle);
        return;
    }
    s->dereferences++;
    if (--g->refs[i])
        return;
    g->free_ring[(g->free_head + g->free_count++) % g->entries] = i;
    g->in_use--;
    s->frees++;
    serve(s, u, (enum fence_region)(g - s->region));
}

/* ---- state ----------------------------------------------------------------------- */

static void set_fences(struct urb_fence *s, struct unit *u, const struct spec_URB_FENCE *v)
{
    const uint32_t fence[REGION_COUNT] = { v->VSFence, v->GSFence, v->CLIPFence, v->SFFence,
                                           v->VFEFence, v->CSFence };
    const bool request[REGION_COUNT] = {
        v->VSUnitURBReallocationRequest, v->GSUnitURBReallocationRequest,
        v->CLIPUnitURBReallocationRequest, v->SFUnitURBReallocationRequest,
        v->VFEUnitURBReallocationRequest, v->CSUnitURBReallocationRequest };
    s->fences++;
    for (uint32_t r = 0; r < REGION_COUNT; r++)
        if (request[r])
            s->fence[r] = fence[r];
    uint32_t prev = 0;
    for (uint32_t r = 0; r < REGION_COUNT; r++) {
        uint32_t f = s->fence[r];
        if (r == REGION_VFE && f == 0 && s->fence[REGION_CS] >= prev) {
            f = prev;               /* the 3D driver's "no VFE region" (urb_fence.h) */
        } else if (f < prev) {
            s->check_fence_order++;
            warn_once(s, u, 3, "the %s fence %u lies below the fence before it (%u): clamped",
                      region_names[r], f, prev);
            f = prev;
        }
        if (f > s->rows) {
            s->check_fence_beyond++;
            warn_once(s, u, 4, "the %s fence %u lies past the URB's %u rows: clamped",
                      region_names[r], f, s->rows);
            f = s->rows;
        }
        struct region *g = &s->region[r];
        g->fences_seen++;
        bool staged = r != REGION_VFE && r != REGION_CS && (s->stage_fences || g->follows_stage);
        if (staged && g->markers < g->fences_seen) {
            /* its stage has older work under the fence in effect: held */
            if (g->pending_count < FENCE_QUEUE) {
                uint32_t i = (g->pending_head + g->pending_count++) % FENCE_QUEUE;
                g->pending_seq[i] = g->fences_seen;
                g->pending_start[i] = prev;
                g->pending_end[i] = f;
                if (g->pending_count == 1)
                    g->pending_since = unit_cycle(u);
                s->fences_deferred++;
                prev = f;
                continue;
            }
            s->fence_queue_full++;     /* taken now; the stage counted as caught up */
            g->pending_count = 0;
            g->markers = g->fences_seen;
        }
        if (g->want_start != prev || g->want_end != f) {
            g->want_start = prev;
            g->want_end = f;
            g->dirty = true;
        }
        prev = f;
    }
    for (uint32_t r = 0; r < REGION_COUNT; r++)
        serve(s, u, (enum fence_region)r);
}

/* URB_OP_FENCE: the region's stage reached its next URB_FENCE; the fences it
 * has now reached take effect (once the region's entries drain, as any
 * change). A region follows its stage's markers from the first one on. */
static void fence_marker(struct urb_fence *s, struct unit *u, enum fence_region r)
{
    struct region *g = &s->region[r];
    s->fence_markers++;
    g->follows_stage = true;
    g->markers++;
    while (g->pending_count && g->pending_seq[g->pending_head] <= g->markers) {
        uint32_t i = g->pending_head;
        if (g->want_start != g->pending_start[i] || g->want_end != g->pending_end[i]) {
            g->want_start = g->pending_start[i];
            g->want_end = g->pending_end[i];
            g->dirty = true;
        }
        g->pending_head = (g->pending_head + 1) % FENCE_QUEUE;
        g->pending_count--;
        s->fence_wait[r] += unit_cycle(u) - g->pending_since;
        g->pending_since = unit_cycle(u);
    }
    serve(s, u, r);
}

static void configure(struct urb_fence *s, struct unit *u, enum fence_region r, uint32_t entries,
                      uint32_t units)
{
    struct region *g = &s->region[r];
    if (g->want_entries == entries && g->want_units == units)
        return;
    g->want_entries = entries;
    g->want_units = units;
    g->dirty = true;
    serve(s, u, r);
}

static bool read_mem(const struct cs_state_packet *p, struct sim *sim, uint64_t addr, void *dst,
                     uint32_t n)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    return gpu_address_space_read(&as, addr, dst, n, &err) == 0;
}

/* CONSTANT_BUFFER: the CS copies the buffer into a CS-region entry (L737-741). */
static void constant_buffer(struct urb_fence *s, struct unit *u, const struct cs_state_packet *p)
{
    const struct spec_CONSTANT_BUFFER *v = cs_state_common(p);
    if (!v->Valid)
        return;
    struct region *g = &s->region[REGION_CS];
    uint32_t bytes = (v->BufferLength + 1) * FENCE_ROW_BYTES;
    if (s->constant_handle != URB_HANDLE_NONE) {
        dereference(s, u, s->constant_handle);
        s->constant_handle = URB_HANDLE_NONE;
    }
    region_apply(s, u, g);
    overflow_check(s, u, g);
    if (g->dirty || !g->free_count || bytes > g->units * FENCE_ROW_BYTES) {
        s->constant_faults++;
        warn_once(s, u, 5, "CONSTANT_BUFFER of %u bytes: no CS URB entry to hold it (CS_URB_STATE "
                  "%u entries of %u rows)", bytes, g->entries, g->units);
        return;
    }
    uint32_t i = g->free_ring[g->free_head];
    g->free_head = (g->free_head + 1) % g->entries;
    g->free_count--;
    g->refs[i] = 1;
    g->in_use++;
    s->allocations++;
    if (g->in_use > s->peak[REGION_CS])
        s->peak[REGION_CS] = g->in_use;
    s->constant_handle = g->start + i * g->units;
    uint32_t offset = s->constant_handle * FENCE_ROW_BYTES;
    if (offset + bytes > s->store_bytes) {
        s->out_of_bounds++;
        return;
    }
    if (!read_mem(p, unit_sim(u), v->BufferStartingAddress, s->bytes + offset, bytes)) {
        s->constant_faults++;
        memset(s->bytes + offset, 0, bytes);
        return;
    }
    s->constant_buffers++;
    s->constant_bytes += bytes;
}

static void take_state(struct urb_fence *s, struct unit *u, struct msg *m)
{
    const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
    if (m->kind != MSG_STATE || m->size < sizeof *p || p->common_offset > m->size) {
        s->bad_messages++;
        return;
    }
    switch ((enum spec_id)p->id) {
    case SPEC_ID_URB_FENCE:
        set_fences(s, u, cs_state_common(p));
        break;
    case SPEC_ID_CS_URB_STATE: {
        const struct spec_CS_URB_STATE *v = cs_state_common(p);
        s->cs_urb_states++;
        configure(s, u, REGION_CS, v->NumberOfURBEntries, v->URBEntryAllocationSize + 1);
        break;
    }
    case SPEC_ID_CONSTANT_BUFFER:
        constant_buffer(s, u, p);
        break;
    default:
        s->state_ignored++;
    }
}

/* ---- stage accesses -------------------------------------------------------------- */

static void ff_access(struct urb_fence *s, struct unit *u, uint32_t port, const struct urb_msg *q,
                      uint32_t size)
{
    bool write = q->op == URB_OP_WRITE;
    if (q->count < 1 || q->rows < 1 || q->rows > MAX_FF_ROWS ||
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
    uint64_t base = (uint64_t)q->handles[0] * FENCE_ROW_BYTES + (uint64_t)q->row * URB_ROW_BYTES;
    uint64_t end = base + (uint64_t)q->rows * URB_ROW_BYTES;
    if (end > s->store_bytes)
        s->out_of_bounds++;
    if (base < s->store_bytes) {
        uint64_t inside = (end > s->store_bytes ? s->store_bytes : end) - base;
        if (write)
            memcpy(s->bytes + base, q->data, inside);
        else
            memcpy(r->data, s->bytes + base, inside);
    }
    reply_at(s, unit_cycle(u) + s->latency, port, m);
}

static void take_client(struct urb_fence *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct urb_msg *q = (const struct urb_msg *)m->payload;
    if (m->kind != MSG_URB || m->size < sizeof *q || q->count > URB_MAX_HANDLES_PER_MSG) {
        s->bad_messages++;
        warn_once(s, u, 6, "malformed URB request (%s, %u bytes) dropped", msg_kind_name(m->kind),
                  m->size);
        return;
    }
    enum fence_region r = REGION_VS;
    bool has_region = region_of_client(q->client, &r);
    switch ((enum urb_op)q->op) {
    case URB_OP_CONFIGURE:
        if (!has_region) {
            s->bad_messages++;
            break;
        }
        s->configures++;
        /* rows of 256 bits -> 512-bit units, rounded up */
        configure(s, u, r, q->count, (q->rows + 1) / 2);
        break;
    case URB_OP_FENCE:
        if (!has_region || r == REGION_VFE || r == REGION_CS) {
            s->bad_messages++;
            break;
        }
        fence_marker(s, u, r);
        break;
    case URB_OP_ALLOC:
        s->alloc_requests++;
        if (!has_region || q->count > URB_MAX_HANDLES_PER_MSG) {
            s->bad_messages++;
            struct msg *a = urb_reply(u, URB_OP_ALLOCATED, q->client, q->tag, 0);
            reply_at(s, unit_cycle(u), port, a);
            break;
        }
        wait_push(s, u, r, (struct waiter){ port, q->tag, q->count, q->client, NULL });
        break;
    case URB_OP_REFERENCE:
        for (uint32_t k = 0; k < q->count; k++) {
            struct region *g;
            uint32_t i;
            if (!find_entry(s, q->handles[k], &g, &i) || g->refs[i] == UINT16_MAX) {
                s->bad_handles++;
                continue;
            }
            g->refs[i]++;
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
        warn_once(s, u, 7, "URB request op %u is not one a stage sends", q->op);
    }
}

/* ---- thread messages (SFID 6) ---------------------------------------------------- */

static void store(struct urb_fence *s, uint64_t offset, const void *src, uint32_t n, bool *oob)
{
    if (offset + n > s->store_bytes) {
        *oob = true;
        return;
    }
    memcpy(s->bytes + offset, src, n);
}

/* URB_WRITE's data registers into the entries (see urb_fence.h for the forms). */
static bool execute_write(struct urb_fence *s, const struct eu_send_msg *p, uint32_t regs)
{
    uint32_t d = p->desc;
    uint32_t h0, h1;
    memcpy(&h0, p->regs[0], 4);
    memcpy(&h1, p->regs[0] + 4, 4);
    h0 &= HANDLE_MASK;
    h1 &= HANDLE_MASK;
    uint32_t data = regs - 1, offset = DESC_OFFSET(d);
    uint64_t e0 = (uint64_t)h0 * FENCE_ROW_BYTES, e1 = (uint64_t)h1 * FENCE_ROW_BYTES;
    bool oob = false;
    switch (DESC_SWIZZLE(d)) {
    case SWIZZLE_NONE:
        for (uint32_t k = 0; k < data; k++)
            store(s, e0 + (uint64_t)(offset + k) * URB_ROW_BYTES, p->regs[1 + k], URB_ROW_BYTES, &oob);
        break;
    case SWIZZLE_INTERLEAVE:
        /* a vertex's half is written only when its channels are enabled: a
         * single-vertex VS thread runs with "the unused half disabled by the
         * Execution Mask" (seed 001 L6159-6177), and its URB Return Handle 1
         * repeats handle 0 (L6382-6389), so writing the disabled half would
         * overwrite the vertex with the other channels' garbage */
        for (uint32_t k = 0; k < data; k++) {
            uint64_t slot = (uint64_t)(2 * offset + k) * 16;
            if (p->exec_mask & 0x0fu)
                store(s, e0 + slot, p->regs[1 + k], 16, &oob);
            if (p->exec_mask & 0xf0u)
                store(s, e1 + slot, p->regs[1 + k] + 16, 16, &oob);
        }
        break;
    case SWIZZLE_TRANSPOSE:
        /* the SF thread's Cx, Cy, Co registers per 8 attributes (seed 001
         * L14380-14420): attribute j's slot is Cx[j], Cy[j], null, Co[j]
         * ("Cx1Cy1nullCo1"); each 3 registers fill 4 rows */
        for (uint32_t g = 0; g * 3 < data; g++)
            for (uint32_t j = 0; j < 8; j++) {
                static const uint32_t place[3] = { 0, 1, 3 };
                uint32_t slot[4] = { 0 };
                for (uint32_t c = 0; c < 3 && g * 3 + c < data; c++)
                    memcpy(&slot[place[c]], p->regs[1 + g * 3 + c] + 4 * j, 4);
                store(s, e0 + (uint64_t)(offset + g * 4) * URB_ROW_BYTES + 16 * j, slot, 16, &oob);
            }
        break;
    default:
        s->unsupported++;
        return false;
    }
    if (oob)
        s->out_of_bounds++;
    return true;
}

static void take_send(struct urb_fence *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p || p->mlen < 1 ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES || p->rlen > 8) {
        s->bad_messages++;
        warn_once(s, u, 8, "malformed %s message (%u bytes) from eu %u dropped",
                  msg_kind_name(m->kind), m->size, eu);
        return;
    }
    uint32_t d = p->desc;
    bool written = false;
    if (DESC_OPCODE(d) != 0) {
        s->unsupported++;
        warn_once(s, u, 9, "URB opcode %u (only URB_WRITE is modelled)", DESC_OPCODE(d));
    } else {
        s->send_write++;
        written = execute_write(s, p, (uint32_t)p->mlen + p->ex_mlen);
    }
    uint64_t now = unit_cycle(u);
    struct msg *wb = NULL;
    if (p->rlen) {
        wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                       (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)wb->payload;
        memset(w, 0, sizeof *w + p->rlen * EU_MSG_REG_BYTES);
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = p->rlen;
        wb->tag = m->tag;
    }
    uint32_t wb_port = s->client_replies + eu;
    enum fence_region r;
    if (written && DESC_ALLOCATE(d) && wb && region_of_ffid(p->ffid, &r)) {
        s->send_allocate++;
        s->alloc_requests++;
        wait_push(s, u, r, (struct waiter){ wb_port, m->tag, 1, 0, wb });
        wb = NULL;
    } else if (DESC_ALLOCATE(d)) {
        s->bad_messages++;
        warn_once(s, u, 10, "URB_WRITE with Allocate from FFID %u without a write-back", p->ffid);
    }
    if (written && DESC_COMPLETE(d) && !DESC_USED(d)) {
        uint32_t h0;
        memcpy(&h0, p->regs[0], 4);
        s->send_complete_unused++;
        dereference(s, u, h0 & HANDLE_MASK);
    } else if (written && DESC_COMPLETE(d) && (p->ffid == FFID_GS || p->ffid == FFID_CLIP) &&
               s->eot[p->ffid]) {
        /* a GS/CLIP output VUE (seed 001 L2636-2640): its stage takes the
         * entry (and the reference the allocation gave) with the PrimType,
         * PrimStart and PrimEnd of M0.2; queued before this write's EOT
         * notice, so the stage sees its outputs before the thread's end */
        struct msg *note = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
        struct eu_thread_end *t = (struct eu_thread_end *)note->payload;
        memset(t, 0, sizeof *t);
        t->op = EU_TD_URB_OUTPUT;
        t->request_id = p->ctx.group;
        t->slot = p->slot;
        t->ffid = p->ffid;
        uint32_t h0;
        memcpy(&h0, p->regs[0], 4);
        memcpy(&t->eot_header_dword2, p->regs[0] + 8, 4);
        t->urb_handle = h0 & HANDLE_MASK;
        reply_at(s, now + s->latency, s->eot_base + p->ffid, note);
        s->outputs_notified++;
    }
    if (wb)
        reply_at(s, now + s->latency, wb_port, wb);
    if (p->flags & EU_SEND_EOT) {
        s->send_eot++;
        if (p->ffid < FFID_COUNT && s->eot[p->ffid]) {
            struct msg *end = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
            struct eu_thread_end *t = (struct eu_thread_end *)end->payload;
            memset(t, 0, sizeof *t);
            t->op = EU_TD_THREAD_END;
            t->request_id = p->ctx.group;
            t->slot = p->slot;
            t->ffid = p->ffid;
            t->thread_life_ps = p->thread_life_ps;
            reply_at(s, now + s->latency, s->eot_base + p->ffid, end);
            s->eot_notified++;
        } else {
            s->eot_unrouted++;
        }
    }
}

/* ---- the unit -------------------------------------------------------------------- */

uint32_t urb_fence_backdoor_read(struct unit *u, uint32_t offset, void *out, uint32_t bytes)
{
    struct urb_fence *s = unit_state(u);
    if (offset >= s->store_bytes)
        return 0;
    uint32_t n = bytes < s->store_bytes - offset ? bytes : s->store_bytes - offset;
    memcpy(out, s->bytes + offset, n);
    return n;
}

uint32_t urb_fence_backdoor_write(struct unit *u, uint32_t offset, const void *in, uint32_t bytes)
{
    struct urb_fence *s = unit_state(u);
    if (offset >= s->store_bytes)
        return 0;
    uint32_t n = bytes < s->store_bytes - offset ? bytes : s->store_bytes - offset;
    memcpy(s->bytes + offset, in, n);
    return n;
}

static int urb_fence_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct urb_fence *s = unit_state(u);
    s->state = unit_port(u, "state", 0);
    s->client = unit_port_array(u, "client", &s->clients);
    s->client_reply = unit_port_array(u, "client_reply", &s->client_replies);
    s->eu = unit_port_array(u, "eu", &s->eus);
    s->writeback = unit_port_array(u, "writeback", &s->writebacks);
    static const struct { uint32_t ffid; const char *port; } eot_ports[] = {
        { FFID_VS, "eot_vs" }, { FFID_GS, "eot_gs" }, { FFID_CLIP, "eot_clip" }, { FFID_SF, "eot_sf" },
    };
    memset(s->eot, 0, sizeof s->eot);
    for (unsigned i = 0; i < sizeof eot_ports / sizeof eot_ports[0]; i++) {
        struct port *p = unit_port(u, eot_ports[i].port, 0);
        s->eot[eot_ports[i].ffid] = port_is_bound(p) ? p : NULL;
    }
    free(s->out);
    s->eot_base = s->client_replies + s->writebacks;
    s->out_count = s->eot_base + FFID_COUNT;
    s->out = gt_xcalloc(s->out_count, sizeof *s->out);
    for (uint32_t i = 0; i < s->client_replies; i++)
        s->out[i] = s->client_reply[i];
    for (uint32_t i = 0; i < s->writebacks; i++)
        s->out[s->client_replies + i] = s->writeback[i];
    for (uint32_t i = 0; i < FFID_COUNT; i++)
        s->out[s->eot_base + i] = s->eot[i];
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->out_count, .stall_count = &s->reply_stalls });
    s->store_bytes = s->rows * FENCE_ROW_BYTES;
    return 0;
}

static void release_all(struct urb_fence *s, struct unit *u)
{
    reply_queue_clear(&s->replies, unit_sim(u));
    for (uint32_t r = 0; r < REGION_COUNT; r++) {
        struct region *g = &s->region[r];
        for (uint32_t k = 0; k < g->wait_count; k++) {
            struct waiter *w = &g->waiters[(g->wait_head + k) % g->wait_cap];
            if (w->writeback)
                msg_free(unit_sim(u), w->writeback);
        }
        region_release(g);
        free(g->waiters);
        memset(g, 0, sizeof *g);
    }
}

static void urb_fence_reset(struct unit *u)
{
    struct urb_fence *s = unit_state(u);
    release_all(s, u);
    free(s->bytes);
    s->bytes = gt_xcalloc(s->store_bytes ? s->store_bytes : 1, 1);
    memset(s->fence, 0, sizeof s->fence);
    s->constant_handle = URB_HANDLE_NONE;
    s->warned = 0;
}

static enum unit_activity urb_fence_tick(struct unit *u)
{
    struct urb_fence *s = unit_state(u);
    struct msg *m;
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
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void urb_fence_destroy(struct unit *u)
{
    struct urb_fence *s = unit_state(u);
    release_all(s, u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->bytes);
    free(s->out);
    s->bytes = NULL;
    s->out = NULL;
}

const struct unit_ops urb_fence_ops = {
    .kind = "urb_fence",
    .help = "Gen4 URB: URB_FENCE regions (VS, GS, CLIP, SF, VFE, CS), entries per region from "
            "the unit states with back-pressure at the fences, CS_URB_STATE and CONSTANT_BUFFER, "
            "the URB's bytes and the Gen4 URB_WRITE on SFID 6 (seed 001 L631-669, L2621-2718).",
    .state_size = sizeof(struct urb_fence),
    .params = urb_fence_params,
    .ports = urb_fence_ports,
    .stats = urb_fence_stats,
    .realize = urb_fence_realize,
    .reset = urb_fence_reset,
    .tick = urb_fence_tick,
    .destroy = urb_fence_destroy,
};
