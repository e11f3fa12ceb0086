/* fuzz/fuzz_qpu.c - the VideoCore IV QPU decoder and disassembler (isa/vc4):
 * every 64-bit little-endian word of the input is decoded and disassembled;
 * the whole input also goes through the QPU file loader. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"
#include "isa/vc4/qpu_decode.h"
#include "isa/vc4/qpu_disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t word = 0;
        for (unsigned b = 0; b < 8; b++)
            word |= (uint64_t)data[i + b] << (8 * b);
        struct vc4_qpu_instr in;
        vc4_qpu_decode(word, &in);
        vc4_qpu_writes_a(&in, false);
        vc4_qpu_writes_a(&in, true);
        for (unsigned e = 0; e < 16; e++)
            vc4_qpu_load_imm_element(&in, e);
        vc4_qpu_disasm(word, text, sizeof text);
    }
    char path[128];
    fuzz_write_temp(data, size, ".qpu", path, sizeof path);
    uint64_t *words = NULL;
    size_t count = 0;
    struct gt_error err;
    if (vc4_load_qpu_file(path, &words, &count, &err) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (!null)
            abort();
        vc4_qpu_disasm_words(words, count, null, true, true, NULL);
        fclose(null);
        free(words);
    }
    return 0;
}
