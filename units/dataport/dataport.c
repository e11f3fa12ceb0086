/* units/dataport/dataport.c - the data port; see dataport.h for what it models. */
#include "units/dataport/dataport.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "units/common/memreq.h"
#include "fabric/sim.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"
#include "units/common/thread_msg.h"
#include "units/l3/l3.h"

#define DP_MAX_EUS 64
#define DP_MAX_LINES 256            /* lines one message may touch (SIMD16 x 4 ch x 2 lines) */
#define DP_MAX_TXN 1024

enum { SFID_DCRO = 9, SFID_DC0 = 10, SFID_DC1 = 12 };
enum { BTI_SLM = 254, BTI_STATELESS_NC = 253, BTI_STATELESS = 255 };

/* The messages the unit knows, whatever their encoding. */
enum dp_op {
    OP_NONE, OP_UNTYPED_READ, OP_UNTYPED_WRITE, OP_UNTYPED_ATOMIC,
    OP_A64_UNTYPED_READ, OP_A64_UNTYPED_WRITE, OP_A64_ATOMIC,
    OP_A64_BYTE_READ, OP_A64_BYTE_WRITE,
    OP_BYTE_READ, OP_BYTE_WRITE, OP_DWORD_READ, OP_DWORD_WRITE,
    OP_OWORD_READ, OP_OWORD_WRITE, OP_FENCE, OP_TYPED_READ, OP_TYPED_WRITE,
    OP_SCRATCH_READ, OP_SCRATCH_WRITE, OP_UNSUPPORTED,
};

enum model { M_NULL, M_BUFFER, M_A32, M_A64, M_SLM };

struct surf {
    enum model model;
    uint64_t base;
    uint64_t size;              /* bytes; 0 = unchecked */
    /* for typed messages */
    uint32_t type, format, width, height, depth, pitch;     /* extents, not minus one */
    bool tiled;
};

struct txn {
    bool used;
    uint32_t eu;                /* input/write-back port index */
    uint64_t start;             /* cycle the message was taken */
    struct msg *wb;             /* NULL: no reply due */
    uint32_t lines_left;
    uint32_t nlines;
    uint64_t lines[DP_MAX_LINES];
    uint8_t targets[DP_MAX_LINES];
    uint8_t ops[DP_MAX_LINES];
    bool ro;                    /* SFID 9: through the constant cache */
};

/* A surface state as read from memory and what resolve() makes of it. */
struct surf_memo {
    bool valid;
    uint32_t gen;
    uint32_t dw[16];
    struct surf sf;
};
#define DP_SURF_MEMOS 8

struct pending_line {
    uint32_t txn, index;
};

struct dp {
    /* params */
    uint32_t max_outstanding, latency, messages_per_cycle, slm_kib, gen, cc_lines, cc_latency;
    /* ports */
    struct port **eu, **wb;
    uint32_t eus;
    struct port *l3, *l3_reply;
    /* state */
    struct txn *txn;
    uint32_t free_txn;
    struct pending_line *lq;    /* line requests waiting for the l3 port */
    uint32_t lq_head, lq_count, lq_cap;
    uint32_t *ready;            /* txns whose reply can go (FIFO) */
    uint64_t *ready_due;
    uint32_t ready_head, ready_count;
    uint8_t *slm;
    uint64_t *cc;               /* constant cache: line number + 1 per entry, 0 empty */
    uint32_t next_eu;
    uint32_t in_flight;
    uint64_t txn_used[DP_MAX_TXN / 64];     /* txn[k].used, as bits */
    struct surf_memo memo[DP_SURF_MEMOS];
    uint32_t memo_next;
    /* stats */
    uint64_t messages, reads, writes, atomics, fences, lines, l3_replies, bytes_read, bytes_written;
    uint64_t slm_accesses, out_of_bounds, bti_beyond_table, state_faults, page_faults;
    uint64_t slm_out_of_bounds, unsupported, bad_messages, stall_l3, stall_writeback;
    uint64_t lines_dropped, latency_sum, sunk, cc_hits, cc_misses;
    uint32_t warned;
};

static const struct param_desc dp_params[] = {
    PARAM_U32_FIELD("max_outstanding", struct dp, max_outstanding, 64, 1, DP_MAX_TXN,
                    "messages in flight at most (waiting for their L3 lines)"),
    PARAM_U32_FIELD("latency", struct dp, latency, 20, 1, 100000,
                    "cycles from a message to its reply when no L3 is linked"),
    PARAM_U32_FIELD("messages_per_cycle", struct dp, messages_per_cycle, 1, 1, 64,
                    "messages taken per cycle"),
    PARAM_U32_FIELD("slm_kib", struct dp, slm_kib, 64, 4, 128,
                    "shared local memory of the subslice, KiB (seed 003 L17346: 64 KB)"),
    PARAM_U32_FIELD("gen", struct dp, gen, 9, 7, 9,
                    "generation of the message encodings when a thread names none"),
    PARAM_U32_FIELD("cc_lines", struct dp, cc_lines, 64, 0, 65536,
                    "constant cache lines (64 B, direct mapped; 0: none). The seed names the "
                    "read-only port's constant cache but gives no size: model choice"),
    PARAM_U32_FIELD("cc_latency", struct dp, cc_latency, 10, 1, 100000,
                    "cycles from an SFID 9 read whose lines all hit the constant cache to its "
                    "reply (model choice; IGC's heuristic has 60 for DP CC against 400 for DC)"),
    PARAM_END
};

static const struct port_desc dp_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND) | MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "SEND messages from each EU (MSG_SEND)" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "write-backs to the EU of the same index (MSG_WRITEBACK)" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "line requests to the slice's L3 (MSG_MEMORY_REQUEST)" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their completions (MSG_MEMORY_RESPONSE)" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "the same line requests straight to memory, on machines without an L3 (Gen4)" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their completions" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct dp, f, m, h)
static const struct stat_desc dp_stats[] = {
    C("messages", messages, "messages", "SEND messages taken"),
    C("reads", reads, "messages", "read messages"),
    C("writes", writes, "messages", "write messages"),
    C("atomics", atomics, "messages", "atomic messages"),
    C("fences", fences, "messages", "memory fences"),
    C("lines", lines, "requests", "64-byte line requests made to the L3"),
    C("l3_replies", l3_replies, "replies", "line completions from the L3"),
    C("bytes_read", bytes_read, "bytes", "bytes read for enabled slots"),
    C("bytes_written", bytes_written, "bytes", "bytes written for enabled slots"),
    C("slm_accesses", slm_accesses, "accesses", "slot accesses to shared local memory"),
    C("out_of_bounds", out_of_bounds, "accesses", "slot accesses outside their surface (read 0 / dropped)"),
    C("bti_beyond_table", bti_beyond_table, "messages",
      "binding table indices beyond the descriptor's entry count (null surface)"),
    C("state_faults", state_faults, "messages", "binding table entries or surface states unreadable"),
    C("page_faults", page_faults, "accesses", "accesses to unmapped memory (read 0 / dropped)"),
    C("slm_out_of_bounds", slm_out_of_bounds, "accesses", "SLM accesses beyond the group's allocation"),
    C("unsupported", unsupported, "messages", "unknown or unmodelled messages (zeros returned)"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("sunk", sunk, "messages", "generic (test) messages taken and dropped"),
    C("stall.l3", stall_l3, "cycles", "cycles with line requests held by a full L3 channel"),
    C("stall.writeback", stall_writeback, "cycles", "cycles with a reply held by a full channel"),
    C("lines_dropped", lines_dropped, "lines", "lines beyond what one message may track (not timed)"),
    C("latency_sum", latency_sum, "cycles", "message latency summed over replied messages"),
    C("cc_hits", cc_hits, "lines", "SFID 9 lines found in the constant cache (no L3 request)"),
    C("cc_misses", cc_misses, "lines", "SFID 9 lines sent to the L3 as read-only data"),
    STAT_END
};
#undef C

/* ---- helpers -------------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *regs, unsigned reg, unsigned dw)
{
    uint32_t v;
    memcpy(&v, regs + reg * EU_MSG_REG_BYTES + dw * 4, 4);
    return v;
}

static void wr32(uint8_t *regs, unsigned reg, unsigned dw, uint32_t v)
{
    memcpy(regs + reg * EU_MSG_REG_BYTES + dw * 4, &v, 4);
}

static void warn_once(struct dp *s, struct unit *u, unsigned bit, const char *fmt, uint32_t a,
                      uint32_t b)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    unit_log(u, SIM_LOG_NOTE, fmt, a, b);
}

struct acc {
    struct dp *s;
    struct unit *u;
    struct txn *t;
    const struct eu_thread_context *ctx;
    struct gpu_address_space as;
    struct surf sf;
    bool tlb_valid;             /* the last page translated (reads; a write drops it) */
    uint64_t tlb_vpage, tlb_ppage;
};

static void add_line(struct acc *a, uint64_t line_addr, uint8_t target, uint8_t op)
{
    struct txn *t = a->t;
    uint64_t line = line_addr & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    for (uint32_t i = t->nlines; i-- > 0;)
        if (t->lines[i] == line && t->targets[i] == target) {
            if (op != MEMREQ_READ)
                t->ops[i] = op;
            return;
        }
    if (t->nlines == DP_MAX_LINES) {
        a->s->lines_dropped++;
        return;
    }
    t->lines[t->nlines] = line;
    t->targets[t->nlines] = target;
    t->ops[t->nlines] = op;
    t->nlines++;
}

/* Resolves a BTI to a surface (L4862-5014). */
static void resolve(struct acc *a, uint32_t bti, bool a64)
{
    struct dp *s = a->s;
    const struct eu_thread_context *c = a->ctx;
    memset(&a->sf, 0, sizeof a->sf);
    a->sf.model = M_NULL;
    if (a64) {
        a->sf.model = M_A64;
        return;
    }
    if (bti == BTI_SLM) {
        a->sf.model = M_SLM;
        a->sf.size = c->slm_size;
        return;
    }
    if (bti == BTI_STATELESS || bti == BTI_STATELESS_NC) {
        a->sf.model = M_A32;
        a->sf.base = c->general_state_base;
        a->sf.size = c->general_state_size;
        return;
    }
    if (!c->valid || bti >= 240)
        return;
    if (c->binding_table_entries && bti >= c->binding_table_entries) {
        s->bti_beyond_table++;
        warn_once(s, a->u, 0, "binding table index %u beyond the table's %u entries: null surface",
                  bti, c->binding_table_entries);
        return;
    }
    struct gt_error err;
    uint32_t entry;
    if (gpu_address_space_read(&a->as, c->surface_state_base + c->binding_table + 4ull * bti,
                               &entry, 4, &err) < 0) {
        s->state_faults++;
        return;
    }
    uint32_t dw[16];
    uint64_t at = c->surface_state_base + (entry & (c->gen >= 8 ? ~63u : ~31u));
    if (gpu_address_space_read(&a->as, at, dw, c->gen >= 8 ? 64 : 32, &err) < 0) {
        s->state_faults++;
        warn_once(s, a->u, 1, "surface state of BTI %u unreadable (entry 0x%x): null surface", bti,
                  entry);
        return;
    }
    /* the unpacking depends only on the generation and the state's bytes:
     * states seen before are looked up by their bytes */
    size_t state_bytes = c->gen >= 8 ? 64 : 32;
    for (uint32_t k = 0; k < DP_SURF_MEMOS; k++) {
        const struct surf_memo *mo = &s->memo[k];
        if (mo->valid && mo->gen == c->gen && memcmp(mo->dw, dw, state_bytes) == 0) {
            a->sf = mo->sf;
            return;
        }
    }
    struct surf_memo *mo = &s->memo[s->memo_next];
    s->memo_next = (s->memo_next + 1) % DP_SURF_MEMOS;
    mo->valid = false;
    uint32_t type, w, h, d, pitch, format;
    uint64_t base;
    bool tiled;
    if (c->gen == 7) {
        struct GEN7_RENDER_SURFACE_STATE v;
        GEN7_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TiledSurface;
    } else if (c->gen == 8) {
        struct GEN8_RENDER_SURFACE_STATE v;
        GEN8_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TileMode != 0;
    } else {
        struct GEN9_RENDER_SURFACE_STATE v;
        GEN9_RENDER_SURFACE_STATE_unpack(dw, &v);
        type = v.SurfaceType, w = v.Width, h = v.Height, d = v.Depth, base = v.SurfaceBaseAddress;
        pitch = v.SurfacePitch, format = v.SurfaceFormat, tiled = v.TileMode != 0;
    }
    a->sf.type = type;
    a->sf.format = format;
    a->sf.tiled = tiled;
    a->sf.pitch = pitch + 1;
    a->sf.width = w + 1;
    a->sf.height = h + 1;
    a->sf.depth = d + 1;
    if (type != 7) {    /* SURFTYPE_NULL stays M_NULL */
        a->sf.model = M_BUFFER;
        a->sf.base = base;
        if (type == 4 || type == 5) {   /* BUFFER, STRBUF: size - 1 = Depth | Height | Width */
            a->sf.size = ((uint64_t)d << 21 | (uint64_t)h << 7 | w) + 1;
        } else {
            /* other surface types through untyped messages: bounded by the 2D extent */
            a->sf.size = ((uint64_t)w + 1) * ((uint64_t)h + 1) * ((uint64_t)d + 1) * 16;
        }
    }
    mo->gen = c->gen;
    memcpy(mo->dw, dw, state_bytes);
    mo->sf = a->sf;
    mo->valid = true;
}

/* One slot's access of n bytes (n <= 8) at offset/address off. Reads fill
 * buf (zeros when out of bounds or faulting); writes store it. */
static void access_slot(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op)
{
    struct dp *s = a->s;
    struct gt_error err;
    bool write = op == MEMREQ_WRITE, atomic = op == MEMREQ_ATOMIC;
    if (!write)
        memset(buf, 0, n);
    switch (a->sf.model) {
    case M_NULL:
        s->out_of_bounds++;
        return;
    case M_SLM: {
        s->slm_accesses++;
        uint32_t size = s->slm_kib * 1024u;
        if (a->ctx->slm_size && off + n > a->ctx->slm_size)
            s->slm_out_of_bounds++;
        uint32_t at = (uint32_t)((a->ctx->slm_base + off) % size);
        if (at + n > size)
            at = size - n;
        if (write)
            memcpy(s->slm + at, buf, n);
        else
            memcpy(buf, s->slm + at, n);
        (void)atomic;
        add_line(a, at, MEMREQ_SLM, op);
        break;
    }
    case M_BUFFER:
    case M_A32:
    case M_A64: {
        if (a->sf.size && off + n > a->sf.size) {
            s->out_of_bounds++;
            return;
        }
        uint64_t addr = a->sf.model == M_A64 ? off
                      : a->sf.model == M_A32 ? a->sf.base + (uint32_t)off : a->sf.base + off;
        uint64_t phys;
        uint64_t vpage = addr & ~(uint64_t)(GPU_PAGE_SIZE - 1);
        if (a->tlb_valid && a->tlb_vpage == vpage) {
            phys = a->tlb_ppage | (addr & (GPU_PAGE_SIZE - 1));
        } else if (gpu_address_space_translate(&a->as, addr, &phys) < 0) {
            s->page_faults++;
            warn_once(s, a->u, 2, "data port access faulted (address low 0x%x, high 0x%x)",
                      (uint32_t)addr, (uint32_t)(addr >> 32));
            return;
        } else {
            a->tlb_valid = true;
            a->tlb_vpage = vpage;
            a->tlb_ppage = phys & ~(uint64_t)(GPU_PAGE_SIZE - 1);
        }
        int rc;
        if ((addr & (GPU_PAGE_SIZE - 1)) + n <= GPU_PAGE_SIZE) {
            /* within the page just translated: what the address-space call
             * would do after translating it again */
            rc = write ? gpu_memory_write(a->as.memory, phys, buf, n, &err)
                       : gpu_memory_read(a->as.memory, phys, buf, n, &err);
        } else {
            rc = write ? gpu_address_space_write(&a->as, addr, buf, n, &err)
                       : gpu_address_space_read(&a->as, addr, buf, n, &err);
        }
        if (write)
            a->tlb_valid = false;   /* the write may have changed the page tables */
        if (rc < 0) {
            s->page_faults++;
            return;
        }
        add_line(a, phys, MEMREQ_DATA, op);
        break;
    }
    }
    if (write)
        s->bytes_written += n;
    else
        s->bytes_read += n;
}

static uint32_t atomic_op(unsigned aop, uint32_t old, uint32_t src0, uint32_t src1, bool *store)
{
    *store = true;
    switch (aop) {
    case 1: return old & src0;
    case 2: return old | src0;
    case 3: return old ^ src0;
    case 4: return src0;
    case 5: return old + 1;
    case 6: return old - 1;
    case 7: return old + src0;
    case 8: return old - src0;
    case 9: return src0 - old;
    case 10: return (int32_t)old > (int32_t)src0 ? old : src0;
    case 11: return (int32_t)old < (int32_t)src0 ? old : src0;
    case 12: return old > src0 ? old : src0;
    case 13: return old < src0 ? old : src0;
    case 14: return old == src0 ? src1 : old;
    case 15: return old - 1;
    default: *store = false; return old;
    }
}

/* ---- typed surfaces (L5193-5276) ------------------------------------------------ */

/* Bytes per element and channels of the formats typed messages handle here:
 * 32-bit channels (1, 2, 4 of FLOAT/SINT/UINT) and the 8-bit R8G8B8A8 and R8
 * UNORM/UINT forms. 0: not modelled. */
static unsigned typed_layout(uint32_t format, unsigned *channels, unsigned *kind)
{
    switch (format) {
    case 0x000: *channels = 4; *kind = 0; return 16;    /* R32G32B32A32_FLOAT */
    case 0x001: case 0x002: *channels = 4; *kind = 1; return 16;   /* _SINT, _UINT */
    case 0x085: *channels = 2; *kind = 0; return 8;     /* R32G32_FLOAT */
    case 0x086: case 0x087: *channels = 2; *kind = 1; return 8;
    case 0x0D8: *channels = 1; *kind = 0; return 4;     /* R32_FLOAT */
    case 0x0D6: case 0x0D7: *channels = 1; *kind = 1; return 4;    /* R32_SINT, R32_UINT */
    case 0x0C7: *channels = 4; *kind = 2; return 4;     /* R8G8B8A8_UNORM */
    case 0x0CB: *channels = 4; *kind = 3; return 4;     /* R8G8B8A8_UINT */
    case 0x140: *channels = 1; *kind = 2; return 1;     /* R8_UNORM */
    case 0x143: *channels = 1; *kind = 3; return 1;     /* R8_UINT */
    default: return 0;
    }
}

static uint32_t unorm8_to_f32(uint8_t v)
{
    float f = (float)v / 255.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint8_t f32_to_unorm8(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (!(f > 0.0f))
        return 0;           /* also NaN */
    if (f >= 1.0f)
        return 255;
    return (uint8_t)(f * 255.0f + 0.5f);    /* round to nearest (L5193-5203) */
}

/* ---- message decode ------------------------------------------------------------- */

static enum dp_op decode(unsigned gen, unsigned sfid, uint32_t desc)
{
    unsigned type5 = (desc >> 14) & 0x1f, type4 = (desc >> 14) & 0xf;
    if (sfid == SFID_DC1 && gen >= 8) {
        switch (type5) {
        case 1: return OP_UNTYPED_READ;
        case 9: return OP_UNTYPED_WRITE;
        case 2: return OP_UNTYPED_ATOMIC;
        case 0x11: return OP_A64_UNTYPED_READ;
        case 0x19: return OP_A64_UNTYPED_WRITE;
        case 0x12: return OP_A64_ATOMIC;
        case 0x10: return OP_A64_BYTE_READ;
        case 0x1a: return OP_A64_BYTE_WRITE;
        case 5: return OP_TYPED_READ;
        case 13: return OP_TYPED_WRITE;
        default: return OP_UNSUPPORTED;
        }
    }
    if (sfid == SFID_DC0 || sfid == SFID_DCRO) {
        if (desc & (1u << 18))              /* scratch (HWord) block, bit 17 = write */
            return sfid == SFID_DC0 ? (desc & (1u << 17) ? OP_SCRATCH_WRITE : OP_SCRATCH_READ)
                                    : OP_UNSUPPORTED;
        switch (type4) {
        case 0: case 1: return OP_OWORD_READ;
        case 3: return OP_DWORD_READ;
        case 4: return OP_BYTE_READ;
        case 7: return sfid == SFID_DC0 ? OP_FENCE : OP_UNSUPPORTED;
        case 5: return gen == 7 && sfid == SFID_DC0 ? OP_UNTYPED_READ : OP_UNSUPPORTED;
        case 6: return gen == 7 && sfid == SFID_DC0 ? OP_UNTYPED_ATOMIC : OP_UNSUPPORTED;
        case 13: return gen == 7 && sfid == SFID_DC0 ? OP_UNTYPED_WRITE : OP_UNSUPPORTED;
        case 8: return sfid == SFID_DC0 ? OP_OWORD_WRITE : OP_UNSUPPORTED;
        case 11: return sfid == SFID_DC0 ? OP_DWORD_WRITE : OP_UNSUPPORTED;
        case 12: return sfid == SFID_DC0 ? OP_BYTE_WRITE : OP_UNSUPPORTED;
        default: return OP_UNSUPPORTED;
        }
    }
    return OP_UNSUPPORTED;
}

/* Executes the message functionally into wb (rlen registers; may be NULL)
 * and records the lines it touched. */
static void execute(struct acc *a, const struct eu_send_msg *p, uint32_t nregs, uint8_t *wb,
                    uint32_t rlen, enum dp_op op)
{
    struct dp *s = a->s;
    const uint8_t *m = (const uint8_t *)p->regs;
    uint32_t desc = p->desc;
    unsigned hdr = (p->flags & EU_SEND_HEADER) ? 1 : 0;
    uint32_t bti = desc & 0xff;
    uint32_t mask = p->exec_mask;
#define REG_OK(r) ((r) < nregs)
#define MREAD(r, d) (REG_OK(r) ? rd32(m, (r), (d)) : 0u)
#define WBWRITE(r, d, v) do { if (wb && (r) < rlen) wr32(wb, (r), (d), (v)); } while (0)
    switch (op) {
    case OP_UNTYPED_READ:
    case OP_UNTYPED_WRITE:
    case OP_A64_UNTYPED_READ:
    case OP_A64_UNTYPED_WRITE: {
        bool a64 = op == OP_A64_UNTYPED_READ || op == OP_A64_UNTYPED_WRITE;
        bool write = op == OP_UNTYPED_WRITE || op == OP_A64_UNTYPED_WRITE;
        unsigned mode = (desc >> 12) & 3;
        unsigned slots = mode == 1 ? 16 : 8;
        unsigned chmask = (~(desc >> 8)) & 0xf;
        if (mode == 0)
            chmask = 0xf;           /* SIMD4x2 (not modelled further) */
        mask &= slots == 16 ? 0xffff : 0xff;
        if (hdr)
            mask &= MREAD(0, 7) & 0xffff;
        resolve(a, bti, a64);
        unsigned addr_regs = a64 ? slots / 4 : slots / 8;
        unsigned dbase = hdr + addr_regs, per = slots / 8;
        write ? s->writes++ : s->reads++;
        for (unsigned i = 0; i < slots; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint64_t off = a64 ? ((uint64_t)MREAD(hdr + i / 4, (i % 4) * 2 + 1) << 32 |
                                  MREAD(hdr + i / 4, (i % 4) * 2))
                               : MREAD(hdr + i / 8, i % 8);
            unsigned c = 0;
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(chmask & (1u << ch)))
                    continue;
                uint32_t v = 0;
                unsigned r = c * per + i / 8;
                if (write) {
                    v = MREAD(dbase + r, i % 8);
                    access_slot(a, off + 4 * ch, &v, 4, MEMREQ_WRITE);
                } else {
                    access_slot(a, off + 4 * ch, &v, 4, MEMREQ_READ);
                    WBWRITE(r, i % 8, v);
                }
                c++;
            }
        }
        break;
    }
    case OP_UNTYPED_ATOMIC:
    case OP_A64_ATOMIC: {
        bool a64 = op == OP_A64_ATOMIC;
        unsigned aop = (desc >> 8) & 0xf;
        unsigned slots = (desc >> 12) & 1 ? 8 : 16;
        mask &= slots == 16 ? 0xffff : 0xff;
        if (hdr)
            mask &= MREAD(0, 7) & 0xffff;
        resolve(a, bti, a64);
        unsigned addr_regs = a64 ? slots / 4 : slots / 8, per = slots / 8;
        unsigned src0 = hdr + addr_regs, src1 = src0 + per;
        s->atomics++;
        for (unsigned i = 0; i < slots; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint64_t off = a64 ? ((uint64_t)MREAD(hdr + i / 4, (i % 4) * 2 + 1) << 32 |
                                  MREAD(hdr + i / 4, (i % 4) * 2))
                               : MREAD(hdr + i / 8, i % 8);
            uint32_t old = 0;
            uint64_t before = s->out_of_bounds + s->page_faults;
            access_slot(a, off, &old, 4, MEMREQ_ATOMIC);
            bool ok = s->out_of_bounds + s->page_faults == before;
            bool store;
            uint32_t nv = atomic_op(aop, old, MREAD(src0 + i / 8, i % 8),
                                    MREAD(src1 + i / 8, i % 8), &store);
            if (ok && store) {
                access_slot(a, off, &nv, 4, MEMREQ_WRITE);
                s->bytes_written -= 4;
            }
            /* OOB atomics are dropped and return 0 (L6235ff) */
            WBWRITE(i / 8, i % 8, ok ? (aop == 15 ? nv : old) : 0);
        }
        break;
    }
    case OP_BYTE_READ:
    case OP_BYTE_WRITE:
    case OP_A64_BYTE_READ:
    case OP_A64_BYTE_WRITE: {
        bool a64 = op == OP_A64_BYTE_READ || op == OP_A64_BYTE_WRITE;
        bool write = op == OP_BYTE_WRITE || op == OP_A64_BYTE_WRITE;
        unsigned slots = a64 ? (((desc >> 8) & 3) == 1 ? 16 : 8) : ((desc >> 8) & 1 ? 16 : 8);
        unsigned size = 1u << (a64 ? (desc >> 10) & 3 : (desc >> 10) & 3);
        if (size > 4)
            size = 4;
        mask &= slots == 16 ? 0xffff : 0xff;
        resolve(a, bti, a64);
        unsigned addr_regs = a64 ? slots / 4 : slots / 8;
        write ? s->writes++ : s->reads++;
        for (unsigned i = 0; i < slots; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint64_t off = a64 ? ((uint64_t)MREAD(hdr + i / 4, (i % 4) * 2 + 1) << 32 |
                                  MREAD(hdr + i / 4, (i % 4) * 2))
                               : MREAD(hdr + i / 8, i % 8);
            if (!a64 && hdr)
                off += MREAD(0, 2);     /* global offset (A32 base offset) */
            uint32_t v = 0;
            if (write) {
                v = MREAD(hdr + addr_regs + i / 8, i % 8);
                access_slot(a, off, &v, size, MEMREQ_WRITE);
            } else {
                access_slot(a, off, &v, size, MEMREQ_READ);
                WBWRITE(i / 8, i % 8, v);
            }
        }
        break;
    }
    case OP_DWORD_READ:
    case OP_DWORD_WRITE: {
        bool write = op == OP_DWORD_WRITE;
        unsigned slots = ((desc >> 8) & 3) == 3 ? 16 : 8;
        mask &= slots == 16 ? 0xffff : 0xff;
        resolve(a, bti, false);
        uint32_t global = hdr ? MREAD(0, 2) : 0;
        unsigned addr_regs = slots / 8;
        write ? s->writes++ : s->reads++;
        for (unsigned i = 0; i < slots; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint64_t off = (uint64_t)global + MREAD(hdr + i / 8, i % 8);
            uint32_t v = 0;
            if (write) {
                v = MREAD(hdr + addr_regs + i / 8, i % 8);
                access_slot(a, off, &v, 4, MEMREQ_WRITE);
            } else {
                access_slot(a, off, &v, 4, MEMREQ_READ);
                WBWRITE(i / 8, i % 8, v);
            }
        }
        break;
    }
    case OP_OWORD_READ:
    case OP_OWORD_WRITE: {
        bool write = op == OP_OWORD_WRITE;
        unsigned bs = (desc >> 8) & 7;
        unsigned owords = bs <= 1 ? 1 : bs == 2 ? 2 : bs == 3 ? 4 : 8;
        unsigned half = bs == 1 ? 4 : 0;   /* 1 OWord into the high half */
        resolve(a, bti, false);
        uint64_t base = (uint64_t)MREAD(0, 2) * 16;
        write ? s->writes++ : s->reads++;
        for (unsigned d = 0; d < owords * 4; d++) {
            unsigned r = d / 8, dw = d % 8 + half;
            uint32_t v = 0;
            if (write) {
                v = MREAD(1 + r, dw);
                access_slot(a, base + 4ull * d, &v, 4, MEMREQ_WRITE);
            } else {
                access_slot(a, base + 4ull * d, &v, 4, MEMREQ_READ);
                WBWRITE(r, dw, v);
            }
        }
        break;
    }
    case OP_TYPED_READ:
    case OP_TYPED_WRITE: {
        /* header, then U [V [R [LOD]]] one register each, then (writes) the
         * enabled channels one register each; 8 slots, the low or high half
         * of the exec mask by desc[13] (slot group) */
        bool write = op == OP_TYPED_WRITE;
        unsigned chmask = (~(desc >> 8)) & 0xf;
        unsigned nch = (unsigned)__builtin_popcount(chmask);
        unsigned group = (desc >> 13) & 1;
        mask = (mask >> (8 * group)) & 0xff;
        if (hdr)
            mask &= (MREAD(0, 7) >> (8 * group)) & 0xff;
        resolve(a, bti, false);
        unsigned coords = write ? (p->ex_mlen ? p->mlen - hdr : p->mlen - hdr - nch)
                                : p->mlen - hdr;
        if (coords == 0 || coords > 4)
            coords = 1;
        unsigned dbase = p->ex_mlen && write ? p->mlen : hdr + coords;
        unsigned channels = 0, kind = 0;
        unsigned bpe = a->sf.model == M_BUFFER ? typed_layout(a->sf.format, &channels, &kind) : 0;
        write ? s->writes++ : s->reads++;
        if (a->sf.model == M_BUFFER && (!bpe || a->sf.tiled)) {
            s->unsupported++;
            warn_once(s, a->u, 4, "typed access to format 0x%x (tiled: %u) is not modelled: "
                      "zeros", a->sf.format, a->sf.tiled);
            break;
        }
        for (unsigned i = 0; i < 8; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint32_t u = MREAD(hdr, i), v = coords > 1 ? MREAD(hdr + 1, i) : 0;
            uint32_t r = coords > 2 ? MREAD(hdr + 2, i) : 0;
            bool buffer = a->sf.type == 4;
            uint64_t w = buffer ? a->sf.size / (bpe ? bpe : 1) : a->sf.width;
            bool in = a->sf.model == M_BUFFER && u < w &&
                      (buffer || (v < a->sf.height && r < a->sf.depth));
            uint64_t off = buffer ? (uint64_t)u * bpe
                                  : ((uint64_t)r * a->sf.height + v) * a->sf.pitch + (uint64_t)u * bpe;
            uint8_t texel[16] = { 0 };
            if (!in) {
                s->out_of_bounds++;
                if (!write) {
                    /* present channels 0, missing alpha 1 (L5276) */
                    unsigned c = 0;
                    for (unsigned ch = 0; ch < 4; ch++)
                        if (chmask & (1u << ch)) {
                            uint32_t one = kind == 0 || kind == 2 ? 0x3f800000u : 1u;
                            WBWRITE(c, i, ch == 3 && channels < 4 ? one : 0u);
                            c++;
                        }
                }
                continue;
            }
            if (!write) {
                struct surf keep = a->sf;
                a->sf.size = 0;         /* bounds done above */
                access_slot(a, off, texel, bpe, MEMREQ_READ);
                a->sf = keep;
                unsigned c = 0;
                for (unsigned ch = 0; ch < 4; ch++) {
                    if (!(chmask & (1u << ch)))
                        continue;
                    uint32_t val;
                    if (ch >= channels)
                        val = ch == 3 ? (kind == 0 || kind == 2 ? 0x3f800000u : 1u) : 0u;
                    else if (kind <= 1)
                        memcpy(&val, texel + 4 * ch, 4);
                    else if (kind == 2)
                        val = unorm8_to_f32(texel[ch]);
                    else
                        val = texel[ch];
                    WBWRITE(c, i, val);
                    c++;
                }
            } else {
                unsigned c = 0;
                for (unsigned ch = 0; ch < 4; ch++) {
                    if (!(chmask & (1u << ch)))
                        continue;
                    uint32_t val = MREAD(dbase + c, i);
                    c++;
                    if (ch >= channels)
                        continue;       /* missing components are not written */
                    if (kind <= 1)
                        memcpy(texel + 4 * ch, &val, 4);
                    else if (kind == 2)
                        texel[ch] = f32_to_unorm8(val);
                    else
                        texel[ch] = (uint8_t)(val > 255 ? 255 : val);   /* UINT clamps */
                }
                /* only the enabled channels change: read, merge, write */
                uint8_t old[16] = { 0 };
                struct surf keep = a->sf;
                a->sf.size = 0;
                access_slot(a, off, old, bpe, MEMREQ_READ);
                s->bytes_read -= bpe;
                unsigned cb = kind <= 1 ? 4 : 1;
                for (unsigned ch = 0; ch < channels; ch++)
                    if (chmask & (1u << ch))
                        memcpy(old + cb * ch, texel + cb * ch, cb);
                access_slot(a, off, old, bpe, MEMREQ_WRITE);
                a->sf = keep;
            }
        }
        break;
    }
    case OP_SCRATCH_READ:
    case OP_SCRATCH_WRITE: {
        /* the thread's scratch space: General State Base + M0.5[31:10] (its
         * R0.5, set by the dispatcher) + desc[11:0] HWords; as many registers
         * as the reply (read) or the payload after the header (write) has */
        bool write = op == OP_SCRATCH_WRITE;
        resolve(a, BTI_STATELESS, false);
        a->sf.size = 0;
        uint64_t base = (uint64_t)(MREAD(0, 5) & ~0x3ffu) + (uint64_t)(desc & 0xfff) * 32;
        unsigned regs = write ? nregs - 1 : rlen;
        write ? s->writes++ : s->reads++;
        for (unsigned r = 0; r < regs; r++)
            for (unsigned d = 0; d < 8; d++) {
                uint32_t v = 0;
                if (write) {
                    v = MREAD(1 + r, d);
                    access_slot(a, base + 32ull * r + 4 * d, &v, 4, MEMREQ_WRITE);
                } else {
                    access_slot(a, base + 32ull * r + 4 * d, &v, 4, MEMREQ_READ);
                    WBWRITE(r, d, v);
                }
            }
        break;
    }
    case OP_FENCE:
        s->fences++;
        break;
    case OP_NONE:
    case OP_UNSUPPORTED:
        break;
    }
#undef REG_OK
#undef MREAD
#undef WBWRITE
}

/* ---- transactions --------------------------------------------------------------- */

static void ready_push(struct dp *s, uint32_t t, uint64_t due)
{
    uint32_t cap = s->max_outstanding;
    s->ready[(s->ready_head + s->ready_count) % cap] = t;
    s->ready_due[(s->ready_head + s->ready_count) % cap] = due;
    s->ready_count++;
}

static void lq_push(struct dp *s, uint32_t t, uint32_t i)
{
    if (s->lq_count == s->lq_cap) {
        uint32_t cap = s->lq_cap ? s->lq_cap * 2 : 256;
        struct pending_line *q = gt_xmalloc(cap * sizeof *q);
        for (uint32_t k = 0; k < s->lq_count; k++)
            q[k] = s->lq[(s->lq_head + k) % s->lq_cap];
        free(s->lq);
        s->lq = q;
        s->lq_head = 0;
        s->lq_cap = cap;
    }
    s->lq[(s->lq_head + s->lq_count++) % s->lq_cap] = (struct pending_line){ t, i };
}

static bool take_message(struct dp *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind == MSG_GENERIC) {
        s->sunk++;              /* the fabric's default workload: no hardware meaning */
        return true;
    }
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message (%u bytes) from eu %u dropped",
                 msg_kind_name(m->kind), m->size, eu);
        return true;
    }
    uint32_t ti = s->free_txn;
    struct txn *t = &s->txn[ti];
    s->free_txn = UINT32_MAX;
    t->used = true;
    s->txn_used[ti / 64] |= UINT64_C(1) << (ti % 64);
    /* the lowest unused transaction below max_outstanding */
    for (uint32_t w = 0; w * 64 < s->max_outstanding; w++) {
        uint64_t fr = ~s->txn_used[w];
        if (fr) {
            uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(fr);
            if (k < s->max_outstanding)
                s->free_txn = k;
            break;
        }
    }
    t->eu = eu;
    t->nlines = 0;
    t->wb = NULL;
    t->start = unit_cycle(u);
    s->in_flight++;
    s->messages++;
    unsigned gen = p->ctx.valid && p->ctx.gen ? p->ctx.gen : s->gen;
    enum dp_op op = decode(gen, p->sfid, p->desc);
    uint32_t rlen = p->rlen;
    if (rlen) {
        t->wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                          (uint32_t)(sizeof(struct eu_writeback_msg) + rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)t->wb->payload;
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = (uint8_t)rlen;
        t->wb->tag = m->tag;
    }
    if (op == OP_UNSUPPORTED) {
        s->unsupported++;
        warn_once(s, u, 3, "data port message not modelled (SFID %u, descriptor 0x%08x): zeros "
                  "returned", p->sfid, p->desc);
    } else {
        struct acc a = { .s = s, .u = u, .t = t, .ctx = &p->ctx };
        gpu_address_space_init(&a.as, sim_memory(unit_sim(u)),
                               (enum gpu_address_space_format)p->ctx.space_format,
                               p->ctx.space_root);
        uint8_t *wb = t->wb ? ((struct eu_writeback_msg *)t->wb->payload)->regs[0] : NULL;
        execute(&a, p, (uint32_t)p->mlen + p->ex_mlen, wb, rlen, op);
    }
    uint64_t now = unit_cycle(u);
    t->lines_left = 0;
    t->ro = p->sfid == SFID_DCRO && op != OP_UNSUPPORTED && s->cc_lines && s->l3 &&
            port_is_bound(s->l3);
    if (t->ro && t->nlines) {
        /* the constant cache (read-only port, notes §4.1): hits need no L3
         * request; misses go to the L3 as read-only data and fill the cache
         * when their lines come back */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < t->nlines; i++) {
            uint64_t line = t->lines[i] / MEMREQ_LINE_BYTES;
            if (s->cc[line % s->cc_lines] == line + 1) {
                s->cc_hits++;
                continue;
            }
            s->cc_misses++;
            t->lines[kept] = t->lines[i];
            t->ops[kept] = t->ops[i];
            t->targets[kept++] = MEMREQ_RO_DATA;
        }
        t->nlines = kept;
        if (!kept) {
            ready_push(s, ti, now + s->cc_latency);
            return true;
        }
    }
    if (s->l3 && port_is_bound(s->l3) && t->nlines && op != OP_FENCE) {
        t->lines_left = t->nlines;
        for (uint32_t i = 0; i < t->nlines; i++)
            lq_push(s, ti, i);
    } else {
        ready_push(s, ti, now + s->latency);
    }
    return true;
}

static void finish(struct dp *s, struct unit *u, uint32_t ti)
{
    struct txn *t = &s->txn[ti];
    uint64_t now = unit_cycle(u);
    s->latency_sum += now > t->start ? now - t->start : 0;
    t->used = false;
    s->txn_used[ti / 64] &= ~(UINT64_C(1) << (ti % 64));
    t->wb = NULL;
    s->in_flight--;
    if (s->free_txn == UINT32_MAX)
        s->free_txn = ti;
}

static void send_lines(struct dp *s, struct unit *u)
{
    while (s->lq_count) {
        if (!port_can_send(s->l3)) {
            s->stall_l3++;
            return;
        }
        struct pending_line pl = s->lq[s->lq_head];
        s->lq_head = (s->lq_head + 1) % s->lq_cap;
        s->lq_count--;
        const struct txn *t = &s->txn[pl.txn];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = t->lines[pl.index];
        r->tag = pl.txn;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = t->ops[pl.index];
        r->target = t->targets[pl.index];
        r->client = unit_id(u);
        port_try_send(s->l3, m);
        s->lines++;
    }
}

static void take_l3_replies(struct dp *s, struct unit *u)
{
    struct msg *m;
    while (s->l3_reply && (m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *r || r->tag >= s->max_outstanding ||
            !s->txn[r->tag].used || s->txn[r->tag].lines_left == 0) {
            s->bad_messages++;
        } else {
            s->l3_replies++;
            if (s->txn[r->tag].ro) {
                uint64_t line = r->address / MEMREQ_LINE_BYTES;
                s->cc[line % s->cc_lines] = line + 1;
            }
            if (--s->txn[r->tag].lines_left == 0)
                ready_push(s, r->tag, 0);
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

static void send_replies(struct dp *s, struct unit *u, uint64_t now)
{
    while (s->ready_count) {
        uint32_t ti = s->ready[s->ready_head];
        if (s->ready_due[s->ready_head] > now) {
            unit_wake_at(u, s->ready_due[s->ready_head]);
            return;
        }
        struct txn *t = &s->txn[ti];
        if (t->wb) {
            struct port *out = t->eu < s->eus ? s->wb[t->eu] : NULL;
            if (out && port_is_bound(out)) {
                if (!port_can_send(out)) {
                    s->stall_writeback++;
                    return;
                }
                port_try_send(out, t->wb);
            } else {
                msg_free(unit_sim(u), t->wb);
            }
        }
        s->ready_head = (s->ready_head + 1) % s->max_outstanding;
        s->ready_count--;
        finish(s, u, ti);
        unit_progress(u);
    }
}

/* ---- the unit ------------------------------------------------------------------- */

static int dp_realize(struct unit *u, struct gt_error *err)
{
    struct dp *s = unit_state(u);
    s->eus = unit_port_count(u, "eu");
    if (s->eus > DP_MAX_EUS)
        return gt_error_set(err, "%u eu links; at most %d", s->eus, DP_MAX_EUS);
    free(s->eu);
    free(s->wb);
    s->eu = gt_xcalloc(s->eus + 1, sizeof *s->eu);
    s->wb = gt_xcalloc(s->eus + 1, sizeof *s->wb);
    for (uint32_t i = 0; i < s->eus; i++) {
        s->eu[i] = unit_port(u, "eu", i);
        s->wb[i] = i < unit_port_count(u, "writeback") ? unit_port(u, "writeback", i) : NULL;
    }
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    if (!port_is_bound(s->l3)) {
        s->l3 = unit_port(u, "memory", 0);
        s->l3_reply = unit_port(u, "memory_reply", 0);
    }
    return 0;
}

static void dp_release(struct dp *s, struct unit *u)
{
    if (s->txn)
        for (uint32_t i = 0; i < DP_MAX_TXN; i++)
            if (s->txn[i].wb)
                msg_free(unit_sim(u), s->txn[i].wb);
    free(s->txn);
    free(s->lq);
    free(s->ready);
    free(s->ready_due);
    free(s->slm);
    free(s->cc);
    s->cc = NULL;
    s->txn = NULL;
    s->lq = NULL;
    s->ready = NULL;
    s->ready_due = NULL;
    s->slm = NULL;
}

static void dp_reset(struct unit *u)
{
    struct dp *s = unit_state(u);
    dp_release(s, u);
    s->txn = gt_xcalloc(DP_MAX_TXN, sizeof *s->txn);
    s->ready = gt_xcalloc(s->max_outstanding, sizeof *s->ready);
    s->ready_due = gt_xcalloc(s->max_outstanding, sizeof *s->ready_due);
    s->slm = gt_xcalloc(1, s->slm_kib * 1024u);
    s->cc = gt_xcalloc(s->cc_lines ? s->cc_lines : 1, sizeof *s->cc);
    s->free_txn = 0;
    memset(s->txn_used, 0, sizeof s->txn_used);
    memset(s->memo, 0, sizeof s->memo);
    s->memo_next = 0;
    s->lq_head = s->lq_count = s->lq_cap = 0;
    s->ready_head = s->ready_count = 0;
    s->in_flight = 0;
}

static enum unit_activity dp_tick(struct unit *u)
{
    struct dp *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    take_l3_replies(s, u);
    send_replies(s, u, now);
    uint32_t taken = 0;
    for (uint32_t k = 0; k < s->eus && taken < s->messages_per_cycle; k++) {
        uint32_t e = (s->next_eu + k) % s->eus;
        struct msg *m;
        while (taken < s->messages_per_cycle && s->free_txn != UINT32_MAX &&
               (m = port_pop(s->eu[e])) != NULL) {
            take_message(s, u, e, m);
            msg_free(unit_sim(u), m);
            taken++;
            unit_progress(u);
            s->next_eu = (e + 1) % s->eus;
        }
    }
    if (s->l3 && port_is_bound(s->l3))
        send_lines(s, u);
    send_replies(s, u, now);
    bool more = s->lq_count > 0;
    for (uint32_t e = 0; e < s->eus && !more; e++)
        if (port_peek(s->eu[e]) && s->free_txn != UINT32_MAX)
            more = true;
    if (s->ready_count && s->ready_due[s->ready_head] <= now + 1)
        more = true;
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void dp_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct dp *s = unit_state(u);
    (void)s;
    (void)w;
}

static void dp_destroy(struct unit *u)
{
    struct dp *s = unit_state(u);
    dp_release(s, u);
    free(s->eu);
    free(s->wb);
    s->eu = s->wb = NULL;
}

const struct unit_ops dataport_ops = {
    .kind = "dataport",
    .help = "Data port (HDC) of a subslice: DC0/DC1/constant-cache messages (untyped surface "
            "read/write and atomics, A64, byte/dword scattered, OWord block, fence) over the "
            "binding table, A32/A64 stateless and SLM address models; one L3 request per line "
            "touched, reply when all are done (seed 003 L4828-7583).",
    .state_size = sizeof(struct dp),
    .params = dp_params,
    .ports = dp_ports,
    .stats = dp_stats,
    .realize = dp_realize,
    .reset = dp_reset,
    .tick = dp_tick,
    .stats_derived = dp_stats_derived,
    .destroy = dp_destroy,
};
