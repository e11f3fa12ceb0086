/* tests/units/test_cs_identify.c - a command is recognised by its opcode bits
 * alone (issue 14 item 1): whatever its header DWord's other fields hold
 * (Gen7 3DSTATE_INDEX_BUFFER's Index Format and Cut Index Enable, MI_NOOP's
 * Identification Number, PIPE_CONTROL's length), the command streamer names
 * the same command.
 *
 * The opcode bits come from the PRMs' header layouts, written here rather than
 * read from the tables under test (notes/004-000-commands.md §1: MI commands
 * are Command Type 31:29 = 0 and MI Command Opcode 28:23; GFXPIPE commands
 * (3D, media, GPGPU, STATE_BASE_ADDRESS...) Command Type 31:29 = 3, SubType
 * 28:27, Opcode 26:24, Sub-Opcode 23:16; 2D commands Client 31:29 = 2 and
 * Opcode 28:22). Every other bit of DWord 0 is a field of the command (or
 * reserved) and is set at random.
 *
 * Two checks per generation of the spec data (spec/data, build/gen):
 *  - spec_find_command, the CS's decoder, finds the command for many random
 *    fillings of the non-opcode bits;
 *  - a command streamer of that generation, handed the command with random
 *    values in every named DWord-0 field but the opcode and DWord Length
 *    (which keeps the command's own length, so the ring stays in step), counts
 *    it under its own name and no command as unknown. */
#include "../test.h"

#include <stdio.h>
#include <string.h>

#include "fabric/sim.h"
#include "spec/spec.h"
#include "tests/support/probes.h"
#include "units/common/mmio.h"
#include "units/registry.h"

static const int gens[] = { 4, 7, 8, 9 };
#define N_GENS (sizeof gens / sizeof gens[0])

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;    /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* The opcode bits of a header DWord by its command type (above); 0 for a
 * type the PRMs give no commands of here. */
static uint32_t opcode_bits(uint32_t dw0)
{
    switch (dw0 >> 29) {
    case 0: return 0xFF800000u;     /* MI */
    case 2: return 0xFFC00000u;     /* 2D (blitter) */
    case 3: return 0xFFFF0000u;     /* GFXPIPE */
    default: return 0;
    }
}

static void test_decoder_ignores_header_fields(void)
{
    uint64_t rng = 0x1D5EED1D5EEDull;
    for (size_t gi = 0; gi < N_GENS; gi++) {
        const struct spec_gen *g = spec_gen_get(gens[gi]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        CU_ASSERT_TRUE(g->n_commands > 10);
        for (size_t i = 0; i < g->n_commands; i++) {
            const struct spec_element *e = &g->commands[i];
            uint32_t op = opcode_bits(e->match);
            CU_ASSERT_NOT_EQUAL(op, 0);
            for (int round = 0; round < 64; round++) {
                uint32_t dw[1] = { (e->match & op) | ((uint32_t)rng_next(&rng) & ~op) };
                const struct spec_element *found = spec_find_command(gens[gi], dw, 1);
                if (found != e) {
                    CU_FAIL("a command was not recognised by its opcode bits");
                    fprintf(stderr, "gen%d %s: dword 0x%08x decoded as %s\n", gens[gi],
                            e->name, dw[0], found ? found->name : "nothing");
                    break;
                }
            }
        }
    }
}

static bool is_opcode_field(const char *name)
{
    static const char *const names[] = {
        "Command Type", "Command SubType", "3D Command Opcode", "3D Command Sub Opcode",
        "MI Command Opcode", "Media Command Opcode", "Media Command Sub-Opcode",
        "Media Command Pipeline", "Pipeline", "SubOpcode", "SubOpcode A", "SubOpcode B",
        "Client", "Instruction Target/ Opcode",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* DWord 0 of e with random values in its named header fields. */
static uint32_t randomised_header(const struct spec_element *e, uint64_t *rng)
{
    uint32_t dw0 = e->match;
    if (e->has_length_field) {
        uint32_t min = e->length > e->bias ? e->length - e->bias : 0;
        dw0 |= min << e->len_start;
    }
    for (unsigned f = 0; f < e->n_fields; f++) {
        const struct spec_field *d = &e->fields[f];
        if (d->end >= 32 || d->type == SPEC_MBZ || d->type == SPEC_MBO ||
            is_opcode_field(d->name) || strcmp(d->name, "DWord Length") == 0)
            continue;
        uint32_t width = d->end - d->start + 1u;
        uint32_t mask = (width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u) << d->start;
        dw0 = (dw0 & ~mask) | ((uint32_t)rng_next(rng) & mask);
    }
    return dw0;
}

static void test_command_streamer_recognises_each_command(void)
{
    uint64_t rng = 0xC0FFEE15C0FFEEull;
    for (size_t gi = 0; gi < N_GENS; gi++) {
        const struct spec_gen *g = spec_gen_get(gens[gi]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        for (size_t i = 0; i < g->n_commands; i++) {
            const struct spec_element *e = &g->commands[i];
            uint32_t dw0 = randomised_header(e, &rng);
            uint32_t n = spec_command_length(e, &dw0);
            CU_ASSERT_TRUE_FATAL(n >= 1 && n < 4096);
            struct sim_options o = { .watchdog_cycles = 20000, .log_level = -1 };
            struct sim *sim = probe_sim(&o);
            probe_memory(sim);
            char gen[16];
            const char *over[] = { gen, "max_reports=0", NULL };
            snprintf(gen, sizeof gen, "gen=%d", gens[gi]);
            struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", over);
            /* the command and zeros for its body, handed over inline as the
             * legacy AUB captures hand ring dwords (notes/aub-format.md §5.3) */
            struct msg *m = msg_alloc(sim, MSG_MMIO, (uint32_t)(sizeof(struct cs_mmio) + 4u * n));
            struct cs_mmio *c = (struct cs_mmio *)m->payload;
            c->op = CS_MMIO_RING_DATA;
            c->size = 4u * n;
            memset(c->data, 0, 4u * n);
            memcpy(c->data, &dw0, 4);
            CU_ASSERT_TRUE_FATAL(port_inject(unit_port(cs, "host", 0), m));
            struct gt_error err;
            CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
            sim_run(sim, 0);
            char stat[200];
            snprintf(stat, sizeof stat, "cs.by_command.%s", e->name);
            double seen = probe_stat(sim, stat);
            if (seen != 1 || probe_stat(sim, "cs.unknown_commands") != 0) {
                CU_FAIL("the command streamer did not recognise a command");
                fprintf(stderr, "gen%d %s with header 0x%08x: %s = %g\n", gens[gi], e->name,
                        dw0, stat, seen);
            }
            sim_destroy(sim);
        }
    }
}

static const struct test_case cases[] = {
    { "decoder ignores header fields", test_decoder_ignores_header_fields },
    { "command streamer recognises each command", test_command_streamer_recognises_each_command },
    { 0 }
};

TEST_SUITE(cs_identify, cases);
