/* tests/integration/test_image_compare.c - the image judge of
 * tests/support/image_compare.h on the references themselves: a reference
 * passes against itself in either row order, and damage beyond the README's
 * allowance or at a probe fails it. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/image_compare.h"
#include "tests/test.h"

#define REFERENCE_DIR "tests/data/reference"

/* The llvmpipe render of a test as RGBA8, rows top first (or bottom first). */
static uint8_t *reference_rgba(const char *test, bool bottom_first, uint32_t *w, uint32_t *h)
{
    char path[256];
    snprintf(path, sizeof path, REFERENCE_DIR "/ref_llvmpipe_%s.ppm.gz", test);
    struct rgb_image img;
    if (!rgb_image_read_ppm(path, &img))
        return NULL;
    uint8_t *rgba = malloc((size_t)img.width * img.height * 4);
    for (uint32_t y = 0; y < img.height; y++)
        for (uint32_t x = 0; x < img.width; x++) {
            uint32_t row = bottom_first ? img.height - 1 - y : y;
            memcpy(rgba + ((size_t)row * img.width + x) * 4, img.rgb + ((size_t)y * img.width + x) * 3, 3);
            rgba[((size_t)row * img.width + x) * 4 + 3] = 255;
        }
    *w = img.width;
    *h = img.height;
    rgb_image_free(&img);
    return rgba;
}

static void test_reference_passes_itself(void)
{
    uint32_t w, h;
    uint8_t *rgba = reference_rgba("tri", false, &w, &h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    CU_ASSERT_EQUAL(w, 64);
    CU_ASSERT_EQUAL(h, 64);
    struct image_verdict v;
    CU_ASSERT_TRUE(image_judge_test(REFERENCE_DIR, "tri", rgba, w, h, &v));
    CU_ASSERT_FALSE(v.flipped);
    CU_ASSERT_EQUAL(v.probes, 5);       /* the five pixel() lines of ref_llvmpipe_tri.txt */
    CU_ASSERT_EQUAL(v.probes_bad, 0);
    CU_ASSERT_DOUBLE_EQUAL(v.off_share, 0.0, 1e-12);
    free(rgba);
    /* GL order (row 0 at the bottom) is the other row order: passes flipped */
    rgba = reference_rgba("tri", true, &w, &h);
    CU_ASSERT_TRUE(image_judge_test(REFERENCE_DIR, "tri", rgba, w, h, &v));
    CU_ASSERT_TRUE(v.flipped);
    free(rgba);
}

static void test_damage_beyond_allowance_fails(void)
{
    uint32_t w, h;
    uint8_t *rgba = reference_rgba("tri", false, &w, &h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    struct image_verdict v;
    /* 40 of 4096 pixels (0.98 %) off by 3 in red, none at a probe: passes */
    uint32_t damaged = 0;
    for (uint32_t i = 0; damaged < 40; i++) {
        uint32_t x = (i * 7) % 64, y = (i * 13) % 64;
        bool probe = (x == 1 && y == 62) || (x == 32 && y == 31) || (x == 16 && y == 23) ||
                     (x == 48 && y == 43) || (x == 62 && y == 1);
        uint8_t *p = rgba + ((size_t)y * 64 + x) * 4;
        if (probe || p[3] != 255)
            continue;
        p[0] = (uint8_t)(p[0] < 128 ? p[0] + 3 : p[0] - 3);
        p[3] = 254;                      /* marks it damaged */
        damaged++;
    }
    CU_ASSERT_TRUE(image_judge_test(REFERENCE_DIR, "tri", rgba, w, h, &v));
    CU_ASSERT_DOUBLE_EQUAL(v.off_share, 40.0 / 4096, 1e-9);
    /* one more pixel changed by 2 does not count; by 3 it tips over 1 % */
    for (uint32_t i = 0; damaged < 42; i++) {
        uint8_t *p = rgba + (size_t)(4095 - i) * 4;
        if (p[3] != 255)
            continue;
        p[1] = (uint8_t)(p[1] < 128 ? p[1] + (damaged == 40 ? 2 : 3) : p[1] - (damaged == 40 ? 2 : 3));
        p[3] = 254;
        damaged++;
    }
    CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "tri", rgba, w, h, &v));
    CU_ASSERT_DOUBLE_EQUAL(v.off_share, 41.0 / 4096, 1e-9);
    free(rgba);
}

static void test_probe_fails_alone(void)
{
    uint32_t w, h;
    uint8_t *rgba = reference_rgba("tri", false, &w, &h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgba);
    /* pixel(48,20) = 58 189 8: GL row 20 is memory row 43 when top first */
    rgba[((size_t)43 * 64 + 48) * 4 + 1] = 180;
    struct image_verdict v;
    CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "tri", rgba, w, h, &v));
    CU_ASSERT_EQUAL(v.probes_bad, 1);
    CU_ASSERT_TRUE(v.off_share < 0.001);
    free(rgba);
}

static void test_probe_lines_parse(void)
{
    struct image_probe p[IMAGE_MAX_PROBES];
    uint32_t n = image_probes_read(REFERENCE_DIR "/ref_llvmpipe_strip_fan.txt", p, IMAGE_MAX_PROBES);
    CU_ASSERT_EQUAL(n, 22);
    /* "probe outside POINT ( 10, 34) = ... expect -1 -1 51 255 tol 1" */
    bool wildcard = false;
    for (uint32_t i = 0; i < n; i++)
        if (p[i].x == 10 && p[i].y == 34)
            wildcard = p[i].expect[0] == -1 && p[i].expect[1] == -1 && p[i].expect[2] == 51 &&
                       p[i].tolerance == 1;
    CU_ASSERT_TRUE(wildcard);
    /* the two references of strip_fan disagree on line pixels only: more
     * than 1 % is not allowed for a size mismatch or missing files */
    struct image_verdict v;
    uint8_t one[4] = { 0, 0, 0, 255 };
    CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "strip_fan", one, 1, 1, &v));
    CU_ASSERT_FALSE(image_judge_test(REFERENCE_DIR, "no_such_test", one, 1, 1, &v));
}

static const struct test_case cases[] = {
    { "a reference passes against itself, in either row order", test_reference_passes_itself },
    { "pixels off beyond max(1 %, the references' disagreement) fail", test_damage_beyond_allowance_fails },
    { "a probe out of tolerance fails alone", test_probe_fails_alone },
    { "probe lines parse, -1 is any value", test_probe_lines_parse },
    { 0 }
};
TEST_SUITE(image_compare, cases);
