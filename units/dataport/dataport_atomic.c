/* units/dataport/dataport_atomic.c - untyped atomic operations, A32/SLM/BTS and A64 (seed 003
 * L6235-6352): the 32-bit integer operations of L18634-18680, SIMD8 or SIMD16. */
#include "units/dataport/dataport_internal.h"

#include "fabric/alloc.h"

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

/* Whether an operation writes memory (atomic_op's store flag, which does not
 * depend on the values). */
static bool atomic_writes(unsigned aop)
{
    bool store;
    (void)atomic_op(aop, 0, 0, 0, &store);
    return store;
}

/* Applies one lane's operation to the DWord at address; the old value, or with
 * PREDEC the new one (L18634-18680), is what the lane returns. */
static uint32_t apply_lane(struct dp *s, struct gpu_address_space *as, uint64_t address,
                           unsigned aop, uint32_t src0, uint32_t src1)
{
    struct gt_error err;
    uint32_t old = 0;
    if (gpu_address_space_read(as, address, &old, 4, &err) < 0) {
        s->page_faults++;       /* translated when taken: not expected */
        return 0;
    }
    bool store;
    uint32_t nv = atomic_op(aop, old, src0, src1, &store);
    if (store && gpu_address_space_write(as, address, &nv, 4, &err) < 0)
        s->page_faults++;
    return aop == DESC_ATOMIC_PREDEC ? nv : old;
}

/* An atomic's lanes on memory, applied; their old values into its reply. */
static void apply_deferred(struct dp *s, struct dp_deferred_atomic *d)
{
    const struct dp_msg x = { .wb = d->wb, .rlen = d->rlen };
    for (unsigned i = 0; i < 16; i++)
        if (d->lanes & (1u << i))
            dp_wbwrite(&x, i / 8, i % 8,
                       apply_lane(s, &d->as, d->address[i], d->aop, d->src0[i], d->src1[i]));
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
    /* SLM is this data port's own: applied now, in message order. Memory is
     * every data port's: applied at the end of the cycle (struct
     * dp_deferred_atomic), in unit order. */
    bool memory = a->sf.model == M_BUFFER || a->sf.model == M_A32 || a->sf.model == M_A64;
    struct dp_deferred_atomic *d = NULL;
    if (memory) {
        if (s->deferred_count == s->deferred_capacity) {
            s->deferred_capacity = s->deferred_capacity ? 2 * s->deferred_capacity : 4;
            s->deferred = gt_xrealloc(s->deferred, s->deferred_capacity * sizeof *s->deferred);
        }
        d = &s->deferred[s->deferred_count];
        *d = (struct dp_deferred_atomic){ .wb = x->wb, .rlen = x->rlen, .aop = aop, .as = a->as };
    }
    bool stores = atomic_writes(aop);
    for (unsigned i = 0; i < slots; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint64_t off = dp_slot_address(x, a64, i);
        uint32_t a0 = dp_mread(x, src0 + i / 8, i % 8), a1 = dp_mread(x, src1 + i / 8, i % 8);
        uint32_t old = 0;
        uint64_t before = s->out_of_bounds + s->page_faults;
        /* bounds, translation, the line (as an atomic) and the read's stats */
        dp_access_slot(a, off, &old, 4, MEMREQ_ATOMIC);
        bool ok = s->out_of_bounds + s->page_faults == before;
        if (!ok) {
            dp_wbwrite(x, i / 8, i % 8, 0);     /* OOB atomics are dropped and return 0 (L6235ff) */
            continue;
        }
        if (!memory) {
            bool store;
            uint32_t nv = atomic_op(aop, old, a0, a1, &store);
            if (store) {
                dp_access_slot(a, off, &nv, 4, MEMREQ_WRITE);
                s->bytes_written -= 4;
            }
            dp_wbwrite(x, i / 8, i % 8, aop == DESC_ATOMIC_PREDEC ? nv : old);
            continue;
        }
        uint64_t address = dp_surface_address(a, off);
        if (stores) {
            /* what the write's access did to the line and the translation: the
             * line is requested as a write; a write drops the last page */
            dp_add_line(a, a->tlb_ppage | (address & (GPU_PAGE_SIZE - 1)), MEMREQ_DATA,
                        MEMREQ_WRITE);
            a->tlb_valid = false;
        }
        d->lanes |= 1u << i;
        d->address[i] = address;
        d->src0[i] = a0;
        d->src1[i] = a1;
    }
    if (d && d->lanes) {
        if (s->in_call) {       /* a call runs in an edge commit already (dp_call) */
            apply_deferred(s, d);
            return;
        }
        s->deferred_count++;
        unit_request_edge_commit(a->u);
    }
}

/* The end of the cycle: this data port's atomics on memory, in the order taken
 * (the fabric runs the data ports' commits in unit order). */
void dp_edge_commit(struct unit *u)
{
    struct dp *s = unit_state(u);
    for (uint32_t k = 0; k < s->deferred_count; k++)
        apply_deferred(s, &s->deferred[k]);
    s->deferred_count = 0;
}
