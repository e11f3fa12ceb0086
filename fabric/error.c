/* fabric/error.c - see error.h. */
#include "fabric/error.h"

#include <stdio.h>
#include <string.h>

int gt_error_vset(struct gt_error *err, const char *fmt, va_list ap)
{
    if (err)
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    return -1;
}

int gt_error_set(struct gt_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gt_error_vset(err, fmt, ap);
    va_end(ap);
    return -1;
}

int gt_error_prefix(struct gt_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    char prefix[GT_ERROR_MAX];
    char old[GT_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof old);
    snprintf(err->message, sizeof err->message, "%s: %s", prefix, old);
    return -1;
}
