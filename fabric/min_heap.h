/* fabric/min_heap.h - a binary min-heap of fixed-size items, for units that
 * hold work until a cycle (replies due, timers).
 *
 * The order is the caller's `less`; items equal under it come out in the
 * order the heap's shape gives (not FIFO): a unit wanting FIFO among equals
 * puts a sequence number into its `less`. The sift-up and sift-down steps
 * are the textbook ones, written down here because RTL mirrors them (the L3
 * slice RTL's reply heap, rtl-cosim/rtl/l3_slice.sv, pops replies due on one
 * cycle in this same order):
 *   push: the new item moves up while it is less than its parent;
 *   pop:  the last item moves down from the root, to the lesser child (the
 *         right one only when it is less than the left) while that child is
 *         less than it.
 */
#ifndef GTSIM_FABRIC_MIN_HEAP_H
#define GTSIM_FABRIC_MIN_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef bool (*min_heap_less_fn)(const void *a, const void *b);

struct min_heap {
    unsigned char *items;
    size_t item_size;
    uint32_t count, capacity;
    min_heap_less_fn less;
};

void min_heap_init(struct min_heap *h, size_t item_size, min_heap_less_fn less);
void min_heap_free(struct min_heap *h);
/* Copies the item in (the heap grows as needed). */
void min_heap_push(struct min_heap *h, const void *item);
/* The least item, or NULL when empty; valid until the next push or pop. */
static inline void *min_heap_top(const struct min_heap *h)
{
    return h->count ? h->items : NULL;
}
/* The i-th item in heap order (0 <= i < count), for walking all of them. */
static inline void *min_heap_at(const struct min_heap *h, uint32_t i)
{
    return h->items + (size_t)i * h->item_size;
}
/* Removes the least item (nothing when empty). */
void min_heap_pop(struct min_heap *h);
/* Forgets every item (the storage stays). */
static inline void min_heap_clear(struct min_heap *h)
{
    h->count = 0;
}

#endif
