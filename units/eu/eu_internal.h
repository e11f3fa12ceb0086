/* units/eu/eu_internal.h - the EU unit's state, shared by its files (private to
 * units/eu/eu*.c; the unit's interface is eu.h):
 *  - eu.c           the unit shell: params, ports, stats, realize/reset/tick;
 *  - eu_fetch.c     instruction fetch: the decoded-instruction cache, the
 *                   subslice instruction cache client and the fetch buffer;
 *  - eu_schedule.c  scheduling: dispatch and thread end, the scoreboard,
 *                   thread arbitration and issue to the pipes, SENDs and
 *                   write-backs.
 * The execution of one instruction is eu_exec.h's. */
#ifndef GTSIM_UNITS_EU_EU_INTERNAL_H
#define GTSIM_UNITS_EU_EU_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/unit.h"
#include "units/common/thread_msg.h"
#include "units/eu/eu_exec.h"


#define EU_MAX_THREADS 16
/* the age_rank of a slot not in the age order: a bit no position uses */
#define EU_AGE_NONE 31
#define EU_SFID_PORTS 16
/* Write-back ports: an open array, one per shared function that answers, so at
 * most one per SFID (a 4-bit field). The first four are made with the EU,
 * linked or not, only so that stats.csv keeps its rows port.writeback.0-3 as
 * before the array was open; links may name more. */
#define EU_WRITEBACK_PORTS_MAX EU_SFID_PORTS
#define EU_WRITEBACK_PORTS_MADE 4
#define EU_SFID_GATEWAY 3
#define EU_SFID_TS 7
#define EU_SFID_RENDER_CACHE 5  /* Gen7-Gen9 (reference/eu sfid tables) */
#define EU_SFID_URB 6
/* Line requests in flight: one per waiting thread, and up to as many prefetches. */
#define EU_FETCH_ENTRIES (2 * EU_MAX_THREADS)
#define NEVER UINT64_MAX

/* A line requested from the subslice instruction cache; tag = its index. */
struct fetch_entry {
    bool used, sent;
    uint64_t line;              /* physical address / 64 */
};

/* What issue and execution read of a decoded instruction, the same for every
 * EU: kept once per simulation in the shared cache (eu_decode_cache.h), one
 * host cache line each, or, when that cache is full, in the EU's own array
 * eu.own. The large decoded instruction beside it (struct eu_decoded,
 * dinfo_insn()) is read only by the general execution path. */
struct dinfo {
    uint64_t addr;              /* where it was decoded (the hint checks compare it) */
    uint8_t pipe;               /* enum eu_pipe */
    uint8_t occupancy;
    uint8_t latency_class;      /* 0 alu, 1 math, 2 df */
    bool reads_indirect;
    bool reads_flags, writes_flags;     /* predication / flow control; cond modifier */
    uint8_t nread;
    uint8_t read_lo[4], read_hi[4];     /* GRF ranges read */
    uint8_t write_lo, write_hi;         /* GRF range written (hi < lo: none) */
    struct eu_fast fast;
};

/* A decode and its instruction: a record of the shared cache, or an EU's own
 * (eu.own, same index as eu.dcache, used only when the shared cache is full). */
struct eu_decoded {
    struct dinfo info;
    struct eu_instruction in;
};

/* The decoded instruction of a decode (its struct eu_decoded's). */
static inline const struct eu_instruction *dinfo_insn(const struct dinfo *d)
{
    return &((const struct eu_decoded *)(const void *)d)->in;
}

/* A decoded instruction as one EU finds it: its table entry, by address, with
 * the hint chain (issue 19: 24 EUs' copies of the whole decode, 80 bytes
 * each, were 700 KB for SGEMM's kernel; an entry is now 16, its address
 * checked in the shared decode). A flushed entry has no info. */
struct dentry {
    const struct dinfo *info;
    struct dentry *next;        /* the entry last found after this one (checked by addr) */
};

struct slot {
    /* What the timing scan reads of every candidate thread, in the slot's
     * first host cache line (slots are 64-byte aligned: allocate()). Issue 19:
     * spread over two lines, and the eu_thread's, they were the scan's most
     * missed loads. */
    alignas(64) uint64_t ready_cycle;   /* fetch stall (icache miss) */
    struct dentry *last;        /* the entry just executed (a hint; checked by addr) */
    const struct dentry *dep_d; /* the entry dep_at was worked out for (NULL: none) */
    uint64_t dep_at;            /* when its operands are all ready (NEVER: a write-back) */
    uint64_t iline_key;         /* instruction cache line + 1 of the last fetch, and its set */
    uint32_t iset;
    uint32_t pending_wb;        /* sends awaiting write-back */
    uint64_t instructions;
    bool busy;
    bool ended;                 /* EOT issued; waiting for write-backs */
    bool blocked_send;          /* a SEND message waits for its port */
    /* fetch through the subslice instruction cache ("icache" linked) */
    bool line_held;             /* the thread holds the line iline_key names */
    bool fetch_wait;            /* waits for the reply to fetch entry fetch_entry */
    uint8_t fetch_entry;
    uint8_t end_status;
    /* the rest */
    uint64_t age;
    uint32_t request_id, ffid;
    uint64_t start_cycle;       /* the cycle the slot took the dispatch (thread_life_ps) */
    uint64_t eot_cycle;         /* the cycle its EOT message left (valid with eot_sent) */
    bool eot_sent;
    uint64_t fetch_since;       /* the cycle it started waiting */
    uint64_t ipage_key;         /* virtual 4 KiB page + 1 of the last translated fetch */
    uint64_t ipage_physical;    /* and its physical page */
    uint64_t never_mask[2];     /* GRFs set to NEVER by a SEND awaiting write-back */
    uint8_t wb_dword_mask[EU_GRF_COUNT];    /* a pending reply's channels written (0: all) */
    uint8_t wb_dword_first[EU_GRF_COUNT];   /* to the dwords from this one on */
    struct msg *pending_msg;
    struct port *pending_port;
    struct gpu_address_space space;
    uint64_t grf_ready[EU_GRF_COUNT];
    uint64_t flags_ready;       /* f0/f1 written by an instruction still in its pipe */
    bool barrier_wait;          /* sent a gateway BarrierMsg; waits for its notification */
    bool after_barrier;         /* the last instruction was that BarrierMsg */
    struct eu_thread_context ctx;       /* from the dispatch, copied into every SEND */
    uint16_t ctx_bytes;         /* ctx's bytes up to its last non-zero one (issue_send) */
    struct eu_thread th;
};

struct eu {
    /* What a timing-mode tick reads, first and together, in four host cache
     * lines (issue 19: these were spread over ~3 KB of the struct, past the
     * parameters' strings, the port arrays and the fetch entries, and each
     * tick of 24 EUs missed the host's L1 on several of them). Line 0: what
     * eu_tick() reads before the scan. */
    struct slot *slots;
    uint32_t threads;
    uint32_t issue_width;
    bool fast;
    bool icache_linked;
    bool round_robin;
    bool co_issue;
    /* A quiet stretch (timing mode): the last scan of the threads issued
     * nothing and changed nothing, and no thread's state can change before
     * quiet_until but by an event (a write-back, a fetch line, a dispatch, a
     * thread end, a SEND leaving), each of which clears `quiet`. Until then
     * every cycle's scan would find the same stalls, so a tick adds them
     * (eu_tick_timing) instead of scanning. */
    bool quiet, quiet_more;
    /* Asleep through a quiet stretch: the tick of cycle asleep_from returned
     * idle with a wake at quiet_until, as nothing but an event (each a message,
     * which wakes the EU early) can change before then. The next tick adds the
     * stalls the skipped cycles' ticks would have counted (eu_tick). */
    bool asleep;
    /* The last tick returned idle (not asleep): a tick without a message or a
     * blocked send to retry is the wake-up of a quiet stretch an event ended
     * early, which the EU would not have had without sleeping: nothing to do. */
    bool idle_returned;
    uint32_t runnable;          /* bit i: eu_slot_runnable(slot i) (eu_slot_changed keeps it) */
    /* Timing mode with "icache" linked: bit i set when slot i's last scan
     * judged it waiting for a write-back from its cached state (dep_d set,
     * dep_at NEVER, its line held), so every later scan would judge it the
     * same until dep_d is dropped, its line is let go or its slot changes
     * (each of which clears the bit: eu_slot_rejudge). The scan then counts
     * such threads instead of visiting them (eu_tick_timing). */
    uint32_t send_wait;
    /* Timing mode with "icache" linked: bit i set while slot i's judgement is
     * cached (dep_d set) and its line held, the state in which the scan takes
     * the judgement as it is; the scan then reads it from judged_pipe and
     * judged_at (below) instead of from the slot and its decode, two host
     * cache lines a candidate that does not issue need not touch (issue 19).
     * Cleared with send_wait (eu_slot_rejudge, eu_slot_changed,
     * eu_rejudge_all): wherever dep_d is dropped or the line let go. */
    uint32_t judged;
    /* runnable and send_wait in age positions: bit k is the bit of slot
     * age_order[k] (kept with them, and rebuilt when the age order changes:
     * eu_age_rebuild), so oldest-first issue walks its candidates by bit
     * instead of building an order each tick */
    uint32_t age_runnable, age_send_wait;
    uint32_t pending_msg_slots;      /* bit i: slot i holds a message its port refused */
    uint32_t end_queue_len;
    uint32_t fetches_unsent;
    uint32_t writeback_ports;   /* how many of writeback[] the links made */
    uint32_t busy_slots;
    uint32_t arrival_head, arrival_count;
    uint32_t age_count;
    /* line 1: the scan's order and accounting */
    uint64_t quiet_until;
    uint8_t age_order[EU_MAX_THREADS];  /* busy slots, oldest first */
    /* slot i's position in age_order; EU_AGE_NONE for a slot not busy */
    uint8_t age_rank[EU_MAX_THREADS];
    uint32_t dcache_mask, dcache_used;
    uint64_t last_account;
    uint64_t thread_cycles;
    uint64_t instructions, cycles_issuing;
    /* line 2: the pipes and the stalls a scan counts */
    uint64_t pipe_busy_until[4];
    uint64_t stall_dependency, stall_send_wait, stall_pipe, stall_fetch;
    /* line 3: what an issue reads */
    uint32_t fpu_latency, em_latency, math_latency, df_latency;
    uint64_t *itags;            /* the internal cache, or the fetch buffer with "icache" linked */
    uint32_t iline_count;
    bool iline_pow2;
    uint64_t decode_misses;
    uint64_t max_thread_instructions;
    uint64_t stall_port;
    uint64_t asleep_from;
    /* slot i's cached judgement while bit i of `judged` is set: its
     * instruction's pipe (dinfo.pipe) and its dep_at */
    alignas(64) uint8_t judged_pipe[EU_MAX_THREADS];
    uint64_t judged_at[EU_MAX_THREADS];
    /* then the rest of the tick's */
    uint32_t quiet_fetch, quiet_send_wait, quiet_dependency, quiet_pipe;
    uint32_t rr_next;
    struct port *dispatch, *icache_reply;
    /* Fast mode's calls' replies, oldest due first, each taken on its cycle
     * as a write-back from a channel would be (eu_take_arrivals). */
    struct eu_arrival {
        uint64_t cycle;
        struct msg *m;
    } *arrivals;
    /* params */
    uint32_t gen;
    char arbitration[PARAM_STRING_MAX];
    uint32_t icache_kib, icache_latency;
    uint32_t fetch_buffer_lines, fetch_prefetch_lines;
    uint32_t decode_cache_entries;
    /* ports */
    struct port *send, *td;
    struct port *sfid[EU_SFID_PORTS];
    struct port *writeback[EU_WRITEBACK_PORTS_MAX];
    uint64_t writeback_bit[EU_WRITEBACK_PORTS_MAX];     /* port_queued_bit() at realize */
    struct port *icache;
    /* state */
    uint64_t age_counter;
    struct dentry *dcache;      /* decoded entries, in decode order (eu_fetch.c) */
    struct eu_decoded *own;     /* dcache's entries' decodes when the shared cache was
                                 * full (else untouched) */
    uint32_t *dindex;           /* open addressing by address: dcache index + 1, 0 empty */
    struct eu_decode_cache *decoded_kernels;    /* the simulation's, shared by its EUs */
    struct fetch_entry fetches[EU_FETCH_ENTRIES];   /* line requests to the icache */
    uint32_t fetches_used;
    uint32_t fetches_end;       /* entries at or past this index are free */
    struct msg **end_queue;     /* thread-end messages waiting for the "td" port */
    uint32_t end_queue_cap;
    /* Fast mode's calls to a port that takes them (fabric/port.h port_call: a
     * functional data port): the SENDs issued in this tick, made by the edge
     * commit (eu_edge_commit); their replies wait in `arrivals` above. */
    struct eu_call {
        struct msg *m;
        struct port *out;
    } *calls;
    uint32_t call_count, call_capacity;
    struct msg *call_msgs[EU_MAX_THREADS];  /* each slot's, kept through its calls (msg_reuse) */
    bool call_msg_ctx[EU_MAX_THREADS];      /* it holds the slot's thread's ctx already */
    uint32_t arrival_capacity;
    /* stats */
    uint64_t received, forwarded, sunk, bad_messages;
    uint64_t threads_dispatched, threads_ended, threads_killed;
    uint64_t active_threads, active_threads_peak;
    uint64_t thread_cycles_after_eot;
    uint64_t sends, writebacks, sends_dropped;
    uint64_t illegal, register_faults, fetch_faults, runaway, divide_by_zero, unmodelled;
    uint64_t exceptions;
    bool warned_unmodelled;
    uint64_t icache_misses;
    uint64_t fetch_requests, fetch_merged, fetch_prefetches;
};

/* Whether a slot's thread may be considered for issue. */
static inline bool eu_slot_runnable(const struct slot *sl)
{
    return sl->busy && !sl->ended && !sl->blocked_send && !sl->barrier_wait && !sl->fetch_wait;
}

/* Called after every change of a slot's busy, ended, blocked_send,
 * barrier_wait or fetch_wait: keeps s->runnable, which timing mode's issue
 * reads instead of every slot's flags each cycle. */
static inline void eu_slot_changed(struct eu *s, unsigned i)
{
    uint32_t aged = 1u << s->age_rank[i];
    s->send_wait &= ~(1u << i);
    s->judged &= ~(1u << i);
    s->age_send_wait &= ~aged;
    if (eu_slot_runnable(&s->slots[i])) {
        s->runnable |= 1u << i;
        s->age_runnable |= aged;
    } else {
        s->runnable &= ~(1u << i);
        s->age_runnable &= ~aged;
    }
}

/* Slot i's cached issue judgement no longer holds (its dep_d was dropped). */
static inline void eu_slot_rejudge(struct eu *s, unsigned i)
{
    s->send_wait &= ~(1u << i);
    s->judged &= ~(1u << i);
    s->age_send_wait &= ~(1u << s->age_rank[i]);
}

/* Slot i's cached judgement is a wait for a write-back (see s->send_wait). */
static inline void eu_slot_judged_send_wait(struct eu *s, unsigned i)
{
    s->send_wait |= 1u << i;
    s->age_send_wait |= 1u << s->age_rank[i];
}

/* No slot's cached judgement holds. */
static inline void eu_rejudge_all(struct eu *s)
{
    s->send_wait = 0;
    s->judged = 0;
    s->age_send_wait = 0;
}

/* Recomputes age_rank and the age masks from age_order and the slot masks
 * (after a thread joins or leaves the age order). */
void eu_age_rebuild(struct eu *s);

/* No slot runnable or judged, none in the age order's ranks: the masks of an
 * EU without threads. */
static inline void eu_slot_masks_clear(struct eu *s)
{
    s->runnable = s->age_runnable = 0;
    eu_rejudge_all(s);
    memset(s->age_rank, EU_AGE_NONE, sizeof s->age_rank);
}

/* The stalls of `cycles` cycles of a quiet stretch, each counting what the
 * scan that started it found (ticked, slept through, or read mid-sleep). */
static inline void eu_count_quiet(struct eu *s, uint64_t cycles)
{
    s->stall_fetch += cycles * s->quiet_fetch;
    s->stall_send_wait += cycles * s->quiet_send_wait;
    s->stall_dependency += cycles * s->quiet_dependency;
    s->stall_pipe += cycles * s->quiet_pipe;
}

/* ---- eu_fetch.c ------------------------------------------------------------------ */

struct dentry *eu_fetch_lookup(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr,
                               enum eu_thread_status *why);

/* The decoded entry at the thread's ip (decoding it on a miss); NULL with *why
 * set when the fetch faults. Usually the one that followed the last
 * instruction before, else a table lookup (eu_fetch.c); inline for fast
 * mode, which fetches every instruction. A flush of the table zeroes every
 * entry, so stale hints fail the address check. */
static inline struct dentry *eu_fetch_decoded(struct eu *s, struct unit *u, struct slot *sl,
                                              enum eu_thread_status *why)
{
    uint64_t addr = sl->th.inst_base + sl->th.ip;
    struct dentry *prev = sl->last;
    if (prev) {
        /* a thread held at an instruction fetches it again: the hint is the
         * entry itself (keeping prev->next pointing at its successor) */
        if (prev->info && prev->info->addr == addr)
            return prev;
        struct dentry *d = prev->next;
        if (d && d->info && d->info->addr == addr) {
            sl->last = d;
            return d;
        }
    }
    return eu_fetch_lookup(s, u, sl, addr, why);
}
/* In timing mode with "icache" linked: whether the thread may go on with the
 * line of addr (else it now waits for a line request); requests prefetches. */
bool eu_fetch_line(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr, uint64_t now);
/* Sends the line requests still unsent, as the "icache" channel allows. */
void eu_send_fetches(struct eu *s, struct unit *u);
/* A line from the subslice instruction cache ("icache_reply"). */
void eu_take_fetch_reply(struct eu *s, struct unit *u, struct msg *m);

/* ---- eu_schedule.c ---------------------------------------------------------------- */

/* Adds the busy slots' cycles from the last call to `now` (the EU's cycle) to thread_cycles. */
void eu_account(struct eu *s, uint64_t now);
/* Sends the thread-end messages the "td" port now takes. */
void eu_flush_end_queue(struct eu *s);
/* A dispatch: false when no slot is free (the message stays queued). */
bool eu_start_thread(struct eu *s, struct unit *u, struct msg *m);
/* A shared function's write-back (any "writeback" port). */
void eu_take_writeback(struct eu *s, struct unit *u, struct msg *m);
/* Retries the SENDs a full channel refused. */
void eu_retry_blocked_sends(struct eu *s, struct unit *u);
void eu_edge_commit(struct unit *u);
void eu_take_arrivals(struct eu *s, struct unit *u, uint64_t now);
void eu_release_calls(struct eu *s, struct unit *u);
/* Whether a call's reply is due by cycle now. */
static inline bool eu_arrival_due(const struct eu *s, uint64_t now)
{
    return s->arrival_head < s->arrival_count && s->arrivals[s->arrival_head].cycle <= now;
}
/* Fast mode: every runnable thread runs to its next SEND; true: more to do. */
bool eu_tick_fast(struct eu *s, struct unit *u, uint64_t now);
/* Timing mode: one cycle of issue; true: more to do. */
bool eu_tick_timing(struct eu *s, struct unit *u, uint64_t now);

#endif
