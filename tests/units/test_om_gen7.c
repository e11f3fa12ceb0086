/* tests/units/test_om_gen7.c - the pixel back end's Gen7 render target fast
 * clear and resolve (units/om/om_gen7.h, issue 14 item 2): a Gen7
 * SURFACE_STATE with MCS Enable and the 1-bit clear colour fields, the
 * fast-clear draw scaled down by the Gen7 factors (Y tiling 64 x 64 pixels a
 * clear pixel at 32 bpp, X tiling 128 x 32: IVB PRM Vol2 Part1 11.7 via
 * Mesa's blorp), then a resolve draw that finds nothing left to write. The
 * expected texels and their addresses are computed here (Y and X tile
 * offsets by hand). */
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen7_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/om/om.h"

#define SSBA 0x100000u
#define BT 0x40u
#define RT_BASE 0x400000u
#define MCS_BASE 0x800000u
#define R8G8B8A8_UNORM 0xc7u

static struct unit *om_alone(struct sim **sim, struct gpu_memory **mem)
{
    *sim = probe_sim(NULL);
    *mem = probe_memory(*sim);
    const char *over[] = { "gen=7", NULL };
    struct unit *om = probe_add(*sim, &om_ops, "om", over);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(*sim, "om.eu[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(*sim, &err), 0);
    return om;
}

/* A Gen7 2D RT at BTI 0, tiled (Y or X), MCS Enable, clear colour green. */
static void put_rt_gen7(struct gpu_memory *mem, uint32_t width, uint32_t height, uint32_t pitch,
                        bool y_major)
{
    struct GEN7_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;
    v.SurfaceFormat = R8G8B8A8_UNORM;
    v.Width = width - 1;
    v.Height = height - 1;
    v.SurfacePitch = pitch - 1;
    v.SurfaceBaseAddress = RT_BASE;
    v.TiledSurface = true;
    v.TileWalk = y_major;
    v.SurfaceVerticalAlignment = 1;
    v.MCSEnable = true;
    v.AuxiliarySurfaceBaseAddress = MCS_BASE;
    v.AuxiliarySurfacePitch = 0;
    v.GreenClearColor = 1;
    v.AlphaClearColor = 1;
    uint32_t dw[8] = { 0 };
    CU_ASSERT_EQUAL(GEN7_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000;
    gpu_memory_write(mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(mem, SSBA + BT, &state_off, 4, NULL);
}

static void inject_ps(struct sim *sim, struct unit *om, bool fast_clear, bool resolve)
{
    size_t off = cs_state_common_offset(8);
    struct spec_3DSTATE_PS ps = { .RenderTargetFastClearEnable = fast_clear,
                                  .RenderTargetResolveEnable = resolve };
    struct msg *m = msg_alloc(sim, MSG_STATE, (uint32_t)(off + sizeof ps));
    memset(m->payload, 0, off + sizeof ps);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = SPEC_ID_3DSTATE_PS;
    p->gen = 7;
    p->dword_count = 8;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    memcpy((uint8_t *)p + off, &ps, sizeof ps);
    CU_ASSERT_TRUE(port_inject(unit_port(om, "wm", 0), m));
    sim_run(sim, 0);
}

/* A headerless SIMD16 single-source RT write (descriptor 0x82031100: mlen 8,
 * BTI 0) of one subspan at (0, 0) with pixel_mask lit, from a Gen7 thread. */
static void clear_draw(struct sim *sim, struct unit *om, uint32_t pixel_mask)
{
    const uint32_t desc = 0x82031100u;
    unsigned n = (desc >> 25) & 15;
    struct msg *m = msg_alloc(sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    memset(m->payload, 0, m->size);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 5;
    p->mlen = (uint8_t)n;
    p->slot = 2;
    p->exec_size = 16;
    p->flags = EU_SEND_EOT | EU_SEND_SENDC | EU_SEND_DST_NULL;
    p->desc = desc;
    p->exec_mask = 0xffff;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 7, .binding_table = BT, .surface_state_base = SSBA,
                                         .binding_table_entries = 1, .group = 5,
                                         .subspans = 1, .pixel_mask = pixel_mask };
    CU_ASSERT_TRUE(port_inject(unit_port(om, "eu", 0), m));
    sim_run(sim, 0);
    sim_run(sim, 50);
}

static uint64_t y_tiled(uint32_t x, uint32_t y, uint32_t pitch)
{
    uint32_t xb = x * 4;
    return (uint64_t)(y / 32) * pitch * 32 + (uint64_t)(xb / 128) * 4096 + ((xb % 128) / 16) * 512 +
           (y % 32) * 16 + xb % 16;
}

static uint64_t x_tiled(uint32_t x, uint32_t y, uint32_t pitch)
{
    uint32_t xb = x * 4;
    return (uint64_t)(y / 8) * pitch * 8 + (uint64_t)(xb / 512) * 4096 + (y % 8) * 512 + xb % 512;
}

/* 128 x 128, Y-tiled: the four pixels of the 2 x 2 clear rectangle cover
 * the whole RT at 64 x 64 each (Gen9's 64 x 32 would clear rows 0-63 only). */
static void test_gen7_fast_clear_y(void)
{
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *om = om_alone(&sim, &mem);
    const uint32_t w = 128, h = 128, pitch = 512;
    put_rt_gen7(mem, w, h, pitch, true);
    uint8_t *bytes = malloc(pitch * h);
    memset(bytes, 0x11, pitch * h);
    gpu_memory_write(mem, RT_BASE, bytes, pitch * h, NULL);
    inject_ps(sim, om, true, false);
    clear_draw(sim, om, 0xf);
    gpu_memory_read(mem, RT_BASE, bytes, pitch * h, NULL);
    const uint8_t green[4] = { 0, 255, 0, 255 };
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            wrong += memcmp(bytes + y_tiled(x, y, pitch), green, 4) != 0;
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.fast_clear_blocks"), 4);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.fast_clear_pixels"), w * h);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.aux.not_modelled"), 0);
    /* the resolve (a 1/2-scale rectangle on Gen7; any pixels here): nothing
     * left to write, nothing counted as not modelled */
    memset(bytes, 0x22, 4);
    gpu_memory_write(mem, RT_BASE, bytes, 4, NULL);     /* a later draw's pixel */
    double written = probe_stat(sim, "om.pixels_written");
    inject_ps(sim, om, false, true);
    clear_draw(sim, om, 0xf);
    gpu_memory_read(mem, RT_BASE, bytes, pitch * h, NULL);
    CU_ASSERT_EQUAL(bytes[0], 0x22);
    CU_ASSERT_EQUAL(memcmp(bytes + y_tiled(5, 7, pitch), green, 4), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.resolve_messages"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.aux.not_modelled"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.pixels_written"), written);
    free(bytes);
    sim_destroy(sim);
}

/* 256 x 64, X-tiled: one clear pixel (0, 0) stands for 128 x 32 pixels. */
static void test_gen7_fast_clear_x(void)
{
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *om = om_alone(&sim, &mem);
    const uint32_t w = 256, h = 64, pitch = 1024;
    put_rt_gen7(mem, w, h, pitch, false);
    uint8_t *bytes = malloc(pitch * h);
    memset(bytes, 0x11, pitch * h);
    gpu_memory_write(mem, RT_BASE, bytes, pitch * h, NULL);
    inject_ps(sim, om, true, false);
    clear_draw(sim, om, 0x1);
    gpu_memory_read(mem, RT_BASE, bytes, pitch * h, NULL);
    const uint8_t green[4] = { 0, 255, 0, 255 }, old[4] = { 0x11, 0x11, 0x11, 0x11 };
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            wrong += memcmp(bytes + x_tiled(x, y, pitch), x < 128 && y < 32 ? green : old, 4) != 0;
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "om.fast_clear_pixels"), 128 * 32);
    free(bytes);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "Gen7 fast clear of a Y-tiled RT: 64 x 64 pixels a clear pixel; the resolve",
      test_gen7_fast_clear_y },
    { "Gen7 fast clear of an X-tiled RT: 128 x 32 pixels a clear pixel", test_gen7_fast_clear_x },
    { 0 }
};
TEST_SUITE(om_gen7, cases);
