/* units/vc4_v3d/vc4_ptb.c - the binning thread's state and the primitive tile binner (PTB);
 * see vc4_3d.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units/vc4_v3d/vc4_3d.h"
#include "units/vc4_v3d/vc4_shade.h"
#include "vc4_packets.h"

#define BLOCK_BYTES 128u           /* the kernel's later blocks (vc4-submit.md §7) */
#define RESERVE 6u                 /* escape + Branch (16) always fit at a block's end */
#define MAX_VERTICES (1u << 20)    /* a draw beyond this is cut (counted) */

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void wr32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint32_t as_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

void vc4_3d_init(struct vc4_3d *p, uint32_t address_mask)
{
    memset(p, 0, sizeof *p);
    p->address_mask = address_mask;
    p->shading_qpus = 12;          /* the BCM2835's 3 slices x 4 QPUs (configs/vc4-bcm2835.cfg) */
}

/* the state records both lists share (Table 38) */
static bool gl_state_record(struct vc4_gl_state *g, const uint8_t *b)
{
    switch (b[0]) {
    case VC4_PACKET_CONFIGURATION_BITS:
        g->config_bits = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16;
        return true;
    case VC4_PACKET_FLAT_SHADE_FLAGS: g->flat_shade = rd32(b + 1); return true;
    case VC4_PACKET_POINT_SIZE: g->point_size = rd32(b + 1); return true;
    case VC4_PACKET_LINE_WIDTH: g->line_width = rd32(b + 1); return true;
    case VC4_PACKET_DEPTH_OFFSET: g->depth_offset = rd32(b + 1); return true;
    case VC4_PACKET_CLIP_WINDOW:
        g->clip_left = (uint32_t)(b[1] | b[2] << 8);
        g->clip_bottom = (uint32_t)(b[3] | b[4] << 8);
        g->clip_width = (uint32_t)(b[5] | b[6] << 8);
        g->clip_height = (uint32_t)(b[7] | b[8] << 8);
        return true;
    case VC4_PACKET_VIEWPORT_OFFSET:
        g->viewport_x = (int16_t)(b[1] | b[2] << 8);
        g->viewport_y = (int16_t)(b[3] | b[4] << 8);
        return true;
    case VC4_PACKET_Z_MIN_AND_MAX_CLIPPING_PLANES:
        g->z_min = rd32(b + 1);
        g->z_max = rd32(b + 5);
        return true;
    case VC4_PACKET_CLIPPER_XY_SCALING:
        g->scale_x = rd32(b + 1);
        g->scale_y = rd32(b + 5);
        return true;
    case VC4_PACKET_CLIPPER_Z_SCALE_AND_OFFSET:
        g->z_scale = rd32(b + 1);
        g->z_offset = rd32(b + 5);
        return true;
    case VC4_PACKET_PRIMITIVE_LIST_FORMAT: g->list_format = b[1]; return true;
    case VC4_PACKET_GL_SHADER_STATE:
        g->shader_state = rd32(b + 1);
        g->have_shader = true;
        return true;
    default:
        return false;
    }
}

/* exported to the renderer through vc4_render.c's use of the same table */
bool vc4_gl_state_record(struct vc4_gl_state *g, const uint8_t *b);
bool vc4_gl_state_record(struct vc4_gl_state *g, const uint8_t *b)
{
    return gl_state_record(g, b);
}

/* ---- tile lists --------------------------------------------------------------------------- */

static void put(struct vc4_3d *p, struct gpu_memory *mem, struct vc4_tile_list *l,
                const uint8_t *bytes, uint32_t n)
{
    gpu_memory_write(mem, l->write & p->address_mask, bytes, n, NULL);
    l->write += n;
    p->stats.tile_list_bytes += n;
}

/* room for n more bytes in the list, chaining a new block with Branch (16) when needed */
static bool ensure(struct vc4_3d *p, struct gpu_memory *mem, struct vc4_tile_list *l, uint32_t n)
{
    struct vc4_bin *bin = &p->bin;
    if (l->full)
        return false;
    if (l->write + n <= l->end)
        return true;
    if (bin->pool + BLOCK_BYTES > bin->pool_end && p->bpos >= BLOCK_BYTES &&
        n + RESERVE <= BLOCK_BYTES) {
        /* the pool is used up: the PTB takes the overspill memory the host gave it in BPOA/BPOS
         * ("Once the PTB has taken this overspill memory this register is set to 0", notes 002
         * §4.6, @189789); the kernel gives a fresh block when OUTOMEM fires (vc4-submit.md §7) */
        bin->pool = p->bpoa & p->address_mask;
        bin->pool_end = bin->pool + p->bpos;
        p->bpos = 0;
        p->stats.overspill_taken++;
    }
    if (bin->pool + BLOCK_BYTES > bin->pool_end || n + RESERVE > BLOCK_BYTES) {
        /* out of binning memory with BPOS = 0: BMOOM and OUTOMEM ("the PTB will halt"); the
         * halt until the host writes BPOS is not modelled: the list keeps what it has */
        l->full = true;
        p->bmoom = true;
        p->stats.bin_out_of_memory++;
        return false;
    }
    if (l->in_compressed) {
        static const uint8_t escape = 128;   /* Tables 39-41 escape */
        put(p, mem, l, &escape, 1);
        l->in_compressed = false;
    }
    uint8_t branch[5] = { VC4_PACKET_BRANCH };
    wr32(branch + 1, bin->pool);
    put(p, mem, l, branch, 5);
    l->write = bin->pool;
    l->end = bin->pool + BLOCK_BYTES - RESERVE;
    bin->pool += BLOCK_BYTES;
    p->stats.tile_list_blocks++;
    return true;
}

static void put_record(struct vc4_3d *p, struct gpu_memory *mem, struct vc4_tile_list *l,
                       const uint8_t *bytes, uint32_t n)
{
    if (!ensure(p, mem, l, n + 1))
        return;
    if (l->in_compressed) {
        static const uint8_t escape = 128;
        put(p, mem, l, &escape, 1);
        l->in_compressed = false;
    }
    put(p, mem, l, bytes, n);
}

/* the state a tile list has not seen yet, then 56 and 64 */
static void put_state(struct vc4_3d *p, struct gpu_memory *mem, struct vc4_tile_list *l,
                      uint8_t format)
{
    const struct vc4_gl_state *g = &p->bin.gl;
    uint8_t b[16];
    b[0] = VC4_PACKET_CONFIGURATION_BITS;
    b[1] = (uint8_t)g->config_bits;
    b[2] = (uint8_t)(g->config_bits >> 8);
    b[3] = (uint8_t)(g->config_bits >> 16);
    put_record(p, mem, l, b, 4);
    b[0] = VC4_PACKET_FLAT_SHADE_FLAGS;
    wr32(b + 1, g->flat_shade);
    put_record(p, mem, l, b, 5);
    b[0] = VC4_PACKET_POINT_SIZE;
    wr32(b + 1, g->point_size);
    put_record(p, mem, l, b, 5);
    b[0] = VC4_PACKET_LINE_WIDTH;
    wr32(b + 1, g->line_width);
    put_record(p, mem, l, b, 5);
    b[0] = VC4_PACKET_DEPTH_OFFSET;
    wr32(b + 1, g->depth_offset);
    put_record(p, mem, l, b, 5);
    b[0] = VC4_PACKET_CLIP_WINDOW;
    b[1] = (uint8_t)g->clip_left; b[2] = (uint8_t)(g->clip_left >> 8);
    b[3] = (uint8_t)g->clip_bottom; b[4] = (uint8_t)(g->clip_bottom >> 8);
    b[5] = (uint8_t)g->clip_width; b[6] = (uint8_t)(g->clip_width >> 8);
    b[7] = (uint8_t)g->clip_height; b[8] = (uint8_t)(g->clip_height >> 8);
    put_record(p, mem, l, b, 9);
    b[0] = VC4_PACKET_VIEWPORT_OFFSET;
    b[1] = (uint8_t)g->viewport_x; b[2] = (uint8_t)((uint32_t)g->viewport_x >> 8);
    b[3] = (uint8_t)g->viewport_y; b[4] = (uint8_t)((uint32_t)g->viewport_y >> 8);
    put_record(p, mem, l, b, 5);
    b[0] = VC4_PACKET_PRIMITIVE_LIST_FORMAT;
    b[1] = format;
    put_record(p, mem, l, b, 2);
    b[0] = VC4_PACKET_GL_SHADER_STATE;       /* "56 must be followed by a Shader State item" */
    wr32(b + 1, g->shader_state);
    put_record(p, mem, l, b, 5);
}

/* ---- primitives --------------------------------------------------------------------------- */

struct shaded {
    float clip[4];
    int32_t xs, ys;                /* 1/16 px, the viewport offset added */
    float point_size;
};

enum { PRIM_POINTS = 0, PRIM_LINES = 1, PRIM_TRIANGLES = 2 };

/* ---- near-plane clipping ------------------------------------------------------------------
 * The PTB clips primitives itself and hands the renderer the clipped vertices through a
 * Clipped Primitive record (49, @156933; Table 44 @173368): per flagged vertex 32 bytes of XS,
 * YS (12.4), ZS, 1/WC and three "varying interpolation" coefficients, the weights of the
 * primitive's three listed vertices that give the clipped vertex's varyings; the record
 * "only applies to the first primitive in the following compressed primitive list". The GL
 * shader record's flag bit 2 "Enable Clipping" turns it on (Table 45). The seed does not give
 * the algorithm (notes 002 §8 "Clipping: the algorithm in the PTB, guard band, when records 49
 * are generated" are unspecified), so [chosen]: triangles are clipped (Sutherland-Hodgman)
 * against the GL near plane Zc >= -Wc and against Wc >= VC4_CLIP_MIN_W (so no vertex is
 * projected from w <= 0), and the polygon is split into a fan (0, i, i + 1) that keeps the
 * winding; each fan triangle is one 49 record carrying the original triangle's indices with the
 * flags set on the slots whose vertex is not that original vertex; clipped XS/YS round to the
 * nearest 1/16 px. The guard band [chosen: the seed names the PTB's clipping, not its
 * planes]: the 12.4 range of XS/YS, +-32767/16 px around the viewport centre (the Clipper XY
 * Scaling of record 105 maps clip space to it), beyond which the shaded XS/YS cannot be
 * represented: a triangle with a vertex outside it (and not wholly outside the clip volume)
 * is clipped against its four planes |scale * Xc| <= 32767 * Wc as well, in the same fan of
 * 49 records. Lines (when the shader record enables clipping) are clipped as segments
 * against the same six planes (parametric, Liang-Barsky) and drawn through a 49 record whose
 * flags name the endpoints that moved (weights of the two original vertices, the third 0);
 * points are not clipped but accepted or rejected by their centre: one behind the near plane
 * or outside the guard band is rejected (GL clips points by their position). Primitives with
 * clipping off in the shader record that need it are dropped (counted as unclipped). The
 * clipped vertex data takes one 128-byte block of the binning pool per fan triangle or line
 * [chosen]. */

#define VC4_CLIP_MIN_W 1e-6f
#define GUARD_BAND 32767.0f                /* 12.4 XS/YS range, 1/16 px */
#define CLIP_PLANES 6                      /* near, W > 0, guard band -x, +x, -y, +y */
#define CLIP_MAX_POLYGON 10                /* a triangle against 6 planes: at most 9 vertices */

struct clip_vertex {
    float c[4];                    /* clip coordinates */
    float weight[3];               /* of the original triangle's vertices */
};

/* signed distance of clip coordinates c to a plane (>= 0 inside); guard[0/1] = 32767 / |scale|
 * of X / Y, 0 for no guard band */
static float plane_distance_c(const float *c, unsigned plane, const float guard[2])
{
    switch (plane) {
    case 0: return c[2] + c[3];
    case 1: return c[3] - VC4_CLIP_MIN_W;
    case 2: return guard[0] * c[3] + c[0];
    case 3: return guard[0] * c[3] - c[0];
    case 4: return guard[1] * c[3] + c[1];
    default: return guard[1] * c[3] - c[1];
    }
}

static float plane_distance(const struct clip_vertex *v, unsigned plane, const float guard[2])
{
    return plane_distance_c(v->c, plane, guard);
}

static void guard_of(const struct vc4_gl_state *g, float guard[2])
{
    float sx = fabsf(as_float(g->scale_x)), sy = fabsf(as_float(g->scale_y));
    guard[0] = sx > 0 ? GUARD_BAND / sx : 0;
    guard[1] = sy > 0 ? GUARD_BAND / sy : 0;
}

static bool outside_guard_band(const float c[4], const float guard[2])
{
    for (unsigned plane = 2; plane < CLIP_PLANES; plane++)
        if (guard[(plane - 2) / 2] > 0 && plane_distance_c(c, plane, guard) < 0)
            return true;
    return false;
}

unsigned vc4_clip_polygon(const float clip[3][4], const float guard[2], float out_clip[][4],
                          float out_weight[][3])
{
    struct clip_vertex poly[2][CLIP_MAX_POLYGON];
    unsigned n = 3, cur = 0;
    for (unsigned k = 0; k < 3; k++) {
        memcpy(poly[0][k].c, clip[k], sizeof poly[0][k].c);
        for (unsigned j = 0; j < 3; j++)
            poly[0][k].weight[j] = j == k ? 1.0f : 0.0f;
    }
    for (unsigned plane = 0; plane < CLIP_PLANES && n; plane++) {
        if (plane >= 2 && !(guard[(plane - 2) / 2] > 0))
            continue;
        unsigned m = 0;
        const struct clip_vertex *in = poly[cur];
        struct clip_vertex *o = poly[cur ^ 1];
        for (unsigned k = 0; k < n; k++) {
            const struct clip_vertex *a = &in[k], *b = &in[(k + 1) % n];
            float da = plane_distance(a, plane, guard), db = plane_distance(b, plane, guard);
            if (da >= 0 && m < CLIP_MAX_POLYGON)
                o[m++] = *a;
            if ((da >= 0) != (db >= 0) && m < CLIP_MAX_POLYGON) {
                float t = da / (da - db);
                for (unsigned j = 0; j < 4; j++)
                    o[m].c[j] = a->c[j] + t * (b->c[j] - a->c[j]);
                for (unsigned j = 0; j < 3; j++)
                    o[m].weight[j] = a->weight[j] + t * (b->weight[j] - a->weight[j]);
                m++;
            }
        }
        n = m;
        cur ^= 1;
    }
    for (unsigned k = 0; k < n; k++) {
        memcpy(out_clip[k], poly[cur][k].c, sizeof poly[cur][k].c);
        memcpy(out_weight[k], poly[cur][k].weight, sizeof poly[cur][k].weight);
    }
    return n < 3 ? 0 : n;
}

unsigned vc4_clip_triangle(const float clip[3][4], float out_clip[][4], float out_weight[][3])
{
    static const float no_guard[2] = { 0, 0 };
    return vc4_clip_polygon(clip, no_guard, out_clip, out_weight);
}

bool vc4_clip_line(const float clip[2][4], const float guard[2], float t[2])
{
    t[0] = 0;
    t[1] = 1;
    for (unsigned plane = 0; plane < CLIP_PLANES; plane++) {
        if (plane >= 2 && !(guard[(plane - 2) / 2] > 0))
            continue;
        float da = plane_distance_c(clip[0], plane, guard);
        float db = plane_distance_c(clip[1], plane, guard);
        if (da < 0 && db < 0)
            return false;
        if (da < 0) {
            float u = da / (da - db);
            t[0] = u > t[0] ? u : t[0];
        } else if (db < 0) {
            float u = da / (da - db);
            t[1] = u < t[1] ? u : t[1];
        }
    }
    return t[0] < t[1];
}

/* a vertex the PTB made: its Table 44 fields and its screen position for binning */
struct clipped_vertex {
    int16_t xs, ys;                /* 12.4, relative to the viewport centre */
    float zs, inv_wc, weight[3];
};

static void project(const struct vc4_gl_state *g, const float c[4], struct clipped_vertex *o)
{
    float inv_w = 1.0f / c[3];
    float x = as_float(g->scale_x) * c[0] * inv_w, y = as_float(g->scale_y) * c[1] * inv_w;
    x = x < -32768.0f ? -32768.0f : x > 32767.0f ? 32767.0f : x;   /* 12.4 range */
    y = y < -32768.0f ? -32768.0f : y > 32767.0f ? 32767.0f : y;
    o->xs = (int16_t)lrintf(x);
    o->ys = (int16_t)lrintf(y);
    o->zs = as_float(g->z_scale) * c[2] * inv_w + as_float(g->z_offset);
    o->inv_wc = inv_w;
}

/* a primitive after rejection and clipping: culls it, finds its tiles and writes it; with
 * `clipped_word` non-zero (address | flags of a 49 record) it starts with that record */
static bool bin_screen(struct vc4_3d *p, struct gpu_memory *mem, unsigned type,
                       const uint32_t *index, const struct shaded *const *v,
                       const int32_t *xs, const int32_t *ys, uint32_t clipped_word)
{
    struct vc4_bin *bin = &p->bin;
    const struct vc4_gl_state *g = &bin->gl;
    unsigned n = type + 1;
    int64_t minx = xs[0], maxx = xs[0], miny = ys[0], maxy = ys[0];
    for (unsigned k = 1; k < n; k++) {
        minx = xs[k] < minx ? xs[k] : minx;
        maxx = xs[k] > maxx ? xs[k] : maxx;
        miny = ys[k] < miny ? ys[k] : miny;
        maxy = ys[k] > maxy ? ys[k] : maxy;
    }
    if (type == PRIM_TRIANGLES) {
        int64_t area = ((int64_t)xs[1] - xs[0]) * ((int64_t)ys[2] - ys[0]) -
                       ((int64_t)xs[2] - xs[0]) * ((int64_t)ys[1] - ys[0]);
        bool clockwise = g->config_bits >> 2 & 1;
        bool forward = clockwise ? area < 0 : area > 0;
        if (area == 0 || (forward && !(g->config_bits & 1)) ||
            (!forward && !(g->config_bits >> 1 & 1))) {
            p->stats.primitives_culled++;
            return false;
        }
    } else {
        /* half the line width or point size, and a pixel of slack for the tie rules */
        float size = type == PRIM_POINTS ? v[0]->point_size : as_float(g->line_width);
        int64_t pad = 16 + (int64_t)(size > 0 && size < 4096 ? size * 8.0f : 0);
        minx -= pad; maxx += pad; miny -= pad; maxy += pad;
    }
    int64_t px0 = minx >> 4, px1 = (maxx + 15) >> 4, py0 = miny >> 4, py1 = (maxy + 15) >> 4;
    int64_t cx0 = g->clip_left, cx1 = (int64_t)g->clip_left + g->clip_width;
    int64_t cy0 = g->clip_bottom, cy1 = (int64_t)g->clip_bottom + g->clip_height;
    px0 = px0 < cx0 ? cx0 : px0;
    py0 = py0 < cy0 ? cy0 : py0;
    px1 = px1 > cx1 ? cx1 : px1;
    py1 = py1 > cy1 ? cy1 : py1;
    if (px0 >= px1 || py0 >= py1) {
        p->stats.primitives_rejected++;
        return false;
    }
    int64_t tx0 = px0 / bin->tile_size, tx1 = (px1 - 1) / bin->tile_size;
    int64_t ty0 = py0 / bin->tile_size, ty1 = (py1 - 1) / bin->tile_size;
    if (tx1 >= bin->tiles_x) tx1 = (int64_t)bin->tiles_x - 1;
    if (ty1 >= bin->tiles_y) ty1 = (int64_t)bin->tiles_y - 1;
    /* code 129: absolute indices, 16-bit (Tables 39-41) */
    uint8_t code[7] = { 129 };
    for (unsigned k = 0; k < n; k++) {
        if (index[k] > 0xffff) {
            p->stats.index_faults++;
            return false;
        }
        code[1 + 2 * k] = (uint8_t)index[k];
        code[2 + 2 * k] = (uint8_t)(index[k] >> 8);
    }
    uint8_t format = (uint8_t)(1u << 4 | type);   /* 16-bit index, primitive type (56) */
    bool binned = false;
    for (int64_t ty = ty0; ty <= ty1; ty++)
        for (int64_t tx = tx0; tx <= tx1; tx++) {
            struct vc4_tile_list *l = &bin->list[ty * bin->tiles_x + tx];
            if (l->state_serial != bin->state_serial || l->state_serial == 0) {
                put_state(p, mem, l, format);
                l->state_serial = bin->state_serial;
            }
            if (!ensure(p, mem, l, 2u * n + 2 + (clipped_word ? 6u : 0u)))
                continue;
            if (clipped_word) {
                /* 49 starts its own compressed list: the clipped data is for its first
                 * primitive */
                if (l->in_compressed) {
                    static const uint8_t escape = 128;
                    put(p, mem, l, &escape, 1);
                }
                uint8_t start[5] = { VC4_PACKET_CLIPPED_PRIMITIVE_WITH_COMPRESSED_PRIMITIVE_LIST };
                wr32(start + 1, clipped_word);
                put(p, mem, l, start, 5);
                l->in_compressed = true;
            } else if (!l->in_compressed) {
                static const uint8_t start = VC4_PACKET_COMPRESSED_PRIMITIVE_LIST;
                put(p, mem, l, &start, 1);
                l->in_compressed = true;
            }
            put(p, mem, l, code, 2u * n + 1);
            binned = true;
        }
    return binned;
}

/* the clipped vertex data of one fan triangle: a block of the binning pool (or of the
 * overspill memory, as a tile list would take it); 0 when out of memory */
static uint32_t clip_data_block(struct vc4_3d *p)
{
    struct vc4_bin *bin = &p->bin;
    if (bin->pool + BLOCK_BYTES > bin->pool_end && p->bpos >= BLOCK_BYTES) {
        bin->pool = p->bpoa & p->address_mask;
        bin->pool_end = bin->pool + p->bpos;
        p->bpos = 0;
        p->stats.overspill_taken++;
    }
    if (bin->pool + BLOCK_BYTES > bin->pool_end) {
        p->bmoom = true;
        p->stats.bin_out_of_memory++;
        return 0;
    }
    uint32_t at = bin->pool;
    bin->pool += BLOCK_BYTES;
    p->stats.tile_list_blocks++;
    return at;
}

/* a triangle crossing the near plane: clipped into a fan of 49 records (see above) */
static void bin_clipped_triangle(struct vc4_3d *p, struct gpu_memory *mem, const uint32_t *index,
                                 const struct shaded *const *v)
{
    float in[3][4], out_clip[CLIP_MAX_POLYGON][4], weight[CLIP_MAX_POLYGON][3];
    for (unsigned k = 0; k < 3; k++)
        memcpy(in[k], v[k]->clip, sizeof in[k]);
    float guard[2];
    guard_of(&p->bin.gl, guard);
    unsigned n = vc4_clip_polygon(in, guard, out_clip, weight);
    if (!n) {
        p->stats.primitives_rejected++;    /* wholly behind the near plane */
        return;
    }
    p->stats.primitives_clipped++;
    struct clipped_vertex cv[CLIP_MAX_POLYGON];
    for (unsigned k = 0; k < n; k++) {
        project(&p->bin.gl, out_clip[k], &cv[k]);
        memcpy(cv[k].weight, weight[k], sizeof cv[k].weight);
    }
    bool binned = false;
    for (unsigned i = 1; i + 1 < n; i++) {
        const unsigned fan[3] = { 0, i, i + 1 };
        int32_t xs[3], ys[3];
        unsigned flags = 0;
        uint8_t data[3 * 32];
        unsigned bytes = 0;
        for (unsigned k = 0; k < 3; k++) {
            const struct clipped_vertex *c = &cv[fan[k]];
            bool original = c->weight[k] == 1.0f;
            if (original) {
                xs[k] = v[k]->xs;
                ys[k] = v[k]->ys;
                continue;
            }
            xs[k] = c->xs + p->bin.gl.viewport_x;
            ys[k] = c->ys + p->bin.gl.viewport_y;
            flags |= 1u << k;
            uint8_t *d = data + bytes;
            memset(d, 0, 32);
            d[0] = (uint8_t)c->xs;
            d[1] = (uint8_t)((uint16_t)c->xs >> 8);
            d[2] = (uint8_t)c->ys;
            d[3] = (uint8_t)((uint16_t)c->ys >> 8);
            wr32(d + 4, as_bits(c->zs));
            wr32(d + 8, as_bits(c->inv_wc));
            for (unsigned j = 0; j < 3; j++)
                wr32(d + 12 + 4 * j, as_bits(c->weight[j]));
            bytes += 32;
        }
        uint32_t block = clip_data_block(p);
        if (!block)
            continue;
        gpu_memory_write(mem, block & p->address_mask, data, bytes, NULL);
        /* a fan triangle that is wholly original vertices still needs a non-zero word */
        binned |= bin_screen(p, mem, PRIM_TRIANGLES, index, v, xs, ys, block | flags);
    }
    if (binned)
        p->stats.primitives_binned++;
}

/* a line crossing the near plane or the guard band: its segment inside all six planes, drawn
 * through one 49 record (see above) */
static void bin_clipped_line(struct vc4_3d *p, struct gpu_memory *mem, const uint32_t *index,
                             const struct shaded *const *v, const float guard[2])
{
    float in[2][4], t[2];
    memcpy(in[0], v[0]->clip, sizeof in[0]);
    memcpy(in[1], v[1]->clip, sizeof in[1]);
    if (!vc4_clip_line(in, guard, t)) {
        p->stats.primitives_rejected++;
        return;
    }
    p->stats.primitives_clipped++;
    int32_t xs[3] = { v[0]->xs, v[1]->xs, v[1]->xs }, ys[3] = { v[0]->ys, v[1]->ys, v[1]->ys };
    uint8_t data[2 * 32];
    unsigned bytes = 0, flags = 0;
    for (unsigned k = 0; k < 2; k++) {
        if (t[k] == (float)k)
            continue;                  /* the original endpoint */
        float c[4];
        for (unsigned j = 0; j < 4; j++)
            c[j] = in[0][j] + t[k] * (in[1][j] - in[0][j]);
        struct clipped_vertex cv;
        project(&p->bin.gl, c, &cv);
        xs[k] = cv.xs + p->bin.gl.viewport_x;
        ys[k] = cv.ys + p->bin.gl.viewport_y;
        flags |= 1u << k;
        uint8_t *d = data + bytes;
        memset(d, 0, 32);
        d[0] = (uint8_t)cv.xs;
        d[1] = (uint8_t)((uint16_t)cv.xs >> 8);
        d[2] = (uint8_t)cv.ys;
        d[3] = (uint8_t)((uint16_t)cv.ys >> 8);
        wr32(d + 4, as_bits(cv.zs));
        wr32(d + 8, as_bits(cv.inv_wc));
        wr32(d + 12, as_bits(1.0f - t[k]));
        wr32(d + 16, as_bits(t[k]));
        bytes += 32;
    }
    uint32_t block = clip_data_block(p);
    if (!block)
        return;
    gpu_memory_write(mem, block & p->address_mask, data, bytes, NULL);
    if (bin_screen(p, mem, PRIM_LINES, index, v, xs, ys, block | flags))
        p->stats.primitives_binned++;
}

static void bin_one(struct vc4_3d *p, struct gpu_memory *mem, unsigned type,
                    const uint32_t *index, const struct shaded *const *v, bool clipping)
{
    unsigned n = type + 1;
    p->stats.primitives_in++;
    p->owed[0] += 10;              /* the PTB: 10 clocks a primitive [chosen, @35155] */
    p->stats.bin_work_cycles += 10;
    /* trivial rejection: every vertex outside one plane of the clip volume */
    for (unsigned plane = 0; plane < 4; plane++) {
        unsigned out = 0;
        for (unsigned k = 0; k < n; k++) {
            float c = v[k]->clip[plane / 2], w = v[k]->clip[3];
            out += plane & 1 ? c > w : c < -w;
        }
        if (out == n) {
            p->stats.primitives_rejected++;
            return;
        }
    }
    bool crosses = false;
    float guard[2];
    guard_of(&p->bin.gl, guard);
    for (unsigned k = 0; k < n; k++)
        if (!(v[k]->clip[3] >= VC4_CLIP_MIN_W) || v[k]->clip[2] < -v[k]->clip[3] ||
            outside_guard_band(v[k]->clip, guard))
            crosses = true;
    if (crosses && type == PRIM_TRIANGLES && clipping) {
        bin_clipped_triangle(p, mem, index, v);
        return;
    }
    if (crosses && type == PRIM_LINES && clipping) {
        bin_clipped_line(p, mem, index, v, guard);
        return;
    }
    if (crosses && type == PRIM_POINTS && clipping) {
        p->stats.primitives_rejected++;    /* its centre is outside: the point is clipped */
        return;
    }
    for (unsigned k = 0; k < n; k++)
        if (!(v[k]->clip[3] > 0.0f)) {
            p->stats.primitives_unclipped++;   /* clipping off, or a point or line */
            return;
        }
    int32_t xs[3], ys[3];
    for (unsigned k = 0; k < n; k++) {
        xs[k] = v[k]->xs;
        ys[k] = v[k]->ys;
    }
    if (bin_screen(p, mem, type, index, v, xs, ys, 0))
        p->stats.primitives_binned++;
}

static void bin_draw(struct vc4_3d *p, struct gpu_memory *mem, unsigned mode, uint32_t count,
                     uint32_t first, uint32_t index_address, unsigned index_bytes,
                     uint32_t max_index)
{
    struct vc4_bin *bin = &p->bin;
    struct vc4_shader_record rec;
    if (!bin->configured || !bin->gl.have_shader ||
        !vc4_read_shader_record(p, mem, bin->gl.shader_state, &rec)) {
        p->stats.bad_records++;
        return;
    }
    if (mode > 6) {
        p->stats.bad_records++;
        return;
    }
    if (count > MAX_VERTICES) {
        p->stats.index_faults++;
        count = MAX_VERTICES;
    }
    if (!count)
        return;
    uint32_t *index = malloc(sizeof(uint32_t) * count);
    struct shaded *v = malloc(sizeof(struct shaded) * count);
    if (!index || !v) {
        free(index);
        free(v);
        return;
    }
    for (uint32_t k = 0; k < count; k++) {
        if (index_bytes) {
            uint8_t b[2] = { 0 };
            if (gpu_memory_read(mem, (index_address + k * index_bytes) & p->address_mask, b,
                                index_bytes, NULL) < 0)
                p->stats.index_faults++;
            index[k] = index_bytes == 2 ? (uint32_t)(b[0] | b[1] << 8) : b[0];
            if (index[k] > max_index)
                p->stats.index_faults++;   /* the kernel validates max index; counted */
        } else {
            index[k] = first + k;
        }
    }
    /* the coordinate shader, 16 vertices a batch (Fig 11 output) */
    for (uint32_t k = 0; k < count; k += 16) {
        uint32_t out[16][VC4_VERTEX_WORDS];
        unsigned n = count - k < 16 ? count - k : 16;
        vc4_shade_vertices(p, mem, &rec, true, index + k, n, out);
        for (unsigned j = 0; j < n; j++) {
            struct shaded *s = &v[k + j];
            for (int c = 0; c < 4; c++)
                s->clip[c] = as_float(out[j][c]);
            s->xs = (int16_t)(out[j][4] & 0xffff) + bin->gl.viewport_x;
            s->ys = (int16_t)(out[j][4] >> 16) + bin->gl.viewport_y;
            s->point_size = rec.flags & 2 ? as_float(out[j][7]) : as_float(bin->gl.point_size);
        }
    }
    if (p->collecting) {           /* only the vertices were wanted (vc4_3d.h queue_vertices) */
        free(index);
        free(v);
        return;
    }
    /* primitive assembly (GL modes of 32/33) */
    const struct shaded *pv[3];
    uint32_t pi[3];
#define PRIM(t, a, b, c) do { pv[0] = &v[a]; pv[1] = &v[b]; pv[2] = &v[c]; \
        pi[0] = index[a]; pi[1] = index[b]; pi[2] = index[c]; bin_one(p, mem, t, pi, pv, rec.flags & 4); } while (0)
    switch (mode) {
    case 0:
        for (uint32_t k = 0; k < count; k++)
            PRIM(PRIM_POINTS, k, k, k);
        break;
    case 1:
        for (uint32_t k = 0; k + 1 < count; k += 2)
            PRIM(PRIM_LINES, k, k + 1, k + 1);
        break;
    case 2: case 3:
        for (uint32_t k = 0; k + 1 < count; k++)
            PRIM(PRIM_LINES, k, k + 1, k + 1);
        if (mode == 2 && count > 2)
            PRIM(PRIM_LINES, count - 1, 0, 0);
        break;
    case 4:
        for (uint32_t k = 0; k + 2 < count; k += 3)
            PRIM(PRIM_TRIANGLES, k, k + 1, k + 2);
        break;
    case 5:
        for (uint32_t k = 0; k + 2 < count; k++) {
            if (k & 1)
                PRIM(PRIM_TRIANGLES, k + 1, k, k + 2);   /* keeps the winding (GL) */
            else
                PRIM(PRIM_TRIANGLES, k, k + 1, k + 2);
        }
        break;
    default:
        for (uint32_t k = 1; k + 1 < count; k++)
            PRIM(PRIM_TRIANGLES, 0, k, k + 1);
        break;
    }
#undef PRIM
    free(index);
    free(v);
}

void vc4_bin_record(struct vc4_3d *p, struct gpu_memory *mem, const uint8_t *b)
{
    struct vc4_bin *bin = &p->bin;
    if (gl_state_record(&bin->gl, b)) {
        bin->state_serial++;
        return;
    }
    switch (b[0]) {
    case VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION: {
        bin->tile_alloc = rd32(b + 1);
        bin->tile_alloc_size = rd32(b + 5);
        bin->tsda = rd32(b + 9);
        bin->tiles_x = b[13];
        bin->tiles_y = b[14];
        bin->multisample = b[15] & 1;
        bin->tile_size = bin->multisample ? 32 : 64;   /* MS 4x: 32 x 32 tiles (@41508) */
        if (b[15] & 2)
            p->stats.unsupported++;        /* 64-bit colour */
        bin->configured = bin->tiles_x && bin->tiles_y &&
                          bin->tiles_x <= VC4_MAX_TILES_SIDE && bin->tiles_y <= VC4_MAX_TILES_SIDE;
        if (!bin->configured) {
            p->stats.bad_records++;
            return;
        }
        uint32_t tiles = bin->tiles_x * bin->tiles_y;
        /* the pool of later blocks starts after the initial 32-byte blocks, rounded up to
         * 256 bytes as the kernel sizes them (vc4-submit.md §7) [chosen] */
        bin->pool = bin->tile_alloc + ((32 * tiles + 255) & ~255u);
        bin->pool_end = bin->tile_alloc + bin->tile_alloc_size;
        for (uint32_t i = 0; i < tiles; i++) {
            struct vc4_tile_list *l = &bin->list[i];
            memset(l, 0, sizeof *l);
            l->write = bin->tile_alloc + 32 * i;
            l->end = l->write + 32 - RESERVE;
        }
        bin->state_serial++;
        return;
    }
    case VC4_PACKET_START_TILE_BINNING:
    case VC4_PACKET_FLUSH_ALL_STATE:
        bin->state_serial++;           /* "initial state items actually go into tile lists" */
        return;
    case VC4_PACKET_VERTEX_ARRAY_PRIMITIVES:
        bin_draw(p, mem, b[1], rd32(b + 2), rd32(b + 6), 0, 0, 0xffffffffu);
        return;
    case VC4_PACKET_INDEXED_PRIMITIVE_LIST: {
        unsigned type = b[1] >> 4;
        bin_draw(p, mem, b[1] & 15, rd32(b + 2), 0, rd32(b + 6), type ? 2 : 1, rd32(b + 10));
        return;
    }
    case VC4_PACKET_FLUSH:
        if (!bin->configured)
            return;
        for (uint32_t i = 0; i < bin->tiles_x * bin->tiles_y; i++) {
            struct vc4_tile_list *l = &bin->list[i];
            static const uint8_t ret = VC4_PACKET_RETURN_FROM_SUB_LIST;
            l->full = false;               /* the reserve always holds the cap */
            if (l->in_compressed) {
                static const uint8_t escape = 128;
                put(p, mem, l, &escape, 1);
                l->in_compressed = false;
            }
            put(p, mem, l, &ret, 1);
            l->state_serial = 0;
        }
        return;
    default:
        return;
    }
}
