/* units/dataport/dataport_surface.c - the surface a message addresses: a binding table
 * index to a binding-table entry and RENDER_SURFACE_STATE, or to the A32/A64 stateless
 * and SLM address models (seed 003 L4862-5014).  The state is decoded by the
 * surfaces library. */
#include "units/dataport/dataport_internal.h"

#include <string.h>

#include "units/common/surface.h"

/* The data port's view of a decoded surface. Untyped and scattered messages
 * see BUFFER and STRBUF surfaces as Depth|Height|Width + 1 bytes and other
 * types as bounded by their extent at 16 bytes an element; typed messages
 * use the extent (slices: a 3D surface's depth, a cube's cubes, else the
 * array length) and the pitch. */
static void surface_to_dp(const struct surface *sd, struct surf *sf)
{
    sf->type = sd->type;
    sf->format = sd->format;
    sf->tiled = sd->tiling != TILING_LINEAR;
    sf->pitch = sd->pitch;
    sf->width = sd->width;
    sf->height = sd->height;
    sf->depth = sd->type == SURFACE_3D ? sd->depth
              : sd->type == SURFACE_CUBE ? sd->array_length / 6 : sd->array_length;
    if (sd->type == SURFACE_NULL)
        return;
    sf->model = M_BUFFER;
    sf->base = sd->base_address;
    if (sd->type == SURFACE_BUFFER || sd->type == SURFACE_STRBUF)
        sf->size = sd->buffer_entries;
    else
        sf->size = (uint64_t)sf->width * sf->height * sf->depth * 16;
}

/* n bytes of state at GPU virtual address addr (a binding-table entry, a
 * surface state) through the message's one-page translation (dataport_access.c):
 * the binding table and the states usually share a page, so one page walk
 * serves both, and the data access after them may use it too. */
static int read_state(struct acc *a, uint64_t addr, void *buf, unsigned n, struct gt_error *err)
{
    uint64_t in_page = addr & (GPU_PAGE_SIZE - 1);
    if (in_page + n > GPU_PAGE_SIZE)
        return gpu_address_space_read(&a->as, addr, buf, n, err);
    if (!dp_tlb_translate(a, addr))
        return gt_error_set(err, "state at 0x%llx does not translate", (unsigned long long)addr);
    return dp_tlb_read(a, in_page, buf, n, err);
}

/* The surface a BTI resolved to, kept while the epoch read before its reads holds. */
static void keep_bti(struct dp *s, const struct acc *a, uint32_t bti, uint64_t epoch)
{
    const struct eu_thread_context *c = a->ctx;
    s->bti_cache[bti % DP_BTI_CACHE] = (struct dp_bti_entry){
        .surface_state_base = c->surface_state_base, .root = a->as.root, .epoch = epoch,
        .binding_table = c->binding_table, .bti = bti, .entries = c->binding_table_entries,
        .gen = c->gen, .format = (uint8_t)a->as.format, .valid = true, .sf = a->sf };
}

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
    /* the surface this BTI resolved to before, while no page it was read
     * from (the binding table, the state, their page tables) was written */
    struct dp_bti_entry *be = &s->bti_cache[bti % DP_BTI_CACHE];
    uint64_t epoch = gpu_memory_metadata_epoch(a->as.memory);
    if (be->valid && be->epoch == epoch && be->bti == bti &&
        be->surface_state_base == c->surface_state_base && be->binding_table == c->binding_table &&
        be->entries == c->binding_table_entries && be->gen == c->gen && be->root == a->as.root &&
        be->format == (uint8_t)a->as.format) {
        a->sf = be->sf;
        return;
    }
    struct gt_error err;
    uint32_t entry;
    uint64_t entry_at = c->surface_state_base + c->binding_table + 4ull * bti;
    if (read_state(a, entry_at, &entry, 4, &err) < 0) {
        s->state_faults++;
        return;
    }
    uint64_t entry_page = a->tlb_valid ? a->tlb_ppage : UINT64_MAX;
    uint32_t dw[16];
    uint64_t at = c->surface_state_base + (entry & (c->gen >= 8 ? ~63u : ~31u));
    if (read_state(a, at, dw, c->gen >= 8 ? 64 : 32, &err) < 0) {
        s->state_faults++;
        dp_warn_once(s, a->u, 1, "surface state of BTI %u unreadable (entry 0x%x): null surface",
                     bti, entry);
        return;
    }
    /* the unpacking depends only on the generation and the state's bytes:
     * states seen before are looked up by their bytes */
    size_t state_bytes = c->gen >= 8 ? 64 : 32;
    /* kept for the BTI when both reads came through the message's one-page
     * translation (not a state across pages) and their pages could be marked */
    bool keep = entry_page != UINT64_MAX && a->tlb_valid &&
                ((at & (GPU_PAGE_SIZE - 1)) + state_bytes <= GPU_PAGE_SIZE) &&
                gpu_memory_mark_metadata(a->as.memory, entry_page) &&
                gpu_memory_mark_metadata(a->as.memory, a->tlb_ppage);
    for (uint32_t k = 0; k < DP_SURF_MEMOS; k++) {
        const struct surf_memo *mo = &s->memo[k];
        if (mo->valid && mo->gen == c->gen && memcmp(mo->dw, dw, state_bytes) == 0) {
            a->sf = mo->sf;
            if (keep)
                keep_bti(s, a, bti, epoch);
            return;
        }
    }
    struct surf_memo *mo = &s->memo[s->memo_next];
    s->memo_next = (s->memo_next + 1) % DP_SURF_MEMOS;
    mo->valid = false;
    /* the state's fields through the surfaces library (units/common/surface.h);
     * a state it refuses (a reserved encoding) is a null surface, counted
     * with the unreadable ones */
    struct surface sd;
    if (surface_from_state(c->gen, dw, &sd) != SURFACE_OK && sd.status != SURFACE_NO_ELEMENT_SIZE) {
        s->state_faults++;
        dp_warn_once(s, a->u, 5, "surface state of BTI %u refused (status -%u, units/common/surface.h): null surface",
                     bti, (uint32_t)-(int32_t)sd.status);
        memset(&a->sf, 0, sizeof a->sf);
        a->sf.model = M_NULL;
    } else {
        surface_to_dp(&sd, &a->sf);
    }
    mo->gen = c->gen;
    memcpy(mo->dw, dw, state_bytes);
    mo->sf = a->sf;
    mo->valid = true;
    if (keep && a->sf.model != M_NULL)
        keep_bti(s, a, bti, epoch);
}

