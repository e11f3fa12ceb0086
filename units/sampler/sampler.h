/* units/sampler/sampler.h - a subslice's sampler (3D sampling engine), Gen4, Gen7,
 * Gen8 and Gen9 message forms (Gen7: its RENDER_SURFACE_STATE and SAMPLER_STATE,
 * the SIMD8/16 parameter orders of Gen7/8 and SIMD4x2 without the header's mode
 * bit; Gen4: the 2-bit message types of spec/eu/opcodes.txt read by SIMD mode and
 * length, Mesa's Gen4 payload order [EXT] (always after the g0 header: Gen4
 * descriptors have no Header Present bit), state pointers from General State
 * Base (sampler_decode.c decode_gen4); Gen4 SIMD4x2 and killpix are not
 * modelled: zeros, counted; seed 001 has no sampler message chapter ("Details
 * absent", notes/001-gen4.md §4.13), so it defines no Gen4 SIMD4x2 sampler form to
 * model).
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
 *    and EAC blocks, and on Gen9 the ASTC_LDR_2D formats of every footprint,
 *    U8sRGB and FLT16, L3521-3570, through units/common/astc.h); 32- and 16-bit returns in the writeback layouts of L4654-4810;
 *  - timing (sampler_timing.c): a pipeline of `texels_per_cycle` texels and
 *    `samples_per_cycle` filter footprints a cycle (so bilinear, trilinear and
 *    anisotropic samples have their own rates), the subslice's L1 (`l1_lines`,
 *    `l1_ways`) and L2 (`cache_lines`, `cache_ways`) sampler caches of 64 B lines
 *    (LRU, timing only; L2 hits add `l2_latency`), misses as MSG_MEMORY_REQUEST
 *    lines (MEMREQ_RO_DATA) to the slice's L3, the reply when every line is
 *    answered and `hit_latency` after the filtering.
 * Timing keys and where their values come from (configs/fragments/gen9-subslice.cfg
 * sets them; searched: the seeds, Intel's "The Compute Architecture of Intel
 * Processor Graphics Gen9" (2015) §5.4.1, Intel's Gen9 and Xe-LP graphics API
 * performance/optimization guides, Mesa's intel code, the ISPASS 2018 Gen9
 * characterisation paper (Gera et al.), WikiChip and Wikipedia's Gen9 pages):
 *  - samples_per_cycle = 4: cited. Wikipedia, "List of Intel graphics processing
 *    units", Gen9 notes: each subslice has "a sampler (4 tex/clk)" (bilinear
 *    texels filtered a clock, i.e. four bilinear footprints); trilinear taking two
 *    footprints and anisotropic one a subpixel and level is our choice (no public
 *    Gen9 figure; Intel's Xe-LP guide says sample_d runs at a quarter rate, a
 *    Gen12 figure not applied here).
 *  - texels_per_cycle = 16: follows from the cited rate (4 bilinear footprints of
 *    2x2 texels) and 003 L3002 (a subspan's 4 texel locations in parallel).
 *  - l1_lines/l1_ways (2 KiB, 8 ways), cache_lines/cache_ways (16 KiB, 4 ways):
 *    no public figure: our choice. The seed names the texture caches (003 L3016,
 *    L3361), the "Sampler L2" as an L3 read client (L18412-18433) and its bypass
 *    ("Sampler L2 Bypass Mode Disable", L3766); the Gen9 paper and the ISPASS
 *    2018 paper name the subslice's "L1 and L2 sampler caches"; none gives a size
 *    or associativity. 2 KiB covers a few 8x8 RGBA8 footprints of a SIMD16
 *    message; 16 KiB is a small fraction of the slice's 768 KiB L3 (Gen9 paper
 *    §5.5.1, cited there) so that texture streams still reach the L3.
 *  - hit_latency = 20, l2_latency = 12, latency = 100 (no L3 linked): no public
 *    figure for the sampler's pipeline or cache latencies: our choice (order of
 *    an EU SEND round trip; L2 hits cost less than an L3 trip).
 *  - max_outstanding = 32: no public figure: our choice (enough to cover the L3
 *    latency at the cited rate).
 *  - weight_bits = 8: no Gen9 figure: the D3D11 functional spec's 8-bit subtexel
 *    precision.
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
 * (L4510-4527); anisotropic filtering on 1D, 3D and cube surfaces (LINEAR
 * there): 003 L3215 says MAPFILTER_ANISOTROPIC is "Not supported on buffer or 3D
 * surfaces" (what the hardware then does is not stated: LINEAR is our choice), and
 * the seed's approximation (L3234-3240) is written for a 2D projection; for cube
 * maps it says nothing of how the major axis maps across the face projection
 * (not modelled); 1D has no minor axis;
 * MONO; chroma key; the COMPARISON reduction type (as the standard filter);
 * sample2dms; CCS of surfaces other than Gen9 single-sampled Y-tiled 2D (read
 * as plain memory); bindless surfaces; FXT1 and the ASTC_FULL (HDR) and 3D
 * ASTC formats (ASTC_LDR_2D, every footprint, U8sRGB and FLT16, is decoded by
 * units/common/astc.c);
 * state caches and cache invalidation (the cache only ever changes timing).
 */
#ifndef GTSIM_UNITS_SAMPLER_H
#define GTSIM_UNITS_SAMPLER_H

#include "fabric/unit.h"

extern const struct unit_ops sampler_ops;

#endif
