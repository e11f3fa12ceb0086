/* units/pi/pi.h - the pixel interpolator shared function (unit kind "pi",
 * SFID 14) of a subslice: barycentric parameters of a pixel shader thread's
 * slots at other positions than those its dispatch payload carries.
 *
 * Models (seed 003 L8214-8418):
 *  - the message descriptor (L8230-8270): Header Present must be 0 (bit 19),
 *    SIMD Mode (bit 16: SIMD8 / SIMD16), Interpolation Mode (bit 14:
 *    perspective / linear), Message Type (bits 13:12), Slot Group Select
 *    (bit 11: slots 15:0 or 31:16 of a SIMD32 dispatch), and the message
 *    specific control (bits 7:0);
 *  - Message Type 0, Per Message Offset: every slot at its pixel's centre
 *    plus the descriptor's X (bits 3:0) and Y (bits 7:4) offsets, S4 in
 *    1/16 pixel, range [-8/16, +7/16] (L8257-8266). The seed does not say
 *    from where the offset counts; the model takes the pixel centre, as the
 *    range and GL's interpolateAtOffset (offsets from the centre) suggest;
 *  - Message Type 1, Sample Position Offset: every slot at the position of
 *    the descriptor's Sample Index (bits 7:4, L8268-8271) in the pattern the
 *    thread's pixels were rasterized with (thread_msg.h sample_position);
 *    an index at or beyond the sample count is illegal (L8247): counted
 *    (bad.sample_index) and evaluated at the pixel centre;
 *  - Message Type 2, Centroid Position Offset: the seed does not give the
 *    centroid rule. The model: a pixel whose samples are all covered (or
 *    1x, or no coverage given) at its centre; a partly covered pixel at its
 *    lowest-numbered covered sample (a position inside the primitive, which
 *    is what centroid interpolation exists for);
 *  - Message Type 3, Per Slot Offset: each slot's X and Y offsets from the
 *    payload (L8289-8362: SIMD8 mlen 2, M0 X / M1 Y of slots 0-7; SIMD16
 *    mlen 4, M0/M1 X of slots 0-7 / 8-15, M2/M3 Y), S4 in bits 3:0 of each
 *    dword, the upper 28 bits ignored;
 *  - evaluation: the thread's screen-linear barycentric planes of vertices
 *    1 and 2 (thread_msg.h struct eu_pixel_setup: b = a0 + a1 dx + a2 dy,
 *    dx = X - x0, dy = Y - y0 for the point (X, Y)); perspective weights
 *    p_i = b_i w_i^-1 / sum_j(b_j w_j^-1) with b_0 = 1 - b_1 - b_2, as WM's
 *    payload (units/wm). A slot's pixel is subspan k = slot / 4 (of the slot
 *    group), pixel slot % 4 in UL, UR, LL, LR order at the subspan's
 *    upper-left X/Y (the "bypassed data" of L8249, thread_msg.h pixel_x/y);
 *  - write-back (L8364-8418): SIMD8 rlen 2 (W0 Barycentric[1] of slots 0-7,
 *    W1 Barycentric[2]); SIMD16 rlen 4 (W0/W1 slots 0-7, W2/W3 slots 8-15),
 *    only the slots of the execution mask written (L8226).
 * Bad input (counted under bad.*, logged once, never a crash): a header,
 * a message length short of the payload, a write-back length other than the
 * mode's, a sending thread without pixel context (no PS setup: zeros are
 * returned), illegal sample indices, malformed messages.
 * Ports: "eu"[open] in (MSG_SEND with SFID 14 from each EU), "writeback"[open]
 *        out (MSG_WRITEBACK to the EU of the same index).
 * Stats: messages, per_message_offset, sample_position, centroid,
 *        per_slot_offset, slots_evaluated, bad.*.
 * Timing: each write-back leaves `latency` cycles after its message, at
 * most `messages_per_cycle` messages taken a cycle (the seed gives no
 * figures: modelling choices).
 * Not modelled: coarse pixel (CP rate) dispatch, the Non-Perspective
 * Barycentric Enable check of linear mode (L8240), keeping the old contents
 * of the destination registers in masked-off slots (the model writes
 * whole registers: masked-off slots get zero).
 */
#ifndef GTSIM_UNITS_PI_PI_H
#define GTSIM_UNITS_PI_PI_H

#include <stdint.h>

#include "fabric/unit.h"
#include "units/common/thread_msg.h"

extern const struct unit_ops pi_ops;

/* Message descriptor fields (seed 003 L8230-8270). */
#define PI_DESC_HEADER (1u << 19)
#define PI_DESC_SIMD16 (1u << 16)
#define PI_DESC_LINEAR (1u << 14)
#define PI_DESC_TYPE_SHIFT 12
#define PI_DESC_SLOT_GROUP_HI (1u << 11)

enum pi_message_type {
    PI_PER_MESSAGE_OFFSET = 0,
    PI_SAMPLE_POSITION = 1,
    PI_CENTROID = 2,
    PI_PER_SLOT_OFFSET = 3,
};

#endif
