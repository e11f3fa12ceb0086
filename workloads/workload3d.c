/* workloads/workload3d.c - writes the Gen9 3D workloads of workload3d.h as
 * AUBs (the same submission as workload.c: GGTT pages for the ring and the
 * context image, a 4-level PPGTT over one window of VA_PAGES pages, the batch
 * started from the ring by MI_BATCH_BUFFER_START in PPGTT space). */
#include "workloads/workload3d.h"
#include "workloads/workload_aub.h"

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
    uint32_t dw[1024];
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
#define GTT7_BASE 0x00100000u

#define EMIT7(b, NAME, ...)                                                                  \
    do {                                                                                     \
        struct GEN7_##NAME cmd_ = { GEN7_##NAME##_header, __VA_ARGS__ };                     \
        uint32_t dw_[GEN7_##NAME##_length];                                                  \
        if (GEN7_##NAME##_pack(dw_, &cmd_) < 0)                                              \
            return gt_error_set(err, #NAME " (Gen7) does not pack");                         \
        emit(b, dw_, GEN7_##NAME##_length);                                                  \
    } while (0)

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
    /* the render target: 2D, B8G8R8A8_UNORM, Y-major tiled, HALIGN_4/VALIGN_4
     * (the capture's RT, L1462-1523, without its MCS) */
    struct GEN7_RENDER_SURFACE_STATE ss = {
        .SurfaceType = 1, .SurfaceFormat = 0x0c0, .TiledSurface = true, .TileWalk = 1,
        .SurfaceHorizontalAlignment = 0, .SurfaceVerticalAlignment = 1, .MOCS = 1,
        .SurfaceArraySpacing = 1,
        .Width = width - 1, .Height = height - 1, .SurfacePitch = 4 * width - 1,
        .SurfaceBaseAddress = GTT7_BASE + RT_OFF,
        .RenderCacheReadWriteMode = blend ? 1 : 0,
    };
    uint32_t rss[GEN7_RENDER_SURFACE_STATE_length];
    if (GEN7_RENDER_SURFACE_STATE_pack(rss, &ss) < 0)
        return gt_error_set(err, "RENDER_SURFACE_STATE (Gen7) does not pack");
    memcpy(image + SURF_OFF + 0x40, rss, sizeof rss);
    uint32_t entry = 0x40;
    memcpy(image + SURF_OFF, &entry, 4);
    return 0;
}

#define DS7_OFF 0x0c0u              /* Gen7 DEPTH_STENCIL_STATE (Dynamic State Base-relative) */

/* What differs between the Gen7 draws: the fill (VS/GS off, a RECTLIST in
 * pixels, a constant-colour PS), gs-twice (a pass-through VS, a DUAL_OBJECT
 * GS, a TRILIST with a colour attribute interpolated by the PS; gs-quads
 * the same on a POINTLIST with TRISTRIP out), xfb-tri (the VS and stream
 * output, rendering off) and tess-tri (the VS, HS, TE and DS on a
 * PATCHLIST_3, the same PS). A kernel offset of 0 leaves that stage
 * disabled. */
struct draw7 {
    uint32_t width, height;                 /* the render target and drawing rectangle */
    uint32_t vertex_pitch, vertices;        /* the one vertex buffer */
    bool colour;                            /* a colour element after the position */
    uint32_t vs_kernel, hs_kernel, ds_kernel, gs_kernel, ps_kernel;
    uint32_t topology, gs_output;           /* 3DPRIMITIVE's and the GS's output topology */
    bool stream_output;                     /* xfb-tri: SO on, rendering off */
};

static int build_batch7(const struct draw7 *d, struct batch *b, struct gt_error *err)
{
    uint32_t dw[32];
    EMIT7(b, PIPELINE_SELECT, .PipelineSelection = 0);                         /* L74 */
    EMIT7(b, PIPE_CONTROL, .DepthCacheFlushEnable = true, .DCFlushEnable = true,
          .RenderTargetCacheFlushEnable = true, .CommandStreamerStallEnable = true);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_VS, .ConstantBufferSize = 3);        /* L304-333 */
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_HS, .ConstantBufferSize = 3, .ConstantBufferOffset = 3);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_DS, .ConstantBufferSize = 3, .ConstantBufferOffset = 6);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_GS, .ConstantBufferSize = 3, .ConstantBufferOffset = 9);
    EMIT7(b, 3DSTATE_PUSH_CONSTANT_ALLOC_PS, .ConstantBufferSize = 4, .ConstantBufferOffset = 12);
    EMIT7(b, 3DSTATE_DRAWING_RECTANGLE, .ClippedDrawingRectangleXMax = d->width - 1,
          .ClippedDrawingRectangleYMax = d->height - 1);                       /* L424 */
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
    GEN7_VERTEX_ELEMENT_STATE_pack(dw + 1, d->colour ? &position : &header);
    GEN7_VERTEX_ELEMENT_STATE_pack(dw + 3, d->colour ? &colour : &position);
    emit(b, dw, 5);
    EMIT7(b, 3DSTATE_VF_STATISTICS, .StatisticsEnable = false);
    EMIT7(b, PIPE_CONTROL, .DepthStallEnable = true);                          /* L629 */
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
    EMIT7(b, 3DSTATE_CONSTANT_VS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_HS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_DS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_GS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_CONSTANT_PS, .ConstantBody = { .ReadLength = { 0 } });
    EMIT7(b, 3DSTATE_MULTISAMPLE, .NumberOfMultisamples = 0, .Sample0XOffset = 0.5,
          .Sample0YOffset = 0.5);
    EMIT7(b, 3DSTATE_SAMPLE_MASK, .SampleMask = 1);
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
        EMIT7(b, 3DSTATE_TE, .TEEnable = true, .TEDomain = 1, .OutputTopology = 2,
              .Partitioning = 0, .MaximumTessellationFactorOdd = 63.0f,
              .MaximumTessellationFactorNotOdd = 64.0f);
        EMIT7(b, 3DSTATE_DS, .KernelStartPointer = d->ds_kernel,
              .PatchURBEntryReadOffset = 1, .PatchURBEntryReadLength = 2,
              .DispatchGRFStartRegisterForURBData = 2, .Enable = true,
              .ComputeWCoordinateEnable = true, .StatisticsEnable = true,
              .MaximumNumberOfThreads = 31);
    } else {
        EMIT7(b, 3DSTATE_HS, .Enable = false);
        EMIT7(b, 3DSTATE_TE, .TEEnable = false);
        EMIT7(b, 3DSTATE_DS, .Enable = false);
    }
    if (d->stream_output) {
        /* xfb-tri as crocus sets up transform feedback (public: crocus_state.c):
         * the buffer (pitch, base, end = base + size), the declarations
         * (stream 0 to buffer 0: VUE slot 1, the position, xyzw; slot 2, the
         * colour, x; slots counted from the read offset, 0 = the VUE header),
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
        struct GEN7_SO_DECL so_position = { .ComponentMask = 0xf, .RegisterIndex = 1 };
        struct GEN7_SO_DECL red = { .ComponentMask = 0x1, .RegisterIndex = 2 };
        uint32_t decl[2];
        if (GEN7_SO_DECL_pack(decl, &so_position) < 0 || GEN7_SO_DECL_pack(decl + 1, &red) < 0)
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
              .DispatchGRFStartRegisterForURBData = 1, .VertexURBEntryReadOffset = 0,
              .VertexURBEntryReadLength = 2, .OutputTopology = d->gs_output,
              .OutputVertexSize = 3,
              .Enable = true, .StatisticsEnable = 1, .DispatchMode = 2,
              .MaximumNumberOfThreads = 31);
    else
        EMIT7(b, 3DSTATE_GS, .Enable = false);
    EMIT7(b, 3DSTATE_CLIP, .PerspectiveDivideDisable = true, .ClipEnable = false,
          .CullMode = 1);                                                       /* CULLMODE_NONE */
    EMIT7(b, 3DSTATE_SF, .ViewportTransformEnable = false, .CullMode = 1);
    /* gs-twice: one attribute, the colour (VUE row 1's first vec4) */
    EMIT7(b, 3DSTATE_SBE, .VertexURBEntryReadOffset = 1, .VertexURBEntryReadLength = 1,
          .NumberOfSFOutputAttributes = d->colour ? 1 : 0);
    /* gs-twice's PS interpolates: perspective pixel barycentrics (1) */
    EMIT7(b, 3DSTATE_WM, .ThreadDispatchEnable = true,
          .BarycentricInterpolationMode = d->colour ? 1 : 0);
    /* SIMD16 only; 48 threads, as crocus programs ValleyView (L1372-1416);
     * with barycentrics the setup data follows them (g6, as byt_tri's SIMD16
     * shader, L3201-3255) */
    EMIT7(b, 3DSTATE_PS, .KernelStartPointer0 = d->ps_kernel, .BindingTableEntryCount = 1,
          ._16PixelDispatchEnable = true, .MaximumNumberOfThreads = 47,
          .AttributeEnable = d->colour,
          .DispatchGRFStartRegisterForConstantSetupData0 = d->colour ? 6 : 2,
          .KernelStartPointer1 = d->ps_kernel, .KernelStartPointer2 = d->ps_kernel);
    EMIT7(b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC, .CCViewportPointer = CC_VIEWPORT_OFF);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_VS, .PointerToVSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_HS, .PointerToHSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_DS, .PointerToDSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_GS, .PointerToGSBindingTable = 0);
    EMIT7(b, 3DSTATE_BINDING_TABLE_POINTERS_PS, .PointerToPSBindingTable = 0);
    EMIT7(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 7, .SurfaceFormat = 1, .MOCS = 1);
    EMIT7(b, 3DSTATE_STENCIL_BUFFER, .MOCS = 1);
    EMIT7(b, 3DSTATE_HIER_DEPTH_BUFFER, .MOCS = 1);
    EMIT7(b, 3DSTATE_CLEAR_PARAMS, .DepthClearValueValid = false);
    EMIT7(b, 3DPRIMITIVE, .PrimitiveTopologyType = d->topology, .VertexAccessType = 0,
          .VertexCountPerInstance = d->vertices, .InstanceCount = 1);
    EMIT7(b, PIPE_CONTROL, .RenderTargetCacheFlushEnable = true, .DepthCacheFlushEnable = true,
          .CommandStreamerStallEnable = true);
    const uint32_t end = 0x05000000u;
    emit(b, &end, 1);
    if (b->n & 1)
        emit(b, (const uint32_t[]){ 0 }, 1);
    return 0;
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

static int write_gen7(const char *name, bool blend, uint8_t *image, struct batch *b,
                      const struct draw7 *d, const char *out_aub, struct gt_error *err)
{
    if (write_state7(image, blend, d->width, d->height, err) < 0 || build_batch7(d, b, err) < 0)
        return -1;
    memcpy(image + BATCH_OFF, b->dw, b->n * 4);
    /* ValleyView's PCI id as the zero-draw test's (0x0f31) */
    return workload_aub_legacy(out_aub, 0x0f31, name, image, GTT7_BASE, VA_PAGES,
                               GTT7_BASE + BATCH_OFF, err);
}

/* The Gen7 counterparts of the ext tests (workload3d.h): their kernels
 * placed (gs-twice, gs-quads: VS, GS, PS; xfb-tri: gs-twice's, the VS
 * alone used; tess-tri: VS, HS, DS, PS), their vertices and background
 * written, their draw. */
static int write_gen7_own(const char *name, const uint8_t *kernel, size_t klen,
                          const char *kernel_hex, uint8_t *image, struct batch *b,
                          const char *out_aub, struct gt_error *err)
{
    _Static_assert(GTT7_BASE + VERTEX_OFF + 28u * GEN7_GS_QUADS <= GEN7_XFB_BUFFER_GTT &&
                       GEN7_XFB_BUFFER_GTT + 4u * GEN7_XFB_BUFFER_FLOATS <= GTT7_BASE + RT_OFF,
                   "the SO buffer lies between the vertices and the render target");
    bool quads = strcmp(name, "gs-quads") == 0, xfb = strcmp(name, "xfb-tri") == 0;
    bool tess = strcmp(name, "tess-tri") == 0;
    uint32_t at[4], want = tess ? 4u : 3u;
    if (workload_place_kernels(image, KERNEL_OFF, DYN_OFF, kernel, klen, at, want) != (int)want)
        return gt_error_set(err, "%s: expected %u kernels (%s) each ending in an EOT send",
                            kernel_hex, want, tess ? "VS, HS, DS, PS" : "VS, GS, PS");
    const float triangles[GEN7_GS_TRIANGLES * 3][7] = GEN7_GS_VERTICES;
    const float xfb_triangles[GEN7_XFB_TRIANGLES * 3][7] = GEN7_XFB_VERTICES;
    const float patches[GEN7_TESS_PATCHES * 3][7] = GEN7_TESS_VERTICES;
    float points[GEN7_GS_QUADS][7];
    for (uint32_t i = 0; i < GEN7_GS_QUADS; i++)
        gen7_gs_quad_point(i, points[i]);
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
        v = xfb_triangles;
        d.vertices = 3 * GEN7_XFB_TRIANGLES;
        d.stream_output = true;
        const float fill = GEN7_XFB_FILL;
        for (uint32_t i = 0; i < GEN7_XFB_BUFFER_FLOATS; i++)
            memcpy(image + (GEN7_XFB_BUFFER_GTT - GTT7_BASE) + 4u * i, &fill, 4);
    } else {
        d.gs_kernel = at[1];
        d.gs_output = quads ? 5u : 4u;  /* TRISTRIP, TRILIST */
        if (quads) {
            v = (const float (*)[7])points;
            d.vertices = GEN7_GS_QUADS;
            d.topology = 1;             /* POINTLIST */
        }
    }
    write_gs_vertices_and_background(image, v, d.vertices);
    return write_gen7(name, false, image, b, &d, out_aub, err);
}

int workload3d_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                     struct gt_error *err)
{
    bool blend = strcmp(name, "ubench-fill-blend") == 0, gs = strcmp(name, "gs-twice") == 0;
    bool tess = strcmp(name, "tess-tri") == 0, quads = strcmp(name, "gs-quads") == 0;
    bool xfb = strcmp(name, "xfb-tri") == 0;
    if (!blend && !gs && !tess && !quads && !xfb && strcmp(name, "ubench-fill") != 0)
        return gt_error_set(err, "unknown 3D workload '%s' (ubench-fill, ubench-fill-blend, "
                            "gs-twice, gs-quads, xfb-tri, tess-tri)", name);
    if (gen != 9 && gen != 7)
        return gt_error_set(err, "the 3D workloads are written for Gen9 and Gen7, not Gen%d", gen);
    if ((gs || tess || quads || xfb) && gen != 7)
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
