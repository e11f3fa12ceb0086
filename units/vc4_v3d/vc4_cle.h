/* units/vc4_v3d/vc4_cle.h - the VideoCore IV control list executor (CLE): its two threads,
 * thread 0 binning and thread 1 rendering (seed 002 Sec 9 @141450..@143900, notes
 * 002-videocore4.md §4.5; registers CTnCS/CTnEA/CTnCA Tables 49-54 @183888, BFC/RFC Tables
 * 56-57 @188380 @188755; packets Table 38 @152147, read through build/gen/vc4_packets.h).
 *
 * What it models:
 *  - a thread runs from CTnCA until CTnCA equals CTnEA ("stopped at end"; writing CTnCA while
 *    stopped moves it without starting, writing CTnEA starts it: @143233, vc4-submit.md §9);
 *  - one control record a step: its ID byte and length from the packet table; the record is
 *    read from memory (bus address bits 31:30, the BCM2835 cache alias, masked off);
 *  - Halt (0) stops the thread ("stopped at halt", CTSUBS); NOP (1); Branch (16) jumps;
 *    Branch to sub-list (17) pushes the return address, "a maximum of 2 levels of nesting"
 *    (@152844; a third level is an error); Return from sub-list (18) pops, "ignored if nothing
 *    is on the return stack" (@152923);
 *  - Increment Semaphore (7) counts up the other thread's semaphore (CTSEMA, 3 bits) and Wait on
 *    Semaphore (8) holds the thread until its own is non-zero, then counts it down (@152666,
 *    @152738, @143003: "the two threads can be synchronised via counting semaphores"). The
 *    binning thread's increment takes effect when its Flush completes [kernel, vc4-submit.md §9];
 *    here the Flush is immediate, so the order is the same;
 *  - every executed record is handed to the 3D pipeline (`pipe`, vc4_3d.h): the binning
 *    thread's to the PTB, the rendering thread's to the renderer, which also sizes the
 *    variable-length Compressed Primitive List (48) by decoding it;
 *  - Flush (4) in the binning thread: BFC += 1 (@188583); the PTB caps every tile list; the
 *    binning thread's Increment Semaphore takes effect at the Flush ("after tile lists are
 *    flushed", Table 38 ID 7). Without a pipe (unit tests) each tile's initial block
 *    (tile allocation + 32 x tile index) gets Return from sub-list (18) as an empty list;
 *  - Store ... and EOF (25), Store General / Full Resolution with their Last Tile bit: RFC += 1
 *    (@188960); every record is counted by ID;
 *  - unknown IDs and variable-length records this model cannot size (42, 48) stop the thread
 *    with CTERR set (counted: the hardware's behaviour is undefined, the seed gives none);
 *    a record of the other thread's list class (Table 38 "B"/"R" column) is counted and
 *    executed as far as this model executes it; a runaway list (more than `limit` records
 *    without reaching its end) stops with CTERR.
 * Not modelled: record timing beyond one record a step (the pipeline's work is instant), the
 * prefixing mode (CTMODE), CTnLC/CTnPC/CTnRA0, the overflow memory, interrupts.
 */
#ifndef GTSIM_UNITS_VC4_CLE_H
#define GTSIM_UNITS_VC4_CLE_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"
#include "units/vc4_v3d/vc4_3d.h"

#define VC4_CLE_TRACE_MAX 256

enum vc4_cle_state { VC4_CLE_STOPPED_AT_END, VC4_CLE_RUNNING, VC4_CLE_WAITING, VC4_CLE_HALTED,
                     VC4_CLE_ERROR };

struct vc4_cle_thread {
    uint32_t ca, ea;
    enum vc4_cle_state state;
    uint32_t return_stack[2], depth;
    uint32_t semaphore;                   /* CTSEMA, 0..7 */
    uint32_t deferred_increments;         /* binning: increments waiting for the Flush */
    bool binning;                         /* thread 0 */
    /* what Tile Binning Mode Configuration set (binning thread) */
    uint32_t tile_alloc, tiles_x, tiles_y;
    bool have_tiles;
    /* counts */
    uint64_t records, by_id[256], invalid, wrong_list, overflows, semaphore_waits;
    uint64_t stores_eof;
    uint64_t steps_since_start;
    /* the first records executed since the last start (ID and address), for tests */
    uint8_t trace_id[VC4_CLE_TRACE_MAX];
    uint32_t trace_address[VC4_CLE_TRACE_MAX];
    uint32_t traced;
};

struct vc4_cle {
    struct vc4_cle_thread thread[2];
    uint32_t bfc, rfc;                    /* BFC/RFC counts (8 bits in the registers) */
    uint64_t bfc_total, rfc_total;
    uint32_t address_mask;
    uint64_t limit;                       /* records a start may run (runaway guard) */
    /* the 3D pipeline the records drive (vc4_3d.h); NULL: the binner is not modelled and
     * Flush writes empty tile lists */
    struct vc4_3d *pipe;
};

void vc4_cle_init(struct vc4_cle *c, uint32_t address_mask);
/* register writes of a thread (offsets of Table 48); returns false for other offsets */
bool vc4_cle_write(struct vc4_cle *c, uint32_t offset, uint32_t value);
/* CTnCS as read, BFC, RFC */
uint32_t vc4_cle_read(const struct vc4_cle *c, uint32_t offset);
/* one record of thread n if it can run; true when it made progress */
bool vc4_cle_step(struct vc4_cle *c, unsigned n, struct gpu_memory *mem);
bool vc4_cle_busy(const struct vc4_cle *c);

#endif
