/* tests/support/gen4_render.c - see gen4_render.h. */
#include "tests/support/gen4_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/memory.h"
#include "units/common/format.h"

#include "tests/support/machine_run.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "tools/images.h"
#include "tools/machine.h"
#include "units/om/om.h"
#include "units/registry.h"

bool gen4_render_run(const char *workload, uint32_t width, uint32_t height, struct gen4_render *r)
{
    memset(r, 0, sizeof *r);
    struct machine_request req = { .config_path = "configs/gen4-g965.cfg", .workload = workload };
    struct machine_run m;
    machine_run(&req, NULL, &m);
    r->config = m.config;
    r->sim = m.sim;
    for (unsigned e = 0; e < GEN4_RENDER_EUS; e++) {
        char path[64];
        snprintf(path, sizeof path, "gpu.eu%u.illegal_instructions", e);
        r->illegal += probe_stat(r->sim, path);
        snprintf(path, sizeof path, "gpu.eu%u.threads_killed", e);
        r->killed += probe_stat(r->sim, path);
    }
    struct unit *om = sim_find_unit(r->sim, "gpu.om");
    CU_ASSERT_PTR_NOT_NULL_FATAL(om);
    const struct om_surface *list;
    uint32_t n = om_written_surfaces(om, &list);
    for (uint32_t i = 0; i < n && !r->rgba; i++) {
        if (list[i].width != width || list[i].height != height)
            continue;
        uint64_t faults = 0;
        r->rgba = images_surface_rgba8(r->sim, &list[i], &faults);
        CU_ASSERT_EQUAL(faults, 0);
    }
    CU_ASSERT_PTR_NOT_NULL(r->rgba);
    return r->rgba != NULL;
}

float *gen4_render_surface_float(const struct gen4_render *r, uint32_t index, uint32_t *format,
                                 uint32_t *width, uint32_t *height)
{
    struct unit *om = r->sim ? sim_find_unit(r->sim, "gpu.om") : NULL;
    const struct om_surface *list;
    if (!om || index >= om_written_surfaces(om, &list))
        return NULL;
    const struct om_surface *s = &list[index];
    struct gpu_address_space as;
    gpu_address_space_init(&as, sim_memory(r->sim), (enum gpu_address_space_format)s->space_format,
                           s->space_root);
    float *out = calloc((size_t)s->width * s->height, 4 * sizeof *out);
    for (uint32_t y = 0; out && y < s->height; y++)
        for (uint32_t x = 0; x < s->width; x++) {
            uint8_t texel[16] = { 0 };
            struct format_value v;
            if (!om_surface_texel(s, &as, x, y, 0, texel) ||
                format_unpack(s->format, texel, &v) != FORMAT_OK ||
                v.kind != FORMAT_VALUE_FLOAT) {
                free(out);
                return NULL;
            }
            memcpy(out + 4 * ((size_t)y * s->width + x), v.f, 4 * sizeof *out);
        }
    *format = s->format;
    *width = s->width;
    *height = s->height;
    return out;
}

void gen4_render_free(struct gen4_render *r)
{
    sim_destroy(r->sim);
    gt_config_free(r->config);
    r->sim = NULL;
    r->config = NULL;
}
