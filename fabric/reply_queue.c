/* fabric/reply_queue.c - see reply_queue.h. The entries live in a min-heap
 * (fabric/min_heap.h) whose `less` is the queue's order. */
#include "fabric/reply_queue.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/unit.h"

static bool ready_then_insertion(const void *pa, const void *pb)
{
    const struct reply_queue_entry *a = pa, *b = pb;
    return a->ready != b->ready ? a->ready < b->ready : a->order < b->order;
}

static bool ready_only(const void *pa, const void *pb)
{
    return ((const struct reply_queue_entry *)pa)->ready <
           ((const struct reply_queue_entry *)pb)->ready;
}

static bool insertion_only(const void *pa, const void *pb)
{
    return ((const struct reply_queue_entry *)pa)->order <
           ((const struct reply_queue_entry *)pb)->order;
}

static size_t entry_size(const struct reply_queue *q)
{
    return sizeof(struct reply_queue_entry) + ((q->config.data_size + 7) & ~(size_t)7);
}

void reply_queue_init(struct reply_queue *q, const struct reply_queue_config *config)
{
    memset(q, 0, sizeof *q);
    q->config = *config;
    min_heap_less_fn less = config->order == REPLY_QUEUE_READY_HEAP_TIES ? ready_only
                          : config->order == REPLY_QUEUE_INSERTION ? insertion_only
                          : ready_then_insertion;
    min_heap_init(&q->heap, entry_size(q), less);
    q->scratch = gt_xmalloc(entry_size(q));
}

void reply_queue_clear(struct reply_queue *q, struct sim *sim)
{
    for (uint32_t i = 0; i < q->heap.count; i++) {
        struct reply_queue_entry *e = min_heap_at(&q->heap, i);
        if (e->msg)
            msg_free(sim, e->msg);
    }
    min_heap_clear(&q->heap);
}

void reply_queue_free(struct reply_queue *q, struct sim *sim)
{
    reply_queue_clear(q, sim);
    min_heap_free(&q->heap);
    free(q->held);
    free(q->scratch);
    q->held = q->scratch = NULL;
    q->held_capacity = 0;
}

bool reply_queue_push(struct reply_queue *q, uint64_t ready, uint32_t port, struct msg *m,
                      const void *data)
{
    if (reply_queue_full(q))
        return false;
    size_t size = entry_size(q);
    unsigned char *item = q->scratch;       /* min_heap_push copies it in */
    memset(item, 0, size);
    struct reply_queue_entry *e = (struct reply_queue_entry *)(void *)item;
    e->ready = ready;
    e->order = q->next_order++;
    e->msg = m;
    e->port = port;
    if (data && q->config.data_size)
        memcpy(item + sizeof *e, data, q->config.data_size);
    min_heap_push(&q->heap, item);
    return true;
}

size_t reply_queue_entry_size(const struct reply_queue *q)
{
    return entry_size(q);
}

bool reply_queue_take_ready(struct reply_queue *q, uint64_t now, void *out)
{
    const struct reply_queue_entry *e = reply_queue_first(q);
    if (!e || e->ready > now)
        return false;
    memcpy(out, e, entry_size(q));
    min_heap_pop(&q->heap);
    return true;
}

uint64_t reply_queue_next_ready(const struct reply_queue *q)
{
    const struct reply_queue_entry *e = reply_queue_first(q);
    return e ? e->ready : UINT64_MAX;
}

/* REPLY_QUEUE_PER_PORT: whether an entry already held waits for `port`. */
static bool port_held(const struct reply_queue *q, uint32_t held, uint32_t port)
{
    size_t size = entry_size(q);
    for (uint32_t i = 0; i < held; i++)
        if (((const struct reply_queue_entry *)(const void *)(q->held + i * size))->port == port)
            return true;
    return false;
}

static void hold(struct reply_queue *q, uint32_t *held, const struct reply_queue_entry *e)
{
    size_t size = entry_size(q);
    if (*held == q->held_capacity) {
        q->held_capacity = q->held_capacity ? 2 * q->held_capacity : 8;
        q->held = gt_xrealloc(q->held, q->held_capacity * size);
    }
    memcpy(q->held + (*held)++ * size, e, size);
}

struct reply_queue_result reply_queue_send(struct reply_queue *q, struct unit *u)
{
    struct reply_queue_result result = { 0, 0, false };
    const struct reply_queue_config *c = &q->config;
    uint64_t now = unit_cycle(u);
    uint32_t held = 0;
    struct reply_queue_entry *e;
    while ((e = min_heap_top(&q->heap)) != NULL && e->ready <= now) {
        struct port *out = e->port < c->port_count ? c->ports[e->port] : NULL;
        bool sent = false;
        if (!e->msg && !c->build) {
            /* nothing to send */
        } else if (!out || !port_is_bound(out)) {
            if (e->msg)
                msg_free(unit_sim(u), e->msg);
        } else if (held && port_held(q, held, e->port)) {
            hold(q, &held, e);          /* behind a refused one to the same port */
            min_heap_pop(&q->heap);
            continue;
        } else if (!port_can_send(out)) {
            result.refused = true;
            if (c->refusal == REPLY_QUEUE_STOP)
                break;
            hold(q, &held, e);
            min_heap_pop(&q->heap);
            continue;
        } else {
            struct msg *m = c->build ? c->build(c->context, e) : e->msg;
            port_try_send(out, m);      /* cannot fail: port_can_send said yes */
            sent = true;
        }
        if (sent)
            result.sent++;
        else
            result.dropped++;
        if (c->done)
            c->done(c->context, e, sent);
        min_heap_pop(&q->heap);
    }
    size_t size = entry_size(q);
    for (uint32_t i = 0; i < held; i++)
        min_heap_push(&q->heap, q->held + i * size);    /* keeps its insertion number */
    if (result.refused && c->stall_count)
        ++*c->stall_count;
    return result;
}

void reply_queue_wake(const struct reply_queue *q, struct unit *u)
{
    uint64_t now = unit_cycle(u), next = reply_queue_next_ready(q);
    if (next <= now && q->config.refusal == REPLY_QUEUE_PER_PORT) {
        /* the first waits for its channel; a later one to another port may not */
        next = UINT64_MAX;
        for (uint32_t i = 0; i < q->heap.count; i++) {
            const struct reply_queue_entry *e = min_heap_at(&q->heap, i);
            if (e->ready > now && e->ready < next)
                next = e->ready;
        }
    }
    if (next != UINT64_MAX && next > now)
        unit_wake_at(u, next);
}
