/* fuzz/fuzz_sweep.c - the sweep file reader and checker of `gtsim sweep FILE`
 * (tools/cmd_sweep.c sweep_file_check): the input is read as a sweep file and,
 * when it reads, every point's machine is built as the sweep checks it before
 * running; no point runs and nothing is written. At most FUZZ_SWEEP_RUNS runs
 * (points x workloads) are checked: a bigger grid is refused up front (the
 * command's own limit is 100000, which would spend the fuzzer's time building
 * machines, not exploring the reader). Paths in the file are relative to the
 * repository root the target runs from (configs/, tests/data/). */
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "tools/commands.h"
#include "units/registry.h"

#define FUZZ_SWEEP_RUNS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".sweep", path, sizeof path);
    struct gt_error err;
    sweep_file_check(path, unit_kind_find, FUZZ_SWEEP_RUNS, &err);
    return 0;
}
