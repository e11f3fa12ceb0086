// rtl-cosim/fpu_rtl.cpp - see fpu_rtl.h. The FPU pipe's only C++: its pins;
// the context, model, wave and clock are verilated_model.h's.
#include "rtl-cosim/fpu_rtl.h"

#include <cstring>

#include "rtl-cosim/verilated_model.h"

#include "Vfpu_pipe.h"
#include "Vfpu_pipe_broken.h"

namespace {

class Pins : public RtlModel {
public:
    virtual void set_depth(uint32_t d) = 0;
    virtual void set_request(const fpu_request *q, uint32_t tag) = 0;
    virtual void set_resp_ready(bool ready) = 0;
    virtual bool req_ready() const = 0;
    virtual bool resp_valid() const = 0;
    virtual void response(fpu_response *out, uint32_t *tag) const = 0;
};

template <class V>
class Impl final : public VerilatedTop<V, Pins> {
    using VerilatedTop<V, Pins>::top;

public:
    explicit Impl(bool trace) : VerilatedTop<V, Pins>(trace) {
        top().cfg_depth = 4;
        top().req_valid = 0;
        top().resp_ready = 0;
    }
    void set_depth(uint32_t d) override { top().cfg_depth = (uint8_t)d; }
    void set_request(const fpu_request *q, uint32_t tag) override {
        if (!q) {
            top().req_valid = 0;
            return;
        }
        top().req_valid = 1;
        top().req_op = q->op;
        top().req_cond = q->cond;
        top().req_mask = q->mask;
        top().req_reserved = q->reserved;
        top().req_ctrl = q->ctrl;
        top().req_mode = q->mode;
        top().req_pad = q->pad;
        for (int l = 0; l < FPU_LANES; l++) {
            top().req_src0[l] = q->src[0][l];
            top().req_src1[l] = q->src[1][l];
            top().req_src2[l] = q->src[2][l];
        }
        top().req_tag = tag;
    }
    void set_resp_ready(bool ready) override { top().resp_ready = ready; }
    bool req_ready() const override { return top().req_ready; }
    bool resp_valid() const override { return top().resp_valid; }
    void response(fpu_response *out, uint32_t *tag) const override {
        std::memset(out, 0, sizeof *out);
        for (int l = 0; l < FPU_LANES; l++)
            out->result[l] = top().resp_result[l];
        out->flags = top().resp_flags;
        out->status = top().resp_status;
        *tag = top().resp_tag;
    }
};

}  // namespace

struct fpu_rtl : RtlHarness<Pins> {};

extern "C" {

struct fpu_rtl *fpu_rtl_create(enum fpu_rtl_variant variant, bool trace)
{
    fpu_rtl *r = new fpu_rtl;
    r->create<Impl, Vfpu_pipe, Vfpu_pipe_broken>(variant == FPU_RTL_BROKEN, trace);
    return r;
}

void fpu_rtl_trace_close(struct fpu_rtl *r) { r->wave.close(); }
void fpu_rtl_destroy(struct fpu_rtl *r) { delete r; }

void fpu_rtl_reset(struct fpu_rtl *r)
{
    r->reset([](Pins &m) {
        m.set_request(nullptr, 0);
        m.set_resp_ready(false);
    });
}

int fpu_rtl_trace_open(struct fpu_rtl *r, const char *path, uint64_t period_ps, uint64_t from,
                       uint64_t to)
{
    return period_ps >= 2 && r->trace_open(path, period_ps, from, to) ? 0 : -1;
}

void fpu_rtl_trace_window(struct fpu_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}

bool fpu_rtl_tracing(const struct fpu_rtl *r) { return r->wave.tracing(); }
void fpu_rtl_set_depth(struct fpu_rtl *r, uint32_t depth) { r->model->set_depth(depth); }

void fpu_rtl_set_request(struct fpu_rtl *r, const struct fpu_request *q, uint32_t tag)
{
    r->model->set_request(q, tag);
}

void fpu_rtl_set_resp_ready(struct fpu_rtl *r, bool ready) { r->model->set_resp_ready(ready); }

bool fpu_rtl_req_ready(struct fpu_rtl *r)
{
    r->model->eval();
    return r->model->req_ready();
}

bool fpu_rtl_resp_valid(const struct fpu_rtl *r) { return r->model->resp_valid(); }

void fpu_rtl_response(const struct fpu_rtl *r, struct fpu_response *out, uint32_t *tag)
{
    r->model->response(out, tag);
}

void fpu_rtl_clock(struct fpu_rtl *r, uint64_t cycle) { r->clock(cycle); }

}  // extern "C"
