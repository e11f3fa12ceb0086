/* tests/integration/test_gen4_front.c - g965_tri (Mesa on a 965G) through the
 * front of the Gen4 pipeline (issue 14 item 3): configs/gen4-g965.cfg runs the
 * real VF, VS (SIMD4x2 threads from VS_STATE), GS and CLIP with the urb_fence
 * unit. Every draw gets through with its VS threads ended, and the VUEs the
 * VS kernel wrote hold the app's positions: the kernel (g965_tri.aubinator.txt
 * "Referenced vertex shader") writes the clip-space position to 128-bit slot
 * 2 and (x/w, y/w, z/w, 1/w) to slot 1 of each vertex's entry. The expected
 * values are computed here from the vertex buffer of the last draw (VERTEX_
 * BUFFER_STATE at 0x233000, pitch 32, element 0 = position), read from the
 * capture's memory, and the SF_VIEWPORT of the aubinator text (m00 = m11 = 32,
 * m30 = m31 = 32) gives the screen position, which must lie in the 64 x 64
 * render target. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "tests/support/machine_run.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"
#include "units/urb_fence/urb_fence.h"

#define TRACE "tests/data/traces/g965_tri.aub.gz"

static void test_g965_tri_front(void)
{
    if (access(TRACE, R_OK) != 0)
        return;
    struct machine_request req = { .config_path = "configs/gen4-g965.cfg", .workload = TRACE };
    struct machine_run m;
    machine_run(&req, NULL, &m);
    struct sim *sim = m.sim;
    /* three draws of 3 vertices; the clear's VS is disabled, the two
     * triangles' 6 vertices run in SIMD4x2 threads (2 per thread) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.draws"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.vertices_shaded"), 6);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.threads.dispatched"), 4);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.threads.ended"), 4);
    /* 4 VS threads and the SF's 3 setup threads (units/sf/sf.h "Gen4") */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.eot_notified"), 7);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.clip.objects_out"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.fences"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.refused_allocations"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.check.fence_order"), 0);
    /* the clear's SF_STATE (8 entries of 4 units, aubinator L274-L300) and
     * the second URB_FENCE (SF region 16 units, L1075-L1090): the SF region
     * takes that fence only when SF reaches it (urb_fence.h stage_fences),
     * after the triangles' SF_STATE (8 x 2 units): every unit state fits its
     * fence, nothing is counted (it was 4 while the fence took effect on
     * arrival from the top of the pipe) */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.check.entries_beyond_fence"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.fences_deferred"), 8);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.constant_bytes"), 64);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.gen4.state_faults"), 0);
    /* the app's vertices, from the capture's memory */
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(sim), GPU_ADDRESS_SPACE_GTT_GEN4, 0);
    float app[3][8];
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&as, 0x233000, app, sizeof app, NULL), 0);
    struct unit *urb = sim_find_unit(sim, "gpu.urb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(urb);
    for (int v = 0; v < 3; v++) {
        const float *p = app[v];
        CU_ASSERT_TRUE(p[3] != 0.0f);
        bool found = false;
        /* the VS region: 32 entries of 64 bytes from handle 0 (VS_STATE, URB_FENCE) */
        for (uint32_t h = 0; h < 32 && !found; h++) {
            float vue[16];
            CU_ASSERT_EQUAL(urb_fence_backdoor_read(urb, h * 64, vue, sizeof vue), sizeof vue);
            if (memcmp(&vue[8], p, 16) != 0)
                continue;
            found = true;
            float w = 1.0f / p[3];
            CU_ASSERT_DOUBLE_EQUAL(vue[4], p[0] * w, 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(vue[5], p[1] * w, 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(vue[6], p[2] * w, 1e-6);
            CU_ASSERT_DOUBLE_EQUAL(vue[7], w, 1e-6);
            float sx = 32.0f * vue[4] + 32.0f, sy = 32.0f * vue[5] + 32.0f;
            CU_ASSERT_TRUE(sx >= 0.0f && sx <= 64.0f && sy >= 0.0f && sy <= 64.0f);
        }
        CU_ASSERT_TRUE(found);
    }
    machine_run_free(&m);
}

static const struct test_case cases[] = {
    { "g965_tri through VF, VS threads, GS and CLIP on the urb_fence URB", test_g965_tri_front },
    { 0 }
};
TEST_SUITE(gen4_front, cases);
