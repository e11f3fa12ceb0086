/* units/common/thread_payload.h - one builder for the payload a fixed
 * function stage hands a thread it dispatches: the R0 header, the push
 * constants (the CURBE for GPGPU threads) and the thread context that goes
 * with the dispatch (struct eu_thread_context, units/common/thread_msg.h).
 * Stage-neutral: the GPGPU front end (units/vfe) uses it now; VS/HS/DS/GS/PS
 * dispatch builds its payload the same way (R0, an extended header of its
 * own, constants, then vertex/setup data the stage writes itself).
 *
 * Seed 003 (SKL PRM vol 7):
 *  - L11369-11479 "Thread Payload Overview": a payload is R0, an optional
 *    extended header from R1, then push constants and URB data. R0 fields
 *    every stage has: FFTID R0.5[8:0], Scratch Space Offset R0.5[31:10],
 *    Per Thread Scratch Space R0.3[3:0], Sampler State Pointer R0.3[31:5];
 *    Binding Table Pointer R0.4[31:5] (L17304-17336 for the GPGPU form);
 *  - L17304-17336, the GPGPU thread's R0: R0.0[29:24] the SLM index (its 4
 *    KB granule), R0.1 thread group X, R0.2[31] and [27:24] the barrier ID
 *    with [29] barrier enable and [28] SLM enable, R0.5[9] GPGPU dispatch,
 *    R0.6/R0.7 thread group Y/Z;
 *  - L11480-11558 "Push Constant Programming Overview": constants are whole
 *    32-byte registers placed after the header; for GPGPU threads the
 *    cross-thread data (Gen8/9 Cross-Thread Constant Data Read Length) comes
 *    first, from the start of the CURBE, then the thread's own part: thread
 *    k reads Constant URB Entry Read Length registers at (cross + Read
 *    Offset + k x Read Length) registers into the CURBE (L17304-17336).
 * Not modelled: the URB as the constants' path (the constants are copied from
 * the buffer the stage loaded), the resource streamer's gather constants,
 * constants beyond what the buffer holds (those registers stay zero).
 */
#ifndef GTSIM_UNITS_COMMON_THREAD_PAYLOAD_H
#define GTSIM_UNITS_COMMON_THREAD_PAYLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/thread_msg.h"

/* The GRF holds 128 registers: a payload never fills more. */
#define THREAD_PAYLOAD_MAX_REGS 128u

/* The R0 header's fields. The common part every stage fills; the GPGPU part
 * only the GPGPU front end (0 / false / -1 elsewhere). */
struct thread_r0 {
    uint32_t fftid;                 /* R0.5[8:0]: the stage's thread ID */
    uint32_t scratch_space_offset;  /* R0.5[31:10]: the thread's scratch address (1 KB aligned) */
    uint32_t per_thread_scratch;    /* R0.3[3:0]: the stage's Per Thread Scratch Space code */
    uint32_t sampler_state_pointer; /* R0.3[31:5] (32-byte aligned) */
    uint32_t binding_table_pointer; /* R0.4[31:5] (32-byte aligned) */
    /* GPGPU root threads (003 L17304-17336) */
    bool gpgpu;                     /* R0.5[9] GPGPU dispatch */
    uint32_t slm_base;              /* the group's SLM offset in the subslice, bytes (R0.0[29:24] in 4 KB) */
    bool slm_enable;                /* R0.2[28] */
    int barrier_id;                 /* R0.2[31],[27:24] with [29] set; -1: no barrier */
    uint32_t group_id[3];           /* R0.1, R0.6, R0.7: thread group X, Y, Z */
};

/* Writes R0 (one 32-byte register) from its fields. */
void thread_payload_r0(const struct thread_r0 *f, uint8_t r0[EU_MSG_REG_BYTES]);

/* The push constants of one dispatch: a buffer the stage loaded (the CURBE)
 * and how much of it each thread gets, in 32-byte registers. */
struct thread_constants {
    const uint8_t *data;            /* the loaded constants; NULL = none */
    uint32_t data_bytes;
    uint32_t cross_thread_regs;     /* every thread: from the buffer's start (GPGPU; 0 for 3D) */
    uint32_t read_offset_regs;      /* the per-thread part starts here (after the cross-thread part) */
    uint32_t per_thread_regs;       /* each thread's own registers (Read Length) */
};

/* Registers of a payload with header_regs header registers (R0 and any
 * extended header) and constants c, capped at THREAD_PAYLOAD_MAX_REGS. */
uint32_t thread_payload_regs(uint32_t header_regs, const struct thread_constants *c);

/* Copies thread_index's constants (cross-thread, then its own) into grf[first]
 * onwards, stopping before register total; a register the buffer does not
 * hold in full is left as it is (zero in a fresh dispatch). Returns the
 * register after the last one written or skipped. */
uint32_t thread_payload_constants(const struct thread_constants *c, uint32_t thread_index,
                                  uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t first,
                                  uint32_t total);

/* What a thread's context is made of: the submitting context's address space
 * and state bases (STATE_BASE_ADDRESS), the stage's binding table, and the
 * thread group's SLM and barrier (GPGPU; 0 and -1 elsewhere). */
struct thread_context_source {
    uint8_t gen;
    uint8_t space_format;           /* enum gpu_address_space_format */
    uint64_t space_root;
    uint64_t surface_state_base, general_state_base, dynamic_state_base;
    uint32_t general_state_pages;   /* General State Buffer Size, 4 KB pages; 0 = unchecked */
    uint32_t binding_table;         /* offset from surface_state_base */
    uint32_t binding_table_entries; /* 0 = unknown */
    uint32_t slm_base, slm_size;    /* bytes; size 0 = none */
    uint32_t group;
    int barrier_id;                 /* -1: none */
    uint32_t barrier_threads;       /* threads the barrier waits for */
    uint32_t scratch_slot;
};

/* Fills the context the EU carries into every SEND of the thread. */
void thread_payload_context(const struct thread_context_source *src, struct eu_thread_context *ctx);

#endif
