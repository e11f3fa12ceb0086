/* tests/integration/test_gen4_ext.c - the ext suite's strip_fan, instanced,
 * blend_stencil, multi_rt, fill_heavy and mipmap tests on the 965G (issue
 * 14), in Gen4 captures of our own (workloads/workload3d.h "strip-fan",
 * "instanced", "blend-stencil", "multi-rt", "fill-heavy", "mipmap": Mesa's
 * Gen4 state forms, our VS, SF setup and PS kernels) run through
 * configs/gen4-g965.cfg. Each image is checked three ways (multi_rt's RT1
 * also as floats, fill_heavy and mipmap also by
 * ../shared/tools/image_check.py when present; mipmap's computed image: see
 * test_mipmap):
 *  - against an image computed here: the draws' geometry through the
 *    SF_VIEWPORT (NDC to the target, GL rows: row 0 is NDC y -1), snapped to
 *    the 8-bit subpixel grid (seed 001 L12117-12173, round to nearest),
 *    coverage of each pixel centre by edge functions with the top-left rule
 *    (L15702-15714: on an edge a pixel is inside when the edge is a left or
 *    top one, rows growing downwards as the rasterizer walks them), the
 *    colour interpolated linearly over the snapped triangle (w = 1) within
 *    +-2 per channel; points as squares of 4 px around their centre
 *    (L12071-12100); blend_stencil's stencil and blend worked out in unorm8
 *    (L19328-19363 stencil test, Table 9-4 ops, L19506-19640 blend, MAX);
 *    pixels within 1.5 px of a line are left to the probes and references
 *    (the line rules differ by a pixel between rasterizers: README);
 *  - by the judge of tests/support/image_compare.h against llvmpipe's and
 *    softpipe's renders of the same GL test and its probes
 *    (tests/data/reference, from ../shared/traces/ext/reference);
 *  - by the stats that say the pipeline ran as programmed: no CLIP thread
 *    (every object trivially accepted), one SF thread per object, nothing
 *    culled, no index read out of bounds, no illegal instruction. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/gen4_render.h"
#include "tests/support/image_compare.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/png.h"
#include "workloads/workload3d.h"

#define AUB_DIR "build/gen/workloads"
#define REFERENCE_DIR "tests/data/reference"
#define MAX_SIZE GEN4_FILL_HEAVY_SIZE
#define SHARED_IMAGE_CHECK "../shared/tools/image_check.py"
#define SHARED_EXT_REFERENCES "../shared/traces/ext/reference"

struct render {
    uint32_t size;
    uint8_t *rgba;                      /* rows in memory order (GL's: row 0 at the bottom) */
    float *rt1;                         /* the second surface written, as floats, or NULL */
    uint32_t rt1_format;
    double clip_threads, sf_threads, sf_objects, culled, index_oob, illegal, killed;
    double ps_threads, samples, trilinear, sampler_faults;     /* the sampler's */
};

/* the sampler's counts of messages it could not serve as asked */
static const char *const sampler_faults[] = {
    "gpu.sampler.unsupported_messages", "gpu.sampler.unsupported_formats",
    "gpu.sampler.bad_messages", "gpu.sampler.state_faults", "gpu.sampler.bti_beyond_table",
    "gpu.sampler.bad_sampler_state", "gpu.sampler.out_of_bounds", "gpu.sampler.page_faults", NULL };

static const char *const culls[] = { "gpu.sf.culled.infinite", "gpu.sf.culled.degenerate",
                                     "gpu.sf.culled.face", "gpu.sf.culled.outside",
                                     "gpu.sf.culled.bad_width", "gpu.sf.nan_discarded", NULL };

static bool render(const char *name, uint32_t size, struct render *r)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    char aub[256];
    snprintf(aub, sizeof aub, AUB_DIR "/%s.gen4.aub.gz", name);
    if (access(aub, R_OK) != 0) {
        fprintf(stderr, "%s is missing: `make workloads` writes it\n", aub);
        CU_FAIL("workload missing");
        return false;
    }
    struct gen4_render g;
    bool ok = gen4_render_run(aub, size, size, &g);
    r->rgba = g.rgba;
    r->illegal = g.illegal;
    r->killed = g.killed;
    r->clip_threads = probe_stat(g.sim, "gpu.clip.gen4.threads_spawned");
    r->sf_threads = probe_stat(g.sim, "gpu.sf.gen4.threads.dispatched");
    r->sf_objects = probe_stat(g.sim, "gpu.sf.objects");
    for (const char *const *c = culls; *c; c++)
        r->culled += probe_stat(g.sim, *c) > 0 ? probe_stat(g.sim, *c) : 0;
    r->index_oob = probe_stat(g.sim, "gpu.vf.bad.index_out_of_bounds");
    uint32_t w = 0, h = 0;
    r->rt1 = gen4_render_surface_float(&g, 1, &r->rt1_format, &w, &h);
    if (r->rt1 && (w != size || h != size)) {
        free(r->rt1);
        r->rt1 = NULL;
    }
    r->ps_threads = probe_stat(g.sim, "gpu.wm.threads.dispatched");
    r->samples = probe_stat(g.sim, "gpu.sampler.msg.sample");
    r->trilinear = probe_stat(g.sim, "gpu.sampler.filter.trilinear");
    for (const char *const *c = sampler_faults; *c; c++)
        r->sampler_faults += probe_stat(g.sim, *c) > 0 ? probe_stat(g.sim, *c) : 0;
    gen4_render_free(&g);
    return ok;
}

/* ---- the expected image ------------------------------------------------------------ */

struct expected {
    uint32_t size;
    double rgba[MAX_SIZE * MAX_SIZE][4];    /* 0..1 */
    bool skip[MAX_SIZE * MAX_SIZE];         /* left to the probes and references */
    uint8_t stencil[MAX_SIZE * MAX_SIZE];
};

static void expected_clear(struct expected *e, uint32_t size, const double bg[4])
{
    memset(e, 0, sizeof *e);
    e->size = size;
    for (uint32_t i = 0; i < size * size; i++)
        memcpy(e->rgba[i], bg, sizeof e->rgba[i]);
}

/* NDC to the 8-bit subpixel grid of the target (SF_VIEWPORT m00 = m30 =
 * size / 2, the same for y, applied in single precision as the SF_VIEWPORT's
 * FLOAT matrix elements are; then round to nearest). */
static double snap(double ndc, uint32_t size)
{
    float half = (float)size / 2.0f;
    volatile float scaled = (float)ndc * half;     /* no fused multiply-add */
    float s = scaled + half;
    return nearbyint((double)s * 256.0) / 256.0;
}

struct vertex {
    double x, y;                        /* snapped screen position */
    double c[4];
};

/* Whether the triangle covers the centre of pixel (px, py) (top-left rule,
 * rows growing downwards), and the centre's barycentric weights. */
static bool covers(const struct vertex v[3], uint32_t px, uint32_t py, double w[3])
{
    double x = px + 0.5, y = py + 0.5;
    double area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
    if (area == 0)
        return false;
    double s = area > 0 ? 1 : -1;
    for (int k = 0; k < 3; k++) {
        const struct vertex *a = &v[(k + 1) % 3], *b = &v[(k + 2) % 3];
        /* E = s ((bx - ax)(y - ay) - (by - ay)(x - ax)), positive inside */
        double ea = -s * (b->y - a->y), eb = s * (b->x - a->x);
        double e = ea * (x - a->x) + eb * (y - a->y);
        bool top_left = ea > 0 || (ea == 0 && eb > 0);
        if (e < 0 || (e == 0 && !top_left))
            return false;
        w[k] = e / fabs(area);
    }
    return true;
}

/* How a draw changes a covered pixel. */
struct pixel_op {
    bool stencil_test;
    int stencil_equal;                  /* 1: EQUAL 1, 0: NOTEQUAL 1 */
    bool stencil_replace;               /* ALWAYS, REPLACE with 1 */
    bool colour_off;
    enum { BLEND_NONE, BLEND_ADD_ONE_ONE, BLEND_DST_COLOR_ZERO, BLEND_MAX } blend;
    unsigned write_mask;                /* 1 R, 2 G, 4 B, 8 A; 0 = all */
    int scissor_min, scissor_max;       /* rows and columns alike; max < 0: none */
};

static void shade(struct expected *e, uint32_t i, const double src[4], const struct pixel_op *op)
{
    if (op->stencil_test) {
        bool pass = op->stencil_equal ? e->stencil[i] == 1 : e->stencil[i] != 1;
        if (!pass)
            return;
    }
    if (op->stencil_replace)
        e->stencil[i] = 1;
    if (op->colour_off)
        return;
    for (int c = 0; c < 4; c++) {
        if (op->write_mask && !(op->write_mask & (1u << c)))
            continue;
        double d = e->rgba[i][c], v = src[c];
        if (op->blend == BLEND_ADD_ONE_ONE)
            v = src[c] + d;
        else if (op->blend == BLEND_DST_COLOR_ZERO)
            v = src[c] * d;
        else if (op->blend == BLEND_MAX)
            v = fmax(src[c], d);
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        /* the render target keeps unorm8 */
        e->rgba[i][c] = nearbyint(v * 255.0) / 255.0;
    }
}

static void paint_triangle(struct expected *e, const struct vertex v[3], const struct pixel_op *op)
{
    for (uint32_t py = 0; py < e->size; py++)
        for (uint32_t px = 0; px < e->size; px++) {
            if (op && op->scissor_max >= 0 &&
                ((int)px < op->scissor_min || (int)px > op->scissor_max ||
                 (int)py < op->scissor_min || (int)py > op->scissor_max))
                continue;
            double w[3];
            if (!covers(v, px, py, w))
                continue;
            double c[4];
            for (int k = 0; k < 4; k++)
                c[k] = w[0] * v[0].c[k] + w[1] * v[1].c[k] + w[2] * v[2].c[k];
            static const struct pixel_op plain = { .scissor_max = -1 };
            shade(e, py * e->size + px, c, op ? op : &plain);
        }
}

/* Marks the pixels within 1.5 px of the segment (x0, y0)-(x1, y1) (screen). */
static void skip_near_line(struct expected *e, double x0, double y0, double x1, double y1)
{
    double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
    for (uint32_t py = 0; py < e->size; py++)
        for (uint32_t px = 0; px < e->size; px++) {
            double x = px + 0.5, y = py + 0.5;
            double t = len2 > 0 ? ((x - x0) * dx + (y - y0) * dy) / len2 : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            double ex = x0 + t * dx - x, ey = y0 + t * dy - y;
            if (ex * ex + ey * ey <= 1.5 * 1.5)
                e->skip[py * e->size + px] = true;
        }
}

/* The rendered image against e: every pixel not skipped within +-2 per
 * channel; then the reference judge and the GL test's probes (fill_heavy
 * prints none: `probed` false). */
static void check_image_probed(const struct render *r, const struct expected *e, const char *test,
                               bool probed)
{
    uint32_t bad = 0, checked = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < e->size * e->size; i++) {
        if (e->skip[i])
            continue;
        checked++;
        for (int c = 0; c < 4; c++)
            if (abs((int)r->rgba[4 * i + c] - (int)nearbyint(e->rgba[i][c] * 255.0)) > 2) {
                if (first == UINT32_MAX)
                    first = i;
                bad++;
                break;
            }
    }
    if (bad) {
        const uint8_t *g = r->rgba + 4 * first;
        fprintf(stderr, "\n  %s: %u of %u pixels differ from the computed image; first (%u, %u) "
                        "= %u %u %u %u, expected %.0f %.0f %.0f %.0f ", test, bad, checked,
                first % e->size, first / e->size, g[0], g[1], g[2], g[3],
                e->rgba[first][0] * 255, e->rgba[first][1] * 255, e->rgba[first][2] * 255,
                e->rgba[first][3] * 255);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(checked > e->size * e->size / 2);
    struct image_verdict v;
    bool pass = image_judge_test(REFERENCE_DIR, test, r->rgba, e->size, e->size, &v);
    if (!pass)
        fprintf(stderr, "\n  %s against the references: %.2f%% pixels off (allowed %.2f%%), "
                        "%u/%u probes bad ", test, 100 * v.off_share, 100 * v.allowed_share,
                v.probes_bad, v.probes);
    CU_ASSERT_TRUE(pass);
    CU_ASSERT_TRUE(!probed || v.probes > 0);
}

static void check_image(const struct render *r, const struct expected *e, const char *test)
{
    check_image_probed(r, e, test, true);
}

static void check_stats(const struct render *r, double objects)
{
    CU_ASSERT_EQUAL(r->clip_threads, 0);
    CU_ASSERT_EQUAL(r->sf_objects, objects);
    CU_ASSERT_EQUAL(r->sf_threads, objects);
    CU_ASSERT_EQUAL(r->culled, 0);
    CU_ASSERT_EQUAL(r->index_oob, 0);
    CU_ASSERT_EQUAL(r->illegal, 0);
    CU_ASSERT_EQUAL(r->killed, 0);
}

static struct vertex make_vertex(const float v[6], uint32_t size)
{
    struct vertex out = { snap(v[0], size), snap(v[1], size), { v[2], v[3], v[4], v[5] } };
    return out;
}

/* ---- the tests --------------------------------------------------------------------- */

static void test_strip_fan(void)
{
    const uint32_t n = GEN4_STRIP_FAN_SIZE;
    struct render r;
    if (!render("strip-fan", n, &r))
        return;
    struct expected *e = malloc(sizeof *e);
    expected_clear(e, n, (const double[4]){ 0, 0, 51.0 / 255, 1 });
    struct vertex v[GEN4_STRIP_FAN_VERTICES];
    for (uint32_t i = 0; i < GEN4_STRIP_FAN_VERTICES; i++) {
        float f[6];
        gen4_strip_fan_vertex(i, f);
        v[i] = make_vertex(f, n);
    }
    /* TRISTRIP 0-5: triangles (k, k+1, k+2); TRIFAN 6-15: (6, k, k+1) */
    for (uint32_t k = 0; k < 4; k++)
        paint_triangle(e, (struct vertex[3]){ v[k], v[k + 1], v[k + 2] }, NULL);
    for (uint32_t k = 7; k < 15; k++)
        paint_triangle(e, (struct vertex[3]){ v[6], v[k], v[k + 1] }, NULL);
    /* LINELIST 16-23, LINESTRIP 24-28: the probes' and references' */
    for (uint32_t k = 16; k < 24; k += 2)
        skip_near_line(e, v[k].x, v[k].y, v[k + 1].x, v[k + 1].y);
    for (uint32_t k = 24; k < 28; k++)
        skip_near_line(e, v[k].x, v[k].y, v[k + 1].x, v[k + 1].y);
    /* POINTLIST 29-33: 4 x 4 squares (SF_STATE point width 4) */
    for (uint32_t k = 29; k < 34; k++)
        for (uint32_t py = 0; py < n; py++)
            for (uint32_t px = 0; px < n; px++)
                if (fabs(px + 0.5 - v[k].x) < 2 && fabs(py + 0.5 - v[k].y) < 2)
                    memcpy(e->rgba[py * n + px], v[k].c, sizeof v[k].c);
    check_image(&r, e, "strip_fan");
    /* objects: 4 + 8 triangles, 4 + 4 lines, 5 points */
    check_stats(&r, 25);
    free(e);
    free(r.rgba);
}

static void test_instanced(void)
{
    const uint32_t n = GEN4_INSTANCED_SIZE;
    struct render r;
    if (!render("instanced", n, &r))
        return;
    struct expected *e = malloc(sizeof *e);
    expected_clear(e, n, (const double[4]){ 26.0 / 255, 26.0 / 255, 26.0 / 255, 1 });
    const float quad[8] = GEN4_INSTANCED_QUAD;
    const uint16_t idx[6] = GEN4_INSTANCED_INDICES;
    for (uint32_t i = 0; i < GEN4_INSTANCES; i++) {
        float inst[6];
        gen4_instance(i, inst);
        struct vertex v[4];
        for (uint32_t k = 0; k < 4; k++) {
            float f[6] = { quad[2 * k] * GEN4_INSTANCED_SCALE + inst[0],
                           quad[2 * k + 1] * GEN4_INSTANCED_SCALE + inst[1],
                           inst[2], inst[3], inst[4], inst[5] };
            v[k] = make_vertex(f, n);
        }
        for (uint32_t t = 0; t < 2; t++)
            paint_triangle(e, (struct vertex[3]){ v[idx[3 * t]], v[idx[3 * t + 1]],
                                                  v[idx[3 * t + 2]] }, NULL);
    }
    check_image(&r, e, "instanced");
    check_stats(&r, 2 * GEN4_INSTANCES);
    free(e);
    free(r.rgba);
}

static void test_blend_stencil(void)
{
    const uint32_t n = GEN4_BLEND_STENCIL_SIZE;
    struct render r;
    if (!render("blend-stencil", n, &r))
        return;
    struct expected *e = malloc(sizeof *e);
    expected_clear(e, n, (const double[4]){ 51.0 / 255, 51.0 / 255, 51.0 / 255, 1 });
    const float pos[] = GEN4_BLEND_STENCIL_VERTICES;
    /* gltrace_ext.c test_blend_stencil's six draws */
    static const double colours[6][4] = {
        { 1, 1, 1, 1 }, { 0, 0, 1, 1 }, { 0.4, 0.2, 0, 0 }, { 0.5, 1, 1, 1 },
        { 0.5, 0.5, 0.5, 0.5 }, { 1, 1, 1, 1 },
    };
    const struct pixel_op ops[6] = {
        { .stencil_replace = true, .colour_off = true, .scissor_max = -1 },
        { .stencil_test = true, .stencil_equal = 1, .scissor_max = -1 },
        { .stencil_test = true, .stencil_equal = 0, .blend = BLEND_ADD_ONE_ONE, .scissor_max = -1 },
        { .blend = BLEND_DST_COLOR_ZERO, .scissor_max = -1 },
        { .blend = BLEND_MAX, .scissor_max = -1 },
        { .write_mask = 2, .scissor_min = 40, .scissor_max = 55 },
    };
    static const uint32_t first[6] = { 0, 3, 3, 7, 11, 3 };
    for (uint32_t d = 0; d < 6; d++) {
        struct vertex v[4];
        uint32_t count = d == 0 ? 3 : 4;
        for (uint32_t k = 0; k < count; k++) {
            float f[6] = { pos[2 * (first[d] + k)], pos[2 * (first[d] + k) + 1],
                           (float)colours[d][0], (float)colours[d][1], (float)colours[d][2],
                           (float)colours[d][3] };
            v[k] = make_vertex(f, n);
        }
        /* TRILIST of 3, or a TRISTRIP of 4: (0, 1, 2), (1, 2, 3) */
        for (uint32_t t = 0; t + 2 < count; t++)
            paint_triangle(e, (struct vertex[3]){ v[t], v[t + 1], v[t + 2] }, &ops[d]);
    }
    check_image(&r, e, "blend_stencil");
    /* objects: 1 + 5 x 2 triangles */
    check_stats(&r, 11);
    free(e);
    free(r.rgba);
}

/* multi_rt (the Gen7 scene's constants, workload3d.h): RT0 as the other
 * images (colour (u, v, 0.5, 1) interpolated, the references and probes);
 * RT1 read as floats: inside (4u - 1, 4v - 1, 3, 0.25) with u, v the
 * attribute interpolated at the pixel centre, within 0.01 (half floats
 * hold 4u - 1 to 2^-10 or better), outside the clear (-1, 0.5, 2, 1)
 * exactly, then clamped to bytes against the suite's _rt1 references. */
static void test_multi_rt(void)
{
    const uint32_t n = GEN7_MULTI_RT_SIZE;
    struct render r;
    if (!render("multi-rt", n, &r))
        return;
    const float tri[6] = GEN7_MULTI_RT_TRIANGLE, clear0[4] = GEN7_MULTI_RT_CLEAR0,
                clear1[4] = GEN7_MULTI_RT_CLEAR1;
    struct expected *e = malloc(sizeof *e);
    expected_clear(e, n, (const double[4]){ nearbyint(clear0[0] * 255) / 255,
                                            nearbyint(clear0[1] * 255) / 255,
                                            nearbyint(clear0[2] * 255) / 255, 1 });
    struct vertex v[3];
    for (uint32_t k = 0; k < 3; k++) {
        float f[6] = { tri[2 * k], tri[2 * k + 1], tri[2 * k] * 0.5f + 0.5f,
                       tri[2 * k + 1] * 0.5f + 0.5f, 0.5f, 1.0f };
        v[k] = make_vertex(f, n);
    }
    paint_triangle(e, v, NULL);
    check_image(&r, e, "multi_rt");
    check_stats(&r, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.rt1);
    CU_ASSERT_EQUAL(r.rt1_format, 0x084u);      /* R16G16B16A16_FLOAT */
    uint32_t bad = 0, inside = 0;
    uint8_t *rgba = malloc(4 * n * n);
    for (uint32_t py = 0; py < n; py++)
        for (uint32_t px = 0; px < n; px++) {
            const float *got = r.rt1 + 4 * (py * n + px);
            double w[3], want[4];
            bool in = covers(v, px, py, w);
            for (int c = 0; c < 4; c++)
                want[c] = clear1[c];
            if (in) {
                double u = w[0] * v[0].c[0] + w[1] * v[1].c[0] + w[2] * v[2].c[0];
                double t = w[0] * v[0].c[1] + w[1] * v[1].c[1] + w[2] * v[2].c[1];
                want[0] = 4 * u - 1;
                want[1] = 4 * t - 1;
                want[2] = 3;
                want[3] = 0.25;
            }
            inside += in;
            bool ok = true;
            for (int c = 0; c < 4; c++) {
                ok = ok && fabs(got[c] - want[c]) <= (in ? 0.01 : 0.0);
                double clamped = got[c] < 0 ? 0 : got[c] > 1 ? 1 : got[c];
                rgba[4 * (py * n + px) + c] = (uint8_t)nearbyint(clamped * 255);
            }
            if (!ok && bad++ < 4)
                fprintf(stderr, "\n  RT1 (%u, %u): %g %g %g %g, expected %g %g %g %g ", px, py,
                        got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(inside > n * n / 4);
    struct image_verdict verdict;
    CU_ASSERT_TRUE(image_judge_test(REFERENCE_DIR, "multi_rt_rt1", rgba, n, n, &verdict));
    free(rgba);
    free(r.rt1);
    free(e);
    free(r.rgba);
}

/* ---- mipmap: the sampler ------------------------------------------------------------- */

typedef uint8_t mip_levels[GEN4_MIPMAP_LEVELS][GEN4_MIPMAP_TEXTURE][GEN4_MIPMAP_TEXTURE][4];

/* A texel index of a level of n texels under GL's REPEAT or MIRRORED_REPEAT. */
static uint32_t wrap_texel(double i, uint32_t n, bool mirror)
{
    int64_t k = (int64_t)i, m = mirror ? 2 * (int64_t)n : (int64_t)n;
    k = ((k % m) + m) % m;
    return (uint32_t)(k < (int64_t)n ? k : 2 * (int64_t)n - 1 - k);
}

/* GL's LINEAR on level l at (s, t), 0..255 per channel. */
static void bilinear(const mip_levels *tex, uint32_t l, double s, double t, bool mirror,
                     double out[4])
{
    uint32_t n = GEN4_MIPMAP_TEXTURE >> l;
    double u = s * n - 0.5, v = t * n - 0.5, i0 = floor(u), j0 = floor(v);
    double a = u - i0, b = v - j0;
    memset(out, 0, 4 * sizeof *out);
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            const uint8_t *texel = (*tex)[l][wrap_texel(j0 + dj, n, mirror)]
                                            [wrap_texel(i0 + di, n, mirror)];
            double wgt = (di ? a : 1 - a) * (dj ? b : 1 - b);
            for (int c = 0; c < 4; c++)
                out[c] += wgt * texel[c];
        }
}

/* The perspective-correct (s, t) at screen point (x, y) of the triangle v
 * whose c[] carry s/w, t/w, 1/w (the planes through its snapped vertices,
 * extended beyond its edges as a subspan's helper pixels see them). */
static void texcoord_at(const struct vertex v[3], double x, double y, double st[2])
{
    double area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
    double b1 = ((x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (y - v[0].y)) / area;
    double b2 = ((v[1].x - v[0].x) * (y - v[0].y) - (x - v[0].x) * (v[1].y - v[0].y)) / area;
    double q[3];
    for (int k = 0; k < 3; k++)
        q[k] = v[0].c[k] + b1 * (v[1].c[k] - v[0].c[k]) + b2 * (v[2].c[k] - v[0].c[k]);
    st[0] = q[0] / q[2];
    st[1] = q[1] / q[2];
}

/* The sampled colour of pixel (px, py) of triangle v, 0..255: the LOD of
 * seed 003 L3090-3094 (rho the larger length of the texel-space
 * derivatives, here the differences across the pixel's subspan: UR - UL
 * and LL - UL, as the sampler takes them from a SIMD16 message), clamped to
 * the levels 0..6 (Min LOD 0, Max LOD 13 > MIP Count 6); LOD <= 0 is
 * magnification (MAG LINEAR on level 0), else LINEAR on the two levels
 * around it blended by its fraction (LINEAR_MIPMAP_LINEAR). */
static void trilinear(const mip_levels *tex, const struct vertex v[3], uint32_t px, uint32_t py,
                      bool mirror, double out[4])
{
    double st[2], ul[2], ur[2], ll[2];
    texcoord_at(v, px + 0.5, py + 0.5, st);
    uint32_t x0 = px & ~1u, y0 = py & ~1u;
    texcoord_at(v, x0 + 0.5, y0 + 0.5, ul);
    texcoord_at(v, x0 + 1.5, y0 + 0.5, ur);
    texcoord_at(v, x0 + 0.5, y0 + 1.5, ll);
    const double n = GEN4_MIPMAP_TEXTURE;
    double rx = hypot((ur[0] - ul[0]) * n, (ur[1] - ul[1]) * n);
    double ry = hypot((ll[0] - ul[0]) * n, (ll[1] - ul[1]) * n);
    double lod = log2(fmax(rx, ry));
    if (lod <= 0) {
        bilinear(tex, 0, st[0], st[1], mirror, out);
        return;
    }
    lod = fmin(lod, GEN4_MIPMAP_LEVELS - 1);
    uint32_t l0 = (uint32_t)floor(lod), l1 = l0 + 1 < GEN4_MIPMAP_LEVELS ? l0 + 1 : l0;
    double beta = lod - l0, a[4], b[4];
    bilinear(tex, l0, st[0], st[1], mirror, a);
    bilinear(tex, l1, st[0], st[1], mirror, b);
    for (int c = 0; c < 4; c++)
        out[c] = (1 - beta) * a[c] + beta * b[c];
}

/* ../shared/tools/image_check.py on the image (written as a PPM, top row
 * first), when ../shared is there. */
static void image_check_py(const struct render *r, const char *test)
{
    const char *tool = "../shared/tools/image_check.py", *refs = "../shared/traces/ext/reference";
    if (access(tool, R_OK) != 0 || access(refs, R_OK) != 0) {
        fprintf(stderr, "\n  %s missing: the image_check.py judgement of %s skipped ", tool, test);
        return;
    }
    char dir[256], path[300], cmd[1024];
    snprintf(dir, sizeof dir, "%s", test_temp_dir());
    snprintf(path, sizeof path, "%s/%s.ppm", dir, test);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "P6\n%u %u\n255\n", r->size, r->size);
    for (uint32_t y = r->size; y-- > 0;)
        for (uint32_t x = 0; x < r->size; x++)
            fwrite(r->rgba + 4 * (y * r->size + x), 1, 3, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 %s %s %s %s >&2", tool, test, dir, refs);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* mipmap (gltrace_ext.c test_mipmap): two perspective trapezoids sampling a
 * mipmapped 64 x 64 texture trilinearly, REPEAT on the left, MIRRORED_REPEAT
 * on the right. Checked against
 *  - an image computed here: coverage as the other scenes' (the snapped
 *    vertices, top-left rule), the texture coordinates perspective-correct
 *    (s/w, t/w and 1/w linear over the snapped triangle), the LOD and the
 *    trilinear filter as trilinear() says on the levels of
 *    gen4_mipmap_levels, every pixel within +-2 (room for the float
 *    rounding and the sampler's 8-bit filter weights: the filter is
 *    continuous in its inputs; a wrong LOD, level layout, wrap mode or
 *    interpolation moves thousands of pixels by more);
 *  - the GL test's probes: the background (1, 126) and (64, 64) within 1 of
 *    26; the far, minified end of each plane, (32, 118) and (96, 118),
 *    within 48 of the base level's average (computed here);
 *  - the judge of tests/support/image_compare.h against llvmpipe's and
 *    softpipe's renders, and ../shared/tools/image_check.py when ../shared
 *    is there;
 *  - the stats: one SF thread per triangle, one sample message per PS
 *    thread, trilinear samples, nothing the sampler could not serve. */
static void test_mipmap(void)
{
    const uint32_t n = GEN4_MIPMAP_SIZE;
    struct render r;
    if (!render("mipmap", n, &r))
        return;
    struct expected *e = malloc(sizeof *e);
    mip_levels *tex = malloc(sizeof *tex);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tex);
    gen4_mipmap_levels(*tex);
    expected_clear(e, n, (const double[4]){ 26.0 / 255, 26.0 / 255, 26.0 / 255, 1 });
    struct vertex v[GEN4_MIPMAP_VERTICES];
    for (uint32_t i = 0; i < GEN4_MIPMAP_VERTICES; i++) {
        float f[6];
        gen4_mipmap_vertex(i, f);
        float ndc[6] = { f[0] / f[3], f[1] / f[3], f[4] / f[3], f[5] / f[3], 1 / f[3], 0 };
        v[i] = make_vertex(ndc, n);
    }
    /* two TRISTRIPs of 4: (0, 1, 2), (1, 2, 3) */
    for (uint32_t d = 0; d < 2; d++)
        for (uint32_t k = 0; k < 2; k++) {
            const struct vertex tri[3] = { v[4 * d + k], v[4 * d + k + 1], v[4 * d + k + 2] };
            for (uint32_t py = 0; py < n; py++)
                for (uint32_t px = 0; px < n; px++) {
                    double w[3], c[4];
                    if (!covers(tri, px, py, w))
                        continue;
                    trilinear(tex, tri, px, py, d == 1, c);
                    for (int ch = 0; ch < 4; ch++)
                        e->rgba[py * n + px][ch] = c[ch] / 255.0;
                }
        }
    check_image(&r, e, "mipmap");
    /* the GL test's probes, its texture average computed here */
    double avg[3] = { 0, 0, 0 };
    for (uint32_t y = 0; y < GEN4_MIPMAP_TEXTURE; y++)
        for (uint32_t x = 0; x < GEN4_MIPMAP_TEXTURE; x++)
            for (int ch = 0; ch < 3; ch++)
                avg[ch] += (*tex)[0][y][x][ch] / (double)(GEN4_MIPMAP_TEXTURE * GEN4_MIPMAP_TEXTURE);
    static const uint32_t background[2][2] = { { 1, 126 }, { 64, 64 } };
    static const uint32_t far_end[2][2] = { { 32, 118 }, { 96, 118 } };
    for (uint32_t k = 0; k < 2; k++)
        for (int ch = 0; ch < 3; ch++) {
            const uint8_t *bg = r.rgba + 4 * (background[k][1] * n + background[k][0]);
            const uint8_t *far = r.rgba + 4 * (far_end[k][1] * n + far_end[k][0]);
            CU_ASSERT_TRUE(abs(bg[ch] - 26) <= 1);
            CU_ASSERT_TRUE(abs(far[ch] - (int)avg[ch]) <= 48);
        }
    image_check_py(&r, "mipmap");
    check_stats(&r, 4);
    CU_ASSERT_TRUE(r.ps_threads > 0);
    CU_ASSERT_EQUAL(r.samples, r.ps_threads);
    CU_ASSERT_TRUE(r.trilinear > 0);
    CU_ASSERT_EQUAL(r.sampler_faults, 0);
    free(tex);
    free(e);
    free(r.rgba);
}

/* fill_heavy: the GL test's 2000 triangles (gen4_fill_heavy_triangles), in
 * order, each covering the pixel centres its snapped edges do (top-left
 * rule), its flat depth z / 2 + 1/2 as D16 (round to nearest; the buffer
 * cleared to 0xffff); draw 1 (triangles 0-999) depth LESS, the depth
 * written, colour blended SRC_ALPHA / ONE_MINUS_SRC_ALPHA; draw 2 (1000-
 * 1999) LEQUAL against the depth draw 1 left, nothing written to it, blended
 * SRC_ALPHA / ONE (alpha as colour: glBlendFunc sets both). The blend in
 * float on unorm8 values, rounded to unorm8 after each triangle (seed 001
 * L19506-19640: the blend takes the destination as float and the result is
 * converted to the surface format). */
static void paint_fill_heavy(struct expected *e)
{
    const uint32_t n = GEN4_FILL_HEAVY_SIZE, count = GEN4_FILL_HEAVY_TRIANGLES;
    struct gen4_fill_vertex *fv = malloc(3 * count * sizeof *fv);
    uint16_t *depth = malloc(n * n * sizeof *depth);
    gen4_fill_heavy_triangles(fv);
    for (uint32_t i = 0; i < n * n; i++)
        depth[i] = 0xffff;
    for (uint32_t t = 0; t < count; t++) {
        bool first_draw = t < count / 2;
        struct vertex v[3];
        double lo[2] = { n, n }, hi[2] = { 0, 0 };
        for (uint32_t k = 0; k < 3; k++) {
            const struct gen4_fill_vertex *q = &fv[3 * t + k];
            float f[6] = { q->x, q->y, q->colour[0] / 255.0f, q->colour[1] / 255.0f,
                           q->colour[2] / 255.0f, q->colour[3] / 255.0f };
            v[k] = make_vertex(f, n);
            lo[0] = fmin(lo[0], v[k].x);
            lo[1] = fmin(lo[1], v[k].y);
            hi[0] = fmax(hi[0], v[k].x);
            hi[1] = fmax(hi[1], v[k].y);
        }
        uint16_t z = (uint16_t)lrint((fv[3 * t].z * 0.5 + 0.5) * 65535.0);
        float alpha = v[0].c[3];
        int x0 = (int)fmax(0, floor(lo[0])), x1 = (int)fmin(n - 1, ceil(hi[0]));
        int y0 = (int)fmax(0, floor(lo[1])), y1 = (int)fmin(n - 1, ceil(hi[1]));
        for (int py = y0; py <= y1; py++)
            for (int px = x0; px <= x1; px++) {
                double w[3];
                if (!covers(v, (uint32_t)px, (uint32_t)py, w))
                    continue;
                uint32_t i = (uint32_t)py * n + (uint32_t)px;
                if (first_draw ? !(z < depth[i]) : !(z <= depth[i]))
                    continue;
                if (first_draw)
                    depth[i] = z;
                for (int c = 0; c < 4; c++) {
                    float src = (float)v[0].c[c], dst = (float)e->rgba[i][c];
                    float out = first_draw ? src * alpha + dst * (1.0f - alpha) : src * alpha + dst;
                    out = out < 0 ? 0 : out > 1 ? 1 : out;
                    e->rgba[i][c] = nearbyintf(out * 255.0f) / 255.0;
                }
            }
    }
    free(depth);
    free(fv);
}

static void test_fill_heavy(void)
{
    const uint32_t n = GEN4_FILL_HEAVY_SIZE;
    struct render r;
    if (!render("fill-heavy", n, &r))
        return;
    struct expected *e = malloc(sizeof *e);
    expected_clear(e, n, (const double[4]){ 13.0 / 255, 13.0 / 255, 26.0 / 255, 1 });
    paint_fill_heavy(e);
    check_image_probed(&r, e, "fill_heavy", false);
    /* no CLIP thread (objects wholly outside are trivially rejected), no
     * illegal instruction or killed thread */
    CU_ASSERT_EQUAL(r.clip_threads, 0);
    CU_ASSERT_EQUAL(r.index_oob, 0);
    CU_ASSERT_EQUAL(r.illegal, 0);
    CU_ASSERT_EQUAL(r.killed, 0);
    /* and ../shared's own judge, where the shared tree is present */
    if (access(SHARED_IMAGE_CHECK, R_OK) != 0) {
        fprintf(stderr, "\n  fill_heavy: %s absent, image_check.py skipped ", SHARED_IMAGE_CHECK);
    } else {
        char dir[] = "/tmp/gtsim-fill-XXXXXX", png[64], cmd[256];
        CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
        snprintf(png, sizeof png, "%s/fill_heavy.png", dir);
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL(png_write_rgba8(png, n, n, r.rgba, &err), 0);
        snprintf(cmd, sizeof cmd, "python3 %s fill_heavy %s %s >&2", SHARED_IMAGE_CHECK, dir,
                 SHARED_EXT_REFERENCES);
        CU_ASSERT_EQUAL(system(cmd), 0);
        unlink(png);
        rmdir(dir);
    }
    free(e);
    free(r.rt1);
    free(r.rgba);
}

static const struct test_case cases[] = {
    { "strip_fan on the 965G: strip, fan, lines, points (our capture)", test_strip_fan },
    { "instanced on the 965G: indexed, 16 instances (our capture)", test_instanced },
    { "blend_stencil on the 965G: D24S8 stencil, ONE/ONE, DST_COLOR, MAX, scissor, mask",
      test_blend_stencil },
    { "multi_rt on the 965G: RGBA8 + RGBA16F targets, two render target writes", test_multi_rt },
    { "fill_heavy on the 965G: 2000 triangles, D16 LESS / LEQUAL, two blends", test_fill_heavy },
    { "mipmap on the 965G: perspective, trilinear, REPEAT and MIRRORED_REPEAT (our capture)",
      test_mipmap },
    { 0 }
};
TEST_SUITE(gen4_ext, cases);
