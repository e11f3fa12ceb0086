/* rtl-cosim/l3_random.c - see l3_random.h. */
#include "rtl-cosim/l3_random.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "fabric/config.h"
#include "fabric/recording.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/l3_cosim.h"

const char *const l3_random_stat_names[L3_RANDOM_STATS] = {
    "reads", "writes", "atomics", "hits", "misses", "merged_misses", "evictions", "writebacks",
    "urb_accesses", "uncached", "mshr_stalls", "queue_cycles", "reply_stalls", "unexpected",
    "ro_reads", "slm_unallocated", "reprograms", "programming_violations", "rejected_programmings",
};

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

int l3_random_run(const struct l3_random_options *o, struct l3_random_result *r,
                  struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    char extra[1024] = "";
    if (o->wave && (o->wave_from || o->wave_to))
        snprintf(extra, sizeof extra, " wave = \"%s\"; wave_from = %" PRIu64 "L; wave_to = %"
                 PRIu64 "L;", o->wave, o->wave_from, o->wave_to);
    else if (o->wave)
        snprintf(extra, sizeof extra, " wave = \"%s\";", o->wave);
    uint32_t banks = o->banks ? o->banks : 1;
    char text[4096];
    snprintf(text, sizeof text,
             "clocks = { gt = { period_ps = 1000; }; };\n"
             "link_defaults = { latency = 1; capacity = 4; width = 1; };\n"
             "gpu = {\n"
             "  stim = { kind = \"l3_stim\"; seed = %" PRIu64 "L; clients = %u; requests = %u;"
             " outstanding = %u; pop_permille = %u; ro_permille = %u; slm_permille = %u;"
             " program_permille = %u; program_ways = 32; };\n"
             "  l3 = { kind = \"l3\"; impl = \"%s\"; banks = %u; size_kib = %u; cache_kib = %u;"
             " urb_kib = %u; way_kib = 2; misses = 6; bank_queue = 8; hit_latency = 12;"
             " fill_latency = 3; urb_latency = 7; atomic_cycles = 3;%s };\n"
             "  memory = { kind = \"memory\"; llc_kib = 16; llc_ways = 4; llc_latency = 10;"
             " dram_latency = 30; queue = 4; };\n"
             "  links = ( { from = \"stim.out[*]\"; to = \"l3.client[*]\"; },\n"
             "            { from = \"l3.client_reply[*]\"; to = \"stim.in[*]\"; capacity = %u;"
             " width = %u; },\n"
             "            { from = \"l3.memory\"; to = \"memory.client[0]\"; capacity = %u;"
             " width = %u; },\n"
             "            { from = \"memory.client_reply[0]\"; to = \"l3.memory_reply\";"
             " capacity = %u; width = %u; }%s );\n"
             "};\n",
             o->seed, o->clients ? o->clients : 3, o->requests, o->outstanding ? o->outstanding : 8,
             o->pop_permille ? o->pop_permille : 1000, o->ro_permille, o->slm_permille,
             o->program_permille, o->impl ? o->impl : "c", banks, 64 * banks,
             8 * banks, 32 * banks, extra,
             o->reply_capacity ? o->reply_capacity : 2, o->width ? o->width : 1,
             o->memory_capacity ? o->memory_capacity : 2, o->width ? o->width : 1,
             o->memory_capacity ? o->memory_capacity : 2, o->width ? o->width : 1,
             o->program_permille ? ",\n            { from = \"stim.cs\"; to = \"l3.cs\"; }" : "");
    struct gt_config *config = gt_config_parse(text, ".", err);
    if (!config)
        return -1;
    struct sim_options so = { .watchdog_cycles = o->watchdog_cycles ? o->watchdog_cycles : 100000,
                              .log_level = SIM_LOG_WARNING,
                              .log_file = o->report };
    struct sim *sim = sim_create(&so);
    struct recorder *rec[4] = { 0 };
    int rc = -1;
    if (topology_build(sim, config, cosim_kind_find, err) < 0 || sim_realize(sim, err) < 0)
        goto out;
    struct unit *l3 = sim_find_unit(sim, "gpu.l3");
    if (o->record_dir) {
        static const char *const ports[4] = { "client", "memory_reply", "client_reply", "memory" };
        for (int i = 0; i < 4; i++)
            if (!(rec[i] = record(l3, o->record_dir, ports[i], err)))
                goto out;
    }
    double t0 = host_seconds();
    enum sim_stop_reason why = sim_run(sim, 0);
    r->seconds = host_seconds() - t0;
    if (why == SIM_STOP_DEADLOCK) {
        gt_error_set(err, "l3 random run deadlocked: %s", sim_deadlock_report(sim));
        goto out;
    }
    r->cycles = sim_now(sim) / 1000;
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = 0;
    const char *const stim_stats[4] = { "sent", "received", "bad_replies", "latency_cycles" };
    uint64_t *stim_out[4] = { &r->sent, &r->received, &r->bad_replies, &r->latency_cycles };
    for (int i = 0; i < 4; i++) {
        char path[128];
        snprintf(path, sizeof path, "gpu.stim.%s", stim_stats[i]);
        *stim_out[i] = stats_lookup(w, path, &v) ? (uint64_t)v : 0;
    }
    for (int i = 0; i < L3_RANDOM_STATS; i++) {
        char path[128];
        snprintf(path, sizeof path, "gpu.l3.%s", l3_random_stat_names[i]);
        r->stats[i] = stats_lookup(w, path, &v) ? (uint64_t)v : 0;
    }
    r->memory_requests = stats_lookup(w, "gpu.memory.requests", &v) ? (uint64_t)v : 0;
    r->rtl_clocks = stats_lookup(w, "gpu.l3.rtl_clocks", &v) ? (uint64_t)v : 0;
    stats_writer_destroy(w);
    if (cosim_unit_is(l3)) {
        r->mismatches = cosim_finish(l3);
        r->compared = cosim_compared(l3);
        r->first_mismatch = cosim_first_mismatch(l3);
        const struct cosim_errors *e = cosim_errors(l3);
        if (e->count)
            snprintf(r->first_report, sizeof r->first_report, "%s", e->line[0]);
    }
    rc = 0;
out:
    for (int i = 0; i < 4; i++)
        if (rec[i]) {
            struct gt_error e2;
            if (recorder_close(rec[i], &e2) < 0 && rc == 0)
                rc = gt_error_set(err, "%s", e2.message);
        }
    sim_destroy(sim);
    gt_config_free(config);
    return rc;
}
