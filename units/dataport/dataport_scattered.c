/* units/dataport/dataport_scattered.c - byte scattered (A32/SLM/BTS and A64; seed 003 L5683-5742)
 * and dword scattered (L5778-5825) read and write: one element per enabled slot. */
#include "units/dataport/dataport_internal.h"

void dp_byte_scattered(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    uint32_t mask = x->mask;
    bool a64 = op == OP_A64_BYTE_READ || op == OP_A64_BYTE_WRITE;
    bool write = op == OP_BYTE_WRITE || op == OP_A64_BYTE_WRITE;
    /* A64: SIMD16 when the a64_scattered_subtype field is 1 (what the model has always
     * done; Mesa puts the A64 SIMD16 flag in bit 12, desc_dc_a64_scattered_simd16,
     * and subtype 1 = DWord: see spec/eu/descriptors.txt) */
    unsigned slots = a64 ? (desc_dc_a64_scattered_subtype(desc) == 1 ? 16 : 8)
                         : (desc_dc_byte_simd16(desc) ? 16 : 8);
    unsigned size = 1u << desc_dc_data_size(desc);    /* 0 byte, 1 word, 2 dword */
    if (size > 4)
        size = 4;
    mask &= slots == 16 ? 0xffff : 0xff;
    dp_resolve(a, x->bti, a64);
    unsigned addr_regs = a64 ? slots / 4 : slots / 8;
    write ? s->writes++ : s->reads++;
    for (unsigned i = 0; i < slots; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint64_t off = dp_slot_address(x, a64, i);
        if (!a64 && x->hdr)
            off += dp_mread(x, 0, 2);     /* global offset (A32 base offset) */
        uint32_t v = 0;
        if (write) {
            v = dp_mread(x, x->hdr + addr_regs + i / 8, i % 8);
            dp_access_slot(a, off, &v, size, MEMREQ_WRITE);
        } else {
            dp_access_slot(a, off, &v, size, MEMREQ_READ);
            dp_wbwrite(x, i / 8, i % 8, v);
        }
    }
}

void dp_dword_scattered(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    uint32_t mask = x->mask;
    bool write = op == OP_DWORD_WRITE;
    unsigned slots = desc_dc_dword_block_size(desc) == 3 ? 16 : 8;   /* 3: 16 DWords */
    mask &= slots == 16 ? 0xffff : 0xff;
    dp_resolve(a, x->bti, false);
    uint32_t global = x->hdr ? dp_mread(x, 0, 2) : 0;
    unsigned addr_regs = slots / 8;
    write ? s->writes++ : s->reads++;
    for (unsigned i = 0; i < slots; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint64_t off = (uint64_t)global + dp_mread(x, x->hdr + i / 8, i % 8);
        uint32_t v = 0;
        if (write) {
            v = dp_mread(x, x->hdr + addr_regs + i / 8, i % 8);
            dp_access_slot(a, off, &v, 4, MEMREQ_WRITE);
        } else {
            dp_access_slot(a, off, &v, 4, MEMREQ_READ);
            dp_wbwrite(x, i / 8, i % 8, v);
        }
    }
}
