/* tests/fabric/test_unit.c - the unit contract: parameter tables (every type,
 * defaults, ranges, text overrides), port arrays sized by a param, lookup, a
 * unit run inside another (unit_create_inner). */
#include <math.h>
#include <string.h>

#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"

struct gadget {
    bool enabled;
    uint32_t lanes;
    uint64_t bytes;
    int64_t offset;
    double ratio;
    char label[PARAM_STRING_MAX];
    uint32_t nested;
    int created;
};

static const struct param_desc gadget_params[] = {
    PARAM_BOOL_FIELD("enabled", struct gadget, enabled, 1, "on"),
    PARAM_U32_FIELD("lanes", struct gadget, lanes, 4, 1, 16, "lanes, also the size of port in[]"),
    PARAM_U64_FIELD("bytes", struct gadget, bytes, 1ll << 33, 0, 1ll << 40, "bytes"),
    PARAM_I64_FIELD("offset", struct gadget, offset, -3, -100, 100, "offset"),
    PARAM_DOUBLE_FIELD("ratio", struct gadget, ratio, 0.5, 0.0, 1.0, "ratio"),
    PARAM_STRING_FIELD("label", struct gadget, label, "none", "label"),
    PARAM_U32_FIELD("timing.nested", struct gadget, nested, 9, 0, 99, "a nested key"),
    PARAM_END
};

static const struct port_desc gadget_ports[] = {
    { .name = "in", .direction = PORT_IN, .count_param = "lanes", .flags = PORT_OPTIONAL,
      .help = "one per lane" },
    { .name = "out", .direction = PORT_OUT, .count = 2, .flags = PORT_OPTIONAL, .help = "two" },
    { .name = "open", .direction = PORT_IN, .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "as many as links name" },
    PORT_END
};

static int gadget_create(struct unit *u, struct gt_error *err)
{
    struct gadget *g = unit_state(u);
    if (strcmp(g->label, "refuse") == 0)
        return gt_error_set(err, "label 'refuse' refused");
    g->created = 1;
    return 0;
}

static enum unit_activity gadget_tick(struct unit *u)
{
    (void)u;
    return UNIT_IDLE;
}

static const struct unit_ops gadget_ops = {
    .kind = "gadget", .help = "test", .state_size = sizeof(struct gadget),
    .params = gadget_params, .ports = gadget_ports, .create = gadget_create, .tick = gadget_tick,
};

static void test_defaults_fill_every_type(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *u = probe_add(sim, &gadget_ops, "g", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    struct gadget *g = unit_state(u);
    CU_ASSERT_TRUE(g->enabled);
    CU_ASSERT_EQUAL(g->lanes, 4);
    CU_ASSERT_EQUAL(g->bytes, 1ull << 33);
    CU_ASSERT_EQUAL(g->offset, -3);
    CU_ASSERT_DOUBLE_EQUAL(g->ratio, 0.5, 0);
    CU_ASSERT_STRING_EQUAL(g->label, "none");
    CU_ASSERT_EQUAL(g->nested, 9);
    CU_ASSERT_EQUAL(g->created, 1);
    sim_destroy(sim);
}

static void test_overrides_parse_and_check(void)
{
    struct sim *sim = probe_sim(NULL);
    const char *good[] = { "enabled=false", "lanes=0x10", "bytes=12", "offset=-100", "ratio=1",
                           "label=hello world", "timing.nested=0", NULL };
    struct unit *u = probe_add(sim, &gadget_ops, "g", good);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    struct gadget *g = unit_state(u);
    CU_ASSERT_FALSE(g->enabled);
    CU_ASSERT_EQUAL(g->lanes, 16);
    CU_ASSERT_EQUAL(g->offset, -100);
    CU_ASSERT_STRING_EQUAL(g->label, "hello world");
    CU_ASSERT_EQUAL(unit_port_count(u, "in"), 16);      /* sized by lanes */
    CU_ASSERT_EQUAL(unit_port_count(u, "out"), 2);
    char text[64];
    CU_ASSERT_EQUAL(unit_param_text(u, "ratio", text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(text, "1");
    CU_ASSERT_EQUAL(unit_param_text(u, "nope", text, sizeof text), -1);

    static const struct { const char *override, *says; } bad[] = {
        { "lanes=17", "'lanes' = 17 is out of range 1..16" },
        { "lanes=4x", "wants an integer, not '4x'" },
        { "offset=-101", "out of range -100..100" },
        { "ratio=1.5", "'ratio' = 1.5 is out of range 0..1" },
        { "ratio=nan", "out of range" },
        { "enabled=yes", "wants true or false" },
        { "colour=red", "has no parameter 'colour'; known: enabled, lanes" },
        { "label=refuse", "label 'refuse' refused" },
        { "lanes", "is not key=value" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *over[] = { bad[i].override, NULL };
        struct gt_error err;
        char name[16];
        snprintf(name, sizeof name, "bad%zu", i);
        CU_ASSERT_PTR_NULL(sim_add_unit(sim, &gadget_ops, name, 0, NULL, over, &err));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].says));
    }
    sim_destroy(sim);
}

static void test_ports_resolve_by_name(void)
{
    struct sim *sim = probe_sim(NULL);
    probe_add(sim, &gadget_ops, "top.g", NULL);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(sim, "top.g.in[3]", PORT_IN, &err));
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "top.g.in[4]", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "has ports in[0..3], not index 4"));
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "top.g.out", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "is an output port; expected an input"));
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "top.h.in", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no unit named 'top.h'"));
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "top.g.in[x]", PORT_IN, &err));
    CU_ASSERT_PTR_NULL(sim_resolve_port(sim, "nodot", PORT_IN, &err));
    struct unit *dup = sim_add_unit(sim, &gadget_ops, "top.g", 0, NULL, NULL, &err);
    CU_ASSERT_PTR_NULL(dup);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "declared twice"));
    CU_ASSERT_PTR_NULL(sim_add_unit(sim, &gadget_ops, "x", 7, NULL, NULL, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "clock domain 7 does not exist"));
    sim_destroy(sim);
}

/* ---- a unit inside another ---- */

/* "holder": takes one message, sends it `delay` cycles later (a timer). */
struct holder {
    uint32_t delay;
    struct port *in, *out;
    struct msg *held;
    uint64_t due, sent;
};

static const struct param_desc holder_params[] = {
    PARAM_U32_FIELD("delay", struct holder, delay, 1, 1, 100, "cycles held"),
    PARAM_END
};
static const struct port_desc holder_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "in" },
    { .name = "out", .direction = PORT_OUT, .help = "out" },
    PORT_END
};
static const struct stat_desc holder_stats[] = {
    STAT_COUNTER_FIELD("sent", struct holder, sent, "messages", "sent"),
    STAT_END
};

static int holder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct holder *h = unit_state(u);
    h->in = unit_port(u, "in", 0);
    h->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity holder_tick(struct unit *u)
{
    struct holder *h = unit_state(u);
    uint64_t now = unit_cycle(u);
    if (h->held) {
        if (now < h->due) {
            unit_wake_at(u, h->due);
            return UNIT_IDLE;
        }
        if (!port_can_send(h->out))
            return UNIT_IDLE;
        port_try_send(h->out, h->held);
        h->held = NULL;
        h->sent++;
    }
    if ((h->held = port_pop(h->in)) != NULL) {
        h->due = now + h->delay;
        unit_wake_at(u, h->due);
    }
    return UNIT_IDLE;
}

static void holder_destroy(struct unit *u)
{
    struct holder *h = unit_state(u);
    if (h->held)
        msg_free(unit_sim(u), h->held);
}

static const struct unit_ops holder_ops = {
    .kind = "holder", .help = "test: holds each message", .state_size = sizeof(struct holder),
    .params = holder_params, .ports = holder_ports, .stats = holder_stats,
    .realize = holder_realize, .tick = holder_tick, .destroy = holder_destroy,
};

/* "shell": runs a holder inside itself; its own param `label` and the
 * holder's `delay` (which the holder gets by name). */
struct shell {
    uint32_t delay;
    char label[PARAM_STRING_MAX];
    struct unit *inner;
};

static const struct param_desc shell_params[] = {
    PARAM_U32_FIELD("delay", struct shell, delay, 1, 1, 100, "the holder's"),
    PARAM_STRING_FIELD("label", struct shell, label, "", "the shell's own"),
    PARAM_END
};

static int shell_create(struct unit *u, struct gt_error *err)
{
    struct shell *s = unit_state(u);
    s->inner = unit_create_inner(u, &holder_ops, err);
    return s->inner ? 0 : -1;
}
static int shell_realize(struct unit *u, struct gt_error *err)
{
    return holder_ops.realize(((struct shell *)unit_state(u))->inner, err);
}
static enum unit_activity shell_tick(struct unit *u)
{
    return holder_ops.tick(((struct shell *)unit_state(u))->inner);
}
static void shell_destroy(struct unit *u)
{
    unit_destroy_inner(((struct shell *)unit_state(u))->inner);
}

static const struct unit_ops shell_ops = {
    .kind = "shell", .help = "test: a holder inside", .state_size = sizeof(struct shell),
    .params = shell_params, .ports = holder_ports, .create = shell_create,
    .realize = shell_realize, .tick = shell_tick, .destroy = shell_destroy,
};

/* source -> (holder | shell) -> sink; the sink's arrival cycles. */
static struct sim *holder_run(const struct unit_ops *ops, struct unit **unit)
{
    struct sim *sim = probe_sim(NULL);
    const char *src_over[] = { "messages=4", NULL };
    const char *over[] = { "delay=5", NULL };
    struct unit *src = probe_add(sim, &probe_source_ops, "src", src_over);
    struct unit *u = probe_add(sim, ops, "h", over);
    struct unit *sink = probe_add(sim, &probe_sink_ops, "sink", NULL);
    probe_link(sim, src, "out", u, "in", 1, 2, 1);
    probe_link(sim, u, "out", sink, "in", 1, 2, 1);
    struct gt_error err;
    CU_ASSERT_EQUAL(sim_realize(sim, &err), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    *unit = u;
    return sim;
}

static void test_inner_unit_runs_on_its_host(void)
{
    struct unit *alone, *host;
    struct sim *ref = holder_run(&holder_ops, &alone);
    struct sim *sim = holder_run(&shell_ops, &host);
    struct unit *inner = ((struct shell *)unit_state(host))->inner;
    struct holder *h = unit_state(inner);
    /* its own state, with the host's value of the param it shares */
    CU_ASSERT_PTR_NOT_EQUAL(unit_state(inner), unit_state(host));
    CU_ASSERT_EQUAL(h->delay, 5);
    CU_ASSERT_STRING_EQUAL(unit_name(inner), "h");
    CU_ASSERT_STRING_EQUAL(unit_kind(inner), "holder");
    /* the host's ports */
    CU_ASSERT_PTR_EQUAL(unit_port(inner, "in", 0), unit_port(host, "in", 0));
    CU_ASSERT_EQUAL(unit_port_count(inner, "out"), 1);
    uint32_t n = 0;
    struct port **outs = unit_port_array(inner, "out", &n);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_PTR_EQUAL(outs[0], unit_port(host, "out", 0));
    /* four messages, each held 5 cycles: the same arrivals and the same ticks
     * as the holder alone (the inner unit's timer wakes its host) */
    struct probe_sink *got = unit_state(sim_find_unit(sim, "sink"));
    struct probe_sink *want = unit_state(sim_find_unit(ref, "sink"));
    CU_ASSERT_EQUAL(got->received, 4);
    CU_ASSERT_EQUAL(want->received, 4);
    for (uint32_t i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(got->cycle[i], want->cycle[i]);
    CU_ASSERT_DOUBLE_EQUAL(probe_stat(sim, "h.ticks"), probe_stat(ref, "h.ticks"), 0);
    /* the inner unit's stats: only through unit_write_stat_table */
    CU_ASSERT_DOUBLE_EQUAL(probe_stat(sim, "h.sent"), -1, 0);
    struct stats_writer *w = stats_writer_create();
    unit_write_stat_table(inner, w);
    double sent = 0;
    CU_ASSERT_TRUE(stats_lookup(w, "sent", &sent));
    CU_ASSERT_DOUBLE_EQUAL(sent, 4, 0);
    stats_writer_destroy(w);
    sim_destroy(sim);
    sim_destroy(ref);
}

/* unit_port_array gives the ports of one name by index, NULL where no link
 * made one, and a NULL after the last. */
static void test_port_arrays_in_one_call(void)
{
    struct sim *sim = probe_sim(NULL);
    struct unit *g = probe_add(sim, &gadget_ops, "g", (const char *[]){ "lanes=5", NULL });
    struct unit *a = probe_add(sim, &probe_source_ops, "a", NULL);
    struct unit *b = probe_add(sim, &probe_source_ops, "b", NULL);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, a, "out", g, "open[0]", 1, 1, 1), 0);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, b, "out", g, "open[2]", 1, 1, 1), 0);
    uint32_t n = 99;
    struct port **in = unit_port_array(g, "in", &n);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    for (uint32_t i = 0; i < 5; i++) {
        CU_ASSERT_PTR_NOT_NULL(in[i]);
        CU_ASSERT_PTR_EQUAL(in[i], unit_port(g, "in", i));
        CU_ASSERT_EQUAL(port_index(in[i]), i);
    }
    CU_ASSERT_PTR_NULL(in[5]);
    struct port **open = unit_port_array(g, "open", &n);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_PTR_NOT_NULL(open[0]);
    CU_ASSERT_TRUE(port_is_bound(open[0]));
    CU_ASSERT_PTR_NULL(open[1]);                    /* no link named open[1] */
    CU_ASSERT_PTR_NOT_NULL(open[2]);
    CU_ASSERT_EQUAL(port_index(open[2]), 2);
    CU_ASSERT_PTR_NULL(open[3]);
    struct port **none = unit_port_array(g, "nothing", &n);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(none);
    CU_ASSERT_PTR_NULL(none[0]);
    CU_ASSERT_PTR_NOT_NULL(unit_port_array(g, "out", NULL));
    sim_destroy(sim);                               /* frees the arrays (sanitizer run) */
}

static const struct test_case cases[] = {
    { "defaults fill every type", test_defaults_fill_every_type },
    { "overrides parse and check", test_overrides_parse_and_check },
    { "ports resolve by name", test_ports_resolve_by_name },
    { "an inner unit runs on its host", test_inner_unit_runs_on_its_host },
    { "port arrays in one call", test_port_arrays_in_one_call },
    { 0 }
};
TEST_SUITE(unit, cases);
