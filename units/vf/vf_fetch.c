/* units/vf/vf_fetch.c - vertex element addressing and conversion (vf_fetch.h). */
#include "units/vf/vf_fetch.h"

#include <string.h>

#include "units/common/format.h"

#define ROW(name, kind, n) { SURFACE_FORMAT_##name, VF_VALUE_##kind, n }

/* Seed 003 L12053-12173, in the seed's order; n = the count of components not
 * marked '-' (every row's available components are a prefix). */
static const struct vf_source_format vf_formats[] = {
    ROW(R32G32B32A32_FLOAT, FLOAT, 4), ROW(R32G32B32A32_SINT, SINT, 4),
    ROW(R32G32B32A32_UINT, UINT, 4), ROW(R32G32B32A32_UNORM, FLOAT, 4),
    ROW(R32G32B32A32_SNORM, FLOAT, 4), ROW(R64G64_FLOAT, FLOAT, 2),
    ROW(R32G32B32A32_SSCALED, FLOAT, 4), ROW(R32G32B32A32_USCALED, FLOAT, 4),
    ROW(R32G32B32A32_SFIXED, FLOAT, 4), ROW(R64G64_PASSTHRU, NONE, 2),
    ROW(R32G32B32_FLOAT, FLOAT, 3), ROW(R32G32B32_SINT, SINT, 3),
    ROW(R32G32B32_UINT, UINT, 3), ROW(R32G32B32_UNORM, FLOAT, 3),
    ROW(R32G32B32_SNORM, FLOAT, 3), ROW(R32G32B32_SSCALED, FLOAT, 3),
    ROW(R32G32B32_USCALED, FLOAT, 3), ROW(R32G32B32_SFIXED, FLOAT, 3),
    ROW(R16G16B16A16_UNORM, FLOAT, 4), ROW(R16G16B16A16_SNORM, FLOAT, 4),
    ROW(R16G16B16A16_SINT, SINT, 4), ROW(R16G16B16A16_UINT, UINT, 4),
    ROW(R16G16B16A16_FLOAT, FLOAT, 4), ROW(R32G32_FLOAT, FLOAT, 2),
    ROW(R32G32_SINT, SINT, 2), ROW(R32G32_UINT, UINT, 2),
    ROW(R32G32_UNORM, FLOAT, 2), ROW(R32G32_SNORM, FLOAT, 2),
    ROW(R64_FLOAT, FLOAT, 1), ROW(R16G16B16A16_SSCALED, FLOAT, 4),
    ROW(R16G16B16A16_USCALED, FLOAT, 4), ROW(R32G32_SSCALED, FLOAT, 2),
    ROW(R32G32_USCALED, FLOAT, 2), ROW(R32G32_SFIXED, FLOAT, 2),
    ROW(R64_PASSTHRU, NONE, 1),
    ROW(B8G8R8A8_UNORM, FLOAT, 4), ROW(R10G10B10A2_UNORM, FLOAT, 4),
    ROW(R10G10B10A2_UINT, UINT, 4), ROW(R10G10B10_SNORM_A2_UNORM, FLOAT, 4),
    ROW(R8G8B8A8_UNORM, FLOAT, 4), ROW(R8G8B8A8_SNORM, FLOAT, 4),
    ROW(R8G8B8A8_SINT, SINT, 4), ROW(R8G8B8A8_UINT, UINT, 4),
    ROW(R16G16_UNORM, FLOAT, 2), ROW(R16G16_SNORM, FLOAT, 2),
    ROW(R16G16_SINT, SINT, 2), ROW(R16G16_UINT, UINT, 2),
    ROW(R16G16_FLOAT, FLOAT, 2), ROW(B10G10R10A2_UNORM, FLOAT, 4),
    ROW(R11G11B10_FLOAT, FLOAT, 3), ROW(R32_SINT, SINT, 1),
    ROW(R32_UINT, UINT, 1), ROW(R32_FLOAT, FLOAT, 1),
    ROW(R32_UNORM, FLOAT, 1), ROW(R32_SNORM, FLOAT, 1),
    ROW(R10G10B10X2_USCALED, FLOAT, 3), ROW(R8G8B8A8_SSCALED, FLOAT, 4),
    ROW(R8G8B8A8_USCALED, FLOAT, 4), ROW(R16G16_SSCALED, FLOAT, 2),
    ROW(R16G16_USCALED, FLOAT, 2), ROW(R32_SSCALED, FLOAT, 1),
    ROW(R32_USCALED, FLOAT, 1), ROW(R8G8_UNORM, FLOAT, 2),
    ROW(R8G8_SNORM, FLOAT, 2), ROW(R8G8_SINT, SINT, 2),
    ROW(R8G8_UINT, UINT, 2), ROW(R16_UNORM, FLOAT, 1),
    ROW(R16_SNORM, FLOAT, 1), ROW(R16_SINT, SINT, 1),
    ROW(R16_UINT, UINT, 1), ROW(R16_FLOAT, FLOAT, 1),
    ROW(R8G8_SSCALED, FLOAT, 2), ROW(R8G8_USCALED, FLOAT, 2),
    ROW(R16_SSCALED, FLOAT, 1), ROW(R16_USCALED, FLOAT, 1),
    ROW(R8_UNORM, FLOAT, 1), ROW(R8_SNORM, FLOAT, 1),
    ROW(R8_SINT, SINT, 1), ROW(R8_UINT, UINT, 1),
    ROW(R8_SSCALED, FLOAT, 1), ROW(R8_USCALED, FLOAT, 1),
    ROW(R8G8B8_UNORM, FLOAT, 3), ROW(R8G8B8_SNORM, FLOAT, 3),
    ROW(R8G8B8_SSCALED, FLOAT, 3), ROW(R8G8B8_USCALED, FLOAT, 3),
    ROW(R8G8B8_SINT, SINT, 3), ROW(R8G8B8_UINT, UINT, 3),
    ROW(R64G64B64A64_FLOAT, FLOAT, 4), ROW(R64G64B64_FLOAT, FLOAT, 4),
    ROW(R16G16B16_FLOAT, FLOAT, 3), ROW(R16G16B16_UNORM, FLOAT, 3),
    ROW(R16G16B16_SNORM, FLOAT, 3), ROW(R16G16B16_SSCALED, FLOAT, 3),
    ROW(R16G16B16_USCALED, FLOAT, 3), ROW(R16G16B16_UINT, UINT, 3),
    ROW(R16G16B16_SINT, SINT, 3), ROW(R32_SFIXED, FLOAT, 1),
    ROW(R10G10B10A2_SNORM, FLOAT, 4), ROW(R10G10B10A2_USCALED, FLOAT, 4),
    ROW(R10G10B10A2_SSCALED, FLOAT, 4), ROW(R10G10B10A2_SINT, SINT, 4),
    ROW(B10G10R10A2_SNORM, FLOAT, 4), ROW(B10G10R10A2_USCALED, FLOAT, 4),
    ROW(B10G10R10A2_SSCALED, FLOAT, 4), ROW(B10G10R10A2_UINT, UINT, 4),
    ROW(B10G10R10A2_SINT, SINT, 4), ROW(R64G64B64A64_PASSTHRU, NONE, 4),
    ROW(R64G64B64_PASSTHRU, NONE, 3),
};

const struct vf_source_format *vf_source_format(unsigned key)
{
    for (unsigned i = 0; i < sizeof vf_formats / sizeof vf_formats[0]; i++)
        if (vf_formats[i].key == key)
            return &vf_formats[i];
    return NULL;
}

unsigned vf_source_bytes(unsigned key)
{
    const struct format_desc *desc = vf_source_format(key) ? format_describe(key) : NULL;
    return desc ? format_block_bytes(desc) : 0;
}

uint64_t vf_structure_index(bool instancing, uint32_t step_rate, uint32_t vertex_index,
                            uint32_t instance_id, uint32_t start_instance)
{
    if (!instancing)
        return vertex_index;
    uint64_t index = start_instance;
    if (step_rate > 0)
        index += instance_id / step_rate;
    return index;
}

bool vf_element_address(const struct vf_buffer *buffer, uint64_t structure_index,
                        uint32_t element_offset, unsigned bytes, uint64_t *address)
{
    uint64_t offset = structure_index * buffer->pitch + element_offset;
    *address = buffer->base + offset;
    return offset + bytes <= buffer->size;
}

unsigned vf_index_bytes(unsigned index_format)
{
    return index_format <= VF_INDEX_DWORD ? 1u << index_format : 0;
}

uint32_t vf_index_all_ones(unsigned index_format)
{
    unsigned bytes = vf_index_bytes(index_format);
    return bytes == 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1;
}

bool vf_index_address(uint64_t base, uint32_t size, unsigned index_format, uint64_t ib_index,
                      uint64_t *address)
{
    unsigned bytes = vf_index_bytes(index_format);
    *address = base + ib_index * bytes;
    return bytes != 0 && (ib_index + 1) * bytes <= size;
}

uint32_t vf_index_value(unsigned index_format, const uint8_t *bytes)
{
    unsigned count = vf_index_bytes(index_format);
    uint32_t value = 0;
    for (unsigned i = 0; bytes && i < count; i++)
        value |= (uint32_t)bytes[i] << (8 * i);
    return value;
}

uint32_t vf_vertex_index(bool random, uint32_t start_vertex, int32_t base_vertex,
                         uint32_t vertex_number, uint32_t index_value)
{
    if (!random)
        return start_vertex + vertex_number;
    return index_value + (uint32_t)base_vertex;
}

/* The converted components of the source: 4 dwords, and how many exist. */
static int convert_source(unsigned key, const uint8_t *source, uint32_t dwords[4])
{
    const struct vf_source_format *row = vf_source_format(key);
    unsigned bytes = vf_source_bytes(key);
    if (!row || bytes == 0)
        return -1;
    uint8_t zeros[32] = { 0 };
    const uint8_t *bytes_in = source ? source : zeros;
    if (row->kind == VF_VALUE_NONE) {
        /* passthrough: raw dwords, at most four of them */
        for (unsigned k = 0; k < 4; k++) {
            dwords[k] = 0;
            if (4 * k + 4 <= bytes)
                memcpy(&dwords[k], bytes_in + 4 * k, 4);
        }
        return 0;
    }
    struct format_value value;
    if (format_unpack(key, bytes_in, &value) != FORMAT_OK)
        return -1;
    memcpy(dwords, value.u, sizeof value.u);
    return 0;
}

static unsigned available_components(unsigned key)
{
    const struct vf_source_format *row = vf_source_format(key);
    if (!row)
        return 0;
    return row->kind == VF_VALUE_NONE ? (row->available * 2u > 4u ? 4u : row->available * 2u)
                                      : row->available;
}

int vf_fetch_element(const struct spec_VERTEX_ELEMENT_STATE *element, const uint8_t *source,
                     const struct vf_generated_ids *ids, struct vf_element_result *out,
                     struct vf_fetch_counters *counters)
{
    const uint32_t controls[4] = { element->Component0Control, element->Component1Control,
                                   element->Component2Control, element->Component3Control };
    memset(out, 0, sizeof *out);

    bool needs_source = false;
    for (unsigned k = 0; k < 4; k++)
        needs_source = needs_source || controls[k] == VFCOMP_STORE_SRC;
    uint32_t converted[4] = { 0 };
    if (needs_source) {
        if (convert_source(element->SourceElementFormat, source, converted) != 0) {
            counters->unsupported_format++;
            return -1;
        }
        if (!source)
            counters->out_of_bounds++;
    }

    unsigned available = available_components(element->SourceElementFormat);
    bool stopped = false;
    for (unsigned k = 0; k < 4; k++) {
        uint32_t value;
        switch (controls[k]) {
        case VFCOMP_NOSTORE:
            stopped = true;
            continue;
        case VFCOMP_STORE_SRC:
            if (k >= available)
                counters->unavailable_component++;
            value = converted[k];
            break;
        case VFCOMP_STORE_0: value = 0; break;
        case VFCOMP_STORE_1_FP: value = 0x3f800000u; break;
        case VFCOMP_STORE_1_INT: value = 1; break;
        case VFCOMP_STORE_VID: value = ids->vertex_id; break;
        case VFCOMP_STORE_IID: value = ids->instance_id; break;
        case VFCOMP_STORE_PID: value = ids->primitive_id; break;
        default:
            counters->invalid_control++;
            continue;
        }
        if (stopped) {
            counters->component_hole++;
            continue;
        }
        out->dwords[k] = value;
        out->write_mask |= 1u << k;
    }
    return 0;
}
