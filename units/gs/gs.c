/* units/gs/gs.c - see gs.h. */
#include "units/gs/gs.h"
#include "units/gs/gs_gen4.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "units/common/ff_stage.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/stage_thread.h"
#include "units/common/thread_payload.h"
#include "units/common/urb.h"
#include "units/gs/gs_gen7.h"

#define GS_JOBS 32u                 /* threads (and their objects) the unit tracks */
#define GS_LANES 8u                 /* SIMD8 */
#define GS_MAX_OUTPUT_VERTICES 1024u    /* OUTPUT_VERTEX_COUNT range [0:1024], L13203 */
#define GS_HEADER_ROWS_MAX 9u       /* 1 count row + up to 8 control header rows */
/* DUAL_OBJECT: cycles an object waits for a partner when none is at the input
 * (the seeds give no figure: "under some circumstances only one object may be
 * dispatched", 004 L3299) */
#define GS_PAIR_WAIT_CYCLES 4u

enum job_phase { JOB_FREE = 0, JOB_COLLECT, JOB_ALLOC, JOB_READ, JOB_DISPATCH, JOB_RUNNING, JOB_HEADER, JOB_READY };

struct gs_job {
    uint32_t phase;
    bool alloc_sent;
    bool failed;                    /* no thread ran: entries freed, nothing emitted */
    struct primitive_packet in;     /* the object (owns one set of its references) */
    struct primitive_packet in2;    /* DUAL_OBJECT: the second object, when objects == 2 */
    uint32_t objects;               /* input objects shaded: 1, or 2 in DUAL_OBJECT */
    uint64_t collect_since;         /* JOB_COLLECT: the cycle it began waiting for a partner */
    uint32_t lanes, first_instance;
    uint32_t entries[GS_LANES];
    uint32_t eot_counts[2];         /* Gen7: the output vertex counts of the EOT header */
    uint32_t reads_pending;
    uint8_t *vertex_data;           /* in.vertex_count x read length rows */
    uint8_t header[GS_LANES][GS_HEADER_ROWS_MAX][URB_ROW_BYTES];
};

struct gs_config {
    bool enable, include_vertex_handles, include_primitive_id, discard_adjacency, static_output;
    bool statistics;
    bool gen7;                      /* counts in the EOT header, no count row in the entry */
    uint32_t read_offset, read_length, grf_start, output_topology, output_vertex_size;
    uint32_t reorder_trailing, hint, invocations_increment, dispatch_mode, default_stream;
    uint32_t instance_count, header_rows, static_vertex_count, control_sid;
    uint32_t urb_entry_bytes;       /* from 3DSTATE_URB_GS; 0 = unknown */
    uint32_t urb_entries;           /* from 3DSTATE_URB_GS; 0 = unknown */
};

/* 3DSTATE_CLIP's provoking vertex selects (as VF uses them) */
struct gs_provoking {
    uint32_t line, tri, fan;
};

struct gs {
    struct ff_stage stage;
    struct port *in, *out, *urb, *urb_reply;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_constants constants;
    struct stage_space space;
    struct gs_config c;
    struct gs_provoking provoking;
    /* Gen4 (gs_gen4.h): GS_STATE, GS Enable and the GS threads */
    struct gs_gen4 g4;
    uint64_t thread_timeout;
    struct unit *self;
    struct gs_job jobs[GS_JOBS];
    uint32_t head, count;           /* ring of jobs in dispatch order */
    uint32_t next_instance;         /* instances of the head input object already made */
    struct msg **urb_queue;         /* URB requests waiting for the "urb" channel, in order */
    uint32_t urb_queue_head, urb_queue_count, urb_queue_size;
    uint64_t invocations, gs_primitives;
    uint64_t objects, instances, primitives_out, vertices_out, vertex_count_clamped,
        refused_entries, unaligned_vertices, grf_start_adjusted, payload_truncated,
        partial_primitives, bad_messages, passed_through,
        no_thread_dispatcher, bad_output_topology;
    uint64_t dual_object_threads, single_object_threads, dual_object_invalid,
        dual_object_oversized, dual_mode_few_entries;
};

static const struct port_desc gs_ports[] = {
    { .name = "ds", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .help = "state, objects and in-band registers from the DS stage" },
    { .name = "sol", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE),
      .help = "state, primitives and in-band registers to SOL" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "GS thread requests to the TDs" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends from the URB (urb.eot_gs)" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "URB entry allocation, references and reads" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "URB replies" },
    PORT_END
};

static const struct param_desc gs_params[] = {
    PARAM_U64_FIELD("thread_timeout", struct gs, thread_timeout, 50000, 0, INT64_MAX,
                    "Gen4: cycles from a GS thread's dispatch to its end before the watchdog "
                    "drops its object (0: no watchdog; the seed gives no figure: CLIP's choice)"),
    PARAM_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct gs, f, m, h)
static const struct stat_desc gs_stats[] = {
    C("objects", objects, "objects", "input objects shaded"),
    C("instances", instances, "instances", "object instances dispatched"),
    C("primitives_out", primitives_out, "primitives", "primitives built from thread output"),
    C("vertices_out", vertices_out, "vertices", "vertices threads emitted (after clamping)"),
    C("invocations", invocations, "invocations", "GS_INVOCATION_COUNT"),
    C("gs_primitives", gs_primitives, "primitives", "GS_PRIMITIVES_COUNT"),
    C("passed_through", passed_through, "primitives", "primitives through a disabled GS"),
    C("gen4.state_reads", g4.state_reads, "packets", "Gen4 GS_STATEs read (GS enabled)"),
    C("gen4.state_faults", g4.state_faults, "packets",
      "Gen4 GS_STATE pointers outside memory (GS treated as disabled)"),
    C("gen4.objects_unrun", g4.objects_unrun, "primitives",
      "Gen4 primitives of an enabled GS passed through unshaded (no \"td\" or \"urb\" linked)"),
    C("gen4.objects", g4.objects_staged, "objects", "Gen4 objects staged for GS threads (L7160-7395)"),
    C("gen4.threads_dispatched", g4.threads_dispatched, "threads", "Gen4 GS threads dispatched"),
    C("gen4.threads_ended", g4.notices.threads_ended, "threads", "Gen4 GS threads that ended in time"),
    C("gen4.outputs", g4.notices.outputs, "vertices", "Gen4 VUEs GS threads completed (Complete, Used)"),
    C("gen4.primitives_out", g4.primitives_out, "packets",
      "Gen4 primitives (PrimStart..PrimEnd runs of thread output) sent to CLIP"),
    C("gen4.vertices_out", g4.vertices_out, "vertices", "Gen4 vertices in those primitives"),
    C("gen4.dangling_outputs", g4.dangling_outputs, "vertices",
      "Gen4 thread outputs outside a PrimStart..PrimEnd run (freed)"),
    C("gen4.output_overflow", g4.notices.output_overflow, "vertices",
      "Gen4 thread outputs past the model's limits (freed)"),
    C("gen4.bad_output_topology", g4.bad_output_topology, "primitives",
      "Gen4 thread output runs of a topology GS threads may not output (L8311-8335, freed)"),
    C("gen4.late_notices", g4.notices.late_notices, "messages",
      "Gen4 outputs or ends of GS threads the watchdog had given up on"),
    C("gen4.watchdog_drops", g4.watchdog_drops, "objects",
      "Gen4 GS threads that did not end within thread_timeout: object dropped"),
    C("gen4.refused_entries", g4.refused_entries, "objects",
      "Gen4 objects dropped because the URB refused their GS entry"),
    C("gen4.entries", g4.entries, "entries", "Gen4 GS-region entries allocated for threads"),
    C("gen4.alloc_wait_cycles", g4.alloc_wait_cycles, "cycles",
      "Gen4 cycles objects waited for their GS-region entry (fence back-pressure)"),
    C("gen4.bad_grf_start", g4.bad_grf_start, "threads",
      "Gen4 Dispatch GRF Start Register For URB Data of 0 (moved past R0)"),
    C("gen4.payload_truncated", g4.payload_truncated, "threads", "Gen4 payloads cut at 128 registers"),
    C("gen4.curbe_faults", g4.curbe_faults, "packets", "Gen4 CONSTANT_BUFFERs outside memory (zeros)"),
    C("gen4.unsupported_topology", g4.unsupported_topology, "primitives",
      "Gen4 primitives the GS cannot stage (dropped)"),
    C("gen4.configures", g4.configures, "messages", "Gen4 GS region configurations sent to the URB"),
    C("gen4.bad_replies", g4.bad_replies, "messages", "Gen4 URB replies for no waiting object"),
    C("gen4.fence_markers", g4.fence_markers, "messages",
      "Gen4 URB_FENCEs reached: the GS region told to take them (URB_OP_FENCE)"),
    C("vertex_count_clamped", vertex_count_clamped, "entries",
      "output vertex counts beyond 1024 or the entry's size (clamped)"),
    C("refused_entries", refused_entries, "requests", "output entry allocations the URB refused"),
    C("unaligned_vertices", unaligned_vertices, "vertices",
      "output vertices not on a 32-byte row (handle rounded down; primitive.h half_row covers one row)"),
    C("grf_start_adjusted", grf_start_adjusted, "threads",
      "Dispatch GRF Start inside the fixed payload (vertex data moved after it)"),
    C("payload_truncated", payload_truncated, "threads", "payloads cut at 128 registers"),
    C("partial_primitives", partial_primitives, "primitives", "incomplete strip tails dropped"),
    C("no_thread_dispatcher", no_thread_dispatcher, "threads",
      "threads with no \"td\" output linked (object dropped)"),
    C("bad_output_topology", bad_output_topology, "entries",
      "entries whose Output Topology is no GS output topology (nothing emitted)"),
    C("bad_messages", bad_messages, "messages", "malformed or unexpected messages"),
    C("dual_object_threads", dual_object_threads, "threads",
      "DUAL_OBJECT threads that shade two objects"),
    C("single_object_threads", single_object_threads, "threads",
      "DUAL_OBJECT threads dispatched with one object (no partner in time, or none fit)"),
    C("dual_object_invalid", dual_object_invalid, "objects",
      "objects in DUAL_OBJECT mode with InstanceCount > 1 (invalid, 004 L3299: shaded one per thread)"),
    C("dual_object_oversized", dual_object_oversized, "objects",
      "objects of more than 16 vertices in DUAL_OBJECT mode (invalid, 004 L3299: shaded alone)"),
    C("dual_mode_few_entries", dual_mode_few_entries, "threads",
      "dual-mode threads narrowed to one object/instance: fewer than 2 GS URB entries (004 L3303)"),
    FF_STAGE_STATS("ff.", struct gs, stage),
    STAGE_THREADS_STATS("td.", struct gs, threads),
    STAT_END
};

/* ---- helpers ---------------------------------------------------------------------- */

static struct gs_job *job_at(struct gs *s, uint32_t k)
{
    return &s->jobs[(s->head + k) % GS_JOBS];
}

static uint32_t job_slot(struct gs *s, struct gs_job *j)
{
    (void)s;
    return (uint32_t)(j - s->jobs);
}

static bool urb_send(struct gs *s, struct unit *u, uint32_t op, uint32_t tag, uint32_t count,
                     const uint32_t *handles, uint32_t row, uint32_t rows)
{
    if (!s->urb)
        return false;
    struct msg *m = msg_alloc(unit_sim(u), MSG_URB, (uint32_t)sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->client = URB_CLIENT_GS;
    q->tag = tag;
    q->count = count;
    q->row = row;
    q->rows = rows;
    if (handles && count)
        memcpy(q->handles, handles, count * sizeof *handles);
    /* queued in order: the channel takes a few per cycle */
    if (s->urb_queue_count == s->urb_queue_size) {
        uint32_t size = s->urb_queue_size ? 2 * s->urb_queue_size : 64;
        struct msg **q2 = calloc(size, sizeof *q2);
        for (uint32_t i = 0; i < s->urb_queue_count; i++)
            q2[i] = s->urb_queue[(s->urb_queue_head + i) % s->urb_queue_size];
        free(s->urb_queue);
        s->urb_queue = q2;
        s->urb_queue_size = size;
        s->urb_queue_head = 0;
    }
    s->urb_queue[(s->urb_queue_head + s->urb_queue_count++) % s->urb_queue_size] = m;
    return true;
}

static void urb_flush(struct gs *s, struct unit *u)
{
    while (s->urb_queue_count &&
           port_try_send(s->urb, s->urb_queue[s->urb_queue_head])) {
        s->urb_queue_head = (s->urb_queue_head + 1) % s->urb_queue_size;
        s->urb_queue_count--;
        unit_progress(u);
    }
}

static void urb_queue_clear(struct gs *s, struct unit *u)
{
    for (; s->urb_queue_count; s->urb_queue_count--) {
        msg_free(unit_sim(u), s->urb_queue[s->urb_queue_head]);
        s->urb_queue_head = (s->urb_queue_head + 1) % s->urb_queue_size;
    }
}

/* Drops the references a primitive owns (primitive.h owner_handle rule). */
static void release_primitive(struct gs *s, struct unit *u, const struct primitive_packet *p)
{
    if (p->owner_handle != URB_HANDLE_NONE)
        urb_send(s, u, URB_OP_DEREFERENCE, 0, 1, &p->owner_handle, 0, 0);
    else if (p->vertex_count)
        urb_send(s, u, URB_OP_DEREFERENCE, 0,
                 p->vertex_count < URB_MAX_HANDLES_PER_MSG ? p->vertex_count
                                                           : URB_MAX_HANDLES_PER_MSG,
                 p->handles, 0, 0);
}

/* ---- Gen4 (gs_gen4.h) ---------------------------------------------------------------- */

static void gen4_urb_send(void *context, uint32_t op, uint32_t tag, uint32_t count,
                          const uint32_t *handles, uint32_t row, uint32_t rows)
{
    struct unit *u = context;
    urb_send(unit_state(u), u, op, tag, count, handles, row, rows);
}

static struct gs_gen4_host gen4_host(struct gs *s, struct unit *u)
{
    return (struct gs_gen4_host){
        .unit = u, .stage = &s->stage, .threads = s->threads.records ? &s->threads : NULL,
        .bases = &s->bases, .space = &s->space, .urb_linked = s->urb != NULL,
        .thread_timeout = s->thread_timeout, .context = u, .urb_send = gen4_urb_send,
    };
}

/* ---- state ------------------------------------------------------------------------ */

static void take_gs(struct gs *s, const struct spec_3DSTATE_GS *v, uint32_t gen)
{
    struct gs_config *c = &s->c;
    uint32_t urb_bytes = c->urb_entry_bytes, urb_entries = c->urb_entries;
    memset(c, 0, sizeof *c);
    c->urb_entry_bytes = urb_bytes;
    c->urb_entries = urb_entries;
    c->enable = v->Enable;
    /* Gen7's GS has no Static Output and no SIMD8 mode (genxml gen7.xml:
     * Dispatch Mode SINGLE, DUAL_INSTANCE, DUAL_OBJECT); its threads end with
     * the output vertex counts in the EOT message header's DWord 2 (thread_msg.h
     * eot_header_dword2), not in the entry's first 32 bytes. */
    c->gen7 = gen == 7;
    c->include_vertex_handles = v->IncludeVertexHandles;
    c->include_primitive_id = v->IncludePrimitiveID;
    c->discard_adjacency = v->DiscardAdjacency;
    c->static_output = v->StaticOutput;
    c->statistics = v->StatisticsEnable != 0;
    c->read_offset = v->VertexURBEntryReadOffset;
    c->read_length = v->VertexURBEntryReadLength;
    c->grf_start = v->DispatchGRFStartRegisterForURBData |
                   (v->DispatchGRFStartRegisterForURBData54 << 4);
    c->output_topology = v->OutputTopology;
    c->output_vertex_size = v->OutputVertexSize;
    c->reorder_trailing = v->ReorderMode;
    c->hint = v->Hint;
    c->invocations_increment = v->InvocationsIncrementValue;
    c->dispatch_mode = v->DispatchMode;
    c->default_stream = v->DefaultStreamId;
    c->instance_count = v->InstanceControl + 1;
    c->header_rows = v->ControlDataHeaderSize > 8 ? 8 : v->ControlDataHeaderSize;
    c->static_vertex_count = v->StaticOutputVertexCount;
    c->control_sid = v->ControlDataFormat;
    struct stage_kernel *k = &s->kernel;
    uint32_t bt = k->binding_table, sampler = k->sampler_state;
    *k = (struct stage_kernel){
        .enable = v->Enable, .kernel_start = v->KernelStartPointer,
        .binding_table = bt, .binding_table_entries = v->BindingTableEntryCount,
        .sampler_state = sampler, .scratch_base = v->ScratchSpaceBasePointer,
        .per_thread_scratch = v->PerThreadScratchSpace, .max_threads = v->MaximumNumberOfThreads + 1,
        .simd = 8, .priority = v->ThreadDispatchPriority, .alternate_fp = v->FloatingPointMode == 1,
        .illegal_opcode_exception = v->IllegalOpcodeExceptionEnable,
        .software_exception = v->SoftwareExceptionEnable,
    };
}

static void take_state(struct gs *s, struct unit *u, const struct cs_state_packet *p)
{
    s->space = stage_space_of(p);
    const void *v = cs_state_common(p);
    switch (p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        stage_bases_take(&s->bases, v);
        if (p->gen == 4) {
            struct gs_gen4_host h = gen4_host(s, u);
            gs_gen4_take_state(&s->g4, &h, p);
            s->bases.instruction = s->bases.general;    /* kernels: General State (001 L2225) */
        }
        break;
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
    case SPEC_ID_CONSTANT_BUFFER:
    case SPEC_ID_URB_FENCE: {
        struct gs_gen4_host h = gen4_host(s, u);
        gs_gen4_take_state(&s->g4, &h, p);
        break;
    }
    case SPEC_ID_3DSTATE_GS:
        take_gs(s, v, p->gen);
        break;
    case SPEC_ID_3DSTATE_CONSTANT_GS:
        stage_constants_take(&s->constants, unit_sim(u), p, &s->bases,
                             &((const struct spec_3DSTATE_CONSTANT_GS *)v)->ConstantBody);
        break;
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_GS:
        s->kernel.binding_table =
            (uint32_t)((const struct spec_3DSTATE_BINDING_TABLE_POINTERS_GS *)v)->PointerToGSBindingTable;
        break;
    case SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_GS:
        s->kernel.sampler_state =
            (uint32_t)((const struct spec_3DSTATE_SAMPLER_STATE_POINTERS_GS *)v)->PointerToGSSamplerState;
        break;
    case SPEC_ID_3DSTATE_CLIP: {
        const struct spec_3DSTATE_CLIP *clip = v;
        s->provoking = (struct gs_provoking){ clip->LineStripListProvokingVertexSelect,
                                              clip->TriangleStripListProvokingVertexSelect,
                                              clip->TriangleFanProvokingVertexSelect };
        break;
    }
    case SPEC_ID_3DSTATE_URB_GS:
        /* Entry Allocation Size is in 64-byte units minus one (units/urb) */
        s->c.urb_entry_bytes =
            (((const struct spec_3DSTATE_URB_GS *)v)->GSURBEntryAllocationSize + 1) * 64u;
        s->c.urb_entries = ((const struct spec_3DSTATE_URB_GS *)v)->GSNumberOfURBEntries;
        break;
    default:
        break;
    }
}

static void take_mmio(struct gs *s, struct unit *u, struct msg *m)
{
    struct cs_mmio *r = (struct cs_mmio *)m->payload;
    if (m->size < sizeof *r) {
        s->bad_messages++;
        return;
    }
    if (r->op == CS_MMIO_WRITE) {
        /* each dword of a 64-bit counter is its own write */
        if (!pipeline_register_write64(&s->invocations, GS_INVOCATION_COUNT_OFFSET, r->offset,
                                       r->value) &&
            !pipeline_register_write64(&s->gs_primitives, GS_PRIMITIVES_COUNT_OFFSET, r->offset,
                                       r->value))
            stage_constants_take_mmio(&s->constants, r->offset, r->value);
    } else if (r->op == CS_MMIO_SYNC && m->size >= sizeof *r + sizeof(struct pipeline_registers)) {
        struct pipeline_registers *regs = (struct pipeline_registers *)r->data;
        regs->value[PIPE_REG_GS_INVOCATIONS] = s->invocations;
        regs->value[PIPE_REG_GS_PRIMITIVES] = s->gs_primitives;
        regs->written |= (1ull << PIPE_REG_GS_INVOCATIONS) | (1ull << PIPE_REG_GS_PRIMITIVES);
    }
    (void)u;
}

/* Fewer than two GS URB entries: "behavior is UNDEFINED for Dual Instance or
 * Dual Object mode" (004 L3303); here such threads shade one object instance
 * (counted), as two entries could never be allocated at once. */
static bool gs_too_few_entries(const struct gs_config *c)
{
    return c->urb_entries == 1;
}

/* Object instances one thread shades: 8 in SIMD8, 2 in DUAL_INSTANCE, else 1
 * (a DUAL_OBJECT thread shades one instance of up to two objects). */
static uint32_t gs_instances_per_thread(const struct gs_config *c)
{
    return c->dispatch_mode == GS_DISPATCH_SIMD8 ? GS_LANES
           : c->dispatch_mode == GS_DISPATCH_DUAL_INSTANCE && !gs_too_few_entries(c) ? 2u : 1u;
}

/* DUAL_OBJECT pairing applies: one instance per object (004 L3284-3299) and
 * two entries to shade into. */
static bool gs_pairs_objects(const struct gs_config *c)
{
    return c->dispatch_mode == GS_DISPATCH_DUAL_OBJECT && c->instance_count == 1 &&
           !gs_too_few_entries(c);
}

/* The newest job, when it waits for a DUAL_OBJECT partner. */
static struct gs_job *collecting_job(struct gs *s)
{
    struct gs_job *j = s->count ? job_at(s, s->count - 1) : NULL;
    return j && j->phase == JOB_COLLECT ? j : NULL;
}

/* A job waiting for a partner goes with the one object it has. */
static void close_collecting(struct gs *s, struct unit *u)
{
    struct gs_job *j = collecting_job(s);
    if (j) {
        j->phase = JOB_ALLOC;
        unit_wake_at(u, unit_cycle(u));
    }
}

/* DUAL_OBJECT: the object joins the job waiting for a partner (same topology
 * and vertex count: one payload layout serves both halves) or opens one. */
static enum ff_stage_work_result take_object_pairing(struct gs *s, struct unit *u,
                                                     const struct primitive_packet *p)
{
    struct gs_job *last = collecting_job(s);
    bool fits = p->vertex_count <= GS_DUAL_OBJECT_MAX_VERTICES;
    if (last) {
        if (fits && p->topology == last->in.topology && p->vertex_count == last->in.vertex_count) {
            last->in2 = *p;
            last->objects = 2;
            last->lanes = 2;
            last->phase = JOB_ALLOC;
            s->objects++;
            unit_wake_at(u, unit_cycle(u));
            return FF_STAGE_DONE;
        }
        last->phase = JOB_ALLOC;    /* no partner for it: it goes alone */
    }
    if (s->count == GS_JOBS)
        return FF_STAGE_NOT_NOW;
    struct gs_job *j = job_at(s, s->count);
    memset(j, 0, sizeof *j);
    j->in = *p;
    j->objects = 1;
    j->lanes = 1;
    j->collect_since = unit_cycle(u);
    j->phase = fits ? JOB_COLLECT : JOB_ALLOC;
    if (!fits)
        s->dual_object_oversized++;
    s->count++;
    s->objects++;
    unit_wake_at(u, unit_cycle(u));
    return FF_STAGE_DONE;
}

/* ---- work from the input --------------------------------------------------------- */

static enum ff_stage_work_result gs_work(void *context, struct msg *m)
{
    struct unit *u = context;
    struct gs *s = unit_state(u);
    if (m->kind == MSG_PRIMITIVE) {
        if (m->size < sizeof(struct primitive_packet)) {
            s->bad_messages++;
            return FF_STAGE_DONE;
        }
        const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
        if (s->g4.enable) {
            if (p->vertex_count > PRIM_MAX_VERTICES) {
                s->bad_messages++;
                return FF_STAGE_DONE;
            }
            struct gs_gen4_host h = gen4_host(s, u);
            return (enum ff_stage_work_result)gs_gen4_work_primitive(&s->g4, &h, m,
                                                                     &s->invocations);
        }
        if (!s->c.enable) {
            s->passed_through++;
            return FF_STAGE_PASS;
        }
        if (p->vertex_count == 0 || p->vertex_count > PRIM_MAX_VERTICES) {
            s->bad_messages++;
            release_primitive(s, u, p);
            return FF_STAGE_DONE;
        }
        if (gs_pairs_objects(&s->c))
            return take_object_pairing(s, u, p);
        if (s->c.dispatch_mode == GS_DISPATCH_DUAL_OBJECT && s->c.instance_count > 1 &&
            s->next_instance == 0)
            s->dual_object_invalid++;
        /* one job per 8 instances of the object; the first takes the packet's
         * references, each further one takes its own set */
        while (s->next_instance < s->c.instance_count) {
            if (s->count == GS_JOBS)
                return FF_STAGE_NOT_NOW;
            struct gs_job *j = job_at(s, s->count);
            memset(j, 0, sizeof *j);
            j->phase = JOB_ALLOC;
            j->in = *p;
            j->objects = 1;
            j->first_instance = s->next_instance;
            uint32_t left = s->c.instance_count - s->next_instance;
            uint32_t per_thread = gs_instances_per_thread(&s->c);
            j->lanes = left < per_thread ? left : per_thread;
            if ((s->c.dispatch_mode == GS_DISPATCH_DUAL_INSTANCE ||
                 s->c.dispatch_mode == GS_DISPATCH_DUAL_OBJECT) && gs_too_few_entries(&s->c))
                s->dual_mode_few_entries++;
            if (s->next_instance) {
                if (p->owner_handle != URB_HANDLE_NONE)
                    urb_send(s, u, URB_OP_REFERENCE, 0, 1, &p->owner_handle, 0, 0);
                else
                    urb_send(s, u, URB_OP_REFERENCE, 0, p->vertex_count, p->handles, 0, 0);
            }
            s->next_instance += j->lanes;
            s->count++;
        }
        s->next_instance = 0;
        s->objects++;
        unit_wake_at(u, unit_cycle(u));
        return FF_STAGE_DONE;
    }
    /* state and registers stay behind the work ahead of them (ordering rule);
     * an object waiting for a DUAL_OBJECT partner goes alone */
    if (s->count) {
        close_collecting(s, u);
        return FF_STAGE_NOT_NOW;
    }
    if (gs_gen4_busy(&s->g4))
        return FF_STAGE_NOT_NOW;    /* Gen4: behind the objects' threads */
    if (m->kind == MSG_STATE) {
        if (m->size >= sizeof(struct cs_state_packet))
            take_state(s, u, (const struct cs_state_packet *)m->payload);
        return FF_STAGE_PASS;
    }
    if (m->kind == MSG_MMIO)
        take_mmio(s, u, m);
    return FF_STAGE_PASS;
}

/* ---- dispatch --------------------------------------------------------------------- */

static void put_dword(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dw, uint32_t v)
{
    memcpy(&grf[reg][dw * 4], &v, 4);
}

static void put_dword(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t reg, uint32_t dw, uint32_t v);
static void thread_sent(struct gs *s, struct unit *u, struct gs_job *j, struct msg *m);

/* R0.2: Primitive Topology Type [21:16] (UNDEFINED, 0, with Discard
 * Adjacency) and Hint [22], both payload layouts. */
static void put_r0_topology(const struct gs *s, const struct gs_job *j,
                            uint8_t (*grf)[EU_MSG_REG_BYTES])
{
    uint32_t topology = s->c.discard_adjacency ? 0 : j->in.topology, r02;
    memcpy(&r02, &grf[0][8], 4);
    r02 = (r02 & ~0x7f0000u) | ((topology & 0x3f) << 16) | ((s->c.hint & 1) << 22);
    put_dword(grf, 0, 2, r02);
}

/* The SIMD4x2 payload (SINGLE, DUAL_INSTANCE, DUAL_OBJECT; units/gs/gs_gen7.h).
 * DUAL_OBJECT: half h is object h, its vertex data after object 0's in
 * vertex_data; the channel mask holds DW7:4 only when a second object (or
 * instance) is there ("as controlled by the DispatchMask", 004 L3299). */
static void dispatch_simd4x2(struct gs *s, struct unit *u, struct gs_job *j)
{
    const struct gs_config *c = &s->c;
    struct gs_simd4x2_form form = {
        .dual_object = c->dispatch_mode == GS_DISPATCH_DUAL_OBJECT,
        .include_primitive_id = c->include_primitive_id,
        .include_vertex_handles = c->include_vertex_handles,
        .read_length = c->read_length, .grf_start = c->grf_start,
        .constant_regs = s->constants.regs,
    };
    uint32_t nv = j->in.vertex_count;
    struct gs_simd4x2_layout layout;
    gs_simd4x2_layout(&form, nv, &layout);
    if (layout.grf_start_adjusted)
        s->grf_start_adjusted++;
    if (layout.truncated)
        s->payload_truncated++;
    uint32_t dmask = j->lanes > 1 ? 0xffu : 0x0fu;
    struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &s->space,
                                      layout.total, dmask, job_slot(s, j));
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;
    put_r0_topology(s, j, grf);
    struct gs_simd4x2_half halves[2];
    uint32_t count = j->lanes < 2 ? j->lanes : 2;
    for (uint32_t h = 0; h < count; h++) {
        bool second = form.dual_object && h == 1 && j->objects == 2;
        const struct primitive_packet *o = second ? &j->in2 : &j->in;
        halves[h] = (struct gs_simd4x2_half){
            .instance = j->first_instance + h, .output_handle = j->entries[h],
            .primitive_id = o->primitive_id, .vertex_count = o->vertex_count,
            .icp_handles = o->handles,
            .vertex_data = j->vertex_data
                               ? j->vertex_data + (second ? (size_t)nv * c->read_length * URB_ROW_BYTES : 0)
                               : NULL,
        };
    }
    gs_simd4x2_write(&form, &layout, grf, halves, count);
    stage_constants_write(&s->constants, grf, layout.constant_reg,
                          layout.total < layout.data_reg ? layout.total : layout.data_reg);
    if (form.dual_object) {
        if (j->objects == 2)
            s->dual_object_threads++;
        else
            s->single_object_threads++;
    }
    thread_sent(s, u, j, m);
}

static void thread_sent(struct gs *s, struct unit *u, struct gs_job *j, struct msg *m)
{
    stage_threads_send(&s->threads, u, m);
    free(j->vertex_data);
    j->vertex_data = NULL;
    j->phase = JOB_RUNNING;
    s->instances += j->lanes;
    if (s->c.statistics)
        s->invocations += (uint64_t)(s->c.invocations_increment + 1) * j->lanes;  /* 004 L3315-3319 */
}

static void dispatch(struct gs *s, struct unit *u, struct gs_job *j)
{
    if (s->c.dispatch_mode != GS_DISPATCH_SIMD8) {
        dispatch_simd4x2(s, u, j);
        return;
    }
    const struct gs_config *c = &s->c;
    uint32_t nv = j->in.vertex_count;
    bool single = c->instance_count == 1;
    /* the fixed part: R0, R1, [R2 primitive ids], [ICP handles] (L13527-13676) */
    uint32_t reg = 2;
    uint32_t prim_reg = c->include_primitive_id ? reg++ : 0;
    uint32_t handle_reg = reg;
    if (c->include_vertex_handles)
        reg += single ? nv : (nv + 7) / 8;
    uint32_t const_reg = reg;
    uint32_t data_reg = reg + s->constants.regs;
    if (c->grf_start >= data_reg)
        data_reg = c->grf_start;
    else if (c->read_length)
        s->grf_start_adjusted++;
    uint32_t total = data_reg + nv * c->read_length * (single ? 8u : 1u);
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        s->payload_truncated++;
        total = THREAD_PAYLOAD_MAX_REGS;
    }
    struct msg *m = stage_threads_new(&s->threads, u, &s->kernel, &s->bases, &s->space, total,
                                      (1u << j->lanes) - 1, job_slot(s, j));
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;
    put_r0_topology(s, j, grf);
    for (uint32_t l = 0; l < j->lanes; l++) {
        put_dword(grf, 1, l, ((j->first_instance + l) << 27) | (j->entries[l] & 0xffff));
        if (prim_reg)
            put_dword(grf, prim_reg, l, j->in.primitive_id);
    }
    if (c->include_vertex_handles)
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t r = single ? handle_reg + v : handle_reg + v / 8, dw = single ? 0 : v % 8;
            if (r < total)
                put_dword(grf, r, dw, j->in.handles[v] & 0xffff);
        }
    stage_constants_write(&s->constants, grf, const_reg, total < data_reg ? total : data_reg);
    for (uint32_t v = 0; v < nv; v++)
        for (uint32_t row = 0; row < c->read_length; row++) {
            const uint8_t *src = j->vertex_data + ((size_t)v * c->read_length + row) * URB_ROW_BYTES;
            if (!single) {
                uint32_t r = data_reg + v * c->read_length + row;
                if (r < total)
                    memcpy(grf[r], src, URB_ROW_BYTES);
                continue;
            }
            /* SOA: one register per component, object in DW0 (the lane) */
            for (uint32_t dw = 0; dw < 8; dw++) {
                uint32_t r = data_reg + (v * c->read_length + row) * 8 + dw, val;
                memcpy(&val, src + dw * 4, 4);
                if (r < total)
                    put_dword(grf, r, 0, val);
            }
        }
    thread_sent(s, u, j, m);
}

/* Advances the oldest job not yet dispatched (dispatch is in order). */
static void advance_dispatch(struct gs *s, struct unit *u)
{
    for (uint32_t k = 0; k < s->count; k++) {
        struct gs_job *j = job_at(s, k);
        if (j->phase == JOB_COLLECT)
            return;                 /* waits for a DUAL_OBJECT partner */
        if (j->phase == JOB_ALLOC) {
            if (!j->alloc_sent)
                j->alloc_sent = urb_send(s, u, URB_OP_ALLOC, job_slot(s, j) << 8, j->lanes, NULL,
                                         0, 0);
            if (!s->urb) {
                s->refused_entries++;
                j->failed = true;
                j->phase = JOB_READY;       /* nothing to dispatch into */
            }
            return;
        }
        if (j->phase == JOB_READ)
            return;
        if (j->phase == JOB_DISPATCH) {
            if (!s->threads.records) {
                /* enabled with no thread dispatcher linked: nowhere to run */
                s->no_thread_dispatcher++;
                j->failed = true;
                j->phase = JOB_READY;
                continue;
            }
            if (stage_threads_can_dispatch(&s->threads, &s->kernel))
                dispatch(s, u, j);
            return;
        }
    }
}

static void start_reads(struct gs *s, struct unit *u, struct gs_job *j)
{
    uint32_t len = s->c.read_length;
    if (!len) {
        j->phase = JOB_DISPATCH;
        return;
    }
    /* DUAL_OBJECT: the second object's vertices follow the first's (tags
     * nv.., both at most 16 vertices) */
    uint32_t nv = j->in.vertex_count, total = nv + (j->objects == 2 ? j->in2.vertex_count : 0);
    j->vertex_data = calloc((size_t)total * len, URB_ROW_BYTES);
    j->phase = JOB_READ;
    for (uint32_t v = 0; v < total; v++)
        if (urb_send(s, u, URB_OP_READ, (job_slot(s, j) << 8) | v, 1,
                     v < nv ? &j->in.handles[v] : &j->in2.handles[v - nv], s->c.read_offset, len))
            j->reads_pending++;
    if (!j->reads_pending)
        j->phase = JOB_DISPATCH;
}

static uint32_t header_rows(const struct gs *s)
{
    return (s->c.static_output || s->c.gen7 ? 0u : 1u) + s->c.header_rows;
}

static void start_header_reads(struct gs *s, struct unit *u, struct gs_job *j)
{
    uint32_t rows = header_rows(s);
    j->phase = JOB_HEADER;
    j->reads_pending = 0;
    if (rows)
        for (uint32_t l = 0; l < j->lanes; l++)
            if (urb_send(s, u, URB_OP_READ, (job_slot(s, j) << 8) | 0x80u | l, 1, &j->entries[l],
                         0, rows))
                j->reads_pending++;
    if (!j->reads_pending)
        j->phase = JOB_READY;
}

static void take_urb_reply(struct gs *s, struct unit *u, struct msg *m)
{
    const struct urb_msg *q = (const struct urb_msg *)m->payload;
    if (m->size < sizeof *q) {
        s->bad_messages++;
        return;
    }
    if (q->tag & GS_GEN4_TAG) {
        struct gs_gen4_host h = gen4_host(s, u);
        gs_gen4_take_urb_reply(&s->g4, &h, q, m->size);
        return;
    }
    struct gs_job *j = &s->jobs[(q->tag >> 8) % GS_JOBS];
    if (q->op == URB_OP_ALLOCATED && j->phase == JOB_ALLOC) {
        if (q->count < j->lanes) {
            s->refused_entries++;
            unit_log(u, SIM_LOG_WARNING, "GS output entries refused by the URB: object dropped");
            j->lanes = 0;
            j->phase = JOB_READY;
            return;
        }
        memcpy(j->entries, q->handles, j->lanes * sizeof j->entries[0]);
        start_reads(s, u, j);
    } else if (q->op == URB_OP_DATA && j->phase == JOB_READ && !(q->tag & 0x80)) {
        uint32_t v = q->tag & 0x7f;
        uint32_t rows = q->rows < s->c.read_length ? q->rows : s->c.read_length;
        uint32_t total = j->in.vertex_count + (j->objects == 2 ? j->in2.vertex_count : 0);
        if (v < total && m->size >= sizeof *q + (size_t)rows * URB_ROW_BYTES)
            memcpy(j->vertex_data + (size_t)v * s->c.read_length * URB_ROW_BYTES, q->data,
                   (size_t)rows * URB_ROW_BYTES);
        if (j->reads_pending && --j->reads_pending == 0)
            j->phase = JOB_DISPATCH;
    } else if (q->op == URB_OP_DATA && j->phase == JOB_HEADER && (q->tag & 0x80)) {
        uint32_t l = q->tag & 7, rows = q->rows < GS_HEADER_ROWS_MAX ? q->rows : GS_HEADER_ROWS_MAX;
        if (m->size >= sizeof *q + (size_t)rows * URB_ROW_BYTES)
            memcpy(j->header[l], q->data, (size_t)rows * URB_ROW_BYTES);
        if (j->reads_pending && --j->reads_pending == 0)
            j->phase = JOB_READY;
    } else if (q->op != URB_OP_WRITE_DONE) {
        s->bad_messages++;
    }
}

/* ---- output ----------------------------------------------------------------------- */

static uint32_t header_bit(const uint8_t *h, uint32_t bit)
{
    return (h[bit / 8] >> (bit % 8)) & 1u;
}

/* The primitives of one output entry, in order. */
static void emit_entry(struct gs *s, struct unit *u, const struct gs_job *j, uint32_t l)
{
    const struct gs_config *c = &s->c;
    uint32_t entry = j->entries[l];
    /* DUAL_OBJECT: lane 1 is the second object's output */
    const struct primitive_packet *in = l == 1 && j->objects == 2 ? &j->in2 : &j->in;
    const uint8_t *control = c->static_output || c->gen7 ? j->header[l][0] : j->header[l][1];
    uint32_t count;
    if (c->gen7) {
        count = l < 2 ? j->eot_counts[l] : 0;
    } else if (c->static_output) {
        count = c->static_vertex_count;
    } else {
        memcpy(&count, j->header[l][0], 4);
        count &= 0xffff;
    }
    uint32_t vertex_bytes = (c->output_vertex_size + 1) * 16u;
    uint32_t first = header_rows(s) * URB_ROW_BYTES;
    uint32_t max = GS_MAX_OUTPUT_VERTICES;
    if (c->urb_entry_bytes)
        max = c->urb_entry_bytes > first ? (c->urb_entry_bytes - first) / vertex_bytes : 0;
    if (max > GS_MAX_OUTPUT_VERTICES)
        max = GS_MAX_OUTPUT_VERTICES;
    /* the cut / stream bits a header can hold bound the count too */
    uint32_t header_bits = c->header_rows * URB_ROW_BYTES * 8 / (c->control_sid ? 2 : 1);
    if (c->header_rows && header_bits < max)
        max = header_bits;
    if (count > max) {
        s->vertex_count_clamped++;
        unit_log(u, SIM_LOG_NOTE, "GS entry %u: %u output vertices, %u fit (clamped)", entry,
                 count, max);
        count = max;
    }
    s->vertices_out += count;
    /* the output topology's shape (003 "GS Output Topologies", L13208-13234) */
    enum { LIST, STRIP, FAN } shape = LIST;
    uint32_t per = 1, topology = c->output_topology;
    switch (topology) {
    case PRIM_POINTLIST: case PRIM_POINTLIST_BF: per = 1; break;
    case PRIM_LINELIST: per = 2; break;
    case PRIM_LINESTRIP: case PRIM_LINESTRIP_BF: case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF: per = 2; shape = STRIP; break;
    case PRIM_TRILIST: case PRIM_RECTLIST: per = 3; break;
    case PRIM_TRISTRIP: case PRIM_TRISTRIP_REVERSE: per = 3; shape = STRIP; break;
    case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_POLYGON: per = 3; shape = FAN; break;
    default:
        per = prim_patch_vertices(topology);
        if (!per) {     /* not a GS output topology: nothing parsed (counted) */
            s->bad_output_topology++;
            return;
        }
    }
    uint32_t start = 0;     /* first vertex of the current strip / fan / list run */
    for (uint32_t k = 0; k < count; k++) {
        bool cut = !c->control_sid && c->header_rows && header_bit(control, k);
        bool last = cut || k + 1 == count;
        uint32_t run = k - start + 1;
        bool make = shape == LIST ? run % per == 0 : run >= per;
        if (make) {
            uint32_t v0 = k + 1 - per, order[PRIM_MAX_VERTICES];
            for (uint32_t i = 0; i < per; i++)
                order[i] = v0 + i;
            uint32_t ptopology = topology;
            if (shape == STRIP && per == 3) {
                /* odd triangles reordered as the Reorder Mode says (L13100-13107) */
                bool odd = ((v0 - start) % 2 == 1) != (topology == PRIM_TRISTRIP_REVERSE);
                ptopology = odd ? PRIM_TRISTRIP_REVERSE : PRIM_TRISTRIP;
                if (odd && c->reorder_trailing) {
                    order[0] = v0 + 1;
                    order[1] = v0;
                } else if (odd) {
                    order[1] = v0 + 2;
                    order[2] = v0 + 1;
                }
            } else if (shape == FAN) {
                order[0] = start;
            }
            struct msg *m = msg_alloc(unit_sim(u), MSG_PRIMITIVE, sizeof(struct primitive_packet));
            struct primitive_packet *p = (struct primitive_packet *)m->payload;
            memset(p, 0, sizeof *p);
            p->topology = ptopology;
            p->vertex_count = per;
            p->instance = in->instance;
            p->primitive_id = in->primitive_id;
            p->draw = in->draw;
            p->owner_handle = entry;
            if (shape == LIST)
                p->flags = PRIM_START | PRIM_END;
            else
                p->flags = (run == per ? PRIM_START : 0u) | (last ? PRIM_END : 0u);
            /* the provoking vertex as 3DSTATE_CLIP selects it (like VF) */
            uint32_t select = per == 2 ? s->provoking.line
                              : per == 3 && topology != PRIM_RECTLIST && topology != PRIM_POLYGON
                                  ? (shape == FAN ? s->provoking.fan : s->provoking.tri) : 0;
            p->provoking = select < per ? select : 0;
            for (uint32_t i = 0; i < per; i++) {
                uint32_t byte = urb_handle_offset(entry) + first + order[i] * vertex_bytes;
                uint32_t rest = byte % URB_HANDLE_UNIT_BYTES;
                if (rest == URB_ROW_BYTES)
                    p->half_row |= 1u << i;     /* one row past the handle (primitive.h) */
                else if (rest)
                    s->unaligned_vertices++;
                p->handles[i] = byte / URB_HANDLE_UNIT_BYTES;
            }
            /* stream id: the control data's 2 bits of the primitive's last
             * vertex when the format is SID, else Default Stream Id (L13236-13245) */
            p->stream = c->default_stream;
            if (c->control_sid && c->header_rows)
                p->stream = header_bit(control, 2 * k) | (header_bit(control, 2 * k + 1) << 1);
            urb_send(s, u, URB_OP_REFERENCE, 0, 1, &entry, 0, 0);
            ff_stage_emit(&s->stage, m);
            s->primitives_out++;
            if (c->statistics)
                s->gs_primitives++;
        }
        if (last) {
            /* vertices that make no whole primitive: "partial primitives", not
             * counted in GS_PRIMITIVES_COUNT (003 L11042) */
            if (shape == LIST ? run % per != 0 : run < per)
                s->partial_primitives++;
            start = k + 1;
        }
    }
}

/* Emits the oldest jobs whose threads ended, in dispatch order (L13249). */
static void retire(struct gs *s, struct unit *u)
{
    while (s->count && job_at(s, 0)->phase == JOB_READY) {
        struct gs_job *j = job_at(s, 0);
        for (uint32_t l = 0; l < j->lanes; l++) {
            if (!j->failed)
                emit_entry(s, u, j, l);
            urb_send(s, u, URB_OP_DEREFERENCE, 0, 1, &j->entries[l], 0, 0);
        }
        release_primitive(s, u, &j->in);
        if (j->objects == 2)
            release_primitive(s, u, &j->in2);
        free(j->vertex_data);
        j->vertex_data = NULL;
        j->phase = JOB_FREE;
        s->head = (s->head + 1) % GS_JOBS;
        s->count--;
    }
}

/* ---- unit ------------------------------------------------------------------------- */

static int gs_realize(struct unit *u, struct gt_error *err)
{
    struct gs *s = unit_state(u);
    s->in = unit_port(u, "ds", 0);
    s->out = unit_port(u, "sol", 0);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!port_is_bound(s->urb))
        s->urb = NULL;
    if (!port_is_bound(s->urb_reply))
        s->urb_reply = NULL;
    /* every state id goes to work(): state waits there for the threads ahead */
    struct ff_stage_id *ids = calloc(SPEC_ID_COUNT, sizeof *ids);
    for (uint32_t i = 1; i < (uint32_t)SPEC_ID_COUNT; i++)
        ids[i - 1] = (struct ff_stage_id){ i, FF_STAGE_WORK };
    struct ff_stage_config cfg = {
        .in = s->in, .out = port_is_bound(s->out) ? s->out : NULL, .ids = ids,
        .id_count = SPEC_ID_COUNT - 1,
        .work_kinds = MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
        .per_cycle = 1, .work = gs_work, .context = u,
    };
    int rc = ff_stage_init(&s->stage, &cfg, err);
    free(ids);
    if (rc)
        return rc;
    /* no TD bound: a disabled GS still passes primitives through */
    struct gt_error td_err;
    if (stage_threads_init(&s->threads, u, FFID_GS, &td_err) != 0)
        s->threads.records = NULL;
    return 0;
}

static void gs_reset(struct unit *u)
{
    struct gs *s = unit_state(u);
    ff_stage_clear(&s->stage, unit_sim(u));
    stage_threads_reset(&s->threads);
    for (uint32_t i = 0; i < GS_JOBS; i++) {
        free(s->jobs[i].vertex_data);
        s->jobs[i].vertex_data = NULL;
        s->jobs[i].phase = JOB_FREE;
    }
    s->head = s->count = s->next_instance = 0;
    urb_queue_clear(s, u);
    gs_gen4_clear(&s->g4);
}

static enum unit_activity gs_tick(struct unit *u)
{
    struct gs *s = unit_state(u);
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        take_urb_reply(s, u, m);
        msg_free(unit_sim(u), m);
    }
    uint64_t tag;
    struct eu_thread_end end;
    bool gen4_waiting = false;
    if (s->g4.enable || gs_gen4_busy(&s->g4)) {
        /* Gen4: thread outputs and ends, entries, dispatches, output in order */
        struct gs_gen4_host h = gen4_host(s, u);
        gen4_waiting = gs_gen4_step(&s->g4, &h, &s->invocations);
    }
    while (!s->g4.enable && stage_threads_poll_end_notice(&s->threads, u, &tag, &end)) {
        struct gs_job *j = &s->jobs[tag % GS_JOBS];
        if (j->phase != JOB_RUNNING)
            continue;
        j->eot_counts[0] = end.eot_header_dword2 & 0xffffu;        /* WORD 4: slot 0 */
        j->eot_counts[1] = end.eot_header_dword2 >> 16;            /* WORD 5: slot 1 */
        start_header_reads(s, u, j);
    }
    /* DUAL_OBJECT: no partner at the input within the wait: the object goes alone */
    struct gs_job *collecting = collecting_job(s);
    if (collecting && !port_visible(s->in) &&
        unit_cycle(u) - collecting->collect_since >= GS_PAIR_WAIT_CYCLES)
        close_collecting(s, u);
    advance_dispatch(s, u);
    retire(s, u);
    /* the references the new primitives own reach the URB before the
     * primitives can reach a reader that dereferences them */
    urb_flush(s, u);
    if (s->urb_queue_count)
        return UNIT_BUSY;
    enum ff_stage_status st = ff_stage_tick(&s->stage, u);
    advance_dispatch(s, u);
    if (s->g4.enable || gs_gen4_busy(&s->g4)) {
        struct gs_gen4_host h = gen4_host(s, u);
        gen4_waiting = gs_gen4_step(&s->g4, &h, &s->invocations);
    }
    urb_flush(s, u);
    if (s->urb_queue_count)
        return UNIT_BUSY;
    if (gen4_waiting)
        return UNIT_BUSY;           /* held by thread limits or full TD channels */
    bool waiting_dispatch = false;
    for (uint32_t k = 0; k < s->count; k++)
        if (job_at(s, k)->phase == JOB_DISPATCH || job_at(s, k)->phase == JOB_COLLECT)
            waiting_dispatch = true;
    if (waiting_dispatch)
        return UNIT_BUSY;       /* held by thread limits or full TD channels */
    return ff_stage_activity(st);
}

static void gs_destroy(struct unit *u)
{
    struct gs *s = unit_state(u);
    for (uint32_t i = 0; i < GS_JOBS; i++)
        free(s->jobs[i].vertex_data);
    urb_queue_clear(s, u);
    gs_gen4_clear(&s->g4);
    free(s->urb_queue);
    s->urb_queue = NULL;
    stage_threads_release(&s->threads);
}

const struct unit_ops gs_ops = {
    .kind = "gs",
    .help = "Geometry Shader stage (Gen8/Gen9, SIMD8 dispatch): objects to GS threads with the "
            "seed's payload, output entries parsed into primitives (seed 003 L13031-13676).",
    .state_size = sizeof(struct gs),
    .ports = gs_ports,
    .params = gs_params,
    .stats = gs_stats,
    .realize = gs_realize,
    .reset = gs_reset,
    .tick = gs_tick,
    .destroy = gs_destroy,
};
