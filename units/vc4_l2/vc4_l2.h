/* units/vc4_l2/vc4_l2.h - the VideoCore IV L2 cache (L2C) and the SDRAM behind it, for timing.
 *
 * What it models (seed 002, notes/002-videocore4.md):
 *  - the L2C "shared by all TMUs, and the path for QUC and QIC fetches" to memory through the
 *    AXI arbiter (notes table row L2C, seed @40407): a read-only cache of 64-byte lines
 *    (MSG_MEMORY_REQUEST, units/common/memreq.h) in `size_kb`, `ways`-way set associative with
 *    LRU replacement. The seed gives no size, line size or associativity (notes "Not given",
 *    @917): 128 KB is the BCM2835's figure [ext: Raspberry Pi documentation, as the config
 *    says]; 64-byte lines and 4 ways are choices;
 *  - a hit answers `hit_latency` cycles after the request; a miss goes to SDRAM: `sdram_latency`
 *    cycles plus the line's transfer at `sdram_bytes_per_cycle`, one transfer at a time (the
 *    bandwidth is shared by all misses); both are config values (the seed gives no AXI width
 *    or memory timing, notes @801) [chosen];
 *  - writes (MEMREQ_WRITE) are not cached: "no write path described (VDW, TLB stores and PTB
 *    writes are not said to go through L2C)" [inferred]: they take the SDRAM time only;
 *  - V3D_L2CACTL (0x020, Table 71), written on "control" (MSG_MMIO CS_MMIO_WRITE): bit 2 L2CCLR
 *    clears (invalidates) every line, bit 1 L2CDIS disables, bit 0 L2CENA enables ("write of
 *    '0' has no effect"). A disabled L2C sends every read to SDRAM (counted as uncached_reads).
 *    `enabled` gives the state at reset (the Pi's firmware enables it [chosen]).
 *    V3D_SLCACTL (0x024, Table 72) writes are counted (the slice caches are the TMUs' and
 *    QPUs' own). Other offsets are counted as unknown_registers.
 *  - the BCM2835's bus-address aliases (bits 31:30 of the address a request carries, before
 *    `address_mask`): the "direct uncached" alias 0xC0000000 [ext: BCM2835 ARM Peripherals
 *    1.2.2; notes/002 give only the V3D side] (`uncached_alias` = 3) goes around the cache:
 *    a read takes the SDRAM time, allocates nothing and is counted in alias_uncached_reads;
 *    a request whose target is MEMREQ_UNCACHED is treated alike. The other aliases (0x0,
 *    0x4 "L2 coherent", 0x8) are cached [chosen: their L1/allocation differences concern the
 *    ARM side];
 * Not modelled: data (the requester reads the machine's memory itself, memreq.h), AXI FIFO
 * overruns (ERRSTAT L2CARE), the performance counters 28/29 (the
 * stats here count the same events), SDRAM banks and refresh.
 *
 * Ports: "client"[n] in (MSG_MEMORY_REQUEST, an open array), "reply"[n] out
 * (MSG_MEMORY_RESPONSE to the client of the same index, `hit` set on an L2 hit), "control" in
 * (optional, MSG_MMIO register writes from the V3D block).
 * Stats: reads, hits, misses, uncached_reads, writes, clears, l2cactl_writes, slcactl_writes,
 * unknown_registers, sdram_busy_cycles, bad_messages, reply_stalls, alias_uncached_reads,
 * alias_uncached_writes.
 * Clients: the TMUs' cache fills, the QPUs' instruction and uniform cache fills (QIC, QUC)
 * and the VPM's VDR loads (reads) and VDW stores (writes), units/qpu, units/vc4_vpm.
 */
#ifndef GTSIM_UNITS_VC4_L2_H
#define GTSIM_UNITS_VC4_L2_H

#include "fabric/unit.h"

#define VC4_L2CACTL 0x020u
#define VC4_SLCACTL 0x024u
#define VC4_L2CACTL_L2CCLR (1u << 2)
#define VC4_L2CACTL_L2CDIS (1u << 1)
#define VC4_L2CACTL_L2CENA (1u << 0)

extern const struct unit_ops vc4_l2_ops;

#endif
