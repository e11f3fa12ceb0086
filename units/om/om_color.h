/* units/om/om_color.h - the colour calculator's per-pixel arithmetic (seed 003
 * L16385-16767), as functions of values alone so that tests can check them
 * against hand-worked numbers: blend factors and functions, clamping, the
 * alpha test, alpha to coverage, logic ops. The om unit (om.h) strings them
 * together in the seed's order (L16420-16431). Encodings are the genxml ones
 * (spec/data/gen8.xml BLEND_STATE_ENTRY, 3D_Color_Buffer_Blend_Factor,
 * 3D_Color_Buffer_Blend_Function, 3D_Logic_Op_Function, 3D_Compare_Function).
 */
#ifndef GTSIM_UNITS_OM_OM_COLOR_H
#define GTSIM_UNITS_OM_OM_COLOR_H

#include <stdbool.h>
#include <stdint.h>

#include "spec_common.h"            /* struct spec_BLEND_STATE_ENTRY */

enum om_blend_factor {
    OM_BF_ONE = 1, OM_BF_SRC_COLOR = 2, OM_BF_SRC_ALPHA = 3, OM_BF_DST_ALPHA = 4,
    OM_BF_DST_COLOR = 5, OM_BF_SRC_ALPHA_SATURATE = 6, OM_BF_CONST_COLOR = 7,
    OM_BF_CONST_ALPHA = 8, OM_BF_SRC1_COLOR = 9, OM_BF_SRC1_ALPHA = 10, OM_BF_ZERO = 17,
    OM_BF_INV_SRC_COLOR = 18, OM_BF_INV_SRC_ALPHA = 19, OM_BF_INV_DST_ALPHA = 20,
    OM_BF_INV_DST_COLOR = 21, OM_BF_INV_CONST_COLOR = 23, OM_BF_INV_CONST_ALPHA = 24,
    OM_BF_INV_SRC1_COLOR = 25, OM_BF_INV_SRC1_ALPHA = 26,
};

enum om_blend_function {
    OM_BLEND_ADD = 0, OM_BLEND_SUBTRACT = 1, OM_BLEND_REVERSE_SUBTRACT = 2, OM_BLEND_MIN = 3,
    OM_BLEND_MAX = 4,
};

enum om_logic_op {
    OM_LOGIC_CLEAR = 0, OM_LOGIC_NOR, OM_LOGIC_AND_INVERTED, OM_LOGIC_COPY_INVERTED,
    OM_LOGIC_AND_REVERSE, OM_LOGIC_INVERT, OM_LOGIC_XOR, OM_LOGIC_NAND, OM_LOGIC_AND,
    OM_LOGIC_EQUIV, OM_LOGIC_NOOP, OM_LOGIC_OR_INVERTED, OM_LOGIC_COPY, OM_LOGIC_OR_REVERSE,
    OM_LOGIC_OR, OM_LOGIC_SET,
};

enum om_color_clamp_range { OM_CLAMP_UNORM = 0, OM_CLAMP_SNORM = 1, OM_CLAMP_RTFORMAT = 2 };

/* The inputs of one pixel's blend: source 0, source 1 (dual source), the
 * destination as read from the RT (alpha 1.0 when the format has none,
 * L16577ff), the constant colour of COLOR_CALC_STATE. */
struct om_blend_inputs {
    float src[4], src1[4], dst[4], constant[4];
};

/* Factor `factor` for channel c (0..3 = R G B A) (the factor table,
 * L16585-16606; SRC_ALPHA_SATURATE is (f, f, f, 1) with f = min(1 - dst.a,
 * src.a)). *bad is set for an encoding the table lacks (read as ZERO). */
float om_blend_factor(uint32_t factor, unsigned c, const struct om_blend_inputs *in, bool *bad);

/* One channel's function of src*sf and dst*df (L16612-16617: MIN and MAX
 * apply the factors). *bad for an unknown function (read as ADD). */
float om_blend_function(uint32_t function, float src_term, float dst_term, bool *bad);

/* Blends a pixel with entry e: colour factors/function for R G B, and for A
 * as well unless independent_alpha (BLEND_STATE dword 0 bit 30) selects the
 * alpha ones. Returns false when an encoding was unknown. */
bool om_blend(const struct spec_BLEND_STATE_ENTRY *e, bool independent_alpha,
              const struct om_blend_inputs *in, float out[4]);

/* Clamps to [lo, hi] (NaN stays NaN; the format packer turns it into 0). */
void om_clamp4(float c[4], float lo, float hi);

/* The [lo, hi] of a Color Clamp Range for a format whose numbers are UNORM
 * (rt_kind 0), SNORM (1) or float (2; RTFORMAT means no clamp, +-inf). */
void om_clamp_range(uint32_t range, unsigned rt_kind, float *lo, float *hi);

/* s OP d on the bits of a pixel (L16657-16675). */
uint32_t om_logic_op(uint32_t op, uint32_t s, uint32_t d);

/* The alpha test: `alpha FUNC ref` (3D_Compare_Function: ALWAYS 0, NEVER 1,
 * LESS 2, EQUAL 3, LEQUAL 4, GREATER 5, NOTEQUAL 6, GEQUAL 7). With
 * unorm8 the alpha is first converted to UNORM8 (L16452-16466) and ref is
 * the UNORM8 reference. */
bool om_alpha_test(uint32_t function, float alpha, bool unorm8, float ref_float, uint32_t ref_unorm8);

/* The alpha-to-coverage mask for `samples` samples: the first
 * round(alpha * samples) samples (alpha clamped to [0, 1]; NaN: none,
 * L16435-16450). The seed gives the 1/2/4-bit mask sizes, not the mapping
 * (the mapping is the model's: coverage proportional to alpha); dithering is
 * not modelled. */
uint32_t om_alpha_to_coverage(float alpha, uint32_t samples);

/* ---- the datapath the RTL replaces (rtl-cosim/om_cosim.h) ----------------------------
 * The colour calculator's arithmetic of one pixel sample, from the source
 * colour to the bits written, is two calls: om_color_compute (the float part:
 * pre-blend clamp of source, destination and constant, the blend, post-blend
 * clamp) and om_color_bits (per 32-bit word of the packed texel: logic op,
 * then the write-disable mask). Format unpack/pack (units/common/format.h) is
 * between them and stays C. The late depth/stencil test is ds_test
 * (units/common/depth_stencil.h). A unit that holds a struct om_datapath
 * calls its hooks instead of these functions (rtl-cosim's om:rtl and
 * om:lockstep install one); NULL hooks mean the C functions. */
struct om_color_request {
    bool blend;                     /* Color Buffer Blend Enable (and not an integer RT) */
    bool pre_clamp, post_clamp;     /* Pre/Post-Blend Color Clamp Enable */
    bool independent_alpha;         /* BLEND_STATE Independent Alpha Blend Enable */
    uint32_t source_factor, destination_factor, function;   /* colour (R G B; A too) */
    uint32_t source_alpha_factor, destination_alpha_factor, alpha_function;
    float lo, hi;                   /* om_clamp_range */
    struct om_blend_inputs in;      /* src: the shader's colour (clamped here when pre_clamp) */
};

/* The colour to pack. False when an encoding was unknown (the unit counts
 * bad_state); out is then computed as om_blend reads unknown encodings. */
bool om_color_compute(const struct om_color_request *rq, float out[4]);

/* One 32-bit word of the texel: logic ? LogicOp(source, destination) : source,
 * then the bits set in keep (disabled channels) from the destination. */
uint32_t om_color_bits(bool logic, uint32_t op, uint32_t source, uint32_t destination,
                       uint32_t keep);

struct ds_state;
struct om_datapath {
    void *context;
    bool (*color)(void *context, const struct om_color_request *rq, float out[4]);
    uint32_t (*bits)(void *context, bool logic, uint32_t op, uint32_t source,
                     uint32_t destination, uint32_t keep);
    /* as ds_test */
    uint32_t (*depth)(void *context, const struct ds_state *st, bool back_facing,
                      uint32_t depth_format, float source_depth, uint32_t *depth,
                      uint8_t *stencil);
};

#endif
