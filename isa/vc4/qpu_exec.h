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
    /* The add and mul ALUs' datapath (struct qpu_alu_datapath below); NULL: qpu_alu_compute. */
    const struct qpu_alu_datapath *alu;
};

struct qpu_step_result {
    bool branch_taken;        /* a branch instruction whose condition held */
    uint32_t branch_target;   /* byte address to continue at after the 3 delay slots */
    unsigned sig;             /* the instruction's signal (enum vc4_sig) */
    bool program_end;         /* sig 3 or 9: two more delay-slot instructions run (@56274) */
    bool thread_switch;       /* sig 2 or 6 */
};

/* ---- the ALU datapath (rtl-cosim/rtl/qpu_alu.sv replaces it) ------------------------------
 * Everything of an ALU or load-immediate instruction between the register reads and the
 * register writes, for all 16 elements, element by element: the regfile-A unpack (pm=0,
 * float form when a float op consumes ra) and the r4 unpack (pm=1) of the operands, the add
 * ALU and the mul ALU, the regfile-A pack (pm=0) and the mul pack (pm=1), the write
 * conditions and the flags (sf: from the add ALU unless it is a nop, else the mul ALU).
 * The operands are those the muxes select (raw register values, the mul ones already
 * rotated; the unpacks happen here). A load immediate is op_add ADD (x, 0) and op_mul V8MIN
 * (x, x) with every mux R0: both give x with no carry, as its "mov" (@82668). */
struct qpu_alu_request {
    uint8_t op_add, op_mul;             /* enum vc4_add_op, vc4_mul_op */
    uint8_t add_a, add_b, mul_a, mul_b; /* enum vc4_mux of each operand: RA unpacks (pm=0), R4 (pm=1) */
    uint8_t pm, unpack, pack;
    uint8_t cond_add, cond_mul;         /* enum vc4_cond */
    bool sf;
    bool add_pack_a, mul_pack_a;        /* the write lands in a regfile-A location (< 32) */
    uint16_t flag_z, flag_n, flag_c;    /* before the instruction, bit i = element i */
    uint32_t add_operand[2][QPU_LANES], mul_operand[2][QPU_LANES];
    uint32_t add_old[QPU_LANES], mul_old[QPU_LANES];  /* the targets' contents (partial packs) */
};

struct qpu_alu_result {
    uint32_t add_value[QPU_LANES], mul_value[QPU_LANES];  /* packed */
    uint16_t add_lanes, mul_lanes;      /* elements written (active ALU, condition passed) */
    uint16_t flag_z, flag_n, flag_c;    /* after the instruction */
};

/* The C datapath. */
void qpu_alu_compute(const struct qpu_alu_request *rq, struct qpu_alu_result *out);

/* Another implementation of it (rtl-cosim's qpu:rtl / qpu:lockstep): compute must fill out
 * as qpu_alu_compute would. */
struct qpu_alu_datapath {
    void *context;
    void (*compute)(void *context, const struct qpu_alu_request *rq, struct qpu_alu_result *out);
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
