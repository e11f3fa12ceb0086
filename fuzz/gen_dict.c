/* fuzz/gen_dict.c - writes a libFuzzer dictionary of command header dwords:
 * for every command of the generations named on the command line, its
 * header match bits (spec/data/genN.xml through the generated tables,
 * spec/spec.h) with the DWord Length of its fixed part, as 4 little-endian
 * bytes. Used by the CS batch and machine targets. */
#include <stdio.h>
#include <stdlib.h>

#include "spec/spec.h"

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const struct spec_gen *g = spec_gen_get(atoi(argv[a]));
        if (!g) {
            fprintf(stderr, "gen_dict: no generation %s\n", argv[a]);
            return 1;
        }
        for (size_t i = 0; i < g->n_commands; i++) {
            const struct spec_element *c = &g->commands[i];
            uint32_t header = c->match;
            if (c->has_length_field && c->length >= c->bias) {
                uint32_t field_mask = (uint32_t)(((uint64_t)1 << (c->len_end - c->len_start + 1)) - 1);
                header |= ((uint32_t)(c->length - c->bias) & field_mask) << c->len_start;
            }
            printf("# gen%d %s\n\"\\x%02X\\x%02X\\x%02X\\x%02X\"\n", g->gen, c->name, header & 0xFF,
                   header >> 8 & 0xFF, header >> 16 & 0xFF, header >> 24);
        }
    }
    return 0;
}
