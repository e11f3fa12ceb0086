/* units/sol/sol.c - the Stream Output Logic unit; see sol.h for what it
 * models (seed 003 L13677-13825). Input buffering is in sol_objects.c. */
#include "units/sol/sol.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/urb.h"

#define SOL_STREAMS 4u
#define SOL_BUFFERS 4u
#define SOL_MAX_DECLS 128u          /* Num Entries [0,128] (004 L5742-5758) */
#define SOL_MAX_READ_ROWS 17u       /* "Maximum readback is 17 256-bit units" (004 L5977) */
#define SOL_READ_BYTES (SOL_MAX_READ_ROWS * URB_ROW_BYTES)

/* SO registers (seed 003 L2181-2194). */
#define REG_SO_NUM_PRIMS_WRITTEN0 0x5200u
#define REG_SO_PRIM_STORAGE_NEEDED0 0x5240u
#define REG_SO_WRITE_OFFSET0 0x5280u

struct sol_decl {
    uint8_t mask;           /* Component Mask: x = bit 0 .. w = bit 3 */
    uint8_t reg;            /* Register Index: 128-bit units from the read offset */
    uint8_t hole;           /* Hole Flag */
    uint8_t slot;           /* Output Buffer Slot */
};

struct sol_buffer {
    bool enabled;                   /* SO Buffer Enable (else a zero-length buffer) */
    bool offset_write_enable;       /* DW1[21]: load SO_WRITE_OFFSET before the draw */
    bool offset_address_enable;     /* DW1[20]: store it after the draw */
    uint64_t base;                  /* Surface Base Address */
    uint64_t size;                  /* bytes: (Surface Size + 1) x 4 */
    uint64_t offset_address;        /* Stream Output Buffer Offset Address */
    uint32_t stream_offset;         /* Stream Offset */
    bool load_pending, store_owed;
    bool space_valid;
    /* Gen7 (seed 000 L2043-2118): the buffer is bound by its own packet (a
     * nonzero Surface Pitch) and enabled by 3DSTATE_STREAMOUT's SO Buffer
     * Enable; its size is Surface End Address - Surface Base Address. */
    bool gen7_bound;
    uint64_t gen7_size;
    struct gpu_address_space space; /* the SO_BUFFER packet's */
};

struct msg_queue {
    struct msg *head, *tail;
    uint32_t count;
};

struct sol {
    uint32_t max_reports;

    struct port *in, *out, *urb, *urb_reply, *l3, *l3_reply, *drained;
    struct unit *unit;
    struct ff_stage ff;

    /* 3DSTATE_STREAMOUT */
    bool so_enable, rendering_disable, statistics, trailing;
    uint32_t force_rendering, render_stream;
    uint32_t read_offset[SOL_STREAMS], read_rows[SOL_STREAMS];
    uint32_t pitch[SOL_BUFFERS];
    uint32_t gen7_buffer_enables;           /* Gen7 DW1 11:8 SO Buffer Enable [3:0] */
    /* 3DSTATE_SO_DECL_LIST */
    uint32_t selects[SOL_STREAMS], decl_count[SOL_STREAMS];
    struct sol_decl decls[SOL_STREAMS][SOL_MAX_DECLS];
    /* 3DSTATE_SO_BUFFER */
    struct sol_buffer buffers[SOL_BUFFERS];
    /* 3DSTATE_GS */
    bool gs_enable;
    uint32_t gs_output_vertex_size;

    /* the registers */
    uint64_t prims_written[SOL_STREAMS], storage_needed[SOL_STREAMS];
    uint64_t write_offset[SOL_BUFFERS];     /* 32-bit registers (a level stat) */

    /* the primitive at the head */
    bool in_primitive, streaming;
    uint32_t object_count, per_object;
    uint32_t indices[SOL_MAX_OBJECT_INDICES];
    uint32_t needed, arrived;               /* vertex masks */
    uint8_t vertex_data[PRIM_MAX_VERTICES][SOL_READ_BYTES];
    bool have_draw;
    uint32_t last_draw;

    /* traffic */
    struct msg_queue urb_queue, l3_queue;
    uint64_t l3_outstanding;
    uint32_t l3_tag;
    bool line_open;
    uint64_t line;                          /* physical line being gathered */
    uint32_t line_bytes;
    uint32_t reports;

    /* stats */
    uint64_t primitives, forwarded, stopped_render_disabled, stopped_other_stream;
    uint64_t stopped_patch_list, objects, objects_written, overflows, vertices_written;
    uint64_t bytes_written, urb_reads, urb_dereferences, l3_writes, offset_loads, offset_stores;
    uint64_t syncs, register_writes;
    uint64_t bad_messages, unsupported_topology, unsupported_generation, decl_not_selected;
    uint64_t register_beyond_read, components_beyond_buffer, read_length_clamped;
    uint64_t decl_list_short, faults, urb_unlinked, bad_so_buffer;
};

static const struct param_desc sol_params[] = {
    PARAM_U32_FIELD("max_reports", struct sol, max_reports, 20, 0, 1000000,
                    "bad-programming reports logged (all are counted)"),
    PARAM_END
};

static const struct port_desc sol_ports[] = {
    { .name = "gs", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .help = "state, primitives and in-band register messages from the GS stage, in order" },
    { .name = "clip", .direction = PORT_OUT,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "the rendered stream's primitives, state and register messages to CLIP" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB), .flags = PORT_OPTIONAL,
      .help = "URB_OP_READ of streamed vertices, URB_OP_DEREFERENCE of stopped primitives" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "the URB's data replies" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "SO buffer and offset writes as 64-byte line requests" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "the L3's write completions" },
    { .name = "drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "CS_MMIO_SYNC_DONE back to the CS when SOL ends the modelled pipeline" },
    PORT_END
};

#define C(n, f, h) STAT_COUNTER_FIELD(n, struct sol, f, "count", h)
#define PER_STREAM(name, f, kind, h)                                                    \
    { name ".0", kind, offsetof(struct sol, f[0]), "count", h },                        \
    { name ".1", kind, offsetof(struct sol, f[1]), "count", h },                        \
    { name ".2", kind, offsetof(struct sol, f[2]), "count", h },                        \
    { name ".3", kind, offsetof(struct sol, f[3]), "count", h }
static const struct stat_desc sol_stats[] = {
    FF_STAGE_STATS("ff.", struct sol, ff),
    C("primitives", primitives, "primitive packets received"),
    C("forwarded", forwarded, "primitives passed on to CLIP"),
    C("stopped.render_disabled", stopped_render_disabled,
      "primitives stopped here: rendering disabled (or no CLIP linked)"),
    C("stopped.other_stream", stopped_other_stream,
      "primitives stopped here: not the Render Stream Select stream"),
    C("stopped.patch_list", stopped_patch_list, "PATCHLIST_n primitives (never passed on)"),
    C("objects", objects, "objects the SO function took (after input buffering)"),
    C("objects_written", objects_written, "objects written to the SO buffers"),
    C("overflows", overflows, "objects not written: a selected buffer was full or disabled"),
    C("vertices_written", vertices_written, "vertices written to the SO buffers"),
    C("bytes_written", bytes_written, "bytes written to the SO buffers"),
    PER_STREAM("so_num_prims_written", prims_written, STAT_LEVEL,
               "SO_NUM_PRIMS_WRITTEN of the stream (the register)"),
    PER_STREAM("so_prim_storage_needed", storage_needed, STAT_LEVEL,
               "SO_PRIM_STORAGE_NEEDED of the stream (the register)"),
    PER_STREAM("so_write_offset", write_offset, STAT_LEVEL,
               "SO_WRITE_OFFSET of the buffer (the register, bytes)"),
    C("urb_reads", urb_reads, "URB_OP_READ of vertex data"),
    C("urb_dereferences", urb_dereferences, "URB references dropped for stopped primitives"),
    C("l3_writes", l3_writes, "64-byte line write requests to the L3"),
    C("offset_loads", offset_loads, "SO_WRITE_OFFSET loads by 3DSTATE_SO_BUFFER"),
    C("offset_stores", offset_stores, "SO_WRITE_OFFSET stores to the offset address"),
    C("syncs", syncs, "in-band CS_MMIO_SYNCs answered"),
    C("register_writes", register_writes, "in-band writes of SOL's registers"),
    C("bad_messages", bad_messages, "malformed messages"),
    C("unsupported_topology", unsupported_topology,
      "streamed primitives of a topology SOL does not take (LINELOOP, QUADLIST, QUADSTRIP)"),
    C("unsupported_generation", unsupported_generation, "SO packets of a generation before Gen7"),
    C("decl_not_selected", decl_not_selected,
      "SO_DECLs naming a buffer outside the stream's Stream To Buffer Selects (skipped)"),
    C("register_beyond_read", register_beyond_read,
      "components from past the stream's vertex read length (zeros written)"),
    C("components_beyond_buffer", components_beyond_buffer,
      "components that fell past the buffer's end (a pitch smaller than the data; dropped)"),
    C("read_length_clamped", read_length_clamped,
      "vertex read lengths beyond 17 rows, read as 17"),
    C("decl_list_short", decl_list_short, "Num Entries beyond the SO_DECLs the command carries"),
    C("faults", faults, "SO memory accesses that did not translate"),
    C("urb_unlinked", urb_unlinked, "vertices streamed with no URB linked (zeros written)"),
    C("bad_so_buffer", bad_so_buffer,
      "Gen7 3DSTATE_SO_BUFFERs with a bad pitch or an end below the base (taken as unbound)"),
    STAT_END
};
#undef C
#undef PER_STREAM

static void report(struct sol *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct sol *s, const char *fmt, ...)
{
    if (s->reports >= s->max_reports)
        return;
    s->reports++;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(s->unit, SIM_LOG_NOTE, "%s", text);
}

/* ---- outgoing traffic ---------------------------------------------------------------- */

static void queue_push(struct msg_queue *q, struct msg *m)
{
    m->next = NULL;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
    q->count++;
}

static void queue_send(struct msg_queue *q, struct port *p)
{
    while (q->head && port_can_send(p)) {
        struct msg *m = q->head;
        q->head = m->next;
        if (!q->head)
            q->tail = NULL;
        q->count--;
        m->next = NULL;
        port_try_send(p, m);
    }
}

static void queue_clear(struct msg_queue *q, struct sim *sim)
{
    while (q->head) {
        struct msg *m = q->head;
        q->head = m->next;
        msg_free(sim, m);
    }
    q->tail = NULL;
    q->count = 0;
}

/* Ends the line being gathered: one write request for the bytes it got. */
static void close_line(struct sol *s)
{
    if (!s->line_open)
        return;
    s->line_open = false;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_MEMORY_REQUEST, sizeof(struct memreq));
    struct memreq *r = (struct memreq *)m->payload;
    r->address = s->line * MEMREQ_LINE_BYTES;
    r->tag = s->l3_tag++;
    r->bytes = (uint16_t)(s->line_bytes < MEMREQ_LINE_BYTES ? s->line_bytes : MEMREQ_LINE_BYTES);
    r->op = MEMREQ_WRITE;
    r->target = MEMREQ_DATA;
    r->client = unit_id(s->unit);
    m->tag = r->tag;
    queue_push(&s->l3_queue, m);
    s->l3_outstanding++;
    s->l3_writes++;
}

/* Writes `bytes` (within one line) at a virtual address of a buffer: the
 * bytes into memory now, the line to the L3 (gathered while consecutive
 * writes stay in it). */
static void write_memory(struct sol *s, struct sol_buffer *b, uint64_t address, const void *data,
                         uint32_t bytes)
{
    struct gt_error err;
    if (!b->space_valid || gpu_address_space_write(&b->space, address, data, bytes, &err) != 0) {
        s->faults++;
        report(s, "SO write at 0x%" PRIx64 " did not translate: dropped", address);
        return;
    }
    if (!s->l3)
        return;
    uint64_t physical;
    if (gpu_address_space_translate(&b->space, address, &physical) != 0)
        return;
    uint64_t line = physical / MEMREQ_LINE_BYTES;
    if (s->line_open && line != s->line)
        close_line(s);
    if (!s->line_open) {
        s->line_open = true;
        s->line = line;
        s->line_bytes = 0;
    }
    s->line_bytes += bytes;
}

/* ---- registers ----------------------------------------------------------------------- */

/* DW1[21] loads "occur before the execution of the primitive" (L13732). */
static void apply_pending_loads(struct sol *s)
{
    for (uint32_t i = 0; i < SOL_BUFFERS; i++) {
        struct sol_buffer *b = &s->buffers[i];
        if (!b->load_pending)
            continue;
        b->load_pending = false;
        s->offset_loads++;
        if (b->stream_offset != 0xFFFFFFFFu) {
            s->write_offset[i] = b->stream_offset;
            continue;
        }
        uint32_t value = 0;
        struct gt_error err;
        if (!b->space_valid ||
            gpu_address_space_read(&b->space, b->offset_address, &value, 4, &err) != 0) {
            s->faults++;
            report(s, "SO buffer %u offset load from 0x%" PRIx64 " did not translate: 0", i,
                   b->offset_address);
            value = 0;
        }
        s->write_offset[i] = value;
    }
}

/* DW1[20] stores "occur after the execution of the primitive" (L13732). */
static void flush_stores(struct sol *s)
{
    for (uint32_t i = 0; i < SOL_BUFFERS; i++) {
        struct sol_buffer *b = &s->buffers[i];
        if (!b->store_owed)
            continue;
        b->store_owed = false;
        s->offset_stores++;
        uint32_t value = (uint32_t)s->write_offset[i];
        write_memory(s, b, b->offset_address, &value, 4);
    }
    close_line(s);
}

static void owe_stores(struct sol *s)
{
    for (uint32_t i = 0; i < SOL_BUFFERS; i++)
        if (s->buffers[i].offset_address_enable)
            s->buffers[i].store_owed = true;
}

/* An in-band register write; false when the register is not SOL's. */
static bool take_register_write(struct sol *s, uint32_t offset, uint32_t value)
{
    for (uint32_t i = 0; i < SOL_STREAMS; i++)
        if (pipeline_register_write64(&s->prims_written[i], REG_SO_NUM_PRIMS_WRITTEN0 + 8 * i,
                                      offset, value) ||
            pipeline_register_write64(&s->storage_needed[i], REG_SO_PRIM_STORAGE_NEEDED0 + 8 * i,
                                      offset, value)) {
            s->register_writes++;
            return true;
        }
    if (offset >= REG_SO_WRITE_OFFSET0 && offset < REG_SO_WRITE_OFFSET0 + 16) {
        s->write_offset[(offset - REG_SO_WRITE_OFFSET0) / 4] = value;
        s->register_writes++;
        return true;
    }
    return false;
}

/* ---- state --------------------------------------------------------------------------- */

static void gen7_update_enables(struct sol *s);

static void take_streamout(struct sol *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_STREAMOUT *v = cs_state_common(p);
    s->so_enable = v->SOFunctionEnable;
    s->rendering_disable = v->RenderingDisable;
    s->force_rendering = v->ForceRendering;
    s->render_stream = v->RenderStreamSelect & 3;
    s->trailing = v->ReorderMode == 1;
    s->statistics = v->SOStatisticsEnable;
    const uint32_t offsets[SOL_STREAMS] = { v->Stream0VertexReadOffset, v->Stream1VertexReadOffset,
                                            v->Stream2VertexReadOffset, v->Stream3VertexReadOffset };
    const uint32_t lengths[SOL_STREAMS] = { v->Stream0VertexReadLength, v->Stream1VertexReadLength,
                                            v->Stream2VertexReadLength, v->Stream3VertexReadLength };
    for (uint32_t i = 0; i < SOL_STREAMS; i++) {
        s->read_offset[i] = offsets[i] & 1;
        /* U5-1 count of 256-bit units; at most 17 (004 L5977) */
        s->read_rows[i] = lengths[i] + 1;
        if (s->read_rows[i] > SOL_MAX_READ_ROWS) {
            s->read_length_clamped++;
            report(s, "stream %u vertex read length %u rows: read as %u", i, s->read_rows[i],
                   SOL_MAX_READ_ROWS);
            s->read_rows[i] = SOL_MAX_READ_ROWS;
        }
    }
    if (p->gen == 7) {
        /* Gen7 (seed 000 L2354-2529): no Force Rendering (DW1 24:23 reserved,
         * the unpacker leaves it 0 = Normal), no pitches in this command (they
         * are in 3DSTATE_SO_BUFFER), DW1 11:8 SO Buffer Enable [3:0]. */
        s->force_rendering = 0;
        s->gen7_buffer_enables = (uint32_t)v->SOBufferEnable0 | (uint32_t)v->SOBufferEnable1 << 1 |
                                 (uint32_t)v->SOBufferEnable2 << 2 | (uint32_t)v->SOBufferEnable3 << 3;
        gen7_update_enables(s);
        return;
    }
    s->pitch[0] = v->Buffer0SurfacePitch;
    s->pitch[1] = v->Buffer1SurfacePitch;
    s->pitch[2] = v->Buffer2SurfacePitch;
    s->pitch[3] = v->Buffer3SurfacePitch;
}

/* SO_DECL: Component Mask 3:0, Register Index 9:4, Hole Flag 11, Output
 * Buffer Slot 13:12 (reference genxml); four 16-bit decls per SO_DECL_ENTRY,
 * stream 0 in DW0 15:0 .. stream 3 in DW1 31:16. */
static struct sol_decl decode_decl(uint32_t bits)
{
    struct sol_decl d;
    d.mask = bits & 0xF;
    d.reg = (bits >> 4) & 0x3F;
    d.hole = (bits >> 11) & 1;
    d.slot = (bits >> 12) & 3;
    return d;
}

static void take_decl_list(struct sol *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_SO_DECL_LIST *v = cs_state_common(p);
    const uint32_t selects[SOL_STREAMS] = { v->StreamToBufferSelects0, v->StreamToBufferSelects1,
                                            v->StreamToBufferSelects2, v->StreamToBufferSelects3 };
    const uint32_t counts[SOL_STREAMS] = { v->NumEntries0, v->NumEntries1, v->NumEntries2,
                                           v->NumEntries3 };
    uint32_t carried = p->dword_count > 3 ? (p->dword_count - 3) / 2 : 0;
    for (uint32_t st = 0; st < SOL_STREAMS; st++) {
        s->selects[st] = selects[st] & 0xF;
        uint32_t n = counts[st];
        if (n > SOL_MAX_DECLS || n > carried) {
            s->decl_list_short++;
            report(s, "3DSTATE_SO_DECL_LIST: stream %u has %u entries, the command carries %u", st,
                   n, carried);
            n = carried < SOL_MAX_DECLS ? carried : SOL_MAX_DECLS;
        }
        s->decl_count[st] = n;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t dw = p->dwords[3 + 2 * i + st / 2];
            s->decls[st][i] = decode_decl(st & 1 ? dw >> 16 : dw & 0xFFFF);
        }
    }
}

static void take_so_buffer(struct sol *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_SO_BUFFER *v = cs_state_common(p);
    struct sol_buffer *b = &s->buffers[v->SOBufferIndex & 3];
    b->enabled = v->SOBufferEnable;
    b->offset_write_enable = v->StreamOffsetWriteEnable;
    b->offset_address_enable = v->StreamOutputBufferOffsetAddressEnable;
    b->base = v->SurfaceBaseAddress;
    b->size = b->enabled ? ((uint64_t)v->SurfaceSize + 1) * 4 : 0;   /* U30-1 dwords */
    b->offset_address = v->StreamOutputBufferOffsetAddress;
    b->stream_offset = v->StreamOffset;
    b->load_pending = b->offset_write_enable;
    b->store_owed = false;
    gpu_address_space_init(&b->space, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    b->space_valid = sim_memory(unit_sim(s->unit)) != NULL;
}

/* Gen7: a buffer takes part when 3DSTATE_STREAMOUT enables it and its
 * 3DSTATE_SO_BUFFER bound it. SO Buffer Enable clear: "considered 'not bound'
 * and effectively treated as a zero-length buffer for the purposes of SO
 * output and overflow detection" (seed 000 L2467-2474). "A Surface Pitch of 0
 * indicates an un-bound buffer. No writes are performed" (L2103): taken the
 * same way (a stream selecting it overflows, as for a disabled buffer). */
static void gen7_update_enables(struct sol *s)
{
    for (uint32_t i = 0; i < SOL_BUFFERS; i++) {
        struct sol_buffer *b = &s->buffers[i];
        b->enabled = (s->gen7_buffer_enables >> i & 1) && b->gen7_bound;
        b->size = b->enabled ? b->gen7_size : 0;
    }
}

/* Gen7 3DSTATE_SO_BUFFER (seed 000 L2043-2118): DW1 30:29 SO Buffer Index,
 * 11:0 Surface Pitch in bytes ([0,2048], "0 or a multiple of 4"), DW2 31:2
 * Surface Base Address, DW3 31:2 Surface End Address ("the ending DWord
 * address of the buffer"). The seed does not say whether the end is
 * inclusive; it is taken as the first address past the buffer, as Mesa's
 * Gen7 drivers program it (base + buffer size: i965 gen7_sol_state.c, crocus
 * crocus_state.c; public sources). There is no offset load or store here: the
 * write offsets are the SO_WRITE_OFFSETn registers, which MI_LOAD_REGISTER_*
 * set and MI_STORE_REGISTER_MEM reads through the CS's register path
 * (take_register_write, the sync). */
static void take_so_buffer_gen7(struct sol *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_SO_BUFFER *v = cs_state_common(p);
    uint32_t index = v->SOBufferIndex & 3;
    struct sol_buffer *b = &s->buffers[index];
    uint32_t pitch = v->SurfacePitch;
    b->offset_write_enable = b->offset_address_enable = false;
    b->load_pending = b->store_owed = false;
    b->offset_address = 0;
    b->stream_offset = 0;
    b->base = v->SurfaceBaseAddress;
    b->gen7_bound = pitch != 0;
    b->gen7_size = 0;
    if (pitch % 4 != 0 || pitch > 2048 || v->SurfaceEndAddress < v->SurfaceBaseAddress) {
        s->bad_so_buffer++;
        report(s, "Gen7 3DSTATE_SO_BUFFER %u: pitch %u, base 0x%" PRIx64 ", end 0x%" PRIx64
               ": taken as unbound", index, pitch, v->SurfaceBaseAddress, v->SurfaceEndAddress);
        b->gen7_bound = false;
    } else {
        b->gen7_size = v->SurfaceEndAddress - v->SurfaceBaseAddress;
    }
    s->pitch[index] = b->gen7_bound ? pitch : 0;
    gpu_address_space_init(&b->space, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    b->space_valid = sim_memory(unit_sim(s->unit)) != NULL;
    gen7_update_enables(s);
}

static void take_state(void *context, const struct cs_state_packet *p)
{
    struct sol *s = context;
    flush_stores(s);            /* the draw before this state has ended */
    switch ((enum spec_id)p->id) {
    case SPEC_ID_3DSTATE_STREAMOUT:
        take_streamout(s, p);
        break;
    case SPEC_ID_3DSTATE_SO_DECL_LIST:
        /* the same layout on Gen7 (seed 000 L2120-2254) */
        if (p->gen < 7) {
            s->unsupported_generation++;
            break;
        }
        take_decl_list(s, p);
        break;
    case SPEC_ID_3DSTATE_SO_BUFFER:
        if (p->gen < 7) {
            s->unsupported_generation++;
            break;
        }
        if (p->gen == 7)
            take_so_buffer_gen7(s, p);
        else
            take_so_buffer(s, p);
        break;
    case SPEC_ID_3DSTATE_GS: {
        const struct spec_3DSTATE_GS *v = cs_state_common(p);
        s->gs_enable = v->Enable;
        s->gs_output_vertex_size = v->OutputVertexSize;
        break;
    }
    case SPEC_ID_3DPRIMITIVE:
        /* a draw starts: the loads before it, the stores after it */
        apply_pending_loads(s);
        owe_stores(s);
        break;
    default:
        break;
    }
}

/* ---- primitives ---------------------------------------------------------------------- */

/* SOL_INT::Render_Enable (L13714) without the depth/stencil/PS terms. */
static bool render_enabled(const struct sol *s)
{
    if (s->force_rendering == 3)
        return true;
    if (s->force_rendering == 2)
        return false;
    return !s->rendering_disable && !(s->gs_enable && s->gs_output_vertex_size == 0);
}

static void read_vertices(struct sol *s, const struct primitive_packet *p, uint32_t stream)
{
    s->arrived = 0;
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        if (!(s->needed & (1u << v)))
            continue;
        memset(s->vertex_data[v], 0, SOL_READ_BYTES);
        if (!s->urb) {
            s->urb_unlinked++;
            s->arrived |= 1u << v;
            continue;
        }
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
        struct urb_msg *q = (struct urb_msg *)m->payload;
        q->op = URB_OP_READ;
        q->client = URB_CLIENT_GS;      /* the owner does not matter to a read */
        q->tag = v;
        q->count = 1;
        q->handles[0] = p->handles[v];
        q->row = s->read_offset[stream] + ((p->half_row >> v) & 1u);
        q->rows = s->read_rows[stream];
        m->tag = v;
        queue_push(&s->urb_queue, m);
        s->urb_reads++;
    }
}

static void take_urb_replies(struct sol *s)
{
    struct msg *m;
    while ((m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *r = (const struct urb_msg *)m->payload;
        if (m->kind != MSG_URB || m->size < sizeof *r || r->op != URB_OP_DATA ||
            r->tag >= PRIM_MAX_VERTICES || !(s->needed & ~s->arrived & (1u << r->tag)) ||
            m->size < sizeof *r + (size_t)r->rows * URB_ROW_BYTES) {
            s->bad_messages++;
            report(s, "unexpected %s message on urb_reply dropped", msg_kind_name(m->kind));
        } else {
            uint32_t bytes = r->rows * URB_ROW_BYTES;
            memcpy(s->vertex_data[r->tag], r->data, bytes < SOL_READ_BYTES ? bytes : SOL_READ_BYTES);
            s->arrived |= 1u << r->tag;
        }
        msg_free(unit_sim(s->unit), m);
        unit_progress(s->unit);
    }
}

/* One vertex through the stream's SO_DECLs (L13792). */
static void write_vertex(struct sol *s, uint32_t stream, const uint8_t *data)
{
    uint32_t position[SOL_BUFFERS] = { 0, 0, 0, 0 };
    uint32_t read_bytes = s->read_rows[stream] * URB_ROW_BYTES;
    for (uint32_t i = 0; i < s->decl_count[stream]; i++) {
        const struct sol_decl *d = &s->decls[stream][i];
        if (!(s->selects[stream] & (1u << d->slot))) {
            s->decl_not_selected++;
            report(s, "stream %u SO_DECL %u writes buffer %u, not in its Stream To Buffer "
                   "Selects 0x%x: skipped", stream, i, d->slot, s->selects[stream]);
            continue;
        }
        struct sol_buffer *b = &s->buffers[d->slot];
        for (uint32_t c = 0; c < 4; c++) {
            if (!(d->mask & (1u << c)))
                continue;
            uint64_t offset = s->write_offset[d->slot] + position[d->slot];
            position[d->slot] += 4;
            if (d->hole)
                continue;           /* a hole skips the dword */
            uint32_t source = 16u * d->reg + 4u * c, value = 0;
            if (source + 4 > read_bytes)
                s->register_beyond_read++;
            else
                memcpy(&value, data + source, 4);
            if (offset + 4 > b->size) {
                s->components_beyond_buffer++;
                continue;
            }
            write_memory(s, b, b->base + offset, &value, 4);
            s->bytes_written += 4;
        }
    }
    for (uint32_t b = 0; b < SOL_BUFFERS; b++)
        if (s->selects[stream] & (1u << b))
            s->write_offset[b] = (uint32_t)(s->write_offset[b] + s->pitch[b]);
    s->vertices_written++;
}

/* The SO function on the head primitive's objects (L13782-13792). */
static void stream_out(struct sol *s, uint32_t stream)
{
    uint32_t selects = s->selects[stream];
    for (uint32_t o = 0; o < s->object_count; o++) {
        const uint32_t *vertices = &s->indices[o * s->per_object];
        bool overflow = false;
        for (uint32_t b = 0; b < SOL_BUFFERS; b++) {
            if (!(selects & (1u << b)))
                continue;
            if (!s->buffers[b].enabled ||
                s->write_offset[b] + (uint64_t)s->per_object * s->pitch[b] > s->buffers[b].size)
                overflow = true;
        }
        s->objects++;
        if (s->statistics)
            s->storage_needed[stream]++;
        if (overflow) {
            s->overflows++;
            continue;
        }
        if (s->statistics)
            s->prims_written[stream]++;
        s->objects_written++;
        for (uint32_t v = 0; v < s->per_object; v++)
            write_vertex(s, stream, s->vertex_data[vertices[v]]);
    }
    close_line(s);
}

/* Drops the primitive's URB references (units/common/primitive.h). */
static void dereference(struct sol *s, const struct primitive_packet *p)
{
    if (!s->urb)
        return;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    q->op = URB_OP_DEREFERENCE;
    q->client = URB_CLIENT_GS;
    if (p->owner_handle != URB_HANDLE_NONE) {
        q->count = 1;
        q->handles[0] = p->owner_handle;
    } else {
        q->count = p->vertex_count;
        memcpy(q->handles, p->handles, 4ull * p->vertex_count);
    }
    s->urb_dereferences += q->count;
    queue_push(&s->urb_queue, m);
}

/* The topology a packet is streamed out as (sol_objects). A strip triangle
 * that comes alone (VF sends each strip triangle as its own packet, units/
 * common/primitive.h PRIM_STRIP_ODD) is triangle 0 of sol_objects' table
 * unless its strip parity says otherwise: with PRIM_STRIP_ODD it is an
 * inverted ("odd", L13759-13767) triangle in strip order, which the table's
 * TRISTRIP_REV [0] reorders exactly as TRISTRIP's odd ones ((k, k+2, k+1)
 * LEADING, (k+1, k, k+2) TRAILING); without it it is taken in the order it
 * comes, as TRISTRIP [0] - also a lone TRISTRIP_REVERSE triangle, which only
 * the GS sends, already reordered (units/gs), so it is not reordered twice.
 * Longer strip packets follow the table by position. */
static uint32_t stream_topology(const struct primitive_packet *p)
{
    bool strip = p->topology == PRIM_TRISTRIP || p->topology == PRIM_TRISTRIP_REVERSE;
    if (!strip || p->vertex_count != 3)
        return p->topology;
    return p->flags & PRIM_STRIP_ODD ? PRIM_TRISTRIP_REVERSE : PRIM_TRISTRIP;
}
static enum ff_stage_work_result work_primitive(struct sol *s, struct msg *m)
{
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    if (m->size < sizeof *p || p->vertex_count > PRIM_MAX_VERTICES) {
        s->bad_messages++;
        report(s, "malformed primitive packet (%u bytes) dropped", m->size);
        return FF_STAGE_DONE;
    }
    uint32_t stream = p->stream & 3;
    if (!s->in_primitive) {
        s->in_primitive = true;
        s->primitives++;
        if (s->have_draw && p->draw != s->last_draw)
            flush_stores(s);
        s->have_draw = true;
        s->last_draw = p->draw;
        apply_pending_loads(s);
        s->streaming = s->so_enable && s->decl_count[stream] > 0;
        if (s->streaming) {
            owe_stores(s);
            s->object_count = sol_objects(stream_topology(p), p->vertex_count, s->trailing,
                                          s->indices, &s->per_object);
            if (!s->per_object) {
                s->unsupported_topology++;
                report(s, "a primitive of topology %u reached SOL: not streamed", p->topology);
                s->streaming = false;
            }
            s->needed = 0;
            for (uint32_t i = 0; i < s->object_count * s->per_object; i++)
                s->needed |= 1u << s->indices[i];
            if (s->streaming)
                read_vertices(s, p, stream);
        }
    }
    if (s->streaming && (s->arrived & s->needed) != s->needed)
        return FF_STAGE_NOT_NOW;        /* woken when the URB answers */
    if (s->streaming)
        stream_out(s, stream);
    s->in_primitive = false;
    s->streaming = false;
    bool forward = s->out != NULL && render_enabled(s);
    if (!forward) {
        s->stopped_render_disabled++;
    } else if (prim_patch_vertices(p->topology)) {
        forward = false;
        s->stopped_patch_list++;
    } else if (s->so_enable && stream != s->render_stream) {
        forward = false;
        s->stopped_other_stream++;
    }
    if (forward) {
        s->forwarded++;
        return FF_STAGE_PASS;
    }
    dereference(s, p);
    return FF_STAGE_DONE;
}

/* ---- register messages --------------------------------------------------------------- */

static enum ff_stage_work_result work_mmio(struct sol *s, struct msg *m)
{
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    if (m->size < sizeof *c) {
        s->bad_messages++;
        return FF_STAGE_DONE;
    }
    flush_stores(s);            /* the draw before this has ended */
    if (c->op == CS_MMIO_WRITE)
        return take_register_write(s, c->offset, c->value) ? FF_STAGE_DONE : FF_STAGE_PASS;
    if (c->op != CS_MMIO_SYNC)
        return FF_STAGE_PASS;
    /* hold it until the SO writes before it have completed */
    if (s->l3)
        queue_send(&s->l3_queue, s->l3);
    if (s->l3_outstanding || s->l3_queue.count || s->urb_queue.count)
        return FF_STAGE_NOT_NOW;        /* woken by the L3's replies (or a freed channel) */
    if (c->size < sizeof(struct pipeline_registers) ||
        m->size < sizeof *c + sizeof(struct pipeline_registers)) {
        s->bad_messages++;
        report(s, "CS_MMIO_SYNC without its pipeline registers: passed on unchanged");
    } else {
        struct pipeline_registers r;
        memcpy(&r, c->data, sizeof r);
        for (uint32_t i = 0; i < SOL_STREAMS; i++) {
            r.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + i] = s->prims_written[i];
            r.value[PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + i] = s->storage_needed[i];
            r.value[PIPE_REG_SO_WRITE_OFFSET0 + i] = (uint32_t)s->write_offset[i];
            r.written |= (uint64_t)1 << (PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + i);
            r.written |= (uint64_t)1 << (PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + i);
            r.written |= (uint64_t)1 << (PIPE_REG_SO_WRITE_OFFSET0 + i);
        }
        memcpy(c->data, &r, sizeof r);
    }
    if (!s->drained) {
        s->syncs++;
        return FF_STAGE_PASS;
    }
    if (!port_can_send(s->drained))
        return FF_STAGE_NOT_NOW;        /* woken when the channel frees up */
    struct msg *d = msg_alloc(unit_sim(s->unit), MSG_MMIO, m->size);
    memcpy(d->payload, m->payload, m->size);
    ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC_DONE;
    port_try_send(s->drained, d);
    s->syncs++;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work(void *context, struct msg *m)
{
    struct sol *s = context;
    if (m->kind == MSG_PRIMITIVE)
        return work_primitive(s, m);
    return work_mmio(s, m);
}

static void take_l3_replies(struct sol *s)
{
    struct msg *m;
    while ((m = port_pop(s->l3_reply)) != NULL) {
        if (m->kind != MSG_MEMORY_RESPONSE || s->l3_outstanding == 0) {
            s->bad_messages++;
            report(s, "unexpected %s message on l3_reply dropped", msg_kind_name(m->kind));
        } else {
            s->l3_outstanding--;
        }
        msg_free(unit_sim(s->unit), m);
        unit_progress(s->unit);
    }
}

/* ---- the unit ------------------------------------------------------------------------ */

static struct port *bound(struct unit *u, const char *name)
{
    struct port *p = unit_port(u, name, 0);
    return port_is_bound(p) ? p : NULL;
}

static int sol_realize(struct unit *u, struct gt_error *err)
{
    struct sol *s = unit_state(u);
    s->unit = u;
    s->in = unit_port(u, "gs", 0);
    s->out = bound(u, "clip");
    s->urb = bound(u, "urb");
    s->urb_reply = bound(u, "urb_reply");
    s->l3 = bound(u, "l3");
    s->l3_reply = bound(u, "l3_reply");
    s->drained = bound(u, "drained");
    if (!s->urb != !s->urb_reply)
        return gt_error_set(err, "link both urb and urb_reply, or neither");
    if (!s->l3 != !s->l3_reply)
        return gt_error_set(err, "link both l3 and l3_reply, or neither");
    static const struct ff_stage_id ids[] = {
        { SPEC_ID_3DSTATE_STREAMOUT, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SO_DECL_LIST, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SO_BUFFER, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_GS, FF_STAGE_TAKE },
        { SPEC_ID_3DPRIMITIVE, FF_STAGE_TAKE },
    };
    struct ff_stage_config config = {
        .in = s->in,
        .out = s->out,
        .ids = ids,
        .id_count = sizeof ids / sizeof ids[0],
        .work_kinds = MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
        .per_cycle = 1,
        .take_state = take_state,
        .work = work,
        .context = s,
    };
    return ff_stage_init(&s->ff, &config, err);
}

static void sol_reset(struct unit *u)
{
    struct sol *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    queue_clear(&s->urb_queue, unit_sim(u));
    queue_clear(&s->l3_queue, unit_sim(u));
    s->in_primitive = s->streaming = false;
    s->l3_outstanding = 0;
    s->line_open = false;
    s->have_draw = false;
}

static enum unit_activity sol_tick(struct unit *u)
{
    struct sol *s = unit_state(u);
    if (s->urb_reply)
        take_urb_replies(s);
    if (s->l3_reply)
        take_l3_replies(s);
    enum ff_stage_status st = ff_stage_tick(&s->ff, u);
    if (s->urb)
        queue_send(&s->urb_queue, s->urb);
    if (s->l3)
        queue_send(&s->l3_queue, s->l3);
    else
        queue_clear(&s->l3_queue, unit_sim(u));
    /* a held queue is woken by its channel; URB and L3 replies wake the unit */
    return ff_stage_activity(st);
}

static void sol_destroy(struct unit *u)
{
    struct sol *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    queue_clear(&s->urb_queue, unit_sim(u));
    queue_clear(&s->l3_queue, unit_sim(u));
}

const struct unit_ops sol_ops = {
    .kind = "sol",
    .help = "Stream Output Logic (Gen7-Gen9): SO_DECL lists, SO buffers, write offsets, "
            "overflow, SO_NUM_PRIMS_WRITTEN / SO_PRIM_STORAGE_NEEDED, rendering disable "
            "(seed 003 L13677-13825).",
    .state_size = sizeof(struct sol),
    .params = sol_params,
    .ports = sol_ports,
    .stats = sol_stats,
    .realize = sol_realize,
    .reset = sol_reset,
    .tick = sol_tick,
    .destroy = sol_destroy,
};
