/* tests/units/test_eu_decode.c - the EU decoder against independent disassemblers.
 *
 *  - kernels assembled by intel-gen4asm (tests/data/eu/alu.genN.g4a, gen 4/7/8/9) decode
 *    to the instructions intel-gen4disasm prints for the same words;
 *  - the shader kernels of the AUB captures (tests/data/eu/aub, extracted by
 *    scripts/eu_extract_aub_kernels.py) decode to the instructions Mesa's aubinator
 *    printed for them, compacted instructions included;
 *  - compaction round trips, and bad input gives counted illegal instructions.
 *
 * Both listings are reduced to key=value fields by scripts/eu_normalize.py at build
 * time (mk/eu.mk); the decoded instruction is spelled the same way below, with
 * spelling tables written from the PRM (seed 003 L22879-22995 field encodings,
 * L19469-19486 ARF numbers), not taken from spec/eu.
 */
#define _XOPEN_SOURCE 700
#include "../test.h"

#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"

#define EU_KV_MAX 32

struct eu_kv {
    unsigned n;
    char key[EU_KV_MAX][16];
    char val[EU_KV_MAX][64];
};


static void kv_add(struct eu_kv *kv, const char *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void kv_add(struct eu_kv *kv, const char *k, const char *fmt, ...)
{
    if (kv->n >= EU_KV_MAX)
        return;
    snprintf(kv->key[kv->n], sizeof kv->key[0], "%s", k);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(kv->val[kv->n], sizeof kv->val[0], fmt, ap);
    va_end(ap);
    kv->n++;
}

/* 003 L22879-22995: CondModifier 0001b .z ... 1001b .u (0111b: gen4 .r). */
static const char *const cond_names[16] = { NULL, "z", "nz", "g", "ge", "l", "le", "r", "o", "u" };
/* 003 L22879-22995: PredCtrl, align1 and align16 spellings. */
static const char *const pred1[16] = { NULL, NULL, "anyv", "allv", "any2h", "all2h", "any4h",
                                       "all4h", "any8h", "all8h", "any16h", "all16h", "any32h", "all32h" };
static const char *const pred16[16] = { NULL, NULL, "x", "y", "z", "w", "any4h", "all4h" };
/* 003 L19469-19486: ARF RegNum[7:4]. */
static const char *const arf[16] = { "null", "a", "acc", "f", "mask", "ms", "sp", "sr", "cr", "n",
                                     "ip", "tdr", "tm", "fc", "?", "?" };
static const char *const math_names[16] = { NULL, "inv", "log", "exp", "sqrt", "rsq", "sin",
                                            "cos", "sincos", "fdiv", "pow", "intdivmod", "intdiv",
                                            "intmod", "invm", "rsqrtm" };

static const char *type_str(uint8_t t)
{
    static const char *const n[] = { "?", "UD", "D", "UW", "W", "UB", "B", "DF", "F",
                                      "UQ", "Q", "HF", "UV", "VF", "V" };
    return t < sizeof n / sizeof n[0] ? n[t] : "?";
}

static unsigned type_bytes(uint8_t t)
{
    const char *s = type_str(t);
    if (!strcmp(s, "UB") || !strcmp(s, "B")) return 1;
    if (!strcmp(s, "UW") || !strcmp(s, "W") || !strcmp(s, "HF")) return 2;
    if (!strcmp(s, "DF") || !strcmp(s, "UQ") || !strcmp(s, "Q")) return 8;
    return 4;
}

static void operand(const struct eu_instruction *in, const struct eu_operand *o, bool dst,
                    char *buf, size_t n)
{
    static const char xyzw[] = "xyzw";
    size_t l = 0;
#define P(...) (l += (size_t)snprintf(buf + (l < n ? l : n), l < n ? n - l : 0, __VA_ARGS__))
    if (o->file == EU_FILE_IMM) {
        uint64_t v = o->imm;
        const char *t = type_str(o->type);
        if (!strcmp(t, "W") || !strcmp(t, "UW"))
            v &= 0xffff;
        else if (type_bytes(o->type) != 8)
            v &= 0xffffffffu;
        P("imm:%s:0x%llx", t, (unsigned long long)v);
        return;
    }
    if (o->file == EU_FILE_ARF && (o->reg_nr >> 4) == 0) {
        P("null");
        return;
    }
    if (o->negate)
        P("-");
    if (o->abs)
        P("(abs)");
    unsigned sub = o->subreg_nr / type_bytes(o->type);
    if (o->file == EU_FILE_GRF)
        P("g%u.%u", o->reg_nr, sub);
    else if (o->file == EU_FILE_MRF)
        P("m%u.%u", o->reg_nr & 0x7f, sub);
    else
        P("%s%u.%u", arf[o->reg_nr >> 4], o->reg_nr & 15, sub);
    P(":%s", type_str(o->type));
    if (in->is_3src) {
        if (dst)
            P(".%s%s%s%s", o->writemask & 1 ? "x" : "", o->writemask & 2 ? "y" : "",
              o->writemask & 4 ? "z" : "", o->writemask & 8 ? "w" : "");
        return;
    }
    if (in->is_split_send)
        return;
    if (dst)
        P("<%u>", o->hstride);
    else if (in->access_mode == 1)
        P("<%u>", o->vstride);
    else
        P("<%u,%u,%u>", o->vstride, o->width, o->hstride);
    if (in->access_mode == 1) {
        if (dst)
            P(".%s%s%s%s", o->writemask & 1 ? "x" : "", o->writemask & 2 ? "y" : "",
              o->writemask & 4 ? "z" : "", o->writemask & 8 ? "w" : "");
        else
            P(".%c%c%c%c", xyzw[o->swizzle[0] & 3], xyzw[o->swizzle[1] & 3],
              xyzw[o->swizzle[2] & 3], xyzw[o->swizzle[3] & 3]);
    }
#undef P
}

static void eu_test_fields(const struct eu_instruction *in, struct eu_kv *kv)
{
    char b[64];
    kv->n = 0;
    if (in->illegal || !in->mnemonic) {
        kv_add(kv, "op", "illegal");
        return;
    }
    snprintf(b, sizeof b, "%s", in->mnemonic);
    if (in->is_math)
        snprintf(b + strlen(b), sizeof b - strlen(b), ".%s",
                 math_names[in->math_function & 15] ? math_names[in->math_function & 15] : "?");
    if (in->saturate)
        snprintf(b + strlen(b), sizeof b - strlen(b), ".sat");
    if (in->cond_modifier && !in->is_send && !in->is_math)
        snprintf(b + strlen(b), sizeof b - strlen(b), ".%s",
                 cond_names[in->cond_modifier & 15] ? cond_names[in->cond_modifier & 15] : "?");
    kv_add(kv, "op", "%s", b);
    kv_add(kv, "es", "%u", in->exec_size);
    if (in->pred_control) {
        const char *m = in->access_mode ? pred16[in->pred_control & 15] : pred1[in->pred_control & 15];
        kv_add(kv, "pred", "%cf%u.%u%s%s", in->pred_inv ? '-' : '+', in->flag_reg_nr,
               in->flag_subreg_nr, m ? "." : "", m ? m : "");
    }
    if (in->cond_modifier && !in->is_send && !in->is_math)
        kv_add(kv, "cflag", "f%u.%u", in->flag_reg_nr, in->flag_subreg_nr);
    if (in->has_dst && in->dst.present) {
        operand(in, &in->dst, true, b, sizeof b);
        kv_add(kv, "dst", "%s", b);
    }
    static const char *const sk[3] = { "src0", "src1", "src2" };
    for (unsigned i = 0; i < in->nsrc && i < 3; i++) {
        operand(in, &in->src[i], false, b, sizeof b);
        kv_add(kv, sk[i], "%s", b);
    }
    if (in->is_math && in->nsrc == 1)
        kv_add(kv, "src1", "null");
    if (in->is_send) {
        /* Mesa prints DWord 3 for send/sendc (descriptor with EOT; reference/eu
         * native-fields.txt [send]) and, for sends, Desc[30:0] and the extended
         * descriptor without its SFID (3:0) and EOT (5) bits */
        if (!in->desc_is_reg)
            kv_add(kv, "desc", "0x%x", in->is_split_send ? in->desc : in->native[3]);
        if (in->is_split_send && !in->ex_desc_is_reg)
            kv_add(kv, "exdesc", "0x%x", in->ex_desc & ~0x2fu);
        kv_add(kv, "mlen", "%u", in->mlen);
        kv_add(kv, "rlen", "%u", in->rlen);
        if (in->is_split_send)
            kv_add(kv, "ex_mlen", "%u", in->ex_mlen);
        if (in->gen == 4)
            kv_add(kv, "base_mrf", "%u", in->base_mrf);
        const char *msg = eu_send_message_name(in);
        uint32_t v;
        if (msg)
            kv_add(kv, "msg", "%s", msg);
        if (eu_send_desc_field(in, DESC_F_BINDING_TABLE, &v))
            kv_add(kv, "bti", "%u", v);
        if (eu_send_desc_field(in, in->gen == 4 ? DESC_F_OFFSET : DESC_F_GLOBAL_OFFSET, &v))
            kv_add(kv, "urb_offset", "%u", v);
    }
    if (in->has_jip)
        kv_add(kv, "jip", "%d", in->jip);
    if (in->has_uip)
        kv_add(kv, "uip", "%d", in->uip);
    if (in->has_jump_count) {
        kv_add(kv, "jump", "%d", in->jump_count);
        kv_add(kv, "pop", "%u", in->pop_count);
    }
    kv_add(kv, "access", "%s", in->access_mode ? "align16" : "align1");
    kv_add(kv, "we_all", "%u", in->mask_control);
    /* quarter control spelling (Mesa / intel-gen4disasm): gen4 compr/sechalf; gen6+
     * 1N..8N below 8 channels, 1Q..4Q at 8, 1H/2H at 16 (003 L22921-22940). */
    if (in->gen == 4) {
        kv_add(kv, "qtr", "%s", in->qtr_control == 1 ? "sechalf" : in->qtr_control == 2 ? "compr" : "-");
    } else if (in->exec_size < 8 || in->nib_control) {
        kv_add(kv, "qtr", "%uN", in->qtr_control * 2u + in->nib_control + 1u);
    } else if (in->exec_size == 8) {
        kv_add(kv, "qtr", "%uQ", in->qtr_control + 1u);
    } else if (in->exec_size == 16) {
        kv_add(kv, "qtr", "%s", in->qtr_control < 2 ? "1H" : "2H");
    } else {
        kv_add(kv, "qtr", "-");
    }
    kv_add(kv, "eot", "%u", in->is_send && in->eot ? 1u : 0u);
    kv_add(kv, "dd", "%s", in->no_dd_clear ? (in->no_dd_check ? "both" : "NoDDClr")
                                           : (in->no_dd_check ? "NoDDChk" : "-"));
    kv_add(kv, "thr", "%s", in->thread_control == 1 ? "atomic" : in->thread_control == 2 ? "switch" : "-");
    kv_add(kv, "compacted", "%u", in->compacted ? 1u : 0u);
}

static unsigned eu_test_compare(const char *where, const char *expected_line,
                         const struct eu_instruction *in, bool ignore_compacted)
{
    struct eu_kv kv;
    eu_test_fields(in, &kv);
    unsigned bad = 0;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", expected_line);
    for (char *save = NULL, *tok = strtok_r(tmp, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *k = tok, *v = eq + 1;
        if (ignore_compacted && !strcmp(k, "compacted"))
            continue;
        /* the tools omit the quarter control in different cases: "-" is no claim on gen6+ */
        if (!strcmp(k, "qtr") && !strcmp(v, "-") && in->gen != 4)
            continue;
        const char *got = NULL;
        for (unsigned i = 0; i < kv.n; i++)
            if (!strcmp(kv.key[i], k))
                got = kv.val[i];
        if (!got || strcmp(got, v) != 0) {
            fprintf(stderr, "%s: %s expected '%s', decoded '%s'\n", where, k, v, got ? got : "(none)");
            bad++;
        }
    }
    return bad;
}

static char *eu_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    size_t k;
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    if (len)
        *len = n;
    return b;
}

static unsigned eu_test_lines(char *text, char **lines, unsigned max)
{
    unsigned n = 0;
    char *p = text;
    while (*p && n < max) {
        char *e = strchr(p, '\n');
        if (e)
            *e = 0;
        if (*p)
            lines[n++] = p;
        if (!e)
            break;
        p = e + 1;
    }
    return n;
}

static unsigned eu_test_check_kernel(int gen, const char *kernel_path, const char *norm_path,
                              unsigned *ninsn, unsigned *ncompact)
{
    struct gt_error err = { { 0 } };
    uint8_t *bytes = NULL;
    size_t len = 0;
    *ninsn = *ncompact = 0;
    if (eu_load_kernel_file(kernel_path, &bytes, &len, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    char *norm = eu_test_read_file(norm_path, NULL);
    if (!norm) {
        fprintf(stderr, "%s: missing (built by mk/eu.mk)\n", norm_path);
        free(bytes);
        return 1;
    }
    char *lines[1024];
    unsigned nl = eu_test_lines(norm, lines, 1024);
    unsigned bad = 0, i = 0;
    size_t off = 0;
    while (off < len) {
        struct eu_instruction in;
        size_t k = eu_decode(gen, bytes + off, len - off, &in);
        if (k == 0) {
            fprintf(stderr, "%s: truncated at byte %zu\n", kernel_path, off);
            bad++;
            break;
        }
        if (i < nl && strcmp(lines[i], "skip") != 0) {
            char where[512];
            snprintf(where, sizeof where, "%s instruction %u", kernel_path, i);
            bad += eu_test_compare(where, lines[i], &in, false);
        }
        *ncompact += in.compacted;
        i++;
        off += k;
    }
    if (i != nl) {
        fprintf(stderr, "%s: decoded %u instructions, listing has %u\n", kernel_path, i, nl);
        bad++;
    }
    *ninsn = i;
    free(norm);
    free(bytes);
    return bad;
}

/* ---- kernels assembled by intel-gen4asm vs intel-gen4disasm ------------------ */

static void check_corpus(int gen)
{
    char hex[128], norm[128];
    snprintf(hex, sizeof hex, "build/gen/eu/alu.gen%d.hex", gen);
    snprintf(norm, sizeof norm, "build/gen/eu/alu.gen%d.norm", gen);
    unsigned n, c;
    unsigned bad = eu_test_check_kernel(gen, hex, norm, &n, &c);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(n >= 24); /* every line of tests/data/eu/alu.genN.g4a */
    CU_ASSERT_EQUAL(c, 0); /* intel-gen4asm does not compact */
}

static void test_corpus_gen4(void) { check_corpus(4); }
static void test_corpus_gen7(void) { check_corpus(7); }
static void test_corpus_gen8(void) { check_corpus(8); }
static void test_corpus_gen9(void) { check_corpus(9); }

/* ---- kernels of the AUB captures vs aubinator --------------------------------- */

static int gen_of_path(const char *path)
{
    const char *g = strstr(path, ".gen");
    return g ? atoi(g + 4) : 0;
}

static void test_aub_kernels(void)
{
    glob_t gl;
    CU_ASSERT_EQUAL_FATAL(glob("tests/data/eu/aub/*.bin", 0, NULL, &gl), 0);
    unsigned kernels[10] = { 0 }, insns[10] = { 0 }, compacted[10] = { 0 }, bad = 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *bin = gl.gl_pathv[i];
        int gen = gen_of_path(bin);
        CU_ASSERT_FATAL(gen >= 4 && gen <= 9);
        const char *base = strrchr(bin, '/') + 1;
        char norm[256];
        snprintf(norm, sizeof norm, "build/gen/eu/aub/%.*s.norm", (int)(strlen(base) - 4), base);
        unsigned n, c;
        bad += eu_test_check_kernel(gen, bin, norm, &n, &c);
        kernels[gen]++;
        insns[gen] += n;
        compacted[gen] += c;
    }
    globfree(&gl);
    CU_ASSERT_EQUAL(bad, 0);
    /* The kernels of the captures (shared/reference/eu/README.md, "Verification"):
     * gen4 51 instructions in 3 kernels; gen7 40 in 6 (16 compact); gen8 38 in 5
     * (23 compact); gen9 64 in 8 (33 compact). */
    CU_ASSERT_EQUAL(kernels[4], 3); CU_ASSERT_EQUAL(insns[4], 51); CU_ASSERT_EQUAL(compacted[4], 0);
    CU_ASSERT_EQUAL(kernels[7], 6); CU_ASSERT_EQUAL(insns[7], 40); CU_ASSERT_EQUAL(compacted[7], 16);
    CU_ASSERT_EQUAL(kernels[8], 5); CU_ASSERT_EQUAL(insns[8], 38); CU_ASSERT_EQUAL(compacted[8], 23);
    CU_ASSERT_EQUAL(kernels[9], 8); CU_ASSERT_EQUAL(insns[9], 64); CU_ASSERT_EQUAL(compacted[9], 33);
}

/* ---- compaction ------------------------------------------------------------------- */

/* Every compact instruction of the captures: expanding and compacting again gives the
 * driver's 8 bytes back. Every native instruction the tables can express: compacting
 * it and decoding the compact form still matches the independent listing. */
static unsigned roundtrip_kernel(int gen, const char *bin, const char *norm_path,
                                 unsigned *n_recompacted, unsigned *n_compactable)
{
    struct gt_error err = { { 0 } };
    uint8_t *bytes;
    size_t len;
    if (eu_load_kernel_file(bin, &bytes, &len, &err) != 0)
        return 1;
    char *norm = eu_test_read_file(norm_path, NULL);
    char *lines[1024];
    unsigned nl = norm ? eu_test_lines(norm, lines, 1024) : 0, bad = norm ? 0 : 1;
    size_t off = 0;
    for (unsigned i = 0; off < len; i++) {
        struct eu_instruction in;
        size_t k = eu_decode(gen, bytes + off, len - off, &in);
        if (!k)
            break;
        uint32_t c[2];
        if (in.compacted) {
            int r = eu_compact(gen, in.native, c);
            CU_ASSERT_EQUAL(r, 0);
            uint8_t cb[8];
            for (unsigned j = 0; j < 8; j++)
                cb[j] = (uint8_t)(c[j / 4] >> (8 * (j % 4)));
            if (r != 0 || memcmp(cb, bytes + off, 8) != 0) {
                fprintf(stderr, "%s instruction %u: recompaction differs\n", bin, i);
                bad++;
            }
            (*n_recompacted)++;
        } else if (eu_compact(gen, in.native, c) == 0) {
            uint8_t cb[8];
            for (unsigned j = 0; j < 8; j++)
                cb[j] = (uint8_t)(c[j / 4] >> (8 * (j % 4)));
            struct eu_instruction ci;
            CU_ASSERT_EQUAL(eu_decode(gen, cb, 8, &ci), 8);
            CU_ASSERT(ci.compacted);
            CU_ASSERT_EQUAL(memcmp(ci.native, in.native, 16), 0);
            if (i < nl && strcmp(lines[i], "skip") != 0) {
                char where[300];
                snprintf(where, sizeof where, "%s instruction %u (compacted by gtsim)", bin, i);
                bad += eu_test_compare(where, lines[i], &ci, true);
            }
            (*n_compactable)++;
        }
        off += k;
    }
    free(norm);
    free(bytes);
    return bad;
}

static void test_compaction_roundtrip(void)
{
    unsigned recompacted = 0, compactable = 0, bad = 0;
    glob_t gl;
    CU_ASSERT_EQUAL_FATAL(glob("tests/data/eu/aub/*.bin", 0, NULL, &gl), 0);
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *bin = gl.gl_pathv[i];
        const char *base = strrchr(bin, '/') + 1;
        char norm[256];
        snprintf(norm, sizeof norm, "build/gen/eu/aub/%.*s.norm", (int)(strlen(base) - 4), base);
        bad += roundtrip_kernel(gen_of_path(bin), bin, norm, &recompacted, &compactable);
    }
    globfree(&gl);
    unsigned corpus_compactable = 0;
    for (int gen = 7; gen <= 9; gen++) {
        char hex[64], norm[64];
        snprintf(hex, sizeof hex, "build/gen/eu/alu.gen%d.hex", gen);
        snprintf(norm, sizeof norm, "build/gen/eu/alu.gen%d.norm", gen);
        unsigned before = compactable;
        bad += roundtrip_kernel(gen, hex, norm, &recompacted, &compactable);
        CU_ASSERT(compactable > before); /* each corpus has compactable instructions */
        corpus_compactable += compactable - before;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(recompacted, 16 + 23 + 33);
    CU_ASSERT(corpus_compactable >= 6);
}

/* Gen4 has no compact form (compaction starts with gen6; native-fields.txt
 * cmpt_control "must be 0 on gen4"). */
static void test_no_compaction_gen4(void)
{
    uint32_t n[4] = { 0x00600001, 0x206003be, 0x0000008c, 0 }, c[2] = { 0x20000001, 0 };
    CU_ASSERT_EQUAL(eu_compact(4, n, c), -1);
    CU_ASSERT_EQUAL(eu_uncompact(4, c, n, NULL), -1);
    uint8_t b[16] = { 0x01, 0x00, 0x60, 0x20 }; /* bit 29 set: still 16 bytes on gen4 */
    CU_ASSERT_EQUAL(eu_instruction_size(4, b, 16), 16);
    CU_ASSERT_EQUAL(eu_instruction_size(9, b, 16), 8);
    struct eu_instruction in;
    CU_ASSERT_EQUAL(eu_decode(4, b, 16, &in), 16);
    CU_ASSERT(in.illegal && !in.compacted);
}

/* Gen8/Gen9 compact 3-source instructions. No capture holds one, so each entry of the
 * 4-entry tables is checked against what the reference's "decoded" column says it
 * means (shared/reference/eu/compaction-gen8.txt and -gen9.txt [3src-control-index],
 * [3src-source-index]); the compact fields are placed by [compact-3src-layout]. */
static void test_compact_3src(void)
{
    static const struct { unsigned es, qtr; bool we_all; } ctl[4] = {
        { 8, 0, true }, { 8, 0, false }, { 16, 0, false }, { 16, 2, false },
    };
    for (int gen = 8; gen <= 9; gen++) {
        for (unsigned ci = 0; ci < 4; ci++) {
            for (unsigned si = 0; si < 4; si++) {
                uint64_t c = 0x5b;                      /* mad, 6:0 */
                c |= (uint64_t)ci << 8;                 /* control index 9:8 */
                c |= (uint64_t)si << 10;                /* source index 11:10 */
                c |= (uint64_t)9 << 12;                 /* dst reg 18:12 */
                c |= 1ull << 29;                        /* CmptCtrl */
                c |= 1ull << 32;                        /* src1 RepCtrl */
                c |= (uint64_t)3 << 37;                 /* src1 subreg 39:37 (dwords) */
                c |= (uint64_t)4 << 43;                 /* src0 reg 49:43 */
                c |= (uint64_t)5 << 50;                 /* src1 reg 56:50 */
                c |= (uint64_t)127 << 57;               /* src2 reg 63:57 */
                uint8_t b[8];
                for (unsigned j = 0; j < 8; j++)
                    b[j] = (uint8_t)(c >> (8 * j));
                struct eu_instruction in;
                CU_ASSERT_EQUAL_FATAL(eu_decode(gen, b, 8, &in), 8);
                CU_ASSERT(!in.illegal);
                CU_ASSERT(in.compacted && in.is_3src);
                CU_ASSERT_STRING_EQUAL(in.mnemonic, "mad");
                CU_ASSERT_EQUAL(in.access_mode, 1);
                CU_ASSERT_EQUAL(in.exec_size, ctl[ci].es);
                CU_ASSERT_EQUAL(in.qtr_control, ctl[ci].qtr);
                CU_ASSERT_EQUAL(in.mask_control, ctl[ci].we_all);
                CU_ASSERT_EQUAL(in.pred_control, 0);
                CU_ASSERT_EQUAL(in.dst.reg_nr, 9);
                CU_ASSERT_EQUAL(in.dst.writemask, 0xf);
                CU_ASSERT_EQUAL(in.dst.type, EU_TYPE_F);
                CU_ASSERT_EQUAL(in.src[0].reg_nr, 4);
                CU_ASSERT_EQUAL(in.src[1].reg_nr, 5);
                CU_ASSERT_EQUAL(in.src[2].reg_nr, 127);
                CU_ASSERT(!in.src[0].rep_ctrl && in.src[1].rep_ctrl && !in.src[2].rep_ctrl);
                CU_ASSERT_EQUAL(in.src[1].subreg_nr, 12);
                for (unsigned k = 0; k < 3; k++) {
                    CU_ASSERT_EQUAL(in.src[k].type, EU_TYPE_F);
                    CU_ASSERT_EQUAL(in.src[k].negate, si == k + 1);
                    CU_ASSERT(!in.src[k].abs);
                    CU_ASSERT(in.src[k].swizzle[0] == 0 && in.src[k].swizzle[1] == 1 &&
                              in.src[k].swizzle[2] == 2 && in.src[k].swizzle[3] == 3);
                }
                /* and back */
                uint32_t back[2];
                CU_ASSERT_EQUAL(eu_compact(gen, in.native, back), 0);
                CU_ASSERT_EQUAL(back[0], (uint32_t)c);
                CU_ASSERT_EQUAL(back[1], (uint32_t)(c >> 32));
            }
        }
    }
    /* Gen7 has no 3-source compaction: a compact mad is not expanded as one. */
    uint8_t b[8] = { 0x5b, 0, 0, 0x20, 0, 0, 0, 0 };
    struct eu_instruction in;
    CU_ASSERT_EQUAL(eu_decode(7, b, 8, &in), 8);
    CU_ASSERT(in.compacted);
    CU_ASSERT(in.illegal);
}

/* ---- fields placed by hand from the PRM layout ------------------------------------ */

static void setb(uint32_t w[4], unsigned hi, unsigned lo, uint32_t v)
{
    for (unsigned b = lo; b <= hi; b++, v >>= 1) {
        if (v & 1)
            w[b / 32] |= 1u << (b % 32);
        else
            w[b / 32] &= ~(1u << (b % 32));
    }
}

static void to_bytes(const uint32_t w[4], uint8_t b[16])
{
    for (unsigned i = 0; i < 16; i++)
        b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

/* Register-indirect operands, gen9: 003 L22738-22812 (Indirect Align1 column:
 * src0 76:73 AddrSubRegNum, 72:64 AddrImm[8:0], 95 AddrImm[9]; dst 60:57, 56:48, 47). */
static void test_indirect_gen9(void)
{
    uint32_t w[4] = { 0 };
    setb(w, 6, 0, 0x01);       /* mov */
    setb(w, 23, 21, 3);        /* exec size 8 */
    setb(w, 36, 35, 1);        /* dst GRF */
    setb(w, 40, 37, 7);        /* dst F */
    setb(w, 42, 41, 1);        /* src0 GRF */
    setb(w, 46, 43, 7);        /* src0 F */
    setb(w, 63, 63, 1);        /* dst indirect */
    setb(w, 60, 57, 3);        /* dst a0.3 */
    setb(w, 56, 48, 0x40);     /* dst +64 */
    setb(w, 62, 61, 1);        /* dst <1> */
    setb(w, 79, 79, 1);        /* src0 indirect */
    setb(w, 76, 73, 1);        /* a0.1 */
    setb(w, 72, 64, 0x1e0);    /* -32 = 0x3e0 in 10 bits: [9] = 1, [8:0] = 0x1e0 */
    setb(w, 95, 95, 1);
    setb(w, 88, 85, 4);        /* <8;8,1> */
    setb(w, 84, 82, 3);
    setb(w, 81, 80, 1);
    uint8_t b[16];
    to_bytes(w, b);
    struct eu_instruction in;
    CU_ASSERT_EQUAL_FATAL(eu_decode(9, b, 16, &in), 16);
    CU_ASSERT(!in.illegal);
    CU_ASSERT(in.dst.indirect);
    CU_ASSERT_EQUAL(in.dst.addr_subreg_nr, 3);
    CU_ASSERT_EQUAL(in.dst.addr_imm, 64);
    CU_ASSERT(in.src[0].indirect);
    CU_ASSERT_EQUAL(in.src[0].addr_subreg_nr, 1);
    CU_ASSERT_EQUAL(in.src[0].addr_imm, -32);
    CU_ASSERT_EQUAL(in.src[0].vstride, 8);
    CU_ASSERT_EQUAL(in.src[0].width, 8);
    CU_ASSERT_EQUAL(in.src[0].hstride, 1);
    char line[256];
    eu_disasm(&in, line, sizeof line);
    CU_ASSERT(strstr(line, "g[a0.3 64]<1>F") != NULL);
    CU_ASSERT(strstr(line, "g[a0.1 -32]<8,8,1>F") != NULL);
}

/* Gen7 indirect: src0 AddrSubRegNum 76:74, AddrImm 73:64 (10 bits, one piece);
 * shared/reference/eu/native-fields.txt (gen7 is not in the seeds). VxH region =
 * VertStride 1111b (003 L22879-22995). */
static void test_indirect_gen7(void)
{
    uint32_t w[4] = { 0 };
    setb(w, 6, 0, 0x01);
    setb(w, 23, 21, 3);
    setb(w, 33, 32, 1);        /* dst GRF */
    setb(w, 36, 34, 7);        /* dst F */
    setb(w, 38, 37, 1);        /* src0 GRF */
    setb(w, 41, 39, 7);        /* src0 F */
    setb(w, 60, 53, 2);        /* g2 */
    setb(w, 62, 61, 1);
    setb(w, 79, 79, 1);
    setb(w, 76, 74, 2);        /* a0.2 */
    setb(w, 73, 64, 0x3fc);    /* -4 */
    setb(w, 88, 85, 15);       /* VxH */
    setb(w, 84, 82, 0);        /* width 1 */
    setb(w, 81, 80, 0);
    uint8_t b[16];
    to_bytes(w, b);
    struct eu_instruction in;
    CU_ASSERT_EQUAL_FATAL(eu_decode(7, b, 16, &in), 16);
    CU_ASSERT(!in.illegal);
    CU_ASSERT_EQUAL(in.dst.reg_nr, 2);
    CU_ASSERT(in.src[0].indirect);
    CU_ASSERT_EQUAL(in.src[0].addr_subreg_nr, 2);
    CU_ASSERT_EQUAL(in.src[0].addr_imm, -4);
    CU_ASSERT_EQUAL(in.src[0].vstride, EU_VSTRIDE_VXH);
    CU_ASSERT_EQUAL(in.src[0].width, 1);
}

/* 64-bit immediates (gen8+): Imm64 in 127:64 for one-source instructions (003
 * L22738-22812 "127:64 Imm64 (1-src DF/Q/UQ)"); DF immediate type code 10
 * (notes/003-skl-sharedfn-eu.md section 11.3 [EXT], Mesa). */
static void test_imm64(void)
{
    uint32_t w[4] = { 0 };
    setb(w, 6, 0, 0x01);
    setb(w, 23, 21, 2);        /* exec size 4 */
    setb(w, 36, 35, 1);
    setb(w, 40, 37, 6);        /* dst DF (register code 6) */
    setb(w, 42, 41, 3);        /* src0 IMM */
    setb(w, 46, 43, 10);       /* DF immediate */
    setb(w, 60, 53, 2);
    setb(w, 62, 61, 1);
    w[2] = 0x00000000;
    w[3] = 0x3ff00000;         /* 1.0 */
    uint8_t b[16];
    to_bytes(w, b);
    struct eu_instruction in;
    CU_ASSERT_EQUAL_FATAL(eu_decode(8, b, 16, &in), 16);
    CU_ASSERT(!in.illegal);
    CU_ASSERT_EQUAL(in.dst.type, EU_TYPE_DF);
    CU_ASSERT_EQUAL(in.src[0].type, EU_TYPE_DF);
    CU_ASSERT_EQUAL(in.src[0].imm, 0x3ff0000000000000ull);
    char line[256];
    eu_disasm(&in, line, sizeof line);
    CU_ASSERT(strstr(line, "0x3ff0000000000000DF /* 1DF */") != NULL);
    /* the same code on gen7 is not an immediate type (3-bit codes): illegal */
    CU_ASSERT_EQUAL(eu_decode(7, b, 16, &in), 16);
    CU_ASSERT(in.illegal);
}

/* send with the descriptor in a0.0 (003 L24339: "<desc> ... register operand" must be
 * a0.0<0;1,0>:ud): src1 RegFile ARF, RegNum 0x10 = a0 (003 L19469-19486); SFID 27:24,
 * EOT 127 (003 L22815-22878). */
static void test_send_register_desc(void)
{
    uint32_t w[4] = { 0 };
    setb(w, 6, 0, 0x31);       /* send */
    setb(w, 23, 21, 3);
    setb(w, 27, 24, 10);       /* SFID: data cache */
    setb(w, 36, 35, 1);        /* dst GRF */
    setb(w, 40, 37, 2);        /* UW */
    setb(w, 60, 53, 20);
    setb(w, 62, 61, 1);
    setb(w, 42, 41, 1);        /* src0 GRF */
    setb(w, 46, 43, 0);        /* UD */
    setb(w, 76, 69, 12);
    setb(w, 90, 89, 0);        /* src1 ARF */
    setb(w, 94, 91, 0);        /* UD */
    setb(w, 108, 101, 0x10);   /* a0 */
    uint8_t b[16];
    to_bytes(w, b);
    struct eu_instruction in;
    CU_ASSERT_EQUAL_FATAL(eu_decode(9, b, 16, &in), 16);
    CU_ASSERT(!in.illegal);
    CU_ASSERT(in.is_send && in.desc_is_reg && !in.eot);
    CU_ASSERT_EQUAL(in.sfid, 10);
    CU_ASSERT_EQUAL(in.dst.reg_nr, 20);
    CU_ASSERT_EQUAL(in.src[0].reg_nr, 12);
    uint32_t v;
    CU_ASSERT(!eu_send_desc_field(&in, DESC_F_BINDING_TABLE, &v));
    char line[256];
    eu_disasm(&in, line, sizeof line);
    CU_ASSERT(strstr(line, " a0.0 dp_data_cache") != NULL);
}

/* Field accessors: every field of every generation reads back what was written,
 * including the split fields (AddrImm[9] apart from AddrImm[8:0] on gen8+). */
static void test_field_roundtrip(void)
{
    static const int gens[] = { 4, 7, 8, 9 };
    for (unsigned g = 0; g < 4; g++) {
        for (int f = 0; f < EU_F_COUNT; f++) {
            uint32_t w[4] = { 0 };
            const struct eu_field_pos *p = &eu_field_table[eu_gen_index(gens[g])][f];
            unsigned width = 0;
            for (unsigned i = 0; i < p->npieces; i++)
                width += (unsigned)(p->piece[i].hi - p->piece[i].lo + 1);
            if (!width)
                continue;
            uint64_t v = 0x5a5a5a5a5a5a5a5aull & (width >= 64 ? ~0ull : (1ull << width) - 1);
            eu_field_set(gens[g], (enum eu_field)f, w, v);
            CU_ASSERT_EQUAL(eu_field_get(gens[g], (enum eu_field)f, w), v);
        }
    }
    /* gen8 dst AddrImm: [9] at bit 47, [8:0] at 56:48 (003 L22738-22812) */
    uint32_t w[4] = { 0 };
    eu_field_set(8, EU_F_DST_IA1_ADDR_IMM, w, 0x201);
    CU_ASSERT_EQUAL(w[1], (1u << 15) | (1u << 16));
}

/* ---- bad input ------------------------------------------------------------------------ */

static void put32(uint8_t *b, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void test_truncated(void)
{
    uint8_t b[16] = { 0x01, 0x00, 0x60, 0x00 };
    struct eu_instruction in;
    CU_ASSERT_EQUAL(eu_decode(9, b, 15, &in), 0);
    CU_ASSERT_EQUAL(eu_decode(9, b, 7, &in), 0);
    CU_ASSERT_EQUAL(eu_decode(9, b, 0, &in), 0);
    CU_ASSERT_EQUAL(eu_decode(9, b, 16, &in), 16);
    CU_ASSERT_EQUAL(eu_decode(5, b, 16, &in), 0);  /* generation not modelled */
    CU_ASSERT_EQUAL(eu_gen_index(6), -1);
    b[3] = 0x20; /* compact: 8 bytes are enough */
    CU_ASSERT_EQUAL(eu_decode(9, b, 8, &in), 8);
}

static void test_illegal_opcodes(void)
{
    /* A plain "mov(8) g2<1>F g3<8,8,1>F" (intel-gen4asm -g 9 output), opcode replaced. */
    static const uint32_t mov9[4] = { 0x00600001, 0x20403ae8, 0x008d0060, 0x00000000 };
    static const uint32_t mov4[4] = { 0x00600001, 0x206003be, 0x0000008c, 0x00000000 };
    static const uint32_t mov7[4] = { 0x00600001, 0x204003bd, 0x008d0060, 0x00000000 };
    struct { int gen; uint8_t opcode; bool legal; } cases[] = {
        { 9, 0x01, true }, { 9, 0x00, false }, { 9, 0x0b, false }, { 9, 0x7f, false },
        { 9, 0x33, true },                       /* sends: gen9 (003 L23093-23096) */
        { 8, 0x33, false }, { 7, 0x33, false },
        { 4, 0x5a, false }, { 7, 0x5a, true },   /* pln: G45+, not the 965G */
        { 4, 0x5b, false }, { 7, 0x5b, true },   /* mad: gen6+ */
        { 8, 0x13, false }, { 7, 0x13, true },   /* f32to16: gen7 only */
        { 7, 0x2b, false }, { 8, 0x2b, true },   /* calla: Haswell+ */
        { 4, 0x38, false },                      /* math: a message on gen4 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[16];
        const uint32_t *src = cases[i].gen == 4 ? mov4 : cases[i].gen == 7 ? mov7 : mov9;
        for (unsigned w = 0; w < 4; w++)
            put32(b + 4 * w, src[w]);
        b[0] = cases[i].opcode;
        struct eu_instruction in;
        CU_ASSERT_EQUAL(eu_decode(cases[i].gen, b, 16, &in), 16);
        if (in.illegal == cases[i].legal)
            fprintf(stderr, "gen%d opcode 0x%02x: illegal=%d\n", cases[i].gen, cases[i].opcode, in.illegal);
        CU_ASSERT_EQUAL(in.illegal, !cases[i].legal);
        char line[256];
        CU_ASSERT(eu_disasm(&in, line, sizeof line) > 0);
    }
}

static void test_reserved_fields(void)
{
    static const uint32_t mov9[4] = { 0x00600001, 0x20403ae8, 0x008d0060, 0x00000000 };
    uint8_t b[16];
    struct eu_instruction in;
    /* ExecSize 110b/111b reserved (003 L22879-22995: 000b=1 ... 101b=32). */
    for (unsigned w = 0; w < 4; w++)
        put32(b + 4 * w, mov9[w]);
    b[2] = (uint8_t)((b[2] & ~0xe0) | (6 << 5));
    CU_ASSERT_EQUAL(eu_decode(9, b, 16, &in), 16);
    CU_ASSERT(in.illegal);
    /* Gen8+ register type 11 is immediate-only (HF imm); 12..15 reserved. */
    for (unsigned w = 0; w < 4; w++)
        put32(b + 4 * w, mov9[w]);
    uint32_t dw1 = mov9[1] | (0xfu << 5); /* dst type 40:37 = 15 */
    put32(b + 4, dw1);
    CU_ASSERT_EQUAL(eu_decode(9, b, 16, &in), 16);
    CU_ASSERT(in.illegal);
    /* Gen4 register type 6 (DF) exists from gen7 only. */
    static const uint32_t mov4[4] = { 0x00600001, 0x206003be, 0x0000008c, 0x00000000 };
    for (unsigned w = 0; w < 4; w++)
        put32(b + 4 * w, mov4[w]);
    put32(b + 4, (mov4[1] & ~(7u << 2)) | (6u << 2)); /* dst type 36:34 */
    CU_ASSERT_EQUAL(eu_decode(4, b, 16, &in), 16);
    CU_ASSERT(in.illegal);
    /* Compact bit 28 is reserved (compaction-gen9.txt [compact-layout]). */
    uint8_t c[8] = { 0x01, 0x00, 0x00, 0x30, 0, 0, 0, 0 };
    CU_ASSERT_EQUAL(eu_decode(9, c, 8, &in), 8);
    CU_ASSERT(in.illegal);
    CU_ASSERT(in.compacted);
    c[3] = 0x20;
    CU_ASSERT_EQUAL(eu_decode(9, c, 8, &in), 8);
    CU_ASSERT(!in.illegal);
    CU_ASSERT_STRING_EQUAL(in.mnemonic, "mov");
}

/* Decoding and printing arbitrary bytes never crashes (run under ASan/UBSan by
 * `make test-san`); every word is consumed as 8 or 16 bytes. */
static void test_random_bytes(void)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    uint8_t buf[4096];
    for (size_t i = 0; i < sizeof buf; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        buf[i] = (uint8_t)s;
    }
    static const int gens[] = { 4, 7, 8, 9 };
    for (unsigned g = 0; g < 4; g++) {
        size_t off = 0;
        unsigned n = 0, illegal = 0;
        while (off < sizeof buf) {
            struct eu_instruction in;
            size_t k = eu_decode(gens[g], buf + off, sizeof buf - off, &in);
            if (!k)
                break;
            CU_ASSERT(k == 8 || k == 16);
            char line[512];
            eu_disasm(&in, line, sizeof line);
            char tiny[8];
            eu_disasm(&in, tiny, sizeof tiny);
            CU_ASSERT(strlen(tiny) < sizeof tiny);
            n++;
            illegal += in.illegal;
            off += k;
        }
        CU_ASSERT(n > 200);
        CU_ASSERT(illegal > 0);
    }
}

/* The generated opcode and conditional-modifier constants (build/gen/eu_spec.h, from
 * spec/eu/opcodes.txt) against the encodings typed here from the sources: the gen9
 * opcode table, 003 L23026-23160 (hex), with while = 0x27 from the summary L23696; the
 * gen4-only opcodes from Mesa brw_eu_defines.h (BRW_OPCODE_DO 38, MSAVE 44, MREST 45,
 * PUSH 46, POP 47); the conditional modifiers, 003 L20846-20895 (0000b none ... 1001b
 * .u). Each constant is also the opcode of that mnemonic in the decoder's table on a
 * generation that has it. */
static void test_opcode_constants(void)
{
    static const struct { unsigned value, expected; const char *mnemonic; int gen; } ops[] = {
        { EU_OPCODE_ILLEGAL, 0x00, "illegal", 9 }, { EU_OPCODE_MOV, 0x01, "mov", 9 },
        { EU_OPCODE_SEL, 0x02, "sel", 9 }, { EU_OPCODE_MOVI, 0x03, "movi", 9 },
        { EU_OPCODE_NOT, 0x04, "not", 9 }, { EU_OPCODE_AND, 0x05, "and", 9 },
        { EU_OPCODE_OR, 0x06, "or", 9 }, { EU_OPCODE_XOR, 0x07, "xor", 9 },
        { EU_OPCODE_SHR, 0x08, "shr", 9 }, { EU_OPCODE_SHL, 0x09, "shl", 9 },
        { EU_OPCODE_SMOV, 0x0a, "smov", 9 }, { EU_OPCODE_ASR, 0x0c, "asr", 9 },
        { EU_OPCODE_CMP, 0x10, "cmp", 9 }, { EU_OPCODE_CMPN, 0x11, "cmpn", 9 },
        { EU_OPCODE_CSEL, 0x12, "csel", 9 }, { EU_OPCODE_BFREV, 0x17, "bfrev", 9 },
        { EU_OPCODE_BFE, 0x18, "bfe", 9 }, { EU_OPCODE_BFI1, 0x19, "bfi1", 9 },
        { EU_OPCODE_BFI2, 0x1a, "bfi2", 9 }, { EU_OPCODE_JMPI, 0x20, "jmpi", 9 },
        { EU_OPCODE_BRD, 0x21, "brd", 9 }, { EU_OPCODE_IF, 0x22, "if", 9 },
        { EU_OPCODE_BRC, 0x23, "brc", 9 }, { EU_OPCODE_ELSE, 0x24, "else", 9 },
        { EU_OPCODE_ENDIF, 0x25, "endif", 9 }, { EU_OPCODE_WHILE, 0x27, "while", 9 },
        { EU_OPCODE_BREAK, 0x28, "break", 9 }, { EU_OPCODE_CONT, 0x29, "cont", 9 },
        { EU_OPCODE_HALT, 0x2a, "halt", 9 }, { EU_OPCODE_CALLA, 0x2b, "calla", 9 },
        { EU_OPCODE_CALL, 0x2c, "call", 9 }, { EU_OPCODE_RET, 0x2d, "ret", 9 },
        { EU_OPCODE_GOTO, 0x2e, "goto", 9 }, { EU_OPCODE_JOIN, 0x2f, "join", 9 },
        { EU_OPCODE_WAIT, 0x30, "wait", 9 }, { EU_OPCODE_SEND, 0x31, "send", 9 },
        { EU_OPCODE_SENDC, 0x32, "sendc", 9 }, { EU_OPCODE_SENDS, 0x33, "sends", 9 },
        { EU_OPCODE_SENDSC, 0x34, "sendsc", 9 }, { EU_OPCODE_MATH, 0x38, "math", 9 },
        { EU_OPCODE_ADD, 0x40, "add", 9 }, { EU_OPCODE_MUL, 0x41, "mul", 9 },
        { EU_OPCODE_AVG, 0x42, "avg", 9 }, { EU_OPCODE_FRC, 0x43, "frc", 9 },
        { EU_OPCODE_RNDU, 0x44, "rndu", 9 }, { EU_OPCODE_RNDD, 0x45, "rndd", 9 },
        { EU_OPCODE_RNDE, 0x46, "rnde", 9 }, { EU_OPCODE_RNDZ, 0x47, "rndz", 9 },
        { EU_OPCODE_MAC, 0x48, "mac", 9 }, { EU_OPCODE_MACH, 0x49, "mach", 9 },
        { EU_OPCODE_LZD, 0x4a, "lzd", 9 }, { EU_OPCODE_FBH, 0x4b, "fbh", 9 },
        { EU_OPCODE_FBL, 0x4c, "fbl", 9 }, { EU_OPCODE_CBIT, 0x4d, "cbit", 9 },
        { EU_OPCODE_ADDC, 0x4e, "addc", 9 }, { EU_OPCODE_SUBB, 0x4f, "subb", 9 },
        { EU_OPCODE_SAD2, 0x50, "sad2", 9 }, { EU_OPCODE_SADA2, 0x51, "sada2", 9 },
        { EU_OPCODE_DP4, 0x54, "dp4", 9 }, { EU_OPCODE_DPH, 0x55, "dph", 9 },
        { EU_OPCODE_DP3, 0x56, "dp3", 9 }, { EU_OPCODE_DP2, 0x57, "dp2", 9 },
        { EU_OPCODE_LINE, 0x59, "line", 9 }, { EU_OPCODE_PLN, 0x5a, "pln", 9 },
        { EU_OPCODE_MAD, 0x5b, "mad", 9 }, { EU_OPCODE_LRP, 0x5c, "lrp", 9 },
        { EU_OPCODE_MADM, 0x5d, "madm", 9 }, { EU_OPCODE_NOP, 0x7e, "nop", 9 },
        { EU_OPCODE_DO, 38, "do", 4 }, { EU_OPCODE_MSAVE, 44, "msave", 4 },
        { EU_OPCODE_MREST, 45, "mrest", 4 }, { EU_OPCODE_PUSH, 46, "push", 4 },
        { EU_OPCODE_POP, 47, "pop", 4 },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        CU_ASSERT_EQUAL(ops[i].value, ops[i].expected);
        CU_ASSERT_TRUE(ops[i].value < EU_OPCODE_COUNT);
        const char *m = eu_opcode_table[eu_gen_index(ops[i].gen)][ops[i].value].mnemonic;
        CU_ASSERT_TRUE(m && strcmp(m, ops[i].mnemonic) == 0);
    }
    CU_ASSERT_EQUAL(EU_OPCODE_COUNT, 128);      /* a 7-bit field, 003 L23013 */
    static const unsigned cond[][2] = {
        { EU_COND_MOD_NONE, 0 }, { EU_COND_MOD_Z, 1 }, { EU_COND_MOD_NZ, 2 },
        { EU_COND_MOD_G, 3 }, { EU_COND_MOD_GE, 4 }, { EU_COND_MOD_L, 5 },
        { EU_COND_MOD_LE, 6 }, { EU_COND_MOD_R, 7 }, { EU_COND_MOD_O, 8 }, { EU_COND_MOD_U, 9 },
    };
    for (size_t i = 0; i < sizeof cond / sizeof cond[0]; i++)
        CU_ASSERT_EQUAL(cond[i][0], cond[i][1]);
}

static const struct test_case cases[] = {
    { "opcode and conditional-modifier constants", test_opcode_constants },
    { "gen4 kernel assembled by intel-gen4asm decodes like intel-gen4disasm", test_corpus_gen4 },
    { "gen7 kernel assembled by intel-gen4asm decodes like intel-gen4disasm", test_corpus_gen7 },
    { "gen8 kernel assembled by intel-gen4asm decodes like intel-gen4disasm", test_corpus_gen8 },
    { "gen9 kernel assembled by intel-gen4asm decodes like intel-gen4disasm", test_corpus_gen9 },
    { "capture kernels decode like aubinator, compacted ones included", test_aub_kernels },
    { "compaction round trips on driver and assembled kernels", test_compaction_roundtrip },
    { "gen4 has no compact form", test_no_compaction_gen4 },
    { "gen8/gen9 compact 3-source instructions expand per the tables", test_compact_3src },
    { "gen9 register-indirect operands", test_indirect_gen9 },
    { "gen7 register-indirect VxH operand", test_indirect_gen7 },
    { "gen8 64-bit immediate", test_imm64 },
    { "gen9 send with the descriptor in a0.0", test_send_register_desc },
    { "field accessors round trip, split fields included", test_field_roundtrip },
    { "truncated input consumes nothing", test_truncated },
    { "opcodes outside a generation decode as illegal", test_illegal_opcodes },
    { "reserved field values decode as illegal", test_reserved_fields },
    { "random bytes decode and print without crashing", test_random_bytes },
    { 0 }
};

TEST_SUITE(eu_decode, cases);
