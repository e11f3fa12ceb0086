/* units/common/gen4_thread_output.c - see gen4_thread_output.h. */
#include "units/common/gen4_thread_output.h"

void gen4_thread_outputs_split(const uint32_t *handles, const uint32_t *dword2, uint32_t count,
                               const struct gen4_output_sink *sink)
{
    uint32_t first = 0, run = 0;
    for (uint32_t i = 0; i < count; i++) {
        if ((dword2[i] & GEN4_OUTPUT_PRIM_START) || run == 0) {
            if (run)                /* a primitive left open: its vertices dangle */
                sink->dangling(sink->context, &handles[first], run);
            first = i;
            run = 0;
        }
        run++;
        if (dword2[i] & GEN4_OUTPUT_PRIM_END) {
            sink->primitive(sink->context, GEN4_OUTPUT_TOPOLOGY(dword2[first]), &handles[first], run);
            run = 0;
        }
    }
    if (run)
        sink->dangling(sink->context, &handles[first], run);
}
