/* units/common/tessellation.h - MSG_DOMAIN: what the tessellator (TE) hands
 * the domain shader stage (DS): the domain points of one patch and the
 * primitives that connect them.
 *
 * Seed 003 (notes/003-skl-pipeline.md): TE L12717-12786, DS L12787-13030.
 * The HS thread writes the patch's URB entry, whose patch header holds the
 * tessellation factors (003 L12309-12716); TE reads them, generates the
 * domain points and the output topology of 3DSTATE_TE (points, lines,
 * triangles CW or CCW) exactly as the D3D11 reference tessellator does, and
 * sends them to DS in batches. DS dispatches SIMD8 threads over the points
 * (each thread gets the patch handle and up to 8 (U, V[, W]) points in its
 * payload), and emits the primitives (MSG_PRIMITIVE, primitive.h) with the
 * URB handles its threads wrote once the threads have ended.
 *
 * A batch holds whole primitives: a patch with more points or primitives
 * than one batch holds travels as several batches, each self-contained
 * (points a batch's primitives use are repeated in it), the last with
 * TESS_BATCH_LAST. The patch entry is referenced once per batch by TE (the
 * DS dereferences it when the batch's threads are done) - see urb.h.
 * A batch's points are in the tessellator's point order (a patch that fits
 * one batch carries the tessellator's point and index lists unchanged). A
 * culled patch is one batch, FIRST | LAST | CULLED with no points and no
 * indices: it still carries the patch's reference, which DS drops.
 */
#ifndef GTSIM_UNITS_COMMON_TESSELLATION_H
#define GTSIM_UNITS_COMMON_TESSELLATION_H

#include <stdint.h>

/* 3DSTATE_TE Domain / Output Topology (seed 004; numeric values from Mesa's
 * genxml gen9.xml, "TE Domain" and "Output Topology"). */
enum tess_domain {
    TESS_DOMAIN_QUAD = 0,
    TESS_DOMAIN_TRI = 1,
    TESS_DOMAIN_ISOLINE = 2,
};

enum tess_output_topology {
    TESS_OUTPUT_POINT = 0,
    TESS_OUTPUT_LINE = 1,
    TESS_OUTPUT_TRI_CW = 2,
    TESS_OUTPUT_TRI_CCW = 3,
};

enum tess_partitioning {
    TESS_PARTITION_INTEGER = 0,
    TESS_PARTITION_ODD_FRACTIONAL = 1,
    TESS_PARTITION_EVEN_FRACTIONAL = 2,
};

enum tess_batch_flags {
    TESS_BATCH_FIRST = 1u << 0,     /* first batch of the patch */
    TESS_BATCH_LAST = 1u << 1,      /* last batch of the patch */
    TESS_BATCH_CULLED = 1u << 2,    /* the patch was culled (a factor <= 0 or NaN): no points */
};

#define TESS_BATCH_MAX_POINTS 64u
#define TESS_BATCH_MAX_INDICES 192u     /* 64 triangles, 96 lines or 192 points */

struct tess_domain_batch {
    uint32_t patch_handle;          /* the HS output (patch) URB entry */
    uint32_t flags;                 /* enum tess_batch_flags */
    uint32_t domain;                /* enum tess_domain */
    uint32_t output_topology;       /* enum tess_output_topology */
    uint32_t instance;
    uint32_t primitive_id;          /* the patch's PrimitiveID */
    uint32_t draw;
    uint32_t point_count;
    uint32_t index_count;           /* 1, 2 or 3 per primitive by output_topology */
    float u[TESS_BATCH_MAX_POINTS]; /* domain coordinates; W = 1 - U - V for triangles */
    float v[TESS_BATCH_MAX_POINTS];
    uint8_t indices[TESS_BATCH_MAX_INDICES];    /* into u[]/v[], in output order */
};

#endif
