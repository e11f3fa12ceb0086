/* rtl-cosim/l3_rtl.h - the Verilated rtl/l3_slice.sv (one slice's L3: banks,
 * shared miss entries, reply heap and memory FIFO) behind a C API, for the
 * adapters in l3_cosim.c. The only C++ is l3_rtl.cpp.
 *
 * One call below is one RTL clock (l3_rtl_fill: one, plus one per waiter it
 * releases; l3_rtl_serve: one per bank; l3_rtl_program: the flush's clocks),
 * given in the order of a fabric cycle of the C unit: programming, fills,
 * enqueues, serve, memory pops, reply pops (rtl/l3_slice.sv "Time").
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
    L3_RTL_BANKS = 4,       /* banks of the slice */
    L3_RTL_SETS = 32,       /* 2 KiB ways of 64-byte lines */
    L3_RTL_WAYS = 96,       /* per bank: GT2's 768 KB in 4 banks of 2 KiB ways */
    L3_RTL_MSHRS = 64,      /* miss entries, shared by the banks */
    L3_RTL_WPE = 64,        /* waiters per miss entry */
    L3_RTL_QDEPTH = 16,     /* per bank */
    L3_RTL_RCAP = 512,      /* replies waiting */
    L3_RTL_MQ = 16384,      /* memory requests waiting: a flush of every line fits */
};

enum l3_rtl_variant { L3_RTL_GOOD = 0, L3_RTL_BROKEN = 1 };

struct l3_rtl_cfg {
    uint32_t ways, misses, hit_latency, fill_latency, urb_latency, atomic_cycles;
    uint32_t banks;             /* 1..L3_RTL_BANKS */
    uint32_t dc_ways, ro_ways;  /* of ways: DC | Rest | RO (0, 0: all Rest) */
    bool slm_on;                /* the partition has SLM */
};

struct l3_rtl_req {
    uint64_t addr;
    uint32_t tag, mtag;     /* memreq tag, message header tag */
    uint8_t op;             /* enum memreq_op; 2 stands for any atomic */
    uint8_t target;         /* enum memreq_target, 4 = MEMREQ_RO_DATA; 0..4 */
    uint8_t port;
};

struct l3_rtl_reply {
    uint64_t due, addr;
    uint32_t tag, mtag;
    uint8_t op, hit, port;
};

struct l3_rtl_stats {
    uint64_t reads, writes, atomics, hits, misses, merged_misses, evictions, writebacks;
    uint64_t urb_accesses, uncached, mshr_stalls, queue_cycles;
    uint64_t ro_reads, slm_unallocated;
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

/* An L3CNTLREG write the adapter decoded and applies: FLUSH (write back the
 * dirty lines of the current ways, invalidate), then the new partition pins. */
void l3_rtl_program(struct l3_rtl *r, uint64_t now, uint32_t ways, uint32_t dc_ways,
                    uint32_t ro_ways, bool slm_on);
void l3_rtl_fill(struct l3_rtl *r, uint64_t now, uint64_t addr, uint32_t tag);
void l3_rtl_enq(struct l3_rtl *r, uint64_t now, const struct l3_rtl_req *q);
/* SERVE each bank, 0 .. banks - 1. */
void l3_rtl_serve(struct l3_rtl *r, uint64_t now);
/* The head of the memory request FIFO; false when empty. */
bool l3_rtl_mem_head(const struct l3_rtl *r, uint64_t *line, uint8_t *op, bool *writeback);
void l3_rtl_mem_pop(struct l3_rtl *r, uint64_t now);
/* The heap's top reply (whatever its due); false when none waits. */
bool l3_rtl_reply_head(const struct l3_rtl *r, struct l3_rtl_reply *out);
void l3_rtl_reply_pop(struct l3_rtl *r, uint64_t now);

uint32_t l3_rtl_queue_count(const struct l3_rtl *r);   /* every bank's */
uint32_t l3_rtl_bank_queue_count(const struct l3_rtl *r, uint32_t bank);
uint32_t l3_rtl_reply_count(const struct l3_rtl *r);
uint32_t l3_rtl_mem_count(const struct l3_rtl *r);     /* memory requests waiting */
bool l3_rtl_overflow(const struct l3_rtl *r);
void l3_rtl_stats(const struct l3_rtl *r, struct l3_rtl_stats *out);
uint64_t l3_rtl_clocks(const struct l3_rtl *r);

#ifdef __cplusplus
}
#endif

#endif
