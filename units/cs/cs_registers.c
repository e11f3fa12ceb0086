/* units/cs/cs_registers.c - the command streamer's register file and the
 * registers with side effects (ring, ELSP, predicate, L3CNTLREG, TIMESTAMP).
 * See cs.h for what the CS models. */
#include "units/cs/cs_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/port.h"
#include "fabric/sim.h"

/* ---- registers ----------------------------------------------------------- */

static uint32_t reg_slot(const struct register_file *r, uint32_t offset)
{
    uint32_t h = (offset >> 2) * 2654435761u;
    uint32_t mask = r->capacity - 1;
    uint32_t i = h & mask;
    while (r->used[i] && r->keys[i] != offset)
        i = (i + 1) & mask;
    return i;
}

static void reg_grow(struct register_file *r)
{
    struct register_file old = *r;
    r->capacity = old.capacity ? old.capacity * 2 : REGISTER_SLOTS_MIN;
    r->keys = gt_xcalloc(r->capacity, sizeof *r->keys);
    r->values = gt_xcalloc(r->capacity, sizeof *r->values);
    r->used = gt_xcalloc(r->capacity, 1);
    r->count = 0;
    for (uint32_t i = 0; i < old.capacity; i++)
        if (old.used[i]) {
            uint32_t s = reg_slot(r, old.keys[i]);
            r->used[s] = 1;
            r->keys[s] = old.keys[i];
            r->values[s] = old.values[i];
            r->count++;
        }
    free(old.keys);
    free(old.values);
    free(old.used);
}

uint32_t cs_reg_get_raw(const struct register_file *r, uint32_t offset)
{
    if (r->capacity == 0)
        return 0;
    uint32_t s = reg_slot(r, offset);
    return r->used[s] ? r->values[s] : 0;
}

void cs_reg_set_raw(struct register_file *r, uint32_t offset, uint32_t value)
{
    if (2 * (r->count + 1) > r->capacity)
        reg_grow(r);
    uint32_t s = reg_slot(r, offset);
    if (!r->used[s]) {
        r->used[s] = 1;
        r->keys[s] = offset;
        r->count++;
    }
    r->values[s] = value;
}

/* Masked registers take bits 15:0 only where bits 31:16 enable them
 * (notes/aub-format.md §4.1: GFX_MODE "masked register, bit 15 set with its
 * write-enable bit 31"; CONTEXT_CONTROL §4.3). */
static bool reg_is_masked(uint32_t offset)
{
    return offset == REG_GFX_MODE || offset == REG_CONTEXT_CONTROL;
}

uint64_t cs_timestamp_now(const struct cs *s, const struct unit *u)
{
    double seconds = (double)sim_now(unit_sim(u)) * 1e-12;
    return (uint64_t)(seconds * s->timestamp_hz);
}

uint32_t cs_reg_read(struct cs *s, struct unit *u, uint32_t offset)
{
    s->register_reads++;
    if (offset == REG_TIMESTAMP)
        return (uint32_t)cs_timestamp_now(s, u);
    if (offset == REG_TIMESTAMP_UDW)
        return (uint32_t)(cs_timestamp_now(s, u) >> 32);
    if (offset == REG_EXECLIST_STATUS)
        return 0;       /* bit 4 clear: nothing running when software can look (§4.5) */
    return cs_reg_get_raw(&s->regs, offset);
}

void cs_reg_write(struct cs *s, struct unit *u, uint32_t offset, uint32_t value)
{
    s->register_writes++;
    if (reg_is_masked(offset)) {
        uint32_t mask = value >> 16;
        value = (cs_reg_get_raw(&s->regs, offset) & ~mask & 0xFFFF) | (value & mask);
    }
    cs_reg_set_raw(&s->regs, offset, value);
    if (offset == REG_PREDICATE_RESULT)
        s->predicate = value & 1;
    if (offset == REG_ELSP && s->gen >= 8) {
        /* Four writes submit: element 1 high, low, element 0 high, low
         * (notes/aub-format.md §4.4). */
        s->elsp[s->elsp_writes++] = value;
        if (s->elsp_writes == 4) {
            s->elsp_writes = 0;
            cs_start_execlist(s, u);
        }
    }
    if (offset == REG_RING_TAIL && s->gen < 8 && (cs_reg_get_raw(&s->regs, REG_RING_CTL) & 1))
        cs_start_memory_ring(s, u);
    if (offset == REG_L3CNTLREG && s->gen >= 8 && s->l3_count) {
        /* The slices' L3s take the new partition; the CS parses on only
         * once every L3 has the write (cs_tick sends the latest value). */
        s->l3_unsent = (1u << s->l3_count) - 1;
        s->l3_writes++;
    }
}

bool cs_send_l3(struct cs *s, struct unit *u)
{
    for (uint32_t i = 0; i < s->l3_count; i++) {
        if (!(s->l3_unsent & (1u << i)))
            continue;
        if (!port_can_send(s->l3[i]))
            return false;
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        w->op = CS_MMIO_WRITE;
        w->offset = REG_L3CNTLREG;
        w->value = cs_reg_get_raw(&s->regs, REG_L3CNTLREG);
        port_try_send(s->l3[i], m);
        s->l3_unsent &= ~(1u << i);
    }
    return true;
}
