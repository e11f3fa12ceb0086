/* units/common/mmio.h - MSG_MMIO: register traffic between the host, the
 * command streamer, the GPGPU front end and the L3s.
 *
 * The host sends register writes, ring dwords handed over inline (legacy
 * AUB captures, notes/aub-format.md §5.3-5.4), sync requests and the device
 * the workload was captured on to the CS ("host" port); the CS replies to a
 * sync when the work before it is done. The CS forwards L3CNTLREG writes to
 * the L3s (CS_MMIO_WRITE) and asks the front end to drain (CS_MMIO_SYNC,
 * answered by CS_MMIO_SYNC_DONE) for a Command Streamer Stall.
 */
#ifndef GTSIM_UNITS_COMMON_MMIO_H
#define GTSIM_UNITS_COMMON_MMIO_H

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

#endif
