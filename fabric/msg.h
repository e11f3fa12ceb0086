/* fabric/msg.h - messages: what travels on channels between units.
 *
 * A message is a small header plus a payload, taken from per-simulation pools
 * (no malloc per message on the hot path). Ownership moves with the message:
 * the sender owns it until port_try_send() succeeds; the receiver owns it after
 * port_pop() and must either forward it or give it back with msg_free().
 *
 * Message kinds mirror the hardware's traffic (DESIGN.md "Ports, messages and
 * time"). A unit checks the kind of what it pops and counts, rather than
 * trusts, a kind it does not expect.
 */
#ifndef GTSIM_FABRIC_MSG_H
#define GTSIM_FABRIC_MSG_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

struct sim;

/* Each kind's payload struct lives in units/common/ (the header named beside
 * it); docs/architecture.md says which units exchange it. */
enum msg_kind {
    MSG_GENERIC = 0,        /* test and workload traffic with no hardware meaning */
    MSG_MMIO,               /* register traffic: host, CS, front ends, L3s (mmio.h) */
    MSG_STATE,              /* a state packet: a parsed 3DSTATE_*, MEDIA_*, GPGPU_* (state_packet.h) */
    MSG_PRIMITIVE,          /* vertex packets, URB handle(s) + topology + flags, between FF stages (primitive.h) */
    MSG_THREAD_DISPATCH,    /* thread dispatch request and payload to the EUs; thread end (thread_msg.h) */
    MSG_SEND,               /* an EU SEND: descriptors + payload registers (thread_msg.h) */
    MSG_WRITEBACK,          /* a shared function's reply to a SEND (thread_msg.h) */
    MSG_MEMORY_REQUEST,     /* a 64-byte-line request to L3/URB/memory (memreq.h) */
    MSG_MEMORY_RESPONSE,    /* its completion (memreq.h) */
    MSG_PIXELS,             /* render target writes to the pixel back end (pixel.h) */
    MSG_URB,                /* URB entry allocation, references, reads and writes by FF stages (urb.h) */
    MSG_SETUP,              /* a set-up primitive, SF -> WM: edges, depth and attribute planes (primitive.h) */
    MSG_SUBSPANS,           /* rasterized 2x2 subspans, WM -> pixel shader dispatch (pixel.h) */
    MSG_QPU_IO,             /* VideoCore IV: a QPU's register-mapped write to TMU/SFU/VPM/TLB/... (vc4_io.h) */
    MSG_QPU_RESULT,         /* VideoCore IV: what comes back (r4 data, VPM reads, DMA done) (vc4_io.h) */
    MSG_DOMAIN,             /* tessellated domain points and their primitives, TE -> DS (tessellation.h) */
    MSG_KIND_COUNT
};


/* Printable name of a kind ("generic", "mmio", ...); "invalid" when out of range. */
const char *msg_kind_name(uint32_t kind);

/* A kind's bit in a set of kinds (struct port_desc.msg_kinds). */
#define MSG_BIT(kind) (1u << (kind))

/* A set of kinds as text ("send, generic"; "any" for 0), into buf. */
const char *msg_kinds_text(uint32_t kinds, char *buf, size_t size);

struct msg {
    struct msg *next;           /* free-list link; the owner may use it for its own queues */
    uint64_t id;                /* unique within a simulation, in allocation order */
    uint32_t kind;              /* enum msg_kind */
    uint32_t tag;               /* the sender's to use (request ids, thread ids) */
    uint32_t source;            /* unit id of the last sender, set by port_try_send() */
    uint32_t size;              /* payload bytes in use */
    uint32_t capacity;          /* payload bytes available */
    uint32_t pool_class;        /* which pool it returns to (internal) */
    alignas(16) unsigned char payload[];
};

/* A message with at least `size` payload bytes (zeroed), never NULL: running
 * out of host memory is fatal, as it is for any allocation in gtsim. */
struct msg *msg_alloc(struct sim *sim, uint32_t kind, uint32_t size);

/* A message the caller owns, used again as a new one of `size` payload bytes
 * (at most m->capacity): a new id, the kind and size given, tag and source
 * reset. The payload keeps its bytes: the caller writes every byte a receiver
 * reads. For a unit that keeps its message through a call (fabric/port.h
 * port_call) and sends the next in it. */
void msg_reuse(struct sim *sim, struct msg *m, uint32_t kind, uint32_t size);

/* Returns a message to its pool. */
void msg_free(struct sim *sim, struct msg *m);

#endif
