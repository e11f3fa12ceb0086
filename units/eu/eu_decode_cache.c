/* units/eu/eu_decode_cache.c - see eu_decode_cache.h. */
#include "units/eu/eu_decode_cache.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"

struct key {
    uint64_t addr;
    uint8_t bytes[16];
    uint8_t gen, len;
};

/* the decode's info on a host cache line of its own (the EUs read it every
 * instruction) */
struct record {
    _Alignas(64) struct eu_decoded decoded;
    struct key key;
};

_Static_assert(sizeof(struct dinfo) <= 64, "a decode's info fits one host cache line");

/* Records live in blocks that never move: EUs keep pointers to their
 * instructions for the sim's life. */
#define RECORDS_PER_BLOCK 256u

struct eu_decode_cache {
    pthread_mutex_t lock;
    struct record **blocks;     /* record i: blocks[i / RECORDS_PER_BLOCK][i % RECORDS_PER_BLOCK] */
    uint32_t count, block_count;
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
    for (uint32_t b = 0; b < c->block_count; b++)
        free(c->blocks[b]);
    free(c->blocks);
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

static struct record *record_at(const struct eu_decode_cache *c, uint32_t i)
{
    return &c->blocks[i / RECORDS_PER_BLOCK][i % RECORDS_PER_BLOCK];
}

/* The index slot holding k, or the empty slot where it would go. */
static uint32_t *slot_of(struct eu_decode_cache *c, const struct key *k)
{
    uint32_t h = key_hash(k) & c->index_mask;
    while (c->index[h] && !key_equal(&record_at(c, c->index[h] - 1)->key, k))
        h = (h + 1) & c->index_mask;
    return &c->index[h];
}

const struct dinfo *eu_decode_cache_find(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                                         const uint8_t *bytes, size_t len)
{
    struct key k = make_key(gen, addr, bytes, len);
    const struct dinfo *found = NULL;
    pthread_mutex_lock(&c->lock);
    if (c->index) {
        uint32_t *slot = slot_of(c, &k);
        if (*slot) {
            found = &record_at(c, *slot - 1)->decoded.info;
            c->hits++;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return found;
}

const struct dinfo *eu_decode_cache_add(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                                        const uint8_t *bytes, size_t len,
                                        const struct dinfo *info, const struct eu_instruction *in)
{
    struct key k = make_key(gen, addr, bytes, len);
    const struct dinfo *shared = NULL;
    pthread_mutex_lock(&c->lock);
    uint32_t found = c->index ? *slot_of(c, &k) : 0;
    if (found) {
        /* another EU added it first */
        shared = &record_at(c, found - 1)->decoded.info;
    } else if (c->count < EU_DECODE_CACHE_MAX) {
        if (c->count == c->block_count * RECORDS_PER_BLOCK) {
            c->blocks = gt_xrealloc(c->blocks, (c->block_count + 1) * sizeof *c->blocks);
            c->blocks[c->block_count++] =
                gt_xaligned_calloc(alignof(struct record), RECORDS_PER_BLOCK * sizeof **c->blocks);
        }
        if (!c->index || (c->count + 1) * 2 > c->index_mask + 1) {
            /* rebuild the index at twice the size (at least 1024 slots) */
            uint32_t slots = c->index ? 2 * (c->index_mask + 1) : 1024;
            free(c->index);
            c->index = gt_xcalloc(slots, sizeof *c->index);
            c->index_mask = slots - 1;
            for (uint32_t i = 0; i < c->count; i++)
                *slot_of(c, &record_at(c, i)->key) = i + 1;
        }
        struct record *r = record_at(c, c->count);
        r->key = k;
        r->decoded.info = *info;
        r->decoded.info.addr = addr;
        r->decoded.in = *in;
        *slot_of(c, &k) = ++c->count;
        c->added++;
        shared = &r->decoded.info;
    }
    /* else full: the EU keeps its own copy */
    pthread_mutex_unlock(&c->lock);
    return shared;
}

void eu_decode_cache_counts(struct eu_decode_cache *c, uint64_t *added, uint64_t *hits)
{
    pthread_mutex_lock(&c->lock);
    *added = c->added;
    *hits = c->hits;
    pthread_mutex_unlock(&c->lock);
}
