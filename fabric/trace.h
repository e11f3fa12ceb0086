/* fabric/trace.h - Chrome trace-event JSON of unit activity and messages.
 *
 * The file opens in Perfetto (ui.perfetto.dev) or chrome://tracing. Each unit
 * is a track (thread) named by its hierarchical name; its active cycles are
 * merged into slices ("active", one per run of consecutive ticked cycles), and
 * every message is a flow arrow from the sender's track at the send to the
 * receiver's track at the arrival. The number of events is bounded: past the
 * limit nothing more is recorded and the file says it was truncated.
 */
#ifndef GTSIM_FABRIC_TRACE_H
#define GTSIM_FABRIC_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/error.h"

struct sim;
struct trace;

struct trace *trace_open(const char *path, uint64_t max_events, struct gt_error *err);
/* Flushes open slices, writes the track names and closes the file. */
int trace_close(struct trace *t, struct sim *sim, struct gt_error *err);

/* Tracks of the tools' own (per-draw and per-dispatch records, say), beside
 * the units' tracks: track k (0..TRACE_EXTRA_TRACKS-1) is named once with
 * trace_track_name; trace_track_slice adds a slice from start_ps to end_ps,
 * with args_json (a JSON object's members without braces, or NULL) as its
 * arguments. Bounded by the trace's event limit like every event. */
#define TRACE_EXTRA_TRACKS 16u
void trace_track_name(struct trace *t, uint32_t track, const char *name);
void trace_track_slice(struct trace *t, uint32_t track, const char *name, uint64_t start_ps,
                       uint64_t end_ps, const char *args_json);

uint64_t trace_event_count(const struct trace *t);
bool trace_truncated(const struct trace *t);

#endif
