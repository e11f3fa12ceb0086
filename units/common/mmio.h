/* units/common/mmio.h - MSG_MMIO: register traffic between the host, the
 * command streamer, the GPGPU front end and the L3s.
 *
 * The host sends register writes, ring dwords handed over inline (legacy
 * AUB captures, notes/aub-format.md §5.3-5.4), sync requests and the device
 * the workload was captured on to the CS ("host" port); the CS replies to a
 * sync when the work before it is done. The CS forwards L3CNTLREG writes to
 * the L3s (CS_MMIO_WRITE) and asks the front end to drain (CS_MMIO_SYNC,
 * answered by CS_MMIO_SYNC_DONE) for a Command Streamer Stall.
 *
 * The 3D pipeline's registers travel in-band (a model choice: the seed puts
 * the pipeline statistics counters, 003 L11007-11060 and the SOL registers,
 * L13677-13825, in the units that count, and drivers read them only after a
 * stalling PIPE_CONTROL). When the CS's "pipe_drained" input is linked:
 *  - a register write (MI_LOAD_REGISTER_IMM/MEM/REG) to a register a 3D stage
 *    owns (the statistics counters, SO_WRITE_OFFSETn, SO_NUM_PRIMS_WRITTENn,
 *    SO_PRIM_STORAGE_NEEDEDn, 3DPRIM_*, INSTPM, CS_DEBUG_MODE2) goes down
 *    the 3D pipeline ("vf") as CS_MMIO_WRITE, in order with the commands
 *    around it, carrying the register's new value (a masked register's
 *    write already applied by the CS); the owning stage sets its counter
 *    (each dword of a 64-bit register is its own write);
 *  - a stall (and a host sync) sends CS_MMIO_SYNC down "vf" with a struct
 *    pipeline_registers in data[]. Every stage holds it until all the work
 *    ahead of it has left the stage (its threads ended), writes its own
 *    fields and forwards it; the unit whose "drained" output is linked (the
 *    end of the modelled pipeline) sends it back to the CS as
 *    CS_MMIO_SYNC_DONE. The CS keeps the values as its copies of the
 *    registers, which MI_STORE_REGISTER_MEM and MI_LOAD_REGISTER_REG read.
 */
#ifndef GTSIM_UNITS_COMMON_MMIO_H
#define GTSIM_UNITS_COMMON_MMIO_H

#include <stdbool.h>
#include <stdint.h>

enum cs_mmio_op {
    CS_MMIO_WRITE = 1,      /* host -> CS: register `offset` = `value` */
    CS_MMIO_RING_DATA = 2,  /* host -> CS: ring dwords handed over inline (legacy AUB) */
    CS_MMIO_SYNC = 3,       /* host -> CS: reply when all work before it is done */
    CS_MMIO_SYNC_DONE = 4,  /* CS -> host: reply to a sync */
    CS_MMIO_DEVICE = 5,     /* host -> CS: the workload was captured on `value` (PCI id), gen `offset` */
};

struct cs_mmio {
    uint32_t op;            /* enum cs_mmio_op */
    uint32_t offset;        /* WRITE: MMIO offset; DEVICE, SYNC_DONE: generation */
    uint32_t value;         /* WRITE: value; DEVICE: PCI id; SYNC_DONE: hangs so far */
    uint32_t ring;          /* RING_DATA: which ring (AUB_TRACE_RING_*) */
    uint64_t address;       /* RING_DATA: the address the capture names (unused) */
    uint32_t size;          /* RING_DATA: bytes in data[] */
    uint32_t reserved;
    uint8_t data[];
};

/* The 3D pipeline's registers (offsets from seed 004 / Mesa's genxml
 * gen9.xml registers). A stage writes only its own fields, with the counter's
 * whole current value; a field no stage wrote keeps the CS's value. */
enum pipeline_register_field {
    PIPE_REG_IA_VERTICES = 0,       /* IA_VERTICES_COUNT 0x2310 (VF) */
    PIPE_REG_IA_PRIMITIVES,         /* IA_PRIMITIVES_COUNT 0x2318 (VF) */
    PIPE_REG_VS_INVOCATIONS,        /* VS_INVOCATION_COUNT 0x2320 */
    PIPE_REG_HS_INVOCATIONS,        /* HS_INVOCATION_COUNT 0x2300 */
    PIPE_REG_DS_INVOCATIONS,        /* DS_INVOCATION_COUNT 0x2308 */
    PIPE_REG_GS_INVOCATIONS,        /* GS_INVOCATION_COUNT 0x2328 */
    PIPE_REG_GS_PRIMITIVES,         /* GS_PRIMITIVES_COUNT 0x2330 */
    PIPE_REG_CL_INVOCATIONS,        /* CL_INVOCATION_COUNT 0x2338 */
    PIPE_REG_CL_PRIMITIVES,         /* CL_PRIMITIVES_COUNT 0x2340 */
    PIPE_REG_PS_INVOCATIONS,        /* PS_INVOCATION_COUNT 0x2348 */
    PIPE_REG_PS_DEPTH,              /* PS_DEPTH_COUNT 0x2350 */
    PIPE_REG_SO_NUM_PRIMS_WRITTEN0, /* SO_NUM_PRIMS_WRITTEN0..3 0x5200 + 8n (SOL) */
    PIPE_REG_SO_PRIM_STORAGE_NEEDED0 = PIPE_REG_SO_NUM_PRIMS_WRITTEN0 + 4,  /* 0x5240 + 8n */
    PIPE_REG_SO_WRITE_OFFSET0 = PIPE_REG_SO_PRIM_STORAGE_NEEDED0 + 4,       /* 0x5280 + 4n, 32 bits */
    PIPE_REG_COUNT = PIPE_REG_SO_WRITE_OFFSET0 + 4
};

struct pipeline_registers {
    uint64_t written;               /* bit f: field f was written by a stage on the way */
    uint64_t value[PIPE_REG_COUNT];
};

/* A CS_MMIO_WRITE to one dword of the 64-bit register at `base` (each dword
 * comes as its own write): sets that half of *reg. False when `offset` is
 * neither of its dwords. */
static inline bool pipeline_register_write64(uint64_t *reg, uint32_t base, uint32_t offset,
                                             uint32_t value)
{
    if (offset == base)
        *reg = (*reg & ~0xffffffffull) | value;
    else if (offset == base + 4)
        *reg = (*reg & 0xffffffffull) | (uint64_t)value << 32;
    else
        return false;
    return true;
}

#endif
