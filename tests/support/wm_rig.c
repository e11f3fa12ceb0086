/* tests/support/wm_rig.c - see wm_rig.h. */
#include "tests/support/wm_rig.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fabric/port.h"
#include "spec_common.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/memreq.h"
#include "units/common/state_packet.h"
#include "units/sf/sf_setup.h"
#include "units/wm/wm.h"


static const struct port_desc wm_catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "anything" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "nothing" },
    PORT_END
};

static int wm_catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct wm_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity wm_catcher_tick(struct unit *u)
{
    struct wm_catcher *c = unit_state(u);
    struct msg *m;
    while (c->in && (m = port_pop(c->in))) {
        uint32_t i = c->count++;
        if (i < WM_CATCH_MAX) {
            c->kind[i] = m->kind;
            if (m->kind == MSG_THREAD_DISPATCH) {
                const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
                c->head[i] = *d;
                uint32_t n = d->grf_count < WM_CATCH_REGS ? d->grf_count : WM_CATCH_REGS;
                memcpy(c->grf[i], d->grf, n * 32u);
            } else if (m->kind == MSG_STATE) {
                c->state_id[i] = ((const struct cs_state_packet *)m->payload)->id;
            } else if (m->kind == MSG_MMIO) {
                memcpy(&c->mmio[i], m->payload, sizeof c->mmio[i]);
                if (m->size >= sizeof(struct cs_mmio) + sizeof(struct pipeline_registers))
                    memcpy(&c->regs[i], m->payload + sizeof(struct cs_mmio), sizeof c->regs[i]);
            }
        }
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops wm_catcher_ops = {
    .kind = "test_wm_catcher",
    .state_size = sizeof(struct wm_catcher),
    .ports = wm_catcher_ports,
    .realize = wm_catcher_realize,
    .tick = wm_catcher_tick,
};

static enum unit_activity wm_idle_tick(struct unit *u)
{
    const uint64_t *until = unit_state(u);
    return unit_cycle(u) < *until ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops wm_idle_ops = {
    .kind = "test_wm_idle",
    .state_size = sizeof(uint64_t),
    .tick = wm_idle_tick,
};


void wm_rig_run(struct wm_rig *r, uint64_t cycles)
{
    uint64_t now = sim_now(r->sim) / 1000;
    *(uint64_t *)unit_state(r->idle) = now + cycles + 1;
    unit_wake_at(r->idle, now + 1);
    sim_run(r->sim, sim_now(r->sim) + cycles * 1000);
}

struct msg *wm_rig_state_msg(struct wm_rig *r, uint32_t id, uint32_t dwords, size_t body,
                             void **common)
{
    size_t off = cs_state_common_offset(dwords);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, (uint32_t)(off + body));
    memset(m->payload, 0, off + body);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = id;
    p->gen = 9;
    p->dword_count = dwords;
    p->common_offset = (uint32_t)off;
    p->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    *common = (uint8_t *)p + off;
    return m;
}

void wm_rig_to_wm(struct wm_rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->wm, "sf", 0), m));
}

static const struct port_desc wm_l3_probe_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "line requests" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "their replies" },
    PORT_END
};

static int wm_l3_probe_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct wm_l3_probe *p = unit_state(u);
    p->in = unit_port(u, "in", 0);
    p->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity wm_l3_probe_tick(struct unit *u)
{
    struct wm_l3_probe *p = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while (p->pending < WM_L3_PROBE_MAX && (m = port_pop(p->in))) {
        const struct memreq *q = (const struct memreq *)m->payload;
        if (p->count < WM_L3_PROBE_MAX) {
            p->address[p->count] = q->address;
            p->op[p->count] = q->op;
            p->cycle[p->count] = now;
        }
        p->count++;
        memreq_make_reply(m, 1);
        p->held[p->pending] = m;
        p->ready[p->pending++] = now + p->latency;
    }
    while (p->pending && p->ready[0] <= now && port_can_send(p->out)) {
        port_try_send(p->out, p->held[0]);
        memmove(p->held, p->held + 1, (p->pending - 1) * sizeof p->held[0]);
        memmove(p->ready, p->ready + 1, (p->pending - 1) * sizeof p->ready[0]);
        p->pending--;
    }
    return p->pending ? UNIT_BUSY : UNIT_IDLE;
}

static const struct unit_ops wm_l3_probe_ops = {
    .kind = "test_wm_l3_probe",
    .state_size = sizeof(struct wm_l3_probe),
    .ports = wm_l3_probe_ports,
    .realize = wm_l3_probe_realize,
    .tick = wm_l3_probe_tick,
};

static struct wm_rig wm_rig_build(bool with_l3, uint32_t latency, const char *const *wm_overrides)
{
    struct wm_rig r;
    memset(&r, 0, sizeof r);
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.wm = probe_add(r.sim, &wm_ops, "wm", wm_overrides);
    r.idle = probe_add(r.sim, &wm_idle_ops, "idle", NULL);
    struct unit *td = probe_add(r.sim, &wm_catcher_ops, "td", NULL);
    struct unit *om = probe_add(r.sim, &wm_catcher_ops, "om", NULL);
    struct unit *dr = probe_add(r.sim, &wm_catcher_ops, "dr", NULL);
    struct unit *feeder = probe_add(r.sim, &wm_catcher_ops, "pbe", NULL);
    probe_link(r.sim, r.wm, "td[0]", td, "in", 1, 64, 4);
    probe_link(r.sim, r.wm, "om[0]", om, "in", 1, 64, 4);
    probe_link(r.sim, r.wm, "drained", dr, "in", 1, 8, 1);
    probe_link(r.sim, feeder, "out", r.wm, "eot[0]", 1, 16, 1);
    r.feeder = feeder;
    struct unit *l3 = NULL;
    if (with_l3) {
        l3 = probe_add(r.sim, &wm_l3_probe_ops, "l3", NULL);
        probe_link(r.sim, r.wm, "l3", l3, "in", 1, 16, 1);
        probe_link(r.sim, l3, "out", r.wm, "l3_reply", 1, 16, 1);
    }
    struct spec_3DSTATE_SAMPLE_MASK *nothing;
    wm_rig_to_wm(&r, wm_rig_state_msg(&r, SPEC_ID_3DSTATE_SAMPLE_MASK, 2, sizeof *nothing, (void **)&nothing));
    nothing->SampleMask = 1;
    struct gt_error err;
    int rc = sim_realize(r.sim, &err);
    if (rc)
        fprintf(stderr, "realize: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    r.td = unit_state(td);
    r.om = unit_state(om);
    r.drained = unit_state(dr);
    if (l3) {
        r.l3 = unit_state(l3);
        r.l3->latency = latency;
    }
    return r;
}

struct wm_rig wm_rig_new(void)
{
    return wm_rig_build(false, 0, NULL);
}

struct wm_rig wm_rig_new_l3(uint32_t latency)
{
    return wm_rig_build(true, latency, NULL);
}

struct wm_rig wm_rig_new_l3_with(uint32_t latency, const char *const *wm_overrides)
{
    return wm_rig_build(true, latency, wm_overrides);
}

uint64_t wm_rig_stat(struct wm_rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "wm.%s", name);
    return (uint64_t)probe_stat(r->sim, path);
}

void wm_rig_ps_state(struct wm_rig *r, struct wm_ps_setup s)
{
    struct spec_3DSTATE_WM *w;
    struct msg *m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_WM, 2, sizeof *w, (void **)&w);
    w->BarycentricInterpolationMode = s.modes;
    w->StatisticsEnable = s.statistics;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_PS *p;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_PS, 12, sizeof *p, (void **)&p);
    p->KernelStartPointer0 = s.ksp[0];
    p->KernelStartPointer1 = s.ksp[1];
    p->KernelStartPointer2 = s.ksp[2];
    p->_8PixelDispatchEnable = s.e8;
    p->_16PixelDispatchEnable = s.e16;
    p->_32PixelDispatchEnable = s.e32;
    p->DispatchGRFStartRegisterForConstantSetupData0 = s.grf[0];
    p->DispatchGRFStartRegisterForConstantSetupData1 = s.grf[1];
    p->DispatchGRFStartRegisterForConstantSetupData2 = s.grf[2];
    p->MaximumNumberOfThreadsPerPSD = s.max_threads ? s.max_threads : 63;
    p->PushConstantEnable = s.push;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_PS_EXTRA *x;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_PS_EXTRA, 2, sizeof *x, (void **)&x);
    x->PixelShaderValid = true;
    x->PixelShaderUsesSourceDepth = s.source_depth;
    x->AttributeEnable = s.attributes;
    wm_rig_to_wm(r, m);
    struct spec_3DSTATE_PS_BLEND *b;
    m = wm_rig_state_msg(r, SPEC_ID_3DSTATE_PS_BLEND, 2, sizeof *b, (void **)&b);
    b->HasWriteableRT = !s.no_rt;
    wm_rig_to_wm(r, m);
}

/* The triangle (0,0) (4,0) (0,4) with w = 1, 2, 4 and z = 0.5, 0.25, 0.75,
 * set up by SF's library; its barycentric planes and 1/w are filled here
 * from the positions (b1 = x / 4, b2 = y / 4) and two attributes with known
 * deltas. */
struct setup_primitive wm_rig_triangle(int32_t ox, int32_t oy)
{
    struct sf_setup_state st = {
        .subpixel_bits = 8, .cull_mode = SF_CULL_NONE, .front_winding = SF_FRONT_CCW,
        .pixel_center = true, .clip_x_max = 8191, .clip_y_max = 8191,
    };
    float x = (float)ox, y = (float)oy;
    struct sf_setup_vertex v[3] = { { x, y, 0.5f, 1 }, { x + 4, y, 0.25f, 2 },
                                    { x, y + 4, 0.75f, 4 } };
    struct setup_primitive p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL(sf_setup_object(&st, v, false, &p), SF_SETUP_OK);
    p.topology = PRIM_TRILIST;
    p.draw = 1;
    p.barycentric[0] = (struct setup_plane){ 0, 0.25f, 0 };
    p.barycentric[1] = (struct setup_plane){ 0, 0, 0.25f };
    p.vertex_inverse_w[0] = 1.0f;
    p.vertex_inverse_w[1] = 0.5f;
    p.vertex_inverse_w[2] = 0.25f;
    p.attribute_count = 2;
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t c = 0; c < 4; c++)
            p.attributes[a][c] = (struct setup_plane){ 10.0f * a + c, 0.5f + c, -1.0f - c };
    return p;
}

void wm_rig_send_setup(struct wm_rig *r, const struct setup_primitive *p)
{
    struct msg *m = msg_alloc(r->sim, MSG_SETUP, sizeof *p);
    memcpy(m->payload, p, sizeof *p);
    wm_rig_to_wm(r, m);
}
void wm_rig_end_thread(struct wm_rig *r, uint32_t request, uint32_t written, uint32_t passed)
{
    struct msg *m = msg_alloc(r->sim, MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
    struct eu_thread_end *e = (struct eu_thread_end *)m->payload;
    memset(e, 0, sizeof *e);
    e->op = EU_TD_THREAD_END;
    e->request_id = request;
    e->ffid = FFID_PS;
    e->pixels_written = written;
    e->pixels_depth_passed = passed;
    CU_ASSERT_TRUE(port_try_send(unit_port(r->feeder, "out", 0), m));
}
