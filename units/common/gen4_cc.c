/* units/common/gen4_cc.c - Gen4 pointed-to state; see gen4_cc.h. */
#include "units/common/gen4_cc.h"

#include <string.h>

#include "fabric/memory.h"
#include "spec/spec.h"
#include "units/common/tiling.h"

#define GEN4_SURFTYPE_NULL 7u

bool gen4_cc_read(struct sim *sim, const struct cs_state_packet *p, uint64_t address,
                     enum spec_id id, uint32_t dwords, void *out)
{
    uint32_t dw[16];
    if (dwords > 16)
        return false;
    const struct spec_element *e = spec_element_by_id(4, id);
    if (!e || !e->unpack_common)
        return false;
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    if (gpu_address_space_read(&as, address, dw, 4u * dwords, &err) != 0)
        return false;
    e->unpack_common(dw, out);
    return true;
}

void gen4_cc_depth_stencil(const struct spec_COLOR_CALC_STATE *cc,
                           struct spec_3DSTATE_WM_DEPTH_STENCIL *d)
{
    memset(d, 0, sizeof *d);
    d->DepthTestEnable = cc->DepthTestEnable;
    d->DepthTestFunction = cc->DepthTestFunction;
    d->DepthBufferWriteEnable = cc->DepthBufferWriteEnable;
    d->StencilTestEnable = cc->StencilTestEnable;
    d->StencilBufferWriteEnable = cc->StencilBufferWriteEnable;
    d->DoubleSidedStencilEnable = cc->DoubleSidedStencilEnable;
    d->StencilTestFunction = cc->StencilTestFunction;
    d->StencilFailOp = cc->StencilFailOp;
    d->StencilPassDepthFailOp = cc->StencilPassDepthFailOp;
    d->StencilPassDepthPassOp = cc->StencilPassDepthPassOp;
    d->BackfaceStencilTestFunction = cc->BackfaceStencilTestFunction;
    d->BackfaceStencilFailOp = cc->BackfaceStencilFailOp;
    d->BackfaceStencilPassDepthFailOp = cc->BackfaceStencilPassDepthFailOp;
    d->BackfaceStencilPassDepthPassOp = cc->BackfaceStencilPassDepthPassOp;
    d->StencilTestMask = cc->StencilTestMask;
    d->StencilWriteMask = cc->StencilWriteMask;
    d->BackfaceStencilTestMask = cc->BackfaceStencilTestMask;
    d->BackfaceStencilWriteMask = cc->BackfaceStencilWriteMask;
    d->StencilReferenceValue = cc->StencilReferenceValue;
    d->BackfaceStencilReferenceValue = cc->BackfaceStencilReferenceValue;
}

void gen4_cc_blend(const struct spec_COLOR_CALC_STATE *cc, uint32_t write_disables,
                   struct spec_BLEND_STATE *b, struct spec_BLEND_STATE_ENTRY *e)
{
    memset(b, 0, sizeof *b);
    memset(e, 0, sizeof *e);
    b->AlphaTestEnable = cc->AlphaTestEnable;
    b->AlphaTestFunction = cc->AlphaTestFunction;
    b->ColorDitherEnable = cc->ColorDitherEnable;
    b->XDitherOffset = cc->XDitherOffset;
    b->YDitherOffset = cc->YDitherOffset;
    b->IndependentAlphaBlendEnable = cc->IndependentAlphaBlendEnable;
    e->ColorBufferBlendEnable = cc->ColorBufferBlendEnable;
    e->SourceBlendFactor = cc->SourceBlendFactor;
    e->DestinationBlendFactor = cc->DestinationBlendFactor;
    e->ColorBlendFunction = cc->ColorBlendFunction;
    /* without Independent Alpha Blend the alpha channel blends as colour
     * (L19420ff) */
    bool independent = cc->IndependentAlphaBlendEnable;
    e->SourceAlphaBlendFactor = independent ? cc->SourceAlphaBlendFactor : cc->SourceBlendFactor;
    e->DestinationAlphaBlendFactor =
        independent ? cc->DestinationAlphaBlendFactor : cc->DestinationBlendFactor;
    e->AlphaBlendFunction = independent ? cc->AlphaBlendFunction : cc->ColorBlendFunction;
    e->IndependentAlphaBlendEnable = independent;
    e->LogicOpEnable = cc->LogicOpEnable;
    e->LogicOpFunction = cc->LogicOpFunction;
    e->PreBlendColorClampEnable = cc->PreBlendColorClampEnable;
    e->PostBlendColorClampEnable = cc->PostBlendColorClampEnable;
    e->ColorClampRange = cc->ColorClampRange;
    e->ColorDitherEnable = cc->ColorDitherEnable;
    /* SURFACE_STATE Color Buffer Component Write Disables: bit 3 A, 2 R,
     * 1 G, 0 B (Mesa's genxml gen4.xml, dword 0 bits 17:14) */
    e->WriteDisableAlpha = (write_disables >> 3) & 1u;
    e->WriteDisableRed = (write_disables >> 2) & 1u;
    e->WriteDisableGreen = (write_disables >> 1) & 1u;
    e->WriteDisableBlue = write_disables & 1u;
}

bool gen4_depth_buffer(const struct spec_3DSTATE_DEPTH_BUFFER *v, struct ds_surface *d,
                       struct ds_surface *stencil, uint32_t *format)
{
    memset(d, 0, sizeof *d);
    memset(stencil, 0, sizeof *stencil);
    *format = v->SurfaceFormat == DS_D24_UNORM_S8_UINT ? (uint32_t)DS_D24_UNORM_X8_UINT
                                                        : v->SurfaceFormat;
    if (v->SurfaceType == GEN4_SURFTYPE_NULL)
        return true;
    d->base = v->SurfaceBaseAddress;
    d->pitch = v->SurfacePitch + 1;
    d->width = v->Width + 1;
    d->height = v->Height + 1;
    d->slices = v->Depth + 1 + v->MinimumArrayElement;
    d->qpitch_rows = 0;
    d->element_bytes = ds_depth_bytes(*format);
    /* Tiled Surface, Tile Walk 1 = Y major (L17164-17213) */
    d->tiling = !v->TiledSurface ? TILING_LINEAR : v->TileWalk ? TILING_Y : TILING_X;
    uint32_t tile_width = d->tiling == TILING_Y ? 128u : d->tiling == TILING_X ? 512u : 1u;
    d->valid = d->element_bytes && v->LOD == 0 && d->pitch % tile_width == 0 &&
               d->pitch >= d->width * d->element_bytes;
    if (d->valid && v->SurfaceFormat == DS_D24_UNORM_S8_UINT) {
        /* bytes 2:0 the depth, byte 3 the stencil of each element */
        d->element_bytes = 3;
        d->element_stride = 4;
        *stencil = *d;
        stencil->base = d->base + 3;
        stencil->element_bytes = 1;
    }
    return d->valid;
}
