/* fabric/fifo.c - a growable ring of fixed-size elements (fabric/fifo.h). */
#include "fabric/fifo.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

void fifo_init(struct fifo *f, uint32_t elem_size)
{
    memset(f, 0, sizeof *f);
    f->elem_size = elem_size;
}

void fifo_release(struct fifo *f)
{
    free(f->data);
    fifo_init(f, f->elem_size);
}

void fifo_push(struct fifo *f, const void *elem)
{
    size_t es = f->elem_size;
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 256;
        unsigned char *d = gt_xmalloc(cap * es);
        for (uint32_t k = 0; k < f->count; k++)
            memcpy(d + k * es, f->data + ((f->head + k) % f->cap) * es, es);
        free(f->data);
        f->data = d;
        f->head = 0;
        f->cap = cap;
    }
    memcpy(f->data + ((f->head + f->count++) % f->cap) * es, elem, es);
}

bool fifo_pop(struct fifo *f, void *out)
{
    if (!f->count)
        return false;
    memcpy(out, f->data + (size_t)f->head * f->elem_size, f->elem_size);
    f->head = (f->head + 1) % f->cap;
    f->count--;
    return true;
}
