/* fuzz/fuzz_threads.c - results the same on any number of host threads and in
 * any tick order (issue 19): the input is an AUB capture played on a
 * two-subslice Gen9 machine on one host thread, on two with the parallel
 * engine on every edge it can take, and on one in a shuffled tick order; any
 * difference in the stop, the simulated time, a stat or GPU memory is a
 * finding (fuzz_common.h fuzz_run_capture_threads). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".aub", path, sizeof path);
    int result = fuzz_run_capture_threads(path);
    if (result == FUZZ_HANG || result == FUZZ_DIVERGED)
        abort();
    return 0;
}
