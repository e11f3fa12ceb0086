/* units/common/gen4_cc.h - Gen4 (965G) colour calculator state that the Windower and the
 * pixel back end both read through pointers, as a library (not a unit).
 *
 * Gen4 keeps each fixed-function unit's state in memory, located by
 * 3DSTATE_PIPELINED_POINTERS relative to General State Base Address (seed 001
 * L1235-1349; WM_STATE L14825-15463, COLOR_CALC_STATE L19863-19873 (the seed
 * has only its heading: the layout is spec/data/gen4.xml's, from Mesa's genxml
 * gen4.xml), CC_VIEWPORT L19869-19873). The colour calculator state carries
 * what Gen8/Gen9 split into 3DSTATE_WM_DEPTH_STENCIL, BLEND_STATE and
 * COLOR_CALC_STATE: this library folds it into those generation-neutral
 * forms so units/common/depth_stencil and the back end's blender take it
 * unchanged.
 *  - gen4_cc_read: reads `dwords` dwords at an address with a state
 *    packet's address space and unpacks them as Gen4's element `id` into the
 *    generation-neutral struct; false when unreadable (the caller counts).
 *  - gen4_cc_depth_stencil: CC_STATE's depth test / write and stencil fields
 *    (seed 001 §9.1.4-9.1.5 L19300-19386, Table 9-4 L19770ff) as a
 *    3DSTATE_WM_DEPTH_STENCIL.
 *  - gen4_cc_blend: CC_STATE's alpha test, blending, logic op, clamps and
 *    dither (L19249-19299, L19387-19800) as BLEND_STATE plus one
 *    BLEND_STATE_ENTRY; the per-channel write disables come from the
 *    render target's SURFACE_STATE on Gen4 (Color Buffer Component Write
 *    Disables, dword 0 bits 17:14: A, R, G, B), given in `write_disables`.
 *  - gen4_depth_buffer: the Gen4 3DSTATE_DEPTH_BUFFER (L17094-17653):
 *    Surface Pitch in bytes - 1, Tiled Surface and Tile Walk (X or Y major,
 *    or linear), formats D32_FLOAT, D24_UNORM_S8_UINT, D24_UNORM_X8_UINT,
 *    D16_UNORM. D24_UNORM_S8_UINT is two views of each 32-bit element
 *    (depth_stencil.h element_stride 4): the depth, bytes 2:0 (written
 *    without touching the stencil), and the stencil, byte 3 (seed 001
 *    L19328-19363: the stencil test needs D32_FLOAT_S8X24_UINT or
 *    D24_UNORM_S8_UINT; byte 3 is the S8 of the format's name, Mesa's isl
 *    layout). The stencil view is what the stencil test and its writes use
 *    (CC_STATE's Stencil Buffer Write Enable decides the writes).
 * Not modelled: D32_FLOAT_S8X24_UINT's stencil, the Depth Buffer Coordinate
 * Offset (DBCOD), software tiled rendering modes, LODs but 0.
 */
#ifndef GTSIM_UNITS_COMMON_GEN4_CC_H
#define GTSIM_UNITS_COMMON_GEN4_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/depth_stencil.h"
#include "units/common/state_packet.h"

#define GEN4_WM_STATE_DWORDS 8u
#define GEN4_CC_STATE_DWORDS 8u

bool gen4_cc_read(struct sim *sim, const struct cs_state_packet *p, uint64_t address,
                     enum spec_id id, uint32_t dwords, void *out);

void gen4_cc_depth_stencil(const struct spec_COLOR_CALC_STATE *cc,
                           struct spec_3DSTATE_WM_DEPTH_STENCIL *out);

void gen4_cc_blend(const struct spec_COLOR_CALC_STATE *cc, uint32_t write_disables,
                   struct spec_BLEND_STATE *blend, struct spec_BLEND_STATE_ENTRY *entry);

/* The depth surface of a Gen4 3DSTATE_DEPTH_BUFFER, and its stencil view
 * (zeroed, not valid, but for a usable D24_UNORM_S8_UINT buffer); *format is
 * the depth_stencil.h format the tests use. False when the buffer is present
 * but not usable (bad pitch for its tiling, unknown format, LOD != 0). */
bool gen4_depth_buffer(const struct spec_3DSTATE_DEPTH_BUFFER *v, struct ds_surface *d,
                       struct ds_surface *stencil, uint32_t *format);

#endif
