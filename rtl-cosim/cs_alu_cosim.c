/* rtl-cosim/cs_alu_cosim.c - see cs_alu_cosim.h. */
#include "rtl-cosim/cs_alu_cosim.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "rtl-cosim/cs_alu_rtl.h"
#include "rtl-cosim/lockstep.h"
#include "fabric/recording.h"


#define QUEUE 64        /* requests/responses one side may run ahead of the other */

struct rtl_request {
    struct cs_alu_request q;
    uint32_t count, tag;
    bool malformed;
};

struct expected {
    struct cs_alu_response r;
    uint32_t tag;
    uint64_t due, sent;
};

struct cs_alu_cosim {
    struct lockstep ls;                 /* first: the co-simulation's params and reports */
    /* params */
    uint32_t cycles_per_instruction;    /* the C unit's param (it gets it by name) */
    char record_request[PARAM_STRING_MAX];
    char record_response[PARAM_STRING_MAX];
    uint32_t rtl_cpi;
    /* set up */
    struct cs_alu_rtl *rtl;
    struct port *request, *response;
    struct recorder *rec[2];            /* request, response */
    bool rec_failed;
    /* rtl mode: the request the RTL holds */
    uint32_t rtl_tag;
    bool rtl_malformed;
    /* lockstep */
    struct rtl_request *in;             /* QUEUE, for the RTL */
    uint32_t in_head, in_count;
    struct expected *exp;               /* QUEUE, the C unit's responses */
    uint32_t exp_head, exp_count;
    uint64_t taken;                     /* the cycle the C unit took its request */
    bool rtl_valid_seen;
    uint64_t rtl_valid_cycle;
    /* stats */
    uint64_t requests, responses, bad_kind, rtl_edges, none;
};

#define S struct cs_alu_cosim
static const struct param_desc cosim_params[] = {
    PARAM_U32_FIELD("cycles_per_instruction", S, cycles_per_instruction, 1, 1, 64,
                    "clocks per ALU instruction (as the C unit's)"),
    PARAM_STRING_FIELD("record_request", S, record_request, "",
                       "record port request to this file (rtl-cosim/recording.h format)"),
    PARAM_STRING_FIELD("record_response", S, record_response, "",
                       "record port response to this file"),
    LOCKSTEP_PARAMS(S, ls, "lockstep: cycles the RTL's response may be early or late (the ALU: 0)"),
    PARAM_U32_FIELD("rtl_cycles_per_instruction", S, rtl_cpi, 0, 0, 64,
                    "the RTL's cfg_cpi when it differs from the C model's (0: the same); "
                    "shows the checker catching timing differences"),
    PARAM_END
};

static const struct port_desc cosim_ports[] = {
    { .name = "request", .direction = PORT_IN, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as cs_alu: struct cs_alu_request" },
    { .name = "response", .direction = PORT_OUT, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as cs_alu: struct cs_alu_response" },
    PORT_END
};

/* Written by cosim_stats_derived in this order (instructions: the C unit's). */
static const struct lockstep_row cosim_rows[] = {
    { "requests", offsetof(S, requests), NULL, "messages", "requests taken" },
    { "responses", offsetof(S, responses), NULL, "messages", "responses sent" },
    { "instructions", offsetof(S, none), "instructions", "instructions",
      "ALU instructions executed by the C model (record, lockstep)" },
    { "rtl_edges", offsetof(S, rtl_edges), NULL, "cycles", "rising edges given to the RTL" },
    { "compared", offsetof(S, ls.compared), NULL, "messages", "lockstep: responses compared" },
    { "mismatches", offsetof(S, ls.mismatches), NULL, "messages",
      "lockstep: responses that differ in a field or in cycle" },
    { "unmatched", offsetof(S, ls.unmatched), NULL, "messages",
      "lockstep: responses one side gave and the other did not" },
    { "bad_kind", offsetof(S, bad_kind), NULL, "messages", "requests of another kind (dropped)" },
    LOCKSTEP_ROW_END
};
#undef S

/* ---- set up ----------------------------------------------------------------- */

static int cosim_create(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct cs_alu_cosim *s = unit_state(u);
    if (s->ls.mode == COSIM_MODE_LOCKSTEP) {
        s->in = gt_xcalloc(QUEUE, sizeof *s->in);
        s->exp = gt_xcalloc(QUEUE, sizeof *s->exp);
    }
    return 0;
}

static int cosim_realize(struct unit *u, struct gt_error *err)
{
    struct cs_alu_cosim *s = unit_state(u);
    s->request = unit_port(u, "request", 0);
    s->response = unit_port(u, "response", 0);
    if (s->ls.mode == COSIM_MODE_RECORD && s->ls.wave[0])
        return gt_error_set(err, "wave: cs_alu:record runs no RTL to dump");
    return 0;
}

static int rtl_open(struct unit *u, struct gt_error *err)
{
    struct cs_alu_cosim *s = unit_state(u);
    if (s->ls.mode != COSIM_MODE_RECORD && !s->rtl) {
        s->rtl = cs_alu_rtl_create(s->ls.broken ? CS_ALU_RTL_BROKEN : CS_ALU_RTL_GOOD,
                                   s->ls.wave[0] != 0);
        if (s->ls.wave[0] && cs_alu_rtl_trace_open(s->rtl, s->ls.wave, unit_clock_period(u),
                                                   s->ls.wave_from, s->ls.wave_to) < 0)
            return gt_error_set(err, "wave: cannot write FST file '%s'", s->ls.wave);
    }
    return 0;
}

static void cosim_reset(struct unit *u)
{
    struct cs_alu_cosim *s = unit_state(u);
    if (s->rtl) {
        cs_alu_rtl_reset(s->rtl);
        cs_alu_rtl_set_cpi(s->rtl, s->rtl_cpi ? s->rtl_cpi : s->cycles_per_instruction);
    }
    s->in_head = s->in_count = s->exp_head = s->exp_count = 0;
    s->rtl_valid_seen = false;
}

static void cosim_destroy(struct unit *u)
{
    struct cs_alu_cosim *s = unit_state(u);
    for (int k = 0; k < 2; k++) {
        struct gt_error err;
        if (recorder_close(s->rec[k], &err) < 0)
            unit_log(u, SIM_LOG_ERROR, "%s", err.message);
        s->rec[k] = NULL;
    }
    cs_alu_rtl_destroy(s->rtl);
    s->rtl = NULL;
    free(s->in);
    free(s->exp);
}

/* ---- recording -------------------------------------------------------------- */

static void record(struct unit *u, int which, uint64_t cycle, uint32_t tag, const void *payload,
                   uint32_t size)
{
    struct cs_alu_cosim *s = unit_state(u);
    const char *path = which == 0 ? s->record_request : s->record_response;
    if (!path[0] || s->rec_failed)
        return;
    if (!s->rec[which]) {
        struct recording_header h = { .direction = which == 0 ? PORT_IN : PORT_OUT,
                                      .period_ps = unit_clock_period(u) };
        snprintf(h.unit, sizeof h.unit, "%s", unit_name(u));
        snprintf(h.kind, sizeof h.kind, "cs_alu");
        snprintf(h.port, sizeof h.port, "%s", which == 0 ? "request" : "response");
        struct gt_error err;
        s->rec[which] = recorder_open(path, &h, &err);
        if (!s->rec[which]) {
            unit_log(u, SIM_LOG_ERROR, "%s", err.message);
            s->rec_failed = true;
            return;
        }
    }
    recorder_write_raw(s->rec[which], cycle, tag, MSG_GENERIC, payload, size);
}

/* ---- the C unit's side (record, lockstep), through the port observers -------- */

/* A request the C unit took (its port request), or a response it sent. */
static void observe(struct unit *u, const struct port *p, const struct msg *m, uint64_t cycle)
{
    struct cs_alu_cosim *s = unit_state(u);
    bool lockstep = s->ls.mode == COSIM_MODE_LOCKSTEP;
    if (p == s->request) {
        if (m->kind != MSG_GENERIC) {
            s->bad_kind++;
            return;
        }
        record(u, 0, cycle, m->tag, m->payload, m->size);
        s->requests++;
        s->taken = cycle;
        if (!lockstep)
            return;
        if (s->in_count == QUEUE) {
            s->ls.unmatched++;
            cosim_errors_add(&s->ls.errors, "cosim mismatch: unit %s port request: the RTL took "
                             "no request for %u requests; dropping the oldest", unit_name(u),
                             QUEUE);
            s->in_head = (s->in_head + 1) % QUEUE;
            s->in_count--;
        }
        struct rtl_request *r = &s->in[(s->in_head + s->in_count++) % QUEUE];
        memset(&r->q, 0, sizeof r->q);
        memcpy(&r->q, m->payload, m->size < sizeof r->q ? m->size : sizeof r->q);
        r->count = cs_alu_request_count(m->payload, m->size, &r->malformed);
        r->tag = m->tag;
        return;
    }
    record(u, 1, cycle, m->tag, m->payload, m->size);
    s->responses++;
    if (!lockstep)
        return;
    if (s->exp_count == QUEUE) {
        s->ls.unmatched++;
        cosim_errors_add(&s->ls.errors, "cosim mismatch: unit %s port response: the RTL is %u "
                         "responses behind; dropping the oldest expected", unit_name(u), QUEUE);
        s->exp_head = (s->exp_head + 1) % QUEUE;
        s->exp_count--;
    }
    struct expected *x = &s->exp[(s->exp_head + s->exp_count++) % QUEUE];
    memset(&x->r, 0, sizeof x->r);
    memcpy(&x->r, m->payload, m->size < sizeof x->r ? m->size : sizeof x->r);
    x->tag = m->tag;
    /* The cycle the C unit's response was ready (it may leave later under
     * back-pressure): the unit's timing, one cycle to take the GPRs and
     * cycles_per_instruction per instruction executed (units/cs_alu/cs_alu.h,
     * seed 004 L20918). */
    x->due = s->taken + 1 + (uint64_t)x->r.executed * s->cycles_per_instruction;
    x->sent = cycle;
}

/* ---- lockstep comparison --------------------------------------------------- */

static void wave_window(struct unit *u, uint64_t from, uint64_t to)
{
    struct cs_alu_cosim *s = unit_state(u);
    if (s->rtl && cs_alu_rtl_tracing(s->rtl))
        cs_alu_rtl_trace_window(s->rtl, from, to);
}

static void compare(struct unit *u, uint64_t now, const struct expected *x,
                    const struct cs_alu_response *got)
{
    struct cs_alu_cosim *s = unit_state(u);
    char prefix[512];
    snprintf(prefix, sizeof prefix,
             "cosim mismatch: unit %s port response message #%" PRIu64 " (tag %u) cycle %" PRIu64,
             unit_name(u), s->ls.compared, x->tag, x->due);
    uint32_t before = s->ls.errors.count;
    uint32_t diffs = cosim_compare_payload(cosim_payload_fields("cs_alu", "response"), &x->r,
                                           sizeof x->r, got, sizeof *got, "c-model", "rtl",
                                           prefix, &s->ls.errors);
    lockstep_log_from(u, before);
    diffs += lockstep_check_cycle(u, prefix, "response ready", x->due, s->rtl_valid_cycle);
    s->ls.compared++;
    if (diffs)
        lockstep_mismatch(u, x->due < now ? x->due : now);
}

/* ---- ticks ------------------------------------------------------------------ */

/* After the C unit's tick (record: nothing more). */
static enum unit_activity lockstep_step(struct unit *u, uint64_t now, enum unit_activity act)
{
    struct cs_alu_cosim *s = unit_state(u);
    if (s->ls.mode == COSIM_MODE_RECORD)
        return act;

    /* The RTL: compare its response once the C model's matching one has left;
     * hand it the requests the C model took, in order. */
    if (cs_alu_rtl_resp_valid(s->rtl)) {
        if (!s->rtl_valid_seen) {
            s->rtl_valid_seen = true;
            s->rtl_valid_cycle = now;
        }
        if (s->exp_count) {
            struct cs_alu_response got;
            cs_alu_rtl_response(s->rtl, &got);
            struct expected *x = &s->exp[s->exp_head];
            got.malformed = x->r.malformed;     /* the RTL does not see message sizes */
            compare(u, now, x, &got);
            s->exp_head = (s->exp_head + 1) % QUEUE;
            s->exp_count--;
            s->rtl_valid_seen = false;
            cs_alu_rtl_set_resp_ready(s->rtl, true);
        }
    }
    if (s->in_count && cs_alu_rtl_req_ready(s->rtl)) {
        struct rtl_request *r = &s->in[s->in_head];
        cs_alu_rtl_set_request(s->rtl, &r->q, r->count);
        s->in_head = (s->in_head + 1) % QUEUE;
        s->in_count--;
    }
    cs_alu_rtl_clock(s->rtl, now);
    s->rtl_edges++;
    cs_alu_rtl_set_request(s->rtl, NULL, 0);
    cs_alu_rtl_set_resp_ready(s->rtl, false);

    if (cs_alu_rtl_running(s->rtl) || s->in_count ||
        (cs_alu_rtl_resp_valid(s->rtl) && (s->exp_count || !s->rtl_valid_seen)))
        return UNIT_BUSY;
    return act;
}

static enum unit_activity rtl_tick(struct unit *u)
{
    struct cs_alu_cosim *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    bool blocked = false;
    if (cs_alu_rtl_resp_valid(s->rtl)) {
        if (port_can_send(s->response)) {
            struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, sizeof(struct cs_alu_response));
            struct cs_alu_response *p = (struct cs_alu_response *)m->payload;
            cs_alu_rtl_response(s->rtl, p);
            p->malformed = s->rtl_malformed;
            m->tag = s->rtl_tag;
            record(u, 1, now, m->tag, m->payload, m->size);
            port_try_send(s->response, m);
            s->responses++;
            cs_alu_rtl_set_resp_ready(s->rtl, true);
        } else {
            blocked = true;
        }
    }
    if (port_visible(s->request) && cs_alu_rtl_req_ready(s->rtl)) {
        struct msg *m = lockstep_pop_generic(u, s->request, &s->bad_kind);
        if (m) {
            struct cs_alu_request q;
            memset(&q, 0, sizeof q);
            memcpy(&q, m->payload, m->size < sizeof q ? m->size : sizeof q);
            uint32_t n = cs_alu_request_count(m->payload, m->size, &s->rtl_malformed);
            cs_alu_rtl_set_request(s->rtl, &q, n);
            s->rtl_tag = m->tag;
            record(u, 0, now, m->tag, m->payload, m->size);
            s->requests++;
            msg_free(unit_sim(u), m);
        }
    }
    cs_alu_rtl_clock(s->rtl, now);
    s->rtl_edges++;
    cs_alu_rtl_set_request(s->rtl, NULL, 0);
    cs_alu_rtl_set_resp_ready(s->rtl, false);
    if (cs_alu_rtl_running(s->rtl))
        return UNIT_BUSY;
    if (cs_alu_rtl_resp_valid(s->rtl))
        return blocked ? UNIT_IDLE : UNIT_BUSY;     /* blocked: woken when the channel frees */
    return port_visible(s->request) ? UNIT_BUSY : UNIT_IDLE;
}

static void cosim_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct cs_alu_cosim *s = unit_state(u);
    lockstep_emit_rows(u, w, cosim_rows);
    if (s->ls.mode == COSIM_MODE_LOCKSTEP)
        stats_emit(w, "pending_compare", (double)(s->exp_count + s->in_count), "messages",
                   "lockstep: responses or requests still waiting for the RTL at the end");
}

/* ---- queries ---------------------------------------------------------------- */

/* The end of the comparison: responses one side gave and the other did not. */
static void lockstep_finish(struct unit *u, uint64_t now)
{
    struct cs_alu_cosim *s = unit_state(u);
    for (uint32_t i = 0; i < s->exp_count; i++) {
        const struct expected *x = &s->exp[(s->exp_head + i) % QUEUE];
        lockstep_report(u, "cosim mismatch: unit %s port response message #%" PRIu64
                        " (tag %u) cycle %" PRIu64 ": the c-model answered, the rtl did not",
                        unit_name(u), s->ls.compared + i, x->tag, x->due);
        s->ls.unmatched++;
        lockstep_mismatch(u, x->due);
    }
    if (s->in_count) {
        lockstep_report(u, "cosim mismatch: unit %s port request: %u requests never taken by "
                        "the rtl", unit_name(u), s->in_count);
        s->ls.unmatched += s->in_count;
        lockstep_mismatch(u, now);
    }
    if (!s->exp_count && s->rtl && cs_alu_rtl_resp_valid(s->rtl) && s->rtl_valid_seen) {
        lockstep_report(u, "cosim mismatch: unit %s port response message #%" PRIu64
                        " cycle %" PRIu64 ": the rtl answered, the c-model did not",
                        unit_name(u), s->ls.compared, s->rtl_valid_cycle);
        s->ls.unmatched++;
        lockstep_mismatch(u, s->rtl_valid_cycle);
    }
}

void cs_alu_cosim_counters(struct unit *u, struct cs_alu_engine *out)
{
    memset(out, 0, sizeof *out);
    out->requests = lockstep_c_stat(u, "requests");
    out->instructions = lockstep_c_stat(u, "instructions");
    out->loads = lockstep_c_stat(u, "loads");
    out->alu_ops = lockstep_c_stat(u, "alu_ops");
    out->stores = lockstep_c_stat(u, "stores");
    out->noops = lockstep_c_stat(u, "noops");
    out->reserved = lockstep_c_stat(u, "reserved_instructions");
    out->malformed = lockstep_c_stat(u, "malformed_requests");
    out->busy_cycles = lockstep_c_stat(u, "busy_cycles");
}

/* ---- the kinds --------------------------------------------------------------- */

const struct lockstep_desc cs_alu_cosim_desc = {
    .c_kind = "cs_alu",
    .modes = 1u << COSIM_MODE_RTL | 1u << COSIM_MODE_LOCKSTEP | 1u << COSIM_MODE_RECORD,
    .create = cosim_create,
    .realize = cosim_realize,
    .rtl_open = rtl_open,
    .reset = cosim_reset,
    .destroy = cosim_destroy,
    .rtl_tick = rtl_tick,
    .observe = observe,
    .rtl_step = lockstep_step,
    .finish = lockstep_finish,
    .wave_window = wave_window,
    .stats_derived = cosim_stats_derived,
};

#define CS_ALU_KIND(sym, name, text) \
    LOCKSTEP_KIND(sym, name, struct cs_alu_cosim, cosim_params, cosim_ports, NULL, NULL, text)

CS_ALU_KIND(cs_alu_rtl_ops, "cs_alu:rtl",
            "cs_alu as RTL: rtl-cosim/rtl/cs_alu.sv, Verilated, behind the C unit's ports.");
CS_ALU_KIND(cs_alu_lockstep_ops, "cs_alu:lockstep",
            "cs_alu in lockstep: the C unit drives the ports, the RTL runs beside it and "
            "every response is compared (fields and cycle, exactly).");
CS_ALU_KIND(cs_alu_record_ops, "cs_alu:record",
            "cs_alu's C unit with port recording (record_request, record_response).");
CS_ALU_KIND(cs_alu_rtl_broken_ops, "cs_alu:rtl_broken",
            "cs_alu as RTL built with `define BROKEN (one planted bug), to prove the checker.");
CS_ALU_KIND(cs_alu_lockstep_broken_ops, "cs_alu:lockstep_broken",
            "cs_alu in lockstep against the BROKEN RTL: must report mismatches.");
