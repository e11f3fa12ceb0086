/* tests/units/test_eu_disasm.c - the EU disassembler's text, the kernel-file reader
 * and the `disasm` command.
 *
 * The text is compared with Mesa's aubinator listing of the same kernels
 * (tests/data/eu/aub/NAME.aubinator.txt, copied from the captures' aubinator dumps),
 * whitespace-insensitively: ALU lines must be identical; for sends, aubinator's
 * first line (opcode, operands, descriptor) must start ours and the option blocks
 * must be equal (aubinator prints the message description on a second line in its
 * own words, we print the SFID and lengths on the same line).
 */
#define _XOPEN_SOURCE 700
#include "../test.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"
#include "tools/cmd_disasm.h"

static void collapse(const char *in, char *out, size_t n)
{
    size_t o = 0;
    bool space = false;
    for (; *in && o + 1 < n; in++) {
        if (*in == ' ' || *in == '\t' || *in == '\n') {
            space = o > 0;
            continue;
        }
        if (space && o + 2 < n)
            out[o++] = ' ';
        space = false;
        out[o++] = *in;
    }
    out[o] = 0;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(1 << 16);
    size_t n = b ? fread(b, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (b)
        b[n] = 0;
    if (len)
        *len = n;
    return b;
}

static unsigned check_listing(const char *bin, const char *txt, int gen, unsigned *count)
{
    uint8_t *bytes;
    size_t len;
    struct gt_error err = { { 0 } };
    if (eu_load_kernel_file(bin, &bytes, &len, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    char *text = read_all(txt, NULL);
    if (!text) {
        free(bytes);
        return 1;
    }
    /* aubinator's instructions: a line starting in column 0 (not '#'), plus its
     * indented continuation */
    char *lines[256], *cont[256];
    unsigned nl = 0;
    for (char *p = text; *p && nl < 256;) {
        char *e = strchr(p, '\n');
        if (e)
            *e = 0;
        if (*p == ' ' && nl > 0)
            cont[nl - 1] = p;
        else if (*p && *p != '#') {
            lines[nl] = p;
            cont[nl++] = NULL;
        }
        if (!e)
            break;
        p = e + 1;
    }
    unsigned bad = 0, i = 0;
    for (size_t off = 0; off < len; i++) {
        struct eu_instruction in;
        size_t k = eu_decode(gen, bytes + off, len - off, &in);
        if (!k || i >= nl) {
            bad++;
            break;
        }
        char ours[512], mine[512], theirs[512], line[512];
        eu_disasm(&in, line, sizeof line);
        collapse(line, mine, sizeof mine);
        collapse(lines[i], theirs, sizeof theirs);
        if (!cont[i]) {
            snprintf(ours, sizeof ours, "%s", mine);
            if (strcmp(ours, theirs) != 0) {
                fprintf(stderr, "%s %u:\n  ours:      %s\n  aubinator: %s\n", txt, i, ours, theirs);
                bad++;
            }
        } else {
            char opts_theirs[256], *ob = strrchr(cont[i], '{');
            collapse(ob ? ob : "", opts_theirs, sizeof opts_theirs);
            const char *om = strrchr(mine, '{');
            if (strncmp(mine, theirs, strlen(theirs)) != 0 || !om || strcmp(om, opts_theirs) != 0) {
                fprintf(stderr, "%s %u:\n  ours:      %s\n  aubinator: %s ... %s\n", txt, i, mine,
                        theirs, opts_theirs);
                bad++;
            }
        }
        off += k;
    }
    if (i != nl)
        bad++;
    *count += i;
    free(text);
    free(bytes);
    return bad;
}

static void test_text_matches_aubinator(void)
{
    glob_t gl;
    CU_ASSERT_EQUAL_FATAL(glob("tests/data/eu/aub/*.bin", 0, NULL, &gl), 0);
    unsigned bad = 0, count = 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        char txt[256];
        const char *bin = gl.gl_pathv[i];
        snprintf(txt, sizeof txt, "%.*s.aubinator.txt", (int)(strlen(bin) - 4), bin);
        int gen = atoi(strstr(bin, ".gen") + 4);
        bad += check_listing(bin, txt, gen, &count);
    }
    globfree(&gl);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(count, 51 + 40 + 38 + 64);
}

/* ---- hex text (intel-gen4asm without -b) -------------------------------------- */

static void test_hex_text(void)
{
    /* two lines of intel-gen4asm -g 7 output for "mov(8) g2<1>F g3<8,8,1>F" and a
     * compact instruction as two words */
    const char *t = "   { 0x00600001, 0x204003bd, 0x008d0060, 0x00000000 },\n"
                    "   { 0x20600001, 0x00000000 },\n";
    uint8_t *b;
    size_t n;
    struct gt_error err = { { 0 } };
    CU_ASSERT_EQUAL_FATAL(eu_parse_hex_text(t, strlen(t), &b, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 24);
    CU_ASSERT_EQUAL(b[0], 0x01);
    CU_ASSERT_EQUAL(b[2], 0x60);
    CU_ASSERT_EQUAL(b[4], 0xbd);
    CU_ASSERT_EQUAL(b[7], 0x20);
    CU_ASSERT_EQUAL(b[19], 0x20);
    free(b);

    const char *bad[] = {
        "{ 0x1, 0x2, 0x3 },\n",                 /* 3 words */
        "{ 0x00600001, 0x1234567890, 0, 0 },\n", /* 10 digits */
        "{ 0x00600001, zz },\n",                /* junk */
        "{ 0x1, 0x2, 0x3, 0x4, 0x5 }",          /* 5 words, no newline */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.message[0] = 0;
        b = (uint8_t *)1;
        CU_ASSERT_EQUAL(eu_parse_hex_text(bad[i], strlen(bad[i]), &b, &n, &err), -1);
        CU_ASSERT_PTR_NULL(b);
        CU_ASSERT(strstr(err.message, "line 1") != NULL);
    }
    CU_ASSERT_EQUAL(eu_parse_hex_text("", 0, &b, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 0);
    free(b);
}

/* ---- the disasm command --------------------------------------------------------------- */

static int run(const char *a1, const char *a2, const char *a3, const char *a4, char *out,
               size_t on, char *errs, size_t en)
{
    char *argv[6] = { (char *)"disasm", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
    int argc = 1;
    while (argc < 5 && argv[argc])
        argc++;
    FILE *fo = tmpfile(), *fe = tmpfile();
    int r = eu_disasm_main(argc, argv, fo, fe);
    rewind(fo);
    rewind(fe);
    size_t k = fread(out, 1, on - 1, fo);
    out[k] = 0;
    k = fread(errs, 1, en - 1, fe);
    errs[k] = 0;
    fclose(fo);
    fclose(fe);
    return r;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
    fclose(f);
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_cli(void)
{
    static char out[65536], errs[4096];
    CU_ASSERT_EQUAL(run("--help", NULL, NULL, NULL, out, sizeof out, errs, sizeof errs), 0);
    CU_ASSERT(strstr(out, "usage: gtsim disasm") != NULL);
    CU_ASSERT_EQUAL(run(NULL, NULL, NULL, NULL, out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT(strstr(errs, "--gen") != NULL);
    CU_ASSERT_EQUAL(count_lines(errs), 1);
    CU_ASSERT_EQUAL(run("--gen", "5", "x", NULL, out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT(strstr(errs, "unsupported generation '5'") != NULL);
    CU_ASSERT_EQUAL(run("--gen", NULL, NULL, NULL, out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT_EQUAL(run("--gen", "9", "--bogus", "x", out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT(strstr(errs, "--bogus") != NULL);
    CU_ASSERT_EQUAL(run("--gen", "9", "/nonexistent/k.bin", NULL, out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT(strstr(errs, "/nonexistent/k.bin") != NULL);
    CU_ASSERT_EQUAL(count_lines(errs), 1);

    /* a real kernel, raw bytes: one line per instruction */
    CU_ASSERT_EQUAL(run("--gen", "9", "tests/data/eu/aub/skl_compute.k00.gen9.bin", NULL, out,
                        sizeof out, errs, sizeof errs), 0);
    CU_ASSERT_EQUAL(count_lines(out), 16);
    CU_ASSERT(strstr(out, "sends(16)") != NULL);
    CU_ASSERT_STRING_EQUAL(errs, "");

    /* the hex text intel-gen4asm writes, with offsets */
    CU_ASSERT_EQUAL(run("--gen", "7", "--offsets", "build/gen/eu/alu.gen7.hex", out, sizeof out,
                        errs, sizeof errs), 0);
    CU_ASSERT(strncmp(out, "000000: mov(8)", 14) == 0);

    const char *dir = test_temp_dir();
    char path[256];
    /* odd-length hex: a clear error */
    snprintf(path, sizeof path, "%s/odd.hex", dir);
    write_file(path, "{ 0x00600001, 0x204003bd, 0x008d0060 },\n", 40);
    CU_ASSERT_EQUAL(run("--gen", "7", path, NULL, out, sizeof out, errs, sizeof errs), 2);
    CU_ASSERT(strstr(errs, "3 words") != NULL);
    /* illegal opcodes and a truncated tail: listed, counted, exit 1 */
    uint8_t junk[16 + 16 + 5] = { 0x7f };
    junk[16] = 0x01; /* mov */
    snprintf(path, sizeof path, "%s/junk.bin", dir);
    write_file(path, junk, sizeof junk);
    CU_ASSERT_EQUAL(run("--gen", "8", path, NULL, out, sizeof out, errs, sizeof errs), 1);
    CU_ASSERT(strstr(out, "illegal") != NULL);
    CU_ASSERT(strstr(out, "trailing") != NULL);
    CU_ASSERT(strstr(errs, "1 illegal instruction") != NULL);
    CU_ASSERT(strstr(errs, "truncated") != NULL);
    /* an empty file is an empty kernel */
    snprintf(path, sizeof path, "%s/empty.bin", dir);
    write_file(path, "", 0);
    CU_ASSERT_EQUAL(run("--gen", "4", path, NULL, out, sizeof out, errs, sizeof errs), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
}

static void test_buffer_stats(void)
{
    uint8_t *bytes;
    size_t len;
    struct gt_error err = { { 0 } };
    CU_ASSERT_EQUAL_FATAL(eu_load_kernel_file("tests/data/eu/aub/skl_tri.k01.gen9.bin", &bytes, &len, &err), 0);
    struct eu_disasm_stats st;
    eu_disasm_buffer(9, bytes, len, NULL, false, &st);
    /* aubinator: 10 instructions, the 9 movs compacted */
    CU_ASSERT_EQUAL(st.instructions, 10);
    CU_ASSERT_EQUAL(st.compacted, 9);
    CU_ASSERT_EQUAL(st.illegal, 0);
    CU_ASSERT(!st.truncated);
    eu_disasm_buffer(9, bytes, len - 3, NULL, false, &st);
    CU_ASSERT(st.truncated);
    CU_ASSERT_EQUAL(st.instructions, 9);
    free(bytes);
}

static const struct test_case cases[] = {
    { "disassembly of the capture kernels matches aubinator", test_text_matches_aubinator },
    { "intel-gen4asm hex text is read, malformed text is an error", test_hex_text },
    { "the disasm command: usage, errors, raw and hex kernels", test_cli },
    { "buffer statistics count compacted, illegal and truncated", test_buffer_stats },
    { 0 }
};

TEST_SUITE(eu_disasm, cases);
