/* units/eu/eu_decode_cache.h - the decoded-kernel cache the EUs of one
 * simulation share: every EU runs the same kernels, so an instruction is
 * decoded (isa/intel eu_decode) and classified for the timing model once per
 * simulation, not once per EU. Each EU keeps its own table of decoded entries
 * (eu_fetch.c, keyed by address: its hot path is unchanged); on a miss there
 * it asks this cache before decoding, and keeps a pointer to the cache's
 * decode (struct dinfo and the decoded instruction), which every EU running
 * the kernel then reads (issue 19: with a copy each, 24 EUs' decodes of
 * SGEMM's 362-instruction kernel came to 3 MB, past the host's 1 MiB L2).
 *
 * An entry is keyed by the ISA generation, the instruction's address and its
 * bytes (8 compact or 16 native), so a kernel rewritten at the same address
 * (the captures load new kernels between batches) finds no stale entry here.
 * The cache is owned by the sim (fabric/sim.h sim_shared(), no globals) and
 * reached by each EU through unit_sim(): no EU touches another's state. It is
 * guarded by its own lock, as the EUs may tick on several host threads; what
 * an EU gets is the same whether it or another EU decoded first, so results do
 * not depend on the tick order or the thread count. An entry never moves and
 * lives as long as the sim (EUs hold pointers to it); the cache holds at most
 * EU_DECODE_CACHE_MAX entries, and once full it adds none (an EU then keeps
 * its own copy of what it decodes).
 * Not modelled (nothing here is hardware): this is the simulator's own memo. */
#ifndef GTSIM_UNITS_EU_EU_DECODE_CACHE_H
#define GTSIM_UNITS_EU_EU_DECODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "units/eu/eu_internal.h"

#define EU_DECODE_CACHE_MAX 65536u

struct sim;
struct eu_decode_cache;

/* The simulation's cache, made on first use. */
struct eu_decode_cache *eu_decode_cache_of(struct sim *sim);

/* The instruction `bytes` (len 8 or 16) at addr, decoded for generation gen:
 * the cache's decode (with its instruction: dinfo_insn()), or NULL when the
 * cache has none. */
const struct dinfo *eu_decode_cache_find(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                                         const uint8_t *bytes, size_t len);
/* Adds what an EU decoded (info, with addr as its address, and in) and
 * returns the cache's decode (the one another EU added first, when one did),
 * or NULL when the cache is full. */
const struct dinfo *eu_decode_cache_add(struct eu_decode_cache *c, unsigned gen, uint64_t addr,
                                        const uint8_t *bytes, size_t len,
                                        const struct dinfo *info, const struct eu_instruction *in);

/* For tests: entries added (decodes shared) and finds that hit. */
void eu_decode_cache_counts(struct eu_decode_cache *c, uint64_t *added, uint64_t *hits);

#endif
