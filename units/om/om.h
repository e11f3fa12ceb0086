/* units/om/om.h - the pixel back end of a Gen8/Gen9 slice: the render cache
 * data port (SFID 5) with the colour calculator ("output merger"), one per
 * slice.
 *
 * Models (seed 003; notes/003-skl-pipeline.md §3.14-3.15, notes/003-skl-
 * sharedfn-eu.md §5):
 *  - render target write messages (L7584-8213): descriptor through the
 *    generated accessors (build/gen/msg_desc.h, spec/eu/descriptors.txt:
 *    type 12 RT write, subtypes SIMD16 single source, SIMD16 replicated,
 *    SIMD8 dual source low/high, SIMD8 single source; Slot Group Select; Last
 *    Render Target Select; header present); payload order s0A oM R G B A sZ
 *    oS (L7858-7950; SIMD8: one register a channel, SIMD16: two) decoded into
 *    struct rt_write (units/common/pixel.h). The two-register header (MH_RT,
 *    layout a gap in the seed; Mesa's fb write lowering: M0 a copy of R0 with
 *    M0.0[11] Source0 Alpha Present, M0.2 Render Target Index; M1 a copy of
 *    R1: R1.2-R1.5 subspan X/Y, R1.7[15:0] the pixel mask) gives the RT index
 *    (the BLEND_STATE entry), R0.0[12] oMask / [13] source depth presence
 *    (L16108ff) and [14] output stencil presence (the model's reading), the
 *    slot positions and the Pixel Sample Mask; without a header the exec mask
 *    stands for the mask (L8200) and the positions come from the thread's
 *    dispatch: ctx.subspans / pixel_x / pixel_y / pixel_mask of struct
 *    eu_thread_context (thread_msg.h, the pixel scoreboard entry), ANDed with
 *    ctx.pixel_mask so helper pixels are never written; oM/sZ/oS presence from
 *    3DSTATE_PS_EXTRA as the dispatch's R0.0 would carry them, RT index 0
 *    (L8063-8075). Slot 4k+i = subspan k, pixel i (UL, UR, LL, LR;
 *    L7688-7735); SIMD8 messages cover slots 0-7 or 8-15 (slot group, or
 *    LO/HI for dual source);
 *  - the colour calculator per pixel in the seed's order (L16420-16431):
 *    antialiased lines' coverage (WM's, eu_thread_context aa_alpha)
 *    multiplied into Src0.alpha first (L16448), alpha to coverage (BLEND_STATE, off when oMask is sent or PS_EXTRA
 *    disables it), oMask, alpha to one, alpha test (COLOR_CALC_STATE format
 *    and reference; source 0 alpha when sent); depth and stencil: WM's early
 *    tests, or here, late (units/om/om_depth.h), for threads WM marks
 *    (eu_thread_context EU_PIXEL_LATE_DEPTH_STENCIL: the PS kills pixels,
 *    computes depth, writes oMask, or EDSC is PSEXEC), sZ or the thread's
 *    depth plane as source depth, also when the RT is NULL; pre-blend clamp, blending with the BLEND_STATE
 *    entry of the RT index (every factor and function, MIN/MAX with factors,
 *    independent alpha, constant colour, SRC_ALPHA_SATURATE, dual source),
 *    post-blend clamp and the RT format's range (L16518-16627; units/om/
 *    om_color.h), logic ops (16, genxml encodings) on the packed bits, the
 *    per-channel write disables of the BLEND_STATE entry, sRGB (destination
 *    decoded for blending, result encoded) through units/common/format.h; the
 *    texel written through units/common/surface.h (linear, X, Y, Yf/Ys
 *    tiling; MSAA: the pixel's colour goes to every sample) with the SEND's
 *    address space; slots outside the mask, and pixels out of bounds
 *    (L8206-8213), are not written;
 *  - fast clear, CCS, MCS and resolve (L16768-16885; the aux layouts and
 *    encodings are in units/common/surface.h): with 3DSTATE_PS Render Target
 *    Fast Clear Enable each pixel the clear draw writes stands for a block of
 *    the RT (32 bpp: 64x32 pixels, 64 bpp: 32x32, 128 bpp: 16x32, the
 *    scale-down factors of L16808-16835; multisampled: see below). On a Gen9
 *    single-sampled Y-tiled RT with AUX_CCS_D/E the block's CCS elements
 *    (one per cache-line pair) become CLEAR and no colour is written; on a
 *    multisampled RT with an MCS its pixels' MCS elements become all ones;
 *    without an aux layout the model lays out (Gen7/8 single-sampled "MCS",
 *    X tiling, ...) the block is filled with the clear colour (counted
 *    aux.not_modelled when an aux was bound). An RT write into a CLEAR pair
 *    first fills the pair with the clear value and makes it uncompressed (0);
 *    a write to an MCS pixel reads its samples through the MCS (cleared:
 *    the clear value), shades the covered ones, and stores the pixel
 *    compressed (MCS 0, plane 0) when all samples are equal, else each sample
 *    in its own plane (MCS "uncompressed"). The clear value of a CLEAR pair
 *    or cleared pixel is the writing RT's SURFACE_STATE clear colour (Gen9
 *    dwords 12-15, Gen8 1-bit fields; L16847). A resolve
 *    (Render Target Resolve Type partial/full, Gen8 Resolve Enable) writes its
 *    own state's clear colour into the CLEAR pairs of each block its pixels
 *    stand for and makes them uncompressed; on a multisampled RT it does
 *    nothing (L16884, counted). RT reads see the same logical texels;
 *  - render target reads (type 13, L7995-8021): SIMD8 (4 registers) or SIMD16
 *    (8, by rlen), every in-bounds pixel unpacked to float/int, 0 elsewhere;
 *  - state from WM in order (it guarantees no thread of earlier state is
 *    running): BLEND_STATE (4-byte header + 8-byte entries, up to 8 RTs),
 *    COLOR_CALC_STATE and CC_VIEWPORT are read from Dynamic State Base + the
 *    pointer when the pointer command arrives, with the packet's address
 *    space; 3DSTATE_PS, PS_EXTRA, PS_BLEND, MULTISAMPLE, WM_DEPTH_STENCIL,
 *    DEPTH_BUFFER, STENCIL_BUFFER, HIER_DEPTH_BUFFER (late depth/stencil and
 *    its HiZ upkeep, om_depth.h) and STATE_BASE_ADDRESS;
 *  - thread ends: an RT write with EOT sends struct eu_thread_end (op
 *    EU_TD_THREAD_END, request_id = ctx.group, ffid FFID_PS) on "eot_ps" once
 *    the message is done, so WM can release its pixel scoreboard; any other
 *    message with EOT does so too (counted) so no thread is lost; the end
 *    carries the pixels the thread's RT writes stored and its late
 *    depth/stencil passes (counted per EU thread slot over its messages), for
 *    PS_DEPTH_COUNT and WM's per-draw records;
 *  - the colour surfaces written are recorded (om_written_surfaces) for
 *    harnesses and `gtsim run --images`: a draw is the thread's 3DPRIMITIVE
 *    number (eu_thread_context.draw, WM's); threads without one (tests) number
 *    runs of RT writes between two state packets from WM from 1.
 * Timing: the functional access happens when the message is taken; the pixel
 * pipe handles `pixels_per_cycle` pixels a cycle (busy cycles counted: the
 * seed gives no blend rate; 4, a 2x2 subspan a clock, is the model's choice);
 * with "l3" linked every 64-byte colour line touched is a MSG_MEMORY_REQUEST
 * and the message completes when they are answered, otherwise after
 * `latency`. CCS and MCS lines go through the control-surface cache ("MSC":
 * "Auxiliary Surface ... is cached in MSC", seed 003 L7588): fully
 * associative, LRU, write-back, `aux_cache_lines` 64-byte lines (the seed
 * gives no size or organisation: 64 lines, 4 KB, is the model's choice; 0
 * turns it off); a hit needs no line request, a miss requests the line (and
 * writes back a dirty victim). Timing keys and their sources:
 * docs/pixel-timing.md.
 * Ports: "eu"[open] in (MSG_SEND), "writeback"[open] out (MSG_WRITEBACK for
 *        rlen > 0), "wm" in (MSG_STATE), "eot_ps" out (MSG_THREAD_DISPATCH
 *        thread ends), "l3" out / "l3_reply" in (optional). All optional.
 * Stats: messages, rt_write.{simd16,rep16,simd8_dual_lo,simd8_dual_hi,simd8},
 *        rt_reads, pixels_written, pixels_blended, pixels_logic_op,
 *        pixels_discarded, fast_clear_blocks, fast_clear_pixels, resolve_messages,
 *        resolve_pixels, ccs.{cleared,filled,resolved,reads},
 *        mcs.{cleared,compressed,uncompressed,reads},
 *        aux.{not_modelled,faults,resolve_msrt},
 *        unsupported_messages, unsupported_formats, out_of_bounds, page_faults
 *        (unmapped RT memory: the pixel is dropped), bad_messages, bad_state,
 *        state_read_failures, no_positions, thread_ends, dither_ignored,
 *        busy_cycles, lines, l3_replies, stall.writeback, draws,
 *        aux_cache.{hits,misses,writebacks}, aa_alpha_pixels, late.* (late
 *        depth/stencil), untracked_threads, killed_thread_ends (a pixel
 *        thread the EU killed before its EOT: its end still reaches WM).
 * Gen7 (units/om/om_gen7.h): a single-sampled RT's fast clear scaled by the
 * Gen7 factors (Y tiling 64 x 64 pixels a clear pixel at 32 bpp, X tiling
 * 128 x 32) and filled at once with the 1-bit clear colour; its resolve has
 * nothing left to write (the Gen7 control surface's bits are not modelled).
 * Gen4 (units/om/om_gen4.h): the data port write's RT write (SFID 5,
 * SIMD16/SIMD8, header always), CC_STATE through 3DSTATE_PIPELINED_POINTERS
 * as the blend, alpha test, logic op and depth/stencil state (units/common/
 * gen4_cc.h), SURFACE_STATE's write disables and Color Blend Enable,
 * 3DSTATE_CONSTANT_COLOR, the Gen4 depth buffer; `gen` 4.
 * Multisampling: the covered samples of each pixel (WM's sample masks in the
 * thread context, thread_msg.h) are the only ones written; a per-sample
 * thread's slot writes the one sample its slot group and the Starting Sample
 * Pair Index name (L7700-7725: sample (2 SSPI + slot / 4) mod N; SSPI from
 * the header's R0.0[8:6], or the thread's for a headerless write; stat
 * per_sample_slots); a multisampled RT's
 * fast clear scales by 8 x 2 (2x/4x), 2 x 2 (8x), 1 x 2 (16x) pixels a clear
 * pixel and clears their MCS elements (no MCS: writes the clear colour into
 * every sample).
 * Not modelled: half-precision (RTWH) messages and SIMD8 image writes
 * (counted unsupported), late depth/stencil per sample,
 * the shader's stencil (oS) for a thread WM tested early (counted; a PS
 * that computes stencil is tested late, oS the reference: om_depth.h), dithering (the matrix is a gap in the seed: counted
 * as dither_ignored), Render Target Rotation, YCRCB and other formats the
 * format library cannot pack (counted, warned with the name), lossless
 * compression itself (CCS_E blocks are stored uncompressed: the compressed
 * CCS values 1/2 never arise from the model), the Gen7/Gen8 fast-clear CCS
 * layouts, the render colour cache (RCC) itself (every colour access is a
 * memory access; the cache flush has nothing to do), the MSC's write-back at
 * a flush (dirty aux lines leave only when evicted), gamma beyond sRGB.
 */
#ifndef GTSIM_UNITS_OM_OM_H
#define GTSIM_UNITS_OM_OM_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/unit.h"
#include "units/common/surface.h"

extern const struct unit_ops om_ops;

#define OM_SURFACE_DRAWS 16u        /* draw numbers kept per surface */

/* A colour surface some RT write (or fast clear) wrote. */
struct om_surface {
    uint64_t address;               /* Surface Base Address (GPU virtual) */
    uint32_t width, height, pitch;  /* LOD 0 pixels; bytes per row */
    uint32_t format;                /* SURFACE_FORMAT */
    enum tiling tiling;
    uint32_t samples;
    uint32_t space_format;          /* enum gpu_address_space_format of the writes */
    uint64_t space_root;
    struct surface surface;         /* the decoded SURFACE_STATE (for addressing) */
    uint64_t pixels_written;
    uint32_t draw_count;            /* draws that wrote it */
    uint32_t draws[OM_SURFACE_DRAWS];   /* the first OM_SURFACE_DRAWS of them */
    uint32_t last_draw;             /* the latest draw that wrote it */
    uint32_t clear_color[4];        /* the clear colour of its latest SURFACE_STATE */
};

/* Harness access (tests, tools): the colour surfaces this unit wrote, in the
 * order first written; valid until the unit's next tick or reset. */
uint32_t om_written_surfaces(struct unit *u, const struct om_surface **list);

/* Harness access (tools/images.c, tests): sample `sample` of pixel (x, y) of a
 * written surface as it stands logically: through its MCS (cleared pixels:
 * the surface's clear_color) or its CCS (CLEAR cache-line pairs: the same),
 * else the memory at the pixel; texel gets the format's bytes (16 at most).
 * False when the pixel or its aux element cannot be read. */
struct gpu_address_space;
bool om_surface_texel(const struct om_surface *s, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t sample, uint8_t *texel);

/* Harness access (rtl-cosim's om:rtl / om:lockstep): the colour calculator's
 * and late depth/stencil test's arithmetic go through `datapath` (om_color.h
 * struct om_datapath; kept across resets; NULL: the C functions). -1 when u
 * is not an om. */
struct om_datapath;
int om_set_datapath(struct unit *u, const struct om_datapath *datapath);

#endif
