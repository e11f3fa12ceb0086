/* fabric/file.h - reading a whole input file (kernels, QPU listings): one
 * place for the open/read/size-limit/error handling. */
#ifndef GTSIM_FABRIC_FILE_H
#define GTSIM_FABRIC_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"

/* Reads the file at path into a malloc'd buffer (*bytes, *len; one NUL byte
 * past the end, not counted, so text can be scanned as a string). Files
 * larger than max_bytes, unreadable files and read errors give -1 with err
 * naming the path; nothing is allocated then. */
int gt_read_file(const char *path, size_t max_bytes, uint8_t **bytes, size_t *len,
                 struct gt_error *err);

#endif
