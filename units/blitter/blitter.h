/* units/blitter/blitter.h - the 2D blitter engine with its own command streamer
 * (the BCS ring) and its own path to memory, Gen4 through Gen9.
 *
 * Models: the blitter's ring, fed by its ring registers (RING_TAIL/HEAD/
 * START/CTL at mmio_base + 0x30..0x3C, BCS base 0x22000, notes/aub-format.md
 * §4.4 "BCS (0x22000)"), by an execlist submission on Gen8/Gen9 (four writes
 * to ELSP at mmio_base + 0x230: element 0's descriptor names the LRCA, and
 * RING_HEAD/TAIL/BUFFER_START/BUFFER_CONTROL come from dwords 5/7/9/11 of
 * the context image at LRCA + 4 KiB, aub-format §4.3-§4.6), or by ring dwords
 * handed over inline as the legacy AUB
 * captures do for ring RING_PRB2, "blitter" (notes/aub-format.md §2.5), with
 * first-level batch buffers (MI_BATCH_BUFFER_START / _END), MI_NOOP and
 * MI_LOAD_REGISTER_IMM; and the 2D commands (seed 004 "BlitterCS" pages,
 * notes/004-000-commands.md §1.8; 32-bit address forms of Gen4-Gen7 from the
 * reference genxml gen4/gen5 XY_* layouts):
 *   XY_SETUP_BLT (004 L26807-26879): the setup registers BR01 (clip enable,
 *     colour depth, ROP, pitch), the clip rectangle BR24/BR25, destination
 *     base BR09, background BR05, foreground BR06, pattern base BR07;
 *   XY_SETUP_CLIP_BLT (L26880-26908): the clip rectangle alone;
 *   XY_PIXEL_BLT (L26749-26777): one pixel of the setup's foreground colour
 *     at (x, y) with the setup's ROP (pattern = that colour), inside the clip
 *     rectangle when the setup enables clipping;
 *   XY_SCANLINES_BLT (L26778-26806): the rectangle from the setup's 8x8
 *     colour pattern at BR07 (linear, the setup's colour depth), seeded
 *     (x + horizontal seed) mod 8, (y + vertical seed) mod 8;
 *   XY_COLOR_BLT (L25574-25637): a solid fill with a ROP;
 *   XY_SRC_COPY_BLT (L26981-27067): a copy with a ROP; source and destination
 *     may overlap (the engine picks its direction, the seed says: modelled by
 *     reading the whole source before writing);
 *   XY_FAST_COPY_BLT (Gen9 only; opcode 42h, no ROP or clipping; layout from
 *     the public i915/IGT definitions, the seeds have no page for it): linear,
 *     X and legacy Y tiling; Yf/Ys are counted as not modelled.
 * ROPs are the 8-bit ternary raster operations of the PRM's BR13 23:16: bit
 * (P<<2 | S<<1 | D) of the ROP is the result for pattern P, source S,
 * destination D (F0h pattern copy, CCh source copy); a ROP naming a source in a
 * command without one (XY_COLOR_BLT, pixel, scanlines) reads it as 0. Colour depths 8, 16 (565
 * and 1555: both two bytes) and 32 bits; the 32 bpp byte mask BR00 21:20
 * (bit 21 alpha byte, bit 20 RGB bytes; 004 L25582-25604). Coordinates are
 * 16-bit signed, the rectangle [x1, x2) x [y1, y2); the clip rectangle is
 * read the same way. Pitches: BR13 15:0 (two's complement) is in bytes for a
 * linear surface and in dwords for a tiled one (Mesa's intel_blit.c and
 * IGT's blitter helpers divide a tiled pitch by 4: public fact; the seed's
 * "512 Byte granularity for Tile-X, 128B for Tile-Y" is checked). Tiling
 * Enable picks Tile-X, or on Gen6+ Tile-Y when BCS_SWCTRL (mmio_base + 0x200,
 * a masked register: bit 0 source, bit 1 destination are Tile-Y; i915/Mesa
 * public definitions) says so; Gen4's blitter tiles X only.
 *
 * Memory: data is read and written through the GTT (the blitter has its own
 * memory interface outside the GPE's caches, seed 001 L19: "Display, blitter
 * and their memory interfaces are not included in the GPE"). Timing: each run
 * of a blit's reads (writes) of one 64-byte line is one line request on
 * "memory" (MSG_MEMORY_REQUEST to the memory model: straight to memory, not
 * through the L3; the engine combines consecutive accesses to a line) with at most
 * `max_outstanding` in flight; a command ends when all its lines are
 * answered. With "memory" unlinked a blit takes lines x 64 / bytes_per_cycle
 * cycles. Other commands cost ceil(dwords / dwords_per_cycle) cycles.
 *
 * Bad input: a blit touching memory that does not translate stops at the
 * first such pixel (faults); tiled pitches that are not whole tiles, zero
 * pitches, negative pitches for pixel and scanline blits (bad_pitches); tiled
 * bases not 4 KiB aligned (bad_addresses); blits of more than max_blit_pixels
 * (oversized_blits); commands shorter than their layout (malformed); 2D
 * commands not modelled and unknown dwords (not_modelled, unknown_commands,
 * skipped by their length); a batch that faults or a ring past max_commands
 * stops the ring (hangs); an ELSP descriptor without its valid bit is
 * ignored (bad_messages), a context image that does not translate is a
 * hang. All counted and logged (up to max_reports), never
 * a crash or a hang.
 *
 * Not modelled: the execlist's second element, context switches, saving
 * the context image and the status page / EXECLIST_STATUS (a host's poll is
 * answered by the sync), PPGTT contexts (ring and batches are read through
 * the GGTT, as are the blits), PPGTT batches, second-level batches,
 * MI commands other than the above (skipped by length, counted in
 * mi_skipped), MI_FLUSH_DW post-sync writes, the mono source/pattern, text,
 * chroma and full BLTs (XY_FULL_*, XY_MONO_*, XY_TEXT_*, XY_PAT_*: counted in
 * not_modelled), transparency modes, the 1555 / 565 distinction (both are
 * two-byte pixels to a ROP), the engine's internal pipelining between
 * commands, and on Gen4/Gen5 the sharing of the render ring (there the
 * driver puts 2D commands in the render batch; here the blitter has its own
 * input).
 *
 * Ports: "host" in (optional, MSG_MMIO, struct cs_mmio: CS_MMIO_WRITE of the
 * blitter's registers, CS_MMIO_RING_DATA inline ring dwords, CS_MMIO_SYNC),
 * "host_reply" out (optional: CS_MMIO_SYNC_DONE once everything before the
 * sync is done), "memory" out / "memory_reply" in (optional, both or neither:
 * line requests and their replies).
 * Stats: commands, dwords, submissions, batches, register_writes, setups,
 * blits.color, blits.src_copy, blits.fast_copy, blits.pixel, blits.scanlines,
 * pixels_written, pixels_clipped, bytes_read, bytes_written, memory_requests,
 * memory_replies, busy_cycles, faults, bad_pitches, bad_addresses,
 * oversized_blits, malformed, not_modelled, unknown_commands, mi_skipped,
 * hangs, bad_messages.
 */
#ifndef GTSIM_UNITS_BLITTER_H
#define GTSIM_UNITS_BLITTER_H

#include "fabric/unit.h"

extern const struct unit_ops blitter_ops;

#endif
