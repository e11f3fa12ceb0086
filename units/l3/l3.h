/* units/l3/l3.h - one slice's L3 cache: banks, tags, replacement, misses.
 *
 * Models (seed 003 L18291-18573, notes/003-skl-pipeline.md §4.4-4.6): `banks`
 * banks per slice (GT2: 4 of 192 KB), 64-byte lines, logical ways of 2 KB per
 * bank (a bank's cacheable part in ways: sets per bank = way size / line = 32);
 * a line lives in the bank its line number selects (line mod banks); each bank
 * takes one request per cycle ("64B/clk read and write"); Gen9's 1-bit LRU
 * ("N-bit vector, pick first 0, set it, when all 1 clear all and pick way 0",
 * L18561-18565), changed on fills only; allocation on fill only, so misses to
 * one line wait in one miss entry (L18549-18557); dirty lines written back to
 * memory when evicted; atomics occupy their bank for `atomic_cycles`; URB and
 * SLM requests bypass the tags (L18499) with `urb_latency`; uncached requests
 * go straight to memory.
 *
 * The partition: `cache_kib` is the part of the slice's L3 that is tagged
 * cache (the L3 allocation tables' DC + RO + "Rest", L18366-18384, 18866-18878:
 * GT2 default 384 KB with URB 384 KB). DC and RO are one pool here.
 *
 * Not modelled: snoops and coherency flows, the SuperQ and ingress FIFO
 * structure (a bank queue of `bank_queue` requests stands for them), the
 * 2x-clocked data arrays and their bubbles, ECC, the LSQC ordering of same-line
 * atomics beyond bank order, L3CNTLREG reprogramming at run time.
 *
 * Ports: "client"[clients] in (MSG_MEMORY_REQUEST), "client_reply"[clients]
 * out (MSG_MEMORY_RESPONSE to the client of the same index), "memory" out and
 * "memory_reply" in (to the LLC/DRAM).
 * Stats: reads, writes, atomics, hits, misses, merged_misses, evictions,
 * writebacks, urb_accesses, uncached, mshr_stalls, queue_cycles, reply_stalls,
 * unexpected; derived hit_rate.
 */
#ifndef GTSIM_UNITS_L3_H
#define GTSIM_UNITS_L3_H

#include "fabric/unit.h"

extern const struct unit_ops l3_ops;

#endif
