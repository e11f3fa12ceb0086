/* tests/units/test_l3.c - the L3 and the LLC/DRAM model driven alone by a
 * scripted requester. Expected cycles follow from the parameters and the
 * rules in units/l3/l3.h (seed 003 L18291-18573): one request per bank per
 * cycle, hit latency, fills through miss entries, the Gen9 1-bit LRU. */
#include <stdio.h>
#include <string.h>

#include "units/common/memreq.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/l3/l3.h"
#include "units/memory/memory.h"

#define MAX_SCRIPT 256

/* Sends its script (address, op, target, cycle) and records reply cycles. */
struct requester {
    struct memreq script[MAX_SCRIPT];
    uint64_t when[MAX_SCRIPT];
    uint32_t count, sent, replies;
    uint64_t reply_cycle[MAX_SCRIPT];
    uint8_t reply_hit[MAX_SCRIPT];
    struct port *out, *in;
};

static const struct port_desc requester_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "requests" },
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "replies" },
    PORT_END
};

static int requester_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct requester *r = unit_state(u);
    r->out = unit_port(u, "out", 0);
    r->in = unit_port(u, "in", 0);
    return 0;
}

static void requester_reset(struct unit *u)
{
    struct requester *r = unit_state(u);
    if (r->count)
        unit_wake_at(u, r->when[0]);
}

static enum unit_activity requester_tick(struct unit *u)
{
    struct requester *r = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while ((m = port_pop(r->in))) {
        const struct memreply *a = (const struct memreply *)m->payload;
        CU_ASSERT_EQUAL(m->kind, MSG_MEMORY_RESPONSE);
        if (a->tag < MAX_SCRIPT) {
            r->reply_cycle[a->tag] = now;
            r->reply_hit[a->tag] = a->hit;
        }
        r->replies++;
        msg_free(unit_sim(u), m);
    }
    while (r->sent < r->count && r->when[r->sent] <= now && port_can_send(r->out)) {
        struct msg *q = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        *(struct memreq *)q->payload = r->script[r->sent];
        ((struct memreq *)q->payload)->tag = r->sent;
        port_try_send(r->out, q);
        r->sent++;
    }
    if (r->sent < r->count && r->when[r->sent] > now)
        unit_wake_at(u, r->when[r->sent]);
    return r->sent < r->count && r->when[r->sent] <= now ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops requester_ops = {
    .kind = "test_requester", .help = "test: scripted memory requests",
    .state_size = sizeof(struct requester), .ports = requester_ports,
    .realize = requester_realize, .reset = requester_reset, .tick = requester_tick,
};

static void script(struct requester *r, uint64_t when, uint64_t address, enum memreq_op op,
                   enum memreq_target target)
{
    r->when[r->count] = when;
    r->script[r->count] = (struct memreq){ .address = address, .bytes = 64, .op = (uint8_t)op,
                                           .target = (uint8_t)target };
    r->count++;
}

struct rig {
    struct sim *sim;
    struct unit *req, *l3, *mem;
    struct requester *r;
};

/* requester -> L3 (one client) -> memory; every link latency 1. */
static struct rig rig(const char *const *l3_over, const char *const *mem_over,
                      void (*fill_script)(struct requester *))
{
    struct rig g;
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    g.sim = probe_sim(&o);
    g.req = probe_add(g.sim, &requester_ops, "req", NULL);
    g.l3 = probe_add(g.sim, &l3_ops, "l3", l3_over);
    g.mem = probe_add(g.sim, &memory_ops, "mem", mem_over);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.l3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.mem);
    probe_link(g.sim, g.req, "out", g.l3, "client", 1, 64, 64);
    probe_link(g.sim, g.l3, "client_reply", g.req, "in", 1, 64, 64);
    probe_link(g.sim, g.l3, "memory", g.mem, "client", 1, 64, 64);
    probe_link(g.sim, g.mem, "client_reply", g.l3, "memory_reply", 1, 64, 64);
    g.r = unit_state(g.req);
    fill_script(g.r);
    struct gt_error err;
    int rc = sim_realize(g.sim, &err);
    if (rc)
        fprintf(stderr, "rig: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return g;
}

static void two_reads_of_one_line(struct requester *r)
{
    script(r, 0, 0x1000, MEMREQ_READ, MEMREQ_DATA);
    script(r, 500, 0x1000, MEMREQ_READ, MEMREQ_DATA);
}

/* Miss then hit. Miss: sent at 0, arrives at the L3 at 1, its bank looks it
 * up at 1 and sends to memory (arrives 2); memory (no LLC) transfers 64 B at
 * 32 B/cycle (2..4) and adds dram_latency 100: reply due 104, at the L3 at
 * 105, fill + fill_latency 4 = 109, at the requester 110. Hit: sent at 500,
 * looked up at 501, due 501 + 30 = 531, received 532. */
static void test_miss_then_hit_latency(void)
{
    const char *l3o[] = { "hit_latency=30", "fill_latency=4", NULL };
    const char *memo[] = { "llc_kib=0", "dram_latency=100", "bytes_per_cycle=32", NULL };
    struct rig g = rig(l3o, memo, two_reads_of_one_line);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->replies, 2);
    CU_ASSERT_EQUAL(g.r->reply_cycle[0], 110);
    CU_ASSERT_EQUAL(g.r->reply_hit[0], 0);
    CU_ASSERT_EQUAL(g.r->reply_cycle[1], 532);
    CU_ASSERT_EQUAL(g.r->reply_hit[1], 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.hit_rate"), 0.5);
    sim_destroy(g.sim);
}

/* Warm 8 lines of one bank (lines 0, 8, 16, ... with 8 banks), then read them
 * all at once at 1000: the bank takes one per cycle, so replies come at
 * 1000 + 1 + k + 30 + 1 for k = 0..7; eight lines of eight different banks
 * read at 2000 all come back together. */
static void bank_script(struct requester *r)
{
    for (int k = 0; k < 8; k++)
        script(r, (uint64_t)k, (uint64_t)k * 8 * 64, MEMREQ_READ, MEMREQ_DATA);
    for (int k = 0; k < 8; k++)
        script(r, 1000, (uint64_t)k * 8 * 64, MEMREQ_READ, MEMREQ_DATA);
    for (int k = 0; k < 8; k++)
        script(r, 1500, (uint64_t)(64 + k) * 64, MEMREQ_READ, MEMREQ_DATA);   /* warm 8 banks */
    for (int k = 0; k < 8; k++)
        script(r, 2000, (uint64_t)(64 + k) * 64, MEMREQ_READ, MEMREQ_DATA);
}

static void test_one_request_per_bank_per_cycle(void)
{
    const char *l3o[] = { "banks=8", "cache_kib=256", "urb_kib=256",
                          "size_kib=768", NULL };
    const char *memo[] = { "llc_kib=0", NULL };
    struct rig g = rig(l3o, memo, bank_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->replies, 32);
    for (int k = 0; k < 8; k++) {
        CU_ASSERT_EQUAL(g.r->reply_cycle[8 + k], 1000 + 1 + (uint64_t)k + 30 + 1);
        CU_ASSERT_EQUAL(g.r->reply_cycle[24 + k], 2000 + 1 + 30 + 1);
    }
    sim_destroy(g.sim);
}

/* Misses to one line wait in one miss entry: one memory read for both. */
static void merged_script(struct requester *r)
{
    script(r, 0, 0x2000, MEMREQ_READ, MEMREQ_DATA);
    script(r, 1, 0x2000, MEMREQ_WRITE, MEMREQ_DATA);
}

static void test_misses_to_one_line_merge(void)
{
    const char *const *l3o = NULL;
    const char *memo[] = { "llc_kib=0", NULL };
    struct rig g = rig(l3o, memo, merged_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->replies, 2);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "mem.requests"), 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.merged_misses"), 1);
    CU_ASSERT_EQUAL(g.r->reply_cycle[0], g.r->reply_cycle[1]);
    sim_destroy(g.sim);
}

/* The 1-bit LRU (seed 003 L18561-18565: pick the first way whose bit is 0
 * and set it; when all are 1, clear them and pick way 0). Geometry: 1 bank,
 * 2 KiB ways = 32 sets; cache 8 KiB = 4 ways; lines 0, 32, 64, 96, 128 share
 * set 0. Fills of lines 0, 32, 64, 96 take ways 0-3 (bits 1111); line 128
 * finds all set: clear, way 0 (line 0, dirty: a writeback), bits 1000. Line 0
 * again misses and takes way 1 (line 32 goes), bits 1100. Line 96 (way 3)
 * still hits. */
static void lru_script(struct requester *r)
{
    script(r, 0, 0 * 32 * 64, MEMREQ_WRITE, MEMREQ_DATA);
    for (int k = 1; k < 5; k++)
        script(r, (uint64_t)k * 300, (uint64_t)k * 32 * 64, MEMREQ_READ, MEMREQ_DATA);
    script(r, 2000, 0, MEMREQ_READ, MEMREQ_DATA);                  /* evicted: miss */
    script(r, 2500, 3 * 32 * 64, MEMREQ_READ, MEMREQ_DATA);        /* still there */
}

static void test_one_bit_lru_evicts_way_zero(void)
{
    const char *l3o[] = { "banks=1", "cache_kib=8", "urb_kib=0", "size_kib=64",
                          NULL };
    const char *memo[] = { "llc_kib=0", NULL };
    struct rig g = rig(l3o, memo, lru_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->replies, 7);
    CU_ASSERT_EQUAL(g.r->reply_hit[5], 0);
    CU_ASSERT_EQUAL(g.r->reply_hit[6], 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.evictions"), 2);     /* line 0, then line 128 */
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.writebacks"), 1);
    sim_destroy(g.sim);
}

/* URB requests bypass the tags: urb_latency, never a miss. */
static void urb_script(struct requester *r)
{
    script(r, 0, 0x40, MEMREQ_WRITE, MEMREQ_URB);
    script(r, 10, 0x40, MEMREQ_READ, MEMREQ_URB);
}

static void test_urb_bypasses_tags(void)
{
    const char *l3o[] = { "urb_latency=20", NULL };
    struct rig g = rig(l3o, NULL, urb_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->reply_cycle[0], 0 + 1 + 20 + 1);
    CU_ASSERT_EQUAL(g.r->reply_cycle[1], 10 + 1 + 20 + 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "l3.urb_accesses"), 2);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "mem.requests"), 0);
    sim_destroy(g.sim);
}

/* DRAM bandwidth: 16 uncached reads at once, 64 B each at 16 B/cycle: each
 * holds the bus 4 cycles, so replies are 4 cycles apart; the first: in the
 * L3 at 1, memory at 2, bus 2..6, +50 = 56, L3 at 57, fill 4 = 61, back 62. */
static void bandwidth_script(struct requester *r)
{
    for (int k = 0; k < 16; k++)
        script(r, 0, (uint64_t)k * 64, MEMREQ_READ, MEMREQ_UNCACHED);
}

static void test_dram_bandwidth_spaces_replies(void)
{
    const char *l3o[] = { "banks=16", "cache_kib=256", "urb_kib=256", NULL };
    const char *memo[] = { "llc_kib=0", "bytes_per_cycle=16", "dram_latency=50", NULL };
    struct rig g = rig(l3o, memo, bandwidth_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->replies, 16);
    for (int k = 0; k < 16; k++)
        CU_ASSERT_EQUAL(g.r->reply_cycle[k], 62 + 4 * (uint64_t)k);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "mem.dram_bytes"), 16 * 64);
    sim_destroy(g.sim);
}

/* The LLC: a line read twice through an uncached L3 path hits the LLC the
 * second time (llc_latency instead of the DRAM trip). */
static void llc_script(struct requester *r)
{
    script(r, 0, 0x3000, MEMREQ_READ, MEMREQ_UNCACHED);
    script(r, 400, 0x3000, MEMREQ_READ, MEMREQ_UNCACHED);
}

static void test_llc_hit(void)
{
    const char *const *l3o = NULL;
    const char *memo[] = { "llc_kib=64", "llc_latency=40", "dram_latency=100", NULL };
    struct rig g = rig(l3o, memo, llc_script);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(g.r->reply_cycle[1], 400 + 1 + 1 + 40 + 1 + 4 + 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "mem.llc_hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(g.sim, "mem.llc_hit_rate"), 0.5);
    sim_destroy(g.sim);
}

static void test_bad_geometry_and_messages(void)
{
    struct sim *sim = probe_sim(NULL);
    struct gt_error err;
    const char *too_big[] = { "cache_kib=512", "urb_kib=384", NULL };
    struct unit *l3 = probe_add(sim, &l3_ops, "l3", too_big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l3);
    struct unit *mem = probe_add(sim, &memory_ops, "mem", NULL);
    for (uint32_t i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "l3.client[%u]", i);
        struct msg *m = msg_alloc(sim, MSG_GENERIC, 4);     /* not a memory request */
        port_inject(sim_resolve_port(sim, name, PORT_IN, &err), m);
    }
    probe_link(sim, l3, "memory", mem, "client", 1, 4, 1);
    probe_link(sim, mem, "client_reply", l3, "memory_reply", 1, 4, 1);
    CU_ASSERT_EQUAL(sim_realize(sim, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "exceed size_kib 768"));
    sim_destroy(sim);

    /* messages that are no memory request are counted and dropped */
    sim = probe_sim(NULL);
    const char *const *one = NULL;
    l3 = probe_add(sim, &l3_ops, "l3", one);
    mem = probe_add(sim, &memory_ops, "mem", NULL);
    struct port *client = sim_resolve_port(sim, "l3.client", PORT_IN, &err);
    port_inject(client, msg_alloc(sim, MSG_GENERIC, 4));
    port_inject(client, msg_alloc(sim, MSG_MEMORY_REQUEST, 2));  /* short */
    probe_link(sim, l3, "memory", mem, "client", 1, 4, 1);
    probe_link(sim, mem, "client_reply", l3, "memory_reply", 1, 4, 1);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.unexpected"), 2);
    sim_destroy(sim);
}

/* ---- L3CNTLREG from the command streamer ----------------------------------- */

/* Sends MSG_MMIO writes of L3CNTLREG at given cycles, as the CS does. */
struct programmer {
    uint32_t value[8];
    uint64_t when[8];
    uint32_t count, sent;
    struct port *out;
};

static const struct port_desc programmer_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "L3CNTLREG writes" },
    PORT_END
};

static int programmer_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct programmer *p = unit_state(u);
    p->out = unit_port(u, "out", 0);
    return 0;
}

static void programmer_reset(struct unit *u)
{
    struct programmer *p = unit_state(u);
    if (p->count)
        unit_wake_at(u, p->when[0]);
}

static enum unit_activity programmer_tick(struct unit *u)
{
    struct programmer *p = unit_state(u);
    uint64_t now = unit_cycle(u);
    while (p->sent < p->count && p->when[p->sent] <= now && port_can_send(p->out)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        w->op = CS_MMIO_WRITE;
        w->offset = 0x7034;
        w->value = p->value[p->sent++];
        port_try_send(p->out, m);
    }
    if (p->sent < p->count)
        unit_wake_at(u, p->when[p->sent]);
    return UNIT_IDLE;
}

static const struct unit_ops programmer_ops = {
    .kind = "test_l3_programmer", .help = "test: scripted L3CNTLREG writes",
    .state_size = sizeof(struct programmer), .ports = programmer_ports,
    .realize = programmer_realize, .reset = programmer_reset, .tick = programmer_tick,
};

static void no_requests(struct requester *r) { (void)r; }

static void one_write(struct requester *r) { script(r, 0, 0x1000, MEMREQ_WRITE, MEMREQ_DATA); }

/* Runs the writes (at cycle 1000, 1001, ...) against a default GT2 slice
 * L3 (768 KB, 4 banks, 2 KB ways: 96 ways) and returns the simulation. */
static struct sim *program_l3(const uint32_t *values, uint32_t n,
                              void (*fill_script)(struct requester *))
{
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    struct sim *sim = probe_sim(&o);
    struct unit *req = probe_add(sim, &requester_ops, "req", NULL);
    struct unit *l3 = probe_add(sim, &l3_ops, "l3", NULL);
    struct unit *mem = probe_add(sim, &memory_ops, "mem", NULL);
    struct unit *cs = probe_add(sim, &programmer_ops, "cs", NULL);
    probe_link(sim, req, "out", l3, "client", 1, 64, 64);
    probe_link(sim, l3, "client_reply", req, "in", 1, 64, 64);
    probe_link(sim, l3, "memory", mem, "client", 1, 64, 64);
    probe_link(sim, mem, "client_reply", l3, "memory_reply", 1, 64, 64);
    probe_link(sim, cs, "out", l3, "cs", 1, 8, 1);
    fill_script(unit_state(req));
    struct programmer *p = unit_state(cs);
    for (uint32_t i = 0; i < n; i++) {
        p->value[i] = values[i];
        p->when[i] = 1000 + i;
    }
    p->count = n;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    return sim;
}

static void check_partition(struct sim *sim, double slm, double urb, double ro, double dc,
                            double rest)
{
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.partition.slm_kib"), slm);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.partition.urb_kib"), urb);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.partition.ro_kib"), ro);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.partition.dc_kib"), dc);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.partition.rest_kib"), rest);
}

/* Field layout (genxml L3CNTLREG): 0 SLM Enable, 7:1 URB, 17:11 RO, 24:18 DC,
 * 31:25 All, in ways of 8 KB per GT2 slice (2 KB x 4 banks); SLM is 256 KB.
 * Expected sizes: the GT2 allocation table rows (003 notes §4.5). */
static void test_l3cntlreg_partition(void)
{
    /* no write: the params' partition (URB 384, Rest 384) */
    struct sim *sim = program_l3(NULL, 0, no_requests);
    check_partition(sim, 0, 384, 0, 0, 384);
    sim_destroy(sim);

    /* skl_compute's first write, 0x60000021: SLM on, URB 16, All 48 ways =
     * the SLM row {SLM 256, URB 128, Rest 384} */
    const uint32_t slm[] = { 0x60000021 };
    sim = program_l3(slm, 1, no_requests);
    check_partition(sim, 256, 128, 0, 0, 384);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.reprograms"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.programming_violations"), 0);
    sim_destroy(sim);

    /* URB 48, RO 32, DC 16 ways: the row {URB 384, DC 128, RO 256}; then
     * the default 0x60000060 back to {URB 384, Rest 384} */
    const uint32_t split[] = { (48u << 1) | (32u << 11) | (16u << 18), 0x60000060 };
    sim = program_l3(split, 1, no_requests);
    check_partition(sim, 0, 384, 256, 128, 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.programming_violations"), 0);
    sim_destroy(sim);
    sim = program_l3(split, 2, no_requests);
    check_partition(sim, 0, 384, 0, 0, 384);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.reprograms"), 2);
    sim_destroy(sim);
}

static void test_l3cntlreg_rules(void)
{
    /* everything to DC with no RO: "Rest = 0 implies RO != 0" (applied, counted) */
    const uint32_t all_dc[] = { (48u << 1) | (48u << 18) };
    struct sim *sim = program_l3(all_dc, 1, no_requests);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.programming_violations"), 1);
    check_partition(sim, 0, 384, 0, 384, 0);
    sim_destroy(sim);

    /* URB 48 + All 32 = 80 of 96 ways: not every way included: rejected */
    const uint32_t short_sum[] = { (48u << 1) | (32u << 25) };
    sim = program_l3(short_sum, 1, no_requests);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.programming_violations"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.rejected_programmings"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.reprograms"), 0);
    check_partition(sim, 0, 384, 0, 0, 384);
    sim_destroy(sim);

    /* URB 80 (640 KB > 512), RO 8, All 8 (64 KB: R/W ways under 128 KB): two
     * rules broken, the ways add up, so applied */
    const uint32_t small_rw[] = { (80u << 1) | (8u << 11) | (8u << 25) };
    sim = program_l3(small_rw, 1, no_requests);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.programming_violations"), 2);
    check_partition(sim, 0, 640, 64, 0, 64);
    sim_destroy(sim);

    /* the L3 is emptied when reprogrammed: a dirty line is written back */
    const uint32_t dflt[] = { 0x60000060 };
    sim = program_l3(dflt, 1, one_write);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.writebacks"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "mem.writes"), 1);
    sim_destroy(sim);
}

/* DC | RO pools: with URB 48, RO 32, DC 16 ways (the {URB 384, DC 128, RO
 * 256} row), R/W data fills only the 16 DC ways of a set and read-only data
 * only the 32 RO ways. 17 R/W lines of one set (line stride banks x sets =
 * 4 x 32 lines = 8 KB) evict the first (1-bit LRU: all 16 bits set, cleared,
 * way 0 picked); 17 read-only lines fit. */
static void same_set_dc(struct requester *r)
{
    for (uint32_t i = 0; i < 17; i++)
        script(r, 2000 + 200 * i, 8192ull * i, MEMREQ_READ, MEMREQ_DATA);
    script(r, 6000, 0, MEMREQ_READ, MEMREQ_DATA);
}

static void same_set_ro(struct requester *r)
{
    for (uint32_t i = 0; i < 17; i++)
        script(r, 2000 + 200 * i, 8192ull * i, MEMREQ_READ, (enum memreq_target)MEMREQ_RO_DATA);
    script(r, 6000, 0, MEMREQ_READ, (enum memreq_target)MEMREQ_RO_DATA);
}

static void test_l3cntlreg_pools(void)
{
    const uint32_t split[] = { (48u << 1) | (32u << 11) | (16u << 18) };
    struct sim *sim = program_l3(split, 1, same_set_dc);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.misses"), 18);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.hits"), 0);
    /* line 16 evicts line 0 (way 0), line 0 again evicts line 1 (way 1) */
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.evictions"), 2);
    sim_destroy(sim);
    sim = program_l3(split, 1, same_set_ro);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.misses"), 17);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.evictions"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.ro_reads"), 18);
    sim_destroy(sim);
    /* the params' partition (all Rest, 48 ways): both fit */
    sim = program_l3(NULL, 0, same_set_dc);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.evictions"), 0);
    sim_destroy(sim);
}

/* SLM needs an SLM partition: an SLM request while SLM Enable is clear is
 * counted as bad programming; after 60000021h (SLM on) it is not. */
static void one_slm_access(struct requester *r) { script(r, 2000, 0x40, MEMREQ_READ, MEMREQ_SLM); }

static void test_slm_needs_partition(void)
{
    struct sim *sim = program_l3(NULL, 0, one_slm_access);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.slm_unallocated"), 1);
    sim_destroy(sim);
    const uint32_t slm[] = { 0x60000021 };
    sim = program_l3(slm, 1, one_slm_access);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.slm_unallocated"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "l3.urb_accesses"), 1);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "miss then hit latency", test_miss_then_hit_latency },
    { "one request per bank per cycle", test_one_request_per_bank_per_cycle },
    { "misses to one line merge", test_misses_to_one_line_merge },
    { "one-bit lru evicts way zero", test_one_bit_lru_evicts_way_zero },
    { "urb bypasses tags", test_urb_bypasses_tags },
    { "dram bandwidth spaces replies", test_dram_bandwidth_spaces_replies },
    { "llc hit", test_llc_hit },
    { "bad geometry and messages", test_bad_geometry_and_messages },
    { "l3cntlreg partition", test_l3cntlreg_partition },
    { "l3cntlreg rules", test_l3cntlreg_rules },
    { "l3cntlreg dc and ro pools", test_l3cntlreg_pools },
    { "slm needs an slm partition", test_slm_needs_partition },
    { 0 }
};
TEST_SUITE(l3, cases);
