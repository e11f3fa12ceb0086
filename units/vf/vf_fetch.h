/* units/vf/vf_fetch.h - the vertex fetcher's element core: where a vertex
 * element's source lies, and its source bytes turned into the four 32-bit
 * components the VF stores in the VUE. A library, pure: no unit, no memory
 * access (the VF unit reads the bytes through the L3 and hands them in).
 *
 * What is modelled
 * - The source formats the VF takes: exactly the rows of seed 003's table
 *   "Source Element Formats Supported in VF Unit" (L12053-12173; the seed spells
 *   SCALED "SSACLED"/"USACLED"), with the converted components each row makes
 *   available ('-' columns are not). Any other format is counted
 *   (unsupported_format) and stores nothing.
 * - Format conversion: the seed says "See Sampler for conversion algorithms"
 *   (003 L12049), so the values are format_unpack's (units/common/format.h):
 *   UNORM/SNORM to float, SINT/UINT extended to 32 bits, USCALED/SSCALED to the
 *   integer's float value, SFIXED 16.16, half/float11/float10/64-bit floats to
 *   float. The VF table lists R64G64B64_FLOAT with an A column; a component the
 *   source lacks reads 0 for R, G, B and 1.0 (or integer 1) for A, as the
 *   sampler's default (003 L5214).
 * - *_PASSTHRU (format NONE in the table): no conversion; component k is the
 *   k-th 32-bit little-endian dword of the element, so each 64-bit channel fills
 *   two components (inferred: the table's R/G columns cannot hold 64-bit values;
 *   components beyond 4 dwords of R64G64B64[A64]_PASSTHRU are not stored).
 * - Component controls (3D_Vertex_Component_Control; numbers from Mesa's genxml
 *   gen75.xml, Gen8+ drop STORE_VID/STORE_IID in favour of 3DSTATE_VF_SGVS):
 *   NOSTORE, STORE_SRC, STORE_0, STORE_1_FP (1.0f), STORE_1_INT (1), STORE_VID,
 *   STORE_IID, STORE_PID (003 L11976-11984, L12175-12179). Components are written
 *   from 0 up to the first NOSTORE; a store after a NOSTORE (a "hole", not
 *   permitted by L12179) is counted and not written. STORE_SRC of a '-' component
 *   is UNPREDICTABLE in hardware (L12177): counted, and the default above stored.
 * - Addressing (seed 001 L4928-4945, the VERTEX_ELEMENT loop; 003 L11893-11920):
 *   the structure index is the VertexIndex for vertex data, and for an
 *   instanced element StartInstanceLocation + InstanceID / InstanceDataStepRate
 *   (step rate 0: every instance reads structure StartInstanceLocation, 004
 *   3DSTATE_VF_INSTANCING). Address = StartingBufferAddress + index * pitch +
 *   SourceElementOffset. The buffer ends at StartingBufferAddress + BufferSize
 *   (003 L11903); "any access outside the extent of a VB returns 0" (L11893):
 *   an element not wholly inside reads as all-zero source bytes (001 L4944
 *   "srcData = 0"), which are then converted as usual; counted (out_of_bounds).
 *
 * The index buffer and VertexIndex generation are below (vf_index_*).
 *
 * Not modelled here: the edge flag (EdgeFlagEnable) and 3DSTATE_VF_SGVS /
 * VF_COMPONENT_PACKING placement (the VF unit's job), Gen4-Gen7's MaxIndex bound.
 */
#ifndef GTSIM_UNITS_VF_VF_FETCH_H
#define GTSIM_UNITS_VF_VF_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "spec_common.h"        /* generated: struct spec_VERTEX_ELEMENT_STATE */

enum vf_component_control {
    VFCOMP_NOSTORE = 0,
    VFCOMP_STORE_SRC = 1,
    VFCOMP_STORE_0 = 2,
    VFCOMP_STORE_1_FP = 3,
    VFCOMP_STORE_1_INT = 4,
    VFCOMP_STORE_VID = 5,
    VFCOMP_STORE_IID = 6,
    VFCOMP_STORE_PID = 7,
};

enum vf_value_kind { VF_VALUE_FLOAT, VF_VALUE_SINT, VF_VALUE_UINT, VF_VALUE_NONE };

/* One row of the VF's source format table. */
struct vf_source_format {
    uint16_t key;               /* SURFACE_FORMAT encoding */
    uint8_t kind;               /* enum vf_value_kind: the table's "Format" column */
    uint8_t available;          /* converted components 0..available-1 exist (the rest are '-') */
};

/* The row for `key`, NULL when the VF does not take that format. */
const struct vf_source_format *vf_source_format(unsigned key);
/* Bytes one element of that format occupies in the buffer (0 if unsupported). */
unsigned vf_source_bytes(unsigned key);

struct vf_fetch_counters {
    uint64_t unsupported_format;    /* a format not in the VF table (nothing stored) */
    uint64_t out_of_bounds;         /* element beyond BufferSize (read as zeros) */
    uint64_t unavailable_component; /* STORE_SRC of a '-' component */
    uint64_t component_hole;        /* a store after a NOSTORE */
    uint64_t invalid_control;       /* a control value with no meaning */
};

struct vf_generated_ids {
    uint32_t vertex_id, instance_id, primitive_id;
};

struct vf_element_result {
    uint32_t dwords[4];         /* destination components 0..3 */
    uint32_t write_mask;        /* bit k: component k is stored */
};

/* The vertex buffer as VERTEX_BUFFER_STATE gives it (Gen8+). */
struct vf_buffer {
    uint64_t base;              /* StartingBufferAddress */
    uint32_t pitch;             /* BufferPitch */
    uint32_t size;              /* BufferSize */
};

/* The structure index an element reads (001 L4930-4936). */
uint64_t vf_structure_index(bool instancing, uint32_t step_rate, uint32_t vertex_index,
                            uint32_t instance_id, uint32_t start_instance);

/* The element's address; false (and *address still set) when any of its
 * `bytes` lies at or beyond base + size. */
bool vf_element_address(const struct vf_buffer *buffer, uint64_t structure_index,
                        uint32_t element_offset, unsigned bytes, uint64_t *address);

/* Index buffer (3DSTATE_INDEX_BUFFER Index Format, numbers from Mesa's genxml
 * gen9.xml; "All index values are UNSIGNED", 004 L3700) and the VertexIndex
 * of a vertex (seed 001 L4836-4868, VertexIndexGeneration): SEQUENTIAL
 * VertexIndex = StartVertexLocation + VertexNumber; RANDOM reads the IB at
 * IBIndex = StartVertexLocation + VertexNumber and VertexIndex = IB value +
 * BaseVertexLocation (S31, RANDOM only, 001 L4744-4752), modulo 2^32. An index
 * read beyond the IB's BufferSize returns 0 (004 L631-634: "Access of any data
 * outside of the valid extent of a vertex or index buffer will return the value
 * 0"). Gen4's cut value is the index format's all-ones (001 L4872-4874); Gen7.5+
 * compare the 3DSTATE_VF Cut Index instead (004 L6501; its "possibly
 * sign-extended" comparison is not modelled: indices are zero-extended). */
enum vf_index_format { VF_INDEX_BYTE = 0, VF_INDEX_WORD = 1, VF_INDEX_DWORD = 2 };

unsigned vf_index_bytes(unsigned index_format);         /* 1, 2, 4; 0 if not a format */
uint32_t vf_index_all_ones(unsigned index_format);
/* The address of IB entry `ib_index`; false when it lies beyond base + size. */
bool vf_index_address(uint64_t base, uint32_t size, unsigned index_format, uint64_t ib_index,
                      uint64_t *address);
/* The index value from its bytes (little-endian), 0 when `bytes` is NULL (out of bounds). */
uint32_t vf_index_value(unsigned index_format, const uint8_t *bytes);
uint32_t vf_vertex_index(bool random, uint32_t start_vertex, int32_t base_vertex,
                         uint32_t vertex_number, uint32_t index_value);

/* One element: `source` holds vf_source_bytes(format) bytes, or is NULL when
 * the element is out of bounds (read as zeros, counted). Returns 0, or -1 when
 * the format is not one the VF takes (counted, nothing stored). An element
 * whose controls need no source (no STORE_SRC) ignores the format. */
int vf_fetch_element(const struct spec_VERTEX_ELEMENT_STATE *element, const uint8_t *source,
                     const struct vf_generated_ids *ids, struct vf_element_result *out,
                     struct vf_fetch_counters *counters);

#endif
