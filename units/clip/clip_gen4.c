/* units/clip/clip_gen4.c - the Gen4 CLIP: CLIP_STATE, the clip tests and the
 * CLIP threads; see clip_gen4.h. */
#include "units/clip/clip_gen4.h"

#include <math.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_gen4_pack.h"
#include "units/clip/clip_internal.h"
#include "units/common/gen4_state.h"
#include "units/common/gen4_thread_output.h"
#include "units/common/thread_payload.h"

/* ---- state ------------------------------------------------------------------------ */

int clip_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                         uint64_t general_state_base, uint64_t offset, struct clip_gen4_state *st)
{
    memset(st, 0, sizeof *st);
    uint32_t dw[GEN4_CLIP_STATE_length];
    if (!gen4_state_read(sim, p, general_state_base, offset, dw, GEN4_CLIP_STATE_length))
        return 1;
    struct GEN4_CLIP_STATE g;
    GEN4_CLIP_STATE_unpack(dw, &g);
    st->kernel_start = g.KernelStartPointer;
    st->grf_blocks = g.GRFRegisterCount + 1;
    st->binding_table_entries = g.BindingTableEntryCount;
    st->single_program_flow = g.SingleProgramFlow;
    st->alternate_fp = g.FloatingPointMode == 1;
    st->illegal_opcode_exception = g.IllegalOpcodeExceptionEnable;
    st->software_exception = g.SoftwareExceptionEnable;
    st->per_thread_scratch = g.PerThreadScratchSpace;
    st->scratch_base = g.ScratchSpaceBasePointer;
    st->dispatch_grf_start = g.DispatchGRFStartRegisterForURBData;
    st->vertex_read_offset = g.VertexURBEntryReadOffset;
    st->vertex_read_length = g.VertexURBEntryReadLength;
    st->constant_read_offset = g.ConstantURBEntryReadOffset;
    st->constant_read_length = g.ConstantURBEntryReadLength;
    st->maximum_threads = g.MaximumNumberOfThreads + 1;     /* Pre-ILK [0,1] = 1..2 */
    st->urb_entries = g.NumberOfURBEntries;
    st->urb_entry_units = g.URBEntryAllocationSize + 1;
    st->statistics = (dw[4] >> 10) & 1u;                    /* L9588 */
    st->gs_output_statistics = (dw[4] >> 9) & 1u;           /* notes §4.6: DW4 bit 9 [Pre-ILK] */
    st->mode = g.ClipMode;
    st->api_d3d = g.APIMode == 1;
    st->screen_space = g.VertexPositionSpace == 1;
    st->viewport_xy = g.ViewportXYClipTestEnable;
    st->viewport_z = g.ViewportZClipTestEnable;
    st->guardband = g.GuardbandClipTestEnable;
    st->ucf_must_clip = g.UserClipFlagsMustClipEnable;
    st->ucf_mask = (uint8_t)g.UserClipDistanceClipTestEnableBitmask;
    st->vp_xmin = g.ScreenSpaceViewportXMin;
    st->vp_xmax = g.ScreenSpaceViewportXMax;
    st->vp_ymin = g.ScreenSpaceViewportYMin;
    st->vp_ymax = g.ScreenSpaceViewportYMax;
    int status = 0;
    for (uint32_t i = 0; i < CLIP_GEN4_VIEWPORTS; i++) {
        uint32_t vp[GEN4_CLIP_VIEWPORT_length];
        if (!gen4_state_read(sim, p, general_state_base,
                             g.ClipperViewportStatePointer + i * GEN4_CLIP_VIEWPORT_length * 4u, vp,
                             GEN4_CLIP_VIEWPORT_length)) {
            if (i == 0)
                status = 2;
            continue;
        }
        struct GEN4_CLIP_VIEWPORT v;
        GEN4_CLIP_VIEWPORT_unpack(vp, &v);
        st->gb_valid[i] = true;
        st->gb_xmin[i] = v.XMinClipGuardband;
        st->gb_xmax[i] = v.XMaxClipGuardband;
        st->gb_ymin[i] = v.YMinClipGuardband;
        st->gb_ymax[i] = v.YMaxClipGuardband;
    }
    return status;
}

/* ---- VertexClipTest, ClipDetermination, ClipMode ------------------------------------ */

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

uint32_t clip_gen4_vertex_test(const struct clip_gen4_state *st, const uint32_t header[8],
                               bool *bad_viewport)
{
    float x = as_float(header[4]), y = as_float(header[5]), z = as_float(header[6]);
    float rhw = as_float(header[7]);
    uint32_t ucf = header[3] & 0xffu, vp_index = header[2] & 0xfu;    /* L1520: low 4 bits */
    uint32_t oc = 0;
    if (isnan(rhw))
        oc |= CLIP_GEN4_OC_BAD;                 /* L10075-10077 */
    if (signbit(rhw) && !isnan(rhw)) {
        /* Pre-DevBW-E0: every VP and GB outcode, then the UserClipFlags
         * (L10113-10130, "goto UserClipFlags") */
        oc |= CLIP_GEN4_OC_VP_XY | CLIP_GEN4_OC_VP_Z | CLIP_GEN4_OC_GB;
    } else {
        float vx0 = -1.0f, vx1 = 1.0f, vy0 = -1.0f, vy1 = 1.0f;
        if (st->screen_space) {
            vx0 = st->vp_xmin, vx1 = st->vp_xmax, vy0 = st->vp_ymin, vy1 = st->vp_ymax;
        }
        if (st->viewport_xy) {
            oc |= (x < vx0 ? CLIP_GEN4_OC_VP_XMIN : 0u) | (x > vx1 ? CLIP_GEN4_OC_VP_XMAX : 0u) |
                  (y < vy0 ? CLIP_GEN4_OC_VP_YMIN : 0u) | (y > vy1 ? CLIP_GEN4_OC_VP_YMAX : 0u);
        }
        if (st->viewport_z) {
            float z0 = st->api_d3d ? 0.0f : -1.0f;
            oc |= (z < z0 ? CLIP_GEN4_OC_VP_ZMIN : 0u) | (z > 1.0f ? CLIP_GEN4_OC_VP_ZMAX : 0u);
        }
        if (st->guardband) {
            float gx0 = -1.0f, gx1 = 1.0f, gy0 = -1.0f, gy1 = 1.0f;
            if (st->gb_valid[vp_index]) {
                gx0 = st->gb_xmin[vp_index], gx1 = st->gb_xmax[vp_index];
                gy0 = st->gb_ymin[vp_index], gy1 = st->gb_ymax[vp_index];
            } else if (bad_viewport) {
                *bad_viewport = true;
            }
            oc |= (x < gx0 ? CLIP_GEN4_OC_GB_XMIN : 0u) | (x > gx1 ? CLIP_GEN4_OC_GB_XMAX : 0u) |
                  (y < gy0 ? CLIP_GEN4_OC_GB_YMIN : 0u) | (y > gy1 ? CLIP_GEN4_OC_GB_YMAX : 0u);
        }
        /* one set disabled: it takes the enabled set's outcodes (L10230-10246);
         * VP bits 31:28 and GB bits 25:22 are in the same order */
        if (st->viewport_xy && !st->guardband)
            oc = (oc & ~CLIP_GEN4_OC_GB) | ((oc & CLIP_GEN4_OC_VP_XY) >> 6);
        else if (!st->viewport_xy && st->guardband)
            oc = (oc & ~CLIP_GEN4_OC_VP_XY) | ((oc & CLIP_GEN4_OC_GB) << 6);
        bool xy = st->viewport_xy || st->guardband;
        if (isnan(x))
            oc = xy ? oc | CLIP_GEN4_OC_VP_XMIN | CLIP_GEN4_OC_VP_XMAX | CLIP_GEN4_OC_GB_XMIN |
                          CLIP_GEN4_OC_GB_XMAX
                    : oc & ~(uint32_t)(CLIP_GEN4_OC_VP_XMIN | CLIP_GEN4_OC_VP_XMAX |
                                       CLIP_GEN4_OC_GB_XMIN | CLIP_GEN4_OC_GB_XMAX);
        if (isnan(y))
            oc = xy ? oc | CLIP_GEN4_OC_VP_YMIN | CLIP_GEN4_OC_VP_YMAX | CLIP_GEN4_OC_GB_YMIN |
                          CLIP_GEN4_OC_GB_YMAX
                    : oc & ~(uint32_t)(CLIP_GEN4_OC_VP_YMIN | CLIP_GEN4_OC_VP_YMAX |
                                       CLIP_GEN4_OC_GB_YMIN | CLIP_GEN4_OC_GB_YMAX);
        if (isnan(z))
            oc = st->viewport_z ? oc | CLIP_GEN4_OC_VP_Z : oc & ~CLIP_GEN4_OC_VP_Z;
    }
    /* the UserClipFlags, masked (L10262-10272) */
    oc |= (uint32_t)(ucf & st->ucf_mask) << 14;
    return oc;
}

struct clip_gen4_determination clip_gen4_determine(const uint32_t *outcodes, uint32_t n,
                                                   bool ucf_must_clip)
{
    uint32_t and_code = ~0u, or_code = 0;
    for (uint32_t k = 0; k < n; k++) {
        and_code &= outcodes[k];
        or_code |= outcodes[k];
    }
    struct clip_gen4_determination d = { 0 };
    bool tr_vpxy = (and_code & CLIP_GEN4_OC_VP_XY) != 0;
    bool tr_gb = (and_code & CLIP_GEN4_OC_GB) != 0;
    bool ta_gb = !(or_code & CLIP_GEN4_OC_GB);
    bool ta_vpz = !(or_code & CLIP_GEN4_OC_VP_Z);
    bool tr_vpz = (and_code & CLIP_GEN4_OC_VP_Z) != 0;
    bool ta_uc = !(or_code & CLIP_GEN4_OC_UC);
    bool tr_uc = (and_code & CLIP_GEN4_OC_UC) != 0;
    d.bad = (or_code & CLIP_GEN4_OC_BAD) != 0;
    d.trivial_reject = tr_gb || tr_vpxy || tr_vpz || tr_uc;
    bool ta = !d.trivial_reject && ta_gb && ta_vpz;
    d.trivial_accept = ta && ((ucf_must_clip && ta_uc) || (!ucf_must_clip && !tr_uc));
    d.must_clip = !(d.trivial_accept || d.trivial_reject);
    return d;
}

enum clip_gen4_action clip_gen4_mode_action(uint32_t mode, struct clip_gen4_determination d)
{
    switch (mode) {
    case CLIP_GEN4_ALL:
        return CLIP_GEN4_SPAWN;
    case CLIP_GEN4_CLIP_NON_REJECTED:
        return d.trivial_reject || d.bad ? CLIP_GEN4_DISCARD : CLIP_GEN4_SPAWN;
    case CLIP_GEN4_REJECT_ALL:
        return CLIP_GEN4_DISCARD;
    case CLIP_GEN4_ACCEPT_ALL:
        return d.bad ? CLIP_GEN4_DISCARD : CLIP_GEN4_PASSTHRU;
    default:        /* NORMAL (and reserved modes, counted by the caller) */
        if (d.trivial_reject || d.bad)
            return CLIP_GEN4_DISCARD;
        return d.trivial_accept ? CLIP_GEN4_PASSTHRU : CLIP_GEN4_SPAWN;
    }
}

/* ---- the unit's side ------------------------------------------------------------------ */

enum clip_gen4_phase {
    G4_NONE = 0,
    G4_READ,                /* the vertices' headers and payload rows */
    G4_OBJECTS,             /* objects in order: pass, discard, threads */
    G4_FINISH,              /* the input's references dropped */
};

enum clip_gen4_job_phase {
    JOB_IDLE = 0,           /* not a thread's object */
    JOB_ALLOC,
    JOB_ALLOC_WAIT,
    JOB_DISPATCH,
    JOB_RUNNING,
    JOB_ENDED,
    JOB_DROPPED,
    JOB_DONE,               /* its primitives left */
};

#define G4_TAG_READ 0x100u
#define G4_TAG_ALLOC 0x200u

static struct msg *urb_msg_new(struct unit *u, uint32_t op, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_CLIP;
    q->tag = tag;
    m->tag = tag;
    return m;
}

static bool urb_ready(struct clip *s)
{
    if (s->urb && port_can_send(s->urb))
        return true;
    s->urb_port_stalls++;
    return false;
}

/* Best effort (a full channel leaves the references held, counted). */
static void urb_handles(struct clip *s, struct unit *u, uint32_t op, const uint32_t *handles,
                        uint32_t count)
{
    while (count) {
        if (!urb_ready(s))
            return;
        uint32_t n = count < URB_MAX_HANDLES_PER_MSG ? count : URB_MAX_HANDLES_PER_MSG;
        struct msg *m = urb_msg_new(u, op, 0);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        q->count = n;
        memcpy(q->handles, handles, n * sizeof *handles);
        port_try_send(s->urb, m);
        handles += n;
        count -= n;
    }
}

static bool configure(struct clip *s, struct unit *u);

void clip_gen4_take_state(struct clip *s, const struct cs_state_packet *p)
{
    struct clip_gen4 *g = &s->g4;
    g->space = stage_space_of(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        stage_bases_take(&g->bases, v);
        if (p->gen == 4) {
            g->bases.instruction = g->bases.general;    /* seed 001 L2225 */
            if (v->GeneralStateBaseAddressModifyEnable)
                g->general_base = v->GeneralStateBaseAddress;
        }
        return;
    }
    case SPEC_ID_URB_FENCE:
        if (p->gen == 4) {
            g->fence_markers++;     /* now, or before the next allocation (configure()) */
            configure(s, s->self);
        }
        return;
    case SPEC_ID_CONSTANT_BUFFER: {
        const struct spec_CONSTANT_BUFFER *v = cs_state_common(p);
        g->curbe_valid = v->Valid;
        g->curbe_address = v->BufferStartingAddress;
        break;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS: {
        if (p->gen != 4)
            return;
        const struct spec_3DSTATE_PIPELINED_POINTERS *pp = cs_state_common(p);
        g->active = true;
        g->enable = pp->ClipEnable;
        if (!g->enable)
            return;
        g->state_reads++;
        int r = clip_gen4_read_state(unit_sim(s->self), p, g->general_base,
                                     pp->PointerToCLIPState, &g->st);
        if (r == 1) {
            g->state_faults++;
            g->enable = false;      /* issue 14 bad input: treated as disabled */
            clip_warn_once(s, s->self, 8, "CLIP_STATE at general state offset 0x%llx lies "
                           "outside memory: CLIP passes objects on",
                           (unsigned long long)pp->PointerToCLIPState);
            return;
        }
        if (r == 2)
            g->viewport_faults++;
        if (g->threads_on)
            g->configure_pending = true;
        break;
    }
    default:
        return;
    }
    /* the constants the clip threads get (Constant URB Entry Read Offset /
     * Length of the CONSTANT_BUFFER, seed 001 L2502-2588), read as SF does */
    uint32_t rows = g->st.constant_read_length;
    if (rows > CLIP_GEN4_CURBE_REGS)
        rows = CLIP_GEN4_CURBE_REGS;
    g->curbe_regs = g->curbe_valid && g->enable ? rows : 0;
    memset(g->curbe, 0, sizeof g->curbe);
    if (!g->curbe_regs)
        return;
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->self)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    struct gt_error err;
    if (gpu_address_space_read(&as, g->curbe_address + (uint64_t)g->st.constant_read_offset * 32u,
                               g->curbe, (size_t)g->curbe_regs * 32u, &err) != 0) {
        memset(g->curbe, 0, sizeof g->curbe);
        g->curbe_faults++;
    }
}

/* ---- object staging (L10342-10363, L10652-10838) --------------------------------------- */

static void add_object(struct clip_gen4 *g, uint32_t n, uint32_t a, uint32_t b, uint32_t c,
                       uint32_t topology, uint32_t pass_topology, uint32_t flags)
{
    struct clip_gen4_object *o = &g->objects[g->object_count++];
    memset(o, 0, offsetof(struct clip_gen4_object, outputs));
    o->outputs.count = 0;
    o->n = (uint8_t)n;
    o->v[0] = (uint8_t)a, o->v[1] = (uint8_t)b, o->v[2] = (uint8_t)c;
    o->topology = topology;
    o->pass_topology = pass_topology;
    o->flags = flags;
}

/* False when the topology cannot reach CLIP (dropped, counted when `count`). */
static bool stage_objects(struct clip *s, bool count)
{
    struct clip_gen4 *g = &s->g4;
    uint32_t n = g->prim.vertex_count, t = g->prim.topology;
    bool partial = false;
    switch (t) {
    case PRIM_POINTLIST:
    case PRIM_POINTLIST_BF:
        for (uint32_t i = 0; i < n; i++)
            add_object(g, 1, i, 0, 0, t, t, 0);
        break;
    case PRIM_LINELIST:
        for (uint32_t i = 0; i + 1 < n; i += 2)
            add_object(g, 2, i, i + 1, 0, t, t, 0);
        break;
    case PRIM_LINELIST_ADJ:
        for (uint32_t i = 0; i + 3 < n; i += 4)
            add_object(g, 2, i + 1, i + 2, 0, PRIM_LINELIST, PRIM_LINELIST, 0);
        if (count)
            g->adjacency_removed += n - 2 * g->object_count;
        break;
    case PRIM_LINESTRIP:
    case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF:
        for (uint32_t i = 0; i + 1 < n; i++)
            add_object(g, 2, i, i + 1, 0, t, t, 0);
        partial = n < 2;
        break;
    case PRIM_LINESTRIP_ADJ:
        for (uint32_t i = 0; i + 3 < n; i++)
            add_object(g, 2, i + 1, i + 2, 0, PRIM_LINESTRIP, PRIM_LINESTRIP, 0);
        break;
    case PRIM_TRILIST:
    case PRIM_RECTLIST:
        for (uint32_t i = 0; i + 2 < n; i += 3)
            add_object(g, 3, i, i + 1, i + 2, t, t, 0);
        break;
    case PRIM_TRILIST_ADJ:
        for (uint32_t i = 0; i + 5 < n; i += 6)
            add_object(g, 3, i, i + 2, i + 4, PRIM_TRILIST, PRIM_TRILIST, 0);
        break;
    case PRIM_TRISTRIP:
    case PRIM_TRISTRIP_REVERSE: {
        /* (k, k+1, k+2), typed TRISTRIP / TRISTRIP_REVERSE alternately; a lone
         * strip triangle from VF carries its parity in PRIM_STRIP_ODD */
        bool odd0 = (t == PRIM_TRISTRIP_REVERSE) != ((g->prim.flags & PRIM_STRIP_ODD) != 0);
        for (uint32_t k = 0; k + 2 < n; k++) {
            bool odd = odd0 != (k % 2 == 1);
            add_object(g, 3, k, k + 1, k + 2, odd ? PRIM_TRISTRIP_REVERSE : PRIM_TRISTRIP,
                       PRIM_TRISTRIP, odd ? PRIM_STRIP_ODD : 0u);
        }
        partial = n < 3;
        break;
    }
    case PRIM_TRISTRIP_ADJ:
        for (uint32_t k = 0; 2 * k + 4 < n; k++)
            add_object(g, 3, 2 * k, 2 * k + 2, 2 * k + 4,
                       k % 2 ? PRIM_TRISTRIP_REVERSE : PRIM_TRISTRIP, PRIM_TRISTRIP,
                       k % 2 ? PRIM_STRIP_ODD : 0u);
        break;
    case PRIM_TRIFAN:
    case PRIM_TRIFAN_NOSTIPPLE:
    case PRIM_POLYGON:
        for (uint32_t k = 0; k + 2 < n; k++) {
            add_object(g, 3, 0, k + 1, k + 2, t, t, 0);
            if (t == PRIM_POLYGON)  /* Edge Indicators (Table 6-1 R0.2 9:8) */
                g->objects[g->object_count - 1].edges =
                    (k == 0 ? 1u << 8 : 0u) | (k + 3 == n ? 1u << 9 : 0u);
        }
        break;
    default:                /* LINELOOP, QUADLIST, QUADSTRIP: "not supported after GS" */
        if (!count)
            return false;
        g->unsupported_topology++;
        clip_warn_once(s, s->self, 9, "Gen4 topology %u reached CLIP (not supported after GS): "
                       "dropped", t);
        return false;
    }
    if (partial && count)
        g->partial_objects++;
    return true;
}

/* ---- the head packet ----------------------------------------------------------------- */

static struct msg *new_packet(struct clip *s, struct unit *u, uint32_t topology, uint32_t count)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = count;
    p->instance = s->g4.prim.instance;
    p->primitive_id = s->g4.prim.primitive_id;
    p->draw = s->g4.prim.draw;
    p->owner_handle = URB_HANDLE_NONE;
    return m;
}

static void classify(struct clip *s, struct unit *u)
{
    struct clip_gen4 *g = &s->g4;
    const struct clip_gen4_state *st = &g->st;
    if (st->mode > CLIP_GEN4_ACCEPT_ALL)
        g->reserved_mode++;
    for (uint32_t i = 0; i < g->object_count; i++) {
        struct clip_gen4_object *o = &g->objects[i];
        uint32_t oc[3] = { 0 };
        bool bad_vp = false;
        for (uint32_t k = 0; k < o->n; k++) {
            oc[k] = clip_gen4_vertex_test(st, g->header[o->v[k]], &bad_vp);
            o->outcodes |= oc[k];
        }
        if (bad_vp)
            g->bad_viewport++;
        struct clip_gen4_determination d = clip_gen4_determine(oc, o->n, st->ucf_must_clip);
        enum clip_gen4_action a = clip_gen4_mode_action(st->mode, d);
        if (d.bad)
            g->bad_objects++;
        else if (d.trivial_reject)
            g->trivially_rejected++;
        else if (d.trivial_accept)
            g->trivially_accepted++;
        else
            g->must_clip++;
        if (a == CLIP_GEN4_SPAWN && !g->threads_on) {
            g->no_threads++;        /* no TD linked: nothing can clip it */
            clip_warn_once(s, u, 10, "a Gen4 object must be clipped but CLIP has no \"td\" "
                           "linked: passed on unclipped");
            a = d.bad ? CLIP_GEN4_DISCARD : CLIP_GEN4_PASSTHRU;
        }
        o->action = (uint8_t)a;
        o->phase = a == CLIP_GEN4_SPAWN ? JOB_ALLOC : JOB_IDLE;
    }
    if (st->gs_output_statistics)
        g->gs_primitives += g->object_count;
}

static int start(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_gen4 *g = &s->g4;
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    s->packets_in++;
    if (m->size < sizeof *p || p->vertex_count > PRIM_MAX_VERTICES) {
        s->bad_messages++;
        return FF_STAGE_DONE;
    }
    if (!g->enable) {
        g->passed_whole++;
        g->prim = *p;
        g->object_count = 0;
        stage_objects(s, false);
        s->objects_out += g->object_count;
        return FF_STAGE_PASS;       /* CLIP disabled: pass-through (L1222-1226) */
    }
    if (!s->urb || !port_is_bound(s->urb)) {
        s->no_urb++;
        return FF_STAGE_PASS;
    }
    g->msg = m;
    g->prim = *p;
    g->object_count = g->object = g->pending = g->sent = 0;
    if (!stage_objects(s, true)) {
        g->phase = G4_FINISH;
        return -1;
    }
    s->objects_in += g->object_count;
    uint32_t rows = g->st.vertex_read_offset + g->st.vertex_read_length;
    g->rows = rows < 1 ? 1 : rows > CLIP_GEN4_MAX_ROWS ? CLIP_GEN4_MAX_ROWS : rows;
    g->phase = G4_READ;
    g->wait_since = unit_cycle(u);
    return -1;
}

/* The thread side of the objects: entries, dispatches, ends, the watchdog. */
static void jobs_step(struct clip *s, struct unit *u);

static bool emit_pass(struct clip *s, struct unit *u, const struct clip_gen4_object *o)
{
    struct clip_gen4 *g = &s->g4;
    if (!urb_ready(s))
        return false;
    uint32_t handles[3];
    for (uint32_t k = 0; k < o->n; k++)
        handles[k] = g->prim.handles[o->v[k]];
    urb_handles(s, u, URB_OP_REFERENCE, handles, o->n);
    struct msg *m = new_packet(s, u, o->pass_topology, o->n);
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->flags |= o->flags;
    memcpy(p->handles, handles, sizeof handles);
    ff_stage_emit(&s->stage, m);
    s->objects_out++;
    g->primitives_out++;
    return true;
}

/* The outputs of an ended thread as primitives, PrimStart to PrimEnd (M0.2
 * bits 1 and 0, PrimType 6:2; units/common/gen4_thread_output.h); vertices
 * outside a complete one are freed. */
struct output_context {
    struct clip *s;
    struct unit *u;
};

static void output_primitive(void *context, uint32_t topology, const uint32_t *handles,
                             uint32_t count)
{
    struct output_context *c = context;
    struct clip_gen4 *g = &c->s->g4;
    if (count > PRIM_MAX_VERTICES) {
        g->notices.output_overflow++;
        urb_handles(c->s, c->u, URB_OP_DEREFERENCE, handles, count);
        return;
    }
    struct msg *m = new_packet(c->s, c->u, topology, count);
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->flags |= PRIM_CLIPPED;
    memcpy(p->handles, handles, count * sizeof *p->handles);
    ff_stage_emit(&c->s->stage, m);
    c->s->objects_out++;
    g->primitives_out++;
}

static void output_dangling(void *context, const uint32_t *handles, uint32_t count)
{
    struct output_context *c = context;
    c->s->g4.dangling_outputs += count;
    urb_handles(c->s, c->u, URB_OP_DEREFERENCE, handles, count);
}

static void emit_outputs(struct clip *s, struct unit *u, struct clip_gen4_object *o)
{
    struct output_context c = { s, u };
    struct gen4_output_sink sink = { &c, output_primitive, output_dangling };
    gen4_thread_outputs_split(&o->outputs, &sink);
}

int clip_gen4_work_primitive(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_gen4 *g = &s->g4;
    if (!configure(s, u))           /* the CLIP region's entries, before any allocation */
        return FF_STAGE_NOT_NOW;
    if (g->msg != m) {
        int r = start(s, u, m);
        if (r >= 0)
            return r;
    }
    for (;;) {
        switch (g->phase) {
        case G4_READ: {
            uint32_t n = g->prim.vertex_count;
            while (g->sent < n) {
                if (!urb_ready(s))
                    return FF_STAGE_NOT_NOW;
                struct msg *q = urb_msg_new(u, URB_OP_READ, G4_TAG_READ | g->sent);
                struct urb_msg *r = (struct urb_msg *)q->payload;
                r->count = 1;
                r->handles[0] = g->prim.handles[g->sent];
                r->row = 0;
                r->rows = g->rows;
                port_try_send(s->urb, q);
                g->pending++;
                g->sent++;
            }
            if (g->pending)
                return FF_STAGE_NOT_NOW;
            s->urb_read_wait_cycles += unit_cycle(u) - g->wait_since;
            classify(s, u);
            bool all_pass = true;
            for (uint32_t i = 0; i < g->object_count; i++)
                all_pass = all_pass && g->objects[i].action == CLIP_GEN4_PASSTHRU;
            bool adjacency = g->prim.topology == PRIM_LINELIST_ADJ ||
                             g->prim.topology == PRIM_LINESTRIP_ADJ ||
                             g->prim.topology == PRIM_TRILIST_ADJ ||
                             g->prim.topology == PRIM_TRISTRIP_ADJ;
            if (all_pass && !adjacency && g->object_count) {
                g->passed += g->object_count;
                s->objects_out += g->object_count;
                g->primitives_out++;
                g->passed_whole++;
                g->msg = NULL;
                g->phase = G4_NONE;
                return FF_STAGE_PASS;
            }
            g->phase = G4_OBJECTS;
            break;
        }
        case G4_OBJECTS:
            jobs_step(s, u);
            while (g->object < g->object_count) {
                struct clip_gen4_object *o = &g->objects[g->object];
                if (o->action == CLIP_GEN4_PASSTHRU) {
                    if (!emit_pass(s, u, o))
                        return FF_STAGE_NOT_NOW;
                    g->passed++;
                } else if (o->action == CLIP_GEN4_DISCARD) {
                    g->discarded++;
                } else if (o->phase == JOB_ENDED) {
                    emit_outputs(s, u, o);
                    o->phase = JOB_DONE;
                } else if (o->phase != JOB_DROPPED) {
                    return FF_STAGE_NOT_NOW;    /* waits for its thread, in order */
                }
                g->object++;
            }
            g->phase = G4_FINISH;
            break;
        case G4_FINISH:
            if (!urb_ready(s))
                return FF_STAGE_NOT_NOW;
            if (g->prim.vertex_count)
                urb_handles(s, u, URB_OP_DEREFERENCE, g->prim.handles, g->prim.vertex_count);
            g->msg = NULL;
            g->phase = G4_NONE;
            return FF_STAGE_DONE;
        default:
            g->msg = NULL;
            return FF_STAGE_DONE;
        }
    }
}

/* ---- the CLIP threads -------------------------------------------------------------------- */

static bool configure(struct clip *s, struct unit *u)
{
    struct clip_gen4 *g = &s->g4;
    if (g->configure_pending) {
        if (!urb_ready(s))
            return false;
        struct msg *m = urb_msg_new(u, URB_OP_CONFIGURE, 0);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        q->count = g->st.urb_entries;
        q->rows = 2 * g->st.urb_entry_units;    /* 512-bit units -> 256-bit rows */
        port_try_send(s->urb, m);
        g->configure_pending = false;
        g->configures++;
    }
    /* the URB_FENCEs CLIP reached: the CLIP region takes them after the
     * allocations of the work before them (urb_fence.h) */
    if (!s->urb || !port_is_bound(s->urb))
        g->fence_markers = 0;
    for (; g->fence_markers; g->fence_markers--) {
        if (!urb_ready(s))
            return false;
        port_try_send(s->urb, urb_msg_new(u, URB_OP_FENCE, 0));
    }
    return true;
}

static void kernel_of(const struct clip_gen4 *g, struct stage_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->enable = true;
    k->kernel_start = g->st.kernel_start;
    k->binding_table_entries = g->st.binding_table_entries;
    k->scratch_base = g->st.scratch_base;
    k->per_thread_scratch = g->st.per_thread_scratch;
    k->max_threads = g->st.maximum_threads ? g->st.maximum_threads : 1;
    k->simd = 8;
    k->alternate_fp = g->st.alternate_fp;
    k->illegal_opcode_exception = g->st.illegal_opcode_exception;
    k->software_exception = g->st.software_exception;
}

static void dispatch(struct clip *s, struct unit *u, uint32_t index)
{
    struct clip_gen4 *g = &s->g4;
    struct clip_gen4_object *o = &g->objects[index];
    struct stage_kernel k;
    kernel_of(g, &k);
    uint32_t first = g->st.dispatch_grf_start;
    if (first < 1) {                /* R0 is the fixed payload header (Table 6-1) */
        g->bad_grf_start++;
        first = 1;
    }
    uint32_t len = g->st.vertex_read_length;
    uint32_t total = first + g->curbe_regs + o->n * len;
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        g->payload_truncated++;
        total = THREAD_PAYLOAD_MAX_REGS;
    }
    o->seq = ++g->job_seq;
    uint64_t tag = gen4_thread_tag(index, o->seq);
    struct msg *m = stage_threads_new(&g->threads, u, &k, &g->bases, &g->space, total, 0xffu, tag);
    struct eu_dispatch *dp = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[32] = dp->grf;
    uint32_t r0[8];
    memcpy(r0, grf[0], sizeof r0);
    r0[0] = (index & 0x7fu) << 16 | (o->handle & 0x1ffu);  /* Handle ID 22:16, URB handle 8:0 */
    r0[1] = 0;
    r0[2] = o->outcodes | o->edges | (o->topology & 0x1fu);
    memcpy(grf[0], r0, sizeof r0);
    uint32_t reg = first;
    for (uint32_t c = 0; c < g->curbe_regs && reg < total; c++)
        memcpy(grf[reg++], g->curbe[c], 32);
    for (uint32_t v = 0; v < o->n; v++)
        for (uint32_t r = 0; r < len && reg < total; r++) {
            uint32_t row = g->st.vertex_read_offset + r;
            if (row < g->rows)
                memcpy(grf[reg], g->vue[o->v[v]][row], 32);
            reg++;
        }
    stage_threads_send(&g->threads, u, m);
    if (g->st.statistics)
        s->cl_invocations++;        /* pre-CTG: per CLIP thread spawned (L11145-11149) */
    g->spawned++;
    o->phase = JOB_RUNNING;
    o->since = unit_cycle(u);
}

static void drop_job(struct clip *s, struct unit *u, struct clip_gen4_object *o)
{
    /* the payload's entry may have come back as an output */
    if (!gen4_thread_outputs_hold(&o->outputs, o->handle))
        urb_handles(s, u, URB_OP_DEREFERENCE, &o->handle, 1);
    if (o->outputs.count)
        urb_handles(s, u, URB_OP_DEREFERENCE, o->outputs.handle, o->outputs.count);
    o->outputs.count = 0;
    o->phase = JOB_DROPPED;
}

struct notice_context {
    struct clip *s;
    struct unit *u;
};

static struct gen4_thread_outputs *notice_running(void *context, uint32_t index, uint32_t seq)
{
    struct notice_context *c = context;
    struct clip_gen4 *g = &c->s->g4;
    struct clip_gen4_object *o = g->msg && index < g->object_count ? &g->objects[index] : NULL;
    return o && o->phase == JOB_RUNNING && (o->seq & 0xffffffu) == seq ? &o->outputs : NULL;
}

static void notice_ended(void *context, uint32_t index)
{
    struct notice_context *c = context;
    c->s->g4.objects[index].phase = JOB_ENDED;
}

static void notice_free_entry(void *context, uint32_t handle)
{
    struct notice_context *c = context;
    urb_handles(c->s, c->u, URB_OP_DEREFERENCE, &handle, 1);
}

void clip_gen4_take_notices(struct clip *s, struct unit *u)
{
    struct clip_gen4 *g = &s->g4;
    if (!g->threads_on)
        return;
    struct notice_context c = { s, u };
    const struct gen4_notice_host host = { &c, notice_running, notice_ended, notice_free_entry };
    gen4_thread_notices_take(&g->threads, u, &host, &g->notices);
}

static void jobs_step(struct clip *s, struct unit *u)
{
    struct clip_gen4 *g = &s->g4;
    clip_gen4_take_notices(s, u);
    g->watching = false;
    if (!configure(s, u))
        return;
    uint64_t now = unit_cycle(u);
    for (uint32_t i = g->object; i < g->object_count; i++) {
        struct clip_gen4_object *o = &g->objects[i];
        if (o->phase == JOB_ALLOC) {
            if (!urb_ready(s))
                break;
            struct msg *m = urb_msg_new(u, URB_OP_ALLOC, G4_TAG_ALLOC | i);
            ((struct urb_msg *)m->payload)->count = 1;
            port_try_send(s->urb, m);
            o->phase = JOB_ALLOC_WAIT;
            o->since = now;
        }
        if (o->phase == JOB_ALLOC_WAIT)
            break;                  /* entries are handed out in order */
        if (o->phase == JOB_DISPATCH) {
            struct stage_kernel k;
            kernel_of(g, &k);
            if (!stage_threads_can_dispatch(&g->threads, &k))
                break;
            dispatch(s, u, i);
        }
        if (o->phase == JOB_RUNNING && s->thread_timeout) {
            if (now - o->since >= s->thread_timeout) {
                g->watchdog_drops++;
                clip_warn_once(s, u, 11, "a CLIP thread ran past thread_timeout (%llu cycles): "
                               "its object is dropped", (unsigned long long)s->thread_timeout);
                drop_job(s, u, o);
            } else {
                g->watching = true;
            }
        }
    }
}

void clip_gen4_take_urb_reply(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_gen4 *g = &s->g4;
    const struct urb_msg *q = (const struct urb_msg *)m->payload;
    if (m->kind != MSG_URB || m->size < sizeof *q ||
        m->size < sizeof *q + (size_t)(q->op == URB_OP_DATA ? q->rows : 0) * URB_ROW_BYTES) {
        s->bad_replies++;
        return;
    }
    uint32_t index = q->tag & 0xffu;
    if (q->op == URB_OP_ALLOCATED && (q->tag & G4_TAG_ALLOC)) {
        struct clip_gen4_object *o = g->msg && index < g->object_count ? &g->objects[index] : NULL;
        if (!o || o->phase != JOB_ALLOC_WAIT) {
            s->bad_replies++;
            urb_handles(s, u, URB_OP_DEREFERENCE, q->handles,
                        q->count < URB_MAX_HANDLES_PER_MSG ? q->count : URB_MAX_HANDLES_PER_MSG);
            return;
        }
        g->alloc_wait_cycles += unit_cycle(u) - o->since;
        if (q->count < 1) {
            g->refused_entries++;   /* more than the CLIP region holds */
            o->phase = JOB_DROPPED;
            return;
        }
        g->entries++;
        o->handle = q->handles[0];
        o->phase = JOB_DISPATCH;
        return;
    }
    if (q->op == URB_OP_DATA && (q->tag & G4_TAG_READ) && g->msg && g->phase == G4_READ &&
        g->pending && index < PRIM_MAX_VERTICES && q->rows >= 1) {
        memcpy(g->header[index], q->data[0], sizeof g->header[index]);
        uint32_t rows = q->rows < g->rows ? q->rows : g->rows;
        memcpy(g->vue[index], q->data, (size_t)rows * URB_ROW_BYTES);
        g->pending--;
        return;
    }
    s->bad_replies++;
}

void clip_gen4_clear(struct clip *s, struct unit *u)
{
    (void)u;
    struct clip_gen4 *g = &s->g4;
    bool threads_on = g->threads_on;
    struct stage_threads threads = g->threads;
    memset(g, 0, offsetof(struct clip_gen4, state_reads));
    g->threads_on = threads_on;
    g->threads = threads;
    if (threads_on)
        stage_threads_reset(&g->threads);
}
