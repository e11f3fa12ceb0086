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
 * go straight to memory. Replies wait in a heap by due cycle, then leave it
 * in order into their client's egress queue (`egress_depth` replies; the
 * crossbar of "Crossbars for data routing" and "Ingress/Egress queues",
 * L18307-18310), and each egress queue sends on its own port as its channel
 * takes them: a client that is slow to take replies holds back only its own
 * (before, one refused reply held every client's; that throttled the three
 * data ports to 0.71 line requests per clock, below the one per clock each
 * of L18341: `make microbench`). A full egress queue holds the heap.
 *
 * The partition: `cache_kib` is the part of the slice's L3 that is tagged
 * cache (the L3 allocation tables' DC + RO + "Rest", L18366-18384, 18866-18878:
 * GT2 default 384 KB with URB 384 KB), all of it "Rest" (shared by R/W and
 * read-only data). With DC and RO ways programmed, the ways are laid out
 * DC | Rest | RO: R/W data fills DC + Rest, read-only data (target
 * MEMREQ_RO_DATA) fills Rest + RO, each pool under its own 1-bit LRU;
 * lookups search every way.
 * The params give the partition at reset; a write of L3CNTLREG from the CS
 * (MSG_MMIO CS_MMIO_WRITE on "cs") reprograms it: genxml layout 0 SLM Enable,
 * 7:1 URB, 17:11 RO, 24:18 DC, 31:25 All, in ways (2 KB per bank; SLM on =
 * 64 KB per bank), checked against the rules of 003 notes §4.5 (every way
 * included, R/W ways 0 or >= 128 KB, Rest = 0 needs RO != 0, 0..512 KB in
 * 16 KB steps, GT2 figures scaled by banks / 4): each broken rule is counted
 * in programming_violations; a write whose ways do not add up, or that leaves
 * no cache ways, is counted in rejected_programmings and not applied. The
 * cache is emptied on a reprogram (dirty lines written back), as the seed
 * requires software to have flushed it.
 *
 * Not modelled: snoops and coherency flows, the SuperQ and ingress FIFO
 * structure (a bank queue of `bank_queue` requests and an egress queue of
 * `egress_depth` replies per client stand for them; the depths are model
 * choices), the
 * 2x-clocked data arrays and their bubbles, ECC, the LSQC ordering of same-line
 * atomics beyond bank order, the L3SQCREG/coherent-line flush sequence of a
 * reprogram (the L3 just empties itself).
 *
 * Ports: "client"[clients] in (MSG_MEMORY_REQUEST), "client_reply"[clients]
 * out (MSG_MEMORY_RESPONSE to the client of the same index), "memory" out and
 * "memory_reply" in (to the LLC/DRAM), "cs" in (optional: L3CNTLREG writes).
 * Stats: reads, writes, atomics, hits, misses, merged_misses, evictions,
 * writebacks, urb_accesses, uncached, mshr_stalls, queue_cycles, reply_stalls,
 * unexpected; derived hit_rate, and with "cs" linked ro_reads,
 * slm_unallocated (SLM requests with no SLM partition), reprograms,
 * programming_violations, rejected_programmings, partition.{urb,slm,ro,dc,rest}_kib.
 */
#ifndef GTSIM_UNITS_L3_H
#define GTSIM_UNITS_L3_H

#include "fabric/unit.h"

extern const struct unit_ops l3_ops;
/* The run summary's L3 figure; the RTL twins of the kind (rtl-cosim/) name it too. */
extern const struct key_figure l3_key_figures[];

/* L3CNTLREG (0x7034) decoded for one slice: the fields in ways, the rules of
 * 003 notes §4.5 (L18834-18911) checked, and what the partition becomes.
 * `banks`, `way_kib` and `max_ways` (size_kib / banks / way_kib) are the
 * unit's geometry. Pure: the C unit and the RTL adapters share it. */
struct l3_partition {
    uint32_t slm_ways, urb, ro, dc, all;   /* the fields, in ways (SLM: 64 KB per bank) */
    uint32_t violations;                   /* rules broken */
    bool apply;                            /* the ways add up and some are cache */
    /* when applied: the cache ways (DC | Rest | RO) and the partition in KiB */
    uint32_t ways, dc_ways, ro_ways;
    uint32_t slm_kib, urb_kib, ro_kib, dc_kib, rest_kib;
};
#define L3CNTLREG 0x7034u
void l3_partition_decode(uint32_t value, uint32_t banks, uint32_t way_kib, uint32_t max_ways,
                         struct l3_partition *out);

/* The L3's derived stats (hit_rate, and with a command streamer linked the
 * partition and its programming counters), under the names and descriptions
 * every implementation of the kind reports: the C unit and the RTL adapters
 * fill it from their own counters. */
struct l3_derived {
    uint64_t hits, misses;
    bool programmable;                      /* "cs" linked */
    uint64_t ro_reads, slm_unallocated;
    uint64_t reprograms, programming_violations, rejected_programmings;
    uint32_t urb_kib, slm_kib, ro_kib, dc_kib, rest_kib;
};
struct stats_writer;
void l3_derived_emit(struct stats_writer *w, const struct l3_derived *d);

#endif
