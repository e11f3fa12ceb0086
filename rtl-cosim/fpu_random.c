/* rtl-cosim/fpu_random.c - see fpu_random.h. */
#include "rtl-cosim/fpu_random.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "fabric/config.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/recording.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/fpu_cosim.h"

/* ---- fpu_stim ------------------------------------------------------------------ */

struct fpu_stim {
    uint64_t seed, requests;
    uint32_t idle_permille, short_permille;
    struct fpu_gen g;
    struct port *out;
    uint64_t sent;
};

static const struct param_desc stim_params[] = {
    PARAM_U64_FIELD("seed", struct fpu_stim, seed, 1, 0, INT64_MAX, "random seed"),
    PARAM_U64_FIELD("requests", struct fpu_stim, requests, 1000, 0, INT64_MAX, "requests to send"),
    PARAM_U32_FIELD("idle_permille", struct fpu_stim, idle_permille, 50, 0, 1000,
                    "cycles per 1000 with no request"),
    PARAM_U32_FIELD("short_permille", struct fpu_stim, short_permille, 2, 0, 1000,
                    "requests per 1000 with a short payload, and as many with a field out "
                    "of range (bad requests)"),
    PARAM_END
};

static const struct port_desc stim_ports[] = {
    { .name = "out", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_GENERIC),
      .help = "struct fpu_request" },
    PORT_END
};

static const struct stat_desc stim_stats[] = {
    STAT_COUNTER_FIELD("sent", struct fpu_stim, sent, "messages", "requests sent"),
    STAT_END
};

static int stim_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct fpu_stim *s = unit_state(u);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static void stim_reset(struct unit *u)
{
    struct fpu_stim *s = unit_state(u);
    fpu_gen_init(&s->g, s->seed);
    s->sent = 0;
    if (s->requests)
        unit_wake_at(u, 0);
}

static enum unit_activity stim_tick(struct unit *u)
{
    struct fpu_stim *s = unit_state(u);
    if (s->sent >= s->requests)
        return UNIT_IDLE;
    if (!port_can_send(s->out))
        return UNIT_IDLE;                       /* woken when the channel frees */
    uint64_t x = fpu_gen_next(&s->g);
    if ((x >> 40) % 1000 < s->idle_permille)
        return UNIT_BUSY;
    struct fpu_request q;
    fpu_gen_request(&s->g, &q);
    if ((x >> 8) % 1000 < s->short_permille) {
        /* a bad request: one field out of range (checked like a short payload) */
        switch ((x >> 4) % 7) {
        case 0: q.op = (uint8_t)(FPU_OP_COUNT + (x & 7)); break;
        case 1: q.mode |= FPU_MODE_ALT; break;
        case 2: q.reserved = (uint8_t)(1 + (x & 0x7f)); break;
        case 3: q.pad = 1u << (x & 31); break;
        case 4: q.ctrl |= 1u << (13 + (x & 15)); break;
        case 5: q.mask = (uint8_t)(16 + (x & 0xef)); break;
        default: q.cond = (uint8_t)(10 + (x & 0x3f)); break;
        }
    }
    bool short_payload = (x >> 20) % 1000 < s->short_permille;
    uint32_t size = short_payload ? (uint32_t)sizeof q - 4 : (uint32_t)sizeof q;
    struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, size);
    memcpy(m->payload, &q, size);
    m->tag = (uint32_t)s->sent;
    port_try_send(s->out, m);
    s->sent++;
    return s->sent < s->requests ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops fpu_stim_ops = {
    .kind = "fpu_stim",
    .help = "co-simulation stimulus: seeded random FPU requests (units/fpu/fpu_gen.h)",
    .state_size = sizeof(struct fpu_stim),
    .params = stim_params,
    .ports = stim_ports,
    .stats = stim_stats,
    .realize = stim_realize,
    .reset = stim_reset,
    .tick = stim_tick,
};

const struct fpu_gen *fpu_stim_gen(const struct unit *u)
{
    const struct fpu_stim *s = unit_state(u);
    return &s->g;
}

/* ---- the run ---------------------------------------------------------------------- */

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Records the unit's port `port` to DIR/<port>.rec. */
static struct recorder *record(struct unit *u, const char *dir, const char *port,
                               struct gt_error *err)
{
    struct port *p = unit_port(u, port, 0);
    if (!p) {
        gt_error_set(err, "no port %s on %s", port, unit_name(u));
        return NULL;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.rec", dir, port);
    return recorder_attach(p, path, err);
}

int fpu_random_run(const struct fpu_random_options *o, struct fpu_random_result *r,
                   struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    char extra[1024] = "";
    size_t n = 0;
    if (o->depth && o->depth != 4)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " depth = %u;", o->depth);
    if (o->wave)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " wave = \"%s\";", o->wave);
    if (o->wave && (o->wave_from || o->wave_to))
        snprintf(extra + n, sizeof extra - n, " wave_from = %" PRIu64 "L; wave_to = %" PRIu64
                 "L;", o->wave_from, o->wave_to);
    char text[4096];
    snprintf(text, sizeof text,
             "clocks = { gt = { period_ps = 1000; }; };\n"
             "link_defaults = { latency = 1; capacity = 2; width = 1; };\n"
             "gpu = {\n"
             "  stim = { kind = \"fpu_stim\"; seed = %" PRIu64 "L; requests = %" PRIu64 "L;"
             " idle_permille = %u; };\n"
             "  fpu = { kind = \"fpu\"; impl = \"%s\";%s };\n"
             "  sink = { kind = \"cosim_sink\"; pop_permille = %u; seed = %" PRIu64 "L; };\n"
             "  links = ( { from = \"stim.out\"; to = \"fpu.request\"; },\n"
             "            { from = \"fpu.response\"; to = \"sink.in\"; } );\n"
             "};\n",
             o->seed, o->requests, o->idle_permille ? o->idle_permille : 50,
             o->impl ? o->impl : "c", extra, o->pop_permille ? o->pop_permille : 1000,
             o->seed + 1);
    struct gt_config *config = gt_config_parse(text, ".", err);
    if (!config)
        return -1;
    struct sim_options so = { .watchdog_cycles = 100000, .log_level = SIM_LOG_WARNING,
                              .log_file = o->report };
    struct sim *sim = sim_create(&so);
    struct recorder *rec[2] = { 0 };
    int rc = -1;
    if (topology_build(sim, config, cosim_kind_find, err) < 0 || sim_realize(sim, err) < 0)
        goto out;
    struct unit *fpu = sim_find_unit(sim, "gpu.fpu");
    if (o->record_dir) {
        static const char *const ports[2] = { "request", "response" };
        for (int i = 0; i < 2; i++)
            if (!(rec[i] = record(fpu, o->record_dir, ports[i], err)))
                goto out;
    }
    double t0 = host_seconds();
    enum sim_stop_reason why = sim_run(sim, 0);
    r->seconds = host_seconds() - t0;
    if (why == SIM_STOP_DEADLOCK) {
        gt_error_set(err, "fpu random run deadlocked: %s", sim_deadlock_report(sim));
        goto out;
    }
    r->cycles = sim_now(sim) / 1000;
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = 0;
    r->sent = stats_lookup(w, "gpu.stim.sent", &v) ? (uint64_t)v : 0;
    r->received = stats_lookup(w, "gpu.sink.received", &v) ? (uint64_t)v : 0;
    r->stall_cycles = stats_lookup(w, "gpu.fpu.stall_cycles", &v) ? (uint64_t)v : 0;
    stats_writer_destroy(w);
    r->cov = *fpu_stim_gen(sim_find_unit(sim, "gpu.stim"));
    if (cosim_unit_is(fpu)) {
        r->mismatches = cosim_finish(fpu);
        r->compared = cosim_compared(fpu);
        r->first_mismatch = cosim_first_mismatch(fpu);
        const struct cosim_errors *e = cosim_errors(fpu);
        if (e->count)
            snprintf(r->first_report, sizeof r->first_report, "%s", e->line[0]);
    }
    rc = 0;
out:
    for (int i = 0; i < 2; i++)
        if (rec[i]) {
            struct gt_error e2;
            if (recorder_close(rec[i], &e2) < 0 && rc == 0)
                rc = gt_error_set(err, "%s", e2.message);
        }
    sim_destroy(sim);
    gt_config_free(config);
    return rc;
}
