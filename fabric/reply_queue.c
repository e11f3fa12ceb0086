/* fabric/reply_queue.c - see reply_queue.h. The entries live in slots of an
 * array; their keys (struct reply_queue_key), a binary min-heap or a sorted
 * run (struct reply_queue), keep the queue's order. */
#include "fabric/reply_queue.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/unit.h"

static size_t entry_size(const struct reply_queue *q)
{
    return sizeof(struct reply_queue_entry) + ((q->config.data_size + 7) & ~(size_t)7);
}

static struct reply_queue_entry *entry_at(const struct reply_queue *q, uint32_t slot)
{
    return (struct reply_queue_entry *)(void *)(q->entries + (size_t)slot * q->entry_bytes);
}

/* The queue's order as two numbers compared in turn: (ready, insertion),
 * (ready, 0) or (insertion, 0). Equal keys compare as the `less` functions
 * of fabric/min_heap.h did before (neither less than the other). */
static struct reply_queue_key make_key(const struct reply_queue *q, uint64_t ready, uint64_t order,
                                       uint32_t slot)
{
    switch (q->config.order) {
    case REPLY_QUEUE_READY_HEAP_TIES:
        return (struct reply_queue_key){ ready, 0, slot };
    case REPLY_QUEUE_INSERTION:
        return (struct reply_queue_key){ order, 0, slot };
    default:
        return (struct reply_queue_key){ ready, order, slot };
    }
}

static inline bool key_less(const struct reply_queue_key *a, const struct reply_queue_key *b)
{
    return a->first != b->first ? a->first < b->first : a->second < b->second;
}

/* key_less for the heap, which holds only REPLY_QUEUE_READY_HEAP_TIES keys:
 * their second number is always 0 (make_key), so the first decides alone. */
static inline bool heap_less(const struct reply_queue_key *a, const struct reply_queue_key *b)
{
    return a->first < b->first;
}

static inline bool sorted_mode(const struct reply_queue *q)
{
    return q->config.order != REPLY_QUEUE_READY_HEAP_TIES;
}

/* Sorted orders: room for one more key after the last (moving the keys down
 * to index 0, or growing the array so it stays at least twice the count). */
static void sorted_make_room(struct reply_queue *q)
{
    if (q->first + q->count < q->key_capacity)
        return;
    if (q->first && 2 * (q->count + 1) <= q->key_capacity) {
        memmove(q->keys, q->keys + q->first, (size_t)q->count * sizeof *q->keys);
        q->first = 0;
        return;
    }
    q->key_capacity = q->key_capacity ? 2 * q->key_capacity : 64;
    q->keys = gt_xrealloc(q->keys, (size_t)q->key_capacity * sizeof *q->keys);
}

/* Sorted orders: k goes after every key not greater than it (keys are
 * unique), found from the back. */
static void sorted_push(struct reply_queue *q, struct reply_queue_key k)
{
    sorted_make_room(q);
    struct reply_queue_key *keys = q->keys + q->first;
    uint32_t i = q->count++;
    while (i && key_less(&k, &keys[i - 1])) {
        keys[i] = keys[i - 1];
        i--;
    }
    keys[i] = k;
}

/* Sorted orders: k is less than every key in the queue (an entry
 * reply_queue_send held back goes in front again). */
static void sorted_push_front(struct reply_queue *q, struct reply_queue_key k)
{
    if (!q->first) {
        sorted_make_room(q);
        uint32_t gap = q->key_capacity - q->count;  /* >= 1, and the keys start at 0 */
        memmove(q->keys + gap, q->keys, (size_t)q->count * sizeof *q->keys);
        q->first = gap;
    }
    q->keys[--q->first] = k;
    q->count++;
}

/* REPLY_QUEUE_READY_HEAP_TIES: the sift steps of fabric/min_heap.c
 * (min_heap_push, min_heap_pop) on keys. */
static void heap_push(struct reply_queue *q, struct reply_queue_key k)
{
    if (q->count == q->key_capacity) {
        q->key_capacity = q->key_capacity ? 2 * q->key_capacity : 64;
        q->keys = gt_xrealloc(q->keys, (size_t)q->key_capacity * sizeof *q->keys);
    }
    uint32_t i = q->count++;
    while (i && heap_less(&k, &q->keys[(i - 1) / 2])) {
        q->keys[i] = q->keys[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->keys[i] = k;
}

/* Floyd's bottom-up form of min_heap_pop (issue 19: one comparison per level
 * on the way down instead of two): the hole goes down to a leaf along the
 * lesser children, then the last key climbs back while the key above it is
 * not less than it. The path's keys never decrease downwards, so the last key
 * ends where min_heap_pop puts it (just above the first child on the path
 * that is not less than it), and equal keys keep min_heap_pop's order. */
static void heap_pop(struct reply_queue *q)
{
    uint32_t n = --q->count;
    if (!n)
        return;
    struct reply_queue_key *keys = q->keys;
    struct reply_queue_key last = keys[n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && heap_less(&keys[c + 1], &keys[c]))
            c++;
        keys[i] = keys[c];
        i = c;
    }
    while (i) {
        uint32_t parent = (i - 1) / 2;
        if (heap_less(&keys[parent], &last))
            break;
        keys[i] = keys[parent];
        i = parent;
    }
    keys[i] = last;
}

/* A key into the queue's order: the heap, or the sorted run. */
static void keys_push(struct reply_queue *q, struct reply_queue_key k)
{
    if (sorted_mode(q))
        sorted_push(q, k);
    else
        heap_push(q, k);
}

/* Drops the least key (keys[first]). */
static void keys_pop(struct reply_queue *q)
{
    if (!q->count)
        return;
    if (!sorted_mode(q)) {
        heap_pop(q);
        return;
    }
    q->count--;
    q->first = q->count ? q->first + 1 : 0;
}

static uint32_t slot_alloc(struct reply_queue *q)
{
    if (!q->free_count) {
        uint32_t old = q->slot_capacity;
        q->slot_capacity = old ? 2 * old : 64;
        q->entries = gt_xrealloc(q->entries, (size_t)q->slot_capacity * q->entry_bytes);
        q->free_slots = gt_xrealloc(q->free_slots, (size_t)q->slot_capacity * sizeof *q->free_slots);
        for (uint32_t s = q->slot_capacity; s-- > old; )
            q->free_slots[q->free_count++] = s;
    }
    return q->free_slots[--q->free_count];
}

static void slot_free(struct reply_queue *q, uint32_t slot)
{
    q->free_slots[q->free_count++] = slot;
}

void reply_queue_init(struct reply_queue *q, const struct reply_queue_config *config)
{
    memset(q, 0, sizeof *q);
    q->config = *config;
    q->entry_bytes = entry_size(q);
}

void reply_queue_clear(struct reply_queue *q, struct sim *sim)
{
    for (uint32_t i = q->first; i < q->first + q->count; i++) {
        struct reply_queue_entry *e = entry_at(q, q->keys[i].slot);
        if (e->msg)
            msg_free(sim, e->msg);
        slot_free(q, q->keys[i].slot);
    }
    q->count = 0;
    q->first = 0;
}

void reply_queue_free(struct reply_queue *q, struct sim *sim)
{
    reply_queue_clear(q, sim);
    free(q->keys);
    free(q->entries);
    free(q->free_slots);
    free(q->held);
    q->keys = q->held = NULL;
    q->entries = NULL;
    q->free_slots = NULL;
    q->key_capacity = q->slot_capacity = q->free_count = q->held_capacity = q->first = 0;
}

bool reply_queue_push(struct reply_queue *q, uint64_t ready, uint32_t port, struct msg *m,
                      const void *data)
{
    if (reply_queue_full(q))
        return false;
    uint32_t slot = slot_alloc(q);
    struct reply_queue_entry *e = entry_at(q, slot);
    *e = (struct reply_queue_entry){ .ready = ready, .order = q->next_order++, .msg = m,
                                     .port = port };
    if (q->config.data_size) {
        if (data)
            memcpy(reply_queue_data(e), data, q->config.data_size);
        else
            memset(reply_queue_data(e), 0, q->config.data_size);
    }
    keys_push(q, make_key(q, ready, e->order, slot));
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
    memcpy(out, e, q->entry_bytes);
    slot_free(q, q->keys[q->first].slot);
    keys_pop(q);
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
    for (uint32_t i = 0; i < held; i++)
        if (entry_at(q, q->held[i].slot)->port == port)
            return true;
    return false;
}

/* Takes the first entry out of the heap, its slot kept, to go back in when
 * reply_queue_send() is done. */
static void hold_first(struct reply_queue *q, uint32_t *held)
{
    if (*held == q->held_capacity) {
        q->held_capacity = q->held_capacity ? 2 * q->held_capacity : 8;
        q->held = gt_xrealloc(q->held, q->held_capacity * sizeof *q->held);
    }
    q->held[(*held)++] = q->keys[q->first];
    keys_pop(q);
}

struct reply_queue_result reply_queue_send(struct reply_queue *q, struct unit *u)
{
    struct reply_queue_result result = { 0, 0, false };
    const struct reply_queue_config *c = &q->config;
    uint64_t now = unit_cycle(u);
    uint32_t held = 0;
    struct reply_queue_entry *e;
    while (q->count && (e = entry_at(q, q->keys[q->first].slot))->ready <= now) {
        struct port *out = e->port < c->port_count ? c->ports[e->port] : NULL;
        bool sent = false;
        if (!e->msg && !c->build) {
            /* nothing to send */
        } else if (!out || !port_is_bound(out)) {
            if (e->msg)
                msg_free(unit_sim(u), e->msg);
        } else if (held && port_held(q, held, e->port)) {
            hold_first(q, &held);       /* behind a refused one to the same port */
            continue;
        } else if (c->build ? !port_can_send(out) : !port_try_send(out, e->msg)) {
            /* (a held message is offered at once: a refused send keeps it, and
             * asking port_can_send first judged every accepted send twice) */
            result.refused = true;
            if (c->refusal == REPLY_QUEUE_STOP)
                break;
            hold_first(q, &held);
            continue;
        } else {
            if (c->build)
                port_try_send(out, c->build(c->context, e));  /* cannot fail: can_send said yes */
            sent = true;
        }
        if (sent)
            result.sent++;
        else
            result.dropped++;
        if (c->done)
            c->done(c->context, e, sent);
        slot_free(q, q->keys[q->first].slot);
        keys_pop(q);
    }
    if (sorted_mode(q)) {
        for (uint32_t i = held; i-- > 0; )
            sorted_push_front(q, q->held[i]);   /* they were the least, in this order */
    } else {
        for (uint32_t i = 0; i < held; i++)
            heap_push(q, q->held[i]);   /* keeps its insertion number */
    }
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
        for (uint32_t i = q->first; i < q->first + q->count; i++) {
            const struct reply_queue_entry *e = entry_at(q, q->keys[i].slot);
            if (e->ready > now && e->ready < next)
                next = e->ready;
        }
    }
    if (next != UINT64_MAX && next > now)
        unit_wake_at(u, next);
}
