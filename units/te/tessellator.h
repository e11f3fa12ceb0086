/* units/te/tessellator.h - the fixed-function tessellation algorithm of the
 * Tessellation Engine (TE) as a pure library: tessellation factors in,
 * domain points (U, V) and output primitives (index lists) out. No fabric,
 * no state: the TE unit (te.h) and tests call it.
 *
 * What the seed says (seed 003, TE L12717-12786): patches with an outside
 * factor <= 0.0 or NaN are culled (L12735-12739, inside factors never cull);
 * factors are min()-clamped to MaxTessFactorOdd (FRACTIONAL_ODD) or
 * MaxTessFactorNotOdd (INTEGER, FRACTIONAL_EVEN), and an ISOLINE's line
 * density always to MaxTessFactorNotOdd (L12741-12743); INTEGER rounds up
 * to whole equal segments, EVEN_FRACTIONAL to an even count with the
 * midpoint always a point and one smaller segment per half, ODD_FRACTIONAL
 * to an odd count mirrored about the midpoint (L12745-12753); the QUAD, TRI
 * and ISOLINE domains and their outputs (L12755-12786; no ISOLINE output on
 * the V = 1 edge). The seed calls the exact algorithm, the point order and
 * the primitive order "an implementation detail" (L12721) - they are those
 * of the D3D11 reference tessellator ("CHWTessellator", Microsoft, May 2012,
 * MIT licence, as carried in Mesa's src/gallium/auxiliary/tessellator/
 * tessellator.cpp), which the hardware and Mesa follow. This file is a
 * re-implementation in C11 from that description; the facts taken from it:
 *  - factor limits: ODD [1, 63], EVEN [2, 64], INTEGER [1, 64] then rounded
 *    up (ceil); isoline line density [1, 64] rounded up, always integer;
 *    NaN inside factors become the lower bound; with FRACTIONAL_ODD, when any
 *    factor exceeds 1 + 2^-17 the inside factors are raised to at least
 *    1 + 2^-16 (a "picture frame" ring always exists);
 *  - INTEGER partitioning picks each factor's parity from its rounded value
 *    (an inside factor of 1 counts as even); all-ones factors (INTEGER or
 *    ODD) give the minimal patch: 4 corners and 2 triangles (QUAD), or 3
 *    corners and 1 triangle (TRI);
 *  - arithmetic in unsigned 16.16 fixed point: factors converted with
 *    round-to-nearest-even, 1/n segment sizes as 16.16 reciprocals rounded to
 *    nearest, positions lerped between the floor and ceil half-factor
 *    tessellations and rounded, the midpoint exactly 0.5, the second half of
 *    an edge mirrored (1 - x); TRI rings pulled in by 2/3 of the 1D position;
 *    the float domain points are the exact values of those fixed-point
 *    numbers;
 *  - points: the outside ring first (QUAD clockwise from (0,1) along U=0,
 *    then V=0, U=1, V=1; TRI from V=1 along U=0, then V=0, then W=0), then
 *    the inside rings spiralling in, then the centre (a degenerate row for
 *    even QUAD inside factors, the centre point (1/3, 1/3) for an even TRI);
 *  - primitives: ring by ring, edge by edge; the outermost transition ring
 *    stitched by the ruler-function split order (a 33-entry table), inner
 *    rings with mirrored diagonals, the QUAD centre strip with diagonals from
 *    inside to outside, the odd TRI centre as one triangle; triangles are
 *    generated clockwise and stored (a, c, b) for TRI_CCW; LINE output on
 *    QUAD/TRI joins consecutive points (a debug visualisation in D3D11);
 *    ISOLINE: lines of constant V, points along each in U order.
 *
 * Not modelled: POW2 partitioning (no 3DSTATE_TE encoding); the HLSL-side
 * factor reductions of D3D11 (they are shader code, not the TE).
 */
#ifndef GTSIM_UNITS_TE_TESSELLATOR_H
#define GTSIM_UNITS_TE_TESSELLATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/tessellation.h"      /* enum tess_domain, _partitioning, _output_topology */

#define TESS_MAX_FACTOR 64u
#define TESS_MAX_POINTS ((TESS_MAX_FACTOR + 1u) * (TESS_MAX_FACTOR + 1u))
#define TESS_MAX_INDICES (TESS_MAX_FACTOR * TESS_MAX_FACTOR * 2u * 3u)
#define TESS_FIXED_ONE 0x10000u             /* 1.0 in 16.16 */

struct tess_config {
    uint32_t domain;                /* enum tess_domain */
    uint32_t partitioning;          /* enum tess_partitioning */
    uint32_t output_topology;       /* enum tess_output_topology */
    /* 3DSTATE_TE Maximum Tessellation Factor Odd / Not Odd (L12741): an
     * extra min() under the D3D11 limits. 0, NaN or a value outside
     * [lower limit, D3D11 limit] leaves the D3D11 limit (and is reported). */
    float max_factor_odd, max_factor_not_odd;
};

/* The factors as the patch header holds them (seed 003 L12403-12438):
 * QUAD: outer = UEQ0, VEQ0, UEQ1, VEQ1; inner = InsideU, InsideV.
 * TRI: outer = UEQ0, VEQ0, WEQ0; inner[0] = Inside.
 * ISOLINE: outer[0] = Line Density, outer[1] = Line Detail. */
struct tess_factors {
    float outer[4];
    float inner[2];
};

struct tess_result {
    bool culled;                    /* an outside factor <= 0 or NaN: nothing out */
    uint32_t vertices_per_primitive; /* 1, 2 or 3 by the output topology and domain */
    uint32_t point_count, index_count;
    uint32_t bad_factors;           /* factors the domain uses that were NaN, infinite
                                       or above the limit (clamped) */
    uint32_t bad_config;            /* unknown domain/partitioning/topology, or a
                                       3DSTATE_TE maximum out of range (limit kept) */
    uint32_t fixed_u[TESS_MAX_POINTS], fixed_v[TESS_MAX_POINTS];    /* 16.16 */
    float u[TESS_MAX_POINTS], v[TESS_MAX_POINTS];   /* the same values as floats */
    uint16_t indices[TESS_MAX_INDICES];
};

/* Tessellates one patch. An unknown domain tessellates nothing (culled and
 * bad_config); an unknown partitioning is read as INTEGER and an unknown
 * output topology as POINT (both bad_config). Never fails otherwise. */
void tessellate(const struct tess_config *config, const struct tess_factors *factors,
                struct tess_result *out);

/* The 16.16 conversion the tessellator uses (unsigned, round to nearest
 * even; NaN and negatives give 0, values >= 2^15 saturate), exposed for
 * tests. */
uint32_t tess_fixed_from_float(float f);

#endif
