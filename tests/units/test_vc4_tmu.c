/* tests/units/test_vc4_tmu.c - the TMU's texture lookups (units/vc4_tmu, vc4_texture): a
 * feeder sends a QPU's TMU writes (with the uniforms the QPU pops) and load signals, a catcher
 * takes the r4 answers. Textures are written here from the seed's memory-order description
 * (Sec 11, notes §4.7): the T-format writer walks memory in order (tiles in their snake, the
 * sub-tiles in the row's order, micro-tiles and pixels in raster order) and works out each
 * position's pixel, the opposite direction of the model's address function; expected colours
 * are computed here from the stored texels.
 */
#include <math.h>
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
    uint32_t q[2] = { param0(0x10000, false, VC4_TEX_ETC1),
                      param1(16, 16, 1, 1, 0, 0, VC4_TEX_ETC1) };
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

static const struct test_case cases[] = {
    { "T-format RGBA8888, nearest at texel centres", test_t_format_nearest },
    { "LT RGB565: repeat, mirror, clamp, border, bilinear", test_lt_565_wraps_and_bilinear },
    { "cube map faces by major axis", test_cube_faces },
    { "config decode, layouts, unsupported type", test_decode_and_unsupported },
    { "a texture beyond memory reads 0, counted", test_texture_beyond_memory },
    { 0 }
};
TEST_SUITE(vc4_tmu, cases);
