/* units/om/om_depth.c - late depth/stencil; see om_depth.h. */
#include "units/om/om_depth.h"

#include <string.h>

#define OM_SURFTYPE_NULL 7u

void om_depth_reset(struct om_depth *d)
{
    const struct om_datapath *datapath = d->datapath;
    memset(d, 0, sizeof *d);
    d->datapath = datapath;
    d->surface_type = OM_SURFTYPE_NULL;
    d->samples = 1;
}

void om_depth_take_samples(struct om_depth *d, uint32_t samples)
{
    d->samples = samples >= 1 && samples <= 16 ? samples : 1;
}

uint32_t om_depth_samples(const struct om_depth *d)
{
    return d->samples > 1 ? d->samples : 1;
}

void om_depth_take_ds(struct om_depth *d, const struct spec_3DSTATE_WM_DEPTH_STENCIL *v)
{
    d->ds_packet = *v;
}

/* 3DSTATE_DEPTH_BUFFER as WM decodes it (units/wm/wm.c take_depth_buffer):
 * Y-tiled, the pitch a whole number of tiles, LOD 0 only. */
void om_depth_take_depth_buffer(struct om_depth *d, const struct spec_3DSTATE_DEPTH_BUFFER *v)
{
    d->surface_type = v->SurfaceType;
    d->format = v->SurfaceFormat;
    d->buffer_write = v->DepthWriteEnable;
    d->buffer_stencil_write = v->StencilWriteEnable;
    d->min_array = v->MinimumArrayElement;
    d->hiz_enable = v->HierarchicalDepthBufferEnable;
    struct ds_surface *s = &d->depth;
    memset(s, 0, sizeof *s);
    s->base = v->SurfaceBaseAddress;
    s->pitch = v->SurfacePitch + 1;
    s->width = v->Width + 1;
    s->height = v->Height + 1;
    s->slices = v->Depth + 1 + v->MinimumArrayElement;
    s->qpitch_rows = v->SurfaceQPitch << 2;
    s->element_bytes = ds_depth_bytes(v->SurfaceFormat);
    s->tiling = TILING_Y;
    s->valid = d->surface_type != OM_SURFTYPE_NULL && s->element_bytes && !v->TiledResourceMode &&
               s->pitch % 128u == 0;
    if (d->surface_type != OM_SURFTYPE_NULL && !s->valid)
        d->bad_buffers++;
    d->hiz.blocks_x = (s->width + HIZ_BLOCK_WIDTH - 1) / HIZ_BLOCK_WIDTH;
    d->hiz.blocks_y = (s->height + HIZ_BLOCK_HEIGHT - 1) / HIZ_BLOCK_HEIGHT;
}

/* As WM decodes it (units/wm/wm.c take_hier_depth_buffer). */
void om_depth_take_hier_depth_buffer(struct om_depth *d,
                                     const struct spec_3DSTATE_HIER_DEPTH_BUFFER *v)
{
    d->hiz.base = v->SurfaceBaseAddress;
    d->hiz.pitch = v->SurfacePitch + 1;
    d->hiz.slice_rows = v->SurfaceQPitch;
    d->hiz.valid = d->hiz.pitch % 128u == 0;
}

static bool hiz_on(const struct om_depth *d)
{
    return d->hiz_enable && d->hiz.valid && d->depth.valid && d->surface_type != OM_SURFTYPE_NULL;
}

/* Before a pixel's depth is read or written: its CLEARED block materialised
 * (depth_stencil.h). *block gets the block (state AMBIGUOUS when unreadable). */
static void hiz_prepare(struct om_depth *d, struct gpu_address_space *as, uint32_t x, uint32_t y,
                        uint32_t slice, struct hiz_block *block)
{
    uint32_t bx = x / HIZ_BLOCK_WIDTH, by = y / HIZ_BLOCK_HEIGHT;
    if (!hiz_block_read(&d->hiz, as, bx, by, slice, block, NULL)) {
        d->hiz_faults++;
        *block = (struct hiz_block){ HIZ_AMBIGUOUS, 0, 0 };
        return;
    }
    if (block->state != HIZ_CLEARED)
        return;
    d->faults += hiz_fill_depth(&d->depth, d->format, as, bx, by, slice, block->min);
    *block = (struct hiz_block){ HIZ_RANGE, block->min, block->min };
    d->hiz_filled++;
    if (!hiz_block_write(&d->hiz, as, bx, by, slice, block))
        d->hiz_faults++;
}

void om_depth_take_stencil_buffer(struct om_depth *d, const struct spec_3DSTATE_STENCIL_BUFFER *v)
{
    struct ds_surface *t = &d->stencil;
    memset(t, 0, sizeof *t);
    t->base = v->SurfaceBaseAddress;
    t->pitch = v->SurfacePitch + 1;
    t->qpitch_rows = v->SurfaceQPitch << 2;
    t->element_bytes = 1;
    t->tiling = TILING_W;
    t->valid = v->StencilBufferEnable && t->pitch % 64u == 0;
    if (v->StencilBufferEnable && !t->valid)
        d->bad_buffers++;
}

void om_depth_take_cc_viewport(struct om_depth *d, const float *min_max, bool valid)
{
    d->cc_valid = valid;
    for (uint32_t i = 0; i < OM_DEPTH_VIEWPORTS; i++) {
        d->cc_min[i] = valid ? min_max[2 * i] : 1.0f;
        d->cc_max[i] = valid ? min_max[2 * i + 1] : 0.0f;
    }
}

/* WM_INT's depth/stencil enables (L15428-15468), as WM folds them. */
static void fold(const struct om_depth *d, uint32_t viewport, struct ds_state *o)
{
    uint32_t vp = viewport < OM_DEPTH_VIEWPORTS ? viewport : 0;
    const struct ds_buffers buffers = {
        .depth_surface = d->surface_type != OM_SURFTYPE_NULL && d->depth.valid,
        .depth_write = d->buffer_write,
        .stencil_valid = d->stencil.valid,
        .stencil_write = d->buffer_stencil_write,
        .cc_valid = d->cc_valid,
        .cc_min = d->cc_min[vp],
        .cc_max = d->cc_max[vp],
    };
    ds_state_fold(&d->ds_packet, &buffers, o);
}

float om_depth_source(const struct eu_thread_context *c, uint32_t x, uint32_t y)
{
    const struct eu_pixel_setup *p = &c->setup;
    float dx = (float)x + p->offset - p->x0, dy = (float)y + p->offset - p->y0;
    return p->depth[0] + p->depth[1] * dx + p->depth[2] * dy;
}

float om_depth_source_sample(const struct eu_thread_context *c, uint32_t x, uint32_t y,
                             uint32_t sample)
{
    if (c->sample_count <= 1 || sample >= c->sample_count || sample >= 16)
        return om_depth_source(c, x, y);
    const struct eu_pixel_setup *p = &c->setup;
    uint8_t pos = c->sample_position[sample];
    float dx = (float)x + (float)(pos >> 4) / 16.0f - p->x0;
    float dy = (float)y + (float)(pos & 0xfu) / 16.0f - p->y0;
    return p->depth[0] + p->depth[1] * dx + p->depth[2] * dy;
}

bool om_depth_test(struct om_depth *d, struct gpu_address_space *as,
                   const struct eu_thread_context *c, uint32_t x, uint32_t y, uint32_t sample,
                   uint32_t rt_array_index, float source_depth, int32_t stencil_reference,
                   bool update)
{
    d->depth.samples = d->stencil.samples = om_depth_samples(d);
    struct ds_state st;
    fold(d, c->viewport_index, &st);
    if (stencil_reference >= 0) {
        /* the shader's oS replaces the state's reference (om_depth.h) */
        st.front.reference = st.back.reference = (uint8_t)stencil_reference;
        if (update && st.stencil_test)
            d->stencil_exported++;
    }
    if (!st.depth_test && !st.stencil_test && !st.depth_write) {
        if (update)
            d->passed++;
        return true;
    }
    /* the slice as WM's early test picks it (an index beyond the array: 0) */
    uint32_t slice = d->min_array + rt_array_index;
    if (d->depth.slices && slice >= d->depth.slices)
        slice = d->min_array;
    uint32_t depth = 0, stored_depth = 0;
    uint8_t stencil = 0;
    bool hiz = hiz_on(d) && (st.depth_test || (update && st.depth_write));
    struct hiz_block block = { HIZ_AMBIGUOUS, 0, 0 };
    if (hiz)
        hiz_prepare(d, as, x, y, slice, &block);
    if (st.depth_test) {
        if (!ds_surface_read_sample(&d->depth, as, x, y, sample, slice, &depth)) {
            d->faults++;
            return true;
        }
        stored_depth = depth;
    }
    struct ds_surface sten = d->stencil;
    if (d->depth.valid) {
        sten.width = d->depth.width;
        sten.height = d->depth.height;
    }
    if (st.stencil_test) {
        uint32_t v;
        if (!ds_surface_read_sample(&sten, as, x, y, sample, slice, &v)) {
            d->faults++;
            return true;
        }
        stencil = (uint8_t)v;
    }
    if (!update) {
        /* an earlier RT write of the thread: the outcome only */
        st.depth_write = st.stencil_write = false;
    }
    bool back = (c->pixel_flags & EU_PIXEL_BACK_FACING) != 0;
    uint32_t r = d->datapath && d->datapath->depth
                     ? d->datapath->depth(d->datapath->context, &st, back, d->format,
                                          source_depth, &depth, &stencil)
                     : ds_test(&st, back, d->format, source_depth, &depth, &stencil);
    if (!update)
        return (r & DS_PASS) != 0;
    d->tested++;
    if (r & DS_DEPTH_WRITTEN) {
        if (d->format == DS_D24_UNORM_X8_UINT)     /* the X8 bits stay */
            depth = (stored_depth & 0xff000000u) | (depth & 0xffffffu);
        if (!ds_surface_write_sample(&d->depth, as, x, y, sample, slice, depth))
            d->faults++;
        d->depth_writes++;
        if (hiz && block.state != HIZ_AMBIGUOUS) {
            struct hiz_block before = block;
            hiz_block_note_write(&block, d->format, depth);
            if (block.min != before.min || block.max != before.max ||
                block.state != before.state) {
                d->hiz_widened++;
                if (!hiz_block_write(&d->hiz, as, x / HIZ_BLOCK_WIDTH, y / HIZ_BLOCK_HEIGHT,
                                     slice, &block))
                    d->hiz_faults++;
            }
        }
    }
    if (r & DS_STENCIL_WRITTEN) {
        if (!ds_surface_write_sample(&sten, as, x, y, sample, slice, stencil))
            d->faults++;
        d->stencil_writes++;
    }
    if (r & DS_STENCIL_FAILED)
        d->stencil_failed++;
    if (r & DS_DEPTH_FAILED)
        d->depth_failed++;
    if (r & DS_PASS)
        d->passed++;
    return (r & DS_PASS) != 0;
}
