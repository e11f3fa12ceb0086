/* units/ds/ds.c - the Domain Shader stage; see ds.h. */
#include "units/ds/ds.h"

#include <stdio.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/stage_thread.h"
#include "units/common/state_packet.h"
#include "units/common/tessellation.h"
#include "units/common/thread_msg.h"
#include "units/common/thread_payload.h"
#include "units/common/urb.h"

#define DS_INVOCATION_COUNT 0x2308u     /* 64 bits (mmio.h) */
#define DS_FIXED_REGS 5u                /* R0-R4 of the SIMD8 payload */
#define DS_MAX_PATCH_ROWS 64u

enum ds_dispatch_mode { DS_SIMD4X2 = 0, DS_SIMD8_SINGLE_PATCH = 1, DS_SIMD8_SINGLE_OR_DUAL = 2 };

enum ds_phase { DS_IDLE = 0, DS_WAIT_URB, DS_DISPATCH, DS_RUN, DS_FINISH };

struct ds {
    struct ff_stage stage;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_constants constants;
    struct stage_space space;
    struct port *urb, *urb_reply;
    struct msg *outbox, *outbox_tail;

    /* 3DSTATE_DS */
    bool statistics, compute_w;
    uint32_t dispatch_mode, read_offset, read_length, grf_start;
    uint32_t urb_entries;           /* 3DSTATE_URB_DS DS Number of URB Entries (one slice) */

    /* the batch at the head of the input */
    uint32_t phase;                 /* enum ds_phase */
    uint32_t tag;
    uint32_t alloc_asked, alloc_got;
    bool read_asked, read_got, refused;
    uint32_t handle_count;
    uint32_t handles[TESS_BATCH_MAX_POINTS];
    uint8_t patch_data[DS_MAX_PATCH_ROWS][URB_ROW_BYTES];
    uint32_t patch_rows;
    uint32_t threads_total, dispatched, ended;
    uint64_t wait_since;

    uint64_t invocations;           /* DS_INVOCATION_COUNT */
    uint64_t batches, points, primitives, culled_batches, bad_batches, disabled_batches;
    uint64_t refused_allocations, unexpected_urb_replies, bad_state, simd4x2_threads;
    uint64_t grf_start_overlaps, bad_mmio, urb_wait_cycles, batch_beyond_allocation;
    uint32_t warned;
};

static const struct port_desc ds_ports[] = {
    { .name = "te", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_DOMAIN), .help = "state, domain batches and primitives from TE" },
    { .name = "gs", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE),
      .help = "the domain points' primitives (MSG_PRIMITIVE) and everything else, in order" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "DS thread requests to the subslices' TDs" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends from the URB (eot_ds)" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "output entry allocations, patch data reads, references" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "URB allocation and read replies" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct ds, f, m, h)
static const struct stat_desc ds_stats[] = {
    FF_STAGE_STATS("ff.", struct ds, stage),
    STAGE_THREADS_STATS("threads.", struct ds, threads),
    C("batches", batches, "batches", "domain batches shaded"),
    C("points", points, "points", "domain points shaded"),
    C("primitives", primitives, "primitives", "primitives sent to the GS"),
    C("ds_invocations", invocations, "points", "DS_INVOCATION_COUNT"),
    C("culled_batches", culled_batches, "batches", "batches of culled patches (no points)"),
    C("bad_batches", bad_batches, "batches", "malformed domain batches (dropped)"),
    C("disabled_batches", disabled_batches, "batches", "domain batches reaching a disabled DS"),
    C("refused_allocations", refused_allocations, "batches",
      "batches the URB could not give their output entries (dropped)"),
    C("unexpected_urb_replies", unexpected_urb_replies, "messages", "URB replies nobody asked for"),
    C("bad_state", bad_state, "packets", "3DSTATE_DS values out of range (clamped)"),
    C("simd4x2_threads", simd4x2_threads, "threads",
      "threads dispatched in the SIMD4x2 mode (two domain points each)"),
    C("grf_start_overlaps", grf_start_overlaps, "threads",
      "Dispatch GRF Start Register For URB Data inside the fixed payload or constants"),
    C("batch_beyond_allocation", batch_beyond_allocation, "batches",
      "batches of more points than the DS URB allocation has entries (dropped)"),
    C("bad_mmio", bad_mmio, "messages", "register messages too short to read"),
    C("urb_wait_cycles", urb_wait_cycles, "cycles",
      "cycles batches waited for their entries and patch data"),
    STAT_END
};

/* ---- URB requests --------------------------------------------------------------------- */

static struct msg *urb_request(struct unit *u, uint32_t op, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_DS;
    q->tag = tag;
    m->tag = tag;
    return m;
}

static void outbox_put(struct ds *s, struct msg *m)
{
    m->next = NULL;
    if (s->outbox_tail)
        s->outbox_tail->next = m;
    else
        s->outbox = m;
    s->outbox_tail = m;
}

static void outbox_flush(struct ds *s, struct unit *u)
{
    while (s->outbox && port_can_send(s->urb)) {
        struct msg *m = s->outbox;
        s->outbox = m->next;
        if (!s->outbox)
            s->outbox_tail = NULL;
        m->next = NULL;
        port_try_send(s->urb, m);
        unit_progress(u);
    }
}

/* Queues (de)references of handles[0..n), one per listed handle. */
static void urb_handles(struct ds *s, struct unit *u, uint32_t op, const uint32_t *handles, uint32_t n)
{
    for (uint32_t i = 0; i < n; i += URB_MAX_HANDLES_PER_MSG) {
        struct msg *m = urb_request(u, op, 0);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        for (uint32_t k = i; k < n && q->count < URB_MAX_HANDLES_PER_MSG; k++)
            q->handles[q->count++] = handles[k];
        outbox_put(s, m);
    }
}

/* ---- state and registers ------------------------------------------------------------------ */

static void ds_take_state(void *context, const struct cs_state_packet *p)
{
    struct unit *u = context;
    struct ds *s = unit_state(u);
    s->space = stage_space_of(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        stage_bases_take(&s->bases, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_DS: {
        const struct spec_3DSTATE_DS *v = cs_state_common(p);
        struct stage_kernel *k = &s->kernel;
        k->enable = v->Enable;
        k->kernel_start = v->KernelStartPointer;
        k->binding_table_entries = v->BindingTableEntryCount;
        k->scratch_base = v->ScratchSpaceBasePointer;
        k->per_thread_scratch = v->PerThreadScratchSpace;
        k->max_threads = v->MaximumNumberOfThreads + 1;
        k->simd = 8;
        k->priority = v->ThreadDispatchPriority;
        k->alternate_fp = v->FloatingPointMode != 0;
        k->illegal_opcode_exception = v->IllegalOpcodeExceptionEnable;
        k->software_exception = v->SoftwareExceptionEnable;
        s->statistics = v->StatisticsEnable;
        s->compute_w = v->ComputeWCoordinateEnable;
        s->dispatch_mode = v->DispatchMode;
        s->read_offset = v->PatchURBEntryReadOffset;
        s->read_length = v->PatchURBEntryReadLength;
        s->grf_start = v->DispatchGRFStartRegisterForURBData;
        if (s->read_length > DS_MAX_PATCH_ROWS) {
            s->bad_state++;
            unit_log(u, SIM_LOG_WARNING, "3DSTATE_DS Patch URB Entry Read Length %u (%u used)",
                     s->read_length, DS_MAX_PATCH_ROWS);
            s->read_length = DS_MAX_PATCH_ROWS;
        }
        break;
    }
    case SPEC_ID_3DSTATE_URB_DS: {
        const struct spec_3DSTATE_URB_DS *v = cs_state_common(p);
        s->urb_entries = v->DSNumberOfURBEntries;
        break;
    }
    case SPEC_ID_3DSTATE_CONSTANT_DS: {
        const struct spec_3DSTATE_CONSTANT_DS *v = cs_state_common(p);
        stage_constants_take(&s->constants, unit_sim(u), p, &s->bases, &v->ConstantBody);
        break;
    }
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_DS: {
        const struct spec_3DSTATE_BINDING_TABLE_POINTERS_DS *v = cs_state_common(p);
        s->kernel.binding_table = (uint32_t)v->PointerToDSBindingTable;
        break;
    }
    case SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_DS: {
        const struct spec_3DSTATE_SAMPLER_STATE_POINTERS_DS *v = cs_state_common(p);
        s->kernel.sampler_state = (uint32_t)v->PointerToDSSamplerState;
        break;
    }
    default:
        break;
    }
}

static void take_mmio(struct ds *s, struct msg *m)
{
    if (m->size < sizeof(struct cs_mmio)) {
        s->bad_mmio++;
        return;
    }
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    if (c->op == CS_MMIO_SYNC) {
        if (m->size < sizeof *c + sizeof(struct pipeline_registers)) {
            s->bad_mmio++;
            return;
        }
        struct pipeline_registers *r = (struct pipeline_registers *)c->data;
        r->value[PIPE_REG_DS_INVOCATIONS] = s->invocations;
        r->written |= 1ull << PIPE_REG_DS_INVOCATIONS;
    } else if (c->op == CS_MMIO_WRITE) {
        if (stage_constants_take_mmio(&s->constants, c->offset, c->value))
            return;
        pipeline_register_write64(&s->invocations, DS_INVOCATION_COUNT, c->offset, c->value);
    }
}

/* ---- batches ------------------------------------------------------------------------------ */

static uint32_t indices_per_primitive(uint32_t topology)
{
    switch (topology) {
    case TESS_OUTPUT_POINT: return 1;
    case TESS_OUTPUT_LINE: return 2;
    case TESS_OUTPUT_TRI_CW:
    case TESS_OUTPUT_TRI_CCW: return 3;
    default: return 0;
    }
}

static uint32_t output_prim_topology(uint32_t topology)
{
    return topology == TESS_OUTPUT_POINT ? PRIM_POINTLIST
         : topology == TESS_OUTPUT_LINE ? PRIM_LINELIST : PRIM_TRILIST;
}

static bool batch_valid(const struct tess_domain_batch *b)
{
    uint32_t per = indices_per_primitive(b->output_topology);
    if (!per || b->domain > TESS_DOMAIN_ISOLINE || b->point_count > TESS_BATCH_MAX_POINTS ||
        b->index_count > TESS_BATCH_MAX_INDICES || b->index_count % per)
        return false;
    for (uint32_t i = 0; i < b->index_count; i++)
        if (b->indices[i] >= b->point_count)
            return false;
    return true;
}

static void put32(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dword, uint32_t value)
{
    memcpy(&grf[reg][dword * 4], &value, 4);
}

static void putf(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dword, float value)
{
    memcpy(&grf[reg][dword * 4], &value, 4);
}

/* Domain points per thread: 2 under SIMD4x2 (Gen7's only mode: its
 * 3DSTATE_DS has no Dispatch Mode, genxml gen7.xml; seed 003 L12809-12812),
 * else 8. */
static uint32_t points_per_thread(const struct ds *s)
{
    return s->dispatch_mode == DS_SIMD4X2 ? 2u : 8u;
}

/* Where the pushed patch data starts and how many registers the payload
 * has, after `fixed` registers and the push constants. */
static uint32_t payload_layout(struct ds *s, uint32_t fixed, uint32_t *data_reg)
{
    uint32_t const_end = fixed + s->constants.regs;
    *data_reg = s->grf_start;
    if (s->read_length && *data_reg < const_end) {
        s->grf_start_overlaps++;
        *data_reg = const_end;
    }
    uint32_t regs = s->read_length ? *data_reg + s->read_length : const_end;
    return regs > THREAD_PAYLOAD_MAX_REGS ? THREAD_PAYLOAD_MAX_REGS : regs;
}

/* The SIMD4x2 payload of the batch's thread `t` (seed 003 L12833-12888):
 * R0.0 / R0.1 URB Return Handle 0 / 1 (the lower / upper channels), R0.2
 * zeros; R1.0-2 U, V, W of point 0, R1.3 the Patch URB Handle, R1.4-6 U, V,
 * W of point 1, R1.7 PrimitiveID; then the constants and the patch data,
 * not interleaved. Dispatch mask: DW3:0 for point 0, DW7:4 for point 1. */
static struct msg *build_thread_simd4x2(struct ds *s, struct unit *u,
                                        const struct tess_domain_batch *b, uint32_t t)
{
    uint32_t first = t * 2, n = b->point_count - first < 2 ? b->point_count - first : 2;
    uint32_t data_reg, regs = payload_layout(s, 2, &data_reg);
    struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &s->space, regs,
                                      n == 2 ? 0xffu : 0x0fu, t);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;
    put32(grf, 0, 2, 0);
    for (uint32_t c = 0; c < n; c++) {
        float uu = b->u[first + c], vv = b->v[first + c];
        put32(grf, 0, c, s->handles[first + c] & 0x3fffu);     /* U14 handle */
        putf(grf, 1, 4 * c, uu);
        putf(grf, 1, 4 * c + 1, vv);
        putf(grf, 1, 4 * c + 2, s->compute_w ? 1.0f - uu - vv : 0.0f);
    }
    put32(grf, 1, 3, b->patch_handle & 0x3fffu);
    put32(grf, 1, 7, b->primitive_id);
    stage_constants_write(&s->constants, grf, 2, regs);
    for (uint32_t r = 0; r < s->patch_rows && data_reg + r < regs; r++)
        memcpy(grf[data_reg + r], s->patch_data[r], URB_ROW_BYTES);
    s->simd4x2_threads++;
    return m;
}

/* The SIMD8 payload of the batch's thread `t` (seed 003 L12890-12990). */
static struct msg *build_thread(struct ds *s, struct unit *u, const struct tess_domain_batch *b,
                                uint32_t t)
{
    if (s->dispatch_mode == DS_SIMD4X2)
        return build_thread_simd4x2(s, u, b, t);
    uint32_t first = t * 8, n = b->point_count - first < 8 ? b->point_count - first : 8;
    uint32_t data_reg, regs = payload_layout(s, DS_FIXED_REGS, &data_reg);
    struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &s->space, regs,
                                      (1u << n) - 1u, t);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;
    put32(grf, 0, 0, b->patch_handle & 0xffffu);    /* R0.0 Patch URB Offset */
    put32(grf, 0, 1, b->primitive_id);              /* R0.1 PrimitiveID */
    put32(grf, 0, 2, 0);                            /* R0.2 delivered as zeros */
    for (uint32_t c = 0; c < n; c++) {
        float uu = b->u[first + c], vv = b->v[first + c];
        putf(grf, 1, c, uu);
        putf(grf, 2, c, vv);
        putf(grf, 3, c, s->compute_w ? 1.0f - uu - vv : 0.0f);
        put32(grf, 4, c, s->handles[first + c] & 0xffffu);
    }
    stage_constants_write(&s->constants, grf, DS_FIXED_REGS, regs);
    for (uint32_t r = 0; r < s->patch_rows && data_reg + r < regs; r++)
        memcpy(grf[data_reg + r], s->patch_data[r], URB_ROW_BYTES);
    return m;
}

static void dispatch_threads(struct ds *s, struct unit *u)
{
    if (s->phase != DS_DISPATCH)
        return;
    struct msg *head = port_peek(s->stage.config.in);
    if (!head || head->kind != MSG_DOMAIN)
        return;
    const struct tess_domain_batch *b = (const struct tess_domain_batch *)head->payload;
    while (s->dispatched < s->threads_total && stage_threads_can_dispatch(&s->threads, &s->kernel)) {
        struct msg *m = build_thread(s, u, b, s->dispatched);
        stage_threads_send(&s->threads, u, m);
        s->dispatched++;
    }
    if (s->dispatched == s->threads_total)
        s->phase = DS_RUN;
}

/* Drops what a batch that will not be shaded holds: its output entries and
 * its patch reference. */
static enum ff_stage_work_result drop_batch(struct ds *s, struct unit *u, uint32_t patch_handle)
{
    if (s->handle_count)
        urb_handles(s, u, URB_OP_DEREFERENCE, s->handles, s->handle_count);
    if (patch_handle != URB_HANDLE_NONE)
        urb_handles(s, u, URB_OP_DEREFERENCE, &patch_handle, 1);
    s->phase = DS_IDLE;
    s->handle_count = 0;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result start_batch(struct ds *s, struct unit *u,
                                             const struct tess_domain_batch *b)
{
    s->handle_count = 0;
    if (!s->kernel.enable) {
        s->disabled_batches++;
        return drop_batch(s, u, b->patch_handle);
    }
    if (!batch_valid(b)) {
        s->bad_batches++;
        if (!(s->warned & 1)) {
            s->warned |= 1;
            unit_log(u, SIM_LOG_WARNING, "malformed domain batch (%u points, %u indices, "
                     "topology %u) dropped", b->point_count, b->index_count, b->output_topology);
        }
        return drop_batch(s, u, b->patch_handle);
    }
    if (b->point_count > s->urb_entries) {
        /* all of a batch's entries are held until its primitives leave: a
         * batch larger than the allocation could never be shaded */
        s->batch_beyond_allocation++;
        if (!(s->warned & 2)) {
            s->warned |= 2;
            unit_log(u, SIM_LOG_WARNING, "a domain batch of %u points exceeds the DS URB "
                     "allocation of %u entries (dropped)", b->point_count, s->urb_entries);
        }
        return drop_batch(s, u, b->patch_handle);
    }
    if ((b->flags & TESS_BATCH_CULLED) || b->point_count == 0) {
        s->culled_batches++;
        return drop_batch(s, u, b->patch_handle);
    }
    if (s->statistics)
        s->invocations += b->point_count;   /* every incoming domain point (L12787-13030) */
    s->tag++;
    s->alloc_asked = s->alloc_got = 0;
    s->refused = false;
    for (uint32_t i = 0; i < b->point_count; i += URB_MAX_HANDLES_PER_MSG) {
        struct msg *m = urb_request(u, URB_OP_ALLOC, s->tag);
        uint32_t left = b->point_count - i;
        ((struct urb_msg *)m->payload)->count = left < URB_MAX_HANDLES_PER_MSG ? left
                                                                               : URB_MAX_HANDLES_PER_MSG;
        outbox_put(s, m);
        s->alloc_asked++;
    }
    s->read_asked = s->read_length > 0;
    s->read_got = false;
    s->patch_rows = 0;
    if (s->read_asked) {
        struct msg *m = urb_request(u, URB_OP_READ, s->tag);
        struct urb_msg *q = (struct urb_msg *)m->payload;
        q->count = 1;
        q->handles[0] = b->patch_handle;
        q->row = s->read_offset;
        q->rows = s->read_length;
        outbox_put(s, m);
    }
    s->wait_since = unit_cycle(u);
    s->phase = DS_WAIT_URB;
    return FF_STAGE_NOT_NOW;
}

/* The threads ended: references first, then the primitives. */
static enum ff_stage_work_result finish_batch(struct ds *s, struct unit *u,
                                              const struct tess_domain_batch *b)
{
    uint32_t uses[TESS_BATCH_MAX_POINTS] = { 0 };
    for (uint32_t i = 0; i < b->index_count; i++)
        uses[b->indices[i]]++;
    if (s->phase == DS_RUN) {
        uint32_t extra[TESS_BATCH_MAX_INDICES], n = 0;
        for (uint32_t p = 0; p < b->point_count; p++)
            for (uint32_t k = 1; k < uses[p]; k++)
                extra[n++] = s->handles[p];
        if (n)
            urb_handles(s, u, URB_OP_REFERENCE, extra, n);
        s->phase = DS_FINISH;
        outbox_flush(s, u);
    }
    if (s->outbox)
        return FF_STAGE_NOT_NOW;    /* the references leave before the primitives */
    uint32_t per = indices_per_primitive(b->output_topology);
    uint32_t prims = b->index_count / per;
    for (uint32_t k = 0; k < prims; k++) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
        struct primitive_packet *o = (struct primitive_packet *)m->payload;
        memset(o, 0, sizeof *o);
        o->topology = output_prim_topology(b->output_topology);
        o->flags = (k == 0 && (b->flags & TESS_BATCH_FIRST) ? PRIM_START : 0) |
                   (k + 1 == prims && (b->flags & TESS_BATCH_LAST) ? PRIM_END : 0);
        o->vertex_count = per;
        o->instance = b->instance;
        o->primitive_id = b->primitive_id;
        o->draw = b->draw;
        o->owner_handle = URB_HANDLE_NONE;
        for (uint32_t v = 0; v < per; v++)
            o->handles[v] = s->handles[b->indices[k * per + v]];
        ff_stage_emit(&s->stage, m);
    }
    s->primitives += prims;
    uint32_t unused[TESS_BATCH_MAX_POINTS], n = 0;
    for (uint32_t p = 0; p < b->point_count; p++)
        if (!uses[p])
            unused[n++] = s->handles[p];
    if (n)
        urb_handles(s, u, URB_OP_DEREFERENCE, unused, n);
    urb_handles(s, u, URB_OP_DEREFERENCE, &b->patch_handle, 1);
    s->batches++;
    s->points += b->point_count;
    s->phase = DS_IDLE;
    s->handle_count = 0;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result ds_work(void *context, struct msg *m)
{
    struct unit *u = context;
    struct ds *s = unit_state(u);
    if (m->kind == MSG_MMIO) {
        take_mmio(s, m);
        return FF_STAGE_PASS;
    }
    if (m->size < sizeof(struct tess_domain_batch)) {
        s->bad_batches++;
        return FF_STAGE_DONE;
    }
    const struct tess_domain_batch *b = (const struct tess_domain_batch *)m->payload;
    switch (s->phase) {
    case DS_IDLE:
        return start_batch(s, u, b);
    case DS_WAIT_URB:
        if (s->alloc_got < s->alloc_asked || (s->read_asked && !s->read_got))
            return FF_STAGE_NOT_NOW;
        s->urb_wait_cycles += unit_cycle(u) - s->wait_since;
        if (s->refused) {
            s->refused_allocations++;
            return drop_batch(s, u, b->patch_handle);
        }
        s->threads_total = (b->point_count + points_per_thread(s) - 1) / points_per_thread(s);
        s->dispatched = s->ended = 0;
        s->phase = DS_DISPATCH;
        return FF_STAGE_NOT_NOW;
    case DS_DISPATCH:
        return FF_STAGE_NOT_NOW;
    default:
        if (s->ended < s->threads_total)
            return FF_STAGE_NOT_NOW;
        return finish_batch(s, u, b);
    }
}

static void poll_urb(struct ds *s, struct unit *u)
{
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *r = (const struct urb_msg *)m->payload;
        bool ours = m->kind == MSG_URB && m->size >= sizeof *r && s->phase == DS_WAIT_URB &&
                    r->tag == s->tag;
        if (ours && r->op == URB_OP_ALLOCATED && s->alloc_got < s->alloc_asked) {
            s->alloc_got++;
            if (!r->count)
                s->refused = true;
            for (uint32_t k = 0; k < r->count && s->handle_count < TESS_BATCH_MAX_POINTS; k++)
                s->handles[s->handle_count++] = r->handles[k];
        } else if (ours && r->op == URB_OP_DATA && s->read_asked && !s->read_got) {
            s->read_got = true;
            uint32_t rows = r->rows < DS_MAX_PATCH_ROWS ? r->rows : DS_MAX_PATCH_ROWS;
            if (m->size < sizeof *r + (size_t)rows * URB_ROW_BYTES)
                rows = 0;
            memcpy(s->patch_data, r->data, (size_t)rows * URB_ROW_BYTES);
            s->patch_rows = rows;
        } else {
            s->unexpected_urb_replies++;
        }
        msg_free(unit_sim(u), m);
    }
}

static void poll_ends(struct ds *s, struct unit *u)
{
    uint64_t tag;
    while (stage_threads_poll_end(&s->threads, u, &tag))
        if (s->phase == DS_DISPATCH || s->phase == DS_RUN)
            s->ended++;
}

/* ---- the unit ------------------------------------------------------------------------------ */

static int ds_realize(struct unit *u, struct gt_error *err)
{
    struct ds *s = unit_state(u);
    static const struct ff_stage_id ids[] = {
        { SPEC_ID_STATE_BASE_ADDRESS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_CONSTANT_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_URB_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_DS, FF_STAGE_TAKE },
    };
    struct ff_stage_config cfg = {
        .in = unit_port(u, "te", 0), .out = unit_port(u, "gs", 0), .ids = ids,
        .id_count = sizeof ids / sizeof ids[0],
        .work_kinds = MSG_BIT(MSG_DOMAIN) | MSG_BIT(MSG_MMIO), .per_cycle = 1,
        .take_state = ds_take_state, .work = ds_work, .context = u,
    };
    if (!port_is_bound(cfg.out))
        cfg.out = NULL;
    if (ff_stage_init(&s->stage, &cfg, err))
        return -1;
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!port_is_bound(s->urb) || !port_is_bound(s->urb_reply))
        return gt_error_set(err, "ds: \"urb\" and \"urb_reply\" must be linked (output entries)");
    if (!port_is_bound(unit_port(u, "eot", 0)))
        return gt_error_set(err, "ds: \"eot\" must be linked (the URB's eot_ds): without it "
                            "no thread would ever end");
    return stage_threads_init(&s->threads, u, FFID_DS, err);
}

static void outbox_clear(struct ds *s, struct unit *u)
{
    while (s->outbox) {
        struct msg *m = s->outbox;
        s->outbox = m->next;
        msg_free(unit_sim(u), m);
    }
    s->outbox_tail = NULL;
}

static void ds_reset(struct unit *u)
{
    struct ds *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    memset(&s->stage.stats, 0, sizeof s->stage.stats);
    stage_threads_reset(&s->threads);
    outbox_clear(s, u);
    memset(&s->kernel, 0, sizeof s->kernel);
    memset(&s->bases, 0, sizeof s->bases);
    memset(&s->constants, 0, sizeof s->constants);
    memset(&s->space, 0, sizeof s->space);
    s->statistics = s->compute_w = false;
    s->dispatch_mode = DS_SIMD4X2;
    s->read_offset = s->read_length = s->grf_start = s->urb_entries = 0;
    s->phase = DS_IDLE;
    s->tag = 0;
    s->handle_count = s->patch_rows = 0;
    s->invocations = s->batches = s->points = s->primitives = 0;
    s->culled_batches = s->bad_batches = s->disabled_batches = 0;
    s->refused_allocations = s->unexpected_urb_replies = s->bad_state = 0;
    s->simd4x2_threads = s->grf_start_overlaps = s->bad_mmio = s->urb_wait_cycles = 0;
    s->batch_beyond_allocation = 0;
    s->warned = 0;
}

static enum unit_activity ds_tick(struct unit *u)
{
    struct ds *s = unit_state(u);
    poll_ends(s, u);
    poll_urb(s, u);
    dispatch_threads(s, u);
    /* references queued last cycle leave first: a batch in DS_FINISH waits
     * for them before its primitives go */
    outbox_flush(s, u);
    enum ff_stage_status st = ff_stage_tick(&s->stage, u);
    dispatch_threads(s, u);
    outbox_flush(s, u);
    /* DS_FINISH: the batch's primitives go once the outbox has emptied,
     * which no message announces (skl_tess stalled here) */
    if (ff_stage_pending(&s->stage) || s->outbox || s->phase == DS_DISPATCH ||
        s->phase == DS_FINISH || st == FF_STAGE_MORE)
        return UNIT_BUSY;
    return UNIT_IDLE;
}

static void ds_destroy(struct unit *u)
{
    struct ds *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    outbox_clear(s, u);
    stage_threads_release(&s->threads);
}

const struct unit_ops ds_ops = {
    .kind = "ds",
    .help = "Domain Shader stage (Gen7-Gen9): TE's domain batches shaded by SIMD8 or SIMD4x2 DS threads "
            "(U, V, W, patch handle, return handles, push constants, pushed patch data), one "
            "output URB entry per point, the batch's primitives to the GS once the threads "
            "ended, DS_INVOCATION_COUNT (seed 003 L12787-13030).",
    .state_size = sizeof(struct ds),
    .ports = ds_ports,
    .stats = ds_stats,
    .realize = ds_realize,
    .reset = ds_reset,
    .tick = ds_tick,
    .destroy = ds_destroy,
};
