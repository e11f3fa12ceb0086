/* units/vc4_host/vc4_host.h - the host side of a VideoCore IV machine: plays a "vc4 job" file,
 * the simplest honest workload for user programs: it lays memory out and drives the V3D user
 * program registers as a host driver does (GPU_FFT's gpu_fft_base.c writes V3D_SRQUA, V3D_SRQUL
 * and V3D_SRQPC per program, then polls V3D_SRQCS for the completion count; seed 002 Tables
 * 65-68).
 *
 * The job file (text, one command a line; `#` starts a comment; numbers decimal or 0x hex;
 * PATHs relative to the job file's folder):
 *   words ADDRESS W0 W1 ...    32-bit little-endian words into memory at ADDRESS
 *   fill ADDRESS BYTES VALUE   BYTES/4 words of VALUE
 *   hex32 ADDRESS PATH         every 0x-prefixed token of a text file (C-array text such as
 *                              GPU_FFT's shader .hex; `//` comments skipped) as 32-bit words
 *   binary ADDRESS PATH        a file's bytes
 *   reg OFFSET VALUE           a V3D register write (offset from the V3D base, Table 48)
 *   run PC UNIFORMS COUNT      V3D_SRQUA = UNIFORMS, V3D_SRQUL = COUNT, V3D_SRQPC = PC
 *   wait                       hold until every program requested so far has completed
 *   expect ADDRESS W0 W1 ...   memory must hold these words now (matches and mismatches are
 *                              counted; a mismatch is logged)
 * Memory commands are applied through the backdoor when the job reaches them (functional, no
 * time); register writes go to the V3D unit as MSG_MMIO in order; `wait` sends CS_MMIO_SYNC and
 * waits for its answer.
 *
 * Or a vc4 submit dump (FILE.vc4dump[.gz], recognised by its VC4DUMP1 header; the format of
 * ../shared/traces/ext/app/vc4_submit_dump.c): every submit is validated and relocated as the
 * Linux vc4 kernel does, its render control list generated (units/vc4_host/vc4_submit.h), its
 * buffers written to memory, and the binning (CT0) and rendering (CT1) threads started with
 * CTnCA then CTnEA writes; a wait follows each submit.
 *
 * Param: workload (the job file or dump; empty: nothing to do). A malformed file, or a submit
 * the kernel would refuse, is a realize error naming file:line or the record and byte.
 * Ports: "v3d" out (MSG_MMIO), "v3d_reply" in (MSG_MMIO: CS_MMIO_SYNC_DONE).
 * Stats: commands, memory_bytes, register_writes, waits, expect_matches, expect_mismatches;
 * for dumps submits, bin_list_bytes, render_list_bytes, shader_records, texture_samples.
 * Not modelled: the ARM side itself (memory commands take no simulated time; no mailbox, no
 * kernel interrupts or seqnos for dumps), V3D interrupts to the host (a
 * `wait` is a sync the V3D unit answers, not an interrupt).
 */
#ifndef GTSIM_UNITS_VC4_HOST_H
#define GTSIM_UNITS_VC4_HOST_H

#include "fabric/unit.h"

extern const struct unit_ops vc4_host_ops;

#endif
