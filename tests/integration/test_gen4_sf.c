/* tests/integration/test_gen4_sf.c - g965_tri (Mesa on a 965G) through the
 * Gen4 SF (issue 14 item 3, units/sf/sf_gen4.h): configs/gen4-g965.cfg runs
 * the real SF, which reads SF_STATE and SF_VIEWPORT through 3DSTATE_PIPELINED_
 * POINTERS and sends MSG_SETUP to WM. WM is replaced here by a recorder (the
 * test's lookup answers "wm:placeholder" with it), so the set-up primitives
 * can be checked against screen positions computed in the test:
 *  - the clear (RECTLIST, VS disabled, Viewport Transform Enable off in its
 *    SF_STATE, g965_tri.aubinator.txt L274-L340) covers the 64 x 64 render
 *    target;
 *  - the last draw's triangle: the app's vertices from the capture's vertex
 *    buffer (VERTEX_BUFFER_STATE at 0x233000, pitch 32, element 0 = clip
 *    position; the VS passes it on, test_gen4_front.c), divided, then the
 *    aubinator's SF_VIEWPORT (L915-L925: m00 = m11 = 32, m30 = m31 = 32):
 *    every pixel whose centre lies clearly inside the triangle computed here
 *    is covered by the primitive's edges and inside its bounding box, every
 *    pixel clearly outside is not covered, and the box lies within a pixel of
 *    the vertices' extent;
 *  - the setup thread (seed 001 §7.5, units/sf/sf.h "Gen4"): each object ran
 *    the driver's setup kernel (SF_STATE Kernel Start Pointer 0x1f200) and
 *    reaches WM with its SF-region URB entry (URB Entry Allocation Size 1 =
 *    2 x 512 bits = 4 rows); the triangle's entry holds, per attribute
 *    component, Cx, Cy, null, Co (L14380-14420) with C0 the value at V0 (the
 *    top-most vertex, L14181-14190) and Cx/Cy the screen gradients, checked
 *    against the plane through the app's three vertices (colour from the
 *    vertex buffer's element 1) computed here; Xstart/Ystart (the planes'
 *    origin WM hands the PS) are V0 less the Destination Origin Bias 0.5;
 *  - the watchdog: with gpu.sf.thread_timeout below the kernel's run time
 *    every setup thread is given up (counted), no object reaches WM, their
 *    late ends are counted, and the run still ends (no hang). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/machine.h"
#include "units/common/primitive.h"
#include "units/common/urb.h"
#include "units/registry.h"
#include "units/sf/sf_setup.h"
#include "units/urb_fence/urb_fence.h"

#define TRACE "tests/data/traces/g965_tri.aub.gz"
#define RECORDED 16u

struct setup_recorder {
    struct port *in, *urb;
    uint32_t count;
    struct setup_primitive prims[RECORDED];
};

static const struct port_desc recorder_ports[] = {
    { .name = "sf", .direction = PORT_IN, .help = "state, MSG_SETUP and syncs from SF" },
    { .name = "td", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "unused" },
    { .name = "om", .direction = PORT_OUT, .flags = PORT_OPEN | PORT_OPTIONAL, .help = "unused" },
    { .name = "eot", .direction = PORT_IN, .flags = PORT_OPEN | PORT_OPTIONAL, .help = "unused" },
    { .name = "urb", .direction = PORT_OUT, .flags = PORT_OPTIONAL,
      .help = "drops each setup entry's reference, as WM does" },
    { .name = "urb_reply", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "unused" },
    PORT_END
};

static int recorder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct setup_recorder *r = unit_state(u);
    r->in = unit_port(u, "sf", 0);
    r->urb = unit_port(u, "urb", 0);
    return 0;
}

static enum unit_activity recorder_tick(struct unit *u)
{
    struct setup_recorder *r = unit_state(u);
    struct msg *m;
    while ((m = port_pop(r->in)) != NULL) {
        if (m->kind == MSG_SETUP && m->size >= sizeof(struct setup_primitive) && r->count < RECORDED)
            memcpy(&r->prims[r->count++], m->payload, sizeof(struct setup_primitive));
        /* the setup entry's reference is WM's to drop (primitive.h): the
         * entry's bytes stay in the URB until it is handed out again */
        const struct setup_primitive *sp = (const struct setup_primitive *)m->payload;
        if (m->kind == MSG_SETUP && m->size >= sizeof *sp && sp->setup_urb_rows &&
            port_is_bound(r->urb)) {
            struct msg *d = msg_alloc(unit_sim(u), MSG_URB, sizeof(struct urb_msg));
            struct urb_msg *q = (struct urb_msg *)d->payload;
            memset(q, 0, sizeof *q);
            q->op = URB_OP_DEREFERENCE;
            q->client = URB_CLIENT_SF;
            q->count = 1;
            q->handles[0] = sp->setup_urb_handle;
            if (!port_try_send(r->urb, d))
                msg_free(unit_sim(u), d);
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops recorder_ops = {
    .kind = "wm:placeholder", .help = "test: records MSG_SETUP",
    .state_size = sizeof(struct setup_recorder), .ports = recorder_ports,
    .realize = recorder_realize, .tick = recorder_tick,
};

static const struct unit_ops *lookup(const char *kind)
{
    if (strcmp(kind, "wm:placeholder") == 0)
        return &recorder_ops;
    return unit_kind_find(kind);
}

/* Twice the signed area of (a, b, p): which side of edge a->b p lies on. */
static double side(const double a[2], const double b[2], double px, double py)
{
    return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

static void test_g965_tri_setup(void)
{
    if (access(TRACE, R_OK) != 0)
        return;
    /* the real WM is replaced by the recorder (lookup, "wm:placeholder") */
    const char *sets[] = { "gpu.wm.impl=placeholder" };
    struct machine_request req = { .config_path = "configs/gen4-g965.cfg", .workload = TRACE,
                                   .sets = sets, .set_count = 1 };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.primitives"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.setup.rectangles"), 1);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.setup.triangles"), 2);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.state_faults"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.viewport_faults"), 0);
    struct unit *wm = sim_find_unit(sim, "gpu.wm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(wm);
    const struct setup_recorder *r = unit_state(wm);
    CU_ASSERT_EQUAL_FATAL(r->count, 3);
    /* the clear: a rectangle over the whole 64 x 64 render target */
    const struct setup_primitive *clear = &r->prims[0];
    CU_ASSERT_EQUAL(clear->topology, PRIM_RECTLIST);
    CU_ASSERT_EQUAL(clear->x_min, 0);
    CU_ASSERT_EQUAL(clear->y_min, 0);
    CU_ASSERT_EQUAL(clear->x_max, 63);
    CU_ASSERT_EQUAL(clear->y_max, 63);
    CU_ASSERT_EQUAL(clear->attribute_count, 0);
    /* the last draw's triangle from the app's vertices */
    const struct setup_primitive *t = &r->prims[2];
    CU_ASSERT_EQUAL(t->topology, PRIM_TRILIST);
    CU_ASSERT_EQUAL(t->attribute_count, 0);
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(sim), GPU_ADDRESS_SPACE_GTT_GEN4, 0);
    float app[3][8];
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&as, 0x233000, app, sizeof app, &err), 0);
    double v[3][2], lo[2] = { 1e9, 1e9 }, hi[2] = { -1e9, -1e9 };
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_TRUE_FATAL(app[i][3] != 0.0f);
        v[i][0] = 32.0 * app[i][0] / app[i][3] + 32.0;
        v[i][1] = 32.0 * app[i][1] / app[i][3] + 32.0;
        for (int k = 0; k < 2; k++) {
            lo[k] = fmin(lo[k], v[i][k]);
            hi[k] = fmax(hi[k], v[i][k]);
        }
    }
    CU_ASSERT_TRUE(t->x_min >= (int32_t)floor(lo[0]) - 1 && t->x_min <= (int32_t)ceil(lo[0]));
    CU_ASSERT_TRUE(t->y_min >= (int32_t)floor(lo[1]) - 1 && t->y_min <= (int32_t)ceil(lo[1]));
    CU_ASSERT_TRUE(t->x_max >= (int32_t)floor(hi[0]) - 1 && t->x_max <= (int32_t)ceil(hi[0]));
    CU_ASSERT_TRUE(t->y_max >= (int32_t)floor(hi[1]) - 1 && t->y_max <= (int32_t)ceil(hi[1]));
    double area = side(v[0], v[1], v[2][0], v[2][1]);
    CU_ASSERT_TRUE_FATAL(fabs(area) > 1.0);
    uint32_t inside = 0, mismatches = 0;
    for (int py = 0; py < 64; py++) {
        for (int px = 0; px < 64; px++) {
            double cx = px + 0.5, cy = py + 0.5, d[3];
            bool in = true, out = false;
            for (int e = 0; e < 3; e++) {
                const double *a = v[e], *b = v[(e + 1) % 3];
                double len = hypot(b[0] - a[0], b[1] - a[1]);
                d[e] = side(a, b, cx, cy) / len * (area > 0 ? 1.0 : -1.0);
                in = in && d[e] > 0.05;         /* clearly inside (1/20 pixel) */
                out = out || d[e] < -0.05;
            }
            bool covered = sf_setup_covers(t, px, py, true);
            if (in) {
                inside++;
                mismatches += !covered;
                mismatches += px < t->x_min || px > t->x_max || py < t->y_min || py > t->y_max;
            } else if (out) {
                mismatches += covered;
            }
        }
    }
    CU_ASSERT_TRUE(inside > 10);
    CU_ASSERT_EQUAL(mismatches, 0);
    /* the setup threads: one per object, each entry handed to WM */
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.threads.dispatched"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.threads.ended"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.setups_out"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.watchdog_drops"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.urb.eot_notified") >= 3, true);
    /* the triangles' SF_STATE (aubinator L831-L840): URB Entry Allocation
     * Size 1; the clear has its own SF_STATE */
    CU_ASSERT_TRUE(r->prims[0].setup_urb_rows > 0);
    for (uint32_t i = 1; i < 3; i++)
        CU_ASSERT_EQUAL(r->prims[i].setup_urb_rows, 4);
    /* V0: the top-most vertex (least Y; of equals the left-most) */
    int v0 = 0;
    for (int i = 1; i < 3; i++)
        if (v[i][1] < v[v0][1] || (v[i][1] == v[v0][1] && v[i][0] < v[v0][0]))
            v0 = i;
    CU_ASSERT_TRUE(fabs(t->x0 - (v[v0][0] - 0.5)) < 1.0 / 128);
    CU_ASSERT_TRUE(fabs(t->y0 - (v[v0][1] - 0.5)) < 1.0 / 128);
    struct unit *urb = sim_find_unit(sim, "gpu.urb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(urb);
    float rows[4][8];
    CU_ASSERT_EQUAL_FATAL(urb_fence_backdoor_read(urb, t->setup_urb_handle * 64, rows, sizeof rows),
                          sizeof rows);
    const float *slots = &rows[0][0];       /* 8 slots of 4 floats */
    /* components 4-7 of the VUE row (the colour, element 1), divided by w
     * as the kernel does (perspective), and component 3 (1/w) */
    double det = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
    for (int c = 3; c < 8; c++) {
        double a[3];
        for (int i = 0; i < 3; i++)
            a[i] = c == 3 ? 1.0 / app[i][3] : app[i][c] / app[i][3];
        double cx = ((a[1] - a[0]) * (v[2][1] - v[0][1]) - (a[2] - a[0]) * (v[1][1] - v[0][1])) / det;
        double cy = ((a[2] - a[0]) * (v[1][0] - v[0][0]) - (a[1] - a[0]) * (v[2][0] - v[0][0])) / det;
        const float *slot = slots + 4 * c;
        CU_ASSERT_TRUE(fabs(slot[0] - cx) < 1e-3);
        CU_ASSERT_TRUE(fabs(slot[1] - cy) < 1e-3);
        CU_ASSERT_TRUE(slot[2] == 0.0f);
        CU_ASSERT_TRUE(fabs(slot[3] - a[v0]) < 1e-6);
    }
    sim_destroy(sim);
    gt_config_free(config);
}

static void test_g965_setup_watchdog(void)
{
    if (access(TRACE, R_OK) != 0)
        return;
    const char *sets[] = { "gpu.wm.impl=placeholder", "gpu.sf.thread_timeout=5" };
    struct machine_request req = { .config_path = "configs/gen4-g965.cfg", .workload = TRACE,
                                   .sets = sets, .set_count = 2 };
    struct gt_error err;
    struct gt_config *config = machine_config(&req, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    struct sim *sim = machine_build(config, lookup, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.threads.dispatched"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.watchdog_drops"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.late_ends"), 3);
    CU_ASSERT_EQUAL(probe_stat(sim, "gpu.sf.gen4.setups_out"), 0);
    const struct setup_recorder *r = unit_state(sim_find_unit(sim, "gpu.wm"));
    CU_ASSERT_EQUAL(r->count, 0);
    sim_destroy(sim);
    gt_config_free(config);
}

static const struct test_case cases[] = {
    { "g965_tri's SF_STATE/SF_VIEWPORT set up the clear and the triangle for WM; its setup "
      "kernel's planes reach the URB entry WM gets", test_g965_tri_setup },
    { "a setup thread slower than gpu.sf.thread_timeout is dropped and counted, no hang",
      test_g965_setup_watchdog },
    { 0 }
};
TEST_SUITE(gen4_sf, cases);
