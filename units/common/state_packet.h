/* units/common/state_packet.h - MSG_STATE: a command the command streamer
 * parsed and sends down a pipeline ("vf" for 3D, "vfe" for media/GPGPU), in
 * command order, interleaved with the 3DPRIMITIVE and GPGPU_WALKER it
 * governs (DESIGN.md "State: one vocabulary for all generations"). Each
 * stage takes the state it needs and forwards the rest in order.
 */
#ifndef GTSIM_UNITS_COMMON_STATE_PACKET_H
#define GTSIM_UNITS_COMMON_STATE_PACKET_H

#include <stdint.h>

struct spec_element;

struct cs_state_packet {
    const struct spec_element *command;     /* what the spec tables call it */
    uint32_t gen;
    uint32_t dword_count;
    uint64_t address;                       /* GPU address it was fetched from */
    uint32_t ppgtt;                         /* 1: fetched through the PPGTT */
    uint32_t unpacked_offset;               /* payload offset of the unpacked struct */
    /* The submitting context's address space, for units that read memory the
     * command points at (CURBE, interface descriptors, state): the PPGTT's
     * root when the context has one (space_format = GPU_ADDRESS_SPACE_PPGTT_
     * GEN8_4LEVEL), else the GGTT (root 0) in this generation's format. */
    uint32_t space_format;                  /* enum gpu_address_space_format */
    uint32_t reserved;
    uint64_t space_root;
    uint32_t dwords[];                      /* the command as fetched */
};

/* The unpacked C struct (struct GENn_<name>, command->c_size bytes). */
static inline const void *cs_state_unpacked(const struct cs_state_packet *p)
{
    return (const uint8_t *)p + p->unpacked_offset;
}

#endif
