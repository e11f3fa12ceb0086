/* units/sampler/sampler_internal.h - what the sampler's files share (private to
 * units/sampler/): the unit's state, one message in flight, the state a message
 * resolves (surface, SAMPLER_STATE, border colour), and the functions of each
 * concern:
 *   sampler.c          the unit shell: params, ports, stats, taking messages, tick
 *   sampler_decode.c   SEND -> struct sampler_request (descriptor, header, payload;
 *                      Gen4, Gen7-9, SIMD8/16/4x2), binding table -> surface,
 *                      SAMPLER_STATE and its border colour
 *   sampler_texel.c    texel fetch (addresses, formats, the lines touched), ld,
 *                      resinfo, the sample* family (LOD, address modes, filters,
 *                      anisotropy, shadow compare, min/max) and gather4*
 *   sampler_timing.c   the pipeline's rate, the L1 and L2 sampler caches, line
 *                      requests to the L3, the reply queue
 * What the unit models is in sampler.h.
 */
#ifndef GTSIM_UNITS_SAMPLER_INTERNAL_H
#define GTSIM_UNITS_SAMPLER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fifo.h"
#include "fabric/memory.h"
#include "fabric/reply_queue.h"
#include "fabric/unit.h"
#include "spec_common.h"
#include "units/common/format.h"
#include "units/common/sampler.h"
#include "units/common/surface.h"
#include "units/common/thread_msg.h"

#define SMP_MAX_EUS 64
#define SMP_MAX_TXN 256
#define SMP_MAX_LINES 512           /* distinct lines one message may track */

/* The message-type counters (stats), one per message the unit knows. */
enum smp_count {
    SMP_COUNT_SAMPLE, SMP_COUNT_SAMPLE_B, SMP_COUNT_SAMPLE_L, SMP_COUNT_SAMPLE_D,
    SMP_COUNT_SAMPLE_LZ, SMP_COUNT_LD, SMP_COUNT_LD_LZ, SMP_COUNT_RESINFO, SMP_COUNT_LOD,
    SMP_COUNT_SAMPLEINFO, SMP_COUNT_LD_MSAA, SMP_COUNT_SAMPLE_C, SMP_COUNT_GATHER4,
    SMP_COUNT_SAMPLE_MINMAX, SMP_COUNT_OTHER,
    SMP_COUNT_N
};

struct smp_txn {
    bool used;
    uint32_t eu;                /* input / write-back port index */
    uint64_t start;             /* cycle the message was taken */
    uint64_t ready_at;          /* earliest reply cycle (pipeline and cache latency) */
    struct msg *wb;             /* NULL: no reply due */
    uint32_t lines_left;
    uint32_t nlines;
    uint64_t lines[SMP_MAX_LINES];
};

struct smp_pending_line {
    uint32_t txn, index;
};

struct smp {
    /* params */
    uint32_t max_outstanding, latency, gen, cache_lines, cache_ways, hit_latency;
    uint32_t texels_per_cycle, weight_bits;
    uint32_t l1_lines, l1_ways, l2_latency, samples_per_cycle;
    /* ports */
    struct port **eu, **wb;
    uint32_t eus;
    struct port *l3, *l3_reply;
    /* state */
    struct smp_txn *txn;
    uint32_t in_flight;
    struct fifo line_queue;     /* struct smp_pending_line */
    struct reply_queue replies; /* txn index per entry */
    uint64_t *cache_tag;        /* L2: line number + 1 per way, 0 empty */
    uint64_t *cache_used;       /* L2: last use (LRU) per way */
    uint64_t cache_clock;
    uint64_t *l1_tag, *l1_used; /* L1, the same way */
    uint64_t l1_clock;
    uint64_t busy_until;        /* the filter pipeline is taken until this cycle */
    uint32_t next_eu;
    /* stats */
    uint64_t messages, by_type[SMP_COUNT_N], texels, lines, l3_replies, cache_hits, cache_misses;
    uint64_t unsupported_messages, unsupported_formats, bad_messages, state_faults;
    uint64_t bti_beyond_table, bad_sampler_state, out_of_bounds, page_faults, border_texels;
    uint64_t mcs_reads, mcs_clear_samples, ccs_reads, ccs_clear_texels;
    uint64_t simd4x2, shadow_compares, cube_edge_texels;
    uint64_t footprints, l1_hits, l1_misses, stall_pipeline, stall_outstanding;
    uint64_t by_filter[4];      /* samples by filter: nearest, bilinear, trilinear, anisotropic */
    uint64_t lines_dropped, stall_l3, stall_writeback, busy_cycles, latency_sum, sunk;
    uint32_t warned;
};

/* What a message's binding table entry resolves to. */
struct smp_surface {
    bool valid;                 /* false: a null surface (reads 0) */
    struct surface sd;
    const struct format_desc *fmt;
    bool compressed;            /* blocks decoded by format_decode_block */
    uint8_t select[4];          /* Shader Channel Select R, G, B, A (SCS_*) */
    double resource_min_lod;    /* Resource Min LOD, U4.8 */
    bool has_mcs;               /* a multisampled surface with an MCS (AUX_MCS, Gen9 AUX_CCS_D) */
    bool ccs;                   /* a Gen9 single-sampled surface with its CCS (surface.h) */
    struct format_value clear;  /* the state's clear colour (what a cleared MCS value reads) */
};

/* A SAMPLER_STATE entry and its border colour (Gen8/9: four dwords, floats for
 * float formats, 32-bit integers for integer formats; Mesa genxml gen8/gen9
 * SAMPLER_BORDER_COLOR_STATE). */
struct smp_sampler {
    bool valid;
    struct spec_SAMPLER_STATE st;
    uint32_t border[4];
};

/* One message being executed. */
struct smp_exec {
    struct smp *s;
    struct unit *u;
    struct smp_txn *t;
    const struct eu_send_msg *p;
    const struct eu_thread_context *ctx;
    unsigned gen;
    struct gpu_address_space as;
    struct sampler_request req;
    bool header;
    uint32_t rlen;
    uint8_t *wb;                /* reply registers (rlen of them), NULL: none */
    struct smp_surface surf;
    struct smp_sampler samp;
    bool tlb_valid;
    uint64_t tlb_vpage, tlb_ppage;
};

/* A filtered or fetched value: floats or 32-bit integers (format_value). */
typedef struct format_value smp_value;

/* sampler.c */
void smp_warn_once(struct smp *s, struct unit *u, unsigned bit, const char *fmt, uint32_t a,
                   uint32_t b);

/* sampler_decode.c */
/* Fills x->req from the SEND's descriptor, header and payload; false (counted
 * unsupported) when the unit does not model the message or SIMD mode. */
bool smp_decode(struct smp_exec *x);
/* Resolves the binding table index and (when the message samples) the
 * SAMPLER_STATE entry into x->surf and x->samp. */
void smp_resolve(struct smp_exec *x, bool needs_sampler);
/* Parameter k of lane i as a float / as an integer (0 beyond the payload). */
float smp_param_f(const struct sampler_request *r, unsigned k, unsigned lane);
int32_t smp_param_i(const struct sampler_request *r, unsigned k, unsigned lane);

/* sampler_texel.c */
/* Executes x->req into the reply registers and records the lines touched. */
void smp_execute(struct smp_exec *x);

/* sampler_timing.c */
void smp_add_line(struct smp_exec *x, uint64_t physical);
void smp_route_lines(struct smp *s, struct unit *u, uint32_t ti, uint64_t now, uint64_t texels,
                     uint64_t footprints);
void smp_send_lines(struct smp *s, struct unit *u);
void smp_take_l3_replies(struct smp *s, struct unit *u);
void smp_reply_queue_init(struct smp *s, struct unit *u);
void smp_send_replies(struct smp *s, struct unit *u);
bool smp_reply_due(const struct smp *s, uint64_t now);

#endif
