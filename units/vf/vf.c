/* units/vf/vf.c - the VF unit: ports, params, stats, the state it takes, the
 * in-band registers, and the tick (see vf.h). The draw is in vf_draw.c, the
 * URB and L3 traffic in vf_io.c. */
#include "units/vf/vf.h"

#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "units/common/mmio.h"
#include "units/common/urb.h"
#include "units/vf/vf_internal.h"

/* 3D-owned registers the VF keeps (offsets from spec/data/gen8.xml: Mesa's
 * genxml and Linux i915; the seed names them, 004 L597-612, 003 L12185-12200) */
enum {
    REG_IA_VERTICES_COUNT = 0x2310,
    REG_IA_PRIMITIVES_COUNT = 0x2318,
    REG_3DPRIM_END_OFFSET = 0x2420,
    REG_3DPRIM_START_VERTEX = 0x2430,
    REG_3DPRIM_VERTEX_COUNT = 0x2434,
    REG_3DPRIM_INSTANCE_COUNT = 0x2438,
    REG_3DPRIM_START_INSTANCE = 0x243c,
    REG_3DPRIM_BASE_VERTEX = 0x2440,
};

static const struct param_desc vf_params[] = {
    PARAM_U32_FIELD("vertex_records", struct vf, records_capacity, 256, 98, 65536,
                    "vertices the VF tracks at once (its window, cache and queued objects); "
                    "the seed gives no figure"),
    PARAM_U32_FIELD("cache_entries", struct vf, cache_entries, 32, 0, 64,
                    "vertex cache entries (003 L11986; the seed gives no size; 0 disables it)"),
    PARAM_U32_FIELD("objects", struct vf, objects_capacity, 64, 4, 65536,
                    "objects assembled and waiting for their vertices' URB writes"),
    PARAM_U32_FIELD("fetch_depth", struct vf, fetch_capacity, 32, 1, 65536,
                    "vertices between URB allocation and their write (fetches in flight)"),
    PARAM_U32_FIELD("vertices_per_cycle", struct vf, vertices_per_cycle, 1, 1, 64,
                    "vertices the input assembly generates per cycle (no seed figure)"),
    PARAM_U32_FIELD("primitives_per_cycle", struct vf, primitives_per_cycle, 1, 1, 64,
                    "objects sent to the VS per cycle (no seed figure)"),
    PARAM_U64_FIELD("max_draw_vertices", struct vf, max_draw_vertices, (uint64_t)1 << 28, 1,
                    (uint64_t)1 << 40,
                    "vertex count x instance count above which a 3DPRIMITIVE is taken as absurd, "
                    "counted and skipped (a model limit: hardware would run it)"),
    PARAM_END
};

static const struct port_desc vf_ports[] = {
    { .name = "cs", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO),
      .help = "3D state, 3DPRIMITIVE and the in-band registers (CS_MMIO_WRITE, CS_MMIO_SYNC)" },
    { .name = "vs", .direction = PORT_OUT, .flags = PORT_OPTIONAL,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE),
      .help = "state, registers and primitives, in order, to the VS" },
    { .name = "urb", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "VS entry allocations, vertex writes, references (the URB's client[i])" },
    { .name = "urb_reply", .direction = PORT_IN, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "the URB's answers (client_reply[i])" },
    { .name = "l3", .direction = PORT_OUT, .flags = PORT_OPTIONAL,
      .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST), .help = "vertex and index line reads" },
    { .name = "urb_state", .direction = PORT_OUT, .flags = PORT_OPTIONAL,
      .msg_kinds = MSG_BIT(MSG_STATE),
      .help = "copies of 3DSTATE_URB_* and 3DSTATE_PUSH_CONSTANT_ALLOC_* for the URB unit's "
              "state port, in command order ahead of the VF's allocations" },
    { .name = "l3_reply", .direction = PORT_IN, .flags = PORT_OPTIONAL,
      .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE), .help = "the L3's answers" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vf, f, m, h)
static const struct stat_desc vf_stats[] = {
    C("draws", draws, "commands", "3DPRIMITIVE commands"),
    C("urb_state.copied", urb_state_copied, "packets",
      "URB allocation commands copied to the URB unit"),
    C("urb_state.dropped", urb_state_dropped, "packets",
      "URB allocation commands the urb_state link could not take (lost: a model bug)"),
    C("draws.empty", empty_draws, "commands", "draws of 0 vertices or 0 instances (no-ops)"),
    C("draws.indirect", indirect_draws, "commands", "draws taking the 3DPRIM_* registers"),
    C("draws.bad", bad_draws, "commands", "absurd draws skipped, or End Offset with no VB0 pitch"),
    C("instances", instances, "instances", "instances run"),
    C("vertices", vertices_generated, "vertices", "vertices the VertexLoop generated (cuts included)"),
    C("vertices.fetched", vertices_fetched, "vertices", "vertices fetched and written to a VUE"),
    C("cache.hits", cache_hits, "vertices", "vertex cache hits (handle reused, 003 L11986)"),
    C("cache.misses", cache_misses, "vertices", "vertex cache misses (cache enabled)"),
    C("primitives", primitives_out, "objects", "objects sent to the VS"),
    C("objects_dropped", objects_dropped, "objects", "objects dropped: a vertex got no URB entry"),
    C("lines", lines_requested, "lines", "64-byte line reads sent to the L3"),
    C("lines.index", index_lines, "lines", "of which index-buffer lines"),
    C("urb.allocs", urb_allocs, "entries", "VS entries allocated"),
    C("urb.writes", urb_writes, "messages", "vertex writes"),
    C("urb.references", urb_references, "handles", "references taken for primitives"),
    C("urb.dereferences", urb_dereferences, "handles", "references dropped"),
    C("urb.refused", refused_allocations, "entries", "allocations the URB refused"),
    C("stall.urb", stall_urb, "events", "waits for a URB entry, write or a busy urb port"),
    C("stall.l3", stall_l3, "events", "waits for L3 lines or a busy l3 port"),
    C("stall.output", stall_output, "events", "waits for room in the object queue"),
    C("stall.records", stall_records, "events", "waits for a free vertex record or fetch slot"),
    C("bad.out_of_bounds", fetch_counters.out_of_bounds, "elements",
      "elements beyond their buffer's size (read as 0, 003 L11893)"),
    C("bad.index_out_of_bounds", index_out_of_bounds, "indices",
      "indices beyond the index buffer's size (read as 0, 004 L631-634)"),
    C("bad.unsupported_format", fetch_counters.unsupported_format, "elements",
      "elements of a format the VF does not take (nothing stored)"),
    C("bad.unavailable_component", fetch_counters.unavailable_component, "components",
      "STORE_SRC of a '-' component (UNPREDICTABLE, 003 L12177)"),
    C("bad.component_hole", fetch_counters.component_hole, "components",
      "stores after a NOSTORE (not permitted, 003 L12179)"),
    C("bad.invalid_control", fetch_counters.invalid_control, "components",
      "component controls with no meaning"),
    C("bad.topology", bad_topology, "draws", "draws of a topology VF does not know (skipped)"),
    C("bad.state", bad_state, "packets", "malformed or out-of-range VF state"),
    C("bad.unsupported_gen", unsupported_gen, "packets", "VF state of a generation before Gen7"),
    C("gen4.state_faults", gen4_state_faults, "packets",
      "Gen4 VS_STATE pointers outside memory (the previous VS URB state kept)"),
    C("gen4.configures", gen4_configures, "messages",
      "Gen4 VS URB entry counts and sizes told to the urb_fence unit"),
    C("bad.messages", bad_messages, "messages", "malformed or unexpected messages"),
    C("bad.address_faults", address_faults, "reads", "vertex or index reads that faulted"),
    C("bad.sgvs_beyond_entry", sgvs_beyond_entry, "vertices",
      "VUE data beyond the VS entry or the 33rd element (INVALID, 004 L6558): cut"),
    C("bad.urb_too_small", urb_too_small, "draws", "draws skipped: too few VS entries"),
    C("edge_flags_ignored", edge_flags_ignored, "elements", "Edge Flag Enable elements (not modelled)"),
    C("dangling", assembler.counters.dangling_vertices, "vertices",
      "vertices of incomplete objects removed (003 L12181-12187)"),
    C("cuts", assembler.counters.cuts, "indices", "cut indices (primitive restart)"),
    C("registers_written", registers_written, "writes", "CS_MMIO_WRITEs of VF registers"),
    C("syncs", syncs, "messages", "CS_MMIO_SYNCs passed on"),
    STAT_COUNTER_FIELD("IA_VERTICES_COUNT", struct vf, ia_vertices, "vertices",
                       "the register (003 L12189)"),
    STAT_COUNTER_FIELD("IA_PRIMITIVES_COUNT", struct vf, ia_primitives, "objects",
                       "the register (003 L12195)"),
    FF_STAGE_STATS("ff.", struct vf, ff),
    STAT_END
};
#undef C

static const struct key_figure vf_key_figures[] = {
    { .label = "VF vertex cache", .form = KEY_FIGURE_HIT_RATE, .stat = "cache.hits",
      .other = "cache.misses", .flags = KEY_FIGURE_IF_ANY },
    KEY_FIGURE_END
};

/* ---- state ------------------------------------------------------------------------ */

static bool gen_ok(struct vf *s, const struct cs_state_packet *p)
{
    if (p->gen >= 7 || p->gen == 4)
        return true;
    s->unsupported_gen++;
    vf_warn_once(s, 7, "VF state of gen %u is not modelled (Gen7-Gen9 only)", p->gen);
    return false;
}

static void take_vertex_buffers(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_element *e = spec_element_by_id((int)p->gen, SPEC_ID_VERTEX_BUFFER_STATE);
    if (!e || p->dword_count < 1 || (p->dword_count - 1) % 4) {
        s->bad_state++;
        return;
    }
    for (uint32_t i = 0; i + 1 < p->dword_count; i += 4) {
        struct spec_VERTEX_BUFFER_STATE b;
        memset(&b, 0, sizeof b);
        e->unpack_common(p->dwords + 1 + i, &b);
        if (b.VertexBufferIndex >= VF_MAX_BUFFERS) {
            s->bad_state++;
            continue;
        }
        struct vf_buffer *vb = &s->buffers[b.VertexBufferIndex];
        /* Address Modify Enable: the address is taken only when set (genxml) */
        if (b.AddressModifyEnable || !s->buffer_valid[b.VertexBufferIndex])
            vb->base = b.BufferStartingAddress;
        vb->pitch = b.BufferPitch;
        vb->size = b.NullVertexBuffer ? 0 : b.BufferSize;   /* a null VB reads 0 */
        s->buffer_valid[b.VertexBufferIndex] = true;
    }
}

static void take_vertex_elements(struct vf *s, const struct cs_state_packet *p)
{
    const struct spec_element *e = spec_element_by_id((int)p->gen, SPEC_ID_VERTEX_ELEMENT_STATE);
    if (!e || p->dword_count < 1 || (p->dword_count - 1) % 2 ||
        (p->dword_count - 1) / 2 > VF_MAX_ELEMENTS) {
        s->bad_state++;
        return;
    }
    /* the command replaces every element; valid ones run from element 0 with
     * no gap (004 L6423-6430) */
    s->element_count = 0;
    bool gap = false;
    for (uint32_t i = 0; i < (p->dword_count - 1) / 2; i++) {
        struct spec_VERTEX_ELEMENT_STATE v;
        memset(&v, 0, sizeof v);
        e->unpack_common(p->dwords + 1 + 2 * i, &v);
        if (!v.Valid) {
            gap = true;
            continue;
        }
        if (gap) {
            s->bad_state++;
            vf_warn_once(s, 8, "vertex element %u is valid after an invalid one: ignored", i);
            continue;
        }
        s->elements[s->element_count++] = v;
    }
}

/* The URB's allocation state travels to the URB unit from here, so that it
 * arrives in command order with the VF's own allocations (the URB unit's
 * state port; units/urb/urb.h). The link is sized for it: a refusal is
 * counted and logged. */
static void copy_urb_state(struct vf *s, const struct cs_state_packet *p)
{
    if (!s->urb_state)
        return;
    const struct spec_common *c = spec_common_get((enum spec_id)p->id);
    size_t bytes = p->common_offset + (c ? c->size : 0);
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_STATE, (uint32_t)bytes);
    memcpy(m->payload, p, bytes);
    if (!port_try_send(s->urb_state, m)) {
        msg_free(unit_sim(s->unit), m);
        s->urb_state_dropped++;
        unit_log(s->unit, SIM_LOG_ERROR, "a URB allocation command could not reach the URB");
        return;
    }
    s->urb_state_copied++;
}

static void take_state(void *context, const struct cs_state_packet *p)
{
    struct vf *s = context;
    s->gen = p->gen;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_3DSTATE_URB_VS:
    case SPEC_ID_3DSTATE_URB_HS:
    case SPEC_ID_3DSTATE_URB_DS:
    case SPEC_ID_3DSTATE_URB_GS:
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_VS:
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_HS:
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_DS:
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_GS:
    case SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_PS:
        copy_urb_state(s, p);
        break;
    case SPEC_ID_URB_FENCE:             /* Gen4: the urb_fence unit's state */
        copy_urb_state(s, p);
        if (p->gen == 4)
            vf_fence_marker_gen4(s);    /* the VS region's entries are the VF's */
        break;
    case SPEC_ID_CS_URB_STATE:
    case SPEC_ID_CONSTANT_BUFFER:
        copy_urb_state(s, p);
        break;
    default:
        break;
    }
    switch ((enum spec_id)p->id) {
    case SPEC_ID_3DSTATE_VERTEX_BUFFERS:
        if (p->gen == 7)
            vf_take_vertex_buffers_gen7(s, p);
        else if (p->gen == 4)
            vf_take_vertex_buffers_gen4(s, p);
        else if (gen_ok(s, p))
            take_vertex_buffers(s, p);
        break;
    case SPEC_ID_3DSTATE_VERTEX_ELEMENTS:
        if (gen_ok(s, p))
            take_vertex_elements(s, p);
        if (p->gen == 7 || p->gen == 4)
            vf_gen7_element_instancing(s);
        break;
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (p->gen == 4 && v->GeneralStateBaseAddressModifyEnable)
            s->gen4_general_base = v->GeneralStateBaseAddress;
        break; }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
        if (p->gen == 4)
            vf_take_pipelined_pointers_gen4(s, p);
        break;
    case SPEC_ID_3DSTATE_INDEX_BUFFER: {
        const struct spec_3DSTATE_INDEX_BUFFER *v = cs_state_common(p);
        if (!gen_ok(s, p))
            break;
        if (!vf_index_bytes(v->IndexFormat)) {
            s->bad_state++;
            vf_warn_once(s, 9, "3DSTATE_INDEX_BUFFER Index Format %u is reserved", v->IndexFormat);
        }
        s->ib_base = v->BufferStartingAddress;
        s->ib_size = v->BufferSize;
        if (p->gen == 7 || p->gen == 4) {
            /* Gen7: an inclusive Buffer Ending Address, and Cut Index Enable in
             * the header (the cut index is all ones of the index size: seed
             * 000 has no 3DSTATE_VF; Mesa's genxml gen7.xml). Gen4 the same
             * (seed 001 L3733-3878: DW0 10 Cut Index Enable, the cut index all
             * ones, L3836-3878; DW2 the Ending Address, indices past it read
             * 0), but an Ending Address of 0 means no bounds check [Pre-SNB] */
            uint64_t end = v->BufferEndingAddress + 1;
            s->ib_size = end > v->BufferStartingAddress ? (uint32_t)(end - v->BufferStartingAddress) : 0;
            if (p->gen == 4 && v->BufferEndingAddress == 0)
                s->ib_size = UINT32_MAX;
            s->cut_indexed = v->CutIndexEnable;
            unsigned bytes = vf_index_bytes(v->IndexFormat);
            s->cut_index = bytes >= 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1u;
        }
        s->ib_format = v->IndexFormat;
        s->ib_valid = vf_index_bytes(v->IndexFormat) != 0;
        break; }
    case SPEC_ID_3DSTATE_VF: {
        const struct spec_3DSTATE_VF *v = cs_state_common(p);
        s->cut_indexed = v->IndexedDrawCutIndexEnable;
        s->cut_sequential = v->SequentialDrawCutIndexEnable;
        s->cut_index = v->CutIndex;
        break; }
    case SPEC_ID_3DSTATE_VF_TOPOLOGY:
        s->topology = ((const struct spec_3DSTATE_VF_TOPOLOGY *)cs_state_common(p))->PrimitiveTopologyType;
        break;
    case SPEC_ID_3DSTATE_VF_INSTANCING: {
        const struct spec_3DSTATE_VF_INSTANCING *v = cs_state_common(p);
        if (v->VertexElementIndex >= VF_MAX_ELEMENTS) {
            s->bad_state++;
            break;
        }
        s->instancing[v->VertexElementIndex] = v->InstancingEnable;
        s->step_rate[v->VertexElementIndex] = v->InstanceDataStepRate;
        break; }
    case SPEC_ID_3DSTATE_VF_SGVS: {
        const struct spec_3DSTATE_VF_SGVS *v = cs_state_common(p);
        s->sgvs = *v;
        if (v->VertexIDEnable && v->InstanceIDEnable &&
            v->VertexIDElementOffset == v->InstanceIDElementOffset &&
            v->VertexIDComponentNumber == v->InstanceIDComponentNumber) {
            s->bad_state++;     /* INVALID (004 L6558): InstanceID is inserted last and wins */
            vf_warn_once(s, 10, "3DSTATE_VF_SGVS puts VertexID and InstanceID in one component");
        }
        break; }
    case SPEC_ID_3DSTATE_VF_STATISTICS:
        s->statistics = ((const struct spec_3DSTATE_VF_STATISTICS *)cs_state_common(p))->StatisticsEnable;
        break;
    case SPEC_ID_3DSTATE_VS:
        s->vs_cache_disable = ((const struct spec_3DSTATE_VS *)cs_state_common(p))->VertexCacheDisable;
        break;
    case SPEC_ID_3DSTATE_URB_VS: {
        const struct spec_3DSTATE_URB_VS *v = cs_state_common(p);
        s->vs_entries = v->VSNumberOfURBEntries;
        s->vs_entry_bytes = (v->VSURBEntryAllocationSize + 1u) * URB_HANDLE_UNIT_BYTES;
        break; }
    default:
        break;
    }
}

/* ---- registers ---------------------------------------------------------------------- */

/* A register write the VF owns: true (consumed). */
static bool write_register(struct vf *s, uint32_t offset, uint32_t value)
{
    switch (offset) {
    case REG_3DPRIM_END_OFFSET: s->prim_end_offset = value; break;
    case REG_3DPRIM_START_VERTEX: s->prim_start_vertex = value; break;
    case REG_3DPRIM_VERTEX_COUNT: s->prim_vertex_count = value; break;
    case REG_3DPRIM_INSTANCE_COUNT: s->prim_instance_count = value; break;
    case REG_3DPRIM_START_INSTANCE: s->prim_start_instance = value; break;
    case REG_3DPRIM_BASE_VERTEX: s->prim_base_vertex = value; break;
    case REG_IA_VERTICES_COUNT: case REG_IA_VERTICES_COUNT + 4:
        pipeline_register_write64(&s->ia_vertices, REG_IA_VERTICES_COUNT, offset, value);
        break;
    case REG_IA_PRIMITIVES_COUNT: case REG_IA_PRIMITIVES_COUNT + 4:
        pipeline_register_write64(&s->ia_primitives, REG_IA_PRIMITIVES_COUNT, offset, value);
        break;
    default:
        return false;
    }
    s->registers_written++;
    return true;
}

static enum ff_stage_work_result mmio_work(struct vf *s, struct msg *m)
{
    if (m->size < sizeof(struct cs_mmio)) {
        s->bad_messages++;
        return FF_STAGE_PASS;
    }
    struct cs_mmio *q = (struct cs_mmio *)m->payload;
    if (q->op == CS_MMIO_WRITE)
        return write_register(s, q->offset, q->value) ? FF_STAGE_DONE : FF_STAGE_PASS;
    if (q->op == CS_MMIO_SYNC) {
        /* the draws before it have left (ff_stage keeps order): our fields */
        s->syncs++;
        if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers)) {
            struct pipeline_registers r;
            memcpy(&r, q->data, sizeof r);
            r.value[PIPE_REG_IA_VERTICES] = s->ia_vertices;
            r.value[PIPE_REG_IA_PRIMITIVES] = s->ia_primitives;
            r.written |= (1ull << PIPE_REG_IA_VERTICES) | (1ull << PIPE_REG_IA_PRIMITIVES);
            memcpy(q->data, &r, sizeof r);
        } else {
            s->bad_messages++;
        }
    }
    return FF_STAGE_PASS;
}

static enum ff_stage_work_result work(void *context, struct msg *m)
{
    struct vf *s = context;
    if (m->kind == MSG_MMIO)
        return mmio_work(s, m);
    const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
    if (!s->draw.active && !vf_draw_start(s, p))
        return FF_STAGE_PASS;
    if (!vf_draw_step(s))
        return FF_STAGE_NOT_NOW;
    vf_observed_touch(s, s->draw.id);
    s->draw.active = false;
    return FF_STAGE_PASS;       /* the 3DPRIMITIVE follows its primitives down the pipe */
}

/* ---- the unit ---------------------------------------------------------------------- */

static int vf_realize(struct unit *u, struct gt_error *err)
{
    struct vf *s = unit_state(u);
    s->unit = u;
    s->cs = unit_port(u, "cs", 0);
    s->vs = unit_port(u, "vs", 0);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    s->urb_state = unit_port(u, "urb_state", 0);
    if (!port_is_bound(s->urb_state))
        s->urb_state = NULL;
    if (port_is_bound(s->urb) != port_is_bound(s->urb_reply))
        return gt_error_set(err, "%s: urb and urb_reply must be linked together", unit_name(u));
    if (port_is_bound(s->l3) != port_is_bound(s->l3_reply))
        return gt_error_set(err, "%s: l3 and l3_reply must be linked together", unit_name(u));
    static const struct ff_stage_id ids[] = {
        /* the vertex inputs end here: nothing past VF reads them */
        { SPEC_ID_3DSTATE_VERTEX_BUFFERS, FF_STAGE_CONSUME },
        { SPEC_ID_3DSTATE_VERTEX_ELEMENTS, FF_STAGE_CONSUME },
        { SPEC_ID_3DSTATE_INDEX_BUFFER, FF_STAGE_CONSUME },
        { SPEC_ID_3DSTATE_VF_INSTANCING, FF_STAGE_CONSUME },
        { SPEC_ID_3DSTATE_VF_SGVS, FF_STAGE_CONSUME },
        { SPEC_ID_3DSTATE_VF, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VF_TOPOLOGY, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VF_STATISTICS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_URB_VS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_URB_HS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_URB_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_URB_GS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_VS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_HS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_GS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PUSH_CONSTANT_ALLOC_PS, FF_STAGE_TAKE },
        /* Gen4 (vf_gen4.c): the VS_STATE's URB entries, the urb_fence unit's state */
        { SPEC_ID_STATE_BASE_ADDRESS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PIPELINED_POINTERS, FF_STAGE_TAKE },
        { SPEC_ID_URB_FENCE, FF_STAGE_TAKE },
        { SPEC_ID_CS_URB_STATE, FF_STAGE_TAKE },
        { SPEC_ID_CONSTANT_BUFFER, FF_STAGE_TAKE },
        { SPEC_ID_3DPRIMITIVE, FF_STAGE_WORK },
    };
    struct ff_stage_config c = {
        .in = s->cs, .out = s->vs, .ids = ids, .id_count = sizeof ids / sizeof ids[0],
        .work_kinds = MSG_BIT(MSG_MMIO), .per_cycle = 1,
        .take_state = take_state, .work = work, .context = s,
    };
    if (ff_stage_init(&s->ff, &c, err) < 0)
        return -1;
    /* a PATCHLIST_32 draw holds up to 2 x 32 vertices and queues objects of 32 */
    if (s->records_capacity < 3 * PRIM_MAX_VERTICES + s->cache_entries + 2)
        return gt_error_set(err, "%s: vertex_records %u is below 3 x 32 + cache_entries + 2",
                            unit_name(u), s->records_capacity);
    return vf_draw_init(s, err);
}

static void vf_reset(struct unit *u)
{
    struct vf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    vf_draw_reset(s);
}

static enum unit_activity vf_tick(struct unit *u)
{
    struct vf *s = unit_state(u);
    s->progress = false;
    vf_io_replies(s);
    vf_io_pump(s);
    enum ff_stage_status st = ff_stage_tick(&s->ff, u);
    vf_io_pump(s);
    if (s->draw.active && s->progress)
        unit_wake_at(u, unit_cycle(u) + 1);
    return ff_stage_activity(st);
}

uint32_t vf_observed_draws(struct unit *u, const struct vf_observed_draw **draws)
{
    const struct vf *s = unit_state(u);
    *draws = s->observed;
    return s->observed_count;
}

static void vf_destroy(struct unit *u)
{
    struct vf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    vf_draw_free(s);
}

const struct unit_ops vf_ops = {
    .kind = "vf",
    .help = "Vertex fetch (seed 003 L11845-12201): vertex and index buffers, elements and their "
            "formats, instancing, VertexID/InstanceID, topologies and cut, the vertex cache; VUEs "
            "written to the URB for the VS, primitives out in order",
    .state_size = sizeof(struct vf),
    .params = vf_params,
    .ports = vf_ports,
    .stats = vf_stats,
    .key_figures = vf_key_figures,
    .realize = vf_realize,
    .reset = vf_reset,
    .tick = vf_tick,
    .destroy = vf_destroy,
};
