/* tests/spec/test_spec_traces.c - the command tables identify every command of
 * the real batches (tests/data/traces/NAME.batch.NN.bin, copied from
 * ../shared/traces/intel) exactly as Mesa's aubinator did: the expected
 * "dword-offset NAME" lists (NAME.batch.NN.cmds) were written from the
 * aubinator decodes by tests/data/traces/expected.sh, not by gtsim. */
#include "../test.h"

#include "spec/spec.h"
#include "spec_gen9_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct batch_case {
    const char *name;   /* file stem under tests/data/traces */
    int gen;
};

static const struct batch_case batches[] = {
    { "g965_tri.batch.00", 4 },
    { "byt_tri.batch.00", 7 },    { "byt_tri.batch.01", 7 },
    { "byt_compute.batch.00", 7 }, { "byt_compute.batch.01", 7 },
    { "bdw_tri.batch.00", 8 },    { "bdw_tri.batch.01", 8 },
    { "bdw_compute.batch.00", 8 }, { "bdw_compute.batch.01", 8 },
    { "skl_tri.batch.00", 9 },    { "skl_tri.batch.01", 9 },
    { "skl_compute.batch.00", 9 }, { "skl_compute.batch.01", 9 },
};

static uint32_t *read_batch(const char *stem, size_t *n)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/traces/%s.bin", stem);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint32_t *dw = calloc(65536, sizeof(uint32_t));
    *n = fread(dw, sizeof(uint32_t), 65536, f);
    fclose(f);
    return dw;
}

static void check_batch(const struct batch_case *bc, unsigned *total)
{
    size_t n = 0;
    uint32_t *dw = read_batch(bc->name, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dw);
    char path[256];
    snprintf(path, sizeof path, "tests/data/traces/%s.cmds", bc->name);
    FILE *exp = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(exp);

    size_t off = 0;
    unsigned long eoff;
    char ename[128];
    unsigned matched = 0;
    while (fscanf(exp, "%lu %127s", &eoff, ename) == 2) {
        if (off >= n) {
            fprintf(stderr, "%s: ran out of dwords before %s\n", bc->name, ename);
            CU_FAIL("batch shorter than the expected list");
            break;
        }
        const struct spec_element *c = spec_find_command(bc->gen, dw + off, n - off);
        if (off != eoff || !c || strcmp(c->name, ename) != 0) {
            fprintf(stderr, "%s: dword %zu (0x%08x): got %s, expected %s at %lu\n", bc->name, off,
                    dw[off], c ? c->name : "(none)", ename, eoff);
            CU_FAIL("command sequence differs from aubinator");
            break;
        }
        off += spec_command_length(c, dw + off);
        matched++;
    }
    /* The batch file ends with its MI_BATCH_BUFFER_END. */
    CU_ASSERT_EQUAL(off, n);
    CU_ASSERT(matched > 0);
    *total += matched;
    fclose(exp);
    free(dw);
}

static void test_trace_batches(void)
{
    unsigned total = 0;
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++)
        check_batch(&batches[i], &total);
    /* wc -l tests/data/traces/\*.cmds */
    CU_ASSERT_EQUAL(total, 761);
}

/* Field values of one decoded command against the aubinator text. */
static void test_trace_fields(void)
{
    size_t n = 0;
    uint32_t *dw = read_batch("skl_tri.batch.00", &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dw);
    /* skl_tri.aubinator.txt: the batch opens with PIPE_CONTROL 0x7a000004,
     * 0x00101021 (Depth Cache Flush, DC Flush, RT Cache Flush, CS Stall). */
    struct GEN9_PIPE_CONTROL pc;
    GEN9_PIPE_CONTROL_unpack(dw, &pc);
    CU_ASSERT_EQUAL(pc.DWordLength, 4);
    CU_ASSERT_TRUE(pc.DepthCacheFlushEnable);
    CU_ASSERT_TRUE(pc.DCFlushEnable);
    CU_ASSERT_TRUE(pc.RenderTargetCacheFlushEnable);
    CU_ASSERT_TRUE(pc.CommandStreamerStallEnable);
    CU_ASSERT_FALSE(pc.StallAtPixelScoreboard);
    CU_ASSERT_EQUAL(pc.PostSyncOperation, 0);

    /* The printer writes aubinator's "Name: value" lines. */
    const struct spec_element *c = spec_find_command(9, dw, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(spec_print_element(out, c, dw, n, "    "), 6);
    fclose(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    Depth Cache Flush Enable: true\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    Stall At Pixel Scoreboard: false\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    Post Sync Operation: 0 (No Write)\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    Destination Address Type: 0 (PPGTT)\n"));
    free(buf);
    free(dw);
}


/* Our printed lines for one command, as "Name: value" strings; a nested field
 * ("Constant Body.Buffer[1]") also answers to its last component, as aubinator
 * prints embedded structures' fields under their own names. */
struct lines {
    char *buf;
    size_t len;
};

static int has_line(const struct lines *l, const char *want)
{
    size_t wl = strlen(want);
    const char *p = l->buf;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        while (n && *p == ' ') { p++; n--; }
        const char *colon = memchr(p, ':', n);
        if (colon) {
            /* try the full name, then each suffix after a '.' */
            const char *start = p;
            for (;;) {
                size_t sl = (size_t)(p + n - start);
                if (sl == wl && memcmp(start, want, wl) == 0)
                    return 1;
                const char *dot = memchr(start, '.', (size_t)(colon - start));
                if (!dot)
                    break;
                start = dot + 1;
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
}

static void check_fields(const struct batch_case *bc, unsigned *checked, unsigned *bad)
{
    size_t n = 0;
    uint32_t *dw = read_batch(bc->name, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dw);
    char path[256];
    snprintf(path, sizeof path, "tests/data/traces/%s.fields.gz", bc->name);
    gzFile gz = gzopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
    char line[512];
    struct lines ours = { NULL, 0 };
    const char *cmd = "";
    char cmdname[128] = "";
    unsigned long off = 0;
    while (gzgets(gz, line, sizeof line)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '@') {
            free(ours.buf);
            ours.buf = NULL;
            if (sscanf(line + 1, "%lu %127s", &off, cmdname) != 2 || off >= n) {
                CU_FAIL("bad .fields line");
                break;
            }
            const struct spec_element *c = spec_find_command(bc->gen, dw + off, n - off);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            cmd = c->name;
            FILE *out = open_memstream(&ours.buf, &ours.len);
            spec_print_element(out, c, dw + off, n - off, "");
            fclose(out);
            continue;
        }
        if (!ours.buf)
            continue;
        /* Three things aubinator prints that are not facts about the command:
         *  - a nameless field (": 3"): Mesa's gen7 genxml has unnamed MBO bits;
         *  - surface format names ("0 (ISL_FORMAT_R32G32B32A32_FLOAT)") come from
         *    Mesa's isl library, not from genxml: only the number is compared;
         *  - "Register Offset[0]" of a one-register MI_LOAD_REGISTER_IMM: Mesa's
         *    gen8 genxml starts the repeated pairs at DW2, over the first pair's
         *    data (spec/check_spec_allow.txt); our tail starts at DW3. */
        if (line[0] == ':')
            continue;
        char *isl = strstr(line, " (ISL_FORMAT_");
        if (isl)
            *isl = 0;
        if (strcmp(cmd, "MI_LOAD_REGISTER_IMM") == 0 && strncmp(line, "Register Offset[0]:", 19) == 0
            && spec_command_length(spec_find_command(bc->gen, dw + off, n - off), dw + off) == 3)
            continue;
        (*checked)++;
        if (!has_line(&ours, line)) {
            if (*bad < 40)
                fprintf(stderr, "%s @%lu %s: aubinator \"%s\" not printed\n", bc->name, off, cmd, line);
            (*bad)++;
        }
    }
    free(ours.buf);
    gzclose(gz);
    free(dw);
}

/* Every "Field: value" aubinator printed for every command of every batch is
 * printed the same by spec_print_element from our tables. */
static void test_trace_field_values(void)
{
    unsigned checked = 0, bad = 0;
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++)
        check_fields(&batches[i], &checked, &bad);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(checked > 5000);
    if (bad)
        fprintf(stderr, "%u of %u aubinator field lines differ\n", bad, checked);
}

struct struct_case {
    const char *trace;
    int gen;
};

static const struct struct_case struct_traces[] = {
    { "g965_tri", 4 }, { "byt_tri", 7 }, { "byt_compute", 7 }, { "bdw_tri", 8 },
    { "bdw_compute", 8 }, { "skl_tri", 9 }, { "skl_compute", 9 },
};

/* Decodes one dumped block (raw dwords gathered so far) and checks the
 * expected "Field: value" lines, which are kept in exp (NUL separated). */
static void check_struct_block(int gen, const char *name, const uint32_t *dw, unsigned ndw,
                               const char *exp, size_t explen, unsigned *checked, unsigned *bad,
                               unsigned *blocks)
{
    if (!name[0])
        return;
    const struct spec_element *e = spec_find_element(gen, SPEC_STRUCT, name);
    if (!e)
        e = spec_find_element(gen, SPEC_REGISTER, name);
    if (!e) {
        fprintf(stderr, "gen%d: no structure or register %s\n", gen, name);
        CU_FAIL("dumped structure missing from the spec");
        return;
    }
    (*blocks)++;
    struct lines ours = { NULL, 0 };
    FILE *out = open_memstream(&ours.buf, &ours.len);
    spec_print_element(out, e, dw, ndw < e->length ? ndw : e->length, "");
    fclose(out);
    for (size_t o = 0; o < explen; o += strlen(exp + o) + 1) {
        char line[512];
        snprintf(line, sizeof line, "%s", exp + o);
        char *isl = strstr(line, " (ISL_FORMAT_");   /* isl names: see check_fields */
        if (isl)
            *isl = 0;
        (*checked)++;
        if (!has_line(&ours, line)) {
            if (*bad < 40)
                fprintf(stderr, "gen%d %s: aubinator \"%s\" not printed\n", gen, name, line);
            (*bad)++;
        }
    }
    free(ours.buf);
}

/* Every state structure and register aubinator dumped from the traces (raw
 * dwords and decoded fields, written by tests/data/traces/structs.sh) decodes
 * the same through our structure and register tables. */
static void test_trace_structs(void)
{
    unsigned checked = 0, bad = 0, blocks = 0;
    for (size_t t = 0; t < sizeof struct_traces / sizeof struct_traces[0]; t++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/traces/%s.structs.gz", struct_traces[t].trace);
        gzFile gz = gzopen(path, "rb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
        char line[512], name[128] = "";
        uint32_t dw[64];
        unsigned ndw = 0;
        const size_t expcap = 65536;
        char *exp = malloc(expcap);
        size_t explen = 0;
        int gen = struct_traces[t].gen;
        while (gzgets(gz, line, sizeof line)) {
            line[strcspn(line, "\n")] = 0;
            if (line[0] == '@') {
                check_struct_block(gen, name, dw, ndw, exp, explen, &checked, &bad, &blocks);
                snprintf(name, sizeof name, "%s", line + 1);
                memset(dw, 0, sizeof dw);
                ndw = 0;
                explen = 0;
            } else if (line[0] == '=') {
                unsigned idx;
                unsigned long v;
                if (sscanf(line + 1, "%u 0x%lx", &idx, &v) == 2 && idx < 64) {
                    dw[idx] = (uint32_t)v;
                    if (idx + 1 > ndw)
                        ndw = idx + 1;
                }
            } else if (line[0] != ':' && explen + strlen(line) + 1 < expcap) {
                memcpy(exp + explen, line, strlen(line) + 1);
                explen += strlen(line) + 1;
            }
        }
        check_struct_block(gen, name, dw, ndw, exp, explen, &checked, &bad, &blocks);
        free(exp);
        gzclose(gz);
    }
    if (bad)
        fprintf(stderr, "%u of %u aubinator structure lines differ\n", bad, checked);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(blocks, 136);     /* zcat tests/data/traces/\*.structs.gz | grep -c '^@' */
    CU_ASSERT(checked > 1000);
}

/* The batch printer walks a whole batch and says what it cannot identify. */
static void test_print_batch(void)
{
    size_t n = 0;
    uint32_t *dw = read_batch("g965_tri.batch.00", &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dw);
    char *buf = NULL;
    size_t len = 0, unknown = 99;
    FILE *out = open_memstream(&buf, &len);
    size_t count = spec_print_batch(out, 4, dw, n, &unknown);
    fclose(out);
    CU_ASSERT_EQUAL(count, 34);      /* wc -l g965_tri.batch.00.cmds */
    CU_ASSERT_EQUAL(unknown, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "0x0000: MI_FLUSH\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ": MI_BATCH_BUFFER_END\n"));
    free(buf);

    /* Garbage and truncation: 0xffffffff is no command; a PIPE_CONTROL header
     * with only its first dword present is reported truncated. */
    uint32_t junk[2] = { 0xffffffffu, 0x7a000004u };
    buf = NULL;
    out = open_memstream(&buf, &len);
    count = spec_print_batch(out, 9, junk, 2, &unknown);
    fclose(out);
    CU_ASSERT_EQUAL(count, 1);
    CU_ASSERT_EQUAL(unknown, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "unknown command 0xffffffff"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "PIPE_CONTROL (truncated)"));
    free(buf);
    free(dw);
}

static const struct test_case cases[] = {
    { "trace batches decode as aubinator", test_trace_batches },
    { "trace field values", test_trace_fields },
    { "every trace field prints as aubinator", test_trace_field_values },
    { "every dumped structure decodes as aubinator", test_trace_structs },
    { "batch printer", test_print_batch },
    { 0 }
};
TEST_SUITE(spec_traces, cases);
