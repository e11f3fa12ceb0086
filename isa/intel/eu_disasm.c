/* isa/intel/eu_disasm.c - one line per decoded EU instruction, in a syntax close to
 * intel-gen4disasm and Mesa's disassembler (the column layout, register and type
 * spellings, and the "{ align1 1Q ... }" option block follow those tools' output as
 * seen in tests/data/eu/ and the aubinator listings).
 */
#include "isa/intel/eu_isa.h"

#include <stdarg.h>
#include <string.h>

struct out {
    char *buf;
    size_t n, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->n ? o->n - o->len : 0;
    int k = vsnprintf(o->buf + (room ? o->len : 0), room, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->len += (size_t)k;
}

static void pad(struct out *o, size_t col)
{
    if (o->len < col)
        put(o, "%*s", (int)(col - o->len), "");
    else
        put(o, " ");
}

static const char *arf_name(int gen, unsigned nr)
{
    const char *n = gen == 4 ? eu_arf_names_gen4[(nr >> 4) & 15] : eu_arf_names_gen9[(nr >> 4) & 15];
    return n ? n : "arf?";
}

/* ARF: reg_nr[7:4] = type, [3:0] = number (opcodes.txt [arf]; 003 L19469-19486). */
static void put_reg_name(struct out *o, int gen, const struct eu_operand *r)
{
    unsigned ts = eu_type_size((enum eu_type)r->type);
    unsigned sub = ts ? r->subreg_nr / ts : r->subreg_nr;
    switch (r->file) {
    case EU_FILE_GRF:
        put(o, "g%u", r->reg_nr);
        break;
    case EU_FILE_MRF:
        put(o, "m%u", r->reg_nr & 0x7f);
        break;
    default: {
        unsigned type = (r->reg_nr >> 4) & 15;
        if (type == 0) {
            put(o, "null");
            return;
        }
        const char *n = arf_name(gen, r->reg_nr);
        char base[16];
        snprintf(base, sizeof base, "%s", n);
        char *dash = strpbrk(base, "0123456789-");
        if (dash)
            *dash = 0; /* "acc0-1" -> "acc", "f0-f1" -> "f", "a0" -> "a" */
        if (type == 0x3) /* flags: subregisters are 16-bit halves */
            sub = r->subreg_nr / 2;
        put(o, "%s%u", base, r->reg_nr & 15);
        break;
    }
    }
    if (sub)
        put(o, ".%u", sub);
}

static void put_swizzle(struct out *o, const uint8_t s[4])
{
    static const char xyzw[] = "xyzw";
    if (s[0] == 0 && s[1] == 1 && s[2] == 2 && s[3] == 3)
        return;
    if (s[0] == s[1] && s[1] == s[2] && s[2] == s[3]) {
        put(o, ".%c", xyzw[s[0]]);
        return;
    }
    put(o, ".%c%c%c%c", xyzw[s[0]], xyzw[s[1]], xyzw[s[2]], xyzw[s[3]]);
}

static void put_writemask(struct out *o, unsigned m)
{
    if (m == 0xf)
        return;
    put(o, ".%s%s%s%s", m & 1 ? "x" : "", m & 2 ? "y" : "", m & 4 ? "z" : "", m & 8 ? "w" : "");
}

/* Mesa's spelling of a register-indirect operand: g[a0.N OFFSET], offset omitted when 0 */
static void put_indirect(struct out *o, const struct eu_operand *r)
{
    put(o, "g[a0.%u", r->addr_subreg_nr);
    if (r->addr_imm)
        put(o, " %d", r->addr_imm);
    put(o, "]");
}

static void put_dst(struct out *o, const struct eu_instruction *in)
{
    const struct eu_operand *d = &in->dst;
    if (in->is_split_send) {
        put_reg_name(o, in->gen, d);
        put(o, "%s", eu_type_name((enum eu_type)d->type));
        return;
    }
    if (d->indirect)
        put_indirect(o, d);
    else
        put_reg_name(o, in->gen, d);
    put(o, "<%u>", d->hstride ? d->hstride : 1);
    if (in->access_mode == 1 || in->is_3src)
        put_writemask(o, d->writemask);
    put(o, "%s", eu_type_name((enum eu_type)d->type));
}

static void put_imm(struct out *o, const struct eu_operand *s)
{
    uint32_t v = (uint32_t)s->imm;
    switch (s->type) {
    case EU_TYPE_UD: put(o, "0x%08xUD", v); break;
    case EU_TYPE_D: put(o, "%dD", (int32_t)v); break;
    case EU_TYPE_UW: put(o, "0x%04xUW", v & 0xffff); break;
    case EU_TYPE_W: put(o, "%dW", (int16_t)(v & 0xffff)); break;
    case EU_TYPE_V: put(o, "0x%08xV", v); break;
    case EU_TYPE_UV: put(o, "0x%08xUV", v); break;
    case EU_TYPE_VF: put(o, "0x%08xVF", v); break;
    case EU_TYPE_F: {
        float f;
        memcpy(&f, &v, sizeof f);
        put(o, "0x%xF /* %gF */", v, (double)f); /* Mesa: unpadded hex */
        break;
    }
    case EU_TYPE_HF: put(o, "0x%04xHF", v & 0xffff); break;
    case EU_TYPE_DF: {
        double dv;
        uint64_t q = s->imm;
        memcpy(&dv, &q, sizeof dv);
        put(o, "0x%016llxDF /* %gDF */", (unsigned long long)q, dv);
        break;
    }
    case EU_TYPE_UQ: put(o, "0x%016llxUQ", (unsigned long long)s->imm); break;
    case EU_TYPE_Q: put(o, "%lldQ", (long long)s->imm); break;
    default: put(o, "0x%08x?", v); break;
    }
}

static void put_src(struct out *o, const struct eu_instruction *in, unsigned i)
{
    const struct eu_operand *s = &in->src[i];
    if (s->file == EU_FILE_IMM) {
        put_imm(o, s);
        return;
    }
    if (s->negate)
        put(o, "-");
    if (s->abs)
        put(o, "(abs)");
    if (in->is_split_send) {
        put_reg_name(o, in->gen, s);
        put(o, "%s", eu_type_name((enum eu_type)s->type));
        return;
    }
    if (s->indirect)
        put_indirect(o, s);
    else
        put_reg_name(o, in->gen, s);
    if (s->file == EU_FILE_ARF && ((s->reg_nr >> 4) & 15) == 0) {
        /* null source: no region */
    } else if (in->is_3src) {
        put(o, s->rep_ctrl ? "<0,1,0>" : "<4,4,1>");
    } else if (in->access_mode == 1) {
        put(o, "<%u>", s->vstride);
    } else if (s->vstride == EU_VSTRIDE_VXH) {
        put(o, "<VxH,%u,%u>", s->width, s->hstride);
    } else {
        put(o, "<%u,%u,%u>", s->vstride, s->width, s->hstride);
    }
    if (in->access_mode == 1 && !(in->is_3src && s->rep_ctrl))
        put_swizzle(o, s->swizzle);
    put(o, "%s", eu_type_name((enum eu_type)s->type));
}

static void put_options(struct out *o, const struct eu_instruction *in)
{
    int gen = in->gen;
    put(o, "{ %s", in->access_mode ? "align16" : "align1");
    if (in->mask_control)
        put(o, gen == 4 ? " nomask" : " WE_all");
    if (in->no_dd_clear)
        put(o, " NoDDClr");
    if (in->no_dd_check)
        put(o, " NoDDChk");
    if (gen == 4) {
        if (in->qtr_control == 1)
            put(o, " sechalf");
        else if (in->qtr_control == 2)
            put(o, " compr");
    } else if (in->exec_size < 8 || in->nib_control) {
        put(o, " %uN", in->qtr_control * 2u + in->nib_control + 1u);
    } else if (in->exec_size == 8) {
        put(o, " %uQ", in->qtr_control + 1u);
    } else if (in->exec_size == 16) {
        put(o, in->qtr_control < 2 ? " 1H" : " 2H");
    }
    if (in->compacted)
        put(o, " compacted");
    if (in->thread_control == 1)
        put(o, " atomic");
    else if (in->thread_control == 2)
        put(o, " switch");
    if (in->acc_wr_control && gen != 4 && !in->is_branch && !in->is_send)
        put(o, " AccWrEnable");
    if (in->is_send && in->eot)
        put(o, " EOT");
    if (in->debug_control)
        put(o, " Breakpoint");
    put(o, " };");
}

int eu_disasm(const struct eu_instruction *in, char *buf, size_t n)
{
    struct out o = { buf, n, 0 };
    if (n)
        buf[0] = 0;
    int gi = eu_gen_index(in->gen);
    if (gi < 0)
        return 0;
    if (in->illegal && !in->mnemonic) {
        put(&o, "illegal(opcode 0x%02x)  /* %s */  { 0x%08x, 0x%08x, 0x%08x, 0x%08x };",
            in->opcode, in->illegal_reason ? in->illegal_reason : "illegal",
            in->native[0], in->native[1], in->native[2], in->native[3]);
        return (int)(o.len < n ? o.len : (n ? n - 1 : 0));
    }
    /* predicate: (+f0.0) / (-f1.1.anyv) (opcodes.txt [predicate-control]) */
    if (in->pred_control) {
        put(&o, "(%cf%u.%u", in->pred_inv ? '-' : '+', in->flag_reg_nr, in->flag_subreg_nr);
        const char *m = in->access_mode ? eu_pred_align16_names[in->pred_control & 15]
                                        : eu_pred_align1_names[in->pred_control & 15];
        if (in->pred_control > 1 && m)
            put(&o, ".%s", m);
        put(&o, ") ");
    }
    put(&o, "%s", in->mnemonic);
    if (in->is_math)
        put(&o, " %s", eu_math_names[gi][in->math_function & 15] ? eu_math_names[gi][in->math_function & 15] : "?");
    if (in->saturate)
        put(&o, ".sat");
    if (in->cond_modifier && !in->is_send && !in->is_math) {
        const char *c = eu_cond_mod_names[gi][in->cond_modifier & 15];
        put(&o, ".%s", c ? c : "?");
        if (!(strcmp(in->mnemonic, "sel") == 0 && gi > EU_GEN4_IDX))
            put(&o, ".f%u.%u", in->flag_reg_nr, in->flag_subreg_nr);
    }
    put(&o, "(%u)", in->exec_size);
    if (in->is_send && gi == EU_GEN4_IDX)
        put(&o, " %u", in->base_mrf);

    if (in->is_branch) {
        pad(&o, 16);
        if (in->has_jump_count)
            put(&o, "Jump: %d Pop: %u", in->jump_count, in->pop_count);
        if (in->has_jip)
            put(&o, "JIP: %d", in->jip);
        if (in->has_uip)
            put(&o, " UIP: %d", in->uip);
        pad(&o, 64);
        put_options(&o, in);
        return (int)(o.len < n ? o.len : (n ? n - 1 : 0));
    }
    size_t col = 16;
    if (in->has_dst) {
        pad(&o, col);
        put_dst(&o, in);
        col += 16;
    }
    for (unsigned i = 0; i < in->nsrc && i < 3; i++) {
        pad(&o, col);
        put_src(&o, in, i);
        col += 16;
    }
    if (in->is_send) {
        pad(&o, col);
        if (in->desc_is_reg)
            put(&o, "a0.0");
        else if (in->is_split_send)
            put(&o, "0x%08x", in->desc);
        else /* send: the whole DWord 3, as Mesa prints it */
            put(&o, "0x%08x", in->native[3]);
        if (in->is_split_send) {
            /* Mesa prints the instruction's own extended-descriptor bits (31:16, 9:6);
             * SFID and EOT are shown separately */
            if (in->ex_desc_is_reg)
                put(&o, " a0.%u", in->ex_desc_addr_subreg);
            else
                put(&o, " 0x%08x", in->ex_desc & ~(DESC_EXDESC_SFID_MASK | DESC_EXDESC_EOT_MASK));
        }
        const char *sf = eu_sfid_names[gi][in->sfid & 15];
        put(&o, " %s", sf ? sf : "sfid?");
        const char *msg = eu_send_message_name(in);
        uint32_t bti;
        if (msg)
            put(&o, " %s", msg);
        if (eu_send_desc_field(in, DESC_F_BINDING_TABLE, &bti))
            put(&o, " bti %u", bti);
        if (!in->desc_is_reg) {
            put(&o, " mlen %u", in->mlen);
            if (in->is_split_send && !in->ex_desc_is_reg)
                put(&o, " ex_mlen %u", in->ex_mlen);
            put(&o, " rlen %u", in->rlen);
        }
        col = o.len;
    }
    pad(&o, col < 64 ? 64 : col);
    put_options(&o, in);
    return (int)(o.len < n ? o.len : (n ? n - 1 : 0));
}

void eu_disasm_buffer(int gen, const uint8_t *p, size_t len, FILE *out, bool with_offsets,
                      struct eu_disasm_stats *stats)
{
    struct eu_disasm_stats st = { 0 };
    size_t off = 0;
    char line[512];
    while (off < len) {
        struct eu_instruction in;
        size_t k = eu_decode(gen, p + off, len - off, &in);
        if (k == 0) {
            st.truncated = true;
            if (out)
                fprintf(out, "/* %zu trailing bytes do not make a whole instruction */\n", len - off);
            break;
        }
        st.instructions++;
        st.compacted += in.compacted;
        st.illegal += in.illegal;
        eu_disasm(&in, line, sizeof line);
        if (out) {
            if (with_offsets)
                fprintf(out, "%06zx: ", off);
            fprintf(out, "%s\n", line);
        }
        off += k;
    }
    if (stats)
        *stats = st;
}
