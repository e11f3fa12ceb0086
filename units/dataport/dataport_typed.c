/* units/dataport/dataport_typed.c - typed surface read and write (seed 003 L6179-6204): 8 slots
 * by slot group, 1D/2D/3D linear and BUFFER surfaces, every uncompressed format the
 * formats library converts (units/common/format.h, the conversions of L5193-5203).
 * Not modelled: tiled surfaces (counted as unsupported), QPitch between the
 * slices of arrays (slices are Height rows apart). */
#include "units/dataport/dataport_internal.h"

#include <string.h>

#include "units/common/format.h"

/* ---- typed surfaces (L5193-5276) ------------------------------------------------ */

/* The formats typed messages take: any uncompressed format of whole bytes the
 * formats library converts (units/common/format.h: the conversions of
 * L5193-5203). NULL: not modelled (compressed, palette, YUV, under 8 bits). */
static const struct format_desc *typed_format(uint32_t format)
{
    const struct format_desc *f = format_describe(format);
    if (!f || f->block_width != 1 || f->block_height != 1 || f->bits % 8 || f->bits > 128)
        return NULL;
    uint8_t probe[16] = { 0 };
    struct format_value v;
    return format_unpack(format, probe, &v) == FORMAT_OK ? f : NULL;
}

/* Whether the format stores channel ch (R, G, B, A; L and I feed them). */
static bool format_has_channel(const struct format_desc *f, unsigned ch)
{
    for (unsigned k = 0; k < f->field_count; k++) {
        unsigned c = f->fields[k].channel;
        if (c == ch || c == FORMAT_CH_I || (c == FORMAT_CH_L && ch < 3))
            return true;
    }
    return false;
}

/* A channel's 32 bits as the message carries them: float bits for float
 * formats, the integer for integer ones. */
static uint32_t value_bits(const struct format_value *v, unsigned ch)
{
    uint32_t b;
    if (v->kind == FORMAT_VALUE_FLOAT)
        memcpy(&b, &v->f[ch], 4);
    else
        b = v->u[ch];
    return b;
}

static void set_value_bits(struct format_value *v, unsigned ch, uint32_t b)
{
    if (v->kind == FORMAT_VALUE_FLOAT)
        memcpy(&v->f[ch], &b, 4);
    else
        v->u[ch] = b;
}

/* Copies bits [shift, shift + bits) of src into dst (little-endian texels). */
static void copy_field(uint8_t *dst, const uint8_t *src, unsigned shift, unsigned bits)
{
    for (unsigned b = shift; b < shift + bits; b++) {
        uint8_t m = (uint8_t)(1u << (b % 8));
        dst[b / 8] = (uint8_t)((dst[b / 8] & ~m) | (src[b / 8] & m));
    }
}

void dp_typed(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    uint32_t mask = x->mask;
    /* header, then U [V [R [LOD]]] one register each, then (writes) the
     * enabled channels one register each; 8 slots, the low or high half
     * of the exec mask by desc[13] (slot group) */
    bool write = op == OP_TYPED_WRITE;
    unsigned chmask = ~desc_dc_channel_mask(desc) & 0xf;    /* 1 = channel disabled */
    unsigned nch = (unsigned)__builtin_popcount(chmask);
    unsigned group = desc_dc_typed_slot_group(desc);
    mask = (mask >> (8 * group)) & 0xff;
    if (x->hdr)
        mask &= (dp_mread(x, 0, 7) >> (8 * group)) & 0xff;
    dp_resolve(a, x->bti, false);
    unsigned coords = write ? (x->p->ex_mlen ? x->p->mlen - x->hdr : x->p->mlen - x->hdr - nch)
                            : x->p->mlen - x->hdr;
    if (coords == 0 || coords > 4)
        coords = 1;
    unsigned dbase = x->p->ex_mlen && write ? x->p->mlen : x->hdr + coords;
    const struct format_desc *fmt = a->sf.model == M_BUFFER ? typed_format(a->sf.format) : NULL;
    unsigned bpe = fmt ? format_block_bytes(fmt) : 0;
    write ? s->writes++ : s->reads++;
    if (a->sf.model == M_BUFFER && (!bpe || a->sf.tiled)) {
        s->unsupported++;
        dp_warn_once(s, a->u, 4, "typed access to format 0x%x (tiled: %u) is not modelled: "
                     "zeros", a->sf.format, a->sf.tiled);
        return;
    }
    for (unsigned i = 0; i < 8; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t u = dp_mread(x, x->hdr, i), v = coords > 1 ? dp_mread(x, x->hdr + 1, i) : 0;
        uint32_t r = coords > 2 ? dp_mread(x, x->hdr + 2, i) : 0;
        bool buffer = a->sf.type == 4;
        uint64_t w = buffer ? a->sf.size / (bpe ? bpe : 1) : a->sf.width;
        bool in = a->sf.model == M_BUFFER && u < w &&
                  (buffer || (v < a->sf.height && r < a->sf.depth));
        uint64_t off = buffer ? (uint64_t)u * bpe
                              : ((uint64_t)r * a->sf.height + v) * a->sf.pitch + (uint64_t)u * bpe;
        uint8_t texel[16] = { 0 };
        if (!in) {
            s->out_of_bounds++;
            if (!write) {
                /* present channels 0, missing alpha 1 (L5276) */
                unsigned c = 0;
                for (unsigned ch = 0; ch < 4; ch++)
                    if (chmask & (1u << ch)) {
                        /* a null surface reads as float 0, 0, 0, 1 */
                        bool ints = fmt && fmt->value_kind != FORMAT_VALUE_FLOAT;
                        bool alpha = fmt && format_has_channel(fmt, 3);
                        dp_wbwrite(x, c, i, ch == 3 && !alpha ? (ints ? 1u : 0x3f800000u) : 0u);
                        c++;
                    }
            }
            continue;
        }
        if (!write) {
            struct surf keep = a->sf;
            a->sf.size = 0;         /* bounds done above */
            dp_access_slot(a, off, texel, bpe, MEMREQ_READ);
            a->sf = keep;
            /* missing channels read 0, 0, 0, 1 (L5214) */
            struct format_value value;
            format_unpack(a->sf.format, texel, &value);
            unsigned c = 0;
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(chmask & (1u << ch)))
                    continue;
                dp_wbwrite(x, c, i, value_bits(&value, ch));
                c++;
            }
        } else {
            /* only the enabled channels change: read, merge the new
             * channels' bit fields, write; missing components are not
             * written */
            uint8_t old[16] = { 0 };
            struct surf keep = a->sf;
            a->sf.size = 0;
            dp_access_slot(a, off, old, bpe, MEMREQ_READ);
            s->bytes_read -= bpe;
            struct format_value value;
            format_unpack(a->sf.format, old, &value);
            unsigned c = 0;
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(chmask & (1u << ch)))
                    continue;
                set_value_bits(&value, ch, dp_mread(x, dbase + c, i));
                c++;
            }
            format_pack(a->sf.format, &value, texel);
            for (unsigned k = 0; k < fmt->field_count; k++) {
                const struct format_field *fd = &fmt->fields[k];
                if (fd->channel <= FORMAT_CH_A && (chmask & (1u << fd->channel)))
                    copy_field(old, texel, fd->shift, fd->bits);
            }
            dp_access_slot(a, off, old, bpe, MEMREQ_WRITE);
            a->sf = keep;
        }
    }
}
