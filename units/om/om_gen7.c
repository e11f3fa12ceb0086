/* units/om/om_gen7.c - Gen7 render target fast clear scale; see om_gen7.h. */
#include "units/om/om_gen7.h"

bool om_gen7_fast_clear_block(const struct surface *rt, uint32_t *width, uint32_t *height)
{
    uint32_t bpp_shift;
    switch (rt->element_bytes) {
    case 4: bpp_shift = 0; break;
    case 8: bpp_shift = 1; break;
    case 16: bpp_shift = 2; break;
    default: return false;
    }
    if (rt->block_width != 1 || rt->block_height != 1)
        return false;
    if (rt->tiling == TILING_Y) {
        /* GEN7_CCS_*_Y: (8 >> bpp_shift) x 4 pixels a bit; x 16 / 2, x 32 / 2 */
        *width = (8u >> bpp_shift) * 8u;
        *height = 4u * 16u;
        return true;
    }
    if (rt->tiling == TILING_X) {
        /* GEN7_CCS_*_X: (16 >> bpp_shift) x 2 pixels a bit */
        *width = (16u >> bpp_shift) * 8u;
        *height = 2u * 16u;
        return true;
    }
    return false;
}
