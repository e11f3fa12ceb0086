/* fuzz/fuzz_config.c - the config loader with topology building: the input is
 * config text (includes relative to configs/), built into a sim with the real
 * unit kinds and realized. Inputs that @include an absolute path or one with
 * ".." are skipped: reading arbitrary host files (/dev/zero) is the host's
 * business, not a fault of the loader. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "units/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    if (strstr(text, "@include") && (strstr(text, "\"/") || strstr(text, "..") || strstr(text, "\\"))) {
        free(text);
        return 0;
    }
    struct gt_error err;
    struct gt_config *config = gt_config_parse(text, "configs", &err);
    free(text);
    if (!config)
        return 0;
    struct sim_options options = { .watchdog_cycles = 1000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&options);
    if (topology_build(sim, config, unit_kind_find, &err) == 0)
        sim_realize(sim, &err);
    sim_destroy(sim);
    gt_config_free(config);
    return 0;
}
