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
    st->alternate_fp = g.FloatingPointMode == 1;
    st->illegal_opcode_exception = g.IllegalOpcodeExceptionEnable;
    st->software_exception = g.SoftwareExceptionEnable;
    st->single_program_flow = g.SingleProgramFlow;
    st->per_thread_scratch = g.PerThreadScratchSpace;
    st->scratch_base = g.ScratchSpaceBasePointer;
    st->sprite_point = g.SpritePointEnable;
    st->origin_bias_x = (float)g.DestinationOriginHorizontalBias;    /* L13044-13070 */
    st->origin_bias_y = (float)g.DestinationOriginVerticalBias;
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

/* ---- the setup thread --------------------------------------------------------- */

void sf_gen4_setup_params(const struct sf_gen4_object_in *o, float half,
                          struct sf_gen4_setup_params *out)
{
    memset(out, 0, sizeof *out);
    uint32_t order[3] = { 0, 1, 2 };
    if (o->type == SF_GEN4_POINT) {
        /* L14199-14206: the square's upper-left, lower-right and lower-left
         * corners; the centre's Z and 1/W for all three */
        out->count = 1;
        float xl = o->x[0] - half, xr = o->x[0] + half, yt = o->y[0] - half, yb = o->y[0] + half;
        out->x0 = xl;
        out->y0 = yt;
        out->dx0 = xr - xl;
        out->dy0 = yb - yt;
        out->dx2 = 0;
        out->dy2 = yb - yt;
        out->determinant = out->dx0 * out->dy2 - out->dx2 * out->dy0;
        for (uint32_t i = 0; i < 3; i++) {
            out->source[i] = o->source[0];
            out->z[i] = o->z[0];
            out->rhw[i] = o->rhw[0];
        }
        out->provoking = 0;
        return;
    }
    uint32_t n = o->type == SF_GEN4_LINE ? 2 : 3;
    /* V0: the top-most vertex (least Y), of equals the left-most (L14183-
     * 14186 says "least positive Z", read as X: the sentence is about the
     * screen position) */
    uint32_t v0 = 0;
    for (uint32_t i = 1; i < n; i++)
        if (o->y[i] < o->y[v0] || (o->y[i] == o->y[v0] && o->x[i] < o->x[v0]))
            v0 = i;
    order[0] = v0;
    if (n == 2) {
        order[1] = 1 - v0;
    } else {
        /* V1 the next vertex clockwise (X right, Y down: a positive
         * (V1-V0) x (V2-V0) is clockwise on the screen) */
        uint32_t a = (v0 + 1) % 3, b = (v0 + 2) % 3;
        float cross = (o->x[a] - o->x[v0]) * (o->y[b] - o->y[v0]) -
                      (o->x[b] - o->x[v0]) * (o->y[a] - o->y[v0]);
        order[1] = cross >= 0 ? a : b;
        order[2] = cross >= 0 ? b : a;
    }
    out->count = n;
    for (uint32_t i = 0; i < n; i++) {
        out->source[i] = o->source[order[i]];
        out->z[i] = o->z[order[i]];
        out->rhw[i] = o->rhw[order[i]];
        if (order[i] == o->provoking)
            out->provoking = i;
    }
    out->x0 = o->x[order[0]];
    out->y0 = o->y[order[0]];
    out->dx0 = o->x[order[1]] - out->x0;
    out->dy0 = o->y[order[1]] - out->y0;
    if (n == 2) {
        /* L14306-14312: a line's determinant is the squared length; dX2,
         * dY2, Z2 and 1/W2 reserved (zero) */
        out->determinant = out->dx0 * out->dx0 + out->dy0 * out->dy0;
        return;
    }
    out->dx2 = o->x[order[2]] - out->x0;
    out->dy2 = o->y[order[2]] - out->y0;
    out->determinant = out->dx0 * out->dy2 - out->dx2 * out->dy0;     /* L14300-14304 */
}

static void put_u32(uint8_t (*grf)[32], uint32_t total, uint32_t reg, uint32_t dw, uint32_t v)
{
    if (reg < total)
        memcpy(&grf[reg][4 * dw], &v, 4);
}

static void put_f32(uint8_t (*grf)[32], uint32_t total, uint32_t reg, uint32_t dw, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(grf, total, reg, dw, v);
}

void sf_gen4_payload(const struct sf_gen4_object_in *o, const struct sf_gen4_setup_params *sp,
                     uint32_t handle_id, uint32_t urb_handle,
                     const uint8_t (*constants)[32], uint32_t constant_regs,
                     const uint8_t *const *vue, uint32_t rows, uint8_t (*grf)[32], uint32_t total,
                     uint32_t first)
{
    /* R0.0: Handle ID 31:16, URB Return Handle 15:0 (the PUE); R0.1, R0.2
     * reserved; R0.6 Thread ID (23:0, "reserved for HW implementation use":
     * the handle ID) */
    put_u32(grf, total, 0, 0, (handle_id & 0xffffu) << 16 | (urb_handle & 0xffffu));
    put_u32(grf, total, 0, 1, 0);
    put_u32(grf, total, 0, 2, 0);
    put_u32(grf, total, 0, 6, handle_id & 0xffffffu);
    /* R1.0: back facing 17, Sprite Point Enable 16, PrimType 15:0 */
    put_u32(grf, total, 1, 0, (o->back_facing ? 1u << 17 : 0) | (o->sprite_point ? 1u << 16 : 0) |
                                  (o->topology & 0xffffu));
    put_u32(grf, total, 1, 1, sp->provoking);
    put_f32(grf, total, 1, 2, sp->determinant);
    put_f32(grf, total, 1, 3, sp->dx0);
    put_f32(grf, total, 1, 4, sp->dx2);
    put_f32(grf, total, 1, 5, sp->dy0);
    put_f32(grf, total, 1, 6, sp->dy2);
    put_u32(grf, total, 1, 7, 0);
    /* R2: Z0, 1/W0, Z1, 1/W1, Z2, 1/W2 (lines: Z2 and 1/W2 reserved) */
    bool line = o->type == SF_GEN4_LINE;
    for (uint32_t i = 0; i < 3; i++) {
        put_f32(grf, total, 2, 2 * i, line && i == 2 ? 0.0f : sp->z[i]);
        put_f32(grf, total, 2, 2 * i + 1, line && i == 2 ? 0.0f : sp->rhw[i]);
    }
    put_u32(grf, total, 2, 6, 0);
    put_u32(grf, total, 2, 7, 0);
    /* the URB data: constants, then V0, V1, V2 (L14430-14441) */
    uint32_t reg = first;
    for (uint32_t i = 0; i < constant_regs; i++, reg++)
        if (reg < total)
            memcpy(grf[reg], constants[i], 32);
    for (uint32_t v = 0; v < sp->count; v++)
        for (uint32_t r = 0; r < rows; r++, reg++)
            if (reg < total && vue[v])
                memcpy(grf[reg], vue[v] + 32u * r, 32);
}
