/* fabric/reply_queue.h - messages held until a cycle, then sent on ports with
 * back-pressure: the "reply at cycle N" queue of a shared function or cache.
 *
 * A unit pushes an entry (a message, the index of the output port it goes to,
 * the cycle from which it may leave, and optionally some bytes of its own);
 * reply_queue_send() then sends, in the queue's order, every entry that is
 * ready, and reply_queue_wake() asks the fabric to tick the unit on the next
 * ready cycle. The order is chosen at init:
 *   REPLY_QUEUE_READY_THEN_INSERTION  ready cycle, then insertion (stable);
 *   REPLY_QUEUE_READY_HEAP_TIES       ready cycle; equal ones in the order the
 *                                     textbook binary heap of fabric/min_heap.h
 *                                     gives (the L3 slice RTL mirrors it);
 *   REPLY_QUEUE_INSERTION             insertion only: an entry that is not
 *                                     ready holds every later one (a FIFO).
 *
 * Back-pressure: a send the channel refuses (full, or its width used up this
 * cycle) keeps the entry in the queue; with REPLY_QUEUE_STOP nothing after it
 * is sent this call, with REPLY_QUEUE_PER_PORT only later entries to the same
 * port wait. A call that met a refusal counts one stall (config.stall_count).
 * The fabric wakes the unit when the refusing channel frees up, so
 * reply_queue_wake() asks for no tick for an entry held that way.
 *
 * An entry whose port index is out of range or whose port is not bound is
 * dropped (its message freed). An entry may hold no message: a build() hook
 * then makes it only once the port can take it (so a message exists only
 * while it is in a channel, as the machine's message count expects), and
 * build() may also reshape a held message (a request turned into its reply).
 * An entry with no message and no build() leaves without sending anything.
 * The optional done() hook sees every entry that leaves.
 */
#ifndef GTSIM_FABRIC_REPLY_QUEUE_H
#define GTSIM_FABRIC_REPLY_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


struct msg;
struct port;
struct sim;
struct unit;

enum reply_queue_order {
    REPLY_QUEUE_READY_THEN_INSERTION = 0,
    REPLY_QUEUE_READY_HEAP_TIES,
    REPLY_QUEUE_INSERTION,
};

enum reply_queue_refusal {
    REPLY_QUEUE_STOP = 0,       /* the first refused send holds everything after it */
    REPLY_QUEUE_PER_PORT,       /* it holds only later entries to the same port */
};

struct reply_queue_entry {
    uint64_t ready;             /* the cycle from which it may be sent */
    uint64_t order;             /* insertion number */
    struct msg *msg;            /* what is sent, or NULL (see build) */
    uint32_t port;              /* index into config.ports */
    /* followed by config.data_size bytes of the unit's own (reply_queue_data) */
};

/* The unit's own bytes of an entry (8-byte aligned). */
static inline void *reply_queue_data(const struct reply_queue_entry *e)
{
    return (unsigned char *)(uintptr_t)e + sizeof *e;
}

struct reply_queue_config {
    uint32_t capacity;          /* entries at most; 0: grows as needed */
    size_t data_size;           /* bytes of the unit's own per entry; 0: none */
    enum reply_queue_order order;
    enum reply_queue_refusal refusal;
    struct port *const *ports;  /* entry.port indexes this array (kept, not copied) */
    uint32_t port_count;
    uint64_t *stall_count;      /* optional: +1 per reply_queue_send() that met a refusal */
    /* Optional: called once the port can take the entry; returns the message
     * to send (the entry's, reshaped, or a new one when it holds none). */
    struct msg *(*build)(void *context, struct reply_queue_entry *e);
    /* Optional: called for every entry that leaves (sent: false when dropped
     * for want of a port, or when it had nothing to send). */
    void (*done)(void *context, const struct reply_queue_entry *e, bool sent);
    void *context;              /* passed to build and done */
};

/* One heap item: the entry's sort key and where the entry is (issue 19: the
 * heap moves these 24 bytes, compared inline, instead of whole entries
 * through a comparison function; the sift steps are fabric/min_heap.c's, so
 * equal keys come out in the same order). */
struct reply_queue_key {
    uint64_t first, second;     /* compared in this order (second is 0 when unused) */
    uint32_t slot;              /* the entry's index in `entries` */
};

struct reply_queue {
    struct reply_queue_config config;
    /* REPLY_QUEUE_READY_HEAP_TIES: keys[0..count) is a binary min-heap (least
     * first in the queue's order). The other orders have no equal keys (the
     * insertion number decides), so any exact priority queue gives the same
     * order: keys[first..first+count) is kept sorted, which costs O(1) per
     * entry when entries come in order (a FIFO; a fixed latency) where the
     * heap paid O(log n) per pop (issue 19: the data port's write-back
     * queue). */
    struct reply_queue_key *keys;
    uint32_t first;                 /* sorted orders: index of the least key */
    uint32_t count, key_capacity;
    size_t entry_bytes;         /* one entry with its data, rounded up to 8 bytes */
    unsigned char *entries;     /* entry slots (entry_bytes each) */
    uint32_t *free_slots;       /* unused entry slots */
    uint32_t free_count, slot_capacity;
    uint64_t next_order;
    struct reply_queue_key *held;   /* reply_queue_send: entries waiting on a refusal */
    uint32_t held_capacity;
};

void reply_queue_init(struct reply_queue *q, const struct reply_queue_config *config);

/* Frees the messages held and the storage (the queue can be inited again). */
void reply_queue_free(struct reply_queue *q, struct sim *sim);

/* Frees the messages held and empties the queue (a unit's reset). */
void reply_queue_clear(struct reply_queue *q, struct sim *sim);

/* Adds an entry: m (may be NULL, see build) to ports[port] from cycle `ready`,
 * with data_size bytes copied from data (NULL: zeros). False when the queue is
 * full: nothing is taken, the caller keeps m. */
bool reply_queue_push(struct reply_queue *q, uint64_t ready, uint32_t port, struct msg *m,
                      const void *data);

static inline uint32_t reply_queue_count(const struct reply_queue *q)
{
    return q->count;
}

static inline bool reply_queue_full(const struct reply_queue *q)
{
    return q->config.capacity && q->count >= q->config.capacity;
}

/* The first entry in the queue's order, or NULL when empty. */
static inline const struct reply_queue_entry *reply_queue_first(const struct reply_queue *q)
{
    return q->count ? (const struct reply_queue_entry *)(const void *)
                      (q->entries + (size_t)q->keys[q->first].slot * q->entry_bytes)
                    : NULL;
}

/* Bytes of one entry with its data (room for reply_queue_take_ready's copy). */
size_t reply_queue_entry_size(const struct reply_queue *q);

/* Takes the first entry out of the queue when it is ready on `now`: copies it
 * (reply_queue_entry_size bytes) to `out`, whose message is then the caller's
 * (build and done are not called); false when the queue is empty or its first
 * entry is not ready. For a unit that moves due entries on into queues of its
 * own (the L3's per-client egress queues, units/l3). */
bool reply_queue_take_ready(struct reply_queue *q, uint64_t now, void *out);

/* The ready cycle of the first entry; UINT64_MAX when empty. */
uint64_t reply_queue_next_ready(const struct reply_queue *q);

struct reply_queue_result {
    uint32_t sent;              /* messages the channels took */
    uint32_t dropped;           /* entries that left without a send */
    bool refused;               /* a send was refused: entries wait for the channel */
};

/* Sends the entries ready on the unit's current cycle, in order, until the
 * queue is empty, the first entry is not ready, or (REPLY_QUEUE_STOP) a send
 * is refused. */
struct reply_queue_result reply_queue_send(struct reply_queue *q, struct unit *u);

/* Asks the fabric to tick u on the first entry's ready cycle when that is
 * later than the current one. Nothing when empty, or when the first entry is
 * ready (it waits for a channel, which wakes the unit when it frees up) -
 * except with REPLY_QUEUE_PER_PORT, where entries to other ports may go on
 * their own ready cycle: the earliest one later than now is asked for. */
void reply_queue_wake(const struct reply_queue *q, struct unit *u);

#endif
