/* units/dataport/dataport_const_cache.c - the read-only port's constant cache (SFID 9,
 * notes/003-skl-sharedfn-eu.md §4.1): direct mapped, `cc_lines` 64-byte lines. Timing
 * only: the data always comes from memory when the message is taken; lines that miss
 * go to the L3 as read-only data (MEMREQ_RO_DATA) and fill the cache when answered. */
#include "units/dataport/dataport_internal.h"

/* Drops the message's lines that hit (no L3 request) and retargets the misses to
 * read-only data; returns the lines left to request. */
uint32_t dp_const_cache_filter(struct dp *s, struct txn *t)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->nlines; i++) {
        uint64_t line = t->lines[i] / MEMREQ_LINE_BYTES;
        if (s->cc[line % s->cc_lines] == line + 1) {
            s->cc_hits++;
            continue;
        }
        s->cc_misses++;
        t->lines[kept] = t->lines[i];
        t->ops[kept] = t->ops[i];
        t->targets[kept++] = MEMREQ_RO_DATA;
    }
    t->nlines = kept;
    return kept;
}

/* A line the L3 answered for a constant-cache message fills its entry. */
void dp_const_cache_fill(struct dp *s, uint64_t address)
{
    uint64_t line = address / MEMREQ_LINE_BYTES;
    s->cc[line % s->cc_lines] = line + 1;
}
