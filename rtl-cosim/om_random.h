/* rtl-cosim/om_random.h - seeded random requests through the pixel datapath
 * RTL (rtl/om_pixel.sv, om_rtl.h) against the C block (units/om/om_color.h
 * om_color_compute / om_color_bits, units/common/depth_stencil.h ds_test):
 * `gtsim-cosim om-random` and the cosim tests.
 *
 * The mix: 50% colour requests (every blend factor and function, now and then
 * an unknown encoding; blend on/off, pre/post clamps with the UNORM, SNORM
 * and RTFORMAT ranges or random ones; independent alpha; operands from a
 * table of specials - signed zeros, denormals, infinities, quiet and
 * signalling NaNs, values around 1 - from [0, 1], from UNORM8 steps, near
 * the rounding boundaries of the products, or any bits), 20% bit requests
 * (every logic op, on or off, random write-disable masks) and 30% depth
 * requests (every depth function, every stencil function and op on both
 * faces, masks, references near 0 and 0xff, D32_FLOAT, D24_UNORM_X8, D16_UNORM
 * and unknown formats, the CC viewport range in order, inverted or NaN).
 * Comparison as om:lockstep's (om_cosim.h): exact, every NaN equal to every
 * NaN. The "cycle" of a mismatch is the RTL clock (two a request). */
#ifndef GTSIM_RTL_COSIM_OM_RANDOM_H
#define GTSIM_RTL_COSIM_OM_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"

struct om_random_options {
    uint64_t seed, requests;
    bool broken;                    /* the RTL built with `define BROKEN */
    bool stop_at_first;             /* end the run at the first mismatch */
    const char *wave;               /* FST of RTL clocks wave_from..wave_to (NULL: none) */
    uint64_t wave_from, wave_to;
};

struct om_random_result {
    uint64_t color, bits, depth;    /* requests of each kind */
    uint64_t compared, mismatches, first_mismatch;  /* first: RTL clock, UINT64_MAX none */
    char first_report[1024];
    /* reached: blend requests with every factor / function (bit i = encoding i),
     * stencil ops applied (bit = op), depth formats tested */
    uint32_t factors_seen, functions_seen, stencil_ops_seen, formats_seen;
    uint64_t clocks;
};

int om_random_run(const struct om_random_options *o, struct om_random_result *r,
                  struct gt_error *err);

/* The directed checks, for what the random requests miss (the mutation runner
 * runs them first; suite test om "directed"): out_valid stays low after reset
 * without a request (om_rtl_idle_after_reset), then colour products at the
 * normal/denormal boundary, compared as above (also the other kinds' outputs
 * read 0). The result as om_random_run's (broken: the RTL with `define BROKEN). */
void om_directed_run(bool broken, struct om_random_result *r);

#endif
