/* fuzz/fuzz_common.c - see fuzz_common.h. */
#include "fuzz/fuzz_common.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/aub.h"
#include "fabric/memory.h"
#include "fabric/stats.h"

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

/* What a run left, for comparing two runs (fuzz_compare_capture). */
struct run_outcome {
    int result;                 /* as run_machine returns */
    uint64_t now_ps;            /* simulated time at the stop */
    struct stats_writer *stats; /* every stat row (the caller destroys it) */
    uint64_t memory_digest;     /* gpu_memory_digest of the machine's memory */
};

/* Builds the machine of config_path with sets (and `more` after them) and the
 * workload, runs it under the cycle limit and tells a silent watchdog stop (a
 * hang) from a clean one. With `out`, keeps what the run left there. */
static int run_machine(const char *config_path, const char **sets, int set_count,
                       const char *const *more, int more_count, const char *workload,
                       struct run_outcome *out)
{
    const char *all[16];
    if (set_count + more_count > (int)(sizeof all / sizeof all[0]))
        abort();                /* a fuzz target's own mistake */
    for (int i = 0; i < set_count; i++)
        all[i] = sets[i];
    for (int i = 0; i < more_count; i++)
        all[set_count + i] = more[i];
    struct machine_request req = {
        .config_path = config_path,
        .sets = all,
        .set_count = set_count + more_count,
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
    if (out) {
        out->result = result;
        out->now_ps = sim_now(sim);
        out->stats = stats_writer_create();
        sim_write_stats(sim, out->stats);
        out->memory_digest = sim_memory(sim) ? gpu_memory_digest(sim_memory(sim)) : 0;
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
    return run_machine(DEFAULT_CONFIG, sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, aub_path,
                       NULL);
}

int fuzz_run_vc4_dump(const char *dump_path)
{
    char watchdog[64];
    snprintf(watchdog, sizeof watchdog, "simulation.watchdog_cycles=%u", FUZZ_WATCHDOG_CYCLES);
    const char *sets[] = { "simulation.log_level=0", watchdog };
    return run_machine(FUZZ_VC4_CONFIG, sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0,
                       dump_path, NULL);
}

/* Whether two stat values are the same (NaN is the same as NaN). */
static bool same_value(double a, double b)
{
    return a == b || (a != a && b != b);
}

/* Prints where runs a and b first differ; returns whether they do. */
static bool outcomes_differ(const struct run_outcome *a, const struct run_outcome *b)
{
    if (a->result != b->result) {
        fprintf(stderr, "fuzz: the runs stopped differently (%d, %d)\n", a->result, b->result);
        return true;
    }
    if (a->now_ps != b->now_ps) {
        fprintf(stderr, "fuzz: the runs stopped at %" PRIu64 " ps and %" PRIu64 " ps\n",
                a->now_ps, b->now_ps);
        return true;
    }
    size_t rows_a = stats_row_count(a->stats), rows_b = stats_row_count(b->stats);
    for (size_t i = 0; i < rows_a || i < rows_b; i++) {
        const char *path_a = NULL, *path_b = NULL;
        double value_a = 0, value_b = 0;
        bool has_a = stats_row(a->stats, i, &path_a, &value_a);
        bool has_b = stats_row(b->stats, i, &path_b, &value_b);
        if (!has_a || !has_b || strcmp(path_a, path_b) != 0 || !same_value(value_a, value_b)) {
            fprintf(stderr, "fuzz: stat row %zu differs: %s = %.17g against %s = %.17g\n", i,
                    has_a ? path_a : "(none)", value_a, has_b ? path_b : "(none)", value_b);
            return true;
        }
    }
    if (a->memory_digest != b->memory_digest) {
        fprintf(stderr, "fuzz: the runs left different GPU memory (digests %016" PRIx64
                " and %016" PRIx64 ")\n", a->memory_digest, b->memory_digest);
        return true;
    }
    return false;
}

/* The capture played with `base`, then with each variant (each after the
 * common sets below); 0 when every variant's run is the base's. */
static int compare_runs(const char *aub_path, const char *const *base, int base_count,
                        const char *const *const *variants, const int *variant_counts,
                        int variant_count)
{
    char watchdog[64];
    snprintf(watchdog, sizeof watchdog, "simulation.watchdog_cycles=%u", FUZZ_WATCHDOG_CYCLES);
    /* two subslices, so that two host threads get a share each (fabric/sim.c
     * sim_partition: one slice's subslices and its L3 apart, and channels
     * between the threads) */
    const char *sets[] = { "gpu.slice.subslice.count=2", "simulation.log_level=0", watchdog };
    int count = (int)(sizeof sets / sizeof sets[0]);
    struct run_outcome a = { 0 };
    int result = run_machine(DEFAULT_CONFIG, sets, count, base, base_count, aub_path, &a);
    if (result == FUZZ_REJECTED || result == FUZZ_HANG) {
        stats_writer_destroy(a.stats);
        return result;
    }
    result = 0;
    for (int v = 0; v < variant_count && result == 0; v++) {
        struct run_outcome b = { 0 };
        int r = run_machine(DEFAULT_CONFIG, sets, count, variants[v], variant_counts[v], aub_path,
                            &b);
        if (r == FUZZ_REJECTED || r == FUZZ_HANG) {
            /* the first run built and did not hang: every other must match it */
            fprintf(stderr, "fuzz: the run with %s %s\n", variants[v][0],
                    r == FUZZ_HANG ? "hung" : "could not be built");
            result = FUZZ_DIVERGED;
        } else if (outcomes_differ(&a, &b)) {
            fprintf(stderr, "fuzz: (the run with %s against the one with %s)\n",
                    variant_counts[v] > 1 ? variants[v][1] : variants[v][0], base[0]);
            result = FUZZ_DIVERGED;
        }
        stats_writer_destroy(b.stats);
    }
    stats_writer_destroy(a.stats);
    return result;
}

int fuzz_compare_capture(const char *aub_path, const char *const *sets_a, int count_a,
                         const char *const *sets_b, int count_b)
{
    return compare_runs(aub_path, sets_a, count_a, &sets_b, &count_b, 1);
}

int fuzz_run_capture_threads(const char *aub_path)
{
    static const char *const one[] = { "simulation.threads=1" };
    static const char *const two[] = { "simulation.threads=2", "simulation.parallel_every_edge=1" };
    static const char *const shuffled[] = { "simulation.threads=1",
                                            "simulation.tick_order_seed=20261128" };
    static const char *const *const variants[] = { two, shuffled };
    static const int counts[] = { 2, 2 };
    return compare_runs(aub_path, one, 1, variants, counts, 2);
}
