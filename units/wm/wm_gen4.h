/* units/wm/wm_gen4.h - the Windower's Gen4 (965G) forms (issue 14 item 3):
 * the state WM reads through pointers and the Gen4 PS thread payload. wm.c
 * holds one struct wm_gen4 and branches to it on Gen4 packets (p->gen == 4).
 *
 * Models (seed 001, notes/001-gen4.md):
 *  - 3DSTATE_PIPELINED_POINTERS (L1235-1349): WM_STATE (L14825-15463) read
 *    from General State Base + Pointer to WM State, CC_STATE (the colour
 *    calculator's, units/common/gen4_cc.h) from General State Base +
 *    Pointer to Color Calc State, and its CC_VIEWPORT (L19869-19873) from
 *    General State Base + CC Viewport State Pointer, when the command
 *    arrives. A pointer whose state cannot be read (outside memory) is
 *    counted (bad_pointers) and leaves WM disabled (no thread dispatch,
 *    depth/stencil off) until a readable one comes;
 *  - 3DSTATE_BINDING_TABLE_POINTERS (L1350-1426): the PS binding table, from
 *    Surface State Base;
 *  - CONSTANT_BUFFER (Mesa's genxml gen4.xml; the GPE chapter is not in the
 *    seed): Valid, Buffer Length (512-bit units - 1) and Buffer Starting
 *    Address, a graphics address; the buffer is read functionally when the
 *    command arrives (the CURBE's trip through the URB's CS region is not
 *    modelled) and WM_STATE's Constant URB Entry Read Offset / Length pick
 *    the PS's registers out of it (L14966-14980);
 *  - the PS payload for normal dispatch [Pre-DevSNB] (L18251-19005):
 *    R0.0 pixel mask of subspans 0-3 (31:16) and its copy (15:0); R0.1 the
 *    CC state pointer (GeneralStateOffset[31:6]); R0.3-R0.5 the common
 *    fields (sampler state, binding table, scratch, FFTID:
 *    units/common/stage_thread.h); R0.6 the thread count; R1.0 / R1.1
 *    Xstart / Ystart (the start vertex, IEEE float), R1.2-R1.5 subspan
 *    upper-left X/Y (U16 pairs), R1.6 back facing (31), source depth
 *    present (30), primitive topology (4:0), R1.7 viewport index (30:27) and
 *    render target array index (26:16); R2-R3 the interpolated source depth
 *    when WM_STATE's Pixel Shader Uses Source Depth (R2: subspans 0-1, R3:
 *    2-3, both also for SIMD8); then, at Dispatch GRF Start Register For
 *    Constant/Setup Data (padding before it reserved, zero), the constant
 *    data and the setup URB data: Setup URB Entry Read Length rows from
 *    Setup URB Entry Read Offset of the primitive's setup entry (the SF
 *    thread's, setup_primitive.setup_urb_handle), 256-bit rows as written
 *    (no transpose on DevBW: L14990ff);
 *  - dispatch widths 8 and 16 (Table 8-1, L17858-18054, as Gen8's rule in
 *    wm.c); 32-pixel dispatch, which needs the second payload block R7-R12,
 *    is refused (counted) and SIMD16 or 8 used when enabled.
 * Not modelled: destination depth/stencil and antialias alpha phases
 * (R4-R6), the contiguous dispatch modes (CTG+), the Depth Coefficient URB
 * Read Offset (early depth interpolates the setup primitive's depth plane
 * SF gave, not the URB row), the URB's CURBE region (read from memory),
 * thread priority, Global Depth Offset (SF's), Legacy line rasterization.
 */
#ifndef GTSIM_UNITS_WM_WM_GEN4_H
#define GTSIM_UNITS_WM_WM_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/sim.h"
#include "spec_common.h"
#include "units/common/pixel.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"

#define WM_GEN4_CURBE_REGS 64u          /* Constant URB Entry Read Length: U6 */
#define WM_GEN4_SETUP_ROWS 128u         /* Setup URB Entry Read Length: 7 bits */

struct wm_gen4 {
    uint64_t general_base, surface_base;
    bool wm_valid;                      /* WM_STATE read */
    struct spec_WM_STATE wm;
    uint32_t wm_pointer, cc_pointer;
    bool cc_valid;                      /* CC_STATE read */
    struct spec_COLOR_CALC_STATE cc;
    bool cc_viewport_valid;
    float cc_min, cc_max;
    uint32_t ps_binding_table;
    /* CONSTANT_BUFFER's data (512-bit entries = 2 registers each) */
    uint32_t curbe_regs;
    uint8_t curbe[WM_GEN4_CURBE_REGS][EU_MSG_REG_BYTES];
    /* stats */
    uint64_t pointers, bad_pointers, constant_buffers, constant_read_failures;
};

/* What a Gen4 packet changed (wm.c applies it to its own fields). */
enum wm_gen4_change {
    WM_GEN4_NONE = 0,                   /* not a Gen4 packet WM takes */
    WM_GEN4_POINTERS,                   /* WM_STATE / CC_STATE / CC_VIEWPORT */
    WM_GEN4_BINDING_TABLE,
    WM_GEN4_CONSTANTS,
    WM_GEN4_BASES,
};

enum wm_gen4_change wm_gen4_take(struct wm_gen4 *g, struct sim *sim,
                                 const struct cs_state_packet *p);

/* One Gen4 PS dispatch's inputs. */
struct wm_gen4_dispatch {
    const struct setup_primitive *prim;
    const struct subspan *subspans;     /* n of them, 1..4 */
    uint32_t n, width;                  /* 8 or 16 */
    uint32_t thread_count;              /* R0.6 */
    const uint8_t (*setup)[EU_MSG_REG_BYTES];   /* the rows read from the setup entry */
    uint32_t setup_rows;                /* rows in setup[] */
};

/* The payload's length in registers (GRF start + constants + setup rows; at
 * least the fixed part); *bad_start is set when the GRF start register lies
 * inside the fixed part (then it is moved past it). */
uint32_t wm_gen4_payload_regs(const struct wm_gen4 *g, const struct wm_gen4_dispatch *d,
                              uint32_t *first, bool *bad_start);

/* Fills grf[0..total) but R0.3-R0.5 (already filled by stage_threads_new). */
void wm_gen4_payload(const struct wm_gen4 *g, const struct wm_gen4_dispatch *d,
                     uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t total, uint32_t first);

#endif
