/* units/vf/vf_gen4.c - the Gen4 (965G) forms of the VF's state (issue 14).
 *
 * - VERTEX_BUFFER_STATE (seed 001 L3970-4184): Max Index instead of a size:
 *   "0 ⇒ no bounds check", an index above it reads 0. The buffer's size is
 *   taken as (Max Index + 1) x pitch, so an element reaching past the last
 *   structure reads 0 too (not modelled finer). Instancing is per buffer, as
 *   on Gen7 (Buffer Access Type INSTANCEDATA, Instance Data Step Rate).
 * - VERTEX_ELEMENT_STATE: the Destination Element Offset (DWord offset into
 *   the VUE, "ordered by increasing Destination Element Offset ... no
 *   holes", L4295-4317) is taken as the element's place in order, 4 dwords
 *   each (the Gen8 layout the VF writes); drivers pack them so (g965_tri:
 *   offsets 0, 4, 8, ...).
 * - 3DSTATE_PIPELINED_POINTERS (L1220-1349): the VF fetches VS_STATE at
 *   General State Base + Pointer to VS State, because on Gen4 the VUEs the
 *   VF writes are "the URB entry supplied by the VS unit" (L5546-5547): its
 *   Number of URB Entries and URB Entry Allocation Size (L5933-5996) size the
 *   VF's allocations, and the VF tells the urb_fence unit (URB_OP_CONFIGURE,
 *   units/common/urb.h) on its "urb" port, in order before its next ALLOC.
 *   Vertex Cache Disable (VS_STATE DW6 bit 1) sets the VF's vertex cache.
 *   A pointer outside memory is counted (gen4.state_faults) and the previous
 *   VS URB state kept.
 * - URB_FENCE, CS_URB_STATE and CONSTANT_BUFFER go on to the urb_fence unit
 *   through "urb_state" (vf.c copy_urb_state). The VF allocates the VS
 *   region's entries, so it also tells the urb_fence unit on its "urb" port
 *   (URB_OP_FENCE, after the ALLOCs of the work before it) when it reaches a
 *   URB_FENCE: the VS region takes the new fence in the VF's command order
 *   (urb_fence.h).
 */
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_gen4_pack.h"
#include "units/common/gen4_state.h"
#include "units/common/urb.h"
#include "units/vf/vf_internal.h"

void vf_take_vertex_buffers_gen4(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_element *e = spec_element_by_id(4, SPEC_ID_VERTEX_BUFFER_STATE);
    if (!e || p->dword_count < 1 || (p->dword_count - 1) % 4) {
        s->bad_state++;
        return;
    }
    for (uint32_t i = 0; i + 1 < p->dword_count; i += 4) {
        struct spec_VERTEX_BUFFER_STATE b;
        memset(&b, 0, sizeof b);
        e->unpack_common(p->dwords + 1 + i, &b);
        if (b.VertexBufferIndex >= VF_MAX_BUFFERS) {
            s->bad_state++;
            continue;
        }
        uint32_t k = b.VertexBufferIndex;
        struct vf_buffer *vb = &s->buffers[k];
        vb->base = b.BufferStartingAddress;
        vb->pitch = b.BufferPitch;
        uint64_t size = (uint64_t)(b.MaxIndex + 1ull) * b.BufferPitch;
        vb->size = b.MaxIndex == 0 || b.BufferPitch == 0 || size > UINT32_MAX ? UINT32_MAX
                                                                              : (uint32_t)size;
        s->buffer_valid[k] = true;
        s->gen7_instance_data[k] = b.BufferAccessType == 1;     /* INSTANCEDATA */
        s->gen7_step_rate[k] = b.InstanceDataStepRate;
    }
    vf_gen7_element_instancing(s);
}

void vf_take_pipelined_pointers_gen4(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_PIPELINED_POINTERS *v = cs_state_common(p);
    uint32_t dw[GEN4_VS_STATE_length];
    if (!gen4_state_read(unit_sim(s->unit), p, s->gen4_general_base, v->PointerToVSState, dw,
                         GEN4_VS_STATE_length)) {
        s->gen4_state_faults++;
        return;
    }
    struct GEN4_VS_STATE vs;
    GEN4_VS_STATE_unpack(dw, &vs);
    s->vs_cache_disable = vs.VertexCacheDisable;
    uint32_t entries = vs.NumberOfURBEntries;
    uint32_t units = vs.URBEntryAllocationSize + 1u;        /* 512-bit units */
    if (entries == s->vs_entries && units * URB_HANDLE_UNIT_BYTES == s->vs_entry_bytes)
        return;
    s->vs_entries = entries;
    s->vs_entry_bytes = units * URB_HANDLE_UNIT_BYTES;
    if (!s->urb || !port_is_bound(s->urb))
        return;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_CONFIGURE;
    q->client = URB_CLIENT_VS;
    q->count = entries;
    q->rows = 2 * units;                                    /* 256-bit rows */
    if (!port_try_send(s->urb, m)) {
        msg_free(unit_sim(s->unit), m);
        s->stall_urb++;
        s->vs_entries = 0;          /* told next time */
        return;
    }
    s->gen4_configures++;
}

void vf_fence_marker_gen4(struct vf *s)
{
    if (!s->urb || !port_is_bound(s->urb))
        return;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_FENCE;
    q->client = URB_CLIENT_VS;
    if (!port_try_send(s->urb, m)) {
        msg_free(unit_sim(s->unit), m);
        s->stall_urb++;
        unit_log(s->unit, SIM_LOG_ERROR, "a URB_FENCE marker could not reach the URB (the VS "
                 "region keeps its fence)");
    }
}
