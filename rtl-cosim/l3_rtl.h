/* rtl-cosim/l3_rtl.h - the Verilated rtl/l3_bank.sv (one L3 bank) behind a C
 * API, for the adapters in l3_cosim.c. The only C++ is l3_rtl.cpp.
 *
 * One call below is one RTL clock (l3_rtl_fill: one, plus one per waiter it
 * releases), given in the order of a fabric cycle of the C unit: fills,
 * enqueues, serve, memory pops, reply pops (rtl/l3_bank.sv "Time").
 * Capacities are the Verilated parameters (L3_RTL_*); past them the RTL sets
 * its sticky overflow flag.
 */
#ifndef GTSIM_RTL_COSIM_L3_RTL_H
#define GTSIM_RTL_COSIM_L3_RTL_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    L3_RTL_SETS = 32,       /* 2 KiB ways of 64-byte lines */
    L3_RTL_WAYS = 8,
    L3_RTL_MSHRS = 16,
    L3_RTL_WPE = 16,        /* waiters per miss entry */
    L3_RTL_QDEPTH = 16,
    L3_RTL_RCAP = 64,       /* replies waiting */
    L3_RTL_MQ = 64,         /* memory requests waiting */
};

enum l3_rtl_variant { L3_RTL_GOOD = 0, L3_RTL_BROKEN = 1 };

struct l3_rtl_cfg {
    uint32_t ways, misses, hit_latency, fill_latency, urb_latency, atomic_cycles;
};

struct l3_rtl_req {
    uint64_t addr;
    uint32_t tag, mtag;     /* memreq tag, message header tag */
    uint8_t op, target, port;
};

struct l3_rtl_reply {
    uint64_t due, addr;
    uint32_t tag, mtag;
    uint8_t op, hit, port;
};

struct l3_rtl_stats {
    uint64_t reads, writes, atomics, hits, misses, merged_misses, evictions, writebacks;
    uint64_t urb_accesses, uncached, mshr_stalls, queue_cycles;
};

struct l3_rtl;

struct l3_rtl *l3_rtl_create(enum l3_rtl_variant variant, bool trace);
void l3_rtl_destroy(struct l3_rtl *r);
/* Reset (two clocks, not traced) and the configuration pins. */
void l3_rtl_reset(struct l3_rtl *r, const struct l3_rtl_cfg *cfg);

/* FST of the clocks given while the fabric cycle is within from..to. The
 * FST's time is RTL clocks x 10 (a frame has a varying number of clocks);
 * the fabric cycle is the signal cmd_now. 0 or -1. */
int l3_rtl_trace_open(struct l3_rtl *r, const char *path, uint64_t from, uint64_t to);
void l3_rtl_trace_window(struct l3_rtl *r, uint64_t from, uint64_t to);
void l3_rtl_trace_close(struct l3_rtl *r);

void l3_rtl_fill(struct l3_rtl *r, uint64_t now, uint64_t addr, uint32_t tag);
void l3_rtl_enq(struct l3_rtl *r, uint64_t now, const struct l3_rtl_req *q);
void l3_rtl_serve(struct l3_rtl *r, uint64_t now);
/* The head of the memory request FIFO; false when empty. */
bool l3_rtl_mem_head(const struct l3_rtl *r, uint64_t *line, uint8_t *op, bool *writeback);
void l3_rtl_mem_pop(struct l3_rtl *r, uint64_t now);
/* The heap's top reply (whatever its due); false when none waits. */
bool l3_rtl_reply_head(const struct l3_rtl *r, struct l3_rtl_reply *out);
void l3_rtl_reply_pop(struct l3_rtl *r, uint64_t now);

uint32_t l3_rtl_queue_count(const struct l3_rtl *r);
uint32_t l3_rtl_reply_count(const struct l3_rtl *r);
bool l3_rtl_overflow(const struct l3_rtl *r);
void l3_rtl_stats(const struct l3_rtl *r, struct l3_rtl_stats *out);
uint64_t l3_rtl_clocks(const struct l3_rtl *r);

#ifdef __cplusplus
}
#endif

#endif
