/* units/host/host.c - see host.h. */
#include "units/host/host.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/aub.h"
#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "units/common/mmio.h"

#define BUILTIN_FABRIC "builtin:fabric"
#define BUILTIN_CHUNK 4096u

enum step_kind { STEP_MEMORY, STEP_REGISTER, STEP_POLL, STEP_RING, STEP_DEVICE };

/* The engine a register write, poll or ring write is for. */
enum step_engine { ENGINE_RENDER = 0, ENGINE_BLITTER };

#define BLITTER_REGISTER_BYTES 0x1000u  /* one engine's register page (aub-format §4.4) */

struct step {
    enum step_kind kind;
    uint8_t space;          /* enum aub_address_space */
    uint8_t engine;         /* enum step_engine: register, poll, ring */
    uint32_t offset, value; /* register write; device: gen, PCI id */
    uint64_t address;
    uint64_t file_offset;
    size_t data_index;      /* memory / ring: bytes in the data pool */
    uint64_t size;
    bool redump;            /* memory: the same bytes the capture last wrote there */
};

struct host {
    /* params */
    char workload[PARAM_STRING_MAX];
    uint64_t messages;
    uint32_t blitter_mmio_base;
    /* ports */
    struct port *gpu, *gpu_reply;
    struct port *blitter, *blitter_reply;   /* NULL when not linked */
    /* AUB replay */
    bool aub;
    struct step *steps;
    size_t step_count, step_capacity;
    uint8_t *data;
    size_t data_size, data_capacity;
    size_t next_step;
    enum gpu_address_space_format gtt_format;
    struct gpu_address_space ggtt;
    /* builtin */
    uint32_t gen;
    uint32_t command_header;
    /* both */
    bool waiting;           /* for a sync reply */
    bool blitter_waiting;   /* for the blitter's sync reply */
    bool blitter_used;      /* something was sent to the blitter */
    bool asked_gen, done, blitter_done;
    struct msg *pending;    /* a message the CS (or the blitter) could not take yet */
    struct port *pending_port;
    bool pending_waits;     /* sending it starts a wait */
    /* stats */
    uint64_t injected, memory_writes, memory_bytes, register_writes, syncs, faults, redumps_skipped;
};

static const struct param_desc host_params[] = {
    PARAM_STRING_FIELD("workload", struct host, workload, BUILTIN_FABRIC,
                       "what to play: an AUB capture (FILE.aub, FILE.aub.gz) or builtin:fabric"),
    PARAM_U64_FIELD("messages", struct host, messages, 100000, 0, 1000000000000LL,
                    "builtin:fabric: 3D state commands to send"),
    PARAM_U32_FIELD("blitter_mmio_base", struct host, blitter_mmio_base, 0x22000, 0, 0x3FFFFF,
                    "register page of the blitter ring (BCS, notes/aub-format.md §4.4): with "
                    "\"blitter\" linked, AUB writes and polls of its registers go there"),
    PARAM_END
};

static const struct port_desc host_ports[] = {
    { .name = "gpu", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .help = "MSG_MMIO to the command streamer" },
    { .name = "gpu_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "sync replies from the command streamer" },
    { .name = "blitter", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "MSG_MMIO to the blitter: the BCS ring's register writes, ring dwords and syncs" },
    { .name = "blitter_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "sync replies from the blitter" },
    PORT_END
};

static const struct stat_desc host_stats[] = {
    STAT_COUNTER_FIELD("injected", struct host, injected, "items",
                       "commands (builtin) or AUB blocks played"),
    STAT_COUNTER_FIELD("memory_redumps_skipped", struct host, redumps_skipped, "writes",
                       "capture memory writes repeating the bytes it last wrote there (re-dumped mappings)"),
    STAT_COUNTER_FIELD("memory_writes", struct host, memory_writes, "writes",
                       "memory writes applied from the workload"),
    STAT_COUNTER_FIELD("memory_bytes", struct host, memory_bytes, "bytes",
                       "bytes of memory written from the workload"),
    STAT_COUNTER_FIELD("register_writes", struct host, register_writes, "writes",
                       "register writes sent to the GPU"),
    STAT_COUNTER_FIELD("syncs", struct host, syncs, "waits", "waits for the GPU to finish"),
    STAT_COUNTER_FIELD("faults", struct host, faults, "writes",
                       "workload memory writes that did not translate (skipped)"),
    STAT_END
};

/* ---- reading an AUB into steps ------------------------------------------- */

static size_t keep_data(struct host *h, const uint8_t *data, uint64_t size)
{
    /* the pool exists once any step is kept, even when every write so far
     * was empty: steps point into it (fuzz_threads finding: a capture of
     * empty writes only left it NULL, and playing them offset a null pointer) */
    if (!h->data || h->data_size + size > h->data_capacity) {
        while (h->data_size + size > h->data_capacity)
            h->data_capacity = h->data_capacity ? 2 * h->data_capacity : 1 << 20;
        h->data = gt_xrealloc(h->data, h->data_capacity);
    }
    size_t index = h->data_size;
    if (size)   /* an empty write may come with no buffer at all (fuzz_machine finding) */
        memcpy(h->data + index, data, size);
    h->data_size += size;
    return index;
}

static struct step *add_step(struct host *h, enum step_kind kind, uint64_t file_offset)
{
    if (h->step_count == h->step_capacity) {
        h->step_capacity = h->step_capacity ? 2 * h->step_capacity : 1024;
        h->steps = gt_xrealloc(h->steps, h->step_capacity * sizeof *h->steps);
    }
    struct step *s = &h->steps[h->step_count++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->file_offset = file_offset;
    return s;
}

static int on_version(void *context, const struct aub_version *v, struct gt_error *err)
{
    struct host *h = context;
    (void)err;
    struct aub_device_guess guess;
    aub_version_device(v, &guess);
    h->gtt_format = guess.gtt_format;
    struct step *s = add_step(h, STEP_DEVICE, v->file_offset);
    s->offset = (uint32_t)guess.generation;
    s->value = guess.pci_id;
    return 0;
}

static void mark_redumps(struct host *h);

static int on_memory(void *context, const struct aub_memory_write *w, struct gt_error *err)
{
    struct host *h = context;
    if (w->space == AUB_SPACE_NONLOCAL || w->space == AUB_SPACE_PCI)
        return gt_error_set(err, "byte offset %" PRIu64 ": memory writes to the %s space are not "
                            "modelled", w->file_offset, aub_address_space_name(w->space));
    struct step *s = add_step(h, STEP_MEMORY, w->file_offset);
    s->space = (uint8_t)w->space;
    s->address = w->address;
    s->size = w->size;
    s->data_index = keep_data(h, w->data, w->size);
    return 0;
}

/* The blitter's registers (its engine's page, BCS at 0x22000: the
 * execlist ELSP 0x22230, EXECLIST_STATUS 0x22234, GFX_MODE 0x2229C, the ring
 * registers 0x22030-0x2203C; aub-format §4.4, §5.4) go to the blitter when
 * "blitter" is linked; everything else to the CS. */
static uint8_t register_engine(const struct host *h, uint32_t offset)
{
    return h->blitter && offset >= h->blitter_mmio_base &&
                   offset - h->blitter_mmio_base < BLITTER_REGISTER_BYTES
               ? ENGINE_BLITTER : ENGINE_RENDER;
}

static int on_register(void *context, const struct aub_register_write *w, struct gt_error *err)
{
    struct host *h = context;
    (void)err;
    struct step *s = add_step(h, STEP_REGISTER, w->file_offset);
    s->offset = w->offset;
    s->value = w->value;
    s->engine = register_engine(h, w->offset);
    return 0;
}

/* A poll waits for the engine whose register it reads (the capture polls
 * EXECLIST_STATUS of the engine it submitted to, aub-format §4.5). */
static int on_poll(void *context, const struct aub_register_poll *p, struct gt_error *err)
{
    (void)err;
    struct host *h = context;
    add_step(h, STEP_POLL, p->file_offset)->engine = register_engine(h, p->offset);
    return 0;
}

static int on_ring(void *context, const struct aub_ring_write *w, struct gt_error *err)
{
    struct host *h = context;
    uint8_t engine = ENGINE_RENDER;
    if (w->ring == AUB_TRACE_RING_PRB2 && h->blitter)
        engine = ENGINE_BLITTER;        /* the blitter ring (aub-format §2.5) */
    else if (w->ring != AUB_TRACE_RING_PRB0)
        return gt_error_set(err, "byte offset %" PRIu64 ": a ring write to ring %u; only the "
                            "render ring%s is modelled", w->file_offset, w->ring,
                            h->blitter ? " and the blitter ring" : "");
    struct step *s = add_step(h, STEP_RING, w->file_offset);
    s->address = w->address;
    s->size = w->size & ~3ull;
    s->data_index = keep_data(h, w->data, w->size);
    s->engine = engine;
    /* the next blocks may overwrite what this submission uses: wait for it
     * to finish before playing them (aub-format §5.2) */
    add_step(h, STEP_POLL, w->file_offset)->engine = engine;
    return 0;
}

static int on_mmio(void *context, const struct aub_mmio_write *w, struct gt_error *err)
{
    struct host *h = context;
    (void)err;
    for (uint64_t i = 0; i + 4 <= w->size; i += 4) {
        struct step *s = add_step(h, STEP_REGISTER, w->file_offset);
        s->offset = w->offset + (uint32_t)i;
        s->engine = register_engine(h, s->offset);
        memcpy(&s->value, w->data + i, 4);
    }
    return 0;
}

static int on_ignored(void *context, const void *block, struct gt_error *err)
{
    (void)context;
    (void)block;
    (void)err;
    return 0;
}

static int on_memory_poll(void *context, const struct aub_memory_poll *p, struct gt_error *err)
{
    return on_ignored(context, p, err);
}

static int on_comment(void *context, const struct aub_comment *c, struct gt_error *err)
{
    return on_ignored(context, c, err);
}

static const struct aub_reader_callbacks replay_callbacks = {
    .version = on_version,
    .memory_write = on_memory,
    .register_write = on_register,
    .register_poll = on_poll,
    .memory_poll = on_memory_poll,
    .comment = on_comment,
    .ring_write = on_ring,
    .mmio_write = on_mmio,
};

/* ---- the unit ------------------------------------------------------------ */

static int host_realize(struct unit *u, struct gt_error *err)
{
    struct host *h = unit_state(u);
    h->gpu = unit_port(u, "gpu", 0);
    h->gpu_reply = unit_port(u, "gpu_reply", 0);
    h->blitter = unit_port(u, "blitter", 0);
    h->blitter_reply = unit_port(u, "blitter_reply", 0);
    if (port_is_bound(h->blitter) != port_is_bound(h->blitter_reply))
        return gt_error_set(err, "host: link both \"blitter\" and \"blitter_reply\" (the "
                            "blitter's host and host_reply ports), or neither");
    if (!port_is_bound(h->blitter))
        h->blitter = h->blitter_reply = NULL;
    if (!port_is_bound(h->gpu_reply))
        return gt_error_set(err, "host.gpu_reply must be linked from the command streamer's "
                            "host_reply port (the host waits for the GPU through it)");
    h->aub = strcmp(h->workload, BUILTIN_FABRIC) != 0;
    if (!h->aub)
        return 0;
    if (strncmp(h->workload, "builtin:", 8) == 0)
        return gt_error_set(err, "no built-in workload '%s' (there is " BUILTIN_FABRIC ")",
                            h->workload);
    if (!sim_memory(unit_sim(u)))
        return gt_error_set(err, "the machine has no GPU memory to load '%s' into", h->workload);
    h->step_count = h->data_size = 0;
    if (aub_read_file(h->workload, &replay_callbacks, h, err) < 0)
        return gt_error_prefix(err, "workload %s", h->workload);
    if (h->step_count == 0 || h->steps[0].kind != STEP_DEVICE)
        return gt_error_set(err, "workload %s: no AUB version header names the device", h->workload);
    mark_redumps(h);
    return 0;
}

static void host_reset(struct unit *u)
{
    struct host *h = unit_state(u);
    h->injected = 0;
    h->next_step = 0;
    h->waiting = h->asked_gen = h->done = h->blitter_done = false;
    h->blitter_waiting = h->blitter_used = false;
    if (h->aub)
        gpu_address_space_init(&h->ggtt, sim_memory(unit_sim(u)), h->gtt_format, 0);
    if (h->aub || h->messages)
        unit_wake_at(u, 0);
}

/* Sends m on port, or keeps it for the next tick; `waits` starts a wait once sent. */
static bool send_on(struct host *h, struct port *port, struct msg *m, bool waits)
{
    if (!port_try_send(port, m)) {
        h->pending = m;
        h->pending_port = port;
        h->pending_waits = waits;
        return false;
    }
    if (port == h->blitter)
        h->blitter_used = true;
    if (waits && port == h->blitter)
        h->blitter_waiting = true;
    else if (waits)
        h->waiting = true;
    /* the run's last sync of the blitter is part of the last wait, not one of its own */
    if (waits && !(port == h->blitter && h->blitter_done && h->next_step == h->step_count))
        h->syncs++;
    return true;
}

static bool send(struct host *h, struct msg *m, bool waits)
{
    return send_on(h, h->gpu, m, waits);
}

/* The port of a step's engine. */
static struct port *engine_port(const struct host *h, uint8_t engine)
{
    return engine == ENGINE_BLITTER && h->blitter ? h->blitter : h->gpu;
}

/* Re-dumped buffers (notes/aub-format.md §3.4: "a BO that stays mapped is
 * rewritten on every later execbuffer that references it"). The capture
 * holds the CPU's copy as it was when recorded, and nothing ran then: a
 * rewrite of a range with exactly the bytes the capture last wrote there,
 * when no other capture write has touched any of its pages since, is the
 * driver re-sending an unchanged mapping, not new data. On the hardware
 * the GPU's own results would be in that copy (coherent memory); applying
 * the stale bytes would erase them (a render target the app then reads
 * back). Such writes are skipped (stat memory_redumps_skipped).
 * Not modelled: a CPU that really rewrites identical bytes over GPU
 * results keeps the GPU's. */
struct redump_entry {           /* open addressing; key (space, address[, size]) */
    uint64_t address, size;
    uint32_t step;
    uint8_t space, used;
};

struct redump_table {
    struct redump_entry *e;
    size_t capacity;
};

static size_t redump_slot(const struct redump_table *t, uint8_t space, uint64_t address,
                          uint64_t size)
{
    uint64_t x = address * 0x9e3779b97f4a7c15ull ^ size * 0xc2b2ae3d27d4eb4full ^ space;
    size_t k = (size_t)(x ^ (x >> 29)) & (t->capacity - 1);
    while (t->e[k].used && (t->e[k].address != address || t->e[k].size != size ||
                            t->e[k].space != space))
        k = (k + 1) & (t->capacity - 1);
    return k;
}

static void mark_redumps(struct host *h)
{
    size_t ranges = 64, pages = 64, page_count = 0;
    for (uint32_t i = 0; i < h->step_count; i++)
        if (h->steps[i].kind == STEP_MEMORY)
            page_count += (size_t)((h->steps[i].size + 4095) / 4096) + 1;
    while (ranges < 2 * (size_t)h->step_count)
        ranges *= 2;
    while (pages < 2 * page_count)
        pages *= 2;
    /* the last write of each exact range, and the last write touching each page */
    struct redump_table last_range = { gt_xcalloc(ranges, sizeof(struct redump_entry)), ranges };
    struct redump_table last_page = { gt_xcalloc(pages, sizeof(struct redump_entry)), pages };
    for (uint32_t i = 0; i < h->step_count; i++) {
        struct step *s = &h->steps[i];
        s->redump = false;
        if (s->kind != STEP_MEMORY || s->space == AUB_SPACE_GGTT_ENTRY || s->size == 0)
            continue;
        uint64_t first = s->address / 4096, last = (s->address + s->size - 1) / 4096;
        size_t k = redump_slot(&last_range, s->space, s->address, s->size);
        if (last_range.e[k].used) {
            uint32_t previous = last_range.e[k].step;
            bool untouched = true;
            for (uint64_t pg = first; pg <= last && untouched; pg++) {
                size_t q = redump_slot(&last_page, s->space, pg, 0);
                untouched = last_page.e[q].used && last_page.e[q].step == previous;
            }
            s->redump = untouched && memcmp(h->data + h->steps[previous].data_index,
                                            h->data + s->data_index, (size_t)s->size) == 0;
        }
        last_range.e[k] = (struct redump_entry){ s->address, s->size, i, s->space, 1 };
        for (uint64_t pg = first; pg <= last; pg++) {
            size_t q = redump_slot(&last_page, s->space, pg, 0);
            last_page.e[q] = (struct redump_entry){ pg, 0, i, s->space, 1 };
        }
    }
    free(last_range.e);
    free(last_page.e);
}

static struct msg *mmio(struct unit *u, enum cs_mmio_op op, uint32_t offset, uint32_t value,
                        uint32_t extra)
{
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, (uint32_t)sizeof(struct cs_mmio) + extra);
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = op;
    c->offset = offset;
    c->value = value;
    c->size = extra;
    return m;
}

static void apply_memory(struct host *h, struct unit *u, const struct step *s)
{
    struct gpu_memory *memory = sim_memory(unit_sim(u));
    const uint8_t *data = h->data + s->data_index;
    struct gt_error err;
    int rc;
    switch (s->space) {
    case AUB_SPACE_GGTT_ENTRY:
        rc = gpu_memory_gtt_entries_write(memory, s->address, data, s->size, &err);
        break;
    case AUB_SPACE_GGTT:
        rc = gpu_address_space_write(&h->ggtt, s->address, data, s->size, &err);
        break;
    default:
        rc = gpu_memory_write(memory, s->address, data, s->size, &err);
        break;
    }
    h->memory_writes++;
    h->memory_bytes += s->size;
    if (rc < 0) {
        h->faults++;
        unit_log(u, SIM_LOG_WARNING, "workload byte offset %" PRIu64 ": memory write skipped: %s",
                 s->file_offset, err.message);
    }
}

/* Plays steps until one must wait (a sync, or a full channel). */
static void play_aub(struct host *h, struct unit *u)
{
    while (h->next_step < h->step_count && !h->waiting && !h->blitter_waiting && !h->pending) {
        const struct step *s = &h->steps[h->next_step++];
        h->injected++;
        switch (s->kind) {
        case STEP_MEMORY:
            if (s->redump)
                h->redumps_skipped++;
            else
                apply_memory(h, u, s);
            break;
        case STEP_DEVICE:
            send(h, mmio(u, CS_MMIO_DEVICE, s->offset, s->value, 0), false);
            break;
        case STEP_REGISTER:
            h->register_writes++;
            send_on(h, engine_port(h, s->engine), mmio(u, CS_MMIO_WRITE, s->offset, s->value, 0),
                    false);
            break;
        case STEP_POLL:
            send_on(h, engine_port(h, s->engine), mmio(u, CS_MMIO_SYNC, 0, 0, 0), true);
            break;
        case STEP_RING: {
            struct msg *m = mmio(u, CS_MMIO_RING_DATA, 0, 0, (uint32_t)s->size);
            struct cs_mmio *c = (struct cs_mmio *)m->payload;
            c->ring = s->engine == ENGINE_BLITTER ? AUB_TRACE_RING_PRB2 : AUB_TRACE_RING_PRB0;
            c->address = s->address;
            memcpy(c->data, h->data + s->data_index, s->size);
            send_on(h, engine_port(h, s->engine), m, false);
            break;
        }
        }
    }
    /* the last wait covers both engines: the blitter's sync (when it got
     * anything) goes out beside the CS's, so the run ends when both are done */
    if (h->next_step == h->step_count && !h->waiting && !h->blitter_waiting && !h->pending &&
        !h->blitter_done && h->blitter_used) {
        h->blitter_done = true;
        if (!send_on(h, h->blitter, mmio(u, CS_MMIO_SYNC, 0, 0, 0), true))
            return;
    }
    if (h->next_step == h->step_count && !h->waiting && !h->pending && !h->done) {
        h->done = true;                 /* a last sync: the run ends when the GPU has */
        send(h, mmio(u, CS_MMIO_SYNC, 0, 0, 0), true);
    }
}

/* builtin:fabric: ask the CS its generation, then send commands in chunks. */
static void play_builtin(struct host *h, struct unit *u)
{
    if (!h->asked_gen) {
        h->asked_gen = true;
        send(h, mmio(u, CS_MMIO_SYNC, 0, 0, 0), true);
        return;
    }
    if (!h->command_header) {
        const struct spec_element *e = spec_find_element((int)h->gen, SPEC_COMMAND,
                                                         "3DSTATE_VF_STATISTICS");
        if (!e) {
            unit_log(u, SIM_LOG_ERROR, "builtin:fabric: Gen%u has no 3DSTATE_VF_STATISTICS", h->gen);
            h->done = true;
            return;
        }
        h->command_header = e->match | 1;       /* Statistics Enable */
    }
    while (h->injected < h->messages && !h->pending) {
        uint64_t left = h->messages - h->injected;
        uint32_t n = left < BUILTIN_CHUNK ? (uint32_t)left : BUILTIN_CHUNK;
        struct msg *m = mmio(u, CS_MMIO_RING_DATA, 0, 0, 4 * n);
        struct cs_mmio *c = (struct cs_mmio *)m->payload;
        c->ring = AUB_TRACE_RING_PRB0;
        for (uint32_t i = 0; i < n; i++)
            memcpy(c->data + 4 * i, &h->command_header, 4);
        h->injected += n;
        if (!send(h, m, false))
            return;
    }
    if (h->injected == h->messages && !h->pending && !h->done) {
        h->done = true;
        send(h, mmio(u, CS_MMIO_SYNC, 0, 0, 0), true);
    }
}

static enum unit_activity host_tick(struct unit *u)
{
    struct host *h = unit_state(u);
    struct msg *reply;
    while ((reply = port_pop(h->gpu_reply))) {
        if (reply->kind == MSG_MMIO && reply->size >= sizeof(struct cs_mmio)) {
            const struct cs_mmio *c = (const struct cs_mmio *)reply->payload;
            if (c->op == CS_MMIO_SYNC_DONE) {
                h->waiting = false;
                h->gen = c->offset;
            }
        }
        msg_free(unit_sim(u), reply);
    }
    while (h->blitter_reply && (reply = port_pop(h->blitter_reply))) {
        if (reply->kind == MSG_MMIO && reply->size >= sizeof(struct cs_mmio) &&
            ((const struct cs_mmio *)reply->payload)->op == CS_MMIO_SYNC_DONE)
            h->blitter_waiting = false;
        msg_free(unit_sim(u), reply);
    }
    if (h->pending) {
        struct msg *m = h->pending;
        h->pending = NULL;
        if (!send_on(h, h->pending_port, m, h->pending_waits))
            return UNIT_IDLE;           /* woken when the channel frees */
    }
    if (h->waiting || h->blitter_waiting)
        return UNIT_IDLE;               /* woken by the reply */
    if (h->aub)
        play_aub(h, u);
    else
        play_builtin(h, u);
    return UNIT_IDLE;                   /* replies, and freed space, wake it */
}

static void host_destroy(struct unit *u)
{
    struct host *h = unit_state(u);
    if (h->pending)
        msg_free(unit_sim(u), h->pending);
    free(h->steps);
    free(h->data);
}

const struct unit_ops host_ops = {
    .kind = "host",
    .help = "The host side: plays an AUB capture (memory writes, register writes, polls, ring "
            "submissions) or builtin:fabric (3D state commands) into the command streamer.",
    .state_size = sizeof(struct host),
    .params = host_params,
    .ports = host_ports,
    .stats = host_stats,
    .realize = host_realize,
    .reset = host_reset,
    .tick = host_tick,
    .destroy = host_destroy,
};
