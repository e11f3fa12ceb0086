/* units/dataport/dataport_access.c - one slot's access: bounds, translation through the
 * thread's GPU address space, the functional read or write, and the 64-byte lines the
 * message touched (for its timing). SLM accesses are in dataport_slm.c. */
#include "units/dataport/dataport_internal.h"

#include <string.h>

/* Records that the message touched the line of line_addr (target: MEMREQ_DATA,
 * MEMREQ_SLM ...); a line read and written is requested once, as a write. */
void dp_add_line(struct acc *a, uint64_t line_addr, uint8_t target, uint8_t op)
{
    if (a->s->functional)
        return;         /* no line is requested (dataport_timing.c); none of the
                         * message forms can exceed DP_MAX_LINES, so no drop is missed */
    struct txn *t = a->t;
    uint64_t line = line_addr & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    for (uint32_t i = t->nlines; i-- > 0;)
        if (t->lines[i] == line && t->targets[i] == target) {
            if (op != MEMREQ_READ)
                t->ops[i] = op;
            return;
        }
    if (t->nlines == DP_MAX_LINES) {
        a->s->lines_dropped++;
        return;
    }
    t->lines[t->nlines] = line;
    t->targets[t->nlines] = target;
    t->ops[t->nlines] = op;
    t->nlines++;
}

/* One slot's access of n bytes (n <= 8) at offset/address off. Reads fill
 * buf (zeros when out of bounds or faulting); writes store it. */
void dp_access_slot(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op)
{
    struct dp *s = a->s;
    struct gt_error err;
    bool write = op == MEMREQ_WRITE;
    if (!write)
        memset(buf, 0, n);
    switch (a->sf.model) {
    case M_NULL:
        s->out_of_bounds++;
        return;
    case M_SLM:
        dp_access_slm(a, off, buf, n, op);
        break;
    case M_BUFFER:
    case M_A32:
    case M_A64: {
        if (a->sf.size && off + n > a->sf.size) {
            s->out_of_bounds++;
            return;
        }
        uint64_t addr = dp_surface_address(a, off);
        if (!dp_tlb_translate(a, addr)) {
            s->page_faults++;
            dp_warn_once(s, a->u, 2, "data port access faulted (address low 0x%x, high 0x%x)",
                         (uint32_t)addr, (uint32_t)(addr >> 32));
            return;
        }
        int rc;
        uint64_t in_page = addr & (GPU_PAGE_SIZE - 1);
        uint64_t phys = a->tlb_ppage | in_page;
        if (in_page + n <= GPU_PAGE_SIZE) {
            /* within the page just translated: what the address-space call
             * would do after translating it again */
            rc = write ? gpu_memory_write(a->as.memory, phys, buf, n, &err)
                       : dp_tlb_read(a, in_page, buf, n, &err);
        } else {
            rc = write ? gpu_address_space_write(&a->as, addr, buf, n, &err)
                       : gpu_address_space_read(&a->as, addr, buf, n, &err);
        }
        if (write)
            a->tlb_valid = false;   /* the write may have changed the page tables */
        if (rc < 0) {
            s->page_faults++;
            return;
        }
        dp_add_line(a, phys, MEMREQ_DATA, op);
        break;
    }
    }
    if (write)
        s->bytes_written += n;
    else
        s->bytes_read += n;
}

/* The lines [first, first + n) covers, in ascending order (a block's slots touch
 * them in that order, so the list is what the slots one by one would make). */
static void add_lines(struct acc *a, uint64_t first, unsigned n, uint8_t target, uint8_t op)
{
    uint64_t line = first & ~(uint64_t)(MEMREQ_LINE_BYTES - 1);
    for (; line < first + n; line += MEMREQ_LINE_BYTES)
        dp_add_line(a, line, target, op);
}

/* n bytes at off as one access: the same data, stats and lines as n / 4 DWord slots
 * at off, off + 4, ... through dp_access_slot, for the cases where that is plain to
 * see: SLM within the group's allocation and without wrapping; reads of a surface
 * or stateless memory within bounds and within one page that translates. Anything
 * else returns false before changing anything (the caller goes slot by slot). */
bool dp_access_block(struct acc *a, uint64_t off, void *buf, unsigned n, uint8_t op)
{
    struct dp *s = a->s;
    bool write = op == MEMREQ_WRITE;
    if (n == 0 || n % 4 || (op != MEMREQ_READ && op != MEMREQ_WRITE))
        return false;
    if (a->sf.model == M_SLM) {
        uint32_t size = s->slm_kib * 1024u;
        if (a->ctx->slm_size && off + n > a->ctx->slm_size)
            return false;
        uint64_t at = (a->ctx->slm_base + off) % size;
        if (at + n > size)
            return false;
        s->slm_accesses += n / 4;
        if (write)
            dp_copy(s->slm + at, buf, n);
        else
            dp_copy(buf, s->slm + at, n);
        add_lines(a, at, n, MEMREQ_SLM, op);
    } else if (!write && (a->sf.model == M_BUFFER || a->sf.model == M_A32 ||
                          a->sf.model == M_A64)) {
        if (a->sf.size && off + n > a->sf.size)
            return false;
        if (a->sf.model == M_A32 && (off & 0xffffffffu) + n > UINT64_C(0x100000000))
            return false;       /* the slots' 32-bit offsets would wrap */
        uint64_t addr = dp_surface_address(a, off);
        uint64_t in_page = addr & (GPU_PAGE_SIZE - 1);
        if (in_page + n > GPU_PAGE_SIZE)
            return false;
        struct gt_error err;
        if (!dp_tlb_translate(a, addr) || dp_tlb_read(a, in_page, buf, n, &err) < 0)
            return false;
        uint64_t phys = a->tlb_ppage | in_page;
        add_lines(a, phys, n, MEMREQ_DATA, op);
    } else {
        return false;
    }
    if (write)
        s->bytes_written += n;
    else
        s->bytes_read += n;
    return true;
}
