// rtl-cosim/qpu_alu_rtl.cpp - see qpu_alu_rtl.h. The QPU ALUs' only C++: their pins; the
// context, model, wave and clock are verilated_model.h's.
#include "rtl-cosim/qpu_alu_rtl.h"

#include <vector>

#include "rtl-cosim/verilated_model.h"

#include "Vqpu_alu.h"
#include "Vqpu_alu_broken.h"

namespace {

class Pins : public RtlModel {
public:
    virtual void idle() = 0;
    virtual void quad(const qpu_alu_request *rq, unsigned q, uint8_t tag) = 0;
    virtual bool out_valid() const = 0;
    virtual uint8_t out_tag() const = 0;
    virtual void quad_out(qpu_alu_result *out, unsigned q) const = 0;
};

template <class V>
class Impl final : public VerilatedTop<V, Pins> {
    using VerilatedTop<V, Pins>::top;

public:
    explicit Impl(bool trace) : VerilatedTop<V, Pins>(trace) { idle(); }
    void idle() override { top().in_valid = 0; }
    void quad(const qpu_alu_request *rq, unsigned q, uint8_t tag) override {
        V &t = top();
        t.in_valid = 1;
        t.in_tag = tag;
        t.op_add = rq->op_add & 31;
        t.op_mul = rq->op_mul & 7;
        t.mux_add_a = rq->add_a & 7;
        t.mux_add_b = rq->add_b & 7;
        t.mux_mul_a = rq->mul_a & 7;
        t.mux_mul_b = rq->mul_b & 7;
        t.pm = rq->pm & 1;
        t.unpack = rq->unpack & 7;
        t.pack = rq->pack & 15;
        t.cond_add = rq->cond_add & 7;
        t.cond_mul = rq->cond_mul & 7;
        t.sf = rq->sf;
        t.add_pack_a = rq->add_pack_a;
        t.mul_pack_a = rq->mul_pack_a;
        t.flag_z_in = (rq->flag_z >> (4 * q)) & 15;
        t.flag_n_in = (rq->flag_n >> (4 * q)) & 15;
        t.flag_c_in = (rq->flag_c >> (4 * q)) & 15;
        for (unsigned i = 0; i < 4; i++) {
            unsigned e = 4 * q + i;
            t.add_a[i] = rq->add_operand[0][e];
            t.add_b[i] = rq->add_operand[1][e];
            t.mul_a[i] = rq->mul_operand[0][e];
            t.mul_b[i] = rq->mul_operand[1][e];
            t.add_old[i] = rq->add_old[e];
            t.mul_old[i] = rq->mul_old[e];
        }
    }
    bool out_valid() const override { return top().out_valid; }
    uint8_t out_tag() const override { return top().out_tag; }
    void quad_out(qpu_alu_result *out, unsigned q) const override {
        const V &t = top();
        unsigned shift = 4 * q;
        uint16_t keep = (uint16_t)~(15u << shift);
        for (unsigned i = 0; i < 4; i++) {
            out->add_value[4 * q + i] = t.add_value[i];
            out->mul_value[4 * q + i] = t.mul_value[i];
        }
        out->add_lanes = (uint16_t)((out->add_lanes & keep) | (t.add_write & 15u) << shift);
        out->mul_lanes = (uint16_t)((out->mul_lanes & keep) | (t.mul_write & 15u) << shift);
        out->flag_z = (uint16_t)((out->flag_z & keep) | (t.flag_z_out & 15u) << shift);
        out->flag_n = (uint16_t)((out->flag_n & keep) | (t.flag_n_out & 15u) << shift);
        out->flag_c = (uint16_t)((out->flag_c & keep) | (t.flag_c_out & 15u) << shift);
    }
};

}  // namespace

struct qpu_alu_rtl : RtlHarness<Pins> {};

extern "C" {

struct qpu_alu_rtl *qpu_alu_rtl_create(bool broken, bool trace)
{
    qpu_alu_rtl *r = new qpu_alu_rtl;
    r->create<Impl, Vqpu_alu, Vqpu_alu_broken>(broken, trace);
    r->period_ps = 10;
    return r;
}

void qpu_alu_rtl_destroy(struct qpu_alu_rtl *r) { delete r; }

void qpu_alu_rtl_reset(struct qpu_alu_rtl *r)
{
    r->reset([](Pins &m) { m.idle(); });
}

int qpu_alu_rtl_trace_open(struct qpu_alu_rtl *r, const char *path, uint64_t from, uint64_t to)
{
    return r->trace_open(path, 10, from, to) ? 0 : -1;
}

void qpu_alu_rtl_trace_window(struct qpu_alu_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}
void qpu_alu_rtl_trace_close(struct qpu_alu_rtl *r) { r->wave.close(); }
uint64_t qpu_alu_rtl_clocks(const struct qpu_alu_rtl *r) { return r->edges; }

unsigned qpu_alu_rtl_compute_many(struct qpu_alu_rtl *r, const struct qpu_alu_request *rq,
                                  struct qpu_alu_result *out, unsigned n)
{
    // Quad k (instruction k / 4, quad k % 4) goes in on clock k with tag k mod 256 and
    // must come out after clock k + QPU_ALU_RTL_LATENCY with that tag.
    uint64_t quads = 4ull * n, missing = 0;
    for (uint64_t t = 0; t < quads + QPU_ALU_RTL_LATENCY; t++) {
        if (t < quads)
            r->model->quad(&rq[t / 4], (unsigned)(t % 4), (uint8_t)t);
        else
            r->model->idle();
        r->clock(r->edges);
        if (t < QPU_ALU_RTL_LATENCY)
            continue;
        uint64_t k = t - QPU_ALU_RTL_LATENCY;   // the quad due after this clock
        if (!r->model->out_valid() || r->model->out_tag() != (uint8_t)k) {
            missing++;
            continue;
        }
        r->model->quad_out(&out[k / 4], (unsigned)(k % 4));
    }
    r->model->idle();
    return (unsigned)missing;
}

unsigned qpu_alu_rtl_idle_after_reset(struct qpu_alu_rtl *r, unsigned clocks)
{
    return r->idle_after_reset([](Pins &m) { m.idle(); },
                               [](const Pins &m) { return m.out_valid(); }, clocks);
}

}  // extern "C"
