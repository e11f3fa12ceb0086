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

enum msg_kind {
    MSG_GENERIC = 0,        /* test and workload traffic with no hardware meaning */
    MSG_MMIO,               /* register read/write from the host to the GPU */
    MSG_STATE,              /* a state packet: an unpacked 3DSTATE_*, MEDIA_*, GPGPU_* */
    MSG_PRIMITIVE,          /* URB handle(s) + topology + flags between FF stages */
    MSG_THREAD_DISPATCH,    /* thread dispatch request and payload to the EUs */
    MSG_SEND,               /* an EU SEND: descriptors + payload registers */
    MSG_WRITEBACK,          /* a shared function's reply to a SEND */
    MSG_MEMORY_REQUEST,     /* a 64-byte-line request to L3/URB/memory */
    MSG_MEMORY_RESPONSE,    /* its completion */
    MSG_PIXELS,             /* pixel quads to the back end */
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

/* Returns a message to its pool. */
void msg_free(struct sim *sim, struct msg *m);

#endif
