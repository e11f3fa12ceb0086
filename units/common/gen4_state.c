/* units/common/gen4_state.c - see gen4_state.h. */
#include "units/common/gen4_state.h"

#include <string.h>

#include "fabric/memory.h"
#include "fabric/sim.h"

bool gen4_state_read(struct sim *sim, const struct cs_state_packet *p, uint64_t general_state_base,
                     uint64_t offset, uint32_t *dw, uint32_t dwords)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    if (gpu_address_space_read(&as, general_state_base + offset, dw, dwords * 4u, &err) == 0)
        return true;
    memset(dw, 0, dwords * 4u);
    return false;
}
