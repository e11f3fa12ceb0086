/* units/common/stage_thread.h - what every 3D stage that runs threads (VS,
 * HS, DS, GS; PS builds on it too) shares: the state bases its threads see,
 * its kernel state, its push constants, and the dispatch of thread requests
 * to the subslices' thread dispatchers with the thread-end notices that come
 * back. A library a stage embeds in its state, not a unit kind.
 *
 * Seed 003 (notes/003-skl-pipeline.md §6):
 *  - L11369-11479 "Thread Payload Overview": R0 fields every stage has:
 *    FFTID R0.5[8:0], Scratch Space Offset R0.5[31:10] (1 KB granular,
 *    from General State Base Address), Per Thread Scratch Space R0.3[3:0],
 *    Sampler State Pointer R0.3[31:5] (from Dynamic State Base Address),
 *    Binding Table Pointer R0.4[31:5] (from Surface State Base Address).
 *    The SIMD8 VS table (L12257-12275) lists no R0.4 and names R0.3[31:5]
 *    "Binding Table Pointer", which reads as a slip of that table (every
 *    other stage's table, the SIMD4x2 VS's included, L12224-12246, has the
 *    sampler pointer in R0.3 and the binding table in R0.4): the common
 *    layout is used for all. Stages write their own R0 extras (PrimitiveID
 *    in R0.1, instance numbers, ...) after stage_threads_new() filled the
 *    common part;
 *  - L11142-11165: FFID sr0.0[27:24] is the requesting stage (enum ff_id,
 *    thread_msg.h); cr0 defaults from the stage's Floating Point Mode and
 *    exception enables (L11090-11130);
 *  - L11480-11558 "Push Constant Programming Overview": 3DSTATE_CONSTANT_*
 *    names up to four buffers, each Read Length 32-byte registers, located
 *    by an offset from Dynamic State Base Address or, when INSTPM's (Gen8)
 *    or CS_DEBUG_MODE2's (Gen9) CONSTANT_BUFFER Address Offset Disable is
 *    set, by a graphics address;
 *    the command "initiates the process of reading the PC source data" (so
 *    the data is read when the command arrives) and every later thread gets
 *    the concatenation of the four buffers (buffer 0 first) after its R0
 *    (and any extended header), in whole registers.
 * Thread ends: the URB tells the stage when a thread's EOT write is done
 * (units/urb "eot_<stage>"; request_id is the ctx.group the stage set); the
 * notice carries the thread's life on the EU (thread_msg.h thread_life_ps),
 * which thread_cycles sums (issue 14: a thread's life runs from its start
 * on the EU, not from the stage's dispatch request).
 *
 * Not modelled: the push constants' trip through the PC URB buffer (the data
 * is copied from memory when the command arrives; the URB allocation is only
 * checked by the URB unit), the Gather Pool (Buffer 1 from
 * 3DSTATE_GATHER_POOL_ALLOC), dynamic state bounds checking of the buffers.
 */
#ifndef GTSIM_UNITS_COMMON_STAGE_THREAD_H
#define GTSIM_UNITS_COMMON_STAGE_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"
#include "fabric/unit.h"
#include "spec_common.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"

/* STATE_BASE_ADDRESS as the stage's threads see it. */
struct stage_bases {
    uint64_t general, surface, dynamic, instruction;
    uint32_t general_pages;         /* General State Buffer Size, 4 KB pages; 0 = unchecked */
};

void stage_bases_take(struct stage_bases *b, const struct spec_STATE_BASE_ADDRESS *v);

/* The address space the stage's threads run in: the last state packet's. */
struct stage_space {
    uint32_t gen;
    uint32_t format;                /* enum gpu_address_space_format */
    uint64_t root;
};

static inline struct stage_space stage_space_of(const struct cs_state_packet *p)
{
    return (struct stage_space){ p->gen, p->space_format, p->space_root };
}

/* The kernel state of a 3DSTATE_VS/HS/DS/GS/PS (each stage copies its own
 * command's fields here) and its 3DSTATE_BINDING_TABLE_POINTERS_* /
 * SAMPLER_STATE_POINTERS_*. */
struct stage_kernel {
    bool enable;
    uint64_t kernel_start;          /* Kernel Start Pointer, from Instruction Base Address */
    uint32_t binding_table;         /* from Surface State Base Address */
    uint32_t binding_table_entries; /* Binding Table Entry Count; 0 = unknown */
    uint32_t sampler_state;         /* from Dynamic State Base Address */
    uint64_t scratch_base;          /* Scratch Space Base Pointer, from General State Base */
    uint32_t per_thread_scratch;    /* Per Thread Scratch Space code: 1 KB << code (Gen8/9) */
    uint32_t max_threads;           /* Maximum Number of Threads + 1 (already added) */
    uint32_t simd;                  /* dispatch width the EU runs: 8 or 16 */
    uint32_t priority;              /* Thread Dispatch Priority: 1 = high */
    bool alternate_fp;              /* Floating Point Mode: Alternate (cr0.0 bit 0) */
    bool illegal_opcode_exception;  /* cr0.1 bit 12 */
    bool software_exception;        /* cr0.1 bit 13 */
};

/* Bytes of scratch a thread gets for a Per Thread Scratch Space code (3D
 * stages on Gen8/9: 1 KB << code, up to 2 MB; reference genxml). */
static inline uint32_t stage_scratch_bytes(uint32_t code)
{
    return 1024u << (code > 11 ? 11 : code);
}

/* A stage's push constants (3DSTATE_CONSTANT_*), read when the command
 * arrives. */
#define STAGE_CONSTANTS_MAX_REGS 64u    /* "2KB (64 * 32B)" per stage (L11480-11558) */
/* The bit that makes the pointers graphics addresses: INSTPM bit 6 on Gen8,
 * CS_DEBUG_MODE2 bit 4 on Gen9 (reference genxml gen8.xml / gen9.xml
 * "CONSTANT_BUFFER Address Offset Disable"; Mesa sets it on both). Both are
 * masked registers. */
#define INSTPM_OFFSET 0x20c0u
#define INSTPM_CONSTANT_BUFFER_ADDRESS_OFFSET_DISABLE (1u << 6)
#define CS_DEBUG_MODE2_OFFSET 0x20d8u
#define CS_DEBUG_MODE2_CONSTANT_BUFFER_ADDRESS_OFFSET_DISABLE (1u << 4)

struct stage_constants {
    bool address_offset_disable;    /* INSTPM / CS_DEBUG_MODE2, from in-band register writes */
    uint32_t regs;                  /* registers of data[] in use */
    uint8_t data[STAGE_CONSTANTS_MAX_REGS][EU_MSG_REG_BYTES];
    uint64_t read_failures;         /* buffers that could not be read (zeros pushed) */
    uint64_t truncated;             /* loads longer than STAGE_CONSTANTS_MAX_REGS (cut) */
};

/* An in-band register write (MSG_MMIO CS_MMIO_WRITE) of INSTPM or
 * CS_DEBUG_MODE2: `value` is the register's new value (the CS has applied
 * the masked write, bits 31:16 enabling bits 15:0). True when it was one of
 * them. */
bool stage_constants_take_mmio(struct stage_constants *c, uint32_t offset, uint32_t value);

/* 3DSTATE_CONSTANT_VS/HS/DS/GS/PS: reads the buffers now. */
void stage_constants_take(struct stage_constants *c, struct sim *sim,
                          const struct cs_state_packet *p, const struct stage_bases *b,
                          const struct spec_3DSTATE_CONSTANT_BODY *body);

/* Thread dispatch: "td"[open] outputs (one per subslice TD, round-robin over
 * those that can take a request) and the "eot" input. */
#define STAGE_THREADS_MAX 1024u         /* threads one stage can have in flight */

struct stage_threads_stats {
    uint64_t dispatched, ended, unknown_ends;
    uint64_t stall_threads;         /* dispatches held by Maximum Number of Threads */
    uint64_t stall_td;              /* dispatches held by full TD channels */
    uint64_t in_flight_peak;
    /* The threads' lives on the EU (each end notice's thread_life_ps, in the
     * stage's cycles: from the EU taking the dispatch into a slot to the EOT
     * leaving the EU), summed; a thread the EU has not reported counts 0. */
    uint64_t thread_cycles;
    /* The stage's view: threads in flight (dispatch request sent to end
     * notice taken, the wait in the TD for a slot included) summed over
     * cycles. */
    uint64_t in_flight_cycles;
};

struct stage_threads {
    uint32_t ffid;                  /* enum ff_id */
    struct port **td;
    uint32_t tds, next_td;
    struct port *eot;
    uint32_t in_flight;
    uint32_t request_seq;
    uint64_t last_account;
    struct stage_thread_record {
        bool live;
        uint32_t request_id;
        uint32_t scratch_slot;
        uint64_t tag;
    } *records;                     /* STAGE_THREADS_MAX, indexed by request_id % max */
    uint8_t *scratch_used;          /* STAGE_THREADS_MAX */
    struct stage_threads_stats stats;
};

/* Looks up the unit's "td" array and "eot" port. -1 and err when there is no
 * TD output bound. */
int stage_threads_init(struct stage_threads *t, struct unit *u, uint32_t ffid, struct gt_error *err);
void stage_threads_release(struct stage_threads *t);
/* Forgets every thread in flight (a unit's reset). */
void stage_threads_reset(struct stage_threads *t);

/* True when a thread can be dispatched now: fewer than the kernel's
 * max_threads in flight and some TD channel has room (counts the stall). */
bool stage_threads_can_dispatch(struct stage_threads *t, const struct stage_kernel *k);

/* A dispatch request of payload_regs registers (>= 1): the header, the
 * thread context and R0's common fields (FFTID = the request number,
 * scratch, sampler and binding table pointers) are filled; registers 1.. are
 * zero for the stage to fill. `tag` is the stage's, returned when the thread
 * ends. The stage may then edit the message and sends it with
 * stage_threads_send() (after stage_threads_can_dispatch() said yes). */
struct msg *stage_threads_new(struct stage_threads *t, struct unit *u, const struct stage_kernel *k,
                              const struct stage_bases *b, const struct stage_space *space,
                              uint32_t payload_regs, uint32_t dmask, uint64_t tag);
void stage_threads_send(struct stage_threads *t, struct unit *u, struct msg *m);

/* Takes one thread-end notice from "eot": true and the thread's tag, or false
 * when none is waiting. Notices for unknown requests are counted and skipped. */
bool stage_threads_poll_end(struct stage_threads *t, struct unit *u, uint64_t *tag);
/* The same, with a copy of the notice itself in *end (the pixel back end's
 * counts, thread_msg.h struct eu_thread_end). */
bool stage_threads_poll_end_notice(struct stage_threads *t, struct unit *u, uint64_t *tag,
                                   struct eu_thread_end *end);

/* The same, for a stage whose threads also send EU_TD_URB_OUTPUT notices
 * (Gen4 GS and CLIP, thread_msg.h): returns 1 for a thread end (as above),
 * 2 for an output notice of a thread still in flight (its tag, *end = the
 * notice), 3 for an output notice of a thread no longer in flight (*end
 * only: the caller owns and drops the entry), 0 when nothing is waiting. */
int stage_threads_poll_notice(struct stage_threads *t, struct unit *u, uint64_t *tag,
                              struct eu_thread_end *end);

/* Copies the constants into grf[first..] (as many whole registers as fit
 * before `total`); returns the register after them. */
uint32_t stage_constants_write(const struct stage_constants *c, uint8_t (*grf)[EU_MSG_REG_BYTES],
                               uint32_t first, uint32_t total);

#define STAGE_THREADS_STAT(pfx, n, st, member, f, m, h) \
    STAT_COUNTER_FIELD(pfx n, st, member.stats.f, m, h)
#define STAGE_THREADS_STATS(pfx, st, member)                                                   \
    STAGE_THREADS_STAT(pfx, "dispatched", st, member, dispatched, "threads", "threads dispatched"), \
    STAGE_THREADS_STAT(pfx, "ended", st, member, ended, "threads", "thread ends received"),        \
    STAGE_THREADS_STAT(pfx, "unknown_ends", st, member, unknown_ends, "messages",                \
                       "thread-end notices for no thread in flight"),                          \
    STAGE_THREADS_STAT(pfx, "stall.max_threads", st, member, stall_threads, "events",            \
                       "dispatches held by Maximum Number of Threads"),                       \
    STAGE_THREADS_STAT(pfx, "stall.td", st, member, stall_td, "events",                          \
                       "dispatches held by full thread dispatcher channels"),                 \
    STAT_LEVEL_FIELD(pfx "in_flight_peak", st, member.stats.in_flight_peak, "threads",           \
                     "most threads in flight"),                                               \
    STAGE_THREADS_STAT(pfx, "thread_cycles", st, member, thread_cycles, "thread-cycles",         \
                       "the threads' lives on the EU (slot taken to EOT sent) summed"),          \
    STAGE_THREADS_STAT(pfx, "in_flight_cycles", st, member, in_flight_cycles, "thread-cycles",   \
                       "threads in flight (dispatch request to end notice) summed over cycles")

#endif
