/* units/vc4_host/vc4_submit.h - a VideoCore IV DRM_IOCTL_VC4_SUBMIT_CL dump (the "VC4DUMP1"
 * format of ../shared/traces/ext/app/vc4_submit_dump.c, copied facts: header magic, version 1,
 * sizeof(struct drm_vc4_submit_cl) = 176; records SUBM, BCL, SREC, UNIF, BOHL, BO, ENDS) and
 * what the Linux vc4 kernel driver does with a submit before the hardware sees it (facts from
 * ../shared/notes/vc4-submit.md, which cites Mesa's copy of the kernel validation code
 * vc4_validate.c, vc4_validate_shaders.c, vc4_render_cl.c, vc4_gem.c):
 *   - validation of the binner control list (accepted packets and their lengths, the 112 / 6 /
 *     7 / 4 structure, §4), of the shader records (BO indices, code at BO offset 0, attribute
 *     bounds against the highest vertex index the primitives use, FS threading, §5), of the
 *     uniform stream (the QPU code scan that counts uniforms and texture samples, §6) and of
 *     the render set-up fields (tile range, surfaces, §8.3);
 *   - relocation: BO indices become the bus addresses the BOs were placed at; packet 112 gets
 *     the tile allocation and tile state addresses, packet 64 the validated record address;
 *   - the exec buffer, tile buffer and render control list (RCL) the kernel builds (§7, §8).
 * Everything the kernel rejects gives -1 with a message naming the submit, the record (BCL,
 * SREC, UNIF, SUBM field or BO) and the byte offset. Pure functions: no simulator state.
 * Not modelled: the kernel's BO size rounding to pages (BOs are placed at 4 KiB boundaries
 * with their dump sizes), overflow memory (BPOA/BPOS; the 1 MiB pool is allocated as the kernel
 * does), in/out syncobjs and seqnos, perfmon ids.
 */
#ifndef GTSIM_UNITS_VC4_SUBMIT_H
#define GTSIM_UNITS_VC4_SUBMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"

#define VC4_SUBMIT_STRUCT_SIZE 176u
#define VC4_NO_SURFACE 0xffffffffu
#define VC4_SUBMIT_USE_CLEAR_COLOR 0x1u
#define VC4_SUBMIT_FIXED_RCL_ORDER 0x2u
#define VC4_SUBMIT_RCL_ORDER_INCREASING_X 0x4u
#define VC4_SUBMIT_RCL_ORDER_INCREASING_Y 0x8u
#define VC4_SURFACE_READ_IS_FULL_RES 0x1u

/* struct drm_vc4_submit_rcl_surface (12 bytes) */
struct vc4_surface {
    uint32_t hindex, offset;
    uint16_t bits, flags;
};

/* The fields of struct drm_vc4_submit_cl a model uses (byte offsets in vc4-submit.md §2). */
struct vc4_submit_fields {
    uint32_t bin_cl_size, shader_rec_size, shader_rec_count, uniforms_size, bo_handle_count;
    uint16_t width, height;
    uint8_t min_x_tile, min_y_tile, max_x_tile, max_y_tile;
    struct vc4_surface color_read, color_write, zs_read, zs_write, msaa_color_write, msaa_zs_write;
    uint32_t clear_color[2], clear_z;
    uint8_t clear_s;
    uint32_t flags;
};

struct vc4_dump_bo {
    uint32_t index, handle, size, flags;   /* flags bit 0: a shader BO */
    const uint8_t *data;                   /* into the dump's bytes */
    bool present;
};

struct vc4_dump_submit {
    uint32_t index;
    size_t file_offset;                    /* of the SUBM record */
    struct vc4_submit_fields f;
    const uint8_t *bcl, *shader_rec, *uniforms;
    uint32_t *handles;
    struct vc4_dump_bo *bo;                /* bo_handle_count entries, by index */
};

struct vc4_dump {
    uint8_t *bytes;                        /* the whole (decompressed) file */
    size_t size;
    struct vc4_dump_submit *submit;
    uint32_t count;
};

/* true when the file (gzip or not) starts with the VC4DUMP1 magic */
bool vc4_dump_file_is_dump(const char *path);
/* Reads and checks a dump file (gzip or not): every record inside the file, the counts and
 * sizes each record must have (from its SUBM), one BO record per handle. -1 with err naming
 * the file, the record tag and its byte offset otherwise. */
int vc4_dump_read(const char *path, struct vc4_dump *out, struct gt_error *err);
/* The same from bytes in memory (taken over: freed by vc4_dump_free) */
int vc4_dump_parse(uint8_t *bytes, size_t size, const char *name, struct vc4_dump *out,
                   struct gt_error *err);
void vc4_dump_free(struct vc4_dump *d);

/* A memory image the job needs at an address. */
struct vc4_region {
    uint32_t address, size;
    uint8_t *data;
    const char *what;                      /* "bo", "exec", "tile", "rcl" */
    uint32_t bo_index;                     /* for "bo" */
};

/* What the kernel hands the hardware for one submit. */
struct vc4_job {
    struct vc4_region *region;
    uint32_t regions;
    uint32_t *bo_address;                  /* by bo index */
    uint32_t bo_count;
    bool has_bin;
    uint32_t exec_address, exec_size;
    uint32_t bin_length;                   /* validated BCL bytes */
    uint32_t tile_address, tile_size, tile_alloc_address, tile_alloc_size;
    uint8_t bin_tiles_x, bin_tiles_y;
    uint32_t rcl_address, rcl_size;
    const uint8_t *rcl;                    /* the generated RCL bytes (in its region) */
    uint32_t ct0ca, ct0ea, ct1ca, ct1ea;
    uint32_t records, samples;             /* shader records, texture samples relocated */
    /* the image the render list writes, for a host that reports it */
    uint32_t color_write_address;
    uint32_t tile_width;
};

/* Addresses of BOs placed by earlier submits (so a handle keeps its memory). */
struct vc4_placement {
    uint32_t next_address;                 /* the first free bus address */
    uint32_t *handle, *address, *size;
    const uint8_t **data;                  /* the bytes last written there */
    uint32_t count, capacity;
};

/* Validates and relocates one submit and builds its exec buffer, tile buffer and RCL, placing
 * BOs not seen before at fresh 4 KiB-aligned addresses from p->next_address (a handle placed by
 * an earlier submit keeps its address; its bytes are written again only if they differ from
 * those the last submit carrying it had, so GPU results survive). -1 with err naming the
 * submit and the record byte the kernel would refuse. */
int vc4_submit_prepare(const struct vc4_dump *d, uint32_t submit, struct vc4_placement *p,
                       struct vc4_job *job, struct gt_error *err);
void vc4_job_free(struct vc4_job *job);
void vc4_placement_free(struct vc4_placement *p);

/* Number of uniforms (values, not texture indices) and texture samples a shader reads,
 * from the kernel's code scan (vc4-submit.md §6); -1 with err for code the kernel refuses
 * (no program end inside the BO, a branch that is not PC-relative). */
struct vc4_shader_scan {
    uint32_t uniforms, samples;
    bool threaded;
    uint32_t sample_p0[16];                /* uniform index of each sample's first parameter */
    bool sample_direct[16];
    uint32_t address_slots[8], address_slot_count;
};
int vc4_shader_scan(const uint8_t *code, uint32_t size, struct vc4_shader_scan *out,
                    struct gt_error *err);

#endif
