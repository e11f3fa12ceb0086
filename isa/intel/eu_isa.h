/* isa/intel/eu_isa.h - decoding and disassembling Intel GPU EU instructions
 * (Gen4 = 965G, Gen7 = Ivy Bridge / ValleyView, Gen8 = Broadwell, Gen9 = Skylake).
 *
 * Every encoding fact comes from the spec tables in spec/eu/ (see spec/eu/README.md
 * for where each table comes from); the generated C tables are build/gen/eu_spec.h.
 * One decoder serves the EU model and the disassembler: an instruction is decoded
 * once into struct eu_instruction.
 *
 * Bad input never crashes: an opcode that the generation does not define (or a
 * reserved field value) gives a decoded instruction with `illegal` set and the
 * reason in `illegal_reason`; a buffer too short for the instruction gives 0 bytes
 * consumed.
 */
#ifndef GTSIM_ISA_INTEL_EU_ISA_H
#define GTSIM_ISA_INTEL_EU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eu_spec.h"
#include "msg_desc.h"
#include "fabric/error.h"

/* Register files as encoded in the 2-bit RegFile fields (spec/eu/opcodes.txt
 * [register-file]). */
enum eu_regfile { EU_FILE_ARF = 0, EU_FILE_GRF = 1, EU_FILE_MRF = 2, EU_FILE_IMM = 3 };

/* Canonical operand types (the hardware codes differ per generation and between
 * register and immediate operands: spec/eu/opcodes.txt [register-type]). */
enum eu_type {
    EU_TYPE_INVALID = 0,
    EU_TYPE_UD, EU_TYPE_D, EU_TYPE_UW, EU_TYPE_W, EU_TYPE_UB, EU_TYPE_B,
    EU_TYPE_DF, EU_TYPE_F, EU_TYPE_UQ, EU_TYPE_Q, EU_TYPE_HF,
    EU_TYPE_UV, EU_TYPE_VF, EU_TYPE_V,
    EU_TYPE_COUNT
};

struct eu_operand {
    bool present;
    uint8_t file;            /* enum eu_regfile */
    uint8_t type;            /* enum eu_type */
    uint8_t type_code;       /* the raw hardware code */
    uint8_t reg_nr;          /* direct: register number (ARF: type<<4 | number) */
    uint8_t subreg_nr;       /* direct: byte offset within the register */
    bool indirect;           /* register-indirect addressing through a0 */
    uint8_t addr_subreg_nr;  /* indirect: a0.N */
    int16_t addr_imm;        /* indirect: signed byte offset */
    uint8_t vstride;         /* source region (element counts); EU_VSTRIDE_VXH = VxH */
    uint8_t width;
    uint8_t hstride;         /* sources and (align1) destination */
    uint8_t swizzle[4];      /* align16 / 3-source: channel selects x,y,z,w (0..3) */
    uint8_t writemask;       /* align16 / 3-source destination channel enables */
    bool negate, abs;
    bool rep_ctrl;           /* 3-source: replicate scalar */
    uint64_t imm;            /* immediate value (32 or 64 bits) */
};
#define EU_VSTRIDE_VXH 0xff

struct eu_instruction {
    int gen;                 /* 4, 7, 8, 9 */
    uint32_t native[4];      /* the 128-bit native form (expanded when compacted) */
    bool compacted;          /* the input was the 64-bit compact form */
    unsigned size;           /* bytes consumed: 8 or 16 */

    bool illegal;            /* opcode not defined on this generation, or reserved field */
    const char *illegal_reason;

    uint8_t opcode;
    const char *mnemonic;    /* NULL when illegal */
    uint8_t nsrc;            /* number of register/immediate sources */
    bool has_dst;
    bool is_3src;            /* align16 3-source format */
    bool is_send;            /* send, sendc (and Gen9 sends, sendsc) */
    bool is_split_send;      /* Gen9 sends, sendsc */
    bool is_math;            /* Gen6+ math opcode */
    bool is_branch;          /* flow control with jump fields */

    uint8_t access_mode;     /* 0 align1, 1 align16 */
    uint8_t mask_control;    /* Gen4: 1 = nomask; Gen6+: 1 = WE_all */
    bool no_dd_clear, no_dd_check;
    uint8_t qtr_control;
    uint8_t nib_control;
    uint8_t thread_control;
    uint8_t pred_control;
    bool pred_inv;
    uint8_t exec_size;       /* channels: 1, 2, 4, 8, 16, 32 */
    uint8_t cond_modifier;   /* 0 when the field holds something else (send/math) */
    uint8_t math_function;   /* math opcode (Gen6+) */
    bool acc_wr_control;
    bool branch_control;
    bool saturate;
    bool debug_control;
    uint8_t flag_reg_nr, flag_subreg_nr;

    struct eu_operand dst;
    struct eu_operand src[3];

    /* send / sendc / sends / sendsc */
    uint8_t sfid;            /* shared-function id (Gen4: descriptor message target) */
    bool eot;
    uint32_t desc;           /* immediate message descriptor: gen4 the whole DWord 3
                              * (EOT and message target included); gen7+ the Desc
                              * field without EOT (native-fields.txt [send]) */
    bool desc_is_reg;        /* descriptor in a0.0 */
    uint32_t ex_desc;        /* extended descriptor as the PRM defines it (003
                              * L24378-24386): 31:16 function control, 9:6 ex_mlen
                              * (sends), 5 EOT, 3:0 SFID */
    bool ex_desc_is_reg;
    uint8_t ex_desc_addr_subreg;
    uint8_t mlen, rlen, ex_mlen;
    bool header_present;
    uint8_t base_mrf;        /* Gen4 send: first message register */

    /* flow control */
    bool has_jip, has_uip;
    int32_t jip, uip;        /* byte offsets relative to this instruction (Gen7+) */
    bool has_jump_count;     /* Gen4: jump count (in 128-bit instructions) and pop count */
    int32_t jump_count;
    uint8_t pop_count;
};

/* Generation number (4, 7, 8, 9) -> table index, or -1 if unsupported. */
int eu_gen_index(int gen);

/* Raw 128-bit field access by the spec tables; fields that do not exist on the
 * generation read 0 and ignore writes. */
uint64_t eu_field_get(int gen, enum eu_field f, const uint32_t native[4]);
void eu_field_set(int gen, enum eu_field f, uint32_t native[4], uint64_t value);

/* Size of the instruction starting at p (8 = compact, 16 = native), 0 when fewer
 * than that many bytes are available. Gen4 has no compact form. */
size_t eu_instruction_size(int gen, const uint8_t *p, size_t avail);

/* Compact <-> native (compaction-genN.txt). eu_uncompact returns 0, or -1 with
 * *reason set when the generation has no compaction or a reserved bit is set.
 * eu_compact returns 0 when the native instruction is representable compactly
 * (table search), -1 otherwise. */
int eu_uncompact(int gen, const uint32_t compact[2], uint32_t native[4], const char **reason);
int eu_compact(int gen, const uint32_t native[4], uint32_t compact[2]);

/* Decodes one instruction at p. Returns the bytes consumed (8 or 16), or 0 when
 * the buffer is too short or the generation is unsupported. */
size_t eu_decode(int gen, const uint8_t *p, size_t avail, struct eu_instruction *out);

/* Message descriptors (build/gen/msg_desc.h): a field of the immediate descriptor by
 * id (DESC_F_BINDING_TABLE, DESC_F_MSG_TYPE, DESC_F_GLOBAL_OFFSET ...) for the
 * instruction's shared function; false when the field does not exist there or the
 * descriptor is in a register. */
bool eu_send_desc_field(const struct eu_instruction *in, enum msg_desc_field f, uint32_t *value);
/* The message a send carries ("ld_lz", "render_target_write", "simd8_write", ...),
 * or NULL when unknown. */
const char *eu_send_message_name(const struct eu_instruction *in);

/* Names. */
const char *eu_type_name(enum eu_type t);
unsigned eu_type_size(enum eu_type t);

/* One line of disassembly (no newline), in a syntax close to intel-gen4disasm /
 * Mesa's. Returns the length written (truncated to n-1). */
int eu_disasm(const struct eu_instruction *insn, char *buf, size_t n);

struct eu_disasm_stats {
    unsigned instructions, compacted, illegal;
    bool truncated;          /* trailing bytes that do not make a whole instruction */
};

/* Disassembles a whole buffer, one instruction per line, each prefixed by its byte
 * offset when with_offsets. */
void eu_disasm_buffer(int gen, const uint8_t *p, size_t len, FILE *out, bool with_offsets,
                      struct eu_disasm_stats *stats);

/* Kernel files: raw binary, or the hex text intel-gen4asm writes
 * ("{ 0x..., 0x..., 0x..., 0x... }," per line; compact instructions as two words).
 * The caller frees *bytes. */
int eu_parse_hex_text(const char *text, size_t n, uint8_t **bytes, size_t *len,
                      struct gt_error *err);
int eu_load_kernel_file(const char *path, uint8_t **bytes, size_t *len, struct gt_error *err);

#endif
