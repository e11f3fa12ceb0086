/* tools/cmd_disasm.c - the `gtsim disasm` command (see cmd_disasm.h): argument
 * parsing and output around the disassembler of isa/intel/eu_isa.h. gtsim calls
 * cmd_disasm(); the tests call eu_disasm_main() with their own streams. */
#include "tools/cmd_disasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"
#include "isa/vc4/qpu_disasm.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gtsim disasm --gen N [--offsets] FILE\n"
               "       gtsim disasm --isa vc4 [--offsets] [--words] FILE\n"
               "  Disassemble an EU kernel. N = 4 (965G), 7 (Ivy Bridge/Bay Trail),\n"
               "  8 (Broadwell) or 9 (Skylake). FILE holds raw instruction bytes or the\n"
               "  hex text intel-gen4asm writes. --offsets prefixes each line with its\n"
               "  byte offset.\n"
               "  --isa vc4: a VideoCore IV QPU program, as lines \"0x<16 hex digits> ...\"\n"
               "  (the captures' .run.log listings; other lines are ignored) or raw\n"
               "  little-endian 64-bit words; the text is Mesa's vc4 disassembly.\n"
               "  --words prefixes each line with its instruction word. --isa intel is\n"
               "  the default.\n");
}

static int vc4_disasm_file(const char *path, bool offsets, bool words, FILE *out, FILE *errf)
{
    struct gt_error err = { { 0 } };
    uint64_t *program;
    size_t count;
    if (vc4_load_qpu_file(path, &program, &count, &err) != 0) {
        fprintf(errf, "gtsim disasm: %s\n", err.message);
        return 2;
    }
    struct vc4_disasm_stats st;
    vc4_qpu_disasm_words(program, count, out, offsets, words, &st);
    free(program);
    if (st.illegal) {
        fprintf(errf, "gtsim disasm: %s: %u illegal instruction(s)\n", path, st.illegal);
        return 1;
    }
    return 0;
}

int eu_disasm_main(int argc, char **argv, FILE *out, FILE *errf)
{
    int gen = 0;
    bool offsets = false, vc4 = false, words = false;
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
        } else if (strcmp(a, "--words") == 0) {
            words = true;
        } else if (strcmp(a, "--isa") == 0) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "vc4") && strcmp(argv[i + 1], "intel"))) {
                fprintf(errf, "gtsim disasm: --isa needs 'intel' or 'vc4'\n");
                return 2;
            }
            vc4 = strcmp(argv[++i], "vc4") == 0;
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
    if (vc4 && path)
        return vc4_disasm_file(path, offsets, words, out, errf);
    if (vc4) {
        fprintf(errf, "gtsim disasm: FILE is required (try --help)\n");
        return 2;
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
