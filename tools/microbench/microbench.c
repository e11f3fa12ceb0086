/* tools/microbench/microbench.c - `make microbench`: the peak-rate
 * microbenchmarks (workloads/workload.h "ubench-*", kernels written by
 * workloads/kernels/gen_ubench.py) run on configs/gen9-skl-gt2.cfg in timing
 * mode; for each, the figure measured from the run's stats, the figure the
 * seed (or the configuration, for DRAM) says the machine can reach, and
 * their ratio, with a line saying why when the ratio is off by more than 5%.
 *
 * Figures (per GT clock; the measured ones over the whole run, from the
 * first command to the last thread's end, so dispatch ramp and tail are
 * included):
 *  - FP32 FLOPs per clock per EU: 16 = 2 pipes (FPU and EM: "The EM Pipe has
 *    been expanded to handle general integer and all the float operations
 *    that FPU pipe can execute as well", seed 003 L19104-19106) x 4 32-bit
 *    channels per clock (a SIMD8 float instruction takes 2 cycles, L19171;
 *    units/eu/eu.h) x 2 for the MAD's multiply and add;
 *  - L3 read bandwidth per slice: seed 003 L18341-18346, 64 bytes per clock
 *    per L3 bank ("total system throughput is derived by multiplying ... by
 *    the total number of L3 Banks"), and "a single client (e.g. an HDC or
 *    sub-slice) can only issue one 64-byte read or write per clock": per
 *    slice min(banks, data ports) x 64 (GT2: min(4, 3) x 64 = 192);
 *  - SLM read bandwidth per slice: the same table's SLM row (64 bytes per
 *    clock per bank), each bank's SLM "dedicated to a single sub-slice"
 *    (L18929-18933): per slice min(banks, subslices) x 64;
 *  - sampler bilinear texels per clock per subslice: 4, the public Gen9 figure
 *    ("a sampler (4 tex/clk)" a subslice, from Intel's "The Compute
 *    Architecture of Intel Processor Graphics Gen9", 2015, sections 5.4.1 and
 *    5.8, as summarised at
 *    https://github.com/AlexHe99/cpu-gpu-arch/blob/main/gpu/Intel-Gen9.md; the
 *    seed gives no rate, 003 L3002 only "the 4 texel locations in parallel"):
 *    a texel here is one bilinear-filtered pixel sample (units/sampler:
 *    samples_per_cycle);
 *  - DRAM read bandwidth: the memory unit's `bytes_per_cycle` at the memory
 *    clock (configuration, units/memory/memory.h; the seeds give no DRAM
 *    figure), in GT clocks; run with the LLC off (memory.llc_kib = 0), since
 *    the workload's 2 MiB window would otherwise fit the 2 MiB LLC.
 *  - pixel fill rate (workloads/workload3d.h "ubench-fill", opaque, and
 *    "ubench-fill-blend", alpha blended): pixels written per GT clock over
 *    the draw alone (its issue to its last pixel written: the draw's record,
 *    tools/dispatch_stats.h), against the model's stated rate, the smaller
 *    of the pixel back ends' om.pixels_per_cycle x slices and WM's
 *    rasterizer, wm.subspans_per_cycle x 4 pixels (docs/pixel-timing.md:
 *    both are the model's choices, no public Gen9 figure was found).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/config.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "fabric/unit.h"
#include "tools/dispatch_stats.h"
#include "units/registry.h"
#include "workloads/workload.h"
#include "workloads/workload3d.h"

#define CONFIG "configs/gen9-skl-gt2.cfg"
#define AUB_DIR "build/gen/workloads/"

/* What one run measured (sums over the units of a kind). */
struct run {
    bool ok;
    uint64_t cycles;                        /* GT clocks */
    double gt_period, memory_period;        /* picoseconds */
    double eus, slices, subslices, banks;   /* banks per slice */
    double instructions, illegal, l3_reads, l3_hits, l3_misses, dram_bytes, dram_bytes_per_cycle;
    double l3_reply_stalls, l3_queue_cycles, l3_merged, dp_lines;
    double samplers, bilinear, footprints, sampler_bad, sampler_l1_misses;
    /* the first draw's record (3D workloads) and the pixel units' figures */
    bool has_draw;
    struct draw_record draw;
    double hardware_threads, om_pixels_per_cycle, om_max_outstanding, wm_subspans_per_cycle;
    double l3_writebacks, om_busy_cycles, om_l3_stalled, om_pixels_blended;
    double wm_thread_stalls, wm_threads_peak, wm_thread_cycles;
};

static void release_memory(void *m)
{
    gpu_memory_destroy(m);
}

static double param_of(struct unit *u, const char *name)
{
    char text[64];
    return unit_param_text(u, name, text, sizeof text) == 0 ? atof(text) : 0;
}

static struct run run(const char *aub, const char *extra_setting)
{
    struct run r = { .ok = false };
    struct gt_error err = { "" };
    char set[256];
    snprintf(set, sizeof set, "host.workload=\"%s\"", aub);
    struct gt_config *c = gt_config_load(CONFIG, &err);
    if (!c || gt_config_set(c, set, &err) < 0 ||
        gt_config_set(c, "gpu.slice.subslice.eu.fast=false", &err) < 0 ||
        (extra_setting && gt_config_set(c, extra_setting, &err) < 0)) {
        printf("  %s: %s\n", CONFIG, err.message);
        gt_config_free(c);
        return r;
    }
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_set_memory(sim, gpu_memory_create(&err), release_memory);
    if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0) {
        printf("  %s: %s\n", CONFIG, err.message);
        sim_destroy(sim);
        gt_config_free(c);
        return r;
    }
    sim_run(sim, 0);
    r.gt_period = (double)sim_clock_period(sim, 0);
    r.cycles = sim_now(sim) / sim_clock_period(sim, 0);
    int memory_clock = sim_find_clock(sim, "memory");
    r.memory_period = memory_clock >= 0 ? (double)sim_clock_period(sim, (uint32_t)memory_clock)
                                        : r.gt_period;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        if (strcmp(unit_kind(u), "eu") == 0)
            r.eus++;
        else if (strcmp(unit_kind(u), "dataport") == 0)
            r.subslices++;
        else if (strcmp(unit_kind(u), "sampler") == 0)
            r.samplers++;
        else if (strcmp(unit_kind(u), "l3") == 0) {
            r.slices++;
            r.banks = param_of(u, "banks");
        } else if (strcmp(unit_kind(u), "memory") == 0) {
            r.dram_bytes_per_cycle = param_of(u, "bytes_per_cycle");
        } else if (strcmp(unit_kind(u), "om") == 0) {
            r.om_pixels_per_cycle = param_of(u, "pixels_per_cycle");
            r.om_max_outstanding = param_of(u, "max_outstanding");
        } else if (strcmp(unit_kind(u), "wm") == 0) {
            r.wm_subspans_per_cycle = param_of(u, "subspans_per_cycle");
        }
    }
    struct dispatch_stats d;
    dispatch_stats_collect(sim, &d);
    r.hardware_threads = (double)d.hardware_threads;
    if (d.draw_count > 0) {
        r.has_draw = true;
        r.draw = d.draws[0];
    }
    dispatch_stats_free(&d);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    r.instructions = stats_sum_of_kind(sim, w, "eu", "instructions");
    r.illegal = stats_sum_of_kind(sim, w, "eu", "illegal_instructions");
    r.l3_reads = stats_sum_of_kind(sim, w, "l3", "reads");
    r.l3_hits = stats_sum_of_kind(sim, w, "l3", "hits");
    r.l3_misses = stats_sum_of_kind(sim, w, "l3", "misses");
    r.dram_bytes = stats_sum_of_kind(sim, w, "memory", "dram_bytes");
    r.l3_reply_stalls = stats_sum_of_kind(sim, w, "l3", "reply_stalls");
    r.l3_queue_cycles = stats_sum_of_kind(sim, w, "l3", "queue_cycles");
    r.l3_merged = stats_sum_of_kind(sim, w, "l3", "merged_misses");
    r.dp_lines = stats_sum_of_kind(sim, w, "dataport", "lines");
    r.bilinear = stats_sum_of_kind(sim, w, "sampler", "filter.bilinear");
    r.footprints = stats_sum_of_kind(sim, w, "sampler", "footprints");
    r.sampler_l1_misses = stats_sum_of_kind(sim, w, "sampler", "l1_misses");
    r.l3_writebacks = stats_sum_of_kind(sim, w, "l3", "writebacks");
    r.om_busy_cycles = stats_sum_of_kind(sim, w, "om", "busy_cycles");
    r.om_l3_stalled = stats_sum_of_kind(sim, w, "om", "port.l3.stalled_width");
    r.om_pixels_blended = stats_sum_of_kind(sim, w, "om", "pixels_blended");
    r.wm_thread_stalls = stats_sum_of_kind(sim, w, "wm", "threads.stall.max_threads");
    r.wm_threads_peak = stats_sum_of_kind(sim, w, "wm", "threads.in_flight_peak");
    r.wm_thread_cycles = stats_sum_of_kind(sim, w, "wm", "threads.thread_cycles");
    r.sampler_bad = stats_sum_of_kind(sim, w, "sampler", "unsupported_messages") +
                    stats_sum_of_kind(sim, w, "sampler", "unsupported_formats") +
                    stats_sum_of_kind(sim, w, "sampler", "bad_sampler_state") +
                    stats_sum_of_kind(sim, w, "sampler", "state_faults");
    stats_writer_destroy(w);
    sim_destroy(sim);
    gt_config_free(c);
    r.ok = r.cycles > 0 && r.eus > 0 && r.slices > 0;
    if (!r.ok)
        printf("  %s: the run gave no cycles or found no EUs/L3\n", aub);
    return r;
}

static bool have(const char *aub)
{
    if (access(aub, R_OK) == 0)
        return true;
    printf("  %s not found (make workloads)\n", aub);
    return false;
}

/* One result line; `why` is printed when the ratio is off by more than 5%. */
static void report(const char *label, double measured, double target, const char *unit,
                   const char *source, const char *why)
{
    double ratio = target > 0 ? measured / target : 0;
    printf("  %-30s %9.2f %-18s target %8.2f (%s)  ratio %.3f\n", label, measured, unit,
           target, source, ratio);
    if (ratio < 0.95 || ratio > 1.05)
        printf("  %-30s why: %s\n", "", why);
}

/* The fill-rate benchmark `aub`: pixels written per GT clock over its draw. */
static void fill_rate(const char *aub, const char *label)
{
    struct run r;
    if (!have(aub) || !(r = run(aub, NULL)).ok)
        return;
    if (!r.has_draw || r.draw.cycles == 0) {
        printf("  %s: the run recorded no draw\n", aub);
        return;
    }
    const struct draw_record *d = &r.draw;
    double om_rate = r.om_pixels_per_cycle * r.slices, wm_rate = r.wm_subspans_per_cycle * 4;
    double target = om_rate < wm_rate ? om_rate : wm_rate;
    double thread_life = d->threads ? r.wm_thread_cycles / (double)d->threads : 0;
    printf("  Fill (%s): draw %llu GT clocks, %llu of %u pixels written (%.0f blended), %llu "
           "PS threads (%.0f clocks each, at most %.0f in flight), EU occupancy %.2f\n",
           strstr(aub, "blend") ? "blend" : "opaque", (unsigned long long)d->cycles,
           (unsigned long long)d->pixels_written, UBENCH_FILL_PIXELS, r.om_pixels_blended,
           (unsigned long long)d->threads, thread_life, r.wm_threads_peak, d->occupancy);
    char source[160];
    snprintf(source, sizeof source, "om %.0f px/clk x %.0f slice(s), WM %.0f px/clk; "
             "docs/pixel-timing.md: no public figure", r.om_pixels_per_cycle, r.slices, wm_rate);
    char why[700];
    snprintf(why, sizeof why, "the back end bounds it: om was busy %.0f%% of the draw's clocks "
             "at its %.0f px/clk; the rest it waited for its RT line writes, at most %.0f "
             "messages in flight (om.max_outstanding; its L3 port stalled %.0f clocks; the "
             "%u x %u RT does not fit the L3: %.0f write misses, %.0f writebacks to memory), "
             "while the PS threads in front of it are capped at %.0f in flight (3DSTATE_PS "
             "Maximum Number of Threads Per PSD, as Mesa programs it; WM waited %.0f clocks "
             "for a slot; each thread lived %.0f clocks, mostly queued for om)",
             100.0 * r.om_busy_cycles / (double)d->cycles, r.om_pixels_per_cycle,
             r.om_max_outstanding, r.om_l3_stalled, UBENCH_FILL_WIDTH, UBENCH_FILL_HEIGHT, r.l3_misses,
             r.l3_writebacks, r.wm_threads_peak, r.wm_thread_stalls, thread_life);
    report(label, (double)d->pixels_written / (double)d->cycles, target, "px/clk", source, why);
}

int main(void)
{
    printf("gtsim microbenchmarks on %s (timing mode; %u threads in %u groups each)\n", CONFIG,
           UBENCH_THREADS, UBENCH_GROUPS);

    const char *aub = AUB_DIR "ubench-flops.gen9.aub.gz";
    struct run r;
    if (have(aub) && (r = run(aub, NULL)).ok) {
        double flops = (double)UBENCH_THREADS * UBENCH_FLOPS_MADS * 16 * 2;
        printf("  FP32: %llu GT clocks, %.0f EU instructions (%.0f MADs of SIMD16), %.0f EUs\n",
               (unsigned long long)r.cycles, r.instructions,
               (double)UBENCH_THREADS * UBENCH_FLOPS_MADS, r.eus);
        report("FP32 FLOPs/clock/EU", flops / ((double)r.cycles * r.eus), 16.0, "FLOP/clk/EU",
               "003 L19104-19106, L19171",
               "the run's clocks include the CS's commands, the dispatch of the first wave "
               "and the last threads' tail, when EUs are idle");
    }

    aub = AUB_DIR "ubench-l3bw.gen9.aub.gz";
    if (have(aub) && (r = run(aub, NULL)).ok) {
        double bytes = (double)UBENCH_THREADS * UBENCH_L3_READS * UBENCH_READ_BYTES;
        double ports = r.subslices / r.slices;
        double target = 64.0 * (r.banks < ports ? r.banks : ports);
        printf("  L3: %llu GT clocks, %.0f L3 reads (%.0f hits, %.0f misses), %.0f slice(s) "
               "of %.0f banks, %.0f data ports\n", (unsigned long long)r.cycles, r.l3_reads,
               r.l3_hits, r.l3_misses, r.slices, r.banks, r.subslices);
        char why[400];
        snprintf(why, sizeof why, "the data ports made %.2f line requests per clock each (of "
                 "1); replies waited for their client (l3.reply_stalls %.0f clocks, bank "
                 "queue_cycles %.0f), and the first wave's cold misses (%.0f, %.0f merged) "
                 "and the dispatch ramp and tail count too",
                 r.dp_lines / r.subslices / (double)r.cycles, r.l3_reply_stalls,
                 r.l3_queue_cycles, r.l3_misses, r.l3_merged);
        report("L3 read bytes/clock/slice", bytes / ((double)r.cycles * r.slices), target,
               "B/clk/slice", "003 L18341-18346", why);
    }

    aub = AUB_DIR "ubench-slmbw.gen9.aub.gz";
    if (have(aub) && (r = run(aub, NULL)).ok) {
        double bytes = (double)UBENCH_THREADS * UBENCH_L3_READS * UBENCH_READ_BYTES;
        double ports = r.subslices / r.slices;
        double target = 64.0 * (r.banks < ports ? r.banks : ports);
        printf("  SLM: %llu GT clocks\n", (unsigned long long)r.cycles);
        char why[400];
        snprintf(why, sizeof why, "SLM requests take the L3's URB/SLM path (units/l3/l3.h: tag "
                 "bypass with urb_latency) and its reply egress (%.2f line requests per clock "
                 "each; l3.reply_stalls %.0f clocks), not 16 independent 4 KB sub-banks per "
                 "bank; the dispatch ramp and tail count too", r.dp_lines / r.subslices /
                 (double)r.cycles, r.l3_reply_stalls);
        report("SLM read bytes/clock/slice", bytes / ((double)r.cycles * r.slices), target,
               "B/clk/slice", "003 L18341-18346, L18929", why);
    }

    aub = AUB_DIR "ubench-texrate.gen9.aub.gz";
    if (have(aub) && (r = run(aub, NULL)).ok) {
        double samples = (double)UBENCH_THREADS * UBENCH_TEX_SAMPLES * 8;
        double subslices = r.samplers > 0 ? r.samplers : 1;
        printf("  Sampler: %llu GT clocks, %.0f bilinear samples counted (%.0f sent), %.0f "
               "footprints, %.0f L1 misses, %.0f bad/unsupported, %.0f samplers\n",
               (unsigned long long)r.cycles, r.bilinear, samples, r.footprints,
               r.sampler_l1_misses, r.sampler_bad, r.samplers);
        char why[400];
        snprintf(why, sizeof why, "the sampler counted %.0f bilinear samples of %.0f sent (a "
                 "message the model does not take is counted elsewhere); the run's clocks "
                 "include the CS's commands, the dispatch ramp, the first texture misses "
                 "(%.0f L1 misses) and the last threads' tail", r.bilinear, samples,
                 r.sampler_l1_misses);
        report("bilinear texels/clock/subslice", r.bilinear / ((double)r.cycles * subslices),
               4.0, "tex/clk/subslice", "Gen9 whitepaper 5.4.1/5.8", why);
    }

    aub = AUB_DIR "ubench-drambw.gen9.aub.gz";
    if (have(aub) && (r = run(aub, "gpu.memory.llc_kib=0")).ok) {
        double target = r.dram_bytes_per_cycle * r.gt_period / r.memory_period;
        double gbs = r.dram_bytes / ((double)r.cycles * r.gt_period * 1e-12) / 1e9;
        printf("  DRAM: %llu GT clocks, %.0f DRAM bytes (%.1f GB/s), L3 misses %.0f; config: %.0f "
               "B per memory clock = %.1f GB/s\n", (unsigned long long)r.cycles, r.dram_bytes,
               gbs, r.l3_misses, r.dram_bytes_per_cycle,
               r.dram_bytes_per_cycle / (r.memory_period * 1e-12) / 1e9);
        report("DRAM read bytes/GT clock", r.dram_bytes / (double)r.cycles, target, "B/clk",
               "config memory.bytes_per_cycle",
               "too few misses in flight to cover the DRAM latency (L3 miss entries, the "
               "memory queue and link capacity; Little's law), plus ramp and tail of a short "
               "stream");
    }
    fill_rate(AUB_DIR "ubench-fill.gen9.aub.gz", "fill px/clock (opaque)");
    fill_rate(AUB_DIR "ubench-fill-blend.gen9.aub.gz", "fill px/clock (alpha blend)");
    return 0;
}
