/* rtl-cosim/cs_alu_rtl.h - the Verilated cs_alu (rtl/cs_alu.sv) behind a small C API.
 *
 * The C++ side (cs_alu_rtl.cpp) owns the Verilator context, the model and the
 * optional FST trace; everything else in the co-simulation is C and drives the
 * RTL through these calls, pin by pin, once per fabric cycle:
 *
 *     set inputs (cs_alu_rtl_set_resp_ready, cs_alu_rtl_set_request)
 *     read combinational outputs (cs_alu_rtl_req_ready) - evaluates first
 *     cs_alu_rtl_clock(r, cycle)          - one rising edge for fabric cycle `cycle`
 *     read registered outputs (cs_alu_rtl_resp_valid, cs_alu_rtl_response)
 *
 * Waveform time: fabric cycle c is the interval [c * period, (c + 1) * period)
 * in picoseconds; inputs change at its start and the rising edge is at its
 * middle. Cycles the fabric skips (the unit slept) are skipped in the trace too.
 */
#ifndef GTSIM_RTL_COSIM_CS_ALU_RTL_H
#define GTSIM_RTL_COSIM_CS_ALU_RTL_H

#include <stdbool.h>
#include <stdint.h>

#include "units/cs_alu/cs_alu.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_alu_rtl_variant {
    CS_ALU_RTL_GOOD = 0,        /* rtl/cs_alu.sv as written */
    CS_ALU_RTL_BROKEN = 1,      /* the same with `define BROKEN (one planted bug) */
};

struct cs_alu_rtl;

/* A model in reset (call cs_alu_rtl_reset before use). `trace` allows an FST
 * trace to be opened later (costs a little speed). Never NULL. */
struct cs_alu_rtl *cs_alu_rtl_create(enum cs_alu_rtl_variant variant, bool trace);
/* Runs the model's final blocks, closes the trace, frees everything. */
void cs_alu_rtl_destroy(struct cs_alu_rtl *r);

/* Holds rst_n low for two clocks with the inputs idle, then releases it.
 * Assertions are off while in reset. Not traced. */
void cs_alu_rtl_reset(struct cs_alu_rtl *r);

/* Opens an FST file; edges of cycles from..to (inclusive) are dumped. The
 * window can be moved later (cs_alu_rtl_trace_window). 0 or -1 (cannot open). */
int cs_alu_rtl_trace_open(struct cs_alu_rtl *r, const char *path, uint64_t period_ps,
                          uint64_t from, uint64_t to);
void cs_alu_rtl_trace_window(struct cs_alu_rtl *r, uint64_t from, uint64_t to);
bool cs_alu_rtl_tracing(const struct cs_alu_rtl *r);
/* Flushes and closes the trace (also done by destroy). */
void cs_alu_rtl_trace_close(struct cs_alu_rtl *r);

/* ---- inputs ---------------------------------------------------------------- */

void cs_alu_rtl_set_cpi(struct cs_alu_rtl *r, uint32_t cycles_per_instruction);
/* Drives req_valid with the request's GPRs, `count` (already clamped by the
 * caller with cs_alu_request_count) and its first `count` dwords; NULL drops
 * req_valid. */
void cs_alu_rtl_set_request(struct cs_alu_rtl *r, const struct cs_alu_request *q, uint32_t count);
void cs_alu_rtl_set_resp_ready(struct cs_alu_rtl *r, bool ready);

/* ---- outputs --------------------------------------------------------------- */

bool cs_alu_rtl_req_ready(struct cs_alu_rtl *r);     /* after the inputs set so far */
bool cs_alu_rtl_resp_valid(const struct cs_alu_rtl *r);
/* The response pins as a struct cs_alu_response (malformed = 0: the RTL does
 * not see message sizes; the adapter fills it). */
void cs_alu_rtl_response(const struct cs_alu_rtl *r, struct cs_alu_response *out);
/* Neither holding a response nor ready for a request: executing. */
bool cs_alu_rtl_running(struct cs_alu_rtl *r);

/* ---- time ------------------------------------------------------------------ */

/* One clock for fabric cycle `cycle` (> the previous one): the rising edge,
 * then the falling edge; dumped when tracing and inside the window. */
void cs_alu_rtl_clock(struct cs_alu_rtl *r, uint64_t cycle);
uint64_t cs_alu_rtl_edges(const struct cs_alu_rtl *r);  /* rising edges so far */

/* Reads back an FST file's time span (ps) and signal count: 0, or -1 when it
 * is not a readable FST file. For tests of the wave dumping. */
int cs_alu_rtl_fst_info(const char *path, uint64_t *start_ps, uint64_t *end_ps,
                        uint64_t *signals);

#ifdef __cplusplus
}
#endif

#endif
