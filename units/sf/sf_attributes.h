/* units/sf/sf_attributes.h - SF's attribute setup (the "setup back end",
 * SBE) as a library with no fabric dependency: from the attribute rows SF
 * read from each vertex's VUE to the PS input attributes of a set-up
 * primitive in the payload's a0/a1/a2 form (units/common/primitive.h).
 *
 * Seed 003 "Attribute Interpolation Setup" (L15108-15190), with the field
 * definitions of 3DSTATE_SBE / 3DSTATE_SBE_SWIZ (seed 004 L5361-5500, seed
 * 000 L1343-1560 for SF_OUTPUT_ATTRIBUTE_DETAIL):
 *  - inputs: Vertex URB Entry Read Length rows from Vertex URB Entry Read
 *    Offset (256-bit units), two 128-bit input attributes per row; input
 *    attribute 0 is the first 128 bits at the read offset (000 L1547);
 *  - Number of SF Output Attributes (0..32) outputs; without Attribute
 *    Swizzle Enable output i is input i (L15116);
 *  - swizzling of 16 outputs (L15116-15133): per output a Source Attribute,
 *    a Swizzle Select (INPUTATTR; INPUTATTR_FACING: the back-facing object
 *    reads Source Attribute + 1; _W variants copy W to X), a Constant Source
 *    (0000, 0001, 1111, or PRIM_ID replicated, 000 L1432-1450) with per
 *    component Component Override. Each detail's Swizzle Control Mode bit
 *    selects whether it applies to output i or i + 16 (the Gen7 field
 *    SWIZ_0_15 / SWIZ_16_31, 000 L1343-1360, moved per attribute in Gen8's
 *    3DSTATE_SBE_SWIZ: our reading of the reference genxml);
 *  - Constant Interpolation Enable (L15135): a0 = the provoking vertex's
 *    value, a1 = a2 = 0 (and WrapShortest ignored);
 *  - WrapShortest (L15136-15143) on outputs 0-15, per component: a delta
 *    <= -0.5 gets +1, >= 0.5 gets -1;
 *  - point sprites (L15145-15157): for points, outputs whose PointSprite
 *    Texture Coordinate Enable bit is set take (s, t, 0, 1) from the corner
 *    (UPPERLEFT: top-left (0,0); LOWERLEFT: top-left (0,1)); every other
 *    attribute of a point is constant;
 *  - Primitive ID override (SBE_INT::PrimId_override, L15177-15179): when
 *    GS is disabled and a component select is set, those components of
 *    output Primitive ID Override Attribute Select carry the PrimitiveID;
 *  - Attribute Active Component Format (Gen9, reference genxml only; the
 *    seeds do not describe it): components outside XY / XYZ / XYZW (none
 *    for DISABLED) are delivered as 0.0 for X, Y, Z and 1.0 for W. This
 *    default is our reading, not the seed's. Gen8 has no such field: all
 *    components are active.
 * A PrimitiveID is delivered as its integer bits in the 32-bit channel.
 * Input attributes that the read did not cover read as zero (counted).
 */
#ifndef GTSIM_UNITS_SF_SF_ATTRIBUTES_H
#define GTSIM_UNITS_SF_SF_ATTRIBUTES_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/primitive.h"

#define SBE_MAX_READ_ROWS 32u               /* Vertex URB Entry Read Length is 5 bits */
#define SBE_MAX_INPUTS (2u * SBE_MAX_READ_ROWS)
#define SBE_SWIZZLED 16u

/* SF_OUTPUT_ATTRIBUTE_DETAIL Swizzle Select and Constant Source (reference genxml). */
enum sbe_swizzle_select { SBE_INPUTATTR = 0, SBE_INPUTATTR_FACING, SBE_INPUTATTR_W, SBE_INPUTATTR_FACING_W };
enum sbe_constant_source { SBE_CONST_0000 = 0, SBE_CONST_0001, SBE_CONST_1111, SBE_CONST_PRIM_ID };
enum sbe_active_components { SBE_ACTIVE_NONE = 0, SBE_ACTIVE_XY, SBE_ACTIVE_XYZ, SBE_ACTIVE_XYZW };

struct sbe_state {
    uint32_t output_count;                  /* Number of SF Output Attributes */
    uint32_t read_length;                   /* SBE_INT rows read (inputs = 2 per row) */
    bool swizzle_enable;
    uint16_t detail[SBE_SWIZZLED];          /* SF_OUTPUT_ATTRIBUTE_DETAIL, raw 16 bits */
    uint8_t wrap_shortest[SBE_SWIZZLED];    /* bit 0..3: X..W */
    uint32_t constant_interpolation;        /* bit per output */
    uint32_t point_sprite;                  /* bit per output */
    bool point_sprite_lower_left;           /* Point Sprite Texture Coordinate Origin */
    uint8_t active[SETUP_MAX_ATTRIBUTES];   /* enum sbe_active_components */
    bool primitive_id_override;             /* SBE_INT::PrimId_override */
    uint32_t primitive_id_attribute;        /* Primitive ID Override Attribute Select */
    uint32_t primitive_id_components;       /* bit 0..3: X..W */
};

/* What one vertex's attribute selection saw go wrong (counted by the caller). */
struct sbe_faults {
    uint32_t source_out_of_range;           /* a source past the inputs read: zeros */
};

/* The output attributes of one vertex of an object: `inputs` are the
 * vertex's input attributes (input_count of them, from the read offset). */
void sbe_select(const struct sbe_state *st, const float (*inputs)[4], uint32_t input_count,
                bool back_facing, uint32_t primitive_id,
                float out[SETUP_MAX_ATTRIBUTES][4], struct sbe_faults *faults);

/* Fills p->attributes, attribute_count and constant_mask from the outputs
 * of the set-up primitive's vertices 0, 1, 2 (`values[k]`: a line passes
 * its vertex 0 again as vertex 2; a point its one vertex three times) and
 * the provoking vertex's (`provoking`, 0..2). `point` applies the point
 * rules (constant attributes, sprite coordinates). */
void sbe_planes(const struct sbe_state *st, const float (*const values[3])[4], uint32_t provoking,
                bool point, struct setup_primitive *p);

#endif
