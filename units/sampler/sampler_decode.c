/* units/sampler/sampler_decode.c - a SEND to the sampler (SFID 2) as a struct
 * sampler_request (units/common/sampler.h), and the state it names: the binding
 * table entry's RENDER_SURFACE_STATE and the SAMPLER_STATE entry with its border
 * colour.
 *
 * Descriptor: the generated accessors of build/gen/msg_desc.h (spec/eu/opcodes.txt
 * "sampler 7-9": binding table 7:0, sampler 11:8, message type 16:12, SIMD mode
 * 18:17, Gen8+ SIMD mode extension 29 and 16-bit return 30; notes/003-skl-sharedfn-
 * eu.md §3.2, [EXT] from Mesa where the seed has a link only).
 * Header (003 L3930-3996): M0.2[23] Pixel Null Mask Enable, [22] SIMD Mode
 * Extension (SIMD4x2 / SIMD8D), [17:16] Gather4 Source Channel Select, [15:12]
 * write channel mask (1 = not written), [11:8]
 * [7:4] [3:0] U, V, R offsets (4-bit two's complement), M0.3[31:5] Sampler State
 * Pointer (Dynamic State Base relative); without a header every channel the
 * response length allows is written (L4488-4506) and the pointer is the stage's
 * ("from the command stream", L3476-3480: struct eu_thread_context.sampler_state).
 * Payload (L4566-4607): SIMD8 one register a parameter, SIMD16 two (lanes 0-7,
 * 8-15), SIMD4x2 four parameters of both samples a register; the parameter
 * count is what MLEN holds after the header.
 */
#include "units/sampler/sampler_internal.h"

#include <string.h>

#include "msg_desc.h"
#include "spec_gen4_pack.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"

static uint32_t rd32(const uint8_t *regs, unsigned reg, unsigned dw)
{
    uint32_t v;
    memcpy(&v, regs + (size_t)reg * EU_MSG_REG_BYTES + dw * 4, 4);
    return v;
}

static int32_t sext4(uint32_t v)
{
    v &= 0xf;
    return v & 8 ? (int32_t)v - 16 : (int32_t)v;
}

float smp_param_f(const struct sampler_request *r, unsigned k, unsigned lane)
{
    float f = 0.0f;
    if (k < r->parameter_count && lane < SAMPLER_MAX_LANES)
        memcpy(&f, &r->parameters[k][lane], 4);
    return f;
}

int32_t smp_param_i(const struct sampler_request *r, unsigned k, unsigned lane)
{
    return k < r->parameter_count && lane < SAMPLER_MAX_LANES ? (int32_t)r->parameters[k][lane] : 0;
}

/* Whether generation gen has message type t (opcodes.txt [sampler-message-type]:
 * the _lz forms are Gen9's). */
static bool message_on_gen(uint32_t t, unsigned gen)
{
    switch (t) {
    case SAMPLER_SAMPLE_LZ:
    case SAMPLER_SAMPLE_C_LZ:
    case SAMPLER_LD_LZ:
    case SAMPLER_LD2DMS_W:
    case SAMPLER_SAMPLE_MIN:
    case SAMPLER_SAMPLE_MAX:
        return gen >= 9;
    default:
        return t <= SAMPLER_SAMPLEINFO || (t >= SAMPLER_GATHER4_C && t <= SAMPLER_GATHER4_PO_C) ||
               t == SAMPLER_SAMPLE_D_C || t >= SAMPLER_SAMPLE_LZ;
    }
}

/* Whether a message has a SIMD4x2 form: the seed's SIMD4x2 parameter table
 * (notes/003-skl-sharedfn-eu.md §3.5, L10152-10255) lists sample_l, sample_d,
 * sample_l_c, ld, gather4*, resinfo, sampleinfo, sample_d_c, ld2dms_w, ld_mcs and
 * ld2dms; the "LOD = 0" forms sample_lz, sample_c_lz and ld_lz are taken too
 * (model choice: the seed requires "Force LOD to Zero" for a SIMD4x2 sample_c,
 * L4067-4222). Messages whose LOD comes from a subspan's pixels have none. */
static bool has_simd4x2_form(uint32_t t)
{
    switch (t) {
    case SAMPLER_SAMPLE_L:
    case SAMPLER_SAMPLE_D:
    case SAMPLER_SAMPLE_L_C:
    case SAMPLER_SAMPLE_D_C:
    case SAMPLER_SAMPLE_LZ:
    case SAMPLER_SAMPLE_C_LZ:
    case SAMPLER_LD:
    case SAMPLER_LD_LZ:
    case SAMPLER_GATHER4:
    case SAMPLER_GATHER4_C:
    case SAMPLER_GATHER4_PO:
    case SAMPLER_GATHER4_PO_C:
    case SAMPLER_RESINFO:
    case SAMPLER_SAMPLEINFO:
    case SAMPLER_LD2DMS_W:
    case SAMPLER_LD_MCS:
    case SAMPLER_LD2DMS:
        return true;
    default:
        return false;
    }
}

/* The payload: SIMD8 one register a parameter, SIMD16 two (lanes 0-7, 8-15);
 * SIMD4x2 (L4566-4653) one register for parameters 0-3 of both samples
 * (sample 0 in dwords 0-3, sample 1 in dwords 4-7), the next for 4-7 and so on. */
static void read_payload(struct smp_exec *x, unsigned hdr)
{
    const struct eu_send_msg *p = x->p;
    struct sampler_request *r = &x->req;
    const uint8_t *regs = (const uint8_t *)p->regs;
    unsigned nregs = (unsigned)p->mlen + p->ex_mlen;
    unsigned body = nregs > hdr ? nregs - hdr : 0;
    if (r->simd == SAMPLER_SIMD4X2) {
        r->parameter_count = body * 4;
        if (r->parameter_count > SAMPLER_MAX_PARAMETERS)
            r->parameter_count = SAMPLER_MAX_PARAMETERS;
        for (unsigned k = 0; k < r->parameter_count; k++)
            for (unsigned sample = 0; sample < 2; sample++)
                r->parameters[k][sample] = rd32(regs, hdr + k / 4, sample * 4 + k % 4);
        return;
    }
    unsigned regs_per_param = r->lanes / 8;
    r->parameter_count = body / regs_per_param;
    if (r->parameter_count > SAMPLER_MAX_PARAMETERS)
        r->parameter_count = SAMPLER_MAX_PARAMETERS;
    for (unsigned k = 0; k < r->parameter_count; k++)
        for (unsigned lane = 0; lane < r->lanes; lane++)
            r->parameters[k][lane] = rd32(regs, hdr + k * regs_per_param + lane / 8, lane % 8);
}

/* The state bases a message's pointers are relative to: Dynamic State Base on
 * Gen6+, General State Base on Gen4 (the sampler state and border colour
 * pointers, 001: "R0.3 sampler pointer" of the thread payload, notes/001-gen4.md;
 * Dynamic State Base came with Gen6). */
static uint64_t state_base(const struct smp_exec *x)
{
    return x->gen < 6 ? x->ctx->general_state_base : x->ctx->dynamic_state_base;
}

/* Gen4 (965) messages (spec/eu/opcodes.txt [gen4-sampler-message-type]): a
 * 2-bit type read by SIMD mode, the SIMD mode from the SEND's execution size
 * (16 or 8; SIMD4x2 is not modelled on Gen4: VS texturing), two messages of a
 * code told apart by the message length; the payload is Mesa's Gen4 order [EXT]
 * (seed 001 has no sampler message tables: notes/001-gen4.md "Details
 * absent"): a header, u, v, r (padded to three when a lod, bias or reference
 * follows, and for SIMD8 sample), then lod or bias, then the reference;
 * sample_d (SIMD8) u, v[, r] and the x then y gradients. The message maps to the
 * Gen7+ type that computes the same (enum sampler_message). */
static bool decode_gen4(struct smp_exec *x)
{
    const struct eu_send_msg *p = x->p;
    struct sampler_request *r = &x->req;
    uint32_t t = desc_sampler_msg_type_gen4(p->desc);
    r->simd = p->exec_size == 16 ? SAMPLER_SIMD16 : SAMPLER_SIMD8;
    r->lanes = p->exec_size == 16 ? 16 : 8;
    r->lane_mask = p->exec_mask & (r->lanes == 16 ? 0xffffu : 0xffu);
    read_payload(x, x->header ? 1 : 0);
    unsigned n = r->parameter_count;
    static const uint32_t simd16[4] = { SAMPLER_SAMPLE, SAMPLER_SAMPLE_L, SAMPLER_SAMPLE_C,
                                        SAMPLER_LD };
    static const uint32_t simd8[4] = { SAMPLER_SAMPLE, SAMPLER_SAMPLE_L_C, SAMPLER_SAMPLE_D,
                                       SAMPLER_LD };
    r->message = r->lanes == 16 ? simd16[t] : simd8[t];
    if (r->lanes == 16 && t == 0 && n >= 4)
        r->message = SAMPLER_SAMPLE_B;
    if (r->lanes == 16 && t == 2 && n == 1)
        r->message = SAMPLER_RESINFO;
    if (r->lanes == 8 && t == 0 && n >= 5)
        r->message = SAMPLER_SAMPLE_B_C;
    /* SIMD8 code 1 with fewer than five parameters is killpix: not modelled */
    return !(r->lanes == 8 && t == 1 && n < 5);
}

bool smp_decode(struct smp_exec *x)
{
    const struct eu_send_msg *p = x->p;
    struct sampler_request *r = &x->req;
    uint32_t desc = p->desc;
    memset(r, 0, sizeof *r);
    /* Gen4 descriptors have no Header Present bit (it came with Gen5; the
     * EU reports none on Gen4): every Gen4 sampler message starts with the
     * g0 header the SEND's implied move copies (Mesa's Gen4 sampler
     * payloads, header size 1 [EXT]; seed 001 has no sampler chapter) */
    x->header = x->gen == 4 || (p->flags & EU_SEND_HEADER) != 0;
    const uint8_t *regs = (const uint8_t *)p->regs;
    uint32_t m2 = x->header && p->mlen ? rd32(regs, 0, 2) : 0;
    r->message = desc_sampler_msg_type_gen7(desc);
    r->surface_index = desc_sampler_binding_table(desc);
    r->sampler_index = desc_sampler_sampler(desc);
    r->simd = desc_sampler_simd_mode(desc);
    r->half_precision = x->gen >= 8 && desc_sampler_return_format_gen8(desc);
    /* SIMD mode 0: SIMD4x2 on Gen7/8; on Gen9 the header's SIMD Mode Extension
     * M0.2[22] says SIMD4x2 (1) or SIMD8D (0, also without a header: "all
     * fields zero", L3930-3996; Mesa's vec4 generator sets the bit on Gen9+
     * [EXT]). SIMD8D, SIMD32/64 (mode 3) and the Gen8+ extended modes are not
     * modelled. */
    bool simd4x2 = r->simd == SAMPLER_SIMD4X2 && (x->gen < 9 || (m2 >> 22 & 1));
    bool gen4_known = true;
    if (x->gen < 7) {
        simd4x2 = false;
        gen4_known = x->gen == 4 && decode_gen4(x);
        if (!gen4_known && x->gen != 4)
            return false;
    } else if ((r->simd != SAMPLER_SIMD8 && r->simd != SAMPLER_SIMD16 && !simd4x2) ||
               (x->gen >= 8 && desc_sampler_simd_mode_ext(desc))) {
        return false;
    }
    if (x->gen < 7) {
        r->half_precision = 0;      /* decode_gen4 read the payload */
    } else if (simd4x2) {
        /* "SIMD4x2: low 8 bits in groups of 4 (any bit set: the sample is
         * valid)" (L3900-3910); 32-bit returns only (L4456-4471) */
        r->lanes = 2;
        r->lane_mask = (p->exec_mask & 0x0fu ? 1u : 0u) | (p->exec_mask & 0xf0u ? 2u : 0u);
        r->half_precision = 0;
    } else {
        r->lanes = r->simd == SAMPLER_SIMD16 ? 16 : 8;
        r->lane_mask = p->exec_mask & (r->lanes == 16 ? 0xffffu : 0xffu);
    }
    if (x->gen >= 7)
        read_payload(x, x->header ? 1 : 0);
    const struct eu_thread_context *c = x->ctx;
    if (x->header) {
        r->channel_mask = ~(m2 >> 12) & 0xfu;
        if (!r->channel_mask && x->rlen) {
            /* "All four masked not allowed" (L3930-3996): counted, zeros */
            x->s->bad_messages++;
            smp_warn_once(x->s, x->u, 15, "sampler: header masks all four channels (M0.2 "
                          "0x%x, RLEN %u): zeros", m2, x->rlen);
        }
        r->offset_u = sext4(m2 >> 8);
        r->offset_v = sext4(m2 >> 4);
        r->offset_r = sext4(m2);
        r->gather_channel = (m2 >> 16) & 3u;
        r->pixel_null_mask = (m2 >> 23) & 1u;
        r->sampler_state = state_base(x) + (rd32(regs, 0, 3) & ~31u);
    } else if (simd4x2) {
        /* one register, both samples' four channels (L4654-4810) */
        r->channel_mask = 0xfu;
        r->sampler_state = state_base(x) + (c->sampler_state & ~31u);
    } else {
        /* the response length selects the channels (L4488-4506): SIMD8 one
         * register a channel (both return formats), SIMD16 two (32-bit) or one
         * (16-bit) */
        unsigned per = r->lanes == 16 && !r->half_precision ? 2 : 1;
        unsigned n = x->rlen / per;
        r->channel_mask = n >= 4 ? 0xfu : (1u << n) - 1;
        r->sampler_state = state_base(x) + (c->sampler_state & ~31u);
    }
    if (simd4x2 && !has_simd4x2_form(r->message))
        return false;
    if (x->gen < 7)
        return gen4_known;
    return message_on_gen(r->message, x->gen);
}

/* ---- state ---------------------------------------------------------------------- */

static bool read_state(struct smp_exec *x, uint64_t address, void *dst, size_t n)
{
    struct gt_error err;
    return gpu_address_space_read(&x->as, address, dst, n, &err) == 0;
}

/* Multisampled surfaces: whether an MCS is bound (Gen7 MCS Enable, Gen8 AUX_MCS,
 * Gen9 AUX_CCS_D on a multisampled surface: genxml's value 1 for both) and the
 * clear colour a cleared MCS value stands for (seed 003 L16884: "the sampling
 * engine ... resolves clear values"): Gen9 RENDER_SURFACE_STATE dwords 12-15
 * (floats for float formats, integers otherwise), Gen8 the 1-bit dword 7
 * fields (R 31, G 30, B 29, A 28). */
static void surface_msaa_info(struct smp_exec *x, const uint32_t *dw, struct smp_surface *sf)
{
    sf->has_mcs = sf->sd.samples > 1 &&
                  (sf->sd.aux_mode == SURFACE_AUX_MCS || sf->sd.aux_mode == SURFACE_AUX_CCS_D);
    /* a single-sampled Gen9 surface with its CCS: the sampler reads it ("Since
     * Sampler support reading this auxiliary (MCS) buffer for non-MSRTs,
     * resolve passes can be avoided", L16841) */
    sf->ccs = surface_aux_usage(&sf->sd) == SURFACE_AUX_USAGE_CCS;
    memset(&sf->clear, 0, sizeof sf->clear);
    if (!sf->fmt)
        return;
    sf->clear.kind = (enum format_value_kind)sf->fmt->value_kind;
    for (unsigned c = 0; c < 4; c++) {
        uint32_t bits = x->gen >= 9 ? dw[12 + c] : (dw[7] >> (31 - c)) & 1u;
        if (sf->clear.kind == FORMAT_VALUE_FLOAT) {
            float f = 0.0f;
            if (x->gen >= 9)
                memcpy(&f, &bits, 4);
            else
                f = bits ? 1.0f : 0.0f;
            sf->clear.f[c] = f;
        } else {
            sf->clear.u[c] = bits;
        }
    }
}

static void resolve_surface(struct smp_exec *x)
{
    struct smp *s = x->s;
    const struct eu_thread_context *c = x->ctx;
    uint32_t bti = x->req.surface_index;
    struct smp_surface *sf = &x->surf;
    memset(sf, 0, sizeof *sf);
    if (!c->valid)
        return;
    if (bti >= 240) {
        /* 252/253: bindless surface state offsets (L3472), not modelled */
        s->unsupported_messages++;
        smp_warn_once(s, x->u, 0, "sampler binding table index %u (bindless/reserved) not "
                      "modelled: null surface", bti, 0);
        return;
    }
    if (c->binding_table_entries && bti >= c->binding_table_entries) {
        s->bti_beyond_table++;
        smp_warn_once(s, x->u, 1, "sampler binding table index %u beyond the table's %u entries: "
                      "null surface", bti, c->binding_table_entries);
        return;
    }
    uint32_t entry, dw[16];
    unsigned bytes = x->gen >= 8 ? 64 : 32;
    if (!read_state(x, c->surface_state_base + c->binding_table + 4ull * bti, &entry, 4) ||
        !read_state(x, c->surface_state_base + (entry & (x->gen >= 8 ? ~63u : ~31u)), dw, bytes)) {
        s->state_faults++;
        smp_warn_once(s, x->u, 2, "sampler: binding table entry or surface state of BTI %u "
                      "unreadable: null surface", bti, 0);
        return;
    }
    if (surface_from_state(x->gen, dw, &sf->sd) != SURFACE_OK) {
        if (sf->sd.status == SURFACE_NO_ELEMENT_SIZE) {
            s->unsupported_formats++;
            smp_warn_once(s, x->u, 3, "sampler: surface format 0x%x not sampled (BTI %u): zeros",
                          sf->sd.format, bti);
        } else {
            s->state_faults++;
            smp_warn_once(s, x->u, 4, "sampler: surface state of BTI %u refused (status -%u): "
                          "null surface", bti, (uint32_t)-(int32_t)sf->sd.status);
        }
        return;
    }
    if (sf->sd.type == SURFACE_NULL)
        return;
    /* the sampler's levels are the view's MIP Count + 1 from Surface Min LOD
     * (L3132-3198: "Lod += SurfMinLod"): the addresses reach level SurfMinLod +
     * MIPCnt of the resource's chain */
    sf->sd.levels = sf->sd.min_lod + sf->sd.mip_count_lod + 1;
    struct spec_RENDER_SURFACE_STATE v;
    memset(&v, 0, sizeof v);
    if (x->gen >= 9)
        GEN9_RENDER_SURFACE_STATE_unpack_common(dw, &v);
    else if (x->gen == 8)
        GEN8_RENDER_SURFACE_STATE_unpack_common(dw, &v);
    if (x->gen >= 8) {
        sf->select[0] = (uint8_t)v.ShaderChannelSelectRed;
        sf->select[1] = (uint8_t)v.ShaderChannelSelectGreen;
        sf->select[2] = (uint8_t)v.ShaderChannelSelectBlue;
        sf->select[3] = (uint8_t)v.ShaderChannelSelectAlpha;
        sf->resource_min_lod = v.ResourceMinLOD;
    } else {
        /* Gen7 (Ivybridge) has no channel selects: identity (SCS_RED..SCS_ALPHA) */
        for (unsigned k = 0; k < 4; k++)
            sf->select[k] = (uint8_t)(4 + k);
    }
    /* the formats the sampler reads: bit-field formats format_unpack converts
     * and the block formats format_decode_block decodes */
    sf->fmt = format_describe(sf->sd.format);
    surface_msaa_info(x, dw, sf);
    uint8_t zero[16] = { 0 };
    struct format_value probe[16];
    if (sf->fmt && sf->fmt->block_width == 1 && sf->fmt->block_height == 1 &&
        format_unpack(sf->sd.format, zero, probe) == FORMAT_OK) {
        sf->valid = true;
    } else if (sf->fmt && format_decode_block_texel(sf->sd.format, zero, 0, 0, probe) == FORMAT_OK) {
        sf->valid = true;
        sf->compressed = true;
    } else {
        s->unsupported_formats++;
        smp_warn_once(s, x->u, 3, "sampler: surface format 0x%x not sampled (BTI %u): zeros",
                      sf->sd.format, bti);
    }
}

/* Whether an address mode needs the border colour (CLAMP_BORDER, HALF_BORDER). */
static bool uses_border(uint32_t mode)
{
    return mode == 4 || mode == 6;
}

static void resolve_sampler(struct smp_exec *x)
{
    struct smp *s = x->s;
    struct smp_sampler *sm = &x->samp;
    memset(sm, 0, sizeof *sm);
    uint32_t dw[4];
    uint64_t at = x->req.sampler_state + 16ull * x->req.sampler_index;
    if (!x->ctx->valid || !read_state(x, at, dw, sizeof dw)) {
        s->bad_sampler_state++;
        smp_warn_once(s, x->u, 5, "sampler: SAMPLER_STATE %u unreadable (pointer low 0x%x): zeros",
                      x->req.sampler_index, (uint32_t)at);
        return;
    }
    if (x->gen >= 9) {
        GEN9_SAMPLER_STATE_unpack_common(dw, &sm->st);
    } else if (x->gen == 8) {
        GEN8_SAMPLER_STATE_unpack_common(dw, &sm->st);
    } else if (x->gen == 4) {
        /* Gen4 (spec/data/gen4.xml): LOD PreClamp Enable as on Gen7 below */
        GEN4_SAMPLER_STATE_unpack_common(dw, &sm->st);
        sm->st.LODPreClampMode = sm->st.LODPreClampEnable ? 2 : 0;
        sm->st.LODClampMagnificationMode = 0;
    } else {
        /* Gen7 (spec/data/gen7.xml): LOD PreClamp Enable is the OpenGL-style
         * pre-clamp of the later PRECLAMP_OGL; there is no LOD Clamp
         * Magnification Mode (taken as MAG_CLAMP_MIPNONE, the field's 0: model
         * choice, the Gen7 LOD pseudocode is not in the seeds) and no reduction */
        GEN7_SAMPLER_STATE_unpack_common(dw, &sm->st);
        sm->st.LODPreClampMode = sm->st.LODPreClampEnable ? 2 : 0;
        sm->st.LODClampMagnificationMode = 0;
    }
    const struct spec_SAMPLER_STATE *st = &sm->st;
    /* reserved encodings (gen9.xml SAMPLER_STATE): Mip Mode Filter 2, map filters
     * other than NEAREST/LINEAR/ANISOTROPIC/MONO, address mode 7 */
    bool bad = st->MipModeFilter == 2 || st->TCXAddressControlMode == 7 ||
               st->TCYAddressControlMode == 7 || st->TCZAddressControlMode == 7;
    for (unsigned k = 0; k < 2; k++) {
        uint32_t f = k ? st->MinModeFilter : st->MagModeFilter;
        bad |= f != 0 && f != 1 && f != 2 && f != 6;
    }
    if (bad) {
        s->bad_sampler_state++;
        smp_warn_once(s, x->u, 6, "sampler: SAMPLER_STATE %u has reserved encodings (dword 0 "
                      "0x%x): zeros", x->req.sampler_index, dw[0]);
        return;
    }
    if (uses_border(st->TCXAddressControlMode) || uses_border(st->TCYAddressControlMode) ||
        uses_border(st->TCZAddressControlMode)) {
        if (!read_state(x, state_base(x) + st->BorderColorPointer, sm->border,
                        sizeof sm->border)) {
            s->bad_sampler_state++;
            smp_warn_once(s, x->u, 7, "sampler: border colour of SAMPLER_STATE %u unreadable "
                          "(pointer 0x%x): zeros", x->req.sampler_index,
                          (uint32_t)st->BorderColorPointer);
            return;
        }
    }
    sm->valid = true;
}

void smp_resolve(struct smp_exec *x, bool needs_sampler)
{
    resolve_surface(x);
    if (needs_sampler)
        resolve_sampler(x);
}
