/* tests/integration/test_vc4_qpu_shading.c - VideoCore IV fragment shaders on the slice QPU
 * units (issue 16, units/vc4_v3d/vc4_v3d.h "fragment shading on the QPU units"): the real
 * captures run on configs/vc4-bcm2835.cfg, every fragment batch the FEP made starts on a QPU
 * unit, the QPUs count the shader's instructions as fragment work, and the frame equals the
 * one the functional in-v3d path (qpu_shading = 0) draws, byte for byte.
 * Independent figures: vc4_tri's fragment shader is 13 instructions long and each draw is one
 * triangle (vc4-submit.md §10.2, and the disassembly in shared/traces/vc4/vc4_tri.run.log);
 * vc4_strip_fan has no threaded shader switch the functional path would not also ignore.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"
#include "units/vc4_v3d/vc4_v3d.h"

static const struct unit_ops *lookup(const char *kind)
{
    return unit_kind_find(kind);
}

struct frame {
    uint8_t *bytes;
    uint32_t size;
    double runs, dispatches, fallbacks, written, fragment_instructions;
    double qpu_fragment_instructions, qpu_fragment_programs, qpu_user_programs;
    double qpu_fragment_busy, tlb_accesses, varying_reads, cycles;
};

static double stat(struct stats_writer *w, const char *path)
{
    double v = -1;
    CU_ASSERT_TRUE(stats_lookup(w, path, &v));
    return v;
}

/* Runs a dump; qpu_shading as given (-1: the config's default). */
static bool run_dump(const char *dump, int qpu_shading, struct frame *f)
{
    memset(f, 0, sizeof *f);
    if (access(dump, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: skipped ", dump);
        return false;
    }
    const char *sets[1] = { "gpu.v3d.qpu_shading=0" };
    struct machine_request req = { .workload = dump, .sets = sets,
                                   .set_count = qpu_shading == 0 ? 1 : 0 };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    struct unit *v3d = sim_find_unit(sim, "gpu.v3d");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v3d);
    const struct vc4_written_surface *list;
    CU_ASSERT_EQUAL_FATAL(vc4_v3d_written_surfaces(v3d, &list), 1u);
    f->size = list[0].width * list[0].height * 4;
    f->bytes = malloc(f->size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->bytes);
    gpu_memory_read(sim_memory(sim), list[0].address & 0x3fffffffu, f->bytes, f->size, NULL);
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    f->runs = stat(w, "gpu.v3d.fragment_shader_runs");
    f->dispatches = stat(w, "gpu.v3d.fragment_dispatches");
    f->fallbacks = stat(w, "gpu.v3d.fragment_fallbacks");
    f->written = stat(w, "gpu.v3d.fragments_written");
    f->fragment_instructions = stat(w, "gpu.v3d.fragment_instructions");
    f->cycles = stat(w, "sim.clock.v3d.cycles");
    for (unsigned s = 0; s < 3; s++)
        for (unsigned q = 0; q < 4; q++) {
            char path[128];
#define QPU_STAT(field, name)                                                                   \
    snprintf(path, sizeof path, "gpu.slice%u.qpu%u." name, s, q);                               \
    f->field += stat(w, path)
            QPU_STAT(qpu_fragment_instructions, "instructions.fragment");
            QPU_STAT(qpu_fragment_programs, "programs.fragment");
            QPU_STAT(qpu_user_programs, "programs.user");
            QPU_STAT(qpu_fragment_busy, "busy_cycles.fragment");
            QPU_STAT(tlb_accesses, "tlb_accesses");
            QPU_STAT(varying_reads, "varying_reads");
#undef QPU_STAT
        }
    stats_writer_destroy(w);
    sim_destroy(sim);
    gt_config_free(config);
    return true;
}

static void test_tri_fragments_on_qpus(void)
{
    struct frame qpu, functional;
    if (!run_dump("tests/data/vc4/vc4_tri.vc4dump.gz", -1, &qpu))
        return;
    CU_ASSERT_TRUE_FATAL(run_dump("tests/data/vc4/vc4_tri.vc4dump.gz", 0, &functional));
    /* every batch went to a QPU unit, none was shaded inside v3d */
    CU_ASSERT_TRUE(qpu.runs > 0);
    CU_ASSERT_EQUAL(qpu.dispatches, qpu.runs);
    CU_ASSERT_EQUAL(qpu.fallbacks, 0);
    CU_ASSERT_EQUAL(qpu.qpu_fragment_programs, qpu.runs);
    CU_ASSERT_EQUAL(qpu.qpu_user_programs, 0);
    /* the QPUs ran the 13-instruction shader once a batch, 4 clocks an instruction (@43385) */
    CU_ASSERT_EQUAL(qpu.qpu_fragment_instructions, 13 * qpu.runs);
    CU_ASSERT_EQUAL(qpu.fragment_instructions, 13 * qpu.runs);
    CU_ASSERT_EQUAL(qpu.qpu_fragment_busy, 4 * 13 * qpu.runs);
    /* its TLB colour write went through the tlb ports: one a batch at least */
    CU_ASSERT_TRUE(qpu.tlb_accesses >= qpu.runs);
    /* the functional path ran no QPU unit */
    CU_ASSERT_EQUAL(functional.dispatches, 0);
    CU_ASSERT_EQUAL(functional.qpu_fragment_programs, 0);
    /* the same batches and pixels, the same frame */
    CU_ASSERT_EQUAL(qpu.runs, functional.runs);
    CU_ASSERT_EQUAL(qpu.written, functional.written);
    CU_ASSERT_EQUAL_FATAL(qpu.size, functional.size);
    CU_ASSERT_EQUAL(memcmp(qpu.bytes, functional.bytes, qpu.size), 0);
    free(qpu.bytes);
    free(functional.bytes);
}

static void test_strip_fan_fragments_on_qpus(void)
{
    struct frame qpu, functional;
    if (!run_dump("tests/data/vc4/vc4_strip_fan.vc4dump.gz", -1, &qpu))
        return;
    CU_ASSERT_TRUE_FATAL(run_dump("tests/data/vc4/vc4_strip_fan.vc4dump.gz", 0, &functional));
    CU_ASSERT_TRUE(qpu.runs > 0);
    CU_ASSERT_EQUAL(qpu.dispatches, qpu.runs);
    CU_ASSERT_EQUAL(qpu.qpu_fragment_programs, qpu.runs);
    CU_ASSERT_EQUAL(qpu.qpu_fragment_instructions, qpu.fragment_instructions);
    CU_ASSERT_EQUAL(qpu.fragment_instructions, functional.fragment_instructions);
    /* varyings (colours, point and line coordinates) come from the FEP through the ports */
    CU_ASSERT_TRUE(qpu.varying_reads > 0);
    CU_ASSERT_EQUAL(qpu.written, functional.written);
    CU_ASSERT_EQUAL_FATAL(qpu.size, functional.size);
    CU_ASSERT_EQUAL(memcmp(qpu.bytes, functional.bytes, qpu.size), 0);
    free(qpu.bytes);
    free(functional.bytes);
}

static const struct test_case cases[] = {
    { "vc4_tri: every fragment batch runs on a slice QPU, counted as fragment work, and the "
      "frame equals the functional path's", test_tri_fragments_on_qpus },
    { "vc4_strip_fan: varyings of strips, fans, lines and points reach the QPU units through "
      "the tlb ports; the frame equals the functional path's", test_strip_fan_fragments_on_qpus },
    { 0 }
};

TEST_SUITE(vc4_qpu_shading, cases);
