/* tests/units/test_vc4_interrupts.c - the QPU host interrupt (seed 002 "Host Interrupt"
 * @68053, Tables 73 and 74 @198059): "Each QPU can individually trigger a host processor
 * interrupt by writing to the host_interrupt I/O location" (any value: the seed gives the
 * write, not a value, as the trigger); V3D_DBQITC bits "Read 1 when interrupt is latched.
 * Write 1 to clear interrupt" (a 0 written leaves a bit as it is); V3D_DBQITE "Set bit to
 * allow QPU to generate an interrupt". Units: units/qpu and units/vc4_v3d; programs are
 * assembled here (tests/support/vc4_rig.h).
 */
#include <stdio.h>
#include <string.h>

#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/support/vc4_rig.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"
#include "units/qpu/qpu.h"
#include "units/vc4_v3d/vc4_v3d.h"

#define CODE 0x1000u

enum { SRQPC = 0x430, SQRSV0 = 0x410, DBQITE = 0xe2c, DBQITC = 0xe30 };

static const struct port_desc sink_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" }, PORT_END
};

static int sink_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    (void)u;
    return 0;
}

static enum unit_activity sink_tick(struct unit *u)
{
    struct msg *m;
    while ((m = port_pop(unit_port(u, "in", 0))))
        msg_free(unit_sim(u), m);
    return UNIT_IDLE;
}

static const struct unit_ops sink_ops = {
    .kind = "test_interrupt_sink", .state_size = 8, .ports = sink_ports,
    .realize = sink_realize, .tick = sink_tick,
};

struct rig {
    struct sim *sim;
    struct unit *v3d;
};

static void host(struct rig *r, uint32_t offset, uint32_t value)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    memset(c, 0, sizeof *c);
    c->op = CS_MMIO_WRITE;
    c->offset = offset;
    c->value = value;
    CU_ASSERT_TRUE(port_inject(unit_port(r->v3d, "host", 0), m));
}

static struct rig rig_new(void)
{
    struct rig r;
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.v3d = probe_add(r.sim, &vc4_v3d_ops, "v3d", NULL);
    struct unit *sink = probe_add(r.sim, &sink_ops, "sink", NULL);
    probe_link(r.sim, r.v3d, "host_reply", sink, "in", 1, 8, 1);
    for (unsigned q = 0; q < 2; q++) {
        char name[16], out[16], in[16];
        snprintf(name, sizeof name, "qpu%u", q);
        snprintf(out, sizeof out, "qpu[%u]", q);
        snprintf(in, sizeof in, "qpu_done[%u]", q);
        struct unit *qpu = probe_add(r.sim, &qpu_ops, name, NULL);
        probe_link(r.sim, r.v3d, out, qpu, "start", 1, 4, 1);
        probe_link(r.sim, qpu, "done", r.v3d, in, 1, 4, 1);
    }
    host(&r, 0xfff0, 0);        /* an unknown register, makes the port bound */
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

static void write_program(struct rig *r, const uint64_t *p, unsigned n)
{
    struct gpu_memory *mem = sim_memory(r->sim);
    for (unsigned i = 0; i < n; i++) {
        uint32_t w[2] = { (uint32_t)p[i], (uint32_t)(p[i] >> 32) };
        gpu_memory_write(mem, CODE + 8 * i, w, 8, NULL);
    }
}

/* A program on QPU 1 writes HOST_INT with 0 (a write: it latches) and once under condition
 * "never" (no write: nothing). DBQITC writes of 0 and of QPU 0's bit leave QPU 1's latched
 * bit; writing its 1 clears it. With DBQITE clear, the write still latches (the bit reads 1:
 * "Reads 1 when interrupt is latched") but raises no interrupt. */
static void test_host_interrupt_write_rules(void)
{
    struct rig r = rig_new();
    struct vc4_alu never = { .sig = SIG_NONE, .cond_add = COND_NEVER, .cond_mul = COND_NEVER,
                             .waddr_add = W_HOST_INT, .waddr_mul = W_NOP, .op_add = OP_OR,
                             .op_mul = MOP_NOP, .raddr_a = RD_NOP, .raddr_b = RD_NOP };
    uint64_t p[] = { vc4_load_imm(W_HOST_INT, 0), vc4_alu_word(never), vc4_end(), vc4_nop(),
                     vc4_nop() };
    write_program(&r, p, 5);
    host(&r, SQRSV0, 0x1);                  /* QPU 0 takes no user programs */
    host(&r, DBQITE, 0x2);
    host(&r, SRQPC, CODE);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu1.host_interrupts"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.host_interrupts"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.interrupts_raised"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0x2);
    host(&r, DBQITC, 0);                    /* 0: no effect */
    host(&r, DBQITC, 0x1);                  /* another QPU's bit */
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0x2);
    host(&r, DBQITC, 0x2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0);
    host(&r, DBQITE, 0);
    host(&r, SRQPC, CODE);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.host_interrupts"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.interrupts_raised"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0x2);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "HOST_INT: any write latches; DBQITC write-1-to-clear; DBQITE",
      test_host_interrupt_write_rules },
    { 0 }
};
TEST_SUITE(vc4_interrupts, cases);
