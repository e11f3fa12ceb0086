/* units/sampler/sampler.c - the sampler unit: its parameters, ports and stats,
 * taking SEND messages from the EUs, and the tick; see sampler.h for what it
 * models and sampler_internal.h for the files of each concern. */
#include "units/sampler/sampler.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"
#include "units/sampler/sampler_internal.h"

static const struct param_desc smp_params[] = {
    PARAM_U32_FIELD("max_outstanding", struct smp, max_outstanding, 32, 1, SMP_MAX_TXN,
                    "messages in flight at most (in the pipeline or waiting for L3 lines)"),
    PARAM_U32_FIELD("latency", struct smp, latency, 100, 1, 100000,
                    "cycles from a message with a cache miss to its reply when no L3 is linked"),
    PARAM_U32_FIELD("gen", struct smp, gen, 9, 7, 9,
                    "generation of the message and state layouts when a thread names none"),
    PARAM_U32_FIELD("cache_lines", struct smp, cache_lines, 256, 0, 65536,
                    "L2 sampler cache lines of 64 B (0: none). The seed names the texture caches "
                    "(003 L3016, L3361) and Intel's Gen9 compute architecture paper the "
                    "subslice's \"L1 and L2 sampler caches\", neither a size: model choice (16 KiB)"),
    PARAM_U32_FIELD("cache_ways", struct smp, cache_ways, 4, 1, 64,
                    "L2 sampler cache ways (LRU); model choice"),
    PARAM_U32_FIELD("l1_lines", struct smp, l1_lines, 32, 0, 4096,
                    "L1 sampler cache lines of 64 B (0: none); no public size: model choice (2 KiB)"),
    PARAM_U32_FIELD("l1_ways", struct smp, l1_ways, 8, 1, 64,
                    "L1 sampler cache ways (LRU); model choice"),
    PARAM_U32_FIELD("hit_latency", struct smp, hit_latency, 20, 0, 100000,
                    "cycles from the end of a message's filtering to its reply when its lines "
                    "hit the L1 sampler cache; the seed gives no figure: model choice"),
    PARAM_U32_FIELD("l2_latency", struct smp, l2_latency, 12, 0, 100000,
                    "cycles a message's reply waits more when a line misses the L1 and hits "
                    "the L2; model choice"),
    PARAM_U32_FIELD("texels_per_cycle", struct smp, texels_per_cycle, 16, 1, 256,
                    "texels the sampler fetches a cycle (four 2x2 footprints: 64 B of RGBA8; "
                    "003 L3002 processes a subspan's 4 texel locations in parallel)"),
    PARAM_U32_FIELD("samples_per_cycle", struct smp, samples_per_cycle, 4, 1, 64,
                    "filter footprints (a NEAREST texel, a bilinear 2x2, one level of a "
                    "trilinear sample, one anisotropic subpixel, a gather, an ld) a cycle: the "
                    "public \"4 texels/clock\" a Gen9 subslice sampler (bilinear samples); "
                    "trilinear samples take two, anisotropic ones a footprint a subpixel and level"),
    PARAM_U32_FIELD("weight_bits", struct smp, weight_bits, 8, 0, 16,
                    "fraction bits of the linear filter weights (the seed gives none: 8, the "
                    "D3D11 subtexel precision; 0 = exact float)"),
    PARAM_END
};

static const struct port_desc smp_ports[] = {
    { .name = "eu", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND) | MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "SEND messages (SFID 2) from each EU (MSG_SEND; MSG_GENERIC is counted and dropped)" },
    { .name = "writeback", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_WRITEBACK),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "write-backs to the EU of the same index (MSG_WRITEBACK)" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL,
      .help = "sampler cache misses to the slice's L3 as read-only data (MSG_MEMORY_REQUEST)" },
    { .name = "l3_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL,
      .help = "their completions (MSG_MEMORY_RESPONSE)" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct smp, f, m, h)
static const struct stat_desc smp_stats[] = {
    C("messages", messages, "messages", "SEND messages taken"),
    C("msg.sample", by_type[SMP_COUNT_SAMPLE], "messages", "sample messages"),
    C("msg.sample_b", by_type[SMP_COUNT_SAMPLE_B], "messages", "sample_b messages"),
    C("msg.sample_l", by_type[SMP_COUNT_SAMPLE_L], "messages", "sample_l messages"),
    C("msg.sample_d", by_type[SMP_COUNT_SAMPLE_D], "messages", "sample_d messages"),
    C("msg.sample_lz", by_type[SMP_COUNT_SAMPLE_LZ], "messages", "sample_lz messages"),
    C("msg.ld", by_type[SMP_COUNT_LD], "messages", "ld messages"),
    C("msg.ld_lz", by_type[SMP_COUNT_LD_LZ], "messages", "ld_lz messages"),
    C("msg.resinfo", by_type[SMP_COUNT_RESINFO], "messages", "resinfo messages"),
    C("msg.lod", by_type[SMP_COUNT_LOD], "messages", "lod messages"),
    C("msg.sampleinfo", by_type[SMP_COUNT_SAMPLEINFO], "messages", "sampleinfo messages"),
    C("msg.ld_msaa", by_type[SMP_COUNT_LD_MSAA], "messages",
      "multisample loads: ld_mcs, ld2dms, ld2dms_w, ld2dss"),
    C("msg.sample_c", by_type[SMP_COUNT_SAMPLE_C], "messages",
      "shadow-compare samples: sample_c, sample_b_c, sample_l_c, sample_d_c, sample_c_lz"),
    C("msg.gather4", by_type[SMP_COUNT_GATHER4], "messages",
      "gathers: gather4, gather4_c, gather4_po, gather4_po_c"),
    C("msg.sample_minmax", by_type[SMP_COUNT_SAMPLE_MINMAX], "messages",
      "sample_min and sample_max messages"),
    C("msg.simd4x2", simd4x2, "messages", "messages in the SIMD4x2 form (any type)"),
    C("msg.other", by_type[SMP_COUNT_OTHER], "messages", "other message types (not modelled)"),
    C("texels", texels, "texels", "texels fetched from surfaces"),
    C("shadow_compares", shadow_compares, "texels",
      "texels compared with a reference (the _c messages' shadow prefilter)"),
    C("cube_edge_texels", cube_edge_texels, "texels",
      "texels read from an adjacent cube face (TEXCOORDMODE_CUBE)"),
    C("border_texels", border_texels, "texels", "texels replaced by (or blended with) the border colour"),
    C("footprints", footprints, "footprints",
      "filter footprints taken (the pipeline's samples_per_cycle work units)"),
    C("filter.nearest", by_filter[0], "samples", "pixel samples filtered NEAREST (one level)"),
    C("filter.bilinear", by_filter[1], "samples", "pixel samples filtered LINEAR on one level"),
    C("filter.trilinear", by_filter[2], "samples", "pixel samples blended from two levels"),
    C("filter.anisotropic", by_filter[3], "samples", "pixel samples filtered anisotropically"),
    C("l1_hits", l1_hits, "lines", "lines found in the L1 sampler cache"),
    C("l1_misses", l1_misses, "lines", "lines not in the L1 sampler cache (looked up in the L2)"),
    C("cache_hits", cache_hits, "lines", "lines found in the L2 sampler cache"),
    C("cache_misses", cache_misses, "lines", "lines not in the L2 sampler cache (L3 requests)"),
    C("lines", lines, "requests", "64-byte line requests made to the L3"),
    C("l3_replies", l3_replies, "replies", "line completions from the L3"),
    C("unsupported_messages", unsupported_messages, "messages",
      "message types, SIMD modes, filters or surfaces not modelled (zeros returned)"),
    C("unsupported_formats", unsupported_formats, "messages",
      "surface formats the sampler does not read (zeros returned)"),
    C("bad_messages", bad_messages, "messages", "malformed messages or replies (dropped)"),
    C("state_faults", state_faults, "messages", "binding table entries or surface states unreadable or refused"),
    C("bti_beyond_table", bti_beyond_table, "messages",
      "binding table indices beyond the thread's entry count (null surface)"),
    C("bad_sampler_state", bad_sampler_state, "messages",
      "SAMPLER_STATE or border colour unreadable or with reserved encodings (zeros returned)"),
    C("out_of_bounds", out_of_bounds, "texels", "ld coordinates or texels outside the surface (zeros)"),
    C("page_faults", page_faults, "texels", "texel reads of unmapped memory (zeros)"),
    C("aux.mcs_reads", mcs_reads, "texels", "MCS elements ld_mcs read"),
    C("aux.mcs_clear_samples", mcs_clear_samples, "texels",
      "ld2dms samples whose MCS said cleared (the state's clear colour)"),
    C("aux.ccs_reads", ccs_reads, "texels", "CCS elements read for texel fetches (Gen9 CCS_D/E)"),
    C("aux.ccs_clear_texels", ccs_clear_texels, "texels",
      "texels in CLEAR cache-line pairs (the state's clear colour)"),
    C("lines_dropped", lines_dropped, "lines", "lines beyond what one message may track (not timed)"),
    C("stall.l3", stall_l3, "cycles", "cycles with line requests held by a full L3 channel"),
    C("stall.writeback", stall_writeback, "cycles", "cycles with a reply held by a full channel"),
    C("stall.pipeline", stall_pipeline, "cycles",
      "cycles with a message waiting while the filter pipeline is busy"),
    C("stall.outstanding", stall_outstanding, "cycles",
      "cycles with a message waiting for a free slot (max_outstanding in flight)"),
    C("busy_cycles", busy_cycles, "cycles", "filter pipeline cycles taken by messages"),
    C("latency_sum", latency_sum, "cycles", "message latency summed over replied messages"),
    C("sunk", sunk, "messages", "generic (test) messages taken and dropped"),
    STAT_END
};
#undef C

void smp_warn_once(struct smp *s, struct unit *u, unsigned bit, const char *fmt, uint32_t a,
                   uint32_t b)
{
    if (s->warned & (1u << bit))
        return;
    s->warned |= 1u << bit;
    unit_log(u, SIM_LOG_NOTE, fmt, a, b);
}

static enum smp_count count_of(uint32_t message)
{
    switch (message) {
    case SAMPLER_SAMPLE: return SMP_COUNT_SAMPLE;
    case SAMPLER_SAMPLE_B: return SMP_COUNT_SAMPLE_B;
    case SAMPLER_SAMPLE_L: return SMP_COUNT_SAMPLE_L;
    case SAMPLER_SAMPLE_D: return SMP_COUNT_SAMPLE_D;
    case SAMPLER_SAMPLE_LZ: return SMP_COUNT_SAMPLE_LZ;
    case SAMPLER_LD: return SMP_COUNT_LD;
    case SAMPLER_LD_LZ: return SMP_COUNT_LD_LZ;
    case SAMPLER_RESINFO: return SMP_COUNT_RESINFO;
    case SAMPLER_LOD: return SMP_COUNT_LOD;
    case SAMPLER_SAMPLEINFO: return SMP_COUNT_SAMPLEINFO;
    case SAMPLER_LD_MCS:
    case SAMPLER_LD2DMS:
    case SAMPLER_LD2DMS_W:
    case SAMPLER_LD2DSS: return SMP_COUNT_LD_MSAA;
    case SAMPLER_SAMPLE_C:
    case SAMPLER_SAMPLE_B_C:
    case SAMPLER_SAMPLE_L_C:
    case SAMPLER_SAMPLE_D_C:
    case SAMPLER_SAMPLE_C_LZ: return SMP_COUNT_SAMPLE_C;
    case SAMPLER_GATHER4:
    case SAMPLER_GATHER4_C:
    case SAMPLER_GATHER4_PO:
    case SAMPLER_GATHER4_PO_C: return SMP_COUNT_GATHER4;
    case SAMPLER_SAMPLE_MIN:
    case SAMPLER_SAMPLE_MAX: return SMP_COUNT_SAMPLE_MINMAX;
    default: return SMP_COUNT_OTHER;
    }
}

static uint32_t free_txn(const struct smp *s)
{
    for (uint32_t i = 0; i < s->max_outstanding; i++)
        if (!s->txn[i].used)
            return i;
    return UINT32_MAX;
}

static void take_message(struct smp *s, struct unit *u, uint32_t eu, struct msg *m, uint32_t ti)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind == MSG_GENERIC) {
        s->sunk++;              /* the fabric's default workload: no hardware meaning */
        return;
    }
    if (m->kind != MSG_SEND || m->size < sizeof *p ||
        m->size < sizeof *p + (size_t)(p->mlen + p->ex_mlen) * EU_MSG_REG_BYTES) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message (%u bytes) from eu %u dropped",
                 msg_kind_name(m->kind), m->size, eu);
        return;
    }
    struct smp_txn *t = &s->txn[ti];
    t->used = true;
    t->eu = eu;
    t->nlines = 0;
    t->wb = NULL;
    t->start = unit_cycle(u);
    s->in_flight++;
    s->messages++;
    if (p->rlen) {
        t->wb = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                          (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * EU_MSG_REG_BYTES));
        struct eu_writeback_msg *w = (struct eu_writeback_msg *)t->wb->payload;
        memset(w->regs, 0, (size_t)p->rlen * EU_MSG_REG_BYTES);
        w->slot = p->slot;
        w->dst_reg = p->dst_reg;
        w->rlen = p->rlen;
        t->wb->tag = m->tag;
    }
    struct smp_exec *x = gt_xcalloc(1, sizeof *x);
    x->s = s;
    x->u = u;
    x->t = t;
    x->p = p;
    x->ctx = &p->ctx;
    x->gen = p->ctx.valid && p->ctx.gen ? p->ctx.gen : s->gen;
    x->rlen = p->rlen;
    x->wb = t->wb ? ((struct eu_writeback_msg *)t->wb->payload)->regs[0] : NULL;
    gpu_address_space_init(&x->as, sim_memory(unit_sim(u)),
                           (enum gpu_address_space_format)p->ctx.space_format, p->ctx.space_root);
    uint64_t texels = s->texels, footprints = s->footprints;
    bool known = smp_decode(x);
    s->by_type[count_of(x->req.message)]++;
    if (known && x->req.simd == SAMPLER_SIMD4X2)
        s->simd4x2++;
    if (!known || count_of(x->req.message) == SMP_COUNT_OTHER || !p->rlen) {
        /* zeros (the write-back was cleared) so the thread goes on; RLEN 0 is the
         * direct render target write (L4510-4527), not modelled */
        s->unsupported_messages++;
        smp_warn_once(s, u, 11, "sampler message type %u (SIMD mode %u) not modelled: zeros",
                      x->req.message, x->req.simd);
    } else {
        smp_execute(x);
    }
    free(x);
    smp_route_lines(s, u, ti, unit_cycle(u), s->texels - texels, s->footprints - footprints);
}

static int smp_realize(struct unit *u, struct gt_error *err)
{
    struct smp *s = unit_state(u);
    s->eus = unit_port_count(u, "eu");
    if (s->eus > SMP_MAX_EUS)
        return gt_error_set(err, "%u eu links; at most %d", s->eus, SMP_MAX_EUS);
    if (s->cache_lines && (s->cache_lines % s->cache_ways))
        return gt_error_set(err, "cache_lines (%u) must be a multiple of cache_ways (%u)",
                            s->cache_lines, s->cache_ways);
    if (s->l1_lines && (s->l1_lines % s->l1_ways))
        return gt_error_set(err, "l1_lines (%u) must be a multiple of l1_ways (%u)",
                            s->l1_lines, s->l1_ways);
    free(s->eu);
    free(s->wb);
    s->eu = gt_xcalloc(s->eus + 1, sizeof *s->eu);
    s->wb = gt_xcalloc(s->eus + 1, sizeof *s->wb);
    for (uint32_t i = 0; i < s->eus; i++) {
        s->eu[i] = unit_port(u, "eu", i);
        s->wb[i] = i < unit_port_count(u, "writeback") ? unit_port(u, "writeback", i) : NULL;
    }
    s->l3 = unit_port(u, "l3", 0);
    s->l3_reply = unit_port(u, "l3_reply", 0);
    smp_reply_queue_init(s, u);
    return 0;
}

static void smp_release(struct smp *s, struct unit *u)
{
    reply_queue_clear(&s->replies, unit_sim(u));
    if (s->txn)
        for (uint32_t i = 0; i < SMP_MAX_TXN; i++)
            if (s->txn[i].wb)
                msg_free(unit_sim(u), s->txn[i].wb);
    free(s->txn);
    free(s->cache_tag);
    free(s->cache_used);
    free(s->l1_tag);
    free(s->l1_used);
    fifo_release(&s->line_queue);
    s->txn = NULL;
    s->cache_tag = s->cache_used = NULL;
    s->l1_tag = s->l1_used = NULL;
}

static void smp_reset(struct unit *u)
{
    struct smp *s = unit_state(u);
    smp_release(s, u);
    s->txn = gt_xcalloc(SMP_MAX_TXN, sizeof *s->txn);
    s->cache_tag = gt_xcalloc(s->cache_lines ? s->cache_lines : 1, sizeof *s->cache_tag);
    s->cache_used = gt_xcalloc(s->cache_lines ? s->cache_lines : 1, sizeof *s->cache_used);
    s->cache_clock = 0;
    s->l1_tag = gt_xcalloc(s->l1_lines ? s->l1_lines : 1, sizeof *s->l1_tag);
    s->l1_used = gt_xcalloc(s->l1_lines ? s->l1_lines : 1, sizeof *s->l1_used);
    s->l1_clock = 0;
    fifo_init(&s->line_queue, sizeof(struct smp_pending_line));
    s->in_flight = 0;
    s->busy_until = 0;
}

static enum unit_activity smp_tick(struct unit *u)
{
    struct smp *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    smp_take_l3_replies(s, u);
    smp_send_replies(s, u);
    /* one message a cycle, when the filter pipeline is free and a transaction is */
    bool pipeline_free = s->busy_until <= now;
    uint32_t ti = pipeline_free ? free_txn(s) : UINT32_MAX;
    for (uint32_t k = 0; k < s->eus && ti != UINT32_MAX; k++) {
        uint32_t e = (s->next_eu + k) % s->eus;
        struct msg *m = port_pop(s->eu[e]);
        if (!m)
            continue;
        take_message(s, u, e, m, ti);
        msg_free(unit_sim(u), m);
        unit_progress(u);
        s->next_eu = (e + 1) % s->eus;
        break;
    }
    if (s->l3 && port_is_bound(s->l3))
        smp_send_lines(s, u);
    smp_send_replies(s, u);
    bool waiting = false;
    for (uint32_t e = 0; e < s->eus && !waiting; e++)
        waiting = port_peek(s->eu[e]) != NULL;
    if (waiting && !pipeline_free)
        s->stall_pipeline++;
    else if (waiting && free_txn(s) == UINT32_MAX)
        s->stall_outstanding++;
    if (waiting && s->busy_until > now + 1)
        unit_wake_at(u, s->busy_until);
    bool more = fifo_count(&s->line_queue) > 0 || smp_reply_due(s, now) ||
                (waiting && s->busy_until <= now + 1 && free_txn(s) != UINT32_MAX);
    return more ? UNIT_BUSY : UNIT_IDLE;
}

static void smp_destroy(struct unit *u)
{
    struct smp *s = unit_state(u);
    smp_release(s, u);
    reply_queue_free(&s->replies, unit_sim(u));
    free(s->eu);
    free(s->wb);
    s->eu = s->wb = NULL;
}

const struct unit_ops sampler_ops = {
    .kind = "sampler",
    .help = "Sampler (3D sampling engine) of a subslice, Gen7-Gen9: the sample family with its "
            "_b, _l, _d, _lz and _c forms, sample_min/max, gather4 and its _c/_po forms, ld, ld_lz, "
            "the multisample loads, resinfo, lod and sampleinfo, SIMD8/16/4x2, with the seed's LOD, "
            "address modes (cube across faces), filters (anisotropic) and shadow compare; L1 and L2 "
            "sampler caches, misses as L3 line requests (seed 003 L2962-4827).",
    .state_size = sizeof(struct smp),
    .params = smp_params,
    .ports = smp_ports,
    .stats = smp_stats,
    .realize = smp_realize,
    .reset = smp_reset,
    .tick = smp_tick,
    .destroy = smp_destroy,
};
