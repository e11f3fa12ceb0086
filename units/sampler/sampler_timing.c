/* units/sampler/sampler_timing.c - when a sampler message's reply goes.
 *
 * The pipeline holds a message max(ceil(texels / texels_per_cycle),
 * ceil(footprints / samples_per_cycle)) cycles: a footprint is what one filter
 * step takes (a NEAREST texel, a bilinear 2x2, each level of a trilinear sample,
 * each anisotropic subpixel of each level, a gather, an ld's texel), so the
 * texel rate follows the filter mode: bilinear `samples_per_cycle` pixel
 * samples a cycle, trilinear half that, anisotropic 1 / (ways x levels) of it
 * (the seed's only figure is qualitative, "the processing of the 4 texel
 * locations in parallel" of a subspan, 003 L3002; the public Gen9 figure is 4
 * texels a clock a subslice sampler; model choices, in the params' help). The
 * 64-byte lines the texels lie in go through the subslice's L1 sampler cache
 * (`l1_lines`, `l1_ways`) and then its L2 (`cache_lines`, `cache_ways`; both LRU,
 * timing only: the data always comes from memory when the message is taken;
 * the seed names the sampler's texture caches, L3016, L3361, Intel's Gen9
 * compute architecture paper "L1 and L2 sampler caches", neither a size or
 * latency, so all are parameters); L1 hits need nothing, L2 hits add
 * `l2_latency`, misses go to the slice's L3 as read-only data
 * (MSG_MEMORY_REQUEST, MEMREQ_RO_DATA, memreq.h) and are allocated in both
 * levels when requested. The reply goes when the pipeline is done plus
 * `hit_latency` (and `l2_latency`), and every missing line has been answered
 * (or, without an L3, `latency` cycles after the message was taken when a
 * line missed).
 */
#include "units/sampler/sampler_internal.h"

#include <string.h>

#include "fabric/sim.h"
#include "units/common/memreq.h"

/* ---- lines ---------------------------------------------------------------------- */

void smp_add_line(struct smp_exec *x, uint64_t physical)
{
    struct smp_txn *t = x->t;
    uint64_t line = physical & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    for (uint32_t i = t->nlines; i-- > 0;)
        if (t->lines[i] == line)
            return;
    if (t->nlines == SMP_MAX_LINES) {
        x->s->lines_dropped++;
        return;
    }
    t->lines[t->nlines++] = line;
}

/* Looks a line up in a set-associative cache of `lines` lines, `ways` ways; a
 * miss allocates it (LRU way). */
static bool cache_lookup(uint64_t *tags, uint64_t *uses, uint64_t *clock, uint32_t lines,
                         uint32_t ways, uint64_t line)
{
    if (!lines)
        return false;
    ways = ways < lines ? ways : lines;
    uint32_t sets = lines / ways;
    uint64_t number = line / MEMREQ_LINE_BYTES;
    uint32_t set = (uint32_t)(number % sets);
    uint64_t *tag = &tags[(size_t)set * ways];
    uint64_t *used = &uses[(size_t)set * ways];
    uint32_t victim = 0;
    (*clock)++;
    for (uint32_t w = 0; w < ways; w++) {
        if (tag[w] == number + 1) {
            used[w] = *clock;
            return true;
        }
        if (used[w] < used[victim])
            victim = w;
    }
    tag[victim] = number + 1;
    used[victim] = *clock;
    return false;
}

/* ---- the reply queue (fabric/reply_queue.h): replies in ready order ------------------ */

static void reply_left(void *context, const struct reply_queue_entry *e, bool sent)
{
    (void)sent;
    struct unit *u = context;
    struct smp *s = unit_state(u);
    uint32_t ti;
    memcpy(&ti, reply_queue_data(e), sizeof ti);
    struct smp_txn *t = &s->txn[ti];
    uint64_t now = unit_cycle(u);
    s->latency_sum += now > t->start ? now - t->start : 0;
    t->used = false;
    t->wb = NULL;
    s->in_flight--;
    unit_progress(u);
}

void smp_reply_queue_init(struct smp *s, struct unit *u)
{
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .capacity = s->max_outstanding, .data_size = sizeof(uint32_t),
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->wb, .port_count = s->eus, .stall_count = &s->stall_writeback,
        .done = reply_left, .context = u });
}

static void ready_push(struct smp *s, uint32_t ti, uint64_t due)
{
    struct smp_txn *t = &s->txn[ti];
    reply_queue_push(&s->replies, due, t->eu, t->wb, &ti);
    t->wb = NULL;
}

void smp_send_replies(struct smp *s, struct unit *u)
{
    reply_queue_send(&s->replies, u);
    reply_queue_wake(&s->replies, u);
}

bool smp_reply_due(const struct smp *s, uint64_t now)
{
    return reply_queue_next_ready(&s->replies) <= now + 1;
}

/* ---- routing a message's lines ------------------------------------------------------- */

void smp_route_lines(struct smp *s, struct unit *u, uint32_t ti, uint64_t now, uint64_t texels,
                     uint64_t footprints)
{
    (void)u;
    struct smp_txn *t = &s->txn[ti];
    /* the pipeline: texel fetch bandwidth and filter footprints, the slower */
    uint64_t cycles = (texels + s->texels_per_cycle - 1) / s->texels_per_cycle;
    uint64_t filter = (footprints + s->samples_per_cycle - 1) / s->samples_per_cycle;
    cycles = filter > cycles ? filter : cycles;
    if (cycles == 0)
        cycles = 1;
    uint64_t begin = s->busy_until > now ? s->busy_until : now;
    s->busy_until = begin + cycles;
    s->busy_cycles += cycles;
    t->ready_at = s->busy_until + s->hit_latency;
    /* the caches: L1 hits leave the list; L2 hits leave it and add l2_latency;
     * misses stay for the L3 (allocated in both levels) */
    uint32_t misses = 0;
    bool l2_hit = false;
    for (uint32_t i = 0; i < t->nlines; i++) {
        if (s->l1_lines && cache_lookup(s->l1_tag, s->l1_used, &s->l1_clock, s->l1_lines,
                                        s->l1_ways, t->lines[i])) {
            s->l1_hits++;
            continue;
        }
        if (s->l1_lines)
            s->l1_misses++;
        if (cache_lookup(s->cache_tag, s->cache_used, &s->cache_clock, s->cache_lines,
                         s->cache_ways, t->lines[i])) {
            s->cache_hits++;
            l2_hit = true;
        } else {
            s->cache_misses++;
            t->lines[misses++] = t->lines[i];
        }
    }
    if (l2_hit)
        t->ready_at += s->l2_latency;
    t->nlines = misses;
    t->lines_left = 0;
    bool l3 = s->l3 && port_is_bound(s->l3);
    if (misses && l3) {
        t->lines_left = misses;
        for (uint32_t i = 0; i < misses; i++)
            fifo_push(&s->line_queue, &(struct smp_pending_line){ ti, i });
        return;
    }
    if (misses && now + s->latency > t->ready_at)
        t->ready_at = now + s->latency;
    ready_push(s, ti, t->ready_at);
}

void smp_send_lines(struct smp *s, struct unit *u)
{
    while (fifo_count(&s->line_queue)) {
        if (!port_can_send(s->l3)) {
            s->stall_l3++;
            return;
        }
        struct smp_pending_line pl;
        fifo_pop(&s->line_queue, &pl);
        const struct smp_txn *t = &s->txn[pl.txn];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = t->lines[pl.index];
        r->tag = pl.txn;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = MEMREQ_READ;
        r->target = MEMREQ_RO_DATA;
        r->client = unit_id(u);
        port_try_send(s->l3, m);
        s->lines++;
    }
}

void smp_take_l3_replies(struct smp *s, struct unit *u)
{
    struct msg *m;
    while (s->l3_reply && (m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *r || r->tag >= SMP_MAX_TXN ||
            !s->txn[r->tag].used || s->txn[r->tag].lines_left == 0) {
            s->bad_messages++;
        } else {
            s->l3_replies++;
            struct smp_txn *t = &s->txn[r->tag];
            if (--t->lines_left == 0) {
                uint64_t now = unit_cycle(u);
                ready_push(s, r->tag, t->ready_at > now ? t->ready_at : now);
            }
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}
