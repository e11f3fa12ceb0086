/* tests/support/gen7_capture.c - see gen7_capture.h. */
#include "tests/support/gen7_capture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/support/image_compare.h"
#include "tests/support/machine_run.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/registry.h"

#define AUB_DIR "build/gen/workloads"

bool gen7_run_capture(const char *name, struct gen7_run *r)
{
    char aub[300];
    snprintf(aub, sizeof aub, AUB_DIR "/%s.gen7.aub.gz", name);
    if (!machine_run_workload_present(aub))
        return false;
    const char *sets[] = { "gpu.slice.subslice.eu.fast=true" };
    struct machine_request req = { .config_path = "configs/gen7-vlv.cfg", .sets = sets,
                                   .set_count = 1, .workload = aub };
    struct machine_run m;
    machine_run(&req, NULL, &m);
    r->config = m.config;
    r->sim = m.sim;
    r->stats = stats_writer_create();
    sim_write_stats(r->sim, r->stats);
    return true;
}

void gen7_run_free(struct gen7_run *r)
{
    stats_writer_destroy(r->stats);
    sim_destroy(r->sim);
    gt_config_free(r->config);
}

void gen7_check_stats(const struct gen7_run *r, const struct gen7_expected_stat *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = -1;
        CU_ASSERT_TRUE(stats_lookup(r->stats, e[i].path, &v));
        if (v != e[i].value)
            fprintf(stderr, "\n  %s = %g, expected %g ", e[i].path, v, e[i].value);
        CU_ASSERT_EQUAL(v, e[i].value);
    }
}

double gen7_edge(const struct gen7_triangle *t, int k, double px, double py, double *a, double *b)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double area = (t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) -
                  (t->y[1] - t->y[0]) * (t->x[2] - t->x[0]);
    double s = area < 0 ? -1.0 : 1.0;
    double dx = t->x[j] - t->x[i], dy = t->y[j] - t->y[i];
    *a = -dy * s;
    *b = dx * s;
    return s * (dx * (py - t->y[i]) - dy * (px - t->x[i]));
}

bool gen7_covers(const struct gen7_triangle *t, double px, double py, double weight[3])
{
    double e[3], total = 0;
    bool inside = true;
    for (int k = 0; k < 3; k++) {
        double a, b;
        e[k] = gen7_edge(t, k, px, py, &a, &b);
        total += e[k];
        bool top_left = a > 0 || (a == 0 && b > 0);
        if (e[k] < 0 || (e[k] == 0 && !top_left))
            inside = false;
    }
    for (int k = 0; k < 3; k++)
        weight[k] = total != 0 ? e[k] / total : 1.0 / 3;
    return inside && total != 0;
}

unsigned gen7_unorm8(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (unsigned)floor(v * 255.0 + 0.5);
}

void gen7_check_references(const uint8_t *rgba, uint32_t width, uint32_t height, const char *test,
                           bool probed)
{
    struct image_verdict v;
    bool pass = image_judge_test(GEN7_REFERENCE_DIR, test, rgba, width, height, &v);
    if (!pass || !v.flipped)
        fprintf(stderr, "\n  %s: %.2f%% pixels off (allowed %.2f%%), %u/%u probes bad%s ", test,
                100 * v.off_share, 100 * v.allowed_share, v.probes_bad, v.probes,
                v.flipped ? "" : ", not in GL row order");
    CU_ASSERT_TRUE(pass);
    CU_ASSERT_TRUE(v.flipped);
    CU_ASSERT(!probed || v.probes > 0);
}

void gen7_image_check_py(const uint8_t *rgba, uint32_t width, uint32_t height, const char *test)
{
    const char *tool = "../shared/tools/image_check.py", *refs = "../shared/traces/ext/reference";
    if (access(tool, R_OK) != 0 || access(refs, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: the image_check.py judgement of %s skipped ", tool, test);
        return;
    }
    const char *dir = test_temp_dir();     /* a new directory each call */
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/%s.ppm", dir, test);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "P6\n%u %u\n255\n", width, height);
    for (uint32_t y = height; y-- > 0;)     /* the top (GL's last) row first */
        for (uint32_t x = 0; x < width; x++)
            fwrite(rgba + 4 * ((size_t)y * width + x), 1, 3, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 %s %s %s %s >&2", tool, test, dir, refs);
    CU_ASSERT_EQUAL(system(cmd), 0);
}
