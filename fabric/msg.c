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

static void carve_block(struct sim *sim, uint32_t c)
{
    size_t stride = sizeof(struct msg) + class_payload(c);
    stride = (stride + 15) & ~(size_t)15;
    size_t per_block = MSG_BLOCK_BYTES / stride;
    if (per_block < 4)
        per_block = 4;
    char *block = gt_xmalloc(stride * per_block);
    if (sim->msg_block_count == sim->msg_block_capacity) {
        sim->msg_block_capacity = sim->msg_block_capacity ? 2 * sim->msg_block_capacity : 16;
        sim->msg_blocks = gt_xrealloc(sim->msg_blocks, sim->msg_block_capacity * sizeof(void *));
    }
    sim->msg_blocks[sim->msg_block_count++] = block;
    sim->pool_bytes += stride * per_block;
    for (size_t i = 0; i < per_block; i++) {
        struct msg *m = (struct msg *)(block + i * stride);
        m->pool_class = c;
        m->capacity = class_payload(c);
        m->next = sim->pools[c].free;
        sim->pools[c].free = m;
    }
    sim->pools[c].allocated += per_block;
}

struct msg *msg_alloc(struct sim *sim, uint32_t kind, uint32_t size)
{
    struct msg *m;
    uint32_t c = 0;
    while (c < MSG_POOL_CLASSES && class_payload(c) < size)
        c++;
    if (c == MSG_POOL_CLASSES) {
        m = gt_xmalloc(sizeof *m + size);
        m->pool_class = MSG_CLASS_MALLOC;
        m->capacity = size;
    } else {
        if (!sim->pools[c].free)
            carve_block(sim, c);
        m = sim->pools[c].free;
        sim->pools[c].free = m->next;
    }
    m->next = NULL;
    m->id = sim->next_msg_id++;
    m->kind = kind;
    m->tag = 0;
    m->source = UINT32_MAX;
    m->size = size;
    memset(m->payload, 0, size);
    if (++sim->messages_live > sim->messages_peak)
        sim->messages_peak = sim->messages_live;
    return m;
}

void msg_free(struct sim *sim, struct msg *m)
{
    if (!m)
        return;
    sim->messages_live--;
    if (m->pool_class == MSG_CLASS_MALLOC) {
        free(m);
        return;
    }
    m->next = sim->pools[m->pool_class].free;
    sim->pools[m->pool_class].free = m;
}

void msg_pools_destroy(struct sim *sim)
{
    for (uint32_t i = 0; i < sim->msg_block_count; i++)
        free(sim->msg_blocks[i]);
    free(sim->msg_blocks);
    sim->msg_blocks = NULL;
    sim->msg_block_count = 0;
}
