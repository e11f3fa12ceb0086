/* units/dataport/dataport_internal.h - what the data port's files share (private to
 * units/dataport/): the unit's state, the transaction of one message, the surface a
 * message addresses, and the functions of each concern:
 *   dataport.c           the unit shell: params, ports, stats, taking messages, tick
 *   dataport_decode.c    descriptor -> message (the generated accessors of msg_desc.h)
 *   dataport_surface.c   BTI -> surface (binding table, RENDER_SURFACE_STATE, models)
 *   dataport_access.c    one slot's access to memory, the lines a message touches
 *   dataport_slm.c       one slot's access to shared local memory
 *   dataport_untyped.c   untyped surface read/write (A32 and A64)
 *   dataport_scattered.c byte and dword scattered read/write
 *   dataport_block.c     OWord block and HWord scratch block read/write
 *   dataport_atomic.c    untyped atomics (A32 and A64)
 *   dataport_typed.c     typed surface read/write and their formats
 *   dataport_const_cache.c  the read-only port's constant cache (timing only)
 *   dataport_timing.c    line requests to the L3 and their replies, the reply queue
 * What the unit models is in dataport.h.
 */
#ifndef GTSIM_UNITS_DATAPORT_INTERNAL_H
#define GTSIM_UNITS_DATAPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/reply_queue.h"
#include "fabric/fifo.h"
#include "fabric/unit.h"
#include "msg_desc.h"
#include "units/common/memreq.h"
#include "units/common/thread_msg.h"

#define DP_MAX_EUS 64
#define DP_MAX_LINES 256            /* lines one message may touch (SIMD16 x 4 ch x 2 lines) */
#define DP_MAX_TXN 1024

enum { SFID_DCRO = 9, SFID_DC0 = 10, SFID_DC1 = 12 };
enum { BTI_SLM = 254, BTI_STATELESS_NC = 253, BTI_STATELESS = 255 };

/* The messages the unit knows, whatever their encoding. */
enum dp_op {
    OP_NONE, OP_UNTYPED_READ, OP_UNTYPED_WRITE, OP_UNTYPED_ATOMIC,
    OP_A64_UNTYPED_READ, OP_A64_UNTYPED_WRITE, OP_A64_ATOMIC,
    OP_A64_BYTE_READ, OP_A64_BYTE_WRITE,
    OP_BYTE_READ, OP_BYTE_WRITE, OP_DWORD_READ, OP_DWORD_WRITE,
    OP_OWORD_READ, OP_OWORD_WRITE, OP_FENCE, OP_TYPED_READ, OP_TYPED_WRITE,
    OP_SCRATCH_READ, OP_SCRATCH_WRITE, OP_UNSUPPORTED,
};

enum model { M_NULL, M_BUFFER, M_A32, M_A64, M_SLM };

struct surf {
    enum model model;
    uint64_t base;
    uint64_t size;              /* bytes; 0 = unchecked */
    /* for typed messages */
    uint32_t type, format, width, height, depth, pitch;     /* extents, not minus one */
    bool tiled;
};

struct txn {
    bool used;
    uint32_t eu;                /* input/write-back port index */
    uint64_t start;             /* cycle the message was taken */
    struct msg *wb;             /* NULL: no reply due */
    uint32_t lines_left;
    uint32_t nlines;
    uint64_t lines[DP_MAX_LINES];
    uint8_t targets[DP_MAX_LINES];
    uint8_t ops[DP_MAX_LINES];
    bool ro;                    /* SFID 9: through the constant cache */
};

/* A surface state as read from memory and what resolve() makes of it. */
struct surf_memo {
    bool valid;
    uint32_t gen;
    uint32_t dw[16];
    struct surf sf;
};
#define DP_SURF_MEMOS 8
/* Translations and binding-table resolutions kept across messages, each
 * valid while the memory's metadata epoch is the one it was made in
 * (fabric/memory.h gpu_memory_mark_metadata): host time only, no result
 * depends on them. */
#define DP_XLATES 16
struct dp_xlate {
    uint64_t root, vpage, ppage, epoch;
    uint8_t format;
    bool valid;
};
#define DP_BTI_CACHE 4
struct dp_bti_entry {
    uint64_t surface_state_base, root, epoch;
    uint32_t binding_table, bti, entries;
    uint8_t gen, format;
    bool valid;
    struct surf sf;
};

/* An untyped atomic on memory (not SLM) whose read-modify-write waits for the
 * end of the cycle: its bounds, translation, lines and stats were done when it
 * was taken; the lanes that did not fault are applied by the edge commit, and
 * their old values written into the reply, which cannot leave before (it waits
 * for the L3 or `latency` >= 1 cycles). */
struct dp_deferred_atomic {
    uint8_t *wb;                /* the reply's registers (NULL: none) */
    uint32_t rlen;
    unsigned aop;
    uint32_t lanes;             /* lanes to apply */
    struct gpu_address_space as;
    uint64_t address[16];       /* GPU virtual address per lane */
    uint32_t src0[16], src1[16];
};

struct pending_line {
    uint32_t txn, index;
};

struct dp {
    /* params */
    uint32_t max_outstanding, latency, messages_per_cycle, slm_kib, gen, cc_lines, cc_latency;
    bool functional;            /* replies after `latency`, no L3 lines (the "functional" param) */
    /* ports */
    struct port **eu, **wb;
    uint64_t eu_bit[DP_MAX_EUS];    /* port_queued_bit(eu[e]) at realize */
    uint32_t eus;
    struct port *l3, *l3_reply;
    /* atomics on memory taken this cycle, applied by the edge commit
     * (dp_edge_commit) in unit order: which of two same-cycle atomics on one
     * address from data ports on different host threads goes first, and so the
     * old values they return, must not depend on the thread count (issue 19) */
    struct dp_deferred_atomic *deferred;
    uint32_t deferred_count, deferred_capacity;
    /* state */
    struct txn *txn;
    struct txn *call_txn;       /* the message of a call (dp_call), executed at once */
    bool in_call;               /* executing a call: atomics on memory apply at once */
    uint32_t free_txn;
    struct fifo line_queue;     /* struct pending_line: line requests waiting for the l3 port */
    struct reply_queue replies; /* txns whose reply can go: the txn index per entry */
    uint8_t *slm;
    uint64_t *cc;               /* constant cache: line number + 1 per entry, 0 empty */
    uint32_t next_eu;
    uint32_t in_flight;
    uint64_t txn_used[DP_MAX_TXN / 64];     /* txn[k].used, as bits */
    struct surf_memo memo[DP_SURF_MEMOS];
    uint32_t memo_next;
    struct dp_xlate xlate[DP_XLATES];
    struct dp_bti_entry bti_cache[DP_BTI_CACHE];
    /* stats */
    uint64_t messages, calls, reads, writes, atomics, fences, lines, l3_replies, bytes_read, bytes_written;
    uint64_t slm_accesses, out_of_bounds, bti_beyond_table, state_faults, page_faults;
    uint64_t slm_out_of_bounds, unsupported, bad_messages, stall_l3, stall_writeback;
    uint64_t lines_dropped, latency_sum, sunk, cc_hits, cc_misses;
    uint32_t warned;
};

/* One message being executed: its memory view and the surface it addresses. */
struct acc {
    struct dp *s;
    struct unit *u;
    struct txn *t;
    const struct eu_thread_context *ctx;
    struct gpu_address_space as;
    struct surf sf;
    bool tlb_valid;             /* the last page translated (reads; a write drops it) */
    uint64_t tlb_vpage, tlb_ppage;
    const uint8_t *tlb_host;    /* tlb_ppage's bytes in the backing store once a read found
                                 * them written (NULL: not looked up, or never written) */
};

/* The registers of one message: its payload (nregs registers), the reply (rlen
 * registers; wb NULL when none), the descriptor and what every family reads of it. */
struct dp_msg {
    const struct eu_send_msg *p;
    const uint8_t *m;
    uint32_t nregs;
    uint8_t *wb;
    uint32_t rlen;
    uint32_t desc;
    unsigned hdr;               /* 1: the payload starts with a header register */
    uint32_t bti;
    uint32_t mask;              /* the execution mask */
};

static inline uint32_t rd32(const uint8_t *regs, unsigned reg, unsigned dw)
{
    uint32_t v;
    memcpy(&v, regs + reg * EU_MSG_REG_BYTES + dw * 4, 4);
    return v;
}

static inline void wr32(uint8_t *regs, unsigned reg, unsigned dw, uint32_t v)
{
    memcpy(regs + reg * EU_MSG_REG_BYTES + dw * 4, &v, 4);
}

/* DWord d of payload register r (0 beyond the payload). */
static inline uint32_t dp_mread(const struct dp_msg *x, unsigned r, unsigned d)
{
    return r < x->nregs ? rd32(x->m, r, d) : 0u;
}

/* Slot i's address in a message's address payload (after the header): A32
 * offsets are one DWord a slot, 8 slots a register; A64 addresses (seed 003
 * L4932-4958) are a QWord a slot, low DWord first, 4 slots a register (the
 * seed names the MAP32b/MAP64b payloads only; notes/003-skl-sharedfn-eu.md
 * §4: 1 and 2 registers for SIMD8). */
static inline uint64_t dp_slot_address(const struct dp_msg *x, bool a64, unsigned i)
{
    if (a64)
        return (uint64_t)dp_mread(x, x->hdr + i / 4, (i % 4) * 2 + 1) << 32 |
               dp_mread(x, x->hdr + i / 4, (i % 4) * 2);
    return dp_mread(x, x->hdr + i / 8, i % 8);
}

/* DWord d of reply register r (dropped beyond the reply). */
static inline void dp_wbwrite(const struct dp_msg *x, unsigned r, unsigned d, uint32_t v)
{
    if (x->wb && r < x->rlen)
        wr32(x->wb, r, d, v);
}

/* memcpy of n bytes, with a SIMD8 and a SIMD16 register's worth (32 and 64
 * bytes, the common message sizes) as fixed-size copies the compiler inlines. */
static inline void dp_copy(void *destination, const void *source, size_t n)
{
    if (n == 32)
        memcpy(destination, source, 32);
    else if (n == 64)
        memcpy(destination, source, 64);
    else
        memcpy(destination, source, n);
}

/* The GPU virtual address of offset off in a memory surface: A64 offsets
 * are addresses, A32 ones wrap at 32 bits above the base. */
static inline uint64_t dp_surface_address(const struct acc *a, uint64_t off)
{
    return a->sf.model == M_A64 ? off
         : a->sf.model == M_A32 ? a->sf.base + (uint32_t)off : a->sf.base + off;
}

/* addr's page through the message's one-page translation (struct acc: a hit
 * or one page walk that fills it); false when addr does not translate. */
static inline bool dp_tlb_translate(struct acc *a, uint64_t addr)
{
    uint64_t vpage = addr & ~(uint64_t)(GPU_PAGE_SIZE - 1), phys;
    if (a->tlb_valid && a->tlb_vpage == vpage)
        return true;
    /* the data port's translations of earlier messages (struct dp_xlate) */
    struct dp_xlate *x = &a->s->xlate[(vpage >> GPU_PAGE_SHIFT) % DP_XLATES];
    uint64_t epoch = gpu_memory_metadata_epoch(a->as.memory);
    if (x->valid && x->vpage == vpage && x->epoch == epoch && x->root == a->as.root &&
        x->format == (uint8_t)a->as.format) {
        phys = x->ppage;
    } else {
        if (gpu_address_space_translate(&a->as, addr, &phys) < 0)
            return false;
        *x = (struct dp_xlate){ .root = a->as.root, .vpage = vpage, .epoch = epoch,
                                .ppage = phys & ~(uint64_t)(GPU_PAGE_SIZE - 1),
                                .format = (uint8_t)a->as.format, .valid = true };
    }
    a->tlb_valid = true;
    a->tlb_vpage = vpage;
    a->tlb_ppage = phys & ~(uint64_t)(GPU_PAGE_SIZE - 1);
    a->tlb_host = NULL;
    return true;
}

/* n bytes at in_page of the page dp_tlb_translate found (in_page + n within
 * it): a written page's bytes straight from the store (a page once written
 * stays there), else what gpu_memory_read gives (zeros). */
static inline int dp_tlb_read(struct acc *a, uint64_t in_page, void *buf, unsigned n, struct gt_error *err)
{
    if (a->tlb_host || (a->tlb_host = gpu_memory_page_for_read(a->as.memory, a->tlb_ppage))) {
        dp_copy(buf, a->tlb_host + in_page, n);
        return 0;
    }
    return gpu_memory_read(a->as.memory, a->tlb_ppage | in_page, buf, n, err);
}

/* dataport.c */
void dp_warn_once(struct dp *s, struct unit *u, unsigned bit, const char *fmt, uint32_t a,
                  uint32_t b);

/* dataport_decode.c */
enum dp_op dp_decode(unsigned gen, unsigned sfid, uint32_t desc);
void dp_execute(struct acc *a, const struct eu_send_msg *p, uint32_t nregs, uint8_t *wb,
                uint32_t rlen, enum dp_op op);

/* dataport_surface.c */
void dp_resolve(struct acc *a, uint32_t bti, bool a64);

/* dataport_access.c */
void dp_add_line(struct acc *a, uint64_t line_addr, uint8_t target, uint8_t op);
void dp_access_slot(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op);
bool dp_access_block(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op);

/* dataport_slm.c */
void dp_access_slm(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op);

/* dataport_const_cache.c */
uint32_t dp_const_cache_filter(struct dp *s, struct txn *t);
void dp_const_cache_fill(struct dp *s, uint64_t address);

/* message families */
void dp_untyped(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_atomic(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_edge_commit(struct unit *u);
void dp_byte_scattered(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_dword_scattered(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_oword_block(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_scratch_block(struct acc *a, const struct dp_msg *x, enum dp_op op);
void dp_typed(struct acc *a, const struct dp_msg *x, enum dp_op op);

/* dataport_timing.c */
void dp_route_lines(struct dp *s, uint32_t ti, enum dp_op op, bool sfid_ro, uint64_t now);
void dp_finish(struct dp *s, struct unit *u, uint32_t ti);
void dp_send_lines(struct dp *s, struct unit *u);
void dp_take_l3_replies(struct dp *s, struct unit *u);
void dp_reply_queue_init(struct dp *s, struct unit *u);
/* Sends the replies that are due; wake: ask for a tick on the next one's cycle
 * (the tick's last call: the queue's first entry cannot change in between, as
 * entries are sent in insertion order and a new one goes last). */
void dp_send_replies(struct dp *s, struct unit *u, bool wake);
bool dp_reply_due(const struct dp *s, uint64_t now);

#endif
