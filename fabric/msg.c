/* fabric/msg.c - message pools: size classes with free lists, carved from
 * blocks, so the hot path never calls malloc. Messages larger than the last
 * class come from malloc and are counted the same way. */
#include "fabric/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"

#define MSG_BLOCK_BYTES (256u * 1024u)
#define MSG_CLASS_MALLOC 0xffffffffu

static const char *const msg_kind_names[MSG_KIND_COUNT] = {
    [MSG_GENERIC] = "generic",
    [MSG_MMIO] = "mmio",
    [MSG_STATE] = "state",
    [MSG_PRIMITIVE] = "primitive",
    [MSG_THREAD_DISPATCH] = "thread_dispatch",
    [MSG_SEND] = "send",
    [MSG_WRITEBACK] = "writeback",
    [MSG_MEMORY_REQUEST] = "memory_request",
    [MSG_MEMORY_RESPONSE] = "memory_response",
    [MSG_PIXELS] = "pixels",
    [MSG_URB] = "urb",
    [MSG_SETUP] = "setup",
    [MSG_SUBSPANS] = "subspans",
    [MSG_QPU_IO] = "qpu_io",
    [MSG_QPU_RESULT] = "qpu_result",
    [MSG_DOMAIN] = "domain",
};

const char *msg_kind_name(uint32_t kind)
{
    return kind < MSG_KIND_COUNT ? msg_kind_names[kind] : "invalid";
}

const char *msg_kinds_text(uint32_t kinds, char *buf, size_t size)
{
    if (size)
        buf[0] = 0;
    if (!kinds) {
        snprintf(buf, size, "any");
        return buf;
    }
    size_t used = 0;
    for (uint32_t k = 0; k < 32; k++) {
        if (!(kinds & MSG_BIT(k)))
            continue;
        int n = snprintf(buf + used, size > used ? size - used : 0, "%s%s", used ? ", " : "",
                         msg_kind_name(k));
        if (n > 0)
            used += (size_t)n;
        if (used >= size)
            break;
    }
    return buf;
}

static uint32_t class_payload(uint32_t c)
{
    return 64u << (2 * c);
}

static void carve_block(struct sim_thread *t, uint32_t c)
{
    size_t stride = sizeof(struct msg) + class_payload(c);
    stride = (stride + 15) & ~(size_t)15;
    size_t per_block = MSG_BLOCK_BYTES / stride;
    if (per_block < 4)
        per_block = 4;
    char *block = gt_xmalloc(stride * per_block);
    if (t->msg_block_count == t->msg_block_capacity) {
        t->msg_block_capacity = t->msg_block_capacity ? 2 * t->msg_block_capacity : 16;
        t->msg_blocks = gt_xrealloc(t->msg_blocks, t->msg_block_capacity * sizeof(void *));
    }
    t->msg_blocks[t->msg_block_count++] = block;
    t->pool_bytes += stride * per_block;
    for (size_t i = 0; i < per_block; i++) {
        struct msg *m = (struct msg *)(block + i * stride);
        m->pool_class = c;
        m->capacity = class_payload(c);
        m->next = t->pools[c].free;
        t->pools[c].free = m;
    }
    t->pools[c].free_count += (uint32_t)per_block;
    t->pools[c].allocated += per_block;
}

static void set_header(const struct sim *sim, struct sim_thread *t, struct msg *m, uint32_t kind,
                       uint32_t size)
{
    m->next = NULL;
    /* Ids are unique and in allocation order on one thread; in a parallel
     * phase each thread numbers its own (no result depends on an id). */
    m->id = sim->parallel_phase ? (t->next_msg_id++ << 8) | t->index : t->next_msg_id++;
    m->kind = kind;
    m->tag = 0;
    m->source = UINT32_MAX;
    m->size = size;
}

void msg_reuse(struct sim *sim, struct msg *m, uint32_t kind, uint32_t size)
{
    if (size > m->capacity) {           /* a caller's bug: never past the payload */
        sim_log(sim, SIM_LOG_ERROR, "msg", "msg_reuse: %u bytes in a message of %u", size,
                m->capacity);
        size = m->capacity;
    }
    set_header(sim, sim_calling_thread(sim), m, kind, size);
}

struct msg *msg_alloc(struct sim *sim, uint32_t kind, uint32_t size)
{
    struct sim_thread *t = sim_calling_thread(sim);
    struct msg *m;
    uint32_t c = 0;
    while (c < MSG_POOL_CLASSES && class_payload(c) < size)
        c++;
    if (c == MSG_POOL_CLASSES) {
        m = gt_xmalloc(sizeof *m + size);
        m->pool_class = MSG_CLASS_MALLOC;
        m->capacity = size;
    } else {
        struct msg_pool_class *pool = &t->pools[c];
        if (!pool->free)
            carve_block(t, c);
        m = pool->free;
        pool->free = m->next;
        pool->free_count--;
    }
    set_header(sim, t, m, kind, size);
    memset(m->payload, 0, size);
    t->messages_live++;
    /* The peak is taken at the end of each clock edge (sim.c), where it does
     * not depend on the order of the ticks or the thread count; outside a
     * step (a test driving units by hand) here. */
    if (!sim->in_step) {
        int64_t live = msg_live(sim);
        if (live > 0 && (uint64_t)live > sim->messages_peak)
            sim->messages_peak = (uint64_t)live;
    }
    return m;
}

void msg_free(struct sim *sim, struct msg *m)
{
    if (!m)
        return;
    struct sim_thread *t = sim_calling_thread(sim);
    t->messages_live--;
    if (m->pool_class == MSG_CLASS_MALLOC) {
        free(m);
        return;
    }
    struct msg_pool_class *pool = &t->pools[m->pool_class];
    m->next = pool->free;
    pool->free = m;
    pool->free_count++;
}

int64_t msg_live(const struct sim *sim)
{
    int64_t live = 0;
    for (uint32_t i = 0; i < sim->thread_count; i++)
        live += sim->threads[i]->messages_live;
    return live;
}

/* Moves n messages from the head of list `from` to list `to`. */
static void move_messages(struct msg_pool_class *from, struct msg_pool_class *to, uint32_t n)
{
    while (n-- && from->free) {
        struct msg *m = from->free;
        from->free = m->next;
        from->free_count--;
        m->next = to->free;
        to->free = m;
        to->free_count++;
    }
}

#define POOL_LOW 32u        /* a thread's free list below this is refilled at the commit */
#define POOL_HIGH 256u      /* above this its surplus goes to the reserve */

/* Whether msg_pools_balance would move messages of t's pools: a list above
 * POOL_HIGH, or one in use below POOL_LOW while the reserve has spares.
 * Asked by t itself at the end of a parallel phase (the reserve does not
 * change in one), so thread 0's commit reads t's pools only when so. */
bool msg_pools_unbalanced(const struct sim *sim, const struct sim_thread *t)
{
    for (uint32_t c = 0; c < MSG_POOL_CLASSES; c++) {
        const struct msg_pool_class *pool = &t->pools[c];
        if (pool->free_count > POOL_HIGH ||
            (pool->free_count < POOL_LOW && sim->reserve[c].free_count))
            return true;
    }
    return false;
}

/* Messages flow one way between threads (a front end on thread 0 allocates
 * dispatches an EU's thread frees): without this the allocating thread would
 * carve blocks for ever while the freeing thread's lists grew. Serial (the
 * commit of a parallel phase), over thread 0 and the workers in `workers`
 * (bit i: thread i), the ones msg_pools_unbalanced named. */
void msg_pools_balance(struct sim *sim, uint64_t workers)
{
    uint64_t threads = workers | 1u;
    for (uint32_t c = 0; c < MSG_POOL_CLASSES; c++) {
        struct msg_pool_class *reserve = &sim->reserve[c];
        for (uint64_t m = threads; m; m &= m - 1) {
            struct msg_pool_class *pool = &sim->threads[__builtin_ctzll(m)]->pools[c];
            if (pool->free_count > POOL_HIGH)
                move_messages(pool, reserve, pool->free_count - POOL_HIGH / 2);
        }
        for (uint64_t m = threads; m; m &= m - 1) {
            struct msg_pool_class *pool = &sim->threads[__builtin_ctzll(m)]->pools[c];
            if (pool->free_count < POOL_LOW && reserve->free_count)
                move_messages(reserve, pool, POOL_HIGH / 2 - pool->free_count);
        }
    }
}

void msg_pools_destroy(struct sim *sim)
{
    for (uint32_t t = 0; t < sim->thread_count; t++) {
        struct sim_thread *th = sim->threads[t];
        for (uint32_t i = 0; i < th->msg_block_count; i++)
            free(th->msg_blocks[i]);
        free(th->msg_blocks);
        th->msg_blocks = NULL;
        th->msg_block_count = 0;
    }
}
