/* units/common/urb.h - MSG_URB: URB entries between the fixed-function stages
 * and the URB unit, and the VUE layout every stage shares.
 *
 * The URB is a partition of the L3's data arrays (seed 003 L8419-8535,
 * L18313-18323). Entries are rows of 256 bits; a handle is an offset into the
 * URB partition in 512-bit (64-byte) units (L8459), carried in 14- or 16-bit
 * fields (L11420-11428, L12243). Stages pass handles, never vertex copies
 * (DESIGN.md "The 3D pipeline"): VF allocates its VUEs from the VS's
 * allocation, VS/HS/DS/GS own their output entries, CLIP allocates for the
 * vertices it makes. An entry is freed when its last reader dereferences it
 * (the exact hardware protocol is a gap in the seed, notes §4.2; ours is a
 * reference count). Out of entries is back-pressure: the URB holds the
 * request until an entry frees.
 *
 * The bytes live once, in the URB unit's functional store; readers and
 * writers go through these messages (timed through the L3's URB partition)
 * or the unit's backdoor. URB SEND messages from EU threads (SFID 6,
 * L8455-9015) travel as MSG_SEND (thread_msg.h) and are decoded with the
 * generated descriptor accessors.
 *
 * Gen4 has a fixed URB divided by fences (URB_FENCE, seed 001) rather than
 * 3DSTATE_URB_*; its handles are the same kind of offset and the same
 * messages serve it.
 */
#ifndef GTSIM_UNITS_COMMON_URB_H
#define GTSIM_UNITS_COMMON_URB_H

#include <stdint.h>

#define URB_ROW_BYTES 32u           /* 256-bit row = one GRF (L8425) */
#define URB_HANDLE_UNIT_BYTES 64u   /* handles count 512-bit units (L8459) */
#define URB_HANDLE_NONE 0xffffffffu

/* The byte offset of a handle in the URB partition. */
static inline uint32_t urb_handle_offset(uint32_t handle)
{
    return handle * URB_HANDLE_UNIT_BYTES;
}

/* Who owns an allocation: the 3DSTATE_URB_* stages (003 L11323-11368), plus
 * the clipper's own vertices and the GPGPU/media front end's entries. */
enum urb_client {
    URB_CLIENT_VS = 0,
    URB_CLIENT_HS,
    URB_CLIENT_DS,
    URB_CLIENT_GS,
    URB_CLIENT_CLIP,
    URB_CLIENT_SF,          /* Gen4: SF thread outputs */
    URB_CLIENT_CS,          /* constants (CURBE / push constants) */
    URB_CLIENT_VFE,
    URB_CLIENT_COUNT
};

enum urb_op {
    URB_OP_ALLOC = 1,       /* stage -> URB: `count` entries of the client's size; waits
                               while the client's allocation has too few free */
    URB_OP_ALLOCATED,       /* URB -> stage: handles[0..count) (in allocation order); count
                               0 when the request can never be met (no allocation, or
                               more entries than it has) */
    URB_OP_REFERENCE,       /* stage -> URB: one more reader of each handle (no reply) */
    URB_OP_DEREFERENCE,     /* stage -> URB: a reader is done; the last frees the entry
                               (no reply) */
    URB_OP_WRITE,           /* stage -> URB: rows of the entry handles[0] from `row` */
    URB_OP_READ,            /* stage -> URB: rows of the entry handles[0] from `row` */
    URB_OP_DATA,            /* URB -> stage: the rows read */
    URB_OP_WRITE_DONE,      /* URB -> stage: the write reached its GO point (L18721-18727) */
    URB_OP_CONFIGURE,       /* Gen4 stage -> urb_fence: its unit state's Number of URB
                               Entries (`count`) and URB Entry Allocation Size (`rows`,
                               256-bit rows), seed 001 L5933-5996 (no reply) */
    URB_OP_FENCE,           /* Gen4 stage -> urb_fence: the stage reached a URB_FENCE in its
                               command order; its region takes that fence now (no reply;
                               units/urb_fence/urb_fence.h) */
};

#define URB_MAX_HANDLES_PER_MSG 32u

struct urb_msg {
    uint32_t op;            /* enum urb_op */
    uint32_t client;        /* enum urb_client */
    uint32_t tag;           /* the requester's, echoed in the reply */
    uint32_t count;         /* handles in handles[] (ALLOC, ALLOCATED, (DE)REFERENCE) */
    uint32_t row;           /* READ/WRITE/DATA: first row (32-byte units) of the entry */
    uint32_t rows;          /* READ/WRITE/DATA: rows that follow in data[] */
    uint32_t handles[URB_MAX_HANDLES_PER_MSG];
    uint8_t data[][URB_ROW_BYTES];
};

/* The VUE vertex header: the first 256-bit row of a vertex entry (003
 * L11759-11844), as dword indices within the entry. Dword 0 is reserved. */
enum vue_header_dword {
    VUE_DW_RT_ARRAY_INDEX = 1,      /* U32; clamped against SURFACE_STATE by the back end */
    VUE_DW_VIEWPORT_INDEX = 2,      /* U32; selects one of 16 viewport sets */
    VUE_DW_POINT_WIDTH = 3,         /* float; POINTLIST[_BF] only */
    VUE_DW_POSITION_X = 4,          /* float x, y, z, w in D4-D7 */
    VUE_DW_CLIP_DISTANCE_0 = 8,     /* optional second row: clip distances 0-7 */
};

#endif
