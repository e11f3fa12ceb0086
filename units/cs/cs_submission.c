/* units/cs/cs_submission.c - where commands come from: the legacy ring, the
 * inline ring of AUB captures, execlists and their context images, first-
 * and second-level batch buffers; fetching, and the parse step that hands
 * each command to cs_mi.c. See cs.h for what the CS models. */
#include "units/cs/cs_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"

/* ---- reporting ----------------------------------------------------------- */

void cs_report(struct cs *s, struct unit *u, const char *fmt, ...)
{
    if (s->max_reports == 0)
        return;
    s->max_reports--;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_WARNING, "%s%s", text, s->max_reports ? "" : " (further reports muted)");
}

/* ---- memory -------------------------------------------------------------- */

struct gpu_address_space *cs_space_for(struct cs *s, bool global)
{
    return (global || !s->ppgtt_valid) ? &s->ggtt : &s->ppgtt;
}

bool cs_mem_read(struct cs *s, struct gpu_address_space *as, uint64_t address, void *out,
                     uint64_t size)
{
    struct gt_error err;
    if (gpu_address_space_read(as, address, out, size, &err) < 0) {
        s->faults++;
        return false;
    }
    return true;
}

bool cs_mem_write(struct cs *s, struct unit *u, struct gpu_address_space *as,
                      uint64_t address, const void *data, uint64_t size)
{
    struct gt_error err;
    if (gpu_address_space_write(as, address, data, size, &err) < 0) {
        s->faults++;
        cs_report(s, u, "write of %" PRIu64 " bytes at 0x%" PRIx64 " faulted: %s", size, address,
               err.message);
        return false;
    }
    return true;
}

/* ---- submission ---------------------------------------------------------- */

bool cs_engine_busy(const struct cs *s)
{
    return s->ring != RING_NONE;
}

void cs_stop_ring(struct cs *s)
{
    s->ring = RING_NONE;
    s->batch[0].active = s->batch[1].active = false;
    free(s->inline_ring);
    s->inline_ring = NULL;
    s->inline_count = s->inline_pos = 0;
}

void cs_hang(struct cs *s, struct unit *u, uint64_t address, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    s->hangs++;
    unit_log(u, SIM_LOG_ERROR, "ring stopped (hang) at GPU address 0x%" PRIx64 ": %s", address,
             text);
    cs_stop_ring(s);
}

static void finish_submission(struct cs *s, struct unit *u)
{
    s->submissions++;
    if (s->ring == RING_MEMORY && s->context_head_slot_valid) {
        /* Save the ring head into the context image, as a switch-out does
         * (the image's RING_HEAD slot, notes/aub-format.md §4.3). */
        uint32_t head = (uint32_t)s->ring_head;
        cs_mem_write(s, u, &s->ggtt, s->context_head_slot, &head, 4);
    }
    cs_reg_set_raw(&s->regs, REG_RING_HEAD, (uint32_t)s->ring_head);
    cs_stop_ring(s);
}

/* Gen8/Gen9: the context image is a list of MI_LOAD_REGISTER_IMM ending in
 * MI_BATCH_BUFFER_END at LRCA + 4 KiB (003 L1835-1866, aub-format §4.3);
 * restoring it loads those registers, among them the ring and PDP0. */
void cs_start_execlist(struct cs *s, struct unit *u)
{
    uint64_t descriptor = ((uint64_t)s->elsp[2] << 32) | s->elsp[3];
    if (!(descriptor & 1)) {
        cs_report(s, u, "ELSP descriptor 0x%016" PRIx64 " is not valid (bit 0 clear): ignored",
               descriptor);
        return;
    }
    uint64_t lrca = descriptor & 0xFFFFF000u;
    uint64_t image = lrca + 0x1000;
    s->context_head_slot_valid = false;
    uint32_t dw[2];
    uint64_t at = image;
    for (uint32_t n = 0; n < 4096; n++) {
        if (!cs_mem_read(s, &s->ggtt, at, dw, 4)) {
            cs_hang(s, u, at, "context image at LRCA 0x%" PRIx64 " does not translate", lrca);
            return;
        }
        uint32_t header = dw[0];
        if ((header >> 23) == 0x0A)         /* MI_BATCH_BUFFER_END, by its opcode alone */
            break;
        if ((header >> 23) == 0x22) {       /* MI_LOAD_REGISTER_IMM (004 L20506-20522) */
            uint32_t length = (header & 0xFF) + 2;
            for (uint32_t i = 1; i + 1 < length; i += 2) {
                if (!cs_mem_read(s, &s->ggtt, at + 4 * i, dw, 8)) {
                    cs_hang(s, u, at, "context image truncated");
                    return;
                }
                uint32_t offset = dw[0] & 0x7FFFFC;
                if (offset == REG_RING_HEAD) {
                    s->context_head_slot = at + 4 * i + 4;
                    s->context_head_slot_valid = true;
                }
                cs_reg_set_raw(&s->regs, offset, dw[1]);
            }
            at += 4 * length;
            continue;
        }
        at += 4;                            /* MI_NOOP and padding */
    }
    /* addressing mode bits 4:3 = 3: 4-level PPGTT (aub-format §4.4) */
    uint64_t pml4 = ((uint64_t)cs_reg_get_raw(&s->regs, REG_PDP0_UDW) << 32) |
                    cs_reg_get_raw(&s->regs, REG_PDP0_LDW);
    gpu_address_space_init(&s->ppgtt, s->memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL,
                           pml4 & ~0xFFFull);
    s->ppgtt_valid = ((descriptor >> 3) & 3) != 0;
    cs_start_memory_ring(s, u);
}

/* A ring in memory (GGTT): RING_START, HEAD, TAIL, CTL (aub-format §5.4). */
void cs_start_memory_ring(struct cs *s, struct unit *u)
{
    (void)u;
    uint32_t ctl = cs_reg_get_raw(&s->regs, REG_RING_CTL);
    s->ring_start = cs_reg_get_raw(&s->regs, REG_RING_START) & 0xFFFFF000u;
    s->ring_size = (uint64_t)(((ctl >> 12) & 0x1FF) + 1) * 4096;
    s->ring_head = cs_reg_get_raw(&s->regs, REG_RING_HEAD) & 0x1FFFFC;
    s->ring_tail = cs_reg_get_raw(&s->regs, REG_RING_TAIL) & 0x1FFFF8;
    if (s->ring_head >= s->ring_size || s->ring_tail >= s->ring_size) {
        s->hangs++;
        unit_log(u, SIM_LOG_ERROR, "ring head 0x%" PRIx64 " or tail 0x%" PRIx64
                 " beyond the ring's %" PRIu64 " bytes: not started", s->ring_head,
                 s->ring_tail, s->ring_size);
        return;
    }
    s->ring = RING_MEMORY;
    s->submission_commands = 0;
    s->executed_any = true;
}

void cs_start_inline_ring(struct cs *s, const struct cs_mmio *m)
{
    cs_stop_ring(s);
    s->inline_count = m->size / 4;
    s->inline_ring = gt_xmalloc((s->inline_count ? s->inline_count : 1) * 4);
    memcpy(s->inline_ring, m->data, (size_t)s->inline_count * 4);
    s->inline_pos = 0;
    s->ring = RING_INLINE;
    s->submission_commands = 0;
    s->executed_any = true;
    s->ppgtt_valid = false;
}

/* ---- fetching ------------------------------------------------------------ */

/* Where the next command is: the deepest active level. */
struct batch_level *cs_current_batch(struct cs *s)
{
    if (s->batch[1].active)
        return &s->batch[1];
    if (s->batch[0].active)
        return &s->batch[0];
    return NULL;
}

/* Reads n dwords at the current position into s->fetch. */
static bool fetch_dwords(struct cs *s, uint32_t n, uint64_t *address, bool *ppgtt)
{
    if (n > s->fetch_capacity) {
        s->fetch_capacity = n;
        s->fetch = gt_xrealloc(s->fetch, (size_t)n * 4);
    }
    struct batch_level *b = cs_current_batch(s);
    if (b) {
        *address = b->address;
        *ppgtt = b->ppgtt;
        return cs_mem_read(s, cs_space_for(s, !b->ppgtt), b->address, s->fetch, 4ull * n);
    }
    *ppgtt = false;
    if (s->ring == RING_INLINE) {
        *address = 4ull * s->inline_pos;
        if (s->inline_pos + n > s->inline_count)
            return false;
        memcpy(s->fetch, s->inline_ring + s->inline_pos, 4ull * n);
        return true;
    }
    *address = s->ring_start + s->ring_head;
    for (uint32_t i = 0; i < n; i++) {      /* the ring wraps */
        uint64_t offset = (s->ring_head + 4ull * i) % s->ring_size;
        if (!cs_mem_read(s, &s->ggtt, s->ring_start + offset, &s->fetch[i], 4))
            return false;
    }
    return true;
}

static void advance(struct cs *s, uint32_t n)
{
    struct batch_level *b = cs_current_batch(s);
    if (b)
        b->address += 4ull * n;
    else if (s->ring == RING_INLINE)
        s->inline_pos += n;
    else
        s->ring_head = (s->ring_head + 4ull * n) % s->ring_size;
}

static bool ring_empty(const struct cs *s)
{
    if (s->batch[0].active || s->batch[1].active)
        return false;
    if (s->ring == RING_INLINE)
        return s->inline_pos >= s->inline_count;
    return s->ring_head == s->ring_tail;
}

/* The length of a command no table knows, from its header alone; 0 when it
 * does not decode (notes/004-000-commands.md §1: MI lengths in bits 5:0 for
 * opcodes >= 0x10, GFXPIPE and BLT in bits 7:0, bias 2). */
static uint32_t header_length(uint32_t dw)
{
    switch (dw >> 29) {
    case 0: return ((dw >> 23) & 0x3F) < 0x10 ? 1 : (dw & 0x3F) + 2;
    case 2:
    case 3: return (dw & 0xFF) + 2;
    default: return 0;
    }
}


bool cs_in_privileged(const struct cs *s)
{
    const struct batch_level *b = cs_current_batch((struct cs *)s);
    return b ? b->privileged : true;    /* the ring is privileged */
}

void cs_begin_batch(struct cs *s, struct unit *u, uint64_t address, bool ppgtt, bool second)
{
    struct batch_level *parent = cs_current_batch(s);
    bool parent_privileged = parent ? parent->privileged : true;
    /* "Chained or Second level batch buffer can only be in PPGTT if the parent
     * batch buffer is in PPGTT. This is enforced by Hardware." (004 notes §2.5) */
    if (parent && parent->ppgtt)
        ppgtt = true;
    if (ppgtt && !s->ppgtt_valid)
        ppgtt = false;                  /* Gen4/Gen7 captures: everything is GTT */
    bool privileged = parent_privileged && !ppgtt;
    (void)u;
    if (second) {
        s->batch[1] = (struct batch_level){ true, address, ppgtt, privileged };
        s->second_level_batches++;
    } else if (parent) {
        /* chaining replaces the head of the level it is issued from */
        *parent = (struct batch_level){ true, address, ppgtt, privileged };
        s->chained_batches++;
    } else {
        s->batch[0] = (struct batch_level){ true, address, ppgtt, privileged };
        s->batches++;
    }
}

/* Parses and executes one command; false when the engine cannot go on now. */
bool cs_step(struct cs *s, struct unit *u)
{
    uint64_t address;
    bool ppgtt;
    if (ring_empty(s)) {
        finish_submission(s, u);
        return false;
    }
    if (++s->submission_commands > s->max_commands) {
        cs_hang(s, u, 0, "more than %" PRIu64 " commands in one submission (a batch that loops?)",
             s->max_commands);
        return false;
    }
    if (!fetch_dwords(s, 1, &address, &ppgtt)) {
        cs_hang(s, u, address, "command fetch faulted");
        return false;
    }
    uint32_t header = s->fetch[0];
    const struct spec_element *e = spec_find_command((int)s->gen, s->fetch, 1);
    uint32_t n = e ? spec_command_length(e, s->fetch) : header_length(header);
    if (n == 0 || n > MAX_COMMAND_DWORDS) {
        s->unknown_commands++;
        cs_hang(s, u, address, "dword 0x%08x is no command gtsim knows and its length does not decode",
             header);
        return false;
    }
    if (!fetch_dwords(s, n, &address, &ppgtt)) {
        cs_hang(s, u, address, "%s of %u dwords runs past mapped memory", e ? e->name : "command", n);
        return false;
    }
    s->fetch_count = n;
    advance(s, n);
    s->commands++;
    s->dwords += n;
    cs_print_command(s, e, n, address, ppgtt);
    if (!e && header >> 29 == 2 && s->blt) {
        /* Gen4: 2D commands share the render ring and go to the blitter in
         * order (seed 001 L19: the blitter is outside the GPE); the blitter
         * runs each as a one-command ring */
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, (uint32_t)(sizeof(struct cs_mmio) + 4u * n));
        struct cs_mmio *c = (struct cs_mmio *)m->payload;
        c->op = CS_MMIO_RING_DATA;
        c->ring = 4;            /* AUB_TRACE_RING_PRB2, the blitter's */
        c->address = address;
        c->size = 4u * n;
        memcpy(c->data, s->fetch, 4u * n);
        cs_send(s, s->blt, m);
        s->blt_commands++;
        s->busy_until = unit_cycle(u) + (n + s->dwords_per_cycle - 1) / s->dwords_per_cycle;
        return true;
    }
    if (!e) {
        s->unknown_commands++;
        cs_report(s, u, "unknown command 0x%08x at GPU address 0x%" PRIx64 ": skipped %u dwords",
               header, address, n);
        return true;
    }
    s->command_counts[e - s->spec->commands]++;
    cs_execute(s, u, e, n, address, ppgtt);
    uint64_t cost = (n + s->dwords_per_cycle - 1) / s->dwords_per_cycle;
    s->busy_until = unit_cycle(u) + cost;
    return true;
}
