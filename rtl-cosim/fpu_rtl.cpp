// rtl-cosim/fpu_rtl.cpp - see fpu_rtl.h. The FPU pipe's only C++, shaped as
// cs_alu_rtl.cpp (a context per model, explicit time, final() before
// destruction, assertions off in reset).
#include "rtl-cosim/fpu_rtl.h"

#include <cstring>
#include <memory>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "rtl-cosim/wave_window.h"

#include "Vfpu_pipe.h"
#include "Vfpu_pipe_broken.h"

namespace {

class Model {
public:
    virtual ~Model() = default;
    virtual void set_depth(uint32_t d) = 0;
    virtual void set_request(const fpu_request *q, uint32_t tag) = 0;
    virtual void set_resp_ready(bool ready) = 0;
    virtual void set_clk(bool clk) = 0;
    virtual void set_rst_n(bool rst_n) = 0;
    virtual bool req_ready() const = 0;
    virtual bool resp_valid() const = 0;
    virtual void response(fpu_response *out, uint32_t *tag) const = 0;
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
        top_->cfg_depth = 4;
        top_->req_valid = 0;
        top_->resp_ready = 0;
    }
    void set_depth(uint32_t d) override { top_->cfg_depth = (uint8_t)d; }
    void set_request(const fpu_request *q, uint32_t tag) override {
        if (!q) {
            top_->req_valid = 0;
            return;
        }
        top_->req_valid = 1;
        top_->req_op = q->op;
        top_->req_cond = q->cond;
        top_->req_mask = q->mask;
        top_->req_reserved = q->reserved;
        top_->req_ctrl = q->ctrl;
        top_->req_mode = q->mode;
        top_->req_pad = q->pad;
        for (int l = 0; l < FPU_LANES; l++) {
            top_->req_src0[l] = q->src[0][l];
            top_->req_src1[l] = q->src[1][l];
            top_->req_src2[l] = q->src[2][l];
        }
        top_->req_tag = tag;
    }
    void set_resp_ready(bool ready) override { top_->resp_ready = ready; }
    void set_clk(bool clk) override { top_->clk = clk; }
    void set_rst_n(bool rst_n) override { top_->rst_n = rst_n; }
    bool req_ready() const override { return top_->req_ready; }
    bool resp_valid() const override { return top_->resp_valid; }
    void response(fpu_response *out, uint32_t *tag) const override {
        std::memset(out, 0, sizeof *out);
        for (int l = 0; l < FPU_LANES; l++)
            out->result[l] = top_->resp_result[l];
        out->flags = top_->resp_flags;
        out->status = top_->resp_status;
        *tag = top_->resp_tag;
    }
    void eval() override { top_->eval(); }
    void trace(VerilatedFstC *tfp) override { top_->trace(tfp, 99); }
    void final() override { top_->final(); }
    VerilatedContext *context() override { return ctx_.get(); }

private:
    const std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
};

}  // namespace

struct fpu_rtl {
    std::unique_ptr<Model> model;
    WaveWindow wave;
    uint64_t period_ps = 1000;
    bool trace_allowed = false;
};

extern "C" {

struct fpu_rtl *fpu_rtl_create(enum fpu_rtl_variant variant, bool trace)
{
    fpu_rtl *r = new fpu_rtl;
    r->trace_allowed = trace;
    if (variant == FPU_RTL_BROKEN)
        r->model.reset(new Impl<Vfpu_pipe_broken>(trace));
    else
        r->model.reset(new Impl<Vfpu_pipe>(trace));
    return r;
}

void fpu_rtl_trace_close(struct fpu_rtl *r)
{
    r->wave.close();
}

void fpu_rtl_destroy(struct fpu_rtl *r)
{
    if (!r)
        return;
    r->model->final();
    fpu_rtl_trace_close(r);
    delete r;
}

void fpu_rtl_reset(struct fpu_rtl *r)
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

int fpu_rtl_trace_open(struct fpu_rtl *r, const char *path, uint64_t period_ps, uint64_t from,
                       uint64_t to)
{
    if (!r->trace_allowed || period_ps < 2)
        return -1;
    if (!r->wave.open(*r->model, path, from, to))
        return -1;
    r->period_ps = period_ps;
    return 0;
}

void fpu_rtl_trace_window(struct fpu_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}

bool fpu_rtl_tracing(const struct fpu_rtl *r)
{
    return r->wave.tracing();
}

void fpu_rtl_set_depth(struct fpu_rtl *r, uint32_t depth)
{
    r->model->set_depth(depth);
}

void fpu_rtl_set_request(struct fpu_rtl *r, const struct fpu_request *q, uint32_t tag)
{
    r->model->set_request(q, tag);
}

void fpu_rtl_set_resp_ready(struct fpu_rtl *r, bool ready)
{
    r->model->set_resp_ready(ready);
}

bool fpu_rtl_req_ready(struct fpu_rtl *r)
{
    r->model->eval();
    return r->model->req_ready();
}

bool fpu_rtl_resp_valid(const struct fpu_rtl *r)
{
    return r->model->resp_valid();
}

void fpu_rtl_response(const struct fpu_rtl *r, struct fpu_response *out, uint32_t *tag)
{
    r->model->response(out, tag);
}

static void dump(struct fpu_rtl *r, uint64_t cycle, uint64_t t)
{
    r->wave.dump(cycle, t);
}

void fpu_rtl_clock(struct fpu_rtl *r, uint64_t cycle)
{
    Model &m = *r->model;
    uint64_t t0 = cycle * r->period_ps;
    if (r->wave.tracing()) {
        m.context()->time(t0);
        m.eval();
        dump(r, cycle, t0);
        m.context()->time(t0 + r->period_ps / 2);
    }
    m.set_clk(true);
    m.eval();
    if (r->wave.tracing())
        dump(r, cycle, t0 + r->period_ps / 2);
    m.set_clk(false);
    m.eval();
}

}  // extern "C"
