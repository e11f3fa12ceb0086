/* fuzz/fuzz_eu_exec.c - EU execution of random kernels in the EU rig
 * (tests/support/eu_rig.h): one Gen9 EU, a stub shared function that answers
 * every SEND, a sink for thread ends. The input's first 64 bytes are two
 * payload registers (r1, r2; r0 is zero), the rest the kernel, loaded at
 * 0x10000 and followed by zeros. Watchdog: a cycle limit (a looping kernel is
 * not a finding) and the sim's no-progress watchdog (a hang with no error
 * logged is). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "tests/support/eu_rig.h"
#include "tests/support/probes.h"

#include "units/eu/eu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define KERNEL_BASE 0x10000u
#define MAX_KERNEL 4096u
#define MAX_CYCLES 20000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t regs[3][8];
    memset(regs, 0, sizeof regs);
    size_t payload = size < 64 ? size : 64;
    memcpy(regs[1], data, payload);
    data += payload;
    size -= payload;
    if (size > MAX_KERNEL)
        size = MAX_KERNEL;

    struct sim_options options = { .watchdog_cycles = 2000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = probe_sim(&options);
    struct unit *eu = probe_add(sim, &eu_ops, "eu", NULL);
    struct unit *sf = probe_add(sim, &stub_sf_ops, "sf", NULL);
    const char *sink_over[] = { "per_cycle=4", NULL };
    struct unit *ends = probe_add(sim, &probe_sink_ops, "ends", sink_over);
    probe_link(sim, eu, "send", sf, "in", 1, 16, 4);
    probe_link(sim, sf, "out", eu, "writeback", 4, 16, 4);
    probe_link(sim, eu, "td", ends, "in", 1, 16, 4);
    struct gpu_memory *memory = rig_memory(sim);
    struct gt_error err;
    if (size && gpu_memory_write(memory, KERNEL_BASE, data, size, &err) < 0)
        abort();
    if (sim_realize(sim, &err) < 0) {
        fprintf(stderr, "fuzz_eu_exec: %s\n", err.message);
        abort();
    }
    struct msg *m = rig_dispatch_msg(sim, KERNEL_BASE, 0, 8, (const uint32_t (*)[8])regs, 3, 1, 0);
    if (!port_inject(unit_port(eu, "dispatch", 0), m))
        abort();
    enum sim_stop_reason reason = sim_run(sim, (uint64_t)MAX_CYCLES * sim_clock_period(sim, 0));
    /* the watchdog logs its own report as one error (fabric/sim.c sim_run) */
    if (reason == SIM_STOP_DEADLOCK && sim_log_count(sim, SIM_LOG_ERROR) <= 1) {
        fprintf(stderr, "fuzz_eu_exec: hang with no error logged:\n%s\n", sim_deadlock_report(sim));
        abort();
    }
    sim_destroy(sim);
    return 0;
}
