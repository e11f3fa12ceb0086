/* tests/units/test_blitter.c - the 2D blitter (units/blitter): command streams
 * built here from the seed's layouts (004 L25574-27067, notes/004-000-
 * commands.md §1.8; 32-bit addresses before Gen8), run on the blitter alone,
 * and the memory after them compared with what the test computes itself
 * (its own fill, copy, ROP and tile address arithmetic: X tiles 512 B x 8
 * rows, Y tiles of 16-byte columns 32 rows high, seed 003 L5332-5344). */
#include "../test.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "units/common/mmio.h"
#include "units/registry.h"

#define PAGES 1024u
#define PHYS_BASE 0x100000ull
#define BCS 0x22000u

struct rig {
    struct sim *sim;
    struct unit *blt, *memory;
    struct gpu_memory *mem;
    struct gpu_address_space gtt;
    uint32_t ring[1024];
    uint32_t n;
    int gen;
};

static void host_write(struct rig *r, uint32_t offset, uint32_t value)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_WRITE;
    c->offset = offset;
    c->value = value;
    CU_ASSERT_TRUE(port_inject(unit_port(r->blt, "host", 0), m));
}

static void rig_init(struct rig *r, int gen, bool with_memory)
{
    memset(r, 0, sizeof *r);
    r->gen = gen;
    struct sim_options o = { .watchdog_cycles = 200000, .log_level = -1 };
    r->sim = probe_sim(&o);
    r->mem = probe_memory(r->sim);
    char g[16];
    snprintf(g, sizeof g, "gen=%d", gen);
    const char *over[] = { g, "max_reports=0", NULL };
    r->blt = probe_add(r->sim, unit_kind_find("blitter"), "blitter", over);
    for (uint64_t i = 0; i < PAGES; i++) {
        uint64_t pte = (PHYS_BASE + i * 4096) | 1;
        CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(r->mem, i * (gen >= 8 ? 8 : 4), &pte,
                                                     gen >= 8 ? 8 : 4, NULL), 0);
    }
    gpu_address_space_init(&r->gtt, r->mem, gen >= 8 ? GPU_ADDRESS_SPACE_GGTT_GEN8
                                            : gen >= 6 ? GPU_ADDRESS_SPACE_GTT_GEN6
                                                       : GPU_ADDRESS_SPACE_GTT_GEN4, 0);
    if (with_memory) {
        const char *none[] = { NULL };
        r->memory = probe_add(r->sim, unit_kind_find("memory"), "memory", none);
        probe_link(r->sim, r->blt, "memory", r->memory, "client[0]", 4, 16, 1);
        probe_link(r->sim, r->memory, "client_reply[0]", r->blt, "memory_reply", 4, 16, 1);
    }
    host_write(r, BCS + 0x200, 0xFFFF0000u);    /* BCS_SWCTRL: all linear (makes the channel) */
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r->sim, &err), 0);
}

static void emit(struct rig *r, uint32_t dw) { r->ring[r->n++] = dw; }

/* Hands the ring dwords over inline (as legacy AUBs do for RING_PRB2) and runs. */
static void rig_run(struct rig *r)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, (uint32_t)(sizeof(struct cs_mmio) + 4u * r->n));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_RING_DATA;
    c->ring = 4;            /* AUB_TRACE_RING_PRB2, the blitter */
    c->size = 4u * r->n;
    memcpy(c->data, r->ring, 4u * r->n);
    CU_ASSERT_TRUE(port_inject(unit_port(r->blt, "host", 0), m));
    sim_run(r->sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r->sim), SIM_STOP_QUIESCENT);
    r->n = 0;
}

static void rig_done(struct rig *r) { sim_destroy(r->sim); }

static double stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "blitter.%s", name);
    return probe_stat(r->sim, path);
}

static void put(struct rig *r, uint64_t a, const void *p, uint64_t n)
{
    CU_ASSERT_EQUAL(gpu_address_space_write(&r->gtt, a, p, n, NULL), 0);
}

static void get(struct rig *r, uint64_t a, void *p, uint64_t n)
{
    CU_ASSERT_EQUAL(gpu_address_space_read(&r->gtt, a, p, n, NULL), 0);
}

/* ---- the test's own command builders (seed layouts) ------------------------ */

static uint32_t header(uint32_t opcode, uint32_t flags, uint32_t dwords)
{
    return 2u << 29 | opcode << 22 | flags | (dwords - 2);    /* Client 2, bias 2 */
}

static void address(struct rig *r, uint64_t a)
{
    emit(r, (uint32_t)a);
    if (r->gen >= 8)
        emit(r, (uint32_t)(a >> 32) & 0xFFFF);
}

static uint32_t xy(int x, int y) { return (uint32_t)(uint16_t)y << 16 | (uint16_t)x; }

static void color_blt(struct rig *r, uint32_t flags, uint32_t br13, int x1, int y1, int x2,
                      int y2, uint64_t dst, uint32_t color)
{
    emit(r, header(0x50, flags, r->gen >= 8 ? 7 : 6));
    emit(r, br13);
    emit(r, xy(x1, y1));
    emit(r, xy(x2, y2));
    address(r, dst);
    emit(r, color);
}

static void src_copy_blt(struct rig *r, uint32_t flags, uint32_t br13, int x1, int y1, int x2,
                         int y2, uint64_t dst, int sx, int sy, uint32_t src_pitch, uint64_t src)
{
    emit(r, header(0x53, flags, r->gen >= 8 ? 10 : 8));
    emit(r, br13);
    emit(r, xy(x1, y1));
    emit(r, xy(x2, y2));
    address(r, dst);
    emit(r, xy(sx, sy));
    emit(r, src_pitch & 0xFFFF);
    address(r, src);
}

static void setup_blt(struct rig *r, uint32_t br01, int cx1, int cy1, int cx2, int cy2,
                      uint64_t dst, uint32_t bg, uint32_t fg, uint64_t pattern)
{
    emit(r, header(0x01, 3u << 20, r->gen >= 8 ? 10 : 8));
    emit(r, br01);
    emit(r, xy(cx1, cy1));
    emit(r, xy(cx2, cy2));
    address(r, dst);
    emit(r, bg);
    emit(r, fg);
    address(r, pattern);
}

static uint32_t br13(bool clip, uint32_t depth, uint8_t rop, int pitch)
{
    return (clip ? 1u << 30 : 0) | depth << 24 | (uint32_t)rop << 16 | ((uint32_t)pitch & 0xFFFF);
}

static const uint32_t write_rgba = 3u << 20;    /* BR00 21:20 */

/* The test's own tile arithmetic (seed 003 L5332-5344). */
static uint64_t x_tiled(uint32_t pitch, uint32_t xb, uint32_t y)
{
    return (uint64_t)(y / 8) * pitch * 8 + (xb / 512) * 4096ull + (y % 8) * 512 + xb % 512;
}

static uint64_t y_tiled(uint32_t pitch, uint32_t xb, uint32_t y)
{
    return (uint64_t)(y / 32) * pitch * 32 + (xb / 128) * 4096ull + (xb % 128 / 16) * 512 +
           (y % 32) * 16 + xb % 16;
}

static uint32_t hash(uint32_t i) { i ^= i >> 15; i *= 0x2C1B3C6Du; i ^= i >> 12; return i * 0x297A2D39u; }

static void fill_random(struct rig *r, uint64_t a, uint32_t bytes, uint32_t seed)
{
    uint8_t *b = malloc(bytes);
    for (uint32_t i = 0; i < bytes; i++)
        b[i] = (uint8_t)hash(seed * 7919u + i);
    put(r, a, b, bytes);
    free(b);
}

/* ---- tests ------------------------------------------------------------------- */

/* XY_COLOR_BLT, 32 bpp, linear, on each generation's layout: the rectangle
 * gets the colour, nothing around it changes. */
static void test_color_fill_every_generation(void)
{
    static const int gens[] = { 4, 7, 8, 9 };
    for (size_t g = 0; g < 4; g++) {
        struct rig r;
        rig_init(&r, gens[g], false);
        const uint64_t dst = 0x10000;
        const int pitch = 256;          /* bytes */
        fill_random(&r, dst, 64 * pitch, 1);
        uint8_t before[64 * 256], after[64 * 256];
        get(&r, dst, before, sizeof before);
        color_blt(&r, write_rgba, br13(false, 3, 0xF0, pitch), 5, 3, 37, 20, dst, 0x11223344u);
        rig_run(&r);
        get(&r, dst, after, sizeof after);
        for (int y = 0; y < 64; y++)
            for (int x = 0; x < 64; x++) {
                uint32_t got, was;
                memcpy(&got, after + y * pitch + 4 * x, 4);
                memcpy(&was, before + y * pitch + 4 * x, 4);
                bool inside = x >= 5 && x < 37 && y >= 3 && y < 20;
                if (got != (inside ? 0x11223344u : was)) {
                    CU_FAIL("XY_COLOR_BLT pixel wrong");
                    x = y = 64;
                }
            }
        CU_ASSERT_EQUAL(stat(&r, "blits.color"), 1);
        CU_ASSERT_EQUAL(stat(&r, "pixels_written"), 32 * 17);
        rig_done(&r);
    }
}

/* XY_SRC_COPY_BLT at 16 bpp with ROP 66h (S xor D), source and destination
 * pitches of their own, and a clip rectangle from XY_SETUP_CLIP_BLT. */
static void test_src_copy_rop_pitch_clip(void)
{
    struct rig r;
    rig_init(&r, 8, false);
    const uint64_t src = 0x20000, dst = 0x40000;
    const int sp = 320, dp = 448;
    fill_random(&r, src, 80 * sp, 2);
    fill_random(&r, dst, 80 * dp, 3);
    uint8_t s0[80 * 320], d0[80 * 448], d1[80 * 448];
    get(&r, src, s0, sizeof s0);
    get(&r, dst, d0, sizeof d0);
    emit(&r, header(0x03, 0, 3));      /* XY_SETUP_CLIP_BLT: [12, 50) x [6, 40) */
    emit(&r, xy(12, 6));
    emit(&r, xy(50, 40));
    src_copy_blt(&r, 0, br13(true, 1, 0x66, dp), 8, 4, 60, 44, dst, 30, 20, (uint32_t)sp, src);
    rig_run(&r);
    get(&r, dst, d1, sizeof d1);
    int bad = 0, written = 0;
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 200; x++) {
            uint16_t got, was, s = 0;
            memcpy(&got, d1 + y * dp + 2 * x, 2);
            memcpy(&was, d0 + y * dp + 2 * x, 2);
            bool inside = x >= 12 && x < 50 && y >= 6 && y < 40;
            if (inside) {
                memcpy(&s, s0 + (y - 4 + 20) * sp + 2 * (x - 8 + 30), 2);
                written++;
            }
            bad += got != (uint16_t)(inside ? s ^ was : was);
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(stat(&r, "pixels_written"), written);
    CU_ASSERT_EQUAL(stat(&r, "pixels_clipped"), 52 * 40 - written);
    rig_done(&r);
}

/* A copy within one surface, to the right and down by a few pixels: the
 * result is that of reading the whole source first (004 L26985-26990). */
static void test_overlapping_copy(void)
{
    struct rig r;
    rig_init(&r, 9, false);
    const uint64_t a = 0x30000;
    const int pitch = 128;
    fill_random(&r, a, 32 * pitch, 4);
    uint8_t before[32 * 128], after[32 * 128];
    get(&r, a, before, sizeof before);
    src_copy_blt(&r, write_rgba, br13(false, 3, 0xCC, pitch), 3, 2, 23, 22, a, 0, 0,
                 (uint32_t)pitch, a);
    rig_run(&r);
    get(&r, a, after, sizeof after);
    int bad = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            uint32_t got, want;
            memcpy(&got, after + y * pitch + 4 * x, 4);
            bool inside = x >= 3 && x < 23 && y >= 2 && y < 22;
            memcpy(&want, before + (inside ? (y - 2) * pitch + 4 * (x - 3) : y * pitch + 4 * x), 4);
            bad += got != want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    rig_done(&r);
}

/* Linear to X-tiled (Tiling Enable, BCS_SWCTRL clear), then X-tiled to
 * Y-tiled (BCS_SWCTRL by MI_LOAD_REGISTER_IMM: destination Tile-Y); tiled
 * pitches are in dwords. Each tiled image is checked at the test's own tile
 * addresses. */
static void test_tiled_copies(void)
{
    struct rig r;
    rig_init(&r, 9, false);
    const uint64_t lin = 0x10000, xt = 0x80000, yt = 0xC0000;
    const uint32_t lp = 256, tp = 512;     /* bytes: one X tile, four Y tiles wide */
    fill_random(&r, lin, 64 * lp, 5);
    uint8_t src[64 * 256];
    get(&r, lin, src, sizeof src);
    src_copy_blt(&r, write_rgba | 1u << 11, br13(false, 3, 0xCC, (int)tp / 4), 0, 0, 64, 64, xt,
                 0, 0, lp, lin);
    emit(&r, 0x22u << 23 | 1);          /* MI_LOAD_REGISTER_IMM BCS_SWCTRL: dst Y */
    emit(&r, BCS + 0x200);
    emit(&r, 0x00020002u);
    src_copy_blt(&r, write_rgba | 1u << 11 | 1u << 15, br13(false, 3, 0xCC, (int)tp / 4), 0, 0,
                 64, 64, yt, 0, 0, tp / 4, xt);
    rig_run(&r);
    int bad_x = 0, bad_y = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint32_t want, gx, gy;
            memcpy(&want, src + y * lp + 4 * x, 4);
            get(&r, xt + x_tiled(tp, 4 * x, y), &gx, 4);
            get(&r, yt + y_tiled(tp, 4 * x, y), &gy, 4);
            bad_x += gx != want;
            bad_y += gy != want;
        }
    CU_ASSERT_EQUAL(bad_x, 0);
    CU_ASSERT_EQUAL(bad_y, 0);
    CU_ASSERT_EQUAL(stat(&r, "blits.src_copy"), 2);
    rig_done(&r);
}

/* XY_FAST_COPY_BLT (Gen9): linear source to a Y-tiled destination (DW0
 * 14:13 = 2), 32 bpp (DW1 26:24 = 3). */
static void test_fast_copy(void)
{
    struct rig r;
    rig_init(&r, 9, false);
    const uint64_t lin = 0x10000, yt = 0x40000;
    const uint32_t lp = 192, tp = 256;
    fill_random(&r, lin, 40 * lp, 6);
    uint8_t src[40 * 192];
    get(&r, lin, src, sizeof src);
    emit(&r, header(0x42, 2u << 13, 10));
    emit(&r, 3u << 24 | tp / 4);
    emit(&r, xy(4, 1));
    emit(&r, xy(36, 33));
    address(&r, yt);
    emit(&r, xy(2, 5));
    emit(&r, lp);
    address(&r, lin);
    rig_run(&r);
    int bad = 0;
    for (uint32_t y = 1; y < 33; y++)
        for (uint32_t x = 4; x < 36; x++) {
            uint32_t want, got;
            memcpy(&want, src + (y - 1 + 5) * lp + 4 * (x - 4 + 2), 4);
            get(&r, yt + y_tiled(tp, 4 * x, y), &got, 4);
            bad += got != want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(stat(&r, "blits.fast_copy"), 1);
    rig_done(&r);
}

/* XY_SETUP_BLT then XY_PIXEL_BLT (the foreground colour) and
 * XY_SCANLINES_BLT (the 8x8 colour pattern at BR07 with seeds), 8 bpp, ROP
 * F0h, the setup's clip rectangle enabled; and the 32 bpp byte mask: an
 * XY_COLOR_BLT writing the alpha byte only. */
static void test_setup_pixel_scanlines_and_byte_mask(void)
{
    struct rig r;
    rig_init(&r, 7, false);
    const uint64_t dst = 0x10000, pat = 0x8000, d32 = 0x30000;
    const int pitch = 64;
    uint8_t pattern[64], zero[64 * 64] = { 0 };
    for (int i = 0; i < 64; i++)
        pattern[i] = (uint8_t)(i * 3 + 1);
    put(&r, pat, pattern, 64);
    put(&r, dst, zero, sizeof zero);
    setup_blt(&r, 1u << 30 | 0u << 24 | 0xF0u << 16 | pitch, 0, 0, 40, 40, dst, 0, 0xAB, pat);
    emit(&r, header(0x24, 0, 2));                   /* XY_PIXEL_BLT at (7, 9) */
    emit(&r, xy(7, 9));
    emit(&r, header(0x24, 0, 2));                   /* clipped away */
    emit(&r, xy(45, 9));
    emit(&r, header(0x25, 3u << 12 | 5u << 8, 3));  /* seeds: horizontal 3, vertical 5 */
    emit(&r, xy(10, 20));
    emit(&r, xy(50, 30));                           /* clipped at x = 40 */
    fill_random(&r, d32, 16 * 64, 7);
    uint8_t before32[16 * 64], after32[16 * 64];
    get(&r, d32, before32, sizeof before32);
    color_blt(&r, 1u << 21, br13(false, 3, 0xF0, 64), 0, 0, 16, 16, d32, 0xC0FFEE77u);
    rig_run(&r);
    uint8_t img[64 * 64];
    get(&r, dst, img, sizeof img);
    int bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t want = 0;
            if (x == 7 && y == 9)
                want = 0xAB;
            else if (x >= 10 && x < 40 && y >= 20 && y < 30)
                want = pattern[((y + 5) & 7) * 8 + ((x + 3) & 7)];
            bad += img[y * pitch + x] != want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    get(&r, d32, after32, sizeof after32);
    int bad32 = 0;
    for (int i = 0; i < 16 * 16; i++) {
        uint32_t was, got;
        memcpy(&was, before32 + 4 * i, 4);
        memcpy(&got, after32 + 4 * i, 4);
        bad32 += got != ((was & 0x00FFFFFFu) | 0xC0000000u);
    }
    CU_ASSERT_EQUAL(bad32, 0);
    CU_ASSERT_EQUAL(stat(&r, "blits.pixel"), 2);
    CU_ASSERT_EQUAL(stat(&r, "blits.scanlines"), 1);
    rig_done(&r);
}

/* The ring from the BCS ring registers (RING_START/CTL/HEAD, then a TAIL
 * write) calling a batch buffer; with the memory model linked, every line
 * the blit writes is a request: 64 x 4 pixels of 32 bits at a 256-byte pitch
 * are 4 rows of 4 lines. */
static void test_ring_registers_batch_and_memory_traffic(void)
{
    struct rig r;
    rig_init(&r, 8, true);
    const uint64_t ring = 0x1000, batch = 0x2000, dst = 0x10000;
    uint32_t b[16], n = 0;
    b[n++] = header(0x50, write_rgba, 7);
    b[n++] = br13(false, 3, 0xF0, 256);
    b[n++] = xy(0, 0);
    b[n++] = xy(64, 4);
    b[n++] = (uint32_t)dst;
    b[n++] = 0;
    b[n++] = 0x5A5A5A5Au;
    b[n++] = 0x0A << 23;                    /* MI_BATCH_BUFFER_END */
    put(&r, batch, b, 4ull * n);
    uint32_t ringdw[4] = { 0x31u << 23 | 1, (uint32_t)batch, 0, 0 };   /* MI_BATCH_BUFFER_START */
    put(&r, ring, ringdw, sizeof ringdw);
    host_write(&r, BCS + 0x38, (uint32_t)ring);
    host_write(&r, BCS + 0x3C, 1);
    host_write(&r, BCS + 0x34, 0);
    host_write(&r, BCS + 0x30, 16);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(r.sim), SIM_STOP_QUIESCENT);
    uint32_t px[4 * 64];
    int bad = 0;
    for (int y = 0; y < 4; y++) {
        get(&r, dst + 256ull * y, px + 64 * y, 256);
        for (int x = 0; x < 64; x++)
            bad += px[64 * y + x] != 0x5A5A5A5Au;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(stat(&r, "submissions"), 1);
    CU_ASSERT_EQUAL(stat(&r, "batches"), 1);
    CU_ASSERT_EQUAL(stat(&r, "memory_requests"), 16);
    CU_ASSERT_EQUAL(stat(&r, "memory_replies"), 16);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "memory.writes"), 16);
    rig_done(&r);
}

/* Bad input is counted, never a crash or a hang: a blit outside mapped
 * memory, a tiled pitch that is not whole tiles, a zero pitch, a tiled base
 * not 4 KiB aligned, a command shorter than its layout, a 2D command not
 * modelled, then random dwords. */
static void test_bad_input_counted(void)
{
    struct rig r;
    rig_init(&r, 9, false);
    color_blt(&r, write_rgba, br13(false, 3, 0xF0, 4096), 0, 0, 16, 2000, 0x10000, 1);
    color_blt(&r, write_rgba | 1u << 11, br13(false, 3, 0xF0, 100), 0, 0, 4, 4, 0x10000, 1);
    color_blt(&r, write_rgba, br13(false, 3, 0xF0, 0), 0, 0, 4, 4, 0x10000, 1);
    color_blt(&r, write_rgba | 1u << 11, br13(false, 3, 0xF0, 128), 0, 0, 4, 4, 0x10040, 1);
    emit(&r, header(0x50, 0, 3));           /* XY_COLOR_BLT of 3 dwords */
    emit(&r, 0);
    emit(&r, 0);
    emit(&r, header(0x55, 0, 12));          /* XY_FULL_BLT: not modelled */
    for (int i = 0; i < 11; i++)
        emit(&r, 0);
    color_blt(&r, write_rgba, br13(false, 3, 0xF0, 64), 0, 0, 4, 4, 0x10000, 0x77);
    rig_run(&r);
    CU_ASSERT_EQUAL(stat(&r, "faults"), 1);
    CU_ASSERT_EQUAL(stat(&r, "bad_pitches"), 2);
    CU_ASSERT_EQUAL(stat(&r, "bad_addresses"), 1);
    CU_ASSERT_EQUAL(stat(&r, "malformed"), 1);
    CU_ASSERT_EQUAL(stat(&r, "not_modelled"), 1);
    CU_ASSERT_EQUAL(stat(&r, "blits.color"), 5);
    uint32_t last = 0;
    get(&r, 0x10000 + 64 * 3 + 12, &last, 4);
    CU_ASSERT_EQUAL(last, 0x77);            /* the good blit after them still ran */
    rig_done(&r);

    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 100; round++) {
        rig_init(&r, round % 2 ? 9 : 7, round % 3 == 0);
        for (int i = 0; i < 48; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint32_t dw = (uint32_t)x;
            if (i % 4 == 0)     /* bias towards 2D headers with short lengths */
                dw = 2u << 29 | (dw & 0x1FFFFF00u) | (dw & 0xF);
            emit(&r, dw);
        }
        rig_run(&r);
        rig_done(&r);
    }
}

/* Gen4: the 2D commands sit in the render ring; the render CS passes each on
 * to the blitter ("blt"), which fills the rectangle (the Gen4 XY_COLOR_BLT
 * form: 6 dwords, a 32-bit address). */
/* Gen8/9 execlist submissions the host routes to the blitter (ELSP, BCS +
 * 0x230, four dwords, the descriptor's low dword last; aub-format.md
 * section 4.4): a descriptor without its Valid bit (bit 0) is counted and
 * ignored; a valid one whose LRCA's register state does not translate
 * (0xFFFFF000: beyond the GTT entries this rig writes) is a counted hang,
 * not a crash; an inline ring after both still blits. */
static void test_bad_execlist_submissions_counted(void)
{
    struct rig r;
    rig_init(&r, 9, false);
    static const uint32_t invalid[4] = { 0, 0, 0, 0x2338 };
    static const uint32_t unmapped[4] = { 0, 0, 0, 0xFFFFF001u };
    for (int i = 0; i < 4; i++)
        host_write(&r, BCS + 0x230, invalid[i]);
    for (int i = 0; i < 4; i++)
        host_write(&r, BCS + 0x230, unmapped[i]);
    color_blt(&r, write_rgba, br13(false, 3, 0xF0, 64), 0, 0, 4, 4, 0x10000, 0x55);
    rig_run(&r);
    CU_ASSERT_EQUAL(stat(&r, "bad_messages"), 1);
    CU_ASSERT_EQUAL(stat(&r, "hangs"), 1);
    CU_ASSERT_EQUAL(stat(&r, "blits.color"), 1);
    uint32_t px = 0;
    get(&r, 0x10000 + 64 * 3 + 12, &px, 4);
    CU_ASSERT_EQUAL(px, 0x55);
    rig_done(&r);
}

static void test_gen4_render_ring_passes_2d_commands(void)
{
    struct sim_options o = { .watchdog_cycles = 200000, .log_level = -1 };
    struct sim *sim = probe_sim(&o);
    struct gpu_memory *mem = probe_memory(sim);
    const char *cs_over[] = { "gen=4", NULL }, *blt_over[] = { "gen=4", NULL };
    struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", cs_over);
    struct unit *blt = probe_add(sim, unit_kind_find("blitter"), "blitter", blt_over);
    probe_link(sim, cs, "blt", blt, "host", 1, 4, 1);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t pte = (uint32_t)(PHYS_BASE + i * 4096ull) | 1;
        gpu_memory_gtt_entries_write(mem, 4ull * i, &pte, 4, NULL);
    }
    struct gpu_address_space gtt;
    gpu_address_space_init(&gtt, mem, GPU_ADDRESS_SPACE_GTT_GEN4, 0);
    const uint64_t dst = 0x8000;
    uint32_t ring[] = {
        0,                                                  /* MI_NOOP */
        2u << 29 | 0x50u << 22 | 3u << 20 | 4,              /* XY_COLOR_BLT, 6 dwords */
        3u << 24 | 0xF0u << 16 | 128,                       /* 32 bpp, ROP F0h, pitch 128 */
        (uint32_t)(2 << 16 | 1), (uint32_t)(6 << 16 | 9),   /* [1, 9) x [2, 6) */
        (uint32_t)dst, 0xCAFEBABEu,
        0,                                                  /* MI_NOOP */
    };
    struct msg *m = msg_alloc(sim, MSG_MMIO, (uint32_t)(sizeof(struct cs_mmio) + sizeof ring));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = CS_MMIO_RING_DATA;
    c->ring = 2;
    c->size = sizeof ring;
    memcpy(c->data, ring, sizeof ring);
    CU_ASSERT_TRUE(port_inject(unit_port(cs, "host", 0), m));
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    sim_run(sim, 0);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_STOP_QUIESCENT);
    int bad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            uint32_t v = 0;
            gpu_address_space_read(&gtt, dst + 128ull * y + 4ull * x, &v, 4, NULL);
            bad += v != (x >= 1 && x < 9 && y >= 2 && y < 6 ? 0xCAFEBABEu : 0);
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.blt_commands"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.unknown_commands"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "blitter.blits.color"), 1);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "color fill on every generation", test_color_fill_every_generation },
    { "src copy with rop, pitches and clipping", test_src_copy_rop_pitch_clip },
    { "overlapping copy", test_overlapping_copy },
    { "tiled copies", test_tiled_copies },
    { "fast copy", test_fast_copy },
    { "setup, pixel, scanlines and byte mask", test_setup_pixel_scanlines_and_byte_mask },
    { "ring registers, batch and memory traffic", test_ring_registers_batch_and_memory_traffic },
    { "bad input counted", test_bad_input_counted },
    { "bad execlist submissions counted", test_bad_execlist_submissions_counted },
    { "gen4 render ring passes 2d commands", test_gen4_render_ring_passes_2d_commands },
    { 0 }
};
TEST_SUITE(blitter, cases);
