/* units/wm/wm.c - the Windower; see wm.h. */
#include "units/wm/wm.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "units/common/depth_stencil.h"
#include "units/common/ff_stage.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/pixel.h"
#include "units/common/primitive.h"
#include "units/common/stage_thread.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/thread_payload.h"
#include "units/wm/wm_line.h"
#include "units/common/urb.h"
#include "units/common/gen4_cc.h"
#include "units/wm/wm_gen4.h"

#define WM_SB_BUCKETS 4096u
#define WM_SB_NODES (STAGE_THREADS_MAX * PIXEL_MAX_SUBSPANS)
#define WM_VIEWPORTS 16u
#define WM_BARYCENTRIC_MODES 6u
#define WM_HIZ_LINES 64u             /* HiZ line requests first held for the "l3" port */

/* 3DSTATE_WM Force Thread Dispatch / Force Kill Pixel (reference genxml) */
enum { WM_FORCE_NORMAL = 0, WM_FORCE_OFF = 1, WM_FORCE_ON = 2 };
enum { WM_EDSC_NORMAL = 0, WM_EDSC_PSEXEC = 1, WM_EDSC_PREPS = 2 };
#define WM_SURFTYPE_NULL 7u

enum wm_warning {
    WARN_KERNEL = 1u << 0,
    WARN_SETUP = 1u << 1,
    WARN_DEPTH = 1u << 2,
    WARN_SAMPLES = 1u << 3,
    WARN_LATE = 1u << 4,
    WARN_GRF = 1u << 5,
    WARN_MMIO = 1u << 6,
    WARN_HZ = 1u << 7,
    WARN_LEGACY = 1u << 8,
    WARN_DISPATCH = 1u << 9,
    WARN_HIZ = 1u << 10,
    WARN_GEN4 = 1u << 11,
    WARN_MULTISAMPLE = 1u << 12,
    WARN_DISPATCH_MODE = 1u << 13,
};

/* Gen4's setup URB data read (wm_gen4.h): none pending, the read to send,
 * the reply awaited. */
enum wm_setup_phase { WM_SETUP_IDLE = 0, WM_SETUP_SEND, WM_SETUP_WAIT };

struct wm_sb_node {
    uint32_t key, count;
    int32_t next;
};

struct wm_flight {
    uint32_t count;
    uint32_t key[PIXEL_MAX_SUBSPANS];
    uint32_t draw_slot;                 /* observed[] index of the thread's draw, or ~0 */
    bool late_statistics;               /* late-tested with Statistics Enable: PS_DEPTH_COUNT */
};

/* One HiZ block of the rasterizer's block row: read once per primitive,
 * written back when the row or the primitive ends. */
enum wm_hiz_verdict {
    WM_HIZ_UNTESTED = 0,
    WM_HIZ_REJECT,                  /* every pixel fails depth: dropped whole */
    WM_HIZ_ACCEPT,                  /* every pixel passes depth: no depth reads */
    WM_HIZ_PER_PIXEL,               /* the per-pixel test decides */
};

struct wm_hiz_entry {
    bool loaded, readable;
    uint8_t verdict;                /* enum wm_hiz_verdict */
    struct hiz_block read, now;     /* as read from memory; as it is now */
    uint32_t written;               /* pixels of the block this primitive wrote depth to */
    uint32_t written_min, written_max;  /* their least and greatest value */
};

struct wm {
    struct unit *unit;
    struct ff_stage ff;
    struct stage_threads threads;
    struct stage_kernel kernel;
    struct stage_bases bases;
    struct stage_space space;
    struct stage_constants constants;
    struct port *in, *drained;
    struct port **om, **eot;
    uint32_t oms, eots;

    /* 3DSTATE_WM */
    uint32_t barycentric_modes, edsc, force_dispatch, force_kill;
    bool statistics;
    /* 3DSTATE_PS */
    uint64_t ksp[3];
    uint32_t grf_start[3];
    bool enable8, enable16, enable32, push_constants, omask_to_rt, ps_attribute_enable;
    uint32_t position_offset_select;
    /* 3DSTATE_PS_EXTRA */
    bool ps_valid, uses_source_depth, uses_source_w, kills_pixel, computes_stencil;
    bool does_not_write_rt, has_uav, attribute_enable, uses_coverage_mask, per_sample;
    uint32_t computed_depth;
    /* 3DSTATE_PS_BLEND */
    bool has_writeable_rt, alpha_test, alpha_to_coverage;
    /* 3DSTATE_MULTISAMPLE, 3DSTATE_SAMPLE_MASK */
    bool pixel_center;
    uint32_t samples, sample_mask;
    /* 3DSTATE_RASTER DX Multisample Rasterization Enable; 3DSTATE_SAMPLE_PATTERN:
     * [log2 samples][sample] = X offset << 4 | Y offset (U0.4 each) */
    bool ms_raster_enable;
    uint8_t sample_pattern[5][16];
    /* 3DSTATE_DRAWING_RECTANGLE (clipped rectangle, inclusive) */
    bool drawing_rectangle;
    int32_t draw_x_min, draw_y_min, draw_x_max, draw_y_max;
    /* depth/stencil */
    struct spec_3DSTATE_WM_DEPTH_STENCIL ds_packet;
    uint32_t depth_surface_type, depth_format, depth_min_array;
    bool depth_buffer_write, depth_buffer_stencil_write;
    struct ds_surface depth, stencil;
    bool stencil_enable;
    /* HiZ (3DSTATE_DEPTH_BUFFER Hierarchical Depth Buffer Enable, 3DSTATE_HIER_DEPTH_BUFFER;
     * the record is units/common/depth_stencil.h's) */
    bool hiz_enable;
    struct hiz_surface hiz;
    /* the HiZ blocks of the block row the rasterizer is in (the primitive's box) */
    struct wm_hiz_entry *hiz_row;
    uint32_t hiz_row_capacity, hiz_row_count, hiz_row_bx0, hiz_row_by, hiz_row_slice;
    bool hiz_row_live;
    float clear_depth;
    bool clear_valid;
    /* Gen7: 3DSTATE_CLEAR_PARAMS holds the clear value in the depth format's
     * encoding (clear_raw, used when clear_is_raw); the depth ops 3DSTATE_WM
     * requests for the draws that follow (enum wm_gen7_depth_op bits) */
    bool clear_is_raw;
    uint32_t clear_raw;
    uint8_t gen7_depth_ops;
    uint32_t cc_state_pointer;
    bool cc_viewport_valid;
    float cc_min[WM_VIEWPORTS], cc_max[WM_VIEWPORTS];

    /* polygon stipple (3DSTATE_WM, 3DSTATE_POLY_STIPPLE_OFFSET / _PATTERN) */
    bool poly_stipple;
    uint32_t stipple_x, stipple_y, stipple_rows[32];
    uint64_t pixels_stippled;

    /* line stipple (3DSTATE_WM Line Stipple Enable, 3DSTATE_LINE_STIPPLE;
     * L15532-15546): the counter s across lines, and the line being drawn's
     * lit major-axis positions (wm_line.h) */
    bool line_stipple;
    uint32_t line_stipple_pattern, line_stipple_repeat;
    uint64_t line_stipple_counter;
    bool line_stippling;                /* the primitive is stippled */
    bool line_x_major;
    int64_t line_first, line_count;
    int32_t line_step;
    uint64_t line_base;
    uint64_t pixels_line_stippled, line_stipple_bad_repeat, aa_line_pixels, aa_line_partial;
    uint64_t diamond_lines;

    /* params */
    uint32_t per_cycle, subspans_per_cycle, hiz_record_cycles;
    bool force_late_depth;          /* param: Early Depth/Stencil Control read as PSEXEC */
    /* HiZ timing: rasterizer cycles owed for record reads and writes */
    uint64_t hiz_owed, hiz_stall_cycles, hiz_record_reads;
    /* HiZ records through the L3 ("l3" / "l3_reply" linked): the line
     * requests waiting for the port (a ring), the ones sent and not yet
     * answered, the last line asked for (a record's neighbours share it) */
    struct port *l3, *l3_reply;
    struct wm_hiz_line { uint64_t line; uint32_t tag; uint8_t op; } *hiz_lines;
    uint32_t hiz_line_capacity, hiz_line_head, hiz_line_count;
    uint32_t hiz_reads_queued, hiz_reads_waiting, hiz_writes_waiting;
    /* the HiZ record cache (hiz_cache_lines lines of 64 B, fully
     * associative, LRU, write-back, write-allocate; our choice, the seed
     * gives no HiZ cache): a line being filled is `pending`; `demanded` when
     * the rasterizer (not the read-ahead) waits for it */
    struct wm_hiz_cache_line {
        uint64_t line, used;
        bool valid, dirty, pending, demanded;
        bool ahead;                     /* read ahead for a queued primitive, not used yet */
        uint64_t ahead_seq;             /* that primitive's input sequence number */
    } *hiz_cache;
    uint32_t hiz_cache_lines, hiz_read_ahead;   /* params */
    /* HiZ lookahead across primitives (param hiz_lookahead_primitives): the
     * input sequence number (ff.stats.work counts every input message taken)
     * of the next queued message to look at; the cache clock when the
     * current primitive started (lines used since are its own) */
    uint32_t hiz_lookahead_primitives;
    uint64_t hiz_ahead_next, hiz_prim_clock;
    uint64_t hiz_lookahead_prims, hiz_lookahead_lines, hiz_lookahead_used;
    uint64_t hiz_lookahead_evicted, hiz_lookahead_blocked;
    uint32_t hiz_demand_waiting;        /* demanded lines not answered yet */
    uint64_t hiz_cache_clock;
    uint64_t hiz_cache_hits, hiz_cache_misses, hiz_cache_writebacks, hiz_cache_read_ahead;
    uint64_t hiz_cache_uncached;
    uint64_t hiz_l3_reads, hiz_l3_writes, hiz_l3_replies, hiz_l3_stall_cycles;
    uint64_t hiz_l3_unmapped, bad_l3_replies, hz_op_l3_stall_cycles;
    uint64_t hiz_blocks_accepted, hiz_pixels_accepted;

    /* the primitive being rasterized */
    bool active, raster_done, dispatch_on, early, hiz_active;
    struct setup_primitive prim;
    int32_t sx, sy;
    struct ds_state ds;
    struct gpu_address_space as;
    struct subspan pending[PIXEL_MAX_SUBSPANS];
    uint32_t pending_count;
    /* per-sample dispatch (PS_EXTRA Pixel Shader Is Per Sample): pending[i]
     * shades sample pending_sample[i] - 1 of its pixels (0: pixel rate); the
     * subspan being split into one copy per covered sample, and the next
     * sample to look at */
    uint8_t pending_sample[PIXEL_MAX_SUBSPANS];
    bool splitting;
    struct subspan split;
    uint32_t split_next;
    uint64_t sample_invocations, unlit_sample_dispatches, sample_pair_dispatches;
    uint32_t draw_slot;                 /* observed[] index of the primitive's draw, or ~0 */
    uint32_t om_next;                   /* "om" outputs the head state packet went to */
    bool head_taken;

    /* scoreboard */
    int32_t bucket[WM_SB_BUCKETS];
    struct wm_sb_node *nodes;
    int32_t free_node;
    struct wm_flight flight[STAGE_THREADS_MAX];
    uint16_t flight_free[STAGE_THREADS_MAX];
    uint32_t flight_free_count;

    uint64_t ps_invocations, ps_depth;
    uint32_t warned;
    struct wm_observed_draw *observed;  /* per draw, grown as draws come (WM_OBSERVED_DRAWS max) */
    uint32_t draws_seen, observed_capacity;

    /* stats */
    uint64_t primitives, subspans, subspans_lit, pixels_rasterized, pixels_shaded;
    uint64_t subspans_rejected, pixels_depth_failed, pixels_stencil_failed, depth_writes;
    uint64_t pixels_sample_masked, stencil_writes, late_pixels, depth_faults, unsupported_samples;
    uint64_t threads8, threads16, threads32, stall_scoreboard, stall_threads, stall_om_drain;
    uint64_t stall_om_port, stall_sync, stall_drained;
    uint64_t hz_depth_clears, hz_stencil_clears, hz_depth_resolves, hz_hiz_resolves, hz_ends;
    uint64_t hz_pixels;
    uint64_t hiz_blocks_tested, hiz_blocks_rejected, hiz_blocks_ambiguous, hiz_blocks_unbounded;
    uint64_t hiz_pixels_rejected, hiz_blocks_filled, hiz_blocks_cleared, hiz_blocks_resolved;
    uint64_t hiz_blocks_tightened, hiz_blocks_rebuilt, hiz_faults, hiz_bad_records, hiz_writes;
    uint64_t bad_hiz_buffer;
    uint64_t bad_multisample, bad_kernel, bad_setup, bad_depth_buffer, bad_grf_start, bad_dispatch_enables;
    uint64_t bad_per_sample_enables, bad_simd32_16x, bad_stencil_enables;
    uint64_t bad_mmio, legacy_ops, payload_truncated, bad_stencil_clear_masks;
    uint64_t state_wm, state_ps, state_depth, state_constant, state_forwarded_om, state_other;
    uint64_t mmio_writes, mmio_syncs;
    uint64_t pixels_late_passed, pixels_written;

    /* Gen4 (wm_gen4.h): the pointed-to state, the setup URB entry reads
     * ("urb" / "urb_reply") and the entry's dereference once the primitive
     * is done */
    struct wm_gen4 gen4;
    bool gen4_mode;                     /* the latest WM state was Gen4's */
    struct port *urb, *urb_reply;
    uint8_t setup_phase;                /* enum wm_setup_phase */
    uint32_t setup_tag, setup_rows;
    uint8_t setup_data[WM_GEN4_SETUP_ROWS][EU_MSG_REG_BYTES];
    bool deref_pending;
    uint32_t deref_handle;
    uint32_t gen4_threads;              /* R0.6 thread count */
    uint64_t gen4_setup_reads, gen4_setup_rows, gen4_setup_unread, gen4_derefs;
    uint64_t gen4_bad_urb, gen4_simd32_refused;
};

static void warn_once(struct wm *s, uint32_t which, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void warn_once(struct wm *s, uint32_t which, const char *fmt, ...)
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

/* ---- the pixel scoreboard (L15229) --------------------------------------------------- */

static uint32_t sb_key(uint32_t x, uint32_t y)
{
    return (y / 2u) << 16 | (x / 2u);
}

static struct wm_sb_node *sb_find(struct wm *s, uint32_t key)
{
    for (int32_t i = s->bucket[key % WM_SB_BUCKETS]; i >= 0; i = s->nodes[i].next)
        if (s->nodes[i].key == key)
            return &s->nodes[i];
    return NULL;
}

static void sb_add(struct wm *s, uint32_t key)
{
    struct wm_sb_node *n = sb_find(s, key);
    if (n) {
        n->count++;
        return;
    }
    if (s->free_node < 0)
        return;                 /* cannot happen: nodes cover every subspan in flight */
    int32_t i = s->free_node;
    s->free_node = s->nodes[i].next;
    s->nodes[i] = (struct wm_sb_node){ key, 1, s->bucket[key % WM_SB_BUCKETS] };
    s->bucket[key % WM_SB_BUCKETS] = i;
}

static void sb_release(struct wm *s, uint32_t key)
{
    int32_t *link = &s->bucket[key % WM_SB_BUCKETS];
    while (*link >= 0) {
        struct wm_sb_node *n = &s->nodes[*link];
        if (n->key == key) {
            if (--n->count == 0) {
                int32_t i = *link;
                *link = n->next;
                n->next = s->free_node;
                s->free_node = i;
            }
            return;
        }
        link = &n->next;
    }
}

static void sb_clear(struct wm *s)
{
    for (uint32_t i = 0; i < WM_SB_BUCKETS; i++)
        s->bucket[i] = -1;
    for (uint32_t i = 0; i < WM_SB_NODES; i++)
        s->nodes[i].next = i + 1 < WM_SB_NODES ? (int32_t)(i + 1) : -1;
    s->free_node = 0;
}

/* ---- state ------------------------------------------------------------------------------ */

static void take_depth_buffer(struct wm *s, const struct spec_3DSTATE_DEPTH_BUFFER *v)
{
    s->state_depth++;
    s->depth_surface_type = v->SurfaceType;
    s->depth_format = v->SurfaceFormat;
    s->depth_buffer_write = v->DepthWriteEnable;
    s->depth_buffer_stencil_write = v->StencilWriteEnable;
    s->depth_min_array = v->MinimumArrayElement;
    s->hiz_enable = v->HierarchicalDepthBufferEnable;
    struct ds_surface *d = &s->depth;
    memset(d, 0, sizeof *d);
    d->base = v->SurfaceBaseAddress;
    d->pitch = v->SurfacePitch + 1;
    d->width = v->Width + 1;
    d->height = v->Height + 1;
    d->slices = v->Depth + 1 + v->MinimumArrayElement;
    d->qpitch_rows = v->SurfaceQPitch << 2;     /* Mesa isl: array pitch rows >> 2 */
    d->element_bytes = ds_depth_bytes(v->SurfaceFormat);
    d->tiling = TILING_Y;
    d->valid = s->depth_surface_type != WM_SURFTYPE_NULL && d->element_bytes;
    /* the HiZ buffer inherits the depth buffer's geometry (L15779) */
    s->hiz.blocks_x = (d->width + HIZ_BLOCK_WIDTH - 1) / HIZ_BLOCK_WIDTH;
    s->hiz.blocks_y = (d->height + HIZ_BLOCK_HEIGHT - 1) / HIZ_BLOCK_HEIGHT;
    if (s->depth_surface_type == WM_SURFTYPE_NULL)
        return;
    if (!d->element_bytes || v->LOD || v->TiledResourceMode) {
        s->bad_depth_buffer++;
        warn_once(s, WARN_DEPTH, "3DSTATE_DEPTH_BUFFER format %u, LOD %u, tiled resource mode %u "
                  "not modelled: depth tests pass", v->SurfaceFormat, v->LOD,
                  v->TiledResourceMode);
        d->valid = d->element_bytes && !v->TiledResourceMode;
    }
    if (!d->pitch || d->pitch % 128u) {
        s->bad_depth_buffer++;
        warn_once(s, WARN_DEPTH, "depth buffer pitch %u is no whole number of Y tiles: depth "
                  "tests pass", d->pitch);
        d->valid = false;
    }
}

/* 3DSTATE_HIER_DEPTH_BUFFER (reference genxml gen9: Surface Pitch, Surface
 * Base Address, Surface QPitch): Tile-Y only (L15779). */
static void take_hier_depth_buffer(struct wm *s, const struct spec_3DSTATE_HIER_DEPTH_BUFFER *v)
{
    s->state_depth++;
    struct hiz_surface *h = &s->hiz;
    h->base = v->SurfaceBaseAddress;
    h->pitch = v->SurfacePitch + 1;
    h->slice_rows = v->SurfaceQPitch;   /* (QPitch << 2) pixel rows / 4 rows a block */
    h->valid = h->pitch % 128u == 0;
}

/* ---- HiZ record traffic ------------------------------------------------------------------- */

/* The tag of a line request no cache line waits for (an uncached read or
 * any write). */
#define WM_HIZ_TAG_NONE UINT32_MAX

/* Queues a 64-byte line request for the "l3" port (a ring that grows). */
static void hiz_line_queue(struct wm *s, uint64_t line, uint8_t op, uint32_t tag)
{
    if (s->hiz_line_count == s->hiz_line_capacity) {
        /* grow the ring, its entries in order from 0 */
        uint32_t cap = s->hiz_line_capacity ? 2 * s->hiz_line_capacity : WM_HIZ_LINES;
        struct wm_hiz_line *n = gt_xcalloc(cap, sizeof *n);
        for (uint32_t i = 0; i < s->hiz_line_count; i++)
            n[i] = s->hiz_lines[(s->hiz_line_head + i) % s->hiz_line_capacity];
        free(s->hiz_lines);
        s->hiz_lines = n;
        s->hiz_line_capacity = cap;
        s->hiz_line_head = 0;
    }
    s->hiz_lines[(s->hiz_line_head + s->hiz_line_count) % s->hiz_line_capacity] =
        (struct wm_hiz_line){ line, tag, op };
    s->hiz_line_count++;
}

/* The cache line holding `line`, or NULL. */
static struct wm_hiz_cache_line *hiz_cache_find(struct wm *s, uint64_t line)
{
    for (uint32_t i = 0; i < s->hiz_cache_lines; i++)
        if (s->hiz_cache[i].valid && s->hiz_cache[i].line == line)
            return &s->hiz_cache[i];
    return NULL;
}

/* Makes cache line c hold `line` (its dirty contents written back first:
 * hiz.cache_writebacks; a lookahead line evicted unused counted). */
static struct wm_hiz_cache_line *hiz_cache_take(struct wm *s, struct wm_hiz_cache_line *c,
                                               uint64_t line)
{
    if (c->valid && c->dirty) {
        hiz_line_queue(s, c->line, MEMREQ_WRITE, WM_HIZ_TAG_NONE);
        s->hiz_cache_writebacks++;
    }
    if (c->valid && c->ahead)
        s->hiz_lookahead_evicted++;
    *c = (struct wm_hiz_cache_line){ .line = line, .used = ++s->hiz_cache_clock, .valid = true };
    return c;
}

/* Line c was read ahead for a primitive not done yet (still queued, or the
 * one being rasterized): the lookahead keeps it. */
static bool hiz_line_ahead(const struct wm *s, const struct wm_hiz_cache_line *c)
{
    return c->ahead && c->ahead_seq >= s->ff.stats.work;
}

/* A cache line for `line` (a free one, else the least recently used one not
 * being filled, its dirty contents written back: hiz.cache_writebacks; a
 * line read ahead for a queued primitive and not used yet only when no
 * other is left), or NULL when every line is being filled. */
static struct wm_hiz_cache_line *hiz_cache_allocate(struct wm *s, uint64_t line)
{
    struct wm_hiz_cache_line *victim = NULL;
    for (uint32_t i = 0; i < s->hiz_cache_lines; i++) {
        struct wm_hiz_cache_line *c = &s->hiz_cache[i];
        if (!c->valid) {
            victim = c;
            break;
        }
        bool ahead = hiz_line_ahead(s, c), victim_ahead = victim && hiz_line_ahead(s, victim);
        if (!c->pending && (!victim || (victim_ahead && !ahead) ||
                            (victim_ahead == ahead && c->used < victim->used)))
            victim = c;
    }
    if (!victim)
        return NULL;
    return hiz_cache_take(s, victim, line);
}

/* Starts the fill of `line` into a cache line (a read request); `demand`:
 * the rasterizer waits for it. Without a cache line to fill, a demanded read
 * goes to the L3 uncached (hiz.cache_uncached), a read-ahead is dropped. */
static void hiz_cache_fill(struct wm *s, uint64_t line, bool demand)
{
    struct wm_hiz_cache_line *c = hiz_cache_allocate(s, line);
    if (!c) {
        if (demand) {
            s->hiz_cache_uncached++;
            s->hiz_reads_queued++;
            hiz_line_queue(s, line, MEMREQ_READ, WM_HIZ_TAG_NONE);
        }
        return;
    }
    c->pending = true;
    c->demanded = demand;
    if (demand)
        s->hiz_demand_waiting++;
    hiz_line_queue(s, line, MEMREQ_READ, (uint32_t)(c - s->hiz_cache));
}

/* The physical 64-byte line of block (bx, by)'s record, false when the HiZ
 * surface or the address space cannot map it. */
static bool hiz_record_line(struct wm *s, uint32_t bx, uint32_t by, uint32_t slice,
                            uint64_t *line)
{
    uint64_t va, pa;
    if (!hiz_block_line(&s->hiz, bx, by, slice, &va) ||
        gpu_address_space_translate(&s->as, va, &pa) != 0)
        return false;
    *line = pa & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    return true;
}

/* One HiZ record of block (bx, by) read or written (`write`). Without an L3
 * link it holds the rasterizer `hiz_record_cycles` cycles (hiz_owed). With
 * "l3" linked it goes through WM's HiZ record cache (`hiz_cache_lines` lines
 * of 64 bytes, depth_stencil.h hiz_block_line: a line holds 2 x 2 blocks'
 * records; fully associative, LRU, write-back, write-allocate without a
 * fill since the records written are whole; our choice, the seed gives no
 * HiZ cache): a hit costs nothing (hiz.cache_hits); a read miss is a 64-byte
 * line request (MSG_MEMORY_REQUEST, memreq.h) that holds the rasterizer
 * until the L3 answers (hiz.l3_stall_cycles), as does a hit on a line still
 * being filled; an evicted dirty line is a posted 64-byte write
 * (hiz.cache_writebacks). A read of the rasterizer (`rasterizer`) also
 * reads ahead the next `hiz_read_ahead` lines in rasterization order (the
 * rest of the primitive box's block row, then the next line row's),
 * not waited for until the rasterizer reaches them (hiz.cache_read_ahead).
 * A WM_HZ_OP's and the write-backs' accesses do not read ahead. A line the HiZ surface or the address space cannot map falls back to
 * the cycle cost (counted). */
static void hiz_traffic(struct wm *s, uint32_t bx, uint32_t by, uint32_t slice, bool write,
                        bool rasterizer)
{
    if (!s->l3) {
        s->hiz_owed += s->hiz_record_cycles;
        return;
    }
    uint64_t line;
    if (!hiz_record_line(s, bx, by, slice, &line)) {
        s->hiz_l3_unmapped++;
        s->hiz_owed += s->hiz_record_cycles;
        return;
    }
    struct wm_hiz_cache_line *c = hiz_cache_find(s, line);
    if (c) {
        s->hiz_cache_hits++;
        c->used = ++s->hiz_cache_clock;
        if (c->ahead) {
            c->ahead = false;           /* read ahead across primitives, now used */
            s->hiz_lookahead_used++;
        }
        if (write)
            c->dirty = true;
        else if (c->pending && !c->demanded) {
            c->demanded = true;         /* read ahead, now waited for */
            s->hiz_demand_waiting++;
        }
    } else {
        s->hiz_cache_misses++;
        if (write) {
            c = hiz_cache_allocate(s, line);
            if (c)
                c->dirty = true;
            else
                hiz_line_queue(s, line, MEMREQ_WRITE, WM_HIZ_TAG_NONE);
        } else {
            hiz_cache_fill(s, line, true);
        }
    }
    if (write || !rasterizer)
        return;
    /* read-ahead, in rasterization order: the rest of this block row of
     * the primitive's box (a line spans 2 blocks), then, when this row is
     * the second of its lines (rows 2k, 2k + 1 share them), the next row's
     * lines from the box's left edge */
    uint32_t bx0 = s->hiz_row_bx0, last_bx = s->hiz_row_bx0 + s->hiz_row_count - 1;
    uint32_t last_by = s->prim.y_max < 0 ? 0 : (uint32_t)s->prim.y_max / HIZ_BLOCK_HEIGHT;
    uint32_t nx = bx - bx % 2u + 2u, ny = by;
    for (uint32_t k = 0; k < s->hiz_read_ahead; k++, nx += 2u) {
        if (nx > last_bx) {
            if (ny != by || by % 2u == 0 || by + 1u > last_by)
                break;
            ny = by + 1u;
            nx = bx0 - bx0 % 2u;
        }
        uint64_t next;
        if (!hiz_record_line(s, nx, ny, slice, &next))
            break;
        if (hiz_cache_find(s, next))
            continue;
        s->hiz_cache_read_ahead++;
        hiz_cache_fill(s, next, false);
    }
}

/* Sends the waiting line requests the "l3" port takes and counts the L3's
 * answers. */
static void hiz_l3_pump(struct wm *s)
{
    if (!s->l3)
        return;
    struct msg *m;
    while ((m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        bool ok = m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof *r;
        if (ok && r->op == MEMREQ_READ && r->tag < s->hiz_cache_lines &&
            s->hiz_cache[r->tag].pending && s->hiz_cache[r->tag].line == r->address) {
            /* a cache line filled */
            struct wm_hiz_cache_line *c = &s->hiz_cache[r->tag];
            c->pending = false;
            if (c->demanded && s->hiz_demand_waiting)
                s->hiz_demand_waiting--;
            c->demanded = false;
        } else if (ok && r->op == MEMREQ_READ && r->tag == WM_HIZ_TAG_NONE &&
                   s->hiz_reads_waiting)
            s->hiz_reads_waiting--;
        else if (ok && r->op == MEMREQ_WRITE && s->hiz_writes_waiting)
            s->hiz_writes_waiting--;
        else
            ok = false;
        if (ok)
            s->hiz_l3_replies++;
        else
            s->bad_l3_replies++;
        msg_free(unit_sim(s->unit), m);
        unit_progress(s->unit);
    }
    while (s->hiz_line_count && port_can_send(s->l3)) {
        const struct wm_hiz_line *l = &s->hiz_lines[s->hiz_line_head];
        m = msg_alloc(unit_sim(s->unit), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        memset(r, 0, sizeof *r);
        r->address = l->line;
        r->tag = l->tag;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = l->op;
        r->target = MEMREQ_DATA;
        r->client = unit_id(s->unit);
        port_try_send(s->l3, m);
        if (l->op == MEMREQ_READ) {
            s->hiz_l3_reads++;
            if (l->tag == WM_HIZ_TAG_NONE) {
                s->hiz_reads_queued--;
                s->hiz_reads_waiting++;
            }
        } else {
            s->hiz_l3_writes++;
            s->hiz_writes_waiting++;
        }
        s->hiz_line_head = (s->hiz_line_head + 1) % s->hiz_line_capacity;
        s->hiz_line_count--;
    }
}

/* HiZ record reads not answered yet (queued or in the L3). */
static bool hiz_l3_reading(const struct wm *s)
{
    return s->hiz_reads_queued || s->hiz_reads_waiting || s->hiz_demand_waiting;
}

/* HiZ is in use: enabled on a depth buffer that is there, with a HiZ buffer
 * (L15777-15801). */
static bool hiz_on(struct wm *s)
{
    if (!s->hiz_enable || !s->depth.valid || s->depth_surface_type == WM_SURFTYPE_NULL)
        return false;
    if (!s->hiz.valid) {
        s->bad_hiz_buffer++;
        warn_once(s, WARN_HIZ, "HiZ buffer pitch %u is no whole number of Y tiles: HiZ off",
                  s->hiz.pitch);
    }
    return s->hiz.valid;
}

static void take_stencil_buffer(struct wm *s, const struct spec_3DSTATE_STENCIL_BUFFER *v)
{
    s->state_depth++;
    s->stencil_enable = v->StencilBufferEnable;
    struct ds_surface *t = &s->stencil;
    memset(t, 0, sizeof *t);
    t->base = v->SurfaceBaseAddress;
    t->pitch = v->SurfacePitch + 1;
    t->qpitch_rows = v->SurfaceQPitch << 2;
    t->element_bytes = 1;
    t->tiling = TILING_W;
    t->valid = v->StencilBufferEnable;
    if (t->valid && t->pitch % 64u) {
        s->bad_depth_buffer++;
        warn_once(s, WARN_DEPTH, "stencil buffer pitch %u is no whole number of W tiles: stencil "
                  "tests pass", t->pitch);
        t->valid = false;
    }
}

/* CC_VIEWPORT: Minimum Depth, Maximum Depth, 8 bytes each (reference genxml). */
static void take_cc_viewport(struct wm *s, const struct cs_state_packet *p, uint64_t pointer)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    float v[2 * WM_VIEWPORTS];
    s->cc_viewport_valid =
        gpu_address_space_read(&as, s->bases.dynamic + pointer, v, sizeof v, &err) == 0;
    for (uint32_t i = 0; i < WM_VIEWPORTS; i++) {
        s->cc_min[i] = s->cc_viewport_valid ? v[2 * i] : 1.0f;
        s->cc_max[i] = s->cc_viewport_valid ? v[2 * i + 1] : 0.0f;
    }
}

/* Gen7 keeps depth/stencil state in memory (Mesa's genxml gen7.xml; Gen8
 * moved it into 3DSTATE_WM_DEPTH_STENCIL): DEPTH_STENCIL_STATE (3 dwords at
 * Dynamic State Base + 3DSTATE_DEPTH_STENCIL_STATE_POINTERS' pointer) and the
 * stencil reference values in COLOR_CALC_STATE DW0. Both are gathered into
 * the Gen8 packet form that WM's early test and the back ends' late test
 * take (gen7_depth_stencil_packet sends it on). A reference value changed by
 * a later COLOR_CALC_STATE alone reaches the back ends with the next
 * DEPTH_STENCIL_STATE pointer (WM's own test sees it at once). */
static bool read_dynamic_gen7(struct wm *s, const struct cs_state_packet *p, uint64_t pointer,
                              uint32_t *dw, uint32_t bytes)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    if (gpu_address_space_read(&as, s->bases.dynamic + pointer, dw, bytes, &err) == 0)
        return true;
    s->bad_depth_buffer++;
    warn_once(s, WARN_DEPTH, "Gen7 depth/stencil state at dynamic offset 0x%llx unreadable: "
              "depth and stencil tests off", (unsigned long long)pointer);
    return false;
}

static void take_depth_stencil_gen7(struct wm *s, const struct cs_state_packet *p, uint64_t pointer)
{
    s->state_depth++;
    struct spec_3DSTATE_WM_DEPTH_STENCIL *d = &s->ds_packet;
    uint32_t reference = d->StencilReferenceValue, back_reference = d->BackfaceStencilReferenceValue;
    memset(d, 0, sizeof *d);
    d->StencilReferenceValue = reference;
    d->BackfaceStencilReferenceValue = back_reference;
    uint32_t dw[3];
    const struct spec_element *e = spec_element_by_id(7, SPEC_ID_DEPTH_STENCIL_STATE);
    if (!e || !e->unpack_common || !read_dynamic_gen7(s, p, pointer, dw, sizeof dw))
        return;
    struct spec_DEPTH_STENCIL_STATE v;
    memset(&v, 0, sizeof v);
    e->unpack_common(dw, &v);
    d->DepthBufferWriteEnable = v.DepthBufferWriteEnable;
    d->DepthTestEnable = v.DepthTestEnable;
    d->DepthTestFunction = v.DepthTestFunction;
    d->StencilBufferWriteEnable = v.StencilBufferWriteEnable;
    d->StencilTestEnable = v.StencilTestEnable;
    d->DoubleSidedStencilEnable = v.DoubleSidedStencilEnable;
    d->StencilTestFunction = v.StencilTestFunction;
    d->StencilFailOp = v.StencilFailOp;
    d->StencilPassDepthFailOp = v.StencilPassDepthFailOp;
    d->StencilPassDepthPassOp = v.StencilPassDepthPassOp;
    d->BackfaceStencilTestFunction = v.BackfaceStencilTestFunction;
    d->BackfaceStencilFailOp = v.BackfaceStencilFailOp;
    d->BackfaceStencilPassDepthFailOp = v.BackfaceStencilPassDepthFailOp;
    d->BackfaceStencilPassDepthPassOp = v.BackfaceStencilPassDepthPassOp;
    d->StencilTestMask = v.StencilTestMask;
    d->StencilWriteMask = v.StencilWriteMask;
    d->BackfaceStencilTestMask = v.BackfaceStencilTestMask;
    d->BackfaceStencilWriteMask = v.BackfaceStencilWriteMask;
}

static void take_color_calc_gen7(struct wm *s, const struct cs_state_packet *p, uint64_t pointer)
{
    uint32_t dw[6];
    const struct spec_element *e = spec_element_by_id(7, SPEC_ID_COLOR_CALC_STATE);
    if (!e || !e->unpack_common || !read_dynamic_gen7(s, p, pointer, dw, sizeof dw))
        return;
    struct spec_COLOR_CALC_STATE v;
    memset(&v, 0, sizeof v);
    e->unpack_common(dw, &v);
    s->ds_packet.StencilReferenceValue = v.StencilReferenceValue;
    s->ds_packet.BackfaceStencilReferenceValue = v.BackfaceStencilReferenceValue;
}

/* The gathered Gen7 state as a 3DSTATE_WM_DEPTH_STENCIL packet for the back
 * ends (no dwords: only the unpacked struct, which is all om reads). */
static struct msg *gen7_depth_stencil_packet(struct wm *s, const struct cs_state_packet *from)
{
    size_t off = cs_state_common_offset(0);
    size_t bytes = off + sizeof s->ds_packet;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_STATE, (uint32_t)bytes);
    memset(m->payload, 0, bytes);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = SPEC_ID_3DSTATE_WM_DEPTH_STENCIL;
    p->gen = 7;
    p->common_offset = (uint32_t)off;
    p->address = from->address;
    p->space_format = from->space_format;
    p->space_root = from->space_root;
    memcpy((uint8_t *)p + off, &s->ds_packet, sizeof s->ds_packet);
    return m;
}

/* The clear value as stored in the depth buffer: Gen8/9's float encoded in the
 * buffer's format, or Gen7's value already in that encoding. */
static uint32_t clear_depth_stored(const struct wm *s)
{
    if (s->clear_is_raw)
        return ds_depth_value(s->depth_format, s->clear_raw);
    return ds_depth_encode(s->depth_format, s->clear_depth);
}

static void clear_rectangle(struct wm *s, const struct ds_surface *surf, uint32_t value,
                            const struct spec_3DSTATE_WM_HZ_OP *v)
{
    uint32_t x1 = v->ClearRectangleXMax, y1 = v->ClearRectangleYMax;
    if (surf->width && x1 > surf->width)
        x1 = surf->width;
    if (surf->height && y1 > surf->height)
        y1 = surf->height;
    for (uint32_t y = v->ClearRectangleYMin; y < y1; y++)
        for (uint32_t x = v->ClearRectangleXMin; x < x1; x++) {
            for (uint32_t smp = 0; smp < ds_surface_samples(surf); smp++)
                if (!ds_surface_write_sample(surf, &s->as, x, y, smp, s->depth_min_array, value))
                    s->depth_faults++;
            s->hz_pixels++;
        }
}

/* The depth and stencil buffers' sample count: "inherit[ed] from
 * 3DSTATE_MULTISAMPLE" (seed 003 L15605), or WM_HZ_OP's own Number of
 * Multisamples while the op runs (WM_MULTISAMPLE_INT, L15597); their
 * samples are laid out interleaved (units/common/depth_stencil.h). */
static void depth_samples(struct wm *s, uint32_t samples)
{
    s->depth.samples = s->stencil.samples = samples > 16 ? 1 : samples;
}

enum wm_hz_kind { WM_HZ_CLEAR, WM_HZ_DEPTH_RESOLVE, WM_HZ_HIZ_RESOLVE };

/* Gen7's depth ops in 3DSTATE_WM (take_wm_gen7), bits of gen7_depth_ops. */
enum wm_gen7_depth_op {
    WM_GEN7_DEPTH_CLEAR = 1u << 0,
    WM_GEN7_DEPTH_RESOLVE = 1u << 1,
    WM_GEN7_HIZ_RESOLVE = 1u << 2,
};

/* A WM_HZ_OP pass's record read or write: through the L3 when linked (the
 * op's packet is held until its lines are answered, work_state), else not
 * timed (the op runs when the command arrives). */
static void hz_op_traffic(struct wm *s, uint32_t bx, uint32_t by, uint32_t slice, bool write)
{
    if (s->l3)
        hiz_traffic(s, bx, by, slice, write, false);
}

/* A WM_HZ_OP depth op on the HiZ blocks the rectangle touches (X/Y Max
 * exclusive, clipped to the surface):
 *  - depth clear (L15810-15850): a block wholly inside becomes CLEARED with
 *    the clear value, its depth pixels untouched (the fast clear); a block
 *    the rectangle covers in part is materialised if CLEARED, its covered
 *    pixels written with the clear value and its bound widened;
 *  - depth resolve (L15851-15865, L15909): a CLEARED block's clear value is
 *    written to its pixels, the block becomes RANGE [clear, clear] ("the
 *    depth buffer will contain the same contents as it would have had the
 *    rendering been performed with the hierarchical depth buffer disabled");
 *    other blocks already hold their pixels;
 *  - HiZ resolve (L15866-15875, L15917): each block is rebuilt from the
 *    depth buffer's pixels (the depth buffer is the truth, it may have been
 *    written "outside of the 3D rendering operation"). */
static void hz_op_blocks(struct wm *s, enum wm_hz_kind kind, const struct spec_3DSTATE_WM_HZ_OP *v)
{
    const struct ds_surface *d = &s->depth;
    uint32_t x0 = v->ClearRectangleXMin, y0 = v->ClearRectangleYMin;
    uint32_t x1 = v->ClearRectangleXMax, y1 = v->ClearRectangleYMax;
    if (d->width && x1 > d->width)
        x1 = d->width;
    if (d->height && y1 > d->height)
        y1 = d->height;
    if (x0 >= x1 || y0 >= y1)
        return;
    uint32_t slice = s->depth_min_array;    /* RTAIndex forced to 0 (L15896) */
    uint32_t value = ds_depth_value(s->depth_format, clear_depth_stored(s));
    for (uint32_t by = y0 / HIZ_BLOCK_HEIGHT; by <= (y1 - 1) / HIZ_BLOCK_HEIGHT; by++)
        for (uint32_t bx = x0 / HIZ_BLOCK_WIDTH; bx <= (x1 - 1) / HIZ_BLOCK_WIDTH; bx++) {
            struct hiz_block b;
            bool bad;
            if (kind == WM_HZ_HIZ_RESOLVE) {
                b = hiz_rebuild(d, s->depth_format, &s->as, bx, by, slice);
                s->hiz_blocks_rebuilt++;
            } else {
                if (!hiz_block_read(&s->hiz, &s->as, bx, by, slice, &b, &bad)) {
                    s->hiz_faults++;
                    continue;
                }
                s->hiz_bad_records += bad;
                uint32_t bx0 = bx * HIZ_BLOCK_WIDTH, by0 = by * HIZ_BLOCK_HEIGHT;
                uint32_t bx1 = bx0 + HIZ_BLOCK_WIDTH, by1 = by0 + HIZ_BLOCK_HEIGHT;
                if (d->width && bx1 > d->width)
                    bx1 = d->width;
                if (d->height && by1 > d->height)
                    by1 = d->height;
                bool whole = x0 <= bx0 && y0 <= by0 && x1 >= bx1 && y1 >= by1;
                /* a block the fast clear covers whole is overwritten: its
                 * record is written without being read */
                if (!(kind == WM_HZ_CLEAR && whole))
                    hz_op_traffic(s, bx, by, slice, false);
                if (kind == WM_HZ_CLEAR && whole) {
                    b = (struct hiz_block){ HIZ_CLEARED, value, value };
                    s->hiz_blocks_cleared++;
                } else if (b.state == HIZ_CLEARED) {
                    s->depth_faults +=
                        hiz_fill_depth(d, s->depth_format, &s->as, bx, by, slice, b.min);
                    b = (struct hiz_block){ HIZ_RANGE, b.min, b.min };
                    if (kind == WM_HZ_DEPTH_RESOLVE)
                        s->hiz_blocks_resolved++;
                    else
                        s->hiz_blocks_filled++;
                }
                if (kind == WM_HZ_CLEAR && !whole) {
                    uint32_t cx0 = x0 > bx0 ? x0 : bx0, cy0 = y0 > by0 ? y0 : by0;
                    uint32_t cx1 = x1 < bx1 ? x1 : bx1, cy1 = y1 < by1 ? y1 : by1;
                    for (uint32_t y = cy0; y < cy1; y++)
                        for (uint32_t x = cx0; x < cx1; x++) {
                            for (uint32_t smp = 0; smp < ds_surface_samples(d); smp++) {
                                uint32_t old = 0, nv = value;
                                if (s->depth_format == DS_D24_UNORM_X8_UINT &&
                                    ds_surface_read_sample(d, &s->as, x, y, smp, slice, &old))
                                    nv = (old & 0xff000000u) | value;
                                if (!ds_surface_write_sample(d, &s->as, x, y, smp, slice, nv))
                                    s->depth_faults++;
                            }
                            s->hz_pixels++;
                        }
                    hiz_block_note_write(&b, s->depth_format, value);
                }
            }
            if (!hiz_block_write(&s->hiz, &s->as, bx, by, slice, &b))
                s->hiz_faults++;
            else
                s->hiz_writes++;
            hz_op_traffic(s, bx, by, slice, true);
        }
}

/* 3DSTATE_WM_HZ_OP (L15371-15424): the op runs when the command arrives;
 * one with no op bit ends the sequence. */
static void take_hz_op(struct wm *s, const struct spec_3DSTATE_WM_HZ_OP *v)
{
    gpu_address_space_init(&s->as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->space.format, s->space.root);
    /* the op's own Number of Multisamples (L15597): 1-8 on Gen8, 1-16 on Gen9
     * (genxml); a reserved count is counted and the op runs at 1x */
    uint32_t op_samples = 1u << (v->NumberOfMultisamples & 7u);
    if (v->NumberOfMultisamples > 4u) {
        s->unsupported_samples++;
        warn_once(s, WARN_SAMPLES, "WM_HZ_OP Number of Multisamples %u is reserved: 1x",
                  (unsigned)v->NumberOfMultisamples);
        op_samples = 1;
    }
    depth_samples(s, op_samples);
    bool any = false;
    if (v->DepthBufferClearEnable) {
        any = true;
        s->hz_depth_clears++;
        /* WM_INT::DepthWriteEnable (L15446): a non-NULL surface with Depth Write Enable */
        if (s->depth.valid && s->depth_buffer_write) {
            if (!s->clear_valid) {
                s->bad_depth_buffer++;
                warn_once(s, WARN_HZ, "depth clear without a valid 3DSTATE_CLEAR_PARAMS value: "
                          "0.0 written");
            }
            struct ds_surface d = s->depth;
            if (hiz_on(s))
                hz_op_blocks(s, WM_HZ_CLEAR, v);
            else
                clear_rectangle(s, &d, clear_depth_stored(s), v);
        }
    }
    if (v->StencilBufferClearEnable) {
        any = true;
        s->hz_stencil_clears++;
        /* WM_INT::StencilWriteEnable (L15430): stencil buffer and its write enable; REPLACE with
         * masks forced to 0xFF */
        if (s->stencil.valid && s->depth_buffer_stencil_write) {
            struct ds_surface t = s->stencil;
            if (s->depth.valid) {
                t.width = s->depth.width;
                t.height = s->depth.height;
            }
            clear_rectangle(s, &t, v->StencilClearValue & 0xffu, v);
        }
    }
    /* the resolves write the depth buffer / HiZ (WM_INT::DepthWriteEnable is
     * forced on, L15424); without HiZ there is nothing to resolve */
    if (v->DepthBufferResolveEnable) {
        any = true;
        s->hz_depth_resolves++;
        if (hiz_on(s))
            hz_op_blocks(s, WM_HZ_DEPTH_RESOLVE, v);
    }
    if (v->HierarchicalDepthBufferResolveEnable) {
        any = true;
        s->hz_hiz_resolves++;
        if (hiz_on(s))
            hz_op_blocks(s, WM_HZ_HIZ_RESOLVE, v);
    }
    if (!any)
        s->hz_ends++;
}

static void take_poly_stipple(struct wm *s, uint32_t id, const void *body)
{
    s->state_wm++;
    if (id == SPEC_ID_3DSTATE_POLY_STIPPLE_OFFSET) {
        const struct spec_3DSTATE_POLY_STIPPLE_OFFSET *v = body;
        s->stipple_x = v->PolygonStippleXOffset & 31u;
        s->stipple_y = v->PolygonStippleYOffset & 31u;
    } else {
        const struct spec_3DSTATE_POLY_STIPPLE_PATTERN *v = body;
        memcpy(s->stipple_rows, v->PatternRow, sizeof s->stipple_rows);
    }
}

/* ---- multisampling (seed 003 §3.11, L15582-15690) ---------------------------------------- */

/* The standard sample positions (what iris programs in 3DSTATE_SAMPLE_PATTERN,
 * the D3D/Mesa tables; the capture skl_msaa's command), X << 4 | Y in U0.4:
 * the positions before any SAMPLE_PATTERN arrives. */
static const uint8_t wm_standard_pattern[5][16] = {
    { 0x88 },
    { 0xcc, 0x44 },
    { 0x62, 0xe6, 0x2a, 0xae },
    { 0x95, 0x7b, 0xd9, 0x53, 0x3d, 0x17, 0xbf, 0xf1 },
    { 0x99, 0x75, 0x5a, 0xc7, 0x36, 0xad, 0xdb, 0xb3, 0x6e, 0x81, 0x42, 0x2c, 0x08, 0xf4,
      0xef, 0x10 },
};

/* 3DSTATE_SAMPLE_PATTERN (Gen8+, genxml gen9.xml): dwords 1-4 the 16x samples
 * 0-15, dword 5 8x samples 4-7, dword 6 8x 0-3, dword 7 4x 0-3, dword 8 2x 0-1
 * then 1x 0, a byte a sample: Y offset in bits 3:0, X in 7:4 (U0.4). */
static void take_sample_pattern(struct wm *s, const struct cs_state_packet *p)
{
    if (p->dword_count < 9) {
        s->state_other++;       /* too short: the positions stay as they were */
        return;
    }
    const uint32_t *dw = p->dwords;
    for (unsigned i = 0; i < 16; i++)
        s->sample_pattern[4][i] = (uint8_t)(dw[1 + i / 4] >> (8 * (i % 4)));
    for (unsigned i = 0; i < 8; i++)
        s->sample_pattern[3][i] = (uint8_t)(dw[i < 4 ? 6 : 5] >> (8 * (i % 4)));
    for (unsigned i = 0; i < 4; i++)
        s->sample_pattern[2][i] = (uint8_t)(dw[7] >> (8 * i));
    s->sample_pattern[1][0] = (uint8_t)dw[8];
    s->sample_pattern[1][1] = (uint8_t)(dw[8] >> 8);
    s->sample_pattern[0][0] = (uint8_t)(dw[8] >> 16);
}

static unsigned log2_samples(uint32_t samples)
{
    return samples >= 16 ? 4 : samples >= 8 ? 3 : samples >= 4 ? 2 : samples >= 2 ? 1 : 0;
}

/* Multisample rasterization (MSRASTMODE_ON_PATTERN): the samples of the pixel
 * state's count, with DX Multisample Rasterization Enable (L15582ff). Off:
 * pixels are rasterized at their centre (OFF_PIXEL) and a lit pixel covers
 * every sample. */
static bool wm_ms_raster(const struct wm *s)
{
    return s->samples > 1 && s->ms_raster_enable;
}

static bool covers(const struct setup_primitive *p, int32_t px, int32_t py, bool centre);
static bool covers_at(const struct setup_primitive *p, int32_t px, int32_t py, uint32_t ox16,
                      uint32_t oy16);

/* The samples of pixel (px, py) inside the primitive: bit s for sample s at
 * its pattern position (pixel corner + offset/16); without multisample
 * rasterization, every sample when the pixel's centre (or corner) is inside. */
static uint32_t pixel_sample_coverage(const struct wm *s, const struct setup_primitive *p,
                                      int32_t px, int32_t py)
{
    uint32_t all = s->samples >= 32 ? ~0u : (1u << s->samples) - 1;
    /* diamond lines: 1X rasterization at the pixel location, every sample
     * (Table 3 "Legacy lines", L15650ff) */
    if (p->line_mode == SETUP_LINE_DIAMOND_LEGACY || p->line_mode == SETUP_LINE_DIAMOND_DX10)
        return wm_line_diamond_lit(p, px, py, s->pixel_center) ? all : 0;
    if (!wm_ms_raster(s))
        return covers(p, px, py, s->pixel_center) ? all : 0;
    unsigned l = log2_samples(s->samples);
    uint32_t m = 0;
    for (uint32_t smp = 0; smp < s->samples && smp < 16; smp++) {
        uint8_t pos = s->sample_pattern[l][smp];
        if (covers_at(p, px, py, pos >> 4, pos & 0xfu))
            m |= 1u << smp;
    }
    return m;
}

/* Gen7's 3DSTATE_WM carries what Gen8 moved to 3DSTATE_PS_EXTRA and
 * 3DSTATE_PS_BLEND (seed 000 L3604-3950, notes/004-000-commands.md 3.16):
 * Thread Dispatch Enable (the driver's WM_INT decision: Gen7 has no PS Valid
 * / Has Writeable RT), the PS's kill / computed depth / source depth and W /
 * input coverage bits, the multisample rasterization and dispatch modes, and
 * the depth clear / depth resolve / HiZ resolve operations Gen8 moved to
 * 3DSTATE_WM_HZ_OP (seed 000 L3645-3710): each draw while one is set does it
 * over the pixels it covers ("as a side-effect of rendering pixels",
 * gen7_depth_op) and dispatches no PS thread (counted in legacy_ops). */
static void take_wm_gen7(struct wm *s, const struct spec_3DSTATE_WM *v)
{
    s->state_wm++;
    s->barycentric_modes = v->BarycentricInterpolationMode & 0x3fu;
    s->edsc = s->force_late_depth ? WM_EDSC_PSEXEC : v->EarlyDepthStencilControl;
    s->force_dispatch = 0;          /* NORMAL: Gen7 has no Force Thread Dispatch */
    s->force_kill = 0;
    s->statistics = v->StatisticsEnable;
    s->poly_stipple = v->PolygonStippleEnable;
    s->ps_valid = v->ThreadDispatchEnable;
    s->has_writeable_rt = v->ThreadDispatchEnable;
    s->does_not_write_rt = false;
    s->has_uav = false;
    s->kills_pixel = v->PixelShaderKillsPixel;
    s->computed_depth = v->PixelShaderComputedDepthMode;
    s->uses_source_depth = v->PixelShaderUsesSourceDepth;
    s->uses_source_w = v->PixelShaderUsesSourceW;
    s->uses_coverage_mask = v->PixelShaderUsesInputCoverageMask;
    s->computes_stencil = false;
    s->alpha_test = s->alpha_to_coverage = false;   /* BLEND_STATE's, seen by the back end */
    /* MSRASTMODE_ON_PATTERN (3) rasterizes at the samples; MSDISPMODE_PERSAMPLE
     * (0) then runs the PS per sample */
    s->ms_raster_enable = v->MultisampleRasterizationMode == 3;
    s->per_sample = s->ms_raster_enable && v->MultisampleDispatchMode == 0;
    s->gen7_depth_ops = (uint8_t)((v->DepthBufferClear ? WM_GEN7_DEPTH_CLEAR : 0) |
                                  (v->DepthBufferResolveEnable ? WM_GEN7_DEPTH_RESOLVE : 0) |
                                  (v->HierarchicalDepthBufferResolveEnable ? WM_GEN7_HIZ_RESOLVE
                                                                           : 0));
    if (s->gen7_depth_ops) {
        s->legacy_ops++;
        s->ps_valid = s->has_writeable_rt = false;
    }
}

/* Gen7's depth, stencil and HiZ buffer commands in the Gen8 form WM and the
 * back ends take (the packet is WM's: it forwards this form to om), seed 000
 * and genxml gen7.xml:
 *  - 3DSTATE_DEPTH_BUFFER has no Surface QPitch: the array pitch is the Gen7
 *    formula h0 + h1 + 12 j rows (units/common/surface.c derive_qpitch; j =
 *    4, the depth buffer's vertical alignment in Mesa's isl), stored as the
 *    Gen8 field (rows / 4);
 *  - 3DSTATE_HIER_DEPTH_BUFFER has no QPitch either: the HiZ record rows of
 *    one depth array slice (the record is the model's, depth_stencil.h);
 *  - 3DSTATE_STENCIL_BUFFER's DW1 bit 31 is Reserved on Gen7 (seed 000
 *    L2318ff; Stencil Buffer Enable is Gen7.5's): the buffer is there when
 *    its base address is not 0 (the model's reading; Mesa's isl emits an
 *    all-zero packet on Gen7 when there is no stencil buffer). It has no
 *    QPitch either: its array pitch is the same formula with the stencil
 *    buffer's vertical alignment j = 8 (Mesa's isl gen7 alignment for
 *    stencil surfaces, 8x8, a public fact; the seeds give none), over the
 *    depth buffer's height (the stencil buffer has no size of its own). */
static uint32_t gen7_qpitch_rows(uint32_t height, uint32_t j)
{
    uint32_t h0 = (height + j - 1) / j * j;
    uint32_t h1 = ((height > 1 ? height / 2 : 1) + j - 1) / j * j;
    return h0 + h1 + 12u * j;
}

static uint32_t gen7_depth_qpitch_rows(uint32_t height)
{
    return gen7_qpitch_rows(height, 4u);
}

static void gen7_depth_forms(struct wm *s, struct cs_state_packet *p)
{
    void *body = (uint8_t *)p + p->common_offset;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_3DSTATE_DEPTH_BUFFER: {
        struct spec_3DSTATE_DEPTH_BUFFER *v = body;
        v->SurfaceQPitch = gen7_depth_qpitch_rows(v->Height + 1) >> 2;
        break;
    }
    case SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER: {
        struct spec_3DSTATE_HIER_DEPTH_BUFFER *v = body;
        v->SurfaceQPitch = (s->depth.qpitch_rows + HIZ_BLOCK_HEIGHT - 1) / HIZ_BLOCK_HEIGHT;
        break;
    }
    case SPEC_ID_3DSTATE_STENCIL_BUFFER: {
        struct spec_3DSTATE_STENCIL_BUFFER *v = body;
        v->StencilBufferEnable = v->SurfaceBaseAddress != 0;
        /* the Gen8 field is in rows / 4; the depth buffer WM holds gives the height */
        if (s->depth.valid && s->depth.height)
            v->SurfaceQPitch = gen7_qpitch_rows(s->depth.height, 8u) >> 2;
        break;
    }
    default:
        break;
    }
}

/* One Gen7 depth op over the rectangle [x0, x1) x [y0, y1), as WM_HZ_OP's
 * (take_hz_op): a depth clear writes the clear value (HiZ: whole blocks
 * become CLEARED), the resolves need HiZ ("If Hierarchical Depth Buffer
 * Enable is disabled, enabling this field will have no effect", seed 000
 * L3688-3705). The stencil buffer is cleared with the depth clear when
 * it is written (gen7_stencil_clear_rectangle). */
static void gen7_stencil_clear_rectangle(struct wm *s, uint32_t x0, uint32_t y0, uint32_t x1,
                                         uint32_t y1);
static void wm_int_depth_stencil(struct wm *s, uint32_t viewport);

static void gen7_depth_op_rectangle(struct wm *s, uint32_t x0, uint32_t y0, uint32_t x1,
                                    uint32_t y1)
{
    struct spec_3DSTATE_WM_HZ_OP v;
    memset(&v, 0, sizeof v);
    v.ClearRectangleXMin = x0;
    v.ClearRectangleYMin = y0;
    v.ClearRectangleXMax = x1;
    v.ClearRectangleYMax = y1;
    if ((s->gen7_depth_ops & WM_GEN7_DEPTH_CLEAR) && s->depth.valid && s->depth_buffer_write) {
        struct ds_surface d = s->depth;
        if (hiz_on(s))
            hz_op_blocks(s, WM_HZ_CLEAR, &v);
        else
            clear_rectangle(s, &d, clear_depth_stored(s), &v);
    }
    if ((s->gen7_depth_ops & WM_GEN7_DEPTH_CLEAR) && s->ds.stencil_write)
        gen7_stencil_clear_rectangle(s, x0, y0, x1, y1);
    if ((s->gen7_depth_ops & WM_GEN7_DEPTH_RESOLVE) && hiz_on(s))
        hz_op_blocks(s, WM_HZ_DEPTH_RESOLVE, &v);
    if ((s->gen7_depth_ops & WM_GEN7_HIZ_RESOLVE) && hiz_on(s))
        hz_op_blocks(s, WM_HZ_HIZ_RESOLVE, &v);
}

/* Gen7's stencil clear rides on the depth clear (seed 000 L3645-3665,
 * 3DSTATE_WM Depth Buffer Clear: "3DSTATE_DEPTH_BUFFER::Stencil Write Enable
 * must be set if 3DSTATE_STENCIL_BUFFER::Stencil buffer enable is set", with
 * DEPTH_STENCIL_STATE's Stencil Write / Test Masks and the back face's "must
 * be 0xFF"; "the depth buffer is initialized as a side-effect of rendering
 * pixels"): each covered pixel's stencil takes what the stencil test and
 * ops of DEPTH_STENCIL_STATE give (the depth test is off, L3650: the pass op;
 * a driver's clear programs ALWAYS / REPLACE with the clear value as
 * COLOR_CALC_STATE's Stencil Reference Value), front face, masks 0xFF.
 * Masks other than 0xFF break the programming note: counted
 * (bad.stencil_clear_masks) and used as 0xFF. Runs when WM_INT's stencil
 * write is on (a stencil buffer, its write enables). */
static void gen7_stencil_clear_rectangle(struct wm *s, uint32_t x0, uint32_t y0, uint32_t x1,
                                         uint32_t y1)
{
    struct ds_state st = s->ds;
    st.depth_test = st.depth_write = false;
    st.double_sided = false;
    st.front.test_mask = st.front.write_mask = 0xff;
    struct ds_surface t = s->stencil;
    if (s->depth.valid) {
        t.width = s->depth.width;
        t.height = s->depth.height;
    }
    if (t.width && x1 > t.width)
        x1 = t.width;
    if (t.height && y1 > t.height)
        y1 = t.height;
    uint32_t slice = s->depth_min_array;
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++) {
            uint32_t old = 0, depth = 0;
            if (st.stencil_test && !ds_surface_read(&t, &s->as, x, y, slice, &old)) {
                s->depth_faults++;
                continue;
            }
            uint8_t stencil = (uint8_t)old;
            uint32_t r = ds_test(&st, false, s->depth_format, 0.0f, &depth, &stencil);
            if (r & DS_STENCIL_WRITTEN) {
                if (!ds_surface_write(&t, &s->as, x, y, slice, stencil))
                    s->depth_faults++;
                s->stencil_writes++;
            }
            s->hz_pixels++;
        }
}

/* The Gen7 depth ops of a draw: over the pixels the primitive covers (pixel
 * centres, clipped to the drawing rectangle and the depth buffer), one
 * rectangle when they are one (a RECTLIST, what drivers draw), else row by
 * row (partial HiZ blocks then take the pixel path: the result is the same
 * bytes, without the fast clear). Counted as WM_HZ_OP's ops, one per draw. */
static void gen7_depth_op(struct wm *s, const struct setup_primitive *prim)
{
    depth_samples(s, s->samples);
    gpu_address_space_init(&s->as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->space.format, s->space.root);
    if (s->gen7_depth_ops & WM_GEN7_DEPTH_CLEAR) {
        s->hz_depth_clears++;
        /* WM_INT's stencil enables for the stencil clear that rides on it */
        wm_int_depth_stencil(s, prim->viewport_index);
        s->hz_stencil_clears += s->ds.stencil_write;
        const struct ds_state *d = &s->ds;
        if (d->stencil_write &&
            (d->front.test_mask != 0xff || d->front.write_mask != 0xff ||
             (d->double_sided && (d->back.test_mask != 0xff || d->back.write_mask != 0xff))))
            s->bad_stencil_clear_masks++;
        if (!s->clear_valid) {
            s->bad_depth_buffer++;
            warn_once(s, WARN_HZ, "Gen7 depth clear without a valid 3DSTATE_CLEAR_PARAMS "
                      "value: 0 written");
        }
    }
    s->hz_depth_resolves += (s->gen7_depth_ops & WM_GEN7_DEPTH_RESOLVE) != 0;
    s->hz_hiz_resolves += (s->gen7_depth_ops & WM_GEN7_HIZ_RESOLVE) != 0;
    if (!s->depth.valid || s->depth_surface_type == WM_SURFTYPE_NULL)
        return;
    int64_t x_min = prim->x_min, y_min = prim->y_min, x_max = prim->x_max, y_max = prim->y_max;
    if (s->drawing_rectangle) {
        x_min = x_min > s->draw_x_min ? x_min : s->draw_x_min;
        y_min = y_min > s->draw_y_min ? y_min : s->draw_y_min;
        x_max = x_max < s->draw_x_max ? x_max : s->draw_x_max;
        y_max = y_max < s->draw_y_max ? y_max : s->draw_y_max;
    }
    x_min = x_min < 0 ? 0 : x_min;
    y_min = y_min < 0 ? 0 : y_min;
    x_max = x_max >= (int64_t)s->depth.width ? (int64_t)s->depth.width - 1 : x_max;
    y_max = y_max >= (int64_t)s->depth.height ? (int64_t)s->depth.height - 1 : y_max;
    if (x_min > x_max || y_min > y_max)
        return;
    /* each row's covered span (a convex primitive covers one span a row) */
    int64_t rect_x0 = -1, rect_x1 = -1, rect_y0 = -1, rect_y1 = -1;
    bool rectangle = true;
    for (int64_t y = y_min; y <= y_max; y++) {
        int64_t a = -1, b = -1;
        for (int64_t x = x_min; x <= x_max; x++)
            if (covers(prim, (int32_t)x, (int32_t)y, s->pixel_center)) {
                if (a < 0)
                    a = x;
                b = x;
            }
        if (a < 0) {
            if (rect_y0 >= 0 && rect_y1 < 0)
                rect_y1 = y;            /* the covered rows ended */
            continue;
        }
        if (rect_y0 < 0) {
            rect_y0 = y;
            rect_x0 = a;
            rect_x1 = b + 1;
        } else if (rect_y1 >= 0 || a != rect_x0 || b + 1 != rect_x1) {
            rectangle = false;
        }
    }
    if (rect_y0 < 0)
        return;
    if (rect_y1 < 0)
        rect_y1 = y_max + 1;
    if (rectangle) {
        gen7_depth_op_rectangle(s, (uint32_t)rect_x0, (uint32_t)rect_y0, (uint32_t)rect_x1,
                                (uint32_t)rect_y1);
        return;
    }
    for (int64_t y = y_min; y <= y_max; y++) {
        int64_t a = -1, b = -1;
        for (int64_t x = x_min; x <= x_max; x++)
            if (covers(prim, (int32_t)x, (int32_t)y, s->pixel_center)) {
                if (a < 0)
                    a = x;
                b = x;
            }
        if (a >= 0)
            gen7_depth_op_rectangle(s, (uint32_t)a, (uint32_t)y, (uint32_t)b + 1,
                                    (uint32_t)y + 1);
    }
}

/* Gen7's 3DSTATE_PS (seed 000 L119-505): one Maximum Number of Threads (DW4
 * 31:24, not per PSD) and the Attribute Enable, oMask and Dual Source Blend
 * bits Gen8 moved to 3DSTATE_PS_EXTRA. */
static void take_ps_gen7_extra(struct wm *s, const struct spec_3DSTATE_PS *v)
{
    s->kernel.max_threads = v->MaximumNumberOfThreads + 1;
    s->attribute_enable = v->AttributeEnable;
    s->omask_to_rt = v->OMaskPresentToRenderTarget;
}

/* Gen7 has no 3DSTATE_SAMPLE_PATTERN: 3DSTATE_MULTISAMPLE's DW2 holds the
 * positions of samples 0-3 and DW3 those of samples 4-7, a byte each with
 * the X offset in 7:4 and the Y offset in 3:0 (U0.4; Mesa's genxml gen7.xml),
 * the byte form sample_pattern keeps. Gen7 has 1, 4 and 8 samples. */
static void take_multisample_gen7(struct wm *s, const struct cs_state_packet *p)
{
    if (p->dword_count < 3) {
        s->state_other++;       /* too short: the positions stay as they were */
        return;
    }
    uint32_t low = p->dwords[2], high = p->dword_count > 3 ? p->dwords[3] : 0;
    s->sample_pattern[0][0] = (uint8_t)low;
    for (unsigned i = 0; i < 4; i++)
        s->sample_pattern[2][i] = (uint8_t)(low >> (8 * i));
    for (unsigned i = 0; i < 8; i++)
        s->sample_pattern[3][i] = (uint8_t)((i < 4 ? low : high) >> (8 * (i % 4)));
}

static bool take_state_gen4(struct wm *s, const struct cs_state_packet *p);

static void take_state(struct wm *s, const struct cs_state_packet *p)
{
    const void *body = cs_state_common(p);
    s->space = stage_space_of(p);
    if (p->gen == 4 && take_state_gen4(s, p))
        return;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        stage_bases_take(&s->bases, body);
        break;
    case SPEC_ID_3DSTATE_WM: {
        const struct spec_3DSTATE_WM *v = body;
        if (p->gen == 7) {
            take_wm_gen7(s, v);
            break;
        }
        s->state_wm++;
        s->barycentric_modes = v->BarycentricInterpolationMode & 0x3fu;
        s->edsc = s->force_late_depth ? WM_EDSC_PSEXEC : v->EarlyDepthStencilControl;
        s->force_dispatch = v->ForceThreadDispatchEnable;
        s->force_kill = v->ForceKillPixelEnable;
        s->statistics = v->StatisticsEnable;
        s->poly_stipple = v->PolygonStippleEnable;
        s->line_stipple = v->LineStippleEnable;
        if (v->LegacyDepthBufferClearEnable || v->LegacyDepthBufferResolveEnable ||
            v->LegacyHierarchicalDepthBufferResolveEnable) {
            s->legacy_ops++;
            warn_once(s, WARN_LEGACY, "3DSTATE_WM legacy depth clear/resolve not modelled");
        }
        break;
    }
    case SPEC_ID_3DSTATE_PS: {
        const struct spec_3DSTATE_PS *v = body;
        s->state_ps++;
        struct stage_kernel *k = &s->kernel;
        k->binding_table_entries = v->BindingTableEntryCount;
        k->scratch_base = v->ScratchSpaceBasePointer;
        k->per_thread_scratch = v->PerThreadScratchSpace;
        k->max_threads = v->MaximumNumberOfThreadsPerPSD + 1;
        k->priority = v->ThreadDispatchPriority;
        k->alternate_fp = v->FloatingPointMode == 1;
        k->illegal_opcode_exception = v->IllegalOpcodeExceptionEnable;
        k->software_exception = v->SoftwareExceptionEnable;
        s->ksp[0] = v->KernelStartPointer0;
        s->ksp[1] = v->KernelStartPointer1;
        s->ksp[2] = v->KernelStartPointer2;
        s->grf_start[0] = v->DispatchGRFStartRegisterForConstantSetupData0;
        s->grf_start[1] = v->DispatchGRFStartRegisterForConstantSetupData1;
        s->grf_start[2] = v->DispatchGRFStartRegisterForConstantSetupData2;
        s->enable8 = v->_8PixelDispatchEnable;
        s->enable16 = v->_16PixelDispatchEnable;
        s->enable32 = v->_32PixelDispatchEnable;
        s->push_constants = v->PushConstantEnable;
        s->omask_to_rt = v->OMaskPresentToRenderTarget;
        s->ps_attribute_enable = v->AttributeEnable;
        s->position_offset_select = v->PositionXYOffsetSelect;
        if (v->RenderTargetFastClearEnable || v->RenderTargetResolveEnable ||
            v->RenderTargetResolveType)
            s->legacy_ops++;        /* fast clear / resolve: the pixel back end's business */
        if (p->gen == 7)
            take_ps_gen7_extra(s, v);
        break;
    }
    case SPEC_ID_3DSTATE_PS_EXTRA: {
        const struct spec_3DSTATE_PS_EXTRA *v = body;
        s->state_ps++;
        s->ps_valid = v->PixelShaderValid;
        s->uses_source_depth = v->PixelShaderUsesSourceDepth;
        s->uses_source_w = v->PixelShaderUsesSourceW;
        s->kills_pixel = v->PixelShaderKillsPixel;
        s->computes_stencil = v->PixelShaderComputesStencil;
        s->does_not_write_rt = v->PixelShaderDoesNotWriteToRT;
        s->has_uav = v->PixelShaderHasUAV;
        s->attribute_enable = v->AttributeEnable;
        s->uses_coverage_mask = v->PixelShaderUsesInputCoverageMask;
        s->per_sample = v->PixelShaderIsPerSample;
        s->computed_depth = v->PixelShaderComputedDepthMode;
        if (v->OMaskPresentToRenderTarget)
            s->omask_to_rt = true;
        break;
    }
    case SPEC_ID_3DSTATE_PS_BLEND: {
        const struct spec_3DSTATE_PS_BLEND *v = body;
        s->state_ps++;
        s->has_writeable_rt = v->HasWriteableRT;
        s->alpha_test = v->AlphaTestEnable;
        s->alpha_to_coverage = v->AlphaToCoverageEnable;
        break;
    }
    case SPEC_ID_3DSTATE_MULTISAMPLE: {
        const struct spec_3DSTATE_MULTISAMPLE *v = body;
        s->state_wm++;
        s->pixel_center = v->PixelLocation == 0;
        s->samples = 1u << (v->NumberOfMultisamples & 7u);
        /* Number of Multisamples: 1-8 on Gen8, 1-16 on Gen9 (genxml gen8.xml /
         * gen9.xml MULTISAMPLECOUNT_*; seed 003 notes/003-skl-pipeline.md L436);
         * larger encodings are reserved: counted, warned, rasterized at 1x */
        if (p->gen >= 8 && v->NumberOfMultisamples > (p->gen >= 9 ? 4u : 3u)) {
            s->bad_multisample++;
            warn_once(s, WARN_MULTISAMPLE, "3DSTATE_MULTISAMPLE Number of Multisamples %u is "
                      "reserved on Gen%u: rasterized at 1 sample",
                      (unsigned)v->NumberOfMultisamples, p->gen);
            s->samples = 1;
        }
        if (p->gen == 7)
            take_multisample_gen7(s, p);
        break;
    }
    case SPEC_ID_3DSTATE_DRAWING_RECTANGLE: {
        const struct spec_3DSTATE_DRAWING_RECTANGLE *v = body;
        s->state_wm++;
        s->drawing_rectangle = true;
        s->draw_x_min = (int32_t)v->ClippedDrawingRectangleXMin;
        s->draw_y_min = (int32_t)v->ClippedDrawingRectangleYMin;
        s->draw_x_max = (int32_t)v->ClippedDrawingRectangleXMax;
        s->draw_y_max = (int32_t)v->ClippedDrawingRectangleYMax;
        break;
    }
    case SPEC_ID_3DSTATE_POLY_STIPPLE_OFFSET:
    case SPEC_ID_3DSTATE_POLY_STIPPLE_PATTERN:
        take_poly_stipple(s, p->id, body);
        break;
    case SPEC_ID_3DSTATE_SAMPLE_PATTERN:
        s->state_wm++;
        take_sample_pattern(s, p);
        break;
    case SPEC_ID_3DSTATE_LINE_STIPPLE: {
        /* counted with the other packets (state.other) as before it was taken */
        const struct spec_3DSTATE_LINE_STIPPLE *v = body;
        s->state_other++;
        s->line_stipple_pattern = v->LineStipplePattern & 0xffffu;
        s->line_stipple_repeat = v->LineStippleRepeatCount;
        if (v->ModifyEnableCurrentRepeatCounterCurrentStippleIndex)
            s->line_stipple_counter = (uint64_t)v->CurrentStippleIndex * v->LineStippleRepeatCount +
                                      v->CurrentRepeatCounter;
        break;
    }
    case SPEC_ID_3DSTATE_RASTER:
        s->state_wm++;
        s->ms_raster_enable =
            ((const struct spec_3DSTATE_RASTER *)body)->DXMultisampleRasterizationEnable;
        break;
    case SPEC_ID_3DSTATE_SAMPLE_MASK:
        s->state_wm++;
        s->sample_mask = ((const struct spec_3DSTATE_SAMPLE_MASK *)body)->SampleMask;
        break;
    case SPEC_ID_3DSTATE_WM_DEPTH_STENCIL:
        s->state_depth++;
        s->ds_packet = *(const struct spec_3DSTATE_WM_DEPTH_STENCIL *)body;
        break;
    case SPEC_ID_3DSTATE_DEPTH_BUFFER:
        take_depth_buffer(s, body);
        break;
    case SPEC_ID_3DSTATE_STENCIL_BUFFER:
        take_stencil_buffer(s, body);
        break;
    case SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER:
        take_hier_depth_buffer(s, body);
        break;
    case SPEC_ID_3DSTATE_CLEAR_PARAMS: {
        const struct spec_3DSTATE_CLEAR_PARAMS *v = body;
        s->state_depth++;
        s->clear_depth = (float)v->DepthClearValue;
        s->clear_valid = v->DepthClearValueValid;
        /* Gen7's field is a uint in the depth format's encoding (genxml
         * gen7.xml; Mesa's i965 brw_convert_depth_value: float bits for
         * D32_FLOAT, value x (2^24 - 1) or x (2^16 - 1) for the UNORMs) */
        s->clear_is_raw = p->gen == 7;
        /* only Gen7's field is an integer; Gen8+'s float may be any value,
         * NaN or out of a uint's range (converting it would be undefined) */
        s->clear_raw = s->clear_is_raw ? (uint32_t)v->DepthClearValue : 0;
        break;
    }
    case SPEC_ID_3DSTATE_WM_HZ_OP:
        take_hz_op(s, body);
        break;
    case SPEC_ID_3DSTATE_CONSTANT_PS:
        s->state_constant++;
        stage_constants_take(&s->constants, unit_sim(s->unit), p, &s->bases,
                             &((const struct spec_3DSTATE_CONSTANT_PS *)body)->ConstantBody);
        break;
    case SPEC_ID_3DSTATE_BINDING_TABLE_POINTERS_PS:
        s->kernel.binding_table =
            (uint32_t)((const struct spec_3DSTATE_BINDING_TABLE_POINTERS_PS *)body)
                ->PointerToPSBindingTable;
        break;
    case SPEC_ID_3DSTATE_SAMPLER_STATE_POINTERS_PS:
        s->kernel.sampler_state =
            (uint32_t)((const struct spec_3DSTATE_SAMPLER_STATE_POINTERS_PS *)body)
                ->PointerToPSSamplerState;
        break;
    case SPEC_ID_3DSTATE_CC_STATE_POINTERS:
        s->cc_state_pointer = (uint32_t)((const struct spec_3DSTATE_CC_STATE_POINTERS *)body)
                                  ->ColorCalcStatePointer;
        if (p->gen == 7)
            take_color_calc_gen7(s, p, s->cc_state_pointer);
        break;
    case SPEC_ID_3DSTATE_DEPTH_STENCIL_STATE_POINTERS:
        if (p->gen == 7)
            take_depth_stencil_gen7(s, p,
                ((const struct spec_3DSTATE_DEPTH_STENCIL_STATE_POINTERS *)body)
                    ->PointerToDEPTHSTENCILSTATE);
        else
            s->state_other++;
        break;
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_CC:
        take_cc_viewport(s, p,
                         ((const struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_CC *)body)
                             ->CCViewportPointer);
        break;
    default:
        s->state_other++;
    }
}

/* Whether a state packet goes on to the pixel back ends. */
static bool for_om(uint32_t id)
{
    switch ((enum spec_id)id) {
    case SPEC_ID_3DSTATE_DEPTH_STENCIL_STATE_POINTERS:     /* Gen7: as gathered (see above) */
    case SPEC_ID_3DSTATE_BLEND_STATE_POINTERS:
    case SPEC_ID_3DSTATE_PS_BLEND:
    case SPEC_ID_3DSTATE_CC_STATE_POINTERS:
    case SPEC_ID_3DSTATE_PS:
    case SPEC_ID_3DSTATE_PS_EXTRA:
    case SPEC_ID_3DSTATE_MULTISAMPLE:
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_CC:
    case SPEC_ID_STATE_BASE_ADDRESS:
    case SPEC_ID_3DSTATE_WM_DEPTH_STENCIL:
    case SPEC_ID_3DSTATE_DEPTH_BUFFER:
    case SPEC_ID_3DSTATE_STENCIL_BUFFER:    /* the late depth/stencil test is the back end's */
    case SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER: /* its HiZ upkeep too */
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:    /* Gen4: CC_STATE (units/om/om_gen4.h) */
    case SPEC_ID_3DSTATE_CONSTANT_COLOR:        /* Gen4's blend constant colour */
        return true;
    default:
        return false;
    }
}

/* ---- WM_INT ------------------------------------------------------------------------------ */

/* The depth/stencil enables (L15428-15468) into s->ds; not under WM_HZ_OP. */
static void wm_int_depth_stencil(struct wm *s, uint32_t viewport)
{
    uint32_t vp = viewport < WM_VIEWPORTS ? viewport : 0;
    const struct ds_buffers buffers = {
        .depth_surface = s->depth_surface_type != WM_SURFTYPE_NULL && s->depth.valid,
        .depth_write = s->depth_buffer_write,
        .stencil_valid = s->stencil.valid,
        .stencil_write = s->depth_buffer_stencil_write,
        .cc_valid = s->cc_viewport_valid,
        .cc_min = s->cc_min[vp],
        .cc_max = s->cc_max[vp],
    };
    ds_state_fold(&s->ds_packet, &buffers, &s->ds);
}

/* WM_INT::Pixel Shader Kill Pixel (L15298-15317; chroma key not modelled). */
static bool wm_int_kill_pixel(const struct wm *s)
{
    if (s->force_kill == WM_FORCE_ON)
        return true;
    return s->force_kill != WM_FORCE_OFF && s->edsc != WM_EDSC_PREPS &&
           (s->ds.depth_write || s->ds.stencil_write) &&
           (s->kills_pixel || s->omask_to_rt || s->alpha_to_coverage || s->alpha_test);
}

/* WM_INT::ThreadDispatchEnable (L15259; RT independent rasterization off). */
static bool wm_int_thread_dispatch(const struct wm *s)
{
    if (s->force_dispatch == WM_FORCE_ON)
        return true;
    if (s->force_dispatch == WM_FORCE_OFF || !s->ps_valid)
        return false;
    const struct ds_state *d = &s->ds;
    return (!s->does_not_write_rt && s->has_writeable_rt) || s->has_uav || wm_int_kill_pixel(s) ||
           (s->computed_depth && (d->depth_test || d->depth_write)) ||
           (s->computes_stencil && d->stencil_test) ||
           (s->edsc == WM_EDSC_PSEXEC && (d->depth_test || d->depth_write || d->stencil_test));
}

/* ---- rasterization and early depth/stencil --------------------------------------------- */

static bool covers(const struct setup_primitive *p, int32_t px, int32_t py, bool centre)
{
    return covers_at(p, px, py, centre ? 8 : 0, centre ? 8 : 0);
}

/* Whether the point (px + ox16/16, py + oy16/16) is inside the primitive. */
static bool covers_at(const struct setup_primitive *p, int32_t px, int32_t py, uint32_t ox16,
                      uint32_t oy16)
{
    if (px < p->x_min || px > p->x_max || py < p->y_min || py > p->y_max)
        return false;
    int64_t one = (int64_t)1 << p->subpixel_bits;
    int64_t X = (int64_t)(px - p->x_min) * one + ((one * (int64_t)ox16) >> 4);
    int64_t Y = (int64_t)(py - p->y_min) * one + ((one * (int64_t)oy16) >> 4);
    for (uint32_t e = 0; e < SETUP_MAX_EDGES; e++)
        if (p->edge_a[e] * X + p->edge_b[e] * Y + p->edge_c[e] < 0)
            return false;
    return true;
}

static float plane_at(const struct setup_plane *pl, float dx, float dy)
{
    return pl->a0 + pl->a1 * dx + pl->a2 * dy;
}

struct wm_slot_values {
    float linear[2], perspective[2], depth, w;
};

/* The payload's values at the point (fx, fy) of the screen. */
static void values_at(const struct setup_primitive *p, float fx, float fy, struct wm_slot_values *o)
{
    float dx = fx - p->x0, dy = fy - p->y0;
    float b1 = plane_at(&p->barycentric[0], dx, dy), b2 = plane_at(&p->barycentric[1], dx, dy);
    o->linear[0] = b1;
    o->linear[1] = b2;
    float q0 = (1.0f - b1 - b2) * p->vertex_inverse_w[0], q1 = b1 * p->vertex_inverse_w[1],
          q2 = b2 * p->vertex_inverse_w[2];
    float sum = q0 + q1 + q2;
    o->perspective[0] = sum != 0.0f ? q1 / sum : b1;
    o->perspective[1] = sum != 0.0f ? q2 / sum : b2;
    o->depth = plane_at(&p->depth, dx, dy);
    float iw = plane_at(&p->inverse_w, dx, dy);
    o->w = iw != 0.0f ? 1.0f / iw : 0.0f;
}

/* At pixel (x, y)'s sample point: its centre, or its upper-left corner with
 * Pixel Location UL_CORNER. */
static void slot_values(const struct wm *s, const struct setup_primitive *p, uint32_t x, uint32_t y,
                        struct wm_slot_values *o)
{
    float off = s->pixel_center ? 0.5f : 0.0f;
    values_at(p, (float)x + off, (float)y + off, o);
}

/* Per-sample dispatch: one PS invocation per covered sample (3DSTATE_PS_EXTRA
 * Pixel Shader Is Per Sample, seed 003 L15946ff) when multisample
 * rasterization is on; otherwise the pixel rate. */
static bool wm_per_sample_dispatch(const struct wm *s)
{
    return s->per_sample && wm_ms_raster(s);
}

/* The U0.4 pattern offset (X << 4 | Y) of sample `smp` at the rasterization's
 * sample count. */
static uint8_t sample_offset(const struct wm *s, uint32_t smp)
{
    return s->sample_pattern[log2_samples(s->samples)][smp & 15u];
}

/* The point a slot's centroid barycentrics are evaluated at, as U0.4 offsets
 * from the pixel's upper-left corner (X << 4 | Y): the seed names centroid
 * barycentrics (L16212) but not the rule; the model's (the pixel
 * interpolator's too, units/pi/pi.h): the pixel's sample point when every
 * sample is covered (or at 1x), else the lowest-numbered covered sample; in
 * per-sample dispatch the invocation's sample. */
static uint8_t centroid_offset(const struct wm *s, uint32_t coverage, uint32_t sample1)
{
    uint8_t centre = s->pixel_center ? 0x88 : 0x00;
    if (sample1)
        return sample_offset(s, sample1 - 1);
    if (!wm_ms_raster(s))
        return centre;
    uint32_t all = s->samples >= 16 ? 0xffffu : (1u << s->samples) - 1;
    coverage &= all;
    if (!coverage || coverage == all)
        return centre;
    return sample_offset(s, (uint32_t)__builtin_ctz(coverage));
}

static struct wm_observed_draw *observed_draw(struct wm *s, uint32_t draw)
{
    if (s->draws_seen && s->observed[s->draws_seen - 1].draw == draw)
        return &s->observed[s->draws_seen - 1];
    if (s->draws_seen >= WM_OBSERVED_DRAWS)
        return NULL;
    if (s->draws_seen == s->observed_capacity) {
        s->observed_capacity = s->observed_capacity ? 2 * s->observed_capacity : 64;
        s->observed = gt_xrealloc(s->observed, s->observed_capacity * sizeof *s->observed);
    }
    struct wm_observed_draw *d = &s->observed[s->draws_seen++];
    memset(d, 0, sizeof *d);
    d->draw = draw;
    d->first_cycle = d->last_cycle = unit_cycle(s->unit);
    return d;
}

/* The draw's last activity so far: its cycles run to here. */
static void observed_touch(struct wm *s, struct wm_observed_draw *d)
{
    uint64_t now = unit_cycle(s->unit);
    if (d && now > d->last_cycle)
        d->last_cycle = now;
}

/* The depth buffer slice the primitive tests: an RTAIndex beyond the depth
 * buffer's array (e.g. a header the shader never wrote, with Force Zero RTA
 * Index off) is taken as 0, as an out-of-range render target array index is
 * (a modelling choice: the seed's clamp against the view extent is not
 * spelled out). */
static uint32_t depth_slice(const struct wm *s)
{
    uint32_t slice = s->depth_min_array + s->prim.rt_array_index;
    if (s->depth.slices && slice >= s->depth.slices)
        slice = s->depth_min_array;
    return slice;
}

/* ---- HiZ in rasterization --------------------------------------------------------------- */

static bool hiz_block_same(const struct hiz_block *a, const struct hiz_block *b)
{
    return a->state == b->state && a->min == b->min && a->max == b->max;
}

/* The pixels of block (bx, by) inside the depth surface. */
static uint32_t hiz_block_pixels(const struct wm *s, uint32_t bx, uint32_t by)
{
    uint32_t w = HIZ_BLOCK_WIDTH, h = HIZ_BLOCK_HEIGHT;
    if (s->depth.width && (bx + 1) * HIZ_BLOCK_WIDTH > s->depth.width)
        w = s->depth.width > bx * HIZ_BLOCK_WIDTH ? s->depth.width - bx * HIZ_BLOCK_WIDTH : 0;
    if (s->depth.height && (by + 1) * HIZ_BLOCK_HEIGHT > s->depth.height)
        h = s->depth.height > by * HIZ_BLOCK_HEIGHT ? s->depth.height - by * HIZ_BLOCK_HEIGHT : 0;
    return w * h;
}

/* Writes the row's changed blocks back; a block memory changed meanwhile (the
 * pixel back end's late depth upkeep) is merged (hiz_merge), never lost. */
static void hiz_row_flush(struct wm *s)
{
    if (!s->hiz_row_live)
        return;
    s->hiz_row_live = false;
    for (uint32_t i = 0; i < s->hiz_row_count; i++) {
        struct wm_hiz_entry *e = &s->hiz_row[i];
        if (!e->loaded || !e->readable)
            continue;
        uint32_t bx = s->hiz_row_bx0 + i;
        /* every pixel of the block rewritten by this primitive: its bound is
         * exactly what was written (the bound tightens, not only widens) */
        if (e->written &&
            e->written == hiz_block_pixels(s, bx, s->hiz_row_by) * ds_surface_samples(&s->depth) &&
            e->now.state == HIZ_RANGE) {
            e->now.min = e->written_min;
            e->now.max = e->written_max;
            s->hiz_blocks_tightened++;
        }
        if (hiz_block_same(&e->now, &e->read))
            continue;
        struct hiz_block out = e->now, mem;
        if (hiz_block_read(&s->hiz, &s->as, bx, s->hiz_row_by, s->hiz_row_slice, &mem, NULL) &&
            !hiz_block_same(&mem, &e->read))
            out = hiz_merge(s->depth_format, &e->now, &mem);
        hiz_traffic(s, bx, s->hiz_row_by, s->hiz_row_slice, true, false);
        if (hiz_block_write(&s->hiz, &s->as, bx, s->hiz_row_by, s->hiz_row_slice, &out))
            s->hiz_writes++;
        else
            s->hiz_faults++;
    }
}

/* The entry of block (bx, by) of the primitive's box, read on first use. */
static struct wm_hiz_entry *hiz_entry(struct wm *s, uint32_t bx, uint32_t by, uint32_t slice)
{
    if (!s->hiz_row_live || by != s->hiz_row_by || slice != s->hiz_row_slice) {
        /* a new line row (blocks 2j, 2j + 1): the lines the primitive used
         * before are behind the rasterizer, the lookahead may take them */
        bool new_line_row = !s->hiz_row_live || by / 2u != s->hiz_row_by / 2u ||
                            slice != s->hiz_row_slice;
        hiz_row_flush(s);
        if (new_line_row)
            s->hiz_prim_clock = s->hiz_cache_clock;
        uint32_t bx0 = (uint32_t)s->prim.x_min / HIZ_BLOCK_WIDTH;
        uint32_t count = (uint32_t)s->prim.x_max / HIZ_BLOCK_WIDTH - bx0 + 1;
        if (count > s->hiz_row_capacity) {
            s->hiz_row = gt_xrealloc(s->hiz_row, count * sizeof *s->hiz_row);
            s->hiz_row_capacity = count;
        }
        memset(s->hiz_row, 0, count * sizeof *s->hiz_row);
        s->hiz_row_count = count;
        s->hiz_row_bx0 = bx0;
        s->hiz_row_by = by;
        s->hiz_row_slice = slice;
        s->hiz_row_live = true;
    }
    if (bx < s->hiz_row_bx0 || bx - s->hiz_row_bx0 >= s->hiz_row_count)
        return NULL;
    struct wm_hiz_entry *e = &s->hiz_row[bx - s->hiz_row_bx0];
    if (!e->loaded) {
        bool bad = false;
        e->loaded = true;
        s->hiz_record_reads++;
        hiz_traffic(s, bx, by, slice, false, true);
        e->readable = hiz_block_read(&s->hiz, &s->as, bx, by, slice, &e->read, &bad);
        s->hiz_bad_records += bad;
        if (!e->readable)
            s->hiz_faults++;
        e->now = e->read;
    }
    return e;
}

/* The primitive's source depth over block (bx, by) (the part inside its box),
 * as the format stores it after the CC viewport clamp (L16502): [lo, hi]
 * holds the depth of every pixel the per-pixel test would see. The plane is
 * linear, so its extremes are at the corner pixel centres; the interval is
 * widened by a bound on the float rounding of the per-pixel evaluation
 * (plane_at in float). False when not finite. */
static bool hiz_source_range(const struct wm *s, uint32_t bx, uint32_t by, uint32_t *lo,
                             uint32_t *hi)
{
    const struct setup_primitive *p = &s->prim;
    int64_t xa = (int64_t)bx * HIZ_BLOCK_WIDTH, ya = (int64_t)by * HIZ_BLOCK_HEIGHT;
    int64_t xb = xa + HIZ_BLOCK_WIDTH - 1, yb = ya + HIZ_BLOCK_HEIGHT - 1;
    if (xa < p->x_min)
        xa = p->x_min;
    if (ya < p->y_min)
        ya = p->y_min;
    if (xb > p->x_max)
        xb = p->x_max;
    if (yb > p->y_max)
        yb = p->y_max;
    if (xa > xb || ya > yb)
        return false;
    double off = s->pixel_center ? 0.5 : 0.0;
    /* multisampled depth under pattern rasterization: depth at the sample
     * offsets, anywhere in [0, 1) of the pixel (U0.4: at most 15/16) */
    double off_lo = off, off_hi = off;
    if (ds_surface_samples(&s->depth) > 1 && wm_ms_raster(s)) {
        off_lo = 0.0;
        off_hi = 15.0 / 16.0;
    }
    double a0 = p->depth.a0, a1 = p->depth.a1, a2 = p->depth.a2;
    double dxa = (double)xa + off_lo - p->x0, dxb = (double)xb + off_hi - p->x0;
    double dya = (double)ya + off_lo - p->y0, dyb = (double)yb + off_hi - p->y0;
    double zmin = a0 + fmin(a1 * dxa, a1 * dxb) + fmin(a2 * dya, a2 * dyb);
    double zmax = a0 + fmax(a1 * dxa, a1 * dxb) + fmax(a2 * dya, a2 * dyb);
    double bound = fabs(a0) + fabs(a1) * ((double)xb + 1.0 + fabs((double)p->x0)) +
                   fabs(a2) * ((double)yb + 1.0 + fabs((double)p->y0));
    double margin = 1e-6 * bound + 1e-30;
    zmin -= margin;
    zmax += margin;
    if (!isfinite(zmin) || !isfinite(zmax))
        return false;
    if (s->ds.min_depth <= s->ds.max_depth) {
        zmin = fmin(fmax(zmin, s->ds.min_depth), s->ds.max_depth);
        zmax = fmin(fmax(zmax, s->ds.min_depth), s->ds.max_depth);
    }
    float fl = (float)zmin, fh = (float)zmax;
    if ((double)fl > zmin)
        fl = nextafterf(fl, -INFINITY);
    if ((double)fh < zmax)
        fh = nextafterf(fh, INFINITY);
    *lo = ds_depth_value(s->depth_format, ds_depth_encode(s->depth_format, fl));
    *hi = ds_depth_value(s->depth_format, ds_depth_encode(s->depth_format, fh));
    return true;
}

/* Trivial accept: every (source, stored) pair of the ranges passes the depth
 * function, so no pixel of the block needs its stored depth read (HiZ is
 * there "to reduce memory traffic due to depth buffer accesses", L15779;
 * its effect "invisible other than generally higher performance", L15799).
 * The mirror of hiz_rejects (units/common/depth_stencil.c). */
static bool hiz_accepts(uint32_t function, uint32_t format, const struct hiz_block *b,
                        uint32_t source_min, uint32_t source_max)
{
    if (b->state != HIZ_RANGE && b->state != HIZ_CLEARED)
        return false;
    if (format == DS_D32_FLOAT) {
        float s0 = ds_depth_decode(format, source_min), s1 = ds_depth_decode(format, source_max);
        float d0 = ds_depth_decode(format, b->min), d1 = ds_depth_decode(format, b->max);
        if (isnan(s0) || isnan(s1) || isnan(d0) || isnan(d1))
            return false;
    }
    uint32_t lo = b->min, hi = b->max;
    switch (function) {
    case DS_COMPARE_ALWAYS: return true;
    case DS_COMPARE_LESS: return ds_depth_less(format, source_max, lo);        /* s < d */
    case DS_COMPARE_LEQUAL: return !ds_depth_less(format, lo, source_max);     /* s <= d */
    case DS_COMPARE_GREATER: return ds_depth_less(format, hi, source_min);     /* s > d */
    case DS_COMPARE_GEQUAL: return !ds_depth_less(format, source_min, hi);     /* s >= d */
    case DS_COMPARE_NOTEQUAL:
        return ds_depth_less(format, source_max, lo) || ds_depth_less(format, hi, source_min);
    default: return false;          /* NEVER; EQUAL would need one value everywhere */
    }
}

/* The HiZ test of a block against the primitive (seed 003 L15777-15801: HiZ
 * "reduce[s] memory traffic due to depth buffer accesses", its effect
 * invisible otherwise): the whole block is rejected when every pixel would
 * fail the depth test. Only when the outcome is depth alone: the stencil
 * test off (a depth failure may update stencil, and the stencil test comes
 * first, L16488). */
static void hiz_test(struct wm *s, struct wm_hiz_entry *e, uint32_t bx, uint32_t by)
{
    e->verdict = WM_HIZ_PER_PIXEL;
    if (!s->ds.depth_test || s->ds.stencil_test || s->ds.stencil_write)
        return;
    s->hiz_blocks_tested++;
    if (e->now.state == HIZ_AMBIGUOUS) {
        s->hiz_blocks_unbounded++;
        return;
    }
    uint32_t lo, hi;
    if (!hiz_source_range(s, bx, by, &lo, &hi)) {
        s->hiz_blocks_ambiguous++;
        return;
    }
    if (hiz_rejects(s->ds.depth_function, s->depth_format, &e->now, lo, hi)) {
        e->verdict = WM_HIZ_REJECT;
        s->hiz_blocks_rejected++;
        return;
    }
    if (hiz_accepts(s->ds.depth_function, s->depth_format, &e->now, lo, hi)) {
        e->verdict = WM_HIZ_ACCEPT;
        s->hiz_blocks_accepted++;
        return;
    }
    s->hiz_blocks_ambiguous++;
}

/* A CLEARED block about to be tested or written per pixel: its clear value
 * goes to its pixels first (written through to the HiZ buffer at once so the
 * pixel back end never fills it again over newer depth). */
static void hiz_materialise(struct wm *s, struct wm_hiz_entry *e, uint32_t bx, uint32_t by,
                            uint32_t slice)
{
    s->depth_faults += hiz_fill_depth(&s->depth, s->depth_format, &s->as, bx, by, slice,
                                      e->now.min);
    e->now = (struct hiz_block){ HIZ_RANGE, e->now.min, e->now.min };
    s->hiz_blocks_filled++;
    hiz_traffic(s, bx, by, slice, true, false);
    if (hiz_block_write(&s->hiz, &s->as, bx, by, slice, &e->now)) {
        s->hiz_writes++;
        e->read = e->now;
    } else {
        s->hiz_faults++;
    }
}

/* Early depth/stencil of sample `sample` of a lit pixel (0 on a
 * single-sampled depth buffer); true when it survives. `hiz` (may be NULL):
 * the pixel's HiZ block, widened with the depth written. */
static bool early_test(struct wm *s, uint32_t x, uint32_t y, uint32_t sample, float z,
                       struct wm_hiz_entry *hiz)
{
    const struct setup_primitive *p = &s->prim;
    struct ds_state *d = &s->ds;
    uint32_t slice = depth_slice(s);
    uint32_t depth = 0, stored_depth = 0;
    uint8_t stencil = 0;
    /* a HiZ trivial accept: the pixel passes without its stored depth (read
     * only to keep D24_UNORM_X8_UINT's X8 bits when writing) */
    struct ds_state accepted;
    bool accept = hiz && hiz->verdict == WM_HIZ_ACCEPT;
    if (accept) {
        accepted = *d;
        accepted.depth_function = DS_COMPARE_ALWAYS;
        d = &accepted;
        s->hiz_pixels_accepted++;
    }
    if (d->depth_test && (!accept || (d->depth_write && s->depth_format == DS_D24_UNORM_X8_UINT))) {
        if (!ds_surface_read_sample(&s->depth, &s->as, x, y, sample, slice, &depth)) {
            s->depth_faults++;
            return true;
        }
        stored_depth = depth;
    }
    struct ds_surface st = s->stencil;
    if (s->depth.valid) {
        st.width = s->depth.width;
        st.height = s->depth.height;
    }
    if (d->stencil_test) {
        uint32_t v;
        if (!ds_surface_read_sample(&st, &s->as, x, y, sample, slice, &v)) {
            s->depth_faults++;
            return true;
        }
        stencil = (uint8_t)v;
    }
    uint32_t r = ds_test(d, (p->flags & PRIM_BACK_FACING) != 0, s->depth_format, z, &depth,
                         &stencil);
    if (r & DS_DEPTH_WRITTEN) {
        /* D24_UNORM_X8_UINT keeps the X8 bits as they were */
        if (s->depth_format == DS_D24_UNORM_X8_UINT)
            depth = (stored_depth & 0xff000000u) | (depth & 0xffffffu);
        if (!ds_surface_write_sample(&s->depth, &s->as, x, y, sample, slice, depth))
            s->depth_faults++;
        s->depth_writes++;
        if (hiz) {
            uint32_t v = ds_depth_value(s->depth_format, depth);
            hiz_block_note_write(&hiz->now, s->depth_format, v);
            if (!hiz->written || ds_depth_less(s->depth_format, v, hiz->written_min))
                hiz->written_min = v;
            if (!hiz->written || ds_depth_less(s->depth_format, hiz->written_max, v))
                hiz->written_max = v;
            hiz->written++;
        }
    }
    if (r & DS_STENCIL_WRITTEN) {
        if (!ds_surface_write_sample(&st, &s->as, x, y, sample, slice, stencil))
            s->depth_faults++;
        s->stencil_writes++;
    }
    struct wm_observed_draw *od = observed_draw(s, p->draw);
    if (r & DS_STENCIL_FAILED) {
        s->pixels_stencil_failed++;
        if (od)
            od->pixels_stencil_rejected++;
    }
    if (r & DS_DEPTH_FAILED) {
        s->pixels_depth_failed++;
        if (od)
            od->pixels_depth_rejected++;
    }
    return (r & DS_PASS) != 0;
}

/* Polygon stipple (L15560-15580): with Polygon Stipple Enable, a triangle
 * of the topologies it applies to (SF's PRIM_NO_POLY_STIPPLE clear;
 * rectangles never) keeps pixel (x, y) when bit 31 - ((x - X Offset) mod 32)
 * of pattern row (y - Y Offset) mod 32 is set (row 1 top most, bit 31 its
 * left pixel: 3DSTATE_POLY_STIPPLE_PATTERN, seed 000 L109-113; the offsets
 * put the pattern's upper-left corner at (X, Y) Offset from the colour
 * buffer's origin). Returns the mask of the subspan's pixels kept. */
static uint32_t poly_stipple(struct wm *s, uint32_t mask)
{
    const struct setup_primitive *p = &s->prim;
    if (!s->poly_stipple || p->topology != PRIM_TRILIST || (p->flags & PRIM_NO_POLY_STIPPLE))
        return mask;
    uint32_t kept = mask;
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t x = (uint32_t)s->sx + (i & 1u), y = (uint32_t)s->sy + (i >> 1);
        uint32_t row = s->stipple_rows[(y + 32u - s->stipple_y) & 31u];
        if (!((row >> (31u - ((x + 32u - s->stipple_x) & 31u))) & 1u)) {
            kept &= ~(1u << i);
            s->pixels_stippled++;
        }
    }
    return kept;
}

/* Line stipple (L15532-15546): with Line Stipple Enable, a pixel of a
 * legacy line (diamond or non-antialiased wide: Table 2's "Legacy Lines",
 * L15625-15628) is kept when bit floor(s / r) mod 16 of the pattern is set,
 * s its position along the line from the line's counter base (wm_line.h).
 * Returns the mask of the subspan's pixels kept. */
static uint32_t line_stipple(struct wm *s, uint32_t mask)
{
    if (!s->line_stippling)
        return mask;
    uint32_t kept = mask;
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        int64_t m = s->line_x_major ? s->sx + (int32_t)(i & 1u) : s->sy + (int32_t)(i >> 1);
        int64_t index = (m - s->line_first) * s->line_step;
        if (index < 0)
            index = 0;              /* outside the counted positions: not expected */
        if (index >= s->line_count)
            index = s->line_count - 1;
        if (!wm_line_stipple_keep(s->line_stipple_pattern, s->line_stipple_repeat,
                                  s->line_base + (uint64_t)index)) {
            kept &= ~(1u << i);
            s->pixels_line_stippled++;
        }
    }
    return kept;
}

/* Antialiased lines (L14978-14992): each lit pixel's coverage at its sample
 * point, counted, as U0.8 into aa_alpha[] (rounded; the thread carries it to
 * the render cache, thread_msg.h aa_alpha). */
static void aa_line_coverage(struct wm *s, uint32_t mask, uint8_t aa_alpha[4])
{
    const struct setup_primitive *p = &s->prim;
    if (p->line_mode != SETUP_LINE_AA_RECTANGLE)
        return;
    double off = s->pixel_center ? 0.5 : 0.0;
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        float c = wm_line_aa_coverage(p, s->sx + (int32_t)(i & 1u) + off,
                                      s->sy + (int32_t)(i >> 1) + off);
        c = c > 1.0f ? 1.0f : c < 0.0f ? 0.0f : c;
        aa_alpha[i] = (uint8_t)lrintf(c * 255.0f);
        s->aa_line_pixels++;
        if (c < 1.0f)
            s->aa_line_partial++;
    }
}

/* Rasterizes the subspan at (sx, sy): true (and *out) when a pixel is left
 * for the PS. */
static bool raster_subspan(struct wm *s, struct subspan *out)
{
    const struct setup_primitive *p = &s->prim;
    uint32_t mask = 0, samples[4] = { 0 };
    for (uint32_t i = 0; i < 4; i++) {
        samples[i] = pixel_sample_coverage(s, p, s->sx + (int32_t)(i & 1u),
                                           s->sy + (int32_t)(i >> 1));
        if (samples[i])
            mask |= 1u << i;
    }
    s->subspans++;
    mask = poly_stipple(s, mask);
    mask = line_stipple(s, mask);
    /* Sample Mask = the enables of the sample count & 3DSTATE_SAMPLE_MASK
     * (L15349-15367): at 1x, sample 0's bit; a pixel none of whose covered
     * samples is enabled is dropped */
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        samples[i] &= s->sample_mask;
        if (!samples[i]) {
            s->pixels_sample_masked++;
            mask &= ~(1u << i);
        }
    }
    if (!mask)
        return false;
    s->subspans_lit++;
    uint32_t lit = popcount32(mask);
    s->pixels_rasterized += lit;
    struct wm_observed_draw *od = observed_draw(s, p->draw);
    if (od)
        od->pixels_rasterized += lit;
    uint8_t aa_alpha[4] = { 0 };
    aa_line_coverage(s, mask, aa_alpha);
    /* PS_INVOCATION_COUNT: "once for each unmasked pixel (or sample) that is
     * dispatched" (L15695-15699): per-sample dispatch counts each covered
     * sample it will shade; early kills still count */
    if (s->dispatch_on && s->statistics) {
        if (wm_per_sample_dispatch(s)) {
            for (uint32_t i = 0; i < 4; i++)
                if (mask & (1u << i))
                    s->ps_invocations += popcount32(samples[i] & ((1u << (s->samples > 16 ? 16
                                                                        : s->samples)) - 1u));
        } else {
            s->ps_invocations += lit;
        }
    }
    memset(out, 0, sizeof *out);
    out->x = (uint16_t)s->sx;
    out->y = (uint16_t)s->sy;
    memcpy(out->aa_alpha, aa_alpha, sizeof out->aa_alpha);
    bool tested = s->ds.depth_test || s->ds.stencil_test || s->ds.depth_write;
    /* late: the pixel back end tests the thread's pixels (om_depth.h) and
     * reports the passes in the thread end (PS_DEPTH_COUNT, per draw) */
    bool late = tested && !s->early;
    if (late)
        s->late_pixels += lit;
    /* HiZ (L15777-15801): a subspan lies in one 8x4 block */
    struct wm_hiz_entry *hiz = NULL;
    if (s->early && s->hiz_active) {
        uint32_t bx = (uint32_t)s->sx / HIZ_BLOCK_WIDTH, by = (uint32_t)s->sy / HIZ_BLOCK_HEIGHT;
        uint32_t slice = depth_slice(s);
        struct wm_hiz_entry *e = hiz_entry(s, bx, by, slice);
        if (e && e->readable) {
            if (e->verdict == WM_HIZ_UNTESTED)
                hiz_test(s, e, bx, by);
            if (e->verdict == WM_HIZ_REJECT) {
                /* depth failures count samples on a multisampled buffer,
                 * as the per-sample test below does */
                uint32_t failed = lit;
                if (ds_surface_samples(&s->depth) > 1) {
                    failed = 0;
                    for (uint32_t i = 0; i < 4; i++)
                        if (mask & (1u << i))
                            failed += popcount32(samples[i] & 0xffffu);
                }
                s->pixels_depth_failed += failed;
                s->hiz_pixels_rejected += failed;
                if (od) {
                    od->pixels_depth_rejected += failed;
                    od->pixels_hiz_rejected += failed;
                }
                observed_touch(s, od);
                s->subspans_rejected++;
                return false;
            }
            if (e->now.state == HIZ_CLEARED)
                hiz_materialise(s, e, bx, by, slice);
            hiz = e;
        }
    }
    /* a multisampled depth/stencil buffer: "nX output merge", each covered
     * sample tested against its own stored values, its depth evaluated "at
     * Sample Offsets" under pattern rasterization, else "at Pixel Location"
     * (Table 3, L15658-15667); the pixel's coverage keeps the samples that
     * pass, the pixel lives while one does. PS_DEPTH_COUNT counts samples
     * then ("each pixel (or sample) that passes", L16766; "# of visible
     * multisamples", L11050), as the per-draw passes do. */
    bool multisampled = ds_surface_samples(&s->depth) > 1;
    uint32_t passed = 0;
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t x = (uint32_t)s->sx + (i & 1u), y = (uint32_t)s->sy + (i >> 1);
        struct wm_slot_values v;
        slot_values(s, p, x, y, &v);
        out->depth[i] = v.depth;
        if (!multisampled) {
            if (tested && s->early && !early_test(s, x, y, 0, v.depth, hiz))
                mask &= ~(1u << i);
            else
                passed++;
            continue;
        }
        samples[i] &= 0xffffu;
        if (tested && s->early) {
            uint32_t kept = 0;
            for (uint32_t smp = 0; smp < 16; smp++) {
                if (!(samples[i] & (1u << smp)))
                    continue;
                float z = v.depth;
                if (wm_ms_raster(s)) {
                    uint8_t pos = sample_offset(s, smp);
                    struct wm_slot_values at;
                    values_at(p, (float)x + (float)(pos >> 4) / 16.0f,
                              (float)y + (float)(pos & 0xfu) / 16.0f, &at);
                    z = at.depth;
                }
                if (early_test(s, x, y, smp, z, hiz))
                    kept |= 1u << smp;
            }
            samples[i] = kept;
            if (!kept)
                mask &= ~(1u << i);
        }
        passed += popcount32(samples[i]);
    }
    if (s->statistics && !late)
        s->ps_depth += passed;          /* L16766 */
    if (od && !late)
        od->pixels_passed += passed;
    observed_touch(s, od);
    if (!mask) {
        s->subspans_rejected++;
        return false;
    }
    out->pixel_mask = (uint16_t)mask;
    for (uint32_t i = 0; i < 4; i++)
        out->sample_mask[i] = (mask & (1u << i)) ? samples[i] : 0;
    return s->dispatch_on;
}

/* ---- dispatch ---------------------------------------------------------------------------- */

/* The KSP a dispatch width runs (Variable Pixel Dispatch, L16013-16024). */
static uint32_t ksp_index(const struct wm *s, uint32_t width)
{
    uint32_t enables = (s->enable32 ? 4u : 0u) | (s->enable16 ? 2u : 0u) | (s->enable8 ? 1u : 0u);
    if (popcount32(enables) == 1)
        return 0;
    if (width == 8)
        return 0;
    return width == 32 ? 1 : 2;
}

/* The dispatch width for n pending subspans (L16038-16044). */
static uint32_t choose_width(const struct wm *s, uint32_t n)
{
    uint32_t w;
    if (s->enable32 && n > 7)
        w = 32;
    else if (s->enable16 && (n > 2 || !s->enable8))
        w = 16;
    else
        w = 8;
    bool on = w == 32 ? s->enable32 : w == 16 ? s->enable16 : s->enable8;
    if (on)
        return w;
    /* the rule picked a width not enabled (only SIMD32 enabled and n < 8):
     * the narrowest enabled width that holds n, else the widest */
    static const uint32_t widths[3] = { 8, 16, 32 };
    uint32_t widest = 8;
    for (uint32_t i = 0; i < 3; i++) {
        bool e = widths[i] == 32 ? s->enable32 : widths[i] == 16 ? s->enable16 : s->enable8;
        if (!e)
            continue;
        if (widths[i] / 4u >= n)
            return widths[i];
        widest = widths[i];
    }
    return widest;
}

static uint32_t group_max(const struct wm *s)
{
    return s->enable32 ? 8u : s->enable16 ? 4u : 2u;
}

static void put_f(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t total, uint32_t reg, uint32_t dw,
                  float v)
{
    if (reg < total)
        memcpy(&grf[reg][4 * dw], &v, 4);
}

static void put_u(uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t total, uint32_t reg, uint32_t dw,
                  uint32_t v)
{
    if (reg < total)
        memcpy(&grf[reg][4 * dw], &v, 4);
}

/* The primitive's part of a PS thread's context (thread_msg.h: draw, late
 * depth/stencil, viewport and RT array index, the planes for the pixel back
 * end's source depth and the pixel interpolator). */
static void fill_pixel_context(const struct wm *s, struct eu_thread_context *c)
{
    const struct setup_primitive *p = &s->prim;
    bool tested = s->ds.depth_test || s->ds.stencil_test || s->ds.depth_write;
    c->draw = p->draw + 1;          /* numbered from 1 (thread_msg.h) */
    c->pixel_flags = (uint8_t)(((p->flags & PRIM_BACK_FACING) ? EU_PIXEL_BACK_FACING : 0) |
                               (tested && !s->early ? EU_PIXEL_LATE_DEPTH_STENCIL : 0));
    c->viewport_index = (uint8_t)(p->viewport_index & 0xfu);
    c->rt_array_index = (uint16_t)(p->rt_array_index & 0x7ffu);
    struct eu_pixel_setup *e = &c->setup;
    e->x0 = p->x0;
    e->y0 = p->y0;
    e->offset = s->pixel_center ? 0.5f : 0.0f;
    e->depth[0] = p->depth.a0;
    e->depth[1] = p->depth.a1;
    e->depth[2] = p->depth.a2;
    for (uint32_t i = 0; i < 2; i++) {
        e->barycentric[i][0] = p->barycentric[i].a0;
        e->barycentric[i][1] = p->barycentric[i].a1;
        e->barycentric[i][2] = p->barycentric[i].a2;
    }
    for (uint32_t i = 0; i < 3; i++)
        e->vertex_inverse_w[i] = p->vertex_inverse_w[i];
    /* the positions multisample rasterization used (1x: the 1x pattern) */
    uint32_t samples = wm_ms_raster(s) ? s->samples : 1;
    if (samples > 16)
        samples = 16;
    unsigned l = log2_samples(samples);
    c->sample_count = (uint8_t)samples;
    for (uint32_t i = 0; i < samples; i++)
        c->sample_position[i] = s->sample_pattern[l][i];
}

/* Sends a PS dispatch of pending[0..n) built in flight slot f, and keeps
 * its scoreboard entries and counts. */
static void dispatch_send(struct wm *s, struct msg *m, uint32_t f, uint32_t width, uint32_t n)
{
    const struct setup_primitive *p = &s->prim;
    stage_threads_send(&s->threads, s->unit, m);

    struct wm_flight *fl = &s->flight[f];
    fl->count = n;
    fl->late_statistics = s->statistics;
    fl->draw_slot = ~0u;
    for (uint32_t i = 0; i < n; i++) {
        fl->key[i] = sb_key(s->pending[i].x, s->pending[i].y);
        sb_add(s, fl->key[i]);
        s->pixels_shaded += popcount32(s->pending[i].pixel_mask & 0xfu);
    }
    if (width == 8)
        s->threads8++;
    else if (width == 16)
        s->threads16++;
    else
        s->threads32++;
    struct wm_observed_draw *od = observed_draw(s, p->draw);
    if (od) {
        od->threads++;
        for (uint32_t i = 0; i < n; i++)
            od->pixels_shaded += popcount32(s->pending[i].pixel_mask & 0xfu);
        fl->draw_slot = (uint32_t)(od - s->observed);
    }
    memmove(s->pending, s->pending + n, (s->pending_count - n) * sizeof s->pending[0]);
    memmove(s->pending_sample, s->pending_sample + n, (s->pending_count - n) * sizeof s->pending_sample[0]);
    s->pending_count -= n;
}

/* ---- Gen4 (wm_gen4.h) ------------------------------------------------------------------ */

/* WM_STATE and CC_STATE (read by wm_gen4_take) into the fields the
 * rasterizer, early depth and dispatch use (seed 001 L14825-15463): one
 * kernel for every width, no barycentric phases (Gen4's PS interpolates
 * from the setup data itself), the depth/stencil state from CC_STATE. */
static void apply_wm_state_gen4(struct wm *s)
{
    const struct wm_gen4 *g = &s->gen4;
    const struct spec_WM_STATE *w = &g->wm;
    s->state_wm++;
    s->gen4_mode = true;
    struct stage_kernel *k = &s->kernel;
    k->binding_table_entries = w->BindingTableEntryCount;
    k->scratch_base = w->ScratchSpaceBasePointer;
    k->per_thread_scratch = w->PerThreadScratchSpace;
    k->max_threads = w->MaximumNumberOfThreads + 1;
    k->priority = w->ThreadPriority;
    k->alternate_fp = w->FloatingPointMode == 1;
    k->illegal_opcode_exception = w->IllegalOpcodeExceptionEnable;
    k->software_exception = w->SoftwareExceptionEnable;
    k->sampler_state = (uint32_t)w->SamplerStatePointer;
    for (uint32_t i = 0; i < 3; i++) {
        s->ksp[i] = w->KernelStartPointer0;
        s->grf_start[i] = w->DispatchGRFStartRegisterForConstantSetupData0;
    }
    s->enable8 = w->_8PixelDispatchEnable;
    s->enable16 = w->_16PixelDispatchEnable;
    s->enable32 = false;
    if (w->_32PixelDispatchEnable) {
        s->gen4_simd32_refused++;
        warn_once(s, WARN_GEN4, "Gen4 32-pixel dispatch not modelled: SIMD16/8 used when enabled");
    }
    s->ps_valid = g->wm_valid && w->ThreadDispatchEnable;
    s->has_writeable_rt = true;
    s->does_not_write_rt = s->has_uav = false;
    s->kills_pixel = w->PixelShaderKillsPixel;
    s->computed_depth = w->PixelShaderComputedDepth;
    s->uses_source_depth = w->PixelShaderUsesSourceDepth;
    s->uses_source_w = s->uses_coverage_mask = s->per_sample = s->computes_stencil = false;
    s->attribute_enable = s->ps_attribute_enable = s->push_constants = s->omask_to_rt = false;
    s->barycentric_modes = 0;
    s->position_offset_select = 0;
    s->statistics = w->StatisticsEnable;
    s->poly_stipple = w->PolygonStippleEnable;
    /* Early Depth Test Enable clear: the colour calculator tests after the PS */
    s->edsc = w->EarlyDepthTestEnable && !s->force_late_depth ? WM_EDSC_NORMAL : WM_EDSC_PSEXEC;
    s->force_dispatch = s->force_kill = WM_FORCE_NORMAL;
    s->alpha_test = g->cc.AlphaTestEnable;
    s->alpha_to_coverage = false;
    s->samples = 1;
    s->sample_mask = 1;
    s->pixel_center = true;
    s->ms_raster_enable = false;
    gen4_cc_depth_stencil(&g->cc, &s->ds_packet);
    s->cc_viewport_valid = g->cc_viewport_valid;
    for (uint32_t i = 0; i < WM_VIEWPORTS; i++) {
        s->cc_min[i] = g->cc_min;
        s->cc_max[i] = g->cc_max;
    }
    s->cc_state_pointer = g->cc_pointer;
}

/* Gen4's 3DSTATE_DEPTH_BUFFER (units/common/gen4_cc.h): X, Y or linear,
 * no write enable of its own (CC_STATE's decides), the stencil interleaved
 * in D24_UNORM_S8_UINT (its byte 3). */
static void take_depth_buffer_gen4(struct wm *s, const struct spec_3DSTATE_DEPTH_BUFFER *v)
{
    s->state_depth++;
    uint32_t format;
    bool ok = gen4_depth_buffer(v, &s->depth, &s->stencil, &format);
    s->depth_surface_type = v->SurfaceType;
    s->depth_format = format;
    s->depth_buffer_write = true;
    s->depth_buffer_stencil_write = s->stencil.valid;   /* D24S8's byte 3 (gen4_cc.h) */
    s->depth_min_array = v->MinimumArrayElement;
    s->hiz_enable = false;
    if (!ok) {
        s->bad_depth_buffer++;
        warn_once(s, WARN_DEPTH, "Gen4 depth buffer format %u, pitch %u, LOD %u not modelled: "
                  "depth tests pass", v->SurfaceFormat, v->SurfacePitch + 1, v->LOD);
    }
}

/* A Gen4 packet WM takes in its Gen4 form; false: the common handling. */
static bool take_state_gen4(struct wm *s, const struct cs_state_packet *p)
{
    const void *body = cs_state_common(p);
    if (p->id == SPEC_ID_3DSTATE_DEPTH_BUFFER) {
        take_depth_buffer_gen4(s, body);
        return true;
    }
    switch (wm_gen4_take(&s->gen4, unit_sim(s->unit), p)) {
    case WM_GEN4_BASES:
        /* Gen4 kernel pointers are offsets from General State Base (L14841) */
        stage_bases_take(&s->bases, body);
        s->bases.instruction = s->bases.general;
        s->bases.dynamic = s->bases.general;
        return true;
    case WM_GEN4_POINTERS:
        apply_wm_state_gen4(s);
        return true;
    case WM_GEN4_BINDING_TABLE:
        s->kernel.binding_table = s->gen4.ps_binding_table;
        return true;
    case WM_GEN4_CONSTANTS:
        s->state_constant++;
        return true;
    case WM_GEN4_NONE:
    default:
        return false;
    }
}

/* Hands the finished primitive's setup entry back (its one reference). */
static void setup_entry_release(struct wm *s)
{
    if (!s->deref_pending)
        return;
    if (!s->urb || !port_can_send(s->urb))
        return;
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *u = (struct urb_msg *)m->payload;
    memset(u, 0, sizeof *u);
    u->op = URB_OP_DEREFERENCE;
    u->client = URB_CLIENT_SF;
    u->count = 1;
    u->handles[0] = s->deref_handle;
    port_try_send(s->urb, m);
    s->deref_pending = false;
    s->gen4_derefs++;
}

/* The setup URB rows WM_STATE asks for (Setup URB Entry Read Offset /
 * Length, L14981-15000) of the primitive's setup entry: true when they are
 * in s->setup_data (or none are to be read). */
static bool setup_rows_ready(struct wm *s, const struct setup_primitive *p)
{
    const struct spec_WM_STATE *w = &s->gen4.wm;
    if (s->setup_phase == WM_SETUP_IDLE) {
        memset(s->setup_data, 0, sizeof s->setup_data);
        s->setup_rows = 0;
        if (s->deref_pending) {
            setup_entry_release(s);
            if (s->deref_pending)
                return false;   /* the previous entry's release first */
        }
        if (!p->setup_urb_rows)
            return true;
        uint32_t offset = w->SetupURBEntryReadOffset, length = w->SetupURBEntryReadLength;
        if (length > WM_GEN4_SETUP_ROWS)
            length = WM_GEN4_SETUP_ROWS;
        uint32_t avail = p->setup_urb_rows > offset ? p->setup_urb_rows - offset : 0;
        if (length > avail || !s->urb || !s->urb_reply) {
            s->gen4_setup_unread++;         /* rows beyond the entry, or no URB: zeros */
            warn_once(s, WARN_GEN4, "setup URB rows beyond the SF entry or no \"urb\" port: "
                      "zeros in the PS payload");
            if (length > avail)
                length = avail;
        }
        if (!length || !s->urb || !s->urb_reply)
            return true;
        s->setup_rows = length;
        s->setup_phase = WM_SETUP_SEND;
    }
    if (s->setup_phase == WM_SETUP_SEND) {
        if (!port_can_send(s->urb))
            return false;
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
        struct urb_msg *u = (struct urb_msg *)m->payload;
        memset(u, 0, sizeof *u);
        u->op = URB_OP_READ;
        u->client = URB_CLIENT_SF;
        u->tag = ++s->setup_tag;
        u->count = 1;
        u->handles[0] = p->setup_urb_handle;
        u->row = w->SetupURBEntryReadOffset;
        u->rows = s->setup_rows;
        port_try_send(s->urb, m);
        s->gen4_setup_reads++;
        s->setup_phase = WM_SETUP_WAIT;
    }
    struct msg *m;
    while ((m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *u = (const struct urb_msg *)m->payload;
        bool ok = m->kind == MSG_URB && m->size >= sizeof *u && u->op == URB_OP_DATA &&
                  u->tag == s->setup_tag &&
                  m->size >= sizeof *u + (size_t)u->rows * URB_ROW_BYTES;
        if (!ok) {
            s->gen4_bad_urb++;
            msg_free(unit_sim(s->unit), m);
            continue;
        }
        uint32_t rows = u->rows < s->setup_rows ? u->rows : s->setup_rows;
        if (rows < s->setup_rows)
            s->gen4_bad_urb++;
        memcpy(s->setup_data, u->data, (size_t)rows * URB_ROW_BYTES);
        s->gen4_setup_rows += rows;
        s->setup_rows = rows;
        msg_free(unit_sim(s->unit), m);
        s->setup_phase = WM_SETUP_IDLE;
        return true;
    }
    return false;
}

/* A Gen4 PS dispatch of pending[0..n) (wm_gen4.h payload). */
static void dispatch_group_gen4(struct wm *s, uint32_t width, uint32_t n)
{
    struct wm_gen4_dispatch in = {
        .prim = &s->prim, .subspans = s->pending, .n = n, .width = width,
        .thread_count = ++s->gen4_threads,
        .setup = (const uint8_t (*)[EU_MSG_REG_BYTES])s->setup_data, .setup_rows = s->setup_rows,
    };
    uint32_t first;
    bool bad_start;
    uint32_t total = wm_gen4_payload_regs(&s->gen4, &in, &first, &bad_start);
    if (bad_start) {
        s->bad_grf_start++;
        warn_once(s, WARN_GRF, "Gen4 Dispatch GRF Start Register inside the payload header: "
                  "moved past it");
    }
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        s->payload_truncated++;
        total = THREAD_PAYLOAD_MAX_REGS;
    }
    struct stage_kernel k = s->kernel;
    k.kernel_start = s->ksp[0];
    k.simd = width;
    /* the dispatch mask: every pixel of a subspan with a lit pixel (L18357) */
    uint32_t dmask = (1u << (4u * n)) - 1u;
    uint32_t f = s->flight_free[--s->flight_free_count];
    struct msg *m = stage_threads_new(&s->threads, s->unit, &k, &s->bases, &s->space, total, dmask, f);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    wm_gen4_payload(&s->gen4, &in, d->grf, total, first);
    d->ctx.subspans = (uint8_t)n;
    d->ctx.pixel_mask = 0;
    for (uint32_t kx = 0; kx < n; kx++) {
        d->ctx.pixel_x[kx] = s->pending[kx].x;
        d->ctx.pixel_y[kx] = s->pending[kx].y;
        d->ctx.pixel_mask |= (uint32_t)(s->pending[kx].pixel_mask & 0xfu) << (4 * kx);
    }
    fill_pixel_context(s, &d->ctx);
    dispatch_send(s, m, f, width, n);
}

/* Builds and sends the dispatch of pending[0..n) at width `width`. */
/* The render cache's per-pixel sample coverage (thread_msg.h) under
 * multisampling: each covered sample of a lit pixel gets the colour. */
static void wm_dispatch_sample_masks(const struct wm *s, struct eu_dispatch *d, uint32_t n)
{
    if (s->samples <= 1)
        return;
    d->ctx.sample_masks_valid = 1;
    for (uint32_t kx = 0; kx < n && kx < 8; kx++)
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t smp1 = s->pending_sample[kx];
            bool lit = (s->pending[kx].pixel_mask >> i) & 1u;
            /* a per-sample invocation writes its own sample only */
            d->ctx.sample_mask[4 * kx + i] =
                (uint16_t)(smp1 ? (lit ? 1u << (smp1 - 1) : 0u) : s->pending[kx].sample_mask[i]);
        }
}

static void dispatch_group(struct wm *s, uint32_t width, uint32_t n)
{
    if (s->gen4_mode) {
        dispatch_group_gen4(s, width, n);
        return;
    }
    const struct setup_primitive *p = &s->prim;
    uint32_t ksp = ksp_index(s, width);
    uint32_t slots_per_half = width == 8 ? 8u : 16u, groups8 = slots_per_half / 8u;
    uint32_t halves = width == 32 ? 2u : 1u;
    uint32_t modes = popcount32(s->barycentric_modes);
    uint32_t per_half = modes * 2u * groups8 + (s->uses_source_depth ? groups8 : 0) +
                        (s->uses_source_w ? groups8 : 0) + (s->position_offset_select ? 1u : 0) +
                        (s->uses_coverage_mask ? groups8 : 0);
    uint32_t first_phase = width == 32 ? 3u : 2u;
    uint32_t payload_end = first_phase + per_half * halves;
    uint32_t first = s->grf_start[ksp];
    if (first < payload_end) {
        s->bad_grf_start++;
        warn_once(s, WARN_GRF, "Dispatch GRF Start Register For Constant/Setup Data %u is inside "
                  "the %u-register SIMD%u payload: R%u used", first, payload_end, width,
                  payload_end);
        first = payload_end;
    }
    uint32_t constant_regs = s->push_constants ? s->constants.regs : 0;
    uint32_t setup_reg = first + constant_regs;
    uint32_t attrs = (s->attribute_enable || s->ps_attribute_enable) ? p->attribute_count : 0;
    if (attrs > SETUP_MAX_ATTRIBUTES)
        attrs = SETUP_MAX_ATTRIBUTES;
    uint32_t total = setup_reg + 2u * attrs;
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        s->payload_truncated++;
        total = THREAD_PAYLOAD_MAX_REGS;
    }

    struct stage_kernel k = s->kernel;
    k.kernel_start = s->ksp[ksp];
    k.simd = width;
    uint32_t dmask = n >= 8 ? 0xffffffffu : (1u << (4u * n)) - 1u;
    uint32_t f = s->flight_free[--s->flight_free_count];
    struct msg *m = stage_threads_new(&s->threads, s->unit, &k, &s->bases, &s->space, total, dmask, f);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[EU_MSG_REG_BYTES] = d->grf;

    /* Starting Sample Pair Index (R0.0[7:6], L16149; per-sample dispatch,
     * L16060-16096): the first group's sample over two. The groups are laid
     * out in the seed's table order (split_next_sample) and every dispatch
     * takes a power-of-two count of them from a subspan boundary, or G of a
     * subspan's N > G samples with G the same for the subspan's dispatches,
     * so the first group's sample is 0 or a multiple of G (even): SSPI =
     * sample / 2 (SIMD8 4x: 0, 1; SIMD8 8x: 0-3; SIMD16 8x: 0, 2; 16x up to
     * 7, its bit 2 in R0.0 bit 8, "reserved for expansion of" SSPI, L16148) */
    uint32_t sspi = s->pending_sample[0] ? ((uint32_t)s->pending_sample[0] - 1u) / 2u : 0;
    if (sspi)
        s->sample_pair_dispatches++;
    /* R0 (L16108ff) */
    uint32_t r00 = (p->viewport_index & 0xfu) << 27 | (p->rt_array_index & 0x7ffu) << 16 |
                   ((p->flags & PRIM_BACK_FACING) ? 1u << 15 : 0) |
                   (s->computed_depth ? 1u << 13 : 0) | (s->omask_to_rt ? 1u << 12 : 0) |
                   (sspi & 7u) << 6 | (p->topology & 0x1fu);
    put_u(grf, total, 0, 0, r00);
    put_u(grf, total, 0, 1, s->cc_state_pointer & ~0x3fu);
    put_u(grf, total, 0, 6, d->request_id & 0xffffffu);
    /* R1 / R2: subspan positions and pixel masks; sample ids 0 at 1x */
    for (uint32_t h = 0; h < halves; h++) {
        uint32_t mask = 0, sample_ids = 0;
        for (uint32_t j = 0; j < 4; j++) {
            uint32_t kx = 4 * h + j;
            if (kx >= n)
                break;
            put_u(grf, total, 1 + h, 2 + j,
                  (uint32_t)s->pending[kx].x | (uint32_t)s->pending[kx].y << 16);
            mask |= (uint32_t)(s->pending[kx].pixel_mask & 0xfu) << (4 * j);
            /* SampleID of the subspan (R1.0 / R2.0, 4 bits each, L16165-16192):
             * the invocation's sample in per-sample dispatch, else 0 */
            if (s->pending_sample[kx])
                sample_ids |= ((uint32_t)s->pending_sample[kx] - 1u) << (4 * j);
        }
        put_u(grf, total, 1 + h, 0, sample_ids);
        put_u(grf, total, 1 + h, 7, mask << 16 | mask);
    }
    /* the render cache's view of the thread's subspans (thread_msg.h): a
     * headerless RT write takes its pixels' positions from it */
    d->ctx.subspans = (uint8_t)n;
    d->ctx.pixel_mask = 0;
    for (uint32_t kx = 0; kx < n && kx < 8; kx++) {
        d->ctx.pixel_x[kx] = s->pending[kx].x;
        d->ctx.pixel_y[kx] = s->pending[kx].y;
        d->ctx.pixel_mask |= (uint32_t)(s->pending[kx].pixel_mask & 0xfu) << (4 * kx);
    }
    /* antialiased lines: each pixel's coverage goes with the thread to the
     * render cache (thread_msg.h aa_alpha; L14992) */
    if (s->prim.line_mode == SETUP_LINE_AA_RECTANGLE) {
        d->ctx.aa_alpha_valid = 1;
        for (uint32_t kx = 0; kx < n && kx < 8; kx++)
            memcpy(&d->ctx.aa_alpha[4 * kx], s->pending[kx].aa_alpha, 4);
    }
    fill_pixel_context(s, &d->ctx);
    wm_dispatch_sample_masks(s, d, n);
    if (s->pending_sample[0]) {
        d->ctx.pixel_flags |= EU_PIXEL_PER_SAMPLE;
        d->ctx.starting_sample_pair = (uint8_t)sspi;
    }
    /* the per-slot phases */
    for (uint32_t h = 0; h < halves; h++) {
        uint32_t base = first_phase + h * per_half;
        for (uint32_t j = 0; j < slots_per_half; j++) {
            uint32_t kx = 4 * h + j / 4, pixel = j % 4;
            if (kx >= n)
                continue;
            const struct subspan *ss = &s->pending[kx];
            uint32_t px = ss->x + (pixel & 1u), py = ss->y + (pixel >> 1);
            uint32_t smp1 = s->pending_sample[kx];
            /* pixel location (modes 0, 3), centroid (1, 4), sample (2, 5):
             * the sample point is the invocation's sample in per-sample
             * dispatch, else the pixel's own sample point */
            struct wm_slot_values at[3];
            slot_values(s, p, px, py, &at[0]);
            uint8_t centroid = centroid_offset(s, ss->sample_mask[pixel], smp1);
            values_at(p, (float)px + (float)(centroid >> 4) / 16.0f,
                      (float)py + (float)(centroid & 0xfu) / 16.0f, &at[1]);
            uint8_t sample_point = smp1 ? sample_offset(s, smp1 - 1) : (s->pixel_center ? 0x88 : 0);
            if (smp1)
                values_at(p, (float)px + (float)(sample_point >> 4) / 16.0f,
                          (float)py + (float)(sample_point & 0xfu) / 16.0f, &at[2]);
            else
                at[2] = at[0];
            /* source depth and W at the invocation's sample (per-sample
             * dispatch), else at the pixel's sample point */
            const struct wm_slot_values v = at[smp1 ? 2 : 0];
            uint32_t g = j / 8, lane = j % 8, reg = base;
            for (uint32_t mode = 0; mode < WM_BARYCENTRIC_MODES; mode++) {
                if (!(s->barycentric_modes & (1u << mode)))
                    continue;
                const float *b = mode < 3 ? at[mode % 3].perspective : at[mode % 3].linear;
                put_f(grf, total, reg + 2 * g, lane, b[0]);
                put_f(grf, total, reg + 2 * g + 1, lane, b[1]);
                reg += 2 * groups8;
            }
            if (s->uses_source_depth) {
                put_f(grf, total, reg + g, lane, v.depth);
                reg += groups8;
            }
            if (s->uses_source_w) {
                put_f(grf, total, reg + g, lane, v.w);
                reg += groups8;
            }
            if (s->position_offset_select) {
                /* U4.4 X offsets in bytes 0-15, Y in 16-31 (L16257-16259):
                 * POSOFFSET_CENTROID (2) the centroid's, POSOFFSET_SAMPLE (3)
                 * the sample's; the pixel centre at 1x */
                uint8_t o = s->position_offset_select == 2 ? centroid : sample_point;
                if (reg < total) {
                    grf[reg][j] = (uint8_t)(o >> 4);
                    grf[reg][16 + j] = (uint8_t)(o & 0xfu);
                }
                reg++;
            }
            if (s->uses_coverage_mask) {
                /* Input Coverage Mask: the pixel's covered samples (L16076ff) */
                put_u(grf, total, reg + g, lane,
                      s->samples > 1 ? ss->sample_mask[pixel] : (ss->pixel_mask >> pixel) & 1u);
                reg += groups8;
            }
        }
    }
    if (constant_regs)
        stage_constants_write(&s->constants, grf, first, total);
    /* setup data: component c of attribute a at setup_reg + 2a + c/2, dwords
     * (c%2)*4 .. +3 = a1, a2, 0, a0 */
    for (uint32_t a = 0; a < attrs; a++)
        for (uint32_t c = 0; c < 4; c++) {
            const struct setup_plane *pl = &p->attributes[a][c];
            uint32_t reg = setup_reg + 2 * a + c / 2, dw = (c % 2) * 4;
            put_f(grf, total, reg, dw, pl->a1);
            put_f(grf, total, reg, dw + 1, pl->a2);
            put_f(grf, total, reg, dw + 2, 0.0f);
            put_f(grf, total, reg, dw + 3, pl->a0);
        }
    dispatch_send(s, m, f, width, n);
}

/* Dispatches the pending subspans: all of them when `final`, else whole
 * groups. False when held (scoreboard, thread limits, TD channels). */
static bool dispatch_pending(struct wm *s, bool final)
{
    while (s->pending_count) {
        if (!final && s->pending_count < group_max(s))
            return true;
        uint32_t width = choose_width(s, s->pending_count);
        uint32_t n = s->pending_count < width / 4u ? s->pending_count : width / 4u;
        /* per-sample dispatch: a subspan's groups of samples 1..N-1 are not
         * held by the scoreboard: its sample-0 group passed it (in this
         * dispatch or an earlier one) and only the subspan's own groups
         * (other samples) have taken the position since */
        for (uint32_t i = 0; i < n; i++)
            if (s->pending_sample[i] <= 1 &&
                sb_find(s, sb_key(s->pending[i].x, s->pending[i].y))) {
                s->stall_scoreboard++;
                return false;
            }
        uint32_t lit = 0;
        for (uint32_t i = 0; i < n; i++)
            lit |= s->pending[i].pixel_mask & 0xfu;
        if (!lit) {
            /* per-sample dispatch: no pixel covers any of the dispatch's
             * samples (e.g. SSPI 1 of an edge subspan whose pixels cover
             * samples 0-1 only): not dispatched (the seed does not say
             * whether the hardware sends such a thread; counted) */
            s->unlit_sample_dispatches++;
            memmove(s->pending, s->pending + n, (s->pending_count - n) * sizeof s->pending[0]);
            memmove(s->pending_sample, s->pending_sample + n,
                    (s->pending_count - n) * sizeof s->pending_sample[0]);
            s->pending_count -= n;
            continue;
        }
        if (!s->flight_free_count || !stage_threads_can_dispatch(&s->threads, &s->kernel)) {
            s->stall_threads++;
            return false;
        }
        dispatch_group(s, width, n);
    }
    return true;
}

/* A line's stipple counter: restarted when SF says (L15540), the line's
 * positions counted from it, the counter moved past them. */
static void start_line(struct wm *s)
{
    const struct setup_primitive *p = &s->prim;
    s->line_stippling = false;
    if (p->topology != PRIM_LINELIST || p->line_mode == SETUP_LINE_NONE)
        return;
    if (p->line_mode == SETUP_LINE_DIAMOND_LEGACY || p->line_mode == SETUP_LINE_DIAMOND_DX10)
        s->diamond_lines++;
    if (p->line_flags & SETUP_LINE_STIPPLE_RESTART)
        s->line_stipple_counter = 0;
    bool legacy = p->line_mode == SETUP_LINE_PARALLELOGRAM ||
                  p->line_mode == SETUP_LINE_DIAMOND_LEGACY ||
                  p->line_mode == SETUP_LINE_DIAMOND_DX10;
    if (!s->line_stipple || !legacy)
        return;
    int64_t first, count;
    int32_t step;
    if (!wm_line_positions(p, s->pixel_center, &first, &count, &step))
        return;
    if (!s->line_stipple_repeat)
        s->line_stipple_bad_repeat++;       /* taken as 1 */
    s->line_stippling = true;
    s->line_x_major = (p->line_flags & SETUP_LINE_X_MAJOR) != 0;
    s->line_first = first;
    s->line_count = count;
    s->line_step = step;
    s->line_base = s->line_stipple_counter;
    s->line_stipple_counter += (uint64_t)count;
}

/* The dispatch enables the seed forbids in some modes (seed 003
 * L16005-16011 under the Variable Pixel Dispatch table L16013-16024; L16057):
 * "D" (SIMD16+8, SIMD32+16+8) "cannot be used in non-1x PERSAMPLE mode", "E"
 * (SIMD32+16) "cannot be used in PERSAMPLE mode with number of multisamples
 * >= 2": per-sample dispatch at 2x-16x takes one width alone
 * (bad.per_sample_enables); "B, D, and E are not valid for SKL with pixel
 * shader computed stencil": SIMD8 alone (bad.computed_stencil_enables; the
 * RT write's oS has no SIMD16 form, L7960); 16x per-pixel dispatch does not
 * support SIMD32 (bad.simd32_16x_per_pixel). Counted per primitive and
 * warned; the threads are then dispatched by the rule as for allowed
 * enables (the seed does not say what the hardware does). */
static void dispatch_mode_checks(struct wm *s)
{
    uint32_t widths = (uint32_t)s->enable8 + (uint32_t)s->enable16 + (uint32_t)s->enable32;
    bool per_sample = wm_per_sample_dispatch(s);
    const char *what = NULL;
    if (per_sample && s->samples >= 2 && widths > 1) {
        s->bad_per_sample_enables++;
        what = "per-sample dispatch at 2x or more with more than one dispatch width enabled";
    }
    if (!per_sample && s->samples == 16 && s->enable32) {
        s->bad_simd32_16x++;
        what = "SIMD32 enabled for 16x per-pixel dispatch";
    }
    if (s->computes_stencil && (s->enable16 || s->enable32)) {
        s->bad_stencil_enables++;
        what = "a pixel shader computing stencil with SIMD16/32 dispatch enabled";
    }
    if (what)
        warn_once(s, WARN_DISPATCH_MODE, "%s (seed 003 L16005-16011, L16057: not allowed)", what);
}

static void start_primitive(struct wm *s, const struct setup_primitive *p)
{
    s->prim = *p;
    struct setup_primitive *q = &s->prim;
    /* the draw-rect clip is unconditional (L15484); SF's box is already
     * clipped, this keeps WM safe on its own */
    if (s->drawing_rectangle) {
        if (q->x_min < s->draw_x_min)
            q->x_min = s->draw_x_min;
        if (q->y_min < s->draw_y_min)
            q->y_min = s->draw_y_min;
        if (q->x_max > s->draw_x_max)
            q->x_max = s->draw_x_max;
        if (q->y_max > s->draw_y_max)
            q->y_max = s->draw_y_max;
    }
    /* screen coordinates are U16 in the payload: keep the box inside */
    if (q->x_min < 0)
        q->x_min = 0;
    if (q->y_min < 0)
        q->y_min = 0;
    if (q->x_max > 65535)
        q->x_max = 65535;
    if (q->y_max > 65535)
        q->y_max = 65535;
    s->active = true;
    s->raster_done = q->x_min > q->x_max || q->y_min > q->y_max;
    s->sx = q->x_min & ~1;
    s->sy = q->y_min & ~1;
    s->pending_count = 0;
    s->splitting = false;
    s->primitives++;
    struct wm_observed_draw *od = observed_draw(s, q->draw);
    if (od)
        od->primitives++;
    wm_int_depth_stencil(s, q->viewport_index);
    s->dispatch_on = wm_int_thread_dispatch(s);
    if (s->dispatch_on && ((!s->enable8 && !s->enable16 && !s->enable32))) {
        s->bad_dispatch_enables++;
        warn_once(s, WARN_DISPATCH, "a pixel shader with no 8/16/32 Pixel Dispatch Enable: no "
                  "threads dispatched");
        s->dispatch_on = false;
    } else if (s->dispatch_on) {
        bool bad = false;
        uint32_t widths[3] = { 8, 16, 32 };
        bool on[3] = { s->enable8, s->enable16, s->enable32 };
        for (uint32_t i = 0; i < 3; i++)
            if (on[i] && !s->ksp[ksp_index(s, widths[i])])
                bad = true;
        if (bad) {
            s->bad_kernel++;
            warn_once(s, WARN_KERNEL, "the Kernel Start Pointer a dispatch width uses is 0: no PS "
                      "threads dispatched");
            s->dispatch_on = false;
        }
        if (s->enable32 && s->enable8 && !s->enable16)
            s->bad_dispatch_enables++;      /* not in the table (L16013-16024) */
        dispatch_mode_checks(s);
    }
    depth_samples(s, s->samples);
    /* a shader-computed stencil (PS_EXTRA Pixel Shader Computes Stencil,
     * WM_INT L15266-15268) with the stencil test on is the test's reference
     * in the pixel back end (om_depth.h): the test cannot be early */
    bool ps_affects_depth = wm_int_kill_pixel(s) || s->kills_pixel || s->computed_depth ||
                            s->omask_to_rt || s->edsc == WM_EDSC_PSEXEC ||
                            (s->computes_stencil && s->ds.stencil_test);
    s->early = !s->dispatch_on || !ps_affects_depth;
    s->hiz_active = hiz_on(s) && (s->ds.depth_test || s->ds.depth_write);
    start_line(s);
    gpu_address_space_init(&s->as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)s->space.format, s->space.root);
}

/* Per-sample dispatch (seed 003 L16060-16096, PS_EXTRA Pixel Shader Is Per
 * Sample): the slots of a PERSAMPLE thread are (subspan, sample) pairs, four
 * slots (the subspan's four pixels) a sample, the samples of a subspan in
 * order 0..N-1 and the subspans one after another (the seed's slot table).
 * The split subspan's next sample becomes the next slot group (pending
 * entry), its lit pixels those covering the sample; every sample gets its
 * group, covered or not, so that the groups keep the table's places (a slot
 * is valid when a sample is enabled, L16097ff; a group no pixel covers is
 * dispatched unlit). Done after sample N-1. */
static void split_next_sample(struct wm *s)
{
    uint32_t samples = s->samples > 16 ? 16 : s->samples;
    uint32_t smp = s->split_next;
    if (smp >= samples) {
        s->splitting = false;
        return;
    }
    uint32_t mask = 0;
    for (uint32_t i = 0; i < 4; i++)
        if (((s->split.pixel_mask >> i) & 1u) && ((s->split.sample_mask[i] >> smp) & 1u))
            mask |= 1u << i;
    struct subspan copy = s->split;
    copy.pixel_mask = (uint16_t)mask;
    s->pending_sample[s->pending_count] = (uint8_t)(smp + 1);
    s->pending[s->pending_count++] = copy;
    s->sample_invocations += popcount32(mask);
    s->split_next = smp + 1;
    if (s->split_next >= samples)
        s->splitting = false;
}

/* ---- HiZ lookahead across primitives ------------------------------------------------------
 *
 * The hardware tests HiZ in a stage ahead of the pixel pipeline; our
 * rasterizer reads a primitive's records when it reaches them. So that a
 * primitive's first record lines are not a full L3 round trip each when its
 * turn comes, the set-up primitives queued behind the one being rasterized
 * (up to `hiz_lookahead_primitives` of them, the first of any other message
 * ending the window: state may change the depth buffer) have the first
 * `hiz_read_ahead` record lines of their box (clipped as start_primitive
 * clips it), in rasterization order, read into the record cache before
 * their turn (hiz.lookahead_*). A lookahead read only takes a cache line
 * that is free, or that neither the current primitive has used nor another
 * lookahead has filled for a primitive still to come; when none is left
 * the lookahead stops and tries again next cycle (hiz.lookahead_blocked).
 * Only with "l3" linked; our choice, the seed gives no HiZ stage or queue
 * (L15777-15801 give the blocks only). */

/* The lookahead cache line for `line`, or NULL when every line is protected. */
static struct wm_hiz_cache_line *hiz_cache_allocate_ahead(struct wm *s, uint64_t line)
{
    struct wm_hiz_cache_line *victim = NULL;
    for (uint32_t i = 0; i < s->hiz_cache_lines; i++) {
        struct wm_hiz_cache_line *c = &s->hiz_cache[i];
        if (!c->valid) {
            victim = c;
            break;
        }
        if (!c->pending && !hiz_line_ahead(s, c) && c->used <= s->hiz_prim_clock &&
            (!victim || c->used < victim->used))
            victim = c;
    }
    return victim ? hiz_cache_take(s, victim, line) : NULL;
}

/* Reads ahead the first record lines of queued primitive p; false when the
 * cache has no line left to take. */
static bool hiz_lookahead_primitive(struct wm *s, const struct setup_primitive *p, uint64_t seq)
{
    int32_t x0 = p->x_min, y0 = p->y_min, x1 = p->x_max, y1 = p->y_max;
    if (s->drawing_rectangle) {
        x0 = x0 < s->draw_x_min ? s->draw_x_min : x0;
        y0 = y0 < s->draw_y_min ? s->draw_y_min : y0;
        x1 = x1 > s->draw_x_max ? s->draw_x_max : x1;
        y1 = y1 > s->draw_y_max ? s->draw_y_max : y1;
    }
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > 65535 ? 65535 : x1;
    y1 = y1 > 65535 ? 65535 : y1;
    if (x0 > x1 || y0 > y1)
        return true;
    uint32_t slice = s->depth_min_array + p->rt_array_index;
    if (s->depth.slices && slice >= s->depth.slices)
        slice = s->depth_min_array;         /* as depth_slice() */
    /* a line holds blocks (2i..2i+1, 2j..2j+1) */
    uint32_t bx0 = (uint32_t)x0 / HIZ_BLOCK_WIDTH & ~1u, bx1 = (uint32_t)x1 / HIZ_BLOCK_WIDTH;
    uint32_t by0 = (uint32_t)y0 / HIZ_BLOCK_HEIGHT & ~1u, by1 = (uint32_t)y1 / HIZ_BLOCK_HEIGHT;
    uint32_t looked = 0;
    for (uint32_t by = by0; by <= by1 && looked < s->hiz_read_ahead; by += 2)
        for (uint32_t bx = bx0; bx <= bx1 && looked < s->hiz_read_ahead; bx += 2, looked++) {
            uint64_t line;
            if (!hiz_record_line(s, bx, by, slice, &line) || hiz_cache_find(s, line))
                continue;
            struct wm_hiz_cache_line *c = hiz_cache_allocate_ahead(s, line);
            if (!c)
                return false;
            c->pending = c->ahead = true;
            c->ahead_seq = seq;
            s->hiz_lookahead_lines++;
            hiz_line_queue(s, line, MEMREQ_READ, (uint32_t)(c - s->hiz_cache));
        }
    return true;
}

/* Looks at the messages queued behind the head (the current primitive). */
static void hiz_lookahead(struct wm *s)
{
    if (!s->l3 || !s->hiz_lookahead_primitives || !s->hiz_active || !s->early)
        return;
    uint64_t head = s->ff.stats.work;       /* the head's input sequence number */
    uint64_t next = s->hiz_ahead_next > head + 1 ? s->hiz_ahead_next : head + 1;
    for (; next <= head + s->hiz_lookahead_primitives; next++) {
        const struct msg *m = port_peek_at(s->in, (uint32_t)(next - head));
        if (!m || m->kind != MSG_SETUP || m->size < sizeof(struct setup_primitive))
            break;
        if (!hiz_lookahead_primitive(s, (const struct setup_primitive *)m->payload, next)) {
            s->hiz_lookahead_blocked++;
            break;
        }
        s->hiz_lookahead_prims++;
    }
    s->hiz_ahead_next = next;
}

static enum ff_stage_work_result work_setup(struct wm *s, struct msg *m)
{
    if (!s->active) {
        const struct setup_primitive *p = (const struct setup_primitive *)m->payload;
        if (m->size < sizeof *p || p->subpixel_bits > 16) {
            s->bad_setup++;
            warn_once(s, WARN_SETUP, "malformed set-up primitive (%u bytes) dropped", m->size);
            return FF_STAGE_DONE;
        }
        if (s->gen4_mode && !setup_rows_ready(s, p))
            return FF_STAGE_NOT_NOW;
        if (s->gen7_depth_ops)
            gen7_depth_op(s, p);
        start_primitive(s, p);
        s->hiz_prim_clock = s->hiz_cache_clock;
        if (s->gen7_depth_ops) {
            /* the op wrote the depth / stencil it owes (gen7_depth_op): the
             * draw's pixels are not tested or written again */
            s->ds.depth_test = s->ds.depth_write = false;
            s->ds.stencil_test = s->ds.stencil_write = false;
            s->hiz_active = false;
        }
    }
    if (s->hiz_owed) {
        /* HiZ record traffic holds the rasterizer (hiz_record_cycles each) */
        s->hiz_owed--;
        s->hiz_stall_cycles++;
        return FF_STAGE_NOT_NOW;
    }
    hiz_l3_pump(s);
    if (hiz_l3_reading(s)) {
        /* through the L3: the records read wait for their lines */
        s->hiz_l3_stall_cycles++;
        return FF_STAGE_NOT_NOW;
    }
    uint32_t budget = s->subspans_per_cycle;
    for (;;) {
        if (s->splitting) {
            /* per-sample dispatch: the subspan's next covered sample */
            if (s->pending_count >= group_max(s) && !dispatch_pending(s, false))
                return FF_STAGE_NOT_NOW;
            split_next_sample(s);
            continue;
        }
        if (s->raster_done || !budget)
            break;
        if (s->pending_count >= group_max(s) && !dispatch_pending(s, false))
            return FF_STAGE_NOT_NOW;
        struct subspan ss;
        if (raster_subspan(s, &ss)) {
            if (wm_per_sample_dispatch(s)) {
                s->split = ss;
                s->split_next = 0;
                s->splitting = true;
            } else {
                s->pending_sample[s->pending_count] = 0;
                s->pending[s->pending_count++] = ss;
            }
        }
        budget--;
        s->sx += 2;
        if (s->sx > s->prim.x_max) {
            s->sx = s->prim.x_min & ~1;
            s->sy += 2;
            if (s->sy > s->prim.y_max)
                s->raster_done = true;
        }
    }
    if (!s->raster_done)
        return FF_STAGE_NOT_NOW;
    hiz_row_flush(s);
    hiz_l3_pump(s);
    if (s->hiz_owed)
        return FF_STAGE_NOT_NOW;        /* the write-backs' cycles first */
    if (!dispatch_pending(s, true))
        return FF_STAGE_NOT_NOW;
    s->active = false;
    if (s->prim.setup_urb_rows) {
        /* the threads carry their rows: the setup entry goes back (Gen4) */
        s->deref_pending = true;
        s->deref_handle = s->prim.setup_urb_handle;
        setup_entry_release(s);
    }
    return FF_STAGE_DONE;
}

/* ---- state to the pixel back ends, syncs ------------------------------------------------ */

static enum ff_stage_work_result work_state(struct wm *s, struct msg *m)
{
    const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
    bool om = for_om(p->id) && s->oms;
    if (om && s->threads.in_flight) {
        s->stall_om_drain++;
        return FF_STAGE_NOT_NOW;
    }
    if (!s->head_taken) {
        if (p->gen == 7)
            gen7_depth_forms(s, (struct cs_state_packet *)m->payload);
        take_state(s, p);
        s->ff.stats.taken++;
        s->head_taken = true;
    }
    if (p->id == SPEC_ID_3DSTATE_WM_HZ_OP && s->l3) {
        /* the op's HiZ record lines through the L3 (hz_op_traffic): the
         * packet leaves once they are sent and its reads answered */
        hiz_l3_pump(s);
        if (s->hiz_line_count || hiz_l3_reading(s)) {
            s->hz_op_l3_stall_cycles++;
            return FF_STAGE_NOT_NOW;
        }
    }
    if (om) {
        while (s->om_next < s->oms) {
            struct port *o = s->om[s->om_next];
            if (port_is_bound(o)) {
                if (!port_can_send(o)) {
                    s->stall_om_port++;
                    return FF_STAGE_NOT_NOW;
                }
                struct msg *c;
                if (p->id == SPEC_ID_3DSTATE_DEPTH_STENCIL_STATE_POINTERS) {
                    c = gen7_depth_stencil_packet(s, p);
                } else {
                    c = msg_alloc(unit_sim(s->unit), MSG_STATE, m->size);
                    memcpy(c->payload, m->payload, m->size);
                }
                c->tag = m->tag;
                port_try_send(o, c);
                s->state_forwarded_om++;
            }
            s->om_next++;
        }
    }
    s->om_next = 0;
    s->head_taken = false;
    s->ff.stats.consumed++;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work_mmio(struct wm *s, struct msg *m)
{
    const struct cs_mmio *io = (const struct cs_mmio *)m->payload;
    if (m->size < sizeof *io) {
        s->bad_mmio++;
        warn_once(s, WARN_MMIO, "malformed register message (%u bytes) dropped", m->size);
        return FF_STAGE_DONE;
    }
    if (io->op == CS_MMIO_WRITE) {
        if (stage_constants_take_mmio(&s->constants, io->offset, io->value) ||
            pipeline_register_write64(&s->ps_invocations, PS_INVOCATION_COUNT_OFFSET, io->offset,
                                      io->value) ||
            pipeline_register_write64(&s->ps_depth, PS_DEPTH_COUNT_OFFSET, io->offset, io->value))
            s->mmio_writes++;
        return FF_STAGE_DONE;
    }
    if (io->op != CS_MMIO_SYNC)
        return FF_STAGE_DONE;
    if (s->threads.in_flight) {
        s->stall_sync++;
        return FF_STAGE_NOT_NOW;
    }
    if (s->drained && !port_can_send(s->drained)) {
        s->stall_drained++;
        return FF_STAGE_NOT_NOW;
    }
    s->mmio_syncs++;
    if (!s->drained)
        return FF_STAGE_DONE;
    struct msg *done = msg_alloc(unit_sim(s->unit), MSG_MMIO, m->size);
    memcpy(done->payload, m->payload, m->size);
    struct cs_mmio *d = (struct cs_mmio *)done->payload;
    d->op = CS_MMIO_SYNC_DONE;
    if (m->size >= sizeof *io + sizeof(struct pipeline_registers)) {
        struct pipeline_registers regs;
        memcpy(&regs, d->data, sizeof regs);
        regs.value[PIPE_REG_PS_INVOCATIONS] = s->ps_invocations;
        regs.value[PIPE_REG_PS_DEPTH] = s->ps_depth;
        regs.written |= (uint64_t)1 << PIPE_REG_PS_INVOCATIONS | (uint64_t)1 << PIPE_REG_PS_DEPTH;
        memcpy(d->data, &regs, sizeof regs);
    } else {
        s->bad_mmio++;
        warn_once(s, WARN_MMIO, "pipeline sync without its registers (%u bytes) returned as is",
                  m->size);
    }
    done->tag = m->tag;
    port_try_send(s->drained, done);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result wm_work(void *context, struct msg *m)
{
    struct wm *s = context;
    switch (m->kind) {
    case MSG_SETUP: return work_setup(s, m);
    case MSG_STATE: return work_state(s, m);
    case MSG_MMIO: return work_mmio(s, m);
    default: return FF_STAGE_DONE;
    }
}

/* The pixel back end's counts in a PS thread end (thread_msg.h): late
 * depth/stencil passes into PS_DEPTH_COUNT (L16766) and the thread's draw
 * record. */
static void take_pixel_counts(struct wm *s, const struct wm_flight *fl,
                              const struct eu_thread_end *end)
{
    if (fl->late_statistics)
        s->ps_depth += end->pixels_depth_passed;
    s->pixels_late_passed += end->pixels_depth_passed;
    s->pixels_written += end->pixels_written;
    if (fl->draw_slot >= s->draws_seen)
        return;
    struct wm_observed_draw *od = &s->observed[fl->draw_slot];
    od->pixels_passed += end->pixels_depth_passed;
    od->pixels_written += end->pixels_written;
    od->thread_cycles += thread_life_cycles(end->thread_life_ps, unit_clock_period(s->unit));
    observed_touch(s, od);
}

static void take_thread_ends(struct wm *s)
{
    for (uint32_t i = 0; i < s->eots; i++) {
        if (!port_is_bound(s->eot[i]))
            continue;
        s->threads.eot = s->eot[i];
        uint64_t tag;
        struct eu_thread_end end;
        while (stage_threads_poll_end_notice(&s->threads, s->unit, &tag, &end)) {
            if (tag >= STAGE_THREADS_MAX)
                continue;
            struct wm_flight *fl = &s->flight[tag];
            take_pixel_counts(s, fl, &end);
            for (uint32_t j = 0; j < fl->count; j++)
                sb_release(s, fl->key[j]);
            fl->count = 0;
            s->flight_free[s->flight_free_count++] = (uint16_t)tag;
        }
    }
}

/* ---- unit ------------------------------------------------------------------------------- */

static const struct port_desc wm_ports[] = {
    { .name = "sf", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_SETUP) | MSG_BIT(MSG_MMIO),
      .help = "state, set-up primitives and register traffic from SF, in order" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "PS thread requests to the subslices' td.wm" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "PS thread ends from the pixel back ends (last RT write processed)" },
    { .name = "om", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_STATE),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "state the pixel back ends need, in order" },
    { .name = "drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "in-band syncs returned to the CS once the PS threads ended" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB), .flags = PORT_OPTIONAL,
      .help = "Gen4: setup URB entry reads and dereferences (to the URB unit's client port)" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "Gen4: the setup rows read" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "HiZ record line requests (64-byte lines) to an L3 client port; unlinked: "
              "hiz_record_cycles each" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "their completions" },
    PORT_END
};

static const struct param_desc wm_params[] = {
    PARAM_U32_FIELD("per_cycle", struct wm, per_cycle, 1, 1, 64,
                    "input messages (state, primitives) handled per cycle"),
    PARAM_U32_FIELD("subspans_per_cycle", struct wm, subspans_per_cycle, 4, 1, 1024,
                    "2x2 subspans rasterized and early-tested per cycle (the seed gives no rate)"),
    PARAM_U32_FIELD("hiz_record_cycles", struct wm, hiz_record_cycles, 1, 0, 1024,
                    "rasterizer cycles each HiZ record read or written costs (the seed gives "
                    "no figure: one record per cycle through the HiZ cache port)"),
    PARAM_U32_FIELD("hiz_cache_lines", struct wm, hiz_cache_lines, 64, 0, 4096,
                    "64-byte lines of WM's HiZ record cache (\"l3\" linked; fully associative, "
                    "LRU, write-back; no public figure: our choice)"),
    PARAM_U32_FIELD("hiz_read_ahead", struct wm, hiz_read_ahead, 16, 0, 64,
                    "HiZ record lines read ahead along the rasterizer's block row, and of each "
                    "queued primitive's box (our choice)"),
    PARAM_U32_FIELD("hiz_lookahead_primitives", struct wm, hiz_lookahead_primitives, 3, 0, 64,
                    "set-up primitives queued behind the rasterized one whose first HiZ record "
                    "lines are read ahead (\"l3\" linked; our choice: 3, what the 4-message "
                    "sf->wm channel of the machines holds behind its head)"),
    PARAM_BOOL_FIELD("force_late_depth", struct wm, force_late_depth, false,
                     "read Early Depth/Stencil Control as PSEXEC (a mode the driver may "
                     "program, 003 L15709-15775): depth/stencil tested after the PS, in the "
                     "pixel back end, instead of early here; off: as the command says"),
    PARAM_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct wm, f, m, h)
static const struct stat_desc wm_stats[] = {
    C("raster.primitives", primitives, "primitives", "set-up primitives rasterized"),
    C("raster.subspans", subspans, "subspans", "subspans visited in bounding boxes"),
    C("raster.subspans_lit", subspans_lit, "subspans", "subspans with a pixel inside"),
    C("raster.pixels", pixels_rasterized, "pixels", "pixels inside primitives"),
    C("raster.unsupported_samples", unsupported_samples, "primitives",
      "WM_HZ_OP ops with a reserved Number of Multisamples (run at 1x)"),
    C("ps.sample_invocations", sample_invocations, "pixels",
      "per-sample dispatch: lit (pixel, sample) pairs dispatched, one invocation each"),
    C("ps.sample_pair_dispatches", sample_pair_dispatches, "threads",
      "per-sample threads with a Starting Sample Pair Index above 0 (003 L16149)"),
    C("ps.unlit_sample_dispatches", unlit_sample_dispatches, "threads",
      "per-sample dispatches none of whose samples a pixel covers: not sent"),
    C("raster.poly_stippled", pixels_stippled, "pixels", "pixels dropped by polygon stipple"),
    C("raster.line_stippled", pixels_line_stippled, "pixels",
      "pixels dropped by line stipple (003 L15532-15546)"),
    C("raster.line_stipple_bad_repeat", line_stipple_bad_repeat, "lines",
      "stippled lines with a Line Stipple Repeat Count of 0 (taken as 1)"),
    C("raster.diamond_lines", diamond_lines, "lines",
      "zero-width lines rasterized by the GIQ diamond rules (003 L14884-14955)"),
    C("raster.aa_line_pixels", aa_line_pixels, "pixels",
      "pixels of antialiased lines whose coverage was computed (003 L14978-14992)"),
    C("raster.aa_line_partial", aa_line_partial, "pixels",
      "of those, pixels with a coverage below 1"),
    C("raster.sample_masked", pixels_sample_masked, "pixels",
      "pixels dropped by 3DSTATE_SAMPLE_MASK"),
    C("depth.subspans_rejected", subspans_rejected, "subspans",
      "lit subspans with no pixel left after early depth/stencil (not dispatched)"),
    C("depth.depth_failed", pixels_depth_failed, "pixels", "pixels failing the depth test"),
    C("depth.stencil_failed", pixels_stencil_failed, "pixels", "pixels failing the stencil test"),
    C("depth.depth_writes", depth_writes, "pixels", "depth values written"),
    C("depth.stencil_writes", stencil_writes, "pixels", "stencil values written"),
    C("depth.late_pixels", late_pixels, "pixels",
      "pixels whose depth/stencil test follows the PS (the pixel back end's)"),
    C("depth.late_passed", pixels_late_passed, "pixels",
      "late-tested pixels the pixel back ends passed (thread ends)"),
    C("ps.pixels_written", pixels_written, "pixels",
      "pixels the PS threads' RT writes put in memory (thread ends)"),
    C("depth.faults", depth_faults, "accesses", "depth/stencil reads or writes that faulted"),
    C("ps.pixels", pixels_shaded, "pixels", "lit pixels in dispatched PS threads"),
    C("ps.invocations", ps_invocations, "pixels", "PS_INVOCATION_COUNT"),
    C("ps.depth_count", ps_depth, "pixels", "PS_DEPTH_COUNT"),
    C("ps.threads8", threads8, "threads", "SIMD8 PS threads"),
    C("ps.threads16", threads16, "threads", "SIMD16 PS threads"),
    C("ps.threads32", threads32, "threads", "SIMD32 PS threads"),
    C("ps.payload_truncated", payload_truncated, "threads", "payloads cut at 128 registers"),
    C("stall.scoreboard", stall_scoreboard, "events",
      "dispatches held by a running thread on the same subspan"),
    C("stall.threads", stall_threads, "events", "dispatches held by thread limits or TDs"),
    C("stall.om_drain", stall_om_drain, "events",
      "state for the pixel back ends held until the PS threads ended"),
    C("stall.om_port", stall_om_port, "events", "state refused by an \"om\" channel"),
    C("stall.sync", stall_sync, "events", "syncs held until the PS threads ended"),
    C("stall.drained", stall_drained, "events", "syncs refused by \"drained\""),
    C("hz_op.depth_clears", hz_depth_clears, "ops", "WM_HZ_OP depth clears"),
    C("hz_op.stencil_clears", hz_stencil_clears, "ops", "WM_HZ_OP stencil clears"),
    C("hz_op.depth_resolves", hz_depth_resolves, "ops",
      "WM_HZ_OP depth resolves (write CLEARED HiZ blocks' clear value; no-ops without HiZ)"),
    C("hz_op.hiz_resolves", hz_hiz_resolves, "ops",
      "WM_HZ_OP HiZ resolves (rebuild HiZ blocks from depth; no-ops without HiZ)"),
    C("hz_op.ends", hz_ends, "ops", "WM_HZ_OP with no op (end of a sequence)"),
    C("hz_op.pixels", hz_pixels, "pixels",
      "depth/stencil pixels written by WM_HZ_OP clears (HiZ fast clears write none)"),
    C("hiz.blocks_tested", hiz_blocks_tested, "blocks",
      "8x4 HiZ blocks tested against a primitive before per-pixel depth"),
    C("hiz.blocks_rejected", hiz_blocks_rejected, "blocks",
      "HiZ blocks where every pixel fails depth: dropped without per-pixel tests"),
    C("hiz.blocks_ambiguous", hiz_blocks_ambiguous, "blocks",
      "HiZ blocks whose bound overlaps the primitive's depth: tested per pixel"),
    C("hiz.blocks_unbounded", hiz_blocks_unbounded, "blocks",
      "HiZ blocks in the AMBIGUOUS state (no bound): tested per pixel"),
    C("hiz.pixels_rejected", hiz_pixels_rejected, "pixels",
      "lit pixels in HiZ-rejected blocks (also in depth.failed)"),
    C("hiz.blocks_filled", hiz_blocks_filled, "blocks",
      "CLEARED blocks whose clear value was written to depth on first per-pixel use"),
    C("hiz.blocks_cleared", hiz_blocks_cleared, "blocks",
      "blocks set CLEARED by fast depth clears"),
    C("hiz.blocks_resolved", hiz_blocks_resolved, "blocks",
      "CLEARED blocks written to the depth buffer by depth resolves"),
    C("hiz.blocks_tightened", hiz_blocks_tightened, "blocks",
      "blocks whose every pixel one primitive rewrote: bound set to the values written"),
    C("hiz.blocks_rebuilt", hiz_blocks_rebuilt, "blocks",
      "blocks rebuilt from depth by HiZ resolves"),
    C("hiz.record_writes", hiz_writes, "records", "HiZ records written"),
    C("hiz.record_reads", hiz_record_reads, "records", "HiZ records read by the rasterizer"),
    C("hiz.l3_reads", hiz_l3_reads, "lines", "HiZ record lines read through the L3 (\"l3\")"),
    C("hiz.l3_writes", hiz_l3_writes, "lines", "HiZ record lines written through the L3"),
    C("hiz.l3_replies", hiz_l3_replies, "lines", "their completions"),
    C("hiz.cache_hits", hiz_cache_hits, "records",
      "HiZ record reads and writes the record cache held (no L3 traffic)"),
    C("hiz.cache_misses", hiz_cache_misses, "records", "those it did not hold"),
    C("hiz.cache_writebacks", hiz_cache_writebacks, "lines",
      "dirty lines evicted, written through the L3"),
    C("hiz.cache_read_ahead", hiz_cache_read_ahead, "lines",
      "lines read ahead along the rasterizer's block row"),
    C("hiz.lookahead_primitives", hiz_lookahead_prims, "primitives",
      "queued primitives whose first record lines were read ahead"),
    C("hiz.lookahead_lines", hiz_lookahead_lines, "lines",
      "record lines read ahead for queued primitives"),
    C("hiz.lookahead_used", hiz_lookahead_used, "lines", "of those, used before evicted"),
    C("hiz.lookahead_evicted", hiz_lookahead_evicted, "lines",
      "of those, evicted unused"),
    C("hiz.lookahead_blocked", hiz_lookahead_blocked, "cycles",
      "cycles the lookahead found no cache line it may take"),
    C("hiz.cache_uncached", hiz_cache_uncached, "lines",
      "record reads with every cache line being filled, read uncached"),
    C("hiz.l3_stall_cycles", hiz_l3_stall_cycles, "cycles",
      "rasterizer cycles waiting for HiZ record lines from the L3"),
    C("hiz.l3_unmapped", hiz_l3_unmapped, "records",
      "records whose line could not be mapped (timed as hiz_record_cycles instead)"),
    C("hz_op.l3_stall_cycles", hz_op_l3_stall_cycles, "cycles",
      "cycles a WM_HZ_OP waited for its HiZ record lines through the L3"),
    C("bad.l3_replies", bad_l3_replies, "messages", "malformed or unexpected L3 replies"),
    C("hiz.stall_cycles", hiz_stall_cycles, "cycles",
      "rasterizer cycles spent on HiZ record reads and writes (hiz_record_cycles each)"),
    C("hiz.blocks_accepted", hiz_blocks_accepted, "blocks",
      "blocks whose every pixel passes depth (trivial accept: no depth reads)"),
    C("hiz.pixels_accepted", hiz_pixels_accepted, "pixels",
      "pixels that passed depth by a trivial accept without reading the depth buffer"),
    C("hiz.faults", hiz_faults, "records", "HiZ records that could not be read or written"),
    C("hiz.bad_records", hiz_bad_records, "records",
      "HiZ records with an unknown state (taken as AMBIGUOUS)"),
    C("bad.hiz_buffer", bad_hiz_buffer, "uses",
      "uses of a HiZ-enabled depth buffer whose 3DSTATE_HIER_DEPTH_BUFFER is unusable (pitch)"),
    C("bad.kernel", bad_kernel, "primitives", "a dispatch width whose KSP is 0"),
    C("bad.setup", bad_setup, "messages", "malformed set-up primitives"),
    C("bad.stencil_clear_masks", bad_stencil_clear_masks, "clears",
      "Gen7 stencil clears with stencil masks other than 0xFF (seed 000 L3655-3661: used as 0xFF)"),
    C("bad.depth_buffer", bad_depth_buffer, "packets",
      "depth/stencil buffers or clears not modelled or malformed"),
    C("bad.grf_start", bad_grf_start, "threads", "GRF start inside the payload"),
    C("bad.dispatch_enables", bad_dispatch_enables, "primitives",
      "pixel dispatch enables not in the table (or none)"),
    C("bad.per_sample_enables", bad_per_sample_enables, "primitives",
      "per-sample dispatch at 2x-16x with more than one width enabled (003 L16007-16009)"),
    C("bad.simd32_16x_per_pixel", bad_simd32_16x, "primitives",
      "16x per-pixel dispatch with SIMD32 enabled (003 L16057)"),
    C("bad.computed_stencil_enables", bad_stencil_enables, "primitives",
      "a PS computing stencil with SIMD16 or SIMD32 enabled (003 L16011)"),
    C("bad.multisample", bad_multisample, "packets",
      "3DSTATE_MULTISAMPLE with a reserved sample count (rasterized at 1x)"),
    C("bad.mmio", bad_mmio, "messages", "malformed register messages"),
    C("legacy_ops", legacy_ops, "packets", "legacy clears/resolves and RT fast clear/resolve bits"),
    C("state.wm", state_wm, "packets", "3DSTATE_WM / MULTISAMPLE / SAMPLE_MASK taken"),
    C("state.ps", state_ps, "packets", "3DSTATE_PS / PS_EXTRA / PS_BLEND taken"),
    C("state.depth", state_depth, "packets", "depth/stencil state and buffers taken"),
    C("state.constant", state_constant, "packets", "3DSTATE_CONSTANT_PS taken"),
    C("state.to_om", state_forwarded_om, "messages", "state packets sent to pixel back ends"),
    C("state.other", state_other, "packets", "other state packets"),
    C("mmio.writes", mmio_writes, "writes", "register writes applied"),
    C("mmio.syncs", mmio_syncs, "messages", "pipeline syncs completed"),
    C("gen4.pointers", gen4.pointers, "packets", "Gen4 3DSTATE_PIPELINED_POINTERS taken"),
    C("gen4.bad_pointers", gen4.bad_pointers, "packets",
      "Gen4 WM_STATE / CC_STATE / CC_VIEWPORT pointers outside memory (WM disabled)"),
    C("gen4.constant_read_failures", gen4.constant_read_failures, "packets",
      "Gen4 CONSTANT_BUFFERs that could not be read (zeros)"),
    C("gen4.setup_reads", gen4_setup_reads, "reads", "Gen4 setup URB entry reads"),
    C("gen4.setup_rows", gen4_setup_rows, "rows", "Gen4 setup URB rows read"),
    C("gen4.setup_unread", gen4_setup_unread, "primitives",
      "Gen4 setup rows asked beyond the SF entry, or no URB port (zeros)"),
    C("gen4.setup_dereferences", gen4_derefs, "entries", "Gen4 setup entries handed back"),
    C("gen4.bad_urb_replies", gen4_bad_urb, "messages", "malformed or short setup URB replies"),
    C("gen4.simd32_refused", gen4_simd32_refused, "packets",
      "Gen4 WM_STATEs enabling 32-pixel dispatch (not modelled)"),
    STAGE_THREADS_STATS("threads.", struct wm, threads),
    FF_STAGE_STATS("ff.", struct wm, ff),
    STAT_END
};
#undef C

static void wm_clear(struct wm *s)
{
    s->active = false;
    s->pending_count = 0;
    s->splitting = false;
    s->om_next = 0;
    s->head_taken = false;
    s->flight_free_count = STAGE_THREADS_MAX;
    for (uint32_t i = 0; i < STAGE_THREADS_MAX; i++) {
        s->flight_free[i] = (uint16_t)(STAGE_THREADS_MAX - 1 - i);
        s->flight[i].count = 0;
    }
    if (s->nodes)
        sb_clear(s);
}

static void wm_defaults(struct wm *s)
{
    s->pixel_center = true;
    s->samples = 1;
    s->sample_mask = 1;
    memcpy(s->sample_pattern, wm_standard_pattern, sizeof s->sample_pattern);
    s->depth_surface_type = WM_SURFTYPE_NULL;
    s->kernel.max_threads = 1;
}

static int wm_realize(struct unit *u, struct gt_error *err)
{
    struct wm *s = unit_state(u);
    s->unit = u;
    s->in = unit_port(u, "sf", 0);
    s->drained = unit_port(u, "drained", 0);
    if (!port_is_bound(s->drained))
        s->drained = NULL;
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    if (!port_is_bound(s->l3) || !port_is_bound(s->l3_reply))
        s->l3 = s->l3_reply = NULL;
    s->hiz_cache = gt_xcalloc(s->hiz_cache_lines ? s->hiz_cache_lines : 1, sizeof *s->hiz_cache);
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    if (!port_is_bound(s->urb) || !port_is_bound(s->urb_reply))
        s->urb = s->urb_reply = NULL;
    s->oms = unit_port_count(u, "om");
    s->om = s->oms ? gt_xcalloc(s->oms, sizeof *s->om) : NULL;
    for (uint32_t i = 0; i < s->oms; i++)
        s->om[i] = unit_port(u, "om", i);
    s->eots = unit_port_count(u, "eot");
    s->eot = s->eots ? gt_xcalloc(s->eots, sizeof *s->eot) : NULL;
    for (uint32_t i = 0; i < s->eots; i++)
        s->eot[i] = unit_port(u, "eot", i);
    if (stage_threads_init(&s->threads, u, FFID_PS, err) != 0)
        return -1;
    struct ff_stage_id *ids = gt_xcalloc(SPEC_ID_COUNT, sizeof *ids);
    uint32_t n = 0;
    for (uint32_t id = SPEC_ID_NONE + 1; id < SPEC_ID_COUNT; id++)
        ids[n++] = (struct ff_stage_id){ id, FF_STAGE_WORK };
    uint32_t kinds = 0;
    for (uint32_t k = 0; k < MSG_KIND_COUNT; k++)
        kinds |= MSG_BIT(k);
    int rc = ff_stage_init(&s->ff, &(struct ff_stage_config){
        .in = s->in, .out = NULL, .ids = ids, .id_count = n, .work_kinds = kinds,
        .per_cycle = s->per_cycle, .work = wm_work, .context = s,
    }, err);
    free(ids);
    if (rc)
        return -1;
    s->nodes = gt_xcalloc(WM_SB_NODES, sizeof *s->nodes);
    wm_defaults(s);
    wm_clear(s);
    return 0;
}

static void wm_reset(struct unit *u)
{
    struct wm *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    stage_threads_reset(&s->threads);
    memset(&s->kernel, 0, sizeof s->kernel);
    memset(&s->bases, 0, sizeof s->bases);
    memset(&s->constants, 0, sizeof s->constants);
    memset(&s->ds_packet, 0, sizeof s->ds_packet);
    memset(&s->depth, 0, sizeof s->depth);
    memset(&s->stencil, 0, sizeof s->stencil);
    memset(&s->hiz, 0, sizeof s->hiz);
    s->hiz_enable = s->hiz_row_live = false;
    s->barycentric_modes = s->edsc = s->force_dispatch = s->force_kill = 0;
    s->statistics = s->ps_valid = s->enable8 = s->enable16 = s->enable32 = false;
    s->poly_stipple = false;
    s->line_stipple = s->line_stippling = false;
    s->line_stipple_pattern = s->line_stipple_repeat = 0;
    s->line_stipple_counter = 0;
    s->hiz_owed = 0;
    s->hiz_line_head = s->hiz_line_count = 0;
    s->hiz_reads_queued = s->hiz_reads_waiting = s->hiz_writes_waiting = 0;
    s->hiz_demand_waiting = 0;
    s->hiz_ahead_next = s->hiz_prim_clock = 0;
    if (s->hiz_cache)
        memset(s->hiz_cache, 0, s->hiz_cache_lines * sizeof *s->hiz_cache);
    s->stipple_x = s->stipple_y = 0;
    memset(s->stipple_rows, 0, sizeof s->stipple_rows);
    s->ps_invocations = s->ps_depth = 0;
    s->draws_seen = 0;
    s->stencil_enable = s->clear_valid = s->cc_viewport_valid = s->drawing_rectangle = false;
    s->clear_is_raw = false;
    s->clear_raw = 0;
    s->gen7_depth_ops = 0;
    memset(&s->gen4, 0, sizeof s->gen4);
    s->gen4_mode = s->deref_pending = false;
    s->setup_phase = WM_SETUP_IDLE;
    s->setup_rows = s->gen4_threads = 0;
    wm_defaults(s);
    wm_clear(s);
}

static enum unit_activity wm_tick(struct unit *u)
{
    struct wm *s = unit_state(u);
    take_thread_ends(s);
    setup_entry_release(s);
    hiz_l3_pump(s);
    enum ff_stage_status st = ff_stage_tick(&s->ff, u);
    /* after this cycle's rasterization, so that the current primitive's
     * own line requests go first */
    if (s->active)
        hiz_lookahead(s);
    if (s->l3 && s->hiz_line_count && port_can_send(s->l3))
        return UNIT_BUSY;       /* posted HiZ writes to send */
    if (st == FF_STAGE_WAITING && (s->active || s->threads.in_flight == 0))
        return UNIT_BUSY;
    if (s->deref_pending)
        return UNIT_BUSY;       /* a setup entry to hand back */       /* rasterizing, or held by something no message will wake */
    return ff_stage_activity(st);
}

static void wm_destroy(struct unit *u)
{
    struct wm *s = unit_state(u);
    if (s->unit)
        ff_stage_clear(&s->ff, unit_sim(u));
    stage_threads_release(&s->threads);
    free(s->nodes);
    free(s->observed);
    s->observed = NULL;
    s->observed_capacity = s->draws_seen = 0;
    free(s->hiz_row);
    s->hiz_row = NULL;
    free(s->hiz_lines);
    s->hiz_lines = NULL;
    s->hiz_line_capacity = s->hiz_line_count = 0;
    free(s->hiz_cache);
    s->hiz_cache = NULL;
    s->hiz_row_capacity = s->hiz_row_count = 0;
    free(s->om);
    free(s->eot);
    s->nodes = NULL;
    s->om = s->eot = NULL;
}

uint32_t wm_observed_draws(struct unit *u, const struct wm_observed_draw **draws)
{
    *draws = NULL;
    if (!u || unit_ops_of(u) != &wm_ops)
        return 0;                   /* not a real wm (a placeholder of the kind) */
    struct wm *s = unit_state(u);
    *draws = s->observed;
    return s->draws_seen;
}

const struct unit_ops wm_ops = {
    .kind = "wm",
    .help = "Windower (Gen8/Gen9): rasterizes set-up primitives into 2x2 subspans, runs early "
            "depth/stencil on the depth and stencil surfaces, and dispatches SIMD8/16/32 pixel "
            "shader threads with their payload, in order under a pixel scoreboard (seed 003 "
            "L15207-16384).",
    .state_size = sizeof(struct wm),
    .params = wm_params,
    .ports = wm_ports,
    .stats = wm_stats,
    .realize = wm_realize,
    .reset = wm_reset,
    .tick = wm_tick,
    .destroy = wm_destroy,
};
