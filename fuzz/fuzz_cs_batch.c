/* fuzz/fuzz_cs_batch.c - the CS executing random command dwords: the input is
 * wrapped into a capture by fabric/aub.h's writer (a memtrace version block
 * naming SKL GT2, PCI id 0x1912, then one ring COMMAND_WRITE block carrying the
 * input's dwords), so the host hands them to the CS inline (CS_MMIO_RING_DATA)
 * and they execute as ring commands on the small Gen9 machine of
 * fuzz_common.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/aub.h"
#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DWORDS 16384u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t count = (uint32_t)(size / 4 > MAX_DWORDS ? MAX_DWORDS : size / 4);
    uint32_t *dwords = malloc(4 * (size_t)count + 4);
    if (!dwords)
        abort();
    memcpy(dwords, data, 4 * (size_t)count);
    char path[128];
    snprintf(path, sizeof path, "/tmp/gtsim-fuzz-%ld.batch.aub", (long)getpid());
    struct aub_writer writer;
    struct gt_error err;
    if (aub_writer_open(&writer, path, 0, &err) < 0 ||
        aub_write_memtrace_version(&writer, 0x1912, 12, "fuzz_cs_batch", &err) < 0 ||
        (count && aub_write_legacy_ring(&writer, AUB_TRACE_RING_PRB0, 0, dwords, count, &err) < 0) ||
        aub_writer_close(&writer, &err) < 0) {
        fprintf(stderr, "fuzz_cs_batch: %s\n", err.message);
        abort();
    }
    free(dwords);
    fuzz_run_capture(path);
    return 0;
}
