/* fabric/port.c - channels between ports: latency, capacity, width,
 * back-pressure, and the two-phase rules described in port.h. */
#include "fabric/port.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim_internal.h"

#define MAX_LATENCY 1000000u
#define MAX_CAPACITY (1u << 20)
#define INJECT_CAPACITY 1024u

static uint32_t round_up_pow2(uint32_t v)
{
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* The bit of unit.queued_ports that the 64th and later input channels share. */
#define QUEUED_SHARED_BIT 63

static struct channel *channel_new(struct sim *sim, struct port *out, struct port *in,
                                   const struct link_params *link)
{
    struct channel *ch = gt_xaligned_calloc(64, sizeof *ch);  /* sim_internal.h */
    ch->from = out;
    ch->to = in;
    ch->receiver = in->owner;
    if (!out)
        in->owner->queued_shared = true;        /* a backdoor: any thread may inject */
    uint32_t k = in->owner->inputs_bound++;
    ch->queued_bit = in->queued_bit = UINT64_C(1) << (k < QUEUED_SHARED_BIT ? k : QUEUED_SHARED_BIT);
    ch->same_domain = out && out->owner->domain == in->owner->domain;
    ch->link = *link;
    uint32_t slots = round_up_pow2(link->capacity);
    ch->ring = gt_xcalloc(slots, sizeof *ch->ring);
    ch->mask = slots - 1;
    ch->pop_time_ps = ch->send_time_ps = ch->stall_time_ps = UINT64_MAX;
    if (sim->channel_count == sim->channel_capacity) {
        sim->channel_capacity = sim->channel_capacity ? 2 * sim->channel_capacity : 64;
        sim->channels = gt_xrealloc(sim->channels, sim->channel_capacity * sizeof *sim->channels);
    }
    sim->channels[sim->channel_count++] = ch;
    if (out)
        out->channel = ch;
    in->channel = ch;
    return ch;
}

void channel_destroy(struct sim *sim, struct channel *ch)
{
    for (uint32_t i = ch->head; i != ch->tail; i++)
        msg_free(sim, ch->ring[i & ch->mask].msg);
    free(ch->ring);
    free(ch);
}

uint32_t channel_occupancy(const struct channel *ch)
{
    return ch->tail - ch->head;
}

int sim_connect(struct sim *sim, struct port *out, struct port *in,
                const struct link_params *link, struct gt_error *err)
{
    if (!out || !in)
        return gt_error_set(err, "connect: missing port");
    if (out->direction != PORT_OUT)
        return gt_error_set(err, "%s.%s[%u] is an input port; a link starts at an output",
                            out->owner->name, out->name, out->index);
    if (in->direction != PORT_IN)
        return gt_error_set(err, "%s.%s[%u] is an output port; a link ends at an input",
                            in->owner->name, in->name, in->index);
    if (out->channel)
        return gt_error_set(err, "%s.%s[%u] is already linked", out->owner->name, out->name,
                            out->index);
    if (in->channel)
        return gt_error_set(err, "%s.%s[%u] is already linked", in->owner->name, in->name,
                            in->index);
    if (link->latency < 1 || link->latency > MAX_LATENCY)
        return gt_error_set(err, "latency %u out of range 1..%u cycles", link->latency,
                            MAX_LATENCY);
    if (link->capacity < 1 || link->capacity > MAX_CAPACITY)
        return gt_error_set(err, "capacity %u out of range 1..%u messages", link->capacity,
                            MAX_CAPACITY);
    if (link->width < 1 || link->width > link->capacity)
        return gt_error_set(err, "width %u out of range 1..capacity (%u)", link->width,
                            link->capacity);
    if (out->owner->sim != sim || in->owner->sim != sim)
        return gt_error_set(err, "connect: ports belong to another simulation");
    if (out->msg_kinds && in->msg_kinds && !(out->msg_kinds & in->msg_kinds)) {
        char sends[256], takes[256];
        return gt_error_set(err, "%s.%s[%u] sends %s but %s.%s[%u] takes %s: no message kind "
                            "in common", out->owner->name, out->name, out->index,
                            msg_kinds_text(out->msg_kinds, sends, sizeof sends),
                            in->owner->name, in->name, in->index,
                            msg_kinds_text(in->msg_kinds, takes, sizeof takes));
    }
    channel_new(sim, out, in, link);
    return 0;
}

static inline uint32_t load_tail(const struct channel *ch)
{
    return __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE);
}

static void note_stall(struct sim *sim, struct sim_thread *t, struct channel *ch, bool for_width)
{
    if (ch->stall_time_ps == sim->now_ps)
        return;                 /* one stall per cycle, however often the unit asks */
    ch->stall_time_ps = sim->now_ps;
    t->stalls++;
    if (for_width)
        ch->stall_width++;
    else
        ch->stall_full++;
}

/* Whether the sender may send now; arranges its wake-up when it may not. */
static inline __attribute__((always_inline)) bool channel_admits(struct sim *sim,
                                                                 struct sim_thread *t,
                                                                 struct channel *ch)
{
    struct unit *sender = ch->from->owner;
    if (sim->parallel_phase) {
        /* The receiver may be popping on another thread: the space is what
         * it was when the step began (the same answer as below). A blocked
         * sender is woken when the step ends if the receiver popped in it
         * (sim.c, end of step), else by the receiver's next pop. */
        if (ch->tail - ch->head_start >= ch->link.capacity) {
            note_stall(sim, t, ch, false);
            ch->sender_waiting = true;
            return false;
        }
    } else {
        uint32_t occupancy = ch->tail - ch->head;
        bool popped_now = ch->pop_time_ps == sim->now_ps;
        /* Space freed by pops during this cycle is not usable until the next one,
         * whichever of sender and receiver ticked first. */
        if (popped_now)
            occupancy += ch->pops_at_pop_time;
        if (occupancy >= ch->link.capacity) {
            note_stall(sim, t, ch, false);
            if (popped_now)
                sim_schedule(sim, sender, sender->sim->domains[sender->domain]->cycle + 1);
            else
                ch->sender_waiting = true;
            return false;
        }
    }
    if (ch->send_time_ps == sim->now_ps && ch->sends_at_send_time >= ch->link.width) {
        note_stall(sim, t, ch, true);
        sim_schedule_from(sim, t, sender, sender->sim->domains[sender->domain]->cycle + 1);
        return false;
    }
    return true;
}

bool port_can_send(struct port *out)
{
    struct channel *ch = out->channel;
    if (!ch)
        return false;
    struct sim *sim = out->owner->sim;
    return channel_admits(sim, sim_acting_thread(sim, out->owner), ch);
}

/* u->queued_ports changes atomically only when another host thread may
 * change it at the same time (struct unit.queued_shared). Outside a parallel
 * phase one thread runs, and the workers' last writes were ordered before it
 * by the join. */
static inline bool queued_atomic(const struct sim *sim, const struct unit *u)
{
    return sim->parallel_phase && u->queued_shared;
}

static inline void queued_set(const struct sim *sim, struct unit *u, uint64_t bits)
{
    if (queued_atomic(sim, u))
        __atomic_fetch_or(&u->queued_ports, bits, __ATOMIC_ACQ_REL);
    else
        __atomic_store_n(&u->queued_ports,
                         __atomic_load_n(&u->queued_ports, __ATOMIC_RELAXED) | bits,
                         __ATOMIC_RELAXED);
}

static inline void queued_clear(const struct sim *sim, struct unit *u, uint64_t bits)
{
    if (queued_atomic(sim, u))
        __atomic_fetch_and(&u->queued_ports, ~bits, __ATOMIC_ACQ_REL);
    else
        __atomic_store_n(&u->queued_ports,
                         __atomic_load_n(&u->queued_ports, __ATOMIC_RELAXED) & ~bits,
                         __ATOMIC_RELAXED);
}

static void channel_push(struct sim *sim, struct sim_thread *t, struct channel *ch,
                         struct msg *m, uint64_t arrival)
{
    uint32_t tail = ch->tail;
    uint32_t slot = tail & ch->mask;
    ch->ring[slot] = (struct channel_slot){ m, arrival };
    /* Published after the slot: a receiver on another thread that sees the
     * new tail sees the message (which is not visible before `arrival`). */
    __atomic_store_n(&ch->tail, tail + 1, __ATOMIC_RELEASE);
    /* Counted as the sender sees it (pops of this cycle still occupy), so
     * the figure does not depend on tick order. */
    uint32_t occupancy;
    if (sim->parallel_phase) {
        occupancy = tail + 1 - ch->head_start;
    } else {
        occupancy = tail + 1 - ch->head;
        if (ch->pop_time_ps == sim->now_ps)
            occupancy += ch->pops_at_pop_time;
    }
    if (occupancy > ch->peak_occupancy)
        ch->peak_occupancy = occupancy;
    /* after the tail: a receiver that clears the bit as this channel empties
     * then sees the new tail, or the bit is set again after its clear */
    queued_set(sim, ch->receiver, ch->queued_bit);
    sim_schedule_from(sim, t, ch->receiver, arrival);
}

/* A unit sent a kind its port does not declare: a model bug, logged once per
 * port and counted (sim_undeclared_sends). */
static void undeclared_send(struct sim_thread *t, struct port *out,
                            const struct msg *m)
{
    t->undeclared_sends++;
    if (out->warned_kind)
        return;
    out->warned_kind = true;
    char declared[256];
    unit_log(out->owner, SIM_LOG_WARNING, "sends a %s message on %s[%u], which declares %s",
             msg_kind_name(m->kind), out->name, out->index,
             msg_kinds_text(out->msg_kinds, declared, sizeof declared));
}

bool port_try_send(struct port *out, struct msg *m)
{
    struct channel *ch = out->channel;
    struct unit *sender = out->owner;
    struct sim *sim = sender->sim;
    struct sim_thread *t = sim_acting_thread(sim, sender);
    if (ch && !channel_admits(sim, t, ch))
        return false;
    /* counted once per message offered to an unbound port or taken by a
     * channel: not again for each refused offer of it */
    if (out->msg_kinds && !(out->msg_kinds & MSG_BIT(m->kind)))
        undeclared_send(t, out, m);
    if (!ch) {
        out->unbound_sends++;
        return false;
    }
    if (ch->send_time_ps != sim->now_ps) {
        ch->send_time_ps = sim->now_ps;
        ch->sends_at_send_time = 0;
    }
    ch->sends_at_send_time++;
    /* Visible on the first receiver edge after now, plus latency - 1 edges
     * (within one clock domain: the sender's cycle plus latency). */
    uint64_t arrival = ch->same_domain
                     ? sim->domains[sender->domain]->cycle + ch->link.latency
                     : sim_domain_cycle_after(sim, ch->receiver->domain, sim->now_ps)
                       + ch->link.latency - 1;
    m->source = sender->id;
    ch->sent++;
    t->messages_sent++;
    sim_note_progress(sim, t);
    if (sim->trace)
        trace_message(sim->trace, sim, ch, m);
    for (uint32_t i = 0; i < out->observer_count; i++)
        out->observers[i].fn(out->observers[i].context, out, m,
                             sim->domains[sender->domain]->cycle);
    channel_push(sim, t, ch, m, arrival);
    return true;
}

static inline bool head_visible(const struct channel *ch, const struct unit *receiver)
{
    return ch->head != load_tail(ch) &&
           ch->ring[ch->head & ch->mask].arrival <=
               receiver->sim->domains[receiver->domain]->cycle;
}

/* Whether the input's channel may hold a message (its queued bit is set);
 * false for an unbound port. A message another host thread sends during a
 * parallel step arrives on a later cycle, so reading the bit before or after
 * that send changes no answer of a poll. */
static inline bool maybe_queued(const struct port *in)
{
    return __atomic_load_n(&in->owner->queued_ports, __ATOMIC_RELAXED) & in->queued_bit;
}

struct msg *port_peek(const struct port *in)
{
    if (!maybe_queued(in))
        return NULL;
    const struct channel *ch = in->channel;
    if (!head_visible(ch, in->owner))
        return NULL;
    return ch->ring[ch->head & ch->mask].msg;
}

struct msg *port_peek_at(const struct port *in, uint32_t n)
{
    const struct channel *ch = in->channel;
    if (!ch)
        return NULL;
    uint32_t i = ch->head + n;
    if (i - ch->head >= load_tail(ch) - ch->head ||
        ch->ring[i & ch->mask].arrival > in->owner->sim->domains[in->owner->domain]->cycle)
        return NULL;
    return ch->ring[i & ch->mask].msg;
}

/* Whether some input channel of u with bit `bit` holds a message. */
static bool bit_has_messages(const struct unit *u, uint64_t bit)
{
    for (const struct port *p = u->ports; p; p = p->next_in_unit)
        if (p->queued_bit == bit && p->channel->head != load_tail(p->channel))
            return true;
    return false;
}

/* ch, an input of u, is empty: its bit is cleared, unless a sender on
 * another host thread has just added a message (its set comes after its
 * tail), or, for the bit the 64th and later channels share, another of
 * them holds one. */
static void clear_queued_bit(const struct sim *sim, struct unit *u, const struct channel *ch)
{
    queued_clear(sim, u, ch->queued_bit);
    bool shared = ch->queued_bit == UINT64_C(1) << QUEUED_SHARED_BIT;
    if (ch->head != load_tail(ch) || (shared && bit_has_messages(u, ch->queued_bit)))
        queued_set(sim, u, ch->queued_bit);
}

/* What pop_visible leaves to pop_visible_rest (rare, or needing calls). */
enum {
    POP_CLEAR_QUEUED = 1u << 0,     /* emptied: the queued bit, by clear_queued_bit */
    POP_LIST = 1u << 1,             /* the popped list is full: grow it (sim_note_popped) */
    POP_OBSERVE = 1u << 2,          /* the input has observers */
    POP_WAKE_SENDER = 1u << 3,      /* a sender waits for the space */
};

static struct msg *__attribute__((noinline)) pop_visible_rest(struct port *in, struct channel *ch,
                                                            struct msg *m, uint32_t rest)
{
    struct sim *sim = in->owner->sim;
    if (rest & POP_CLEAR_QUEUED)
        clear_queued_bit(sim, in->owner, ch);
    if (rest & POP_LIST)
        sim_note_popped(sim_acting_thread(sim, in->owner), ch);
    if (rest & POP_OBSERVE)
        for (uint32_t i = 0; i < in->observer_count; i++)
            in->observers[i].fn(in->observers[i].context, in, m,
                                sim->domains[in->owner->domain]->cycle);
    if (rest & POP_WAKE_SENDER) {
        ch->sender_waiting = false;
        struct unit *sender = ch->from->owner;
        sim_schedule(sim, sender, ch->same_domain
                                      ? sim->domains[sender->domain]->cycle + 1
                                      : sim_domain_cycle_after(sim, sender->domain, sim->now_ps));
    }
    return m;
}

/* port_pop() once a message is visible, out of line: the common poll of an
 * empty input (an EU polls every write-back port each tick: ~7% of SGEMM in
 * port_pop) then pays no register saves; what it still pays (perf annotate)
 * is loading the port's and the channel's cache lines. The common pop makes
 * no call either: what needs one goes to pop_visible_rest, in a tail call
 * (issue 19: the saves and restores were a third of pop_visible's host
 * instructions). */
static struct msg *__attribute__((noinline)) pop_visible(struct port *in, struct channel *ch)
{
    struct sim *sim = in->owner->sim;
    struct sim_thread *t = sim_acting_thread(sim, in->owner);
    struct msg *m = ch->ring[ch->head & ch->mask].msg;
    uint32_t rest = 0;
    ch->head++;
    if (ch->head == load_tail(ch)) {
        /* emptied: a plain clear when no other thread can send on it now and
         * the bit is its own (clear_queued_bit otherwise) */
        if (queued_atomic(sim, in->owner) || ch->queued_bit == UINT64_C(1) << QUEUED_SHARED_BIT)
            rest |= POP_CLEAR_QUEUED;
        else
            queued_clear(sim, in->owner, ch->queued_bit);
    }
    if (ch->pop_time_ps != sim->now_ps) {
        ch->pop_time_ps = sim->now_ps;
        ch->pops_at_pop_time = 0;
    }
    if (!ch->popped_listed && !sim_note_popped_in_room(t, ch))
        rest |= POP_LIST;
    ch->pops_at_pop_time++;
    in->received++;
    t->messages_delivered++;
    sim_note_progress(sim, t);
    if (in->observer_count)
        rest |= POP_OBSERVE;
    /* In a parallel phase the sender may be setting sender_waiting on its
     * thread: the end of the step wakes it (sim.c). */
    if (!sim->parallel_phase && ch->sender_waiting)
        rest |= POP_WAKE_SENDER;
    if (rest)
        return pop_visible_rest(in, ch, m, rest);
    return m;
}

struct msg *port_pop(struct port *in)
{
    if (!maybe_queued(in))
        return NULL;
    struct channel *ch = in->channel;
    if (!head_visible(ch, in->owner))
        return NULL;
    return pop_visible(in, ch);
}

uint32_t port_visible(const struct port *in)
{
    const struct channel *ch = in->channel;
    if (!ch)
        return 0;
    uint64_t now = in->owner->sim->domains[in->owner->domain]->cycle;
    uint32_t n = 0;
    uint32_t tail = load_tail(ch);
    for (uint32_t i = ch->head; i != tail && ch->ring[i & ch->mask].arrival <= now; i++)
        n++;
    return n;
}

bool port_inject(struct port *in, struct msg *m)
{
    if (in->direction != PORT_IN)
        return false;
    struct sim *sim = in->owner->sim;
    struct channel *ch = in->channel;
    if (!ch) {
        struct link_params link = { 1, INJECT_CAPACITY, INJECT_CAPACITY };
        ch = channel_new(sim, NULL, in, &link);
    }
    if (ch->from)
        return false;       /* a bound port takes traffic only from its sender */
    if (ch->tail - ch->head > ch->mask) {
        /* grow the ring: the backdoor ignores capacity */
        uint32_t slots = (ch->mask + 1) * 2;
        struct channel_slot *ring = gt_xcalloc(slots, sizeof *ring);
        uint32_t n = 0;
        for (uint32_t i = ch->head; i != ch->tail; i++, n++)
            ring[n] = ch->ring[i & ch->mask];
        free(ch->ring);
        ch->ring = ring;
        ch->mask = slots - 1;
        ch->head = 0;
        ch->head_start = 0;
        ch->tail = n;
        ch->link.capacity = slots;
    }
    uint64_t arrival = sim->domains[in->owner->domain]->next_unprocessed;
    m->source = UINT32_MAX;
    channel_push(sim, sim_calling_thread(sim), ch, m, arrival);
    return true;
}

bool port_add_observer(struct port *p, port_observer_fn fn, void *context)
{
    if (!fn || p->observer_count == PORT_MAX_OBSERVERS)
        return false;
    p->observers[p->observer_count++] = (struct port_observer){ fn, context };
    return true;
}

void port_remove_observer(struct port *p, port_observer_fn fn, void *context)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->observer_count; i++)
        if (p->observers[i].fn != fn || p->observers[i].context != context)
            p->observers[kept++] = p->observers[i];
    p->observer_count = kept;
}

void port_set_observer(struct port *p, port_observer_fn fn, void *context)
{
    p->observer_count = 0;
    port_add_observer(p, fn, context);
}

bool unit_has_queued(const struct unit *u)
{
    /* A message a sender on another host thread adds during this parallel
     * step arrives on a later cycle (latency >= 1), so reading the bits
     * before or after it changes no answer of port_peek()/port_pop(). */
    return unit_queued_ports(u) != 0;
}

uint64_t unit_queued_ports(const struct unit *u)
{
    return __atomic_load_n(&u->queued_ports, __ATOMIC_RELAXED);
}

uint64_t port_queued_bit(const struct port *in) { return in->channel ? in->queued_bit : UINT64_MAX; }
bool port_is_bound(const struct port *p) { return p->channel != NULL; }
uint32_t port_msg_kinds(const struct port *p) { return p->msg_kinds; }
const char *port_name(const struct port *p) { return p->name; }
uint32_t port_index(const struct port *p) { return p->index; }
struct unit *port_unit(const struct port *p) { return p->owner; }
enum port_direction port_direction(const struct port *p) { return p->direction; }

bool port_callable(const struct port *out)
{
    const struct channel *ch = out->channel;
    return ch && ch->takes_calls && ch->from == out && !out->observer_count &&
           !ch->to->observer_count;
}

bool port_call(struct port *out, struct msg *m, struct msg **reply, uint64_t *reply_cycle)
{
    struct unit *sender = out->owner;
    struct sim *sim = sender->sim;
    *reply = NULL;
    if (!sim->in_edge_commits || !port_callable(out)) {
        sim_log(sim, SIM_LOG_ERROR, sender->name, "call on %s[%u] refused: %s", out->name,
                out->index, sim->in_edge_commits ? "the port takes no calls"
                                                 : "calls are made only from an edge commit");
        return false;
    }
    struct channel *ch = out->channel;
    uint64_t arrival = sim->domains[sender->domain]->cycle + ch->link.latency;
    m->source = sender->id;
    ch->sent++;
    ch->to->received++;
    sim->threads[0]->messages_sent++;     /* calls run on thread 0 (edge commits) */
    sim->threads[0]->messages_delivered++;
    sim_note_progress(sim, sim->threads[0]);
    if (sim->trace)
        trace_message(sim->trace, sim, ch, m);
    *reply_cycle = arrival;
    *reply = ch->receiver->ops->call(ch->receiver, ch->to, m, arrival, reply_cycle);
    return true;
}

bool port_link(const struct port *p, struct link_params *out)
{
    if (!p->channel || !p->channel->from)
        return false;
    *out = p->channel->link;
    return true;
}
