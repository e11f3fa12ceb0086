/* units/sf/sf.h - the strips-and-fans (setup) unit of Gen8/Gen9 with its
 * setup back end (SBE): primitives from CLIP in, set-up objects to WM out.
 *
 * Models (seed 003, notes/003-skl-pipeline.md §3.10):
 *  - inputs (L14367-14395): primitives from CLIP (MSG_PRIMITIVE with their
 *    VUE handles, primitive.h) in order; each vertex's header row (D1
 *    RTAIndex, D2 VPIndex, D3 point width, D4-D7 position, L11759-11844)
 *    and, for SBE, its attribute rows are read through the URB unit: one
 *    read per vertex when the attribute rows follow the header (Read Offset
 *    0 or 1, as the drivers program it), else two;
 *  - primitive decomposition (L14482-14720): points, lines, triangles and
 *    rectangles from every topology SF takes, strips' alternating
 *    orientation (TRISTRIP_REVERSE starts inverted), _BF points and lines
 *    back-facing, the provoking vertex from 3DSTATE_SF's Triangle
 *    Strip/List, Fan and Line selects (POLYGON and RECTLIST: vertex 0); the
 *    packet's own `provoking` (CLIP's, from 3DSTATE_CLIP's selects, which
 *    the drivers program equal) is not used;
 *  - per object: NaN positions before or after the transform discard it
 *    (L14728-14730); the leading vertex's VPIndex selects the viewport
 *    (L14440-14466); the perspective divide and, with Viewport Transform
 *    Enable, x' = m00 x + m30, y' = m11 y + m31, z' = m22 z + m32
 *    (SF_CLIP_VIEWPORT read when 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP
 *    arrives, L14732-14744); then object setup (units/sf/sf_setup.h:
 *    point width from the state or the vertex, point rasterization rule
 *    from 3DSTATE_WM, lines by Table 2's algorithm (L15636-15643: diamond,
 *    non-antialiased parallelogram with Last Pixel Enable, antialiased or
 *    MSAA rectangle; sf_setup.h) with their endpoints, width, AA region
 *    widths and stipple restart for WM (LINELIST: every line; LINESTRIP: its
 *    first line of a packet with StartPrim, not for the _CONT forms; CLIP
 *    marks only a strip's first segment it sends alone with StartPrim, so
 *    the counter runs on along the strip, L15540),
 *    rectangle completion, snapping, degenerate and face culling, scissor,
 *    viewport extents, barycentric, depth and 1/w planes, global depth
 *    offset from 3DSTATE_RASTER with the 3DSTATE_DEPTH_BUFFER format, by
 *    the Solid / Wireframe / Point enable of the triangle's face's fill
 *    mode, SF_INT L15003-15015);
 *  - SBE (L15108-15190, units/sf/sf_attributes.h): SBE_INT read offset and
 *    length (3DSTATE_SBE when forced, else the last enabled of 3DSTATE_GS,
 *    DS, VS, L15169-15175), swizzles, constant overrides, flat attributes
 *    from the provoking vertex, WrapShortest, point sprite coordinates,
 *    the PrimitiveID override, Gen9's active component formats;
 *  - each object set up goes to WM as MSG_SETUP (struct setup_primitive,
 *    primitive.h) with its PrimitiveID, draw, viewport and RT array index;
 *    triangles of topologies polygon stipple does not apply to (L15560-15575:
 *    all but POLYGON, TRIFAN, TRILIST, TRISTRIP, TRISTRIP_REVERSE) carry
 *    PRIM_NO_POLY_STIPPLE;
 *  - the end of the references: the primitive's URB references
 *    (primitive.h) are dropped once its rows are read;
 *  - the in-band sync (units/common/mmio.h): a CS_MMIO_SYNC that reaches SF
 *    has every primitive ahead of it set up; with "drained" linked SF returns
 *    it to the CS as CS_MMIO_SYNC_DONE, otherwise it goes on to WM.
 * Each draw's primitive count and the screen positions of its first
 * primitives are kept for harnesses (sf_observed_draws()); the same counts
 * are stats.
 *
 * Ports: "clip" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO), "wm" out (state,
 *        MSG_SETUP and syncs; optional), "urb" out / "urb_reply" in
 *        (MSG_URB), "drained" out (MSG_MMIO, optional), "td"[open] out and
 *        "eot" in (Gen4 setup threads, optional).
 * Params: thread_timeout (Gen4 watchdog, cycles; 0 = none).
 * Stats: primitives, vertices, objects, draws, bad_primitives, unsupported,
 *        nan_discarded, setup.{points,lines,triangles,rectangles},
 *        culled.{degenerate,face,outside,bad_width,infinite},
 *        reserved_provoking, not_modelled.fill_mode,
 *        setup.lines_diamond, setup.lines_msaa, setup.lines_aa,
 *        attributes.{rows_read,out,source_out_of_range}, viewport/scissor
 *        read failures, stall.urb, stall.wm, plus the ff_stage counters
 *        under "ff.".
 *
 * Gen7 (issue 14): 3DSTATE_SF also carries the raster state Gen8 moved to
 * 3DSTATE_RASTER (cull mode, winding, scissor enable, fill modes, depth
 * offset, AA; seed 000 L1681-2041), 3DSTATE_SBE its own swizzles and
 * wrap-shortest enables (seed 000 L1304-1633) with its read offset/length
 * always used; Gen7's SF_CLIP_VIEWPORT has no viewport extents (no test).
 *
 * Gen4 (issue 14 item 3, units/sf/sf_gen4.h): 3DSTATE_PIPELINED_POINTERS'
 * SF_STATE (seed 001 L12551-13210) and SF_VIEWPORT element 0 (L14099-14169)
 * at General State Base + pointer give the viewport matrix, scissor, cull
 * mode, winding, line width, point width, provoking selects and precision;
 * the VUE header holds the divided position and RHW (L1490-1601), so the
 * viewport transform is applied without a divide and w = 1/RHW (the
 * observed vertices' clip[] then hold x, y, z, RHW); no viewport extents
 * test. Set-up objects go to WM with attribute_count 0.
 * The SF (setup) thread [Pre-DevSNB] (seed 001 §7.5, L14170-14441), when "td"
 * is linked: SF_STATE's URB Entry counts configure the SF region of the
 * urb_fence unit (URB_OP_CONFIGURE), Vertex URB Entry Read Offset / Length
 * (256-bit units, L12750-12775) are the VUE rows read; each object that
 * survives fixed-function setup gets an SF-region entry (URB_OP_ALLOC; the
 * wait is the fence's back-pressure, a refusal drops the object, counted)
 * and a thread of SF_STATE's kernel (FFID_SF, Maximum Number of Threads,
 * Floating Point Mode; sf_gen4.h builds the payload: R0.0 Handle ID / URB
 * Return Handle, R1 PrimType, Sprite Point Enable, facing, provoking vertex,
 * determinant and deltas, R2 Z and 1/W, then CURBE constants and the VUE rows
 * of V0-V2 in the seed's order, L14181-14225). The thread's EOT URB_WRITE
 * (transposed, units/urb_fence) fills the entry; when the URB says it ended
 * (urb.eot_sf -> "eot") the object leaves as MSG_SETUP with setup_urb_handle
 * / setup_urb_rows (URB Entry Allocation Size + 1 512-bit units), its one
 * reference WM's to drop. The planes' origin (x0, y0, what WM gives the PS as
 * Xstart/Ystart) is V0 less the Destination Origin Bias (L11861-11877).
 * The objects of one primitive run their threads side by side and leave in
 * order; the next primitive waits for them (state must not overtake them).
 * Watchdog (issue 14 bad input): a thread not ended `thread_timeout` cycles
 * after its dispatch is given up: its object dropped, its entry freed, a
 * later end counted (gen4.late_ends). CONSTANT_BUFFER's registers (SF_STATE
 * Constant URB Entry Read Offset / Length) are read from memory, as units/vs.
 * Stats gen4.state_faults, gen4.viewport_faults (pointers outside memory),
 * gen4.setup_entries, gen4.refused_entries, gen4.alloc_wait_cycles,
 * gen4.watchdog_drops, gen4.late_ends, gen4.bad_grf_start, gen4.curbe_faults,
 * gen4.configures, gen4.setups_out, gen4.threads.* (dispatched, ended,
 * stalls, in flight). Not modelled on Gen4: the SF's own setup timing, the
 * retained-handle rules, threads of successive primitives overlapping, ILK's
 * payload extras (R2.6, R3 barycentric terms).
 *
 * Not modelled: the stipple counter across CLIP's one-line LINESTRIP packets
 * (CLIP marks each StartPrim, so each restarts it), WIREFRAME and
 * POINT fill modes (drawn SOLID, counted), smooth points, multisample
 * rasterization and sample positions, 3DSTATE_WM_HZ_OP's SF_INT overrides,
 * CL_PRIMITIVES_COUNT (CLIP counts it), Last Pixel Enable across CLIP's
 * one-line LINESTRIP packets (each is its strip's last line), the timing
 * of setup itself (one input message per cycle).
 */
#ifndef GTSIM_UNITS_SF_SF_H
#define GTSIM_UNITS_SF_SF_H

#include <stdint.h>

#include "fabric/unit.h"

extern const struct unit_ops sf_ops;

/* What a harness can ask about the primitives that reached SF. */
#define SF_OBSERVED_DRAWS 64u
#define SF_OBSERVED_PRIMITIVES 4u   /* per draw: the first ones' vertices */

struct sf_observed_vertex {
    float clip[4];                  /* x, y, z, w as the VUE holds them */
    float screen[3];                /* after divide and viewport transform */
};

struct sf_observed_draw {
    uint32_t draw;                  /* the primitive packets' draw number */
    uint64_t primitives;
    uint32_t kept;                  /* primitives[] filled */
    struct {
        uint32_t topology, vertex_count, provoking;
        struct sf_observed_vertex v[3];
    } primitives_seen[SF_OBSERVED_PRIMITIVES];
};

/* Harness access (tests, tools): the draws seen so far, oldest first, up to
 * SF_OBSERVED_DRAWS (later draws are counted in the stats only). */
uint32_t sf_observed_draws(struct unit *u, const struct sf_observed_draw **draws);

#endif
