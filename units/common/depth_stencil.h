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
 * Not modelled: interleaved depth/stencil formats (refused), multisampled
 * depth/stencil surfaces (one sample per pixel), LODs other than 0, Yf/Ys
 * depth tiling, HiZ contents, the depth bounds test, the depth coordinate
 * offset (L16468).
 */
#ifndef GTSIM_UNITS_COMMON_DEPTH_STENCIL_H
#define GTSIM_UNITS_COMMON_DEPTH_STENCIL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"
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
    uint32_t element_bytes;         /* 1 (stencil), 2 or 4 */
    enum tiling tiling;             /* TILING_Y (depth) or TILING_W (stencil) */
};

/* The byte address of pixel (x, y) of slice `slice`; false when out of the
 * surface or not addressable. */
bool ds_surface_address(const struct ds_surface *s, uint32_t x, uint32_t y, uint32_t slice,
                        uint64_t *address);

/* Reads / writes one element (element_bytes, little-endian) through the
 * address space. False (and nothing written) on a fault or out of bounds. */
bool ds_surface_read(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                     uint32_t y, uint32_t slice, uint32_t *value);
bool ds_surface_write(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t slice, uint32_t value);

#endif
