/* units/cs_alu/cs_alu.h - the command streamer's ALU, the engine behind MI_MATH.
 *
 * Models seed 003 L1321-1528 ("CS ALU Programming and Design"): sixteen 64-bit
 * general purpose registers R0..R15 (CS_GPR), two 64-bit ALU inputs SRCA and
 * SRCB, a 64-bit accumulator ACCU and the zero and carry flags ZF and CF; and
 * seed 004 L20912-20933 (MI_MATH): the ALU instructions are the payload dwords
 * of MI_MATH, whose 8-bit DWord Length (= n - 1 for n instructions) allows 1 to
 * 256 of them, and "The ALU processes any instruction in a single clock".
 *
 * Two layers:
 *  1. A pure function library (cs_alu_execute and friends): the architectural
 *     state and the effect of one ALU instruction dword. No timing, no fabric.
 *  2. The unit kind "cs_alu" (cs_alu_ops): the command streamer hands it the
 *     GPRs and the instructions of one MI_MATH on port "request" and gets the
 *     GPRs and flags back on port "response".
 *
 * Instruction dword (seed 003 L1354-1358, L1467-1475): bits 31:20 ALU opcode,
 * bits 19:10 operand 1, bits 9:0 operand 2. Opcodes (L1449-1462): NOOP 0x000,
 * LOAD 0x080, LOADINV 0x480, LOAD0 0x081, LOAD1 0x481, ADD 0x100, SUB 0x101,
 * AND 0x102, OR 0x103, XOR 0x104, STORE 0x180, STOREINV 0x580. Registers
 * (L1492-1524): R0..R15 0x00..0x0f, SRCA 0x20, SRCB 0x21, ACCU 0x31, ZF 0x32,
 * CF 0x33.
 *
 * Semantics, each tied to the seed (and, where it is silent, public facts):
 *  - LOAD op1, op2: op1 (SRCA|SRCB) = GPR op2; LOADINV loads ~GPR (L1360-1380).
 *  - LOAD0 / LOAD1: op1 = all zeros / all ones (L1362 "a hard coded value of
 *    all Zeros and All ones"; L1376 says "Loads "1"", read as the all-ones
 *    value, as public drivers emit LOAD1 for an immediate of ~0).
 *  - ADD/SUB/AND/OR/XOR: ACCU = SRCA op SRCB; ZF = (ACCU == 0) ("Zero Flag and
 *    Carry Flag are set based on accumulator output", L1323). CF: ADD = carry
 *    out of bit 63; SUB = borrow (SRCA < SRCB, unsigned), the convention public
 *    drivers rely on to compute "less than" from SUB + STORE CF; AND/OR/XOR
 *    clear CF. SRCA and SRCB keep their values.
 *  - NOOP does nothing (L1398 "meant for creating bubble or kill cycles").
 *  - STORE op1, op2: GPR op1 = ACCU|ZF|CF; a flag is replicated on all 64 bits
 *    (L1414 "the same value is replicated on all 64 bits"); STOREINV stores the
 *    bitwise inverse (L1414-1431).
 *  - Operands marked N/A (L1403-1410, L1434-1444) are ignored.
 * Reserved encodings (the seed says nothing of them; DESIGN.md "Errors": a
 * counted, deterministic outcome): an opcode outside the twelve, or a LOAD* /
 * STORE* operand outside what the seed's tables allow (LOAD op1 SRCA/SRCB and
 * op2 R0..R15; STORE op1 R0..R15 and op2 ACCU/ZF/CF), executes as NOOP and is
 * counted (CS_ALU_RESERVED).
 *
 * The ALU's own registers (SRCA, SRCB, ACCU, ZF, CF) persist from one MI_MATH
 * to the next; reset clears them. The GPRs travel with each request: the CS
 * owns them (they are its MMIO registers) and hands their current values over.
 *
 * Ports: "request" in (struct cs_alu_request), "response" out (struct
 * cs_alu_response). Both MSG_GENERIC; the response carries the request's tag.
 * Params: cycles_per_instruction (default 1, 1..64).
 * Timing: one request at a time. A request taken on cycle T is answered on
 * cycle T + 1 + n * cycles_per_instruction (one cycle to take the GPRs, then
 * the instructions); the next request may be taken on the cycle the response
 * leaves. A full response channel holds the answer (back-pressure).
 * Stats: requests, instructions, reserved_instructions, malformed_requests,
 * busy_cycles, and per-class counts (loads, alu_ops, stores, noops).
 * Not modelled: the MMIO path to the GPRs (the CS's business), MI_PREDICATE's
 * use of the GPRs, any instruction beyond the twelve of the seed.
 */
#ifndef GTSIM_UNITS_CS_ALU_H
#define GTSIM_UNITS_CS_ALU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/unit.h"

/* ---- encodings (seed 003 L1449-1524) ------------------------------------- */

enum cs_alu_opcode {
    CS_ALU_OP_NOOP = 0x000,
    CS_ALU_OP_LOAD = 0x080,
    CS_ALU_OP_LOADINV = 0x480,
    CS_ALU_OP_LOAD0 = 0x081,
    CS_ALU_OP_LOAD1 = 0x481,
    CS_ALU_OP_ADD = 0x100,
    CS_ALU_OP_SUB = 0x101,
    CS_ALU_OP_AND = 0x102,
    CS_ALU_OP_OR = 0x103,
    CS_ALU_OP_XOR = 0x104,
    CS_ALU_OP_STORE = 0x180,
    CS_ALU_OP_STOREINV = 0x580,
};

enum cs_alu_register {
    CS_ALU_REG_R0 = 0x00,       /* .. R15 = 0x0f */
    CS_ALU_REG_R15 = 0x0f,
    CS_ALU_REG_SRCA = 0x20,
    CS_ALU_REG_SRCB = 0x21,
    CS_ALU_REG_ACCU = 0x31,
    CS_ALU_REG_ZF = 0x32,
    CS_ALU_REG_CF = 0x33,
};

#define CS_ALU_GPRS 16
/* MI_MATH DWord Length is bits 7:0 and excludes DWords 0 and 1 (seed 004
 * L20924-20926): at most 255 + 1 = 256 ALU instructions per command. */
#define CS_ALU_MAX_INSTRUCTIONS 256

/* One instruction dword (seed 003 L1467-1475). */
static inline uint32_t cs_alu_instruction(uint32_t opcode, uint32_t operand1, uint32_t operand2)
{
    return (opcode & 0xfffu) << 20 | (operand1 & 0x3ffu) << 10 | (operand2 & 0x3ffu);
}

/* ---- the pure function library ------------------------------------------ */

struct cs_alu_regs {
    uint64_t gpr[CS_ALU_GPRS];  /* R0..R15 */
    uint64_t srca, srcb, accu;
    bool zf, cf;
};

/* What one instruction did, for the counters. */
enum cs_alu_class {
    CS_ALU_NOOP = 0,
    CS_ALU_LOADED,          /* LOAD, LOADINV, LOAD0, LOAD1 */
    CS_ALU_COMPUTED,        /* ADD, SUB, AND, OR, XOR */
    CS_ALU_STORED,          /* STORE, STOREINV */
    CS_ALU_RESERVED,        /* a reserved encoding, executed as NOOP */
};

/* Executes one ALU instruction dword on `r`. */
enum cs_alu_class cs_alu_execute(struct cs_alu_regs *r, uint32_t instruction);

/* Printable names: "ADD", "SRCA", "R7"; NULL for an encoding the seed does not list. */
const char *cs_alu_opcode_name(uint32_t opcode);
const char *cs_alu_register_name(uint32_t reg);

/* ---- the messages --------------------------------------------------------- */

/* Port "request" (MSG_GENERIC, tag = the sender's, echoed in the response).
 * The payload may stop after instruction[count - 1]: a sender sets the
 * message size to cs_alu_request_size(count). */
struct cs_alu_request {
    uint64_t gpr[CS_ALU_GPRS];  /* R0..R15 as the CS holds them now */
    uint32_t count;             /* ALU instructions: MI_MATH DWord Length + 1 (1..256) */
    uint32_t flags;             /* MBZ */
    uint32_t instruction[CS_ALU_MAX_INSTRUCTIONS];  /* MI_MATH DWords 1..count */
};

static inline uint32_t cs_alu_request_size(uint32_t count)
{
    return (uint32_t)(offsetof(struct cs_alu_request, instruction) + 4u * count);
}

/* Bits of cs_alu_response.flags. */
#define CS_ALU_FLAG_ZF 0x1u
#define CS_ALU_FLAG_CF 0x2u

/* Port "response" (MSG_GENERIC, tag = the request's, size = sizeof). */
struct cs_alu_response {
    uint64_t gpr[CS_ALU_GPRS];  /* R0..R15 after the last instruction */
    uint64_t accu, srca, srcb;  /* the ALU's registers after it (for checking) */
    uint32_t flags;             /* CS_ALU_FLAG_ZF | CS_ALU_FLAG_CF */
    uint32_t executed;          /* instructions executed (count, clamped) */
    uint32_t reserved;          /* of which reserved encodings (ran as NOOP) */
    uint32_t malformed;         /* 1 when the request was malformed (count > 256,
                                   or the payload shorter than count needs) */
};

/* Takes a request payload of `size` bytes: how many instructions it really
 * carries (count clamped to 256 and to the payload), and whether it was
 * malformed. A payload too short for the GPRs gives 0 and malformed. */
uint32_t cs_alu_request_count(const void *payload, uint32_t size, bool *malformed);

/* ---- the engine: the unit's behaviour without the fabric ------------------ */

/* The unit's state and timing as plain data, shared by the unit and by the
 * co-simulation adapters (rtl-cosim/), which run it beside the RTL. */
struct cs_alu_engine {
    uint32_t cycles_per_instruction;
    struct cs_alu_regs regs;
    bool busy;                      /* holding a request or its response */
    uint64_t due;                   /* first cycle the response may leave */
    uint32_t tag;
    struct cs_alu_response response;
    /* counters */
    uint64_t requests, instructions, reserved, malformed;
    uint64_t loads, alu_ops, stores, noops, busy_cycles;
};

/* Architectural reset: every register and flag 0; counters kept. */
void cs_alu_engine_reset(struct cs_alu_engine *e);

/* Takes a request on `cycle`: executes it and sets the response and `due`. */
void cs_alu_engine_accept(struct cs_alu_engine *e, const void *payload, uint32_t size,
                          uint32_t tag, uint64_t cycle);

/* ---- the unit -------------------------------------------------------------- */

extern const struct unit_ops cs_alu_ops;

#endif
