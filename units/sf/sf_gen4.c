/* units/sf/sf_gen4.c - see sf_gen4.h. */
#include "units/sf/sf_gen4.h"

#include <string.h>

#include "spec_gen4_pack.h"
#include "units/common/gen4_state.h"

int sf_gen4_read_state(struct sim *sim, const struct cs_state_packet *p, uint64_t general_state_base,
                       uint64_t sf_state_offset, struct sf_gen4_state *st)
{
    memset(st, 0, sizeof *st);
    st->subpixel_bits = 8;
    uint32_t dw[GEN4_SF_STATE_length];
    if (!gen4_state_read(sim, p, general_state_base, sf_state_offset, dw, GEN4_SF_STATE_length))
        return 1;
    struct GEN4_SF_STATE g;
    GEN4_SF_STATE_unpack(dw, &g);
    st->kernel_start = g.KernelStartPointer;
    st->grf_blocks = g.GRFRegisterCount + 1;            /* "register block count - 1" */
    st->binding_table_entries = g.BindingTableEntryCount;
    st->dispatch_grf_start = g.DispatchGRFStartRegisterForURBData;
    st->vertex_read_offset = g.VertexURBEntryReadOffset;
    st->vertex_read_length = g.VertexURBEntryReadLength;
    st->constant_read_offset = g.ConstantURBEntryReadOffset;
    st->constant_read_length = g.ConstantURBEntryReadLength;
    st->urb_entries = g.NumberOfURBEntries;
    st->urb_entry_rows = g.URBEntryAllocationSize + 1;  /* 512-bit units - 1 (L12820) */
    st->maximum_threads = g.MaximumNumberOfThreads + 1;
    st->viewport_transform = g.ViewportTransformEnable;
    st->scissor_enable = g.ScissorRectangleEnable;
    /* Cull Mode (L12905: BOTH, NONE, FRONT, BACK) and Front Winding (L12883:
     * CW, CCW) have the encodings of enum sf_cull_mode / sf_front_winding */
    st->cull_mode = g.CullMode;
    st->front_winding = g.FrontWinding;
    st->line_width = (float)g.LineWidth;
    st->point_width = (float)g.PointWidth;
    st->point_width_from_state = g.PointWidthSource == 1;
    st->point_rule_upper_right = g.PointRasterizationRule == 1;
    st->last_pixel = g.LastPixelEnable;
    st->antialiasing = g.AntialiasingEnable;
    st->subpixel_bits = g.VertexSubPixelPrecisionSelect ? 4 : 8;    /* L13183 */
    st->tri_provoking = g.TriangleStripListProvokingVertexSelect;
    st->line_provoking = g.LineStripListProvokingVertexSelect;
    st->fan_provoking = g.TriangleFanProvokingVertexSelect;
    uint32_t vp[GEN4_SF_VIEWPORT_length];
    if (!gen4_state_read(sim, p, general_state_base, g.SetupViewportStateOffset, vp,
                         GEN4_SF_VIEWPORT_length))
        return 2;
    struct GEN4_SF_VIEWPORT v;
    GEN4_SF_VIEWPORT_unpack(vp, &v);
    st->m00 = v.ViewportMatrixElementM00;
    st->m11 = v.ViewportMatrixElementM11;
    st->m22 = v.ViewportMatrixElementM22;
    st->m30 = v.ViewportMatrixElementM30;
    st->m31 = v.ViewportMatrixElementM31;
    st->m32 = v.ViewportMatrixElementM32;
    st->scissor_x_min = v.ScissorRectangle.ScissorRectangleXMin;
    st->scissor_y_min = v.ScissorRectangle.ScissorRectangleYMin;
    st->scissor_x_max = v.ScissorRectangle.ScissorRectangleXMax;
    st->scissor_y_max = v.ScissorRectangle.ScissorRectangleYMax;
    return 0;
}

void sf_gen4_to_screen(const struct sf_gen4_state *st, const float position[4], float screen[3],
                       float *w)
{
    float x = position[0], y = position[1], z = position[2];
    if (st->viewport_transform) {
        x = st->m00 * x + st->m30;
        y = st->m11 * y + st->m31;
        z = st->m22 * z + st->m32;
    }
    screen[0] = x;
    screen[1] = y;
    screen[2] = z;
    *w = 1.0f / position[3];
}
