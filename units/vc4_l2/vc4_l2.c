/* units/vc4_l2/vc4_l2.c - the VideoCore IV L2 cache and SDRAM timing; see vc4_l2.h. */
#include "units/vc4_l2/vc4_l2.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"

struct l2_line {
    uint64_t tag;               /* line address + 1; 0: empty */
    uint64_t used;              /* last use, for LRU */
};

struct vc4_l2 {
    uint32_t size_kb, line_bytes, ways, hit_latency, sdram_latency, sdram_bytes_per_cycle;
    uint32_t enabled_at_reset, address_mask, uncached_alias;
    bool enabled;
    struct l2_line *line;
    uint32_t sets;
    uint64_t use_clock, sdram_free;
    struct port **in, **out, *control;
    uint32_t ins, outs;
    struct reply_queue replies;
    uint32_t logged;
    uint64_t reads, hits, misses, uncached_reads, writes, clears, l2cactl_writes;
    uint64_t slcactl_writes, unknown_registers, sdram_busy_cycles, bad_messages, reply_stalls;
    uint64_t alias_uncached_reads, alias_uncached_writes;
};

static const struct param_desc l2_params[] = {
    PARAM_U32_FIELD("size_kb", struct vc4_l2, size_kb, 128, 1, 4096,
                    "L2C size, KiB (the seed gives none; BCM2835: 128 KB [ext])"),
    PARAM_U32_FIELD("line_bytes", struct vc4_l2, line_bytes, 64, 16, 64,
                    "line size, bytes, a power of two (not in the seed [chosen])"),
    PARAM_U32_FIELD("ways", struct vc4_l2, ways, 4, 1, 64,
                    "associativity (not in the seed [chosen])"),
    PARAM_U32_FIELD("hit_latency", struct vc4_l2, hit_latency, 8, 1, 100000,
                    "cycles from a request to its reply on a hit [chosen]"),
    PARAM_U32_FIELD("sdram_latency", struct vc4_l2, sdram_latency, 60, 0, 1000000,
                    "cycles SDRAM adds to a miss or write beyond its transfer [chosen]"),
    PARAM_U32_FIELD("sdram_bytes_per_cycle", struct vc4_l2, sdram_bytes_per_cycle, 8, 1, 1024,
                    "SDRAM bandwidth, bytes per cycle of this unit's clock [chosen]"),
    PARAM_U32_FIELD("enabled", struct vc4_l2, enabled_at_reset, 1, 0, 1,
                    "L2CENA at reset (1: enabled)"),
    PARAM_U32_FIELD("address_mask", struct vc4_l2, address_mask, 0xffffffffu, 1, 0xffffffffu,
                    "mask applied to bus addresses (BCM2835: 0x3fffffff)"),
    PARAM_U32_FIELD("uncached_alias", struct vc4_l2, uncached_alias, 3, 0, 4,
                    "bus address bits 31:30 of the alias that bypasses the L2 (BCM2835: 3, the "
                    "0xC0000000 \"direct uncached\" alias [ext: BCM2835 ARM Peripherals 1.2.2]); "
                    "4: none"),
    PARAM_END
};

static const struct port_desc l2_ports[] = {
    { .name = "client", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "line requests of the TMUs and caches" },
    { .name = "reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "replies to the client of the same index" },
    { .name = "control", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "V3D_L2CACTL / V3D_SLCACTL writes (CS_MMIO_WRITE)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_l2, f, m, h)
static const struct stat_desc l2_stats[] = {
    C("reads", reads, "lines", "line reads requested"),
    C("hits", hits, "lines", "reads found in the L2C (performance counter 28)"),
    C("misses", misses, "lines", "reads not found, filled from SDRAM (performance counter 29)"),
    C("uncached_reads", uncached_reads, "lines", "reads while the L2C was disabled"),
    C("writes", writes, "lines", "writes (not cached: SDRAM time only)"),
    C("clears", clears, "events", "L2CCLR clears"),
    C("l2cactl_writes", l2cactl_writes, "writes", "V3D_L2CACTL writes"),
    C("slcactl_writes", slcactl_writes, "writes", "V3D_SLCACTL writes (slice caches)"),
    C("unknown_registers", unknown_registers, "writes", "control writes of other registers"),
    C("sdram_busy_cycles", sdram_busy_cycles, "cycles", "cycles SDRAM spent transferring"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("reply_stalls", reply_stalls, "events", "replies held by a full channel"),
    C("alias_uncached_reads", alias_uncached_reads, "lines",
      "reads through the uncached alias or of target MEMREQ_UNCACHED (SDRAM, not cached)"),
    C("alias_uncached_writes", alias_uncached_writes, "lines",
      "writes through the uncached alias (SDRAM time, as every write)"),
    STAT_END
};
#undef C

static void note(struct vc4_l2 *s, struct unit *u, unsigned bit, const char *what)
{
    if (!(s->logged & (1u << bit))) {
        s->logged |= 1u << bit;
        unit_log(u, SIM_LOG_NOTE, "%s (counted; later ones are not logged)", what);
    }
}

static void clear_lines(struct vc4_l2 *s)
{
    if (s->line)
        memset(s->line, 0, (size_t)s->sets * s->ways * sizeof *s->line);
}

/* Looks the line up; on a miss allocates it (LRU way). True on a hit. */
static bool lookup(struct vc4_l2 *s, uint64_t line_address)
{
    struct l2_line *set = &s->line[(line_address % s->sets) * s->ways];
    struct l2_line *victim = &set[0];
    s->use_clock++;
    for (uint32_t w = 0; w < s->ways; w++) {
        if (set[w].tag == line_address + 1) {
            set[w].used = s->use_clock;
            return true;
        }
        if (set[w].used < victim->used)
            victim = &set[w];
    }
    victim->tag = line_address + 1;
    victim->used = s->use_clock;
    return false;
}

/* The cycle an SDRAM access of `bytes` started no earlier than `now` completes. */
static uint64_t sdram_access(struct vc4_l2 *s, uint64_t now, uint32_t bytes)
{
    uint64_t start = now > s->sdram_free ? now : s->sdram_free;
    uint64_t transfer = (bytes + s->sdram_bytes_per_cycle - 1) / s->sdram_bytes_per_cycle;
    s->sdram_free = start + transfer;
    s->sdram_busy_cycles += transfer;
    return start + transfer + s->sdram_latency;
}

static void take_request(struct vc4_l2 *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct memreq *q = (const struct memreq *)m->payload;
    if (m->kind != MSG_MEMORY_REQUEST || m->size < sizeof *q || port >= s->outs ||
        !s->out[port]) {
        s->bad_messages++;
        note(s, u, 0, "malformed or unanswerable memory request dropped");
        msg_free(unit_sim(u), m);
        return;
    }
    uint64_t now = unit_cycle(u);
    uint64_t line_address = (q->address & s->address_mask) / s->line_bytes;
    uint8_t hit = 0;
    uint64_t ready;
    /* the bus address alias (bits 31:30, before the mask) or the request's own target says
     * whether the access goes around the cache */
    bool bypass = ((q->address >> 30) & 3) == s->uncached_alias ||
                  q->target == MEMREQ_UNCACHED;
    if (q->op != MEMREQ_READ) {
        s->writes++;
        if (bypass)
            s->alias_uncached_writes++;
        ready = sdram_access(s, now, q->bytes ? q->bytes : s->line_bytes);
    } else if (bypass) {
        s->reads++;
        s->alias_uncached_reads++;
        ready = sdram_access(s, now, s->line_bytes);
    } else if (!s->enabled) {
        s->reads++;
        s->uncached_reads++;
        ready = sdram_access(s, now, s->line_bytes);
    } else {
        s->reads++;
        if (lookup(s, line_address)) {
            s->hits++;
            hit = 1;
            ready = now + s->hit_latency;
        } else {
            s->misses++;
            ready = sdram_access(s, now + s->hit_latency, s->line_bytes);
        }
    }
    reply_queue_push(&s->replies, ready, port, m, &hit);
}

static void take_control(struct vc4_l2 *s, struct unit *u, struct msg *m)
{
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (m->kind != MSG_MMIO || m->size < sizeof *c || c->op != CS_MMIO_WRITE) {
        s->bad_messages++;
        note(s, u, 1, "malformed control message dropped");
        return;
    }
    if (c->offset == VC4_L2CACTL) {
        s->l2cactl_writes++;
        if (c->value & VC4_L2CACTL_L2CCLR) {
            clear_lines(s);
            s->clears++;
        }
        if (c->value & VC4_L2CACTL_L2CDIS)
            s->enabled = false;
        else if (c->value & VC4_L2CACTL_L2CENA)
            s->enabled = true;
    } else if (c->offset == VC4_SLCACTL) {
        s->slcactl_writes++;
    } else {
        s->unknown_registers++;
        note(s, u, 2, "control write of a register the L2C does not own");
    }
}

static int l2_realize(struct unit *u, struct gt_error *err)
{
    struct vc4_l2 *s = unit_state(u);
    if (s->line_bytes & (s->line_bytes - 1)) {
        gt_error_set(err, "vc4_l2: line_bytes %u is not a power of two", s->line_bytes);
        return -1;
    }
    uint32_t lines = s->size_kb * 1024 / s->line_bytes;
    if (lines < s->ways || lines % s->ways) {
        gt_error_set(err, "vc4_l2: %u lines do not divide into %u ways", lines, s->ways);
        return -1;
    }
    s->sets = lines / s->ways;
    free(s->line);
    s->line = gt_xcalloc((size_t)lines, sizeof *s->line);
    s->in = unit_port_array(u, "client", &s->ins);
    s->out = unit_port_array(u, "reply", &s->outs);
    s->control = unit_port(u, "control", 0);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .data_size = 1, .order = REPLY_QUEUE_READY_THEN_INSERTION,
        .refusal = REPLY_QUEUE_PER_PORT, .ports = s->out, .port_count = s->outs,
        .stall_count = &s->reply_stalls, .build = memreq_reply_build });
    return 0;
}

static void l2_reset(struct unit *u)
{
    struct vc4_l2 *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    clear_lines(s);
    s->enabled = s->enabled_at_reset != 0;
    s->use_clock = 0;
    s->sdram_free = 0;
}

static enum unit_activity l2_tick(struct unit *u)
{
    struct vc4_l2 *s = unit_state(u);
    struct msg *m;
    while (s->control && (m = port_pop(s->control)) != NULL) {
        take_control(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    for (uint32_t p = 0; p < s->ins; p++)
        while (s->in[p] && (m = port_pop(s->in[p])) != NULL) {
            take_request(s, u, p, m);
            unit_progress(u);
        }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void l2_destroy(struct unit *u)
{
    struct vc4_l2 *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->line);
    s->line = NULL;
}

const struct unit_ops vc4_l2_ops = {
    .kind = "vc4_l2",
    .help = "VideoCore IV L2 cache (L2C) in front of SDRAM: set-associative read cache of the "
            "TMUs' lines with hit / SDRAM latency and SDRAM bandwidth, V3D_L2CACTL enable, "
            "disable and clear (seed 002 @40407, Table 71).",
    .state_size = sizeof(struct vc4_l2),
    .params = l2_params,
    .ports = l2_ports,
    .stats = l2_stats,
    .realize = l2_realize,
    .reset = l2_reset,
    .tick = l2_tick,
    .destroy = l2_destroy,
};
