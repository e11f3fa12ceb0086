/* units/common/depth_stencil.h - the depth and stencil tests and updates, and
 * the depth / separate stencil surfaces in memory: a library (no fabric unit)
 * that WM's early depth/stencil uses and the pixel back end can use for late
 * depth.
 *
 * Seed 003:
 *  - stencil test (L16488-16500): (Reference & TestMask) FUNC (Stencil &
 *    TestMask); the back-face state is used for back-facing objects when
 *    Double Sided Stencil Enable is set; the test only feeds the update;
 *  - depth test (L16502-16516): source depth FUNC destination depth, the
 *    source clamped to the CC viewport's [Minimum Depth, Maximum Depth];
 *  - buffer update (L16677-16711): stencil ops KEEP, ZERO, REPLACE (the
 *    reference), INCRSAT, DECRSAT, INCR (wrap), DECR (wrap), INVERT chosen by
 *    Stencil Fail / Pass Depth Fail / Pass Depth Pass (back-face set likewise),
 *    written through the 8-bit write mask; stencil may be written although
 *    depth writes are off; depth is written when the test is off or passed;
 *    a depth (or stencil) failure kills the pixel;
 *  - WM_INT formulas (L15428-15468): the stencil test and write need a
 *    stencil buffer (3DSTATE_STENCIL_BUFFER Enable), the stencil write also
 *    the depth buffer's Stencil Write Enable; the depth test and write need a
 *    depth surface that is not NULL, the write also the depth buffer's Depth
 *    Write Enable (the caller folds these into struct ds_state);
 *  - separate stencil only (R8_UINT, L15930); depth formats D32_FLOAT,
 *    D24_UNORM_X8_UINT, D16_UNORM (encodings from the reference genxml
 *    gen9.xml 3DSTATE_DEPTH_BUFFER); depth buffers are Y-tiled, the stencil
 *    buffer W-tiled (L15777 "Tile-Y only" for HiZ's depth; the W tile of
 *    units/common/tiling.h).
 * Encodings of the compare functions and stencil ops: reference genxml
 * 3D_Compare_Function / 3D_Stencil_Operation (the seed names them only).
 *
 * UNORM depth: the source depth (clamped to [0, 1]) is converted to the
 * format's integer, round to nearest, and compared as integers; D32_FLOAT
 * compares floats (a NaN compares false except NOTEQUAL).
 *
 * The hierarchical depth (HiZ) buffer (seed 003 L15777-15808, the ops
 * L15810-15924): "the format of the data in the hierarchical depth buffer is
 * not documented" (L15799), so the record below is the model's choice; what
 * the seed fixes is kept: Tile-Y only, geometry inherited from the depth
 * buffer, 8x4-pixel granularity of HiZ resolves (L15924) and of the
 * "ambiguate" the seed asks for on unpadded buffers (L15835), the effect
 * "invisible other than generally higher performance" (L15801), and the
 * size: HZ_Width = ceil(Z_Width/16)*16 bytes by HZ_Height ~ Z_Height/2 rows
 * (L15785-15790), i.e. 16 bytes per 8x4 pixels, taken in that shape: block
 * (bx, by) is the 8 bytes at byte bx * 8 of HiZ rows 2 by and 2 by + 1 of
 * the Y-tiled HiZ surface (Surface Pitch of 3DSTATE_HIER_DEPTH_BUFFER; the
 * captures' pitches are the formula's: 512 bytes for a 512-pixel-wide
 * D16 buffer in skl_fill_heavy); array slice s starts 2 s QPitch rows down
 * (Surface QPitch counts depth pixel rows / 4, as the depth buffer's; half
 * as many HiZ rows). The record (little-endian dwords; 0 and 1 in the first
 * row, 2 and 3 in the second):
 *   dword 0: state: 0 AMBIGUOUS (the depth buffer holds the block's values,
 *            no bound known: zeroed memory is safe), 1 RANGE (the depth buffer
 *            holds them, every one within [dword 1, dword 2]), 2 CLEARED
 *            (every pixel's depth is dword 1, the clear value; the depth
 *            buffer's bytes are stale); other values are read as AMBIGUOUS
 *            (counted by the caller);
 *   dword 1, 2: the least and greatest depth, as the format stores it (D24:
 *            the 24 value bits; D32_FLOAT: the float's bits);
 *   dword 3: 0.
 * A block leaves CLEARED when a pixel of it is first tested or written: the
 * clear value is written to all its pixels ("materialised") and it becomes
 * RANGE [clear, clear]; every depth write widens RANGE to include the new
 * value (a conservative bound: overwritten values are not subtracted).
 *
 * Multisampled depth and stencil (issue 12 items 2, 5): "the depth and
 * stencil buffers ... have the ability to store per-sample values" and
 * "inherit [Number of Multisamples] from 3DSTATE_MULTISAMPLE" (seed 003
 * L15587, L15605; 3DSTATE_DEPTH_BUFFER has no sample count): struct
 * ds_surface's `samples` is set by the user from 3DSTATE_MULTISAMPLE (or
 * WM_HZ_OP's own Number of Multisamples). The seeds do not give the layout
 * in memory (seed 003 L3438 refers to the GPU Overview volume's
 * "multisample storage format", not among the seeds); the model takes
 * Mesa's, which drivers lay these surfaces out by: depth, stencil and HiZ
 * surfaces of Gen7+ are always interleaved (IMS, isl's
 * ISL_MSAA_LAYOUT_INTERLEAVED, RENDER_SURFACE_STATE's MSFMT_DEPTH_STENCIL),
 * the samples of a pixel stored as neighbouring elements of a physical
 * surface 2x1 (2x), 2x2 (4x), 4x2 (8x), 4x4 (16x) times as large, by
 * blorp's encode_msaa (Mesa src/intel/blorp/blorp_blit.c):
 *   2x:  X' = (X & ~1) << 1 | (S & 1) << 1 | (X & 1),  Y' = Y
 *   4x:  X' as 2x,  Y' = (Y & ~1) << 1 | (S & 2) | (Y & 1)
 *   8x:  X' = (X & ~1) << 2 | (S & 4) | (S & 1) << 1 | (X & 1),  Y' as 4x
 *   16x: X' as 8x,  Y' = (Y & ~1) << 2 | (S & 8) >> 1 | (S & 2) | (Y & 1)
 * (ds_ims_position). Width, Height are the logical (pixel) size the bounds
 * check uses; Surface Pitch and QPitch are the physical surface's. The HiZ
 * record stays one per 8x4 pixels (the model's format, above) and bounds
 * every sample of its pixels: hiz_fill_depth and hiz_rebuild cover them all.
 *
 * Not modelled: interleaved depth/stencil formats (refused), LODs other
 * than 0, Yf/Ys depth tiling, the depth bounds test, the depth coordinate
 * offset (L16468).
 */
#ifndef GTSIM_UNITS_COMMON_DEPTH_STENCIL_H
#define GTSIM_UNITS_COMMON_DEPTH_STENCIL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"
#include "spec_common.h"
#include "units/common/tiling.h"

enum ds_compare_function {
    DS_COMPARE_ALWAYS = 0,
    DS_COMPARE_NEVER = 1,
    DS_COMPARE_LESS = 2,
    DS_COMPARE_EQUAL = 3,
    DS_COMPARE_LEQUAL = 4,
    DS_COMPARE_GREATER = 5,
    DS_COMPARE_NOTEQUAL = 6,
    DS_COMPARE_GEQUAL = 7,
};

enum ds_stencil_op {
    DS_STENCIL_KEEP = 0,
    DS_STENCIL_ZERO = 1,
    DS_STENCIL_REPLACE = 2,
    DS_STENCIL_INCRSAT = 3,
    DS_STENCIL_DECRSAT = 4,
    DS_STENCIL_INCR = 5,
    DS_STENCIL_DECR = 6,
    DS_STENCIL_INVERT = 7,
};

enum ds_depth_format {
    DS_D32_FLOAT_S8X24_UINT = 0,    /* Gen8 interleaved: refused */
    DS_D32_FLOAT = 1,
    DS_D24_UNORM_S8_UINT = 2,       /* Gen8 interleaved: refused */
    DS_D24_UNORM_X8_UINT = 3,
    DS_D16_UNORM = 5,
};

/* a FUNC b */
bool ds_compare_uint(uint32_t function, uint32_t a, uint32_t b);
bool ds_compare_float(uint32_t function, float a, float b);

/* The stencil value after op (8 bits, before the write mask). */
uint8_t ds_stencil_apply(uint32_t op, uint8_t value, uint8_t reference);

struct ds_face {
    uint32_t function;              /* enum ds_compare_function */
    uint32_t fail_op, depth_fail_op, pass_op;   /* enum ds_stencil_op */
    uint8_t test_mask, write_mask, reference;
};

/* The effective (WM_INT) state: the enables already folded with the buffers'. */
struct ds_state {
    bool depth_test, depth_write;
    uint32_t depth_function;
    bool stencil_test, stencil_write;
    bool double_sided;
    struct ds_face front, back;
    float min_depth, max_depth;     /* CC viewport clamp (min > max: no clamp) */
};

/* What WM_INT folds 3DSTATE_WM_DEPTH_STENCIL's enables with: the depth and
 * stencil buffers' presence and write enables, and the viewport's CC depth
 * range (cc_valid false: no clamp). */
struct ds_buffers {
    bool depth_surface, depth_write;
    bool stencil_valid, stencil_write;
    bool cc_valid;
    float cc_min, cc_max;
};

/* The effective state of WM_INT (seed 003 L15428-15468), shared by WM's
 * early test and the pixel back end's late one. */
void ds_state_fold(const struct spec_3DSTATE_WM_DEPTH_STENCIL *v, const struct ds_buffers *b,
                   struct ds_state *o);

/* Bytes per depth value of a format; 0 for a format not modelled. */
uint32_t ds_depth_bytes(uint32_t format);
/* The source depth as the format stores it (UNORM: round to nearest of the
 * clamped value; D32_FLOAT: the float's bits). */
uint32_t ds_depth_encode(uint32_t format, float depth);
/* The stored value as a float in [0, 1] (D32_FLOAT: the float). */
float ds_depth_decode(uint32_t format, uint32_t stored);

enum ds_result_flags {
    DS_PASS = 1u << 0,              /* the pixel survives */
    DS_STENCIL_FAILED = 1u << 1,
    DS_DEPTH_FAILED = 1u << 2,
    DS_DEPTH_WRITTEN = 1u << 3,     /* *depth holds a new value to store */
    DS_STENCIL_WRITTEN = 1u << 4,   /* *stencil holds a new value to store */
};

/* Tests one pixel (sample): *depth and *stencil hold the destination values
 * (as stored; ignored when the test needing them is off) and receive the
 * values to store. Returns enum ds_result_flags. */
uint32_t ds_test(const struct ds_state *st, bool back_facing, uint32_t depth_format,
                 float source_depth, uint32_t *depth, uint8_t *stencil);

/* A depth or stencil surface in memory (3DSTATE_DEPTH_BUFFER /
 * 3DSTATE_STENCIL_BUFFER decoded). */
struct ds_surface {
    bool valid;
    uint64_t base;
    uint32_t pitch;                 /* bytes per row as tiled */
    uint32_t width, height;         /* pixels; 0 = unchecked */
    uint32_t slices;                /* array slices; 0 = unchecked */
    uint32_t qpitch_rows;           /* rows between array slices */
    uint32_t element_bytes;         /* 1 (stencil), 2 or 4; Gen4 D24S8: 3 and 1 (below) */
    uint32_t element_stride;        /* bytes from one element to the next in a row; 0 =
                                       element_bytes (Gen4's D24_UNORM_S8_UINT: 4 for both
                                       its depth (bytes 2:0) and its stencil (byte 3) view) */
    enum tiling tiling;             /* TILING_Y (depth) or TILING_W (stencil) */
    uint32_t samples;               /* 0 or 1: single-sampled; 2, 4, 8, 16: interleaved (IMS) */
};

/* Sample `sample` of logical pixel (x, y) in the interleaved (IMS) layout of
 * a `samples`-sampled depth/stencil surface: the physical element (*px, *py)
 * (above; 0 or 1 samples: the pixel itself). False for a sample count not
 * 1/2/4/8/16 or a sample beyond it. */
bool ds_ims_position(uint32_t samples, uint32_t x, uint32_t y, uint32_t sample, uint32_t *px,
                     uint32_t *py);
/* The samples per pixel of a surface (1 when `samples` is 0). */
uint32_t ds_surface_samples(const struct ds_surface *s);
/* The byte address of sample `sample` of pixel (x, y) of slice `slice`. */
bool ds_surface_sample_address(const struct ds_surface *s, uint32_t x, uint32_t y,
                               uint32_t sample, uint32_t slice, uint64_t *address);
bool ds_surface_read_sample(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                            uint32_t y, uint32_t sample, uint32_t slice, uint32_t *value);
bool ds_surface_write_sample(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                             uint32_t y, uint32_t sample, uint32_t slice, uint32_t value);

/* The byte address of pixel (x, y) (its sample 0) of slice `slice`; false
 * when out of the surface or not addressable. */
bool ds_surface_address(const struct ds_surface *s, uint32_t x, uint32_t y, uint32_t slice,
                        uint64_t *address);

/* Reads / writes one element (element_bytes, little-endian) through the
 * address space. False (and nothing written) on a fault or out of bounds. */
bool ds_surface_read(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                     uint32_t y, uint32_t slice, uint32_t *value);
bool ds_surface_write(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t slice, uint32_t value);

/* ---- hierarchical depth (HiZ) ---------------------------------------------------------- */

#define HIZ_BLOCK_WIDTH 8u          /* pixels */
#define HIZ_BLOCK_HEIGHT 4u
#define HIZ_BLOCK_BYTES 16u

enum hiz_block_state {
    HIZ_AMBIGUOUS = 0,
    HIZ_RANGE = 1,
    HIZ_CLEARED = 2,
};

struct hiz_block {
    uint32_t state;                 /* enum hiz_block_state */
    uint32_t min, max;              /* stored depth encodings (RANGE: bounds; CLEARED: min = max) */
};

/* 3DSTATE_HIER_DEPTH_BUFFER decoded. */
struct hiz_surface {
    bool valid;
    uint64_t base;
    uint32_t pitch;                 /* bytes per row as tiled */
    uint32_t slice_rows;            /* block rows between array slices (Surface QPitch; twice as
                                       many HiZ rows) */
    uint32_t blocks_x, blocks_y;    /* of the depth buffer's pixels; 0 = unchecked */
};

/* The value bits of a stored depth (D24: 24 bits, D16: 16). */
uint32_t ds_depth_value(uint32_t format, uint32_t stored);
/* a < b in the format's order (D32_FLOAT as floats: false with a NaN). */
bool ds_depth_less(uint32_t format, uint32_t a, uint32_t b);

/* Reads / writes the record of block (bx, by) of slice `slice`; false on a
 * fault or out of the surface. *bad (may be NULL) is set when the state
 * read was none of enum hiz_block_state (then read as HIZ_AMBIGUOUS). */
bool hiz_block_read(const struct hiz_surface *h, struct gpu_address_space *as, uint32_t bx,
                    uint32_t by, uint32_t slice, struct hiz_block *b, bool *bad);
bool hiz_block_write(const struct hiz_surface *h, struct gpu_address_space *as, uint32_t bx,
                     uint32_t by, uint32_t slice, const struct hiz_block *b);
/* The GPU virtual address of the 64-byte line holding block (bx, by)'s
 * record: its two 8-byte halves are rows 2 by and 2 by + 1 of the Y-tiled
 * HiZ surface, one 16-byte OWord column apart by 16 bytes, so both lie in
 * the column's 64-byte line of rows 4k..4k+3 (with the records of blocks
 * bx ^ 1 and by ^ 1: 16 x 8 pixels a line). False out of the surface. */
bool hiz_block_line(const struct hiz_surface *h, uint32_t bx, uint32_t by, uint32_t slice,
                    uint64_t *line_address);

/* Whether every source depth in [source_min, source_max] fails `function`
 * against every destination the block can hold (stored encodings of the
 * format). AMBIGUOUS blocks never reject. */
bool hiz_rejects(uint32_t function, uint32_t format, const struct hiz_block *b,
                 uint32_t source_min, uint32_t source_max);

/* Widens a block's bound with a depth written to it (RANGE stays RANGE,
 * AMBIGUOUS stays AMBIGUOUS). */
void hiz_block_note_write(struct hiz_block *b, uint32_t format, uint32_t stored);

/* Writes `value` to every pixel (every sample) of block (bx, by) of the depth
 * surface (the part inside it); D24 keeps each sample's X8 bits. Returns the pixels that
 * could not be written (faults). */
uint32_t hiz_fill_depth(const struct ds_surface *depth, uint32_t format,
                        struct gpu_address_space *as, uint32_t bx, uint32_t by, uint32_t slice,
                        uint32_t value);

/* A block rebuilt from the depth buffer (the HiZ resolve): RANGE with the
 * least and greatest of its pixels (inside the surface), AMBIGUOUS when a
 * pixel is unreadable or a NaN. */
struct hiz_block hiz_rebuild(const struct ds_surface *depth, uint32_t format,
                             struct gpu_address_space *as, uint32_t bx, uint32_t by,
                             uint32_t slice);

/* Merges two views of one block (a cached copy and what memory holds now):
 * CLEARED only when both are the same clear, AMBIGUOUS when either is, else
 * the union of the ranges. */
struct hiz_block hiz_merge(uint32_t format, const struct hiz_block *a, const struct hiz_block *b);

#endif
