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

/* ---- vertex and coordinate shading on the QPU units (vc4_3d.h "queue_vertices") ---------- */

/* A batch of up to 16 vertices for a QPU unit: the VCD's fetch of their attributes (rows of the
 * batch's VPM segment, one column per vertex, @138512), the shader, and the rows its output
 * takes (Fig 11: 7 or 8 for the PTB; Fig 10: 3 or 4 + varyings for the PSE). */
struct vc4_vertex_job {
    uint8_t thread;                /* the CLE thread whose record needs them (0 binning) */
    bool coordinate;
    uint32_t code, uniforms;
    uint32_t count, index[16];
    uint32_t in_rows, out_rows, attribute_bytes;
    uint32_t in[VC4_VPM_ROWS][16];
};

/* The vertices a thread's next record needs, shaded on QPU units before it executes
 * (a hash table by index; words of a shaded vertex in VPM row order) */
struct vc4_vertex_cache {
    uint32_t *index;
    uint8_t *state;                /* 0 empty, 1 queued for a QPU, 2 shaded */
    uint32_t (*words)[VC4_VERTEX_WORDS];
    uint32_t *slots;               /* 2 x capacity hash slots: dense entry or ~0 */
    uint32_t capacity, count, pending;
    bool prepared;                 /* the record's batches are queued */
    uint32_t prepared_at;          /* the record's address */
    /* the batch being filled while the record is collected */
    struct vc4_vertex_job *filling;
};

#define VC4_VERTEX_CACHE_LIMIT 65536u  /* vertices of one record shaded on QPUs; the rest
                                          inside v3d (vertex_fallbacks) [chosen] */

/* Whether thread n's record at `at` (ID 32/33 binning, 48/49 rendering) has its vertices
 * shaded; queues their batches (vc4_vertex_queue_*) the first time it is asked */
bool vc4_3d_vertices_ready(struct vc4_3d *p, struct gpu_memory *mem, unsigned n, uint32_t at);
/* the record executed: its vertices are forgotten */
void vc4_3d_vertices_done(struct vc4_3d *p, unsigned n);
/* the vertex batch queue (oldest first) and a finished batch's output (words[v][row]) */
const struct vc4_vertex_job *vc4_vertex_queue_head(const struct vc4_3d *p);
void vc4_vertex_queue_pop(struct vc4_3d *p, struct vc4_vertex_job *out);
void vc4_vertex_job_done(struct vc4_3d *p, const struct vc4_vertex_job *j,
                         const uint32_t (*words)[VC4_VERTEX_WORDS]);
/* a batch no QPU may run: its vertices are shaded inside v3d when the record executes */
void vc4_vertex_job_fallback(struct vc4_3d *p, const struct vc4_vertex_job *j);

/* One varying's plane for a fragment batch: value = vp * W + c per lane */
struct vc4_fragment_batch {
    uint16_t lanes;                /* pixels present */
    uint8_t coverage[16];          /* samples covered (bit s: sample s; 0xf outside 4x MS) */
    uint32_t x[16], y[16];         /* frame pixel coordinates */
    uint32_t w[16], z[16];         /* float W, 24-bit Z */
    uint32_t vp[VC4_MAX_VARYINGS][16], c[VC4_MAX_VARYINGS][16];
    unsigned varyings;
    bool reverse;                  /* back facing */
};

/* Runs the fragment shader for a batch against the renderer's tile buffer (the functional
 * path: the shader runs on a QPU inside v3d) */
void vc4_shade_fragments(struct vc4_3d *p, struct gpu_memory *mem,
                         const struct vc4_shader_record *r, struct vc4_fragment_batch *b);

/* A fragment batch waiting for a QPU (the QPU-unit path): the shader and the state it runs
 * with */
struct vc4_fragment_job {
    struct vc4_fragment_batch batch;
    uint32_t fs_code, fs_uniforms, config_bits;
    bool threaded;                 /* record flags bit 0 clear: "FS single thread" not set */
};

/* queues a batch (counts it as shaded); the oldest job, and its removal */
void vc4_fragment_queue_push(struct vc4_3d *p, const struct vc4_shader_record *r,
                             const struct vc4_fragment_batch *b);
const struct vc4_fragment_job *vc4_fragment_queue_head(const struct vc4_3d *p);
void vc4_fragment_queue_pop(struct vc4_3d *p, struct vc4_fragment_job *out);

/* The tile buffer side of one fragment shader thread: what the FEP handed it (the batch), the
 * varyings it has read, the pixels still alive after its Z/stencil test and its stencil
 * set-up (Tables 27, 28). The functional path and the QPU units' "tlb" messages (v3d) both
 * act on the tile buffer through these. `config_bits` is the Configuration Bits record (96)
 * in force when the FEP made the batch. */
struct vc4_fragment_thread {
    const struct vc4_fragment_batch *batch;
    uint32_t config_bits;
    unsigned next_varying;
    uint16_t coverage;             /* lanes with a sample still alive */
    uint8_t samples[16];           /* each lane's live samples (MS_FLAGS) */
    unsigned colour_loads, colour_ms_writes;   /* the next sample of each (4x MS) */
    bool stencil_enabled;
    uint32_t stencil_config[2];    /* front, back (Table 27) */
    uint8_t stencil_write_mask[2];
};

void vc4_fragment_begin(struct vc4_fragment_thread *f, const struct vc4_fragment_batch *b,
                        uint32_t config_bits);
/* A read of VARYING_READ (35), X/Y_PIXEL_COORD (41), MS_FLAGS/REV_FLAG (42); false (counted
 * in unsupported) for other registers or a varying past the batch's count */
bool vc4_fragment_read(struct vc4_3d *p, struct vc4_fragment_thread *f, unsigned raddr,
                       bool file_b, uint32_t value[16], uint32_t c_coefficient[16]);
/* A write of TLB_STENCIL_SETUP (43), TLB_Z (44), TLB_COLOUR_MS/ALL (45, 46); false for
 * other registers (the caller counts them) */
bool vc4_fragment_write(struct vc4_3d *p, struct vc4_fragment_thread *f, unsigned waddr,
                        const uint32_t value[16], uint16_t lanes);
/* Colour Load (sig 8, 9): the tile buffer's colour of the thread's pixels */
void vc4_fragment_colour_load(struct vc4_3d *p, struct vc4_fragment_thread *f,
                              uint32_t value[16]);

#endif
