/* isa/intel/eu_decode.c - native/compact EU instruction decoding.
 *
 * Field positions: spec/eu/native-fields.txt (generated into eu_field_table).
 * Encodings of the field values: spec/eu/opcodes.txt. Compact forms:
 * spec/eu/compaction-gen{7,8,9}.txt. Cross-references to the seeds are given where
 * the PRM has the fact: 003 = SKL PRM vol 7 (seed 003_59eaf1066a666480.txt),
 * 004 = BDW PRM vol 2a (seed 004_213881109442438b.txt).
 */
#include "isa/intel/eu_isa.h"

#include <string.h>

#include "msg_desc.h"

int eu_gen_index(int gen)
{
    switch (gen) {
    case 4: return EU_GEN4_IDX;
    case 7: return EU_GEN7_IDX;
    case 8: return EU_GEN8_IDX;
    case 9: return EU_GEN9_IDX;
    default: return -1;
    }
}

/* ---- bit access on the 128-bit instruction (bit n = bit n%32 of DWord n/32) ---- */

/* Bits hi..lo (at most 64) as a number, bit lo first: a DWord-sized piece at a time
 * (the same value as shifting the bits in one by one, at a few instructions a DWord). */
static uint64_t bits_get(const uint32_t w[4], unsigned hi, unsigned lo)
{
    uint64_t v = 0;
    unsigned done = 0;
    for (unsigned b = lo; b <= hi && done < 64;) {
        unsigned off = b & 31, n = 32 - off;
        if (n > hi - b + 1)
            n = hi - b + 1;
        uint64_t piece = (uint64_t)(w[b >> 5] >> off) & (n == 32 ? 0xffffffffu : ((1u << n) - 1));
        v |= piece << done;
        done += n;
        b += n;
    }
    return v;
}

static void bits_set(uint32_t w[4], unsigned hi, unsigned lo, uint64_t v)
{
    for (unsigned b = lo; b <= hi; b++, v >>= 1) {
        uint32_t m = 1u << (b & 31);
        if (v & 1)
            w[b >> 5] |= m;
        else
            w[b >> 5] &= ~m;
    }
}

static const struct eu_field_pos *field_pos(int gen, enum eu_field f)
{
    int gi = eu_gen_index(gen);
    if (gi < 0 || (unsigned)f >= EU_F_COUNT)
        return NULL;
    const struct eu_field_pos *p = &eu_field_table[gi][f];
    return p->npieces ? p : NULL;
}

uint64_t eu_field_get(int gen, enum eu_field f, const uint32_t native[4])
{
    const struct eu_field_pos *p = field_pos(gen, f);
    if (!p)
        return 0;
    if (p->npieces == 1 && p->piece[0].hi >> 5 == p->piece[0].lo >> 5) {
        /* most fields: one piece within one DWord, a shift and a mask */
        unsigned hi = p->piece[0].hi, lo = p->piece[0].lo;
        return (native[lo >> 5] >> (lo & 31)) & (0xffffffffu >> (31 - (hi - lo)));
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < p->npieces; i++) {
        unsigned w = (unsigned)(p->piece[i].hi - p->piece[i].lo + 1);
        v = (w >= 64 ? 0 : v << w) | bits_get(native, p->piece[i].hi, p->piece[i].lo);
    }
    return v;
}

void eu_field_set(int gen, enum eu_field f, uint32_t native[4], uint64_t value)
{
    const struct eu_field_pos *p = field_pos(gen, f);
    if (!p)
        return;
    for (unsigned i = p->npieces; i-- > 0;) {
        unsigned w = (unsigned)(p->piece[i].hi - p->piece[i].lo + 1);
        bits_set(native, p->piece[i].hi, p->piece[i].lo, value);
        value = w >= 64 ? 0 : value >> w;
    }
}

static unsigned field_width(int gen, enum eu_field f)
{
    const struct eu_field_pos *p = field_pos(gen, f);
    unsigned w = 0;
    for (unsigned i = 0; p && i < p->npieces; i++)
        w += (unsigned)(p->piece[i].hi - p->piece[i].lo + 1);
    return w;
}

static int64_t sext(uint64_t v, unsigned bits)
{
    if (bits == 0 || bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (1ull << bits) - 1;
    return (int64_t)((v ^ m) - m);
}

/* ---- compact form ----------------------------------------------------------- */

size_t eu_instruction_size(int gen, const uint8_t *p, size_t avail)
{
    int gi = eu_gen_index(gen);
    if (gi < 0 || avail < 8)
        return 0;
    /* CmptCtrl, bit 29 of DWord 0, the same bit in both forms
     * (compaction-gen8.txt [compact-layout]; 003 L22998). Gen4 has no compact form:
     * the bit is reserved there (native-fields.txt cmpt_control "must be 0 on gen4"). */
    bool compact = gi != EU_GEN4_IDX && ((p[3] >> 5) & 1);
    size_t size = compact ? 8 : 16;
    return avail >= size ? size : 0;
}

static uint64_t compact_u64(const uint32_t c[2])
{
    return (uint64_t)c[0] | ((uint64_t)c[1] << 32);
}

static uint64_t sub(uint64_t v, unsigned hi, unsigned lo)
{
    unsigned w = hi - lo + 1;
    return (v >> lo) & (w >= 64 ? ~0ull : ((1ull << w) - 1));
}

static void apply_map(uint32_t native[4], const struct eu_bitmap *m, uint64_t entry)
{
    for (unsigned i = 0; i < m->n; i++)
        bits_set(native, m->row[i].dst_hi, m->row[i].dst_lo,
                 sub(entry, m->row[i].src_hi, m->row[i].src_lo));
}

static uint64_t gather_map(const uint32_t native[4], const struct eu_bitmap *m)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < m->n; i++) {
        uint64_t f = bits_get(native, m->row[i].dst_hi, m->row[i].dst_lo);
        v |= f << m->row[i].src_lo;
    }
    return v;
}

static bool is_3src_opcode(int gen, unsigned opcode)
{
    int gi = eu_gen_index(gen);
    if (gi <= EU_GEN4_IDX || opcode >= 128)
        return false;
    const struct eu_opcode_desc *d = &eu_opcode_table[gi][opcode];
    return d->mnemonic && d->nsrc == 3;
}

int eu_uncompact(int gen, const uint32_t compact[2], uint32_t native[4], const char **reason)
{
    int gi = eu_gen_index(gen);
    const char *dummy;
    if (!reason)
        reason = &dummy;
    if (gi < 0 || !eu_compact_table[gi].present) {
        *reason = "no compact instructions on this generation";
        return -1;
    }
    const struct eu_compact_tables *t = &eu_compact_table[gi];
    uint64_t c = compact_u64(compact);
    unsigned opcode = (unsigned)(c & 0x7f);
    memset(native, 0, 16);

    if (t->has_3src && is_3src_opcode(gen, opcode)) {
        /* compaction-gen8.txt / -gen9.txt [compact-3src-layout]: the source index
         * expansion first, then the copied fields (register numbers 7 bits). */
        unsigned ci = (unsigned)sub(c, t->idx3_control.hi, t->idx3_control.lo);
        unsigned si = (unsigned)sub(c, t->idx3_source.hi, t->idx3_source.lo);
        if (sub(c, 27, 19) != 0 || sub(c, 7, 7) != 0) {
            *reason = "reserved bit set in compact 3-source instruction";
            return -1;
        }
        apply_map(native, &t->c3_control_map, t->c3_control[ci & 3]);
        apply_map(native, &t->c3_source_map, t->c3_source[si & 3]);
        apply_map(native, &t->layout3, c);
        return 0;
    }

    if (is_3src_opcode(gen, opcode)) {
        /* compaction-gen7.txt has no 3-source layout (3-source compaction is gen8+,
         * compaction-gen8.txt header) */
        *reason = "no compact form of 3-source instructions on this generation";
        return -1;
    }
    /* [compact-layout]: bit 28 reserved (must be 0). */
    if (sub(c, 28, 28) != 0) {
        *reason = "reserved bit 28 set in compact instruction";
        return -1;
    }
    unsigned ci = (unsigned)sub(c, t->idx_control.hi, t->idx_control.lo);
    unsigned di = (unsigned)sub(c, t->idx_datatype.hi, t->idx_datatype.lo);
    unsigned si = (unsigned)sub(c, t->idx_subreg.hi, t->idx_subreg.lo);
    unsigned s0 = (unsigned)sub(c, t->idx_src0.hi, t->idx_src0.lo);
    unsigned s1 = (unsigned)sub(c, t->idx_src1.hi, t->idx_src1.lo);
    apply_map(native, &t->control_map, t->control[ci]);
    apply_map(native, &t->datatype_map, t->datatype[di]);
    apply_map(native, &t->subreg_map, t->subreg[si]);
    apply_map(native, &t->src0_map, t->src[s0]);
    /* Copied fields; the src1 register number (the last layout row) is applied
     * only when no operand is immediate ([immediate] section). */
    for (unsigned i = 0; i < t->layout.n; i++) {
        const struct eu_bitmap_row *r = &t->layout.row[i];
        if (r->dst_lo == 101 && r->dst_hi == 108)
            continue;
        bits_set(native, r->dst_hi, r->dst_lo, sub(c, r->src_hi, r->src_lo));
    }
    bool imm = eu_field_get(gen, EU_F_SRC0_REG_FILE, native) == EU_FILE_IMM ||
               eu_field_get(gen, EU_F_SRC1_REG_FILE, native) == EU_FILE_IMM;
    if (imm) {
        uint64_t v = 0;
        for (unsigned i = 0; i < t->imm_map.n; i++) {
            const struct eu_bitmap_row *r = &t->imm_map.row[i];
            v |= sub(c, r->src_hi, r->src_lo) << r->dst_lo;
        }
        bits_set(native, 127, 96, (uint64_t)(uint32_t)sext(v, 13));
    } else {
        apply_map(native, &t->src1_map, t->src[s1]);
        for (unsigned i = 0; i < t->layout.n; i++) {
            const struct eu_bitmap_row *r = &t->layout.row[i];
            if (r->dst_lo == 101 && r->dst_hi == 108)
                bits_set(native, r->dst_hi, r->dst_lo, sub(c, r->src_hi, r->src_lo));
        }
    }
    return 0;
}

static int find_entry32(const uint32_t *table, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        if (table[i] == v)
            return (int)i;
    return -1;
}

int eu_compact(int gen, const uint32_t native[4], uint32_t compact[2])
{
    int gi = eu_gen_index(gen);
    if (gi < 0 || !eu_compact_table[gi].present)
        return -1;
    const struct eu_compact_tables *t = &eu_compact_table[gi];
    unsigned opcode = native[0] & 0x7f;
    uint64_t c = 0;
    if (t->has_3src && is_3src_opcode(gen, opcode)) {
        int ci = -1, si = -1;
        uint64_t cv = gather_map(native, &t->c3_control_map);
        uint64_t sv = gather_map(native, &t->c3_source_map);
        for (unsigned i = 0; i < 4; i++) {
            if (t->c3_control[i] == cv) ci = (int)i;
            if (t->c3_source[i] == sv) si = (int)i;
        }
        if (ci < 0 || si < 0)
            return -1;
        c |= (uint64_t)ci << t->idx3_control.lo;
        c |= (uint64_t)si << t->idx3_source.lo;
        for (unsigned i = 0; i < t->layout3.n; i++) {
            const struct eu_bitmap_row *r = &t->layout3.row[i];
            c |= bits_get(native, r->dst_hi, r->dst_lo) << r->src_lo;
        }
    } else {
        int ci = find_entry32(t->control, 32, gather_map(native, &t->control_map));
        int di = find_entry32(t->datatype, 32, gather_map(native, &t->datatype_map));
        int s0 = find_entry32(t->src, 32, gather_map(native, &t->src0_map));
        uint32_t tmp[4];
        memcpy(tmp, native, 16);
        bool imm = eu_field_get(gen, EU_F_SRC0_REG_FILE, native) == EU_FILE_IMM ||
                   eu_field_get(gen, EU_F_SRC1_REG_FILE, native) == EU_FILE_IMM;
        if (imm)
            bits_set(tmp, 100, 96, 0); /* the subreg entry's src1 part is overwritten */
        int si = find_entry32(t->subreg, 32, gather_map(tmp, &t->subreg_map));
        if (imm && si < 0) {
            /* any entry whose dst/src0 parts match will do */
            uint64_t want = gather_map(native, &t->subreg_map) & 0x3ff;
            for (unsigned i = 0; i < 32 && si < 0; i++)
                if ((t->subreg[i] & 0x3ff) == want)
                    si = (int)i;
        }
        if (ci < 0 || di < 0 || s0 < 0 || si < 0)
            return -1;
        c |= (uint64_t)ci << t->idx_control.lo;
        c |= (uint64_t)di << t->idx_datatype.lo;
        c |= (uint64_t)si << t->idx_subreg.lo;
        c |= (uint64_t)s0 << t->idx_src0.lo;
        if (imm) {
            int64_t v = (int32_t)native[3];
            if (v < -4096 || v > 4095)
                return -1;
            for (unsigned i = 0; i < t->imm_map.n; i++) {
                const struct eu_bitmap_row *r = &t->imm_map.row[i];
                c |= sub((uint64_t)v, r->dst_hi, r->dst_lo) << r->src_lo;
            }
        } else {
            int s1 = find_entry32(t->src, 32, gather_map(native, &t->src1_map));
            if (s1 < 0)
                return -1;
            c |= (uint64_t)s1 << t->idx_src1.lo;
        }
        for (unsigned i = 0; i < t->layout.n; i++) {
            const struct eu_bitmap_row *r = &t->layout.row[i];
            if (imm && r->dst_lo == 101)
                continue;
            c |= bits_get(native, r->dst_hi, r->dst_lo) << r->src_lo;
        }
    }
    c |= 1ull << 29; /* CmptCtrl */
    compact[0] = (uint32_t)c;
    compact[1] = (uint32_t)(c >> 32);
    /* Representable only if expanding gives back exactly the same bits. */
    uint32_t back[4];
    if (eu_uncompact(gen, compact, back, NULL) != 0)
        return -1;
    uint32_t want[4];
    memcpy(want, native, 16);
    want[0] &= ~(1u << 29);
    return memcmp(back, want, 16) == 0 ? 0 : -1;
}

/* ---- types ------------------------------------------------------------------ */

static const char *const type_names[EU_TYPE_COUNT] = {
    [EU_TYPE_INVALID] = "?", [EU_TYPE_UD] = "UD", [EU_TYPE_D] = "D", [EU_TYPE_UW] = "UW",
    [EU_TYPE_W] = "W", [EU_TYPE_UB] = "UB", [EU_TYPE_B] = "B", [EU_TYPE_DF] = "DF",
    [EU_TYPE_F] = "F", [EU_TYPE_UQ] = "UQ", [EU_TYPE_Q] = "Q", [EU_TYPE_HF] = "HF",
    [EU_TYPE_UV] = "UV", [EU_TYPE_VF] = "VF", [EU_TYPE_V] = "V",
};

const char *eu_type_name(enum eu_type t)
{
    return (unsigned)t < EU_TYPE_COUNT ? type_names[t] : "?";
}

/* Sizes: opcodes.txt [register-type] ("UD/D/F 4 bytes, UW/W/HF 2, UB/B 1, DF/Q/UQ 8;
 * V/UV/VF packed in 4 bytes"). */
unsigned eu_type_size(enum eu_type t)
{
    switch (t) {
    case EU_TYPE_UB: case EU_TYPE_B: return 1;
    case EU_TYPE_UW: case EU_TYPE_W: case EU_TYPE_HF: return 2;
    case EU_TYPE_DF: case EU_TYPE_UQ: case EU_TYPE_Q: return 8;
    case EU_TYPE_INVALID: case EU_TYPE_COUNT: return 0;
    default: return 4;
    }
}

/* The type a name of type_names stands for. Every name is one or two letters, so
 * the two letters (and the length) are the name: a switch instead of a search. */
static enum eu_type type_from_name(const char *n)
{
    if (!n || !n[0] || (n[1] && n[2]))
        return EU_TYPE_INVALID;
    enum eu_type t;
    switch ((unsigned)(unsigned char)n[0] << 8 | (unsigned char)n[1]) {
    case 'U' << 8 | 'D': t = EU_TYPE_UD; break;
    case 'D' << 8: t = EU_TYPE_D; break;
    case 'U' << 8 | 'W': t = EU_TYPE_UW; break;
    case 'W' << 8: t = EU_TYPE_W; break;
    case 'U' << 8 | 'B': t = EU_TYPE_UB; break;
    case 'B' << 8: t = EU_TYPE_B; break;
    case 'D' << 8 | 'F': t = EU_TYPE_DF; break;
    case 'F' << 8: t = EU_TYPE_F; break;
    case 'U' << 8 | 'Q': t = EU_TYPE_UQ; break;
    case 'Q' << 8: t = EU_TYPE_Q; break;
    case 'H' << 8 | 'F': t = EU_TYPE_HF; break;
    case 'U' << 8 | 'V': t = EU_TYPE_UV; break;
    case 'V' << 8 | 'F': t = EU_TYPE_VF; break;
    case 'V' << 8: t = EU_TYPE_V; break;
    default: return EU_TYPE_INVALID;
    }
    return t;
}

static enum eu_type reg_type(int gi, unsigned code, bool imm)
{
    if (code >= 16)
        return EU_TYPE_INVALID;
    return type_from_name(imm ? eu_imm_type_names[gi][code] : eu_reg_type_names[gi][code]);
}

/* ---- operands ------------------------------------------------------------------ */

static void set_illegal(struct eu_instruction *in, const char *why)
{
    if (!in->illegal) {
        in->illegal = true;
        in->illegal_reason = why;
    }
}

/* Region codes: opcodes.txt [region-encodings]; 003 L22879-22995 (HorzStride 00=0
 * 01=1 10=2 11=4; Width 000=1..100=16; VertStride 0000=0..0110=32, 1111=VxH). */
static uint8_t hstride_of(unsigned code) { return code ? (uint8_t)(1u << (code - 1)) : 0; }

static void decode_dst(struct eu_instruction *in, int gi)
{
    const uint32_t *n = in->native;
    int g = in->gen;
    struct eu_operand *d = &in->dst;
    d->present = true;
    d->file = (uint8_t)eu_field_get(g, EU_F_DST_REG_FILE, n);
    d->type_code = (uint8_t)eu_field_get(g, EU_F_DST_TYPE, n);
    d->type = (uint8_t)reg_type(gi, d->type_code, false);
    if (d->file == EU_FILE_IMM)
        set_illegal(in, "immediate destination");
    if (gi != EU_GEN4_IDX && d->file == EU_FILE_MRF)
        set_illegal(in, "reserved register file (MRF exists on gen4-6 only)");
    if (d->type == EU_TYPE_INVALID)
        set_illegal(in, "reserved destination type");
    d->indirect = eu_field_get(g, EU_F_DST_ADDR_MODE, n) != 0;
    /* align16: 62:61 are reserved and the destination is contiguous (003 L22738-22812,
     * the Direct Align16 column), printed <1> by Mesa and intel-gen4disasm */
    d->hstride = in->access_mode ? 1 : hstride_of((unsigned)eu_field_get(g, EU_F_DST_HSTRIDE, n));
    if (!d->indirect) {
        d->reg_nr = (uint8_t)eu_field_get(g, EU_F_DST_REG_NR, n);
        if (in->access_mode == 0) {
            d->subreg_nr = (uint8_t)eu_field_get(g, EU_F_DST_SUBREG_NR, n);
        } else {
            d->subreg_nr = (uint8_t)(eu_field_get(g, EU_F_DST_DA16_SUBREG_NR, n) * 16);
            d->writemask = (uint8_t)eu_field_get(g, EU_F_DST_WRITEMASK, n);
        }
    } else {
        d->addr_subreg_nr = (uint8_t)eu_field_get(g, EU_F_DST_IA_SUBREG_NR, n);
        if (in->access_mode == 0) {
            d->addr_imm = (int16_t)sext(eu_field_get(g, EU_F_DST_IA1_ADDR_IMM, n),
                                        field_width(g, EU_F_DST_IA1_ADDR_IMM));
        } else {
            d->addr_imm = (int16_t)(sext(eu_field_get(g, EU_F_DST_IA16_ADDR_IMM, n),
                                         field_width(g, EU_F_DST_IA16_ADDR_IMM)) * 16);
            d->writemask = (uint8_t)eu_field_get(g, EU_F_DST_WRITEMASK, n);
        }
    }
}

struct src_fields {
    enum eu_field file, type, subreg, reg, abs, negate, addr_mode, hstride, width, vstride,
        sx, sy, sz, sw, da16, ia_sub, ia1, ia16;
};

static const struct src_fields src_f[2] = {
    { EU_F_SRC0_REG_FILE, EU_F_SRC0_TYPE, EU_F_SRC0_SUBREG_NR, EU_F_SRC0_REG_NR,
      EU_F_SRC0_ABS, EU_F_SRC0_NEGATE, EU_F_SRC0_ADDR_MODE, EU_F_SRC0_HSTRIDE,
      EU_F_SRC0_WIDTH, EU_F_SRC0_VSTRIDE, EU_F_SRC0_SWIZZLE_X, EU_F_SRC0_SWIZZLE_Y,
      EU_F_SRC0_SWIZZLE_Z, EU_F_SRC0_SWIZZLE_W, EU_F_SRC0_DA16_SUBREG_NR,
      EU_F_SRC0_IA_SUBREG_NR, EU_F_SRC0_IA1_ADDR_IMM, EU_F_SRC0_IA16_ADDR_IMM },
    { EU_F_SRC1_REG_FILE, EU_F_SRC1_TYPE, EU_F_SRC1_SUBREG_NR, EU_F_SRC1_REG_NR,
      EU_F_SRC1_ABS, EU_F_SRC1_NEGATE, EU_F_SRC1_ADDR_MODE, EU_F_SRC1_HSTRIDE,
      EU_F_SRC1_WIDTH, EU_F_SRC1_VSTRIDE, EU_F_SRC1_SWIZZLE_X, EU_F_SRC1_SWIZZLE_Y,
      EU_F_SRC1_SWIZZLE_Z, EU_F_SRC1_SWIZZLE_W, EU_F_SRC1_DA16_SUBREG_NR,
      EU_F_SRC1_IA_SUBREG_NR, EU_F_SRC1_IA1_ADDR_IMM, EU_F_SRC1_IA16_ADDR_IMM },
};

static void decode_src(struct eu_instruction *in, int gi, unsigned i)
{
    const uint32_t *n = in->native;
    int g = in->gen;
    const struct src_fields *f = &src_f[i];
    struct eu_operand *s = &in->src[i];
    s->present = true;
    s->file = (uint8_t)eu_field_get(g, f->file, n);
    s->type_code = (uint8_t)eu_field_get(g, f->type, n);
    s->type = (uint8_t)reg_type(gi, s->type_code, s->file == EU_FILE_IMM);
    if (s->type == EU_TYPE_INVALID)
        set_illegal(in, "reserved source type");
    if (gi != EU_GEN4_IDX && s->file == EU_FILE_MRF)
        set_illegal(in, "reserved register file (MRF exists on gen4-6 only)");
    if (s->file == EU_FILE_IMM) {
        /* native-fields.txt [immediate]: imm32 = 127:96; imm64 (DF/Q/UQ, gen8+) = 127:64. */
        if (eu_type_size(s->type) == 8 && field_pos(g, EU_F_IMM64))
            s->imm = eu_field_get(g, EU_F_IMM64, n);
        else
            s->imm = eu_field_get(g, EU_F_IMM32, n);
        return;
    }
    s->abs = eu_field_get(g, f->abs, n) != 0;
    s->negate = eu_field_get(g, f->negate, n) != 0;
    s->indirect = eu_field_get(g, f->addr_mode, n) != 0;
    unsigned vs = (unsigned)eu_field_get(g, f->vstride, n);
    s->vstride = vs == 15 ? EU_VSTRIDE_VXH : (vs ? (uint8_t)(1u << (vs - 1)) : 0);
    if (vs > 6 && vs != 15)
        set_illegal(in, "reserved vertical stride");
    if (in->access_mode == 0) {
        unsigned w = (unsigned)eu_field_get(g, f->width, n);
        if (w > 4)
            set_illegal(in, "reserved width");
        s->width = (uint8_t)(1u << (w & 7));
        s->hstride = hstride_of((unsigned)eu_field_get(g, f->hstride, n));
    } else {
        s->swizzle[0] = (uint8_t)eu_field_get(g, f->sx, n);
        s->swizzle[1] = (uint8_t)eu_field_get(g, f->sy, n);
        s->swizzle[2] = (uint8_t)eu_field_get(g, f->sz, n);
        s->swizzle[3] = (uint8_t)eu_field_get(g, f->sw, n);
        /* align16 width = bit 84/116 only (native-fields.txt src0_swizzle_w note) */
        s->width = 4;
        s->hstride = 1;
    }
    if (!s->indirect) {
        s->reg_nr = (uint8_t)eu_field_get(g, f->reg, n);
        if (in->access_mode == 0)
            s->subreg_nr = (uint8_t)eu_field_get(g, f->subreg, n);
        else
            s->subreg_nr = (uint8_t)(eu_field_get(g, f->da16, n) * 16);
    } else {
        s->addr_subreg_nr = (uint8_t)eu_field_get(g, f->ia_sub, n);
        if (in->access_mode == 0)
            s->addr_imm = (int16_t)sext(eu_field_get(g, f->ia1, n), field_width(g, f->ia1));
        else
            s->addr_imm = (int16_t)(sext(eu_field_get(g, f->ia16, n), field_width(g, f->ia16)) * 16);
    }
}

/* 3-source (align16) operands: native-fields.txt [3src]; 003 L22683-22728. */
static void decode_3src(struct eu_instruction *in, int gi)
{
    const uint32_t *n = in->native;
    int g = in->gen;
    in->flag_subreg_nr = (uint8_t)eu_field_get(g, EU_F_3SRC_FLAG_SUBREG_NR, n);
    in->flag_reg_nr = (uint8_t)eu_field_get(g, EU_F_3SRC_FLAG_REG_NR, n);
    in->mask_control = (uint8_t)eu_field_get(g, EU_F_3SRC_MASK_CONTROL, n);
    in->nib_control = (uint8_t)eu_field_get(g, EU_F_3SRC_NIB_CONTROL, n);
    unsigned st = (unsigned)eu_field_get(g, EU_F_3SRC_SRC_TYPE, n);
    unsigned dt = (unsigned)eu_field_get(g, EU_F_3SRC_DST_TYPE, n);
    enum eu_type stype = type_from_name(st < 8 ? eu_3src_type_names[gi][st] : NULL);
    enum eu_type dtype = type_from_name(dt < 8 ? eu_3src_type_names[gi][dt] : NULL);
    if (stype == EU_TYPE_INVALID || dtype == EU_TYPE_INVALID)
        set_illegal(in, "reserved 3-source type");

    struct eu_operand *d = &in->dst;
    d->present = true;
    d->file = EU_FILE_GRF;
    d->type = (uint8_t)dtype;
    d->type_code = (uint8_t)dt;
    d->reg_nr = (uint8_t)eu_field_get(g, EU_F_3SRC_DST_REG_NR, n);
    d->subreg_nr = (uint8_t)(eu_field_get(g, EU_F_3SRC_DST_SUBREG_NR, n) * 4); /* dword units */
    d->writemask = (uint8_t)eu_field_get(g, EU_F_3SRC_DST_WRITEMASK, n);
    d->hstride = 1;

    static const enum eu_field F[3][8] = {
        { EU_F_3SRC_SRC0_REG_NR, EU_F_3SRC_SRC0_SUBREG_NR, EU_F_3SRC_SRC0_SUBREG_NR_X,
          EU_F_3SRC_SRC0_SWIZZLE, EU_F_3SRC_SRC0_REP_CTRL, EU_F_3SRC_SRC0_ABS,
          EU_F_3SRC_SRC0_NEGATE, EU_F_COUNT },
        { EU_F_3SRC_SRC1_REG_NR, EU_F_3SRC_SRC1_SUBREG_NR, EU_F_3SRC_SRC1_SUBREG_NR_X,
          EU_F_3SRC_SRC1_SWIZZLE, EU_F_3SRC_SRC1_REP_CTRL, EU_F_3SRC_SRC1_ABS,
          EU_F_3SRC_SRC1_NEGATE, EU_F_3SRC_SRC1_TYPE_HF },
        { EU_F_3SRC_SRC2_REG_NR, EU_F_3SRC_SRC2_SUBREG_NR, EU_F_3SRC_SRC2_SUBREG_NR_X,
          EU_F_3SRC_SRC2_SWIZZLE, EU_F_3SRC_SRC2_REP_CTRL, EU_F_3SRC_SRC2_ABS,
          EU_F_3SRC_SRC2_NEGATE, EU_F_3SRC_SRC2_TYPE_HF },
    };
    for (unsigned i = 0; i < 3; i++) {
        struct eu_operand *s = &in->src[i];
        s->present = true;
        s->file = EU_FILE_GRF;
        s->type = (uint8_t)stype;
        s->type_code = (uint8_t)st;
        if (F[i][7] != EU_F_COUNT && eu_field_get(g, F[i][7], n))
            s->type = EU_TYPE_HF;
        s->reg_nr = (uint8_t)eu_field_get(g, F[i][0], n);
        /* dword units; the gen9 extra bit selects the 16-bit half ([INF], note 003 §11.5) */
        s->subreg_nr = (uint8_t)(eu_field_get(g, F[i][1], n) * 4 + eu_field_get(g, F[i][2], n) * 2);
        unsigned sw = (unsigned)eu_field_get(g, F[i][3], n);
        for (unsigned c = 0; c < 4; c++)
            s->swizzle[c] = (uint8_t)((sw >> (2 * c)) & 3);
        s->rep_ctrl = eu_field_get(g, F[i][4], n) != 0;
        s->abs = eu_field_get(g, F[i][5], n) != 0;
        s->negate = eu_field_get(g, F[i][6], n) != 0;
        if (s->rep_ctrl) {
            s->vstride = 0; s->width = 1; s->hstride = 0;
        } else {
            s->vstride = 4; s->width = 4; s->hstride = 1;
        }
    }
}

/* ---- whole instruction --------------------------------------------------------- */

/* By mnemonic (the generations number some opcodes differently); the first letter
 * settles most comparisons without a strcmp call. */
static bool opcode_is(const struct eu_instruction *in, const char *m)
{
    return in->mnemonic && in->mnemonic[0] == m[0] && strcmp(in->mnemonic, m) == 0;
}

static void decode_send(struct eu_instruction *in, int gi)
{
    const uint32_t *n = in->native;
    int g = in->gen;
    in->is_send = true;
    in->eot = eu_field_get(g, EU_F_EOT, n) != 0;
    if (gi == EU_GEN4_IDX) {
        /* native-fields.txt [send] gen4: msg target (= sfid) 123:120 inside the
         * descriptor DWord, base MRF 27:24; opcodes.txt [message-descriptors] gen4:
         * mlen 23:20, rlen 19:16, eot 31. */
        in->sfid = (uint8_t)eu_field_get(g, EU_F_SFID, n);
        in->base_mrf = (uint8_t)eu_field_get(g, EU_F_BASE_MRF, n);
        in->desc = n[3];
        in->mlen = (uint8_t)eu_field_get(g, EU_F_MLEN, n);
        in->rlen = (uint8_t)eu_field_get(g, EU_F_RLEN, n);
        in->cond_modifier = 0;
        return;
    }
    /* Gen7+: SFID in 27:24 (003 L22815-22878; ex_desc 3:0 on gen9, 003 L24378-24386). */
    in->sfid = (uint8_t)eu_field_get(g, EU_F_SFID, n);
    in->cond_modifier = 0;
    if (in->is_split_send) {
        in->desc_is_reg = eu_field_get(g, EU_F_SENDS_SEL_REG32_DESC, n) != 0;
        in->ex_desc_is_reg = eu_field_get(g, EU_F_SENDS_SEL_REG32_EX_DESC, n) != 0;
        in->desc = (uint32_t)eu_field_get(g, EU_F_SENDS_DESC, n);
        if (in->ex_desc_is_reg) {
            in->ex_desc_addr_subreg = (uint8_t)eu_field_get(g, EU_F_SENDS_EX_DESC_IA_SUBREG_NR, n);
        } else {
            in->ex_desc =
                desc_exdesc_ex_function_control_encode(
                    (uint32_t)eu_field_get(g, EU_F_SENDS_EX_DESC_31_16, n)) |
                desc_exdesc_ex_mlen_encode((uint32_t)eu_field_get(g, EU_F_SENDS_EX_DESC_9_6, n)) |
                desc_exdesc_sfid_encode(in->sfid) | desc_exdesc_eot_encode(in->eot);
            in->ex_mlen = (uint8_t)eu_field_get(g, EU_F_SENDS_EX_DESC_9_6, n);
        }
    } else {
        /* the descriptor is src1: an immediate, or a0.0 (native-fields.txt [send]) */
        in->desc_is_reg = eu_field_get(g, EU_F_SRC1_REG_FILE, n) != EU_FILE_IMM;
        /* the descriptor field (gen7/8 124:96, gen9 126:96; bit 127 is EOT) */
        in->desc = (uint32_t)eu_field_get(g, EU_F_DESC, n);
        if (gi == EU_GEN9_IDX)
            in->ex_desc =
                desc_exdesc_piece_31_28_encode((uint32_t)eu_field_get(g, EU_F_EX_DESC_31_28, n)) |
                desc_exdesc_piece_27_24_encode((uint32_t)eu_field_get(g, EU_F_EX_DESC_27_24, n)) |
                desc_exdesc_piece_23_20_encode((uint32_t)eu_field_get(g, EU_F_EX_DESC_23_20, n)) |
                desc_exdesc_piece_19_16_encode((uint32_t)eu_field_get(g, EU_F_EX_DESC_19_16, n)) |
                desc_exdesc_sfid_encode(in->sfid) | desc_exdesc_eot_encode(in->eot);
        else
            in->ex_desc = desc_exdesc_sfid_encode(in->sfid) | desc_exdesc_eot_encode(in->eot);
    }
    if (!in->desc_is_reg) {
        in->mlen = (uint8_t)eu_field_get(g, EU_F_MLEN, n);
        in->rlen = (uint8_t)eu_field_get(g, EU_F_RLEN, n);
        in->header_present = eu_field_get(g, EU_F_HEADER_PRESENT, n) != 0;
    }
}

static void decode_split_send_operands(struct eu_instruction *in)
{
    /* native-fields.txt [sends] (gen9 only; 003 L22815-22878): 1-bit files, UD types. */
    const uint32_t *n = in->native;
    int g = in->gen;
    struct eu_operand *d = &in->dst, *s0 = &in->src[0], *s1 = &in->src[1];
    d->present = s0->present = s1->present = true;
    d->type = s0->type = s1->type = EU_TYPE_UD;
    d->file = (uint8_t)eu_field_get(g, EU_F_SENDS_DST_REG_FILE_1B, n);
    d->reg_nr = (uint8_t)eu_field_get(g, EU_F_SENDS_DST_REG_NR, n);
    d->subreg_nr = (uint8_t)(eu_field_get(g, EU_F_SENDS_DST_SUBREG_NR, n) * 16);
    d->hstride = 1;
    s0->file = EU_FILE_GRF;
    s0->indirect = eu_field_get(g, EU_F_SENDS_SRC0_ADDR_MODE, n) != 0;
    s0->reg_nr = (uint8_t)eu_field_get(g, EU_F_SENDS_SRC0_REG_NR, n);
    s0->subreg_nr = (uint8_t)(eu_field_get(g, EU_F_SENDS_SRC0_SUBREG_NR, n) * 16);
    s1->file = (uint8_t)eu_field_get(g, EU_F_SENDS_SRC1_REG_FILE_1B, n);
    s1->reg_nr = (uint8_t)eu_field_get(g, EU_F_SENDS_SRC1_REG_NR, n);
}

static bool is_flow_with_jip(const struct eu_instruction *in)
{
    static const char *const names[] = { "if", "iff", "else", "endif", "while", "break", "cont",
                                         "halt", "goto", "join", "brd", "brc", NULL };
    for (unsigned i = 0; names[i]; i++)
        if (opcode_is(in, names[i]))
            return true;
    return false;
}

size_t eu_decode(int gen, const uint8_t *p, size_t avail, struct eu_instruction *out)
{
    int gi = eu_gen_index(gen);
    memset(out, 0, sizeof *out);
    out->gen = gen;
    size_t size = eu_instruction_size(gen, p, avail);
    if (gi < 0 || size == 0)
        return 0;
    out->size = (unsigned)size;
    if (size == 8) {
        uint32_t c[2];
        for (unsigned i = 0; i < 2; i++)
            c[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
                   (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
        out->compacted = true;
        const char *why = NULL;
        if (eu_uncompact(gen, c, out->native, &why) != 0) {
            out->opcode = (uint8_t)(c[0] & 0x7f);
            set_illegal(out, why);
            return size;
        }
    } else {
        for (unsigned i = 0; i < 4; i++)
            out->native[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
                             (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
    }
    const uint32_t *n = out->native;

    /* DWord 0 (native-fields.txt [control]; 003 L22738-22812). */
    out->opcode = (uint8_t)eu_field_get(gen, EU_F_OPCODE, n);
    const struct eu_opcode_desc *od = &eu_opcode_table[gi][out->opcode];
    if (!od->mnemonic) {
        /* Undefined opcodes are illegal (003 L22275: forced to the illegal opcode). */
        set_illegal(out, "opcode not defined on this generation");
        return size;
    }
    if (out->opcode == EU_OPCODE_ILLEGAL)
        set_illegal(out, "illegal opcode 0");
    if (n[0] & 0x80)
        set_illegal(out, "reserved opcode bit 7 set");
    if (gi == EU_GEN4_IDX && (n[0] & (1u << 29)))
        set_illegal(out, "reserved bit 29 set (no compact form on gen4)");
    out->mnemonic = od->mnemonic;
    out->access_mode = (uint8_t)eu_field_get(gen, EU_F_ACCESS_MODE, n);
    out->mask_control = (uint8_t)eu_field_get(gen, EU_F_MASK_CONTROL, n);
    out->no_dd_clear = eu_field_get(gen, EU_F_NO_DD_CLEAR, n) != 0;
    out->no_dd_check = eu_field_get(gen, EU_F_NO_DD_CHECK, n) != 0;
    out->nib_control = (uint8_t)eu_field_get(gen, EU_F_NIB_CONTROL, n);
    out->qtr_control = (uint8_t)eu_field_get(gen, EU_F_QTR_CONTROL, n);
    out->thread_control = (uint8_t)eu_field_get(gen, EU_F_THREAD_CONTROL, n);
    out->pred_control = (uint8_t)eu_field_get(gen, EU_F_PRED_CONTROL, n);
    out->pred_inv = eu_field_get(gen, EU_F_PRED_INV, n) != 0;
    unsigned es = (unsigned)eu_field_get(gen, EU_F_EXEC_SIZE, n);
    if (es > 5)
        set_illegal(out, "reserved execution size");
    out->exec_size = (uint8_t)(1u << (es > 5 ? 0 : es));
    out->cond_modifier = (uint8_t)eu_field_get(gen, EU_F_COND_MODIFIER, n);
    out->acc_wr_control = eu_field_get(gen, EU_F_ACC_WR_CONTROL, n) != 0;
    out->saturate = eu_field_get(gen, EU_F_SATURATE, n) != 0;
    out->debug_control = eu_field_get(gen, EU_F_DEBUG_CONTROL, n) != 0;
    out->flag_reg_nr = (uint8_t)eu_field_get(gen, EU_F_FLAG_REG_NR, n);
    out->flag_subreg_nr = (uint8_t)eu_field_get(gen, EU_F_FLAG_SUBREG_NR, n);
    out->nsrc = od->nsrc;
    out->has_dst = od->ndst > 0;
    /* smov has a destination, src0 and the src1 channel-mask immediate (004
     * L24086-24120: "smov[.cmod] (exec_size) dst src0 src1"); the opcode
     * table counts it as operand-less */
    bool smov = opcode_is(out, "smov");
    /* call/calla write the return IP and CallMask to dst; ret reads them from
     * src0 (004 L9471-9560, L23936-23963) */
    bool call = opcode_is(out, "call") || opcode_is(out, "calla"), ret = opcode_is(out, "ret");
    if (smov || call)
        out->has_dst = true;

    bool send = opcode_is(out, "send") || opcode_is(out, "sendc");
    out->is_split_send = opcode_is(out, "sends") || opcode_is(out, "sendsc");
    out->is_math = opcode_is(out, "math");
    out->is_3src = gi != EU_GEN4_IDX && od->nsrc == 3;

    if (out->is_3src) {
        decode_3src(out, gi);
    } else if (out->is_split_send) {
        decode_split_send_operands(out);
        decode_send(out, gi);
        out->nsrc = 2;
    } else if (send) {
        decode_dst(out, gi);
        decode_src(out, gi, 0);
        out->nsrc = 1;
        decode_send(out, gi);
    } else if (is_flow_with_jip(out)) {
        out->is_branch = true;
        out->nsrc = 0;
        out->has_dst = false;
        if (gi == EU_GEN4_IDX) {
            /* native-fields.txt [branch] gen4: jump count 111:96, pop count 115:112. */
            out->has_jump_count = true;
            out->jump_count = (int32_t)sext(eu_field_get(gen, EU_F_JUMP_COUNT, n), 16);
            out->pop_count = (uint8_t)eu_field_get(gen, EU_F_POP_COUNT, n);
        } else {
            /* gen7: signed 16-bit in units of 8 bytes; gen8+: signed 32-bit bytes
             * (native-fields.txt [branch]; 004 L9270-9330 JIP 127:96, UIP 95:64 "S31"). */
            int32_t unit = gi == EU_GEN7_IDX ? 8 : 1;
            unsigned w = field_width(gen, EU_F_JIP);
            out->has_jip = true;
            out->jip = (int32_t)sext(eu_field_get(gen, EU_F_JIP, n), w) * unit;
            /* UIP: if (gen7+), else (gen8+), break, cont, halt, goto. */
            if (opcode_is(out, "if") || opcode_is(out, "break") || opcode_is(out, "cont") ||
                opcode_is(out, "brc") ||
                opcode_is(out, "halt") || opcode_is(out, "goto") || opcode_is(out, "join") ||
                (gi >= EU_GEN8_IDX && opcode_is(out, "else"))) {
                out->has_uip = true;
                out->uip = (int32_t)sext(eu_field_get(gen, EU_F_UIP, n), field_width(gen, EU_F_UIP)) * unit;
            }
        }
    } else {
        if (out->has_dst)
            decode_dst(out, gi);
        unsigned ns = od->nsrc;
        if (out->is_math && ns == 2) {
            /* one-source math functions leave src1 as the null register */
            ns = eu_field_get(gen, EU_F_SRC1_REG_FILE, n) == EU_FILE_ARF &&
                 eu_field_get(gen, EU_F_SRC1_REG_NR, n) == 0 ? 1 : 2;
        }
        if (opcode_is(out, "jmpi") || opcode_is(out, "pop"))
            ns = 1;
        if (smov)
            ns = 2;
        if (ret)
            ns = 1;
        out->nsrc = (uint8_t)(ns > 2 ? 2 : ns);
        for (unsigned i = 0; i < out->nsrc; i++)
            decode_src(out, gi, i);
        if (out->is_math) {
            /* gen6+: the function code replaces the condition (native-fields.txt
             * math_function; 003 L24074). */
            out->math_function = out->cond_modifier;
            out->cond_modifier = 0;
            if (!eu_math_names[gi][out->math_function])
                set_illegal(out, "reserved math function");
        }
    }
    if (out->cond_modifier && !eu_cond_mod_names[gi][out->cond_modifier] && !out->is_send)
        set_illegal(out, "reserved conditional modifier");
    return size;
}
