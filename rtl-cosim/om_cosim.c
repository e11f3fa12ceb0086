/* rtl-cosim/om_cosim.c - see om_cosim.h. */
#include "rtl-cosim/om_cosim.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "fabric/stats.h"
#include "rtl-cosim/datapath_recording.h"
#include "rtl-cosim/om_rtl.h"
#include "units/om/om.h"

struct om_cosim {
    struct lockstep ls;             /* first: the co-simulation's params and reports */
    struct om_rtl *rtl;
    struct om_datapath datapath;
    uint64_t color_ops, bits_ops, depth_ops, no_answer;
    char record_datapath[PARAM_STRING_MAX];     /* datapath_recording.h, or "" */
    FILE *recording;
};

#define S struct om_cosim
/* the adapter's own params; om's come from om_ops (cosim_kinds.h) */
static const struct param_desc cosim_params[] = {
    LOCKSTEP_PARAMS(S, ls, "not used: the datapath answers within the C unit's cycle"),
    PARAM_STRING_FIELD("record_datapath", S, record_datapath, "",
                       "write every datapath request and the C block's answer to this file "
                       "(rtl-cosim/datapath_recording.h; gtsim-cosim datapath-replay)"),
    PARAM_END
};
#undef S

/* om's params and ports are om's own tables (units/om/om.c), joined to these
 * by the lookup (cosim_kinds.h): the adapter has no ports of its own. */
static const struct port_desc cosim_ports[] = { PORT_END };

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Equal as the comparison takes them: the same bits, or both NaN. */
static bool same_float(float a, float b)
{
    return bits_of(a) == bits_of(b) || (isnan(a) && isnan(b));
}

static bool lockstep_mode(const struct om_cosim *s)
{
    return s->ls.mode == COSIM_MODE_LOCKSTEP;
}

static void mismatch(struct unit *u)
{
    struct om_cosim *s = unit_state(u);
    lockstep_mismatch(u, om_rtl_clocks(s->rtl));
}

/* An RTL that did not answer: reported; the caller uses the C block's answer. */
static bool answered(struct unit *u, const char *port, uint64_t number)
{
    struct om_cosim *s = unit_state(u);
    if (om_rtl_answered(s->rtl))
        return true;
    s->no_answer++;
    s->ls.unmatched++;
    lockstep_report(u, "cosim error: unit %s block om_pixel port %s request #%" PRIu64
                    " cycle %" PRIu64 " (rtl clock %" PRIu64 "): out_valid low %u clocks after "
                    "in_valid (no answer; the C block's is used)", unit_name(u), port, number,
                    unit_cycle(u), om_rtl_clocks(s->rtl), OM_RTL_CLOCKS_PER_OP);
    mismatch(u);
    return false;
}

static void report_color(struct unit *u, const struct om_color_request *rq, const char *field,
                         uint32_t c_value, uint32_t rtl_value)
{
    struct om_cosim *s = unit_state(u);
    lockstep_report(u, "cosim mismatch: unit %s port colour request #%" PRIu64 " cycle %" PRIu64
                    " (rtl clock %" PRIu64 "): field %s: c-model 0x%08x, rtl 0x%08x (blend %d "
                    "pre %d post %d ia %d sf %u df %u fn %u saf %u daf %u afn %u lo %08x hi %08x "
                    "src %08x %08x %08x %08x src1 %08x %08x %08x %08x dst %08x %08x %08x %08x "
                    "const %08x %08x %08x %08x)",
                    unit_name(u), s->color_ops, unit_cycle(u), om_rtl_clocks(s->rtl), field,
                    c_value, rtl_value, rq->blend, rq->pre_clamp, rq->post_clamp,
                    rq->independent_alpha, rq->source_factor, rq->destination_factor,
                    rq->function, rq->source_alpha_factor, rq->destination_alpha_factor,
                    rq->alpha_function, bits_of(rq->lo), bits_of(rq->hi),
                    bits_of(rq->in.src[0]), bits_of(rq->in.src[1]), bits_of(rq->in.src[2]),
                    bits_of(rq->in.src[3]), bits_of(rq->in.src1[0]), bits_of(rq->in.src1[1]),
                    bits_of(rq->in.src1[2]), bits_of(rq->in.src1[3]), bits_of(rq->in.dst[0]),
                    bits_of(rq->in.dst[1]), bits_of(rq->in.dst[2]), bits_of(rq->in.dst[3]),
                    bits_of(rq->in.constant[0]), bits_of(rq->in.constant[1]),
                    bits_of(rq->in.constant[2]), bits_of(rq->in.constant[3]));
}

static bool dp_color(void *context, const struct om_color_request *rq, float out[4])
{
    struct unit *u = context;
    struct om_cosim *s = unit_state(u);
    s->color_ops++;
    float rtl_out[4];
    bool rtl_ok = om_rtl_color(s->rtl, rq, rtl_out);
    bool c_ok = true;
    if (lockstep_mode(s) || !om_rtl_answered(s->rtl) || s->recording)
        c_ok = om_color_compute(rq, out);
    if (s->recording) {
        struct dp_record record;
        dp_om_color(&record, unit_cycle(u), rq, c_ok, out);
        dp_recording_write(s->recording, &record);
    }
    if (!answered(u, "colour", s->color_ops))
        return c_ok;
    if (!lockstep_mode(s)) {
        memcpy(out, rtl_out, sizeof rtl_out);
        return rtl_ok;
    }
    s->ls.compared++;
    bool bad = false;
    static const char *const names[4] = { "color[0]", "color[1]", "color[2]", "color[3]" };
    for (unsigned c = 0; c < 4; c++)
        if (!same_float(out[c], rtl_out[c])) {
            report_color(u, rq, names[c], bits_of(out[c]), bits_of(rtl_out[c]));
            bad = true;
        }
    if (c_ok != rtl_ok) {
        report_color(u, rq, "color_bad", !c_ok, !rtl_ok);
        bad = true;
    }
    if (bad)
        mismatch(u);
    return c_ok;
}

static uint32_t dp_bits(void *context, bool logic, uint32_t op, uint32_t source,
                        uint32_t destination, uint32_t keep)
{
    struct unit *u = context;
    struct om_cosim *s = unit_state(u);
    s->bits_ops++;
    uint32_t r = om_rtl_bits(s->rtl, logic, op, source, destination, keep);
    uint32_t c = om_color_bits(logic, op, source, destination, keep);
    if (s->recording) {
        struct dp_record record;
        dp_om_bits(&record, unit_cycle(u), logic, op, source, destination, keep, c);
        dp_recording_write(s->recording, &record);
    }
    if (!answered(u, "bits", s->bits_ops))
        return c;
    if (!lockstep_mode(s))
        return r;
    s->ls.compared++;
    if (r != c) {
        lockstep_report(u, "cosim mismatch: unit %s port bits request #%" PRIu64 " cycle %" PRIu64
                        " (rtl clock %" PRIu64 "): field bits: c-model 0x%08x, rtl 0x%08x "
                        "(logic %d op %u source %08x destination %08x keep %08x)",
                        unit_name(u), s->bits_ops, unit_cycle(u), om_rtl_clocks(s->rtl), c, r,
                        logic, op, source, destination, keep);
        mismatch(u);
    }
    return c;
}

static uint32_t dp_depth(void *context, const struct ds_state *st, bool back_facing,
                         uint32_t format, float source_depth, uint32_t *depth, uint8_t *stencil)
{
    struct unit *u = context;
    struct om_cosim *s = unit_state(u);
    s->depth_ops++;
    uint32_t rtl_depth = *depth, c_depth = *depth;
    uint8_t rtl_stencil = *stencil, c_stencil = *stencil;
    uint32_t rf = om_rtl_depth(s->rtl, st, back_facing, format, source_depth, &rtl_depth,
                               &rtl_stencil);
    uint32_t cf = ds_test(st, back_facing, format, source_depth, &c_depth, &c_stencil);
    if (s->recording) {
        struct dp_record record;
        dp_om_depth(&record, unit_cycle(u), st, back_facing, format, source_depth, *depth,
                    *stencil, cf, c_depth, c_stencil);
        dp_recording_write(s->recording, &record);
    }
    bool use_rtl = answered(u, "depth", s->depth_ops) && !lockstep_mode(s);
    if (lockstep_mode(s) && om_rtl_answered(s->rtl)) {
        s->ls.compared++;
        const char *field = rf != cf ? "flags" : rtl_depth != c_depth ? "depth"
                          : rtl_stencil != c_stencil ? "stencil" : NULL;
        if (field) {
            lockstep_report(u, "cosim mismatch: unit %s port depth request #%" PRIu64
                            " cycle %" PRIu64 " (rtl clock %" PRIu64 "): field %s: c-model "
                            "flags 0x%x depth 0x%08x stencil 0x%02x, rtl flags 0x%x depth 0x%08x "
                            "stencil 0x%02x (format %u z %08x stored %08x/%02x dt %d dw %d df %u "
                            "st %d sw %d ds %d back %d front %u/%u/%u/%u %02x/%02x/%02x back "
                            "%u/%u/%u/%u %02x/%02x/%02x range %08x..%08x)",
                            unit_name(u), s->depth_ops, unit_cycle(u), om_rtl_clocks(s->rtl),
                            field, cf, c_depth, c_stencil, rf, rtl_depth, rtl_stencil, format,
                            bits_of(source_depth), *depth, *stencil, st->depth_test,
                            st->depth_write, st->depth_function, st->stencil_test,
                            st->stencil_write, st->double_sided, back_facing, st->front.function,
                            st->front.fail_op, st->front.depth_fail_op, st->front.pass_op,
                            st->front.test_mask, st->front.write_mask, st->front.reference,
                            st->back.function, st->back.fail_op, st->back.depth_fail_op,
                            st->back.pass_op, st->back.test_mask, st->back.write_mask,
                            st->back.reference, bits_of(st->min_depth), bits_of(st->max_depth));
            mismatch(u);
        }
    }
    *depth = use_rtl ? rtl_depth : c_depth;
    *stencil = use_rtl ? rtl_stencil : c_stencil;
    return use_rtl ? rf : cf;
}

/* ---- the descriptor ------------------------------------------------------------------- */

static int cosim_create(struct unit *u, struct gt_error *err)
{
    struct om_cosim *s = unit_state(u);
    if (!s->ls.c_unit) {
        /* rtl mode: the C unit carries everything but the datapath */
        s->ls.c_ops = &om_ops;
        s->ls.c_unit = unit_create_inner(u, &om_ops, err);
        if (!s->ls.c_unit)
            return -1;
    }
    s->datapath = (struct om_datapath){ u, dp_color, dp_bits, dp_depth };
    if (om_set_datapath(s->ls.c_unit, &s->datapath) < 0)
        return gt_error_set(err, "%s: the inner unit is not an om", unit_name(u));
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
    struct om_cosim *s = unit_state(u);
    s->rtl = om_rtl_create(s->ls.broken, s->ls.wave[0] != 0);
    om_rtl_reset(s->rtl);
    if (s->ls.wave[0] && om_rtl_trace_open(s->rtl, s->ls.wave, s->ls.wave_from, s->ls.wave_to) < 0)
        return gt_error_set(err, "%s: cannot write the wave '%s'", unit_name(u), s->ls.wave);
    if (s->record_datapath[0] &&
        !(s->recording = dp_recording_create(s->record_datapath, "om_pixel", unit_name(u), err)))
        return -1;
    return 0;
}

static void cosim_destroy(struct unit *u)
{
    struct om_cosim *s = unit_state(u);
    if (s->rtl)
        om_rtl_destroy(s->rtl);
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
    struct om_cosim *s = unit_state(u);
    om_rtl_trace_window(s->rtl, from, to);
}

static void cosim_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct om_cosim *s = unit_state(u);
    unit_write_stat_table(s->ls.c_unit, w);
    if (s->ls.c_ops->stats_derived)
        s->ls.c_ops->stats_derived(s->ls.c_unit, w);
    stats_emit_u64(w, "rtl.color_ops", s->color_ops, "requests",
                   "colour requests given to the RTL (float part)");
    stats_emit_u64(w, "rtl.bits_ops", s->bits_ops, "requests",
                   "bit requests given to the RTL (logic op, write disables; a 32-bit word)");
    stats_emit_u64(w, "rtl.depth_ops", s->depth_ops, "requests",
                   "late depth/stencil tests given to the RTL");
    stats_emit_u64(w, "rtl.clocks", s->rtl ? om_rtl_clocks(s->rtl) : 0, "cycles",
                   "RTL clocks (two a request)");
    stats_emit_u64(w, "compared", s->ls.compared, "requests", "lockstep: answers compared");
    stats_emit_u64(w, "mismatches", s->ls.mismatches, "requests",
                   "lockstep: answers that differ (and requests the RTL did not answer)");
    stats_emit_u64(w, "no_answer", s->no_answer, "requests",
                   "requests the RTL did not answer in its two clocks");
}

struct unit *om_cosim_c_unit(struct unit *u)
{
    if (!u || !cosim_unit_is(u) || strncmp(unit_kind(u), "om:", 3) != 0)
        return NULL;
    return lockstep_of(u)->c_unit;
}

const struct lockstep_desc om_cosim_desc = {
    .c_kind = "om",
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

#define OM_KIND(sym, name, text) \
    LOCKSTEP_KIND(sym, name, struct om_cosim, cosim_params, cosim_ports, NULL, NULL, text)

OM_KIND(om_rtl_ops, "om:rtl",
        "om with its datapath as RTL: rtl-cosim/rtl/om_pixel.sv (blend, logic ops, write "
        "disables, late depth/stencil), Verilated, inside the C unit.");
OM_KIND(om_lockstep_ops, "om:lockstep",
        "om in lockstep: the C datapath answers, the RTL computes every request beside it; "
        "answers compared field by field (exact; NaN equals NaN).");
OM_KIND(om_rtl_broken_ops, "om:rtl_broken",
        "om with the RTL datapath built with `define BROKEN (DECRSAT wraps), to prove the "
        "checker.");
OM_KIND(om_lockstep_broken_ops, "om:lockstep_broken",
        "om in lockstep against the BROKEN RTL: must report mismatches.");
