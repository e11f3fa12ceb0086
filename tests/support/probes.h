/* tests/support/probes.h - unit kinds for driving and observing the fabric in
 * tests: a source that sends numbered messages, a sink that records when each
 * arrived, and a relay. Test-only; no hardware meaning. */
#ifndef GTSIM_TESTS_PROBES_H
#define GTSIM_TESTS_PROBES_H

#include <stdint.h>

#include "fabric/sim.h"
#include "fabric/unit.h"

#define PROBE_MAX_RECORDS 65536

struct probe_source {
    uint64_t messages;      /* param: how many to send */
    uint32_t per_cycle;     /* param: at most this many per cycle */
    uint64_t start_cycle;   /* param: first cycle to try */
    uint32_t payload;       /* param: payload bytes */
    uint32_t period;        /* param: try every `period` cycles (timer wakes) */
    struct port *out;
    uint64_t sent, refused;
    uint64_t send_cycle[PROBE_MAX_RECORDS];
};

struct probe_sink {
    uint32_t per_cycle;     /* param: pops per cycle; 0 never pops */
    uint64_t start_cycle;   /* param: pops nothing before this cycle */
    struct port *in;
    uint64_t received;
    uint64_t checksum;      /* order-sensitive hash of (tag, cycle) */
    uint32_t space_format;  /* of the last MSG_STATE packet (units/common/state_packet.h) */
    uint32_t tag[PROBE_MAX_RECORDS];
    uint64_t cycle[PROBE_MAX_RECORDS];
};

struct probe_relay {
    uint32_t per_cycle;     /* param */
    uint32_t delay;         /* param: hold each message this many cycles (timer) */
    struct port *in, *out;
    uint64_t forwarded;
};

/* Takes `ticks` ticks from cycle 0, each sleeping `sleep_us` host
 * microseconds: a tick of known host time (the thread report's clock). */
struct probe_sleeper {
    uint32_t ticks;         /* param */
    uint32_t sleep_us;      /* param */
    uint32_t ticked;
};

extern const struct unit_ops probe_source_ops;   /* kind "test_source": port out */
extern const struct unit_ops probe_sleeper_ops;  /* kind "test_sleeper": no port */
extern const struct unit_ops probe_sink_ops;     /* kind "test_sink": port in */
extern const struct unit_ops probe_relay_ops;    /* kind "test_relay": ports in, out */

/* Kind lookup for topology_build in tests: probes, then the real registry. */
const struct unit_ops *probe_kind_find(const char *kind);

/* A one-clock sim (1000 ps) with the given options (NULL: defaults). */
struct sim *probe_sim(const struct sim_options *options);

/* Gives the sim a fresh GPU memory (freed with it); returns it. */
struct gpu_memory *probe_memory(struct sim *sim);

/* The value of one stat path after a stats dump of the whole sim; -1 if absent. */
double probe_stat(struct sim *sim, const char *path);

/* Adds a unit or fails the test run loudly (returns NULL). */
struct unit *probe_add(struct sim *sim, const struct unit_ops *ops, const char *name,
                       const char *const *overrides);

/* Connects from.out -> to.in ("port" or "port[N]", resolved by name as the
 * topology does) with the given link; returns 0. */
int probe_link(struct sim *sim, struct unit *from, const char *out, struct unit *to,
               const char *in, uint32_t latency, uint32_t capacity, uint32_t width);

#endif
