/* units/dataport/dataport_block.c - the block messages: OWord block read/write (seed 003
 * L5885-5918; 1-8 OWords at the header's offset in OWords) and the HWord scratch
 * block (L5987-6020). */
#include "units/dataport/dataport_internal.h"

void dp_oword_block(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    bool write = op == OP_OWORD_WRITE;
    unsigned bs = desc_dc_oword_block_size(desc);
    unsigned owords = bs <= 1 ? 1 : bs == 2 ? 2 : bs == 3 ? 4 : 8;
    unsigned half = bs == 1 ? 4 : 0;   /* 1 OWord into the high half */
    dp_resolve(a, x->bti, false);
    uint64_t base = (uint64_t)dp_mread(x, 0, 2) * 16;
    write ? s->writes++ : s->reads++;
    for (unsigned d = 0; d < owords * 4; d++) {
        unsigned r = d / 8, dw = d % 8 + half;
        uint32_t v = 0;
        if (write) {
            v = dp_mread(x, 1 + r, dw);
            dp_access_slot(a, base + 4ull * d, &v, 4, MEMREQ_WRITE);
        } else {
            dp_access_slot(a, base + 4ull * d, &v, 4, MEMREQ_READ);
            dp_wbwrite(x, r, dw, v);
        }
    }
}

void dp_scratch_block(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    /* the thread's scratch space: General State Base + M0.5[31:10] (its
     * R0.5, set by the dispatcher) + desc[11:0] HWords; as many registers
     * as the reply (read) or the payload after the header (write) has */
    bool write = op == OP_SCRATCH_WRITE;
    dp_resolve(a, BTI_STATELESS, false);
    a->sf.size = 0;
    uint64_t base = (uint64_t)(dp_mread(x, 0, 5) & ~0x3ffu) +
                    (uint64_t)desc_dc_scratch_offset(desc) * 32;
    unsigned regs = write ? x->nregs - 1 : x->rlen;
    write ? s->writes++ : s->reads++;
    for (unsigned r = 0; r < regs; r++)
        for (unsigned d = 0; d < 8; d++) {
            uint32_t v = 0;
            if (write) {
                v = dp_mread(x, 1 + r, d);
                dp_access_slot(a, base + 32ull * r + 4 * d, &v, 4, MEMREQ_WRITE);
            } else {
                dp_access_slot(a, base + 32ull * r + 4 * d, &v, 4, MEMREQ_READ);
                dp_wbwrite(x, r, d, v);
            }
        }
}
