/* units/host/host.c - see host.h. */
#include "units/host/host.h"

#include <string.h>

#include "fabric/port.h"

#define BUILTIN_FABRIC "builtin:fabric"

struct host {
    char workload[PARAM_STRING_MAX];
    uint64_t messages;
    uint32_t rate;
    uint32_t payload_bytes;
    struct port *gpu;
    uint64_t injected, injected_bytes;
};

static const struct param_desc host_params[] = {
    PARAM_STRING_FIELD("workload", struct host, workload, BUILTIN_FABRIC,
                       "what to play: builtin:fabric (generic traffic through every link)"),
    PARAM_U64_FIELD("messages", struct host, messages, 100000, 0, 1000000000000LL,
                    "builtin:fabric: messages to send"),
    PARAM_U32_FIELD("rate", struct host, rate, 1, 1, 1024, "builtin:fabric: messages per cycle"),
    PARAM_U32_FIELD("payload_bytes", struct host, payload_bytes, 64, 0, 65536,
                    "builtin:fabric: payload bytes per message"),
    PARAM_END
};

static const struct port_desc host_ports[] = {
    { .name = "gpu", .direction = PORT_OUT, .help = "work for the GPU" },
    PORT_END
};

static const struct stat_desc host_stats[] = {
    STAT_COUNTER_FIELD("injected", struct host, injected, "messages", "messages sent to the GPU"),
    STAT_COUNTER_FIELD("injected_bytes", struct host, injected_bytes, "bytes",
                       "payload bytes sent to the GPU"),
    STAT_END
};

static int host_realize(struct unit *u, struct gt_error *err)
{
    struct host *s = unit_state(u);
    if (strcmp(s->workload, BUILTIN_FABRIC) != 0)
        return gt_error_set(err, "workload '%s' is not supported yet: this build plays only "
                            BUILTIN_FABRIC " (AUB replay comes with the command streamer)",
                            s->workload);
    s->gpu = unit_port(u, "gpu", 0);
    return 0;
}

static void host_reset(struct unit *u)
{
    struct host *s = unit_state(u);
    s->injected = s->injected_bytes = 0;
    if (s->messages)
        unit_wake_at(u, 0);
}

static enum unit_activity host_tick(struct unit *u)
{
    struct host *s = unit_state(u);
    for (uint32_t i = 0; i < s->rate && s->injected < s->messages; i++) {
        if (!port_can_send(s->gpu))
            return UNIT_IDLE;           /* woken when the channel frees up */
        struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, s->payload_bytes);
        m->tag = (uint32_t)s->injected;
        port_try_send(s->gpu, m);
        s->injected++;
        s->injected_bytes += s->payload_bytes;
    }
    return s->injected < s->messages ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops host_ops = {
    .kind = "host",
    .help = "The host side: plays a workload into the GPU (builtin:fabric sends generic "
            "traffic through every link).",
    .state_size = sizeof(struct host),
    .params = host_params,
    .ports = host_ports,
    .stats = host_stats,
    .realize = host_realize,
    .reset = host_reset,
    .tick = host_tick,
};
