// rtl-cosim/cs_alu_rtl.cpp - see cs_alu_rtl.h. The only C++ of the cs_alu
// co-simulation: it follows Verilator's examples/make_tracing_c/sim_main.cpp
// (a context object per model, no file-scope model statics, explicit time,
// eval() per edge, final() before destruction) and keeps assertions off during
// reset as Vortex's rtlsim does.
#include "rtl-cosim/cs_alu_rtl.h"

#include <cstring>
#include <memory>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "rtl-cosim/wave_window.h"
#include "gtkwave/fstapi.h"

#include "Vcs_alu.h"
#include "Vcs_alu_broken.h"

namespace {

// What the C API needs from a model, whichever variant it is.
class Model {
public:
    virtual ~Model() = default;
    virtual void set_cpi(uint32_t cpi) = 0;
    virtual void set_request(const cs_alu_request *q, uint32_t count) = 0;
    virtual void set_resp_ready(bool ready) = 0;
    virtual void set_clk(bool clk) = 0;
    virtual void set_rst_n(bool rst_n) = 0;
    virtual bool req_ready() const = 0;
    virtual bool resp_valid() const = 0;
    virtual void response(cs_alu_response *out) const = 0;
    virtual void eval() = 0;
    virtual void trace(VerilatedFstC *tfp) = 0;
    virtual void final() = 0;
    virtual VerilatedContext *context() = 0;
};

template <class V>
class Impl final : public Model {
public:
    explicit Impl(bool trace) : ctx_{new VerilatedContext} {
        ctx_->traceEverOn(trace);
        top_.reset(new V{ctx_.get(), "TOP"});
        top_->clk = 0;
        top_->rst_n = 1;
        top_->cfg_cpi = 1;
        top_->req_valid = 0;
        top_->resp_ready = 0;
    }
    void set_cpi(uint32_t cpi) override { top_->cfg_cpi = (uint16_t)(cpi > 0xffff ? 0xffff : cpi); }
    void set_request(const cs_alu_request *q, uint32_t count) override {
        if (!q) {
            top_->req_valid = 0;
            return;
        }
        top_->req_valid = 1;
        for (int i = 0; i < CS_ALU_GPRS; i++)
            top_->req_gpr[i] = q->gpr[i];
        top_->req_count = (uint16_t)count;
        for (uint32_t i = 0; i < CS_ALU_MAX_INSTRUCTIONS; i++)
            top_->req_instr[i] = i < count ? q->instruction[i] : 0;
    }
    void set_resp_ready(bool ready) override { top_->resp_ready = ready; }
    void set_clk(bool clk) override { top_->clk = clk; }
    void set_rst_n(bool rst_n) override { top_->rst_n = rst_n; }
    bool req_ready() const override { return top_->req_ready; }
    bool resp_valid() const override { return top_->resp_valid; }
    void response(cs_alu_response *out) const override {
        std::memset(out, 0, sizeof *out);
        for (int i = 0; i < CS_ALU_GPRS; i++)
            out->gpr[i] = top_->resp_gpr[i];
        out->accu = top_->resp_accu;
        out->srca = top_->resp_srca;
        out->srcb = top_->resp_srcb;
        out->flags = (top_->resp_zf ? CS_ALU_FLAG_ZF : 0) | (top_->resp_cf ? CS_ALU_FLAG_CF : 0);
        out->executed = top_->resp_executed;
        out->reserved = top_->resp_reserved;
    }
    void eval() override { top_->eval(); }
    void trace(VerilatedFstC *tfp) override { top_->trace(tfp, 99); }
    void final() override { top_->final(); }
    VerilatedContext *context() override { return ctx_.get(); }

private:
    // The context outlives the model: declared first, destroyed last.
    const std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
};

}  // namespace

struct cs_alu_rtl {
    std::unique_ptr<Model> model;
    WaveWindow wave;
    uint64_t period_ps = 1000;
    uint64_t edges = 0;
    bool finalized = false;
    bool trace_allowed = false;
};

extern "C" {

struct cs_alu_rtl *cs_alu_rtl_create(enum cs_alu_rtl_variant variant, bool trace)
{
    cs_alu_rtl *r = new cs_alu_rtl;
    r->trace_allowed = trace;
    if (variant == CS_ALU_RTL_BROKEN)
        r->model.reset(new Impl<Vcs_alu_broken>(trace));
    else
        r->model.reset(new Impl<Vcs_alu>(trace));
    return r;
}

void cs_alu_rtl_trace_close(struct cs_alu_rtl *r)
{
    r->wave.close();
}

void cs_alu_rtl_destroy(struct cs_alu_rtl *r)
{
    if (!r)
        return;
    if (!r->finalized)
        r->model->final();
    cs_alu_rtl_trace_close(r);
    delete r;
}

void cs_alu_rtl_reset(struct cs_alu_rtl *r)
{
    Model &m = *r->model;
    VerilatedContext *ctx = m.context();
    ctx->assertOn(false);
    m.set_request(nullptr, 0);
    m.set_resp_ready(false);
    m.set_rst_n(false);
    for (int i = 0; i < 2; i++) {
        m.set_clk(false);
        m.eval();
        m.set_clk(true);
        m.eval();
    }
    m.set_clk(false);
    m.set_rst_n(true);
    m.eval();
    ctx->assertOn(true);
}

int cs_alu_rtl_trace_open(struct cs_alu_rtl *r, const char *path, uint64_t period_ps,
                          uint64_t from, uint64_t to)
{
    if (!r->trace_allowed || period_ps < 2)
        return -1;
    if (!r->wave.open(*r->model, path, from, to))
        return -1;
    r->period_ps = period_ps;
    return 0;
}

void cs_alu_rtl_trace_window(struct cs_alu_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}

bool cs_alu_rtl_tracing(const struct cs_alu_rtl *r)
{
    return r->wave.tracing();
}

void cs_alu_rtl_set_cpi(struct cs_alu_rtl *r, uint32_t cycles_per_instruction)
{
    r->model->set_cpi(cycles_per_instruction);
}

void cs_alu_rtl_set_request(struct cs_alu_rtl *r, const struct cs_alu_request *q, uint32_t count)
{
    r->model->set_request(q, count > CS_ALU_MAX_INSTRUCTIONS ? CS_ALU_MAX_INSTRUCTIONS : count);
}

void cs_alu_rtl_set_resp_ready(struct cs_alu_rtl *r, bool ready)
{
    r->model->set_resp_ready(ready);
}

bool cs_alu_rtl_req_ready(struct cs_alu_rtl *r)
{
    r->model->eval();
    return r->model->req_ready();
}

bool cs_alu_rtl_resp_valid(const struct cs_alu_rtl *r)
{
    return r->model->resp_valid();
}

void cs_alu_rtl_response(const struct cs_alu_rtl *r, struct cs_alu_response *out)
{
    r->model->response(out);
}

bool cs_alu_rtl_running(struct cs_alu_rtl *r)
{
    r->model->set_resp_ready(false);
    return !cs_alu_rtl_req_ready(r) && !r->model->resp_valid();
}

static void dump(struct cs_alu_rtl *r, uint64_t cycle, uint64_t t)
{
    r->wave.dump(cycle, t);
}

void cs_alu_rtl_clock(struct cs_alu_rtl *r, uint64_t cycle)
{
    Model &m = *r->model;
    uint64_t t0 = cycle * r->period_ps;
    m.context()->time(t0);
    m.set_clk(false);
    m.eval();
    dump(r, cycle, t0);
    m.context()->time(t0 + r->period_ps / 2);
    m.set_clk(true);
    m.eval();
    dump(r, cycle, t0 + r->period_ps / 2);
    m.set_clk(false);
    m.eval();
    r->edges++;
}

uint64_t cs_alu_rtl_edges(const struct cs_alu_rtl *r)
{
    return r->edges;
}

int cs_alu_rtl_fst_info(const char *path, uint64_t *start_ps, uint64_t *end_ps,
                        uint64_t *signals)
{
    void *ctx = fstReaderOpen(path);
    if (!ctx)
        return -1;
    *start_ps = fstReaderGetStartTime(ctx);
    *end_ps = fstReaderGetEndTime(ctx);
    *signals = fstReaderGetVarCount(ctx);
    fstReaderClose(ctx);
    return 0;
}

}  // extern "C"
