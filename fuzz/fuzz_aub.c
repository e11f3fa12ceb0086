/* fuzz/fuzz_aub.c - the AUB reader and loader alone (fabric/aub.h): any file
 * must load or give an error, within the page budget. */
#include <stdint.h>
#include <stddef.h>

#include "fabric/aub.h"
#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fuzz_write_temp(data, size, ".aub", path, sizeof path);
    struct gt_error err;
    struct aub_device_guess guess;
    aub_read_device(path, &guess, &err);
    struct aub_load load;
    /* 16 MiB of pages: enough for the seed captures, bounds a hostile file */
    struct aub_load_options options = { .page_limit = 4096 };
    if (aub_load_file(path, &load, &options, &err) == 0)
        aub_load_release(&load);
    return 0;
}
