/* tests/support/gen7_capture.h - what the tests of the project's own Gen7
 * 3D captures (tests/integration/test_gen7_3d.c, test_gen7_ext.c) share:
 * a capture of build/gen/workloads run through the whole ValleyView machine
 * (configs/gen7-vlv.cfg, fast EUs: images and counts are checked, not
 * timing), its stats looked up, and the rasterization rule the expected
 * images are worked out with, independently of the model: a pixel is
 * covered when its centre is inside all three edge functions of a
 * triangle, or on an edge that is a top or a left one (seed 003
 * L15548-15558: the edge function's gradient (A, B) with A > 0, or A = 0
 * and B > 0, for an interior on the positive side; screen y grows
 * downwards, memory row 0 first). */
#ifndef GTSIM_TESTS_SUPPORT_GEN7_CAPTURE_H
#define GTSIM_TESTS_SUPPORT_GEN7_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/config.h"
#include "fabric/sim.h"
#include "fabric/stats.h"

struct gen7_run {
    struct gt_config *config;
    struct sim *sim;
    struct stats_writer *stats;
};

/* Runs build/gen/workloads/<name>.gen7.aub.gz to quiescence and dumps its
 * stats; false (a failed assertion, the reason printed) when the capture
 * is missing. */
bool gen7_run_capture(const char *name, struct gen7_run *r);
void gen7_run_free(struct gen7_run *r);

struct gen7_expected_stat {
    const char *path;
    double value;
};

/* Asserts each stat equals its value (the differing ones printed). */
void gen7_check_stats(const struct gen7_run *r, const struct gen7_expected_stat *e, size_t n);

/* A triangle in pixels (screen coordinates) with an RGBA colour per vertex. */
struct gen7_triangle {
    double x[3], y[3];
    double colour[3][4];
};

/* Edge k of t (from vertex k+1 to vertex k+2) at (px, py), its sign chosen
 * so that the interior is positive; *a and *b get its gradient. */
double gen7_edge(const struct gen7_triangle *t, int k, double px, double py, double *a, double *b);

/* Whether t covers (px, py) by the top-left rule; weight[] gets the point's
 * barycentric coordinates (weight k for vertex k). */
bool gen7_covers(const struct gen7_triangle *t, double px, double py, double weight[3]);

#define GEN7_REFERENCE_DIR "tests/data/reference"

/* An RGBA8 image in memory row order (row 0 GL's bottom row) judged by the
 * ext suite's rule against the references of `test` and every probe its
 * .txt lists (tests/support/image_compare.h): it must pass, in the flipped
 * row order, with probes when `probed`. */
void gen7_check_references(const uint8_t *rgba, uint32_t width, uint32_t height, const char *test,
                           bool probed);

/* The same image through ../shared/tools/image_check.py against
 * ../shared/traces/ext/reference (written as a PPM, top row first), when
 * ../shared is there (else skipped, saying so). */
void gen7_image_check_py(const uint8_t *rgba, uint32_t width, uint32_t height, const char *test);

/* v in [0, 1] (clamped) to 8 bits, rounded to nearest. */
unsigned gen7_unorm8(double v);

#endif
