/* isa/vc4/qpu_disasm.c - VideoCore IV QPU disassembler (see qpu_disasm.h).
 *
 * Text format facts (names, which suffixes print where, number formats) were read from
 * Mesa's vc4_qpu_disasm.c (MIT); the code is ours. Where Mesa has no name for a code it
 * prints "???" (reads, opcodes, pack codes) or "a<N>?"/"b<N>?" (writes); so do we.
 */
#include "isa/vc4/qpu_disasm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/file.h"

struct text {
    char *buf;
    size_t size;
    size_t len;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = t->len < t->size ? t->buf + t->len : NULL;
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n = vsnprintf(at, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}

static const char *or_unknown(const char *s)
{
    return s ? s : "???";
}

static float float_of_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Destination of the add (is_mul false) or mul ALU, with its pack suffix. */
static void put_dst(struct text *t, const struct vc4_qpu_instr *in, bool is_mul)
{
    bool file_a = vc4_qpu_writes_a(in, is_mul);
    unsigned waddr = is_mul ? in->waddr_mul : in->waddr_add;
    if (waddr < 32) {
        put(t, "r%c%u", file_a ? 'a' : 'b', waddr);
    } else {
        const struct vc4_register *r = &vc4_register[waddr - 32];
        const char *name = file_a ? r->mesa_write_a : r->mesa_write_b;
        if (name)
            put(t, "%s", name);
        else
            put(t, "%c%u?", file_a ? 'a' : 'b', waddr);
    }
    /* pm=1 packs the mul output (Table 9); pm=0 packs regfile-A writes (Table 7). */
    if (is_mul && in->pm)
        put(t, "%s", or_unknown(vc4_pack_mul_mesa[in->pack]));
    else if (file_a && !in->pm)
        put(t, "%s", or_unknown(vc4_pack_a_mesa[in->pack]));
}

/* One ALU input through its mux (Table 3 @74901), with the unpack suffix. */
static void put_src(struct text *t, const struct vc4_qpu_instr *in, unsigned mux, bool is_mul)
{
    bool small = in->format == VC4_FORMAT_ALU_SMALL_IMM;
    if (mux <= VC4_MUX_R5) {
        put(t, "r%u", mux);
        if (small && is_mul && vc4_small_imm[in->small_imm].kind == VC4_SMALL_IMM_ROTATE)
            put(t, "+%d", vc4_small_imm[in->small_imm].rotate);
    } else if (mux == VC4_MUX_RB && small) {
        const struct vc4_small_imm *si = &vc4_small_imm[in->small_imm];
        if (!si->print)
            put(t, "<bad imm %u>", in->small_imm);
        else if (si->kind == VC4_SMALL_IMM_INT)
            put(t, si->print, (int)(int32_t)si->bits);
        else
            put(t, si->print, (double)float_of_bits(si->bits));
    } else {
        bool file_a = mux == VC4_MUX_RA;
        unsigned raddr = file_a ? in->raddr_a : in->raddr_b;
        if (raddr < 32) {
            put(t, "r%c%u", file_a ? 'a' : 'b', raddr);
        } else {
            const struct vc4_register *r = &vc4_register[raddr - 32];
            put(t, "%s", or_unknown(file_a ? r->mesa_read_a : r->mesa_read_b));
        }
    }
    /* pm=0 unpacks regfile-A reads (Table 6), pm=1 unpacks r4 (Table 8, erratum E1). */
    if ((mux == VC4_MUX_RA && !in->pm) || (mux == VC4_MUX_R4 && in->pm))
        put(t, "%s", or_unknown(vc4_unpack_mesa[in->unpack]));
}

static void put_alu(struct text *t, const struct vc4_qpu_instr *in, bool is_mul)
{
    unsigned op = is_mul ? in->op_mul : in->op_add;
    unsigned a = is_mul ? in->mul_a : in->add_a, b = is_mul ? in->mul_b : in->add_b;
    bool is_mov = is_mul ? (op == VC4_MUL_OP_V8MIN && a == b) : (op == VC4_ADD_OP_OR && a == b);
    put(t, "%s", is_mov ? "mov" : or_unknown(is_mul ? vc4_mul_op_name[op] : vc4_add_op_name[op]));
    /* sf shows on the ALU that sets the flags: the add ALU unless it is a nop (Table 1) */
    if (in->sf && (is_mul ? in->op_add == VC4_ADD_OP_NOP : op != VC4_ADD_OP_NOP))
        put(t, ".sf");
    if (op != 0)
        put(t, "%s", or_unknown(vc4_cond_mesa[is_mul ? in->cond_mul : in->cond_add]));
    put(t, " ");
    put_dst(t, in, is_mul);
    put(t, ", ");
    put_src(t, in, a, is_mul);
    if (!is_mov) {
        put(t, ", ");
        put_src(t, in, b, is_mul);
    }
}

size_t vc4_qpu_disasm(uint64_t word, char *buf, size_t size)
{
    struct text t = { buf, size, 0 };
    if (size)
        buf[0] = 0;
    struct vc4_qpu_instr in;
    vc4_qpu_decode(word, &in);
    switch (in.format) {
    case VC4_FORMAT_BRANCH:
        put(&t, "branch%s %d", or_unknown(vc4_branch_cond_mesa[in.cond_br]), (int32_t)in.immediate);
        break;
    case VC4_FORMAT_LOAD_IMM_32:
    case VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED:
    case VC4_FORMAT_LOAD_IMM_PER_ELMT_UNSIGNED:
    case VC4_FORMAT_SEMAPHORE:
    case VC4_FORMAT_LOAD_IMM_RESERVED:
        /* Mesa prints every sig-14 word as a 32-bit load immediate */
        put(&t, "load_imm ");
        put_dst(&t, &in, false);
        if (in.waddr_add != VC4_WADDR_A_NOP)
            put(&t, "%s", or_unknown(vc4_cond_mesa[in.cond_add]));
        put(&t, ", ");
        put_dst(&t, &in, true);
        if (in.waddr_mul != VC4_WADDR_A_NOP)
            put(&t, "%s", or_unknown(vc4_cond_mesa[in.cond_mul]));
        put(&t, ", 0x%08x (%f)", in.immediate, (double)float_of_bits(in.immediate));
        break;
    case VC4_FORMAT_ALU:
    case VC4_FORMAT_ALU_SMALL_IMM:
        if (in.sig != VC4_SIG_NONE)
            put(&t, "%s ", or_unknown(vc4_sig_mesa[in.sig]));
        put_alu(&t, &in, false);
        put(&t, " ; ");
        put_alu(&t, &in, true);
        break;
    }
    return t.len;
}

static bool is_hex(int c)
{
    return isxdigit((unsigned char)c) != 0;
}

/* Text if the file has no NUL byte and at least one "0x" + 16 hex digits line. */
static size_t parse_text(const char *b, size_t len, uint64_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && b[end] != '\n')
            end++;
        if (end - i >= 18 && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            bool ok = true;
            uint64_t w = 0;
            for (size_t k = 0; k < 16; k++) {
                char c = b[i + 2 + k];
                if (!is_hex(c)) {
                    ok = false;
                    break;
                }
                w = w << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
            }
            if (ok && (end - i == 18 || isspace((unsigned char)b[i + 18]))) {
                if (out)
                    out[n] = w;
                n++;
            }
        }
        i = end + 1;
    }
    return n;
}

int vc4_load_qpu_file(const char *path, uint64_t **words, size_t *count, struct gt_error *err)
{
    *words = NULL;
    *count = 0;
    uint8_t *raw;
    size_t used;
    if (gt_read_file(path, 64u << 20, &raw, &used, err) != 0)
        return -1;
    char *b = (char *)raw;
    bool text = memchr(b, 0, used) == NULL;
    size_t n = text ? parse_text(b, used, NULL) : 0;
    if (n > 0) {
        *words = malloc(n * sizeof **words);
        if (!*words) {
            free(b);
            return gt_error_set(err, "out of memory");
        }
        parse_text(b, used, *words);
    } else {
        if (used == 0 || used % 8 != 0) {
            free(b);
            return gt_error_set(err, "%s: no \"0x<16 hex digits>\" lines and %zu bytes are not "
                                "whole 64-bit words", path, used);
        }
        n = used / 8;
        *words = malloc(n * sizeof **words);
        if (!*words) {
            free(b);
            return gt_error_set(err, "out of memory");
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t w = 0;
            for (int k = 7; k >= 0; k--)
                w = w << 8 | (uint8_t)b[i * 8 + (size_t)k];
            (*words)[i] = w;
        }
    }
    free(b);
    *count = n;
    return 0;
}

void vc4_qpu_disasm_words(const uint64_t *words, size_t count, FILE *out, bool offsets,
                          bool show_words, struct vc4_disasm_stats *stats)
{
    struct vc4_disasm_stats st = { 0, 0 };
    char line[256];
    for (size_t i = 0; i < count; i++) {
        vc4_qpu_disasm(words[i], line, sizeof line);
        if (offsets)
            fprintf(out, "%6zu: ", i * 8);
        if (show_words)
            fprintf(out, "0x%016llx ", (unsigned long long)words[i]);
        fputs(line, out);
        struct vc4_qpu_instr in;
        vc4_qpu_decode(words[i], &in);
        st.instructions++;
        if (in.illegal) {
            st.illegal++;
            fputs("   ; illegal:", out);
            for (unsigned k = 0; k < VC4_ILLEGAL_COUNT; k++)
                if (in.illegal & (1u << k))
                    fprintf(out, " %s", vc4_illegal_name(1u << k));
        }
        fputc('\n', out);
    }
    if (stats)
        *stats = st;
}
