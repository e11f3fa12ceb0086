/* units/common/sampler.h - a sampler request decoded from a SEND, and what the
 * sampler answers.
 *
 * EU threads reach the sampler (SFID 2) with MSG_SEND (thread_msg.h); the
 * sampler unit decodes the descriptor with the generated accessors (message
 * type, SIMD mode, sampler index, binding table index; 003 sharedfn notes
 * §3.5) and the payload into struct sampler_request, the one form every
 * sampling path uses: the EU's messages, the data port's typed reads that
 * share the sampler's formats, and Mesa's internal blits and resolves that
 * arrive as ordinary sample/ld messages. The reply is a MSG_WRITEBACK whose
 * registers follow the seed's output channel mapping (L3577-3790); with
 * RLEN = 0 the result goes on to the render cache as a headerless RT write
 * (L4510-4527, pixel.h).
 */
#ifndef GTSIM_UNITS_COMMON_SAMPLER_H
#define GTSIM_UNITS_COMMON_SAMPLER_H

#include <stdint.h>

#define SAMPLER_MAX_LANES 16u
#define SAMPLER_MAX_PARAMETERS 11u     /* "maximum message length allowed to the sampler is 11" */

/* Message types (descriptor bits 16:12 on Gen7+; 003 sharedfn notes §3.5,
 * numbers from Mesa's brw_eu_defines.h where the seed gives names only). */
enum sampler_message {
    SAMPLER_SAMPLE = 0,
    SAMPLER_SAMPLE_B = 1,
    SAMPLER_SAMPLE_L = 2,
    SAMPLER_SAMPLE_C = 3,
    SAMPLER_SAMPLE_D = 4,
    SAMPLER_SAMPLE_B_C = 5,
    SAMPLER_SAMPLE_L_C = 6,
    SAMPLER_LD = 7,
    SAMPLER_GATHER4 = 8,
    SAMPLER_LOD = 9,
    SAMPLER_RESINFO = 10,
    SAMPLER_SAMPLEINFO = 11,
    SAMPLER_GATHER4_C = 16,
    SAMPLER_GATHER4_PO = 17,
    SAMPLER_GATHER4_PO_C = 18,
    SAMPLER_SAMPLE_D_C = 20,
    SAMPLER_SAMPLE_MIN = 22,        /* 10110 (003 notes §3.5, L10152-10255) */
    SAMPLER_SAMPLE_MAX = 23,        /* 10111 */
    SAMPLER_SAMPLE_LZ = 24,
    SAMPLER_SAMPLE_C_LZ = 25,
    SAMPLER_LD_LZ = 26,
    SAMPLER_LD2DMS_W = 28,
    SAMPLER_LD_MCS = 29,
    SAMPLER_LD2DMS = 30,
    SAMPLER_LD2DSS = 31,
};

enum sampler_simd {
    SAMPLER_SIMD4X2 = 0,            /* or SIMD8D, by header M0.2[22] (L3955) */
    SAMPLER_SIMD8 = 1,
    SAMPLER_SIMD16 = 2,
    SAMPLER_SIMD32 = 3,
};

struct sampler_request {
    uint32_t message;               /* enum sampler_message */
    uint32_t simd;                  /* enum sampler_simd */
    uint32_t lanes;                 /* 2 (SIMD4x2: two samples), 8, 16 */
    uint32_t lane_mask;             /* enabled lanes */
    uint32_t sampler_index;         /* 0..15 within the sampler state table */
    uint32_t surface_index;         /* binding table index (or bindless offset) */
    uint64_t sampler_state;         /* address of the 16-entry SAMPLER_STATE table */
    uint32_t channel_mask;          /* returned channels (header M0.2 write channel mask) */
    uint32_t half_precision;        /* return format 16-bit */
    int32_t offset_u, offset_v, offset_r;   /* texel offsets from the header, U4 signed */
    uint32_t gather_channel;        /* header M0.2[17:16]: gather4's source channel, 0 R .. 3 A */
    uint32_t pixel_null_mask;       /* header M0.2[23]: one more write-back phase, the mask */
    uint32_t parameter_count;
    /* parameters[k][lane] in the order the message type lays them out
     * (u, v, r, ai, lod/bias/ref ...), as 32-bit floats or integers */
    uint32_t parameters[SAMPLER_MAX_PARAMETERS][SAMPLER_MAX_LANES];
};

#endif
