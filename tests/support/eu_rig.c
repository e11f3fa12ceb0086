/* tests/support/eu_rig.c - see eu_rig.h. */
#include "tests/support/eu_rig.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/stats.h"
#include "units/common/thread_msg.h"

static const struct param_desc stub_params[] = {
    PARAM_U32_FIELD("add", struct stub_sf, add, 100, 0, UINT32_MAX, "added to every reply dword"),
    PARAM_END
};

static const struct port_desc stub_ports[] = {
    { .name = "in", .direction = PORT_IN, .flags = PORT_REQUIRED, .help = "SEND messages" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "write-backs" },
    PORT_END
};

static const struct stat_desc stub_stats[] = {
    STAT_COUNTER_FIELD("sends", struct stub_sf, sends, "messages", "SENDs taken"),
    STAT_COUNTER_FIELD("eots", struct stub_sf, eots, "messages", "SENDs with EOT"),
    STAT_COUNTER_FIELD("writebacks", struct stub_sf, writebacks, "messages", "replies sent"),
    STAT_END
};

static int stub_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct stub_sf *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity stub_tick(struct unit *u)
{
    struct stub_sf *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    if (s->held) {
        if (!port_try_send(s->out, s->held))
            return UNIT_IDLE;
        s->held = NULL;
        s->writebacks++;
    }
    struct msg *m;
    while ((m = port_pop(s->in)) != NULL) {
        const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
        s->sends++;
        s->last_desc = p->desc;
        s->last_ex_desc = p->ex_desc;
        s->last_mask = p->exec_mask;
        s->last_sfid = p->sfid;
        s->last_mlen = p->mlen;
        s->last_rlen = p->rlen;
        s->last_flags = p->flags;
        if (p->flags & EU_SEND_EOT) {
            if (s->eots < STUB_MAX_EOT) {
                if (p->mlen)
                    memcpy(s->eot_first[s->eots], p->regs[0], 32);
                s->eot_cycle[s->eots] = unit_cycle(u);
            }
            for (unsigned r = 0; r < p->mlen && r < 8; r++)
                memcpy(s->last_eot[r], p->regs[r], 32);
            s->eots++;
        } else {
            for (unsigned r = 0; r < (unsigned)(p->mlen + p->ex_mlen) && r < 16; r++)
                memcpy(s->last_send[r], p->regs[r], 32);
        }
        if (!(p->flags & EU_SEND_EOT) && p->rlen) {
            struct msg *w = msg_alloc(sim, MSG_WRITEBACK,
                                      (uint32_t)(sizeof(struct eu_writeback_msg) + p->rlen * 32u));
            struct eu_writeback_msg *wb = (struct eu_writeback_msg *)w->payload;
            wb->slot = p->slot;
            wb->dst_reg = p->dst_reg;
            wb->rlen = p->rlen;
            unsigned total = p->mlen + p->ex_mlen;
            for (unsigned r = 0; r < p->rlen; r++)
                for (unsigned k = 0; k < 8; k++) {
                    uint32_t v = 0;
                    if (total)
                        memcpy(&v, p->regs[r % total] + 4 * k, 4);
                    v += s->add;
                    memcpy(wb->regs[r] + 4 * k, &v, 4);
                }
            if (!port_try_send(s->out, w)) {
                s->held = w;
                msg_free(sim, m);
                return UNIT_IDLE;
            }
            s->writebacks++;
        }
        msg_free(sim, m);
    }
    return UNIT_IDLE;
}

static void stub_destroy(struct unit *u)
{
    struct stub_sf *s = unit_state(u);
    if (s->held)
        msg_free(unit_sim(u), s->held);
}

const struct unit_ops stub_sf_ops = {
    .kind = "test_sf",
    .help = "test stub shared function: replies to SENDs, records EOT payloads",
    .state_size = sizeof(struct stub_sf),
    .params = stub_params,
    .ports = stub_ports,
    .stats = stub_stats,
    .realize = stub_realize,
    .tick = stub_tick,
    .destroy = stub_destroy,
};

static void destroy_memory(void *m)
{
    gpu_memory_destroy(m);
}

struct gpu_memory *rig_memory(struct sim *sim)
{
    struct gpu_memory *mem = sim_memory(sim);
    if (!mem) {
        struct gt_error err;
        mem = gpu_memory_create(&err);
        sim_set_memory(sim, mem, destroy_memory);
    }
    return mem;
}

void rig_load(struct sim *sim, uint64_t address, const struct eu_enc_buf *kernel)
{
    struct gt_error err;
    gpu_memory_write(rig_memory(sim), address, kernel->bytes, kernel->len, &err);
}

struct msg *rig_dispatch_msg(struct sim *sim, uint64_t inst_base, uint32_t offset, unsigned simd,
                             const uint32_t (*regs)[8], unsigned nregs, uint32_t request_id,
                             uint8_t priority)
{
    struct msg *m = msg_alloc(sim, MSG_THREAD_DISPATCH,
                              (uint32_t)(sizeof(struct eu_dispatch) + nregs * 32u));
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    d->op = EU_TD_DISPATCH;
    d->request_id = request_id;
    d->inst_base = inst_base;
    d->kernel_offset = offset;
    d->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
    d->gen = 9;
    d->simd = (uint8_t)simd;
    d->priority = priority;
    d->dmask = simd >= 32 ? ~0u : (1u << simd) - 1;
    d->grf_start = 0;
    d->grf_count = (uint16_t)nregs;
    for (unsigned r = 0; r < nregs && regs; r++)
        memcpy(d->grf[r], regs[r], 32);
    m->tag = request_id;
    return m;
}

size_t rig_load_file(struct sim *sim, uint64_t address, const char *path)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    struct gt_error err;
    if (eu_load_kernel_file(path, &bytes, &len, &err) < 0)
        return 0;
    gpu_memory_write(rig_memory(sim), address, bytes, len, &err);
    free(bytes);
    return len;
}

double rig_stat(struct sim *sim, const char *path)
{
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    double v = -1;
    stats_lookup(w, path, &v);
    stats_writer_destroy(w);
    return v;
}
