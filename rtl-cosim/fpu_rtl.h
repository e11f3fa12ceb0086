/* rtl-cosim/fpu_rtl.h - the Verilated FPU pipe (rtl/fpu_pipe.sv) behind a
 * small C API, as cs_alu_rtl.h: per fabric cycle, set the inputs
 * (fpu_rtl_set_request, fpu_rtl_set_resp_ready), read req_ready (evaluates),
 * read the registered response (fpu_rtl_resp_valid, fpu_rtl_response), then
 * fpu_rtl_clock(r, cycle). Waveform time: fabric cycle c is [c*period,
 * (c+1)*period) ps with the rising edge in the middle. */
#ifndef GTSIM_RTL_COSIM_FPU_RTL_H
#define GTSIM_RTL_COSIM_FPU_RTL_H

#include <stdbool.h>
#include <stdint.h>

#include "units/fpu/fpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FPU_RTL_MAX_DEPTH 16    /* fpu_pipe's MAXD */

enum fpu_rtl_variant { FPU_RTL_GOOD = 0, FPU_RTL_BROKEN = 1 };

struct fpu_rtl;

struct fpu_rtl *fpu_rtl_create(enum fpu_rtl_variant variant, bool trace);
void fpu_rtl_destroy(struct fpu_rtl *r);
/* Two clocks in reset with the inputs idle; the pipe is empty after. */
void fpu_rtl_reset(struct fpu_rtl *r);
int fpu_rtl_trace_open(struct fpu_rtl *r, const char *path, uint64_t period_ps, uint64_t from,
                       uint64_t to);
void fpu_rtl_trace_window(struct fpu_rtl *r, uint64_t from, uint64_t to);
bool fpu_rtl_tracing(const struct fpu_rtl *r);
void fpu_rtl_trace_close(struct fpu_rtl *r);

void fpu_rtl_set_depth(struct fpu_rtl *r, uint32_t depth);
/* Drives req_valid with q and tag; NULL drops req_valid. */
void fpu_rtl_set_request(struct fpu_rtl *r, const struct fpu_request *q, uint32_t tag);
void fpu_rtl_set_resp_ready(struct fpu_rtl *r, bool ready);

bool fpu_rtl_req_ready(struct fpu_rtl *r);
bool fpu_rtl_resp_valid(const struct fpu_rtl *r);
void fpu_rtl_response(const struct fpu_rtl *r, struct fpu_response *out, uint32_t *tag);

void fpu_rtl_clock(struct fpu_rtl *r, uint64_t cycle);

#ifdef __cplusplus
}
#endif

#endif
