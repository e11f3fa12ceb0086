/* units/urb/urb_internal.h - the URB unit's state, shared by its files (see urb.h). */
#ifndef GTSIM_UNITS_URB_INTERNAL_H
#define GTSIM_UNITS_URB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fifo.h"
#include "fabric/reply_queue.h"
#include "units/common/urb.h"

struct msg;
struct unit;
struct eu_send_msg;

#define URB_GEOMETRY_STAGES 4u      /* VS, HS, DS, GS: the 3DSTATE_URB_* clients */
#define URB_PUSH_STAGES 5u          /* VS, HS, DS, GS, PS: 3DSTATE_PUSH_CONSTANT_ALLOC_* */
#define URB_MAX_MSG_LINES 128u      /* lines one SEND can touch (SIMD8: 8 x 8 dwords) */

struct urb_waiter {
    uint32_t port, tag, count;
};

/* One client's allocation and its entries. */
struct urb_pool {
    /* as programmed (3DSTATE_URB_*): start in 8 KB, size in 64 B minus one */
    uint32_t prog_start, prog_size, prog_entries;
    bool programmed;
    /* in effect (slice scaling applied), bytes */
    uint32_t start, entry_bytes, entries;
    uint16_t *refs;                 /* per entry; 0 = free */
    uint32_t *free_ring;            /* free entry indices, oldest freed first */
    uint32_t free_head, free_count;
    uint32_t in_use;
    struct urb_waiter *waiters;     /* ring */
    uint32_t wait_head, wait_count, wait_cap;
    uint64_t wait_since;
};

/* An access waiting for its L3 lines. */
struct urb_txn {
    bool used;
    uint32_t lines_left;
    uint32_t port;                  /* reply queue port */
    struct msg *reply;              /* NULL: nothing to send */
};

struct urb_line {
    uint32_t txn;
    uint32_t address;
    uint8_t op;                     /* enum memreq_op */
};

/* The 64-byte lines one access touched. */
struct urb_lines {
    uint32_t count;
    uint32_t address[URB_MAX_MSG_LINES];
    uint8_t op[URB_MAX_MSG_LINES];
    bool out_of_bounds;
};

struct urb {
    /* params */
    uint32_t size_kib, slices, latency;
    /* ports */
    struct port *state;
    struct port **client, **client_reply, **eu, **writeback, **eot;
    uint32_t clients, client_replies, eus, writebacks, eots;
    struct port *l3, *l3_reply;
    struct port **out;              /* client_reply[...], writeback[...], then eot[...] */
    /* the store */
    uint8_t *bytes;
    uint32_t store_bytes;
    /* allocation state */
    struct urb_pool pool[URB_CLIENT_COUNT];
    uint32_t push_offset[URB_PUSH_STAGES], push_size[URB_PUSH_STAGES];    /* KB */
    bool state_dirty;
    /* timing */
    struct urb_txn *txn;
    uint32_t txn_cap;
    struct fifo line_queue;             /* struct urb_line: line requests waiting for the l3 port */
    struct reply_queue replies;
    uint32_t warned;
    /* stats */
    uint64_t alloc_requests, allocations, frees, references, dereferences;
    uint64_t refused_allocations, bad_handles, reprogrammed_in_use;
    uint64_t peak[URB_CLIENT_COUNT], stall[URB_CLIENT_COUNT];
    uint64_t ff_reads, ff_writes;
    uint64_t write_hword, write_oword, read_hword, read_oword, simd8_write, simd8_read, atomics;
    uint64_t out_of_bounds, bad_messages, unsupported, eot_not_on_write, killed_thread_ends;
    uint64_t eot_notified, eot_unrouted;
    uint64_t lines, l3_stalls, reply_stalls, l3_replies;
    uint64_t state_urb, state_push, state_ignored;
    uint64_t check_overlaps, check_beyond, check_entry_count, check_push_beyond, check_start_low;
};

/* Dword access to the store, the line recorded in `lines`; outside the URB a
 * read gives 0 and a write is dropped (003 L8465). */
uint32_t urb_read_dword(struct urb *s, struct urb_lines *lines, uint64_t address);
void urb_write_dword(struct urb *s, struct urb_lines *lines, uint64_t address, uint32_t value);

/* Executes an SFID 6 message functionally: wb (rlen registers, zeroed by the
 * caller; may be NULL) gets what it reads, lines what it touched. False: the
 * message is malformed or not modelled (counted here). */
bool urb_execute_send(struct urb *s, struct unit *u, const struct eu_send_msg *p, uint32_t regs,
                      uint8_t (*wb)[32], uint32_t rlen, struct urb_lines *lines);

/* Starts the timing of an access: its lines to the L3 (the reply queued when
 * all are answered), or the reply after `latency` without an L3. Takes reply. */
void urb_time_access(struct urb *s, struct unit *u, const struct urb_lines *lines, uint32_t port,
                     struct msg *reply);

void urb_warn_once(struct urb *s, struct unit *u, unsigned bit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
