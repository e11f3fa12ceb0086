/* fuzz/fuzz_common.c - see fuzz_common.h. */
#include "fuzz/fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

int fuzz_run_capture(const char *aub_path)
{
    char watchdog[64];
    snprintf(watchdog, sizeof watchdog, "simulation.watchdog_cycles=%u", FUZZ_WATCHDOG_CYCLES);
    /* A small machine: one subslice instead of GT2's three (tools/machine.h overrides). */
    const char *sets[] = { "gpu.slice.subslice.count=1", "simulation.log_level=0", watchdog };
    struct machine_request req = {
        .config_path = DEFAULT_CONFIG,
        .sets = sets,
        .set_count = (int)(sizeof sets / sizeof sets[0]),
        .workload = aub_path,
    };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    if (!config)
        return -1;
    struct sim *sim = machine_build(config, unit_kind_find, &err);
    if (!sim) {
        gt_config_free(config);
        return -1;
    }
    enum sim_stop_reason reason = sim_run(sim, (uint64_t)FUZZ_MAX_CYCLES * sim_clock_period(sim, 0));
    if (reason == SIM_STOP_DEADLOCK && sim_log_count(sim, SIM_LOG_ERROR) == 0) {
        fprintf(stderr, "fuzz: hang with no error logged:\n%s\n", sim_deadlock_report(sim));
        abort();
    }
    sim_destroy(sim);
    gt_config_free(config);
    return (int)reason;
}
