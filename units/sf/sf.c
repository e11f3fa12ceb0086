/* units/sf/sf.c - see sf.h. */
#include "units/sf/sf.h"

#include <math.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_common.h"
#include "units/common/ff_stage.h"
#include "units/common/mmio.h"
#include "units/common/primitive.h"
#include "units/common/stage_thread.h"
#include "units/common/thread_payload.h"
#include "units/common/thread_msg.h"
#include "units/common/urb.h"
#include "units/sf/sf_attributes.h"
#include "units/sf/sf_gen4.h"
#include "units/sf/sf_setup.h"

#define SF_VIEWPORTS 16u
#define SF_GEN4_CURBE_REGS 64u          /* Constant URB Entry Read Length: U6 */
#define SF_CLIP_VIEWPORT_BYTES 64u      /* 16 dwords each (reference genxml) */

/* A stage's vertex output as SBE_INT sees it (003 L15169-15175). */
struct sf_vue_output {
    bool enable;
    uint32_t read_offset, read_length;
};

struct sf {
    struct unit *unit;
    struct ff_stage ff;
    struct port *urb, *urb_reply, *drained;
    /* state */
    uint32_t gen;                   /* of the last state packet */
    uint32_t maximum_vp_index;      /* 3DSTATE_CLIP */
    bool force_zero_rta_index;
    uint64_t dynamic_base;
    bool viewport_transform;
    struct spec_SF_CLIP_VIEWPORT viewport[SF_VIEWPORTS];
    struct spec_SCISSOR_RECT scissor[SF_VIEWPORTS];
    struct sf_setup_state setup;    /* viewport-independent part */
    uint32_t tri_provoking, line_provoking, fan_provoking;  /* 3DSTATE_SF selects */
    bool last_pixel;                /* Last Pixel Enable */
    bool point_width_from_state;    /* Point Width Source = State */
    float point_width;              /* 3DSTATE_SF Point Width */
    bool raster_depth_offset_solid; /* 3DSTATE_RASTER Global Depth Offset Enable Solid */
    bool raster_depth_offset_wireframe, raster_depth_offset_point;  /* ... Wireframe, Point */
    bool non_solid_fill, antialiasing;
    /* WM_INT::Multisample Rasterization Mode (Table 1, 003 L15615-15624):
     * 3DSTATE_RASTER API Mode and DX Multisample Rasterization Enable,
     * 3DSTATE_MULTISAMPLE Number of Multisamples */
    uint32_t api_mode, samples;
    bool dx_multisample;
    /* Gen7 3DSTATE_SF Multisample Rasterization Mode is MSRASTMODE_ON_PATTERN
     * (seed 000 L1920, L3905-3929: the same value as 3DSTATE_WM's) */
    bool gen7_ms_raster_pattern;
    /* 3DSTATE_SBE (raw) and what SBE_INT takes from VS, DS and GS */
    struct sbe_state sbe;           /* everything but read_length */
    bool force_read_offset, force_read_length;
    uint32_t sbe_read_offset, sbe_read_length;
    struct sf_vue_output vs, ds, gs;
    /* the head primitive's reads */
    bool reading;
    uint32_t reads_sent, reads_back, reads_needed;
    uint32_t read_offset, read_length;      /* SBE_INT of the head primitive */
    bool merged_read;               /* header and attributes in one read */
    float header[PRIM_MAX_VERTICES][8];
    float inputs[PRIM_MAX_VERTICES][SBE_MAX_INPUTS][4];
    float outputs[3][SETUP_MAX_ATTRIBUTES][4];      /* one object's vertices after SBE */
    /* what harnesses see */
    uint32_t draws_seen, last_draw;
    bool any_draw;
    struct sf_observed_draw observed[SF_OBSERVED_DRAWS];
    /* stats */
    uint64_t primitives, vertices, nan_discarded, draws, bad_primitives, stall_urb;
    uint64_t viewport_read_failures, scissor_read_failures;
    uint64_t points, lines, triangles, rectangles, degenerate, face_culled, outside, bad_width;
    uint64_t infinite, unsupported, reserved_provoking, non_solid_objects, aa_lines, stall_wm;
    uint64_t lines_diamond, lines_msaa;
    uint64_t attribute_rows, attributes_out, source_out_of_range, objects;
    /* Gen4 (sf_gen4.h): General State Base, the SF_STATE taken, its faults */
    uint64_t general_base;
    struct sf_gen4_state gen4;
    uint64_t gen4_state_faults, gen4_viewport_faults;
    /* Gen4 setup threads (sf.h "Gen4"): on when "td" is linked */
    bool gen4_threads_on;
    struct stage_threads threads;
    struct stage_bases bases;
    struct stage_space space;
    bool configure_pending;             /* URB_OP_CONFIGURE of the SF region to send */
    uint32_t fence_markers;             /* URB_FENCEs reached, URB_OP_FENCE not yet sent */
    bool curbe_valid;                   /* CONSTANT_BUFFER */
    uint64_t curbe_address;
    uint32_t curbe_regs;
    uint8_t curbe[SF_GEN4_CURBE_REGS][EU_MSG_REG_BYTES];
    uint64_t thread_timeout;            /* param: cycles a setup thread may take */
    bool gen4_watching;                 /* a setup thread runs under the watchdog */
    bool released;                      /* the head primitive's VUE references dropped */
    struct sf_gen4_job {
        struct msg *setup;              /* MSG_SETUP to send once the thread ended */
        struct sf_gen4_object_in in;
        struct sf_gen4_setup_params params;
        uint32_t phase;                 /* enum sf_gen4_job_phase */
        uint32_t handle;                /* the SF-region entry (the PUE) */
        uint32_t seq;                   /* thread tag: seq << 8 | job index */
        uint64_t since;                 /* cycle the phase began */
    } jobs[PRIM_MAX_VERTICES];
    uint32_t job_count, job_done, job_seq;
    uint64_t gen4_entries, gen4_refused, gen4_timeouts, gen4_late_ends, gen4_alloc_wait;
    uint64_t gen4_bad_grf_start, gen4_curbe_faults, gen4_configures, gen4_setups_out;
};

enum sf_gen4_job_phase {
    JOB_ALLOC = 0,                      /* entry to ask for */
    JOB_ALLOC_WAIT,                     /* URB_OP_ALLOC sent */
    JOB_DISPATCH,                       /* entry held, thread to dispatch */
    JOB_RUNNING,                        /* thread dispatched */
    JOB_ENDED,                          /* thread ended: MSG_SETUP may leave */
    JOB_DROPPED,                        /* refused entry or watchdog: nothing leaves */
};

static const struct port_desc sf_ports[] = {
    { .name = "clip", .direction = PORT_IN,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO),
      .help = "state, primitives and syncs from CLIP, in order" },
    { .name = "wm", .direction = PORT_OUT,
      .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO) | MSG_BIT(MSG_SETUP),
      .flags = PORT_OPTIONAL, .help = "state, set-up objects and syncs on to WM" },
    { .name = "urb", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "VUE reads and dereferences to the URB" },
    { .name = "urb_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_URB),
      .flags = PORT_OPTIONAL, .help = "the URB's answers" },
    { .name = "drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "syncs back to the CS (the end of the modelled pipeline)" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "Gen4: setup thread requests to the thread dispatcher (td.sf)" },
    { .name = "eot", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPTIONAL, .help = "Gen4: setup thread ends from the URB (urb.eot_sf)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct sf, f, m, h)
static const struct stat_desc sf_stats[] = {
    C("primitives", primitives, "primitives", "primitives received from CLIP"),
    C("vertices", vertices, "vertices", "vertex headers (positions) read"),
    C("objects", objects, "objects", "objects decomposed from the primitives (003 L14427)"),
    C("nan_discarded", nan_discarded, "objects",
      "objects with a NaN position before or after the transform, discarded (003 L14728-14730)"),
    C("draws", draws, "draws", "draws whose primitives reached SF"),
    C("bad_primitives", bad_primitives, "primitives",
      "primitives without vertices or whose VUEs could not be read"),
    C("unsupported", unsupported, "primitives",
      "primitives of a topology SF does not take (adjacency, QUAD*, LINELOOP, patches; L14379)"),
    C("stall.urb", stall_urb, "events", "times the URB channel was full"),
    C("viewport_read_failures", viewport_read_failures, "commands",
      "SF_CLIP_VIEWPORT arrays that could not be read (zeros used)"),
    C("scissor_read_failures", scissor_read_failures, "commands",
      "SCISSOR_RECT arrays that could not be read (zeros used)"),
    C("setup.points", points, "objects", "points set up and sent to WM"),
    C("setup.lines", lines, "objects", "lines set up and sent to WM"),
    C("setup.triangles", triangles, "objects", "triangles set up and sent to WM"),
    C("setup.rectangles", rectangles, "objects", "rectangles set up and sent to WM"),
    C("culled.degenerate", degenerate, "objects", "degenerate objects discarded (003 L14820)"),
    C("culled.face", face_culled, "objects", "triangles discarded by Cull Mode (003 L14834)"),
    C("culled.outside", outside, "objects",
      "objects wholly outside the clip rectangle (003 L14858-14870)"),
    C("culled.bad_width", bad_width, "objects", "points whose width is NaN, infinite or negative"),
    C("culled.infinite", infinite, "objects",
      "objects with an infinite screen Z or a zero or infinite W (not the seed's rule: their "
      "planes would be infinite)"),
    C("reserved_provoking", reserved_provoking, "objects",
      "objects whose provoking vertex select is reserved (vertex 0 used)"),
    C("not_modelled.fill_mode", non_solid_objects, "objects",
      "triangles drawn SOLID although a WIREFRAME or POINT fill mode is set"),
    C("setup.lines_aa", aa_lines, "objects",
      "of the lines, antialiased ones (rectangles whose coverage WM computes and the render "
      "cache multiplies into alpha, 003 L14978-14992, L16448)"),
    C("setup.lines_diamond", lines_diamond, "objects",
      "of the lines, zero-width ones by the GIQ diamond rules (003 L14884)"),
    C("setup.lines_msaa", lines_msaa, "objects",
      "of the lines, MSAA lines (multisample rasterization ON, 003 L15634)"),
    C("attributes.rows_read", attribute_rows, "rows", "VUE attribute rows read for SBE"),
    C("attributes.out", attributes_out, "attributes", "attributes set up (objects x outputs)"),
    C("attributes.source_out_of_range", source_out_of_range, "reads",
      "output attributes whose source lies past the rows read (zeros used)"),
    C("stall.wm", stall_wm, "events", "times WM's channel was full"),
    C("gen4.state_faults", gen4_state_faults, "packets",
      "Gen4 SF_STATE pointers outside memory (state zeroed)"),
    C("gen4.viewport_faults", gen4_viewport_faults, "packets",
      "Gen4 SF_VIEWPORTs outside memory (matrix and scissor zeroed)"),
    C("gen4.setup_entries", gen4_entries, "entries",
      "Gen4 SF-region URB entries allocated for setup threads (PUEs)"),
    C("gen4.refused_entries", gen4_refused, "objects",
      "Gen4 objects dropped because the URB refused their SF entry (region too small)"),
    C("gen4.alloc_wait_cycles", gen4_alloc_wait, "cycles",
      "Gen4 cycles objects waited for an SF-region entry (the URB fence's back-pressure)"),
    C("gen4.watchdog_drops", gen4_timeouts, "objects",
      "Gen4 setup threads that did not end within the thread_timeout param: object dropped"),
    C("gen4.late_ends", gen4_late_ends, "threads",
      "Gen4 thread ends of setup threads the watchdog had given up on"),
    C("gen4.bad_grf_start", gen4_bad_grf_start, "threads",
      "Gen4 Dispatch GRF Start Register For URB Data inside R0-R2 (moved past them)"),
    C("gen4.curbe_faults", gen4_curbe_faults, "packets",
      "Gen4 CONSTANT_BUFFERs SF could not read (zeros pushed)"),
    C("gen4.configures", gen4_configures, "messages",
      "Gen4 URB_OP_CONFIGURE of the SF region sent (SF_STATE URB entries)"),
    C("gen4.setups_out", gen4_setups_out, "objects",
      "Gen4 objects sent to WM with the setup thread's URB entry"),
    STAGE_THREADS_STATS("gen4.threads.", struct sf, threads),
    FF_STAGE_STATS("ff.", struct sf, ff),
    STAT_END
};
#undef C

/* ---- state ------------------------------------------------------------------- */

/* Gen7's 3DSTATE_SF also carries what Gen8 moved to 3DSTATE_RASTER (seed 000
 * L1681-2041, notes/004-000-commands.md: DW1 depth format, fill modes,
 * winding, depth-offset enables; DW2 AA enable, cull mode, scissor enable;
 * DW4-6 the depth offset floats). */
static void take_sf_gen7_raster(struct sf *s, const struct spec_3DSTATE_SF *v)
{
    s->setup.cull_mode = v->CullMode;
    s->setup.front_winding = v->FrontWinding;
    s->setup.scissor_enable = v->ScissorRectangleEnable;
    s->raster_depth_offset_solid = v->GlobalDepthOffsetEnableSolid;
    s->raster_depth_offset_wireframe = v->GlobalDepthOffsetEnableWireframe;
    s->raster_depth_offset_point = v->GlobalDepthOffsetEnablePoint;
    s->setup.front_fill_mode = v->FrontFaceFillMode;
    s->setup.back_fill_mode = v->BackFaceFillMode;
    s->setup.depth_offset_constant = v->GlobalDepthOffsetConstant;
    s->setup.depth_offset_scale = v->GlobalDepthOffsetScale;
    s->setup.depth_offset_clamp = v->GlobalDepthOffsetClamp;
    s->non_solid_fill = v->FrontFaceFillMode != 0 || v->BackFaceFillMode != 0;
    s->antialiasing = v->AntialiasingEnable;
    s->gen7_ms_raster_pattern = v->MultisampleRasterizationMode == 3;
}

/* Gen7's 3DSTATE_SBE holds its own swizzles (DW2-9), point-sprite (DW10),
 * constant-interpolation (DW11) and wrap-shortest (DW12-13) fields, which
 * Gen8 split into 3DSTATE_SBE_SWIZ (seed 000 L1304-1633); its read offset and
 * length are always the ones used (Gen8's Force bits do not exist). Not
 * modelled: Attribute Swizzle Control Mode (SWIZ_16_31, for attributes 16-31
 * of GS-less pipelines). */
static void take_sbe_gen7(struct sf *s, const struct spec_3DSTATE_SBE *v)
{
    for (uint32_t i = 0; i < SBE_SWIZZLED; i++)
        s->sbe.detail[i] = (uint16_t)v->Attribute[i];
    const uint32_t wrap[16] = {
        v->Attribute0WrapShortestEnables, v->Attribute1WrapShortestEnables,
        v->Attribute2WrapShortestEnables, v->Attribute3WrapShortestEnables,
        v->Attribute4WrapShortestEnables, v->Attribute5WrapShortestEnables,
        v->Attribute6WrapShortestEnables, v->Attribute7WrapShortestEnables,
        v->Attribute8WrapShortestEnables, v->Attribute9WrapShortestEnables,
        v->Attribute10WrapShortestEnables, v->Attribute11WrapShortestEnables,
        v->Attribute12WrapShortestEnables, v->Attribute13WrapShortestEnables,
        v->Attribute14WrapShortestEnables, v->Attribute15WrapShortestEnables,
    };
    for (uint32_t i = 0; i < SBE_SWIZZLED && i < 16; i++)
        s->sbe.wrap_shortest[i] = (uint8_t)(wrap[i] & 0xfu);
    s->force_read_offset = true;
    s->force_read_length = true;
}

/* Line (End Cap) Antialiasing Region Width: 0.5, 1, 2 or 4 pixels (reference
 * genxml gen8.xml). */
static float aa_region_width(uint32_t code)
{
    return code == 0 ? 0.5f : (float)(1u << ((code & 3u) - 1u));
}

/* Gen4: SF_STATE and its SF_VIEWPORT (sf_gen4.h) into the fields the
 * Gen8/9 path uses (seed 001 L12551-13210, L14099-14169). */
static void take_gen4_sf_state(struct sf *s, const struct cs_state_packet *p)
{
    const struct spec_3DSTATE_PIPELINED_POINTERS *pp = cs_state_common(p);
    struct sf_gen4_state *g = &s->gen4;
    int r = sf_gen4_read_state(unit_sim(s->unit), p, s->general_base, pp->PointerToSFState, g);
    if (r == 1)
        s->gen4_state_faults++;
    else if (r == 2)
        s->gen4_viewport_faults++;
    s->viewport_transform = g->viewport_transform;
    s->setup.subpixel_bits = g->subpixel_bits;
    s->setup.cull_mode = g->cull_mode;
    s->setup.front_winding = g->front_winding;
    s->setup.scissor_enable = g->scissor_enable;
    s->setup.line_width = g->line_width;
    s->setup.point_rule_upper_right = g->point_rule_upper_right;
    s->point_width = g->point_width;
    s->point_width_from_state = g->point_width_from_state;
    s->tri_provoking = g->tri_provoking;
    s->line_provoking = g->line_provoking;
    s->fan_provoking = g->fan_provoking;
    s->last_pixel = g->last_pixel;
    s->antialiasing = g->antialiasing;
    s->scissor[0].ScissorRectangleXMin = g->scissor_x_min;
    s->scissor[0].ScissorRectangleYMin = g->scissor_y_min;
    s->scissor[0].ScissorRectangleXMax = g->scissor_x_max;
    s->scissor[0].ScissorRectangleYMax = g->scissor_y_max;
    s->maximum_vp_index = 0;        /* one SF_VIEWPORT read (sf_gen4.h) */
    if (s->gen4_threads_on && r != 1)
        s->configure_pending = true;    /* the SF region's entries (sf_gen4_configure) */
}

/* Gen4 CURBE (seed 001 L2502-2588): SF_STATE's Constant URB Entry Read
 * Offset / Length registers of the CONSTANT_BUFFER, read from memory when
 * the command or the state arrives (as units/vs does; the CS region's copy
 * is the urb_fence unit's). */
static void sf_gen4_constants(struct sf *s, const struct cs_state_packet *p)
{
    uint32_t rows = s->gen4.constant_read_length;
    if (rows > SF_GEN4_CURBE_REGS)
        rows = SF_GEN4_CURBE_REGS;
    s->curbe_regs = s->curbe_valid ? rows : 0;
    memset(s->curbe, 0, sizeof s->curbe);
    if (!s->curbe_regs)
        return;
    uint64_t at = s->curbe_address + (uint64_t)s->gen4.constant_read_offset * EU_MSG_REG_BYTES;
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    struct gt_error err;
    if (gpu_address_space_read(&as, at, s->curbe, (size_t)s->curbe_regs * EU_MSG_REG_BYTES,
                               &err) != 0) {
        memset(s->curbe, 0, sizeof s->curbe);
        s->gen4_curbe_faults++;
    }
}

static bool gen4_configure(struct sf *s);

static void take_state(void *context, const struct cs_state_packet *p)
{
    struct sf *s = context;
    s->gen = p->gen;
    s->space = stage_space_of(p);
    switch ((enum spec_id)p->id) {
    case SPEC_ID_URB_FENCE:
        if (p->gen == 4 && s->gen4_threads_on) {
            s->fence_markers++;         /* now, or before the next allocation */
            gen4_configure(s);
        }
        break;
    case SPEC_ID_CONSTANT_BUFFER: {
        const struct spec_CONSTANT_BUFFER *v = cs_state_common(p);
        s->curbe_valid = v->Valid;
        s->curbe_address = v->BufferStartingAddress;
        if (s->gen4_threads_on)
            sf_gen4_constants(s, p);
        break;
    }
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        stage_bases_take(&s->bases, v);
        if (p->gen == 4)        /* Gen4 kernels are General State offsets (seed 001 L2225) */
            s->bases.instruction = s->bases.general;
        if (v->DynamicStateBaseAddressModifyEnable)
            s->dynamic_base = v->DynamicStateBaseAddress;
        if (v->GeneralStateBaseAddressModifyEnable)
            s->general_base = v->GeneralStateBaseAddress;
        break;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS:
        if (p->gen == 4) {
            take_gen4_sf_state(s, p);
            if (s->gen4_threads_on)
                sf_gen4_constants(s, p);
        }
        break;
    case SPEC_ID_3DSTATE_SF: {
        const struct spec_3DSTATE_SF *v = cs_state_common(p);
        s->viewport_transform = v->ViewportTransformEnable;
        s->setup.subpixel_bits = v->VertexSubPixelPrecisionSelect ? 4 : 8;
        s->setup.line_width = (float)v->LineWidth;
        s->setup.legacy_depth_bias = v->LegacyGlobalDepthBiasEnable;
        s->point_width = (float)v->PointWidth;
        s->point_width_from_state = v->PointWidthSource == 1;
        s->tri_provoking = v->TriangleStripListProvokingVertexSelect;
        s->line_provoking = v->LineStripListProvokingVertexSelect;
        s->fan_provoking = v->TriangleFanProvokingVertexSelect;
        s->last_pixel = v->LastPixelEnable;
        s->setup.line_cap_aa_region = aa_region_width(v->LineEndCapAntialiasingRegionWidth);
        s->setup.aa_distance_true = v->AALineDistanceMode == 1;
        if (p->gen == 7) {
            take_sf_gen7_raster(s, v);
            s->setup.depth_format = v->DepthBufferSurfaceFormat;
        }
        break;
    }
    case SPEC_ID_3DSTATE_CLIP: {
        /* seed 004 3DSTATE_CLIP: "If the source of the VPIndex exceeds [Maximum
         * VP Index], a VPIndex value of 0 is passed down the pipeline"; Force
         * Zero RTA Index Enable: "operate as if the value 0 was read-back" */
        const struct spec_3DSTATE_CLIP *v = cs_state_common(p);
        s->maximum_vp_index = v->MaximumVPIndex;
        s->force_zero_rta_index = v->ForceZeroRTAIndexEnable;
        break;
    }
    case SPEC_ID_3DSTATE_RASTER: {
        /* Gen8/9 moved culling, the scissor enable and depth offset here
         * (reference genxml; SF_INT formulas 003 L15003-15080) */
        const struct spec_3DSTATE_RASTER *v = cs_state_common(p);
        s->setup.cull_mode = v->CullMode;
        s->setup.front_winding = v->FrontWinding;
        s->setup.scissor_enable = v->ScissorRectangleEnable;
        s->raster_depth_offset_solid = v->GlobalDepthOffsetEnableSolid;
        s->raster_depth_offset_wireframe = v->GlobalDepthOffsetEnableWireframe;
        s->raster_depth_offset_point = v->GlobalDepthOffsetEnablePoint;
        s->setup.front_fill_mode = v->FrontFaceFillMode;
        s->setup.back_fill_mode = v->BackFaceFillMode;
        s->setup.depth_offset_constant = v->GlobalDepthOffsetConstant;
        s->setup.depth_offset_scale = v->GlobalDepthOffsetScale;
        s->setup.depth_offset_clamp = v->GlobalDepthOffsetClamp;
        s->non_solid_fill = v->FrontFaceFillMode != 0 || v->BackFaceFillMode != 0;
        s->antialiasing = v->AntialiasingEnable;
        s->api_mode = v->APIMode;
        s->dx_multisample = v->DXMultisampleRasterizationEnable;
        break;
    }
    case SPEC_ID_3DSTATE_WM: {
        /* reaches SF on its way to WM (3DSTATE_INT, 003 L15036) */
        const struct spec_3DSTATE_WM *v = cs_state_common(p);
        s->setup.point_rule_upper_right = v->PointRasterizationRule == 1;
        s->setup.legacy_diamond = v->LegacyDiamondLineRasterization;
        s->setup.line_aa_region = aa_region_width(v->LineAntialiasingRegionWidth);
        break;
    }

    case SPEC_ID_3DSTATE_DEPTH_BUFFER:
        s->setup.depth_format =
            ((const struct spec_3DSTATE_DEPTH_BUFFER *)cs_state_common(p))->SurfaceFormat;
        break;
    case SPEC_ID_3DSTATE_VS: {
        const struct spec_3DSTATE_VS *v = cs_state_common(p);
        s->vs = (struct sf_vue_output){ v->Enable, v->VertexURBEntryOutputReadOffset,
                                        v->VertexURBEntryOutputLength };
        break;
    }
    case SPEC_ID_3DSTATE_DS: {
        const struct spec_3DSTATE_DS *v = cs_state_common(p);
        s->ds = (struct sf_vue_output){ v->Enable, v->VertexURBEntryOutputReadOffset,
                                        v->VertexURBEntryOutputLength };
        break;
    }
    case SPEC_ID_3DSTATE_GS: {
        const struct spec_3DSTATE_GS *v = cs_state_common(p);
        s->gs = (struct sf_vue_output){ v->Enable, v->VertexURBEntryOutputReadOffset,
                                        v->VertexURBEntryOutputLength };
        break;
    }
    case SPEC_ID_3DSTATE_SBE: {
        const struct spec_3DSTATE_SBE *v = cs_state_common(p);
        struct sbe_state *b = &s->sbe;
        b->output_count = v->NumberOfSFOutputAttributes;
        b->swizzle_enable = v->AttributeSwizzleEnable;
        b->constant_interpolation = v->ConstantInterpolationEnable;
        b->point_sprite = v->PointSpriteTextureCoordinateEnable;
        b->point_sprite_lower_left = v->PointSpriteTextureCoordinateOrigin == 1;
        b->primitive_id_attribute = v->PrimitiveIDOverrideAttributeSelect;
        b->primitive_id_components = (v->PrimitiveIDOverrideComponentX ? 1u : 0u) |
                                     (v->PrimitiveIDOverrideComponentY ? 2u : 0u) |
                                     (v->PrimitiveIDOverrideComponentZ ? 4u : 0u) |
                                     (v->PrimitiveIDOverrideComponentW ? 8u : 0u);
        /* Attribute Active Component Format is Gen9's (DW4-5); Gen8's
         * packet ends at DW3: every component is active */
        for (uint32_t i = 0; i < SETUP_MAX_ATTRIBUTES; i++)
            b->active[i] = (uint8_t)(p->gen >= 9 ? v->AttributeActiveComponentFormat[i] & 3u
                                                 : SBE_ACTIVE_XYZW);
        s->force_read_offset = v->ForceVertexURBEntryReadOffset;
        s->force_read_length = v->ForceVertexURBEntryReadLength;
        s->sbe_read_offset = v->VertexURBEntryReadOffset;
        s->sbe_read_length = v->VertexURBEntryReadLength;
        if (p->gen == 7)
            take_sbe_gen7(s, v);
        break;
    }
    case SPEC_ID_3DSTATE_SBE_SWIZ: {
        const struct spec_3DSTATE_SBE_SWIZ *v = cs_state_common(p);
        for (uint32_t i = 0; i < SBE_SWIZZLED; i++) {
            s->sbe.detail[i] = (uint16_t)v->Attribute[i];
            s->sbe.wrap_shortest[i] = (uint8_t)(v->AttributeWrapShortestEnables[i] & 0xfu);
        }
        break;
    }
    case SPEC_ID_3DSTATE_DRAWING_RECTANGLE: {
        const struct spec_3DSTATE_DRAWING_RECTANGLE *v = cs_state_common(p);
        s->setup.origin_x = v->DrawingRectangleOriginX;
        s->setup.origin_y = v->DrawingRectangleOriginY;
        s->setup.clip_x_min = (int32_t)v->ClippedDrawingRectangleXMin;
        s->setup.clip_y_min = (int32_t)v->ClippedDrawingRectangleYMin;
        s->setup.clip_x_max = (int32_t)v->ClippedDrawingRectangleXMax;
        s->setup.clip_y_max = (int32_t)v->ClippedDrawingRectangleYMax;
        break;
    }
    case SPEC_ID_3DSTATE_MULTISAMPLE: {
        const struct spec_3DSTATE_MULTISAMPLE *v = cs_state_common(p);
        s->setup.pixel_center = v->PixelLocation == 0;     /* CENTER */
        s->samples = 1u << (v->NumberOfMultisamples & 7u);
        break;
    }
    case SPEC_ID_3DSTATE_SCISSOR_STATE_POINTERS: {
        const struct spec_3DSTATE_SCISSOR_STATE_POINTERS *v = cs_state_common(p);
        struct gpu_address_space as;
        gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                               (enum gpu_address_space_format)p->space_format, p->space_root);
        const struct spec_element *e = spec_element_by_id((int)p->gen, SPEC_ID_SCISSOR_RECT);
        for (uint32_t i = 0; i < SF_VIEWPORTS; i++) {
            uint32_t dw[2];
            struct gt_error err;
            memset(&s->scissor[i], 0, sizeof s->scissor[i]);
            if (gpu_address_space_read(&as, s->dynamic_base + v->ScissorRectPointer + 8u * i, dw,
                                       sizeof dw, &err) != 0 || !e || !e->unpack_common) {
                s->scissor_read_failures++;
                continue;
            }
            e->unpack_common(dw, &s->scissor[i]);
        }
        break;
    }
    case SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP: {
        const struct spec_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP *v = cs_state_common(p);
        struct gpu_address_space as;
        gpu_address_space_init(&as, sim_memory(unit_sim(s->unit)),
                               (enum gpu_address_space_format)p->space_format, p->space_root);
        for (uint32_t i = 0; i < SF_VIEWPORTS; i++) {
            uint32_t dw[SF_CLIP_VIEWPORT_BYTES / 4];
            struct gt_error err;
            uint64_t at = s->dynamic_base + v->SFClipViewportPointer +
                          (uint64_t)i * SF_CLIP_VIEWPORT_BYTES;
            memset(&s->viewport[i], 0, sizeof s->viewport[i]);
            if (gpu_address_space_read(&as, at, dw, sizeof dw, &err) != 0) {
                s->viewport_read_failures++;
                continue;
            }
            const struct spec_element *e = spec_element_by_id((int)p->gen,
                                                              SPEC_ID_SF_CLIP_VIEWPORT);
            if (e && e->unpack_common)
                e->unpack_common(dw, &s->viewport[i]);
        }
        break;
    }
    default:
        break;
    }
}

/* ---- work ---------------------------------------------------------------------- */

/* SBE_INT::Vertex URB Entry Read Offset / Length (003 L15169-15175): the
 * forced 3DSTATE_SBE values, else those of the last enabled of GS, DS, VS. */
static void sbe_read_range(const struct sf *s, uint32_t *offset, uint32_t *length)
{
    if (s->gen == 4 && s->gen4_threads_on) {
        /* Gen4: SF_STATE's Vertex URB Entry Read Offset / Length, 256-bit
         * units (seed 001 L12750-12775), for the setup thread's payload */
        *offset = s->gen4.vertex_read_offset;
        *length = s->gen4.vertex_read_length;
        if (*length > SBE_MAX_READ_ROWS)
            *length = SBE_MAX_READ_ROWS;
        return;
    }
    const struct sf_vue_output *last = s->gs.enable ? &s->gs : s->ds.enable ? &s->ds : &s->vs;
    *offset = s->force_read_offset ? s->sbe_read_offset : last->read_offset;
    *length = s->force_read_length ? s->sbe_read_length : last->read_length;
    if (*length > SBE_MAX_READ_ROWS)
        *length = SBE_MAX_READ_ROWS;
    if (s->sbe.output_count == 0)
        *length = 0;        /* "ignored if Number of SF Attributes is 0" (004 L6966-6971) */
}

#define SF_TAG_ATTRIBUTES 0x100u        /* a tag's part bit: the attribute rows */
#define SF_TAG_ALLOC 0x200u             /* a URB tag's part bit: a Gen4 entry allocation */

static void gen4_take_allocated(struct sf *s, const struct urb_msg *q);

static struct msg *urb_read(struct sf *s, uint32_t handle, uint32_t tag, uint32_t row, uint32_t rows)
{
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_READ;
    q->client = URB_CLIENT_SF;
    q->tag = tag;
    q->count = 1;
    q->handles[0] = handle;
    q->row = row;
    q->rows = rows;
    return m;
}

static void take_attribute_rows(struct sf *s, uint32_t vertex, const uint8_t (*rows)[URB_ROW_BYTES],
                                uint32_t count)
{
    for (uint32_t r = 0; r < count && r < SBE_MAX_READ_ROWS; r++) {
        memcpy(s->inputs[vertex][2 * r], rows[r], URB_ROW_BYTES);
        s->attribute_rows++;
    }
}

static void take_urb_replies(struct sf *s)
{
    struct msg *m;
    while (s->urb_reply && (m = port_pop(s->urb_reply)) != NULL) {
        const struct urb_msg *q = (const struct urb_msg *)m->payload;
        uint32_t vertex = q->tag & ~SF_TAG_ATTRIBUTES;
        if (m->kind == MSG_URB && m->size >= sizeof *q && q->op == URB_OP_ALLOCATED &&
            (q->tag & SF_TAG_ALLOC)) {
            gen4_take_allocated(s, q);
            msg_free(unit_sim(s->unit), m);
            continue;
        }
        if (m->kind == MSG_URB && q->op == URB_OP_DATA && s->reading && vertex < PRIM_MAX_VERTICES &&
            q->rows >= 1 && m->size >= sizeof *q + (size_t)q->rows * URB_ROW_BYTES) {
            if (q->tag & SF_TAG_ATTRIBUTES) {
                take_attribute_rows(s, vertex, q->data, q->rows);
            } else {
                memcpy(s->header[vertex], q->data[0], sizeof s->header[vertex]);
                if (s->merged_read && q->rows > s->read_offset)
                    take_attribute_rows(s, vertex, q->data + s->read_offset, q->rows - s->read_offset);
            }
            s->reads_back++;
        }
        msg_free(unit_sim(s->unit), m);
    }
}

/* The record of the primitive's draw: a new draw starts a record while
 * there is room; NULL once the records are full. */
static struct sf_observed_draw *observed_draw(struct sf *s, uint32_t draw)
{
    if (!s->any_draw || draw != s->last_draw) {
        s->any_draw = true;
        s->last_draw = draw;
        s->draws++;
        if (s->draws_seen < SF_OBSERVED_DRAWS) {
            struct sf_observed_draw *d = &s->observed[s->draws_seen++];
            memset(d, 0, sizeof *d);
            d->draw = draw;
            return d;
        }
        return NULL;
    }
    return s->draws_seen && s->observed[s->draws_seen - 1].draw == draw &&
                   s->draws <= SF_OBSERVED_DRAWS
               ? &s->observed[s->draws_seen - 1] : NULL;
}

static uint32_t header_u32(const float *header, uint32_t dw)
{
    uint32_t v;
    memcpy(&v, &header[dw], sizeof v);
    return v;
}

/* One object of the decomposition (003 L14482-14720). */
struct sf_decomposed {
    uint32_t type;                  /* enum sf_object_type */
    uint32_t v[3];                  /* indices into the primitive's vertices */
    uint32_t provoking;             /* 0..2 in v[] */
    bool invert, back_facing, last_pixel;
    bool stipple_restart;           /* lines: L15540 */
};

static uint32_t provoking_select(struct sf *s, uint32_t select, uint32_t n)
{
    if (select < n)
        return select;
    s->reserved_provoking++;
    return 0;
}

/* Primitive decomposition: the objects of a primitive, in order; false for a
 * topology SF does not take. */
static bool decompose(struct sf *s, const struct primitive_packet *p, struct sf_decomposed *o,
                      uint32_t *count)
{
    uint32_t n = p->vertex_count, t = p->topology, k = 0;
    switch (t) {
    case PRIM_POINTLIST:
    case PRIM_POINTLIST_BF:
        for (uint32_t i = 0; i < n; i++)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_POINT, { i, i, i }, 0, false,
                                             t == PRIM_POINTLIST_BF, false, false };
        break;
    case PRIM_LINELIST:
        for (uint32_t i = 0; i + 1 < n; i += 2)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_LINE, { i, i + 1, i },
                                             provoking_select(s, s->line_provoking, 2), false, false,
                                             s->last_pixel, true };
        break;
    case PRIM_LINESTRIP:
    case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF: {
        bool bf = t == PRIM_LINESTRIP_BF || t == PRIM_LINESTRIP_CONT_BF;
        /* the stipple counter restarts with a new primitive, not within it
         * and not for the _CONT forms (L15540) */
        bool cont = t == PRIM_LINESTRIP_CONT || t == PRIM_LINESTRIP_CONT_BF;
        for (uint32_t i = 0; i + 1 < n; i++)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_LINE, { i, i + 1, i },
                                             provoking_select(s, s->line_provoking, 2), false, bf,
                                             s->last_pixel && i + 2 == n,
                                             i == 0 && !cont && (p->flags & PRIM_START) };
        break;
    }
    case PRIM_TRILIST:
        for (uint32_t i = 0; i + 2 < n; i += 3)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_TRIANGLE, { i, i + 1, i + 2 },
                                             provoking_select(s, s->tri_provoking, 3), false, false,
                                             false, false };
        break;
    case PRIM_RECTLIST:
        for (uint32_t i = 0; i + 2 < n; i += 3)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_RECTANGLE, { i, i + 1, i + 2 }, 0, false,
                                             false, false, false };
        break;
    case PRIM_TRISTRIP:
    case PRIM_TRISTRIP_REVERSE:
        for (uint32_t i = 0; i + 2 < n; i++)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_TRIANGLE, { i, i + 1, i + 2 },
                                             provoking_select(s, s->tri_provoking, 3),
                                             ((i & 1u) != 0) != (t == PRIM_TRISTRIP_REVERSE), false,
                                             false, false };
        break;
    case PRIM_TRIFAN:
    case PRIM_TRIFAN_NOSTIPPLE:
    case PRIM_POLYGON:
        /* POLYGON is a fan whose provoking vertex is v0 (L14691-14693) */
        for (uint32_t i = 1; i + 1 < n; i++)
            o[k++] = (struct sf_decomposed){ SF_OBJECT_TRIANGLE, { 0, i, i + 1 },
                                             t == PRIM_POLYGON ? 0
                                                 : provoking_select(s, s->fan_provoking, 3),
                                             false, false, false, false };
        break;
    default:
        return false;
    }
    *count = k;
    return true;
}

/* The SF_INT-resolved per-viewport part of the setup state. */
static void setup_state(const struct sf *s, uint32_t vpi, struct sf_setup_state *st)
{
    *st = s->setup;
    if (!st->subpixel_bits)
        st->subpixel_bits = 8;
    /* Gen7's SF_CLIP_VIEWPORT has no X/Y Min/Max ViewPort (DW12-15 are Gen8's;
     * Mesa's genxml gen7.xml): no viewport extents test there */
    st->viewport_extents_enable = s->viewport_transform && s->gen != 7 && s->gen != 4;
    st->viewport_x_min = s->viewport[vpi].XMinViewPort;
    st->viewport_y_min = s->viewport[vpi].YMinViewPort;
    st->viewport_x_max = s->viewport[vpi].XMaxViewPort;
    st->viewport_y_max = s->viewport[vpi].YMaxViewPort;
    st->scissor_x_min = (int32_t)s->scissor[vpi].ScissorRectangleXMin;
    st->scissor_y_min = (int32_t)s->scissor[vpi].ScissorRectangleYMin;
    st->scissor_x_max = (int32_t)s->scissor[vpi].ScissorRectangleXMax;
    st->scissor_y_max = (int32_t)s->scissor[vpi].ScissorRectangleYMax;
    /* WM_INT::Multisample Rasterization Mode ON_* (Table 1, L15615-15624;
     * RT independent rasterization and Force Multisampling not modelled):
     * DX9/OGL only with more than one sample, DX10.0 and DX10.1+ always, when
     * DX Multisample Rasterization Enable is set */
    st->line_multisample = s->dx_multisample && (s->api_mode != 0 || s->samples > 1);
    /* rasterization at the sample pattern, as WM does it (more than one
     * sample and DX Multisample Rasterization Enable on Gen8+, or Gen7's
     * MSRASTMODE_ON_PATTERN) */
    st->sample_pattern_raster = s->samples > 1 && (s->dx_multisample || s->gen7_ms_raster_pattern);
    st->line_antialiasing = s->antialiasing;
    /* SF_INT::Global Depth Offset Enable Solid / Wireframe / Point (L15003-15015):
     * the command's enable and a Constant or Scale that is not +-0.0 */
    bool offset = s->setup.depth_offset_constant != 0 || s->setup.depth_offset_scale != 0;
    st->depth_offset = s->raster_depth_offset_solid && offset;
    st->depth_offset_wireframe = s->raster_depth_offset_wireframe && offset;
    st->depth_offset_point = s->raster_depth_offset_point && offset;
}

/* Divide and viewport transform of one vertex (003 L14732-14744). */
static void to_screen(const struct spec_SF_CLIP_VIEWPORT *vp, bool transform, const float *clip,
                      float screen[3])
{
    float x = clip[0] / clip[3], y = clip[1] / clip[3], z = clip[2] / clip[3];
    if (transform) {
        x = vp->ViewportMatrixElementM00 * x + vp->ViewportMatrixElementM30;
        y = vp->ViewportMatrixElementM11 * y + vp->ViewportMatrixElementM31;
        z = vp->ViewportMatrixElementM22 * z + vp->ViewportMatrixElementM32;
    }
    screen[0] = x;
    screen[1] = y;
    screen[2] = z;
}

/* ---- Gen4 setup threads ------------------------------------------------------------ */

/* A plane a0 + a1 (x - x0) + a2 (y - y0) with its origin moved by (dx, dy). */
static void rebase_plane(struct setup_plane *q, float dx, float dy)
{
    q->a0 += q->a1 * dx + q->a2 * dy;
}

/* One set-up object waits for its setup thread (seed 001 §7.5): its payload
 * inputs are kept, its MSG_SETUP leaves once the thread has ended. The
 * setup_primitive's planes are moved to the payload's start vertex V0 less
 * the Destination Origin Bias (L11861-11877: with 0.5 the pixel sampling
 * points are X.5, so the PS's integer pixel coordinates minus this start
 * are the sample's offsets from V0); WM gives it to the PS as Xstart/Ystart
 * (R1.0-R1.1, L18251ff). */
static void gen4_queue_job(struct sf *s, const struct primitive_packet *p,
                           const struct sf_decomposed *d, const struct sf_object *o,
                           const struct sf_setup_state *st, struct msg *m)
{
    struct setup_primitive *out = (struct setup_primitive *)m->payload;
    if (s->job_count >= PRIM_MAX_VERTICES) {        /* cannot happen: objects <= vertices */
        msg_free(unit_sim(s->unit), m);
        return;
    }
    struct sf_gen4_job *j = &s->jobs[s->job_count++];
    memset(j, 0, sizeof *j);
    j->setup = m;
    j->phase = JOB_ALLOC;
    struct sf_gen4_object_in *in = &j->in;
    static const uint32_t types[] = { [SF_OBJECT_POINT] = SF_GEN4_POINT,
                                      [SF_OBJECT_LINE] = SF_GEN4_LINE,
                                      [SF_OBJECT_TRIANGLE] = SF_GEN4_TRIANGLE,
                                      [SF_OBJECT_RECTANGLE] = SF_GEN4_RECTANGLE };
    in->type = d->type <= SF_OBJECT_RECTANGLE ? types[d->type] : SF_GEN4_TRIANGLE;
    in->topology = p->topology;
    in->back_facing = (out->flags & PRIM_BACK_FACING) != 0;
    in->sprite_point = s->gen4.sprite_point;
    in->provoking = d->provoking;
    uint32_t nv = d->type == SF_OBJECT_POINT ? 1 : d->type == SF_OBJECT_LINE ? 2 : 3;
    uint32_t bits = st->subpixel_bits ? st->subpixel_bits : 8;
    double one = (double)((int64_t)1 << bits);
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t k = i < nv ? i : 0;
        in->source[i] = d->v[k];
        /* the snapped screen position (L11915-12070 offset, then the XY
         * quantization of object setup) */
        in->x[i] = (float)((double)sf_quantize((double)o->v[k].x + st->origin_x, bits) / one);
        in->y[i] = (float)((double)sf_quantize((double)o->v[k].y + st->origin_y, bits) / one);
        in->z[i] = o->v[k].z;
        in->rhw[i] = s->header[d->v[k]][VUE_DW_POSITION_X + 3];
    }
    sf_gen4_setup_params(in, o->point_width / 2, &j->params);
    float x0 = j->params.x0 - s->gen4.origin_bias_x, y0 = j->params.y0 - s->gen4.origin_bias_y;
    float dx = x0 - out->x0, dy = y0 - out->y0;
    rebase_plane(&out->depth, dx, dy);
    rebase_plane(&out->inverse_w, dx, dy);
    rebase_plane(&out->barycentric[0], dx, dy);
    rebase_plane(&out->barycentric[1], dx, dy);
    for (uint32_t a = 0; a < out->attribute_count && a < SETUP_MAX_ATTRIBUTES; a++)
        for (uint32_t c = 0; c < 4; c++)
            rebase_plane(&out->attributes[a][c], dx, dy);
    out->x0 = x0;
    out->y0 = y0;
}

/* URB_OP_CONFIGURE of the SF region (SF_STATE Number of URB Entries and URB
 * Entry Allocation Size, seed 001 L12820-12826), before the next ALLOC:
 * false while the URB channel is full. */
static bool gen4_configure(struct sf *s)
{
    if (!s->urb) {
        s->configure_pending = false;
        s->fence_markers = 0;
        return true;
    }
    while (s->configure_pending || s->fence_markers) {
        if (!port_can_send(s->urb)) {
            s->stall_urb++;
            return false;
        }
        struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
        struct urb_msg *q = (struct urb_msg *)m->payload;
        memset(q, 0, sizeof *q);
        q->client = URB_CLIENT_SF;
        if (s->configure_pending) {
            q->op = URB_OP_CONFIGURE;
            q->count = s->gen4.urb_entries;
            q->rows = 2 * s->gen4.urb_entry_rows;   /* 512-bit units -> 256-bit rows */
            s->configure_pending = false;
            s->gen4_configures++;
        } else {
            /* a URB_FENCE SF reached: the SF region takes it after the
             * allocations of the work before it (urb_fence.h) */
            q->op = URB_OP_FENCE;
            s->fence_markers--;
        }
        port_try_send(s->urb, m);
    }
    return true;
}


static void gen4_dereference(struct sf *s, uint32_t handle)
{
    /* best effort: a full channel leaves the entry held (counted) */
    if (!s->urb || !port_can_send(s->urb)) {
        s->stall_urb++;
        return;
    }
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_DEREFERENCE;
    q->client = URB_CLIENT_SF;
    q->count = 1;
    q->handles[0] = handle;
    port_try_send(s->urb, m);
}

static void gen4_drop(struct sf *s, struct sf_gen4_job *j)
{
    if (j->setup)
        msg_free(unit_sim(s->unit), j->setup);
    j->setup = NULL;
    j->phase = JOB_DROPPED;
}

/* The stage_kernel SF_STATE describes. */
static void gen4_kernel(const struct sf *s, struct stage_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->enable = true;
    k->kernel_start = s->gen4.kernel_start;
    k->binding_table_entries = s->gen4.binding_table_entries;
    k->scratch_base = s->gen4.scratch_base;
    k->per_thread_scratch = s->gen4.per_thread_scratch;
    k->max_threads = s->gen4.maximum_threads ? s->gen4.maximum_threads : 1;
    k->simd = 8;
    k->alternate_fp = s->gen4.alternate_fp;
    k->illegal_opcode_exception = s->gen4.illegal_opcode_exception;
    k->software_exception = s->gen4.software_exception;
}

static void gen4_dispatch(struct sf *s, uint32_t index)
{
    struct sf_gen4_job *j = &s->jobs[index];
    struct stage_kernel k;
    gen4_kernel(s, &k);
    uint32_t first = s->gen4.dispatch_grf_start;
    if (first < 3) {                    /* R0-R2 are the fixed payload (L14227-14429) */
        s->gen4_bad_grf_start++;
        first = 3;
    }
    uint32_t rows = s->read_length;
    uint32_t total = sf_gen4_payload_regs(first, s->curbe_regs, j->params.count, rows);
    if (total > THREAD_PAYLOAD_MAX_REGS)
        total = THREAD_PAYLOAD_MAX_REGS;
    j->seq = ++s->job_seq;
    uint64_t tag = (uint64_t)(j->seq & 0xffffffu) << 8 | index;
    struct msg *m = stage_threads_new(&s->threads, s->unit, &k, &s->bases, &s->space, total, 0xffu,
                                      tag);
    struct eu_dispatch *dp = (struct eu_dispatch *)m->payload;
    const uint8_t *vue[3] = { NULL, NULL, NULL };
    for (uint32_t v = 0; v < j->params.count; v++)
        vue[v] = (const uint8_t *)s->inputs[j->params.source[v]];
    sf_gen4_payload(&j->in, &j->params, index, j->handle, (const uint8_t (*)[32])s->curbe,
                    s->curbe_regs, vue, rows, dp->grf, total, first);
    stage_threads_send(&s->threads, s->unit, m);
    j->phase = JOB_RUNNING;
    j->since = unit_cycle(s->unit);
}

/* Thread ends (urb.eot_sf): the job of the tag ends, unless the watchdog
 * dropped it (a late end). */
static void gen4_take_ends(struct sf *s)
{
    uint64_t tag;
    while (stage_threads_poll_end(&s->threads, s->unit, &tag)) {
        uint32_t index = (uint32_t)(tag & 0xffu), seq = (uint32_t)(tag >> 8);
        struct sf_gen4_job *j = index < s->job_count ? &s->jobs[index] : NULL;
        if (j && j->phase == JOB_RUNNING && (j->seq & 0xffffffu) == seq)
            j->phase = JOB_ENDED;
        else
            s->gen4_late_ends++;
    }
}

/* Runs the head primitive's jobs: entries, dispatches, ends, the watchdog,
 * and sends the set-up objects in order. True when every job is done. */
static bool gen4_jobs_step(struct sf *s)
{
    gen4_take_ends(s);
    if (!gen4_configure(s))
        return false;
    uint64_t now = unit_cycle(s->unit);
    s->gen4_watching = false;
    for (uint32_t i = s->job_done; i < s->job_count; i++) {
        struct sf_gen4_job *j = &s->jobs[i];
        if (j->phase == JOB_ALLOC) {
            if (!s->urb || !s->urb_reply) {
                s->gen4_refused++;
                gen4_drop(s, j);
                continue;
            }
            if (!port_can_send(s->urb)) {
                s->stall_urb++;
                break;
            }
            struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
            struct urb_msg *q = (struct urb_msg *)m->payload;
            memset(q, 0, sizeof *q);
            q->op = URB_OP_ALLOC;
            q->client = URB_CLIENT_SF;
            q->tag = SF_TAG_ALLOC | i;
            q->count = 1;
            port_try_send(s->urb, m);
            j->phase = JOB_ALLOC_WAIT;
            j->since = now;
        }
        if (j->phase == JOB_DISPATCH) {
            struct stage_kernel k;
            gen4_kernel(s, &k);
            if (!stage_threads_can_dispatch(&s->threads, &k))
                break;      /* dispatches in order; an end or a freed channel wakes the unit */
            gen4_dispatch(s, i);
        }
        if (j->phase == JOB_RUNNING && s->thread_timeout) {
            if (now - j->since >= s->thread_timeout) {
                /* the watchdog (issue 14 bad input): the object is dropped,
                 * its entry freed; a later end is counted as late */
                s->gen4_timeouts++;
                gen4_dereference(s, j->handle);
                gen4_drop(s, j);
            } else {
                s->gen4_watching = true;
            }
        }
    }
    /* the set-up objects leave in order, each owning its entry's reference */
    while (s->job_done < s->job_count) {
        struct sf_gen4_job *j = &s->jobs[s->job_done];
        if (j->phase == JOB_ENDED) {
            struct setup_primitive *out = (struct setup_primitive *)j->setup->payload;
            out->setup_urb_handle = j->handle;
            out->setup_urb_rows = 2 * s->gen4.urb_entry_rows;
            ff_stage_emit(&s->ff, j->setup);
            j->setup = NULL;
            s->gen4_setups_out++;
        } else if (j->phase != JOB_DROPPED) {
            break;
        }
        s->job_done++;
    }
    return s->job_done == s->job_count;
}

/* URB_OP_ALLOCATED for a job's entry. */
static void gen4_take_allocated(struct sf *s, const struct urb_msg *q)
{
    uint32_t index = q->tag & 0xffu;
    struct sf_gen4_job *j = index < s->job_count ? &s->jobs[index] : NULL;
    if (!j || j->phase != JOB_ALLOC_WAIT) {
        s->bad_primitives++;        /* an answer for no request: free what it gave */
        for (uint32_t k = 0; k < q->count && k < URB_MAX_HANDLES_PER_MSG; k++)
            gen4_dereference(s, q->handles[k]);
        return;
    }
    s->gen4_alloc_wait += unit_cycle(s->unit) - j->since;
    if (q->count < 1) {
        s->gen4_refused++;          /* more than the region holds (urb_fence.h) */
        gen4_drop(s, j);
        return;
    }
    s->gen4_entries++;
    j->handle = q->handles[0];
    j->phase = JOB_DISPATCH;
}

/* Frees what the jobs hold (reset, destroy). */
static void gen4_jobs_clear(struct sf *s)
{
    for (uint32_t i = 0; i < s->job_count; i++)
        if (s->jobs[i].setup)
            msg_free(unit_sim(s->unit), s->jobs[i].setup);
    s->job_count = s->job_done = 0;
}

/* Object setup of one object and its attributes; MSG_SETUP to WM. */

/* The topologies polygon stipple applies to (seed 003 L15560-15575). */
static bool poly_stipple_topology(uint32_t t)
{
    return t == PRIM_POLYGON || t == PRIM_TRIFAN || t == PRIM_TRILIST || t == PRIM_TRISTRIP ||
           t == PRIM_TRISTRIP_REVERSE;
}
static void set_up_object(struct sf *s, const struct primitive_packet *p, const struct sf_decomposed *d)
{
    uint32_t nv = d->type == SF_OBJECT_POINT ? 1 : d->type == SF_OBJECT_LINE ? 2 : 3;
    s->objects++;
    /* the leading vertex selects the viewport (L14440-14466) */
    const float *lead = s->header[d->v[0]];
    uint32_t vpi = header_u32(lead, VUE_DW_VIEWPORT_INDEX);
    if (vpi > s->maximum_vp_index || vpi >= SF_VIEWPORTS)
        vpi = 0;
    struct sf_object o = { .type = d->type, .invert_orientation = d->invert,
                           .back_facing = d->back_facing, .last_pixel = d->last_pixel,
                           .stipple_restart = d->stipple_restart };
    for (uint32_t i = 0; i < nv; i++) {
        const float *c = &s->header[d->v[i]][VUE_DW_POSITION_X];
        if (isnan(c[0]) || isnan(c[1]) || isnan(c[2]) || isnan(c[3])) {
            s->nan_discarded++;     /* "unconditionally discarded" (L14728) */
            return;
        }
        float screen[3], w = c[3];
        if (s->gen == 4)        /* D4-D7: divided position and RHW (sf_gen4.h) */
            sf_gen4_to_screen(&s->gen4, c, screen, &w);
        else
            to_screen(&s->viewport[vpi], s->viewport_transform, c, screen);
        if (isnan(screen[0]) || isnan(screen[1]) || isnan(screen[2])) {
            s->nan_discarded++;     /* post-transform NaN (L14730) */
            return;
        }
        if (isinf(screen[2]) || c[3] == 0 || isinf(c[3])) {
            s->infinite++;
            return;
        }
        o.v[i] = (struct sf_setup_vertex){ screen[0], screen[1], screen[2], w };
    }
    if (d->type == SF_OBJECT_POINT)
        o.point_width = s->point_width_from_state ? s->point_width
                                                  : s->header[d->v[0]][VUE_DW_POINT_WIDTH];
    struct sf_setup_state st;
    setup_state(s, vpi, &st);
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_SETUP, sizeof(struct setup_primitive));
    struct setup_primitive *out = (struct setup_primitive *)m->payload;
    enum sf_setup_result r = sf_setup(&st, &o, out);
    if (r != SF_SETUP_OK) {
        if (r == SF_SETUP_DEGENERATE)
            s->degenerate++;
        else if (r == SF_SETUP_CULLED_FACE)
            s->face_culled++;
        else if (r == SF_SETUP_BAD_WIDTH)
            s->bad_width++;
        else
            s->outside++;
        msg_free(unit_sim(s->unit), m);
        return;
    }
    out->primitive_id = p->primitive_id;
    out->draw = p->draw;
    if (d->type == SF_OBJECT_TRIANGLE && !poly_stipple_topology(p->topology))
        out->flags |= PRIM_NO_POLY_STIPPLE;
    out->viewport_index = vpi;
    out->rt_array_index = s->force_zero_rta_index ? 0 : header_u32(lead, VUE_DW_RT_ARRAY_INDEX);
    /* SBE: each set-up vertex's outputs, then the planes */
    struct sbe_state sbe = s->sbe;
    sbe.read_length = s->read_length;
    sbe.primitive_id_override = !s->gs.enable && sbe.primitive_id_components != 0;  /* L15179 */
    if (sbe.output_count > SETUP_MAX_ATTRIBUTES)
        sbe.output_count = SETUP_MAX_ATTRIBUTES;
    bool back = (out->flags & PRIM_BACK_FACING) != 0;
    float (*values)[SETUP_MAX_ATTRIBUTES][4] = s->outputs;
    struct sbe_faults faults = { 0 };
    for (uint32_t i = 0; i < nv; i++)
        sbe_select(&sbe, (const float (*)[4])s->inputs[d->v[i]], 2 * s->read_length, back,
                   p->primitive_id, values[i], &faults);
    /* a line's vertex 2 is its vertex 0, a point's corners are its vertex */
    const float (*const planes_of[3])[4] = {
        (const float (*)[4])values[0],
        (const float (*)[4])values[nv > 1 ? 1 : 0],
        (const float (*)[4])values[nv > 2 ? 2 : 0],
    };
    sbe_planes(&sbe, planes_of, d->provoking, d->type == SF_OBJECT_POINT, out);
    s->source_out_of_range += faults.source_out_of_range;
    s->attributes_out += out->attribute_count;
    switch (d->type) {
    case SF_OBJECT_POINT: s->points++; break;
    case SF_OBJECT_LINE:
        s->lines++;
        if (out->line_mode == SETUP_LINE_DIAMOND_LEGACY || out->line_mode == SETUP_LINE_DIAMOND_DX10)
            s->lines_diamond++;
        else if (out->line_mode == SETUP_LINE_AA_RECTANGLE)
            s->aa_lines++;
        else if (out->line_mode == SETUP_LINE_MSAA_RECTANGLE)
            s->lines_msaa++;
        break;
    case SF_OBJECT_RECTANGLE: s->rectangles++; break;
    default:
        s->triangles++;
        if (s->non_solid_fill)
            s->non_solid_objects++;
        break;
    }
    if (s->gen == 4 && s->gen4_threads_on) {
        gen4_queue_job(s, p, d, &o, &st, m);
        return;
    }
    ff_stage_emit(&s->ff, m);
}

/* The primitive's VUE rows are in: decompose, set up, record. */
static void finish_primitive(struct sf *s, const struct primitive_packet *p)
{
    uint32_t n = p->vertex_count;
    s->primitives++;
    s->vertices += n;
    struct sf_decomposed objects[PRIM_MAX_VERTICES];
    uint32_t count = 0;
    if (!decompose(s, p, objects, &count))
        s->unsupported++;
    for (uint32_t k = 0; k < count; k++)
        set_up_object(s, p, &objects[k]);
    struct sf_observed_draw *d = observed_draw(s, p->draw);
    if (d) {
        d->primitives++;
        if (d->kept < SF_OBSERVED_PRIMITIVES) {
            /* the first vertices through the first vertex's viewport */
            uint32_t vpi = header_u32(s->header[0], VUE_DW_VIEWPORT_INDEX);
            const struct spec_SF_CLIP_VIEWPORT *vp = &s->viewport[vpi < SF_VIEWPORTS ? vpi : 0];
            d->primitives_seen[d->kept].topology = p->topology;
            d->primitives_seen[d->kept].vertex_count = n;
            d->primitives_seen[d->kept].provoking = p->provoking;
            for (uint32_t i = 0; i < n && i < 3; i++) {
                struct sf_observed_vertex *v = &d->primitives_seen[d->kept].v[i];
                memcpy(v->clip, &s->header[i][VUE_DW_POSITION_X], sizeof v->clip);
                float w;
                if (s->gen == 4)
                    sf_gen4_to_screen(&s->gen4, v->clip, v->screen, &w);
                else
                    to_screen(vp, s->viewport_transform, v->clip, v->screen);
            }
            d->kept++;
        }
    }
}

/* Drops the primitive's URB references (primitive.h): false while the URB
 * channel is full. */
static bool release(struct sf *s, const struct primitive_packet *p)
{
    if (!s->urb)
        return true;
    if (!port_can_send(s->urb)) {
        s->stall_urb++;
        return false;
    }
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_URB, sizeof(struct urb_msg));
    struct urb_msg *q = (struct urb_msg *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = URB_OP_DEREFERENCE;
    q->client = URB_CLIENT_SF;
    if (p->owner_handle != URB_HANDLE_NONE) {
        q->count = 1;
        q->handles[0] = p->owner_handle;
    } else {
        q->count = p->vertex_count;
        memcpy(q->handles, p->handles, p->vertex_count * sizeof q->handles[0]);
    }
    port_try_send(s->urb, m);
    return true;
}

static enum ff_stage_work_result work_primitive(struct sf *s, const struct primitive_packet *p)
{
    uint32_t n = p->vertex_count;
    if (n == 0 || n > PRIM_MAX_VERTICES || !s->urb || !s->urb_reply) {
        s->bad_primitives++;
        return FF_STAGE_DONE;
    }
    if (!s->reading) {
        s->reading = true;
        s->reads_sent = s->reads_back = 0;
        sbe_read_range(s, &s->read_offset, &s->read_length);
        /* the header row and the attribute rows: one read when they touch */
        s->merged_read = s->read_length == 0 || s->read_offset <= 1;
        s->reads_needed = s->merged_read ? n : 2 * n;
        memset(s->header, 0, n * sizeof s->header[0]);
        memset(s->inputs, 0, n * sizeof s->inputs[0]);
    }
    while (s->reads_sent < s->reads_needed) {
        if (!port_can_send(s->urb)) {
            s->stall_urb++;
            return FF_STAGE_NOT_NOW;        /* the freed channel wakes the unit */
        }
        uint32_t vertex = s->reads_sent % n;
        bool attributes = s->reads_sent >= n;
        uint32_t base = (p->half_row >> vertex) & 1u;
        struct msg *r;
        if (attributes)
            r = urb_read(s, p->handles[vertex], vertex | SF_TAG_ATTRIBUTES, base + s->read_offset,
                         s->read_length);
        else if (s->merged_read && s->read_length)
            r = urb_read(s, p->handles[vertex], vertex, base, s->read_offset + s->read_length);
        else
            r = urb_read(s, p->handles[vertex], vertex, base, 1);
        port_try_send(s->urb, r);
        s->reads_sent++;
    }
    if (s->reads_back < s->reads_needed)
        return FF_STAGE_NOT_NOW;            /* the replies wake the unit */
    if (!s->released) {
        if (!release(s, p))
            return FF_STAGE_NOT_NOW;
        s->released = true;
        s->job_count = s->job_done = 0;
        finish_primitive(s, p);             /* Gen4 with threads: queues the jobs */
    }
    /* Gen4: the objects' setup threads run before the next primitive (the
     * objects leave in order and state must not overtake them) */
    if (s->job_count && !gen4_jobs_step(s))
        return FF_STAGE_NOT_NOW;
    s->job_count = s->job_done = 0;
    s->released = false;
    s->reading = false;
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work_sync(struct sf *s, struct msg *m)
{
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (m->size < sizeof *c || c->op != CS_MMIO_SYNC || !s->drained)
        return FF_STAGE_PASS;
    if (!port_can_send(s->drained))
        return FF_STAGE_NOT_NOW;
    struct msg *done = msg_alloc(unit_sim(s->unit), MSG_MMIO, m->size);
    memcpy(done->payload, m->payload, m->size);
    ((struct cs_mmio *)done->payload)->op = CS_MMIO_SYNC_DONE;
    done->tag = m->tag;
    port_try_send(s->drained, done);
    return FF_STAGE_DONE;
}

static enum ff_stage_work_result work(void *context, struct msg *m)
{
    struct sf *s = context;
    if (m->kind == MSG_PRIMITIVE) {
        if (m->size < sizeof(struct primitive_packet)) {
            s->bad_primitives++;
            return FF_STAGE_DONE;
        }
        return work_primitive(s, (const struct primitive_packet *)m->payload);
    }
    return work_sync(s, m);
}

/* ---- the unit ------------------------------------------------------------------ */

static const struct param_desc sf_params[] = {
    PARAM_U64_FIELD("thread_timeout", struct sf, thread_timeout, 50000, 0, INT64_MAX,
                    "Gen4: cycles from a setup thread's dispatch to its end before the watchdog "
                    "drops its object (0: no watchdog; the seed gives no figure: a choice below "
                    "the simulator's 100000-cycle deadlock report)"),
    PARAM_END
};

static int sf_realize(struct unit *u, struct gt_error *err)
{
    struct sf *s = unit_state(u);
    s->unit = u;
    s->urb = unit_port(u, "urb", 0);
    s->urb_reply = unit_port(u, "urb_reply", 0);
    s->drained = unit_port(u, "drained", 0);
    if (!port_is_bound(s->urb))
        s->urb = NULL;
    if (!port_is_bound(s->urb_reply))
        s->urb_reply = NULL;
    if (!port_is_bound(s->drained))
        s->drained = NULL;
    /* Gen4's setup threads run when a thread dispatcher is linked */
    uint32_t tds = 0;
    struct port **td = unit_port_array(u, "td", &tds);
    bool any_td = false;
    for (uint32_t i = 0; i < tds; i++)
        any_td = any_td || port_is_bound(td[i]);
    s->gen4_threads_on = any_td;
    if (any_td && stage_threads_init(&s->threads, u, FFID_SF, err) != 0)
        return -1;
    static const struct ff_stage_id ids[] = {
        { SPEC_ID_STATE_BASE_ADDRESS, FF_STAGE_TAKE },
        { SPEC_ID_CONSTANT_BUFFER, FF_STAGE_TAKE },
        { SPEC_ID_URB_FENCE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SF, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_PIPELINED_POINTERS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_RASTER, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_DRAWING_RECTANGLE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_MULTISAMPLE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SCISSOR_STATE_POINTERS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_WM, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_DEPTH_BUFFER, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_VS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_DS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_GS, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SBE, FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SBE_SWIZ, FF_STAGE_TAKE },
    };
    struct ff_stage_config c = {
        .in = unit_port(u, "clip", 0), .out = unit_port(u, "wm", 0),
        .ids = ids, .id_count = sizeof ids / sizeof ids[0],
        .work_kinds = MSG_BIT(MSG_PRIMITIVE) | MSG_BIT(MSG_MMIO), .per_cycle = 1,
        .take_state = take_state, .work = work, .context = s,
    };
    return ff_stage_init(&s->ff, &c, err);
}

static void sf_reset(struct unit *u)
{
    struct sf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    gen4_jobs_clear(s);
    if (s->gen4_threads_on)
        stage_threads_reset(&s->threads);
    memset(&s->bases, 0, sizeof s->bases);
    s->configure_pending = s->curbe_valid = s->released = s->gen4_watching = false;
    s->fence_markers = 0;
    s->curbe_regs = 0;
    s->curbe_address = 0;
    s->dynamic_base = s->general_base = 0;
    memset(&s->gen4, 0, sizeof s->gen4);
    s->viewport_transform = false;
    memset(s->viewport, 0, sizeof s->viewport);
    memset(s->scissor, 0, sizeof s->scissor);
    memset(&s->setup, 0, sizeof s->setup);
    /* state never programmed reads as zeros: Pixel Location 0 is CENTER,
     * Vertex SubPixel Precision Select 0 is 8 bits, Cull Mode 0 is BOTH */
    s->setup.pixel_center = true;
    s->setup.subpixel_bits = 8;
    s->tri_provoking = s->line_provoking = s->fan_provoking = 0;
    s->last_pixel = s->point_width_from_state = false;
    s->point_width = 0;
    s->raster_depth_offset_solid = s->non_solid_fill = s->antialiasing = false;
    s->raster_depth_offset_wireframe = s->raster_depth_offset_point = false;
    /* region widths of code 0 are 0.5 pixels; one sample, DX9/OGL */
    s->setup.line_aa_region = s->setup.line_cap_aa_region = 0.5f;
    s->api_mode = 0;
    s->samples = 1;
    s->dx_multisample = false;
    s->gen7_ms_raster_pattern = false;
    memset(&s->sbe, 0, sizeof s->sbe);
    s->force_read_offset = s->force_read_length = false;
    s->sbe_read_offset = s->sbe_read_length = 0;
    memset(&s->vs, 0, sizeof s->vs);
    memset(&s->ds, 0, sizeof s->ds);
    memset(&s->gs, 0, sizeof s->gs);
    s->reading = false;
    s->draws_seen = 0;
    s->any_draw = false;
}

static enum unit_activity sf_tick(struct unit *u)
{
    struct sf *s = unit_state(u);
    take_urb_replies(s);
    if (s->gen4_threads_on)
        gen4_take_ends(s);              /* late ends too, with no primitive at the head */
    enum ff_stage_status st = ff_stage_tick(&s->ff, u);
    /* the watchdog looks every cycle while a setup thread runs (a timer
     * cannot be taken back, and would hold the run past its end) */
    if (st == FF_STAGE_WAITING && s->gen4_watching)
        return UNIT_BUSY;
    return ff_stage_activity(st);
}

static void sf_destroy(struct unit *u)
{
    struct sf *s = unit_state(u);
    ff_stage_clear(&s->ff, unit_sim(u));
    gen4_jobs_clear(s);
    if (s->gen4_threads_on)
        stage_threads_release(&s->threads);
}

uint32_t sf_observed_draws(struct unit *u, const struct sf_observed_draw **draws)
{
    *draws = NULL;
    if (!u || unit_ops_of(u) != &sf_ops)
        return 0;                   /* not a real sf (a placeholder of the kind) */
    struct sf *s = unit_state(u);
    *draws = s->observed;
    return s->draws_seen;
}

const struct unit_ops sf_ops = {
    .kind = "sf",
    .help = "Strips and fans (setup) and SBE (seed 003 L14361-15206): reads each vertex's "
            "header and attribute rows from the URB, decomposes primitives into points, lines, "
            "triangles and rectangles, sets them up (edges, depth, 1/w, barycentric and "
            "attribute planes) and sends them to WM; returns in-band syncs to the CS.",
    .state_size = sizeof(struct sf),
    .params = sf_params,
    .ports = sf_ports,
    .stats = sf_stats,
    .realize = sf_realize,
    .reset = sf_reset,
    .tick = sf_tick,
    .destroy = sf_destroy,
};
