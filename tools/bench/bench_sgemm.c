/* tools/bench/bench_sgemm.c - the tiled SGEMM workload (workloads/workload.h,
 * written by mk/workloads.mk) through the whole machine on Gen9 GT2 and GT3:
 * simulated GT cycles, GPU cycles per host second, EU instructions per host
 * second, the slowdown against the same SGEMM in plain C on the host, and
 * the peak RSS. */
#include "tools/bench/bench_sgemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "fabric/config.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "fabric/unit.h"
#include "units/registry.h"
#include "workloads/workload.h"

#define SGEMM_AUB "build/gen/workloads/sgemm.gen9.aub.gz"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void release_memory(void *m)
{
    gpu_memory_destroy(m);
}

/* The same C = A x B on the host, best of several runs (seconds per run). */
static double plain_c_seconds(void)
{
    enum { M = WORKLOAD_SGEMM_M, N = WORKLOAD_SGEMM_N, K = WORKLOAD_SGEMM_K };
    static float a[M * K], b[K * N], c[M * N];
    for (uint32_t i = 0; i < M * K; i++)
        a[i] = workload_sgemm_a(i);
    for (uint32_t i = 0; i < K * N; i++)
        b[i] = workload_sgemm_b(i);
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = seconds_now();
        for (int it = 0; it < 100; it++)
            for (uint32_t r = 0; r < M; r++)
                for (uint32_t col = 0; col < N; col++) {
                    float acc = 0.0f;
                    for (uint32_t k = 0; k < K; k++)
                        acc += a[r * K + k] * b[k * N + col];
                    c[r * N + col] = acc + (float)it * 0.0f;
                }
        double s = (seconds_now() - t0) / 100;
        best = s < best ? s : best;
    }
    volatile float sink = c[0];
    (void)sink;
    return best;
}

static void run_on(const char *config, double plain)
{
    struct gt_error err;
    char set[256];
    snprintf(set, sizeof set, "host.workload=\"%s\"", SGEMM_AUB);
    struct gt_config *c = gt_config_load(config, &err);
    if (!c || gt_config_set(c, set, &err) < 0) {
        printf("  %s: %s\n", config, err.message);
        gt_config_free(c);
        return;
    }
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_set_memory(sim, gpu_memory_create(&err), release_memory);
    if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0) {
        printf("  %s: %s\n", config, err.message);
        sim_destroy(sim);
        gt_config_free(c);
        return;
    }
    double t0 = seconds_now();
    sim_run(sim, 0);
    double s = seconds_now() - t0;
    uint64_t cycles = sim_now(sim) / sim_clock_period(sim, 0);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double instructions = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        char path[600];
        double v;
        snprintf(path, sizeof path, "%s.instructions", unit_name(u));
        if (strcmp(unit_kind(u), "eu") == 0 && stats_lookup(w, path, &v))
            instructions += v;
    }
    stats_writer_destroy(w);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  %-26s %7llu GT cycles in %.3f s = %.2f M GPU-cycles/s, %.2f M EU instr/s, "
           "slowdown vs plain C %.0fx, peak RSS %.1f MiB\n", config, (unsigned long long)cycles,
           s, (double)cycles / s / 1e6, instructions / s / 1e6, plain > 0 ? s / plain : 0.0,
           (double)ru.ru_maxrss / 1024.0);
    sim_destroy(sim);
    gt_config_free(c);
}

void bench_sgemm(void)
{
    if (access(SGEMM_AUB, R_OK) != 0) {
        printf("\nSGEMM: %s not found (make workloads)\n", SGEMM_AUB);
        return;
    }
    double plain = plain_c_seconds();
    printf("\ntiled SGEMM %ux%ux%u (Gen9, SIMD8, SLM panel + barrier; plain C on the host: "
           "%.1f us):\n", WORKLOAD_SGEMM_M, WORKLOAD_SGEMM_N, WORKLOAD_SGEMM_K, plain * 1e6);
    run_on("configs/gen9-skl-gt2.cfg", plain);
    run_on("configs/gen9-skl-gt3.cfg", plain);
}
