/* fuzz/fuzz_eu_fast.c - the EU's fast path (units/eu/eu_fast.c) against the
 * general executor (eu_exec) on one instruction: whatever the fast path
 * prepares must give the same registers, flags and instruction pointer as
 * the general path on the same thread state. Input: byte 0 the generation
 * (Gen7, Gen8, Gen9), then 16 instruction bytes (a compacted one uses its
 * first 8), cr0.0, f0, f1 and the dispatch mask (4 bytes each), then the
 * register file's first bytes (the rest zero). A difference aborts, with
 * the instruction and the first register that differs. A NaN result may
 * carry either operand's payload (the host's choice); any NaN matches. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"
#include "units/eu/eu_exec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER (1 + 16 + 4 * 4)

static uint32_t word_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool is_nan_bits(uint32_t v)
{
    return (v & 0x7f800000u) == 0x7f800000u && (v & 0x007fffffu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int gens[] = { 7, 8, 9 };
    if (size < HEADER)
        return 0;
    int gen = gens[data[0] % 3];
    struct eu_instruction in;
    if (eu_decode(gen, data + 1, 16, &in) == 0)
        return 0;
    struct eu_fast f;
    eu_fast_prepare(&in, &f);
    if (!f.op)
        return 0;
    const uint8_t *p = data + 17;
    uint32_t cr0 = word_at(p), f0 = word_at(p + 4), f1 = word_at(p + 8), dmask = word_at(p + 12);
    struct eu_thread *general = calloc(1, sizeof *general), *fast = calloc(1, sizeof *fast);
    struct eu_thread *start = calloc(1, sizeof *start);     /* for the report */
    if (!general || !fast || !start)
        abort();
    eu_thread_init(general, gen, 0, 0, dmask | 1);
    size_t grf = size - HEADER < EU_GRF_BYTES ? size - HEADER : EU_GRF_BYTES;
    memcpy(general->grf, data + HEADER, grf);
    memcpy(general->arf[EU_ARF_CR0], &cr0, 4);
    eu_flag_set(general, 0, f0);
    eu_flag_set(general, 1, f1);
    memcpy(fast, general, sizeof *fast);
    memcpy(start, general, sizeof *start);
    struct eu_send_request request;
    enum eu_step_result r = eu_exec(general, &in, &request, 0);
    if (eu_exec_fast(fast, &f)) {
        char text[512];
        eu_disasm(&in, text, sizeof text);
        if (r != EU_STEP_OK || general->counts.register_faults || general->counts.illegal) {
            fprintf(stderr, "fuzz_eu_fast: the fast path ran `%s`, which the general path "
                    "did not execute cleanly (result %d)\n", text, (int)r);
            abort();
        }
        for (unsigned k = 0; k < EU_GRF_BYTES / 4; k++) {
            uint32_t x = eu_grf_ud(general, k / 8, k % 8), y = eu_grf_ud(fast, k / 8, k % 8);
            if (x != y && !(!f.integer && is_nan_bits(x) && is_nan_bits(y))) {
                fprintf(stderr, "fuzz_eu_fast: `%s` (gen %d, fast: dst byte %u, sources %u %u %u, "
                        "%u channels from %u, cr0.0 %08x): r%u.%u is 0x%08x on the general path, "
                        "0x%08x on the fast path\n  r%u before / general / fast:", text, gen, f.dst,
                        f.src[0], f.src[1], f.src[2], f.nch, f.off, cr0, k / 8, k % 8, x, y, k / 8);
                for (unsigned w = 0; w < 8; w++)
                    fprintf(stderr, " %08x/%08x/%08x", eu_grf_ud(start, k / 8, w),
                            eu_grf_ud(general, k / 8, w), eu_grf_ud(fast, k / 8, w));
                fprintf(stderr, "\n");
                abort();
            }
        }
        if (eu_flag_get(general, 0) != eu_flag_get(fast, 0) ||
            eu_flag_get(general, 1) != eu_flag_get(fast, 1) || general->ip != fast->ip ||
            general->amask != fast->amask || general->wmask != fast->wmask ||
            general->counts.instructions != fast->counts.instructions) {
            fprintf(stderr, "fuzz_eu_fast: `%s` (gen %d): flags, ip, masks or counts differ "
                    "(f0 %08x/%08x f1 %08x/%08x ip %u/%u)\n", text, gen,
                    eu_flag_get(general, 0), eu_flag_get(fast, 0), eu_flag_get(general, 1),
                    eu_flag_get(fast, 1), general->ip, fast->ip);
            abort();
        }
    }
    free(general);
    free(fast);
    free(start);
    return 0;
}
