/* units/eu/eu_fetch.c - the EU's instruction fetch (see eu.h): the
 * decoded-instruction cache keyed by address, and in timing mode with "icache"
 * linked the subslice instruction cache client with the EU's fetch buffer. */
#include "units/eu/eu_internal.h"

#include <assert.h>
#include <string.h>

#include "fabric/sim.h"
#include "units/common/memreq.h"
#include "units/eu/eu_decode_cache.h"

/* ---- decoded-instruction cache ------------------------------------------------ */
/* Each EU's own table, keyed by address (a hit costs the hot path no more than
 * a compare); its misses go to the simulation's shared decoded-kernel cache
 * (eu_decode_cache.h), which decodes each kernel once for all the EUs.
 * The entries are kept in the order they were decoded (s->dcache, with
 * s->dinsn beside it), which is mostly the order a kernel runs, and an open
 * addressing index (s->dindex) finds them by address: the instruction a
 * thread runs next is usually the entry after the last one in host memory
 * (issue 19: hashed in place, with every other slot empty for 16-byte
 * instructions, each next instruction was a new host cache line, and 24 EUs'
 * copies of a kernel outgrew the host's L2; loading the next entry was the
 * EU tick's hottest line in perf). */

static uint32_t hash_addr(uint64_t a)
{
    a ^= a >> 29;
    a *= UINT64_C(0xbf58476d1ce4e5b9);
    a ^= a >> 32;
    return (uint32_t)a;
}

/* The table index where the search for addr starts: the instructions of one
 * 256-byte block take consecutive entries (so a kernel's straight-line code
 * is adjacent in host memory and the host prefetches it), the blocks are
 * spread by the hash. */
static uint32_t dcache_home(const struct eu *s, uint64_t addr)
{
    return (((uint32_t)(addr >> 3) & 31) | hash_addr(addr >> 8) << 5) & s->dcache_mask;
}

/* Empties the table: every entry invalid (so stale hints fail their check),
 * every cached judgement dropped. */
static void dcache_flush(struct eu *s)
{
    memset(s->dcache, 0, (s->dcache_mask + 1) * sizeof *s->dcache);
    memset(s->dindex, 0, (s->dcache_mask + 1) * sizeof *s->dindex);
    s->dcache_used = 0;
    for (unsigned i = 0; i < s->threads; i++)
        s->slots[i].dep_d = NULL;
    eu_rejudge_all(s);
}

static void grf_span(const struct eu_instruction *in, const struct eu_operand *op, bool dst,
                     uint8_t *lo, uint8_t *hi)
{
    unsigned es = eu_type_size((enum eu_type)op->type);
    if (!es) es = 4;
    unsigned n = in->exec_size;
    uint32_t base = op->reg_nr * 32u + op->subreg_nr, last = base;
    if (dst) {
        last = base + (n - 1) * (op->hstride ? op->hstride : 1) * es;
    } else if (in->access_mode == 1) {
        last = base + ((n - 1) / 4) * (op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride) * es + 3 * es;
    } else {
        unsigned w = op->width ? op->width : 1;
        unsigned vs = op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride;
        last = base + ((n - 1) / w) * vs * es + ((n - 1) % w) * op->hstride * es;
    }
    last += es - 1;
    *lo = (uint8_t)(base / 32 > 127 ? 127 : base / 32);
    *hi = (uint8_t)(last / 32 > 127 ? 127 : last / 32);
}

static void classify(struct dinfo *d, const struct eu_instruction *in)
{
    d->pipe = (uint8_t)eu_insn_pipe(in);
    d->occupancy = (uint8_t)eu_insn_occupancy(in);
    d->latency_class = in->is_math ? 1 : (in->dst.type == EU_TYPE_DF ? 2 : 0);
    d->write_lo = 1;
    d->write_hi = 0;
    d->nread = 0;
    if (in->illegal)
        return;
    /* flags: one scoreboard entry for f0/f1 together */
    d->reads_flags = eu_insn_reads_flags(in);
    d->writes_flags = eu_insn_writes_flags(in);
    if (in->is_send || in->is_split_send) {
        uint32_t mlen = in->mlen, rlen = in->rlen;
        if (in->desc_is_reg) {
            d->reads_indirect = true;   /* lengths unknown until run time */
            return;
        }
        if (in->src[0].indirect)
            d->reads_indirect = true;
        if (in->gen == 4 && mlen) {
            /* Gen4: the payload is in the message registers; only a GRF
             * src0 (the implied move to the base MRF) is read */
            if (in->src[0].file == EU_FILE_GRF) {
                d->read_lo[d->nread] = in->src[0].reg_nr;
                d->read_hi[d->nread++] = in->src[0].reg_nr;
            }
        } else if (mlen) {
            d->read_lo[d->nread] = in->src[0].reg_nr;
            d->read_hi[d->nread++] = (uint8_t)(in->src[0].reg_nr + mlen - 1 > 127 ? 127 : in->src[0].reg_nr + mlen - 1);
        }
        if (in->is_split_send && in->ex_mlen) {
            d->read_lo[d->nread] = in->src[1].reg_nr;
            d->read_hi[d->nread++] = (uint8_t)(in->src[1].reg_nr + in->ex_mlen - 1 > 127 ? 127 : in->src[1].reg_nr + in->ex_mlen - 1);
        }
        if (rlen && in->dst.file == EU_FILE_GRF) {
            d->write_lo = in->dst.reg_nr;
            d->write_hi = (uint8_t)(in->dst.reg_nr + rlen - 1 > 127 ? 127 : in->dst.reg_nr + rlen - 1);
        }
        return;
    }
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    for (unsigned i = 0; i < ns && i < 3; i++) {
        const struct eu_operand *s = &in->src[i];
        if (s->file != EU_FILE_GRF)
            continue;
        if (s->indirect) {
            d->reads_indirect = true;
            continue;
        }
        grf_span(in, s, false, &d->read_lo[d->nread], &d->read_hi[d->nread]);
        d->nread++;
    }
    if (in->has_dst && in->dst.file == EU_FILE_GRF && !in->dst.indirect) {
        grf_span(in, &in->dst, true, &d->write_lo, &d->write_hi);
        if (eu_insn_extra_dst_regs(in) && d->write_hi < 127)
            d->write_hi++;              /* intdivmod: remainder in the next register */
    }
}

static struct dentry *lookup(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr,
                             enum eu_thread_status *why)
{
    uint32_t h = dcache_home(s, addr);
    for (; s->dindex[h]; h = (h + 1) & s->dcache_mask) {
        struct dentry *d = &s->dcache[s->dindex[h] - 1];
        if (d->info && d->info->addr == addr)
            return d;
    }
    /* miss: fetch and decode */
    uint8_t bytes[16];
    struct gt_error err;
    if (!sl->space.memory ||
        gpu_address_space_read(&sl->space, addr, bytes, 8, &err) < 0) {
        *why = EU_THREAD_FETCH_FAULT;
        return NULL;
    }
    size_t avail = 8;
    if (!(bytes[3] & 0x20)) {           /* bit 29: CmptCtrl (003 L22998) */
        if (gpu_address_space_read(&sl->space, addr + 8, bytes + 8, 8, &err) < 0) {
            *why = EU_THREAD_FETCH_FAULT;
            return NULL;
        }
        avail = 16;
    }
    if (s->dcache_used * 4 >= (s->dcache_mask + 1) * 3) {
        dcache_flush(s);
        h = dcache_home(s, addr);
    }
    /* The entry is the next one in decode order (used < 3/4 of the entries
     * here); h, the first empty index slot of the search above (or after the
     * flush), takes it once it is decoded. Another EU of the simulation may
     * have decoded these bytes already: the entry then reads that decode (the
     * shared cache keeps it for the sim's life). This EU's own slot in `own`
     * is written only when it decodes, and read only when the shared cache is
     * full. */
    const struct dinfo *info =
        eu_decode_cache_find(s->decoded_kernels, sl->th.gen, addr, bytes, avail);
    if (!info) {
        struct eu_decoded *own = &s->own[s->dcache_used];
        memset(own, 0, sizeof *own);
        own->info.addr = addr;
        if (eu_decode(sl->th.gen, bytes, avail, &own->in) == 0) {
            *why = EU_THREAD_FETCH_FAULT;
            return NULL;
        }
        classify(&own->info, &own->in);
        eu_fast_prepare(&own->in, &own->info.fast);
        info = eu_decode_cache_add(s->decoded_kernels, sl->th.gen, addr, bytes, avail,
                                   &own->info, &own->in);
        if (!info)
            info = &own->info;
    }
    struct dentry *d = &s->dcache[s->dcache_used];
    d->info = info;
    d->next = NULL;
    s->dindex[h] = s->dcache_used + 1;
    s->dcache_used++;
    s->decode_misses++;
    (void)u;
    return d;
}


/* eu_fetch_decoded() when neither hint holds: a table lookup (decode on a
 * miss), kept as the successor of the thread's last entry. */
struct dentry *eu_fetch_lookup(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr,
                               enum eu_thread_status *why)
{
    struct dentry *prev = sl->last;
    uint32_t used = s->dcache_used;
    struct dentry *d = lookup(s, u, sl, addr, why);
    if (prev && d && s->dcache_used >= used)
        prev->next = d;
    sl->last = d;
    return d;
}

/* ---- fetch through the subslice instruction cache ("icache" linked) ------------------ */

void eu_send_fetches(struct eu *s, struct unit *u)
{
    for (unsigned e = 0; e < s->fetches_end && s->fetches_unsent; e++) {
        struct fetch_entry *f = &s->fetches[e];
        if (!f->used || f->sent)
            continue;
        if (!port_can_send(s->icache))
            return;             /* the fabric wakes the EU when the channel frees up */
        struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
        struct memreq *r = (struct memreq *)m->payload;
        r->address = f->line * MEMREQ_LINE_BYTES;
        r->tag = e;
        r->bytes = MEMREQ_LINE_BYTES;
        r->op = MEMREQ_READ;
        r->client = unit_id(u);
        m->tag = e;
        port_try_send(s->icache, m);
        f->sent = true;
        s->fetches_unsent--;
        s->fetch_requests++;
    }
}

static uint32_t fetch_buffer_set(const struct eu *s, uint64_t line)
{
    return s->iline_pow2 ? (uint32_t)(line & (s->iline_count - 1))
                         : (uint32_t)(line % s->iline_count);
}

/* The entry already requesting `line`, or EU_FETCH_ENTRIES. */
static unsigned fetch_find(const struct eu *s, uint64_t line)
{
    for (unsigned e = 0; e < s->fetches_end; e++)
        if (s->fetches[e].used && s->fetches[e].line == line)
            return e;
    return EU_FETCH_ENTRIES;
}

static unsigned fetch_request(struct eu *s, struct unit *u, uint64_t line)
{
    unsigned e = 0;
    while (e < EU_FETCH_ENTRIES && s->fetches[e].used)
        e++;
    assert(e < EU_FETCH_ENTRIES);   /* prefetches stop at half the entries (fetch_line) */
    s->fetches[e] = (struct fetch_entry){ .used = true, .sent = false, .line = line };
    s->fetches_used++;
    if (e >= s->fetches_end)
        s->fetches_end = e + 1;
    s->fetches_unsent++;
    eu_send_fetches(s, u);
    return e;
}

/* The thread needs the line of addr: true when it may go on (the line is in
 * the EU's fetch buffer, or the address does not translate and eu_fetch_decoded() will
 * fault), false when it now waits for a line request, its own or one already
 * made for the same line. Either way the next fetch_prefetch_lines lines of
 * the page are requested when they are neither in the buffer nor requested. */
bool eu_fetch_line(struct eu *s, struct unit *u, struct slot *sl, uint64_t addr, uint64_t now)
{
    uint64_t page = addr >> 12;
    if (sl->ipage_key != page + 1) {
        uint64_t physical;
        if (!sl->space.memory || gpu_address_space_translate(&sl->space, addr, &physical) < 0)
            return true;
        sl->ipage_key = page + 1;
        sl->ipage_physical = physical >> 12;
    }
    uint64_t line = (sl->ipage_physical << 6) | ((addr >> 6) & 63);
    bool held = s->itags[fetch_buffer_set(s, line)] == line + 1;
    if (held) {
        sl->line_held = true;
    } else {
        unsigned e = fetch_find(s, line);
        if (e < EU_FETCH_ENTRIES)
            s->fetch_merged++;
        else
            e = fetch_request(s, u, line);     /* at most one per waiting thread: one is free */
        sl->fetch_wait = true;
        eu_slot_changed(s, (unsigned)(sl - s->slots));
        sl->fetch_entry = (uint8_t)e;
        sl->fetch_since = now;
    }
    for (uint32_t k = 1; k <= s->fetch_prefetch_lines; k++) {
        uint64_t ahead = line + k;
        if (ahead >> 6 != line >> 6 || s->fetches_used >= EU_MAX_THREADS)
            break;          /* the next page may not translate; keep entries for threads */
        if (s->itags[fetch_buffer_set(s, ahead)] == ahead + 1 ||
            fetch_find(s, ahead) < EU_FETCH_ENTRIES)
            continue;
        fetch_request(s, u, ahead);
        s->fetch_prefetches++;
    }
    return held;
}

/* A line arrives: it goes into the fetch buffer and every thread waiting
 * for it holds it and may issue this cycle. */
void eu_take_fetch_reply(struct eu *s, struct unit *u, struct msg *m)
{
    const struct memreply *r = (const struct memreply *)m->payload;
    struct fetch_entry *f = m->kind == MSG_MEMORY_RESPONSE && m->size >= sizeof *r && s->slots &&
                                    r->tag < EU_FETCH_ENTRIES ? &s->fetches[r->tag] : NULL;
    if (!f || !f->used || !f->sent || r->address / MEMREQ_LINE_BYTES != f->line) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message on icache_reply dropped",
                 msg_kind_name(m->kind));
        return;
    }
    uint64_t now = unit_cycle(u);
    s->quiet = false;
    s->itags[fetch_buffer_set(s, f->line)] = f->line + 1;
    f->used = false;
    s->fetches_used--;
    while (s->fetches_end && !s->fetches[s->fetches_end - 1].used)
        s->fetches_end--;
    for (unsigned i = 0; i < s->threads; i++) {
        struct slot *sl = &s->slots[i];
        if (sl->busy && sl->fetch_wait && sl->fetch_entry == r->tag) {
            sl->fetch_wait = false;
            eu_slot_changed(s, i);
            sl->line_held = true;
            s->stall_fetch += now - sl->fetch_since;
        }
    }
    unit_progress(u);
}
