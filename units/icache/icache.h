/* units/icache/icache.h - a subslice's instruction cache, shared by its EUs.
 *
 * Models (seed 003): the instruction cache ("I$") is an L3 client that only
 * reads (L18408, L18443) and belongs to the read-only pool "RO(I/S/C/T)"
 * (instruction, state, constant, texture: L18366-18384, L18849), so its misses
 * go to the slice's L3 as read-only data (MEMREQ_RO_DATA, units/l3/l3.h;
 * the destination field of L18475-18481); instruction streams are read-only
 * (L19102), so lines are never dirty and an eviction writes nothing back.
 * Lines are the L3's 64 bytes (L18327, units/common/memreq.h).
 *
 * The seed gives no size, associativity, latency or bandwidth for it
 * (notes/003-skl-sharedfn-eu.md §14.17; neither does reference/eu/devices.txt),
 * so all of them are params with modelling choices as defaults:
 *  - `size_kib` (48: the figure the EU's former per-EU cache model used) in
 *    `ways`-way sets (8), true LRU within a set (the least recently looked-up
 *    or filled line is the victim); sets = size / 64 B / ways, the set of a
 *    line is (address / 64) mod sets;
 *  - `lookups_per_cycle` requests are looked up per cycle (2), taken
 *    round-robin over the EU ports; the rest wait in their channels
 *    (stall.bandwidth counts them per cycle);
 *  - a hit is answered `hit_latency` cycles after its lookup (4);
 *  - a miss takes a miss entry (`miss_entries`, 8); misses to a line that
 *    already has one, from any EU, merge into it (merged_misses) and are all
 *    answered by its one fill; with no free entry the request waits in its
 *    channel (stall.miss_entries). The line is allocated when it is filled
 *    (the victim is chosen then). With "memory" linked the entry sends one
 *    MSG_MEMORY_REQUEST line read and fills when its reply arrives; unlinked,
 *    it fills `miss_latency` cycles (30) after the lookup. A fill answers its
 *    waiters on the cycle it happens.
 * Ports: "eu"[open] in (MSG_MEMORY_REQUEST, op MEMREQ_READ: the line address
 *        and the requester's tag, from each EU), "eu_reply"[open] out
 *        (MSG_MEMORY_RESPONSE with the same tag and address, to the EU of the
 *        same index; hit = 1 when answered without a fill), "memory" out and
 *        "memory_reply" in (optional: to the slice's L3 or to memory).
 * Stats: requests, hits, misses (merged ones included), merged_misses,
 * memory_requests, fills, evictions, stall.bandwidth (request-cycles left for
 * a later cycle), stall.miss_entries (cycles a request waited for an entry),
 * stall.reply (reply sends refused by a full channel), stall.memory (memory
 * sends refused), bad_messages; derived hit_rate (hits / requests).
 * Bad input (other kinds, writes or atomics, short payloads, replies nobody
 * asked for) is counted in bad_messages and dropped; nothing crashes.
 * Not modelled: prefetching of the next line (the seed's "up to 8
 * instructions beyond the end of the kernel", L20915, is only a padding
 * rule here), invalidation (PIPE_CONTROL's instruction cache invalidate has
 * no path here; the data always comes from memory, so this is timing only),
 * banking, the EU-to-cache bus width beyond one request per message.
 */
#ifndef GTSIM_UNITS_ICACHE_H
#define GTSIM_UNITS_ICACHE_H

#include "fabric/unit.h"

extern const struct unit_ops icache_ops;

#endif
