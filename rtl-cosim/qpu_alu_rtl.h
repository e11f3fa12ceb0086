/* rtl-cosim/qpu_alu_rtl.h - the Verilated QPU ALUs (rtl/qpu_alu.sv) behind the C datapath's
 * own call (isa/vc4/qpu_exec.h qpu_alu_compute): an instruction's 16 elements go in as four
 * quads on four consecutive clocks and come out two clocks after each (six clocks an
 * instruction; qpu_alu_rtl_compute_many streams several back to back). Waveform time: RTL
 * clock n is [n*10, n*10+10) with the rising edge at +5; the wave window counts RTL clocks. */
#ifndef GTSIM_RTL_COSIM_QPU_ALU_RTL_H
#define GTSIM_RTL_COSIM_QPU_ALU_RTL_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/vc4/qpu_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QPU_ALU_RTL_LATENCY 2u      /* a quad on edge n is out after edge n + 2 */

struct qpu_alu_rtl;

struct qpu_alu_rtl *qpu_alu_rtl_create(bool broken, bool trace);
void qpu_alu_rtl_destroy(struct qpu_alu_rtl *r);
void qpu_alu_rtl_reset(struct qpu_alu_rtl *r);
/* The FST of RTL clocks from..to; -1 when it cannot be written (or trace was false). */
int qpu_alu_rtl_trace_open(struct qpu_alu_rtl *r, const char *path, uint64_t from, uint64_t to);
void qpu_alu_rtl_trace_window(struct qpu_alu_rtl *r, uint64_t from, uint64_t to);
void qpu_alu_rtl_trace_close(struct qpu_alu_rtl *r);
uint64_t qpu_alu_rtl_clocks(const struct qpu_alu_rtl *r);

/* As qpu_alu_compute, n instructions streamed (a quad a clock). Returns the number of quads
 * the RTL did not answer on time or answered with the wrong tag (0: all answered; the
 * unanswered quads' outputs are left as they were). */
unsigned qpu_alu_rtl_compute_many(struct qpu_alu_rtl *r, const struct qpu_alu_request *rq,
                                  struct qpu_alu_result *out, unsigned n);

/* The interface's idle rule (out_valid only for a quad given): resets the model, then gives
 * `clocks` clocks with in_valid low; returns how many times out_valid was high (after the
 * reset and after each clock): 0 for a good block. compute_many looks at out_valid only
 * when a quad is due, so it never sees a spurious one (the pipeline's reset values). */
unsigned qpu_alu_rtl_idle_after_reset(struct qpu_alu_rtl *r, unsigned clocks);

#ifdef __cplusplus
}
#endif

#endif
