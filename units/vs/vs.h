/* units/vs/vs.h - the Vertex Shader stage of Gen8/Gen9 (unit kind "vs").
 *
 * Models (seed 003 "Vertex Shader (VS) Stage" L12202-12308, thread requests
 * L11369-11479 and L11655-11746, VUE formats L11747-11844):
 *  - State, in command order: STATE_BASE_ADDRESS, 3DSTATE_VS (Enable, Kernel
 *    Start Pointer, SIMD8 Dispatch Enable, Maximum Number of Threads, Vertex
 *    URB Entry Read Offset/Length, Dispatch GRF Start Register For URB Data,
 *    Statistics Enable, scratch, floating point mode, exception enables,
 *    binding table entry count, priority), 3DSTATE_CONSTANT_VS (push
 *    constants read when the command arrives, units/common/stage_thread.h),
 *    3DSTATE_BINDING_TABLE_POINTERS_VS, 3DSTATE_SAMPLER_STATE_POINTERS_VS.
 *    Every state packet is forwarded (later stages read 3DSTATE_VS's output
 *    length, L15171).
 *  - Work: primitives from VF (MSG_PRIMITIVE) name their VUE handles and, in
 *    new_vertices, the vertices VF fetched anew (vertex cache misses). "The
 *    primary function of the VS stage is to pass vertices that miss in the VS
 *    Cache to VS threads ... Vertices that hit in the VS Cache have already
 *    been shaded and are therefore passed down the pipeline unmodified"
 *    (L12204): each new vertex is shaded once; the VUE handle VF wrote is
 *    both the thread's input and its output (R1's return handles). New
 *    vertices are batched in arrival order, up to 8 per SIMD8 thread (one
 *    dmask bit per vertex); a partial batch goes out as soon as the next
 *    input is not a primitive or no input waits (the stage never stalls the
 *    pipeline to fill a thread). Each vertex's input rows (Vertex URB Entry
 *    Read Offset/Length, 256-bit units, L11730-11731) are read from the URB
 *    (URB_OP_READ) to build the payload.
 *  - SIMD8 payload (L12257-12300): R0 (the common fields, stage_thread.h),
 *    R1.n = vertex n's URB return handle, the push constants from Dispatch
 *    GRF Start Register For URB Data, then the vertex data in SoA: register
 *    4e + c after the constants holds element e component c of the 8
 *    vertices (vertex n in dword n), for 2 x Read Length elements.
 *  - A primitive leaves on "hs" (its URB references passed on unchanged,
 *    new_vertices cleared) once the threads of all its new vertices have
 *    ended (the URB's "eot_vs" notice); primitives keep their order, and
 *    state and register traffic behind them wait until they have left. With
 *    the VS disabled "vertices flow through the unit unmodified" (L12206):
 *    primitives pass on as they came.
 *  - VS_INVOCATION_COUNT (0x2320, L11035): the vertices VF sent anew while
 *    Statistics Enable is set ("impacted by vertex caching ... increments
 *    even if VS Function Enable is DISABLED"). CS_MMIO_WRITE of 0x2320/0x2324
 *    sets its low/high dword (consumed); CS_MMIO_WRITE of INSTPM sets the
 *    push constants' address mode (forwarded); CS_MMIO_SYNC waits until all
 *    work ahead has left, then carries PIPE_REG_VS_INVOCATIONS on
 *    (units/common/mmio.h).
 *  - Gen7 (issue 14): 3DSTATE_VS of generation 7 runs SIMD4x2 (vec4)
 *    threads (seed 003 L12220-12251): two vertices per thread, R0.0/R0.1
 *    their URB return handles, then (after R0 and the constants from Dispatch
 *    GRF Start, 1 or more) one register per 128-bit element with vertex 0 in
 *    DW3:0 and vertex 1 in DW7:4; dmask 0xff, or 0x0f for a lone vertex.
 *    Kernel Start Pointer 0 is a kernel there (crocus puts its VS at the
 *    instruction base: byt_tri).
 *  - Gen4 (issue 14): 3DSTATE_PIPELINED_POINTERS' VS_STATE (seed 001
 *    L5589-6158, at General State Base + pointer, read when the packet
 *    arrives) is taken as the Gen7 SIMD4x2 3DSTATE_VS (the Gen4 payload,
 *    L6178-6372: handles in R0.0/R0.1, CURBE, interleaved vertex data);
 *    the CURBE is the VS_STATE's Constant URB Entry Read Offset/Length rows
 *    of the CONSTANT_BUFFER, read from memory at its address (the urb_fence
 *    unit counts the copy). Kernel and scratch pointers are General State
 *    offsets. VS_STATE outside memory: gen4.state_faults, the VS disabled;
 *    CURBE outside memory: gen4.curbe_faults, zeros.
 * Bad input (counted in bad.*, logged, never a hang): a Kernel Start Pointer
 * of 0 with the VS enabled (vertices pass unshaded, as if disabled), a Read
 * Length of 0 (INVALID, L11731: no vertex data pushed) or longer than the
 * payload can hold ("the maximum limit is 30 elements per vertex", L12300,
 * and 128 GRFs: cut to fit), Dispatch GRF Start below 2 (it would overwrite
 * R0/R1: 2 used), SIMD8 Dispatch Enable clear (SIMD4x2 is not modelled: the
 * SIMD8 layout is used), malformed primitives (dropped), URB replies for no
 * read (dropped).
 *
 * Ports: "vf" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO, in order), "hs" out,
 *        "td"[open] out (MSG_THREAD_DISPATCH to the subslices' td.vs),
 *        "eot" in (urb.eot_vs), "urb" out / "urb_reply" in (MSG_URB, to the
 *        URB unit's client[i] / client_reply[i]).
 * Params: per_cycle (input messages handled per tick), max_held (primitives
 *        waiting for their vertices).
 * Stats: vertices_shaded, vertices_cached (bit clear: not shaded again),
 *        vertices_unshaded (passed with the VS disabled), primitives_in,
 *        primitives_out, threads, partial_threads, urb_reads, invocations
 *        (the register's value), stall.held (primitive held: too many
 *        waiting), stall.batches (no free batch), stall.urb_read (ticks a
 *        closed batch waited for URB data), stall.urb_port (read request
 *        refused by the "urb" channel), stall.drain (state/sync held until
 *        the work ahead left), bad.kernel, bad.read_length, bad.grf_start,
 *        bad.simd4x2, bad.primitive, bad.urb_reply, state.*, mmio.*, the
 *        thread dispatch counters (threads.*, STAGE_THREADS_STATS) and the
 *        skeleton's (ff.*, FF_STAGE_STATS).
 *
 * Not modelled: SIMD4x2 dispatch on Gen8/Gen9 and Single Vertex Dispatch, the VS cache
 * itself (VF decides hits), Vertex Cache Disable (VF's concern), user clip
 * distance bitmasks and output length/offset (later stages read them from
 * the forwarded packet), 3DSTATE_PUSH_CONSTANT_ALLOC_VS and 3DSTATE_URB_VS
 * (the URB unit's), the timing of payload assembly beyond the URB reads, the
 * Thread ID field of R0.6, the accesses-UAV coherency.
 */
#ifndef GTSIM_UNITS_VS_VS_H
#define GTSIM_UNITS_VS_VS_H

#include "fabric/unit.h"

extern const struct unit_ops vs_ops;

#define VS_INVOCATION_COUNT_OFFSET 0x2320u      /* seed 003 L1891; two dwords */

#endif
