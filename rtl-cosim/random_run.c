/* rtl-cosim/random_run.c - see random_run.h. */
#include "rtl-cosim/random_run.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/cs_alu_cosim.h"

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double stat_value(struct sim *sim, const char *path)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = 0;
    stats_lookup(w, path, &v);
    stats_writer_destroy(w);
    return v;
}

int cosim_random_run(const struct random_run_options *o, struct random_run_result *r,
                     struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    uint32_t max_count = o->max_count ? o->max_count : 64;
    uint32_t cpi = o->cycles_per_instruction ? o->cycles_per_instruction : 1;
    /* requests average (1 + max_count) / 2 instructions (1 in 64 has none) */
    uint64_t requests = o->ops * 2 / (max_count + 1) + 1;
    requests += requests / 16;             /* margin over the average */
    char extra[2048] = "";
    size_t n = 0;
    if (o->wave)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " wave = \"%s\";", o->wave);
    if (o->wave && (o->wave_from || o->wave_to))
        n += (size_t)snprintf(extra + n, sizeof extra - n,
                              " wave_from = %" PRIu64 "L; wave_to = %" PRIu64 "L;", o->wave_from,
                              o->wave_to);
    if (o->record_request)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " record_request = \"%s\";",
                              o->record_request);
    if (o->record_response)
        snprintf(extra + n, sizeof extra - n, " record_response = \"%s\";", o->record_response);
    char cpi_text[64] = "";
    if (cpi > 1)
        snprintf(cpi_text, sizeof cpi_text, " cycles_per_instruction = %u;", cpi);
    char text[4096];
    snprintf(text, sizeof text,
             "clocks = { gt = { period_ps = 1000; }; };\n"
             "link_defaults = { latency = 1; capacity = 2; width = 1; };\n"
             "gpu = {\n"
             "  stim = { kind = \"cs_alu_stim\"; seed = %" PRIu64 "L; requests = %" PRIu64 "L;"
             " max_count = %u; reserved_permille = %u; };\n"
             "  cs_alu = { kind = \"cs_alu\"; impl = \"%s\";%s%s };\n"
             "  sink = { kind = \"cosim_sink\"; pop_permille = %u; seed = %" PRIu64 "L; };\n"
             "  links = ( { from = \"stim.out\"; to = \"cs_alu.request\"; },\n"
             "            { from = \"cs_alu.response\"; to = \"sink.in\"; capacity = %u; } );\n"
             "};\n",
             o->seed, requests, max_count,
             o->reserved_permille ? o->reserved_permille : 20, o->impl ? o->impl : "c", cpi_text,
             extra, o->pop_permille ? o->pop_permille : 1000, o->seed + 1,
             o->capacity ? o->capacity : 2);
    struct gt_config *config = gt_config_parse(text, ".", err);
    if (!config)
        return -1;
    struct sim_options so = { .watchdog_cycles = 100000, .log_level = SIM_LOG_WARNING,
                              .log_file = o->report };
    struct sim *sim = sim_create(&so);
    int rc = -1;
    if (topology_build(sim, config, cosim_kind_find, err) < 0 || sim_realize(sim, err) < 0)
        goto out;
    double t0 = host_seconds();
    enum sim_stop_reason why = sim_run(sim, 0);
    r->seconds = host_seconds() - t0;
    if (why == SIM_STOP_DEADLOCK) {
        gt_error_set(err, "random run deadlocked: %s", sim_deadlock_report(sim));
        goto out;
    }
    r->cycles = sim_now(sim) / 1000;
    struct unit *stim = sim_find_unit(sim, "gpu.stim");
    struct unit *alu = sim_find_unit(sim, "gpu.cs_alu");
    r->cov = *cs_alu_stim_coverage(stim);
    r->requests = r->cov.requests;
    r->instructions = r->cov.instructions;
    r->responses = (uint64_t)stat_value(sim, "gpu.sink.received");
    r->response_stalls = (uint64_t)stat_value(sim, "gpu.cs_alu.port.response.stalled_full");
    if (cosim_unit_is(alu)) {
        r->mismatches = cosim_finish(alu);
        r->compared = cosim_compared(alu);
        r->first_mismatch = cosim_first_mismatch(alu);
        cs_alu_cosim_counters(alu, &r->engine);
        const struct cosim_errors *e = cosim_errors(alu);
        if (e->count)
            snprintf(r->first_report, sizeof r->first_report, "%s", e->line[0]);
    }
    rc = 0;
out:
    sim_destroy(sim);
    gt_config_free(config);
    return rc;
}
