/* tests/units/test_icache.c - the subslice instruction cache driven alone:
 * scripted fetchers on its "eu" ports and, where a test needs one, a
 * scripted memory on "memory". Expected cycles and counts are worked out by
 * hand from the params and the rules in units/icache/icache.h: every link has
 * latency 1 (a message sent at cycle t is seen at t + 1), a hit is answered
 * hit_latency cycles after its lookup, a fill answers its waiters on the
 * cycle it happens, true LRU within a set, allocation on fill. */
#include <stdio.h>
#include <string.h>

#include "units/common/memreq.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/icache/icache.h"
#include "units/l3/l3.h"

#define MAX_SCRIPT 64

/* Sends its script of (cycle, address, kind, op) and records the replies. */
struct fetcher {
    uint64_t when[MAX_SCRIPT], address[MAX_SCRIPT];
    uint32_t kind[MAX_SCRIPT];
    uint8_t op[MAX_SCRIPT];
    uint32_t size[MAX_SCRIPT];          /* payload bytes; 0: a whole struct memreq */
    uint32_t count, sent, replies;
    uint64_t reply_cycle[MAX_SCRIPT];
    uint8_t reply_hit[MAX_SCRIPT];
    uint64_t reply_address[MAX_SCRIPT];
    struct port *out, *in;
};

static const struct port_desc fetcher_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "requests" },
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "replies" },
    PORT_END
};

static int fetcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct fetcher *f = unit_state(u);
    f->out = unit_port(u, "out", 0);
    f->in = unit_port(u, "in", 0);
    return 0;
}

static void fetcher_reset(struct unit *u)
{
    struct fetcher *f = unit_state(u);
    if (f->count)
        unit_wake_at(u, f->when[0]);
}

static enum unit_activity fetcher_tick(struct unit *u)
{
    struct fetcher *f = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while ((m = port_pop(f->in))) {
        const struct memreply *a = (const struct memreply *)m->payload;
        CU_ASSERT_EQUAL(m->kind, MSG_MEMORY_RESPONSE);
        if (a->tag < MAX_SCRIPT) {
            f->reply_cycle[a->tag] = now;
            f->reply_hit[a->tag] = a->hit;
            f->reply_address[a->tag] = a->address;
        }
        f->replies++;
        msg_free(unit_sim(u), m);
    }
    while (f->sent < f->count && f->when[f->sent] <= now && port_can_send(f->out)) {
        struct msg *q = msg_alloc(unit_sim(u), f->kind[f->sent], sizeof(struct memreq));
        struct memreq *r = (struct memreq *)q->payload;
        if (f->size[f->sent])
            q->size = f->size[f->sent];
        r->address = f->address[f->sent];
        r->tag = f->sent;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = f->op[f->sent];
        port_try_send(f->out, q);
        f->sent++;
    }
    if (f->sent < f->count && f->when[f->sent] > now)
        unit_wake_at(u, f->when[f->sent]);
    return f->sent < f->count && f->when[f->sent] <= now ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops fetcher_ops = {
    .kind = "test_fetcher", .help = "test: scripted instruction fetches",
    .state_size = sizeof(struct fetcher), .ports = fetcher_ports,
    .realize = fetcher_realize, .reset = fetcher_reset, .tick = fetcher_tick,
};

static void fetch_at(struct fetcher *f, uint64_t when, uint64_t address)
{
    f->when[f->count] = when;
    f->address[f->count] = address;
    f->kind[f->count] = MSG_MEMORY_REQUEST;
    f->op[f->count] = MEMREQ_READ;
    f->size[f->count] = 0;
    f->count++;
}

/* Answers every line read `delay` cycles after it arrives; records them. */
struct scripted_memory {
    uint32_t delay;
    bool stray;                 /* also send a reply with tag 3, which nobody asked for */
    struct port *in, *out;
    uint32_t requests;
    uint64_t address[MAX_SCRIPT];
    uint8_t target[MAX_SCRIPT];
    uint64_t due[MAX_SCRIPT];
    struct memreq held[MAX_SCRIPT];
    uint32_t answered;
};

static const struct port_desc memory_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "requests" },
    { .name = "out", .direction = PORT_OUT, .help = "replies" },
    PORT_END
};

static int memory_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct scripted_memory *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity memory_tick(struct unit *u)
{
    struct scripted_memory *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while ((m = port_pop(s->in))) {
        const struct memreq *q = (const struct memreq *)m->payload;
        if (s->requests < MAX_SCRIPT) {
            s->address[s->requests] = q->address;
            s->target[s->requests] = q->target;
            s->held[s->requests] = *q;
            s->due[s->requests] = now + s->delay;
            s->requests++;
        }
        msg_free(unit_sim(u), m);
    }
    while (s->answered < s->requests && s->due[s->answered] <= now && port_can_send(s->out)) {
        struct msg *r = msg_alloc(unit_sim(u), MSG_MEMORY_RESPONSE, sizeof(struct memreply));
        struct memreply *a = (struct memreply *)r->payload;
        a->address = s->held[s->answered].address;
        a->tag = s->held[s->answered].tag;
        port_try_send(s->out, r);
        s->answered++;
        if (s->stray && port_can_send(s->out)) {
            r = msg_alloc(unit_sim(u), MSG_MEMORY_RESPONSE, sizeof(struct memreply));
            ((struct memreply *)r->payload)->tag = 3;
            port_try_send(s->out, r);
            s->stray = false;
        }
    }
    if (s->answered < s->requests)
        unit_wake_at(u, s->due[s->answered]);
    return UNIT_IDLE;
}

static const struct unit_ops scripted_memory_ops = {
    .kind = "test_line_memory", .help = "test: answers line reads after a delay",
    .state_size = sizeof(struct scripted_memory), .ports = memory_ports,
    .realize = memory_realize, .tick = memory_tick,
};

struct rig {
    struct sim *sim;
    struct unit *icache, *mem;
    struct unit *eu[4];
    struct fetcher *f[4];
    struct scripted_memory *m;
};

/* `eus` fetchers on eu[0..eus-1]; a scripted memory when memory_delay >= 0. */
static struct rig rig_new(const char *const *over, unsigned eus, int memory_delay)
{
    struct rig r;
    memset(&r, 0, sizeof r);
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    r.sim = probe_sim(&o);
    r.icache = probe_add(r.sim, &icache_ops, "icache", over);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.icache);
    for (unsigned i = 0; i < eus; i++) {
        char name[16], port[16];
        snprintf(name, sizeof name, "eu%u", i);
        r.eu[i] = probe_add(r.sim, &fetcher_ops, name, NULL);
        snprintf(port, sizeof port, "eu[%u]", i);
        probe_link(r.sim, r.eu[i], "out", r.icache, port, 1, 16, 16);
        snprintf(port, sizeof port, "eu_reply[%u]", i);
        probe_link(r.sim, r.icache, port, r.eu[i], "in", 1, 16, 16);
        r.f[i] = unit_state(r.eu[i]);
    }
    if (memory_delay >= 0) {
        r.mem = probe_add(r.sim, &scripted_memory_ops, "mem", NULL);
        r.m = unit_state(r.mem);
        r.m->delay = (uint32_t)memory_delay;
        probe_link(r.sim, r.icache, "memory", r.mem, "in", 1, 16, 16);
        probe_link(r.sim, r.mem, "out", r.icache, "memory_reply", 1, 16, 16);
    }
    return r;
}

static void rig_run(struct rig *r)
{
    struct gt_error err;
    int rc = sim_realize(r->sim, &err);
    if (rc)
        fprintf(stderr, "rig: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(sim_run(r->sim, 0), SIM_STOP_QUIESCENT);
}

static double stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "icache.%s", name);
    return probe_stat(r->sim, path);
}

/* No memory linked, miss_latency 30, hit_latency 4. The miss: sent at 0,
 * looked up at 1, filled and answered at 1 + 30 = 31, seen at 32. The hit:
 * sent at 100, looked up at 101, answered at 105, seen at 106. */
static void test_hit_and_miss_latency(void)
{
    const char *over[] = { "hit_latency=4", "miss_latency=30", NULL };
    struct rig r = rig_new(over, 1, -1);
    fetch_at(r.f[0], 0, 0x4000);
    fetch_at(r.f[0], 100, 0x4010);      /* the same line */
    rig_run(&r);
    CU_ASSERT_EQUAL(r.f[0]->replies, 2);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[0], 32);
    CU_ASSERT_EQUAL(r.f[0]->reply_hit[0], 0);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[1], 106);
    CU_ASSERT_EQUAL(r.f[0]->reply_hit[1], 1);
    CU_ASSERT_EQUAL(r.f[0]->reply_address[1], 0x4010);
    CU_ASSERT_EQUAL(stat(&r, "requests"), 2);
    CU_ASSERT_EQUAL(stat(&r, "hits"), 1);
    CU_ASSERT_EQUAL(stat(&r, "misses"), 1);
    CU_ASSERT_EQUAL(stat(&r, "hit_rate"), 0.5);
    CU_ASSERT_EQUAL(stat(&r, "memory_requests"), 0);
    sim_destroy(r.sim);
}

/* With memory linked (it answers 50 cycles after a request arrives): the
 * lookup at 1 sends the line read, the memory sees it at 2 and answers at
 * 52, the fill is at 53 and the fetcher sees the reply at 54. The read is
 * one 64-byte line of read-only data at the line's address. */
static void test_miss_through_memory(void)
{
    const char *over[] = { "hit_latency=4", NULL };
    struct rig r = rig_new(over, 1, 50);
    fetch_at(r.f[0], 0, 0x12345);
    rig_run(&r);
    CU_ASSERT_EQUAL(r.f[0]->replies, 1);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[0], 54);
    CU_ASSERT_EQUAL(r.m->requests, 1);
    CU_ASSERT_EQUAL(r.m->address[0], 0x12340);
    CU_ASSERT_EQUAL(r.m->target[0], MEMREQ_RO_DATA);
    CU_ASSERT_EQUAL(r.m->held[0].op, MEMREQ_READ);
    CU_ASSERT_EQUAL(r.m->held[0].bytes, 64);
    CU_ASSERT_EQUAL(stat(&r, "memory_requests"), 1);
    CU_ASSERT_EQUAL(stat(&r, "fills"), 1);
    sim_destroy(r.sim);
}

/* 1 KiB in 2 ways: 16 lines, 8 sets. Lines 0, 8 and 16 (A, B, C) share set
 * 0. Each request is done before the next (100 cycles apart):
 *   A miss (fill way 0)          B miss (fill way 1)
 *   A hit (A newest)             C miss: evicts B, the least recently used
 *   A hit                        B miss: evicts C (A was used after C's fill)
 *   C miss: evicts A (B newer)   B hit
 * A line of another set (line 1) in between takes nothing from set 0:
 * 9 requests, 3 hits, 6 misses, 6 fills, 3 evictions. */
static void test_set_conflicts_and_lru(void)
{
    const char *over[] = { "size_kib=1", "ways=2", "miss_latency=10", NULL };
    struct rig r = rig_new(over, 1, -1);
    const uint64_t A = 0 * 64, B = 8 * 64, C = 16 * 64, other = 1 * 64;
    const uint64_t seq[] = { A, B, A, C, other, A, B, C, B };
    const uint8_t hit[] = { 0, 0, 1, 0, 0, 1, 0, 0, 1 };
    for (unsigned k = 0; k < 9; k++)
        fetch_at(r.f[0], 100 * k, seq[k]);
    rig_run(&r);
    CU_ASSERT_EQUAL(r.f[0]->replies, 9);
    for (unsigned k = 0; k < 9; k++) {
        CU_ASSERT_EQUAL(r.f[0]->reply_hit[k], hit[k]);
        /* seen at 100k + 1 + (hit ? 4 : 10) + 1 */
        CU_ASSERT_EQUAL(r.f[0]->reply_cycle[k], 100 * k + 2 + (hit[k] ? 4 : 10));
    }
    CU_ASSERT_EQUAL(stat(&r, "requests"), 9);
    CU_ASSERT_EQUAL(stat(&r, "hits"), 3);
    CU_ASSERT_EQUAL(stat(&r, "misses"), 6);
    CU_ASSERT_EQUAL(stat(&r, "fills"), 6);
    CU_ASSERT_EQUAL(stat(&r, "evictions"), 3);
    sim_destroy(r.sim);
}

/* Two EUs miss on one line in the same cycle, a third on another line: two
 * line reads go to memory, not three; both waiters of the shared line are
 * answered by its one fill, in the same cycle (lookups at 1; memory sees the
 * reads at 2 and answers at 22; fills at 23; seen at 24). */
static void test_merged_misses(void)
{
    const char *over[] = { "lookups_per_cycle=4", NULL };
    struct rig r = rig_new(over, 3, 20);
    fetch_at(r.f[0], 0, 0x8000);
    fetch_at(r.f[1], 0, 0x8020);
    fetch_at(r.f[2], 0, 0x9000);
    rig_run(&r);
    CU_ASSERT_EQUAL(r.m->requests, 2);
    CU_ASSERT_EQUAL(stat(&r, "misses"), 3);
    CU_ASSERT_EQUAL(stat(&r, "merged_misses"), 1);
    CU_ASSERT_EQUAL(stat(&r, "memory_requests"), 2);
    CU_ASSERT_EQUAL(stat(&r, "fills"), 2);
    for (unsigned i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(r.f[i]->replies, 1);
        CU_ASSERT_EQUAL(r.f[i]->reply_cycle[0], 24);
        CU_ASSERT_EQUAL(r.f[i]->reply_hit[0], 0);
    }
    CU_ASSERT_EQUAL(r.f[1]->reply_address[0], 0x8020);
    sim_destroy(r.sim);
}

/* One lookup per cycle. EU 0 warms the line (looked up at 1, so the next
 * round starts at EU 1). At 100 all four EUs ask for it: lookups at 101
 * (EU 1), 102 (EU 2), 103 (EU 3), 104 (EU 0), each seen 4 + 1 cycles later;
 * requests left waiting: 3 + 2 + 1 = 6 request-cycles. */
static void test_lookup_bandwidth(void)
{
    const char *over[] = { "lookups_per_cycle=1", "hit_latency=4", "miss_latency=10", NULL };
    struct rig r = rig_new(over, 4, -1);
    fetch_at(r.f[0], 0, 0x100);
    for (unsigned i = 0; i < 4; i++)
        fetch_at(r.f[i], 100, 0x100);
    rig_run(&r);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[0], 12);
    CU_ASSERT_EQUAL(r.f[1]->reply_cycle[0], 106);
    CU_ASSERT_EQUAL(r.f[2]->reply_cycle[0], 107);
    CU_ASSERT_EQUAL(r.f[3]->reply_cycle[0], 108);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[1], 109);
    CU_ASSERT_EQUAL(stat(&r, "hits"), 4);
    CU_ASSERT_EQUAL(stat(&r, "stall.bandwidth"), 6);
    sim_destroy(r.sim);
}

/* One miss entry: EU 0's miss (line 0) takes it at 1; EU 1's miss (another
 * line) finds none and waits in its channel. The fill at 11 frees it and
 * EU 1's request is looked up in the same cycle: filled at 21, seen at 22. */
static void test_miss_entries_limit(void)
{
    const char *over[] = { "miss_entries=1", "miss_latency=10", NULL };
    struct rig r = rig_new(over, 2, -1);
    fetch_at(r.f[0], 0, 0x0);
    fetch_at(r.f[1], 0, 0x40);
    rig_run(&r);
    CU_ASSERT_EQUAL(r.f[0]->reply_cycle[0], 12);
    CU_ASSERT_EQUAL(r.f[1]->reply_cycle[0], 22);
    CU_ASSERT_EQUAL(stat(&r, "stall.miss_entries"), 1);
    CU_ASSERT_EQUAL(stat(&r, "misses"), 2);
    sim_destroy(r.sim);
}

/* Other kinds, writes and short payloads on an EU port, and a reply nobody
 * asked for on memory_reply, are counted and dropped; the good request
 * among them is answered. */
static void test_bad_messages_counted(void)
{
    struct rig r = rig_new(NULL, 1, 5);
    r.m->stray = true;
    fetch_at(r.f[0], 0, 0x40);
    r.f[0]->kind[0] = MSG_GENERIC;
    fetch_at(r.f[0], 1, 0x80);
    r.f[0]->op[1] = MEMREQ_WRITE;
    fetch_at(r.f[0], 2, 0xc0);
    fetch_at(r.f[0], 3, 0x100);
    r.f[0]->size[3] = 4;
    rig_run(&r);
    CU_ASSERT_EQUAL(stat(&r, "bad_messages"), 4);
    CU_ASSERT_EQUAL(r.f[0]->replies, 1);
    CU_ASSERT_EQUAL(r.f[0]->reply_address[2], 0xc0);
    CU_ASSERT_EQUAL(stat(&r, "requests"), 1);
    sim_destroy(r.sim);
}

/* A size the ways do not divide is a config error. */
static void test_bad_geometry_refused(void)
{
    const char *over[] = { "size_kib=3", "ways=5", NULL };
    struct rig r = rig_new(over, 1, -1);
    struct gt_error err;
    CU_ASSERT_NOT_EQUAL(sim_realize(r.sim, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "ways"));
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "hit and miss latency exact from the params", test_hit_and_miss_latency },
    { "a miss reads one line of read-only data from memory", test_miss_through_memory },
    { "set conflicts evict the least recently used way", test_set_conflicts_and_lru },
    { "misses to one line from several EUs merge into one read", test_merged_misses },
    { "lookups per cycle limit the bandwidth, round-robin", test_lookup_bandwidth },
    { "with every miss entry in use a miss waits", test_miss_entries_limit },
    { "bad messages are counted and dropped", test_bad_messages_counted },
    { "a size the ways do not divide is refused", test_bad_geometry_refused },
    { 0 }
};
TEST_SUITE(icache, cases);
