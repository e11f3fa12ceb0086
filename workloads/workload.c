/* workloads/workload.c - writes the GPGPU workloads of workload.h as AUBs. */
#include "workloads/workload.h"
#include "workloads/workload3d.h"
#include "workloads/workload_aub.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/aub.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"
#include "isa/intel/eu_isa.h"

/* Physical layout: GGTT pages (ring, context), the PPGTT tables, and the
 * pages behind the PPGTT's one 2 MiB window at VA 0x10000000. */
#define GGTT_PHYS 0x00100000ull
#define GGTT_PAGES 32u
#define PML4_PHYS WORKLOAD_PML4_PHYS
#define DATA_PHYS 0x00400000ull
#define VA_BASE 0x10000000ull
#define VA_PAGES 512u

/* The PPGTT window's contents, VA_BASE-relative. */
#define KERNEL_OFF 0x00000u         /* Instruction Base = VA_BASE, KSP 0 */
#define DYN_OFF 0x10000u            /* Dynamic State Base: IDs at 0, CURBE at 0x100 */
#define SURF_OFF 0x20000u           /* Surface State Base: BT at 0, states at 0x100 */
#define BATCH_OFF 0x30000u

struct image {
    uint8_t *bytes;                 /* VA_PAGES pages at VA_BASE */
};

static void put(struct image *im, uint64_t va, const void *src, size_t n)
{
    memcpy(im->bytes + (va - VA_BASE), src, n);
}

struct batch {
    uint32_t dw[512];
    uint32_t n;
};

static void emit(struct batch *b, const uint32_t *dw, uint32_t n)
{
    memcpy(b->dw + b->n, dw, n * 4);
    b->n += n;
}

struct shape {
    uint32_t groups_x, groups_y, slm_enc8, slm_enc9;
    bool barrier;
    uint32_t surfaces;                  /* BTI 0.. */
    uint64_t va[3];
    uint32_t bytes[3];
    bool indirect;                      /* dimensions by GPGPU_DISPATCHDIMX/Y/Z */
    uint32_t max_threads;               /* MEDIA_VFE_STATE Maximum Number of Threads + 1 */
    bool texture;                       /* BTI 0 is a UBENCH_TEX_SIZE^2 R8G8B8A8_UNORM 2D
                                           surface, sampled through SAMPLER_STATE 0 */
};

/* Where the texture benchmark's SAMPLER_STATE lives (Dynamic State Base-relative). */
#define SAMPLER_OFF 0x400u

/* The commands of one GPGPU dispatch, Gen8 or Gen9 encodings (same names). */
#define GPGPU_COMMANDS(G)                                                                    \
    do {                                                                                     \
        uint32_t d[32];                                                                      \
        struct GEN##G##_PIPELINE_SELECT ps = { GEN##G##_PIPELINE_SELECT_header,              \
                                              .PipelineSelection = 2 };                      \
        PS_MASK(ps);                                                                         \
        GEN##G##_PIPELINE_SELECT_pack(d, &ps);                                               \
        emit(b, d, GEN##G##_PIPELINE_SELECT_length);                                         \
        if (sh->barrier) {                                                                   \
            /* the kernel uses SLM: the L3 gets an SLM partition first (003 notes \
             * §4.5: CS-stalling PIPE_CONTROL, then LRI of L3CNTLREG = 60000021h,   \
             * SLM 256 + URB 128 + Rest 384 KB, the value Mesa's skl_compute uses) */ \
            struct GEN##G##_PIPE_CONTROL pc = { GEN##G##_PIPE_CONTROL_header,                \
                .CommandStreamerStallEnable = true };                                        \
            GEN##G##_PIPE_CONTROL_pack(d, &pc);                                              \
            emit(b, d, GEN##G##_PIPE_CONTROL_length);                                        \
            uint32_t l3[3] = { 0x22u << 23 | 1, 0x7034, 0x60000021 };                        \
            emit(b, l3, 3);                                                                  \
        }                                                                                    \
        struct GEN##G##_STATE_BASE_ADDRESS sba = { GEN##G##_STATE_BASE_ADDRESS_header,       \
            .GeneralStateBaseAddressModifyEnable = true,                                     \
            .SurfaceStateBaseAddressModifyEnable = true,                                     \
            .SurfaceStateBaseAddress = VA_BASE + SURF_OFF,                                   \
            .DynamicStateBaseAddressModifyEnable = true,                                     \
            .DynamicStateBaseAddress = VA_BASE + DYN_OFF,                                    \
            .IndirectObjectBaseAddressModifyEnable = true,                                   \
            .InstructionBaseAddressModifyEnable = true,                                      \
            .InstructionBaseAddress = VA_BASE + KERNEL_OFF,                                  \
            .GeneralStateBufferSizeModifyEnable = true, .GeneralStateBufferSize = 0xfffff,   \
            .DynamicStateBufferSizeModifyEnable = true, .DynamicStateBufferSize = 0xfffff,   \
            .IndirectObjectBufferSizeModifyEnable = true,                                    \
            .IndirectObjectBufferSize = 0xfffff,                                             \
            .InstructionBufferSizeModifyEnable = true, .InstructionBufferSize = 0xfffff };   \
        if (GEN##G##_STATE_BASE_ADDRESS_pack(d, &sba) < 0)                                   \
            return gt_error_set(err, "STATE_BASE_ADDRESS does not pack");                    \
        emit(b, d, GEN##G##_STATE_BASE_ADDRESS_length);                                      \
        struct GEN##G##_MEDIA_VFE_STATE vfe = { GEN##G##_MEDIA_VFE_STATE_header,             \
            .MaximumNumberOfThreads = sh->max_threads - 1, .NumberOfURBEntries = 2,          \
            .URBEntryAllocationSize = 2, .CURBEAllocationSize = 4 };                         \
        GEN##G##_MEDIA_VFE_STATE_pack(d, &vfe);                                              \
        emit(b, d, GEN##G##_MEDIA_VFE_STATE_length);                                         \
        struct GEN##G##_MEDIA_CURBE_LOAD cl = { GEN##G##_MEDIA_CURBE_LOAD_header,            \
            .CURBETotalDataLength = 32 * WORKLOAD_GROUP_THREADS,                             \
            .CURBEDataStartAddress = 0x100 };                                                \
        GEN##G##_MEDIA_CURBE_LOAD_pack(d, &cl);                                              \
        emit(b, d, GEN##G##_MEDIA_CURBE_LOAD_length);                                        \
        struct GEN##G##_MEDIA_INTERFACE_DESCRIPTOR_LOAD il = {                               \
            GEN##G##_MEDIA_INTERFACE_DESCRIPTOR_LOAD_header,                                 \
            .InterfaceDescriptorTotalLength = 32,                                            \
            .InterfaceDescriptorDataStartAddress = 0 };                                      \
        GEN##G##_MEDIA_INTERFACE_DESCRIPTOR_LOAD_pack(d, &il);                               \
        emit(b, d, GEN##G##_MEDIA_INTERFACE_DESCRIPTOR_LOAD_length);                         \
        if (sh->indirect) {                                                                  \
            /* MI_LOAD_REGISTER_IMM of GPGPU_DISPATCHDIMX/Y/Z (003 L16947-16980) */          \
            uint32_t lri[7] = { 0x22u << 23 | 5, 0x2500, sh->groups_x, 0x2504, sh->groups_y, \
                                0x2508, 1 };                                                 \
            emit(b, lri, 7);                                                                 \
        }                                                                                    \
        struct GEN##G##_GPGPU_WALKER w = { GEN##G##_GPGPU_WALKER_header,                     \
            .IndirectParameterEnable = sh->indirect,                                         \
            .ThreadWidthCounterMaximum = WORKLOAD_GROUP_THREADS - 1, .SIMDSize = 0,          \
            .ThreadGroupIDXDimension = sh->indirect ? 0 : sh->groups_x,                      \
            .ThreadGroupIDYDimension = sh->indirect ? 0 : sh->groups_y,                      \
            .ThreadGroupIDZDimension = 1, .RightExecutionMask = 0xff,                        \
            .BottomExecutionMask = 0xffffffffu };                                            \
        GEN##G##_GPGPU_WALKER_pack(d, &w);                                                   \
        emit(b, d, GEN##G##_GPGPU_WALKER_length);                                            \
        struct GEN##G##_MEDIA_STATE_FLUSH f = { GEN##G##_MEDIA_STATE_FLUSH_header };         \
        GEN##G##_MEDIA_STATE_FLUSH_pack(d, &f);                                              \
        emit(b, d, GEN##G##_MEDIA_STATE_FLUSH_length);                                       \
        struct GEN##G##_INTERFACE_DESCRIPTOR_DATA id = { .KernelStartPointer = KERNEL_OFF,   \
            .BindingTablePointer = 0, .BindingTableEntryCount = sh->surfaces,                \
            .ConstantURBEntryReadLength = 1,                                                 \
            .NumberOfThreadsInGPGPUThreadGroup = WORKLOAD_GROUP_THREADS,                     \
            .SharedLocalMemorySize = SLM_ENC, .BarrierEnable = sh->barrier };                \
        if (sh->texture) {                                                                   \
            /* one SAMPLER_STATE (16 bytes at Dynamic State Base + pointer, 003 \
             * L3476-3480): bilinear min and mag, no mips, WRAP (0) */         \
            id.SamplerCount = 1;                                                             \
            id.SamplerStatePointer = SAMPLER_OFF;                                            \
            struct GEN##G##_SAMPLER_STATE st = { .MinModeFilter = 1, .MagModeFilter = 1 };   \
            uint32_t stw[4] = { 0 };                                                         \
            GEN##G##_SAMPLER_STATE_pack(stw, &st);                                           \
            put(im, VA_BASE + DYN_OFF + SAMPLER_OFF, stw, sizeof stw);                       \
        }                                                                                    \
        uint32_t idw[8] = { 0 };                                                             \
        GEN##G##_INTERFACE_DESCRIPTOR_DATA_pack(idw, &id);                                   \
        put(im, VA_BASE + DYN_OFF, idw, sizeof idw);                                         \
        for (uint32_t s = 0; s < sh->surfaces; s++) {                                        \
            struct GEN##G##_RENDER_SURFACE_STATE ss = { .SurfaceType = 4,                    \
                .SurfaceFormat = 0x1ff, .SurfaceHorizontalAlignment = 1,                     \
                .SurfaceVerticalAlignment = 1 };                                             \
            uint32_t size = sh->bytes[s] - 1;                                                \
            ss.Width = size & 0x7f;                                                          \
            ss.Height = (size >> 7) & 0x3fff;                                                \
            ss.Depth = (size >> 21) & 0x7ff;                                                 \
            ss.SurfaceBaseAddress = sh->va[s];                                               \
            if (s == 0 && sh->texture) {                                                     \
                ss.SurfaceType = 1;             /* SURFTYPE_2D, linear */                    \
                ss.SurfaceFormat = 0xc7;        /* R8G8B8A8_UNORM */                         \
                ss.Width = ss.Height = UBENCH_TEX_SIZE - 1;                                  \
                ss.Depth = 0;                                                                \
                ss.SurfacePitch = 4 * UBENCH_TEX_SIZE - 1;                                   \
                ss.ShaderChannelSelectRed = 4;  /* SCS_RED .. SCS_ALPHA: the texel as is */  \
                ss.ShaderChannelSelectGreen = 5;                                             \
                ss.ShaderChannelSelectBlue = 6;                                              \
                ss.ShaderChannelSelectAlpha = 7;                                             \
            }                                                                                \
            uint32_t sdw[16] = { 0 };                                                        \
            GEN##G##_RENDER_SURFACE_STATE_pack(sdw, &ss);                                    \
            put(im, VA_BASE + SURF_OFF + 0x100 + 64 * s, sdw, sizeof sdw);                   \
            uint32_t entry = 0x100 + 64 * s;                                                 \
            put(im, VA_BASE + SURF_OFF + 4 * s, &entry, 4);                                  \
        }                                                                                    \
    } while (0)

static int build_batch(int gen, const struct shape *sh, struct image *im, struct batch *b,
                       struct gt_error *err)
{
    if (gen == 9) {
#define PS_MASK(ps) ((ps).MaskBits = 3)
#define SLM_ENC sh->slm_enc9
        GPGPU_COMMANDS(9);
#undef PS_MASK
#undef SLM_ENC
    } else {
#define PS_MASK(ps) ((void)(ps))
#define SLM_ENC sh->slm_enc8
        GPGPU_COMMANDS(8);
#undef PS_MASK
#undef SLM_ENC
    }
    uint32_t end = 0x05000000u;         /* MI_BATCH_BUFFER_END */
    emit(b, &end, 1);
    if (b->n & 1)
        emit(b, (const uint32_t[]){ 0 }, 1);
    return 0;
}

int workload_aub_w64(struct aub_writer *w, uint64_t phys, uint64_t v, struct gt_error *err)
{
    return aub_write_memory(w, AUB_SPACE_PHYSICAL, phys, &v, 8, err);
}

int workload_aub_submit(struct aub_writer *w, uint64_t batch_va, struct gt_error *err)
{
    /* ring: MI_BATCH_BUFFER_START (PPGTT) of the batch, then MI_NOOP */
    uint32_t ring[4] = { 0x18800001u | 1u << 8, (uint32_t)batch_va, (uint32_t)(batch_va >> 32), 0 };
    if (aub_write_memory(w, AUB_SPACE_GGTT, WORKLOAD_RING_GGTT, ring, sizeof ring, err) < 0)
        return -1;
    /* context image at LRCA + 4 KiB: LRIs restoring the ring and the PPGTT root */
    uint32_t image[] = {
        0x00000000, 0x11000000 | (2 * 6 - 1),
        0x2034, 0,
        0x2030, 16,
        0x2038, (uint32_t)WORKLOAD_RING_GGTT,
        0x203C, 1,
        0x2274, (uint32_t)(WORKLOAD_PML4_PHYS >> 32),
        0x2270, (uint32_t)WORKLOAD_PML4_PHYS,
        0x05000000,
    };
    if (aub_write_memory(w, AUB_SPACE_GGTT, WORKLOAD_LRCA_GGTT + 0x1000, image, sizeof image,
                         err) < 0)
        return -1;
    /* ELSP: element 1 (high, low), element 0 (high, low) */
    if (aub_write_register(w, 0x2230, 0, err) < 0 || aub_write_register(w, 0x2230, 0, err) < 0 ||
        aub_write_register(w, 0x2230, 0, err) < 0 ||
        aub_write_register(w, 0x2230, (uint32_t)WORKLOAD_LRCA_GGTT | 0x339, err) < 0)
        return -1;
    return 0;
}

int workload_build(const char *name, int gen, const char *kernel_hex, const char *out_aub,
                   struct gt_error *err)
{
    if (gen == 4)
        /* the Gen4 ext counterparts: workload3d.h */
        return strcmp(name, "mipmap") == 0 ? workload3d_gen4_tex_build(name, kernel_hex, out_aub, err)
                                           : workload3d_gen4_build(name, kernel_hex, out_aub, err);
    if (strncmp(name, "ubench-fill", 11) == 0 || strcmp(name, "gs-twice") == 0 ||
        strcmp(name, "gs-quads") == 0 || strcmp(name, "tess-tri") == 0 || strcmp(name, "tess-quad") == 0 ||
        strcmp(name, "xfb-tri") == 0 || workload3d_is_ext7(name))
        /* the 3D workloads: workload3d.h */
        return workload3d_build(name, gen, kernel_hex, out_aub, err);
    if (strncmp(name, "cs-", 3) == 0)
        /* the Gen7 compute workloads: workload.h, workload7.c */
        return gen == 7 ? workload7_build(name, kernel_hex, out_aub, err)
                        : gt_error_set(err, "%s is a Gen7 workload, not Gen%d", name, gen);
    struct shape sh = { .groups_x = WORKLOAD_ELEMENTS / (8 * WORKLOAD_GROUP_THREADS),
                        .groups_y = 1, .surfaces = 2, .max_threads = 56,
                        .va = { WORKLOAD_IN_VA, WORKLOAD_OUT_VA },
                        .bytes = { WORKLOAD_ELEMENTS * 4, WORKLOAD_OUT_BYTES } };
    bool reduce = strcmp(name, "reduce") == 0, big = strcmp(name, "sgemm256") == 0;
    bool sgemm = big || strcmp(name, "sgemm") == 0;
    const uint32_t m = big ? WORKLOAD_SGEMM256_MN : WORKLOAD_SGEMM_M;
    const uint32_t n = big ? WORKLOAD_SGEMM256_MN : WORKLOAD_SGEMM_N, k = WORKLOAD_SGEMM_K;
    bool ubench = strncmp(name, "ubench-", 7) == 0;
    sh.indirect = strcmp(name, "histogram-indirect") == 0;
    if (ubench && strcmp(name, "ubench-flops") != 0 && strcmp(name, "ubench-l3bw") != 0 &&
        strcmp(name, "ubench-slmbw") != 0 && strcmp(name, "ubench-drambw") != 0 &&
        strcmp(name, "ubench-texrate") != 0)
        ubench = false;
    if (!reduce && !sgemm && !ubench && !sh.indirect && strcmp(name, "histogram") != 0 &&
        strcmp(name, "tickets") != 0)
        return gt_error_set(err, "unknown workload '%s' (histogram, histogram-indirect, tickets, reduce, "
                            "sgemm, sgemm256, ubench-flops, ubench-l3bw, ubench-slmbw, "
                            "ubench-drambw, ubench-texrate)", name);
    if (gen != 8 && gen != 9)
        return gt_error_set(err, "workloads are written for Gen8 and Gen9, not Gen%d", gen);
    if (reduce) {
        sh.barrier = true;
        sh.slm_enc8 = 1;        /* 4 KB */
        sh.slm_enc9 = 3;        /* 4 KB */
    }
    if (sgemm) {
        sh.barrier = true;
        sh.slm_enc8 = 1;        /* 4 KB: the K x 8 B panel takes K * 32 bytes */
        sh.slm_enc9 = 3;
        /* the large problem is for GT3 too: a driver programs the device's
         * threads, 6 subslices x 56 on GT3 (reference/eu/devices.txt); the
         * others keep one subslice's 56 */
        if (big)
            sh.max_threads = 6 * 56;
        sh.groups_x = n / 8;
        sh.groups_y = m / WORKLOAD_GROUP_THREADS;
        sh.surfaces = 3;
        sh.va[0] = WORKLOAD_SGEMM_A_VA;
        sh.va[1] = WORKLOAD_SGEMM_B_VA;
        sh.va[2] = WORKLOAD_SGEMM_C_VA;
        sh.bytes[0] = m * k * 4;
        sh.bytes[1] = k * n * 4;
        sh.bytes[2] = m * n * 4;
    }
    if (ubench) {
        /* two waves of GT2's 168 hardware threads; slmbw needs an SLM
         * partition and a 4 KB allocation (as "reduce"), not a barrier */
        sh.groups_x = UBENCH_GROUPS;
        sh.max_threads = UBENCH_MAX_THREADS;
        sh.barrier = strcmp(name, "ubench-slmbw") == 0;
        sh.slm_enc8 = sh.barrier ? 1 : 0;
        sh.slm_enc9 = sh.barrier ? 3 : 0;
        sh.va[0] = UBENCH_IN_VA;
        sh.va[1] = UBENCH_OUT_VA;
        sh.bytes[0] = strcmp(name, "ubench-drambw") == 0 ? UBENCH_IN_BYTES_MAX
                      : UBENCH_L3_READS * UBENCH_READ_BYTES;
        sh.texture = strcmp(name, "ubench-texrate") == 0;  /* in[] is the texture's texels */
        sh.bytes[1] = UBENCH_THREADS * 4;
    }
    uint8_t *kernel = NULL;
    size_t klen = 0;
    if (eu_load_kernel_file(kernel_hex, &kernel, &klen, err) < 0)
        return -1;
    struct image im = { .bytes = calloc(VA_PAGES, 4096) };
    struct batch b = { .n = 0 };
    int rc = -1;
    struct aub_writer w;
    bool open = false;
    if (!im.bytes || klen > DYN_OFF) {
        gt_error_set(err, "kernel too large or out of memory");
        goto done;
    }
    put(&im, VA_BASE + KERNEL_OFF, kernel, klen);
    /* CURBE: thread t of a group gets t in dword 0 of its register */
    for (uint32_t t = 0; t < WORKLOAD_GROUP_THREADS; t++) {
        uint32_t reg[8] = { t, 0, 0, 0, 0, 0, 0, 0 };
        put(&im, VA_BASE + DYN_OFF + 0x100 + 32 * t, reg, sizeof reg);
    }
    if (sgemm) {
        for (uint32_t i = 0; i < m * k; i++) {
            float v = workload_sgemm_a(i);
            put(&im, WORKLOAD_SGEMM_A_VA + 4 * i, &v, 4);
        }
        for (uint32_t i = 0; i < k * n; i++) {
            float v = workload_sgemm_b(i);
            put(&im, WORKLOAD_SGEMM_B_VA + 4 * i, &v, 4);
        }
    } else if (ubench) {
        for (uint32_t i = 0; i < sh.bytes[0] / 4; i++)
            put(&im, UBENCH_IN_VA + 4ull * i, &i, 4);
    } else {
        for (uint32_t i = 0; i < WORKLOAD_ELEMENTS; i++) {
            uint32_t v = reduce ? workload_reduce_input(i) : workload_histogram_input(i);
            put(&im, WORKLOAD_IN_VA + 4 * i, &v, 4);
        }
    }
    if (build_batch(gen, &sh, &im, &b, err) < 0)
        goto done;
    put(&im, VA_BASE + BATCH_OFF, b.dw, b.n * 4);

    int compress = strlen(out_aub) > 3 && strcmp(out_aub + strlen(out_aub) - 3, ".gz") == 0;
    if (aub_writer_open(&w, out_aub, compress, err) < 0)
        goto done;
    open = true;
    uint32_t pci = gen == 9 ? 0x1912 : 0x1616;
    if (aub_write_memtrace_version(&w, pci, gen == 9 ? 12 : 11, name, err) < 0)
        goto done;
    /* GGTT: GGTT_PAGES pages at GGTT 0 -> GGTT_PHYS (64-bit PTEs, present bit 0) */
    for (uint32_t i = 0; i < GGTT_PAGES; i++) {
        uint64_t pte = (GGTT_PHYS + 4096ull * i) | 1;
        if (aub_write_memory(&w, AUB_SPACE_GGTT_ENTRY, 8ull * i, &pte, 8, err) < 0)
            goto done;
    }
    /* PPGTT: PML4[0] -> PDP, PDP[0] -> PD, PD[128] -> PT, PT[i] -> DATA_PHYS + i pages */
    uint64_t pdp = PML4_PHYS + 0x1000, pd = PML4_PHYS + 0x2000, pt = PML4_PHYS + 0x3000;
    if (workload_aub_w64(&w, PML4_PHYS, pdp | 3, err) < 0 ||
        workload_aub_w64(&w, pdp, pd | 3, err) < 0 ||
        workload_aub_w64(&w, pd + 8 * ((VA_BASE >> 21) & 511), pt | 3, err) < 0)
        goto done;
    uint64_t *ptes = calloc(VA_PAGES, 8);
    for (uint32_t i = 0; i < VA_PAGES; i++)
        ptes[i] = (DATA_PHYS + 4096ull * i) | 3;
    rc = aub_write_memory(&w, AUB_SPACE_PHYSICAL, pt, ptes, 8ull * VA_PAGES, err);
    free(ptes);
    if (rc < 0)
        goto done;
    rc = -1;
    if (aub_write_memory(&w, AUB_SPACE_PHYSICAL, DATA_PHYS, im.bytes, 4096ull * VA_PAGES, err) < 0)
        goto done;
    if (workload_aub_submit(&w, VA_BASE + BATCH_OFF, err) < 0)
        goto done;
    rc = 0;
done:
    if (open && aub_writer_close(&w, rc < 0 ? NULL : err) < 0)
        rc = -1;
    free(kernel);
    free(im.bytes);
    return rc;
}
