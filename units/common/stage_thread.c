/* units/common/stage_thread.c - see stage_thread.h. */
#include "units/common/stage_thread.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "units/common/thread_payload.h"

void stage_bases_take(struct stage_bases *b, const struct spec_STATE_BASE_ADDRESS *v)
{
    if (v->GeneralStateBaseAddressModifyEnable) b->general = v->GeneralStateBaseAddress;
    if (v->SurfaceStateBaseAddressModifyEnable) b->surface = v->SurfaceStateBaseAddress;
    if (v->DynamicStateBaseAddressModifyEnable) b->dynamic = v->DynamicStateBaseAddress;
    if (v->InstructionBaseAddressModifyEnable) b->instruction = v->InstructionBaseAddress;
    if (v->GeneralStateBufferSizeModifyEnable) b->general_pages = v->GeneralStateBufferSize;
}

/* ---- push constants ------------------------------------------------------------ */

bool stage_constants_take_mmio(struct stage_constants *c, uint32_t offset, uint32_t value)
{
    uint32_t bit;
    if (offset == INSTPM_OFFSET)
        bit = INSTPM_CONSTANT_BUFFER_ADDRESS_OFFSET_DISABLE;
    else if (offset == CS_DEBUG_MODE2_OFFSET)
        bit = CS_DEBUG_MODE2_CONSTANT_BUFFER_ADDRESS_OFFSET_DISABLE;
    else
        return false;
    /* the CS applies the masked write (bit n + 16 enables bit n) and sends
     * the register's new value (units/common/mmio.h) */
    c->address_offset_disable = (value & bit) != 0;
    return true;
}

void stage_constants_take(struct stage_constants *c, struct sim *sim,
                          const struct cs_state_packet *p, const struct stage_bases *b,
                          const struct spec_3DSTATE_CONSTANT_BODY *body)
{
    memset(c->data, 0, sizeof c->data);
    c->regs = 0;
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    for (unsigned k = 0; k < 4; k++) {
        uint32_t len = body->ReadLength[k];
        if (!len)
            continue;
        /* a DynamicStateOffset unless INSTPM says graphics addresses (L11480-11558) */
        uint64_t address = body->Buffer[k] + (c->address_offset_disable ? 0 : b->dynamic);
        /* graphics addresses are 48 bits; Mesa writes them sign-extended
         * (canonical form, e.g. 0xfffffffeffa00000 in skl_gs) */
        address &= (1ull << 48) - 1;
        uint32_t n = len;
        if (c->regs + n > STAGE_CONSTANTS_MAX_REGS) {
            c->truncated++;
            n = STAGE_CONSTANTS_MAX_REGS - c->regs;
        }
        struct gt_error err;
        if (n && gpu_address_space_read(&as, address, c->data[c->regs], n * EU_MSG_REG_BYTES,
                                        &err) != 0) {
            memset(c->data[c->regs], 0, n * EU_MSG_REG_BYTES);
            c->read_failures++;
        }
        c->regs += n;
    }
}

uint32_t stage_constants_write(const struct stage_constants *c, uint8_t (*grf)[EU_MSG_REG_BYTES],
                               uint32_t first, uint32_t total)
{
    uint32_t r = first;
    for (uint32_t k = 0; k < c->regs && r < total; k++, r++)
        memcpy(grf[r], c->data[k], EU_MSG_REG_BYTES);
    return r;
}

/* ---- dispatch --------------------------------------------------------------------- */

int stage_threads_init(struct stage_threads *t, struct unit *u, uint32_t ffid, struct gt_error *err)
{
    memset(t, 0, sizeof *t);
    t->ffid = ffid;
    t->td = unit_port_array(u, "td", &t->tds);
    bool any = false;
    for (uint32_t i = 0; i < t->tds; i++)
        any = any || port_is_bound(t->td[i]);
    if (!any) {
        gt_error_set(err, "no \"td\" output is linked: the stage's threads have nowhere to go");
        return -1;
    }
    t->eot = unit_port(u, "eot", 0);
    if (t->eot && !port_is_bound(t->eot))
        t->eot = NULL;
    t->records = gt_xcalloc(STAGE_THREADS_MAX, sizeof *t->records);
    t->scratch_used = gt_xcalloc(STAGE_THREADS_MAX, 1);
    return 0;
}

void stage_threads_release(struct stage_threads *t)
{
    free(t->records);
    free(t->scratch_used);
    t->records = NULL;
    t->scratch_used = NULL;
}

void stage_threads_reset(struct stage_threads *t)
{
    if (t->records)
        memset(t->records, 0, STAGE_THREADS_MAX * sizeof *t->records);
    if (t->scratch_used)
        memset(t->scratch_used, 0, STAGE_THREADS_MAX);
    t->in_flight = 0;
    t->request_seq = 0;
    t->next_td = 0;
    t->last_account = 0;
    memset(&t->stats, 0, sizeof t->stats);
}

static void account(struct stage_threads *t, struct unit *u)
{
    uint64_t now = unit_cycle(u);
    if (now > t->last_account)
        t->stats.in_flight_cycles += (now - t->last_account) * t->in_flight;
    t->last_account = now;
}

static uint32_t max_in_flight(const struct stage_kernel *k)
{
    uint32_t m = k->max_threads ? k->max_threads : 1;
    return m < STAGE_THREADS_MAX ? m : STAGE_THREADS_MAX;
}

bool stage_threads_can_dispatch(struct stage_threads *t, const struct stage_kernel *k)
{
    if (!t->records)
        return false;
    if (t->in_flight >= max_in_flight(k)) {
        t->stats.stall_threads++;
        return false;
    }
    /* the request number's record must be free (a thread from 1024 requests
     * ago still running holds it) */
    if (t->records[(t->request_seq + 1) % STAGE_THREADS_MAX].live) {
        t->stats.stall_threads++;
        return false;
    }
    for (uint32_t i = 0; i < t->tds; i++)
        if (port_is_bound(t->td[i]) && port_can_send(t->td[i]))
            return true;
    t->stats.stall_td++;
    return false;
}

struct msg *stage_threads_new(struct stage_threads *t, struct unit *u, const struct stage_kernel *k,
                              const struct stage_bases *b, const struct stage_space *space,
                              uint32_t payload_regs, uint32_t dmask, uint64_t tag)
{
    if (payload_regs < 1)
        payload_regs = 1;
    if (payload_regs > THREAD_PAYLOAD_MAX_REGS)
        payload_regs = THREAD_PAYLOAD_MAX_REGS;
    uint32_t request = ++t->request_seq;
    struct stage_thread_record *r = &t->records[request % STAGE_THREADS_MAX];
    /* a scratch slot: the first free one below max_threads */
    uint32_t slots = max_in_flight(k), slot = 0;
    for (uint32_t i = 0; i < slots; i++)
        if (!t->scratch_used[i]) {
            slot = i;
            break;
        }
    t->scratch_used[slot] = 1;
    *r = (struct stage_thread_record){ .live = true, .request_id = request, .scratch_slot = slot,
                                       .tag = tag };
    size_t bytes = sizeof(struct eu_dispatch) + (size_t)payload_regs * EU_MSG_REG_BYTES;
    struct msg *m = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH, (uint32_t)bytes);
    memset(m->payload, 0, bytes);
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    d->op = EU_TD_DISPATCH;
    d->request_id = request;
    d->inst_base = b->instruction;
    d->space_root = space->root;
    d->kernel_offset = (uint32_t)k->kernel_start;
    d->space_format = (uint8_t)space->format;
    d->gen = (uint8_t)space->gen;
    d->simd = (uint8_t)(k->simd ? k->simd : 8);
    d->priority = (uint8_t)k->priority;
    d->dmask = dmask;
    d->grf_start = 0;
    d->grf_count = (uint16_t)payload_regs;
    d->ffid = t->ffid;
    /* the thread's transparent header (003 L11090-11130) */
    d->cr0_0 = k->alternate_fp ? 1u : 0u;
    d->cr0_1 = (k->illegal_opcode_exception ? 1u << 12 : 0u) |
               (k->software_exception ? 1u << 13 : 0u);
    uint64_t scratch = k->scratch_base + (uint64_t)slot * stage_scratch_bytes(k->per_thread_scratch);
    thread_payload_context(&(struct thread_context_source){
        .gen = (uint8_t)space->gen, .space_format = (uint8_t)space->format,
        .space_root = space->root, .surface_state_base = b->surface,
        .general_state_base = b->general, .dynamic_state_base = b->dynamic,
        .general_state_pages = b->general_pages, .binding_table = k->binding_table,
        .binding_table_entries = k->binding_table_entries, .group = request,
        .barrier_id = -1, .scratch_slot = slot,
    }, &d->ctx);
    d->ctx.sampler_state = k->sampler_state;    /* for headerless sampler messages */
    thread_payload_r0(&(struct thread_r0){
        .fftid = request & 0x1ffu, .scratch_space_offset = (uint32_t)scratch,
        .per_thread_scratch = k->per_thread_scratch, .sampler_state_pointer = k->sampler_state,
        .binding_table_pointer = k->binding_table, .barrier_id = -1,
    }, d->grf[0]);
    return m;
}

void stage_threads_send(struct stage_threads *t, struct unit *u, struct msg *m)
{
    account(t, u);
    for (uint32_t k = 0; k < t->tds; k++) {
        uint32_t i = (t->next_td + k) % t->tds;
        if (!port_is_bound(t->td[i]) || !port_can_send(t->td[i]))
            continue;
        port_try_send(t->td[i], m);
        unit_progress(u);
        t->next_td = (i + 1) % t->tds;
        t->in_flight++;
        t->stats.dispatched++;
        if (t->in_flight > t->stats.in_flight_peak)
            t->stats.in_flight_peak = t->in_flight;
        return;
    }
    /* the caller asked stage_threads_can_dispatch() first: a refusal here is
     * a stage bug; the thread is forgotten, not leaked */
    const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
    struct stage_thread_record *r = &t->records[d->request_id % STAGE_THREADS_MAX];
    if (r->live && r->request_id == d->request_id) {
        t->scratch_used[r->scratch_slot] = 0;
        r->live = false;
    }
    t->stats.stall_td++;
    unit_log(u, SIM_LOG_WARNING, "thread request %u refused by every TD channel (dropped)",
             d->request_id);
    msg_free(unit_sim(u), m);
}

bool stage_threads_poll_end(struct stage_threads *t, struct unit *u, uint64_t *tag)
{
    struct eu_thread_end end;
    return stage_threads_poll_end_notice(t, u, tag, &end);
}

bool stage_threads_poll_end_notice(struct stage_threads *t, struct unit *u, uint64_t *tag,
                                   struct eu_thread_end *end)
{
    struct msg *m;
    while (t->eot && (m = port_pop(t->eot)) != NULL) {
        const struct eu_thread_end *e = (const struct eu_thread_end *)m->payload;
        bool ok = m->kind == MSG_THREAD_DISPATCH && m->size >= sizeof *e &&
                  e->op == EU_TD_THREAD_END;
        struct stage_thread_record *r = ok ? &t->records[e->request_id % STAGE_THREADS_MAX] : NULL;
        if (!r || !r->live || r->request_id != e->request_id) {
            t->stats.unknown_ends++;
            unit_log(u, SIM_LOG_NOTE, "thread-end notice for no thread in flight dropped");
            msg_free(unit_sim(u), m);
            continue;
        }
        account(t, u);
        r->live = false;
        t->scratch_used[r->scratch_slot] = 0;
        if (t->in_flight)
            t->in_flight--;
        t->stats.ended++;
        t->stats.thread_cycles += thread_life_cycles(e->thread_life_ps, unit_clock_period(u));
        *tag = r->tag;
        *end = *e;
        msg_free(unit_sim(u), m);
        return true;
    }
    return false;
}

int stage_threads_poll_notice(struct stage_threads *t, struct unit *u, uint64_t *tag,
                              struct eu_thread_end *end)
{
    struct msg *m;
    while (t->eot && (m = port_peek(t->eot)) != NULL) {
        const struct eu_thread_end *e = (const struct eu_thread_end *)m->payload;
        if (m->kind != MSG_THREAD_DISPATCH || m->size < sizeof *e || e->op != EU_TD_URB_OUTPUT)
            return stage_threads_poll_end_notice(t, u, tag, end) ? 1 : 0;
        m = port_pop(t->eot);
        e = (const struct eu_thread_end *)m->payload;
        const struct stage_thread_record *r = &t->records[e->request_id % STAGE_THREADS_MAX];
        *end = *e;
        int kind = r->live && r->request_id == e->request_id ? 2 : 3;
        if (kind == 2)
            *tag = r->tag;
        msg_free(unit_sim(u), m);
        return kind;
    }
    return 0;
}
