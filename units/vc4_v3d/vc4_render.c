/* units/vc4_v3d/vc4_render.c - the rendering thread's records: tile buffer loads, stores and
 * clears, tile lists' compressed primitives, setup, rasterization and fragment shading; see
 * vc4_3d.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units/vc4_v3d/vc4_3d.h"
#include "units/vc4_v3d/vc4_shade.h"
#include "vc4_packets.h"

bool vc4_gl_state_record(struct vc4_gl_state *g, const uint8_t *b);

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
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

/* ---- surfaces (Sec 11 @214806; notes §4.7, A24) ------------------------------------------- */

uint32_t vc4_surface_offset(uint32_t memory_format, uint32_t bpp, uint32_t width, uint32_t x,
                            uint32_t y)
{
    if (memory_format == 0)
        return (y * width + x) * bpp;
    /* a micro-tile is 64 bytes: 4 x 4 pixels at 32 bpp, 8 x 4 at 16 bpp */
    uint32_t uw = bpp == 4 ? 4 : 8, uh = 4;
    uint32_t in_utile = ((y % uh) * uw + x % uw) * bpp;
    if (memory_format == 2) {      /* LT: micro-tiles in raster order */
        uint32_t per_row = (width + uw - 1) / uw;
        return ((y / uh) * per_row + x / uw) * 64 + in_utile;
    }
    /* T: 1 KB sub-tiles of 4 x 4 micro-tiles, 4 KB tiles of 2 x 2 sub-tiles, tile rows from
     * the bottom, even rows left to right with sub-tiles (BL, TL, TR, BR), odd rows right to
     * left with (TR, BR, BL, TL) [ext: Mesa vc4_tiling.c, notes §4.7] */
    uint32_t sw = uw * 4, sh = uh * 4, tw = sw * 2, th = sh * 2;
    uint32_t tiles_per_row = (width + tw - 1) / tw;
    uint32_t tx = x / tw, ty = y / th;
    uint32_t column = ty & 1 ? tiles_per_row - 1 - tx : tx;
    uint32_t sx = (x / sw) & 1, sy = (y / sh) & 1;
    static const uint8_t even[4] = { 0, 3, 1, 2 }, odd[4] = { 2, 1, 3, 0 };
    uint32_t sub = (ty & 1 ? odd : even)[sy << 1 | sx];
    uint32_t ux = (x % sw) / uw, uy = (y % sh) / uh;
    return (ty * tiles_per_row + column) * 4096 + sub * 1024 + (uy * 4 + ux) * 64 + in_utile;
}

static uint32_t to_rgba8888(uint32_t pixel, uint8_t colour_format)
{
    if (colour_format == 0)
        return pixel;
    uint32_t r = pixel >> 11 & 31, g = pixel >> 5 & 63, b = pixel & 31;   /* bgr565 */
    r = r << 3 | r >> 2;
    g = g << 2 | g >> 4;
    b = b << 3 | b >> 2;
    return r | g << 8 | b << 16 | 0xffu << 24;
}

static uint32_t from_rgba8888(uint32_t c, uint8_t colour_format)
{
    if (colour_format == 0)
        return c;
    uint32_t r = (c & 0xff) >> 3, g = (c >> 8 & 0xff) >> 2, b = (c >> 16 & 0xff) >> 3;
    return r << 11 | g << 5 | b;       /* no dithering (not modelled) */
}

uint8_t *vc4_surface_rgba8(const struct gpu_memory *mem, const struct vc4_written_surface *s,
                           uint32_t address_mask, uint64_t *faults)
{
    if (!s->width || !s->height || s->width > 2048 || s->height > 2048)
        return NULL;
    uint32_t bpp = s->colour_format ? 2 : 4;
    uint8_t *rgba = calloc((size_t)s->width * s->height, 4);
    if (!rgba)
        return NULL;
    for (uint32_t y = 0; y < s->height; y++)
        for (uint32_t x = 0; x < s->width; x++) {
            uint8_t b[4] = { 0 };
            uint32_t at = s->address + vc4_surface_offset(s->memory_format, bpp, s->width, x, y);
            if (gpu_memory_read(mem, at & address_mask, b, bpp, NULL) < 0)
                (*faults)++;
            uint32_t v = to_rgba8888(rd32(b), s->colour_format);
            uint8_t *px = rgba + ((size_t)y * s->width + x) * 4;
            for (int c = 0; c < 4; c++)
                px[c] = (uint8_t)(v >> (8 * c));
        }
    return rgba;
}

/* ---- tile buffer -------------------------------------------------------------------------- */

static void clear_tile(struct vc4_render *t, bool colour, bool zs)
{
    for (unsigned k = 0; k < VC4_TILE_MAX * VC4_TILE_MAX; k++) {
        if (colour)
            t->colour[k] = t->clear_colour;
        if (zs) {
            t->depth[k] = t->clear_zs & 0xffffff;
            t->stencil[k] = (uint8_t)t->clear_stencil;
        }
    }
}

static void note_surface(struct vc4_render *t, uint32_t address, uint8_t memory_format,
                         uint8_t colour_format)
{
    for (uint32_t i = 0; i < t->surface_count; i++)
        if (t->surfaces[i].address == address) {
            t->surfaces[i].stores++;
            return;
        }
    if (t->surface_count >= VC4_MAX_SURFACES)
        return;
    t->surfaces[t->surface_count++] = (struct vc4_written_surface){
        .address = address, .width = t->width, .height = t->height,
        .memory_format = memory_format, .colour_format = colour_format, .stores = 1 };
}

const uint8_t vc4_sample_position[VC4_MS_SAMPLES][2] = {
    { 10, 2 }, { 2, 6 }, { 14, 10 }, { 6, 14 } };

/* the colour a store writes for a pixel: in 4x multisample mode sample 0 (decimate 0) or the
 * average of the four samples (decimate x4: each channel (sum + 2) / 4 [chosen: the seed
 * names the decimation, not its filter or rounding, notes 002 "the decimation filter"]);
 * decimate x16 is for the 16x coverage modes (not modelled): counted, resolved as x4 */
static uint32_t resolved_colour(struct vc4_3d *p, uint32_t x, uint32_t y, unsigned decimate)
{
    struct vc4_render *t = &p->render;
    if (t->samples != VC4_MS_SAMPLES || decimate == 0)
        return t->colour[vc4_tile_entry(t, x, y, 0)];
    uint32_t sum[4] = { 0, 0, 0, 0 }, out = 0;
    for (unsigned s = 0; s < VC4_MS_SAMPLES; s++) {
        uint32_t c = t->colour[vc4_tile_entry(t, x, y, s)];
        for (unsigned ch = 0; ch < 4; ch++)
            sum[ch] += c >> (8 * ch) & 0xff;
    }
    for (unsigned ch = 0; ch < 4; ch++)
        out |= ((sum[ch] + 2) / 4) << (8 * ch);
    return out;
}

/* buffer: 1 colour, 2 Z/stencil, 3 Z only; words are Z << 8 | stencil for Z/S [ext: Mesa vc4
 * treats the Z/S buffer as Z24 in bits 31:8, S8 in 7:0]. In 4x multisample mode a store
 * writes one value a pixel (colour: resolved_colour with `decimate`; Z/S: sample 0
 * [chosen]) and a load sets all four samples of a pixel to the value it reads. */
static void transfer(struct vc4_3d *p, struct gpu_memory *mem, bool store, unsigned buffer,
                     uint32_t address, uint8_t memory_format, uint8_t colour_format,
                     unsigned decimate)
{
    struct vc4_render *t = &p->render;
    uint32_t bpp = buffer == 1 && colour_format ? 2 : 4;
    unsigned samples = t->samples == VC4_MS_SAMPLES ? VC4_MS_SAMPLES : 1;
    uint32_t x0 = t->tile_x * t->tile_size, y0 = t->tile_y * t->tile_size;
    for (uint32_t y = y0; y < y0 + t->tile_size && y < t->height; y++)
        for (uint32_t x = x0; x < x0 + t->tile_size && x < t->width; x++) {
            unsigned k = vc4_tile_entry(t, x, y, 0);
            uint32_t at = address + vc4_surface_offset(memory_format, bpp, t->width, x, y);
            uint8_t b[4] = { 0 };
            if (store) {
                uint32_t v = buffer == 1
                    ? from_rgba8888(resolved_colour(p, x, y, decimate), colour_format)
                    : t->depth[k] << 8 | t->stencil[k];
                for (int c = 0; c < 4; c++)
                    b[c] = (uint8_t)(v >> (8 * c));
                gpu_memory_write(mem, at & p->address_mask, b, bpp, NULL);
            } else {
                gpu_memory_read(mem, at & p->address_mask, b, bpp, NULL);
                uint32_t v = rd32(b);
                for (unsigned s = 0; s < samples; s++) {
                    unsigned e = k + s;
                    if (buffer == 1)
                        t->colour[e] = to_rgba8888(v, colour_format);
                    else {
                        t->depth[e] = v >> 8;
                        if (buffer == 2)
                            t->stencil[e] = (uint8_t)v;
                    }
                }
            }
        }
    if (store && buffer == 1)
        note_surface(t, address, memory_format, colour_format);
}

/* full-resolution dumps: the tile's colour or Z/S words, all 4096 tile buffer entries in the
 * order of vc4_tile_entry (64 x 64 pixels, or 32 x 32 pixels of four samples each in 4x
 * multisample mode) [chosen: the seed gives the 16 KB per tile, not the order] */
static void full_resolution(struct vc4_3d *p, struct gpu_memory *mem, bool store,
                            uint32_t word)
{
    struct vc4_render *t = &p->render;
    uint32_t address = word & ~15u;
    for (unsigned buffer = 0; buffer < 2; buffer++) {
        if (word >> buffer & 1)        /* bit 0 disable colour, bit 1 disable Z/S */
            continue;
        for (unsigned k = 0; k < VC4_TILE_MAX * VC4_TILE_MAX; k++) {
            uint8_t b[4];
            uint32_t at = address + 4 * k;
            if (store) {
                uint32_t v = buffer == 0 ? t->colour[k] : t->depth[k] << 8 | t->stencil[k];
                for (int c = 0; c < 4; c++)
                    b[c] = (uint8_t)(v >> (8 * c));
                gpu_memory_write(mem, at & p->address_mask, b, 4, NULL);
            } else {
                memset(b, 0, 4);
                gpu_memory_read(mem, at & p->address_mask, b, 4, NULL);
                if (buffer == 0)
                    t->colour[k] = rd32(b);
                else {
                    t->depth[k] = rd32(b) >> 8;
                    t->stencil[k] = b[0];
                }
            }
        }
        if (store)
            break;                     /* one surface a dump: the RCL disables the other */
    }
}

/* a tile load or store: 4 pixels a clock over the tile [chosen: no TLB bandwidth in the
 * seed]; a store that wrote a surface closes the tile's time */
static void tile_transfer_time(struct vc4_3d *p, bool closes_tile)
{
    uint64_t cycles = (uint64_t)p->render.tile_size * p->render.tile_size / 4;
    p->owed[1] += cycles;
    p->stats.render_work_cycles += cycles;
    if (closes_tile) {
        uint64_t tile = p->stats.render_work_cycles - p->stats.render_work_at_tile_start;
        p->stats.tile_cycles_last = tile;
        if (tile > p->stats.tile_cycles_max)
            p->stats.tile_cycles_max = tile;
        p->stats.render_work_at_tile_start = p->stats.render_work_cycles;
    }
}

static void do_load(struct vc4_3d *p, struct gpu_memory *mem)
{
    tile_transfer_time(p, false);
    const uint8_t *b = p->render.load_record;
    p->stats.loads++;
    if (b[0] == VC4_PACKET_RE_LOAD_FULL_RESOLUTION_TILE_BUFFER) {
        full_resolution(p, mem, false, rd32(b + 1));
        return;
    }
    unsigned setup = (unsigned)(b[1] | b[2] << 8);
    uint32_t word = rd32(b + 3);
    unsigned buffer = setup & 7;
    uint8_t memory_format = setup >> 4 & 3, colour_format = (setup >> 8 & 3) ? 1 : 0;
    if (buffer == 1 && !(word & 1))
        transfer(p, mem, false, 1, word & ~15u, memory_format, colour_format, 0);
    else if ((buffer == 2 || buffer == 3) && !(word & 2))
        transfer(p, mem, false, buffer, word & ~15u, memory_format, 0, 0);
    else if (buffer)
        p->stats.unsupported++;
}

static void store_general(struct vc4_3d *p, struct gpu_memory *mem, const uint8_t *b)
{
    struct vc4_render *t = &p->render;
    unsigned setup = (unsigned)(b[1] | b[2] << 8);
    uint32_t word = rd32(b + 3);
    unsigned buffer = setup & 7;
    uint8_t memory_format = setup >> 4 & 3, colour_format = (setup >> 8 & 3) ? 1 : 0;
    /* 2@6 mode: 0 sample 0, 1 decimate x4, 2 decimate x16 (notes 002 Table 38, 28); a
     * decimation outside 4x multisample mode, or x16, is counted (stored as sample 0 / x4) */
    unsigned decimate = setup >> 6 & 3;
    if ((decimate && t->samples != VC4_MS_SAMPLES) || decimate >= 2)
        p->stats.multisample_ignored++;
    if (buffer == 1)
        transfer(p, mem, true, 1, word & ~15u, memory_format, colour_format, decimate);
    else if (buffer == 2 || buffer == 3)
        transfer(p, mem, true, buffer, word & ~15u, memory_format, 0, 0);
    else if (buffer)
        p->stats.unsupported++;        /* VG mask, full dump */
    if (buffer)
        p->stats.stores++;
    /* the tile buffer is cleared when stored, unless disabled (bits 13, 14) */
    clear_tile(t, !(setup >> 13 & 1), !(setup >> 14 & 1));
}

/* ---- setup, rasterization, fragments ------------------------------------------------------ */

struct vertex {
    int64_t x, y;                  /* 1/16 px */
    float z, inv_w, point_size;
    float varying[VC4_MAX_VARYINGS];
};

struct raster {
    struct vc4_3d *p;
    struct gpu_memory *mem;
    const struct vc4_shader_record *rec;
    const struct vertex *v[3];
    unsigned varyings, generated;
    float coordinate[2];           /* the generated varyings of the pixel being added */
    bool reverse;
    struct vc4_fragment_batch batch;
    unsigned quads;
};

static void flush_batch(struct raster *r)
{
    if (r->batch.lanes && r->p->queue_fragments)
        vc4_fragment_queue_push(r->p, r->rec, &r->batch);     /* to the QPU units */
    else if (r->batch.lanes)
        vc4_shade_fragments(r->p, r->mem, r->rec, &r->batch);
    memset(&r->batch, 0, sizeof r->batch);
    r->quads = 0;
}

/* adds a pixel with its barycentric weights (screen space) */
static void add_pixel(struct raster *r, unsigned lane, uint32_t x, uint32_t y, const float *bary)
{
    struct vc4_fragment_batch *b = &r->batch;
    const struct vc4_gl_state *g = &r->p->render.gl;
    b->lanes |= (uint16_t)(1u << lane);
    b->x[lane] = x;
    b->y[lane] = y;
    float sum_w = 0, z = 0;
    for (int k = 0; k < 3; k++) {
        sum_w += bary[k] * r->v[k]->inv_w;
        z += bary[k] * r->v[k]->z;
    }
    float w = sum_w > 0 ? 1.0f / sum_w : 1.0f;
    z = z < 0 ? 0 : z > 1 ? 1 : z;
    b->w[lane] = as_bits(w);
    b->z[lane] = (uint32_t)lrintf(z * 16777215.0f);
    b->varyings = r->varyings + r->generated;
    b->reverse = r->reverse;
    /* the varyings the FEP makes itself come first: point coordinates (s, t) or the line
     * coordinate, constant over the pixel here (VP = 0) [ext: Mesa vc4 reads them as the
     * first fragment varyings of point and line shaders; the shader record does not count
     * them] */
    for (unsigned j = 0; j < r->generated; j++) {
        b->vp[j][lane] = 0;
        b->c[j][lane] = as_bits(r->coordinate[j]);
    }
    for (unsigned j = 0; j < r->varyings && r->generated + j < VC4_MAX_VARYINGS; j++) {
        unsigned o = r->generated + j;
        float c = r->v[0]->varying[j], vp = 0;
        if (!(g->flat_shade >> j & 1))
            for (int k = 1; k < 3; k++)
                vp += bary[k] * r->v[k]->inv_w * (r->v[k]->varying[j] - c);
        b->vp[o][lane] = as_bits(vp);
        b->c[o][lane] = as_bits(c);
    }
}

/* the pixel rectangle a primitive may touch: the tile, the clip window and the frame */
static void bounds(const struct vc4_render *t, int64_t *x0, int64_t *x1, int64_t *y0,
                   int64_t *y1)
{
    *x0 = (int64_t)t->tile_x * t->tile_size;
    *y0 = (int64_t)t->tile_y * t->tile_size;
    *x1 = *x0 + t->tile_size;
    *y1 = *y0 + t->tile_size;
    int64_t cx0 = t->gl.clip_left, cy0 = t->gl.clip_bottom;
    int64_t cx1 = cx0 + t->gl.clip_width, cy1 = cy0 + t->gl.clip_height;
    if (t->gl.clip_width && t->gl.clip_height) {
        *x0 = *x0 > cx0 ? *x0 : cx0;
        *y0 = *y0 > cy0 ? *y0 : cy0;
        *x1 = *x1 < cx1 ? *x1 : cx1;
        *y1 = *y1 < cy1 ? *y1 : cy1;
    }
    *x1 = *x1 < (int64_t)t->width ? *x1 : (int64_t)t->width;
    *y1 = *y1 < (int64_t)t->height ? *y1 : (int64_t)t->height;
}

typedef bool (*cover_fn)(struct raster *r, int64_t cx, int64_t cy, float *bary);

static bool cover_triangle(struct raster *r, int64_t cx, int64_t cy, float *bary)
{
    const struct vertex *const *v = r->v;
    int64_t e[3];
    for (int k = 0; k < 3; k++) {
        const struct vertex *a = v[(k + 1) % 3], *b = v[(k + 2) % 3];
        e[k] = (b->x - a->x) * (cy - a->y) - (b->y - a->y) * (cx - a->x);
        if (e[k] < 0)
            return false;
        /* ties: counted on left edges and horizontal top edges [chosen] */
        if (e[k] == 0 && !(b->y < a->y || (b->y == a->y && b->x < a->x)))
            return false;
    }
    double area = (double)(e[0] + e[1] + e[2]);
    if (area <= 0)
        return false;
    for (int k = 0; k < 3; k++)
        bary[k] = (float)(e[k] / area);
    return true;
}

static bool cover_line(struct raster *r, int64_t cx, int64_t cy, float *bary)
{
    const struct vertex *a = r->v[0], *b = r->v[1];
    float width = as_float(r->p->render.gl.line_width);
    if (!(width > 0) || width > 64)
        width = 1;
    int64_t dx = b->x - a->x, dy = b->y - a->y;
    bool x_major = llabs(dx) >= llabs(dy);
    int64_t major = x_major ? cx : cy, lo = x_major ? a->x : a->y, hi = x_major ? b->x : b->y;
    int64_t d = x_major ? dx : dy;
    if (d == 0)
        return false;
    if (!(major >= (lo < hi ? lo : hi) && major < (lo < hi ? hi : lo)))
        return false;
    double t = (double)(major - lo) / (double)d;
    double minor = x_major ? a->y + t * dy : a->x + t * dx;
    double c = x_major ? (double)cy : (double)cx;
    if (!(c >= minor - 8.0 * width && c < minor + 8.0 * width))
        return false;
    bary[0] = (float)(1 - t);
    bary[1] = (float)t;
    r->coordinate[0] = (float)t;
    bary[2] = 0;
    return true;
}

static bool cover_point(struct raster *r, int64_t cx, int64_t cy, float *bary)
{
    const struct vertex *a = r->v[0];
    double half = 8.0 * a->point_size;
    if (!(cx >= a->x - half && cx < a->x + half && cy >= a->y - half && cy < a->y + half))
        return false;
    bary[0] = 1;
    bary[1] = bary[2] = 0;
    r->coordinate[0] = (float)((cx - (a->x - half)) / (2 * half));
    r->coordinate[1] = (float)(1.0 - (cy - (a->y - half)) / (2 * half));
    return true;
}

/* The samples of pixel (x, y) a primitive covers and the point its varyings are taken at.
 * Outside 4x multisample mode, or with the Configuration Bits' Rasteriser Oversample Mode
 * (2@6) none, the pixel centre decides for all its samples; with oversample 4x in a 4x
 * multisample tile each sample is tested at its position (vc4_sample_position), and the
 * varyings are taken at the centre when it is covered, else at the first covered sample
 * [chosen: the seed does not say where a partly covered pixel is shaded]; the fragment is
 * shaded once with the mask. Oversample 16x is taken as 4x (counted per primitive). */
static uint8_t pixel_coverage(struct raster *r, cover_fn cover, bool per_sample, int64_t x,
                              int64_t y, float *bary)
{
    if (!per_sample)
        return cover(r, 16 * x + 8, 16 * y + 8, bary) ? 0xf : 0;
    uint8_t mask = 0;
    int first = -1;
    for (unsigned s = 0; s < VC4_MS_SAMPLES; s++) {
        float b[3];
        if (cover(r, 16 * x + vc4_sample_position[s][0], 16 * y + vc4_sample_position[s][1], b)) {
            mask |= (uint8_t)(1u << s);
            if (first < 0)
                first = (int)s;
        }
    }
    if (mask && !cover(r, 16 * x + 8, 16 * y + 8, bary))
        cover(r, 16 * x + vc4_sample_position[first][0], 16 * y + vc4_sample_position[first][1],
              bary);
    return mask;
}

static void rasterize(struct raster *r, cover_fn cover)
{
    struct vc4_render *t = &r->p->render;
    int64_t x0, x1, y0, y1;
    bounds(t, &x0, &x1, &y0, &y1);
    unsigned oversample = t->gl.config_bits >> 6 & 3;
    bool per_sample = t->samples == VC4_MS_SAMPLES && (oversample == 1 || oversample == 2);
    if (oversample >= 2)
        r->p->stats.multisample_ignored++;
    /* 2 x 2 quads, four to a fragment shader run of 16 elements */
    for (int64_t qy = y0 & ~1LL; qy < y1; qy += 2)
        for (int64_t qx = x0 & ~1LL; qx < x1; qx += 2) {
            bool any = false;
            for (unsigned k = 0; k < 4; k++) {
                int64_t x = qx + (k & 1), y = qy + (k >> 1);
                float bary[3];
                if (x < x0 || x >= x1 || y < y0 || y >= y1)
                    continue;
                uint8_t mask = pixel_coverage(r, cover, per_sample, x, y, bary);
                if (!mask)
                    continue;
                unsigned lane = 4 * r->quads + k;
                add_pixel(r, lane, (uint32_t)x, (uint32_t)y, bary);
                r->batch.coverage[lane] = mask;
                any = true;
            }
            if (any && ++r->quads == 4)
                flush_batch(r);
        }
    flush_batch(r);
}

/* replaces the vertices a Clipped Primitive record (49) flags with its data (Table 44
 * @173368): XS, YS (12.4 relative to the viewport centre), ZS, 1/WC and the weights of the
 * primitive's three vertices that give the clipped vertex's varyings */
static void apply_clipped(struct vc4_3d *p, struct gpu_memory *mem, uint32_t word,
                          struct vertex *v, unsigned varyings)
{
    const struct vc4_render *t = &p->render;
    struct vertex original[3];
    memcpy(original, v, sizeof original);
    uint32_t at = word & ~7u;
    for (unsigned k = 0; k < 3; k++) {
        if (!(word >> k & 1))
            continue;
        uint8_t d[32] = { 0 };
        if (gpu_memory_read(mem, at & p->address_mask, d, 32, NULL) < 0)
            p->stats.bad_records++;
        at += 32;
        v[k].x = (int16_t)(d[0] | d[1] << 8) + (int64_t)t->gl.viewport_x;
        v[k].y = (int16_t)(d[2] | d[3] << 8) + (int64_t)t->gl.viewport_y;
        v[k].z = as_float(rd32(d + 4));
        v[k].inv_w = as_float(rd32(d + 8));
        float weight[3];
        for (unsigned j = 0; j < 3; j++)
            weight[j] = as_float(rd32(d + 12 + 4 * j));
        for (unsigned i = 0; i < varyings; i++)
            v[k].varying[i] = weight[0] * original[0].varying[i] +
                              weight[1] * original[1].varying[i] +
                              weight[2] * original[2].varying[i];
    }
}

static void render_primitive(struct vc4_3d *p, struct gpu_memory *mem, unsigned type,
                             const uint32_t *index, uint32_t clipped_word)
{
    struct vc4_render *t = &p->render;
    struct vc4_shader_record rec;
    if (!t->gl.have_shader || !t->have_tile ||
        !vc4_read_shader_record(p, mem, t->gl.shader_state, &rec)) {
        p->stats.bad_records++;
        return;
    }
    unsigned n = type + 1;
    uint32_t out[3][VC4_VERTEX_WORDS];
    vc4_shade_vertices(p, mem, &rec, false, index, n, out);
    if (p->collecting)
        return;                    /* only the vertices were wanted (vc4_3d.h queue_vertices) */
    struct vertex v[3];
    memset(v, 0, sizeof v);
    unsigned base = rec.flags & 2 ? 4 : 3;         /* Fig 10: YS|XS, ZS, 1/WC, [PS] */
    unsigned varyings = rec.fs_varyings < VC4_MAX_VARYINGS - 2 ? rec.fs_varyings
                                                              : VC4_MAX_VARYINGS - 2;
    for (unsigned k = 0; k < n; k++) {
        v[k].x = (int16_t)(out[k][0] & 0xffff) + (int64_t)t->gl.viewport_x;
        v[k].y = (int16_t)(out[k][0] >> 16) + (int64_t)t->gl.viewport_y;
        v[k].z = as_float(out[k][1]);
        v[k].inv_w = as_float(out[k][2]);
        v[k].point_size = rec.flags & 2 ? as_float(out[k][3]) : as_float(t->gl.point_size);
        if (!(v[k].point_size > 0) || v[k].point_size > 512)
            v[k].point_size = 1;
        for (unsigned j = 0; j < varyings && base + j < VC4_VERTEX_WORDS; j++)
            v[k].varying[j] = as_float(out[k][base + j]);
    }
    if (clipped_word && type >= 1)     /* triangles and lines (vc4_ptb.c) */
        apply_clipped(p, mem, clipped_word, v, varyings);
    struct raster r = { .p = p, .mem = mem, .rec = &rec, .varyings = varyings };
    p->stats.primitives_rendered++;
    uint64_t shaded_before = p->stats.fragments_shaded;
    if (type == 2) {
        int64_t area = (v[1].x - v[0].x) * (v[2].y - v[0].y) -
                       (v[2].x - v[0].x) * (v[1].y - v[0].y);
        bool clockwise = t->gl.config_bits >> 2 & 1;
        r.reverse = !(clockwise ? area < 0 : area > 0);
        r.v[0] = &v[0];
        /* edge functions want counter-clockwise order; the barycentrics follow the vertices */
        if (area < 0) {
            struct vertex tmp = v[1];
            v[1] = v[2];
            v[2] = tmp;
        }
        r.v[1] = &v[1];
        r.v[2] = &v[2];
        rasterize(&r, cover_triangle);
    } else if (type == 1) {
        r.v[0] = &v[0];
        r.v[1] = &v[1];
        r.v[2] = &v[1];
        r.generated = 1;
        rasterize(&r, cover_line);
    } else {
        r.v[0] = r.v[1] = r.v[2] = &v[0];
        r.generated = 2;
        rasterize(&r, cover_point);
    }
    /* the PSE 10 clocks a primitive [chosen, @35155], the FEP 4 pixels a clock (@39361) */
    uint64_t cycles = 10 + (p->stats.fragments_shaded - shaded_before + 3) / 4;
    p->owed[1] += cycles;
    p->stats.render_work_cycles += cycles;
}

static int32_t sext(uint32_t v, unsigned bits)
{
    return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* Compressed Primitive List (48): Tables 39-41, 16-bit index variants; returns the bytes
 * after the ID up to and including the escape */
uint32_t vc4_render_compressed(struct vc4_3d *p, struct gpu_memory *mem, uint32_t at)
{
    struct vc4_render *t = &p->render;
    unsigned type = t->gl.list_format & 15, data = t->gl.list_format >> 4;
    uint32_t start = at, prev[3] = { 0, 0, 0 };
    if (data != 1 || type > 2) {
        p->stats.unsupported++;        /* x/y lists, RHTs, 24-bit indices */
        return 0;
    }
    /* at most 65536 primitives a list [chosen]: a list in memory that never escapes (zeros
     * decode as one-byte triangles) ends there, counted, instead of running on */
    for (uint32_t guard = 0; guard < (1u << 16); guard++) {
        uint8_t b[8] = { 0 };
        if (gpu_memory_read(mem, at & p->address_mask, b, 8, NULL) < 0 &&
            gpu_memory_read(mem, at & p->address_mask, b, 1, NULL) < 0)
            return 0;
        uint32_t idx[3] = { prev[0], prev[1], prev[2] };
        unsigned length;
        if (b[0] == 128)
            return at + 1 - start;
        if (b[0] == 130) {             /* branch: not produced by this binner */
            p->stats.unsupported++;
            return at + 3 - start;
        }
        if (b[0] == 129) {
            for (unsigned k = 0; k <= type; k++)
                idx[k] = (uint32_t)(b[1 + 2 * k] | b[2 + 2 * k] << 8);
            length = 1 + 2 * (type + 1);
        } else if (type == 2) {        /* Table 39 */
            if ((b[0] & 15) == 15) {
                uint32_t w = rd32(b);
                idx[0] = w >> 16;
                idx[1] = idx[0] + (uint32_t)sext(w >> 4 & 63, 6);
                idx[2] = idx[0] + (uint32_t)sext(w >> 10 & 63, 6);
                length = 4;
            } else if ((b[0] & 3) == 3) {   /* deltas against the previous [inferred] */
                uint32_t w = (uint32_t)(b[0] | b[1] << 8);
                for (unsigned k = 0; k < 3; k++)
                    idx[k] = prev[k] + (uint32_t)sext(w >> (4 + 4 * k) & 15, 4);
                length = 2;
            } else {
                static const uint8_t share[3][2] = { { 2, 1 }, { 0, 2 }, { 1, 0 } };
                unsigned s = b[0] & 3;
                idx[0] = prev[share[s][0]];
                idx[1] = prev[share[s][1]];
                idx[2] = prev[2] + (uint32_t)sext(b[0] >> 2, 6);
                length = 1;
            }
        } else if (type == 1) {        /* Table 40 */
            if ((b[0] & 3) == 2) {
                idx[0] = (uint32_t)(b[1] | b[2] << 8);
                idx[1] = idx[0] + (uint32_t)sext(b[0] >> 2, 6);
                length = 3;
            } else if ((b[0] & 3) == 3) {
                uint32_t w = (uint32_t)(b[0] | b[1] << 8);
                idx[0] = prev[0] + (uint32_t)sext(w >> 4 & 15, 4);
                idx[1] = prev[1] + (uint32_t)sext(w >> 8 & 15, 4);
                length = 2;
            } else {
                idx[0] = b[0] & 1 ? prev[0] : prev[1];
                idx[1] = prev[1] + (uint32_t)sext(b[0] >> 2, 6);
                length = 1;
            }
        } else {                       /* Table 41 */
            if ((b[0] & 3) == 3) {
                idx[0] = prev[0] + (uint32_t)sext((uint32_t)(b[0] | b[1] << 8) >> 2, 14);
                length = 2;
            } else if ((b[0] & 3) == 2) {
                p->stats.unsupported++;    /* run length: "NOT IMPLEMENTED" in the seed */
                length = 2;
                at += length;
                continue;
            } else {
                idx[0] = prev[0] + (uint32_t)sext(b[0] >> 2, 6);
                length = 1;
            }
        }
        for (unsigned k = 0; k < 3; k++)
            idx[k] &= 0xffff;
        render_primitive(p, mem, type, idx, t->clipped_word);
        t->clipped_word = 0;           /* 49 "only applies to the first primitive" */
        memcpy(prev, idx, sizeof prev);
        at += length;
    }
    p->stats.bad_records++;
    return at - start;
}

uint32_t vc4_render_clipped(struct vc4_3d *p, struct gpu_memory *mem, uint32_t at)
{
    uint8_t b[4];
    if (gpu_memory_read(mem, at & p->address_mask, b, 4, NULL) < 0)
        return 0;
    p->render.clipped_word = rd32(b);
    uint32_t length = vc4_render_compressed(p, mem, at + 4);
    p->render.clipped_word = 0;
    return length ? 4 + length : 0;
}

void vc4_render_record(struct vc4_3d *p, struct gpu_memory *mem, const uint8_t *b)
{
    struct vc4_render *t = &p->render;
    if (vc4_gl_state_record(&t->gl, b))
        return;
    switch (b[0]) {
    case VC4_PACKET_TILE_RENDERING_MODE_CONFIGURATION:
        t->frame_address = rd32(b + 1);
        t->width = (uint32_t)(b[5] | b[6] << 8);
        t->height = (uint32_t)(b[7] | b[8] << 8);
        t->mode_bits = (uint32_t)(b[9] | b[10] << 8);
        /* 1@64 MS 4x: 32 x 32 pixel tiles of four samples (@41508) */
        t->samples = t->mode_bits & 1 ? VC4_MS_SAMPLES : 1;
        t->tile_size = t->mode_bits & 1 ? 32 : 64;
        if (t->mode_bits & 2 || (t->mode_bits >> 4 & 3) >= 2 ||
            ((t->mode_bits >> 4 & 3) && !(t->mode_bits & 1)))
            p->stats.multisample_ignored++;    /* 64-bit colour, decimate x16, or a
                                                  decimation without MS 4x: not modelled */
        return;
    case VC4_PACKET_CLEAR_COLORS:
        t->clear_colour = rd32(b + 1);
        t->clear_zs = rd32(b + 9) & 0xffffff;
        t->clear_vg = b[12];
        t->clear_stencil = b[13];
        return;
    case VC4_PACKET_TILE_COORDINATES:
        t->tile_x = b[1];
        t->tile_y = b[2];
        t->have_tile = true;
        if (t->load_pending) {
            t->load_pending = false;
            do_load(p, mem);
        }
        return;
    case VC4_PACKET_LOAD_TILE_BUFFER_GENERAL:
    case VC4_PACKET_RE_LOAD_FULL_RESOLUTION_TILE_BUFFER:
        memcpy(t->load_record, b, b[0] == VC4_PACKET_LOAD_TILE_BUFFER_GENERAL ? 7 : 5);
        t->load_pending = true;        /* "triggered" by the next Tile Coordinates */
        return;
    case VC4_PACKET_STORE_MULTI_SAMPLE_RESOLVED_TILE_COLOR_BUFFER:
    case VC4_PACKET_STORE_MULTI_SAMPLE_RESOLVED_TILE_COLOR_BUFFER_AND_EOF: {
        /* to the 113 address in the 113 format: 2@66 colour (1 rgba8888), 2@70 memory */
        uint8_t memory_format = t->mode_bits >> 6 & 3;
        uint8_t colour_format = (t->mode_bits >> 2 & 3) == 1 ? 0 : 1;
        /* 2@68 decimate: 0 1x (sample 0), 1 4x, 2 16x (counted at 113) */
        unsigned decimate = t->mode_bits >> 4 & 3;
        if (t->have_tile && t->frame_address) {
            transfer(p, mem, true, 1, t->frame_address, memory_format, colour_format, decimate);
            p->stats.stores++;
            p->stats.tiles_rendered++;
            tile_transfer_time(p, true);
        }
        clear_tile(t, true, true);
        return;
    }
    case VC4_PACKET_STORE_FULL_RESOLUTION_TILE_BUFFER: {
        uint32_t word = rd32(b + 1);
        full_resolution(p, mem, true, word);
        p->stats.stores++;
        /* the tile's last store clears it (an RCL sets bit 2 when another store follows) */
        bool closes = (word & 3) != 3 && !(word & 4);
        p->stats.tiles_rendered += closes;
        tile_transfer_time(p, closes);
        if (!(word & 4))
            clear_tile(t, true, true);
        return;
    }
    case VC4_PACKET_STORE_TILE_BUFFER_GENERAL:
        store_general(p, mem, b);
        /* a store of a buffer that clears the colour (bit 13 clear) is the tile's last */
        if ((b[1] & 7) != 0) {
            bool closes = !(b[2] & 0x20);
            p->stats.tiles_rendered += closes;
            tile_transfer_time(p, closes);
        }
        return;
    case VC4_PACKET_INDEXED_PRIMITIVE_LIST:
    case VC4_PACKET_VERTEX_ARRAY_PRIMITIVES:
        p->stats.unsupported++;        /* primitives given directly to the renderer */
        return;
    default:
        return;
    }
}
