/* tests/support/machine_run.h - what the integration tests that play a
 * capture through a whole machine share: the config loaded with its
 * overrides, the machine built from the unit registry (or a test's own
 * lookup) and run until it is quiescent, and the check that a capture
 * `make workloads` writes is there. */
#ifndef GTSIM_TESTS_SUPPORT_MACHINE_RUN_H
#define GTSIM_TESTS_SUPPORT_MACHINE_RUN_H

#include <stdbool.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "tools/machine.h"

struct machine_run {
    struct gt_config *config;
    struct sim *sim;
};

/* req's machine built with lookup (NULL: the unit registry) and run until
 * quiescent (asserted). A config or machine that cannot be built is a fatal
 * assertion, the reason printed. Free with machine_run_free. */
void machine_run(const struct machine_request *req, unit_kind_lookup_fn lookup,
                 struct machine_run *m);
void machine_run_free(struct machine_run *m);

/* Whether the capture `path` (one `make workloads` writes) exists; when it
 * does not, says so and fails the test. */
bool machine_run_workload_present(const char *path);

#endif
