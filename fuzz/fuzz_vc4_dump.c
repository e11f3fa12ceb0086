/* fuzz/fuzz_vc4_dump.c - the VideoCore IV submit dump loader (`gtsim run
 * FILE.vc4dump[.gz]`, units/vc4_host/vc4_submit.h): the input, gzip or not, is
 * read as a dump file (record walk and size checks); every submit of a dump
 * that reads is validated, relocated and given its render list as the vc4
 * kernel would (vc4_submit_prepare, with the BO placement carried across
 * submits as vc4_host does). A dump whose every submit the kernel checks
 * accept is then played whole through fuzz_run_vc4_dump: the host unit loads it
 * again and the V3D unit runs its control lists on configs/vc4-bcm2835.cfg
 * under the cycle limit; a silent watchdog stop is a hang (a finding). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"
#include "units/vc4_host/vc4_submit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".vc4dump", path, sizeof path);
    struct vc4_dump d;
    struct gt_error err;
    if (vc4_dump_read(path, &d, &err) < 0)
        return 0;
    struct vc4_placement placement = { 0 };
    int accepted = 1;
    for (uint32_t i = 0; i < d.count; i++) {
        struct vc4_job job;
        if (vc4_submit_prepare(&d, i, &placement, &job, &err) < 0) {
            accepted = 0;
            break;
        }
        vc4_job_free(&job);
    }
    vc4_placement_free(&placement);
    vc4_dump_free(&d);
    if (accepted && fuzz_run_vc4_dump(path) == FUZZ_HANG)
        abort();
    return 0;
}
