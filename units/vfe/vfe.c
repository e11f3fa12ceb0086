/* units/vfe/vfe.c - the media/GPGPU front end; see vfe.h for what it models. */
#include "units/vfe/vfe.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "units/common/mmio.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/common/thread_payload.h"

#define VFE_MAX_IDS 64
#define VFE_ID_BYTES 32
#define VFE_MAX_TD 64
#define VFE_MAX_GROUPS 4096         /* groups live at once (a ring of records) */
#define VFE_CURBE_MAX (64u * 1024u) /* bytes of CURBE kept (CURBE Allocation Size is 11 bits of 32 B) */
#define VFE_SLM_GRANULE 4096u

struct vfe_id {
    bool valid;
    uint64_t ksp;
    uint32_t bt, bt_entries, sampler;
    uint32_t read_len, read_off, cross_len;     /* registers */
    uint32_t group_threads;
    uint32_t slm_bytes;
    bool barrier;
    uint32_t cr0_0, cr0_1;      /* what the thread's cr0 starts with (eu_msg.h) */
};

struct group_rec {
    bool live;
    uint32_t td;
    uint32_t threads_left;      /* threads not yet ended */
    uint32_t slm_mask;          /* granules held in the subslice's bitmap */
    int barrier;                /* -1 none */
};

struct walker {
    bool active;
    struct vfe_id id;
    uint32_t simd;              /* 8, 16, 32 */
    uint32_t wmax, hmax, dmax;  /* thread counters' maxima */
    uint32_t xdim, ydim, zdim;
    uint32_t x, y, z;           /* current group */
    uint32_t thread;            /* next thread of the current group */
    uint32_t threads_per_group;
    uint32_t right, bottom;
    uint32_t group;             /* record index of the current group, or UINT32_MAX */
    uint64_t space_root;
    uint32_t space_format;
    uint32_t gen;
};

struct vfe {
    /* params */
    uint64_t max_walker_threads;
    uint32_t max_threads, dispatch_per_cycle, slm_kib, barriers, subslice_threads;
    /* ports */
    struct port *cs, *cs_drained;
    bool drain;                 /* a CS sync waits for every thread to end */
    struct port *td[VFE_MAX_TD];
    struct port **ts;
    uint32_t tds, tss;
    /* state from the command stream */
    uint32_t gen;
    uint64_t gsba, ssba, dsba, ioba, iba;
    uint64_t sip;                   /* STATE_SIP, relative to General State Base (L22196) */
    bool sip_valid;
    uint32_t gs_size;
    uint32_t vfe_max_threads, curbe_alloc;
    uint64_t scratch_base;          /* MEDIA_VFE_STATE, relative to General State Base */
    uint32_t scratch_per_thread, scratch_enc;
    uint8_t *scratch_used;          /* per in-flight thread index (max_threads) */
    uint32_t *slot_walker;          /* per in-flight thread index: its walker's record */
    uint32_t scratch_next;
    uint8_t *curbe;
    uint32_t curbe_len;
    uint32_t ids_raw[VFE_MAX_IDS][VFE_ID_BYTES / 4];
    uint32_t id_count;
    bool ids_ok;
    struct walker w;
    struct vfe_observed_walker *observed;   /* per walker (vfe.h) */
    uint32_t observed_count, observed_capacity, observed_current;
    /* thread groups */
    struct group_rec *groups;
    uint32_t next_group;
    uint32_t next_td;
    uint32_t slm_bitmap[VFE_MAX_TD];
    uint32_t barrier_bitmap[VFE_MAX_TD];
    uint32_t in_flight;
    uint32_t request_seq;
    /* stats */
    uint64_t packets, walkers, groups_dispatched, threads_dispatched, threads_ended;
    uint64_t empty_walkers, walkers_refused, descriptor_faults, curbe_faults, slm_oversize;
    uint64_t groups_refused, indirect_walkers, bad_messages, unknown_eot, ignored_packets;
    uint64_t stall_threads, stall_td, stall_resources, state_flushes, in_flight_peak;
};

static const struct param_desc vfe_params[] = {
    PARAM_U64_FIELD("max_walker_threads", struct vfe, max_walker_threads, 1u << 24, 1, INT64_MAX,
                    "a GPGPU_WALKER generating more threads than this is refused and counted "
                    "(bad programming; the hardware would run it for hours)"),
    PARAM_U32_FIELD("max_threads", struct vfe, max_threads, 1024, 1, 1u << 20,
                    "GPGPU threads in flight at most (MEDIA_VFE_STATE's Maximum Number of "
                    "Threads + 1 when smaller)"),
    PARAM_U32_FIELD("dispatch_per_cycle", struct vfe, dispatch_per_cycle, 1, 1, 64,
                    "threads the front end generates per cycle"),
    PARAM_U32_FIELD("slm_kib", struct vfe, slm_kib, 64, 4, 128,
                    "shared local memory per subslice, KiB (seed 003 L17346: 64 KB)"),
    PARAM_U32_FIELD("barriers", struct vfe, barriers, 16, 1, 32,
                    "barriers per subslice's gateway (seed 003 L9087-9140: 16 barrier states)"),
    PARAM_U32_FIELD("subslice_threads", struct vfe, subslice_threads, 56, 1, 4096,
                    "thread slots of a subslice (EUs x threads): a group with a barrier or SLM "
                    "must fit in one subslice"),
    PARAM_END
};

static const struct port_desc vfe_ports[] = {
    { .name = "cs", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "MSG_STATE packets from the command streamer (MEDIA_*, GPGPU_*, STATE_BASE_ADDRESS)" },
    { .name = "cs_drained", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "reply to a CS sync (MSG_MMIO CS_MMIO_SYNC_DONE) once every thread dispatched "
              "before it has ended" },
    { .name = "td", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_THREAD_DISPATCH),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "thread dispatches, one port per subslice's thread dispatcher" },
    { .name = "ts", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_SEND),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "EOT messages of GPGPU threads (SEND to SFID 7) from the EUs" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vfe, f, m, h)
static const struct stat_desc vfe_stats[] = {
    C("packets", packets, "packets", "state packets taken from the CS"),
    C("walkers", walkers, "commands", "GPGPU_WALKER commands run"),
    C("groups", groups_dispatched, "groups", "thread groups dispatched"),
    C("threads_dispatched", threads_dispatched, "threads", "GPGPU threads dispatched"),
    C("threads_ended", threads_ended, "threads", "EOT messages received"),
    C("empty_walkers", empty_walkers, "commands", "walkers with a zero dimension (no work)"),
    C("walkers_refused", walkers_refused, "commands",
      "walkers over max_walker_threads or with a bad descriptor (bad programming)"),
    C("descriptor_faults", descriptor_faults, "events",
      "interface descriptors unreadable or referenced beyond those loaded"),
    C("curbe_faults", curbe_faults, "events", "CURBE loads that could not be read in full"),
    C("slm_oversize", slm_oversize, "descriptors", "SLM sizes beyond the subslice's partition (clamped)"),
    C("groups_refused", groups_refused, "walkers",
      "walkers whose groups cannot fit a subslice (barrier/SLM groups larger than subslice_threads)"),
    C("indirect_walkers", indirect_walkers, "commands",
      "walkers with Indirect Parameter Enable (dimensions from GPGPU_DISPATCHDIMX/Y/Z via the CS)"),
    C("bad_messages", bad_messages, "messages", "unexpected or malformed messages (dropped)"),
    C("unknown_eot", unknown_eot, "messages", "EOTs naming no live thread group"),
    C("ignored_packets", ignored_packets, "packets", "media commands not modelled (MEDIA_OBJECT* ...)"),
    C("state_flushes", state_flushes, "commands", "MEDIA_STATE_FLUSH commands"),
    C("stall.threads", stall_threads, "events", "times the in-flight thread limit held the walker"),
    C("stall.td", stall_td, "events", "times a full dispatch channel held the walker"),
    C("stall.resources", stall_resources, "events", "times a group waited for SLM or a barrier"),
    STAT_LEVEL_FIELD("in_flight_peak", struct vfe, in_flight_peak, "threads", "most threads in flight"),
    STAT_END
};
#undef C

/* ---- state -------------------------------------------------------------------- */

static bool read_mem(const struct cs_state_packet *p, struct sim *sim, uint64_t addr, void *dst,
                     uint32_t n)
{
    struct gpu_address_space as;
    struct gt_error err;
    gpu_address_space_init(&as, sim_memory(sim), (enum gpu_address_space_format)p->space_format,
                           p->space_root);
    return gpu_address_space_read(&as, addr, dst, n, &err) == 0;
}

static void take_sba(struct vfe *s, const struct spec_STATE_BASE_ADDRESS *v)
{
    if (v->GeneralStateBaseAddressModifyEnable) s->gsba = v->GeneralStateBaseAddress;
    if (v->SurfaceStateBaseAddressModifyEnable) s->ssba = v->SurfaceStateBaseAddress;
    if (v->DynamicStateBaseAddressModifyEnable) s->dsba = v->DynamicStateBaseAddress;
    if (v->IndirectObjectBaseAddressModifyEnable) s->ioba = v->IndirectObjectBaseAddress;
    if (v->InstructionBaseAddressModifyEnable) s->iba = v->InstructionBaseAddress;
    /* Gen8/Gen9 only (Gen7's STATE_BASE_ADDRESS has upper bounds instead):
     * the Modify Enable reads 0 on Gen7, so the size stays unchecked. */
    if (v->GeneralStateBufferSizeModifyEnable)
        s->gs_size = v->GeneralStateBufferSize;
}

/* Shared Local Memory Size of the interface descriptor: the one field whose
 * encoding differs (spec/data/gen9.xml and gen8.xml INTERFACE_DESCRIPTOR_DATA
 * value lists, from the reference genxml: Gen9 "Encodes 1K" .. "Encodes 64K"
 * as 1 << (n - 1) KB; Gen7/Gen8 "Encodes 4k" steps of 4 KB, 0..16). */
static uint32_t slm_bytes(uint32_t gen, uint32_t enc)
{
    if (gen == 9)
        return enc == 0 ? 0 : enc <= 7 ? 1024u << (enc - 1) : 0xffffffffu;
    return enc * 4096u;     /* Gen7/Gen8: 4 KB units (0..16) */
}

static bool decode_id(struct vfe *s, uint32_t gen, uint32_t offset, struct vfe_id *id)
{
    memset(id, 0, sizeof *id);
    const struct spec_element *e = spec_element_by_id((int)gen, SPEC_ID_INTERFACE_DESCRIPTOR_DATA);
    if (!s->ids_ok || offset >= s->id_count || !e)
        return false;
    struct spec_INTERFACE_DESCRIPTOR_DATA v;
    e->unpack_common(s->ids_raw[offset], &v);
    id->ksp = v.KernelStartPointer;
    id->bt = (uint32_t)v.BindingTablePointer;
    id->bt_entries = v.BindingTableEntryCount;
    id->sampler = (uint32_t)v.SamplerStatePointer;
    id->read_len = v.ConstantURBEntryReadLength;
    id->read_off = v.ConstantURBEntryReadOffset;
    id->cross_len = v.CrossThreadConstantDataReadLength;    /* Gen8/Gen9; Gen7: 0 */
    id->group_threads = v.NumberOfThreadsInGPGPUThreadGroup;
    id->slm_bytes = slm_bytes(gen, v.SharedLocalMemorySize);
    id->barrier = v.BarrierEnable;
    /* 003 L11090-11130: FP mode -> cr0.0[0], the exception enables ->
     * cr0.1[12] (illegal opcode), cr0.1[13] (software); the rounding
     * mode -> cr0.0[5:4] (same encoding, RTNE RU RD RTZ) */
    id->cr0_0 = (v.FloatingPointMode & 1u) | (v.RoundingMode & 3u) << 4;
    id->cr0_1 = (uint32_t)v.IllegalOpcodeExceptionEnable << 12 |
                (uint32_t)v.SoftwareExceptionEnable << 13;
    id->valid = true;
    return true;
}

/* ---- the walker ------------------------------------------------------------------ */

/* A new walker's record (vfe.h), refused until it starts; its index, or
 * UINT32_MAX past VFE_OBSERVED_WALKERS. */
static uint32_t observe_walker(struct vfe *s, struct unit *u, uint32_t simd)
{
    if (s->observed_count >= VFE_OBSERVED_WALKERS)
        return UINT32_MAX;
    if (s->observed_count == s->observed_capacity) {
        s->observed_capacity = s->observed_capacity ? 2 * s->observed_capacity : 64;
        s->observed = gt_xrealloc(s->observed, s->observed_capacity * sizeof *s->observed);
    }
    struct vfe_observed_walker *r = &s->observed[s->observed_count];
    memset(r, 0, sizeof *r);
    r->walker = (uint32_t)s->walkers;
    r->refused = true;
    r->simd = simd;
    r->first_cycle = r->dispatched_cycle = r->last_cycle = unit_cycle(u);
    return s->observed_count++;
}

static struct vfe_observed_walker *observed_walker(struct vfe *s, uint32_t index)
{
    return index < s->observed_count ? &s->observed[index] : NULL;
}

static void start_walker(struct vfe *s, struct unit *u, const struct cs_state_packet *p)
{
    struct walker *w = &s->w;
    memset(w, 0, sizeof *w);
    const struct spec_GPGPU_WALKER *v = cs_state_common(p);
    uint32_t idoff = v->InterfaceDescriptorOffset;
    bool indirect = v->IndirectParameterEnable;
    uint32_t simd = v->SIMDSize;
    w->wmax = v->ThreadWidthCounterMaximum;
    w->hmax = v->ThreadHeightCounterMaximum;
    w->dmax = v->ThreadDepthCounterMaximum;
    w->x = v->ThreadGroupIDStartingX;
    w->xdim = v->ThreadGroupIDXDimension;
    w->y = v->ThreadGroupIDStartingY;
    w->ydim = v->ThreadGroupIDYDimension;
    /* Gen7 names the Z start "Thread Group ID Starting Z", Gen8/Gen9 "Starting/
     * Resume Z" (seed 003 L17150-17236: also where a preempted walker resumes);
     * the superset keeps both, the other reads 0. */
    w->z = p->gen == 7 ? v->ThreadGroupIDStartingZ : v->ThreadGroupIDStartingResumeZ;
    w->zdim = v->ThreadGroupIDZDimension;
    w->right = v->RightExecutionMask;
    w->bottom = v->BottomExecutionMask;
    s->walkers++;
    if (indirect)
        s->indirect_walkers++;  /* the CS put GPGPU_DISPATCHDIMX/Y/Z in the dimensions */
    w->simd = simd == 0 ? 8 : simd == 1 ? 16 : 32;
    s->observed_current = observe_walker(s, u, w->simd);
    w->threads_per_group = (w->wmax + 1) * (w->hmax + 1) * (w->dmax + 1);
    if (w->xdim == 0 || w->ydim == 0 || w->zdim == 0 || w->x >= w->xdim || w->y >= w->ydim ||
        w->z >= w->zdim) {
        s->empty_walkers++;
        return;
    }
    /* (an upper bound of what remains from the start point) */
    uint64_t groups = (uint64_t)w->xdim * w->ydim * w->zdim;
    if (groups > s->max_walker_threads ||
        groups * w->threads_per_group > s->max_walker_threads) {
        s->walkers_refused++;
        unit_log(u, SIM_LOG_NOTE, "GPGPU_WALKER at 0x%" PRIx64 " refused: %" PRIu64
                 " groups x %u threads exceeds max_walker_threads (%" PRIu64 ")", p->address,
                 groups, w->threads_per_group, s->max_walker_threads);
        return;
    }
    if (!decode_id(s, p->gen, idoff, &w->id)) {
        s->descriptor_faults++;
        s->walkers_refused++;
        unit_log(u, SIM_LOG_NOTE, "GPGPU_WALKER at 0x%" PRIx64 ": interface descriptor %u is not "
                 "loaded (or was unreadable): refused", p->address, idoff);
        return;
    }
    uint32_t slm_max = s->slm_kib * 1024u;
    if (w->id.slm_bytes > slm_max) {
        s->slm_oversize++;
        unit_log(u, SIM_LOG_NOTE, "interface descriptor %u asks for %u bytes of SLM, beyond the "
                 "subslice's %u: clamped", idoff, w->id.slm_bytes, slm_max);
        w->id.slm_bytes = slm_max;
    }
    if ((w->id.barrier || w->id.slm_bytes) && w->threads_per_group > s->subslice_threads) {
        s->groups_refused++;
        s->walkers_refused++;
        unit_log(u, SIM_LOG_NOTE, "GPGPU_WALKER at 0x%" PRIx64 ": a group of %u threads with a "
                 "barrier or SLM cannot fit one subslice (%u slots): refused", p->address,
                 w->threads_per_group, s->subslice_threads);
        return;
    }
    w->space_root = p->space_root;
    w->space_format = p->space_format;
    w->gen = p->gen;
    w->group = UINT32_MAX;
    struct vfe_observed_walker *r = observed_walker(s, s->observed_current);
    if (r)
        r->refused = false;
    w->active = s->tds > 0;
}

static bool next_group(struct walker *w)
{
    w->thread = 0;
    w->group = UINT32_MAX;
    if (++w->x < w->xdim)
        return true;
    w->x = 0;
    if (++w->y < w->ydim)
        return true;
    w->y = 0;
    return ++w->z < w->zdim;
}

/* Allocates SLM granules and a barrier on subslice t for the group; false
 * when they are not free now. */
static bool group_resources(struct vfe *s, uint32_t t, struct group_rec *g)
{
    const struct vfe_id *id = &s->w.id;
    g->slm_mask = 0;
    g->barrier = -1;
    uint32_t granules = s->slm_kib * 1024u / VFE_SLM_GRANULE;
    if (id->slm_bytes) {
        uint32_t need = (id->slm_bytes + VFE_SLM_GRANULE - 1) / VFE_SLM_GRANULE;
        /* power-of-two blocks aligned to their size (the priority encoder of L17350) */
        uint32_t block = 1;
        while (block < need)
            block *= 2;
        uint32_t mask = (block >= 32 ? 0xffffffffu : (1u << block) - 1);
        bool found = false;
        for (uint32_t at = 0; at + block <= granules; at += block)
            if (!(s->slm_bitmap[t] & (mask << at))) {
                g->slm_mask = mask << at;
                found = true;
                break;
            }
        if (!found)
            return false;
    }
    if (id->barrier) {
        for (uint32_t b = 0; b < s->barriers; b++)
            if (!(s->barrier_bitmap[t] & (1u << b))) {
                g->barrier = (int)b;
                break;
            }
        if (g->barrier < 0)
            return false;
    }
    s->slm_bitmap[t] |= g->slm_mask;
    if (g->barrier >= 0)
        s->barrier_bitmap[t] |= 1u << g->barrier;
    return true;
}

static uint32_t thread_mask(const struct walker *w, uint32_t k)
{
    uint32_t wi = k % (w->wmax + 1);
    uint32_t hi = (k / (w->wmax + 1)) % (w->hmax + 1);
    uint32_t m = 0xffffffffu;
    if (wi == w->wmax)
        m &= w->right;
    if (hi == w->hmax)
        m &= w->bottom;
    if (w->simd < 32)
        m &= (1u << w->simd) - 1;
    return m;
}

/* The dispatch of thread k of the current group: R0, the CURBE's cross-thread
 * and per-thread constants and the thread context, by the thread payload
 * builder (units/common/thread_payload.h, 003 L17304-17336). */
static struct msg *build_dispatch(struct vfe *s, struct unit *u, uint32_t k)
{
    struct walker *w = &s->w;
    const struct vfe_id *id = &w->id;
    const struct group_rec *g = &s->groups[w->group];
    const struct thread_constants curbe = {
        .data = s->curbe, .data_bytes = s->curbe_len, .cross_thread_regs = id->cross_len,
        .read_offset_regs = id->read_off, .per_thread_regs = id->read_len,
    };
    uint32_t regs = thread_payload_regs(1, &curbe);
    struct msg *m = msg_alloc(unit_sim(u), MSG_THREAD_DISPATCH,
                              (uint32_t)(sizeof(struct eu_dispatch) + regs * EU_MSG_REG_BYTES));
    struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
    d->op = EU_TD_DISPATCH;
    d->request_id = ++s->request_seq;
    d->inst_base = s->iba;
    d->space_root = w->space_root;
    d->kernel_offset = (uint32_t)id->ksp;
    d->space_format = (uint8_t)w->space_format;
    d->gen = (uint8_t)w->gen;
    d->simd = (uint8_t)w->simd;
    d->dmask = thread_mask(w, k);
    d->grf_start = 0;
    d->grf_count = (uint16_t)regs;
    d->ffid = VFE_FFID_GPGPU;
    d->cr0_0 = id->cr0_0;
    d->cr0_1 = id->cr0_1;
    d->sip = s->gsba + s->sip;
    d->sip_valid = s->sip_valid;
    uint32_t slm_base = g->slm_mask ? (uint32_t)__builtin_ctz(g->slm_mask) * VFE_SLM_GRANULE : 0;
    /* a per-thread scratch slot: the first free index from a rotating start
     * (run_walker holds in_flight below max_threads, so one is free) */
    uint32_t slot = 0;
    for (uint32_t j = 0; j < s->max_threads; j++) {
        uint32_t i = (s->scratch_next + j) % s->max_threads;
        if (!s->scratch_used[i]) {
            slot = i;
            break;
        }
    }
    s->scratch_used[slot] = 1;
    s->scratch_next = (slot + 1) % s->max_threads;
    s->slot_walker[slot] = s->observed_current;
    uint64_t scratch = s->scratch_base + (uint64_t)slot * s->scratch_per_thread;
    thread_payload_context(&(struct thread_context_source){
        .gen = (uint8_t)w->gen, .space_format = (uint8_t)w->space_format,
        .space_root = w->space_root, .surface_state_base = s->ssba,
        .general_state_base = s->gsba, .dynamic_state_base = s->dsba,
        .general_state_pages = s->gs_size, .binding_table = id->bt,
        .binding_table_entries = id->bt_entries, .slm_base = slm_base,
        .slm_size = id->slm_bytes, .group = w->group, .barrier_id = g->barrier,
        .barrier_threads = w->threads_per_group, .scratch_slot = slot,
    }, &d->ctx);
    /* the interface descriptor's Sampler State Pointer, for headerless sampler
     * messages (as the 3D stages do, units/common/stage_thread.c): without it
     * a message with no header read SAMPLER_STATE at Dynamic State Base + 0 */
    d->ctx.sampler_state = id->sampler;
    thread_payload_r0(&(struct thread_r0){
        .fftid = d->request_id, .scratch_space_offset = (uint32_t)scratch,
        .per_thread_scratch = s->scratch_enc, .sampler_state_pointer = id->sampler,
        .binding_table_pointer = id->bt, .gpgpu = true, .slm_base = slm_base,
        .slm_enable = id->slm_bytes != 0, .barrier_id = g->barrier,
        .group_id = { w->x, w->y, w->z },
    }, d->grf[0]);
    thread_payload_constants(&curbe, k, d->grf, 1, regs);
    return m;
}

/* Generates threads of the active walker; true when it dispatched this cycle
 * and has more to do. A walker held by the thread limit, SLM, a barrier or a
 * full channel waits idle: an EOT or free channel space wakes the unit. */
static bool run_walker(struct vfe *s, struct unit *u)
{
    struct walker *w = &s->w;
    uint32_t limit = s->max_threads;
    if (s->vfe_max_threads && s->vfe_max_threads < limit)
        limit = s->vfe_max_threads;
    for (uint32_t n = 0; n < s->dispatch_per_cycle && w->active; n++) {
        if (w->group == UINT32_MAX) {
            /* a new group: a subslice and its resources */
            struct group_rec *g = &s->groups[s->next_group];
            if (g->live) {
                s->stall_resources++;
                return false;
            }
            bool placed = false;
            for (uint32_t k = 0; k < s->tds; k++) {
                uint32_t t = (s->next_td + k) % s->tds;
                if (group_resources(s, t, g)) {
                    g->td = t;
                    placed = true;
                    s->next_td = (t + 1) % s->tds;
                    break;
                }
            }
            if (!placed) {
                s->stall_resources++;
                return false;
            }
            g->live = true;
            g->threads_left = w->threads_per_group;
            struct vfe_observed_walker *r = observed_walker(s, s->observed_current);
            if (r)
                r->groups++;
            w->group = s->next_group;
            s->next_group = (s->next_group + 1) % VFE_MAX_GROUPS;
            s->groups_dispatched++;
        }
        if (s->in_flight >= limit) {
            s->stall_threads++;
            return false;
        }
        struct port *out = s->td[s->groups[w->group].td];
        if (!port_can_send(out)) {
            s->stall_td++;
            return false;
        }
        struct msg *m = build_dispatch(s, u, w->thread);
        port_try_send(out, m);
        unit_progress(u);
        s->threads_dispatched++;
        struct vfe_observed_walker *r = observed_walker(s, s->observed_current);
        if (r) {
            r->threads_dispatched++;
            r->dispatched_cycle = r->last_cycle = unit_cycle(u);
        }
        s->in_flight++;
        if (s->in_flight > s->in_flight_peak)
            s->in_flight_peak = s->in_flight;
        if (++w->thread == w->threads_per_group && !next_group(w))
            w->active = false;
    }
    return w->active;
}

/* ---- thread ends ----------------------------------------------------------------- */

static void take_eot(struct vfe *s, struct unit *u, struct msg *m)
{
    const struct eu_send_msg *p = (const struct eu_send_msg *)m->payload;
    if (m->kind != MSG_SEND || m->size < sizeof *p) {
        s->bad_messages++;
        unit_log(u, SIM_LOG_NOTE, "unexpected %s message on ts dropped", msg_kind_name(m->kind));
        return;
    }
    if (!(p->flags & EU_SEND_EOT)) {
        /* spawn/dereference messages: not modelled */
        s->bad_messages++;
        return;
    }
    s->threads_ended++;
    if (s->in_flight)
        s->in_flight--;
    if (p->ctx.valid && p->ctx.scratch_slot < s->max_threads) {
        uint32_t slot = p->ctx.scratch_slot;
        struct vfe_observed_walker *r;
        if (s->scratch_used[slot] && (r = observed_walker(s, s->slot_walker[slot]))) {
            uint64_t now = unit_cycle(u);
            r->threads_ended++;
            r->thread_cycles += thread_life_cycles(p->thread_life_ps, unit_clock_period(u));
            if (now > r->last_cycle)
                r->last_cycle = now;
        }
        s->scratch_used[slot] = 0;
    }
    uint32_t gi = p->ctx.group;
    if (!p->ctx.valid || gi >= VFE_MAX_GROUPS || !s->groups[gi].live) {
        s->unknown_eot++;
        return;
    }
    struct group_rec *g = &s->groups[gi];
    if (--g->threads_left == 0) {
        s->slm_bitmap[g->td] &= ~g->slm_mask;
        if (g->barrier >= 0)
            s->barrier_bitmap[g->td] &= ~(1u << g->barrier);
        g->live = false;
    }
}

/* ---- packets --------------------------------------------------------------------- */

/* MEDIA_VFE_STATE (003 L17520-17613). */
static void take_vfe_state(struct vfe *s, uint32_t gen, const struct spec_MEDIA_VFE_STATE *v)
{
    s->vfe_max_threads = v->MaximumNumberOfThreads + 1;
    s->curbe_alloc = v->CURBEAllocationSize;
    s->scratch_enc = v->PerThreadScratchSpace & 15;
    s->scratch_base = v->ScratchSpaceBasePointer;
    /* Per Thread Scratch Space has two encodings (the seeds only say R0.3
     * copies it, 003 L11403-11406; the sizes are the reference genxml's):
     * Gen7 1 KB x (n + 1), Gen8/Gen9 1 KB << n, up to 2 MB. */
    if (gen == 7)
        s->scratch_per_thread = 1024u * (s->scratch_enc + 1);
    else
        s->scratch_per_thread = 1024u << (s->scratch_enc > 11 ? 11 : s->scratch_enc);
}

/* MEDIA_CURBE_LOAD: the CURBE is read from Dynamic State Base + offset when
 * the command arrives (003 L17257-17268). */
static void take_curbe_load(struct vfe *s, struct unit *u, const struct cs_state_packet *p)
{
    const struct spec_MEDIA_CURBE_LOAD *v = cs_state_common(p);
    uint32_t len = v->CURBETotalDataLength;
    uint32_t start = v->CURBEDataStartAddress;
    if (len > VFE_CURBE_MAX) {
        s->curbe_faults++;
        unit_log(u, SIM_LOG_NOTE, "MEDIA_CURBE_LOAD of %u bytes: kept the first %u", len,
                 VFE_CURBE_MAX);
        len = VFE_CURBE_MAX;
    }
    if (s->curbe_alloc && len > s->curbe_alloc * 32u) {
        s->curbe_faults++;      /* beyond MEDIA_VFE_STATE's CURBE Allocation Size: kept */
        unit_log(u, SIM_LOG_NOTE, "MEDIA_CURBE_LOAD of %u bytes exceeds the CURBE allocation "
                 "of %u", len, s->curbe_alloc * 32u);
    }
    s->curbe_len = len;
    memset(s->curbe, 0, VFE_CURBE_MAX);
    if (len && !read_mem(p, unit_sim(u), s->dsba + start, s->curbe, len)) {
        s->curbe_faults++;
        unit_log(u, SIM_LOG_NOTE, "MEDIA_CURBE_LOAD at 0x%" PRIx64 ": CURBE data at 0x%" PRIx64
                 " unreadable (zeros from the fault on)", p->address, s->dsba + start);
    }
}

/* MEDIA_INTERFACE_DESCRIPTOR_LOAD: up to 64 descriptors of 32 bytes from
 * Dynamic State Base + offset (003 L17917, L18030), decoded at each walker. */
static void take_id_load(struct vfe *s, struct unit *u, const struct cs_state_packet *p)
{
    const struct spec_MEDIA_INTERFACE_DESCRIPTOR_LOAD *v = cs_state_common(p);
    uint32_t len = v->InterfaceDescriptorTotalLength;
    uint64_t start = v->InterfaceDescriptorDataStartAddress;
    uint32_t count = len / VFE_ID_BYTES;
    if (count > VFE_MAX_IDS) {
        s->descriptor_faults++;
        count = VFE_MAX_IDS;
    }
    memset(s->ids_raw, 0, sizeof s->ids_raw);
    s->id_count = count;
    s->ids_ok = count > 0;
    if (count && !read_mem(p, unit_sim(u), s->dsba + start, s->ids_raw, count * VFE_ID_BYTES)) {
        s->descriptor_faults++;
        s->ids_ok = false;
        unit_log(u, SIM_LOG_NOTE, "MEDIA_INTERFACE_DESCRIPTOR_LOAD at 0x%" PRIx64
                 ": descriptors at 0x%" PRIx64 " unreadable", p->address, s->dsba + start);
    }
}

static void take_packet(struct vfe *s, struct unit *u, const struct cs_state_packet *p)
{
    s->packets++;
    if (p->gen < 7 || p->gen > 9) {
        s->ignored_packets++;
        return;
    }
    s->gen = p->gen;
    switch ((enum spec_id)p->id) {
    case SPEC_ID_STATE_BASE_ADDRESS:
        take_sba(s, cs_state_common(p));
        break;
    case SPEC_ID_STATE_SIP:
        /* the System Routine's offset (003 L22196) */
        s->sip = ((const struct spec_STATE_SIP *)cs_state_common(p))->SystemInstructionPointer;
        s->sip_valid = true;
        break;
    case SPEC_ID_MEDIA_VFE_STATE:
        take_vfe_state(s, p->gen, cs_state_common(p));
        break;
    case SPEC_ID_MEDIA_CURBE_LOAD:
        take_curbe_load(s, u, p);
        break;
    case SPEC_ID_MEDIA_INTERFACE_DESCRIPTOR_LOAD:
        take_id_load(s, u, p);
        break;
    case SPEC_ID_GPGPU_WALKER:
        start_walker(s, u, p);
        break;
    case SPEC_ID_MEDIA_STATE_FLUSH:
        s->state_flushes++;
        break;
    case SPEC_ID_PIPELINE_SELECT:
        break;      /* nothing to do: the CS orders the pipelines */
    default:
        s->ignored_packets++;
        break;
    }
}

/* ---- the unit -------------------------------------------------------------------- */

static int vfe_realize(struct unit *u, struct gt_error *err)
{
    struct vfe *s = unit_state(u);
    s->cs = unit_port(u, "cs", 0);
    s->cs_drained = unit_port(u, "cs_drained", 0);
    s->tds = unit_port_count(u, "td");
    if (s->tds > VFE_MAX_TD)
        return gt_error_set(err, "%u td links; at most %d", s->tds, VFE_MAX_TD);
    for (uint32_t i = 0; i < s->tds; i++)
        s->td[i] = unit_port(u, "td", i);
    s->tss = unit_port_count(u, "ts");
    free(s->ts);
    s->ts = s->tss ? gt_xcalloc(s->tss, sizeof *s->ts) : NULL;
    for (uint32_t i = 0; i < s->tss; i++)
        s->ts[i] = unit_port(u, "ts", i);
    if (s->slm_kib * 1024u / VFE_SLM_GRANULE > 32)
        return gt_error_set(err, "slm_kib %u: at most 128", s->slm_kib);
    return 0;
}

static void vfe_reset(struct unit *u)
{
    struct vfe *s = unit_state(u);
    if (!s->curbe)
        s->curbe = gt_xcalloc(1, VFE_CURBE_MAX);
    if (!s->groups)
        s->groups = gt_xcalloc(VFE_MAX_GROUPS, sizeof *s->groups);
    free(s->scratch_used);
    s->scratch_used = gt_xcalloc(s->max_threads, 1);
    free(s->slot_walker);
    s->slot_walker = gt_xcalloc(s->max_threads, sizeof *s->slot_walker);
    s->scratch_next = 0;
    memset(s->groups, 0, VFE_MAX_GROUPS * sizeof *s->groups);
    memset(&s->w, 0, sizeof s->w);
    memset(s->slm_bitmap, 0, sizeof s->slm_bitmap);
    memset(s->barrier_bitmap, 0, sizeof s->barrier_bitmap);
    s->in_flight = 0;
    s->next_group = 0;
    s->next_td = 0;
    s->curbe_len = 0;
    s->id_count = 0;
    s->ids_ok = false;
}

static enum unit_activity vfe_tick(struct unit *u)
{
    struct vfe *s = unit_state(u);
    struct sim *sim = unit_sim(u);
    struct msg *m;
    for (uint32_t i = 0; i < s->tss; i++)
        while ((m = port_pop(s->ts[i])) != NULL) {
            take_eot(s, u, m);
            msg_free(sim, m);
            unit_progress(u);
        }
    bool busy = false;
    if (s->w.active)
        busy = run_walker(s, u);
    if (s->drain && !s->w.active && s->in_flight == 0) {
        if (!port_can_send(s->cs_drained))
            return UNIT_IDLE;           /* woken when the channel frees */
        m = msg_alloc(sim, MSG_MMIO, sizeof(struct cs_mmio));
        ((struct cs_mmio *)m->payload)->op = CS_MMIO_SYNC_DONE;
        port_try_send(s->cs_drained, m);
        s->drain = false;
        unit_progress(u);
    }
    /* the next packets, in order, once the walker before them has dispatched */
    while (!s->w.active && !s->drain && s->cs && (m = port_pop(s->cs)) != NULL) {
        unit_progress(u);
        if (m->kind == MSG_MMIO && m->size >= sizeof(struct cs_mmio) &&
            ((const struct cs_mmio *)m->payload)->op == CS_MMIO_SYNC) {
            s->drain = port_is_bound(s->cs_drained);
            msg_free(sim, m);
            if (s->drain && s->in_flight == 0)
                return UNIT_BUSY;       /* reply on the next tick */
            continue;
        }
        if (m->kind == MSG_STATE && m->size >= sizeof(struct cs_state_packet)) {
            const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
            const struct spec_common *c = spec_common_get((enum spec_id)p->id);
            if (p->common_offset >= sizeof *p && c &&
                (uint64_t)p->common_offset + c->size <= m->size)
                take_packet(s, u, p);
            else
                s->bad_messages++;
        } else {
            s->bad_messages++;
        }
        msg_free(sim, m);
        if (s->w.active)
            busy = run_walker(s, u);
    }
    return busy ? UNIT_BUSY : UNIT_IDLE;
}

uint32_t vfe_observed_walkers(struct unit *u, const struct vfe_observed_walker **walkers)
{
    const struct vfe *s = unit_state(u);
    *walkers = s->observed;
    return s->observed_count;
}

static void vfe_destroy(struct unit *u)
{
    struct vfe *s = unit_state(u);
    free(s->curbe);
    free(s->groups);
    free(s->ts);
    free(s->scratch_used);
    s->scratch_used = NULL;
    free(s->slot_walker);
    free(s->observed);
    s->slot_walker = NULL;
    s->observed = NULL;
    s->curbe = NULL;
    s->groups = NULL;
    s->ts = NULL;
}

const struct unit_ops vfe_ops = {
    .kind = "vfe",
    .help = "Media/GPGPU front end (VFE + thread spawner for GPGPU root threads): "
            "MEDIA_VFE_STATE, MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER "
            "thread groups with the R0 + CURBE payload, SLM and barrier allocation per group, "
            "EOT from the threads (seed 003 L17150-17397, L18133-18218).",
    .state_size = sizeof(struct vfe),
    .params = vfe_params,
    .ports = vfe_ports,
    .stats = vfe_stats,
    .realize = vfe_realize,
    .reset = vfe_reset,
    .tick = vfe_tick,
    .destroy = vfe_destroy,
};
