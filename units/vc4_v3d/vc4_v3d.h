/* units/vc4_v3d/vc4_v3d.h - the VideoCore IV V3D control registers a host drives for user
 * programs, and the QPU scheduler (QPS) that runs them (seed 002 Sec 10 @178422, Tables 62-67,
 * 73, 74; notes/002-videocore4.md §4.6; Sec 3 @56979 for the scheduler).
 *
 * What it models:
 *  - the user program request queue: V3D_SRQUA (uniforms address, Table 66) and V3D_SRQUL
 *    (uniforms length, 11:0, Table 67: "> 1023 implies an unlimited uniforms stream") are
 *    latched; a write of V3D_SRQPC (Table 65) queues a request (pc, uniforms, length) in a FIFO
 *    "16 requests deep" (@193128); a request into a full queue sets QPURQERR and is dropped
 *    (counted); V3D_SRQCS (Table 68): QPURQL 5:0 queue length, QPURQERR 7, QPURQCM 15:8
 *    requests made, QPURQCC 23:16 requests completed (both mod 256; writing 1 to bit 8 / bit 16
 *    resets them, to bit 0 clears the queue, to bit 7 clears the error [chosen: the seed marks
 *    it as an error flag without a clear rule]);
 *  - V3D_SQRSV0/1 (Tables 62, 63): four bits per QPU, bit 0 "Do not use for User Programs";
 *  - V3D_DBQITE / V3D_DBQITC (Tables 74, 73): a QPU's HOST_INT write latches its bit in DBQITC
 *    (write 1 to clear); an interrupt to the host is counted when its DBQITE bit is set;
 *  - V3D_L2CACTL (Table 71) and V3D_SLCACTL (Table 72) are passed as CS_MMIO_WRITE on every
 *    bound "caches" port (the L2C, units/vc4_l2, and the TMUs act on them); V3D_DBCFG is kept
 *    (its fields are not modelled; GPU_FFT writes 0);
 *  - the scheduler: a queued user program starts on the lowest-numbered idle QPU that is not
 *    reserved against user programs, one start per cycle (the seed gives no order beyond the
 *    reservations [chosen]); the QPU reports its end, which counts in QPURQCC;
 *  - fragment shaders on the QPU units (param qpu_shading = 1, the default, when the "tlb" and
 *    "tlb_result" ports are linked; otherwise on the functional QPU of vc4_3d.h): the FEP's
 *    queued batches start oldest first on the lowest-numbered idle QPU whose SQRSV nibble does
 *    not have B[1] ("Do not use for Fragment Shaders", Tables 62, 63) with QPU_IO_START
 *    (struct qpu_fragment_start: the shader's code and uniforms, W and Z of its 16 pixels);
 *    user programs take an idle QPU first; a two-threaded shader (record flags bit 0 clear)
 *    takes an idle QPU, else joins a QPU running one such thread as its second thread
 *    (program.thread; "Threadable and non-threadable programs are never mixed on a QPU").
 *    The scoreboard (@111664) is a start gate: a batch
 *    waits while a running one covers any of its pixels (scoreboard_wait_cycles), which keeps
 *    every pixel's TLB accesses in primitive order. The QPU's varying, X/Y and MS/REV flag
 *    reads, TLB writes (43-46) and colour loads arrive on "tlb"[q] and are answered on
 *    "tlb_result"[q] (varyings with their C coefficient); a QPU's TLB messages are taken
 *    before its program end. If no linked QPU may take fragment shaders, a batch is shaded
 *    inside v3d (fragment_fallbacks), so a frame always ends;
 *  - coordinate and vertex shaders on the QPU units (params qpu_shading and
 *    vertex_qpu_shading = 1, the defaults, with "vpm"/"vpm_result" linked to the VPM unit's
 *    "vcd"/"vcd_result"; otherwise on the functional QPU of vc4_3d.h), as GL mode runs them
 *    (002 Sec 8 @144972: "VCM batch -> VPM space -> VCD fetch -> QPU shade -> PTB/PSE read";
 *    notes §2.4, §4.4, §7 item 10): before the CLE executes a primitive record (32/33 in the
 *    binning thread, 48/49 in the rendering thread) the record's vertices are collected, each
 *    once, into batches of up to 16 (the VCM; a record's vertices are shaded once per record
 *    [chosen: the seed gives no VCM cache size]); a batch takes a segment of VPM rows (first
 *    fit over vpm_rows, max(attribute rows, output rows)) and an idle QPU not reserved
 *    against its kind (SQRSV B[2] vertex, B[3] coordinate; batches go before fragment
 *    batches [chosen]); the VCD writes its attribute rows (one column per vertex, @138512;
 *    one VCD engine: vcd_latency + bytes / vcd_bytes_per_cycle), the QPU's VPM view is moved
 *    to the segment (QPU_IO_VPM_SEGMENT: "Vertex-shader accesses are relocated automatically
 *    to the batch's allocated region", notes §7 item 10), the shader starts (QPU_IO_START,
 *    kind coordinate or vertex) and at its end the PTB/PSE read the output rows back (Fig 11:
 *    8 rows; Fig 10: 3 or 4 + the varyings), the rows are freed and the QPU's view returns to
 *    row 0 before it takes another program. The thread waits meanwhile
 *    (bin/render_vertex_wait_cycles); a batch without VPM rows waits
 *    (vpm_allocation_wait_cycles: the VPM stall). If no QPU may take the kind, the vertices
 *    are shaded inside v3d (vertex_fallbacks);
 *  - V3D_BPOA / V3D_BPOS: the binner's overspill memory (vc4_3d.h), a BPOS write clears BMOOM;
 *  - the control list executor's two threads (binning CT0, rendering CT1) with CTnCS, CTnEA,
 *    CTnCA, BFC and RFC (units/vc4_v3d/vc4_cle.h): one control record per thread a cycle,
 *    read from memory functionally;
 *  - register reads are not carried by the host messages: the register values are stats
 *    (srqcs, dbqitc) and a host waits with CS_MMIO_SYNC, answered (CS_MMIO_SYNC_DONE) once
 *    every request made before it has completed and both control list threads have stopped,
 *    as a host polling QPURQCC, BFC and RFC does.
 *
 * Ports: "host" in (MSG_MMIO: CS_MMIO_WRITE of a V3D register offset, CS_MMIO_SYNC),
 * "host_reply" out (MSG_MMIO CS_MMIO_SYNC_DONE), "qpu"[n] out (QPU_IO_START to QPU n, an open
 * array indexed by QPU number), "qpu_done"[n] in (QPU_IO_PROGRAM_END and HOST_INT writes),
 * "caches"[n] out (optional, MSG_MMIO L2CACTL / SLCACTL writes; stats cache_control_writes,
 * cache_control_drops), "tlb"[n] in (MSG_QPU_IO from QPU n's fragment shader), "tlb_result"[n]
 * out (MSG_QPU_RESULT to it), "vpm" out (MSG_QPU_IO: QPU_IO_VCD_WRITE, QPU_IO_VPM_SEGMENT,
 * QPU_IO_VCD_READ to the VPM unit's "vcd") and "vpm_result" in (its answers). Stats of vertex
 * shading on the QPUs: vertex_dispatches, coordinate_dispatches, vertex_fallbacks,
 * bin_vertex_wait_cycles, render_vertex_wait_cycles, vpm_allocation_wait_cycles, vcd_cycles,
 * vcd_rows, vpm_rows_read. Stats of fragment shading on the QPUs: fragment_dispatches,
 * fragment_fallbacks, scoreboard_wait_cycles, fragment_queue_wait_cycles, fragment_queue_max,
 * tlb_bad_messages; overspill_taken and bpos for the binner's memory. QPU utilisation by
 * shader kind is in each QPU's stats (programs.*, instructions.*, busy_cycles.*).
 * Stats (control lists): bin_records, render_records, binning_flushes, frames, invalid_records,
 * wrong_list_records, semaphore_wait_cycles, cle_overflows, ct0cs, ct1cs, bfc, rfc.
 * The 3D pipeline the lists drive (PTB, setup, FEP, fragment shading, tile buffer) is
 * units/vc4_v3d/vc4_3d.h; its counters are this unit's stats too (primitives_in/binned/
 * culled/rejected/unclipped/clipped, tile_list_bytes/blocks, bin_out_of_memory, *_shader_runs,
 * vertices_fetched, tiles_rendered, fragments_shaded/written, depth_failed, tile_loads/stores,
 * pipe_bad_records, pipe_unsupported, multisample_ignored, index_faults), and the surfaces the
 * tile stores wrote are listed for --images (vc4_v3d_written_surfaces).
 * Not modelled: BPCA/BPCS reads, performance counters, SQCNTL limits, the VPM allocator's
 * VPACNTL limits and timeouts and the user reservation V3D_VPMBASE (3D segments may use any
 * VPM row), binning and rendering batches overlapping inside one record (a record waits for
 * all of its batches), the VCD's memory traffic through the L2 or the AXI arbiter (only its
 * time),
 * the scoreboard's hold at the first TLB access (a start gate instead), IDENT reads.
 */
#ifndef GTSIM_UNITS_VC4_V3D_H
#define GTSIM_UNITS_VC4_V3D_H

#include "fabric/unit.h"
#include "units/vc4_v3d/vc4_3d.h"

#define VC4_MAX_QPUS 16
#define VC4_USER_QUEUE_DEPTH 16

extern const struct unit_ops vc4_v3d_ops;

/* The colour surfaces the tile stores wrote (for --images); the unit must be a vc4_v3d */
uint32_t vc4_v3d_written_surfaces(struct unit *u, const struct vc4_written_surface **list);

#endif
