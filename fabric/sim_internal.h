/* fabric/sim_internal.h - the kernel's own structures, shared by the fabric's
 * .c files only. Units never include this: they use fabric/unit.h and
 * fabric/port.h. */
#ifndef GTSIM_FABRIC_SIM_INTERNAL_H
#define GTSIM_FABRIC_SIM_INTERNAL_H

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

#define MSG_POOL_CLASSES 6      /* payload 64, 256, 1 Ki, 4 Ki, 16 Ki, 64 Ki; larger: malloc */

/* A request to tick a unit on a cycle of its domain. */
struct wake {
    struct wake *next;
    uint64_t cycle;
    struct unit *unit;
};

struct wake_heap {              /* wakes beyond the wheel, ordered by cycle */
    struct wake **items;
    uint32_t count, size;
};

struct clock_domain {
    char name[32];
    uint64_t period_ps;
    uint64_t cycle;             /* the edge being or last processed */
    uint64_t next_unprocessed;  /* the first edge wakes may still go to */
    uint32_t wheel_count;       /* wakes in the wheel */
    struct wake *slots[WHEEL_SLOTS];
    uint64_t occupied[WHEEL_WORDS];
    struct wake_heap overflow;
    uint64_t edges;             /* edges processed (with work) */
    uint64_t pending_cycle, pending_time;   /* next edge with work, from next_event_time() */
};

struct channel {
    struct port *from, *to;     /* from is NULL for a backdoor injection channel */
    struct link_params link;
    struct msg **ring;
    uint64_t *arrival;          /* receiver cycle each message becomes visible */
    uint32_t mask;
    uint32_t head, tail;        /* free-running */
    uint64_t pop_time_ps, send_time_ps, stall_time_ps;
    uint32_t pops_at_pop_time;
    uint32_t sends_at_send_time;
    bool sender_waiting;        /* a send failed for want of space */
    /* counters, reported under the sending port */
    uint64_t sent, stall_full, stall_width, peak_occupancy;
};

struct port {
    struct unit *owner;
    char *name;
    uint32_t index;
    enum port_direction direction;
    unsigned flags;
    struct channel *channel;
    const struct port_desc *desc;   /* NULL for ports made by a port() op */
    uint32_t msg_kinds;             /* desc->msg_kinds (0: any), for the checks */
    bool warned_kind;               /* an undeclared kind sent on it was logged */
    uint64_t received;              /* input: messages popped */
    uint64_t unbound_sends;         /* output: sends attempted while unbound */
    struct port_observer {          /* called in the order they were added */
        port_observer_fn fn;
        void *context;
    } observers[PORT_MAX_OBSERVERS];
    uint32_t observer_count;
    struct port *next_in_unit;
};

/* An array of ports made by unit_port_array(). */
struct port_array {
    struct port **ports;
    struct port_array *next;
};

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
    /* scheduling */
    uint64_t ready_stamp;           /* cycle + 1 of the edge it is queued to tick on */
    uint64_t last_wake_request;     /* cycle + 1 of the latest wake asked for */
    /* fabric counters */
    uint64_t ticks, busy_ticks;
    /* trace: the current span of consecutive active cycles */
    uint64_t span_start, span_end;  /* cycle + 1; 0 = no span */
    bool created, realized;
    struct unit *host;              /* an inner unit's host (unit_create_inner), else NULL */
    struct unit *inner;             /* the first unit this one runs inside it, else NULL */
};

struct msg_pool_class {
    struct msg *free;
    uint32_t payload;
    uint64_t allocated;             /* messages ever carved for this class */
};

struct sim {
    struct sim_options options;
    struct clock_domain **domains;
    uint32_t domain_count;

    struct unit **units;
    uint32_t unit_count, unit_capacity;

    struct channel **channels;
    uint32_t channel_count, channel_capacity;

    /* scheduling */
    uint64_t now_ps;
    struct wake *free_wakes;
    void **wake_blocks;             /* blocks the wakes were carved from */
    uint32_t wake_block_count, wake_block_capacity;
    struct unit **ready;
    uint32_t ready_count, ready_capacity;
    uint64_t shuffle_state;
    bool stop_requested;
    enum sim_stop_reason stop_reason;
    uint64_t last_progress_ps;
    uint64_t watchdog_ps;
    char *deadlock_report;

    /* messages */
    struct msg_pool_class pools[MSG_POOL_CLASSES];
    void **msg_blocks;
    uint32_t msg_block_count, msg_block_capacity;
    uint64_t next_msg_id;
    uint64_t messages_live, messages_peak, pool_bytes;

    /* totals */
    uint64_t steps, ticks, messages_sent, messages_delivered, stalls;
    uint64_t undeclared_sends;      /* sends of a kind the port does not declare */

    /* progress callback */
    sim_progress_fn progress_fn;
    void *progress_context;
    uint64_t progress_every;

    /* log */
    uint64_t log_counts[4];

    struct trace *trace;
    void *memory;
    void (*memory_destroy)(void *memory);
};

/* sim.c */
void sim_schedule(struct sim *sim, struct unit *u, uint64_t cycle);
uint64_t sim_domain_cycle_after(const struct sim *sim, uint32_t domain, uint64_t time_ps);

/* port.c */
void channel_destroy(struct sim *sim, struct channel *ch);
uint32_t channel_occupancy(const struct channel *ch);

/* msg.c */
void msg_pools_destroy(struct sim *sim);

/* unit.c */
void unit_destroy_instance(struct unit *u);
int unit_set_param_text(struct unit *u, const char *path, const char *value, struct gt_error *err);

/* trace.c hooks (no-ops when no trace is attached) */
void trace_unit_tick(struct trace *t, const struct sim *sim, struct unit *u, uint64_t cycle);
void trace_message(struct trace *t, const struct sim *sim, const struct channel *ch,
                   const struct msg *m);
void trace_flush_units(struct trace *t, struct sim *sim);

#endif
