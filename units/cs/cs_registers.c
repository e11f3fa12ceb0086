/* units/cs/cs_registers.c - the command streamer's register file and the
 * registers with side effects (ring, ELSP, predicate, L3CNTLREG, TIMESTAMP).
 * See cs.h for what the CS models. */
#include "units/cs/cs_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
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
 * write-enable bit 31"; CONTEXT_CONTROL §4.3; INSTPM from Gen6 and Gen9's
 * CS_DEBUG_MODE2: the reference genxml gives each field its "Mask" field
 * 16 bits up). */
static bool reg_is_masked(uint32_t gen, uint32_t offset)
{
    return offset == REG_GFX_MODE || offset == REG_CONTEXT_CONTROL ||
           (offset == REG_INSTPM && gen >= 6) || (offset == REG_CS_DEBUG_MODE2 && gen >= 9);
}

/* ---- the 3D pipeline's registers (units/common/mmio.h) ------------------- */

/* The 64-bit statistics counters (reference genxml gen9.xml registers;
 * PS_DEPTH_COUNT 0x2350 as mmio.h gives it). */
static const struct { uint32_t offset; int field; } statistics_counters[] = {
    { 0x2300, PIPE_REG_HS_INVOCATIONS },
    { 0x2308, PIPE_REG_DS_INVOCATIONS },
    { 0x2310, PIPE_REG_IA_VERTICES },
    { 0x2318, PIPE_REG_IA_PRIMITIVES },
    { 0x2320, PIPE_REG_VS_INVOCATIONS },
    { 0x2328, PIPE_REG_GS_INVOCATIONS },
    { 0x2330, PIPE_REG_GS_PRIMITIVES },
    { 0x2338, PIPE_REG_CL_INVOCATIONS },
    { 0x2340, PIPE_REG_CL_PRIMITIVES },
    { 0x2348, PIPE_REG_PS_INVOCATIONS },
    { 0x2350, PIPE_REG_PS_DEPTH },
};

int cs_pipeline_field(uint32_t offset, bool *high)
{
    *high = (offset & 4) != 0;
    if (offset >= REG_HS_INVOCATION_COUNT && offset < REG_PS_DEPTH_COUNT + 8) {
        for (size_t i = 0; i < sizeof statistics_counters / sizeof statistics_counters[0]; i++)
            if ((offset & ~7u) == statistics_counters[i].offset)
                return statistics_counters[i].field;
        return -1;
    }
    if (offset >= REG_SO_NUM_PRIMS_WRITTEN0 && offset < REG_SO_NUM_PRIMS_WRITTEN0 + 32)
        return PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + (int)((offset - REG_SO_NUM_PRIMS_WRITTEN0) / 8);
    if (offset >= REG_SO_PRIM_STORAGE_NEEDED0 && offset < REG_SO_PRIM_STORAGE_NEEDED0 + 32)
        return PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + (int)((offset - REG_SO_PRIM_STORAGE_NEEDED0) / 8);
    if (offset >= REG_SO_WRITE_OFFSET0 && offset < REG_SO_WRITE_OFFSET0 + 16) {
        *high = false;      /* 32-bit registers */
        return PIPE_REG_SO_WRITE_OFFSET0 + (int)((offset - REG_SO_WRITE_OFFSET0) / 4);
    }
    return -1;
}

/* The offset of a field's (low) dword. */
static uint32_t pipeline_field_offset(int field)
{
    if (field >= PIPE_REG_SO_WRITE_OFFSET0)
        return REG_SO_WRITE_OFFSET0 + 4u * (uint32_t)(field - PIPE_REG_SO_WRITE_OFFSET0);
    if (field >= PIPE_REG_SO_PRIM_STORAGE_NEEDED0)
        return REG_SO_PRIM_STORAGE_NEEDED0 + 8u * (uint32_t)(field - PIPE_REG_SO_PRIM_STORAGE_NEEDED0);
    if (field >= PIPE_REG_SO_NUM_PRIMS_WRITTEN0)
        return REG_SO_NUM_PRIMS_WRITTEN0 + 8u * (uint32_t)(field - PIPE_REG_SO_NUM_PRIMS_WRITTEN0);
    for (size_t i = 0; i < sizeof statistics_counters / sizeof statistics_counters[0]; i++)
        if (statistics_counters[i].field == field)
            return statistics_counters[i].offset;
    return 0;
}

static bool pipeline_field_is_64bit(int field)
{
    return field < PIPE_REG_SO_WRITE_OFFSET0;
}

bool cs_reg_is_pipeline(uint32_t offset)
{
    bool high;
    if (cs_pipeline_field(offset, &high) >= 0)
        return true;
    /* the 3DPRIM_* registers VF's indirect draws read (spec/data/gen8.xml:
     * 0x2420 END_OFFSET, 0x2430-0x2440 START_VERTEX .. BASE_VERTEX), and
     * INSTPM / CS_DEBUG_MODE2, whose CONSTANT_BUFFER Address Offset Disable
     * the stages' push constants follow */
    return (offset >= REG_3DPRIM_FIRST && offset <= REG_3DPRIM_LAST) || offset == REG_INSTPM ||
           offset == REG_CS_DEBUG_MODE2;
}

/* A register write in order down the 3D pipeline (mmio.h). */
static void send_pipe_write(struct cs *s, struct unit *u, uint32_t offset, uint32_t value)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *w = (struct cs_mmio *)m->payload;
    memset(w, 0, sizeof *w);
    w->op = CS_MMIO_WRITE;
    w->offset = offset;
    w->value = value;
    s->pipe_register_writes++;
    cs_send(s, s->vf, m);
}

void cs_send_pipe_sync(struct cs *s, struct unit *u)
{
    uint32_t bytes = (uint32_t)(sizeof(struct cs_mmio) + sizeof(struct pipeline_registers));
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, bytes);
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    memset(c, 0, bytes);
    c->op = CS_MMIO_SYNC;
    c->size = sizeof(struct pipeline_registers);
    struct pipeline_registers r;
    memset(&r, 0, sizeof r);
    for (int f = 0; f < PIPE_REG_COUNT; f++) {
        uint32_t offset = pipeline_field_offset(f);
        r.value[f] = cs_reg_get_raw(&s->regs, offset);
        if (pipeline_field_is_64bit(f))
            r.value[f] |= (uint64_t)cs_reg_get_raw(&s->regs, offset + 4) << 32;
    }
    memcpy(c->data, &r, sizeof r);
    s->pipe_syncs++;
    s->awaiting_pipe = true;
    cs_send(s, s->vf, m);
}

void cs_take_pipe_reply(struct cs *s, struct unit *u, const struct msg *m)
{
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (m->kind != MSG_MMIO || m->size < sizeof *c || c->op != CS_MMIO_SYNC_DONE) {
        s->pipe_malformed++;
        cs_report(s, u, "\"pipe_drained\" message (%s, %u bytes) is no CS_MMIO_SYNC_DONE: dropped",
                  msg_kind_name(m->kind), m->size);
        return;
    }
    s->awaiting_pipe = false;
    if (c->size < sizeof(struct pipeline_registers) ||
        m->size < sizeof *c + sizeof(struct pipeline_registers)) {
        s->pipe_malformed++;
        cs_report(s, u, "the 3D pipeline's sync reply carries no registers: copies unchanged");
        return;
    }
    struct pipeline_registers r;
    memcpy(&r, c->data, sizeof r);
    for (int f = 0; f < PIPE_REG_COUNT; f++) {
        if (!(r.written & ((uint64_t)1 << f)))
            continue;
        uint32_t offset = pipeline_field_offset(f);
        cs_reg_set_raw(&s->regs, offset, (uint32_t)r.value[f]);
        if (pipeline_field_is_64bit(f))
            cs_reg_set_raw(&s->regs, offset + 4, (uint32_t)(r.value[f] >> 32));
    }
}

void cs_send(struct cs *s, struct port *p, struct msg *m)
{
    if (s->pending_count == 0 && port_try_send(p, m))
        return;
    cs_queue(s, p, m);
}

void cs_queue(struct cs *s, struct port *p, struct msg *m)
{
    if (s->pending_count == s->pending_capacity) {
        s->pending_capacity = s->pending_capacity ? 2 * s->pending_capacity : 8;
        s->pending = gt_xrealloc(s->pending, s->pending_capacity * sizeof *s->pending);
        s->pending_port = gt_xrealloc(s->pending_port,
                                      s->pending_capacity * sizeof *s->pending_port);
    }
    s->pending[s->pending_count] = m;
    s->pending_port[s->pending_count++] = p;
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
    if (reg_is_masked(s->gen, offset)) {
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
    if (s->pipe_drained && s->vf && cs_reg_is_pipeline(offset))
        send_pipe_write(s, u, offset, value);   /* the owning stage takes it in order */
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
