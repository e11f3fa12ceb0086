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

#include <stdbool.h>
#include <stdint.h>

struct stage_threads;
struct unit;

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

#define GEN4_THREAD_MAX_OUTPUTS 64u     /* output VUEs one thread can hand on (the model's) */

/* One thread's output VUEs, in the order its URB_WRITEs completed them. */
struct gen4_thread_outputs {
    uint32_t count;
    uint32_t handle[GEN4_THREAD_MAX_OUTPUTS];
    uint32_t dword2[GEN4_THREAD_MAX_OUTPUTS];  /* the message header's M0.2 */
};

/* Splits the outputs into runs, in order, and empties them. */
void gen4_thread_outputs_split(struct gen4_thread_outputs *outputs,
                               const struct gen4_output_sink *sink);

/* True when `handle` is one of the outputs (the thread handed its payload's
 * entry back as an output VUE: freeing the outputs frees it). */
bool gen4_thread_outputs_hold(const struct gen4_thread_outputs *outputs, uint32_t handle);

/* ---- the threads' notices ---- */

/* The dispatch tag of a GS / CLIP thread: the unit's slot of its job in bits
 * 7:0, the job's dispatch number (24 bits) above, so a notice for an earlier
 * thread in the same slot (given up by the watchdog) is told apart. */
static inline uint64_t gen4_thread_tag(uint32_t slot, uint32_t seq)
{
    return (uint64_t)(seq & 0xffffffu) << 8 | (slot & 0xffu);
}

/* What the unit counts of its threads' notices (its stats). */
struct gen4_notice_counters {
    uint64_t threads_ended;             /* thread ends of threads still running */
    uint64_t outputs;                   /* output VUEs kept for a running thread */
    uint64_t output_overflow;           /* past GEN4_THREAD_MAX_OUTPUTS: freed */
    uint64_t late_notices;              /* ends / outputs of threads no longer running */
};

/* What the unit lends the notice loop. */
struct gen4_notice_host {
    void *context;
    /* The outputs of the job in `slot` when its thread, dispatched as
     * `seq`, still runs; NULL otherwise (a late notice). */
    struct gen4_thread_outputs *(*running)(void *context, uint32_t slot, uint32_t seq);
    /* the running thread of `slot` ended */
    void (*ended)(void *context, uint32_t slot);
    /* an output entry nobody keeps: dereference it */
    void (*free_entry)(void *context, uint32_t handle);
};

/* Takes every waiting notice of the unit's threads (stage_threads_poll_notice:
 * thread ends and EU_TD_URB_OUTPUT notices): outputs of running threads are
 * kept, in order; the rest are freed; each notice is counted and is
 * progress. */
void gen4_thread_notices_take(struct stage_threads *threads, struct unit *u,
                              const struct gen4_notice_host *host,
                              struct gen4_notice_counters *counters);

#endif
