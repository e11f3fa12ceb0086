/* rtl-cosim/stim.c - see stim.h. */
#include "rtl-cosim/stim.h"

#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "units/cs_alu/cs_alu.h"

static uint64_t next_random(uint64_t *state)
{
    /* splitmix64 */
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(next_random(state) % n);
}

/* ---- cs_alu_stim ------------------------------------------------------------- */

struct cs_alu_stim {
    uint64_t seed, requests;
    uint32_t max_count, reserved_permille, malformed_permille, per_cycle;
    uint64_t rng;
    struct port *out;
    uint64_t sent;
    struct cs_alu_coverage cov;
};

static const struct param_desc stim_params[] = {
    PARAM_U64_FIELD("seed", struct cs_alu_stim, seed, 1, 0, INT64_MAX, "random seed"),
    PARAM_U64_FIELD("requests", struct cs_alu_stim, requests, 1000, 0, INT64_MAX,
                    "requests to send"),
    PARAM_U32_FIELD("max_count", struct cs_alu_stim, max_count, 64, 0, CS_ALU_MAX_INSTRUCTIONS,
                    "most instructions per request"),
    PARAM_U32_FIELD("reserved_permille", struct cs_alu_stim, reserved_permille, 20, 0, 1000,
                    "reserved encodings per 1000 instructions"),
    PARAM_U32_FIELD("malformed_permille", struct cs_alu_stim, malformed_permille, 5, 0, 1000,
                    "requests per 1000 whose count exceeds what the payload carries"),
    PARAM_U32_FIELD("per_cycle", struct cs_alu_stim, per_cycle, 1, 1, 64, "requests per cycle"),
    PARAM_END
};

static const struct port_desc stim_ports[] = {
    { .name = "out", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_GENERIC),
      .help = "struct cs_alu_request" },
    PORT_END
};

static const struct stat_desc stim_stats[] = {
    STAT_COUNTER_FIELD("sent", struct cs_alu_stim, sent, "messages", "requests sent"),
    STAT_COUNTER_FIELD("instructions", struct cs_alu_stim, cov.instructions, "instructions",
                       "instructions generated"),
    STAT_END
};

static const uint32_t opcodes[12] = {
    CS_ALU_OP_NOOP, CS_ALU_OP_LOAD, CS_ALU_OP_LOADINV, CS_ALU_OP_LOAD0, CS_ALU_OP_LOAD1,
    CS_ALU_OP_ADD, CS_ALU_OP_SUB, CS_ALU_OP_AND, CS_ALU_OP_OR, CS_ALU_OP_XOR,
    CS_ALU_OP_STORE, CS_ALU_OP_STOREINV,
};

static int reg_index(uint32_t reg)
{
    if (reg <= CS_ALU_REG_R15)
        return (int)reg;
    switch (reg) {
    case CS_ALU_REG_SRCA: return 16;
    case CS_ALU_REG_SRCB: return 17;
    case CS_ALU_REG_ACCU: return 18;
    case CS_ALU_REG_ZF: return 19;
    case CS_ALU_REG_CF: return 20;
    default: return -1;
    }
}

static uint64_t random_value(uint64_t *rng)
{
    switch (below(rng, 8)) {
    case 0: return 0;
    case 1: return ~UINT64_C(0);
    case 2: return 1;
    case 3: return UINT64_C(0x8000000000000000);
    case 4: return below(rng, 16);
    case 5: return ~(uint64_t)below(rng, 16);
    default: return next_random(rng);
    }
}

static uint32_t random_instruction(struct cs_alu_stim *s)
{
    uint64_t *rng = &s->rng;
    if (below(rng, 1000) < s->reserved_permille) {
        s->cov.opcode[12]++;
        uint32_t op1 = below(rng, 1024), op2 = below(rng, 1024);
        switch (below(rng, 3)) {
        case 0: {                               /* an opcode outside the table */
            uint32_t op;
            do
                op = below(rng, 4096);
            while (cs_alu_opcode_name(op));
            return cs_alu_instruction(op, op1, op2);
        }
        case 1:                                 /* LOAD*: op1 not SRCA/SRCB */
            while (op1 == CS_ALU_REG_SRCA || op1 == CS_ALU_REG_SRCB)
                op1 = below(rng, 1024);
            return cs_alu_instruction(opcodes[1 + below(rng, 4)], op1, below(rng, 16));
        default:                                /* STORE*: op2 not ACCU/ZF/CF */
            while (op2 == CS_ALU_REG_ACCU || op2 == CS_ALU_REG_ZF || op2 == CS_ALU_REG_CF)
                op2 = below(rng, 1024);
            return cs_alu_instruction(opcodes[10 + below(rng, 2)], below(rng, 16), op2);
        }
    }
    uint32_t k = below(rng, 12), op = opcodes[k], op1 = 0, op2 = 0;
    s->cov.opcode[k]++;
    switch (op) {
    case CS_ALU_OP_LOAD:
    case CS_ALU_OP_LOADINV:
        op1 = CS_ALU_REG_SRCA + below(rng, 2);
        op2 = below(rng, 16);
        break;
    case CS_ALU_OP_LOAD0:
    case CS_ALU_OP_LOAD1:
        op1 = CS_ALU_REG_SRCA + below(rng, 2);
        op2 = below(rng, 1024);                 /* N/A: any value */
        break;
    case CS_ALU_OP_STORE:
    case CS_ALU_OP_STOREINV:
        op1 = below(rng, 16);
        op2 = CS_ALU_REG_ACCU + below(rng, 3);
        break;
    default:                                    /* ALU ops and NOOP: operands N/A */
        op1 = below(rng, 8) ? 0 : below(rng, 1024);
        op2 = below(rng, 8) ? 0 : below(rng, 1024);
        return cs_alu_instruction(op, op1, op2);
    }
    s->cov.reg[reg_index(op1)]++;
    if (reg_index(op2) >= 0 && op != CS_ALU_OP_LOAD0 && op != CS_ALU_OP_LOAD1)
        s->cov.reg[reg_index(op2)]++;
    return cs_alu_instruction(op, op1, op2);
}

static int stim_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct cs_alu_stim *s = unit_state(u);
    s->out = unit_port(u, "out", 0);
    return 0;
}

static void stim_reset(struct unit *u)
{
    struct cs_alu_stim *s = unit_state(u);
    s->rng = s->seed;
    s->sent = 0;
    memset(&s->cov, 0, sizeof s->cov);
    if (s->requests)
        unit_wake_at(u, 0);
}

static enum unit_activity stim_tick(struct unit *u)
{
    struct cs_alu_stim *s = unit_state(u);
    for (uint32_t i = 0; i < s->per_cycle && s->sent < s->requests; i++) {
        if (!port_can_send(s->out))
            return UNIT_IDLE;
        uint32_t n = below(&s->rng, 64) == 0 ? 0 : 1 + below(&s->rng, s->max_count ? s->max_count : 1);
        if (s->max_count == 0)
            n = 0;
        struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, cs_alu_request_size(n));
        struct cs_alu_request *q = (struct cs_alu_request *)m->payload;
        for (int r = 0; r < CS_ALU_GPRS; r++)
            q->gpr[r] = random_value(&s->rng);
        q->count = n;
        for (uint32_t k = 0; k < n; k++)
            q->instruction[k] = random_instruction(s);
        if (below(&s->rng, 1000) < s->malformed_permille) {
            /* more than the payload carries, or more than MI_MATH allows */
            q->count = below(&s->rng, 2) ? n + 1 + below(&s->rng, 8) : 257 + below(&s->rng, 1000);
            s->cov.malformed++;
        }
        m->tag = (uint32_t)s->sent;
        port_try_send(s->out, m);
        s->sent++;
        s->cov.requests++;
        s->cov.instructions += n;
    }
    return s->sent < s->requests ? UNIT_BUSY : UNIT_IDLE;
}

const struct cs_alu_coverage *cs_alu_stim_coverage(const struct unit *u)
{
    const struct cs_alu_stim *s = unit_state(u);
    return &s->cov;
}

const struct unit_ops cs_alu_stim_ops = {
    .kind = "cs_alu_stim",
    .help = "co-simulation stimulus: seeded random MI_MATH requests for cs_alu",
    .state_size = sizeof(struct cs_alu_stim),
    .params = stim_params,
    .ports = stim_ports,
    .stats = stim_stats,
    .realize = stim_realize,
    .reset = stim_reset,
    .tick = stim_tick,
};

/* ---- cosim_sink ---------------------------------------------------------------- */

struct cosim_sink {
    uint64_t seed;
    uint32_t pop_permille;
    uint64_t rng;
    struct port *in;
    uint64_t received;
};

static const struct param_desc sink_params[] = {
    PARAM_U64_FIELD("seed", struct cosim_sink, seed, 7, 0, INT64_MAX, "random seed"),
    PARAM_U32_FIELD("pop_permille", struct cosim_sink, pop_permille, 1000, 1, 1000,
                    "chance in 1000 of popping on a cycle with something to pop"),
    PARAM_END
};

static const struct port_desc sink_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
    PORT_END
};

static const struct stat_desc sink_stats[] = {
    STAT_COUNTER_FIELD("received", struct cosim_sink, received, "messages", "messages popped"),
    STAT_END
};

static int sink_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct cosim_sink *s = unit_state(u);
    s->in = unit_port(u, "in", 0);
    return 0;
}

static void sink_reset(struct unit *u)
{
    struct cosim_sink *s = unit_state(u);
    s->rng = s->seed;
}

static enum unit_activity sink_tick(struct unit *u)
{
    struct cosim_sink *s = unit_state(u);
    if (!port_peek(s->in))
        return UNIT_IDLE;
    if (below(&s->rng, 1000) < s->pop_permille) {
        struct msg *m = port_pop(s->in);
        s->received++;
        msg_free(unit_sim(u), m);
    }
    return port_peek(s->in) ? UNIT_BUSY : UNIT_IDLE;
}

const struct unit_ops cosim_sink_ops = {
    .kind = "cosim_sink",
    .help = "co-simulation sink: pops what arrives, at random on some cycles (back-pressure)",
    .state_size = sizeof(struct cosim_sink),
    .params = sink_params,
    .ports = sink_ports,
    .stats = sink_stats,
    .realize = sink_realize,
    .reset = sink_reset,
    .tick = sink_tick,
};
