/* workloads/workload7.c - writes the Gen7 (ValleyView) compute workloads of
 * workload.h ("cs-reduce", "cs-atomic", "cs-sgemm", "cs-sgemm-tiled",
 * "cs-big", "cs-big-full") as legacy Gen7 AUBs (workload_aub.h).
 *
 * The batch follows crocus's dispatch in the real byt_compute capture
 * (../shared/traces/intel/byt/byt_compute.aubinator.txt): PIPELINE_SELECT
 * GPGPU (L74), the L3 partition by MI_LOAD_REGISTER_IMM of L3SQCREG1,
 * L3CNTLREG2 (SLM Enable set) and L3CNTLREG3 with the capture's values
 * (L167-210; fields: reference/genxml/gen7.xml; the model's Gen7 L3 keeps
 * its config's partition: the command streamer passes on Gen8+'s L3CNTLREG
 * only, units/cs/cs_registers.c), STATE_BASE_ADDRESS (L247),
 * MEDIA_VFE_STATE (L344: GPGPU mode, gateway bypass, 32 threads),
 * MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD (L383-421: one 32-byte
 * INTERFACE_DESCRIPTOR_DATA, CURBE read length 1), GPGPU_WALKER (L617: SIMD16,
 * full right mask), MEDIA_STATE_FLUSH (L645) and a CS-stalling, DC-flushing
 * PIPE_CONTROL (L651). Not written: the capture's other PIPE_CONTROLs (cache
 * invalidations and post-sync writes the model does not need), Mesa's
 * scratch space. Buffers are Gen7 RENDER_SURFACE_STATEs (32 bytes) of
 * SURFTYPE_BUFFER, RAW format, size - 1 split over Width/Height/Depth (L447-
 * 611). Unlike the capture, each thread's CURBE register holds its index in
 * the group (dword 0), not Mesa's per-lane local IDs: the kernels derive the
 * lanes' IDs from it. */
#include "workloads/workload.h"
#include "workloads/workload_aub.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "isa/intel/eu_isa.h"
#include "spec_gen7_pack.h"

/* The window's contents (WORKLOAD_GTT7_BASE-relative). */
#define KERNEL_OFF 0x00000u         /* Instruction Base = the window, KSP 0 */
#define DYN_OFF 0x10000u            /* Dynamic State Base: the descriptor at 0, CURBE at 0x100 */
#define CURBE_OFF 0x100u
#define SURF_OFF 0x20000u           /* Surface State Base: binding table at 0, states at 0x100 */
#define BATCH_OFF 0x30000u
#define MAX_SURFACES 4u

_Static_assert(WORKLOAD7_BUFFERS_GTT >= WORKLOAD_GTT7_BASE + BATCH_OFF + 0x1000u,
               "the buffers lie after the batch");

/* Mesa's L3 partition for the compute dispatch on ValleyView, as the capture
 * programs it: L3SQCREG1 (0xb010), L3CNTLREG2 (0xb020: SLM Enable, URB 8, RO
 * 16, DC 8 ways), L3CNTLREG3 (0xb024). */
static const uint32_t l3_registers[3][2] = {
    { 0xb010, 0x00d30000 }, { 0xb020, 0x01040011 }, { 0xb024, 0x00000000 },
};

struct shape7 {
    uint32_t groups_x, groups_y, threads;   /* SIMD16 threads per group */
    uint32_t slm_bytes;                     /* 0: no SLM */
    bool barrier;
    uint32_t surfaces, bytes[MAX_SURFACES];
};

struct batch7 {
    uint32_t dw[256];
    uint32_t n;
};

#define EMIT7(b, NAME, ...)                                                                  \
    do {                                                                                     \
        struct GEN7_##NAME cmd_ = { GEN7_##NAME##_header, __VA_ARGS__ };                     \
        if ((b)->n + GEN7_##NAME##_length > 256 ||                                           \
            GEN7_##NAME##_pack((b)->dw + (b)->n, &cmd_) < 0)                                 \
            return gt_error_set(err, #NAME " (Gen7) does not pack");                         \
        (b)->n += GEN7_##NAME##_length;                                                      \
    } while (0)

/* The batch, and the descriptor, CURBE, binding table and surface states
 * into image (the window). */
static int build7(const struct shape7 *sh, uint32_t stride, uint8_t *image, struct batch7 *b,
                  struct gt_error *err)
{
    const uint32_t base = WORKLOAD_GTT7_BASE;
    EMIT7(b, PIPE_CONTROL, .CommandStreamerStallEnable = true, .DCFlushEnable = true);
    EMIT7(b, PIPELINE_SELECT, .PipelineSelection = GEN7_PIPELINE_SELECT_PipelineSelection_GPGPU);
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t lri[3] = { 0x11000001u, l3_registers[i][0], l3_registers[i][1] };
        memcpy(b->dw + b->n, lri, sizeof lri);
        b->n += 3;
    }
    EMIT7(b, STATE_BASE_ADDRESS, .GeneralStateBaseAddressModifyEnable = true,
          .SurfaceStateBaseAddressModifyEnable = true, .SurfaceStateMOCS = 1,
          .SurfaceStateBaseAddress = base + SURF_OFF,
          .DynamicStateBaseAddressModifyEnable = true, .DynamicStateMOCS = 1,
          .DynamicStateBaseAddress = base + DYN_OFF,
          .IndirectObjectBaseAddressModifyEnable = true,
          .InstructionBaseAddressModifyEnable = true, .InstructionMOCS = 1,
          .InstructionBaseAddress = base + KERNEL_OFF,
          .GeneralStateAccessUpperBoundModifyEnable = true,
          .DynamicStateAccessUpperBoundModifyEnable = true,
          .DynamicStateAccessUpperBound = 0xfffff000,
          .IndirectObjectAccessUpperBoundModifyEnable = true,
          .InstructionAccessUpperBoundModifyEnable = true);
    EMIT7(b, MEDIA_VFE_STATE, .GPGPUMode = true, .BypassGatewayControl = 1,
          .ResetGatewayTimer = 1, .MaximumNumberOfThreads = 31,
          .CURBEAllocationSize = sh->threads);
    EMIT7(b, MEDIA_CURBE_LOAD, .CURBETotalDataLength = 32 * sh->threads,
          .CURBEDataStartAddress = CURBE_OFF);
    EMIT7(b, MEDIA_INTERFACE_DESCRIPTOR_LOAD, .InterfaceDescriptorTotalLength = 32,
          .InterfaceDescriptorDataStartAddress = 0);
    EMIT7(b, GPGPU_WALKER, .ThreadWidthCounterMaximum = sh->threads - 1, .SIMDSize = 1,
          .ThreadGroupIDXDimension = sh->groups_x, .ThreadGroupIDYDimension = sh->groups_y,
          .ThreadGroupIDZDimension = 1, .RightExecutionMask = 0xffff,
          .BottomExecutionMask = 0xffffffffu);
    EMIT7(b, MEDIA_STATE_FLUSH);
    EMIT7(b, PIPE_CONTROL, .CommandStreamerStallEnable = true, .DCFlushEnable = true,
          .RenderTargetCacheFlushEnable = true);
    b->dw[b->n++] = 0x05000000u;        /* MI_BATCH_BUFFER_END */
    if (b->n & 1)
        b->dw[b->n++] = 0;

    /* Shared Local Memory Size: the allocation rounded up to a power of two
     * of at least 4 KB, in 4 KB units (Gen7: 0, 1, 2, 4, 8, 16 for 0 to 64
     * KB; Mesa's encode_slm_size) */
    uint32_t slm = sh->slm_bytes ? 4096u : 0u;
    while (slm && slm < sh->slm_bytes)
        slm *= 2;
    struct GEN7_INTERFACE_DESCRIPTOR_DATA id = { .KernelStartPointer = KERNEL_OFF,
        .BindingTablePointer = 0, .BindingTableEntryCount = sh->surfaces,
        .ConstantURBEntryReadLength = 1, .NumberOfThreadsInGPGPUThreadGroup = sh->threads,
        .SharedLocalMemorySize = slm / 4096u, .BarrierEnable = sh->barrier };
    uint32_t idw[8] = { 0 };
    if (GEN7_INTERFACE_DESCRIPTOR_DATA_pack(idw, &id) < 0)
        return gt_error_set(err, "INTERFACE_DESCRIPTOR_DATA (Gen7) does not pack");
    memcpy(image + DYN_OFF, idw, sizeof idw);
    for (uint32_t t = 0; t < sh->threads; t++) {
        uint32_t reg[8] = { t, 0, 0, 0, 0, 0, 0, 0 };
        memcpy(image + DYN_OFF + CURBE_OFF + 32 * t, reg, sizeof reg);
    }
    for (uint32_t s = 0; s < sh->surfaces; s++) {
        uint32_t size = sh->bytes[s] - 1;
        struct GEN7_RENDER_SURFACE_STATE ss = { .SurfaceType = 4 /* SURFTYPE_BUFFER */,
            .SurfaceFormat = 0x1ff /* RAW */, .SurfaceVerticalAlignment = 1, .MOCS = 1,
            .Width = size & 0x7f, .Height = (size >> 7) & 0x3fff, .Depth = (size >> 21) & 0x3f,
            .SurfaceBaseAddress = WORKLOAD7_BUFFER_GTT(s, stride) };
        uint32_t sdw[8] = { 0 };
        if (GEN7_RENDER_SURFACE_STATE_pack(sdw, &ss) < 0)
            return gt_error_set(err, "RENDER_SURFACE_STATE (Gen7) does not pack");
        uint32_t entry = 0x100 + 32 * s;
        memcpy(image + SURF_OFF + entry, sdw, sizeof sdw);
        memcpy(image + SURF_OFF + 4 * s, &entry, 4);
    }
    return 0;
}

/* The shape of workload `name`, or false. */
static bool shape_of(const char *name, struct shape7 *sh)
{
    const uint32_t mat = WORKLOAD7_SGEMM_N * WORKLOAD7_SGEMM_N * 4u;
    if (strcmp(name, "cs-reduce") == 0)
        *sh = (struct shape7){ .groups_x = WORKLOAD7_REDUCE_GROUPS, .groups_y = 1,
                               .threads = 16, .slm_bytes = 256 * 4, .barrier = true,
                               .surfaces = 2,
                               .bytes = { WORKLOAD7_REDUCE_GROUPS * WORKLOAD7_REDUCE_PER_GROUP * 4,
                                          WORKLOAD7_REDUCE_GROUPS * 4 } };
    else if (strcmp(name, "cs-atomic") == 0)
        *sh = (struct shape7){ .groups_x = WORKLOAD7_ATOMIC_N / 256, .groups_y = 1,
                               .threads = 16, .surfaces = 3,
                               .bytes = { WORKLOAD7_ATOMIC_N * 4, WORKLOAD7_ATOMIC_BINS * 4, 4 } };
    else if (strcmp(name, "cs-sgemm") == 0)
        *sh = (struct shape7){ .groups_x = WORKLOAD7_SGEMM_N / 8, .groups_y = WORKLOAD7_SGEMM_N / 8,
                               .threads = 4, .surfaces = 3, .bytes = { mat, mat, mat } };
    else if (strcmp(name, "cs-sgemm-tiled") == 0)
        *sh = (struct shape7){ .groups_x = WORKLOAD7_SGEMM_N / 16,
                               .groups_y = WORKLOAD7_SGEMM_N / 16, .threads = 16,
                               .slm_bytes = 2 * 16 * 16 * 4, .barrier = true, .surfaces = 4,
                               .bytes = { mat, mat, 4, mat } };
    else if (strcmp(name, "cs-big") == 0 || strcmp(name, "cs-big-full") == 0) {
        uint32_t n = strcmp(name, "cs-big") == 0 ? WORKLOAD7_BIG_N : WORKLOAD7_BIG_FULL_N;
        *sh = (struct shape7){ .groups_x = n / 64, .groups_y = 1, .threads = 4, .surfaces = 3,
                               .bytes = { n * 4, n * 4, n * 4 } };
    } else
        return false;
    return true;
}

static void put_float(uint8_t *image, uint64_t gtt, float v)
{
    memcpy(image + (gtt - WORKLOAD_GTT7_BASE), &v, 4);
}

/* The buffers' contents before the dispatch (workload.h). */
static void write_inputs(const char *name, const struct shape7 *sh, uint32_t stride,
                         uint8_t *image)
{
    const uint64_t in = WORKLOAD7_BUFFER_GTT(0, stride), b1 = WORKLOAD7_BUFFER_GTT(1, stride);
    if (strcmp(name, "cs-reduce") == 0) {
        for (uint32_t i = 0; i < sh->bytes[0] / 4; i++)
            put_float(image, in + 4ull * i, workload7_reduce_input(i));
        for (uint32_t g = 0; g < WORKLOAD7_REDUCE_GROUPS; g++)
            put_float(image, b1 + 4ull * g, -1.0f);
    } else if (strcmp(name, "cs-atomic") == 0) {
        uint32_t x = 12345;
        for (uint32_t i = 0; i < WORKLOAD7_ATOMIC_N; i++) {
            uint32_t v = workload7_lcg(&x);
            memcpy(image + (in - WORKLOAD_GTT7_BASE) + 4ull * i, &v, 4);
        }
    } else if (strncmp(name, "cs-sgemm", 8) == 0) {
        const uint32_t n = WORKLOAD7_SGEMM_N;
        for (uint32_t r = 0; r < n; r++)
            for (uint32_t c = 0; c < n; c++) {
                put_float(image, in + 4ull * (r * n + c), workload7_sgemm_a(r, c));
                put_float(image, b1 + 4ull * (r * n + c), workload7_sgemm_b(r, c));
            }
        uint64_t out = WORKLOAD7_BUFFER_GTT(sh->surfaces - 1, stride);
        for (uint32_t i = 0; i < n * n; i++)
            put_float(image, out + 4ull * i, -999.0f);
    } else {
        for (uint32_t i = 0; i < sh->bytes[0] / 4; i++) {
            put_float(image, in + 4ull * i, workload7_big_a(i));
            put_float(image, b1 + 4ull * i, workload7_big_b(i));
        }
    }
}

int workload7_build(const char *name, const char *kernel_hex, const char *out_aub,
                    struct gt_error *err)
{
    struct shape7 sh;
    if (!shape_of(name, &sh))
        return gt_error_set(err, "unknown Gen7 compute workload '%s' (cs-reduce, cs-atomic, "
                            "cs-sgemm, cs-sgemm-tiled, cs-big, cs-big-full)", name);
    uint32_t largest = 0;
    for (uint32_t s = 0; s < sh.surfaces; s++)
        largest = sh.bytes[s] > largest ? sh.bytes[s] : largest;
    const uint32_t stride = workload7_stride(largest);
    const uint64_t end = WORKLOAD7_BUFFER_GTT(sh.surfaces, stride);
    const uint32_t pages = (uint32_t)((end - WORKLOAD_GTT7_BASE) / 4096u);
    uint8_t *kernel = NULL;
    size_t klen = 0;
    if (eu_load_kernel_file(kernel_hex, &kernel, &klen, err) < 0)
        return -1;
    uint8_t *image = calloc(pages, 4096);
    struct batch7 b = { .n = 0 };
    int rc = -1;
    if (!image || KERNEL_OFF + klen > DYN_OFF) {
        gt_error_set(err, "kernel too large or out of memory");
        goto done;
    }
    memcpy(image + KERNEL_OFF, kernel, klen);
    write_inputs(name, &sh, stride, image);
    if (build7(&sh, stride, image, &b, err) < 0)
        goto done;
    memcpy(image + BATCH_OFF, b.dw, b.n * 4);
    /* ValleyView's PCI id, as the real byt_* captures' */
    rc = workload_aub_legacy(out_aub, 0x0f31, name, image, WORKLOAD_GTT7_BASE, pages,
                             WORKLOAD_GTT7_BASE + BATCH_OFF, err);
done:
    free(kernel);
    free(image);
    return rc;
}
