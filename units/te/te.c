/* units/te/te.c - the Tessellation Engine unit; see te.h. */
#include "units/te/te.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/primitive.h"
#include "units/common/tessellation.h"
#include "units/common/urb.h"
#include "units/te/tessellator.h"

enum patch_phase {
    PATCH_NONE = 0,         /* no header read out */
    PATCH_READING,          /* URB_OP_READ sent, waiting for its data */
    PATCH_READY,            /* the header is here */
};

struct te {
    uint32_t per_cycle;                 /* param */

    struct unit *unit;
    struct port *hs, *ds, *urb, *urb_reply;
    struct ff_stage stage;

    /* 3DSTATE_TE, 3DSTATE_HS / _DS Enable */
    bool enable, hs_enable, ds_enable;
    uint32_t mode, domain, topology, partitioning;
    float max_factor_odd, max_factor_not_odd;

    /* the patch at the head of the input */
    enum patch_phase phase;
    uint32_t tag, read_handle;
    uint64_t read_cycle;
    uint8_t header[URB_ROW_BYTES];

    /* URB messages waiting for the "urb" port, in order */
    struct msg *urb_queue, *urb_queue_tail;

    struct tess_result *result;         /* create(): large */
    uint32_t *seen;                     /* per point: the batch stamp that last took it */
    uint16_t *local;                    /* per point: its index in that batch */
    uint32_t stamp;
    uint32_t warned;

    uint64_t patches, culled_patches, domain_points, output_primitives, batches;
    uint64_t bad_factors, passed_through, bad_state, enable_mismatch, not_patch_list;
    uint64_t bad_primitives, bad_replies, urb_reads, urb_wait_cycles, references, dereferences;
};

static const struct param_desc te_params[] = {
    PARAM_U32_FIELD("per_cycle", struct te, per_cycle, 1, 1, 64,
                    "input messages (state, patches) handled per cycle"),
    PARAM_END
};

#define STAGE_KINDS (MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO))

static const struct port_desc te_ports[] = {
    { .name = "hs", .direction = PORT_IN, .msg_kinds = STAGE_KINDS,
      .help = "state, patches (MSG_PRIMITIVE) and in-band register traffic from HS" },
    { .name = "ds", .direction = PORT_OUT, .msg_kinds = STAGE_KINDS | MSG_BIT(MSG_DOMAIN),
      .help = "domain batches (MSG_DOMAIN), and what passes through, to DS" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "patch header reads and references (to the URB's client[i])" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "the URB's replies (its client_reply[i])" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct te, f, m, h)
static const struct stat_desc te_stats[] = {
    C("patches", patches, "patches", "patches tessellated (culled included)"),
    C("culled_patches", culled_patches, "patches", "patches culled: an outside factor <= 0 or NaN"),
    C("domain_points", domain_points, "points", "domain points generated"),
    C("output_primitives", output_primitives, "primitives", "points, lines or triangles generated"),
    C("batches", batches, "messages", "MSG_DOMAIN batches sent to DS"),
    C("bad_factors", bad_factors, "factors", "tessellation factors NaN, infinite or above the maximum"),
    C("passed_through", passed_through, "primitives", "primitives passed on with TE disabled"),
    C("bad_state", bad_state, "events", "3DSTATE_TE values the TE cannot use as programmed"),
    C("enable_mismatch", enable_mismatch, "patches",
      "patches met with HS, TE and DS not enabled together"),
    C("not_patch_list", not_patch_list, "primitives", "non-patch topologies with TE enabled"),
    C("bad_primitives", bad_primitives, "messages", "malformed primitives, dropped"),
    C("bad_replies", bad_replies, "messages", "URB replies not answering the read out"),
    C("urb_reads", urb_reads, "messages", "patch header reads"),
    C("urb_wait_cycles", urb_wait_cycles, "cycles", "cycles from a header read to its data"),
    C("references", references, "references", "URB references taken for extra batches"),
    C("dereferences", dereferences, "references", "URB references dropped (extra patch handles)"),
    FF_STAGE_STATS("ff.", struct te, stage),
    STAT_END
};
#undef C

static void warn_once(struct te *s, uint32_t bit, const char *what, uint32_t value)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    unit_log(s->unit, SIM_LOG_NOTE, "%s (%u); counted, further ones not logged", what, value);
}

/* ---- URB traffic ------------------------------------------------------------------- */

static void urb_flush(struct te *s)
{
    while (s->urb_queue && port_can_send(s->urb)) {
        struct msg *m = s->urb_queue;
        s->urb_queue = m->next;
        if (!s->urb_queue)
            s->urb_queue_tail = NULL;
        m->next = NULL;
        port_try_send(s->urb, m);
    }
}

static void urb_send(struct te *s, uint32_t op, uint32_t handle, uint32_t count, uint32_t rows)
{
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_HS;          /* the entry is in the HS's allocation */
    q->tag = s->tag;
    q->count = count;
    q->rows = rows;
    for (uint32_t i = 0; i < count; i++)
        q->handles[i] = handle;
    m->next = NULL;
    if (s->urb_queue_tail)
        s->urb_queue_tail->next = m;
    else
        s->urb_queue = m;
    s->urb_queue_tail = m;
}

/* `times` more (or fewer) readers of one entry, in messages of at most 32. */
static void urb_references(struct te *s, uint32_t op, uint32_t handle, uint32_t times)
{
    while (times) {
        uint32_t n = times < URB_MAX_HANDLES_PER_MSG ? times : URB_MAX_HANDLES_PER_MSG;
        urb_send(s, op, handle, n, 0);
        times -= n;
    }
}

static void take_replies(struct te *s)
{
    struct msg *m;
    while ((m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *r = (const struct urb_msg *)m->payload;
        if (m->kind != MSG_URB || m->size < sizeof *r + URB_ROW_BYTES || r->op != URB_OP_DATA ||
            s->phase != PATCH_READING || r->tag != s->tag || r->rows < 1 ||
            r->handles[0] != s->read_handle) {
            s->bad_replies++;
        } else {
            memcpy(s->header, r->data[0], URB_ROW_BYTES);
            s->phase = PATCH_READY;
            s->urb_wait_cycles += unit_cycle(s->unit) - s->read_cycle;
        }
        msg_free(unit_sim(s->unit), m);
        unit_progress(s->unit);
    }
}

/* ---- state ---------------------------------------------------------------------------- */

static void take_state(void *context, const struct cs_state_packet *p)
{
    struct te *s = context;
    switch (p->id) {
    case SPEC_ID_3DSTATE_TE: {
        const struct spec_3DSTATE_TE *v = cs_state_common(p);
        s->enable = v->TEEnable;
        s->mode = v->TEMode;
        s->domain = v->TEDomain;
        s->topology = v->OutputTopology;
        s->partitioning = v->Partitioning;
        s->max_factor_odd = v->MaximumTessellationFactorOdd;
        s->max_factor_not_odd = v->MaximumTessellationFactorNotOdd;
        break;
    }
    case SPEC_ID_3DSTATE_HS:
        s->hs_enable = ((const struct spec_3DSTATE_HS *)cs_state_common(p))->Enable;
        break;
    case SPEC_ID_3DSTATE_DS:
        s->ds_enable = ((const struct spec_3DSTATE_DS *)cs_state_common(p))->Enable;
        break;
    default:
        break;
    }
}

/* ---- a patch -------------------------------------------------------------------------- */

static float header_float(const struct te *s, uint32_t dword)
{
    float f;
    memcpy(&f, s->header + 4u * dword, sizeof f);
    return f;
}

/* The factors of the Patch Header (seed 003 L12403-12438). */
static struct tess_factors header_factors(const struct te *s)
{
    struct tess_factors f = { { 0 }, { 0 } };
    switch (s->domain) {
    case TESS_DOMAIN_QUAD:
        f.outer[0] = header_float(s, 7);        /* UEQ0 */
        f.outer[1] = header_float(s, 6);        /* VEQ0 */
        f.outer[2] = header_float(s, 5);        /* UEQ1 */
        f.outer[3] = header_float(s, 4);        /* VEQ1 */
        f.inner[0] = header_float(s, 3);        /* Inside U */
        f.inner[1] = header_float(s, 2);        /* Inside V */
        break;
    case TESS_DOMAIN_TRI:
        f.outer[0] = header_float(s, 7);        /* UEQ0 */
        f.outer[1] = header_float(s, 6);        /* VEQ0 */
        f.outer[2] = header_float(s, 5);        /* WEQ0 */
        f.inner[0] = header_float(s, 4);        /* Inside */
        break;
    default:
        f.outer[0] = header_float(s, 6);        /* Line Density */
        f.outer[1] = header_float(s, 7);        /* Line Detail */
        break;
    }
    return f;
}

/* What 3DSTATE_TE asks that the seed does not allow; counted once per patch. */
static bool state_unusable(const struct te *s)
{
    if (s->mode != 0 || s->domain > TESS_DOMAIN_ISOLINE || s->partitioning > TESS_PARTITION_EVEN_FRACTIONAL ||
        s->topology > TESS_OUTPUT_TRI_CCW)
        return true;
    /* QUAD and TRI: points or triangles; ISOLINE: lines or points (L12759-12786) */
    if (s->domain == TESS_DOMAIN_ISOLINE)
        return s->topology != TESS_OUTPUT_POINT && s->topology != TESS_OUTPUT_LINE;
    return s->topology == TESS_OUTPUT_LINE;
}

static struct tess_domain_batch *new_batch(struct te *s, const struct primitive_packet *p,
                                           uint32_t patch, uint32_t flags, struct msg **out)
{
    *out = msg_alloc(unit_sim(s->unit), MSG_DOMAIN, (uint32_t)sizeof(struct tess_domain_batch));
    struct tess_domain_batch *b = (struct tess_domain_batch *)(*out)->payload;
    memset(b, 0, sizeof *b);
    b->patch_handle = patch;
    b->flags = flags;
    b->domain = s->domain;
    b->output_topology = s->domain == TESS_DOMAIN_ISOLINE && s->topology != TESS_OUTPUT_POINT
                             ? TESS_OUTPUT_LINE : s->topology;
    b->instance = p->instance;
    b->primitive_id = p->primitive_id;
    b->draw = p->draw;
    return b;
}

static int by_value(const void *a, const void *b)
{
    uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    return (x > y) - (x < y);
}

/* Cuts the result into batches of whole primitives; returns how many. */
static uint32_t send_batches(struct te *s, const struct primitive_packet *p, uint32_t patch)
{
    const struct tess_result *r = s->result;
    uint32_t per = r->vertices_per_primitive ? r->vertices_per_primitive : 1;
    uint32_t primitives = r->index_count / per;
    uint32_t max_primitives = TESS_BATCH_MAX_INDICES / per;
    uint32_t count = 0;
    uint16_t globals[TESS_BATCH_MAX_POINTS];
    for (uint32_t first = 0; first < primitives;) {
        uint32_t points = 0, end = first;
        s->stamp++;
        while (end < primitives && end - first < max_primitives) {
            uint32_t fresh = 0;
            uint16_t add[3];
            for (uint32_t k = 0; k < per; k++) {
                uint16_t g = r->indices[end * per + k];
                bool known = s->seen[g] == s->stamp;
                for (uint32_t j = 0; j < fresh; j++)
                    known = known || add[j] == g;
                if (!known)
                    add[fresh++] = g;
            }
            if (points + fresh > TESS_BATCH_MAX_POINTS)
                break;
            for (uint32_t j = 0; j < fresh; j++) {
                s->seen[add[j]] = s->stamp;
                globals[points++] = add[j];
            }
            end++;
        }
        /* the batch's points in the tessellator's order */
        qsort(globals, points, sizeof globals[0], by_value);
        uint32_t flags = (first == 0 ? TESS_BATCH_FIRST : 0) | (end == primitives ? TESS_BATCH_LAST : 0);
        struct msg *m;
        struct tess_domain_batch *b = new_batch(s, p, patch, flags, &m);
        for (uint32_t i = 0; i < points; i++) {
            s->local[globals[i]] = (uint16_t)i;
            b->u[i] = r->u[globals[i]];
            b->v[i] = r->v[globals[i]];
        }
        b->point_count = points;
        for (uint32_t i = first * per; i < end * per; i++)
            b->indices[b->index_count++] = (uint8_t)s->local[r->indices[i]];
        ff_stage_emit(&s->stage, m);
        count++;
        first = end;
    }
    return count;
}

static enum ff_stage_work_result tessellate_patch(struct te *s, const struct primitive_packet *p,
                                                  uint32_t patch)
{
    struct tess_config config = {
        .domain = s->domain, .partitioning = s->partitioning, .output_topology = s->topology,
        .max_factor_odd = s->max_factor_odd, .max_factor_not_odd = s->max_factor_not_odd,
    };
    struct tess_factors factors = header_factors(s);
    tessellate(&config, &factors, s->result);
    const struct tess_result *r = s->result;
    s->patches++;
    s->bad_factors += r->bad_factors;
    if (r->bad_factors)
        warn_once(s, 0, "tessellation factor NaN, infinite or above the maximum", r->bad_factors);
    if (r->bad_config && !state_unusable(s)) {     /* else counted when the read went out */
        s->bad_state++;
        warn_once(s, 1, "3DSTATE_TE maximum tessellation factor out of range", r->bad_config);
    }
    uint32_t batches;
    if (r->culled || r->index_count == 0) {
        s->culled_patches += r->culled;
        struct msg *m;
        new_batch(s, p, patch, TESS_BATCH_FIRST | TESS_BATCH_LAST | TESS_BATCH_CULLED, &m);
        ff_stage_emit(&s->stage, m);
        batches = 1;
    } else {
        s->domain_points += r->point_count;
        s->output_primitives += r->index_count / r->vertices_per_primitive;
        batches = send_batches(s, p, patch);
    }
    s->batches += batches;
    /* the primitive's reference goes with the first batch; one more per further batch */
    if (batches > 1) {
        urb_references(s, URB_OP_REFERENCE, patch, batches - 1);
        s->references += batches - 1;
    }
    if (p->owner_handle == URB_HANDLE_NONE) {
        for (uint32_t i = 1; i < p->vertex_count && i < PRIM_MAX_VERTICES; i++) {
            urb_references(s, URB_OP_DEREFERENCE, p->handles[i], 1);
            s->dereferences++;
        }
    }
    urb_flush(s);
    s->phase = PATCH_NONE;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work(void *context, struct msg *m)
{
    struct te *s = context;
    if (m->kind != MSG_PRIMITIVE)
        return FF_STAGE_PASS;
    if (!s->enable) {
        s->passed_through++;
        return FF_STAGE_PASS;
    }
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    if (m->size < sizeof *p ||
        (p->owner_handle == URB_HANDLE_NONE && (p->vertex_count < 1 || p->vertex_count > PRIM_MAX_VERTICES))) {
        s->bad_primitives++;
        warn_once(s, 2, "malformed patch primitive dropped", m->size);
        return FF_STAGE_DONE;
    }
    uint32_t patch = p->owner_handle != URB_HANDLE_NONE ? p->owner_handle : p->handles[0];
    switch (s->phase) {
    case PATCH_NONE:
        if (!prim_patch_vertices(p->topology)) {
            s->not_patch_list++;
            warn_once(s, 3, "TE enabled and given a non-patch topology (UNDEFINED)", p->topology);
        }
        if (!s->hs_enable || !s->ds_enable) {
            s->enable_mismatch++;
            warn_once(s, 4, "HS, TE and DS not enabled together", s->hs_enable | s->ds_enable << 1);
        }
        if (state_unusable(s)) {
            s->bad_state++;
            warn_once(s, 5, "3DSTATE_TE domain/topology/partitioning/mode unusable",
                      s->domain | s->topology << 4 | s->partitioning << 8);
        }
        s->tag++;
        s->read_handle = patch;
        s->read_cycle = unit_cycle(s->unit);
        urb_send(s, URB_OP_READ, patch, 1, 1);
        urb_flush(s);
        s->urb_reads++;
        s->phase = PATCH_READING;
        return FF_STAGE_NOT_NOW;        /* the reply wakes the unit */
    case PATCH_READING:
        return FF_STAGE_NOT_NOW;
    case PATCH_READY:
    default:
        return tessellate_patch(s, p, patch);
    }
}

/* ---- the unit ------------------------------------------------------------------------- */

static const struct ff_stage_id te_ids[] = {
    { SPEC_ID_3DSTATE_TE, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_HS, FF_STAGE_TAKE },
    { SPEC_ID_3DSTATE_DS, FF_STAGE_TAKE },
};

static int te_create(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct te *s = unit_state(u);
    s->unit = u;
    s->result = gt_xcalloc(1, sizeof *s->result);
    s->seen = gt_xcalloc(TESS_MAX_POINTS, sizeof *s->seen);
    s->local = gt_xcalloc(TESS_MAX_POINTS, sizeof *s->local);
    return 0;
}

static int te_realize(struct unit *u, struct gt_error *err)
{
    struct te *s = unit_state(u);
    s->hs = unit_port(u, "hs", 0);
    s->ds = unit_port(u, "ds", 0);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!s->urb || !port_is_bound(s->urb) || !s->urb_reply || !port_is_bound(s->urb_reply))
        return gt_error_set(err, "%s: te needs \"urb\" and \"urb_reply\" linked to the URB "
                            "(it reads each patch's tessellation factors there)", unit_name(u));
    struct ff_stage_config config = {
        .in = s->hs, .out = s->ds, .ids = te_ids, .id_count = sizeof te_ids / sizeof te_ids[0],
        .work_kinds = MSG_BIT(MSG_PRIMITIVE), .per_cycle = s->per_cycle,
        .take_state = take_state, .work = work, .context = s,
    };
    return ff_stage_init(&s->stage, &config, err);
}

static void clear_urb_queue(struct te *s)
{
    while (s->urb_queue) {
        struct msg *m = s->urb_queue;
        s->urb_queue = m->next;
        msg_free(unit_sim(s->unit), m);
    }
    s->urb_queue_tail = NULL;
}

static void te_reset(struct unit *u)
{
    struct te *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    clear_urb_queue(s);
    s->enable = s->hs_enable = s->ds_enable = false;
    s->mode = s->domain = s->topology = s->partitioning = 0;
    s->max_factor_odd = s->max_factor_not_odd = 0.0f;
    s->phase = PATCH_NONE;
    s->warned = 0;
}

static enum unit_activity te_tick(struct unit *u)
{
    struct te *s = unit_state(u);
    take_replies(s);
    urb_flush(s);
    uint64_t before = s->stage.stats.work + s->stage.stats.forwarded + s->stage.stats.taken;
    enum ff_stage_status st = ff_stage_tick(&s->stage, u);
    if (s->stage.stats.work + s->stage.stats.forwarded + s->stage.stats.taken != before)
        unit_progress(u);
    if (s->urb_queue)
        return UNIT_BUSY;               /* the URB port refused: try again */
    return ff_stage_activity(st);
}

static void te_destroy(struct unit *u)
{
    struct te *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    clear_urb_queue(s);
    free(s->result);
    free(s->seen);
    free(s->local);
    s->result = NULL;
    s->seen = NULL;
    s->local = NULL;
}

const struct unit_ops te_ops = {
    .kind = "te",
    .help = "Tessellation Engine (Gen8/Gen9): reads each patch's tessellation factors from its "
            "URB entry and sends DS the domain points and primitives of the D3D11 reference "
            "tessellator (seed 003 L12717-12786)",
    .state_size = sizeof(struct te),
    .params = te_params,
    .ports = te_ports,
    .stats = te_stats,
    .create = te_create,
    .realize = te_realize,
    .reset = te_reset,
    .tick = te_tick,
    .destroy = te_destroy,
};
