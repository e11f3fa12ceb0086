/* units/gateway/gateway.h - a subslice's message gateway (SFID 3): barriers
 * for thread groups and timestamps.
 *
 * Models (seed 003 L9016-9140, notes/003-skl-sharedfn-eu.md §8):
 *  - BarrierMsg (SubFuncID 4): the barrier named by M0.2[31] and [27:24]
 *    counts its requesters; when the count equals the barrier's thread count,
 *    every requester gets its notification (an empty write-back, the EU's n0)
 *    and the count restarts at zero (L9087-9140). The thread count is the
 *    group's, programmed by the front end before dispatch (L17362-17366); it
 *    travels with the thread context (units/common/thread_msg.h), or comes from
 *    M0.2[14:9] when M0.2[15] Barrier Count Enable is set. A predicated
 *    barrier (M0.2[30]) returns in W0.0[15:0] the sum of the requesters'
 *    M0.3 predicate bits;
 *  - GetTimeStamp (SubFuncID 3): W0.0/W0.1 absolute time and W0.2/W0.3
 *    relative time in GT clocks of this unit (the 1/4 ns and 1.024 us units
 *    of L9037-9085 are not converted), the other half when M0.5[31] asks.
 * Bad programming (counted, logged once): other SubFuncIDs (replied with
 * zeros when a reply is due), a barrier with no thread count, more
 * requesters at once than `max_waiters`, malformed messages.
 * Ports: "eu"[open] in (MSG_SEND, SFID 3, from each EU), "writeback"[open]
 *        out (MSG_WRITEBACK to the EU of the same index).
 * Not modelled: global barriers across subslices, the gateway's MMIO and
 * legacy open/close/forward messages, `latency` beyond a fixed reply delay.
 */
#ifndef GTSIM_UNITS_GATEWAY_H
#define GTSIM_UNITS_GATEWAY_H

#include "fabric/unit.h"

extern const struct unit_ops gateway_ops;

#endif
