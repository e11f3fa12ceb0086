/* units/vf/vf_io.c - the VF's URB and L3 sides (see vf.h): VUE allocation,
 * the vertex rows written into the URB, references and dereferences, and the
 * 64-byte line requests that time vertex and index fetch. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/common/urb.h"
#include "units/vf/vf_internal.h"

void vf_warn_once(struct vf *s, unsigned bit, const char *fmt, ...)
{
    if (bit < 32 && (s->warned >> bit) & 1u)
        return;
    if (bit < 32)
        s->warned |= 1u << bit;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(s->unit, SIM_LOG_NOTE, "%s", text);
}

static bool can_send(struct port *p)
{
    return p && port_is_bound(p) && port_can_send(p);
}

static struct msg *urb_msg_new(struct vf *s, uint32_t op, uint32_t rows)
{
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB,
                              (uint32_t)(sizeof(struct urb_msg) + rows * URB_ROW_BYTES));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q + rows * URB_ROW_BYTES);
    q->op = op;
    q->client = URB_CLIENT_VS;      /* VF allocates the VS's input VUEs (003 L11969-11972) */
    return m;
}

/* ---- records ------------------------------------------------------------------ */

void vf_record_maybe_free(struct vf *s, uint32_t id)
{
    struct vf_record *r = &s->records[id];
    if (!r->used || r->holders || r->alloc_pending || r->write_pending || r->lines_pending ||
        r->fetching)
        return;
    if (r->handle != URB_HANDLE_NONE)
        vf_io_dereference(s, r->handle);
    memset(r, 0, sizeof *r);
    r->handle = URB_HANDLE_NONE;
    s->free_records[s->free_count++] = id;
}

void vf_record_release(struct vf *s, uint32_t id)
{
    if (id == VF_NONE)
        return;
    struct vf_record *r = &s->records[id];
    if (r->holders)
        r->holders--;
    vf_record_maybe_free(s, id);
}

/* ---- URB ------------------------------------------------------------------------ */

void vf_io_dereference(struct vf *s, uint32_t handle)
{
    fifo_push(&s->derefs, &handle);
}

bool vf_io_reference(struct vf *s, const uint32_t *handles, uint32_t count)
{
    if (!can_send(s->urb)) {
        s->stall_urb++;
        return false;
    }
    struct msg *m = urb_msg_new(s, URB_OP_REFERENCE, 0);
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->count = count;
    memcpy(q->handles, handles, count * sizeof handles[0]);
    port_try_send(s->urb, m);
    s->urb_references += count;
    s->progress = true;
    return true;
}

static bool read_virtual(const struct vf *s, uint64_t address, void *out, uint32_t bytes)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->draw.space_format, s->draw.space_root);
    return gpu_address_space_read(&as, address, out, bytes, &err) == 0;
}

/* The VUE of record r (vf.h "VUE layout"): element k in dwords 4k..4k+3, then
 * the SGVS insertion. Returns the dwords written. */
static uint32_t build_vue(struct vf *s, const struct vf_record *r, uint32_t *vue, uint32_t max_dwords)
{
    uint32_t dwords = s->element_count * VF_ELEMENT_DWORDS;
    struct vf_generated_ids ids = { r->vertex_id, r->instance_id, r->primitive_id };
    for (uint32_t e = 0; e < s->element_count; e++) {
        const struct spec_VERTEX_ELEMENT_STATE *ve = &s->elements[e];
        uint8_t bytes[32] = { 0 };
        const uint8_t *source = NULL;
        unsigned n = vf_source_bytes(ve->SourceElementFormat);
        uint32_t b = ve->VertexBufferIndex;
        if (n && b < VF_MAX_BUFFERS && s->buffer_valid[b]) {
            uint64_t index = vf_structure_index(s->instancing[e], s->step_rate[e], r->vertex_index,
                                                r->instance_id, s->draw.start_instance);
            uint64_t address;
            if (vf_element_address(&s->buffers[b], index, ve->SourceElementOffset, n, &address)) {
                if (read_virtual(s, address, bytes, n))
                    source = bytes;
                else
                    s->address_faults++;
            }
        }
        if (ve->EdgeFlagEnable)
            s->edge_flags_ignored++;
        struct vf_element_result out;
        if (vf_fetch_element(ve, source, &ids, &out, &s->fetch_counters) < 0)
            continue;
        for (unsigned c = 0; c < 4; c++)
            if (out.write_mask & (1u << c))
                vue[e * VF_ELEMENT_DWORDS + c] = out.dwords[c];
    }
    /* 3DSTATE_VF_SGVS (004 L6556-6558): zeros up to the receiving element,
     * which the zeroed buffer already holds, then the value */
    const struct spec_3DSTATE_VF_SGVS *g = &s->sgvs;
    for (int k = 0; k < 2; k++) {
        bool enable = k ? g->InstanceIDEnable : g->VertexIDEnable;
        uint32_t element = k ? g->InstanceIDElementOffset : g->VertexIDElementOffset;
        uint32_t component = (k ? g->InstanceIDComponentNumber : g->VertexIDComponentNumber) & 3u;
        if (!enable)
            continue;
        uint32_t at = element * VF_ELEMENT_DWORDS + component;
        if (element >= VF_MAX_VUE_ELEMENTS - 1 || at >= max_dwords) {
            s->sgvs_beyond_entry++;     /* INVALID (004 L6558): not inserted */
            continue;
        }
        vue[at] = k ? r->instance_id : r->vertex_id;
        if ((element + 1) * VF_ELEMENT_DWORDS > dwords)
            dwords = (element + 1) * VF_ELEMENT_DWORDS;
    }
    return dwords;
}

static bool send_write(struct vf *s, uint32_t id)
{
    struct vf_record *r = &s->records[id];
    uint32_t vue[VF_MAX_VUE_ELEMENTS * VF_ELEMENT_DWORDS] = { 0 };
    uint32_t max_dwords = VF_MAX_VUE_ELEMENTS * VF_ELEMENT_DWORDS;
    if (s->vs_entry_bytes && s->vs_entry_bytes / 4 < max_dwords)
        max_dwords = s->vs_entry_bytes / 4;
    uint32_t dwords = build_vue(s, r, vue, VF_MAX_VUE_ELEMENTS * VF_ELEMENT_DWORDS);
    if (dwords > max_dwords) {
        s->sgvs_beyond_entry++;
        vf_warn_once(s, 0, "vertex elements need %u bytes, beyond the VS URB entry of %u: cut",
                     dwords * 4, s->vs_entry_bytes);
        dwords = max_dwords;
    }
    uint32_t rows = (dwords * 4 + URB_ROW_BYTES - 1) / URB_ROW_BYTES;
    if (!rows)
        rows = 1;
    struct msg *m = urb_msg_new(s, URB_OP_WRITE, rows);
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->tag = id;
    q->count = 1;
    q->handles[0] = r->handle;
    q->row = 0;
    q->rows = rows;
    memcpy(q->data, vue, dwords * 4);
    port_try_send(s->urb, m);
    s->urb_writes++;
    r->write_pending = true;
    return true;
}

/* ---- L3 ------------------------------------------------------------------------- */

bool vf_io_queue_line(struct vf *s, uint64_t virtual_address, uint32_t tag)
{
    if (!s->l3 || !port_is_bound(s->l3))
        return false;           /* no L3 linked: fetch is untimed */
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->draw.space_format, s->draw.space_root);
    uint64_t physical;
    if (gpu_address_space_translate(&as, virtual_address, &physical) < 0) {
        s->address_faults++;
        return false;           /* nothing to time: the functional read gives zeros */
    }
    struct vf_line_request q = { physical & ~(uint64_t)(MEMREQ_LINE_BYTES - 1), tag };
    fifo_push(&s->lines, &q);
    if (tag & VF_TAG_INDEX_LINE)
        s->ib_outstanding++;
    else
        s->records[tag].lines_pending++;
    return true;
}

/* ---- replies -------------------------------------------------------------------- */

static void urb_reply(struct vf *s, const struct urb_msg *q)
{
    if (q->tag >= s->records_capacity || !s->records[q->tag].used) {
        s->bad_messages++;
        return;
    }
    uint32_t id = q->tag;
    struct vf_record *r = &s->records[id];
    switch (q->op) {
    case URB_OP_ALLOCATED:
        if (!r->alloc_pending) {
            s->bad_messages++;
            return;
        }
        r->alloc_pending = false;
        if (q->count == 0) {
            r->failed = true;
            s->refused_allocations++;
            vf_warn_once(s, 1, "the URB refused a VS entry (no 3DSTATE_URB_VS allocation?): "
                         "primitives using the vertex are dropped");
        } else {
            r->handle = q->handles[0];
        }
        break;
    case URB_OP_WRITE_DONE:
        if (!r->write_pending) {
            s->bad_messages++;
            return;
        }
        r->write_pending = false;
        r->written = true;
        break;
    default:
        s->bad_messages++;
        return;
    }
    vf_record_maybe_free(s, id);
}

void vf_io_replies(struct vf *s)
{
    struct sim *sim = unit_sim(s->unit);
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply))) {
        if (m->kind == MSG_URB && m->size >= sizeof(struct urb_msg))
            urb_reply(s, (const struct urb_msg *)m->payload);
        else
            s->bad_messages++;
        msg_free(sim, m);
        s->progress = true;
    }
    while (s->l3_reply && (m = port_pop(s->l3_reply))) {
        if (m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof(struct memreply)) {
            uint32_t tag = ((const struct memreply *)m->payload)->tag;
            if (tag & VF_TAG_INDEX_LINE) {
                uint32_t slot = tag & ~VF_TAG_INDEX_LINE;
                if (slot < VF_IB_PREFETCH)
                    s->ib_lines[slot].answered = true;
                if (s->ib_outstanding)
                    s->ib_outstanding--;
            } else if (tag < s->records_capacity && s->records[tag].lines_pending) {
                s->records[tag].lines_pending--;
                vf_record_maybe_free(s, tag);
            } else {
                s->bad_messages++;
            }
        } else {
            s->bad_messages++;
        }
        msg_free(sim, m);
        s->progress = true;
    }
}

/* ---- sending -------------------------------------------------------------------- */

static void pump_derefs(struct vf *s)
{
    while (fifo_count(&s->derefs) && can_send(s->urb)) {
        struct msg *m = urb_msg_new(s, URB_OP_DEREFERENCE, 0);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        uint32_t handle;
        while (q->count < URB_MAX_HANDLES_PER_MSG && fifo_pop(&s->derefs, &handle))
            q->handles[q->count++] = handle;
        s->urb_dereferences += q->count;
        port_try_send(s->urb, m);
        s->progress = true;
    }
    if (!s->urb || !port_is_bound(s->urb)) {
        uint32_t handle;
        while (fifo_pop(&s->derefs, &handle)) {}
    }
}

/* ALLOCs for the records of the fetch ring, in order (the URB answers each
 * client's requests in order, 003 L11323-11368 / units/urb). */
static void pump_allocs(struct vf *s)
{
    while (s->fetch_allocs < s->fetch_count) {
        uint32_t id = s->fetch[(s->fetch_head + s->fetch_allocs) % s->fetch_capacity];
        struct vf_record *r = &s->records[id];
        if (r->holders == 0) {          /* nothing will use it: no entry needed */
            s->fetch_allocs++;
            continue;
        }
        if (!can_send(s->urb)) {
            s->stall_urb++;
            return;
        }
        struct msg *m = urb_msg_new(s, URB_OP_ALLOC, 0);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        q->tag = id;
        q->count = 1;
        port_try_send(s->urb, m);
        r->alloc_pending = true;
        s->urb_allocs++;
        s->fetch_allocs++;
        s->progress = true;
    }
}

/* WRITEs of the ring's head records once their entry and lines are in. */
static void pump_writes(struct vf *s)
{
    while (s->fetch_count && s->fetch_allocs) {
        uint32_t id = s->fetch[s->fetch_head];
        struct vf_record *r = &s->records[id];
        if (r->alloc_pending)
            return;
        bool skip = r->holders == 0 || r->failed || r->handle == URB_HANDLE_NONE;
        if (!skip) {
            if (r->lines_pending) {
                s->stall_l3++;
                return;
            }
            if (!can_send(s->urb)) {
                s->stall_urb++;
                return;
            }
            send_write(s, id);
        }
        r->fetching = false;
        s->fetch_head = (s->fetch_head + 1) % s->fetch_capacity;
        s->fetch_count--;
        s->fetch_allocs--;
        s->progress = true;
        vf_record_maybe_free(s, id);
    }
}

static void pump_lines(struct vf *s)
{
    bool bound = s->l3 && port_is_bound(s->l3);
    while (fifo_count(&s->lines)) {
        if (bound && !port_can_send(s->l3)) {
            s->stall_l3++;
            return;
        }
        struct vf_line_request q;
        fifo_pop(&s->lines, &q);
        if (!bound)
            continue;
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        memset(r, 0, sizeof *r);
        r->address = q.address;
        r->tag = q.tag;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = MEMREQ_READ;
        r->target = MEMREQ_DATA;
        r->client = unit_id(s->unit);
        port_try_send(s->l3, m);
        s->lines_requested++;
        s->progress = true;
    }
}

void vf_io_pump(struct vf *s)
{
    pump_lines(s);
    pump_allocs(s);
    pump_writes(s);
    pump_derefs(s);
}
