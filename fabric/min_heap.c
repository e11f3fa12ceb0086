/* fabric/min_heap.c - see min_heap.h. */
#include "fabric/min_heap.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

void min_heap_init(struct min_heap *h, size_t item_size, min_heap_less_fn less)
{
    memset(h, 0, sizeof *h);
    h->item_size = item_size;
    h->less = less;
}

void min_heap_free(struct min_heap *h)
{
    free(h->items);
    h->items = NULL;
    h->count = h->capacity = 0;
}

static unsigned char *at(const struct min_heap *h, uint32_t i)
{
    return h->items + (size_t)i * h->item_size;
}

void min_heap_push(struct min_heap *h, const void *item)
{
    if (h->count == h->capacity) {
        h->capacity = h->capacity ? 2 * h->capacity : 64;
        h->items = gt_xrealloc(h->items, (size_t)h->capacity * h->item_size);
    }
    uint32_t i = h->count++;
    while (i && h->less(item, at(h, (i - 1) / 2))) {
        memcpy(at(h, i), at(h, (i - 1) / 2), h->item_size);
        i = (i - 1) / 2;
    }
    memcpy(at(h, i), item, h->item_size);
}

void min_heap_pop(struct min_heap *h)
{
    if (!h->count)
        return;
    uint32_t n = --h->count;
    if (!n)
        return;
    /* the last item sifts down from the root; it stays in its slot (n, now
     * outside the heap) until it lands */
    const unsigned char *last = at(h, n);
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->less(at(h, c + 1), at(h, c)))
            c++;
        if (!h->less(at(h, c), last))
            break;
        memcpy(at(h, i), at(h, c), h->item_size);
        i = c;
    }
    memcpy(at(h, i), last, h->item_size);
}
