/* tests/integration/test_gen4_clip_kernel.c - Mesa's own Gen4 clip kernel on
 * our EU (issue 14 item 3: "CLIP and SF dispatching the driver's own clip and
 * setup kernels as EU threads").
 *
 * g965_tri's CLIP_STATE (0x192a0: Kernel Start Pointer 0x1e400, Vertex URB
 * Entry Read Length 2, Clip Mode NORMAL, guardband +-256, UserClipFlags
 * MustClip with UC6, aubinator "Clip State Table") points at the kernel
 * crocus compiled for triangles: Mesa's brw_clip_tri (a general clipper:
 * the six view-volume planes as signed bytes walked through a0 with
 * g[a0.x] operands, Sutherland-Hodgman loops written as "add ip" jumps,
 * math INV for the intersection parameter, accumulator mul/mac for the
 * interpolation, the polygon written back as a TRIFAN with URB_WRITEs that
 * allocate the next entry). The app's triangle is trivially accepted, so the
 * capture alone never runs it. Here the app's vertex buffer (VERTEX_BUFFER_
 * STATE at 0x233000, pitch 32: position then colour, both R32G32B32A32_FLOAT;
 * the VS passes both on) is patched in the AUB's write block so that the
 * triangle must be clipped:
 *  - near: one vertex at z = -3 (w = 1), behind the near plane z = -w;
 *  - guardband: one vertex at (300, -300), beyond the guardband's +-256;
 *  - behind the eye: one vertex with w = -0.5 (the kernel's negative-RHW
 *    path: test_behind_the_eye).
 * CLIP spawns one thread, the kernel's URB writes bring the clipped polygon
 * back, SF's setup kernel and WM draw it. The expected image is computed
 * here: the polygon is the triangle clipped (Sutherland-Hodgman, in clip
 * space) against -w <= x, y, z <= w, mapped by the SF_VIEWPORT (m00 = m11 =
 * 32, m30 = m31 = 32; rows of the image as glReadPixels gives them, y up),
 * colours interpolated perspective-correctly on the original triangle
 * (triangle_weights(); with w = 1 that is linear in screen space). A pixel whose centre lies at least 1 px inside every
 * polygon edge must have the interpolated colour within +-2 per channel; one
 * at least 1 px outside must equal the same pixel of a run where the app's
 * triangle lies wholly outside the guardband (trivially rejected: the
 * capture's other draw and clear only); the rest (near an edge) must be one
 * of the two, counted. Stats: one thread per object needing clipping, one
 * completed URB write per polygon vertex, no watchdog drops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fabric/sim.h"
#include "tests/support/gen4_render.h"
#include "tests/support/probes.h"
#include "tests/test.h"

#define TRACE "tests/data/traces/g965_tri.aub.gz"
#define MAX_POLY 9

/* The app's three vertices as the capture writes them (g965_tri.aubinator.txt
 * draws from 0x233000; values read back in test_gen4_front.c): position
 * (x, y, z, w), colour (r, g, b, a). */
static const float app_vertices[3][8] = {
    { -0.8f, 0.9f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f },
    { 0.9f, -0.8f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f },
    { 0.9f, 0.9f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f },
};

/* Writes the capture, uncompressed, with the app's vertex data replaced, to
 * a temporary file (the loader reads plain AUBs too); its path in path. */
static bool patched_capture(const float vertices[3][8], char path[64])
{
    gzFile in = gzopen(TRACE, "rb");
    if (!in)
        return false;
    size_t cap = 1u << 22, len = 0;
    uint8_t *data = malloc(cap);
    int n;
    while ((n = gzread(in, data + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)n;
        if (len == cap)
            data = realloc(data, cap *= 2);
    }
    gzclose(in);
    size_t hits = 0, at = 0;
    for (size_t i = 0; i + sizeof app_vertices <= len; i += 4)
        if (memcmp(data + i, app_vertices, sizeof app_vertices) == 0) {
            hits++;
            at = i;
        }
    CU_ASSERT_EQUAL(hits, 1);           /* one data write holds the buffer */
    if (hits != 1) {
        free(data);
        return false;
    }
    memcpy(data + at, vertices, sizeof app_vertices);
    snprintf(path, 64, "/tmp/gtsim-clipk-XXXXXX");
    int fd = mkstemp(path);
    bool ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
    if (fd >= 0)
        close(fd);
    free(data);
    return ok;
}

struct render {
    uint8_t *rgba;                      /* 64 x 64, rows as glReadPixels */
    double threads_spawned, threads_ended, outputs, must_clip, watchdog_drops, dangling,
        late, primitives_out, triangles, illegal, killed;
};

static bool render(const float vertices[3][8], struct render *r)
{
    memset(r, 0, sizeof *r);
    char path[64];
    if (!patched_capture(vertices, path))
        return false;
    struct gen4_render g;
    bool ok = gen4_render_run(path, 64, 64, &g);
    unlink(path);
    struct sim *sim = g.sim;
    r->threads_spawned = probe_stat(sim, "gpu.clip.gen4.threads_spawned");
    r->threads_ended = probe_stat(sim, "gpu.clip.gen4.threads_ended");
    r->outputs = probe_stat(sim, "gpu.clip.gen4.outputs");
    r->must_clip = probe_stat(sim, "gpu.clip.gen4.must_clip");
    r->watchdog_drops = probe_stat(sim, "gpu.clip.gen4.watchdog_drops");
    r->dangling = probe_stat(sim, "gpu.clip.gen4.dangling_outputs");
    r->late = probe_stat(sim, "gpu.clip.gen4.late_notices");
    r->primitives_out = probe_stat(sim, "gpu.clip.gen4.primitives_out");
    r->triangles = probe_stat(sim, "gpu.sf.setup.triangles");
    r->illegal = g.illegal;
    r->killed = g.killed;
    r->rgba = g.rgba;
    gen4_render_free(&g);
    return ok;
}

/* ---- the expected polygon, computed here ----------------------------------------------- */

struct vtx {
    double p[4];                        /* clip space */
    double c[4];                        /* colour */
};

/* Sutherland-Hodgman against the six planes -w <= x, y, z <= w. */
static unsigned clip_polygon(struct vtx *poly, unsigned n)
{
    for (unsigned plane = 0; plane < 6; plane++) {
        unsigned axis = plane / 2;
        double sign = plane % 2 ? -1.0 : 1.0;   /* w + x >= 0, w - x >= 0 */
        struct vtx out[MAX_POLY];
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct vtx *a = &poly[i], *b = &poly[(i + 1) % n];
            double da = a->p[3] + sign * a->p[axis], db = b->p[3] + sign * b->p[axis];
            if (da >= 0 && m < MAX_POLY)
                out[m++] = *a;
            if ((da >= 0) != (db >= 0) && m < MAX_POLY) {
                double t = da / (da - db);
                struct vtx v;
                for (unsigned k = 0; k < 4; k++) {
                    v.p[k] = a->p[k] + t * (b->p[k] - a->p[k]);
                    v.c[k] = a->c[k] + t * (b->c[k] - a->c[k]);
                }
                out[m++] = v;
            }
        }
        memcpy(poly, out, m * sizeof *out);
        n = m;
    }
    return n;
}

/* Screen position of a clip-space point (SF_VIEWPORT m00 = m11 = m30 = m31 = 32). */
static void to_screen(const double p[4], double s[2])
{
    s[0] = 32.0 * p[0] / p[3] + 32.0;
    s[1] = 32.0 * p[1] / p[3] + 32.0;
}

/* The weights (a, b, c), a + b + c = 1, of the point a v0 + b v1 + c v2 of
 * the original triangle in clip space that lands on the pixel centre
 * (px, py): x - ndc_x w = 0 and y - ndc_y w = 0 at that point. Colours
 * interpolated with these weights are the perspective-correct colours (the
 * clip kernel interpolates linearly in clip space, the setup kernel and WM
 * perspective-correctly in screen space: both agree with this); with w = 1
 * everywhere they are the screen-space barycentrics. */
static void triangle_weights(const float vertices[3][8], double px, double py, double l[3])
{
    double nx = (px - 32.0) / 32.0, ny = (py - 32.0) / 32.0;
    double ex[3], ey[3];
    for (unsigned v = 0; v < 3; v++) {
        ex[v] = vertices[v][0] - nx * vertices[v][3];
        ey[v] = vertices[v][1] - ny * vertices[v][3];
    }
    /* a ex0 + b ex1 + c ex2 = 0, a ey0 + b ey1 + c ey2 = 0: (a, b, c) is
     * along ex x ey, scaled to sum 1 */
    double cx = ey[1] * ex[2] - ex[1] * ey[2];
    double cy = ey[2] * ex[0] - ex[2] * ey[0];
    double cz = ey[0] * ex[1] - ex[0] * ey[1];
    double sum = cx + cy + cz;
    l[0] = cx / sum;
    l[1] = cy / sum;
    l[2] = cz / sum;
}

static void check_clipped(const float vertices[3][8], const char *what)
{
    if (access(TRACE, R_OK) != 0)
        return;
    /* the reference: the app's triangle wholly beyond the guardband's x max */
    float away[3][8];
    memcpy(away, app_vertices, sizeof away);
    for (unsigned v = 0; v < 3; v++)
        away[v][0] = 400.0f + (float)v;
    struct render base, run;
    CU_ASSERT_TRUE_FATAL(render(away, &base));
    CU_ASSERT_EQUAL(base.threads_spawned, 0);
    CU_ASSERT_TRUE_FATAL(render(vertices, &run));

    struct vtx poly[MAX_POLY];
    for (unsigned v = 0; v < 3; v++)
        for (unsigned k = 0; k < 4; k++) {
            poly[v].p[k] = vertices[v][k];
            poly[v].c[k] = vertices[v][4 + k];
        }
    unsigned n = clip_polygon(poly, 3);
    CU_ASSERT_TRUE_FATAL(n >= 3);
    /* the stats: one object needed clipping, one thread ran it to its end,
     * one completed URB write per polygon vertex, one TRIFAN back to SF
     * (n - 2 triangles besides the capture's other triangle) */
    CU_ASSERT_EQUAL(run.must_clip, 1);
    CU_ASSERT_EQUAL(run.threads_spawned, 1);
    CU_ASSERT_EQUAL(run.threads_ended, 1);
    /* at least one completed URB write per polygon vertex: where a vertex
     * made by one plane lies exactly on the next plane (d = 0, the guardband
     * case's corner), the kernel emits it more than once (zero-area fan
     * triangles, which SF culls: the triangle count below still holds).
     * That is the driver's algorithm, not an EU fault: Mesa's Gen4 clip
     * kernel (src/intel/compiler/brw_clip_tri.c, brw_clip_tri(): the
     * per-plane Sutherland-Hodgman loop) keeps a vertex with distance
     * >= 0 as inside and, on an edge that comes back in from outside,
     * adds the intersection computed with t = dpPrev / (dpPrev - dp),
     * which is 1 - the on-plane vertex itself - when dp = 0; leaving to
     * an outside vertex it adds the vertex and again an intersection at
     * t = 1. So an on-plane corner between two outside neighbours goes
     * into the list three times, and brw_clip_tri_emit_polygon() emits
     * every list entry as a TRIFAN vertex. */
    CU_ASSERT_TRUE(run.outputs >= n);
    CU_ASSERT_EQUAL(run.watchdog_drops, 0);
    CU_ASSERT_EQUAL(run.dangling, 0);
    CU_ASSERT_EQUAL(run.late, 0);
    CU_ASSERT_EQUAL(run.triangles, base.triangles + (n - 2));
    CU_ASSERT_EQUAL(run.illegal, 0);
    CU_ASSERT_EQUAL(run.killed, 0);

    /* the polygon on screen (counter-clockwise or not: the sign of its area) */
    double s[MAX_POLY][2];
    for (unsigned i = 0; i < n; i++)
        to_screen(poly[i].p, s[i]);
    double area = 0;
    for (unsigned i = 0; i < n; i++)
        area += s[i][0] * s[(i + 1) % n][1] - s[(i + 1) % n][0] * s[i][1];
    unsigned inside = 0, outside = 0, edge = 0, bad_inside = 0, bad_outside = 0, bad_edge = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            double px = x + 0.5, py = y + 0.5;
            double dmin = INFINITY;
            for (unsigned i = 0; i < n; i++) {
                const double *a = s[i], *b = s[(i + 1) % n];
                double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot(ex, ey);
                if (len < 1e-9)
                    continue;
                double d = (ex * (py - a[1]) - ey * (px - a[0])) / len * (area > 0 ? 1 : -1);
                dmin = d < dmin ? d : dmin;
            }
            double l[3];
            triangle_weights(vertices, px, py, l);
            double l0 = l[0], l1 = l[1], l2 = l[2];
            uint8_t want[4];
            for (unsigned k = 0; k < 4; k++) {
                double c = l0 * vertices[0][4 + k] + l1 * vertices[1][4 + k] + l2 * vertices[2][4 + k];
                c = c < 0 ? 0 : c > 1 ? 1 : c;
                want[k] = (uint8_t)lround(c * 255.0);
            }
            const uint8_t *got = run.rgba + 4 * (y * 64 + x), *ref = base.rgba + 4 * (y * 64 + x);
            bool is_colour = true, is_ref = true;
            for (unsigned k = 0; k < 4; k++) {
                is_colour = is_colour && abs((int)got[k] - (int)want[k]) <= 2;
                is_ref = is_ref && abs((int)got[k] - (int)ref[k]) <= 2;
            }
            if (dmin >= 1.0) {
                inside++;
                bad_inside += !is_colour;
            } else if (dmin <= -1.0) {
                outside++;
                bad_outside += !is_ref;
            } else {
                edge++;
                bad_edge += !is_colour && !is_ref;
            }
        }
    if (bad_inside || bad_outside || bad_edge)
        fprintf(stderr, "\n  %s: %u/%u inside, %u/%u outside, %u/%u edge pixels wrong ", what,
                bad_inside, inside, bad_outside, outside, bad_edge, edge);
    CU_ASSERT_TRUE(inside > 50);
    CU_ASSERT_EQUAL(bad_inside, 0);
    CU_ASSERT_EQUAL(bad_outside, 0);
    CU_ASSERT_EQUAL(bad_edge, 0);
    free(base.rgba);
    free(run.rgba);
}

static void test_behind_near_plane(void)
{
    float v[3][8];
    memcpy(v, app_vertices, sizeof v);
    v[0][2] = -3.0f;                    /* z < -w: behind the near plane */
    check_clipped((const float (*)[8])v, "near plane");
}

static void test_beyond_guardband(void)
{
    float v[3][8];
    memcpy(v, app_vertices, sizeof v);
    v[1][0] = 300.0f;                   /* x/w > 256, the CLIP_VIEWPORT's XMax, */
    v[1][1] = -300.0f;                  /* y/w < -256, its YMin */
    check_clipped((const float (*)[8])v, "guardband");
}

/* One vertex behind the eye (w < 0). Its rhw = 1/w is negative: Mesa's VS
 * on the 965 flags that in the VUE header's User Clip Flags bit 6 (the
 * negative-RHW workaround; g965_tri's CLIP_STATE has UserClipFlags MustClip
 * with UC6 enabled, so CLIP spawns a thread: seed 001 L10262-10272 masks
 * the UCFs into the outcodes, and on the DevBW 965 a negative RHW sets every
 * VP and GB outcode, L10113-10130), and Mesa's clip kernel tests R0.2 bit 20
 * (outcode UC6) and then runs its own clip test in clip space instead of
 * trusting the hardware's outcodes (brw_clip_tri.c, brw_emit_tri_clip():
 * "if -ve rhw workaround bit is set, do cliptest", brw_clip_test()). The
 * visible part is where w > 0 and -w <= x, y <= w. */
static void test_behind_the_eye(void)
{
    float v[3][8];
    memcpy(v, app_vertices, sizeof v);
    v[0][3] = -0.5f;                    /* w < 0 */
    check_clipped((const float (*)[8])v, "w < 0");
}

static const struct test_case cases[] = {
    { "g965_tri patched behind the near plane: Mesa's clip kernel clips it", test_behind_near_plane },
    { "g965_tri patched beyond the guardband: Mesa's clip kernel clips it", test_beyond_guardband },
    { "g965_tri patched with w < 0: Mesa's clip kernel takes its negative-RHW path", test_behind_the_eye },
    { 0 }
};
TEST_SUITE(gen4_clip_kernel, cases);
