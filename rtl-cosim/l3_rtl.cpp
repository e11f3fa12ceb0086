// rtl-cosim/l3_rtl.cpp - see l3_rtl.h. The slice's pins and its clocking in
// frames of commands; the context, model, wave and reset are
// verilated_model.h's.
#include "rtl-cosim/l3_rtl.h"

#include "rtl-cosim/verilated_model.h"

#include "Vl3_slice.h"
#include "Vl3_slice_broken.h"

namespace {

enum : uint8_t { CMD_NOP = 0, CMD_FILL = 1, CMD_ENQ = 2, CMD_SERVE = 3, CMD_MPOP = 4, CMD_RPOP = 5,
                   CMD_FLUSH = 6 };

struct Command {
    uint8_t cmd = CMD_NOP, bank = 0, op = 0, target = 0, port = 0;
    uint64_t now = 0, addr = 0;
    uint32_t tag = 0, mtag = 0;
};

struct Out {
    bool busy, mem_valid, mem_wb, reply_valid, reply_hit, overflow;
    uint8_t mem_op, reply_op, reply_port;
    uint32_t queue_counts, mem_count, reply_count, reply_tag, reply_mtag;
    uint64_t mem_line, reply_due, reply_addr;
    struct l3_rtl_stats st;
};

class Pins : public RtlModel {
public:
    virtual void cfg(const l3_rtl_cfg &c) = 0;
    virtual void pins(const Command &p) = 0;
    virtual void out(Out &o) const = 0;
};

template <class V>
class Impl final : public VerilatedTop<V, Pins> {
    using VerilatedTop<V, Pins>::top;

public:
    explicit Impl(bool trace) : VerilatedTop<V, Pins>(trace) { pins(Command{}); }
    void cfg(const l3_rtl_cfg &c) override {
        top().cfg_banks = (uint8_t)c.banks;
        top().cfg_ways = (uint8_t)c.ways;
        top().cfg_dc_ways = (uint8_t)c.dc_ways;
        top().cfg_ro_ways = (uint8_t)c.ro_ways;
        top().cfg_slm_on = c.slm_on;
        top().cfg_misses = (uint8_t)c.misses;
        top().cfg_hit_latency = (uint16_t)c.hit_latency;
        top().cfg_fill_latency = (uint16_t)c.fill_latency;
        top().cfg_urb_latency = (uint16_t)c.urb_latency;
        top().cfg_atomic_cycles = (uint16_t)c.atomic_cycles;
    }
    void pins(const Command &p) override {
        top().cmd = p.cmd;
        top().cmd_bank = p.bank;
        top().cmd_now = p.now;
        top().cmd_addr = p.addr;
        top().cmd_tag = p.tag;
        top().cmd_mtag = p.mtag;
        top().cmd_op = p.op;
        top().cmd_target = p.target;
        top().cmd_port = p.port;
    }
    void out(Out &o) const override {
        o.busy = top().busy;
        o.queue_counts = top().queue_counts;
        o.mem_valid = top().mem_valid;
        o.mem_line = top().mem_line;
        o.mem_op = top().mem_op;
        o.mem_wb = top().mem_writeback;
        o.mem_count = top().mem_count;
        o.reply_valid = top().reply_valid;
        o.reply_due = top().reply_due;
        o.reply_addr = top().reply_addr;
        o.reply_tag = top().reply_tag;
        o.reply_mtag = top().reply_mtag;
        o.reply_op = top().reply_op;
        o.reply_hit = top().reply_hit;
        o.reply_port = top().reply_port;
        o.reply_count = top().reply_count;
        o.overflow = top().overflow;
        o.st = {top().st_reads, top().st_writes, top().st_atomics, top().st_hits,
                            top().st_misses, top().st_merged, top().st_evictions,
                            top().st_writebacks, top().st_urb, top().st_uncached,
                            top().st_mshr_stalls, top().st_queue_cycles, top().st_ro_reads,
                            top().st_slm_unallocated};
    }
};

}  // namespace

static_assert(L3_RTL_BANKS * 8 <= 32, "queue_counts is read as 32 bits");

struct l3_rtl : RtlHarness<Pins> {
    l3_rtl_cfg cfg{};
    Out o{};
    uint64_t clocks = 0;
};

static void sample(l3_rtl *r)
{
    r->model->out(r->o);
}

// One clock with the pins p: they and the rising edge in one eval (Verilator
// settles the logic of the inputs before it takes the edge), then the falling
// edge with the pins back to NOP, so the lookups gated by the command are not
// worked out twice.
static void clock(l3_rtl *r, const Command &p)
{
    Pins &m = *r->model;
    bool dump = r->wave.in_window(p.now);
    uint64_t t = r->clocks * 10;
    m.pins(p);
    m.context()->time(t + 5);
    m.set_clk(true);
    m.eval();
    if (dump)
        r->wave.tfp->dump(t + 5);
    Command idle;
    idle.now = p.now;
    m.pins(idle);
    m.context()->time(t + 10);
    m.set_clk(false);
    m.eval();
    if (dump)
        r->wave.tfp->dump(t + 10);
    r->clocks++;
    sample(r);
}

extern "C" {

struct l3_rtl *l3_rtl_create(enum l3_rtl_variant variant, bool trace)
{
    l3_rtl *r = new l3_rtl;
    r->create<Impl, Vl3_slice, Vl3_slice_broken>(variant == L3_RTL_BROKEN, trace);
    return r;
}

void l3_rtl_trace_close(struct l3_rtl *r)
{
    r->wave.close();
}

void l3_rtl_destroy(struct l3_rtl *r) { delete r; }

void l3_rtl_reset(struct l3_rtl *r, const struct l3_rtl_cfg *cfg)
{
    r->cfg = *cfg;
    r->reset([cfg](Pins &m) {
        m.cfg(*cfg);
        m.pins(Command{});
    });
    sample(r);
}

int l3_rtl_trace_open(struct l3_rtl *r, const char *path, uint64_t from, uint64_t to)
{
    return r->trace_open(path, 0, from, to) ? 0 : -1;
}

void l3_rtl_trace_window(struct l3_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}

void l3_rtl_program(struct l3_rtl *r, uint64_t now, uint32_t ways, uint32_t dc_ways,
                    uint32_t ro_ways, bool slm_on)
{
    Command p;
    p.cmd = CMD_FLUSH;
    p.now = now;
    clock(r, p);
    Command idle;
    idle.now = now;
    while (r->o.busy)
        clock(r, idle);
    r->cfg.ways = ways;
    r->cfg.dc_ways = dc_ways;
    r->cfg.ro_ways = ro_ways;
    r->cfg.slm_on = slm_on;
    r->model->cfg(r->cfg);
    r->model->eval();
    sample(r);
}

void l3_rtl_fill(struct l3_rtl *r, uint64_t now, uint64_t addr, uint32_t tag)
{
    Command p;
    p.cmd = CMD_FILL;
    p.now = now;
    p.addr = addr;
    p.tag = tag;
    clock(r, p);
    Command idle;
    idle.now = now;
    while (r->o.busy)
        clock(r, idle);
}

void l3_rtl_enq(struct l3_rtl *r, uint64_t now, const struct l3_rtl_req *q)
{
    Command p;
    p.cmd = CMD_ENQ;
    p.now = now;
    p.addr = q->addr;
    p.tag = q->tag;
    p.mtag = q->mtag;
    p.op = q->op;
    p.target = q->target;
    p.port = q->port;
    clock(r, p);
}

void l3_rtl_serve(struct l3_rtl *r, uint64_t now)
{
    for (uint32_t b = 0; b < r->cfg.banks; b++) {
        Command p;
        p.cmd = CMD_SERVE;
        p.bank = (uint8_t)b;
        p.now = now;
        clock(r, p);
    }
}

bool l3_rtl_mem_head(const struct l3_rtl *r, uint64_t *line, uint8_t *op, bool *writeback)
{
    if (!r->o.mem_valid)
        return false;
    *line = r->o.mem_line;
    *op = r->o.mem_op;
    *writeback = r->o.mem_wb;
    return true;
}

void l3_rtl_mem_pop(struct l3_rtl *r, uint64_t now)
{
    Command p;
    p.cmd = CMD_MPOP;
    p.now = now;
    clock(r, p);
}

bool l3_rtl_reply_head(const struct l3_rtl *r, struct l3_rtl_reply *out)
{
    if (!r->o.reply_valid)
        return false;
    *out = l3_rtl_reply{r->o.reply_due, r->o.reply_addr, r->o.reply_tag, r->o.reply_mtag,
                        r->o.reply_op, (uint8_t)r->o.reply_hit, r->o.reply_port};
    return true;
}

void l3_rtl_reply_pop(struct l3_rtl *r, uint64_t now)
{
    Command p;
    p.cmd = CMD_RPOP;
    p.now = now;
    clock(r, p);
}

uint32_t l3_rtl_queue_count(const struct l3_rtl *r)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < L3_RTL_BANKS; b++)
        n += (r->o.queue_counts >> (8 * b)) & 0xff;
    return n;
}
uint32_t l3_rtl_bank_queue_count(const struct l3_rtl *r, uint32_t bank)
{
    return bank < L3_RTL_BANKS ? (r->o.queue_counts >> (8 * bank)) & 0xff : 0;
}
uint32_t l3_rtl_reply_count(const struct l3_rtl *r) { return r->o.reply_count; }
uint32_t l3_rtl_mem_count(const struct l3_rtl *r) { return r->o.mem_count; }
bool l3_rtl_overflow(const struct l3_rtl *r) { return r->o.overflow; }
void l3_rtl_stats(const struct l3_rtl *r, struct l3_rtl_stats *out) { *out = r->o.st; }
uint64_t l3_rtl_clocks(const struct l3_rtl *r) { return r->clocks; }

}  // extern "C"
