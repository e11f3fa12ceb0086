/* units/vfe/vfe.h - the media/GPGPU front end: the Video Front End (VFE) and
 * the Thread Spawner (TS) role for GPGPU root threads, Gen7/Gen8/Gen9.
 *
 * Models (seed 003 = SKL PRM vol 7; notes/003-skl-pipeline.md §6; command
 * layouts from seed 004 (Gen8) and 000 (Gen7) through the spec tables):
 *  - STATE_SIP (the System Routine, relative to General State Base, L22196),
 *    carried with every dispatch with the interface descriptor's FP mode,
 *    rounding mode and exception enables for the EU's cr0 (L11090-11130);
 *  - STATE_BASE_ADDRESS (the bases the thread context carries), MEDIA_VFE_STATE
 *    (maximum threads, CURBE allocation; L17520-17613), MEDIA_CURBE_LOAD (the
 *    CURBE is read from Dynamic State Base + offset when the command arrives,
 *    L17257-17268), MEDIA_INTERFACE_DESCRIPTOR_LOAD (up to 64 descriptors of
 *    32 bytes from Dynamic State Base + offset, L17917, L18030),
 *    MEDIA_STATE_FLUSH (a fence: the front end waits until the walker before it
 *    has dispatched every thread; it does not wait for retirement, L16941);
 *  - GPGPU_WALKER (L17150-17236, L17298-17302): thread groups X first, then
 *    Y, then Z, from the starting IDs to the dimensions; per group
 *    (width+1)*(height+1)*(depth+1) threads of SIMD8/16/32; a thread at the
 *    width maximum gets the Right Execution Mask, at the height maximum the
 *    Bottom mask, both: their AND (L17204-17236); indirect dispatch (the
 *    CS, which holds GPGPU_DISPATCHDIMX/Y/Z, puts them in the packet's
 *    dimensions; a zero dimension means no work, L16947-16980);
 *  - the GPGPU thread payload (L17304-17336): R0 (R0.0[29:24] SLM index,
 *    R0.1 group X, R0.2 barrier enable/ID and SLM enable, R0.4 binding table
 *    pointer, R0.5[9] GPGPU dispatch and [8:0] FFTID, R0.6 group Y, R0.7 group
 *    Z), then the cross-thread CURBE data (Gen8/9: Cross-Thread Constant Data
 *    Read Length registers from the start of the CURBE), then the thread's own
 *    CURBE data (thread k: Constant URB Entry Read Length registers at
 *    cross + (Read Offset + k * Read Length) * 32 bytes);
 *  - thread groups: all threads of a group go to one subslice's thread
 *    dispatcher (L17388), groups round-robin over the subslices; SLM per group
 *    from the subslice's 64 KB in 4 KB granules, first fit (L17346-17360), a
 *    barrier per group from the subslice's `barriers` (the count goes with the
 *    thread context to the gateway); both freed when the group's last thread
 *    sends its EOT to the thread spawner (SFID 7, L18133-18191);
 *  - at most `max_threads` GPGPU threads in flight (MEDIA_VFE_STATE's maximum
 *    when smaller), each with its own scratch space: R0.5[31:10] = Scratch
 *    Space Base Pointer + slot x per-thread size (Gen8/9: 1 KB << Per Thread
 *    Scratch Space, Gen7: 1 KB x (n + 1)), R0.3[3:0] the size code; the slot
 *    is free again at the thread's EOT.
 * Bad programming (counted and logged, never a crash or hang): a walker with
 * a zero dimension or zero threads does nothing (empty_walkers); one with
 * more than `max_walker_threads` threads is refused (walkers_refused); an
 * interface descriptor or CURBE that cannot be read (outside memory) or an
 * interface descriptor offset beyond those loaded refuses the walker
 * (descriptor_faults, curbe_faults); an SLM size beyond the subslice's
 * partition is clamped to it (slm_oversize); a group larger than a subslice
 * can hold with barriers or SLM is refused (groups_refused).
 * Ports: "cs" in (MSG_STATE from the command streamer; MSG_MMIO CS_MMIO_SYNC:
 *        a host sync), "cs_drained" out (MSG_MMIO CS_MMIO_SYNC_DONE once every
 *        thread dispatched before the sync has ended), "td"[open] out (one
 *        per subslice: MSG_THREAD_DISPATCH, units/common/thread_msg.h), "ts"[open] in
 *        (MSG_SEND with EOT from the EUs, SFID 7).
 * Not modelled: MEDIA_OBJECT*, the media walker and scoreboard, URB handles
 * and their partitioning (payloads go straight into the dispatch), child threads and spawn messages, global barriers across subslices,
 * preemption, MEDIA_POOL_STATE.
 */
#ifndef GTSIM_UNITS_VFE_H
#define GTSIM_UNITS_VFE_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops vfe_ops;

/* Per-walker records (issue 17 item 5), for `gtsim run`'s walkers.csv and
 * stats.json: one per GPGPU_WALKER the front end took, in order, numbered
 * from 1, up to VFE_OBSERVED_WALKERS (later ones are in the totals only).
 * first_cycle: the cycle the walker was taken (its issue); dispatched_cycle:
 * its last thread dispatched; last_cycle: its last thread's EOT (its
 * completion; first_cycle when it ran no thread). thread_cycles sums each
 * thread's life on the EU, as its EOT message tells it (thread_msg.h
 * thread_life_ps: from the EU taking the dispatch into a slot to the EOT
 * leaving the EU; a wait in the TD for a free slot is not in it), so
 * thread_cycles / (cycles x hardware threads) is the walker's mean EU thread
 * occupancy, at most 1.
 * refused: an empty or refused walker (counted in empty_walkers /
 * walkers_refused). */
#define VFE_OBSERVED_WALKERS (1u << 20)

struct vfe_observed_walker {
    uint32_t walker;
    bool refused;
    uint32_t simd;
    uint64_t groups, threads_dispatched, threads_ended, thread_cycles;
    uint64_t first_cycle, dispatched_cycle, last_cycle;     /* the front end's clock */
};

uint32_t vfe_observed_walkers(struct unit *u, const struct vfe_observed_walker **walkers);

/* The FFID the front end puts in its dispatches (sr0.0[27:24]). */
#define VFE_FFID_GPGPU 7       /* FFID_GPGPU, units/common/thread_msg.h */

#endif
