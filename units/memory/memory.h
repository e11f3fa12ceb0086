/* units/memory/memory.h - the memory side below the L3: LLC and DRAM timing.
 *
 * Models a shared last-level cache (set-associative, LRU, 64-byte lines, a
 * hit costs `llc_latency` cycles) in front of DRAM (a miss or a dirty
 * eviction occupies the DRAM bus for 64 / `bytes_per_cycle` cycles and costs
 * `dram_latency` cycles more), with a request queue of `queue` entries shared
 * by the clients (the slices' L3s). Timing only: data lives in the backing
 * store (fabric/memory.h). The seeds describe no LLC or DRAM: every figure
 * here is a configuration choice, defaulting to a DDR4-2133 desktop part.
 *
 * Not modelled: DRAM banks, rows and refresh, the ring/GTI between the GPU and
 * the LLC, CPU traffic, coherency.
 *
 * Ports: "client"[clients] in (MSG_MEMORY_REQUEST), "client_reply"[clients]
 * out (MSG_MEMORY_RESPONSE, same index).
 * Stats: requests, reads, writes, llc_hits, llc_misses, dram_reads,
 * dram_writebacks, dram_bytes, queue_cycles, latency_cycles, unexpected;
 * derived llc_hit_rate, average_latency, dram_utilisation.
 */
#ifndef GTSIM_UNITS_MEMORY_H
#define GTSIM_UNITS_MEMORY_H

#include "fabric/unit.h"

extern const struct unit_ops memory_ops;

#endif
