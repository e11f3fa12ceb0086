/* tools/bench/bench.c - `make bench`: the kernel's speed and memory figures.
 *
 * Prints, with the machine's name:
 *  - messages delivered per host second through a chain of 64 pass-through
 *    units (target: at least 20 million per second on one core);
 *  - host time to advance 1M cycles with one unit ticking every cycle and
 *    1000 idle units beside it (target: under 50 ms: idle units cost nothing),
 *    and the same without the idle units;
 *  - the default machine (Gen9 GT2, builtin:fabric) in cycles per second;
 *  - peak RSS.
 * Targets are printed next to the figures; nothing here fails a build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "units/host/host.h"
#include "units/registry.h"
#include "tools/bench/bench_eu.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void machine_name(char *buf, size_t size)
{
    struct utsname u;
    char cpu[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(cpu, sizeof cpu, "%s", colon + 2);
                    cpu[strcspn(cpu, "\n")] = 0;
                }
                break;
            }
        fclose(f);
    }
    uname(&u);
    snprintf(buf, size, "%s (%s, %s %s)", u.nodename, cpu, u.sysname, u.machine);
}

static void die(const char *what, const struct gt_error *err)
{
    fprintf(stderr, "gtsim-bench: %s: %s\n", what, err ? err->message : "failed");
    exit(1);
}

/* ---- 1: a chain of 64 pass-through units ---------------------------------- */

static double bench_chain(unsigned length, uint64_t messages, uint64_t *delivered_out)
{
    struct gt_error err;
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_add_clock(sim, "gt", 1000, &err);
    char count[64];
    snprintf(count, sizeof count, "messages=%llu", (unsigned long long)messages);
    const char *host_over[] = { count, "payload_bytes=32", NULL };
    struct unit *host = sim_add_unit(sim, &host_ops, "host", 0, NULL, host_over, &err);
    if (!host)
        die("host", &err);
    const struct unit_ops *relay = unit_kind_find("vf");    /* a placeholder passes through */
    struct link_params link = { 1, 2, 1 };                   /* full rate: capacity = latency + 1 */
    struct port *prev = unit_port(host, "gpu", 0);
    for (unsigned i = 0; i <= length; i++) {
        char name[32];
        snprintf(name, sizeof name, "stage%u", i);
        struct unit *u = sim_add_unit(sim, relay, name, 0, NULL, NULL, &err);
        if (!u)
            die("stage", &err);
        char in[64];
        snprintf(in, sizeof in, "%s.in", name);
        struct port *p = sim_resolve_port(sim, in, PORT_IN, &err);
        if (!p || sim_connect(sim, prev, p, &link, &err) < 0)
            die("link", &err);
        if (i < length) {       /* the last stage is the sink */
            char out[64];
            snprintf(out, sizeof out, "%s.out", name);
            prev = sim_resolve_port(sim, out, PORT_OUT, &err);
        }
    }
    if (sim_realize(sim, &err) < 0)
        die("realize", &err);
    double t0 = now_seconds();
    if (sim_run(sim, 0) != SIM_STOP_QUIESCENT)
        die("chain run did not finish", NULL);
    double seconds = now_seconds() - t0;
    struct sim_totals t;
    sim_totals(sim, &t);
    *delivered_out = t.messages_delivered;
    sim_destroy(sim);
    return seconds;
}

/* ---- 2: one busy unit and N idle ones ------------------------------------ */

struct heartbeat {
    uint64_t cycles;
};

static const struct param_desc heartbeat_params[] = {
    PARAM_U64_FIELD("cycles", struct heartbeat, cycles, 1000000, 1, 1LL << 40, "cycles to tick"),
    PARAM_END
};

static void heartbeat_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity heartbeat_tick(struct unit *u)
{
    struct heartbeat *s = unit_state(u);
    unit_progress(u);
    return unit_cycle(u) + 1 < s->cycles ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops heartbeat_ops = {
    .kind = "heartbeat", .help = "bench: ticks every cycle", .state_size = sizeof(struct heartbeat),
    .params = heartbeat_params, .reset = heartbeat_reset, .tick = heartbeat_tick,
};

static double bench_idle(unsigned idle_units, uint64_t cycles)
{
    struct gt_error err;
    struct sim_options o = { .watchdog_cycles = 0, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_add_clock(sim, "gt", 1000, &err);
    char over[64];
    snprintf(over, sizeof over, "cycles=%llu", (unsigned long long)cycles);
    const char *hb[] = { over, NULL };
    if (!sim_add_unit(sim, &heartbeat_ops, "heartbeat", 0, NULL, hb, &err))
        die("heartbeat", &err);
    const struct unit_ops *eu = unit_kind_find("eu");
    for (unsigned i = 0; i < idle_units; i++) {
        char name[32];
        snprintf(name, sizeof name, "idle%u", i);
        if (!sim_add_unit(sim, eu, name, 0, NULL, NULL, &err))
            die("idle unit", &err);
    }
    if (sim_realize(sim, &err) < 0)
        die("realize", &err);
    double t0 = now_seconds();
    sim_run(sim, 0);
    double seconds = now_seconds() - t0;
    if (sim_now(sim) != (cycles - 1) * 1000)
        die("idle run ended early", NULL);
    sim_destroy(sim);
    return seconds;
}

/* ---- 3: the default machine ---------------------------------------------- */

static void bench_default_machine(void)
{
    struct gt_error err;
    struct gt_config *c = gt_config_load("configs/gen9-skl-gt2.cfg", &err);
    if (!c)
        die("config", &err);
    gt_config_set(c, "host.messages=1000000", &err);
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0)
        die("default machine", &err);
    double t0 = now_seconds();
    sim_run(sim, 0);
    double seconds = now_seconds() - t0;
    struct sim_totals t;
    sim_totals(sim, &t);
    double cycles = (double)sim_now(sim) / (double)sim_clock_period(sim, 0);
    printf("default machine (Gen9 GT2, builtin:fabric, 1M messages, %u units):\n"
           "  %.0f gt cycles in %.3f s = %.2f M cycles/s, %.1f M messages delivered/s\n",
           sim_unit_count(sim), cycles, seconds, cycles / seconds / 1e6,
           (double)t.messages_delivered / seconds / 1e6);
    sim_destroy(sim);
    gt_config_free(c);
}

int main(void)
{
    char name[512];
    machine_name(name, sizeof name);
    printf("gtsim-bench on %s\n\n", name);

    uint64_t delivered = 0;
    bench_chain(64, 100000, &delivered);                     /* warm up */
    double best = 1e9;
    for (int i = 0; i < 3; i++) {
        double s = bench_chain(64, 1000000, &delivered);
        if (s < best)
            best = s;
    }
    double rate = (double)delivered / best;
    printf("chain of 64 pass-through units, 1M messages:\n"
           "  %llu deliveries in %.3f s = %.1f M messages/s  (target >= 20 M/s: %s)\n\n",
           (unsigned long long)delivered, best, rate / 1e6, rate >= 20e6 ? "met" : "NOT met");

    double alone = 1e9, crowded = 1e9;
    for (int i = 0; i < 3; i++) {
        double a = bench_idle(0, 1000000), b = bench_idle(1000, 1000000);
        alone = a < alone ? a : alone;
        crowded = b < crowded ? b : crowded;
    }
    printf("1M cycles, one unit ticking every cycle:\n"
           "  alone:              %.1f ms\n"
           "  with 1000 idle units: %.1f ms  (target < 50 ms: %s)\n\n",
           alone * 1e3, crowded * 1e3, crowded < 0.050 ? "met" : "NOT met");

    bench_default_machine();

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak RSS: %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    bench_eu();
    return 0;
}
