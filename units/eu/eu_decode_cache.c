/* units/eu/eu_decode_cache.c - see eu_decode_cache.h. */
#include "units/eu/eu_decode_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"

struct key {
    uint64_t addr;
    uint8_t bytes[16];
    uint8_t gen, len;
};

struct record {
    struct key key;
    struct dentry entry;
    struct eu_instruction in;
};

struct eu_decode_cache {
    pthread_mutex_t lock;
    struct record *records;
    uint32_t count, capacity;
    uint32_t *index;            /* open addressing: record number + 1, 0 empty */
    uint32_t index_mask;
    uint64_t added, hits;
};

static void *cache_create(void)
{
    struct eu_decode_cache *c = gt_xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

static void cache_destroy(void *object)
{
    struct eu_decode_cache *c = object;
    pthread_mutex_destroy(&c->lock);
    free(c->records);
    free(c->index);
    free(c);
}

struct eu_decode_cache *eu_decode_cache_of(struct sim *sim)
{
    return sim_shared(sim, "eu.decoded_kernels", cache_create, cache_destroy);
}

static struct key make_key(unsigned gen, uint64_t addr, const uint8_t *bytes, size_t len)
{
    struct key k;
    memset(&k, 0, sizeof k);
    k.addr = addr;
    k.gen = (uint8_t)gen;
    k.len = (uint8_t)(len < sizeof k.bytes ? len : sizeof k.bytes);
    memcpy(k.bytes, bytes, k.len);
    return k;
}

static uint32_t key_hash(const struct key *k)
{
    uint64_t h = k->addr * UINT64_C(0x9e3779b97f4a7c15) ^ k->gen;
    for (unsigned i = 0; i < k->len; i += 8) {
        uint64_t w;
        memcpy(&w, k->bytes + i, 8);
        h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 31;
    }
    return (uint32_t)(h ^ h >> 32);
}

static bool key_equal(const struct key *a, const struct key *b)
{
    return a->addr == b->addr && a->gen == b->gen && a->len == b->len &&
           memcmp(a->bytes, b->bytes, a->len) == 0;
}

/* The index slot holding k, or the empty slot where it would go. */
static uint32_t *slot_of(struct eu_decode_cache *c, const struct key *k)
{
    uint32_t h = key_hash(k) & c->index_mask;
    while (c->index[h] && !key_equal(&c->records[c->index[h] - 1].key, k))
        h = (h + 1) & c->index_mask;
    return &c->index[h];
}

bool eu_decode_cache_find(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                          const uint8_t *bytes, size_t len, struct dentry *entry,
                          struct eu_instruction *in)
{
    struct key k = make_key(gen, addr, bytes, len);
    bool found = false;
    pthread_mutex_lock(&c->lock);
    if (c->index) {
        uint32_t *slot = slot_of(c, &k);
        if (*slot) {
            const struct record *r = &c->records[*slot - 1];
            *entry = r->entry;
            *in = r->in;
            c->hits++;
            found = true;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return found;
}

void eu_decode_cache_add(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                         const uint8_t *bytes, size_t len, const struct dentry *entry,
                         const struct eu_instruction *in)
{
    struct key k = make_key(gen, addr, bytes, len);
    pthread_mutex_lock(&c->lock);
    if (c->count == EU_DECODE_CACHE_MAX) {
        /* full: start again (entries are copied out, so none is in use) */
        c->count = 0;
        memset(c->index, 0, (c->index_mask + 1) * sizeof *c->index);
    }
    if (c->count == c->capacity) {
        c->capacity = c->capacity ? 2 * c->capacity : 512;
        c->records = gt_xrealloc(c->records, c->capacity * sizeof *c->records);
    }
    if (!c->index || (c->count + 1) * 2 > c->index_mask + 1) {
        /* rebuild the index at twice the size (at least 1024 slots) */
        uint32_t slots = c->index ? 2 * (c->index_mask + 1) : 1024;
        free(c->index);
        c->index = gt_xcalloc(slots, sizeof *c->index);
        c->index_mask = slots - 1;
        for (uint32_t i = 0; i < c->count; i++)
            *slot_of(c, &c->records[i].key) = i + 1;
    }
    uint32_t *slot = slot_of(c, &k);
    if (!*slot) {
        struct record *r = &c->records[c->count];
        r->key = k;
        r->entry = *entry;
        r->entry.in = NULL;
        r->entry.next = NULL;
        r->in = *in;
        *slot = ++c->count;
        c->added++;
    }
    pthread_mutex_unlock(&c->lock);
}

void eu_decode_cache_counts(struct eu_decode_cache *c, uint64_t *added, uint64_t *hits)
{
    pthread_mutex_lock(&c->lock);
    *added = c->added;
    *hits = c->hits;
    pthread_mutex_unlock(&c->lock);
}
