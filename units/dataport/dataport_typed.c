/* units/dataport/dataport_typed.c - typed surface read and write (seed 003 L6179-6204): 8 slots
 * by slot group, 1D/2D/3D linear and BUFFER surfaces, the formats of typed_layout
 * with the conversions of L5193-5203. */
#include "units/dataport/dataport_internal.h"

#include <string.h>

/* ---- typed surfaces (L5193-5276) ------------------------------------------------ */

/* Bytes per element and channels of the formats typed messages handle here:
 * 32-bit channels (1, 2, 4 of FLOAT/SINT/UINT) and the 8-bit R8G8B8A8 and R8
 * UNORM/UINT forms. 0: not modelled. */
static unsigned typed_layout(uint32_t format, unsigned *channels, unsigned *kind)
{
    switch (format) {
    case 0x000: *channels = 4; *kind = 0; return 16;    /* R32G32B32A32_FLOAT */
    case 0x001: case 0x002: *channels = 4; *kind = 1; return 16;   /* _SINT, _UINT */
    case 0x085: *channels = 2; *kind = 0; return 8;     /* R32G32_FLOAT */
    case 0x086: case 0x087: *channels = 2; *kind = 1; return 8;
    case 0x0D8: *channels = 1; *kind = 0; return 4;     /* R32_FLOAT */
    case 0x0D6: case 0x0D7: *channels = 1; *kind = 1; return 4;    /* R32_SINT, R32_UINT */
    case 0x0C7: *channels = 4; *kind = 2; return 4;     /* R8G8B8A8_UNORM */
    case 0x0CB: *channels = 4; *kind = 3; return 4;     /* R8G8B8A8_UINT */
    case 0x140: *channels = 1; *kind = 2; return 1;     /* R8_UNORM */
    case 0x143: *channels = 1; *kind = 3; return 1;     /* R8_UINT */
    default: return 0;
    }
}

static uint32_t unorm8_to_f32(uint8_t v)
{
    float f = (float)v / 255.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint8_t f32_to_unorm8(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (!(f > 0.0f))
        return 0;           /* also NaN */
    if (f >= 1.0f)
        return 255;
    return (uint8_t)(f * 255.0f + 0.5f);    /* round to nearest (L5193-5203) */
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
    unsigned channels = 0, kind = 0;
    unsigned bpe = a->sf.model == M_BUFFER ? typed_layout(a->sf.format, &channels, &kind) : 0;
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
                        uint32_t one = kind == 0 || kind == 2 ? 0x3f800000u : 1u;
                        dp_wbwrite(x, c, i, ch == 3 && channels < 4 ? one : 0u);
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
            unsigned c = 0;
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(chmask & (1u << ch)))
                    continue;
                uint32_t val;
                if (ch >= channels)
                    val = ch == 3 ? (kind == 0 || kind == 2 ? 0x3f800000u : 1u) : 0u;
                else if (kind <= 1)
                    memcpy(&val, texel + 4 * ch, 4);
                else if (kind == 2)
                    val = unorm8_to_f32(texel[ch]);
                else
                    val = texel[ch];
                dp_wbwrite(x, c, i, val);
                c++;
            }
        } else {
            unsigned c = 0;
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(chmask & (1u << ch)))
                    continue;
                uint32_t val = dp_mread(x, dbase + c, i);
                c++;
                if (ch >= channels)
                    continue;       /* missing components are not written */
                if (kind <= 1)
                    memcpy(texel + 4 * ch, &val, 4);
                else if (kind == 2)
                    texel[ch] = f32_to_unorm8(val);
                else
                    texel[ch] = (uint8_t)(val > 255 ? 255 : val);   /* UINT clamps */
            }
            /* only the enabled channels change: read, merge, write */
            uint8_t old[16] = { 0 };
            struct surf keep = a->sf;
            a->sf.size = 0;
            dp_access_slot(a, off, old, bpe, MEMREQ_READ);
            s->bytes_read -= bpe;
            unsigned cb = kind <= 1 ? 4 : 1;
            for (unsigned ch = 0; ch < channels; ch++)
                if (chmask & (1u << ch))
                    memcpy(old + cb * ch, texel + cb * ch, cb);
            dp_access_slot(a, off, old, bpe, MEMREQ_WRITE);
            a->sf = keep;
        }
    }
}
