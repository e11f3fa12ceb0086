/* tests/spec/test_spec_pack.c - the generated pack/unpack of every command,
 * structure and register of every generation, driven by the field tables:
 * random in-range contents survive unpack -> pack -> unpack, every field
 * rejects a value one past its range, and spot values match the PRM. */
#include "../test.h"

#include "spec/spec.h"
#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int gens[] = { 4, 7, 8, 9 };

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: deterministic, seeded per test. */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static void put_bits(uint32_t *dw, unsigned start, unsigned end, uint64_t v)
{
    for (unsigned b = start; b <= end; b++) {
        uint32_t bit = 1u << (b % 32);
        if ((v >> (b - start)) & 1)
            dw[b / 32] |= bit;
        else
            dw[b / 32] &= ~bit;
    }
}

/* Random raw dwords: every field gets random bits, MBZ zero, MBO ones.  Only
 * bits some field covers are set, so pack must give the same dwords back. */
static void random_raw(const struct spec_element *e, uint32_t *dw, uint64_t *seed)
{
    memset(dw, 0, e->length * sizeof(uint32_t));
    for (unsigned i = 0; i < e->n_fields; i++) {
        const struct spec_field *f = &e->fields[i];
        if (f->type == SPEC_MBZ)
            continue;
        uint64_t v = f->type == SPEC_MBO ? ~0ULL : rng_next(seed);
        put_bits(dw, f->start, f->end, v);
    }
    /* MBZ wins over fields that overlap it in the reference (alternate views). */
    for (unsigned i = 0; i < e->n_fields; i++)
        if (e->fields[i].type == SPEC_MBZ)
            put_bits(dw, e->fields[i].start, e->fields[i].end, 0);
}

static unsigned checked_elements;

static void round_trip_all(const struct spec_element *t, size_t n, uint64_t *seed)
{
    for (size_t k = 0; k < n; k++) {
        const struct spec_element *e = &t[k];
        uint32_t *raw = calloc(e->length, sizeof(uint32_t));
        uint32_t *raw2 = calloc(e->length, sizeof(uint32_t));
        void *s1 = calloc(1, e->c_size), *s2 = calloc(1, e->c_size);
        for (int iter = 0; iter < 8; iter++) {
            random_raw(e, raw, seed);
            e->unpack(raw, s1);
            int rc = e->pack(raw2, s1);
            if (rc != 0 || memcmp(raw, raw2, e->length * sizeof(uint32_t)) != 0) {
                fprintf(stderr, "round trip: gen%d %s (rc %d)\n", e->gen, e->name, rc);
                CU_FAIL("raw -> unpack -> pack differs");
                break;
            }
            e->unpack(raw2, s2);
            if (memcmp(s1, s2, e->c_size) != 0) {
                fprintf(stderr, "round trip: gen%d %s struct\n", e->gen, e->name);
                CU_FAIL("unpack -> pack -> unpack differs");
                break;
            }
        }
        checked_elements++;
        free(raw); free(raw2); free(s1); free(s2);
    }
}

static void test_round_trip(void)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    checked_elements = 0;
    size_t total = 0;
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        const struct spec_gen *sg = spec_gen_get(gens[g]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sg);
        round_trip_all(sg->commands, sg->n_commands, &seed);
        round_trip_all(sg->structs, sg->n_structs, &seed);
        round_trip_all(sg->registers, sg->n_registers, &seed);
        total += sg->n_commands + sg->n_structs + sg->n_registers;
    }
    CU_ASSERT_EQUAL(checked_elements, total);
    CU_ASSERT(total > 400);
}

/* Writes v into the member described by f; returns 0 when the ctype cannot hold it. */
static int set_member(void *s, const struct spec_field *f, long double v)
{
    char *p = (char *)s + f->offset;
    switch (f->ctype) {
    case SPEC_C_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, sizeof x); return v <= 4294967295.0L; }
    case SPEC_C_U64: { uint64_t x = (uint64_t)v; memcpy(p, &x, sizeof x); return 1; }
    case SPEC_C_I32: { int32_t x = (int32_t)v; memcpy(p, &x, sizeof x); return v <= 2147483647.0L && v >= -2147483648.0L; }
    case SPEC_C_I64: { int64_t x = (int64_t)v; memcpy(p, &x, sizeof x); return 1; }
    case SPEC_C_DOUBLE: { double x = (double)v; memcpy(p, &x, sizeof x); return 1; }
    default: return 0;
    }
}

/* Value just past the field's range, and the largest value inside it. */
static int limits(const struct spec_field *f, long double *bad, long double *good)
{
    unsigned w = (unsigned)(f->end - f->start + 1);
    unsigned lo = f->start % 32;
    switch (f->type) {
    case SPEC_UINT:
        if (w >= 32 && f->ctype == SPEC_C_U32)
            return 0;
        if (w >= 64)
            return 0;
        *bad = ldexpl(1, (int)w);
        *good = *bad - 1;
        return 1;
    case SPEC_INT:
        if (w >= 32 && f->ctype == SPEC_C_I32)
            return 0;
        if (w >= 64)
            return 0;
        *bad = ldexpl(1, (int)w - 1);
        *good = -*bad;
        return 1;
    case SPEC_ADDRESS:
    case SPEC_OFFSET:
        if (lo + w >= 64)
            return 0;
        *bad = ldexpl(1, (int)(lo + w));
        *good = *bad - ldexpl(1, (int)lo);
        return 1;
    case SPEC_UFIXED:
        *bad = ldexpl(1, (int)w - f->frac);
        *good = *bad - ldexpl(1, -(int)f->frac);
        return 1;
    case SPEC_SFIXED:
        *bad = ldexpl(1, (int)w - 1 - f->frac);
        *good = -*bad;
        return 1;
    default:
        return 0;
    }
}

static void test_out_of_range(void)
{
    unsigned probed = 0;
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        const struct spec_gen *sg = spec_gen_get(gens[g]);
        const struct spec_element *tabs[3] = { sg->commands, sg->structs, sg->registers };
        size_t ns[3] = { sg->n_commands, sg->n_structs, sg->n_registers };
        for (int t = 0; t < 3; t++) {
            for (size_t k = 0; k < ns[t]; k++) {
                const struct spec_element *e = &tabs[t][k];
                uint32_t *dw = calloc(e->length, sizeof(uint32_t));
                void *s = calloc(1, e->c_size);
                for (unsigned i = 0; i < e->n_fields; i++) {
                    const struct spec_field *f = &e->fields[i];
                    long double bad, good;
                    if (f->ctype == SPEC_C_NONE || !limits(f, &bad, &good))
                        continue;
                    memset(dw, 0, e->length * sizeof(uint32_t));
                    e->unpack(dw, s);
                    if (!set_member(s, f, good))
                        continue;
                    int ok = e->pack(dw, s);
                    e->unpack(dw, s);
                    if (!set_member(s, f, bad))
                        continue;
                    int rej = e->pack(dw, s);
                    if (ok != 0 || rej != -1) {
                        fprintf(stderr, "range: gen%d %s.%s good %d bad %d\n", e->gen, e->name,
                                f->name, ok, rej);
                        CU_FAIL("field range not enforced");
                    }
                    if ((f->type == SPEC_ADDRESS || f->type == SPEC_OFFSET) && f->start % 32) {
                        /* misaligned address */
                        set_member(s, f, 1);
                        CU_ASSERT_EQUAL(e->pack(dw, s), -1);
                    }
                    probed++;
                }
                free(dw);
                free(s);
            }
        }
    }
    CU_ASSERT(probed > 3000);
}

/* Spot values: encodings quoted from the seeds and the trace decodes. */
static void test_known_encodings(void)
{
    uint32_t dw[16];

    /* seed 004:6631-6655: 3DSTATE_VF_STATISTICS is GFXPIPE 3h / 1h / 0h / 0Bh,
     * one dword, bit 0 Statistics Enable. */
    struct GEN8_3DSTATE_VF_STATISTICS vs = { GEN8_3DSTATE_VF_STATISTICS_header, .StatisticsEnable = true };
    CU_ASSERT_EQUAL(GEN8_3DSTATE_VF_STATISTICS_length, 1);
    CU_ASSERT_EQUAL(GEN8_3DSTATE_VF_STATISTICS_pack(dw, &vs), 0);
    CU_ASSERT_EQUAL(dw[0], (3u << 29) | (1u << 27) | (0u << 24) | (0x0bu << 16) | 1u);

    /* skl_tri.aubinator.txt: the first PIPE_CONTROL is 0x7a000004 0x00101021:
     * Depth Cache Flush, DC Flush, Render Target Cache Flush, CS Stall. */
    struct GEN9_PIPE_CONTROL pc = { GEN9_PIPE_CONTROL_header };
    pc.DepthCacheFlushEnable = true;
    pc.DCFlushEnable = true;
    pc.RenderTargetCacheFlushEnable = true;
    pc.CommandStreamerStallEnable = true;
    CU_ASSERT_EQUAL(GEN9_PIPE_CONTROL_pack(dw, &pc), 0);
    CU_ASSERT_EQUAL(dw[0], 0x7a000004u);
    CU_ASSERT_EQUAL(dw[1], 0x00101021u);
    CU_ASSERT_EQUAL(GEN9_PIPE_CONTROL_length, 6);

    /* seed 004:19372: MI_BATCH_BUFFER_START is MI opcode 31h, DWord Length 1;
     * skl_tri.aubinator.txt line 7: 0x18800101 = PPGTT, address in DW1-2. */
    struct GEN9_MI_BATCH_BUFFER_START bb = { GEN9_MI_BATCH_BUFFER_START_header };
    bb.AddressSpaceIndicator = 1;
    bb.BatchBufferStartAddress = 0xfffffffefffee000ULL;
    CU_ASSERT_EQUAL(GEN9_MI_BATCH_BUFFER_START_pack(dw, &bb), 0);
    CU_ASSERT_EQUAL(dw[0], 0x18800101u);
    CU_ASSERT_EQUAL(dw[1], 0xfffee000u);
    CU_ASSERT_EQUAL(dw[2], 0xfffffffeu);
    struct GEN9_MI_BATCH_BUFFER_START bb2;
    GEN9_MI_BATCH_BUFFER_START_unpack(dw, &bb2);
    CU_ASSERT_EQUAL(bb2.BatchBufferStartAddress, 0xfffffffefffee000ULL);
    bb.BatchBufferStartAddress |= 2;           /* not dword aligned */
    CU_ASSERT_EQUAL(GEN9_MI_BATCH_BUFFER_START_pack(dw, &bb), -1);

    /* g965_tri.aubinator.txt: MI_BATCH_BUFFER_START 0x18800000 0x00010000. */
    struct GEN4_MI_BATCH_BUFFER_START b4 = { GEN4_MI_BATCH_BUFFER_START_header,
                                             .BatchBufferStartAddress = 0x10000 };
    CU_ASSERT_EQUAL(GEN4_MI_BATCH_BUFFER_START_pack(dw, &b4), 0);
    CU_ASSERT_EQUAL(dw[0], 0x18800000u);
    CU_ASSERT_EQUAL(dw[1], 0x00010000u);

    /* seed 004:20498: MI_LOAD_REGISTER_IMM opcode 22h, DWord Length 1 -> 0x11000001. */
    struct GEN8_MI_LOAD_REGISTER_IMM lri = { GEN8_MI_LOAD_REGISTER_IMM_header,
                                             .RegisterOffset = 0x7034, .DataDWord = 0x60000121 };
    CU_ASSERT_EQUAL(GEN8_MI_LOAD_REGISTER_IMM_pack(dw, &lri), 0);
    CU_ASSERT_EQUAL(dw[0], 0x11000001u);
    CU_ASSERT_EQUAL(dw[1], 0x7034u);
    CU_ASSERT_EQUAL(dw[2], 0x60000121u);
    lri.RegisterOffset = 0x7035;               /* registers are dword aligned */
    CU_ASSERT_EQUAL(GEN8_MI_LOAD_REGISTER_IMM_pack(dw, &lri), -1);

    /* A 2-bit field rejects 4 (never truncated to 0). */
    struct GEN9_PIPE_CONTROL pc2 = { GEN9_PIPE_CONTROL_header, .PostSyncOperation = 4 };
    CU_ASSERT_EQUAL(GEN9_PIPE_CONTROL_pack(dw, &pc2), -1);
}

/* Signed, fixed-point and float fields, with values from the seed's formats. */
static void test_typed_fields(void)
{
    uint32_t dw[16];

    /* seed 004:1965-1998: Drawing Rectangle Origin X/Y are S15 (16-bit two's
     * complement) in DW3 15:0 and 31:16. */
    struct GEN8_3DSTATE_DRAWING_RECTANGLE dr = { GEN8_3DSTATE_DRAWING_RECTANGLE_header,
                                                 .DrawingRectangleOriginX = -1,
                                                 .DrawingRectangleOriginY = -32768 };
    CU_ASSERT_EQUAL(GEN8_3DSTATE_DRAWING_RECTANGLE_pack(dw, &dr), 0);
    CU_ASSERT_EQUAL(dw[3], 0x8000ffffu);
    struct GEN8_3DSTATE_DRAWING_RECTANGLE dr2;
    GEN8_3DSTATE_DRAWING_RECTANGLE_unpack(dw, &dr2);
    CU_ASSERT_EQUAL(dr2.DrawingRectangleOriginX, -1);
    CU_ASSERT_EQUAL(dr2.DrawingRectangleOriginY, -32768);
    dr.DrawingRectangleOriginX = 32767;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_DRAWING_RECTANGLE_pack(dw, &dr), 0);
    dr.DrawingRectangleOriginX = 32768;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_DRAWING_RECTANGLE_pack(dw, &dr), -1);
    dr.DrawingRectangleOriginX = -32769;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_DRAWING_RECTANGLE_pack(dw, &dr), -1);

    /* seed 004:4898: 8x Sample4 Y Offset is U0.4 in DW5 3:0, range [0,0.9375]. */
    struct GEN8_3DSTATE_SAMPLE_PATTERN sp = { GEN8_3DSTATE_SAMPLE_PATTERN_header,
                                              ._8xSample4YOffset = 0.9375 };
    CU_ASSERT_EQUAL(GEN8_3DSTATE_SAMPLE_PATTERN_pack(dw, &sp), 0);
    CU_ASSERT_EQUAL(dw[5] & 0xf, 15);
    sp._8xSample4YOffset = 0.5;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_SAMPLE_PATTERN_pack(dw, &sp), 0);
    CU_ASSERT_EQUAL(dw[5] & 0xf, 8);
    struct GEN8_3DSTATE_SAMPLE_PATTERN sp2;
    GEN8_3DSTATE_SAMPLE_PATTERN_unpack(dw, &sp2);
    CU_ASSERT_DOUBLE_EQUAL(sp2._8xSample4YOffset, 0.5, 0.0);
    sp._8xSample4YOffset = 1.0;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_SAMPLE_PATTERN_pack(dw, &sp), -1);
    sp._8xSample4YOffset = -0.0625;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_SAMPLE_PATTERN_pack(dw, &sp), -1);
    sp._8xSample4YOffset = NAN;
    CU_ASSERT_EQUAL(GEN8_3DSTATE_SAMPLE_PATTERN_pack(dw, &sp), -1);

    /* skl_tri.aubinator.txt (SF_CLIP_VIEWPORT 0): m00 32.0 is 0x42000000. */
    struct GEN9_SF_CLIP_VIEWPORT vp = { .ViewportMatrixElementM00 = 32.0f };
    CU_ASSERT_EQUAL(GEN9_SF_CLIP_VIEWPORT_pack(dw, &vp), 0);
    CU_ASSERT_EQUAL(dw[0], 0x42000000u);
}

static void test_lookup(void)
{
    CU_ASSERT_PTR_NULL(spec_gen_get(5));
    CU_ASSERT_PTR_NOT_NULL(spec_find_element(8, SPEC_STRUCT, "RENDER_SURFACE_STATE"));
    CU_ASSERT_PTR_NOT_NULL(spec_find_element(4, SPEC_STRUCT, "WM_STATE"));
    CU_ASSERT_PTR_NOT_NULL(spec_find_element(9, SPEC_COMMAND, "3DSTATE_WM_HZ_OP"));
    CU_ASSERT_PTR_NULL(spec_find_element(7, SPEC_COMMAND, "3DSTATE_WM_HZ_OP"));
    /* L3CNTLREG is at 7034h on BDW (the skl/bdw traces write it with LRI). */
    const struct spec_element *r = spec_find_register(8, 0x7034);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->name, "L3CNTLREG");
    /* CS registers: MI_MATH GPRs from 2600h, 8 bytes apart (gen8, inherited by gen9). */
    r = spec_find_register(9, 0x2608);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->name, "CS_GPR1");
    CU_ASSERT_EQUAL(r->length, 2);
    CU_ASSERT_PTR_NULL(spec_find_register(7, 0x2600));   /* no GPRs on gen7 */
    CU_ASSERT_PTR_NOT_NULL(spec_find_register(7, 0x2418));
    uint32_t nop = 0;
    CU_ASSERT_PTR_NULL(spec_find_command(8, &nop, 0));
    const struct spec_element *c = spec_find_command(8, &nop, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_STRING_EQUAL(c->name, "MI_NOOP");
    CU_ASSERT_EQUAL(spec_command_length(c, &nop), 1);
    /* 3DSTATE_POLY_STIPPLE_PATTERN: 32 rows from DW1 (seed 004:3943). */
    const struct spec_element *pp = spec_find_element(8, SPEC_COMMAND, "3DSTATE_POLY_STIPPLE_PATTERN");
    CU_ASSERT_PTR_NOT_NULL_FATAL(pp);
    const struct spec_field *row = spec_find_field(pp, "Pattern Row[31]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    CU_ASSERT_EQUAL(row->start, 32 * 32);
    CU_ASSERT_EQUAL(row->end, 32 * 32 + 31);
    CU_ASSERT_PTR_NULL(spec_find_field(pp, "Pattern Row[32]"));
    uint32_t vb = 0x78080003;  /* 3DSTATE_VERTEX_BUFFERS, one buffer: 1 + 4 dwords */
    c = spec_find_command(8, &vb, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_STRING_EQUAL(c->name, "3DSTATE_VERTEX_BUFFERS");
    CU_ASSERT_EQUAL(spec_command_length(c, &vb), 5);
}

static const struct test_case cases[] = {
    { "round trip of every element", test_round_trip },
    { "out of range values are rejected", test_out_of_range },
    { "known encodings", test_known_encodings },
    { "signed, fixed-point and float fields", test_typed_fields },
    { "lookup", test_lookup },
    { 0 }
};
TEST_SUITE(spec_pack, cases);
