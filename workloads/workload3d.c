/* workloads/workload3d.c - writes the Gen9 3D workloads of workload3d.h as
 * AUBs (the same submission as workload.c: GGTT pages for the ring and the
 * context image, a 4-level PPGTT over one window of VA_PAGES pages, the batch
 * started from the ring by MI_BATCH_BUFFER_START in PPGTT space). */
#include "workloads/workload3d.h"
#include "workloads/workload_aub.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/aub.h"
#include "isa/intel/eu_isa.h"
#include "spec_gen7_pack.h"
#include "spec_gen9_pack.h"

/* Physical layout as workload.c's; the PPGTT window is larger (the render
 * target alone is 4 MiB), one page table per 2 MiB. */
#define GGTT_PHYS 0x00100000ull
#define GGTT_PAGES 32u
#define PML4_PHYS WORKLOAD_PML4_PHYS
#define DATA_PHYS 0x00800000ull
#define VA_BASE 0x10000000ull

/* The window's contents, VA_BASE-relative. */
#define KERNEL_OFF 0x01000u         /* Instruction Base = VA_BASE; KSP 0x1000 (a KSP of 0
                                       means no kernel for that dispatch width to WM) */
#define DYN_OFF 0x10000u            /* Dynamic State Base */
#define BLEND_OFF 0x000u            /*   BLEND_STATE + entry 0 */
#define CC_OFF 0x040u               /*   COLOR_CALC_STATE */
#define CC_VIEWPORT_OFF 0x080u      /*   CC_VIEWPORT 0 */
#define SURF_OFF 0x20000u           /* Surface State Base: PS binding table at 0, RSS at 0x40 */
#define BATCH_OFF 0x30000u
#define VERTEX_OFF 0x40000u         /* the three RECTLIST vertices */
#define RT_OFF ((uint32_t)(UBENCH_FILL_RT_VA - VA_BASE))
#define RT_BYTES (UBENCH_FILL_PIXELS * 4u)
#define VA_PAGES ((RT_OFF + RT_BYTES + 4095u) / 4096u)
#define PAGE_TABLES ((VA_PAGES + 511u) / 512u)

#define BLENDFACTOR_SRC_ALPHA 0x03u
#define BLENDFACTOR_INV_SRC_ALPHA 0x13u

struct batch {
    uint32_t dw[4096];
    uint32_t n;
};

static void emit(struct batch *b, const uint32_t *dw, uint32_t n)
{
    memcpy(b->dw + b->n, dw, n * 4);
    b->n += n;
}

/* Packs one command into the batch; its pack function's failure (a value
 * out of its field) is an error. */
#define EMIT(b, NAME, ...)                                                                   \
    do {                                                                                     \
        struct GEN9_##NAME cmd_ = { GEN9_##NAME##_header, __VA_ARGS__ };                     \
        uint32_t dw_[GEN9_##NAME##_length];                                                  \
        if (GEN9_##NAME##_pack(dw_, &cmd_) < 0)                                              \
            return gt_error_set(err, #NAME " does not pack");                                \
        emit(b, dw_, GEN9_##NAME##_length);                                                  \
    } while (0)

/* The state the draw points at, written into the image at its offsets. */
/* The RECTLIST's vertices in pixels, blorp's order (skl_tri.aubinator.txt
 * L3744-3747: max/max, min/max, min/min; z 0), and the RT's background,
 * both generations' layout. */
static void write_vertices_and_background(uint8_t *image)
{
    const float w = (float)UBENCH_FILL_WIDTH, h = (float)UBENCH_FILL_HEIGHT;
    const float v[9] = { w, h, 0, 0, h, 0, 0, 0, 0 };
    memcpy(image + VERTEX_OFF, v, sizeof v);
    const uint8_t px[4] = { UBENCH_FILL_BACKGROUND_B, UBENCH_FILL_BACKGROUND_G,
                            UBENCH_FILL_BACKGROUND_R, UBENCH_FILL_BACKGROUND_A };
    for (uint32_t i = 0; i < UBENCH_FILL_PIXELS; i++)
        memcpy(image + RT_OFF + 4ull * i, px, 4);
}

static int write_state(uint8_t *image, bool blend, struct gt_error *err)
{
    /* BLEND_STATE (1 dword) and its entry 0 (skl_tri.aubinator.txt L3883-3919:
     * clamps on, COLORCLAMP_RTFORMAT); the blend variant's factors are
     * BLENDFACTOR_SRC_ALPHA (3) and BLENDFACTOR_INV_SRC_ALPHA (0x13; the
     * values of Mesa's genxml gen9.xml enum 3D_Color_Buffer_Blend_Factor),
     * the GL SRC_ALPHA / ONE_MINUS_SRC_ALPHA of skl_fill_heavy's first draw */
    struct GEN9_BLEND_STATE bs = { .AlphaTestFunction = 0 };
    struct GEN9_BLEND_STATE_ENTRY be = { .PostBlendColorClampEnable = true,
                                         .PreBlendColorClampEnable = true,
                                         .ColorClampRange = 2 };
    if (blend) {
        be.ColorBufferBlendEnable = true;
        be.SourceBlendFactor = be.SourceAlphaBlendFactor = BLENDFACTOR_SRC_ALPHA;
        be.DestinationBlendFactor = be.DestinationAlphaBlendFactor = BLENDFACTOR_INV_SRC_ALPHA;
    }
    uint32_t dw[16] = { 0 };
    if (GEN9_BLEND_STATE_pack(dw, &bs) < 0 || GEN9_BLEND_STATE_ENTRY_pack(dw + 1, &be) < 0)
        return gt_error_set(err, "BLEND_STATE does not pack");
    memcpy(image + DYN_OFF + BLEND_OFF, dw, 12);
    /* COLOR_CALC_STATE all zero (L3933-3953); CC_VIEWPORT depth 0..1 (L4568) */
    memset(dw, 0, sizeof dw);
    memcpy(image + DYN_OFF + CC_OFF, dw, 4 * GEN9_COLOR_CALC_STATE_length);
    struct GEN9_CC_VIEWPORT vp = { .MinimumDepth = 0.0f, .MaximumDepth = 1.0f };
    GEN9_CC_VIEWPORT_pack(dw, &vp);
    memcpy(image + DYN_OFF + CC_VIEWPORT_OFF, dw, 8);
    /* the render target: 2D, B8G8R8A8_UNORM (0x0c0), Y-major tiled, no aux
     * surface, channel selects as the capture's (L4613-4698) */
    struct GEN9_RENDER_SURFACE_STATE ss = {
        .SurfaceType = 1, .SurfaceFormat = 0x0c0, .TileMode = 3,
        .SurfaceHorizontalAlignment = 1, .SurfaceVerticalAlignment = 1, .MOCS = 4,
        .Width = UBENCH_FILL_WIDTH - 1, .Height = UBENCH_FILL_HEIGHT - 1,
        .SurfacePitch = 4 * UBENCH_FILL_WIDTH - 1, .MipTailStartLOD = 15,
        .ShaderChannelSelectRed = 4, .ShaderChannelSelectGreen = 5,
        .ShaderChannelSelectBlue = 6, .ShaderChannelSelectAlpha = 7,
        .SurfaceBaseAddress = UBENCH_FILL_RT_VA,
        .RenderCacheReadWriteMode = blend ? 1 : 0,
    };
    uint32_t rss[GEN9_RENDER_SURFACE_STATE_length];
    if (GEN9_RENDER_SURFACE_STATE_pack(rss, &ss) < 0)
        return gt_error_set(err, "RENDER_SURFACE_STATE does not pack");
    memcpy(image + SURF_OFF + 0x40, rss, sizeof rss);
    uint32_t entry = 0x40;
    memcpy(image + SURF_OFF, &entry, 4);
    write_vertices_and_background(image);
    return 0;
}

static int build_batch(bool blend, struct batch *b, struct gt_error *err)
{
    uint32_t dw[32];
    /* preamble: skl_tri.aubinator.txt L82-500 */
    EMIT(b, PIPELINE_SELECT, .MaskBits = 3, .PipelineSelection = 0);
    const uint32_t l3[3] = { 0x11000001u, 0x7034, 0x60000060 };    /* L3CNTLREG (L88-96) */
    emit(b, l3, 3);
    EMIT(b, PIPE_CONTROL, .DepthCacheFlushEnable = true, .DCFlushEnable = true,
         .RenderTargetCacheFlushEnable = true, .CommandStreamerStallEnable = true);
    EMIT(b, STATE_BASE_ADDRESS, .GeneralStateMOCS = 4, .GeneralStateBaseAddressModifyEnable = true,
         .StatelessDataPortAccessMOCS = 4,
         .SurfaceStateBaseAddressModifyEnable = true, .SurfaceStateMOCS = 4,
         .SurfaceStateBaseAddress = VA_BASE + SURF_OFF,
         .DynamicStateBaseAddressModifyEnable = true, .DynamicStateMOCS = 4,
         .DynamicStateBaseAddress = VA_BASE + DYN_OFF,
         .IndirectObjectBaseAddressModifyEnable = true, .IndirectObjectMOCS = 4,
         .InstructionBaseAddressModifyEnable = true, .InstructionMOCS = 4,
         .InstructionBaseAddress = VA_BASE,
         .GeneralStateBufferSizeModifyEnable = true, .GeneralStateBufferSize = 0xfffff,
         .DynamicStateBufferSizeModifyEnable = true, .DynamicStateBufferSize = 0xfffff,
         .IndirectObjectBufferSizeModifyEnable = true, .IndirectObjectBufferSize = 0xfffff,
         .InstructionBufferSizeModifyEnable = true, .InstructionBufferSize = 0xfffff);
    EMIT(b, PIPE_CONTROL, .StateCacheInvalidationEnable = true,
         .ConstantCacheInvalidationEnable = true, .TextureCacheInvalidationEnable = true,
         .CommandStreamerStallEnable = true);
    EMIT(b, 3DSTATE_DRAWING_RECTANGLE, .ClippedDrawingRectangleXMax = UBENCH_FILL_WIDTH - 1,
         .ClippedDrawingRectangleYMax = UBENCH_FILL_HEIGHT - 1);
    EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_VS, .ConstantBufferSize = 6);
    EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_HS, .ConstantBufferSize = 6, .ConstantBufferOffset = 6);
    EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_DS, .ConstantBufferSize = 6, .ConstantBufferOffset = 12);
    EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_GS, .ConstantBufferSize = 6, .ConstantBufferOffset = 18);
    EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_PS, .ConstantBufferSize = 8, .ConstantBufferOffset = 24);
    EMIT(b, PIPE_CONTROL, .VFCacheInvalidationEnable = true, .CommandStreamerStallEnable = true);

    /* the draw's state: L3726-4755, one vertex buffer (the positions) and
     * two elements (the VUE header, zeros; the position), no attributes */
    struct GEN9_3DSTATE_VERTEX_BUFFERS vbs = { GEN9_3DSTATE_VERTEX_BUFFERS_header };
    vbs.DWordLength = 1 + 4 - 2;
    GEN9_3DSTATE_VERTEX_BUFFERS_pack(dw, &vbs);
    struct GEN9_VERTEX_BUFFER_STATE vb = { .BufferPitch = 12, .AddressModifyEnable = true,
                                           .MOCS = 4, .VertexBufferIndex = 0,
                                           .BufferStartingAddress = VA_BASE + VERTEX_OFF,
                                           .BufferSize = 36 };
    if (GEN9_VERTEX_BUFFER_STATE_pack(dw + 1, &vb) < 0)
        return gt_error_set(err, "VERTEX_BUFFER_STATE does not pack");
    emit(b, dw, 5);
    struct GEN9_3DSTATE_VERTEX_ELEMENTS ves = { GEN9_3DSTATE_VERTEX_ELEMENTS_header };
    ves.DWordLength = 1 + 2 * 2 - 2;
    GEN9_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
    /* element 0: R32G32B32A32_FLOAT (0), every component STORE_0 (2) */
    struct GEN9_VERTEX_ELEMENT_STATE header = { .SourceElementFormat = 0, .Valid = true,
        .Component0Control = 2, .Component1Control = 2, .Component2Control = 2,
        .Component3Control = 2 };
    /* element 1: R32G32B32_FLOAT (64), STORE_SRC x 3, STORE_1_FP (3) */
    struct GEN9_VERTEX_ELEMENT_STATE position = { .SourceElementFormat = 64, .Valid = true,
        .Component0Control = 1, .Component1Control = 1, .Component2Control = 1,
        .Component3Control = 3 };
    GEN9_VERTEX_ELEMENT_STATE_pack(dw + 1, &header);
    GEN9_VERTEX_ELEMENT_STATE_pack(dw + 3, &position);
    emit(b, dw, 5);
    EMIT(b, 3DSTATE_VF_STATISTICS, .StatisticsEnable = false);
    EMIT(b, 3DSTATE_VF_SGVS, .InstanceIDEnable = false);
    EMIT(b, 3DSTATE_VF_INSTANCING, .VertexElementIndex = 0);
    EMIT(b, 3DSTATE_VF_INSTANCING, .VertexElementIndex = 1);
    EMIT(b, 3DSTATE_VF_TOPOLOGY, .PrimitiveTopologyType = 15);   /* RECTLIST */
    EMIT(b, 3DSTATE_URB_VS, .VSNumberOfURBEntries = 1856, .VSURBEntryAllocationSize = 0,
         .VSURBStartingAddress = 4);
    EMIT(b, 3DSTATE_URB_HS, .HSURBStartingAddress = 4);
    EMIT(b, 3DSTATE_URB_DS, .DSURBStartingAddress = 4);
    EMIT(b, 3DSTATE_URB_GS, .GSURBStartingAddress = 4);
    EMIT(b, 3DSTATE_BLEND_STATE_POINTERS, .BlendStatePointerValid = true,
         .BlendStatePointer = BLEND_OFF);
    EMIT(b, 3DSTATE_PS_BLEND, .HasWriteableRT = true, .ColorBufferBlendEnable = blend,
         .SourceBlendFactor = blend ? BLENDFACTOR_SRC_ALPHA : 0,
         .DestinationBlendFactor = blend ? BLENDFACTOR_INV_SRC_ALPHA : 0,
         .SourceAlphaBlendFactor = blend ? BLENDFACTOR_SRC_ALPHA : 0,
         .DestinationAlphaBlendFactor = blend ? BLENDFACTOR_INV_SRC_ALPHA : 0);
    EMIT(b, 3DSTATE_CC_STATE_POINTERS, .ColorCalcStatePointerValid = true,
         .ColorCalcStatePointer = CC_OFF);
    EMIT(b, 3DSTATE_WM_DEPTH_STENCIL, .DepthBufferWriteEnable = false);
    EMIT(b, 3DSTATE_CONSTANT_VS, .MOCS = 4);
    EMIT(b, 3DSTATE_CONSTANT_HS, .MOCS = 4);
    EMIT(b, 3DSTATE_CONSTANT_DS, .MOCS = 4);
    EMIT(b, 3DSTATE_CONSTANT_GS, .MOCS = 4);
    EMIT(b, 3DSTATE_CONSTANT_PS, .MOCS = 4);
    EMIT(b, 3DSTATE_MULTISAMPLE, .NumberOfMultisamples = 0);
    EMIT(b, 3DSTATE_SAMPLE_MASK, .SampleMask = 1);
    EMIT(b, 3DSTATE_VS, .Enable = false);
    EMIT(b, 3DSTATE_HS, .Enable = false);
    EMIT(b, 3DSTATE_TE, .TEEnable = false);
    EMIT(b, 3DSTATE_DS, .Enable = false);
    EMIT(b, 3DSTATE_STREAMOUT, .SOFunctionEnable = false);
    EMIT(b, 3DSTATE_GS, .Enable = false);
    EMIT(b, 3DSTATE_CLIP, .PerspectiveDivideDisable = true, .ClipEnable = false);
    EMIT(b, 3DSTATE_SF, .ViewportTransformEnable = false);
    EMIT(b, 3DSTATE_RASTER, .CullMode = 1);                      /* CULLMODE_NONE */
    EMIT(b, 3DSTATE_SBE, .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 1,
         .NumberOfSFOutputAttributes = 0, .ForceVertexURBEntryReadOffset = true,
         .ForceVertexURBEntryReadLength = true);
    EMIT(b, 3DSTATE_WM, .ForceThreadDispatchEnable = 0);
    /* SIMD16 only; 64 threads per PSD as the capture's (L4502-4548) */
    EMIT(b, 3DSTATE_PS, .KernelStartPointer0 = KERNEL_OFF, .BindingTableEntryCount = 1,
         ._16PixelDispatchEnable = true, .MaximumNumberOfThreadsPerPSD = 63,
         .DispatchGRFStartRegisterForConstantSetupData0 = 2,
         .KernelStartPointer1 = KERNEL_OFF, .KernelStartPointer2 = KERNEL_OFF);
    EMIT(b, 3DSTATE_PS_EXTRA, .PixelShaderValid = true, .AttributeEnable = false);
    EMIT(b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC, .CCViewportPointer = CC_VIEWPORT_OFF);
    EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_VS, .PointerToVSBindingTable = 0);
    EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_HS, .PointerToHSBindingTable = 0);
    EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_DS, .PointerToDSBindingTable = 0);
    EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_GS, .PointerToGSBindingTable = 0);
    EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_PS, .PointerToPSBindingTable = 0);
    EMIT(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 7, .SurfaceFormat = 1, .MOCS = 4);  /* NULL */
    EMIT(b, 3DSTATE_STENCIL_BUFFER, .MOCS = 4);
    EMIT(b, 3DSTATE_HIER_DEPTH_BUFFER, .MOCS = 4);
    EMIT(b, 3DSTATE_CLEAR_PARAMS, .DepthClearValueValid = false);
    EMIT(b, 3DPRIMITIVE, .PrimitiveTopologyType = 15, .VertexAccessType = 0,
         .VertexCountPerInstance = 3, .InstanceCount = 1);
    /* the render target to memory (L4776-4871: RT and depth flush, CS stall) */
    EMIT(b, PIPE_CONTROL, .RenderTargetCacheFlushEnable = true, .DepthCacheFlushEnable = true,
         .CommandStreamerStallEnable = true);
    const uint32_t end = 0x05000000u;       /* MI_BATCH_BUFFER_END */
    emit(b, &end, 1);
    if (b->n & 1)
        emit(b, (const uint32_t[]){ 0 }, 1);
    return 0;
}


/* ---- Gen7 (ValleyView, configs/gen7-vlv.cfg): the same draw in Gen7's
 * state forms, submitted as Gen7 captures are (legacy AUB: 4-byte GTT
 * entries, data written at GTT addresses, MI_BATCH_BUFFER_START in the render
 * ring; ../shared/notes/aub-format.md §2.5, §3.3). The command sequence and
 * values follow crocus's blorp draw in the real byt_tri capture
 * (../shared/traces/intel/byt/byt_tri.aubinator.txt L74-1590). The window's
 * contents sit at GTT GTT7_BASE + the offsets above. */
#define GTT7_BASE WORKLOAD_GTT7_BASE

#define EMIT7(b, NAME, ...)                                                                  \
    do {                                                                                     \
        struct GEN7_##NAME cmd_ = { GEN7_##NAME##_header, __VA_ARGS__ };                     \
        uint32_t dw_[GEN7_##NAME##_length];                                                  \
        if (GEN7_##NAME##_pack(dw_, &cmd_) < 0)                                              \
            return gt_error_set(err, #NAME " (Gen7) does not pack");                         \
        emit(b, dw_, GEN7_##NAME##_length);                                                  \
    } while (0)

/* Render target `index` of the PS's binding table (at surface state 0;
 * entry i points at SURFACE_STATE 0x40 + 0x40 i): 2D, `format`, Y-major
 * tiled, HALIGN_4/VALIGN_4 (the capture's RT, L1462-1523, without its MCS),
 * width x height pixels of `bytes` bytes at GTT `address`. */
static int write_surface7(uint8_t *image, uint32_t index, uint32_t format, uint32_t bytes,
                          uint32_t width, uint32_t height, uint32_t address, bool blend,
                          uint32_t samples, struct gt_error *err)
{
    /* 4x: MULTISAMPLECOUNT_4 (2), MSFMT_MSS (each sample a slice of
     * QPitch = the LOD 0 height, ARYSPC_LOD0) without an MCS */
    struct GEN7_RENDER_SURFACE_STATE ss = {
        .NumberOfMultisamples = samples == 4 ? 2u : 0u,
        .SurfaceType = 1, .SurfaceFormat = format, .TiledSurface = true, .TileWalk = 1,
        .SurfaceHorizontalAlignment = 0, .SurfaceVerticalAlignment = 1, .MOCS = 1,
        .SurfaceArraySpacing = 1,
        .Width = width - 1, .Height = height - 1, .SurfacePitch = bytes * width - 1,
        .SurfaceBaseAddress = address,
        .RenderCacheReadWriteMode = blend ? 1 : 0,
    };
    uint32_t rss[GEN7_RENDER_SURFACE_STATE_length];
    if (GEN7_RENDER_SURFACE_STATE_pack(rss, &ss) < 0)
        return gt_error_set(err, "RENDER_SURFACE_STATE (Gen7) does not pack");
    uint32_t entry = 0x40u + 0x40u * index;
    memcpy(image + SURF_OFF + entry, rss, sizeof rss);
    memcpy(image + SURF_OFF + 4u * index, &entry, 4);
    return 0;
}

/* The Gen7 draws' state: BLEND_STATE, CC_VIEWPORT, the render target's
 * SURFACE_STATE (width x height B8G8R8A8) and its binding table. */
static int write_state7(uint8_t *image, bool blend, uint32_t width, uint32_t height,
                        struct gt_error *err)
{
    /* Gen7 BLEND_STATE is the entries alone (L687-721) */
    struct GEN7_BLEND_STATE_ENTRY be = { .PostBlendColorClampEnable = true,
                                         .PreBlendColorClampEnable = true,
                                         .ColorClampRange = 2 };
    if (blend) {
        be.ColorBufferBlendEnable = true;
        be.SourceBlendFactor = be.SourceAlphaBlendFactor = BLENDFACTOR_SRC_ALPHA;
        be.DestinationBlendFactor = be.DestinationAlphaBlendFactor = BLENDFACTOR_INV_SRC_ALPHA;
    }
    uint32_t dw[16] = { 0 };
    if (GEN7_BLEND_STATE_ENTRY_pack(dw, &be) < 0)
        return gt_error_set(err, "BLEND_STATE (Gen7) does not pack");
    memcpy(image + DYN_OFF + BLEND_OFF, dw, 8);
    /* COLOR_CALC_STATE (CC_OFF) and DEPTH_STENCIL_STATE (DS7_OFF) stay zero
     * (L722-772: everything off); CC_VIEWPORT depth 0..1 */
    struct GEN7_CC_VIEWPORT vp = { .MinimumDepth = 0.0f, .MaximumDepth = 1.0f };
    GEN7_CC_VIEWPORT_pack(dw, &vp);
    memcpy(image + DYN_OFF + CC_VIEWPORT_OFF, dw, 8);
    /* the render target: B8G8R8A8_UNORM (0x0c0) */
    return write_surface7(image, 0, 0x0c0, 4, width, height, GTT7_BASE + RT_OFF, blend, 1, err);
}

#define DS7_OFF 0x0c0u              /* Gen7 DEPTH_STENCIL_STATE (Dynamic State Base-relative) */

/* What differs between the Gen7 draws: the fill (VS/GS off, a RECTLIST in
 * pixels, a constant-colour PS), gs-twice (a pass-through VS, a DUAL_OBJECT
 * GS, a TRILIST with a colour attribute interpolated by the PS; gs-quads
 * the same on a POINTLIST with TRISTRIP out, in the GL scene's form),
 * xfb-tri (the VS and stream output, rendering off, the query snapshots),
 * tess-tri (the VS, HS, TE and DS on a PATCHLIST_3, the same PS) and
 * tess-quad (the same on a PATCHLIST_4, QUAD domain, in the GL scene's
 * form). A kernel offset of 0 leaves that stage disabled. */
struct draw7 {
    uint32_t width, height;                 /* the render target and drawing rectangle */
    uint32_t vertex_pitch, vertices;        /* the one vertex buffer */
    bool colour;                            /* a colour element after the position */
    uint32_t vs_kernel, hs_kernel, ds_kernel, gs_kernel, ps_kernel;
    uint32_t topology, gs_output;           /* 3DPRIMITIVE's and the GS's output topology */
    bool stream_output;                     /* xfb-tri: SO on, rendering off */
    /* tess-quad, gs-quads: the GL scene's form - clip-space positions of
     * position_format (z 0, w 1 where absent) through the clipper and SF's
     * viewport transform (SF_CLIP_VIEWPORT at EXT7_SF_CLIP_OFF), the scissor
     * the window, an R8G8B8A8 target; with colour, an R32G32B32A32 element
     * at colour_offset */
    bool gl_viewport;
    uint32_t position_format, colour_offset;
    /* gs-quads: the GS's one pushed register (the program's uniform) at
     * this Dynamic State offset, the URB data after it; 0 = none */
    uint32_t gs_constant;
};
#define GEN7_OWN_GS_CONSTANT_OFF 0x2000u    /* gs-quads' push constant (Dynamic State Base-relative) */

static int pack_vector7(uint32_t *dw, uint32_t format, uint32_t offset, struct gt_error *err);
static int emit7_gl_clip_sf(struct batch *b, bool point_width_from_vertex, bool depth16,
                            bool multisampled, struct gt_error *err);
static int write_gl_viewport7(uint8_t *image, uint32_t width, uint32_t height,
                              struct gt_error *err);
#define EXT7_SF_CLIP_OFF 0x100u         /* SF_CLIP_VIEWPORT 0 (Dynamic State Base-relative) */
#define EXT7_DRAW_STATE_OFF 0x1000u     /* draw i's state at + 0x100 i: */
#define EXT7_SCISSOR 0xc0u              /*   SCISSOR_RECT */

/* The start of every Gen7 batch, as crocus's in byt_tri: pipeline select,
 * flush, push constant allocation, drawing rectangle (width x height),
 * STATE_BASE_ADDRESS over the window, cache invalidation. */
static int emit7_preamble(struct batch *b, uint32_t width, uint32_t height, struct gt_error *err)
{
    EMIT7(b, PIPELINE_SELECT, .PipelineSelection = 0);                         /* L74 */
    EMIT7(b, PIPE_CONTROL, .DepthCacheFlushEnable = true, .DCFlushEnable = true,
          .RenderTargetCacheFlushEnable = true, .CommandStreamerStallEnable = true);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_VS, .ConstantBufferSize = 3);        /* L304-333 */
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_HS, .ConstantBufferSize = 3, .ConstantBufferOffset = 3);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_DS, .ConstantBufferSize = 3, .ConstantBufferOffset = 6);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_GS, .ConstantBufferSize = 3, .ConstantBufferOffset = 9);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_PS, .ConstantBufferSize = 4, .ConstantBufferOffset = 12);
    EMIT7(b, 3DSTATE_DRAWING_RECTANGLE, .ClippedDrawingRectangleXMax = width - 1,
          .ClippedDrawingRectangleYMax = height - 1);                       /* L424 */
    EMIT7(b, STATE_BASE_ADDRESS, .GeneralStateBaseAddressModifyEnable = true,  /* L466 */
          .StatelessDataPortAccessMOCS = 1, .GeneralStateMOCS = 1,
          .SurfaceStateBaseAddressModifyEnable = true, .SurfaceStateMOCS = 1,
          .SurfaceStateBaseAddress = GTT7_BASE + SURF_OFF,
          .DynamicStateBaseAddressModifyEnable = true, .DynamicStateMOCS = 1,
          .DynamicStateBaseAddress = GTT7_BASE + DYN_OFF,
          .IndirectObjectBaseAddressModifyEnable = true, .IndirectObjectMOCS = 1,
          .InstructionBaseAddressModifyEnable = true, .InstructionMOCS = 1,
          .InstructionBaseAddress = GTT7_BASE,
          .GeneralStateAccessUpperBoundModifyEnable = true,
          .DynamicStateAccessUpperBoundModifyEnable = true,
          .DynamicStateAccessUpperBound = 0xfffff000,
          .IndirectObjectAccessUpperBoundModifyEnable = true,
          .InstructionAccessUpperBoundModifyEnable = true);
    EMIT7(b, PIPE_CONTROL, .StateCacheInvalidationEnable = true,
          .ConstantCacheInvalidationEnable = true, .TextureCacheInvalidationEnable = true,
          .InstructionCacheInvalidateEnable = true, .CommandStreamerStallEnable = true);
    return 0;
}

/* The D3D / GL standard 4x pattern crocus programs (Mesa's
 * INTEL_SAMPLE_POS_4X; seed 000 leaves the positions to software), in
 * pixels from the upper-left corner. */
static const float sample_positions_4x[4][2] = {
    { 0.375f, 0.125f }, { 0.875f, 0.375f }, { 0.125f, 0.625f }, { 0.625f, 0.875f },
};

/* No push constants for any stage; one sample (L1944-2097), or four at the
 * 4x pattern with every sample enabled. */
static int emit7_no_constants(struct batch *b, uint32_t samples, struct gt_error *err)
{
    EMIT7(b, 3DSTATE_CONSTANT_VS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_HS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_DS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_GS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_PS, .ConstantBody = { .ReadLength = { 0 } });
    if (samples == 4) {
        const float (*p)[2] = sample_positions_4x;
        EMIT7(b, 3DSTATE_MULTISAMPLE, .NumberOfMultisamples = 2,
              .Sample0XOffset = p[0][0], .Sample0YOffset = p[0][1],
              .Sample1XOffset = p[1][0], .Sample1YOffset = p[1][1],
              .Sample2XOffset = p[2][0], .Sample2YOffset = p[2][1],
              .Sample3XOffset = p[3][0], .Sample3YOffset = p[3][1]);
        EMIT7(b, 3DSTATE_SAMPLE_MASK, .SampleMask = 0xf);
        return 0;
    }
    EMIT7(b, 3DSTATE_MULTISAMPLE, .NumberOfMultisamples = 0, .Sample0XOffset = 0.5,
          .Sample0YOffset = 0.5);
    EMIT7(b, 3DSTATE_SAMPLE_MASK, .SampleMask = 1);
    return 0;
}

/* The CC viewport and the stages' binding tables (all at surface state 0:
 * the PS's table; L2592-2637). */
static int emit7_binding_tables(struct batch *b, struct gt_error *err)
{
    EMIT7(b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC, .CCViewportPointer = CC_VIEWPORT_OFF);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_VS, .PointerToVSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_HS, .PointerToHSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_DS, .PointerToDSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_GS, .PointerToGSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_PS, .PointerToPSBindingTable = 0);
    return 0;
}

/* The end of every Gen7 batch: the render target and depth caches flushed
 * with a CS stall, MI_BATCH_BUFFER_END, padded to an even length. */
static int emit7_end(struct batch *b, struct gt_error *err)
{
    EMIT7(b, PIPE_CONTROL, .RenderTargetCacheFlushEnable = true, .DepthCacheFlushEnable = true,
          .CommandStreamerStallEnable = true);
    const uint32_t end = 0x05000000u;
    emit(b, &end, 1);
    if (b->n & 1)
        emit(b, (const uint32_t[]){ 0 }, 1);
    return 0;
}

/* One snapshot of the TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query as
 * crocus takes it (public: crocus_query.c, a CS stall then
 * store_register_mem64): SO_NUM_PRIMS_WRITTEN0 (0x5200, 64 bits) stored to
 * GTT `address` by two MI_STORE_REGISTER_MEMs, low dword first. */
static int emit7_query_snapshot(struct batch *b, uint32_t address, struct gt_error *err)
{
    EMIT7(b, PIPE_CONTROL, .CommandStreamerStallEnable = true, .StallAtPixelScoreboard = true);
    for (uint32_t half = 0; half < 2; half++)
        EMIT7(b, MI_STORE_REGISTER_MEM, .RegisterAddress = 0x5200u + 4u * half,
              .MemoryAddress = address + 4u * half);
    return 0;
}

static int build_batch7(const struct draw7 *d, struct batch *b, struct gt_error *err)
{
    uint32_t dw[32];
    if (emit7_preamble(b, d->width, d->height, err) < 0)
        return -1;
    struct GEN7_3DSTATE_VERTEX_BUFFERS vbs = { GEN7_3DSTATE_VERTEX_BUFFERS_header };
    vbs.DWordLength = 1 + 4 - 2;
    GEN7_3DSTATE_VERTEX_BUFFERS_pack(dw, &vbs);
    uint32_t bytes = d->vertex_pitch * d->vertices;
    struct GEN7_VERTEX_BUFFER_STATE vb = { .BufferPitch = d->vertex_pitch,
                                           .AddressModifyEnable = true,
                                           .MOCS = 1, .VertexBufferIndex = 0,
                                           .BufferStartingAddress = GTT7_BASE + VERTEX_OFF,
                                           .EndAddress = GTT7_BASE + VERTEX_OFF + bytes - 1 };
    if (GEN7_VERTEX_BUFFER_STATE_pack(dw + 1, &vb) < 0)
        return gt_error_set(err, "VERTEX_BUFFER_STATE (Gen7) does not pack");
    emit(b, dw, 5);
    struct GEN7_3DSTATE_VERTEX_ELEMENTS ves = { GEN7_3DSTATE_VERTEX_ELEMENTS_header };
    ves.DWordLength = 1 + 2 * 2 - 2;
    GEN7_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
    /* the fill: the VUE header (zeros) and the position (VS off: VF writes
     * the VUE); gs-twice: the position (R32G32B32_FLOAT, w = 1) and the
     * colour (R32G32B32A32_FLOAT (0) at byte 12), the VS's inputs */
    struct GEN7_VERTEX_ELEMENT_STATE header = { .SourceElementFormat = 0, .Valid = true,
        .Component0Control = 2, .Component1Control = 2, .Component2Control = 2,
        .Component3Control = 2 };
    struct GEN7_VERTEX_ELEMENT_STATE position = { .SourceElementFormat = 64, .Valid = true,
        .Component0Control = 1, .Component1Control = 1, .Component2Control = 1,
        .Component3Control = 3 };
    struct GEN7_VERTEX_ELEMENT_STATE colour = { .SourceElementFormat = 0, .Valid = true,
        .SourceElementOffset = 12, .Component0Control = 1, .Component1Control = 1,
        .Component2Control = 1, .Component3Control = 1 };
    if (d->stream_output) {
        /* xfb-tri: a_pos (R32G32B32A32_FLOAT), then gl_VertexID as crocus
         * gives it on Gen7: an element storing 0, 0, VertexID, InstanceID
         * (VFCOMP_STORE_0 2, STORE_VID 5, STORE_IID 6) */
        ves.DWordLength = 1 + 2 * 2 - 2;
        GEN7_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
        if (pack_vector7(dw + 1, 0, 0, err) < 0)
            return -1;
        struct GEN7_VERTEX_ELEMENT_STATE ids = { .SourceElementFormat = 0, .Valid = true,
            .Component0Control = 2, .Component1Control = 2, .Component2Control = 5,
            .Component3Control = 6 };
        GEN7_VERTEX_ELEMENT_STATE_pack(dw + 3, &ids);
        emit(b, dw, 5);
    } else if (d->gl_viewport) {
        /* the GL scene's attributes: a_pos, then a_attr when it has one */
        uint32_t elements = d->colour ? 2u : 1u;
        ves.DWordLength = 1 + 2 * elements - 2;
        GEN7_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
        if (pack_vector7(dw + 1, d->position_format, 0, err) < 0 ||
            (d->colour && pack_vector7(dw + 3, 0 /* R32G32B32A32_FLOAT */, d->colour_offset,
                                       err) < 0))
            return -1;
        emit(b, dw, 1 + 2 * elements);
    } else {
        GEN7_VERTEX_ELEMENT_STATE_pack(dw + 1, d->colour ? &position : &header);
        GEN7_VERTEX_ELEMENT_STATE_pack(dw + 3, d->colour ? &colour : &position);
        emit(b, dw, 5);
    }
    EMIT7(b, 3DSTATE_VF_STATISTICS, .StatisticsEnable = false);
    EMIT7(b, PIPE_CONTROL, .DepthStallEnable = true);                          /* L629 */
    if (d->gl_viewport) {
        EMIT7(b, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, .SFClipViewportPointer = EXT7_SF_CLIP_OFF);
        EMIT7(b, 3DSTATE_SCISSOR_STATE_POINTERS,
              .ScissorRectPointer = EXT7_DRAW_STATE_OFF + EXT7_SCISSOR);
    }
    if (d->hs_kernel) {
        /* VS: 64 entries of 64 bytes from 16 KB; HS: 32 patch entries of 128
         * bytes (the Patch Header row and two rows of control points) from
         * 24 KB; DS: 64 entries of 64 bytes from 32 KB; GS none */
        EMIT7(b, 3DSTATE_URB_VS, .VSNumberOfURBEntries = 64, .VSURBStartingAddress = 2);
        EMIT7(b, 3DSTATE_URB_HS, .HSNumberOfURBEntries = 32, .HSURBEntryAllocationSize = 1,
              .HSURBStartingAddress = 3);
        EMIT7(b, 3DSTATE_URB_DS, .DSNumberOfURBEntries = 64, .DSURBStartingAddress = 4);
        EMIT7(b, 3DSTATE_URB_GS, .GSURBStartingAddress = 5);
    } else if (d->gs_kernel) {
        /* VS: 64 entries of 64 bytes from 16 KB (after the push constants);
         * GS: 32 entries of 384 bytes (6 output vertices of 64) from 32 KB;
         * HS and DS none (start addresses in 8 KB units, sizes in 64 bytes
         * - 1; genxml gen7.xml) */
        EMIT7(b, 3DSTATE_URB_VS, .VSNumberOfURBEntries = 64, .VSURBStartingAddress = 2);
        EMIT7(b, 3DSTATE_URB_HS, .HSURBStartingAddress = 6);
        EMIT7(b, 3DSTATE_URB_DS, .DSURBStartingAddress = 6);
        EMIT7(b, 3DSTATE_URB_GS, .GSNumberOfURBEntries = 32, .GSURBEntryAllocationSize = 5,
              .GSURBStartingAddress = 4);
    } else {
        EMIT7(b, 3DSTATE_URB_VS, .VSNumberOfURBEntries = 512, .VSURBStartingAddress = 2);
        EMIT7(b, 3DSTATE_URB_HS, .HSURBStartingAddress = 2);
        EMIT7(b, 3DSTATE_URB_DS, .DSURBStartingAddress = 2);
        EMIT7(b, 3DSTATE_URB_GS, .GSURBStartingAddress = 2);
    }
    /* the three state pointers carry bit 0 set, as crocus writes them (L687-749) */
    EMIT7(b, 3DSTATE_BLEND_STATE_POINTERS, .BlendStatePointer = BLEND_OFF);
    b->dw[b->n - 1] |= 1;
    EMIT7(b, 3DSTATE_CC_STATE_POINTERS, .ColorCalcStatePointer = CC_OFF);
    b->dw[b->n - 1] |= 1;
    EMIT7(b, 3DSTATE_DEPTH_STENCIL_STATE_POINTERS, .PointerToDEPTHSTENCILSTATE = DS7_OFF);
    b->dw[b->n - 1] |= 1;
    if (emit7_no_constants(b, 1, err) < 0)
        return -1;
    if (d->gs_constant)
        /* one 256-bit register from Dynamic State (seed 000: Buffer 0 is
         * a Dynamic State offset unless INSTPM says otherwise) */
        EMIT7(b, 3DSTATE_CONSTANT_GS,
              .ConstantBody = { .ReadLength = { 1 }, .Buffer = { d->gs_constant } });
    /* gs-twice's VS as byt_tri's app draw programs it (L3307-3331): read
     * offset 0, length 1 (both elements), URB data from g1, 36 threads */
    if (d->vs_kernel)
        EMIT7(b, 3DSTATE_VS, .KernelStartPointer = d->vs_kernel,
              .DispatchGRFStartRegisterForURBData = 1, .VertexURBEntryReadLength = 1,
              .Enable = true, .StatisticsEnable = true, .MaximumNumberOfThreads = 35);
    else
        EMIT7(b, 3DSTATE_VS, .Enable = false);
    /* tess-tri's HS (SINGLE_PATCH, one instance, the control points' handles
     * in R1, nothing pushed), TE (TRI domain (1), INTEGER partitioning,
     * TRI_CW output (2), the maximum factors crocus programs, 63 and 64) and
     * DS (SIMD4x2 with W computed, patch rows 1-2 pushed from g2) */
    if (d->hs_kernel) {
        EMIT7(b, 3DSTATE_HS, .MaximumNumberOfThreads = 15, .InstanceCount = 0,
              .StatisticsEnable = true, .Enable = true, .KernelStartPointer = d->hs_kernel,
              .DispatchGRFStartRegisterForURBData = 2, .IncludeVertexHandles = true);
        /* tess-quad: QUAD domain (0), 4 control points in R1 */
        EMIT7(b, 3DSTATE_TE, .TEEnable = true, .TEDomain = d->gl_viewport ? 0u : 1u,
              .OutputTopology = 2,
              .Partitioning = 0, .MaximumTessellationFactorOdd = 63.0f,
              .MaximumTessellationFactorNotOdd = 64.0f);
        EMIT7(b, 3DSTATE_DS, .KernelStartPointer = d->ds_kernel,
              .PatchURBEntryReadOffset = 1, .PatchURBEntryReadLength = 2,
              .DispatchGRFStartRegisterForURBData = 2, .Enable = true,
              .ComputeWCoordinateEnable = !d->gl_viewport, .StatisticsEnable = true,
              .MaximumNumberOfThreads = 31);
    } else {
        EMIT7(b, 3DSTATE_HS, .Enable = false);
        EMIT7(b, 3DSTATE_TE, .TEEnable = false);
        EMIT7(b, 3DSTATE_DS, .Enable = false);
    }
    if (d->stream_output) {
        /* xfb-tri as crocus sets up transform feedback (public: crocus_state.c):
         * the buffer (pitch, base, end = base + size), the declarations
         * (stream 0 to buffer 0: VUE slot 2, o_a, xyzw; slot 3, o_b, x;
         * slots counted from the read offset, 0 = the VUE header),
         * SO_WRITE_OFFSET0 (0x5280) = 0 by MI_LOAD_REGISTER_IMM, then
         * 3DSTATE_STREAMOUT reading rows 0-1 of each vertex (length 1 = two
         * 256-bit rows, U5-1) with rendering disabled */
        EMIT7(b, 3DSTATE_SO_BUFFER, .SOBufferIndex = 0, .SurfacePitch = GEN7_XFB_PITCH,
              .MOCS = 1, .SurfaceBaseAddress = GEN7_XFB_BUFFER_GTT,
              .SurfaceEndAddress = GEN7_XFB_BUFFER_GTT + 4u * GEN7_XFB_BUFFER_FLOATS);
        struct GEN7_3DSTATE_SO_DECL_LIST list = { GEN7_3DSTATE_SO_DECL_LIST_header,
                                                  .StreamToBufferSelects0 = 1,
                                                  .NumEntries0 = 2 };
        list.DWordLength = 3 + 2 * 2 - 2;
        GEN7_3DSTATE_SO_DECL_LIST_pack(dw, &list);
        struct GEN7_SO_DECL o_a = { .ComponentMask = 0xf, .RegisterIndex = 2 };
        struct GEN7_SO_DECL o_b = { .ComponentMask = 0x1, .RegisterIndex = 3 };
        uint32_t decl[2];
        if (GEN7_SO_DECL_pack(decl, &o_a) < 0 || GEN7_SO_DECL_pack(decl + 1, &o_b) < 0)
            return gt_error_set(err, "SO_DECL (Gen7) does not pack");
        /* each SO_DECL_ENTRY is two dwords: streams 0-1 in the first */
        dw[3] = decl[0];
        dw[4] = 0;
        dw[5] = decl[1];
        dw[6] = 0;
        emit(b, dw, 7);
        const uint32_t lri[3] = { 0x11000001u, 0x5280u, 0 };
        emit(b, lri, 3);
        EMIT7(b, 3DSTATE_STREAMOUT, .SOFunctionEnable = true, .RenderingDisable = true,
              .SOBufferEnable0 = true, .SOStatisticsEnable = true,
              .Stream0VertexReadOffset = 0, .Stream0VertexReadLength = 1);
    } else {
        EMIT7(b, 3DSTATE_STREAMOUT, .SOFunctionEnable = false);
    }
    /* gs-twice's GS: DUAL_OBJECT (2), both rows of each input vertex pushed
     * from g1, TRILIST (4) out (gs-quads: TRISTRIP, 5), 64-byte output
     * vertices (Output Vertex Size 3: 4 x 16 bytes), no control data header
     * (the counts travel in the EOT write's header on Gen7) */
    if (d->gs_kernel)
        EMIT7(b, 3DSTATE_GS, .KernelStartPointer = d->gs_kernel,
              .DispatchGRFStartRegisterForURBData = d->gs_constant ? 2 : 1,
              .VertexURBEntryReadOffset = 0,
              .VertexURBEntryReadLength = 2, .OutputTopology = d->gs_output,
              .OutputVertexSize = 3,
              .Enable = true, .StatisticsEnable = 1, .DispatchMode = 2,
              .MaximumNumberOfThreads = 31);
    else
        EMIT7(b, 3DSTATE_GS, .Enable = false);
    if (d->gl_viewport) {
        if (emit7_gl_clip_sf(b, false, false, false, err) < 0)
            return -1;
    } else {
        EMIT7(b, 3DSTATE_CLIP, .PerspectiveDivideDisable = true, .ClipEnable = false,
              .CullMode = 1);                                                   /* CULLMODE_NONE */
        EMIT7(b, 3DSTATE_SF, .ViewportTransformEnable = false, .CullMode = 1);
    }
    /* gs-twice: one attribute, the colour (VUE row 1's first vec4) */
    EMIT7(b, 3DSTATE_SBE, .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 1,
          .NumberOfSFOutputAttributes = d->colour || d->gl_viewport ? 1 : 0);
    /* gs-twice's PS interpolates: perspective pixel barycentrics (1) */
    bool interpolates = d->colour || d->gl_viewport;
    EMIT7(b, 3DSTATE_WM, .ThreadDispatchEnable = true,
          .BarycentricInterpolationMode = interpolates ? 1 : 0);
    /* SIMD16 only; 48 threads, as crocus programs ValleyView (L1372-1416);
     * with barycentrics the setup data follows them (g6, as byt_tri's SIMD16
     * shader, L3201-3255) */
    EMIT7(b, 3DSTATE_PS, .KernelStartPointer0 = d->ps_kernel, .BindingTableEntryCount = 1,
          ._16PixelDispatchEnable = true, .MaximumNumberOfThreads = 47,
          .AttributeEnable = interpolates,
          .DispatchGRFStartRegisterForConstantSetupData0 = interpolates ? 6 : 2,
          .KernelStartPointer1 = d->ps_kernel, .KernelStartPointer2 = d->ps_kernel);
    if (emit7_binding_tables(b, err) < 0)
        return -1;
    EMIT7(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 7, .SurfaceFormat = 1, .MOCS = 1);
    EMIT7(b, 3DSTATE_STENCIL_BUFFER, .MOCS = 1);
    EMIT7(b, 3DSTATE_HIER_DEPTH_BUFFER, .MOCS = 1);
    EMIT7(b, 3DSTATE_CLEAR_PARAMS, .DepthClearValueValid = false);
    if (d->stream_output && emit7_query_snapshot(b, GEN7_XFB_QUERY_GTT + 8, err) < 0)
        return -1;
    EMIT7(b, 3DPRIMITIVE, .PrimitiveTopologyType = d->topology, .VertexAccessType = 0,
          .VertexCountPerInstance = d->vertices, .InstanceCount = 1);
    if (d->stream_output) {
        if (emit7_query_snapshot(b, GEN7_XFB_QUERY_GTT + 16, err) < 0)
            return -1;
        /* the query's snapshots_landed qword = 1 (crocus's mark_available),
         * an MI_STORE_DATA_IMM of DWord Length 3: a qword */
        struct GEN7_MI_STORE_DATA_IMM sdi = { GEN7_MI_STORE_DATA_IMM_header,
                                              .Address = GEN7_XFB_QUERY_GTT, .ImmediateData = 1 };
        sdi.DWordLength = 3;
        if (GEN7_MI_STORE_DATA_IMM_pack(dw, &sdi) < 0)
            return gt_error_set(err, "MI_STORE_DATA_IMM (Gen7) does not pack");
        emit(b, dw, GEN7_MI_STORE_DATA_IMM_length);
    }
    return emit7_end(b, err);
}

/* The Gen7 ext counterparts' vertex buffer (x, y, z, r, g, b, a floats) and
 * the render target's background, B8G8R8A8 (GEN7_GS_BACKGROUND_*). */
static void write_gs_vertices_and_background(uint8_t *image, const float (*v)[7], uint32_t n)
{
    memcpy(image + VERTEX_OFF, v, n * sizeof *v);
    const uint8_t px[4] = { GEN7_GS_BACKGROUND_B, GEN7_GS_BACKGROUND_G, GEN7_GS_BACKGROUND_R,
                            GEN7_GS_BACKGROUND_A };
    for (uint32_t i = 0; i < GEN7_GS_WIDTH * GEN7_GS_HEIGHT; i++)
        memcpy(image + RT_OFF + 4ull * i, px, 4);
}

int workload_place_kernels(uint8_t *image, uint32_t from_off, uint32_t limit,
                           const uint8_t *code, size_t len, uint32_t *at, uint32_t max)
{
    uint32_t n = 0, to = from_off;
    size_t from = 0;
    for (size_t i = 0; i + 16 <= len && n < max; i += 16) {
        uint32_t opcode = code[i] & 0x7fu;
        bool eot = (code[i + 15] & 0x80u) != 0;
        if ((opcode != 0x31 && opcode != 0x32) || !eot)
            continue;
        size_t bytes = i + 16 - from;
        if (to + bytes > limit)
            return -1;
        memcpy(image + to, code + from, bytes);
        at[n++] = to;
        to = (uint32_t)((to + bytes + 63u) & ~(size_t)63u);
        from = i + 16;
    }
    return (int)n;
}

static int write_gen7_image(const char *name, uint8_t *image, const struct batch *b,
                            const char *out_aub, struct gt_error *err);

static int write_gen7(const char *name, bool blend, uint8_t *image, struct batch *b,
                      const struct draw7 *d, const char *out_aub, struct gt_error *err)
{
    if (write_state7(image, blend, d->width, d->height, err) < 0 || build_batch7(d, b, err) < 0)
        return -1;
    return write_gen7_image(name, image, b, out_aub, err);
}

/* The batch into the image and the image, its GTT and the ring as a legacy
 * AUB (gzip when out_aub ends in .gz). */
static int write_gen7_image(const char *name, uint8_t *image, const struct batch *b,
                            const char *out_aub, struct gt_error *err)
{
    memcpy(image + BATCH_OFF, b->dw, b->n * 4);
    /* ValleyView's PCI id, as the real byt_* captures' */
    return workload_aub_legacy(out_aub, 0x0f31, name, image, GTT7_BASE, VA_PAGES,
                               GTT7_BASE + BATCH_OFF, err);
}

/* A GL scene's state (write_state7's, the target R8G8B8A8 with the GL
 * viewport, the scissor the window) and its target cleared to `clear`
 * (R, G, B; alpha 1), written with the batch. */
static int write_gen7_gl_scene(const char *name, uint8_t *image, struct batch *b,
                               const struct draw7 *d, float clear, const char *out_aub,
                               struct gt_error *err)
{
    if (write_state7(image, false, d->width, d->height, err) < 0 ||
        write_surface7(image, 0, 0x0c7 /* R8G8B8A8_UNORM */, 4, d->width, d->height,
                       GTT7_BASE + RT_OFF, false, 1, err) < 0 ||
        write_gl_viewport7(image, d->width, d->height, err) < 0)
        return -1;
    struct GEN7_SCISSOR_RECT sr = { .ScissorRectangleXMax = d->width - 1,
                                    .ScissorRectangleYMax = d->height - 1 };
    uint32_t dw[GEN7_SCISSOR_RECT_length];
    if (GEN7_SCISSOR_RECT_pack(dw, &sr) < 0)
        return gt_error_set(err, "SCISSOR_RECT (Gen7) does not pack");
    memcpy(image + DYN_OFF + EXT7_DRAW_STATE_OFF + EXT7_SCISSOR, dw, sizeof dw);
    uint8_t c = (uint8_t)floorf(clear * 255.0f + 0.5f);
    const uint8_t px[4] = { c, c, c, 0xff };
    for (uint32_t i = 0; i < d->width * d->height; i++)
        memcpy(image + RT_OFF + 4ull * i, px, 4);
    if (build_batch7(d, b, err) < 0)
        return -1;
    return write_gen7_image(name, image, b, out_aub, err);
}

/* tess-quad (workload3d.h): the patch's four (x, y) control points, a
 * PATCHLIST_4 draw through VS, HS, TE (QUAD), DS and PS onto 64x64. */
static int write_gen7_tess_quad(const char *name, uint8_t *image, struct batch *b,
                                struct draw7 *d, const char *out_aub, struct gt_error *err)
{
    const float patch[8] = GEN7_TESS_QUAD_PATCH;
    memcpy(image + VERTEX_OFF, patch, sizeof patch);
    d->width = d->height = GEN7_TESS_QUAD_SIZE;
    d->vertex_pitch = 8;
    d->vertices = 4;
    d->colour = false;
    d->gl_viewport = true;
    d->position_format = 0x085;         /* R32G32_FLOAT */
    d->topology = 0x23;                 /* PATCHLIST_4 */
    return write_gen7_gl_scene(name, image, b, d, GEN7_TESS_QUAD_CLEAR, out_aub, err);
}

/* xfb-tri (workload3d.h): the six vec4 vertices, the SO buffer and the
 * query filled, a TRILIST draw with SO on and rendering off (the 64x64
 * target is programmed, zero, and never written). */
static int write_gen7_xfb(const char *name, uint8_t *image, struct batch *b, struct draw7 *d,
                          const char *out_aub, struct gt_error *err)
{
    _Static_assert(GEN7_XFB_BUFFER_GTT + 4u * GEN7_XFB_BUFFER_FLOATS <= GEN7_XFB_QUERY_GTT &&
                       GEN7_XFB_QUERY_GTT + 24u <= GTT7_BASE + RT_OFF,
                   "the query lies after the SO buffer and before the render target");
    const float v[GEN7_XFB_TRIANGLES * 3][4] = GEN7_XFB_VERTICES;
    memcpy(image + VERTEX_OFF, v, sizeof v);
    const float fill = GEN7_XFB_FILL;
    for (uint32_t i = 0; i < GEN7_XFB_BUFFER_FLOATS; i++)
        memcpy(image + (GEN7_XFB_BUFFER_GTT - GTT7_BASE) + 4u * i, &fill, 4);
    const uint32_t query_fill = GEN7_XFB_QUERY_FILL;
    for (uint32_t i = 0; i < 6; i++)
        memcpy(image + (GEN7_XFB_QUERY_GTT - GTT7_BASE) + 4u * i, &query_fill, 4);
    d->width = d->height = GEN7_XFB_SIZE;
    d->vertex_pitch = sizeof v[0];
    d->vertices = 3 * GEN7_XFB_TRIANGLES;
    d->colour = false;
    d->stream_output = true;
    d->gl_viewport = true;
    d->position_format = 0;             /* R32G32B32A32_FLOAT */
    return write_gen7_gl_scene(name, image, b, d, 0.0f, out_aub, err);
}

/* gs-quads (workload3d.h): the 16 points (x, y, R, G, B, A), a POINTLIST
 * draw through VS, GS (TRISTRIP out) and PS onto 64x64. */
static int write_gen7_gs_quads(const char *name, uint8_t *image, struct batch *b,
                               struct draw7 *d, const char *out_aub, struct gt_error *err)
{
    float points[GEN7_GS_QUADS][GEN7_EXT_FLOATS];
    for (uint32_t i = 0; i < GEN7_GS_QUADS; i++)
        gen7_gs_quad_point(i, points[i]);
    memcpy(image + VERTEX_OFF, points, sizeof points);
    d->width = d->height = GEN7_GS_QUAD_SIZE;
    d->vertex_pitch = sizeof points[0];
    d->vertices = GEN7_GS_QUADS;
    d->gl_viewport = true;
    d->position_format = 0x085;         /* R32G32_FLOAT */
    d->colour_offset = 8;
    d->topology = 1;                    /* POINTLIST */
    /* the uniform u_half, pushed to the GS as crocus does (a register of
     * which DWord 0 is used) */
    const float push[8] = { GEN7_GS_QUAD_HALF };
    memcpy(image + DYN_OFF + GEN7_OWN_GS_CONSTANT_OFF, push, sizeof push);
    d->gs_constant = GEN7_OWN_GS_CONSTANT_OFF;
    return write_gen7_gl_scene(name, image, b, d, GEN7_GS_QUAD_CLEAR, out_aub, err);
}

/* The Gen7 counterparts of the ext tests (workload3d.h): their kernels
 * placed (gs-twice, gs-quads: VS, GS, PS; xfb-tri: VS, PS; tess-tri,
 * tess-quad: VS, HS, DS, PS), their vertices and background written, their
 * draw. */
static int write_gen7_own(const char *name, const uint8_t *kernel, size_t klen,
                          const char *kernel_hex, uint8_t *image, struct batch *b,
                          const char *out_aub, struct gt_error *err)
{
    _Static_assert(GTT7_BASE + VERTEX_OFF + 28u * 3u * GEN7_GS_TRIANGLES <= GEN7_XFB_BUFFER_GTT &&
                       GTT7_BASE + VERTEX_OFF + 24u * GEN7_GS_QUADS <= GEN7_XFB_BUFFER_GTT &&
                       GEN7_XFB_BUFFER_GTT + 4u * GEN7_XFB_BUFFER_FLOATS <= GTT7_BASE + RT_OFF,
                   "the SO buffer lies between the vertices and the render target");
    bool quads = strcmp(name, "gs-quads") == 0, xfb = strcmp(name, "xfb-tri") == 0;
    bool tess_quad = strcmp(name, "tess-quad") == 0;
    bool tess = tess_quad || strcmp(name, "tess-tri") == 0;
    uint32_t at[4], want = tess ? 4u : xfb ? 2u : 3u;
    if (workload_place_kernels(image, KERNEL_OFF, DYN_OFF, kernel, klen, at, want) != (int)want)
        return gt_error_set(err, "%s: expected %u kernels (%s) each ending in an EOT send",
                            kernel_hex, want,
                            tess ? "VS, HS, DS, PS" : xfb ? "VS, PS" : "VS, GS, PS");
    const float triangles[GEN7_GS_TRIANGLES * 3][7] = GEN7_GS_VERTICES;
    const float patches[GEN7_TESS_PATCHES * 3][7] = GEN7_TESS_VERTICES;
    struct draw7 d = { .width = GEN7_GS_WIDTH, .height = GEN7_GS_HEIGHT, .vertex_pitch = 28,
                       .colour = true, .vs_kernel = at[0], .ps_kernel = at[want - 1],
                       .topology = 4 /* TRILIST */ };
    const float (*v)[7] = triangles;
    d.vertices = 3 * GEN7_GS_TRIANGLES;
    if (tess) {
        v = patches;
        d.vertices = 3 * GEN7_TESS_PATCHES;
        d.hs_kernel = at[1];
        d.ds_kernel = at[2];
        d.topology = 0x22;              /* PATCHLIST_3 */
    } else if (xfb) {
        return write_gen7_xfb(name, image, b, &d, out_aub, err);
    } else {
        d.gs_kernel = at[1];
        d.gs_output = quads ? 5u : 4u;  /* TRISTRIP, TRILIST */
    }
    if (tess_quad)
        return write_gen7_tess_quad(name, image, b, &d, out_aub, err);
    if (quads)
        return write_gen7_gs_quads(name, image, b, &d, out_aub, err);
    write_gs_vertices_and_background(image, v, d.vertices);
    return write_gen7(name, false, image, b, &d, out_aub, err);
}

/* ---- The ext suite's plain draws on Gen7 (workload3d.h: "strip-fan",
 * "instanced", "blend-stencil", "multi-rt", "mipmap", "msaa",
 * "fill-heavy"): several draws in one batch, each with the state crocus
 * emits for a draw (byt_tri's app draw, L2766-4166: the clipper and SF
 * viewport transform on, a scissor, the vertex buffers and elements of the
 * draw), its own BLEND_STATE, COLOR_CALC_STATE, DEPTH_STENCIL_STATE,
 * SCISSOR_RECT and (textured scenes) SAMPLER_STATE. Not modelled here: the
 * MCS crocus gives a 4x target (msaa's is uncompressed MSS) and blorp's own
 * resolve draw (msaa's resolve runs through the scene's VS and clipper). */
#define EXT7_BLEND 0x00u                /*   BLEND_STATE (an entry per render target) */
#define EXT7_CC 0x40u                   /*   COLOR_CALC_STATE */
#define EXT7_DS 0x80u                   /*   DEPTH_STENCIL_STATE */
#define EXT7_INSTANCE_OFF (VERTEX_OFF + 0x2000u)    /* vertex buffer 1 (instanced) */
#define EXT7_INDEX_OFF (VERTEX_OFF + 0x3000u)       /* the index buffer */
#define EXT7_RT1_OFF (RT_OFF + 0x40000u)
#define EXT7_DEPTH_OFF (RT_OFF + 0x80000u)
#define EXT7_STENCIL_OFF (RT_OFF + 0xc0000u)
#define EXT7_SAMPLER 0xe0u            /*   SAMPLER_STATE 0 (textured scenes) */
#define EXT7_BORDER_OFF 0x200u          /* the border colour (zeros; no border mode is used) */
#define EXT7_TEXTURE_OFF EXT7_RT1_OFF   /* the mipmap scene's texture (it has no RT1) */
#define EXT7_RESOLVED_OFF EXT7_RT1_OFF  /* msaa: the resolve's single-sampled target */
#define EXT7_RESOLVE_TABLE 0x20u        /* msaa: the resolve's binding table (Surface State Base-relative) */
#define EXT7_DEPTH16_OFF (RT_OFF + 0x200000u)    /* fill-heavy's D16 buffer (its RT is 1 MiB) */
#define EXT7_MAX_DRAWS 8u

/* genxml gen7.xml's enums: 3D_Color_Buffer_Blend_Factor / _Function,
 * 3D_Compare_Function, 3D_Stencil_Operation; 3DPRIMITIVE topologies;
 * SURFACE_FORMATs */
enum { BF_ONE = 0x01, BF_DST_COLOR = 0x05, BF_ZERO = 0x11 };
enum { BLEND_ADD = 0, BLEND_MAX = 4 };
enum { CMP_ALWAYS = 0, CMP_LESS = 2, CMP_EQUAL = 3, CMP_LEQUAL = 4, CMP_NOTEQUAL = 6 };
enum { STENCILOP_KEEP = 0, STENCILOP_REPLACE = 2 };
enum { TEXCOORDMODE_WRAP = 0, TEXCOORDMODE_MIRROR = 1 };
enum { PRIM_POINTS = 1, PRIM_LINES = 2, PRIM_LINE_STRIP = 3, PRIM_TRIANGLES = 4,
       PRIM_TRIANGLE_STRIP = 5, PRIM_TRIANGLE_FAN = 6 };
enum { FMT_R32G32B32A32_FLOAT = 0x000, FMT_R32G32B32_FLOAT = 0x040, FMT_R32G32_FLOAT = 0x085,
       FMT_R16G16B16A16_FLOAT = 0x084, FMT_R8G8B8A8_UNORM = 0x0c7, FMT_D24_UNORM_X8 = 3,
       FMT_D16_UNORM = 5 };

struct ext7_draw {
    uint32_t topology, first, count, instances;
    bool indexed;
    bool blend;
    uint32_t source_factor, destination_factor, function;
    uint32_t write_disable;             /* bits 0-3: R, G, B, A not written */
    bool stencil;                       /* test on, front face, masks 0xff */
    uint32_t stencil_function, stencil_pass_op, stencil_reference;
    bool scissor;                       /* the scene's scissor rectangle, else the window */
    uint32_t wrap;                      /* textured scenes: the address mode of s and t */
    bool resolve;                       /* msaa: the resolve pass (1x, binding table 1) */
    bool depth, depth_write;            /* the depth test (depth_function) and writes */
    uint32_t depth_function;
};

struct ext7_scene {
    uint32_t width, height, targets;    /* render targets (1 or 2) */
    uint32_t vs_read_length;            /* 256-bit rows of vertex elements */
    bool instanced;                     /* elements: the corner, then offset and colour per instance */
    bool position_only;                 /* one element: the position */
    uint32_t position_format;           /* element 0 at offset 0 (z 0, w 1 where absent) */
    uint32_t attribute_format, attribute_offset;    /* element 1 (z 0, w 1 where absent) */
    bool textured;                      /* binding table entry 1 the texture, sampler 0 */
    uint32_t samples;                   /* render target 0's (1 or 4) */
    uint32_t resolve_kernel;            /* msaa: the resolve pass's PS */
    bool point_width_from_vertex;
    bool depth_stencil;                 /* a D24_UNORM_X8 depth buffer and an S8 stencil buffer */
    bool depth16;                       /* a D16_UNORM depth buffer, no stencil */
    uint32_t vertex_pitch, vertex_bytes, instance_bytes, index_bytes;
    uint32_t scissor_min, scissor_max;  /* the scissor's square, [min, max) */
    uint32_t vs_kernel, ps_kernel;
    uint32_t draws;
    struct ext7_draw draw[EXT7_MAX_DRAWS];
};

static int pack_element7(uint32_t *dw, uint32_t buffer, uint32_t format, uint32_t offset,
                         uint32_t c2, uint32_t c3, struct gt_error *err);

/* An element of `format` with what its absent z and w become (STORE_0 and
 * STORE_1_FP; component controls STORE_SRC 1, STORE_0 2, STORE_1_FP 3). */
static int pack_vector7(uint32_t *dw, uint32_t format, uint32_t offset, struct gt_error *err)
{
    uint32_t components = format == FMT_R32G32_FLOAT ? 2u : format == FMT_R32G32B32_FLOAT ? 3u : 4u;
    return pack_element7(dw, 0, format, offset, components > 2 ? 1u : 2u, components > 3 ? 1u : 3u,
                         err);
}

static int pack_element7(uint32_t *dw, uint32_t buffer, uint32_t format, uint32_t offset,
                         uint32_t c2, uint32_t c3, struct gt_error *err)
{
    struct GEN7_VERTEX_ELEMENT_STATE e = { .VertexBufferIndex = buffer, .Valid = true,
        .SourceElementFormat = format, .SourceElementOffset = offset,
        .Component0Control = 1, .Component1Control = 1, .Component2Control = c2,
        .Component3Control = c3 };
    if (GEN7_VERTEX_ELEMENT_STATE_pack(dw, &e) < 0)
        return gt_error_set(err, "VERTEX_ELEMENT_STATE (Gen7) does not pack");
    return 0;
}

/* The vertex buffers and elements: (x, y) positions (z 0, w 1), then the
 * vertex's colour (instanced: the instance's offset, z and w 0, and
 * colour from vertex buffer 1, one record per instance). */
static int emit7_ext_vertex_input(const struct ext7_scene *sc, struct batch *b,
                                  struct gt_error *err)
{
    uint32_t dw[16];
    uint32_t buffers = sc->instanced ? 2u : 1u;
    struct GEN7_3DSTATE_VERTEX_BUFFERS vbs = { GEN7_3DSTATE_VERTEX_BUFFERS_header };
    vbs.DWordLength = 1 + 4 * buffers - 2;
    GEN7_3DSTATE_VERTEX_BUFFERS_pack(dw, &vbs);
    struct GEN7_VERTEX_BUFFER_STATE vb[2] = {
        { .BufferPitch = sc->vertex_pitch, .AddressModifyEnable = true, .MOCS = 1,
          .VertexBufferIndex = 0, .BufferStartingAddress = GTT7_BASE + VERTEX_OFF,
          .EndAddress = GTT7_BASE + VERTEX_OFF + sc->vertex_bytes - 1 },
        { .BufferPitch = 4 * GEN7_EXT_FLOATS, .AddressModifyEnable = true, .MOCS = 1,
          .VertexBufferIndex = 1, .BufferAccessType = 1 /* INSTANCEDATA */,
          .InstanceDataStepRate = 1, .BufferStartingAddress = GTT7_BASE + EXT7_INSTANCE_OFF,
          .EndAddress = GTT7_BASE + EXT7_INSTANCE_OFF + sc->instance_bytes - 1 },
    };
    for (uint32_t i = 0; i < buffers; i++)
        if (GEN7_VERTEX_BUFFER_STATE_pack(dw + 1 + 4 * i, &vb[i]) < 0)
            return gt_error_set(err, "VERTEX_BUFFER_STATE (Gen7) does not pack");
    emit(b, dw, 1 + 4 * buffers);
    uint32_t elements = sc->instanced ? 3u : sc->position_only ? 1u : 2u;
    struct GEN7_3DSTATE_VERTEX_ELEMENTS ves = { GEN7_3DSTATE_VERTEX_ELEMENTS_header };
    ves.DWordLength = 1 + 2 * elements - 2;
    GEN7_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
    if (pack_vector7(dw + 1, sc->position_format, 0, err) < 0)
        return -1;
    if (sc->instanced) {
        if (pack_element7(dw + 3, 1, FMT_R32G32_FLOAT, 0, 2, 2, err) < 0 ||
            pack_element7(dw + 5, 1, FMT_R32G32B32A32_FLOAT, 8, 1, 1, err) < 0)
            return -1;
    } else if (!sc->position_only) {
        if (pack_vector7(dw + 3, sc->attribute_format, sc->attribute_offset, err) < 0)
            return -1;
    }
    emit(b, dw, 1 + 2 * elements);
    return 0;
}

/* Draw i's dynamic state: a BLEND_STATE entry per render target,
 * COLOR_CALC_STATE (the stencil reference), DEPTH_STENCIL_STATE (depth test
 * and writes off), SCISSOR_RECT (inclusive bounds). */
static int write_ext7_draw_state(uint8_t *image, const struct ext7_scene *sc, uint32_t i,
                                 struct gt_error *err)
{
    const struct ext7_draw *d = &sc->draw[i];
    uint8_t *at = image + DYN_OFF + EXT7_DRAW_STATE_OFF + 0x100u * i;
    struct GEN7_BLEND_STATE_ENTRY be = {
        .PostBlendColorClampEnable = true, .PreBlendColorClampEnable = true,
        .ColorClampRange = 2, .ColorBufferBlendEnable = d->blend,
        .SourceBlendFactor = d->source_factor, .SourceAlphaBlendFactor = d->source_factor,
        .DestinationBlendFactor = d->destination_factor,
        .DestinationAlphaBlendFactor = d->destination_factor,
        .ColorBlendFunction = d->function, .AlphaBlendFunction = d->function,
        .WriteDisableRed = d->write_disable & 1u, .WriteDisableGreen = (d->write_disable >> 1) & 1u,
        .WriteDisableBlue = (d->write_disable >> 2) & 1u,
        .WriteDisableAlpha = (d->write_disable >> 3) & 1u,
    };
    uint32_t dw[8];
    if (GEN7_BLEND_STATE_ENTRY_pack(dw, &be) < 0)
        return gt_error_set(err, "BLEND_STATE (Gen7) does not pack");
    for (uint32_t t = 0; t < sc->targets; t++)
        memcpy(at + EXT7_BLEND + 8u * t, dw, 8);
    struct GEN7_COLOR_CALC_STATE cc = { .StencilReferenceValue = d->stencil_reference,
                                        .BackfaceStencilReferenceValue = d->stencil_reference };
    if (GEN7_COLOR_CALC_STATE_pack(dw, &cc) < 0)
        return gt_error_set(err, "COLOR_CALC_STATE (Gen7) does not pack");
    memcpy(at + EXT7_CC, dw, 4 * GEN7_COLOR_CALC_STATE_length);
    struct GEN7_DEPTH_STENCIL_STATE ds = {
        .StencilTestEnable = d->stencil, .StencilTestFunction = d->stencil_function,
        .StencilFailOp = STENCILOP_KEEP, .StencilPassDepthFailOp = STENCILOP_KEEP,
        .StencilPassDepthPassOp = d->stencil_pass_op,
        .StencilBufferWriteEnable = d->stencil && d->stencil_pass_op != STENCILOP_KEEP,
        .StencilTestMask = 0xff, .StencilWriteMask = 0xff,
        .BackfaceStencilTestMask = 0xff, .BackfaceStencilWriteMask = 0xff,
        .DepthTestEnable = d->depth, .DepthTestFunction = d->depth_function,
        .DepthBufferWriteEnable = d->depth_write,
    };
    if (GEN7_DEPTH_STENCIL_STATE_pack(dw, &ds) < 0)
        return gt_error_set(err, "DEPTH_STENCIL_STATE (Gen7) does not pack");
    memcpy(at + EXT7_DS, dw, 4 * GEN7_DEPTH_STENCIL_STATE_length);
    struct GEN7_SCISSOR_RECT sr = {
        .ScissorRectangleXMin = d->scissor ? sc->scissor_min : 0,
        .ScissorRectangleYMin = d->scissor ? sc->scissor_min : 0,
        .ScissorRectangleXMax = d->scissor ? sc->scissor_max - 1 : sc->width - 1,
        .ScissorRectangleYMax = d->scissor ? sc->scissor_max - 1 : sc->height - 1,
    };
    if (GEN7_SCISSOR_RECT_pack(dw, &sr) < 0)
        return gt_error_set(err, "SCISSOR_RECT (Gen7) does not pack");
    memcpy(at + EXT7_SCISSOR, dw, 4 * GEN7_SCISSOR_RECT_length);
    if (!sc->textured)
        return 0;
    /* GL_LINEAR_MIPMAP_LINEAR / GL_LINEAR as crocus's sampler state: MIN and
     * MAG LINEAR, MIP LINEAR, the OpenGL LOD pre-clamp, LODs 0..levels-1 */
    struct GEN7_SAMPLER_STATE ss = {
        .MinModeFilter = 1, .MagModeFilter = 1, .MipModeFilter = 3, .LODPreClampEnable = 1,
        .MinLOD = 0.0, .MaxLOD = GEN7_MIPMAP_LEVELS - 1, .BorderColorPointer = EXT7_BORDER_OFF,
        .TCXAddressControlMode = d->wrap, .TCYAddressControlMode = d->wrap,
        .TCZAddressControlMode = d->wrap,
    };
    if (GEN7_SAMPLER_STATE_pack(dw, &ss) < 0)
        return gt_error_set(err, "SAMPLER_STATE (Gen7) does not pack");
    memcpy(at + EXT7_SAMPLER, dw, 4 * GEN7_SAMPLER_STATE_length);
    return 0;
}

/* SF_CLIP_VIEWPORT 0 (the GL viewport 0, 0, W, H with depth range 0..1;
 * the guardband byt_tri's 64x64 draw has, +-512, scaled as 1/W) and
 * CC_VIEWPORT. */
static int write_gl_viewport7(uint8_t *image, uint32_t width, uint32_t height, struct gt_error *err)
{
    const float w = (float)width, h = (float)height, band = 32768.0f / w;
    struct GEN7_SF_CLIP_VIEWPORT vp = {
        .ViewportMatrixElementM00 = w / 2, .ViewportMatrixElementM11 = h / 2,
        .ViewportMatrixElementM22 = 0.5f, .ViewportMatrixElementM30 = w / 2,
        .ViewportMatrixElementM31 = h / 2, .ViewportMatrixElementM32 = 0.5f,
        .XMinClipGuardband = -band, .XMaxClipGuardband = band,
        .YMinClipGuardband = -band, .YMaxClipGuardband = band,
    };
    uint32_t dw[GEN7_SF_CLIP_VIEWPORT_length];
    if (GEN7_SF_CLIP_VIEWPORT_pack(dw, &vp) < 0)
        return gt_error_set(err, "SF_CLIP_VIEWPORT (Gen7) does not pack");
    memcpy(image + DYN_OFF + EXT7_SF_CLIP_OFF, dw, sizeof dw);
    struct GEN7_CC_VIEWPORT cc = { .MinimumDepth = 0.0f, .MaximumDepth = 1.0f };
    GEN7_CC_VIEWPORT_pack(dw, &cc);
    memcpy(image + DYN_OFF + CC_VIEWPORT_OFF, dw, 8);
    return 0;
}

/* The scene's shared state: the viewports, each draw's state, the render
 * targets' surfaces. */
static int write_ext7_state(uint8_t *image, const struct ext7_scene *sc, struct gt_error *err)
{
    if (write_gl_viewport7(image, sc->width, sc->height, err) < 0)
        return -1;
    bool blend = false;
    for (uint32_t i = 0; i < sc->draws; i++) {
        blend = blend || sc->draw[i].blend;
        if (write_ext7_draw_state(image, sc, i, err) < 0)
            return -1;
    }
    if (write_surface7(image, 0, FMT_R8G8B8A8_UNORM, 4, sc->width, sc->height,
                       GTT7_BASE + RT_OFF, blend, sc->samples, err) < 0)
        return -1;
    if (sc->targets > 1 && write_surface7(image, 1, FMT_R16G16B16A16_FLOAT, 8, sc->width,
                                          sc->height, GTT7_BASE + EXT7_RT1_OFF, blend, 1, err) < 0)
        return -1;
    if (sc->samples == 4) {
        /* the resolve's binding table (EXT7_RESOLVE_TABLE): entry 0 the
         * single-sampled target (SURFACE_STATE 0x80), entry 1 the 4x one
         * (0x40) for the sampler */
        if (write_surface7(image, 1, FMT_R8G8B8A8_UNORM, 4, sc->width, sc->height,
                           GTT7_BASE + EXT7_RESOLVED_OFF, false, 1, err) < 0)
            return -1;
        const uint32_t table[2] = { 0x80, 0x40 };
        memcpy(image + SURF_OFF + EXT7_RESOLVE_TABLE, table, sizeof table);
    }
    if (sc->textured) {
        /* the texture: 2D R8G8B8A8_UNORM, Y-tiled, HALIGN_4 / VALIGN_4, the
         * whole chain (MIP Count = levels - 1) */
        struct GEN7_RENDER_SURFACE_STATE ts = {
            .SurfaceType = 1, .SurfaceFormat = FMT_R8G8B8A8_UNORM, .TiledSurface = true,
            .TileWalk = 1, .SurfaceHorizontalAlignment = 0, .SurfaceVerticalAlignment = 1,
            .MOCS = 1, .Width = GEN7_MIPMAP_TEXTURE - 1, .Height = GEN7_MIPMAP_TEXTURE - 1,
            .SurfacePitch = 4 * GEN7_MIPMAP_TEXTURE - 1, .MIPCountLOD = GEN7_MIPMAP_LEVELS - 1,
            .SurfaceBaseAddress = GTT7_BASE + EXT7_TEXTURE_OFF,
        };
        uint32_t rss[GEN7_RENDER_SURFACE_STATE_length];
        if (GEN7_RENDER_SURFACE_STATE_pack(rss, &ts) < 0)
            return gt_error_set(err, "RENDER_SURFACE_STATE (Gen7) does not pack");
        uint32_t entry = 0x40u + 0x40u * sc->targets;
        memcpy(image + SURF_OFF + entry, rss, sizeof rss);
        memcpy(image + SURF_OFF + 4u * sc->targets, &entry, 4);
    }
    return 0;
}

/* The clipper and SF as crocus programs a GL draw: L3279-3305, clipping
 * with the guardband, viewport XY and Z tests; L3450-3485, the viewport
 * transform, the scissor, width-1 lines, the point width from the VUE
 * header or 1. */
static int emit7_gl_clip_sf(struct batch *b, bool point_width_from_vertex, bool depth16,
                            bool multisampled, struct gt_error *err)
{
    /* L3279-3305: clipping with the guardband, viewport XY and Z tests */
    EMIT7(b, 3DSTATE_CLIP, .StatisticsEnable = true, .CullMode = 1 /* NONE */,
          .EarlyCullEnable = true, .TriangleFanProvokingVertexSelect = 2,
          .LineStripListProvokingVertexSelect = 1, .TriangleStripListProvokingVertexSelect = 2,
          .GuardbandClipTestEnable = true, .ViewportZClipTestEnable = true,
          .ViewportXYClipTestEnable = true, .ClipEnable = true, .ForceZeroRTAIndexEnable = true,
          .MaximumPointWidth = 255.875, .MinimumPointWidth = 0.125);
    /* L3450-3485: the viewport transform, the scissor, width-1 lines, the
     * point width from the VUE header or 1 */
    EMIT7(b, 3DSTATE_SF, .ViewportTransformEnable = true, .StatisticsEnable = true,
          .DepthBufferSurfaceFormat = depth16 ? FMT_D16_UNORM : FMT_D24_UNORM_X8,
          .ScissorRectangleEnable = true,
          .LineWidth = 1.0, .CullMode = 1, .PointWidth = 1.0,
          .PointWidthSource = point_width_from_vertex ? 0 : 1, .AALineDistanceMode = 1,
          .TriangleFanProvokingVertexSelect = 2, .LineStripListProvokingVertexSelect = 1,
          .TriangleStripListProvokingVertexSelect = 2,
          .MultisampleRasterizationMode = multisampled ? 3u : 0u);
    return 0;
}

/* Draw i: its state pointers, the fixed-function state and 3DPRIMITIVE. */
static int emit7_ext_draw(const struct ext7_scene *sc, uint32_t i, struct batch *b,
                          struct gt_error *err)
{
    const struct ext7_draw *d = &sc->draw[i];
    const uint32_t state = EXT7_DRAW_STATE_OFF + 0x100u * i;
    if (emit7_ext_vertex_input(sc, b, err) < 0)
        return -1;
    EMIT7(b, 3DSTATE_VF_STATISTICS, .StatisticsEnable = true);
    EMIT7(b, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP, .SFClipViewportPointer = EXT7_SF_CLIP_OFF);
    /* VS: 512 entries of 64 bytes (header, position, colour, pad), L2891 */
    EMIT7(b, 3DSTATE_URB_VS, .VSNumberOfURBEntries = 512, .VSURBStartingAddress = 2);
    EMIT7(b, 3DSTATE_URB_HS, .HSURBStartingAddress = 2);
    EMIT7(b, 3DSTATE_URB_DS, .DSURBStartingAddress = 2);
    EMIT7(b, 3DSTATE_URB_GS, .GSURBStartingAddress = 2);
    EMIT7(b, 3DSTATE_BLEND_STATE_POINTERS, .BlendStatePointer = state + EXT7_BLEND);
    b->dw[b->n - 1] |= 1;
    EMIT7(b, 3DSTATE_CC_STATE_POINTERS, .ColorCalcStatePointer = state + EXT7_CC);
    b->dw[b->n - 1] |= 1;
    EMIT7(b, 3DSTATE_DEPTH_STENCIL_STATE_POINTERS, .PointerToDEPTHSTENCILSTATE = state + EXT7_DS);
    b->dw[b->n - 1] |= 1;
    EMIT7(b, 3DSTATE_SCISSOR_STATE_POINTERS, .ScissorRectPointer = state + EXT7_SCISSOR);
    if (sc->textured)
        EMIT7(b, 3DSTATE_SAMPLER_STATE_POINTERS_PS, .PointerToPSSamplerState = state + EXT7_SAMPLER);
    bool multisampled = sc->samples == 4 && !d->resolve;
    if (emit7_no_constants(b, multisampled ? 4u : 1u, err) < 0)
        return -1;
    EMIT7(b, 3DSTATE_VS, .KernelStartPointer = sc->vs_kernel,
          .DispatchGRFStartRegisterForURBData = 1,
          .VertexURBEntryReadLength = sc->vs_read_length,
          .Enable = true, .StatisticsEnable = true, .MaximumNumberOfThreads = 35);
    EMIT7(b, 3DSTATE_HS, .Enable = false);
    EMIT7(b, 3DSTATE_TE, .TEEnable = false);
    EMIT7(b, 3DSTATE_DS, .Enable = false);
    EMIT7(b, 3DSTATE_STREAMOUT, .SOFunctionEnable = false);
    EMIT7(b, 3DSTATE_GS, .Enable = false);
    if (emit7_gl_clip_sf(b, sc->point_width_from_vertex, sc->depth16, multisampled, err) < 0)
        return -1;
    EMIT7(b, 3DSTATE_SBE, .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 1,
          .NumberOfSFOutputAttributes = 1);
    /* L3486-3511: perspective barycentrics, RASTRULE_UPPER_RIGHT; 4x:
     * MSRASTMODE_ON_PATTERN (coverage at the samples; seed 000 L3905-3929,
     * the same value in 3DSTATE_SF), MSDISPMODE_PERPIXEL (one PS invocation
     * a pixel, its samples' coverage with it) */
    EMIT7(b, 3DSTATE_WM, .ThreadDispatchEnable = true, .StatisticsEnable = true,
          .PointRasterizationRule = 1, .LineAntialiasingRegionWidth = 1,
          .BarycentricInterpolationMode = 1,
          .MultisampleRasterizationMode = multisampled ? 3u : 0u,
          .MultisampleDispatchMode = multisampled ? 1u : 0u);
    uint32_t ps = d->resolve ? sc->resolve_kernel : sc->ps_kernel;
    EMIT7(b, 3DSTATE_PS, .KernelStartPointer0 = ps,
          .BindingTableEntryCount = d->resolve ? 2u : sc->targets + sc->textured,
          .SamplerCount = sc->textured ? 1u : 0u, ._16PixelDispatchEnable = true,
          .MaximumNumberOfThreads = 47, .AttributeEnable = true,
          .DispatchGRFStartRegisterForConstantSetupData0 = 6,
          .KernelStartPointer1 = ps, .KernelStartPointer2 = ps);
    if (emit7_binding_tables(b, err) < 0)
        return -1;
    if (d->resolve)
        EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_PS, .PointerToPSBindingTable = EXT7_RESOLVE_TABLE);
    if (sc->depth_stencil) {
        /* D24S8 on Gen7 (crocus, separate stencil): the depth half as a
         * Y-tiled D24_UNORM_X8 buffer, written never (the test is off), the
         * stencil half a W-tiled S8 buffer of W bytes a row */
        bool stencil_write = d->stencil && d->stencil_pass_op != STENCILOP_KEEP;
        EMIT7(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 1, .SurfaceFormat = FMT_D24_UNORM_X8,
              .SurfacePitch = 4 * sc->width - 1, .StencilWriteEnable = stencil_write,
              .SurfaceBaseAddress = GTT7_BASE + EXT7_DEPTH_OFF, .Width = sc->width - 1,
              .Height = sc->height - 1, .MOCS = 1);
        EMIT7(b, 3DSTATE_STENCIL_BUFFER, .SurfacePitch = sc->width - 1, .MOCS = 1,
              .SurfaceBaseAddress = GTT7_BASE + EXT7_STENCIL_OFF);
    } else if (sc->depth16) {
        /* GL_DEPTH_COMPONENT16: a Y-tiled D16_UNORM buffer, no stencil */
        EMIT7(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 1, .SurfaceFormat = FMT_D16_UNORM,
              .SurfacePitch = 2 * sc->width - 1, .DepthWriteEnable = d->depth_write,
              .SurfaceBaseAddress = GTT7_BASE + EXT7_DEPTH16_OFF, .Width = sc->width - 1,
              .Height = sc->height - 1, .MOCS = 1);
        EMIT7(b, 3DSTATE_STENCIL_BUFFER, .MOCS = 1);
    } else {
        EMIT7(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 7, .SurfaceFormat = 1, .MOCS = 1);
        EMIT7(b, 3DSTATE_STENCIL_BUFFER, .MOCS = 1);
    }
    EMIT7(b, 3DSTATE_HIER_DEPTH_BUFFER, .MOCS = 1);
    EMIT7(b, 3DSTATE_CLEAR_PARAMS, .DepthClearValueValid = false);
    if (d->indexed) {
        struct GEN7_3DSTATE_INDEX_BUFFER ib = { GEN7_3DSTATE_INDEX_BUFFER_header,
            .IndexFormat = 1 /* WORD */, .MOCS = 1,
            .BufferStartingAddress = GTT7_BASE + EXT7_INDEX_OFF,
            .BufferEndingAddress = GTT7_BASE + EXT7_INDEX_OFF + sc->index_bytes - 1 };
        uint32_t dw[GEN7_3DSTATE_INDEX_BUFFER_length];
        if (GEN7_3DSTATE_INDEX_BUFFER_pack(dw, &ib) < 0)
            return gt_error_set(err, "3DSTATE_INDEX_BUFFER (Gen7) does not pack");
        emit(b, dw, GEN7_3DSTATE_INDEX_BUFFER_length);
    }
    EMIT7(b, 3DPRIMITIVE, .PrimitiveTopologyType = d->topology,
          .VertexAccessType = d->indexed ? 1 : 0, .VertexCountPerInstance = d->count,
          .StartVertexLocation = d->first, .InstanceCount = d->instances ? d->instances : 1);
    return 0;
}

static int build_batch7_ext(const struct ext7_scene *sc, struct batch *b, struct gt_error *err)
{
    if (emit7_preamble(b, sc->width, sc->height, err) < 0)
        return -1;
    for (uint32_t i = 0; i < sc->draws; i++)
        if (emit7_ext_draw(sc, i, b, err) < 0)
            return -1;
    return emit7_end(b, err);
}

static uint8_t unorm8_of(float v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)floorf(v * 255.0f + 0.5f);
}

/* Fills render target 0 (R8G8B8A8) with colour, as glClear leaves it. */
static void clear_rt0(uint8_t *image, const struct ext7_scene *sc, const float colour[4])
{
    const uint8_t px[4] = { unorm8_of(colour[0]), unorm8_of(colour[1]), unorm8_of(colour[2]),
                            unorm8_of(colour[3]) };
    for (uint32_t i = 0; i < sc->width * sc->height * sc->samples; i++)
        memcpy(image + RT_OFF + 4ull * i, px, 4);
}

/* The scenes of workload3d.h: vertices (and instances, indices) into the
 * image, the draws. */
static void scene_strip_fan(uint8_t *image, struct ext7_scene *sc)
{
    float v[GEN7_STRIP_FAN_VERTICES][GEN7_EXT_FLOATS];
    gen7_strip_fan_vertices(v);
    memcpy(image + VERTEX_OFF, v, sizeof v);
    sc->width = sc->height = GEN7_STRIP_FAN_SIZE;
    sc->vertex_bytes = sizeof v;
    sc->point_width_from_vertex = true;
    static const uint32_t topology[5] = { PRIM_TRIANGLE_STRIP, PRIM_TRIANGLE_FAN, PRIM_LINES,
                                          PRIM_LINE_STRIP, PRIM_POINTS };
    static const uint32_t first[6] = { GEN7_STRIP_FAN_STRIP, GEN7_STRIP_FAN_FAN,
                                       GEN7_STRIP_FAN_LINES, GEN7_STRIP_FAN_LINE_STRIP,
                                       GEN7_STRIP_FAN_POINTS, GEN7_STRIP_FAN_VERTICES };
    sc->draws = 5;
    for (uint32_t i = 0; i < 5; i++)
        sc->draw[i] = (struct ext7_draw){ .topology = topology[i], .first = first[i],
                                          .count = first[i + 1] - first[i] };
    clear_rt0(image, sc, (const float[4])GEN7_STRIP_FAN_CLEAR);
}

static void scene_instanced(uint8_t *image, struct ext7_scene *sc)
{
    const float quad[8] = GEN7_INSTANCED_QUAD;
    const uint16_t index[6] = GEN7_INSTANCED_INDICES;
    memcpy(image + VERTEX_OFF, quad, sizeof quad);
    memcpy(image + EXT7_INDEX_OFF, index, sizeof index);
    for (uint32_t i = 0; i < GEN7_INSTANCED_COUNT; i++) {
        float inst[GEN7_EXT_FLOATS];
        gen7_instanced_instance(i, inst);
        memcpy(image + EXT7_INSTANCE_OFF + sizeof inst * i, inst, sizeof inst);
    }
    sc->width = sc->height = GEN7_INSTANCED_SIZE;
    sc->instanced = true;
    sc->vs_read_length = 2;
    sc->vertex_pitch = 8;
    sc->vertex_bytes = sizeof quad;
    sc->instance_bytes = 4 * GEN7_EXT_FLOATS * GEN7_INSTANCED_COUNT;
    sc->index_bytes = sizeof index;
    sc->draws = 1;
    sc->draw[0] = (struct ext7_draw){ .topology = PRIM_TRIANGLES, .count = 6, .indexed = true,
                                      .instances = GEN7_INSTANCED_COUNT };
    clear_rt0(image, sc, (const float[4])GEN7_INSTANCED_CLEAR);
}

static void scene_blend_stencil(uint8_t *image, struct ext7_scene *sc)
{
    const float position[] = GEN7_BLEND_STENCIL_POSITIONS;
    const uint32_t first[GEN7_BLEND_STENCIL_DRAWS] = GEN7_BLEND_STENCIL_FIRST;
    const uint32_t count[GEN7_BLEND_STENCIL_DRAWS] = GEN7_BLEND_STENCIL_COUNT;
    const float colour[GEN7_BLEND_STENCIL_DRAWS][4] = GEN7_BLEND_STENCIL_COLOURS;
    /* each draw's own copy of its vertices, with its colour */
    uint32_t n = 0;
    for (uint32_t i = 0; i < GEN7_BLEND_STENCIL_DRAWS; i++) {
        sc->draw[i] = (struct ext7_draw){ .topology = i ? PRIM_TRIANGLE_STRIP : PRIM_TRIANGLES,
                                          .first = n, .count = count[i] };
        for (uint32_t k = 0; k < count[i]; k++, n++) {
            const float vertex[GEN7_EXT_FLOATS] = { position[2 * (first[i] + k)],
                                                   position[2 * (first[i] + k) + 1],
                                                   colour[i][0], colour[i][1], colour[i][2],
                                                   colour[i][3] };
            memcpy(image + VERTEX_OFF + sizeof vertex * n, vertex, sizeof vertex);
        }
    }
    sc->width = sc->height = GEN7_BLEND_STENCIL_SIZE;
    sc->vertex_bytes = 4 * GEN7_EXT_FLOATS * n;
    sc->depth_stencil = true;
    sc->scissor_min = GEN7_BLEND_STENCIL_SCISSOR_MIN;
    sc->scissor_max = GEN7_BLEND_STENCIL_SCISSOR_MAX;
    sc->draws = GEN7_BLEND_STENCIL_DRAWS;
    struct ext7_draw *d = sc->draw;
    d[0].write_disable = 0xf;
    d[0].stencil = true;
    d[0].stencil_function = CMP_ALWAYS;
    d[0].stencil_pass_op = STENCILOP_REPLACE;
    d[0].stencil_reference = 1;
    d[1].stencil = true;
    d[1].stencil_function = CMP_EQUAL;
    d[1].stencil_reference = 1;
    d[2].stencil = true;
    d[2].stencil_function = CMP_NOTEQUAL;
    d[2].stencil_reference = 1;
    for (uint32_t i = 2; i <= 4; i++) {
        d[i].blend = true;
        d[i].source_factor = i == 3 ? BF_DST_COLOR : BF_ONE;
        d[i].destination_factor = i == 3 ? BF_ZERO : BF_ONE;
        d[i].function = i == 4 ? BLEND_MAX : BLEND_ADD;
    }
    d[5].scissor = true;
    d[5].write_disable = 0xd;           /* only green */
    clear_rt0(image, sc, (const float[4])GEN7_BLEND_STENCIL_CLEAR);
}

static void scene_multi_rt(uint8_t *image, struct ext7_scene *sc)
{
    const float triangle[6] = GEN7_MULTI_RT_TRIANGLE;
    memcpy(image + VERTEX_OFF, triangle, sizeof triangle);
    sc->width = sc->height = GEN7_MULTI_RT_SIZE;
    sc->targets = 2;
    sc->position_only = true;
    sc->vertex_pitch = 8;
    sc->vertex_bytes = sizeof triangle;
    sc->draws = 1;
    sc->draw[0] = (struct ext7_draw){ .topology = PRIM_TRIANGLES, .count = 3 };
    const float clear0[4] = GEN7_MULTI_RT_CLEAR0, clear1[4] = GEN7_MULTI_RT_CLEAR1;
    clear_rt0(image, sc, clear0);
    /* RT1's clear as half floats (IEEE binary16: -1, 0.5, 2 and 1 exactly) */
    uint16_t half[4];
    for (int c = 0; c < 4; c++) {
        int exponent;
        float mantissa = frexpf(fabsf(clear1[c]), &exponent);   /* 0.5 <= m < 1 */
        half[c] = (uint16_t)((clear1[c] < 0 ? 0x8000u : 0u) | (uint32_t)(exponent + 14) << 10 |
                             (uint32_t)((mantissa * 2.0f - 1.0f) * 1024.0f));
    }
    for (uint32_t i = 0; i < sc->width * sc->height; i++)
        memcpy(image + EXT7_RT1_OFF + 8ull * i, half, 8);
}

/* The byte offset of byte column `x_bytes`, row y in a Y-tiled surface of
 * `pitch` bytes a row: 4 KiB tiles of 128 bytes x 32 rows, in each tile
 * columns of 16 bytes one after the other, 32 rows each (seed 000's Y-major
 * tile; the one addressing the scene's texture needs). */
static uint32_t ytiled_offset(uint32_t pitch, uint32_t x_bytes, uint32_t y)
{
    uint32_t tile = (y / 32u) * (pitch / 128u) + x_bytes / 128u;
    return tile * 4096u + (x_bytes % 128u) / 16u * 512u + (y % 32u) * 16u + x_bytes % 16u;
}

static void scene_mipmap(uint8_t *image, struct ext7_scene *sc)
{
    float v[GEN7_MIPMAP_VERTICES][GEN7_MIPMAP_FLOATS];
    gen7_mipmap_vertices(v);
    memcpy(image + VERTEX_OFF, v, sizeof v);
    sc->width = sc->height = GEN7_MIPMAP_SIZE;
    sc->position_format = FMT_R32G32B32A32_FLOAT;
    sc->attribute_format = FMT_R32G32_FLOAT;
    sc->attribute_offset = 16;
    sc->vertex_pitch = 4 * GEN7_MIPMAP_FLOATS;
    sc->vertex_bytes = sizeof v;
    sc->textured = true;
    sc->draws = 2;
    for (uint32_t i = 0; i < 2; i++)
        sc->draw[i] = (struct ext7_draw){ .topology = PRIM_TRIANGLE_STRIP, .first = 4 * i,
                                          .count = 4,
                                          .wrap = i ? TEXCOORDMODE_MIRROR : TEXCOORDMODE_WRAP };
    /* the chain in the Gen7 2D layout (HALIGN_4 / VALIGN_4): level 0 at
     * (0, 0), level 1 below it, levels 2.. right of level 1 stacked
     * downwards, each level's height rounded up to 4 rows */
    uint8_t chain[GEN7_MIPMAP_CHAIN_TEXELS][4];
    gen7_mipmap_chain(chain);
    uint32_t lx = 0, ly = 0;
    for (uint32_t l = 0; l < GEN7_MIPMAP_LEVELS; l++) {
        uint32_t side = GEN7_MIPMAP_TEXTURE >> l;
        const uint8_t (*level)[4] = (const uint8_t (*)[4])chain + gen7_mipmap_level_offset(l);
        for (uint32_t y = 0; y < side; y++)
            for (uint32_t x = 0; x < side; x++)
                memcpy(image + EXT7_TEXTURE_OFF +
                           ytiled_offset(4 * GEN7_MIPMAP_TEXTURE, 4 * (lx + x), ly + y),
                       level[y * side + x], 4);
        if (l == 0)
            ly += GEN7_MIPMAP_TEXTURE;
        else if (l == 1)
            lx += side;
        else
            ly += (side + 3u) & ~3u;
    }
    clear_rt0(image, sc, (const float[4])GEN7_MIPMAP_CLEAR);
}

/* msaa: the white triangle into the 4x target, then the resolve pass over
 * the window (a two-triangle strip) into the single-sampled target. */
static void scene_msaa(uint8_t *image, struct ext7_scene *sc)
{
    const float triangle[6] = GEN7_MSAA_TRIANGLE;
    const float quad[8] = { -1, -1, 1, -1, -1, 1, 1, 1 };
    float v[7][GEN7_EXT_FLOATS];
    for (uint32_t k = 0; k < 7; k++) {
        const float *p = k < 3 ? &triangle[2 * k] : &quad[2 * (k - 3)];
        const float vertex[GEN7_EXT_FLOATS] = { p[0], p[1], 1, 1, 1, 1 };
        memcpy(v[k], vertex, sizeof vertex);
    }
    memcpy(image + VERTEX_OFF, v, sizeof v);
    sc->width = sc->height = GEN7_MSAA_SIZE;
    sc->vertex_bytes = sizeof v;
    sc->samples = 4;
    sc->draws = 2;
    sc->draw[0] = (struct ext7_draw){ .topology = PRIM_TRIANGLES, .count = 3 };
    sc->draw[1] = (struct ext7_draw){ .topology = PRIM_TRIANGLE_STRIP, .first = 3, .count = 4,
                                      .resolve = true };
    clear_rt0(image, sc, (const float[4])GEN7_MSAA_CLEAR);
}

/* fill-heavy: 2000 triangles in two draws over a D16 buffer cleared to 1.0. */
static void scene_fill_heavy(uint8_t *image, struct ext7_scene *sc)
{
    gen7_fill_heavy_vertices(image + VERTEX_OFF);
    sc->width = sc->height = GEN7_FILL_HEAVY_SIZE;
    sc->position_format = FMT_R32G32B32_FLOAT;
    sc->attribute_format = FMT_R8G8B8A8_UNORM;
    sc->attribute_offset = 12;
    sc->vertex_pitch = GEN7_FILL_HEAVY_PITCH;
    sc->vertex_bytes = GEN7_FILL_HEAVY_PITCH * 3 * GEN7_FILL_HEAVY_TRIANGLES;
    sc->depth16 = true;
    sc->draws = 2;
    const uint32_t half = 3 * GEN7_FILL_HEAVY_TRIANGLES / 2;
    for (uint32_t i = 0; i < 2; i++)
        sc->draw[i] = (struct ext7_draw){
            .topology = PRIM_TRIANGLES, .first = half * i, .count = half, .blend = true,
            .source_factor = BLENDFACTOR_SRC_ALPHA,
            .destination_factor = i ? BF_ONE : BLENDFACTOR_INV_SRC_ALPHA, .function = BLEND_ADD,
            .depth = true, .depth_function = i ? CMP_LEQUAL : CMP_LESS, .depth_write = i == 0 };
    clear_rt0(image, sc, (const float[4])GEN7_FILL_HEAVY_CLEAR);
    memset(image + EXT7_DEPTH16_OFF, 0xff, 2u * sc->width * sc->height);   /* 1.0 */
}

/* The ext scenes: kernels (VS, PS) placed, the scene built, written. */
static int write_gen7_ext(const char *name, const uint8_t *kernel, size_t klen,
                          const char *kernel_hex, uint8_t *image, struct batch *b,
                          const char *out_aub, struct gt_error *err)
{
    _Static_assert(EXT7_INDEX_OFF + 0x1000u <= RT_OFF && EXT7_STENCIL_OFF + 0x10000u <=
                       RT_OFF + RT_BYTES, "the ext scenes' buffers fit the window");
    _Static_assert(VERTEX_OFF + GEN7_FILL_HEAVY_PITCH * 3 * GEN7_FILL_HEAVY_TRIANGLES <= RT_OFF &&
                       4u * GEN7_FILL_HEAVY_SIZE * GEN7_FILL_HEAVY_SIZE <= 0x200000u &&
                       EXT7_DEPTH16_OFF + 2u * GEN7_FILL_HEAVY_SIZE * GEN7_FILL_HEAVY_SIZE <=
                       RT_OFF + RT_BYTES, "fill-heavy's buffers fit the window");
    uint32_t at[4];     /* room for one more: an extra kernel is an error too */
    uint32_t want = strcmp(name, "msaa") == 0 ? 3u : 2u;
    if (workload_place_kernels(image, KERNEL_OFF, DYN_OFF, kernel, klen, at, 4) != (int)want)
        return gt_error_set(err, "%s: expected %u kernels (VS, PS%s) each ending in an EOT send",
                            kernel_hex, want, want == 3 ? ", resolve PS" : "");
    struct ext7_scene sc = { .targets = 1, .vs_read_length = 1, .vertex_pitch = 24,
                             .position_format = FMT_R32G32_FLOAT,
                             .attribute_format = FMT_R32G32B32A32_FLOAT, .attribute_offset = 8,
                             .samples = 1, .vs_kernel = at[0], .ps_kernel = at[1],
                             .resolve_kernel = at[2] };
    if (strcmp(name, "strip-fan") == 0)
        scene_strip_fan(image, &sc);
    else if (strcmp(name, "instanced") == 0)
        scene_instanced(image, &sc);
    else if (strcmp(name, "blend-stencil") == 0)
        scene_blend_stencil(image, &sc);
    else if (strcmp(name, "mipmap") == 0)
        scene_mipmap(image, &sc);
    else if (strcmp(name, "msaa") == 0)
        scene_msaa(image, &sc);
    else if (strcmp(name, "fill-heavy") == 0)
        scene_fill_heavy(image, &sc);
    else
        scene_multi_rt(image, &sc);
    if (write_ext7_state(image, &sc, err) < 0 || build_batch7_ext(&sc, b, err) < 0)
        return -1;
    return write_gen7_image(name, image, b, out_aub, err);
}

int workload3d_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                     struct gt_error *err)
{
    bool blend = strcmp(name, "ubench-fill-blend") == 0, gs = strcmp(name, "gs-twice") == 0;
    bool tess = strcmp(name, "tess-tri") == 0 || strcmp(name, "tess-quad") == 0;
    bool quads = strcmp(name, "gs-quads") == 0, xfb = strcmp(name, "xfb-tri") == 0;
    bool ext = workload3d_is_ext7(name);
    if (!blend && !gs && !tess && !quads && !xfb && !ext && strcmp(name, "ubench-fill") != 0)
        return gt_error_set(err, "unknown 3D workload '%s' (ubench-fill, ubench-fill-blend, "
                            "gs-twice, gs-quads, xfb-tri, tess-tri, tess-quad, strip-fan, instanced, "
                            "blend-stencil, multi-rt, mipmap, msaa, fill-heavy)", name);
    if (gen != 9 && gen != 7)
        return gt_error_set(err, "the 3D workloads are written for Gen9 and Gen7, not Gen%d", gen);
    if ((gs || tess || quads || xfb || ext) && gen != 7)
        return gt_error_set(err, "%s is a Gen7 workload, not Gen%d", name, gen);
    uint8_t *kernel = NULL;
    size_t klen = 0;
    if (eu_load_kernel_file(kernel_hex, &kernel, &klen, err) < 0)
        return -1;
    uint8_t *image = calloc(VA_PAGES, 4096);
    struct batch *b = calloc(1, sizeof *b);
    int rc = -1;
    struct aub_writer w;
    bool open = false;
    if (!image || !b || KERNEL_OFF + klen > DYN_OFF) {
        gt_error_set(err, "kernel too large or out of memory");
        goto done;
    }
    if (ext) {
        rc = write_gen7_ext(name, kernel, klen, kernel_hex, image, b, out_aub, err);
        goto done;
    }
    if (gs || quads || xfb || tess) {
        rc = write_gen7_own(name, kernel, klen, kernel_hex, image, b, out_aub, err);
        goto done;
    }
    memcpy(image + KERNEL_OFF, kernel, klen);
    if (gen == 7) {
        write_vertices_and_background(image);
        const struct draw7 d = { .width = UBENCH_FILL_WIDTH, .height = UBENCH_FILL_HEIGHT,
                                 .vertex_pitch = 12, .vertices = 3, .ps_kernel = KERNEL_OFF,
                                 .topology = 15 /* RECTLIST */ };
        rc = write_gen7(name, blend, image, b, &d, out_aub, err);
        goto done;
    }
    if (write_state(image, blend, err) < 0 || build_batch(blend, b, err) < 0)
        goto done;
    memcpy(image + BATCH_OFF, b->dw, b->n * 4);

    int compress = strlen(out_aub) > 3 && strcmp(out_aub + strlen(out_aub) - 3, ".gz") == 0;
    if (aub_writer_open(&w, out_aub, compress, err) < 0)
        goto done;
    open = true;
    if (aub_write_memtrace_version(&w, 0x1912, 12, name, err) < 0)
        goto done;
    for (uint32_t i = 0; i < GGTT_PAGES; i++) {
        uint64_t pte = (GGTT_PHYS + 4096ull * i) | 1;
        if (aub_write_memory(&w, AUB_SPACE_GGTT_ENTRY, 8ull * i, &pte, 8, err) < 0)
            goto done;
    }
    /* PPGTT: PML4[0] -> PDP, PDP[0] -> PD, PD[128 + t] -> page table t,
     * page table t's entry i -> DATA_PHYS + (512 t + i) pages */
    uint64_t pdp = PML4_PHYS + 0x1000, pd = PML4_PHYS + 0x2000, pt = PML4_PHYS + 0x3000;
    if (workload_aub_w64(&w, PML4_PHYS, pdp | 3, err) < 0 ||
        workload_aub_w64(&w, pdp, pd | 3, err) < 0)
        goto done;
    for (uint32_t t = 0; t < PAGE_TABLES; t++)
        if (workload_aub_w64(&w, pd + 8 * (((VA_BASE >> 21) + t) & 511),
                             (pt + 0x1000ull * t) | 3, err) < 0)
            goto done;
    uint64_t *ptes = calloc(PAGE_TABLES * 512u, 8);
    if (!ptes) {
        gt_error_set(err, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < VA_PAGES; i++)
        ptes[i] = (DATA_PHYS + 4096ull * i) | 3;
    rc = aub_write_memory(&w, AUB_SPACE_PHYSICAL, pt, ptes, 8ull * 512 * PAGE_TABLES, err);
    free(ptes);
    if (rc < 0)
        goto done;
    rc = -1;
    if (aub_write_memory(&w, AUB_SPACE_PHYSICAL, DATA_PHYS, image, 4096ull * VA_PAGES, err) < 0)
        goto done;
    if (workload_aub_submit(&w, VA_BASE + BATCH_OFF, err) < 0)
        goto done;
    rc = 0;
done:
    if (open && aub_writer_close(&w, rc < 0 ? NULL : err) < 0)
        rc = -1;
    free(kernel);
    free(image);
    free(b);
    return rc;
}
