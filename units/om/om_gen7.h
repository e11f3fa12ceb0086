/* units/om/om_gen7.h - the Gen7 (Ivy Bridge / ValleyView) form of the render
 * target fast clear and resolve of a single-sampled RT (issue 14 item 2).
 *
 * On Gen7, 3DSTATE_PS DW4 bit 8 Render Target Fast Clear Enable and bit 6
 * Render Target Resolve Enable ("clear value resolve on non-multisampled
 * render targets", seed 000 L350-365) request them; the RT's SURFACE_STATE
 * binds the control surface with MCS Enable (DW6 bit 0) and holds the clear
 * colour as 1-bit fields (DW7 31:28, genxml gen7.xml). The fast-clear draw
 * is scaled down: each of its pixels stands for a block of the RT whose size
 * is the Gen7 control surface's block size (Mesa isl_format_layout.csv
 * GEN7_CCS_*: Y tiling 8x4 pixels at 32 bpp, 4x4 at 64, 2x4 at 128; X tiling
 * 16x2, 8x2, 4x2) times 16 across and 32 down, halved ("the X and Y scale
 * down factors ... are each equal to half the alignment value", IVB PRM
 * Vol2 Part1 11.7 "MCS Buffer for Render Target(s)", quoted in Mesa's blorp
 * get_fast_clear_rect): Y tiling 64x64, 32x64, 16x64 pixels; X tiling
 * 128x32, 64x32, 32x32. (Gen9 halves the rows: 64x32 at 32 bpp, the table
 * om.c uses for Gen8/9.)
 *
 * Modelled: the fast clear fills each block with the clear colour at once
 * (the pixels then hold what a resolve would give), so the resolve draw
 * that follows finds nothing left to write (counted, resolve_messages).
 * Not modelled: the Gen7 control surface's bits (one per cache-line pair,
 * GEN7_CCS_* 1 bit per block; their order inside the 4 KiB CCS tile is not
 * in the seeds) and so the memory traffic of a deferred clear.
 */
#ifndef GTSIM_UNITS_OM_OM_GEN7_H
#define GTSIM_UNITS_OM_OM_GEN7_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/surface.h"

/* The RT pixels (width x height) one pixel of a Gen7 single-sampled fast
 * clear draw stands for; false when the RT's tiling or element size has no
 * fast clear (linear, W, or not 32/64/128 bpp). */
bool om_gen7_fast_clear_block(const struct surface *rt, uint32_t *width, uint32_t *height);

#endif
