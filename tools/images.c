/* tools/images.c - see images.h. */
#include "tools/images.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/unit.h"
#include "tools/png.h"
#include "units/common/format.h"
#include "units/vc4_v3d/vc4_v3d.h"

static uint8_t to_unorm8(double v)
{
    if (!(v > 0.0))
        return 0;               /* negative and NaN */
    if (v >= 1.0)
        return 255;
    return (uint8_t)lrint(v * 255.0);
}

uint8_t *images_surface_rgba8(struct sim *sim, const struct om_surface *s, uint64_t *faults)
{
    const struct format_desc *f = format_describe(s->format);
    unsigned bytes = f ? format_block_bytes(f) : 0;
    if (!f || !bytes || bytes > 16 || !s->width || !s->height)
        return NULL;
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)s->space_format,
                           s->space_root);
    uint32_t samples = s->samples ? s->samples : 1;
    uint8_t *rgba = gt_xcalloc((size_t)s->width * s->height, 4);
    for (uint32_t y = 0; y < s->height; y++)
        for (uint32_t x = 0; x < s->width; x++) {
            double sum[4] = { 0, 0, 0, 0 };
            for (uint32_t smp = 0; smp < samples; smp++) {
                uint8_t texel[16] = { 0 };
                struct format_value v;
                /* through the surface's MCS / CCS as the om wrote them */
                if (!om_surface_texel(s, &as, x, y, smp, texel))
                    (*faults)++;
                if (format_unpack(s->format, texel, &v) != FORMAT_OK) {
                    free(rgba);
                    return NULL;
                }
                for (unsigned c = 0; c < 4; c++)
                    sum[c] += v.kind == FORMAT_VALUE_FLOAT ? (double)v.f[c]
                            : v.kind == FORMAT_VALUE_SINT ? (double)v.i[c] : (double)v.u[c];
            }
            uint8_t *px = rgba + ((size_t)y * s->width + x) * 4;
            for (unsigned c = 0; c < 4; c++)
                px[c] = to_unorm8(sum[c] / samples);
        }
    return rgba;
}

/* The real om a unit is: itself, or the C om a co-simulation adapter
 * (om:rtl, om:lockstep) runs inside it; NULL for a placeholder or any other
 * kind (a placeholder's state is not struct om: ASan, determinism suite). */
static struct unit *om_of(struct unit *u)
{
    if (unit_ops_of(u) == &om_ops)
        return u;
    struct unit *inner = unit_inner(u);
    return inner && unit_ops_of(inner) == &om_ops ? inner : NULL;
}

uint32_t images_surface_count(struct sim *sim)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim); i++) {
        struct unit *u = sim_unit(sim, i);
        const struct om_surface *list;
        if (om_of(u))
            count += om_written_surfaces(om_of(u), &list);
        else if (strcmp(unit_kind(u), "vc4_v3d") == 0 && !unit_is_placeholder(u)) {
            const struct vc4_written_surface *vc4;
            count += vc4_v3d_written_surfaces(u, &vc4);
        }
    }
    return count;
}

int images_write(struct sim *sim, const char *dir, struct gt_error *err)
{
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return gt_error_set(err, "--images: cannot make '%s': %s", dir, strerror(errno));
    char path[4200];
    snprintf(path, sizeof path, "%s/images.json", dir);
    FILE *json = fopen(path, "w");
    if (!json)
        return gt_error_set(err, "cannot write %s: %s", path, strerror(errno));
    fprintf(json, "{\n  \"images\": [");
    const struct om_surface **seen = NULL;
    uint32_t seen_count = 0;
    int images = 0, rc = 0;
    for (uint32_t i = 0; i < sim_unit_count(sim) && rc == 0; i++) {
        struct unit *u = sim_unit(sim, i);
        struct unit *om = om_of(u);
        if (!om)
            continue;
        const struct om_surface *list;
        uint32_t n = om_written_surfaces(om, &list);
        for (uint32_t k = 0; k < n && rc == 0; k++) {
            const struct om_surface *s = &list[k];
            bool dup = false;
            for (uint32_t j = 0; j < seen_count; j++)
                dup |= seen[j]->address == s->address;
            if (dup)
                continue;
            seen = gt_xrealloc(seen, (seen_count + 1) * sizeof *seen);
            seen[seen_count++] = s;
            const struct format_desc *f = format_describe(s->format);
            const char *fname = f ? f->name : "UNKNOWN";
            char name[256];
            snprintf(name, sizeof name, "%" PRIx64 "-%ux%u-%s.png", s->address, s->width,
                     s->height, fname);
            uint64_t faults = 0;
            uint8_t *rgba = images_surface_rgba8(sim, s, &faults);
            if (rgba) {
                snprintf(path, sizeof path, "%s/%s", dir, name);
                rc = png_write_rgba8(path, s->width, s->height, rgba, err);
                free(rgba);
            }
            fprintf(json, "%s\n    { \"address\": \"0x%" PRIx64 "\", \"width\": %u, \"height\": %u, "
                    "\"pitch\": %u, \"format\": \"%s\", \"tiling\": \"%s\", \"samples\": %u, "
                    "\"file\": %s%s%s, \"unreadable_texels\": %" PRIu64 ", \"draw_count\": %u, "
                    "\"draws\": [", images ? "," : "", s->address, s->width, s->height, s->pitch,
                    fname, tiling_name(s->tiling), s->samples, rgba ? "\"" : "",
                    rgba ? name : "null", rgba ? "\"" : "", faults, s->draw_count);
            for (uint32_t d = 0; d < s->draw_count && d < OM_SURFACE_DRAWS; d++)
                fprintf(json, "%s%u", d ? ", " : "", s->draws[d]);
            fprintf(json, "] }");
            images++;
        }
    }
    free(seen);
    /* VideoCore IV: the surfaces the tile stores wrote (units/vc4_v3d/vc4_3d.h) */
    for (uint32_t i = 0; i < sim_unit_count(sim) && rc == 0; i++) {
        struct unit *u = sim_unit(sim, i);
        if (strcmp(unit_kind(u), "vc4_v3d") != 0 || unit_is_placeholder(u))
            continue;
        const struct vc4_written_surface *list;
        uint32_t n = vc4_v3d_written_surfaces(u, &list);
        for (uint32_t k = 0; k < n && rc == 0; k++) {
            const struct vc4_written_surface *s = &list[k];
            static const char *const tilings[4] = { "raster", "T", "LT", "reserved" };
            const char *fname = s->colour_format ? "BGR565" : "RGBA8888";
            char name[256];
            snprintf(name, sizeof name, "%x-%ux%u-%s.png", s->address, s->width, s->height,
                     fname);
            uint64_t faults = 0;
            uint8_t *rgba = vc4_surface_rgba8(sim_memory(sim), s, 0x3fffffffu, &faults);
            if (rgba) {
                snprintf(path, sizeof path, "%s/%s", dir, name);
                rc = png_write_rgba8(path, s->width, s->height, rgba, err);
                free(rgba);
            }
            fprintf(json, "%s\n    { \"address\": \"0x%x\", \"width\": %u, \"height\": %u, "
                    "\"format\": \"%s\", \"tiling\": \"%s\", \"samples\": 1, "
                    "\"file\": %s%s%s, \"unreadable_texels\": %" PRIu64 ", \"stores\": %u }",
                    images ? "," : "", s->address, s->width, s->height, fname,
                    tilings[s->memory_format & 3], rgba ? "\"" : "", rgba ? name : "null",
                    rgba ? "\"" : "", faults, s->stores);
            images++;
        }
    }
    fprintf(json, "\n  ]\n}\n");
    if (fclose(json) != 0 && rc == 0)
        rc = gt_error_set(err, "cannot write %s/images.json: %s", dir, strerror(errno));
    return rc < 0 ? -1 : images;
}
