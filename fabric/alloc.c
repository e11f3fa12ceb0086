/* fabric/alloc.c - see alloc.h. */
#include "fabric/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "gtsim: out of host memory (asked for %zu bytes)\n", size);
    abort();
}

void *gt_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *gt_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *gt_xaligned_calloc(size_t align, size_t size)
{
    size = (size + align - 1) & ~(align - 1);
    if (!size)
        size = align;
    void *p = aligned_alloc(align, size);
    if (!p)
        out_of_memory(size);
    memset(p, 0, size);
    return p;
}

void *gt_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory(size);
    return q;
}

char *gt_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = gt_xmalloc(n);
    memcpy(p, s, n);
    return p;
}
