/* units/placeholder/placeholder.c - see placeholder.h. */
#include "units/placeholder/placeholder.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/port.h"

#define PLACEHOLDER_MAX_PORTS 1024

struct placeholder {
    /* params */
    bool forward;
    uint32_t throughput;
    uint32_t planned[4];        /* params the real unit will take (see each kind) */
    /* bound ports, gathered at reset */
    struct port **inputs, **outputs;
    uint32_t input_count, output_count;
    uint32_t next_input, next_output;
    /* stats */
    uint64_t received, received_bytes, forwarded, sunk;
};

#define COMMON_PARAMS                                                                   \
    PARAM_BOOL_FIELD("forward", struct placeholder, forward, 1,                         \
                     "forward what arrives to the outputs (round-robin); else sink it"), \
    PARAM_U32_FIELD("throughput", struct placeholder, throughput, 1, 1, 1024,          \
                    "messages handled per cycle")

static const struct stat_desc placeholder_stats[] = {
    STAT_COUNTER_FIELD("received", struct placeholder, received, "messages",
                       "messages received on all inputs"),
    STAT_COUNTER_FIELD("received_bytes", struct placeholder, received_bytes, "bytes",
                       "payload bytes received on all inputs"),
    STAT_COUNTER_FIELD("forwarded", struct placeholder, forwarded, "messages",
                       "messages passed on to an output"),
    STAT_COUNTER_FIELD("sunk", struct placeholder, sunk, "messages",
                       "messages freed here (no output to pass them to)"),
    STAT_END
};

static struct port *placeholder_port(struct unit *u, const char *name, uint32_t index,
                                     enum port_direction direction, struct gt_error *err)
{
    if (index >= PLACEHOLDER_MAX_PORTS) {
        gt_error_set(err, "port index %u is beyond the placeholder's limit of %u", index,
                     PLACEHOLDER_MAX_PORTS);
        return NULL;
    }
    /* One name is one direction: a link may not use "x" as both. */
    for (uint32_t i = 0; i < unit_port_count(u, name); i++) {
        struct port *p = unit_port(u, name, i);
        if (p && port_direction(p) != direction) {
            gt_error_set(err, "port '%s' is already an %s", name,
                         port_direction(p) == PORT_IN ? "input" : "output");
            return NULL;
        }
    }
    return unit_add_port(u, name, index, direction, PORT_OPTIONAL);
}

static void gather_ports(struct unit *u, struct placeholder *s)
{
    /* The bound ports, collected once at reset (after every link is made). */
    uint32_t cap = 8;
    s->inputs = gt_xcalloc(cap, sizeof *s->inputs);
    s->outputs = gt_xcalloc(cap, sizeof *s->outputs);
    uint32_t in_cap = cap, out_cap = cap;
    for (struct port *p = unit_first_port(u); p; p = unit_next_port(p)) {
        if (!port_is_bound(p))
            continue;
        if (port_direction(p) == PORT_IN) {
            if (s->input_count == in_cap)
                s->inputs = gt_xrealloc(s->inputs, (in_cap *= 2) * sizeof *s->inputs);
            s->inputs[s->input_count++] = p;
        } else {
            if (s->output_count == out_cap)
                s->outputs = gt_xrealloc(s->outputs, (out_cap *= 2) * sizeof *s->outputs);
            s->outputs[s->output_count++] = p;
        }
    }
}

static void placeholder_reset(struct unit *u)
{
    struct placeholder *s = unit_state(u);
    free(s->inputs);
    free(s->outputs);
    s->input_count = s->output_count = 0;
    gather_ports(u, s);
    s->next_input = s->next_output = 0;
}

static enum unit_activity placeholder_tick(struct unit *u)
{
    struct placeholder *s = unit_state(u);
    uint32_t budget = s->throughput;
    uint32_t empty_inputs = 0;
    while (budget && empty_inputs < s->input_count) {
        struct port *in = s->inputs[s->next_input];
        struct msg *m = port_peek(in);
        if (!m) {
            empty_inputs++;
            if (++s->next_input == s->input_count)
                s->next_input = 0;
            continue;
        }
        empty_inputs = 0;
        if (s->forward && s->output_count) {
            struct port *out = s->outputs[s->next_output];
            /* send what is at the head of the input, then take it off: one
             * admission check per message instead of two */
            if (!port_try_send(out, m))
                return UNIT_IDLE;       /* woken when the output frees up */
            port_pop(in);
            s->received++;
            s->received_bytes += m->size;
            s->forwarded++;
            if (++s->next_output == s->output_count)
                s->next_output = 0;
        } else {
            port_pop(in);
            s->received++;
            s->received_bytes += m->size;
            s->sunk++;
            msg_free(unit_sim(u), m);
        }
        if (++s->next_input == s->input_count)
            s->next_input = 0;
        budget--;
    }
    if (budget == 0)
        for (uint32_t i = 0; i < s->input_count; i++)
            if (port_peek(s->inputs[i]))
                return UNIT_BUSY;
    return UNIT_IDLE;
}

static void placeholder_destroy(struct unit *u)
{
    struct placeholder *s = unit_state(u);
    free(s->inputs);
    free(s->outputs);
}

#define PLACEHOLDER_OPS(sym, kind_name, help_text, ...)                                 \
    static const struct param_desc sym##_params[] = { COMMON_PARAMS, ##__VA_ARGS__,     \
                                                      PARAM_END };                     \
    static const struct unit_ops sym = {                                                \
        .kind = kind_name,                                                              \
        .help = "Placeholder for " help_text ": counts what it receives and forwards "  \
                "it round-robin to its outputs (a sink when it has none).",            \
        .placeholder = true,                                                            \
        .state_size = sizeof(struct placeholder),                                       \
        .params = sym##_params,                                                         \
        .stats = placeholder_stats,                                                     \
        .port = placeholder_port,                                                       \
        .reset = placeholder_reset,                                                     \
        .tick = placeholder_tick,                                                       \
        .destroy = placeholder_destroy,                                                 \
    }

#define PLANNED_U32(name, index, def, lo, hi, help) \
    PARAM_U32_FIELD(name, struct placeholder, planned[index], def, lo, hi, help)

/* Gen9 unslice (seed 003, "3D pipeline" and "GPGPU" chapters; notes/003-skl-pipeline.md). */
PLACEHOLDER_OPS(cs_ops, "cs", "the command streamer (issue: command streamer)");
PLACEHOLDER_OPS(vf_ops, "vf", "the vertex fetcher");
PLACEHOLDER_OPS(vs_ops, "vs", "the vertex shader stage");
PLACEHOLDER_OPS(hs_ops, "hs", "the hull shader stage");
PLACEHOLDER_OPS(te_ops, "te", "the tessellator");
PLACEHOLDER_OPS(ds_ops, "ds", "the domain shader stage");
PLACEHOLDER_OPS(gs_ops, "gs", "the geometry shader stage");
PLACEHOLDER_OPS(sol_ops, "sol", "the stream-output logic");
PLACEHOLDER_OPS(clip_ops, "clip", "the clipper");
PLACEHOLDER_OPS(sf_ops, "sf", "the strips-and-fans / setup unit");
PLACEHOLDER_OPS(wm_ops, "wm", "the windower/masker (rasterizer and PS dispatch)");
PLACEHOLDER_OPS(vfe_ops, "vfe", "the media/GPGPU front end (VFE, GPGPU walker)");
PLACEHOLDER_OPS(urb_ops, "urb", "the unified return buffer manager");
/* Gen4's URB is divided by URB_FENCE among fixed functions (seed 001), not
 * allocated by 3DSTATE_URB_*: its own kind (units/urb_fence replaces this). */
PLACEHOLDER_OPS(urb_fence_ops, "urb_fence", "the Gen4 URB, divided by URB_FENCE");
/* Slice: L3 and the pixel back end. */
PLACEHOLDER_OPS(l3_ops, "l3", "an L3 cache bank group",
                PLANNED_U32("size_kib", 0, 768, 64, 4096,
                            "L3 size per slice in KiB (Gen9: 768 KiB per slice, seed 003 L3 "
                            "allocation tables)"),
                PLANNED_U32("banks", 1, 4, 1, 64, "L3 banks per slice"));
PLACEHOLDER_OPS(om_ops, "om", "the output merger / pixel back end");
/* Subslice. */
PLACEHOLDER_OPS(td_ops, "td", "the thread dispatcher");
PLACEHOLDER_OPS(eu_ops, "eu", "an execution unit",
                PLANNED_U32("threads", 0, 7, 1, 16,
                            "hardware threads per EU (Gen9: 7, seed 003)"));
PLACEHOLDER_OPS(sampler_ops, "sampler", "the sampler shared function");
PLACEHOLDER_OPS(dataport_ops, "dataport", "the data port shared function");
PLACEHOLDER_OPS(pi_ops, "pi", "the pixel interpolater shared function");
PLACEHOLDER_OPS(gateway_ops, "gateway", "the message gateway (barriers)");
PLACEHOLDER_OPS(icache_ops, "icache", "the subslice instruction cache");
/* Memory side. */
PLACEHOLDER_OPS(memory_ops, "memory", "the LLC/DRAM memory model");

const struct unit_ops *const placeholder_kinds[] = {
    &cs_ops, &vf_ops, &vs_ops, &hs_ops, &te_ops, &ds_ops, &gs_ops, &sol_ops, &clip_ops,
    &sf_ops, &wm_ops, &vfe_ops, &urb_ops, &urb_fence_ops, &l3_ops, &om_ops, &td_ops, &eu_ops, &sampler_ops,
    &dataport_ops, &pi_ops, &gateway_ops, &icache_ops, &memory_ops, NULL
};
