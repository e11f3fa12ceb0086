/* rtl-cosim/compare.h - naming the fields of a message payload, and reporting
 * the first differences between two payloads of the same layout.
 *
 * A mismatch report (ibex dv/cosim style: both sides named, errors
 * accumulated rather than fatal) reads, on one line:
 *   cosim mismatch: unit gpu.cs_alu port response message #17 (tag 17) cycle 1234:
 *   field gpr[3]: c-model 0x0000000000000005, rtl 0x0000000000000004
 * one line per differing field (at most a few per message). */
#ifndef GTSIM_RTL_COSIM_COMPARE_H
#define GTSIM_RTL_COSIM_COMPARE_H

#include <stddef.h>
#include <stdint.h>

struct cosim_field {
    const char *name;           /* "gpr", "accu" */
    size_t offset;              /* in the payload */
    uint32_t size;              /* 4 or 8 bytes per element */
    uint32_t count;             /* elements (an array when > 1: "gpr[3]") */
};
#define COSIM_FIELD_END { NULL, 0, 0, 0 }

/* The layout of a message on `port` of kind `kind` ("cs_alu", "response"), or
 * NULL when none is known (payloads are then compared byte by byte). */
const struct cosim_field *cosim_payload_fields(const char *kind, const char *port);

/* A growable list of report lines. */
struct cosim_errors {
    char **line;
    uint32_t count, cap;
    uint64_t total;             /* mismatches seen, including those not kept */
    uint32_t keep;              /* lines kept at most (0: 1000) */
};
void cosim_errors_add(struct cosim_errors *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cosim_errors_free(struct cosim_errors *e);

/* Compares two payloads; appends one line per differing field (up to 4) to
 * `errors`, each starting with `prefix` (unit, port, message, cycle). The sides
 * are called `a_name` and `b_name` ("c-model", "rtl"). Returns the number of
 * differing fields (0 = equal). */
uint32_t cosim_compare_payload(const struct cosim_field *fields, const void *a, uint32_t a_size,
                               const void *b, uint32_t b_size, const char *a_name,
                               const char *b_name, const char *prefix,
                               struct cosim_errors *errors);

#endif
