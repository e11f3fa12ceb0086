/* tests/support/vc4_rig.c - see vc4_rig.h. */
#include "tests/support/vc4_rig.h"

#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/support/probes.h"
#include "units/common/vc4_io.h"
#include "units/qpu/qpu.h"
#include "units/vc4_l2/vc4_l2.h"
#include "units/vc4_sfu/vc4_sfu.h"
#include "units/vc4_sync/vc4_sync.h"
#include "units/vc4_tmu/vc4_tmu.h"
#include "units/vc4_vpm/vc4_vpm.h"

uint64_t vc4_alu_word(struct vc4_alu x)
{
    return (uint64_t)x.sig << 60 | (uint64_t)x.unpack << 57 | (uint64_t)x.pm << 56 |
           (uint64_t)x.pack << 52 | (uint64_t)x.cond_add << 49 | (uint64_t)x.cond_mul << 46 |
           (uint64_t)x.sf << 45 | (uint64_t)x.ws << 44 | (uint64_t)x.waddr_add << 38 |
           (uint64_t)x.waddr_mul << 32 | (uint64_t)x.op_mul << 29 | (uint64_t)x.op_add << 24 |
           (uint64_t)x.raddr_a << 18 | (uint64_t)x.raddr_b << 12 | (uint64_t)x.add_a << 9 |
           (uint64_t)x.add_b << 6 | (uint64_t)x.mul_a << 3 | (uint64_t)x.mul_b;
}

uint64_t vc4_add(unsigned op, unsigned waddr, unsigned a, unsigned b, unsigned raddr_a,
                 unsigned raddr_b)
{
    return vc4_alu_word((struct vc4_alu){ .sig = SIG_NONE, .cond_add = COND_ALWAYS,
                                          .waddr_add = waddr, .waddr_mul = W_NOP, .op_add = op,
                                          .raddr_a = raddr_a, .raddr_b = raddr_b, .add_a = a,
                                          .add_b = b });
}

uint64_t vc4_mov(unsigned waddr, unsigned mux, unsigned raddr_a)
{
    return vc4_add(OP_OR, waddr, mux, mux, raddr_a, RD_NOP);
}

uint64_t vc4_nop(void)
{
    return vc4_alu_word((struct vc4_alu){ .sig = SIG_NONE, .waddr_add = W_NOP,
                                          .waddr_mul = W_NOP, .raddr_a = RD_NOP,
                                          .raddr_b = RD_NOP });
}

uint64_t vc4_end(void)
{
    return vc4_with_sig(vc4_nop(), SIG_END);
}

uint64_t vc4_with_sig(uint64_t word, unsigned sig)
{
    return (word & ~((uint64_t)15 << 60)) | (uint64_t)sig << 60;
}

/* Fig 5 @82668: sig 14, type 000 (59:57), cond_add/cond_mul, waddr_add/waddr_mul, value */
uint64_t vc4_load_imm(unsigned waddr_add, uint32_t imm)
{
    return (uint64_t)14 << 60 | (uint64_t)COND_ALWAYS << 49 | (uint64_t)waddr_add << 38 |
           (uint64_t)W_NOP << 32 | imm;
}

uint64_t vc4_load_imm_b(unsigned waddr_add, uint32_t imm)
{
    return vc4_load_imm(waddr_add, imm) | (uint64_t)1 << 44;
}

uint64_t vc4_read_b(unsigned raddr_b)
{
    return vc4_add(OP_OR, W_NOP, MUX_RB, MUX_RB, RD_NOP, raddr_b);
}

/* Fig 6 @83883: type 100, sa bit 4, semaphore 3:0; writes nothing */
uint64_t vc4_semaphore(unsigned number, bool decrement)
{
    return (uint64_t)14 << 60 | (uint64_t)4 << 57 | (uint64_t)W_NOP << 38 | (uint64_t)W_NOP << 32 |
           (uint64_t)(decrement ? 1 : 0) << 4 | (number & 15);
}

/* Fig 7 @84940: sig 15, cond_br 55:52, rel 51, no link write */
uint64_t vc4_branch(unsigned cond, int32_t relative_bytes)
{
    return (uint64_t)15 << 60 | (uint64_t)cond << 52 | (uint64_t)1 << 51 |
           (uint64_t)W_NOP << 38 | (uint64_t)W_NOP << 32 | (uint32_t)relative_bytes;
}

/* ---- catcher ------------------------------------------------------------------------------ */

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct vc4_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct vc4_catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        if (c->count < VC4_CATCH_MAX) {
            c->cycle[c->count] = unit_cycle(u);
            memcpy(c->payload[c->count], m->payload, m->size < 256 ? m->size : 256);
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_vc4_catcher",
    .state_size = sizeof(struct vc4_catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

/* ---- rig ---------------------------------------------------------------------------------- */

struct vc4_rig vc4_rig_new(unsigned qpus, unsigned flags, const char *const *qpu_over,
                           const char *const *vpm_over)
{
    struct vc4_rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.memory = probe_memory(r.sim);
    r.qpus = qpus;
    if (!(flags & VC4_RIG_NO_SFU))
        r.sfu = probe_add(r.sim, &vc4_sfu_ops, "sfu", NULL);
    if (flags & VC4_RIG_VPM)
        r.vpm = probe_add(r.sim, &vc4_vpm_ops, "vpm", vpm_over);
    if (flags & VC4_RIG_SYNC)
        r.sync = probe_add(r.sim, &vc4_sync_ops, "sync", NULL);
    if (flags & VC4_RIG_TMU)
        r.tmu = probe_add(r.sim, &vc4_tmu_ops, "tmu", NULL);
    if (flags & VC4_RIG_L2) {
        static const char *const l2_over[] = { "size_kb=1", "line_bytes=64", "ways=2",
                                               "hit_latency=5", "sdram_latency=40",
                                               "sdram_bytes_per_cycle=16",
                                               "address_mask=0x3fffffff", NULL };
        r.l2 = probe_add(r.sim, &vc4_l2_ops, "l2", l2_over);
        if (r.vpm) {
            char client[32], reply[32];
            snprintf(client, sizeof client, "client[%u]", qpus);
            snprintf(reply, sizeof reply, "reply[%u]", qpus);
            probe_link(r.sim, r.vpm, "l2", r.l2, client, 1, 8, 1);
            probe_link(r.sim, r.l2, reply, r.vpm, "l2_reply", 1, 8, 1);
        }
    }
    for (unsigned q = 0; q < qpus; q++) {
        char name[16], number[32], port[32], port2[32];
        snprintf(name, sizeof name, "qpu%u", q);
        snprintf(number, sizeof number, "qpu_number=%u", q);
        const char *over[16] = { number };
        unsigned n = 1;
        for (unsigned i = 0; qpu_over && qpu_over[i] && n < 15; i++)
            over[n++] = qpu_over[i];
        r.qpu[q] = probe_add(r.sim, &qpu_ops, name, over);
        snprintf(name, sizeof name, "done%u", q);
        struct unit *d = probe_add(r.sim, &catcher_ops, name, NULL);
        r.done[q] = unit_state(d);
        probe_link(r.sim, r.qpu[q], "done", d, "in", 1, 16, 1);
        snprintf(port, sizeof port, "qpu[%u]", q);
        snprintf(port2, sizeof port2, "result[%u]", q);
        if (r.sfu) {
            probe_link(r.sim, r.qpu[q], "sfu", r.sfu, port, 1, 4, 1);
            probe_link(r.sim, r.sfu, port2, r.qpu[q], "sfu_result", 1, 4, 1);
        }
        if (r.vpm) {
            probe_link(r.sim, r.qpu[q], "vpm", r.vpm, port, 1, 4, 1);
            probe_link(r.sim, r.vpm, port2, r.qpu[q], "vpm_result", 1, 4, 1);
        } else if (q == 0) {
            struct unit *c = probe_add(r.sim, &catcher_ops, "vpm_catcher", NULL);
            r.vpm_writes = unit_state(c);
            probe_link(r.sim, r.qpu[q], "vpm", c, "in", 1, 64, 4);
        }
        if (r.sync) {
            probe_link(r.sim, r.qpu[q], "sync", r.sync, port, 1, 4, 1);
            probe_link(r.sim, r.sync, port2, r.qpu[q], "sync_result", 1, 4, 1);
        }
        if (r.l2) {
            char client[32], reply[32];
            snprintf(client, sizeof client, "client[%u]", q);
            snprintf(reply, sizeof reply, "reply[%u]", q);
            probe_link(r.sim, r.qpu[q], "l2", r.l2, client, 1, 4, 1);
            probe_link(r.sim, r.l2, reply, r.qpu[q], "l2_reply", 1, 4, 1);
        }
        if (r.tmu) {
            /* one TMU unit serving both TMU ports of every QPU: qpu[2q] and qpu[2q+1] */
            char p0[32], p1[32], r0[32], r1[32];
            snprintf(p0, sizeof p0, "qpu[%u]", 2 * q);
            snprintf(p1, sizeof p1, "qpu[%u]", 2 * q + 1);
            snprintf(r0, sizeof r0, "result[%u]", 2 * q);
            snprintf(r1, sizeof r1, "result[%u]", 2 * q + 1);
            probe_link(r.sim, r.qpu[q], "tmu0", r.tmu, p0, 1, 8, 1);
            probe_link(r.sim, r.tmu, r0, r.qpu[q], "tmu0_result", 1, 8, 1);
            probe_link(r.sim, r.qpu[q], "tmu1", r.tmu, p1, 1, 8, 1);
            probe_link(r.sim, r.tmu, r1, r.qpu[q], "tmu1_result", 1, 8, 1);
        }
    }
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

void vc4_rig_write(struct vc4_rig *r, uint32_t address, const void *data, uint32_t bytes)
{
    CU_ASSERT_EQUAL(gpu_memory_write(r->memory, address, data, bytes, NULL), 0);
}

void vc4_rig_program(struct vc4_rig *r, uint32_t address, const uint64_t *words, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        uint32_t w[2] = { (uint32_t)words[i], (uint32_t)(words[i] >> 32) };
        vc4_rig_write(r, address + 8 * i, w, 8);
    }
}

void vc4_rig_words(struct vc4_rig *r, uint32_t address, const uint32_t *words, unsigned count)
{
    vc4_rig_write(r, address, words, 4 * count);
}

uint32_t vc4_rig_read32(struct vc4_rig *r, uint32_t address)
{
    uint32_t v = 0;
    gpu_memory_read(r->memory, address, &v, 4, NULL);
    return v;
}

void vc4_rig_start(struct vc4_rig *r, unsigned q, uint32_t pc, uint32_t uniforms,
                   uint32_t uniforms_length)
{
    struct msg *m = msg_alloc(r->sim, MSG_QPU_IO, sizeof(struct qpu_program));
    struct qpu_program *p = (struct qpu_program *)m->payload;
    p->op = QPU_IO_START;
    p->qpu = q;
    p->pc = pc;
    p->uniforms = uniforms;
    p->uniforms_length = uniforms_length;
    CU_ASSERT_TRUE(port_inject(unit_port(r->qpu[q], "start", 0), m));
}

const uint32_t *vc4_rig_vpm_value(struct vc4_rig *r, unsigned n)
{
    static const uint32_t none[QPU_LANES];
    if (!r->vpm_writes || n >= r->vpm_writes->count || n >= VC4_CATCH_MAX)
        return none;
    const struct qpu_io_request *q = (const struct qpu_io_request *)r->vpm_writes->payload[n];
    return q->value;
}
