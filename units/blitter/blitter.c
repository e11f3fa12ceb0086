/* units/blitter/blitter.c - the 2D blitter and its command streamer; see blitter.h. */
#include "units/blitter/blitter.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/tiling.h"

/* Registers, as offsets from mmio_base (notes/aub-format.md §4.4, §5.4). */
enum {
    BLT_RING_TAIL = 0x30,
    BLT_RING_HEAD = 0x34,
    BLT_RING_START = 0x38,
    BLT_RING_CTL = 0x3C,
    BLT_SWCTRL = 0x200,         /* BCS_SWCTRL 0x22200 (public i915/Mesa definition) */
    BLT_ELSP = 0x230,           /* EXECLIST_SUBMITPORT, Gen8/Gen9 (aub-format §4.4) */
};

/* The logical ring context's register state (aub-format §4.3): at LRCA +
 * 4 KiB, RING_HEAD in dword 5, RING_TAIL in 7, RING_BUFFER_START in 9,
 * RING_BUFFER_CONTROL in 11 (SKL PRM 003 L1835-L1866). */
enum { CTX_REGISTER_STATE = 0x1000, CTX_HEAD = 5, CTX_TAIL = 7, CTX_START = 9, CTX_CTL = 11 };

/* 2D opcodes, BR00 28:22 (notes/004-000-commands.md §1.8). */
enum {
    OP_XY_SETUP_BLT = 0x01,
    OP_XY_SETUP_CLIP_BLT = 0x03,
    OP_XY_PIXEL_BLT = 0x24,
    OP_XY_SCANLINES_BLT = 0x25,
    OP_XY_FAST_COPY_BLT = 0x42,
    OP_XY_COLOR_BLT = 0x50,
    OP_XY_SRC_COPY_BLT = 0x53,
};

/* MI opcodes, 28:23 (notes/004-000-commands.md §1.1). */
enum {
    MI_NOOP = 0x00,
    MI_BATCH_BUFFER_END = 0x0A,
    MI_LOAD_REGISTER_IMM = 0x22,
    MI_BATCH_BUFFER_START = 0x31,
};

#define BLT_MAX_COMMAND_DWORDS 258u     /* 2D: DWord Length 7:0 + 2 */

struct line_access {
    uint64_t line;              /* physical address / 64 */
    uint8_t op;                 /* enum memreq_op */
};

/* A surface as a blit sees it. */
struct surface {
    uint64_t base;
    int64_t pitch;              /* bytes between rows (negative: rows go down in memory) */
    enum tiling tiling;
    uint32_t cpp;               /* bytes per pixel */
};

struct blitter {
    /* params */
    uint32_t gen, mmio_base, dwords_per_cycle, bytes_per_cycle, max_outstanding, max_reports;
    uint64_t max_commands, max_blit_pixels;

    /* ports */
    struct port *host, *host_reply, *memory, *memory_reply;

    /* machine */
    struct gpu_memory *gpu_memory;
    struct gpu_address_space gtt;

    /* registers and ring */
    uint32_t ring_tail, ring_head, ring_start, ring_ctl, swctrl;
    uint32_t elsp[4], elsp_writes;  /* the execlist port's dwords, in write order */
    bool ring_active;           /* a ring from the registers runs head -> tail */
    uint32_t *inline_ring;
    uint32_t inline_count, inline_pos;
    bool inline_active;
    bool batch_active;
    uint64_t batch_address;
    uint64_t submission_commands;
    uint32_t fetch[BLT_MAX_COMMAND_DWORDS];

    /* the setup registers (XY_SETUP_BLT, XY_SETUP_CLIP_BLT) */
    uint32_t br01, br05, br06;
    int32_t clip_x1, clip_y1, clip_x2, clip_y2;
    uint64_t setup_destination, setup_pattern;
    bool setup_tiled;

    /* timing */
    uint64_t busy_until;
    struct line_access *lines;
    uint32_t line_count, line_capacity, line_next;
    uint32_t outstanding;
    uint64_t lines_touched;     /* by the command being executed */
    uint64_t last_line[2];      /* the last line read, and written */
    bool sync_owed;

    /* stats */
    uint64_t commands, dwords, submissions, batches, register_writes, setups;
    uint64_t blits_color, blits_src_copy, blits_fast_copy, blits_pixel, blits_scanlines;
    uint64_t pixels_written, pixels_clipped, bytes_read, bytes_written;
    uint64_t memory_requests, memory_replies, busy_cycles;
    uint64_t faults, bad_pitches, bad_addresses, oversized_blits, malformed, not_modelled;
    uint64_t unknown_commands, mi_skipped, hangs, bad_messages, reports;
};

static const struct param_desc blitter_params[] = {
    PARAM_U32_FIELD("gen", struct blitter, gen, 9, 4, 9,
                    "generation of the command layouts (4, 7, 8 or 9; 8 and 9 have 48-bit "
                    "addresses in two dwords)"),
    PARAM_U32_FIELD("mmio_base", struct blitter, mmio_base, 0x22000, 0, 0x3FFFFF,
                    "the engine's register base (BCS: 0x22000, notes/aub-format.md §4.4)"),
    PARAM_U32_FIELD("dwords_per_cycle", struct blitter, dwords_per_cycle, 1, 1, 64,
                    "command parse rate (no figure in the seeds)"),
    PARAM_U32_FIELD("bytes_per_cycle", struct blitter, bytes_per_cycle, 16, 1, 4096,
                    "with \"memory\" unlinked: bytes moved per cycle (a modelling choice)"),
    PARAM_U32_FIELD("max_outstanding", struct blitter, max_outstanding, 16, 1, 1024,
                    "line requests in flight on \"memory\" (a modelling choice)"),
    PARAM_U32_FIELD("max_reports", struct blitter, max_reports, 20, 0, 1000000,
                    "bad-input reports logged (all are counted)"),
    PARAM_U64_FIELD("max_commands", struct blitter, max_commands, 1000000, 1, INT64_MAX,
                    "commands one submission may run before it is stopped as hung"),
    PARAM_U64_FIELD("max_blit_pixels", struct blitter, max_blit_pixels, 1u << 24, 1, INT64_MAX,
                    "larger blits are refused (counted in oversized_blits)"),
    PARAM_END
};

static const struct port_desc blitter_ports[] = {
    { .name = "host", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "register writes, inline ring dwords and syncs (struct cs_mmio)" },
    { .name = "host_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "CS_MMIO_SYNC_DONE replies" },
    { .name = "memory", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "64-byte line reads and writes to the memory model" },
    { .name = "memory_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "their replies" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct blitter, f, m, h)
static const struct stat_desc blitter_stats[] = {
    C("commands", commands, "commands", "commands parsed"),
    C("dwords", dwords, "dwords", "command dwords parsed"),
    C("submissions", submissions, "submissions", "rings started (tail writes, inline rings)"),
    C("batches", batches, "batches", "batch buffers started"),
    C("register_writes", register_writes, "writes", "register writes (host and LRI)"),
    C("setups", setups, "commands", "XY_SETUP_BLT and XY_SETUP_CLIP_BLT"),
    C("blits.color", blits_color, "blits", "XY_COLOR_BLT"),
    C("blits.src_copy", blits_src_copy, "blits", "XY_SRC_COPY_BLT"),
    C("blits.fast_copy", blits_fast_copy, "blits", "XY_FAST_COPY_BLT"),
    C("blits.pixel", blits_pixel, "blits", "XY_PIXEL_BLT"),
    C("blits.scanlines", blits_scanlines, "blits", "XY_SCANLINES_BLT"),
    C("pixels_written", pixels_written, "pixels", "destination pixels written"),
    C("pixels_clipped", pixels_clipped, "pixels", "destination pixels the clip rectangle removed"),
    C("bytes_read", bytes_read, "bytes", "source, pattern and destination bytes read"),
    C("bytes_written", bytes_written, "bytes", "destination bytes written"),
    C("memory_requests", memory_requests, "lines", "line requests sent on \"memory\""),
    C("memory_replies", memory_replies, "lines", "their replies"),
    C("busy_cycles", busy_cycles, "cycles", "cycles spent on commands"),
    C("faults", faults, "blits", "blits stopped at memory that does not translate"),
    C("bad_pitches", bad_pitches, "blits", "blits refused for their pitch"),
    C("bad_addresses", bad_addresses, "blits", "tiled blits refused for a base not 4 KiB aligned"),
    C("oversized_blits", oversized_blits, "blits", "blits of more than max_blit_pixels refused"),
    C("malformed", malformed, "commands", "commands shorter than their layout (skipped)"),
    C("not_modelled", not_modelled, "commands", "2D commands recognised but not modelled"),
    C("unknown_commands", unknown_commands, "commands", "dwords no command matches (skipped)"),
    C("mi_skipped", mi_skipped, "commands", "MI commands skipped by their length"),
    C("hangs", hangs, "events", "rings stopped (fetch faults, runaway submissions)"),
    C("bad_messages", bad_messages, "messages", "malformed or unexpected messages, dropped"),
    STAT_END
};
#undef C

static void report(struct blitter *s, struct unit *u, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(struct blitter *s, struct unit *u, const char *fmt, ...)
{
    if (s->reports++ >= s->max_reports)
        return;
    char text[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_WARNING, "%s", text);
}

/* ---- memory timing: the lines a command touched --------------------------------------- */

static void note_line(struct blitter *s, uint64_t virtual_address, uint32_t bytes, uint8_t op)
{
    uint64_t physical;
    for (uint64_t a = virtual_address & ~63ull; a < virtual_address + bytes; a += 64) {
        if (gpu_address_space_translate(&s->gtt, a, &physical) != 0)
            continue;
        uint64_t line = physical / MEMREQ_LINE_BYTES;
        if (line == s->last_line[op == MEMREQ_WRITE])
            continue;       /* the engine combines consecutive reads (writes) of a line */
        s->last_line[op == MEMREQ_WRITE] = line;
        s->lines_touched++;
        if (!s->memory)
            continue;       /* timing from the count alone: keep no list */
        if (s->line_count == s->line_capacity) {
            s->line_capacity = s->line_capacity ? s->line_capacity * 2 : 256;
            s->lines = gt_xrealloc(s->lines, s->line_capacity * sizeof *s->lines);
        }
        s->lines[s->line_count++] = (struct line_access){ line, op };
    }
}

static bool read_pixel(struct blitter *s, uint64_t address, uint32_t cpp, uint32_t *value)
{
    *value = 0;
    if (gpu_address_space_read(&s->gtt, address, value, cpp, NULL) != 0)
        return false;
    s->bytes_read += cpp;
    note_line(s, address, cpp, MEMREQ_READ);
    return true;
}

static bool write_pixel(struct blitter *s, uint64_t address, uint32_t cpp, uint32_t value)
{
    if (gpu_address_space_write(&s->gtt, address, &value, cpp, NULL) != 0)
        return false;
    s->bytes_written += cpp;
    s->pixels_written++;
    note_line(s, address, cpp, MEMREQ_WRITE);
    return true;
}

/* ---- pixel arithmetic ------------------------------------------------------------------ */

/* The ternary raster operation: bit (P<<2 | S<<1 | D) of rop, bit by bit. */
static uint32_t rop3(uint8_t rop, uint32_t p, uint32_t src, uint32_t d)
{
    uint32_t out = 0;
    for (unsigned i = 0; i < 8; i++)
        if (rop >> i & 1)
            out |= (i & 4 ? p : ~p) & (i & 2 ? src : ~src) & (i & 1 ? d : ~d);
    return out;
}

static bool rop_uses_destination(uint8_t rop) { return ((rop >> 1 ^ rop) & 0x55) != 0; }
static bool rop_uses_source(uint8_t rop) { return ((rop >> 2 ^ rop) & 0x33) != 0; }

/* BR13/BR01 25:24: 8, 16 (565), 16 (1555), 32 bits. */
static uint32_t depth_cpp(uint32_t br13) { static const uint32_t c[4] = { 1, 2, 2, 4 }; return c[br13 >> 24 & 3]; }

/* The bytes of a pixel BR00 21:20 lets the blit write (32 bpp only). */
static uint32_t byte_mask(uint32_t br00, uint32_t cpp)
{
    if (cpp != 4)
        return cpp == 1 ? 0xFFu : 0xFFFFu;
    return (br00 & (1u << 20) ? 0x00FFFFFFu : 0) | (br00 & (1u << 21) ? 0xFF000000u : 0);
}

static uint32_t cpp_mask(uint32_t cpp) { return cpp >= 4 ? 0xFFFFFFFFu : (1u << (8 * cpp)) - 1u; }

/* ---- surfaces --------------------------------------------------------------------------- */

static int32_t s16(uint32_t v) { return (int32_t)(int16_t)(v & 0xFFFF); }

/* Decodes a pitch field for a surface; false (counted) when it is bad. */
static bool make_surface(struct blitter *s, struct unit *u, struct surface *out, uint64_t base,
                         uint32_t pitch_field, bool tiled, bool tile_y, uint32_t cpp,
                         bool negative_allowed, const char *what)
{
    int32_t pitch = s16(pitch_field);
    out->base = base;
    out->cpp = cpp;
    if (!tiled) {
        out->tiling = TILING_LINEAR;
        out->pitch = pitch;
        if (pitch == 0 || (pitch < 0 && !negative_allowed)) {
            s->bad_pitches++;
            report(s, u, "%s: linear pitch %d refused", what, pitch);
            return false;
        }
        return true;
    }
    out->tiling = tile_y && s->gen >= 6 ? TILING_Y : TILING_X;
    out->pitch = (int64_t)pitch * 4;    /* dwords when tiled */
    uint32_t tile_width = out->tiling == TILING_Y ? 128 : 512;
    if (pitch <= 0 || out->pitch % tile_width) {
        s->bad_pitches++;
        report(s, u, "%s: tiled pitch %d dwords is not a whole number of %u-byte tiles", what,
               pitch, tile_width);
        return false;
    }
    if (base & 0xFFF) {
        s->bad_addresses++;
        report(s, u, "%s: tiled base 0x%" PRIx64 " is not 4 KiB aligned", what, base);
        return false;
    }
    return true;
}

/* The GPU address of pixel (x, y); false when it lies before the surface. */
static bool pixel_address(const struct surface *f, int64_t x, int64_t y, uint64_t *address)
{
    if (f->tiling == TILING_LINEAR) {
        int64_t offset = y * f->pitch + x * (int64_t)f->cpp;
        if (offset < 0 && (uint64_t)-offset > f->base)
            return false;
        *address = f->base + (uint64_t)offset;
        return true;
    }
    if (x < 0 || y < 0)
        return false;
    uint64_t offset;
    if (!tiling_offset(f->tiling, f->cpp, (uint32_t)f->pitch, (uint64_t)x * f->cpp, (uint64_t)y,
                       &offset))
        return false;
    *address = f->base + offset;
    return true;
}

/* ---- blits ------------------------------------------------------------------------------- */

struct rect {
    int32_t x1, y1, x2, y2;
};

/* Clips r to the setup's clip rectangle when enabled; counts what it removes. */
static void clip(struct blitter *s, struct rect *r, bool enabled)
{
    if (r->x2 <= r->x1 || r->y2 <= r->y1) {
        r->x2 = r->x1;
        return;
    }
    if (!enabled)
        return;
    uint64_t before = (uint64_t)(r->x2 - r->x1) * (uint64_t)(r->y2 - r->y1);
    struct rect c = *r;
    if (c.x1 < s->clip_x1) c.x1 = s->clip_x1;
    if (c.y1 < s->clip_y1) c.y1 = s->clip_y1;
    if (c.x2 > s->clip_x2) c.x2 = s->clip_x2;
    if (c.y2 > s->clip_y2) c.y2 = s->clip_y2;
    uint64_t after = c.x2 > c.x1 && c.y2 > c.y1
                   ? (uint64_t)(c.x2 - c.x1) * (uint64_t)(c.y2 - c.y1) : 0;
    if (!after)
        c.x2 = c.x1 = r->x1, c.y2 = c.y1 = r->y1;
    s->pixels_clipped += before - after;
    *r = c;
}

static bool size_ok(struct blitter *s, struct unit *u, const struct rect *r, const char *what)
{
    uint64_t n = r->x2 > r->x1 && r->y2 > r->y1
               ? (uint64_t)(r->x2 - r->x1) * (uint64_t)(r->y2 - r->y1) : 0;
    if (n > s->max_blit_pixels) {
        s->oversized_blits++;
        report(s, u, "%s of %" PRIu64 " pixels refused (max_blit_pixels %" PRIu64 ")", what, n,
               s->max_blit_pixels);
        return false;
    }
    return true;
}

static void fault(struct blitter *s, struct unit *u, const char *what, int64_t x, int64_t y)
{
    s->faults++;
    report(s, u, "%s: pixel (%" PRId64 ", %" PRId64 ") is outside mapped memory: blit stopped",
           what, x, y);
}

/* Writes pattern/source through the ROP to every pixel of r on dst. source
 * (may be NULL) holds the source pixels of r row by row; pattern_at gives the
 * pattern pixel (NULL: the solid colour `solid`). */
struct fill {
    uint8_t rop;
    uint32_t write_mask;
    uint32_t solid;
    const uint32_t *source;
    const uint32_t *pattern8x8;     /* 64 pixels, or NULL */
    uint32_t seed_x, seed_y;
};

static void fill_rect(struct blitter *s, struct unit *u, const struct surface *dst,
                      const struct rect *r, const struct fill *f, const char *what)
{
    uint32_t mask = cpp_mask(dst->cpp);
    bool need_d = rop_uses_destination(f->rop) || (f->write_mask & mask) != mask;
    uint64_t i = 0;
    for (int64_t y = r->y1; y < r->y2; y++)
        for (int64_t x = r->x1; x < r->x2; x++, i++) {
            uint64_t address;
            uint32_t d = 0;
            if (!pixel_address(dst, x, y, &address) ||
                (need_d && !read_pixel(s, address, dst->cpp, &d))) {
                fault(s, u, what, x, y);
                return;
            }
            uint32_t p = f->pattern8x8
                       ? f->pattern8x8[((uint64_t)(y + f->seed_y) & 7) * 8 +
                                       ((uint64_t)(x + f->seed_x) & 7)]
                       : f->solid;
            uint32_t src = f->source ? f->source[i] : 0;
            uint32_t v = rop3(f->rop, p, src, d) & mask;
            v = (v & f->write_mask) | (d & ~f->write_mask);
            if (!write_pixel(s, address, dst->cpp, v & mask)) {
                fault(s, u, what, x, y);
                return;
            }
        }
}

/* Reads the source rectangle of w x h pixels at (sx, sy); NULL after a fault. */
static uint32_t *read_rect(struct blitter *s, struct unit *u, const struct surface *src,
                           int64_t sx, int64_t sy, int32_t w, int32_t h, const char *what)
{
    uint32_t *out = gt_xcalloc((size_t)w * (size_t)h + 1, sizeof *out);
    uint64_t i = 0;
    for (int64_t y = sy; y < sy + h; y++)
        for (int64_t x = sx; x < sx + w; x++, i++) {
            uint64_t address;
            if (!pixel_address(src, x, y, &address) || !read_pixel(s, address, src->cpp, &out[i])) {
                fault(s, u, what, x, y);
                free(out);
                return NULL;
            }
        }
    return out;
}

/* An address of `words` dwords at dw (Gen8+: low and high 15:0; before: one dword). */
static uint64_t address_at(const struct blitter *s, const uint32_t *dw)
{
    return s->gen >= 8 ? (uint64_t)dw[0] | (uint64_t)(dw[1] & 0xFFFF) << 32 : dw[0];
}

static uint32_t address_dwords(const struct blitter *s) { return s->gen >= 8 ? 2 : 1; }

static void xy_color_blt(struct blitter *s, struct unit *u, const uint32_t *dw)
{
    /* 004 L25574-25637: BR13, BR22, BR23, destination, BR16 colour */
    uint32_t br13 = dw[1], cpp = depth_cpp(br13);
    struct rect r = { s16(dw[2]), s16(dw[2] >> 16), s16(dw[3]), s16(dw[3] >> 16) };
    struct surface dst;
    s->blits_color++;
    if (!make_surface(s, u, &dst, address_at(s, dw + 4), br13, dw[0] >> 11 & 1,
                      s->swctrl >> 1 & 1, cpp, true, "XY_COLOR_BLT"))
        return;
    clip(s, &r, br13 >> 30 & 1);
    if (!size_ok(s, u, &r, "XY_COLOR_BLT"))
        return;
    struct fill f = { .rop = (uint8_t)(br13 >> 16), .write_mask = byte_mask(dw[0], cpp),
                      .solid = dw[4 + address_dwords(s)] };
    fill_rect(s, u, &dst, &r, &f, "XY_COLOR_BLT");
}

static void xy_src_copy_blt(struct blitter *s, struct unit *u, const uint32_t *dw)
{
    /* 004 L26981-27067: BR13, BR22, BR23, BR09 destination, BR26 source x/y,
     * BR11 source pitch, BR12 source */
    uint32_t br13 = dw[1], cpp = depth_cpp(br13), a = address_dwords(s);
    struct rect r = { s16(dw[2]), s16(dw[2] >> 16), s16(dw[3]), s16(dw[3] >> 16) };
    const uint32_t *after_dst = dw + 4 + a;
    int32_t sx = s16(after_dst[0]), sy = s16(after_dst[0] >> 16);
    struct surface dst, src;
    s->blits_src_copy++;
    if (!make_surface(s, u, &dst, address_at(s, dw + 4), br13, dw[0] >> 11 & 1,
                      s->swctrl >> 1 & 1, cpp, true, "XY_SRC_COPY_BLT destination") ||
        !make_surface(s, u, &src, address_at(s, after_dst + 2), after_dst[1], dw[0] >> 15 & 1,
                      s->swctrl & 1, cpp, true, "XY_SRC_COPY_BLT source"))
        return;
    struct rect c = r;
    clip(s, &c, br13 >> 30 & 1);
    if (c.x2 <= c.x1 || !size_ok(s, u, &c, "XY_SRC_COPY_BLT"))
        return;
    uint8_t rop = (uint8_t)(br13 >> 16);
    uint32_t *source = NULL;
    if (rop_uses_source(rop)) {
        source = read_rect(s, u, &src, (int64_t)sx + (c.x1 - r.x1), (int64_t)sy + (c.y1 - r.y1),
                           c.x2 - c.x1, c.y2 - c.y1, "XY_SRC_COPY_BLT source");
        if (!source)
            return;
    }
    struct fill f = { .rop = rop, .write_mask = byte_mask(dw[0], cpp), .source = source };
    fill_rect(s, u, &dst, &c, &f, "XY_SRC_COPY_BLT");
    free(source);
}

static void xy_fast_copy_blt(struct blitter *s, struct unit *u, const uint32_t *dw)
{
    /* DW0 21:20 source tiling, 14:13 destination tiling (0 linear, 1 X, 2 Y
     * or Yf, 3 Ys); DW1 31/30 source/destination Yf, 26:24 colour depth (0 8,
     * 1 16, 3 32, 4 64, 5 128 bits), 15:0 destination pitch; DW2/3 destination
     * rectangle; DW4-5 destination; DW6 source x/y; DW7 source pitch; DW8-9
     * source (public i915/IGT definitions). */
    static const uint32_t cpps[8] = { 1, 2, 0, 4, 8, 16, 0, 0 };
    uint32_t cpp = cpps[dw[1] >> 24 & 7];
    uint32_t src_tiling = dw[0] >> 20 & 3, dst_tiling = dw[0] >> 13 & 3;
    s->blits_fast_copy++;
    if (!cpp || cpp > 4 || src_tiling == 3 || dst_tiling == 3 ||
        (src_tiling == 2 && dw[1] >> 31) || (dst_tiling == 2 && dw[1] >> 30 & 1)) {
        s->not_modelled++;
        report(s, u, "XY_FAST_COPY_BLT with 0x%08x 0x%08x: Yf/Ys tiling or %u-byte pixels "
               "not modelled", dw[0], dw[1], cpp);
        return;
    }
    struct rect r = { s16(dw[2]), s16(dw[2] >> 16), s16(dw[3]), s16(dw[3] >> 16) };
    struct surface dst, src;
    if (!make_surface(s, u, &dst, address_at(s, dw + 4), dw[1], dst_tiling != 0, dst_tiling == 2,
                      cpp, true, "XY_FAST_COPY_BLT destination") ||
        !make_surface(s, u, &src, address_at(s, dw + 8), dw[7], src_tiling != 0, src_tiling == 2,
                      cpp, true, "XY_FAST_COPY_BLT source"))
        return;
    clip(s, &r, false);
    if (r.x2 <= r.x1 || !size_ok(s, u, &r, "XY_FAST_COPY_BLT"))
        return;
    uint32_t *source = read_rect(s, u, &src, s16(dw[6]), s16(dw[6] >> 16), r.x2 - r.x1,
                                 r.y2 - r.y1, "XY_FAST_COPY_BLT source");
    if (!source)
        return;
    struct fill f = { .rop = 0xCC, .write_mask = 0xFFFFFFFFu, .source = source };
    fill_rect(s, u, &dst, &r, &f, "XY_FAST_COPY_BLT");
    free(source);
}

static void xy_setup_blt(struct blitter *s, const uint32_t *dw)
{
    /* 004 L26807-26879: BR01, BR24, BR25, BR09, BR05, BR06, BR07 */
    uint32_t a = address_dwords(s);
    s->setups++;
    s->br01 = dw[1];
    s->clip_x1 = s16(dw[2]);
    s->clip_y1 = s16(dw[2] >> 16);
    s->clip_x2 = s16(dw[3]);
    s->clip_y2 = s16(dw[3] >> 16);
    s->setup_destination = address_at(s, dw + 4);
    s->br05 = dw[4 + a];
    s->br06 = dw[5 + a];
    s->setup_pattern = address_at(s, dw + 6 + a);
    s->setup_tiled = dw[0] >> 11 & 1;
}

static void xy_setup_clip_blt(struct blitter *s, const uint32_t *dw)
{
    s->setups++;                /* 004 L26880-26908: BR24, BR25 */
    s->clip_x1 = s16(dw[1]);
    s->clip_y1 = s16(dw[1] >> 16);
    s->clip_x2 = s16(dw[2]);
    s->clip_y2 = s16(dw[2] >> 16);
}

static void xy_pixel_or_scanlines(struct blitter *s, struct unit *u, const uint32_t *dw,
                                  bool scanlines)
{
    const char *what = scanlines ? "XY_SCANLINES_BLT" : "XY_PIXEL_BLT";
    uint32_t cpp = depth_cpp(s->br01);
    struct rect r = { s16(dw[1]), s16(dw[1] >> 16), s16(dw[1]) + 1, s16(dw[1] >> 16) + 1 };
    if (scanlines) {
        s->blits_scanlines++;
        r.x2 = s16(dw[2]);
        r.y2 = s16(dw[2] >> 16);
    } else {
        s->blits_pixel++;
    }
    struct surface dst;
    /* "Negative Pitch Not allowed for Pixel nor Text" (004 L26755, L26863) */
    if (!make_surface(s, u, &dst, s->setup_destination, s->br01, s->setup_tiled || (dw[0] >> 11 & 1),
                      s->swctrl >> 1 & 1, cpp, false, what))
        return;
    clip(s, &r, s->br01 >> 30 & 1);
    if (!size_ok(s, u, &r, what))
        return;
    struct fill f = { .rop = (uint8_t)(s->br01 >> 16), .write_mask = byte_mask(dw[0], cpp),
                      .solid = s->br06 };
    uint32_t pattern[64];
    if (scanlines) {
        /* the setup's 8x8 colour pattern, linear, at BR07 (004 L26778-26806, L26870) */
        struct surface p = { .base = s->setup_pattern, .pitch = 8 * cpp,
                             .tiling = TILING_LINEAR, .cpp = cpp };
        for (int i = 0; i < 64; i++) {
            uint64_t address;
            if (!pixel_address(&p, i % 8, i / 8, &address) ||
                !read_pixel(s, address, cpp, &pattern[i])) {
                fault(s, u, "XY_SCANLINES_BLT pattern", i % 8, i / 8);
                return;
            }
        }
        f.pattern8x8 = pattern;
        f.seed_x = dw[0] >> 12 & 7;
        f.seed_y = dw[0] >> 8 & 7;
    }
    fill_rect(s, u, &dst, &r, &f, what);
}

/* ---- the command streamer ------------------------------------------------------------------ */

static void stop_ring(struct blitter *s)
{
    s->ring_active = false;
    s->inline_active = false;
    s->batch_active = false;
    free(s->inline_ring);
    s->inline_ring = NULL;
    s->inline_count = s->inline_pos = 0;
}

/* Stops the ring as hung (counted, reported). */
#define HANG(s, u, ...)              \
    do {                             \
        (s)->hangs++;                \
        report((s), (u), __VA_ARGS__); \
        stop_ring(s);                \
    } while (0)

static uint32_t ring_bytes(const struct blitter *s)
{
    return ((s->ring_ctl >> 12 & 0x1FF) + 1) * 4096u;     /* RING_CTL 20:12 pages - 1 */
}

/* Fetches n dwords of the next command without consuming them; false on a fault. */
static bool fetch(struct blitter *s, uint32_t n, uint64_t *address)
{
    if (s->batch_active) {
        *address = s->batch_address;
        return gpu_address_space_read(&s->gtt, s->batch_address, s->fetch, 4ull * n, NULL) == 0;
    }
    if (s->inline_active) {
        *address = 4ull * s->inline_pos;
        if (s->inline_pos + n > s->inline_count)
            return false;
        memcpy(s->fetch, s->inline_ring + s->inline_pos, 4ull * n);
        return true;
    }
    uint32_t size = ring_bytes(s);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = s->ring_start + (s->ring_head + 4ull * i) % size;
        if (i == 0)
            *address = at;
        if (gpu_address_space_read(&s->gtt, at, &s->fetch[i], 4, NULL) != 0)
            return false;
    }
    return true;
}

static void advance(struct blitter *s, uint32_t n)
{
    if (s->batch_active)
        s->batch_address += 4ull * n;
    else if (s->inline_active)
        s->inline_pos += n;
    else
        s->ring_head = (uint32_t)((s->ring_head + 4ull * n) % ring_bytes(s));
}

static bool ring_has_work(const struct blitter *s)
{
    if (s->batch_active)
        return true;
    if (s->inline_active)
        return s->inline_pos < s->inline_count;
    return s->ring_active && (s->ring_head & ~3u) != (s->ring_tail & ~3u);
}

/* Execlist submission (Gen8/Gen9; aub-format §4.4-§4.6): the fourth ELSP
 * write submits; element 0's descriptor is writes 3 (high) and 4 (low), its
 * bits 31:12 the LRCA and bit 0 valid. The ring registers come from the
 * context image at LRCA + 4 KiB through the GGTT, and the ring runs from
 * head to tail as one submission. Element 1 (writes 1 and 2) is not
 * modelled (Mesa submits one context). */
static void execlist_submit(struct blitter *s, struct unit *u)
{
    uint32_t low = s->elsp[3];
    if (!(low & 1)) {
        s->bad_messages++;
        report(s, u, "ELSP submission of an invalid descriptor 0x%08x%08x: ignored", s->elsp[2],
               low);
        return;
    }
    uint64_t state = (uint64_t)(low & 0xFFFFF000u) + CTX_REGISTER_STATE;
    uint32_t ctx[CTX_CTL + 1];
    if (gpu_address_space_read(&s->gtt, state, ctx, sizeof ctx, NULL) != 0) {
        HANG(s, u, "ELSP: the context image at 0x%" PRIx64 " does not translate: not run", state);
        return;
    }
    s->ring_head = ctx[CTX_HEAD] & 0x1FFFFC;
    s->ring_tail = ctx[CTX_TAIL] & 0x1FFFF8;
    s->ring_start = ctx[CTX_START] & 0xFFFFF000u;
    s->ring_ctl = ctx[CTX_CTL];
    s->ring_active = (s->ring_ctl & 1) != 0;
    s->submission_commands = 0;
    s->submissions++;
}

static void register_write(struct blitter *s, struct unit *u, uint32_t offset, uint32_t value)
{
    s->register_writes++;
    if (offset < s->mmio_base || offset - s->mmio_base >= 0x1000)
        return;             /* not the blitter's register */
    switch (offset - s->mmio_base) {
    case BLT_RING_TAIL:
        s->ring_tail = value & 0x1FFFF8;
        if (s->ring_ctl & 1 && !s->inline_active) {
            s->ring_active = true;
            s->submission_commands = 0;
            s->submissions++;
        }
        break;
    case BLT_RING_HEAD:
        s->ring_head = value & 0x1FFFFC;
        break;
    case BLT_RING_START:
        s->ring_start = value & 0xFFFFF000u;
        break;
    case BLT_RING_CTL:
        s->ring_ctl = value;
        if (!(value & 1))
            s->ring_active = false;
        break;
    case BLT_ELSP:
        if (s->gen < 8) {
            (void)u;
            break;          /* Gen7 and before have no execlists */
        }
        s->elsp[s->elsp_writes++] = value;
        if (s->elsp_writes == 4) {
            s->elsp_writes = 0;
            execlist_submit(s, u);
        }
        break;
    case BLT_SWCTRL:        /* masked: bits 31:16 enable the writes of 15:0 */
        s->swctrl = (s->swctrl & ~(value >> 16)) | (value & value >> 16 & 0xFFFF);
        break;
    default:
        (void)u;
        break;
    }
}

/* Executes a 2D command of n dwords in s->fetch. */
static void execute_2d(struct blitter *s, struct unit *u, uint32_t n, uint64_t address)
{
    const uint32_t *dw = s->fetch;
    uint32_t op = dw[0] >> 22 & 0x7F, a = address_dwords(s), need;
    switch (op) {
    case OP_XY_SETUP_BLT: need = 6 + 2 * a; break;
    case OP_XY_SETUP_CLIP_BLT: need = 3; break;
    case OP_XY_PIXEL_BLT: need = 2; break;
    case OP_XY_SCANLINES_BLT: need = 3; break;
    case OP_XY_COLOR_BLT: need = 5 + a; break;
    case OP_XY_SRC_COPY_BLT: need = 6 + 2 * a; break;
    case OP_XY_FAST_COPY_BLT: need = s->gen >= 9 ? 10 : 0; break;
    default: need = 0; break;
    }
    if (!need) {
        s->not_modelled++;
        report(s, u, "2D command 0x%08x (opcode 0x%02x) at 0x%" PRIx64 " not modelled: skipped",
               dw[0], op, address);
        return;
    }
    if (n < need) {
        s->malformed++;
        report(s, u, "2D command 0x%08x at 0x%" PRIx64 " has %u dwords; its layout needs %u: "
               "skipped", dw[0], address, n, need);
        return;
    }
    switch (op) {
    case OP_XY_SETUP_BLT: xy_setup_blt(s, dw); break;
    case OP_XY_SETUP_CLIP_BLT: xy_setup_clip_blt(s, dw); break;
    case OP_XY_PIXEL_BLT: xy_pixel_or_scanlines(s, u, dw, false); break;
    case OP_XY_SCANLINES_BLT: xy_pixel_or_scanlines(s, u, dw, true); break;
    case OP_XY_COLOR_BLT: xy_color_blt(s, u, dw); break;
    case OP_XY_SRC_COPY_BLT: xy_src_copy_blt(s, u, dw); break;
    case OP_XY_FAST_COPY_BLT: xy_fast_copy_blt(s, u, dw); break;
    default: break;
    }
}

static void execute_mi(struct blitter *s, struct unit *u, uint32_t n)
{
    const uint32_t *dw = s->fetch;
    switch (dw[0] >> 23 & 0x3F) {
    case MI_NOOP:
        break;
    case MI_BATCH_BUFFER_END:
        if (s->batch_active)
            s->batch_active = false;
        else
            stop_ring(s);       /* the end of an inline ring's work */
        break;
    case MI_BATCH_BUFFER_START:
        /* Gen8+: DW1-2 address 47:2; before: DW1 31:2 (004 L19372-19588) */
        if (n < (s->gen >= 8 ? 3u : 2u)) {
            s->malformed++;
            break;
        }
        s->batch_address = s->gen >= 8 ? ((uint64_t)dw[1] | (uint64_t)(dw[2] & 0xFFFF) << 32) & ~3ull
                                       : dw[1] & ~3u;
        s->batch_active = true;
        s->batches++;
        break;
    case MI_LOAD_REGISTER_IMM:     /* offset, value pairs (004 L20506-20522) */
        for (uint32_t i = 1; i + 1 < n; i += 2)
            register_write(s, u, dw[i] & 0x7FFFFC, dw[i + 1]);
        break;
    default:
        s->mi_skipped++;
        break;
    }
}

/* The length of the command in s->fetch[0]; 0 when it does not decode. */
static uint32_t command_length(const struct blitter *s)
{
    uint32_t h = s->fetch[0];
    switch (h >> 29) {
    case 0: {
        const struct spec_element *e = spec_find_command((int)s->gen, &h, 1);
        if (e)
            return spec_command_length(e, &h);
        return (h >> 23 & 0x3F) < 0x10 ? 1 : (h & 0x3F) + 2;
    }
    case 2:
    case 3:
        return (h & 0xFF) + 2;  /* 2D and GFXPIPE: DWord Length 7:0, bias 2 */
    default:
        return 0;
    }
}

/* Parses and executes one command; false when there is nothing to do now. */
static bool step(struct blitter *s, struct unit *u)
{
    if (!ring_has_work(s)) {
        if (s->inline_active)
            stop_ring(s);
        s->ring_active = false;
        return false;
    }
    uint64_t address;
    if (++s->submission_commands > s->max_commands) {
        HANG(s, u, "more than max_commands commands in one submission (0x%" PRIx64 "): stopped",
             s->submission_commands);
        return false;
    }
    if (!fetch(s, 1, &address)) {
        HANG(s, u, "command fetch at 0x%" PRIx64 " faulted: ring stopped", address);
        return false;
    }
    uint32_t n = command_length(s);
    if (n == 0 || n > BLT_MAX_COMMAND_DWORDS) {
        s->unknown_commands++;
        HANG(s, u, "a dword at 0x%" PRIx64 " is no command and its length does not decode: "
             "ring stopped", address);
        return false;
    }
    if (!fetch(s, n, &address)) {
        HANG(s, u, "a command at 0x%" PRIx64 " runs past mapped memory: ring stopped", address);
        return false;
    }
    advance(s, n);
    s->commands++;
    s->dwords += n;
    s->line_count = s->line_next = 0;
    s->lines_touched = 0;
    s->last_line[0] = s->last_line[1] = UINT64_MAX;
    switch (s->fetch[0] >> 29) {
    case 0:
        execute_mi(s, u, n);
        break;
    case 2:
        execute_2d(s, u, n, address);
        break;
    default:
        s->unknown_commands++;
        report(s, u, "command 0x%08x at 0x%" PRIx64 " is not the blitter's: skipped %u dwords",
               s->fetch[0], address, n);
        break;
    }
    uint64_t cost = (n + s->dwords_per_cycle - 1) / s->dwords_per_cycle;
    if (!s->memory)
        cost += (s->lines_touched * MEMREQ_LINE_BYTES + s->bytes_per_cycle - 1) /
                s->bytes_per_cycle;
    s->busy_until = unit_cycle(u) + cost;
    s->busy_cycles += cost;
    return true;
}

/* ---- the unit ---------------------------------------------------------------------------------- */

static bool waiting(const struct blitter *s, uint64_t now)
{
    return now < s->busy_until || s->line_next < s->line_count || s->outstanding;
}

static void take_memory_replies(struct blitter *s, struct unit *u)
{
    struct msg *m;
    while (s->memory_reply && (m = port_pop(s->memory_reply)) != NULL) {
        if (m->kind != MSG_MEMORY_RESPONSE || !s->outstanding) {
            s->bad_messages++;
            report(s, u, "unexpected %s message on memory_reply dropped", msg_kind_name(m->kind));
        } else {
            s->outstanding--;
            s->memory_replies++;
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

static void send_lines(struct blitter *s, struct unit *u)
{
    while (s->line_next < s->line_count && s->outstanding < s->max_outstanding &&
           port_can_send(s->memory)) {
        const struct line_access *l = &s->lines[s->line_next];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = l->line * MEMREQ_LINE_BYTES;
        r->tag = s->line_next;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = l->op;
        r->target = MEMREQ_DATA;        /* to the memory model (LLC, DRAM), not the L3 (seed 001 L19) */
        r->client = unit_id(u);
        m->tag = s->line_next;
        port_try_send(s->memory, m);
        s->line_next++;
        s->outstanding++;
        s->memory_requests++;
    }
}

/* Answers the host's sync; false while the reply channel is full. */
static bool reply_sync(struct blitter *s, struct unit *u)
{
    if (s->host_reply && !port_can_send(s->host_reply))
        return false;
    s->sync_owed = false;
    if (!s->host_reply)
        return true;
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_SYNC_DONE;
    c->offset = s->gen;
    c->value = (uint32_t)s->hangs;
    port_try_send(s->host_reply, m);
    return true;
}

/* Takes one host message when the engine may; false when none was taken. */
static bool take_host_message(struct blitter *s, struct unit *u)
{
    struct msg *m = s->host ? port_peek(s->host) : NULL;
    if (!m)
        return false;
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (m->kind != MSG_MMIO || m->size < sizeof *c ||
        (c->op == CS_MMIO_RING_DATA && c->size > m->size - sizeof *c) ||
        (c->op != CS_MMIO_WRITE && c->op != CS_MMIO_RING_DATA && c->op != CS_MMIO_SYNC &&
         c->op != CS_MMIO_DEVICE)) {
        port_pop(s->host);
        s->bad_messages++;
        report(s, u, "malformed host message of kind %s dropped", msg_kind_name(m->kind));
        msg_free(unit_sim(u), m);
        return true;
    }
    /* everything before a sync, a new inline ring or a ring register write is done first */
    if (ring_has_work(s) || s->sync_owed)
        return false;
    port_pop(s->host);
    switch (c->op) {
    case CS_MMIO_WRITE:
        register_write(s, u, c->offset, c->value);
        break;
    case CS_MMIO_RING_DATA:
        stop_ring(s);
        s->inline_count = c->size / 4;
        s->inline_ring = gt_xmalloc((s->inline_count ? s->inline_count : 1) * 4ull);
        memcpy(s->inline_ring, c->data, 4ull * s->inline_count);
        s->inline_active = true;
        s->submission_commands = 0;
        s->submissions++;
        break;
    case CS_MMIO_SYNC:
        s->sync_owed = true;
        break;
    default:
        break;              /* CS_MMIO_DEVICE: the capture's device, nothing to do */
    }
    msg_free(unit_sim(u), m);
    unit_progress(u);
    return true;
}

static enum unit_activity blitter_tick(struct unit *u)
{
    struct blitter *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    take_memory_replies(s, u);
    if (s->memory)
        send_lines(s, u);
    for (;;) {
        if (waiting(s, now))
            break;
        if (s->sync_owed && !ring_has_work(s)) {
            if (!reply_sync(s, u))
                break;
            continue;
        }
        if (step(s, u)) {
            unit_progress(u);
            if (s->memory)
                send_lines(s, u);
            continue;
        }
        if (!take_host_message(s, u))
            break;
    }
    if (s->line_next < s->line_count || s->outstanding)
        return UNIT_BUSY;
    if (now < s->busy_until) {
        unit_wake_at(u, s->busy_until);
        return UNIT_IDLE;
    }
    return ring_has_work(s) || s->sync_owed ? UNIT_BUSY : UNIT_IDLE;
}

static int blitter_realize(struct unit *u, struct gt_error *err)
{
    struct blitter *s = unit_state(u);
    if (s->gen != 4 && s->gen != 7 && s->gen != 8 && s->gen != 9)
        return gt_error_set(err, "gen %u: the blitter models Gen4, Gen7, Gen8 and Gen9", s->gen);
    s->host = unit_port(u, "host", 0);
    s->host_reply = unit_port(u, "host_reply", 0);
    s->memory = unit_port(u, "memory", 0);
    s->memory_reply = unit_port(u, "memory_reply", 0);
    if (port_is_bound(s->memory) != port_is_bound(s->memory_reply))
        return gt_error_set(err, "link both memory and memory_reply, or neither");
    if (!port_is_bound(s->host))
        s->host = NULL;
    if (!port_is_bound(s->host_reply))
        s->host_reply = NULL;
    if (!port_is_bound(s->memory)) {
        s->memory = NULL;
        s->memory_reply = NULL;
    }
    s->gpu_memory = sim_memory(unit_sim(u));
    if (!s->gpu_memory)
        return gt_error_set(err, "the machine has no GPU memory for the blitter");
    return 0;
}

static void blitter_reset(struct unit *u)
{
    struct blitter *s = unit_state(u);
    enum gpu_address_space_format format = s->gen >= 8 ? GPU_ADDRESS_SPACE_GGTT_GEN8
                                         : s->gen >= 6 ? GPU_ADDRESS_SPACE_GTT_GEN6
                                                       : GPU_ADDRESS_SPACE_GTT_GEN4;
    gpu_address_space_init(&s->gtt, s->gpu_memory, format, 0);
    stop_ring(s);
    s->ring_tail = s->ring_head = s->ring_start = s->ring_ctl = s->swctrl = 0;
    s->elsp_writes = 0;
    s->br01 = s->br05 = s->br06 = 0;
    s->clip_x1 = s->clip_y1 = s->clip_x2 = s->clip_y2 = 0;
    s->setup_destination = s->setup_pattern = 0;
    s->setup_tiled = false;
    s->line_count = s->line_next = s->outstanding = 0;
    s->busy_until = 0;
    s->sync_owed = false;
}

static void blitter_destroy(struct unit *u)
{
    struct blitter *s = unit_state(u);
    free(s->inline_ring);
    free(s->lines);
}

const struct unit_ops blitter_ops = {
    .kind = "blitter",
    .help = "The 2D blitter with its own command streamer (the BCS ring: ring registers at "
            "mmio_base + 0x30, or inline ring dwords; batch buffers, LRI) and its own path to "
            "memory: XY_SETUP_BLT, XY_SETUP_CLIP_BLT, XY_PIXEL_BLT, XY_SCANLINES_BLT, "
            "XY_COLOR_BLT, XY_SRC_COPY_BLT (seed 004 L25574-27067) and Gen9's XY_FAST_COPY_BLT, "
            "with ROPs, 8/16/32-bit colour, linear/X/Y tiling, pitches and clipping; each line "
            "a blit touches goes to \"memory\" for timing.",
    .state_size = sizeof(struct blitter),
    .params = blitter_params,
    .ports = blitter_ports,
    .stats = blitter_stats,
    .realize = blitter_realize,
    .reset = blitter_reset,
    .tick = blitter_tick,
    .destroy = blitter_destroy,
};
