/* workloads/workload3d_gen4.c - the Gen4 (965G) counterparts of the ext
 * suite's strip_fan, instanced and blend_stencil tests (workload3d.h),
 * written as legacy captures (workload_aub_legacy). Each draw is programmed
 * the way Mesa's driver programs the app's draw in the real g965_tri capture
 * (../shared/traces/intel/g965/g965_tri.aubinator.txt, below "L" + line):
 * MI_FLUSH, PIPELINE_SELECT, STATE_BASE_ADDRESS (General State Base = the
 * image, so every state pointer and kernel start pointer is an image
 * offset), then per draw 3DSTATE_BINDING_TABLE_POINTERS, 3DSTATE_DEPTH_BUFFER,
 * 3DSTATE_PIPELINED_POINTERS to the draw's own VS_STATE, GS_STATE, CLIP_STATE,
 * SF_STATE, WM_STATE and CC_STATE, URB_FENCE, CS_URB_STATE,
 * 3DSTATE_DRAWING_RECTANGLE, the vertex buffers and elements, CONSTANT_BUFFER
 * (none), 3DPRIMITIVE; MI_FLUSH at the end. State layouts: seed 001 (the
 * Gen4 PRM 3D volume, ../shared/notes/001-gen4.md §4); the URB_FENCE values,
 * the CLIP guardband and the other fields the seed leaves to the driver are
 * g965_tri's. The image sits at GTT GEN4_GTT_BASE. */
#include "workloads/workload3d.h"
#include "workloads/workload3d_gen4_internal.h"
#include "workloads/workload_aub.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"
#include "units/common/format.h"
#include "spec_gen4_pack.h"

static int emit(struct batch4 *b, const uint32_t *dw, uint32_t n, struct gt_error *err)
{
    if (b->n + n > BATCH_BYTES / 4)
        return gt_error_set(err, "the Gen4 batch is longer than %u bytes", BATCH_BYTES);
    memcpy(b->dw + b->n, dw, n * 4);
    b->n += n;
    return 0;
}

#define EMIT4(b, NAME, ...)                                                                  \
    do {                                                                                     \
        struct GEN4_##NAME cmd_ = { GEN4_##NAME##_header, __VA_ARGS__ };                     \
        uint32_t dw_[GEN4_##NAME##_length];                                                  \
        if (GEN4_##NAME##_pack(dw_, &cmd_) < 0)                                              \
            return gt_error_set(err, #NAME " (Gen4) does not pack");                         \
        if (emit(b, dw_, GEN4_##NAME##_length, err) < 0)                                     \
            return -1;                                                                       \
    } while (0)

/* Draw d's state block (seed 001 §4.4-4.9; values as g965_tri's app draw,
 * L765-1000, where the seed leaves them to the driver). */
int write_draw_state(uint8_t *image, const struct scene *sc, uint32_t d, const uint32_t *kernel,
                     struct gt_error *err)
{
    const struct draw4 *dr = &sc->draws[d];
    uint32_t at = STATE_OFF + d * STATE_BLOCK;
    float half = (float)sc->size / 2.0f;
    /* VS_STATE (L5600-6154): 32 entries of one 512-bit unit (the VUE's two
     * rows), 16 threads, URB data from g1, one row per vertex (the instancing
     * VS's three elements: two) */
    STATE4(image, at + VS_AT, VS_STATE, .KernelStartPointer = kernel[dr->vs],
           .DispatchGRFStartRegisterForURBData = 1,
           .VertexURBEntryReadLength = dr->vs == K_VS_INSTANCED ? 2 : 1,
           .NumberOfURBEntries = 32, .MaximumNumberOfThreads = 15, .Enable = true);
    /* GS_STATE: GS off (3DSTATE_PIPELINED_POINTERS GS Enable 0), zeros */
    memset(image + at + GS_AT, 0, 4 * GEN4_GS_STATE_length);
    /* CLIP_STATE (L9274-9910): NORMAL mode, the viewport XY / Z and guardband
     * tests as g965_tri's (L861-905; guardband +-256), no kernel: the ext
     * tests' objects lie inside the view volume, so none is MUST_CLIP and no
     * CLIP thread is spawned (the test checks it) */
    STATE4(image, at + CLIP_AT, CLIP_STATE, .SingleProgramFlow = true,
           .DispatchGRFStartRegisterForURBData = 1, .VertexURBEntryReadLength = 2,
           .NumberOfURBEntries = 10, .MaximumNumberOfThreads = 1, .ClipMode = 0,
           .GuardbandClipTestEnable = true, .ViewportZClipTestEnable = true,
           .ViewportXYClipTestEnable = true, .ClipperViewportStatePointer = at + CLIP_VIEWPORT_AT,
           .ScreenSpaceViewportXMin = -1, .ScreenSpaceViewportXMax = 1,
           .ScreenSpaceViewportYMin = -1, .ScreenSpaceViewportYMax = 1);
    STATE4(image, at + CLIP_VIEWPORT_AT, CLIP_VIEWPORT, .XMinClipGuardband = -256,
           .XMaxClipGuardband = 256, .YMinClipGuardband = -256, .YMaxClipGuardband = 256);
    /* SF_STATE (L12551-13210): the setup kernel of the draw's object type,
     * URB data (VUE row 1: position, colour) from g3, 8 entries of 2 x 512
     * bits (the transposed planes of 8 attributes: 4 rows), viewport
     * transform on, origin bias 0.5, culling none, lines 1 px wide, points
     * 4 px from the state, GL's point rule (upper right, as g965_tri) */
    STATE4(image, at + SF_AT, SF_STATE, .KernelStartPointer = kernel[dr->sf],
           .DispatchGRFStartRegisterForURBData = 3, .VertexURBEntryReadOffset = 1,
           .VertexURBEntryReadLength = 1, .NumberOfURBEntries = 8, .URBEntryAllocationSize = 1,
           .MaximumNumberOfThreads = 7, .ViewportTransformEnable = true,
           .SetupViewportStateOffset = at + SF_VIEWPORT_AT,
           .DestinationOriginVerticalBias = 0.5, .DestinationOriginHorizontalBias = 0.5,
           .ScissorRectangleEnable = dr->scissor, .PointRasterizationRule = 1,
           .LineWidth = 1.0, .CullMode = 1, .PointWidth = 4.0, .PointWidthSource = 1);
    /* SF_VIEWPORT (L14099-14169): NDC to the whole target, GL rows; depth
     * 0..1; the scissor rectangle */
    uint32_t smin = dr->scissor ? dr->scissor_min : 0;
    uint32_t smax = dr->scissor ? dr->scissor_max : sc->size - 1;
    STATE4(image, at + SF_VIEWPORT_AT, SF_VIEWPORT, .ViewportMatrixElementM00 = half,
           .ViewportMatrixElementM11 = half, .ViewportMatrixElementM22 = 0.5f,
           .ViewportMatrixElementM30 = half, .ViewportMatrixElementM31 = half,
           .ViewportMatrixElementM32 = 0.5f,
           .ScissorRectangle = { .ScissorRectangleXMin = smin, .ScissorRectangleYMin = smin,
                                 .ScissorRectangleXMax = smax, .ScissorRectangleYMax = smax });
    /* WM_STATE (L14825-15463): SIMD16 only, setup rows 0-1 (R, G, B, A
     * planes) from g2, one binding table entry (two: multi-rt's second
     * target, or a textured draw's texture and its SAMPLER_STATE, L15017;
     * Sampler Count, a prefetch hint, is genxml's: the seed has no such
     * field), early depth on (the seed: "should always be ENABLED"), 32
     * threads (g965_tri's); 8 register blocks (128 registers: the PS uses
     * g124-g127, as g965_tri's) */
    STATE4(image, at + WM_AT, WM_STATE, .KernelStartPointer0 = kernel[dr->ps],
           .GRFRegisterCount0 = 7, .SamplerStatePointer = dr->sampler_state,
           .SamplerCount = dr->sampler_state ? 1 : 0,
           .BindingTableEntryCount = sc->two_targets || dr->sampler_state ? 2 : 1,
           .DispatchGRFStartRegisterForConstantSetupData0 = 2,
           .SetupURBEntryReadLength = 2, .DepthCoefficientURBReadOffset = 1,
           ._16PixelDispatchEnable = true, .EarlyDepthTestEnable = true,
           .ThreadDispatchEnable = true, .MaximumNumberOfThreads = 31);
    /* COLOR_CALC_STATE (layout: genxml gen4.xml, the seed has only its
     * heading): the draw's stencil test and blend; CC_VIEWPORT 0..1 */
    STATE4(image, at + CC_AT, COLOR_CALC_STATE, .DepthTestEnable = dr->depth_test,
           .DepthTestFunction = dr->depth_func, .DepthBufferWriteEnable = dr->depth_write,
           .StencilTestEnable = dr->stencil,
           .StencilTestFunction = dr->stencil_func, .StencilPassDepthPassOp = dr->stencil_pass_op,
           .StencilPassDepthFailOp = STENCILOP_KEEP, .StencilFailOp = STENCILOP_KEEP,
           .StencilBufferWriteEnable = dr->stencil_write, .StencilReferenceValue = 1,
           .StencilTestMask = 0xff, .StencilWriteMask = 0xff,
           .ColorBufferBlendEnable = dr->blend, .SourceBlendFactor = dr->src_factor,
           .DestinationBlendFactor = dr->dst_factor, .ColorBlendFunction = dr->blend_func,
           .SourceAlphaBlendFactor = dr->src_factor, .DestinationAlphaBlendFactor = dr->dst_factor,
           .AlphaBlendFunction = dr->blend_func, .CCViewportStatePointer = at + CC_VIEWPORT_AT);
    STATE4(image, at + CC_VIEWPORT_AT, CC_VIEWPORT, .MinimumDepth = 0.0f, .MaximumDepth = 1.0f);
    /* the render target (SURFACE_STATE as g965_tri's, L560-590: 2D,
     * R8G8B8A8_UNORM, X-tiled) with the draw's write disables, and its
     * binding table */
    STATE4(image, SURFACE_OFF + RSS_OFF(d), RENDER_SURFACE_STATE, .SurfaceType = 1,
           .SurfaceFormat = FORMAT_R8G8B8A8_UNORM, .ColorBlendEnable = dr->blend,
           .ColorBufferComponentWriteDisables = dr->write_disables,
           .SurfaceBaseAddress = GEN4_GTT_BASE + sc->rt_off, .Width = sc->size - 1,
           .Height = sc->size - 1, .TiledSurface = true, .TileWalk = 0,
           .SurfacePitch = sc->pitch - 1,
           .CubeFaceEnablePositiveZ = true, .CubeFaceEnableNegativeZ = true,
           .CubeFaceEnablePositiveY = true, .CubeFaceEnableNegativeY = true,
           .CubeFaceEnablePositiveX = true, .CubeFaceEnableNegativeX = true);
    uint32_t entry = RSS_OFF(d);
    memcpy(image + SURFACE_OFF + BT_OFF(d), &entry, 4);
    if (sc->two_targets) {
        /* multi-rt's RT1: R16G16B16A16_FLOAT (a render target format of the
         * seed's surface format table, 001 L4997), the same pitch (64 px
         * of 8 bytes), binding table entry 1 */
        STATE4(image, SURFACE_OFF + RSS_OFF(d) + RSS1_AT, RENDER_SURFACE_STATE, .SurfaceType = 1,
               .SurfaceFormat = FORMAT_R16G16B16A16_FLOAT,
               .SurfaceBaseAddress = GEN4_GTT_BASE + RT1_OFF, .Width = sc->size - 1,
               .Height = sc->size - 1, .TiledSurface = true, .TileWalk = 0,
               .SurfacePitch = GEN4_EXT_PITCH - 1,
               .CubeFaceEnablePositiveZ = true, .CubeFaceEnableNegativeZ = true,
               .CubeFaceEnablePositiveY = true, .CubeFaceEnableNegativeY = true,
               .CubeFaceEnablePositiveX = true, .CubeFaceEnableNegativeX = true);
        entry = RSS_OFF(d) + RSS1_AT;
        memcpy(image + SURFACE_OFF + BT_OFF(d) + 4, &entry, 4);
    }
    return 0;
}

/* 3DSTATE_VERTEX_BUFFERS and _ELEMENTS for the scene's vertex format (seed
 * 001 L3919-4510): strip-fan's one buffer (x, y, then RGBA: the position
 * stored (x, y, 0, 1), the colour); instanced's quad corners and per-
 * instance buffer (offset stored (x, y, 0, 0), colour); blend-stencil's
 * positions and the draw's colour as an INSTANCEDATA buffer of pitch 0
 * (g965_tri's clear feeds its colour so, L57-66); mipmap's clip-space
 * position (x, y, z, w) and texture coordinate (stored (s, t, 0, 1)). */
static int emit_vertex_state(struct batch4 *b, const struct scene *sc, const struct draw4 *dr,
                             struct gt_error *err)
{
    struct GEN4_VERTEX_BUFFER_STATE vb[2] = {
        { .BufferPitch = 24, .VertexBufferIndex = 0,
          .BufferStartingAddress = GEN4_GTT_BASE + sc->vertex_off },
        { .BufferPitch = 24, .BufferAccessType = 1, .VertexBufferIndex = 1,
          .InstanceDataStepRate = 1, .BufferStartingAddress = GEN4_GTT_BASE + INSTANCE_OFF },
    };
    struct GEN4_VERTEX_ELEMENT_STATE position = {
        .SourceElementFormat = FORMAT_R32G32_FLOAT, .Valid = true, .VertexBufferIndex = 0,
        .Component0Control = COMP_SRC, .Component1Control = COMP_SRC,
        .Component2Control = COMP_0, .Component3Control = COMP_1_FP };
    struct GEN4_VERTEX_ELEMENT_STATE colour = {
        .SourceElementFormat = FORMAT_R32G32B32A32_FLOAT, .Valid = true,
        .SourceElementOffset = 8, .DestinationElementOffset = 4,
        .Component0Control = COMP_SRC, .Component1Control = COMP_SRC,
        .Component2Control = COMP_SRC, .Component3Control = COMP_SRC };
    struct GEN4_VERTEX_ELEMENT_STATE offset = {
        .SourceElementFormat = FORMAT_R32G32_FLOAT, .Valid = true, .VertexBufferIndex = 1,
        .DestinationElementOffset = 4, .Component0Control = COMP_SRC,
        .Component1Control = COMP_SRC, .Component2Control = COMP_0, .Component3Control = COMP_0 };
    struct GEN4_VERTEX_ELEMENT_STATE el[3] = { position, colour, colour };
    uint32_t buffers = 1, elements = 2;
    if (sc->format == FORMAT_INSTANCED) {
        vb[0].BufferPitch = 8;
        buffers = 2;
        el[1] = offset;
        el[2].VertexBufferIndex = 1;
        el[2].DestinationElementOffset = 8;
        elements = 3;
    } else if (sc->format == FORMAT_POSITION3_UNORM8) {
        /* fill-heavy: (x, y, z) floats stored (x, y, z, 1), the colour
         * R8G8B8A8_UNORM at byte 12, 16 bytes a vertex */
        vb[0].BufferPitch = 16;
        el[0].SourceElementFormat = FORMAT_R32G32B32_FLOAT;
        el[0].Component2Control = COMP_SRC;
        el[1].SourceElementFormat = FORMAT_R8G8B8A8_UNORM;
        el[1].SourceElementOffset = 12;
    } else if (sc->format == FORMAT_POSITION_CONSTANT) {
        vb[0].BufferPitch = 8;
        vb[1].BufferPitch = 0;
        vb[1].InstanceDataStepRate = 0;
        vb[1].BufferStartingAddress = GEN4_GTT_BASE + dr->colour_off;
        buffers = 2;
        el[1].VertexBufferIndex = 1;
        el[1].SourceElementOffset = 0;
    } else if (sc->format == FORMAT_CLIP_POSITION_TEXCOORD) {
        el[0].SourceElementFormat = FORMAT_R32G32B32A32_FLOAT;
        el[0].Component2Control = el[0].Component3Control = COMP_SRC;
        el[1] = position;
        el[1].SourceElementOffset = 16;
        el[1].DestinationElementOffset = 4;
    }
    uint32_t dw[1 + 4 * 2 + 2 * 3];
    struct GEN4_3DSTATE_VERTEX_BUFFERS vbs = { GEN4_3DSTATE_VERTEX_BUFFERS_header };
    vbs.DWordLength = 4 * buffers - 1;
    GEN4_3DSTATE_VERTEX_BUFFERS_pack(dw, &vbs);
    for (uint32_t i = 0; i < buffers; i++)
        if (GEN4_VERTEX_BUFFER_STATE_pack(dw + 1 + 4 * i, &vb[i]) < 0)
            return gt_error_set(err, "VERTEX_BUFFER_STATE (Gen4) does not pack");
    if (emit(b, dw, 1 + 4 * buffers, err) < 0)
        return -1;
    struct GEN4_3DSTATE_VERTEX_ELEMENTS ves = { GEN4_3DSTATE_VERTEX_ELEMENTS_header };
    ves.DWordLength = 2 * elements - 1;
    GEN4_3DSTATE_VERTEX_ELEMENTS_pack(dw, &ves);
    for (uint32_t i = 0; i < elements; i++)
        if (GEN4_VERTEX_ELEMENT_STATE_pack(dw + 1 + 2 * i, &el[i]) < 0)
            return gt_error_set(err, "VERTEX_ELEMENT_STATE (Gen4) does not pack");
    return emit(b, dw, 1 + 2 * elements, err);
}

int build_batch4(const struct scene *sc, struct batch4 *b, struct gt_error *err)
{
    EMIT4(b, MI_FLUSH, .StateInstructionCacheInvalidate = 0);               /* L8 */
    EMIT4(b, PIPELINE_SELECT, .PipelineSelection = 0);
    EMIT4(b, STATE_BASE_ADDRESS, .GeneralStateBaseAddressModifyEnable = true,
          .GeneralStateBaseAddress = GEN4_GTT_BASE,
          .SurfaceStateBaseAddressModifyEnable = true,
          .SurfaceStateBaseAddress = GEN4_GTT_BASE + SURFACE_OFF,
          .IndirectObjectBaseAddressModifyEnable = true,
          .GeneralStateAccessUpperBoundModifyEnable = true,
          .GeneralStateAccessUpperBound = 0xfffff000u,
          .IndirectObjectAccessUpperBoundModifyEnable = true);               /* L36-57 */
    for (uint32_t d = 0; d < sc->draw_count; d++) {
        const struct draw4 *dr = &sc->draws[d];
        uint32_t at = STATE_OFF + d * STATE_BLOCK;     /* General State Base-relative */
        EMIT4(b, 3DSTATE_BINDING_TABLE_POINTERS, .PointerToPSBindingTable = BT_OFF(d));
        if (sc->depth_stencil)
            /* D24_UNORM_S8_UINT (format 2) or D16_UNORM (5, genxml gen4.xml
             * 3DSTATE_DEPTH_BUFFER), Y-major tiled (the only walk the seed
             * allows, L17094-17653), as g965_tri's depth buffer (L701-716) */
            EMIT4(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 1, .SurfaceFormat = sc->depth16 ? 5 : 2,
                  .TiledSurface = true, .TileWalk = 1,
                  .SurfacePitch = (sc->depth16 ? 2 : 4) * sc->size - 1,
                  .SurfaceBaseAddress = GEN4_GTT_BASE + sc->depth_off, .Width = sc->size - 1,
                  .Height = sc->size - 1);
        else
            EMIT4(b, 3DSTATE_DEPTH_BUFFER, .SurfaceType = 7, .SurfaceFormat = 1);   /* NULL */
        EMIT4(b, 3DSTATE_PIPELINED_POINTERS, .PointerToVSState = at + VS_AT,
              .GSEnable = false, .PointerToGSState = at + GS_AT, .ClipEnable = true,
              .PointerToCLIPState = at + CLIP_AT, .PointerToSFState = at + SF_AT,
              .PointerToWMState = at + WM_AT, .PointerToColorCalcState = at + CC_AT);
        /* the URB's regions in 512-bit rows, g965_tri's (L1004-1021): VS
         * 0-32 (32 VUEs of one), GS 32-40, CLIP 40-50, SF 50-66 (8 PUEs of
         * two), CS 66-256 (no constants: CS_URB_STATE none) */
        EMIT4(b, URB_FENCE, .VSUnitURBReallocationRequest = true,
              .GSUnitURBReallocationRequest = true, .CLIPUnitURBReallocationRequest = true,
              .SFUnitURBReallocationRequest = true, .VFEUnitURBReallocationRequest = true,
              .CSUnitURBReallocationRequest = true, .VSFence = 32, .GSFence = 40,
              .CLIPFence = 50, .SFFence = 66, .VFEFence = 0, .CSFence = 256);
        EMIT4(b, CS_URB_STATE, .NumberOfURBEntries = 0);
        EMIT4(b, 3DSTATE_DRAWING_RECTANGLE, .ClippedDrawingRectangleXMax = sc->size - 1,
              .ClippedDrawingRectangleYMax = sc->size - 1);
        if (emit_vertex_state(b, sc, dr, err) < 0)
            return -1;
        if (dr->indexed)
            /* 16-bit indices; the end on the last byte of a 64-byte line
             * (the [DevBW, DevCL] erratum, L3733-3878) */
            EMIT4(b, 3DSTATE_INDEX_BUFFER, .IndexFormat = 1,
                  .BufferStartingAddress = GEN4_GTT_BASE + INDEX_OFF,
                  .BufferEndingAddress = GEN4_GTT_BASE + INDEX_OFF + 63);
        EMIT4(b, CONSTANT_BUFFER, .BufferLength = 0);       /* Valid 0: no constants */
        EMIT4(b, 3DPRIMITIVE, .PrimitiveTopologyType = dr->topology,
              .VertexAccessType = dr->indexed ? 1 : 0, .VertexCountPerInstance = dr->count,
              .StartVertexLocation = dr->first, .InstanceCount = dr->instances);
    }
    EMIT4(b, MI_FLUSH, .StateInstructionCacheInvalidate = 0);
    /* MI_BATCH_BUFFER_END, and an MI_NOOP to an even length */
    const uint32_t end[2] = { 0x05000000u, 0 };
    return emit(b, end, (b->n & 1) ? 1 : 2, err);
}

/* The draws of each scene (workload3d.h). */
static int describe(const char *name, uint8_t *image, struct scene *sc, uint32_t *kernel,
                    struct gt_error *err)
{
    (void)kernel;       /* strip-fan.gen4.g4a's kernels in their own slots */
    scene_init(sc, IMAGE_BYTES);
    const struct draw4 base = { .instances = 1, .vs = K_VS, .sf = K_SF_TRIANGLE, .ps = K_PS,
                                .src_factor = BLEND_ONE, .dst_factor = BLEND_ZERO };
    float bg[4];
    if (strcmp(name, "strip-fan") == 0) {
        sc->size = GEN4_STRIP_FAN_SIZE;
        sc->format = FORMAT_POSITION_COLOUR;
        float v[GEN4_STRIP_FAN_VERTICES][6];
        for (uint32_t i = 0; i < GEN4_STRIP_FAN_VERTICES; i++)
            gen4_strip_fan_vertex(i, v[i]);
        memcpy(image + VERTEX_OFF, v, sizeof v);
        static const struct { uint32_t topology, first, count; enum kernel sf; } d[5] = {
            { TOPO_TRISTRIP, 0, 6, K_SF_TRIANGLE }, { TOPO_TRIFAN, 6, 10, K_SF_TRIANGLE },
            { TOPO_LINELIST, 16, 8, K_SF_LINE }, { TOPO_LINESTRIP, 24, 5, K_SF_LINE },
            { TOPO_POINTLIST, 29, 5, K_SF_POINT },
        };
        for (uint32_t i = 0; i < 5; i++) {
            sc->draws[i] = base;
            sc->draws[i].topology = d[i].topology;
            sc->draws[i].first = d[i].first;
            sc->draws[i].count = d[i].count;
            sc->draws[i].sf = d[i].sf;
        }
        sc->draw_count = 5;
        memcpy(bg, (const float[4]){ 0, 0, 0.2f, 1 }, sizeof bg);
    } else if (strcmp(name, "instanced") == 0) {
        sc->size = GEN4_INSTANCED_SIZE;
        sc->format = FORMAT_INSTANCED;
        const float quad[8] = GEN4_INSTANCED_QUAD;
        const uint16_t idx[6] = GEN4_INSTANCED_INDICES;
        float inst[GEN4_INSTANCES][6];
        for (uint32_t i = 0; i < GEN4_INSTANCES; i++)
            gen4_instance(i, inst[i]);
        memcpy(image + VERTEX_OFF, quad, sizeof quad);
        memcpy(image + INSTANCE_OFF, inst, sizeof inst);
        memcpy(image + INDEX_OFF, idx, sizeof idx);
        sc->draws[0] = base;
        sc->draws[0].topology = TOPO_TRILIST;
        sc->draws[0].count = 6;
        sc->draws[0].instances = GEN4_INSTANCES;
        sc->draws[0].indexed = true;
        sc->draws[0].vs = K_VS_INSTANCED;
        sc->draw_count = 1;
        memcpy(bg, (const float[4]){ 0.1f, 0.1f, 0.1f, 1 }, sizeof bg);
    } else if (strcmp(name, "blend-stencil") == 0) {
        sc->size = GEN4_BLEND_STENCIL_SIZE;
        sc->format = FORMAT_POSITION_CONSTANT;
        sc->depth_stencil = true;
        const float v[] = GEN4_BLEND_STENCIL_VERTICES;
        memcpy(image + VERTEX_OFF, v, sizeof v);
        /* gltrace_ext.c test_blend_stencil: 1 stencil-only triangle (colour
         * writes off, ALWAYS / REPLACE ref 1); 2 the full quad, EQUAL 1, blue;
         * 3 the quad, NOTEQUAL 1, ONE / ONE add of (0.4, 0.2, 0, 0); 4 the
         * left half, DST_COLOR / ZERO of (0.5, 1, 1, 1); 5 the bottom half,
         * MAX of (0.5, 0.5, 0.5, 0.5); 6 the quad in a 16 x 16 scissor from
         * (40, 40), white, green only */
        static const float colours[6][4] = {
            { 1, 1, 1, 1 }, { 0, 0, 1, 1 }, { 0.4f, 0.2f, 0, 0 }, { 0.5f, 1, 1, 1 },
            { 0.5f, 0.5f, 0.5f, 0.5f }, { 1, 1, 1, 1 },
        };
        static const uint32_t topo[6] = { TOPO_TRILIST, TOPO_TRISTRIP, TOPO_TRISTRIP,
                                          TOPO_TRISTRIP, TOPO_TRISTRIP, TOPO_TRISTRIP };
        static const uint32_t first[6] = { 0, 3, 3, 7, 11, 3 }, count[6] = { 3, 4, 4, 4, 4, 4 };
        for (uint32_t i = 0; i < 6; i++) {
            struct draw4 *dr = &sc->draws[i];
            *dr = base;
            dr->topology = topo[i];
            dr->first = first[i];
            dr->count = count[i];
            dr->colour_off = INSTANCE_OFF + 16 * i;
            memcpy(image + dr->colour_off, colours[i], 16);
        }
        sc->draws[0].stencil = true;
        sc->draws[0].stencil_func = CMP_ALWAYS;
        sc->draws[0].stencil_pass_op = STENCILOP_REPLACE;
        sc->draws[0].stencil_write = true;
        sc->draws[0].write_disables = 0xf;
        sc->draws[1].stencil = true;
        sc->draws[1].stencil_func = CMP_EQUAL;
        sc->draws[2].stencil = true;
        sc->draws[2].stencil_func = CMP_NOTEQUAL;
        sc->draws[2].blend = true;
        sc->draws[3].blend = true;
        sc->draws[3].src_factor = BLEND_DST_COLOR;
        sc->draws[4].blend = true;
        sc->draws[4].blend_func = BLENDFUNC_MAX;
        for (uint32_t i = 2; i < 5; i++)
            if (i != 3)
                sc->draws[i].dst_factor = BLEND_ONE;
        sc->draws[5].scissor = true;
        sc->draws[5].scissor_min = 40;
        sc->draws[5].scissor_max = 55;
        sc->draws[5].write_disables = 0xd;     /* alpha 3, red 2, blue 0 off: green only */
        sc->draw_count = 6;
        memcpy(bg, (const float[4]){ 0.2f, 0.2f, 0.2f, 1 }, sizeof bg);
    } else if (strcmp(name, "multi-rt") == 0) {
        /* gltrace_ext.c test_multi_rt (the scene of workload3d.h's Gen7
         * "multi-rt"): the triangle with its varying uv = pos / 2 + 1/2 as
         * the vertex colour (u, v, 0.5, 1), worked out here in float as the
         * GL test's VS does (the strip-fan VS passes it on); the two-target
         * PS; RT1 cleared to GEN7_MULTI_RT_CLEAR1 as half floats */
        sc->size = GEN7_MULTI_RT_SIZE;
        sc->format = FORMAT_POSITION_COLOUR;
        sc->two_targets = true;
        const float tri[6] = GEN7_MULTI_RT_TRIANGLE;
        float v[3][6];
        for (uint32_t k = 0; k < 3; k++) {
            v[k][0] = tri[2 * k];
            v[k][1] = tri[2 * k + 1];
            v[k][2] = tri[2 * k] * 0.5f + 0.5f;
            v[k][3] = tri[2 * k + 1] * 0.5f + 0.5f;
            v[k][4] = 0.5f;
            v[k][5] = 1.0f;
        }
        memcpy(image + VERTEX_OFF, v, sizeof v);
        sc->draws[0] = base;
        sc->draws[0].topology = TOPO_TRILIST;
        sc->draws[0].count = 3;
        sc->draws[0].ps = K_PS_TWO_RT;
        sc->draw_count = 1;
        memcpy(bg, (const float[4])GEN7_MULTI_RT_CLEAR0, sizeof bg);
        const float clear1[4] = GEN7_MULTI_RT_CLEAR1;
        uint16_t half[4];
        for (uint32_t k = 0; k < 4; k++)
            half[k] = format_float_to_half(clear1[k]);
        for (uint32_t i = 0; i < GEN4_EXT_PITCH / 8 * sc->size; i++)
            memcpy(image + RT1_OFF + 8 * i, half, 8);
    } else if (strcmp(name, "fill-heavy") == 0) {
        sc->size = GEN4_FILL_HEAVY_SIZE;
        sc->format = FORMAT_POSITION3_UNORM8;
        sc->depth_stencil = sc->depth16 = true;
        sc->pitch = FILL_PITCH;
        sc->rt_off = FILL_RT_OFF;
        sc->depth_off = FILL_DEPTH_OFF;
        sc->vertex_off = FILL_VERTEX_OFF;
        sc->image_bytes = FILL_IMAGE_BYTES;
        _Static_assert(sizeof(struct gen4_fill_vertex) == 16, "16 bytes a vertex");
        gen4_fill_heavy_triangles((struct gen4_fill_vertex *)(image + FILL_VERTEX_OFF));
        /* the depth clear: 1.0 is 0xffff in D16 */
        memset(image + FILL_DEPTH_OFF, 0xff, 2u * sc->size * sc->size);
        const uint32_t half = 3 * GEN4_FILL_HEAVY_TRIANGLES / 2;
        for (uint32_t d = 0; d < 2; d++) {
            struct draw4 *dr = &sc->draws[d];
            *dr = base;
            dr->topology = TOPO_TRILIST;
            dr->first = d * half;
            dr->count = half;
            dr->depth_test = true;
            dr->depth_func = d ? CMP_LEQUAL : CMP_LESS;
            dr->depth_write = d == 0;
            dr->blend = true;
            dr->src_factor = BLEND_SRC_ALPHA;
            dr->dst_factor = d ? BLEND_ONE : BLEND_INV_SRC_ALPHA;
        }
        sc->draw_count = 2;
        memcpy(bg, (const float[4]){ 0.05f, 0.05f, 0.1f, 1 }, sizeof bg);
    } else {
        return gt_error_set(err, "unknown Gen4 3D workload '%s' (strip-fan, instanced, "
                            "blend-stencil, multi-rt, fill-heavy)", name);
    }
    clear_target(image, sc, bg);
    return 0;
}

void scene_init(struct scene *sc, uint32_t image_bytes)
{
    memset(sc, 0, sizeof *sc);
    sc->pitch = GEN4_EXT_PITCH;
    sc->rt_off = RT_OFF;
    sc->depth_off = DEPTH_OFF;
    sc->vertex_off = VERTEX_OFF;
    sc->image_bytes = image_bytes;
}

void clear_target(uint8_t *image, const struct scene *sc, const float bg[4])
{
    /* the clear colour in every pixel, as unorm8 (R, G, B, A bytes) */
    uint8_t px[4];
    for (uint32_t k = 0; k < 4; k++)
        px[k] = (uint8_t)(bg[k] * 255.0f + 0.5f);
    for (uint32_t i = 0; i < sc->pitch / 4 * sc->size; i++)
        memcpy(image + sc->rt_off + 4 * i, px, 4);
}

int gen4_write_capture(const struct gen4_capture *c, const char *name, const char *kernel_hex,
                       const char *out_aub, struct gt_error *err)
{
    uint8_t *code = NULL;
    size_t len = 0;
    if (c->kernel_count > GEN4_MAX_KERNELS)
        return gt_error_set(err, "%u Gen4 kernels: at most %u", c->kernel_count, GEN4_MAX_KERNELS);
    if (eu_load_kernel_file(kernel_hex, &code, &len, err) < 0)
        return -1;
    uint8_t *image = calloc(1, c->image_bytes);
    struct batch4 *b = calloc(1, sizeof *b);
    struct scene *sc = calloc(1, sizeof *sc);
    int rc = -1;
    uint32_t kernel[GEN4_MAX_KERNELS];
    if (!image || !b || !sc) {
        gt_error_set(err, "out of memory");
        goto done;
    }
    if (workload_place_kernels(image, KERNEL_OFF, STATE_OFF, code, len, kernel,
                               c->kernel_count) != (int)c->kernel_count) {
        gt_error_set(err, "%s: expected %u Gen4 kernels (%s) each ending in an EOT send",
                     kernel_hex, c->kernel_count, c->kernels_named);
        goto done;
    }
    if (c->describe(name, image, sc, kernel, err) < 0)
        goto done;
    if (sc->image_bytes > c->image_bytes || sc->image_bytes % 4096u) {
        gt_error_set(err, "%s: a scene of %u bytes in an image of %u", name, sc->image_bytes,
                     c->image_bytes);
        goto done;
    }
    for (uint32_t d = 0; d < sc->draw_count; d++)
        if (write_draw_state(image, sc, d, kernel, err) < 0)
            goto done;
    if (build_batch4(sc, b, err) < 0)
        goto done;
    memcpy(image + BATCH_OFF, b->dw, 4 * b->n);
    /* the 965G's PCI id, g965_tri's (0x29a2) */
    rc = workload_aub_legacy(out_aub, 0x29a2, name, image, GEN4_GTT_BASE, sc->image_bytes / 4096,
                             GEN4_GTT_BASE + BATCH_OFF, err);
done:
    free(code);
    free(image);
    free(b);
    free(sc);
    return rc;
}

int workload3d_gen4_build(const char *name, const char *kernel_hex, const char *out_aub,
                          struct gt_error *err)
{
    const struct gen4_capture ext = { FILL_IMAGE_BYTES, K_COUNT,
                                      "VS, instancing VS, SF triangle, line, point, PS, "
                                      "two-target PS", describe };
    return gen4_write_capture(&ext, name, kernel_hex, out_aub, err);
}
