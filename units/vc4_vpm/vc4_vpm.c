/* units/vc4_vpm/vc4_vpm.c - the VPM, its QPU access and the VDW/VDR DMA; see vc4_vpm.h. */
#include "units/vc4_vpm/vc4_vpm.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/common/vc4_io.h"

#define VPM_WIDTH 16u           /* words per row (@125316) */
#define QPU_ROWS 64u            /* rows a QPU addresses (HW-2253) */
#define MAX_CLIENTS 16u

enum { SIZE_8 = 0, SIZE_16 = 1, SIZE_32 = 2 };

struct block_setup {            /* Tables 32/33 */
    uint32_t addr, stride, num;
    bool horiz, laned;
    unsigned size;
    uint64_t cycle;             /* when it was written */
    uint32_t base;              /* the QPU's segment row when it was written (vertex shaders) */
};

/* An answer held behind a DMA wait (answers to a QPU go in request order). */
struct held_answer {
    int engine;                 /* the DMA engine a wait waits for; -1: an answer in line */
    uint32_t reg, qpu;
    uint32_t value[QPU_LANES];
};
#define HELD_MAX 8u

/* A DMA through the L2C: its 64-byte line pieces, sent in order; the engine's next DMA starts
 * when the last piece's reply is back ("A new DMA load or store operation cannot be started
 * until the previous one is complete", @135316). */
struct dma_piece {
    uint64_t address;           /* bus address (with the alias bits) */
    uint32_t bytes;
};
struct dma_job {
    uint32_t client;
    struct dma_piece *piece;
    uint32_t pieces, sent, done;
    uint64_t started;
    struct dma_job *next;
};

struct client {
    struct block_setup write;
    struct block_setup read[2];
    unsigned reads_queued;
    uint32_t vdw_setup, vdw_stride_setup, vdr_setup, vdr_pitch_bytes;
    uint64_t load_done, store_done;
    uint64_t last_answer;
    uint32_t dma_pending[2];    /* through the L2C: DMAs of this QPU not complete, per engine */
    struct held_answer held[HELD_MAX];
    unsigned held_head, held_count;
    uint32_t segment_base;      /* QPU_IO_VPM_SEGMENT: row its block accesses are relative to */
};

struct vc4_vpm {
    /* params */
    uint32_t size_kb, read_setup_cycles, dma_latency, dma_bytes_per_cycle, address_mask, memory_mb;
    /* ports */
    struct port **in, **out;
    uint32_t ins, outs;
    struct port *l2, *l2_reply;
    struct dma_job *job_head[2], *job_tail[2];  /* per engine, through the L2C */
    struct port *vcd, *vcd_result;  /* the vertex pipeline's side (v3d's VCD, PTB, PSE) */
    /* state */
    uint32_t *words;
    uint32_t word_count;
    struct client client[MAX_CLIENTS];
    uint64_t engine_free[2];    /* 0: load (VCD/VDR), 1: store (VDW) */
    struct reply_queue replies;
    uint32_t logged;
    /* stats */
    uint64_t vectors_written, vectors_read, reads_without_setup, setups_ignored, bad_setups;
    uint64_t loads, stores, bytes_loaded, bytes_stored, dma_beyond_memory, dma_cycles;
    uint64_t busy_polls, waits, bad_messages, reply_stalls, reserved_codes;
    uint64_t l2_line_requests, l2_hits, l2_stray_replies, held_overflows;
    uint64_t vcd_rows_written, vcd_rows_read, segments, vcd_bad_messages;
};

static const struct param_desc vpm_params[] = {
    PARAM_U32_FIELD("size_kb", struct vc4_vpm, size_kb, 12, 4, 16,
                    "VPM size in KB: IDENT1 VPMSZ reset 12 (Table 80); \"minimum VPM size is "
                    "8Kbytes\", \"up to 16Kbytes\" (@125001)"),
    PARAM_U32_FIELD("read_setup_cycles", struct vc4_vpm, read_setup_cycles, 8, 1, 1000,
                    "cycles from a read setup's arrival to its first data (\"minimum latency of "
                    "three QPU instructions\", @129589, less the links)"),
    PARAM_U32_FIELD("dma_latency", struct vc4_vpm, dma_latency, 40, 1, 100000,
                    "cycles a DMA takes beyond its transfer time (the seed gives none)"),
    PARAM_U32_FIELD("dma_bytes_per_cycle", struct vc4_vpm, dma_bytes_per_cycle, 8, 1, 1024,
                    "DMA bandwidth (the seed gives none; 8 = a 64-bit AXI port)"),
    PARAM_U32_FIELD("address_mask", struct vc4_vpm, address_mask, 0xffffffffu, 1, 0xffffffffu,
                    "mask applied to DMA bus addresses (BCM2835: 0x3fffffff)"),
    PARAM_U32_FIELD("memory_mb", struct vc4_vpm, memory_mb, 1024, 1, 4096,
                    "memory the DMA can address, MiB; rows beyond it are skipped and counted"),
    PARAM_END
};

static const struct port_desc vpm_ports[] = {
    { .name = "qpu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "VPM/VCD/VDW accesses of each QPU" },
    { .name = "result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "read data and DMA status to each QPU" },
    { .name = "l2", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "VDR line reads and VDW line writes to the L2C" },
    { .name = "l2_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "the L2C's replies" },
    { .name = "vcd", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPTIONAL,
      .help = "the vertex pipeline (v3d): VCD row writes, PTB/PSE row reads, QPU segments" },
    { .name = "vcd_result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPTIONAL, .help = "rows read and segment acknowledgements to v3d" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_vpm, f, m, h)
static const struct stat_desc vpm_stats[] = {
    C("vectors_written", vectors_written, "vectors", "VPM_WRITE vectors"),
    C("vectors_read", vectors_read, "vectors", "VPM_READ vectors"),
    C("reads_without_setup", reads_without_setup, "vectors",
      "VPM_READs with no read setup left (answered 0; \"undefined\", @129589)"),
    C("setups_ignored", setups_ignored, "writes", "read setups with two already queued (ignored)"),
    C("bad_setups", bad_setups, "writes", "setup writes with an ID no table defines (ignored)"),
    C("reserved_codes", reserved_codes, "writes", "reserved SIZE/MODEW codes (taken as 32-bit)"),
    C("dma_loads", loads, "transfers", "VDR loads"),
    C("dma_stores", stores, "transfers", "VDW stores"),
    C("dma_bytes_loaded", bytes_loaded, "bytes", "bytes loaded into the VPM"),
    C("dma_bytes_stored", bytes_stored, "bytes", "bytes stored to memory"),
    C("dma_beyond_memory", dma_beyond_memory, "rows", "DMA rows beyond memory (skipped)"),
    C("dma_cycles", dma_cycles, "cycles", "engine cycles spent transferring"),
    C("busy_polls", busy_polls, "reads", "VPM_LD_BUSY / VPM_ST_BUSY reads"),
    C("waits", waits, "reads", "VPM_LD_WAIT / VPM_ST_WAIT reads"),
    C("bad_messages", bad_messages, "messages", "malformed or unknown accesses (dropped)"),
    C("reply_stalls", reply_stalls, "events", "answers held by a full channel"),
    C("l2_line_requests", l2_line_requests, "requests",
      "DMA line pieces sent to the L2C (VDR reads, VDW writes)"),
    C("l2_hits", l2_hits, "requests", "of those, VDR reads answered as L2C hits"),
    C("l2_stray_replies", l2_stray_replies, "messages",
      "L2C replies for no DMA in flight (dropped)"),
    C("held_overflows", held_overflows, "answers",
      "answers beyond the held queue behind a DMA wait (answered at once)"),
    C("vcd_rows_written", vcd_rows_written, "rows", "rows the VCD wrote (vertex attributes)"),
    C("vcd_rows_read", vcd_rows_read, "rows", "rows the PTB/PSE read (shaded vertices)"),
    C("segments", segments, "changes",
      "QPU segment changes (a vertex batch's segment, and the return to row 0 after it)"),
    C("vcd_bad_messages", vcd_bad_messages, "messages",
      "vertex pipeline messages of another kind, or rows beyond the VPM (dropped)"),
    STAT_END
};
#undef C

static void note(struct vc4_vpm *s, struct unit *u, unsigned bit, const char *what)
{
    if (!(s->logged & (1u << bit))) {
        s->logged |= 1u << bit;
        unit_log(u, SIM_LOG_NOTE, "%s (counted; later ones are not logged)", what);
    }
}

uint32_t vc4_vpm_peek(struct unit *u, unsigned y, unsigned x)
{
    struct vc4_vpm *s = unit_state(u);
    uint64_t i = (uint64_t)y * VPM_WIDTH + x;
    return s->words && x < VPM_WIDTH && i < s->word_count ? s->words[i] : 0;
}

/* ---- generic block access (Tables 32/33) -------------------------------------------------- */

static struct block_setup decode_block(uint32_t v, bool is_read, struct vc4_vpm *s)
{
    struct block_setup b = { 0 };
    b.size = (v >> 8) & 3;
    if (b.size == 3) {
        s->reserved_codes++;
        b.size = SIZE_32;
    }
    b.laned = (v >> 10) & 1;
    b.horiz = (v >> 11) & 1;
    b.stride = (v >> 12) & 63;
    if (!b.stride)
        b.stride = 64;
    b.addr = v & 0xff;
    if (is_read) {
        b.num = (v >> 20) & 15;
        if (!b.num)
            b.num = 16;
    }
    return b;
}

static uint32_t addr_mask(unsigned size)
{
    return size == SIZE_32 ? 0x3f : size == SIZE_16 ? 0x7f : 0xff;
}

/* Word index, bit shift and width of lane `lane` of the vector at b->addr. */
static void lane_place(const struct block_setup *b, unsigned lane, uint32_t *word, unsigned *shift,
                       unsigned *bits)
{
    unsigned sub = 0, a = b->addr & addr_mask(b->size);
    unsigned per_word = 1;
    if (b->size == SIZE_16) {
        sub = a & 1;
        a >>= 1;
        per_word = 2;
    } else if (b->size == SIZE_8) {
        sub = a & 3;
        a >>= 2;
        per_word = 4;
    }
    *bits = 32 / per_word;
    unsigned along, part;   /* index along the vector's direction (0..15), part within word */
    if (per_word == 1) {
        along = lane;
        part = 0;
    } else if (b->laned) {
        along = lane;
        part = sub;
    } else {
        /* packed: lanes fill 16/per_word successive words, the sub-address selects which */
        along = sub * (16 / per_word) + lane / per_word;
        part = lane % per_word;
    }
    unsigned y, x;
    if (b->horiz) {
        y = a & 63;
        x = along;
    } else {
        y = ((a >> 4) & 3) * 16 + along;
        x = a & 15;
    }
    /* a vertex shader's accesses are relocated to its batch's segment (notes §7 item 10) */
    *word = ((y % QPU_ROWS) + b->base) * VPM_WIDTH + (x & 15);
    *shift = part * *bits;
}

static void write_vector(struct vc4_vpm *s, struct block_setup *b, const uint32_t *value,
                         uint16_t lanes)
{
    for (unsigned i = 0; i < QPU_LANES; i++) {
        if (!(lanes >> i & 1))
            continue;
        uint32_t w;
        unsigned shift, bits;
        lane_place(b, i, &w, &shift, &bits);
        if (w >= s->word_count)
            continue;
        uint32_t mask = bits == 32 ? 0xffffffffu : ((1u << bits) - 1) << shift;
        s->words[w] = (s->words[w] & ~mask) | ((value[i] << shift) & mask);
    }
    b->addr = (b->addr + b->stride) & addr_mask(b->size);
    s->vectors_written++;
}

static void read_vector(struct vc4_vpm *s, struct block_setup *b, uint32_t *value)
{
    for (unsigned i = 0; i < QPU_LANES; i++) {
        uint32_t w;
        unsigned shift, bits;
        lane_place(b, i, &w, &shift, &bits);
        uint32_t v = w < s->word_count ? s->words[w] : 0;
        value[i] = bits == 32 ? v : (v >> shift) & ((1u << bits) - 1);
    }
    b->addr = (b->addr + b->stride) & addr_mask(b->size);
    s->vectors_read++;
}

/* ---- DMA ------------------------------------------------------------------------------------ */

static bool mem_ok(struct vc4_vpm *s, uint64_t a, uint32_t bytes)
{
    return a + bytes <= (uint64_t)s->memory_mb << 20;
}

/* element size and sub-word select of a MODEW code (Tables 34, 36) */
static unsigned modew_bytes(struct vc4_vpm *s, unsigned modew, unsigned *select)
{
    *select = 0;
    if (modew == 0)
        return 4;
    if (modew == 1) {
        s->reserved_codes++;
        return 4;
    }
    if (modew < 4) {
        *select = modew & 1;
        return 2;
    }
    *select = modew & 3;
    return 1;
}

static uint64_t schedule_dma(struct vc4_vpm *s, struct unit *u, int engine, uint64_t bytes)
{
    uint64_t now = unit_cycle(u);
    uint64_t start = s->engine_free[engine] > now ? s->engine_free[engine] : now;
    uint64_t transfer = (bytes + s->dma_bytes_per_cycle - 1) / s->dma_bytes_per_cycle;
    s->engine_free[engine] = start + transfer;
    s->dma_cycles += transfer;
    return start + transfer + s->dma_latency;
}

/* Through the L2C: queues a DMA of `rows` rows (address, bytes) as line pieces on `engine`. */
static void queue_dma(struct vc4_vpm *s, struct unit *u, int engine, uint32_t client,
                      const uint64_t *row_address, const uint32_t *row_bytes, unsigned rows,
                      uint32_t alias)
{
    struct dma_job *j = gt_xcalloc(1, sizeof *j);
    uint32_t n = 0;
    for (unsigned r = 0; r < rows; r++)
        if (row_bytes[r])
            n += (uint32_t)((row_address[r] + row_bytes[r] - 1) / MEMREQ_LINE_BYTES -
                            row_address[r] / MEMREQ_LINE_BYTES + 1);
    j->piece = n ? gt_xcalloc(n, sizeof *j->piece) : NULL;
    for (unsigned r = 0; r < rows; r++) {
        uint64_t a = row_address[r], end = a + row_bytes[r];
        while (a < end) {
            uint64_t line_end = (a / MEMREQ_LINE_BYTES + 1) * MEMREQ_LINE_BYTES;
            uint64_t b = line_end < end ? line_end : end;
            j->piece[j->pieces++] = (struct dma_piece){ a | alias, (uint32_t)(b - a) };
            a = b;
        }
    }
    j->client = client;
    j->started = unit_cycle(u);
    s->client[client].dma_pending[engine]++;
    if (s->job_tail[engine])
        s->job_tail[engine]->next = j;
    else
        s->job_head[engine] = j;
    s->job_tail[engine] = j;
}

static void release_held(struct vc4_vpm *s, struct unit *u, uint32_t port);

/* The head DMA of an engine is complete: the next one may start, waits on it answer. */
static void finish_dma(struct vc4_vpm *s, struct unit *u, int engine)
{
    struct dma_job *j = s->job_head[engine];
    s->job_head[engine] = j->next;
    if (!j->next)
        s->job_tail[engine] = NULL;
    struct client *c = &s->client[j->client];
    if (c->dma_pending[engine])
        c->dma_pending[engine]--;
    s->dma_cycles += unit_cycle(u) - j->started;
    if (s->job_head[engine])
        s->job_head[engine]->started = unit_cycle(u);
    uint32_t port = j->client;
    free(j->piece);
    free(j);
    release_held(s, u, port);
}

/* Sends the head DMAs' pieces while the channel takes them; DMAs with nothing to move end. */
static void send_dma(struct vc4_vpm *s, struct unit *u)
{
    for (int e = 0; e < 2; e++) {
        struct dma_job *j;
        while ((j = s->job_head[e]) != NULL && j->pieces == 0)
            finish_dma(s, u, e);
        while (j && j->sent < j->pieces && port_can_send(s->l2)) {
            struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
            struct memreq *q = (struct memreq *)m->payload;
            memset(q, 0, sizeof *q);
            q->address = j->piece[j->sent].address;
            q->bytes = (uint16_t)j->piece[j->sent].bytes;
            q->op = e ? MEMREQ_WRITE : MEMREQ_READ;
            q->target = MEMREQ_DATA;
            q->tag = (uint32_t)e;
            q->client = unit_id(u);
            if (!port_try_send(s->l2, m)) {
                msg_free(unit_sim(u), m);
                break;
            }
            j->sent++;
            s->l2_line_requests++;
            unit_progress(u);
        }
    }
}

static void take_l2_reply(struct vc4_vpm *s, struct unit *u, struct msg *m)
{
    const struct memreply *a = (const struct memreply *)m->payload;
    if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *a) {
        s->bad_messages++;
        return;
    }
    struct dma_job *j = a->tag < 2 ? s->job_head[a->tag] : NULL;
    if (!j || j->done >= j->sent) {
        s->l2_stray_replies++;
        note(s, u, 5, "L2C reply for no DMA in flight (dropped)");
        return;
    }
    if (a->hit && a->tag == 0)
        s->l2_hits++;
    if (++j->done == j->pieces)
        finish_dma(s, u, (int)a->tag);
}

/* VDW (Tables 34, 35): VPM -> memory */
static void start_store(struct vc4_vpm *s, struct unit *u, struct client *c, uint32_t address)
{
    uint32_t v = c->vdw_setup, st = c->vdw_stride_setup;
    unsigned units = (v >> 23) & 0x7f, depth = (v >> 16) & 0x7f;
    if (!units)
        units = 128;
    if (!depth)
        depth = 128;
    bool horiz = (v >> 14) & 1;
    unsigned vpmbase = (v >> 3) & 0x7ff, y = vpmbase >> 4, x = vpmbase & 15, select;
    unsigned eb = modew_bytes(s, v & 7, &select);
    bool blockmode = (st >> 16) & 1;
    uint32_t stride = st & 0x1fff;
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    uint64_t base = address & s->address_mask, bytes = 0;
    uint64_t rows_at[128];
    uint32_t rows_bytes[128];
    for (unsigned r = 0; r < units; r++) {
        uint64_t row_address = base + (uint64_t)r * (depth * eb + stride);
        rows_at[r] = row_address;
        rows_bytes[r] = 0;
        if (!mem || !mem_ok(s, row_address, depth * eb)) {
            s->dma_beyond_memory++;
            note(s, u, 0, "VDW row beyond memory (skipped)");
            continue;
        }
        rows_bytes[r] = depth * eb;
        uint8_t row[128 * 4];
        for (unsigned k = 0; k < depth; k++) {
            uint64_t linear;
            if (horiz)
                linear = blockmode ? (uint64_t)y * VPM_WIDTH + x + (uint64_t)r * depth + k
                                   : (uint64_t)(y + r) * VPM_WIDTH + x + k;
            else
                linear = (uint64_t)(y + k) * VPM_WIDTH + ((x + r) & 15);
            uint32_t w = s->words[linear % s->word_count];
            uint32_t e = eb == 4 ? w : (w >> (select * eb * 8)) & (eb == 2 ? 0xffffu : 0xffu);
            memcpy(row + k * eb, &e, eb);
        }
        gpu_memory_write(mem, row_address, row, depth * eb, NULL);
        bytes += depth * eb;
    }
    s->stores++;
    s->bytes_stored += bytes;
    if (s->l2)
        queue_dma(s, u, 1, (uint32_t)(c - s->client), rows_at, rows_bytes, units,
                  address & ~s->address_mask);
    else
        c->store_done = schedule_dma(s, u, 1, bytes);
}

/* VDR (Tables 36, 37): memory -> VPM */
static void start_load(struct vc4_vpm *s, struct unit *u, struct client *c, uint32_t address)
{
    uint32_t v = c->vdr_setup;
    unsigned modew = (v >> 28) & 7, mpitch = (v >> 24) & 15;
    unsigned rowlen = (v >> 20) & 15, nrows = (v >> 16) & 15, vpitch = (v >> 12) & 15;
    if (!rowlen)
        rowlen = 16;
    if (!nrows)
        nrows = 16;
    if (!vpitch)
        vpitch = 16;
    bool vert = (v >> 11) & 1;
    unsigned y = (v >> 4) & 0x7f, x = v & 15, select;
    unsigned eb = modew_bytes(s, modew, &select);
    uint32_t pitch = mpitch ? 8u << mpitch : c->vdr_pitch_bytes;
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    uint64_t base = address & s->address_mask, bytes = 0;
    uint64_t rows_at[16];
    uint32_t rows_bytes[16];
    for (unsigned r = 0; r < nrows; r++) {
        uint64_t row_address = base + (uint64_t)r * pitch;
        rows_at[r] = row_address;
        rows_bytes[r] = 0;
        if (!mem || !mem_ok(s, row_address, rowlen * eb)) {
            s->dma_beyond_memory++;
            note(s, u, 1, "VDR row beyond memory (skipped)");
            continue;
        }
        rows_bytes[r] = rowlen * eb;
        uint8_t row[16 * 4];
        gpu_memory_read(mem, row_address, row, rowlen * eb, NULL);
        for (unsigned k = 0; k < rowlen; k++) {
            uint64_t linear = vert ? (uint64_t)(y + k) * VPM_WIDTH + ((x + r) & 15)
                                   : (uint64_t)(y + r * vpitch) * VPM_WIDTH + x + k;
            uint32_t *w = &s->words[linear % s->word_count];
            uint32_t e = 0;
            memcpy(&e, row + k * eb, eb);
            if (eb == 4) {
                *w = e;
            } else {
                unsigned shift = select * eb * 8;
                uint32_t mask = (eb == 2 ? 0xffffu : 0xffu) << shift;
                *w = (*w & ~mask) | (e << shift);
            }
        }
        bytes += rowlen * eb;
    }
    s->loads++;
    s->bytes_loaded += bytes;
    if (s->l2)
        queue_dma(s, u, 0, (uint32_t)(c - s->client), rows_at, rows_bytes, nrows,
                  address & ~s->address_mask);
    else
        c->load_done = schedule_dma(s, u, 0, bytes);
}

/* ---- messages ------------------------------------------------------------------------------- */

static void answer_now(struct vc4_vpm *s, struct unit *u, uint32_t port, struct client *c,
                       uint64_t ready, uint32_t reg, uint32_t qpu, const uint32_t *value);

/* An answer to QPU `port`: held (in order) while an earlier one waits for a DMA through the
 * L2C, or when it is itself a wait (`engine` >= 0) for this QPU's DMA still in flight. */
static void answer(struct vc4_vpm *s, struct unit *u, uint32_t port, struct client *c,
                   uint64_t ready, uint32_t reg, uint32_t qpu, const uint32_t *value, int engine)
{
    bool wait = engine >= 0 && c->dma_pending[engine];
    if (c->held_count || wait) {
        if (c->held_count < HELD_MAX) {
            struct held_answer *h = &c->held[(c->held_head + c->held_count++) % HELD_MAX];
            h->engine = wait ? engine : -1;
            h->reg = reg;
            h->qpu = qpu;
            if (value)
                memcpy(h->value, value, sizeof h->value);
            else
                memset(h->value, 0, sizeof h->value);
            return;
        }
        s->held_overflows++;
        note(s, u, 6, "more answers held behind a DMA wait than the queue takes: answered now");
    }
    answer_now(s, u, port, c, ready, reg, qpu, value);
}

static void release_held(struct vc4_vpm *s, struct unit *u, uint32_t port)
{
    struct client *c = &s->client[port];
    while (c->held_count) {
        struct held_answer *h = &c->held[c->held_head];
        if (h->engine >= 0 && c->dma_pending[h->engine])
            break;
        answer_now(s, u, port, c, unit_cycle(u) + 1, h->reg, h->qpu, h->value);
        c->held_head = (c->held_head + 1) % HELD_MAX;
        c->held_count--;
    }
}

static void answer_now(struct vc4_vpm *s, struct unit *u, uint32_t port, struct client *c,
                       uint64_t ready, uint32_t reg, uint32_t qpu, const uint32_t *value)
{
    uint64_t now = unit_cycle(u);
    if (ready <= now)
        ready = now + 1;
    if (ready < c->last_answer)
        ready = c->last_answer;     /* answers to one QPU in request order */
    c->last_answer = ready;
    struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof(struct qpu_io_result));
    struct qpu_io_result *r = (struct qpu_io_result *)m->payload;
    r->reg = reg;
    r->qpu = qpu;
    if (value)
        memcpy(r->value, value, sizeof r->value);
    m->tag = qpu;
    reply_queue_push(&s->replies, ready, port, m, NULL);
}

static void take(struct vc4_vpm *s, struct unit *u, uint32_t port, struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r || port >= MAX_CLIENTS) {
        s->bad_messages++;
        return;
    }
    struct client *c = &s->client[port];
    uint64_t now = unit_cycle(u);
    uint32_t v0 = r->value[0];  /* setups and addresses come from element 0 */
    if (r->op == QPU_IO_WRITE) {
        switch (r->reg) {
        case QPU_IO_VPM_WRITE:
            write_vector(s, &c->write, r->value, (uint16_t)r->lane_mask);
            return;
        case QPU_IO_VPMVCD_SETUP:
            if (!r->file_b) {           /* VPMVCD_RD_SETUP */
                if (v0 >> 31) {
                    if ((v0 >> 28) == 9)
                        c->vdr_pitch_bytes = v0 & 0x1fff;   /* Table 37 */
                    else
                        c->vdr_setup = v0;                  /* Table 36 */
                } else if ((v0 >> 30) == 0) {
                    if (c->reads_queued >= 2) {
                        s->setups_ignored++;
                        note(s, u, 2, "VPM read setup with two queued: ignored (@129589)");
                        return;
                    }
                    struct block_setup b = decode_block(v0, true, s);
                    b.cycle = now;
                    b.base = c->segment_base;
                    c->read[c->reads_queued++] = b;
                } else {
                    s->bad_setups++;
                }
            } else {                    /* VPMVCD_WR_SETUP */
                switch (v0 >> 30) {
                case 0:
                    c->write = decode_block(v0, false, s);
                    c->write.base = c->segment_base;
                    break;
                case 2: c->vdw_setup = v0; break;
                case 3: c->vdw_stride_setup = v0; break;
                default: s->bad_setups++; break;
                }
            }
            return;
        case QPU_IO_VPM_ADDR:
            if (r->file_b)
                start_store(s, u, c, v0);
            else
                start_load(s, u, c, v0);
            return;
        default:
            break;
        }
    } else if (r->op == QPU_IO_READ) {
        uint32_t value[QPU_LANES] = { 0 };
        switch (r->reg) {
        case QPU_IO_VPM_WRITE: {        /* VPM_READ */
            uint64_t ready = now + 1;
            if (!c->reads_queued) {
                s->reads_without_setup++;
                note(s, u, 3, "VPM_READ with no read setup left: answers 0");
            } else {
                struct block_setup *b = &c->read[0];
                if (b->cycle + s->read_setup_cycles > ready)
                    ready = b->cycle + s->read_setup_cycles;
                read_vector(s, b, value);
                if (--b->num == 0) {
                    c->read[0] = c->read[1];
                    c->reads_queued--;
                    if (c->reads_queued)
                        c->read[0].cycle = c->read[0].cycle > now ? c->read[0].cycle : now;
                }
            }
            answer(s, u, port, c, ready, r->reg, r->qpu, value, -1);
            return;
        }
        case QPU_IO_VPMVCD_SETUP: {     /* VPM_LD_BUSY (A) / VPM_ST_BUSY (B) */
            s->busy_polls++;
            uint64_t done = r->file_b ? c->store_done : c->load_done;
            bool busy = done > now || c->dma_pending[r->file_b ? 1 : 0];
            for (unsigned i = 0; i < QPU_LANES; i++)
                value[i] = busy ? 1 : 0;
            answer(s, u, port, c, now + 1, r->reg, r->qpu, value, -1);
            return;
        }
        case QPU_IO_VPM_ADDR:           /* VPM_LD_WAIT (A) / VPM_ST_WAIT (B) */
            s->waits++;
            answer(s, u, port, c, r->file_b ? c->store_done : c->load_done, r->reg, r->qpu,
                   value, r->file_b ? 1 : 0);
            return;
        default:
            break;
        }
    }
    s->bad_messages++;
    note(s, u, 4, "not a VPM access (dropped)");
}

static void free_jobs(struct vc4_vpm *s)
{
    for (int e = 0; e < 2; e++) {
        while (s->job_head[e]) {
            struct dma_job *j = s->job_head[e];
            s->job_head[e] = j->next;
            free(j->piece);
            free(j);
        }
        s->job_tail[e] = NULL;
    }
}

/* One message of the vertex pipeline (v3d) on "vcd": rows are absolute (row y of the whole VPM,
 * words y*16 .. y*16+15); every message has room for its answer (the caller checked). */
static void take_vcd(struct vc4_vpm *s, struct unit *u, struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r) {
        s->vcd_bad_messages++;
        note(s, u, 5, "vertex pipeline message of another kind (dropped)");
        return;
    }
    uint64_t first = (uint64_t)r->reg * VPM_WIDTH;
    bool row_ok = first + VPM_WIDTH <= s->word_count;
    struct msg *a = NULL;
    struct qpu_io_result *res = NULL;
    if (r->op == QPU_IO_VCD_READ || r->op == QPU_IO_VPM_SEGMENT) {
        a = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof(struct qpu_io_result));
        res = (struct qpu_io_result *)a->payload;
        res->reg = r->reg;
        res->qpu = r->qpu;
        res->thread = r->thread;    /* the sender's tag, echoed */
        a->tag = r->qpu;
    }
    switch (r->op) {
    case QPU_IO_VCD_WRITE:
        if (!row_ok)
            break;
        for (unsigned i = 0; i < VPM_WIDTH; i++)
            if (r->lane_mask >> i & 1)
                s->words[first + i] = r->value[i];
        s->vcd_rows_written++;
        return;
    case QPU_IO_VCD_READ:
        if (row_ok) {
            memcpy(res->value, s->words + first, sizeof res->value);
            s->vcd_rows_read++;
        } else {
            s->vcd_bad_messages++;          /* answered with zeros */
        }
        break;
    case QPU_IO_VPM_SEGMENT:
        if (r->qpu < MAX_CLIENTS && r->value[0] * VPM_WIDTH < s->word_count) {
            s->client[r->qpu].segment_base = r->value[0];
            s->segments++;
        } else {
            s->vcd_bad_messages++;
        }
        break;
    default:
        break;
    }
    if (!a) {
        s->vcd_bad_messages++;
        note(s, u, 6, "vertex pipeline write beyond the VPM or of an unknown op (dropped)");
        return;
    }
    if (!port_try_send(s->vcd_result, a)) {
        msg_free(unit_sim(u), a);
        s->vcd_bad_messages++;
    }
}

static int vpm_realize(struct unit *u, struct gt_error *err)
{
    struct vc4_vpm *s = unit_state(u);
    s->in = unit_port_array(u, "qpu", &s->ins);
    s->out = unit_port_array(u, "result", &s->outs);
    s->l2 = unit_port(u, "l2", 0);
    s->l2_reply = unit_port(u, "l2_reply", 0);
    if (s->l2 && !port_is_bound(s->l2))
        s->l2 = NULL;
    if (s->l2_reply && !port_is_bound(s->l2_reply))
        s->l2_reply = NULL;
    if (!s->l2 != !s->l2_reply)
        return gt_error_set(err, "%s: \"l2\" and \"l2_reply\" are bound together or not at all",
                            unit_name(u));
    s->vcd = unit_port(u, "vcd", 0);
    s->vcd_result = unit_port(u, "vcd_result", 0);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .order = REPLY_QUEUE_READY_THEN_INSERTION, .refusal = REPLY_QUEUE_PER_PORT,
        .ports = s->out, .port_count = s->outs, .stall_count = &s->reply_stalls });
    s->word_count = s->size_kb * 1024 / 4;
    free(s->words);
    s->words = gt_xcalloc(s->word_count, sizeof *s->words);
    return 0;
}

static void vpm_reset(struct unit *u)
{
    struct vc4_vpm *s = unit_state(u);
    reply_queue_clear(&s->replies, unit_sim(u));
    free_jobs(s);
    memset(s->client, 0, sizeof s->client);
    memset(s->engine_free, 0, sizeof s->engine_free);
    if (s->words)
        memset(s->words, 0, s->word_count * sizeof *s->words);
}

static enum unit_activity vpm_tick(struct unit *u)
{
    struct vc4_vpm *s = unit_state(u);
    struct msg *m;
    for (uint32_t q = 0; q < s->ins; q++)
        while (s->in[q] && (m = port_pop(s->in[q])) != NULL) {
            take(s, u, q, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    while (s->l2_reply && (m = port_pop(s->l2_reply)) != NULL) {
        take_l2_reply(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    if (s->l2)
        send_dma(s, u);
    /* the vertex pipeline after the QPUs: a batch's last VPM writes are in before v3d, which
     * heard of its end, reads the rows back */
    while (s->vcd && s->vcd_result && port_visible(s->vcd) && port_can_send(s->vcd_result) &&
           (m = port_pop(s->vcd)) != NULL) {
        take_vcd(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    struct reply_queue_result sent = reply_queue_send(&s->replies, u);
    if (sent.sent || sent.dropped)
        unit_progress(u);
    reply_queue_wake(&s->replies, u);
    return UNIT_IDLE;
}

static void vpm_destroy(struct unit *u)
{
    struct vc4_vpm *s = unit_state(u);
    reply_queue_free(&s->replies, unit_sim(u));
    free_jobs(s);
    free(s->words);
    s->words = NULL;
}

const struct unit_ops vc4_vpm_ops = {
    .kind = "vc4_vpm",
    .help = "VideoCore IV vertex pipe memory: QPU generic block reads and writes, VDW stores "
            "and VDR loads with strides (seed 002 Sec 7 @123648).",
    .state_size = sizeof(struct vc4_vpm),
    .params = vpm_params,
    .ports = vpm_ports,
    .stats = vpm_stats,
    .realize = vpm_realize,
    .reset = vpm_reset,
    .tick = vpm_tick,
    .destroy = vpm_destroy,
};
