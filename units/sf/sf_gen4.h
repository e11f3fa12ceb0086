/* units/sf/sf_gen4.h - the Gen4 (965G) forms SF takes (issue 14 item 3): a
 * library of units/sf, not a unit kind.
 *
 * Seed 001 (notes/001-gen4.md §4.7):
 *  - SF_STATE [Pre-DevGT] (L12551-L13210), read when 3DSTATE_PIPELINED_
 *    POINTERS reaches SF, at General State Base + Pointer to SF State
 *    (L1220-1349, units/common/gen4_state.h): the setup kernel and its URB
 *    fields, Front Winding, Viewport Transform Enable, Setup Viewport State
 *    Offset, Cull Mode, Line Width, Point Rasterization Rule, Scissor
 *    Rectangle Enable, Destination Origin Bias, Point Width and its source,
 *    Vertex Sub Pixel Precision Select, the provoking vertex selects and
 *    Last Pixel Enable;
 *  - SF_VIEWPORT (L14099-L14169): m00, m11, m22, m30, m31, m32 and the
 *    scissor rectangle (DW6-7), at General State Base + Setup Viewport State
 *    Offset. Only element 0 is read: Gen4's VPIndex comes from the VUE header
 *    and Mesa's i965 programs one viewport (not modelled: elements 1-15);
 *  - the Gen4 VUE header (L1490-L1601): D4-D6 the position already divided
 *    (NDC, or screen space when premapped), D7 its reciprocal W (RHW), so SF
 *    does no perspective divide on Gen4.
 *  - the SF thread's setup values and payload (below, seed 001 §7.5);
 *  - URB_FENCE: SF tells the urb_fence unit (URB_OP_FENCE, sf.c
 *    gen4_configure) when it reaches one, after the allocations of the work
 *    before it: the SF region takes the fence in SF's command order
 *    (units/urb_fence/urb_fence.h).
 * Not modelled: Destination Origin Bias in rasterization (the pixel centre
 * rule used is the Gen8 CENTER one, = a bias of 0.5, what Mesa programs; the
 * bias does move the planes' origin the PS gets, sf.h), AA line
 * fields, Sprite Point Enable (a payload hint), the 2x2/zero-pixel triangle
 * filters (performance only). */
#ifndef GTSIM_UNITS_SF_SF_GEN4_H
#define GTSIM_UNITS_SF_SF_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/state_packet.h"

struct sim;

/* What SF takes from SF_STATE and its SF_VIEWPORT, in the terms sf.c uses. */
struct sf_gen4_state {
    /* the setup kernel (seed 001 L12551-12830) */
    uint64_t kernel_start;          /* General State offset */
    uint32_t grf_blocks;            /* GRF Register Count + 1 (16-register blocks) */
    uint32_t binding_table_entries;
    uint32_t dispatch_grf_start, vertex_read_offset, vertex_read_length;
    uint32_t constant_read_offset, constant_read_length;
    uint32_t urb_entries, urb_entry_rows;   /* Number of URB Entries; Allocation Size + 1 */
    uint32_t maximum_threads;               /* Maximum Number of Threads + 1 */
    /* fixed-function setup */
    bool viewport_transform;
    float m00, m11, m22, m30, m31, m32;
    uint32_t scissor_x_min, scissor_y_min, scissor_x_max, scissor_y_max;
    bool scissor_enable;
    uint32_t cull_mode, front_winding;      /* the Gen8 enums' values (same encoding) */
    float line_width, point_width;
    bool point_width_from_state, point_rule_upper_right, last_pixel, antialiasing;
    uint32_t subpixel_bits;
    uint32_t tri_provoking, line_provoking, fan_provoking;
    /* the setup thread (sf_gen4_payload) */
    bool alternate_fp, illegal_opcode_exception, software_exception, single_program_flow;
    uint32_t per_thread_scratch;            /* 1 KB << code */
    uint64_t scratch_base;                  /* General State offset */
    bool sprite_point;                      /* Sprite Point Enable, passed in R1.0 */
    float origin_bias_x, origin_bias_y;     /* Destination Origin Horizontal / Vertical Bias */
};

/* Reads SF_STATE at general_state_base + sf_state_offset and its SF_VIEWPORT.
 * Returns 0 when both were read; 1 when SF_STATE lies outside memory (st
 * zeroed: the caller counts it and culls nothing it cannot set up); 2 when
 * only the viewport does (its fields zero). */
int sf_gen4_read_state(struct sim *sim, const struct cs_state_packet *p, uint64_t general_state_base,
                       uint64_t sf_state_offset, struct sf_gen4_state *st);

/* The screen position of a Gen4 VUE header position (D4-D7 = x, y, z
 * already divided, RHW): the viewport transform when enabled (L11843-
 * L11860); w = 1 / RHW for the 1/w plane. */
void sf_gen4_to_screen(const struct sf_gen4_state *st, const float position[4], float screen[3],
                       float *w);

/* ---- the SF (setup) thread [Pre-DevSNB] (seed 001 §7.5, L14170-14441) ---- */

enum sf_gen4_object { SF_GEN4_POINT = 0, SF_GEN4_LINE, SF_GEN4_TRIANGLE, SF_GEN4_RECTANGLE };

/* One object's setup parameters as the SF unit computes them for its thread:
 * the vertices in screen space (the drawing rectangle offset applied, snapped
 * to the subpixel grid), in the object's own order. */
struct sf_gen4_object_in {
    uint32_t type;                  /* enum sf_gen4_object */
    uint32_t topology;              /* the primitive's PrimType (R1.0 15:0) */
    bool back_facing, sprite_point;
    uint32_t provoking;             /* in the object's own order */
    uint32_t source[3];             /* the primitive's vertex of each object vertex */
    float x[3], y[3], z[3], rhw[3];
};

/* The reordered vertices and the values the seed lists for the payload. */
struct sf_gen4_setup_params {
    uint32_t count;                 /* vertices in the payload's VUE data: 1, 2 or 3 */
    uint32_t source[3];             /* the primitive's vertex of V0, V1, V2 */
    uint32_t provoking;             /* R1.1: the provoking vertex in V0..V2 */
    float x0, y0;                   /* V0's position (the planes' origin) */
    float determinant, dx0, dx2, dy0, dy2;  /* R1.2-R1.6 */
    float z[3], rhw[3];             /* R2.0-R2.5 */
};

/* The seed's vertex reordering and setup values (L14181-14225): triangles and
 * rectangles start at the top-most vertex (the left-most of equals), V1 the
 * next clockwise; lines at the top-most (left-most) end; a point's square is
 * upper-left V0, lower-right V1, lower-left V2 around its one vertex (`half`
 * = half the point width; VUE data of the centre only). */
void sf_gen4_setup_params(const struct sf_gen4_object_in *o, float half,
                          struct sf_gen4_setup_params *out);

/* The payload (L14227-14441) of one setup thread into grf[0..total): R0.0
 * Handle ID (31:16) and URB Return Handle (15:0), R1 (PrimType, Sprite Point
 * Enable, back facing, provoking vertex, determinant, deltas), R2 (Z and 1/W
 * of V0-V2), then from `first` (Dispatch GRF Start Register For URB Data)
 * the constants (`constant_regs` registers) and each vertex's
 * `rows` 256-bit VUE rows (vue[v] points at the primitive vertex v's rows,
 * from Vertex URB Entry Read Offset). R0.3-R0.5 are the caller's
 * (units/common/stage_thread.h). */
void sf_gen4_payload(const struct sf_gen4_object_in *o, const struct sf_gen4_setup_params *sp,
                     uint32_t handle_id, uint32_t urb_handle,
                     const uint8_t (*constants)[32], uint32_t constant_regs,
                     const uint8_t *const *vue, uint32_t rows, uint8_t (*grf)[32], uint32_t total,
                     uint32_t first);

/* Payload registers: first + constants + count x rows. */
static inline uint32_t sf_gen4_payload_regs(uint32_t first, uint32_t constant_regs, uint32_t count,
                                            uint32_t rows)
{
    return first + constant_regs + count * rows;
}

#endif
