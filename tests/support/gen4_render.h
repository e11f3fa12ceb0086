/* tests/support/gen4_render.h - runs a capture on the 965G machine
 * (configs/gen4-g965.cfg) for the Gen4 image tests (test_gen4_clip_kernel,
 * test_gen4_ext): the machine built, run to quiescence, the first colour
 * surface the pixel back end (gpu.om) wrote of the size asked for converted
 * to RGBA8 as `gtsim run --images` converts it (tools/images.h: rows in
 * memory order), and the EUs' illegal instructions and killed threads
 * summed. The sim stays alive for further stats until gen4_render_free. */
#ifndef GTSIM_TESTS_SUPPORT_GEN4_RENDER_H
#define GTSIM_TESTS_SUPPORT_GEN4_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/config.h"
#include "fabric/sim.h"

#define GEN4_RENDER_EUS 8u              /* configs/gen4-g965.cfg */

struct gen4_render {
    struct gt_config *config;
    struct sim *sim;
    uint8_t *rgba;                      /* width x height x 4, or NULL; the caller frees it */
    double illegal, killed;             /* over gpu.eu0..7 */
};

/* Runs `workload`; CUnit assertions record what fails. False when no such
 * surface was written (r->sim may still be set: free it). */
bool gen4_render_run(const char *workload, uint32_t width, uint32_t height, struct gen4_render *r);

/* Surface `index` (in the order the pixel back end first wrote them) of a
 * finished run as floats (width x height x 4, rows in memory order; the
 * caller frees it) through the format's unpacking, its format in *format;
 * NULL when there is no such surface or a texel cannot be read. */
float *gen4_render_surface_float(const struct gen4_render *r, uint32_t index, uint32_t *format,
                                 uint32_t *width, uint32_t *height);

/* Destroys the sim and the config (not rgba). */
void gen4_render_free(struct gen4_render *r);

#endif
