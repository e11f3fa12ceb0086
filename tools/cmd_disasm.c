/* tools/cmd_disasm.c - the `gtsim disasm` command (see cmd_disasm.h): argument
 * parsing and output around the disassembler of isa/intel/eu_isa.h. gtsim calls
 * cmd_disasm(); the tests call eu_disasm_main() with their own streams. */
#include "tools/cmd_disasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gtsim disasm --gen N [--offsets] FILE\n"
               "  Disassemble an EU kernel. N = 4 (965G), 7 (Ivy Bridge/Bay Trail),\n"
               "  8 (Broadwell) or 9 (Skylake). FILE holds raw instruction bytes or the\n"
               "  hex text intel-gen4asm writes. --offsets prefixes each line with its\n"
               "  byte offset.\n");
}

int eu_disasm_main(int argc, char **argv, FILE *out, FILE *errf)
{
    int gen = 0;
    bool offsets = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(out);
            return 0;
        } else if (strcmp(a, "--gen") == 0 || strcmp(a, "-g") == 0) {
            if (i + 1 >= argc) {
                fprintf(errf, "gtsim disasm: --gen needs a value (4, 7, 8 or 9)\n");
                return 2;
            }
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || eu_gen_index((int)v) < 0) {
                fprintf(errf, "gtsim disasm: unsupported generation '%s' (expected 4, 7, 8 or 9)\n",
                        argv[i]);
                return 2;
            }
            gen = (int)v;
        } else if (strcmp(a, "--offsets") == 0) {
            offsets = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(errf, "gtsim disasm: unknown option '%s' (try --help)\n", a);
            return 2;
        } else if (path) {
            fprintf(errf, "gtsim disasm: more than one FILE given ('%s' and '%s')\n", path, a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!gen || !path) {
        fprintf(errf, "gtsim disasm: %s is required (try --help)\n", !gen ? "--gen N" : "FILE");
        return 2;
    }
    struct gt_error err = { { 0 } };
    uint8_t *bytes;
    size_t len;
    if (eu_load_kernel_file(path, &bytes, &len, &err) != 0) {
        fprintf(errf, "gtsim disasm: %s\n", err.message);
        return 2;
    }
    struct eu_disasm_stats st;
    eu_disasm_buffer(gen, bytes, len, out, offsets, &st);
    free(bytes);
    if (st.illegal || st.truncated) {
        fprintf(errf, "gtsim disasm: %s: %u illegal instruction(s)%s\n", path, st.illegal,
                st.truncated ? ", truncated at the end" : "");
        return 1;
    }
    return 0;
}

int cmd_disasm(int argc, char **argv)
{
    return eu_disasm_main(argc, argv, stdout, stderr);
}
