/* tests/units/test_cs_alu.c - the CS ALU behind MI_MATH: every opcode and every
 * register encoding of seed 003 L1321-1528, the flag rules, reserved encodings,
 * and the unit's ports and timing. Expected values are worked out by hand from
 * the seed's definitions (and the conventions cs_alu.h states where the seed is
 * silent), not taken from a run. */
#include <string.h>

#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/cs_alu/cs_alu.h"
#include "units/registry.h"

#define ONES UINT64_C(0xffffffffffffffff)
#define I cs_alu_instruction

/* Distinct values in every GPR: Rn = 0x0n0n0n0n_0n0n0n0n + 0x1000000000000000 * n. */
static void fill_gprs(struct cs_alu_regs *r)
{
    memset(r, 0, sizeof *r);
    for (uint64_t n = 0; n < 16; n++)
        r->gpr[n] = n * UINT64_C(0x0101010101010101) + (n << 60);
}

static void exec_ok(struct cs_alu_regs *r, uint32_t instruction, enum cs_alu_class expect)
{
    CU_ASSERT_EQUAL(cs_alu_execute(r, instruction), expect);
}

/* The opcode and register tables, exactly as seed 003 L1449-1462, L1492-1524. */
static void test_encodings(void)
{
    static const struct { uint32_t code; const char *name; } ops[] = {
        { 0x000, "NOOP" }, { 0x080, "LOAD" }, { 0x480, "LOADINV" }, { 0x081, "LOAD0" },
        { 0x481, "LOAD1" }, { 0x100, "ADD" }, { 0x101, "SUB" }, { 0x102, "AND" },
        { 0x103, "OR" }, { 0x104, "XOR" }, { 0x180, "STORE" }, { 0x580, "STOREINV" },
    };
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++)
        CU_ASSERT_STRING_EQUAL(cs_alu_opcode_name(ops[k].code), ops[k].name);
    CU_ASSERT_PTR_NULL(cs_alu_opcode_name(0x105));
    CU_ASSERT_PTR_NULL(cs_alu_opcode_name(0x400));
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x0), "R0");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0xa), "R10");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0xf), "R15");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x20), "SRCA");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x21), "SRCB");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x31), "ACCU");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x32), "ZF");
    CU_ASSERT_STRING_EQUAL(cs_alu_register_name(0x33), "CF");
    CU_ASSERT_PTR_NULL(cs_alu_register_name(0x10));
    CU_ASSERT_PTR_NULL(cs_alu_register_name(0x30));
    /* opcode 31:20, operand1 19:10, operand2 9:0 (L1467-1475) */
    CU_ASSERT_EQUAL(I(0x080, 0x20, 0x03), 0x08008003u);
    CU_ASSERT_EQUAL(I(0x580, 0x0f, 0x33), 0x58003c33u);
    CU_ASSERT_EQUAL(I(0x101, 0, 0), 0x10100000u);
}

/* LOAD <SRCA|SRCB>, R0..R15 copies; LOADINV copies the inverse (L1366-1372). */
static void test_load_and_loadinv_every_gpr(void)
{
    for (uint32_t n = 0; n < 16; n++) {
        struct cs_alu_regs r;
        fill_gprs(&r);
        uint64_t v = (uint64_t)n * UINT64_C(0x0101010101010101) + ((uint64_t)n << 60);
        exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, n), CS_ALU_LOADED);
        CU_ASSERT_EQUAL(r.srca, v);
        CU_ASSERT_EQUAL(r.srcb, 0);
        exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCB, n), CS_ALU_LOADED);
        CU_ASSERT_EQUAL(r.srcb, v);
        exec_ok(&r, I(CS_ALU_OP_LOADINV, CS_ALU_REG_SRCA, n), CS_ALU_LOADED);
        CU_ASSERT_EQUAL(r.srca, ~v);
        exec_ok(&r, I(CS_ALU_OP_LOADINV, CS_ALU_REG_SRCB, n), CS_ALU_LOADED);
        CU_ASSERT_EQUAL(r.srcb, ~v);
        CU_ASSERT_EQUAL(r.gpr[n], v);               /* the GPR itself is untouched */
        CU_ASSERT_EQUAL(r.accu, 0);
    }
    struct cs_alu_regs r;
    memset(&r, 0, sizeof r);
    r.gpr[3] = UINT64_C(0x00000000ffff0000);
    exec_ok(&r, I(CS_ALU_OP_LOADINV, CS_ALU_REG_SRCA, 3), CS_ALU_LOADED);
    CU_ASSERT_EQUAL(r.srca, UINT64_C(0xffffffff0000ffff));
}

/* LOAD0 / LOAD1: all zeros / all ones; operand 2 is N/A (L1362, L1374-1378). */
static void test_load0_load1(void)
{
    struct cs_alu_regs r;
    fill_gprs(&r);
    exec_ok(&r, I(CS_ALU_OP_LOAD1, CS_ALU_REG_SRCA, 0x3ff), CS_ALU_LOADED);
    CU_ASSERT_EQUAL(r.srca, ONES);
    exec_ok(&r, I(CS_ALU_OP_LOAD1, CS_ALU_REG_SRCB, 0), CS_ALU_LOADED);
    CU_ASSERT_EQUAL(r.srcb, ONES);
    exec_ok(&r, I(CS_ALU_OP_LOAD0, CS_ALU_REG_SRCA, 0x155), CS_ALU_LOADED);
    CU_ASSERT_EQUAL(r.srca, 0);
    CU_ASSERT_EQUAL(r.srcb, ONES);
    exec_ok(&r, I(CS_ALU_OP_LOAD0, CS_ALU_REG_SRCB, 0), CS_ALU_LOADED);
    CU_ASSERT_EQUAL(r.srcb, 0);
}

static void binop(struct cs_alu_regs *r, uint32_t op, uint64_t a, uint64_t b)
{
    r->srca = a;
    r->srcb = b;
    exec_ok(r, I(op, 0, 0), CS_ALU_COMPUTED);
}

/* ADD: ACCU = SRCA + SRCB, CF = carry out of bit 63, ZF = (ACCU == 0). */
static void test_add_flags(void)
{
    struct cs_alu_regs r;
    memset(&r, 0, sizeof r);
    binop(&r, CS_ALU_OP_ADD, 2, 3);
    CU_ASSERT(r.accu == 5 && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_ADD, ONES, 1);                      /* wraps to 0: both flags */
    CU_ASSERT(r.accu == 0 && r.zf && r.cf);
    binop(&r, CS_ALU_OP_ADD, UINT64_C(0x8000000000000000), UINT64_C(0x8000000000000000));
    CU_ASSERT(r.accu == 0 && r.zf && r.cf);
    binop(&r, CS_ALU_OP_ADD, UINT64_C(0xfffffffffffffffe), 1);
    CU_ASSERT(r.accu == ONES && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_ADD, ONES, ONES);                   /* 2^65 - 2 */
    CU_ASSERT(r.accu == UINT64_C(0xfffffffffffffffe) && !r.zf && r.cf);
    binop(&r, CS_ALU_OP_ADD, 0, 0);
    CU_ASSERT(r.accu == 0 && r.zf && !r.cf);
    binop(&r, CS_ALU_OP_ADD, UINT64_C(0x00000000ffffffff), 1);   /* no 32-bit carry out */
    CU_ASSERT(r.accu == UINT64_C(0x0000000100000000) && !r.zf && !r.cf);
    CU_ASSERT(r.srca == UINT64_C(0x00000000ffffffff) && r.srcb == 1);  /* inputs kept */
}

/* SUB: ACCU = SRCA - SRCB, CF = borrow (SRCA < SRCB unsigned), ZF = (ACCU == 0). */
static void test_sub_flags(void)
{
    struct cs_alu_regs r;
    memset(&r, 0, sizeof r);
    binop(&r, CS_ALU_OP_SUB, 5, 3);
    CU_ASSERT(r.accu == 2 && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_SUB, 3, 5);
    CU_ASSERT(r.accu == UINT64_C(0xfffffffffffffffe) && !r.zf && r.cf);
    binop(&r, CS_ALU_OP_SUB, 5, 5);
    CU_ASSERT(r.accu == 0 && r.zf && !r.cf);
    binop(&r, CS_ALU_OP_SUB, 0, 1);
    CU_ASSERT(r.accu == ONES && !r.zf && r.cf);
    binop(&r, CS_ALU_OP_SUB, UINT64_C(0x8000000000000000), UINT64_C(0x7fffffffffffffff));
    CU_ASSERT(r.accu == 1 && !r.zf && !r.cf);               /* unsigned, not signed */
    binop(&r, CS_ALU_OP_SUB, 0, 0);
    CU_ASSERT(r.accu == 0 && r.zf && !r.cf);
    binop(&r, CS_ALU_OP_SUB, 1, ONES);
    CU_ASSERT(r.accu == 2 && !r.zf && r.cf);
}

/* AND/OR/XOR: ACCU = SRCA op SRCB, ZF from ACCU, CF cleared. */
static void test_logic_flags(void)
{
    struct cs_alu_regs r;
    memset(&r, 0, sizeof r);
    const uint64_t a = UINT64_C(0xff00ff00ff00ff00), b = UINT64_C(0x0ff00ff00ff00ff0);
    binop(&r, CS_ALU_OP_ADD, ONES, 1);                      /* CF = ZF = 1 first */
    binop(&r, CS_ALU_OP_AND, a, b);
    CU_ASSERT(r.accu == UINT64_C(0x0f000f000f000f00) && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_ADD, ONES, 1);
    binop(&r, CS_ALU_OP_OR, a, b);
    CU_ASSERT(r.accu == UINT64_C(0xfff0fff0fff0fff0) && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_ADD, ONES, 1);
    binop(&r, CS_ALU_OP_XOR, a, b);
    CU_ASSERT(r.accu == UINT64_C(0xf0f0f0f0f0f0f0f0) && !r.zf && !r.cf);
    binop(&r, CS_ALU_OP_AND, UINT64_C(0xaaaaaaaaaaaaaaaa), UINT64_C(0x5555555555555555));
    CU_ASSERT(r.accu == 0 && r.zf && !r.cf);
    binop(&r, CS_ALU_OP_OR, 0, 0);
    CU_ASSERT(r.accu == 0 && r.zf);
    binop(&r, CS_ALU_OP_XOR, a, a);
    CU_ASSERT(r.accu == 0 && r.zf && !r.cf);
    binop(&r, CS_ALU_OP_OR, 0, 1);
    CU_ASSERT(r.accu == 1 && !r.zf);
}

/* STORE / STOREINV R0..R15, <ACCU|ZF|CF>; a flag fills all 64 bits (L1414-1431). */
static void test_store_and_storeinv_every_gpr(void)
{
    for (uint32_t n = 0; n < 16; n++) {
        struct cs_alu_regs r;
        fill_gprs(&r);
        binop(&r, CS_ALU_OP_SUB, 7, 7);                     /* ACCU 0, ZF 1, CF 0 */
        exec_ok(&r, I(CS_ALU_OP_STORE, n, CS_ALU_REG_ZF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], ONES);
        exec_ok(&r, I(CS_ALU_OP_STOREINV, n, CS_ALU_REG_ZF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], 0);
        exec_ok(&r, I(CS_ALU_OP_STORE, n, CS_ALU_REG_CF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], 0);
        exec_ok(&r, I(CS_ALU_OP_STOREINV, n, CS_ALU_REG_CF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], ONES);
        binop(&r, CS_ALU_OP_SUB, 1, 2);                     /* ACCU ~0, ZF 0, CF 1 */
        exec_ok(&r, I(CS_ALU_OP_STORE, n, CS_ALU_REG_CF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], ONES);
        exec_ok(&r, I(CS_ALU_OP_STORE, n, CS_ALU_REG_ZF), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], 0);
        binop(&r, CS_ALU_OP_XOR, UINT64_C(0x1234567800000000), UINT64_C(0x00000000abcdef01));
        exec_ok(&r, I(CS_ALU_OP_STORE, n, CS_ALU_REG_ACCU), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], UINT64_C(0x12345678abcdef01));
        exec_ok(&r, I(CS_ALU_OP_STOREINV, n, CS_ALU_REG_ACCU), CS_ALU_STORED);
        CU_ASSERT_EQUAL(r.gpr[n], UINT64_C(0xedcba987543210fe));
        /* the other GPRs keep their values */
        for (uint32_t k = 0; k < 16; k++)
            if (k != n)
                CU_ASSERT_EQUAL(r.gpr[k], k * UINT64_C(0x0101010101010101) + ((uint64_t)k << 60));
    }
}

/* LOAD and STORE leave the flags and ACCU alone; NOOP leaves everything alone. */
static void test_flags_survive_moves_and_noop(void)
{
    struct cs_alu_regs r;
    fill_gprs(&r);
    binop(&r, CS_ALU_OP_ADD, ONES, 1);                      /* ZF 1, CF 1, ACCU 0 */
    exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, 5), CS_ALU_LOADED);
    exec_ok(&r, I(CS_ALU_OP_LOAD1, CS_ALU_REG_SRCB, 0), CS_ALU_LOADED);
    exec_ok(&r, I(CS_ALU_OP_STORE, 2, CS_ALU_REG_ACCU), CS_ALU_STORED);
    CU_ASSERT(r.zf && r.cf && r.accu == 0 && r.gpr[2] == 0);
    struct cs_alu_regs before = r;
    exec_ok(&r, I(CS_ALU_OP_NOOP, 0, 0), CS_ALU_NOOP);
    exec_ok(&r, I(CS_ALU_OP_NOOP, 0x3ff, 0x3ff), CS_ALU_NOOP);     /* operands N/A */
    CU_ASSERT_EQUAL(memcmp(&r, &before, sizeof r), 0);
}

/* Encodings outside the seed's tables run as NOOP and are reported. */
static void test_reserved_encodings(void)
{
    static const uint32_t bad[] = {
        /* opcodes not in the table: invert prefix on NOOP and ALU ops, ALU
         * subopcodes 5..127, STORE subopcode 1, the whole of bits 11:10 = 2/3 */
        0x400, 0x500, 0x501, 0x105, 0x17f, 0x181, 0x082, 0x200, 0x800, 0xc80, 0xfff,
    };
    struct cs_alu_regs r, before;
    fill_gprs(&r);
    binop(&r, CS_ALU_OP_SUB, 1, 2);
    before = r;
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
        exec_ok(&r, I(bad[k], CS_ALU_REG_SRCA, 1), CS_ALU_RESERVED);
    /* LOAD*: op1 must be SRCA/SRCB, op2 R0..R15 */
    exec_ok(&r, I(CS_ALU_OP_LOAD, 0x00, 1), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_ACCU, 1), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, CS_ALU_REG_SRCB), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, 0x10), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOADINV, CS_ALU_REG_SRCB, CS_ALU_REG_CF), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOAD0, 0x22, 0), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_LOAD1, 0x05, 0), CS_ALU_RESERVED);
    /* STORE*: op1 R0..R15, op2 ACCU/ZF/CF */
    exec_ok(&r, I(CS_ALU_OP_STORE, CS_ALU_REG_SRCA, CS_ALU_REG_ACCU), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_STORE, 0x10, CS_ALU_REG_ACCU), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_STORE, 3, 4), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_STOREINV, 3, CS_ALU_REG_SRCA), CS_ALU_RESERVED);
    exec_ok(&r, I(CS_ALU_OP_STOREINV, 3, 0x30), CS_ALU_RESERVED);
    CU_ASSERT_EQUAL(memcmp(&r, &before, sizeof r), 0);
}

/* A whole MI_MATH program, as a driver would write "R2 = R0 + R1, R3 = (R0 < R1)":
 * LOAD SRCA R0; LOAD SRCB R1; ADD; STORE R2 ACCU; SUB; STORE R3 CF;
 * STOREINV R4 ZF. */
static void test_request_program(void)
{
    struct cs_alu_engine e = { .cycles_per_instruction = 1 };
    cs_alu_engine_reset(&e);
    struct cs_alu_request q;
    memset(&q, 0, sizeof q);
    q.gpr[0] = 40;
    q.gpr[1] = 100;
    q.gpr[9] = 99;
    uint32_t prog[] = {
        I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, 0), I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCB, 1),
        I(CS_ALU_OP_ADD, 0, 0), I(CS_ALU_OP_STORE, 2, CS_ALU_REG_ACCU),
        I(CS_ALU_OP_SUB, 0, 0), I(CS_ALU_OP_STORE, 3, CS_ALU_REG_CF),
        I(CS_ALU_OP_STOREINV, 4, CS_ALU_REG_ZF), I(0x105, 0, 0),
    };
    q.count = 8;
    memcpy(q.instruction, prog, sizeof prog);
    cs_alu_engine_accept(&e, &q, cs_alu_request_size(8), 77, 10);
    const struct cs_alu_response *p = &e.response;
    CU_ASSERT_EQUAL(p->gpr[2], 140);
    CU_ASSERT_EQUAL(p->gpr[3], ONES);                       /* 40 < 100: borrow */
    CU_ASSERT_EQUAL(p->gpr[4], ONES);                       /* ACCU = -60 != 0: ~ZF */
    CU_ASSERT_EQUAL(p->gpr[9], 99);
    CU_ASSERT_EQUAL(p->accu, (uint64_t)40 - 100);
    CU_ASSERT_EQUAL(p->flags, CS_ALU_FLAG_CF);
    CU_ASSERT_EQUAL(p->srca, 40);
    CU_ASSERT_EQUAL(p->srcb, 100);
    CU_ASSERT_EQUAL(p->executed, 8);
    CU_ASSERT_EQUAL(p->reserved, 1);
    CU_ASSERT_EQUAL(p->malformed, 0);
    CU_ASSERT_EQUAL(e.due, 10 + 1 + 8);
    CU_ASSERT_EQUAL(e.tag, 77);
    CU_ASSERT(e.loads == 2 && e.alu_ops == 2 && e.stores == 3 && e.reserved == 1);

    /* malformed: count beyond 256, and a payload shorter than count needs */
    q.count = 300;
    cs_alu_engine_accept(&e, &q, sizeof q, 1, 0);
    CU_ASSERT_EQUAL(e.response.executed, 256);
    CU_ASSERT_EQUAL(e.response.malformed, 1);
    q.count = 8;
    cs_alu_engine_accept(&e, &q, cs_alu_request_size(3), 2, 0);
    CU_ASSERT_EQUAL(e.response.executed, 3);
    CU_ASSERT_EQUAL(e.response.malformed, 1);
    CU_ASSERT_EQUAL(e.malformed, 2);
}

/* ---- the unit through its ports ------------------------------------------ */

struct rig {
    struct sim *sim;
    struct unit *alu, *sink;
};

static struct rig make_rig(const char *const *alu_over, const char *const *sink_over,
                           uint32_t capacity)
{
    struct rig g = { .sim = probe_sim(NULL) };
    g.alu = probe_add(g.sim, unit_kind_find("cs_alu"), "alu", alu_over);
    g.sink = probe_add(g.sim, &probe_sink_ops, "sink", sink_over);
    CU_ASSERT_EQUAL(probe_link(g.sim, g.alu, "response", g.sink, "in", 1, capacity, 1), 0);
    return g;
}

/* Injects a request of `count` instructions (ADD) with tag `tag`, visible at cycle 0. */
static void inject(struct rig *g, uint32_t tag, uint32_t count)
{
    struct msg *m = msg_alloc(g->sim, MSG_GENERIC, cs_alu_request_size(count));
    struct cs_alu_request *q = (struct cs_alu_request *)m->payload;
    q->count = count;
    for (uint32_t i = 0; i < count; i++)
        q->instruction[i] = I(CS_ALU_OP_ADD, 0, 0);
    m->tag = tag;
    CU_ASSERT(port_inject(unit_port(g->alu, "request", 0), m));
}

/* Requests of 2, 0 and 5 instructions at cycle 0: taken at 0, 3, 4; answered at
 * 0+1+2 = 3, 3+1+0 = 4, 4+1+5 = 10; seen by the sink one cycle later. With 3
 * cycles per instruction: 7, 8, 8+1+15 = 24. */
static void test_unit_timing(void)
{
    for (int cpi = 1; cpi <= 3; cpi += 2) {
        char over[64];
        snprintf(over, sizeof over, "cycles_per_instruction=%d", cpi);
        const char *alu_over[] = { over, NULL };
        struct rig g = make_rig(alu_over, NULL, 4);
        inject(&g, 10, 2);
        inject(&g, 11, 0);
        inject(&g, 12, 5);
        CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
        CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
        struct probe_sink *d = unit_state(g.sink);
        CU_ASSERT_EQUAL_FATAL(d->received, 3);
        CU_ASSERT(d->tag[0] == 10 && d->tag[1] == 11 && d->tag[2] == 12);
        if (cpi == 1) {
            CU_ASSERT(d->cycle[0] == 4 && d->cycle[1] == 5 && d->cycle[2] == 11);
        } else {
            CU_ASSERT(d->cycle[0] == 8 && d->cycle[1] == 9 && d->cycle[2] == 25);
        }
        sim_destroy(g.sim);
    }
}

/* Response channel of capacity 1 and a sink that pops from cycle 20: the first
 * answer (sent at 3) fills it; the second, due at 4, waits until the slot the
 * pop at 20 frees is usable at 21; the third request is taken then and answered
 * at 21+1+5 = 27. Arrivals: 20 (popped), 22, 28. */
static void test_unit_backpressure(void)
{
    const char *sink_over[] = { "start_cycle=20", NULL };
    struct rig g = make_rig(NULL, sink_over, 1);
    inject(&g, 1, 2);
    inject(&g, 2, 0);
    inject(&g, 3, 5);
    CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(g.sim, 0), SIM_STOP_QUIESCENT);
    struct probe_sink *d = unit_state(g.sink);
    CU_ASSERT_EQUAL_FATAL(d->received, 3);
    CU_ASSERT(d->cycle[0] == 20 && d->cycle[1] == 22 && d->cycle[2] == 28);
    sim_destroy(g.sim);
}

/* Values through the ports: the response carries the GPRs, flags, ACCU and the
 * request's tag; the ALU's registers persist to the next request. */
static void test_unit_values(void)
{
    const char *sink_over[] = { "per_cycle=0", NULL };      /* keep them in the channel */
    struct rig g = make_rig(NULL, sink_over, 8);
    struct msg *m = msg_alloc(g.sim, MSG_GENERIC, cs_alu_request_size(4));
    struct cs_alu_request *q = (struct cs_alu_request *)m->payload;
    q->gpr[6] = 0x10;
    q->gpr[7] = 0x10;
    q->count = 4;
    q->instruction[0] = I(CS_ALU_OP_LOAD, CS_ALU_REG_SRCA, 6);
    q->instruction[1] = I(CS_ALU_OP_LOADINV, CS_ALU_REG_SRCB, 7);
    q->instruction[2] = I(CS_ALU_OP_ADD, 0, 0);             /* 0x10 + ~0x10 = ~0 */
    q->instruction[3] = I(CS_ALU_OP_STORE, 15, CS_ALU_REG_ACCU);
    m->tag = 0xabc;
    CU_ASSERT(port_inject(unit_port(g.alu, "request", 0), m));
    m = msg_alloc(g.sim, MSG_GENERIC, cs_alu_request_size(2));
    q = (struct cs_alu_request *)m->payload;
    q->count = 2;
    q->instruction[0] = I(CS_ALU_OP_SUB, 0, 0);             /* SRCA/SRCB kept: 0x10 - ~0x10 */
    q->instruction[1] = I(CS_ALU_OP_STORE, 0, CS_ALU_REG_CF);
    m->tag = 0xabd;
    CU_ASSERT(port_inject(unit_port(g.alu, "request", 0), m));
    CU_ASSERT_EQUAL_FATAL(sim_realize(g.sim, NULL), 0);
    CU_ASSERT_EQUAL(sim_run(g.sim, 100 * 1000), SIM_STOP_TIME_LIMIT);  /* 100 cycles */
    struct port *in = unit_port(g.sink, "in", 0);
    struct msg *r = port_pop(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const struct cs_alu_response *p = (const void *)r->payload;
    CU_ASSERT_EQUAL(r->tag, 0xabc);
    CU_ASSERT_EQUAL(r->size, sizeof *p);
    CU_ASSERT_EQUAL(p->gpr[15], ONES);
    CU_ASSERT_EQUAL(p->accu, ONES);
    CU_ASSERT_EQUAL(p->flags, 0);
    CU_ASSERT_EQUAL(p->executed, 4);
    msg_free(g.sim, r);
    r = port_pop(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    p = (const void *)r->payload;
    CU_ASSERT_EQUAL(r->tag, 0xabd);
    CU_ASSERT_EQUAL(p->accu, (uint64_t)0x10 - ~(uint64_t)0x10);   /* 0x21 */
    CU_ASSERT_EQUAL(p->accu, 0x21);
    CU_ASSERT_EQUAL(p->flags, CS_ALU_FLAG_CF);              /* 0x10 < ~0x10: borrow */
    CU_ASSERT_EQUAL(p->gpr[0], ONES);
    CU_ASSERT_EQUAL(p->gpr[15], 0);                         /* GPRs come with the request */
    msg_free(g.sim, r);
    sim_destroy(g.sim);
}

static const struct test_case cases[] = {
    { "opcode and register encodings", test_encodings },
    { "LOAD and LOADINV from every GPR", test_load_and_loadinv_every_gpr },
    { "LOAD0 and LOAD1", test_load0_load1 },
    { "ADD sets CF on carry out, ZF on zero", test_add_flags },
    { "SUB sets CF on borrow, ZF on zero", test_sub_flags },
    { "AND OR XOR clear CF, set ZF on zero", test_logic_flags },
    { "STORE and STOREINV to every GPR", test_store_and_storeinv_every_gpr },
    { "flags survive LOAD STORE NOOP", test_flags_survive_moves_and_noop },
    { "reserved encodings run as NOOP and count", test_reserved_encodings },
    { "a MI_MATH program", test_request_program },
    { "unit timing 1 + n * cycles_per_instruction", test_unit_timing },
    { "unit holds its answer under back-pressure", test_unit_backpressure },
    { "unit values through the ports", test_unit_values },
    { 0 }
};

TEST_SUITE(cs_alu, cases);
