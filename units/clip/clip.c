/* units/clip/clip.c - the CLIP unit: ports, state, registers and sync; see
 * clip.h. A primitive packet's work is in clip_object.c, the arithmetic in
 * clip_polygon.c. */
#include "units/clip/clip.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "units/clip/clip_internal.h"
#include "units/common/mmio.h"
#include "units/common/state_packet.h"

/* CL_INVOCATION_COUNT and CL_PRIMITIVES_COUNT (spec/data/gen8.xml registers,
 * from the reference genxml), two dwords each. */
#define CL_INVOCATION_COUNT 0x2338u
#define CL_PRIMITIVES_COUNT 0x2340u

static const struct param_desc clip_params[] = {
    PARAM_U32_FIELD("per_cycle", struct clip, per_cycle, 1, 1, 64,
                    "input messages (state, primitives, syncs) handled per cycle (the seed gives "
                    "no clipper rate, notes/003-skl-pipeline.md gaps)"),
    PARAM_BOOL_FIELD("count_cl_primitives", struct clip, count_cl_primitives, true,
                     "count CL_PRIMITIVES_COUNT here, on SF's behalf: the objects CLIP sends to SF "
                     "when 3DSTATE_SF Statistics Enable is set (seed 003 L11046, L15201-15205); "
                     "false when an SF unit counts them"),
    PARAM_U64_FIELD("thread_timeout", struct clip, thread_timeout, 50000, 0, INT64_MAX,
                    "Gen4: cycles from a CLIP thread's dispatch to its end before the watchdog "
                    "drops its object (0: no watchdog; the seed gives no figure: SF's choice, "
                    "below the simulator's 100000-cycle deadlock report)"),
    PARAM_END
};

static const struct port_desc clip_ports[] = {
    { .name = "sol", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "state, primitives and register traffic from SOL, in order" },
    { .name = "sf", .direction = PORT_OUT,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "state, primitives and register traffic to SF, in order" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB), .flags = PORT_OPTIONAL,
      .help = "VUE reads, allocations, writes and (de)references to the URB unit" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "the URB unit's replies" },
    { .name = "drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "the in-band sync back to the CS (CS_MMIO_SYNC_DONE) when CLIP ends the pipeline" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "Gen4: CLIP thread requests to the thread dispatchers (td.clip)" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL,
      .help = "Gen4: CLIP thread outputs and ends from the URB (urb.eot_clip)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct clip, f, m, h)
static const struct stat_desc clip_stats[] = {
    C("primitives_in", packets_in, "packets", "primitive packets received"),
    C("objects_in", objects_in, "objects", "complete objects received (points, lines, triangles)"),
    C("trivially_accepted", trivially_accepted, "objects", "objects ClipDetermination accepted"),
    C("trivially_rejected", trivially_rejected, "objects", "objects ClipDetermination rejected"),
    C("clipped", clipped, "objects", "objects sent to the clipper (SPAWN)"),
    C("culled_by_distance", culled_by_distance, "objects",
      "objects rejected by the user clip/cull distances alone"),
    C("bad_objects", bad_objects, "objects", "objects with a BAD (NaN) vertex"),
    C("discarded", discarded, "objects", "objects removed (DISCARD of any cause)"),
    C("vertices_made", vertices_made, "vertices", "new vertices clipping wrote to the URB"),
    C("objects_out", objects_out, "objects", "objects sent to SF (what CL_PRIMITIVES_COUNT counts)"),
    C("passed_whole", passed_whole, "packets", "packets passed on unchanged"),
    C("stall.urb_alloc", urb_alloc_wait_cycles, "cycles", "cycles waiting for URB entries"),
    C("stall.urb_read", urb_read_wait_cycles, "cycles", "cycles waiting for VUE reads and writes"),
    C("stall.urb_port", urb_port_stalls, "events", "times the URB channel refused a request"),
    C("partial_objects", partial_objects, "packets",
      "incomplete LINESTRIP/TRISTRIP (and other) objects removed (003 L14127-14131)"),
    C("adjacency_vertices", adjacency_vertices, "vertices", "adjacent-only vertices removed"),
    C("patches_rejected", patches_rejected, "packets", "PATCHLIST packets rejected (L13878)"),
    C("unsupported_topology", unsupported_topology, "packets",
      "topologies not allowed after GS (LINELOOP, QUADLIST, QUADSTRIP) or unknown: dropped"),
    C("clipped_away", clipped_away, "objects", "clipped objects with nothing (or a degenerate "
      "polygon) left"),
    C("clip_overflow", clip_overflow, "objects", "clipped polygons past the clipper's vertex limit"),
    C("clip_nonfinite", clip_nonfinite, "objects",
      "clipped objects with an infinite or NaN vertex (dropped)"),
    C("alloc_refused", alloc_refused, "objects", "clipped objects the URB could give no entries"),
    C("reserved_clip_mode", reserved_clip_mode, "objects",
      "objects under a Clip Mode seed 004 marks reserved (1, 2, 5-7)"),
    C("clip_without_divide", clip_without_divide, "objects",
      "must-clip objects with Perspective Divide Disable (not supported, 004 L1496): passed"),
    C("bad_viewport", bad_viewport, "objects",
      "objects whose viewport's guardband is NaN or empty (the viewport's [-1, 1] used)"),
    C("viewport_unreadable", viewport_unreadable, "objects",
      "objects testing a guardband never read (no pointer or unmapped memory)"),
    C("bad_messages", bad_messages, "messages", "malformed primitives or register messages"),
    C("bad_replies", bad_replies, "messages", "URB replies that match no request"),
    C("reserved_provoking", reserved_provoking, "objects", "provoking vertex select 3 (reserved)"),
    C("no_urb", no_urb, "packets", "packets passed untested for want of a URB port"),
    C("vue_size_unknown", vue_size_unknown, "objects",
      "clipped objects before any 3DSTATE_URB_* (2 rows written per new vertex)"),
    C("register_writes", register_writes, "messages", "CL_* register writes applied"),
    C("syncs", syncs, "messages", "in-band syncs answered or forwarded"),
    C("state.clip", state_clip, "packets", "3DSTATE_CLIP taken"),
    C("cl_invocation_count", cl_invocations, "objects", "CL_INVOCATION_COUNT"),
    C("cl_primitives_count", cl_primitives, "objects", "CL_PRIMITIVES_COUNT (counted here)"),
    C("gen4.state_reads", g4.state_reads, "packets", "Gen4 CLIP_STATEs read (CLIP enabled)"),
    C("gen4.state_faults", g4.state_faults, "packets",
      "Gen4 CLIP_STATE pointers outside memory (CLIP treated as disabled)"),
    C("gen4.viewport_faults", g4.viewport_faults, "packets",
      "Gen4 CLIP_VIEWPORTs outside memory (guardband = viewport)"),
    C("gen4.bad_viewport", g4.bad_viewport, "objects",
      "Gen4 objects tested against a guardband never read"),
    C("gen4.trivially_accepted", g4.trivially_accepted, "objects",
      "Gen4 objects ClipDetermination accepted"),
    C("gen4.trivially_rejected", g4.trivially_rejected, "objects",
      "Gen4 objects ClipDetermination rejected"),
    C("gen4.must_clip", g4.must_clip, "objects", "Gen4 objects neither accepted nor rejected"),
    C("gen4.bad_objects", g4.bad_objects, "objects", "Gen4 objects with a BAD (NaN RHW) vertex"),
    C("gen4.passed", g4.passed, "objects", "Gen4 objects passed on (PASSTHRU)"),
    C("gen4.passed_whole", g4.passed_whole, "packets",
      "Gen4 packets passed on unchanged (CLIP disabled, or every object PASSTHRU)"),
    C("gen4.discarded", g4.discarded, "objects", "Gen4 objects discarded (DISCARD)"),
    C("gen4.threads_spawned", g4.spawned, "threads", "Gen4 CLIP threads dispatched (SPAWN)"),
    C("gen4.threads_ended", g4.notices.threads_ended, "threads", "Gen4 CLIP threads that ended in time"),
    C("gen4.outputs", g4.notices.outputs, "vertices", "Gen4 VUEs CLIP threads completed (Complete, Used)"),
    C("gen4.primitives_out", g4.primitives_out, "packets", "Gen4 primitive packets sent to SF"),
    C("gen4.dangling_outputs", g4.dangling_outputs, "vertices",
      "Gen4 thread outputs outside a PrimStart..PrimEnd run (freed)"),
    C("gen4.output_overflow", g4.notices.output_overflow, "vertices",
      "Gen4 thread outputs past the model's limits (freed)"),
    C("gen4.late_notices", g4.notices.late_notices, "messages",
      "Gen4 outputs or ends of CLIP threads the watchdog had given up on"),
    C("gen4.watchdog_drops", g4.watchdog_drops, "objects",
      "Gen4 CLIP threads that did not end within thread_timeout: object dropped"),
    C("gen4.refused_entries", g4.refused_entries, "objects",
      "Gen4 objects dropped because the URB refused their CLIP entry"),
    C("gen4.entries", g4.entries, "entries", "Gen4 CLIP-region entries allocated for threads"),
    C("gen4.alloc_wait_cycles", g4.alloc_wait_cycles, "cycles",
      "Gen4 cycles CLIP threads waited for their CLIP-region entry (fence back-pressure)"),
    C("gen4.bad_grf_start", g4.bad_grf_start, "threads",
      "Gen4 Dispatch GRF Start Register For URB Data of 0 (moved past R0)"),
    C("gen4.payload_truncated", g4.payload_truncated, "threads",
      "Gen4 payloads past 128 registers (cut)"),
    C("gen4.curbe_faults", g4.curbe_faults, "packets", "Gen4 CONSTANT_BUFFERs CLIP could not read"),
    C("gen4.partial_objects", g4.partial_objects, "packets",
      "Gen4 partial LINESTRIP/TRISTRIP objects removed"),
    C("gen4.adjacency_removed", g4.adjacency_removed, "vertices", "Gen4 adjacent vertices removed"),
    C("gen4.unsupported_topology", g4.unsupported_topology, "packets",
      "Gen4 LINELOOP/QUADLIST/QUADSTRIP (not supported after GS) dropped"),
    C("gen4.reserved_mode", g4.reserved_mode, "packets", "Gen4 Clip Modes 5-7 (taken as NORMAL)"),
    C("gen4.no_threads", g4.no_threads, "objects",
      "Gen4 objects to clip with no td linked (passed on unclipped)"),
    C("gen4.configures", g4.configures, "messages", "Gen4 URB_OP_CONFIGURE of the CLIP region"),
    C("gen4.gs_primitives_count", g4.gs_primitives, "objects",
      "Gen4 GS_PRIMITIVES_COUNT (GS Output Object Statistics Enable)"),
    STAGE_THREADS_STATS("gen4.threads.", struct clip, g4.threads),
    FF_STAGE_STATS("ff.", struct clip, stage),
    STAT_END
};
#undef C

void clip_warn_once(struct clip *s, struct unit *u, unsigned bit, const char *fmt, ...)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_NOTE, "%s", text);
}

/* ---- state ------------------------------------------------------------------------------ */

/* The SF_CLIP_VIEWPORT array (16 DW each, 64 B aligned, 003 L15104) from
 * dynamic state: the pointer is relative to STATE_BASE_ADDRESS's Dynamic
 * State Base, read through the packet's address space. */
static void read_viewports(struct clip *s, const struct cs_state_packet *p, uint64_t pointer)
{
    const struct spec_element *e = spec_element_by_id((int)p->gen, SPEC_ID_SF_CLIP_VIEWPORT);
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->self)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    s->st.viewports_set = true;
    for (uint32_t i = 0; i < CLIP_VIEWPORTS; i++) {
        struct clip_viewport *vp = &s->st.viewport[i];
        uint32_t dw[CLIP_VIEWPORT_BYTES / 4];
        struct gt_error err;
        memset(vp, 0, sizeof *vp);
        if (!e || !sim_memory(unit_sim(s->self)) ||
            gpu_address_space_read(&as, s->st.dynamic_state_base + pointer + i * CLIP_VIEWPORT_BYTES,
                                   dw, sizeof dw, &err) != 0)
            continue;
        struct spec_SF_CLIP_VIEWPORT v;
        e->unpack_common(dw, &v);
        vp->valid = true;
        vp->gb_xmin = v.XMinClipGuardband;
        vp->gb_xmax = v.XMaxClipGuardband;
        vp->gb_ymin = v.YMinClipGuardband;
        vp->gb_ymax = v.YMaxClipGuardband;
    }
}

static void clip_take_state(void *context, const struct cs_state_packet *p)
{
    struct clip *s = context;
    struct clip_state *st = &s->st;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_3DSTATE_CLIP: {
        const struct spec_3DSTATE_CLIP *v = cs_state_common(p);
        s->state_clip++;
        st->enable = v->ClipEnable;
        st->statistics = v->StatisticsEnable;
        st->force_clip_mask = v->ForceUserClipDistanceClipTestEnableBitmask;
        st->force_cull_mask = v->ForceUserClipDistanceCullTestEnableBitmask;
        st->clip_clip_mask = (uint8_t)v->UserClipDistanceClipTestEnableBitmask;
        st->clip_cull_mask = (uint8_t)v->UserClipDistanceCullTestEnableBitmask;
        st->perspective_divide_disable = v->PerspectiveDivideDisable;
        st->non_perspective_barycentric = v->NonPerspectiveBarycentricEnable;
        st->viewport_xy = v->ViewportXYClipTestEnable;
        st->guardband = v->GuardbandClipTestEnable;
        st->force_zero_rta = v->ForceZeroRTAIndexEnable;
        st->mode = v->ClipMode;
        st->api_mode = v->APIMode;
        st->max_vp_index = v->MaximumVPIndex;
        st->tri_provoking = v->TriangleStripListProvokingVertexSelect;
        st->line_provoking = v->LineStripListProvokingVertexSelect;
        st->fan_provoking = v->TriangleFanProvokingVertexSelect;
        break;
    }
    case SPEC_ID_3DSTATE_RASTER: {
        /* CLIP_INT::Viewport Z ClipTest Enable = 3DSTATE_RASTER's (003 L13884); Gen8
         * has one enable, Gen9 separate near and far (L14016; the other reads 0) */
        const struct spec_3DSTATE_RASTER *v = cs_state_common(p);
        st->z_near = v->ViewportZClipTestEnable || v->ViewportZNearClipTestEnable;
        st->z_far = v->ViewportZClipTestEnable || v->ViewportZFarClipTestEnable;
        break;
    }
    case SPEC_ID_3DSTATE_VS: {
        const struct spec_3DSTATE_VS *v = cs_state_common(p);
        st->stage_enable[0] = v->Enable;
        st->stage_clip_mask[0] = (uint8_t)v->UserClipDistanceClipTestEnableBitmask;
        st->stage_cull_mask[0] = (uint8_t)v->UserClipDistanceCullTestEnableBitmask;
        break;
    }
    case SPEC_ID_3DSTATE_DS: {
        const struct spec_3DSTATE_DS *v = cs_state_common(p);
        st->stage_enable[1] = v->Enable;
        st->stage_clip_mask[1] = (uint8_t)v->UserClipDistanceClipTestEnableBitmask;
        st->stage_cull_mask[1] = (uint8_t)v->UserClipDistanceCullTestEnableBitmask;
        break;
    }
    case SPEC_ID_3DSTATE_GS: {
        const struct spec_3DSTATE_GS *v = cs_state_common(p);
        st->stage_enable[2] = v->Enable;
        st->stage_clip_mask[2] = (uint8_t)v->UserClipDistanceClipTestEnableBitmask;
        st->stage_cull_mask[2] = (uint8_t)v->UserClipDistanceCullTestEnableBitmask;
        st->gs_vertex_size = v->OutputVertexSize;
        break;
    }
    case SPEC_ID_3DSTATE_URB_VS: {
        const struct spec_3DSTATE_URB_VS *v = cs_state_common(p);
        st->entry_size[0] = v->VSURBEntryAllocationSize;
        st->entry_known[0] = true;
        break;
    }
    case SPEC_ID_3DSTATE_URB_DS: {
        const struct spec_3DSTATE_URB_DS *v = cs_state_common(p);
        st->entry_size[1] = v->DSURBEntryAllocationSize;
        st->entry_known[1] = true;
        break;
    }
    case SPEC_ID_3DSTATE_URB_GS: {
        const struct spec_3DSTATE_URB_GS *v = cs_state_common(p);
        st->entry_size[2] = v->GSURBEntryAllocationSize;
        st->entry_known[2] = true;
        break;
    }
    case SPEC_ID_3DSTATE_SF: {
        const struct spec_3DSTATE_SF *v = cs_state_common(p);
        st->sf_statistics = v->StatisticsEnable;
        break;
    }
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (v->DynamicStateBaseAddressModifyEnable)
            st->dynamic_state_base = v->DynamicStateBaseAddress;
        clip_gen4_take_state(s, p);
        break;
    }
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP: {
        const struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP *v = cs_state_common(p);
        read_viewports(s, p, v->SFClipViewportPointer);
        break;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
    case SPEC_ID_CONSTANT_BUFFER:
    case SPEC_ID_URB_FENCE:
        clip_gen4_take_state(s, p);
        break;
    default:
        break;
    }
}

/* ---- registers and the in-band sync (units/common/mmio.h) -------------------------------- */

static int work_mmio(struct clip *s, struct unit *u, struct msg *m)
{
    bool end = s->drained && port_is_bound(s->drained);
    if (m->size < sizeof(struct cs_mmio)) {
        s->bad_messages++;
        return end ? FF_STAGE_DONE : FF_STAGE_PASS;
    }
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    if (c->op == CS_MMIO_WRITE) {
        if (pipeline_register_write64(&s->cl_invocations, CL_INVOCATION_COUNT, c->offset,
                                      c->value) ||
            (s->count_cl_primitives &&
             pipeline_register_write64(&s->cl_primitives, CL_PRIMITIVES_COUNT, c->offset,
                                       c->value)))
            s->register_writes++;
        return end ? FF_STAGE_DONE : FF_STAGE_PASS;
    }
    if (c->op != CS_MMIO_SYNC)
        return end ? FF_STAGE_DONE : FF_STAGE_PASS;
    /* everything before it has left: the skeleton looks at the head only when its
     * output is empty, and a primitive's work ends after its last URB request */
    if (end && !port_can_send(s->drained))
        return FF_STAGE_NOT_NOW;        /* the fabric wakes the unit when it frees */
    if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers)) {
        struct pipeline_registers *r = (struct pipeline_registers *)c->data;
        r->value[PIPE_REG_CL_INVOCATIONS] = s->cl_invocations;
        r->written |= 1ull << PIPE_REG_CL_INVOCATIONS;
        if (s->count_cl_primitives) {
            r->value[PIPE_REG_CL_PRIMITIVES] = s->cl_primitives;
            r->written |= 1ull << PIPE_REG_CL_PRIMITIVES;
        }
    } else {
        s->bad_messages++;
    }
    s->syncs++;
    if (!end)
        return FF_STAGE_PASS;
    struct msg *d = msg_alloc(unit_sim(u), MSG_MMIO, m->size);
    memcpy(d->payload, m->payload, m->size);
    d->tag = m->tag;
    ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC_DONE;
    port_try_send(s->drained, d);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result clip_work(void *context, struct msg *m)
{
    struct clip *s = context;
    if (m->kind == MSG_MMIO)
        return (enum ff_stage_work_result)work_mmio(s, s->self, m);
    if (s->g4.active)
        return (enum ff_stage_work_result)clip_gen4_work_primitive(s, s->self, m);
    return (enum ff_stage_work_result)clip_work_primitive(s, s->self, m);
}

/* ---- the unit ---------------------------------------------------------------------------- */

static const struct ff_stage_id clip_ids[] = {
    { SPEC_ID_3DSTATE_CLIP, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_RASTER, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_VS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_DS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_GS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_URB_VS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_URB_DS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_URB_GS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_SF, FF_STAGE_TAKE },
    { SPEC_ID_STATE_BASE_ADDRESS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_PIPELINED_POINTERS, FF_STAGE_TAKE },
    { SPEC_ID_CONSTANT_BUFFER, FF_STAGE_TAKE },
    { SPEC_ID_URB_FENCE, FF_STAGE_TAKE },
};

static int clip_realize(struct unit *u, struct gt_error *err)
{
    struct clip *s = unit_state(u);
    s->self = u;
    s->in = unit_port(u, "sol", 0);
    s->out = unit_port(u, "sf", 0);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    s->drained = unit_port(u, "drained", 0);
    if (s->urb && port_is_bound(s->urb) != (s->urb_reply && port_is_bound(s->urb_reply)))
        return gt_error_set(err, "%s: \"urb\" and \"urb_reply\" go together (link both or neither)",
                            unit_name(u));
    /* Gen4 CLIP threads (clip_gen4.h): on when a "td" is linked */
    uint32_t tds = 0;
    struct port **td = unit_port_array(u, "td", &tds);
    bool any_td = false;
    for (uint32_t i = 0; i < tds; i++)
        any_td = any_td || port_is_bound(td[i]);
    s->g4.threads_on = any_td;
    if (any_td && stage_threads_init(&s->g4.threads, u, FFID_CLIP, err) != 0)
        return -1;
    return ff_stage_init(&s->stage, &(struct ff_stage_config){
        .in = s->in, .out = s->out, .ids = clip_ids,
        .id_count = (uint32_t)(sizeof clip_ids / sizeof clip_ids[0]),
        .work_kinds = MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO), .per_cycle = s->per_cycle,
        .take_state = clip_take_state, .work = clip_work, .context = s }, err);
}

static void clip_reset(struct unit *u)
{
    struct clip *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    memset(&s->st, 0, sizeof s->st);
    memset(&s->job, 0, sizeof s->job);
    clip_gen4_clear(s, u);
    s->cl_invocations = s->cl_primitives = 0;
    s->warned = 0;
}

static enum unit_activity clip_tick(struct unit *u)
{
    struct clip *s = unit_state(u);
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        if (s->g4.active)
            clip_gen4_take_urb_reply(s, u, m);
        else
            clip_take_urb_reply(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    clip_gen4_take_notices(s, u);      /* late ones too, with no packet at the head */
    enum ff_stage_status st = ff_stage_tick(&s->stage, u);
    /* the watchdog looks every cycle while a CLIP thread runs (as SF's) */
    if (st == FF_STAGE_WAITING && s->g4.watching)
        return UNIT_BUSY;
    return ff_stage_activity(st);
}

static void clip_destroy(struct unit *u)
{
    struct clip *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    if (s->g4.threads_on)
        stage_threads_release(&s->g4.threads);
}

const struct unit_ops clip_ops = {
    .kind = "clip",
    .help = "CLIP (Gen8/Gen9): VertexClipTest, ClipDetermination and the Clip Modes, user clip "
            "and cull distances, the fixed-function clipper making new URB vertices, pass-through "
            "topologies, CL_INVOCATION_COUNT/CL_PRIMITIVES_COUNT (seed 003 L13826-14360).",
    .state_size = sizeof(struct clip),
    .params = clip_params,
    .ports = clip_ports,
    .stats = clip_stats,
    .realize = clip_realize,
    .reset = clip_reset,
    .tick = clip_tick,
    .destroy = clip_destroy,
};
