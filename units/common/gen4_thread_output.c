/* units/common/gen4_thread_output.c - see gen4_thread_output.h. */
#include "units/common/gen4_thread_output.h"

#include "fabric/unit.h"
#include "units/common/stage_thread.h"
#include "units/common/thread_msg.h"

void gen4_thread_outputs_split(struct gen4_thread_outputs *outputs,
                               const struct gen4_output_sink *sink)
{
    const uint32_t *handles = outputs->handle, *dword2 = outputs->dword2;
    uint32_t count = outputs->count, first = 0, run = 0;
    outputs->count = 0;
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

bool gen4_thread_outputs_hold(const struct gen4_thread_outputs *outputs, uint32_t handle)
{
    for (uint32_t i = 0; i < outputs->count; i++)
        if (outputs->handle[i] == handle)
            return true;
    return false;
}

void gen4_thread_notices_take(struct stage_threads *threads, struct unit *u,
                              const struct gen4_notice_host *host,
                              struct gen4_notice_counters *counters)
{
    uint64_t tag;
    struct eu_thread_end e;
    int kind;
    while ((kind = stage_threads_poll_notice(threads, u, &tag, &e)) != 0) {
        uint32_t slot = (uint32_t)(tag & 0xffu), seq = (uint32_t)(tag >> 8) & 0xffffffu;
        /* kind 3: an output of a thread no longer in flight (no tag) */
        struct gen4_thread_outputs *out = kind != 3 ? host->running(host->context, slot, seq)
                                                    : NULL;
        if (kind == 1) {
            if (out) {
                host->ended(host->context, slot);
                counters->threads_ended++;
            } else {
                counters->late_notices++;
            }
        } else if (out && out->count < GEN4_THREAD_MAX_OUTPUTS) {
            out->handle[out->count] = e.urb_handle;
            out->dword2[out->count++] = e.eot_header_dword2;
            counters->outputs++;
        } else {
            if (out)
                counters->output_overflow++;
            else
                counters->late_notices++;
            host->free_entry(host->context, e.urb_handle);
        }
        unit_progress(u);
    }
}
