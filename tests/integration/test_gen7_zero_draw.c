/* tests/integration/test_gen7_zero_draw.c - crocus's zero-vertex POINTLIST
 * draw on the Gen7 machine (configs/gen7-vlv.cfg). crocus opens its batches
 * with a 3DPRIMITIVE of 0 vertices and 0 instances (byt_tri.aubinator.txt
 * L109-127: 0x7b000005, topology 1 POINTLIST, every count 0); "a no-operation"
 * (004 L611, L615). A legacy AUB written here runs it with statistics
 * enabled between register loads and stores: the draw must finish (the run
 * ends quiescent) with no primitive anywhere, and the statistics registers
 * (IA_VERTICES_COUNT 0x2310, IA_PRIMITIVES_COUNT 0x2318, VS_INVOCATION_COUNT
 * 0x2320, CL_INVOCATION_COUNT 0x2338, CL_PRIMITIVES_COUNT 0x2340,
 * PS_INVOCATION_COUNT 0x2348; units/common/mmio.h) must read back the
 * values the batch loaded, untouched. */
#include <stdio.h>
#include <string.h>

#include "fabric/aub.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"

#define PAGES 32u
#define PHYSICAL_BASE 0x200000u
#define BATCH_GTT 0x10000u
#define RESULTS_GTT 0x11000u

static const uint32_t statistics_registers[6] = { 0x2310, 0x2318, 0x2320, 0x2338, 0x2340, 0x2348 };

static void test_zero_vertex_pointlist(void)
{
    uint32_t batch[96], n = 0;
    /* MI_LOAD_REGISTER_IMM (opcode 22h, DWord Length 2 x pairs - 1) */
    batch[n++] = 0x22u << 23 | (2 * 6 - 1);
    for (uint32_t i = 0; i < 6; i++) {
        batch[n++] = statistics_registers[i];
        batch[n++] = 100 + i;
    }
    batch[n++] = 0x680b0001u;                   /* 3DSTATE_VF_STATISTICS, enabled */
    static const uint32_t zero_draw[7] = { 0x7b000005u, 0x00000001u, 0, 0, 0, 0, 0 };
    memcpy(batch + n, zero_draw, sizeof zero_draw);
    n += 7;
    /* PIPE_CONTROL with CS Stall (DW1 bit 20): the counters settle */
    batch[n++] = 0x7a000003u;
    batch[n++] = 1u << 20;
    batch[n++] = 0;
    batch[n++] = 0;
    batch[n++] = 0;
    for (uint32_t i = 0; i < 6; i++) {          /* MI_STORE_REGISTER_MEM, global GTT */
        batch[n++] = 0x24u << 23 | 1u << 22 | 1;
        batch[n++] = statistics_registers[i];
        batch[n++] = RESULTS_GTT + 4 * i;
    }
    batch[n++] = 0x05000000u;                   /* MI_BATCH_BUFFER_END */
    char aub[512];
    snprintf(aub, sizeof aub, "%s/zero_draw.gen7.aub", test_temp_dir());
    struct aub_writer w;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&w, aub, 0, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_header(&w, 0x0f31, "zero_draw", &err), 0);
    uint32_t pte[PAGES];
    for (uint32_t i = 0; i < PAGES; i++)
        pte[i] = (PHYSICAL_BASE + 0x1000u * i) | 3;
    CU_ASSERT_EQUAL(aub_write_legacy_data(&w, AUB_SPACE_GGTT_ENTRY, 0, 0, pte, sizeof pte, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&w, AUB_SPACE_GGTT, AUB_TRACE_TYPE_BATCH, BATCH_GTT, batch,
                                          4ull * n, &err), 0);
    uint32_t poison[6];
    memset(poison, 0xEE, sizeof poison);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&w, AUB_SPACE_GGTT, 0, RESULTS_GTT, poison, sizeof poison,
                                          &err), 0);
    static const uint32_t ring[2] = { 0x18800000u, BATCH_GTT };  /* MI_BATCH_BUFFER_START, GGTT */
    CU_ASSERT_EQUAL(aub_write_legacy_ring(&w, AUB_TRACE_RING_PRB0, 0x20000, ring, 2, &err), 0);
    CU_ASSERT_EQUAL_FATAL(aub_writer_close(&w, &err), 0);

    struct machine_request req = { .config_path = "configs/gen7-vlv.cfg", .workload = aub };
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, unit_kind_find, &err);
    if (!sim)
        fprintf(stderr, "gen7-vlv: %s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct gpu_address_space gtt;
    gpu_address_space_init(&gtt, sim_memory(sim), GPU_ADDRESS_SPACE_GTT_GEN6, 0);
    uint32_t got[6];
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&gtt, RESULTS_GTT, got, sizeof got, NULL), 0);
    for (uint32_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(got[i], 100 + i);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.draws"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vf.draws.empty"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.primitives_in"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.vs.threads"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.cs.hangs"), 0);
    sim_destroy(sim);
    gt_config_free(config);
}

static const struct test_case cases[] = {
    { "Gen7: crocus's zero-vertex POINTLIST draw finishes with no primitive, statistics kept",
      test_zero_vertex_pointlist },
    { 0 }
};
TEST_SUITE(gen7_zero_draw, cases);
