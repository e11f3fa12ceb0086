/* units/wm/wm.h - the Windower (WM) of Gen8/Gen9 (unit kind "wm"):
 * rasterization into 2x2 subspans, early depth/stencil, and pixel shader
 * thread dispatch.
 *
 * Models (seed 003, notes/003-skl-pipeline.md §3.11-§3.13):
 *  - State, in command order: 3DSTATE_WM (Barycentric Interpolation Mode,
 *    Early Depth/Stencil Control, Statistics Enable, Force Thread Dispatch,
 *    Force Kill Pixel, the legacy clear/resolve bits: counted only),
 *    3DSTATE_PS (KSP 0/1/2, 8/16/32 Pixel Dispatch Enable, Dispatch GRF
 *    Start Register per KSP, Push Constant Enable, Binding Table Entry
 *    Count, scratch, Maximum Number of Threads Per PSD + 1, fast clear and
 *    resolve flags: counted), 3DSTATE_PS_EXTRA, 3DSTATE_PS_BLEND (Has
 *    Writeable RT, alpha test, alpha to coverage), 3DSTATE_MULTISAMPLE
 *    (Pixel Location, Number of Multisamples), 3DSTATE_SAMPLE_MASK,
 *    3DSTATE_WM_DEPTH_STENCIL, 3DSTATE_DEPTH_BUFFER, 3DSTATE_STENCIL_BUFFER,
 *    3DSTATE_HIER_DEPTH_BUFFER (HiZ, below), 3DSTATE_CLEAR_PARAMS,
 *    3DSTATE_WM_HZ_OP, 3DSTATE_CONSTANT_PS, 3DSTATE_BINDING_TABLE_POINTERS_PS,
 *    3DSTATE_SAMPLER_STATE_POINTERS_PS, 3DSTATE_CC_STATE_POINTERS (R0.1),
 *    3DSTATE_VIEWPORT_STATE_POINTERS_CC (the CC viewport's depth range, read
 *    when the command arrives), STATE_BASE_ADDRESS, 3DSTATE_DRAWING_RECTANGLE
 *    (the box is clipped to the clipped drawing rectangle again, L15484).
 *    WM_INT::ThreadDispatchEnable and Pixel Shader Kill Pixel as L15259 and
 *    L15298-15317 give them (RT Independent Rasterization is taken as off);
 *    the WM_INT depth/stencil enables as L15428-15468.
 *  - Rasterization (L15471-15558): each set-up primitive (MSG_SETUP, struct
 *    setup_primitive, units/common/primitive.h) is walked over its bounding
 *    box in 2x2 subspans, row of subspans by row, left to right; a pixel is
 *    inside when its sample point (centre, or the upper-left corner with
 *    Pixel Location UL_CORNER) passes every edge; pixel order in a subspan
 *    UL, UR, LL, LR (L15477). Polygon stipple (L15560-15580; 3DSTATE_WM
 *    Polygon Stipple Enable, 3DSTATE_POLY_STIPPLE_OFFSET / _PATTERN, bit 31
 *    of row 1 the pattern's upper-left pixel, seed 000 L109-113) drops
 *    pixels of triangles SF did not mark PRIM_NO_POLY_STIPPLE
 *    (raster.poly_stippled). Lines (units/wm/wm_line.h, SF's line fields in
 *    primitive.h): zero-width lines by the GIQ diamond-exit rule, Legacy or
 *    DX10 (L14884-14955), at the pixel location for every sample; the other
 *    line forms by SF's edges; antialiased lines' coverage computed per pixel
 *    (L14978-14992), counted (raster.aa_line_*) and delivered with the
 *    thread (eu_thread_context aa_alpha, U0.8: the seed's Gen9 payload has
 *    no place for it) to the render cache, which multiplies it into
 *    Src0.alpha (L16448). Line stipple (L15532-15546;
 *    3DSTATE_WM Line Stipple Enable, 3DSTATE_LINE_STIPPLE pattern, repeat
 *    count, Modify Enable's current index and repeat counter) drops pixels of
 *    legacy lines (diamond and non-antialiased wide) by their position along
 *    the line; the counter restarts when SF marks the line
 *    (SETUP_LINE_STIPPLE_RESTART) and runs on across a strip
 *    (raster.line_stippled). 3DSTATE_SAMPLE_MASK bit 0 clear drops every
 *    pixel (L15349-15367, 1x). Multisampling (L15582-15690): with
 *    3DSTATE_MULTISAMPLE's count > 1 and 3DSTATE_RASTER DX Multisample
 *    Rasterization Enable, each sample is tested at its 3DSTATE_SAMPLE_PATTERN
 *    position (U0.4 offsets from the pixel's corner; the standard D3D/Mesa
 *    positions until a pattern arrives); a pixel is lit when a covered sample
 *    survives the sample mask, and its covered samples go to the render cache
 *    in the dispatch's context (thread_msg.h sample_mask) and as the Input
 *    Coverage Mask; without the enable a lit pixel covers every sample.
 *  - Early depth/stencil (L15709-15775; "always enabled" on SKL, L15764):
 *    with units/common/depth_stencil.h on the depth (Y-tiled) and separate
 *    stencil (W-tiled) surfaces in memory, in rasterization order, for each
 *    lit pixel: when no PS thread is dispatched, or the PS neither kills
 *    pixels (WM_INT Kill Pixel) nor computes depth nor writes oMask nor
 *    computes stencil with the stencil test on (PS_EXTRA Pixel Shader
 *    Computes Stencil, WM_INT L15266: the shader's oS is the reference in
 *    the pixel back end, units/om/om_depth.h), and
 *    Early Depth/Stencil Control is not PSEXEC. Otherwise the test is late:
 *    the thread's context carries EU_PIXEL_LATE_DEPTH_STENCIL and the
 *    primitive's depth plane (thread_msg.h) and the pixel back end tests
 *    and updates when the thread writes its pixels (units/om/om_depth.h);
 *    its thread end brings back the passes (depth.late_pixels,
 *    depth.late_passed). A subspan with no pixel left is not dispatched.
 *    Multisampled depth/stencil (issue 12 items 2, 5): the depth and
 *    stencil buffers take 3DSTATE_MULTISAMPLE's sample count (L15605;
 *    WM_HZ_OP its own, L15597) in the interleaved layout of
 *    units/common/depth_stencil.h; each covered sample of a lit pixel is
 *    tested and updated on its own ("nX output merge", Table 3
 *    L15658-15667), its depth the plane at the sample's position under
 *    pattern rasterization ("eval depth at Sample Offsets"), else at the
 *    pixel location; the pixel keeps the samples that pass (the dispatch's
 *    sample masks, the Input Coverage Mask and per-sample dispatch follow
 *    them) and dies when none does; depth.* and PS_DEPTH_COUNT then count
 *    samples ("each pixel (or sample)", L16766), HiZ rejects whole pixels
 *    (its record bounds every sample of its 8x4 pixels, over the whole
 *    pixel's area for the source range). WM_HZ_OP's clears write every
 *    sample.
 *    The param `force_late_depth` (default off) reads Early Depth/Stencil
 *    Control as PSEXEC whatever the command says, so that a capture's
 *    depth/stencil work is done late, in the pixel back end (e.g. to run
 *    the back end's depth datapath RTL in real frames, rtl-cosim/README.md).
 *  - 3DSTATE_WM_HZ_OP (L15371-15424, L15810-15932): without HiZ a depth
 *    clear writes the clear value (3DSTATE_CLEAR_PARAMS) to every pixel of
 *    the op's rectangle (X/Y Max exclusive, as Mesa's blorp programs them)
 *    in the depth surface and the resolves have nothing to do (counted); a
 *    stencil clear writes the Stencil Clear Value (masks 0xFF, REPLACE) in
 *    the stencil surface, when the WM_INT write enables allow.
 *  - HiZ (L15777-15924; 3DSTATE_DEPTH_BUFFER Hierarchical Depth Buffer
 *    Enable with 3DSTATE_HIER_DEPTH_BUFFER): the HiZ buffer in memory holds
 *    a record per 8x4 pixels (units/common/depth_stencil.h: AMBIGUOUS, RANGE
 *    with a bound, CLEARED with the clear value; the seed leaves the format
 *    undocumented, L15799). The depth clear is a fast clear: blocks wholly
 *    inside the rectangle become CLEARED and their depth pixels are not
 *    written, blocks in part are written per pixel; the depth resolve writes
 *    CLEARED blocks' clear value to the depth buffer; the HiZ resolve rebuilds
 *    each block's bound from the depth buffer. In early depth, each block of
 *    a primitive's box is tested once against the primitive's depth range
 *    over it (the plane at the block's corner pixels, widened by the float
 *    rounding bound, CC-viewport clamped): when every pixel would fail the
 *    depth function (stencil test off) the block's subspans are dropped
 *    without per-pixel work (counted as depth failures too, hiz.*);
 *    otherwise a CLEARED block is first materialised (clear value to its
 *    pixels) and the per-pixel test runs, each depth write widening the
 *    bound; a block whose every pixel one primitive rewrote takes exactly
 *    the written range. When every pixel would pass (trivial accept, the
 *    mirror of the reject) the pixels pass without their stored depth being
 *    read (hiz.blocks_accepted, hiz.pixels_accepted; D24_UNORM_X8 still reads
 *    to keep its X8 bits when writing). Records are cached per block row of the primitive
 *    and written back merged with what memory holds (the pixel back end's
 *    late path updates them too, units/om/om_depth.h). Per draw,
 *    pixels_hiz_rejected. Timing: with "l3" / "l3_reply" linked (to an L3
 *    client port, as VF, SOL and the URB are; the bdw and skl machines link
 *    it to slice 0's L3, docs/pixel-timing.md), each record read or written goes through
 *    WM's HiZ record cache: `hiz_cache_lines` (64) lines of 64 bytes (a
 *    line holds the records of 2 x 2 blocks, rows 4k..4k+3 of a Y tile's
 *    16-byte column, depth_stencil.h hiz_block_line), fully associative,
 *    LRU, write-back, write-allocate without a fill (records are written
 *    whole); the seed gives no HiZ cache and no public figure was found:
 *    size and policy are our choice. A hit costs nothing (hiz.cache_hits);
 *    a read miss is a 64-byte line request (memreq.h) that holds the
 *    rasterizer until the L3 answers (hiz.l3_stall_cycles); a dirty line
 *    evicted is a posted 64-byte write (hiz.cache_writebacks); the
 *    rasterizer's reads also read ahead the next `hiz_read_ahead` (16)
 *    lines in rasterization order (the rest of the box's block row, then
 *    the next line row; hiz.cache_read_ahead), waited for only when reached.
 *    Lookahead across primitives (the hardware tests HiZ in a stage ahead
 *    of the pixel pipeline; the seed gives no HiZ stage or queue, our
 *    choice): the set-up primitives queued on the input behind the one
 *    being rasterized (up to `hiz_lookahead_primitives`, 3: what the
 *    machines' 4-message sf->wm channel holds behind its head; the first
 *    message that is not a set-up primitive ends the window) have the first
 *    `hiz_read_ahead` record lines of their box (clipped as rasterization
 *    clips it, in rasterization order) read into the cache before their
 *    turn (hiz.lookahead_primitives, _lines, _used, _evicted). Such a read
 *    takes only a free line or one neither used in the current primitive's
 *    line row nor read ahead for a primitive not done yet
 *    (hiz.lookahead_blocked counts the cycles it found none); the
 *    rasterizer's own allocations take lines read ahead for a later
 *    primitive last.
 *    Dirty lines are not flushed at the end of a draw or op (no timing of
 *    it is modelled; memory holds the records at once, functionally). A
 *    whole-block fast clear writes records without reading them; a
 *    WM_HZ_OP's other record reads and its writes go the same way and its
 *    packet waits for its reads and queued requests
 *    (hz_op.l3_stall_cycles). Without the link each record
 *    the rasterizer reads or writes holds it `hiz_record_cycles` cycles
 *    (hiz.stall_cycles; the seed gives no figure) and WM_HZ_OP's are not
 *    timed. The depth pixels a clear, resolve or fill writes are not timed.
 *  - PS dispatch (L15946-16044): lit subspans of one primitive are grouped
 *    into SIMD8 (2 subspans), SIMD16 (4) or SIMD32 (8) threads by the
 *    seed's rule (L16038, n read as the subspans pending: the seed leaves n
 *    undefined; a width the rule picks that is not enabled gives way to the
 *    narrowest enabled one that holds n, else the widest), the Kernel Start
 *    Pointer and GRF start chosen by the Variable Pixel Dispatch table
 *    (L16013-16024). Payload (L16108-16383, renumbered when phases are
 *    absent): R0 (common fields from stage_thread.h; R0.0 viewport index,
 *    RT array index, back facing bit 15, oMask bit 12, topology; R0.1 CC
 *    state pointer; R0.6 thread count), R1 (sample ids 0, subspan UL X/Y
 *    as U16 pairs in R1.2-R1.5, R1.7 pixel mask in 31:16 and its copy in
 *    15:0), R2 for SIMD32's subspans 4-7; per enabled barycentric mode
 *    (bits of 3DSTATE_WM, perspective pixel/centroid/sample then linear)
 *    b1 slots 0-7, b2 slots 0-7 (SIMD8) and b1/b2 of slots 8-15 (SIMD16),
 *    as the EU's PLN reads them; source depth and source W (1 register per
 *    8 slots) when PS_EXTRA asks; the position XY offsets (1 register per
 *    16 slots, U4.4, 0.5 at 1x) when Position XY Offset Select is not NONE;
 *    the input coverage mask (1 register per 8 slots) when asked; SIMD32
 *    repeats those phases for slots 16-31. Then push constants at the KSP's
 *    Dispatch GRF Start Register For Constant/Setup Data (when Push
 *    Constant Enable), then the setup data (when Attribute Enable): per
 *    attribute 2 registers, component c at +c/2, dword (c%2)*4: a1, a2, 0,
 *    a0. Barycentric modes: pixel location at the pixel's sample point;
 *    centroid (the seed names it, L16212, without the rule; the model's,
 *    shared with units/pi): the pixel's sample point when all samples are
 *    covered or at 1x, else the lowest-numbered covered sample's position;
 *    sample: the invocation's sample in per-sample dispatch, else the
 *    pixel's sample point. Position XY offsets (U4.4): POSOFFSET_CENTROID
 *    the centroid's, POSOFFSET_SAMPLE the sample's. Each thread carries the
 *    sample positions it was rasterized with (thread_msg.h) for the pixel
 *    interpolator.
 *  - Per-sample dispatch (3DSTATE_PS_EXTRA Pixel Shader Is Per Sample, with
 *    multisample rasterization on; L16060-16096): the thread's slots are
 *    laid out as the seed's PERSAMPLE table gives them: slot group g (4
 *    slots, the subspan's 4 pixels) holds sample (2 SSPI + g) mod N of the
 *    thread's subspan (2 SSPI + g) / N, N the sample count; when N exceeds
 *    the width's groups a subspan takes N / groups dispatches with Starting
 *    Sample Pair Index 0, G/2, .. (SIMD8 4x: 0, 1; SIMD8 8x: 0-3; SIMD16
 *    8x: 0, 2) in R0.0[7:6] (L16149; 16x's pairs 4-7 use bit 8, "reserved
 *    for expansion of" it, L16148) and in the thread's context
 *    (thread_msg.h starting_sample_pair, EU_PIXEL_PER_SAMPLE) for the
 *    render cache's headerless writes. Every sample has its group whether
 *    a pixel covers it or not (lit: the pixels covering that sample); a
 *    dispatch none of whose groups is lit is not sent (the seed does not
 *    say; ps.unlit_sample_dispatches). The sample's ID in R1.0/R2.0 (4
 *    bits a group, L16165-16192), its barycentric (sample and centroid modes), source
 *    depth and W at the sample's position, the render cache's write
 *    coverage that one sample (thread_msg.h sample_mask), the Input
 *    Coverage Mask the pixel's whole coverage; ps.sample_invocations counts
 *    the (pixel, sample) pairs; PS_INVOCATION_COUNT counts them too ("each
 *    unmasked pixel (or sample) that is dispatched", L15695-15699).
 *    Perspective weights p_i = b_i iw_i / sum(b_j iw_j) (primitive.h).
 *    Dispatch mask: all four channels of every dispatched subspan.
 *    Enables the seed forbids (L16005-16011, L16057) are counted per
 *    primitive and warned, the threads then dispatched by the rule:
 *    per-sample dispatch at 2x-16x with more than one width enabled
 *    ("D"/"E" modes, bad.per_sample_enables), SIMD32 for 16x per-pixel
 *    dispatch (bad.simd32_16x_per_pixel), SIMD16/32 with a shader-computed
 *    stencil (bad.computed_stencil_enables).
 *  - Pixel scoreboard (L15229): a subspan is not dispatched while a thread
 *    still running covers the same subspan position (x/2, y/2) (any RT array
 *    slice: conservative); released by the thread's end notice.
 *  - Statistics (L15695-15699, L16766): PS_INVOCATION_COUNT counts lit
 *    pixels of subspans rasterized for a dispatching PS (early depth kills
 *    included), PS_DEPTH_COUNT the pixels passing depth and stencil (late
 *    passes added as the pixel back end's thread ends report them, with the
 *    Statistics Enable of the thread's dispatch); per-sample dispatch counts
 *    samples.
 *  - State to the pixel back ends ("om"): 3DSTATE_BLEND_STATE_POINTERS,
 *    PS_BLEND, CC_STATE_POINTERS, PS, PS_EXTRA, MULTISAMPLE,
 *    VIEWPORT_STATE_POINTERS_CC, STATE_BASE_ADDRESS, WM_DEPTH_STENCIL,
 *    DEPTH_BUFFER, STENCIL_BUFFER, HIER_DEPTH_BUFFER are copied to every
 *    "om" output. Modelling simplification: such a packet waits until
 *    every PS thread dispatched before it has ended, so state never
 *    overtakes earlier pixels (the hardware pipelines state with the pixels
 *    instead).
 *  - The in-band sync (units/common/mmio.h): held until every PS thread
 *    ended, PS_INVOCATION_COUNT and PS_DEPTH_COUNT filled, returned on
 *    "drained" as CS_MMIO_SYNC_DONE when bound (else dropped). Register
 *    writes of PS_INVOCATION_COUNT / PS_DEPTH_COUNT set the counters;
 *    INSTPM / CS_DEBUG_MODE2 feed the push constants.
 *
 * Timing: `subspans_per_cycle` subspans rasterized (and early-tested) per
 * cycle, a parameter (the seed gives no rate and no public Gen9 figure was
 * found, docs/pixel-timing.md; the machines' 4, 16 pixels a clock, is
 * checked by test_wm.c test_rasterizer_rate); thread limits of
 * stage_threads (Maximum Number of Threads Per PSD + 1).
 *
 * Ports (HiZ timing): "l3" out (MSG_MEMORY_REQUEST) / "l3_reply" in
 *        (MSG_MEMORY_RESPONSE), optional, both or neither.
 *
 * Ports: "sf" in (MSG_STATE, MSG_SETUP, MSG_MMIO), "td"[open] out
 *        (MSG_THREAD_DISPATCH to every subslice's td.wm), "eot"[open] in
 *        (struct eu_thread_end from the pixel back ends, request_id = the
 *        thread's ctx.group), "om"[open] out (MSG_STATE), "drained" out
 *        (MSG_MMIO). "td" must be linked (a realize error otherwise);
 *        "urb" out / "urb_reply" in (MSG_URB, Gen4 setup entries).
 *        The others are optional.
 * Stats: raster.*, depth.*, ps.*, hz_op.*, hiz.*, state.*, bad.*, scoreboard
 *        stalls, threads.* (stage_thread.h) and ff.* (ff_stage.h).
 *
 * Gen7 (issue 14): 3DSTATE_WM carries Thread Dispatch Enable (taken as PS
 * Valid and Has Writeable RT), the PS kill / computed depth / source depth
 * and W / coverage bits and the multisample modes (seed 000 L3604-3950);
 * 3DSTATE_PS its single Maximum Number of Threads and Attribute Enable
 * (seed 000 L119-505); DEPTH_STENCIL_STATE and COLOR_CALC_STATE's stencil
 * references are read from dynamic state and sent to the back ends as a
 * 3DSTATE_WM_DEPTH_STENCIL packet. Gen7's depth clear / depth resolve /
 * HiZ resolve (3DSTATE_WM DW1 30, 28, 27; seed 000 L3645-3710) run, on
 * each draw while set, WM_HZ_OP's code over the pixels the draw covers (one
 * rectangle for a RECTLIST, else row by row) and dispatch nothing (counted
 * in legacy_ops and hz_op.*); Gen7's Depth Clear Value is a uint in the
 * depth format's encoding. The Gen7 3DSTATE_DEPTH_BUFFER (no QPitch: the
 * h0 + h1 + 12j formula), HIER_DEPTH_BUFFER (no QPitch) and STENCIL_BUFFER
 * (no Stencil Buffer Enable: present when its address is not 0) are folded
 * into the Gen8 form before WM takes them and forwards them to the back
 * ends. Gen7's stencil clear rides on the depth clear (seed 000
 * L3645-3665): with WM_INT's stencil write on, each covered pixel's stencil
 * takes DEPTH_STENCIL_STATE's test and pass op (front face, masks 0xFF;
 * other masks counted, bad.stencil_clear_masks), hz_op.stencil_clears. The
 * Gen7 stencil buffer (no QPitch) takes the depth formula with j = 8 (Mesa's
 * isl stencil alignment) over the depth buffer's height. The op writes
 * what a depth-op draw owes; the draw's pixels are then not depth/stencil
 * tested or written again (the clear value, not the rectangle's z, stays).
 *
 * Gen4 (issue 14 item 3; units/wm/wm_gen4.h): WM_STATE and CC_STATE read
 * through 3DSTATE_PIPELINED_POINTERS (seed 001 L1235-1349, L14825-15463),
 * CONSTANT_BUFFER, 3DSTATE_BINDING_TABLE_POINTERS, the Gen4 depth buffer
 * (units/common/gen4_cc.h), the SF thread's setup URB rows read on "urb" /
 * "urb_reply" (setup_primitive.setup_urb_handle, dereferenced when the
 * primitive is done) and the Gen4 PS payload (seed 001 L18251-19005);
 * stats gen4.*.
 *
 * Not modelled: points'
 * own rules beyond the box SF gives, the stipple counter of a wide line counting each pixel (the
 * model counts positions along the line), chroma key, RT independent
 * rasterization (depth offset is SF's, units/sf/sf_setup.h),
 * the contiguous dispatch modes, the KSP jump table offsets (the
 * kernel start is the chosen KSP itself), Yf/Ys depth tiling, depth LODs
 * other than 0.
 */
#ifndef GTSIM_UNITS_WM_WM_H
#define GTSIM_UNITS_WM_WM_H

#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops wm_ops;

#define PS_INVOCATION_COUNT_OFFSET 0x2348u  /* Mesa genxml / mmio.h; two dwords */
#define PS_DEPTH_COUNT_OFFSET 0x2350u

/* Per-draw records (issue 12 item 9), for harnesses and `gtsim run`'s
 * draws.csv: one per 3DPRIMITIVE that reached WM (setup_primitive.draw), in
 * order, up to WM_OBSERVED_DRAWS (later draws are in the totals only).
 * pixels_written and the late passes come back in the pixel back end's
 * thread ends (struct eu_thread_end, thread_msg.h); cycles run from the
 * draw's first primitive taken by WM to its last pixel written (the thread
 * end of its last PS thread) or its last subspan rasterized. */
#define WM_OBSERVED_DRAWS (1u << 20)

/* On a multisampled depth/stencil buffer the depth/stencil counts (rejected,
 * passed) are of samples ("each pixel (or sample)", seed 003 L16766). */
struct wm_observed_draw {
    uint32_t draw;
    uint64_t primitives;
    uint64_t pixels_rasterized;     /* lit pixels before depth/stencil */
    uint64_t pixels_depth_rejected; /* failed the early depth test */
    uint64_t pixels_hiz_rejected;   /* of those, in blocks HiZ rejected whole */
    uint64_t pixels_stencil_rejected;   /* failed the early stencil test */
    uint64_t pixels_passed;         /* passed depth/stencil (early, or late in the back end) */
    uint64_t pixels_shaded;         /* lit pixels in dispatched PS threads */
    uint64_t pixels_written;        /* pixels (samples) the threads' RT writes stored */
    uint64_t threads;
    uint64_t thread_cycles;         /* the PS threads' lives on the EU (thread_msg.h
                                     * thread_life_ps: slot taken to EOT sent) */
    uint64_t first_cycle, last_cycle;   /* WM's clock */
};

uint32_t wm_observed_draws(struct unit *u, const struct wm_observed_draw **draws);

#endif
