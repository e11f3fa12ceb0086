// rtl-cosim/verilated_model.h - the glue every Verilated model of the
// co-simulation shares, after Verilator's examples/make_tracing_c/sim_main.cpp:
// a context object per model (no file-scope model statics), the model built
// as the good or the BROKEN variant behind one interface, explicit time,
// eval() per edge, final() before destruction, assertions off during reset
// (as Vortex's rtlsim does), and the FST waveform of a window of cycles
// (wave_window.h). Each RTL's wrapper (cs_alu_rtl.cpp, fpu_rtl.cpp,
// l3_rtl.cpp) only maps its pins: it declares its pin interface on top of
// RtlModel, implements it once for any Verilated top with VerilatedTop<V, ...>
// and keeps an RtlHarness.
#ifndef GTSIM_RTL_COSIM_VERILATED_MODEL_H
#define GTSIM_RTL_COSIM_VERILATED_MODEL_H

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <unistd.h>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "rtl-cosim/wave_window.h"

// What every model offers, whichever RTL and variant it is.
class RtlModel {
public:
    virtual ~RtlModel() = default;
    virtual void set_clk(bool clk) = 0;
    virtual void set_rst_n(bool rst_n) = 0;
    virtual void eval() = 0;
    virtual void trace(VerilatedFstC *tfp) = 0;
    virtual void final() = 0;
    virtual VerilatedContext *context() = 0;
};

// The model-independent half of Pins (an interface derived from RtlModel)
// for the Verilated top V, whose clock is `clk` and reset `rst_n`.
template <class V, class Pins>
class VerilatedTop : public Pins {
public:
    explicit VerilatedTop(bool trace) : ctx_{new VerilatedContext} {
        ctx_->traceEverOn(trace);
        top_.reset(new V{ctx_.get(), "TOP"});
        top_->clk = 0;
        top_->rst_n = 1;
    }
    void set_clk(bool clk) override { top_->clk = clk; }
    void set_rst_n(bool rst_n) override { top_->rst_n = rst_n; }
    void eval() override { top_->eval(); }
    void trace(VerilatedFstC *tfp) override { top_->trace(tfp, 99); }
    void final() override { top_->final(); }
    VerilatedContext *context() override { return ctx_.get(); }

protected:
    V &top() const { return *top_; }

private:
    // The context outlives the model: declared first, destroyed last.
    const std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
};

// A model, its waveform and its clock.
template <class Pins>
struct RtlHarness {
    std::unique_ptr<Pins> model;
    WaveWindow wave;
    uint64_t period_ps = 1000;
    uint64_t edges = 0;             // rising edges given by clock()
    bool trace_allowed = false;

    // Builds Impl<Good> or Impl<Broken>; `trace`: a wave may be opened later.
    template <template <class> class Impl, class Good, class Broken>
    void create(bool broken, bool trace) {
        trace_allowed = trace;
        if (broken)
            model.reset(new Impl<Broken>(trace));
        else
            model.reset(new Impl<Good>(trace));
    }

    ~RtlHarness() {
        if (model) {
            model->final();
            write_coverage();
        }
        wave.close();
    }

    // Built with coverage (make cosim-coverage): the model's counts into a
    // file of their own under $GTSIM_COSIM_COVERAGE_DIR, merged by the target.
    void write_coverage() {
#if VM_COVERAGE
        const char *dir = std::getenv("GTSIM_COSIM_COVERAGE_DIR");
        if (!dir)
            return;
        std::string path = std::string(dir) + "/model-XXXXXX";
        int fd = mkstemp(&path[0]);
        if (fd < 0)
            return;
        close(fd);
        model->context()->coveragep()->write(path.c_str());
#endif
    }

    // Two clocks with rst_n low and assertions off; `idle` first sets the
    // inputs to their idle values.
    template <class Idle> void reset(Idle idle) {
        Pins &m = *model;
        m.context()->assertOn(false);
        idle(m);
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
        m.context()->assertOn(true);
    }

    // reset(idle), then `clocks` clocks with the inputs idle: how many times
    // `valid(model)` (the model's answer-valid output) was high, after the reset
    // and after each clock; 0 is right: no answer without a request. (Wrappers
    // read their valid output only when an answer is due, so they would not see
    // a spurious one.)
    template <class Idle, class Valid>
    unsigned idle_after_reset(Idle idle, Valid valid, unsigned clocks) {
        reset(idle);
        unsigned high = valid(*model) ? 1u : 0u;
        for (unsigned t = 0; t < clocks; t++) {
            idle(*model);
            clock(edges);
            high += valid(*model) ? 1u : 0u;
        }
        return high;
    }

    // The wave of cycles from..to at period_ps per fabric cycle (0: keep the
    // period); false when the file cannot be written or tracing was not asked
    // for at create.
    bool trace_open(const char *path, uint64_t period, uint64_t from, uint64_t to) {
        if (!trace_allowed || (period && period < 2))
            return false;
        if (!wave.open(*model, path, from, to))
            return false;
        if (period)
            period_ps = period;
        return true;
    }

    // One fabric cycle: the inputs set so far and the rising edge at half the
    // period (Verilator settles the logic of new inputs before it takes the
    // edge), the falling edge; dumped when the cycle is in the wave's window.
    void clock(uint64_t cycle) {
        Pins &m = *model;
        uint64_t t0 = cycle * period_ps;
        if (wave.tracing()) {
            m.context()->time(t0);
            m.eval();
            wave.dump(cycle, t0);
            m.context()->time(t0 + period_ps / 2);
        }
        m.set_clk(true);
        m.eval();
        if (wave.tracing())
            wave.dump(cycle, t0 + period_ps / 2);
        m.set_clk(false);
        m.eval();
        edges++;
    }
};

#endif
