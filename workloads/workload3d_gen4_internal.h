/* workloads/workload3d_gen4_internal.h - what the Gen4 3D capture builders
 * share: workload3d_gen4.c (the strip-fan, instanced, blend-stencil,
 * multi-rt and fill-heavy scenes, and the per-draw state and batch every Gen4 scene uses) and
 * workload3d_gen4_tex.c (the textured mipmap scene). The image layout (one
 * image at GTT GEN4_GTT_BASE, General State Base = the image), the draw and
 * scene descriptions, and the builders of workload3d_gen4.c's state and
 * batch. Not part of the workloads' public interface (workload3d.h). */
#ifndef GTSIM_WORKLOADS_WORKLOAD3D_GEN4_INTERNAL_H
#define GTSIM_WORKLOADS_WORKLOAD3D_GEN4_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fabric/error.h"
#include "spec_gen4_pack.h"
#include "workloads/workload3d.h"

#define GEN4_GTT_BASE 0x00100000u
#define KERNEL_OFF 0x01000u             /* the kernels, 64-byte aligned */
#define STATE_OFF 0x08000u              /* one STATE_BLOCK per draw */
#define STATE_BLOCK 0x200u
#define MAX_DRAWS 16u
#define SURFACE_OFF 0x0c000u            /* Surface State Base */
#define BT_OFF(d) (0x40u * (d))         /*   draw d's binding table (up to 16 entries) */
#define RSS_OFF(d) (0x800u + 0x40u * (d))   /* and its render target's SURFACE_STATE */
#define RSS1_AT 0x20u                   /*   its second target's (multi-rt), after the first */
#define BATCH_OFF 0x10000u
#define BATCH_BYTES 0x4000u
#define VERTEX_OFF 0x14000u
#define INSTANCE_OFF 0x16000u           /* per-instance data; blend-stencil's draw colours */
#define INDEX_OFF 0x17000u
#define RT_OFF 0x20000u
#define RT1_OFF 0x28000u                /* multi-rt's second target (64 rows of one X tile) */
#define DEPTH_OFF 0x30000u
#define IMAGE_BYTES 0x34000u
/* fill-heavy's larger image: its 96000 bytes of vertices, the 512 x 512
 * target (X-tiled, 2048 bytes a row) and D16 buffer (Y-tiled, 1024) */
#define FILL_VERTEX_OFF 0x40000u
#define FILL_RT_OFF 0x60000u
#define FILL_PITCH (4u * GEN4_FILL_HEAVY_SIZE)
#define FILL_DEPTH_OFF (FILL_RT_OFF + FILL_PITCH * GEN4_FILL_HEAVY_SIZE)
#define FILL_IMAGE_BYTES (FILL_DEPTH_OFF + 2u * GEN4_FILL_HEAVY_SIZE * GEN4_FILL_HEAVY_SIZE)

/* The state within a draw's block (32-byte aligned; CC_STATE 64: the PS
 * payload's R0.1 carries it as GeneralStateOffset[31:6], L18330ff). */
#define VS_AT 0x000u
#define GS_AT 0x020u
#define CLIP_AT 0x040u
#define SF_AT 0x080u
#define WM_AT 0x0a0u
#define CC_AT 0x0c0u
#define CC_VIEWPORT_AT 0x0e0u
#define SF_VIEWPORT_AT 0x100u
#define CLIP_VIEWPORT_AT 0x120u

_Static_assert(STATE_OFF + MAX_DRAWS * STATE_BLOCK <= SURFACE_OFF, "state blocks fit");
_Static_assert(RT_OFF + GEN4_EXT_PITCH * GEN4_INSTANCED_SIZE <= DEPTH_OFF, "the RT fits");
_Static_assert(IMAGE_BYTES <= FILL_VERTEX_OFF &&
               FILL_VERTEX_OFF + 3u * 16u * GEN4_FILL_HEAVY_TRIANGLES <= FILL_RT_OFF,
               "fill-heavy's vertices fit");
_Static_assert(RT_OFF + GEN4_EXT_PITCH * GEN7_MULTI_RT_SIZE <= RT1_OFF &&
               RT1_OFF + GEN4_EXT_PITCH * GEN7_MULTI_RT_SIZE <= DEPTH_OFF, "both RTs fit");

/* The kernels of strip-fan.gen4.g4a, in its order. */
enum kernel { K_VS, K_VS_INSTANCED, K_SF_TRIANGLE, K_SF_LINE, K_SF_POINT, K_PS, K_PS_TWO_RT,
              K_COUNT };

/* 3D_PrimTopoType (Mesa genxml gen4.xml; seed 001 L4620 gives no table). */
enum { TOPO_POINTLIST = 1, TOPO_LINELIST = 2, TOPO_LINESTRIP = 3, TOPO_TRILIST = 4,
       TOPO_TRISTRIP = 5, TOPO_TRIFAN = 6 };
/* COLOR_CALC_STATE encodings (genxml gen4.xml) */
enum { CMP_ALWAYS = 0, CMP_LESS = 2, CMP_EQUAL = 3, CMP_LEQUAL = 4, CMP_NOTEQUAL = 6 };
enum { STENCILOP_KEEP = 0, STENCILOP_REPLACE = 2 };
enum { BLEND_ONE = 1, BLEND_SRC_ALPHA = 3, BLEND_DST_COLOR = 5, BLEND_ZERO = 0x11,
       BLEND_INV_SRC_ALPHA = 0x13 };
enum { BLENDFUNC_ADD = 0, BLENDFUNC_MAX = 4 };
#define FORMAT_R32G32B32A32_FLOAT 0x000u
#define FORMAT_R32G32B32_FLOAT 0x040u
#define FORMAT_R32G32_FLOAT 0x085u
#define FORMAT_R16G16B16A16_FLOAT 0x084u
#define FORMAT_R8G8B8A8_UNORM 0x0c7u
enum { COMP_NOSTORE = 0, COMP_SRC = 1, COMP_0 = 2, COMP_1_FP = 3 };

/* One draw: its topology and vertices, the kernels, the fixed-function
 * choices the ext tests make. */
struct draw4 {
    uint32_t topology, first, count, instances;
    bool indexed;
    enum kernel vs, sf, ps;
    uint32_t colour_off;            /* blend-stencil: the draw's constant colour (image offset) */
    bool stencil;                   /* stencil test on */
    uint32_t stencil_func, stencil_pass_op;
    bool stencil_write;
    bool depth_test, depth_write;   /* fill-heavy */
    uint32_t depth_func;
    bool blend;
    uint32_t src_factor, dst_factor, blend_func;
    uint32_t write_disables;        /* SURFACE_STATE Color Buffer Component Write Disables */
    bool scissor;
    uint32_t scissor_min, scissor_max;  /* x and y alike */
    uint32_t sampler_state;         /* the draw's SAMPLER_STATE (image offset), 0: no texture */
};

struct scene {
    uint32_t size;                  /* width = height */
    bool depth_stencil;
    bool depth16;                   /* fill-heavy: D16_UNORM instead of D24_UNORM_S8_UINT */
    uint32_t pitch, rt_off, depth_off, vertex_off;  /* the layout (scene_init: the default) */
    uint32_t image_bytes;           /* the pages of the image the capture holds */
    bool two_targets;               /* multi-rt: RT1 R16G16B16A16_FLOAT at RT1_OFF */
    enum { FORMAT_POSITION_COLOUR, FORMAT_INSTANCED, FORMAT_POSITION_CONSTANT,
           FORMAT_POSITION3_UNORM8, FORMAT_CLIP_POSITION_TEXCOORD } format;
    struct draw4 draws[MAX_DRAWS];
    uint32_t draw_count;
};

struct batch4 {
    uint32_t dw[BATCH_BYTES / 4];
    uint32_t n;
};

/* Packs one state structure into the image. */
#define STATE4(image, at, NAME, ...)                                                         \
    do {                                                                                     \
        struct GEN4_##NAME s_ = { __VA_ARGS__ };                                             \
        uint32_t dw_[GEN4_##NAME##_length];                                                  \
        if (GEN4_##NAME##_pack(dw_, &s_) < 0)                                                \
            return gt_error_set(err, #NAME " (Gen4) does not pack");                         \
        memcpy((image) + (at), dw_, sizeof dw_);                                             \
    } while (0)

/* Draw d's state block (VS, GS, CLIP, SF, WM and CC state with their
 * viewports), its render target's SURFACE_STATE and binding table entry 0;
 * kernel[] holds the start offsets of the kernels enum kernel names (a
 * scene may put its own kernels in those slots). With dr->sampler_state the
 * WM_STATE names that SAMPLER_STATE and a second binding table entry (the
 * caller writes entry 1 and the texture's SURFACE_STATE). 0, or -1 and err. */
int write_draw_state(uint8_t *image, const struct scene *sc, uint32_t d, const uint32_t *kernel,
                     struct gt_error *err);

/* The batch of the scene's draws into b. 0, or -1 and err. */
int build_batch4(const struct scene *sc, struct batch4 *b, struct gt_error *err);

/* sc emptied and given the common layout above (GEN4_EXT_PITCH, RT_OFF,
 * DEPTH_OFF, VERTEX_OFF) and image_bytes. */
void scene_init(struct scene *sc, uint32_t image_bytes);

/* The render target (sc's size, pitch and offset) filled with the clear
 * colour bg (unorm8 in every pixel). */
void clear_target(uint8_t *image, const struct scene *sc, const float bg[4]);

#define GEN4_MAX_KERNELS 16u

/* What a Gen4 capture is made of: its image (image_bytes allocated, the
 * largest of its scenes'; a scene's sc->image_bytes, whole pages, go into
 * the capture; the layout above at its start), the kernels kernel_hex holds (kernel_count,
 * placed from KERNEL_OFF in their order; kernels_named lists them for the
 * error), and its scene: describe writes the scene's data into the image
 * and its draws into sc, and may put kernels into the slots of kernel[]
 * that write_draw_state reads (K_VS .. K_PS). 0, or -1 and err. */
struct gen4_capture {
    uint32_t image_bytes, kernel_count;
    const char *kernels_named;
    int (*describe)(const char *name, uint8_t *image, struct scene *sc, uint32_t *kernel,
                    struct gt_error *err);
};

/* Builds the capture c of scene `name`: the kernels placed, the scene
 * described, each draw's state, the batch; writes it to out_aub as a legacy
 * 965G capture (workload_aub_legacy). 0, or -1 and err. */
int gen4_write_capture(const struct gen4_capture *c, const char *name, const char *kernel_hex,
                       const char *out_aub, struct gt_error *err);

#endif
