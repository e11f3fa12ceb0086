/* units/common/depth_stencil.c - depth/stencil tests and surfaces; see
 * depth_stencil.h. */
#include "units/common/depth_stencil.h"

#include <math.h>
#include <string.h>

#include "fabric/error.h"

bool ds_compare_uint(uint32_t function, uint32_t a, uint32_t b)
{
    switch (function) {
    case DS_COMPARE_ALWAYS: return true;
    case DS_COMPARE_NEVER: return false;
    case DS_COMPARE_LESS: return a < b;
    case DS_COMPARE_EQUAL: return a == b;
    case DS_COMPARE_LEQUAL: return a <= b;
    case DS_COMPARE_GREATER: return a > b;
    case DS_COMPARE_NOTEQUAL: return a != b;
    case DS_COMPARE_GEQUAL: return a >= b;
    default: return false;
    }
}

bool ds_compare_float(uint32_t function, float a, float b)
{
    switch (function) {
    case DS_COMPARE_ALWAYS: return true;
    case DS_COMPARE_NEVER: return false;
    case DS_COMPARE_LESS: return a < b;
    case DS_COMPARE_EQUAL: return a == b;
    case DS_COMPARE_LEQUAL: return a <= b;
    case DS_COMPARE_GREATER: return a > b;
    case DS_COMPARE_NOTEQUAL: return a != b;
    case DS_COMPARE_GEQUAL: return a >= b;
    default: return false;
    }
}

uint8_t ds_stencil_apply(uint32_t op, uint8_t value, uint8_t reference)
{
    switch (op) {
    case DS_STENCIL_KEEP: return value;
    case DS_STENCIL_ZERO: return 0;
    case DS_STENCIL_REPLACE: return reference;
    case DS_STENCIL_INCRSAT: return value == 0xff ? 0xff : (uint8_t)(value + 1);
    case DS_STENCIL_DECRSAT: return value == 0 ? 0 : (uint8_t)(value - 1);
    case DS_STENCIL_INCR: return (uint8_t)(value + 1);
    case DS_STENCIL_DECR: return (uint8_t)(value - 1);
    case DS_STENCIL_INVERT: return (uint8_t)~value;
    default: return value;
    }
}

uint32_t ds_depth_bytes(uint32_t format)
{
    switch (format) {
    case DS_D32_FLOAT: return 4;
    case DS_D24_UNORM_X8_UINT: return 4;
    case DS_D16_UNORM: return 2;
    default: return 0;
    }
}

static uint32_t unorm_encode(float v, uint32_t bits)
{
    if (!(v > 0.0f))                /* NaN and negatives: 0 */
        return 0;
    if (v >= 1.0f)
        return (1u << bits) - 1u;
    double max = (double)((1u << bits) - 1u);
    return (uint32_t)floor((double)v * max + 0.5);
}

uint32_t ds_depth_encode(uint32_t format, float depth)
{
    switch (format) {
    case DS_D16_UNORM: return unorm_encode(depth, 16);
    case DS_D24_UNORM_X8_UINT: return unorm_encode(depth, 24);
    case DS_D32_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &depth, 4);
        return bits;
    }
    default: return 0;
    }
}

float ds_depth_decode(uint32_t format, uint32_t stored)
{
    switch (format) {
    case DS_D16_UNORM: return (float)((double)(stored & 0xffffu) / 65535.0);
    case DS_D24_UNORM_X8_UINT: return (float)((double)(stored & 0xffffffu) / 16777215.0);
    case DS_D32_FLOAT: {
        float f;
        memcpy(&f, &stored, 4);
        return f;
    }
    default: return 0.0f;
    }
}

uint32_t ds_test(const struct ds_state *st, bool back_facing, uint32_t depth_format,
                 float source_depth, uint32_t *depth, uint8_t *stencil)
{
    /* L16488: the back-face state only with Double Sided Stencil Enable */
    const struct ds_face *f = back_facing && st->double_sided ? &st->back : &st->front;
    uint32_t flags = 0;
    uint8_t old_stencil = *stencil;
    uint32_t op = DS_STENCIL_KEEP;
    bool stencil_pass = true;
    if (st->stencil_test) {
        stencil_pass = ds_compare_uint(f->function, f->reference & f->test_mask,
                                       old_stencil & f->test_mask);
        if (!stencil_pass) {
            flags |= DS_STENCIL_FAILED;
            op = f->fail_op;
        }
    }
    bool depth_pass = true;
    if (stencil_pass && st->depth_test) {
        float z = source_depth;
        if (st->min_depth <= st->max_depth) {   /* L16502: clamp to the CC viewport */
            if (z < st->min_depth)
                z = st->min_depth;
            if (z > st->max_depth)
                z = st->max_depth;
        }
        if (depth_format == DS_D32_FLOAT)
            depth_pass = ds_compare_float(st->depth_function, z,
                                          ds_depth_decode(DS_D32_FLOAT, *depth));
        else
            depth_pass = ds_compare_uint(st->depth_function, ds_depth_encode(depth_format, z),
                                         depth_format == DS_D16_UNORM ? *depth & 0xffffu
                                                                      : *depth & 0xffffffu);
        source_depth = z;
        if (!depth_pass) {
            flags |= DS_DEPTH_FAILED;
            op = f->depth_fail_op;
        }
    }
    if (stencil_pass && depth_pass) {
        flags |= DS_PASS;
        op = f->pass_op;
        if (st->depth_write) {
            *depth = ds_depth_encode(depth_format, source_depth);
            flags |= DS_DEPTH_WRITTEN;
        }
    }
    /* L16677-16711: the stencil is updated whatever the outcome, through
     * the write mask, when stencil writes are on (they need the test) */
    if (st->stencil_test && st->stencil_write) {
        uint8_t next = ds_stencil_apply(op, old_stencil, f->reference);
        next = (uint8_t)((old_stencil & ~f->write_mask) | (next & f->write_mask));
        if (next != old_stencil || op != DS_STENCIL_KEEP) {
            *stencil = next;
            flags |= DS_STENCIL_WRITTEN;
        }
    }
    return flags;
}

bool ds_surface_address(const struct ds_surface *s, uint32_t x, uint32_t y, uint32_t slice,
                        uint64_t *address)
{
    if (!s->valid || !s->element_bytes || !s->pitch)
        return false;
    if ((s->width && x >= s->width) || (s->height && y >= s->height) ||
        (s->slices && slice >= s->slices))
        return false;
    uint64_t offset;
    uint64_t row = (uint64_t)y + (uint64_t)slice * s->qpitch_rows;
    if (!tiling_offset(s->tiling, s->element_bytes, s->pitch, (uint64_t)x * s->element_bytes, row,
                       &offset))
        return false;
    *address = s->base + offset;
    return true;
}

bool ds_surface_read(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                     uint32_t y, uint32_t slice, uint32_t *value)
{
    uint64_t a;
    if (!ds_surface_address(s, x, y, slice, &a))
        return false;
    uint8_t b[4] = { 0, 0, 0, 0 };
    struct gt_error err;
    if (gpu_address_space_read(as, a, b, s->element_bytes, &err) != 0)
        return false;
    *value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return true;
}

bool ds_surface_write(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t slice, uint32_t value)
{
    uint64_t a;
    if (!ds_surface_address(s, x, y, slice, &a))
        return false;
    uint8_t b[4] = { (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                     (uint8_t)(value >> 24) };
    struct gt_error err;
    return gpu_address_space_write(as, a, b, s->element_bytes, &err) == 0;
}
