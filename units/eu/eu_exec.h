/* units/eu/eu_exec.h - functional execution of Gen4 and Gen7/8/9 EU instructions, one
 * hardware thread at a time (the timing lives in units/eu/eu_schedule.c).
 *
 * Models (seed 003 = SKL PRM vol 7, line numbers in the seed):
 *  - the per-thread register files: 128 GRF of 32 bytes (L19451); the ARF
 *    registers null, a0, acc0/acc1 (+acc2..9 as storage), f0/f1, ce, sr0, cr0,
 *    ip, n0, tdr0, tm0 (overview L19469-19486);
 *  - regions: <VertStride;Width,HorzStride> channel addressing (L20362-20380),
 *    Align16 swizzles and destination write masks, register-indirect 1x1, Vx1
 *    and VxH through a0 (L20308-20708); immediates of every type including the
 *    V, UV and VF vectors (VF decode table L21345-21371);
 *  - source modifiers, saturate, conditional modifiers and the flag equations
 *    (L20846-20895, cmpn L21397-21403), predication with sequential, any/all
 *    horizontal and vertical forms (L20752-20836), execution masks and the
 *    Evaluate-Write-Enable rule (L23850-23884);
 *  - per-channel flow control with a per-channel IP (PcIP, L20955) and the
 *    Gen6+ JIP/UIP branch fields; the per-instruction JIP/UIP semantics are a
 *    gap in the seed (notes/003-skl-sharedfn-eu.md §14.4) and follow the
 *    layout Mesa's emitter produces (see eu_exec_flow.c);
 *  - float modes from cr0.0 (L20019-20065): rounding mode, single/double/half
 *    denormal flush or keep, min/max NaN rules (L21702-21739), float to
 *    integer saturation (L21657-21693), ALT mode for F (INF results become
 *    fmax; log, rsq and sqrt take abs() of their source, L21473-21511);
 *  - the in-EU math functions (L24065-24295) with the INT DIV sign table
 *    (L24244);
 *  - SEND/SENDC/SENDS: the instruction is turned into a request (descriptors,
 *    payload registers) for the unit to route; EOT ends the thread (L24296-24416).
 *  - Gen4 (965G; its EU volume is not a seed, reference/eu/ and Mesa fill
 *    the gap): the message registers m0..m15 (COMPR4 included), sechalf and
 *    compressed SIMD16, the implicit accumulator of arithmetic instructions,
 *    IF/IFF/ELSE/ENDIF/WHILE/BREAK/CONT with their jump counts (the mask stack
 *    by its effect, see eu_exec_flow.c exec_flow4), SEND with the implied move of a
 *    GRF src0 to the base MRF and the payload from the MRF
 *    (eu_send_payload_reg). The EU unit (eu_schedule.c) must copy payloads through
 *    eu_send_payload_reg and accept gen 4 dispatches to run Gen4 threads.
 *  - the instructions seed 004 gives pseudocode for: smov (immediate channel
 *    mask), movi (indexed move through a0.0-a0.7), sad2/sada2 (2-tuple SAD
 *    into the accumulator), brd/brc (branch diverging/converging), call/calla/
 *    ret per channel with the CallMask, mach (src1's high word times src0
 *    accumulated into the 64-bit accumulator; Gen4-7 with the sources'
 *    roles reversed, 003 L21114), madm (fma) and invm/rsqrtm (the INV/RSQ
 *    approximation; invm a, b approximates 1/b) as the fdiv/sqrt macros of
 *    003 L24255-24290 use them.
 *  - exceptions and the System Routine (003 L20019-20065 cr0, L22130-22200):
 *    an illegal instruction (Illegal Opcode Exception Enable, cr0.1[12]) or a
 *    write setting cr0.1[29] (Software Exception Enable, cr0.1[13]) saves
 *    AIP in cr0.2 (IP, or the next IP for a software exception), sets the
 *    status bit and cr0.0[31], and moves the thread to the SIP; a write
 *    clearing cr0.0[31] returns to AIP; writing 1 there has no effect.
 *    Exceptions are not nested: one raised inside the System Routine is
 *    latched in cr0.1 and, for an illegal instruction, ends the thread. With
 *    the exception disabled or no SIP programmed, an illegal instruction sets
 *    cr0.1[28] and AIP and ends the thread, counted (the seed leaves the
 *    outcome undefined: "undetermined behavior including a system hang").
 * Not modelled: Gen4 msave/mrest/push/pop and mask-stack overflow, the
 * breakpoint, halt and context save/restore exceptions, Vector Mask Enable
 * and Single Program Flow from the dispatch, IEEE exception flags other than
 * Divide-by-zero; wait (no n0
 * notifications: it does not block; a counted nop); the 2 extra exponent bits
 * madm/invm/rsqrtm carry in acc2-acc9 (003 L24251: "34 bits for single
 * precision"; the seed does not lay out how an operand selects its acc nor
 * the bit format): madm is an fma in the operand type, so the macros are
 * exact except where intermediate values leave the type's exponent range;
 * the math .eo early-out flag.
 */
#ifndef GTSIM_UNITS_EU_EXEC_H
#define GTSIM_UNITS_EU_EXEC_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa/intel/eu_isa.h"

#define EU_GRF_COUNT 128
#define EU_REG_BYTES 32
#define EU_GRF_BYTES (EU_GRF_COUNT * EU_REG_BYTES)
#define EU_MAX_CHANNELS 32
#define EU_MRF_COUNT 16

/* ARF storage, one 32-byte slot each (acc0 and acc1 adjacent so a SIMD16
 * float accumulator region runs from one into the other). */
enum eu_arf_slot {
    EU_ARF_NULL, EU_ARF_A0, EU_ARF_ACC0, EU_ARF_ACC1, EU_ARF_ACC2, EU_ARF_ACC3,
    EU_ARF_ACC4, EU_ARF_ACC5, EU_ARF_ACC6, EU_ARF_ACC7, EU_ARF_ACC8, EU_ARF_ACC9,
    EU_ARF_F0, EU_ARF_F1, EU_ARF_CE, EU_ARF_SP, EU_ARF_SR0, EU_ARF_CR0, EU_ARF_N0,
    EU_ARF_IP, EU_ARF_TDR0, EU_ARF_TM0, EU_ARF_COUNT
};

/* What happened to the thread when it executed one instruction. */
enum eu_step_result {
    EU_STEP_OK = 0,         /* executed; ip moved on */
    EU_STEP_SEND,           /* a send: *send filled; ip moved on */
    EU_STEP_END,            /* a send with EOT: *send filled; the thread is over */
    EU_STEP_FAULT,          /* illegal instruction / unmodelled opcode: thread ended */
};

/* A SEND as the unit must issue it: the payload registers and the descriptors
 * (003 L24296-24416). */
struct eu_send_request {
    uint8_t sfid;
    bool eot, sendc, split;
    uint32_t desc, ex_desc;
    uint8_t mlen, rlen, ex_mlen;
    bool header_present;
    uint8_t src_reg;            /* first payload GRF */
    uint8_t src1_reg;           /* sends: first GRF of the second part */
    uint8_t dst_reg;            /* first writeback GRF */
    bool dst_null;              /* destination is the null register */
    uint8_t exec_size;
    uint32_t exec_mask;         /* channels enabled (WrEn) */
    bool from_mrf;              /* Gen4: the payload is m[src_reg ..] (eu_send_payload_reg) */
    uint8_t wb_dword_mask;      /* Gen4 math: the reply's channels written (0: whole registers) */
    uint8_t wb_dword_first;     /* ... from this dword of dst_reg on (the dst subregister) */
};

/* Counters the execution keeps per thread; the unit sums them. */
struct eu_exec_counts {
    uint64_t instructions;
    uint64_t illegal;           /* illegal opcodes/fields, unmodelled opcodes */
    uint64_t register_faults;   /* accesses outside the register file (discarded/zero) */
    uint64_t divide_by_zero;
    uint64_t unmodelled;        /* wait runs as a nop (a warning) */
    uint64_t exceptions;        /* entries into the System Routine */
};

struct eu_thread {
    int gen;
    uint64_t inst_base;         /* Instruction Base Address: ip is relative to it */
    uint32_t ip;
    uint32_t dmask;             /* dispatch mask (sr0.2) */
    uint32_t amask;             /* channels whose PcIP equals ip */
    uint32_t wmask;             /* channels waiting at pcip[] */
    uint32_t pcip[EU_MAX_CHANNELS];
    int64_t acc_wide[EU_MAX_CHANNELS];  /* integer accumulator, 64-bit (003 L19692-19702) */
    uint32_t call_depth;
    uint32_t call_mask;         /* channels inside the current subroutine (004 call/ret) */
    struct eu_exec_counts counts;
    const char *fault_reason;
    uint64_t sip;               /* System Routine, GPU virtual (eu_thread_set_system) */
    bool sip_valid;
    alignas(32) uint8_t grf[EU_GRF_BYTES];
    alignas(32) uint8_t mrf[EU_MRF_COUNT * EU_REG_BYTES];  /* Gen4 message registers m0..m15 */
    alignas(32) uint8_t arf[EU_ARF_COUNT][EU_REG_BYTES];
};

/* A fresh thread: registers zero, cr0 at reset (RTNE, denormals flushed,
 * IEEE mode), all dispatched channels active at ip. */
void eu_thread_init(struct eu_thread *t, int gen, uint64_t inst_base, uint32_t ip, uint32_t dmask);

/* What the dispatcher loads besides the payload (units/common/thread_msg.h struct
 * eu_dispatch): cr0.0 and cr0.1 (only their defined dispatch-time bits are
 * taken: cr0.0 FP mode 0 and rounding 5:4, cr0.1 enables 12 and 13) and the
 * System Routine's address. */
void eu_thread_set_system(struct eu_thread *t, uint32_t cr0_0, uint32_t cr0_1, bool sip_valid,
                          uint64_t sip);

/* Register r (0 .. mlen + ex_mlen - 1) of a SEND's payload: GRF registers on
 * Gen7+, the message registers from the base MRF on Gen4 (where a GRF src0 was
 * first copied to the base MRF, the implied move). NULL outside the file. */
const uint8_t *eu_send_payload_reg(const struct eu_thread *t, const struct eu_send_request *rq,
                                   unsigned r);

/* Executes one decoded instruction, which must be the one at t->ip. cycle is
 * the current cycle (tm0 reads it). */
enum eu_step_result eu_exec(struct eu_thread *t, const struct eu_instruction *in,
                            struct eu_send_request *send, uint64_t cycle);

/* A pre-checked form of the commonest instructions, prepared once at decode
 * and executed without the general operand machinery: mov/add/mul/mad on F,
 * mov/add/mul/and/or/xor on D/UD, and cmp on F or D/UD, with direct contiguous
 * or scalar GRF operands or immediates, no source modifiers, no saturate, no
 * predication. Results are identical to eu_exec's (tested). */
struct eu_fast {
    uint8_t op;                 /* 0: not eligible */
    bool integer;               /* D/UD operation */
    uint8_t sign;               /* integer: bit i = source i is D (signed) */
    uint8_t cond;               /* cmp: the conditional modifier */
    uint8_t flag_bit;           /* cmp: first flag bit (f0.0 = 0 ... f1.1 = 48) */
    bool dst_null;
    uint8_t nch, nsrc, off;
    bool nomask;
    uint8_t scalar;             /* bit i: source i is a scalar (register or immediate) */
    uint8_t immediate;          /* bit i: source i is an immediate */
    uint16_t dst;               /* GRF byte offsets */
    uint16_t src[3];
    uint32_t imm[3];
    uint8_t size;               /* instruction bytes */
    uint8_t vec;                /* float SIMD8/16 mov, add, mul, mad: 1..4 (whole-register form,
                                 * set only on hosts with AVX2 and FMA) */
};
void eu_fast_prepare(const struct eu_instruction *in, struct eu_fast *f);
/* Executes a prepared instruction; false when the thread's state needs the
 * general path (a cr0 rounding mode other than RTNE, or ALT mode), in which
 * case nothing was done. */
bool eu_exec_fast(struct eu_thread *t, const struct eu_fast *f);

/* Channels waiting at the thread's ip become active (per-channel IPs, L20955). */
static inline void eu_rejoin(struct eu_thread *t)
{
    uint32_t w = t->wmask;
    while (w) {
        unsigned ch = (unsigned)__builtin_ctz(w);
        w &= w - 1;
        if (t->pcip[ch] == t->ip) {
            t->amask |= 1u << ch;
            t->wmask &= ~(1u << ch);
        }
    }
}

/* Register access helpers for tests, payload loading and writeback. */
static inline uint32_t eu_grf_ud(const struct eu_thread *t, unsigned reg, unsigned dw)
{
    const uint8_t *p = t->grf + reg * EU_REG_BYTES + dw * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void eu_grf_set_ud(struct eu_thread *t, unsigned reg, unsigned dw, uint32_t v)
{
    uint8_t *p = t->grf + reg * EU_REG_BYTES + dw * 4;
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
uint32_t eu_flag_get(const struct eu_thread *t, unsigned reg);     /* f0 or f1, 32 bits */
void eu_flag_set(struct eu_thread *t, unsigned reg, uint32_t v);

/* The pipe an instruction occupies and its class for latency (timing model). */
enum eu_pipe { EU_PIPE_FPU = 0, EU_PIPE_EM = 1, EU_PIPE_SEND = 2, EU_PIPE_BRANCH = 3 };
enum eu_pipe eu_insn_pipe(const struct eu_instruction *in);
/* Cycles the instruction occupies its pipe: 4 32-bit channels per cycle (003
 * L19171 "SIMD4 still executes in 2 cycles" read as a 4-wide 32-bit datapath,
 * notes §11.1), 2 for 64-bit types. */
unsigned eu_insn_occupancy(const struct eu_instruction *in);
/* Scoreboard classes: whether the instruction reads f0/f1 (predication; sel
 * always), whether it writes them (a conditional modifier, but on sel, csel,
 * send and math), and the registers its destination writes past its region
 * (math intdivmod: the remainder in the next one). */
bool eu_insn_reads_flags(const struct eu_instruction *in);
bool eu_insn_writes_flags(const struct eu_instruction *in);
unsigned eu_insn_extra_dst_regs(const struct eu_instruction *in);

#endif
