/* units/common/ff_stage.h - the skeleton of a fixed-function stage: the part
 * every stage of the 3D pipeline (VF, VS, HS, TE, DS, GS, SOL, CLIP, SF, WM)
 * shares, as a library a stage embeds in its state (not a unit kind).
 *
 * A stage sits in a chain: one input port receives, in command order, state
 * packets (MSG_STATE, state_packet.h), the 3DPRIMITIVE that starts work (a
 * MSG_STATE packet with id SPEC_ID_3DPRIMITIVE at the top of the pipeline),
 * primitives between stages (MSG_PRIMITIVE, primitive.h) and whatever else
 * the pipeline passes; one output port sends to the next stage. The stage
 * names the ids it takes and the work it does; the skeleton does the rest:
 *   - an id the stage takes: take_state() sees the packet (the stage copies
 *     what it needs from cs_state_common(p)); the packet then goes on
 *     downstream, since later stages usually need it too, unless the stage
 *     listed the id as consumed;
 *   - work (the kinds and ids the stage names): work() may emit zero or more
 *     messages with ff_stage_emit(), then says done (the input is freed),
 *     pass (the input goes on after what it emitted) or not now (the input
 *     stays at the head: back-pressure or waiting for resources);
 *   - everything else is forwarded unchanged.
 *
 * The ordering rule: the pipeline keeps primitive order end to end (the
 * stage table of seed 003 L10989-11007; "processes all the primitives in
 * order", CLIP, L13852) and state is pipelined with the work, each command
 * reaching a stage after the work issued before it and before the work
 * issued after it (seed 003 L2385-2445 command ordering rules; DESIGN.md
 * "State"). So nothing overtakes: the skeleton looks at the head of the
 * input only once everything the previous message produced has left on the
 * output. When the output refuses a send, nothing behind it moves and the
 * input is popped no further (upstream sees its channel fill); the fabric
 * wakes the unit when the output frees up.
 *
 * Throughput: at most `per_cycle` input messages are handled per tick (sends
 * are further bounded by the output channel's width).
 *
 * Not done here: a stage's other ports (URB, thread dispatch, memory), its
 * timing beyond per_cycle, and waking itself after "not now" (unit_wake_at(),
 * or a message arriving on another port). Ids are not checked against the
 * generation: an id the CS never sends for that generation never arrives.
 */
#ifndef GTSIM_UNITS_COMMON_FF_STAGE_H
#define GTSIM_UNITS_COMMON_FF_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/error.h"
#include "fabric/unit.h"
#include "spec_common.h"            /* generated: enum spec_id, SPEC_ID_COUNT */
#include "units/common/state_packet.h"

/* What a stage does with a state packet id it names. */
enum ff_stage_use {
    FF_STAGE_TAKE = 0,      /* take_state(), then forward (the default) */
    FF_STAGE_CONSUME,       /* take_state(), and it goes no further */
    FF_STAGE_WORK,          /* work() (3DPRIMITIVE at the top of the pipeline) */
};

struct ff_stage_id {
    uint32_t id;            /* enum spec_id */
    uint32_t use;           /* enum ff_stage_use */
};

enum ff_stage_work_result {
    FF_STAGE_DONE = 0,      /* handled: the input message is freed */
    FF_STAGE_PASS,          /* handled: the input message goes on, after what was emitted */
    FF_STAGE_NOT_NOW,       /* not yet: the input stays at the head (what was emitted
                               leaves; the stage keeps its own progress) */
};

#define FF_STAGE_ID_WORDS (((uint32_t)SPEC_ID_COUNT + 63u) / 64u)

struct ff_stage_config {
    struct port *in, *out;          /* out unbound or NULL: what leaves is freed (dropped) */
    const struct ff_stage_id *ids;  /* the ids the stage takes, consumes or works on */
    uint32_t id_count;
    uint32_t work_kinds;            /* MSG_BIT() of the kinds handed to work() (MSG_STATE
                                       is only by id) */
    uint32_t per_cycle;             /* input messages handled per tick; 0 is read as 1 */
    void (*take_state)(void *context, const struct cs_state_packet *p);
    enum ff_stage_work_result (*work)(void *context, struct msg *m);
    void *context;                  /* the stage's state, passed to both */
};

/* Counters a stage puts in its stat table (FF_STAGE_STATS below). */
struct ff_stage_stats {
    uint64_t taken;                 /* state packets given to take_state() */
    uint64_t consumed;              /* of those, not forwarded */
    uint64_t forwarded;             /* messages passed on unchanged (taken state included) */
    uint64_t work;                  /* work items done (DONE or PASS) */
    uint64_t emitted;               /* messages work() emitted */
    uint64_t not_now;               /* work() calls answered "not now" */
    uint64_t output_stalls;         /* ticks in which the output refused a send */
    uint64_t dropped;               /* messages freed for want of a bound output */
};

struct ff_stage {
    struct ff_stage_config config;
    uint64_t take[FF_STAGE_ID_WORDS], consume[FF_STAGE_ID_WORDS], work[FF_STAGE_ID_WORDS];
    struct msg *pending, *pending_tail;     /* to send before the input's head moves */
    uint32_t pending_count;
    struct ff_stage_stats stats;
};

/* Sets the skeleton up (the ids list is read now, not kept). -1 and err when
 * there is no input port, an id is out of range or named twice, or the config
 * lacks a callback it needs. */
int ff_stage_init(struct ff_stage *s, const struct ff_stage_config *config, struct gt_error *err);

/* Frees the messages waiting to leave (a unit's reset and destroy). */
void ff_stage_clear(struct ff_stage *s, struct sim *sim);

/* From work(): m leaves after what was emitted before it (the stage gives m
 * up). Not the input message itself: work() answers FF_STAGE_PASS for that. */
void ff_stage_emit(struct ff_stage *s, struct msg *m);

/* Messages emitted or forwarded that have not left yet. */
static inline uint32_t ff_stage_pending(const struct ff_stage *s)
{
    return s->pending_count;
}

enum ff_stage_status {
    FF_STAGE_IDLE = 0,      /* the input is empty and everything has left */
    FF_STAGE_MORE,          /* per_cycle reached with input waiting: tick again */
    FF_STAGE_OUTPUT_FULL,   /* the output refused: the fabric wakes the unit */
    FF_STAGE_WAITING,       /* work() said not now: the stage arranges its wake */
};

/* Sends what waits, then handles up to per_cycle input messages in order. */
enum ff_stage_status ff_stage_tick(struct ff_stage *s, struct unit *u);

/* UNIT_BUSY when the status asks for the next cycle's tick. */
static inline enum unit_activity ff_stage_activity(enum ff_stage_status st)
{
    return st == FF_STAGE_MORE ? UNIT_BUSY : UNIT_IDLE;
}

/* The skeleton's counters as stat table entries of a stage whose state type
 * `st` embeds struct ff_stage as `member`, under "<prefix>" ("ff."). */
#define FF_STAGE_STAT(pfx, n, st, member, f, m, h) \
    STAT_COUNTER_FIELD(pfx n, st, member.stats.f, m, h)
#define FF_STAGE_STATS(pfx, st, member)                                                         \
    FF_STAGE_STAT(pfx, "taken", st, member, taken, "packets", "state packets taken"),           \
    FF_STAGE_STAT(pfx, "consumed", st, member, consumed, "packets",                             \
                  "state packets taken and not forwarded"),                                    \
    FF_STAGE_STAT(pfx, "forwarded", st, member, forwarded, "messages",                          \
                  "messages passed on unchanged"),                                             \
    FF_STAGE_STAT(pfx, "work", st, member, work, "items", "work items done"),                   \
    FF_STAGE_STAT(pfx, "emitted", st, member, emitted, "messages", "messages the work made"),   \
    FF_STAGE_STAT(pfx, "not_now", st, member, not_now, "events", "work held at the head"),      \
    FF_STAGE_STAT(pfx, "stall.output", st, member, output_stalls, "cycles",                     \
                  "ticks in which the output refused a send"),                                 \
    FF_STAGE_STAT(pfx, "dropped", st, member, dropped, "messages",                              \
                  "messages freed for want of a bound output")

#endif
