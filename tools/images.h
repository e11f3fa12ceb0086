/* tools/images.h - `gtsim run --images DIR`: after a run, every colour surface
 * an om unit (units/om/om.h) wrote, as an 8-bit RGBA PNG, plus DIR/images.json.
 *
 * Conversion as glReadPixels(GL_RGBA, GL_UNSIGNED_BYTE) would do it: each
 * texel through format_unpack (units/common/format.h) to float (sRGB formats
 * come out decoded, as format_unpack gives them; a missing channel is 0, alpha
 * 1), integer formats as their values, then clamped to [0, 1] and scaled to
 * 0..255 with round-to-nearest; multisampled surfaces averaged over their
 * samples. Rows in memory order (row 0 first: a GL window-system framebuffer
 * shows up upside down). Surfaces are deduplicated by address across units;
 * names are <address hex>-<w>x<h>-<FORMAT>.png. Texels in unmapped memory
 * read as zero (counted in the return and the JSON). */
#ifndef GTSIM_TOOLS_IMAGES_H
#define GTSIM_TOOLS_IMAGES_H

#include <stdint.h>

#include "fabric/error.h"
#include "fabric/sim.h"
#include "units/om/om.h"

/* One surface's image, width x height x 4 bytes (freed by the caller); the
 * unreadable texels are counted in *faults. NULL when the surface cannot be
 * converted (a format format_unpack refuses). */
uint8_t *images_surface_rgba8(struct sim *sim, const struct om_surface *s, uint64_t *faults);

/* How many colour surfaces the sim's om units wrote (before deduplication
 * across slices): 0 when the run drew nothing. */
uint32_t images_surface_count(struct sim *sim);

/* Writes every surface the sim's om units wrote into dir (made if missing),
 * with dir/images.json; the number of images, or -1 and err. */
int images_write(struct sim *sim, const char *dir, struct gt_error *err);

#endif
