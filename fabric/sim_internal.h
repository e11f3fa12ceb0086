/* fabric/sim_internal.h - the kernel's own structures, shared by the fabric's
 * .c files only. Units never include this: they use fabric/unit.h and
 * fabric/port.h. */
#ifndef GTSIM_FABRIC_SIM_INTERNAL_H
#define GTSIM_FABRIC_SIM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/unit.h"

#define WHEEL_BITS 12
#define WHEEL_SLOTS (1u << WHEEL_BITS)
#define WHEEL_MASK (WHEEL_SLOTS - 1)
#define WHEEL_WORDS (WHEEL_SLOTS / 64)

#define SIM_MAX_THREADS 64u     /* sim_set_threads() clamps to this */
#define DUE_NEAR_SLOTS 8u       /* struct clock_domain.due: near wakes, cycles ahead */
#define MSG_POOL_CLASSES 6      /* payload 64, 256, 1 Ki, 4 Ki, 16 Ki, 64 Ki; larger: malloc */

/* A request to tick a unit on a cycle of its domain. */
struct wake {
    struct wake *next;
    uint64_t cycle;
    struct unit *unit;
};

/* A growing array of units: the ready lists, the due lists and the edge
 * commits (unit_list_push in sim.c). */
struct unit_list {
    struct unit **units;
    uint32_t count, capacity;
};

struct wake_heap {              /* wakes beyond the wheel, ordered by cycle */
    struct wake **items;
    uint32_t count, size;
};

struct clock_domain {
    char name[32];
    /* read by every host thread's ticks (unit_cycle(), a channel's arrival
     * cycles); written only between parallel phases */
    uint64_t period_ps;
    uint64_t cycle;             /* the edge being or last processed */
    uint64_t next_unprocessed;  /* the first edge wakes may still go to */
    /* written by thread 0 while the workers tick (parallel_edge commits its
     * own wakes then), so on another cache line than the above (allocated
     * 64-byte aligned: sim_add_clock) */
    _Alignas(64) uint32_t wheel_count;  /* wakes in the wheel */
    struct wake *slots[WHEEL_SLOTS];
    uint64_t occupied[WHEEL_WORDS];
    struct wake_heap overflow;
    uint64_t edges;             /* edges processed (with work) */
    uint64_t pending_cycle, pending_time;   /* next edge with work, from next_event_time() */
    /* Wakes for next_unprocessed asked for while it was next_unprocessed
     * (a busy unit's "tick me next cycle", the common case), in the order
     * asked: kept in arrays instead of the wheel (no struct wake), one per
     * host thread, holding the units that thread ticks. In a parallel phase
     * each thread adds its own units' such wakes to its own array (no
     * commit by thread 0; a unit may then be listed twice, which the ready
     * list's stamp drops); outside one, sim_schedule adds to the unit's
     * thread's. They are all later than every wheel wake for that cycle, so
     * on one thread ticking them newest first and then the wheel's list
     * (newest first) is the order a single list would give.
     * In a parallel phase a thread also keeps its own units' wakes for the
     * few cycles after next_unprocessed (`near`, slot cycle % DUE_NEAR_SLOTS,
     * `near_mask` the slots in use) instead of handing them to thread 0's
     * commit: the wheel is thread 0's, and each such wake cost a write of the
     * unit's scheduling line by thread 0 after the join, which the unit's own
     * thread then took back (issue 19: about 4 a worker's edge on SGEMM 256
     * GT3, 1 to 5 cycles ahead). The thread that ticks the edge a slot is
     * for empties it before any tick (tick_share; thread 0 in a serial
     * edge), so a slot holds the wakes of one cycle. */
    struct due_list {
        _Alignas(64) struct unit_list list; /* a line each: threads add at once */
        uint32_t near_mask;
        struct unit_list near[DUE_NEAR_SLOTS];
    } due[SIM_MAX_THREADS];
};

/* Fields in the order a send and a poll read them: a poll or a pop reads
 * the first line (head, tail, the ring pointer, the pop bookkeeping), a send
 * the first two (issue 19: spread over three, with the counters a send
 * updates at the end, they were among the most missed host cache lines of a
 * busy machine). Allocated 64-byte aligned (port.c). */
struct channel {
    struct port *from, *to;     /* from is NULL for a backdoor injection channel */
    struct unit *receiver;      /* to->owner, kept here so a send reads none of its lines */
    uint64_t queued_bit;        /* to->queued_bit: its bit of receiver->queued_ports */
    /* each message with the receiver cycle it becomes visible on, side by
     * side: a pop reads one host cache line for both (issue 19) */
    struct channel_slot {
        struct msg *msg;
        uint64_t arrival;
    } *ring;
    uint32_t mask;
    uint32_t head, tail;        /* free-running; tail is stored with release and loaded with
                                 * acquire (port.c), as its sender and receiver may tick on two
                                 * host threads at once */
    uint32_t head_start;        /* head at the start of the current step (the sender's view
                                 * during a parallel tick phase; see sim_thread) */
    uint32_t pops_at_pop_time;
    bool takes_calls;           /* the receiver takes calls on it (set by sim_realize) */
    bool sender_waiting;        /* a send failed for want of space */
    bool popped_listed;         /* in a thread's popped list (sim_note_popped) */
    bool same_domain;           /* sender and receiver on one clock (set by sim_connect) */
    uint64_t pop_time_ps;
    struct link_params link;
    uint32_t sends_at_send_time;
    uint64_t send_time_ps, stall_time_ps;
    /* counters, reported under the sending port */
    uint64_t sent, peak_occupancy;
    uint64_t stall_full, stall_width;
};

/* The fields a send or a poll reads come first, in one host cache line with
 * the unit's first fields (observer_count was past the observers, a third
 * line). */
struct port {
    struct unit *owner;
    struct channel *channel;
    uint64_t queued_bit;            /* input: its channel's bit of owner->queued_ports (0: unbound) */
    uint32_t msg_kinds;             /* desc->msg_kinds (0: any), for the checks */
    uint32_t observer_count;
    uint64_t received;              /* input: messages popped */
    char *name;
    uint32_t index;
    enum port_direction direction;
    unsigned flags;
    bool warned_kind;               /* an undeclared kind sent on it was logged */
    const struct port_desc *desc;   /* NULL for ports made by a port() op */
    uint64_t unbound_sends;         /* output: sends attempted while unbound */
    struct port_observer {          /* called in the order they were added */
        port_observer_fn fn;
        void *context;
    } observers[PORT_MAX_OBSERVERS];
    struct port *next_in_unit;
};

/* An array of ports made by unit_port_array(). */
struct port_array {
    struct port **ports;
    struct port_array *next;
};

/* Laid out in cache lines by who writes them on several host threads (a
 * parallel edge, struct sim_thread): thread 0 schedules every unit (the
 * scheduling line), the unit's own thread counts its ticks (the tick line),
 * and senders on any thread count its queued messages (the queued line).
 * Sharing one line made each parallel edge move it between cores several
 * times per unit (perf: sim_schedule 4% of thread 0's time on GT3). Allocated
 * 64-byte aligned (unit.c). */
struct unit {
    struct sim *sim;
    const struct unit_ops *ops;
    void *state;
    char *name;
    uint32_t id;
    uint32_t domain;
    struct port *ports;             /* list in declaration order */
    struct port *ports_tail;
    struct port_array *port_arrays; /* made by unit_port_array(), freed with the unit */
    uint32_t thread;                /* the host thread that ticks it (sim_partition) */
    bool created, realized;
    bool commit_requested;          /* listed for the current edge's commits */
    struct unit *host;              /* an inner unit's host (unit_create_inner), else NULL */
    struct unit *inner;             /* the first unit this one runs inside it, else NULL */
    uint32_t inputs_bound;          /* input channels made to its ports (their queued bits) */
    /* Some input's sender ticks on another host thread (set by
     * start_threads), or the input is a backdoor (set when its channel is
     * made): in a parallel phase its queued_ports bits change by atomic
     * read-modify-writes (port.c queued_set). */
    bool queued_shared;
    /* scheduling (thread 0) */
    _Alignas(64) uint64_t ready_stamp;  /* cycle + 1 of the edge it is queued to tick on */
    uint64_t last_wake_request;     /* cycle + 1 of the latest wake asked for */
    /* trace: the current span of consecutive active cycles */
    uint64_t span_start, span_end;  /* cycle + 1; 0 = no span */
    /* fabric counters (the thread that ticks it); its tick counts are in
     * the threads' tick_counts (unit_tick_count) */
    _Alignas(64) uint64_t tick_stamps;  /* host time of its ticks (sim_set_thread_timing;
                                         * host_stamp units, sim.c) */
    /* cycle + 1 of the edge a parallel phase last listed it for in its own
     * thread's due list (schedule_parallel): a later wake for that edge in
     * the phase is already there */
    uint64_t own_due_stamp;
    /* Bit k: its k-th bound input channel may hold a message, visible or
     * not (a send sets it; the pop that empties the channel clears it).
     * Channels from the 64th on share bit 63, cleared when all of them are
     * empty.
     * unit_has_queued() and every poll read it: a poll of an input whose bit
     * is clear reads none of the channel's lines (issue 19: most polls find
     * nothing, and each missed the host's L1 on the channel). Changed by
     * atomic read-modify-writes when a sender on another host thread may set
     * a bit while the unit's own thread clears another (queued_shared, in a
     * parallel phase); else by a plain load and store (issue 19: the locked
     * OR of every send was ~3.5% of SGEMM 256 GT2 on one thread). */
    _Alignas(64) uint64_t queued_ports;
};

struct msg_pool_class {
    struct msg *free;
    uint32_t free_count;
    uint64_t allocated;             /* messages ever carved for this class */
};

/* A wake asked for during a parallel tick phase, applied when it ends. */
struct pending_wake {
    struct unit *unit;
    uint64_t cycle;
};

/* One host thread's share of the machine (issue 19). Thread 0 is the thread
 * that calls sim_run(); threads 1.. are workers made by sim_run() when
 * sim_set_threads() asked for more than one. Each edge of a clock domain
 * whose ready units fall on more than one thread is ticked in parallel: each
 * thread ticks its own units (those thread 0 handed it from the wheel,
 * struct sim.handoff, and its own due list and near wakes, struct
 * clock_domain.due), and everything such a tick does to state that is not
 * its unit's own is kept here and applied by thread 0 once every thread is
 * done, in thread order (the commit):
 *  - wakes (the domain wheels are shared): `wakes`, except a wake of one of
 *    its own units for the next few cycles, which goes to its own due list
 *    or near wakes;
 *  - the fabric's totals (messages sent, delivered, stalls, ...), which it
 *    keeps for good (sim_totals adds them up);
 *  - channels it popped (`popped`): their senders see a channel's space as
 *    it was at the start of the step (head_start), which is what the
 *    two-phase rule of port.h gives on one thread, and a sender blocked on
 *    a full channel is woken when the step ends;
 *  - messages come from and go back to the thread's own pools.
 * A worker's last act in a phase is to fill in `done`, which says which of
 * these hold anything: the join reads that line alone otherwise.
 * Results do not depend on the thread count: every unit sees what it would
 * see on one thread (the determinism suite shows no unit depends on the
 * order of the ticks within a cycle). */
struct sim_thread {
    struct sim *sim;
    uint32_t index;
    pthread_t handle;
    bool started;
    struct unit_list ready;         /* this thread's units to tick on the current edge
                                     * (tick_share: its handoff, due and near lists) */
    struct pending_wake *wakes;
    uint32_t wake_count, wake_capacity;
    struct channel **popped;        /* channels popped in the current step */
    uint32_t popped_count, popped_capacity;
    struct unit_list commits;       /* units that asked for an edge commit on the current
                                     * edge (unit_request_edge_commit) */
    struct msg_pool_class pools[MSG_POOL_CLASSES];
    void **msg_blocks;              /* blocks this thread carved */
    uint32_t msg_block_count, msg_block_capacity;
    int64_t messages_live;          /* allocations minus frees by this thread */
    uint64_t pool_bytes;
    uint64_t next_msg_id;           /* ids: (count << 8) | thread index in a parallel phase */
    /* what the units it ticks did (thread 0: every serial tick too), never
     * reset: sim_totals() and sim_undeclared_sends() add the threads' up */
    uint64_t messages_sent, messages_delivered, stalls, undeclared_sends;
    bool progress;
    /* sim_set_thread_timing, a worker's parallel phases (host stamps): from
     * thread 0's release to this thread's start, and its ticks */
    uint64_t start_lag_stamps, share_stamps;
    /* Ticks and busy ticks of each unit this thread ticked, at 2 * unit id
     * (unit_tick_count sums the threads'): dense, so counting a tick costs no
     * host cache line of the unit's own (issue 19: a fourth line per tick,
     * 4% of a busy machine's L1 misses); per thread, so threads do not
     * share the lines they write. Sized by sim_run for every unit. */
    uint64_t *tick_counts;
    uint32_t tick_count_units;
    /* What a parallel phase left for thread 0 (tick_share writes it last,
     * then `generation`; thread 0's join reads it): one line, so the join
     * reads none of a worker's other lines unless a flag says they hold
     * something to commit (issue 19: each was a host cache miss on thread
     * 0's path between two edges, while the workers wait). Allocated 64-byte
     * aligned (start_threads). */
    _Alignas(64) struct thread_done {
        uint64_t generation;        /* atomic: the last phase it finished */
        uint64_t ticked;            /* units it ticked in that phase */
        int64_t messages_live;      /* its messages_live then */
        uint32_t flags;             /* THREAD_DONE_* */
        uint64_t end_stamp;         /* sim_set_thread_timing: when its ticks ended */
    } done;
    char pad[64];                   /* keeps threads' hot counters off each other's lines */
};

enum {
    THREAD_DONE_WAKES = 1u << 0,    /* wakes kept for thread 0's commit (wakes) */
    THREAD_DONE_POPPED = 1u << 1,   /* channels popped for flush_popped (popped) */
    THREAD_DONE_COMMITS = 1u << 2,  /* edge commits asked for (commits) */
    THREAD_DONE_POOLS = 1u << 3,    /* a message pool above POOL_HIGH or low (msg.c) */
    THREAD_DONE_PROGRESS = 1u << 4, /* a unit moved something (watchdog) */
};

/* Counts one tick of u on thread t (busy: it asked for the next cycle). */
static inline void count_tick(struct sim_thread *t, const struct unit *u)
{
    t->tick_counts[2 * (size_t)u->id]++;
}

static inline void count_busy_tick(struct sim_thread *t, const struct unit *u)
{
    t->tick_counts[2 * (size_t)u->id + 1]++;
}

/* u's ticks (busy: those after which it asked for the next cycle), on every
 * thread. */
uint64_t unit_tick_count(const struct sim *sim, const struct unit *u, bool busy);
struct sim {
    struct sim_options options;
    struct clock_domain **domains;
    uint32_t domain_count;

    struct unit **units;
    uint32_t unit_count, unit_capacity;

    struct channel **channels;
    uint32_t channel_count, channel_capacity;

    /* Read by the ticks on every host thread (every send and pop reads
     * now_ps and parallel_phase), and kept off the cache lines that are
     * written while the workers tick: thread 0's scheduling and totals, and
     * the phase hand-over counters. (Splitting struct clock_domain's lines
     * the same way cut each thread's tick time per parallel edge of a
     * 2-thread SGEMM 256 on GT3 by ~9%, rdtsc; this split was measured
     * with it, 4% in host time.) sim_create allocates the struct 64-byte
     * aligned. */
    uint64_t now_ps;
    struct sim_thread **threads;    /* [0] always exists (host threads, issue 19) */
    uint32_t thread_count;          /* threads made (1 + workers) */
    uint32_t phase_domain;          /* the domain whose edge is being ticked */
    bool parallel_phase;            /* threads are ticking an edge together */
    bool in_edge_commits;           /* run_edge_commits is running (port_call) */
    bool phase_stamped;             /* its ready lists are stamped already (tick_share) */
    struct trace *trace;
    void *memory;

    /* scheduling (thread 0) */
    _Alignas(64) struct wake *free_wakes;
    void **wake_blocks;             /* blocks the wakes were carved from */
    uint32_t wake_block_count, wake_block_capacity;
    struct unit_list ready;         /* the edge's units (gather_ready) */
    /* [thread]: units of the thread's from the wheel for the edge being
     * ticked in parallel, written by thread 0 before it and read by the
     * thread, a line each (start_threads); emptied by thread 0 */
    struct handoff { _Alignas(64) struct unit_list list; } *handoff;
    uint64_t flush_threads;         /* workers whose popped lists flush_popped reads */
    uint64_t commit_threads;        /* workers whose commits run_edge_commits reads */
    uint64_t shuffle_state;
    bool stop_requested;
    enum sim_stop_reason stop_reason;
    uint64_t last_progress_ps;
    uint64_t watchdog_ps;
    char *deadlock_report;

    /* messages: the pools are per host thread (struct sim_thread) */
    uint64_t messages_peak;
    struct msg_pool_class reserve[MSG_POOL_CLASSES];  /* spare messages the commit moves
                                                       * between threads' pools */

    /* host threads (issue 19) */
    uint32_t threads_wanted;        /* sim_set_threads(); 1: no workers */
    bool partitioned;
    bool in_step;                   /* inside step_at() */
    bool parallel_allowed;          /* this run may (start_threads) */
    bool shutdown;                  /* workers leave */
    bool thread_key_made;
    pthread_key_t thread_key;       /* the calling thread's struct sim_thread */
    pthread_mutex_t lock;           /* the log, and the workers' sleep */
    pthread_cond_t wake_workers;
    uint64_t parallel_edges, serial_edges;
    bool thread_timing;             /* sim_set_thread_timing */
    /* sim_set_thread_timing: thread 0's side of the parallel edges (host
     * stamps, summed; sim_thread_report): its ticks from the release, its own
     * commit, its wait for the workers, and the commit after the join; and
     * when it released the current phase (read by the workers). The wait
     * is split in two: while the last worker still ticked (the edge's work
     * fell unevenly) and from then until thread 0 saw it done (hand-over). */
    struct edge_timing {
        uint64_t ticks_stamps, own_commit_stamps, wait_stamps, join_commit_stamps;
        uint64_t uneven_stamps, handover_stamps;
    } edge_timing;
    uint64_t release_stamp;
    /* sim_set_thread_timing: both clocks over the timed runs (sim_run), for
     * sim_thread_report to turn host stamps into ns */
    uint64_t timed_stamps, timed_ns;
    /* the hand-over, each on its own line: written by one thread as the
     * other spins on it */
    _Alignas(64) uint64_t phase_generation; /* atomic: bumped to start a parallel phase */
    _Alignas(64) uint32_t sleepers;         /* atomic: workers blocked on wake_workers */
    _Alignas(64) struct sim_adapt { /* adaptive_edge(): parallel or not, by host time */
        uint32_t phase;             /* 0: timing parallel edges, 1: serial, 2: using the winner */
        uint32_t left;              /* edges left in the phase */
        uint32_t exploit;           /* length of the last phase 2 */
        uint32_t decisions;         /* phase 2s begun this run */
        bool use_parallel;
        uint64_t ns[2], ticks[2];
        /* the edge being timed: host time runs from its start to the start
         * of the next edge, so the work every edge does outside
         * adaptive_edge (the serial edge's channel commits, the wake-ups,
         * the step's bookkeeping) is counted in the mode that caused it */
        bool timing;
        bool sample_pending;        /* adaptive_choose() timed this edge's mode */
        uint32_t timing_mode;
        uint64_t timing_start, timing_ticks;
        /* Phase 2: the units ticked per edge in the timed windows (ticks per
         * edge x ADAPT_BLOCK), and this block's so far: a block that ticks
         * ADAPT_CHANGE times more or fewer ends phase 2 (the run's work has
         * changed, and with it, perhaps, the faster mode). */
        bool block_pending;         /* adaptive_choose() counted this edge in the block */
        uint64_t timed_edges[2];
        uint64_t block_reference, block_ticks;
        uint32_t block_edges;
        uint64_t work_changes;      /* phase 2 stretches a block ended (read by the tests) */
    } adapt;

    /* totals */
    uint64_t steps, ticks;          /* the message totals are each thread's (sim_totals) */

    /* progress callback */
    sim_progress_fn progress_fn;
    void *progress_context;
    uint64_t progress_every;

    /* log */
    uint64_t log_counts[4];

    void (*memory_destroy)(void *memory);

    /* objects the units share that are no unit's state (sim_shared()); lock */
    struct sim_shared_object {
        char name[48];
        void *object;
        void (*destroy)(void *object);
    } *shared;
    uint32_t shared_count;
};

/* sim.c */
void sim_schedule(struct sim *sim, struct unit *u, uint64_t cycle);
/* The thread state a unit acts through: its own thread's during a parallel
 * phase, thread 0's otherwise. */
static inline struct sim_thread *sim_acting_thread(struct sim *sim, const struct unit *u)
{
    return sim->threads[sim->parallel_phase ? u->thread : 0];
}
/* The calling host thread's state (thread 0's outside a parallel phase). */
struct sim_thread *sim_calling_thread(struct sim *sim);
/* sim_schedule from a unit's tick: buffered during a parallel phase. */
void sim_schedule_from(struct sim *sim, struct sim_thread *t, struct unit *u, uint64_t cycle);
/* A unit moved something (watchdog). */
static inline void sim_note_progress(struct sim *sim, struct sim_thread *t)
{
    if (sim->parallel_phase)
        t->progress = true;
    else
        sim->last_progress_ps = sim->now_ps;
}
/* Lists ch, popped in the current step, in t's popped list (flush_popped
 * reads it), growing the list. */
void sim_note_popped(struct sim_thread *t, struct channel *ch);
/* sim_note_popped when t's list has room (the common pop makes no call);
 * false, listing nothing, when it is full. */
static inline bool sim_note_popped_in_room(struct sim_thread *t, struct channel *ch)
{
    if (t->popped_count == t->popped_capacity)
        return false;
    t->popped[t->popped_count++] = ch;
    ch->popped_listed = true;
    return true;
}
/* Clock edges ticked on several host threads so far (for tests; not a stat,
 * as it depends on the thread count and on host time). */
uint64_t sim_parallel_edges(const struct sim *sim);
uint64_t sim_domain_cycle_after(const struct sim *sim, uint32_t domain, uint64_t time_ps);

/* port.c */
void channel_destroy(struct sim *sim, struct channel *ch);
uint32_t channel_occupancy(const struct channel *ch);

/* msg.c */
void msg_pools_destroy(struct sim *sim);
/* serial: refill pools of thread 0 and of the workers in mask `workers` from spares */
void msg_pools_balance(struct sim *sim, uint64_t workers);
bool msg_pools_unbalanced(const struct sim *sim, const struct sim_thread *t);
int64_t msg_live(const struct sim *sim);

/* unit.c */
void unit_destroy_instance(struct unit *u);
int unit_set_param_text(struct unit *u, const char *path, const char *value, struct gt_error *err);

/* trace.c hooks (no-ops when no trace is attached) */
void trace_unit_tick(struct trace *t, const struct sim *sim, struct unit *u, uint64_t cycle);
void trace_message(struct trace *t, const struct sim *sim, const struct channel *ch,
                   const struct msg *m);
void trace_flush_units(struct trace *t, struct sim *sim);

#endif
