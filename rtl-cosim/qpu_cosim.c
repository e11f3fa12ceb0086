/* rtl-cosim/qpu_cosim.c - see qpu_cosim.h. */
#include "rtl-cosim/qpu_cosim.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fabric/stats.h"
#include "rtl-cosim/datapath_recording.h"
#include "rtl-cosim/qpu_alu_rtl.h"
#include "rtl-cosim/qpu_random.h"
#include "units/qpu/qpu.h"

struct qpu_cosim {
    struct lockstep ls;             /* first: the co-simulation's params and reports */
    struct qpu_alu_rtl *rtl;
    struct qpu_alu_datapath datapath;
    uint64_t instructions, no_answer;
    char record_datapath[PARAM_STRING_MAX];     /* datapath_recording.h, or "" */
    FILE *recording;
};

#define S struct qpu_cosim
/* the adapter's own params; qpu's come from qpu_ops (cosim_kinds.h) */
static const struct param_desc cosim_params[] = {
    LOCKSTEP_PARAMS(S, ls, "not used: the datapath answers within the C unit's cycle"),
    PARAM_STRING_FIELD("record_datapath", S, record_datapath, "",
                       "write every ALU request and the C datapath's answer to this file "
                       "(rtl-cosim/datapath_recording.h; gtsim-cosim datapath-replay)"),
    PARAM_END
};
#undef S

/* qpu's params and ports are qpu's own tables (units/qpu/qpu.c), joined to
 * these by the lookup (cosim_kinds.h): the adapter has no ports of its own. */
static const struct port_desc cosim_ports[] = { PORT_END };

static bool lockstep_mode(const struct qpu_cosim *s)
{
    return s->ls.mode == COSIM_MODE_LOCKSTEP;
}

static void dp_compute(void *context, const struct qpu_alu_request *rq,
                       struct qpu_alu_result *out)
{
    struct unit *u = context;
    struct qpu_cosim *s = unit_state(u);
    s->instructions++;
    struct qpu_alu_result rtl;
    memset(&rtl, 0, sizeof rtl);
    unsigned missing = qpu_alu_rtl_compute_many(s->rtl, rq, &rtl, 1);
    if (s->recording) {
        struct qpu_alu_result c;
        struct dp_record record;
        qpu_alu_compute(rq, &c);
        dp_qpu_alu(&record, unit_cycle(u), rq, &c);
        dp_recording_write(s->recording, &record);
    }
    if (missing) {
        qpu_alu_compute(rq, out);
        s->no_answer++;
        s->ls.unmatched++;
        lockstep_report(u, "cosim error: unit %s block qpu_alu port out_valid instruction #%"
                        PRIu64 " cycle %" PRIu64 " (rtl clock %" PRIu64 "): %u of 4 quads not "
                        "answered %u clocks after in_valid with their tag (the C answer is "
                        "used)", unit_name(u), s->instructions, unit_cycle(u),
                        qpu_alu_rtl_clocks(s->rtl), missing, QPU_ALU_RTL_LATENCY);
        lockstep_mismatch(u, qpu_alu_rtl_clocks(s->rtl));
        return;
    }
    if (!lockstep_mode(s)) {
        *out = rtl;
        return;
    }
    qpu_alu_compute(rq, out);
    s->ls.compared++;
    char what[160];
    if (qpu_alu_result_differs(out, &rtl, what, sizeof what)) {
        char text[400];
        unsigned lane = 0;
        sscanf(what, "element %u", &lane);
        qpu_alu_request_text(rq, lane, text, sizeof text);
        lockstep_report(u, "cosim mismatch: unit %s port alu instruction #%" PRIu64 " cycle %"
                        PRIu64 " (rtl clock %" PRIu64 "): %s (%s)", unit_name(u),
                        s->instructions, unit_cycle(u), qpu_alu_rtl_clocks(s->rtl), what, text);
        lockstep_mismatch(u, qpu_alu_rtl_clocks(s->rtl));
    }
}

/* ---- the descriptor ------------------------------------------------------------------- */

static int cosim_create(struct unit *u, struct gt_error *err)
{
    struct qpu_cosim *s = unit_state(u);
    if (!s->ls.c_unit) {
        /* rtl mode: the C unit carries everything but the datapath */
        s->ls.c_ops = &qpu_ops;
        s->ls.c_unit = unit_create_inner(u, &qpu_ops, err);
        if (!s->ls.c_unit)
            return -1;
    }
    s->datapath = (struct qpu_alu_datapath){ u, dp_compute };
    if (qpu_set_alu_datapath(s->ls.c_unit, &s->datapath) < 0)
        return gt_error_set(err, "%s: the inner unit is not a qpu", unit_name(u));
    return 0;
}

static int cosim_realize(struct unit *u, struct gt_error *err)
{
    (void)u;
    (void)err;
    return 0;
}

static int rtl_open(struct unit *u, struct gt_error *err)
{
    struct qpu_cosim *s = unit_state(u);
    s->rtl = qpu_alu_rtl_create(s->ls.broken, s->ls.wave[0] != 0);
    qpu_alu_rtl_reset(s->rtl);
    if (s->ls.wave[0] &&
        qpu_alu_rtl_trace_open(s->rtl, s->ls.wave, s->ls.wave_from, s->ls.wave_to) < 0)
        return gt_error_set(err, "%s: cannot write the wave '%s'", unit_name(u), s->ls.wave);
    if (s->record_datapath[0] &&
        !(s->recording = dp_recording_create(s->record_datapath, "qpu_alu", unit_name(u), err)))
        return -1;
    return 0;
}

static void cosim_destroy(struct unit *u)
{
    struct qpu_cosim *s = unit_state(u);
    if (s->rtl)
        qpu_alu_rtl_destroy(s->rtl);
    s->rtl = NULL;
    if (s->recording)
        fclose(s->recording);
    s->recording = NULL;
}

static enum unit_activity rtl_tick(struct unit *u)
{
    struct lockstep *ls = lockstep_of(u);
    return ls->c_ops->tick(ls->c_unit);
}

static void observe(struct unit *u, const struct port *p, const struct msg *m, uint64_t cycle)
{
    (void)u;
    (void)p;
    (void)m;
    (void)cycle;
}

static enum unit_activity lockstep_step(struct unit *u, uint64_t now, enum unit_activity c)
{
    (void)u;
    (void)now;
    return c;
}

static void lockstep_finish(struct unit *u, uint64_t now)
{
    (void)u;
    (void)now;
}

static void wave_window(struct unit *u, uint64_t from, uint64_t to)
{
    struct qpu_cosim *s = unit_state(u);
    qpu_alu_rtl_trace_window(s->rtl, from, to);
}

static void cosim_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct qpu_cosim *s = unit_state(u);
    unit_write_stat_table(s->ls.c_unit, w);
    if (s->ls.c_ops->stats_derived)
        s->ls.c_ops->stats_derived(s->ls.c_unit, w);
    stats_emit_u64(w, "rtl.instructions", s->instructions, "instructions",
                   "ALU and load-immediate instructions given to the RTL (16 elements each)");
    stats_emit_u64(w, "rtl.clocks", s->rtl ? qpu_alu_rtl_clocks(s->rtl) : 0, "cycles",
                   "RTL clocks (six an instruction: four quads, two stages)");
    stats_emit_u64(w, "compared", s->ls.compared, "instructions", "lockstep: answers compared");
    stats_emit_u64(w, "mismatches", s->ls.mismatches, "instructions",
                   "lockstep: answers that differ (and instructions the RTL did not answer)");
    stats_emit_u64(w, "no_answer", s->no_answer, "instructions",
                   "instructions the RTL did not answer on time");
}

const struct lockstep_desc qpu_cosim_desc = {
    .c_kind = "qpu",
    .modes = 1u << COSIM_MODE_RTL | 1u << COSIM_MODE_LOCKSTEP,
    .create = cosim_create,
    .realize = cosim_realize,
    .rtl_open = rtl_open,
    .destroy = cosim_destroy,
    .rtl_tick = rtl_tick,
    .observe = observe,
    .rtl_step = lockstep_step,
    .finish = lockstep_finish,
    .wave_window = wave_window,
    .stats_derived = cosim_stats_derived,
};

#define QPU_KIND(sym, name, text) \
    LOCKSTEP_KIND(sym, name, struct qpu_cosim, cosim_params, cosim_ports, NULL, NULL, text)

QPU_KIND(qpu_rtl_ops, "qpu:rtl",
         "qpu with its ALUs as RTL: rtl-cosim/rtl/qpu_alu.sv (unpack, add and mul ALUs, pack, "
         "conditions, flags), Verilated, inside the C unit.");
QPU_KIND(qpu_lockstep_ops, "qpu:lockstep",
         "qpu in lockstep: the C ALUs answer, the RTL computes every instruction beside them; "
         "answers compared element by element (exact).");
QPU_KIND(qpu_rtl_broken_ops, "qpu:rtl_broken",
         "qpu with the RTL ALUs built with `define BROKEN (fmul truncates), to prove the "
         "checker.");
QPU_KIND(qpu_lockstep_broken_ops, "qpu:lockstep_broken",
         "qpu in lockstep against the BROKEN RTL: must report mismatches.");
