/* units/sf/sf_attributes.c - see sf_attributes.h. */
#include "units/sf/sf_attributes.h"

#include <string.h>

/* SF_OUTPUT_ATTRIBUTE_DETAIL fields (reference genxml gen9.xml). */
static uint32_t detail_source(uint16_t d) { return d & 0x1fu; }
static uint32_t detail_swizzle(uint16_t d) { return (d >> 6) & 3u; }
static uint32_t detail_constant(uint16_t d) { return (d >> 9) & 3u; }
static uint32_t detail_control_mode(uint16_t d) { return (d >> 11) & 1u; }
static uint32_t detail_overrides(uint16_t d) { return (d >> 12) & 0xfu; }

static float bits_as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

static void input(const float (*inputs)[4], uint32_t input_count, uint32_t index, float out[4],
                  struct sbe_faults *faults)
{
    if (index < input_count) {
        memcpy(out, inputs[index], 4 * sizeof(float));
        return;
    }
    memset(out, 0, 4 * sizeof(float));
    faults->source_out_of_range++;
}

void sbe_select(const struct sbe_state *st, const float (*inputs)[4], uint32_t input_count,
                bool back_facing, uint32_t primitive_id,
                float out[SETUP_MAX_ATTRIBUTES][4], struct sbe_faults *faults)
{
    uint32_t n = st->output_count < SETUP_MAX_ATTRIBUTES ? st->output_count : SETUP_MAX_ATTRIBUTES;
    /* which detail (if any) swizzles each output */
    int32_t by[SETUP_MAX_ATTRIBUTES];
    for (uint32_t i = 0; i < SETUP_MAX_ATTRIBUTES; i++)
        by[i] = -1;
    if (st->swizzle_enable)
        for (uint32_t k = 0; k < SBE_SWIZZLED; k++)
            by[k + 16u * detail_control_mode(st->detail[k])] = (int32_t)k;
    for (uint32_t i = 0; i < n; i++) {
        if (by[i] < 0) {
            /* L15116: "If DISABLED, all vertex attributes are passed through" */
            input(inputs, input_count, i, out[i], faults);
            continue;
        }
        uint16_t d = st->detail[by[i]];
        uint32_t select = detail_swizzle(d), source = detail_source(d);
        bool facing = select == SBE_INPUTATTR_FACING || select == SBE_INPUTATTR_FACING_W;
        /* the back face's attribute follows the front's (L15122) */
        input(inputs, input_count, source + (facing && back_facing ? 1u : 0u), out[i], faults);
        if (select == SBE_INPUTATTR_W || select == SBE_INPUTATTR_FACING_W)
            out[i][0] = out[i][3];              /* WYZW */
        static const float constants[3][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 1 } };
        uint32_t cs = detail_constant(d), mask = detail_overrides(d);
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c))
                out[i][c] = cs == SBE_CONST_PRIM_ID ? bits_as_float(primitive_id) : constants[cs][c];
    }
    if (st->primitive_id_override && st->primitive_id_attribute < n)
        for (uint32_t c = 0; c < 4; c++)
            if (st->primitive_id_components & (1u << c))
                out[st->primitive_id_attribute][c] = bits_as_float(primitive_id);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t active = st->active[i];
        for (uint32_t c = active == SBE_ACTIVE_NONE ? 0 : active + 1; c < 4; c++)
            out[i][c] = c == 3 ? 1.0f : 0.0f;
    }
}

/* The WrapShortest adjustment of a delta (L15140-15143). */
static float wrap(float delta)
{
    if (delta <= -0.5f)
        return delta + 1.0f;
    if (delta >= 0.5f)
        return delta - 1.0f;
    return delta;
}

/* A component that stays what the provoking vertex says: a PrimitiveID
 * override or a PRIM_ID constant. */
static bool integer_component(const struct sbe_state *st, uint32_t i, uint32_t c)
{
    if (st->primitive_id_override && st->primitive_id_attribute == i &&
        (st->primitive_id_components & (1u << c)))
        return true;
    if (!st->swizzle_enable)
        return false;
    for (uint32_t k = 0; k < SBE_SWIZZLED; k++) {
        uint16_t d = st->detail[k];
        if (k + 16u * detail_control_mode(d) == i && detail_constant(d) == SBE_CONST_PRIM_ID &&
            (detail_overrides(d) & (1u << c)))
            return true;
    }
    return false;
}

void sbe_planes(const struct sbe_state *st, const float (*const values[3])[4], uint32_t provoking,
                bool point, struct setup_primitive *p)
{
    uint32_t n = st->output_count < SETUP_MAX_ATTRIBUTES ? st->output_count : SETUP_MAX_ATTRIBUTES;
    if (provoking > 2)
        provoking = 0;
    p->attribute_count = n;
    p->constant_mask = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool sprite = point && (st->point_sprite & (1u << i));
        if (sprite) {
            /* corners: vertex 0 top-left, 1 top-right, 2 bottom-left (sf_setup.h) */
            float t0 = st->point_sprite_lower_left ? 1.0f : 0.0f;
            float dt = st->point_sprite_lower_left ? -1.0f : 1.0f;
            p->attributes[i][0] = (struct setup_plane){ 0, 1, 0 };
            p->attributes[i][1] = (struct setup_plane){ t0, 0, dt };
            p->attributes[i][2] = (struct setup_plane){ 0, 0, 0 };
            p->attributes[i][3] = (struct setup_plane){ 1, 0, 0 };
            continue;
        }
        bool constant = point || (st->constant_interpolation & (1u << i));
        if (constant)
            p->constant_mask |= 1u << i;
        for (uint32_t c = 0; c < 4; c++) {
            struct setup_plane *a = &p->attributes[i][c];
            if (constant || integer_component(st, i, c)) {
                *a = (struct setup_plane){ values[provoking][i][c], 0, 0 };
                continue;
            }
            float v0 = values[0][i][c];
            float d1 = values[1][i][c] - v0, d2 = values[2][i][c] - v0;
            if (i < SBE_SWIZZLED && (st->wrap_shortest[i] & (1u << c))) {
                d1 = wrap(d1);
                d2 = wrap(d2);
            }
            *a = (struct setup_plane){ v0, d1, d2 };
        }
    }
}
