/* tests/units/test_ff_stage.c - the fixed-function stage skeleton
 * (units/common/ff_stage.h) inside a test stage, between a source that sends
 * a script of messages and a probe sink. State packets are Gen9 commands
 * packed with the generated packers and unpacked into their superset struct
 * as the CS sends them. The expected arrival order is computed here from the
 * script and the test stage's rule (a primitive of n vertices becomes n
 * messages; 3DPRIMITIVE emits one message and then passes itself on). */
#include <stdio.h>
#include <string.h>

#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/ff_stage.h"
#include "units/common/primitive.h"

#define MAX_SCRIPT 64
#define MAX_OUT 256

enum item { CLIP, SF, VS, DRAW, PRIM0, PRIM1, PRIM3, OTHER };

/* ---- a source that sends prebuilt messages in order ---- */

struct script_source {
    struct port *out;
    struct msg *script[MAX_SCRIPT];
    uint32_t count, next;
    uint64_t refused;
};

static const struct port_desc source_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "the script" }, PORT_END
};

static int source_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    ((struct script_source *)unit_state(u))->out = unit_port(u, "out", 0);
    return 0;
}

static void source_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity source_tick(struct unit *u)
{
    struct script_source *s = unit_state(u);
    while (s->next < s->count) {
        if (!port_can_send(s->out)) {
            s->refused++;
            return UNIT_IDLE;       /* woken when the channel frees up */
        }
        port_try_send(s->out, s->script[s->next++]);
    }
    return UNIT_IDLE;
}

static void source_destroy(struct unit *u)
{
    struct script_source *s = unit_state(u);
    while (s->next < s->count)
        msg_free(unit_sim(u), s->script[s->next++]);
}

static const struct unit_ops source_ops = {
    .kind = "test_script_source", .state_size = sizeof(struct script_source),
    .ports = source_ports, .realize = source_realize, .reset = source_reset,
    .tick = source_tick, .destroy = source_destroy,
};

/* ---- the test stage ---- */

struct test_stage {
    /* set by the test before realize */
    bool consume_clip;
    uint32_t per_cycle;
    uint32_t not_now_calls;     /* each work item answers "not now" this often first */
    bool one_per_call;          /* emit one message per call, "not now" until all are out */
    /* the stage */
    struct unit *unit;
    struct ff_stage ff;
    uint32_t refusals, emitted;     /* of the work item at the head */
    /* what it saw */
    uint32_t taken[MAX_SCRIPT], taken_count;
    uint32_t clip_mode[4], clip_max_vp[4], clips;
    double line_width;
    uint32_t draw_vertices;
};

static const struct port_desc stage_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "state and work" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "in order" },
    PORT_END
};

static const struct stat_desc stage_stats[] = {
    FF_STAGE_STATS("ff.", struct test_stage, ff),
    STAT_END
};

static void stage_take(void *context, const struct cs_state_packet *p)
{
    struct test_stage *s = context;
    s->taken[s->taken_count++] = p->id;
    if (p->id == SPEC_ID_3DSTATE_CLIP) {
        const struct spec_3DSTATE_CLIP *v = cs_state_common(p);
        s->clip_mode[s->clips] = v->ClipMode;
        s->clip_max_vp[s->clips++] = v->MaximumVPIndex;
    } else if (p->id == SPEC_ID_3DSTATE_SF) {
        s->line_width = ((const struct spec_3DSTATE_SF *)cs_state_common(p))->LineWidth;
    }
}

static void emit(struct test_stage *s, uint32_t tag)
{
    struct msg *m = msg_alloc(unit_sim(s->unit), MSG_PRIMITIVE, sizeof(struct primitive_packet));
    m->tag = tag;
    ff_stage_emit(&s->ff, m);
}

static enum ff_stage_work_result stage_work(void *context, struct msg *m)
{
    struct test_stage *s = context;
    if (s->refusals < s->not_now_calls) {
        s->refusals++;
        unit_wake_at(s->unit, unit_cycle(s->unit) + 2);
        return FF_STAGE_NOT_NOW;
    }
    if (m->kind == MSG_STATE) {     /* 3DPRIMITIVE: one message, then itself */
        const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
        s->draw_vertices = ((const struct spec_3DPRIMITIVE *)cs_state_common(p))
                               ->VertexCountPerInstance;
        emit(s, m->tag + 1);
        s->refusals = 0;
        return FF_STAGE_PASS;
    }
    uint32_t n = ((const struct primitive_packet *)m->payload)->vertex_count;
    while (s->emitted < n) {
        emit(s, m->tag + 1 + s->emitted++);
        if (s->one_per_call && s->emitted < n) {
            unit_wake_at(s->unit, unit_cycle(s->unit) + 1);
            return FF_STAGE_NOT_NOW;
        }
    }
    s->emitted = s->refusals = 0;
    return FF_STAGE_DONE;
}

static int stage_realize(struct unit *u, struct gt_error *err)
{
    struct test_stage *s = unit_state(u);
    s->unit = u;
    const struct ff_stage_id ids[] = {
        { SPEC_ID_3DSTATE_CLIP, s->consume_clip ? FF_STAGE_CONSUME : FF_STAGE_TAKE },
        { SPEC_ID_3DSTATE_SF, FF_STAGE_TAKE },
        { SPEC_ID_3DPRIMITIVE, FF_STAGE_WORK },
    };
    struct ff_stage_config c = {
        .in = unit_port(u, "in", 0), .out = unit_port(u, "out", 0),
        .ids = ids, .id_count = 3, .work_kinds = MSG_BIT(MSG_PRIMITIVE),
        .per_cycle = s->per_cycle, .take_state = stage_take, .work = stage_work, .context = s,
    };
    return ff_stage_init(&s->ff, &c, err);
}

static enum unit_activity stage_tick(struct unit *u)
{
    struct test_stage *s = unit_state(u);
    return ff_stage_activity(ff_stage_tick(&s->ff, u));
}

static void stage_destroy(struct unit *u)
{
    ff_stage_clear(&((struct test_stage *)unit_state(u))->ff, unit_sim(u));
}

static const struct unit_ops stage_ops = {
    .kind = "test_ff_stage", .state_size = sizeof(struct test_stage), .ports = stage_ports,
    .stats = stage_stats, .realize = stage_realize, .tick = stage_tick, .destroy = stage_destroy,
};

/* ---- the rig ---- */

struct rig {
    struct sim *sim;
    struct unit *source, *stage, *sink;
    struct test_stage *st;
    uint32_t expected[MAX_OUT], expected_count;
};

/* A Gen9 command as the CS sends it (units/common/state_packet.h). */
static struct msg *state_msg(struct sim *sim, const char *name, const uint32_t *dw, uint32_t n)
{
    const struct spec_element *e = spec_find_element(9, SPEC_COMMAND, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    uint32_t off = (uint32_t)cs_state_common_offset(n);
    struct msg *m = msg_alloc(sim, MSG_STATE, off + (uint32_t)e->common_size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = e->id;
    p->gen = 9;
    p->dword_count = n;
    p->common_offset = off;
    memcpy(p->dwords, dw, n * 4);
    e->unpack_common(dw, (uint8_t *)p + off);
    return m;
}

/* The message of a script item; clip_mode / clip_vp for CLIP. */
static struct msg *item_msg(struct sim *sim, enum item it, uint32_t clip_mode, uint32_t clip_vp)
{
    uint32_t dw[16] = { 0 };
    switch (it) {
    case CLIP: {
        struct GEN9_3DSTATE_CLIP v = { GEN9_3DSTATE_CLIP_header, .ClipMode = clip_mode,
                                       .MaximumVPIndex = clip_vp };
        CU_ASSERT_EQUAL(GEN9_3DSTATE_CLIP_pack(dw, &v), 0);
        return state_msg(sim, "3DSTATE_CLIP", dw, GEN9_3DSTATE_CLIP_length); }
    case SF: {
        struct GEN9_3DSTATE_SF v = { GEN9_3DSTATE_SF_header, .LineWidth = 2.5 };
        CU_ASSERT_EQUAL(GEN9_3DSTATE_SF_pack(dw, &v), 0);
        return state_msg(sim, "3DSTATE_SF", dw, GEN9_3DSTATE_SF_length); }
    case VS: {
        struct GEN9_3DSTATE_VS v = { GEN9_3DSTATE_VS_header };
        CU_ASSERT_EQUAL(GEN9_3DSTATE_VS_pack(dw, &v), 0);
        return state_msg(sim, "3DSTATE_VS", dw, GEN9_3DSTATE_VS_length); }
    case DRAW: {
        struct GEN9_3DPRIMITIVE v = { GEN9_3DPRIMITIVE_header, .VertexCountPerInstance = 3,
                                      .PrimitiveTopologyType = PRIM_TRILIST, .InstanceCount = 1 };
        CU_ASSERT_EQUAL(GEN9_3DPRIMITIVE_pack(dw, &v), 0);
        return state_msg(sim, "3DPRIMITIVE", dw, GEN9_3DPRIMITIVE_length); }
    case PRIM0: case PRIM1: case PRIM3: {
        struct msg *m = msg_alloc(sim, MSG_PRIMITIVE, sizeof(struct primitive_packet));
        struct primitive_packet *p = (struct primitive_packet *)m->payload;
        p->topology = PRIM_TRILIST;
        p->vertex_count = it == PRIM0 ? 0 : it == PRIM1 ? 1 : 3;
        return m; }
    case OTHER:
        break;
    }
    return msg_alloc(sim, MSG_GENERIC, 8);
}

/* Item i's message is tagged 100 * (i + 1); what the stage makes of it is
 * tagged tag + 1, tag + 2, ... */
static struct rig rig_new(const enum item *script, uint32_t n, const struct test_stage *setup,
                          uint32_t in_capacity, uint32_t out_latency, uint32_t out_capacity,
                          const char *const *sink_over)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.source = probe_add(r.sim, &source_ops, "source", NULL);
    r.stage = probe_add(r.sim, &stage_ops, "stage", NULL);
    r.st = unit_state(r.stage);
    r.st->consume_clip = setup->consume_clip;
    r.st->per_cycle = setup->per_cycle;
    r.st->not_now_calls = setup->not_now_calls;
    r.st->one_per_call = setup->one_per_call;
    probe_link(r.sim, r.source, "out", r.stage, "in", 1, in_capacity,
               in_capacity < 16 ? in_capacity : 16);
    if (out_capacity) {
        r.sink = probe_add(r.sim, &probe_sink_ops, "sink", sink_over);
        probe_link(r.sim, r.stage, "out", r.sink, "in", out_latency, out_capacity,
                   out_capacity < 16 ? out_capacity : 16);
    }
    struct script_source *src = unit_state(r.source);
    uint32_t clips = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t tag = 100 * (i + 1);
        struct msg *m = item_msg(r.sim, script[i], clips ? 4 : 3, clips ? 1 : 5);
        clips += script[i] == CLIP;
        m->tag = tag;
        src->script[src->count++] = m;
        /* the expected arrivals, by the test stage's rule */
        if (script[i] == DRAW)
            r.expected[r.expected_count++] = tag + 1;
        uint32_t made = script[i] == PRIM1 ? 1 : script[i] == PRIM3 ? 3 : 0;
        for (uint32_t j = 0; j < made; j++)
            r.expected[r.expected_count++] = tag + 1 + j;
        bool work = script[i] == PRIM0 || script[i] == PRIM1 || script[i] == PRIM3;
        if (!work && !(script[i] == CLIP && setup->consume_clip))
            r.expected[r.expected_count++] = tag;
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

static void check_arrivals(const struct rig *r)
{
    const struct probe_sink *k = unit_state(r->sink);
    CU_ASSERT_EQUAL(k->received, r->expected_count);
    for (uint32_t i = 0; i < r->expected_count && i < k->received; i++)
        if (k->tag[i] != r->expected[i]) {
            fprintf(stderr, "arrival %u: tag %u, expected %u\n", i, k->tag[i], r->expected[i]);
            CU_FAIL("arrival order");
            break;
        }
}

static double ff_stat(const struct rig *r, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "stage.ff.%s", name);
    return probe_stat(r->sim, path);
}

static const enum item mixed[] = {
    CLIP, PRIM0, SF, PRIM1, VS, PRIM3, OTHER, DRAW, PRIM3, CLIP, PRIM0, SF, PRIM1, VS,
};
#define MIXED_COUNT (sizeof mixed / sizeof mixed[0])

/* ---- tests ---- */

static void test_takes_exactly_its_ids(void)
{
    const enum item script[] = { VS, CLIP, OTHER, SF, DRAW, PRIM1, CLIP, VS };
    struct test_stage setup = { .per_cycle = 1 };
    struct rig r = rig_new(script, 8, &setup, 8, 1, 64, NULL);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL_FATAL(r.st->taken_count, 3);
    CU_ASSERT_EQUAL(r.st->taken[0], SPEC_ID_3DSTATE_CLIP);
    CU_ASSERT_EQUAL(r.st->taken[1], SPEC_ID_3DSTATE_SF);
    CU_ASSERT_EQUAL(r.st->taken[2], SPEC_ID_3DSTATE_CLIP);
    /* the fields the script packed, read from the superset structs */
    CU_ASSERT_EQUAL(r.st->clip_mode[0], GEN9_3DSTATE_CLIP_ClipMode_CLIPMODE_REJECT_ALL);
    CU_ASSERT_EQUAL(r.st->clip_max_vp[0], 5);
    CU_ASSERT_EQUAL(r.st->clip_mode[1], GEN9_3DSTATE_CLIP_ClipMode_CLIPMODE_ACCEPT_ALL);
    CU_ASSERT_EQUAL(r.st->clip_max_vp[1], 1);
    CU_ASSERT_DOUBLE_EQUAL(r.st->line_width, 2.5, 1e-9);
    CU_ASSERT_EQUAL(r.st->draw_vertices, 3);
    CU_ASSERT_EQUAL(ff_stat(&r, "taken"), 3);
    CU_ASSERT_EQUAL(ff_stat(&r, "consumed"), 0);
    CU_ASSERT_EQUAL(ff_stat(&r, "work"), 2);           /* DRAW, PRIM1 */
    CU_ASSERT_EQUAL(ff_stat(&r, "forwarded"), 6);      /* every item but the two work items */
    check_arrivals(&r);
    sim_destroy(r.sim);
}

static void test_order_kept_with_zero_one_three_outputs(void)
{
    struct test_stage setup = { .per_cycle = 2 };
    struct rig r = rig_new(mixed, MIXED_COUNT, &setup, 16, 1, 64, NULL);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    check_arrivals(&r);
    CU_ASSERT_EQUAL(ff_stat(&r, "work"), 7);           /* 6 primitives and the 3DPRIMITIVE */
    CU_ASSERT_EQUAL(ff_stat(&r, "emitted"), 0 + 1 + 3 + 1 + 3 + 0 + 1);
    CU_ASSERT_EQUAL(ff_stat(&r, "forwarded"), MIXED_COUNT - 7);
    CU_ASSERT_EQUAL(ff_stat(&r, "taken"), 4);
    CU_ASSERT_EQUAL(ff_stat(&r, "stall.output"), 0);   /* the sink took everything at once */
    CU_ASSERT_EQUAL(ff_stat(&r, "not_now"), 0);
    sim_destroy(r.sim);
}

/* A sink that starts late and takes one a cycle through a capacity-1 channel. */
static void test_back_pressure_keeps_order(void)
{
    const char *slow[] = { "per_cycle=1", "start_cycle=40", NULL };
    struct test_stage setup = { .per_cycle = 4 };
    struct rig r = rig_new(mixed, MIXED_COUNT, &setup, 2, 3, 1, slow);
    /* Before the sink starts: CLIP fills the output channel, PRIM0 makes
     * nothing, SF waits in the stage; the stage pops nothing more, so the
     * input channel holds 2 and the source has sent 3 + 2. */
    CU_ASSERT_EQUAL(sim_run(r.sim, 30 * 1000), SIM_STOP_TIME_LIMIT);
    CU_ASSERT_EQUAL(ff_stage_pending(&r.st->ff), 1);
    CU_ASSERT_EQUAL(((struct script_source *)unit_state(r.source))->next, 5);
    CU_ASSERT_EQUAL(ff_stat(&r, "work"), 1);
    CU_ASSERT_EQUAL(ff_stat(&r, "forwarded"), 2);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    check_arrivals(&r);
    CU_ASSERT(ff_stat(&r, "stall.output") > 0);
    /* the stage stopped popping, so the source met a full channel */
    CU_ASSERT(((struct script_source *)unit_state(r.source))->refused > 0);
    sim_destroy(r.sim);
}

static void test_not_now_holds_the_order(void)
{
    struct test_stage setup = { .per_cycle = 2, .not_now_calls = 3 };
    struct rig r = rig_new(mixed, MIXED_COUNT, &setup, 4, 1, 64, NULL);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    check_arrivals(&r);
    CU_ASSERT_EQUAL(ff_stat(&r, "not_now"), 3 * 7);
    CU_ASSERT_EQUAL(ff_stat(&r, "work"), 7);
    sim_destroy(r.sim);
}

/* Outputs emitted across calls ("not now" after each but the last). */
static void test_emitting_across_calls_keeps_order(void)
{
    const char *slow[] = { "per_cycle=1", NULL };
    struct test_stage setup = { .per_cycle = 2, .one_per_call = true };
    struct rig r = rig_new(mixed, MIXED_COUNT, &setup, 4, 2, 1, slow);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    check_arrivals(&r);
    CU_ASSERT_EQUAL(ff_stat(&r, "not_now"), 2 + 2);    /* the two PRIM3, each 3 calls */
    CU_ASSERT_EQUAL(ff_stat(&r, "emitted"), 9);
    sim_destroy(r.sim);
}

static void test_consumed_id_goes_no_further(void)
{
    struct test_stage setup = { .per_cycle = 1, .consume_clip = true };
    struct rig r = rig_new(mixed, MIXED_COUNT, &setup, 16, 1, 64, NULL);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    check_arrivals(&r);     /* the expected list leaves out the CLIP tags (100, 1000) */
    const struct probe_sink *k = unit_state(r.sink);
    for (uint32_t i = 0; i < k->received; i++)
        CU_ASSERT(k->tag[i] != 100 && k->tag[i] != 1000);
    CU_ASSERT_EQUAL(r.st->clips, 2);                /* taken all the same */
    CU_ASSERT_EQUAL(ff_stat(&r, "consumed"), 2);
    CU_ASSERT_EQUAL(ff_stat(&r, "taken"), 4);
    sim_destroy(r.sim);
}

/* At most per_cycle messages handled per tick, and that many when they wait. */
static void test_per_cycle_bound(void)
{
    enum item script[24];
    for (uint32_t i = 0; i < 24; i++)
        script[i] = OTHER;
    for (uint32_t per = 1; per <= 4; per *= 2) {
        struct test_stage setup = { .per_cycle = per };
        struct rig r = rig_new(script, 24, &setup, 32, 1, 64, NULL);
        CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
        check_arrivals(&r);
        const struct probe_sink *k = unit_state(r.sink);
        uint32_t most = 0, run = 0;
        for (uint32_t i = 0; i < k->received; i++) {
            run = i && k->cycle[i] == k->cycle[i - 1] ? run + 1 : 1;
            most = run > most ? run : most;
        }
        CU_ASSERT_EQUAL(most, per);
        sim_destroy(r.sim);
    }
}

static void test_unbound_output_drops_and_counts(void)
{
    const enum item script[] = { OTHER, PRIM3, SF };
    struct test_stage setup = { .per_cycle = 1 };
    struct rig r = rig_new(script, 3, &setup, 4, 1, 0, NULL);
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(ff_stat(&r, "dropped"), 1 + 3 + 1);
    sim_destroy(r.sim);
}

static void test_bad_configs_are_refused(void)
{
    struct ff_stage s;
    struct gt_error err;
    struct ff_stage_id ids[2] = { { SPEC_ID_3DSTATE_SF, FF_STAGE_TAKE },
                                  { SPEC_ID_3DSTATE_SF, FF_STAGE_CONSUME } };
    struct ff_stage_config c = { .ids = ids, .id_count = 2, .take_state = stage_take };
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), -1);          /* no input port */
    struct sim *sim = probe_sim(NULL);
    struct unit *u = probe_add(sim, &probe_sink_ops, "sink", NULL);
    c.in = unit_port(u, "in", 0);
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), -1);          /* named twice */
    ids[1].id = SPEC_ID_COUNT;
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), -1);          /* out of range */
    ids[1] = (struct ff_stage_id){ SPEC_ID_3DPRIMITIVE, FF_STAGE_WORK };
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), -1);          /* work() missing */
    c.work = stage_work;
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), 0);
    c.take_state = NULL;
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), -1);          /* take_state() missing */
    c.id_count = 0;
    c.work_kinds = MSG_BIT(MSG_STATE);
    c.work = NULL;
    CU_ASSERT_EQUAL(ff_stage_init(&s, &c, &err), 0);   /* MSG_STATE goes to work() by id only */
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "takes exactly its ids", test_takes_exactly_its_ids },
    { "order kept with 0, 1 and 3 outputs", test_order_kept_with_zero_one_three_outputs },
    { "back-pressure keeps order", test_back_pressure_keeps_order },
    { "not now holds the order", test_not_now_holds_the_order },
    { "emitting across calls keeps order", test_emitting_across_calls_keeps_order },
    { "consumed id goes no further", test_consumed_id_goes_no_further },
    { "per-cycle bound", test_per_cycle_bound },
    { "unbound output drops and counts", test_unbound_output_drops_and_counts },
    { "bad configs are refused", test_bad_configs_are_refused },
    { 0 }
};
TEST_SUITE(ff_stage, cases);
