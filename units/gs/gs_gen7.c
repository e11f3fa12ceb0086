/* units/gs/gs_gen7.c - the GS's SIMD4x2 thread payload; see gs_gen7.h. */
#include "units/gs/gs_gen7.h"

#include <string.h>

#include "units/common/thread_payload.h"
#include "units/common/urb.h"

static void put_dword(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dw, uint32_t v)
{
    memcpy(&grf[reg][dw * 4], &v, 4);
}

void gs_simd4x2_layout(const struct gs_simd4x2_form *f, uint32_t vertex_count,
                       struct gs_simd4x2_layout *out)
{
    memset(out, 0, sizeof *out);
    /* ICP handles: 8 a register, DUAL_OBJECT 4 of each object (003 L13420-13566) */
    uint32_t per_reg = f->dual_object ? 4u : 8u;
    uint32_t reg = 1;
    if (f->include_primitive_id)
        out->primitive_id_reg = reg++;
    if (f->include_vertex_handles) {
        out->handle_reg = reg;
        reg += (vertex_count + per_reg - 1) / per_reg;
    }
    out->constant_reg = reg;
    out->data_reg = reg + f->constant_regs;
    if (f->grf_start >= out->data_reg)
        out->data_reg = f->grf_start;
    else if (f->read_length)
        out->grf_start_adjusted = true;
    /* DUAL_OBJECT: each 256-bit row of a vertex takes two registers */
    uint32_t vertex_regs = f->read_length * (f->dual_object ? 2u : 1u);
    uint32_t total = out->data_reg + vertex_count * vertex_regs;
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        out->truncated = true;
        total = THREAD_PAYLOAD_MAX_REGS;
    }
    out->total = total;
}

void gs_simd4x2_write(const struct gs_simd4x2_form *f, const struct gs_simd4x2_layout *l,
                      uint8_t (*grf)[EU_MSG_REG_BYTES], const struct gs_simd4x2_half *halves,
                      uint32_t count)
{
    if (count > 2)
        count = 2;
    /* R0.0 / R0.1: GS Instance ID [31:27] | URB Return Handle [15:0] */
    for (uint32_t h = 0; h < count; h++)
        put_dword(grf, 0, h, (f->dual_object ? 0u : (halves[h].instance & 31u) << 27) |
                                 (halves[h].output_handle & 0xffffu));
    /* the objects whose handles and data the payload carries */
    uint32_t objects = f->dual_object ? count : 1u;
    for (uint32_t o = 0; o < objects; o++) {
        const struct gs_simd4x2_half *h = &halves[o];
        uint32_t lane_dw = o * 4u;      /* object 1: the upper half */
        if (l->primitive_id_reg && l->primitive_id_reg < l->total)
            put_dword(grf, l->primitive_id_reg, lane_dw, h->primitive_id);
        if (l->handle_reg)
            for (uint32_t v = 0; v < h->vertex_count; v++) {
                uint32_t r = f->dual_object ? l->handle_reg + v / 4 : l->handle_reg + v / 8;
                uint32_t dw = f->dual_object ? lane_dw + v % 4 : v % 8;
                if (r < l->total)
                    put_dword(grf, r, dw, h->icp_handles[v] & 0xffffu);
            }
        if (!h->vertex_data)
            continue;
        for (uint32_t v = 0; v < h->vertex_count; v++)
            for (uint32_t row = 0; row < f->read_length; row++) {
                const uint8_t *src = h->vertex_data + ((size_t)v * f->read_length + row) * URB_ROW_BYTES;
                if (!f->dual_object) {
                    uint32_t r = l->data_reg + v * f->read_length + row;
                    if (r < l->total)
                        memcpy(grf[r], src, URB_ROW_BYTES);
                    continue;
                }
                /* element e (128 bits) of the row: object 0 in DW3:0, 1 in DW7:4 */
                for (uint32_t e = 0; e < 2; e++) {
                    uint32_t r = l->data_reg + (v * f->read_length + row) * 2u + e;
                    if (r < l->total)
                        memcpy(&grf[r][o * 16u], src + e * 16u, 16);
                }
            }
    }
}
