/* units/om/om.c - the pixel back end: see om.h for what it models. This file
 * holds the unit shell (params, ports, stats, state from WM, timing) and the
 * render target messages; the per-pixel arithmetic is in om_color.c. */
#include "units/om/om.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/fifo.h"
#include "fabric/memory.h"
#include "fabric/reply_queue.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "units/common/format.h"
#include "units/common/memreq.h"
#include "units/common/pixel.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/om/om_color.h"
#include "units/om/om_depth.h"
#include "units/om/om_gen4.h"
#include "units/om/om_gen7.h"
#include "units/common/gen4_cc.h"

#define OM_MAX_EUS 64
#define OM_MAX_RTS 8                /* BLEND_STATE entries */
#define OM_MAX_LINES 256            /* lines one message's timing tracks */
#define OM_MAX_TXN 256
#define OM_WARNED_FORMATS 16
#define OM_THREAD_SLOTS 16          /* per EU: thread slots the per-thread counts track */

enum { RC_RT_WRITE = 12, RC_RT_READ = 13, RC_GEN4_FLUSH = 0x100, RC_NONE = 0x101 };

/* Header M0.0 bits (Mesa's fb write lowering; seed R0.0 L16108ff) */
#define HDR_SOURCE0_ALPHA (1u << 11)
#define HDR_OMASK (1u << 12)
#define HDR_SOURCE_DEPTH (1u << 13)
#define HDR_STENCIL (1u << 14)

struct txn {
    bool used;
    uint32_t eu;
    struct msg *wb, *end;
    uint32_t lines_left, nlines;
    uint64_t ready;                 /* the pixel pipe is done with it */
    uint64_t lines[OM_MAX_LINES];
    uint8_t ops[OM_MAX_LINES];
};

struct pending_line {
    uint32_t txn, index;
};

/* A 64-byte line of an auxiliary surface (CCS or MCS) held in the pixel data
 * port's control-surface cache ("MSC", seed 003 L7588). */
struct aux_line {
    uint64_t line;                  /* physical address of the line */
    uint64_t last_use;              /* LRU stamp */
    bool valid, dirty;
};

/* What a PS thread's RT writes did so far, reported in its thread end. */
struct thread_counts {
    bool used;
    uint32_t group;
    uint32_t written, depth_passed;
};

struct om {
    /* params */
    uint32_t latency, pixels_per_cycle, max_outstanding, gen, messages_per_cycle;
    uint32_t aux_cache_lines;       /* 0: no MSC, every aux access is an L3 line */
    /* ports */
    struct port **eu, **outs;       /* outs: writeback[0..eus-1], then eot_ps */
    uint32_t eus;
    struct port *wm, *eot_ps, *l3, *l3_reply;
    /* state */
    uint64_t dynamic_base;
    bool blend_valid, cc_valid;
    struct spec_BLEND_STATE blend;
    struct spec_BLEND_STATE_ENTRY entry[OM_MAX_RTS];
    struct spec_COLOR_CALC_STATE cc;
    bool fast_clear, resolve, omask_present, depth_present, stencil_present, a2c_disabled;
    bool full_resolve;              /* RESOLVE_FULL (Gen9) or Gen8's Resolve Enable */
    uint32_t samples;
    /* Gen4: General State Base (CC_STATE's base), 3DSTATE_CONSTANT_COLOR */
    uint64_t general_base;
    float constant_color[4];
    uint32_t draw;                  /* current draw number; 0 before the first */
    bool state_since_write;
    /* surfaces written */
    struct om_surface *surfaces;
    uint32_t surface_count, surface_capacity;
    uint32_t warned_formats[OM_WARNED_FORMATS], warned_format_count;
    uint32_t warned;
    /* timing */
    struct txn *txn;
    uint32_t in_flight;
    uint64_t pipe_free;             /* first cycle the pixel pipe is free */
    struct fifo line_queue;
    struct reply_queue replies;
    uint32_t next_eu;
    /* stats */
    uint64_t messages, rt_write[5], rt_reads, pixels_written, pixels_blended, pixels_logic_op;
    uint64_t per_sample_slots;
    uint64_t pixels_discarded, fast_clear_blocks, fast_clear_pixels, resolve_messages;
    uint64_t unsupported_messages, unsupported_formats, out_of_bounds, page_faults, killed_thread_ends;
    uint64_t bad_messages, bad_state, state_read_failures, no_positions, thread_ends;
    uint64_t dither_ignored, busy_cycles, lines, l3_replies, stall_writeback, draws;
    uint64_t lines_dropped, aa_alpha_pixels;
    /* aux surfaces (CCS, MCS) */
    uint64_t ccs_cleared, ccs_filled, ccs_resolved, ccs_reads, resolve_pixels;
    uint64_t mcs_cleared, mcs_compressed, mcs_uncompressed, mcs_reads;
    uint64_t aux_not_modelled, aux_faults, resolve_msrt;
    /* the control-surface cache (MSC) */
    struct aux_line *aux_cache;     /* [aux_cache_lines] */
    uint32_t aux_last;              /* the entry last hit (checked first) */
    uint64_t aux_stamp, aux_hits, aux_misses, aux_writebacks;
    /* late depth/stencil (om_depth.h) and the per-thread counts */
    struct om_depth depth;
    const struct om_datapath *datapath;     /* om_set_datapath; NULL: the C functions */
    struct thread_counts *thread_counts;    /* [eus * OM_THREAD_SLOTS] */
    uint64_t late_pixels, untracked_threads;
};

static const struct param_desc om_params[] = {
    PARAM_U32_FIELD("latency", struct om, latency, 20, 1, 100000,
                    "cycles from a message to its completion when no L3 is linked"),
    PARAM_U32_FIELD("pixels_per_cycle", struct om, pixels_per_cycle, 4, 1, 64,
                    "colour calculator throughput, pixels a cycle (the seed gives no figure: "
                    "a 2x2 subspan a clock is the model's choice)"),
    PARAM_U32_FIELD("max_outstanding", struct om, max_outstanding, 32, 1, OM_MAX_TXN,
                    "messages in flight at most"),
    PARAM_U32_FIELD("messages_per_cycle", struct om, messages_per_cycle, 1, 1, 64,
                    "messages taken per cycle"),
    PARAM_U32_FIELD("gen", struct om, gen, 9, 4, 9,
                    "generation of state layouts when a thread names none"),
    PARAM_U32_FIELD("aux_cache_lines", struct om, aux_cache_lines, 64, 0, 4096,
                    "64-byte lines of the control-surface cache (MSC: CCS and MCS lines, "
                    "seed 003 L7588; the seed gives no size: 4 KB is the model's choice; "
                    "0: no cache, every aux access is an L3 line)"),
    PARAM_END
};

static const struct port_desc om_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "SFID 5 SENDs from each EU (MSG_SEND)" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "write-backs (RT reads) to the EU of the same index" },
    { .name = "wm", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE),
      .flags = PORT_OPTIONAL, .help = "colour calculator state from WM, in order" },
    { .name = "eot_ps", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "PS thread ends (struct eu_thread_end) to WM" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "render cache line requests to the slice's L3" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "their completions" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct om, f, m, h)
static const struct stat_desc om_stats[] = {
    C("messages", messages, "messages", "SENDs taken"),
    C("rt_write.simd16", rt_write[0], "messages", "SIMD16 single source RT writes"),
    C("rt_write.rep16", rt_write[1], "messages", "SIMD16 replicated data RT writes"),
    C("rt_write.simd8_dual_lo", rt_write[2], "messages", "SIMD8 dual source (low) RT writes"),
    C("rt_write.simd8_dual_hi", rt_write[3], "messages", "SIMD8 dual source (high) RT writes"),
    C("rt_write.simd8", rt_write[4], "messages", "SIMD8 single source RT writes"),
    C("rt_reads", rt_reads, "messages", "RT read messages"),
    C("pixels_written", pixels_written, "pixels", "pixels (samples) written to render targets"),
    C("pixels_blended", pixels_blended, "pixels", "pixels blended with the destination"),
    C("pixels_logic_op", pixels_logic_op, "pixels", "pixels through a logic op"),
    C("per_sample_slots", per_sample_slots, "slots",
      "slots of per-sample threads written, each to the sample its Starting Sample Pair "
      "Index and slot group name (003 L7700-7725)"),
    C("pixels_discarded", pixels_discarded, "pixels",
      "lit pixels killed by alpha test, alpha to coverage or oMask"),
    C("fast_clear_blocks", fast_clear_blocks, "blocks",
      "clear-rectangle pixels of fast clears (each a block of the RT)"),
    C("fast_clear_pixels", fast_clear_pixels, "pixels",
      "RT pixels (samples) fast clears cleared: through the CCS/MCS, or filled without one"),
    C("resolve_messages", resolve_messages, "messages", "RT writes of resolve passes"),
    C("resolve_pixels", resolve_pixels, "pixels",
      "pixels resolves filled with the clear colour (their CCS said CLEAR)"),
    C("ccs.cleared", ccs_cleared, "blocks", "CCS elements (cache-line pairs) set CLEAR by fast clears"),
    C("ccs.filled", ccs_filled, "blocks",
      "CLEAR cache-line pairs filled with the clear value before an RT write"),
    C("ccs.resolved", ccs_resolved, "blocks", "CCS elements resolves set uncompressed"),
    C("ccs.reads", ccs_reads, "accesses", "CCS bytes read (RT writes, reads, resolves)"),
    C("mcs.cleared", mcs_cleared, "pixels", "MCS elements set to the cleared value by fast clears"),
    C("mcs.compressed", mcs_compressed, "pixels",
      "multisampled pixels written with every sample equal (MCS 0: plane 0 only)"),
    C("mcs.uncompressed", mcs_uncompressed, "pixels",
      "multisampled pixels written with samples differing (each sample in its own plane)"),
    C("mcs.reads", mcs_reads, "accesses", "MCS elements read"),
    C("aux.not_modelled", aux_not_modelled, "messages",
      "fast clears / resolves on a surface whose aux layout is not modelled (clear: filled)"),
    C("aux.faults", aux_faults, "accesses", "CCS/MCS accesses in unmapped memory"),
    C("aux.resolve_msrt", resolve_msrt, "messages",
      "resolve passes on multisampled RTs (not supported, L16884: nothing done)"),
    C("aux_cache.hits", aux_hits, "accesses", "CCS/MCS accesses whose line the MSC held"),
    C("aux_cache.misses", aux_misses, "accesses",
      "CCS/MCS accesses that filled a line from the L3 (a read line request)"),
    C("aux_cache.writebacks", aux_writebacks, "lines",
      "dirty MSC lines written back to the L3 when evicted"),
    C("killed_thread_ends", killed_thread_ends, "threads",
      "pixel threads the EU ended for bad programming before their EOT write (WM is told)"),
    C("unsupported_messages", unsupported_messages, "messages",
      "messages not modelled (zeros returned when a reply is due)"),
    C("unsupported_formats", unsupported_formats, "messages",
      "RT writes to formats the format library cannot pack (dropped)"),
    C("out_of_bounds", out_of_bounds, "pixels", "pixels outside their surface (dropped)"),
    C("page_faults", page_faults, "pixels", "pixels in unmapped memory (dropped)"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("bad_state", bad_state, "events", "unknown blend factor/function encodings, bad surfaces"),
    C("state_read_failures", state_read_failures, "commands",
      "BLEND_STATE / COLOR_CALC_STATE / CC_VIEWPORT / surface states unreadable"),
    C("no_positions", no_positions, "messages",
      "headerless RT writes from threads without subspan positions (dropped)"),
    C("thread_ends", thread_ends, "threads", "PS thread ends sent to WM"),
    C("dither_ignored", dither_ignored, "messages", "RT writes with Color Dither Enable (not modelled)"),
    C("busy_cycles", busy_cycles, "cycles", "cycles the pixel pipe was busy"),
    C("lines", lines, "requests", "64-byte line requests to the L3"),
    C("l3_replies", l3_replies, "replies", "line completions from the L3"),
    C("lines_dropped", lines_dropped, "lines", "lines beyond what one message tracks (not timed)"),
    C("aa_alpha_pixels", aa_alpha_pixels, "pixels",
      "pixels of antialiased lines whose source alpha was multiplied by their coverage"),
    C("stall.writeback", stall_writeback, "cycles", "cycles with a reply held by a full channel"),
    C("draws", draws, "draws", "draws written (the threads' draw numbers, else runs of RT "
      "writes between state packets)"),
    C("late.pixels", late_pixels, "pixels",
      "pixels of late-tested threads (depth/stencil after the PS) tested and counted"),
    C("late.tested", depth.tested, "pixels", "pixels through the late depth/stencil test"),
    C("late.passed", depth.passed, "pixels", "pixels passing late depth and stencil"),
    C("late.depth_failed", depth.depth_failed, "pixels", "pixels failing the late depth test"),
    C("late.stencil_failed", depth.stencil_failed, "pixels", "pixels failing the late stencil test"),
    C("late.depth_writes", depth.depth_writes, "pixels", "depth values written late"),
    C("late.stencil_writes", depth.stencil_writes, "pixels", "stencil values written late"),
    C("late.faults", depth.faults, "accesses", "late depth/stencil accesses that faulted (passed)"),
    C("late.hiz_filled", depth.hiz_filled, "blocks",
      "CLEARED HiZ blocks written to depth before a late test"),
    C("late.hiz_widened", depth.hiz_widened, "blocks", "HiZ bounds widened by late depth writes"),
    C("late.hiz_faults", depth.hiz_faults, "records",
      "HiZ records that could not be read or written"),
    C("late.bad_buffers", depth.bad_buffers, "packets",
      "depth/stencil buffers not modelled (their tests pass)"),
    C("late.stencil_export_ignored", depth.stencil_export_ignored, "messages",
      "RT writes with the shader's stencil (oS) for threads WM tested early: oS not used"),
    C("late.stencil_exported", depth.stencil_exported, "samples",
      "late stencil tests with the shader's oS as the reference (PS computes stencil)"),
    C("untracked_threads", untracked_threads, "messages",
      "RT writes of threads beyond the per-thread count table (counts not reported)"),
    STAT_END
};
#undef C

static void warn_once(struct om *s, struct unit *u, unsigned bit, const char *what)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    unit_log(u, SIM_LOG_NOTE, "%s", what);
}

/* ---- state from WM ------------------------------------------------------------------ */

static bool read_state(struct om *s, const struct cs_state_packet *p, uint64_t address, void *dw,
                       size_t bytes, struct unit *u)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(unit_sim(u)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    if (gpu_address_space_read(&as, address, dw, bytes, &err) != 0) {
        s->state_read_failures++;
        return false;
    }
    return true;
}

static void unpack(int gen, enum spec_id id, const uint32_t *dw, void *out)
{
    const struct spec_element *e = spec_element_by_id(gen, id);
    if (e && e->unpack_common)
        e->unpack_common(dw, out);
}

/* Gen4 state (units/om/om_gen4.h): CC_STATE through 3DSTATE_PIPELINED_
 * POINTERS, read from General State Base + the pointer when the command
 * arrives, folded into the BLEND_STATE entries (every RT: Gen4 has one
 * CC_STATE) and the late test's depth/stencil state, its CC_VIEWPORT; the
 * blend constant colour of 3DSTATE_CONSTANT_COLOR (seed 001 L19637); Gen4's
 * depth buffer. False: not a Gen4 form. */
static bool take_state_gen4(struct om *s, struct unit *u, const struct cs_state_packet *p)
{
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (v->GeneralStateBaseAddressModifyEnable)
            s->general_base = v->GeneralStateBaseAddress;
        return true;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS: {
        const struct spec_3DSTATE_PIPELINED_POINTERS *v = cs_state_common(p);
        memset(&s->cc, 0, sizeof s->cc);
        memset(&s->blend, 0, sizeof s->blend);
        memset(s->entry, 0, sizeof s->entry);
        s->blend_valid = s->cc_valid = false;
        struct spec_3DSTATE_WM_DEPTH_STENCIL ds;
        memset(&ds, 0, sizeof ds);
        if (!gen4_cc_read(unit_sim(u), p, s->general_base + v->PointerToColorCalcState,
                             SPEC_ID_COLOR_CALC_STATE, GEN4_CC_STATE_DWORDS, &s->cc)) {
            s->state_read_failures++;
            om_depth_take_ds(&s->depth, &ds);
            return true;
        }
        s->cc.BlendConstantColorRed = s->constant_color[0];
        s->cc.BlendConstantColorGreen = s->constant_color[1];
        s->cc.BlendConstantColorBlue = s->constant_color[2];
        s->cc.BlendConstantColorAlpha = s->constant_color[3];
        s->cc_valid = s->blend_valid = true;
        gen4_cc_blend(&s->cc, 0, &s->blend, &s->entry[0]);
        for (uint32_t i = 1; i < OM_MAX_RTS; i++)
            s->entry[i] = s->entry[0];
        gen4_cc_depth_stencil(&s->cc, &ds);
        om_depth_take_ds(&s->depth, &ds);
        float mm[2 * OM_DEPTH_VIEWPORTS];
        bool ok = read_state(s, p, s->general_base + s->cc.CCViewportStatePointer, mm, sizeof mm, u);
        om_depth_take_cc_viewport(&s->depth, mm, ok);
        return true;
    }
    case SPEC_ID_3DSTATE_CONSTANT_COLOR: {
        const struct spec_3DSTATE_CONSTANT_COLOR *v = cs_state_common(p);
        s->constant_color[0] = s->cc.BlendConstantColorRed = v->BlendConstantColorRed;
        s->constant_color[1] = s->cc.BlendConstantColorGreen = v->BlendConstantColorGreen;
        s->constant_color[2] = s->cc.BlendConstantColorBlue = v->BlendConstantColorBlue;
        s->constant_color[3] = s->cc.BlendConstantColorAlpha = v->BlendConstantColorAlpha;
        return true;
    }
    case SPEC_ID_3DSTATE_DEPTH_BUFFER:
        om_gen4_take_depth_buffer(&s->depth, cs_state_common(p));
        return true;
    default:
        return false;
    }
}

static void take_state(struct om *s, struct unit *u, const struct cs_state_packet *p)
{
    int gen = (int)p->gen;
    s->state_since_write = true;
    if (gen == 4 && take_state_gen4(s, u, p))
        return;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (v->DynamicStateBaseAddressModifyEnable)
            s->dynamic_base = v->DynamicStateBaseAddress;
        break;
    }
    case SPEC_ID_3DSTATE_BLEND_STATE_POINTERS: {
        /* BLEND_STATE: a dword of common state, then 2 dwords per RT (Gen8+).
         * Gen7 (genxml gen7.xml BLEND_STATE, Mesa's reference): no common
         * dword, the entries start at the pointer and carry alpha to
         * coverage, alpha test and dither themselves, and the pointer command
         * has no Valid bit (DW1 bit 0 is must-be-one, where Gen8 put Valid). */
        const struct spec_3DSTATE_BLEND_STATE_POINTERS *v = cs_state_common(p);
        uint32_t dw[1 + 2 * OM_MAX_RTS];
        uint32_t first_entry = gen == 7 ? 0u : 1u;
        memset(&s->blend, 0, sizeof s->blend);
        memset(s->entry, 0, sizeof s->entry);
        s->blend_valid = false;
        if (gen != 7 && !v->BlendStatePointerValid)
            break;
        if (!read_state(s, p, s->dynamic_base + v->BlendStatePointer, dw,
                        (first_entry + 2 * OM_MAX_RTS) * sizeof dw[0], u))
            break;
        if (gen != 7)
            unpack(gen, SPEC_ID_BLEND_STATE, dw, &s->blend);
        for (uint32_t i = 0; i < OM_MAX_RTS; i++)
            unpack(gen, SPEC_ID_BLEND_STATE_ENTRY, dw + first_entry + 2 * i, &s->entry[i]);
        if (gen == 7) {
            /* the per-pixel tests Gen8 moved to the common dword: RT 0's entry
             * (Mesa's Gen7 drivers program every entry alike) */
            const struct spec_BLEND_STATE_ENTRY *e0 = &s->entry[0];
            s->blend.AlphaToCoverageEnable = e0->AlphaToCoverageEnable;
            s->blend.AlphaToCoverageDitherEnable = e0->AlphaToCoverageDitherEnable;
            s->blend.AlphaToOneEnable = e0->AlphaToOneEnable;
            s->blend.AlphaTestEnable = e0->AlphaTestEnable;
            s->blend.AlphaTestFunction = e0->AlphaTestFunction;
            s->blend.ColorDitherEnable = e0->ColorDitherEnable;
        }
        s->blend_valid = true;
        break;
    }
    case SPEC_ID_3DSTATE_CC_STATE_POINTERS: {
        const struct spec_3DSTATE_CC_STATE_POINTERS *v = cs_state_common(p);
        uint32_t dw[6];
        memset(&s->cc, 0, sizeof s->cc);
        s->cc_valid = false;
        /* Gen7 has no Valid bit (DW1 bit 0 must be one; genxml gen7.xml) */
        if ((gen == 7 || v->ColorCalcStatePointerValid) &&
            read_state(s, p, s->dynamic_base + v->ColorCalcStatePointer, dw, sizeof dw, u)) {
            unpack(gen, SPEC_ID_COLOR_CALC_STATE, dw, &s->cc);
            s->cc_valid = true;
        }
        break;
    }
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_CC: {
        /* the late depth test clamps to CC_VIEWPORT (L16502): Minimum and
         * Maximum Depth per viewport, 8 bytes each */
        const struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_CC *v = cs_state_common(p);
        float mm[2 * OM_DEPTH_VIEWPORTS];
        bool ok = read_state(s, p, s->dynamic_base + v->CCViewportPointer, mm, sizeof mm, u);
        om_depth_take_cc_viewport(&s->depth, mm, ok);
        break;
    }
    case SPEC_ID_3DSTATE_WM_DEPTH_STENCIL:
        om_depth_take_ds(&s->depth, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_DEPTH_BUFFER:
        om_depth_take_depth_buffer(&s->depth, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_HIER_DEPTH_BUFFER:
        om_depth_take_hier_depth_buffer(&s->depth, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_STENCIL_BUFFER:
        om_depth_take_stencil_buffer(&s->depth, cs_state_common(p));
        break;
    case SPEC_ID_3DSTATE_PS: {
        const struct spec_3DSTATE_PS *v = cs_state_common(p);
        s->fast_clear = v->RenderTargetFastClearEnable;
        s->resolve = v->RenderTargetResolveType != 0 || v->RenderTargetResolveEnable;
        /* genxml gen9 RESOLVE_PARTIAL 1, RESOLVE_FULL 3; Gen8 has only a full resolve */
        s->full_resolve = v->RenderTargetResolveType == 3 || v->RenderTargetResolveEnable;
        break;
    }
    case SPEC_ID_3DSTATE_PS_EXTRA: {
        const struct spec_3DSTATE_PS_EXTRA *v = cs_state_common(p);
        s->omask_present = v->OMaskPresentToRenderTarget;
        s->depth_present = v->PixelShaderComputedDepthMode != 0;
        s->stencil_present = v->PixelShaderComputesStencil;
        s->a2c_disabled = v->PixelShaderDisablesAlphaToCoverage;
        break;
    }
    case SPEC_ID_3DSTATE_MULTISAMPLE: {
        const struct spec_3DSTATE_MULTISAMPLE *v = cs_state_common(p);
        s->samples = 1u << (v->NumberOfMultisamples & 7);
        /* 1-8 samples on Gen8, 1-16 on Gen9 (genxml MULTISAMPLECOUNT_*); a
         * reserved count is counted and the RT writes' view is 1x (WM
         * rasterizes such draws at 1x too) */
        if (p->gen >= 8 && v->NumberOfMultisamples > (p->gen >= 9 ? 4u : 3u)) {
            s->bad_state++;
            s->samples = 1;
        }
        om_depth_take_samples(&s->depth, s->samples);
        break;
    }
    default:
        /* 3DSTATE_PS_BLEND (a copy of BLEND_STATE's RT 0 for WM) */
        break;
    }
}

/* ---- surfaces ----------------------------------------------------------------------- */

struct rt {
    struct surface surf;
    uint32_t dw[16];
    const struct format_desc *fmt;
    uint32_t bytes;                 /* per texel */
    unsigned kind;                  /* 0 unorm, 1 snorm, 2 float, 3 integer */
};

/* The RT of binding table index bti (seed 003 L4862-5014: the entry at
 * Surface State Base + binding table + 4 x BTI, the state at Surface State
 * Base + entry). False when unreadable or not a colour surface we can write. */
static bool resolve_rt(struct om *s, struct unit *u, struct gpu_address_space *as,
                       const struct eu_thread_context *c, uint32_t bti, struct rt *rt)
{
    struct gt_error err;
    uint32_t entry;
    unsigned gen = c->valid && c->gen ? c->gen : s->gen;
    /* a binding table entry points at 64-byte aligned state on Gen8/Gen9, at
     * 32-byte aligned state on Gen7 (its SURFACE_STATE is 8 dwords; Mesa's
     * genxml gen7.xml BINDING_TABLE_STATE: Surface State Pointer 31:5) */
    uint32_t entry_mask = gen <= 7 ? ~31u : ~63u;
    if (!c->valid || bti >= 240 ||
        gpu_address_space_read(as, c->surface_state_base + c->binding_table + 4ull * bti, &entry,
                               4, &err) < 0 ||
        gpu_address_space_read(as, c->surface_state_base + (entry & entry_mask), rt->dw, 64,
                               &err) < 0) {
        s->state_read_failures++;
        return false;
    }
    if (surface_from_state(gen, rt->dw, &rt->surf) != SURFACE_OK) {
        if (rt->surf.type != SURFACE_NULL) {
            /* e.g. a sample count the surface may not have (reserved
             * encodings, MSAA on a non-2D surface; genxml gen9.xml
             * RENDER_SURFACE_STATE, units/common/surface.c check()): counted,
             * warned once, the writes dropped */
            s->bad_state++;
            if (!(s->warned & (1u << 5))) {
                s->warned |= 1u << 5;
                unit_log(u, SIM_LOG_WARNING,
                         "render target state at binding table index %u refused (status %d, "
                         "type %u, samples encoding %u): writes dropped (counted in bad_state)",
                         bti, (int)rt->surf.status, (unsigned)((rt->dw[0] >> 29) & 7),
                         (unsigned)((rt->dw[4] >> 3) & 7));
            }
        }
        return false;
    }
    rt->fmt = format_describe(rt->surf.format);
    bool ok = rt->fmt && rt->fmt->layout == FORMAT_LAYOUT_PLAIN && rt->fmt->block_width == 1 &&
              rt->fmt->block_height == 1 && format_block_bytes(rt->fmt) >= 1 &&
              format_block_bytes(rt->fmt) <= 16;
    if (!ok) {
        s->unsupported_formats++;
        bool seen = false;
        for (uint32_t i = 0; i < s->warned_format_count; i++)
            seen |= s->warned_formats[i] == rt->surf.format;
        if (!seen && s->warned_format_count < OM_WARNED_FORMATS) {
            s->warned_formats[s->warned_format_count++] = rt->surf.format;
            unit_log(u, SIM_LOG_WARNING, "render target format %s (0x%x) not modelled: writes dropped",
                     rt->fmt ? rt->fmt->name : "unknown", rt->surf.format);
        }
        return false;
    }
    rt->bytes = format_block_bytes(rt->fmt);
    rt->kind = 2;
    if (rt->fmt->value_kind != FORMAT_VALUE_FLOAT) {
        rt->kind = 3;
    } else {
        bool unorm = true, snorm = true;
        for (unsigned f = 0; f < rt->fmt->field_count; f++) {
            if (rt->fmt->fields[f].type == FORMAT_TYPE_X)
                continue;
            unorm &= rt->fmt->fields[f].type == FORMAT_TYPE_UNORM;
            snorm &= rt->fmt->fields[f].type == FORMAT_TYPE_SNORM;
        }
        rt->kind = unorm ? 0 : snorm ? 1 : 2;
    }
    return true;
}

static const uint32_t *fill_colour(const struct om *s, const struct rt *rt);

static void record_surface(struct om *s, const struct rt *rt, const struct gpu_address_space *as,
                           uint64_t pixels)
{
    struct om_surface *o = NULL;
    for (uint32_t i = 0; i < s->surface_count && !o; i++)
        if (s->surfaces[i].address == rt->surf.base_address)
            o = &s->surfaces[i];
    if (!o) {
        if (s->surface_count == s->surface_capacity) {
            s->surface_capacity = s->surface_capacity ? 2 * s->surface_capacity : 8;
            s->surfaces = gt_xrealloc(s->surfaces, s->surface_capacity * sizeof *s->surfaces);
        }
        o = &s->surfaces[s->surface_count++];
        memset(o, 0, sizeof *o);
    }
    /* the latest state describes it (a surface re-specified keeps its entry) */
    o->address = rt->surf.base_address;
    o->width = rt->surf.width;
    o->height = rt->surf.height;
    o->pitch = rt->surf.pitch;
    o->format = rt->surf.format;
    o->tiling = rt->surf.tiling;
    o->samples = rt->surf.samples;
    o->space_format = as->format;
    o->space_root = as->root;
    o->surface = rt->surf;
    memcpy(o->clear_color, fill_colour(s, rt), sizeof o->clear_color);
    o->pixels_written += pixels;
    if (o->draw_count == 0 || o->last_draw != s->draw) {
        if (o->draw_count < OM_SURFACE_DRAWS)
            o->draws[o->draw_count] = s->draw;
        o->draw_count++;
        o->last_draw = s->draw;
    }
}

uint32_t om_written_surfaces(struct unit *u, const struct om_surface **list)
{
    *list = NULL;
    if (!u || unit_ops_of(u) != &om_ops)
        return 0;                   /* not a real om (a placeholder of the kind) */
    struct om *s = unit_state(u);
    *list = s->surfaces;
    return s->surface_count;
}

int om_set_datapath(struct unit *u, const struct om_datapath *datapath)
{
    if (!u || unit_ops_of(u) != &om_ops)
        return -1;
    struct om *s = unit_state(u);
    s->datapath = datapath;
    s->depth.datapath = datapath;
    return 0;
}

/* ---- one message's memory accesses -------------------------------------------------- */

struct access {
    struct om *s;
    struct unit *u;
    struct txn *t;
    struct gpu_address_space as;
    const struct eu_thread_context *ctx;    /* the sending thread's */
    uint32_t written, depth_passed;         /* this message's, for the thread end */
};

static void add_line(struct access *a, uint64_t physical, uint8_t op)
{
    struct txn *t = a->t;
    uint64_t line = physical & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    for (uint32_t i = t->nlines; i-- > 0;)
        if (t->lines[i] == line) {
            if (op != MEMREQ_READ)
                t->ops[i] = op;
            return;
        }
    if (t->nlines == OM_MAX_LINES) {
        a->s->lines_dropped++;
        return;
    }
    t->lines[t->nlines] = line;
    t->ops[t->nlines++] = op;
}

/* Reads or writes `bytes` at a GPU virtual address (*phys: where); false on
 * a fault. No timing. */
static bool memory_access(struct access *a, uint64_t address, void *data, uint32_t bytes,
                          bool write, uint64_t *phys)
{
    struct gt_error err;
    if (gpu_address_space_translate(&a->as, address, phys) < 0) {
        a->s->page_faults++;
        warn_once(a->s, a->u, 0, "render target pixel in unmapped memory: dropped (counted)");
        return false;
    }
    int rc = write ? gpu_address_space_write(&a->as, address, data, bytes, &err)
                   : gpu_address_space_read(&a->as, address, data, bytes, &err);
    if (rc < 0) {
        a->s->page_faults++;
        return false;
    }
    return true;
}

/* Reads or writes one texel at a GPU virtual address; false on a fault. Every
 * colour line is a line request of the message (the render colour cache,
 * RCC, is not modelled: om.h). */
static bool texel_access(struct access *a, uint64_t address, void *texel, uint32_t bytes, bool write)
{
    uint64_t phys;
    if (!memory_access(a, address, texel, bytes, write, &phys))
        return false;
    add_line(a, phys, write ? MEMREQ_WRITE : MEMREQ_READ);
    return true;
}

/* The control-surface cache (MSC): "Auxiliary Surface (a.k.a Control
 * Surface) i.e. MCS buffer corresponding to a render target is cached in MSC"
 * (seed 003 L7588; on Gen9 the CCS is that MCS buffer's single-sampled form,
 * L16841). A fully associative, write-back, write-allocate cache of
 * `aux_cache_lines` 64-byte lines with LRU replacement (organisation and size
 * are not in the seed: the model's choice). A hit costs no line request; a
 * miss makes the message request the line (a read: the fill) and, when the
 * victim is dirty, its write-back. The data itself always lives in memory
 * (the functional access happens at once), so the cache holds tags only;
 * dirty lines still held at a render target cache flush (PIPE_CONTROL,
 * L8192) are not written back: om does not see the flush. */
static void aux_cache_access(struct access *a, uint64_t physical, bool write)
{
    struct om *s = a->s;
    if (!s->aux_cache_lines || !s->aux_cache) {
        add_line(a, physical, write ? MEMREQ_WRITE : MEMREQ_READ);
        return;
    }
    uint64_t line = physical & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    struct aux_line *c = s->aux_cache;
    uint32_t hit = s->aux_cache_lines;
    if (c[s->aux_last].valid && c[s->aux_last].line == line) {
        hit = s->aux_last;
    } else {
        for (uint32_t i = 0; i < s->aux_cache_lines; i++)
            if (c[i].valid && c[i].line == line) {
                hit = i;
                break;
            }
    }
    if (hit < s->aux_cache_lines) {
        s->aux_hits++;
    } else {
        s->aux_misses++;
        hit = 0;
        for (uint32_t i = 0; i < s->aux_cache_lines; i++) {
            if (!c[i].valid) {
                hit = i;
                break;
            }
            if (c[i].last_use < c[hit].last_use)
                hit = i;
        }
        if (c[hit].valid && c[hit].dirty) {
            add_line(a, c[hit].line, MEMREQ_WRITE);
            s->aux_writebacks++;
        }
        c[hit] = (struct aux_line){ .line = line, .valid = true };
        add_line(a, line, MEMREQ_READ);
    }
    c[hit].last_use = ++s->aux_stamp;
    c[hit].dirty |= write;
    s->aux_last = hit;
}

/* The bits of the texel that belong to disabled channels (the BLEND_STATE
 * entry's Write Disable R/G/B/A, L16713-16721). */
static void write_disable_mask(const struct format_desc *f, const struct spec_BLEND_STATE_ENTRY *e,
                               uint8_t keep[16])
{
    memset(keep, 0, 16);
    bool off[4] = { e->WriteDisableRed, e->WriteDisableGreen, e->WriteDisableBlue,
                    e->WriteDisableAlpha };
    for (unsigned i = 0; i < f->field_count; i++) {
        const struct format_field *fd = &f->fields[i];
        unsigned ch = fd->channel;
        bool disabled = ch <= FORMAT_CH_A ? off[ch]
                      : ch == FORMAT_CH_L ? off[0] : ch == FORMAT_CH_I ? off[0] && off[3] : false;
        if (!disabled)
            continue;
        for (unsigned b = fd->shift; b < (unsigned)fd->shift + fd->bits && b < 128; b++)
            keep[b / 8] |= (uint8_t)(1u << (b % 8));
    }
}

/* ---- render target writes ----------------------------------------------------------- */

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint32_t reg32(const struct eu_send_msg *p, uint32_t nregs, uint32_t reg, uint32_t dw)
{
    uint32_t v = 0;
    if (reg < nregs)
        memcpy(&v, p->regs[reg] + 4 * dw, 4);
    return v;
}

/* Decodes an RT write (L7858-7950) into w; false when the payload is short. */
static bool decode_rt_write(const struct om *s, const struct eu_send_msg *p, uint32_t nregs,
                            struct rt_write *w)
{
    uint32_t desc = p->desc;
    bool header = desc_msg_header_present(desc) || (p->flags & EU_SEND_HEADER);
    memset(w, 0, sizeof *w);
    w->render_target = desc_rc_binding_table(desc);
    w->subtype = desc_rc_rt_subtype(desc);
    w->samples = s->samples ? s->samples : 1;
    if (desc_rc_rt_last(desc))
        w->flags |= RT_WRITE_LAST_RT;
    if (desc_rc_rt_slot_group(desc))
        w->flags |= RT_WRITE_SLOT_GROUP_HIGH;
    if (p->flags & EU_SEND_EOT)
        w->flags |= RT_WRITE_EOT;
    uint32_t r0 = 0;
    if (header) {
        r0 = reg32(p, nregs, 0, 0);
        w->render_target_index = reg32(p, nregs, 0, 2);
        w->rt_array_index = (r0 >> 16) & 0x7ff;
        /* bits 7:6, and bit 8 ("reserved for expansion of" SSPI, L16148)
         * for 16x's pairs 4-7 (thread_msg.h starting_sample_pair) */
        w->starting_sample_pair = (r0 >> 6) & 7;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t xy = reg32(p, nregs, 1, 2 + k);
            w->subspan_x[k] = (uint16_t)xy;
            w->subspan_y[k] = (uint16_t)(xy >> 16);
        }
        for (unsigned k = 4; k < PIXEL_MAX_SUBSPANS; k++) {
            /* beyond the header's four subspans: the dispatch's */
            w->subspan_x[k] = p->ctx.pixel_x[k];
            w->subspan_y[k] = p->ctx.pixel_y[k];
        }
        w->slot_mask = reg32(p, nregs, 1, 7) & 0xffff;
        if (p->ctx.subspans > 4)
            w->slot_mask |= p->ctx.pixel_mask & 0xffff0000u;
    } else {
        w->starting_sample_pair = p->ctx.starting_sample_pair;
        r0 = (s->omask_present ? HDR_OMASK : 0) | (s->depth_present ? HDR_SOURCE_DEPTH : 0) |
             (s->stencil_present ? HDR_STENCIL : 0);
        for (unsigned k = 0; k < PIXEL_MAX_SUBSPANS; k++) {
            w->subspan_x[k] = p->ctx.pixel_x[k];
            w->subspan_y[k] = p->ctx.pixel_y[k];
        }
    }
    bool simd16 = w->subtype == RT_WRITE_SIMD16_SINGLE_SOURCE ||
                  w->subtype == RT_WRITE_SIMD16_REPLICATED;
    bool rep = w->subtype == RT_WRITE_SIMD16_REPLICATED;
    bool dual = w->subtype == RT_WRITE_SIMD8_DUAL_SOURCE_LOW ||
                w->subtype == RT_WRITE_SIMD8_DUAL_SOURCE_HIGH;
    /* presence: s0A only with a header (L8063-8075); REP16 carries only oM */
    if ((r0 & HDR_SOURCE0_ALPHA) && header && !rep && !dual)
        w->flags |= RT_WRITE_HAS_SOURCE0_ALPHA;
    if (r0 & HDR_OMASK)
        w->flags |= RT_WRITE_HAS_OMASK;
    if ((r0 & HDR_SOURCE_DEPTH) && !rep)
        w->flags |= RT_WRITE_HAS_DEPTH;
    if ((r0 & HDR_STENCIL) && !simd16)
        w->flags |= RT_WRITE_HAS_STENCIL;
    if (dual)
        w->flags |= RT_WRITE_DUAL_SOURCE;
    /* the message's slots in the thread's slot numbering */
    unsigned n = simd16 ? 16 : 8, regs_per = simd16 && !rep ? 2 : 1;
    unsigned base = 0;
    if (w->subtype == RT_WRITE_SIMD8_DUAL_SOURCE_HIGH)
        base = 8;
    if (w->flags & RT_WRITE_SLOT_GROUP_HIGH)
        base += simd16 ? 16 : 8;
    if (!header) {
        /* the exec mask stands for the Pixel Sample Mask (L8200); the
         * scoreboard's lit pixels keep helper pixels out */
        uint32_t em = p->exec_mask;
        if (!simd16)
            em = (em >> 8) && (em & 0xff) == 0 && base >= 8 ? (em >> 8) & 0xff : em & 0xff;
        else
            em &= 0xffff;
        w->slot_mask = (em << base) & p->ctx.pixel_mask;
    }
    uint32_t msg_mask = n == 32 ? ~0u : ((1u << n) - 1) << base;
    w->slot_mask &= msg_mask;
    unsigned r = header ? 2 : 0;
    uint32_t need = r + ((w->flags & RT_WRITE_HAS_SOURCE0_ALPHA) ? regs_per : 0) +
                    ((w->flags & RT_WRITE_HAS_OMASK) ? 1 : 0) +
                    (rep ? 1 : 4 * regs_per * (dual ? 2 : 1)) +
                    ((w->flags & RT_WRITE_HAS_DEPTH) ? regs_per : 0) +
                    ((w->flags & RT_WRITE_HAS_STENCIL) ? 1 : 0);
    if (nregs < need)
        return false;
    if (w->flags & RT_WRITE_HAS_SOURCE0_ALPHA) {
        for (unsigned i = 0; i < n; i++)
            w->source0_alpha[base + i] = reg32(p, nregs, r + i / 8, i % 8);
        r += regs_per;
    }
    if (w->flags & RT_WRITE_HAS_OMASK) {
        /* one register of 16-bit masks, one a slot (Mesa's oMask payload) */
        for (unsigned i = 0; i < n; i++) {
            uint16_t m16;
            memcpy(&m16, p->regs[r] + 2 * i, 2);
            w->omask[base + i] = m16;
        }
        r += 1;
    }
    for (unsigned src = 0; src < (dual ? 2u : 1u); src++)
        for (unsigned c = 0; c < 4; c++) {
            for (unsigned i = 0; i < n; i++)
                w->color[src][c][base + i] = rep ? reg32(p, nregs, r, c)
                                                 : reg32(p, nregs, r + i / 8, i % 8);
            if (!rep)
                r += regs_per;
        }
    if (rep)
        r += 1;
    if (w->flags & RT_WRITE_HAS_DEPTH) {
        for (unsigned i = 0; i < n; i++)
            w->depth[base + i] = as_float(reg32(p, nregs, r + i / 8, i % 8));
        r += regs_per;
    }
    if (w->flags & RT_WRITE_HAS_STENCIL)
        for (unsigned i = 0; i < n; i++)
            w->stencil[base + i] = p->regs[r][i];
    return true;
}

/* The pixel of thread slot `slot` (4k+i: subspan k, pixel i UL UR LL LR). */
static void slot_position(const struct rt_write *w, unsigned slot, uint32_t *x, uint32_t *y)
{
    unsigned k = slot / 4, i = slot % 4;
    *x = (uint32_t)w->subspan_x[k] + (i & 1);
    *y = (uint32_t)w->subspan_y[k] + (i >> 1);
}

static uint32_t rt_slice(const struct rt *rt, uint32_t index)
{
    /* an out-of-range array index is forced to 0 (L8206-8213) */
    uint32_t slice = rt->surf.min_array_element + index;
    uint32_t count = rt->surf.type == SURFACE_3D ? rt->surf.depth : rt->surf.array_length;
    return slice < count ? slice : 0;
}

/* A clear colour as the state holds it (struct surface clear_color: Gen9 the
 * dwords' bits, floats for float formats, integers otherwise; Gen7/8 1-bit
 * fields) as a value of the RT's format. */
static void clear_value_of(unsigned gen, const struct format_desc *fmt, const uint32_t raw[4],
                           struct format_value *v)
{
    memset(v, 0, sizeof *v);
    v->kind = (enum format_value_kind)fmt->value_kind;
    for (unsigned c = 0; c < 4; c++) {
        if (v->kind != FORMAT_VALUE_FLOAT)
            v->u[c] = raw[c];
        else if (gen >= 9)
            v->f[c] = as_float(raw[c]);
        else
            v->f[c] = raw[c] ? 1.0f : 0.0f;
    }
}

static void clear_value(const struct rt *rt, const uint32_t raw[4], struct format_value *v)
{
    clear_value_of(rt->surf.gen, rt->fmt, raw, v);
}

static void clear_colour(const struct rt *rt, struct format_value *v)
{
    clear_value(rt, rt->surf.clear_color, v);
}

/* ---- auxiliary surfaces: CCS and MCS (layouts: units/common/surface.h) ---------------- */

/* The colour a CLEAR block (or a cleared MCS pixel) holds when an RT write
 * lands in part of it, or an RT read or image reads it: the clear colour of
 * the RT's SURFACE_STATE ("clear value for that RT must be programmed", seed
 * 003 L16847; the resolve and the sampler use their own state's, L16870,
 * L16884). */
static const uint32_t *fill_colour(const struct om *s, const struct rt *rt)
{
    (void)s;
    return rt->surf.clear_color;
}

static bool aux_access(struct access *a, uint64_t address, void *data, uint32_t bytes, bool write)
{
    uint64_t phys;
    if (memory_access(a, address, data, bytes, write, &phys)) {
        aux_cache_access(a, phys, write);
        return true;
    }
    a->s->aux_faults++;
    return false;
}

/* The CCS element of pixel (x, y): its value, byte address and shift; false
 * when the byte cannot be read. */
static bool ccs_get(struct access *a, const struct rt *rt, uint32_t x, uint32_t y, uint32_t slice,
                    uint32_t lod, unsigned *value, uint64_t *address, unsigned *shift)
{
    uint8_t byte;
    if (surface_ccs_address(&rt->surf, x, y, slice, lod, address, shift) != SURFACE_OK)
        return false;
    a->s->ccs_reads++;
    if (!aux_access(a, *address, &byte, 1, false))
        return false;
    *value = (byte >> *shift) & 3u;
    return true;
}

static void ccs_set(struct access *a, uint64_t address, unsigned shift, unsigned value)
{
    uint8_t byte;
    if (!aux_access(a, address, &byte, 1, false))
        return;
    byte = (uint8_t)((byte & ~(3u << shift)) | (value & 3u) << shift);
    aux_access(a, address, &byte, 1, true);
}

/* Writes `texel` into every pixel of the cache-line pair holding (x, y),
 * clipped to the LOD; the pixels written. */
static uint64_t fill_ccs_block(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                               uint32_t slice, uint32_t lod, const uint8_t *texel)
{
    uint32_t cw, ch;
    surface_ccs_block(&rt->surf, &cw, &ch);
    uint32_t w = surface_lod_width(&rt->surf, lod), h = surface_lod_height(&rt->surf, lod);
    uint32_t x0 = x / cw * cw, y0 = y / ch * ch;
    uint64_t n = 0;
    for (uint32_t py = y0; py < y0 + ch && py < h; py++)
        for (uint32_t px = x0; px < x0 + cw && px < w; px++) {
            uint64_t addr;
            if (surface_address(&rt->surf, px, py, slice, lod, 0, &addr) == SURFACE_OK &&
                texel_access(a, addr, (void *)texel, rt->bytes, true))
                n++;
        }
    return n;
}

/* Before an RT write of pixel (x, y) of a CCS surface: a CLEAR cache-line pair
 * is first filled with the clear value (the render cache writes whole
 * cache-line pairs), and the pair becomes uncompressed (the model stores
 * every block uncompressed). */
static void ccs_prepare_write(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                              uint32_t slice, uint32_t lod)
{
    unsigned value, shift;
    uint64_t address;
    if (!ccs_get(a, rt, x, y, slice, lod, &value, &address, &shift))
        return;
    if (value == SURFACE_CCS_CLEAR) {
        struct format_value v;
        uint8_t texel[16];
        clear_value(rt, fill_colour(a->s, rt), &v);
        if (format_pack(rt->surf.format, &v, texel) == FORMAT_OK) {
            fill_ccs_block(a, rt, x, y, slice, lod, texel);
            a->s->ccs_filled++;
        }
    }
    if (value != SURFACE_CCS_UNCOMPRESSED)
        ccs_set(a, address, shift, SURFACE_CCS_UNCOMPRESSED);
}

/* The logical texel of sample `sample` of pixel (x, y) of a multisampled RT
 * with an MCS whose value is mcs: the clear value when cleared, else the
 * plane the MCS names. */
static bool mcs_sample(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                       uint32_t slice, uint64_t mcs, uint32_t sample, uint8_t *texel)
{
    uint32_t samples = rt->surf.samples;
    memset(texel, 0, 16);
    if (surface_mcs_is_clear(samples, mcs)) {
        struct format_value v;
        clear_value(rt, fill_colour(a->s, rt), &v);
        return format_pack(rt->surf.format, &v, texel) == FORMAT_OK;
    }
    unsigned bits = surface_mcs_bits_per_sample(samples);
    uint32_t plane = (uint32_t)(mcs >> (bits * sample)) & ((1u << bits) - 1);
    uint64_t addr;
    if (plane >= samples ||
        surface_address(&rt->surf, x, y, slice, rt->surf.mip_count_lod, plane, &addr) != SURFACE_OK)
        return false;
    return texel_access(a, addr, texel, rt->bytes, false);
}

static bool mcs_read(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                     uint32_t slice, uint64_t *mcs, uint64_t *address)
{
    uint32_t bytes = surface_mcs_element_bytes(rt->surf.samples);
    *mcs = 0;
    if (surface_mcs_address(&rt->surf, x, y, slice, address) != SURFACE_OK)
        return false;
    a->s->mcs_reads++;
    return aux_access(a, *address, mcs, bytes, false);
}

/* The pixels of a multisampled RT one pixel of its fast-clear rectangle stands
 * for: the MSRT clear rectangle is the RT scaled down by 8 x 2 (2x, 4x), 2 x 2
 * (8x), 1 x 2 (16x) (the MCS of an MSRT: 2x/4x (ceil(w/8), ceil(h/2)), 8x
 * (ceil(w/2), ceil(h/2)), 16x (w, ceil(h/2)); seed 003 §3.15 L16768-16885
 * "a rectangle primitive of the same size as the MCS surface", the scale
 * factors from the PRM's MSRT table as Mesa's blorp uses them [EXT]). */
static void msrt_clear_block(uint32_t samples, uint32_t *bw, uint32_t *bh)
{
    *bh = 2;
    *bw = samples >= 16 ? 1 : samples >= 8 ? 2 : 8;
}

/* Fast clear: pixel (x, y) of the clear draw fills its block (L16808-16835). */
static uint64_t fast_clear_pixel(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                                 uint32_t slice)
{
    uint32_t bw, bh = 32;
    bool gen7 = rt->surf.gen == 7 && rt->surf.samples <= 1;
    if (rt->surf.samples > 1) {
        msrt_clear_block(rt->surf.samples, &bw, &bh);
    } else if (gen7) {
        /* Gen7's scale and eager fill (om_gen7.h) */
        if (!om_gen7_fast_clear_block(&rt->surf, &bw, &bh)) {
            a->s->unsupported_formats++;
            return 0;
        }
    } else {
        switch (rt->bytes) {
        case 4: bw = 64; break;
        case 8: bw = 32; break;
        case 16: bw = 16; break;
        default:
            a->s->unsupported_formats++;
            return 0;
        }
    }
    uint32_t lod = rt->surf.mip_count_lod;
    uint32_t w = surface_lod_width(&rt->surf, lod), h = surface_lod_height(&rt->surf, lod);
    uint8_t texel[16];
    struct format_value v;
    clear_colour(rt, &v);
    if (format_pack(rt->surf.format, &v, texel) != FORMAT_OK) {
        a->s->unsupported_formats++;
        return 0;
    }
    uint64_t x0 = (uint64_t)x * bw, y0 = (uint64_t)y * bh, n = 0;
    if (x0 >= w || y0 >= h)
        return 0;
    a->s->fast_clear_blocks++;
    enum surface_aux_usage usage = surface_aux_usage(&rt->surf);
    if (usage == SURFACE_AUX_USAGE_CCS) {
        /* the block's cache-line pairs become CLEAR; no colour is written */
        uint32_t cw, ch;
        surface_ccs_block(&rt->surf, &cw, &ch);
        for (uint64_t py = y0; py < y0 + bh && py < h; py += ch)
            for (uint64_t px = x0; px < x0 + bw && px < w; px += cw) {
                uint64_t address;
                unsigned shift;
                if (surface_ccs_address(&rt->surf, (uint32_t)px, (uint32_t)py, slice, lod,
                                        &address, &shift) != SURFACE_OK)
                    continue;
                ccs_set(a, address, shift, SURFACE_CCS_CLEAR);
                a->s->ccs_cleared++;
                n += (uint64_t)(px + cw < w ? cw : w - px) * (py + ch < h ? ch : h - py);
            }
        a->s->fast_clear_pixels += n;
        return n;
    }
    if (usage == SURFACE_AUX_USAGE_MCS) {
        /* every pixel of the block: the MCS's cleared value (L16795-16797) */
        uint64_t cleared = surface_mcs_cleared(rt->surf.samples);
        uint32_t bytes = surface_mcs_element_bytes(rt->surf.samples);
        for (uint64_t py = y0; py < y0 + bh && py < h; py++)
            for (uint64_t px = x0; px < x0 + bw && px < w; px++) {
                uint64_t address;
                if (surface_mcs_address(&rt->surf, (uint32_t)px, (uint32_t)py, slice,
                                        &address) != SURFACE_OK) {
                    a->s->out_of_bounds++;
                    continue;
                }
                if (aux_access(a, address, &cleared, bytes, true)) {
                    a->s->mcs_cleared++;
                    n += rt->surf.samples;
                }
            }
        a->s->fast_clear_pixels += n;
        return n;
    }
    if (rt->surf.aux_mode != SURFACE_AUX_NONE && !gen7)
        a->s->aux_not_modelled++;
    for (uint64_t py = y0; py < y0 + bh && py < h; py++)
        for (uint64_t px = x0; px < x0 + bw && px < w; px++)
            for (uint32_t smp = 0; smp < rt->surf.samples; smp++) {
                uint64_t addr;
                if (surface_address(&rt->surf, (uint32_t)px, (uint32_t)py, slice, lod, smp,
                                    &addr) != SURFACE_OK) {
                    a->s->out_of_bounds++;
                    continue;
                }
                if (texel_access(a, addr, texel, rt->bytes, true))
                    n++;
            }
    a->s->fast_clear_pixels += n;
    return n;
}

/* The late depth/stencil test of a slot (om_depth.h), after alpha to
 * coverage, oMask and alpha test (L16420-16431): the samples of `coverage`
 * that go on (all of them for threads WM tested early). A single-sampled
 * depth buffer tests the pixel once (all or none of `coverage`); a
 * multisampled one each covered sample ("nX output merge", L15658-15667).
 * The thread's last RT write updates the buffers and counts (passes in
 * samples when multisampled, L16766). */
static uint32_t late_depth_stencil(struct access *a, const struct rt_write *w, unsigned slot,
                                   uint32_t coverage)
{
    if (!(a->ctx->pixel_flags & EU_PIXEL_LATE_DEPTH_STENCIL))
        return coverage;
    uint32_t x, y;
    slot_position(w, slot, &x, &y);
    bool update = (w->flags & RT_WRITE_LAST_RT) != 0;
    uint32_t samples = om_depth_samples(&a->s->depth);
    uint32_t kept = 0;
    /* the shader's output stencil as the reference (om_depth.h) */
    int32_t reference = (w->flags & RT_WRITE_HAS_STENCIL) ? (int32_t)w->stencil[slot] : -1;
    if (samples == 1) {
        float z = (w->flags & RT_WRITE_HAS_DEPTH) ? w->depth[slot] : om_depth_source(a->ctx, x, y);
        if (om_depth_test(&a->s->depth, &a->as, a->ctx, x, y, 0, w->rt_array_index, z,
                          reference, update))
            kept = coverage;
    } else {
        for (uint32_t smp = 0; smp < samples; smp++) {
            if (!(coverage & (1u << smp)))
                continue;
            float z = (w->flags & RT_WRITE_HAS_DEPTH) ? w->depth[slot]
                                                      : om_depth_source_sample(a->ctx, x, y, smp);
            if (om_depth_test(&a->s->depth, &a->as, a->ctx, x, y, smp, w->rt_array_index, z,
                              reference, update))
                kept |= 1u << smp;
        }
    }
    if (update) {
        a->s->late_pixels++;
        a->depth_passed += samples == 1 ? (kept != 0) : (uint32_t)__builtin_popcount(kept);
    }
    return kept;
}

/* The samples of slot `slot` the rasterizer found covered (WM's per-pixel
 * sample masks in the thread's context, thread_msg.h): under multisample
 * rasterization only those samples of a lit pixel are written (seed 003
 * L15582-15690: "pixel" = sample for the colour calculator, L16385ff). */
static uint32_t sample_coverage(const struct access *a, const struct rt_write *w, unsigned slot,
                                uint32_t samples)
{
    if (a->ctx && (a->ctx->pixel_flags & EU_PIXEL_PER_SAMPLE) && slot < 32 && samples) {
        /* per-sample dispatch: the slot is one sample, by the slot mapping
         * (L7700-7725): slot group g holds Sample[2 SSPI + g] (mod the
         * sample count when a dispatch holds several subspans' samples),
         * SSPI from the message header (L7702), or the dispatch's for a
         * headerless message (decode_rt_write) */
        uint32_t sample = (2u * w->starting_sample_pair + slot / 4u) % samples;
        a->s->per_sample_slots++;
        return 1u << sample;
    }
    if (!a->ctx || !a->ctx->sample_masks_valid || slot >= 32)
        return ~0u;
    return a->ctx->sample_mask[slot];
}

/* What one sample's colour calculator needs besides the destination. */
struct shade {
    const struct spec_BLEND_STATE_ENTRY *e;
    bool blend, logic, any_keep;
    uint8_t keep[16];
    float lo, hi, src[4], src1[4];
};

/* The texel `out` a sample of slot `slot` becomes over destination `dst`
 * (blend, clamps, pack, logic op, write disables); false when the format
 * cannot be packed (counted). */
static bool shade_sample(struct access *a, const struct rt *rt, const struct rt_write *w,
                         unsigned slot, const struct shade *sh, const uint8_t *dst, uint8_t *out)
{
    struct om *s = a->s;
    const struct spec_BLEND_STATE_ENTRY *e = sh->e;
    bool blend = sh->blend, logic = sh->logic;
    const uint8_t *keep = sh->keep;
    float lo = sh->lo, hi = sh->hi;
    const float *src = sh->src, *src1 = sh->src1;
    memset(out, 0, 16);
    struct format_value v;
    memset(&v, 0, sizeof v);
    v.kind = (enum format_value_kind)rt->fmt->value_kind;
    if (rt->kind == 3) {
        /* integer formats: the shader's integers, the implied clamp of
         * the packer (L16524-16535) */
        for (unsigned c = 0; c < 4; c++)
            v.u[c] = w->color[0][c][slot];
    } else {
        /* the float datapath (om_color.h om_color_compute, or the RTL's) */
        struct om_color_request rq;
        memset(&rq, 0, sizeof rq);
        rq.blend = blend;
        rq.pre_clamp = e->PreBlendColorClampEnable;
        rq.post_clamp = e->PostBlendColorClampEnable;
        /* Gen7 keeps Independent Alpha Blend Enable per entry */
        rq.independent_alpha = s->blend.IndependentAlphaBlendEnable || e->IndependentAlphaBlendEnable;
        rq.source_factor = e->SourceBlendFactor;
        rq.destination_factor = e->DestinationBlendFactor;
        rq.function = e->ColorBlendFunction;
        rq.source_alpha_factor = e->SourceAlphaBlendFactor;
        rq.destination_alpha_factor = e->DestinationAlphaBlendFactor;
        rq.alpha_function = e->AlphaBlendFunction;
        rq.lo = lo;
        rq.hi = hi;
        memcpy(rq.in.src, src, sizeof rq.in.src);
        memcpy(rq.in.src1, src1, sizeof rq.in.src1);
        if (blend) {
            struct format_value d;
            if (format_unpack(rt->surf.format, dst, &d) != FORMAT_OK)
                memset(&d, 0, sizeof d);
            memcpy(rq.in.dst, d.f, sizeof rq.in.dst);
            rq.in.constant[0] = s->cc.BlendConstantColorRed;
            rq.in.constant[1] = s->cc.BlendConstantColorGreen;
            rq.in.constant[2] = s->cc.BlendConstantColorBlue;
            rq.in.constant[3] = s->cc.BlendConstantColorAlpha;
        }
        float col[4];
        bool ok = s->datapath && s->datapath->color
                      ? s->datapath->color(s->datapath->context, &rq, col)
                      : om_color_compute(&rq, col);
        if (blend) {
            if (!ok)
                s->bad_state++;
            s->pixels_blended++;
        }
        memcpy(v.f, col, sizeof col);
    }
    if (format_pack(rt->surf.format, &v, out) != FORMAT_OK) {
        s->unsupported_formats++;
        return false;
    }
    /* logic op, then the disabled channels' bits from the destination,
     * a 32-bit word at a time (om_color_bits, or the RTL's) */
    for (unsigned b = 0; b < rt->bytes; b += 4) {
        uint32_t sv = 0, dv = 0, kv = 0, n = rt->bytes - b < 4 ? rt->bytes - b : 4;
        memcpy(&sv, out + b, n);
        memcpy(&dv, dst + b, n);
        memcpy(&kv, keep + b, n);
        uint32_t r = s->datapath && s->datapath->bits
                         ? s->datapath->bits(s->datapath->context, logic,
                                             e->LogicOpFunction, sv, dv, kv)
                         : om_color_bits(logic, e->LogicOpFunction, sv, dv, kv);
        memcpy(out + b, &r, n);
    }
    if (logic)
        s->pixels_logic_op++;
    return true;
}

/* A pixel of a multisampled RT with an MCS (seed 003 L16795-16800; encoding:
 * surface.h): every sample's current value through the MCS (the clear value
 * when cleared), the covered samples through the colour calculator, then the
 * pixel stored compressed when all its samples are equal (MCS 0: plane 0
 * only) and otherwise each sample in its own plane (the uncompressed MCS).
 * The samples written (covered ones). */
static uint64_t write_mcs_pixel(struct access *a, const struct rt *rt, const struct rt_write *w,
                                unsigned slot, const struct shade *sh, uint32_t x, uint32_t y,
                                uint32_t slice, uint32_t coverage)
{
    struct om *s = a->s;
    uint32_t samples = rt->surf.samples > 16 ? 16 : rt->surf.samples;
    uint32_t lod = rt->surf.mip_count_lod;
    uint64_t mcs, mcs_address;
    if (!mcs_read(a, rt, x, y, slice, &mcs, &mcs_address)) {
        s->out_of_bounds++;
        return 0;
    }
    uint8_t value[16][16];
    for (uint32_t smp = 0; smp < samples; smp++)
        if (!mcs_sample(a, rt, x, y, slice, mcs, smp, value[smp]))
            memset(value[smp], 0, sizeof value[smp]);
    uint64_t written = 0;
    for (uint32_t smp = 0; smp < samples; smp++) {
        if (!(coverage & (1u << smp)))
            continue;
        uint8_t out[16];
        if (!shade_sample(a, rt, w, slot, sh, value[smp], out))
            continue;
        memcpy(value[smp], out, sizeof out);
        written++;
    }
    if (!written)
        return 0;
    bool equal = true;
    for (uint32_t smp = 1; smp < samples; smp++)
        equal &= memcmp(value[smp], value[0], rt->bytes) == 0;
    uint64_t next = equal ? 0 : surface_mcs_uncompressed(samples);
    for (uint32_t smp = 0; smp < (equal ? 1u : samples); smp++) {
        uint64_t addr;
        if (surface_address(&rt->surf, x, y, slice, lod, smp, &addr) != SURFACE_OK) {
            s->out_of_bounds++;
            continue;
        }
        texel_access(a, addr, value[smp], rt->bytes, true);
    }
    if (equal)
        s->mcs_compressed++;
    else
        s->mcs_uncompressed++;
    if (next != mcs)
        aux_access(a, mcs_address, &next, surface_mcs_element_bytes(samples), true);
    return written;
}

/* One slot through the colour calculator and into the RT; the samples written. */
static uint64_t write_slot(struct access *a, const struct rt *rt, const struct rt_write *w,
                           unsigned slot, bool *discarded)
{
    struct om *s = a->s;
    uint32_t rti = w->render_target_index < OM_MAX_RTS ? w->render_target_index : 0;
    const struct spec_BLEND_STATE_ENTRY *e = &s->entry[rti];
    struct spec_BLEND_STATE_ENTRY none = { .PreBlendColorClampEnable = true,
                                           .ColorClampRange = OM_CLAMP_RTFORMAT };
    if (!s->blend_valid)
        e = &none;
    uint32_t x, y;
    slot_position(w, slot, &x, &y);
    float src[4], src1[4];
    for (unsigned c = 0; c < 4; c++) {
        src[c] = as_float(w->color[0][c][slot]);
        src1[c] = as_float(w->color[1][c][slot]);
    }
    float alpha0 = (w->flags & RT_WRITE_HAS_SOURCE0_ALPHA) ? as_float(w->source0_alpha[slot])
                                                            : src[3];
    /* antialiased lines: "Src0.alpha needs to be first multiplied with AA
     * alpha before applying AlphaToCoverage and AlphaToOne" (L16448); the
     * pixel's coverage comes with the thread (thread_msg.h aa_alpha). The
     * colour's alpha, which blending uses, is Src0.alpha when no separate
     * s0A is sent; with s0A both are scaled (the model's reading). */
    if (a->ctx && a->ctx->aa_alpha_valid && slot < 32) {
        float aa = (float)a->ctx->aa_alpha[slot] / 255.0f;
        alpha0 *= aa;
        src[3] *= aa;
        s->aa_alpha_pixels++;
    }
    /* coverage of the pixel's samples: alpha to coverage, oMask (L16435-16450) */
    uint32_t samples = rt->surf.samples ? rt->surf.samples : 1;
    uint32_t coverage = samples >= 32 ? ~0u : (1u << samples) - 1;
    if (s->blend_valid && s->blend.AlphaToCoverageEnable && !s->a2c_disabled &&
        !(w->flags & RT_WRITE_HAS_OMASK) && rt->kind != 3)
        coverage &= om_alpha_to_coverage(alpha0, samples);
    if (w->flags & RT_WRITE_HAS_OMASK)
        coverage &= w->omask[slot];
    coverage &= sample_coverage(a, w, slot, samples);
    if (s->blend_valid && s->blend.AlphaToOneEnable) {
        if (w->flags & RT_WRITE_HAS_SOURCE0_ALPHA)
            alpha0 = 1.0f;
        else
            src[3] = alpha0 = 1.0f;
    }
    /* alpha test (L16452-16466) */
    if (s->blend_valid && s->blend.AlphaTestEnable && rt->kind != 3 &&
        !om_alpha_test(s->blend.AlphaTestFunction, alpha0,
                       !s->cc_valid || s->cc.AlphaTestFormat == 0, s->cc.AlphaReferenceValueAsFLOAT32,
                       s->cc.AlphaReferenceValueAsUNORM8))
        coverage = 0;
    if (!coverage) {
        *discarded = true;
        return 0;
    }
    coverage = late_depth_stencil(a, w, slot, coverage);
    if (!coverage) {
        *discarded = true;
        return 0;
    }
    uint32_t lod = rt->surf.mip_count_lod, slice = rt_slice(rt, w->rt_array_index);
    struct shade sh;
    memset(&sh, 0, sizeof sh);
    sh.e = e;
    sh.blend = e->ColorBufferBlendEnable && rt->kind != 3;
    sh.logic = e->LogicOpEnable && !sh.blend;
    write_disable_mask(rt->fmt, e, sh.keep);
    for (unsigned b = 0; b < rt->bytes; b++)
        sh.any_keep |= sh.keep[b] != 0;
    om_clamp_range(e->ColorClampRange, rt->kind, &sh.lo, &sh.hi);
    memcpy(sh.src, src, sizeof sh.src);
    memcpy(sh.src1, src1, sizeof sh.src1);
    enum surface_aux_usage usage = surface_aux_usage(&rt->surf);
    if (usage == SURFACE_AUX_USAGE_MCS)
        return write_mcs_pixel(a, rt, w, slot, &sh, x, y, slice, coverage);
    if (usage == SURFACE_AUX_USAGE_CCS)
        ccs_prepare_write(a, rt, x, y, slice, lod);
    uint64_t written = 0;
    for (uint32_t smp = 0; smp < samples; smp++) {
        if (!(coverage & (1u << smp)))
            continue;
        uint64_t addr;
        if (surface_address(&rt->surf, x, y, slice, lod, smp, &addr) != SURFACE_OK) {
            s->out_of_bounds++;
            continue;
        }
        uint8_t dst[16] = { 0 }, out[16];
        if ((sh.blend || sh.logic || sh.any_keep) && !texel_access(a, addr, dst, rt->bytes, false))
            continue;
        if (!shade_sample(a, rt, w, slot, &sh, dst, out))
            continue;
        if (texel_access(a, addr, out, rt->bytes, true))
            written++;
    }
    return written;
}

/* Render target resolve (seed 003 L16868-16884): each pixel of the resolve
 * rectangle stands for the block a fast-clear pixel does (the scale-down
 * factors of L16874-16880); its cache-line pairs whose CCS says CLEAR get the
 * clear value of the resolve's SURFACE_STATE ("The clear value from
 * SURFACE_STATE is written into pixels in the render target indicated as
 * clear", L16870) and become uncompressed; a full resolve also makes the
 * compressed values (1, 2: never written by the model, whose blocks are
 * stored uncompressed) uncompressed, a partial one leaves them. Multisampled
 * RTs are not resolved this way ("not supported on multisampled render
 * targets", L16884): counted, nothing done. */
static uint64_t resolve_pixel(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                              uint32_t slice)
{
    struct om *s = a->s;
    uint32_t bw;
    switch (rt->bytes) {
    case 4: bw = 64; break;
    case 8: bw = 32; break;
    case 16: bw = 16; break;
    default: return 0;
    }
    const uint32_t bh = 32;
    uint32_t lod = rt->surf.mip_count_lod, cw, ch;
    uint32_t w = surface_lod_width(&rt->surf, lod), h = surface_lod_height(&rt->surf, lod);
    surface_ccs_block(&rt->surf, &cw, &ch);
    struct format_value v;
    uint8_t texel[16];
    clear_colour(rt, &v);
    if (format_pack(rt->surf.format, &v, texel) != FORMAT_OK) {
        s->unsupported_formats++;
        return 0;
    }
    uint64_t x0 = (uint64_t)x * bw, y0 = (uint64_t)y * bh, n = 0;
    for (uint64_t py = y0; py < y0 + bh && py < h; py += ch)
        for (uint64_t px = x0; px < x0 + bw && px < w; px += cw) {
            unsigned value, shift;
            uint64_t address;
            if (!ccs_get(a, rt, (uint32_t)px, (uint32_t)py, slice, lod, &value, &address, &shift))
                continue;
            if (value == SURFACE_CCS_CLEAR)
                n += fill_ccs_block(a, rt, (uint32_t)px, (uint32_t)py, slice, lod, texel);
            if (value == SURFACE_CCS_CLEAR ||
                (s->full_resolve && value != SURFACE_CCS_UNCOMPRESSED)) {
                ccs_set(a, address, shift, SURFACE_CCS_UNCOMPRESSED);
                s->ccs_resolved++;
            }
        }
    s->resolve_pixels += n;
    return n;
}

static void resolve_pass(struct access *a, const struct eu_send_msg *p, const struct rt_write *w)
{
    struct om *s = a->s;
    struct rt rt;
    if (!resolve_rt(s, a->u, &a->as, &p->ctx, w->render_target, &rt))
        return;
    enum surface_aux_usage usage = surface_aux_usage(&rt.surf);
    if (usage == SURFACE_AUX_USAGE_MCS || rt.surf.samples > 1) {
        s->resolve_msrt++;
        return;
    }
    if (usage != SURFACE_AUX_USAGE_CCS) {
        /* Gen7: the fast clear already filled its blocks (om_gen7.h) */
        if (!(rt.surf.gen == 7 && rt.surf.aux_mode == SURFACE_AUX_MCS))
            s->aux_not_modelled++;
        return;
    }
    uint32_t slice = rt_slice(&rt, w->rt_array_index);
    uint64_t n = 0;
    for (unsigned slot = 0; slot < PIXEL_MAX_SLOTS; slot++) {
        if (!(w->slot_mask & (1u << slot)))
            continue;
        uint32_t x, y;
        slot_position(w, slot, &x, &y);
        n += resolve_pixel(a, &rt, x, y, slice);
    }
    if (n)
        record_surface(s, &rt, &a->as, 0);
}

/* Executes an RT write; returns the pixels it handled (for the pipe's time). */
static uint32_t rt_write(struct access *a, const struct eu_send_msg *p, uint32_t nregs)
{
    struct om *s = a->s;
    struct rt_write *w = gt_xcalloc(1, sizeof *w);
    uint32_t handled = 0;
    bool gen4 = (p->ctx.valid && p->ctx.gen ? p->ctx.gen : s->gen) == 4;
    if (gen4) {
        if (!om_gen4_decode_rt_write(p, nregs, w)) {
            s->bad_messages++;
            warn_once(s, a->u, 2, "render target write shorter than its payload: dropped");
            goto done;
        }
    } else if (desc_msg_data_format(p->desc)) {
        s->unsupported_messages++;      /* half precision (RTWH) */
        warn_once(s, a->u, 1, "half-precision render target writes not modelled (dropped)");
        goto done;
    }
    if (!gen4 && !decode_rt_write(s, p, nregs, w)) {
        s->bad_messages++;
        warn_once(s, a->u, 2, "render target write shorter than its payload: dropped");
        goto done;
    }
    if (w->subtype > RT_WRITE_SIMD8_SINGLE_SOURCE) {
        s->unsupported_messages++;      /* SIMD8 image write and reserved subtypes */
        goto done;
    }
    s->rt_write[w->subtype]++;
    if (p->ctx.draw) {
        /* the thread's 3DPRIMITIVE (WM's numbering, thread_msg.h) */
        if (p->ctx.draw != s->draw)
            s->draws++;
        s->draw = p->ctx.draw;
        s->state_since_write = false;
    } else if (s->state_since_write || s->draw == 0) {
        s->draw++;
        s->draws++;
        s->state_since_write = false;
    }
    if ((w->flags & RT_WRITE_HAS_STENCIL) &&
        !(p->ctx.pixel_flags & EU_PIXEL_LATE_DEPTH_STENCIL))
        s->depth.stencil_export_ignored++;  /* tested early: oS comes too late (om_depth.h) */
    if (s->blend_valid && s->blend.ColorDitherEnable)
        s->dither_ignored++;
    bool header = gen4 || desc_msg_header_present(p->desc) || (p->flags & EU_SEND_HEADER);
    if (!header && p->ctx.subspans == 0) {
        s->no_positions++;
        warn_once(s, a->u, 3, "headerless render target write from a thread without subspan "
                  "positions (ctx.subspans 0): dropped");
        goto done;
    }
    handled = (uint32_t)__builtin_popcount(w->slot_mask);
    if (s->resolve) {
        s->resolve_messages++;
        resolve_pass(a, p, w);
        goto done;
    }
    struct rt rt;
    if (!resolve_rt(s, a->u, &a->as, &p->ctx, w->render_target, &rt)) {
        /* a NULL (or unwritable) RT: the late depth/stencil still runs for
         * the slots the mask and oMask keep (depth-only passes with discard) */
        uint32_t ds_samples = om_depth_samples(&s->depth);
        for (unsigned slot = 0; slot < PIXEL_MAX_SLOTS; slot++) {
            if (!(w->slot_mask & (1u << slot)))
                continue;
            uint32_t coverage = (1u << ds_samples) - 1u;
            if (ds_samples > 1)
                coverage &= sample_coverage(a, w, slot, ds_samples);
            if (w->flags & RT_WRITE_HAS_OMASK)
                coverage &= w->omask[slot];
            if (coverage)
                late_depth_stencil(a, w, slot, coverage);
        }
        goto done;
    }
    if (gen4 && s->blend_valid) {
        /* Gen4: the RT's SURFACE_STATE carries the channel write disables
         * (dword 0 17:14) and its own Color Blend Enable (bit 13), which
         * blending needs besides CC_STATE's (Mesa's genxml gen4.xml) */
        struct spec_BLEND_STATE blend;
        gen4_cc_blend(&s->cc, (rt.dw[0] >> 14) & 0xfu, &blend, &s->entry[0]);
        s->entry[0].ColorBufferBlendEnable &= ((rt.dw[0] >> 13) & 1u) != 0;
    }
    uint64_t written = 0;
    uint32_t slice = rt_slice(&rt, w->rt_array_index);
    for (unsigned slot = 0; slot < PIXEL_MAX_SLOTS; slot++) {
        if (!(w->slot_mask & (1u << slot)))
            continue;
        if (s->fast_clear) {
            uint32_t x, y;
            slot_position(w, slot, &x, &y);
            written += fast_clear_pixel(a, &rt, x, y, slice);
            continue;
        }
        bool discarded = false;
        written += write_slot(a, &rt, w, slot, &discarded);
        if (discarded)
            s->pixels_discarded++;
    }
    s->pixels_written += written;
    a->written += (uint32_t)written;
    if (written)
        record_surface(s, &rt, &a->as, written);
done:
    free(w);
    return handled;
}

/* The texel an RT read sees at (x, y) (sample 0; addr its address without
 * aux): through the MCS of a multisampled RT, the clear value of a CLEAR
 * cache-line pair of a CCS surface, else memory. */
static bool logical_texel(struct access *a, const struct rt *rt, uint32_t x, uint32_t y,
                          uint32_t slice, uint64_t addr, uint8_t *texel)
{
    enum surface_aux_usage usage = surface_aux_usage(&rt->surf);
    if (usage == SURFACE_AUX_USAGE_MCS) {
        uint64_t mcs, mcs_address;
        if (mcs_read(a, rt, x, y, slice, &mcs, &mcs_address))
            return mcs_sample(a, rt, x, y, slice, mcs, 0, texel);
    } else if (usage == SURFACE_AUX_USAGE_CCS) {
        unsigned value, shift;
        uint64_t address;
        if (ccs_get(a, rt, x, y, slice, rt->surf.mip_count_lod, &value, &address, &shift) &&
            value == SURFACE_CCS_CLEAR) {
            struct format_value v;
            clear_value(rt, fill_colour(a->s, rt), &v);
            return format_pack(rt->surf.format, &v, texel) == FORMAT_OK;
        }
    }
    return texel_access(a, addr, texel, rt->bytes, false);
}

/* RT read (L7995-8021): the pixels of the header's subspans, unpacked. */
static uint32_t rt_read(struct access *a, const struct eu_send_msg *p, uint32_t nregs,
                        uint8_t *wb, uint32_t rlen)
{
    struct om *s = a->s;
    s->rt_reads++;
    bool header = desc_msg_header_present(p->desc) || (p->flags & EU_SEND_HEADER);
    if (!wb)
        return 0;
    unsigned n = rlen >= 8 ? 16 : 8, regs_per = n / 8;
    unsigned base = desc_rc_rt_slot_group(p->desc) && n == 8 ? 8 : 0;
    struct rt_write w;
    memset(&w, 0, sizeof w);
    for (unsigned k = 0; k < PIXEL_MAX_SUBSPANS; k++) {
        w.subspan_x[k] = header && k < 4 ? (uint16_t)reg32(p, nregs, 1, 2 + k) : p->ctx.pixel_x[k];
        w.subspan_y[k] = header && k < 4 ? (uint16_t)(reg32(p, nregs, 1, 2 + k) >> 16)
                                         : p->ctx.pixel_y[k];
    }
    struct rt rt;
    if (!resolve_rt(s, a->u, &a->as, &p->ctx, desc_rc_binding_table(p->desc), &rt))
        return n;
    uint32_t slice = rt_slice(&rt, header ? (reg32(p, nregs, 0, 0) >> 16) & 0x7ff : 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t x, y;
        uint64_t addr;
        slot_position(&w, base + i, &x, &y);
        uint8_t texel[16] = { 0 };
        struct format_value v;
        memset(&v, 0, sizeof v);
        if (surface_address(&rt.surf, x, y, slice, rt.surf.mip_count_lod, 0, &addr) != SURFACE_OK) {
            s->out_of_bounds++;
        } else if (logical_texel(a, &rt, x, y, slice, addr, texel) &&
                   format_unpack(rt.surf.format, texel, &v) != FORMAT_OK) {
            memset(&v, 0, sizeof v);
        }
        for (unsigned c = 0; c < 4; c++) {
            unsigned reg = c * regs_per + i / 8;
            if (reg < rlen)
                memcpy(wb + reg * EU_MSG_REG_BYTES + 4 * (i % 8), &v.u[c], 4);
        }
    }
    return n;
}

/* ---- taking messages and timing ----------------------------------------------------- */

static uint32_t free_txn(const struct om *s)
{
    for (uint32_t i = 0; i < s->max_outstanding; i++)
        if (!s->txn[i].used)
            return i;
    return UINT32_MAX;
}

static void complete(struct om *s, uint32_t ti, uint64_t at)
{
    struct txn *t = &s->txn[ti];
    if (t->wb)
        reply_queue_push(&s->replies, at, t->eu, t->wb, NULL);
    if (t->end)
        reply_queue_push(&s->replies, at, s->eus, t->end, NULL);
    t->wb = t->end = NULL;
    t->used = false;
    s->in_flight--;
}

/* The counts of the thread sending p (by EU and thread slot; a new group
 * number starts afresh); NULL beyond the table. */
static struct thread_counts *thread_counts_of(struct om *s, uint32_t eu, const struct eu_send_msg *p)
{
    if (!s->thread_counts || eu >= s->eus || p->slot >= OM_THREAD_SLOTS) {
        s->untracked_threads++;
        return NULL;
    }
    struct thread_counts *tc = &s->thread_counts[eu * OM_THREAD_SLOTS + p->slot];
    if (!tc->used || tc->group != p->ctx.group)
        *tc = (struct thread_counts){ .used = true, .group = p->ctx.group };
    return tc;
}

static void take_message(struct om *s, struct unit *u, uint32_t eu, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        return;
    }
    s->messages++;
    uint32_t ti = free_txn(s);
    struct txn *t = &s->txn[ti];
    memset(t, 0, sizeof *t);
    t->used = true;
    t->eu = eu;
    s->in_flight++;
    uint32_t nregs = (uint32_t)p->mlen + p->ex_mlen;
    uint8_t *wb = NULL;
    if (p->rlen) {
        t->wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                          (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)t->wb->payload;
        memset(w, 0, sizeof *w + p->rlen * EU_MSG_REG_BYTES);
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = p->rlen;
        t->wb->tag = m->tag;
        wb = w->regs[0];
    }
    struct access a = { .s = s, .u = u, .t = t, .ctx = &p->ctx };
    gpu_address_space_init(&a.as, sim_memory(unit_sim(u)),
                           (enum gpu_address_space_format)p->ctx.space_format, p->ctx.space_root);
    uint32_t pixels = 0;
    uint32_t type = desc_rc_msg_type(p->desc);
    if ((p->ctx.valid && p->ctx.gen ? p->ctx.gen : s->gen) == 4) {
        /* Gen4's data port write (om_gen4.h): the RT write; the render
         * cache flush has nothing to do (no cache modelled, om.h); the
         * others are unsupported */
        uint32_t t4 = desc_dpw_msg_type(p->desc);
        type = t4 == OM_GEN4_DPW_RT_WRITE ? (uint32_t)RC_RT_WRITE
             : t4 == OM_GEN4_DPW_FLUSH_RENDER_CACHE ? (uint32_t)RC_GEN4_FLUSH : (uint32_t)RC_NONE;
    }
    if (p->flags & EU_SEND_THREAD_KILLED) {
        s->killed_thread_ends++;        /* no pixels: only the thread's end reaches WM */
    } else if (type == RC_GEN4_FLUSH) {
        /* nothing cached to flush */
    } else if (p->sfid != 5 && p->sfid != 0) {
        s->unsupported_messages++;
    } else if (type == RC_RT_WRITE) {
        pixels = rt_write(&a, p, nregs);
    } else if (type == RC_RT_READ) {
        pixels = rt_read(&a, p, nregs, wb, p->rlen);
    } else {
        s->unsupported_messages++;
        warn_once(s, u, 4, "render cache message type not modelled: zeros returned");
    }
    struct thread_counts *tc = thread_counts_of(s, eu, p);
    if (tc) {
        tc->written += a.written;
        tc->depth_passed += a.depth_passed;
    }
    if (p->flags & EU_SEND_EOT) {
        /* the thread's last message: WM releases its scoreboard on this */
        t->end = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
        struct eu_thread_end *e = (struct eu_thread_end *)t->end->payload;
        memset(e, 0, sizeof *e);
        e->op = EU_TD_THREAD_END;
        e->request_id = p->ctx.group;
        e->slot = p->slot;
        e->ffid = FFID_PS;
        e->thread_life_ps = p->thread_life_ps;
        e->pixels_written = tc ? tc->written : a.written;
        e->pixels_depth_passed = tc ? tc->depth_passed : a.depth_passed;
        if (tc)
            tc->used = false;
        s->thread_ends++;
    }
    /* the pixel pipe: pixels_per_cycle a cycle, in message order */
    uint64_t now = unit_cycle(u);
    uint64_t cost = pixels ? (pixels + s->pixels_per_cycle - 1) / s->pixels_per_cycle : 1;
    uint64_t start = s->pipe_free > now ? s->pipe_free : now;
    s->pipe_free = start + cost;
    s->busy_cycles += cost;
    t->ready = s->pipe_free;
    if (s->l3 && port_is_bound(s->l3) && t->nlines) {
        t->lines_left = t->nlines;
        for (uint32_t i = 0; i < t->nlines; i++)
            fifo_push(&s->line_queue, &(struct pending_line){ ti, i });
    } else {
        complete(s, ti, t->ready + s->latency);
    }
}

static void send_lines(struct om *s, struct unit *u)
{
    while (fifo_count(&s->line_queue) && port_can_send(s->l3)) {
        struct pending_line pl;
        fifo_pop(&s->line_queue, &pl);
        const struct txn *t = &s->txn[pl.txn];
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        memset(r, 0, sizeof *r);
        r->address = t->lines[pl.index];
        r->tag = pl.txn;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = t->ops[pl.index];
        r->target = MEMREQ_DATA;
        r->client = unit_id(u);
        port_try_send(s->l3, m);
        s->lines++;
    }
}

static void take_l3_replies(struct om *s, struct unit *u)
{
    struct msg *m;
    while (s->l3_reply && (m = port_pop(s->l3_reply)) != NULL) {
        const struct memreply *r = (const struct memreply *)m->payload;
        if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *r || r->tag >= s->max_outstanding ||
            !s->txn[r->tag].used || s->txn[r->tag].lines_left == 0) {
            s->bad_messages++;
        } else {
            s->l3_replies++;
            struct txn *t = &s->txn[r->tag];
            if (--t->lines_left == 0) {
                uint64_t now = unit_cycle(u);
                complete(s, r->tag, t->ready > now ? t->ready : now);
            }
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
}

/* ---- the unit ------------------------------------------------------------------------ */

static int om_realize(struct unit *u, struct gt_error *err)
{
    struct om *s = unit_state(u);
    s->eus = unit_port_count(u, "eu");
    if (s->eus > OM_MAX_EUS)
        return gt_error_set(err, "%u eu links; at most %d", s->eus, OM_MAX_EUS);
    free(s->eu);
    free(s->outs);
    s->eu = gt_xcalloc(s->eus + 1, sizeof *s->eu);
    free(s->thread_counts);
    s->thread_counts = gt_xcalloc((size_t)s->eus * OM_THREAD_SLOTS + 1, sizeof *s->thread_counts);
    s->outs = gt_xcalloc(s->eus + 1, sizeof *s->outs);
    for (uint32_t i = 0; i < s->eus; i++) {
        s->eu[i] = unit_port(u, "eu", i);
        s->outs[i] = i < unit_port_count(u, "writeback") ? unit_port(u, "writeback", i) : NULL;
    }
    s->wm = unit_port(u, "wm", 0);
    s->eot_ps = unit_port(u, "eot_ps", 0);
    s->outs[s->eus] = s->eot_ps;
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    reply_queue_free(&s->replies, unit_sim(u));
    reply_queue_init(&s->replies, &(struct reply_queue_config){
        .capacity = 0, .order = REPLY_QUEUE_READY_THEN_INSERTION,
        .refusal = REPLY_QUEUE_PER_PORT, .ports = s->outs, .port_count = s->eus + 1,
        .stall_count = &s->stall_writeback });
    return 0;
}

static void om_release(struct om *s, struct unit *u)
{
    reply_queue_clear(&s->replies, unit_sim(u));
    if (s->txn)
        for (uint32_t i = 0; i < OM_MAX_TXN; i++) {
            if (s->txn[i].wb)
                msg_free(unit_sim(u), s->txn[i].wb);
            if (s->txn[i].end)
                msg_free(unit_sim(u), s->txn[i].end);
        }
    free(s->txn);
    s->txn = NULL;
    free(s->aux_cache);
    s->aux_cache = NULL;
    fifo_release(&s->line_queue);
    free(s->surfaces);
    s->surfaces = NULL;
    s->surface_count = s->surface_capacity = 0;
}

static void om_reset(struct unit *u)
{
    struct om *s = unit_state(u);
    om_release(s, u);
    s->txn = gt_xcalloc(OM_MAX_TXN, sizeof *s->txn);
    s->aux_cache = gt_xcalloc(s->aux_cache_lines + 1u, sizeof *s->aux_cache);
    s->aux_last = 0;
    s->aux_stamp = 0;
    fifo_init(&s->line_queue, sizeof(struct pending_line));
    s->in_flight = 0;
    s->pipe_free = 0;
    s->samples = 1;
    s->draw = 0;
    s->state_since_write = false;
    s->blend_valid = s->cc_valid = false;
    s->fast_clear = s->resolve = s->full_resolve = false;
    om_depth_reset(&s->depth);
    if (s->thread_counts)
        memset(s->thread_counts, 0, (size_t)s->eus * OM_THREAD_SLOTS * sizeof *s->thread_counts);
}

static enum unit_activity om_tick(struct unit *u)
{
    struct om *s = unit_state(u);
    struct msg *m;
    take_l3_replies(s, u);
    while (s->wm && (m = port_pop(s->wm)) != NULL) {
        if (m->kind == MSG_STATE && m->size >= sizeof(struct cs_state_packet))
            take_state(s, u, (const struct cs_state_packet *)m->payload);
        else
            s->bad_messages++;
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    uint32_t taken = 0;
    for (uint32_t k = 0; k < s->eus && taken < s->messages_per_cycle; k++) {
        uint32_t e = (s->next_eu + k) % s->eus;
        while (taken < s->messages_per_cycle && s->in_flight < s->max_outstanding &&
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
    reply_queue_send(&s->replies, u);
    reply_queue_wake(&s->replies, u);
    bool more = fifo_count(&s->line_queue) > 0 && port_can_send(s->l3);
    for (uint32_t e = 0; e < s->eus && !more; e++)
        if (port_peek(s->eu[e]) && s->in_flight < s->max_outstanding)
            more = true;
    if (reply_queue_next_ready(&s->replies) <= unit_cycle(u) + 1)
        more = true;
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void om_destroy(struct unit *u)
{
    struct om *s = unit_state(u);
    om_release(s, u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->eu);
    free(s->outs);
    free(s->thread_counts);
    s->eu = s->outs = NULL;
    s->thread_counts = NULL;
}

const struct unit_ops om_ops = {
    .kind = "om",
    .help = "Pixel back end of a slice: the render cache data port (SFID 5) with the colour "
            "calculator: RT write/read messages, alpha to coverage, alpha test, blending, "
            "logic ops, write masks, sRGB, fast clear (seed 003 L7584-8213, L16385-16885).",
    .state_size = sizeof(struct om),
    .params = om_params,
    .ports = om_ports,
    .stats = om_stats,
    .realize = om_realize,
    .reset = om_reset,
    .tick = om_tick,
    .destroy = om_destroy,
};

bool om_surface_texel(const struct om_surface *o, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t sample, uint8_t *texel)
{
    const struct surface *sf = &o->surface;
    const struct format_desc *f = format_describe(sf->format);
    uint32_t bytes = f ? format_block_bytes(f) : 0, lod = sf->mip_count_lod;
    uint32_t slice = sf->min_array_element, plane = sample;
    struct gt_error err;
    memset(texel, 0, 16);
    if (!bytes || bytes > 16)
        return false;
    bool clear = false;
    enum surface_aux_usage usage = surface_aux_usage(sf);
    if (usage == SURFACE_AUX_USAGE_MCS) {
        uint64_t address, mcs = 0;
        if (surface_mcs_address(sf, x, y, slice, &address) == SURFACE_OK &&
            gpu_address_space_read(as, address, &mcs, surface_mcs_element_bytes(sf->samples),
                                   &err) == 0) {
            unsigned bits = surface_mcs_bits_per_sample(sf->samples);
            clear = surface_mcs_is_clear(sf->samples, mcs);
            plane = (uint32_t)(mcs >> (bits * sample)) & ((1u << bits) - 1);
        }
    } else if (usage == SURFACE_AUX_USAGE_CCS) {
        uint64_t address;
        unsigned shift;
        uint8_t byte;
        clear = surface_ccs_address(sf, x, y, slice, lod, &address, &shift) == SURFACE_OK &&
                gpu_address_space_read(as, address, &byte, 1, &err) == 0 &&
                ((byte >> shift) & 3u) == SURFACE_CCS_CLEAR;
    }
    if (clear) {
        struct format_value v;
        clear_value_of(sf->gen, f, o->clear_color, &v);
        return format_pack(sf->format, &v, texel) == FORMAT_OK;
    }
    uint64_t address;
    return surface_address(sf, x, y, slice, lod, plane, &address) == SURFACE_OK &&
           gpu_address_space_read(as, address, texel, bytes, &err) == 0;
}
