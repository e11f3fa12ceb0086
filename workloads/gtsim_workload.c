/* workloads/gtsim_workload.c - `gtsim-workload NAME GEN KERNEL.hex OUT.aub[.gz]`:
 * writes one of the project's GPGPU workloads (workloads/workload.h). */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/workload.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: gtsim-workload NAME GEN KERNEL.hex OUT.aub[.gz]\n"
                        "  NAME: one of workloads/workload.h, workload3d.h (e.g. histogram,\n"
                        "  reduce, sgemm on GEN 8 or 9; cs-reduce, cs-sgemm on GEN 7;\n"
                        "  strip-fan on GEN 4, 7 or 9); GEN: 4, 7, 8 or 9\n");
        return 1;
    }
    struct gt_error err = { "" };
    if (workload_build(argv[1], atoi(argv[2]), argv[3], argv[4], &err) < 0) {
        fprintf(stderr, "gtsim-workload: %s\n", err.message);
        return 1;
    }
    return 0;
}
