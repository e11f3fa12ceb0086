/* tools/cmd_disasm.c - `gtsim disasm --gen N FILE` (see cmd_disasm.h); the work is
 * done by eu_disasm_main() in units/eu/eu_disasm_cli.c. */
#include "tools/cmd_disasm.h"

#include <stdio.h>

#include "isa/intel/eu_isa.h"

int cmd_disasm(int argc, char **argv)
{
    return eu_disasm_main(argc, argv, stdout, stderr);
}
