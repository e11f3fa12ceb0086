/* units/om/om_gen4.c - the Gen4 render target write and depth buffer; see
 * om_gen4.h. */
#include "units/om/om_gen4.h"

#include <string.h>

#include "msg_desc.h"
#include "units/common/gen4_cc.h"

#define R16_SOURCE_DEPTH_TO_RT (1u << 29)
#define R16_DESTINATION_DEPTH (1u << 28)
#define R16_AA_ALPHA_TO_RT (1u << 26)

static uint32_t reg32(const struct eu_send_msg *p, uint32_t nregs, uint32_t reg, uint32_t dw)
{
    uint32_t v = 0;
    if (reg < nregs)
        memcpy(&v, p->regs[reg] + 4 * dw, 4);
    return v;
}

bool om_gen4_decode_rt_write(const struct eu_send_msg *p, uint32_t nregs, struct rt_write *w)
{
    uint32_t desc = p->desc;
    memset(w, 0, sizeof *w);
    if (desc_dpw_msg_type(desc) != OM_GEN4_DPW_RT_WRITE)
        return false;
    w->render_target = desc_dpw_binding_table(desc);
    w->subtype = desc_dpw_msg_control(desc);
    w->samples = 1;
    if (desc_dpw_last_rt(desc))
        w->flags |= RT_WRITE_LAST_RT;
    if (p->flags & EU_SEND_EOT)
        w->flags |= RT_WRITE_EOT;
    bool simd16 = w->subtype == RT_WRITE_SIMD16_SINGLE_SOURCE;
    bool simd8 = w->subtype == RT_WRITE_SIMD8_SINGLE_SOURCE;
    if (!simd16 && !simd8)
        return true;        /* the caller counts the subtype unsupported */
    uint32_t r16 = reg32(p, nregs, 1, 6), r17 = reg32(p, nregs, 1, 7);
    w->rt_array_index = (r17 >> 16) & 0x7ffu;
    for (unsigned k = 0; k < 4; k++) {
        uint32_t xy = reg32(p, nregs, 1, 2 + k);
        w->subspan_x[k] = (uint16_t)xy;
        w->subspan_y[k] = (uint16_t)(xy >> 16);
    }
    w->slot_mask = reg32(p, nregs, 0, 0) & 0xffffu & p->ctx.pixel_mask;
    unsigned n = simd16 ? 16 : 8, regs_per = simd16 ? 2 : 1;
    w->slot_mask &= (1u << n) - 1u;
    if (r16 & R16_SOURCE_DEPTH_TO_RT)
        w->flags |= RT_WRITE_HAS_DEPTH;
    unsigned r = 2 + ((r16 & R16_AA_ALPHA_TO_RT) ? 1u : 0u);
    uint32_t need = r + 4 * regs_per + ((w->flags & RT_WRITE_HAS_DEPTH) ? regs_per : 0) +
                    ((r16 & R16_DESTINATION_DEPTH) ? regs_per : 0);
    if (nregs < need)
        return false;
    /* SIMD16: slots 0-7 R, G, B, A, then slots 8-15 R, G, B, A (the
     * capture's kernel writes m3 R / m7 R sechalf, m4 G / m8 G ...: Mesa's
     * COMPR4 layout); SIMD8: R, G, B, A */
    for (unsigned i = 0; i < n; i++)
        for (unsigned c = 0; c < 4; c++)
            w->color[0][c][i] = reg32(p, nregs, r + 4 * (i / 8) + c, i % 8);
    r += 4 * regs_per;
    if (w->flags & RT_WRITE_HAS_DEPTH)
        for (unsigned i = 0; i < n; i++) {
            uint32_t bits = reg32(p, nregs, r + i / 8, i % 8);
            memcpy(&w->depth[i], &bits, 4);
        }
    return true;
}

void om_gen4_take_depth_buffer(struct om_depth *d, const struct spec_3DSTATE_DEPTH_BUFFER *v)
{
    uint32_t format;
    bool ok = gen4_depth_buffer(v, &d->depth, &d->stencil, &format);
    d->surface_type = v->SurfaceType;
    d->format = format;
    /* Gen4: CC_STATE's Depth / Stencil Buffer Write Enable decide */
    d->buffer_write = true;
    d->buffer_stencil_write = d->stencil.valid;
    d->min_array = v->MinimumArrayElement;
    d->hiz_enable = false;
    if (!ok)
        d->bad_buffers++;
}
