/* units/common/pixel.h - pixels: rasterized subspans from WM to the pixel
 * shader dispatch (MSG_SUBSPANS), and render target writes from the render
 * cache's data port to the pixel back end (MSG_PIXELS).
 *
 * WM rasterizes a set-up primitive (primitive.h) into 2x2 subspans and hands
 * them on in groups of up to 8 (one SIMD32 dispatch; SIMD16 = 4, SIMD8 = 2,
 * seed 003 L15946-16044); the dispatch builds the PS payload from them (R1
 * subspan X/Y and masks, barycentrics, depth and W, 003 L16108-16383) with
 * the thread payload builder and sends MSG_THREAD_DISPATCH to the TD.
 *
 * A PS thread's render target write (SFID 5, render cache data port,
 * 003 L7584-8213) is a MSG_SEND; the data port decodes it (descriptor: RT
 * write subtype, last RT, slot group; payload order s0A oM R G B A sZ oS,
 * L7858-7950) into struct rt_write and the colour calculator (stencil,
 * depth, blend, logic ops, 003 L16385-16767) consumes that. Slots follow the
 * seed's slot mapping (L7688-7735): slot 4k+i = subspan k, pixel i (i in
 * upper-left, upper-right, lower-left, lower-right order) at 1x.
 */
#ifndef GTSIM_UNITS_COMMON_PIXEL_H
#define GTSIM_UNITS_COMMON_PIXEL_H

#include <stdint.h>

#define PIXEL_MAX_SUBSPANS 8u       /* SIMD32 dispatch */
#define PIXEL_MAX_SLOTS 32u
#define PIXEL_MAX_SAMPLES 16u

struct subspan {
    uint16_t x, y;                  /* upper-left pixel (R1.2-R1.5, U16) */
    uint16_t pixel_mask;            /* 4 pixels x up to 4 samples: bit 4*s + p */
    uint16_t reserved;
    uint32_t sample_mask[4];        /* per pixel, up to 16 samples (coverage) */
    float depth[4];                 /* interpolated source depth per pixel */
    uint8_t aa_alpha[4];            /* antialiased lines: each pixel's coverage (Antialias
                                       Alpha, seed 003 L14978-14992), U0.8, 255 = 1.0; 0
                                       for other primitives (unused) */
};

struct subspan_packet {
    uint32_t primitive_id;
    uint32_t flags;                 /* enum prim_flags (BACK_FACING) */
    uint32_t viewport_index, rt_array_index;
    uint32_t samples;               /* 1, 2, 4, 8, 16 */
    uint32_t per_sample;            /* PERSAMPLE dispatch: starting sample pair index follows */
    uint32_t starting_sample_pair;
    uint32_t count;                 /* subspans in use */
    const void *setup;              /* the struct setup_primitive in the WM's keeping, for
                                       the payload's barycentrics; valid until the WM is told
                                       the primitive's last subspan is dispatched */
    struct subspan subspans[PIXEL_MAX_SUBSPANS];
};

/* Render target write subtypes (descriptor bits 10:8 of the RT write message;
 * 003 L7888 names them; the numbers are from Mesa's brw_inst.h, the seed
 * gives names only). */
enum rt_write_subtype {
    RT_WRITE_SIMD16_SINGLE_SOURCE = 0,
    RT_WRITE_SIMD16_REPLICATED = 1,
    RT_WRITE_SIMD8_DUAL_SOURCE_LOW = 2,
    RT_WRITE_SIMD8_DUAL_SOURCE_HIGH = 3,
    RT_WRITE_SIMD8_SINGLE_SOURCE = 4,
};

enum rt_write_flags {
    RT_WRITE_LAST_RT = 1u << 0,         /* Last Render Target Select: clears the scoreboard */
    RT_WRITE_SLOT_GROUP_HIGH = 1u << 1, /* slots 31:16 */
    RT_WRITE_HAS_SOURCE0_ALPHA = 1u << 2,
    RT_WRITE_HAS_OMASK = 1u << 3,
    RT_WRITE_HAS_DEPTH = 1u << 4,
    RT_WRITE_HAS_STENCIL = 1u << 5,
    RT_WRITE_DUAL_SOURCE = 1u << 6,
    RT_WRITE_HALF_PRECISION = 1u << 7,  /* data came as 16-bit floats (desc bit 30) */
    RT_WRITE_EOT = 1u << 8,
};

/* One render target write, decoded: every slot's colour as the shader wrote
 * it (floats, or the integer bits for integer formats), with the masks that
 * decide which slots and samples it touches. */
struct rt_write {
    uint32_t render_target;         /* binding table index of the RT surface */
    uint32_t render_target_index;   /* header M0.2 Render Target Index: the BLEND_STATE
                                       entry (0 without a header, 003 L8063-8075) */
    uint32_t subtype;               /* enum rt_write_subtype */
    uint32_t flags;                 /* enum rt_write_flags */
    uint32_t slot_mask;             /* pixel sample mask (header) or exec mask */
    uint32_t rt_array_index;
    uint32_t samples;
    uint32_t starting_sample_pair;
    uint16_t subspan_x[PIXEL_MAX_SUBSPANS], subspan_y[PIXEL_MAX_SUBSPANS];
    uint32_t color[2][4][PIXEL_MAX_SLOTS];  /* [source][channel R G B A][slot], raw 32 bits */
    uint32_t source0_alpha[PIXEL_MAX_SLOTS];
    uint16_t omask[PIXEL_MAX_SLOTS];
    float depth[PIXEL_MAX_SLOTS];
    uint8_t stencil[PIXEL_MAX_SLOTS];
};

#endif
