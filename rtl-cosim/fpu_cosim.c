/* rtl-cosim/fpu_cosim.c - see fpu_cosim.h. */
#include "rtl-cosim/fpu_cosim.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "rtl-cosim/fpu_rtl.h"
#include "rtl-cosim/lockstep.h"
#include "units/fpu/fpu.h"


#define RING (FPU_MAX_DEPTH + 2)

struct fpu_cosim {
    struct lockstep ls;                 /* first: the co-simulation's params and reports */
    uint32_t depth;                     /* the C unit's param (it gets it by name) */
    struct fpu_rtl *rtl;
    struct port *request, *response;
    uint32_t rtl_occ;                   /* results inside the RTL pipe */
    bool stalled;
    uint64_t stall_from;
    struct fpu_request ring[RING];      /* lockstep: requests in flight, for reports */
    uint32_t ring_head, ring_count;
    /* lockstep: what the C unit did this cycle (port observers) */
    uint32_t c_occupancy;               /* requests it took and has not answered */
    bool c_sent, c_took;
    struct fpu_stage c_out;             /* the response it sent */
    struct fpu_request c_request;       /* the request it took */
    uint32_t c_request_tag;
    uint64_t requests, responses, rtl_edges, stalls, bad_kind, none;
};

#define S struct fpu_cosim
static const struct param_desc cosim_params[] = {
    PARAM_U32_FIELD("depth", S, depth, 4, 1, FPU_RTL_MAX_DEPTH,
                    "pipeline stages (as the C unit's; the RTL has at most 16)"),
    LOCKSTEP_PARAMS(S, ls, "not used: the outputs are compared cycle by cycle (exact)"),
    PARAM_END
};

static const struct port_desc cosim_ports[] = {
    { .name = "request", .direction = PORT_IN, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as fpu: struct fpu_request" },
    { .name = "response", .direction = PORT_OUT, .msg_kinds = 1u << MSG_GENERIC,
      .help = "as fpu: struct fpu_response" },
    PORT_END
};

/* Written by cosim_stats_derived in this order (lane_ops, bad_requests and
 * stall_cycles: the C unit's when it runs). */
static const struct lockstep_row cosim_rows[] = {
    { "requests", offsetof(S, requests), NULL, "messages", "requests taken" },
    { "responses", offsetof(S, responses), NULL, "messages", "responses sent" },
    { "lane_ops", offsetof(S, none), "lane_ops", "lanes", "lockstep: lanes the C engine computed" },
    { "bad_requests", offsetof(S, none), "bad_requests", "messages",
      "lockstep: requests the C engine refused (status 1)" },
    { "rtl_edges", offsetof(S, rtl_edges), NULL, "cycles", "rising edges given to the RTL" },
    { "stall_cycles", offsetof(S, stalls), "stall_cycles", "cycles",
      "cycles the pipe held (response full)" },
    { "compared", offsetof(S, ls.compared), NULL, "messages", "lockstep: responses compared" },
    { "mismatches", offsetof(S, ls.mismatches), NULL, "messages",
      "lockstep: cycles whose outputs differ (a field, or one side silent)" },
    { "unmatched", offsetof(S, ls.unmatched), NULL, "messages",
      "lockstep: responses one side gave and the other did not" },
    { "bad_kind", offsetof(S, bad_kind), NULL, "messages", "requests of another kind (dropped)" },
    LOCKSTEP_ROW_END
};
#undef S

static int cosim_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct fpu_cosim *s = unit_state(u);
    s->request = unit_port(u, "request", 0);
    s->response = unit_port(u, "response", 0);
    return 0;
}

static int rtl_open(struct unit *u, struct gt_error *err)
{
    struct fpu_cosim *s = unit_state(u);
    if (!s->rtl) {
        s->rtl = fpu_rtl_create(s->ls.broken ? FPU_RTL_BROKEN : FPU_RTL_GOOD, s->ls.wave[0] != 0);
        if (s->ls.wave[0] && fpu_rtl_trace_open(s->rtl, s->ls.wave, unit_clock_period(u),
                                                s->ls.wave_from, s->ls.wave_to) < 0)
            return gt_error_set(err, "wave: cannot write FST file '%s'", s->ls.wave);
    }
    return 0;
}

static void cosim_reset(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    fpu_rtl_reset(s->rtl);
    fpu_rtl_set_depth(s->rtl, s->depth);
    s->rtl_occ = 0;
    s->c_occupancy = 0;
    s->c_sent = s->c_took = false;
    s->ring_head = s->ring_count = 0;
    s->stalled = false;
}

static void cosim_destroy(struct unit *u)
{
    struct fpu_cosim *s = unit_state(u);
    fpu_rtl_destroy(s->rtl);
    s->rtl = NULL;
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
    struct msg *m = lockstep_pop_generic(u, s->request, &s->bad_kind);
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

static void wave_window(struct unit *u, uint64_t from, uint64_t to)
{
    struct fpu_cosim *s = unit_state(u);
    if (fpu_rtl_tracing(s->rtl))
        fpu_rtl_trace_window(s->rtl, from, to);
}

/* A request the C unit took, or a response it sent. */
static void observe(struct unit *u, const struct port *p, const struct msg *m, uint64_t cycle)
{
    (void)cycle;
    struct fpu_cosim *s = unit_state(u);
    if (p == s->request) {
        if (m->kind != MSG_GENERIC) {
            s->bad_kind++;
            return;
        }
        fpu_request_from_payload(&s->c_request, m->payload, m->size);
        s->c_request_tag = m->tag;
        s->c_took = true;
        s->c_occupancy++;
        return;
    }
    memset(&s->c_out, 0, sizeof s->c_out);
    memcpy(&s->c_out.r, m->payload, m->size < sizeof s->c_out.r ? m->size : sizeof s->c_out.r);
    s->c_out.tag = m->tag;
    s->c_out.valid = true;
    s->c_sent = true;
    s->c_occupancy--;
    s->responses++;
}

static const char *const rm_name[4] = { "rtne", "ru", "rd", "rtz" };

static void compare(struct unit *u, uint64_t now, const struct fpu_stage *c,
                    const struct fpu_response *r, uint32_t rtag, const struct fpu_request *q)
{
    struct fpu_cosim *s = unit_state(u);
    struct cosim_errors *errors = &s->ls.errors;
    char prefix[256];
    snprintf(prefix, sizeof prefix, "cosim mismatch: unit %s port response message #%" PRIu64
             " (tag %u) cycle %" PRIu64, unit_name(u), s->ls.compared, c->tag, now);
    char what[160];
    snprintf(what, sizeof what, "%s cond %u ctrl %#x %s sp-denorm-%s dp-denorm-%s%s",
             fpu_op_name(q->op), q->cond, q->ctrl, rm_name[(q->mode >> FPU_MODE_RM_SHIFT) & 3],
             (q->mode & FPU_MODE_SP_DENORM) ? "keep" : "flush",
             (q->mode & FPU_MODE_DP_DENORM) ? "keep" : "flush",
             (q->mode & FPU_MODE_F2I_RM) ? " f2i-rm" : "");
    uint32_t before = errors->count, diffs = 0;
    s->ls.compared++;
    if (rtag != c->tag) {
        diffs++;
        cosim_errors_add(errors, "%s: field tag: c-model %u, rtl %u", prefix, c->tag, rtag);
    }
    if (r->status != c->r.status) {
        diffs++;
        cosim_errors_add(errors, "%s: field status: c-model %u, rtl %u (%s)", prefix,
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
            cosim_errors_add(errors, "%s: lane %u field result: c-model 0x%0*" PRIx64 ", rtl "
                             "0x%0*" PRIx64 " (%s, %s)", prefix, l, w, cv, w, rv, what, ops);
        if (ff)
            cosim_errors_add(errors, "%s: lane %u field flag: c-model %u, rtl %u (%s, %s)",
                             prefix, l, c->r.flags >> l & 1, r->flags >> l & 1, what, ops);
    }
    /* words a DF result does not use must agree too */
    for (unsigned k = wide_dst ? 4 : lanes; k < FPU_LANES; k++)
        if (r->result[k] != c->r.result[k]) {
            diffs++;
            cosim_errors_add(errors, "%s: field result word %u (unused): c-model 0x%08x, rtl "
                             "0x%08x (%s)", prefix, k, c->r.result[k], r->result[k], what);
        }
    if ((r->flags ^ c->r.flags) >> lanes) {
        diffs++;
        cosim_errors_add(errors, "%s: field flags (unused lanes): c-model 0x%x, rtl 0x%x (%s)",
                         prefix, c->r.flags, r->flags, what);
    }
    lockstep_log_from(u, before);
    if (diffs)
        lockstep_mismatch(u, now);
}

/* After the C unit's tick. The C pipe held this cycle (its response port was
 * full) when it sent nothing and went idle with results inside (fpu_tick
 * returns busy while it holds results, unless it stalled): the RTL then sees
 * resp_ready low, which changes nothing, and is not clocked, as the C pipe
 * did not move. Otherwise the RTL gets the cycle the C pipe had: the same
 * request, its result compared with the C unit's. */
static enum unit_activity lockstep_step(struct unit *u, uint64_t now, enum unit_activity act)
{
    struct fpu_cosim *s = unit_state(u);
    bool sent = s->c_sent, took = s->c_took;
    s->c_sent = s->c_took = false;
    if (act == UNIT_IDLE && !sent && s->c_occupancy)
        return stall(u);
    moving(u);
    bool rvalid = fpu_rtl_resp_valid(s->rtl);
    struct fpu_request q0;
    memset(&q0, 0, sizeof q0);
    const struct fpu_request *qc = s->ring_count ? &s->ring[s->ring_head] : &q0;
    if (sent) {
        if (rvalid) {
            struct fpu_response r;
            uint32_t tag;
            fpu_rtl_response(s->rtl, &r, &tag);
            compare(u, now, &s->c_out, &r, tag, qc);
        } else {
            s->ls.unmatched++;
            lockstep_report(u, "cosim mismatch: unit %s port response message #%" PRIu64
                            " (tag %u) cycle %" PRIu64 ": the c-model answered, the rtl did not",
                            unit_name(u), s->ls.compared, s->c_out.tag, now);
            lockstep_mismatch(u, now);
        }
        if (s->ring_count) {
            s->ring_head = (s->ring_head + 1) % RING;
            s->ring_count--;
        }
    } else if (rvalid) {
        s->ls.unmatched++;
        lockstep_report(u, "cosim mismatch: unit %s port response cycle %" PRIu64
                        ": the rtl answered, the c-model did not", unit_name(u), now);
        lockstep_mismatch(u, now);
    }
    if (rvalid)
        s->rtl_occ--;
    fpu_rtl_set_resp_ready(s->rtl, true);
    if (took) {
        fpu_rtl_set_request(s->rtl, &s->c_request, s->c_request_tag);
        s->rtl_occ++;
        s->requests++;
        if (s->ring_count < RING) {
            s->ring[(s->ring_head + s->ring_count) % RING] = s->c_request;
            s->ring_count++;
        }
    }
    fpu_rtl_clock(s->rtl, now);
    s->rtl_edges++;
    if (took)
        fpu_rtl_set_request(s->rtl, NULL, 0);
    return act == UNIT_BUSY || s->rtl_occ ? UNIT_BUSY : UNIT_IDLE;
}

static void cosim_stats_derived(struct unit *u, struct stats_writer *w)
{
    lockstep_emit_rows(u, w, cosim_rows);
}

/* ---- queries ------------------------------------------------------------------ */

/* The end of the comparison: results still in one pipe and not the other. */
static void lockstep_finish(struct unit *u, uint64_t now)
{
    struct fpu_cosim *s = unit_state(u);
    if (s->c_occupancy || s->rtl_occ) {
        lockstep_report(u, "cosim mismatch: unit %s port response: at the end %u results are in "
                        "the c-model's pipe and %u in the rtl's", unit_name(u), s->c_occupancy,
                        s->rtl_occ);
        s->ls.unmatched += s->c_occupancy > s->rtl_occ ? s->c_occupancy - s->rtl_occ
                                                       : s->rtl_occ - s->c_occupancy;
        lockstep_mismatch(u, now);
    }
}

/* ---- the kinds ---------------------------------------------------------------- */

const struct lockstep_desc fpu_cosim_desc = {
    .c_kind = "fpu",
    .modes = 1u << COSIM_MODE_RTL | 1u << COSIM_MODE_LOCKSTEP,
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

#define FPU_KIND(sym, name, text) \
    LOCKSTEP_KIND(sym, name, struct fpu_cosim, cosim_params, cosim_ports, NULL, NULL, text)

FPU_KIND(fpu_rtl_ops, "fpu:rtl",
         "fpu as RTL: rtl-cosim/rtl/fpu_pipe.sv, Verilated, behind the C unit's ports.");
FPU_KIND(fpu_lockstep_ops, "fpu:lockstep",
         "fpu in lockstep: the C unit drives the ports, the RTL runs beside it; every "
         "cycle's output is compared (tag, per-lane results and flags, status; exact).");
FPU_KIND(fpu_rtl_broken_ops, "fpu:rtl_broken",
         "fpu as RTL built with `define BROKEN (RU ignores sticky), to prove the checker.");
FPU_KIND(fpu_lockstep_broken_ops, "fpu:lockstep_broken",
         "fpu in lockstep against the BROKEN RTL: must report mismatches.");
