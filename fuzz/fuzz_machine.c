/* fuzz/fuzz_machine.c - the whole host + CS path: the input is an AUB capture
 * played on a one-subslice Gen9 machine under a cycle limit (fuzz_common.h). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".aub", path, sizeof path);
    if (fuzz_run_capture(path) == FUZZ_HANG)
        abort();
    return 0;
}
