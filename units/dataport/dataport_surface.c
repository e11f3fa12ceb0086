/* units/dataport/dataport_surface.c - the surface a message addresses: a binding table
 * index to a binding-table entry and RENDER_SURFACE_STATE, or to the A32/A64 stateless
 * and SLM address models (seed 003 L4862-5014). Moved as is from dataport.c; the
 * surfaces library will replace the state decode. */
#include "units/dataport/dataport_internal.h"

#include <string.h>

#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"

/* Resolves a BTI to a surface (L4862-5014). */
void dp_resolve(struct acc *a, uint32_t bti, bool a64)
{
    struct dp *s = a->s;
    const struct eu_thread_context *c = a->ctx;
    memset(&a->sf, 0, sizeof a->sf);
    a->sf.model = M_NULL;
    if (a64) {
        a->sf.model = M_A64;
        return;
    }
    if (bti == BTI_SLM) {
        a->sf.model = M_SLM;
        a->sf.size = c->slm_size;
        return;
    }
    if (bti == BTI_STATELESS || bti == BTI_STATELESS_NC) {
        a->sf.model = M_A32;
        a->sf.base = c->general_state_base;
        a->sf.size = c->general_state_size;
        return;
    }
    if (!c->valid || bti >= 240)
        return;
    if (c->binding_table_entries && bti >= c->binding_table_entries) {
        s->bti_beyond_table++;
        dp_warn_once(s, a->u, 0,
                     "binding table index %u beyond the table's %u entries: null surface", bti,
                     c->binding_table_entries);
        return;
    }
    struct gt_error err;
    uint32_t entry;
    if (gpu_address_space_read(&a->as, c->surface_state_base + c->binding_table + 4ull * bti,
                               &entry, 4, &err) < 0) {
        s->state_faults++;
        return;
    }
    uint32_t dw[16];
    uint64_t at = c->surface_state_base + (entry & (c->gen >= 8 ? ~63u : ~31u));
    if (gpu_address_space_read(&a->as, at, dw, c->gen >= 8 ? 64 : 32, &err) < 0) {
        s->state_faults++;
        dp_warn_once(s, a->u, 1, "surface state of BTI %u unreadable (entry 0x%x): null surface",
                     bti, entry);
        return;
    }
    /* the unpacking depends only on the generation and the state's bytes:
     * states seen before are looked up by their bytes */
    size_t state_bytes = c->gen >= 8 ? 64 : 32;
    for (uint32_t k = 0; k < DP_SURF_MEMOS; k++) {
        const struct surf_memo *mo = &s->memo[k];
        if (mo->valid && mo->gen == c->gen && memcmp(mo->dw, dw, state_bytes) == 0) {
            a->sf = mo->sf;
            return;
        }
    }
    struct surf_memo *mo = &s->memo[s->memo_next];
    s->memo_next = (s->memo_next + 1) % DP_SURF_MEMOS;
    mo->valid = false;
    uint32_t type, w, h, d, pitch, format;
    uint64_t base;
    bool tiled;
    if (c->gen == 7) {
        struct GEN7_RENDER_SURFACE_STATE v;
        GEN7_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TiledSurface;
    } else if (c->gen == 8) {
        struct GEN8_RENDER_SURFACE_STATE v;
        GEN8_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TileMode != 0;
    } else {
        struct GEN9_RENDER_SURFACE_STATE v;
        GEN9_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TileMode != 0;
    }
    a->sf.type = type;
    a->sf.format = format;
    a->sf.tiled = tiled;
    a->sf.pitch = pitch + 1;
    a->sf.width = w + 1;
    a->sf.height = h + 1;
    a->sf.depth = d + 1;
    if (type != 7) {    /* SURFTYPE_NULL stays M_NULL */
        a->sf.model = M_BUFFER;
        a->sf.base = base;
        if (type == 4 || type == 5) {   /* BUFFER, STRBUF: size - 1 = Depth | Height | Width */
            a->sf.size = ((uint64_t)d << 21 | (uint64_t)h << 7 | w) + 1;
        } else {
            /* other surface types through untyped messages: bounded by the 2D extent */
            a->sf.size = ((uint64_t)w + 1) * ((uint64_t)h + 1) * ((uint64_t)d + 1) * 16;
        }
    }
    mo->gen = c->gen;
    memcpy(mo->dw, dw, state_bytes);
    mo->sf = a->sf;
    mo->valid = true;
}

