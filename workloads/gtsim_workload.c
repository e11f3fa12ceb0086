/* workloads/gtsim_workload.c - `gtsim-workload NAME GEN KERNEL.hex OUT.aub[.gz]`:
 * writes one of the project's GPGPU workloads (workloads/workload.h). */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/workload.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: gtsim-workload NAME GEN KERNEL.hex OUT.aub[.gz]\n"
                        "  NAME: histogram, reduce, ... (workloads/workload.h, workload3d.h); GEN: 4, 7, 8 or 9\n");
        return 1;
    }
    struct gt_error err = { "" };
    if (workload_build(argv[1], atoi(argv[2]), argv[3], argv[4], &err) < 0) {
        fprintf(stderr, "gtsim-workload: %s\n", err.message);
        return 1;
    }
    return 0;
}
