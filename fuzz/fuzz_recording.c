/* fuzz/fuzz_recording.c - port recordings (fabric/recording.h): any file must
 * read to its end or give an error naming the line. */
#include <stdint.h>
#include <stddef.h>

#include "fabric/recording.h"
#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".rec", path, sizeof path);
    struct gt_error err;
    struct recording *r = recording_open(path, &err);
    if (!r)
        return 0;
    recording_header(r);
    struct recorded_msg m;
    while (recording_next(r, &m, &err) > 0) {
        volatile unsigned char sink = 0;
        for (uint32_t i = 0; i < m.size; i++)
            sink ^= m.payload[i];
        (void)sink;
    }
    recording_close(r);
    return 0;
}
