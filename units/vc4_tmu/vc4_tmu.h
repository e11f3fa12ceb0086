/* units/vc4_tmu/vc4_tmu.h - a VideoCore IV texture and memory lookup unit (TMU): direct
 * ("general") memory lookups and texture lookups (seed 002 Sec 4 @93323; notes §4.1).
 *
 * What it models:
 *  - one request FIFO and one receive FIFO per client (a QPU's TMU port: "there is one FIFO per
 *    QPU", @96330);
 *  - direct lookups: a write to the s register (TMUn_S) with no t/r/b written before it is "a
 *    direct memory lookup ... using the absolute memory address ... the bottom two bits of the
 *    address are ignored" and returns 32 bits per element (@96330, notes §4.1); elements not
 *    written (lane_mask) read nothing and return 0 [chosen];
 *  - a load signal (sig 10/11, QPU_IO_SIGNAL) pops the oldest result into r4 (to_r4), at the
 *    earliest `latency` cycles after its request arrived (the seed gives no TMU latency);
 *  - TFREQ/TFRCV depth: "eight data slots" and "eight color slots" per QPU (@96330): a request
 *    beyond 8 outstanding (not yet loaded) results is counted as fifo_overruns (hardware
 *    misbehaviour: the QPU would stall or lose data) and still served; a load with nothing
 *    requested answers 0 and is counted.
 *  - texture lookups: writes of t, r or b before s make the lookup a texture lookup; each
 *    write carries the uniform the QPU popped with it, and config parameter k is the k-th
 *    write's uniform in write order ("Uniforms associated with the first 2 TMU data writes set
 *    up common things", the 3rd and 4th cube stride or child image; notes §4.1 [inferred]);
 *    the texel decode of every type of Table 18, T/LT/raster addressing, mipmap levels, the
 *    level of detail, nearest/bilinear/mip filters, wrap modes, border colour and cube faces
 *    are units/vc4_tmu/vc4_texture.h's (which says what it leaves out: child images, the
 *    cache swizzle). The level of detail is per quad of the request's 16 elements (elements
 *    4q..4q+3), the bias the b write's element 4q when b was written. An RGBA64 lookup puts
 *    two results in the receive FIFO (RG, then BA: "two read requests are required",
 *    @95448);
 *  - the TMU cache: every 64-byte line a lookup reads is looked up in a direct-mapped cache of
 *    `cache_kb` (the seed gives no size or organisation [chosen]). When "l2" is bound each
 *    miss is a 64-byte line request to the L2C (units/vc4_l2, MSG_MEMORY_REQUEST) and the
 *    lookup is loadable no earlier than its last line's reply; a load signal behind such a
 *    lookup is held (answers stay in order) and the QPU counts the wait as its r4 stall.
 *    Unbound, a lookup with a miss is loadable `miss_latency` cycles later;
 *  - V3D_SLCACTL writes on "control" (Table 72): a set T0CCS or T1CCS bit clears the cache
 *    (of every TMU: which slice and TMU this is is not known to the unit [chosen]).
 * Not modelled: the cache swizzle; a hit on a line whose fill is still on its way to the L2C
 * is loadable at once (fills in flight are not tracked per line).
 *
 * Ports: "qpu"[n] in (MSG_QPU_IO writes of 56-63 and load signals, an open array: one per
 * client), "result"[n] out (MSG_QPU_RESULT, to_r4 = 1, to the client of the same index),
 * "l2" out / "l2_reply" in (optional, MSG_MEMORY_REQUEST / RESPONSE), "control" in (optional,
 * MSG_MMIO CS_MMIO_WRITE of V3D_SLCACTL).
 * Stats: direct_lookups, loads, texture_requests, unsupported_types, mipmap_lookups,
 * rgba64_lookups,
 * cube_lookups, cache_hits, cache_misses, fifo_overruns, loads_without_request,
 * lookups_beyond_memory, bad_messages, reply_stalls, cache_clears, l2_requests, l2_hits,
 * l2_held_loads, l2_stray_replies.
 */
#ifndef GTSIM_UNITS_VC4_TMU_H
#define GTSIM_UNITS_VC4_TMU_H

#include "fabric/unit.h"

extern const struct unit_ops vc4_tmu_ops;

#endif
