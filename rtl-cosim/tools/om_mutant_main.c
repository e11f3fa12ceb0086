/* rtl-cosim/tools/om_mutant_main.c - the om_pixel mutant runner of
 * rtl-cosim/tools/mutate.py: om_random_run (rtl-cosim/om_random.h) against
 * the model built as Vom_pixel_broken, stopping at the first mismatch. A small
 * binary, so that a mutant links in seconds instead of relinking gtsim-cosim.
 * usage: om-mutant [REQUESTS [SEED]]; exit 0 no mismatch, 3 mismatch, 1 error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rtl-cosim/om_random.h"

int main(int argc, char **argv)
{
    struct om_random_options o = { .seed = 1, .requests = 200000, .broken = true,
                                   .stop_at_first = true };
    if (argc > 1)
        o.requests = strtoull(argv[1], NULL, 0);
    if (argc > 2)
        o.seed = strtoull(argv[2], NULL, 0);
    struct om_random_result r;
    struct gt_error err;
    if (om_random_run(&o, &r, &err) < 0) {
        fprintf(stderr, "om-mutant: %s\n", err.message);
        return 1;
    }
    printf("om-mutant: %" PRIu64 " requests, %" PRIu64 " mismatching%s%s\n", r.compared,
           r.mismatches, r.mismatches ? ": " : "", r.mismatches ? r.first_report : "");
    return r.mismatches ? 3 : 0;
}
