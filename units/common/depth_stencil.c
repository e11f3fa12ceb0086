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

bool ds_ims_position(uint32_t samples, uint32_t x, uint32_t y, uint32_t sample, uint32_t *px,
                     uint32_t *py)
{
    /* Mesa blorp's encode_msaa(n, IMS, X, Y, S) (header comment above) */
    switch (samples) {
    case 0:
    case 1:
        *px = x;
        *py = y;
        return sample == 0;
    case 2:
        *px = (x & ~1u) << 1 | (sample & 1u) << 1 | (x & 1u);
        *py = y;
        return sample < 2;
    case 4:
        *px = (x & ~1u) << 1 | (sample & 1u) << 1 | (x & 1u);
        *py = (y & ~1u) << 1 | (sample & 2u) | (y & 1u);
        return sample < 4;
    case 8:
        *px = (x & ~1u) << 2 | (sample & 4u) | (sample & 1u) << 1 | (x & 1u);
        *py = (y & ~1u) << 1 | (sample & 2u) | (y & 1u);
        return sample < 8;
    case 16:
        *px = (x & ~1u) << 2 | (sample & 4u) | (sample & 1u) << 1 | (x & 1u);
        *py = (y & ~1u) << 2 | (sample & 8u) >> 1 | (sample & 2u) | (y & 1u);
        return sample < 16;
    default:
        return false;
    }
}

uint32_t ds_surface_samples(const struct ds_surface *s)
{
    return s->samples > 1 ? s->samples : 1;
}

bool ds_surface_sample_address(const struct ds_surface *s, uint32_t x, uint32_t y,
                               uint32_t sample, uint32_t slice, uint64_t *address)
{
    if (!s->valid || !s->element_bytes || !s->pitch)
        return false;
    if ((s->width && x >= s->width) || (s->height && y >= s->height) ||
        (s->slices && slice >= s->slices))
        return false;
    /* the logical pixel's sample in the interleaved (physical) surface; the
     * pitch and QPitch are the physical surface's (Mesa isl) */
    uint32_t px, py;
    if (x >= (1u << 28) || y >= (1u << 28) || !ds_ims_position(s->samples, x, y, sample, &px, &py))
        return false;
    uint64_t offset;
    uint64_t row = (uint64_t)py + (uint64_t)slice * s->qpitch_rows;
    uint32_t stride = s->element_stride ? s->element_stride : s->element_bytes;
    if (!tiling_offset(s->tiling, s->element_bytes, s->pitch, (uint64_t)px * stride, row, &offset))
        return false;
    *address = s->base + offset;
    return true;
}

bool ds_surface_address(const struct ds_surface *s, uint32_t x, uint32_t y, uint32_t slice,
                        uint64_t *address)
{
    return ds_surface_sample_address(s, x, y, 0, slice, address);
}

bool ds_surface_read_sample(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                            uint32_t y, uint32_t sample, uint32_t slice, uint32_t *value)
{
    uint64_t a;
    if (!ds_surface_sample_address(s, x, y, sample, slice, &a))
        return false;
    uint8_t b[4] = { 0, 0, 0, 0 };
    struct gt_error err;
    if (gpu_address_space_read(as, a, b, s->element_bytes, &err) != 0)
        return false;
    *value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return true;
}

bool ds_surface_write_sample(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                             uint32_t y, uint32_t sample, uint32_t slice, uint32_t value)
{
    uint64_t a;
    if (!ds_surface_sample_address(s, x, y, sample, slice, &a))
        return false;
    uint8_t b[4] = { (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                     (uint8_t)(value >> 24) };
    struct gt_error err;
    return gpu_address_space_write(as, a, b, s->element_bytes, &err) == 0;
}

bool ds_surface_read(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                     uint32_t y, uint32_t slice, uint32_t *value)
{
    return ds_surface_read_sample(s, as, x, y, 0, slice, value);
}

bool ds_surface_write(const struct ds_surface *s, struct gpu_address_space *as, uint32_t x,
                      uint32_t y, uint32_t slice, uint32_t value)
{
    return ds_surface_write_sample(s, as, x, y, 0, slice, value);
}

/* ---- hierarchical depth (HiZ); the record is depth_stencil.h's ------------------------- */

uint32_t ds_depth_value(uint32_t format, uint32_t stored)
{
    switch (format) {
    case DS_D16_UNORM: return stored & 0xffffu;
    case DS_D24_UNORM_X8_UINT: return stored & 0xffffffu;
    default: return stored;
    }
}

bool ds_depth_less(uint32_t format, uint32_t a, uint32_t b)
{
    if (format == DS_D32_FLOAT)
        return ds_depth_decode(DS_D32_FLOAT, a) < ds_depth_decode(DS_D32_FLOAT, b);
    return ds_depth_value(format, a) < ds_depth_value(format, b);
}

/* The addresses of the block's two 8-byte halves (rows 2 by and 2 by + 1). */
static bool hiz_block_address(const struct hiz_surface *h, uint32_t bx, uint32_t by,
                              uint32_t slice, uint64_t address[2])
{
    if (!h->valid || !h->pitch)
        return false;
    if ((h->blocks_x && bx >= h->blocks_x) || (h->blocks_y && by >= h->blocks_y))
        return false;
    uint64_t x_bytes = (uint64_t)bx * (HIZ_BLOCK_BYTES / 2);
    if (x_bytes + HIZ_BLOCK_BYTES / 2 > h->pitch)
        return false;
    uint64_t row = 2 * ((uint64_t)by + (uint64_t)slice * h->slice_rows);
    for (uint32_t i = 0; i < 2; i++) {
        uint64_t offset;
        if (!tiling_offset(TILING_Y, HIZ_BLOCK_BYTES / 2, h->pitch, x_bytes, row + i, &offset))
            return false;
        address[i] = h->base + offset;
    }
    return true;
}

bool hiz_block_line(const struct hiz_surface *h, uint32_t bx, uint32_t by, uint32_t slice,
                    uint64_t *line_address)
{
    uint64_t a[2];
    if (!hiz_block_address(h, bx, by, slice, a))
        return false;
    *line_address = a[0] & ~(uint64_t)63;
    return true;
}

bool hiz_block_read(const struct hiz_surface *h, struct gpu_address_space *as, uint32_t bx,
                    uint32_t by, uint32_t slice, struct hiz_block *b, bool *bad)
{
    uint64_t a[2];
    if (bad)
        *bad = false;
    if (!hiz_block_address(h, bx, by, slice, a))
        return false;
    uint32_t d[4];
    struct gt_error err;
    if (gpu_address_space_read(as, a[0], d, 8, &err) != 0 ||
        gpu_address_space_read(as, a[1], d + 2, 8, &err) != 0)
        return false;
    b->state = d[0];
    b->min = d[1];
    b->max = d[2];
    if (b->state > HIZ_CLEARED) {
        if (bad)
            *bad = true;
        b->state = HIZ_AMBIGUOUS;
    }
    if (b->state == HIZ_AMBIGUOUS)
        b->min = b->max = 0;
    return true;
}

bool hiz_block_write(const struct hiz_surface *h, struct gpu_address_space *as, uint32_t bx,
                     uint32_t by, uint32_t slice, const struct hiz_block *b)
{
    uint64_t a[2];
    if (!hiz_block_address(h, bx, by, slice, a))
        return false;
    uint32_t d[4] = { b->state, b->state == HIZ_AMBIGUOUS ? 0 : b->min,
                      b->state == HIZ_AMBIGUOUS ? 0 : b->max, 0 };
    struct gt_error err;
    return gpu_address_space_write(as, a[0], d, 8, &err) == 0 &&
           gpu_address_space_write(as, a[1], d + 2, 8, &err) == 0;
}

bool hiz_rejects(uint32_t function, uint32_t format, const struct hiz_block *b,
                 uint32_t source_min, uint32_t source_max)
{
    if (b->state != HIZ_RANGE && b->state != HIZ_CLEARED)
        return false;
    if (format == DS_D32_FLOAT) {
        float s0 = ds_depth_decode(format, source_min), s1 = ds_depth_decode(format, source_max);
        float d0 = ds_depth_decode(format, b->min), d1 = ds_depth_decode(format, b->max);
        if (isnan(s0) || isnan(s1) || isnan(d0) || isnan(d1))
            return false;
    }
    uint32_t lo = b->min, hi = b->max;
    /* every pixel fails when no (source, destination) pair of the ranges passes */
    switch (function) {
    case DS_COMPARE_NEVER: return true;
    case DS_COMPARE_ALWAYS: return false;
    case DS_COMPARE_LESS: return !ds_depth_less(format, source_min, hi);       /* s >= d */
    case DS_COMPARE_LEQUAL: return ds_depth_less(format, hi, source_min);      /* s > d */
    case DS_COMPARE_GREATER: return !ds_depth_less(format, lo, source_max);    /* s <= d */
    case DS_COMPARE_GEQUAL: return ds_depth_less(format, source_max, lo);      /* s < d */
    case DS_COMPARE_EQUAL:
        return ds_depth_less(format, source_max, lo) || ds_depth_less(format, hi, source_min);
    case DS_COMPARE_NOTEQUAL:
        /* every pair equal: one value on both sides */
        return !ds_depth_less(format, source_min, source_max) &&
               !ds_depth_less(format, source_max, source_min) &&
               !ds_depth_less(format, lo, hi) && !ds_depth_less(format, hi, lo) &&
               !ds_depth_less(format, source_min, lo) && !ds_depth_less(format, lo, source_min);
    default: return false;
    }
}

void hiz_block_note_write(struct hiz_block *b, uint32_t format, uint32_t stored)
{
    uint32_t v = ds_depth_value(format, stored);
    if (b->state == HIZ_AMBIGUOUS)
        return;
    if (format == DS_D32_FLOAT && isnan(ds_depth_decode(format, v))) {
        b->state = HIZ_AMBIGUOUS;
        b->min = b->max = 0;
        return;
    }
    b->state = HIZ_RANGE;
    if (ds_depth_less(format, v, b->min))
        b->min = v;
    if (ds_depth_less(format, b->max, v))
        b->max = v;
}

uint32_t hiz_fill_depth(const struct ds_surface *depth, uint32_t format,
                        struct gpu_address_space *as, uint32_t bx, uint32_t by, uint32_t slice,
                        uint32_t value)
{
    uint32_t faults = 0;
    for (uint32_t j = 0; j < HIZ_BLOCK_HEIGHT; j++)
        for (uint32_t i = 0; i < HIZ_BLOCK_WIDTH; i++) {
            uint32_t x = bx * HIZ_BLOCK_WIDTH + i, y = by * HIZ_BLOCK_HEIGHT + j;
            if ((depth->width && x >= depth->width) || (depth->height && y >= depth->height))
                continue;
            for (uint32_t smp = 0; smp < ds_surface_samples(depth); smp++) {
                uint32_t v = value;
                if (format == DS_D24_UNORM_X8_UINT) {
                    uint32_t old = 0;
                    if (!ds_surface_read_sample(depth, as, x, y, smp, slice, &old)) {
                        faults++;
                        continue;
                    }
                    v = (old & 0xff000000u) | (value & 0xffffffu);
                }
                if (!ds_surface_write_sample(depth, as, x, y, smp, slice, v))
                    faults++;
            }
        }
    return faults;
}

struct hiz_block hiz_rebuild(const struct ds_surface *depth, uint32_t format,
                             struct gpu_address_space *as, uint32_t bx, uint32_t by,
                             uint32_t slice)
{
    struct hiz_block b = { HIZ_AMBIGUOUS, 0, 0 };
    bool any = false;
    for (uint32_t j = 0; j < HIZ_BLOCK_HEIGHT; j++)
        for (uint32_t i = 0; i < HIZ_BLOCK_WIDTH; i++) {
            uint32_t x = bx * HIZ_BLOCK_WIDTH + i, y = by * HIZ_BLOCK_HEIGHT + j;
            if ((depth->width && x >= depth->width) || (depth->height && y >= depth->height))
                continue;
            for (uint32_t smp = 0; smp < ds_surface_samples(depth); smp++) {
                uint32_t stored;
                if (!ds_surface_read_sample(depth, as, x, y, smp, slice, &stored))
                    return (struct hiz_block){ HIZ_AMBIGUOUS, 0, 0 };
                uint32_t v = ds_depth_value(format, stored);
                if (format == DS_D32_FLOAT && isnan(ds_depth_decode(format, v)))
                    return (struct hiz_block){ HIZ_AMBIGUOUS, 0, 0 };
                if (!any) {
                    b = (struct hiz_block){ HIZ_RANGE, v, v };
                    any = true;
                } else {
                    hiz_block_note_write(&b, format, v);
                }
            }
        }
    return b;
}

struct hiz_block hiz_merge(uint32_t format, const struct hiz_block *a, const struct hiz_block *b)
{
    if (a->state == HIZ_AMBIGUOUS || b->state == HIZ_AMBIGUOUS)
        return (struct hiz_block){ HIZ_AMBIGUOUS, 0, 0 };
    if (a->state == HIZ_CLEARED && b->state == HIZ_CLEARED)
        return *b;                  /* the same clear (only WM clears) */
    struct hiz_block m = *a;
    m.state = HIZ_RANGE;
    hiz_block_note_write(&m, format, b->min);
    hiz_block_note_write(&m, format, b->max);
    return m;
}

void ds_state_fold(const struct spec_3DSTATE_WM_DEPTH_STENCIL *v, const struct ds_buffers *b,
                   struct ds_state *o)
{
    memset(o, 0, sizeof *o);
    o->stencil_test = b->stencil_valid && v->StencilTestEnable;
    o->stencil_write = b->stencil_valid && b->stencil_write && o->stencil_test &&
                       v->StencilBufferWriteEnable;
    o->depth_test = b->depth_surface && v->DepthTestEnable;
    o->depth_write = b->depth_surface && b->depth_write && v->DepthBufferWriteEnable;
    o->depth_function = v->DepthTestFunction;
    o->double_sided = v->DoubleSidedStencilEnable;
    o->front = (struct ds_face){ v->StencilTestFunction, v->StencilFailOp,
                                 v->StencilPassDepthFailOp, v->StencilPassDepthPassOp,
                                 (uint8_t)v->StencilTestMask, (uint8_t)v->StencilWriteMask,
                                 (uint8_t)v->StencilReferenceValue };
    o->back = (struct ds_face){ v->BackfaceStencilTestFunction, v->BackfaceStencilFailOp,
                                v->BackfaceStencilPassDepthFailOp, v->BackfaceStencilPassDepthPassOp,
                                (uint8_t)v->BackfaceStencilTestMask,
                                (uint8_t)v->BackfaceStencilWriteMask,
                                (uint8_t)v->BackfaceStencilReferenceValue };
    o->min_depth = b->cc_valid ? b->cc_min : 1.0f;
    o->max_depth = b->cc_valid ? b->cc_max : 0.0f;
}
