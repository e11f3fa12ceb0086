/* units/common/ff_stage.c - see ff_stage.h. */
#include "units/common/ff_stage.h"

#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"

static bool has(const uint64_t *set, uint32_t id)
{
    return (set[id / 64] >> (id % 64)) & 1u;
}

static void add(uint64_t *set, uint32_t id)
{
    set[id / 64] |= (uint64_t)1 << (id % 64);
}

int ff_stage_init(struct ff_stage *s, const struct ff_stage_config *config, struct gt_error *err)
{
    memset(s, 0, sizeof *s);
    s->config = *config;
    s->config.ids = NULL;           /* read now, not kept */
    s->config.id_count = 0;
    if (!s->config.per_cycle)
        s->config.per_cycle = 1;
    s->config.work_kinds &= ~MSG_BIT(MSG_STATE);     /* state goes to work() by id only */
    if (!s->config.in)
        return gt_error_set(err, "fixed-function stage: no input port");
    bool takes = false, works = s->config.work_kinds != 0;
    for (uint32_t i = 0; i < config->id_count; i++) {
        uint32_t id = config->ids[i].id, use = config->ids[i].use;
        if (id == SPEC_ID_NONE || id >= SPEC_ID_COUNT)
            return gt_error_set(err, "fixed-function stage: state id %u out of range", id);
        if (has(s->take, id) || has(s->consume, id) || has(s->work, id))
            return gt_error_set(err, "fixed-function stage: state id %u named twice", id);
        switch (use) {
        case FF_STAGE_TAKE: add(s->take, id); takes = true; break;
        case FF_STAGE_CONSUME: add(s->consume, id); takes = true; break;
        case FF_STAGE_WORK: add(s->work, id); works = true; break;
        default:
            return gt_error_set(err, "fixed-function stage: state id %u has no use %u", id, use);
        }
    }
    if (takes && !config->take_state)
        return gt_error_set(err, "fixed-function stage: ids to take but no take_state()");
    if (works && !config->work)
        return gt_error_set(err, "fixed-function stage: work named but no work()");
    return 0;
}

void ff_stage_clear(struct ff_stage *s, struct sim *sim)
{
    while (s->pending) {
        struct msg *m = s->pending;
        s->pending = m->next;
        msg_free(sim, m);
    }
    s->pending_tail = NULL;
    s->pending_count = 0;
}

void ff_stage_emit(struct ff_stage *s, struct msg *m)
{
    m->next = NULL;
    if (s->pending_tail)
        s->pending_tail->next = m;
    else
        s->pending = m;
    s->pending_tail = m;
    s->pending_count++;
}

/* Sends what waits, in order, while the output takes it. False: the output
 * refused and something still waits. */
static bool drain(struct ff_stage *s, struct unit *u)
{
    struct port *out = s->config.out;
    bool bound = out && port_is_bound(out);
    while (s->pending) {
        struct msg *m = s->pending;
        if (bound && !port_can_send(out))
            return false;           /* the fabric wakes the unit when it frees up */
        s->pending = m->next;
        if (!s->pending)
            s->pending_tail = NULL;
        s->pending_count--;
        m->next = NULL;
        if (bound) {
            port_try_send(out, m);  /* cannot fail: port_can_send said yes */
        } else {
            msg_free(unit_sim(u), m);
            s->stats.dropped++;
        }
    }
    return true;
}

/* The state packet of m when it is one with an id in range, else NULL. */
static const struct cs_state_packet *state_of(const struct msg *m)
{
    if (m->kind != MSG_STATE || m->size < sizeof(struct cs_state_packet))
        return NULL;
    const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
    return p->id < SPEC_ID_COUNT ? p : NULL;
}

enum ff_stage_status ff_stage_tick(struct ff_stage *s, struct unit *u)
{
    if (!drain(s, u)) {
        s->stats.output_stalls++;
        return FF_STAGE_OUTPUT_FULL;
    }
    for (uint32_t handled = 0; handled < s->config.per_cycle; handled++) {
        struct msg *m = port_peek(s->config.in);
        if (!m)
            return FF_STAGE_IDLE;
        const struct cs_state_packet *p = state_of(m);
        bool work = p ? has(s->work, p->id) : (s->config.work_kinds & MSG_BIT(m->kind)) != 0;
        if (work) {
            uint32_t before = s->pending_count;
            enum ff_stage_work_result r = s->config.work(s->config.context, m);
            s->stats.emitted += s->pending_count - before;
            if (r == FF_STAGE_NOT_NOW) {
                s->stats.not_now++;
                if (!drain(s, u))
                    s->stats.output_stalls++;
                return FF_STAGE_WAITING;
            }
            s->stats.work++;
            port_pop(s->config.in);
            if (r == FF_STAGE_PASS)
                ff_stage_emit(s, m);
            else
                msg_free(unit_sim(u), m);
        } else if (p && (has(s->take, p->id) || has(s->consume, p->id))) {
            s->config.take_state(s->config.context, p);
            s->stats.taken++;
            port_pop(s->config.in);
            if (has(s->consume, p->id)) {
                s->stats.consumed++;
                msg_free(unit_sim(u), m);
            } else {
                s->stats.forwarded++;
                ff_stage_emit(s, m);
            }
        } else {
            s->stats.forwarded++;
            port_pop(s->config.in);
            ff_stage_emit(s, m);
        }
        if (!drain(s, u)) {
            s->stats.output_stalls++;
            return FF_STAGE_OUTPUT_FULL;
        }
    }
    return port_peek(s->config.in) ? FF_STAGE_MORE : FF_STAGE_IDLE;
}
