/* tests/units/test_vc4_l2.c - the VideoCore IV L2 cache (units/vc4_l2): a feeder sends line
 * requests at scripted cycles, a catcher records when each reply arrives and whether it hit.
 * Hits and misses are expected from a reference LRU cache written here (a recency list per
 * set), and reply times from the configured latencies and SDRAM bandwidth, worked out here;
 * L2CACTL (clear, disable, enable; seed 002 Table 71) comes on the control port. */
#include <string.h>

#include "fabric/msg.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/memreq.h"
#include "fabric/memory.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"
#include "units/vc4_l2/vc4_l2.h"
#include "units/vc4_tmu/vc4_tmu.h"

#define MAX_SCRIPT 64

struct step {
    uint64_t cycle;
    uint32_t address;
    uint32_t control;           /* nonzero: an L2CACTL write of `address` instead */
};

struct feeder {
    struct port *out, *control;
    struct step script[MAX_SCRIPT];
    int malformed[MAX_SCRIPT];  /* 1: an MMIO on the request port; 2: an MMIO sync on control */
    unsigned count, next;
};

static const struct port_desc feeder_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "line requests" },
    { .name = "control", .direction = PORT_OUT, .help = "L2CACTL writes" },
    PORT_END
};

static int feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct feeder *f = unit_state(u);
    f->out = unit_port(u, "out", 0);
    f->control = unit_port(u, "control", 0);
    return 0;
}

static void feeder_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity feeder_tick(struct unit *u)
{
    struct feeder *f = unit_state(u);
    while (f->next < f->count && f->script[f->next].cycle <= unit_cycle(u)) {
        const struct step *s = &f->script[f->next];
        struct msg *m;
        if (f->malformed[f->next]) {
            m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
            struct cs_mmio *w = (struct cs_mmio *)m->payload;
            memset(w, 0, sizeof *w);
            w->op = CS_MMIO_SYNC;
            w->offset = VC4_L2CACTL;
            if (!port_try_send(f->malformed[f->next] == 2 ? f->control : f->out, m)) {
                msg_free(unit_sim(u), m);
                CU_FAIL("feeder send refused");
            }
        } else if (s->control) {
            m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
            struct cs_mmio *w = (struct cs_mmio *)m->payload;
            memset(w, 0, sizeof *w);
            w->op = CS_MMIO_WRITE;
            w->offset = VC4_L2CACTL;
            w->value = s->address;
        } else {
            m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
            struct memreq *q = (struct memreq *)m->payload;
            memset(q, 0, sizeof *q);
            q->address = s->address;
            q->tag = f->next;
            q->bytes = 64;
            q->op = MEMREQ_READ;
        }
        if (!f->malformed[f->next] && !port_try_send(s->control ? f->control : f->out, m)) {
            msg_free(unit_sim(u), m);
            CU_FAIL("feeder send refused");
        }
        f->next++;
        unit_progress(u);
    }
    if (f->next < f->count)
        unit_wake_at(u, f->script[f->next].cycle);
    return UNIT_IDLE;
}

static const struct unit_ops feeder_ops = {
    .kind = "test_l2_feeder", .help = "test", .state_size = sizeof(struct feeder),
    .ports = feeder_ports, .realize = feeder_realize, .reset = feeder_reset, .tick = feeder_tick,
};

struct catcher {
    struct port *in;
    unsigned count;
    uint64_t cycle[MAX_SCRIPT];
    int hit[MAX_SCRIPT];        /* by request tag; -1: no reply */
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "replies" }, PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    for (unsigned i = 0; i < MAX_SCRIPT; i++)
        c->hit[i] = -1;
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct memreply *a = (const struct memreply *)m->payload;
        CU_ASSERT_EQUAL(m->kind, MSG_MEMORY_RESPONSE);
        if (a->tag < MAX_SCRIPT) {
            c->hit[a->tag] = a->hit;
            c->cycle[a->tag] = unit_cycle(u);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_l2_catcher", .help = "test", .state_size = sizeof(struct catcher),
    .ports = catcher_ports, .realize = catcher_realize, .tick = catcher_tick,
};

/* The rig's L2: 1 KiB of 64-byte lines in 2 ways = 8 sets; hit 5 cycles, SDRAM 40 cycles plus
 * 64 / 16 = 4 cycles a line. Links take 1 cycle each way. */
enum { SETS = 8, WAYS = 2, LINE = 64, HIT = 5, SDRAM = 40, BYTES_PER_CYCLE = 16 };

struct rig {
    struct sim *sim;
    struct feeder *feeder;
    struct catcher *catcher;
};

static struct rig rig_new(void)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    static const char *const over[] = { "size_kb=1", "line_bytes=64", "ways=2", "hit_latency=5",
                                        "sdram_latency=40", "sdram_bytes_per_cycle=16",
                                        "address_mask=0x3fffffff", NULL };
    struct unit *l2 = probe_add(r.sim, &vc4_l2_ops, "l2", over);
    struct unit *f = probe_add(r.sim, &feeder_ops, "feeder", NULL);
    struct unit *c = probe_add(r.sim, &catcher_ops, "catcher", NULL);
    probe_link(r.sim, f, "out", l2, "client[0]", 1, 64, 1);
    probe_link(r.sim, f, "control", l2, "control", 1, 8, 1);
    probe_link(r.sim, l2, "reply[0]", c, "in", 1, 64, 1);
    r.feeder = unit_state(f);
    r.catcher = unit_state(c);
    return r;
}

static void run(struct rig *r)
{
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r->sim, &err), 0);
    sim_run(r->sim, 0);
}

/* The reference: per set, lines in order of last use (most recent first). */
struct reference {
    uint32_t line[SETS][WAYS];
    unsigned used[SETS];
};

static bool reference_access(struct reference *ref, uint32_t address)
{
    uint32_t line = address / LINE, set = line % SETS;
    unsigned found = ref->used[set];
    for (unsigned i = 0; i < ref->used[set]; i++)
        if (ref->line[set][i] == line)
            found = i;
    bool hit = found < ref->used[set];
    if (!hit && ref->used[set] < WAYS)
        found = ref->used[set]++;
    else if (!hit)
        found = WAYS - 1;                   /* the least recently used leaves */
    for (unsigned i = found; i > 0; i--)    /* move to the front */
        ref->line[set][i] = ref->line[set][i - 1];
    ref->line[set][0] = line;
    return hit;
}

/* hits and misses of a set-conflicting sequence, spaced so that nothing waits: each reply
 * arrives link + hit (+ SDRAM latency + one line's transfer on a miss) + link after its send */
static void test_hits_misses_and_latency(void)
{
    struct rig r = rig_new();
    /* lines 0, 8, 16 and 24 share set 0; 1 and 9 set 1; 0x40 is line 1 */
    static const uint32_t lines[] = { 0, 8, 0, 16, 8, 0, 1, 9, 1, 24, 0, 16, 9, 1 };
    unsigned n = sizeof lines / sizeof lines[0];
    for (unsigned i = 0; i < n; i++)
        r.feeder->script[i] = (struct step){ 10 + 200 * (uint64_t)i, lines[i] * LINE + 4 * i, 0 };
    r.feeder->count = n;
    run(&r);
    struct reference ref;
    memset(&ref, 0, sizeof ref);
    unsigned hits = 0;
    CU_ASSERT_EQUAL(r.catcher->count, n);
    for (unsigned i = 0; i < n; i++) {
        bool hit = reference_access(&ref, lines[i] * LINE);
        hits += hit;
        CU_ASSERT_EQUAL(r.catcher->hit[i], hit);
        uint64_t latency = 1 + HIT + (hit ? 0 : SDRAM + LINE / BYTES_PER_CYCLE) + 1;
        CU_ASSERT_EQUAL(r.catcher->cycle[i], 10 + 200 * (uint64_t)i + latency);
    }
    CU_ASSERT_TRUE(hits >= 3 && hits < n);   /* the sequence exercises both */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.hits"), hits);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), n - hits);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.reads"), n);
    sim_destroy(r.sim);
}

/* misses sent on consecutive cycles share SDRAM: the k-th line's transfer starts when the
 * previous one's ends, so replies come LINE / BYTES_PER_CYCLE cycles apart */
static void test_sdram_bandwidth(void)
{
    struct rig r = rig_new();
    enum { N = 6 };
    for (unsigned i = 0; i < N; i++)
        r.feeder->script[i] = (struct step){ 10 + i, i * LINE, 0 };
    r.feeder->count = N;
    run(&r);
    uint64_t transfer = LINE / BYTES_PER_CYCLE;
    uint64_t first = 10 + 1 + HIT + transfer + SDRAM + 1;
    for (unsigned i = 0; i < N; i++) {
        CU_ASSERT_EQUAL(r.catcher->hit[i], 0);
        /* arrival 11 + i, SDRAM free from 11 + HIT + i * transfer (transfer > 1 cycle) */
        CU_ASSERT_EQUAL(r.catcher->cycle[i], first + i * transfer);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.sdram_busy_cycles"), N * transfer);
    sim_destroy(r.sim);
}

/* L2CACTL: L2CCLR forgets every line; L2CDIS sends reads to SDRAM (no hits, nothing kept);
 * L2CENA turns it back on (Table 71) */
static void test_l2cactl(void)
{
    struct rig r = rig_new();
    static const struct step script[] = {
        { 10, 0x100, 0 },                       /* miss */
        { 200, 0x100, 0 },                      /* hit */
        { 400, VC4_L2CACTL_L2CCLR, 1 },
        { 500, 0x100, 0 },                      /* miss: cleared */
        { 700, VC4_L2CACTL_L2CDIS, 1 },
        { 800, 0x100, 0 },                      /* disabled: uncached */
        { 1000, 0x100, 0 },                     /* still uncached */
        { 1200, VC4_L2CACTL_L2CENA, 1 },
        { 1300, 0x100, 0 },                     /* enabled again: the line was kept */
        { 1500, 0x140, 0 },                     /* miss */
        { 1700, 0x140, 0 },                     /* hit */
    };
    unsigned n = sizeof script / sizeof script[0];
    memcpy(r.feeder->script, script, sizeof script);
    r.feeder->count = n;
    run(&r);
    static const int expect_hit[] = { 0, 1, -1, 0, -1, 0, 0, -1, 1, 0, 1 };
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT_EQUAL(r.catcher->hit[i], expect_hit[i]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.clears"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.uncached_reads"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.hits"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.l2cactl_writes"), 3);
    /* an uncached read takes the SDRAM path without the lookup */
    CU_ASSERT_EQUAL(r.catcher->cycle[5], 800 + 1 + LINE / BYTES_PER_CYCLE + SDRAM + 1);
    sim_destroy(r.sim);
}

/* The BCM2835 bus-address aliases (bits 31:30): the same line through the 0x40000000 alias is
 * cached; through the 0xC0000000 "direct uncached" alias [ext: BCM2835 ARM Peripherals 1.2.2]
 * it goes around the L2 (no hit even when the line is held, nothing allocated): its reply
 * takes the SDRAM path without the lookup, as a disabled L2's does. */
static void test_uncached_alias_bypasses(void)
{
    struct rig r = rig_new();
    static const struct step script[] = {
        { 10, 0x40000200u, 0 },                 /* miss, allocates line 8 */
        { 200, 0x40000200u, 0 },                /* hit */
        { 400, 0xc0000200u, 0 },                /* uncached alias: SDRAM, though held */
        { 600, 0xc0000240u, 0 },                /* uncached alias: not allocated ... */
        { 800, 0x00000240u, 0 },                /* ... so the cached alias misses it */
        { 1000, 0x80000200u, 0 },               /* the 0x8 alias is cached: a hit */
    };
    unsigned n = sizeof script / sizeof script[0];
    memcpy(r.feeder->script, script, sizeof script);
    r.feeder->count = n;
    run(&r);
    static const int expect_hit[] = { 0, 1, 0, 0, 0, 1 };
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT_EQUAL(r.catcher->hit[i], expect_hit[i]);
    CU_ASSERT_EQUAL(r.catcher->cycle[2], 400 + 1 + LINE / BYTES_PER_CYCLE + SDRAM + 1);
    CU_ASSERT_EQUAL(r.catcher->cycle[4], 800 + 1 + HIT + LINE / BYTES_PER_CYCLE + SDRAM + 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.alias_uncached_reads"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.hits"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 2);
    sim_destroy(r.sim);
}

/* ---- a TMU whose cache misses go to the L2 ---- */

struct qpu_feeder {
    struct port *out;
    struct qpu_io_request script[8];
    unsigned count, next;
};

static const struct port_desc qpu_feeder_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "TMU writes and loads" }, PORT_END
};

static int qpu_feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct qpu_feeder *f = unit_state(u);
    f->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity qpu_feeder_tick(struct unit *u)
{
    struct qpu_feeder *f = unit_state(u);
    while (f->next < f->count && port_can_send(f->out)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_io_request));
        memcpy(m->payload, &f->script[f->next], sizeof f->script[0]);
        if (!port_try_send(f->out, m)) {
            msg_free(unit_sim(u), m);
            break;
        }
        f->next++;
        unit_progress(u);
    }
    return UNIT_IDLE;
}

static const struct unit_ops qpu_feeder_ops = {
    .kind = "test_l2_qpu_feeder", .help = "test", .state_size = sizeof(struct qpu_feeder),
    .ports = qpu_feeder_ports, .realize = qpu_feeder_realize, .reset = feeder_reset,
    .tick = qpu_feeder_tick,
};

struct r4_catcher {
    struct port *in;
    unsigned count;
    uint64_t cycle[8];
    uint32_t value[8][QPU_LANES];
};

static int r4_catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct r4_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity r4_catcher_tick(struct unit *u)
{
    struct r4_catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct qpu_io_result *r = (const struct qpu_io_result *)m->payload;
        if (c->count < 8) {
            memcpy(c->value[c->count], r->value, sizeof c->value[0]);
            c->cycle[c->count] = unit_cycle(u);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops r4_catcher_ops = {
    .kind = "test_l2_r4_catcher", .help = "test", .state_size = sizeof(struct r4_catcher),
    .ports = catcher_ports, .realize = r4_catcher_realize, .tick = r4_catcher_tick,
};

static void direct_lookup(struct qpu_feeder *f, uint32_t base, uint32_t stride)
{
    struct qpu_io_request *w = &f->script[f->count++];
    memset(w, 0, sizeof *w);
    w->op = QPU_IO_WRITE;
    w->reg = QPU_IO_TMU0_S;
    w->lane_mask = 0xffff;
    for (unsigned i = 0; i < QPU_LANES; i++)
        w->value[i] = base + stride * i;
}

/* three direct lookups: one line (a TMU miss, an L2 miss), the same line again (a TMU hit: no
 * L2 request), sixteen lines (sixteen of each); every load waits for its lines, so the first
 * answer comes no earlier than the L2's miss round trip (longer than the TMU's own 20-cycle
 * latency) and the third no earlier than sixteen more SDRAM transfers after it */
static void test_tmu_fills_through_l2(void)
{
    struct sim *sim = probe_sim(NULL);
    struct gpu_memory *mem = probe_memory(sim);
    static const char *const l2_over[] = { "size_kb=1", "ways=2", "hit_latency=5",
                                           "sdram_latency=40", "sdram_bytes_per_cycle=16", NULL };
    static const char *const tmu_over[] = { "memory_mb=64", "cache_kb=1", "latency=20", NULL };
    struct unit *l2 = probe_add(sim, &vc4_l2_ops, "l2", l2_over);
    struct unit *tmu = probe_add(sim, &vc4_tmu_ops, "tmu", tmu_over);
    struct unit *f = probe_add(sim, &qpu_feeder_ops, "feeder", NULL);
    struct unit *c = probe_add(sim, &r4_catcher_ops, "catcher", NULL);
    probe_link(sim, f, "out", tmu, "qpu[0]", 1, 8, 1);
    probe_link(sim, tmu, "result[0]", c, "in", 1, 8, 1);
    probe_link(sim, tmu, "l2", l2, "client[0]", 1, 8, 1);
    probe_link(sim, l2, "reply[0]", tmu, "l2_reply", 1, 8, 1);
    for (uint32_t a = 0; a < 0x4000; a += 4) {
        uint32_t v = a * 2654435761u;
        gpu_memory_write(mem, a, &v, 4, NULL);
    }
    struct qpu_feeder *feeder = unit_state(f);
    direct_lookup(feeder, 0x1000, 4);
    direct_lookup(feeder, 0x1000, 4);
    direct_lookup(feeder, 0x2000, 64);
    for (unsigned k = 0; k < 3; k++) {
        struct qpu_io_request *w = &feeder->script[feeder->count++];
        memset(w, 0, sizeof *w);
        w->op = QPU_IO_SIGNAL;
        w->reg = 10;
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    sim_run(sim, 0);
    struct r4_catcher *catcher = unit_state(c);
    CU_ASSERT_EQUAL_FATAL(catcher->count, 3);
    static const uint32_t base[3] = { 0x1000, 0x1000, 0x2000 }, stride[3] = { 4, 4, 64 };
    for (unsigned k = 0; k < 3; k++)
        for (unsigned i = 0; i < QPU_LANES; i++)
            CU_ASSERT_EQUAL(catcher->value[k][i], (base[k] + stride[k] * i) * 2654435761u);
    CU_ASSERT_EQUAL(probe_stat(sim, "tmu.cache_misses"), 17);
    CU_ASSERT_EQUAL(probe_stat(sim, "tmu.cache_hits"), 15 + 16);
    CU_ASSERT_EQUAL(probe_stat(sim, "tmu.l2_requests"), 17);
    CU_ASSERT_EQUAL(probe_stat(sim, "l2.misses"), 17);
    CU_ASSERT_EQUAL(probe_stat(sim, "l2.hits"), 0);
    uint64_t round_trip = 1 + HIT + LINE / BYTES_PER_CYCLE + SDRAM + 1;
    CU_ASSERT_TRUE(catcher->cycle[0] >= 1 + round_trip);
    CU_ASSERT_TRUE(catcher->cycle[1] >= catcher->cycle[0]);
    CU_ASSERT_TRUE(catcher->cycle[2] >= catcher->cycle[0] + 16 * (LINE / BYTES_PER_CYCLE));
    sim_destroy(sim);
}

/* Bad input: an MMIO message on a request port and an MMIO sync on the control port are
 * counted and dropped; the good request behind them is still answered, as a miss. */
static void test_malformed_messages(void)
{
    struct rig r = rig_new();
    r.feeder->script[0] = (struct step){ 10, 0, 0 };
    r.feeder->malformed[0] = 1;
    r.feeder->script[1] = (struct step){ 11, 0, 0 };
    r.feeder->malformed[1] = 2;
    r.feeder->script[2] = (struct step){ 20, 3 * LINE, 0 };
    r.feeder->count = 3;
    run(&r);
    CU_ASSERT_EQUAL(r.catcher->count, 1);
    CU_ASSERT_EQUAL(r.catcher->hit[2], 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.bad_messages"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 1);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "LRU hits and misses and their latencies", test_hits_misses_and_latency },
    { "SDRAM bandwidth shared by misses", test_sdram_bandwidth },
    { "L2CACTL clear, disable, enable", test_l2cactl },
    { "the uncached bus alias goes around the L2", test_uncached_alias_bypasses },
    { "TMU cache misses filled through the L2", test_tmu_fills_through_l2 },
    { "malformed messages counted and dropped", test_malformed_messages },
    { 0 }
};
TEST_SUITE(vc4_l2, cases);
