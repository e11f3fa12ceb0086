/* tools/machine.c - see machine.h. */
#include "tools/machine.h"

#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/alloc.h"
#include "fabric/aub.h"
#include "fabric/memory.h"
#include "fabric/topology.h"
#include "units/vc4_host/vc4_gpu_fft.h"
#include "units/vc4_host/vc4_submit.h"

const char *machine_default_config(char *buf, size_t size)
{
    if (access(DEFAULT_CONFIG, R_OK) == 0) {
        snprintf(buf, size, "%s", DEFAULT_CONFIG);
        return buf;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = 0;
            snprintf(buf, size, "%s/%s", exe, DEFAULT_CONFIG);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    snprintf(buf, size, "%s", DEFAULT_CONFIG);
    return buf;
}

/* The config of the machine a capture was made on (configs/ has one per
 * generation), found like the default config. */
static int config_for_workload(const char *workload, char *buf, size_t size, struct gt_error *err)
{
    static const struct { int generation; const char *config; } by_generation[] = {
        { 9, "configs/gen9-skl-gt2.cfg" }, { 8, "configs/gen8-bdw-gt2.cfg" },
        { 7, "configs/gen7-vlv.cfg" }, { 4, "configs/gen4-g965.cfg" },
    };
    char def[4096];
    machine_default_config(def, sizeof def);
    /* the default config's directory holds the others */
    const char *slash = strrchr(def, '/');
    size_t dir = slash ? (size_t)(slash - def) : 0;
    if (vc4_dump_file_is_dump(workload) || vc4_gpu_fft_is_workload(workload)) {
        /* a VideoCore IV submit dump or GPU_FFT batch */
        snprintf(buf, size, "%.*s%svc4-bcm2835.cfg", (int)dir, def, dir ? "/" : "");
        return 0;
    }
    struct aub_device_guess p;
    if (aub_read_device(workload, &p, err) < 0)
        return -1;
    for (size_t i = 0; i < sizeof by_generation / sizeof by_generation[0]; i++)
        if (by_generation[i].generation == p.generation) {
            const char *name = strrchr(by_generation[i].config, '/') + 1;
            snprintf(buf, size, "%.*s%s%s", (int)dir, def, dir ? "/" : "", name);
            return 0;
        }
    return gt_error_set(err, "workload %s was captured on a Gen%d part (PCI id 0x%04x): gtsim has "
                        "no config for it; name one with -c", workload, p.generation, p.pci_id);
}

static bool is_builtin(const char *workload)
{
    return strncmp(workload, "builtin:", 8) == 0;
}

struct gt_config *machine_config(const struct machine_request *req, struct gt_error *err)
{
    char path[4096];
    const char *config_path = req->config_path;
    if (!config_path && req->workload && !is_builtin(req->workload)) {
        if (config_for_workload(req->workload, path, sizeof path, err) < 0)
            return NULL;
        config_path = path;
    }
    if (!config_path)
        config_path = machine_default_config(path, sizeof path);
    struct gt_config *c = gt_config_load(config_path, err);
    if (!c)
        return NULL;
    for (int i = 0; i < req->set_count; i++)
        if (gt_config_set(c, req->sets[i], err) < 0) {
            gt_config_free(c);
            return NULL;
        }
    if (req->workload) {
        config_setting_t *host = config_setting_get_member(gt_config_root(c), "host");
        if (!host || !config_setting_get_member(host, "kind")) {
            gt_error_set(err, "%s: no `host` unit to play workload '%s'", config_path,
                         req->workload);
            gt_config_free(c);
            return NULL;
        }
        char set[4200];
        snprintf(set, sizeof set, "host.workload=\"%s\"", req->workload);
        if (gt_config_set(c, set, err) < 0) {
            gt_config_free(c);
            return NULL;
        }
    }
    return c;
}

/* Walks the config's groups depth first with their dotted paths: `visit`
 * returns 1 when it took the group (its children are not visited), 0 to go
 * into it, -1 to stop with an error. */
typedef int (*group_visit_fn)(void *context, config_setting_t *group, const char *path,
                              struct gt_error *err);

static int walk_groups(config_setting_t *group, char *path, size_t len, size_t cap,
                       group_visit_fn visit, void *context, struct gt_error *err)
{
    for (int i = 0; i < config_setting_length(group); i++) {
        config_setting_t *child = config_setting_get_elem(group, (unsigned)i);
        if (config_setting_type(child) != CONFIG_TYPE_GROUP)
            continue;
        size_t n = (size_t)snprintf(path + len, cap - len, "%s%s", len ? "." : "",
                                    config_setting_name(child));
        int taken = visit(context, child, path, err);
        if (taken < 0 ||
            (!taken && len + n < cap &&
             walk_groups(child, path, len + n, cap, visit, context, err) < 0))
            return -1;
        path[len] = 0;
    }
    return 0;
}

struct kind_assignment {
    struct gt_config *config;
    const char *kind, *assignment;
    int found;
};

/* Sets the assignment on a group of the kind. */
static int assign_to_kind(void *context, config_setting_t *group, const char *path,
                          struct gt_error *err)
{
    struct kind_assignment *a = context;
    const char *k = NULL;
    if (!config_setting_lookup_string(group, "kind", &k) || strcmp(k, a->kind) != 0)
        return 0;
    char set[4096];
    snprintf(set, sizeof set, "%s.%s", path, a->assignment);
    if (gt_config_set(a->config, set, err) < 0)
        return -1;
    a->found++;
    return 1;
}

int machine_set_kind_param(struct gt_config *c, const char *kind, const char *assignment,
                           struct gt_error *err)
{
    char path[2048] = "";
    struct kind_assignment a = { c, kind, assignment, 0 };
    if (walk_groups(gt_config_root(c), path, 0, sizeof path, assign_to_kind, &a, err) < 0)
        return -1;
    if (!a.found)
        return gt_error_set(err, "%s: the machine has no unit of kind '%s'", gt_config_path(c),
                            kind);
    return a.found;
}

#define MAX_WAVE_UNITS 64

struct rtl_units {
    char (*paths)[512];
    int count;
};

/* Notes a group that chooses an impl other than "c". */
static int note_rtl_unit(void *context, config_setting_t *group, const char *path,
                         struct gt_error *err)
{
    (void)err;
    struct rtl_units *r = context;
    const char *impl = NULL;
    if (!config_setting_lookup_string(group, "impl", &impl) || strcmp(impl, "c") == 0)
        return 0;
    if (r->count < MAX_WAVE_UNITS)
        snprintf(r->paths[r->count], sizeof r->paths[0], "%s", path);
    r->count++;
    return 1;
}

int machine_set_wave(struct gt_config *c, const char *file, struct gt_error *err)
{
    char path[2048] = "";
    struct rtl_units r = { gt_xcalloc(MAX_WAVE_UNITS, sizeof *r.paths), 0 };
    walk_groups(gt_config_root(c), path, 0, sizeof path, note_rtl_unit, &r, err);
    int rc = r.count;
    if (!r.count)
        rc = gt_error_set(err, "--wave %s: no unit of the machine uses an RTL impl (choose one "
                          "with --set UNIT.impl=rtl or lockstep)", file);
    else if (r.count > MAX_WAVE_UNITS)
        rc = gt_error_set(err, "--wave %s: %d units use an RTL impl; at most %d", file, r.count,
                          MAX_WAVE_UNITS);
    const char *dot = strrchr(file, '.');
    if (!dot || strchr(dot, '/'))
        dot = file + strlen(file);
    for (int i = 0; rc > 0 && i < r.count; i++) {
        char set[4800];
        if (r.count == 1)
            snprintf(set, sizeof set, "%s.wave=\"%s\"", r.paths[i], file);
        else
            snprintf(set, sizeof set, "%s.wave=\"%.*s.%s%s\"", r.paths[i], (int)(dot - file),
                     file, r.paths[i], dot);
        if (gt_config_set(c, set, err) < 0)
            rc = -1;
    }
    free(r.paths);
    return rc;
}

/* The `simulation` group: watchdog, log settings and host threads
 * (threads: 0 or absent = the host's cores, fabric/sim.h sim_set_threads;
 * parallel_every_edge: 1 ticks in parallel every edge the chooser would
 * decide, fabric/sim.h struct sim_options). */
static int read_simulation(const struct gt_config *config, struct sim_options *o,
                           struct gt_error *err)
{
    o->watchdog_cycles = 100000;
    o->log_level = SIM_LOG_WARNING;
    o->tick_order_seed = 0;
    o->log_file = NULL;
    o->threads = sim_host_cores();
    o->parallel_every_edge = false;
    const config_setting_t *s = config_setting_get_member(gt_config_root(config), "simulation");
    if (!s)
        return 0;
    if (config_setting_type(s) != CONFIG_TYPE_GROUP)
        return gt_error_set(err, "%s:%u: simulation must be a group",
                            config_setting_source_file(s), config_setting_source_line(s));
    for (int i = 0; i < config_setting_length(s); i++) {
        const config_setting_t *c = config_setting_get_elem(s, (unsigned)i);
        const char *name = config_setting_name(c);
        const char *file = config_setting_source_file(c);
        unsigned line = config_setting_source_line(c);
        int t = config_setting_type(c);
        if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            return gt_error_set(err, "%s:%u: simulation.%s must be an integer",
                                file ? file : "--set", line, name);
        long long v = config_setting_get_int64(c);
        if (strcmp(name, "watchdog_cycles") == 0 && v >= 0)
            o->watchdog_cycles = (uint64_t)v;
        else if (strcmp(name, "log_level") == 0 && v >= 0 && v <= 3)
            o->log_level = (int)v;
        else if (strcmp(name, "tick_order_seed") == 0 && v >= 0)
            o->tick_order_seed = (uint64_t)v;
        else if (strcmp(name, "threads") == 0 && v >= 0 && v <= 64)
            o->threads = v ? (uint32_t)v : sim_host_cores();
        else if (strcmp(name, "parallel_every_edge") == 0 && (v == 0 || v == 1))
            o->parallel_every_edge = v == 1;
        else if (!strcmp(name, "watchdog_cycles") || !strcmp(name, "log_level") ||
                 !strcmp(name, "tick_order_seed") || !strcmp(name, "threads") ||
                 !strcmp(name, "parallel_every_edge"))
            return gt_error_set(err, "%s:%u: simulation.%s = %lld is out of range",
                                file ? file : "--set", line, name, v);
        else
            return gt_error_set(err, "%s:%u: simulation has no setting '%s' (watchdog_cycles, "
                                "log_level, tick_order_seed, threads, parallel_every_edge)",
                                file ? file : "--set", line, name);
    }
    return 0;
}

static void free_memory(void *memory)
{
    gpu_memory_destroy(memory);
}

struct sim *machine_build(const struct gt_config *config, unit_kind_lookup_fn lookup,
                          struct gt_error *err)
{
    struct sim_options o;
    if (read_simulation(config, &o, err) < 0)
        return NULL;
    struct sim *sim = sim_create(&o);
    struct gpu_memory *memory = gpu_memory_create(err);
    if (!memory) {
        sim_destroy(sim);
        return NULL;
    }
    sim_set_memory(sim, memory, free_memory);
    if (topology_build(sim, config, lookup, err) < 0 || sim_realize(sim, err) < 0) {
        sim_destroy(sim);
        return NULL;
    }
    return sim;
}
