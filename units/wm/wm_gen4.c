/* units/wm/wm_gen4.c - the Windower's Gen4 state and PS payload; see
 * wm_gen4.h. */
#include "units/wm/wm_gen4.h"

#include <string.h>

#include "fabric/memory.h"
#include "units/common/gen4_cc.h"

#define GEN4_CC_VIEWPORT_DWORDS 2u

static enum wm_gen4_change take_pointers(struct wm_gen4 *g, struct sim *sim,
                                         const struct cs_state_packet *p,
                                         const struct spec_3DSTATE_PIPELINED_POINTERS *v)
{
    g->pointers++;
    g->wm_pointer = (uint32_t)v->PointerToWMState;
    g->cc_pointer = (uint32_t)v->PointerToColorCalcState;
    memset(&g->wm, 0, sizeof g->wm);
    memset(&g->cc, 0, sizeof g->cc);
    g->wm_valid = gen4_cc_read(sim, p, g->general_base + g->wm_pointer, SPEC_ID_WM_STATE,
                                  GEN4_WM_STATE_DWORDS, &g->wm);
    g->cc_valid = gen4_cc_read(sim, p, g->general_base + g->cc_pointer,
                                  SPEC_ID_COLOR_CALC_STATE, GEN4_CC_STATE_DWORDS, &g->cc);
    if (!g->wm_valid || !g->cc_valid) {
        /* unreadable state: WM stays disabled (no threads, no depth test) */
        g->bad_pointers++;
        memset(&g->wm, 0, sizeof g->wm);
        memset(&g->cc, 0, sizeof g->cc);
        g->wm_valid = g->cc_valid = false;
    }
    struct spec_CC_VIEWPORT vp;
    memset(&vp, 0, sizeof vp);
    g->cc_viewport_valid =
        g->cc_valid && gen4_cc_read(sim, p, g->general_base + g->cc.CCViewportStatePointer,
                                       SPEC_ID_CC_VIEWPORT, GEN4_CC_VIEWPORT_DWORDS, &vp);
    if (g->cc_valid && !g->cc_viewport_valid)
        g->bad_pointers++;
    g->cc_min = g->cc_viewport_valid ? vp.MinimumDepth : 0.0f;
    g->cc_max = g->cc_viewport_valid ? vp.MaximumDepth : 1.0f;
    return WM_GEN4_POINTERS;
}

static enum wm_gen4_change take_constants(struct wm_gen4 *g, struct sim *sim,
                                          const struct cs_state_packet *p,
                                          const struct spec_CONSTANT_BUFFER *v)
{
    g->constant_buffers++;
    memset(g->curbe, 0, sizeof g->curbe);
    g->curbe_regs = 0;
    if (!v->Valid)
        return WM_GEN4_CONSTANTS;
    /* Buffer Length: 512-bit units - 1 (two registers each) */
    uint32_t regs = 2u * (v->BufferLength + 1u);
    if (regs > WM_GEN4_CURBE_REGS)
        regs = WM_GEN4_CURBE_REGS;
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    if (gpu_address_space_read(&as, v->BufferStartingAddress, g->curbe,
                               (size_t)regs * EU_MSG_REG_BYTES, &err) != 0) {
        g->constant_read_failures++;
        memset(g->curbe, 0, sizeof g->curbe);
        return WM_GEN4_CONSTANTS;
    }
    g->curbe_regs = regs;
    return WM_GEN4_CONSTANTS;
}

enum wm_gen4_change wm_gen4_take(struct wm_gen4 *g, struct sim *sim,
                                 const struct cs_state_packet *p)
{
    if (p->gen != 4)
        return WM_GEN4_NONE;
    const void *body = cs_state_common(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = body;
        if (v->GeneralStateBaseAddressModifyEnable)
            g->general_base = v->GeneralStateBaseAddress;
        if (v->SurfaceStateBaseAddressModifyEnable)
            g->surface_base = v->SurfaceStateBaseAddress;
        return WM_GEN4_BASES;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
        return take_pointers(g, sim, p, body);
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS:
        g->ps_binding_table =
            (uint32_t)((const struct spec_3DSTATE_BINDING_TABLE_POINTERS *)body)
                ->PointerToPSBindingTable;
        return WM_GEN4_BINDING_TABLE;
    case SPEC_ID_CONSTANT_BUFFER:
        return take_constants(g, sim, p, body);
    default:
        return WM_GEN4_NONE;
    }
}

/* The fixed part: R0, R1, and R2-R3 with source depth. */
static uint32_t fixed_regs(const struct wm_gen4 *g)
{
    return g->wm.PixelShaderUsesSourceDepth ? 4u : 2u;
}

uint32_t wm_gen4_payload_regs(const struct wm_gen4 *g, const struct wm_gen4_dispatch *d,
                              uint32_t *first, bool *bad_start)
{
    uint32_t fixed = fixed_regs(g);
    uint32_t start = g->wm.DispatchGRFStartRegisterForConstantSetupData0;
    *bad_start = start < fixed;
    if (start < fixed)
        start = fixed;
    *first = start;
    uint32_t total = start + g->wm.ConstantURBEntryReadLength + g->wm.SetupURBEntryReadLength;
    (void)d;
    return total;
}

static void put32(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t total, uint32_t reg, uint32_t dw,
                  uint32_t v)
{
    if (reg < total)
        memcpy(&grf[reg][4 * dw], &v, 4);
}

static uint32_t float_bits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

void wm_gen4_payload(const struct wm_gen4 *g, const struct wm_gen4_dispatch *d,
                     uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t total, uint32_t first)
{
    const struct setup_primitive *p = d->prim;
    uint32_t n = d->n > 4 ? 4 : d->n;
    /* R0.0: Pixel Mask (SubSpan[3:0]) 31:16 and its copy 15:0 (L18330ff) */
    uint32_t mask = 0;
    for (uint32_t k = 0; k < n; k++)
        mask |= (uint32_t)(d->subspans[k].pixel_mask & 0xfu) << (4 * k);
    put32(grf, total, 0, 0, mask << 16 | mask);
    /* R0.1: Color Calculator State Pointer, GeneralStateOffset[31:6] */
    put32(grf, total, 0, 1, g->cc_pointer & ~0x3fu);
    put32(grf, total, 0, 2, 0);
    put32(grf, total, 0, 6, d->thread_count & 0xffffffu);
    /* R1.0 / R1.1: Xstart / Ystart, the start vertex (V0) */
    put32(grf, total, 1, 0, float_bits(p->x0));
    put32(grf, total, 1, 1, float_bits(p->y0));
    for (uint32_t k = 0; k < n; k++)
        put32(grf, total, 1, 2 + k,
              (uint32_t)d->subspans[k].x | (uint32_t)d->subspans[k].y << 16);
    bool depth = g->wm.PixelShaderUsesSourceDepth;
    put32(grf, total, 1, 6,
          ((p->flags & PRIM_BACK_FACING) ? 1u << 31 : 0) | (depth ? 1u << 30 : 0) |
              (p->topology & 0x1fu));
    put32(grf, total, 1, 7, (p->viewport_index & 0xfu) << 27 | (p->rt_array_index & 0x7ffu) << 16);
    /* R2-R3: interpolated depth, R2 subspans 0-1, R3 subspans 2-3 */
    if (depth)
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t i = 0; i < 4; i++)
                put32(grf, total, 2 + k / 2, 4 * (k % 2) + i,
                      float_bits((d->subspans[k].pixel_mask >> i) & 1u ? d->subspans[k].depth[i]
                                                                       : 0.0f));
    /* constants, then the setup URB data */
    uint32_t reg = first;
    for (uint32_t i = 0; i < g->wm.ConstantURBEntryReadLength; i++, reg++) {
        uint32_t row = g->wm.ConstantURBEntryReadOffset + i;
        if (reg < total && row < g->curbe_regs)
            memcpy(grf[reg], g->curbe[row], EU_MSG_REG_BYTES);
    }
    for (uint32_t i = 0; i < g->wm.SetupURBEntryReadLength; i++, reg++)
        if (reg < total && i < d->setup_rows)
            memcpy(grf[reg], d->setup[i], EU_MSG_REG_BYTES);
}
