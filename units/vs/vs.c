/* units/vs/vs.c - the Vertex Shader stage; see vs.h. */
#include "units/vs/vs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen4_pack.h"
#include "units/common/ff_stage.h"
#include "units/common/gen4_state.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/stage_thread.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/thread_payload.h"
#include "units/common/urb.h"

#define VS_LANES 8u                 /* SIMD8: 8 vertices per thread (L12257-12300) */
#define VS_BATCHES 5u               /* batches assembling (URB reads) before dispatch: room
                                       for a 32-vertex primitive next to a partial batch */
#define VS_HELD_MAX 256u            /* primitives waiting for their vertices, at most */
#define VS_MAX_READ_ROWS 15u        /* "the maximum limit is 30 elements per vertex" (L12300),
                                       two elements per 256-bit row */
#define VS_FIRST_DATA_REG 2u        /* R0 header, R1 return handles (L12257-12275) */

enum vs_warning {
    WARN_KERNEL = 1u << 0,
    WARN_READ_LENGTH = 1u << 1,
    WARN_GRF_START = 1u << 2,
    WARN_SIMD4X2 = 1u << 3,
    WARN_PRIMITIVE = 1u << 4,
    WARN_URB_REPLY = 1u << 5,
    WARN_MMIO = 1u << 6,
};

struct vs_lane {
    uint32_t handle;                /* the VUE: input and output (R1.n) */
    uint32_t held;                  /* index in held[] of the primitive that brought it */
    bool sent, ready;               /* URB read sent; its data arrived */
    uint8_t rows[VS_MAX_READ_ROWS][URB_ROW_BYTES];
};

struct vs_batch {
    bool closed;                    /* no more vertices join: dispatch when the reads are in */
    uint32_t count;
    struct vs_lane lane[VS_LANES];
};

struct vs_flight {                  /* a thread in flight: whose vertices it shades */
    uint32_t count;
    uint32_t held[VS_LANES];
};

struct vs_held {
    struct primitive_packet prim;
    uint32_t outstanding;           /* new vertices whose thread has not ended */
    uint32_t tag;                   /* the message's tag, kept */
    bool unchanged;                 /* passes as it came (VS disabled) */
};

struct vs {
    struct unit *unit;
    struct ff_stage ff;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_space space;
    struct stage_constants constants;
    struct port *in, *out, *urb, *urb_reply;

    /* 3DSTATE_VS beyond the kernel state */
    uint32_t read_offset, read_length;      /* 256-bit rows, as programmed */
    uint32_t read_rows;                     /* rows pushed: read_length cut to fit */
    uint32_t grf_start;                     /* where constants + vertex data start (>= 2) */
    bool statistics;
    bool read_length_cut;
    /* Gen7 (seed 003 L12220-12251, the SIMD4x2 payload): two vertices per
     * thread, handles in R0.0/R0.1, vertex data interleaved (vs_dispatch_simd4x2) */
    bool simd4x2;
    uint32_t lanes;                         /* vertices per thread: 8, or 2 under SIMD4x2 */

    /* params */
    uint32_t per_cycle, max_held;

    /* work */
    struct vs_batch batch[VS_BATCHES];      /* ring: oldest at batch_head */
    uint32_t batch_head, batch_count;
    struct vs_held held[VS_HELD_MAX];       /* ring: oldest at held_head */
    uint32_t held_head, held_count;
    struct vs_flight flight[STAGE_THREADS_MAX];
    uint16_t flight_free[STAGE_THREADS_MAX];
    uint32_t flight_free_count;

    uint64_t invocations;                   /* VS_INVOCATION_COUNT */
    uint32_t warned;

    /* stats */
    uint64_t vertices_shaded, vertices_cached, vertices_unshaded;
    uint64_t primitives_in, primitives_out, threads_dispatched, partial_threads, urb_reads;
    uint64_t stall_held, stall_batches, stall_urb_read, stall_urb_port, stall_drain;
    uint64_t bad_kernel, bad_read_length, bad_grf_start, bad_simd4x2, bad_primitive;
    uint64_t bad_urb_reply, bad_mmio;
    uint64_t state_vs, state_constant, state_bases, state_pointers, state_other;
    /* Gen4 (vs_take_gen4): CONSTANT_BUFFER's address and the VS_STATE's
     * Constant URB Entry Read Offset/Length (256-bit rows) */
    uint64_t gen4_curbe_address;
    bool gen4_curbe_valid;
    uint32_t gen4_curbe_offset, gen4_curbe_length;
    uint64_t gen4_state_faults, gen4_curbe_faults;
    uint64_t mmio_instpm, mmio_invocation_writes, mmio_syncs;
};

static void warn_once(struct vs *s, uint32_t which, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void warn_once(struct vs *s, uint32_t which, const char *fmt, ...)
{
    if (s->warned & which)
        return;
    s->warned |= which;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(s->unit, SIM_LOG_WARNING, "%s (counted; further ones not logged)", text);
}

static uint32_t popcount32(uint32_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* ---- state ----------------------------------------------------------------------- */

/* Rows of each VUE pushed: the programmed Read Length, cut to 30 elements and
 * to what the 128-register payload holds after R0, R1 and the constants. */
static void vs_layout(struct vs *s)
{
    uint32_t rows = s->read_length;
    uint32_t used = s->grf_start + s->constants.regs;
    /* a 256-bit row is 8 SIMD8 registers, or 2 interleaved SIMD4x2 ones */
    uint32_t regs_per_row = s->simd4x2 ? 2u : 8u;
    uint32_t room = used < THREAD_PAYLOAD_MAX_REGS ? (THREAD_PAYLOAD_MAX_REGS - used) / regs_per_row : 0;
    if (rows > VS_MAX_READ_ROWS)
        rows = VS_MAX_READ_ROWS;
    if (rows > room)
        rows = room;
    bool cut = rows != s->read_length;
    if (cut && !s->read_length_cut && s->kernel.enable) {
        s->bad_read_length++;
        warn_once(s, WARN_READ_LENGTH,
                  "Vertex URB Entry Read Length %u does not fit the payload (30 elements, 128 "
                  "registers with %u before the vertex data): %u rows pushed",
                  s->read_length, used, rows);
    }
    s->read_length_cut = cut;
    s->read_rows = rows;
}

static void close_open_batch(struct vs *s);

/* Whether the VS shades: enabled, with a kernel. Kernel Start Pointer 0 is the
 * first byte of the instruction state, where crocus puts its kernels on Gen7
 * (byt_tri's VS); on Gen8/Gen9 it is taken as no kernel (counted). */
static bool vs_shades(const struct vs *s)
{
    return s->kernel.enable && (s->kernel.kernel_start != 0 || s->simd4x2);
}

static void take_vs(struct vs *s, const struct spec_3DSTATE_VS *v, uint32_t gen)
{
    s->state_vs++;
    /* Gen7's VS runs SIMD4x2 (vec4) threads only: the SIMD8 Dispatch Enable
     * bit is Gen8's (seed 004 3DSTATE_VS; Mesa's genxml gen7.xml has none) */
    bool simd4x2 = gen == 7 || gen == 4;    /* Gen4: SIMD4x2 only (seed 001 L6360-6368) */
    if (simd4x2 != s->simd4x2)
        close_open_batch(s);
    s->simd4x2 = simd4x2;
    s->lanes = simd4x2 ? 2u : VS_LANES;
    uint32_t first_data_reg = simd4x2 ? 1u : VS_FIRST_DATA_REG;     /* R0; or R0 and R1 */
    struct stage_kernel *k = &s->kernel;
    k->enable = v->Enable;
    k->kernel_start = v->KernelStartPointer;
    k->binding_table_entries = v->BindingTableEntryCount;
    k->scratch_base = v->ScratchSpaceBasePointer;
    k->per_thread_scratch = v->PerThreadScratchSpace;
    k->max_threads = v->MaximumNumberOfThreads + 1;
    k->simd = 8;
    k->priority = v->ThreadDispatchPriority;
    k->alternate_fp = v->FloatingPointMode == 1;
    k->illegal_opcode_exception = v->IllegalOpcodeExceptionEnable;
    k->software_exception = v->SoftwareExceptionEnable;
    s->statistics = v->StatisticsEnable;
    s->read_offset = v->VertexURBEntryReadOffset;
    s->read_length = v->VertexURBEntryReadLength;
    s->grf_start = v->DispatchGRFStartRegisterForURBData;
    s->read_length_cut = false;
    if (!k->enable) {
        if (s->grf_start < first_data_reg)
            s->grf_start = first_data_reg;
        vs_layout(s);
        return;
    }
    if (!k->kernel_start && !simd4x2) {
        s->bad_kernel++;
        warn_once(s, WARN_KERNEL, "3DSTATE_VS enables the VS with a Kernel Start Pointer of 0: "
                  "vertices pass unshaded");
    }
    if (!simd4x2 && !v->SIMD8DispatchEnable) {
        s->bad_simd4x2++;
        warn_once(s, WARN_SIMD4X2, "3DSTATE_VS asks for SIMD4x2 dispatch, not modelled: SIMD8 "
                  "payloads are sent");
    }
    if (s->grf_start < first_data_reg) {
        s->bad_grf_start++;
        warn_once(s, WARN_GRF_START, "Dispatch GRF Start Register For URB Data %u would overwrite "
                  "the VS payload's header: R%u used", s->grf_start, first_data_reg);
        s->grf_start = first_data_reg;
    }
    if (!s->read_length) {
        /* "A zero value is INVALID" (L11731): no vertex data is pushed */
        s->bad_read_length++;
        warn_once(s, WARN_READ_LENGTH, "Vertex URB Entry Read Length of 0 is invalid: no vertex "
                  "data pushed");
    }
    vs_layout(s);
}

/* Gen4 CURBE (seed 001 L2502-2588): the VS_STATE's Constant URB Entry Read
 * Offset/Length rows of the constant URB entry CONSTANT_BUFFER loaded. They
 * are read from memory at the buffer's address (the bytes the CS copies into
 * its URB entry; the copy is counted by the urb_fence unit). */
static void vs_gen4_constants(struct vs *s, const struct cs_state_packet *p)
{
    struct stage_constants *c = &s->constants;
    uint32_t rows = s->gen4_curbe_length;
    if (rows > STAGE_CONSTANTS_MAX_REGS) {
        c->truncated++;
        rows = STAGE_CONSTANTS_MAX_REGS;
    }
    c->regs = s->gen4_curbe_valid ? rows : 0;
    memset(c->data, 0, sizeof c->data);
    if (!c->regs)
        return;
    if (!gen4_state_read(unit_sim(s->unit), p, 0,
                         s->gen4_curbe_address + s->gen4_curbe_offset * EU_MSG_REG_BYTES,
                         (uint32_t *)c->data, c->regs * EU_MSG_REG_BYTES / 4)) {
        s->gen4_curbe_faults++;
        c->read_failures++;
    }
}

/* Gen4 3DSTATE_PIPELINED_POINTERS (seed 001 L1220-1349): VS_STATE (L5589-6158)
 * at General State Base + Pointer to VS State, taken as the 3DSTATE_VS of the
 * SIMD4x2 path. Kernel Start Pointer and the scratch base are General State
 * offsets on Gen4 (L2225-2312). A pointer outside memory: counted, the VS
 * disabled (vertices pass unshaded). */
static void vs_take_gen4(struct vs *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_PIPELINED_POINTERS *pp = cs_state_common(p);
    uint32_t dw[GEN4_VS_STATE_length];
    struct spec_3DSTATE_VS v;
    memset(&v, 0, sizeof v);
    if (!gen4_state_read(unit_sim(s->unit), p, s->bases.general, pp->PointerToVSState, dw,
                         GEN4_VS_STATE_length)) {
        s->gen4_state_faults++;
        warn_once(s, WARN_KERNEL, "VS_STATE at 0x%llx lies outside memory: the VS is disabled",
                  (unsigned long long)(s->bases.general + pp->PointerToVSState));
        take_vs(s, &v, 4);
        return;
    }
    struct GEN4_VS_STATE g;
    GEN4_VS_STATE_unpack(dw, &g);
    v.Enable = g.Enable;
    v.KernelStartPointer = g.KernelStartPointer;
    v.BindingTableEntryCount = g.BindingTableEntryCount;
    v.ScratchSpaceBasePointer = g.ScratchSpaceBasePointer;
    v.PerThreadScratchSpace = g.PerThreadScratchSpace;
    v.MaximumNumberOfThreads = g.MaximumNumberOfThreads;
    v.FloatingPointMode = g.FloatingPointMode;
    v.IllegalOpcodeExceptionEnable = g.IllegalOpcodeExceptionEnable;
    v.SoftwareExceptionEnable = g.SoftwareExceptionEnable;
    v.StatisticsEnable = g.StatisticsEnable;
    v.VertexURBEntryReadOffset = g.VertexURBEntryReadOffset;
    v.VertexURBEntryReadLength = g.VertexURBEntryReadLength;
    v.DispatchGRFStartRegisterForURBData = g.DispatchGRFStartRegisterForURBData;
    s->kernel.sampler_state = (uint32_t)g.SamplerStatePointer;
    s->gen4_curbe_offset = g.ConstantURBEntryReadOffset;
    s->gen4_curbe_length = g.ConstantURBEntryReadLength;
    vs_gen4_constants(s, p);
    take_vs(s, &v, 4);
}

static void vs_take_state(void *context, const struct cs_state_packet *p)
{
    struct vs *s = context;
    const void *body = cs_state_common(p);
    s->space = stage_space_of(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        s->state_bases++;
        stage_bases_take(&s->bases, body);
        if (p->gen == 4)        /* Gen4 kernels are General State offsets (seed 001 L2225) */
            s->bases.instruction = s->bases.general;
        break;
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
        if (p->gen == 4)
            vs_take_gen4(s, p);
        else
            s->state_other++;
        break;
    case SPEC_ID_CONSTANT_BUFFER: {
        const struct spec_CONSTANT_BUFFER *v = body;
        s->gen4_curbe_valid = v->Valid;
        s->gen4_curbe_address = v->BufferStartingAddress;
        vs_gen4_constants(s, p);
        vs_layout(s);
        break; }
    case SPEC_ID_3DSTATE_VS:
        take_vs(s, body, p->gen);
        break;
    case SPEC_ID_3DSTATE_CONSTANT_VS:
        s->state_constant++;
        stage_constants_take(&s->constants, unit_sim(s->unit), p, &s->bases,
                             &((const struct spec_3DSTATE_CONSTANT_VS *)body)->ConstantBody);
        vs_layout(s);
        break;
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_VS:
        s->state_pointers++;
        s->kernel.binding_table =
            (uint32_t)((const struct spec_3DSTATE_BINDING_TABLE_POINTERS_VS *)body)
                ->PointerToVSBindingTable;
        break;
    case SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_VS:
        s->state_pointers++;
        s->kernel.sampler_state =
            (uint32_t)((const struct spec_3DSTATE_SAMPLER_STATE_POINTERS_VS *)body)
                ->PointerToVSSamplerState;
        break;
    default:
        s->state_other++;
    }
}

/* ---- batches of vertices ---------------------------------------------------------- */

static struct vs_batch *batch_at(struct vs *s, uint32_t k)
{
    return &s->batch[(s->batch_head + k) % VS_BATCHES];
}

static struct vs_batch *open_batch(struct vs *s)
{
    if (!s->batch_count)
        return NULL;
    struct vs_batch *b = batch_at(s, s->batch_count - 1);
    return b->closed ? NULL : b;
}

static void close_open_batch(struct vs *s)
{
    struct vs_batch *b = open_batch(s);
    if (b)
        b->closed = true;
}

/* Lanes free for new vertices without waiting. */
static uint32_t free_lanes(struct vs *s)
{
    struct vs_batch *b = open_batch(s);
    return (b ? s->lanes - b->count : 0) + (VS_BATCHES - s->batch_count) * s->lanes;
}

static void add_vertex(struct vs *s, uint32_t handle, uint32_t held)
{
    struct vs_batch *b = open_batch(s);
    if (!b) {
        b = batch_at(s, s->batch_count++);
        memset(b, 0, sizeof *b);
    }
    struct vs_lane *l = &b->lane[b->count++];
    l->handle = handle;
    l->held = held;
    l->sent = s->read_rows == 0;
    l->ready = s->read_rows == 0;
    if (b->count >= s->lanes)
        b->closed = true;
}

/* Sends the URB reads not yet sent, oldest batch first. */
static void send_reads(struct vs *s)
{
    for (uint32_t k = 0; k < s->batch_count; k++) {
        struct vs_batch *b = batch_at(s, k);
        uint32_t slot = (s->batch_head + k) % VS_BATCHES;
        for (uint32_t i = 0; i < b->count; i++) {
            struct vs_lane *l = &b->lane[i];
            if (l->sent)
                continue;
            if (!s->urb || !port_can_send(s->urb)) {
                s->stall_urb_port++;
                return;
            }
            struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
            struct urb_msg *q = (struct urb_msg *)m->payload;
            memset(q, 0, sizeof *q);
            q->op = URB_OP_READ;
            q->client = URB_CLIENT_VS;
            q->tag = slot * VS_LANES + i;
            q->count = 1;
            q->handles[0] = l->handle;
            q->row = s->read_offset;
            q->rows = s->read_rows;
            m->tag = q->tag;
            port_try_send(s->urb, m);
            l->sent = true;
            s->urb_reads++;
        }
    }
}

static void take_urb_replies(struct vs *s)
{
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *r = (const struct urb_msg *)m->payload;
        struct vs_lane *l = NULL;
        if (m->kind == MSG_URB && m->size >= sizeof *r && r->op == URB_OP_DATA &&
            r->tag < VS_BATCHES * VS_LANES) {
            uint32_t slot = r->tag / VS_LANES, lane = r->tag % VS_LANES;
            uint32_t age = (slot + VS_BATCHES - s->batch_head) % VS_BATCHES;
            struct vs_batch *b = &s->batch[slot];
            if (age < s->batch_count && lane < b->count && b->lane[lane].sent &&
                !b->lane[lane].ready)
                l = &b->lane[lane];
        }
        if (!l) {
            s->bad_urb_reply++;
            warn_once(s, WARN_URB_REPLY, "URB reply (%s, tag %u) for no read in flight dropped",
                      msg_kind_name(m->kind), m->tag);
        } else {
            uint32_t rows = r->rows < s->read_rows ? r->rows : s->read_rows;
            if (m->size < sizeof *r + (size_t)rows * URB_ROW_BYTES)
                rows = (uint32_t)((m->size - sizeof *r) / URB_ROW_BYTES);
            memset(l->rows, 0, sizeof l->rows);
            memcpy(l->rows, r->data, (size_t)rows * URB_ROW_BYTES);
            l->ready = true;
        }
        msg_free(unit_sim(s->unit), m);
    }
}

/* Builds the SIMD8 payload of the oldest batch (L12257-12300) and sends it. */
static void dispatch_batch(struct vs *s, struct vs_batch *b)
{
    uint32_t first = s->grf_start;
    uint32_t vertex_reg = first + s->constants.regs;
    uint32_t regs = vertex_reg + s->read_rows * (s->simd4x2 ? 2u : 8u);
    if (vertex_reg > THREAD_PAYLOAD_MAX_REGS) {         /* vs_layout() pushed no rows then */
        vertex_reg = THREAD_PAYLOAD_MAX_REGS;
        regs = THREAD_PAYLOAD_MAX_REGS;
    }
    uint32_t f = s->flight_free[--s->flight_free_count];
    struct vs_flight *fl = &s->flight[f];
    fl->count = b->count;
    uint32_t dmask = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        fl->held[i] = b->lane[i].held;
        dmask |= 1u << i;
    }
    struct msg *m = stage_threads_new(&s->threads, s->unit, &s->kernel, &s->bases, &s->space,
                                      regs, dmask, f);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    if (s->simd4x2) {
        /* SIMD4x2 (L12224-12251): R0.0 / R0.1 URB Return Handle 0 / 1; each
         * vertex-data register holds one 128-bit element, vertex 0 in DW3:0
         * and vertex 1 in DW7:4; the dispatch mask enables 4 channels per
         * vertex present */
        d->dmask = b->count > 1 ? 0xffu : 0x0fu;
        for (uint32_t i = 0; i < b->count && i < 2; i++)
            memcpy(&d->grf[0][4 * i], &b->lane[i].handle, 4);
        stage_constants_write(&s->constants, d->grf, first, regs);
        for (uint32_t k = 0; k < s->read_rows * 2u && vertex_reg + k < regs; k++)
            for (uint32_t i = 0; i < b->count && i < 2; i++)
                memcpy(&d->grf[vertex_reg + k][16 * i], &b->lane[i].rows[k / 2][16 * (k % 2)], 16);
        stage_threads_send(&s->threads, s->unit, m);
        s->threads_dispatched++;
        s->vertices_shaded += b->count;
        if (b->count < s->lanes)
            s->partial_threads++;
        return;
    }
    for (uint32_t i = 0; i < b->count; i++)             /* R1.n: vertex n's return handle */
        memcpy(&d->grf[1][4 * i], &b->lane[i].handle, 4);
    stage_constants_write(&s->constants, d->grf, first, regs);
    /* SoA: register vertex_reg + k holds dword k of the read rows of each
     * vertex (element k / 4, component k % 4), vertex n in dword n */
    for (uint32_t k = 0; k < s->read_rows * 8u && vertex_reg + k < regs; k++)
        for (uint32_t i = 0; i < b->count; i++)
            memcpy(&d->grf[vertex_reg + k][4 * i], &b->lane[i].rows[k / 8][4 * (k % 8)], 4);
    stage_threads_send(&s->threads, s->unit, m);
    s->threads_dispatched++;
    s->vertices_shaded += b->count;
    if (b->count < VS_LANES)
        s->partial_threads++;
}

static void dispatch_ready(struct vs *s)
{
    while (s->batch_count) {
        struct vs_batch *b = batch_at(s, 0);
        if (!b->closed)
            return;
        for (uint32_t i = 0; i < b->count; i++)
            if (!b->lane[i].ready) {
                s->stall_urb_read++;
                return;
            }
        if (!s->flight_free_count || !stage_threads_can_dispatch(&s->threads, &s->kernel))
            return;
        dispatch_batch(s, b);
        s->batch_head = (s->batch_head + 1) % VS_BATCHES;
        s->batch_count--;
    }
}

/* ---- primitives -------------------------------------------------------------------- */

/* The oldest held primitives whose vertices are all shaded leave, in order. */
static void emit_ready(struct vs *s)
{
    while (s->held_count && s->held[s->held_head].outstanding == 0) {
        struct vs_held *h = &s->held[s->held_head];
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_PRIMITIVE, sizeof h->prim);
        struct primitive_packet *p = (struct primitive_packet *)m->payload;
        *p = h->prim;
        if (!h->unchanged)
            p->new_vertices = 0;    /* shaded: later stages see plain vertices */
        m->tag = h->tag;
        ff_stage_emit(&s->ff, m);
        s->primitives_out++;
        s->held_head = (s->held_head + 1) % VS_HELD_MAX;
        s->held_count--;
    }
}

static void take_thread_ends(struct vs *s)
{
    uint64_t tag;
    while (stage_threads_poll_end(&s->threads, s->unit, &tag)) {
        if (tag >= STAGE_THREADS_MAX)
            continue;
        struct vs_flight *fl = &s->flight[tag];
        for (uint32_t i = 0; i < fl->count; i++) {
            struct vs_held *h = &s->held[fl->held[i]];
            if (h->outstanding)
                h->outstanding--;
        }
        fl->count = 0;
        s->flight_free[s->flight_free_count++] = (uint16_t)tag;
    }
}

static enum ff_stage_work_result take_primitive(struct vs *s, struct msg *m)
{
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    if (m->size < sizeof *p || p->vertex_count > PRIM_MAX_VERTICES) {
        s->bad_primitive++;
        warn_once(s, WARN_PRIMITIVE, "malformed primitive (%u bytes) dropped", m->size);
        return FF_STAGE_DONE;
    }
    uint32_t in_range = p->vertex_count >= 32 ? 0xffffffffu : (1u << p->vertex_count) - 1u;
    uint32_t fresh = p->new_vertices & in_range;
    uint32_t n = popcount32(fresh);
    bool shade = vs_shades(s);
    if (shade) {
        if (s->held_count >= s->max_held) {
            s->stall_held++;
            close_open_batch(s);
            return FF_STAGE_NOT_NOW;
        }
        if (free_lanes(s) < n) {
            s->stall_batches++;
            close_open_batch(s);    /* so the batches ahead can go and free up */
            return FF_STAGE_NOT_NOW;
        }
    } else if (s->held_count >= VS_HELD_MAX) {
        return FF_STAGE_NOT_NOW;    /* behind held primitives (not after a state change) */
    }
    s->primitives_in++;
    if (fresh != p->new_vertices) {
        s->bad_primitive++;
        warn_once(s, WARN_PRIMITIVE, "primitive marks new vertices beyond its %u (ignored)",
                  p->vertex_count);
    }
    /* VS_INVOCATION_COUNT: "impacted by vertex caching ... increments even if
     * VS Function Enable is DISABLED" (L11035) */
    if (s->statistics)
        s->invocations += n;
    s->vertices_cached += p->vertex_count - n;
    if (!shade && !s->held_count) {
        s->vertices_unshaded += n;
        s->primitives_out++;
        return FF_STAGE_PASS;       /* "vertices flow through the unit unmodified" */
    }
    uint32_t index = (s->held_head + s->held_count) % VS_HELD_MAX;
    struct vs_held *h = &s->held[index];
    h->prim = *p;
    h->tag = m->tag;
    h->unchanged = !shade;
    h->outstanding = shade ? n : 0;
    s->held_count++;
    if (shade) {
        for (uint32_t i = 0; i < p->vertex_count; i++)
            if (fresh & (1u << i))
                add_vertex(s, p->handles[i], index);
    } else {
        s->vertices_unshaded += n;
    }
    emit_ready(s);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result take_mmio(struct vs *s, struct msg *m)
{
    const struct cs_mmio *io = (const struct cs_mmio *)m->payload;
    if (m->size < sizeof *io) {
        s->bad_mmio++;
        warn_once(s, WARN_MMIO, "malformed register message (%u bytes) passed on", m->size);
        return FF_STAGE_PASS;
    }
    if (io->op == CS_MMIO_WRITE) {
        if (stage_constants_take_mmio(&s->constants, io->offset, io->value)) {
            s->mmio_instpm++;
            return FF_STAGE_PASS;   /* the other stages' push constants follow INSTPM too */
        }
        if (pipeline_register_write64(&s->invocations, VS_INVOCATION_COUNT_OFFSET, io->offset,
                                      io->value)) {
            s->mmio_invocation_writes++;
            return FF_STAGE_DONE;
        }
        return FF_STAGE_PASS;
    }
    if (io->op == CS_MMIO_SYNC) {
        if (m->size < sizeof *io + sizeof(struct pipeline_registers)) {
            s->bad_mmio++;
            warn_once(s, WARN_MMIO, "pipeline sync without its registers (%u bytes) passed on",
                      m->size);
            return FF_STAGE_PASS;
        }
        struct pipeline_registers regs;
        memcpy(&regs, io->data, sizeof regs);
        regs.value[PIPE_REG_VS_INVOCATIONS] = s->invocations;
        regs.written |= (uint64_t)1 << PIPE_REG_VS_INVOCATIONS;
        memcpy(((struct cs_mmio *)m->payload)->data, &regs, sizeof regs);
        s->mmio_syncs++;
    }
    return FF_STAGE_PASS;
}

/* Everything comes here (every state id and every kind is listed as work), so
 * that nothing overtakes the primitives waiting for their threads. */
static enum ff_stage_work_result vs_work(void *context, struct msg *m)
{
    struct vs *s = context;
    if (m->kind == MSG_PRIMITIVE)
        return take_primitive(s, m);
    /* not a primitive: the partial batch goes now, and what follows waits until
     * all the work ahead has left (state applies to later work only; a sync
     * reports once the threads ahead ended) */
    close_open_batch(s);
    if (s->held_count) {
        s->stall_drain++;
        return FF_STAGE_NOT_NOW;
    }
    if (m->kind == MSG_STATE) {
        vs_take_state(s, (const struct cs_state_packet *)m->payload);
        s->ff.stats.taken++;
        return FF_STAGE_PASS;
    }
    if (m->kind == MSG_MMIO)
        return take_mmio(s, m);
    return FF_STAGE_PASS;
}

/* ---- unit ------------------------------------------------------------------------------ */

static const struct port_desc vs_ports[] = {
    { .name = "vf", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .help = "state, primitives and register traffic from VF, in order" },
    { .name = "hs", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_PRIMITIVE),
      .help = "state, shaded primitives and register traffic to HS, in order" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "VS thread requests to the subslices' td.vs" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "thread ends from the URB (urb.eot_vs)" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB), .flags = PORT_OPTIONAL,
      .help = "URB reads of the vertices' input rows (urb.client[i])" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "the URB's replies (urb.client_reply[i])" },
    PORT_END
};

static const struct param_desc vs_params[] = {
    PARAM_U32_FIELD("per_cycle", struct vs, per_cycle, 1, 1, 64,
                    "input messages (state, primitives) handled per cycle"),
    PARAM_U32_FIELD("max_held", struct vs, max_held, 64, 1, VS_HELD_MAX,
                    "primitives waiting for their vertices' threads, at most (more wait in VF)"),
    PARAM_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vs, f, m, h)
static const struct stat_desc vs_stats[] = {
    C("vertices_shaded", vertices_shaded, "vertices", "new vertices sent to VS threads"),
    C("vertices_cached", vertices_cached, "vertices",
      "vertices of primitives that were no new vertex (vertex cache hits: not shaded again)"),
    C("vertices_unshaded", vertices_unshaded, "vertices",
      "new vertices passed on unshaded (VS disabled or no kernel)"),
    C("primitives_in", primitives_in, "primitives", "primitives taken from VF"),
    C("primitives_out", primitives_out, "primitives", "primitives passed to HS"),
    C("threads", threads_dispatched, "threads", "SIMD8 VS threads dispatched"),
    C("partial_threads", partial_threads, "threads", "threads with fewer than 8 vertices"),
    C("urb_reads", urb_reads, "messages", "URB reads of vertex input rows"),
    C("invocations", invocations, "vertices", "VS_INVOCATION_COUNT"),
    C("stall.held", stall_held, "events", "primitives held: too many waiting for threads"),
    C("stall.batches", stall_batches, "events", "primitives held: no batch free for their vertices"),
    C("stall.urb_read", stall_urb_read, "cycles", "ticks a full batch waited for its URB data"),
    C("stall.urb_port", stall_urb_port, "events", "URB read requests refused by the channel"),
    C("stall.drain", stall_drain, "events",
      "state or register traffic held until the work ahead left"),
    C("bad.kernel", bad_kernel, "packets", "3DSTATE_VS enabling the VS with no kernel"),
    C("bad.read_length", bad_read_length, "packets",
      "Vertex URB Entry Read Length 0 or beyond what the payload holds"),
    C("bad.grf_start", bad_grf_start, "packets", "Dispatch GRF Start below R2"),
    C("bad.simd4x2", bad_simd4x2, "packets", "SIMD4x2 dispatch asked (not modelled)"),
    C("bad.primitive", bad_primitive, "messages", "malformed primitives"),
    C("bad.urb_reply", bad_urb_reply, "messages", "URB replies for no read in flight"),
    C("bad.mmio", bad_mmio, "messages", "malformed register messages"),
    C("state.vs", state_vs, "packets", "3DSTATE_VS taken"),
    C("state.constant", state_constant, "packets", "3DSTATE_CONSTANT_VS taken"),
    C("state.base_address", state_bases, "packets", "STATE_BASE_ADDRESS taken"),
    C("state.pointers", state_pointers, "packets",
      "3DSTATE_BINDING_TABLE_POINTERS_VS / SAMPLER_STATE_POINTERS_VS taken"),
    C("state.other", state_other, "packets", "other state packets passed on"),
    C("gen4.state_faults", gen4_state_faults, "packets",
      "Gen4 VS_STATE pointers outside memory (the VS disabled)"),
    C("gen4.curbe_faults", gen4_curbe_faults, "packets",
      "Gen4 CURBE constants outside memory (zeros pushed)"),
    C("mmio.instpm", mmio_instpm, "writes", "INSTPM writes seen"),
    C("mmio.invocation_writes", mmio_invocation_writes, "writes", "VS_INVOCATION_COUNT writes"),
    C("mmio.syncs", mmio_syncs, "messages", "pipeline syncs passed on with the VS counter"),
    STAGE_THREADS_STATS("threads.", struct vs, threads),
    FF_STAGE_STATS("ff.", struct vs, ff),
    STAT_END
};
#undef C

static void vs_clear(struct vs *s)
{
    s->batch_head = s->batch_count = 0;
    s->held_head = s->held_count = 0;
    s->flight_free_count = STAGE_THREADS_MAX;
    for (uint32_t i = 0; i < STAGE_THREADS_MAX; i++)
        s->flight_free[i] = (uint16_t)(STAGE_THREADS_MAX - 1 - i);
}

static int vs_realize(struct unit *u, struct gt_error *err)
{
    struct vs *s = unit_state(u);
    s->unit = u;
    s->in = unit_port(u, "vf", 0);
    s->out = unit_port(u, "hs", 0);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!port_is_bound(s->urb))
        s->urb = NULL;
    if (!port_is_bound(s->urb_reply))
        s->urb_reply = NULL;
    if (stage_threads_init(&s->threads, u, FFID_VS, err) != 0)
        return -1;
    /* every state id is work: see vs_work() */
    struct ff_stage_id *ids = gt_xcalloc(SPEC_ID_COUNT, sizeof *ids);
    uint32_t n = 0;
    for (uint32_t id = SPEC_ID_NONE + 1; id < SPEC_ID_COUNT; id++)
        ids[n++] = (struct ff_stage_id){ id, FF_STAGE_WORK };
    uint32_t kinds = 0;
    for (uint32_t k = 0; k < MSG_KIND_COUNT; k++)
        kinds |= MSG_BIT(k);
    int rc = ff_stage_init(&s->ff, &(struct ff_stage_config){
        .in = s->in, .out = s->out, .ids = ids, .id_count = n, .work_kinds = kinds,
        .per_cycle = s->per_cycle, .work = vs_work, .context = s,
    }, err);
    free(ids);
    if (rc)
        return -1;
    if (!s->urb || !s->urb_reply) {
        gt_error_set(err, "vs: \"urb\" and \"urb_reply\" must be linked (vertex input rows are "
                     "read from the URB)");
        return -1;
    }
    vs_clear(s);
    return 0;
}

static void vs_reset(struct unit *u)
{
    struct vs *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    stage_threads_reset(&s->threads);
    memset(&s->kernel, 0, sizeof s->kernel);
    memset(&s->bases, 0, sizeof s->bases);
    memset(&s->constants, 0, sizeof s->constants);
    s->read_offset = s->read_length = s->read_rows = 0;
    s->grf_start = VS_FIRST_DATA_REG;
    s->simd4x2 = false;
    s->lanes = VS_LANES;
    s->statistics = false;
    s->invocations = 0;
    vs_clear(s);
}

static enum unit_activity vs_tick(struct unit *u)
{
    struct vs *s = unit_state(u);
    take_thread_ends(s);
    take_urb_replies(s);
    emit_ready(s);
    dispatch_ready(s);
    enum ff_stage_status st = ff_stage_tick(&s->ff, u);
    /* nothing more waits at the input: a partial batch goes rather than
     * stalling the pipeline to fill a thread */
    if (!port_peek(s->in))
        close_open_batch(s);
    send_reads(s);
    dispatch_ready(s);
    return ff_stage_activity(st);
}

static void vs_destroy(struct unit *u)
{
    struct vs *s = unit_state(u);
    if (s->unit)
        ff_stage_clear(&s->ff, unit_sim(u));
    stage_threads_release(&s->threads);
}

const struct unit_ops vs_ops = {
    .kind = "vs",
    .help = "Vertex Shader stage (Gen8/Gen9): shades each new vertex VF wrote once, 8 per SIMD8 "
            "thread with the SoA payload read from the URB, and passes primitives on in order "
            "once their vertices' threads ended (seed 003 L12202-12308).",
    .state_size = sizeof(struct vs),
    .params = vs_params,
    .ports = vs_ports,
    .stats = vs_stats,
    .realize = vs_realize,
    .reset = vs_reset,
    .tick = vs_tick,
    .destroy = vs_destroy,
};
