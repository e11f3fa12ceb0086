/* fuzz/fuzz_eu_decode.c - the EU decoder and disassembler (isa/intel): the
 * first byte picks the generation, the rest is instruction bytes decoded,
 * disassembled one by one and as a buffer, and compaction round-tripped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa/intel/eu_isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int gens[] = { 4, 7, 8, 9 };
    if (size < 1)
        return 0;
    int gen = gens[data[0] % (sizeof gens / sizeof gens[0])];
    if (eu_gen_index(gen) < 0)
        return 0;
    const uint8_t *p = data + 1;
    size_t len = size - 1;
    size_t at = 0;
    char text[512];
    while (at < len) {
        struct eu_instruction insn;
        size_t n = eu_decode(gen, p + at, len - at, &insn);
        if (n == 0)
            break;
        eu_disasm(&insn, text, sizeof text);
        eu_send_message_name(&insn);
        at += n;
    }
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint32_t compact[2], native[4];
        const char *reason = NULL;
        compact[0] = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
        compact[1] = (uint32_t)p[i + 4] | (uint32_t)p[i + 5] << 8 | (uint32_t)p[i + 6] << 16 | (uint32_t)p[i + 7] << 24;
        if (eu_uncompact(gen, compact, native, &reason) == 0)
            eu_compact(gen, native, compact);
    }
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    eu_disasm_buffer(gen, p, len, null, true, NULL);
    fclose(null);
    /* the same bytes as kernel-file hex text (intel-gen4asm's form) */
    uint8_t *bytes = NULL;
    size_t bytes_len = 0;
    struct gt_error err;
    if (eu_parse_hex_text((const char *)p, len, &bytes, &bytes_len, &err) == 0)
        free(bytes);
    return 0;
}
