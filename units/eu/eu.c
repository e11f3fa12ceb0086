/* units/eu/eu.c - the EU unit; see eu.h for what it models. */
#include "units/eu/eu.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "units/common/memreq.h"
#include "fabric/sim.h"
#include "units/eu/eu_exec.h"
#include "units/common/thread_msg.h"

#define EU_MAX_THREADS 16
#define EU_SFID_PORTS 16
#define EU_WB_PORTS 4
#define EU_SFID_GATEWAY 3
#define EU_SFID_TS 7
/* Line requests in flight: one per waiting thread, and up to as many prefetches. */
#define EU_FETCH_ENTRIES (2 * EU_MAX_THREADS)
#define NEVER UINT64_MAX

/* A line requested from the subslice instruction cache; tag = its index. */
struct fetch_entry {
    bool used, sent;
    uint64_t line;              /* physical address / 64 */
};

/* A decoded instruction with what the timing model needs, cached by address. */
struct dentry {
    uint64_t addr;
    struct dentry *next;        /* the entry last found after this one (checked by addr) */
    bool valid;
    uint8_t pipe;               /* enum eu_pipe */
    uint8_t occupancy;
    uint8_t latency_class;      /* 0 alu, 1 math, 2 df */
    bool reads_indirect;
    bool reads_flags, writes_flags;     /* predication / flow control; cond modifier */
    uint8_t nread;
    uint8_t read_lo[4], read_hi[4];     /* GRF ranges read */
    uint8_t write_lo, write_hi;         /* GRF range written (hi < lo: none) */
    struct eu_fast fast;
    struct eu_instruction in;
};

struct slot {
    bool busy;
    bool ended;                 /* EOT issued; waiting for write-backs */
    uint8_t end_status;
    uint64_t age;
    uint32_t request_id, ffid;
    uint32_t pending_wb;        /* sends awaiting write-back */
    uint64_t ready_cycle;       /* fetch stall (icache miss) */
    bool blocked_send;          /* a SEND message waits for its port */
    struct dentry *last;        /* the entry just executed (a hint; checked by addr) */
    const struct dentry *dep_d; /* the entry dep_at was worked out for (NULL: none) */
    uint64_t dep_at;            /* when its operands are all ready (NEVER: a write-back) */
    uint64_t iline_key;         /* instruction cache line + 1 of the last fetch, and its set */
    uint32_t iset;
    /* fetch through the subslice instruction cache ("icache" linked) */
    bool line_held;             /* the thread holds the line iline_key names */
    bool fetch_wait;            /* waits for the reply to fetch entry fetch_entry */
    uint8_t fetch_entry;
    uint64_t fetch_since;       /* the cycle it started waiting */
    uint64_t ipage_key;         /* virtual 4 KiB page + 1 of the last translated fetch */
    uint64_t ipage_physical;    /* and its physical page */
    uint64_t never_mask[2];     /* GRFs set to NEVER by a SEND awaiting write-back */
    struct msg *pending_msg;
    struct port *pending_port;
    uint64_t instructions;
    struct gpu_address_space space;
    uint64_t grf_ready[EU_GRF_COUNT];
    uint64_t flags_ready;       /* f0/f1 written by an instruction still in its pipe */
    bool barrier_wait;          /* sent a gateway BarrierMsg; waits for its notification */
    bool after_barrier;         /* the last instruction was that BarrierMsg */
    struct eu_thread_context ctx;       /* from the dispatch, copied into every SEND */
    struct eu_thread th;
};

struct eu {
    /* params */
    uint32_t threads;
    uint32_t gen;
    bool fast;
    char arbitration[PARAM_STRING_MAX];
    uint32_t fpu_latency, em_latency, math_latency, df_latency;
    bool co_issue;
    uint32_t issue_width;
    uint32_t icache_kib, icache_latency;
    uint32_t fetch_buffer_lines, fetch_prefetch_lines;
    uint32_t decode_cache_entries;
    uint64_t max_thread_instructions;
    /* ports */
    struct port *dispatch, *send, *td;
    struct port *sfid[EU_SFID_PORTS];
    struct port *writeback[EU_WB_PORTS];
    struct port *icache, *icache_reply;
    bool icache_linked;
    /* state */
    bool round_robin;
    struct slot *slots;
    uint64_t age_counter;
    uint32_t rr_next;
    uint8_t age_order[EU_MAX_THREADS];  /* busy slots, oldest first */
    uint32_t age_count;
    uint64_t pipe_busy_until[4];
    struct dentry *dcache;
    uint32_t dcache_mask, dcache_used;
    uint64_t *itags;            /* the internal cache, or the fetch buffer with "icache" linked */
    uint32_t iline_count;
    bool iline_pow2;
    struct fetch_entry fetches[EU_FETCH_ENTRIES];   /* line requests to the icache */
    uint32_t fetches_unsent, fetches_used;
    uint32_t fetches_end;       /* entries at or past this index are free */
    struct msg **end_queue;     /* thread-end messages waiting for the "td" port */
    uint32_t end_queue_len, end_queue_cap;
    uint64_t last_account;
    uint32_t busy_slots;
    uint32_t pending_msgs;      /* slots holding a message their port refused */
    /* stats */
    uint64_t received, forwarded, sunk, bad_messages;
    uint64_t threads_dispatched, threads_ended, threads_killed;
    uint64_t instructions, cycles_issuing;
    uint64_t stall_dependency, stall_send_wait, stall_pipe, stall_fetch, stall_port;
    uint64_t thread_cycles, active_threads, active_threads_peak;
    uint64_t sends, writebacks, sends_dropped;
    uint64_t illegal, register_faults, fetch_faults, runaway, divide_by_zero, unmodelled;
    uint64_t exceptions;
    bool warned_unmodelled;
    uint64_t icache_misses, decode_misses;
    uint64_t fetch_requests, fetch_merged, fetch_prefetches;
};

static const struct param_desc eu_params[] = {
    PARAM_U32_FIELD("threads", struct eu, threads, 7, 1, EU_MAX_THREADS,
                    "hardware threads per EU (Gen9: 7, notes/003-skl-sharedfn-eu.md §14.2)"),
    PARAM_U32_FIELD("gen", struct eu, gen, 9, 4, 9,
                    "default ISA generation when a dispatch does not name one (4, 7, 8, 9)"),
    PARAM_BOOL_FIELD("fast", struct eu, fast, 0,
                     "functional fast mode: a thread runs until its next SEND in one tick"),
    PARAM_STRING_FIELD("arbitration", struct eu, arbitration, "oldest",
                       "issue order among ready threads: \"oldest\" first (seed 003 L19108) "
                       "or \"round_robin\""),
    PARAM_U32_FIELD("fpu_latency", struct eu, fpu_latency, 4, 0, 1000,
                    "cycles after the FPU pipe finishes an instruction until its result can be read "
                    "(the seed gives no figure, notes §14.17)"),
    PARAM_U32_FIELD("em_latency", struct eu, em_latency, 4, 0, 1000,
                    "the same for ALU (non-math) work run on the EM pipe"),
    PARAM_BOOL_FIELD("co_issue", struct eu, co_issue, 1,
                     "two ALU instructions from different threads may issue in one cycle, one to "
                     "the FPU and one to the EM pipe (seed 003 L19104-19112); false: one per cycle"),
    PARAM_U32_FIELD("math_latency", struct eu, math_latency, 16, 0, 1000,
                    "result latency of math (EM) instructions, cycles"),
    PARAM_U32_FIELD("df_latency", struct eu, df_latency, 8, 0, 1000,
                    "result latency of DF instructions, cycles"),
    PARAM_U32_FIELD("issue_width", struct eu, issue_width, 4, 1, 4,
                    "instructions issued per cycle at most (one per pipe: FPU, EM, send, branch)"),
    PARAM_U32_FIELD("icache_kib", struct eu, icache_kib, 48, 1, 4096,
                    "with \"icache\" not linked: the EU's own instruction cache in KiB (direct "
                    "mapped, 64-byte lines)"),
    PARAM_U32_FIELD("icache_latency", struct eu, icache_latency, 20, 0, 10000,
                    "with \"icache\" not linked: cycles a thread waits on a miss of that cache"),
    PARAM_U32_FIELD("fetch_buffer_lines", struct eu, fetch_buffer_lines, 64, 1, 4096,
                    "with \"icache\" linked: 64-byte lines the EU keeps from the subslice "
                    "instruction cache (direct mapped by physical line, shared by its threads). "
                    "The seed gives no figure (notes §14.17); 64 is a simulation-speed choice: "
                    "fewer lines give more icache traffic and host time, little timing change"),
    PARAM_U32_FIELD("fetch_prefetch_lines", struct eu, fetch_prefetch_lines, 2, 0, 16,
                    "with \"icache\" linked: lines past the one a thread enters that the EU "
                    "requests ahead when they are not in its buffer (seed 003 L20915: \"up to 8 "
                    "instructions\" beyond = 2 lines of 16-byte instructions); within a 4 KiB page"),
    PARAM_U32_FIELD("decode_cache_entries", struct eu, decode_cache_entries, 2048, 16, 1u << 20,
                    "decoded instructions kept (rounded up to a power of two; flushed when full)"),
    PARAM_U64_FIELD("max_thread_instructions", struct eu, max_thread_instructions, 100000000, 0,
                    INT64_MAX, "a thread executing more instructions is ended and counted "
                    "(0 = no limit)"),
    PARAM_END
};

static const struct port_desc eu_ports[] = {
    { .name = "dispatch", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH) | MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPTIONAL,
      .help = "thread dispatch (MSG_THREAD_DISPATCH, units/common/thread_msg.h); MSG_GENERIC is passed on" },
    { .name = "send", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_SEND) | MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPTIONAL,
      .help = "SEND messages whose SFID has no port of its own, and passed-on generic traffic" },
    { .name = "sfid", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_SEND),
      .count = EU_SFID_PORTS, .flags = PORT_OPTIONAL,
      .help = "SEND messages by shared-function id (index = SFID)" },
    { .name = "writeback", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .count = EU_WB_PORTS, .flags = PORT_OPTIONAL,
      .help = "shared-function write-backs (MSG_WRITEBACK)" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL,
      .help = "thread-end notices to the thread dispatcher" },
    { .name = "icache", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "line fetches (MSG_MEMORY_REQUEST) to the subslice instruction cache" },
    { .name = "icache_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their replies (MSG_MEMORY_RESPONSE)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct eu, f, m, h)
static const struct stat_desc eu_stats[] = {
    C("received", received, "messages", "messages taken from the dispatch port"),
    C("forwarded", forwarded, "messages", "generic messages passed on to the send port"),
    C("sunk", sunk, "messages", "generic messages dropped (send port unbound)"),
    C("bad_messages", bad_messages, "messages", "malformed dispatches/write-backs (counted, dropped)"),
    C("threads_dispatched", threads_dispatched, "threads", "threads started"),
    C("threads_ended", threads_ended, "threads", "threads whose slot was freed"),
    C("threads_killed", threads_killed, "threads", "threads ended for bad programming"),
    C("instructions", instructions, "instructions", "instructions issued"),
    C("cycles_issuing", cycles_issuing, "cycles", "cycles in which at least one instruction issued"),
    C("stall.dependency", stall_dependency, "thread-cycles", "ready threads held by the ALU scoreboard"),
    C("stall.send_wait", stall_send_wait, "thread-cycles", "threads held waiting for a write-back"),
    C("stall.pipe", stall_pipe, "thread-cycles", "threads held because their pipe was busy"),
    C("stall.fetch", stall_fetch, "thread-cycles",
      "threads waiting on an instruction cache miss (or, with \"icache\" linked, a line fetch)"),
    C("stall.port", stall_port, "attempts", "retries of a SEND whose port was full"),
    C("thread_cycles", thread_cycles, "thread-cycles", "sum over cycles of threads resident"),
    STAT_LEVEL_FIELD("active_threads", struct eu, active_threads, "threads", "threads resident now"),
    STAT_LEVEL_FIELD("active_threads_peak", struct eu, active_threads_peak, "threads",
                     "most threads resident at once"),
    C("sends", sends, "messages", "SEND messages issued"),
    C("writebacks", writebacks, "messages", "write-backs received"),
    C("sends_dropped", sends_dropped, "messages", "SENDs with no bound port (null SFID or unlinked)"),
    C("illegal_instructions", illegal, "instructions",
      "illegal or unmodelled instructions (the thread ended, or went to the System Routine)"),
    C("exceptions", exceptions, "exceptions",
      "entries into the System Routine (illegal opcode, software exception; STATE_SIP)"),
    C("register_faults", register_faults, "accesses", "register accesses outside the register file"),
    C("fetch_faults", fetch_faults, "fetches", "instruction fetches that faulted (thread ended)"),
    C("runaway_threads", runaway, "threads", "threads ended by max_thread_instructions"),
    C("divide_by_zero", divide_by_zero, "instructions", "math instructions dividing by zero"),
    C("unmodelled_instructions", unmodelled, "instructions",
      "instructions executed as counted nops (wait: no notification registers; Gen4 msave, mrest, push, pop end the thread) (warned once)"),
    C("icache_misses", icache_misses, "lines",
      "misses of the EU's own instruction cache (timing mode, \"icache\" not linked)"),
    C("fetch.requests", fetch_requests, "lines",
      "lines requested from the subslice instruction cache (timing mode, \"icache\" linked)"),
    C("fetch.merged", fetch_merged, "fetches",
      "fetch-buffer misses that joined a request already made for the line (another "
      "thread's, or a prefetch)"),
    C("fetch.prefetches", fetch_prefetches, "lines",
      "lines requested ahead of need (part of fetch.requests)"),
    C("decode_misses", decode_misses, "instructions", "instructions decoded (decoded-cache misses)"),
    STAT_END
};
#undef C

/* ---- decoded-instruction cache ------------------------------------------------ */

static uint32_t hash_addr(uint64_t a)
{
    a ^= a >> 29;
    a *= UINT64_C(0xbf58476d1ce4e5b9);
    a ^= a >> 32;
    return (uint32_t)a;
}

static void grf_span(const struct eu_instruction *in, const struct eu_operand *op, bool dst,
                     uint8_t *lo, uint8_t *hi)
{
    unsigned es = eu_type_size((enum eu_type)op->type);
    if (!es) es = 4;
    unsigned n = in->exec_size;
    uint32_t base = op->reg_nr * 32u + op->subreg_nr, last = base;
    if (dst) {
        last = base + (n - 1) * (op->hstride ? op->hstride : 1) * es;
    } else if (in->access_mode == 1) {
        last = base + ((n - 1) / 4) * (op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride) * es + 3 * es;
    } else {
        unsigned w = op->width ? op->width : 1;
        unsigned vs = op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride;
        last = base + ((n - 1) / w) * vs * es + ((n - 1) % w) * op->hstride * es;
    }
    last += es - 1;
    *lo = (uint8_t)(base / 32 > 127 ? 127 : base / 32);
    *hi = (uint8_t)(last / 32 > 127 ? 127 : last / 32);
}

static void classify(struct dentry *d)
{
    const struct eu_instruction *in = &d->in;
    d->pipe = (uint8_t)eu_insn_pipe(in);
    d->occupancy = (uint8_t)eu_insn_occupancy(in);
    d->latency_class = in->is_math ? 1 : (in->dst.type == EU_TYPE_DF ? 2 : 0);
    d->write_lo = 1;
    d->write_hi = 0;
    d->nread = 0;
    if (in->illegal)
        return;
    /* flags: one scoreboard entry for f0/f1 together */
    d->reads_flags = in->pred_control != 0 || in->opcode == 2 /* sel */;
    d->writes_flags = in->cond_modifier != 0 && in->opcode != 2 && in->opcode != 18 /* csel */ &&
                      !in->is_send && !in->is_math;
    if (in->is_send || in->is_split_send) {
        uint32_t mlen = in->mlen, rlen = in->rlen;
        if (in->desc_is_reg) {
            d->reads_indirect = true;   /* lengths unknown until run time */
            return;
        }
        if (in->src[0].indirect)
            d->reads_indirect = true;
        if (in->gen == 4 && mlen) {
            /* Gen4: the payload is in the message registers; only a GRF
             * src0 (the implied move to the base MRF) is read */
            if (in->src[0].file == EU_FILE_GRF) {
                d->read_lo[d->nread] = in->src[0].reg_nr;
                d->read_hi[d->nread++] = in->src[0].reg_nr;
            }
        } else if (mlen) {
            d->read_lo[d->nread] = in->src[0].reg_nr;
            d->read_hi[d->nread++] = (uint8_t)(in->src[0].reg_nr + mlen - 1 > 127 ? 127 : in->src[0].reg_nr + mlen - 1);
        }
        if (in->is_split_send && in->ex_mlen) {
            d->read_lo[d->nread] = in->src[1].reg_nr;
            d->read_hi[d->nread++] = (uint8_t)(in->src[1].reg_nr + in->ex_mlen - 1 > 127 ? 127 : in->src[1].reg_nr + in->ex_mlen - 1);
        }
        if (rlen && in->dst.file == EU_FILE_GRF) {
            d->write_lo = in->dst.reg_nr;
            d->write_hi = (uint8_t)(in->dst.reg_nr + rlen - 1 > 127 ? 127 : in->dst.reg_nr + rlen - 1);
        }
        return;
    }
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    for (unsigned i = 0; i < ns && i < 3; i++) {
        const struct eu_operand *s = &in->src[i];
        if (s->file != EU_FILE_GRF)
            continue;
        if (s->indirect) {
            d->reads_indirect = true;
            continue;
        }
        grf_span(in, s, false, &d->read_lo[d->nread], &d->read_hi[d->nread]);
        d->nread++;
    }
    if (in->has_dst && in->dst.file == EU_FILE_GRF && !in->dst.indirect) {
        grf_span(in, &in->dst, true, &d->write_lo, &d->write_hi);
        if (in->is_math && in->math_function == 11 && d->write_hi < 127)
            d->write_hi++;              /* intdivmod: remainder in the next register */
    }
}

static struct dentry *lookup(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr,
                             enum eu_thread_status *why)
{
    uint32_t h = hash_addr(addr) & s->dcache_mask;
    for (;;) {
        struct dentry *d = &s->dcache[h];
        if (!d->valid)
            break;
        if (d->addr == addr)
            return d;
        h = (h + 1) & s->dcache_mask;
    }
    /* miss: fetch and decode */
    uint8_t bytes[16];
    struct gt_error err;
    if (!sl->space.memory ||
        gpu_address_space_read(&sl->space, addr, bytes, 8, &err) < 0) {
        *why = EU_THREAD_FETCH_FAULT;
        return NULL;
    }
    size_t avail = 8;
    if (!(bytes[3] & 0x20)) {           /* bit 29: CmptCtrl (003 L22998) */
        if (gpu_address_space_read(&sl->space, addr + 8, bytes + 8, 8, &err) < 0) {
            *why = EU_THREAD_FETCH_FAULT;
            return NULL;
        }
        avail = 16;
    }
    if (s->dcache_used * 4 >= (s->dcache_mask + 1) * 3) {
        memset(s->dcache, 0, (s->dcache_mask + 1) * sizeof *s->dcache);
        s->dcache_used = 0;
        for (unsigned i = 0; i < s->threads; i++)
            s->slots[i].dep_d = NULL;
        h = hash_addr(addr) & s->dcache_mask;
    }
    while (s->dcache[h].valid)
        h = (h + 1) & s->dcache_mask;
    struct dentry *d = &s->dcache[h];
    memset(d, 0, sizeof *d);
    if (eu_decode(sl->th.gen, bytes, avail, &d->in) == 0) {
        *why = EU_THREAD_FETCH_FAULT;
        return NULL;
    }
    d->addr = addr;
    d->valid = true;
    classify(d);
    eu_fast_prepare(&d->in, &d->fast);
    s->dcache_used++;
    s->decode_misses++;
    (void)u;
    return d;
}

/* ---- thread lifecycle ------------------------------------------------------------ */

/* The entry at the thread's ip: usually the one that followed the last
 * instruction before, else a table lookup (decode on a miss). A flush of the
 * table zeroes every entry, so stale hints fail the address check. */
static struct dentry *fetch(struct eu *s, struct unit *u, struct slot *sl, enum eu_thread_status *why)
{
    uint64_t addr = sl->th.inst_base + sl->th.ip;
    struct dentry *prev = sl->last, *d;
    /* a thread held at an instruction fetches it again: the hint is the
     * entry itself (keeping prev->next pointing at its successor) */
    if (prev && prev->valid && prev->addr == addr)
        return prev;
    d = prev ? prev->next : NULL;
    if (!d || !d->valid || d->addr != addr) {
        uint32_t used = s->dcache_used;
        d = lookup(s, u, sl, addr, why);
        if (prev && d && s->dcache_used >= used)
            prev->next = d;
    }
    sl->last = d;
    return d;
}

static void account(struct eu *s, struct unit *u)
{
    uint64_t now = unit_cycle(u);
    if (now > s->last_account)
        s->thread_cycles += (now - s->last_account) * s->busy_slots;
    s->last_account = now;
}

static void flush_end_queue(struct eu *s)
{
    while (s->end_queue_len && port_can_send(s->td)) {
        port_try_send(s->td, s->end_queue[0]);
        memmove(s->end_queue, s->end_queue + 1, (s->end_queue_len - 1) * sizeof *s->end_queue);
        s->end_queue_len--;
    }
}

static void free_slot(struct eu *s, struct unit *u, unsigned i)
{
    struct slot *sl = &s->slots[i];
    if (sl->pending_msg) {
        msg_free(unit_sim(u), sl->pending_msg);
        sl->pending_msg = NULL;
        s->pending_msgs--;
    }
    if (port_is_bound(s->td)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
        struct eu_thread_end *e = (struct eu_thread_end *)m->payload;
        e->op = EU_TD_THREAD_END;
        e->request_id = sl->request_id;
        e->slot = (uint16_t)i;
        e->status = sl->end_status;
        e->ffid = sl->ffid;
        e->instructions = sl->instructions;
        m->tag = sl->request_id;
        if (s->end_queue_len == s->end_queue_cap) {
            /* only when dispatches arrive faster than the TD takes the ends
             * (a TD never re-dispatches a slot before seeing its end) */
            s->end_queue_cap *= 2;
            s->end_queue = gt_xrealloc(s->end_queue, s->end_queue_cap * sizeof *s->end_queue);
        }
        s->end_queue[s->end_queue_len++] = m;
        flush_end_queue(s);
    }
    account(s, u);
    for (uint32_t k = 0; k < s->age_count; k++)
        if (s->age_order[k] == i) {
            memmove(&s->age_order[k], &s->age_order[k + 1], s->age_count - k - 1);
            s->age_count--;
            break;
        }
    sl->busy = false;
    s->busy_slots--;
    s->active_threads = s->busy_slots;
    s->threads_ended++;
}

/* The thread is over (EOT or killed); the slot frees when no write-back is due. */
static void end_thread(struct eu *s, struct unit *u, unsigned i, enum eu_thread_status st)
{
    struct slot *sl = &s->slots[i];
    sl->ended = true;
    sl->end_status = (uint8_t)st;
    s->illegal += sl->th.counts.illegal;
    s->register_faults += sl->th.counts.register_faults;
    s->divide_by_zero += sl->th.counts.divide_by_zero;
    s->unmodelled += sl->th.counts.unmodelled;
    s->exceptions += sl->th.counts.exceptions;
    memset(&sl->th.counts, 0, sizeof sl->th.counts);
    if (st != EU_THREAD_OK) {
        s->threads_killed++;
        unit_log(u, SIM_LOG_NOTE, "thread %u (request %u) ended at ip 0x%x: %s", i, sl->request_id,
                 sl->th.ip,
                 st == EU_THREAD_ILLEGAL ? (sl->th.fault_reason ? sl->th.fault_reason : "illegal")
                 : st == EU_THREAD_FETCH_FAULT ? "instruction fetch fault"
                 : "max_thread_instructions exceeded");
    }
    /* A GPGPU thread ended for bad programming sends no EOT of its own: the
     * EU tells the thread spawner (SFID 7) that it is gone, so the group's
     * resources are freed and the front end does not wait for it forever. */
    if (st != EU_THREAD_OK && sl->ctx.valid && !sl->pending_msg &&
        port_is_bound(s->sfid[EU_SFID_TS])) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_SEND, sizeof(struct eu_send_msg));
        struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
        p->sfid = EU_SFID_TS;
        p->slot = (uint8_t)i;
        p->flags = EU_SEND_EOT | EU_SEND_DST_NULL;
        p->ffid = sl->ffid;
        p->ctx = sl->ctx;
        m->tag = i;
        if (!port_try_send(s->sfid[EU_SFID_TS], m)) {
            sl->pending_msg = m;
            sl->pending_port = s->sfid[EU_SFID_TS];
            sl->blocked_send = true;
            s->pending_msgs++;
        }
    }
    if (sl->pending_wb == 0 && !sl->pending_msg)
        free_slot(s, u, i);
}

static void allocate(struct eu *s)
{
    s->slots = gt_xcalloc(s->threads, sizeof *s->slots);
    uint32_t cap = 16;
    while (cap < s->decode_cache_entries)
        cap *= 2;
    s->dcache = gt_xcalloc(cap, sizeof *s->dcache);
    s->dcache_mask = cap - 1;
    s->dcache_used = 0;
    s->iline_count = s->icache_linked ? s->fetch_buffer_lines : s->icache_kib * 1024 / 64;
    s->iline_pow2 = (s->iline_count & (s->iline_count - 1)) == 0;
    s->itags = gt_xcalloc(s->iline_count, sizeof *s->itags);
    memset(s->fetches, 0, sizeof s->fetches);
    s->fetches_unsent = s->fetches_used = s->fetches_end = 0;
    s->end_queue_cap = s->threads + 1;
    s->end_queue = gt_xcalloc(s->end_queue_cap, sizeof *s->end_queue);
}

static bool start_thread(struct eu *s, struct unit *u, struct msg *m)
{
    if (!s->slots)
        allocate(s);
    unsigned i;
    for (i = 0; i < s->threads; i++)
        if (!s->slots[i].busy)
            break;
    if (i == s->threads)
        return false;
    struct slot *sl = &s->slots[i];
    const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
    bool ok = m->size >= sizeof *d && d->op == EU_TD_DISPATCH &&
              m->size >= sizeof *d + (size_t)d->grf_count * EU_MSG_REG_BYTES &&
              (uint32_t)d->grf_start + d->grf_count <= EU_GRF_COUNT &&
              (d->gen == 0 || d->gen == 4 || d->gen == 7 || d->gen == 8 || d->gen == 9) &&
              d->space_format <= GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL;
    memset(sl, 0, offsetof(struct slot, th));      /* (clears the fetch hint too) */
    sl->busy = true;
    sl->age = ++s->age_counter;
    s->age_order[s->age_count++] = (uint8_t)i;
    s->busy_slots++;
    account(s, u);
    s->active_threads = s->busy_slots;
    if (s->active_threads > s->active_threads_peak)
        s->active_threads_peak = s->active_threads;
    s->threads_dispatched++;
    if (!ok) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "malformed thread dispatch (%u bytes) dropped", m->size);
        sl->request_id = m->size >= 8 ? d->request_id : 0;
        sl->ended = true;
        sl->end_status = EU_THREAD_BAD_DISPATCH;
        s->threads_killed++;
        free_slot(s, u, i);
        return true;
    }
    sl->request_id = d->request_id;
    sl->ffid = d->ffid;
    sl->ctx = d->ctx;
    int gen = d->gen ? d->gen : (int)s->gen;
    uint32_t dmask = d->dmask ? d->dmask : (d->simd >= 32 ? ~0u : ((1u << (d->simd ? d->simd : 8)) - 1));
    eu_thread_init(&sl->th, gen, d->inst_base, d->kernel_offset, dmask);
    eu_thread_set_system(&sl->th, d->cr0_0, d->cr0_1, d->sip_valid, d->sip);
    memcpy(sl->th.grf + d->grf_start * EU_REG_BYTES, d->grf, (size_t)d->grf_count * EU_REG_BYTES);
    /* sr0.0: FFID 27:24, EUID 11:8 (left 0), TID 2:0 (L19938-19975) */
    uint32_t sr0 = (d->ffid & 15) << 24 | (i & 7);
    memcpy(sl->th.arf[EU_ARF_SR0], &sr0, 4);
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    gpu_address_space_init(&sl->space, mem, (enum gpu_address_space_format)d->space_format,
                           d->space_root);
    return true;
}

/* ---- sends and write-backs --------------------------------------------------------- */

static struct port *route(struct eu *s, unsigned sfid)
{
    if (sfid < EU_SFID_PORTS && port_is_bound(s->sfid[sfid]))
        return s->sfid[sfid];
    return port_is_bound(s->send) ? s->send : NULL;
}

static void issue_send(struct eu *s, struct unit *u, unsigned i, const struct eu_send_request *rq)
{
    struct slot *sl = &s->slots[i];
    struct eu_thread *t = &sl->th;
    unsigned regs = rq->mlen + rq->ex_mlen;
    struct msg *m = msg_alloc(unit_sim(u), MSG_SEND,
                              (uint32_t)(sizeof(struct eu_send_msg) + regs * EU_MSG_REG_BYTES));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = rq->sfid;
    p->mlen = rq->mlen;
    p->ex_mlen = rq->ex_mlen;
    p->rlen = rq->rlen;
    p->slot = (uint8_t)i;
    p->dst_reg = rq->dst_reg;
    p->exec_size = rq->exec_size;
    p->flags = (uint8_t)((rq->eot ? EU_SEND_EOT : 0) | (rq->header_present ? EU_SEND_HEADER : 0) |
                         (rq->sendc ? EU_SEND_SENDC : 0) | (rq->dst_null ? EU_SEND_DST_NULL : 0) |
                         (rq->split ? EU_SEND_SPLIT : 0));
    p->desc = rq->desc;
    p->ex_desc = rq->ex_desc;
    p->exec_mask = rq->exec_mask;
    p->ffid = sl->ffid;
    p->ctx = sl->ctx;
    for (unsigned r = 0; r < regs; r++) {
        /* GRFs on Gen7+, the message registers on Gen4 (eu_exec.h) */
        const uint8_t *src = eu_send_payload_reg(t, rq, r);
        if (src)
            memcpy(p->regs[r], src, EU_REG_BYTES);
        else
            s->register_faults++;
    }
    m->tag = i;
    s->sends++;
    bool wb = rq->rlen > 0 && !rq->eot;
    struct port *out = rq->sfid ? route(s, rq->sfid) : NULL;
    if (!out) {
        /* null SFID or nothing linked: the message goes nowhere; a reply
         * that will never come is taken as zeros so the thread cannot hang */
        s->sends_dropped++;
        msg_free(unit_sim(u), m);
        if (wb && !rq->dst_null)
            for (unsigned r = 0; r < rq->rlen && rq->dst_reg + r < EU_GRF_COUNT; r++)
                memset(t->grf + (rq->dst_reg + r) * EU_REG_BYTES, 0, EU_REG_BYTES);
        return;
    }
    /* A gateway BarrierMsg (SFID 3, SubFuncID 4, 003 L9024-9036): the thread
     * waits for the gateway's notification (a write-back with rlen 0). The
     * kernel's own `wait n0` that follows is a nop in eu_exec.c, so the wait
     * is kept here, from the send on (only when the gateway is linked; a
     * predicated barrier with a response waits on its register instead). */
    if (rq->sfid == EU_SFID_GATEWAY && (rq->desc & 7) == 4 && !rq->eot && !wb &&
        out == s->sfid[EU_SFID_GATEWAY]) {
        sl->barrier_wait = true;
        sl->after_barrier = true;
        sl->pending_wb++;
    }
    if (wb) {
        sl->pending_wb++;
        for (unsigned r = 0; r < rq->rlen && rq->dst_reg + r < EU_GRF_COUNT; r++) {
            unsigned g = rq->dst_reg + r;
            sl->grf_ready[g] = NEVER;
            sl->never_mask[g / 64] |= UINT64_C(1) << (g % 64);
        }
    }
    if (!port_try_send(out, m)) {
        sl->pending_msg = m;
        sl->pending_port = out;
        sl->blocked_send = true;
        s->pending_msgs++;
    }
}

static void take_writeback(struct eu *s, struct unit *u, struct msg *m)
{
    const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
    if (m->kind != MSG_WRITEBACK || m->size < sizeof *w ||
        m->size < sizeof *w + (size_t)w->rlen * EU_MSG_REG_BYTES || !s->slots || w->slot >= s->threads ||
        !s->slots[w->slot].busy || s->slots[w->slot].pending_wb == 0) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected write-back (kind %s, %u bytes) dropped",
                 msg_kind_name(m->kind), m->size);
        return;
    }
    struct slot *sl = &s->slots[w->slot];
    uint64_t now = unit_cycle(u);
    sl->dep_d = NULL;
    if (w->rlen == 0 && sl->barrier_wait)
        sl->barrier_wait = false;       /* the barrier's notification */
    for (unsigned r = 0; r < w->rlen; r++) {
        unsigned g = w->dst_reg + r;
        if (g >= EU_GRF_COUNT) {
            s->register_faults++;
            continue;
        }
        memcpy(sl->th.grf + g * EU_REG_BYTES, w->regs[r], EU_REG_BYTES);
        sl->grf_ready[g] = now;
        sl->never_mask[g / 64] &= ~(UINT64_C(1) << (g % 64));
    }
    s->writebacks++;
    sl->pending_wb--;
    if (sl->pending_wb == 0) {
        /* a reply shorter than rlen: only registers a SEND set to NEVER can be */
        for (unsigned k = 0; k < 2; k++)
            for (uint64_t b = sl->never_mask[k]; b; b &= b - 1) {
                unsigned g = k * 64 + (unsigned)__builtin_ctzll(b);
                if (sl->grf_ready[g] == NEVER)
                    sl->grf_ready[g] = now;
            }
        sl->never_mask[0] = sl->never_mask[1] = 0;
        if (sl->ended && !sl->pending_msg)
            free_slot(s, u, w->slot);
    }
}

/* ---- execution -------------------------------------------------------------------------- */

enum ready { R_OK, R_DEP, R_SEND };

static enum ready deps_ready(const struct slot *sl, const struct dentry *d, uint64_t now)
{
    enum ready r = R_OK;
    if (d->reads_indirect && sl->pending_wb)
        return R_SEND;
    if ((d->reads_flags || d->writes_flags) && sl->flags_ready > now)
        r = R_DEP;
    for (unsigned k = 0; k < d->nread; k++)
        for (unsigned g = d->read_lo[k]; g <= d->read_hi[k]; g++)
            if (sl->grf_ready[g] > now) {
                if (sl->grf_ready[g] == NEVER)
                    return R_SEND;
                r = R_DEP;
            }
    for (unsigned g = d->write_lo; g <= d->write_hi; g++)
        if (sl->grf_ready[g] > now) {
            if (sl->grf_ready[g] == NEVER)
                return R_SEND;
            r = R_DEP;
        }
    return r;
}

/* When deps_ready would first say R_OK for d: NEVER when it says R_SEND.
 * Depends only on the slot's scoreboard, which changes only when the slot
 * issues or takes a write-back (both drop the slot's cached value). */
static uint64_t deps_at(const struct slot *sl, const struct dentry *d)
{
    if (d->reads_indirect && sl->pending_wb)
        return NEVER;
    uint64_t at = 0;
    if (d->reads_flags || d->writes_flags)
        at = sl->flags_ready;
    for (unsigned k = 0; k < d->nread; k++)
        for (unsigned g = d->read_lo[k]; g <= d->read_hi[k]; g++)
            if (sl->grf_ready[g] > at)
                at = sl->grf_ready[g];
    for (unsigned g = d->write_lo; g <= d->write_hi; g++)
        if (sl->grf_ready[g] > at)
            at = sl->grf_ready[g];
    return at;
}

/* Runs one instruction of slot i; returns false when the thread stopped
 * (ended, or blocked on a port). */
static bool run_one(struct eu *s, struct unit *u, unsigned i, const struct dentry *d, uint64_t now,
                    bool timing, unsigned pipe)
{
    struct slot *sl = &s->slots[i];
    struct eu_send_request rq;
    enum eu_step_result r = EU_STEP_OK;
    sl->dep_d = NULL;
    if (!d->fast.op || !eu_exec_fast(&sl->th, &d->fast)) {
        uint64_t unmodelled = sl->th.counts.unmodelled;
        r = eu_exec(&sl->th, &d->in, &rq, now);
        /* a `wait` right after a gateway barrier is a nop by design: the
         * barrier's wait was kept at the send (issue_send); no warning */
        bool barrier_wait = sl->after_barrier && d->in.mnemonic &&
                            strcmp(d->in.mnemonic, "wait") == 0;
        sl->after_barrier = false;
        if (sl->th.counts.unmodelled > unmodelled && !s->warned_unmodelled && !barrier_wait) {
            s->warned_unmodelled = true;
            unit_log(u, SIM_LOG_WARNING, "%s is not modelled: executed as a nop (further ones "
                     "counted in unmodelled_instructions)", d->in.mnemonic ? d->in.mnemonic : "?");
        }
    }
    s->instructions++;
    sl->instructions++;
    if (timing && r == EU_STEP_OK && d->write_hi >= d->write_lo) {
        uint32_t lat = d->latency_class == 1 ? s->math_latency
                     : d->latency_class == 2 ? s->df_latency
                     : pipe == EU_PIPE_EM ? s->em_latency : s->fpu_latency;
        uint64_t ready = now + d->occupancy + lat;
        for (unsigned g = d->write_lo; g <= d->write_hi; g++)
            sl->grf_ready[g] = ready;
    }
    if (timing && r == EU_STEP_OK && d->writes_flags) {
        uint32_t lat = pipe == EU_PIPE_EM ? s->em_latency : s->fpu_latency;
        sl->flags_ready = now + d->occupancy + lat;
    }
    switch (r) {
    case EU_STEP_OK:
        break;
    case EU_STEP_SEND:
        issue_send(s, u, i, &rq);
        break;
    case EU_STEP_END:
        issue_send(s, u, i, &rq);
        end_thread(s, u, i, EU_THREAD_OK);
        return false;
    case EU_STEP_FAULT:
        end_thread(s, u, i, EU_THREAD_ILLEGAL);
        return false;
    }
    if (s->max_thread_instructions && sl->instructions >= s->max_thread_instructions) {
        s->runaway++;
        end_thread(s, u, i, EU_THREAD_RUNAWAY);
        return false;
    }
    return !sl->blocked_send;
}

static bool runnable(const struct slot *sl)
{
    return sl->busy && !sl->ended && !sl->blocked_send && !sl->barrier_wait && !sl->fetch_wait;
}

/* ---- fetch through the subslice instruction cache ("icache" linked) ------------------ */

static void send_fetches(struct eu *s, struct unit *u)
{
    for (unsigned e = 0; e < s->fetches_end && s->fetches_unsent; e++) {
        struct fetch_entry *f = &s->fetches[e];
        if (!f->used || f->sent)
            continue;
        if (!port_can_send(s->icache))
            return;             /* the fabric wakes the EU when the channel frees up */
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = f->line * MEMREQ_LINE_BYTES;
        r->tag = e;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = MEMREQ_READ;
        r->client = unit_id(u);
        m->tag = e;
        port_try_send(s->icache, m);
        f->sent = true;
        s->fetches_unsent--;
        s->fetch_requests++;
    }
}

static uint32_t fetch_buffer_set(const struct eu *s, uint64_t line)
{
    return s->iline_pow2 ? (uint32_t)(line & (s->iline_count - 1))
                         : (uint32_t)(line % s->iline_count);
}

/* The entry already requesting `line`, or EU_FETCH_ENTRIES. */
static unsigned fetch_find(const struct eu *s, uint64_t line)
{
    for (unsigned e = 0; e < s->fetches_end; e++)
        if (s->fetches[e].used && s->fetches[e].line == line)
            return e;
    return EU_FETCH_ENTRIES;
}

static unsigned fetch_request(struct eu *s, struct unit *u, uint64_t line)
{
    unsigned e = 0;
    while (e < EU_FETCH_ENTRIES && s->fetches[e].used)
        e++;
    assert(e < EU_FETCH_ENTRIES);   /* prefetches stop at half the entries (fetch_line) */
    s->fetches[e] = (struct fetch_entry){ .used = true, .sent = false, .line = line };
    s->fetches_used++;
    if (e >= s->fetches_end)
        s->fetches_end = e + 1;
    s->fetches_unsent++;
    send_fetches(s, u);
    return e;
}

/* The thread needs the line of addr: true when it may go on (the line is in
 * the EU's fetch buffer, or the address does not translate and fetch() will
 * fault), false when it now waits for a line request, its own or one already
 * made for the same line. Either way the next fetch_prefetch_lines lines of
 * the page are requested when they are neither in the buffer nor requested. */
static bool fetch_line(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr, uint64_t now)
{
    uint64_t page = addr >> 12;
    if (sl->ipage_key != page + 1) {
        uint64_t physical;
        if (!sl->space.memory || gpu_address_space_translate(&sl->space, addr, &physical) < 0)
            return true;
        sl->ipage_key = page + 1;
        sl->ipage_physical = physical >> 12;
    }
    uint64_t line = (sl->ipage_physical << 6) | ((addr >> 6) & 63);
    bool held = s->itags[fetch_buffer_set(s, line)] == line + 1;
    if (held) {
        sl->line_held = true;
    } else {
        unsigned e = fetch_find(s, line);
        if (e < EU_FETCH_ENTRIES)
            s->fetch_merged++;
        else
            e = fetch_request(s, u, line);     /* at most one per waiting thread: one is free */
        sl->fetch_wait = true;
        sl->fetch_entry = (uint8_t)e;
        sl->fetch_since = now;
    }
    for (uint32_t k = 1; k <= s->fetch_prefetch_lines; k++) {
        uint64_t ahead = line + k;
        if (ahead >> 6 != line >> 6 || s->fetches_used >= EU_MAX_THREADS)
            break;          /* the next page may not translate; keep entries for threads */
        if (s->itags[fetch_buffer_set(s, ahead)] == ahead + 1 ||
            fetch_find(s, ahead) < EU_FETCH_ENTRIES)
            continue;
        fetch_request(s, u, ahead);
        s->fetch_prefetches++;
    }
    return held;
}

/* A line arrives: it goes into the fetch buffer and every thread waiting
 * for it holds it and may issue this cycle. */
static void take_fetch_reply(struct eu *s, struct unit *u, struct msg *m)
{
    const struct memreply *r = (const struct memreply *)m->payload;
    struct fetch_entry *f = m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof *r && s->slots &&
                                    r->tag < EU_FETCH_ENTRIES ? &s->fetches[r->tag] : NULL;
    if (!f || !f->used || !f->sent || r->address / MEMREQ_LINE_BYTES != f->line) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message on icache_reply dropped",
                 msg_kind_name(m->kind));
        return;
    }
    uint64_t now = unit_cycle(u);
    s->itags[fetch_buffer_set(s, f->line)] = f->line + 1;
    f->used = false;
    s->fetches_used--;
    while (s->fetches_end && !s->fetches[s->fetches_end - 1].used)
        s->fetches_end--;
    for (unsigned i = 0; i < s->threads; i++) {
        struct slot *sl = &s->slots[i];
        if (sl->busy && sl->fetch_wait && sl->fetch_entry == r->tag) {
            sl->fetch_wait = false;
            sl->line_held = true;
            s->stall_fetch += now - sl->fetch_since;
        }
    }
    unit_progress(u);
}

static void retry_blocked_sends(struct eu *s, struct unit *u)
{
    for (unsigned i = 0; i < s->threads && s->pending_msgs; i++) {
        struct slot *sl = &s->slots[i];
        if (!sl->busy || !sl->pending_msg)
            continue;
        if (port_try_send(sl->pending_port, sl->pending_msg)) {
            sl->pending_msg = NULL;
            s->pending_msgs--;
            sl->blocked_send = false;
            if (sl->ended && sl->pending_wb == 0)
                free_slot(s, u, i);
        } else {
            s->stall_port++;
        }
    }
}

/* Fast mode: every runnable thread runs until its next SEND. */
static bool tick_fast(struct eu *s, struct unit *u, uint64_t now)
{
    bool more = false, ran = false;
    for (unsigned i = 0; i < s->threads; i++) {
        struct slot *sl = &s->slots[i];
        while (runnable(sl)) {
            enum eu_thread_status why = EU_THREAD_OK;
            const struct dentry *d = fetch(s, u, sl, &why);
            if (!d) {
                s->fetch_faults++;
                end_thread(s, u, i, why);
                break;
            }
            /* only write-backs can hold a thread in fast mode */
            if (sl->pending_wb && deps_ready(sl, d, now) == R_SEND) {
                s->stall_send_wait++;
                break;
            }
            ran = true;
            if (d->fast.op && eu_exec_fast(&sl->th, &d->fast)) {
                /* the common ALU case without the general bookkeeping */
                sl->dep_d = NULL;
                s->instructions++;
                if (++sl->instructions < s->max_thread_instructions || !s->max_thread_instructions)
                    continue;
                s->runaway++;
                end_thread(s, u, i, EU_THREAD_RUNAWAY);
                break;
            }
            bool go = run_one(s, u, i, d, now, false, d->pipe);
            if (!go)
                break;
            if (d->pipe == EU_PIPE_SEND) {
                more = true;    /* continue on the next tick */
                break;
            }
        }
    }
    if (ran)
        unit_progress(u);
    return more;
}

/* Timing mode: one cycle of issue. */
static bool tick_timing(struct eu *s, struct unit *u, uint64_t now)
{
    /* candidates: oldest first (the age order is kept as threads come and
     * go), or round-robin starting after the last thread that issued */
    unsigned order[EU_MAX_THREADS], n = 0;
    if (s->round_robin) {
        for (unsigned k = 0; k < s->threads; k++) {
            unsigned i = (s->rr_next + k) % s->threads;
            if (runnable(&s->slots[i]))
                order[n++] = i;
        }
    } else {
        for (unsigned k = 0; k < s->age_count; k++)
            if (runnable(&s->slots[s->age_order[k]]))
                order[n++] = s->age_order[k];
    }
    if (n == 0)
        return false;
    unsigned issued = 0;
    bool pending_work = false, alu_issued = false;
    for (unsigned k = 0; k < n && issued < s->issue_width; k++) {
        unsigned i = order[k];
        struct slot *sl = &s->slots[i];
        if (sl->ready_cycle > now) {
            s->stall_fetch++;
            pending_work = true;
            continue;
        }
        const struct dentry *d = sl->dep_d;
        if (d && (s->icache_linked ? sl->line_held : s->itags[sl->iset] == sl->iline_key))
            goto judged;    /* held since its last check; its line still there */
        uint64_t addr = sl->th.inst_base + sl->th.ip;
        uint64_t line = addr >> 6;
        if (s->icache_linked) {
            /* the thread keeps the line it executes from; a new line comes
             * from the EU's fetch buffer or, on a miss there, from the
             * subslice instruction cache (timing only) */
            if (sl->iline_key != line + 1) {
                sl->iline_key = line + 1;
                sl->line_held = false;
            }
            if (!sl->line_held && !fetch_line(s, u, sl, addr, now))
                continue;
        } else {
            /* the EU's own instruction cache (timing only): direct mapped,
             * 64-byte lines, icache_latency per miss */
            if (sl->iline_key != line + 1) {
                sl->iline_key = line + 1;
                sl->iset = s->iline_pow2 ? (uint32_t)(line & (s->iline_count - 1))
                                         : (uint32_t)(line % s->iline_count);
            }
            uint32_t set = sl->iset;
            if (s->itags[set] != line + 1) {
                s->itags[set] = line + 1;
                s->icache_misses++;
                if (s->icache_latency) {
                    sl->ready_cycle = now + s->icache_latency;
                    s->stall_fetch++;
                    pending_work = true;
                    continue;
                }
            }
        }
        /* a held thread's instruction is the entry it fetched last (what
         * fetch() would return; inlined for the common case) */
        d = sl->last;
        if (!d || !d->valid || d->addr != addr) {
            enum eu_thread_status why = EU_THREAD_OK;
            d = fetch(s, u, sl, &why);
            if (!d) {
                s->fetch_faults++;
                end_thread(s, u, i, why);
                continue;
            }
        }
        if (sl->dep_d != d) {
            sl->dep_at = deps_at(sl, d);
            sl->dep_d = d;
        }
    judged:;
        enum ready rd = sl->dep_at == NEVER ? R_SEND : sl->dep_at > now ? R_DEP : R_OK;
        if (rd == R_SEND) {
            s->stall_send_wait++;
            continue;
        }
        pending_work = true;
        if (rd == R_DEP) {
            s->stall_dependency++;
            continue;
        }
        unsigned pipe = d->pipe;
        if (pipe == EU_PIPE_FPU && s->pipe_busy_until[EU_PIPE_FPU] > now)
            pipe = EU_PIPE_EM;      /* the EM pipe runs FPU work too (L19104-19106) */
        if (s->pipe_busy_until[pipe] > now || (pipe <= EU_PIPE_EM && alu_issued)) {
            s->stall_pipe++;
            continue;
        }
        s->pipe_busy_until[pipe] = now + (pipe <= EU_PIPE_EM ? d->occupancy : 1);
        if (pipe <= EU_PIPE_EM && !s->co_issue)
            alu_issued = true;
        run_one(s, u, i, d, now, true, pipe);
        unit_progress(u);
        issued++;
        s->rr_next = i + 1;
    }
    if (issued)
        s->cycles_issuing++;
    return pending_work || issued;
}

/* ---- the unit ------------------------------------------------------------------------- */

static int eu_realize(struct unit *u, struct gt_error *err)
{
    struct eu *s = unit_state(u);
    if (strcmp(s->arbitration, "oldest") == 0) {
        s->round_robin = false;
    } else if (strcmp(s->arbitration, "round_robin") == 0) {
        s->round_robin = true;
    } else {
        gt_error_set(err, "arbitration must be \"oldest\" or \"round_robin\", not \"%s\"",
                     s->arbitration);
        return -1;
    }
    s->dispatch = unit_port(u, "dispatch", 0);
    s->send = unit_port(u, "send", 0);
    s->td = unit_port(u, "td", 0);
    for (unsigned i = 0; i < EU_SFID_PORTS; i++)
        s->sfid[i] = unit_port(u, "sfid", i);
    for (unsigned i = 0; i < EU_WB_PORTS; i++)
        s->writeback[i] = unit_port(u, "writeback", i);
    s->icache = unit_port(u, "icache", 0);
    s->icache_reply = unit_port(u, "icache_reply", 0);
    s->icache_linked = port_is_bound(s->icache);
    if (s->icache_linked != port_is_bound(s->icache_reply))
        return gt_error_set(err, "\"icache\" and \"icache_reply\" are linked together or not at all");
    return 0;
}

static void eu_release(struct eu *s, struct unit *u)
{
    if (s->slots)
        for (unsigned i = 0; i < s->threads; i++)
            if (s->slots[i].pending_msg)
                msg_free(unit_sim(u), s->slots[i].pending_msg);
    if (s->end_queue)
        for (unsigned i = 0; i < s->end_queue_len; i++)
            msg_free(unit_sim(u), s->end_queue[i]);
    free(s->slots);
    free(s->dcache);
    free(s->itags);
    free(s->end_queue);
    s->slots = NULL;
    s->dcache = NULL;
    s->itags = NULL;
    s->end_queue = NULL;
    s->end_queue_len = 0;
}

static void eu_reset(struct unit *u)
{
    struct eu *s = unit_state(u);
    eu_release(s, u);
    /* the thread slots and caches are allocated on the first dispatch, so an
     * EU that never runs a thread costs no memory */
    s->dcache_used = 0;
    s->busy_slots = 0;
    s->age_count = 0;
    s->age_counter = 0;
    s->rr_next = 0;
    s->last_account = 0;
    s->pending_msgs = 0;
    memset(s->pipe_busy_until, 0, sizeof s->pipe_busy_until);
}

static enum unit_activity eu_tick(struct unit *u)
{
    struct eu *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct sim *sim = unit_sim(u);
    if (s->end_queue_len)
        flush_end_queue(s);
    struct msg *m;
    /* write-backs first: they may unblock threads this cycle */
    for (unsigned w = 0; w < EU_WB_PORTS; w++) {
        while (s->writeback[w] && (m = port_pop(s->writeback[w])) != NULL) {
            take_writeback(s, u, m);
            msg_free(sim, m);
        }
    }
    /* instruction lines from the subslice cache, then fetches still to send */
    while ((m = port_pop(s->icache_reply)) != NULL) {
        take_fetch_reply(s, u, m);
        msg_free(sim, m);
    }
    if (s->fetches_unsent)
        send_fetches(s, u);
    /* dispatches (and generic traffic passing through) */
    while ((m = port_peek(s->dispatch)) != NULL) {
        if (m->kind == MSG_THREAD_DISPATCH) {
            if (!start_thread(s, u, m))
                break;                  /* no free slot: leave it queued */
            port_pop(s->dispatch);
            s->received++;
            msg_free(sim, m);
            continue;
        }
        if (m->kind == MSG_GENERIC && port_is_bound(s->send)) {
            if (!port_can_send(s->send))
                break;
            port_pop(s->dispatch);
            s->received++;
            port_try_send(s->send, m);
            s->forwarded++;
            continue;
        }
        port_pop(s->dispatch);
        s->received++;
        if (m->kind == MSG_GENERIC) {
            s->sunk++;
        } else {
            s->bad_messages++;
            unit_log(u, SIM_LOG_NOTE, "unexpected %s message on dispatch dropped",
                     msg_kind_name(m->kind));
        }
        msg_free(sim, m);
    }
    if (!s->slots)
        return UNIT_IDLE;
    retry_blocked_sends(s, u);
    bool more = s->fast ? tick_fast(s, u, now) : tick_timing(s, u, now);
    account(s, u);
    if (port_peek(s->dispatch) && s->busy_slots < s->threads)
        more = true;
    /* a SEND or thread end held by a full channel needs no tick: the fabric
     * wakes the EU when the receiver frees space (fabric/port.h) */
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void eu_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct eu *s = unit_state(u);
    uint64_t cyc = unit_cycle(u);
    stats_emit(w, "ipc", cyc ? (double)s->instructions / (double)cyc : 0.0, "instructions/cycle",
               "instructions issued per cycle of the EU's clock so far");
    stats_emit(w, "occupancy", cyc ? (double)s->thread_cycles / ((double)cyc * s->threads) : 0.0,
               "fraction", "thread slots in use, averaged over time");
}

static void eu_destroy(struct unit *u)
{
    eu_release(unit_state(u), u);
}

const struct unit_ops eu_ops = {
    .kind = "eu",
    .help = "Execution unit (Gen4, Gen7, Gen8, Gen9): hardware threads executing EU kernels per channel "
            "(seed 003 EU ISA L19086-25514), oldest-first issue to the FPU/EM/send/branch "
            "pipes, a GRF scoreboard, instruction fetch through the subslice icache (\"icache\" "
            "linked) or its own cache, a decoded-instruction cache; "
            "SENDs routed by SFID, EOT frees the slot. `fast` runs each thread to its next SEND "
            "in one tick.",
    .state_size = sizeof(struct eu),
    .params = eu_params,
    .ports = eu_ports,
    .stats = eu_stats,
    .realize = eu_realize,
    .reset = eu_reset,
    .tick = eu_tick,
    .stats_derived = eu_stats_derived,
    .destroy = eu_destroy,
};
