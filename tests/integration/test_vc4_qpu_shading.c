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
    /* vertex and coordinate shading */
    double vertex_dispatches, coordinate_dispatches, vertex_fallbacks, vertex_runs, coordinate_runs;
    double vertex_instructions, coordinate_instructions, vcd_rows, rows_read;
    double qpu_vertex_programs, qpu_coordinate_programs, qpu_vertex_instructions;
    double qpu_coordinate_instructions, qpu_vpm_writes, vpm_rows_written, vpm_rows_read, segments;
    double primitives_binned;
    /* issue 16 item 5 */
    double qpu_vertex_busy, qpu_coordinate_busy, stall_vpm, stall_tmu, tile_cycles_max;
    double tile_cycles_last, bin_work, render_work, l2_hits, culled, shaded, vpm_waits;
    double tiles_rendered;
};

static double stat(struct stats_writer *w, const char *path)
{
    double v = -1;
    CU_ASSERT_TRUE(stats_lookup(w, path, &v));
    return v;
}

/* Runs a dump; qpu_shading as given (-1: the config's default; 2: fragments on the QPU units,
 * vertex and coordinate shaders inside v3d). */
static bool run_dump(const char *dump, int qpu_shading, struct frame *f)
{
    memset(f, 0, sizeof *f);
    if (access(dump, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: skipped ", dump);
        return false;
    }
    const char *sets[1] = { qpu_shading == 0 ? "gpu.v3d.qpu_shading=0"
                                              : "gpu.v3d.vertex_qpu_shading=0" };
    struct machine_request req = { .workload = dump, .sets = sets,
                                   .set_count = qpu_shading == 0 || qpu_shading == 2 ? 1 : 0 };
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
    f->vertex_dispatches = stat(w, "gpu.v3d.vertex_dispatches");
    f->coordinate_dispatches = stat(w, "gpu.v3d.coordinate_dispatches");
    f->vertex_fallbacks = stat(w, "gpu.v3d.vertex_fallbacks");
    f->vertex_runs = stat(w, "gpu.v3d.vertex_shader_runs");
    f->coordinate_runs = stat(w, "gpu.v3d.coordinate_shader_runs");
    f->vertex_instructions = stat(w, "gpu.v3d.vertex_instructions");
    f->coordinate_instructions = stat(w, "gpu.v3d.coordinate_instructions");
    f->vcd_rows = stat(w, "gpu.v3d.vcd_rows");
    f->rows_read = stat(w, "gpu.v3d.vpm_rows_read");
    f->vpm_rows_written = stat(w, "gpu.vpm.vcd_rows_written");
    f->vpm_rows_read = stat(w, "gpu.vpm.vcd_rows_read");
    f->segments = stat(w, "gpu.vpm.segments");
    f->primitives_binned = stat(w, "gpu.v3d.primitives_binned");
    f->tile_cycles_max = stat(w, "gpu.v3d.tile_cycles_max");
    f->tile_cycles_last = stat(w, "gpu.v3d.tile_cycles_last");
    f->bin_work = stat(w, "gpu.v3d.bin_work_cycles");
    f->render_work = stat(w, "gpu.v3d.render_work_cycles");
    f->l2_hits = stat(w, "gpu.l2.hits");
    f->culled = stat(w, "gpu.v3d.primitives_culled");
    f->shaded = stat(w, "gpu.v3d.fragments_shaded");
    f->vpm_waits = stat(w, "gpu.v3d.vpm_allocation_wait_cycles");
    f->tiles_rendered = stat(w, "gpu.v3d.tiles_rendered");
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
            QPU_STAT(qpu_vertex_programs, "programs.vertex");
            QPU_STAT(qpu_coordinate_programs, "programs.coordinate");
            QPU_STAT(qpu_vertex_instructions, "instructions.vertex");
            QPU_STAT(qpu_coordinate_instructions, "instructions.coordinate");
            QPU_STAT(qpu_vertex_busy, "busy_cycles.vertex");
            QPU_STAT(qpu_coordinate_busy, "busy_cycles.coordinate");
            QPU_STAT(stall_vpm, "stall.vpm");
            QPU_STAT(stall_tmu, "stall.tmu");
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

/* Coordinate and vertex shaders on the QPU units through the VCD and the VPM (vc4_v3d.h):
 * vc4_tri has two draws of one triangle each in its one tile (vc4-submit.md §10.2: three
 * vertices a draw, the CS 23 instructions, the VS 25, CS attribute select 0x1 = one 16-byte
 * array, VS 0x3 = two), so the binner shades two batches of 3 vertices and the renderer two. */
static void test_tri_vertices_on_qpus(void)
{
    struct frame qpu, fragments_only, functional;
    if (!run_dump("tests/data/vc4/vc4_tri.vc4dump.gz", -1, &qpu))
        return;
    CU_ASSERT_TRUE_FATAL(run_dump("tests/data/vc4/vc4_tri.vc4dump.gz", 2, &fragments_only));
    CU_ASSERT_TRUE_FATAL(run_dump("tests/data/vc4/vc4_tri.vc4dump.gz", 0, &functional));
    CU_ASSERT_EQUAL(qpu.coordinate_dispatches, 2);
    CU_ASSERT_EQUAL(qpu.vertex_dispatches, 2);
    CU_ASSERT_EQUAL(qpu.vertex_fallbacks, 0);
    CU_ASSERT_EQUAL(qpu.qpu_coordinate_programs, 2);
    CU_ASSERT_EQUAL(qpu.qpu_vertex_programs, 2);
    CU_ASSERT_EQUAL(qpu.qpu_coordinate_instructions, 2 * 23);
    CU_ASSERT_EQUAL(qpu.qpu_vertex_instructions, 2 * 25);
    CU_ASSERT_EQUAL(qpu.coordinate_instructions, 2 * 23);
    CU_ASSERT_EQUAL(qpu.vertex_instructions, 2 * 25);
    CU_ASSERT_EQUAL(qpu.coordinate_runs, 2);
    CU_ASSERT_EQUAL(qpu.vertex_runs, 2);
    /* the VCD wrote the attribute rows: CS 16 bytes = 4 rows, VS 32 bytes = 8 rows a batch */
    CU_ASSERT_EQUAL(qpu.vcd_rows, 2 * 4 + 2 * 8);
    CU_ASSERT_EQUAL(qpu.vpm_rows_written, qpu.vcd_rows);
    /* the PTB read 8 rows a vertex (Fig 11), the PSE 3 + 4 varyings (Fig 10, no point size) */
    CU_ASSERT_EQUAL(qpu.rows_read, 2 * 8 + 2 * (3 + 4));
    CU_ASSERT_EQUAL(qpu.vpm_rows_read, qpu.rows_read);
    CU_ASSERT_EQUAL(qpu.segments, 2 * 4);      /* each batch's, then back to row 0 */
    /* the other two runs shade them inside v3d: no QPU vertex work */
    CU_ASSERT_EQUAL(fragments_only.qpu_vertex_programs + fragments_only.qpu_coordinate_programs, 0);
    CU_ASSERT_EQUAL(functional.qpu_vertex_programs + functional.qpu_coordinate_programs, 0);
    CU_ASSERT_EQUAL(functional.coordinate_instructions, 2 * 23);
    /* the same primitives and the same frame, byte for byte */
    CU_ASSERT_EQUAL(qpu.primitives_binned, functional.primitives_binned);
    CU_ASSERT_EQUAL(qpu.written, functional.written);
    CU_ASSERT_EQUAL_FATAL(qpu.size, functional.size);
    CU_ASSERT_EQUAL_FATAL(fragments_only.size, functional.size);
    CU_ASSERT_EQUAL(memcmp(qpu.bytes, functional.bytes, qpu.size), 0);
    CU_ASSERT_EQUAL(memcmp(fragments_only.bytes, functional.bytes, qpu.size), 0);
    free(qpu.bytes);
    free(fragments_only.bytes);
    free(functional.bytes);
}

/* vc4_strip_fan: strips, fans, lines and points; indexed draws share vertices, so a batch
 * holds each vertex once and the QPUs may run fewer instructions than the per-primitive
 * functional path; the frame must not change. */
static void test_strip_fan_vertices_on_qpus(void)
{
    struct frame qpu, functional;
    if (!run_dump("tests/data/vc4/vc4_strip_fan.vc4dump.gz", -1, &qpu))
        return;
    CU_ASSERT_TRUE_FATAL(run_dump("tests/data/vc4/vc4_strip_fan.vc4dump.gz", 0, &functional));
    CU_ASSERT_TRUE(qpu.coordinate_dispatches > 0);
    CU_ASSERT_TRUE(qpu.vertex_dispatches > 0);
    CU_ASSERT_EQUAL(qpu.vertex_fallbacks, 0);
    CU_ASSERT_EQUAL(qpu.qpu_coordinate_programs, qpu.coordinate_dispatches);
    CU_ASSERT_EQUAL(qpu.qpu_vertex_programs, qpu.vertex_dispatches);
    CU_ASSERT_EQUAL(qpu.qpu_coordinate_instructions, qpu.coordinate_instructions);
    CU_ASSERT_EQUAL(qpu.qpu_vertex_instructions, qpu.vertex_instructions);
    CU_ASSERT_TRUE(qpu.vertex_instructions <= functional.vertex_instructions);
    CU_ASSERT_EQUAL(qpu.primitives_binned, functional.primitives_binned);
    CU_ASSERT_EQUAL(qpu.written, functional.written);
    CU_ASSERT_EQUAL_FATAL(qpu.size, functional.size);
    CU_ASSERT_EQUAL(memcmp(qpu.bytes, functional.bytes, qpu.size), 0);
    free(qpu.bytes);
    free(functional.bytes);
}

/* Issue 16 item 5 on vc4_strip_fan: every figure it names is reported and consistent. QPU
 * utilisation by shader kind: 4 clocks an issued instruction (@43385), so busy cycles are
 * 4 x instructions for each kind; TMU and VPM stalls, L2 hits, per-tile cycles, binning and
 * rendering time, primitives binned and culled, fragments shaded (each pixel written was
 * shaded). */
static void test_strip_fan_item5_stats(void)
{
    struct frame f;
    if (!run_dump("tests/data/vc4/vc4_strip_fan.vc4dump.gz", -1, &f))
        return;
    CU_ASSERT_EQUAL(f.qpu_coordinate_busy, 4 * f.qpu_coordinate_instructions);
    CU_ASSERT_EQUAL(f.qpu_vertex_busy, 4 * f.qpu_vertex_instructions);
    CU_ASSERT_EQUAL(f.qpu_fragment_busy, 4 * f.qpu_fragment_instructions);
    CU_ASSERT_TRUE(f.qpu_coordinate_busy > 0 && f.qpu_vertex_busy > 0 && f.qpu_fragment_busy > 0);
    /* all of it on the QPUs within the simulated time: 12 QPUs at most busy every cycle */
    CU_ASSERT_TRUE(f.qpu_coordinate_busy + f.qpu_vertex_busy + f.qpu_fragment_busy <=
                   12 * f.cycles);
    CU_ASSERT_TRUE(f.stall_vpm >= 0 && f.stall_tmu >= 0 && f.vpm_waits >= 0 && f.l2_hits >= 0);
    CU_ASSERT_TRUE(f.tiles_rendered >= 1);
    CU_ASSERT_TRUE(f.tile_cycles_max > 0);
    CU_ASSERT_TRUE(f.tile_cycles_last > 0 && f.tile_cycles_last <= f.tile_cycles_max);
    CU_ASSERT_TRUE(f.bin_work > 0 && f.render_work > 0);
    CU_ASSERT_TRUE(f.primitives_binned > 0 && f.culled >= 0);
    CU_ASSERT_TRUE(f.shaded >= f.written && f.written > 0);
    free(f.bytes);
}

static const struct test_case cases[] = {
    { "vc4_tri: every fragment batch runs on a slice QPU, counted as fragment work, and the "
      "frame equals the functional path's", test_tri_fragments_on_qpus },
    { "vc4_strip_fan: varyings of strips, fans, lines and points reach the QPU units through "
      "the tlb ports; the frame equals the functional path's", test_strip_fan_fragments_on_qpus },
    { "vc4_tri: coordinate and vertex shaders run on slice QPUs through the VCD and the VPM "
      "(batches, instructions, rows written and read back), the frame unchanged",
      test_tri_vertices_on_qpus },
    { "vc4_strip_fan: strips, fans, lines and points shaded on QPUs through the VPM, the frame "
      "unchanged", test_strip_fan_vertices_on_qpus },
    { "vc4_strip_fan: the timing and stats of issue 16 item 5 are reported and consistent "
      "(QPU busy cycles by shader kind = 4 x instructions)", test_strip_fan_item5_stats },
    { 0 }
};

TEST_SUITE(vc4_qpu_shading, cases);
