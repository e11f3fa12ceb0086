/* units/vc4_v3d/vc4_3d.h - the VideoCore IV 3D pipeline behind the control list executor:
 * the primitive tile binner (PTB) of the binning thread and the tile renderer (PSE, FEP, the
 * fragment shading and the tile buffer, TLB) of the rendering thread (seed 002 Sec 8 @140658,
 * Sec 5 @108711, Sec 6 @120083, Sec 7 @123648, Sec 9 @149054; notes 002-videocore4.md §2.4,
 * §4.2-4.5, §7). The CLE (vc4_cle.c) hands every record it executes to vc4_bin_record (binning
 * thread) or vc4_render_record (rendering thread).
 *
 * What it models (functionally, one record at a time as the CLE executes it):
 *  - state records of both lists (Table 38: 56, 64, 96-106, 112-115) kept as the PTB's and the
 *    renderer's current state;
 *  - vertex fetch (VCD) and shading: the attribute arrays a GL shader record selects (Table 45
 *    @174647) are loaded, one vertex per VPM column (@138512), and the coordinate shader
 *    (binning) or vertex shader (rendering) runs on a functional QPU (isa/vc4/qpu_exec, batches
 *    of up to 16 vertices), its VPM reads and writes served from that batch's VPM segment, or
 *    (queue_vertices, set by vc4_v3d) on the QPU units through the VPM unit (vc4_v3d.h); the
 *    output is read in the layouts of Fig 11 (PTB input) and Fig 10 (PSE input);
 *  - the PTB: GL_ARRAY (33) and GL_INDEXED (32) primitives in every GL mode (points, lines,
 *    loops, strips, triangles, strips, fans), trivial rejection against the clip volume,
 *    near-plane clipping of triangles by the PTB (the seed's Clipped Primitive record 49,
 *    Table 44 @173368; the algorithm is chosen, see vc4_ptb.c: Zc >= -Wc and Wc > 0, a fan of
 *    49 records whose clipped vertices carry XS, YS, ZS, 1/WC and the weights of the original
 *    vertices for the varyings; the renderer substitutes them), the same for triangles
 *    crossing the guard band (the 12.4 XS/YS range) and for lines (segments clipped, one 49
 *    record), points rejected by their centre (vc4_ptb.c, chosen), facing culling (config bits 0-2), the tiles a primitive's bounding box touches, and the tile lists
 *    written in the hardware's formats: the state records a tile has not seen yet, Primitive
 *    List Format (56), GL Shader State (64) and Compressed Primitive List (48) records with
 *    absolute-index codings (Tables 39-41, code 129), escape (128) before the next record; lists
 *    start at tile_alloc + 32 x tile index (vc4-submit.md §7) and continue in 128-byte blocks
 *    from the pool after the initial blocks through a Branch (16); Flush (4) caps every list
 *    with Return from sub-list (18); when the pool is used up the PTB takes the overspill
 *    memory of V3D_BPOA/BPOS (BPOS then reads 0, counted as overspill_taken), and with none
 *    left it is out of memory (BMOOM, OUTOMEM: counted as bin_out_of_memory);
 *  - the renderer: Tile Rendering Mode Configuration (113), Clear Colors (114), Tile
 *    Coordinates (115) with the pending load, loads (27, 29) and stores (24, 25, 26, 28) of
 *    colour (rgba8888 and bgr565, raster/T/LT formats, Sec 11 @214806) and Z/stencil, the clear
 *    after a store; the tile lists' compressed primitives decoded (all codings of Tables 39-41);
 *  - 4x multisampling (113 bit 0 / 112 bit 0, @41508): 32 x 32 pixel tiles of four samples
 *    (vc4_tile_entry, sample positions there), per-sample coverage when the Configuration
 *    Bits ask for 4x oversampling, one fragment shader run a pixel with the mask in MS_FLAGS,
 *    Z/stencil tested and written per sample at TLB_Z, TLB_COLOUR_ALL to the live samples and
 *    TLB_COLOUR_MS / Colour Load one sample each in order; general and resolved stores write
 *    sample 0 or the decimated (averaged) pixel, loads fill all samples, full-resolution
 *    dumps (26, 27) move all 4096 samples;
 *  - primitive setup and rasterization: triangles with edge functions in the 12.4 screen
 *    coordinates (@139741), pixel centres at +1/2, a top-left-style tie rule [chosen: the seed
 *    gives no fill rule, notes §5 "not specified"]; lines as one pixel per column (x-major) or
 *    row (y-major) over the half-open span [chosen]; points as squares of the point size centred
 *    on the vertex; the clip window and the tile bound every primitive;
 *  - fragment shading on the slice QPU units (queue_fragments, set by vc4_v3d when its "qpu" and
 *    "tlb" ports are linked): the FEP queues each batch of 16 pixels with the shader and the
 *    configuration bits in force; the unit starts them on QPUs (vc4_v3d.h) and their TLB
 *    accesses act on the tile buffer through vc4_fragment_read/write/colour_load; the
 *    rendering thread goes on with primitive lists and state records while batches run and
 *    waits before any other record (tile coordinates, loads, stores) until all are done, or
 *    while VC4_FRAGMENT_QUEUE_LIMIT batches wait;
 *  - or (the functional path) 16 pixels (4 quads) a run on a functional QPU, with W in ra15 and Z in
 *    rb15 (Table 29), X/Y_PIXEL_COORD, MS_FLAGS and REV_FLAG reads, varyings read as
 *    VP = (A(x-x0) + B(y-y0)) and C in r5 so that VP*W + C is the perspective-correct value
 *    (@121296, notes A11), flat-shaded varyings (97) with VP = 0; TLB_Z runs the depth and
 *    stencil tests (Table 27) and updates Z/stencil, TLB_COLOUR_ALL/MS write the passing pixels,
 *    Color Load signals read the tile buffer into r4 (@108711); Z test and Z updates follow the
 *    configuration bits (96).
 * Timing [chosen, from the seed's figures, notes §6]: the work a record causes holds its CLE
 * thread for that many cycles before the next record: a functional shader batch takes its
 * executed instructions x 4 clocks (@43385) spread over the 12 QPUs (rounded up; fragment
 * batches on the QPU units take the time the units take instead); the PTB and the PSE
 * 10 clocks a primitive ("25 Mtri/s" at 250 MHz, @35155); the FEP 4 pixels a clock (@39361)
 * over the pixels a primitive covers; a tile load or store 4 pixels a clock over the tile (the
 * seed gives no TLB store bandwidth). Stats: bin/render work cycles, cycles each thread was
 * held, instructions by shader kind, the longest tile (work between two tile stores).
 * Not modelled: 16x (decimate x16 and oversample 16x are counted in multisample_ignored and
 * done as 4x), HDR (64-bit) colour, the VG paths (41, 42, 65-67), the coverage
 * pipe, depth offset, early-Z as a separate buffer (the Z test is exact at the TLB_Z write),
 * the PTB's halt while out of memory until the host writes BPOS (the primitive is dropped,
 * counted as bin_out_of_memory), the SPILLUSE/OUTOMEM interrupts themselves, the TSDA
 * contents, dithering of bgr565.
 */
#ifndef GTSIM_UNITS_VC4_3D_H
#define GTSIM_UNITS_VC4_3D_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"

#define VC4_TILE_MAX 64            /* non-MS 32bpp tile: 64 x 64 (notes A19) */
#define VC4_MAX_VARYINGS 32
#define VC4_MAX_TILES_SIDE 64      /* 8-bit tile counts in 112; 2048 px / 32 */
#define VC4_MAX_SURFACES 16

/* State records shared by both lists (Table 38) */
struct vc4_gl_state {
    uint32_t config_bits;          /* 96 */
    uint32_t flat_shade;           /* 97 */
    uint32_t point_size, line_width;   /* 98, 99: float32 bits */
    uint32_t depth_offset;         /* 101 */
    uint32_t clip_left, clip_bottom, clip_width, clip_height;  /* 102 */
    int32_t viewport_x, viewport_y;    /* 103: 12.4 */
    uint32_t scale_x, scale_y;     /* 105: float32 bits, 1/16 px */
    uint32_t z_scale, z_offset;    /* 106 */
    uint32_t z_min, z_max;         /* 104 */
    uint8_t list_format;           /* 56 */
    uint32_t shader_state;         /* 64: record address bits 31:4, extended 3, count 2:0 */
    bool have_shader;
};

/* A surface a store wrote (for --images) */
struct vc4_written_surface {
    uint32_t address, width, height;
    uint8_t memory_format;         /* 0 raster, 1 T, 2 LT */
    uint8_t colour_format;         /* 0 rgba8888, 1 bgr565 (store enum of 28) */
    uint32_t stores;
};

struct vc4_3d_stats {
    uint64_t primitives_in, primitives_binned, primitives_culled, primitives_rejected;
    uint64_t primitives_unclipped, tile_list_bytes, tile_list_blocks, bin_out_of_memory;
    uint64_t coordinate_shader_runs, vertex_shader_runs, fragment_shader_runs;
    uint64_t vertices_fetched, attribute_faults, shader_faults, shader_watchdogs;
    uint64_t tiles_rendered, fragments_shaded, fragments_written, depth_failed;
    uint64_t primitives_rendered, loads, stores, bad_records, unsupported, multisample_ignored;
    uint64_t index_faults;
    uint64_t primitives_clipped;   /* triangles the PTB clipped at the near plane (49 records) */
    /* fragment shading on the QPU units (v3d dispatches the queued batches) */
    uint64_t fragment_dispatches, fragment_fallbacks, scoreboard_wait_cycles;
    uint64_t fragment_queue_wait_cycles, fragment_queue_max, tlb_bad_messages;
    uint64_t overspill_taken;
    /* vertex and coordinate shading on the QPU units */
    uint64_t vertex_dispatches, coordinate_dispatches, vertex_fallbacks, vertex_wait_cycles[2];
    uint64_t vpm_allocation_wait_cycles, vcd_cycles, vcd_rows, vpm_rows_read;
    /* timing (see "Timing" above) */
    uint64_t bin_work_cycles, render_work_cycles, held_cycles[2];
    uint64_t coordinate_instructions, vertex_instructions, fragment_instructions;
    uint64_t tile_cycles_max, tile_cycles_last, render_work_at_tile_start;
};

struct vc4_tile_list {
    uint32_t write;                /* next byte to write */
    uint32_t end;                  /* end of the current block (room kept for a branch) */
    uint32_t state_serial;         /* the binner state this list has seen */
    bool in_compressed;            /* inside a 48 record (needs an escape) */
    bool full;
};

struct vc4_bin {
    struct vc4_gl_state gl;
    uint32_t tile_alloc, tile_alloc_size, tsda;
    uint32_t tiles_x, tiles_y;
    uint32_t tile_size;
    bool configured, multisample;
    uint32_t pool, pool_end;       /* the next 128-byte block */
    uint32_t state_serial;
    struct vc4_tile_list list[VC4_MAX_TILES_SIDE * VC4_MAX_TILES_SIDE];
};

struct vc4_render {
    struct vc4_gl_state gl;
    /* 113 */
    uint32_t frame_address, width, height, mode_bits;
    /* 114 */
    uint32_t clear_colour, clear_zs, clear_vg, clear_stencil;
    /* the current tile; samples 4 in 4x multisample mode (113 bit 0), else 1 */
    uint32_t tile_x, tile_y, tile_size, samples;
    bool have_tile;
    /* load set by 27/29, done at the next 115 */
    bool load_pending;
    uint8_t load_record[8];
    /* a Clipped Primitive record (49) for the first primitive of its list: data address | flags */
    uint32_t clipped_word;
    /* tile buffer: colour words, Z (24 bits), stencil; one entry a sample (vc4_tile_entry) */
    uint32_t colour[VC4_TILE_MAX * VC4_TILE_MAX];
    uint32_t depth[VC4_TILE_MAX * VC4_TILE_MAX];
    uint8_t stencil[VC4_TILE_MAX * VC4_TILE_MAX];
    struct vc4_written_surface surfaces[VC4_MAX_SURFACES];
    uint32_t surface_count;
};

struct vc4_fragment_job;           /* vc4_shade.h */
struct vc4_vertex_job;
struct vc4_vertex_cache;

struct vc4_3d {
    struct vc4_bin bin;
    struct vc4_render render;
    struct vc4_3d_stats stats;
    uint32_t address_mask;
    /* cycles of pipeline work a thread still owes before its next record ([0] binning) */
    uint64_t owed[2];
    unsigned shading_qpus;         /* QPUs the shader batches spread over */
    /* Fragment batches for the QPU units: when queue_fragments is set the FEP queues each
     * batch (a ring, grown as needed) instead of shading it here; the unit (vc4_v3d.c) starts
     * them on QPUs and counts those running in fragments_in_flight. */
    bool queue_fragments;
    /* the binner's overspill memory (V3D_BPOA/BPOS, Table 60ff, notes 002 §4.6): taken when
     * the tile allocation's pool runs out, which sets BPOS to 0 (SPILLUSE); with BPOS 0 the PTB
     * is out of memory (BMOOM, OUTOMEM) until the host writes BPOS again */
    uint32_t bpoa, bpos;
    bool bmoom;
    struct vc4_fragment_job *jobs;
    uint32_t job_head, job_count, job_capacity;
    uint32_t fragments_in_flight;
    /* Vertex and coordinate shading on the QPU units (set by vc4_v3d when its "vpm" ports are
     * linked): before the CLE executes a primitive record (32/33 binning, 48/49 rendering)
     * the record is walked once to collect the vertices it needs (collecting = thread + 1:
     * nothing is binned or drawn, the stats are kept as they were), their batches are queued
     * here for the unit to run on QPUs through the VPM, and the thread waits until every
     * batch's output is back in its cache[thread]; then the record executes with those. */
    bool queue_vertices;
    unsigned collecting;
    struct vc4_vertex_cache *vertex_cache;   /* [2] */
    struct vc4_vertex_job *vertex_jobs;
    uint32_t vertex_head, vertex_count, vertex_capacity;
};

void vc4_3d_init(struct vc4_3d *p, uint32_t address_mask);

/* 4x multisampling (seed 002 @41508: "32 x 32 pixel tiles in 4x multisample mode or 64 x 64
 * pixel tiles in non-multisample", the same 4096 samples): the tile buffer entry of sample s
 * of frame pixel (x, y) of the current tile. Non-multisample: rows of 64 pixels; 4x: 32 x 32
 * pixels in raster order, four entries a pixel (4 k + s) [chosen: the seed gives no internal
 * order]. The sample positions, in 1/16 pixel from the pixel's corner at (x, y) (y up),
 * are (10, 2), (2, 6), (14, 10), (6, 14) [ext: the seed gives none ("MS sample positions" is
 * an open point in notes 002); these are the rotated grid Mesa's v3d driver reports for
 * V3D 3.3, VideoCore IV's successor: x = 1/2 + {1, -3, 3, -1}/8, y = 1/8 + s/4]. */
#define VC4_MS_SAMPLES 4
extern const uint8_t vc4_sample_position[VC4_MS_SAMPLES][2];
static inline unsigned vc4_tile_entry(const struct vc4_render *t, uint32_t x, uint32_t y,
                                      unsigned sample)
{
    uint32_t tx = x - t->tile_x * t->tile_size, ty = y - t->tile_y * t->tile_size;
    if (t->samples == VC4_MS_SAMPLES)
        return ((ty % 32) * 32 + tx % 32) * VC4_MS_SAMPLES + sample % VC4_MS_SAMPLES;
    return (ty % VC4_TILE_MAX) * VC4_TILE_MAX + tx % VC4_TILE_MAX;
}
/* frees the fragment queue (vc4_3d_init starts an empty one) */
void vc4_3d_release(struct vc4_3d *p);
/* fragment batches queued or running on QPUs: the tile buffer is not final until 0 */
uint32_t vc4_3d_fragments_busy(const struct vc4_3d *p);
/* a record the rendering thread may execute while fragment batches are still being shaded
 * (primitive lists and the state they use, which each batch keeps a copy of); every other
 * record (tile coordinates, loads, stores, semaphores, halt) waits for them */
bool vc4_render_record_passes_fragments(uint8_t id);
#define VC4_FRAGMENT_QUEUE_LIMIT 64u   /* batches queued before the CLE waits [chosen] */
/* A record the binning thread executed (record = ID and payload) */
void vc4_bin_record(struct vc4_3d *p, struct gpu_memory *mem, const uint8_t *record);
/* A record the rendering thread executed; for 48 (variable length) the bytes the compressed
 * list takes after its ID, read from at (returns 0 when it runs off memory) */
void vc4_render_record(struct vc4_3d *p, struct gpu_memory *mem, const uint8_t *record);
uint32_t vc4_render_compressed(struct vc4_3d *p, struct gpu_memory *mem, uint32_t at);
/* 49: the word after the ID (clipped data address | flags) read at `at`, then its compressed
 * list; returns the bytes after the ID (0 when it runs off memory) */
uint32_t vc4_render_clipped(struct vc4_3d *p, struct gpu_memory *mem, uint32_t at);

/* The PTB's near-plane clipping of a triangle (vc4_ptb.c): the polygon left of clip[3][4]
 * (x, y, z, w) inside Zc >= -Wc and Wc >= 1e-6, in order, with each vertex's weights of the
 * three input vertices; returns its vertex count (0, or 3..5) */
unsigned vc4_clip_triangle(const float clip[3][4], float out_clip[][4], float out_weight[][3]);
/* the same against the guard band too: guard[0/1] = 32767 / |Clipper XY scale| of X / Y (the
 * 12.4 range in clip units per W; 0: that pair of planes off); up to 9 vertices */
unsigned vc4_clip_polygon(const float clip[3][4], const float guard[2], float out_clip[][4],
                          float out_weight[][3]);
/* a segment a -> b against the near plane, W > 0 and the guard band: false when nothing is
 * left, else the parameters t[0] < t[1] of the part inside */
bool vc4_clip_line(const float clip[2][4], const float guard[2], float t[2]);

/* byte offset of pixel (x, y) (y = 0 the first row in memory, the bottom) of a surface */
uint32_t vc4_surface_offset(uint32_t memory_format, uint32_t bytes_per_pixel, uint32_t width,
                            uint32_t x, uint32_t y);
/* 8-bit RGBA image of a surface (rows in memory order), faults counted; caller frees */
uint8_t *vc4_surface_rgba8(const struct gpu_memory *mem, const struct vc4_written_surface *s,
                           uint32_t address_mask, uint64_t *faults);

#endif
