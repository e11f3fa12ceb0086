/* units/common/surface.c - RENDER_SURFACE_STATE to struct surface, and the
 * byte offset of a pixel in it (what is modelled and the sources: surface.h). */
#include "units/common/surface.h"

#include "units/common/format.h"

#include <string.h>

#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"

#define RSV 0u      /* a reserved encoding in the tables below */

/* ---- encodings ------------------------------------------------------------- */

/* Number of Multisamples by encoding (genxml MULTISAMPLECOUNT_*): Gen7 has 1,
 * 4, 8; Gen8 adds 2; Gen9 adds 16. */
static const uint32_t samples_gen7[8] = { 1, RSV, 4, 8, RSV, RSV, RSV, RSV };
static const uint32_t samples_gen8[8] = { 1, 2, 4, 8, RSV, RSV, RSV, RSV };
static const uint32_t samples_gen9[8] = { 1, 2, 4, 8, 16, RSV, RSV, RSV };
/* Surface Horizontal/Vertical Alignment (pixels; Gen9: elements) */
static const uint32_t halign_gen7[2] = { 4, 8 };
static const uint32_t valign_gen7[2] = { 2, 4 };
static const uint32_t align_gen8[4] = { RSV, 4, 8, 16 };
/* Gen8 Tile Mode */
static const enum tiling tile_mode_gen8[4] = { TILING_LINEAR, TILING_W, TILING_X, TILING_Y };
/* Auxiliary Surface Mode; SURFACE_AUX_NONE in a reserved slot is marked by aux_rsv */
static const enum surface_aux aux_gen8[8] = { SURFACE_AUX_NONE, SURFACE_AUX_MCS,
                                              SURFACE_AUX_APPEND, SURFACE_AUX_HIZ };
static const uint8_t aux_rsv_gen8 = 0xF0;
static const enum surface_aux aux_gen9[8] = { SURFACE_AUX_NONE, SURFACE_AUX_CCS_D,
                                              SURFACE_AUX_APPEND, SURFACE_AUX_HIZ,
                                              SURFACE_AUX_NONE, SURFACE_AUX_CCS_E };
static const uint8_t aux_rsv_gen9 = 0xD0;

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static uint32_t max1(uint32_t v)
{
    return v ? v : 1;
}

static void refuse(struct surface *s, enum surface_status st)
{
    if (s->status == SURFACE_OK)
        s->status = st;
}

/* ---- per-generation decoding ----------------------------------------------- */

static uint8_t cube_bits(bool pz, bool nz, bool py, bool ny, bool px, bool nx)
{
    return (uint8_t)(pz | nz << 1 | py << 2 | ny << 3 | px << 4 | nx << 5);
}

#define COMMON_FIELDS(s, v)                                                                  \
    do {                                                                                     \
        (s)->type = (enum surface_type)(v).SurfaceType;                                      \
        (s)->format = (v).SurfaceFormat;                                                     \
        (s)->width = (v).Width + 1;                                                          \
        (s)->height = (v).Height + 1;                                                        \
        (s)->depth = (v).Depth + 1;                                                          \
        (s)->pitch = (v).SurfacePitch + 1;                                                   \
        (s)->base_address = (v).SurfaceBaseAddress;                                          \
        (s)->mip_count_lod = (v).MIPCountLOD;                                                \
        (s)->min_lod = (v).SurfaceMinLOD;                                                    \
        (s)->min_array_element = (v).MinimumArrayElement;                                    \
        (s)->render_target_view_extent = (v).RenderTargetViewExtent + 1;                     \
        (s)->cube_face_enables = cube_bits((v).CubeFaceEnablePositiveZ,                      \
                                           (v).CubeFaceEnableNegativeZ,                      \
                                           (v).CubeFaceEnablePositiveY,                      \
                                           (v).CubeFaceEnableNegativeY,                      \
                                           (v).CubeFaceEnablePositiveX,                      \
                                           (v).CubeFaceEnableNegativeX);                     \
    } while (0)

/* Gen4 (G965, 5 dwords; spec/data/gen4.xml from genxml gen4.xml): no arrays
 * spacing, no MSAA, alignment fixed at 4 x 2 (Mesa isl's Gen4 choice for
 * uncompressed formats), X/Y tiling by Tiled Surface + Tile Walk. */
static void decode_gen4(const uint32_t *dw, struct surface *s)
{
    struct GEN4_RENDER_SURFACE_STATE v;
    GEN4_RENDER_SURFACE_STATE_unpack(dw, &v);
    COMMON_FIELDS(s, v);
    if (v.SurfaceType == SURFACE_STRBUF)
        refuse(s, SURFACE_RESERVED);
    s->tiling = !v.TiledSurface ? TILING_LINEAR : v.TileWalk ? TILING_Y : TILING_X;
    s->mip_layout = v.MIPMapLayoutMode ? SURFACE_MIP_RIGHT : SURFACE_MIP_BELOW;
    s->halign = 4;
    s->valign = 2;
    s->samples = 1;
}

/* Gen7 (8 dwords) */
static void decode_gen7(const uint32_t *dw, struct surface *s)
{
    struct GEN7_RENDER_SURFACE_STATE v;
    GEN7_RENDER_SURFACE_STATE_unpack(dw, &v);
    COMMON_FIELDS(s, v);
    s->surface_array = v.SurfaceArray;
    s->array_spacing_lod0 = v.SurfaceArraySpacing == 1;
    s->tiling = !v.TiledSurface ? TILING_LINEAR : v.TileWalk ? TILING_Y : TILING_X;
    s->halign = halign_gen7[v.SurfaceHorizontalAlignment & 1];
    s->valign = valign_gen7[v.SurfaceVerticalAlignment & 1];
    s->samples = samples_gen7[v.NumberOfMultisamples & 7];
    s->msaa_layout = v.MultisampledSurfaceStorageFormat;     /* raw until check() */
    s->sample_palette_index = v.MultisamplePositionPaletteIndex;
    s->x_offset = v.XOffset * 4;
    s->y_offset = v.YOffset * 2;
    if (v.MCSEnable) {
        s->aux_mode = SURFACE_AUX_MCS;
        s->aux_address = v.AuxiliarySurfaceBaseAddress;
        s->aux_pitch = v.AuxiliarySurfacePitch + 1;
    }
}

#define GEN8_FIELDS(s, v, samples_table, aux_table, aux_rsv)                                 \
    do {                                                                                     \
        COMMON_FIELDS(s, v);                                                                 \
        (s)->surface_array = (v).SurfaceArray;                                               \
        (s)->tiling = tile_mode_gen8[(v).TileMode & 3];                                      \
        (s)->halign = align_gen8[(v).SurfaceHorizontalAlignment & 3];                        \
        (s)->valign = align_gen8[(v).SurfaceVerticalAlignment & 3];                          \
        (s)->qpitch = (v).SurfaceQPitch << 2;                                                \
        (s)->base_mip_half = (uint32_t)((v).BaseMipLevel * 2.0);                             \
        (s)->samples = samples_table[(v).NumberOfMultisamples & 7];                          \
        (s)->msaa_layout = (v).MultisampledSurfaceStorageFormat;                             \
        (s)->sample_palette_index = (v).MultisamplePositionPaletteIndex;                     \
        (s)->x_offset = (v).XOffset * 4;                                                     \
        (s)->y_offset = (v).YOffset * 4;                                                     \
        (s)->aux_mode = aux_table[(v).AuxiliarySurfaceMode & 7];                             \
        if ((aux_rsv) >> ((v).AuxiliarySurfaceMode & 7) & 1)                                 \
            refuse(s, SURFACE_RESERVED);                                                     \
        if ((s)->aux_mode != SURFACE_AUX_NONE) {                                             \
            (s)->aux_address = (v).AuxiliarySurfaceBaseAddress;                              \
            (s)->aux_pitch = (v).AuxiliarySurfacePitch + 1;                                  \
            (s)->aux_qpitch = (v).AuxiliarySurfaceQPitch << 2;                               \
        }                                                                                    \
    } while (0)

static void decode_gen8(const uint32_t *dw, struct surface *s)
{
    struct GEN8_RENDER_SURFACE_STATE v;
    GEN8_RENDER_SURFACE_STATE_unpack(dw, &v);
    GEN8_FIELDS(s, v, samples_gen8, aux_gen8, aux_rsv_gen8);
}

/* Gen9 adds Tiled Resource Mode (Yf/Ys, only with Tile Mode YMAJOR) and Mip
 * Tail Start LOD. */
static void decode_gen9(const uint32_t *dw, struct surface *s)
{
    struct GEN9_RENDER_SURFACE_STATE v;
    GEN9_RENDER_SURFACE_STATE_unpack(dw, &v);
    GEN8_FIELDS(s, v, samples_gen9, aux_gen9, aux_rsv_gen9);
    s->mip_tail_start = v.MipTailStartLOD;
    if (v.TiledResourceMode == 3 || (v.TiledResourceMode && s->tiling != TILING_Y))
        refuse(s, SURFACE_RESERVED);
    else if (v.TiledResourceMode)
        s->tiling = v.TiledResourceMode == 1 ? TILING_YF : TILING_YS;
}

/* ---- derived layout ------------------------------------------------------------ */

static bool is_image(const struct surface *s)
{
    return s->type == SURFACE_1D || s->type == SURFACE_2D || s->type == SURFACE_3D ||
           s->type == SURFACE_CUBE;
}

/* Interleaved samples per pixel in x and y (isl_msaa_interleaved_scale_px_to_sa). */
static void interleave_scale(uint32_t samples, uint32_t *sx, uint32_t *sy)
{
    static const uint8_t scale[5][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 4, 2 }, { 4, 4 } };
    unsigned i = samples >= 16 ? 4 : samples >= 8 ? 3 : samples >= 4 ? 2 : samples >= 2 ? 1 : 0;
    *sx = scale[i][0];
    *sy = scale[i][1];
}

/* LOD 0 of the physical surface in samples (pixels unless interleaved). */
static void physical_level0(const struct surface *s, uint32_t *w, uint32_t *h)
{
    *w = s->width;
    *h = s->type == SURFACE_1D ? 1 : s->height;
    if (s->msaa_layout == SURFACE_MSAA_INTERLEAVED) {
        uint32_t sx, sy;
        interleave_scale(s->samples, &sx, &sy);
        *w = align_up(*w, 2) * sx;
        *h = align_up(*h, 2) * sy;
    }
}

/* Aligned width / height of physical LOD lod in elements. */
static uint32_t lod_w_el(const struct surface *s, uint32_t lod)
{
    uint32_t w, h;
    physical_level0(s, &w, &h);
    w = max1(w >> lod);
    return align_up((w + s->block_width - 1) / s->block_width, s->halign);
}

static uint32_t lod_h_el(const struct surface *s, uint32_t lod)
{
    uint32_t w, h;
    physical_level0(s, &w, &h);
    h = max1(h >> lod);
    return align_up((h + s->block_height - 1) / s->block_height, s->valign);
}

/* Slices of LOD lod in the Gen4-8 3D layout (Gen4 cubes: always 6). */
static uint32_t lod_slices_3d(const struct surface *s, uint32_t lod)
{
    return s->type == SURFACE_CUBE ? 6 : max1(s->depth >> lod);
}

static void choose_mip_layout(struct surface *s)
{
    if (s->gen == 9 && s->type == SURFACE_1D && s->tiling == TILING_LINEAR)
        s->mip_layout = SURFACE_MIP_1D;
    else if (s->gen < 9 && (s->type == SURFACE_3D || (s->gen == 4 && s->type == SURFACE_CUBE)))
        s->mip_layout = SURFACE_MIP_3D;
    else if (s->gen != 4)
        s->mip_layout = SURFACE_MIP_BELOW;
}

/* Alignment in elements: Gen9 1D 64 x 1, Yf/Ys the tile's shape (isl's Gen9
 * choice), Gen9 state values already in elements, earlier ones in pixels. */
static void element_alignment(struct surface *s, uint32_t h_state, uint32_t v_state)
{
    struct tile_shape t;
    if (s->mip_layout == SURFACE_MIP_1D) {
        s->halign = 64, s->valign = 1;
    } else if ((s->tiling == TILING_YF || s->tiling == TILING_YS) &&
               tiling_shape(s->tiling, s->element_bytes, &t)) {
        s->halign = t.width_bytes / s->element_bytes, s->valign = t.height_rows;
    } else if (s->gen == 9) {
        s->halign = max1(h_state), s->valign = max1(v_state);
    } else {
        s->halign = max1(h_state / s->block_width), s->valign = max1(v_state / s->block_height);
    }
}

/* QPitch in element rows (Gen9 1D: elements). Gen4/Gen7 by the formula
 * h0 + h1 + m*j (m = 11 Gen4, 12 Gen7; isl, from the IVB/BDW PRM "Surface
 * Arrays"), or h0 for ARYSPC_LOD0; Gen8 state in pixel rows. */
static void derive_qpitch(struct surface *s, uint32_t qpitch_state)
{
    if (s->gen == 9)
        s->qpitch = qpitch_state;
    else if (s->gen == 8)
        s->qpitch = qpitch_state / s->block_height;
    else if (s->array_spacing_lod0)
        s->qpitch = lod_h_el(s, 0);
    else
        s->qpitch = lod_h_el(s, 0) + lod_h_el(s, 1) + (s->gen >= 7 ? 12 : 11) * s->valign;
}

/* Mip layout, alignment in elements and QPitch from the state's values. */
static void derive_layout(struct surface *s)
{
    choose_mip_layout(s);
    element_alignment(s, s->halign_state, s->valign_state);
    derive_qpitch(s, s->qpitch_state);
}

static void derive_counts(struct surface *s)
{
    s->levels = s->mip_count_lod + 1;
    s->array_length = 1;
    if (s->type == SURFACE_BUFFER || s->type == SURFACE_STRBUF) {
        /* entries - 1 = Depth | Height[13:0] | Width[6:0] (003 L5083-5087) */
        uint64_t w = (s->width - 1) & 0x7F, h = s->height - 1, d = s->depth - 1;
        s->buffer_entries = (d << 21 | h << 7 | w) + 1;
        s->depth = 1;
    } else if (s->type == SURFACE_CUBE) {
        s->array_length = 6 * s->depth;
        s->depth = 1;
    } else if (s->type != SURFACE_3D) {
        s->array_length = s->depth;
        s->depth = 1;
    }
}

/* Whether the state's alignment fields count: images, except on Gen9 1D and
 * Yf/Ys surfaces, where the fields are ignored (SKL RENDER_SURFACE_STATE
 * Surface Vertical Alignment, as quoted in Mesa isl_gfx9.c). */
static bool uses_state_alignment(const struct surface *s)
{
    if (!is_image(s))
        return false;
    if (s->gen == 9 && (s->type == SURFACE_1D || s->tiling == TILING_YF || s->tiling == TILING_YS))
        return false;
    return true;
}

/* Refuses what the state may not hold or the library does not model. */
static void check(struct surface *s)
{
    if (s->type == 6)
        refuse(s, SURFACE_RESERVED);
    if (s->samples == RSV || (s->samples > 1 && s->type != SURFACE_2D))
        refuse(s, SURFACE_RESERVED);
    if (uses_state_alignment(s) && (s->halign == RSV || s->valign == RSV))
        refuse(s, SURFACE_RESERVED);
    if (s->samples <= 1)
        s->msaa_layout = SURFACE_MSAA_NONE;
    else
        s->msaa_layout = s->msaa_layout ? SURFACE_MSAA_INTERLEAVED : SURFACE_MSAA_ARRAY;
    if ((s->tiling == TILING_YF || s->tiling == TILING_YS) &&
        (s->type == SURFACE_3D || s->samples > 1))
        refuse(s, SURFACE_UNSUPPORTED);
    if ((s->type == SURFACE_BUFFER || s->type == SURFACE_STRBUF) && s->tiling != TILING_LINEAR)
        refuse(s, SURFACE_RESERVED);    /* 003 L5056: buffers cannot be tiled */
}

/* Tiled pitches must be whole tiles. */
static void check_pitch(struct surface *s)
{
    struct tile_shape t;
    if (!is_image(s) || s->tiling == TILING_LINEAR || s->element_bytes == 0 ||
        s->mip_layout == SURFACE_MIP_1D)
        return;
    if (!tiling_shape(s->tiling, s->element_bytes, &t))
        refuse(s, SURFACE_UNSUPPORTED);
    else if (s->pitch % t.width_bytes)
        refuse(s, SURFACE_RESERVED);
}

enum surface_status surface_from_state(unsigned gen, const uint32_t *dw, struct surface *out)
{
    memset(out, 0, sizeof *out);
    out->gen = gen;
    out->mip_tail_start = 15;
    switch (gen) {
    case 4: decode_gen4(dw, out); break;
    case 7: decode_gen7(dw, out); break;
    case 8: decode_gen8(dw, out); break;
    case 9: decode_gen9(dw, out); break;
    default:
        out->status = SURFACE_BAD_GEN;
        out->type = SURFACE_NULL;
        return out->status;
    }
    /* the clear colour: Gen9 Red/Green/Blue/Alpha Clear Color (dwords 12-15);
     * Gen7/8 the 1-bit Red/Green/Blue/Alpha Clear Color of dword 7 (31..28) */
    for (unsigned c = 0; c < 4; c++)
        out->clear_color[c] = gen >= 9 ? dw[12 + c] : gen >= 7 ? (dw[7] >> (31 - c)) & 1u : 0;
    check(out);
    derive_counts(out);
    out->halign_state = out->halign;
    out->valign_state = out->valign;
    out->qpitch_state = out->qpitch;
    /* the element's size and block from the formats library (units/common/
     * format.h); a format it does not know leaves the size unknown */
    const struct format_desc *f = format_describe(out->format);
    if (f)
        surface_set_element(out, format_block_bytes(f), f->block_width, f->block_height);
    else
        surface_set_element(out, 0, 1, 1);
    return out->status;
}

void surface_set_element(struct surface *s, uint32_t element_bytes, uint32_t block_width,
                         uint32_t block_height)
{
    s->element_bytes = element_bytes;
    s->block_width = max1(block_width);
    s->block_height = max1(block_height);
    if (s->status == SURFACE_OK && is_image(s))
        derive_layout(s);
    check_pitch(s);
}

/* ---- LODs ------------------------------------------------------------------------ */

uint32_t surface_lod_width(const struct surface *s, uint32_t lod)
{
    return lod < 32 ? max1(s->width >> lod) : 1;
}

uint32_t surface_lod_height(const struct surface *s, uint32_t lod)
{
    return lod < 32 ? max1(s->height >> lod) : 1;
}

uint32_t surface_lod_depth(const struct surface *s, uint32_t lod)
{
    return lod < 32 ? max1(s->depth >> lod) : 1;
}

/* Sum of the aligned heights of LODs first..last-1 (3D: times their rows of slices). */
static uint64_t heights(const struct surface *s, uint32_t first, uint32_t last, bool rows_3d)
{
    uint64_t y = 0;
    for (uint32_t i = first; i < last; i++) {
        uint64_t rows = rows_3d ? (lod_slices_3d(s, i) + (1u << i) - 1) >> i : 1;
        y += (uint64_t)lod_h_el(s, i) * rows;
    }
    return y;
}

/* The 2D layout: LOD 0 at the origin, LOD 1 below it (RIGHT: right of it),
 * LOD 2.. beside LOD 1 stacked downwards (isl's Gen4 2D layout; RIGHT is its
 * mirror, inferred from the Gen4 field's name). */
static void origin_2d(const struct surface *s, uint32_t lod, uint64_t *x, uint64_t *y)
{
    bool right = s->mip_layout == SURFACE_MIP_RIGHT;
    *x = *y = 0;
    if (lod == 0)
        return;
    if (lod == 1) {
        if (right)
            *x = lod_w_el(s, 0);
        else
            *y = lod_h_el(s, 0);
        return;
    }
    *x = right ? lod_w_el(s, 0) : lod_w_el(s, 1);
    *y = (right ? lod_h_el(s, 1) : lod_h_el(s, 0)) + heights(s, 2, lod, false);
}

enum surface_status surface_lod_origin(const struct surface *s, uint32_t lod, uint32_t slice,
                                       uint64_t *x_el, uint64_t *y_el)
{
    if (s->status != SURFACE_OK || !is_image(s))
        return SURFACE_NOT_ADDRESSABLE;
    if (lod >= s->levels)
        return SURFACE_OUT_OF_BOUNDS;
    switch (s->mip_layout) {
    case SURFACE_MIP_1D:
        *x_el = (uint64_t)slice * s->qpitch;
        for (uint32_t i = 0; i < lod; i++)
            *x_el += lod_w_el(s, i);
        *y_el = 0;
        return SURFACE_OK;
    case SURFACE_MIP_3D:
        if (slice >= lod_slices_3d(s, lod))
            return SURFACE_OUT_OF_BOUNDS;
        *x_el = (uint64_t)(slice & ((1u << lod) - 1)) * lod_w_el(s, lod);
        *y_el = heights(s, 0, lod, true) + (uint64_t)(slice >> lod) * lod_h_el(s, lod);
        return SURFACE_OK;
    default:
        origin_2d(s, lod, x_el, y_el);
        *y_el += (uint64_t)slice * s->qpitch;
        return SURFACE_OK;
    }
}

/* ---- addresses ------------------------------------------------------------------- */

/* Interleaved samples: sample bits go above bit 0 of x and y (blorp's
 * encode_msaa for IMS): x' = (x & ~1) << nx | sx << 1 | (x & 1), the same in y,
 * with sx/sy gathered from the sample's bits by the table. */
static void interleave(uint32_t samples, uint32_t *x, uint32_t *y, uint32_t sample)
{
    static const struct {
        uint8_t nx, ny;                 /* sample bits in x, in y */
        uint8_t xbits[2], ybits[2];     /* which sample bit, lowest first */
    } ims[5] = {
        { 0, 0, { 0, 0 }, { 0, 0 } },   /* 1x */
        { 1, 0, { 0, 0 }, { 0, 0 } },   /* 2x: s0 in x */
        { 1, 1, { 0, 0 }, { 1, 0 } },   /* 4x: s0 in x, s1 in y */
        { 2, 1, { 0, 2 }, { 1, 0 } },   /* 8x: s0 s2 in x, s1 in y */
        { 2, 2, { 0, 2 }, { 1, 3 } },   /* 16x: s0 s2 in x, s1 s3 in y */
    };
    unsigned i = samples >= 16 ? 4 : samples >= 8 ? 3 : samples >= 4 ? 2 : samples >= 2 ? 1 : 0;
    uint32_t sx = 0, sy = 0;
    for (unsigned b = 0; b < ims[i].nx; b++)
        sx |= (sample >> ims[i].xbits[b] & 1) << b;
    for (unsigned b = 0; b < ims[i].ny; b++)
        sy |= (sample >> ims[i].ybits[b] & 1) << b;
    *x = (*x & ~1u) << ims[i].nx | sx << 1 | (*x & 1);
    *y = (*y & ~1u) << ims[i].ny | sy << 1 | (*y & 1);
}

static enum surface_status buffer_offset(const struct surface *s, uint32_t x, uint32_t y,
                                         uint64_t *offset)
{
    if (x >= s->buffer_entries)
        return SURFACE_OUT_OF_BOUNDS;
    if (s->type == SURFACE_BUFFER) {
        *offset = (uint64_t)x * s->element_bytes;
        return SURFACE_OK;
    }
    /* STRBUF: structure x, byte y, inferred from the bounds "U < Size", "V <
     * Pitch - Access Width" (003 L5092-5120; the figure is not in the seed) */
    if (y >= s->pitch)
        return SURFACE_OUT_OF_BOUNDS;
    *offset = (uint64_t)x * s->pitch + y;
    return SURFACE_OK;
}

static enum surface_status check_coords(const struct surface *s, uint32_t x, uint32_t y,
                                        uint32_t slice, uint32_t lod, uint32_t sample)
{
    if (lod >= s->levels || sample >= s->samples)
        return SURFACE_OUT_OF_BOUNDS;
    if (x >= surface_lod_width(s, lod) || (s->type != SURFACE_1D && y >= surface_lod_height(s, lod)))
        return SURFACE_OUT_OF_BOUNDS;
    if (s->type == SURFACE_1D && y != 0)
        return SURFACE_OUT_OF_BOUNDS;
    if (s->type == SURFACE_3D ? slice >= surface_lod_depth(s, lod) : slice >= s->array_length)
        return SURFACE_OUT_OF_BOUNDS;
    if ((s->tiling == TILING_YF || s->tiling == TILING_YS) && lod >= s->mip_tail_start)
        return SURFACE_UNSUPPORTED;     /* the mip tail is not modelled */
    return SURFACE_OK;
}

enum surface_status surface_offset(const struct surface *s, uint32_t x, uint32_t y,
                                   uint32_t slice, uint32_t lod, uint32_t sample,
                                   uint64_t *offset)
{
    if (s->status != SURFACE_OK || s->type == SURFACE_NULL)
        return SURFACE_NOT_ADDRESSABLE;
    if (s->element_bytes == 0)
        return SURFACE_NO_ELEMENT_SIZE;
    if (s->type == SURFACE_BUFFER || s->type == SURFACE_STRBUF)
        return buffer_offset(s, x, y, offset);
    enum surface_status st = check_coords(s, x, y, slice, lod, sample);
    if (st != SURFACE_OK)
        return st;
    if (s->msaa_layout == SURFACE_MSAA_ARRAY)
        slice = slice * s->samples + sample;
    else if (s->msaa_layout == SURFACE_MSAA_INTERLEAVED)
        interleave(s->samples, &x, &y, sample);
    uint64_t ox, oy;
    st = surface_lod_origin(s, lod, slice, &ox, &oy);
    if (st != SURFACE_OK)
        return st;
    uint64_t ex = ox + (x + s->x_offset) / s->block_width;
    uint64_t ey = oy + (y + s->y_offset) / s->block_height;
    if (s->mip_layout == SURFACE_MIP_1D) {     /* Surface Pitch is ignored for Gen9 1D */
        *offset = ex * s->element_bytes;
        return SURFACE_OK;
    }
    return tiling_offset(s->tiling, s->element_bytes, s->pitch, ex * s->element_bytes, ey, offset)
               ? SURFACE_OK
               : SURFACE_UNSUPPORTED;
}

enum surface_status surface_address(const struct surface *s, uint32_t x, uint32_t y,
                                    uint32_t slice, uint32_t lod, uint32_t sample,
                                    uint64_t *address)
{
    uint64_t offset;
    enum surface_status st = surface_offset(s, x, y, slice, lod, sample, &offset);
    if (st == SURFACE_OK)
        *address = s->base_address + offset;
    return st;
}

const char *surface_status_name(enum surface_status st)
{
    switch (st) {
    case SURFACE_OK: return "ok";
    case SURFACE_BAD_GEN: return "unknown generation";
    case SURFACE_RESERVED: return "reserved encoding";
    case SURFACE_UNSUPPORTED: return "not modelled";
    case SURFACE_OUT_OF_BOUNDS: return "out of bounds";
    case SURFACE_NO_ELEMENT_SIZE: return "element size unknown";
    case SURFACE_NOT_ADDRESSABLE: return "not addressable";
    }
    return "?";
}

/* ---- auxiliary surfaces (surface.h: the MCS and CCS layouts and sources) ---------- */

enum surface_aux_usage surface_aux_usage(const struct surface *s)
{
    if (s->status != SURFACE_OK || s->aux_mode == SURFACE_AUX_NONE)
        return SURFACE_AUX_USAGE_NONE;
    bool mcs_mode = s->gen >= 9 ? s->aux_mode == SURFACE_AUX_CCS_D ||
                                      s->aux_mode == SURFACE_AUX_CCS_E
                                : s->aux_mode == SURFACE_AUX_MCS;
    if (!mcs_mode)
        return SURFACE_AUX_USAGE_NONE;
    if (s->samples > 1)
        return s->msaa_layout == SURFACE_MSAA_ARRAY && s->type == SURFACE_2D
                   ? SURFACE_AUX_USAGE_MCS
                   : SURFACE_AUX_USAGE_NONE;
    bool plain = s->element_bytes == 4 || s->element_bytes == 8 || s->element_bytes == 16;
    if (s->gen >= 9 && s->type == SURFACE_2D && s->tiling == TILING_Y && plain &&
        s->block_width == 1 && s->block_height == 1)
        return SURFACE_AUX_USAGE_CCS;
    return SURFACE_AUX_USAGE_NONE;
}

uint32_t surface_mcs_element_bytes(uint32_t samples)
{
    return samples >= 16 ? 8u : samples >= 8 ? 4u : 1u;
}

unsigned surface_mcs_bits_per_sample(uint32_t samples)
{
    return samples >= 16 ? 4u : samples >= 8 ? 3u : samples >= 4 ? 2u : 1u;
}

uint64_t surface_mcs_uncompressed(uint32_t samples)
{
    unsigned b = surface_mcs_bits_per_sample(samples);
    uint64_t v = 0;
    for (uint64_t i = 0; i < samples && i < 16; i++)
        v |= i << (b * i);
    return v;
}

uint64_t surface_mcs_cleared(uint32_t samples)
{
    uint32_t bytes = surface_mcs_element_bytes(samples);
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

bool surface_mcs_is_clear(uint32_t samples, uint64_t value)
{
    /* 2x: only the low 2 bits count (blorp_nir_mcs_is_clear_color) */
    uint64_t mask = samples == 2 ? 3u : surface_mcs_cleared(samples);
    return (value & mask) == mask;
}

enum surface_status surface_mcs_address(const struct surface *s, uint32_t x, uint32_t y,
                                        uint32_t slice, uint64_t *address)
{
    if (surface_aux_usage(s) != SURFACE_AUX_USAGE_MCS)
        return SURFACE_UNSUPPORTED;
    if (x >= s->width || y >= s->height || slice >= s->array_length)
        return SURFACE_OUT_OF_BOUNDS;
    uint32_t bytes = surface_mcs_element_bytes(s->samples);
    uint64_t offset;
    if (!tiling_offset(TILING_Y, bytes, s->aux_pitch * 128u, (uint64_t)x * bytes,
                       y + (uint64_t)slice * s->aux_qpitch, &offset))
        return SURFACE_UNSUPPORTED;
    *address = s->aux_address + offset;
    return SURFACE_OK;
}

void surface_ccs_block(const struct surface *s, uint32_t *width, uint32_t *height)
{
    *width = s->element_bytes ? max1(32 / s->element_bytes) : 1;
    *height = 4;
}

enum surface_status surface_ccs_address(const struct surface *s, uint32_t x, uint32_t y,
                                        uint32_t slice, uint32_t lod, uint64_t *address,
                                        unsigned *shift)
{
    if (surface_aux_usage(s) != SURFACE_AUX_USAGE_CCS)
        return SURFACE_UNSUPPORTED;
    if (lod >= s->levels || x >= surface_lod_width(s, lod) ||
        y >= surface_lod_height(s, lod) || slice >= s->array_length)
        return SURFACE_OUT_OF_BOUNDS;
    uint64_t ox, oy;
    enum surface_status st = surface_lod_origin(s, lod, 0, &ox, &oy);
    if (st != SURFACE_OK)
        return st;
    uint64_t u = (ox + x + s->x_offset) * s->element_bytes / 32;
    uint64_t v = (oy + y + s->y_offset) / 4 + (uint64_t)slice * (s->aux_qpitch / 4);
    uint64_t tile = (v >> 7) * s->aux_pitch + (u >> 7);
    uint64_t byte = ((u >> 1) & 7) | ((v >> 1) & 63) << 3 | ((u >> 4) & 7) << 9;
    *address = s->aux_address + tile * 4096 + byte;
    *shift = (unsigned)(2 * ((u & 1) | (v & 1) << 1));
    return SURFACE_OK;
}
