/* rtl-cosim/tools/qpu_mutant_main.c - the qpu_alu mutant runner of rtl-cosim/tools/mutate.py:
 * qpu_random_run (rtl-cosim/qpu_random.h) against the model built as Vqpu_alu_broken,
 * stopping at the first mismatch. A small binary, so that a mutant links in seconds.
 * usage: qpu-mutant [INSTRUCTIONS [SEED]]; exit 0 no mismatch, 3 mismatch, 1 error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rtl-cosim/qpu_random.h"

int main(int argc, char **argv)
{
    struct qpu_random_options o = { .seed = 1, .requests = 200000, .broken = true,
                                    .stop_at_first = true };
    if (argc > 1)
        o.requests = strtoull(argv[1], NULL, 0);
    if (argc > 2)
        o.seed = strtoull(argv[2], NULL, 0);
    struct qpu_random_result r;
    struct gt_error err;
    if (qpu_random_run(&o, &r, &err) < 0) {
        fprintf(stderr, "qpu-mutant: %s\n", err.message);
        return 1;
    }
    printf("qpu-mutant: %" PRIu64 " instructions, %" PRIu64 " mismatching%s%s\n", r.compared,
           r.mismatches, r.mismatches ? ": " : "", r.mismatches ? r.first_report : "");
    return r.mismatches ? 3 : 0;
}
