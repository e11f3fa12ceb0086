/* units/cs_alu/cs_alu.c - see cs_alu.h. Seed line numbers are seed 003 unless
 * marked otherwise. */
#include "units/cs_alu/cs_alu.h"

#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"

/* ---- the pure function library ------------------------------------------- */

static bool is_gpr(uint32_t reg)
{
    return reg <= CS_ALU_REG_R15;
}

/* SRCA or SRCB: the only destinations of LOAD (L1360 "the source registers are
 * SRCA and SRCB of the ALU. This is the only means SRCA and SRCB can be
 * programmed"). */
static uint64_t *alu_input(struct cs_alu_regs *r, uint32_t reg)
{
    if (reg == CS_ALU_REG_SRCA)
        return &r->srca;
    if (reg == CS_ALU_REG_SRCB)
        return &r->srcb;
    return NULL;
}

enum cs_alu_class cs_alu_execute(struct cs_alu_regs *r, uint32_t instruction)
{
    uint32_t opcode = instruction >> 20;
    uint32_t op1 = (instruction >> 10) & 0x3ffu;
    uint32_t op2 = instruction & 0x3ffu;
    uint64_t *in;

    switch (opcode) {
    case CS_ALU_OP_NOOP:                            /* L1398 */
        return CS_ALU_NOOP;
    case CS_ALU_OP_LOAD:                            /* L1366-1372 */
    case CS_ALU_OP_LOADINV:
        in = alu_input(r, op1);
        if (!in || !is_gpr(op2))
            return CS_ALU_RESERVED;
        *in = opcode == CS_ALU_OP_LOADINV ? ~r->gpr[op2] : r->gpr[op2];
        return CS_ALU_LOADED;
    case CS_ALU_OP_LOAD0:                           /* L1362, L1374 */
    case CS_ALU_OP_LOAD1:                           /* L1362, L1378 */
        in = alu_input(r, op1);
        if (!in)
            return CS_ALU_RESERVED;
        *in = opcode == CS_ALU_OP_LOAD1 ? ~UINT64_C(0) : 0;
        return CS_ALU_LOADED;
    case CS_ALU_OP_ADD:                             /* L1396: result to ACCU, CF, ZF */
        r->accu = r->srca + r->srcb;
        r->cf = r->accu < r->srca;                  /* carry out of bit 63 */
        r->zf = r->accu == 0;
        return CS_ALU_COMPUTED;
    case CS_ALU_OP_SUB:
        r->accu = r->srca - r->srcb;
        r->cf = r->srca < r->srcb;                  /* borrow */
        r->zf = r->accu == 0;
        return CS_ALU_COMPUTED;
    case CS_ALU_OP_AND:
    case CS_ALU_OP_OR:
    case CS_ALU_OP_XOR:
        r->accu = opcode == CS_ALU_OP_AND ? (r->srca & r->srcb)
                : opcode == CS_ALU_OP_OR  ? (r->srca | r->srcb)
                                          : (r->srca ^ r->srcb);
        r->cf = false;
        r->zf = r->accu == 0;
        return CS_ALU_COMPUTED;
    case CS_ALU_OP_STORE:                           /* L1414-1431 */
    case CS_ALU_OP_STOREINV: {
        uint64_t v;
        if (!is_gpr(op1))
            return CS_ALU_RESERVED;
        if (op2 == CS_ALU_REG_ACCU)
            v = r->accu;
        else if (op2 == CS_ALU_REG_ZF)
            v = r->zf ? ~UINT64_C(0) : 0;           /* replicated on all 64 bits */
        else if (op2 == CS_ALU_REG_CF)
            v = r->cf ? ~UINT64_C(0) : 0;
        else
            return CS_ALU_RESERVED;
        r->gpr[op1] = opcode == CS_ALU_OP_STOREINV ? ~v : v;
        return CS_ALU_STORED;
    }
    default:
        return CS_ALU_RESERVED;
    }
}

const char *cs_alu_opcode_name(uint32_t opcode)
{
    switch (opcode) {
    case CS_ALU_OP_NOOP: return "NOOP";
    case CS_ALU_OP_LOAD: return "LOAD";
    case CS_ALU_OP_LOADINV: return "LOADINV";
    case CS_ALU_OP_LOAD0: return "LOAD0";
    case CS_ALU_OP_LOAD1: return "LOAD1";
    case CS_ALU_OP_ADD: return "ADD";
    case CS_ALU_OP_SUB: return "SUB";
    case CS_ALU_OP_AND: return "AND";
    case CS_ALU_OP_OR: return "OR";
    case CS_ALU_OP_XOR: return "XOR";
    case CS_ALU_OP_STORE: return "STORE";
    case CS_ALU_OP_STOREINV: return "STOREINV";
    default: return NULL;
    }
}

const char *cs_alu_register_name(uint32_t reg)
{
    static const char *const gpr[CS_ALU_GPRS] = {
        "R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7",
        "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
    };
    if (is_gpr(reg))
        return gpr[reg];
    switch (reg) {
    case CS_ALU_REG_SRCA: return "SRCA";
    case CS_ALU_REG_SRCB: return "SRCB";
    case CS_ALU_REG_ACCU: return "ACCU";
    case CS_ALU_REG_ZF: return "ZF";
    case CS_ALU_REG_CF: return "CF";
    default: return NULL;
    }
}

uint32_t cs_alu_request_count(const void *payload, uint32_t size, bool *malformed)
{
    const struct cs_alu_request *q = payload;
    *malformed = false;
    if (size < cs_alu_request_size(0)) {
        *malformed = true;
        return 0;
    }
    uint32_t n = q->count;
    if (n > CS_ALU_MAX_INSTRUCTIONS) {
        n = CS_ALU_MAX_INSTRUCTIONS;
        *malformed = true;
    }
    if (cs_alu_request_size(n) > size) {
        n = (size - cs_alu_request_size(0)) / 4u;
        *malformed = true;
    }
    return n;
}

/* ---- the engine ------------------------------------------------------------ */

void cs_alu_engine_reset(struct cs_alu_engine *e)
{
    memset(&e->regs, 0, sizeof e->regs);
    memset(&e->response, 0, sizeof e->response);
    e->busy = false;
    e->due = 0;
    e->tag = 0;
}

void cs_alu_engine_accept(struct cs_alu_engine *e, const void *payload, uint32_t size,
                          uint32_t tag, uint64_t cycle)
{
    const struct cs_alu_request *q = payload;
    bool malformed;
    uint32_t n = cs_alu_request_count(payload, size, &malformed);
    struct cs_alu_response *p = &e->response;
    memset(p, 0, sizeof *p);
    if (size >= cs_alu_request_size(0))
        memcpy(e->regs.gpr, q->gpr, sizeof e->regs.gpr);
    else
        memset(e->regs.gpr, 0, sizeof e->regs.gpr);
    for (uint32_t i = 0; i < n; i++) {
        switch (cs_alu_execute(&e->regs, q->instruction[i])) {
        case CS_ALU_NOOP: e->noops++; break;
        case CS_ALU_LOADED: e->loads++; break;
        case CS_ALU_COMPUTED: e->alu_ops++; break;
        case CS_ALU_STORED: e->stores++; break;
        case CS_ALU_RESERVED: e->reserved++; p->reserved++; break;
        }
    }
    memcpy(p->gpr, e->regs.gpr, sizeof p->gpr);
    p->accu = e->regs.accu;
    p->srca = e->regs.srca;
    p->srcb = e->regs.srcb;
    p->flags = (e->regs.zf ? CS_ALU_FLAG_ZF : 0) | (e->regs.cf ? CS_ALU_FLAG_CF : 0);
    p->executed = n;
    p->malformed = malformed;
    e->requests++;
    e->instructions += n;
    e->malformed += malformed;
    e->busy_cycles += 1 + (uint64_t)n * e->cycles_per_instruction;
    e->tag = tag;
    e->busy = true;
    /* One cycle to take the GPRs, then one clock per instruction (seed 004
     * L20918 "The ALU processes any instruction in a single clock"). */
    e->due = cycle + 1 + (uint64_t)n * e->cycles_per_instruction;
}

/* ---- the unit -------------------------------------------------------------- */

struct cs_alu {
    struct cs_alu_engine e;
    struct port *request, *response;
    uint64_t bad_kind;
};

static const struct param_desc cs_alu_params[] = {
    PARAM_U32_FIELD("cycles_per_instruction", struct cs_alu, e.cycles_per_instruction, 1, 1,
                    64, "clocks per ALU instruction (seed 004 MI_MATH: \"The ALU processes "
                    "any instruction in a single clock\")"),
    PARAM_END
};

static const struct port_desc cs_alu_ports[] = {
    { .name = "request", .direction = PORT_IN, .msg_kinds = 1u << MSG_GENERIC,
      .help = "MI_MATH work from the CS: struct cs_alu_request (GPRs, count, ALU dwords)" },
    { .name = "response", .direction = PORT_OUT, .msg_kinds = 1u << MSG_GENERIC,
      .help = "the result: struct cs_alu_response (GPRs, ZF/CF, ACCU/SRCA/SRCB)" },
    PORT_END
};

static const struct stat_desc cs_alu_stats[] = {
    STAT_COUNTER_FIELD("requests", struct cs_alu, e.requests, "messages", "MI_MATH requests taken"),
    STAT_COUNTER_FIELD("instructions", struct cs_alu, e.instructions, "instructions",
                       "ALU instructions executed"),
    STAT_COUNTER_FIELD("loads", struct cs_alu, e.loads, "instructions", "LOAD, LOADINV, LOAD0, LOAD1"),
    STAT_COUNTER_FIELD("alu_ops", struct cs_alu, e.alu_ops, "instructions", "ADD, SUB, AND, OR, XOR"),
    STAT_COUNTER_FIELD("stores", struct cs_alu, e.stores, "instructions", "STORE, STOREINV"),
    STAT_COUNTER_FIELD("noops", struct cs_alu, e.noops, "instructions", "NOOP"),
    STAT_COUNTER_FIELD("reserved_instructions", struct cs_alu, e.reserved, "instructions",
                       "reserved opcode or operand encodings, executed as NOOP"),
    STAT_COUNTER_FIELD("malformed_requests", struct cs_alu, e.malformed, "messages",
                       "requests with count > 256 or a payload shorter than count needs"),
    STAT_COUNTER_FIELD("bad_kind", struct cs_alu, bad_kind, "messages",
                       "requests of a message kind other than generic (dropped)"),
    STAT_COUNTER_FIELD("busy_cycles", struct cs_alu, e.busy_cycles, "cycles",
                       "cycles spent taking requests and executing instructions"),
    STAT_END
};

static int cs_alu_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct cs_alu *s = unit_state(u);
    s->request = unit_port(u, "request", 0);
    s->response = unit_port(u, "response", 0);
    return 0;
}

static void cs_alu_reset(struct unit *u)
{
    struct cs_alu *s = unit_state(u);
    cs_alu_engine_reset(&s->e);
}

static enum unit_activity cs_alu_tick(struct unit *u)
{
    struct cs_alu *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    uint64_t now = unit_cycle(u);
    if (s->e.busy) {
        if (now < s->e.due) {
            unit_wake_at(u, s->e.due);
            return UNIT_IDLE;
        }
        if (!port_can_send(s->response))
            return UNIT_IDLE;                   /* woken when the channel frees up */
        struct msg *m = msg_alloc(sim, MSG_GENERIC, sizeof(struct cs_alu_response));
        memcpy(m->payload, &s->e.response, sizeof s->e.response);
        m->tag = s->e.tag;
        port_try_send(s->response, m);
        s->e.busy = false;
    }
    struct msg *m;
    while ((m = port_pop(s->request))) {
        if (m->kind != MSG_GENERIC) {
            s->bad_kind++;
            unit_log(u, SIM_LOG_NOTE, "dropped a %s message on port request",
                     msg_kind_name(m->kind));
            msg_free(sim, m);
            continue;
        }
        cs_alu_engine_accept(&s->e, m->payload, m->size, m->tag, now);
        if (s->e.response.malformed)
            unit_log(u, SIM_LOG_NOTE, "malformed request (tag %u): %u instructions executed",
                     m->tag, s->e.response.executed);
        if (s->e.response.reserved)
            unit_log(u, SIM_LOG_NOTE, "request (tag %u): %u reserved ALU encodings executed as "
                     "NOOP", m->tag, s->e.response.reserved);
        msg_free(sim, m);
        unit_wake_at(u, s->e.due);
        break;
    }
    return UNIT_IDLE;
}

const struct unit_ops cs_alu_ops = {
    .kind = "cs_alu",
    .help = "The command streamer ALU behind MI_MATH (seed 003 L1321-1528, seed 004 MI_MATH): "
            "16 GPRs, SRCA/SRCB/ACCU, ZF/CF; takes a request with the GPRs and up to 256 ALU "
            "dwords, answers 1 + n * cycles_per_instruction cycles later.",
    .state_size = sizeof(struct cs_alu),
    .params = cs_alu_params,
    .ports = cs_alu_ports,
    .stats = cs_alu_stats,
    .realize = cs_alu_realize,
    .reset = cs_alu_reset,
    .tick = cs_alu_tick,
};
