/* tests/spec/test_spec_common.c - the one state vocabulary over every
 * generation (spec/README.md "Ids and superset structs"): ids are unique,
 * follow the sorted names and are the same in every generation for the same
 * name; for every element of every generation, GENn_X_unpack_common agrees
 * with GENn_X_unpack member by member (through the field-descriptor tables),
 * members the generation lacks read the documented default 0 and the
 * per-member present bits say which generation has what; the pipeline of a
 * command is the one its PRM name gives. */
#include "../test.h"

#include "spec/spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static const struct spec_element *table(const struct spec_gen *g, int t, size_t *n)
{
    *n = t == 0 ? g->n_commands : t == 1 ? g->n_structs : g->n_registers;
    return t == 0 ? g->commands : t == 1 ? g->structs : g->registers;
}

static void test_ids(void)
{
    CU_ASSERT_PTR_NULL(spec_common_get(SPEC_ID_NONE));
    CU_ASSERT_PTR_NULL(spec_common_get(SPEC_ID_COUNT));
    CU_ASSERT_PTR_NULL(spec_element_by_id(9, SPEC_ID_NONE));
    CU_ASSERT_PTR_NULL(spec_element_by_id(9, SPEC_ID_COUNT));
    CU_ASSERT_PTR_NULL(spec_element_by_id(5, SPEC_ID_GPGPU_WALKER));
    /* numbered from 1 in sorted name order: the numbers depend on the set of
     * names only */
    const char *prev = "";
    for (int id = 1; id < SPEC_ID_COUNT; id++) {
        const struct spec_common *c = spec_common_get((enum spec_id)id);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_EQUAL(c->id, id);
        CU_ASSERT_TRUE(strcmp(prev, c->name) < 0);
        prev = c->name;
        CU_ASSERT_NOT_EQUAL(c->present, 0);
        for (size_t g = 0; g < N_GENS; g++) {
            const struct spec_element *e = spec_element_by_id(gens[g], (enum spec_id)id);
            CU_ASSERT_EQUAL(e != NULL, (c->present >> gens[g] & 1) != 0);
        }
    }
    size_t total = 0;
    for (size_t g = 0; g < N_GENS; g++) {
        const struct spec_gen *sg = spec_gen_get(gens[g]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sg);
        uint8_t *seen = calloc(SPEC_ID_COUNT, 1);
        for (int t = 0; t < 3; t++) {
            size_t n;
            const struct spec_element *es = table(sg, t, &n);
            for (size_t k = 0; k < n; k++) {
                const struct spec_element *e = &es[k];
                CU_ASSERT_TRUE_FATAL(e->id > SPEC_ID_NONE && e->id < SPEC_ID_COUNT);
                CU_ASSERT_FALSE(seen[e->id]);           /* unique in the generation */
                seen[e->id] = 1;
                const struct spec_common *c = spec_common_get((enum spec_id)e->id);
                CU_ASSERT_STRING_EQUAL(c->name, e->name);
                CU_ASSERT_EQUAL(c->kind, e->kind);
                CU_ASSERT_EQUAL(c->size, e->common_size);
                CU_ASSERT_TRUE(c->present >> gens[g] & 1);
                CU_ASSERT_PTR_EQUAL(spec_element_by_id(gens[g], (enum spec_id)e->id), e);
                /* the same name has the same id in every other generation */
                for (size_t h = 0; h < N_GENS; h++) {
                    const struct spec_element *o = spec_find_element(gens[h], (enum spec_kind)e->kind,
                                                                     e->name);
                    if (o)
                        CU_ASSERT_EQUAL(o->id, e->id);
                }
                total++;
            }
        }
        free(seen);
    }
    CU_ASSERT_TRUE(total > 400);
    /* GPGPU_WALKER exists from Gen7 on (seed 000's and 004's media
     * commands; Gen4 has no GPGPU pipeline, seed 001) */
    const struct spec_common *w = spec_common_get(SPEC_ID_GPGPU_WALKER);
    CU_ASSERT_STRING_EQUAL(w->name, "GPGPU_WALKER");
    CU_ASSERT_EQUAL(w->present, (1u << 7) | (1u << 8) | (1u << 9));
    CU_ASSERT_PTR_NULL(spec_element_by_id(4, SPEC_ID_GPGPU_WALKER));
    CU_ASSERT_STRING_EQUAL(spec_common_get(SPEC_ID_RENDER_SURFACE_STATE)->name,
                           "RENDER_SURFACE_STATE");
}

/* Random raw dwords: every field random bits, MBZ zero, MBO ones. */
static void random_raw(const struct spec_element *e, uint32_t *dw, uint64_t *seed)
{
    memset(dw, 0, e->length * sizeof(uint32_t));
    for (unsigned i = 0; i < e->n_fields; i++) {
        const struct spec_field *f = &e->fields[i];
        if (f->type == SPEC_MBZ)
            continue;
        uint64_t v = f->type == SPEC_MBO ? ~0ULL : rng_next(seed);
        for (unsigned b = f->start; b <= f->end; b++) {
            if ((v >> (b - f->start)) & 1)
                dw[b / 32] |= 1u << (b % 32);
            else
                dw[b / 32] &= ~(1u << (b % 32));
        }
    }
}

static size_t ctype_size(uint8_t ct)
{
    switch (ct) {
    case SPEC_C_U32: case SPEC_C_I32: case SPEC_C_FLOAT: return 4;
    case SPEC_C_U64: case SPEC_C_I64: case SPEC_C_DOUBLE: return 8;
    case SPEC_C_BOOL: return sizeof(bool);
    default: return 0;
    }
}

/* The member at p of C type ct as a number; *nan when it is a NaN. */
static long double member_value(const void *p, uint8_t ct, bool *nan)
{
    *nan = false;
    switch (ct) {
    case SPEC_C_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
    case SPEC_C_I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case SPEC_C_U64: { uint64_t x; memcpy(&x, p, 8); return (long double)x; }
    case SPEC_C_I64: { int64_t x; memcpy(&x, p, 8); return (long double)x; }
    case SPEC_C_BOOL: { bool x; memcpy(&x, p, sizeof x); return x; }
    case SPEC_C_FLOAT: { float x; memcpy(&x, p, 4); *nan = isnan(x); return x; }
    case SPEC_C_DOUBLE: { double x; memcpy(&x, p, 8); *nan = isnan(x); return x; }
    default: return 0;
    }
}

static unsigned compared_fields, elements_checked;

/* unpack_common against unpack for one element, on a few random contents. */
static void check_element(const struct spec_element *e, uint64_t *seed)
{
    size_t len = e->length ? e->length : 1;
    uint32_t *raw = calloc(len, sizeof(uint32_t));
    uint8_t *gs = calloc(1, e->c_size);
    uint8_t *cs = malloc(e->common_size);
    uint8_t *covered = calloc(1, e->common_size);
    const struct spec_common *c = spec_common_get((enum spec_id)e->id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    bool ok = true;
    for (int iter = 0; iter < 4 && ok; iter++) {
        random_raw(e, raw, seed);
        e->unpack(raw, gs);
        memset(cs, 0xA5, e->common_size);      /* unpack_common must clear it */
        e->unpack_common(raw, cs);
        memset(covered, 0, e->common_size);
        for (unsigned i = 0; i < e->n_fields; i++) {
            const struct spec_field *f = &e->fields[i];
            if (f->ctype == SPEC_C_NONE)
                continue;
            CU_ASSERT_NOT_EQUAL_FATAL(f->common_ctype, SPEC_C_NONE);
            size_t cz = ctype_size(f->common_ctype);
            CU_ASSERT_TRUE(cz >= ctype_size(f->ctype));     /* the widest type */
            CU_ASSERT_TRUE_FATAL(f->common_offset + cz <= e->common_size);
            bool n1, n2;
            long double a = member_value(gs + f->offset, f->ctype, &n1);
            long double b = member_value(cs + f->common_offset, f->common_ctype, &n2);
            if (!(n1 && n2) && a != b) {
                fprintf(stderr, "gen%d %s %s: unpack %Lg, unpack_common %Lg\n", e->gen, e->name,
                        f->name, a, b);
                CU_FAIL("unpack_common differs from unpack");
                ok = false;
            }
            memset(covered + f->common_offset, 1, cz);
            compared_fields++;
        }
        /* every byte no field of this generation fills (the members it
         * lacks, padding) is the documented default: 0 */
        for (size_t i = 0; i < e->common_size && ok; i++)
            if (!covered[i] && cs[i] != 0) {
                fprintf(stderr, "gen%d %s: byte %zu of struct spec_%s is 0x%02x\n", e->gen,
                        e->name, i, e->name, cs[i]);
                CU_FAIL("a member the generation lacks is not 0");
                ok = false;
            }
    }
    /* present bits: a member is present in this generation exactly when one
     * of its fields fills it */
    for (unsigned m = 0; m < c->n_members; m++) {
        const struct spec_member *mb = &c->members[m];
        bool filled = false;
        for (size_t i = mb->offset; i < mb->offset + mb->size; i++)
            filled |= covered[i] != 0;
        if (filled != ((mb->present >> e->gen & 1) != 0)) {
            fprintf(stderr, "gen%d %s.%s: present bits 0x%x\n", e->gen, e->name, mb->name,
                    mb->present);
            CU_FAIL("present bit disagrees with the generation's fields");
        }
    }
    elements_checked++;
    free(raw); free(gs); free(cs); free(covered);
}

static void test_unpack_common_matches_unpack(void)
{
    uint64_t seed = 0xC0FFEE1234567ULL;
    compared_fields = elements_checked = 0;
    size_t total = 0;
    for (size_t g = 0; g < N_GENS; g++) {
        const struct spec_gen *sg = spec_gen_get(gens[g]);
        for (int t = 0; t < 3; t++) {
            size_t n;
            const struct spec_element *es = table(sg, t, &n);
            for (size_t k = 0; k < n; k++)
                check_element(&es[k], &seed);
            total += n;
        }
    }
    CU_ASSERT_EQUAL(elements_checked, total);
    CU_ASSERT_TRUE(compared_fields > 10000);
}

static const struct spec_member *member(enum spec_id id, const char *name)
{
    const struct spec_common *c = spec_common_get(id);
    for (unsigned m = 0; m < c->n_members; m++)
        if (strcmp(c->members[m].name, name) == 0)
            return &c->members[m];
    return NULL;
}

/* What the data says differs between generations, as the superset keeps it. */
static void test_superset_members(void)
{
    /* GPGPU_WALKER: Gen7 "Thread Group ID Starting Z" (seed 000), Gen8/Gen9
     * "Thread Group ID Starting/Resume Z" (seed 004): two members */
    CU_ASSERT_EQUAL(SPEC_PRESENT_GPGPU_WALKER_ThreadGroupIDStartingZ, 1u << 7);
    CU_ASSERT_EQUAL(SPEC_PRESENT_GPGPU_WALKER_ThreadGroupIDStartingResumeZ, (1u << 8) | (1u << 9));
    CU_ASSERT_EQUAL(SPEC_PRESENT_GPGPU_WALKER_ThreadGroupIDXDimension, 0x380u);
    /* Gen7/Gen8 unpack a Gen7 walker's Z start into its own member only */
    const struct spec_element *w7 = spec_element_by_id(7, SPEC_ID_GPGPU_WALKER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w7);
    uint32_t dw[32] = { 0 };
    const struct spec_field *z = spec_find_field_common(
        w7, offsetof(struct spec_GPGPU_WALKER, ThreadGroupIDStartingZ));
    CU_ASSERT_PTR_NOT_NULL_FATAL(z);
    CU_ASSERT_STRING_EQUAL(z->name, "Thread Group ID Starting Z");
    dw[z->start / 32] = 5u << (z->start % 32);
    struct spec_GPGPU_WALKER v;
    w7->unpack_common(dw, &v);
    CU_ASSERT_EQUAL(v.ThreadGroupIDStartingZ, 5);
    CU_ASSERT_EQUAL(v.ThreadGroupIDStartingResumeZ, 0);
    CU_ASSERT_PTR_NULL(spec_find_field_common(
        w7, offsetof(struct spec_GPGPU_WALKER, ThreadGroupIDStartingResumeZ)));
    /* STATE_BASE_ADDRESS's General State Buffer Size: Gen8/Gen9 only */
    CU_ASSERT_EQUAL(SPEC_PRESENT_STATE_BASE_ADDRESS_GeneralStateBufferSize, (1u << 8) | (1u << 9));
    /* one name, two types: the widest that holds both */
    const struct spec_member *m = member(SPEC_ID_RENDER_SURFACE_STATE, "RedClearColor");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->ctype, SPEC_C_I64);          /* Gen7/8 a 1-bit uint, Gen9 an int32 */
    m = member(SPEC_ID_3DSTATE_CLEAR_PARAMS, "DepthClearValue");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->ctype, SPEC_C_DOUBLE);       /* a uint32 and a float */
    /* an embedded structure is the superset of that structure */
    m = member(SPEC_ID_3DSTATE_CONSTANT_VS, "ConstantBody");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->ctype, SPEC_C_STRUCT);
    CU_ASSERT_STRING_EQUAL(m->struct_name, "3DSTATE_CONSTANT_BODY");
    CU_ASSERT_EQUAL(m->size, sizeof(struct spec_3DSTATE_CONSTANT_BODY));
    /* Shared Local Memory Size keeps one member (its encoding differs:
     * the unit branches on gen) */
    CU_ASSERT_EQUAL(SPEC_PRESENT_INTERFACE_DESCRIPTOR_DATA_SharedLocalMemorySize, 0x380u);
}

static void test_pipelines(void)
{
    static const struct { enum spec_id id; enum spec_pipeline p; } want[] = {
        { SPEC_ID_3DSTATE_VS, SPEC_PIPELINE_3D },
        { SPEC_ID_3DPRIMITIVE, SPEC_PIPELINE_3D },
        { SPEC_ID_3DSTATE_VF_STATISTICS, SPEC_PIPELINE_3D },
        { SPEC_ID_GPGPU_WALKER, SPEC_PIPELINE_MEDIA },
        { SPEC_ID_MEDIA_VFE_STATE, SPEC_PIPELINE_MEDIA },
        { SPEC_ID_MEDIA_CURBE_LOAD, SPEC_PIPELINE_MEDIA },
        { SPEC_ID_STATE_BASE_ADDRESS, SPEC_PIPELINE_BOTH },
        { SPEC_ID_PIPELINE_SELECT, SPEC_PIPELINE_BOTH },
        { SPEC_ID_PIPE_CONTROL, SPEC_PIPELINE_BOTH },
        { SPEC_ID_STATE_SIP, SPEC_PIPELINE_BOTH },
        { SPEC_ID_MI_NOOP, SPEC_PIPELINE_BOTH },
        { SPEC_ID_INTERFACE_DESCRIPTOR_DATA, SPEC_PIPELINE_NONE },
        { SPEC_ID_RENDER_SURFACE_STATE, SPEC_PIPELINE_NONE },
        { SPEC_ID_L3CNTLREG, SPEC_PIPELINE_NONE },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct spec_common *c = spec_common_get(want[i].id);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_EQUAL(c->pipeline, want[i].p);
        for (size_t g = 0; g < N_GENS; g++) {
            const struct spec_element *e = spec_element_by_id(gens[g], want[i].id);
            if (e)
                CU_ASSERT_EQUAL(e->pipeline, want[i].p);
        }
    }
}

static const struct test_case cases[] = {
    { "ids: unique, sorted, one per name in every generation", test_ids },
    { "unpack_common agrees with unpack; missing members are 0", test_unpack_common_matches_unpack },
    { "superset members across generations", test_superset_members },
    { "pipelines of commands", test_pipelines },
    { 0 }
};
TEST_SUITE(spec_common, cases);
