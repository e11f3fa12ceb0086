/* tests/support/probes.c - see probes.h. */
#include "tests/support/probes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fabric/memory.h"
#include "fabric/stats.h"
#include "units/common/state_packet.h"
#include "units/registry.h"

/* ---- source ---- */

static const struct param_desc source_params[] = {
    PARAM_U64_FIELD("messages", struct probe_source, messages, 10, 0, 1LL << 40, "to send"),
    PARAM_U32_FIELD("per_cycle", struct probe_source, per_cycle, 1, 1, 1024, "per cycle"),
    PARAM_U64_FIELD("start_cycle", struct probe_source, start_cycle, 0, 0, 1LL << 40, "first"),
    PARAM_U32_FIELD("payload", struct probe_source, payload, 16, 0, 1 << 20, "bytes"),
    PARAM_U32_FIELD("period", struct probe_source, period, 1, 1, 1 << 20, "cycles between tries"),
    PARAM_END
};
static const struct port_desc source_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "numbered messages" }, PORT_END
};
static const struct stat_desc source_stats[] = {
    STAT_COUNTER_FIELD("sent", struct probe_source, sent, "messages", "sent"),
    STAT_COUNTER_FIELD("refused", struct probe_source, refused, "tries", "refused sends"),
    STAT_END
};

static int source_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct probe_source *s = unit_state(u);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static void source_reset(struct unit *u)
{
    struct probe_source *s = unit_state(u);
    if (s->messages)
        unit_wake_at(u, s->start_cycle);
}

static enum unit_activity source_tick(struct unit *u)
{
    struct probe_source *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    if (now < s->start_cycle || (now - s->start_cycle) % s->period) {
        unit_wake_at(u, now + 1);
        return UNIT_IDLE;
    }
    for (uint32_t i = 0; i < s->per_cycle && s->sent < s->messages; i++) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, s->payload);
        m->tag = (uint32_t)s->sent;
        if (!port_try_send(s->out, m)) {
            msg_free(unit_sim(u), m);
            s->refused++;
            return UNIT_IDLE;           /* woken when space frees */
        }
        if (s->sent < PROBE_MAX_RECORDS)
            s->send_cycle[s->sent] = now;
        s->sent++;
    }
    if (s->sent < s->messages) {
        if (s->period > 1) {
            unit_wake_at(u, now + s->period);
            return UNIT_IDLE;
        }
        return UNIT_BUSY;
    }
    return UNIT_IDLE;
}

const struct unit_ops probe_source_ops = {
    .kind = "test_source", .help = "test: sends numbered messages",
    .state_size = sizeof(struct probe_source), .params = source_params, .ports = source_ports,
    .stats = source_stats, .realize = source_realize, .reset = source_reset, .tick = source_tick,
};

/* ---- sink ---- */

static const struct param_desc sink_params[] = {
    PARAM_U32_FIELD("per_cycle", struct probe_sink, per_cycle, 1024, 0, 1 << 20, "pops per cycle"),
    PARAM_U64_FIELD("start_cycle", struct probe_sink, start_cycle, 0, 0, 1LL << 40, "first pop"),
    PARAM_END
};
static const struct port_desc sink_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" }, PORT_END
};
static const struct stat_desc sink_stats[] = {
    STAT_COUNTER_FIELD("received", struct probe_sink, received, "messages", "received"),
    STAT_COUNTER_FIELD("checksum", struct probe_sink, checksum, "hash", "order hash"),
    STAT_END
};

static int sink_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct probe_sink *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity sink_tick(struct unit *u)
{
    struct probe_sink *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    if (now < s->start_cycle) {
        unit_wake_at(u, s->start_cycle);
        return UNIT_IDLE;
    }
    for (uint32_t i = 0; i < s->per_cycle; i++) {
        struct msg *m = port_pop(s->in);
        if (!m)
            return UNIT_IDLE;
        if (s->received < PROBE_MAX_RECORDS) {
            s->tag[s->received] = m->tag;
            s->cycle[s->received] = now;
        }
        s->checksum = (s->checksum * 1000003u) ^ (m->tag * 31u + now);
        if (m->kind == MSG_STATE && m->size >= sizeof(struct cs_state_packet))
            s->space_format = ((const struct cs_state_packet *)m->payload)->space_format;
        s->received++;
        msg_free(unit_sim(u), m);
    }
    return port_peek(s->in) ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops probe_sink_ops = {
    .kind = "test_sink", .help = "test: records arrivals",
    .state_size = sizeof(struct probe_sink), .params = sink_params, .ports = sink_ports,
    .stats = sink_stats, .realize = sink_realize, .tick = sink_tick,
};

/* ---- relay ---- */

static const struct param_desc relay_params[] = {
    PARAM_U32_FIELD("per_cycle", struct probe_relay, per_cycle, 1, 1, 1024, "per cycle"),
    PARAM_END
};
static const struct port_desc relay_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "in" },
    { .name = "out", .direction = PORT_OUT, .help = "out" },
    PORT_END
};
static const struct stat_desc relay_stats[] = {
    STAT_COUNTER_FIELD("forwarded", struct probe_relay, forwarded, "messages", "forwarded"),
    STAT_END
};

static int relay_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct probe_relay *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity relay_tick(struct unit *u)
{
    struct probe_relay *s = unit_state(u);
    for (uint32_t i = 0; i < s->per_cycle; i++) {
        if (!port_peek(s->in))
            return UNIT_IDLE;
        if (!port_can_send(s->out))
            return UNIT_IDLE;
        port_try_send(s->out, port_pop(s->in));
        s->forwarded++;
    }
    return port_peek(s->in) ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops probe_relay_ops = {
    .kind = "test_relay", .help = "test: forwards",
    .state_size = sizeof(struct probe_relay), .params = relay_params, .ports = relay_ports,
    .stats = relay_stats, .realize = relay_realize, .tick = relay_tick,
};

/* ---- sleeper ---- */

static const struct param_desc sleeper_params[] = {
    PARAM_U32_FIELD("ticks", struct probe_sleeper, ticks, 10, 0, 1000000, "ticks to take"),
    PARAM_U32_FIELD("sleep_us", struct probe_sleeper, sleep_us, 1000, 0, 1000000,
                    "host microseconds each tick sleeps"),
    PARAM_END
};
static const struct port_desc sleeper_ports[] = { PORT_END };
static const struct stat_desc sleeper_stats[] = { STAT_END };

static void sleeper_reset(struct unit *u)
{
    struct probe_sleeper *s = unit_state(u);
    s->ticked = 0;
    if (s->ticks)
        unit_wake_at(u, 0);
}

static enum unit_activity sleeper_tick(struct unit *u)
{
    struct probe_sleeper *s = unit_state(u);
    struct timespec t = { .tv_sec = s->sleep_us / 1000000u,
                          .tv_nsec = (long)(s->sleep_us % 1000000u) * 1000 };
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
    return ++s->ticked < s->ticks ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops probe_sleeper_ops = {
    .kind = "test_sleeper", .help = "test: sleeps in each tick",
    .state_size = sizeof(struct probe_sleeper), .params = sleeper_params,
    .ports = sleeper_ports, .stats = sleeper_stats, .reset = sleeper_reset, .tick = sleeper_tick,
};

/* The relay again under another name: stands for a second implementation of
 * a kind (as an RTL model would be) in the topology's impl tests. */
static const struct unit_ops probe_relay_alt_ops = {
    .kind = "test_relay:alt", .help = "test: forwards (another implementation)",
    .state_size = sizeof(struct probe_relay), .params = relay_params, .ports = relay_ports,
    .stats = relay_stats, .realize = relay_realize, .tick = relay_tick,
};

const struct unit_ops *probe_kind_find(const char *kind)
{
    if (!strcmp(kind, "test_relay:alt"))
        return &probe_relay_alt_ops;
    if (!strcmp(kind, "test_source"))
        return &probe_source_ops;
    if (!strcmp(kind, "test_sink"))
        return &probe_sink_ops;
    if (!strcmp(kind, "test_relay"))
        return &probe_relay_ops;
    return unit_kind_find(kind);
}

struct sim *probe_sim(const struct sim_options *options)
{
    struct sim_options o = { .watchdog_cycles = 10000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(options ? options : &o);
    sim_add_clock(sim, "clk", 1000, NULL);
    return sim;
}

struct unit *probe_add(struct sim *sim, const struct unit_ops *ops, const char *name,
                       const char *const *overrides)
{
    struct gt_error err;
    struct unit *u = sim_add_unit(sim, ops, name, 0, NULL, overrides, &err);
    if (!u)
        fprintf(stderr, "probe_add(%s): %s\n", name, err.message);
    return u;
}

int probe_link(struct sim *sim, struct unit *from, const char *out, struct unit *to,
               const char *in, uint32_t latency, uint32_t capacity, uint32_t width)
{
    struct gt_error err;
    struct link_params lp = { latency, capacity, width };
    char a[512], b[512];
    snprintf(a, sizeof a, "%s.%s", unit_name(from), out);
    snprintf(b, sizeof b, "%s.%s", unit_name(to), in);
    /* by name, as the topology links: open port arrays are made here */
    struct port *o = sim_resolve_port(sim, a, PORT_OUT, &err);
    struct port *i = o ? sim_resolve_port(sim, b, PORT_IN, &err) : NULL;
    int rc = (o && i) ? sim_connect(sim, o, i, &lp, &err) : -1;
    if (rc < 0)
        fprintf(stderr, "probe_link: %s\n", err.message);
    return rc;
}

static void free_memory(void *memory)
{
    gpu_memory_destroy(memory);
}

struct gpu_memory *probe_memory(struct sim *sim)
{
    struct gpu_memory *memory = gpu_memory_create(NULL);
    sim_set_memory(sim, memory, free_memory);
    return memory;
}

double probe_stat(struct sim *sim, const char *path)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = -1;
    stats_lookup(w, path, &v);
    stats_writer_destroy(w);
    return v;
}
