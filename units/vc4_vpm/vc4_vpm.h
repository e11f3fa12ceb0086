/* units/vc4_vpm/vc4_vpm.h - the VideoCore IV vertex pipe memory (VPM) with its QPU access
 * (generic block read and write setups) and its DMA engines: VCD/VDR loads from memory into
 * the VPM and VDW stores from the VPM to memory (seed 002 Sec 7 @123648; notes §4.4).
 *
 * What it models:
 *  - the VPM: `size_kb` KB of 32-bit words, 16 words per row ("16 words wide", @125316); the
 *    QPU sees the first 64 rows (HW-2253: "User shaders cannot use all of the VPM", App A);
 *  - per QPU, the generic block write setup (VPMVCD_WR_SETUP with ID 0, Table 32) and up to two
 *    queued read setups (VPMVCD_RD_SETUP with ID 0, Table 33: "writes to the setup register will
 *    be ignored if the queue is full", @129589): horizontal or vertical, 8/16/32-bit, packed or
 *    laned, STRIDE added to ADDR after every vector (0 => 64), ADDR wrapping within its field
 *    (past Y = 63, @128959), NUM vectors per read setup (0 => 16). The ADDR encodings are those
 *    of Tables 32/33 (horizontal: Y[5:0] with B[1:0]/H[0] below it; vertical: {Y[5:4], X[3:0]}
 *    with B/H below). Laned: lane i takes byte B / half H of word X = i; packed: lane i takes
 *    byte i%4 (half i%2) of word 4B + i/4 (8H + i/2) (@126288). Sub-word reads are zero
 *    extended, sub-word writes change only their byte/half [chosen: the seed is silent];
 *  - VPM_READ answers after the read setup's latency ("minimum latency of three QPU
 *    instructions", @129589): at setup cycle + `read_setup_cycles` at the earliest; reads with
 *    no setup left ("early or extra reads return undefined", @129589) answer 0, counted;
 *  - VDW stores (VPMVCD_WR_SETUP ID 2 basic setup, Table 34, and ID 3 stride setup, Table 35;
 *    started by a write of VPM_ST_ADDR, element 0 = the memory address): UNITS rows of DEPTH
 *    elements (0 => 128), horizontal (row r = VPM words from {Y+r, X} on, or packed
 *    consecutively with BLOCKMODE) or vertical (row r = VPM column X+r from row Y down), 32-bit
 *    or the 16-bit half / 8-bit byte MODEW selects of each word; memory rows STRIDE bytes apart
 *    after their last byte (Table 35);
 *  - VDR loads (VPMVCD_RD_SETUP with bit 31 set, Table 36, and the extended pitch of Table 37,
 *    bits 31:28 = 9; started by a write of VPM_LD_ADDR): NROWS rows of ROWLEN elements
 *    (0 => 16) read from memory rows `pitch` apart (8 * 2^MPITCH bytes, or MPITCHB when
 *    MPITCH = 0), written to the VPM from {Y, X} = ADDRXY horizontally (row r at Y + r*VPITCH)
 *    or vertically (VERT = 1: memory row r into column X + r*VPITCH), 32/16/8-bit as MODEW;
 *  - DMA timing: one store and one load engine; "A new DMA load or store operation cannot be
 *    started until the previous one is complete, but load and store DMA can run concurrently"
 *    (@135316): a transfer starts when its engine is free and takes `dma_latency` cycles plus
 *    its bytes at `dma_bytes_per_cycle` (the seed gives no bandwidth; 8 bytes a clock is a
 *    64-bit AXI port [chosen]). VPM_LD_BUSY / VPM_ST_BUSY (raddr 49) answer 1 while the
 *    QPU's own load / store is in flight; VPM_LD_WAIT / VPM_ST_WAIT (raddr 50) answer when it
 *    is done (the QPU stalls meanwhile);
 *  - DMA through the L2C (units/vc4_l2) when "l2" is bound: a DMA becomes the 64-byte line
 *    pieces of its memory rows, VDR pieces as reads (cached in the L2C), VDW pieces as writes
 *    (SDRAM time only: the seed describes no L2C write path, notes @40407 [inferred]); the
 *    request carries the bus address' alias bits (31:30), so the uncached alias goes around
 *    the L2C. One DMA per engine at a time (@135316): the next one's pieces go out when the
 *    last reply of the previous one is back; the DMA is complete then (VPM_*_BUSY answer 1
 *    until then, VPM_*_WAIT answers are held, with any answer behind them). dma_cycles counts
 *    from a DMA's start to its last reply. dma_latency and dma_bytes_per_cycle are the
 *    timing when "l2" is not bound;
 *  - data is moved when the DMA starts (functional), its completion is timed;
 *  - the vertex pipeline's side (v3d's VCD and PTB/PSE on "vcd", answers on "vcd_result"):
 *    QPU_IO_VCD_WRITE writes a row (absolute, lanes of lane_mask), QPU_IO_VCD_READ answers a
 *    row, QPU_IO_VPM_SEGMENT moves a QPU's generic block accesses to rows from value[0] on
 *    ("Vertex-shader accesses are relocated automatically to the batch's allocated region",
 *    notes §7 item 10; a setup takes the segment in force when it is written) and is
 *    answered once the messages before it are in. Stats vcd_rows_written, vcd_rows_read,
 *    segments, vcd_bad_messages (rows beyond the VPM, unknown ops).
 * Bad input, counted and never fatal: DMA rows beyond `memory_mb` (skipped), reserved SIZE or
 * MODEW codes (treated as 32-bit), setups with no DMA ID, reads with no setup, messages of
 * another kind.
 *
 * Ports: "qpu"[n] in (MSG_QPU_IO: writes of 48-50 and reads of 48-50, an open array: one per
 * QPU), "result"[n] out (MSG_QPU_RESULT to the QPU of the same index), "l2" out / "l2_reply"
 * in (optional, bound together: MSG_MEMORY_REQUEST / RESPONSE to the L2C), "vcd" in and
 * "vcd_result" out (optional, the vertex pipeline: v3d).
 * Stats (besides the access counts): l2_line_requests, l2_hits, l2_stray_replies,
 * held_overflows.
 * Not modelled: the VPM allocator (v3d allocates the segments), the
 * user reservation V3D_VPMBASE (user programs address the VPM from row 0), the separate VCD
 * base addresses (the seed gives no format), the 2-entry write FIFO (writes take effect at
 * once), the AXI arbiter between the L2C and SDRAM (the L2C's SDRAM model stands for it),
 * VDR 16/8-bit VPITCH sub-word addends.
 */
#ifndef GTSIM_UNITS_VC4_VPM_H
#define GTSIM_UNITS_VC4_VPM_H

#include <stdint.h>

#include "fabric/unit.h"

/* Backdoor for tests: the VPM word at row y, column x (0 beyond the VPM). */
uint32_t vc4_vpm_peek(struct unit *u, unsigned y, unsigned x);

extern const struct unit_ops vc4_vpm_ops;

#endif
