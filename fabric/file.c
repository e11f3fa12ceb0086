/* fabric/file.c - reading a whole input file (fabric/file.h). */
#include "fabric/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

int gt_read_file(const char *path, size_t max_bytes, uint8_t **bytes, size_t *len,
                 struct gt_error *err)
{
    *bytes = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gt_error_set(err, "%s: %s", path, strerror(errno));
    size_t cap = 4096, used = 0;
    uint8_t *b = gt_xmalloc(cap + 1);
    for (;;) {
        if (used == cap) {
            if (cap > max_bytes) {
                free(b);
                fclose(f);
                return gt_error_set(err, "%s: larger than %zu MiB", path, max_bytes >> 20);
            }
            cap *= 2;
            b = gt_xrealloc(b, cap + 1);
        }
        size_t k = fread(b + used, 1, cap - used, f);
        used += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return gt_error_set(err, "%s: read error", path);
    }
    b[used] = 0;
    *bytes = b;
    *len = used;
    return 0;
}
