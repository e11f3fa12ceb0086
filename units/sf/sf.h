/* units/sf/sf.h - the strips-and-fans (setup) unit of Gen8/Gen9: its front
 * half, where the geometry pipeline ends today.
 *
 * Models (seed 003, notes/003-skl-pipeline.md §3.10):
 *  - inputs (L14367-14395): primitives from CLIP (MSG_PRIMITIVE with their
 *    VUE handles, primitive.h) in order; each vertex's position is read from
 *    its VUE header row (D4-D7, L11759-11844) through the URB unit;
 *  - object setup's first steps (L14722-14744): the perspective divide
 *    (x/w, y/w, z/w) and, when 3DSTATE_SF's Viewport Transform Enable is set,
 *    the viewport transform x' = m00 x + m30, y' = m11 y + m31,
 *    z' = m22 z + m32 with the SF_CLIP_VIEWPORT (3DSTATE_VIEWPORT_STATE_
 *    POINTERS_SF_CLIP, from Dynamic State Base Address; 16 viewports, the
 *    leading vertex's Viewport Index selects, L14872) read when the pointer
 *    command arrives; objects with a NaN post-transform X, Y or Z are
 *    discarded (L14730), counted;
 *  - the end of the references: the primitive's URB references
 *    (primitive.h) are dropped once its positions are read;
 *  - the in-band sync (units/common/mmio.h): a CS_MMIO_SYNC that reaches SF
 *    has every primitive ahead of it set up; with "drained" linked SF returns
 *    it to the CS as CS_MMIO_SYNC_DONE, otherwise it goes on to WM.
 * Each draw's primitive count and the screen positions of its first
 * primitives are kept for harnesses (sf_observed_draws()); the same counts
 * are stats.
 *
 * Ports: "clip" in (MSG_STATE, MSG_PRIMITIVE, MSG_MMIO), "wm" out (state and
 *        syncs go on; optional), "urb" out / "urb_reply" in (MSG_URB),
 *        "drained" out (MSG_MMIO, optional).
 * Stats: primitives, vertices, nan_discarded, draws, bad_primitives,
 *        stall.urb, plus the ff_stage counters under "ff.".
 *
 * Not modelled yet (issue 12): everything after the viewport transform:
 * origin bias, draw rectangle offset, snapping, culling, scissor, setup of
 * edges and attribute planes (MSG_SETUP to WM), lines and points rules,
 * 3DSTATE_RASTER, SBE. Nothing is sent to WM but state and syncs.
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
