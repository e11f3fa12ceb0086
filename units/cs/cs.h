/* units/cs/cs.h - the render command streamer (RCS).
 *
 * Models: submission by legacy ring (Gen4/Gen7: ring registers RING_HEAD/TAIL/
 * START/CTL at 0x2030-0x203C, or ring dwords handed over inline as Mesa's AUB
 * captures do, notes/aub-format.md §5.3-5.4) and by execlists (Gen8/Gen9:
 * four writes to ELSP 0x2230 submit a context descriptor; the context image
 * at LRCA + 4 KiB is a list of MI_LOAD_REGISTER_IMM that restores RING_* and
 * the PPGTT root PDP0, notes/aub-format.md §4.3-4.4, seed 003 L1835-1866);
 * the ring, first- and second-level batch buffers with chaining and the
 * privilege bit (004 L19372-19588, notes/004-000-commands.md §2.4-2.5); the MI
 * commands the seeds define for the render engine (register loads and stores,
 * data stores, MI_PREDICATE and MI_SET_PREDICATE, MI_CONDITIONAL_BATCH_BUFFER_END,
 * flushes, arbitration, user interrupts, MI_MATH through the CS ALU), PIPE_CONTROL
 * post-sync writes (immediate, timestamp), PIPELINE_SELECT and
 * STATE_BASE_ADDRESS. A GPGPU_WALKER with Indirect Parameter Enable carries
 * GPGPU_DISPATCHDIMX/Y/Z (0x2500-0x2508) in its packet's dimension fields.
 * Every other command the spec tables know (3DSTATE_*,
 * 3DPRIMITIVE, MEDIA_*, GPGPU_*) is sent, in order, as a state packet naming
 * it by id (enum spec_id) with its superset struct (struct spec_<NAME>,
 * spec/README.md) down the pipeline the tables give it: "vf" for the 3D
 * pipeline, "vfe" for media/GPGPU (each stage takes its own state and passes
 * the rest on, so state stays ordered with the work behind it).
 *
 * Bad programming: a command no table knows is skipped by the length its
 * header encodes (MI: bits 5:0 + 2 for opcodes >= 0x10; GFXPIPE and BLT: bits
 * 7:0 + 2), counted and logged with its GPU address and dword; one whose
 * length does not decode, a fetch that faults, a batch nested too deep, or
 * a submission beyond `max_commands` stops the ring: the hang is counted and
 * reported, the engine goes idle and the host is told.
 *
 * Not modelled: command-fetch caching and prefetch (each command costs
 * ceil(dwords / dwords_per_cycle) cycles), preemption and context switches
 * between two contexts (one context at a time), the "User Mode Privileged
 * commands" table (absent from the seeds: LRI from non-privileged batches is
 * allowed), the resource streamer, semaphores; without "pipe_drained" linked,
 * waiting for the 3D pipeline to drain on a stalling PIPE_CONTROL (a CS Stall
 * then waits for the GPGPU front end only: below).
 *
 * A PIPE_CONTROL with Command Streamer Stall Enable sends CS_MMIO_SYNC down
 * "vfe" (after the PIPE_CONTROL's own packet) when "vfe_drained" is linked,
 * and parsing waits for the CS_MMIO_SYNC_DONE: the GPGPU threads before it
 * have ended (no host reply; counted in cs_stalls). A write of L3CNTLREG
 * (0x7034, Gen8/Gen9; by LRI, LRM, LRR or the host) goes to every L3 linked
 * to the open "l3" port as MSG_MMIO CS_MMIO_WRITE; parsing waits until each
 * has taken it.
 *
 * The 3D pipeline's registers (units/common/mmio.h), when "pipe_drained" is
 * linked: a write (LRI, LRM, LRR or the host) of a register a 3D stage owns
 * goes down "vf" as MSG_MMIO CS_MMIO_WRITE in order with the commands around
 * it, each dword its own write: the statistics counters (HS_INVOCATION_COUNT
 * 0x2300 .. PS_DEPTH_COUNT 0x2350, 64 bits), SO_NUM_PRIMS_WRITTEN0-3 (0x5200
 * + 8n), SO_PRIM_STORAGE_NEEDED0-3 (0x5240 + 8n), SO_WRITE_OFFSET0-3 (0x5280
 * + 4n), the 3DPRIM_* registers of indirect draws (0x2420-0x2444), INSTPM
 * (0x20C0) and CS_DEBUG_MODE2 (0x20D8, Gen9: Mesa's SKL batches set
 * CONSTANT_BUFFER Address Offset Disable there); INSTPM and CS_DEBUG_MODE2
 * are masked registers (bits 31:16 enable 15:0, reference genxml) and the
 * value sent is the one the register takes. The CS keeps its own copy. A
 * CS Stall and a host sync send CS_MMIO_SYNC down "vf" with struct
 * pipeline_registers (the CS's copies) and wait for CS_MMIO_SYNC_DONE on
 * "pipe_drained" (as well as for the GPGPU front end's reply when
 * "vfe_drained" is linked); the fields a stage wrote become the CS's copies,
 * which MI_STORE_REGISTER_MEM and MI_LOAD_REGISTER_REG read. The counters
 * then also appear in the CS's stats (pipe.<REGISTER>, as of the last sync,
 * with pipe.syncs, pipe.register_writes, pipe.malformed_replies; none of
 * these when the port is unlinked).
 *
 * Ports: "host" in (MSG_MMIO from the host: register writes, inline ring
 * dwords, sync requests), "host_reply" out (optional: sync replies),
 * "vf" out and "vfe" out (optional: MSG_STATE packets; a host sync also
 * goes down "vfe" as MSG_MMIO CS_MMIO_SYNC when "vfe_drained" is linked, and
 * the sync is replied to only when the front end answers CS_MMIO_SYNC_DONE on
 * "vfe_drained": its threads have ended), "alu" out and
 * "alu_reply" in (optional: MI_MATH through a separate ALU unit; without
 * them the CS runs the ALU itself), "l3"[n] out (optional: L3CNTLREG writes
 * to the slices' L3s), "pipe_drained" in (optional: the 3D pipeline's sync
 * replies, above; "vf" then carries MSG_MMIO too), "blt" out (optional,
 * Gen4: a 2D command (Client 2, notes/004-000-commands.md §1.8) in the render
 * ring goes, in order, to the blitter unit's "host" port as MSG_MMIO
 * CS_MMIO_RING_DATA holding that command; counted in blt_commands, a stat
 * present only when the port is bound. Not modelled: a sync or a stall
 * waiting for those blits to finish).
 */
/* Files: cs.c (the unit shell), cs_submission.c (rings, execlists, batches,
 * fetching), cs_mi.c (executing commands), cs_registers.c (registers); their
 * shared declarations are in cs_internal.h. */
#ifndef GTSIM_UNITS_CS_H
#define GTSIM_UNITS_CS_H

#include <stdint.h>

#include "fabric/unit.h"
#include "units/common/mmio.h"
#include "units/common/state_packet.h"

extern const struct unit_ops cs_ops;

struct gpu_address_space;

/* Backdoor for harnesses (the CLI's --dump, tests), not for other units: the
 * address space of the last context the CS executed (its PPGTT when it had
 * one, else the GGTT); NULL before any submission. */
struct gpu_address_space *cs_last_address_space(struct unit *u);

/* The messages it exchanges: units/common/mmio.h (MSG_MMIO with the host, the
 * front ends and the L3s), units/common/state_packet.h (MSG_STATE down "vf"
 * and "vfe"). */

#endif
