/* tests/fabric/test_reply_queue.c - the reply queue (fabric/reply_queue.h)
 * alone: its three orders, back-pressure and retry, the wake-ups it asks for,
 * its capacity, and entries that are dropped or built late. A test unit (the
 * rig) pushes a script of entries and sends them to probe sinks; the expected
 * orders and cycles are worked out here from the rules in reply_queue.h and
 * fabric/port.h (a sort written in the test, the channel's credit loop), not
 * taken from a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/min_heap.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"

#define RIG_PORTS 2
#define RIG_MAX 64

struct rig_push {
    uint64_t at;                /* the rig's cycle that pushes it */
    uint64_t ready;
    uint32_t port, tag;
};

struct rig {
    struct port *out[RIG_PORTS];
    struct reply_queue queue;
    /* set by the test before sim_realize */
    struct reply_queue_config config;   /* ports, context and hooks are the rig's */
    bool build_late;                    /* push no message: build() makes it */
    struct rig_push script[RIG_MAX];
    uint32_t script_length;
    /* what happened */
    uint32_t next;
    uint64_t tick_cycle[RIG_MAX];
    uint32_t ticks;
    uint64_t stalls;
    uint32_t sent, dropped, built, done_sent, done_dropped, refused_pushes;
    uint32_t done_tag[RIG_MAX];
};

static const struct port_desc rig_ports[] = {
    { .name = "out", .direction = PORT_OUT, .count = RIG_PORTS, .flags = PORT_OPTIONAL,
      .help = "entries leave here" },
    PORT_END
};

static struct msg *rig_build(void *context, struct reply_queue_entry *e)
{
    struct unit *u = context;
    struct rig *s = unit_state(u);
    s->built++;
    struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, 0);
    memcpy(&m->tag, reply_queue_data(e), sizeof m->tag);
    return m;
}

static void rig_done(void *context, const struct reply_queue_entry *e, bool sent)
{
    struct rig *s = unit_state((struct unit *)context);
    uint32_t tag;
    memcpy(&tag, reply_queue_data(e), sizeof tag);
    if (s->done_sent + s->done_dropped < RIG_MAX)
        s->done_tag[s->done_sent + s->done_dropped] = tag;
    if (sent)
        s->done_sent++;
    else
        s->done_dropped++;
}

static int rig_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct rig *s = unit_state(u);
    for (uint32_t i = 0; i < RIG_PORTS; i++)
        s->out[i] = unit_port(u, "out", i);
    struct reply_queue_config c = s->config;
    c.ports = s->out;
    c.port_count = RIG_PORTS;
    c.stall_count = &s->stalls;
    c.data_size = sizeof(uint32_t);     /* the tag */
    c.build = s->build_late ? rig_build : NULL;
    c.done = rig_done;
    c.context = u;
    reply_queue_init(&s->queue, &c);
    return 0;
}

static void rig_reset(struct unit *u)
{
    struct rig *s = unit_state(u);
    if (s->script_length)
        unit_wake_at(u, s->script[0].at);
}

static enum unit_activity rig_tick(struct unit *u)
{
    struct rig *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    if (s->ticks < RIG_MAX)
        s->tick_cycle[s->ticks] = now;
    s->ticks++;
    for (; s->next < s->script_length && s->script[s->next].at <= now; s->next++) {
        const struct rig_push *p = &s->script[s->next];
        struct msg *m = NULL;
        if (!s->build_late) {
            m = msg_alloc(unit_sim(u), MSG_GENERIC, 0);
            m->tag = p->tag;
        }
        if (!reply_queue_push(&s->queue, p->ready, p->port, m, &p->tag)) {
            s->refused_pushes++;
            if (m)
                msg_free(unit_sim(u), m);
        }
    }
    struct reply_queue_result r = reply_queue_send(&s->queue, u);
    s->sent += r.sent;
    s->dropped += r.dropped;
    reply_queue_wake(&s->queue, u);
    if (s->next < s->script_length)
        unit_wake_at(u, s->script[s->next].at);
    return UNIT_IDLE;
}

static void rig_destroy(struct unit *u)
{
    struct rig *s = unit_state(u);
    reply_queue_free(&s->queue, unit_sim(u));
}

static const struct unit_ops rig_ops = {
    .kind = "test_reply_queue_rig",
    .help = "pushes a script of entries into a reply queue",
    .state_size = sizeof(struct rig),
    .ports = rig_ports,
    .realize = rig_realize,
    .reset = rig_reset,
    .tick = rig_tick,
    .destroy = rig_destroy,
};

struct bench {
    struct sim *sim;
    struct unit *rig_unit;
    struct rig *rig;
    struct probe_sink *sink[RIG_PORTS];
};

/* A rig with one sink per port (sink_options[i] NULL: port i left unbound);
 * port 0's link has the given capacity and width, port 1's room for 64 a
 * cycle. */
static struct bench bench_new(const char *const *const sink_options[RIG_PORTS], uint32_t capacity,
                              uint32_t width)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR };
    struct bench b = { .sim = probe_sim(&o) };
    b.rig_unit = probe_add(b.sim, &rig_ops, "rig", NULL);
    b.rig = unit_state(b.rig_unit);
    for (uint32_t i = 0; i < RIG_PORTS; i++) {
        if (!sink_options[i])
            continue;
        char name[16], port[16];
        snprintf(name, sizeof name, "sink%u", i);
        snprintf(port, sizeof port, "out[%u]", i);
        struct unit *sink = probe_add(b.sim, &probe_sink_ops, name, sink_options[i]);
        CU_ASSERT_EQUAL_FATAL(probe_link(b.sim, b.rig_unit, port, sink, "in", 1,
                                         i ? 64 : capacity, i ? 64 : width), 0);
        b.sink[i] = unit_state(sink);
    }
    return b;
}

static void bench_run(struct bench *b)
{
    CU_ASSERT_EQUAL_FATAL(sim_realize(b->sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(b->sim, 0), SIM_STOP_QUIESCENT);
}

static const char *const fast_sink[] = { "per_cycle=64", NULL };

/* A script pushed at cycle 0 with ready cycles out of order and many ties. */
static const uint64_t tie_ready[] = { 9, 3, 9, 3, 0, 12, 3, 0, 9, 12, 5, 3 };
#define TIES (sizeof tie_ready / sizeof tie_ready[0])

static void load_ties(struct rig *s)
{
    s->script_length = TIES;
    for (uint32_t i = 0; i < TIES; i++)
        s->script[i] = (struct rig_push){ 0, tie_ready[i], 0, 100 + i };
}

/* Ready cycle, then insertion: the tags leave sorted by (ready, index), each
 * on its ready cycle, and reach the sink one cycle later (latency 1). */
static void test_order_ready_then_insertion(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    b.rig->config.order = REPLY_QUEUE_READY_THEN_INSERTION;
    load_ties(b.rig);
    bench_run(&b);
    /* the expected order: a stable insertion sort written here */
    uint32_t want[TIES];
    for (uint32_t i = 0; i < TIES; i++) {
        uint32_t k = i;
        while (k > 0 && tie_ready[want[k - 1]] > tie_ready[i]) {
            want[k] = want[k - 1];
            k--;
        }
        want[k] = i;
    }
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, TIES);
    for (uint32_t i = 0; i < TIES; i++) {
        CU_ASSERT_EQUAL(b.sink[0]->tag[i], 100 + want[i]);
        CU_ASSERT_EQUAL(b.sink[0]->cycle[i], tie_ready[want[i]] + 1);
    }
    CU_ASSERT_EQUAL(b.rig->sent, TIES);
    CU_ASSERT_EQUAL(b.rig->done_sent, TIES);
    CU_ASSERT_EQUAL(b.rig->stalls, 0);
    sim_destroy(b.sim);
}

/* Insertion only: an entry leaves on max(its ready cycle, the cycle the one
 * before it left), in the order pushed. */
static void test_order_insertion_holds_later_entries(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    b.rig->config.order = REPLY_QUEUE_INSERTION;
    load_ties(b.rig);
    bench_run(&b);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, TIES);
    uint64_t leaves = 0;
    for (uint32_t i = 0; i < TIES; i++) {
        leaves = tie_ready[i] > leaves ? tie_ready[i] : leaves;
        CU_ASSERT_EQUAL(b.sink[0]->tag[i], 100 + i);
        CU_ASSERT_EQUAL(b.sink[0]->cycle[i], leaves + 1);
    }
    sim_destroy(b.sim);
}

/* Heap ties: by ready cycle, each on its ready cycle; every tag once. */
static void test_order_heap_ties_keeps_ready_order(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    b.rig->config.order = REPLY_QUEUE_READY_HEAP_TIES;
    load_ties(b.rig);
    bench_run(&b);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, TIES);
    bool seen[TIES] = { false };
    for (uint32_t i = 0; i < TIES; i++) {
        uint32_t t = b.sink[0]->tag[i] - 100;
        CU_ASSERT_FATAL(t < TIES);
        CU_ASSERT_FALSE(seen[t]);
        seen[t] = true;
        CU_ASSERT_EQUAL(b.sink[0]->cycle[i], tie_ready[t] + 1);
        if (i)
            CU_ASSERT(b.sink[0]->cycle[i] >= b.sink[0]->cycle[i - 1]);
    }
    sim_destroy(b.sim);
}

/* REPLY_QUEUE_READY_HEAP_TIES must give equal ready cycles in the order of
 * fabric/min_heap.c's textbook sift steps (the L3 slice RTL mirrors them),
 * whatever the queue's own heap does to be quick (issue 19: a bottom-up pop).
 * Thousands of pushes with ready cycles from a small range (many ties) and
 * pops of every due entry, on the queue and on a min_heap ordered by ready
 * cycle alone, must take the same tags out in the same order. */
struct tie_item {
    uint64_t ready;
    uint32_t tag;
};

static bool tie_item_less(const void *a, const void *b)
{
    return ((const struct tie_item *)a)->ready < ((const struct tie_item *)b)->ready;
}

static void test_order_heap_ties_as_min_heap(void)
{
    struct reply_queue q;
    reply_queue_init(&q, &(struct reply_queue_config){
        .data_size = sizeof(uint32_t), .order = REPLY_QUEUE_READY_HEAP_TIES });
    struct min_heap h;
    min_heap_init(&h, sizeof(struct tie_item), tie_item_less);
    unsigned char *out = malloc(reply_queue_entry_size(&q));
    uint64_t state = 0x9E3779B97F4A7C15u;
    uint32_t tag = 0, taken = 0, mismatches = 0;
    for (uint64_t now = 0; now < 2000; now++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        for (uint32_t n = (uint32_t)(state % 5); n--; tag++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            uint64_t ready = now + state % 6;       /* few distinct cycles: many ties */
            CU_ASSERT_FATAL(reply_queue_push(&q, ready, 0, NULL, &tag));
            min_heap_push(&h, &(struct tie_item){ ready, tag });
        }
        /* some cycles take nothing, so due entries pile up as in a held L3 heap */
        if (state % 3 == 0)
            continue;
        while (reply_queue_take_ready(&q, now, out)) {
            const struct tie_item *top = min_heap_top(&h);
            CU_ASSERT_PTR_NOT_NULL_FATAL(top);
            uint32_t got;
            memcpy(&got, reply_queue_data((const struct reply_queue_entry *)(void *)out),
                   sizeof got);
            mismatches += got != top->tag;
            CU_ASSERT_TRUE(top->ready <= now);
            min_heap_pop(&h);
            taken++;
        }
        CU_ASSERT_FALSE(min_heap_top(&h) && ((const struct tie_item *)min_heap_top(&h))->ready <= now);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(taken > tag / 2);
    CU_ASSERT_EQUAL(reply_queue_count(&q), h.count);
    free(out);
    min_heap_free(&h);
    reply_queue_free(&q, NULL);
}

/* The orders without ties keep their keys sorted instead of in a heap
 * (reply_queue.h). Thousands of pushes with ready cycles out of order (some
 * earlier than entries already queued) and pops of every due entry, with
 * stretches that take nothing so the queue grows and its keys move: each
 * entry taken must be the least (ready, insertion) of those pushed and not
 * taken, found by a scan written here; with REPLY_QUEUE_INSERTION, the oldest
 * (taken only once it is ready). */
static void sorted_order_case(enum reply_queue_order order)
{
    struct reply_queue q;
    reply_queue_init(&q, &(struct reply_queue_config){ .data_size = sizeof(uint32_t),
                                                       .order = order });
    enum { MAX_TAGS = 20000 };
    uint64_t *ready_of = malloc(MAX_TAGS * sizeof *ready_of);
    bool *taken_tag = calloc(MAX_TAGS, sizeof *taken_tag);
    unsigned char *out = malloc(reply_queue_entry_size(&q));
    uint64_t state = 0x2545F4914F6CDD1Du;
    uint32_t tag = 0, taken = 0, mismatches = 0, oldest = 0;
    for (uint64_t now = 0; now < 3000 && tag < MAX_TAGS - 8; now++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        for (uint32_t n = (uint32_t)(state % 6); n--; tag++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            uint64_t ready = now + state % 40;
            ready_of[tag] = ready;
            CU_ASSERT_FATAL(reply_queue_push(&q, ready, 0, NULL, &tag));
        }
        if ((now / 100) % 3 == 1)
            continue;               /* a stretch that takes nothing */
        while (reply_queue_take_ready(&q, now, out)) {
            uint32_t got;
            memcpy(&got, reply_queue_data((const struct reply_queue_entry *)(void *)out),
                   sizeof got);
            uint32_t want = UINT32_MAX;
            if (order == REPLY_QUEUE_INSERTION) {
                want = oldest;
            } else {
                for (uint32_t t = oldest; t < tag; t++)
                    if (!taken_tag[t] && (want == UINT32_MAX || ready_of[t] < ready_of[want]))
                        want = t;
            }
            mismatches += got != want;
            CU_ASSERT_FATAL(got < tag);
            CU_ASSERT_TRUE(ready_of[got] <= now);
            taken_tag[got] = true;
            while (oldest < tag && taken_tag[oldest])
                oldest++;
            taken++;
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(taken > tag / 2);
    CU_ASSERT_EQUAL(reply_queue_count(&q), tag - taken);
    free(out);
    free(taken_tag);
    free(ready_of);
    reply_queue_free(&q, NULL);
}

static void test_order_ready_then_insertion_sorted(void)
{
    sorted_order_case(REPLY_QUEUE_READY_THEN_INSERTION);
}

static void test_order_insertion_sorted(void)
{
    sorted_order_case(REPLY_QUEUE_INSERTION);
}

/* Five entries ready at 0 into a channel of capacity 2 (width 2, latency 1)
 * whose sink pops one per cycle from cycle 10. By fabric/port.h: two go on
 * cycle 0; a pop frees its slot for the cycle after it, so one more goes on
 * each of 11, 12, 13; the sink pops 0..4 on 10..14. The rig is ticked on 0
 * (push, send two, refused), woken on 11 (send one, refused) and 12 (same)
 * by the freed channel, then 13 (send the last): three refused calls, three
 * stalls. */
static void test_back_pressure_and_retry(void)
{
    const char *const slow_sink[] = { "per_cycle=1", "start_cycle=10", NULL };
    struct bench b = bench_new((const char *const *const[]){ slow_sink, NULL }, 2, 2);
    b.rig->script_length = 5;
    for (uint32_t i = 0; i < 5; i++)
        b.rig->script[i] = (struct rig_push){ 0, 0, 0, i };
    bench_run(&b);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, 5);
    for (uint32_t i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(b.sink[0]->tag[i], i);
        CU_ASSERT_EQUAL(b.sink[0]->cycle[i], 10 + i);
    }
    static const uint64_t ticks[] = { 0, 11, 12, 13 };
    CU_ASSERT_EQUAL_FATAL(b.rig->ticks, 4);
    for (uint32_t i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(b.rig->tick_cycle[i], ticks[i]);
    CU_ASSERT_EQUAL(b.rig->stalls, 3);
    CU_ASSERT_EQUAL(b.rig->sent, 5);
    sim_destroy(b.sim);
}

/* Port 0's sink never pops (capacity 1), port 1's takes everything. Entries
 * alternate 0, 1, 0, 1, ... all ready at 0. REPLY_QUEUE_STOP: the first to
 * port 0 goes, the second is refused and holds everything after it, so port 1
 * gets only the one pushed before it. REPLY_QUEUE_PER_PORT: port 1 gets all
 * of its own. */
static void blocked_port_case(enum reply_queue_refusal refusal, uint32_t want_port1)
{
    const char *const stuck_sink[] = { "per_cycle=0", NULL };
    struct bench b = bench_new((const char *const *const[]){ stuck_sink, fast_sink }, 1, 1);
    b.rig->config.refusal = refusal;
    b.rig->script_length = 8;
    for (uint32_t i = 0; i < 8; i++)
        b.rig->script[i] = (struct rig_push){ 0, 0, i % 2, i };
    CU_ASSERT_EQUAL_FATAL(sim_realize(b.sim, NULL), 0);
    sim_run(b.sim, 100 * 1000);     /* port 0 never drains: run 100 cycles */
    CU_ASSERT_EQUAL(b.sink[0]->received, 0);
    CU_ASSERT_EQUAL_FATAL(b.sink[1]->received, want_port1);
    for (uint32_t i = 0; i < want_port1; i++)
        CU_ASSERT_EQUAL(b.sink[1]->tag[i], 2 * i + 1);
    CU_ASSERT_EQUAL(b.rig->sent, 1 + want_port1);
    CU_ASSERT_EQUAL(reply_queue_count(&b.rig->queue), 8 - 1 - want_port1);
    CU_ASSERT_EQUAL(b.rig->stalls, 1);      /* ticked once: no wake for a held entry */
    CU_ASSERT_EQUAL(b.rig->ticks, 1);
    sim_destroy(b.sim);
}

static void test_refusal_stop_holds_every_port(void)
{
    blocked_port_case(REPLY_QUEUE_STOP, 1);
}

static void test_refusal_per_port_holds_only_that_port(void)
{
    blocked_port_case(REPLY_QUEUE_PER_PORT, 4);
}

/* The rig returns UNIT_IDLE always: it is ticked on the script's cycles and
 * on the distinct ready cycles the queue asks for, and on no other. */
static void test_wakes_on_ready_cycles(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    static const uint64_t ready[] = { 5, 9, 9, 20, 14, 9 };
    b.rig->script_length = 6;
    for (uint32_t i = 0; i < 6; i++)
        b.rig->script[i] = (struct rig_push){ i < 4 ? 0 : 7, ready[i], 0, i };
    bench_run(&b);
    static const uint64_t ticks[] = { 0, 5, 7, 9, 14, 20 };
    CU_ASSERT_EQUAL_FATAL(b.rig->ticks, 6);
    for (uint32_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(b.rig->tick_cycle[i], ticks[i]);
    CU_ASSERT_EQUAL(b.sink[0]->received, 6);
    sim_destroy(b.sim);
}

/* Per port: an entry to a stuck port that is ready asks no wake, but a later
 * one to another port still gets its own (cycle 7). */
static void test_per_port_wakes_for_other_ports(void)
{
    const char *const stuck_sink[] = { "per_cycle=0", NULL };
    struct bench b = bench_new((const char *const *const[]){ stuck_sink, fast_sink }, 1, 1);
    b.rig->config.refusal = REPLY_QUEUE_PER_PORT;
    b.rig->script_length = 3;
    b.rig->script[0] = (struct rig_push){ 0, 0, 0, 0 };
    b.rig->script[1] = (struct rig_push){ 0, 0, 0, 1 };
    b.rig->script[2] = (struct rig_push){ 0, 7, 1, 2 };
    CU_ASSERT_EQUAL_FATAL(sim_realize(b.sim, NULL), 0);
    sim_run(b.sim, 100 * 1000);
    CU_ASSERT_EQUAL_FATAL(b.rig->ticks, 2);
    CU_ASSERT_EQUAL(b.rig->tick_cycle[0], 0);
    CU_ASSERT_EQUAL(b.rig->tick_cycle[1], 7);
    CU_ASSERT_EQUAL_FATAL(b.sink[1]->received, 1);
    CU_ASSERT_EQUAL(b.sink[1]->cycle[0], 8);
    CU_ASSERT_EQUAL(b.rig->stalls, 2);      /* entry 1 refused on 0 and on 7 */
    sim_destroy(b.sim);
}

/* A bounded queue says full and takes nothing more; space comes back as
 * entries leave. */
static void test_capacity(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    b.rig->config.capacity = 3;
    b.rig->script_length = 6;
    for (uint32_t i = 0; i < 4; i++)        /* four at 0: the fourth is refused */
        b.rig->script[i] = (struct rig_push){ 0, 5, 0, i };
    b.rig->script[4] = (struct rig_push){ 6, 6, 0, 4 };     /* room again after cycle 5 */
    b.rig->script[5] = (struct rig_push){ 6, 6, 0, 5 };
    bench_run(&b);
    CU_ASSERT_EQUAL(b.rig->refused_pushes, 1);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, 5);
    static const uint32_t tags[] = { 0, 1, 2, 4, 5 };
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(b.sink[0]->tag[i], tags[i]);
    sim_destroy(b.sim);

    /* and directly, without a simulation */
    struct reply_queue q;
    reply_queue_init(&q, &(struct reply_queue_config){ .capacity = 2 });
    CU_ASSERT_FALSE(reply_queue_full(&q));
    CU_ASSERT_EQUAL(reply_queue_next_ready(&q), UINT64_MAX);
    CU_ASSERT_TRUE(reply_queue_push(&q, 8, 0, NULL, NULL));
    CU_ASSERT_TRUE(reply_queue_push(&q, 4, 0, NULL, NULL));
    CU_ASSERT_TRUE(reply_queue_full(&q));
    CU_ASSERT_FALSE(reply_queue_push(&q, 1, 0, NULL, NULL));
    CU_ASSERT_EQUAL(reply_queue_count(&q), 2);
    CU_ASSERT_EQUAL(reply_queue_next_ready(&q), 4);
    reply_queue_free(&q, NULL);             /* holds no messages: no sim needed */
}

/* Port 1 unbound, and a port index out of range: those entries are dropped
 * (their messages freed: the sanitizer run checks), the rest are sent. */
static void test_unbound_ports_drop(void)
{
    struct bench b = bench_new((const char *const *const[]){ fast_sink, NULL }, 64, 64);
    b.rig->script_length = 4;
    b.rig->script[0] = (struct rig_push){ 0, 1, 0, 0 };
    b.rig->script[1] = (struct rig_push){ 0, 2, 1, 1 };
    b.rig->script[2] = (struct rig_push){ 0, 3, 7, 2 };
    b.rig->script[3] = (struct rig_push){ 0, 4, 0, 3 };
    bench_run(&b);
    CU_ASSERT_EQUAL(b.rig->sent, 2);
    CU_ASSERT_EQUAL(b.rig->dropped, 2);
    CU_ASSERT_EQUAL(b.rig->done_sent, 2);
    CU_ASSERT_EQUAL(b.rig->done_dropped, 2);
    static const uint32_t done_order[] = { 0, 1, 2, 3 };
    for (uint32_t i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(b.rig->done_tag[i], done_order[i]);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, 2);
    CU_ASSERT_EQUAL(b.sink[0]->tag[0], 0);
    CU_ASSERT_EQUAL(b.sink[0]->tag[1], 3);
    sim_destroy(b.sim);
}

/* build() runs only when the channel can take the entry: in the back-pressure
 * case (see above) five builds, one per send, none for a refusal. */
static void test_build_only_when_the_port_takes_it(void)
{
    const char *const slow_sink[] = { "per_cycle=1", "start_cycle=10", NULL };
    struct bench b = bench_new((const char *const *const[]){ slow_sink, NULL }, 2, 2);
    b.rig->build_late = true;
    b.rig->script_length = 5;
    for (uint32_t i = 0; i < 5; i++)
        b.rig->script[i] = (struct rig_push){ 0, 0, 0, 40 + i };
    bench_run(&b);
    CU_ASSERT_EQUAL(b.rig->built, 5);
    CU_ASSERT_EQUAL(b.rig->stalls, 3);
    CU_ASSERT_EQUAL_FATAL(b.sink[0]->received, 5);
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(b.sink[0]->tag[i], 40 + i);
    sim_destroy(b.sim);
}

/* Clearing frees the held messages (checked by the sanitizer run and the
 * simulation's live message count). */
static void test_clear_frees_messages(void)
{
    struct sim *sim = probe_sim(NULL);
    struct reply_queue q;
    reply_queue_init(&q, &(struct reply_queue_config){ 0 });
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_TRUE(reply_queue_push(&q, i, 0, msg_alloc(sim, MSG_GENERIC, 8), NULL));
    CU_ASSERT_EQUAL(reply_queue_count(&q), 5);
    reply_queue_clear(&q, sim);
    CU_ASSERT_EQUAL(reply_queue_count(&q), 0);
    CU_ASSERT_PTR_NULL(reply_queue_first(&q));
    reply_queue_free(&q, sim);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "order: ready cycle then insertion", test_order_ready_then_insertion },
    { "order: insertion holds later entries", test_order_insertion_holds_later_entries },
    { "order: heap ties keep ready order", test_order_heap_ties_keeps_ready_order },
    { "order: heap ties as fabric/min_heap", test_order_heap_ties_as_min_heap },
    { "order: ready then insertion, many out of order", test_order_ready_then_insertion_sorted },
    { "order: insertion, many", test_order_insertion_sorted },
    { "back-pressure and retry", test_back_pressure_and_retry },
    { "refusal: stop holds every port", test_refusal_stop_holds_every_port },
    { "refusal: per port holds only that port", test_refusal_per_port_holds_only_that_port },
    { "wakes on ready cycles", test_wakes_on_ready_cycles },
    { "per port wakes for other ports", test_per_port_wakes_for_other_ports },
    { "capacity", test_capacity },
    { "unbound ports drop", test_unbound_ports_drop },
    { "build only when the port takes it", test_build_only_when_the_port_takes_it },
    { "clear frees messages", test_clear_frees_messages },
    { 0 }
};
TEST_SUITE(reply_queue, cases);
