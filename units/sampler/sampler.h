/* units/sampler/sampler.h - a subslice's sampler (3D sampling engine), Gen4, Gen7,
 * Gen8 and Gen9 message forms (Gen7: its RENDER_SURFACE_STATE and SAMPLER_STATE,
 * the SIMD8/16 parameter orders of Gen7/8 and SIMD4x2 without the header's mode
 * bit; Gen4: the 2-bit message types of spec/eu/opcodes.txt read by SIMD mode and
 * length, Mesa's Gen4 payload order [EXT], state pointers from General State
 * Base (sampler_decode.c decode_gen4); Gen4 SIMD4x2 and killpix are not
 * modelled: zeros, counted).
 *
 * Models (seed 003 L2962-4827; notes/003-skl-sharedfn-eu.md §3; the files of each
 * concern are listed in sampler_internal.h):
 *  - the SEND (SFID 2) as a struct sampler_request (units/common/sampler.h):
 *    descriptor through the generated accessors (build/gen/msg_desc.h), SIMD8,
 *    SIMD16 and SIMD4x2 (L4566-4653, L4654-4810; on Gen9 by the header's SIMD Mode
 *    Extension M0.2[22]), with or without the header (M0.2 write channel mask,
 *    U/V/R offsets, Gather4 Source Channel Select [17:16], Pixel Null Mask Enable
 *    [23]; M0.3 Sampler State Pointer, L3930-3996); headerless messages write
 *    the channels the response length allows (L4488-4506) and take the stage's
 *    sampler state pointer (struct eu_thread_context.sampler_state);
 *  - state: binding table entry -> RENDER_SURFACE_STATE (units/common/surface.h:
 *    1D, 2D, 3D, cube, arrays, mips, linear/X/Y/W/Yf/Ys tiling; Surface Min LOD,
 *    Resource Min LOD, Minimum Array Element, Shader Channel Selects), SAMPLER_STATE
 *    (16 bytes an entry at Dynamic State Base + pointer, L3476-3480) and its
 *    SAMPLER_BORDER_COLOR_STATE (Gen8/9 form: four dwords, floats for float formats,
 *    32-bit integers for integer ones; the seed's older 12-dword table L3824-3878 is
 *    not modelled);
 *  - messages: ld and ld_lz (integer texels, no filter, out of range -> 0, L4558),
 *    resinfo (L4304-4323), sampleinfo (L4270-4282), lod (L4286-4302: R the LOD
 *    clamped to the adjusted min/max LOD, G before clamps), sample, sample_b,
 *    sample_l, sample_d, sample_lz: the LOD of L3090-3094 from the subspan's
 *    pixels (or sample_d's gradients), bias and
 *    clamps of L3132-3200 (Out_of_Bounds included); the _c forms sample_c,
 *    sample_b_c, sample_l_c, sample_d_c, sample_c_lz with the shadow prefilter
 *    compare of L3389-3405 before filtering; gather4, gather4_c, gather4_po,
 *    gather4_po_c (L4224-4268); sample_min, sample_max and SAMPLER_STATE's
 *    Reduction Type MINIMUM/MAXIMUM; mag/min NEAREST and LINEAR, mip
 *    filter NONE/NEAREST/LINEAR, address modes WRAP, MIRROR, CLAMP, CLAMP_BORDER,
 *    HALF_BORDER, MIRROR_ONCE, CUBE (across faces, L3286-3357; Cube Surface
 *    Control Mode OVERRIDE), ANISOTROPIC as the seed's subpixel approximation
 *    (L3234-3240; sampler_texel.c struct aniso), non-normalized coordinates;
 *    formats through units/common/format.h (every bit-field format it unpacks,
 *    sRGB decoded before filtering as L3417 says, BC1-BC7 (BC6H as floats), ETC1/ETC2
 *    and EAC blocks); 32- and 16-bit returns in the writeback layouts of L4654-4810;
 *  - timing (sampler_timing.c): a pipeline of `texels_per_cycle` texels and
 *    `samples_per_cycle` filter footprints a cycle (so bilinear, trilinear and
 *    anisotropic samples have their own rates), the subslice's L1 (`l1_lines`,
 *    `l1_ways`) and L2 (`cache_lines`, `cache_ways`) sampler caches of 64 B lines
 *    (LRU, timing only; L2 hits add `l2_latency`), misses as MSG_MEMORY_REQUEST
 *    lines (MEMREQ_RO_DATA) to the slice's L3, the reply when every line is
 *    answered and `hit_latency` after the filtering; the seed gives no size,
 *    latency or rate for any of these, Intel's Gen9 compute architecture paper
 *    names the "L1 and L2 sampler caches" and the public 4 texels a clock a
 *    subslice (model choices, in the params' help).
 * Model choices where the seed is silent (sampler_texel.c says more): the texel
 * centre at +0.5 (LINEAR reads floor(t - 0.5) and the next texel); linear weights
 * rounded to `weight_bits` fraction bits (8); integer formats are not filtered;
 * one LOD a subspan (from its upper-left, upper-right, lower-left pixels); the
 * SIMD8/16 parameter order of Mesa [EXT] (the seed's table is missing, notes §3.5);
 * resinfo's A is the number of levels.
 * Bad programming (counted, logged once per kind, zeros returned so the thread goes
 * on, never a crash or hang): unknown message types and SIMD modes
 * (unsupported_messages), formats it does not read (unsupported_formats), BTIs
 * beyond the table (bti_beyond_table), unreadable or refused surface states
 * (state_faults), unreadable SAMPLER_STATE or border colour and reserved encodings
 * (bad_sampler_state), faulting texels (page_faults), malformed messages
 * (bad_messages).
 * Ports: "eu"[open] in (MSG_SEND), "writeback"[open] out (to the EU of the same
 *        index), "l3" out and "l3_reply" in (optional: without them a miss costs
 *        `latency`).
 * Aux surfaces (layouts in units/common/surface.h): ld_mcs reads the MCS element
 * of the pixel from the auxiliary surface (R8/R32/R32G32_UINT, L4195; zeros
 * without one); ld2dms reads sample si from the plane the MCS names and the
 * state's clear colour for a cleared MCS (L16884); texel fetches of a Gen9
 * single-sampled Y-tiled AUX_CCS_D/E surface read its CCS, and a CLEAR
 * cache-line pair reads the state's clear colour (L16841, L16884); the aux
 * reads are timed as lines like texels (stats aux.mcs_reads,
 * aux.mcs_clear_samples, aux.ccs_reads, aux.ccs_clear_texels).
 * Stats: messages and msg.<type> (msg.sample_c, msg.gather4, msg.sample_minmax
 *        group the variants; msg.simd4x2 counts the SIMD4x2 form), texels,
 *        shadow_compares, cube_edge_texels, border_texels, footprints,
 *        filter.nearest/bilinear/trilinear/anisotropic (pixel samples), l1_hits,
 *        l1_misses, cache_hits and cache_misses (the L2),
 *        lines, l3_replies, the bad-input counters above, stall.l3,
 *        stall.writeback, stall.pipeline, stall.outstanding, busy_cycles,
 *        latency_sum.
 * Not modelled: SIMD8D, SIMD32/64 (sample_unorm, sample_8x8), killpix messages
 * (unsupported: zeros); SIMD4x2 forms of the messages whose LOD comes from a
 * subspan (sample, _b, _c, _b_c, lod: not in the seed's SIMD4x2 table, zeros);
 * the write channel mask's "not written" in SIMD4x2 (those dwords are 0); null
 * (tiled-resource) pages (the null mask is all ones); the RLEN 0 direct render target write
 * (L4510-4527); anisotropic filtering on 1D, 3D and cube surfaces (LINEAR there);
 * MONO; chroma key; the COMPARISON reduction type (as the standard filter);
 * sample2dms; CCS of surfaces other than Gen9 single-sampled Y-tiled 2D (read
 * as plain memory); bindless surfaces; FXT1 and
 * ASTC formats;
 * state caches and cache invalidation (the cache only ever changes timing).
 */
#ifndef GTSIM_UNITS_SAMPLER_H
#define GTSIM_UNITS_SAMPLER_H

#include "fabric/unit.h"

extern const struct unit_ops sampler_ops;

#endif
