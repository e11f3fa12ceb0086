/* units/clip/clip_object.c - the CLIP unit's work on a primitive packet: the
 * VUE readback, object staging and partial-object removal, VertexClipTest and
 * ClipDetermination per object, the Clip Mode action, the clipper's new
 * vertices (read, allocated, written through the URB unit) and the objects
 * that go on to SF; see clip.h. */
#include <math.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "units/clip/clip.h"
#include "units/clip/clip_internal.h"
#include "units/common/ff_stage.h"

/* ---- URB requests ------------------------------------------------------------------------ */

static struct msg *urb_request(struct unit *u, uint32_t op, uint32_t client, uint32_t tag,
                               uint32_t data_rows)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB,
                              (uint32_t)(sizeof(struct urb_msg) + (size_t)data_rows * URB_ROW_BYTES));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->op = op;
    q->client = client;
    q->tag = tag;
    m->tag = tag;
    return m;
}

/* False (counted) when the URB channel refuses: the caller answers "not now"
 * and the fabric wakes the unit when the channel frees. */
static bool urb_ready(struct clip *s)
{
    if (port_can_send(s->urb))
        return true;
    s->urb_port_stalls++;
    return false;
}

static void urb_handles(struct clip *s, struct unit *u, uint32_t op, const uint32_t *handles,
                        uint32_t count)
{
    struct msg *m = urb_request(u, op, URB_CLIENT_CLIP, 0, 0);
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->count = count;
    memcpy(q->handles, handles, count * sizeof *handles);
    port_try_send(s->urb, m);
}

static void urb_read(struct clip *s, struct unit *u, uint32_t handle, uint32_t row, uint32_t rows,
                     uint32_t tag)
{
    struct msg *m = urb_request(u, URB_OP_READ, URB_CLIENT_CLIP, tag, 0);
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->count = 1;
    q->handles[0] = handle;
    q->row = row;
    q->rows = rows;
    port_try_send(s->urb, m);
}

/* ---- state as CLIP_INT resolves it (003 L13884-13891) ----------------------------------- */

/* The last enabled vertex-producing stage (GS > DS > VS, 003 L11265): 2, 1, 0. */
static uint32_t producer(const struct clip_state *st)
{
    return st->stage_enable[2] ? 2u : st->stage_enable[1] ? 1u : 0u;
}

static uint8_t ucf_mask(const struct clip_state *st, bool cull)
{
    if (cull ? st->force_cull_mask : st->force_clip_mask)
        return cull ? st->clip_cull_mask : st->clip_clip_mask;
    for (int k = 2; k >= 0; k--)
        if (st->stage_enable[k])
            return cull ? st->stage_cull_mask[k] : st->stage_clip_mask[k];
    return 0;
}

enum viewport_status { VIEWPORT_OK = 0, VIEWPORT_BAD = 1, VIEWPORT_UNREAD = 2 };

/* The test configuration for a vertex of viewport index vp_index (D2; above
 * Maximum VP Index reads 0, seed 004 L1549). The guardband of a viewport never
 * read, or NaN or empty, is replaced by the viewport's [-1, 1] (reported). */
static unsigned test_config(const struct clip *s, uint32_t vp_index, struct clip_test_config *c)
{
    const struct clip_state *st = &s->st;
    unsigned status = VIEWPORT_OK;
    memset(c, 0, sizeof *c);
    c->viewport_xy = st->viewport_xy;
    c->guardband = st->guardband;
    c->z_near = st->z_near;
    c->z_far = st->z_far;
    c->d3d = st->api_mode == 1;         /* APIMODE_D3D (004 L1453) */
    c->perspective_divide_disable = st->perspective_divide_disable;
    c->clip_mask = ucf_mask(st, false);
    c->cull_mask = ucf_mask(st, true);
    c->gb_xmin = c->gb_ymin = -1.0f;
    c->gb_xmax = c->gb_ymax = 1.0f;
    if (!st->guardband)
        return status;
    const struct clip_viewport *vp = &st->viewport[vp_index > st->max_vp_index ? 0 : vp_index];
    if (!st->viewports_set || !vp->valid)
        return VIEWPORT_UNREAD;
    if (!(vp->gb_xmin < vp->gb_xmax) || !(vp->gb_ymin < vp->gb_ymax))   /* NaN or empty */
        return VIEWPORT_BAD;
    c->gb_xmin = vp->gb_xmin;
    c->gb_xmax = vp->gb_xmax;
    c->gb_ymin = vp->gb_ymin;
    c->gb_ymax = vp->gb_ymax;
    return status;
}

/* Rows of a vertex in the producing stage's entries: the GS's Output Vertex
 * Size (16 B units minus one, seed 004 L3238), else the entry size (64 B units
 * minus one); 0 when no URB state was seen. */
static uint32_t vertex_rows(const struct clip_state *st)
{
    uint32_t k = producer(st);
    uint32_t rows = k == 2 ? ((st->gs_vertex_size + 1) * 16 + URB_ROW_BYTES - 1) / URB_ROW_BYTES
                           : st->entry_known[k] ? (st->entry_size[k] + 1) * 2 : 0;
    return rows > CLIP_MAX_VUE_ROWS ? CLIP_MAX_VUE_ROWS : rows;
}

/* ---- object staging (003 L14123-14131, pass-through table L14311-14335) ------------------ */

enum staging { STAGING_OK = 0, STAGING_PATCH, STAGING_UNSUPPORTED };

static uint8_t provoking_select(struct clip *s, uint32_t select, uint32_t n)
{
    if (select < n)
        return (uint8_t)select;
    s->reserved_provoking++;
    return 0;
}

static void add_object(struct clip_job *j, uint32_t topology, uint8_t provoking, bool inverted,
                       uint32_t n, uint32_t a, uint32_t b, uint32_t c)
{
    struct clip_object *o = &j->objects[j->object_count++];
    o->n = (uint8_t)n;
    o->v[0] = (uint8_t)a, o->v[1] = (uint8_t)b, o->v[2] = (uint8_t)c;
    o->provoking = provoking;
    o->inverted = inverted;
    o->topology = topology;
    j->used |= (1u << a) | (n > 1 ? 1u << b : 0) | (n > 2 ? 1u << c : 0);
}

/* The packet's objects in order; *partial: vertices left over. */
static enum staging stage_objects(struct clip *s, bool *partial, bool *adjacency)
{
    uint64_t reserved = s->reserved_provoking;
    struct clip_job *j = &s->job;
    const struct clip_state *st = &s->st;
    uint32_t n = j->prim.vertex_count, t = j->prim.topology;
    *partial = false;
    *adjacency = false;
    switch (t) {
    case PRIM_POINTLIST:
    case PRIM_POINTLIST_BF:
        for (uint32_t i = 0; i < n; i++)
            add_object(j, t, 0, false, 1, i, 0, 0);
        break;
    case PRIM_LINELIST:
        for (uint32_t i = 0; i + 1 < n; i += 2)
            add_object(j, t, provoking_select(s, st->line_provoking, 2), false, 2, i, i + 1, 0);
        *partial = n % 2 != 0;
        break;
    case PRIM_LINESTRIP:
    case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF:
        for (uint32_t i = 0; i + 1 < n; i++)
            add_object(j, t, provoking_select(s, st->line_provoking, 2), false, 2, i, i + 1, 0);
        *partial = n < 2;               /* a 1-vertex LINESTRIP (L14129) */
        break;
    case PRIM_LINELIST_ADJ:             /* (adj, v0, v1, adj) -> LINELIST */
        for (uint32_t i = 0; i + 3 < n; i += 4)
            add_object(j, PRIM_LINELIST, provoking_select(s, st->line_provoking, 2), false, 2,
                       i + 1, i + 2, 0);
        *partial = n % 4 != 0;
        *adjacency = true;
        break;
    case PRIM_LINESTRIP_ADJ:            /* v[i+1]-v[i+2] of each 4 -> LINESTRIP */
        for (uint32_t i = 0; i + 3 < n; i++)
            add_object(j, PRIM_LINESTRIP, provoking_select(s, st->line_provoking, 2), false, 2,
                       i + 1, i + 2, 0);
        *partial = n < 4;
        *adjacency = true;
        break;
    case PRIM_TRILIST:
    case PRIM_RECTLIST:
        for (uint32_t i = 0; i + 2 < n; i += 3)
            add_object(j, t, t == PRIM_RECTLIST ? 0 : provoking_select(s, st->tri_provoking, 3),
                       false, 3, i, i + 1, i + 2);
        *partial = n % 3 != 0;
        break;
    case PRIM_TRILIST_ADJ:              /* (v0, adj, v1, adj, v2, adj) -> TRILIST */
    case PRIM_TRISTRIP_ADJ:             /* VF's objects, already in that form and wound right */
        for (uint32_t i = 0; i + 5 < n; i += 6)
            add_object(j, t == PRIM_TRILIST_ADJ ? PRIM_TRILIST : PRIM_TRISTRIP,
                       provoking_select(s, st->tri_provoking, 3), false, 3, i, i + 2, i + 4);
        *partial = n % 6 != 0;
        *adjacency = true;
        break;
    case PRIM_TRISTRIP:
    case PRIM_TRISTRIP_REVERSE:
        for (uint32_t i = 0; i + 2 < n; i++) {
            /* SF's strip decomposition (003 L14631-14651): odd triangles, and all of a
             * TRISTRIP_REVERSE's even ones, are inverted; alone they leave as a strip
             * that starts inverted or not (the pass-through table's TRISTRIP/_REV) */
            bool inverted = ((i & 1u) != 0) != (t == PRIM_TRISTRIP_REVERSE);
            /* a lone strip triangle VF marked odd (primitive.h PRIM_STRIP_ODD)
             * is inverted as it would be inside its strip */
            if (j->prim.flags & PRIM_STRIP_ODD)
                inverted = !inverted;
            add_object(j, inverted ? PRIM_TRISTRIP_REVERSE : PRIM_TRISTRIP,
                       provoking_select(s, st->tri_provoking, 3), inverted, 3, i, i + 1, i + 2);
        }
        *partial = n < 3;               /* 1- or 2-vertex TRISTRIP (L14129) */
        break;
    case PRIM_TRIFAN:
    case PRIM_TRIFAN_NOSTIPPLE:
    case PRIM_POLYGON:
        for (uint32_t i = 1; i + 1 < n; i++)
            add_object(j, t, t == PRIM_POLYGON ? 0 : provoking_select(s, st->fan_provoking, 3),
                       false, 3, 0, i, i + 1);
        *partial = n < 3;
        break;
    default:
        if (prim_patch_vertices(t))
            return STAGING_PATCH;       /* rejected unconditionally (L13878) */
        return STAGING_UNSUPPORTED;     /* LINELOOP, QUADLIST, QUADSTRIP: not after GS */
    }
    if (!s->st.enable)
        s->reserved_provoking = reserved;   /* a disabled CLIP selects nothing */
    return STAGING_OK;
}

/* ---- emission ---------------------------------------------------------------------------- */

static struct msg *new_packet(struct clip *s, struct unit *u, uint32_t topology, uint32_t count)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = count;
    p->instance = s->job.prim.instance;
    p->primitive_id = s->job.prim.primitive_id;
    p->stream = s->job.prim.stream;
    p->draw = s->job.prim.draw;
    p->owner_handle = URB_HANDLE_NONE;
    return m;
}

/* The StartPrim flag of an object leaving by itself. A line strip's segments
 * leave one packet each, but the line stipple counter restarts only with a
 * new primitive, not at each segment (003 L15540): the first segment that
 * leaves of a strip that started in this packet carries PRIM_START, the later
 * ones (and those of a _CONT strip, whose counter SF never restarts) not, so
 * SF carries the counter on. Other objects are each a primitive of their own. */
static uint32_t object_start_flag(struct clip *s, const struct clip_object *o)
{
    if (o->n != 2 || o->topology == PRIM_LINELIST)
        return PRIM_START;
    bool start = s->job.strip_restart;
    s->job.strip_restart = false;
    return start ? PRIM_START : 0u;
}

static void count_out(struct clip *s, uint64_t objects)
{
    s->objects_out += objects;
    if (s->count_cl_primitives && s->st.sf_statistics)
        s->cl_primitives += objects;
}

/* An object passed on by itself: it takes a reference of its own. */
static bool emit_object(struct clip *s, struct unit *u, const struct clip_object *o)
{
    const struct primitive_packet *in = &s->job.prim;
    if (!urb_ready(s))
        return false;
    uint32_t handles[3], half = 0;
    for (uint32_t k = 0; k < o->n; k++) {
        handles[k] = in->handles[o->v[k]];
        half |= ((in->half_row >> o->v[k]) & 1u) << k;
    }
    if (in->owner_handle != URB_HANDLE_NONE)
        urb_handles(s, u, URB_OP_REFERENCE, &in->owner_handle, 1);
    else
        urb_handles(s, u, URB_OP_REFERENCE, handles, o->n);
    struct msg *m = new_packet(s, u, o->topology, o->n);
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    p->flags = (p->flags & ~(uint32_t)PRIM_START) | object_start_flag(s, o);
    p->provoking = o->provoking;
    p->owner_handle = in->owner_handle;
    p->half_row = half;
    memcpy(p->handles, handles, o->n * sizeof *handles);
    ff_stage_emit(&s->stage, m);
    count_out(s, 1);
    return true;
}

/* ---- the clipper ------------------------------------------------------------------------- */

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static uint32_t as_bits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

/* Clips the current object from the positions read back; false: nothing to
 * send (counted). */
static bool clip_object(struct clip *s, struct unit *u, const struct clip_object *o)
{
    struct clip_job *j = &s->job;
    struct clip_test_config c;
    test_config(s, j->header[o->v[o->provoking]][VUE_DW_VIEWPORT_INDEX], &c);
    struct clip_plane planes[CLIP_MAX_PLANES];
    uint32_t plane_count = clip_planes(&c, planes);
    struct clip_point in[3];
    /* an inverted strip triangle enters as (v1, v0, v2): the polygon keeps the winding
     * SF would have given it */
    static const uint8_t straight[3] = { 0, 1, 2 }, inverted[3] = { 1, 0, 2 };
    const uint8_t *order = o->inverted ? inverted : straight;
    for (uint32_t k = 0; k < o->n; k++) {
        uint32_t local = order[k], v = o->v[local];
        struct clip_point *p = &in[k];
        memset(p, 0, sizeof *p);
        memcpy(p->pos, j->pos[v], sizeof p->pos);
        memcpy(p->dist, j->dist[v], sizeof p->dist);
        p->weight[local] = 1.0f;
        p->source = (int32_t)local;
    }
    j->line = o->n == 2;
    bool overflow = false;
    if (o->n == 1) {
        j->out[0] = in[0];              /* the clipper does not cut points */
        j->out_count = 1;
    } else if (o->n == 2) {
        j->out[0] = in[0];
        j->out[1] = in[1];
        j->out_count = clip_line(planes, plane_count, j->out) ? 2 : 0;
    } else {
        j->out_count = clip_polygon(planes, plane_count, in, 3, j->out, &overflow);
    }
    if (!j->out_count) {
        overflow ? s->clip_overflow++ : s->clipped_away++;
        s->discarded++;
        return false;
    }
    for (uint32_t k = 0; k < j->out_count; k++)
        if (!clip_point_finite(&j->out[k])) {
            s->clip_nonfinite++;
            s->discarded++;
            clip_warn_once(s, u, 0, "a clipped object has an infinite or NaN vertex: dropped");
            return false;
        }
    /* the polygon leaves as POLYGON, whose provoking vertex is v0 (L14691): start it at
     * the source's provoking vertex when that survived (a rotation keeps the winding) */
    if (!j->line) {
        for (uint32_t k = 1; k < j->out_count; k++)
            if (j->out[k].source == (int32_t)o->provoking) {
                struct clip_point rot[CLIP_POLYGON_MAX];
                for (uint32_t i = 0; i < j->out_count; i++)
                    rot[i] = j->out[(i + k) % j->out_count];
                memcpy(j->out, rot, j->out_count * sizeof *rot);
                break;
            }
    }
    /* new entries for the new vertices; for a packet owning one GS entry, for all
     * (a packet owns either per-vertex references or the owner's, primitive.h) */
    bool owner = j->prim.owner_handle != URB_HANDLE_NONE;
    j->make_count = 0;
    for (uint32_t k = 0; k < j->out_count; k++) {
        if (owner || j->out[k].source < 0)
            j->make[j->make_count++] = (uint8_t)k;
        else
            j->handle[k] = j->prim.handles[o->v[j->out[k].source]];
    }
    return true;
}

/* The dwords of the new vertex p (vertex_rows rows) from the source VUEs: the
 * header's D0-D3 from the provoking vertex (RTAIndex forced to 0 when
 * ForceZeroRTAIndex, 004 L1542), the position as clipped, every later dword
 * the barycentric blend of the sources' (linear in clip space: the clipper's
 * "barycentric attributes", L13862, made into a VUE). */
static void build_vertex(const struct clip *s, const struct clip_object *o,
                         const struct clip_point *p, uint32_t *out, uint32_t rows)
{
    const struct clip_job *j = &s->job;
    uint32_t dwords = rows * 8;
    if (p->source >= 0) {
        memcpy(out, j->full[p->source], dwords * 4);
        return;
    }
    memcpy(out, j->full[o->provoking], 4 * 4);
    if (s->st.force_zero_rta)
        out[VUE_DW_RT_ARRAY_INDEX] = 0;
    for (uint32_t k = 0; k < 4; k++)
        out[VUE_DW_POSITION_X + k] = as_bits(p->pos[k]);
    for (uint32_t d = 8; d < dwords; d++) {
        float sum = 0.0f;
        for (uint32_t k = 0; k < o->n; k++)
            if (p->weight[k] != 0.0f)
                sum += p->weight[k] * as_float(j->full[k][d]);
        out[d] = as_bits(sum);
    }
}

/* ---- the packet -------------------------------------------------------------------------- */

static enum ff_stage_work_result finish(struct clip *s, struct unit *u)
{
    struct clip_job *j = &s->job;
    if (!urb_ready(s))
        return FF_STAGE_NOT_NOW;
    if (j->prim.owner_handle != URB_HANDLE_NONE)
        urb_handles(s, u, URB_OP_DEREFERENCE, &j->prim.owner_handle, 1);
    else if (j->prim.vertex_count)
        urb_handles(s, u, URB_OP_DEREFERENCE, j->prim.handles, j->prim.vertex_count);
    j->msg = NULL;
    j->phase = CLIP_PHASE_NONE;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result pass_whole(struct clip *s, uint32_t objects)
{
    s->passed_whole++;
    count_out(s, objects);
    s->job.msg = NULL;
    s->job.phase = CLIP_PHASE_NONE;
    return FF_STAGE_PASS;
}

/* Classifies every object (VertexClipTest, ClipDetermination, ClipMode) and
 * counts; returns true when all pass through. */
static bool classify(struct clip *s, uint8_t *action)
{
    struct clip_job *j = &s->job;
    const struct clip_state *st = &s->st;
    bool all_pass = true;
    for (uint32_t i = 0; i < j->object_count; i++) {
        const struct clip_object *o = &j->objects[i];
        uint32_t oc[3];
        unsigned vp_status = VIEWPORT_OK;
        for (uint32_t k = 0; k < o->n; k++) {
            uint32_t v = o->v[k];
            struct clip_test_config c;
            vp_status |= test_config(s, j->header[v][VUE_DW_VIEWPORT_INDEX], &c);
            oc[k] = clip_vertex_test(&c, j->pos[v], j->header_rows > 1 ? j->dist[v] : NULL,
                                     o->n == 1);
        }
        if (vp_status & VIEWPORT_UNREAD)
            s->viewport_unreadable++;
        else if (vp_status & VIEWPORT_BAD)
            s->bad_viewport++;
        struct clip_determination d = clip_determine(oc, o->n);
        enum clip_action a = clip_mode_action(st->mode, d);
        if (o->topology == PRIM_RECTLIST)
            a = d.bad ? CLIP_DISCARD : CLIP_PASSTHRU;   /* screen space, no clipping (L11591) */
        if (st->mode != CLIP_MODE_NORMAL && st->mode != CLIP_MODE_REJECT_ALL &&
            st->mode != CLIP_MODE_ACCEPT_ALL)
            s->reserved_clip_mode++;
        if (a == CLIP_SPAWN && st->perspective_divide_disable) {
            s->clip_without_divide++;   /* software must use ACCEPT_ALL (004 L1496) */
            a = d.bad ? CLIP_DISCARD : CLIP_PASSTHRU;
        }
        if (d.bad)
            s->bad_objects++;
        else if (d.trivial_reject)
            s->trivially_rejected++;
        else if (d.trivial_accept)
            s->trivially_accepted++;
        if (d.trivial_reject && !d.bad) {
            uint32_t and_code = oc[0];
            for (uint32_t k = 1; k < o->n; k++)
                and_code &= oc[k];
            if (!(and_code & ~(uint32_t)(CLIP_OC_UC_CLIP | CLIP_OC_UC_CULL)))
                s->culled_by_distance++;
        }
        if (a == CLIP_DISCARD)
            s->discarded++;
        else if (a == CLIP_SPAWN)
            s->clipped++;
        action[i] = (uint8_t)a;
        all_pass = all_pass && a == CLIP_PASSTHRU;
    }
    return all_pass;
}

/* Starts the job on a new head packet; returns a final answer, or -1 to go on. */
static int start(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_job *j = &s->job;
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    s->packets_in++;
    if (m->size < sizeof *p || p->vertex_count > PRIM_MAX_VERTICES) {
        s->bad_messages++;
        clip_warn_once(s, u, 1, "malformed primitive packet (%u bytes) dropped", m->size);
        return FF_STAGE_DONE;   /* its handles cannot be trusted: not dereferenced */
    }
    bool urb = s->urb && port_is_bound(s->urb);
    memset(j, 0, offsetof(struct clip_job, pos));
    j->msg = m;
    j->prim = *p;
    j->strip_restart = (p->flags & PRIM_START) != 0;
    enum staging staged = stage_objects(s, &j->partial, &j->adjacency);
    if (!s->st.enable)
        return pass_whole(s, j->object_count);          /* pass-through (004 L1449) */
    if (staged == STAGING_PATCH) {
        s->patches_rejected++;
        j->phase = CLIP_PHASE_FINISH;
        return -1;
    }
    if (staged == STAGING_UNSUPPORTED) {
        s->unsupported_topology++;
        clip_warn_once(s, u, 2, "topology %u reached CLIP (not allowed after GS): dropped",
                       p->topology);
        j->phase = CLIP_PHASE_FINISH;
        return -1;
    }
    if (j->partial)
        s->partial_objects++;
    if (j->adjacency)
        s->adjacency_vertices += j->prim.vertex_count - (uint32_t)__builtin_popcount(j->used);
    s->objects_in += j->object_count;
    if (s->st.statistics)
        s->cl_invocations += j->object_count;     /* complete objects only (L11045, L14353) */
    if (!urb) {
        s->no_urb++;
        clip_warn_once(s, u, 3, "CLIP has no URB linked: primitives pass untested");
        return pass_whole(s, j->object_count);
    }
    j->header_rows = (ucf_mask(&s->st, false) | ucf_mask(&s->st, true)) ? 2 : 1;
    j->phase = CLIP_PHASE_READ_HEADERS;
    j->vertex_rows = vertex_rows(&s->st);
    return -1;
}

int clip_work_primitive(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_job *j = &s->job;
    if (j->msg != m) {
        int r = start(s, u, m);
        if (r >= 0)
            return r;
    }
    for (;;) {
        switch (j->phase) {
        case CLIP_PHASE_READ_HEADERS:
            /* the readback before VertexClipTest: the header and, when a mask enables
             * them, the clip distances (003 L13893-13899) */
            while (j->sent < j->prim.vertex_count) {
                uint32_t i = j->sent;
                if ((j->used >> i) & 1u) {
                    if (!urb_ready(s))
                        return FF_STAGE_NOT_NOW;
                    if (!j->pending)
                        j->wait_since = unit_cycle(u);
                    urb_read(s, u, j->prim.handles[i], (j->prim.half_row >> i) & 1u,
                             j->header_rows,
                             CLIP_TAG(CLIP_PHASE_READ_HEADERS, i));
                    j->pending++;
                }
                j->sent++;
            }
            if (j->pending)
                return FF_STAGE_NOT_NOW;
            /* a packet whose objects all pass leaves whole (nothing left over, no
             * adjacency to remove); otherwise object by object, in order */
            if (classify(s, j->action) && j->object_count && !j->partial && !j->adjacency)
                return pass_whole(s, j->object_count);
            j->object = 0;
            j->phase = CLIP_PHASE_OBJECTS;
            break;
        case CLIP_PHASE_OBJECTS:
            while (j->object < j->object_count) {
                const struct clip_object *o = &j->objects[j->object];
                if (j->action[j->object] == CLIP_PASSTHRU) {
                    if (!emit_object(s, u, o))
                        return FF_STAGE_NOT_NOW;
                } else if (j->action[j->object] == CLIP_SPAWN) {
                    if (clip_object(s, u, o)) {
                        j->sent = 0;
                        j->phase = j->make_count ? CLIP_PHASE_READ_FULL : CLIP_PHASE_EMIT;
                        break;
                    }
                }
                j->object++;
            }
            if (j->phase == CLIP_PHASE_OBJECTS)
                j->phase = CLIP_PHASE_FINISH;
            break;
        case CLIP_PHASE_READ_FULL: {
            const struct clip_object *o = &j->objects[j->object];
            uint32_t rows = j->vertex_rows;
            if (!rows) {
                s->vue_size_unknown++;
                rows = j->vertex_rows = 2;
            }
            while (j->sent < o->n) {
                if (!urb_ready(s))
                    return FF_STAGE_NOT_NOW;
                if (!j->pending)
                    j->wait_since = unit_cycle(u);
                urb_read(s, u, j->prim.handles[o->v[j->sent]],
                         (j->prim.half_row >> o->v[j->sent]) & 1u, rows,
                         CLIP_TAG(CLIP_PHASE_READ_FULL, j->sent));
                j->pending++;
                j->sent++;
            }
            if (j->pending)
                return FF_STAGE_NOT_NOW;
            j->sent = 0;
            j->phase = CLIP_PHASE_ALLOC;
            break;
        }
        case CLIP_PHASE_ALLOC:
            if (!j->sent) {
                if (!urb_ready(s))
                    return FF_STAGE_NOT_NOW;
                /* the new vertices live in the producing stage's allocation (an
                 * inference: the seed's clipper keeps them itself, see clip.h) */
                static const uint32_t client[3] = { URB_CLIENT_VS, URB_CLIENT_DS, URB_CLIENT_GS };
                struct msg *q = urb_request(u, URB_OP_ALLOC, client[producer(&s->st)],
                                            CLIP_TAG(CLIP_PHASE_ALLOC, 0), 0);
                ((struct urb_msg *)q->payload)->count = j->make_count;
                port_try_send(s->urb, q);
                j->wait_since = unit_cycle(u);
                j->alloc_refused = false;
                j->pending = 1;
                j->sent = 1;
            }
            if (j->pending)
                return FF_STAGE_NOT_NOW;
            if (j->alloc_refused) {
                s->alloc_refused++;
                s->discarded++;
                clip_warn_once(s, u, 4, "the URB gave no entries for %u clipped vertices: "
                               "object dropped", j->make_count);
                j->object++;
                j->phase = CLIP_PHASE_OBJECTS;
                break;
            }
            j->sent = 0;
            j->phase = CLIP_PHASE_WRITE;
            break;
        case CLIP_PHASE_WRITE: {
            const struct clip_object *o = &j->objects[j->object];
            while (j->sent < j->make_count) {
                if (!urb_ready(s))
                    return FF_STAGE_NOT_NOW;
                uint32_t k = j->make[j->sent];
                struct msg *q = urb_request(u, URB_OP_WRITE, URB_CLIENT_CLIP,
                                            CLIP_TAG(CLIP_PHASE_WRITE, j->sent), j->vertex_rows);
                struct urb_msg *w = (struct urb_msg *)q->payload;
                w->count = 1;
                w->handles[0] = j->handle[k];
                w->row = 0;
                w->rows = j->vertex_rows;
                build_vertex(s, o, &j->out[k], (uint32_t *)(void *)w->data, j->vertex_rows);
                if (!j->pending)
                    j->wait_since = unit_cycle(u);
                port_try_send(s->urb, q);
                j->pending++;
                j->sent++;
            }
            if (j->pending)
                return FF_STAGE_NOT_NOW;    /* SF reads them after the writes' GO point */
            s->vertices_made += j->make_count;
            j->phase = CLIP_PHASE_EMIT;
            break;
        }
        case CLIP_PHASE_EMIT: {
            const struct clip_object *o = &j->objects[j->object];
            uint32_t kept[CLIP_POLYGON_MAX], kept_count = 0;
            for (uint32_t k = 0; k < j->out_count; k++)
                if (j->prim.owner_handle == URB_HANDLE_NONE && j->out[k].source >= 0)
                    kept[kept_count++] = j->handle[k];
            if (kept_count) {
                if (!urb_ready(s))
                    return FF_STAGE_NOT_NOW;
                urb_handles(s, u, URB_OP_REFERENCE, kept, kept_count);
            }
            bool polygon = !j->line && o->n == 3;
            struct msg *m2 = new_packet(s, u, polygon ? PRIM_POLYGON : o->topology, j->out_count);
            struct primitive_packet *p = (struct primitive_packet *)m2->payload;
            p->flags |= PRIM_CLIPPED;
            if (!polygon)
                p->flags = (p->flags & ~(uint32_t)PRIM_START) | object_start_flag(s, o);
            p->provoking = polygon ? 0 : o->provoking;
            memcpy(p->handles, j->handle, j->out_count * sizeof *j->handle);
            ff_stage_emit(&s->stage, m2);
            count_out(s, polygon ? j->out_count - 2 : 1);
            j->object++;
            j->phase = CLIP_PHASE_OBJECTS;
            break;
        }
        case CLIP_PHASE_FINISH:
            return finish(s, u);
        default:
            j->msg = NULL;
            return FF_STAGE_DONE;
        }
    }
}

void clip_take_urb_reply(struct clip *s, struct unit *u, struct msg *m)
{
    struct clip_job *j = &s->job;
    const struct urb_msg *q = (const struct urb_msg *)m->payload;
    if (m->kind != MSG_URB || m->size < sizeof *q ||
        m->size < sizeof *q + (size_t)(q->op == URB_OP_DATA ? q->rows : 0) * URB_ROW_BYTES) {
        s->bad_replies++;
        return;
    }
    uint32_t phase = q->tag >> 8, index = q->tag & 0xffu;
    if (!j->msg || phase != j->phase || !j->pending) {
        s->bad_replies++;
        return;
    }
    const uint32_t *dw = (const uint32_t *)(const void *)q->data;
    uint64_t now = unit_cycle(u);
    switch (q->op) {
    case URB_OP_DATA:
        if (phase == CLIP_PHASE_READ_HEADERS && index < PRIM_MAX_VERTICES && q->rows >= 1) {
            memcpy(j->header[index], dw, sizeof j->header[index]);
            for (uint32_t k = 0; k < 4; k++)
                j->pos[index][k] = as_float(dw[VUE_DW_POSITION_X + k]);
            for (uint32_t k = 0; k < CLIP_DISTANCES; k++)
                j->dist[index][k] = q->rows >= 2 ? as_float(dw[VUE_DW_CLIP_DISTANCE_0 + k]) : 0.0f;
        } else if (phase == CLIP_PHASE_READ_FULL && index < CLIP_SOURCE_VERTICES) {
            uint32_t rows = q->rows < j->vertex_rows ? q->rows : j->vertex_rows;
            memset(j->full[index], 0, sizeof j->full[index]);
            memcpy(j->full[index], dw, (size_t)rows * URB_ROW_BYTES);
        } else {
            s->bad_replies++;
            return;
        }
        break;
    case URB_OP_ALLOCATED:
        if (phase != CLIP_PHASE_ALLOC) {
            s->bad_replies++;
            return;
        }
        s->urb_alloc_wait_cycles += now - j->wait_since;
        if (q->count != j->make_count) {
            j->alloc_refused = true;
            if (q->count && urb_ready(s))   /* not what was asked: give them back */
                urb_handles(s, u, URB_OP_DEREFERENCE, q->handles, q->count);
        } else {
            for (uint32_t k = 0; k < q->count; k++)
                j->handle[j->make[k]] = q->handles[k];
        }
        break;
    case URB_OP_WRITE_DONE:
        if (phase != CLIP_PHASE_WRITE) {
            s->bad_replies++;
            return;
        }
        break;
    default:
        s->bad_replies++;
        return;
    }
    if (--j->pending == 0 && phase != CLIP_PHASE_ALLOC)
        s->urb_read_wait_cycles += now - j->wait_since;
}
