/* tests/support/image_compare.h - judges a rendered image against the
 * reference renders of a GL test, by the rule of
 * ../shared/traces/ext/README.md ("How close the two references are"),
 * written here independently of ../shared/tools/image_check.py:
 *
 *  - the references are llvmpipe's and softpipe's renders (P6 PPM, top row
 *    first; tests/data/reference keeps them gzip'd); a test may have one;
 *  - a candidate passes when, in one of its two row orders (as in memory,
 *    or flipped), the share of its pixels whose R, G or B differs by more
 *    than 2 from the nearer reference (per image, the one it is closer to
 *    overall) is at most max(1%, the share by which the two references
 *    disagree with each other), and every probe of the test holds;
 *  - probes are the lines the test printed for llvmpipe:
 *    "probe NAME (x, y) = ... expect r g b a tol t" and the older
 *    "pixel(x,y) = r g b a" (tolerance 2), in GL window coordinates (row 0
 *    at the bottom). An expected channel of -1 is "any value" (the
 *    "outside POINT" probes use it); image_check.py skips such probes
 *    altogether, this is the stricter reading.
 * Alpha is not compared (the references are RGB).
 */
#ifndef GTSIM_TESTS_SUPPORT_IMAGE_COMPARE_H
#define GTSIM_TESTS_SUPPORT_IMAGE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

struct rgb_image {
    uint32_t width, height;
    uint8_t *rgb;                   /* width * height * 3, top row first */
};

/* Reads a P6 PPM, plain or gzip'd. false (and a zeroed image) when the file
 * is missing or malformed. */
bool rgb_image_read_ppm(const char *path, struct rgb_image *out);
void rgb_image_free(struct rgb_image *img);

#define IMAGE_MAX_PROBES 64u

struct image_probe {
    uint32_t x, y;                  /* GL window coordinates */
    int32_t expect[3];              /* -1 = any */
    uint32_t tolerance;
};

/* Reads the probes of a reference's .txt; returns how many (0 if none or
 * the file is missing). */
uint32_t image_probes_read(const char *path, struct image_probe *probes, uint32_t max);

struct image_verdict {
    bool pass;
    bool flipped;                   /* the better row order was the flipped one */
    double off_share;               /* pixels off by > 2 from the nearer reference */
    double allowed_share;
    uint32_t probes_bad, probes;
};

/* Judges a candidate (RGBA8, rows in memory order: `rgba` width*height*4)
 * against up to two references of the same size and the probes. A size
 * mismatch fails. */
struct image_verdict image_judge(const uint8_t *rgba, uint32_t width, uint32_t height,
                                 const struct rgb_image *refs, uint32_t ref_count,
                                 const struct image_probe *probes, uint32_t probe_count);

/* Convenience: loads tests/data/reference/ref_{llvmpipe,softpipe}_<test>
 * (.ppm.gz) and ref_llvmpipe_<test>.txt from `dir` and judges. Returns
 * false with verdict->probes == 0 and off_share 1 when no reference exists. */
bool image_judge_test(const char *dir, const char *test, const uint8_t *rgba, uint32_t width,
                      uint32_t height, struct image_verdict *verdict);

#endif
