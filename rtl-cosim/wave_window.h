// rtl-cosim/wave_window.h - the FST waveform of a Verilated model, written only
// for the fabric cycles of a window (around a mismatch). Shared by the RTL
// wrappers (cs_alu_rtl.cpp, fpu_rtl.cpp, l3_rtl.cpp).
#ifndef GTSIM_RTL_COSIM_WAVE_WINDOW_H
#define GTSIM_RTL_COSIM_WAVE_WINDOW_H

#include <cstdint>
#include <memory>

#include "verilated_fst_c.h"

struct WaveWindow {
    std::unique_ptr<VerilatedFstC> tfp;
    uint64_t from = 0, to = 0;      // fabric cycles to dump, inclusive
    uint64_t last_dump = 0;
    bool dumped = false;

    // Opens path for the model's signals; false when it cannot be written.
    template <class Model> bool open(Model &model, const char *path, uint64_t first, uint64_t last)
    {
        close();
        tfp.reset(new VerilatedFstC);
        model.trace(tfp.get());
        tfp->open(path);
        if (!tfp->isOpen()) {
            tfp.reset();
            return false;
        }
        window(first, last);
        dumped = false;
        return true;
    }

    void close()
    {
        if (tfp) {
            tfp->close();
            tfp.reset();
        }
    }

    void window(uint64_t first, uint64_t last)
    {
        from = first;
        to = last;
    }

    bool tracing() const { return tfp != nullptr; }
    bool in_window(uint64_t cycle) const { return tfp && cycle >= from && cycle <= to; }

    // Dumps at time t during `cycle` when it is in the window (FST time only
    // moves forward: a time not after the last dump is skipped).
    void dump(uint64_t cycle, uint64_t t)
    {
        if (!in_window(cycle) || (dumped && t <= last_dump))
            return;
        tfp->dump(t);
        last_dump = t;
        dumped = true;
    }
};

#endif
