/* fuzz/fuzz_common.c - see fuzz_common.h. */
#include "fuzz/fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/aub.h"

#include "fabric/sim.h"
#include "tools/machine.h"
#include "units/registry.h"

void fuzz_write_temp(const uint8_t *data, size_t size, const char *suffix, char *path,
                     size_t path_size)
{
    snprintf(path, path_size, "/tmp/gtsim-fuzz-%ld%s", (long)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

#define RING_MAX_DWORDS 16384u

void fuzz_write_ring_capture(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    uint32_t count = (uint32_t)(size / 4 > RING_MAX_DWORDS ? RING_MAX_DWORDS : size / 4);
    uint32_t *dwords = malloc(4 * (size_t)count + 4);
    if (!dwords)
        abort();
    memcpy(dwords, data, 4 * (size_t)count);
    snprintf(path, path_size, "/tmp/gtsim-fuzz-%ld.ring.aub", (long)getpid());
    struct aub_writer writer;
    struct gt_error err;
    if (aub_writer_open(&writer, path, 0, &err) < 0 ||
        aub_write_memtrace_version(&writer, 0x1912, 12, "fuzz_cs_batch", &err) < 0 ||
        (count && aub_write_legacy_ring(&writer, AUB_TRACE_RING_PRB0, 0, dwords, count, &err) < 0) ||
        aub_writer_close(&writer, &err) < 0) {
        fprintf(stderr, "fuzz: %s\n", err.message);
        abort();
    }
    free(dwords);
}

/* Builds the machine of config_path with sets and the workload, runs it under
 * the cycle limit and tells a silent watchdog stop (a hang) from a clean one. */
static int run_machine(const char *config_path, const char **sets, int set_count,
                       const char *workload)
{
    struct machine_request req = {
        .config_path = config_path,
        .sets = sets,
        .set_count = set_count,
        .workload = workload,
    };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    if (!config)
        return FUZZ_REJECTED;
    struct sim *sim = machine_build(config, unit_kind_find, &err);
    if (!sim) {
        gt_config_free(config);
        return FUZZ_REJECTED;
    }
    int result = (int)sim_run(sim, (uint64_t)FUZZ_MAX_CYCLES * sim_clock_period(sim, 0));
    /* the watchdog logs its own report as one error (fabric/sim.c sim_run) */
    if (result == SIM_STOP_DEADLOCK && sim_log_count(sim, SIM_LOG_ERROR) <= 1) {
        fprintf(stderr, "fuzz: hang with no error logged:\n%s\n", sim_deadlock_report(sim));
        result = FUZZ_HANG;
    }
    sim_destroy(sim);
    gt_config_free(config);
    return result;
}

int fuzz_run_capture(const char *aub_path)
{
    char watchdog[64];
    snprintf(watchdog, sizeof watchdog, "simulation.watchdog_cycles=%u", FUZZ_WATCHDOG_CYCLES);
    /* A small machine: one subslice instead of GT2's three (tools/machine.h overrides). */
    const char *sets[] = { "gpu.slice.subslice.count=1", "simulation.log_level=0", watchdog };
    return run_machine(DEFAULT_CONFIG, sets, (int)(sizeof sets / sizeof sets[0]), aub_path);
}

int fuzz_run_vc4_dump(const char *dump_path)
{
    char watchdog[64];
    snprintf(watchdog, sizeof watchdog, "simulation.watchdog_cycles=%u", FUZZ_WATCHDOG_CYCLES);
    const char *sets[] = { "simulation.log_level=0", watchdog };
    return run_machine(FUZZ_VC4_CONFIG, sets, (int)(sizeof sets / sizeof sets[0]), dump_path);
}
