/* units/om/om_gen4.h - the Gen4 (965G) forms of the pixel back end (issue
 * 14 item 3): the data port write message's render target write (SFID 5,
 * spec/eu/descriptors.txt dp_write: binding table 7:0, message control
 * 10:8 (the RT write subtypes of pixel.h), Last Render Target 11, message
 * type 14:12 = 4 render_target_write) and Gen4's 3DSTATE_DEPTH_BUFFER for
 * the late depth test. om.c takes CC_STATE itself (3DSTATE_PIPELINED_
 * POINTERS, units/common/gen4_cc.h).
 *
 * The RT write payload: the data port chapter is not in seed 001 (notes
 * §0); the layout is the PS payload's (seed 001 L18251-19005) as Mesa's
 * Gen4 fb write sends it (header always present): M0 a copy of R0 (R0.0
 * 15:0 the Pixel Mask Copy, which a kill clears), M1 a copy of R1 (R1.2-R1.5
 * subspan X/Y, R1.6 bit 29 Source Depth to Render Target, bit 28 Destination
 * Depth Present, bit 26 Antialias Alpha to Render Target, R1.7 26:16 the
 * Render Target Array Index); then the antialias alpha register when R1.6
 * bit 26, the colour (SIMD8: R, G, B, A; SIMD16: R, G, B, A of slots 0-7
 * then R, G, B, A of slots 8-15, the order the capture's g965_tri kernel
 * writes its MRFs in: m3 / m7 sechalf for R, m4 / m8 for G ...), the source depth when bit 29 (regs as colour), the destination
 * depth when bit 28 (skipped). The pixels written are M0's mask ANDed with
 * the dispatch's lit pixels (ctx.pixel_mask). One CC_STATE serves every
 * render target (render_target_index 0).
 * Not modelled: antialias alpha (skipped), SIMD8 dual source on Gen4, the
 * other data port write messages (block / scattered / streamed vertex
 * buffer writes: counted unsupported by om.c).
 */
#ifndef GTSIM_UNITS_OM_OM_GEN4_H
#define GTSIM_UNITS_OM_OM_GEN4_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/pixel.h"
#include "units/common/thread_msg.h"
#include "units/om/om_depth.h"

#define OM_GEN4_DPW_RT_WRITE 4u
#define OM_GEN4_DPW_FLUSH_RENDER_CACHE 7u

/* Decodes a Gen4 RT write into w; false when the payload is shorter than its
 * parts (or not an RT write). */
bool om_gen4_decode_rt_write(const struct eu_send_msg *p, uint32_t nregs, struct rt_write *w);

/* Gen4's 3DSTATE_DEPTH_BUFFER into the late test's buffers. */
void om_gen4_take_depth_buffer(struct om_depth *d, const struct spec_3DSTATE_DEPTH_BUFFER *v);

#endif
