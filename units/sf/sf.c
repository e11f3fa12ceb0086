/* units/sf/sf.c - see sf.h. */
#include "units/sf/sf.h"

#include <math.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/urb.h"
#include "units/sf/sf_setup.h"

#define SF_VIEWPORTS 16u
#define SF_CLIP_VIEWPORT_BYTES 64u      /* 16 dwords each (reference genxml) */

struct sf {
    struct unit *unit;
    struct ff_stage ff;
    struct port *urb, *urb_reply, *drained;
    /* state */
    uint64_t dynamic_base;
    bool viewport_transform;
    struct spec_SF_CLIP_VIEWPORT viewport[SF_VIEWPORTS];
    struct spec_SCISSOR_RECT scissor[SF_VIEWPORTS];
    struct sf_setup_state setup;    /* viewport-independent part */
    /* the head primitive's reads */
    bool reading;
    uint32_t reads_sent, reads_back;
    float position[PRIM_MAX_VERTICES][4];
    uint32_t viewport_index;
    /* what harnesses see */
    uint32_t draws_seen, last_draw;
    bool any_draw;
    struct sf_observed_draw observed[SF_OBSERVED_DRAWS];
    /* stats */
    uint64_t primitives, vertices, nan_discarded, draws, bad_primitives, stall_urb;
    uint64_t viewport_read_failures, scissor_read_failures;
    uint64_t triangles, rectangles, degenerate, face_culled, outside, not_set_up, stall_wm;
};

static const struct port_desc sf_ports[] = {
    { .name = "clip", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .help = "state, primitives and syncs from CLIP, in order" },
    { .name = "wm", .direction = PORT_OUT,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_SETUP),
      .flags = PORT_OPTIONAL, .help = "state, set-up objects and syncs on to WM" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "VUE reads and dereferences to the URB" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "the URB's answers" },
    { .name = "drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "syncs back to the CS (the end of the modelled pipeline)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct sf, f, m, h)
static const struct stat_desc sf_stats[] = {
    C("primitives", primitives, "primitives", "primitives received from CLIP"),
    C("vertices", vertices, "vertices", "vertex positions read"),
    C("nan_discarded", nan_discarded, "primitives",
      "objects with a NaN post-transform position, discarded (003 L14730)"),
    C("draws", draws, "draws", "draws whose primitives reached SF"),
    C("bad_primitives", bad_primitives, "primitives",
      "primitives without vertices or whose VUEs could not be read"),
    C("stall.urb", stall_urb, "events", "times the URB channel was full"),
    C("viewport_read_failures", viewport_read_failures, "commands",
      "SF_CLIP_VIEWPORT arrays that could not be read (zeros used)"),
    C("scissor_read_failures", scissor_read_failures, "commands",
      "SCISSOR_RECT arrays that could not be read (zeros used)"),
    C("setup.triangles", triangles, "objects", "triangles set up and sent to WM"),
    C("setup.rectangles", rectangles, "objects", "rectangles set up and sent to WM"),
    C("culled.degenerate", degenerate, "objects", "degenerate objects discarded (003 L14820)"),
    C("culled.face", face_culled, "objects", "triangles discarded by Cull Mode (003 L14834)"),
    C("culled.outside", outside, "objects",
      "objects wholly outside the clip rectangle (003 L14858-14870)"),
    C("not_set_up", not_set_up, "objects", "points and lines: their setup is not modelled yet"),
    C("stall.wm", stall_wm, "events", "times WM's channel was full"),
    FF_STAGE_STATS("ff.", struct sf, ff),
    STAT_END
};
#undef C

/* ---- state ------------------------------------------------------------------- */

static void take_state(void *context, const struct cs_state_packet *p)
{
    struct sf *s = context;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (v->DynamicStateBaseAddressModifyEnable)
            s->dynamic_base = v->DynamicStateBaseAddress;
        break;
    }
    case SPEC_ID_3DSTATE_SF: {
        const struct spec_3DSTATE_SF *v = cs_state_common(p);
        s->viewport_transform = v->ViewportTransformEnable;
        s->setup.subpixel_bits = v->VertexSubPixelPrecisionSelect ? 4 : 8;
        break;
    }
    case SPEC_ID_3DSTATE_RASTER: {
        /* Gen8/9 moved culling and the scissor enable here (reference genxml) */
        const struct spec_3DSTATE_RASTER *v = cs_state_common(p);
        s->setup.cull_mode = v->CullMode;
        s->setup.front_winding = v->FrontWinding;
        s->setup.scissor_enable = v->ScissorRectangleEnable;
        break;
    }
    case SPEC_ID_3DSTATE_DRAWING_RECTANGLE: {
        const struct spec_3DSTATE_DRAWING_RECTANGLE *v = cs_state_common(p);
        s->setup.origin_x = v->DrawingRectangleOriginX;
        s->setup.origin_y = v->DrawingRectangleOriginY;
        s->setup.clip_x_min = (int32_t)v->ClippedDrawingRectangleXMin;
        s->setup.clip_y_min = (int32_t)v->ClippedDrawingRectangleYMin;
        s->setup.clip_x_max = (int32_t)v->ClippedDrawingRectangleXMax;
        s->setup.clip_y_max = (int32_t)v->ClippedDrawingRectangleYMax;
        break;
    }
    case SPEC_ID_3DSTATE_MULTISAMPLE:
        s->setup.pixel_center = ((const struct spec_3DSTATE_MULTISAMPLE *)cs_state_common(p))
                                    ->PixelLocation == 0;   /* CENTER */
        break;
    case SPEC_ID_3DSTATE_SCISSOR_STATE_POINTERS: {
        const struct spec_3DSTATE_SCISSOR_STATE_POINTERS *v = cs_state_common(p);
        struct gpu_address_space as;
        gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                               (enum gpu_address_space_format)p->space_format, p->space_root);
        const struct spec_element *e = spec_element_by_id((int)p->gen, SPEC_ID_SCISSOR_RECT);
        for (uint32_t i = 0; i < SF_VIEWPORTS; i++) {
            uint32_t dw[2];
            struct gt_error err;
            memset(&s->scissor[i], 0, sizeof s->scissor[i]);
            if (gpu_address_space_read(&as, s->dynamic_base + v->ScissorRectPointer + 8u * i, dw,
                                       sizeof dw, &err) != 0 || !e || !e->unpack_common) {
                s->scissor_read_failures++;
                continue;
            }
            e->unpack_common(dw, &s->scissor[i]);
        }
        break;
    }
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP: {
        const struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP *v = cs_state_common(p);
        struct gpu_address_space as;
        gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                               (enum gpu_address_space_format)p->space_format, p->space_root);
        for (uint32_t i = 0; i < SF_VIEWPORTS; i++) {
            uint32_t dw[SF_CLIP_VIEWPORT_BYTES / 4];
            struct gt_error err;
            uint64_t at = s->dynamic_base + v->SFClipViewportPointer +
                          (uint64_t)i * SF_CLIP_VIEWPORT_BYTES;
            memset(&s->viewport[i], 0, sizeof s->viewport[i]);
            if (gpu_address_space_read(&as, at, dw, sizeof dw, &err) != 0) {
                s->viewport_read_failures++;
                continue;
            }
            const struct spec_element *e = spec_element_by_id((int)p->gen,
                                                              SPEC_ID_SF_CLIP_VIEWPORT);
            if (e && e->unpack_common)
                e->unpack_common(dw, &s->viewport[i]);
        }
        break;
    }
    default:
        break;
    }
}

/* ---- work ---------------------------------------------------------------------- */

static struct msg *urb_request(struct sf *s, uint32_t op, uint32_t handle, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_SF;
    q->tag = tag;
    q->count = 1;
    q->handles[0] = handle;
    q->row = 0;
    q->rows = op == URB_OP_READ ? 1 : 0;
    return m;
}

static void take_urb_replies(struct sf *s)
{
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *q = (const struct urb_msg *)m->payload;
        if (m->kind == MSG_URB && q->op == URB_OP_DATA && s->reading &&
            q->tag < PRIM_MAX_VERTICES && m->size >= sizeof *q + URB_ROW_BYTES) {
            float dw[8];
            memcpy(dw, q->data[0], sizeof dw);
            memcpy(s->position[q->tag], &dw[VUE_DW_POSITION_X], 4 * sizeof(float));
            if (q->tag == 0) {
                uint32_t vp;
                memcpy(&vp, &dw[VUE_DW_VIEWPORT_INDEX], 4);
                s->viewport_index = vp;
            }
            s->reads_back++;
        }
        msg_free(unit_sim(s->unit), m);
    }
}

/* The record of the primitive's draw: a new draw starts a record while
 * there is room; NULL once the records are full. */
static struct sf_observed_draw *observed_draw(struct sf *s, uint32_t draw)
{
    if (!s->any_draw || draw != s->last_draw) {
        s->any_draw = true;
        s->last_draw = draw;
        s->draws++;
        if (s->draws_seen < SF_OBSERVED_DRAWS) {
            struct sf_observed_draw *d = &s->observed[s->draws_seen++];
            memset(d, 0, sizeof *d);
            d->draw = draw;
            return d;
        }
        return NULL;
    }
    return s->draws_seen && s->observed[s->draws_seen - 1].draw == draw &&
                   s->draws <= SF_OBSERVED_DRAWS
               ? &s->observed[s->draws_seen - 1] : NULL;
}

/* Object setup (units/sf/sf_setup.h) of the primitive's objects: a
 * rectangle, a triangle, or a polygon from CLIP fanned from its first
 * vertex; each object set up goes to WM as MSG_SETUP. */
static void set_up(struct sf *s, const struct primitive_packet *p,
                   const struct sf_observed_vertex *v)
{
    uint32_t n = p->vertex_count;
    if (n < 3) {
        s->not_set_up++;
        return;
    }
    uint32_t vpi = s->viewport_index < SF_VIEWPORTS ? s->viewport_index : 0;
    struct sf_setup_state st = s->setup;
    if (!st.subpixel_bits)
        st.subpixel_bits = 8;
    st.viewport_extents_enable = s->viewport_transform;
    st.viewport_x_min = s->viewport[vpi].XMinViewPort;
    st.viewport_y_min = s->viewport[vpi].YMinViewPort;
    st.viewport_x_max = s->viewport[vpi].XMaxViewPort;
    st.viewport_y_max = s->viewport[vpi].YMaxViewPort;
    st.scissor_x_min = (int32_t)s->scissor[vpi].ScissorRectangleXMin;
    st.scissor_y_min = (int32_t)s->scissor[vpi].ScissorRectangleYMin;
    st.scissor_x_max = (int32_t)s->scissor[vpi].ScissorRectangleXMax;
    st.scissor_y_max = (int32_t)s->scissor[vpi].ScissorRectangleYMax;
    bool rectangle = p->topology == PRIM_RECTLIST;
    uint32_t objects = rectangle ? 1 : n - 2;
    for (uint32_t k = 0; k < objects; k++) {
        const struct sf_observed_vertex *a = &v[0], *b = &v[k + 1], *c = &v[k + 2];
        struct sf_setup_vertex sv[3] = {
            { a->screen[0], a->screen[1], a->screen[2], a->clip[3] },
            { b->screen[0], b->screen[1], b->screen[2], b->clip[3] },
            { c->screen[0], c->screen[1], c->screen[2], c->clip[3] },
        };
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_SETUP, sizeof(struct setup_primitive));
        struct setup_primitive *out = (struct setup_primitive *)m->payload;
        enum sf_setup_result r = sf_setup_object(&st, sv, rectangle, out);
        if (r != SF_SETUP_OK) {
            if (r == SF_SETUP_DEGENERATE)
                s->degenerate++;
            else if (r == SF_SETUP_CULLED_FACE)
                s->face_culled++;
            else
                s->outside++;
            msg_free(unit_sim(s->unit), m);
            continue;
        }
        out->primitive_id = p->primitive_id;
        out->viewport_index = vpi;
        if (rectangle)
            s->rectangles++;
        else
            s->triangles++;
        ff_stage_emit(&s->ff, m);
    }
}

/* The primitive's positions are in: divide, transform, record, release. */
static void finish_primitive(struct sf *s, const struct primitive_packet *p)
{
    uint32_t n = p->vertex_count;
    const struct spec_SF_CLIP_VIEWPORT *vp =
        &s->viewport[s->viewport_index < SF_VIEWPORTS ? s->viewport_index : 0];
    struct sf_observed_vertex v[PRIM_MAX_VERTICES];
    bool nan = false;
    for (uint32_t i = 0; i < n; i++) {
        const float *c = s->position[i];
        memcpy(v[i].clip, c, sizeof v[i].clip);
        /* perspective divide, then the viewport transform (003 L14732-14744) */
        float x = c[0] / c[3], y = c[1] / c[3], z = c[2] / c[3];
        if (s->viewport_transform) {
            x = vp->ViewportMatrixElementM00 * x + vp->ViewportMatrixElementM30;
            y = vp->ViewportMatrixElementM11 * y + vp->ViewportMatrixElementM31;
            z = vp->ViewportMatrixElementM22 * z + vp->ViewportMatrixElementM32;
        }
        v[i].screen[0] = x;
        v[i].screen[1] = y;
        v[i].screen[2] = z;
        if (isnan(x) || isnan(y) || isnan(z))
            nan = true;
    }
    s->primitives++;
    s->vertices += n;
    if (nan)
        s->nan_discarded++;     /* "unconditionally discarded" (L14730) */
    else
        set_up(s, p, v);
    struct sf_observed_draw *d = observed_draw(s, p->draw);
    if (d) {
        d->primitives++;
        if (d->kept < SF_OBSERVED_PRIMITIVES) {
            d->primitives_seen[d->kept].topology = p->topology;
            d->primitives_seen[d->kept].vertex_count = n;
            d->primitives_seen[d->kept].provoking = p->provoking;
            for (uint32_t i = 0; i < n && i < 3; i++)
                d->primitives_seen[d->kept].v[i] = v[i];
            d->kept++;
        }
    }
}

/* Drops the primitive's URB references (primitive.h): false while the URB
 * channel is full. */
static bool release(struct sf *s, const struct primitive_packet *p)
{
    if (!s->urb)
        return true;
    if (!port_can_send(s->urb)) {
        s->stall_urb++;
        return false;
    }
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_DEREFERENCE;
    q->client = URB_CLIENT_SF;
    if (p->owner_handle != URB_HANDLE_NONE) {
        q->count = 1;
        q->handles[0] = p->owner_handle;
    } else {
        q->count = p->vertex_count;
        memcpy(q->handles, p->handles, p->vertex_count * sizeof q->handles[0]);
    }
    port_try_send(s->urb, m);
    return true;
}

static enum ff_stage_work_result work_primitive(struct sf *s, const struct primitive_packet *p)
{
    uint32_t n = p->vertex_count;
    if (n == 0 || n > PRIM_MAX_VERTICES || !s->urb || !s->urb_reply) {
        s->bad_primitives++;
        return FF_STAGE_DONE;
    }
    if (!s->reading) {
        s->reading = true;
        s->reads_sent = s->reads_back = 0;
        s->viewport_index = 0;
    }
    while (s->reads_sent < n) {
        if (!port_can_send(s->urb)) {
            s->stall_urb++;
            return FF_STAGE_NOT_NOW;        /* the freed channel wakes the unit */
        }
        struct msg *r = urb_request(s, URB_OP_READ, p->handles[s->reads_sent], s->reads_sent);
        ((struct urb_msg *)r->payload)->row = (p->half_row >> s->reads_sent) & 1u;
        port_try_send(s->urb, r);
        s->reads_sent++;
    }
    if (s->reads_back < n)
        return FF_STAGE_NOT_NOW;            /* the replies wake the unit */
    if (!release(s, p))
        return FF_STAGE_NOT_NOW;
    finish_primitive(s, p);
    s->reading = false;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work_sync(struct sf *s, struct msg *m)
{
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (m->size < sizeof *c || c->op != CS_MMIO_SYNC || !s->drained)
        return FF_STAGE_PASS;
    if (!port_can_send(s->drained))
        return FF_STAGE_NOT_NOW;
    struct msg *done = msg_alloc(unit_sim(s->unit), MSG_MMIO, m->size);
    memcpy(done->payload, m->payload, m->size);
    ((struct cs_mmio *)done->payload)->op = CS_MMIO_SYNC_DONE;
    done->tag = m->tag;
    port_try_send(s->drained, done);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work(void *context, struct msg *m)
{
    struct sf *s = context;
    if (m->kind == MSG_PRIMITIVE) {
        if (m->size < sizeof(struct primitive_packet)) {
            s->bad_primitives++;
            return FF_STAGE_DONE;
        }
        return work_primitive(s, (const struct primitive_packet *)m->payload);
    }
    return work_sync(s, m);
}

/* ---- the unit ------------------------------------------------------------------ */

static int sf_realize(struct unit *u, struct gt_error *err)
{
    struct sf *s = unit_state(u);
    s->unit = u;
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    s->drained = unit_port(u, "drained", 0);
    if (!port_is_bound(s->urb))
        s->urb = NULL;
    if (!port_is_bound(s->urb_reply))
        s->urb_reply = NULL;
    if (!port_is_bound(s->drained))
        s->drained = NULL;
    static const struct ff_stage_id ids[] = {
        { SPEC_ID_STATE_BASE_ADDRESS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SF, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_RASTER, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_DRAWING_RECTANGLE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_MULTISAMPLE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SCISSOR_STATE_POINTERS, FF_STAGE_TAKE },
    };
    struct ff_stage_config c = {
        .in = unit_port(u, "clip", 0), .out = unit_port(u, "wm", 0),
        .ids = ids, .id_count = sizeof ids / sizeof ids[0],
        .work_kinds = MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO), .per_cycle = 1,
        .take_state = take_state, .work = work, .context = s,
    };
    return ff_stage_init(&s->ff, &c, err);
}

static void sf_reset(struct unit *u)
{
    struct sf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    s->dynamic_base = 0;
    s->viewport_transform = false;
    memset(s->viewport, 0, sizeof s->viewport);
    memset(s->scissor, 0, sizeof s->scissor);
    memset(&s->setup, 0, sizeof s->setup);
    /* state never programmed reads as zeros: Pixel Location 0 is CENTER,
     * Vertex SubPixel Precision Select 0 is 8 bits, Cull Mode 0 is BOTH */
    s->setup.pixel_center = true;
    s->setup.subpixel_bits = 8;
    s->reading = false;
    s->draws_seen = 0;
    s->any_draw = false;
}

static enum unit_activity sf_tick(struct unit *u)
{
    struct sf *s = unit_state(u);
    take_urb_replies(s);
    return ff_stage_activity(ff_stage_tick(&s->ff, u));
}

static void sf_destroy(struct unit *u)
{
    struct sf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
}

uint32_t sf_observed_draws(struct unit *u, const struct sf_observed_draw **draws)
{
    struct sf *s = unit_state(u);
    *draws = s->observed;
    return s->draws_seen;
}

const struct unit_ops sf_ops = {
    .kind = "sf",
    .help = "Strips and fans (setup), front half (seed 003 L14361-14744): reads each "
            "primitive's positions from the URB, divides and applies the viewport transform, "
            "drops the references, returns in-band syncs to the CS; setup is not modelled yet.",
    .state_size = sizeof(struct sf),
    .params = NULL,
    .ports = sf_ports,
    .stats = sf_stats,
    .realize = sf_realize,
    .reset = sf_reset,
    .tick = sf_tick,
    .destroy = sf_destroy,
};
