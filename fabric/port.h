/* fabric/port.h - ports and the channels that join them.
 *
 * A channel joins one output port to one input port. Its timing lives in the
 * config, not in the units (DESIGN.md "Ports, messages and time"):
 *   latency  >= 1 cycle of the receiver's clock from send to visibility;
 *   capacity messages in flight plus queued at the receiver;
 *   width    messages the sender may send per cycle of its clock.
 *
 * Two-phase semantics: during a cycle a unit sees only messages that arrived
 * before it (sent at least `latency` cycles earlier), and the space a receiver
 * frees by popping becomes usable by the sender only on the next cycle. So the
 * order in which units tick within a cycle cannot change any result.
 *
 * A send that fails (channel full, or width used up this cycle) is
 * back-pressure: the sender keeps the message and the stall is counted once
 * per cycle. A sender blocked on a full channel is woken on the cycle after
 * the receiver pops; one blocked on width is woken on its next cycle.
 */
#ifndef GTSIM_FABRIC_PORT_H
#define GTSIM_FABRIC_PORT_H

#include <stdbool.h>
#include <stdint.h>

struct msg;
struct port;
struct unit;

enum port_direction { PORT_IN = 0, PORT_OUT = 1 };

struct link_params {
    uint32_t latency;       /* cycles, >= 1 */
    uint32_t capacity;      /* messages, >= 1 */
    uint32_t width;         /* messages per sender cycle, >= 1 */
};

/* Sends m on an output port. True: the channel owns m now. False: the channel
 * is full, the width is used up this cycle, or the port is unbound; m stays
 * with the caller and the stall is counted. */
bool port_try_send(struct port *out, struct msg *m);

/* Whether port_try_send() would succeed now. A false answer counts as a stall
 * and arranges the wake-up, like a failed send. */
bool port_can_send(struct port *out);

/* The oldest message visible on an input port, or NULL. Stays in the channel. */
struct msg *port_peek(const struct port *in);

/* The n-th oldest message visible on an input port (0: port_peek's), or NULL
 * when fewer than n + 1 are visible. Stays in the channel. A unit may look
 * ahead at what waits behind its head (e.g. WM's HiZ lookahead). */
struct msg *port_peek_at(const struct port *in, uint32_t n);

/* Takes the oldest visible message; the caller owns it. NULL when none. */
struct msg *port_pop(struct port *in);

/* Messages visible on an input port now. */
uint32_t port_visible(const struct port *in);

/* The bits of unit_queued_ports(port_unit(in)) of which one is set when in's
 * channel may hold a message: its channel's bit (several inputs may share
 * one), fixed once the port is bound; all of them while in is unbound (a
 * backdoor injection may bind it later). A unit that polls many inputs keeps
 * them from realize() and polls an input only when
 * unit_queued_ports() & its bits. */
uint64_t port_queued_bit(const struct port *in);

bool port_is_bound(const struct port *p);
/* The message kinds the port declares (struct port_desc.msg_kinds, MSG_BIT of
 * each); 0: any (placeholders, test rigs, ports made by a port() op). A link
 * is refused when both ends declare kinds and none is common; a send of a
 * kind its port does not declare is logged (once per port) and counted. */
uint32_t port_msg_kinds(const struct port *p);
const char *port_name(const struct port *p);
uint32_t port_index(const struct port *p);
struct unit *port_unit(const struct port *p);
enum port_direction port_direction(const struct port *p);
/* The timing of the channel a port is linked by (false: not linked, or
 * only a backdoor injection channel). */
bool port_link(const struct port *p, struct link_params *out);

/* Observing a port (recordings, co-simulation): fn is called with every
 * message an input port's unit pops, or an output port's unit sends, and the
 * cycle of that unit's clock. A port holds up to PORT_MAX_OBSERVERS, called
 * in the order they were added (a lockstep adapter watching its own ports and
 * a --record-port recorder can share one). Observers must not keep `m`.
 * port_add_observer: false when the port has no room (or fn is NULL).
 * port_remove_observer: removes fn with that context. port_set_observer:
 * replaces every observer by fn (none when fn is NULL). */
#define PORT_MAX_OBSERVERS 4
typedef void (*port_observer_fn)(void *context, const struct port *p, const struct msg *m,
                                 uint64_t cycle);
bool port_add_observer(struct port *p, port_observer_fn fn, void *context);
void port_remove_observer(struct port *p, port_observer_fn fn, void *context);
void port_set_observer(struct port *p, port_observer_fn fn, void *context);

/* Calls (the atomic ports of gem5): a sender hands a message straight to the
 * receiver's call() op (struct unit_ops) and gets the reply back, with no
 * channel in between. Only from an edge commit (unit_ops.edge_commit), which
 * the fabric runs one unit at a time in unit id order after the edge's ticks:
 * so what calls do to the receiver and to memory is the same on any number of
 * host threads and in any tick order. A unit that wants to call during its
 * tick asks port_callable(), keeps the message, and asks for an edge commit.
 *
 * port_callable: whether `out` is linked to a unit that takes calls on that
 * port (its call() op, and its callable() op's yes when the simulation was
 * realized), in the same clock domain, with no observer on either end now
 * (recordings and co-simulation see every message through a channel).
 * Read-only: safe in a parallel tick.
 *
 * port_call: the receiver reads m (the caller keeps it, and may use it again:
 * msg_reuse) and returns in *reply its reply, which the caller then owns
 * (NULL: none, e.g. a write), and in *reply_cycle the cycle of the caller's
 * clock from which the caller may see it: the link's latency,
 * the receiver's own delay and the latency of the link the reply would have
 * taken. The call counts as one message sent on the link (stats, trace); the
 * reply is not counted on the reply's link. False (an error logged) when
 * called outside an edge commit or when the port is not callable. */
bool port_callable(const struct port *out);
bool port_call(struct port *out, struct msg *m, struct msg **reply, uint64_t *reply_cycle);

/* Backdoor for tests and harnesses that drive one unit alone: puts m into
 * input port `in`, visible from the receiver's next cycle, ignoring capacity.
 * The first injection gives an unlinked port a backdoor channel (so realize
 * then finds it bound). Fails (false) on a port linked to a sender, whose
 * traffic comes only from that sender. */
bool port_inject(struct port *in, struct msg *m);

#endif
