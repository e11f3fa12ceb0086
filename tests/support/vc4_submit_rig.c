/* tests/support/vc4_submit_rig.c - see vc4_submit_rig.h */
#include "tests/support/vc4_submit_rig.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { CT0EA = 0x108, CT1EA = 0x10c, CT0CA = 0x110, CT1CA = 0x114 };   /* Table 48 */

static int load(struct vc4_submit_rig *r, struct gt_error *err)
{
    r->opened = 1;
    if (vc4_submit_prepare(&r->dump, 0, &r->placement, &r->job, err) < 0)
        return -1;
    r->opened = 2;
    r->mem = gpu_memory_create(err);
    if (!r->mem)
        return -1;
    for (uint32_t i = 0; i < r->job.regions; i++)
        gpu_memory_write(r->mem, r->job.region[i].address, r->job.region[i].data,
                         r->job.region[i].size, NULL);
    r->pipe = calloc(1, sizeof *r->pipe);
    r->cle = calloc(1, sizeof *r->cle);
    if (!r->pipe || !r->cle)
        return -1;
    vc4_cle_init(r->cle, 0x3fffffff);
    vc4_3d_init(r->pipe, 0x3fffffff);
    r->cle->pipe = r->pipe;
    return 0;
}

int vc4_submit_rig_open(struct vc4_submit_rig *r, const char *path, struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    if (vc4_dump_read(path, &r->dump, err) < 0)
        return -1;
    return load(r, err);
}

int vc4_submit_rig_open_bytes(struct vc4_submit_rig *r, uint8_t *bytes, size_t size,
                              struct gt_error *err)
{
    memset(r, 0, sizeof *r);
    if (vc4_dump_parse(bytes, size, "patched", &r->dump, err) < 0) {
        free(bytes);
        return -1;
    }
    return load(r, err);
}

uint8_t *vc4_submit_rig_inflate(const char *path, size_t *size)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 24;
    uint8_t *b = malloc(cap);
    int n = b ? gzread(f, b, (unsigned)cap) : -1;
    gzclose(f);
    if (n <= 0) {
        free(b);
        return NULL;
    }
    *size = (size_t)n;
    return b;
}

uint32_t vc4_submit_rig_find(const struct vc4_submit_rig *r, const void *bytes, size_t size)
{
    for (uint32_t i = 0; i < r->job.regions; i++)
        for (uint32_t o = 0; o + size <= r->job.region[i].size; o += 4)
            if (!memcmp((const uint8_t *)r->job.region[i].data + o, bytes, size))
                return r->job.region[i].address + o;
    return 0;
}

unsigned vc4_submit_rig_run(struct vc4_submit_rig *r, unsigned max_steps)
{
    vc4_cle_write(r->cle, CT0CA, r->job.ct0ca);
    vc4_cle_write(r->cle, CT0EA, r->job.ct0ea);
    vc4_cle_write(r->cle, CT1CA, r->job.ct1ca);
    vc4_cle_write(r->cle, CT1EA, r->job.ct1ea);
    unsigned n = 0;
    for (; n < max_steps && vc4_cle_busy(r->cle); n++) {
        vc4_cle_step(r->cle, 0, r->mem);
        vc4_cle_step(r->cle, 1, r->mem);
    }
    return n;
}

uint32_t vc4_submit_rig_pixel(const struct vc4_submit_rig *r, unsigned surface, uint32_t x,
                              uint32_t y)
{
    if (surface >= r->pipe->render.surface_count)
        return 0xdeadbeefu;
    const struct vc4_written_surface *s = &r->pipe->render.surfaces[surface];
    uint8_t b[4] = { 0 };
    gpu_memory_read(r->mem, s->address + vc4_surface_offset(s->memory_format, 4, s->width, x, y),
                    b, 4, NULL);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void vc4_submit_rig_close(struct vc4_submit_rig *r)
{
    free(r->cle);
    if (r->pipe)
        vc4_3d_release(r->pipe);
    free(r->pipe);
    if (r->mem)
        gpu_memory_destroy(r->mem);
    if (r->opened >= 2)
        vc4_job_free(&r->job);
    vc4_placement_free(&r->placement);
    if (r->opened >= 1)
        vc4_dump_free(&r->dump);
    memset(r, 0, sizeof *r);
}
