/* rtl-cosim/replay.c - see replay.h. */
#include "rtl-cosim/replay.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "rtl-cosim/compare.h"
#include "fabric/recording.h"

/* ---- cosim_player -------------------------------------------------------------- */

struct cosim_player {
    char file[PARAM_STRING_MAX];
    struct recording *rec;
    struct recorded_msg next;
    bool has_next;
    struct port *out;
    uint64_t sent;
};

static const struct param_desc player_params[] = {
    PARAM_STRING_FIELD("file", struct cosim_player, file, "", "the recording to play"),
    PARAM_END
};
static const struct port_desc player_ports[] = {
    { .name = "out", .direction = PORT_OUT, .help = "the recorded messages, one cycle early" },
    PORT_END
};
static const struct stat_desc player_stats[] = {
    STAT_COUNTER_FIELD("sent", struct cosim_player, sent, "messages", "messages played"),
    STAT_END
};

static int player_advance(struct unit *u, struct gt_error *err)
{
    struct cosim_player *s = unit_state(u);
    int rc = recording_next(s->rec, &s->next, err);
    s->has_next = rc > 0;
    return rc < 0 ? -1 : 0;
}

static int player_realize(struct unit *u, struct gt_error *err)
{
    struct cosim_player *s = unit_state(u);
    s->out = unit_port(u, "out", 0);
    s->rec = recording_open(s->file, err);
    if (!s->rec)
        return -1;
    return player_advance(u, err);
}

static void player_reset(struct unit *u)
{
    struct cosim_player *s = unit_state(u);
    if (s->has_next)
        unit_wake_at(u, s->next.cycle ? s->next.cycle - 1 : 0);
}

static enum unit_activity player_tick(struct unit *u)
{
    struct cosim_player *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    while (s->has_next && (s->next.cycle ? s->next.cycle - 1 : 0) <= now) {
        struct msg *m = msg_alloc(unit_sim(u), s->next.kind, s->next.size);
        memcpy(m->payload, s->next.payload, s->next.size);
        m->tag = s->next.tag;
        if (!port_try_send(s->out, m)) {
            msg_free(unit_sim(u), m);
            return UNIT_BUSY;                       /* width used up: next cycle */
        }
        s->sent++;
        struct gt_error err;
        if (player_advance(u, &err) < 0) {
            unit_log(u, SIM_LOG_ERROR, "%s", err.message);
            s->has_next = false;
        }
    }
    if (s->has_next)
        unit_wake_at(u, s->next.cycle - 1);
    return UNIT_IDLE;
}

static void player_destroy(struct unit *u)
{
    struct cosim_player *s = unit_state(u);
    recording_close(s->rec);
}

const struct unit_ops cosim_player_ops = {
    .kind = "cosim_player",
    .help = "replay: plays a port recording so that each message is visible on its cycle",
    .state_size = sizeof(struct cosim_player),
    .params = player_params, .ports = player_ports, .stats = player_stats,
    .realize = player_realize, .reset = player_reset, .tick = player_tick,
    .destroy = player_destroy,
};

/* ---- cosim_checker ------------------------------------------------------------- */

struct cosim_checker {
    char file[PARAM_STRING_MAX];
    char dut_name[PARAM_STRING_MAX];    /* how the replayed side is called: "rtl" */
    struct recording *rec;
    struct recorded_msg next;
    bool has_next;
    const struct cosim_field *fields;
    struct port *in;
    uint64_t checked, mismatches, first_mismatch;
    struct cosim_errors errors;
};

static const struct param_desc checker_params[] = {
    PARAM_STRING_FIELD("file", struct cosim_checker, file, "", "the recording to expect"),
    PARAM_STRING_FIELD("dut_name", struct cosim_checker, dut_name, "rtl",
                       "the replayed side's name in reports"),
    PARAM_END
};
static const struct port_desc checker_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "what the unit under test sends" },
    PORT_END
};
static const struct stat_desc checker_stats[] = {
    STAT_COUNTER_FIELD("checked", struct cosim_checker, checked, "messages", "messages compared"),
    STAT_COUNTER_FIELD("mismatches", struct cosim_checker, mismatches, "messages",
                       "messages that differ, are missing or extra"),
    STAT_END
};

static int checker_advance(struct unit *u, struct gt_error *err)
{
    struct cosim_checker *s = unit_state(u);
    int rc = recording_next(s->rec, &s->next, err);
    s->has_next = rc > 0;
    return rc < 0 ? -1 : 0;
}

static int checker_realize(struct unit *u, struct gt_error *err)
{
    struct cosim_checker *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->rec = recording_open(s->file, err);
    if (!s->rec)
        return -1;
    const struct recording_header *h = recording_header(s->rec);
    s->fields = cosim_payload_fields(h->kind, h->port);
    s->first_mismatch = UINT64_MAX;
    return checker_advance(u, err);
}

static void checker_mismatch(struct cosim_checker *s, uint64_t cycle)
{
    s->mismatches++;
    if (s->first_mismatch == UINT64_MAX)
        s->first_mismatch = cycle;
}

static enum unit_activity checker_tick(struct unit *u)
{
    struct cosim_checker *s = unit_state(u);
    const struct recording_header *h = recording_header(s->rec);
    uint64_t sent = unit_cycle(u) - 1;          /* latency-1 link */
    struct msg *m;
    while ((m = port_pop(s->in))) {
        char prefix[768];
        snprintf(prefix, sizeof prefix, "cosim mismatch: unit %s port %s message #%" PRIu64
                 " (tag %u) cycle %" PRIu64, h->unit, h->port, s->checked, m->tag, sent);
        if (!s->has_next) {
            cosim_errors_add(&s->errors, "%s: the %s sent it, the recording has no more", prefix,
                             s->dut_name);
            checker_mismatch(s, sent);
        } else {
            uint32_t diffs = cosim_compare_payload(s->fields, s->next.payload, s->next.size,
                                                   m->payload, m->size, "recorded", s->dut_name,
                                                   prefix, &s->errors);
            if (s->next.tag != m->tag) {
                diffs++;
                cosim_errors_add(&s->errors, "%s: field tag: recorded %u, %s %u", prefix,
                                 s->next.tag, s->dut_name, m->tag);
            }
            if (s->next.cycle != sent) {
                diffs++;
                cosim_errors_add(&s->errors, "%s: field cycle (sent): recorded %" PRIu64
                                 ", %s %" PRIu64, prefix, s->next.cycle, s->dut_name, sent);
            }
            if (diffs)
                checker_mismatch(s, sent < s->next.cycle ? sent : s->next.cycle);
            struct gt_error err;
            if (checker_advance(u, &err) < 0) {
                unit_log(u, SIM_LOG_ERROR, "%s", err.message);
                s->has_next = false;
            }
        }
        s->checked++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

/* Recorded messages that never came. */
static void checker_finish(struct unit *u)
{
    struct cosim_checker *s = unit_state(u);
    const struct recording_header *h = recording_header(s->rec);
    while (s->has_next) {
        cosim_errors_add(&s->errors, "cosim mismatch: unit %s port %s message #%" PRIu64
                         " (tag %u) cycle %" PRIu64 ": recorded, never sent by the %s", h->unit,
                         h->port, s->checked, s->next.tag, s->next.cycle, s->dut_name);
        checker_mismatch(s, s->next.cycle);
        s->checked++;
        struct gt_error err;
        if (checker_advance(u, &err) < 0)
            break;
    }
}

static void checker_destroy(struct unit *u)
{
    struct cosim_checker *s = unit_state(u);
    recording_close(s->rec);
    cosim_errors_free(&s->errors);
}

const struct unit_ops cosim_checker_ops = {
    .kind = "cosim_checker",
    .help = "replay: compares what arrives with a port recording (fields and cycles)",
    .state_size = sizeof(struct cosim_checker),
    .params = checker_params, .ports = checker_ports, .stats = checker_stats,
    .realize = checker_realize, .tick = checker_tick, .destroy = checker_destroy,
};

/* ---- the replay ------------------------------------------------------------------ */

static int replay_once(const struct replay_options *o, const char *const *dut_sets,
                       struct replay_result *r, struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    if (!o->inputs[0])
        return gt_error_set(err, "replay: no input recording");
    struct recording *first = recording_open(o->inputs[0], err);
    if (!first)
        return -1;
    struct recording_header h0 = *recording_header(first);
    recording_close(first);

    const struct unit_ops *ops = o->lookup(o->kind);
    if (!ops)
        return gt_error_set(err, "replay: unknown unit kind '%s'", o->kind);
    struct sim_options so = { .watchdog_cycles = 1000000, .log_level = SIM_LOG_WARNING };
    struct sim *sim = sim_create(&so);
    int rc = -1;
    if (sim_add_clock(sim, "replay", h0.period_ps, err) < 0)
        goto out;
    struct unit *dut = sim_add_unit(sim, ops, h0.unit, 0, NULL, dut_sets, err);
    if (!dut)
        goto out;
    const char *const dut_name = strchr(o->kind, ':') ? strchr(o->kind, ':') + 1 : "c";
    struct unit *checkers[REPLAY_MAX_PORTS] = { 0 };
    struct link_params link = { .latency = 1, .capacity = 1u << 20, .width = 64 };
    for (int pass = 0; pass < 2; pass++) {
        const char *const *files = pass == 0 ? o->inputs : o->expects;
        for (int i = 0; i < REPLAY_MAX_PORTS && files[i]; i++) {
            struct recording *rec = recording_open(files[i], err);
            if (!rec)
                goto out;
            struct recording_header h = *recording_header(rec);
            recording_close(rec);
            if ((pass == 0) != (h.direction == PORT_IN)) {
                gt_error_set(err, "%s: port %s is an %s, given as an %s", files[i], h.port,
                             h.direction == PORT_IN ? "input" : "output",
                             pass == 0 ? "input" : "output");
                goto out;
            }
            char name[128], set[PARAM_STRING_MAX + 16], set2[64];
            snprintf(name, sizeof name, "%s_%s_%u", pass == 0 ? "player" : "checker", h.port,
                     h.index);
            snprintf(set, sizeof set, "file=%s", files[i]);
            snprintf(set2, sizeof set2, "dut_name=%s", dut_name);
            const char *sets[] = { set, pass ? set2 : NULL, NULL };
            struct unit *p = sim_add_unit(sim, pass == 0 ? &cosim_player_ops : &cosim_checker_ops,
                                          name, 0, NULL, sets, err);
            if (!p)
                goto out;
            struct port *dp = unit_port(dut, h.port, h.index);
            if (!dp && unit_port_is_open(dut, h.port)) {
                /* an open array (the L3's "client"): made as a link naming it would */
                char endpoint[512];
                snprintf(endpoint, sizeof endpoint, "%s.%s[%u]", h0.unit, h.port, h.index);
                dp = sim_resolve_port(sim, endpoint, pass == 0 ? PORT_IN : PORT_OUT, err);
            }
            if (!dp) {
                gt_error_set(err, "%s: unit kind %s has no port '%s'", files[i], o->kind, h.port);
                goto out;
            }
            /* an output keeps the width of the channel it was recorded on
             * (when the recording says): a unit refused by the width sends a
             * cycle later, and the checker must see the same */
            struct link_params out_link = link;
            if (pass == 1 && h.link.width)
                out_link.width = h.link.width;
            if ((pass == 0 ? sim_connect(sim, unit_port(p, "out", 0), dp, &link, err)
                           : sim_connect(sim, dp, unit_port(p, "in", 0), &out_link, err)) < 0)
                goto out;
            if (pass == 1)
                checkers[i] = p;
        }
    }
    if (sim_realize(sim, err) < 0)
        goto out;
    enum sim_stop_reason why = sim_run(sim, 0);
    if (why == SIM_STOP_DEADLOCK)
        fprintf(o->report ? o->report : stderr, "replay: %s\n", sim_deadlock_report(sim));
    r->cycles = sim_now(sim) / h0.period_ps;
    for (uint32_t id = 0; id < sim_unit_count(sim); id++) {
        struct unit *u = sim_unit(sim, id);
        if (strcmp(unit_kind(u), cosim_player_ops.kind) == 0)
            r->messages_in += ((struct cosim_player *)unit_state(u))->sent;
    }
    for (int i = 0; i < REPLAY_MAX_PORTS && checkers[i]; i++) {
        checker_finish(checkers[i]);
        struct cosim_checker *c = unit_state(checkers[i]);
        r->messages_checked += c->checked;
        r->mismatches += c->mismatches;
        if (c->first_mismatch < r->first_mismatch)
            r->first_mismatch = c->first_mismatch;
        if (c->errors.count && !r->first_report[0])
            snprintf(r->first_report, sizeof r->first_report, "%s", c->errors.line[0]);
        if (o->report) {
            for (uint32_t k = 0; k < c->errors.count && k < 20; k++)
                fprintf(o->report, "%s\n", c->errors.line[k]);
            if (c->errors.total > 20)
                fprintf(o->report, "... %" PRIu64 " more mismatch lines\n", c->errors.total - 20);
        }
    }
    rc = 0;
out:
    sim_destroy(sim);
    return rc;
}

int cosim_replay(const struct replay_options *o, struct replay_result *r, struct gt_error *err)
{
    const char *sets[REPLAY_MAX_SETS + 4];
    int n = 0;
    for (int i = 0; i < REPLAY_MAX_SETS && o->sets[i]; i++)
        sets[n++] = o->sets[i];
    sets[n] = NULL;
    if (replay_once(o, sets, r, err) < 0)
        return -1;
    if (!o->wave || r->mismatches == 0)
        return 0;
    /* Again, deterministically, dumping only around the first mismatch. */
    char wave[PARAM_STRING_MAX + 8], from[64], to[64];
    uint64_t m = r->first_mismatch;
    snprintf(wave, sizeof wave, "wave=%s", o->wave);
    snprintf(from, sizeof from, "wave_from=%" PRIu64, m > o->wave_before ? m - o->wave_before : 0);
    snprintf(to, sizeof to, "wave_to=%" PRIu64, m + o->wave_after);
    sets[n] = wave;
    sets[n + 1] = from;
    sets[n + 2] = to;
    sets[n + 3] = NULL;
    struct replay_options quiet = *o;
    quiet.report = NULL;
    struct replay_result again;
    if (replay_once(&quiet, sets, &again, err) < 0)
        return -1;
    return 0;
}
