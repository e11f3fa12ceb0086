/* units/dataport/dataport_slm.c - shared local memory (BTI 254, seed 003 L4959-4996): the
 * thread group's allocation in this subslice's `slm_kib` array; addresses wrap at the
 * array's size (L4980) and accesses beyond the group's allocation are counted. */
#include "units/dataport/dataport_internal.h"

#include <string.h>

/* One slot's SLM access of n bytes at offset off in the group's allocation. */
void dp_access_slm(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op)
{
    struct dp *s = a->s;
    bool write = op == MEMREQ_WRITE;
    s->slm_accesses++;
    uint32_t size = s->slm_kib * 1024u;
    if (a->ctx->slm_size && off + n > a->ctx->slm_size)
        s->slm_out_of_bounds++;
    uint32_t at = (uint32_t)((a->ctx->slm_base + off) % size);
    if (at + n > size)
        at = size - n;
    if (write)
        memcpy(s->slm + at, buf, n);
    else
        memcpy(buf, s->slm + at, n);
    dp_add_line(a, at, MEMREQ_SLM, op);
}
