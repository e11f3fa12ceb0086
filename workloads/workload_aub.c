/* workloads/workload_aub.c - the legacy capture the Gen4 and Gen7 builders
 * share (workload_aub.h; the 3D draws of workload3d.c and workload3d_gen4.c,
 * the compute dispatches of workload7.c). */
#include "workloads/workload_aub.h"

#include <stdlib.h>
#include <string.h>

int workload_aub_legacy(const char *out_aub, uint32_t pci_id, const char *name,
                        const uint8_t *image, uint32_t gtt_base, uint32_t pages,
                        uint32_t batch_gtt, struct gt_error *err)
{
    struct aub_writer w;
    int compress = strlen(out_aub) > 3 && strcmp(out_aub + strlen(out_aub) - 3, ".gz") == 0;
    if (aub_writer_open(&w, out_aub, compress, err) < 0)
        return -1;
    int rc = -1;
    uint32_t gtt_pages = gtt_base / 4096u + pages;
    uint32_t *pte = calloc(gtt_pages, 4);
    if (!pte) {
        gt_error_set(err, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < gtt_pages; i++)
        pte[i] = (WORKLOAD_LEGACY_PHYS + 0x1000u * i) | 3;
    if (aub_write_legacy_header(&w, pci_id, name, err) < 0 ||
        aub_write_legacy_data(&w, AUB_SPACE_GGTT_ENTRY, 0, 0, pte, 4ull * gtt_pages, err) < 0 ||
        aub_write_legacy_data(&w, AUB_SPACE_GGTT, AUB_TRACE_TYPE_NOTYPE, gtt_base, image,
                              4096ull * pages, err) < 0)
        goto done;
    const uint32_t ring[2] = { 0x18800000u, batch_gtt };     /* MI_BATCH_BUFFER_START, GGTT */
    if (aub_write_legacy_ring(&w, AUB_TRACE_RING_PRB0, WORKLOAD_LEGACY_RING, ring, 2, err) < 0)
        goto done;
    rc = 0;
done:
    free(pte);
    if (aub_writer_close(&w, rc < 0 ? NULL : err) < 0)
        rc = -1;
    return rc;
}
