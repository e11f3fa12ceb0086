/* units/td/td.c - see td.h. */
#include "units/td/td.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"
#include "units/common/thread_msg.h"

#define TD_MAX_EUS 64

static const char *const stage_ports[] = { "vs", "hs", "ds", "gs", "sf", "clip", "wm", "vfe", "cs" };
#define TD_STAGES (sizeof stage_ports / sizeof stage_ports[0])

struct td_req {
    struct msg *m;
    uint64_t arrival;
    uint64_t seq;
    uint8_t priority;
};

struct td {
    /* params */
    uint32_t eus, threads_per_eu, queue_depth, dispatch_per_cycle;
    char eu_choice[PARAM_STRING_MAX];
    bool round_robin;
    uint32_t next_eu;
    /* ports */
    struct port *stage[TD_STAGES];
    struct port **eu_out, **eu_end;
    /* state */
    struct td_req *queue;
    uint32_t queued;
    uint32_t *outstanding;
    uint64_t seq;
    uint32_t next_generic;
    uint64_t last_account, total_outstanding;
    /* stats */
    uint64_t requests, dispatched, thread_ends, queue_wait, queue_peak, no_slot_cycles;
    uint64_t thread_cycles, bad_messages, generic_forwarded;
};

static const struct param_desc td_params[] = {
    PARAM_U32_FIELD("eus", struct td, eus, 8, 1, TD_MAX_EUS, "EUs this dispatcher feeds"),
    PARAM_U32_FIELD("threads_per_eu", struct td, threads_per_eu, 7, 1, 16,
                    "thread slots per EU (must match the EUs' `threads`)"),
    PARAM_U32_FIELD("queue_depth", struct td, queue_depth, 16, 1, 4096,
                    "dispatch requests waiting at most"),
    PARAM_U32_FIELD("dispatch_per_cycle", struct td, dispatch_per_cycle, 1, 1, 64,
                    "threads dispatched per cycle at most"),
    PARAM_STRING_FIELD("eu_choice", struct td, eu_choice, "most_free",
                       "which EU gets the next thread: \"most_free\" (most free slots, lowest "
                       "index among equals) or \"round_robin\" (the next EU with a free slot)"),
    PARAM_END
};

/* Thread requests; generic (test) traffic is passed on to the EUs. */
#define TD_REQUEST_KINDS (MSG_BIT(MSG_THREAD_DISPATCH) | MSG_BIT(MSG_GENERIC))

static const struct port_desc td_ports[] = {
    { .name = "vs", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "vertex shader requests" },
    { .name = "hs", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "hull shader requests" },
    { .name = "ds", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "domain shader requests" },
    { .name = "gs", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "geometry shader requests" },
    { .name = "sf", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "setup thread requests" },
    { .name = "clip", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "clip thread requests" },
    { .name = "wm", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "pixel shader requests" },
    { .name = "vfe", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "media/GPGPU requests" },
    { .name = "cs", .direction = PORT_IN, .msg_kinds = TD_REQUEST_KINDS,
      .flags = PORT_OPTIONAL, .help = "other requests" },
    { .name = "eu_end", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .count_param = "eus", .flags = PORT_OPTIONAL,
      .help = "thread-end messages from each EU" },
    { .name = "eu", .direction = PORT_OUT, .msg_kinds = TD_REQUEST_KINDS,
      .count_param = "eus", .flags = PORT_OPTIONAL,
      .help = "dispatches to each EU" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct td, f, m, h)
static const struct stat_desc td_stats[] = {
    C("requests", requests, "requests", "dispatch requests taken"),
    C("dispatched", dispatched, "threads", "threads dispatched to EUs"),
    C("thread_ends", thread_ends, "threads", "thread-end messages received"),
    C("queue_wait", queue_wait, "cycles", "cycles requests waited, summed over dispatched requests"),
    STAT_LEVEL_FIELD("queue_peak", struct td, queue_peak, "requests", "most requests waiting at once"),
    C("no_slot_cycles", no_slot_cycles, "cycles", "cycles a request waited because no EU had a free slot"),
    C("thread_cycles", thread_cycles, "thread-cycles", "threads outstanding summed over cycles"),
    C("bad_messages", bad_messages, "messages", "malformed or unexpected messages (dropped)"),
    C("generic_forwarded", generic_forwarded, "messages", "generic messages passed to the EUs"),
    STAT_END
};
#undef C

static void account(struct td *s, struct unit *u)
{
    uint64_t now = unit_cycle(u);
    if (now > s->last_account)
        s->thread_cycles += (now - s->last_account) * s->total_outstanding;
    s->last_account = now;
}

static int td_realize(struct unit *u, struct gt_error *err)
{
    struct td *s = unit_state(u);
    if (strcmp(s->eu_choice, "most_free") == 0) {
        s->round_robin = false;
    } else if (strcmp(s->eu_choice, "round_robin") == 0) {
        s->round_robin = true;
    } else {
        gt_error_set(err, "eu_choice must be \"most_free\" or \"round_robin\", not \"%s\"",
                     s->eu_choice);
        return -1;
    }
    for (unsigned i = 0; i < TD_STAGES; i++)
        s->stage[i] = unit_port(u, stage_ports[i], 0);
    s->eu_out = unit_port_array(u, "eu", NULL);         /* `eus` of each */
    s->eu_end = unit_port_array(u, "eu_end", NULL);
    return 0;
}

static void td_release(struct td *s, struct unit *u)
{
    if (s->queue)
        for (uint32_t i = 0; i < s->queued; i++)
            msg_free(unit_sim(u), s->queue[i].m);
    free(s->queue);
    free(s->outstanding);
    s->queue = NULL;
    s->outstanding = NULL;
    s->queued = 0;
}

static void td_reset(struct unit *u)
{
    struct td *s = unit_state(u);
    td_release(s, u);
    s->queue = gt_xcalloc(s->queue_depth, sizeof *s->queue);
    s->outstanding = gt_xcalloc(s->eus, sizeof *s->outstanding);
    s->seq = 0;
    s->next_eu = 0;
    s->next_generic = 0;
    s->last_account = 0;
    s->total_outstanding = 0;
}

/* Passes a generic message to the next EU output that can take it. */
static bool forward_generic(struct td *s, struct msg *m)
{
    for (uint32_t k = 0; k < s->eus; k++) {
        uint32_t e = (s->next_generic + k) % s->eus;
        if (!port_is_bound(s->eu_out[e]))
            continue;
        if (!port_can_send(s->eu_out[e]))
            return false;
        port_try_send(s->eu_out[e], m);
        s->next_generic = (e + 1) % s->eus;
        s->generic_forwarded++;
        return true;
    }
    return false;
}

static enum unit_activity td_tick(struct unit *u)
{
    struct td *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    uint64_t now = unit_cycle(u);
    account(s, u);
    /* thread ends */
    for (uint32_t e = 0; e < s->eus; e++) {
        struct msg *m;
        while (s->eu_end[e] && (m = port_pop(s->eu_end[e])) != NULL) {
            const struct eu_thread_end *t = (const struct eu_thread_end *)m->payload;
            if (m->kind == MSG_THREAD_DISPATCH && m->size >= sizeof *t &&
                t->op == EU_TD_THREAD_END && s->outstanding[e] > 0) {
                s->outstanding[e]--;
                s->total_outstanding--;
                s->thread_ends++;
            } else {
                s->bad_messages++;
                unit_log(u, SIM_LOG_NOTE, "unexpected message on eu_end[%u] dropped", e);
            }
            msg_free(sim, m);
        }
    }
    /* requests from the stages */
    bool blocked_generic = false;
    for (unsigned p = 0; p < TD_STAGES; p++) {
        struct port *in = s->stage[p];
        struct msg *m;
        while (in && (m = port_peek(in)) != NULL) {
            if (m->kind == MSG_GENERIC) {
                if (!forward_generic(s, m)) {
                    blocked_generic = true;
                    break;
                }
                port_pop(in);
                continue;
            }
            const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
            if (m->kind != MSG_THREAD_DISPATCH || m->size < sizeof *d || d->op != EU_TD_DISPATCH) {
                port_pop(in);
                s->bad_messages++;
                unit_log(u, SIM_LOG_NOTE, "unexpected %s message on %s dropped",
                         msg_kind_name(m->kind), stage_ports[p]);
                msg_free(sim, m);
                continue;
            }
            if (s->queued == s->queue_depth)
                break;                  /* full: the stage's channel holds it */
            port_pop(in);
            s->requests++;
            s->queue[s->queued++] = (struct td_req){ m, now, s->seq++, d->priority };
            if (s->queued > s->queue_peak)
                s->queue_peak = s->queued;
        }
    }
    /* dispatch: priority, then age; to the EU with the most free slots */
    uint32_t budget = s->dispatch_per_cycle;
    bool waited_for_slot = false;
    while (budget && s->queued) {
        uint32_t best = 0;
        for (uint32_t i = 1; i < s->queued; i++) {
            const struct td_req *a = &s->queue[i], *b = &s->queue[best];
            if (a->priority > b->priority || (a->priority == b->priority && a->seq < b->seq))
                best = i;
        }
        int eu = -1;
        uint32_t most = 0;
        for (uint32_t k = 0; k < s->eus; k++) {
            uint32_t e = s->round_robin ? (s->next_eu + k) % s->eus : k;
            if (!port_is_bound(s->eu_out[e]) || s->outstanding[e] >= s->threads_per_eu)
                continue;
            uint32_t free_slots = s->threads_per_eu - s->outstanding[e];
            if (s->round_robin) {
                eu = (int)e;
                break;
            }
            if (free_slots > most) {
                most = free_slots;
                eu = (int)e;
            }
        }
        if (eu < 0) {
            waited_for_slot = true;
            s->no_slot_cycles++;
            break;
        }
        if (!port_can_send(s->eu_out[eu]))
            break;
        struct td_req r = s->queue[best];
        memmove(&s->queue[best], &s->queue[best + 1], (s->queued - best - 1) * sizeof *s->queue);
        s->queued--;
        ((struct eu_dispatch *)r.m->payload)->eu = (uint16_t)eu;
        port_try_send(s->eu_out[eu], r.m);
        s->next_eu = ((uint32_t)eu + 1) % s->eus;
        s->outstanding[eu]++;
        s->total_outstanding++;
        s->dispatched++;
        s->queue_wait += now - r.arrival;
        budget--;
    }
    (void)waited_for_slot;
    /* Waiting on a slot or a full EU channel: a thread end or the freed
     * channel wakes the TD. */
    if (budget == 0 && s->queued)
        return UNIT_BUSY;
    if (!blocked_generic && s->queued < s->queue_depth)
        for (unsigned p = 0; p < TD_STAGES; p++)
            if (s->stage[p] && port_peek(s->stage[p]))
                return UNIT_BUSY;
    return UNIT_IDLE;
}

static void td_destroy(struct unit *u)
{
    td_release(unit_state(u), u);
}

const struct unit_ops td_ops = {
    .kind = "td",
    .help = "Thread dispatcher of a subslice (seed 003 L18415): queues dispatch requests from "
            "the stages, picks an EU with a free slot (learned from the EUs' thread-end "
            "messages) by priority then age, and delivers the payload.",
    .state_size = sizeof(struct td),
    .params = td_params,
    .ports = td_ports,
    .stats = td_stats,
    .realize = td_realize,
    .reset = td_reset,
    .tick = td_tick,
    .destroy = td_destroy,
};
