/* tests/units/test_dataport.c - the data port driven alone: SEND messages are
 * injected on its "eu" port, its write-backs caught, its memory checked through
 * the backdoor. Expected values follow from the message definitions (seed 003
 * L4828-7583, notes/003-skl-sharedfn-eu.md §4: untyped surface layout, the
 * atomic op table L18634-18680, the address models L4862-5014) and from the
 * data the test itself wrote; line counts from the 64-byte line rule. */
#include <stdio.h>
#include <string.h>

#include "fabric/memory.h"
#include "units/common/memreq.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec_gen9_pack.h"
#include "tests/support/probes.h"
#include "tests/test.h"
#include "units/dataport/dataport.h"
#include "units/common/thread_msg.h"
#include "units/l3/l3.h"
#include "units/memory/memory.h"

#define SSBA 0x100000u          /* surface state base (physical space) */
#define BT 0x40u                /* binding table offset */
#define BUF 0x200000u           /* the buffer surface (BTI 0), 4096 bytes */
#define BUF2 0x300000u          /* BTI 1, 256 bytes */

/* Catches write-backs. */
struct catcher {
    struct port *in;
    uint64_t count;
    uint64_t cycle;
    uint64_t cycles[4];         /* of the first four write-backs */
    uint8_t rlen;
    uint32_t regs[16][8];
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "write-backs" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        const struct eu_writeback_msg *w = (const struct eu_writeback_msg *)m->payload;
        CU_ASSERT_EQUAL(m->kind, MSG_WRITEBACK);
        if (c->count < 4)
            c->cycles[c->count] = unit_cycle(u);
        c->count++;
        c->cycle = unit_cycle(u);
        c->rlen = w->rlen;
        memset(c->regs, 0, sizeof c->regs);
        memcpy(c->regs, w->regs, (size_t)(w->rlen > 16 ? 16 : w->rlen) * 32);
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_wb_catcher",
    .state_size = sizeof(struct catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

struct rig {
    struct sim *sim;
    struct gpu_memory *mem;
    struct unit *dp, *catcher;
};

static void put_surface(struct gpu_memory *mem, uint32_t bti, uint64_t base, uint32_t bytes)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 4;          /* SURFTYPE_BUFFER */
    v.SurfaceFormat = 0x1ff;    /* RAW */
    uint32_t n = bytes - 1;
    v.Width = n & 0x7f;
    v.Height = (n >> 7) & 0x3fff;
    v.Depth = (n >> 21) & 0x7ff;
    v.SurfaceBaseAddress = base;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000 + bti * 64;
    gpu_memory_write(mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(mem, SSBA + BT + 4 * bti, &state_off, 4, NULL);
}

/* A 2D linear surface at BTI bti: width x height texels of `format`, pitch bytes. */
static void put_surface_2d(struct gpu_memory *mem, uint32_t bti, uint64_t base, uint32_t format,
                           uint32_t width, uint32_t height, uint32_t pitch)
{
    struct GEN9_RENDER_SURFACE_STATE v = { 0 };
    v.SurfaceType = 1;          /* SURFTYPE_2D */
    v.SurfaceFormat = format;
    v.Width = width - 1;
    v.Height = height - 1;
    v.SurfacePitch = pitch - 1;
    v.SurfaceBaseAddress = base;
    v.SurfaceHorizontalAlignment = 1;
    v.SurfaceVerticalAlignment = 1;
    uint32_t dw[16] = { 0 };
    CU_ASSERT_EQUAL(GEN9_RENDER_SURFACE_STATE_pack(dw, &v), 0);
    uint32_t state_off = 0x1000 + bti * 64;
    gpu_memory_write(mem, SSBA + state_off, dw, sizeof dw, NULL);
    gpu_memory_write(mem, SSBA + BT + 4 * bti, &state_off, 4, NULL);
}

static struct rig rig_new(bool with_l3, const char *const *over)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    r.dp = probe_add(r.sim, &dataport_ops, "dp", over);
    r.catcher = probe_add(r.sim, &catcher_ops, "wb", NULL);
    probe_link(r.sim, r.dp, "writeback[0]", r.catcher, "in", 1, 8, 4);
    if (with_l3) {
        const char *l3_over[] = { "size_kib=768", "banks=4", "cache_kib=384", "urb_kib=384", NULL };
        struct unit *l3 = probe_add(r.sim, &l3_ops, "l3", l3_over);
        struct unit *mem = probe_add(r.sim, &memory_ops, "mem", NULL);
        probe_link(r.sim, r.dp, "l3", l3, "client[0]", 1, 16, 4);
        probe_link(r.sim, l3, "client_reply[0]", r.dp, "l3_reply", 1, 16, 4);
        probe_link(r.sim, l3, "memory", mem, "client[0]", 1, 16, 4);
        probe_link(r.sim, mem, "client_reply[0]", l3, "memory_reply", 1, 16, 4);
    }
    /* the "eu" input is made by name and fed through the backdoor */
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "dp.eu[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    put_surface(r.mem, 0, BUF, 4096);
    put_surface(r.mem, 1, BUF2, 256);
    return r;
}

/* A SEND with `nregs` payload registers. */
static struct msg *send_msg(struct rig *r, uint8_t sfid, uint32_t desc, uint8_t mlen,
                            uint8_t ex_mlen, uint8_t rlen, uint32_t exec_mask, bool header,
                            const uint32_t (*regs)[8])
{
    unsigned n = (unsigned)mlen + ex_mlen;
    struct msg *m = msg_alloc(r->sim, MSG_SEND, (uint32_t)(sizeof(struct eu_send_msg) + n * 32));
    struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
    p->sfid = sfid;
    p->mlen = mlen;
    p->ex_mlen = ex_mlen;
    p->rlen = rlen;
    p->slot = 3;
    p->dst_reg = 20;
    p->exec_size = 16;
    p->flags = header ? EU_SEND_HEADER : 0;
    p->desc = desc | (uint32_t)mlen << 25 | (uint32_t)rlen << 20 | (header ? 1u << 19 : 0);
    p->exec_mask = exec_mask;
    p->ctx = (struct eu_thread_context){ .space_format = GPU_ADDRESS_SPACE_PHYSICAL, .valid = 1,
                                         .gen = 9, .binding_table = BT,
                                         .surface_state_base = SSBA, .binding_table_entries = 4,
                                         .slm_base = 4096, .slm_size = 4096 };
    if (regs)
        memcpy(p->regs, regs, n * 32);
    return m;
}

static void run(struct rig *r, struct msg *m)
{
    CU_ASSERT_TRUE(port_inject(unit_port(r->dp, "eu", 0), m));
    sim_run(r->sim, 0);
}

static void rig_free(struct rig *r)
{
    sim_destroy(r->sim);
}

/* desc for DC1 untyped surface read/write, SIMD16, red only (mask 0xe disables GBA) */
#define UNTYPED(type, bti) ((uint32_t)(type) << 14 | 1u << 12 | 0xeu << 8 | (bti))

/* The buffer's first 16 dwords: i * 10. */
static void put_tens(struct rig *r)
{
    uint32_t init[16];
    for (int i = 0; i < 16; i++)
        init[i] = (uint32_t)i * 10;
    gpu_memory_write(r->mem, BUF, init, sizeof init, NULL);
}

static void fill_buffer(struct rig *r)
{
    float a[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = (float)i * 0.25f;
    gpu_memory_write(r->mem, BUF, a, sizeof a, NULL);
}

static void test_untyped_read_write_simd16(void)
{
    struct rig r = rig_new(false, NULL);
    fill_buffer(&r);
    uint32_t regs[4][8];
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)(100 + 3 * i) * 4;   /* strided dword offsets */
    run(&r, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs));
    CU_ASSERT_EQUAL(r.catcher ? ((struct catcher *)unit_state(r.catcher))->count : 0, 1);
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->rlen, 2);
    for (int i = 0; i < 16; i++) {
        float f;
        memcpy(&f, &c->regs[i / 8][i % 8], 4);
        CU_ASSERT_EQUAL(f, (float)(100 + 3 * i) * 0.25f);
    }
    /* write slots 0..15 except 5 (exec mask) */
    for (int i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = (uint32_t)(800 + i) * 4;
        regs[2 + i / 8][i % 8] = 0xabc00000u + (uint32_t)i;
    }
    run(&r, send_msg(&r, 12, UNTYPED(9, 0), 2, 2, 0, 0xffff & ~(1u << 5), false, regs));
    for (int i = 0; i < 16; i++) {
        uint32_t v;
        gpu_memory_read(r.mem, BUF + (800u + (uint32_t)i) * 4, &v, 4, NULL);
        uint32_t before;
        float f = (float)(800 + i) * 0.25f;
        memcpy(&before, &f, 4);
        CU_ASSERT_EQUAL(v, i == 5 ? before : 0xabc00000u + (uint32_t)i);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.reads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.writes"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.bytes_written"), 60);
    rig_free(&r);
}

/* Out of bounds: BTI 1 is 256 bytes; reads beyond return 0, writes are dropped. */
static void test_out_of_bounds_and_null(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t ones[64];
    for (int i = 0; i < 64; i++)
        ones[i] = 0x11111111u;
    gpu_memory_write(r.mem, BUF2, ones, sizeof ones, NULL);
    gpu_memory_write(r.mem, BUF2 + 256, ones, sizeof ones, NULL);
    uint32_t regs[4][8] = { { 0 } };
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)(i * 32);    /* 0, 32, ... 480: half beyond 256 */
    run(&r, send_msg(&r, 12, UNTYPED(1, 1), 2, 0, 2, 0xffff, false, regs));
    struct catcher *c = unit_state(r.catcher);
    for (int i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(c->regs[i / 8][i % 8], i < 8 ? 0x11111111u : 0u);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.out_of_bounds"), 8);
    /* a write beyond the end leaves memory past the surface alone */
    for (int i = 0; i < 16; i++)
        regs[2 + i / 8][i % 8] = 0xdeadu;
    run(&r, send_msg(&r, 12, UNTYPED(9, 1), 2, 2, 0, 0xffff, false, regs));
    uint32_t v;
    gpu_memory_read(r.mem, BUF2 + 256, &v, 4, NULL);
    CU_ASSERT_EQUAL(v, 0x11111111u);
    gpu_memory_read(r.mem, BUF2 + 32, &v, 4, NULL);
    CU_ASSERT_EQUAL(v, 0xdeadu);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.out_of_bounds"), 16);
    rig_free(&r);
}

/* A binding table index beyond the interface descriptor's entry count is a
 * null surface: zeros back, counted, nothing written, the thread gets its reply. */
static void test_bti_beyond_table(void)
{
    struct rig r = rig_new(false, NULL);
    fill_buffer(&r);
    uint32_t regs[4][8] = { { 0 } };
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = 64u + 4u * (uint32_t)i;
    run(&r, send_msg(&r, 12, UNTYPED(1, 7), 2, 0, 2, 0xffff, false, regs));
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->count, 1);
    for (int i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(c->regs[i / 8][i % 8], 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.bti_beyond_table"), 1);
    rig_free(&r);
}

/* Untyped atomics: ADD returns the old value, CMPWR swaps when equal, INC;
 * all 16 slots hit distinct dwords. */
static void test_untyped_atomics(void)
{
    struct rig r = rig_new(false, NULL);
    put_tens(&r);
    uint32_t regs[6][8];
    for (int i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = (uint32_t)i * 4;
        regs[2 + i / 8][i % 8] = 5;             /* src0 */
        regs[4 + i / 8][i % 8] = 777;           /* src1 */
    }
    /* ADD (7), return data, SIMD16 */
    uint32_t add = 2u << 14 | 1u << 13 | 7u << 8 | 0;
    run(&r, send_msg(&r, 12, add, 4, 0, 2, 0xffff, false, regs));
    struct catcher *c = unit_state(r.catcher);
    for (int i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(c->regs[i / 8][i % 8], (uint32_t)i * 10);
    uint32_t v[16];
    gpu_memory_read(r.mem, BUF, v, sizeof v, NULL);
    for (int i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(v[i], (uint32_t)i * 10 + 5);
    /* CMPWR (14): slots whose value is 5 (only slot 0: 0 + 5) become 777 */
    uint32_t cmpwr = 2u << 14 | 1u << 13 | 14u << 8 | 0;
    run(&r, send_msg(&r, 12, cmpwr, 6, 0, 2, 0xffff, false, regs));
    gpu_memory_read(r.mem, BUF, v, sizeof v, NULL);
    CU_ASSERT_EQUAL(v[0], 777);
    for (int i = 1; i < 16; i++)
        CU_ASSERT_EQUAL(v[i], (uint32_t)i * 10 + 5);
    /* PREDEC (15) returns the new value */
    uint32_t predec = 2u << 14 | 1u << 13 | 15u << 8 | 0;
    run(&r, send_msg(&r, 12, predec, 2, 0, 2, 0x3, false, regs));
    CU_ASSERT_EQUAL(c->regs[0][0], 776);
    CU_ASSERT_EQUAL(c->regs[0][1], 14);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.atomics"), 3);
    rig_free(&r);
}

/* SLM (BTI 254): a write then a read of the group's allocation; an access
 * beyond the allocation is counted (and wraps in the subslice's array). */
static void test_slm(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t regs[4][8];
    for (int i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = (uint32_t)(15 - i) * 4;
        regs[2 + i / 8][i % 8] = 0x5000u + (uint32_t)i;
    }
    run(&r, send_msg(&r, 12, UNTYPED(9, 254), 2, 2, 0, 0xffff, false, regs));
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)i * 4;
    run(&r, send_msg(&r, 12, UNTYPED(1, 254), 2, 0, 2, 0xffff, false, regs));
    struct catcher *c = unit_state(r.catcher);
    for (int i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(c->regs[i / 8][i % 8], 0x5000u + 15u - (uint32_t)i);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.slm_accesses"), 32);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.slm_out_of_bounds"), 0);
    regs[0][0] = 8192;      /* beyond the group's 4096 bytes */
    run(&r, send_msg(&r, 12, UNTYPED(1, 254), 2, 0, 2, 0x1, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.slm_out_of_bounds"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.page_faults"), 0);
    rig_free(&r);
}

/* A64 untyped read and byte/dword scattered and OWord block on DC0. */
static void test_a64_scattered_block(void)
{
    struct rig r = rig_new(false, NULL);
    fill_buffer(&r);
    /* A64 untyped read (0x11), SIMD8, red: 8 addresses as qwords in 2 registers */
    uint32_t regs[4][8] = { { 0 } };
    for (int i = 0; i < 8; i++) {
        uint64_t a = BUF + 4u * (uint32_t)(i * 7);
        regs[i / 4][(i % 4) * 2] = (uint32_t)a;
        regs[i / 4][(i % 4) * 2 + 1] = (uint32_t)(a >> 32);
    }
    uint32_t a64 = 0x11u << 14 | 2u << 12 | 0xeu << 8 | 0xff;
    run(&r, send_msg(&r, 12, a64, 2, 0, 1, 0xff, false, regs));
    struct catcher *c = unit_state(r.catcher);
    for (int i = 0; i < 8; i++) {
        float f;
        memcpy(&f, &c->regs[0][i], 4);
        CU_ASSERT_EQUAL(f, (float)(i * 7) * 0.25f);
    }
    /* DC0 dword scattered write (11) SIMD8 then byte scattered read (4) of byte 1 of each */
    uint32_t w[2][8];
    for (int i = 0; i < 8; i++) {
        w[0][i] = 0x800u + 4u * (uint32_t)i;
        w[1][i] = 0x04030201u * (uint32_t)(i + 1);
    }
    run(&r, send_msg(&r, 10, 11u << 14 | 2u << 8 | 0, 2, 0, 0, 0xff, false, w));
    uint32_t b[1][8];
    for (int i = 0; i < 8; i++)
        b[0][i] = 0x800u + 4u * (uint32_t)i + 1;
    run(&r, send_msg(&r, 10, 4u << 14 | 0u << 10 | 0, 1, 0, 1, 0xff, false, b));
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(c->regs[0][i], (0x04030201u * (uint32_t)(i + 1) >> 8) & 0xff);
    /* OWord block read (0), 2 OWords at OWord offset 0x80 (byte 0x800) */
    uint32_t h[1][8] = { { 0, 0, 0x80, 0, 0, 0, 0, 0 } };
    run(&r, send_msg(&r, 10, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(c->regs[0][i], 0x04030201u * (uint32_t)(i + 1));
    rig_free(&r);
}

/* Timing through a real L3: one request per 64-byte line touched, the reply
 * only after the L3 has answered them; a second read of the same lines hits. */
static void test_l3_lines(void)
{
    struct rig r = rig_new(true, NULL);
    fill_buffer(&r);
    uint32_t regs[2][8];
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)i * 4;       /* 64 contiguous bytes: one line */
    run(&r, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.misses"), 1);
    struct catcher *c = unit_state(r.catcher);
    uint64_t first = c->cycle;
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)i * 64;      /* 16 lines */
    run(&r, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 17);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.l3_replies"), 17);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.hits"), 1);       /* line 0 again */
    CU_ASSERT_EQUAL(c->count, 2);
    CU_ASSERT_TRUE(first > 2);
    rig_free(&r);
}

/* functional = true (fast mode's data port): with an L3 linked, a read of 16
 * lines still returns the buffer's values, sends no line to the L3 and replies
 * `latency` cycles after it was taken; a second read is as fast (no cache). */
static void test_functional_mode(void)
{
    const char *over[] = { "functional=true", "latency=7", NULL };
    struct rig r = rig_new(true, over);
    fill_buffer(&r);
    uint32_t regs[2][8];
    for (int i = 0; i < 16; i++)
        regs[i / 8][i % 8] = (uint32_t)i * 64;      /* 16 lines */
    struct catcher *c = unit_state(r.catcher);
    for (int round = 0; round < 2; round++) {
        run(&r, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs));
        CU_ASSERT_EQUAL(c->count, (uint64_t)round + 1);
        /* taken to replied, as the data port counts it */
        CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.latency_sum"), 7 * (round + 1));
        for (int i = 0; i < 16; i++) {
            float f;
            memcpy(&f, &c->regs[i / 8][i % 8], 4);
            CU_ASSERT_EQUAL(f, (float)(16 * i) * 0.25f);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.misses") + probe_stat(r.sim, "l3.hits"), 0);
    rig_free(&r);
    /* a value that is not a bool is refused, naming the key */
    struct sim *sim = probe_sim(NULL);
    const char *bad[] = { "functional=maybe", NULL };
    struct gt_error err;
    CU_ASSERT_PTR_NULL(sim_add_unit(sim, &dataport_ops, "dp", 0, NULL, bad, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "functional"));
    sim_destroy(sim);
}

/* The constant cache path (SFID 9, the read-only data port, notes §4.1): the
 * first OWord block read of a line misses and goes to the L3 as read-only
 * data; the same read again hits the constant cache, makes no L3 request and
 * replies after cc_latency; a DC0 read of the line (SFID 10) does not use the
 * constant cache. */
static void test_constant_cache(void)
{
    const char *over[] = { "cc_lines=64", "cc_latency=10", NULL };
    struct rig r = rig_new(true, over);
    fill_buffer(&r);
    struct catcher *c = unit_state(r.catcher);
    /* OWord block read (type 0), 2 OWords at OWord offset 4 (byte 64: line 1) */
    uint32_t h[1][8] = { { 0, 0, 4, 0, 0, 0, 0, 0 } };
    uint64_t t0 = sim_now(r.sim) / 1000;
    run(&r, send_msg(&r, 9, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    uint64_t miss_latency = c->cycle - t0;
    for (int i = 0; i < 8; i++) {
        float f;
        memcpy(&f, &c->regs[0][i], 4);
        CU_ASSERT_EQUAL(f, (float)(16 + i) * 0.25f);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.cc_misses"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.cc_hits"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.reads"), 1);

    uint64_t t1 = sim_now(r.sim) / 1000;
    memset(c->regs, 0, sizeof c->regs);
    run(&r, send_msg(&r, 9, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    uint64_t hit_latency = c->cycle - t1;
    for (int i = 0; i < 8; i++) {
        float f;
        memcpy(&f, &c->regs[0][i], 4);
        CU_ASSERT_EQUAL(f, (float)(16 + i) * 0.25f);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.cc_hits"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 1);          /* no new L3 request */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.reads"), 1);
    CU_ASSERT_TRUE(hit_latency >= 10 && hit_latency <= 10 + 3);
    CU_ASSERT_TRUE(miss_latency > hit_latency + 30);     /* an L3 miss: L3 + memory latency */

    run(&r, send_msg(&r, 10, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l3.hits"), 1);           /* the line is in the L3 */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.cc_hits"), 1);
    rig_free(&r);

    /* cc_lines = 0: no constant cache, every SFID 9 read goes to the L3 */
    const char *none[] = { "cc_lines=0", NULL };
    r = rig_new(true, none);
    run(&r, send_msg(&r, 9, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    run(&r, send_msg(&r, 9, 0u << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.lines"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.cc_hits") + probe_stat(r.sim, "dp.cc_misses"), 0);
    rig_free(&r);
}

/* Unknown messages and garbage: counted, zeros back, never a crash. */
static void test_bad_messages(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t regs[2][8] = { { 0 } };
    run(&r, send_msg(&r, 12, 31u << 14, 2, 0, 2, 0xffff, false, regs));    /* unknown type */
    run(&r, send_msg(&r, 5, 0, 2, 0, 1, 0xffff, false, regs));             /* render cache */
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.unsupported"), 2);
    struct msg *m = msg_alloc(r.sim, MSG_SEND, 4);                          /* truncated */
    run(&r, m);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.bad_messages"), 1);
    rig_free(&r);
}

/* Typed write then read on a 2D R32_UINT surface; out of bounds reads 0;
 * R8G8B8A8_UNORM converts to float (L5193-5203). */
static void test_typed_2d(void)
{
    struct rig r = rig_new(false, NULL);
    put_surface_2d(r.mem, 2, 0x400000, 0xD7, 16, 4, 64);
    put_surface_2d(r.mem, 3, 0x500000, 0xC7, 4, 1, 16);
    uint32_t regs[4][8] = { { 0 } };
    regs[0][7] = 0xffff;                        /* header: pixel sample mask */
    for (int i = 0; i < 8; i++) {
        regs[1][i] = (uint32_t)i + 3;           /* U */
        regs[2][i] = 2;                         /* V */
        regs[3][i] = 0x7000u + (uint32_t)i;     /* R */
    }
    uint32_t wdesc = 13u << 14 | 0xeu << 8 | 2;
    run(&r, send_msg(&r, 12, wdesc, 4, 0, 0, 0xff, true, regs));
    for (int i = 0; i < 8; i++) {
        uint32_t v;
        gpu_memory_read(r.mem, 0x400000 + 2 * 64 + ((uint32_t)i + 3) * 4, &v, 4, NULL);
        CU_ASSERT_EQUAL(v, 0x7000u + (uint32_t)i);
    }
    regs[1][7] = 16;                            /* beyond the width */
    uint32_t rdesc = 5u << 14 | 0xeu << 8 | 2;
    run(&r, send_msg(&r, 12, rdesc, 3, 0, 1, 0xff, true, regs));
    struct catcher *c = unit_state(r.catcher);
    for (int i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(c->regs[0][i], 0x7000u + (uint32_t)i);
    CU_ASSERT_EQUAL(c->regs[0][7], 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.out_of_bounds"), 1);
    uint8_t texel[4] = { 0x00, 0x80, 0xff, 0x40 };
    gpu_memory_write(r.mem, 0x500000 + 4, texel, 4, NULL);
    uint32_t q[3][8] = { { 0, 0, 0, 0, 0, 0, 0, 0xffff }, { 1 }, { 0 } };
    run(&r, send_msg(&r, 12, 5u << 14 | 0u << 8 | 3, 3, 0, 4, 0x1, true, q));
    float f[4];
    for (int ch = 0; ch < 4; ch++)
        memcpy(&f[ch], &c->regs[ch][0], 4);
    CU_ASSERT_EQUAL(f[0], 0.0f);
    CU_ASSERT_EQUAL(f[1], 128.0f / 255.0f);
    CU_ASSERT_EQUAL(f[2], 1.0f);
    CU_ASSERT_EQUAL(f[3], 64.0f / 255.0f);
    rig_free(&r);
}

/* Typed messages take any uncompressed format the formats library converts:
 * a write of green alone to R10G10B10A2_UNORM changes only bits 19:10, and a
 * read unpacks every channel as value / (2^bits - 1) (UNORM, 003 L5193-5203). */
static void test_typed_packed_format(void)
{
    struct rig r = rig_new(false, NULL);
    put_surface_2d(r.mem, 3, 0x600000, 0x0C2, 4, 2, 16);    /* R10G10B10A2_UNORM */
    uint32_t texel = 0x80000155u;                           /* A = 2, B = 0, G = 0, R = 0x155 */
    gpu_memory_write(r.mem, 0x600000 + 16 + 2 * 4, &texel, 4, NULL);
    float one = 1.0f;
    uint32_t g[4][8] = { { 0, 0, 0, 0, 0, 0, 0, 0x1 }, { 2 }, { 1 }, { 0 } };
    memcpy(&g[3][0], &one, 4);
    run(&r, send_msg(&r, 12, 13u << 14 | 0xdu << 8 | 3, 4, 0, 0, 0xff, true, g));  /* G only */
    uint32_t now;
    gpu_memory_read(r.mem, 0x600000 + 16 + 2 * 4, &now, 4, NULL);
    CU_ASSERT_EQUAL(now, 0x80000155u | 0x3ffu << 10);
    run(&r, send_msg(&r, 12, 5u << 14 | 0u << 8 | 3, 3, 0, 4, 0xff, true, g));     /* RGBA */
    struct catcher *c = unit_state(r.catcher);
    float f[4];
    for (int ch = 0; ch < 4; ch++)
        memcpy(&f[ch], &c->regs[ch][0], 4);
    CU_ASSERT_DOUBLE_EQUAL(f[0], 341.0 / 1023.0, 1e-7);
    CU_ASSERT_EQUAL(f[1], 1.0f);
    CU_ASSERT_EQUAL(f[2], 0.0f);
    CU_ASSERT_DOUBLE_EQUAL(f[3], 2.0 / 3.0, 1e-7);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.unsupported"), 0);
    /* R16G16_FLOAT holding a signalling NaN in red: writing green alone
     * leaves red's bits as they were (a convert-and-repack would quiet it) */
    put_surface_2d(r.mem, 3, 0x600000, 0x0D0, 4, 2, 16);
    texel = 0x00007c01u;
    gpu_memory_write(r.mem, 0x600000 + 16 + 2 * 4, &texel, 4, NULL);
    run(&r, send_msg(&r, 12, 13u << 14 | 0xdu << 8 | 3, 4, 0, 0, 0xff, true, g));
    gpu_memory_read(r.mem, 0x600000 + 16 + 2 * 4, &now, 4, NULL);
    CU_ASSERT_EQUAL(now, 0x3c00u << 16 | 0x7c01u);          /* half 1.0 is 0x3c00 */
    rig_free(&r);
}

static uint32_t xorshift(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* Random messages (any SFID the port takes, any descriptor, payload,
 * context and address space): nothing crashes (ASan/UBSan in test-san), and
 * every message asking for a reply gets exactly one. */
static void test_random_messages(void)
{
    struct rig r = rig_new(false, NULL);
    fill_buffer(&r);
    static const uint8_t sfids[] = { 9, 10, 12, 4, 5, 2 };
    uint32_t x = 0x1234567u, expect = 0;
    for (int n = 0; n < 3000; n++) {
        uint8_t mlen = (uint8_t)(1 + xorshift(&x) % 6), ex = (uint8_t)(xorshift(&x) % 5);
        uint8_t rlen = (uint8_t)(xorshift(&x) % 9);
        uint32_t regs[11][8];
        for (int i = 0; i < 11; i++)
            for (int k = 0; k < 8; k++)
                regs[i][k] = xorshift(&x) % 3 ? xorshift(&x) % 8192 : xorshift(&x);
        uint32_t desc = xorshift(&x) & 0x7ffff;
        struct msg *m = send_msg(&r, sfids[xorshift(&x) % 6], desc, mlen, ex, rlen,
                                 xorshift(&x), xorshift(&x) & 1, (const uint32_t (*)[8])regs);
        struct eu_send_msg *p = (struct eu_send_msg *)m->payload;
        switch (xorshift(&x) % 4) {
        case 0: p->ctx.space_format = GPU_ADDRESS_SPACE_GGTT_GEN8; break;     /* no entries: faults */
        case 1: p->ctx.gen = (uint8_t)(7 + xorshift(&x) % 3); break;
        case 2: p->ctx.slm_base = xorshift(&x); p->ctx.slm_size = xorshift(&x); break;
        default: p->ctx.surface_state_base = xorshift(&x); p->ctx.binding_table = xorshift(&x);
                 p->ctx.binding_table_entries = xorshift(&x) % 300; break;
        }
        expect += rlen > 0;
        CU_ASSERT_TRUE(port_inject(unit_port(r.dp, "eu", 0), m));
        if (n % 64 == 63)
            sim_run(r.sim, 0);
    }
    CU_ASSERT_EQUAL(sim_run(r.sim, 0), SIM_STOP_QUIESCENT);
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->count, expect);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.messages"), 3000);
    rig_free(&r);
}

/* Scratch: a thread's HWord block at General State Base + M0.5[31:10] +
 * desc[11:0] x 32 bytes; written then read back, two registers. */
static void test_scratch(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t regs[3][8] = { { 0 } };
    regs[0][5] = 0x600000u | 0x3ffu;            /* the low 10 bits are not address */
    for (int i = 0; i < 8; i++) {
        regs[1][i] = 0x100u + (uint32_t)i;
        regs[2][i] = 0x200u + (uint32_t)i;
    }
    uint32_t wdesc = 1u << 18 | 1u << 17 | 1u << 16 | 1u << 12 | 3;    /* HWord offset 3 */
    run(&r, send_msg(&r, 10, wdesc, 3, 0, 0, 0xff, true, regs));
    uint32_t v;
    gpu_memory_read(r.mem, 0x600000 + 3 * 32 + 32 + 4, &v, 4, NULL);
    CU_ASSERT_EQUAL(v, 0x201);
    uint32_t rdesc = 1u << 18 | 1u << 16 | 1u << 12 | 3;
    run(&r, send_msg(&r, 10, rdesc, 1, 0, 2, 0xff, true, regs));
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(c->regs[0][7], 0x107);
    CU_ASSERT_EQUAL(c->regs[1][0], 0x200);
    rig_free(&r);
}

/* Which port takes which message (opcodes.txt [dc0-message-type], notes/003 §4.1): the
 * read-only port (SFID 9) takes the reads and not the writes or the fence; DC0's
 * unaligned OWord block read (1) reads as the aligned one here; the untyped messages
 * are on DC0 on Gen7 only (types 5, 13), on DC1 from Gen8. */
static void test_ports_and_generations(void)
{
    struct rig r = rig_new(false, NULL);
    fill_buffer(&r);
    struct catcher *c = unit_state(r.catcher);
    uint32_t h[2][8] = { { 0, 0, 0x10, 0, 0, 0, 0, 0 }, { 0 } };   /* OWord 0x10 = byte 0x100 */
    for (uint32_t type = 0; type < 2; type++) {
        memset(c->regs, 0, sizeof c->regs);
        run(&r, send_msg(&r, type ? 10 : 9, type << 14 | 2u << 8 | 0, 1, 0, 1, 0xff, true, h));
        for (int i = 0; i < 8; i++) {
            float f;
            memcpy(&f, &c->regs[0][i], 4);
            CU_ASSERT_EQUAL(f, (float)(0x40 + i) * 0.25f);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.reads"), 2);
    /* an OWord block write (8) and a fence (7) on SFID 9: not taken, memory unchanged */
    for (int i = 0; i < 8; i++)
        h[1][i] = 0xdead0000u + (uint32_t)i;
    run(&r, send_msg(&r, 9, 8u << 14 | 2u << 8 | 0, 2, 0, 0, 0xff, true, h));
    run(&r, send_msg(&r, 9, 7u << 14, 1, 0, 1, 0xff, true, h));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.unsupported"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.fences"), 0);
    uint32_t v;
    gpu_memory_read(r.mem, BUF + 0x100, &v, 4, NULL);
    CU_ASSERT_NOT_EQUAL(v, 0xdead0000u);
    run(&r, send_msg(&r, 10, 7u << 14, 1, 0, 1, 0xff, true, h));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.fences"), 1);
    /* DC0 untyped surface read (5), SIMD8 (13:12 = 2), red, A32 stateless (BTI 255 with
     * a zero General State Base): Gen9 does not take it, Gen7 does */
    uint32_t a[1][8];
    for (int i = 0; i < 8; i++)
        a[0][i] = BUF + 4u * (uint32_t)(5 * i);
    uint32_t untyped = 5u << 14 | 2u << 12 | 0xeu << 8 | 255;
    run(&r, send_msg(&r, 10, untyped, 1, 0, 1, 0xff, false, a));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.unsupported"), 3);
    struct msg *m = send_msg(&r, 10, untyped, 1, 0, 1, 0xff, false, a);
    ((struct eu_send_msg *)m->payload)->ctx.gen = 7;
    memset(c->regs, 0, sizeof c->regs);
    run(&r, m);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.unsupported"), 3);
    for (int i = 0; i < 8; i++) {
        float f;
        memcpy(&f, &c->regs[0][i], 4);
        CU_ASSERT_EQUAL(f, (float)(5 * i) * 0.25f);
    }
    rig_free(&r);
}

/* A data port taking 4 messages a cycle, no L3 (replies after 20 cycles), its
 * write-back channel holding `capacity` messages, a buffer surface at BTI 0. */
static struct rig wide_rig(uint32_t capacity)
{
    struct rig r = { 0 };
    r.sim = probe_sim(NULL);
    r.mem = probe_memory(r.sim);
    const char *over[] = { "messages_per_cycle=4", "latency=20", NULL };
    r.dp = probe_add(r.sim, &dataport_ops, "dp", over);
    r.catcher = probe_add(r.sim, &catcher_ops, "wb", NULL);
    probe_link(r.sim, r.dp, "writeback[0]", r.catcher, "in", 1, capacity, capacity);
    struct gt_error err;
    CU_ASSERT_PTR_NOT_NULL(sim_resolve_port(r.sim, "dp.eu[0]", PORT_IN, &err));
    CU_ASSERT_EQUAL_FATAL(sim_realize(r.sim, &err), 0);
    put_surface(r.mem, 0, BUF, 4096);
    return r;
}

/* The reply queue (fabric/reply_queue.h, insertion order, the first refusal stops it):
 * three messages taken on one cycle with no L3 are all due `latency` cycles later (the
 * param's meaning). With a write-back channel that holds one message the second reply
 * is refused (one stall) and goes later; the write in between has no write-back and
 * leaves on its due cycle. With a wide channel nothing stalls and every latency is
 * exactly `latency`. */
static void reply_queue_case(uint32_t capacity, uint64_t *stall, uint64_t *latency_sum,
                             uint64_t cycles[2])
{
    struct rig r = wide_rig(capacity);
    fill_buffer(&r);
    uint32_t regs[4][8];
    for (int i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = (uint32_t)i * 4;
        regs[2 + i / 8][i % 8] = (uint32_t)i;
    }
    struct port *in = unit_port(r.dp, "eu", 0);
    CU_ASSERT_TRUE(port_inject(in, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs)));
    CU_ASSERT_TRUE(port_inject(in, send_msg(&r, 12, UNTYPED(9, 0), 2, 2, 0, 0xffff, false, regs)));
    CU_ASSERT_TRUE(port_inject(in, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs)));
    sim_run(r.sim, 0);
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.messages"), 3);
    CU_ASSERT_EQUAL(c->count, 2);
    *stall = (uint64_t)probe_stat(r.sim, "dp.stall.writeback");
    *latency_sum = (uint64_t)probe_stat(r.sim, "dp.latency_sum");
    cycles[0] = c->cycles[0];
    cycles[1] = c->cycles[1];
    rig_free(&r);
}

static void test_reply_queue_back_pressure(void)
{
    uint64_t stall, latency_sum, cycles[2];
    reply_queue_case(8, &stall, &latency_sum, cycles);
    CU_ASSERT_EQUAL(stall, 0);
    CU_ASSERT_EQUAL(latency_sum, 3 * 20);
    CU_ASSERT_EQUAL(cycles[1], cycles[0]);          /* both replies on one cycle */
    uint64_t wide_first = cycles[0];
    reply_queue_case(1, &stall, &latency_sum, cycles);
    CU_ASSERT_TRUE(stall >= 1);
    CU_ASSERT_EQUAL(cycles[0], wide_first);         /* the first reply is not held */
    CU_ASSERT_TRUE(cycles[1] > cycles[0]);
    /* the read and the write left on time; the second read waited cycles[1] - cycles[0] */
    CU_ASSERT_EQUAL(latency_sum, 3 * 20 + (cycles[1] - cycles[0]));
}

/* An atomic on memory is applied at the end of its cycle (the edge commit,
 * units/dataport/dataport_atomic.c), so it is the last message the data port
 * takes in that cycle: a read of the same dwords queued behind it, with
 * messages_per_cycle = 4, sees the atomic's result (taken in the same cycle it
 * would read the values from before it). */
static void test_read_after_atomic_sees_it(void)
{
    struct rig r = wide_rig(8);
    put_tens(&r);
    uint32_t regs[4][8];
    for (int i = 0; i < 16; i++) {
        regs[i / 8][i % 8] = (uint32_t)i * 4;
        regs[2 + i / 8][i % 8] = 5;             /* src0 */
    }
    uint32_t add = 2u << 14 | 1u << 13 | 7u << 8 | 0;      /* ADD, return data, SIMD16 */
    struct port *in = unit_port(r.dp, "eu", 0);
    CU_ASSERT_TRUE(port_inject(in, send_msg(&r, 12, add, 4, 0, 2, 0xffff, false, regs)));
    CU_ASSERT_TRUE(port_inject(in, send_msg(&r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs)));
    sim_run(r.sim, 0);
    struct catcher *c = unit_state(r.catcher);
    CU_ASSERT_EQUAL_FATAL(c->count, 2);
    for (int i = 0; i < 16; i++)                /* the read's reply came last */
        CU_ASSERT_EQUAL(c->regs[i / 8][i % 8], (uint32_t)i * 10 + 5);
    CU_ASSERT_TRUE(c->cycles[1] > c->cycles[0]);    /* taken a cycle later */
    rig_free(&r);
}

/* The data port keeps BTI resolutions and translations across messages
 * (struct dp_bti_entry, dp_xlate): a read after the surface state, the binding
 * table entry or a page-table entry was rewritten must see the new surface or
 * page, as a data port reading them afresh would. */
static uint32_t read_dword0(struct rig *r, const struct eu_thread_context *ctx)
{
    uint32_t regs[2][8] = { { 0 } };
    struct msg *m = send_msg(r, 12, UNTYPED(1, 0), 2, 0, 2, 0xffff, false, regs);
    if (ctx)
        ((struct eu_send_msg *)m->payload)->ctx = *ctx;
    run(r, m);
    return ((struct catcher *)unit_state(r->catcher))->regs[0][0];
}

static void test_kept_resolutions_follow_writes(void)
{
    struct rig r = rig_new(false, NULL);
    uint32_t a = 0xaaaa0001u, b = 0xbbbb0002u, c = 0xcccc0003u;
    gpu_memory_write(r.mem, BUF, &a, 4, NULL);
    gpu_memory_write(r.mem, BUF2, &b, 4, NULL);
    gpu_memory_write(r.mem, 0x380000, &c, 4, NULL);
    CU_ASSERT_EQUAL(read_dword0(&r, NULL), a);
    CU_ASSERT_EQUAL(read_dword0(&r, NULL), a);
    put_surface(r.mem, 0, 0x380000, 4096);          /* the state rewritten in place */
    CU_ASSERT_EQUAL(read_dword0(&r, NULL), c);
    uint32_t state1 = 0x1000 + 1 * 64;              /* the entry pointed at BTI 1's state */
    gpu_memory_write(r.mem, SSBA + BT, &state1, 4, NULL);
    CU_ASSERT_EQUAL(read_dword0(&r, NULL), b);
    /* PPGTT: the surface state and the buffer through a 4-level table
     * (PML4 0x600000, PDP, PD, PT after it; index 0 at each level but the PT) */
    uint64_t pml4 = 0x600000, va_buf = 0x5000, va_ssba = 0x0;
    for (int level = 0; level < 3; level++) {
        uint64_t entry = pml4 + 0x1000 * (uint64_t)(level + 1) + 3;
        gpu_memory_write(r.mem, pml4 + 0x1000 * (uint64_t)level, &entry, 8, NULL);
    }
    uint64_t pt = pml4 + 0x3000, pte_ss = SSBA + 3, pte_ss2 = SSBA + 0x1000 + 3;
    uint64_t pte_buf = BUF + 3, pte_buf2 = BUF2 + 3;
    gpu_memory_write(r.mem, pt + 8 * (va_ssba >> 12), &pte_ss, 8, NULL);
    gpu_memory_write(r.mem, pt + 8 * ((va_ssba >> 12) + 1), &pte_ss2, 8, NULL);
    gpu_memory_write(r.mem, pt + 8 * (va_buf >> 12), &pte_buf, 8, NULL);
    put_surface(r.mem, 0, va_buf, 4096);            /* BTI 0: the buffer at va 0x5000 */
    uint32_t state0 = 0x1000;
    gpu_memory_write(r.mem, SSBA + BT, &state0, 4, NULL);
    struct eu_thread_context ctx = { .space_format = GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL,
                                     .space_root = pml4, .valid = 1, .gen = 9,
                                     .binding_table = BT, .surface_state_base = va_ssba,
                                     .binding_table_entries = 4 };
    CU_ASSERT_EQUAL(read_dword0(&r, &ctx), a);
    CU_ASSERT_EQUAL(read_dword0(&r, &ctx), a);
    gpu_memory_write(r.mem, pt + 8 * (va_buf >> 12), &pte_buf2, 8, NULL);    /* remapped */
    CU_ASSERT_EQUAL(read_dword0(&r, &ctx), b);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.page_faults"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "dp.state_faults"), 0);
    rig_free(&r);
}

static const struct test_case cases[] = {
    { "kept BTI resolutions and translations follow writes", test_kept_resolutions_follow_writes },
    { "reply queue: in order, held by a refused write-back", test_reply_queue_back_pressure },
    { "a read behind an atomic in one cycle sees the atomic's result", test_read_after_atomic_sees_it },
    { "untyped surface read and write, SIMD16, exec mask", test_untyped_read_write_simd16 },
    { "out-of-bounds reads give 0, writes dropped", test_out_of_bounds_and_null },
    { "binding table index beyond the table: null surface, counted", test_bti_beyond_table },
    { "untyped atomics ADD, CMPWR, PREDEC", test_untyped_atomics },
    { "SLM round trip, beyond the allocation counted", test_slm },
    { "A64 untyped read, dword/byte scattered, OWord block", test_a64_scattered_block },
    { "one L3 request per line, reply after the L3", test_l3_lines },
    { "functional mode: no L3 lines, reply after latency", test_functional_mode },
    { "unknown and malformed messages", test_bad_messages },
    { "typed read/write on 2D surfaces, format conversion", test_typed_2d },
    { "typed write merges one channel of a packed format", test_typed_packed_format },
    { "random messages: no crash, one reply each", test_random_messages },
    { "scratch block write and read", test_scratch },
    { "constant cache path (SFID 9)", test_constant_cache },
    { "which port and generation takes which message", test_ports_and_generations },
    { 0 }
};
TEST_SUITE(dataport, cases);
