/* tests/units/test_vc4_tmu.c - the TMU's texture lookups (units/vc4_tmu, vc4_texture): a
 * feeder sends a QPU's TMU writes (with the uniforms the QPU pops) and load signals, a catcher
 * takes the r4 answers. Textures are written here from the seed's memory-order description
 * (Sec 11, notes §4.7): the T-format writer walks memory in order (tiles in their snake, the
 * sub-tiles in the row's order, micro-tiles and pixels in raster order) and works out each
 * position's pixel, the opposite direction of the model's address function; expected colours
 * are computed here from the stored texels.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/vc4_io.h"
#include "units/vc4_tmu/vc4_texture.h"
#include "units/vc4_tmu/vc4_tmu.h"

#define MAX_SCRIPT 64

struct feeder {
    struct port *out;
    struct qpu_io_request script[MAX_SCRIPT];
    unsigned count, next;
};

static const struct port_desc feeder_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "TMU writes" }, PORT_END
};

static int feeder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct feeder *f = unit_state(u);
    f->out = unit_port(u, "out", 0);
    return 0;
}

static void feeder_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity feeder_tick(struct unit *u)
{
    struct feeder *f = unit_state(u);
    while (f->next < f->count && port_can_send(f->out)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_io_request));
        memcpy(m->payload, &f->script[f->next], sizeof f->script[0]);
        if (!port_try_send(f->out, m)) {
            msg_free(unit_sim(u), m);
            break;
        }
        f->next++;
        unit_progress(u);
    }
    return UNIT_IDLE;
}

static const struct unit_ops feeder_ops = {
    .kind = "test_tmu_feeder", .help = "test", .state_size = sizeof(struct feeder),
    .ports = feeder_ports, .realize = feeder_realize, .reset = feeder_reset, .tick = feeder_tick,
};

struct catcher {
    struct port *in;
    unsigned count;
    uint32_t value[MAX_SCRIPT][QPU_LANES];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "r4 answers" }, PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct qpu_io_result *r = (const struct qpu_io_result *)m->payload;
        if (c->count < MAX_SCRIPT)
            memcpy(c->value[c->count], r->value, sizeof c->value[0]);
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_tmu_catcher", .help = "test", .state_size = sizeof(struct catcher),
    .ports = catcher_ports, .realize = catcher_realize, .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *memory;
    struct feeder *feeder;
    struct catcher *catcher;
};

static struct rig rig_new(void)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    r.memory = probe_memory(r.sim);
    static const char *const over[] = { "memory_mb=64", NULL };
    struct unit *tmu = probe_add(r.sim, &vc4_tmu_ops, "tmu", over);
    struct unit *f = probe_add(r.sim, &feeder_ops, "feeder", NULL);
    struct unit *c = probe_add(r.sim, &catcher_ops, "catcher", NULL);
    probe_link(r.sim, f, "out", tmu, "qpu[0]", 1, 8, 1);
    probe_link(r.sim, tmu, "result[0]", c, "in", 1, 8, 1);
    r.feeder = unit_state(f);
    r.catcher = unit_state(c);
    return r;
}

static void run(struct rig *r)
{
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r->sim, &err), 0);
    sim_run(r->sim, 0);
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* one lookup: writes of the given components (1 t, 2 r, in this order) with their uniforms,
 * then s with the last uniform, then the load signal; s/t/r per lane */
static void script_lookup(struct rig *r, const uint32_t *param, unsigned params,
                          const float *s, const float *t, const float *rr, uint32_t border)
{
    struct feeder *f = r->feeder;
    unsigned k = 0;
    if (rr || border) {
        struct qpu_io_request *w = &f->script[f->count++];
        memset(w, 0, sizeof *w);
        w->op = QPU_IO_WRITE;
        w->reg = QPU_IO_TMU0_R;
        w->lane_mask = 0xffff;
        w->uniform = param[k++];
        w->uniform_valid = 1;
        for (unsigned i = 0; i < QPU_LANES; i++)
            w->value[i] = rr ? float_bits(rr[i]) : border;
    }
    struct qpu_io_request *w = &f->script[f->count++];
    memset(w, 0, sizeof *w);
    w->op = QPU_IO_WRITE;
    w->reg = QPU_IO_TMU0_T;
    w->lane_mask = 0xffff;
    w->uniform = param[k++];
    w->uniform_valid = 1;
    for (unsigned i = 0; i < QPU_LANES; i++)
        w->value[i] = float_bits(t[i]);
    w = &f->script[f->count++];
    memset(w, 0, sizeof *w);
    w->op = QPU_IO_WRITE;
    w->reg = QPU_IO_TMU0_S;
    w->lane_mask = 0xffff;
    w->uniform = k < params ? param[k] : 0;
    w->uniform_valid = 1;
    for (unsigned i = 0; i < QPU_LANES; i++)
        w->value[i] = float_bits(s[i]);
    w = &f->script[f->count++];
    memset(w, 0, sizeof *w);
    w->op = QPU_IO_SIGNAL;
    w->reg = 10;
}

/* Table 16 word: height, width, filters, wraps; type bit 4 in 31 */
static uint32_t param1(uint32_t width, uint32_t height, unsigned mag, unsigned min,
                       unsigned wrap_t, unsigned wrap_s, uint32_t type)
{
    return (type >> 4) << 31 | (height & 0x7ff) << 20 | (width & 0x7ff) << 8 | mag << 7 |
           min << 4 | wrap_t << 2 | wrap_s;
}

/* Table 15 word: base, cube, type, no mip levels */
static uint32_t param0(uint32_t base, bool cube, uint32_t type)
{
    return base | (uint32_t)cube << 9 | (type & 15) << 4;
}

static uint32_t pattern(uint32_t x, uint32_t y)
{
    return (x * 7 + 1) | (y * 13 + 2) << 8 | ((x ^ y) & 255) << 16 | 0xff000000u;
}

/* a 64 x 64 RGBA8888 image in T-format, written in memory order: 2 x 2 tiles of 32 x 32; tile
 * row 0 (bottom) left to right, sub-tiles BL, TL, TR, BR; row 1 right to left, sub-tiles TR,
 * BR, BL, TL; 4 x 4 micro-tiles of 4 x 4 pixels in raster order, bottom row first */
static void write_t_image(struct rig *r, uint32_t base)
{
    static const unsigned order[2][4][2] = {
        { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 0 } },     /* (sx, sy): BL, TL, TR, BR */
        { { 1, 1 }, { 1, 0 }, { 0, 0 }, { 0, 1 } },     /* TR, BR, BL, TL */
    };
    uint32_t address = base;
    for (unsigned ty = 0; ty < 2; ty++)
        for (unsigned n = 0; n < 2; n++) {
            unsigned tx = (ty & 1) ? 1 - n : n;
            for (unsigned k = 0; k < 4; k++)
                for (unsigned utile = 0; utile < 16; utile++)
                    for (unsigned p = 0; p < 16; p++) {
                        uint32_t x = tx * 32 + order[ty & 1][k][0] * 16 + (utile % 4) * 4 + p % 4;
                        uint32_t y = ty * 32 + order[ty & 1][k][1] * 16 + (utile / 4) * 4 + p / 4;
                        uint32_t v = pattern(x, y);
                        gpu_memory_write(r->memory, address, &v, 4, NULL);
                        address += 4;
                    }
        }
}

/* nearest lookups at texel centres of a T-format image return the texel written there */
static void test_t_format_nearest(void)
{
    struct rig r = rig_new();
    write_t_image(&r, 0x10000);
    uint32_t p[2] = { param0(0x10000, false, VC4_TEX_RGBA8888),
                      param1(64, 64, 1, 1, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, 0) };
    float s[16], t[16];
    uint32_t want[3][16];
    for (unsigned look = 0; look < 3; look++) {
        for (unsigned i = 0; i < 16; i++) {
            uint32_t x = (i * 17 + look * 29) % 64, y = (i * 11 + look * 37 + 5) % 64;
            s[i] = (x + 0.5f) / 64;
            t[i] = (y + 0.5f) / 64;
            want[look][i] = pattern(x, y);
        }
        script_lookup(&r, p, 2, s, t, NULL, 0);
    }
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 3);
    for (unsigned look = 0; look < 3; look++)
        for (unsigned i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(r.catcher->value[look][i], want[look][i]);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.texture_requests"), 3);
    CU_ASSERT_TRUE(probe_stat(r.sim, "tmu.cache_misses") > 0);
    sim_destroy(r.sim);
}

/* an 8 x 8 RGB565 texture (LT: smaller than a 32 x 16 T tile): micro-tiles of 8 x 4 in raster
 * order; wrap modes repeat, clamp, mirror, border and a bilinear midpoint */
static void test_lt_565_wraps_and_bilinear(void)
{
    struct rig r = rig_new();
    uint16_t texel[8][8];
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            texel[y][x] = (uint16_t)((x * 4) << 11 | (y * 8) << 5 | (x + y));
            /* micro-tile (x / 8, y / 4), one per row of micro-tiles */
            uint32_t address = 0x20000 + (y / 4) * 64 + ((y % 4) * 8 + x) * 2;
            gpu_memory_write(r.memory, address, &texel[y][x], 2, NULL);
        }
    /* the expected decode: fields from the top, widened by replication */
#define R5(v) (((v) >> 11 & 31) << 3 | ((v) >> 11 & 31) >> 2)
#define G6(v) (((v) >> 5 & 63) << 2 | ((v) >> 5 & 63) >> 4)
#define B5(v) (((v) & 31) << 3 | ((v) & 31) >> 2)
#define RGB(v) ((uint32_t)R5(v) | (uint32_t)G6(v) << 8 | (uint32_t)B5(v) << 16 | 0xff000000u)
    float s[16], t[16];
    /* nearest, repeat in s and mirror in t: s = 1 + 2.5/8 -> x 2; t = -0.5/8 -> y 0 (mirror
     * of -1), t = 1 + 1.5/8 -> mirrored x 8+1 -> 6 */
    for (unsigned i = 0; i < 16; i++) {
        s[i] = 1 + 2.5f / 8;
        t[i] = (i & 1) ? 1 + 1.5f / 8 : -0.5f / 8;
    }
    uint32_t p[2] = { param0(0x20000, false, VC4_TEX_RGB565),
                      param1(8, 8, 1, 1, VC4_WRAP_MIRROR, VC4_WRAP_REPEAT, 0) };
    script_lookup(&r, p, 2, s, t, NULL, 0);
    /* clamp in s, border in t: (s 5, t 0.5) clamps to x 7; t -0.1 is the border colour */
    uint32_t p2[3] = { 0, param0(0x20000, false, VC4_TEX_RGB565),
                       param1(8, 8, 1, 1, VC4_WRAP_BORDER, VC4_WRAP_CLAMP, 0) };
    for (unsigned i = 0; i < 16; i++) {
        s[i] = 5;
        t[i] = (i & 1) ? -0.1f : 4.5f / 8;
    }
    /* with the r write first (the border colour), its uniform is parameter 0 */
    p2[0] = p2[1];
    p2[1] = p2[2];
    script_lookup(&r, p2, 2, s, t, NULL, 0x11223344u);
    /* bilinear at the boundary between x 2 and x 3 of row 5 (centre of the row in t) */
    uint32_t p3[2] = { param0(0x20000, false, VC4_TEX_RGB565),
                       param1(8, 8, 0, 0, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, 0) };
    for (unsigned i = 0; i < 16; i++) {
        s[i] = 3.0f / 8;
        t[i] = 5.5f / 8;
    }
    script_lookup(&r, p3, 2, s, t, NULL, 0);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 3);
    CU_ASSERT_EQUAL(r.catcher->value[0][0], RGB(texel[0][2]));
    CU_ASSERT_EQUAL(r.catcher->value[0][1], RGB(texel[6][2]));
    CU_ASSERT_EQUAL(r.catcher->value[1][0], RGB(texel[4][7]));
    CU_ASSERT_EQUAL(r.catcher->value[1][1], 0x11223344u);
    uint32_t a = RGB(texel[5][2]), b = RGB(texel[5][3]), mid = 0;
    for (unsigned c = 0; c < 32; c += 8) {
        uint32_t sum = (a >> c & 255) + (b >> c & 255);
        mid |= ((sum + 1) / 2) << c;     /* the average, halves rounded up */
    }
    CU_ASSERT_EQUAL(r.catcher->value[2][7], mid);
    sim_destroy(r.sim);
}

/* a cube map of six 4 x 4 faces 4 KiB apart (parameter 2: PTYPE 1, the stride), each face
 * one colour: a direction picks the face of its major axis, +X, -X, +Y, -Y, +Z, -Z */
static void test_cube_faces(void)
{
    struct rig r = rig_new();
    for (unsigned face = 0; face < 6; face++)
        for (unsigned i = 0; i < 16; i++) {
            uint32_t v = 0xff000000u | (face + 1) * 0x10101u;
            gpu_memory_write(r.memory, 0x30000 + face * 4096 + 4 * i, &v, 4, NULL);
        }
    uint32_t p[3] = { param0(0x30000, true, VC4_TEX_RGBA8888),
                      param1(4, 4, 1, 1, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, 0),
                      1u << 30 | 4096u };
    static const float dir[6][3] = { { 1, 0.2f, -0.3f }, { -1, 0.5f, 0.1f }, { 0.3f, 1, 0.2f },
                                     { 0.1f, -1, -0.6f }, { -0.2f, 0.4f, 1 },
                                     { 0.7f, -0.1f, -1 } };
    float s[16], t[16], rr[16];
    for (unsigned i = 0; i < 16; i++) {
        s[i] = dir[i % 6][0];
        t[i] = dir[i % 6][1];
        rr[i] = dir[i % 6][2];
    }
    /* writes r, t, s: r carries parameter 0, t 1, s 2 */
    script_lookup(&r, p, 3, s, t, rr, 0);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 1);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(r.catcher->value[0][i], 0xff000000u | (i % 6 + 1) * 0x10101u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.cube_lookups"), 1);
    sim_destroy(r.sim);
}

/* config decode (Tables 15-17), an unsupported type answers 0 and is counted, and the
 * address functions of the small layouts */
static void test_decode_and_unsupported(void)
{
    uint32_t p[3] = { 0x12345000u | 1u << 9 | 1u << 8 | 7u << 4 | 3u,
                      1u << 31 | 0u << 20 | 100u << 8 | 1u << 7 | 5u << 4 | 2u << 2 | 3u,
                      1u << 30 | 0x2000u | 1u };
    struct vc4_texture t;
    vc4_texture_decode(p, 3, &t);
    CU_ASSERT_EQUAL(t.base, 0x12345000u);
    CU_ASSERT_TRUE(t.cube);
    CU_ASSERT_TRUE(t.flip_y);
    CU_ASSERT_EQUAL(t.type, 16u + 7u);
    CU_ASSERT_EQUAL(t.levels, 4u);
    CU_ASSERT_EQUAL(t.height, 2048u);
    CU_ASSERT_EQUAL(t.width, 100u);
    CU_ASSERT_EQUAL(t.mag_filter, 1);
    CU_ASSERT_EQUAL(t.min_filter, 5);
    CU_ASSERT_EQUAL(t.wrap_t, 2);
    CU_ASSERT_EQUAL(t.wrap_s, 3);
    CU_ASSERT_EQUAL(t.cube_stride, 0x2000u);
    /* micro-tiles: 64 bytes each (Sec 11) */
    static const unsigned bpp[] = { 64, 32, 16, 8, 4, 1 };
    for (unsigned i = 0; i < 6; i++) {
        unsigned w, h;
        vc4_utile_size(bpp[i], &w, &h);
        CU_ASSERT_EQUAL(w * h * bpp[i], 512u);
    }
    CU_ASSERT_EQUAL(vc4_texture_layout(VC4_TEX_RGBA8888, 16, 64), VC4_LAYOUT_LT);
    CU_ASSERT_EQUAL(vc4_texture_layout(VC4_TEX_RGBA8888, 32, 32), VC4_LAYOUT_T);
    CU_ASSERT_EQUAL(vc4_texture_layout(VC4_TEX_RGBA32R, 4, 4), VC4_LAYOUT_RASTER);

    struct rig r = rig_new();
    /* type 18 is not in Table 18 (5 bits: TYPE4 with TYPE 2) */
    uint32_t q[2] = { param0(0x10000, false, 18), param1(16, 16, 1, 1, 0, 0, 18) };
    float s[16] = { 0 }, tt[16] = { 0 };
    script_lookup(&r, q, 2, s, tt, NULL, 0);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 1);
    CU_ASSERT_EQUAL(r.catcher->value[0][0], 0u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.unsupported_types"), 1);
    sim_destroy(r.sim);
}

/* Bad input: a texture whose base lies beyond the machine's 64 MB reads 0 for every
 * element, counted, and the QPU still gets its answer (seed 002 gives no fault path). */
static void test_texture_beyond_memory(void)
{
    struct rig r = rig_new();
    uint32_t q[2] = { param0(0x3f000000u, false, VC4_TEX_RGBA8888),
                      param1(16, 16, 0, 0, 0, 0, VC4_TEX_RGBA8888) };
    float s[16], t[16];
    for (unsigned i = 0; i < 16; i++) {
        s[i] = (i + 0.5f) / 16.0f;
        t[i] = 0.5f;
    }
    script_lookup(&r, q, 2, s, t, NULL, 0);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 1);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(r.catcher->value[0][i], 0u);
    CU_ASSERT(probe_stat(r.sim, "tmu.lookups_beyond_memory") >= 16);
    sim_destroy(r.sim);
}

/* ---- Table 18's types, mipmaps and LOD through the library (vc4_texture.h) ---- */

struct image {
    uint8_t bytes[16384];
    uint32_t base;              /* bus address of bytes[0] */
};

static bool image_read(void *context, uint32_t address, void *data, uint32_t bytes)
{
    struct image *im = context;
    if (address < im->base || address + bytes > im->base + sizeof im->bytes)
        return false;
    memcpy(data, im->bytes + (address - im->base), bytes);
    return true;
}

/* decoded texel (x, y) of a w x h image: nearest at its centre, magnified (lambda <= 0) */
static unsigned texel_at(struct image *im, uint32_t p0, uint32_t p1, uint32_t x, uint32_t y,
                         uint32_t w, uint32_t h, uint32_t out[2])
{
    uint32_t p[2] = { p0, p1 };
    struct vc4_texture t;
    vc4_texture_decode(p, 2, &t);
    return vc4_texture_sample_lod(&t, (x + 0.5f) / w, (y + 0.5f) / h, 0, -INFINITY, 0,
                                  image_read, im, out);
}

/* sets bits [bit, bit + n) of the image to v, lowest bit first */
static void put_bits(struct image *im, uint32_t bit, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t *b = &im->bytes[(bit + i) / 8];
        unsigned k = (bit + i) % 8;
        *b = (uint8_t)((*b & ~(1u << k)) | ((v >> i & 1) << k));
    }
}

/* The small types, each in an LT image of one micro-tile (Sec 11: 64 bytes of raster-order
 * pixels: 16 bpp 8 x 4, 8 bpp 8 x 8, 4 bpp 16 x 8, 1 bpp 32 x 16; 64 bpp 2 x 4), checked
 * against the definitions vc4_texture.h gives (Table 18 names, choices marked there). */
static void test_small_types_decode(void)
{
    static struct image im;
    memset(&im, 0, sizeof im);
    im.base = 0x10000;
    uint32_t out[2];
    struct { uint32_t type, w, h, bpp, x, y, stored, want; } cases[] = {
        /* RGBA4444: fields R, G, B, A from the top, x 17 */
        { VC4_TEX_RGBA4444, 8, 4, 16, 5, 2, 0x1234, 0x44332211u },
        /* RGBA5551: R 15:11, G 10:6, B 5:1, A 0; 5 bits widened (v << 3 | v >> 2) */
        { VC4_TEX_RGBA5551, 8, 4, 16, 1, 3, 31u << 11 | 1u << 6 | 16u << 1 | 1,
          0xff000000u | (16u << 3 | 4) << 16 | 8u << 8 | 255u },
        { VC4_TEX_LUMALPHA, 8, 4, 16, 7, 0, 0x8040, 0x80404040u },
        { VC4_TEX_S16, 8, 4, 16, 2, 1, 0xbeef, 0xbeefu },
        { VC4_TEX_S16F, 8, 4, 16, 3, 3, 0x3c00, 0x3c00u },
        { VC4_TEX_S8, 8, 8, 8, 6, 7, 0x7f, 0x7fu },
        { VC4_TEX_A4, 16, 8, 4, 9, 5, 0xa, 0xaau << 24 },
        { VC4_TEX_A4, 16, 8, 4, 8, 5, 0x9, 0x99u << 24 },
        { VC4_TEX_BW1, 32, 16, 1, 17, 11, 1, 0xffffffffu },
        { VC4_TEX_BW1, 32, 16, 1, 18, 11, 0, 0xff000000u },
        { VC4_TEX_A1, 32, 16, 1, 31, 15, 1, 0xff000000u },
        { VC4_TEX_A1, 32, 16, 1, 0, 0, 0, 0 },
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memset(im.bytes, 0, 64);
        /* one micro-tile: pixel (x, y) at bit (y * w + x) * bpp */
        put_bits(&im, (cases[k].y * cases[k].w + cases[k].x) * cases[k].bpp, cases[k].bpp,
                 cases[k].stored);
        /* a neighbour with every bit set must not leak into the texel */
        uint32_t nx = cases[k].x ^ 1;
        put_bits(&im, (cases[k].y * cases[k].w + nx) * cases[k].bpp, cases[k].bpp, ~0u);
        uint32_t p0 = param0(im.base, false, cases[k].type);
        uint32_t p1 = param1(cases[k].w, cases[k].h, 1, 1, 0, 0, cases[k].type);
        CU_ASSERT_EQUAL(texel_at(&im, p0, p1, cases[k].x, cases[k].y, cases[k].w, cases[k].h,
                                 out), 1u);
        if (out[0] != cases[k].want)
            fprintf(stderr, "type %u case %u: 0x%08x, want 0x%08x\n", cases[k].type, k, out[0],
                    cases[k].want);
        CU_ASSERT_EQUAL(out[0], cases[k].want);
    }
    /* RGBA64 (2 x 4 micro-tile): halves R 15:0, G, B, A; two words RG, BA */
    memset(im.bytes, 0, 64);
    uint16_t h[4] = { 0x3c00, 0x3800, 0xc000, 0x3400 };     /* 1, 0.5, -2, 0.25 */
    memcpy(&im.bytes[(3 * 2 + 1) * 8], h, 8);               /* pixel (1, 3) */
    uint32_t p0 = param0(im.base, false, VC4_TEX_RGBA64);
    uint32_t p1 = param1(2, 4, 1, 1, 0, 0, VC4_TEX_RGBA64);
    CU_ASSERT_EQUAL(texel_at(&im, p0, p1, 1, 3, 2, 4, out), 2u);
    CU_ASSERT_EQUAL(out[0], 0x38003c00u);
    CU_ASSERT_EQUAL(out[1], 0x3400c000u);
    /* float filtering: halfway between R 1.0 and 2.0 is 1.5 (0x3e00), for RGBA64 and S16F */
    memset(im.bytes, 0, 64);
    uint16_t a[4] = { 0x3c00, 0, 0, 0x3c00 }, b[4] = { 0x4000, 0, 0, 0x3c00 };
    memcpy(&im.bytes[0], a, 8);
    memcpy(&im.bytes[8], b, 8);
    uint32_t q[2] = { param0(im.base, false, VC4_TEX_RGBA64),
                      param1(2, 1, 0, 0, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, VC4_TEX_RGBA64) };
    struct vc4_texture t;
    vc4_texture_decode(q, 2, &t);
    CU_ASSERT_EQUAL(vc4_texture_sample_lod(&t, 0.5f, 0.5f, 0, -INFINITY, 0, image_read, &im,
                                           out), 2u);
    CU_ASSERT_EQUAL(out[0], 0x3e00u);
    CU_ASSERT_EQUAL(out[1], 0x3c000000u);
    memset(im.bytes, 0, 64);
    uint16_t s16f[2] = { 0x3c00, 0x4000 };
    memcpy(im.bytes, s16f, 4);
    uint32_t q2[2] = { param0(im.base, false, VC4_TEX_S16F),
                       param1(2, 1, 0, 0, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, VC4_TEX_S16F) };
    vc4_texture_decode(q2, 2, &t);
    vc4_texture_sample_lod(&t, 0.5f, 0.5f, 0, -INFINITY, 0, image_read, &im, out);
    CU_ASSERT_EQUAL(out[0], 0x3e00u);
    /* S16 is point sampled only: the same place answers the left texel */
    uint16_t s16[2] = { 100, 300 };
    memcpy(im.bytes, s16, 4);
    uint32_t q3[2] = { param0(im.base, false, VC4_TEX_S16),
                       param1(2, 1, 0, 0, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, VC4_TEX_S16) };
    vc4_texture_decode(q3, 2, &t);
    vc4_texture_sample_lod(&t, 0.49f, 0.5f, 0, -INFINITY, 0, image_read, &im, out);
    CU_ASSERT_EQUAL(out[0], 100u);
}

/* ETC1 (OES_compressed_ETC1_RGB8_texture): two 4 x 4 blocks worked out by hand from the
 * format's definition. Block A, individual mode, flip 0 (2 x 4 sub-blocks side by side):
 * bases (R, G, B) 4-bit x 17: (170, 85, 51) and (17, 34, 255); codewords 2 (9, 29) and
 * 7 (47, 183); pixel (0,0) index 01 -> +29; (3,1) 11 -> -183; (1,2) 10 -> -9; (2,3) 00 ->
 * +47. Block B, differential, flip 1 (4 x 2 sub-blocks stacked): 5-bit (16, 8, 31) + (3,
 * -4, 0) -> (132, 66, 255) and (156, 33, 255); codewords 0 (2, 8) and 1 (5, 17); (0,0) 00 ->
 * +2; (1,3) 01 -> +17. As an 8 x 4 texture in LT (blocks in a 2 x 4 micro-tile, raster): A
 * is block (0, 0), B block (1, 0). */
static void test_etc1_decode(void)
{
    static struct image im;
    memset(&im, 0, sizeof im);
    im.base = 0x10000;
    static const uint8_t a[8] = { 0xa1, 0x52, 0x3f, 0x5c, 0x20, 0x40, 0x20, 0x01 };
    static const uint8_t b[8] = { 0x83, 0x44, 0xf8, 0x07, 0x00, 0x00, 0x00, 0x80 };
    memcpy(&im.bytes[0], a, 8);
    memcpy(&im.bytes[8], b, 8);
    uint32_t p0 = param0(im.base, false, VC4_TEX_ETC1);
    uint32_t p1 = param1(8, 4, 1, 1, 0, 0, VC4_TEX_ETC1);
    struct { uint32_t x, y, want; } texels[] = {
        { 0, 0, 0xff5072c7u },      /* 199, 114, 80 */
        { 3, 1, 0xff480000u },      /* 0, 0, 72 */
        { 1, 2, 0xff2a4ca1u },      /* 161, 76, 42 */
        { 2, 3, 0xffff5140u },      /* 64, 81, 255 */
        { 4, 0, 0xffff4486u },      /* 134, 68, 255 */
        { 5, 3, 0xffff32adu },      /* 173, 50, 255 */
    };
    uint32_t out[2];
    for (unsigned k = 0; k < sizeof texels / sizeof texels[0]; k++) {
        texel_at(&im, p0, p1, texels[k].x, texels[k].y, 8, 4, out);
        CU_ASSERT_EQUAL(out[0], texels[k].want);
    }
    /* ETCFLIP (Table 16 bit 19): block rows from the last: image row 0 is block row 3 */
    texel_at(&im, p0, p1 | 1u << 19, 2, 0, 8, 4, out);
    CU_ASSERT_EQUAL(out[0], 0xffff5140u);
}

/* YUYV422R (raster, 32 bits a pair): BT.601 video range, worked by hand: Y 235 U V 128 is
 * white, Y 16 black; Y 81 U 90 V 240 is (254, 0, 0) (1.164 * 65 + 1.596 * 112 = 254.4;
 * G and B round below 0) */
static void test_yuyv_decode(void)
{
    static struct image im;
    memset(&im, 0, sizeof im);
    im.base = 0x10000;
    static const uint8_t row[8] = { 235, 128, 16, 128, 81, 90, 81, 240 };
    memcpy(&im.bytes[8], row, 8);           /* row 1 of a 4 x 2 image (8 bytes a row) */
    uint32_t p0 = param0(im.base, false, VC4_TEX_YUYV422R & 15);
    uint32_t p1 = param1(4, 2, 1, 1, 0, 0, VC4_TEX_YUYV422R);
    uint32_t out[2];
    static const uint32_t want[4] = { 0xffffffffu, 0xff000000u, 0xff0000feu, 0xff0000feu };
    for (unsigned x = 0; x < 4; x++) {
        texel_at(&im, p0, p1, x, 1, 4, 2, out);
        CU_ASSERT_EQUAL(out[0], want[x]);
    }
}

/* Mipmaps: a 32 x 32 RGBA8888 texture with MIPLVLS 2: level 0 (T-format, 4 KiB) at the base,
 * level 1 (16 x 16, LT: 1 KiB) just before it, level 2 (8 x 8, LT: 256 bytes) before that
 * ("stored in reverse order before" LOD0, @97624). Each level one colour: red, green, blue.
 * A quad whose s steps by k texels per pixel has lambda = log2(k) (OpenGL 2.0 Sec 3.8.8). */
static void test_mipmaps_and_lod(void)
{
    static struct image im;
    memset(&im, 0, sizeof im);
    im.base = 0x10000 - 2048;
    uint32_t base = 0x10000;                                    /* BASE: 4 KiB units */
    static const uint32_t colour[3] = { 0xff0000ffu, 0xff00ff00u, 0xffff0000u };
    static const uint32_t start[3] = { 2048, 2048 - 1024, 2048 - 1024 - 256 };
    static const uint32_t size[3] = { 4096, 1024, 256 };
    for (unsigned l = 0; l < 3; l++)
        for (uint32_t i = 0; i < size[l]; i += 4)
            memcpy(&im.bytes[start[l] + i], &colour[l], 4);
    struct vc4_texture t;
    uint32_t p[3];
    p[0] = base | VC4_TEX_RGBA8888 << 4 | 2;                    /* MIPLVLS 2 */
    CU_ASSERT_EQUAL(vc4_texture_level_bytes(&(struct vc4_texture){ .type = 0, .width = 32,
                    .height = 32, .levels = 3 }, 1), 1024u);
    struct { unsigned min, mag; float step, bias; int bias_only; uint32_t want; } cases[] = {
        { 2, 1, 1, 0, 0, 0xff0000ffu },     /* lambda 0: magnified, level 0 */
        { 2, 1, 2, 0, 0, 0xff00ff00u },     /* NEAR_MIP_NEAR, lambda 1: level 1 */
        { 2, 1, 4, 0, 0, 0xffff0000u },     /* lambda 2: level 2 */
        { 2, 1, 8, 0, 0, 0xffff0000u },     /* lambda 3: at most MIPLVLS */
        { 2, 1, 1.6f, 0, 0, 0xff00ff00u },  /* lambda 0.68: ceil(1.18) - 1 = 1 */
        { 1, 1, 4, 0, 0, 0xff0000ffu },     /* NEAREST: LOD 0 only */
        { 5, 1, 2.37841423f, 0, 0, 0xff40bf00u },   /* LIN_MIP_LIN, lambda 1.25 */
        { 3, 1, 2.37841423f, 0, 0, 0xff40bf00u },   /* NEAR_MIP_LIN, the same blend */
        { 2, 1, 2, 1, 0, 0xffff0000u },     /* lambda 1 + bias 1: level 2 */
        { 2, 1, 8, 1, 1, 0xff00ff00u },     /* BSLOD: the bias alone, 1 */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        p[1] = param1(32, 32, cases[k].mag, cases[k].min, VC4_WRAP_REPEAT, VC4_WRAP_REPEAT, 0);
        p[2] = 1u << 30 | (uint32_t)cases[k].bias_only;
        vc4_texture_decode(p, 3, &t);
        float step = cases[k].step / 32;
        float s[4] = { 0.3f, 0.3f + step, 0.3f, 0.3f + step }, tc[4] = { 0.4f, 0.4f, 0.4f, 0.4f };
        float r[4] = { 0 };
        float lod = vc4_texture_quad_lod(&t, s, tc, r, cases[k].bias);
        uint32_t out[2];
        vc4_texture_sample_lod(&t, s[0], tc[0], 0, lod, 0, image_read, &im, out);
        if (out[0] != cases[k].want)
            fprintf(stderr, "mip case %u: lod %f 0x%08x want 0x%08x\n", k, lod, out[0],
                    cases[k].want);
        CU_ASSERT_EQUAL(out[0], cases[k].want);
    }
}

/* Through the TMU unit: an RGBA64 lookup answers two loads (RG, then BA; @95448); a
 * mipmapped lookup takes each quad's own level of detail (elements 4q..4q+3). */
static void test_tmu_rgba64_and_quad_lod(void)
{
    struct rig r = rig_new();
    uint16_t h[4] = { 0x3c00, 0x3800, 0xc000, 0x3400 };
    for (unsigned i = 0; i < 8; i++)        /* a 2 x 4 RGBA64 image, every texel the same */
        gpu_memory_write(r.memory, 0x20000 + 8 * i, h, 8, NULL);
    uint32_t p[2] = { param0(0x20000, false, VC4_TEX_RGBA64),
                      param1(2, 4, 1, 1, VC4_WRAP_CLAMP, VC4_WRAP_CLAMP, VC4_TEX_RGBA64) };
    float s[16], t[16];
    for (unsigned i = 0; i < 16; i++) {
        s[i] = 0.25f;
        t[i] = 0.5f;
    }
    script_lookup(&r, p, 2, s, t, NULL, 0);
    r.feeder->script[r.feeder->count] = r.feeder->script[r.feeder->count - 1];  /* 2nd load */
    r.feeder->count++;
    /* mipmapped 32 x 32: level 0 red at 0x31000, level 1 green 1 KiB before */
    for (uint32_t i = 0; i < 4096; i += 4) {
        uint32_t red = 0xff0000ffu, green = 0xff00ff00u;
        gpu_memory_write(r.memory, 0x31000 + i, &red, 4, NULL);
        if (i < 1024)
            gpu_memory_write(r.memory, 0x31000 - 1024 + i, &green, 4, NULL);
    }
    uint32_t q[2] = { param0(0x31000, false, VC4_TEX_RGBA8888) | 1,
                      param1(32, 32, 1, 2, VC4_WRAP_REPEAT, VC4_WRAP_REPEAT, 0) };
    for (unsigned i = 0; i < 16; i++) {
        /* quads 0 and 2 step one texel a pixel (level 0), quads 1 and 3 two (level 1) */
        float step = ((i / 4) & 1) ? 2.0f / 32 : 1.0f / 32;
        s[i] = 0.2f + (i & 1) * step;
        t[i] = 0.6f + (i >> 1 & 1) * step;
    }
    script_lookup(&r, q, 2, s, t, NULL, 0);
    run(&r);
    CU_ASSERT_EQUAL_FATAL(r.catcher->count, 3);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(r.catcher->value[0][i], 0x38003c00u);
        CU_ASSERT_EQUAL(r.catcher->value[1][i], 0x3400c000u);
        CU_ASSERT_EQUAL(r.catcher->value[2][i], ((i / 4) & 1) ? 0xff00ff00u : 0xff0000ffu);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.rgba64_lookups"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.mipmap_lookups"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.loads_without_request"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "T-format RGBA8888, nearest at texel centres", test_t_format_nearest },
    { "LT RGB565: repeat, mirror, clamp, border, bilinear", test_lt_565_wraps_and_bilinear },
    { "cube map faces by major axis", test_cube_faces },
    { "config decode, layouts, unsupported type", test_decode_and_unsupported },
    { "a texture beyond memory reads 0, counted", test_texture_beyond_memory },
    { "Table 18's 16/8/4/1-bit, sample and RGBA64 types", test_small_types_decode },
    { "ETC1 blocks, individual and differential, ETCFLIP", test_etc1_decode },
    { "YUYV422R raster pairs", test_yuyv_decode },
    { "mipmap levels before LOD0, LOD, mip filters, bias", test_mipmaps_and_lod },
    { "TMU: RGBA64 answers two loads; LOD per quad", test_tmu_rgba64_and_quad_lod },
    { 0 }
};
TEST_SUITE(vc4_tmu, cases);
