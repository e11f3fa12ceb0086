/* fabric/fifo.h - a first-in first-out queue of fixed-size elements that
 * grows as needed (a ring buffer doubled when full): the waiting line
 * requests of a unit whose output port is busy, and the like. Elements are
 * copied in and out; the queue owns nothing they point to. */
#ifndef GTSIM_FABRIC_FIFO_H
#define GTSIM_FABRIC_FIFO_H

#include <stdbool.h>
#include <stdint.h>

struct fifo {
    unsigned char *data;
    uint32_t elem_size;
    uint32_t head, count, cap;
};

/* An empty queue of elements of elem_size bytes (no storage yet). */
void fifo_init(struct fifo *f, uint32_t elem_size);

/* Frees the storage; the queue is empty and may be used again. */
void fifo_release(struct fifo *f);

/* Appends a copy of *elem (the queue doubles when full). */
void fifo_push(struct fifo *f, const void *elem);

/* Copies the oldest element to *out and removes it; false when empty. */
bool fifo_pop(struct fifo *f, void *out);

static inline uint32_t fifo_count(const struct fifo *f)
{
    return f->count;
}

#endif
