/* tests/units/test_wm_gen7.c - WM's Gen7 state forms (issue 14): the
 * 3DSTATE_WM / 3DSTATE_PS split of seed 000 (L3604-3950, L119-505: Thread
 * Dispatch Enable in 3DSTATE_WM, one Maximum Number of Threads in
 * 3DSTATE_PS), Gen7's depth clear / resolve draws, DEPTH_STENCIL_STATE read
 * from dynamic state (Mesa's genxml gen7.xml) and 3DSTATE_MULTISAMPLE's
 * sample positions. The rig and the SF-library triangle at (8, 4) with 6
 * pixels inside (2 SIMD8 threads) are tests/support/wm_rig's. */
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/sim.h"
#include "spec_common.h"
#include "spec_gen7_pack.h"
#include "tests/support/probes.h"
#include "tests/support/wm_rig.h"
#include "tests/test.h"
#include "units/common/primitive.h"
#include "units/common/state_packet.h"
#include "units/wm/wm.h"

#define DYNAMIC_BASE 0x10000u

static struct msg *gen7_msg(struct wm_rig *r, uint32_t id, uint32_t dwords, size_t body,
                            void **common)
{
    struct msg *m = wm_rig_state_msg(r, id, dwords, body, common);
    ((struct cs_state_packet *)m->payload)->gen = 7;
    return m;
}

static void wm_gen7(struct wm_rig *r, bool dispatch, bool hiz_resolve)
{
    struct spec_3DSTATE_WM *w;
    struct msg *m = gen7_msg(r, SPEC_ID_3DSTATE_WM, 3, sizeof *w, (void **)&w);
    w->ThreadDispatchEnable = dispatch;
    w->StatisticsEnable = true;
    w->BarycentricInterpolationMode = 1;
    w->HierarchicalDepthBufferResolveEnable = hiz_resolve;
    wm_rig_to_wm(r, m);
}

static void ps_gen7(struct wm_rig *r)
{
    struct spec_3DSTATE_PS *p;
    struct msg *m = gen7_msg(r, SPEC_ID_3DSTATE_PS, 8, sizeof *p, (void **)&p);
    p->KernelStartPointer0 = 0x40;
    p->_8PixelDispatchEnable = true;
    p->DispatchGRFStartRegisterForConstantSetupData0 = 2;
    p->MaximumNumberOfThreads = 47;
    p->AttributeEnable = true;
    wm_rig_to_wm(r, m);
}

static void triangle(struct wm_rig *r)
{
    struct setup_primitive p = wm_rig_triangle(8, 4);
    wm_rig_send_setup(r, &p);
    wm_rig_run(r, 30);
}

/* Thread Dispatch Enable alone decides dispatch on Gen7 (no 3DSTATE_PS_EXTRA
 * / PS_BLEND); a HiZ resolve draw dispatches nothing and is counted. */
static void test_wm_ps_split(void)
{
    struct wm_rig r = wm_rig_new();
    wm_gen7(&r, true, false);
    ps_gen7(&r);
    triangle(&r);
    CU_ASSERT_EQUAL(r.td->count, 2);
    CU_ASSERT_EQUAL_FATAL(r.td->count, 2);
    CU_ASSERT_EQUAL(r.td->head[0].simd, 8);
    CU_ASSERT_EQUAL(r.td->head[0].kernel_offset, 0x40);
    wm_rig_end_thread(&r, r.td->head[0].request_id, 4, 4);
    wm_rig_run(&r, 5);
    wm_rig_end_thread(&r, r.td->head[1].request_id, 2, 2);
    wm_rig_run(&r, 10);
    wm_gen7(&r, false, false);
    triangle(&r);
    CU_ASSERT_EQUAL(r.td->count, 2);        /* dispatch off: rasterized only */
    wm_gen7(&r, true, true);
    triangle(&r);
    CU_ASSERT_EQUAL(r.td->count, 2);        /* the resolve draw: nothing dispatched */
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "legacy_ops"), 1);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "raster.primitives"), 3);
    sim_destroy(r.sim);
}

static void depth_buffer(struct wm_rig *r)
{
    struct spec_3DSTATE_DEPTH_BUFFER *d;
    struct msg *m = gen7_msg(r, SPEC_ID_3DSTATE_DEPTH_BUFFER, 7, sizeof *d, (void **)&d);
    d->SurfaceType = 1;
    d->SurfaceFormat = 5;           /* D16_UNORM */
    d->SurfaceBaseAddress = 0x40000;
    d->SurfacePitch = 127;
    d->Width = 63;
    d->Height = 31;
    d->DepthWriteEnable = true;
    wm_rig_to_wm(r, m);
}

/* DEPTH_STENCIL_STATE at Dynamic State Base + pointer: a depth test of
 * NEVER (COMPAREFUNCTION 1) rejects every pixel early; the state reaches
 * the back ends as a 3DSTATE_WM_DEPTH_STENCIL packet. ALWAYS (0) passes. */
static void test_depth_stencil_state_from_memory(void)
{
    struct wm_rig r = wm_rig_new();
    struct spec_STATE_BASE_ADDRESS *b;
    struct msg *m = gen7_msg(&r, SPEC_ID_STATE_BASE_ADDRESS, 10, sizeof *b, (void **)&b);
    b->DynamicStateBaseAddressModifyEnable = true;
    b->DynamicStateBaseAddress = DYNAMIC_BASE;
    wm_rig_to_wm(&r, m);
    uint32_t dw[3];
    struct GEN7_DEPTH_STENCIL_STATE never = { .DepthTestEnable = true, .DepthTestFunction = 1 };
    CU_ASSERT_EQUAL(GEN7_DEPTH_STENCIL_STATE_pack(dw, &never), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, DYNAMIC_BASE + 0x100, dw, sizeof dw, NULL), 0);
    struct GEN7_DEPTH_STENCIL_STATE always = { .DepthTestEnable = true, .DepthTestFunction = 0 };
    CU_ASSERT_EQUAL(GEN7_DEPTH_STENCIL_STATE_pack(dw, &always), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(r.mem, DYNAMIC_BASE + 0x140, dw, sizeof dw, NULL), 0);
    wm_gen7(&r, true, false);
    ps_gen7(&r);
    depth_buffer(&r);
    struct spec_3DSTATE_DEPTH_STENCIL_STATE_POINTERS *p;
    m = gen7_msg(&r, SPEC_ID_3DSTATE_DEPTH_STENCIL_STATE_POINTERS, 2, sizeof *p, (void **)&p);
    p->PointerToDEPTHSTENCILSTATE = 0x100;
    wm_rig_to_wm(&r, m);
    triangle(&r);
    CU_ASSERT_EQUAL(r.td->count, 0);
    CU_ASSERT_EQUAL(wm_rig_stat(&r, "depth.depth_failed"), 6);
    uint32_t forwarded = 0;
    for (uint32_t i = 0; i < r.om->count && i < WM_CATCH_MAX; i++)
        forwarded += r.om->kind[i] == MSG_STATE &&
                     r.om->state_id[i] == SPEC_ID_3DSTATE_WM_DEPTH_STENCIL;
    CU_ASSERT_EQUAL(forwarded, 1);
    m = gen7_msg(&r, SPEC_ID_3DSTATE_DEPTH_STENCIL_STATE_POINTERS, 2, sizeof *p, (void **)&p);
    p->PointerToDEPTHSTENCILSTATE = 0x140;
    wm_rig_to_wm(&r, m);
    triangle(&r);
    CU_ASSERT_EQUAL(r.td->count, 2);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "Gen7 WM/PS split: Thread Dispatch Enable, HiZ resolve draws", test_wm_ps_split },
    { "Gen7 DEPTH_STENCIL_STATE read from dynamic state", test_depth_stencil_state_from_memory },
    { 0 }
};
TEST_SUITE(wm_gen7, cases);
