/* units/dataport/dataport_atomic.c - untyped atomic operations, A32/SLM/BTS and A64 (seed 003
 * L6235-6352): the 32-bit integer operations of L18634-18680, SIMD8 or SIMD16. */
#include "units/dataport/dataport_internal.h"

/* The new value of a DWord from its old value and the sources (L18634-18680);
 * *store: whether the operation writes. */
static uint32_t atomic_op(unsigned aop, uint32_t old, uint32_t src0, uint32_t src1, bool *store)
{
    *store = true;
    switch (aop) {
    case DESC_ATOMIC_AND: return old & src0;
    case DESC_ATOMIC_OR: return old | src0;
    case DESC_ATOMIC_XOR: return old ^ src0;
    case DESC_ATOMIC_MOV: return src0;
    case DESC_ATOMIC_INC: return old + 1;
    case DESC_ATOMIC_DEC: return old - 1;
    case DESC_ATOMIC_ADD: return old + src0;
    case DESC_ATOMIC_SUB: return old - src0;
    case DESC_ATOMIC_REVSUB: return src0 - old;
    case DESC_ATOMIC_IMAX: return (int32_t)old > (int32_t)src0 ? old : src0;
    case DESC_ATOMIC_IMIN: return (int32_t)old < (int32_t)src0 ? old : src0;
    case DESC_ATOMIC_UMAX: return old > src0 ? old : src0;
    case DESC_ATOMIC_UMIN: return old < src0 ? old : src0;
    case DESC_ATOMIC_CMPWR: return old == src0 ? src1 : old;
    case DESC_ATOMIC_PREDEC: return old - 1;
    default: *store = false; return old;
    }
}

void dp_atomic(struct acc *a, const struct dp_msg *x, enum dp_op op)
{
    struct dp *s = a->s;
    uint32_t desc = x->desc;
    uint32_t mask = x->mask;
    bool a64 = op == OP_A64_ATOMIC;
    unsigned aop = desc_dc_atomic_op(desc);
    unsigned slots = desc_dc_atomic_simd8(desc) ? 8 : 16;
    mask &= slots == 16 ? 0xffff : 0xff;
    if (x->hdr)
        mask &= dp_mread(x, 0, 7) & 0xffff;
    dp_resolve(a, x->bti, a64);
    unsigned addr_regs = a64 ? slots / 4 : slots / 8, per = slots / 8;
    unsigned src0 = x->hdr + addr_regs, src1 = src0 + per;
    s->atomics++;
    pthread_mutex_lock(s->memory_atomics);
    for (unsigned i = 0; i < slots; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint64_t off = dp_slot_address(x, a64, i);
        uint32_t old = 0;
        uint64_t before = s->out_of_bounds + s->page_faults;
        dp_access_slot(a, off, &old, 4, MEMREQ_ATOMIC);
        bool ok = s->out_of_bounds + s->page_faults == before;
        bool store;
        uint32_t nv = atomic_op(aop, old, dp_mread(x, src0 + i / 8, i % 8),
                                dp_mread(x, src1 + i / 8, i % 8), &store);
        if (ok && store) {
            dp_access_slot(a, off, &nv, 4, MEMREQ_WRITE);
            s->bytes_written -= 4;
        }
        /* OOB atomics are dropped and return 0 (L6235ff) */
        dp_wbwrite(x, i / 8, i % 8, ok ? (aop == DESC_ATOMIC_PREDEC ? nv : old) : 0);
    }
    pthread_mutex_unlock(s->memory_atomics);
}
