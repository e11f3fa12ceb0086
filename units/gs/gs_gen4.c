/* units/gs/gs_gen4.c - see gs_gen4.h. */
#include "units/gs/gs_gen4.h"

#include <string.h>

#include "units/common/gen4_state.h"

bool gs_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                        uint64_t general_state_base, uint64_t offset, struct gs_gen4_state *st)
{
    memset(st, 0, sizeof *st);
    uint32_t dw[7];
    if (!gen4_state_read(sim, p, general_state_base, offset, dw, 7))
        return false;
    /* seed 001 L6534-7159 (the common layout, notes §3.6) */
    st->kernel_start = dw[0] & ~0x3fu;
    st->grf_blocks = ((dw[0] >> 1) & 7u) + 1;
    st->dispatch_grf_start = dw[3] & 0xfu;
    st->vertex_read_offset = (dw[3] >> 4) & 0x3fu;
    st->vertex_read_length = (dw[3] >> 11) & 0x3fu;
    st->constant_read_offset = (dw[3] >> 18) & 0x3fu;
    st->constant_read_length = (dw[3] >> 25) & 0x3fu;
    st->maximum_threads = ((dw[4] >> 25) & 0x1fu) + 1;
    st->urb_entry_units = ((dw[4] >> 19) & 0x1fu) + 1;
    st->urb_entries = (dw[4] >> 11) & 0x7fu;
    st->statistics = (dw[4] >> 10) & 1u;
    st->reorder = (dw[6] >> 30) & 1u;
    st->discard_adjacency = (dw[6] >> 29) & 1u;
    st->maximum_vp_index = dw[6] & 0xfu;
    return true;
}
