/* units/host/host.h - the host side of the machine: plays a workload into the GPU.
 *
 * Models the CPU and driver only as a source of traffic; nothing of the host's
 * own timing is modelled. Workloads:
 *   "builtin:fabric"  sends `messages` generic messages of `payload_bytes`
 *                     bytes, `rate` per cycle, on its "gpu" output: traffic
 *                     that exercises every link of the machine (the default
 *                     workload until the command streamer reads AUB files).
 * Ports: "gpu" out (to the command streamer's host interface).
 * Stats: injected, injected_bytes.
 */
#ifndef GTSIM_UNITS_HOST_H
#define GTSIM_UNITS_HOST_H

#include "fabric/unit.h"

extern const struct unit_ops host_ops;

#endif
