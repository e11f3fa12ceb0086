/* rtl-cosim/datapath_replay.c - see datapath_replay.h. */
#include "rtl-cosim/datapath_replay.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "rtl-cosim/datapath_recording.h"
#include "rtl-cosim/om_rtl.h"
#include "rtl-cosim/qpu_alu_rtl.h"
#include "rtl-cosim/qpu_random.h"

struct replay {
    const struct datapath_replay_options *o;
    struct datapath_replay_result *r;
    struct om_rtl *om;
    struct qpu_alu_rtl *qpu;
    bool quiet;                     /* the wave pass: no reports */
};

static uint64_t clocks(const struct replay *p)
{
    return p->om ? om_rtl_clocks(p->om) : qpu_alu_rtl_clocks(p->qpu);
}

static void mismatch(struct replay *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(struct replay *p, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (p->r->mismatches++ == 0) {
        p->r->first_mismatch = clocks(p);
        p->r->first_record = p->r->records;
        snprintf(p->r->first_report, sizeof p->r->first_report, "%s", line);
    }
    if (p->o->report && !p->quiet)
        fprintf(p->o->report, "%s\n", line);
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static bool same_float(float a, float b)
{
    return bits_of(a) == bits_of(b) || (isnan(a) && isnan(b));
}

#define WHERE "cosim mismatch: replay %s unit %s port %s record #%" PRIu64 " cycle %" PRIu64 \
              " (rtl clock %" PRIu64 "): "
#define WHERE_ARGS(port, rec) p->o->path, p->r->unit, port, p->r->records, (rec)->cycle, clocks(p)

static bool no_answer(struct replay *p, const char *port, const struct dp_record *rec,
                      unsigned quads)
{
    p->r->no_answer++;
    mismatch(p, "cosim error: replay %s unit %s block %s port out_valid (%s) record #%" PRIu64
             " cycle %" PRIu64 " (rtl clock %" PRIu64 "): no answer%s", p->o->path, p->r->unit,
             p->r->block, port, p->r->records, rec->cycle, clocks(p),
             quads ? " from some quads with their tag" : " in the request's clocks");
    return false;
}

static void replay_color(struct replay *p, const struct dp_record *rec)
{
    struct dp_om_color_record c;
    dp_om_color_of(rec, &c);
    float v[4];
    bool ok = om_rtl_color(p->om, &c.rq, v);
    if (!om_rtl_answered(p->om)) {
        no_answer(p, "colour", rec, 0);
        return;
    }
    p->r->compared++;
    for (unsigned k = 0; k < 4; k++)
        if (!same_float(c.out[k], v[k])) {
            mismatch(p, WHERE "field color[%u]: c-model 0x%08x, rtl 0x%08x (blend %d sf %u df %u "
                     "fn %u saf %u daf %u afn %u src %08x dst %08x const %08x)",
                     WHERE_ARGS("colour", rec), k, bits_of(c.out[k]), bits_of(v[k]), c.rq.blend,
                     c.rq.source_factor, c.rq.destination_factor, c.rq.function,
                     c.rq.source_alpha_factor, c.rq.destination_alpha_factor,
                     c.rq.alpha_function, bits_of(c.rq.in.src[k]), bits_of(c.rq.in.dst[k]),
                     bits_of(c.rq.in.constant[k]));
            return;
        }
    if (ok != c.ok)
        mismatch(p, WHERE "field color_bad: c-model %d, rtl %d", WHERE_ARGS("colour", rec), !c.ok,
                 !ok);
}

static void replay_bits(struct replay *p, const struct dp_record *rec)
{
    struct dp_om_bits_record b;
    dp_om_bits_of(rec, &b);
    uint32_t v = om_rtl_bits(p->om, b.logic, b.op, b.source, b.destination, b.keep);
    if (!om_rtl_answered(p->om)) {
        no_answer(p, "bits", rec, 0);
        return;
    }
    p->r->compared++;
    if (v != b.answer)
        mismatch(p, WHERE "field bits: c-model 0x%08x, rtl 0x%08x (logic %d op %u source %08x "
                 "destination %08x keep %08x)", WHERE_ARGS("bits", rec), b.answer, v, b.logic,
                 b.op, b.source, b.destination, b.keep);
}

static void replay_depth(struct replay *p, const struct dp_record *rec)
{
    struct dp_om_depth_record d;
    dp_om_depth_of(rec, &d);
    uint32_t depth = d.stored_depth;
    uint8_t stencil = d.stored_stencil;
    uint32_t flags = om_rtl_depth(p->om, &d.st, d.back_facing, d.format, d.source_depth, &depth,
                                  &stencil);
    if (!om_rtl_answered(p->om)) {
        no_answer(p, "depth", rec, 0);
        return;
    }
    p->r->compared++;
    const char *field = flags != d.flags ? "flags" : depth != d.depth ? "depth"
                      : stencil != d.stencil ? "stencil" : NULL;
    if (field) {
        const struct ds_face *f = d.back_facing && d.st.double_sided ? &d.st.back : &d.st.front;
        mismatch(p, WHERE "field %s: c-model flags 0x%x depth 0x%08x stencil 0x%02x, rtl flags "
                 "0x%x depth 0x%08x stencil 0x%02x (format %u z %08x stored %08x/%02x dt %d dw %d "
                 "df %u st %d sw %d back %d face %u/%u/%u/%u %02x/%02x/%02x)",
                 WHERE_ARGS("depth", rec), field, d.flags, d.depth, d.stencil, flags, depth,
                 stencil, d.format, bits_of(d.source_depth), d.stored_depth, d.stored_stencil,
                 d.st.depth_test, d.st.depth_write, d.st.depth_function, d.st.stencil_test,
                 d.st.stencil_write, d.back_facing, f->function, f->fail_op, f->depth_fail_op,
                 f->pass_op, f->test_mask, f->write_mask, f->reference);
    }
}

static void replay_alu(struct replay *p, const struct dp_record *rec)
{
    struct qpu_alu_request rq;
    struct qpu_alu_result want, got;
    dp_qpu_alu_of(rec, &rq, &want);
    memset(&got, 0, sizeof got);
    unsigned missing = qpu_alu_rtl_compute_many(p->qpu, &rq, &got, 1);
    if (missing) {
        no_answer(p, "alu", rec, missing);
        return;
    }
    p->r->compared++;
    char what[160];
    if (qpu_alu_result_differs(&want, &got, what, sizeof what)) {
        char text[400];
        unsigned lane = 0;
        sscanf(what, "element %u", &lane);
        qpu_alu_request_text(&rq, lane < QPU_LANES ? lane : 0, text, sizeof text);
        mismatch(p, WHERE "%s (%s)", WHERE_ARGS("alu", rec), what, text);
    }
}

/* One pass over the recording; wave: the FST of RTL clocks from..to, or NULL. */
static int pass(const struct datapath_replay_options *o, struct datapath_replay_result *r,
                const char *wave, uint64_t from, uint64_t to, bool quiet, struct gt_error *err)
{
    struct dp_reader rd;
    if (dp_reader_open(&rd, o->path, err) < 0)
        return -1;
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    snprintf(r->block, sizeof r->block, "%s", rd.block);
    snprintf(r->unit, sizeof r->unit, "%s", rd.unit);
    struct replay p = { .o = o, .r = r, .quiet = quiet };
    bool om = strcmp(rd.block, "om_pixel") == 0;
    int rc = 0;
    if (om) {
        p.om = om_rtl_create(o->broken, wave != NULL);
        om_rtl_reset(p.om);
        if (wave && om_rtl_trace_open(p.om, wave, from, to) < 0)
            rc = gt_error_set(err, "datapath-replay: cannot write the wave '%s'", wave);
    } else {
        p.qpu = qpu_alu_rtl_create(o->broken, wave != NULL);
        qpu_alu_rtl_reset(p.qpu);
        if (wave && qpu_alu_rtl_trace_open(p.qpu, wave, from, to) < 0)
            rc = gt_error_set(err, "datapath-replay: cannot write the wave '%s'", wave);
    }
    struct dp_record rec;
    int got;
    while (rc == 0 && (got = dp_reader_next(&rd, &rec, err)) != 0) {
        if (got < 0) {
            rc = -1;
            break;
        }
        r->records++;
        switch (rec.kind) {
        case DP_COLOR: replay_color(&p, &rec); break;
        case DP_BITS: replay_bits(&p, &rec); break;
        case DP_DEPTH: replay_depth(&p, &rec); break;
        default: replay_alu(&p, &rec); break;
        }
    }
    r->clocks = clocks(&p);
    if (p.om)
        om_rtl_destroy(p.om);
    else
        qpu_alu_rtl_destroy(p.qpu);
    dp_reader_close(&rd);
    return rc;
}

int datapath_replay(const struct datapath_replay_options *o, struct datapath_replay_result *r,
                    struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    r->first_mismatch = UINT64_MAX;
    if (pass(o, r, NULL, 0, 0, false, err) < 0)
        return -1;
    if (!o->wave || !r->mismatches)
        return 0;
    uint64_t before = o->wave_before, after = o->wave_after;
    if (!before && !after) {
        before = 300;
        after = 20;
    }
    uint64_t from = r->first_mismatch > before ? r->first_mismatch - before : 0;
    uint64_t to = r->first_mismatch + after;
    struct datapath_replay_result again;
    if (pass(o, &again, o->wave, from, to, true, err) < 0)
        return -1;
    r->wave_written = true;
    r->wave_from = from;
    r->wave_to = to;
    return 0;
}
