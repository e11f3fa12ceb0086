/* units/urb/urb_send.c - the URB shared function (SFID 6) on Gen8/Gen9: the
 * message forms of seed 003 L8455-9015 executed on the URB's store; Gen7's
 * HWORD/OWORD/atomic forms with their narrower descriptor (desc_fields). */
#include <string.h>

#include "msg_desc.h"
#include "units/common/memreq.h"
#include "units/common/thread_msg.h"
#include "units/urb/urb_internal.h"

static void note_line(struct urb_lines *lines, uint32_t address, uint8_t op)
{
    uint32_t line = address & ~(MEMREQ_LINE_BYTES - 1);
    for (uint32_t i = 0; i < lines->count; i++)
        if (lines->address[i] == line) {
            if (op != MEMREQ_READ)
                lines->op[i] = op;
            return;
        }
    if (lines->count < URB_MAX_MSG_LINES) {
        lines->address[lines->count] = line;
        lines->op[lines->count++] = op;
    }
}

static bool in_store(const struct urb *s, struct urb_lines *lines, uint64_t address)
{
    if (address + 4 > s->store_bytes) {
        lines->out_of_bounds = true;
        return false;
    }
    return true;
}

uint32_t urb_read_dword(struct urb *s, struct urb_lines *lines, uint64_t address)
{
    if (!in_store(s, lines, address))
        return 0;
    note_line(lines, (uint32_t)address, MEMREQ_READ);
    uint32_t v;
    memcpy(&v, s->bytes + address, 4);
    return v;
}

void urb_write_dword(struct urb *s, struct urb_lines *lines, uint64_t address, uint32_t value)
{
    if (!in_store(s, lines, address))
        return;
    note_line(lines, (uint32_t)address, MEMREQ_WRITE);
    memcpy(s->bytes + address, &value, 4);
}

static uint32_t reg_dword(const struct eu_send_msg *p, uint32_t reg, uint32_t dword)
{
    uint32_t v;
    memcpy(&v, &p->regs[reg][dword * 4], 4);
    return v;
}

static void wb_dword(uint8_t (*wb)[32], uint32_t reg, uint32_t dword, uint32_t v)
{
    if (wb)
        memcpy(&wb[reg][dword * 4], &v, 4);
}

/* URB_WRITE/READ_HWORD and _OWORD (L8502-8818). A phase is one register; for
 * each dword d of it, `address_of` gives where it lives in the URB, or false
 * when the form leaves that dword alone. */
struct oword_form {
    bool oword, interleaved, high;
    uint64_t base[2];               /* byte address of vertex 0 and 1's data */
};

static bool dword_address(const struct oword_form *f, uint32_t phase, uint32_t d, uint64_t *address)
{
    if (f->interleaved) {           /* DW3:0 vertex 0, DW7:4 vertex 1, 16 bytes of each per phase */
        uint32_t v = d / 4;
        *address = f->base[v] + phase * 16u + (d % 4) * 4u;
        return true;
    }
    if (f->oword) {                 /* one OWord: the low or high half of the register */
        uint32_t first = f->high ? 4u : 0u;
        if (d < first || d >= first + 4)
            return false;
        *address = f->base[0] + phase * 16u + (d - first) * 4u;
        return true;
    }
    *address = f->base[0] + phase * 32u + d * 4u;   /* NOSWIZZLE HWORD: Vertex Data[8k+d] */
    return true;
}

/* The descriptor fields of the HWORD/OWORD forms: Gen8/Gen9 (L8490-8500) or
 * Gen7's narrower layout (opcode 2:0, Global Offset 13:3, Swizzle Control 14,
 * Complete 15, Per-Slot Offset 16: Mesa's brw_eu_defines.h / genxml gen7; the
 * opcodes 0-5 number as on Gen8). */
struct urb_desc_fields {
    uint32_t global;
    bool per_slot, interleaved;
};

static struct urb_desc_fields desc_fields(const struct eu_send_msg *p)
{
    if (p->ctx.valid && p->ctx.gen == 7)
        return (struct urb_desc_fields){ .global = desc_urb_global_offset_gen7(p->desc),
                                         .per_slot = desc_urb_per_slot_offset_gen7(p->desc) != 0,
                                         .interleaved = desc_urb_swizzle_gen7(p->desc) != 0 };
    return (struct urb_desc_fields){ .global = desc_urb_global_offset_gen8(p->desc),
                                     .per_slot = desc_urb_per_slot_offset_gen8(p->desc) != 0,
                                     .interleaved = desc_urb_swizzle_gen8(p->desc) != 0 };
}

static bool hword_oword(struct urb *s, const struct eu_send_msg *p, uint32_t regs,
                        uint8_t (*wb)[32], uint32_t rlen, struct urb_lines *lines, unsigned opcode)
{
    bool write = opcode == DESC_URB_WRITE_HWORD || opcode == DESC_URB_WRITE_OWORD;
    struct urb_desc_fields fields = desc_fields(p);
    struct oword_form f = { .oword = opcode == DESC_URB_WRITE_OWORD || opcode == DESC_URB_READ_OWORD,
                            .interleaved = fields.interleaved };
    uint32_t unit = f.oword ? 16u : 32u;    /* Global Offset: 256-bit, OWORD 128-bit (L8499) */
    uint32_t global = fields.global;
    bool per_slot = fields.per_slot;
    uint32_t m5 = reg_dword(p, 0, 5);
    f.high = (m5 >> 16) & 1;                /* High OWORD Enable (L8514) */
    /* M0.5[15:8] ANDed with the execution mask's low 8 bits (L8463, L8515-8523) */
    uint32_t enable = ((m5 >> 8) & 0xffu) & p->exec_mask & 0xffu;
    for (uint32_t v = 0; v < 2; v++) {
        uint32_t handle = reg_dword(p, 0, v) & 0x3fffu;             /* M0.0/M0.1[13:0] */
        uint32_t slot = per_slot ? reg_dword(p, 0, 3 + v) : 0;      /* M0.3/M0.4 */
        f.base[v] = (uint64_t)urb_handle_offset(handle) + ((uint64_t)global + slot) * unit;
    }
    uint32_t phases = write ? regs - 1 : rlen;
    if (phases < 1 || phases > 8)
        return false;
    if (opcode == DESC_URB_READ_OWORD && rlen != 1)
        s->bad_messages++;                  /* "Response Length must be set to 1" (L8769) */
    for (uint32_t k = 0; k < phases; k++)
        for (uint32_t d = 0; d < 8; d++) {
            uint64_t address;
            if (!(enable >> d & 1) || !dword_address(&f, k, d, &address))
                continue;
            if (write)
                urb_write_dword(s, lines, address, reg_dword(p, 1 + k, d));
            else
                wb_dword(wb, k, d, urb_read_dword(s, lines, address));
        }
    return true;
}

/* URB SIMD8_WRITE/READ (L8853-9015): channel n's handle in M0.n, its offset
 * (128-bit units) global + M1.n when the per-slot phase is present, its
 * DATA[k] mask in M2.n[16+k] when the channel-mask phase is present; phase k
 * dword n is vertex n's DATA[k]. */
static bool simd8(struct urb *s, const struct eu_send_msg *p, uint32_t regs, uint8_t (*wb)[32],
                  uint32_t rlen, struct urb_lines *lines, bool write)
{
    (void)s;
    uint32_t global = desc_urb_global_offset_gen8(p->desc);
    bool per_slot = desc_urb_per_slot_offset_gen8(p->desc) != 0;
    bool masks = desc_urb_channel_mask(p->desc) != 0;
    uint32_t offset_reg = 1, mask_reg = 1 + per_slot, data_reg = 1 + per_slot + masks;
    if (regs < data_reg)
        return false;
    uint32_t phases = write ? regs - data_reg : rlen;
    if (phases < 1 || phases > 8)
        return false;
    for (uint32_t n = 0; n < 8; n++) {
        if (!(p->exec_mask >> n & 1))
            continue;
        uint32_t handle = reg_dword(p, 0, n) & 0x3fffu;
        uint32_t offset = global + (per_slot ? reg_dword(p, offset_reg, n) : 0);
        uint32_t data_mask = masks ? (reg_dword(p, mask_reg, n) >> 16) & 0xffu : 0xffu;
        uint64_t base = (uint64_t)urb_handle_offset(handle) + (uint64_t)offset * 16u;
        for (uint32_t k = 0; k < phases; k++) {
            if (!(data_mask >> k & 1))
                continue;
            if (write)
                urb_write_dword(s, lines, base + 4u * k, reg_dword(p, data_reg + k, n));
            else
                wb_dword(wb, k, n, urb_read_dword(s, lines, base + 4u * k));
        }
    }
    return true;
}

/* URB_ATOMIC_MOV/INC/ADD (L8819-8852): the dword at handle (M0.0[15:0]) +
 * Global Offset dwords; src0 in M0.2; INC and ADD return the old value in W0.0. */
static bool atomic(struct urb *s, const struct eu_send_msg *p, uint8_t (*wb)[32], uint32_t rlen,
                   struct urb_lines *lines, unsigned opcode)
{
    struct urb_desc_fields fields = desc_fields(p);
    if (fields.per_slot || fields.interleaved)
        s->bad_messages++;          /* both "must be 0 for URB_ATOMIC_*" (L8493, L8498) */
    uint32_t handle = reg_dword(p, 0, 0) & 0xffffu;
    uint64_t address = (uint64_t)urb_handle_offset(handle) + 4u * fields.global;
    uint32_t src0 = reg_dword(p, 0, 2);
    uint32_t old = urb_read_dword(s, lines, address);
    uint32_t value = opcode == DESC_URB_ATOMIC_MOV ? src0
                   : opcode == DESC_URB_ATOMIC_INC ? old + 1 : old + src0;
    urb_write_dword(s, lines, address, value);
    for (uint32_t i = 0; i < lines->count; i++)
        lines->op[i] = MEMREQ_ATOMIC;
    if (opcode != DESC_URB_ATOMIC_MOV && rlen)
        wb_dword(wb, 0, 0, old);
    return true;
}

bool urb_execute_send(struct urb *s, struct unit *u, const struct eu_send_msg *p, uint32_t regs,
                      uint8_t (*wb)[32], uint32_t rlen, struct urb_lines *lines)
{
    bool gen7 = p->ctx.valid && p->ctx.gen == 7;
    if (p->ctx.valid && p->ctx.gen && p->ctx.gen < 7) {
        s->unsupported++;
        urb_warn_once(s, u, 1, "URB messages of Gen%u are not modelled (zeros returned)", p->ctx.gen);
        return false;
    }
    if (regs < 1) {
        s->bad_messages++;
        return false;
    }
    if (!desc_msg_header_present(p->desc))
        s->bad_messages++;      /* "This bit must be 1 for all URB messages" (L8491) */
    unsigned opcode = gen7 ? desc_urb_opcode_gen7(p->desc) : desc_urb_opcode_gen8(p->desc);
    if (gen7 && opcode > DESC_URB_ATOMIC_INC) {
        s->unsupported++;       /* Gen7 has no ATOMIC_ADD or SIMD8 forms (3 opcode bits) */
        urb_warn_once(s, u, 2, "Gen7 URB opcode %u is reserved: zeros returned", opcode);
        return false;
    }
    bool write = opcode == DESC_URB_WRITE_HWORD || opcode == DESC_URB_WRITE_OWORD ||
                 opcode == DESC_URB_SIMD8_WRITE;
    if ((p->flags & EU_SEND_EOT) && !write)    /* not on reads or atomics (L8461) */
        s->eot_not_on_write++;
    bool ok;
    switch (opcode) {
    case DESC_URB_WRITE_HWORD: s->write_hword++; ok = hword_oword(s, p, regs, wb, rlen, lines, opcode); break;
    case DESC_URB_WRITE_OWORD: s->write_oword++; ok = hword_oword(s, p, regs, wb, rlen, lines, opcode); break;
    case DESC_URB_READ_HWORD:  s->read_hword++;  ok = hword_oword(s, p, regs, wb, rlen, lines, opcode); break;
    case DESC_URB_READ_OWORD:  s->read_oword++;  ok = hword_oword(s, p, regs, wb, rlen, lines, opcode); break;
    case DESC_URB_ATOMIC_MOV:
    case DESC_URB_ATOMIC_INC:
    case DESC_URB_ATOMIC_ADD:  s->atomics++;     ok = atomic(s, p, wb, rlen, lines, opcode); break;
    case DESC_URB_SIMD8_WRITE: s->simd8_write++; ok = simd8(s, p, regs, wb, rlen, lines, true); break;
    case DESC_URB_SIMD8_READ:  s->simd8_read++;  ok = simd8(s, p, regs, wb, rlen, lines, false); break;
    default:
        s->unsupported++;
        urb_warn_once(s, u, 2, "URB opcode %u is reserved (L8500): zeros returned", opcode);
        return false;
    }
    if (!ok) {
        s->bad_messages++;
        urb_warn_once(s, u, 4, "URB message (descriptor 0x%08x, %u registers, rlen %u) is malformed",
                      p->desc, regs, rlen);
    }
    return ok;
}
