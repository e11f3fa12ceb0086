/* units/common/surface.h - one generation-neutral description of a surface,
 * decoded from a RENDER_SURFACE_STATE (Gen4, Gen7, Gen8, Gen9 forms), and the
 * byte offset of (x, y, array slice or z, LOD, sample) in it.
 *
 * Modelled:
 * - the state's fields through the generated GENn_RENDER_SURFACE_STATE_unpack
 *   (spec/data/gen*.xml; Gen4's is the 5-dword G965 form, no dword 5);
 * - types 1D/2D/3D/CUBE/BUFFER/STRBUF/NULL; arrays (Depth + 1 slices, 6 per
 *   cube), minimum array element, render target view extent; buffers' size
 *   (Depth | Height | Width = entries - 1, 003 L5083-5087);
 * - tiling linear/X/Y/W and Gen9's Yf/Ys (tiling.h); the pitch is the bytes
 *   per row of the surface as tiled (a W-tiled stencil's own pitch);
 * - mip chains: the 2D layout (LOD 1 below LOD 0, LODs 2.. to the right of
 *   LOD 1 stacked downwards; Gen4's MIPLAYOUT_RIGHT mirrors it), Gen4-8 3D
 *   surfaces (and Gen4 cubes) with 2^lod slices of a LOD side by side, Gen9
 *   linear 1D (LODs and slices along one row, QPitch in pixels) and Gen9 3D
 *   (2D layout, z as the array slice); widths and heights aligned to the
 *   surface's alignment (Gen4: 4 x 2; Gen7/8/9 from the state; Gen9 1D: 64;
 *   Yf/Ys: the tile's shape in elements);
 * - QPitch from the state on Gen8+ (in rows; Gen8 in pixel rows, Gen9 in
 *   element rows, Gen9 1D in pixels) and from the formula on Gen4/Gen7
 *   (ARYSPC_FULL: h0 + h1 + 11j on Gen4, 12j on Gen7; ARYSPC_LOD0: h0);
 * - surface X/Y Offset (Gen7: 4 px / 2 rows units; Gen8+: 4 px / 4 rows);
 * - MSAA: MSS (each sample an array slice: physical slice = slice * samples +
 *   sample) and interleaved (MSFMT_DEPTH_STENCIL, Gen7+: samples spread over
 *   x/y, 2x: 2x1, 4x: 2x2, 8x: 4x2, 16x: 4x4 per pixel);
 * - auxiliary surface (MCS/CCS/HiZ) mode, base address, pitch and QPitch, and
 *   the clear colour (Gen9 dwords 12-15; Gen7/8 the 1-bit fields of dword 7);
 *   the addresses of the two aux layouts the 3D units use (below:
 *   surface_aux_usage, surface_mcs_address, surface_ccs_address).
 * Sources: seeds 003 L5034-5170 (surface types, tile modes, "Base + R*QPitch +
 * V*Pitch + U + LOD_Offset"), 003 L5332-5344 (tiled offsets), 003 L3419-3440
 * (multisampled surfaces), 004 L1905-1925 / L5837-5850 (QPitch[16:2], view
 * extent); public Mesa isl (mip layout, QPitch formula, alignments, 1D, 3D,
 * interleaved sample encoding as in blorp's encode_msaa) for what the seeds do
 * not hold: facts only, no code.
 *
 * Gen7 has no MIP Map Layout Mode field (Gen4-6 only; gmmlib: "MIPLAYOUT_RIGHT
 * not supported after Gen6"), so only Gen4 states can select RIGHT.
 *
 * Not modelled: bit-6 swizzling; the Yf/Ys mip tail (LODs at or past Mip Tail
 * Start are refused), Yf/Ys 3D and MSAA tile shapes (refused); planar (YUV)
 * offsets; quilted surfaces; Gen6 and Gen4.5/Gen5 states; the HiZ layout
 * (units/common/depth_stencil has its own); the Gen7/Gen8 single-sampled
 * "MCS" (the 1-bit fast-clear CCS, whose layout differs per generation and
 * tiling: surface_aux_usage says NONE for it); CCS of X-tiled, Yf/Ys,
 * linear, 1D/3D and mip-tail surfaces; render target rotation. The element size and
 * compression block come from the formats library (units/common/format.h);
 * RAW (0x1FF) counts as one byte (003 L5054 "treat the data as RAW").
 */
#ifndef GTSIM_UNITS_COMMON_SURFACE_H
#define GTSIM_UNITS_COMMON_SURFACE_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/tiling.h"

/* The SURFTYPE encodings (same numbers on every generation). */
enum surface_type {
    SURFACE_1D = 0,
    SURFACE_2D = 1,
    SURFACE_3D = 2,
    SURFACE_CUBE = 3,
    SURFACE_BUFFER = 4,
    SURFACE_STRBUF = 5,    /* Gen7+ */
    SURFACE_NULL = 7,
};

enum surface_msaa_layout {
    SURFACE_MSAA_NONE,
    SURFACE_MSAA_ARRAY,         /* MSFMT_MSS: sample = array slice */
    SURFACE_MSAA_INTERLEAVED,   /* MSFMT_DEPTH_STENCIL: samples spread in x/y */
};

enum surface_mip_layout {
    SURFACE_MIP_BELOW,          /* 2D layout, LOD 1 below LOD 0 */
    SURFACE_MIP_RIGHT,          /* Gen4 MIPLAYOUT_RIGHT: LOD 1 right of LOD 0 */
    SURFACE_MIP_3D,             /* Gen4-8 3D (and Gen4 cube): 2^lod slices per row */
    SURFACE_MIP_1D,             /* Gen9 linear 1D: one row */
};

enum surface_aux {
    SURFACE_AUX_NONE,
    SURFACE_AUX_MCS,            /* Gen7 MCS Enable, Gen8 AUX_MCS */
    SURFACE_AUX_APPEND,
    SURFACE_AUX_HIZ,
    SURFACE_AUX_CCS_D,          /* Gen9 */
    SURFACE_AUX_CCS_E,          /* Gen9 */
};

/* Results of decoding and addressing. */
enum surface_status {
    SURFACE_OK = 0,
    SURFACE_BAD_GEN = -1,           /* not 4, 7, 8 or 9 */
    SURFACE_RESERVED = -2,          /* a reserved encoding in the state */
    SURFACE_UNSUPPORTED = -3,       /* legal but not modelled (see the header) */
    SURFACE_OUT_OF_BOUNDS = -4,     /* a coordinate beyond the surface */
    SURFACE_NO_ELEMENT_SIZE = -5,   /* format's element size unknown: surface_set_element */
    SURFACE_NOT_ADDRESSABLE = -6,   /* NULL surface, or a surface that failed to decode */
};

struct surface {
    unsigned gen;
    enum surface_status status;     /* SURFACE_OK or why the state was refused */
    enum surface_type type;
    uint32_t format;                /* SURFACE_FORMAT number */
    uint32_t element_bytes;         /* bytes per element (texel or block); 0: unknown */
    uint32_t block_width, block_height;     /* pixels per element (1 x 1 uncompressed) */

    uint32_t width, height, depth;  /* LOD 0 in pixels; depth: 3D only, else 1 */
    uint32_t array_length;          /* 2D slices: Depth + 1 (x 6 faces for cubes); 3D: 1 */
    bool surface_array;             /* the state's Surface Array bit (Gen7+) */
    uint32_t min_array_element;
    uint32_t render_target_view_extent;     /* slices (Depth field + 1 semantics) */
    uint64_t buffer_entries;        /* BUFFER/STRBUF: Depth|Height|Width + 1 */
    uint8_t cube_face_enables;      /* bit 0 +Z, 1 -Z, 2 +Y, 3 -Y, 4 +X, 5 -X (dword 0) */

    uint32_t pitch;                 /* bytes per row */
    uint32_t qpitch;                /* rows between array slices (Gen9 1D: elements) */
    uint32_t mip_count_lod;         /* the MIP Count / LOD field (sampler: levels - 1; RT: LOD) */
    uint32_t levels;                /* mip_count_lod + 1 */
    uint32_t min_lod;               /* Surface Min LOD */
    uint32_t base_mip_half;         /* Gen8+ Base Mip Level (U4.1) x 2 */
    uint32_t mip_tail_start;        /* Gen9 Mip Tail Start LOD; 15 when none */
    enum surface_mip_layout mip_layout;
    uint32_t halign, valign;        /* LOD alignment in elements */
    uint32_t halign_state, valign_state, qpitch_state;  /* as the state gives them */
    bool array_spacing_lod0;        /* Gen7 ARYSPC_LOD0 */
    uint32_t x_offset, y_offset;    /* surface origin in pixels / rows from the base */

    enum tiling tiling;
    uint32_t samples;               /* 1, 2, 4, 8, 16 */
    enum surface_msaa_layout msaa_layout;
    uint32_t sample_palette_index;

    uint64_t base_address;
    enum surface_aux aux_mode;      /* recorded only */
    uint64_t aux_address;
    uint32_t aux_pitch;             /* the state's field + 1 (tiles or 512 B units) */
    uint32_t aux_qpitch;            /* rows of the main surface between aux slices */
    uint32_t clear_color[4];        /* R, G, B, A: Gen9 the dwords' bits (float or integer by
                                       format); Gen7/8 the 1-bit fields as 0 or 1 */
};

/* Decodes the RENDER_SURFACE_STATE dwords dw (gen 4: 5 dwords, 7: 8, 8/9: 16)
 * into out. Never fails on garbage: a reserved or unmodelled encoding gives
 * out->status (also returned) other than SURFACE_OK, and such a surface is
 * not addressable; the fields that could be read are still filled. */
enum surface_status surface_from_state(unsigned gen, const uint32_t *dw, struct surface *out);

/* Sets the element size of s's format: bytes per element and the
 * compression block's width and height in pixels. surface_from_state sets it
 * from the formats library; a caller that reinterprets the surface (a typed
 * view, a format the table lacks) sets its own. Recomputes the derived
 * alignment and QPitch. */
void surface_set_element(struct surface *s, uint32_t element_bytes, uint32_t block_width,
                         uint32_t block_height);

/* LOD lod's width/height in pixels of the logical surface (>= 1); depth of a
 * 3D LOD. */
uint32_t surface_lod_width(const struct surface *s, uint32_t lod);
uint32_t surface_lod_height(const struct surface *s, uint32_t lod);
uint32_t surface_lod_depth(const struct surface *s, uint32_t lod);

/* Where physical slice `slice` of LOD lod starts, in elements (x) and rows of
 * elements (y) from the surface's origin: the mip layout, QPitch and 3D
 * slices. For Gen9 1D, x holds everything (y = 0). */
enum surface_status surface_lod_origin(const struct surface *s, uint32_t lod, uint32_t slice,
                                       uint64_t *x_el, uint64_t *y_el);

/* The byte offset from the base address of pixel (x, y) of array slice (1D/2D:
 * the array index; cube: array index * 6 + face, faces +X -X +Y -Y +Z -Z;
 * 3D: z) at LOD lod, sample `sample`. BUFFER: x is the entry (element_bytes
 * apart); STRBUF: x the structure (pitch bytes apart), y the byte in it. */
enum surface_status surface_offset(const struct surface *s, uint32_t x, uint32_t y,
                                   uint32_t slice, uint32_t lod, uint32_t sample,
                                   uint64_t *offset);

/* surface_offset plus the base address. */
enum surface_status surface_address(const struct surface *s, uint32_t x, uint32_t y,
                                    uint32_t slice, uint32_t lod, uint32_t sample,
                                    uint64_t *address);

const char *surface_status_name(enum surface_status st);

/* ---- auxiliary surfaces: MCS and CCS ------------------------------------------
 *
 * MCS (multisample control surface, seed 003 L16768-16800, L4169-4197): one
 * element per pixel of a multisampled (MSFMT_MSS) surface, 8 bits for 2x/4x,
 * 32 for 8x, 64 for 16x ("R8_UINT / R32_UINT / R32G32_UINT", L4195), Y-tiled
 * ("MCS buffer is tiledY", L16795), "height, width and layout ... match the
 * RT": element (x, y) of array slice a at byte column x * bytes, row y + a x
 * Auxiliary Surface QPitch, pitch = Auxiliary Surface Pitch x 128 bytes.
 * Sample s's entry is log2(samples) bits at bit s x log2(samples) and names
 * the sample slice ("plane") holding it; every entry its own index is the
 * "uncompressed" (ambiguated) value, 0 "all samples in plane 0", all ones the
 * cleared pixel (Mesa's blorp: get_mcs_ambiguate_pixel citing the BDW PRM
 * "Compressed Multisample Surfaces", blorp_nir_mcs_is_clear_color: 2x compares
 * only the low 2 bits; facts only).
 *
 * CCS (colour control surface, Gen9 single-sampled AUX_CCS_D / AUX_CCS_E,
 * L16768-16885): 2 bits per cache-line pair of the Y-tiled main surface (32 B
 * x 4 rows: 8x4 pixels at 32 bpp, 4x4 at 64, 2x4 at 128, L16808 "TiledY RT
 * CL"), Y-tiled at the cache-line granularity: CCS element (u, v) = (byte
 * column / 32, row / 4) sits in CCS tile (u / 128, v / 128) of 4 KiB, tiles
 * row-major Auxiliary Surface Pitch tiles a row, and within the tile at
 * address bits 11..0 = u6 u5 u4 v6 v5 v4 v3 v2 v1 u3 u2 u1, the 2-bit slot
 * (u0 + 2 v0) of that byte (Mesa docs/isl/ccs.rst, the Sky Lake Y row of its
 * bit table, from the SKL PRM Vol 12 planes section). LODs sit at the main
 * surface's LOD origin (the CCS alignment 128x64 px of L16802 keeps LODs on
 * whole CCS cache lines); array slices Auxiliary Surface QPitch main rows
 * apart. Values: 0 uncompressed ("initialize MCS with zeros", L16851; Mesa:
 * "A CCS value of 0 means uncompressed"), 3 cleared ("CCS initialized to all
 * F (using HW Fast Clear ...)", L16852); 1 and 2 (compressed) never come from
 * the model, which stores every block uncompressed. */
enum surface_aux_usage {
    SURFACE_AUX_USAGE_NONE,     /* no aux, or one this library does not lay out */
    SURFACE_AUX_USAGE_MCS,      /* multisampled surface with its MCS */
    SURFACE_AUX_USAGE_CCS,      /* Gen9 single-sampled CCS_D / CCS_E */
};

#define SURFACE_CCS_UNCOMPRESSED 0u
#define SURFACE_CCS_CLEAR 3u

/* Which aux layout s's state binds (MCS: Gen7 MCS Enable, Gen8 AUX_MCS, Gen9
 * AUX_CCS_D/E on an MSS surface of 2-16 samples, L16780-16788; CCS: Gen9
 * AUX_CCS_D/E on a single-sampled Y-tiled 2D surface of 32/64/128-bit
 * elements, L16805). */
enum surface_aux_usage surface_aux_usage(const struct surface *s);

/* MCS element bytes (1, 4, 8), bits per sample entry, the ambiguated value,
 * the cleared value and whether a value is the cleared one, for `samples`. */
uint32_t surface_mcs_element_bytes(uint32_t samples);
unsigned surface_mcs_bits_per_sample(uint32_t samples);
uint64_t surface_mcs_uncompressed(uint32_t samples);
uint64_t surface_mcs_cleared(uint32_t samples);
bool surface_mcs_is_clear(uint32_t samples, uint64_t value);

/* The address of pixel (x, y) of array slice `slice`'s MCS element. */
enum surface_status surface_mcs_address(const struct surface *s, uint32_t x, uint32_t y,
                                        uint32_t slice, uint64_t *address);

/* The pixels one CCS element (cache-line pair) covers: 32 / element bytes x 4. */
void surface_ccs_block(const struct surface *s, uint32_t *width, uint32_t *height);

/* The byte holding pixel (x, y) of slice `slice`, LOD lod's CCS element, and
 * the element's bit position in it (0, 2, 4, 6). */
enum surface_status surface_ccs_address(const struct surface *s, uint32_t x, uint32_t y,
                                        uint32_t slice, uint32_t lod, uint64_t *address,
                                        unsigned *shift);

#endif
