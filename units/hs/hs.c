/* units/hs/hs.c - the Hull Shader stage; see hs.h. */
#include "units/hs/hs.h"

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
#include "units/common/thread_msg.h"
#include "units/common/urb.h"

#define HS_GROUPS 8u                    /* patch groups in flight */
#define HS_GROUP_PATCHES 8u             /* 8_PATCH */
#define HS_INVOCATION_COUNT 0x2300u     /* 64 bits (mmio.h) */
#define HS_INSTANCES_MAX 16u            /* Instance Count is 4 bits (genxml gen9.xml) */

enum hs_dispatch_mode { HS_SINGLE_PATCH = 0, HS_DUAL_PATCH = 1, HS_8_PATCH = 2 };

enum hs_group_state { HS_GROUP_FREE = 0, HS_GROUP_FILLING, HS_GROUP_DISPATCHING, HS_GROUP_RUNNING,
                      HS_GROUP_DONE };

struct hs_group {
    uint32_t state;                 /* enum hs_group_state */
    uint32_t mode;                  /* the dispatch mode it was built for */
    uint32_t patches;
    uint32_t instances, dispatched, ended;
    uint32_t instance_shift;        /* where R0.2 carries the Instance Number */
    struct primitive_packet input[HS_GROUP_PATCHES];
    uint32_t patch_handle[HS_GROUP_PATCHES];
};

struct hs {
    struct ff_stage stage;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_constants constants;
    struct stage_space space;
    struct port *urb, *urb_reply;
    struct msg *outbox, *outbox_tail;   /* URB requests not sent yet, in order */

    /* 3DSTATE_HS */
    bool statistics, include_primitive_id, include_vertex_handles;
    uint32_t instances, dispatch_mode, vertex_read_length;
    uint32_t instance_shift;        /* R0.2 Instance Number: 22:16 on Gen7, 23:17 after */

    struct hs_group groups[HS_GROUPS];
    uint32_t head, count;           /* ring of groups, oldest first */
    bool alloc_pending, alloc_ready;
    uint32_t alloc_tag, alloc_handle;
    uint64_t alloc_since;

    uint64_t invocations;           /* HS_INVOCATION_COUNT */
    uint64_t patches, dispatches, bad_patches, refused_allocations, non_patch_primitives;
    uint64_t unexpected_urb_replies, bad_state, unsupported_pushed_icps, dual_patch_icp_overflow;
    uint64_t bad_mmio, alloc_wait_cycles;
    uint32_t warned;
};

static const struct port_desc hs_ports[] = {
    { .name = "vs", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE), .help = "state, patches and register traffic from the VS" },
    { .name = "te", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE),
      .help = "patches (MSG_PRIMITIVE, owner_handle = the patch entry) and everything else, in order" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "HS thread requests to the subslices' TDs" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends from the URB (eot_hs); required" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "patch entry allocations and input vertex dereferences" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .help = "URB allocation replies" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct hs, f, m, h)
static const struct stat_desc hs_stats[] = {
    FF_STAGE_STATS("ff.", struct hs, stage),
    STAGE_THREADS_STATS("threads.", struct hs, threads),
    C("patches", patches, "patches", "patches sent to TE"),
    C("dispatches", dispatches, "groups", "patch groups dispatched (Instance Count threads each)"),
    C("hs_invocations", invocations, "patches", "HS_INVOCATION_COUNT"),
    C("bad_patches", bad_patches, "primitives",
      "patches whose vertex count is not their PATCHLIST_n's (dropped)"),
    C("refused_allocations", refused_allocations, "patches",
      "patches the URB could give no entry (dropped)"),
    C("non_patch_primitives", non_patch_primitives, "primitives",
      "non-patch topologies reaching an enabled HS (passed on)"),
    C("unexpected_urb_replies", unexpected_urb_replies, "messages", "URB replies nobody asked for"),
    C("bad_state", bad_state, "packets", "3DSTATE_HS values out of range (clamped)"),
    C("unsupported_pushed_icps", unsupported_pushed_icps, "groups",
      "dispatches whose pushed ICP data is not modelled (handles only)"),
    C("dual_patch_icp_overflow", dual_patch_icp_overflow, "patches",
      "DUAL_PATCH patches of more than 4 ICPs (first 4 handles passed)"),
    C("bad_mmio", bad_mmio, "messages", "register messages too short to read"),
    C("alloc_wait_cycles", alloc_wait_cycles, "cycles", "cycles patches waited for their URB entry"),
    STAT_END
};

/* ---- URB requests --------------------------------------------------------------------- */

static struct msg *urb_request(struct unit *u, uint32_t op, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_HS;
    q->tag = tag;
    m->tag = tag;
    return m;
}

static void outbox_put(struct hs *s, struct msg *m)
{
    m->next = NULL;
    if (s->outbox_tail)
        s->outbox_tail->next = m;
    else
        s->outbox = m;
    s->outbox_tail = m;
}

static void outbox_flush(struct hs *s, struct unit *u)
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

/* Dereferences the URB references a primitive owns (primitive.h). */
static void release_primitive(struct hs *s, struct unit *u, const struct primitive_packet *p)
{
    struct msg *m = urb_request(u, URB_OP_DEREFERENCE, 0);
    struct urb_msg *q = (struct urb_msg *)m->payload;
    if (p->owner_handle != URB_HANDLE_NONE) {
        q->handles[q->count++] = p->owner_handle;
    } else {
        uint32_t n = p->vertex_count < PRIM_MAX_VERTICES ? p->vertex_count : PRIM_MAX_VERTICES;
        for (uint32_t i = 0; i < n; i++)
            q->handles[q->count++] = p->handles[i];
    }
    if (q->count)
        outbox_put(s, m);
    else
        msg_free(unit_sim(u), m);
}

/* ---- state and registers ------------------------------------------------------------------ */

static void take_state(struct hs *s, struct unit *u, const struct cs_state_packet *p)
{
    s->space = stage_space_of(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        stage_bases_take(&s->bases, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_HS: {
        const struct spec_3DSTATE_HS *v = cs_state_common(p);
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
        s->include_primitive_id = v->IncludePrimitiveID;
        s->include_vertex_handles = v->IncludeVertexHandles;
        s->vertex_read_length = v->VertexURBEntryReadLength;
        /* Instance Count is the threads per patch minus one (4 bits) */
        s->instances = v->InstanceCount + 1;
        if (s->instances > HS_INSTANCES_MAX) {
            s->bad_state++;
            unit_log(u, SIM_LOG_WARNING, "3DSTATE_HS Instance Count %u out of range (16 used)",
                     v->InstanceCount);
            s->instances = HS_INSTANCES_MAX;
        }
        /* Gen7 (Ivy Bridge class, as ValleyView) delivers the Instance Number
         * in R0.2 bits 22:16, later generations in 23:17 (seed 003 L12472-
         * 12473; the Gen7 position is public fact from Mesa's vec4 TCS
         * generator, generate_tcs_get_instance_id: IVB/BYT read 22:16). Gen7
         * has no Dispatch Mode field (genxml gen7.xml): SINGLE_PATCH. */
        s->instance_shift = p->gen == 7 ? 16u : 17u;
        s->dispatch_mode = v->DispatchMode;
        if (s->dispatch_mode > HS_8_PATCH || (s->dispatch_mode == HS_8_PATCH && p->gen < 9)) {
            s->bad_state++;
            unit_log(u, SIM_LOG_WARNING, "3DSTATE_HS Dispatch Mode %u not valid on gen %u "
                     "(SINGLE_PATCH used)", v->DispatchMode, p->gen);
            s->dispatch_mode = HS_SINGLE_PATCH;
        }
        break;
    }
    case SPEC_ID_3DSTATE_CONSTANT_HS: {
        const struct spec_3DSTATE_CONSTANT_HS *v = cs_state_common(p);
        stage_constants_take(&s->constants, unit_sim(u), p, &s->bases, &v->ConstantBody);
        break;
    }
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_HS: {
        const struct spec_3DSTATE_BINDING_TABLE_POINTERS_HS *v = cs_state_common(p);
        s->kernel.binding_table = (uint32_t)v->PointerToHSBindingTable;
        break;
    }
    case SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_HS: {
        const struct spec_3DSTATE_SAMPLER_STATE_POINTERS_HS *v = cs_state_common(p);
        s->kernel.sampler_state = (uint32_t)v->PointerToHSSamplerState;
        break;
    }
    default:
        break;
    }
}

static void take_mmio(struct hs *s, struct msg *m)
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
        r->value[PIPE_REG_HS_INVOCATIONS] = s->invocations;
        r->written |= 1ull << PIPE_REG_HS_INVOCATIONS;
    } else if (c->op == CS_MMIO_WRITE) {
        if (stage_constants_take_mmio(&s->constants, c->offset, c->value))
            return;
        pipeline_register_write64(&s->invocations, HS_INVOCATION_COUNT, c->offset, c->value);
    }
}

/* ---- patch groups ------------------------------------------------------------------------- */

static uint32_t group_capacity(uint32_t mode)
{
    return mode == HS_8_PATCH ? 8u : mode == HS_DUAL_PATCH ? 2u : 1u;
}

static struct hs_group *group_at(struct hs *s, uint32_t i)
{
    return &s->groups[(s->head + i) % HS_GROUPS];
}

/* The group patches go into now, or NULL when the ring is full. */
static struct hs_group *filling_group(struct hs *s)
{
    if (s->count) {
        struct hs_group *g = group_at(s, s->count - 1);
        if (g->state == HS_GROUP_FILLING)
            return g;
    }
    if (s->count == HS_GROUPS)
        return NULL;
    struct hs_group *g = group_at(s, s->count++);
    memset(g, 0, sizeof *g);
    g->state = HS_GROUP_FILLING;
    g->mode = s->dispatch_mode;
    g->instances = s->instances ? s->instances : 1;
    g->instance_shift = s->instance_shift;
    return g;
}

static void close_filling(struct hs *s)
{
    if (!s->count)
        return;
    struct hs_group *g = group_at(s, s->count - 1);
    if (g->state != HS_GROUP_FILLING)
        return;
    if (g->patches) {
        g->state = HS_GROUP_DISPATCHING;
        s->dispatches++;
        if (s->vertex_read_length)
            s->unsupported_pushed_icps++;
    } else {
        g->state = HS_GROUP_FREE;   /* reserved for a patch that was then dropped */
        s->count--;
    }
}

static void put32(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dword, uint32_t value)
{
    memcpy(&grf[reg][dword * 4], &value, 4);
}

static uint32_t get32(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dword)
{
    uint32_t v;
    memcpy(&v, &grf[reg][dword * 4], 4);
    return v;
}

/* The registers of the fixed payload (before the push constants). */
static uint32_t fixed_regs(const struct hs *s, const struct hs_group *g)
{
    uint32_t icps = 0;
    for (uint32_t p = 0; p < g->patches; p++)
        if (g->input[p].vertex_count > icps)
            icps = g->input[p].vertex_count;
    switch (g->mode) {
    case HS_DUAL_PATCH:
        return 1 + (s->include_primitive_id ? 1 : 0) + (s->include_vertex_handles ? 1 : 0);
    case HS_8_PATCH:
        return 2 + (s->include_primitive_id ? 1 : 0) + (s->include_vertex_handles ? icps : 0);
    default:
        return 1 + (s->include_vertex_handles ? (icps + 7) / 8 : 0);
    }
}

/* The payload of the group's thread for `instance` (seed 003 L12450-12660). */
static void fill_payload(struct hs *s, const struct hs_group *g, uint32_t instance,
                         struct eu_dispatch *d)
{
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;
    /* R0.2[23:17] Instance Number, every mode ([22:16] on Gen7) */
    put32(grf, 0, 2, get32(grf, 0, 2) | (instance & 0x7fu) << g->instance_shift);
    uint32_t r = 1;
    switch (g->mode) {
    case HS_DUAL_PATCH:
        for (uint32_t p = 0; p < g->patches; p++)
            put32(grf, 0, p, g->patch_handle[p] & 0xffffu);
        if (s->include_primitive_id) {
            for (uint32_t p = 0; p < g->patches; p++)
                put32(grf, r, 4 * p, g->input[p].primitive_id);
            r++;
        }
        if (s->include_vertex_handles) {
            for (uint32_t p = 0; p < g->patches; p++)
                for (uint32_t k = 0; k < g->input[p].vertex_count && k < 4; k++)
                    put32(grf, r, 4 * p + k, g->input[p].handles[k] & 0xffffu);
            r++;
        }
        break;
    case HS_8_PATCH: {
        for (uint32_t p = 0; p < g->patches; p++)
            put32(grf, 1, p, g->patch_handle[p] & 0xffffu);
        r = 2;
        if (s->include_primitive_id) {
            for (uint32_t p = 0; p < g->patches; p++)
                put32(grf, r, p, g->input[p].primitive_id);
            r++;
        }
        if (s->include_vertex_handles) {
            uint32_t icps = fixed_regs(s, g) - r;
            for (uint32_t k = 0; k < icps; k++, r++)
                for (uint32_t p = 0; p < g->patches; p++)
                    if (k < g->input[p].vertex_count)
                        put32(grf, r, p, g->input[p].handles[k] & 0xffffu);
        }
        break;
    }
    default:
        put32(grf, 0, 0, g->patch_handle[0] & 0xffffu);
        put32(grf, 0, 1, g->input[0].primitive_id);
        if (s->include_vertex_handles) {
            uint32_t n = g->input[0].vertex_count;
            for (uint32_t k = 0; k < n; k++)
                put32(grf, 1 + k / 8, k % 8, g->input[0].handles[k] & 0xffffu);
            r += (n + 7) / 8;
        }
        break;
    }
    stage_constants_write(&s->constants, grf, r, d->grf_count);
}

static uint32_t dispatch_mask(const struct hs_group *g)
{
    switch (g->mode) {
    case HS_DUAL_PATCH:
        return g->patches > 1 ? 0xffu : 0x0fu;
    case HS_8_PATCH:
        return (1u << g->patches) - 1u;
    default:
        return 0xffu;
    }
}

static void dispatch_groups(struct hs *s, struct unit *u)
{
    for (uint32_t i = 0; i < s->count; i++) {
        struct hs_group *g = group_at(s, i);
        if (g->state != HS_GROUP_DISPATCHING)
            continue;
        while (g->dispatched < g->instances) {
            if (!stage_threads_can_dispatch(&s->threads, &s->kernel))
                return;
            uint32_t regs = fixed_regs(s, g) + s->constants.regs;
            uint64_t tag = (uint64_t)((g - s->groups));
            struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &s->space,
                                              regs, dispatch_mask(g), tag);
            fill_payload(s, g, g->dispatched, (struct eu_dispatch *)m->payload);
            stage_threads_send(&s->threads, u, m);
            g->dispatched++;
        }
        g->state = HS_GROUP_RUNNING;
    }
}

/* Patches of finished groups leave for TE in order. */
static void retire_groups(struct hs *s, struct unit *u)
{
    while (s->count && group_at(s, 0)->state == HS_GROUP_DONE) {
        struct hs_group *g = group_at(s, 0);
        for (uint32_t p = 0; p < g->patches; p++) {
            struct msg *m = msg_alloc(unit_sim(u), MSG_PRIMITIVE, (uint32_t)sizeof(struct primitive_packet));
            struct primitive_packet *out = (struct primitive_packet *)m->payload;
            *out = g->input[p];
            out->vertex_count = 1;
            out->provoking = 0;
            out->new_vertices = 0;
            memset(out->handles, 0, sizeof out->handles);
            out->handles[0] = g->patch_handle[p];
            out->owner_handle = g->patch_handle[p];
            ff_stage_emit(&s->stage, m);
            release_primitive(s, u, &g->input[p]);
            s->patches++;
        }
        g->state = HS_GROUP_FREE;
        s->head = (s->head + 1) % HS_GROUPS;
        s->count--;
    }
}

/* ---- the input ------------------------------------------------------------------------------ */

static enum ff_stage_work_result take_patch(struct hs *s, struct unit *u, struct msg *m)
{
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    uint32_t n = prim_patch_vertices(p->topology);
    if (p->vertex_count != n || p->owner_handle != URB_HANDLE_NONE) {
        s->bad_patches++;
        if (!(s->warned & 1)) {
            s->warned |= 1;
            unit_log(u, SIM_LOG_WARNING, "a PATCHLIST_%u primitive with %u vertices dropped", n,
                     p->vertex_count);
        }
        release_primitive(s, u, p);
        return FF_STAGE_DONE;
    }
    struct hs_group *g = filling_group(s);
    if (g && g->mode != s->dispatch_mode) {
        close_filling(s);
        g = filling_group(s);
    }
    if (!g)
        return FF_STAGE_NOT_NOW;
    if (!s->alloc_pending) {
        s->alloc_pending = true;
        s->alloc_ready = false;
        s->alloc_since = unit_cycle(u);
        struct msg *a = urb_request(u, URB_OP_ALLOC, ++s->alloc_tag);
        ((struct urb_msg *)a->payload)->count = 1;
        outbox_put(s, a);
        return FF_STAGE_NOT_NOW;
    }
    if (!s->alloc_ready)
        return FF_STAGE_NOT_NOW;
    s->alloc_pending = s->alloc_ready = false;
    s->alloc_wait_cycles += unit_cycle(u) - s->alloc_since;
    if (s->alloc_handle == URB_HANDLE_NONE) {
        s->refused_allocations++;
        release_primitive(s, u, p);
        close_filling(s);
        return FF_STAGE_DONE;
    }
    if (g->mode == HS_DUAL_PATCH && n > 4 && s->include_vertex_handles)
        s->dual_patch_icp_overflow++;
    g->input[g->patches] = *p;
    g->patch_handle[g->patches] = s->alloc_handle;
    g->patches++;
    if (s->statistics)
        s->invocations++;   /* "the number of patches processed by the HS stage" */
    if (g->patches >= group_capacity(g->mode))
        close_filling(s);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result hs_work(void *context, struct msg *m)
{
    struct unit *u = context;
    struct hs *s = unit_state(u);
    if (m->kind == MSG_PRIMITIVE && m->size >= sizeof(struct primitive_packet) && s->kernel.enable) {
        const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
        if (prim_patch_vertices(p->topology))
            return take_patch(s, u, m);
    }
    /* anything else waits for the patches ahead of it */
    close_filling(s);
    if (s->count)
        return FF_STAGE_NOT_NOW;
    if (m->kind == MSG_STATE && m->size >= sizeof(struct cs_state_packet)) {
        take_state(s, u, (const struct cs_state_packet *)m->payload);
    } else if (m->kind == MSG_MMIO) {
        take_mmio(s, m);
    } else if (m->kind == MSG_PRIMITIVE && s->kernel.enable) {
        /* "only patchlist topologies are allowed" when HS/TE/DS are enabled */
        s->non_patch_primitives++;
    }
    return FF_STAGE_PASS;
}

static void poll_urb(struct hs *s, struct unit *u)
{
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *r = (const struct urb_msg *)m->payload;
        if (m->kind == MSG_URB && m->size >= sizeof *r && r->op == URB_OP_ALLOCATED &&
            s->alloc_pending && !s->alloc_ready && r->tag == s->alloc_tag) {
            s->alloc_ready = true;
            s->alloc_handle = r->count ? r->handles[0] : URB_HANDLE_NONE;
        } else {
            s->unexpected_urb_replies++;
        }
        msg_free(unit_sim(u), m);
    }
}

static void poll_ends(struct hs *s, struct unit *u)
{
    uint64_t tag;
    while (stage_threads_poll_end(&s->threads, u, &tag)) {
        struct hs_group *g = &s->groups[tag % HS_GROUPS];
        if (g->state != HS_GROUP_RUNNING && g->state != HS_GROUP_DISPATCHING)
            continue;
        if (++g->ended >= g->instances && g->dispatched >= g->instances)
            g->state = HS_GROUP_DONE;
    }
}

/* ---- the unit ------------------------------------------------------------------------------ */

static int hs_realize(struct unit *u, struct gt_error *err)
{
    struct hs *s = unit_state(u);
    /* every state packet goes through work(): it must not overtake patches in flight */
    struct ff_stage_id ids[SPEC_ID_COUNT];
    uint32_t n = 0;
    for (uint32_t id = 1; id < SPEC_ID_COUNT; id++)
        ids[n++] = (struct ff_stage_id){ id, FF_STAGE_WORK };
    struct ff_stage_config cfg = {
        .in = unit_port(u, "vs", 0), .out = unit_port(u, "te", 0), .ids = ids, .id_count = n,
        .work_kinds = ~0u, .per_cycle = 1, .work = hs_work, .context = u,
    };
    if (!port_is_bound(cfg.out))
        cfg.out = NULL;
    if (ff_stage_init(&s->stage, &cfg, err))
        return -1;
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!port_is_bound(s->urb) || !port_is_bound(s->urb_reply))
        return gt_error_set(err, "hs: \"urb\" and \"urb_reply\" must be linked (patch entries)");
    if (!port_is_bound(unit_port(u, "eot", 0)))
        return gt_error_set(err, "hs: \"eot\" must be linked (the URB's eot_hs): without it "
                            "no thread would ever end");
    return stage_threads_init(&s->threads, u, FFID_HS, err);
}

static void outbox_clear(struct hs *s, struct unit *u)
{
    while (s->outbox) {
        struct msg *m = s->outbox;
        s->outbox = m->next;
        msg_free(unit_sim(u), m);
    }
    s->outbox_tail = NULL;
}

static void hs_reset(struct unit *u)
{
    struct hs *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    memset(&s->stage.stats, 0, sizeof s->stage.stats);
    stage_threads_reset(&s->threads);
    outbox_clear(s, u);
    memset(&s->kernel, 0, sizeof s->kernel);
    memset(&s->bases, 0, sizeof s->bases);
    memset(&s->constants, 0, sizeof s->constants);
    memset(&s->space, 0, sizeof s->space);
    memset(s->groups, 0, sizeof s->groups);
    s->head = s->count = 0;
    s->statistics = s->include_primitive_id = s->include_vertex_handles = false;
    s->instances = 1;
    s->dispatch_mode = HS_SINGLE_PATCH;
    s->instance_shift = 17;
    s->vertex_read_length = 0;
    s->alloc_pending = s->alloc_ready = false;
    s->alloc_tag = 0;
    s->invocations = s->patches = s->dispatches = s->bad_patches = 0;
    s->refused_allocations = s->non_patch_primitives = s->unexpected_urb_replies = 0;
    s->bad_state = s->unsupported_pushed_icps = s->dual_patch_icp_overflow = 0;
    s->bad_mmio = s->alloc_wait_cycles = 0;
    s->warned = 0;
}

static enum unit_activity hs_tick(struct unit *u)
{
    struct hs *s = unit_state(u);
    poll_ends(s, u);
    poll_urb(s, u);
    enum ff_stage_status st = ff_stage_tick(&s->stage, u);
    /* no more input waiting: a partly filled group goes now */
    if (!port_peek(s->stage.config.in) && !s->alloc_pending)
        close_filling(s);
    dispatch_groups(s, u);
    retire_groups(s, u);
    outbox_flush(s, u);
    bool dispatching = false;
    for (uint32_t i = 0; i < s->count; i++)
        dispatching = dispatching || group_at(s, i)->state == HS_GROUP_DISPATCHING;
    if (ff_stage_pending(&s->stage) || s->outbox || dispatching || st == FF_STAGE_MORE)
        return UNIT_BUSY;
    return UNIT_IDLE;
}

static void hs_destroy(struct unit *u)
{
    struct hs *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    outbox_clear(s, u);
    stage_threads_release(&s->threads);
}

const struct unit_ops hs_ops = {
    .kind = "hs",
    .help = "Hull Shader stage (Gen8/Gen9): patch objects, one patch URB entry each, HS threads "
            "in SINGLE_PATCH, DUAL_PATCH or 8_PATCH mode with Instance Count threads, patches "
            "to TE once their threads ended, HS_INVOCATION_COUNT (seed 003 L12309-12716).",
    .state_size = sizeof(struct hs),
    .ports = hs_ports,
    .stats = hs_stats,
    .realize = hs_realize,
    .reset = hs_reset,
    .tick = hs_tick,
    .destroy = hs_destroy,
};
