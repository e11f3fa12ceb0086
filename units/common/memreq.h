/* units/common/memreq.h - requests to the memory side (L3, URB, LLC, DRAM) and
 * their replies: the protocol between shared functions and memory models.
 *
 * Timing only: the data itself is read and written by the requester through
 * the machine's one backing store (fabric/memory.h), as DESIGN.md "Functional
 * and timing together" says; these messages decide when. A request covers at
 * most one 64-byte line (the L3's line, seed 003 L18319-18335).
 *
 * A request (MSG_MEMORY_REQUEST) goes out on a requester's port; its reply
 * (MSG_MEMORY_RESPONSE, same tag) comes back on the paired reply port of the
 * same index. Writes are replied to as well (the completion a fence waits
 * for).
 */
#ifndef GTSIM_UNITS_COMMON_MEMREQ_H
#define GTSIM_UNITS_COMMON_MEMREQ_H

#include <stdint.h>

#define MEMREQ_LINE_BYTES 64u

enum memreq_op {
    MEMREQ_READ = 0,
    MEMREQ_WRITE = 1,
    MEMREQ_ATOMIC = 2,      /* read-modify-write at the L3's atomic units */
};

/* The L3 destination a request names (seed 003 L18475-18481). */
enum memreq_target {
    MEMREQ_DATA = 0,        /* L3 R/W data (DC) or read-only data (sampler, constants) */
    MEMREQ_URB = 1,         /* URB: data array only, no tags */
    MEMREQ_SLM = 2,         /* shared local memory: the highly banked arrays */
    MEMREQ_UNCACHED = 3,    /* straight through to memory */
    /* L3 RO data (seed 003 L18475-18481): the read-only clients (constant
     * cache, sampler, instruction cache) are one pool. The L3 serves these as
     * cached reads in its RO pool and counts them (ro_reads); memory models
     * treat them as cached data. */
    MEMREQ_RO_DATA = 4,
    MEMREQ_TARGET_COUNT
};

struct memreq {
    uint64_t address;       /* physical; a line is address / 64 */
    uint32_t tag;           /* the requester's, echoed in the reply */
    uint16_t bytes;         /* 1..64, within one line */
    uint8_t op;             /* enum memreq_op */
    uint8_t target;         /* enum memreq_target */
    uint32_t client;        /* requester id for per-client stats (its unit id) */
};

struct memreply {
    uint64_t address;
    uint32_t tag;
    uint8_t op;
    uint8_t hit;            /* 1 when served without going further down */
    uint16_t reserved;
};

struct msg;
struct reply_queue_entry;

/* Turns a MSG_MEMORY_REQUEST into its MSG_MEMORY_RESPONSE in place (the same
 * message: address, tag and op kept, `hit` set), as a memory model answers. */
void memreq_make_reply(struct msg *m, uint8_t hit);

/* A reply_queue build hook (fabric/reply_queue.h) for memory models that push
 * the request itself with one byte of entry data, the hit flag: the request
 * becomes its reply once the client's channel can take it. */
struct msg *memreq_reply_build(void *context, struct reply_queue_entry *e);

#endif
