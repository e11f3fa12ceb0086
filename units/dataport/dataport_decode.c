/* units/dataport/dataport_decode.c - which message a descriptor names, read with the
 * generated accessors of build/gen/msg_desc.h (spec/eu/opcodes.txt [dc0-message-type],
 * [dc1-message-type], spec/eu/descriptors.txt), and the dispatch to the message families. */
#include "units/dataport/dataport_internal.h"

/* DC1 (SFID 12, Gen8/9): msg_type 18:14. The A64 scattered read is a Gen9 message in the
 * table; the model takes it on Gen8 as well. */
static enum dp_op decode_dc1(uint32_t desc)
{
    switch (desc_dc1_msg_type(desc)) {
    case DESC_DC1_UNTYPED_SURFACE_READ: return OP_UNTYPED_READ;
    case DESC_DC1_UNTYPED_SURFACE_WRITE: return OP_UNTYPED_WRITE;
    case DESC_DC1_UNTYPED_ATOMIC: return OP_UNTYPED_ATOMIC;
    case DESC_DC1_A64_UNTYPED_SURFACE_READ: return OP_A64_UNTYPED_READ;
    case DESC_DC1_A64_UNTYPED_SURFACE_WRITE: return OP_A64_UNTYPED_WRITE;
    case DESC_DC1_A64_UNTYPED_ATOMIC: return OP_A64_ATOMIC;
    case DESC_DC1_A64_SCATTERED_READ: return OP_A64_BYTE_READ;
    case DESC_DC1_A64_SCATTERED_WRITE: return OP_A64_BYTE_WRITE;
    case DESC_DC1_TYPED_SURFACE_READ: return OP_TYPED_READ;
    case DESC_DC1_TYPED_SURFACE_WRITE: return OP_TYPED_WRITE;
    default: return OP_UNSUPPORTED;
    }
}

/* DC0 (SFID 10) and the read-only port (SFID 9): msg_type 17:14, the scratch block
 * messages in category 1 (desc 18); Gen7 puts the untyped messages on DC0. The
 * read-only port takes the read messages only. */
static enum dp_op decode_dc0(unsigned gen, unsigned sfid, uint32_t desc)
{
    bool dc0 = sfid == SFID_DC0;
    if (desc_dc_category(desc))
        return dc0 ? (desc_dc_scratch_write(desc) ? OP_SCRATCH_WRITE : OP_SCRATCH_READ)
                   : OP_UNSUPPORTED;
    switch (desc_dc_msg_type(desc)) {
    case DESC_DC0_OWORD_BLOCK_READ: case DESC_DC0_UNALIGNED_OWORD_BLOCK_READ: return OP_OWORD_READ;
    case DESC_DC0_DWORD_SCATTERED_READ: return OP_DWORD_READ;
    case DESC_DC0_BYTE_SCATTERED_READ: return OP_BYTE_READ;
    case DESC_DC0_MEMORY_FENCE: return dc0 ? OP_FENCE : OP_UNSUPPORTED;
    case DESC_DC0_UNTYPED_SURFACE_READ: return gen == 7 && dc0 ? OP_UNTYPED_READ : OP_UNSUPPORTED;
    case DESC_DC0_UNTYPED_ATOMIC: return gen == 7 && dc0 ? OP_UNTYPED_ATOMIC : OP_UNSUPPORTED;
    case DESC_DC0_UNTYPED_SURFACE_WRITE: return gen == 7 && dc0 ? OP_UNTYPED_WRITE : OP_UNSUPPORTED;
    case DESC_DC0_OWORD_BLOCK_WRITE: return dc0 ? OP_OWORD_WRITE : OP_UNSUPPORTED;
    case DESC_DC0_DWORD_SCATTERED_WRITE: return dc0 ? OP_DWORD_WRITE : OP_UNSUPPORTED;
    case DESC_DC0_BYTE_SCATTERED_WRITE: return dc0 ? OP_BYTE_WRITE : OP_UNSUPPORTED;
    default: return OP_UNSUPPORTED;
    }
}

enum dp_op dp_decode(unsigned gen, unsigned sfid, uint32_t desc)
{
    if (sfid == SFID_DC1 && gen >= 8)
        return decode_dc1(desc);
    if (sfid == SFID_DC0 || sfid == SFID_DCRO)
        return decode_dc0(gen, sfid, desc);
    return OP_UNSUPPORTED;
}

/* Executes the message functionally into wb (rlen registers; may be NULL)
 * and records the lines it touched. */
void dp_execute(struct acc *a, const struct eu_send_msg *p, uint32_t nregs, uint8_t *wb,
                uint32_t rlen, enum dp_op op)
{
    const struct dp_msg x = {
        .p = p,
        .m = (const uint8_t *)p->regs,
        .nregs = nregs,
        .wb = wb,
        .rlen = rlen,
        .desc = p->desc,
        .hdr = (p->flags & EU_SEND_HEADER) ? 1 : 0,
        .bti = desc_dc_binding_table(p->desc),
        .mask = p->exec_mask,
    };
    switch (op) {
    case OP_UNTYPED_READ:
    case OP_UNTYPED_WRITE:
    case OP_A64_UNTYPED_READ:
    case OP_A64_UNTYPED_WRITE:
        dp_untyped(a, &x, op);
        break;
    case OP_UNTYPED_ATOMIC:
    case OP_A64_ATOMIC:
        dp_atomic(a, &x, op);
        break;
    case OP_BYTE_READ:
    case OP_BYTE_WRITE:
    case OP_A64_BYTE_READ:
    case OP_A64_BYTE_WRITE:
        dp_byte_scattered(a, &x, op);
        break;
    case OP_DWORD_READ:
    case OP_DWORD_WRITE:
        dp_dword_scattered(a, &x, op);
        break;
    case OP_OWORD_READ:
    case OP_OWORD_WRITE:
        dp_oword_block(a, &x, op);
        break;
    case OP_TYPED_READ:
    case OP_TYPED_WRITE:
        dp_typed(a, &x, op);
        break;
    case OP_SCRATCH_READ:
    case OP_SCRATCH_WRITE:
        dp_scratch_block(a, &x, op);
        break;
    case OP_FENCE:
        a->s->fences++;
        break;
    case OP_NONE:
    case OP_UNSUPPORTED:
        break;
    }
}
