/* units/qpu/qpu.h - one VideoCore IV QPU (quad processor) running programs with
 * isa/vc4/qpu_exec, its register-mapped I/O turned into messages to the shared units.
 *
 * What it models (seed 002, notes/002-videocore4.md §2.5, §3.10-3.12, §7.1: one unit per
 * QPU, as the EU is per EU on the Intel side):
 *  - an instruction every `cycles_per_instruction` clocks ("instruction cycle time of four
 *    system clocks", @43385); fetches from memory at the program counter (8 bytes each);
 *  - the uniform stream: UNIFORM_READ pops the 32-bit word at the uniform pointer, which
 *    the scheduler sets at program start and UNIFORMS_ADDRESS rewrites (@62206, @63309);
 *    reads past the scheduler's uniforms length (<= 1023, V3D_SRQUL) are counted;
 *  - register-mapped I/O as MSG_QPU_IO (units/common/vc4_io.h), one port per shared
 *    function: "sfu" (SFU_RECIP..SFU_LOG, 52-55), "vpm" (VPM_WRITE, VPMVCD_*_SETUP,
 *    VPM_*_ADDR writes; VPM_READ, VPM_*_BUSY, VPM_*_WAIT reads, 48-50), "sync" (mutex
 *    acquire/release 51, the semaphore instruction of Fig 6 @83883), "tmu0"/"tmu1" (writes
 *    56-63 with the uniform each coordinate write pops, @96330, except a direct lookup that
 *    writes only s; load signals 10/11), and the program end and HOST_INT writes (38) on
 *    "done" to the scheduler. What comes back (MSG_QPU_RESULT on the function's "_result"
 *    input) arrives in request order per function (notes §7.2 item 5);
 *  - stalls at the SP stage (@68561): before an instruction issues, its I/O reads
 *    (VPM_READ, *_BUSY, *_WAIT, MUTEX_ACQUIRE) are requested and the QPU waits for their
 *    answers; a read of r4 waits for an outstanding SFU or TMU result; after a semaphore
 *    instruction the QPU waits for the grant; a full output channel holds the next issue;
 *  - program end (sig 3): two delay-slot instructions, then the QPU reports the end
 *    (QPU_IO_PROGRAM_END) and takes the next program on the next instruction cycle (@57429);
 *  - the restrictions of the "Summary of Instruction Restrictions" (@88994, notes §3.10)
 *    that span instructions, counted (and the first of each logged) as hardware misbehaviour
 *    a programmer needs to see, never a crash: a regfile read of a location written by the
 *    previous instruction (item 7), r4 read, or another r4 write, in the 2 instructions after
 *    an SFU write (item 8), a rotate right after a write of r5 or of the rotated accumulator
 *    (items 9, 10), a uniform read within 2 instructions of a UNIFORMS_ADDRESS write (item 14),
 *    uniform/VPM/varying access in the last three instructions, a regfile write by the Program
 *    End instruction and address 14 in them (items 1-3); the decoder's single-instruction
 *    checks (vc4_illegal) are counted too;
 *  - a watchdog: a program that executes more than `watchdog_instructions` instructions is
 *    ended and reported with QPU_PROGRAM_WATCHDOG (counted).
 * A read of r4 too soon after an SFU write gets the SFU's result (the QPU waits for it), not
 * the stale value hardware would give: the violation is counted instead.
 *
 * Addresses: memory is the machine's functional memory (sim_memory); `address_mask` is
 * applied to every bus address (BCM2835: bits 31:30 select the cache alias, so 0x3fffffff);
 * fetches or uniforms at or beyond `memory_bytes` are counted (fetch_faults ends the program;
 * a uniform reads 0).
 *
 * Ports: "start" in (QPU_IO_START from the scheduler); "done" out (QPU_IO_PROGRAM_END and
 * HOST_INT writes, struct qpu_program); "sfu", "vpm", "sync", "tmu0", "tmu1" out
 * (MSG_QPU_IO) and "sfu_result", "vpm_result", "sync_result", "tmu0_result", "tmu1_result" in
 * (MSG_QPU_RESULT), "tlb" out and "tlb_result" in (fragment shaders' FEP/TLB I/O, to v3d),
 * "l2" out / "l2_reply" in (cache fills, memreq.h), "control" in (MSG_MMIO SLCACTL). All
 * optional: I/O to an unbound function is counted (io_unbound) and
 * reads of it answer 0.
 *
 *  - fragment shaders (QPU_IO_START with kind QPU_KIND_FRAGMENT, struct qpu_fragment_start):
 *    W and Z written to regfile A/B 15 at start (Table 29); VARYING_READ (35, its C coefficient
 *    to r5), X/Y_PIXEL_COORD (41) and MS_FLAGS/REV_FLAG (42) are reads on "tlb" answered on
 *    "tlb_result" (the issue waits, stall.tlb); TLB_STENCIL_SETUP, TLB_Z, TLB_COLOUR_MS/ALL and
 *    TLB_ALPHA_MASK writes (43-47) go on "tlb"; Colour, Coverage and Alpha-mask Load signals
 *    (8, 9, 7, 12) wait for r4 from "tlb_result"; the scoreboard signals (4, 5) are passed on;
 *  - two-threaded fragment shaders (program.threaded): a second one may start while one runs
 *    (its thread number, program.thread, tags its requests and its end); a Thread Switch
 *    (sig 2, 6) stops the running thread after two more delay-slot instructions and the
 *    suspended one runs (notes §3.11, @56345); a thread's end lets the other run on; r4
 *    answers land in the thread that asked;
 *  - work by program kind (user, fragment, vertex, coordinate): programs.*, instructions.*,
 *    busy_cycles.* (QPU utilisation by shader kind).
 *  - the instruction cache (QIC: "one icache unit serves four QPUs in four successive clock
 *    cycles", @45709) and the uniforms cache (QUC: "A uniforms cache and small FIFO in the
 *    QPU", @62206), when "l2" is bound (with "l2_reply"): each is direct mapped in 64-byte
 *    lines, `icache_kb` and `uniforms_cache_kb` (the seed gives no sizes [chosen]). They are
 *    this QPU's share of the slice's caches: each QPU keeps its own [chosen: a unit reaches
 *    no other unit's state; QPUs of a slice running the same program each miss once, where
 *    the shared QIC would miss once for all]. A hit costs nothing (the QIC serves a QPU once
 *    in its four-clock instruction cycle); a miss sends the line to the L2C (units/vc4_l2,
 *    MSG_MEMORY_REQUEST, with the bus address' alias bits so that the uncached alias goes
 *    around it) and holds the issue until the reply: stall.icache for the instruction,
 *    stall.uniforms for the uniforms the instruction pops (UNIFORM_READ on raddr a/b, TMU
 *    writes). No prefetch (the seed describes none). V3D_SLCACTL writes on "control" with
 *    ICCS (3:0) or UCCS (11:8) bits clear the instruction or uniforms cache (Table 72).
 *    icache_hits/misses and uniforms_cache_hits/misses are performance counters 20-23.
 *    Unbound, fetches and uniforms have no miss time. The data always comes from memory at
 *    issue (the caches are timing only, as every cache here);
 * Not modelled: thread switches in programs that are not two-threaded
 * fragment shaders (counted in thread_switches_ignored: the program continues), the halved
 * regfiles of a threaded program (each thread keeps whole register state), TLB and varying
 * access outside fragment shaders (counted in unsupported_io), breakpoints (sig 0, counted), the
 * TMU_NOSWAP three-instruction rule (the flag is applied at once), the QPU's own pipeline
 * (results are written at issue).
 * The automatic TMU swap of QPUs 2 and 3 of a slice with two TMUs is applied (params
 * qpus_per_slice, tmus_per_slice) until the program writes TMU_NOSWAP (002 @97875).
 * QPU_NUMBER is the one the scheduler's start message gives (its port index), so one config
 * group with `count` serves every QPU.
 */
#ifndef GTSIM_UNITS_QPU_H
#define GTSIM_UNITS_QPU_H

#include "fabric/unit.h"

extern const struct unit_ops qpu_ops;

/* Harness access (rtl-cosim's qpu:rtl / qpu:lockstep): the add and mul ALUs' datapath of
 * every instruction goes through `datapath` (isa/vc4/qpu_exec.h struct qpu_alu_datapath;
 * kept across resets; NULL: qpu_alu_compute). -1 when u is not a qpu. */
struct qpu_alu_datapath;
int qpu_set_alu_datapath(struct unit *u, const struct qpu_alu_datapath *datapath);

#endif
