/* tools/bench/bench.c - `make bench`: the kernel's speed and memory figures.
 *
 * Prints, with the machine's name:
 *  - messages delivered per host second through a chain of 64 pass-through
 *    units (target: at least 20 million per second on one core);
 *  - host time to advance 1M cycles with one unit ticking every cycle and
 *    1000 idle units beside it (target: under 50 ms: idle units cost nothing),
 *    and the same without the idle units;
 *  - the default machine (Gen9 GT2, builtin:fabric) in cycles per second;
 *  - the sampler's texels per host second, bilinear and trilinear (bench_sampler.c);
 *  - peak RSS.
 * Targets are printed next to the figures; nothing here fails a build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include <dirent.h>

#include "fabric/config.h"
#include "tools/bench/bench_pixels.h"
#include "tools/bench/bench_sampler.h"
#include "spec/spec.h"
#include "fabric/sim.h"
#include "fabric/memory.h"
#include "fabric/stats.h"
#include "fabric/topology.h"
#include "units/registry.h"
#include "tools/bench/bench_eu.h"
#include "tools/bench/bench_geometry.h"
#include "tools/bench/bench_sgemm.h"

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

static void free_memory(void *memory)
{
    gpu_memory_destroy(memory);
}

/* ---- 1: a chain of 64 pass-through units ---------------------------------- */

/* A source of generic messages, one per cycle while the channel takes them. */
struct source {
    uint64_t messages, sent;
    struct port *out;
};

static const struct param_desc source_params[] = {
    PARAM_U64_FIELD("messages", struct source, messages, 1000, 0, 1LL << 40, "to send"),
    PARAM_END
};
static const struct port_desc source_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "generic messages" }, PORT_END
};

static int source_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct source *s = unit_state(u);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static void source_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity source_tick(struct unit *u)
{
    struct source *s = unit_state(u);
    if (s->sent == s->messages || !port_can_send(s->out))
        return UNIT_IDLE;
    port_try_send(s->out, msg_alloc(unit_sim(u), MSG_GENERIC, 32));
    return ++s->sent < s->messages ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops source_ops = {
    .kind = "bench_source", .help = "bench: sends generic messages",
    .state_size = sizeof(struct source), .params = source_params, .ports = source_ports,
    .realize = source_realize, .reset = source_reset, .tick = source_tick,
};

static double bench_chain(unsigned length, uint64_t messages, uint64_t *delivered_out)
{
    struct gt_error err;
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = sim_create(&o);
    sim_add_clock(sim, "gt", 1000, &err);
    char count[64];
    snprintf(count, sizeof count, "messages=%llu", (unsigned long long)messages);
    const char *source_over[] = { count, NULL };
    struct unit *source = sim_add_unit(sim, &source_ops, "source", 0, NULL, source_over, &err);
    if (!source)
        die("source", &err);
    /* a placeholder passes everything through */
    const struct unit_ops *relay = unit_kind_find("vf:placeholder");
    struct link_params link = { 1, 2, 1 };                   /* full rate: capacity = latency + 1 */
    struct port *prev = unit_port(source, "out", 0);
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
    sim_set_memory(sim, gpu_memory_create(&err), free_memory);
    if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0)
        die("default machine", &err);
    double t0 = now_seconds();
    sim_run(sim, 0);
    double seconds = now_seconds() - t0;
    struct sim_totals t;
    sim_totals(sim, &t);
    double cycles = (double)sim_now(sim) / (double)sim_clock_period(sim, 0);
    printf("default machine (Gen9 GT2, builtin:fabric: 1M commands through the CS, %u units):\n"
           "  %.0f gt cycles in %.3f s = %.2f M cycles/s, %.1f M messages delivered/s\n",
           sim_unit_count(sim), cycles, seconds, cycles / seconds / 1e6,
           (double)t.messages_delivered / seconds / 1e6);
    sim_destroy(sim);
    gt_config_free(c);
}

/* ---- 4: command decode --------------------------------------------------- */

/* Decodes every batch in tests/data/traces with the spec tables (identify,
 * length, unpack into the generated struct) for about a second. */
static void bench_decode_tables(void)
{
    DIR *d = opendir("tests/data/traces");
    if (!d) {
        printf("command decode: tests/data/traces not found (run from the repository root)\n");
        return;
    }
    struct { uint32_t *dw; size_t n; int gen; } batches[32];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 32) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".bin"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/data/traces/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        batches[count].dw = malloc((size_t)size);
        batches[count].n = fread(batches[count].dw, 4, (size_t)size / 4, f);
        fclose(f);
        batches[count].gen = e->d_name[0] == 's' ? 9 : e->d_name[1] == 'd' ? 8
                           : e->d_name[0] == 'b' ? 7 : 4;
        count++;
    }
    closedir(d);
    uint8_t *unpacked = malloc(1 << 16);
    uint64_t commands = 0;
    double t0 = now_seconds(), t = t0;
    while (t - t0 < 1.0) {
        for (int b = 0; b < count; b++) {
            const uint32_t *dw = batches[b].dw;
            size_t n = batches[b].n, at = 0;
            while (at < n) {
                const struct spec_element *c = spec_find_command(batches[b].gen, dw + at, n - at);
                uint32_t len = c ? spec_command_length(c, dw + at) : 1;
                if (c && c->unpack && len <= n - at && c->c_size <= (1u << 16))
                    c->unpack(dw + at, unpacked);
                at += len;
                commands++;
            }
        }
        t = now_seconds();
    }
    double rate = (double)commands / (t - t0);
    printf("command decode (spec tables: identify, length, unpack; %d captured batches):\n"
           "  %.1f M commands/s  (target >= 2 M/s: %s)\n\n", count, rate / 1e6,
           rate >= 2e6 ? "met" : "NOT met");
    for (int b = 0; b < count; b++)
        free(batches[b].dw);
    free(unpacked);
}

/* Replays every capture through host + CS + the whole machine. */
static void bench_replay(void)
{
    static const char *const traces[] = { "skl_compute", "skl_tri", "bdw_compute", "bdw_tri",
                                          "byt_compute", "byt_tri", "g965_tri" };
    static const char *const configs[] = { "gen9-skl-gt2", "gen9-skl-gt2", "gen8-bdw-gt2",
                                           "gen8-bdw-gt2", "gen7-vlv", "gen7-vlv", "gen4-g965" };
    double seconds = 0, commands = 0;
    for (int i = 0; i < 7; i++) {
        struct gt_error err;
        char path[256], set[256];
        snprintf(path, sizeof path, "configs/%s.cfg", configs[i]);
        snprintf(set, sizeof set, "host.workload=\"tests/data/traces/%s.aub.gz\"", traces[i]);
        struct gt_config *c = gt_config_load(path, &err);
        if (!c || gt_config_set(c, set, &err) < 0)
            die("replay config", &err);
        struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
        struct sim *sim = sim_create(&o);
        sim_set_memory(sim, gpu_memory_create(&err), free_memory);
        if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0)
            die("replay machine", &err);
        double t0 = now_seconds();
        sim_run(sim, 0);
        seconds += now_seconds() - t0;
        struct stats_writer *w = stats_writer_create();
        sim_write_stats(sim, w);
        double v = 0;
        stats_lookup(w, "gpu.cs.commands", &v);
        commands += v;
        stats_writer_destroy(w);
        sim_destroy(sim);
        gt_config_free(c);
    }
    printf("capture replay (7 AUBs through host, CS and the rest of each machine):\n"
           "  %.0f commands in %.1f ms host time (includes loading each capture)\n\n", commands,
           seconds * 1e3);
}

/* A VideoCore IV draw: vc4_strip_fan's submit through the host, the control list threads, the
 * PTB, the tile renderer and its shaders (configs/vc4-bcm2835.cfg); repeated for a measurable
 * host time. */
static void bench_vc4(void)
{
    const char *dump = "tests/data/vc4/vc4_strip_fan.vc4dump.gz";
    double seconds = 0, cycles = 0;
    for (int i = 0; i < 20; i++) {
        struct gt_error err;
        struct gt_config *c = gt_config_load("configs/vc4-bcm2835.cfg", &err);
        char set[256];
        snprintf(set, sizeof set, "host.workload=\"%s\"", dump);
        if (!c || gt_config_set(c, set, &err) < 0) {
            printf("VideoCore IV draw: %s\n\n", c ? err.message : "configs/vc4-bcm2835.cfg missing");
            gt_config_free(c);
            return;
        }
        struct sim_options o = { .watchdog_cycles = 100000, .log_level = SIM_LOG_ERROR };
        struct sim *sim = sim_create(&o);
        sim_set_memory(sim, gpu_memory_create(&err), free_memory);
        if (topology_build(sim, c, unit_kind_find, &err) < 0 || sim_realize(sim, &err) < 0)
            die("vc4 machine", &err);
        double t0 = now_seconds();
        sim_run(sim, 0);
        seconds += now_seconds() - t0;
        struct stats_writer *w = stats_writer_create();
        sim_write_stats(sim, w);
        double v = 0;
        stats_lookup(w, "sim.clock.v3d.cycles", &v);
        cycles += v;
        stats_writer_destroy(w);
        sim_destroy(sim);
        gt_config_free(c);
    }
    printf("VideoCore IV draw (vc4_strip_fan: binning, 25 primitives, one 64 x 64 tile; x20):\n"
           "  %.0f GPU cycles in %.1f ms host time = %.2f M GPU cycles per host second\n\n",
           cycles, seconds * 1e3, seconds > 0 ? cycles / seconds / 1e6 : 0.0);
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
    printf("\n");
    bench_decode_tables();
    bench_replay();
    bench_vc4();

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak RSS: %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    bench_eu();
    bench_sgemm();
    bench_geometry();
    bench_pixels();
    bench_sampler();
    return 0;
}
