/* rtl-cosim/compare.c - see compare.h. */
#include "rtl-cosim/compare.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "units/common/memreq.h"
#include "units/cs_alu/cs_alu.h"
#include "units/fpu/fpu.h"

static const struct cosim_field cs_alu_response_fields[] = {
    { "gpr", offsetof(struct cs_alu_response, gpr), 8, CS_ALU_GPRS },
    { "accu", offsetof(struct cs_alu_response, accu), 8, 1 },
    { "srca", offsetof(struct cs_alu_response, srca), 8, 1 },
    { "srcb", offsetof(struct cs_alu_response, srcb), 8, 1 },
    { "flags(zf=1,cf=2)", offsetof(struct cs_alu_response, flags), 4, 1 },
    { "executed", offsetof(struct cs_alu_response, executed), 4, 1 },
    { "reserved", offsetof(struct cs_alu_response, reserved), 4, 1 },
    { "malformed", offsetof(struct cs_alu_response, malformed), 4, 1 },
    COSIM_FIELD_END
};

static const struct cosim_field cs_alu_request_fields[] = {
    { "gpr", offsetof(struct cs_alu_request, gpr), 8, CS_ALU_GPRS },
    { "count", offsetof(struct cs_alu_request, count), 4, 1 },
    { "flags", offsetof(struct cs_alu_request, flags), 4, 1 },
    { "instruction", offsetof(struct cs_alu_request, instruction), 4, CS_ALU_MAX_INSTRUCTIONS },
    COSIM_FIELD_END
};

/* The L3's ports (units/common/memreq.h). memreq.client is the sender's unit id,
 * which differs between a full machine and a replay: not compared. */
static const struct cosim_field memreq_fields[] = {
    { "address", offsetof(struct memreq, address), 8, 1 },
    { "tag", offsetof(struct memreq, tag), 4, 1 },
    { "bytes", offsetof(struct memreq, bytes), 2, 1 },
    { "op", offsetof(struct memreq, op), 1, 1 },
    { "target", offsetof(struct memreq, target), 1, 1 },
    COSIM_FIELD_END
};

static const struct cosim_field memreply_fields[] = {
    { "address", offsetof(struct memreply, address), 8, 1 },
    { "tag", offsetof(struct memreply, tag), 4, 1 },
    { "op", offsetof(struct memreply, op), 1, 1 },
    { "hit", offsetof(struct memreply, hit), 1, 1 },
    COSIM_FIELD_END
};

/* The FPU pipe (units/fpu/fpu.h): result[l] and the flags word name the lane. */
static const struct cosim_field fpu_response_fields[] = {
    { "result", offsetof(struct fpu_response, result), 4, FPU_LANES },
    { "flags(bit=lane)", offsetof(struct fpu_response, flags), 4, 1 },
    { "status", offsetof(struct fpu_response, status), 4, 1 },
    COSIM_FIELD_END
};

static const struct cosim_field fpu_request_fields[] = {
    { "op/cond/mask/reserved", offsetof(struct fpu_request, op), 4, 1 },
    { "ctrl", offsetof(struct fpu_request, ctrl), 4, 1 },
    { "mode", offsetof(struct fpu_request, mode), 4, 1 },
    { "pad", offsetof(struct fpu_request, pad), 4, 1 },
    { "src0", offsetof(struct fpu_request, src[0]), 4, FPU_LANES },
    { "src1", offsetof(struct fpu_request, src[1]), 4, FPU_LANES },
    { "src2", offsetof(struct fpu_request, src[2]), 4, FPU_LANES },
    COSIM_FIELD_END
};

const struct cosim_field *cosim_payload_fields(const char *kind, const char *port)
{
    if (strncmp(kind, "fpu", 3) == 0 && (kind[3] == 0 || kind[3] == ':')) {
        if (strcmp(port, "response") == 0)
            return fpu_response_fields;
        if (strcmp(port, "request") == 0)
            return fpu_request_fields;
    }
    if (strncmp(kind, "l3", 2) == 0 && (kind[2] == 0 || kind[2] == ':')) {
        if (strcmp(port, "memory") == 0 || strcmp(port, "client") == 0)
            return memreq_fields;
        if (strcmp(port, "memory_reply") == 0 || strcmp(port, "client_reply") == 0)
            return memreply_fields;
    }
    if (strncmp(kind, "cs_alu", 6) == 0 && (kind[6] == 0 || kind[6] == ':')) {
        if (strcmp(port, "response") == 0)
            return cs_alu_response_fields;
        if (strcmp(port, "request") == 0)
            return cs_alu_request_fields;
    }
    return NULL;
}

void cosim_errors_add(struct cosim_errors *e, const char *fmt, ...)
{
    e->total++;
    if (e->count >= (e->keep ? e->keep : 1000))
        return;
    if (e->count == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->line = gt_xrealloc(e->line, e->cap * sizeof *e->line);
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    e->line[e->count++] = gt_xstrdup(buf);
}

void cosim_errors_free(struct cosim_errors *e)
{
    for (uint32_t i = 0; i < e->count; i++)
        free(e->line[i]);
    free(e->line);
    memset(e, 0, sizeof *e);
}

static uint64_t element(const void *p, uint32_t size, size_t offset, uint32_t limit, int *present)
{
    if (offset + size > limit) {
        *present = 0;
        return 0;
    }
    *present = 1;
    const unsigned char *b = (const unsigned char *)p + offset;
    uint64_t v = 0;
    memcpy(&v, b, size);        /* little-endian host, as the payload structs */
    return v;
}

uint32_t cosim_compare_payload(const struct cosim_field *fields, const void *a, uint32_t a_size,
                               const void *b, uint32_t b_size, const char *a_name,
                               const char *b_name, const char *prefix,
                               struct cosim_errors *errors)
{
    uint32_t diffs = 0;
    if (!fields) {
        uint32_t n = a_size < b_size ? a_size : b_size;
        if (a_size != b_size) {
            diffs++;
            cosim_errors_add(errors, "%s: size: %s %u, %s %u", prefix, a_name, a_size, b_name,
                             b_size);
        }
        for (uint32_t i = 0; i < n; i++)
            if (((const unsigned char *)a)[i] != ((const unsigned char *)b)[i]) {
                diffs++;
                cosim_errors_add(errors, "%s: byte %u: %s 0x%02x, %s 0x%02x", prefix, i, a_name,
                                 ((const unsigned char *)a)[i], b_name,
                                 ((const unsigned char *)b)[i]);
                break;
            }
        return diffs;
    }
    for (const struct cosim_field *f = fields; f->name; f++)
        for (uint32_t k = 0; k < f->count; k++) {
            size_t off = f->offset + (size_t)k * f->size;
            int pa, pb;
            uint64_t va = element(a, f->size, off, a_size, &pa);
            uint64_t vb = element(b, f->size, off, b_size, &pb);
            if (!pa && !pb)
                continue;
            if (pa == pb && va == vb)
                continue;
            if (++diffs > 4)
                continue;
            char name[64];
            if (f->count > 1)
                snprintf(name, sizeof name, "%s[%u]", f->name, k);
            else
                snprintf(name, sizeof name, "%s", f->name);
            int w = f->size == 8 ? 16 : 8;
            char sa[32], sb[32];
            if (pa)
                snprintf(sa, sizeof sa, "0x%0*" PRIx64, w, va);
            else
                snprintf(sa, sizeof sa, "(absent)");
            if (pb)
                snprintf(sb, sizeof sb, "0x%0*" PRIx64, w, vb);
            else
                snprintf(sb, sizeof sb, "(absent)");
            cosim_errors_add(errors, "%s: field %s: %s %s, %s %s", prefix, name, a_name, sa,
                             b_name, sb);
        }
    if (diffs > 4)
        cosim_errors_add(errors, "%s: ... and %u more fields differ", prefix, diffs - 4);
    return diffs;
}
