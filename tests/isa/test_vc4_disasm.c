/* tests/isa/test_vc4_disasm.c - the VideoCore IV QPU disassembler against Mesa's text.
 *
 * 1. Word/text pairs copied from the captures' listings (../shared/traces/vc4/vc4_tri.run.log
 *    and ../shared/traces/ext/vc4/vc4_strip_fan.run.log, printed by Mesa's vc4 driver), so the
 *    comparison runs without ../shared.
 * 2. When those listings exist (paths relative to the repository root), every instruction
 *    word in them is disassembled and compared with Mesa's text, whitespace-insensitively;
 *    nothing from ../shared is copied, and the test prints a note and skips when absent.
 * 3. Hand-built words for what the captures do not show (branches, semaphores, signals,
 *    saturating packs, r4 unpack, rotations, small immediates, unnamed registers); the
 *    expected text follows the rules of Mesa's vc4_qpu_disasm.c, written out by hand here.
 * 4. Random words never crash and always give some text; the file reader and the CLI.
 */
#define _XOPEN_SOURCE 700
#include "../test.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/vc4/qpu_disasm.h"
#include "tools/cmd_disasm.h"

static void collapse(const char *in, char *out, size_t n)
{
    size_t o = 0;
    bool space = false;
    for (; *in && o + 1 < n; in++) {
        if (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r') {
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

static bool same_text(uint64_t word, const char *expected)
{
    char ours[256], a[256], b[256];
    vc4_qpu_disasm(word, ours, sizeof ours);
    collapse(ours, a, sizeof a);
    collapse(expected, b, sizeof b);
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "0x%016llx\n  ours: %s\n  mesa: %s\n", (unsigned long long)word, a, b);
        return false;
    }
    return true;
}

/* From the captures' .run.log files (Mesa's text as printed there). */
static const struct { uint64_t word; const char *text; } from_logs[] = {
    { 0x100049e0203e303eull, "nop nop, r0, r0 ; fmul r0, vary, ra15" },
    { 0x10024862213e317eull, "fadd r1, r0, r5 ; fmul r2, vary, ra15" },
    { 0x114258c0819e7549ull, "fadd r3, r2, r5 ; mov ra0.8a, r1" },
    { 0x115059c0809e701bull, "nop nop, r0, r0 ; mov ra0.8b, r3" },
    { 0x116258c0819e7549ull, "fadd r3, r2, r5 ; mov ra0.8c, r1" },
    { 0x117059c0809e701bull, "nop nop, r0, r0 ; mov ra0.8d, r3" },
    { 0x100009e7009e7000ull, "nop nop, r0, r0 ; nop nop, r0, r0" },
    { 0x10020ba715027d80ull, "mov tlb_color_all, ra0 ; nop nop, r0, r0" },
    { 0x300009e7009e7000ull, "sig_end nop nop, r0, r0 ; nop nop, r0, r0" },
    { 0x500009e7009e7000ull, "sig_unlock_score nop nop, r0, r0 ; nop nop, r0, r0" },
    { 0xe0024c6700801a00ull, "load_imm vr_setup, nop, 0x00801a00 (0.000000)" },
    { 0xe0025c6700001a00ull, "load_imm vw_setup, nop, 0x00001a00 (0.000000)" },
    { 0x100049c020c20037ull, "nop nop, r0, r0 ; fmul rb0, vpm_read, uni" },
    { 0x100059c120c20037ull, "nop nop, r0, r0 ; fmul ra1, vpm_read, uni" },
    { 0x10021d27159e76c0ull, "mov sfu_recip, r3 ; nop nop, r0, r0" },
    { 0xd0020867029e1e00ull, "sig_small_imm fsub r1, 2.0, r0 ; nop nop, r0, r0" },
    { 0xd0020c27159c0fc0ull, "sig_small_imm mov vpm, 0 ; nop nop, r0, r0" },
    { 0xd0020c27159e2fc0ull, "sig_small_imm mov vpm, 4.0 ; nop nop, r0, r0" },
    { 0x10124021279c003bull, "ftoi ra0.16a, r0, r0 ; fmul r1, rb0, r3" },
    { 0x1022402227067273ull, "ftoi ra0.16b, r1, r1 ; fmul r2, ra1, r3" },
    { 0x10024c2181c205f6ull, "fadd vpm, r2, uni ; mov r1, vpm_read" },
    { 0x10024c34959e7480ull, "mov vpm, r2 ; mov sfu_recip, r0" },
    { 0x100059e7203e303eull, "nop nop, r0, r0 ; fmul nop, vary, ra15" },
};

static void test_embedded_pairs(void)
{
    for (unsigned i = 0; i < sizeof from_logs / sizeof from_logs[0]; i++)
        CU_ASSERT_TRUE(same_text(from_logs[i].word, from_logs[i].text));
}

/* Every "0x<16 hex digits> <text>" line of one listing; returns the number compared. */
static unsigned check_listing(const char *path, unsigned *mismatches)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '0' || line[1] != 'x')
            continue;
        char *end;
        unsigned long long w = strtoull(line + 2, &end, 16);
        if (end != line + 18 || (*end != ' ' && *end != '\n'))
            continue;  /* control-list lines carry 8 hex digits */
        n++;
        if (!same_text((uint64_t)w, end))
            ++*mismatches;
    }
    fclose(f);
    return n;
}

static void test_capture_listings(void)
{
    static const char *const patterns[] = { "../shared/traces/vc4/*.run.log",
                                            "../shared/traces/ext/vc4/*.run.log" };
    unsigned words = 0, files = 0, mismatches = 0;
    for (unsigned p = 0; p < 2; p++) {
        glob_t gl;
        if (glob(patterns[p], 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            unsigned n = check_listing(gl.gl_pathv[i], &mismatches);
            CU_ASSERT(n > 0);
            words += n;
            files++;
        }
        globfree(&gl);
    }
    if (!files) {
        printf("\n  [vc4_disasm] ../shared/traces/{,ext/}vc4/*.run.log absent: capture comparison "
               "skipped (embedded pairs still run) ");
        return;
    }
    printf("\n  [vc4_disasm] %u/%u capture words equal Mesa's text (%u listings) ",
           words - mismatches, words, files);
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* Word builders from the seed's layout (Fig 3 @70261, Table 1 @72071; Fig 5, 6, 7). */
static uint64_t alu(unsigned sig, unsigned unpack, unsigned pm, unsigned pack, unsigned cond_add,
                    unsigned cond_mul, unsigned sf, unsigned ws, unsigned waddr_add,
                    unsigned waddr_mul, unsigned op_mul, unsigned op_add, unsigned raddr_a,
                    unsigned raddr_b, unsigned add_a, unsigned add_b, unsigned mul_a,
                    unsigned mul_b)
{
    return (uint64_t)sig << 60 | (uint64_t)unpack << 57 | (uint64_t)pm << 56 |
           (uint64_t)pack << 52 | (uint64_t)cond_add << 49 | (uint64_t)cond_mul << 46 |
           (uint64_t)sf << 45 | (uint64_t)ws << 44 | (uint64_t)waddr_add << 38 |
           (uint64_t)waddr_mul << 32 | (uint64_t)op_mul << 29 | (uint64_t)op_add << 24 |
           (uint64_t)raddr_a << 18 | (uint64_t)raddr_b << 12 | (uint64_t)add_a << 9 |
           (uint64_t)add_b << 6 | (uint64_t)mul_a << 3 | (uint64_t)mul_b;
}

static uint64_t imm(unsigned type, unsigned cond_add, unsigned cond_mul, unsigned ws,
                    unsigned waddr_add, unsigned waddr_mul, uint32_t value)
{
    return (uint64_t)14 << 60 | (uint64_t)type << 57 | (uint64_t)cond_add << 49 |
           (uint64_t)cond_mul << 46 | (uint64_t)ws << 44 | (uint64_t)waddr_add << 38 |
           (uint64_t)waddr_mul << 32 | value;
}

static uint64_t branch(unsigned cond, int32_t target)
{
    return (uint64_t)15 << 60 | (uint64_t)cond << 52 | (uint64_t)1 << 51 | (uint64_t)39 << 38 |
           (uint64_t)39 << 32 | (uint32_t)target;
}

static void test_hand_built(void)
{
    /* branches: cond suffix (Table 11), "always" prints none, reserved prints ??? */
    CU_ASSERT_TRUE(same_text(branch(6, -48), "branch.any_ns -48"));
    CU_ASSERT_TRUE(same_text(branch(15, 16), "branch 16"));
    CU_ASSERT_TRUE(same_text(branch(9, 8), "branch.all_cc 8"));
    CU_ASSERT_TRUE(same_text(branch(13, 0), "branch??? 0"));
    /* semaphore and the other sig-14 forms print as load_imm; conditions only on real dsts */
    CU_ASSERT_TRUE(same_text(imm(4, 0, 0, 0, 39, 39, 0x19), "load_imm nop, nop, 0x00000019 (0.000000)"));
    CU_ASSERT_TRUE(same_text(imm(0, 2, 0, 0, 32, 33, 0x3f800000u),
                             "load_imm r0.zs, r1.never, 0x3f800000 (1.000000)"));
    CU_ASSERT_TRUE(same_text(imm(1, 1, 1, 1, 49, 5, 0xbf800000u),
                             "load_imm vw_setup, ra5, 0xbf800000 (-1.000000)"));
    /* signals print before the add op (Table 4) */
    CU_ASSERT_TRUE(same_text(alu(10, 0, 0, 0, 0, 0, 0, 0, 39, 39, 0, 0, 39, 39, 0, 0, 0, 0),
                             "load_tmu0 nop nop, r0, r0 ; nop nop, r0, r0"));
    CU_ASSERT_TRUE(same_text(alu(6, 0, 0, 0, 0, 0, 0, 0, 39, 39, 0, 0, 39, 39, 0, 0, 0, 0),
                             "sig_thread_switch nop nop, r0, r0 ; nop nop, r0, r0"));
    CU_ASSERT_TRUE(same_text(alu(0, 0, 0, 0, 0, 0, 0, 0, 39, 39, 0, 0, 39, 39, 0, 0, 0, 0),
                             "sig_brk nop nop, r0, r0 ; nop nop, r0, r0"));
    /* pm=0: saturating pack on the A write, unpack on the A read */
    CU_ASSERT_TRUE(same_text(alu(1, 1, 0, 9, 1, 0, 0, 0, 5, 39, 0, 12, 3, 39, 6, 1, 0, 0),
                             "add ra5.16a.sat, ra3.16a, r1 ; nop nop, r0, r0"));
    /* pm=1: unpack applies to r4 */
    CU_ASSERT_TRUE(same_text(alu(1, 4, 1, 0, 1, 0, 0, 0, 34, 39, 0, 1, 39, 39, 4, 0, 0, 0),
                             "fadd r2, r4.8a, r0 ; nop nop, r0, r0"));
    /* small immediate: rotation shows on mul accumulator inputs; -1; 1/256 */
    CU_ASSERT_TRUE(same_text(alu(13, 0, 0, 0, 0, 1, 0, 0, 39, 35, 1, 0, 39, 50, 0, 0, 0, 1),
                             "sig_small_imm nop nop, r0, r0 ; fmul r3, r0+2, r1+2"));
    CU_ASSERT_TRUE(same_text(alu(13, 0, 0, 0, 1, 0, 0, 0, 32, 39, 0, 12, 39, 31, 1, 7, 0, 0),
                             "sig_small_imm add r0, r1, -1 ; nop nop, r0, r0"));
    CU_ASSERT_TRUE(same_text(alu(13, 0, 0, 0, 0, 1, 0, 0, 39, 33, 1, 0, 39, 40, 0, 0, 2, 7),
                             "sig_small_imm nop nop, r0, r0 ; fmul r1, r2, 0.003906"));
    CU_ASSERT_TRUE(same_text(alu(13, 0, 0, 0, 1, 0, 0, 0, 32, 39, 0, 12, 39, 48, 1, 7, 0, 0),
                             "sig_small_imm add r0, r1, <bad imm 48> ; nop nop, r0, r0"));
    /* sf shows on the mul when the add is a nop; B write 47 has no name */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 0, 1, 1, 0, 39, 47, 1, 0, 39, 39, 0, 0, 0, 1),
                             "nop nop, r0, r0 ; fmul.sf b47?, r0, r1"));
    /* sf and condition on the add; an unmapped read prints ??? */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 3, 0, 1, 0, 32, 39, 0, 21, 33, 39, 6, 6, 0, 0),
                             "mov.sf.zc r0, ??? ; nop nop, r0, r0"));
    /* reserved add opcode */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 1, 0, 0, 0, 32, 39, 0, 9, 39, 39, 0, 0, 0, 0),
                             "??? r0, r0, r0 ; nop nop, r0, r0"));
    /* ws=1: mul writes A and takes the A pack; add writes B */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 8, 0, 1, 0, 1, 39, 7, 4, 0, 39, 39, 0, 0, 3, 3),
                             "nop nop, r0, r0 ; mov ra7.sat, r3"));
    /* A/B specific reads and writes (Table 14) */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 1, 0, 0, 0, 33, 39, 0, 21, 39, 41, 7, 7, 0, 0),
                             "mov r1, y_pix ; nop nop, r0, r0"));
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 1, 0, 0, 0, 41, 39, 0, 21, 38, 39, 6, 6, 0, 0),
                             "mov quad_x, elem ; nop nop, r0, r0"));
    CU_ASSERT_TRUE(same_text(alu(1, 0, 0, 0, 1, 0, 0, 1, 41, 39, 0, 21, 39, 38, 7, 7, 0, 0),
                             "mov quad_y, qpu ; nop nop, r0, r0"));
    /* reserved mul pack (pm=1, Table 9) */
    CU_ASSERT_TRUE(same_text(alu(1, 0, 1, 1, 0, 1, 0, 0, 39, 32, 1, 0, 39, 39, 0, 0, 0, 1),
                             "nop nop, r0, r0 ; fmul r0???, r0, r1"));
}

static void test_random_words(void)
{
    uint64_t x = 0x0123456789abcdefull;
    char buf[256];
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t n = vc4_qpu_disasm(x, buf, sizeof buf);
        CU_ASSERT_FATAL(n > 0 && n < sizeof buf);
        CU_ASSERT_EQUAL_FATAL(strlen(buf), n);
        /* a short buffer is truncated, terminated, and the full length still returned */
        char small[8];
        CU_ASSERT_EQUAL_FATAL(vc4_qpu_disasm(x, small, sizeof small), n);
        CU_ASSERT_EQUAL_FATAL(strlen(small), 7);
    }
}

static char *write_temp(const char *name, const void *data, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_temp_dir(), name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(data, 1, len, f);
    fclose(f);
    return path;
}

static void test_file_reader(void)
{
    /* text: only "0x" + 16 hex digit lines count (control-list lines have 8 digits) */
    const char *text = "GL_RENDERER: VC4\n"
                       "0x100009e7009e7000 nop nop, r0, r0 ; nop nop, r0, r0\n"
                       "0x00000010 0x00000010: 0x06 Start Tile Binning\n"
                       "0x300009E7009E7000\n"
                       "0x300009e7009e70001 too long\n";
    uint64_t *w;
    size_t n;
    struct gt_error err = { { 0 } };
    CU_ASSERT_EQUAL_FATAL(vc4_load_qpu_file(write_temp("t.log", text, strlen(text)), &w, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 2);
    if (n == 2) {
        CU_ASSERT_EQUAL(w[0], 0x100009e7009e7000ull);
        CU_ASSERT_EQUAL(w[1], 0x300009e7009e7000ull);
    }
    free(w);
    /* raw little-endian words */
    const uint8_t raw[16] = { 0x00, 0x1a, 0x80, 0x00, 0x67, 0x4c, 0x02, 0xe0,
                              0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x30 };
    CU_ASSERT_EQUAL_FATAL(vc4_load_qpu_file(write_temp("t.bin", raw, 16), &w, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 2);
    if (n == 2) {
        CU_ASSERT_EQUAL(w[0], 0xe0024c6700801a00ull);
        CU_ASSERT_EQUAL(w[1], 0x300009e7009e7000ull);
    }
    free(w);
    /* neither: an error, not a crash */
    CU_ASSERT_EQUAL(vc4_load_qpu_file(write_temp("t.bad", "hello", 5), &w, &n, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "t.bad"));
    CU_ASSERT_EQUAL(vc4_load_qpu_file("/nonexistent/x", &w, &n, &err), -1);
}

static void test_cli(void)
{
    const char *text = "0xe0024c6700801a00 load_imm vr_setup, nop, 0x00801a00 (0.000000)\n"
                       "0x300009e7009e7000 sig_end nop nop, r0, r0 ; nop nop, r0, r0\n";
    char *path = strdup(write_temp("cli.log", text, strlen(text)));
    char *out_buf = NULL, *err_buf = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&out_buf, &out_len);
    FILE *errf = open_memstream(&err_buf, &err_len);
    char *argv[] = { "disasm", "--isa", "vc4", "--words", path, NULL };
    int rc = eu_disasm_main(5, argv, out, errf);
    fclose(out);
    fclose(errf);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(out_buf, text);
    CU_ASSERT_EQUAL(err_len, 0);
    free(out_buf);
    free(err_buf);

    /* an illegal instruction: listed with its problem, exit status 1 */
    uint8_t raw[8];
    uint64_t bad = alu(1, 0, 0, 0, 1, 0, 0, 0, 52, 56, 0, 21, 39, 39, 0, 0, 0, 0);
    for (int i = 0; i < 8; i++)
        raw[i] = (uint8_t)(bad >> (8 * i));
    char *bin = strdup(write_temp("cli.bin", raw, 8));
    out = open_memstream(&out_buf, &out_len);
    errf = open_memstream(&err_buf, &err_len);
    char *argv2[] = { "disasm", "--isa", "vc4", bin, NULL };
    rc = eu_disasm_main(4, argv2, out, errf);
    fclose(out);
    fclose(errf);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "mov sfu_recip, r0 ; nop tmu0_s, r0, r0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out_buf, "illegal: peripherals"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "1 illegal"));
    free(out_buf);
    free(err_buf);

    /* an unknown instruction set: a one-line error, usage status 2 */
    out = open_memstream(&out_buf, &out_len);
    errf = open_memstream(&err_buf, &err_len);
    char *argv3[] = { "disasm", "--isa", "arm", bin, NULL };
    rc = eu_disasm_main(4, argv3, out, errf);
    fclose(out);
    fclose(errf);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_EQUAL(out_len, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err_buf, "--isa needs 'intel' or 'vc4'"));
    free(out_buf);
    free(err_buf);
    free(bin);
    free(path);
}

static const struct test_case cases[] = {
    { "word/text pairs from the captures", test_embedded_pairs },
    { "every word of the capture listings (skips without ../shared)", test_capture_listings },
    { "hand-built words in Mesa's format", test_hand_built },
    { "random words give text and never crash", test_random_words },
    { "program file reader: listings and raw words", test_file_reader },
    { "gtsim disasm --isa vc4", test_cli },
    { 0 }
};
TEST_SUITE(vc4_disasm, cases);
