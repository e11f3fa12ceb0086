/* tools/bench/bench_geometry.c - the geometry pipeline (VF -> VS -> ... -> SOL ->
 * CLIP -> SF) through the whole Gen9 GT2 machine, on GL captures:
 *  - skl_instanced (tests/data/traces: 16 instances of an indexed quad, 96
 *    vertices through VF) replayed several times: vertices through VF and
 *    objects into CLIP per host second (the whole machine runs: CS, VS
 *    threads on the EUs, URB, L3; a rate of the pipeline, not of VF alone);
 *  - skl_fill_heavy (two draws of 1000 triangles, 6000 vertices; from
 *    tests/data/traces):
 *    the run's GT cycles (the app's two draws plus the driver's clear and
 *    resolve), vertices and objects, and the host rate.
 * Figures are printed, never asserted. Run from the repository root. */
#include "tools/bench/bench_geometry.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fabric/config.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "units/registry.h"

#define GT2_CONFIG "configs/gen9-skl-gt2.cfg"
#define INSTANCED_AUB "tests/data/traces/skl_instanced.aub.gz"
#define FILL_HEAVY_AUB "tests/data/traces/skl_fill_heavy.aub.gz"

struct geometry_run {
    bool ok;
    double seconds, gt_cycles;
    double vertices, objects, clip_objects, sf_primitives;
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void release_memory(void *m)
{
    gpu_memory_destroy(m);
}

static double stat_of(struct stats_writer *w, const char *path)
{
    double v = 0;
    stats_lookup(w, path, &v);
    return v;
}

/* One run of the capture on GT2: host seconds of sim_run only. */
static struct geometry_run run_capture(const char *aub)
{
    struct geometry_run r = { .ok = false };
    struct gt_error err;
    char set[512];
    snprintf(set, sizeof set, "host.workload=\"%s\"", aub);
    struct gt_config *c = gt_config_load(GT2_CONFIG, &err);
    if (!c || gt_config_set(c, set, &err) < 0) {
        printf("  %s: %s\n", aub, err.message);
        gt_config_free(c);
        return r;
    }
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_set_memory(sim, gpu_memory_create(&err), release_memory);
    if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0) {
        printf("  %s: %s\n", aub, err.message);
        sim_destroy(sim);
        gt_config_free(c);
        return r;
    }
    double t0 = now_seconds();
    enum sim_stop_reason stop = sim_run(sim, 0);
    r.seconds = now_seconds() - t0;
    r.gt_cycles = (double)(sim_now(sim) / sim_clock_period(sim, 0));
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    r.vertices = stat_of(w, "gpu.vf.vertices");
    r.objects = stat_of(w, "gpu.vf.primitives");
    r.clip_objects = stat_of(w, "gpu.clip.cl_invocation_count");
    r.sf_primitives = stat_of(w, "gpu.sf.primitives");
    stats_writer_destroy(w);
    r.ok = stop == SIM_STOP_QUIESCENT;
    if (!r.ok)
        printf("  %s: the run did not end quiescent (%s)\n", aub, sim_stop_reason_name(stop));
    sim_destroy(sim);
    gt_config_free(c);
    return r;
}

void bench_geometry(void)
{
    printf("\ngeometry pipeline (Gen9 GT2, VF .. CLIP .. SF with the whole machine):\n");
    if (access(INSTANCED_AUB, R_OK) != 0) {
        printf("  %s not found (run from the repository root): skipped\n", INSTANCED_AUB);
    } else {
        enum { REPEATS = 5 };
        double seconds = 0, vertices = 0, objects = 0, cycles = 0;
        bool ok = true;
        for (int i = 0; i < REPEATS && ok; i++) {
            struct geometry_run r = run_capture(INSTANCED_AUB);
            ok = r.ok;
            seconds += r.seconds;
            vertices += r.vertices;
            objects += r.clip_objects;
            cycles = r.gt_cycles;
        }
        if (ok && seconds > 0)
            printf("  skl_instanced x%d: %.0f vertices through VF, %.0f objects into CLIP in "
                   "%.3f s = %.1f k vertices/s, %.1f k objects/s (%.0f GT cycles per run)\n",
                   REPEATS, vertices, objects, seconds, vertices / seconds / 1e3,
                   objects / seconds / 1e3, cycles);
    }
    if (access(FILL_HEAVY_AUB, R_OK) != 0) {
        printf("  skl_fill_heavy: %s not found: figure skipped\n", FILL_HEAVY_AUB);
        return;
    }
    struct geometry_run r = run_capture(FILL_HEAVY_AUB);
    if (r.ok && r.seconds > 0)
        printf("  skl_fill_heavy (2 draws of 1000 triangles): %.0f GT cycles for the run, %.0f "
               "vertices through VF, %.0f objects into CLIP, %.0f primitives at SF; host %.3f s "
               "= %.1f k vertices/s, %.0f GT cycles/s\n",
               r.gt_cycles, r.vertices, r.clip_objects, r.sf_primitives, r.seconds,
               r.vertices / r.seconds / 1e3, r.gt_cycles / r.seconds);
}
