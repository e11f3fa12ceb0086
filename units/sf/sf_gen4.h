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
 * Not modelled: Destination Origin Bias (the pixel centre rule used is the
 * Gen8 CENTER one; Mesa programs 0.5 = CENTER, the capture 0), AA line
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

#endif
