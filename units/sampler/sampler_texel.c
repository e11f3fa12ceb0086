/* units/sampler/sampler_texel.c - what a sampler message computes: texel fetch
 * through the surfaces and formats libraries, ld / ld_lz, resinfo, the
 * sample family (sample, _b, _l, _d, _lz, their _c forms, sample_min/_max) with
 * the seed's LOD pipeline, address modes, shadow compare and filters, the gather4
 * family; the reply registers in the seed's writeback layout.
 *
 * Seed 003 (notes/003-skl-sharedfn-eu.md §3):
 *  - LOD: L3090-3094 (rho from the base level's texel-space derivatives), the
 *    bias/clamp pseudocode L3132-3198 (Bias S4.8, Min/Max LOD U4.8, Base, MIPCnt,
 *    SurfMinLod, ResMinLod; PreClamp; Mag when LOD - Base <= 0; MipFilter NONE /
 *    NEAREST (floor(LOD + 0.5)) / LINEAR (TriBeta = frac, LOD0, LOD0 + 1); "Lod +=
 *    SurfMinLod"), Out_of_Bounds (L3200: zeros, alpha 1 for formats without it);
 *    implicit derivatives from the subspan's upper-left, upper-right and
 *    lower-left pixels (L3900-3910: "the sampling engine assumes that the
 *    parameters for the upper left, upper right, and lower left pixels in the
 *    subspan are valid regardless of the execution mask"), one LOD a subspan;
 *  - filters: NEAREST (the texel containing the coordinate), LINEAR (the 2, 4 or 8
 *    texels around it weighted by distance, L3212-3230); ANISOTROPIC as the
 *    seed's subpixel approximation (L3234-3240, struct aniso below; for the
 *    magnification or minification filter the LOD selects; LINEAR on non-2D
 *    surfaces); MONO is not modelled (zeros, counted);
 *  - address modes (L3286-3356): WRAP, MIRROR, CLAMP, CLAMP_BORDER (the border
 *    colour), HALF_BORDER (halfway between the edge texel and the border colour),
 *    MIRROR_ONCE (mirror about 0, then clamp), CUBE (texels off a face read from
 *    the adjacent face, cube_neighbour); applied to the integer texel indices of
 *    each axis;
 *  - parameter meaning by surface type (L4536-4565): u, v, r, ai; array indices
 *    unnormalized (rounded to nearest, clamped); ld parameters unsigned
 *    integers, "Input of any value outside of the range returns zero" (L4558);
 *  - resinfo (L4304-4323); channel mapping of the format (L3577-3760, through
 *    format_unpack) and the surface's Shader Channel Selects;
 *  - writeback (L4654-4810): SIMD8 one register a channel, SIMD16 two; 16-bit
 *    returns pack two lanes a dword; disabled channels squeezed out.
 * Where the seed is silent (model choices, said again in sampler.h):
 *  - texel space: t = u * size (non-normalized: t = u), NEAREST takes floor(t),
 *    LINEAR the texels floor(t - 0.5) and +1 with weight frac(t - 0.5) (the texel
 *    centre at +0.5, as GL and D3D define it; the seed's bilinear figure is lost);
 *  - the bilinear weight's precision is not given by the seed: the fraction is
 *    rounded to `weight_bits` bits (default 8, the subtexel precision the D3D11
 *    functional specification requires; 0 = exact float);
 *  - integer formats are not filtered (nearest texel);
 *  - the SIMD8/16 parameter order is not in the seed (notes §3.5 [GAP]): Mesa's
 *    Gen7+ sampler payload order [EXT] (lod/bias/ref first as in the seed's
 *    SIMD8D table L10204-10224; sample_d interleaves each coordinate with its two
 *    gradients; Gen9 ld is u, v, lod, r and Gen7/8 ld u, lod, v, r).
 */
#include "units/sampler/sampler_internal.h"

#include <math.h>
#include <string.h>

#include "units/common/memreq.h"

enum { TC_WRAP, TC_MIRROR, TC_CLAMP, TC_CUBE, TC_CLAMP_BORDER, TC_MIRROR_ONCE, TC_HALF_BORDER };
enum { FILTER_NEAREST = 0, FILTER_LINEAR = 1, FILTER_ANISOTROPIC = 2, FILTER_MONO = 6 };
enum { MIP_NONE = 0, MIP_NEAREST = 1, MIP_LINEAR = 3 };
enum { SCS_ZERO = 0, SCS_ONE = 1, SCS_RED = 4 };
enum { AX_TEXEL, AX_BORDER, AX_HALF, AX_CUBE };

/* ---- texel fetch ------------------------------------------------------------------ */

static void value_zero(const struct smp_exec *x, smp_value *v)
{
    memset(v, 0, sizeof *v);
    v->kind = x->surf.fmt ? (enum format_value_kind)x->surf.fmt->value_kind : FORMAT_VALUE_FLOAT;
}

/* Whether the surface's format stores alpha (the formats table lists the
 * decoded channels of the compressed formats too). */
static bool format_has_alpha(const struct format_desc *f)
{
    for (unsigned k = 0; f && k < f->field_count; k++)
        if (f->fields[k].channel == FORMAT_CH_A || f->fields[k].channel == FORMAT_CH_I)
            return true;
    return false;
}

/* Zeros, alpha 1 when the format has no alpha (L3200). */
static void value_out_of_bounds(const struct smp_exec *x, smp_value *v)
{
    value_zero(x, v);
    if (!format_has_alpha(x->surf.fmt)) {
        if (v->kind == FORMAT_VALUE_FLOAT)
            v->f[3] = 1.0f;
        else
            v->u[3] = 1;
    }
}

/* n bytes at GPU virtual address addr through the thread's address space; the
 * line goes to the message's timing. False (counted) on a fault. */
static bool read_bytes(struct smp_exec *x, uint64_t addr, void *buf, unsigned n)
{
    struct smp *s = x->s;
    uint64_t vpage = addr & ~(uint64_t)(GPU_PAGE_SIZE - 1), phys;
    if (x->tlb_valid && x->tlb_vpage == vpage) {
        phys = x->tlb_ppage | (addr & (GPU_PAGE_SIZE - 1));
    } else if (gpu_address_space_translate(&x->as, addr, &phys) < 0) {
        s->page_faults++;
        smp_warn_once(s, x->u, 8, "sampler texel fetch faulted (address low 0x%x, high 0x%x)",
                      (uint32_t)addr, (uint32_t)(addr >> 32));
        return false;
    } else {
        x->tlb_valid = true;
        x->tlb_vpage = vpage;
        x->tlb_ppage = phys & ~(uint64_t)(GPU_PAGE_SIZE - 1);
    }
    struct gt_error err;
    int rc = (addr & (GPU_PAGE_SIZE - 1)) + n <= GPU_PAGE_SIZE
                 ? gpu_memory_read(x->as.memory, phys, buf, n, &err)
                 : gpu_address_space_read(&x->as, addr, buf, n, &err);
    if (rc < 0) {
        s->page_faults++;
        return false;
    }
    smp_add_line(x, phys);
    return true;
}

/* Texel (tx, ty) of physical slice `slice` (array slice, cube face, 3D z) of
 * physical level lod. Outside the surface (or faulting): zeros, counted. */
static void fetch(struct smp_exec *x, uint32_t tx, uint32_t ty, uint32_t slice, uint32_t lod,
                  smp_value *out)
{
    struct smp *s = x->s;
    const struct smp_surface *sf = &x->surf;
    s->texels++;
    value_zero(x, out);
    uint64_t addr;
    if (surface_address(&sf->sd, tx, ty, slice, lod, 0, &addr) != SURFACE_OK ||
        sf->sd.element_bytes > 16) {
        s->out_of_bounds++;
        return;
    }
    uint8_t bytes[16] = { 0 };
    if (sf->ccs) {
        /* the texel's cache-line pair: CLEAR reads the state's clear colour
         * (L16841, L16884; encoding in units/common/surface.h) */
        uint64_t ccs_address;
        unsigned shift;
        uint8_t ccs = 0;
        if (surface_ccs_address(&sf->sd, tx, ty, slice, lod, &ccs_address, &shift) == SURFACE_OK &&
            read_bytes(x, ccs_address, &ccs, 1)) {
            s->ccs_reads++;
            if (((ccs >> shift) & 3u) == SURFACE_CCS_CLEAR) {
                s->ccs_clear_texels++;
                *out = sf->clear;
                return;
            }
        }
    }
    if (!read_bytes(x, addr, bytes, sf->sd.element_bytes))
        return;
    if (sf->compressed) {
        struct format_value texel;
        if (format_decode_block_texel(sf->sd.format, bytes, tx, ty, &texel) == FORMAT_OK)
            *out = texel;
    } else {
        format_unpack(sf->sd.format, bytes, out);
    }
}

/* ---- the surface's geometry ----------------------------------------------------------- */

static uint32_t lod_width(const struct smp_exec *x, uint32_t lod)
{
    return surface_lod_width(&x->surf.sd, lod);
}

static uint32_t lod_height(const struct smp_exec *x, uint32_t lod)
{
    return x->surf.sd.type == SURFACE_1D ? 1 : surface_lod_height(&x->surf.sd, lod);
}

static uint32_t lod_depth(const struct smp_exec *x, uint32_t lod)
{
    return x->surf.sd.type == SURFACE_3D ? surface_lod_depth(&x->surf.sd, lod) : 1;
}

/* Array elements of the view (cubes: whole cubes). */
static uint32_t array_count(const struct smp_exec *x)
{
    const struct surface *sd = &x->surf.sd;
    uint32_t n = sd->type == SURFACE_CUBE ? sd->array_length / 6 : sd->array_length;
    return n ? n : 1;
}

/* The physical slice of array element `layer` (cube: and face). */
static uint32_t physical_slice(const struct smp_exec *x, uint32_t layer, uint32_t face)
{
    const struct surface *sd = &x->surf.sd;
    if (sd->type == SURFACE_CUBE)
        return sd->min_array_element + layer * 6 + face;
    return sd->min_array_element + layer;
}

/* The array index of an unnormalized float parameter: nearest, clamped. */
static uint32_t array_layer(const struct smp_exec *x, float a)
{
    uint32_t n = array_count(x);
    if (!(a >= 0.0f))
        return 0;
    float r = floorf(a + 0.5f);
    return r >= (float)(n - 1) ? n - 1 : (uint32_t)r;
}

/* ---- output ---------------------------------------------------------------------------- */

static void wb_write32(struct smp_exec *x, unsigned reg, unsigned dw, uint32_t v)
{
    if (x->wb && reg < x->rlen)
        memcpy(x->wb + (size_t)reg * EU_MSG_REG_BYTES + dw * 4, &v, 4);
}

static void wb_write16(struct smp_exec *x, unsigned reg, unsigned half, uint16_t v)
{
    if (x->wb && reg < x->rlen)
        memcpy(x->wb + (size_t)reg * EU_MSG_REG_BYTES + half * 2, &v, 2);
}

/* Channel k of a value as the reply's 32-bit element: float bits, S31 or U32. */
static uint32_t channel_bits(const smp_value *v, unsigned k)
{
    uint32_t b;
    if (v->kind == FORMAT_VALUE_FLOAT)
        memcpy(&b, &v->f[k], 4);
    else
        b = v->u[k];
    return b;
}

/* The 16-bit return (L4654-4810: half float, S15, U16). */
static uint16_t channel_bits16(const smp_value *v, unsigned k)
{
    switch (v->kind) {
    case FORMAT_VALUE_FLOAT:
        return format_float_to_half(v->f[k]);
    case FORMAT_VALUE_SINT:
        return (uint16_t)(int16_t)(v->i[k] > 32767 ? 32767 : v->i[k] < -32768 ? -32768 : v->i[k]);
    default:
        return (uint16_t)(v->u[k] > 65535 ? 65535 : v->u[k]);
    }
}

/* Lane `lane`'s four channels into the reply: the enabled channels in R, G, B, A
 * order, each in the next register (SIMD8, 16-bit) or pair (SIMD16 32-bit). */
static void write_lane(struct smp_exec *x, unsigned lane, const smp_value *v)
{
    const struct sampler_request *r = &x->req;
    if (r->simd == SAMPLER_SIMD4X2) {
        /* one register: sample 0's R, G, B, A in dwords 0-3, sample 1's in 4-7;
         * the write channel mask leaves a channel unwritten (L4654-4810: zero
         * here, the EU's partial register write is not modelled) */
        for (unsigned k = 0; k < 4; k++)
            if (r->channel_mask & (1u << k))
                wb_write32(x, 0, lane * 4 + k, channel_bits(v, k));
        return;
    }
    unsigned c = 0;
    for (unsigned k = 0; k < 4; k++) {
        if (!(r->channel_mask & (1u << k)))
            continue;
        if (r->half_precision)
            wb_write16(x, c, lane, channel_bits16(v, k));
        else
            wb_write32(x, c * (r->lanes / 8) + lane / 8, lane % 8, channel_bits(v, k));
        c++;
    }
}

/* The surface's Shader Channel Selects applied to a value. */
static void apply_selects(const struct smp_exec *x, smp_value *v)
{
    smp_value in = *v;
    for (unsigned k = 0; k < 4; k++) {
        unsigned sel = x->surf.select[k];
        if (sel >= SCS_RED && sel <= SCS_RED + 3)
            v->u[k] = in.u[sel - SCS_RED];
        else if (sel == SCS_ONE && v->kind == FORMAT_VALUE_FLOAT)
            v->f[k] = 1.0f;
        else
            v->u[k] = sel == SCS_ONE ? 1u : 0u;
    }
}

/* ---- ld and resinfo ------------------------------------------------------------------- */

/* ld (u, lod, v, r on Gen7/8; u, v, lod, r on Gen9) and ld_lz (u, v, r). */
static void do_ld(struct smp_exec *x)
{
    struct smp *s = x->s;
    const struct sampler_request *r = &x->req;
    const struct surface *sd = &x->surf.sd;
    bool lz = r->message == SAMPLER_LD_LZ;
    unsigned pu = 0, pv = 1, pl = 2, pr = 3;
    if (lz)
        pr = 2;
    else if (r->simd == SAMPLER_SIMD4X2 || x->gen < 7)
        pr = 2, pl = 3;             /* SIMD4x2: u v r lod (L10152-10255); Gen4 alike */
    else if (x->gen < 9)
        pl = 1, pv = 2;
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v;
        value_zero(x, &v);
        if (!x->surf.valid) {
            write_lane(x, lane, &v);
            continue;
        }
        int64_t u = (int64_t)smp_param_i(r, pu, lane) + r->offset_u;
        int64_t vv = (int64_t)smp_param_i(r, pv, lane) + r->offset_v;
        int64_t rr = (int64_t)smp_param_i(r, pr, lane) + r->offset_r;
        int64_t lod = lz ? 0 : smp_param_i(r, pl, lane);
        bool in = lod >= 0 && lod <= sd->mip_count_lod;
        uint32_t plod = (uint32_t)(in ? lod : 0) + sd->min_lod;
        uint32_t slice = 0, y = 0;
        switch (sd->type) {
        case SURFACE_1D:        /* v: array index */
            in = in && vv >= 0 && vv < array_count(x);
            slice = in ? physical_slice(x, (uint32_t)vv, 0) : 0;
            break;
        case SURFACE_3D:
            in = in && vv >= 0 && vv < lod_height(x, plod) && rr >= 0 && rr < lod_depth(x, plod);
            y = (uint32_t)vv, slice = (uint32_t)rr;
            break;
        case SURFACE_BUFFER:
            in = in && u >= 0 && (uint64_t)u < sd->buffer_entries;
            plod = 0;
            break;
        case SURFACE_2D:
            in = in && vv >= 0 && vv < lod_height(x, plod) && rr >= 0 && rr < array_count(x);
            y = (uint32_t)vv, slice = in ? physical_slice(x, (uint32_t)rr, 0) : 0;
            break;
        default:                /* ld on CUBE and STRBUF: not in the seed's list (L4160ff) */
            in = false;
            break;
        }
        if (sd->type != SURFACE_BUFFER)
            in = in && u >= 0 && u < lod_width(x, plod);
        if (!in) {
            s->out_of_bounds++;     /* "Input of any value outside of the range returns zero" */
            write_lane(x, lane, &v);
            continue;
        }
        x->s->footprints++;
        fetch(x, (uint32_t)u, y, slice, plod, &v);
        apply_selects(x, &v);
        write_lane(x, lane, &v);
    }
}

/* ---- multisampled surfaces: ld_mcs, ld2dms, ld2dms_w, ld2dss ------------------------- */

/* The MCS (seed 003 L3434-3436, L4169-4197): per pixel, which sample slice
 * holds each sample, log2(samples) bits a sample, in the element ld_mcs reads
 * from the auxiliary surface (R8_UINT 2x/4x, R32_UINT 8x, R32G32_UINT 16x,
 * L4195); the all-ones value is the cleared pixel, whose samples read the
 * state's clear colour ("the sampling engine ... resolves clear values",
 * L16884). Layout and encoding: units/common/surface.h (the MCS the render
 * cache writes, units/om). */

/* u, v, r of a multisampled load (parameters pu, pu + 1, pu + 2; lod at pu + 3
 * when sent, multisampled surfaces have one level): the texel and physical
 * array slice; false (out of range) gives zeros (L4558). */
static bool msaa_coords(struct smp_exec *x, unsigned pu, unsigned lane, uint32_t *u, uint32_t *v,
                        uint32_t *slice)
{
    const struct sampler_request *r = &x->req;
    const struct surface *sd = &x->surf.sd;
    int64_t cu = smp_param_i(r, pu, lane), cv = smp_param_i(r, pu + 1, lane);
    int64_t cr = smp_param_i(r, pu + 2, lane), lod = smp_param_i(r, pu + 3, lane);
    if (sd->type != SURFACE_2D || lod != 0 || cu < 0 || cu >= lod_width(x, sd->min_lod) ||
        cv < 0 || cv >= lod_height(x, sd->min_lod) || cr < 0 || cr >= array_count(x))
        return false;
    *u = (uint32_t)cu;
    *v = (uint32_t)cv;
    *slice = physical_slice(x, (uint32_t)cr, 0);
    return true;
}

/* ld_mcs (u, v, r, lod): the pixel's MCS value in R (16x: low half in R, high
 * in G), zeros without an MCS (L4196). */
static void do_ld_mcs(struct smp_exec *x)
{
    const struct sampler_request *r = &x->req;
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v;
        memset(&v, 0, sizeof v);
        v.kind = FORMAT_VALUE_UINT;
        uint32_t u, vv, slice;
        if (x->surf.valid && x->surf.has_mcs && msaa_coords(x, 0, lane, &u, &vv, &slice)) {
            /* the MCS element (surface.h); an aux layout the model does not
             * lay out reads zeros like a surface without one */
            uint64_t m = 0, address;
            uint32_t bytes = surface_mcs_element_bytes(x->surf.sd.samples);
            if (surface_mcs_address(&x->surf.sd, u, vv, slice, &address) == SURFACE_OK &&
                read_bytes(x, address, &m, bytes))
                x->s->mcs_reads++;
            else
                m = 0;
            v.u[0] = (uint32_t)m;
            v.u[1] = (uint32_t)(m >> 32);
        } else if (x->surf.valid && x->surf.has_mcs) {
            x->s->out_of_bounds++;
        }
        write_lane(x, lane, &v);
    }
}

/* ld2dms (si, mcs, u, v, r, lod), ld2dms_w (si, mcsl, mcsh, u, v, r, lod), ld2dss
 * (ssi, u, v, r, lod): Mesa's Gen7+ SIMD8/16 payload order [EXT], what the
 * capture's blorp kernels send (the seed's table L10241-10243 is SIMD4x2's).
 * ld2dms takes sample si from the slice the MCS names (no MCS: slice si); a
 * cleared MCS value returns the surface's clear colour; ld2dss reads slice ssi. */
static void do_ld_multisample(struct smp_exec *x)
{
    struct smp *s = x->s;
    const struct sampler_request *r = &x->req;
    const struct surface *sd = &x->surf.sd;
    unsigned pu = r->message == SAMPLER_LD2DMS_W ? 3 : r->message == SAMPLER_LD2DMS ? 2 : 1;
    unsigned psi = 0, pmcs = 1;
    if (r->simd == SAMPLER_SIMD4X2)     /* u v r lod si mcs (mcsl mcsh) (L10241-10243) */
        pu = 0, psi = 4, pmcs = 5;
    uint32_t samples = sd->samples ? sd->samples : 1;
    unsigned bits = surface_mcs_bits_per_sample(samples);
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v;
        value_zero(x, &v);
        uint32_t u, vv, slice;
        if (!x->surf.valid) {
            write_lane(x, lane, &v);
            continue;
        }
        if (!msaa_coords(x, pu, lane, &u, &vv, &slice)) {
            s->out_of_bounds++;
            write_lane(x, lane, &v);
            continue;
        }
        uint32_t si = (uint32_t)smp_param_i(r, psi, lane);
        uint32_t sample_slice = si;
        bool cleared = false;
        if (r->message != SAMPLER_LD2DSS && x->surf.has_mcs) {
            uint64_t mcs = (uint32_t)smp_param_i(r, pmcs, lane);
            if (r->message == SAMPLER_LD2DMS_W)
                mcs |= (uint64_t)(uint32_t)smp_param_i(r, pmcs + 1, lane) << 32;
            cleared = surface_mcs_is_clear(samples, mcs);
            sample_slice = si < samples ? (uint32_t)(mcs >> (bits * si)) & ((1u << bits) - 1) : si;
        }
        if (cleared) {
            s->mcs_clear_samples++;
            v = x->surf.clear;
        } else if (sample_slice >= samples) {
            s->out_of_bounds++;
        } else {
            s->texels++;
            s->footprints++;
            uint64_t addr;
            uint8_t bytes[16] = { 0 };
            if (surface_address(sd, u, vv, slice, sd->min_lod, sample_slice, &addr) != SURFACE_OK ||
                sd->element_bytes > 16 || x->surf.compressed)
                s->out_of_bounds++;
            else if (read_bytes(x, addr, bytes, sd->element_bytes))
                format_unpack(sd->format, bytes, &v);
        }
        apply_selects(x, &v);
        write_lane(x, lane, &v);
    }
}

/* resinfo (L4304-4323): sizes at LOD lod (from Surface Min LOD), array length,
 * levels; U32 only. The table's "(Width+1)>>LOD" is taken as never below 1 (GL's
 * textureSize); A is the number of levels (MIP Count + 1, what Mesa reads for
 * textureQueryLevels [EXT]). LOD beyond the MIP Count: R, G, B 0. */
static void do_resinfo(struct smp_exec *x)
{
    const struct sampler_request *r = &x->req;
    const struct surface *sd = &x->surf.sd;
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v = { .kind = FORMAT_VALUE_UINT };
        uint32_t lod = (uint32_t)smp_param_i(r, 0, lane);
        if (x->surf.sd.status == SURFACE_OK && sd->type != SURFACE_NULL && x->surf.fmt) {
            bool in = lod <= sd->mip_count_lod;
            uint32_t pl = lod + sd->min_lod;
            uint32_t layers = sd->surface_array ? array_count(x) : 0;
            switch (sd->type) {
            case SURFACE_1D:
                v.u[0] = in ? lod_width(x, pl) : 0;
                v.u[1] = in ? layers : 0;
                break;
            case SURFACE_2D:
            case SURFACE_CUBE:
                v.u[0] = in ? lod_width(x, pl) : 0;
                v.u[1] = in ? surface_lod_height(sd, pl) : 0;
                v.u[2] = in ? layers : 0;
                break;
            case SURFACE_3D:
                v.u[0] = in ? lod_width(x, pl) : 0;
                v.u[1] = in ? surface_lod_height(sd, pl) : 0;
                v.u[2] = in ? lod_depth(x, pl) : 0;
                break;
            case SURFACE_BUFFER:
            case SURFACE_STRBUF:
                v.u[0] = (uint32_t)sd->buffer_entries;   /* 2^32 gives 0, as the seed says */
                break;
            default:
                break;
            }
            if (sd->type != SURFACE_BUFFER && sd->type != SURFACE_STRBUF)
                v.u[3] = sd->mip_count_lod + 1;
        }
        bool half = x->req.half_precision;
        x->req.half_precision = 0;      /* "Must use 32-bit return" */
        write_lane(x, lane, &v);
        x->req.half_precision = half;
    }
}

/* sampleinfo (003 L4270-4282): R the number of samples (UINT32), A the sample
 * position palette index + 1; SURFTYPE_2D or NULL (others: zeros). */
static void do_sampleinfo(struct smp_exec *x)
{
    const struct sampler_request *r = &x->req;
    const struct surface *sd = &x->surf.sd;
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v = { .kind = FORMAT_VALUE_UINT };
        if (x->surf.fmt && sd->status == SURFACE_OK && sd->type == SURFACE_2D) {
            v.u[0] = sd->samples;
            v.u[3] = sd->sample_palette_index + 1;
        }
        bool half = x->req.half_precision;
        x->req.half_precision = 0;
        write_lane(x, lane, &v);
        x->req.half_precision = half;
    }
}

/* ---- the sample family ----------------------------------------------------------------- */

/* A parameter's place in the payload per message (-1: absent). */
struct sample_layout {
    int coord[4];               /* u, v, r, ai */
    int lod;                    /* bias (sample_b) or lod (sample_l) */
    int ref;                    /* the _c messages' reference */
    int off[2];                 /* gather4_po's offu, offv */
    int grad[3][2];             /* d/dx, d/dy of u, v, r (sample_d) */
};

/* The message a variant computes like: the _c forms as their base, sample_min
 * and sample_max as sample, the gather4 forms as gather4. */
static uint32_t base_message(uint32_t m)
{
    switch (m) {
    case SAMPLER_SAMPLE_C:
    case SAMPLER_SAMPLE_MIN:
    case SAMPLER_SAMPLE_MAX:
        return SAMPLER_SAMPLE;
    case SAMPLER_SAMPLE_B_C:
        return SAMPLER_SAMPLE_B;
    case SAMPLER_SAMPLE_L_C:
        return SAMPLER_SAMPLE_L;
    case SAMPLER_SAMPLE_D_C:
        return SAMPLER_SAMPLE_D;
    case SAMPLER_SAMPLE_C_LZ:
        return SAMPLER_SAMPLE_LZ;
    case SAMPLER_GATHER4_C:
    case SAMPLER_GATHER4_PO:
    case SAMPLER_GATHER4_PO_C:
        return SAMPLER_GATHER4;
    default:
        return m;
    }
}

/* Whether a message compares texels with a reference (the _c variants). */
static bool compares(uint32_t m)
{
    return m == SAMPLER_SAMPLE_C || m == SAMPLER_SAMPLE_B_C || m == SAMPLER_SAMPLE_L_C ||
           m == SAMPLER_SAMPLE_D_C || m == SAMPLER_SAMPLE_C_LZ || m == SAMPLER_GATHER4_C ||
           m == SAMPLER_GATHER4_PO_C;
}

static bool per_pixel_offsets(uint32_t m)
{
    return m == SAMPLER_GATHER4_PO || m == SAMPLER_GATHER4_PO_C;
}

/* SIMD8/16: Mesa's Gen7+ order [EXT] (see the file comment): the reference
 * first, then the lod or bias, then the coordinates; sample_d(_c): each
 * coordinate followed by its two gradients for the surface's gradient
 * components (1D 1, 2D 2, 3D and cube 3); gather4_po(_c): u, v, offu, offv, r.
 * SIMD4x2: the seed's table (notes §3.5, L10152-10255): u v r ai, then ref,
 * lod, offu offv or the six gradients and ref; gather4_po_c is u v r ref offu
 * offv. */
static void layout_of(const struct smp_exec *x, struct sample_layout *l)
{
    memset(l, -1, sizeof *l);
    uint32_t m = x->req.message, base = base_message(m);
    bool c = compares(m), po = per_pixel_offsets(m);
    int k = 0;
    if (x->gen < 7) {
        /* Gen4 (sampler_decode.c decode_gen4): u, v, r, then lod or bias, then
         * ref; sample_d: u, v[, r], d/dx of each, d/dy of each (at least two) */
        unsigned dims = x->surf.sd.type == SURFACE_1D ? 1 : x->surf.sd.type == SURFACE_2D ? 2 : 3;
        if (base == SAMPLER_SAMPLE_D) {
            unsigned slots = dims < 2 ? 2 : dims;
            for (unsigned i = 0; i < slots; i++)
                l->coord[i] = (int)i;
            for (unsigned i = 0; i < dims; i++) {
                l->grad[i][0] = (int)(slots + i);
                l->grad[i][1] = (int)(2 * slots + i);
            }
            return;
        }
        for (unsigned i = 0; i < 3; i++)
            l->coord[i] = (int)i;
        k = 3;
        if (base == SAMPLER_SAMPLE_B || base == SAMPLER_SAMPLE_L)
            l->lod = k++;
        if (c)
            l->ref = k++;
        return;
    }
    if (x->req.simd == SAMPLER_SIMD4X2) {
        if (base == SAMPLER_SAMPLE_D) {
            for (unsigned i = 0; i < 4; i++)
                l->coord[i] = (int)i;
            for (unsigned i = 0; i < 3; i++) {
                l->grad[i][0] = 4 + 2 * (int)i;
                l->grad[i][1] = 5 + 2 * (int)i;
            }
            if (c)
                l->ref = 10;
            return;
        }
        if (po && c) {
            l->coord[0] = 0, l->coord[1] = 1, l->coord[2] = 2;
            l->ref = 3, l->off[0] = 4, l->off[1] = 5;
            return;
        }
        for (unsigned i = 0; i < 4; i++)
            l->coord[i] = (int)i;
        k = 4;
        if (c)
            l->ref = k++;
        if (base == SAMPLER_SAMPLE_L)
            l->lod = k++;
        if (po)
            l->off[0] = k, l->off[1] = k + 1;
        return;
    }
    if (c)
        l->ref = k++;
    if (base == SAMPLER_SAMPLE_B || base == SAMPLER_SAMPLE_L)
        l->lod = k++;
    if (base == SAMPLER_SAMPLE_D) {
        unsigned grads = x->surf.sd.type == SURFACE_1D ? 1 : x->surf.sd.type == SURFACE_2D ? 2 : 3;
        for (unsigned i = 0; i < 4; i++) {
            l->coord[i] = k++;
            if (i < grads) {
                l->grad[i][0] = k++;
                l->grad[i][1] = k++;
            }
        }
        return;
    }
    if (po) {
        l->coord[0] = k++, l->coord[1] = k++;
        l->off[0] = k++, l->off[1] = k++;
        l->coord[2] = k++;
        return;
    }
    for (unsigned i = 0; i < 4; i++)
        l->coord[i] = k + (int)i;
}

static float param_at(const struct smp_exec *x, int k, unsigned lane)
{
    return k < 0 ? 0.0f : smp_param_f(&x->req, (unsigned)k, lane);
}

/* A cube direction to a face (+X -X +Y -Y +Z -Z = 0..5) and s, t in [0, 1]
 * (the GL/D3D face table; the message's u, v, r are already divided by the
 * largest magnitude, L4039, which changes nothing here). */
static void cube_face(float dx, float dy, float dz, unsigned *face, float *s, float *t)
{
    float ax = fabsf(dx), ay = fabsf(dy), az = fabsf(dz), sc, tc, ma;
    if (ax >= ay && ax >= az) {
        *face = dx >= 0 ? 0 : 1, sc = dx >= 0 ? -dz : dz, tc = -dy, ma = ax;
    } else if (ay >= az) {
        *face = dy >= 0 ? 2 : 3, sc = dx, tc = dy >= 0 ? dz : -dz, ma = ay;
    } else {
        *face = dz >= 0 ? 4 : 5, sc = dz >= 0 ? dx : -dx, tc = -dy, ma = az;
    }
    if (!(ma > 0.0f))
        ma = 1.0f;
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
}

/* One lane's coordinates on the surface: normalized (or texel) u, v, w, the
 * physical slice (array element, cube face). */
struct lane_coords {
    float c[3];
    uint32_t layer, face;
};

static void lane_coords(const struct smp_exec *x, const struct sample_layout *l, unsigned lane,
                        struct lane_coords *o)
{
    float u = param_at(x, l->coord[0], lane), v = param_at(x, l->coord[1], lane);
    float r = param_at(x, l->coord[2], lane), ai = param_at(x, l->coord[3], lane);
    memset(o, 0, sizeof *o);
    switch (x->surf.sd.type) {
    case SURFACE_1D:
        o->c[0] = u, o->layer = array_layer(x, v);
        break;
    case SURFACE_3D:
        o->c[0] = u, o->c[1] = v, o->c[2] = r;
        break;
    case SURFACE_CUBE:
        cube_face(u, v, r, &o->face, &o->c[0], &o->c[1]);
        o->layer = array_layer(x, ai);
        break;
    default:
        o->c[0] = u, o->c[1] = v, o->layer = array_layer(x, r);
        break;
    }
}

/* The axes a surface type filters over. */
static unsigned filter_dims(const struct smp_exec *x)
{
    return x->surf.sd.type == SURFACE_1D ? 1 : x->surf.sd.type == SURFACE_3D ? 3 : 2;
}

/* An integer texel index under an address mode for a level of n texels: the
 * index to read and whether the border (or half border) replaces it. */
static int32_t address(int64_t i, uint32_t n, unsigned mode, uint8_t *kind)
{
    int64_t size = n;
    *kind = AX_TEXEL;
    switch (mode) {
    case TC_WRAP:
        i = ((i % size) + size) % size;
        break;
    case TC_MIRROR: {
        int64_t m = ((i % (2 * size)) + 2 * size) % (2 * size);
        i = m < size ? m : 2 * size - 1 - m;
        break;
    }
    case TC_MIRROR_ONCE:
        if (i < 0)
            i = -1 - i;
        break;
    case TC_CLAMP_BORDER:
        if (i < 0 || i >= size)
            *kind = AX_BORDER;
        break;
    case TC_HALF_BORDER:
        if (i < 0 || i >= size)
            *kind = AX_HALF;
        break;
    case TC_CUBE:               /* off the face: the adjacent face (footprint_texel) */
        if (i < 0 || i >= size)
            *kind = AX_CUBE;
        break;
    default:                    /* CLAMP */
        break;
    }
    return (int32_t)(i < 0 ? 0 : i >= size ? size - 1 : i);
}

/* floor of a texel-space coordinate, saturated (NaN and huge values stay finite). */
static int64_t floor_index(float t)
{
    if (!(t == t))
        return 0;
    if (t < -1.0e9f)
        return -1000000000;
    if (t > 1.0e9f)
        return 1000000000;
    return (int64_t)floorf(t);
}

struct axis {
    unsigned n;
    int32_t i[2];
    int32_t raw[2];             /* the index before the address mode (TC_CUBE's remap) */
    uint8_t kind[2];
    float w[2];
};

static int32_t raw_index(int64_t i)
{
    return (int32_t)(i < -1000000 ? -1000000 : i > 1000000 ? 1000000 : i);
}

static void axis_setup(const struct smp_exec *x, float c, uint32_t size, unsigned mode,
                       bool linear, int32_t offset, struct axis *a)
{
    bool normalized = !x->samp.st.NonNormalizedCoordinateEnable;
    float t = normalized ? c * (float)size : c;
    if (linear) {
        float f = t - 0.5f;
        int64_t i0 = floor_index(f);
        float frac = f - floorf(f);
        if (!(frac >= 0.0f && frac <= 1.0f))
            frac = 0.0f;
        if (x->s->weight_bits) {
            float scale = (float)(1u << x->s->weight_bits);
            frac = floorf(frac * scale + 0.5f) / scale;
        }
        a->n = 2;
        a->i[0] = address(i0 + offset, size, mode, &a->kind[0]);
        a->i[1] = address(i0 + 1 + offset, size, mode, &a->kind[1]);
        a->raw[0] = raw_index(i0 + offset);
        a->raw[1] = raw_index(i0 + 1 + offset);
        a->w[0] = 1.0f - frac;
        a->w[1] = frac;
    } else {
        a->n = 1;
        a->i[0] = address(floor_index(t) + offset, size, mode, &a->kind[0]);
        a->raw[0] = raw_index(floor_index(t) + offset);
        a->w[0] = 1.0f;
    }
}

static void border_value(const struct smp_exec *x, smp_value *v)
{
    value_zero(x, v);
    for (unsigned k = 0; k < 4; k++)
        v->u[k] = x->samp.border[k];
}

/* TEXCOORDMODE_CUBE (003 L3355-3357): "When texel sample coordinates ... extend
 * beyond the selected cube face ... the correct sample coordinates on the
 * adjoining face will be computed". Texel (i, j) off face lc->face: its centre
 * as a direction through the face table (the inverse of cube_face), projected
 * again onto the face it reaches; a corner texel (off both edges) lands on one
 * of the two neighbours ("some artifacts at cube corners may still be present"). */
static void cube_neighbour(struct smp_exec *x, const struct lane_coords *lc, int32_t i, int32_t j,
                           uint32_t lod, smp_value *t)
{
    uint32_t n = lod_width(x, lod);
    float sc = 2.0f * ((float)i + 0.5f) / (float)n - 1.0f;
    float tc = 2.0f * ((float)j + 0.5f) / (float)n - 1.0f;
    float d[3];
    switch (lc->face) {
    case 0: d[0] = 1.0f, d[1] = -tc, d[2] = -sc; break;    /* +X: sc = -rz, tc = -ry */
    case 1: d[0] = -1.0f, d[1] = -tc, d[2] = sc; break;    /* -X: sc = rz, tc = -ry */
    case 2: d[0] = sc, d[1] = 1.0f, d[2] = tc; break;      /* +Y: sc = rx, tc = rz */
    case 3: d[0] = sc, d[1] = -1.0f, d[2] = -tc; break;    /* -Y: sc = rx, tc = -rz */
    case 4: d[0] = sc, d[1] = -tc, d[2] = 1.0f; break;     /* +Z: sc = rx, tc = -ry */
    default: d[0] = -sc, d[1] = -tc, d[2] = -1.0f; break;  /* -Z: sc = -rx, tc = -ry */
    }
    unsigned face;
    float s2, t2;
    cube_face(d[0], d[1], d[2], &face, &s2, &t2);
    float fi = floorf(s2 * (float)n), fj = floorf(t2 * (float)n);
    uint32_t ni = fi < 0.0f ? 0 : fi >= (float)n ? n - 1 : (uint32_t)fi;
    uint32_t nj = fj < 0.0f ? 0 : fj >= (float)n ? n - 1 : (uint32_t)fj;
    x->s->cube_edge_texels++;
    fetch(x, ni, nj, physical_slice(x, lc->layer, face), lod, t);
}

/* Texel (a, b, c) of the axes' footprint at level lod: the texel, the border
 * colour or their average (HALF_BORDER). */
static void footprint_texel(struct smp_exec *x, const struct lane_coords *lc,
                            const struct axis ax[3], unsigned a, unsigned b, unsigned c,
                            uint32_t lod, smp_value *t)
{
    bool floats = x->surf.fmt && x->surf.fmt->value_kind == FORMAT_VALUE_FLOAT;
    uint8_t kind = AX_TEXEL;
    uint8_t ks[3] = { ax[0].kind[a], ax[1].kind[b], ax[2].kind[c] };
    for (unsigned k = 0; k < 3; k++)
        kind = ks[k] == AX_BORDER ? AX_BORDER : kind == AX_TEXEL ? ks[k] : kind;
    if (kind == AX_BORDER) {
        x->s->border_texels++;
        border_value(x, t);
        return;
    }
    if (kind == AX_CUBE) {
        cube_neighbour(x, lc, ax[0].raw[a], ax[1].raw[b], lod, t);
        return;
    }
    uint32_t z = ax[2].i[c];
    uint32_t slice = x->surf.sd.type == SURFACE_3D ? z : physical_slice(x, lc->layer, lc->face);
    fetch(x, (uint32_t)ax[0].i[a], (uint32_t)ax[1].i[b], slice, lod, t);
    if (kind == AX_HALF) {
        x->s->border_texels++;
        smp_value bc;
        border_value(x, &bc);
        for (unsigned k = 0; k < 4 && floats; k++)
            t->f[k] = 0.5f * (t->f[k] + bc.f[k]);
    }
}

/* The shadow prefilter compare (003 L3389-3405, verbatim): the texel against
 * the message's reference; 0.0 where the relation holds. The reference is
 * used as sent (the seed: "Software is responsible for programming the ref
 * component"; no clamp to [0, 1] for UNORM depth, model choice). */
static float shadow_compare(unsigned function, float texel, float ref)
{
    switch (function) {
    case 0: return 0.0f;                                /* PREFILTEROP_ALWAYS */
    case 1: return 1.0f;                                /* NEVER */
    case 2: return texel < ref ? 0.0f : 1.0f;           /* LESS */
    case 3: return texel == ref ? 0.0f : 1.0f;          /* EQUAL */
    case 4: return texel <= ref ? 0.0f : 1.0f;          /* LEQUAL */
    case 5: return texel > ref ? 0.0f : 1.0f;           /* GREATER */
    case 6: return texel != ref ? 0.0f : 1.0f;          /* NOTEQUAL */
    default: return texel >= ref ? 0.0f : 1.0f;         /* GEQUAL */
    }
}

/* How a level's texels combine: weighted (the filter), or the minimum or
 * maximum of the contributing texels (sample_min / sample_max, SAMPLER_STATE
 * Reduction Type MINIMUM / MAXIMUM: "the minimum channel value for all
 * contributing texels", L4018-4031); with a compare, each texel's red channel
 * is first replaced by its shadow compare result. */
enum { REDUCE_FILTER, REDUCE_MIN, REDUCE_MAX };
struct combine {
    unsigned reduce;
    bool compare;
    float ref;
};

/* The address mode of each axis: SAMPLER_STATE's, except that a cube surface
 * takes TEXCOORDMODE_CUBE on u and v when Cube Surface Control Mode is OVERRIDE
 * (1), and TEXCOORDMODE_CUBE on any other surface is CLAMP ("can only be used
 * with SURFTYPE_CUBE", 003 L3302). */
static void address_modes(const struct smp_exec *x, unsigned mode[3])
{
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    bool cube = x->surf.sd.type == SURFACE_CUBE;
    mode[0] = st->TCXAddressControlMode;
    mode[1] = st->TCYAddressControlMode;
    mode[2] = st->TCZAddressControlMode;
    for (unsigned k = 0; k < 3; k++) {
        if (cube && k < 2 && st->CubeSurfaceControlMode == 1)
            mode[k] = TC_CUBE;
        if (mode[k] == TC_CUBE && (!cube || k == 2))
            mode[k] = TC_CLAMP;
    }
}

/* One level's filtered value at coordinates lc: NEAREST or LINEAR over the
 * surface type's axes, each texel through the address modes. */
static void sample_level(struct smp_exec *x, const struct lane_coords *lc, uint32_t lod,
                         bool linear, const struct combine *cb, smp_value *out)
{
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    unsigned dims = filter_dims(x);
    uint32_t size[3] = { lod_width(x, lod), lod_height(x, lod), lod_depth(x, lod) };
    unsigned mode[3];
    address_modes(x, mode);
    int32_t off[3] = { x->req.offset_u, x->req.offset_v, x->req.offset_r };
    struct axis ax[3];
    for (unsigned k = 0; k < 3; k++) {
        if (k < dims) {
            axis_setup(x, lc->c[k], size[k], mode[k], linear, off[k], &ax[k]);
        } else {
            ax[k] = (struct axis){ .n = 1, .w = { 1.0f } };
        }
    }
    bool floats = x->surf.fmt && x->surf.fmt->value_kind == FORMAT_VALUE_FLOAT;
    x->s->footprints += (ax[0].n * ax[1].n * ax[2].n + 3) / 4;  /* 2x2 footprints */
    value_zero(x, out);
    float sum[4] = { 0 };
    bool first = true;
    for (unsigned c = 0; c < ax[2].n; c++)
        for (unsigned b = 0; b < ax[1].n; b++)
            for (unsigned a = 0; a < ax[0].n; a++) {
                float w = ax[0].w[a] * ax[1].w[b] * ax[2].w[c];
                smp_value t;
                footprint_texel(x, lc, ax, a, b, c, lod, &t);
                if (!floats) {      /* integer formats: one texel, not filtered */
                    *out = t;
                    return;
                }
                if (cb->compare) {
                    x->s->shadow_compares++;
                    t.f[0] = shadow_compare(st->ShadowFunction, t.f[0], cb->ref);
                }
                if (cb->reduce == REDUCE_FILTER) {
                    for (unsigned k = 0; k < 4; k++)
                        sum[k] += w * t.f[k];
                } else if (w > 0.0f) {
                    for (unsigned k = 0; k < 4; k++) {
                        bool take = first || (cb->reduce == REDUCE_MIN ? t.f[k] < sum[k]
                                                                       : t.f[k] > sum[k]);
                        if (take)
                            sum[k] = t.f[k];
                    }
                    first = false;
                }
            }
    for (unsigned k = 0; k < 4; k++)
        out->f[k] = sum[k];
}

/* The LOD pipeline's outcome for one pixel (L3132-3200). */
struct lod_choice {
    bool mag;
    bool out_of_bounds;
    float unclamped;            /* after the bias, before any clamp (the lod message's G) */
    float clamped;              /* clamped to AdjMinLod .. AdjMaxLod (its R) */
    unsigned levels;            /* 1 or 2 */
    uint32_t lod[2];            /* physical levels (SurfMinLod added) */
    float beta;                 /* weight of lod[1] */
};

static void choose_lod(const struct smp_exec *x, float lod_in, float param, struct lod_choice *o)
{
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    const struct surface *sd = &x->surf.sd;
    double lod = lod_in;
    double bias = st->TextureLODBias, min_lod = st->MinLOD, max_lod = st->MaxLOD;
    double base = x->gen >= 9 ? sd->base_mip_half / 2.0 : st->BaseMipLevel;
    double mip_count = sd->mip_count_lod;
    double adj_max = fmin(max_lod, mip_count);
    double adj_min = fmin(min_lod, mip_count);
    double adj_pr_min = x->surf.resource_min_lod - sd->min_lod;
    adj_min = fmax(adj_min, adj_pr_min);
    o->out_of_bounds = adj_pr_min > mip_count;
    switch (base_message(x->req.message)) {
    case SAMPLER_SAMPLE_B:
        lod += bias + param;
        break;
    case SAMPLER_SAMPLE_L:
        lod = bias + param;
        break;
    case SAMPLER_SAMPLE_LZ:
        lod = bias;             /* "LOD = 0" messages: _lz takes the lod parameter as 0 */
        break;
    default:
        lod += bias;
        break;
    }
    if (!(lod == lod))
        lod = 0.0;
    o->unclamped = (float)lod;
    o->clamped = (float)fmax(fmin(lod, adj_max), adj_min);
    if (st->LODPreClampMode == 1) {             /* PRECLAMP_D3D */
        lod = fmax(fmin(lod, adj_max), adj_min);
    } else if (st->LODPreClampMode != 0) {      /* PRECLAMP_OGL */
        lod = fmax(fmin(lod, max_lod), min_lod);
    }
    o->mag = lod - base <= 0.0;
    bool mag_clamp_mip_none = st->LODClampMagnificationMode == 0;
    o->levels = 1;
    o->beta = 0.0f;
    if ((o->mag && mag_clamp_mip_none) || st->MipModeFilter == MIP_NONE) {
        lod = fmax(fmin(0.0, ceil(adj_max)), floor(adj_min));
    } else if (st->MipModeFilter == MIP_NEAREST) {
        lod = fmax(fmin(lod, ceil(adj_max)), floor(adj_min));
        lod = floor(lod + 0.5);
    } else {
        lod = fmax(fmin(lod, adj_max), adj_min);
        double l0 = floor(lod);
        o->beta = (float)(lod - l0);
        lod = l0;
        o->levels = o->beta > 0.0f ? 2 : 1;
    }
    if (lod < 0.0)
        lod = 0.0;
    if (lod > mip_count)
        lod = mip_count;
    o->lod[0] = (uint32_t)lod + sd->min_lod;
    o->lod[1] = (uint32_t)fmin(lod + 1.0, mip_count) + sd->min_lod;
}

/* rho of L3090-3094 from derivatives in texels of the view's base level. */
static float lod_from_derivatives(const float dx[3], const float dy[3])
{
    float rx = sqrtf(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
    float ry = sqrtf(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
    float rho = rx > ry ? rx : ry;
    if (!(rho > 0.0f))
        return -64.0f;
    float l = log2f(rho);
    return l < -64.0f ? -64.0f : l > 64.0f ? 64.0f : l;
}

/* The base level's size in each filtered axis, as derivatives scale by it
 * (1 for non-normalized coordinates, already in texels). */
static void base_scale(const struct smp_exec *x, float scale[3])
{
    uint32_t l = x->surf.sd.min_lod;
    bool normalized = !x->samp.st.NonNormalizedCoordinateEnable;
    unsigned dims = filter_dims(x);
    float sz[3] = { (float)lod_width(x, l), (float)lod_height(x, l), (float)lod_depth(x, l) };
    for (unsigned k = 0; k < 3; k++)
        scale[k] = k >= dims ? 0.0f : normalized ? sz[k] : 1.0f;
}

/* MAPFILTER_ANISOTROPIC (003 L3234-3240): "the major and minor axes of the
 * pixel projection onto the texture map"; "LOD is chosen based on the minor
 * axis length"; the ratio major / minor up to Maximum Anisotropy (2:1 .. 16:1,
 * 2 (n + 1)); "the next larger even integer above the ratio determines the
 * anisotropic number of ways"; subpixels "along the major axis ... spaced one
 * texel apart", each a bilinear 2x2, "equal weights on all interior subpixels",
 * the two endpoints "lesser weight ... depends on how close the ratio is to
 * the number of ways". Model choices where the seed is silent: the axes are
 * the two texel-space derivative vectors (the longer the major); the LOD is
 * log2(major / ratio), the minor axis unless the ratio is clamped; each
 * endpoint weighs (ratio - (ways - 2)) / 2 and the interior ones 1, over a sum
 * of ratio (continuous as the ratio crosses an even integer); subpixels at
 * k - (ways - 1) / 2 texels of the sampled level, centred on the pixel; a ratio
 * of 1 or less samples once (bilinear); 2D surfaces only (the seed excludes
 * BUFFER and 3D; 1D and cube surfaces are filtered LINEAR). */
struct aniso {
    float ratio;                /* <= 1: isotropic */
    float dir[2];               /* unit major axis in base-level texels (u, v) */
};

/* The computed LOD of a lane before bias and clamps: from the message's
 * gradients (sample_d) or from its subspan's pixels 0 (UL), 1 (UR), 2 (LL);
 * with the anisotropic filter on a 2D surface, the footprint's ratio and axis. */
static float lane_lod(const struct smp_exec *x, const struct sample_layout *l, unsigned lane,
                      struct aniso *an)
{
    float scale[3], dx[3] = { 0 }, dy[3] = { 0 };
    base_scale(x, scale);
    unsigned dims = filter_dims(x);
    an->ratio = 1.0f;
    if (base_message(x->req.message) == SAMPLER_SAMPLE_D) {
        for (unsigned k = 0; k < dims; k++) {
            dx[k] = param_at(x, l->grad[k][0], lane) * scale[k];
            dy[k] = param_at(x, l->grad[k][1], lane) * scale[k];
        }
    } else {
        unsigned ul = lane & ~3u;
        struct lane_coords c0, c1, c2;
        lane_coords(x, l, ul, &c0);
        lane_coords(x, l, ul + 1, &c1);
        lane_coords(x, l, ul + 2, &c2);
        for (unsigned k = 0; k < dims; k++) {
            dx[k] = (c1.c[k] - c0.c[k]) * scale[k];
            dy[k] = (c2.c[k] - c0.c[k]) * scale[k];
        }
    }
    if ((x->samp.st.MinModeFilter == FILTER_ANISOTROPIC ||
         x->samp.st.MagModeFilter == FILTER_ANISOTROPIC) && x->surf.sd.type == SURFACE_2D) {
        float lx = sqrtf(dx[0] * dx[0] + dx[1] * dx[1]), ly = sqrtf(dy[0] * dy[0] + dy[1] * dy[1]);
        float major = lx > ly ? lx : ly, minor = lx > ly ? ly : lx;
        float max_ratio = 2.0f * (float)(x->samp.st.MaximumAnisotropy + 1);
        if (major > 0.0f && major == major) {
            float ratio = minor > 0.0f ? major / minor : max_ratio;
            ratio = ratio > max_ratio ? max_ratio : ratio;
            if (ratio > 1.0f) {
                const float *m = lx > ly ? dx : dy;
                an->ratio = ratio;
                an->dir[0] = m[0] / major;
                an->dir[1] = m[1] / major;
                float l2 = log2f(major / ratio);
                return l2 < -64.0f ? -64.0f : l2 > 64.0f ? 64.0f : l2;
            }
        }
    }
    return lod_from_derivatives(dx, dy);
}

/* The anisotropic filter at one level: the subpixels' bilinear results
 * weighted as the struct aniso comment says (min/max reductions take the
 * minimum / maximum of the subpixels). */
static void sample_level_aniso(struct smp_exec *x, const struct lane_coords *lc, uint32_t lod,
                               const struct aniso *an, const struct combine *cb, smp_value *out)
{
    float scale[3];
    base_scale(x, scale);
    unsigned ways = 2u * (unsigned)floorf(an->ratio / 2.0f) + 2u;
    if (ways > 18)
        ways = 18;
    float end_weight = (an->ratio - (float)(ways - 2)) / 2.0f;
    float spacing = ldexpf(1.0f, (int)lod - (int)x->surf.sd.min_lod);   /* base texels */
    float sum[4] = { 0 };
    value_zero(x, out);
    for (unsigned k = 0; k < ways; k++) {
        float w = k == 0 || k == ways - 1 ? end_weight : 1.0f;
        if (w <= 0.0f)
            continue;
        float off = ((float)k - (float)(ways - 1) / 2.0f) * spacing;
        struct lane_coords sub = *lc;
        for (unsigned a = 0; a < 2; a++)
            sub.c[a] += scale[a] > 0.0f ? an->dir[a] * off / scale[a] : 0.0f;
        smp_value v;
        sample_level(x, &sub, lod, true, cb, &v);
        for (unsigned c = 0; c < 4; c++) {
            if (cb->reduce == REDUCE_FILTER)
                sum[c] += w * v.f[c];
            else if (k == 0 || (cb->reduce == REDUCE_MIN ? v.f[c] < sum[c] : v.f[c] > sum[c]))
                sum[c] = v.f[c];
        }
    }
    for (unsigned c = 0; c < 4; c++)
        out->f[c] = cb->reduce == REDUCE_FILTER ? sum[c] / an->ratio : sum[c];
}

/* The sampler's state and surface usable for a sample or gather message; what is
 * not (Sampler Disable, buffers, MONO, a compare on an integer format) is
 * counted and gives zeros. */
static bool sampling_usable(struct smp_exec *x)
{
    struct smp *s = x->s;
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    const struct sampler_request *r = &x->req;
    if (!x->surf.valid || !x->samp.valid)
        return false;
    if (x->surf.sd.type == SURFACE_BUFFER || x->surf.sd.type == SURFACE_STRBUF ||
        st->SamplerDisable) {
        s->unsupported_messages++;
        smp_warn_once(s, x->u, 9, "sampler: sample on surface type %u or with Sampler Disable "
                      "%u: zeros", x->surf.sd.type, st->SamplerDisable);
        return false;
    }
    if (st->MinModeFilter == FILTER_MONO || st->MagModeFilter == FILTER_MONO) {
        s->unsupported_messages++;
        smp_warn_once(s, x->u, 10, "sampler: MAPFILTER_MONO not modelled (sampler %u): zeros",
                      r->sampler_index, 0);
        return false;
    }
    if (compares(r->message) && x->surf.fmt->value_kind != FORMAT_VALUE_FLOAT) {
        /* "only single-channel texel formats are supported for shadow mapping"
         * (L3389-3405): integer formats have no shadow compare */
        s->unsupported_formats++;
        smp_warn_once(s, x->u, 13, "sampler: shadow compare on integer format 0x%x (BTI %u): "
                      "zeros", x->surf.sd.format, r->surface_index);
        return false;
    }
    return true;
}

/* The reduction a message and its SAMPLER_STATE ask for. */
static unsigned reduction_of(const struct smp_exec *x)
{
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    if (x->req.message == SAMPLER_SAMPLE_MIN)
        return REDUCE_MIN;
    if (x->req.message == SAMPLER_SAMPLE_MAX)
        return REDUCE_MAX;
    /* Reduction Type: 0 STD_FILTER, 1 COMPARISON (the _c messages' own
     * behaviour), 2 MINIMUM, 3 MAXIMUM (gen9.xml SAMPLER_STATE) */
    if (st->ReductionTypeEnable && st->ReductionType == 2)
        return REDUCE_MIN;
    if (st->ReductionTypeEnable && st->ReductionType == 3)
        return REDUCE_MAX;
    return REDUCE_FILTER;
}

static void do_sample(struct smp_exec *x)
{
    const struct sampler_request *r = &x->req;
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    struct sample_layout l;
    layout_of(x, &l);
    bool usable = sampling_usable(x);
    bool floats = x->surf.fmt && x->surf.fmt->value_kind == FORMAT_VALUE_FLOAT;
    uint32_t base = base_message(r->message);
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v;
        value_zero(x, &v);
        if (!usable) {
            write_lane(x, lane, &v);
            continue;
        }
        struct aniso an = { .ratio = 1.0f };
        float lod_in = base == SAMPLER_SAMPLE_L || base == SAMPLER_SAMPLE_LZ
                           ? 0.0f : lane_lod(x, &l, lane, &an);
        struct lod_choice lc;
        choose_lod(x, lod_in, param_at(x, l.lod, lane), &lc);
        if (r->message == SAMPLER_LOD) {
            /* 003 L4286-4302: R the clamped LOD, G the unclamped one (FLOAT32);
             * "clamped" taken as clamped to AdjMinLod .. AdjMaxLod before the mip
             * filter's rounding (the seed does not say which) */
            smp_value lv = { .kind = FORMAT_VALUE_FLOAT };
            lv.f[0] = lc.clamped;
            lv.f[1] = lc.unclamped;
            bool half = x->req.half_precision;
            x->req.half_precision = 0;
            write_lane(x, lane, &lv);
            x->req.half_precision = half;
            continue;
        }
        if (lc.out_of_bounds) {
            value_out_of_bounds(x, &v);
            apply_selects(x, &v);
            write_lane(x, lane, &v);
            continue;
        }
        uint32_t filter = lc.mag ? st->MagModeFilter : st->MinModeFilter;
        bool linear = floats && filter != FILTER_NEAREST;
        struct combine cb = { .reduce = reduction_of(x), .compare = compares(r->message),
                              .ref = param_at(x, l.ref, lane) };
        struct lane_coords c;
        lane_coords(x, &l, lane, &c);
        bool aniso = floats && filter == FILTER_ANISOTROPIC && an.ratio > 1.0f;
        x->s->by_filter[aniso ? 3 : lc.levels == 2 && floats ? 2 : linear ? 1 : 0]++;
        if (aniso)
            sample_level_aniso(x, &c, lc.lod[0], &an, &cb, &v);
        else
            sample_level(x, &c, lc.lod[0], linear, &cb, &v);
        if (lc.levels == 2 && floats) {
            smp_value v1;
            if (aniso)
                sample_level_aniso(x, &c, lc.lod[1], &an, &cb, &v1);
            else
                sample_level(x, &c, lc.lod[1], linear, &cb, &v1);
            for (unsigned k = 0; k < 4; k++) {
                if (cb.reduce == REDUCE_MIN)
                    v.f[k] = v1.f[k] < v.f[k] ? v1.f[k] : v.f[k];
                else if (cb.reduce == REDUCE_MAX)
                    v.f[k] = v1.f[k] > v.f[k] ? v1.f[k] : v.f[k];
                else
                    v.f[k] = v.f[k] * (1.0f - lc.beta) + v1.f[k] * lc.beta;
            }
        }
        apply_selects(x, &v);
        write_lane(x, lane, &v);
    }
}

/* gather4_po's offsets: "hardware only interprets the least significant 6 bits
 * of each value, treating it as a 6-bit 2's complement signed integer" (L4224ff). */
static int32_t offset6(int32_t v)
{
    uint32_t b = (uint32_t)v & 0x3fu;
    return b & 0x20u ? (int32_t)b - 64 : (int32_t)b;
}

/* gather4, gather4_c, gather4_po, gather4_po_c (003 L4224-4268): the LINEAR
 * footprint at the view's level 0 (Surface Min LOD; the sampler's filters and
 * LOD ignored), unfiltered: the selected channel (header M0.2[17:16]) of the
 * four texels, "upper left = alpha, upper right = blue, lower left = red, lower
 * right = green" (upper: the smaller v). The _c forms return each texel's red
 * compared with ref (1.0 or 0.0, the table of L3389-3405); the _po forms take
 * per-pixel offsets that replace the header's U/V offsets. 2D and CUBE (the
 * _po forms 2D only), one sample; others zeros, counted. Model choice (the seed
 * is silent): the surface's Shader Channel Selects apply to each texel before
 * the channel is selected (GL's textureGather of a swizzled texture). */
static void do_gather(struct smp_exec *x)
{
    struct smp *s = x->s;
    const struct sampler_request *r = &x->req;
    const struct spec_SAMPLER_STATE *st = &x->samp.st;
    struct sample_layout l;
    layout_of(x, &l);
    bool usable = sampling_usable(x);
    bool compare = compares(r->message), po = per_pixel_offsets(r->message);
    const struct surface *sd = &x->surf.sd;
    if (usable && (!(sd->type == SURFACE_2D || (sd->type == SURFACE_CUBE && !po)) ||
                   sd->samples > 1)) {
        s->unsupported_messages++;
        smp_warn_once(s, x->u, 14, "sampler: gather4 on surface type %u with %u samples: zeros",
                      sd->type, sd->samples);
        usable = false;
    }
    uint32_t level = sd->min_lod;
    uint32_t size[2] = { lod_width(x, level), lod_height(x, level) };
    unsigned mode[3];
    address_modes(x, mode);
    unsigned channel = compare ? 0 : r->gather_channel;
    /* texel (a, b) of the footprint (a: u side, b: v side) for R, G, B, A */
    static const uint8_t corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
    for (unsigned lane = 0; lane < r->lanes; lane++) {
        if (!(r->lane_mask & (1u << lane)))
            continue;
        smp_value v;
        value_zero(x, &v);
        if (compare)
            v.kind = FORMAT_VALUE_FLOAT;
        if (!usable) {
            write_lane(x, lane, &v);
            continue;
        }
        struct lane_coords c;
        lane_coords(x, &l, lane, &c);
        int32_t off[2] = { r->offset_u, r->offset_v };
        if (po) {
            off[0] = offset6(smp_param_i(r, (unsigned)l.off[0], lane));
            off[1] = offset6(smp_param_i(r, (unsigned)l.off[1], lane));
        }
        struct axis ax[3];
        for (unsigned k = 0; k < 2; k++)
            axis_setup(x, c.c[k], size[k], mode[k], true, off[k], &ax[k]);
        ax[2] = (struct axis){ .n = 1, .w = { 1.0f } };
        float ref = param_at(x, l.ref, lane);
        s->footprints++;
        for (unsigned out = 0; out < 4; out++) {
            smp_value t;
            footprint_texel(x, &c, ax, corner[out][0], corner[out][1], 0, level, &t);
            if (compare) {
                s->shadow_compares++;
                v.f[out] = shadow_compare(st->ShadowFunction, t.f[0], ref);
            } else {
                apply_selects(x, &t);
                v.u[out] = t.u[channel];
            }
        }
        write_lane(x, lane, &v);
    }
}

/* The header's Pixel Null Mask Enable (M0.2[23]) adds one write-back phase
 * after the channels (L4654-4810): dword 0 [31:16] 0xffff, [15:0] one bit a
 * pixel, 1 unless a null (tiled-resource) page contributed: null pages are not
 * modelled, so every bit is 1; SIMD4x2 W1.0[1:0]. */
static void write_null_mask(struct smp_exec *x)
{
    const struct sampler_request *r = &x->req;
    if (!r->pixel_null_mask)
        return;
    if (r->simd == SAMPLER_SIMD4X2) {
        wb_write32(x, 1, 0, 0x3u);
        return;
    }
    unsigned channels = 0;
    for (unsigned k = 0; k < 4; k++)
        channels += (r->channel_mask >> k) & 1u;
    unsigned per = r->lanes == 16 && !r->half_precision ? 2 : 1;
    wb_write32(x, channels * per, 0, 0xffff0000u | (r->lanes == 16 ? 0xffffu : 0xffu));
}

/* ---- dispatch ------------------------------------------------------------------------- */

void smp_execute(struct smp_exec *x)
{
    switch (x->req.message) {
    case SAMPLER_LD:
    case SAMPLER_LD_LZ:
        smp_resolve(x, false);
        do_ld(x);
        break;
    case SAMPLER_LD_MCS:
        smp_resolve(x, false);
        do_ld_mcs(x);
        break;
    case SAMPLER_LD2DMS:
    case SAMPLER_LD2DMS_W:
    case SAMPLER_LD2DSS:
        smp_resolve(x, false);
        do_ld_multisample(x);
        break;
    case SAMPLER_RESINFO:
        smp_resolve(x, false);
        do_resinfo(x);
        break;
    case SAMPLER_SAMPLEINFO:
        smp_resolve(x, false);
        do_sampleinfo(x);
        break;
    case SAMPLER_SAMPLE:
    case SAMPLER_SAMPLE_B:
    case SAMPLER_SAMPLE_L:
    case SAMPLER_SAMPLE_D:
    case SAMPLER_SAMPLE_LZ:
    case SAMPLER_LOD:
    case SAMPLER_SAMPLE_C:
    case SAMPLER_SAMPLE_B_C:
    case SAMPLER_SAMPLE_L_C:
    case SAMPLER_SAMPLE_D_C:
    case SAMPLER_SAMPLE_C_LZ:
    case SAMPLER_SAMPLE_MIN:
    case SAMPLER_SAMPLE_MAX:
    case SAMPLER_GATHER4:
    case SAMPLER_GATHER4_C:
    case SAMPLER_GATHER4_PO:
    case SAMPLER_GATHER4_PO_C:
        smp_resolve(x, true);
        if (base_message(x->req.message) == SAMPLER_GATHER4)
            do_gather(x);
        else
            do_sample(x);
        break;
    default:
        break;
    }
    write_null_mask(x);
}
