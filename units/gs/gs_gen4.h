/* units/gs/gs_gen4.h - the Gen4 (965G) GS_STATE the GS unit reads (issue 14
 * item 3): a library of units/gs, not a unit kind.
 *
 * Seed 001 (notes/001-gen4.md §4.5): 3DSTATE_PIPELINED_POINTERS DW2
 * (L1277-1287) names GS_STATE (General State offset) and GS Enable; GS_STATE
 * (L6534-7159): the kernel (DW0-DW3, the common layout of §3.6), DW4 Maximum
 * Number of Threads (Pre-ILK [0,1] = 1..2), URB Entry Allocation Size,
 * Number of URB Entries ([1,32] when enabled), GS Statistics Enable (bit
 * 10); DW5 Sampler State Pointer and Count; DW6 Reorder Enable (30), Discard
 * Adjacency (29), Maximum VPIndex (3:0).
 *
 * What the unit does with it (units/gs/gs.h "Gen4"): disabled, objects pass
 * through (the seed's pass-through, still reading the vertex header back,
 * L6428-6430: not needed by the model, CLIP reads the headers itself);
 * enabled, the GS threads are NOT run yet: each object is passed through
 * unchanged and counted (gen4.objects_unrun, warned once). Mesa's i965 on
 * Gen4 enables the GS only to turn QUADLIST, QUADSTRIP and LINELOOP into
 * triangles and lines (brw_gs.c; public fact), which g965_tri does not draw.
 */
#ifndef GTSIM_UNITS_GS_GS_GEN4_H
#define GTSIM_UNITS_GS_GS_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/state_packet.h"

struct sim;

struct gs_gen4_state {
    uint64_t kernel_start;
    uint32_t grf_blocks, dispatch_grf_start, vertex_read_offset, vertex_read_length;
    uint32_t constant_read_offset, constant_read_length;
    uint32_t maximum_threads, urb_entries, urb_entry_units;
    bool statistics, reorder, discard_adjacency;
    uint32_t maximum_vp_index;
};

/* Reads GS_STATE at general_state_base + offset; false (st zeroed) when it
 * lies outside memory. */
bool gs_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                        uint64_t general_state_base, uint64_t offset, struct gs_gen4_state *st);

#endif
