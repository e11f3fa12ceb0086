/* fabric/recording.h - port recordings: the messages one port of one unit
 * saw, with their cycles, in a text file that replay plays back.
 *
 * Format (version 1), line-oriented text, '#' starts a comment line:
 *   gtsim-port-recording 1
 *   unit gpu.cs_alu                 the unit's full name
 *   kind cs_alu                     its kind (the C kind, without ":impl")
 *   port request in                 port name and direction (in | out); a port
 *                                   of an array names its index: client[2]
 *   link 1 4 1                      optional: latency, capacity, width of the
 *                                   channel the port was linked by
 *   period_ps 869                   the unit's clock period
 *   m CYCLE TAG KIND SIZE HEX       one per message, in order
 * For an input port CYCLE is the cycle the unit took the message (popped it);
 * for an output port the cycle it sent it. KIND is the msg_kind number, SIZE
 * the payload bytes, HEX the payload, two lowercase hex digits per byte in
 * memory order (little-endian fields). Example:
 *   m 12 7 0 140 0a00000000000000...
 *
 * `gtsim run --record-port UNIT.PORT[N]=FILE` records any port through a port
 * observer (fabric/port.h); the co-simulation kinds (rtl-cosim/) also record
 * through their record_* params, and rtl-cosim/replay.c plays recordings back.
 */
#ifndef GTSIM_FABRIC_RECORDING_H
#define GTSIM_FABRIC_RECORDING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/error.h"
#include "fabric/msg.h"
#include "fabric/port.h"

struct recording_header {
    char unit[256];
    char kind[64];
    char port[64];                  /* the name, without the index */
    uint32_t index;                 /* of the port in its array (0 for a single port) */
    bool indexed;                   /* written as port[index] */
    enum port_direction direction;
    uint64_t period_ps;
    struct link_params link;        /* all 0: not recorded */
};

/* ---- writing ---------------------------------------------------------------- */

struct recorder;
struct recorder *recorder_open(const char *path, const struct recording_header *h,
                               struct gt_error *err);
void recorder_write(struct recorder *r, uint64_t cycle, const struct msg *m);
void recorder_write_raw(struct recorder *r, uint64_t cycle, uint32_t tag, uint32_t kind,
                        const void *payload, uint32_t size);
uint64_t recorder_count(const struct recorder *r);
/* Records every message port p carries to `path`, through a port observer
 * beside any others (a lockstep adapter's): the header names p's unit, its
 * kind without ":impl", the port (with its index when the unit has several
 * of that name) and the channel's timing. NULL with err when the file
 * cannot be written or the port has no room for another observer. */
struct recorder *recorder_attach(struct port *p, const char *path, struct gt_error *err);
/* Flushes and closes (an attached recorder leaves its port first); -1 with
 * err when the file could not be written. */
int recorder_close(struct recorder *r, struct gt_error *err);

/* ---- reading ---------------------------------------------------------------- */

struct recorded_msg {
    uint64_t cycle;
    uint32_t tag, kind, size;
    unsigned char *payload;     /* owned by the reader, valid until the next read */
};

struct recording;
/* Opens and reads the header. Errors name the file and line. */
struct recording *recording_open(const char *path, struct gt_error *err);
const struct recording_header *recording_header(const struct recording *r);
/* 1: a message; 0: the end; -1: a malformed line (err names file:line). */
int recording_next(struct recording *r, struct recorded_msg *out, struct gt_error *err);
void recording_close(struct recording *r);

#endif
