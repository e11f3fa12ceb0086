/* workloads/workload3d_gen4_tex.c - the Gen4 (965G) counterpart of the ext
 * suite's mipmap test (workload3d.h "mipmap"): a legacy capture of two
 * perspective trapezoids sampling a mipmapped texture trilinearly, the
 * draws programmed as workload3d_gen4.c programs its scenes (its per-draw
 * state and batch, workload3d_gen4_internal.h) plus what texturing adds on
 * the 965, as Mesa's driver programs it [EXT] (seed 001 has no sampler
 * chapter, SAMPLER_STATE or SURFACE_STATE: ../shared/notes/001-gen4.md
 * "Missing volumes"; the layouts are genxml gen4.xml's, spec/data/gen4.xml):
 *  - the texture's RENDER_SURFACE_STATE (2D, R8G8B8A8_UNORM, MIP Count 6,
 *    MIPLAYOUT_BELOW) as binding table entry 1 of each draw;
 *  - one SAMPLER_STATE per draw in its state block, named by WM_STATE's
 *    Sampler State Pointer (seed 001 L15017; General State Base relative);
 *  - the texture's seven levels laid out as Mesa isl's Gen4 2D layout
 *    places them (public facts, computed here, not taken from the model's
 *    surface code): level 0 at the origin, level 1 below it, levels 2..
 *    stacked downwards to the right of level 1, each level's width aligned
 *    to 4 texels and height to 2 (isl's Gen4 alignment for uncompressed
 *    formats); linear rows of 256 bytes (a driver may tile it; the linear
 *    layout keeps this builder independent of the model's tiling code);
 *  - the kernels: strip-fan's VS, then mipmap.gen4.g4a's perspective SF
 *    setup kernel and texturing PS. */
#include "workloads/workload3d.h"
#include "workloads/workload3d_gen4_internal.h"
#include "workloads/workload_aub.h"

#include <stdlib.h>
#include <string.h>


#define TEXTURE_OFF IMAGE_BYTES                 /* the levels, after the common image */
#define TEXTURE_PITCH (4u * GEN4_MIPMAP_TEXTURE)
#define TEXTURE_ROWS (GEN4_MIPMAP_TEXTURE + GEN4_MIPMAP_TEXTURE / 2)    /* levels 0 and 1 */
#define TEX_IMAGE_BYTES (IMAGE_BYTES + 0x6000u)
#define TEXTURE_RSS_OFF 0xc00u                  /* Surface State Base relative */
#define SAMPLER_AT 0x140u                       /* in each draw's state block */

_Static_assert(TEXTURE_OFF + TEXTURE_PITCH * TEXTURE_ROWS <= TEX_IMAGE_BYTES, "the texture fits");
_Static_assert(TEX_IMAGE_BYTES % 4096u == 0, "whole pages");
_Static_assert(TEXTURE_RSS_OFF >= RSS_OFF(MAX_DRAWS), "past the render targets' states");
_Static_assert(SAMPLER_AT >= CLIP_VIEWPORT_AT + 4u * GEN4_CLIP_VIEWPORT_length &&
               SAMPLER_AT + 4u * GEN4_SAMPLER_STATE_length <= STATE_BLOCK, "SAMPLER_STATE fits");

/* mipmap.gen4.g4a's kernels, after strip-fan's (K_COUNT) */
enum { K_SF_PERSPECTIVE = K_COUNT, K_PS_TEXTURE, K_TEX_COUNT };
_Static_assert(K_TEX_COUNT <= GEN4_MAX_KERNELS, "kernel slots");

/* SAMPLER_STATE encodings (genxml gen4.xml) */
enum { MAPFILTER_LINEAR = 1, MIPFILTER_LINEAR = 3 };
enum { TEXCOORDMODE_WRAP = 0, TEXCOORDMODE_MIRROR = 1 };

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

/* Level l's origin in the texture, in texels (the layout above). */
static void level_origin(uint32_t l, uint32_t *x, uint32_t *y)
{
    *x = l >= 2 ? align_up(GEN4_MIPMAP_TEXTURE >> 1, 4) : 0;
    *y = l >= 1 ? GEN4_MIPMAP_TEXTURE : 0;
    for (uint32_t k = 2; k < l; k++)
        *y += align_up(GEN4_MIPMAP_TEXTURE >> k, 2);
}

/* The seven levels (gen4_mipmap_levels) into the image. -1 when out of
 * memory. */
static int write_texture(uint8_t *image)
{
    uint8_t (*level)[GEN4_MIPMAP_TEXTURE][GEN4_MIPMAP_TEXTURE][4] =
        malloc(sizeof(uint8_t[GEN4_MIPMAP_LEVELS][GEN4_MIPMAP_TEXTURE][GEN4_MIPMAP_TEXTURE][4]));
    if (!level)
        return -1;
    gen4_mipmap_levels(level);
    for (uint32_t l = 0; l < GEN4_MIPMAP_LEVELS; l++) {
        uint32_t size = GEN4_MIPMAP_TEXTURE >> l, ox, oy;
        level_origin(l, &ox, &oy);
        for (uint32_t y = 0; y < size; y++)
            memcpy(image + TEXTURE_OFF + (oy + y) * TEXTURE_PITCH + 4 * ox, level[l][y], 4 * size);
    }
    free(level);
    return 0;
}

/* The two draws' samplers, the texture's SURFACE_STATE and binding table
 * entry 1 (write_draw_state writes the rest of each draw's state). */
static int write_texture_state(uint8_t *image, const struct scene *sc, struct gt_error *err)
{
    /* SURFACE_STATE: 2D, R8G8B8A8_UNORM (returned as floats), MIP Count 6
     * (levels 0-6), 64 x 64, linear, pitch 256 bytes */
    STATE4(image, SURFACE_OFF + TEXTURE_RSS_OFF, RENDER_SURFACE_STATE, .SurfaceType = 1,
           .SurfaceFormat = FORMAT_R8G8B8A8_UNORM, .MIPMapLayoutMode = 0,
           .SurfaceBaseAddress = GEN4_GTT_BASE + TEXTURE_OFF,
           .MIPCountLOD = GEN4_MIPMAP_LEVELS - 1, .Width = GEN4_MIPMAP_TEXTURE - 1,
           .Height = GEN4_MIPMAP_TEXTURE - 1, .SurfacePitch = TEXTURE_PITCH - 1);
    for (uint32_t d = 0; d < sc->draw_count; d++) {
        uint32_t entry = TEXTURE_RSS_OFF;
        memcpy(image + SURFACE_OFF + BT_OFF(d) + 4, &entry, 4);
        /* GL's LINEAR_MIPMAP_LINEAR / LINEAR, the draw's wrap mode on s and t
         * (r stays REPEAT), LOD 0 .. 13 with the OpenGL pre-clamp and the
         * address rounding of the linear filters (Mesa's Gen4 sampler state:
         * Max LOD min(GL's 1000, 13); the rounding is not modelled) */
        uint32_t wrap = d == 0 ? TEXCOORDMODE_WRAP : TEXCOORDMODE_MIRROR;
        STATE4(image, sc->draws[d].sampler_state, SAMPLER_STATE,
               .MinModeFilter = MAPFILTER_LINEAR, .MagModeFilter = MAPFILTER_LINEAR,
               .MipModeFilter = MIPFILTER_LINEAR, .LODPreClampEnable = true,
               .TCXAddressControlMode = wrap, .TCYAddressControlMode = wrap,
               .TCZAddressControlMode = TEXCOORDMODE_WRAP, .MaxLOD = 13.0f, .MinLOD = 0.0f,
               .UAddressMinFilterRoundingEnable = true, .UAddressMagFilterRoundingEnable = true,
               .VAddressMinFilterRoundingEnable = true, .VAddressMagFilterRoundingEnable = true,
               .RAddressMinFilterRoundingEnable = true, .RAddressMagFilterRoundingEnable = true);
    }
    return 0;
}

/* The scene (gen4_capture.describe): the vertices, the draws, the clear,
 * the texture and its state; the draws run strip-fan's VS with mipmap's SF
 * and PS in their slots. */
static int describe(const char *name, uint8_t *image, struct scene *sc, uint32_t *kernel,
                    struct gt_error *err)
{
    if (strcmp(name, "mipmap") != 0)
        return gt_error_set(err, "unknown Gen4 textured workload '%s' (mipmap)", name);
    scene_init(sc, TEX_IMAGE_BYTES);
    sc->size = GEN4_MIPMAP_SIZE;
    sc->format = FORMAT_CLIP_POSITION_TEXCOORD;
    float v[GEN4_MIPMAP_VERTICES][6];
    for (uint32_t i = 0; i < GEN4_MIPMAP_VERTICES; i++)
        gen4_mipmap_vertex(i, v[i]);
    memcpy(image + VERTEX_OFF, v, sizeof v);
    for (uint32_t d = 0; d < 2; d++)
        sc->draws[d] = (struct draw4){ .topology = TOPO_TRISTRIP, .first = 4 * d, .count = 4,
                                       .instances = 1, .vs = K_VS, .sf = K_SF_TRIANGLE, .ps = K_PS,
                                       .src_factor = BLEND_ONE, .dst_factor = BLEND_ZERO,
                                       .sampler_state = STATE_OFF + d * STATE_BLOCK + SAMPLER_AT };
    sc->draw_count = 2;
    kernel[K_SF_TRIANGLE] = kernel[K_SF_PERSPECTIVE];
    kernel[K_PS] = kernel[K_PS_TEXTURE];
    clear_target(image, sc, (const float[4]){ 0.1f, 0.1f, 0.1f, 1.0f });
    if (write_texture(image) < 0)
        return gt_error_set(err, "out of memory");
    return write_texture_state(image, sc, err);
}

int workload3d_gen4_tex_build(const char *name, const char *kernel_hex, const char *out_aub,
                              struct gt_error *err)
{
    const struct gen4_capture mipmap = {
        TEX_IMAGE_BYTES, K_TEX_COUNT,
        "strip-fan's VS, instancing VS, SF triangle, line, point, PS, then the perspective SF "
        "and the texturing PS", describe };
    return gen4_write_capture(&mipmap, name, kernel_hex, out_aub, err);
}
