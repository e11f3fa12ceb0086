/* units/vc4_sync/vc4_sync.h - VideoCore IV system-wide QPU synchronisation: the 16 counting
 * semaphores and the mutex (notes/002-videocore4.md §2.2, §7.1: the "message gateway" of the
 * VideoCore side).
 *
 * What it models (seed 002):
 *  - semaphores: "16 system-wide 4-bit counting semaphores"; the semaphore instruction
 *    (Fig 6 @83883) increments (sa = 0) or decrements (sa = 1) one; "the instruction stalls
 *    if the semaphore count would go below 0 or above 15" (@61295, @83883). Counts start at 0
 *    (IDENT1 NSEM reset 16 semaphores, Table 80). A stalled request waits in arrival order and
 *    is granted when another QPU's operation makes it possible (the seed gives no fairness
 *    rule: first come, first served [chosen]);
 *  - the mutex: a read of MUTEX_ACQUIRE (raddr 51) "stalls until the mutex is granted"; a
 *    write to MUTEX_RELEASE (waddr 51) frees it (@67887). The read returns, like any unmapped
 *    read, the element number (space A) or the QPU number (space B) (@67887, notes §5 A30).
 *    Waiters are served first come, first served [chosen]; a release by a QPU that does not
 *    hold the mutex is counted and ignored [chosen: the seed is silent].
 * Every request that expects an answer (semaphore, acquire) is answered `latency` cycles after
 * it is granted, as a MSG_QPU_RESULT (to_r4 = 0).
 *
 * Ports: "qpu"[n] in (MSG_QPU_IO: QPU_IO_SEMAPHORE, QPU_IO_READ of 51, QPU_IO_WRITE of 51, an
 * open array: one per QPU), "result"[n] out (MSG_QPU_RESULT to the QPU of the same index).
 * Stats: semaphore_increments, semaphore_decrements, semaphore_waits, mutex_acquires,
 * mutex_waits, bad_releases, bad_messages, reply_stalls.
 * Not modelled: the arbitration time of the semaphore hardware beyond `latency`.
 */
#ifndef GTSIM_UNITS_VC4_SYNC_H
#define GTSIM_UNITS_VC4_SYNC_H

#include "fabric/unit.h"

#define VC4_SEMAPHORES 16

extern const struct unit_ops vc4_sync_ops;

#endif
