/* units/common/gen4_state.h - reading a Gen4 unit state through
 * 3DSTATE_PIPELINED_POINTERS (a library, not a unit kind).
 *
 * Seed 001 L1220-1349: 3DSTATE_PIPELINED_POINTERS names each fixed
 * function's unit state (VS_STATE, GS_STATE, CLIP_STATE, SF_STATE, WM_STATE,
 * COLOR_CALC_STATE) by an offset from General State Base Address
 * ("GeneralStateOffset[31:5]"); the units fetch their state when the command
 * reaches them. The viewport states (CLIP_VIEWPORT, SF_VIEWPORT, CC_VIEWPORT)
 * are pointed at from the unit states the same way. A stage calls this when
 * the packet reaches it, with the packet's address space. */
#ifndef GTSIM_UNITS_COMMON_GEN4_STATE_H
#define GTSIM_UNITS_COMMON_GEN4_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/state_packet.h"

struct sim;

/* Reads `dwords` dwords at general_state_base + offset into dw; false (dw
 * zeroed) when any byte lies outside memory (the caller counts it and treats
 * its stage as disabled, issue 14 "Bad input"). */
bool gen4_state_read(struct sim *sim, const struct cs_state_packet *p, uint64_t general_state_base,
                     uint64_t offset, uint32_t *dw, uint32_t dwords);

#endif
