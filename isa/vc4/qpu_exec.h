/* isa/vc4/qpu_exec.h - VideoCore IV QPU: the architectural state of one thread and the
 * semantics of one instruction (seed 002, Sec 3 @70153..@93323; notes/002-videocore4.md §3).
 *
 * This is a library a QPU unit calls: it has no timing, no stalls and no knowledge of the
 * closely coupled hardware. Everything that leaves the QPU (I/O register reads and writes,
 * signals, semaphores) goes through `struct qpu_io` callbacks so the unit can turn them into
 * messages (units/common/vc4_io.h). Not modelled here (the unit's business): the TMU, SFU, VPM,
 * TLB and mutex behaviour behind those callbacks, stalls (the unit calls qpu_step only when the
 * instruction can issue), thread switching and the regfile address inversion of a second thread
 * (@56345, @58042), instruction restrictions that span instructions (@88994), and timing.
 *
 * Branch contract. qpu_step executes the instruction at state->pc (a byte address; 8 bytes per
 * instruction, as in Mesa's vc4 [ext]) and never changes pc. The caller then calls qpu_advance,
 * which moves pc to the next instruction; when a branch was taken it lets the three delay-slot
 * instructions run ("three 'delay slot' instructions following a branch instruction are always
 * executed", @84940) and jumps after the third. A unit may instead apply
 * qpu_step_result.branch_target itself after three more instructions.
 */
#ifndef GTSIM_ISA_VC4_QPU_EXEC_H
#define GTSIM_ISA_VC4_QPU_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/vc4/qpu_decode.h"

#define QPU_LANES 16          /* 16-way SIMD (@43385) */
#define QPU_REGFILE_SIZE 32   /* physical locations per regfile (@46922) */

struct qpu_state {
    uint32_t regfile_a[QPU_REGFILE_SIZE][QPU_LANES];
    uint32_t regfile_b[QPU_REGFILE_SIZE][QPU_LANES];
    uint32_t acc[6][QPU_LANES];    /* r0-r5; r4 is written only by the I/O side (@46922) */
    uint16_t flag_z, flag_n, flag_c;  /* bit i = element i (Table 2 @74529) */
    uint32_t pc;                   /* byte address of the instruction to execute */
    uint32_t uniform_address;      /* next uniform; +4 per UNIFORM_READ, set by UNIFORMS_ADDRESS */
    unsigned qpu_number;           /* read at raddr_b 38 (Table 14 @91738) */
    /* branch in flight (qpu_advance): instructions still to run before the jump */
    unsigned branch_delay;
    uint32_t branch_target;
};

/* The QPU's I/O side. Any callback may be NULL (reads then return 0; the rest is dropped). */
struct qpu_io {
    void *ctx;
    /* Read of I/O register raddr (32..63, not 38/39 and not an unmapped one: those are answered
     * here) from regfile space A or B, all 16 elements. For VARYING_READ (35) the callee also
     * fills c_coefficient, which lands in r5 after this instruction (@121213). state is the
     * state before the instruction (uniform_address is the address of this uniform). */
    void (*read)(void *ctx, const struct qpu_state *state, unsigned raddr, bool file_b,
                 uint32_t value[QPU_LANES], uint32_t c_coefficient[QPU_LANES]);
    /* Write to I/O register waddr (36, 38, 40..63) in space A or B; lanes = elements whose
     * condition passed (bit i = element i). */
    void (*write)(void *ctx, struct qpu_state *state, unsigned waddr, bool file_b,
                  const uint32_t value[QPU_LANES], uint16_t lanes);
    /* Signal of an ALU instruction (enum vc4_sig other than none/small immediate), after its
     * writes: r4 loads land in state->acc[4] for the next instruction (@75687). */
    void (*signal)(void *ctx, struct qpu_state *state, unsigned sig);
    /* Semaphore instruction (Fig 6 @83883): increment (sa 0) or decrement semaphore number. */
    void (*semaphore)(void *ctx, struct qpu_state *state, unsigned number, bool decrement);
};

struct qpu_step_result {
    bool branch_taken;        /* a branch instruction whose condition held */
    uint32_t branch_target;   /* byte address to continue at after the 3 delay slots */
    unsigned sig;             /* the instruction's signal (enum vc4_sig) */
    bool program_end;         /* sig 3 or 9: two more delay-slot instructions run (@56274) */
    bool thread_switch;       /* sig 2 or 6 */
};

/* All zero, elements numbered, pc 0. */
void qpu_state_init(struct qpu_state *state, unsigned qpu_number);

/* Execute one decoded instruction on state (see the branch contract above). */
struct qpu_step_result qpu_step(struct qpu_state *state, const struct vc4_qpu_instr *in,
                                const struct qpu_io *io);

/* Move pc past the instruction that produced result, applying a taken branch after its three
 * delay slots. */
void qpu_advance(struct qpu_state *state, const struct qpu_step_result *result);

/* Float helpers with the QPU's rules (exposed for the units: SFU, TMU, tests). Denormal inputs
 * and outputs are flushed to zero of the same sign (seed silent, notes §8; the VideoCore IV
 * flushes like other GPUs of its time [ext: Mesa vc4 and VC4C treat QPU floats as
 * flush-to-zero]). */
uint32_t qpu_float_flush(uint32_t bits);
uint32_t qpu_half_to_float(uint16_t half);
uint16_t qpu_float_to_half(uint32_t bits);

#endif
