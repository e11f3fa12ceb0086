/* rtl-cosim/fpu_cosim.c - see fpu_cosim.h. */
#include "rtl-cosim/fpu_cosim.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/fpu_rtl.h"
#include "units/fpu/fpu.h"


#define RING (FPU_MAX_DEPTH + 2)

struct fpu_cosim {
    struct fpu_engine e;                /* e.depth is the param */
    char wave[PARAM_STRING_MAX];
    uint64_t wave_from, wave_to, wave_after;
    uint32_t max_reports;
    bool stop_on_mismatch;
    enum cosim_mode mode;
    enum fpu_rtl_variant variant;
    struct fpu_rtl *rtl;
    struct port *request, *response;
    uint32_t rtl_occ;                   /* results inside the RTL pipe */
    bool stalled;
    uint64_t stall_from;
    struct fpu_request ring[RING];      /* lockstep: requests in flight, for reports */
    uint32_t ring_head, ring_count;
    uint64_t first_mismatch;
    bool finished;
    struct cosim_errors errors;
    uint64_t requests, responses, compared, mismatches, unmatched, rtl_edges, stalls, bad_kind;
};

#define S struct fpu_cosim
static const struct param_desc cosim_params[] = {
    PARAM_U32_FIELD("depth", S, e.depth, 4, 1, FPU_RTL_MAX_DEPTH,
                    "pipeline stages (as the C unit's; the RTL has at most 16)"),
    PARAM_STRING_FIELD("wave", S, wave, "", "dump the RTL to this FST file"),
    PARAM_U64_FIELD("wave_from", S, wave_from, 0, 0, INT64_MAX, "first cycle dumped"),
    PARAM_U64_FIELD("wave_to", S, wave_to, INT64_MAX, 0, INT64_MAX, "last cycle dumped"),
    PARAM_U64_FIELD("wave_after", S, wave_after, 64, 0, INT64_MAX,
                    "lockstep: cycles dumped after the first mismatch"),
    PARAM_U32_FIELD("max_reports", S, max_reports, 20, 0, 1000000, "mismatch lines logged"),
    PARAM_BOOL_FIELD("stop_on_mismatch", S, stop_on_mismatch, 0,
                     "lockstep: stop the simulation at the first mismatch"),
    PARAM_END
};

static const struct port_desc cosim_ports[] = {
    { .name = "request", .direction = PORT_IN, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as fpu: struct fpu_request" },
    { .name = "response", .direction = PORT_OUT, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as fpu: struct fpu_response" },
    PORT_END
};

static const struct stat_desc cosim_stats[] = {
    STAT_COUNTER_FIELD("requests", S, requests, "messages", "requests taken"),
    STAT_COUNTER_FIELD("responses", S, responses, "messages", "responses sent"),
    STAT_COUNTER_FIELD("lane_ops", S, e.lane_ops, "lanes", "lockstep: lanes the C engine computed"),
    STAT_COUNTER_FIELD("bad_requests", S, e.bad_requests, "messages",
                       "lockstep: requests the C engine refused (status 1)"),
    STAT_COUNTER_FIELD("rtl_edges", S, rtl_edges, "cycles", "rising edges given to the RTL"),
    STAT_COUNTER_FIELD("stall_cycles", S, stalls, "cycles", "cycles the pipe held (response full)"),
    STAT_COUNTER_FIELD("compared", S, compared, "messages", "lockstep: responses compared"),
    STAT_COUNTER_FIELD("mismatches", S, mismatches, "messages",
                       "lockstep: cycles whose outputs differ (a field, or one side silent)"),
    STAT_COUNTER_FIELD("unmatched", S, unmatched, "messages",
                       "lockstep: responses one side gave and the other did not"),
    STAT_COUNTER_FIELD("bad_kind", S, bad_kind, "messages", "requests of another kind (dropped)"),
    STAT_END
};
#undef S

/* One create for every kind: the kind's name gives the mode and the RTL. */
static int cosim_create(struct unit *u, struct gt_error *err)
{
    struct fpu_cosim *s = unit_state(u);
    bool broken;
    if (!cosim_kind_mode(unit_kind(u), &s->mode, &broken) || s->mode == COSIM_MODE_RECORD)
        return gt_error_set(err, "%s: not an fpu co-simulation kind", unit_kind(u));
    s->variant = broken ? FPU_RTL_BROKEN : FPU_RTL_GOOD;
    s->first_mismatch = UINT64_MAX;
    return 0;
}

static int cosim_realize(struct unit *u, struct gt_error *err)
{
    struct fpu_cosim *s = unit_state(u);
    s->request = unit_port(u, "request", 0);
    s->response = unit_port(u, "response", 0);
    if (!s->rtl) {
        s->rtl = fpu_rtl_create(s->variant, s->wave[0] != 0);
        if (s->wave[0] && fpu_rtl_trace_open(s->rtl, s->wave, unit_clock_period(u), s->wave_from,
                                             s->wave_to) < 0)
            return gt_error_set(err, "wave: cannot write FST file '%s'", s->wave);
    }
    s->errors.keep = 1000;
    return 0;
}

static void cosim_reset(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    fpu_engine_reset(&s->e);
    fpu_rtl_reset(s->rtl);
    fpu_rtl_set_depth(s->rtl, s->e.depth);
    s->rtl_occ = 0;
    s->ring_head = s->ring_count = 0;
    s->stalled = false;
}

static void cosim_destroy(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    fpu_rtl_destroy(s->rtl);
    s->rtl = NULL;
    cosim_errors_free(&s->errors);
}

static struct msg *pop_request(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    struct msg *m;
    while ((m = port_pop(s->request))) {
        if (m->kind == MSG_GENERIC)
            return m;
        s->bad_kind++;
        unit_log(u, SIM_LOG_NOTE, "dropped a %s message on port request", msg_kind_name(m->kind));
        msg_free(unit_sim(u), m);
    }
    return NULL;
}

/* The pipe holds from this cycle (woken when the response channel frees). */
static enum unit_activity stall(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    if (!s->stalled) {
        s->stalled = true;
        s->stall_from = unit_cycle(u);
    }
    return UNIT_IDLE;
}

static void moving(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    if (s->stalled) {
        s->stalls += unit_cycle(u) - s->stall_from;
        s->stalled = false;
    }
}

static void send_response(struct unit *u, const struct fpu_response *r, uint32_t tag)
{
    struct fpu_cosim *s = unit_state(u);
    struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, sizeof *r);
    memcpy(m->payload, r, sizeof *r);
    m->tag = tag;
    port_try_send(s->response, m);
    s->responses++;
}

/* ---- rtl ---------------------------------------------------------------------- */

static enum unit_activity rtl_tick(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    bool valid = fpu_rtl_resp_valid(s->rtl);
    if (valid && !port_can_send(s->response))
        return stall(u);                        /* the pipe holds; woken when the channel frees */
    moving(u);
    if (valid) {
        struct fpu_response r;
        uint32_t tag;
        fpu_rtl_response(s->rtl, &r, &tag);
        send_response(u, &r, tag);
        s->rtl_occ--;
    }
    fpu_rtl_set_resp_ready(s->rtl, true);
    struct msg *m = pop_request(u);
    if (m) {
        struct fpu_request q;
        fpu_request_from_payload(&q, m->payload, m->size);
        fpu_rtl_set_request(s->rtl, &q, m->tag);
        s->rtl_occ++;
        s->requests++;
        msg_free(unit_sim(u), m);
    }
    fpu_rtl_clock(s->rtl, now);
    s->rtl_edges++;
    if (m)
        fpu_rtl_set_request(s->rtl, NULL, 0);
    return s->rtl_occ || port_visible(s->request) ? UNIT_BUSY : UNIT_IDLE;
}

/* ---- lockstep ------------------------------------------------------------------- */

static void mismatch_at(struct unit *u, uint64_t cycle)
{
    struct fpu_cosim *s = unit_state(u);
    s->mismatches++;
    if (s->first_mismatch == UINT64_MAX) {
        s->first_mismatch = cycle;
        if (fpu_rtl_tracing(s->rtl)) {
            uint64_t to = cycle + s->wave_after;
            fpu_rtl_trace_window(s->rtl, s->wave_from, to < s->wave_to ? to : s->wave_to);
        }
        if (s->stop_on_mismatch)
            sim_request_stop(unit_sim(u));
    }
}

static void log_new_errors(struct unit *u, uint32_t from)
{
    struct fpu_cosim *s = unit_state(u);
    for (uint32_t i = from; i < s->errors.count && i < s->max_reports; i++)
        unit_log(u, SIM_LOG_ERROR, "%s", s->errors.line[i]);
}

static const char *const rm_name[4] = { "rtne", "ru", "rd", "rtz" };

static void compare(struct unit *u, uint64_t now, const struct fpu_stage *c,
                    const struct fpu_response *r, uint32_t rtag, const struct fpu_request *q)
{
    struct fpu_cosim *s = unit_state(u);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "cosim mismatch: unit %s port response message #%" PRIu64
             " (tag %u) cycle %" PRIu64, unit_name(u), s->compared, c->tag, now);
    char what[160];
    snprintf(what, sizeof what, "%s cond %u ctrl %#x %s sp-denorm-%s dp-denorm-%s%s",
             fpu_op_name(q->op), q->cond, q->ctrl, rm_name[(q->mode >> FPU_MODE_RM_SHIFT) & 3],
             (q->mode & FPU_MODE_SP_DENORM) ? "keep" : "flush",
             (q->mode & FPU_MODE_DP_DENORM) ? "keep" : "flush",
             (q->mode & FPU_MODE_F2I_RM) ? " f2i-rm" : "");
    uint32_t before = s->errors.count, diffs = 0;
    s->compared++;
    if (rtag != c->tag) {
        diffs++;
        cosim_errors_add(&s->errors, "%s: field tag: c-model %u, rtl %u", prefix, c->tag, rtag);
    }
    if (r->status != c->r.status) {
        diffs++;
        cosim_errors_add(&s->errors, "%s: field status: c-model %u, rtl %u (%s)", prefix,
                         c->r.status, r->status, what);
    }
    unsigned sty = (q->ctrl >> FPU_CTRL_STYPE_SHIFT) & 3, dty = (q->ctrl >> FPU_CTRL_DTYPE_SHIFT) & 3;
    bool df = q->op == FPU_OP_MOV ? (sty == FPU_T_DF || dty == FPU_T_DF) : (q->ctrl & FPU_CTRL_DF);
    bool wide_src = df && (q->op != FPU_OP_MOV || sty == FPU_T_DF);
    bool wide_dst = df && (q->op != FPU_OP_MOV || dty == FPU_T_DF);
    unsigned lanes = df ? FPU_DF_LANES : FPU_LANES;
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t cv = wide_dst ? (uint64_t)c->r.result[2 * l] | (uint64_t)c->r.result[2 * l + 1] << 32
                               : c->r.result[l];
        uint64_t rv = wide_dst ? (uint64_t)r->result[2 * l] | (uint64_t)r->result[2 * l + 1] << 32
                               : r->result[l];
        bool fr = rv != cv, ff = ((r->flags ^ c->r.flags) >> l) & 1;
        if (!fr && !ff)
            continue;
        diffs++;
        char ops[128];
        if (wide_src)
            snprintf(ops, sizeof ops, "DF lane, src %08x%08x %08x%08x %08x%08x", q->src[0][2 * l + 1],
                     q->src[0][2 * l], q->src[1][2 * l + 1], q->src[1][2 * l], q->src[2][2 * l + 1],
                     q->src[2][2 * l]);
        else
            snprintf(ops, sizeof ops, "%ssrc %08x %08x %08x", df ? "DF lane, " : "", q->src[0][l],
                     q->src[1][l], q->src[2][l]);
        int w = wide_dst ? 16 : 8;
        if (fr)
            cosim_errors_add(&s->errors, "%s: lane %u field result: c-model 0x%0*" PRIx64 ", rtl "
                             "0x%0*" PRIx64 " (%s, %s)", prefix, l, w, cv, w, rv, what, ops);
        if (ff)
            cosim_errors_add(&s->errors, "%s: lane %u field flag: c-model %u, rtl %u (%s, %s)",
                             prefix, l, c->r.flags >> l & 1, r->flags >> l & 1, what, ops);
    }
    /* words a DF result does not use must agree too */
    for (unsigned k = wide_dst ? 4 : lanes; k < FPU_LANES; k++)
        if (r->result[k] != c->r.result[k]) {
            diffs++;
            cosim_errors_add(&s->errors, "%s: field result word %u (unused): c-model 0x%08x, rtl "
                             "0x%08x (%s)", prefix, k, c->r.result[k], r->result[k], what);
        }
    if ((r->flags ^ c->r.flags) >> lanes) {
        diffs++;
        cosim_errors_add(&s->errors, "%s: field flags (unused lanes): c-model 0x%x, rtl 0x%x (%s)",
                         prefix, c->r.flags, r->flags, what);
    }
    if (diffs) {
        mismatch_at(u, now);
        log_new_errors(u, before);
    }
}

static enum unit_activity lockstep_tick(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    const struct fpu_stage *out = fpu_engine_out(&s->e);
    bool can = !out || port_can_send(s->response);
    if (!fpu_engine_moves(&s->e, can)) {
        /* both pipes hold: the RTL sees resp_ready low, which changes nothing */
        return stall(u);
    }
    moving(u);
    bool rvalid = fpu_rtl_resp_valid(s->rtl);
    struct fpu_request q0;
    memset(&q0, 0, sizeof q0);
    const struct fpu_request *qc = s->ring_count ? &s->ring[s->ring_head] : &q0;
    if (out) {
        send_response(u, &out->r, out->tag);
        if (rvalid) {
            struct fpu_response r;
            uint32_t tag;
            fpu_rtl_response(s->rtl, &r, &tag);
            compare(u, now, out, &r, tag, qc);
        } else {
            s->unmatched++;
            uint32_t before = s->errors.count;
            cosim_errors_add(&s->errors, "cosim mismatch: unit %s port response message #%" PRIu64
                             " (tag %u) cycle %" PRIu64 ": the c-model answered, the rtl did not",
                             unit_name(u), s->compared, out->tag, now);
            mismatch_at(u, now);
            log_new_errors(u, before);
        }
        if (s->ring_count) {
            s->ring_head = (s->ring_head + 1) % RING;
            s->ring_count--;
        }
    } else if (rvalid) {
        s->unmatched++;
        uint32_t before = s->errors.count;
        cosim_errors_add(&s->errors, "cosim mismatch: unit %s port response cycle %" PRIu64
                         ": the rtl answered, the c-model did not", unit_name(u), now);
        mismatch_at(u, now);
        log_new_errors(u, before);
    }
    if (rvalid)
        s->rtl_occ--;
    fpu_rtl_set_resp_ready(s->rtl, true);
    struct msg *m = pop_request(u);
    struct fpu_request q;
    if (m) {
        fpu_request_from_payload(&q, m->payload, m->size);
        fpu_rtl_set_request(s->rtl, &q, m->tag);
        s->rtl_occ++;
        s->requests++;
        if (s->ring_count < RING) {
            s->ring[(s->ring_head + s->ring_count) % RING] = q;
            s->ring_count++;
        }
    }
    fpu_engine_step(&s->e, out != NULL, m ? &q : NULL, m ? m->tag : 0);
    if (m)
        msg_free(unit_sim(u), m);
    fpu_rtl_clock(s->rtl, now);
    s->rtl_edges++;
    if (m)
        fpu_rtl_set_request(s->rtl, NULL, 0);
    return s->e.occupancy || s->rtl_occ || port_visible(s->request) ? UNIT_BUSY : UNIT_IDLE;
}

/* ---- queries ------------------------------------------------------------------ */

bool fpu_cosim_is(const struct unit *u)
{
    return strncmp(unit_kind(u), "fpu:", 4) == 0;
}

uint64_t fpu_cosim_finish(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    if (s->mode != COSIM_MODE_LOCKSTEP || s->finished)
        return s->mismatches;
    s->finished = true;
    uint32_t before = s->errors.count;
    if (s->e.occupancy || s->rtl_occ) {
        cosim_errors_add(&s->errors, "cosim mismatch: unit %s port response: at the end %u "
                         "results are in the c-model's pipe and %u in the rtl's", unit_name(u),
                         s->e.occupancy, s->rtl_occ);
        s->unmatched += s->e.occupancy > s->rtl_occ ? s->e.occupancy - s->rtl_occ
                                                    : s->rtl_occ - s->e.occupancy;
        mismatch_at(u, unit_cycle(u));
    }
    log_new_errors(u, before);
    return s->mismatches;
}

const struct cosim_errors *fpu_cosim_errors(const struct unit *u)
{
    const struct fpu_cosim *s = unit_state(u);
    return &s->errors;
}

uint64_t fpu_cosim_compared(const struct unit *u)
{
    const struct fpu_cosim *s = unit_state(u);
    return s->compared;
}

uint64_t fpu_cosim_first_mismatch(const struct unit *u)
{
    const struct fpu_cosim *s = unit_state(u);
    return s->first_mismatch;
}

#define COSIM_OPS(sym, name, create_fn, tick_fn, text)                                  \
    const struct unit_ops sym = {                                                       \
        .kind = name,                                                                   \
        .help = text,                                                                   \
        .state_size = sizeof(struct fpu_cosim),                                         \
        .params = cosim_params,                                                         \
        .ports = cosim_ports,                                                           \
        .stats = cosim_stats,                                                           \
        .create = create_fn,                                                            \
        .realize = cosim_realize,                                                       \
        .reset = cosim_reset,                                                           \
        .tick = tick_fn,                                                                \
        .destroy = cosim_destroy,                                                       \
    }

COSIM_OPS(fpu_rtl_ops, "fpu:rtl", cosim_create, rtl_tick,
          "fpu as RTL: rtl-cosim/rtl/fpu_pipe.sv, Verilated, behind the C unit's ports.");
COSIM_OPS(fpu_lockstep_ops, "fpu:lockstep", cosim_create, lockstep_tick,
          "fpu in lockstep: the C engine drives the ports, the RTL runs beside it; every "
          "cycle's output is compared (tag, per-lane results and flags, status; exact).");
COSIM_OPS(fpu_rtl_broken_ops, "fpu:rtl_broken", cosim_create, rtl_tick,
          "fpu as RTL built with `define BROKEN (RU ignores sticky), to prove the checker.");
COSIM_OPS(fpu_lockstep_broken_ops, "fpu:lockstep_broken", cosim_create, lockstep_tick,
          "fpu in lockstep against the BROKEN RTL: must report mismatches.");
