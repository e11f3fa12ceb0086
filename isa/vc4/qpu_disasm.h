/* isa/vc4/qpu_disasm.h - VideoCore IV QPU disassembler and program-file reader.
 *
 * The text follows Mesa's vc4 disassembler (src/gallium/drivers/vc4/vc4_qpu_disasm.c) so
 * listings can be compared with the captures' .run.log files: mnemonic names, the ".mov"
 * forms (add "or a, a" and mul "v8min a, a" print as mov), pack/unpack/condition suffixes,
 * signals before the add op, small immediates and load immediates as Mesa prints them.
 * The names come from spec/vc4/qpu.txt (the `mesa` columns).
 */
#ifndef GTSIM_ISA_VC4_QPU_DISASM_H
#define GTSIM_ISA_VC4_QPU_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "isa/vc4/qpu_decode.h"

/* Writes the text of one instruction (no newline) into buf (always NUL-terminated when
 * size > 0); returns the length the full text has (like snprintf). */
size_t vc4_qpu_disasm(uint64_t word, char *buf, size_t size);

/* Reads a QPU program: either text where every line starting "0x" followed by exactly 16 hex
 * digits (then the end of the line or a blank) is one instruction word and other lines are
 * ignored (the captures' .run.log listings), or raw little-endian 64-bit words. *words is
 * malloc'd (free it). Returns 0, or -1 with err set (unreadable, no words, a raw file whose
 * size is not a multiple of 8). */
int vc4_load_qpu_file(const char *path, uint64_t **words, size_t *count, struct gt_error *err);

struct vc4_disasm_stats {
    unsigned instructions;
    unsigned illegal;   /* instructions with any vc4_illegal bit */
};

/* One line per word: [byte offset: ][0x<word> ]<text>[   ; illegal: names]. */
void vc4_qpu_disasm_words(const uint64_t *words, size_t count, FILE *out, bool offsets,
                          bool show_words, struct vc4_disasm_stats *stats);

#endif
