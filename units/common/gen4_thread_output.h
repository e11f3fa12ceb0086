/* units/common/gen4_thread_output.h - the output VUEs of a Gen4 (965G) GS or
 * CLIP thread as primitives (a library, not a unit kind; issue 14 item 3).
 *
 * Seed 001: a GS or CLIP thread hands its FF unit each output VUE with a
 * URB_WRITE that has Complete and Used set (L2636-2640), the unit snooping
 * the message header; PrimType, PrimStart and PrimEnd come with it and "are
 * not sampled by the FF pipeline until Complete is set" (L1437-1440,
 * L8353-8357). The unit sends a thread's outputs down the pipeline in
 * order (L2641-2649), each PrimStart..PrimEnd run as one primitive; "the GS
 * thread is allowed to output incomplete primitives ... the downstream FF
 * units will correctly handle any dangling vertices" (L8346-8352), so
 * vertices outside a run are freed. The bit layout of M0.2 (PrimType 6:2,
 * PrimStart 1, PrimEnd 0) is Mesa's brw_eu_defines.h (public fact): the
 * seed's URB chapter is absent (notes §0). The urb_fence unit passes M0.2
 * on in the EU_TD_URB_OUTPUT notice (units/urb_fence/urb_fence.h). */
#ifndef GTSIM_UNITS_COMMON_GEN4_THREAD_OUTPUT_H
#define GTSIM_UNITS_COMMON_GEN4_THREAD_OUTPUT_H

#include <stdint.h>

#define GEN4_OUTPUT_PRIM_END 1u
#define GEN4_OUTPUT_PRIM_START 2u
#define GEN4_OUTPUT_TOPOLOGY(dword2) (((dword2) >> 2) & 0x1fu)

struct gen4_output_sink {
    void *context;
    /* a complete run: PrimStart to PrimEnd, the run's first PrimType */
    void (*primitive)(void *context, uint32_t topology, const uint32_t *handles, uint32_t count);
    /* vertices outside a complete run (the caller frees them) */
    void (*dangling)(void *context, const uint32_t *handles, uint32_t count);
};

/* Splits `count` outputs (handles with their M0.2) into runs, in order. */
void gen4_thread_outputs_split(const uint32_t *handles, const uint32_t *dword2, uint32_t count,
                               const struct gen4_output_sink *sink);

#endif
