/* tests/support/machine_run.c - see machine_run.h. */
#include "tests/support/machine_run.h"

#include <stdio.h>
#include <unistd.h>

#include "tests/test.h"
#include "units/registry.h"

void machine_run(const struct machine_request *req, unit_kind_lookup_fn lookup,
                 struct machine_run *m)
{
    struct gt_error err = { "" };
    m->sim = NULL;
    m->config = machine_config(req, &err);
    if (!m->config)
        fprintf(stderr, "%s: %s\n", req->config_path ? req->config_path : "config", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->config);
    m->sim = machine_build(m->config, lookup ? lookup : unit_kind_find, &err);
    if (!m->sim)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->sim);
    CU_ASSERT_EQUAL(sim_run(m->sim, 0), SIM_STOP_QUIESCENT);
}

void machine_run_free(struct machine_run *m)
{
    sim_destroy(m->sim);
    gt_config_free(m->config);
    m->sim = NULL;
    m->config = NULL;
}

bool machine_run_workload_present(const char *path)
{
    if (access(path, R_OK) == 0)
        return true;
    fprintf(stderr, "%s is missing: `make workloads` writes it\n", path);
    CU_FAIL("workload missing");
    return false;
}
