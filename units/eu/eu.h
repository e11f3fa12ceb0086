/* units/eu/eu.h - the execution unit (Gen7/8/9): hardware threads running EU
 * kernels, with the ISA executed per channel by units/eu/eu_exec*.c (and
 * eu_fast.c). Files: eu.c (the unit shell), eu_fetch.c (instruction fetch),
 * eu_schedule.c (dispatch, scoreboard, arbitration, sends); eu_internal.h.
 *
 * Models (seed 003 = SKL PRM vol 7):
 *  - thread slots (param `threads`; Gen9 7 per EU, notes §11.1/§14.2) filled by
 *    dispatch messages from the thread dispatcher; r0.. loaded from the payload;
 *  - issue: "oldest first" - the EU fills its pipes from the threads in age
 *    order (L19108-19112), or round-robin (param `arbitration`); one
 *    instruction per thread per cycle, one per pipe: FPU, EM (which runs all
 *    FPU work as well, L19104-19106, so two ALU instructions may co-issue from
 *    two threads), send and branch;
 *  - a pipe is busy for ceil(channels x bytes / 16) cycles (4 32-bit channels
 *    per cycle, L19171 read as in notes §11.1); results are ready after that
 *    plus `fpu_latency` or `em_latency` by the pipe used (`math_latency` for
 *    math, `df_latency` for DF); `co_issue` false allows one ALU issue per cycle;
 *  - a scoreboard per GRF: SEND destinations are pending until the write-back
 *    arrives, ALU and math destinations until their latency has passed, and
 *    one entry for the flags written by conditional modifiers and read by
 *    predication (L20905 dependency rules; NoDDClr/NoDDChk are not modelled);
 *  - instruction fetch, in timing mode, 64-byte lines (seed 003 L18327):
 *    with "icache" linked, through the subslice's shared instruction cache
 *    (units/icache/icache.h): each thread holds the line it executes from;
 *    when its ip enters another line it looks in the EU's fetch buffer
 *    (`fetch_buffer_lines` lines, direct mapped by physical line, shared by
 *    the EU's threads; filled by the replies; its default of 64 is a
 *    simulation-speed choice: with fewer lines more fetches reach the
 *    icache and cost host time, while SGEMM's cycles move by under 1%
 *    between 8 and 128 lines), and on a miss there sends one
 *    line request (MSG_MEMORY_REQUEST, read, the physical line address, tag
 *    = the request's entry) on "icache" and stalls (stall.fetch) until the
 *    reply on "icache_reply"; threads of the EU that want a line already
 *    requested wait on that request (fetch.merged) instead of sending their
 *    own. On entering a line a thread also has the EU request the next
 *    `fetch_prefetch_lines` lines (2: the seed's prefetch of "up to 8
 *    instructions" beyond, L20915) that are neither buffered nor requested,
 *    within the line's 4 KiB page (fetch.prefetches). Without "icache" linked (an EU alone, tests/support/eu_rig.h) the
 *    EU keeps its own direct-mapped cache of `icache_kib` with
 *    `icache_latency` per miss and no traffic. The seed gives no figures for
 *    either (notes §14.17): the defaults are modelling choices. Fast mode
 *    fetches through neither (no fetch timing, no fetch traffic);
 *  - a decoded-instruction cache keyed by address (decode once), in both
 *    modes;
 *  - SEND: the payload registers go out on port "sfid[SFID]" when bound, else
 *    on "send"; write-backs come back on "writeback[*]"; EOT ends the thread,
 *    whose slot is freed once its last write-back has arrived, and a thread-end
 *    message goes out on "td";
 *  - `fast` mode: a thread runs until its next SEND in one tick, no latencies.
 *    A SEND to a port that takes calls (a `functional` data port) is made
 *    as a call from the EU's edge commit (fabric/port.h port_call), its reply
 *    held until the cycle the channels would have brought it; a model choice
 *    for host speed, not hardware behaviour. A thread whose next instruction
 *    waits for a reply asks for no tick (stalls are counted on ticks taken).
 * Ports: "dispatch" in (MSG_THREAD_DISPATCH; MSG_GENERIC traffic is passed on
 *        unchanged to "send"), "send" out, "sfid"[16] out (optional, per SFID),
 *        "writeback"[n] in (optional; open, one per shared function that
 *        answers, 0-3 always made), "td" out (optional, thread ends),
 *        "icache" out and "icache_reply" in (optional, linked together:
 *        line fetches to the subslice instruction cache, units/common/memreq.h).
 *        Payloads: units/common/thread_msg.h.
 * Bad programming (illegal opcodes, register accesses outside the GRF, fetch
 * faults, kernels exceeding `max_thread_instructions`) ends the thread or
 * discards the access, logs a note and counts it; nothing crashes or hangs.
 * Not modelled: Gen4 execution, the System Routine/exceptions, sendc's TDR
 * wait, accumulator and a0 dependencies, thread priority classes, preemption,
 * instruction prefetch in the EU's own cache model (icache unlinked), prefetch
 * across a page boundary, the fetch buffer's replacement beyond direct
 * mapping, self-modifying code
 * (an EU's decoded-instruction table, keyed by address, is never invalidated;
 * the decoded-kernel cache its misses consult, shared by the simulation's EUs,
 * is keyed by the instruction bytes too: eu_decode_cache.h).
 */
#ifndef GTSIM_UNITS_EU_EU_H
#define GTSIM_UNITS_EU_EU_H

#include "fabric/unit.h"

extern const struct unit_ops eu_ops;

#endif
