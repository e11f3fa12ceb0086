/* units/host/host.h - the host side of the machine: plays a workload into the GPU.
 *
 * Models the CPU and driver only as a source of work for the command
 * streamer; none of the host's own timing is modelled. Workloads:
 *
 *   FILE.aub, FILE.aub.gz   an AUB capture (fabric/aub.h): its blocks are played
 *       in file order. Memory writes go straight into the machine's memory
 *       (the backdoor: GGTT_ENTRY to the GTT entry array, GGTT through the
 *       GTT of the capture's device, PHYSICAL as is); register writes go to
 *       the CS as MMIO writes; a register poll, and a legacy ring write
 *       (delivered inline), wait until the CS has finished everything before
 *       it: a capture may overwrite what an earlier submission used
 *       (notes/aub-format.md §4.5, §5.2, §6 pitfall 7). The device the capture
 *       names is told to the CS, which refuses another generation's capture.
 *       With "blitter" linked, the blitter ring's traffic goes to the
 *       blitter instead: register writes in its register page
 *       (blitter_mmio_base, BCS 0x22000: the execlist ELSP 0x22230 of
 *       Gen8/Gen9, GFX_MODE, the ring registers; aub-format §4.4), polls of
 *       those registers (a sync the blitter answers), and legacy ring writes
 *       to RING_PRB2 (aub-format §2.5, then a sync); the run's last sync
 *       waits for the blitter too. Without it, a RING_PRB2 write is refused
 *       as before and the registers go to the CS.
 *
 *   builtin:fabric   `messages` 3D state commands (3DSTATE_VF_STATISTICS, in
 *       this generation's encoding, asked of the CS first) handed to the CS
 *       as ring dwords, 4096 at a time: traffic through the CS and every link
 *       of the pipeline behind it.
 *
 * Ports: "gpu" out (MSG_MMIO to the CS's "host" port), "gpu_reply" in (sync
 * replies from the CS's "host_reply" port), "blitter" out / "blitter_reply"
 * in (optional, both or neither: the blitter's "host" / "host_reply").
 * Stats: injected (commands for builtin, blocks for AUB), memory_writes,
 * memory_bytes, register_writes, syncs, faults (the blitter counts what it
 * gets from the host itself).
 */
#ifndef GTSIM_UNITS_HOST_H
#define GTSIM_UNITS_HOST_H

#include "fabric/unit.h"

extern const struct unit_ops host_ops;

#endif
