/* tests/integration/test_blitter_ring.c - the blitter ring of a capture
 * reaches the blitter (units/host/host.h): AUBs written here submit an
 * XY_COLOR_BLT to the BCS ring, on Gen9 by execlist (ELSP 0x22230 with the
 * context image's ring registers, notes/aub-format.md §4.3-§4.6) and on
 * Gen7 by a legacy RING_PRB2 ring write (§2.5, §5), and the whole machine of
 * configs/gen9-skl-gt2.cfg / gen7-vlv.cfg runs them. The expected surface
 * is worked out here: a solid fill with ROP F0h (pattern copy = the colour,
 * seed 004 L25574-25637) of [x1, x2) x [y1, y2), every other pixel as the
 * capture wrote it. */
#include <stdio.h>
#include <string.h>

#include "fabric/aub.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"

#define SURFACE_GTT 0x10000u
#define SURFACE_PITCH 64u               /* 16 pixels of 32 bits */
#define SURFACE_ROWS 4u
#define BACKGROUND 0xAAAAAAAAu
#define FILL 0x11223344u
#define X1 2u
#define X2 10u
#define Y1 1u
#define Y2 3u
#define PAGES 32u                       /* GTT pages mapped: 0 .. 128 KiB */
#define PHYSICAL_BASE 0x200000u

/* XY_COLOR_BLT (004 L25574-25637): BR00 (2D, opcode 50h, 32 bpp byte mask
 * 21:20 = both, DWord Length), BR13 (32 bpp 25:24 = 3, ROP F0h, pitch), BR22
 * y1 | x1, BR23 y2 | x2, BR09 destination (two dwords on Gen8+), BR16 colour. */
static uint32_t color_blt(int gen, uint32_t *dw)
{
    uint32_t n = gen >= 8 ? 7u : 6u, k = 0;
    dw[k++] = 2u << 29 | 0x50u << 22 | 3u << 20 | (n - 2);
    dw[k++] = 3u << 24 | 0xF0u << 16 | SURFACE_PITCH;
    dw[k++] = Y1 << 16 | X1;
    dw[k++] = Y2 << 16 | X2;
    dw[k++] = SURFACE_GTT;
    if (gen >= 8)
        dw[k++] = 0;
    dw[k++] = FILL;
    return k;
}

static void background(uint32_t *pixels)
{
    for (uint32_t i = 0; i < SURFACE_PITCH / 4 * SURFACE_ROWS; i++)
        pixels[i] = BACKGROUND;
}

/* Runs `aub` on `config`; checks the surface through the GTT. */
static void run_and_check(const char *config_path, const char *aub, int gen)
{
    struct machine_request req = { .config_path = config_path, .workload = aub };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    if (!config)
        fprintf(stderr, "%s: %s\n", config_path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, unit_kind_find, &err);
    if (!sim)
        fprintf(stderr, "%s: %s\n", config_path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct gpu_address_space gtt;
    gpu_address_space_init(&gtt, sim_memory(sim),
                           gen >= 8 ? GPU_ADDRESS_SPACE_GGTT_GEN8 : GPU_ADDRESS_SPACE_GTT_GEN6, 0);
    uint32_t got[SURFACE_PITCH / 4 * SURFACE_ROWS];
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&gtt, SURFACE_GTT, got, sizeof got, NULL), 0);
    for (uint32_t y = 0; y < SURFACE_ROWS; y++)
        for (uint32_t x = 0; x < SURFACE_PITCH / 4; x++) {
            bool inside = x >= X1 && x < X2 && y >= Y1 && y < Y2;
            CU_ASSERT_EQUAL(got[y * SURFACE_PITCH / 4 + x], inside ? FILL : BACKGROUND);
        }
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.blitter.blits.color"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.blitter.pixels_written"), (X2 - X1) * (Y2 - Y1));
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.blitter.submissions"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.blitter.hangs"), 0);
    sim_destroy(sim);
    gt_config_free(config);
}

/* Gen9: the GGTT maps page i to physical PHYSICAL_BASE + i pages; the ring
 * at GGTT 0x1000 holds the blit and a MI_NOOP; the context image (LRCA
 * 0x2000, register state at 0x3000) names head 0, tail 32, start 0x1000,
 * control 1 (enabled, one page); ELSP gets 0, 0, 0, 0x2339 (Mesa's
 * descriptor flags, §4.4) and the capture polls EXECLIST_STATUS. */
static void test_gen9_execlist_color_blt(void)
{
    char aub[512];
    snprintf(aub, sizeof aub, "%s/bcs.gen9.aub", test_temp_dir());
    struct aub_writer w;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&w, aub, 0, &err), 0);
    CU_ASSERT_EQUAL(aub_write_memtrace_version(&w, 0x1912, 12, "bcs", &err), 0);
    uint64_t pte[PAGES];
    for (uint32_t i = 0; i < PAGES; i++)
        pte[i] = (PHYSICAL_BASE + 0x1000ull * i) | 1;
    CU_ASSERT_EQUAL(aub_write_memory(&w, AUB_SPACE_GGTT_ENTRY, 0, pte, sizeof pte, &err), 0);
    CU_ASSERT_EQUAL(aub_write_register(&w, 0x2229C, 0x80008000u, &err), 0);   /* GFX_MODE */
    uint32_t pixels[SURFACE_PITCH / 4 * SURFACE_ROWS];
    background(pixels);
    CU_ASSERT_EQUAL(aub_write_memory(&w, AUB_SPACE_GGTT, SURFACE_GTT, pixels, sizeof pixels,
                                     &err), 0);
    uint32_t ring[8] = { 0 };
    uint32_t n = color_blt(9, ring);
    CU_ASSERT_EQUAL(n, 7);                      /* then one MI_NOOP: 32 bytes */
    CU_ASSERT_EQUAL(aub_write_memory(&w, AUB_SPACE_GGTT, 0x1000, ring, sizeof ring, &err), 0);
    uint32_t context[12] = { 0 };
    context[5] = 0;                             /* RING_HEAD */
    context[7] = sizeof ring;                   /* RING_TAIL */
    context[9] = 0x1000;                        /* RING_BUFFER_START */
    context[11] = 1;                            /* RING_BUFFER_CONTROL: enabled, 1 page */
    CU_ASSERT_EQUAL(aub_write_memory(&w, AUB_SPACE_GGTT, 0x3000, context, sizeof context, &err), 0);
    static const uint32_t elsp[4] = { 0, 0, 0, 0x2339 };
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(aub_write_register(&w, 0x22230, elsp[i], &err), 0);
    CU_ASSERT_EQUAL(aub_write_register_poll(&w, 0x22234, 0x10, 0, &err), 0);
    CU_ASSERT_EQUAL_FATAL(aub_writer_close(&w, &err), 0);
    run_and_check("configs/gen9-skl-gt2.cfg", aub, 9);
}

/* Gen7: the legacy GTT (4-byte PTEs, §3.3: page i at 0x200000 + i pages,
 * low bits 3), the surface as a data write, and the blit handed over inline
 * as a COMMAND_WRITE to RING_PRB2. */
static void test_gen7_legacy_ring_color_blt(void)
{
    char aub[512];
    snprintf(aub, sizeof aub, "%s/bcs.gen7.aub", test_temp_dir());
    struct aub_writer w;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&w, aub, 0, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_header(&w, 0x0f31, "bcs", &err), 0);
    uint32_t pte[PAGES];
    for (uint32_t i = 0; i < PAGES; i++)
        pte[i] = (PHYSICAL_BASE + 0x1000u * i) | 3;
    CU_ASSERT_EQUAL(aub_write_legacy_data(&w, AUB_SPACE_GGTT_ENTRY, 0, 0, pte, sizeof pte, &err), 0);
    uint32_t pixels[SURFACE_PITCH / 4 * SURFACE_ROWS];
    background(pixels);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&w, AUB_SPACE_GGTT, 0, SURFACE_GTT, pixels,
                                          sizeof pixels, &err), 0);
    uint32_t ring[8] = { 0 };
    uint32_t n = color_blt(7, ring);
    CU_ASSERT_EQUAL(n, 6);
    CU_ASSERT_EQUAL(aub_write_legacy_ring(&w, AUB_TRACE_RING_PRB2, 0x20000, ring, n, &err), 0);
    CU_ASSERT_EQUAL_FATAL(aub_writer_close(&w, &err), 0);
    run_and_check("configs/gen7-vlv.cfg", aub, 7);
}

static const struct test_case cases[] = {
    { "Gen9: an XY_COLOR_BLT submitted to the BCS by ELSP runs on the blitter",
      test_gen9_execlist_color_blt },
    { "Gen7: an XY_COLOR_BLT in a RING_PRB2 ring write runs on the blitter",
      test_gen7_legacy_ring_color_blt },
    { 0 }
};
TEST_SUITE(blitter_ring, cases);
