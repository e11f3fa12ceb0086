/* units/vf/vf_draw.c - the VF's 3DPRIMITIVE execution (see vf.h): the
 * instance and vertex loops, index fetch, cut, the vertex cache, primitive
 * assembly through vf_assembly and the objects sent to the VS. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/common/urb.h"
#include "units/vf/vf_internal.h"

#define VF_CUT_TOKEN VF_NONE        /* what the assembler sees for a cut (never a record id) */

int vf_draw_init(struct vf *s, struct gt_error *err)
{
    (void)err;
    s->records = gt_xcalloc(s->records_capacity, sizeof *s->records);
    s->free_records = gt_xcalloc(s->records_capacity, sizeof *s->free_records);
    s->cache = gt_xcalloc(s->cache_entries ? s->cache_entries : 1, sizeof *s->cache);
    s->objects = gt_xcalloc(s->objects_capacity, sizeof *s->objects);
    s->fetch = gt_xcalloc(s->fetch_capacity, sizeof *s->fetch);
    fifo_init(&s->lines, sizeof(struct vf_line_request));
    fifo_init(&s->derefs, sizeof(uint32_t));
    return 0;
}

void vf_draw_free(struct vf *s)
{
    free(s->observed);
    free(s->records);
    free(s->free_records);
    free(s->cache);
    free(s->objects);
    free(s->fetch);
    fifo_release(&s->lines);
    fifo_release(&s->derefs);
}

void vf_draw_reset(struct vf *s)
{
    memset(s->records, 0, s->records_capacity * sizeof *s->records);
    for (uint32_t i = 0; i < s->records_capacity; i++) {
        s->records[i].handle = URB_HANDLE_NONE;
        s->free_records[i] = s->records_capacity - 1 - i;
    }
    s->free_count = s->records_capacity;
    memset(s->cache, 0, (s->cache_entries ? s->cache_entries : 1) * sizeof *s->cache);
    s->cache_next = 0;
    s->object_head = s->object_count = 0;
    s->fetch_head = s->fetch_count = s->fetch_allocs = 0;
    fifo_release(&s->lines);
    fifo_release(&s->derefs);
    memset(s->ib_lines, 0, sizeof s->ib_lines);
    s->ib_next = 0;
    memset(&s->draw, 0, sizeof s->draw);
}

/* ---- holds ------------------------------------------------------------------------ */

static void hold(struct vf *s, uint32_t id)
{
    if (id != VF_NONE)
        s->records[id].holders++;
}

static void release_window(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    for (uint32_t i = 0; i < d->window_count; i++)
        vf_record_release(s, d->window[i]);
    d->window_count = 0;
    vf_record_release(s, d->first);
    d->first = VF_NONE;
}

/* The held object's vertices stay held by the VF until it leaves the
 * assembler (new holds first, then the old ones released). */
static void update_held(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    const struct vf_object *o = vf_assembly_held(&s->assembler);
    uint32_t n = o ? o->vertex_count : 0, old[PRIM_MAX_VERTICES];
    uint32_t old_count = d->held_count;
    memcpy(old, d->held, old_count * sizeof old[0]);
    for (uint32_t i = 0; i < n; i++) {
        d->held[i] = o->vertices[i];
        hold(s, d->held[i]);
    }
    d->held_count = n;
    for (uint32_t i = 0; i < old_count; i++)
        vf_record_release(s, old[i]);
}

static void cache_clear(struct vf *s)
{
    for (uint32_t i = 0; i < s->cache_entries; i++)
        if (s->cache[i].valid) {
            s->cache[i].valid = false;
            vf_record_release(s, s->cache[i].record);
        }
    s->cache_next = 0;
}

/* The IA counters take what the assembler counted, when statistics are on
 * (3DSTATE_VF_STATISTICS; 003 L12185-12200). */
static void apply_counters(struct vf *s)
{
    uint64_t v = s->assembler.counters.vertices, o = s->assembler.counters.objects;
    if (s->statistics) {
        s->ia_vertices += v - s->counted_vertices;
        s->ia_primitives += o - s->counted_objects;
    }
    s->counted_vertices = v;
    s->counted_objects = o;
}

/* ---- objects ---------------------------------------------------------------------- */

static void on_object(void *context, const struct vf_object *o)
{
    struct vf *s = context;
    struct vf_draw *d = &s->draw;
    /* room for 3 was checked before the assembler was called */
    struct vf_queued_object *q = &s->objects[(s->object_head + s->object_count) % s->objects_capacity];
    s->object_count++;
    q->topology = o->topology;
    /* the strip's parity goes with a lone strip triangle (primitive.h) */
    q->flags = o->flags | (o->invert_orientation ? PRIM_STRIP_ODD : 0u);
    q->vertex_count = o->vertex_count;
    q->provoking = o->provoking;
    q->instance = d->instance;
    q->primitive_id = (uint32_t)d->objects_in_instance++;    /* 001 L5103-5108 */
    for (uint32_t i = 0; i < o->vertex_count; i++) {
        q->records[i] = o->vertices[i];
        hold(s, o->vertices[i]);
    }
}

static void assembler_vertex(struct vf *s, uint32_t token)
{
    vf_assembly_vertex(&s->assembler, token);
    update_held(s);
    apply_counters(s);
}

static void release_held(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    for (uint32_t i = 0; i < d->held_count; i++)
        vf_record_release(s, d->held[i]);
    d->held_count = 0;
}

/* Sends the objects at the head of the queue whose vertices are in the URB. */
static void emit_objects(struct vf *s)
{
    for (uint32_t sent = 0; sent < s->primitives_per_cycle && s->object_count; sent++) {
        struct vf_queued_object *q = &s->objects[s->object_head];
        bool failed = false, ready = true;
        uint32_t handles[PRIM_MAX_VERTICES];
        for (uint32_t i = 0; i < q->vertex_count; i++) {
            const struct vf_record *r = &s->records[q->records[i]];
            failed |= r->failed;
            ready &= r->written;
            handles[i] = r->handle;
        }
        if (!failed && !ready) {
            s->stall_urb++;
            return;
        }
        bool urb = s->urb && port_is_bound(s->urb);
        if (failed) {
            s->objects_dropped++;
        } else {
            /* one reference per vertex the primitive carries (primitive.h) */
            if (urb && !vf_io_reference(s, handles, q->vertex_count))
                return;
            struct msg *m = msg_alloc(unit_sim(s->unit), MSG_PRIMITIVE, sizeof(struct primitive_packet));
            struct primitive_packet *p = (struct primitive_packet *)m->payload;
            memset(p, 0, sizeof *p);
            p->topology = q->topology;
            p->flags = q->flags;
            p->vertex_count = q->vertex_count;
            p->provoking = q->provoking;
            p->instance = q->instance;
            p->primitive_id = q->primitive_id;
            p->draw = s->draw.id;
            p->owner_handle = URB_HANDLE_NONE;
            memcpy(p->handles, handles, q->vertex_count * sizeof handles[0]);
            for (uint32_t i = 0; i < q->vertex_count; i++) {
                struct vf_record *r = &s->records[q->records[i]];
                if (!r->sent)
                    p->new_vertices |= 1u << i;
                r->sent = true;
            }
            ff_stage_emit(&s->ff, m);
            s->primitives_out++;
        }
        for (uint32_t i = 0; i < q->vertex_count; i++)
            vf_record_release(s, q->records[i]);
        s->object_head = (s->object_head + 1) % s->objects_capacity;
        s->object_count--;
        s->progress = true;
    }
}

/* ---- the draw ------------------------------------------------------------------------ */

static bool read_virtual(const struct vf *s, uint64_t address, void *out, uint32_t bytes)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->draw.space_format, s->draw.space_root);
    return gpu_address_space_read(&as, address, out, bytes, &err) == 0;
}

static bool elements_use_pid(const struct vf *s)
{
    for (uint32_t e = 0; e < s->element_count; e++) {
        const struct spec_VERTEX_ELEMENT_STATE *v = &s->elements[e];
        if (v->Component0Control == VFCOMP_STORE_PID || v->Component1Control == VFCOMP_STORE_PID ||
            v->Component2Control == VFCOMP_STORE_PID || v->Component3Control == VFCOMP_STORE_PID)
            return true;
    }
    return false;
}

bool vf_draw_start(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_3DPRIMITIVE *v = cs_state_common(p);
    struct vf_draw *d = &s->draw;
    memset(d, 0, sizeof *d);
    d->first = VF_NONE;
    d->id = s->draws_started++;
    s->draws++;
    struct vf_observed_draw *od = vf_observed_touch(s, d->id);
    d->random = v->VertexAccessType == 1;
    d->vertex_count = v->VertexCountPerInstance;
    d->start_vertex = v->StartVertexLocation;
    d->instance_count = v->InstanceCount;
    d->start_instance = v->StartInstanceLocation;
    d->base_vertex = v->BaseVertexLocation;
    if (v->IndirectParameterEnable) {
        /* DW2-6 replaced by the 3DPRIM_* registers (004 L597-610) */
        s->indirect_draws++;
        d->vertex_count = s->prim_vertex_count;
        d->start_vertex = s->prim_start_vertex;
        d->instance_count = s->prim_instance_count;
        d->start_instance = s->prim_start_instance;
        d->base_vertex = (int32_t)s->prim_base_vertex;
    }
    if (v->EndOffsetEnable && !v->IndirectParameterEnable) {
        /* vertices until 3DPRIM_END_OFFSET is reached in VB0 (004 L612): a
         * vertex whose structure does not end at or before it is incomplete */
        uint32_t pitch = s->buffer_valid[0] ? s->buffers[0].pitch : 0;
        d->vertex_count = pitch ? s->prim_end_offset / pitch : 0;
        if (!pitch)
            s->bad_draws++;
    }
    /* Gen8+: the topology comes from 3DSTATE_VF_TOPOLOGY, the command's field
     * is ignored (004 L620-624) */
    d->topology = p->gen >= 8 ? s->topology : v->PrimitiveTopologyType;
    d->space_format = p->space_format;
    d->space_root = p->space_root;
    if (od) {
        od->instances = d->instance_count;
        od->skipped = true;             /* until the checks below pass */
    }
    if (d->vertex_count == 0 || d->instance_count == 0) {
        s->empty_draws++;               /* a no-operation (004 L611, L615) */
        return false;
    }
    uint64_t total = (uint64_t)d->vertex_count * d->instance_count;
    if (total > s->max_draw_vertices) {
        s->bad_draws++;
        vf_warn_once(s, 2, "3DPRIMITIVE of %u vertices x %u instances is beyond max_draw_vertices "
                     "(%" PRIu64 "): skipped", d->vertex_count, d->instance_count,
                     s->max_draw_vertices);
        return false;
    }
    if (!vf_topology_known(d->topology)) {
        s->bad_topology++;
        vf_warn_once(s, 11, "3DPRIMITIVE of topology %u, which VF does not know: skipped",
                     d->topology);
        return false;
    }
    /* URB entries the VF itself may hold at once: the object held back for its
     * END flag, the window of vertices later objects may use, the vertex being
     * added and a fan's first vertex (an object has at most history + 1 + first
     * vertices). With fewer VS entries it would wait for itself forever. */
    bool uses_first;
    unsigned history = vf_assembly_history(d->topology, &uses_first);
    uint32_t own = 2u * (history + 1u + (uses_first ? 1u : 0u));
    bool urb = s->urb && port_is_bound(s->urb);
    if (urb && s->vs_entries && s->vs_entries < own) {
        s->urb_too_small++;
        vf_warn_once(s, 3, "3DSTATE_URB_VS gives %u entries, fewer than the %u topology %u needs "
                     "in the VF: draw skipped", s->vs_entries, own, d->topology);
        return false;
    }
    if (own + PRIM_MAX_VERTICES + s->cache_entries + 2 > s->records_capacity) {
        s->bad_draws++;
        vf_warn_once(s, 4, "vertex_records too small for topology %u: draw skipped", d->topology);
        return false;
    }
    if (s->element_count == 0) {
        s->bad_state++;                 /* UNDEFINED (004 L6425): an empty VUE is written */
        vf_warn_once(s, 5, "3DPRIMITIVE with no valid vertex element");
    }
    if (d->random && !s->ib_valid)
        vf_warn_once(s, 6, "indexed 3DPRIMITIVE with no 3DSTATE_INDEX_BUFFER: indices read 0");
    /* the cache: VertexIndex tags (003 L11986-11992), for RANDOM draws only and
     * not with a PrimitiveID in the VUE (001 L5500-5512); Vertex Cache Disable */
    d->cache_enabled = d->random && s->cache_entries && !s->vs_cache_disable && !elements_use_pid(s);
    /* the cache's entries come on top of those: at most half of what is left */
    d->cache_limit = s->cache_entries;
    if (urb && s->vs_entries && d->cache_limit > (s->vs_entries - own) / 2)
        d->cache_limit = (s->vs_entries - own) / 2;
    d->cache_enabled = d->cache_enabled && d->cache_limit > 0;
    memset(s->ib_lines, 0, sizeof s->ib_lines);
    d->active = d->generating = true;
    if (od)
        od->skipped = false;
    return true;
}

struct vf_observed_draw *vf_observed_touch(struct vf *s, uint32_t draw)
{
    uint64_t now = unit_cycle(s->unit);
    if (s->observed_count && s->observed[s->observed_count - 1].draw == draw) {
        struct vf_observed_draw *d = &s->observed[s->observed_count - 1];
        if (now > d->last_cycle)
            d->last_cycle = now;
        return d;
    }
    if (s->observed_count >= VF_OBSERVED_DRAWS)
        return NULL;
    if (s->observed_count == s->observed_capacity) {
        s->observed_capacity = s->observed_capacity ? 2 * s->observed_capacity : 64;
        s->observed = gt_xrealloc(s->observed, s->observed_capacity * sizeof *s->observed);
    }
    struct vf_observed_draw *d = &s->observed[s->observed_count++];
    memset(d, 0, sizeof *d);
    d->draw = draw;
    d->first_cycle = d->last_cycle = now;
    return d;
}

static void begin_instance(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    struct vf_assembly_config c = {
        .topology = d->topology,
        .cut_enable = d->random ? s->cut_indexed : s->cut_sequential,
        .cut_index = VF_CUT_TOKEN,
    };
    c.cut_enable = c.cut_enable && vf_topology_cuts(d->topology);
    vf_assembly_begin(&s->assembler, &c, on_object, s);
    apply_counters(s);                  /* bad_topology counted at begin */
    bool uses_first;
    d->history = vf_assembly_history(d->topology, &uses_first);
    d->uses_first = uses_first;
    d->window_count = 0;
    d->first = VF_NONE;
    d->number = 0;
    d->objects_in_instance = 0;         /* PrimitiveID restarts per instance (001 L4801) */
    d->instance_open = true;
    s->instances++;
}

/* The end of an instance: an implied cut (001 L4807), the cache flushed
 * (001 L5522-5524). */
static void end_instance(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    vf_assembly_end(&s->assembler);
    apply_counters(s);
    release_held(s);
    release_window(s);
    cache_clear(s);
    d->instance_open = false;
    d->instance++;
}

/* The record of a new vertex, its element lines queued for the L3. */
static uint32_t new_record(struct vf *s, uint32_t vertex_index, uint32_t vertex_id)
{
    struct vf_draw *d = &s->draw;
    uint32_t id = s->free_records[--s->free_count];
    struct vf_record *r = &s->records[id];
    memset(r, 0, sizeof *r);
    r->used = true;
    r->handle = URB_HANDLE_NONE;
    r->vertex_index = vertex_index;
    r->vertex_id = vertex_id;
    r->instance_id = d->instance;
    r->primitive_id = (uint32_t)d->objects_in_instance;    /* see vf.h: STORE_PID */
    /* the lines its elements read (a line is asked once per vertex) */
    uint64_t lines[2 * VF_MAX_ELEMENTS];
    uint32_t line_count = 0;
    for (uint32_t e = 0; e < s->element_count; e++) {
        const struct spec_VERTEX_ELEMENT_STATE *ve = &s->elements[e];
        bool source = ve->Component0Control == VFCOMP_STORE_SRC ||
                      ve->Component1Control == VFCOMP_STORE_SRC ||
                      ve->Component2Control == VFCOMP_STORE_SRC ||
                      ve->Component3Control == VFCOMP_STORE_SRC;
        unsigned n = vf_source_bytes(ve->SourceElementFormat);
        uint32_t b = ve->VertexBufferIndex;
        if (!source || !n || b >= VF_MAX_BUFFERS || !s->buffer_valid[b])
            continue;
        uint64_t index = vf_structure_index(s->instancing[e], s->step_rate[e], vertex_index,
                                            d->instance, d->start_instance);
        uint64_t address;
        if (!vf_element_address(&s->buffers[b], index, ve->SourceElementOffset, n, &address))
            continue;                   /* out of bounds: zeros, nothing read */
        for (uint64_t l = address / MEMREQ_LINE_BYTES; l <= (address + n - 1) / MEMREQ_LINE_BYTES; l++) {
            bool seen = false;
            for (uint32_t k = 0; k < line_count; k++)
                seen |= lines[k] == l;
            if (!seen && line_count < 2 * VF_MAX_ELEMENTS)
                lines[line_count++] = l;
        }
    }
    for (uint32_t k = 0; k < line_count; k++)
        vf_io_queue_line(s, lines[k] * MEMREQ_LINE_BYTES, id);
    s->vertices_fetched++;
    struct vf_observed_draw *od = vf_observed_touch(s, s->draw.id);
    if (od)
        od->vertices++;
    if (s->urb && port_is_bound(s->urb)) {
        r->fetching = true;
        s->fetch[(s->fetch_head + s->fetch_count) % s->fetch_capacity] = id;
        s->fetch_count++;
    } else {
        r->written = true;              /* no URB linked: handles stay URB_HANDLE_NONE */
    }
    return id;
}

/* The index-buffer line of `address` has been read (timing), or is asked now. */
static bool index_line_ready(struct vf *s, uint64_t address)
{
    if (!s->l3 || !port_is_bound(s->l3))
        return true;
    uint64_t line = address / MEMREQ_LINE_BYTES;
    for (uint32_t i = 0; i < VF_IB_PREFETCH; i++)
        if (s->ib_lines[i].valid && s->ib_lines[i].line == line) {
            if (!s->ib_lines[i].answered)
                s->stall_l3++;
            return s->ib_lines[i].answered;
        }
    /* ask for this line and the next ones inside the buffer */
    uint64_t end = (s->ib_base + s->ib_size + MEMREQ_LINE_BYTES - 1) / MEMREQ_LINE_BYTES;
    for (uint32_t i = 0; i < VF_IB_PREFETCH && line + i < end; i++) {
        uint32_t slot = s->ib_next;
        if (s->ib_lines[slot].valid && !s->ib_lines[slot].answered)
            break;                      /* its reply is still to come: ask later */
        s->ib_next = (s->ib_next + 1) % VF_IB_PREFETCH;
        s->ib_lines[slot] = (struct vf_ib_line){ true, false, line + i };
        if (vf_io_queue_line(s, (line + i) * MEMREQ_LINE_BYTES, VF_TAG_INDEX_LINE | slot))
            s->index_lines++;
        else
            s->ib_lines[slot].answered = true;      /* a fault: nothing to wait for */
    }
    s->stall_l3++;
    return false;
}

/* One iteration of the VertexLoop (001 L4811-4869). False: not now. */
static bool generate_vertex(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    uint32_t vertex_id, vertex_index;
    bool cut;
    if (d->random) {
        uint64_t ib_index = (uint64_t)d->start_vertex + d->number;
        uint64_t address;
        uint8_t bytes[4] = { 0 };
        const uint8_t *source = NULL;
        if (s->ib_valid && vf_index_address(s->ib_base, s->ib_size, s->ib_format, ib_index, &address)) {
            if (!index_line_ready(s, address))
                return false;
            if (read_virtual(s, address, bytes, vf_index_bytes(s->ib_format)))
                source = bytes;
            else
                s->address_faults++;
        } else {
            s->index_out_of_bounds++;   /* reads 0 (004 L631-634) */
        }
        vertex_id = vf_index_value(s->ib_format, source);
        cut = s->cut_indexed && vertex_id == s->cut_index;
        vertex_index = vf_vertex_index(true, d->start_vertex, d->base_vertex, d->number, vertex_id);
    } else {
        vertex_id = d->number;          /* VertexID = VertexNumber (001 L4841-4846) */
        vertex_index = vf_vertex_index(false, d->start_vertex, 0, d->number, 0);
        cut = s->cut_sequential && vertex_index == s->cut_index;
    }
    d->number++;
    s->vertices_generated++;
    if (cut && vf_topology_cuts(d->topology)) {
        assembler_vertex(s, VF_CUT_TOKEN);
        release_held(s);
        release_window(s);
        return true;
    }
    uint32_t id = VF_NONE;
    if (d->cache_enabled) {
        for (uint32_t i = 0; i < d->cache_limit; i++)
            if (s->cache[i].valid && s->cache[i].vertex_index == vertex_index) {
                id = s->cache[i].record;
                break;
            }
        if (id != VF_NONE) {
            s->cache_hits++;
        } else {
            s->cache_misses++;
            id = new_record(s, vertex_index, vertex_id);
            struct vf_cache_entry *c = &s->cache[s->cache_next];
            if (c->valid)
                vf_record_release(s, c->record);
            *c = (struct vf_cache_entry){ true, vertex_index, id };
            hold(s, id);
            s->cache_next = (s->cache_next + 1) % d->cache_limit;
        }
    } else {
        id = new_record(s, vertex_index, vertex_id);
    }
    /* the window holds the vertex while later objects may use it */
    hold(s, id);
    d->window[d->window_count++] = id;
    if (d->uses_first && d->first == VF_NONE) {
        d->first = id;
        hold(s, id);
    }
    assembler_vertex(s, id);
    while (d->window_count > d->history) {
        vf_record_release(s, d->window[0]);
        memmove(d->window, d->window + 1, (d->window_count - 1) * sizeof d->window[0]);
        d->window_count--;
    }
    return true;
}

bool vf_draw_step(struct vf *s)
{
    struct vf_draw *d = &s->draw;
    emit_objects(s);
    for (uint32_t budget = s->vertices_per_cycle; budget && d->generating; budget--) {
        if (!d->instance_open) {
            if (d->instance >= d->instance_count) {
                d->generating = false;
                break;
            }
            begin_instance(s);
        }
        /* room for what one assembler call can make: 3 objects (a cut ends
         * TRISTRIP_ADJ's last object, LINELOOP's closing line and the held one) */
        if (s->object_count + 3 > s->objects_capacity) {
            s->stall_output++;
            break;
        }
        if (d->number >= d->vertex_count) {
            end_instance(s);
            s->progress = true;
            continue;
        }
        if (s->free_count == 0 || s->fetch_count == s->fetch_capacity) {
            s->stall_records++;
            break;
        }
        if (!generate_vertex(s))
            break;
        s->progress = true;
    }
    emit_objects(s);
    return !d->generating && s->object_count == 0 && s->fetch_count == 0 &&
           s->free_count == s->records_capacity && fifo_count(&s->derefs) == 0 &&
           s->ib_outstanding == 0;
}
