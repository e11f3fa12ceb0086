/* fabric/alloc.h - host allocation. Running out of host memory is the one
 * error gtsim does not recover from: these print what failed and abort. */
#ifndef GTSIM_FABRIC_ALLOC_H
#define GTSIM_FABRIC_ALLOC_H

#include <stddef.h>

void *gt_xmalloc(size_t size);
void *gt_xcalloc(size_t count, size_t size);
/* size zeroed bytes aligned to align (a power of two), the block rounded up
 * to a multiple of it as C11 aligned_alloc asks; free() releases them. */
void *gt_xaligned_calloc(size_t align, size_t size);
void *gt_xrealloc(void *p, size_t size);
char *gt_xstrdup(const char *s);

#endif
