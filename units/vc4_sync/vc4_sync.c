/* units/vc4_sync/vc4_sync.c - semaphores and the mutex; see vc4_sync.h. */
#include "units/vc4_sync/vc4_sync.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "units/common/vc4_io.h"

#define SYNC_MAX_WAITERS 64

struct waiter {
    uint32_t port;          /* index of the QPU's port */
    uint32_t op;            /* QPU_IO_SEMAPHORE or QPU_IO_READ (mutex) */
    uint32_t number;        /* semaphore */
    uint32_t decrement;
    uint32_t file_b;        /* mutex: the space read */
    uint32_t qpu;
    uint32_t tag;
};

struct vc4_sync {
    /* params */
    uint32_t latency;
    /* ports */
    struct port **in, **out;
    uint32_t ins, outs;
    /* state */
    uint8_t count[VC4_SEMAPHORES];
    bool mutex_held;
    uint32_t mutex_holder;  /* port index */
    struct waiter wait[SYNC_MAX_WAITERS];
    uint32_t waiting;
    struct reply_queue replies;
    /* stats */
    uint64_t increments, decrements, semaphore_waits, acquires, mutex_waits, bad_releases;
    uint64_t bad_messages, reply_stalls, overflow;
};

static const struct param_desc sync_params[] = {
    PARAM_U32_FIELD("latency", struct vc4_sync, latency, 1, 1, 10000,
                    "cycles from a grant to its answer leaving (the seed gives none)"),
    PARAM_END
};

static const struct port_desc sync_ports[] = {
    { .name = "qpu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "semaphore and mutex accesses of each QPU" },
    { .name = "result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "grants to the QPU of the same index" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_sync, f, m, h)
static const struct stat_desc sync_stats[] = {
    C("semaphore_increments", increments, "operations", "semaphore increments granted"),
    C("semaphore_decrements", decrements, "operations", "semaphore decrements granted"),
    C("semaphore_waits", semaphore_waits, "operations",
      "semaphore operations that had to wait (count at 0 or 15)"),
    C("mutex_acquires", acquires, "operations", "mutex grants"),
    C("mutex_waits", mutex_waits, "operations", "acquires that had to wait"),
    C("bad_releases", bad_releases, "operations", "releases by a QPU not holding the mutex"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("waiter_overflow", overflow, "operations",
      "requests beyond the waiter table (answered at once, counted)"),
    C("reply_stalls", reply_stalls, "events", "answers held by a full channel"),
    STAT_END
};
#undef C

static void answer(struct vc4_sync *s, struct unit *u, const struct waiter *w)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof(struct qpu_io_result));
    struct qpu_io_result *r = (struct qpu_io_result *)m->payload;
    r->reg = w->op == QPU_IO_SEMAPHORE ? w->number : QPU_IO_MUTEX;
    r->qpu = w->qpu;
    for (unsigned i = 0; i < QPU_LANES; i++)
        r->value[i] = w->file_b ? w->qpu : i;
    m->tag = w->tag;
    reply_queue_push(&s->replies, unit_cycle(u) + s->latency, w->port, m, NULL);
}

/* Grants w if it can go now. */
static bool try_grant(struct vc4_sync *s, struct unit *u, const struct waiter *w)
{
    if (w->op == QPU_IO_SEMAPHORE) {
        uint8_t *c = &s->count[w->number];
        if (w->decrement ? *c == 0 : *c == 15)
            return false;
        if (w->decrement) {
            (*c)--;
            s->decrements++;
        } else {
            (*c)++;
            s->increments++;
        }
    } else {
        if (s->mutex_held)
            return false;
        s->mutex_held = true;
        s->mutex_holder = w->port;
        s->acquires++;
    }
    answer(s, u, w);
    return true;
}

/* Serves waiters in arrival order until none can go. */
static void retry(struct vc4_sync *s, struct unit *u)
{
    bool progress = true;
    while (progress) {
        progress = false;
        for (uint32_t i = 0; i < s->waiting; i++)
            if (try_grant(s, u, &s->wait[i])) {
                memmove(&s->wait[i], &s->wait[i + 1], (s->waiting - i - 1) * sizeof s->wait[0]);
                s->waiting--;
                progress = true;
                break;
            }
    }
}

static void take(struct vc4_sync *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r) {
        s->bad_messages++;
        return;
    }
    struct waiter w = { .port = port, .op = r->op, .number = r->reg & 15,
                        .decrement = r->value[0] & 1, .file_b = r->file_b, .qpu = r->qpu,
                        .tag = m->tag };
    if (r->op == QPU_IO_WRITE && r->reg == QPU_IO_MUTEX) {
        if (!s->mutex_held || s->mutex_holder != port) {
            s->bad_releases++;
            unit_log(u, SIM_LOG_NOTE, "QPU %u releases a mutex it does not hold (ignored)",
                     r->qpu);
            return;
        }
        s->mutex_held = false;
        retry(s, u);
        return;
    }
    if (!(r->op == QPU_IO_SEMAPHORE && r->reg < VC4_SEMAPHORES) &&
        !(r->op == QPU_IO_READ && r->reg == QPU_IO_MUTEX)) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "not a semaphore or mutex access from qpu[%u] (dropped)", port);
        return;
    }
    /* earlier waiters of the same operation on the same semaphore, or of the mutex, go first */
    bool queued_before = false;
    for (uint32_t i = 0; i < s->waiting; i++)
        if (s->wait[i].op == w.op &&
            (w.op != QPU_IO_SEMAPHORE ||
             (s->wait[i].number == w.number && s->wait[i].decrement == w.decrement)))
            queued_before = true;
    if (!queued_before && try_grant(s, u, &w)) {
        retry(s, u);
        return;
    }
    if (w.op == QPU_IO_SEMAPHORE)
        s->semaphore_waits++;
    else
        s->mutex_waits++;
    if (s->waiting >= SYNC_MAX_WAITERS) {
        s->overflow++;
        answer(s, u, &w);
        return;
    }
    s->wait[s->waiting++] = w;
}

static int sync_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct vc4_sync *s = unit_state(u);
    s->in = unit_port_array(u, "qpu", &s->ins);
    s->out = unit_port_array(u, "result", &s->outs);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->outs, .stall_count = &s->reply_stalls });
    return 0;
}

static void sync_reset(struct unit *u)
{
    struct vc4_sync *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    memset(s->count, 0, sizeof s->count);
    s->mutex_held = false;
    s->waiting = 0;
}

static enum unit_activity sync_tick(struct unit *u)
{
    struct vc4_sync *s = unit_state(u);
    struct msg *m;
    for (uint32_t q = 0; q < s->ins; q++)
        while (s->in[q] && (m = port_pop(s->in[q])) != NULL) {
            take(s, u, q, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void sync_destroy(struct unit *u)
{
    struct vc4_sync *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
}

const struct unit_ops vc4_sync_ops = {
    .kind = "vc4_sync",
    .help = "VideoCore IV QPU synchronisation: 16 counting semaphores (0..15) and the mutex "
            "(seed 002 @61295, @67887, Fig 6 @83883).",
    .state_size = sizeof(struct vc4_sync),
    .params = sync_params,
    .ports = sync_ports,
    .stats = sync_stats,
    .realize = sync_realize,
    .reset = sync_reset,
    .tick = sync_tick,
    .destroy = sync_destroy,
};
