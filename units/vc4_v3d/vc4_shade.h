/* units/vc4_v3d/vc4_shade.h - vertex fetch (VCD) and the shaders of the 3D pipeline run on a
 * functional QPU (isa/vc4/qpu_exec); see vc4_3d.h for what is and is not modelled. */
#ifndef GTSIM_UNITS_VC4_SHADE_H
#define GTSIM_UNITS_VC4_SHADE_H

#include "units/vc4_v3d/vc4_3d.h"

#define VC4_VPM_ROWS 64
#define VC4_VERTEX_WORDS 64

/* A GL shader state record (Table 45 @174647) as read from memory */
struct vc4_shader_record {
    uint16_t flags;                /* bit 2 clipping, bit 1 point size, bit 0 FS single thread */
    uint8_t fs_varyings;
    uint32_t fs_code, fs_uniforms;
    uint8_t select[2], attribute_bytes[2];   /* [0] VS, [1] CS */
    uint32_t code[2], uniforms[2];
    uint32_t attribute_count;
    struct {
        uint32_t base, bytes, stride;
        uint8_t vpm_offset[2];
    } attribute[8];
};

bool vc4_read_shader_record(struct vc4_3d *p, const struct gpu_memory *mem, uint32_t state,
                            struct vc4_shader_record *r);

/* Fetches and shades n (<= 16) vertices by index with the coordinate shader (coordinate =
 * true, Fig 11 layout) or the vertex shader (Fig 10); out[v][w] = word w of vertex v. */
bool vc4_shade_vertices(struct vc4_3d *p, struct gpu_memory *mem,
                        const struct vc4_shader_record *r, bool coordinate,
                        const uint32_t *index, unsigned n, uint32_t out[][VC4_VERTEX_WORDS]);

/* One varying's plane for a fragment batch: value = vp * W + c per lane */
struct vc4_fragment_batch {
    uint16_t lanes;                /* pixels present */
    uint32_t x[16], y[16];         /* frame pixel coordinates */
    uint32_t w[16], z[16];         /* float W, 24-bit Z */
    uint32_t vp[VC4_MAX_VARYINGS][16], c[VC4_MAX_VARYINGS][16];
    unsigned varyings;
    bool reverse;                  /* back facing */
};

/* Runs the fragment shader for a batch against the renderer's tile buffer */
void vc4_shade_fragments(struct vc4_3d *p, struct gpu_memory *mem,
                         const struct vc4_shader_record *r, struct vc4_fragment_batch *b);

#endif
