/* units/gs/gs_gen4.c - the Gen4 GS: GS_STATE, object staging and the GS
 * threads; see gs_gen4.h. */
#include "units/gs/gs_gen4.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/msg.h"
#include "fabric/sim.h"
#include "units/common/ff_stage.h"
#include "units/common/gen4_state.h"
#include "units/common/gen4_thread_output.h"
#include "units/common/stage_thread.h"
#include "units/common/thread_payload.h"
#include "units/common/urb.h"

/* ---- GS_STATE ------------------------------------------------------------------------ */

bool gs_gen4_read_state(struct sim *sim, const struct cs_state_packet *p,
                        uint64_t general_state_base, uint64_t offset, struct gs_gen4_state *st)
{
    memset(st, 0, sizeof *st);
    uint32_t dw[7];
    if (!gen4_state_read(sim, p, general_state_base, offset, dw, 7))
        return false;
    /* seed 001 L6534-7159 (the common layout, notes §3.6) */
    st->kernel_start = dw[0] & ~0x3fu;
    st->grf_blocks = ((dw[0] >> 1) & 7u) + 1;
    st->software_exception = (dw[1] >> 7) & 1u;
    st->illegal_opcode_exception = (dw[1] >> 13) & 1u;
    st->alternate_fp = (dw[1] >> 16) & 1u;
    st->binding_table_entries = (dw[1] >> 18) & 0xffu;
    st->per_thread_scratch = dw[2] & 0xfu;
    st->scratch_base = dw[2] & ~0x3ffu;
    st->dispatch_grf_start = dw[3] & 0xfu;
    st->vertex_read_offset = (dw[3] >> 4) & 0x3fu;
    st->vertex_read_length = (dw[3] >> 11) & 0x3fu;
    st->constant_read_offset = (dw[3] >> 18) & 0x3fu;
    st->constant_read_length = (dw[3] >> 25) & 0x3fu;
    st->maximum_threads = ((dw[4] >> 25) & 0x1fu) + 1;
    st->urb_entry_units = ((dw[4] >> 19) & 0x1fu) + 1;
    st->urb_entries = (dw[4] >> 11) & 0x7fu;
    st->statistics = (dw[4] >> 10) & 1u;
    st->sampler_state = dw[5] & ~0x1fu;
    st->sampler_count = dw[5] & 7u;
    st->reorder = (dw[6] >> 30) & 1u;
    st->discard_adjacency = (dw[6] >> 29) & 1u;
    st->maximum_vp_index = dw[6] & 0xfu;
    return true;
}

/* ---- object staging (L7160-7395) --------------------------------------------------- */

static void put(struct gs_gen4_object *out, uint32_t *count, uint32_t max, uint32_t topology,
                uint32_t edges, uint32_t n, const uint32_t *v)
{
    if (*count >= max)
        return;
    struct gs_gen4_object *o = &out[(*count)++];
    memset(o, 0, sizeof *o);
    o->n = (uint8_t)n;
    for (uint32_t i = 0; i < n; i++)
        o->v[i] = (uint8_t)v[i];
    o->topology = topology;
    o->edges = edges;
}

#define PUT(t, e, ...)                                                                        \
    do {                                                                                      \
        const uint32_t v_[] = { __VA_ARGS__ };                                                \
        put(out, &count, max, (t), (e), sizeof v_ / sizeof v_[0], v_);                        \
    } while (0)

uint32_t gs_gen4_stage_objects(uint32_t t, uint32_t flags, uint32_t n, bool reorder,
                               struct gs_gen4_object *out, uint32_t max, bool *unsupported)
{
    uint32_t count = 0;
    *unsupported = false;
    if (n > PRIM_MAX_VERTICES) {
        *unsupported = true;
        return 0;
    }
    switch (t) {
    case PRIM_POINTLIST:
    case PRIM_POINTLIST_BF:
        for (uint32_t i = 0; i < n; i++)
            PUT(t, 0, i);
        break;
    case PRIM_LINELIST:
        for (uint32_t i = 0; i + 1 < n; i += 2)
            PUT(t, 0, i, i + 1);
        break;
    case PRIM_LINELIST_ADJ:
        for (uint32_t i = 0; i + 3 < n; i += 4)
            PUT(t, 0, i, i + 1, i + 2, i + 3);
        break;
    case PRIM_LINESTRIP:
    case PRIM_LINESTRIP_BF:
    case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF:
        for (uint32_t i = 0; i + 1 < n; i++)
            PUT(t, 0, i, i + 1);
        break;
    case PRIM_LINESTRIP_ADJ:
        for (uint32_t i = 0; i + 3 < n; i++)
            PUT(t, 0, i, i + 1, i + 2, i + 3);
        break;
    case PRIM_LINELOOP:
        for (uint32_t i = 0; i + 1 < n; i++)
            PUT(t, 0, i, i + 1);
        if (n >= 2)
            PUT(t, 0, n - 1, 0);    /* [N] = (N-1, 0) */
        break;
    case PRIM_TRILIST:
    case PRIM_RECTLIST:
        for (uint32_t i = 0; i + 2 < n; i += 3)
            PUT(t, 0, i, i + 1, i + 2);
        break;
    case PRIM_TRILIST_ADJ:
        for (uint32_t i = 0; i + 5 < n; i += 6)
            PUT(t, 0, i, i + 1, i + 2, i + 3, i + 4, i + 5);
        break;
    case PRIM_TRISTRIP:
    case PRIM_TRISTRIP_REVERSE: {
        /* The table's four TRISTRIP rows come to one rule on the "odd"
         * (inverted) triangles - TRISTRIP's odd k, TRISTRIP_REV's even k:
         * typed TRISTRIP_REV, reordered (k, k+2, k+1) when Reorder is
         * enabled; the others (k, k+1, k+2) typed TRISTRIP. A lone strip
         * triangle from VF says whether it is inverted in PRIM_STRIP_ODD
         * (primitive.h); a whole strip starts inverted when it is a
         * TRISTRIP_REV. */
        bool inverted0 = n == 3 ? (flags & PRIM_STRIP_ODD) != 0
                                : (t == PRIM_TRISTRIP_REVERSE) != ((flags & PRIM_STRIP_ODD) != 0);
        for (uint32_t k = 0; k + 2 < n; k++) {
            bool inverted = inverted0 != (k % 2 == 1);
            if (!inverted)
                PUT(PRIM_TRISTRIP, 0, k, k + 1, k + 2);
            else if (reorder)
                PUT(PRIM_TRISTRIP_REVERSE, 0, k, k + 2, k + 1);
            else
                PUT(PRIM_TRISTRIP_REVERSE, 0, k, k + 1, k + 2);
        }
        break;
    }
    case PRIM_TRISTRIP_ADJ: {
        /* VF's objects come one per 6-vertex packet, reordered already
         * (units/vf); a longer packet is staged by the table (L7335-7360),
         * N taken even (N = 6 or 7, 8 or 9 share their rows): [0], then
         * even / odd k, the trailing object's rows where k = N/2 - 3 */
        if (n == 6) {
            PUT(t, 0, 0, 1, 2, 3, 4, 5);
            break;
        }
        uint32_t m = n & ~1u;
        for (uint32_t k = 0; m >= 6 && k + 2 < m / 2; k++) {
            bool last = k + 3 == m / 2;
            uint32_t b = 2 * k;
            if (k == 0 && last)
                PUT(t, 0, 0, 1, 2, 5, 4, 3);
            else if (k == 0)
                PUT(t, 0, 0, 1, 2, 6, 4, 3);
            else if (k % 2 == 0)    /* the trailing row is this one with N-1 for 2k+6 */
                PUT(t, 0, b, b - 2, b + 2, last ? b + 5 : b + 6, b + 4, b + 3);
            else                    /* "odd" objects reordered */
                PUT(t, 0, b, b + 3, b + 4, last ? b + 5 : b + 6, b + 2, b - 2);
        }
        break;
    }
    case PRIM_POLYGON:
        if (n == 4) {
            /* VF's QUADLIST / QUADSTRIP object (units/vf: a 4-vertex POLYGON,
             * already in the table's order (0,1,2,3) / (0,1,3,2)); the thread
             * is told the topology the table names for it (L7377-7395:
             * PrimTopologyType QUADLIST / QUADSTRIP), which VF's
             * PRIM_QUADSTRIP_OBJECT keeps */
            PUT((flags & PRIM_QUADSTRIP_OBJECT) ? PRIM_QUADSTRIP : PRIM_QUADLIST, 0, 0, 1, 2, 3);
            break;
        }
        /* fall through */
    case PRIM_TRIFAN:
    case PRIM_TRIFAN_NOSTIPPLE:
        for (uint32_t k = 0; k + 2 < n; k++) {
            uint32_t edges = 0;
            if (t == PRIM_POLYGON) {
                /* Edge Indicators (Table 5-1 R0.2 9:8): V0->V1 exterior on the
                 * first triangle, V2->V0 on the last; a lone triangle from VF
                 * knows its place from PrimStart / PrimEnd */
                bool first = n == 3 ? (flags & PRIM_START) != 0 : k == 0;
                bool last = n == 3 ? (flags & PRIM_END) != 0 : k + 3 == n;
                edges = (first ? 1u << 8 : 0u) | (last ? 1u << 9 : 0u);
            }
            PUT(t, edges, 0, k + 1, k + 2);
        }
        break;
    case PRIM_QUADLIST:
        for (uint32_t i = 0; i + 3 < n; i += 4)
            PUT(t, 0, i, i + 1, i + 2, i + 3);
        break;
    case PRIM_QUADSTRIP:
        for (uint32_t i = 0; 2 * i + 3 < n; i++)
            PUT(t, 0, 2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2);
        break;
    default:
        *unsupported = true;
        return 0;
    }
    return count;
}

#undef PUT

/* ---- the unit's side ----------------------------------------------------------------- */

enum job_phase {
    JOB_FREE = 0,
    JOB_ALLOC,              /* waits for a thread slot's worth of room, then its entry */
    JOB_ALLOC_WAIT,
    JOB_READ,               /* the object's vertices from the URB */
    JOB_DISPATCH,
    JOB_RUNNING,
    JOB_ENDED,
    JOB_DROPPED,            /* no thread ran (or the watchdog gave up on it) */
};

enum { TAG_ALLOC = 1, TAG_READ = 2 };

static uint32_t tag_of(uint32_t kind, uint32_t slot, uint32_t v)
{
    return GS_GEN4_TAG | kind << 16 | slot << 8 | v;
}

static struct gs_gen4_job *job_at(struct gs_gen4 *g, uint32_t k)
{
    return &g->jobs[(g->head + k) % GS_GEN4_JOBS];
}

static void deref(const struct gs_gen4_host *h, const uint32_t *handles, uint32_t count)
{
    while (count) {
        uint32_t n = count < URB_MAX_HANDLES_PER_MSG ? count : URB_MAX_HANDLES_PER_MSG;
        h->urb_send(h->context, URB_OP_DEREFERENCE, 0, n, handles, 0, 0);
        handles += n;
        count -= n;
    }
}

/* The references an input packet owns (primitive.h owner_handle rule). */
static void release_packet(const struct gs_gen4_host *h, const struct primitive_packet *p)
{
    if (p->owner_handle != URB_HANDLE_NONE)
        deref(h, &p->owner_handle, 1);
    else
        deref(h, p->handles, p->vertex_count);
}

/* The constants the GS threads get (Constant URB Entry Read Offset / Length
 * of the CONSTANT_BUFFER, seed 001 L2502-2588), read from memory as CLIP and
 * SF do (urb_fence.h: the same bytes the CS copies into the URB). */
static void read_curbe(struct gs_gen4 *g, const struct gs_gen4_host *h,
                       const struct cs_state_packet *p)
{
    uint32_t rows = g->st.constant_read_length;
    if (rows > GS_GEN4_CURBE_REGS)
        rows = GS_GEN4_CURBE_REGS;
    g->curbe_regs = g->curbe_valid && g->enable ? rows : 0;
    memset(g->curbe, 0, sizeof g->curbe);
    if (!g->curbe_regs)
        return;
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(unit_sim(h->unit)),
                           (enum gpu_address_space_format)p->space_format, p->space_root);
    struct gt_error err;
    if (gpu_address_space_read(&as, g->curbe_address + (uint64_t)g->st.constant_read_offset * 32u,
                               g->curbe, (size_t)g->curbe_regs * 32u, &err) != 0) {
        memset(g->curbe, 0, sizeof g->curbe);
        g->curbe_faults++;
    }
}

bool gs_gen4_take_state(struct gs_gen4 *g, const struct gs_gen4_host *h,
                        const struct cs_state_packet *p)
{
    if (p->gen != 4)
        return false;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS: {
        const struct spec_STATE_BASE_ADDRESS *v = cs_state_common(p);
        if (v->GeneralStateBaseAddressModifyEnable)
            g->general_base = v->GeneralStateBaseAddress;
        return true;
    }
    case SPEC_ID_CONSTANT_BUFFER: {
        const struct spec_CONSTANT_BUFFER *v = cs_state_common(p);
        g->curbe_valid = v->Valid;
        g->curbe_address = v->BufferStartingAddress;
        read_curbe(g, h, p);
        return true;
    }
    case SPEC_ID_3DSTATE_PIPELINED_POINTERS: {
        const struct spec_3DSTATE_PIPELINED_POINTERS *pp = cs_state_common(p);
        g->enable = pp->GSEnable;
        if (g->enable) {
            g->state_reads++;
            if (!gs_gen4_read_state(unit_sim(h->unit), p, g->general_base, pp->PointerToGSState,
                                    &g->st)) {
                g->state_faults++;  /* issue 14 bad input: treated as disabled */
                g->enable = false;
                unit_log(h->unit, SIM_LOG_WARNING, "GS_STATE at general state offset 0x%llx "
                         "lies outside memory: GS passes objects on",
                         (unsigned long long)pp->PointerToGSState);
            } else if (h->urb_linked) {
                /* the GS region's entries (L6801-6827), in order before any
                 * allocation under this state */
                h->urb_send(h->context, URB_OP_CONFIGURE, 0, g->st.urb_entries, NULL, 0,
                            2 * g->st.urb_entry_units);
                g->configures++;
            }
        }
        read_curbe(g, h, p);
        return true;
    }
    case SPEC_ID_URB_FENCE:
        /* the GS region takes the fence now: the work before it is done
         * (state waits for the GS's threads, gs.c; urb_fence.h) */
        if (h->urb_linked) {
            h->urb_send(h->context, URB_OP_FENCE, 0, 0, NULL, 0, 0);
            g->fence_markers++;
        }
        return true;
    default:
        return false;
    }
}

int gs_gen4_work_primitive(struct gs_gen4 *g, const struct gs_gen4_host *h, struct msg *m,
                           uint64_t *invocations)
{
    (void)invocations;
    const struct primitive_packet *p = (const struct primitive_packet *)m->payload;
    if (!h->urb_linked || !h->threads) {
        /* nowhere to run the kernel: passed on unshaded (counted) */
        g->objects_unrun++;
        if (!g->warned_no_threads)
            unit_log(h->unit, SIM_LOG_WARNING, "Gen4 GS enabled with no \"td\" or \"urb\" "
                     "linked: objects pass through unshaded");
        g->warned_no_threads = true;
        return FF_STAGE_PASS;
    }
    if (g->msg != m) {
        bool unsupported;
        g->object_count = gs_gen4_stage_objects(p->topology, p->flags, p->vertex_count,
                                                g->st.reorder, g->objects, PRIM_MAX_VERTICES,
                                                &unsupported);
        g->object_next = 0;
        if (unsupported) {
            g->unsupported_topology++;
            unit_log(h->unit, SIM_LOG_NOTE, "Gen4 GS: topology %u of %u vertices cannot be "
                     "staged: dropped", p->topology, p->vertex_count);
            release_packet(h, p);
            return FF_STAGE_DONE;
        }
        g->msg = m;
    }
    /* one job per object, in order; each takes its own references */
    while (g->object_next < g->object_count) {
        if (g->count == GS_GEN4_JOBS)
            return FF_STAGE_NOT_NOW;
        struct gs_gen4_job *j = job_at(g, g->count);
        const struct gs_gen4_object *o = &g->objects[g->object_next];
        memset(j, 0, offsetof(struct gs_gen4_job, outputs));
        j->outputs.count = 0;
        j->object = *o;
        for (uint32_t k = 0; k < o->n; k++)
            j->handles[k] = p->handles[o->v[k]];
        j->instance = p->instance;
        j->primitive_id = p->primitive_id;
        j->draw = p->draw;
        j->entry = URB_HANDLE_NONE;
        j->phase = JOB_ALLOC;
        h->urb_send(h->context, URB_OP_REFERENCE, 0, o->n, j->handles, 0, 0);
        g->count++;
        g->object_next++;
        g->objects_staged++;
    }
    release_packet(h, p);
    g->msg = NULL;
    unit_wake_at(h->unit, unit_cycle(h->unit));
    return FF_STAGE_DONE;
}

/* ---- URB replies ---------------------------------------------------------------------- */

static uint32_t read_rows(const struct gs_gen4 *g)
{
    uint32_t len = g->st.vertex_read_length;
    if (g->st.vertex_read_offset + len > GS_GEN4_MAX_ROWS)
        len = g->st.vertex_read_offset < GS_GEN4_MAX_ROWS ? GS_GEN4_MAX_ROWS - g->st.vertex_read_offset
                                                          : 0;
    return len;
}

static void start_reads(struct gs_gen4 *g, const struct gs_gen4_host *h, struct gs_gen4_job *j)
{
    uint32_t len = read_rows(g), slot = (uint32_t)(j - g->jobs);
    if (!len) {
        j->phase = JOB_DISPATCH;
        return;
    }
    j->vue = calloc(j->object.n, sizeof *j->vue);
    j->phase = JOB_READ;
    j->reads_pending = j->object.n;
    for (uint32_t v = 0; v < j->object.n; v++)
        h->urb_send(h->context, URB_OP_READ, tag_of(TAG_READ, slot, v), 1, &j->handles[v],
                    g->st.vertex_read_offset, len);
}

void gs_gen4_take_urb_reply(struct gs_gen4 *g, const struct gs_gen4_host *h,
                            const struct urb_msg *q, uint32_t size)
{
    uint32_t kind = (q->tag >> 16) & 0xffu, slot = (q->tag >> 8) & 0xffu, v = q->tag & 0xffu;
    struct gs_gen4_job *j = slot < GS_GEN4_JOBS ? &g->jobs[slot] : NULL;
    if (q->op == URB_OP_ALLOCATED && kind == TAG_ALLOC && j && j->phase == JOB_ALLOC_WAIT) {
        g->alloc_wait_cycles += unit_cycle(h->unit) - j->since;
        if (q->count < 1) {
            g->refused_entries++;   /* more than the GS region holds: the object is dropped */
            deref(h, j->handles, j->object.n);
            j->phase = JOB_DROPPED;
            return;
        }
        g->entries++;
        j->entry = q->handles[0];
        if (q->count > 1)
            deref(h, q->handles + 1, q->count - 1);
        start_reads(g, h, j);
        return;
    }
    if (q->op == URB_OP_DATA && kind == TAG_READ && j && j->phase == JOB_READ && j->vue &&
        v < j->object.n && j->reads_pending) {
        uint32_t rows = q->rows < read_rows(g) ? q->rows : read_rows(g);
        if (size >= sizeof *q + (size_t)rows * URB_ROW_BYTES)
            memcpy(j->vue[v], q->data, (size_t)rows * URB_ROW_BYTES);
        if (--j->reads_pending == 0)
            j->phase = JOB_DISPATCH;
        return;
    }
    if (q->op == URB_OP_ALLOCATED)
        deref(h, q->handles, q->count < URB_MAX_HANDLES_PER_MSG ? q->count : URB_MAX_HANDLES_PER_MSG);
    g->bad_replies++;
}

/* ---- the threads ------------------------------------------------------------------------ */

static void kernel_of(const struct gs_gen4 *g, struct stage_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->enable = true;
    k->kernel_start = g->st.kernel_start;
    k->binding_table_entries = g->st.binding_table_entries;
    k->sampler_state = (uint32_t)g->st.sampler_state;
    k->scratch_base = g->st.scratch_base;
    k->per_thread_scratch = g->st.per_thread_scratch;
    k->max_threads = g->st.maximum_threads ? g->st.maximum_threads : 1;
    k->simd = 8;
    k->alternate_fp = g->st.alternate_fp;
    k->illegal_opcode_exception = g->st.illegal_opcode_exception;
    k->software_exception = g->st.software_exception;
}

static void dispatch(struct gs_gen4 *g, const struct gs_gen4_host *h, struct gs_gen4_job *j,
                     const struct stage_kernel *k, uint64_t *invocations)
{
    uint32_t slot = (uint32_t)(j - g->jobs);
    uint32_t first = g->st.dispatch_grf_start;
    if (first < 1) {                /* R0 is the fixed payload header (Table 5-1) */
        g->bad_grf_start++;
        first = 1;
    }
    uint32_t len = read_rows(g);
    uint32_t total = first + g->curbe_regs + j->object.n * len;
    if (total > THREAD_PAYLOAD_MAX_REGS) {
        g->payload_truncated++;
        total = THREAD_PAYLOAD_MAX_REGS;
    }
    j->seq = ++g->job_seq & 0xffffffu;
    uint64_t tag = gen4_thread_tag(slot, j->seq);
    struct msg *m = stage_threads_new(h->threads, h->unit, k, h->bases, h->space, total, 0xffu, tag);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    uint8_t (*grf)[32] = d->grf;
    uint32_t r0[8];
    memcpy(r0, grf[0], sizeof r0);
    r0[0] = (slot & 0x7fu) << 16 | (j->entry & 0x1ffu);    /* Handle ID 22:16, URB handle 8:0 */
    r0[1] = 0;
    r0[2] = j->object.edges | (j->object.topology & 0x1fu);
    memcpy(grf[0], r0, sizeof r0);
    uint32_t reg = first;
    for (uint32_t c = 0; c < g->curbe_regs && reg < total; c++)
        memcpy(grf[reg++], g->curbe[c], 32);
    for (uint32_t v = 0; v < j->object.n; v++)
        for (uint32_t r = 0; r < len && reg < total; r++, reg++)
            if (j->vue)
                memcpy(grf[reg], j->vue[v][r], 32);
    stage_threads_send(h->threads, h->unit, m);
    /* the payload holds the object's vertices: its references go (L9256-9265
     * says so of CLIP; the GS reads them the same way) */
    deref(h, j->handles, j->object.n);
    free(j->vue);
    j->vue = NULL;
    j->phase = JOB_RUNNING;
    j->since = unit_cycle(h->unit);
    g->threads_dispatched++;
    if (g->st.statistics)
        (*invocations)++;           /* GS_INVOCATION_COUNT per object dispatched (L8566-8573) */
}

static void drop_job(struct gs_gen4 *g, const struct gs_gen4_host *h, struct gs_gen4_job *j)
{
    (void)g;
    /* the payload's entry may have come back as an output */
    if (!gen4_thread_outputs_hold(&j->outputs, j->entry) && j->entry != URB_HANDLE_NONE)
        deref(h, &j->entry, 1);
    deref(h, j->outputs.handle, j->outputs.count);
    j->outputs.count = 0;
    j->phase = JOB_DROPPED;
}

struct notice_context {
    struct gs_gen4 *g;
    const struct gs_gen4_host *h;
};

static struct gen4_thread_outputs *notice_running(void *context, uint32_t slot, uint32_t seq)
{
    struct notice_context *c = context;
    struct gs_gen4_job *j = slot < GS_GEN4_JOBS ? &c->g->jobs[slot] : NULL;
    return j && j->phase == JOB_RUNNING && j->seq == seq ? &j->outputs : NULL;
}

static void notice_ended(void *context, uint32_t slot)
{
    struct notice_context *c = context;
    c->g->jobs[slot].phase = JOB_ENDED;
}

static void notice_free_entry(void *context, uint32_t handle)
{
    struct notice_context *c = context;
    deref(c->h, &handle, 1);
}

static void take_notices(struct gs_gen4 *g, const struct gs_gen4_host *h)
{
    struct notice_context c = { g, h };
    const struct gen4_notice_host host = { &c, notice_running, notice_ended, notice_free_entry };
    gen4_thread_notices_take(h->threads, h->unit, &host, &g->notices);
}

/* GS thread output topologies (L8311-8335) */
static bool output_topology_valid(uint32_t t)
{
    switch (t) {
    case PRIM_LINELIST: case PRIM_LINESTRIP: case PRIM_LINESTRIP_BF: case PRIM_LINESTRIP_CONT:
    case PRIM_LINESTRIP_CONT_BF: case PRIM_POINTLIST: case PRIM_POINTLIST_BF: case PRIM_POLYGON:
    case PRIM_RECTLIST: case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_TRILIST:
    case PRIM_TRISTRIP: case PRIM_TRISTRIP_REVERSE:
        return true;
    default:
        return false;
    }
}

struct emit_context {
    struct gs_gen4 *g;
    const struct gs_gen4_host *h;
    const struct gs_gen4_job *j;
};

static void emit_primitive(void *context, uint32_t topology, const uint32_t *handles,
                           uint32_t count)
{
    struct emit_context *c = context;
    if (!output_topology_valid(topology) || count > PRIM_MAX_VERTICES) {
        if (count > PRIM_MAX_VERTICES)
            c->g->notices.output_overflow += count;
        else
            c->g->bad_output_topology++;
        deref(c->h, handles, count);
        return;
    }
    struct msg *m = msg_alloc(unit_sim(c->h->unit), MSG_PRIMITIVE, sizeof(struct primitive_packet));
    struct primitive_packet *p = (struct primitive_packet *)m->payload;
    memset(p, 0, sizeof *p);
    p->topology = topology;
    p->flags = PRIM_START | PRIM_END;
    p->vertex_count = count;
    p->instance = c->j->instance;
    p->primitive_id = c->j->primitive_id;
    p->draw = c->j->draw;
    p->owner_handle = URB_HANDLE_NONE;
    memcpy(p->handles, handles, count * sizeof *handles);
    ff_stage_emit(c->h->stage, m);
    c->g->primitives_out++;
    c->g->vertices_out += count;
}

static void emit_dangling(void *context, const uint32_t *handles, uint32_t count)
{
    struct emit_context *c = context;
    c->g->dangling_outputs += count;
    deref(c->h, handles, count);
}

bool gs_gen4_step(struct gs_gen4 *g, const struct gs_gen4_host *h, uint64_t *invocations)
{
    if (h->threads)
        take_notices(g, h);
    uint64_t now = unit_cycle(h->unit);
    struct stage_kernel k;
    kernel_of(g, &k);
    uint32_t holding = 0;           /* jobs between their entry and their thread's end */
    uint64_t deadline = UINT64_MAX;    /* the earliest running thread's watchdog */
    bool held = false;
    for (uint32_t i = 0; i < g->count; i++) {
        struct gs_gen4_job *j = job_at(g, i);
        if (j->phase >= JOB_ALLOC_WAIT && j->phase <= JOB_RUNNING)
            holding++;
    }
    for (uint32_t i = 0; i < g->count; i++) {
        struct gs_gen4_job *j = job_at(g, i);
        if (j->phase == JOB_ALLOC) {
            /* spawn preconditions (L2112-2170): an output entry, and fewer
             * than Maximum Number of Threads; the entry is asked for only
             * when a thread could take it, so entries the running threads
             * ask for with Allocate are not held by objects still waiting */
            if (holding >= k.max_threads)
                break;
            h->urb_send(h->context, URB_OP_ALLOC, tag_of(TAG_ALLOC, (uint32_t)(j - g->jobs), 0), 1,
                        NULL, 0, 0);
            j->phase = JOB_ALLOC_WAIT;
            j->since = now;
            holding++;
        }
        if (j->phase == JOB_ALLOC_WAIT || j->phase == JOB_READ)
            break;                  /* dispatch is in object order */
        if (j->phase == JOB_DISPATCH) {
            if (!stage_threads_can_dispatch(h->threads, &k)) {
                held = true;
                break;
            }
            dispatch(g, h, j, &k, invocations);
        }
        if (j->phase == JOB_RUNNING && h->thread_timeout) {
            if (now - j->since >= h->thread_timeout) {
                g->watchdog_drops++;
                if (!g->warned_timeout)
                    unit_log(h->unit, SIM_LOG_WARNING, "a Gen4 GS thread ran past thread_timeout "
                             "(%llu cycles): its object is dropped",
                             (unsigned long long)h->thread_timeout);
                g->warned_timeout = true;
                drop_job(g, h, j);
            } else if (j->since + h->thread_timeout < deadline) {
                deadline = j->since + h->thread_timeout;
            }
        }
    }
    /* output in object order: a thread's VUEs wait for the threads before it
     * (L8544-8552) */
    while (g->count) {
        struct gs_gen4_job *j = job_at(g, 0);
        if (j->phase != JOB_ENDED && j->phase != JOB_DROPPED)
            break;
        if (j->phase == JOB_ENDED) {
            struct emit_context c = { g, h, j };
            struct gen4_output_sink sink = { &c, emit_primitive, emit_dangling };
            gen4_thread_outputs_split(&j->outputs, &sink);
        }
        free(j->vue);
        j->vue = NULL;
        j->phase = JOB_FREE;
        g->head = (g->head + 1) % GS_GEN4_JOBS;
        g->count--;
        unit_progress(h->unit);
    }
    if (deadline != UINT64_MAX)
        unit_wake_at(h->unit, deadline);
    return held;
}

bool gs_gen4_busy(const struct gs_gen4 *g)
{
    return g->count > 0 || g->msg != NULL;
}

void gs_gen4_clear(struct gs_gen4 *g)
{
    for (uint32_t i = 0; i < GS_GEN4_JOBS; i++) {
        free(g->jobs[i].vue);
        g->jobs[i].vue = NULL;
        g->jobs[i].phase = JOB_FREE;
    }
    g->head = g->count = 0;
    g->msg = NULL;
    g->object_count = g->object_next = 0;
}
