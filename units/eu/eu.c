/* units/eu/eu.c - the EU unit shell: params, ports, stats and the unit's
 * lifecycle; fetch and scheduling are in eu_fetch.c and eu_schedule.c
 * (eu_internal.h). See eu.h for what it models. */
#include "units/eu/eu.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/sim.h"
#include "units/eu/eu_decode_cache.h"
#include "units/eu/eu_internal.h"

static const struct param_desc eu_params[] = {
    PARAM_U32_FIELD("threads", struct eu, threads, 7, 1, EU_MAX_THREADS,
                    "hardware threads per EU (Gen9: 7, notes/003-skl-sharedfn-eu.md §14.2)"),
    PARAM_U32_FIELD("gen", struct eu, gen, 9, 4, 9,
                    "default ISA generation when a dispatch does not name one (4, 7, 8, 9)"),
    PARAM_BOOL_FIELD("fast", struct eu, fast, 0,
                     "functional fast mode: a thread runs until its next SEND in one tick; stalls "
                     "are counted on the cycles the EU ticks, and it sleeps while every thread "
                     "waits for a write-back"),
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
      .count = EU_WRITEBACK_PORTS_MADE, .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "shared-function write-backs (MSG_WRITEBACK), one port per shared function "
              "that answers (link with [+] or an index; at most one per SFID)" },
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
    C("thread_cycles_after_eot", thread_cycles_after_eot, "thread-cycles",
      "of those, held after the EOT message left (write-backs owed) or by threads that sent "
      "none: the part no stage's thread_cycles has"),
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
    s->writeback_ports = unit_port_count(u, "writeback");
    if (s->writeback_ports > EU_WRITEBACK_PORTS_MAX)
        return gt_error_set(err, "%u \"writeback\" ports linked; at most %u (one per SFID)",
                            s->writeback_ports, EU_WRITEBACK_PORTS_MAX);
    for (unsigned i = 0; i < s->writeback_ports; i++) {
        s->writeback[i] = unit_port(u, "writeback", i);
        s->writeback_bit[i] = port_queued_bit(s->writeback[i]);
    }
    s->icache = unit_port(u, "icache", 0);
    s->icache_reply = unit_port(u, "icache_reply", 0);
    s->icache_linked = port_is_bound(s->icache);
    if (s->icache_linked != port_is_bound(s->icache_reply))
        return gt_error_set(err, "\"icache\" and \"icache_reply\" are linked together or not at all");
    s->decoded_kernels = eu_decode_cache_of(unit_sim(u));
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
    eu_release_calls(s, u);
    free(s->slots);
    free(s->dcache);
    free(s->own);
    free(s->dindex);
    free(s->itags);
    free(s->end_queue);
    s->slots = NULL;
    s->dcache = NULL;
    s->own = NULL;
    s->dindex = NULL;
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
    s->pending_msg_slots = 0;
    s->quiet = false;
    s->asleep = false;
    s->idle_returned = false;
    eu_slot_masks_clear(s);
    memset(s->pipe_busy_until, 0, sizeof s->pipe_busy_until);
}

/* Whether a message can be taken on an input this cycle (messages sent in this
 * cycle are not visible yet, so the answer does not depend on the tick order). */
static bool visible_input(const struct eu *s, const struct unit *u)
{
    uint64_t bits = unit_queued_ports(u);
    if (!bits)
        return false;
    for (unsigned w = 0; w < s->writeback_ports; w++)
        if ((bits & s->writeback_bit[w]) && port_peek(s->writeback[w]))
            return true;
    return port_peek(s->icache_reply) || port_peek(s->dispatch);
}

static enum unit_activity eu_tick(struct unit *u)
{
    struct eu *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct sim *sim = unit_sim(u);
    if (s->asleep) {
        /* the ticks of the cycles slept through: each would have taken the
         * quiet path of eu_tick_timing and added the same stalls */
        eu_count_quiet(s, now - s->asleep_from - 1);
        s->asleep = false;
    } else if (s->idle_returned && !s->pending_msg_slots && !s->end_queue_len && !s->fetches_unsent &&
               !visible_input(s, u) && !eu_arrival_due(s, now)) {
        return UNIT_IDLE;
    }
    s->idle_returned = false;
    if (s->end_queue_len)
        eu_flush_end_queue(s);
    if (eu_arrival_due(s, now))
        eu_take_arrivals(s, u, now);
    struct msg *m;
    /* Nothing in any input channel (the common cycle of a busy EU): none of
     * the polls below could take a message, so they are skipped. */
    uint64_t bits = unit_queued_ports(u);
    bool queued = bits != 0;
    /* write-backs first: they may unblock threads this cycle; a port whose
     * queued bit is clear holds nothing (fabric/unit.h) */
    for (unsigned w = 0; queued && w < s->writeback_ports; w++) {
        if (!(bits & s->writeback_bit[w]))
            continue;
        while ((m = port_pop(s->writeback[w])) != NULL) {
            eu_take_writeback(s, u, m);
            msg_free(sim, m);
        }
        bits = unit_queued_ports(u);
        queued = bits != 0;             /* the polls below need a message left */
    }
    /* instruction lines from the subslice cache, then fetches still to send */
    while (queued && (m = port_pop(s->icache_reply)) != NULL) {
        eu_take_fetch_reply(s, u, m);
        msg_free(sim, m);
    }
    if (s->fetches_unsent)
        eu_send_fetches(s, u);
    /* dispatches (and generic traffic passing through) */
    while (queued && (m = port_peek(s->dispatch)) != NULL) {
        if (m->kind == MSG_THREAD_DISPATCH) {
            if (!eu_start_thread(s, u, m))
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
    if (!s->slots) {
        s->idle_returned = true;
        return UNIT_IDLE;
    }
    eu_retry_blocked_sends(s, u);
    bool more = s->fast ? eu_tick_fast(s, u, now) : eu_tick_timing(s, u, now);
    eu_account(s, now);
    bool dispatch_waiting = queued && s->busy_slots < s->threads && port_peek(s->dispatch);
    if (dispatch_waiting)
        more = true;
    /* A quiet stretch of more than the next cycle, with nothing to retry or
     * take: sleep until it ends instead of ticking through it (an event comes
     * as a message, which wakes the EU early). Host time only: the stalls are
     * counted as if ticked, and every result is the same. */
    else if (more && s->quiet && s->quiet_more && s->quiet_until > now + 1 &&
             s->quiet_until != NEVER && !s->end_queue_len && !s->pending_msg_slots &&
             !s->fetches_unsent) {
        s->asleep = true;
        s->asleep_from = now;
        unit_wake_at(u, s->quiet_until);
        return UNIT_IDLE;
    }
    /* a SEND or thread end held by a full channel needs no tick: the fabric
     * wakes the EU when the receiver frees space (fabric/port.h) */
    s->idle_returned = !more;
    return more ? UNIT_BUSY : UNIT_IDLE;
}

/* The EU's cycle when its stats are read: the last edge of its clock at or
 * before the simulated time (a run stopped by a time limit may have ticked
 * no unit of the clock on the last edges, each EU asleep). */
static uint64_t stats_cycle(const struct unit *u)
{
    uint64_t ticked = unit_cycle(u);
    uint64_t at = sim_now(unit_sim(u)) / unit_clock_period(u);
    return at > ticked ? at : ticked;
}

/* The stalls of the cycles slept through so far (each would have taken the
 * quiet path), and the thread-cycles up to now: what ticks up to this cycle
 * would have counted. */
static void eu_stats_settle(struct unit *u)
{
    struct eu *s = unit_state(u);
    uint64_t now = stats_cycle(u);
    if (s->asleep && now > s->asleep_from) {
        eu_count_quiet(s, now - s->asleep_from);
        s->asleep_from = now;   /* the wake adds the cycles after it */
    }
    if (s->slots)
        eu_account(s, now);
}

static void eu_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct eu *s = unit_state(u);
    uint64_t cyc = stats_cycle(u);
    stats_emit(w, "ipc", cyc ? (double)s->instructions / (double)cyc : 0.0, "instructions/cycle",
               "instructions issued per cycle of the EU's clock so far");
    stats_emit(w, "occupancy", cyc ? (double)s->thread_cycles / ((double)cyc * s->threads) : 0.0,
               "fraction", "thread slots in use, averaged over time");
}

static void eu_destroy(struct unit *u)
{
    struct eu *s = unit_state(u);
    eu_release(s, u);
    free(s->calls);
    free(s->arrivals);
    s->calls = NULL;
    s->arrivals = NULL;
}

/* The run summary's figures (fabric/unit.h): instructions, the share of
 * EU-cycles that issued, and the mean thread occupancy. */
static const struct key_figure eu_key_figures[] = {
    { .label = "EU instructions", .form = KEY_FIGURE_TOTAL, .stat = "instructions",
      .flags = KEY_FIGURE_GATES },
    { .label = "EU utilisation", .form = KEY_FIGURE_PER_CYCLE, .stat = "cycles_issuing",
      .note = "(issuing)" },
    { .label = "thread occupancy", .form = KEY_FIGURE_MEAN, .stat = "occupancy" },
    KEY_FIGURE_END
};

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
    .key_figures = eu_key_figures,
    .realize = eu_realize,
    .reset = eu_reset,
    .tick = eu_tick,
    .edge_commit = eu_edge_commit,
    .stats_settle = eu_stats_settle,
    .stats_derived = eu_stats_derived,
    .destroy = eu_destroy,
};

