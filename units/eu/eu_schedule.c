/* units/eu/eu_schedule.c - the EU's scheduling (see eu.h): dispatch into
 * thread slots and thread end, the GRF and flag scoreboard, thread arbitration
 * (oldest first or round robin) and issue to the pipes, SENDs out and
 * write-backs in. */
#include "units/eu/eu_internal.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/sim.h"
#include "msg_desc.h"
#include "units/common/memreq.h"

/* ---- thread lifecycle ------------------------------------------------------------ */

void eu_account(struct eu *s, uint64_t now)
{
    if (now > s->last_account)
        s->thread_cycles += (now - s->last_account) * s->busy_slots;
    s->last_account = now;
}

void eu_flush_end_queue(struct eu *s)
{
    while (s->end_queue_len && port_can_send(s->td)) {
        port_try_send(s->td, s->end_queue[0]);
        memmove(s->end_queue, s->end_queue + 1, (s->end_queue_len - 1) * sizeof *s->end_queue);
        s->end_queue_len--;
    }
}

void eu_age_rebuild(struct eu *s)
{
    memset(s->age_rank, EU_AGE_NONE, sizeof s->age_rank);
    s->age_runnable = s->age_send_wait = 0;
    for (uint32_t k = 0; k < s->age_count; k++) {
        unsigned i = s->age_order[k];
        s->age_rank[i] = (uint8_t)k;
        s->age_runnable |= (s->runnable >> i & 1) << k;
        s->age_send_wait |= (s->send_wait >> i & 1) << k;
    }
}

static void free_slot(struct eu *s, struct unit *u, unsigned i)
{
    struct slot *sl = &s->slots[i];
    s->quiet = false;
    /* what no EOT message told a stage (thread_msg.h thread_life_ps) */
    bool told = sl->eot_sent && !sl->pending_msg;
    s->thread_cycles_after_eot += unit_cycle(u) - (told ? sl->eot_cycle : sl->start_cycle);
    if (sl->pending_msg) {
        msg_free(unit_sim(u), sl->pending_msg);
        sl->pending_msg = NULL;
        s->pending_msg_slots &= ~(1u << i);
    }
    if (port_is_bound(s->td)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, sizeof(struct eu_thread_end));
        struct eu_thread_end *e = (struct eu_thread_end *)m->payload;
        e->op = EU_TD_THREAD_END;
        e->request_id = sl->request_id;
        e->slot = (uint16_t)i;
        e->status = sl->end_status;
        e->ffid = sl->ffid;
        e->instructions = sl->instructions;
        m->tag = sl->request_id;
        if (s->end_queue_len == s->end_queue_cap) {
            /* only when dispatches arrive faster than the TD takes the ends
             * (a TD never re-dispatches a slot before seeing its end) */
            s->end_queue_cap *= 2;
            s->end_queue = gt_xrealloc(s->end_queue, s->end_queue_cap * sizeof *s->end_queue);
        }
        s->end_queue[s->end_queue_len++] = m;
        eu_flush_end_queue(s);
    }
    eu_account(s, unit_cycle(u));
    sl->busy = false;
    eu_slot_changed(s, i);
    for (uint32_t k = 0; k < s->age_count; k++)
        if (s->age_order[k] == i) {
            memmove(&s->age_order[k], &s->age_order[k + 1], s->age_count - k - 1);
            s->age_count--;
            break;
        }
    eu_age_rebuild(s);
    s->busy_slots--;
    s->active_threads = s->busy_slots;
    s->threads_ended++;
}

/* An EOT message about to leave: the thread's life on the EU so far, for
 * the stage that counts it (thread_msg.h eu_send_msg.thread_life_ps). The
 * slot frees only once the message has left (free_slot). */
static void stamp_thread_life(struct slot *sl, struct unit *u, struct msg *m)
{
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    if (p->flags & EU_SEND_EOT) {
        sl->eot_cycle = unit_cycle(u);
        sl->eot_sent = true;
        p->thread_life_ps = (sl->eot_cycle - sl->start_cycle) * unit_clock_period(u);
    }
}

/* The thread is over (EOT or killed); the slot frees when no write-back is due. */
static void end_thread(struct eu *s, struct unit *u, unsigned i, enum eu_thread_status st)
{
    struct slot *sl = &s->slots[i];
    s->quiet = false;
    sl->ended = true;
    eu_slot_changed(s, i);
    sl->end_status = (uint8_t)st;
    s->illegal += sl->th.counts.illegal;
    s->register_faults += sl->th.counts.register_faults;
    s->divide_by_zero += sl->th.counts.divide_by_zero;
    s->unmodelled += sl->th.counts.unmodelled;
    s->exceptions += sl->th.counts.exceptions;
    memset(&sl->th.counts, 0, sizeof sl->th.counts);
    if (st != EU_THREAD_OK) {
        s->threads_killed++;
        unit_log(u, SIM_LOG_NOTE, "thread %u (request %u) ended at ip 0x%x: %s", i, sl->request_id,
                 sl->th.ip,
                 st == EU_THREAD_ILLEGAL ? (sl->th.fault_reason ? sl->th.fault_reason : "illegal")
                 : st == EU_THREAD_FETCH_FAULT ? "instruction fetch fault"
                 : "max_thread_instructions exceeded");
    }
    /* A thread ended for bad programming sends no EOT of its own, and the
     * unit that tells its dispatcher it is over would wait for it forever
     * (a VS holding its state for a thread killed on a fetch fault hung the
     * pipeline: fuzz finding cs_batch-*-vf-vs-hang). The EU sends that unit
     * an EOT marked EU_SEND_THREAD_KILLED in the thread's place: the thread
     * spawner (SFID 7) for GPGPU threads, the URB (SFID 6) for the geometry,
     * clip and setup stages' threads, the render cache (SFID 5) for pixel
     * threads. The hardware's behaviour after such a fault is not in the
     * seeds; this keeps the rest of the pipeline running, counted. */
    uint32_t killed_sfid = sl->ffid == FFID_GPGPU ? EU_SFID_TS
                         : sl->ffid == FFID_PS ? EU_SFID_RENDER_CACHE
                         : sl->ffid != FFID_NONE && sl->ffid < FFID_COUNT ? EU_SFID_URB
                         : EU_SFID_PORTS;
    if (st != EU_THREAD_OK && sl->ctx.valid && !sl->pending_msg && killed_sfid < EU_SFID_PORTS &&
        port_is_bound(s->sfid[killed_sfid])) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_SEND, sizeof(struct eu_send_msg));
        struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
        p->sfid = (uint8_t)killed_sfid;
        p->slot = (uint8_t)i;
        p->flags = EU_SEND_EOT | EU_SEND_DST_NULL | EU_SEND_THREAD_KILLED;
        p->ffid = sl->ffid;
        p->ctx = sl->ctx;
        m->tag = i;
        stamp_thread_life(sl, u, m);
        if (!port_try_send(s->sfid[killed_sfid], m)) {
            sl->pending_msg = m;
            sl->pending_port = s->sfid[killed_sfid];
            sl->blocked_send = true;
            eu_slot_changed(s, i);
            s->pending_msg_slots |= 1u << i;
        }
    }
    if (sl->pending_wb == 0 && !sl->pending_msg)
        free_slot(s, u, i);
}

static void allocate(struct eu *s)
{
    s->slots = gt_xaligned_calloc(alignof(struct slot), s->threads * sizeof *s->slots);
    uint32_t cap = 16;
    while (cap < s->decode_cache_entries)
        cap *= 2;
    s->dcache = gt_xcalloc(cap, sizeof *s->dcache);
    s->own = gt_xcalloc(cap, sizeof *s->own);
    s->dindex = gt_xcalloc(cap, sizeof *s->dindex);
    s->dcache_mask = cap - 1;
    s->dcache_used = 0;
    eu_slot_masks_clear(s);
    s->iline_count = s->icache_linked ? s->fetch_buffer_lines : s->icache_kib * 1024 / 64;
    s->iline_pow2 = (s->iline_count & (s->iline_count - 1)) == 0;
    s->itags = gt_xcalloc(s->iline_count, sizeof *s->itags);
    memset(s->fetches, 0, sizeof s->fetches);
    s->fetches_unsent = s->fetches_used = s->fetches_end = 0;
    s->end_queue_cap = s->threads + 1;
    s->end_queue = gt_xcalloc(s->end_queue_cap, sizeof *s->end_queue);
}

bool eu_start_thread(struct eu *s, struct unit *u, struct msg *m)
{
    if (!s->slots)
        allocate(s);
    unsigned i;
    for (i = 0; i < s->threads; i++)
        if (!s->slots[i].busy)
            break;
    if (i == s->threads)
        return false;
    s->quiet = false;
    struct slot *sl = &s->slots[i];
    const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
    bool ok = m->size >= sizeof *d && d->op == EU_TD_DISPATCH &&
              m->size >= sizeof *d + (size_t)d->grf_count * EU_MSG_REG_BYTES &&
              (uint32_t)d->grf_start + d->grf_count <= EU_GRF_COUNT &&
              (d->gen == 0 || d->gen == 4 || d->gen == 7 || d->gen == 8 || d->gen == 9) &&
              d->space_format <= GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL;
    memset(sl, 0, offsetof(struct slot, th));      /* (clears the fetch hint too) */
    sl->busy = true;
    sl->start_cycle = unit_cycle(u);
    sl->age = ++s->age_counter;
    s->age_rank[i] = (uint8_t)s->age_count;
    s->age_order[s->age_count++] = (uint8_t)i;
    eu_slot_changed(s, i);
    /* the cycles up to now are the busy slots' before this one (accounted
     * after the increment, an EU idle since its last tick counted the new
     * thread over the idle gap) */
    eu_account(s, unit_cycle(u));
    s->busy_slots++;
    s->active_threads = s->busy_slots;
    if (s->active_threads > s->active_threads_peak)
        s->active_threads_peak = s->active_threads;
    s->threads_dispatched++;
    if (!ok) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "malformed thread dispatch (%u bytes) dropped", m->size);
        sl->request_id = m->size >= 8 ? d->request_id : 0;
        sl->ended = true;
        eu_slot_changed(s, i);
        sl->end_status = EU_THREAD_BAD_DISPATCH;
        s->threads_killed++;
        free_slot(s, u, i);
        return true;
    }
    sl->request_id = d->request_id;
    sl->ffid = d->ffid;
    sl->ctx = d->ctx;
    const unsigned char *ctx_byte = (const unsigned char *)&sl->ctx;
    sl->ctx_bytes = sizeof sl->ctx;
    while (sl->ctx_bytes && !ctx_byte[sl->ctx_bytes - 1])
        sl->ctx_bytes--;
    s->call_msg_ctx[i] = false;
    int gen = d->gen ? d->gen : (int)s->gen;
    uint32_t dmask = d->dmask ? d->dmask : (d->simd >= 32 ? ~0u : ((1u << (d->simd ? d->simd : 8)) - 1));
    eu_thread_init(&sl->th, gen, d->inst_base, d->kernel_offset, dmask);
    eu_thread_set_system(&sl->th, d->cr0_0, d->cr0_1, d->sip_valid, d->sip);
    memcpy(sl->th.grf + d->grf_start * EU_REG_BYTES, d->grf, (size_t)d->grf_count * EU_REG_BYTES);
    /* sr0.0: FFID 27:24, EUID 11:8 (left 0), TID 2:0 (L19938-19975) */
    uint32_t sr0 = (d->ffid & 15) << 24 | (i & 7);
    memcpy(sl->th.arf[EU_ARF_SR0], &sr0, 4);
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    gpu_address_space_init(&sl->space, mem, (enum gpu_address_space_format)d->space_format,
                           d->space_root);
    return true;
}

/* ---- sends and write-backs --------------------------------------------------------- */

static struct port *route(struct eu *s, unsigned sfid)
{
    if (sfid < EU_SFID_PORTS && port_is_bound(s->sfid[sfid]))
        return s->sfid[sfid];
    return port_is_bound(s->send) ? s->send : NULL;
}

static void issue_send(struct eu *s, struct unit *u, unsigned i, const struct eu_send_request *rq)
{
    struct slot *sl = &s->slots[i];
    struct eu_thread *t = &sl->th;
    unsigned regs = rq->mlen + rq->ex_mlen;
    s->quiet = false;
    uint32_t size = (uint32_t)(sizeof(struct eu_send_msg) + regs * EU_MSG_REG_BYTES);
    struct port *out = rq->sfid ? route(s, rq->sfid) : NULL;
    /* fast mode calls a port that takes calls: made in the edge commit, so
     * their effects on the receiver and on memory come in unit order,
     * whatever the tick order and thread count; the slot keeps its message */
    bool call = s->fast && !rq->eot && out && port_callable(out);
    struct msg *m = call ? s->call_msgs[i] : NULL;
    bool has_ctx = false;       /* the kept message holds this thread's ctx (as it stays) */
    bool zeroed = false;        /* the payload is all zeros */
    if (m && m->capacity >= size) {
        msg_reuse(unit_sim(u), m, MSG_SEND, size);
        has_ctx = s->call_msg_ctx[i];
    } else {
        zeroed = true;
        msg_free(unit_sim(u), m);
        m = msg_alloc(unit_sim(u), MSG_SEND, size);
        if (call)
            s->call_msgs[i] = m;
    }
    if (call)
        s->call_msg_ctx[i] = true;
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = rq->sfid;
    p->mlen = rq->mlen;
    p->ex_mlen = rq->ex_mlen;
    p->rlen = rq->rlen;
    p->slot = (uint8_t)i;
    p->dst_reg = rq->dst_reg;
    p->exec_size = rq->exec_size;
    p->flags = (uint8_t)((rq->eot ? EU_SEND_EOT : 0) | (rq->header_present ? EU_SEND_HEADER : 0) |
                         (rq->sendc ? EU_SEND_SENDC : 0) | (rq->dst_null ? EU_SEND_DST_NULL : 0) |
                         (rq->split ? EU_SEND_SPLIT : 0));
    p->desc = rq->desc;
    p->ex_desc = rq->ex_desc;
    p->exec_mask = rq->exec_mask;
    p->ffid = sl->ffid;
    p->reserved = 0;
    p->thread_life_ps = 0;
    /* into a zeroed payload only up to the ctx's last non-zero byte: a
     * compute thread's ctx is mostly the pixel shader's fields, all zero
     * (issue 19: the whole copy read five host cache lines of a cold slot
     * per SEND) */
    if (zeroed)
        memcpy(&p->ctx, &sl->ctx, sl->ctx_bytes);
    else if (!has_ctx)
        p->ctx = sl->ctx;
    for (unsigned r = 0; r < regs; r++) {
        /* GRFs on Gen7+, the message registers on Gen4 (eu_exec.h) */
        const uint8_t *src = eu_send_payload_reg(t, rq, r);
        if (src) {
            memcpy(p->regs[r], src, EU_REG_BYTES);
        } else {
            memset(p->regs[r], 0, EU_REG_BYTES);
            s->register_faults++;
        }
    }
    m->tag = i;
    s->sends++;
    bool wb = rq->rlen > 0 && !rq->eot;
    if (!out) {
        /* null SFID or nothing linked: the message goes nowhere; a reply
         * that will never come is taken as zeros so the thread cannot hang */
        s->sends_dropped++;
        msg_free(unit_sim(u), m);
        if (wb && !rq->dst_null)
            for (unsigned r = 0; r < rq->rlen && rq->dst_reg + r < EU_GRF_COUNT; r++)
                memset(t->grf + (rq->dst_reg + r) * EU_REG_BYTES, 0, EU_REG_BYTES);
        return;
    }
    /* A gateway BarrierMsg (SFID 3, SubFuncID 4, 003 L9024-9036): the thread
     * waits for the gateway's notification (a write-back with rlen 0). The
     * kernel's own `wait n0` that follows is a nop in eu_exec_alu.c, so the wait
     * is kept here, from the send on (only when the gateway is linked; a
     * predicated barrier with a response waits on its register instead). */
    if (rq->sfid == EU_SFID_GATEWAY && desc_gw_subfunction(rq->desc) == DESC_GW_BARRIER_MSG &&
        !rq->eot && !wb && out == s->sfid[EU_SFID_GATEWAY]) {
        sl->barrier_wait = true;
        eu_slot_changed(s, i);
        sl->after_barrier = true;
        sl->pending_wb++;
    }
    if (wb) {
        sl->pending_wb++;
        if (rq->dst_reg < EU_GRF_COUNT) {
            sl->wb_dword_mask[rq->dst_reg] = rq->wb_dword_mask;
            sl->wb_dword_first[rq->dst_reg] = rq->wb_dword_first;
        }
        for (unsigned r = 0; r < rq->rlen && rq->dst_reg + r < EU_GRF_COUNT; r++) {
            unsigned g = rq->dst_reg + r;
            sl->grf_ready[g] = NEVER;
            sl->never_mask[g / 64] |= UINT64_C(1) << (g % 64);
        }
    }
    if (rq->eot)
        stamp_thread_life(sl, u, m);
    if (call) {
        if (s->call_count == s->call_capacity) {
            s->call_capacity = s->call_capacity ? 2 * s->call_capacity : 8;
            s->calls = gt_xrealloc(s->calls, s->call_capacity * sizeof *s->calls);
        }
        s->calls[s->call_count++] = (struct eu_call){ m, out };
        unit_request_edge_commit(u);
        return;
    }
    if (!port_try_send(out, m)) {
        sl->pending_msg = m;
        sl->pending_port = out;
        sl->blocked_send = true;
        eu_slot_changed(s, i);
        s->pending_msg_slots |= 1u << i;
    }
}

/* A call's reply into s->arrivals, after every one due no later (replies to one
 * EU mostly come in order); the EU is woken on its cycle. */
static void arrival_push(struct eu *s, struct unit *u, uint64_t cycle, struct msg *reply)
{
    if (s->arrival_head == s->arrival_count)
        s->arrival_head = s->arrival_count = 0;
    if (s->arrival_count == s->arrival_capacity) {
        s->arrival_capacity = s->arrival_capacity ? 2 * s->arrival_capacity : 16;
        s->arrivals = gt_xrealloc(s->arrivals, s->arrival_capacity * sizeof *s->arrivals);
    }
    uint32_t at = s->arrival_count++;
    while (at > s->arrival_head && s->arrivals[at - 1].cycle > cycle) {
        s->arrivals[at] = s->arrivals[at - 1];
        at--;
    }
    s->arrivals[at] = (struct eu_arrival){ cycle, reply };
    unit_wake_at(u, cycle);
}

/* The edge commit: this tick's calls, in the order issued. A refused call (none
 * when port_callable said yes this edge) is a send to nowhere (issue_send): its
 * reply, if one is due, is taken as zeros on the next cycle, so the thread cannot
 * hang. */
void eu_edge_commit(struct unit *u)
{
    struct eu *s = unit_state(u);
    for (uint32_t k = 0; k < s->call_count; k++) {
        struct msg *m = s->calls[k].m, *reply;
        uint64_t cycle;
        if (port_call(s->calls[k].out, m, &reply, &cycle)) {
            if (reply)
                arrival_push(s, u, cycle, reply);
            continue;
        }
        const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
        s->sends_dropped++;
        if (p->rlen) {
            struct msg *zeros = msg_alloc(unit_sim(u), MSG_WRITEBACK,
                                          (uint32_t)(sizeof(struct eu_writeback_msg) +
                                                     p->rlen * EU_MSG_REG_BYTES));
            struct eu_writeback_msg *w = (struct eu_writeback_msg *)zeros->payload;
            w->slot = p->slot;
            w->dst_reg = p->dst_reg;
            w->rlen = p->rlen;
            arrival_push(s, u, unit_cycle(u) + 1, zeros);
        }
    }
    s->call_count = 0;
}

/* The calls' replies due by cycle now, taken as write-backs. */
void eu_take_arrivals(struct eu *s, struct unit *u, uint64_t now)
{
    while (eu_arrival_due(s, now)) {
        struct msg *m = s->arrivals[s->arrival_head++].m;
        eu_take_writeback(s, u, m);
        msg_free(unit_sim(u), m);
    }
}

void eu_release_calls(struct eu *s, struct unit *u)
{
    for (uint32_t k = s->arrival_head; k < s->arrival_count; k++)
        msg_free(unit_sim(u), s->arrivals[k].m);
    for (unsigned i = 0; i < EU_MAX_THREADS; i++) {     /* the calls' messages among them */
        msg_free(unit_sim(u), s->call_msgs[i]);
        s->call_msgs[i] = NULL;
        s->call_msg_ctx[i] = false;
    }
    s->call_count = s->arrival_head = s->arrival_count = 0;
}

void eu_take_writeback(struct eu *s, struct unit *u, struct msg *m)
{
    const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
    if (m->kind != MSG_WRITEBACK || m->size < sizeof *w ||
        m->size < sizeof *w + (size_t)w->rlen * EU_MSG_REG_BYTES || !s->slots || w->slot >= s->threads ||
        !s->slots[w->slot].busy || s->slots[w->slot].pending_wb == 0) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected write-back (kind %s, %u bytes) dropped",
                 msg_kind_name(m->kind), m->size);
        return;
    }
    struct slot *sl = &s->slots[w->slot];
    uint64_t now = unit_cycle(u);
    s->quiet = false;
    sl->dep_d = NULL;
    eu_slot_rejudge(s, w->slot);
    if (w->rlen == 0 && sl->barrier_wait) {
        sl->barrier_wait = false;       /* the barrier's notification */
        eu_slot_changed(s, w->slot);
    }
    for (unsigned r = 0; r < w->rlen; r++) {
        unsigned g = w->dst_reg + r;
        if (g >= EU_GRF_COUNT) {
            s->register_faults++;
            continue;
        }
        uint8_t dwords = sl->wb_dword_mask[g];
        if (dwords) {           /* a Gen4 math reply: its enabled channels only */
            unsigned first = sl->wb_dword_first[g];
            for (unsigned k = 0; k + first < EU_REG_BYTES / 4; k++)
                if (dwords >> k & 1u)
                    memcpy(sl->th.grf + g * EU_REG_BYTES + 4 * (first + k), w->regs[r] + 4 * k, 4);
            sl->wb_dword_mask[g] = 0;
        } else {
            memcpy(sl->th.grf + g * EU_REG_BYTES, w->regs[r], EU_REG_BYTES);
        }
        sl->grf_ready[g] = now;
        sl->never_mask[g / 64] &= ~(UINT64_C(1) << (g % 64));
    }
    s->writebacks++;
    sl->pending_wb--;
    if (sl->pending_wb == 0) {
        /* a reply shorter than rlen: only registers a SEND set to NEVER can be */
        for (unsigned k = 0; k < 2; k++)
            for (uint64_t b = sl->never_mask[k]; b; b &= b - 1) {
                unsigned g = k * 64 + (unsigned)__builtin_ctzll(b);
                if (sl->grf_ready[g] == NEVER)
                    sl->grf_ready[g] = now;
            }
        sl->never_mask[0] = sl->never_mask[1] = 0;
        if (sl->ended && !sl->pending_msg)
            free_slot(s, u, w->slot);
    }
}

/* ---- execution -------------------------------------------------------------------------- */

enum ready { R_OK, R_DEP, R_SEND };

/* The cycle from which every register and flag d reads or writes is ready:
 * NEVER when one waits for a SEND's write-back (or d reads registers
 * indirectly while one is due). Depends only on the slot's scoreboard, which changes only when the slot
 * issues or takes a write-back (both drop the slot's cached value). */
static inline __attribute__((always_inline)) uint64_t deps_at(const struct slot *sl,
                                                             const struct dinfo *d)
{
    if (d->reads_indirect && sl->pending_wb)
        return NEVER;
    uint64_t at = 0;
    if (d->reads_flags || d->writes_flags)
        at = sl->flags_ready;
    for (unsigned k = 0; k < d->nread; k++)
        for (unsigned g = d->read_lo[k]; g <= d->read_hi[k]; g++)
            if (sl->grf_ready[g] > at)
                at = sl->grf_ready[g];
    for (unsigned g = d->write_lo; g <= d->write_hi; g++)
        if (sl->grf_ready[g] > at)
            at = sl->grf_ready[g];
    return at;
}

/* deps_at for d, kept in the slot (dep_d, dep_at) until the slot issues or
 * takes a write-back (each drops dep_d). */
static inline __attribute__((always_inline)) uint64_t judged_deps(struct slot *sl,
                                                                 const struct dentry *d)
{
    if (sl->dep_d != d) {
        sl->dep_at = deps_at(sl, d->info);
        sl->dep_d = d;
    }
    return sl->dep_at;
}

/* Runs one instruction of slot i; returns false when the thread stopped
 * (ended, or blocked on a port). */
static bool run_one(struct eu *s, struct unit *u, unsigned i, const struct dinfo *d, uint64_t now,
                    bool timing, unsigned pipe)
{
    struct slot *sl = &s->slots[i];
    struct eu_send_request rq;
    enum eu_step_result r = EU_STEP_OK;
    s->quiet = false;
    sl->dep_d = NULL;
    eu_slot_rejudge(s, i);
    if (!d->fast.op || !eu_exec_fast(&sl->th, &d->fast)) {
        uint64_t unmodelled = sl->th.counts.unmodelled;
        r = eu_exec(&sl->th, dinfo_insn(d), &rq, now);
        /* a `wait` right after a gateway barrier is a nop by design: the
         * barrier's wait was kept at the send (issue_send); no warning */
        bool barrier_wait = sl->after_barrier && dinfo_insn(d)->opcode == EU_OPCODE_WAIT;
        sl->after_barrier = false;
        if (sl->th.counts.unmodelled > unmodelled && !s->warned_unmodelled && !barrier_wait) {
            s->warned_unmodelled = true;
            unit_log(u, SIM_LOG_WARNING, "%s is not modelled: executed as a nop (further ones "
                     "counted in unmodelled_instructions)",
                     dinfo_insn(d)->mnemonic ? dinfo_insn(d)->mnemonic : "?");
        }
    }
    s->instructions++;
    sl->instructions++;
    if (timing && r == EU_STEP_OK && d->write_hi >= d->write_lo) {
        uint32_t lat = d->latency_class == 1 ? s->math_latency
                     : d->latency_class == 2 ? s->df_latency
                     : pipe == EU_PIPE_EM ? s->em_latency : s->fpu_latency;
        uint64_t ready = now + d->occupancy + lat;
        for (unsigned g = d->write_lo; g <= d->write_hi; g++)
            sl->grf_ready[g] = ready;
    }
    if (timing && r == EU_STEP_OK && d->writes_flags) {
        uint32_t lat = pipe == EU_PIPE_EM ? s->em_latency : s->fpu_latency;
        sl->flags_ready = now + d->occupancy + lat;
    }
    switch (r) {
    case EU_STEP_OK:
        break;
    case EU_STEP_SEND:
        issue_send(s, u, i, &rq);
        break;
    case EU_STEP_END:
        issue_send(s, u, i, &rq);
        end_thread(s, u, i, EU_THREAD_OK);
        return false;
    case EU_STEP_FAULT:
        end_thread(s, u, i, EU_THREAD_ILLEGAL);
        return false;
    }
    if (s->max_thread_instructions && sl->instructions >= s->max_thread_instructions) {
        s->runaway++;
        end_thread(s, u, i, EU_THREAD_RUNAWAY);
        return false;
    }
    return !sl->blocked_send;
}

void eu_retry_blocked_sends(struct eu *s, struct unit *u)
{
    /* the slots in ascending order, as a scan of every slot would take them */
    for (uint32_t left = s->pending_msg_slots; left; left &= left - 1) {
        unsigned i = (unsigned)__builtin_ctz(left);
        struct slot *sl = &s->slots[i];
        stamp_thread_life(sl, u, sl->pending_msg);
        if (port_try_send(sl->pending_port, sl->pending_msg)) {
            s->quiet = false;
            sl->pending_msg = NULL;
            s->pending_msg_slots &= ~(1u << i);
            sl->blocked_send = false;
            eu_slot_changed(s, i);
            if (sl->ended && sl->pending_wb == 0)
                free_slot(s, u, i);
        } else {
            s->stall_port++;
        }
    }
}

/* How many bits of a thread mask are set: two lookups in a table of each
 * byte's count (no popcnt instruction in a generic build; issue 19: the
 * shift-and-add count was ~1% of SGEMM's host instructions). */
#define BITS2(n) n, n + 1, n + 1, n + 2
#define BITS4(n) BITS2(n), BITS2(n + 1), BITS2(n + 1), BITS2(n + 2)
#define BITS6(n) BITS4(n), BITS4(n + 1), BITS4(n + 1), BITS4(n + 2)
static const uint8_t bits_in_byte[256] = { BITS6(0), BITS6(1), BITS6(1), BITS6(2) };
_Static_assert(EU_MAX_THREADS <= 16, "bits_set counts the low 16 bits");

static inline uint32_t bits_set(uint32_t x)
{
    return (uint32_t)bits_in_byte[x & 0xff] + bits_in_byte[(x >> 8) & 0xff];
}

/* Fast mode: every runnable thread runs until its next SEND. Out of line, so
 * that timing mode's tick (eu.c) is compiled as if fast mode were not there. */
__attribute__((noinline)) bool eu_tick_fast(struct eu *s, struct unit *u, uint64_t now)
{
    bool more = false, ran = false;
    /* Threads judged waiting for a write-back (s->send_wait: dep_at NEVER for
     * dep_d, which only a write-back or a change of the slot drops, each
     * clearing the bit) would each be visited and stall once: counted, not
     * visited. Write-backs come before this scan, so none is freed in it. */
    uint32_t held = s->runnable & s->send_wait;
    s->stall_send_wait += bits_set(held);
    for (uint32_t left = s->runnable & ~held; left; left &= left - 1) {
        unsigned i = (unsigned)__builtin_ctz(left);
        struct slot *sl = &s->slots[i];
        /* s->runnable's bit i is runnable(sl) (eu_slot_changed keeps it) */
        while (s->runnable >> i & 1) {
            enum eu_thread_status why = EU_THREAD_OK;
            const struct dentry *d = eu_fetch_decoded(s, u, sl, &why);
            if (!d) {
                s->fetch_faults++;
                end_thread(s, u, i, why);
                break;
            }
            /* only write-backs can hold a thread in fast mode: a register a
             * SEND will write (deps_at NEVER; fast mode times no other
             * dependency). The judgement is kept as in timing mode (dep_d,
             * dropped when the thread issues or takes a write-back), so a
             * thread held over many ticks is not judged again each one. */
            if (sl->pending_wb) {
                if (judged_deps(sl, d) == NEVER) {
                    s->stall_send_wait++;
                    eu_slot_judged_send_wait(s, i);
                    break;
                }
            }
            ran = true;
            if (d->info->fast.op && eu_exec_fast(&sl->th, &d->info->fast)) {
                /* the common ALU case without the general bookkeeping (slot
                 * i's send_wait bit is clear: it would not be visited) */
                sl->dep_d = NULL;
                s->instructions++;
                if (++sl->instructions < s->max_thread_instructions || !s->max_thread_instructions)
                    continue;
                s->runaway++;
                end_thread(s, u, i, EU_THREAD_RUNAWAY);
                break;
            }
            bool go = run_one(s, u, i, d->info, now, false, d->info->pipe);
            if (!go)
                break;
            if (d->info->pipe == EU_PIPE_SEND) {
                /* continue on the next tick, unless the next instruction waits
                 * for a write-back (as one using the SEND's result does): then
                 * it is judged held now, as that tick would judge it, and the
                 * thread asks for no tick (its reply wakes the EU) */
                if (sl->pending_wb && (s->runnable >> i & 1)) {
                    enum eu_thread_status next_why = EU_THREAD_OK;
                    const struct dentry *next = eu_fetch_decoded(s, u, sl, &next_why);
                    if (next && judged_deps(sl, next) == NEVER) {
                        eu_slot_judged_send_wait(s, i);
                        break;
                    }
                }
                more = true;
                break;
            }
        }
    }
    if (ran)
        unit_progress(u);
    return more;
}

/* A scan of the threads for cycle `now` (timing mode). The tick's scan
 * issues and counts its stalls, and returns whether the EU has work left
 * (*issued: whether it issued). A probe (issue 19) is the scan the next
 * cycle's tick would make, made at the end of a tick that issued, while the
 * slots' lines are still in the host's cache: it issues nothing, counts
 * nothing and changes nothing that scan would not have, and gives up
 * (returns false) at the first thread that scan would issue, or would judge
 * with a side effect (a line to fetch, a decode). When it does not give up,
 * that scan would have issued nothing and changed nothing, so the stretch it
 * finds is quiet from `now` on (as if the next tick had scanned): the EU
 * sleeps through it, and the ticks it skips count the same stalls. About half
 * of SGEMM's issuing ticks were followed by such a tick. */
static inline __attribute__((always_inline)) bool scan_threads(struct eu *s, struct unit *u,
                                                              uint64_t now, bool probe,
                                                              bool *issued_out)
{
    /* candidates: oldest first (the age order is kept as threads come and
     * go), or round-robin starting after the last thread that issued. Each
     * is a bit of a mask of positions in that order: age positions (the
     * masks kept in age order), or slots rotated to start at rr_next.
     * Threads whose cached judgement is a write-back wait (s->send_wait)
     * are counted, not visited: a scan the issue width cuts short counts only
     * the ones before the candidate it stopped at. Not when a decode this
     * scan may flush the decoded cache (which drops every cached judgement:
     * eu_fetch.c); then every thread is visited. (Issue 19: the order had
     * been built as an array of slots each tick, ~6% of SGEMM's host
     * instructions.) */
    bool keep_send_wait = (s->dcache_used + EU_MAX_THREADS) * 4 < (s->dcache_mask + 1) * 3;
    uint32_t sw, candidates;
    unsigned rotate = 0;
    uint8_t order[EU_MAX_THREADS];
    if (s->round_robin) {
        uint32_t all = (UINT32_C(1) << s->threads) - 1;
        uint32_t slot_sw = keep_send_wait ? s->runnable & s->send_wait : 0;
        uint32_t slot_candidates = s->runnable & ~slot_sw;
        rotate = s->rr_next % s->threads;
        sw = ((slot_sw >> rotate) | (slot_sw << (s->threads - rotate))) & all;
        candidates = ((slot_candidates >> rotate) | (slot_candidates << (s->threads - rotate))) & all;
    } else {
        /* a thread ending in the scan changes age_order: the scan's is a copy */
        memcpy(order, s->age_order, sizeof order);
        uint32_t aged = s->age_runnable & ((UINT32_C(1) << EU_MAX_THREADS) - 1);
        sw = keep_send_wait ? aged & s->age_send_wait : 0;
        candidates = aged & ~sw;
    }
    *issued_out = false;
    if (candidates == 0 && sw == 0) {
        /* no thread can run until an event (which clears `quiet`) */
        s->quiet = true;
        s->quiet_until = NEVER;
        s->quiet_fetch = s->quiet_send_wait = s->quiet_dependency = s->quiet_pipe = 0;
        s->quiet_more = false;
        return probe;           /* (a probe: quiet from now on) */
    }
    unsigned issued = 0;
    bool pending_work = false, alu_issued = false;
    /* whether this scan may start a quiet stretch: it changed nothing (every
     * thread judged from its cached state), and until when */
    bool cacheable = true;
    uint64_t until = NEVER;
    uint32_t n_fetch = 0, n_send_wait = 0, n_dependency = 0, n_pipe = 0;
    unsigned position = 0;
    for (uint32_t left = candidates; left && issued < s->issue_width; left &= left - 1) {
        position = (unsigned)__builtin_ctz(left);
        unsigned i = !s->round_robin ? order[position]
                   : position + rotate < s->threads ? position + rotate
                   : position + rotate - s->threads;
        struct slot *sl = &s->slots[i];
        uint64_t dep_at;
        unsigned judged_pipe;
        if (s->judged >> i & 1) {
            /* its cached judgement, as `judged:` below would read it from the
             * slot (with "icache" linked no fetch stall sets ready_cycle) */
            dep_at = s->judged_at[i];
            judged_pipe = s->judged_pipe[i];
            goto judged_cached;
        }
        if (sl->ready_cycle > now) {
            pending_work = true;
            n_fetch++;
            if (sl->ready_cycle < until)
                until = sl->ready_cycle;
            continue;
        }
        const struct dentry *d = sl->dep_d;
        if (d && (s->icache_linked ? sl->line_held : s->itags[sl->iset] == sl->iline_key))
            goto judged;    /* held since its last check; its line still there */
        /* Judged afresh: a quiet stretch may still start here if nothing
         * but the thread's own cached judgement changed, so the next scan
         * would judge it as above (no line request, miss, decode or end). */
        uint64_t decoded_before = s->decode_misses;
        uint64_t addr = sl->th.inst_base + sl->th.ip;
        uint64_t line = addr >> 6;
        if (probe) {
            /* only the judgement without side effects: the line it holds
             * (or finds in the internal cache), the entry the hint gives */
            if (sl->iline_key != line + 1 ||
                (s->icache_linked ? !sl->line_held : s->itags[sl->iset] != line + 1))
                return false;
            struct dentry *held = sl->last;
            if (held && held->info && held->info->addr != addr) {
                held = held->next;
                if (!held || !held->info || held->info->addr != addr)
                    return false;
                sl->last = held;    /* as eu_fetch_decoded() would */
            }
            if (!held || !held->info)
                return false;
            d = held;
            judged_deps(sl, d);
            goto judged;
        }
        if (s->icache_linked) {
            /* the thread keeps the line it executes from; a new line comes
             * from the EU's fetch buffer or, on a miss there, from the
             * subslice instruction cache (timing only) */
            if (sl->iline_key != line + 1) {
                sl->iline_key = line + 1;
                sl->line_held = false;
                eu_slot_rejudge(s, i);
            }
            if (!sl->line_held && !eu_fetch_line(s, u, sl, addr, now)) {
                cacheable = false;
                continue;
            }
            if (!sl->line_held)
                cacheable = false;      /* an address that does not translate */
        } else {
            /* the EU's own instruction cache (timing only): direct mapped,
             * 64-byte lines, icache_latency per miss */
            if (sl->iline_key != line + 1) {
                sl->iline_key = line + 1;
                sl->iset = s->iline_pow2 ? (uint32_t)(line & (s->iline_count - 1))
                                         : (uint32_t)(line % s->iline_count);
            }
            uint32_t set = sl->iset;
            if (s->itags[set] != line + 1) {
                cacheable = false;
                s->itags[set] = line + 1;
                s->icache_misses++;
                if (s->icache_latency) {
                    sl->ready_cycle = now + s->icache_latency;
                    s->stall_fetch++;
                    pending_work = true;
                    continue;
                }
            }
        }
        /* a held thread's instruction is the entry it fetched last (what
         * eu_fetch_decoded() would return; inlined for the common case) */
        d = sl->last;
        if (!d || !d->info || d->info->addr != addr) {
            enum eu_thread_status why = EU_THREAD_OK;
            d = eu_fetch_decoded(s, u, sl, &why);
            if (!d) {
                cacheable = false;
                s->fetch_faults++;
                end_thread(s, u, i, why);
                continue;
            }
        }
        if (s->decode_misses != decoded_before)
            cacheable = false;          /* a decode may have flushed every thread's entry */
        judged_deps(sl, d);
    judged:
        dep_at = sl->dep_at;
        judged_pipe = d->info->pipe;
        if (s->icache_linked && sl->line_held) {
            /* cached until an event drops it (struct eu: judged) */
            s->judged |= 1u << i;
            s->judged_at[i] = dep_at;
            s->judged_pipe[i] = (uint8_t)judged_pipe;
        }
    judged_cached:;
        enum ready rd = dep_at == NEVER ? R_SEND : dep_at > now ? R_DEP : R_OK;
        if (rd == R_SEND) {
            if (s->judged >> i & 1)     /* cached ("icache" linked, its line held) */
                eu_slot_judged_send_wait(s, i);     /* so until an event (see struct eu) */
            n_send_wait++;
            continue;
        }
        pending_work = true;
        if (rd == R_DEP) {
            n_dependency++;
            if (dep_at < until)
                until = dep_at;
            continue;
        }
        unsigned pipe = judged_pipe;
        if (pipe == EU_PIPE_FPU && s->pipe_busy_until[EU_PIPE_FPU] > now)
            pipe = EU_PIPE_EM;      /* the EM pipe runs FPU work too (L19104-19106) */
        if (s->pipe_busy_until[pipe] > now || (pipe <= EU_PIPE_EM && alu_issued)) {
            n_pipe++;
            /* free when its pipe is (an FPU instruction: either pipe) */
            uint64_t at = s->pipe_busy_until[pipe];
            if (judged_pipe == EU_PIPE_FPU && s->pipe_busy_until[EU_PIPE_FPU] < at)
                at = s->pipe_busy_until[EU_PIPE_FPU];
            if (at < until)
                until = at;
            continue;
        }
        if (probe)
            return false;       /* the next tick would issue it */
        const struct dinfo *di = sl->dep_d->info;
        s->pipe_busy_until[pipe] = now + (pipe <= EU_PIPE_EM ? di->occupancy : 1);
        if (pipe <= EU_PIPE_EM && !s->co_issue)
            alu_issued = true;
        run_one(s, u, i, di, now, true, pipe);
        unit_progress(u);
        issued++;
        s->rr_next = i + 1;
    }
    /* the write-back waits the scan reached: all, or those before the
     * candidate after which the issue width was used up */
    uint32_t sw_reached = bits_set(issued >= s->issue_width ? sw & ((1u << position) - 1) : sw);
    n_send_wait += sw_reached;
    if (!probe) {
        /* the stalls this scan found (a fetch stall on an instruction cache
         * miss was counted where found: it is no quiet stretch's) */
        s->stall_fetch += n_fetch;
        s->stall_send_wait += n_send_wait;
        s->stall_dependency += n_dependency;
        s->stall_pipe += n_pipe;
    }
    *issued_out = issued != 0;
    if (issued)
        s->cycles_issuing++;
    else if (cacheable) {
        s->quiet = true;
        s->quiet_until = until;
        s->quiet_fetch = n_fetch;
        s->quiet_send_wait = n_send_wait;
        s->quiet_dependency = n_dependency;
        s->quiet_pipe = n_pipe;
        s->quiet_more = pending_work;
    }
    return probe ? cacheable : pending_work || issued;
}

/* Timing mode: one cycle of issue. */
bool eu_tick_timing(struct eu *s, struct unit *u, uint64_t now)
{
    if (s->quiet && now < s->quiet_until) {
        /* the scan below would find what the last one found */
        eu_count_quiet(s, 1);
        return s->quiet_more;
    }
    s->quiet = false;
    bool issued;
    bool more = scan_threads(s, u, now, false, &issued);
    if (issued && !scan_threads(s, u, now + 1, true, &issued))
        s->quiet = false;       /* gave up: the next tick scans */
    return more;
}
