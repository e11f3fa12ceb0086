/* tools/cmd_disasm.h - `gtsim disasm`: disassemble an EU kernel or a VC4 QPU program file. */
#ifndef GTSIM_TOOLS_CMD_DISASM_H
#define GTSIM_TOOLS_CMD_DISASM_H

/* argv[0] = "disasm". Usage: gtsim disasm --gen N [--offsets] FILE
 *                      or: gtsim disasm --isa vc4 [--offsets] [--words] FILE
 * FILE is raw kernel bytes or intel-gen4asm hex text. Prints one instruction per
 * line on stdout; errors as one line on stderr. Returns 0 on success, 1 when the
 * kernel has illegal or truncated instructions, 2 on a usage or file error. */
int cmd_disasm(int argc, char **argv);

/* The same with the output and error streams given (the tests use it). */
#include <stdio.h>
int eu_disasm_main(int argc, char **argv, FILE *out, FILE *err);

#endif
