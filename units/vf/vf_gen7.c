/* units/vf/vf_gen7.c - the Gen7 forms of the VF's state (issue 14).
 *
 * Gen7 VERTEX_BUFFER_STATE (seed 000 L3036-3098 for 3DSTATE_VERTEX_BUFFERS;
 * the structure's layout from Mesa's genxml gen7.xml) differs from Gen8's:
 * - the buffer ends at an inclusive End Address instead of a Buffer Size;
 * - instancing is per buffer: Buffer Access Type INSTANCEDATA with its
 *   Instance Data Step Rate (Gen8 moved both to 3DSTATE_VF_INSTANCING, per
 *   element). Every element fetching from such a buffer steps by instance.
 * VertexID and InstanceID come from the elements' STORE_VID / STORE_IID
 * component controls (vf_fetch.c), not from 3DSTATE_VF_SGVS (Gen8+). The
 * topology is the 3DPRIMITIVE's own field (vf_draw.c).
 * Not modelled: Vertex Fetch Invalidate (the VF keeps no buffer cache of its
 * own beyond the vertex cache). */
#include <string.h>

#include "spec/spec.h"
#include "units/vf/vf_internal.h"

void vf_take_vertex_buffers_gen7(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_element *e = spec_element_by_id(7, SPEC_ID_VERTEX_BUFFER_STATE);
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
        if (b.AddressModifyEnable || !s->buffer_valid[k])
            vb->base = b.BufferStartingAddress;
        vb->pitch = b.BufferPitch;
        /* End Address is the last byte of the buffer (inclusive); one below
         * the start is an empty buffer, further below is bad state */
        if (b.NullVertexBuffer || b.EndAddress + 1 < vb->base) {
            if (!b.NullVertexBuffer && b.EndAddress + 1 < vb->base)
                s->bad_state++;
            vb->size = 0;
        } else {
            uint64_t size = b.EndAddress + 1 - vb->base;
            vb->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
        }
        s->buffer_valid[k] = true;
        s->gen7_instance_data[k] = b.BufferAccessType == 1;     /* INSTANCEDATA */
        s->gen7_step_rate[k] = b.InstanceDataStepRate;
    }
    vf_gen7_element_instancing(s);
}

void vf_gen7_element_instancing(struct vf *s)
{
    for (uint32_t i = 0; i < s->element_count && i < VF_MAX_ELEMENTS; i++) {
        uint32_t k = s->elements[i].VertexBufferIndex;
        bool instanced = k < VF_MAX_BUFFERS && s->gen7_instance_data[k];
        s->instancing[i] = instanced;
        s->step_rate[i] = instanced ? s->gen7_step_rate[k] : 0;
    }
}
