/* tests/units/test_vfe.c - the GPGPU front end driven alone: state packets
 * built with the spec tables' packers are injected on its "cs" port, its
 * dispatches caught, EOTs injected on "ts". Expected payloads follow seed 003
 * L17150-17336 (walker order, execution masks, R0 layout, CURBE placement)
 * and the bad-programming outcomes units/vfe/vfe.h states. */
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/spec.h"
#include "spec_gen7_pack.h"
#include "spec_gen8_pack.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/state_packet.h"
#include "units/common/thread_msg.h"
#include "units/vfe/vfe.h"

#define MAX_CAUGHT 64
#define IDS 0x10000u
#define CURBE 0x20000u

struct caught {
    uint32_t grf[4][8];
    uint32_t grf_count, dmask, simd, kernel;
    uint32_t cr0_0, cr0_1;
    uint64_t sip;
    uint8_t sip_valid;
    struct eu_thread_context ctx;
};

/* Catches dispatches (and CS_MMIO_SYNC_DONE replies on a second port). */
struct tdcatch {
    struct port *in, *drained;
    uint32_t count, drained_count;
    struct caught c[MAX_CAUGHT];
};

static const struct port_desc tdcatch_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "dispatches" },
    { .name = "drained", .direction = PORT_IN, .flags = PORT_OPTIONAL, .help = "sync replies" },
    PORT_END
};

static int tdcatch_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct tdcatch *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    c->drained = unit_port(u, "drained", 0);
    return 0;
}

static enum unit_activity tdcatch_tick(struct unit *u)
{
    struct tdcatch *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct eu_dispatch *d = (const struct eu_dispatch *)m->payload;
        if (c->count < MAX_CAUGHT) {
            struct caught *k = &c->c[c->count];
            memcpy(k->grf, d->grf, (size_t)(d->grf_count < 4 ? d->grf_count : 4) * 32);
            k->grf_count = d->grf_count;
            k->dmask = d->dmask;
            k->simd = d->simd;
            k->kernel = d->kernel_offset;
            k->cr0_0 = d->cr0_0;
            k->cr0_1 = d->cr0_1;
            k->sip = d->sip;
            k->sip_valid = d->sip_valid;
            k->ctx = d->ctx;
        }
        c->count++;
        msg_free(unit_sim(u), m);
    }
    while (c->drained && (m = port_pop(c->drained))) {
        c->drained_count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops tdcatch_ops = {
    .kind = "test_td_catcher",
    .state_size = sizeof(struct tdcatch),
    .ports = tdcatch_ports,
    .realize = tdcatch_realize,
    .tick = tdcatch_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *vfe, *td;
    uint32_t space_format;
};

static struct rig rig_new(const char *const *over)
{
    struct rig r = { .space_format = GPU_ADDRESS_SPACE_PHYSICAL };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.vfe = probe_add(r.sim, &vfe_ops, "vfe", over);
    r.td = probe_add(r.sim, &tdcatch_ops, "td", NULL);
    probe_link(r.sim, r.vfe, "td[0]", r.td, "in", 1, 64, 8);
    probe_link(r.sim, r.vfe, "cs_drained", r.td, "drained", 1, 4, 1);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "vfe.cs", PORT_IN, &err));
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "vfe.ts[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    return r;
}

/* A state packet as the CS sends it (units/common/state_packet.h), from a
 * command of generation gen. */
static void packet_gen(struct rig *r, int gen, const char *name, const uint32_t *dw, uint32_t n)
{
    const struct spec_element *e = spec_find_element(gen, SPEC_COMMAND, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    uint32_t off = (uint32_t)((sizeof(struct cs_state_packet) + n * 4 + 15) & ~15u);
    struct msg *m = msg_alloc(r->sim, MSG_STATE, off + (uint32_t)e->common_size);
    struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
    p->id = e->id;
    p->gen = (uint32_t)gen;
    p->dword_count = n;
    p->common_offset = off;
    p->space_format = r->space_format;
    memcpy(p->dwords, dw, n * 4);
    e->unpack_common(dw, (uint8_t *)p + off);
    CU_ASSERT_TRUE(port_inject(unit_port(r->vfe, "cs", 0), m));
}

static void packet(struct rig *r, const char *name, const uint32_t *dw, uint32_t n)
{
    packet_gen(r, 9, name, dw, n);
}

static void load_ids(struct rig *r, const struct GEN9_INTERFACE_DESCRIPTOR_DATA *ids, unsigned n,
                     uint64_t at)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t dw[8] = { 0 };
        CU_ASSERT_EQUAL(GEN9_INTERFACE_DESCRIPTOR_DATA_pack(dw, &ids[i]), 0);
        gpu_memory_write(r->mem, IDS + 32 * i, dw, 32, NULL);
    }
    struct GEN9_MEDIA_INTERFACE_DESCRIPTOR_LOAD v = { GEN9_MEDIA_INTERFACE_DESCRIPTOR_LOAD_header,
        .InterfaceDescriptorTotalLength = 32 * n, .InterfaceDescriptorDataStartAddress = at };
    uint32_t dw[GEN9_MEDIA_INTERFACE_DESCRIPTOR_LOAD_length];
    CU_ASSERT_EQUAL(GEN9_MEDIA_INTERFACE_DESCRIPTOR_LOAD_pack(dw, &v), 0);
    packet(r, "MEDIA_INTERFACE_DESCRIPTOR_LOAD", dw, GEN9_MEDIA_INTERFACE_DESCRIPTOR_LOAD_length);
}

static void walker(struct rig *r, uint32_t idoff, uint32_t wmax, uint32_t simd, uint32_t xd,
                   uint32_t yd, uint32_t zd, uint32_t right)
{
    struct GEN9_GPGPU_WALKER v = { GEN9_GPGPU_WALKER_header, .InterfaceDescriptorOffset = idoff,
        .ThreadWidthCounterMaximum = wmax, .SIMDSize = simd, .ThreadGroupIDXDimension = xd,
        .ThreadGroupIDYDimension = yd, .ThreadGroupIDZDimension = zd,
        .RightExecutionMask = right, .BottomExecutionMask = 0xffffffffu };
    uint32_t dw[GEN9_GPGPU_WALKER_length];
    CU_ASSERT_EQUAL(GEN9_GPGPU_WALKER_pack(dw, &v), 0);
    packet(r, "GPGPU_WALKER", dw, GEN9_GPGPU_WALKER_length);
}

static void eot(struct rig *r, const struct eu_thread_context *ctx)
{
    struct msg *m = msg_alloc(r->sim, MSG_SEND, sizeof(struct eu_send_msg) + 32);
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = 7;
    p->mlen = 1;
    p->flags = EU_SEND_EOT;
    p->ctx = *ctx;
    CU_ASSERT_TRUE(port_inject(unit_port(r->vfe, "ts", 0), m));
}

static double stat(struct rig *r, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "vfe.%s", name);
    return probe_stat(r->sim, path);
}

static struct GEN9_INTERFACE_DESCRIPTOR_DATA basic_id(void)
{
    return (struct GEN9_INTERFACE_DESCRIPTOR_DATA){ .KernelStartPointer = 0x4000,
        .BindingTablePointer = 0x40, .BindingTableEntryCount = 3,
        .ConstantURBEntryReadLength = 1, .CrossThreadConstantDataReadLength = 1,
        .NumberOfThreadsInGPGPUThreadGroup = 2 };
}

/* 3 x 2 groups of 2 SIMD16 threads: group order X first, R0 fields, the
 * cross-thread register then each thread's own CURBE register, the right
 * mask on the last thread of a row. */
static void test_walker_payloads(void)
{
    struct rig r = rig_new(NULL);
    uint32_t curbe[3][8];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 8; i++)
            curbe[k][i] = (uint32_t)(k * 100 + i);
    gpu_memory_write(r.mem, CURBE, curbe, sizeof curbe, NULL);
    struct GEN9_MEDIA_CURBE_LOAD c = { GEN9_MEDIA_CURBE_LOAD_header, .CURBETotalDataLength = 96,
                                       .CURBEDataStartAddress = CURBE };
    uint32_t dw[GEN9_MEDIA_CURBE_LOAD_length];
    GEN9_MEDIA_CURBE_LOAD_pack(dw, &c);
    packet(&r, "MEDIA_CURBE_LOAD", dw, GEN9_MEDIA_CURBE_LOAD_length);
    struct GEN9_MEDIA_VFE_STATE vs = { GEN9_MEDIA_VFE_STATE_header, .PerThreadScratchSpace = 2,
        .ScratchSpaceBasePointer = 0x80000, .MaximumNumberOfThreads = 63 };
    uint32_t vdw[GEN9_MEDIA_VFE_STATE_length];
    CU_ASSERT_EQUAL(GEN9_MEDIA_VFE_STATE_pack(vdw, &vs), 0);
    packet(&r, "MEDIA_VFE_STATE", vdw, GEN9_MEDIA_VFE_STATE_length);
    struct GEN9_INTERFACE_DESCRIPTOR_DATA id = basic_id();
    load_ids(&r, &id, 1, IDS);
    walker(&r, 0, 1, 1, 3, 2, 1, 0x00ff);
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL_FATAL(t->count, 12);
    for (uint32_t n = 0; n < 12; n++) {
        const struct caught *k = &t->c[n];
        uint32_t group = n / 2, thread = n % 2;
        CU_ASSERT_EQUAL(k->grf_count, 3);
        CU_ASSERT_EQUAL(k->simd, 16);
        CU_ASSERT_EQUAL(k->kernel, 0x4000);
        CU_ASSERT_EQUAL(k->grf[0][1], group % 3);           /* R0.1 group X */
        CU_ASSERT_EQUAL(k->grf[0][6], group / 3);           /* R0.6 group Y */
        CU_ASSERT_EQUAL(k->grf[0][7], 0);                   /* R0.7 group Z */
        CU_ASSERT_EQUAL(k->grf[0][4] & ~31u, 0x40);         /* R0.4 binding table pointer */
        CU_ASSERT_EQUAL(k->grf[0][5] & (1u << 9), 1u << 9); /* R0.5[9] GPGPU dispatch */
        CU_ASSERT_EQUAL(k->grf[1][3], 3);                   /* cross-thread: CURBE reg 0 */
        CU_ASSERT_EQUAL(k->grf[2][0], (1 + thread) * 100);  /* thread k: CURBE reg 1 + k */
        CU_ASSERT_EQUAL(k->dmask, thread == 1 ? 0x00ffu : 0xffffu);
        CU_ASSERT_EQUAL(k->ctx.binding_table, 0x40);
        /* scratch: 1 KB << 2 per thread from 0x80000, every live thread its own slot */
        CU_ASSERT_EQUAL(k->grf[0][3] & 15, 2);
        CU_ASSERT_EQUAL(k->grf[0][5] & ~0x3ffu, 0x80000u + 4096u * k->ctx.scratch_slot);
        for (uint32_t m = 0; m < n; m++)
            CU_ASSERT_NOT_EQUAL(t->c[m].ctx.scratch_slot, k->ctx.scratch_slot);
        CU_ASSERT_EQUAL(k->ctx.binding_table_entries, 3);
    }
    CU_ASSERT_EQUAL(stat(&r, "groups"), 6);
    CU_ASSERT_EQUAL(stat(&r, "threads_dispatched"), 12);
    sim_destroy(r.sim);
}

/* The thread's "transparent header" (003 L11090-11130): the interface
 * descriptor's FP mode, rounding mode and exception enables become cr0.0[0],
 * cr0.0[5:4], cr0.1[12] and cr0.1[13]; STATE_SIP's offset is relative to
 * General State Base (L22196). Before any STATE_SIP there is no routine. */
static void test_exception_state_in_the_dispatch(void)
{
    struct rig r = rig_new(NULL);
    struct GEN9_INTERFACE_DESCRIPTOR_DATA ids[2] = { basic_id(), basic_id() };
    ids[1].FloatingPointMode = GEN9_INTERFACE_DESCRIPTOR_DATA_FloatingPointMode_Alternate;
    ids[1].RoundingMode = GEN9_INTERFACE_DESCRIPTOR_DATA_RoundingMode_RD;
    ids[1].IllegalOpcodeExceptionEnable = true;
    ids[1].SoftwareExceptionEnable = true;
    load_ids(&r, ids, 2, IDS);
    walker(&r, 0, 1, 1, 1, 1, 1, 0xffff);
    struct GEN9_STATE_BASE_ADDRESS sba = { GEN9_STATE_BASE_ADDRESS_header,
        .GeneralStateBaseAddress = 0x100000, .GeneralStateBaseAddressModifyEnable = true };
    uint32_t sdw[GEN9_STATE_BASE_ADDRESS_length];
    CU_ASSERT_EQUAL(GEN9_STATE_BASE_ADDRESS_pack(sdw, &sba), 0);
    packet(&r, "STATE_BASE_ADDRESS", sdw, GEN9_STATE_BASE_ADDRESS_length);
    struct GEN9_STATE_SIP sip = { GEN9_STATE_SIP_header, .SystemInstructionPointer = 0x2340 };
    uint32_t pdw[GEN9_STATE_SIP_length];
    CU_ASSERT_EQUAL(GEN9_STATE_SIP_pack(pdw, &sip), 0);
    packet(&r, "STATE_SIP", pdw, GEN9_STATE_SIP_length);
    walker(&r, 1, 1, 1, 1, 1, 1, 0xffff);
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL_FATAL(t->count, 4);
    for (int n = 0; n < 2; n++) {
        CU_ASSERT_EQUAL(t->c[n].cr0_0, 0);
        CU_ASSERT_EQUAL(t->c[n].cr0_1, 0);
        CU_ASSERT_EQUAL(t->c[n].sip_valid, 0);
    }
    for (int n = 2; n < 4; n++) {
        CU_ASSERT_EQUAL(t->c[n].cr0_0, 1u | 2u << 4);
        CU_ASSERT_EQUAL(t->c[n].cr0_1, 1u << 12 | 1u << 13);
        CU_ASSERT_EQUAL(t->c[n].sip_valid, 1);
        CU_ASSERT_EQUAL(t->c[n].sip, 0x100000u + 0x2340u);
    }
    sim_destroy(r.sim);
}

/* A host sync waits until every thread has sent its EOT. */
static void test_sync_waits_for_eots(void)
{
    struct rig r = rig_new(NULL);
    struct GEN9_INTERFACE_DESCRIPTOR_DATA id = basic_id();
    load_ids(&r, &id, 1, IDS);
    walker(&r, 0, 1, 1, 2, 1, 1, 0xffff);
    struct msg *m = msg_alloc(r.sim, MSG_MMIO, sizeof(struct cs_mmio));
    ((struct cs_mmio *)m->payload)->op = CS_MMIO_SYNC;
    CU_ASSERT_TRUE(port_inject(unit_port(r.vfe, "cs", 0), m));
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL_FATAL(t->count, 4);
    CU_ASSERT_EQUAL(t->drained_count, 0);
    for (int i = 0; i < 3; i++)
        eot(&r, &t->c[i].ctx);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(t->drained_count, 0);
    eot(&r, &t->c[3].ctx);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(t->drained_count, 1);
    CU_ASSERT_EQUAL(stat(&r, "threads_ended"), 4);
    sim_destroy(r.sim);
}

/* Groups with SLM and a barrier: each group gets its own SLM block and
 * barrier while live; a third group waits until one ends. */
static void test_slm_and_barriers(void)
{
    const char *over[] = { "slm_kib=64", "barriers=2", NULL };
    struct rig r = rig_new(over);
    struct GEN9_INTERFACE_DESCRIPTOR_DATA id = basic_id();
    id.SharedLocalMemorySize = 7;       /* 64 KB (gen9 encoding): the whole partition */
    id.BarrierEnable = true;
    load_ids(&r, &id, 1, IDS);
    walker(&r, 0, 1, 1, 2, 1, 1, 0xffff);
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL_FATAL(t->count, 2);     /* group 1 waits for the SLM */
    CU_ASSERT_EQUAL(t->c[0].ctx.slm_size, 65536);
    CU_ASSERT_EQUAL(t->c[0].ctx.barrier_threads, 2);
    CU_ASSERT_EQUAL(t->c[0].grf[0][2] & (3u << 28), 3u << 28);    /* barrier + SLM enable */
    eot(&r, &t->c[0].ctx);
    eot(&r, &t->c[1].ctx);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(t->count, 4);
    CU_ASSERT_EQUAL(t->c[2].ctx.slm_base, 0);
    CU_ASSERT_TRUE(stat(&r, "stall.resources") > 0);
    sim_destroy(r.sim);
}

/* Bad programming: zero and absurd dimensions, descriptors outside memory
 * or beyond those loaded, SLM beyond the partition. */
static void test_bad_walkers(void)
{
    struct rig r = rig_new(NULL);
    struct GEN9_INTERFACE_DESCRIPTOR_DATA id = basic_id();
    load_ids(&r, &id, 1, IDS);
    walker(&r, 0, 1, 1, 0, 1, 1, 0xffff);                     /* zero X */
    walker(&r, 0, 1, 1, 4, 1, 0, 0xffff);                     /* zero Z */
    walker(&r, 0, 63, 2, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);   /* absurd */
    walker(&r, 5, 1, 1, 1, 1, 1, 0xffff);                     /* descriptor 5 not loaded */
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL(t->count, 0);
    CU_ASSERT_EQUAL(stat(&r, "empty_walkers"), 2);
    CU_ASSERT_EQUAL(stat(&r, "walkers_refused"), 2);
    CU_ASSERT_EQUAL(stat(&r, "descriptor_faults"), 1);
    /* SLM size encoding beyond 64 KB: clamped to the partition and run */
    id.SharedLocalMemorySize = 15;
    load_ids(&r, &id, 1, IDS);
    walker(&r, 0, 0, 1, 1, 1, 1, 0xffff);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(stat(&r, "slm_oversize"), 1);
    CU_ASSERT_EQUAL_FATAL(t->count, 1);
    CU_ASSERT_EQUAL(t->c[0].ctx.slm_size, 65536);
    sim_destroy(r.sim);
}

/* Interface descriptors outside memory (a GGTT with no entries): the load
 * faults, the walker after it is refused; nothing is dispatched. */
static void test_descriptor_outside_memory(void)
{
    struct rig r = rig_new(NULL);
    r.space_format = GPU_ADDRESS_SPACE_GGTT_GEN8;
    struct GEN9_INTERFACE_DESCRIPTOR_DATA id = basic_id();
    load_ids(&r, &id, 1, 0xfff00000u);
    walker(&r, 0, 1, 1, 2, 1, 1, 0xffff);
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL(t->count, 0);
    CU_ASSERT_EQUAL(stat(&r, "descriptor_faults"), 2);   /* the load, then the walker's use */
    CU_ASSERT_EQUAL(stat(&r, "walkers_refused"), 1);
    sim_destroy(r.sim);
}

static uint32_t xorshift(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* Random media commands (headers right, every other bit random) over random
 * descriptors and CURBE: the run always ends, nothing crashes (ASan/UBSan in
 * test-san), and no walker dispatches more than max_walker_threads threads. */
static void test_random_packets(void)
{
    const char *over[] = { "max_walker_threads=512", NULL };
    struct rig r = rig_new(over);
    static const char *const names[] = { "MEDIA_VFE_STATE", "MEDIA_CURBE_LOAD",
        "MEDIA_INTERFACE_DESCRIPTOR_LOAD", "GPGPU_WALKER", "MEDIA_STATE_FLUSH" };
    uint32_t x = 0xbadc0ffeu;
    uint32_t junk[1024];
    for (int i = 0; i < 1024; i++)
        junk[i] = xorshift(&x) % 4 ? xorshift(&x) % 64 : xorshift(&x);
    gpu_memory_write(r.mem, 0, junk, sizeof junk, NULL);
    gpu_memory_write(r.mem, IDS, junk, sizeof junk, NULL);
    for (int n = 0; n < 400; n++) {
        const struct spec_element *e = spec_find_element(9, SPEC_COMMAND, names[xorshift(&x) % 5]);
        uint32_t dw[32];
        for (int i = 0; i < 32; i++)
            dw[i] = xorshift(&x) % 3 ? xorshift(&x) & 0xffff : xorshift(&x);
        dw[0] = e->match | (uint32_t)(e->length - e->bias);
        if (strcmp(e->name, "MEDIA_INTERFACE_DESCRIPTOR_LOAD") == 0)
            dw[3] = IDS + (xorshift(&x) % 4) * 32;
        r.space_format = xorshift(&x) % 5 ? GPU_ADDRESS_SPACE_PHYSICAL : GPU_ADDRESS_SPACE_GGTT_GEN8;
        packet(&r, e->name, dw, e->length);
        if (n % 16 == 15)
            CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    }
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_TRUE(stat(&r, "threads_dispatched") == t->count);
    CU_ASSERT_TRUE(stat(&r, "walkers") > 0);
    sim_destroy(r.sim);
}

/* Gen7 and Gen8 state takes the same path as Gen9's; only what the
 * hardware encodes differently differs: Per Thread Scratch Space (Gen7
 * 1 KB x (n + 1), Gen8 1 KB << n), Shared Local Memory Size (Gen7/Gen8 4 KB
 * units, Gen9 1 KB << (n - 1)) and the Z start (Gen7 "Thread Group ID
 * Starting Z", Gen8 "Starting/Resume Z"). Each walker: 1 x 1 x 3 groups
 * from Z = 1, one SIMD8 thread per group: two dispatches, R0.7 = 1 and 2,
 * each thread in its own scratch slot. */
static void gen_path(int gen)
{
    struct rig r = rig_new(NULL);
    uint32_t dw[32] = { 0 };
    if (gen == 7) {
        struct GEN7_MEDIA_VFE_STATE vs = { GEN7_MEDIA_VFE_STATE_header, .PerThreadScratchSpace = 2,
            .ScratchSpaceBasePointer = 0x80000, .MaximumNumberOfThreads = 63 };
        CU_ASSERT_EQUAL(GEN7_MEDIA_VFE_STATE_pack(dw, &vs), 0);
        packet_gen(&r, 7, "MEDIA_VFE_STATE", dw, GEN7_MEDIA_VFE_STATE_length);
        struct GEN7_INTERFACE_DESCRIPTOR_DATA id = { .KernelStartPointer = 0x4000,
            .BindingTablePointer = 0x40, .NumberOfThreadsInGPGPUThreadGroup = 1,
            .SharedLocalMemorySize = 2 };
        CU_ASSERT_EQUAL(GEN7_INTERFACE_DESCRIPTOR_DATA_pack(dw, &id), 0);
        gpu_memory_write(r.mem, IDS, dw, 32, NULL);
        struct GEN7_MEDIA_INTERFACE_DESCRIPTOR_LOAD l = { GEN7_MEDIA_INTERFACE_DESCRIPTOR_LOAD_header,
            .InterfaceDescriptorTotalLength = 32, .InterfaceDescriptorDataStartAddress = IDS };
        CU_ASSERT_EQUAL(GEN7_MEDIA_INTERFACE_DESCRIPTOR_LOAD_pack(dw, &l), 0);
        packet_gen(&r, 7, "MEDIA_INTERFACE_DESCRIPTOR_LOAD", dw,
                   GEN7_MEDIA_INTERFACE_DESCRIPTOR_LOAD_length);
        struct GEN7_GPGPU_WALKER w = { GEN7_GPGPU_WALKER_header, .ThreadGroupIDXDimension = 1,
            .ThreadGroupIDYDimension = 1, .ThreadGroupIDStartingZ = 1,
            .ThreadGroupIDZDimension = 3, .RightExecutionMask = 0xff,
            .BottomExecutionMask = 0xffffffffu };
        CU_ASSERT_EQUAL(GEN7_GPGPU_WALKER_pack(dw, &w), 0);
        packet_gen(&r, 7, "GPGPU_WALKER", dw, GEN7_GPGPU_WALKER_length);
    } else {
        struct GEN8_MEDIA_VFE_STATE vs = { GEN8_MEDIA_VFE_STATE_header, .PerThreadScratchSpace = 2,
            .ScratchSpaceBasePointer = 0x80000, .MaximumNumberOfThreads = 63 };
        CU_ASSERT_EQUAL(GEN8_MEDIA_VFE_STATE_pack(dw, &vs), 0);
        packet_gen(&r, 8, "MEDIA_VFE_STATE", dw, GEN8_MEDIA_VFE_STATE_length);
        struct GEN8_INTERFACE_DESCRIPTOR_DATA id = { .KernelStartPointer = 0x4000,
            .BindingTablePointer = 0x40, .NumberOfThreadsInGPGPUThreadGroup = 1,
            .SharedLocalMemorySize = 2 };
        CU_ASSERT_EQUAL(GEN8_INTERFACE_DESCRIPTOR_DATA_pack(dw, &id), 0);
        gpu_memory_write(r.mem, IDS, dw, 32, NULL);
        struct GEN8_MEDIA_INTERFACE_DESCRIPTOR_LOAD l = { GEN8_MEDIA_INTERFACE_DESCRIPTOR_LOAD_header,
            .InterfaceDescriptorTotalLength = 32, .InterfaceDescriptorDataStartAddress = IDS };
        CU_ASSERT_EQUAL(GEN8_MEDIA_INTERFACE_DESCRIPTOR_LOAD_pack(dw, &l), 0);
        packet_gen(&r, 8, "MEDIA_INTERFACE_DESCRIPTOR_LOAD", dw,
                   GEN8_MEDIA_INTERFACE_DESCRIPTOR_LOAD_length);
        struct GEN8_GPGPU_WALKER w = { GEN8_GPGPU_WALKER_header, .ThreadGroupIDXDimension = 1,
            .ThreadGroupIDYDimension = 1, .ThreadGroupIDStartingResumeZ = 1,
            .ThreadGroupIDZDimension = 3, .RightExecutionMask = 0xff,
            .BottomExecutionMask = 0xffffffffu };
        CU_ASSERT_EQUAL(GEN8_GPGPU_WALKER_pack(dw, &w), 0);
        packet_gen(&r, 8, "GPGPU_WALKER", dw, GEN8_GPGPU_WALKER_length);
    }
    sim_run(r.sim, 0);
    struct tdcatch *t = unit_state(r.td);
    CU_ASSERT_EQUAL_FATAL(t->count, 2);
    CU_ASSERT_EQUAL(t->c[1].grf[0][7], 2);
    CU_ASSERT_NOT_EQUAL(t->c[0].ctx.scratch_slot, t->c[1].ctx.scratch_slot);
    uint32_t per_thread = gen == 7 ? 3 * 1024 : 4 * 1024;
    for (uint32_t n = 0; n < 2; n++)
        CU_ASSERT_EQUAL(t->c[n].grf[0][5] & ~0x3ffu,
                        0x80000u + per_thread * t->c[n].ctx.scratch_slot);
    const struct caught *k = &t->c[0];
    CU_ASSERT_EQUAL(k->kernel, 0x4000);
    CU_ASSERT_EQUAL(k->simd, 8);
    CU_ASSERT_EQUAL(k->dmask, 0xff);
    CU_ASSERT_EQUAL(k->grf[0][7], 1);                       /* R0.7: group Z 1 */
    CU_ASSERT_EQUAL(k->grf[0][4] & ~31u, 0x40);
    CU_ASSERT_EQUAL(k->ctx.gen, gen);
    CU_ASSERT_EQUAL(k->ctx.slm_size, 2 * 4096);             /* 4 KB units on both */
    CU_ASSERT_EQUAL(k->grf[0][2] & (1u << 28), 1u << 28);   /* R0.2[28] SLM enable */
    CU_ASSERT_EQUAL(k->grf[0][3] & 15, 2);
    CU_ASSERT_EQUAL(k->grf_count, 1);                       /* no CURBE read */
    CU_ASSERT_EQUAL(stat(&r, "walkers"), 1);
    CU_ASSERT_EQUAL(stat(&r, "threads_dispatched"), 2);
    CU_ASSERT_EQUAL(stat(&r, "ignored_packets"), 0);
    sim_destroy(r.sim);
}

static void test_gen7_and_gen8_one_path(void)
{
    gen_path(7);
    gen_path(8);
}

static const struct test_case cases[] = {
    { "walker: group order, R0, CURBE, right mask", test_walker_payloads },
    { "exception state and SIP in the dispatch", test_exception_state_in_the_dispatch },
    { "a sync waits for every EOT", test_sync_waits_for_eots },
    { "SLM and barriers per group, freed at the last EOT", test_slm_and_barriers },
    { "zero, absurd and undefined walkers; SLM beyond the partition", test_bad_walkers },
    { "interface descriptors outside memory", test_descriptor_outside_memory },
    { "random media commands end cleanly", test_random_packets },
    { "Gen7 and Gen8 state on the same path", test_gen7_and_gen8_one_path },
    { 0 }
};
TEST_SUITE(vfe, cases);
