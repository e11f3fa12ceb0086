/* units/dataport/dataport_untyped.c - untyped surface read and write, A32/SLM/BTS and A64 (seed 003
 * L6063-6130): SIMD8/16 slots, 1-4 channels of consecutive DWords per slot; a header
 * (M0.7) masks the slots further. */
#include "units/dataport/dataport_internal.h"

_Static_assert(EU_MSG_REG_BYTES == 32, "one_block copies 8 DWords a register");

/* The message control is read as the untyped surface messages' (simd_mode and
 * channel_mask, spec/eu/descriptors.txt) for the A64 forms too, as the model always
 * has; Mesa's A64 form has SIMD16 in bit 12 alone (desc_dc_a64_simd16), so an A64 SIMD8
 * message is taken as SIMD4x2 here (spec/eu/README.md, disagreement 5). */
/* The common case of one channel in every slot at consecutive DWord addresses (a
 * SIMD8/16 read or write of a contiguous row): one block access with the same data,
 * stats and lines as the slots one by one (dp_access_block). False when the message
 * is not of that form or the block does not apply; nothing has changed then. */
static bool one_block(struct acc *a, const struct dp_msg *x, bool a64, bool write,
                      unsigned slots, uint32_t mask, unsigned chmask, unsigned dbase)
{
    if (mask != (slots == 16 ? 0xffffu : 0xffu) || (chmask & (chmask - 1)) || !chmask)
        return false;
    unsigned ch = (unsigned)__builtin_ctz(chmask);
    uint64_t off = dp_slot_address(x, a64, 0);
    /* slot i's DWord is byte 4 i of the registers from the first on (8 DWords a
     * register): whole registers are copied when the payload or reply holds them */
    unsigned regs = slots / 8;
    if (!a64 && x->hdr + regs <= x->nregs) {
        uint32_t addr[16], apart = 0;
        if (off + 4u * (slots - 1) > UINT32_MAX)
            return false;       /* the DWord offsets cannot go on past 32 bits */
        dp_copy(addr, x->m + x->hdr * EU_MSG_REG_BYTES, slots * 4u);
        for (unsigned i = 1; i < slots; i++)     /* (no early exit: vectorised) */
            apart |= addr[i] ^ (uint32_t)(off + 4u * i);
        if (apart)
            return false;
    } else {
        for (unsigned i = 1; i < slots; i++)
            if (dp_slot_address(x, a64, i) != off + 4u * i)
                return false;
    }
    uint32_t v[16];
    if (write && dbase + regs <= x->nregs)
        dp_copy(v, x->m + dbase * EU_MSG_REG_BYTES, slots * 4u);
    else if (write)
        for (unsigned i = 0; i < slots; i++)
            v[i] = dp_mread(x, dbase + i / 8, i % 8);
    if (!dp_access_block(a, off + 4 * ch, v, slots * 4u, write ? MEMREQ_WRITE : MEMREQ_READ))
        return false;
    if (!write && x->wb && regs <= x->rlen)
        dp_copy(x->wb, v, slots * 4u);
    else if (!write)
        for (unsigned i = 0; i < slots; i++)
            dp_wbwrite(x, i / 8, i % 8, v[i]);
    return true;
}

void dp_untyped(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    uint32_t mask = x->mask;
    bool a64 = op == OP_A64_UNTYPED_READ || op == OP_A64_UNTYPED_WRITE;
    bool write = op == OP_UNTYPED_WRITE || op == OP_A64_UNTYPED_WRITE;
    unsigned mode = desc_dc_simd_mode(desc);     /* 0 SIMD4x2, 1 SIMD16, 2 SIMD8 */
    unsigned slots = mode == 1 ? 16 : 8;
    unsigned chmask = ~desc_dc_channel_mask(desc) & 0xf;    /* 1 = channel disabled */
    if (mode == 0)
        chmask = 0xf;           /* SIMD4x2 (not modelled further) */
    mask &= slots == 16 ? 0xffff : 0xff;
    if (x->hdr)
        mask &= dp_mread(x, 0, 7) & 0xffff;
    dp_resolve(a, x->bti, a64);
    unsigned addr_regs = a64 ? slots / 4 : slots / 8;
    unsigned dbase = x->hdr + addr_regs, per = slots / 8;
    write ? s->writes++ : s->reads++;
    if (one_block(a, x, a64, write, slots, mask, chmask, dbase))
        return;
    for (unsigned i = 0; i < slots; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint64_t off = dp_slot_address(x, a64, i);
        unsigned c = 0;
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!(chmask & (1u << ch)))
                continue;
            uint32_t v = 0;
            unsigned r = c * per + i / 8;
            if (write) {
                v = dp_mread(x, dbase + r, i % 8);
                dp_access_slot(a, off + 4 * ch, &v, 4, MEMREQ_WRITE);
            } else {
                dp_access_slot(a, off + 4 * ch, &v, 4, MEMREQ_READ);
                dp_wbwrite(x, r, i % 8, v);
            }
            c++;
        }
    }
}
