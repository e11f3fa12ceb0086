// rtl-cosim/cs_alu_rtl.cpp - see cs_alu_rtl.h. The only C++ of the cs_alu
// co-simulation: its pins; the context, model, wave and clock are
// verilated_model.h's.
#include "rtl-cosim/cs_alu_rtl.h"

#include <cstring>

#include "rtl-cosim/verilated_model.h"
#include "gtkwave/fstapi.h"

#include "Vcs_alu.h"
#include "Vcs_alu_broken.h"

namespace {

// The ALU's pins, whichever variant it is.
class Pins : public RtlModel {
public:
    virtual void set_cpi(uint32_t cpi) = 0;
    virtual void set_request(const cs_alu_request *q, uint32_t count) = 0;
    virtual void set_resp_ready(bool ready) = 0;
    virtual bool req_ready() const = 0;
    virtual bool resp_valid() const = 0;
    virtual void response(cs_alu_response *out) const = 0;
};

template <class V>
class Impl final : public VerilatedTop<V, Pins> {
    using VerilatedTop<V, Pins>::top;

public:
    explicit Impl(bool trace) : VerilatedTop<V, Pins>(trace) {
        top().cfg_cpi = 1;
        top().req_valid = 0;
        top().resp_ready = 0;
    }
    void set_cpi(uint32_t cpi) override { top().cfg_cpi = (uint16_t)(cpi > 0xffff ? 0xffff : cpi); }
    void set_request(const cs_alu_request *q, uint32_t count) override {
        if (!q) {
            top().req_valid = 0;
            return;
        }
        top().req_valid = 1;
        for (int i = 0; i < CS_ALU_GPRS; i++)
            top().req_gpr[i] = q->gpr[i];
        top().req_count = (uint16_t)count;
        for (uint32_t i = 0; i < CS_ALU_MAX_INSTRUCTIONS; i++)
            top().req_instr[i] = i < count ? q->instruction[i] : 0;
    }
    void set_resp_ready(bool ready) override { top().resp_ready = ready; }
    bool req_ready() const override { return top().req_ready; }
    bool resp_valid() const override { return top().resp_valid; }
    void response(cs_alu_response *out) const override {
        std::memset(out, 0, sizeof *out);
        for (int i = 0; i < CS_ALU_GPRS; i++)
            out->gpr[i] = top().resp_gpr[i];
        out->accu = top().resp_accu;
        out->srca = top().resp_srca;
        out->srcb = top().resp_srcb;
        out->flags = (top().resp_zf ? CS_ALU_FLAG_ZF : 0) | (top().resp_cf ? CS_ALU_FLAG_CF : 0);
        out->executed = top().resp_executed;
        out->reserved = top().resp_reserved;
    }
};

}  // namespace

struct cs_alu_rtl : RtlHarness<Pins> {};

extern "C" {

struct cs_alu_rtl *cs_alu_rtl_create(enum cs_alu_rtl_variant variant, bool trace)
{
    cs_alu_rtl *r = new cs_alu_rtl;
    r->create<Impl, Vcs_alu, Vcs_alu_broken>(variant == CS_ALU_RTL_BROKEN, trace);
    return r;
}

void cs_alu_rtl_trace_close(struct cs_alu_rtl *r) { r->wave.close(); }
void cs_alu_rtl_destroy(struct cs_alu_rtl *r) { delete r; }

void cs_alu_rtl_reset(struct cs_alu_rtl *r)
{
    r->reset([](Pins &m) {
        m.set_request(nullptr, 0);
        m.set_resp_ready(false);
    });
}

int cs_alu_rtl_trace_open(struct cs_alu_rtl *r, const char *path, uint64_t period_ps,
                          uint64_t from, uint64_t to)
{
    return period_ps >= 2 && r->trace_open(path, period_ps, from, to) ? 0 : -1;
}

void cs_alu_rtl_trace_window(struct cs_alu_rtl *r, uint64_t from, uint64_t to)
{
    r->wave.window(from, to);
}

bool cs_alu_rtl_tracing(const struct cs_alu_rtl *r) { return r->wave.tracing(); }

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

bool cs_alu_rtl_resp_valid(const struct cs_alu_rtl *r) { return r->model->resp_valid(); }

void cs_alu_rtl_response(const struct cs_alu_rtl *r, struct cs_alu_response *out)
{
    r->model->response(out);
}

bool cs_alu_rtl_running(struct cs_alu_rtl *r)
{
    r->model->set_resp_ready(false);
    return !cs_alu_rtl_req_ready(r) && !r->model->resp_valid();
}

void cs_alu_rtl_clock(struct cs_alu_rtl *r, uint64_t cycle) { r->clock(cycle); }
uint64_t cs_alu_rtl_edges(const struct cs_alu_rtl *r) { return r->edges; }

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
