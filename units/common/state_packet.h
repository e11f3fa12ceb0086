/* units/common/state_packet.h - MSG_STATE: a command the command streamer
 * parsed and sends down a pipeline ("vf" for 3D, "vfe" for media/GPGPU), in
 * command order, interleaved with the 3DPRIMITIVE and GPGPU_WALKER it
 * governs (DESIGN.md "State: one vocabulary for all generations"). Each
 * stage takes the state it needs and forwards the rest in order.
 *
 * The packet names the command by its id (enum spec_id, build/gen/
 * spec_common.h: the same number for the same name in every generation) and
 * carries it unpacked in its superset form, struct spec_<NAME>: the union of
 * every generation's fields, a field this generation lacks reading 0. A unit
 * switches on `id` and reads the superset struct; it branches on `gen` only
 * where the hardware's meaning of a field differs, citing the seed.
 *
 *     switch ((enum spec_id)p->id) {
 *     case SPEC_ID_MEDIA_CURBE_LOAD: {
 *         const struct spec_MEDIA_CURBE_LOAD *v = cs_state_common(p);
 *         load(v->CURBEDataStartAddress, v->CURBETotalDataLength);
 *         break; }
 *     default: forward(p); }
 */
#ifndef GTSIM_UNITS_COMMON_STATE_PACKET_H
#define GTSIM_UNITS_COMMON_STATE_PACKET_H

#include <stddef.h>
#include <stdint.h>

struct cs_state_packet {
    uint32_t id;                            /* enum spec_id of the command */
    uint32_t gen;                           /* the generation whose layout the dwords have */
    uint32_t dword_count;
    uint32_t common_offset;                 /* payload offset of struct spec_<NAME> */
    uint64_t address;                       /* GPU address it was fetched from */
    uint32_t ppgtt;                         /* 1: fetched through the PPGTT */
    /* The submitting context's address space, for units that read memory the
     * command points at (CURBE, interface descriptors, state): the PPGTT's
     * root when the context has one (space_format = GPU_ADDRESS_SPACE_PPGTT_
     * GEN8_4LEVEL), else the GGTT (root 0) in this generation's format. */
    uint32_t space_format;                  /* enum gpu_address_space_format */
    uint64_t space_root;
    uint32_t dwords[];                      /* the command as fetched */
};

/* Where the superset struct goes after n dwords (16-byte aligned). */
static inline size_t cs_state_common_offset(uint32_t dword_count)
{
    return (sizeof(struct cs_state_packet) + 4u * (size_t)dword_count + 15) & ~(size_t)15;
}

/* The unpacked superset struct (struct spec_<NAME> of id; spec_common_get(id)
 * ->size bytes). Zero when the command was shorter than its fixed length. */
static inline const void *cs_state_common(const struct cs_state_packet *p)
{
    return (const uint8_t *)p + p->common_offset;
}

#endif
