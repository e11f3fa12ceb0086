/* units/eu/eu_opcodes.h - EU opcodes, conditional modifiers and math functions
 * by name (spec/eu/opcodes.txt), for the EU's execution files (eu_exec*.c,
 * eu_fast.c): no opcode number appears in the code. */
#ifndef GTSIM_UNITS_EU_EU_OPCODES_H
#define GTSIM_UNITS_EU_EU_OPCODES_H

/* Opcodes (opcodes.txt [opcodes], the Gen7+ values; Gen4 shares them but for
 * the ones named OP_GEN4_*). */
enum {
    OP_MOV = 1, OP_SEL = 2, OP_MOVI = 3, OP_NOT = 4, OP_AND = 5, OP_OR = 6, OP_XOR = 7,
    OP_SHR = 8, OP_SHL = 9, OP_SMOV = 10, OP_ASR = 12, OP_CMP = 16, OP_CMPN = 17, OP_CSEL = 18,
    OP_F32TO16 = 19, OP_F16TO32 = 20, OP_BFREV = 23, OP_BFE = 24, OP_BFI1 = 25, OP_BFI2 = 26,
    OP_JMPI = 32, OP_BRD = 33, OP_IF = 34, OP_BRC = 35, OP_ELSE = 36, OP_ENDIF = 37,
    OP_WHILE = 39, OP_BREAK = 40, OP_CONT = 41, OP_HALT = 42, OP_CALLA = 43, OP_CALL = 44,
    OP_RET = 45, OP_GOTO = 46, OP_JOIN = 47, OP_WAIT = 48, OP_SEND = 49, OP_SENDC = 50,
    OP_SENDS = 51, OP_SENDSC = 52, OP_MATH = 56, OP_ADD = 64, OP_MUL = 65, OP_AVG = 66,
    OP_FRC = 67, OP_RNDU = 68, OP_RNDD = 69, OP_RNDE = 70, OP_RNDZ = 71, OP_MAC = 72,
    OP_MACH = 73, OP_LZD = 74, OP_FBH = 75, OP_FBL = 76, OP_CBIT = 77, OP_ADDC = 78,
    OP_SUBB = 79, OP_SAD2 = 80, OP_SADA2 = 81, OP_DP4 = 84, OP_DPH = 85, OP_DP3 = 86,
    OP_DP2 = 87, OP_LINE = 89, OP_PLN = 90, OP_MAD = 91, OP_LRP = 92, OP_MADM = 93,
    OP_NOP = 126,
    /* Gen4 only (opcodes.txt, gen4 rows): do, and the mask-stack operations */
    OP_GEN4_DO = 38, OP_GEN4_MSAVE = 44, OP_GEN4_MREST = 45, OP_GEN4_PUSH = 46, OP_GEN4_POP = 47,
};
#define EU_OPCODE_COUNT 128     /* the opcode field is 7 bits */

/* Conditional modifiers (opcodes.txt [cond-mod]; 003 L20846-20895). */
enum { CM_NONE, CM_Z, CM_NZ, CM_G, CM_GE, CM_L, CM_LE, CM_R, CM_O, CM_U };

/* Math functions (opcodes.txt [math-function]; 003 L24065-24295). */
enum { MF_INV = 1, MF_LOG, MF_EXP, MF_SQRT, MF_RSQ, MF_SIN, MF_COS, MF_FDIV = 9, MF_POW,
       MF_INTDIVMOD, MF_INTDIV, MF_INTMOD, MF_INVM, MF_RSQRTM };

#endif
