/* tests/fabric/test_msg_kinds.c - ports say what they carry: every port of
 * every real unit kind declares its message kinds; a link whose ends share no
 * kind is a config error naming both ports, both kind lists and the config's
 * file:line; every shipped config still builds; a unit sending a kind its
 * port does not declare is caught. The expected texts are written here from
 * the kind names of fabric/msg.h. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/config.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/topology.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/registry.h"

static void test_kinds_as_text(void)
{
    char buf[128];
    CU_ASSERT_STRING_EQUAL(msg_kinds_text(0, buf, sizeof buf), "any");
    CU_ASSERT_STRING_EQUAL(msg_kinds_text(MSG_BIT(MSG_SEND), buf, sizeof buf), "send");
    CU_ASSERT_STRING_EQUAL(msg_kinds_text(MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO), buf, sizeof buf),
                           "mmio, state");
    CU_ASSERT_STRING_EQUAL(msg_kinds_text(MSG_BIT(MSG_GENERIC) | MSG_BIT(MSG_PIXELS), buf,
                                          sizeof buf), "generic, pixels");
    char tiny[6];                                   /* cut short, still terminated */
    CU_ASSERT_STRING_EQUAL(msg_kinds_text(MSG_BIT(MSG_MEMORY_REQUEST), tiny, sizeof tiny),
                           "memor");
}

struct undeclared {
    char list[4096];
    size_t used;
};

static void check_kind(const struct unit_ops *ops, void *context)
{
    struct undeclared *u = context;
    if (ops->placeholder)
        return;                                     /* counts whatever it gets: any */
    for (const struct port_desc *d = ops->ports; d && d->name; d++)
        if (d->msg_kinds == 0 || (d->msg_kinds >> MSG_KIND_COUNT) != 0) {
            int n = snprintf(u->list + u->used, sizeof u->list - u->used, " %s.%s", ops->kind,
                             d->name);
            if (n > 0 && u->used + (size_t)n < sizeof u->list)
                u->used += (size_t)n;
        }
}

/* Every port of every real kind declares kinds, and only kinds that exist. */
static void test_every_port_declares_its_kinds(void)
{
    struct undeclared u = { "", 0 };
    unit_kinds_each(check_kind, &u);
    if (u.used)
        fprintf(stderr, "\nports with no (or unknown) message kinds:%s\n", u.list);
    CU_ASSERT_EQUAL(u.used, 0);
}

static int build_text(const char *text, char *path, size_t path_size, struct gt_error *err)
{
    snprintf(path, path_size, "%s/kinds.cfg", test_temp_dir());
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    struct gt_config *c = gt_config_load(path, err);
    if (!c)
        return -1;
    struct sim_options o = { .watchdog_cycles = 1000, .log_level = -1 };
    struct sim *sim = sim_create(&o);
    int rc = topology_build(sim, c, probe_kind_find, err);
    sim_destroy(sim);
    gt_config_free(c);
    return rc;
}

/* The host's MMIO output into a memory's request input, and the command
 * streamer's state/MMIO output into an L3 client: refused, the error exactly
 * as written here. */
static void test_mismatching_link_is_a_config_error(void)
{
    static const struct {
        const char *text, *expect;          /* expect follows "PATH" */
    } cases[] = {
        { "clocks = { a = { mhz = 1000.0; }; };\n"
          "h = { kind = \"host\"; };\n"
          "m = { kind = \"memory\"; };\n"
          "links = ( { from = \"h.gpu\"; to = \"m.client[0]\"; } );\n",
          ":4: link h.gpu[0] -> m.client[0]: h.gpu[0] sends mmio but m.client[0] takes "
          "memory_request: no message kind in common" },
        { "clocks = { a = { mhz = 1000.0; }; };\n"
          "c = { kind = \"cs\"; };\n"
          "l = { kind = \"l3\"; };\n"
          "links = (\n"
          "  { from = \"c.vfe\"; to = \"l.client[0]\"; } );\n",
          ":5: link c.vfe[0] -> l.client[0]: c.vfe[0] sends mmio, state but l.client[0] takes "
          "memory_request: no message kind in common" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], expect[1024];
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL(build_text(cases[i].text, path, sizeof path, &err), -1);
        snprintf(expect, sizeof expect, "%s%s", path, cases[i].expect);
        if (strcmp(err.message, expect))
            fprintf(stderr, "\ncase %zu:\n  got:    %s\n  wanted: %s\n", i, err.message, expect);
        CU_ASSERT_STRING_EQUAL(err.message, expect);
    }
    /* kinds that meet (memory requests both ways), and "any" on a test rig */
    char path[512];
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL(build_text("clocks = { a = { mhz = 1000.0; }; };\n"
                               "i = { kind = \"icache\"; };\n"
                               "l = { kind = \"l3\"; };\n"
                               "s = { kind = \"test_source\"; };\n"
                               "links = ( { from = \"i.memory\"; to = \"l.client[0]\"; },\n"
                               "          { from = \"l.client_reply[0]\"; to = \"i.memory_reply\"; },\n"
                               "          { from = \"s.out\"; to = \"i.eu[0]\"; } );\n",
                               path, sizeof path, &err), 0);
}

static void free_memory(void *m)
{
    gpu_memory_destroy(m);
}

/* Every config the project ships builds and realizes (their links meet). */
static void test_shipped_configs_build(void)
{
    glob_t gl;
    CU_ASSERT_EQUAL_FATAL(glob("configs/*.cfg", 0, NULL, &gl), 0);
    CU_ASSERT(gl.gl_pathc >= 6);
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        struct gt_error err = { "" };
        struct gt_config *c = gt_config_load(gl.gl_pathv[i], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        struct sim_options o = { .watchdog_cycles = 1000, .log_level = -1 };
        struct sim *sim = sim_create(&o);
        sim_set_memory(sim, gpu_memory_create(&err), free_memory);
        int rc = topology_build(sim, c, probe_kind_find, &err);
        if (rc == 0)
            rc = sim_realize(sim, &err);
        if (rc)
            fprintf(stderr, "\n%s: %s\n", gl.gl_pathv[i], err.message);
        CU_ASSERT_EQUAL(rc, 0);
        sim_destroy(sim);
        gt_config_free(c);
    }
    globfree(&gl);
}

/* A unit whose output declares MMIO sends one MMIO and one STATE message. */
struct liar {
    struct port *out;
};

static const struct port_desc liar_ports[] = {
    { .name = "out", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO), .help = "mmio" },
    PORT_END
};

static int liar_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    ((struct liar *)unit_state(u))->out = unit_port(u, "out", 0);
    return 0;
}

static void liar_reset(struct unit *u)
{
    unit_wake_at(u, 0);
}

static enum unit_activity liar_tick(struct unit *u)
{
    struct liar *s = unit_state(u);
    static const uint32_t kinds[] = { MSG_MMIO, MSG_STATE, MSG_STATE };
    uint64_t now = unit_cycle(u);
    if (now < 3) {
        struct msg *m = msg_alloc(unit_sim(u), kinds[now], 8);
        CU_ASSERT_TRUE(port_try_send(s->out, m));   /* sent all the same */
        return UNIT_BUSY;
    }
    return UNIT_IDLE;
}

static const struct unit_ops liar_ops = {
    .kind = "test_liar", .help = "sends a kind it does not declare",
    .state_size = sizeof(struct liar), .ports = liar_ports, .realize = liar_realize,
    .reset = liar_reset, .tick = liar_tick,
};

static void test_undeclared_sends_are_caught(void)
{
    struct sim_options o = { .watchdog_cycles = 1000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = probe_sim(&o);
    struct unit *liar = probe_add(sim, &liar_ops, "liar", NULL);
    struct unit *sink = probe_add(sim, &probe_sink_ops, "sink", NULL);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, liar, "out", sink, "in", 1, 8, 1), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(((struct probe_sink *)unit_state(sink))->received, 3);
    CU_ASSERT_EQUAL(sim_undeclared_sends(sim), 2);  /* the two STATE messages */
    CU_ASSERT_EQUAL(sim_log_count(sim, SIM_LOG_WARNING), 1);   /* logged once for the port */
    CU_ASSERT_EQUAL(port_msg_kinds(unit_port(liar, "out", 0)), MSG_BIT(MSG_MMIO));
    CU_ASSERT_EQUAL(port_msg_kinds(unit_port(sink, "in", 0)), 0);
    sim_destroy(sim);
}

/* A unit that fills its output's one slot with an MMIO message (declared),
 * then offers one STATE message (undeclared) on cycles 1-3 to the full
 * channel, refused each time, and frees it. */
struct offerer {
    struct port *out;
    struct msg *held;
    uint32_t refused;
};

static int offerer_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    ((struct offerer *)unit_state(u))->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity offerer_tick(struct unit *u)
{
    struct offerer *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    if (now == 0) {
        CU_ASSERT_TRUE(port_try_send(s->out, msg_alloc(unit_sim(u), MSG_MMIO, 8)));
        return UNIT_BUSY;
    }
    if (now <= 3) {
        if (!s->held)
            s->held = msg_alloc(unit_sim(u), MSG_STATE, 8);
        if (!port_try_send(s->out, s->held))
            s->refused++;
        return UNIT_BUSY;
    }
    msg_free(unit_sim(u), s->held);
    s->held = NULL;
    return UNIT_IDLE;
}

static const struct unit_ops offerer_ops = {
    .kind = "test_offerer", .help = "offers an undeclared kind to a full channel",
    .state_size = sizeof(struct offerer), .ports = liar_ports, .realize = offerer_realize,
    .reset = liar_reset, .tick = offerer_tick,
};

/* An undeclared kind is counted for a message a channel takes, once, not for
 * each refused offer of it (a reply queue or a blocked SEND offers the same
 * message every cycle until the channel has room). */
static void test_refused_offers_of_an_undeclared_kind_are_not_counted(void)
{
    struct sim_options o = { .watchdog_cycles = 1000, .log_level = SIM_LOG_ERROR };
    struct sim *sim = probe_sim(&o);
    struct unit *offerer = probe_add(sim, &offerer_ops, "offerer", NULL);
    const char *const deaf[] = { "per_cycle=0", NULL };
    struct unit *sink = probe_add(sim, &probe_sink_ops, "sink", deaf);
    CU_ASSERT_EQUAL_FATAL(probe_link(sim, offerer, "out", sink, "in", 1, 1, 1), 0);
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, NULL), 0);
    sim_run(sim, 0);
    CU_ASSERT_EQUAL(((struct offerer *)unit_state(offerer))->refused, 3);
    CU_ASSERT_EQUAL(sim_undeclared_sends(sim), 0);
    CU_ASSERT_EQUAL(sim_log_count(sim, SIM_LOG_WARNING), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "offerer.port.out.stalled_full"), 3);
    sim_destroy(sim);
}

static const struct test_case cases[] = {
    { "kinds as text", test_kinds_as_text },
    { "every port declares its kinds", test_every_port_declares_its_kinds },
    { "mismatching link is a config error", test_mismatching_link_is_a_config_error },
    { "shipped configs build", test_shipped_configs_build },
    { "undeclared sends are caught", test_undeclared_sends_are_caught },
    { "refused offers of an undeclared kind are not counted",
      test_refused_offers_of_an_undeclared_kind_are_not_counted },
    { 0 }
};
TEST_SUITE(msg_kinds, cases);
