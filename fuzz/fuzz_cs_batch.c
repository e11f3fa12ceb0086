/* fuzz/fuzz_cs_batch.c - the CS executing random command dwords: the input is
 * wrapped into a capture by fabric/aub.h's writer (a memtrace version block
 * naming SKL GT2, PCI id 0x1912, then one ring COMMAND_WRITE block carrying the
 * input's dwords), so the host hands them to the CS inline (CS_MMIO_RING_DATA)
 * and they execute as ring commands on the small Gen9 machine of
 * fuzz_common.h. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_ring_capture(data, size, path, sizeof path);
    if (fuzz_run_capture(path) == FUZZ_HANG)
        abort();
    return 0;
}
