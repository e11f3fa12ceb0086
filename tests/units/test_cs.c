/* tests/units/test_cs.c - the command streamer.
 *
 * Part 1: every capture in tests/data/traces runs through host + CS; the
 * commands the CS executes, batch by batch, are the ones Mesa's aubinator
 * decoded (tests/data/traces/NAME.batch.NN.cmds, written from aubinator's text
 * by expected.sh), and the fields it prints for 3DSTATE_VS, 3DSTATE_PS,
 * 3DPRIMITIVE, GPGPU_WALKER and STATE_BASE_ADDRESS are aubinator's
 * (NAME.batch.NN.fields.gz).
 *
 * Part 2: MI semantics on a Gen8 machine built by hand: GGTT, a context image,
 * a 4-level PPGTT, ELSP submission. Command encodings are written here from
 * the PRM tables (seed 004 MI command pages, seed 003 L1321-1528 for the ALU),
 * not taken from the spec data; expected memory contents follow from the
 * seeds' definitions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "tests/support/probes.h"
#include "spec/spec.h"
#include "tests/test.h"
#include "units/cs/cs.h"
#include "units/host/host.h"
#include "units/sol/sol.h"
#include "units/registry.h"

/* ---- part 1: the captures --------------------------------------------------- */

struct batch {
    uint64_t base;
    uint64_t bytes;
    char cmds[256];
    char fields[256];
};

static int read_batches(const char *trace, struct batch *b, int max)
{
    char path[256], line[512];
    snprintf(path, sizeof path, "tests/data/traces/%s.batches.txt", trace);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        unsigned num;
        unsigned long long base, dwords;
        char file[200];
        if (sscanf(line, " batch %u @ 0x%llx: %llu dwords -> %199s", &num, &base, &dwords, file)
            != 4)
            continue;
        b[n].base = base;
        b[n].bytes = dwords * 4;
        snprintf(b[n].cmds, sizeof b[n].cmds, "tests/data/traces/%.*s.cmds",
                 (int)(strlen(file) - 4), file);
        snprintf(b[n].fields, sizeof b[n].fields, "tests/data/traces/%.*s.fields.gz",
                 (int)(strlen(file) - 4), file);
        n++;
    }
    fclose(f);
    return n;
}

/* One executed command as the CS printed it. */
struct printed {
    uint64_t address;
    char name[96];
    char *fields;       /* "Name: value\n" lines */
};

static size_t parse_print(const char *path, struct printed **out)
{
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t n = 0, cap = 256;
    struct printed *p = calloc(cap, sizeof *p);
    char line[1024];
    size_t flen = 0, fcap = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long address;
        unsigned header;
        char name[96];
        if (line[0] == '0' && line[1] == 'x') {
            char *colon = strstr(line, ":  0x");
            if (!colon || sscanf(line, "0x%llx", &address) != 1 ||
                sscanf(colon, ":  0x%x:  %95s", &header, name) != 2)
                continue;
            if (n == cap)
                p = realloc(p, (cap *= 2) * sizeof *p);
            p[n].address = address;
            snprintf(p[n].name, sizeof p[n].name, "%s", name);
            p[n].fields = NULL;
            n++;
            flen = fcap = 0;
        } else if (n && strncmp(line, "    ", 4) == 0) {
            size_t l = strlen(line + 4);
            if (flen + l + 1 > fcap) {
                fcap = 2 * (flen + l + 1);
                p[n - 1].fields = realloc(p[n - 1].fields, fcap);
            }
            memcpy(p[n - 1].fields + flen, line + 4, l + 1);
            flen += l;
        }
    }
    fclose(f);
    *out = p;
    return n;
}

/* The aubinator fields block of the command at `offset` in a .fields.gz. */
static char *expected_fields(const char *path, uint64_t offset)
{
    gzFile g = gzopen(path, "r");
    if (!g)
        return NULL;
    char line[1024], *out = NULL;
    size_t len = 0;
    bool in = false;
    while (gzgets(g, line, sizeof line)) {
        if (line[0] == '@') {
            if (in)
                break;
            in = strtoull(line + 1, NULL, 10) == offset;
            continue;
        }
        if (!in)
            continue;
        size_t l = strlen(line);
        out = realloc(out, len + l + 1);
        memcpy(out + len, line, l + 1);
        len += l;
    }
    gzclose(g);
    return out;
}

/* Every line of `want` appears in `got`, in order. */
static bool lines_in_order(const char *want, const char *got)
{
    const char *at = got ? got : "";
    for (const char *w = want; *w;) {
        const char *end = strchr(w, '\n');
        size_t l = end ? (size_t)(end - w + 1) : strlen(w);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)l, w);
        const char *found = strstr(at, line);
        if (!found) {
            fprintf(stderr, "\n  missing field line: %s", line);
            return false;
        }
        at = found + l;
        w += l;
    }
    return true;
}

static const char *const checked_fields[] = { "3DSTATE_VS", "3DSTATE_PS", "3DPRIMITIVE",
                                              "GPGPU_WALKER", "STATE_BASE_ADDRESS", NULL };

static void check_trace(const char *trace)
{
    struct batch batches[8];
    int nb = read_batches(trace, batches, 8);
    CU_ASSERT_TRUE_FATAL(nb > 0);
    char print_path[512], aub[256], set[600];
    snprintf(print_path, sizeof print_path, "%s/%s.print", test_temp_dir(), trace);
    snprintf(aub, sizeof aub, "tests/data/traces/%s.aub.gz", trace);
    snprintf(set, sizeof set, "print_commands=%s", print_path);

    /* Each capture names its device; the CS must model that generation. */
    int gen = trace[0] == 's' ? 9 : trace[0] == 'b' && trace[1] == 'd' ? 8
            : trace[0] == 'b' ? 7 : 4;
    char gen_set[16], workload[300];
    snprintf(gen_set, sizeof gen_set, "gen=%d", gen);
    snprintf(workload, sizeof workload, "workload=%s", aub);
    struct sim *sim = probe_sim(NULL);
    struct gt_error err;
    probe_memory(sim);
    const char *host_over[] = { workload, NULL };
    const char *cs_over[] = { gen_set, set, NULL };
    struct unit *host = probe_add(sim, &host_ops, "host", host_over);
    struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", cs_over);
    struct unit *pipe3d = probe_add(sim, &probe_sink_ops, "pipe3d", NULL);
    struct unit *media = probe_add(sim, &probe_sink_ops, "media", NULL);
    probe_link(sim, host, "gpu", cs, "host", 1, 64, 1);
    probe_link(sim, cs, "host_reply", host, "gpu_reply", 1, 4, 1);
    probe_link(sim, cs, "vf", pipe3d, "in", 1, 4, 1);
    probe_link(sim, cs, "vfe", media, "in", 1, 4, 1);
    int rc = sim_realize(sim, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", trace, err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(sim_run(sim, 0), SIM_STOP_QUIESCENT);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.unknown_commands"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.hangs"), 0);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.batches"), nb);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.submissions"), nb);
    CU_ASSERT_EQUAL(probe_stat(sim, "host.faults"), 0);
    /* state packets carry the context's address space: the execlist captures
     * (Gen8/9) run through their 4-level PPGTT, the ring captures the GTT */
    struct probe_sink *got = unit_state(pipe3d);
    CU_ASSERT_TRUE(got->received > 0);
    CU_ASSERT_EQUAL(got->space_format, gen >= 8 ? GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL
                                      : gen == 7 ? GPU_ADDRESS_SPACE_GTT_GEN6
                                                 : GPU_ADDRESS_SPACE_GTT_GEN4);
    sim_destroy(sim);       /* flushes the print file */

    struct printed *p;
    size_t n = parse_print(print_path, &p);
    size_t next = 0;
    unsigned checked = 0;
    for (int b = 0; b < nb; b++) {
        FILE *f = fopen(batches[b].cmds, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        /* the ring's commands come before the batch: skip to its start */
        while (next < n && (p[next].address & 0xFFFFFFFFFFFFull) != batches[b].base)
            next++;
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned long long offset;
            char name[96];
            if (sscanf(line, "%llu %95s", &offset, name) != 2)
                continue;
            CU_ASSERT_TRUE_FATAL(next < n);
            uint64_t at = (p[next].address & 0xFFFFFFFFFFFFull) - batches[b].base;
            if (at != offset * 4 || strcmp(p[next].name, name) != 0)
                fprintf(stderr, "\n%s batch %d: expected %s at dword %llu, got %s at byte %" PRIu64,
                        trace, b, name, offset, p[next].name, at);
            CU_ASSERT_EQUAL(at, offset * 4);
            CU_ASSERT_STRING_EQUAL(p[next].name, name);
            for (const char *const *c = checked_fields; *c; c++)
                if (strcmp(name, *c) == 0) {
                    char *want = expected_fields(batches[b].fields, offset);
                    CU_ASSERT_PTR_NOT_NULL(want);
                    if (want)
                        CU_ASSERT_TRUE(lines_in_order(want, p[next].fields));
                    free(want);
                    checked++;
                }
            next++;
        }
        fclose(f);
    }
    for (size_t i = 0; i < n; i++)
        free(p[i].fields);
    free(p);
    /* every trace has some of the five */
    CU_ASSERT_TRUE(checked > 0);
}

static void test_skl_compute(void) { check_trace("skl_compute"); }
static void test_skl_tri(void) { check_trace("skl_tri"); }
static void test_bdw_compute(void) { check_trace("bdw_compute"); }
static void test_bdw_tri(void) { check_trace("bdw_tri"); }
static void test_byt_compute(void) { check_trace("byt_compute"); }
static void test_byt_tri(void) { check_trace("byt_tri"); }
static void test_g965_tri(void) { check_trace("g965_tri"); }

/* ---- part 2: MI semantics on a hand-built Gen8 machine ----------------------- */

/* Physical layout of the machine built below. */
#define GGTT_PHYS_BASE 0x100000ull   /* GGTT page i -> physical 0x100000 + i * 4 KiB */
#define RING_GGTT 0x1000ull
#define LRCA_GGTT 0x2000ull
#define SCRATCH_GGTT 0x20000ull      /* results land here */
#define PML4_PHYS 0x80000ull
#define BATCH_VA 0x400000ull         /* PPGTT: PML4[0] -> PDP[0] -> PD[2] -> PT[0..] */
#define BATCH_PHYS 0x300000ull

struct machine8 {
    struct sim *sim;
    struct unit *cs;
    struct gpu_memory *mem;
    struct gpu_address_space ggtt;
    uint32_t batch[4096];
    uint32_t n;
};

static void emit(struct machine8 *m, uint32_t dw) { m->batch[m->n++] = dw; }

static void w64(struct gpu_memory *mem, uint64_t phys, uint64_t v)
{
    CU_ASSERT_EQUAL(gpu_memory_write(mem, phys, &v, 8, NULL), 0);
}

static void mmio(struct machine8 *m, uint32_t offset, uint32_t value)
{
    struct msg *msg = msg_alloc(m->sim, MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)msg->payload;
    c->op = CS_MMIO_WRITE;
    c->offset = offset;
    c->value = value;
    CU_ASSERT_TRUE(port_inject(unit_port(m->cs, "host", 0), msg));
}

static void mmio(struct machine8 *m, uint32_t offset, uint32_t value);

static void machine8_init_ex(struct machine8 *m, const char *const *cs_over,
                             void (*extra)(struct machine8 *m));

static void machine8_init(struct machine8 *m, const char *const *cs_over)
{
    machine8_init_ex(m, cs_over, NULL);
}

static void machine8_init_ex(struct machine8 *m, const char *const *cs_over,
                             void (*extra)(struct machine8 *m))
{
    memset(m, 0, sizeof *m);
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    m->sim = probe_sim(&o);
    struct gt_error err;
    m->mem = probe_memory(m->sim);
    const char *def[] = { "gen=8", NULL };
    m->cs = probe_add(m->sim, unit_kind_find("cs"), "cs", cs_over ? cs_over : def);
    /* GGTT: 64-bit PTEs, present bit 0 (aub-format §3.1) */
    for (uint64_t i = 0; i < 64; i++) {
        uint64_t pte = (GGTT_PHYS_BASE + i * 4096) | 1;
        gpu_memory_gtt_entries_write(m->mem, i * 8, &pte, 8, NULL);
    }
    gpu_address_space_init(&m->ggtt, m->mem, GPU_ADDRESS_SPACE_GGTT_GEN8, 0);
    /* PPGTT: 4 levels, 9 bits each (aub-format §3.2); BATCH_VA = PD index 2 */
    w64(m->mem, PML4_PHYS, (PML4_PHYS + 0x1000) | 1);
    w64(m->mem, PML4_PHYS + 0x1000, (PML4_PHYS + 0x2000) | 1);
    w64(m->mem, PML4_PHYS + 0x2000 + 2 * 8, (PML4_PHYS + 0x3000) | 1);
    for (uint64_t i = 0; i < 8; i++)
        w64(m->mem, PML4_PHYS + 0x3000 + i * 8, (BATCH_PHYS + i * 4096) | 1);
    /* the CS is driven alone, through the backdoor on its host port: the
     * first injection makes that channel, so realize finds the port bound */
    mmio(m, 0x2094, 0);
    if (extra)
        extra(m);
    CU_ASSERT_EQUAL_FATAL(sim_realize(m->sim, &err), 0);
}

/* Writes the batch, a ring calling it, the context image, and submits. */
static void machine8_run(struct machine8 *m, bool ppgtt_batch)
{
    emit(m, 0x05000000);                        /* MI_BATCH_BUFFER_END */
    uint64_t batch = ppgtt_batch ? BATCH_VA : SCRATCH_GGTT + 0x8000;
    struct gpu_address_space pp;
    gpu_address_space_init(&pp, m->mem, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL, PML4_PHYS);
    CU_ASSERT_EQUAL(gpu_address_space_write(ppgtt_batch ? &pp : &m->ggtt, batch, m->batch,
                                            4ull * m->n, NULL), 0);
    /* ring: MI_BATCH_BUFFER_START (Gen8: 3 dwords, bit 8 = PPGTT), MI_NOOP */
    uint32_t ring[4] = { 0x18800001u | (ppgtt_batch ? 1u << 8 : 0), (uint32_t)batch,
                         (uint32_t)(batch >> 32), 0 };
    gpu_address_space_write(&m->ggtt, RING_GGTT, ring, sizeof ring, NULL);
    /* context image at LRCA + 4 KiB: an LRI list (003 L1835-1866) */
    uint32_t image[] = {
        0x00000000, 0x11000000 | (2 * 6 - 1),
        0x2034, 0,                              /* RING_HEAD */
        0x2030, 16,                             /* RING_TAIL */
        0x2038, (uint32_t)RING_GGTT,            /* RING_START */
        0x203C, 1,                              /* RING_CTL: enabled, one page */
        0x2274, (uint32_t)(PML4_PHYS >> 32),    /* PDP0_UDW */
        0x2270, (uint32_t)PML4_PHYS,            /* PDP0_LDW */
        0x05000000,
    };
    gpu_address_space_write(&m->ggtt, LRCA_GGTT + 0x1000, image, sizeof image, NULL);
    /* ELSP: element 1 high, low, element 0 high, low; descriptor = LRCA |
     * valid | 4-level addressing (bits 4:3 = 3) (aub-format §4.4) */
    mmio(m, 0x2230, 0);
    mmio(m, 0x2230, 0);
    mmio(m, 0x2230, 0);
    mmio(m, 0x2230, (uint32_t)LRCA_GGTT | 0x19);
    sim_run(m->sim, 0);
}

static uint32_t read32(struct machine8 *m, uint64_t ggtt)
{
    uint32_t v = 0xDEADBEEF;
    gpu_address_space_read(&m->ggtt, ggtt, &v, 4, NULL);
    return v;
}

static void machine8_done(struct machine8 *m)
{
    sim_destroy(m->sim);
}

/* MI_STORE_DATA_IMM (Gen8, 004 MI pages): DW0 opcode 0x20, bit 22 GGTT,
 * length 2 for one dword; DW1-2 address; DW3 data. */
static void sdi(struct machine8 *m, uint64_t ggtt, uint32_t value)
{
    emit(m, (0x20u << 23) | (1u << 22) | 2);
    emit(m, (uint32_t)ggtt);
    emit(m, (uint32_t)(ggtt >> 32));
    emit(m, value);
}

/* MI_LOAD_REGISTER_IMM: opcode 0x22, length 2n-1; offset, value pairs. */
static void lri(struct machine8 *m, uint32_t reg, uint32_t value)
{
    emit(m, (0x22u << 23) | 1);
    emit(m, reg);
    emit(m, value);
}

/* MI_STORE_REGISTER_MEM (Gen8): opcode 0x24, bit 22 GGTT, length 2. */
static void srm(struct machine8 *m, uint32_t reg, uint64_t ggtt, bool predicated)
{
    emit(m, (0x24u << 23) | (1u << 22) | (predicated ? 1u << 21 : 0) | 2);
    emit(m, reg);
    emit(m, (uint32_t)ggtt);
    emit(m, (uint32_t)(ggtt >> 32));
}

static void test_execlist_ppgtt_batch_stores(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    sdi(&m, SCRATCH_GGTT, 0x12345678);
    lri(&m, 0x2600, 0xCAFEF00D);                /* CS_GPR0 low */
    srm(&m, 0x2600, SCRATCH_GGTT + 4, false);
    /* MI_LOAD_REGISTER_REG (opcode 0x2A, length 1): GPR0 -> GPR1 */
    emit(&m, (0x2Au << 23) | 1);
    emit(&m, 0x2600);
    emit(&m, 0x2608);
    srm(&m, 0x2608, SCRATCH_GGTT + 8, false);
    /* the batch is PPGTT (non-privileged): Use Global GTT is a violation.
     * So this test runs the batch from the GGTT instead (privileged). */
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0x12345678);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 0xCAFEF00D);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 0xCAFEF00D);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.submissions"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.hangs"), 0);
    /* context save wrote the final head back into the image: 16 bytes */
    CU_ASSERT_EQUAL(read32(&m, LRCA_GGTT + 0x1000 + 4 * 3), 16);
    machine8_done(&m);
}

static void test_nonprivileged_batch_cannot_use_the_ggtt(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    sdi(&m, SCRATCH_GGTT, 0x11111111);          /* GGTT store from a PPGTT batch */
    machine8_run(&m, true);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.privilege_violations"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.batches"), 1);
    machine8_done(&m);
}

/* MI_MATH (opcode 0x1A, length = instructions - 1) with the ALU encodings of
 * seed 003 L1480-1528: GPR2 = GPR0 + GPR1, GPR3 = GPR0 - GPR1 (borrow), ZF. */
static uint32_t alu(uint32_t op, uint32_t a, uint32_t b) { return op << 20 | a << 10 | b; }

static void test_mi_math(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    lri(&m, 0x2600, 0xFFFFFFFF);                /* R0 = 0x00000000_FFFFFFFF */
    lri(&m, 0x2604, 0);
    lri(&m, 0x2608, 1);                         /* R1 = 1 */
    lri(&m, 0x260C, 0);
    emit(&m, (0x1Au << 23) | (8 - 1));
    emit(&m, alu(0x080, 0x20, 0x0));            /* LOAD SRCA, R0 */
    emit(&m, alu(0x080, 0x21, 0x1));            /* LOAD SRCB, R1 */
    emit(&m, alu(0x100, 0, 0));                 /* ADD */
    emit(&m, alu(0x180, 0x2, 0x31));            /* STORE R2, ACCU */
    emit(&m, alu(0x081, 0x20, 0));              /* LOAD0 SRCA */
    emit(&m, alu(0x101, 0, 0));                 /* SUB: 0 - 1 */
    emit(&m, alu(0x180, 0x3, 0x31));            /* STORE R3, ACCU */
    emit(&m, alu(0x580, 0x4, 0x32));            /* STOREINV R4, ZF (result nonzero: ZF 0) */
    srm(&m, 0x2610, SCRATCH_GGTT, false);       /* R2 low, high */
    srm(&m, 0x2614, SCRATCH_GGTT + 4, false);
    srm(&m, 0x2618, SCRATCH_GGTT + 8, false);   /* R3 low, high */
    srm(&m, 0x261C, SCRATCH_GGTT + 12, false);
    srm(&m, 0x2620, SCRATCH_GGTT + 16, false);  /* R4 low */
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0);               /* 0xFFFFFFFF + 1 */
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 1);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 0xFFFFFFFF);  /* 0 - 1 */
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 12), 0xFFFFFFFF);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 16), 0xFFFFFFFF); /* ~ZF, ZF = 0 replicated */
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.mi_math_instructions"), 8);
    machine8_done(&m);
}

/* MI_PREDICATE (004 L21115-21157; opcode 0x0C): SRCS_EQUAL with LOAD sets the
 * predicate when SRC0 == SRC1; a predicated MI_STORE_REGISTER_MEM (Gen8 bit
 * 21) runs only then. */
static void test_mi_predicate(void)
{
    for (int equal = 0; equal < 2; equal++) {
        struct machine8 m;
        machine8_init(&m, NULL);
        lri(&m, 0x2400, 7);                     /* MI_PREDICATE_SRC0 */
        lri(&m, 0x2408, equal ? 7 : 8);         /* MI_PREDICATE_SRC1 */
        emit(&m, (0x0Cu << 23) | (2u << 6) | (0u << 3) | 2u);   /* LOAD, SET, SRCS_EQUAL */
        lri(&m, 0x2600, 0xABCD);
        srm(&m, 0x2600, SCRATCH_GGTT, true);
        srm(&m, 0x2418, SCRATCH_GGTT + 4, false);   /* MI_PREDICATE_RESULT */
        srm(&m, 0x2410, SCRATCH_GGTT + 8, false);   /* MI_PREDICATE_DATA = SRC0 - SRC1 */
        machine8_run(&m, false);
        CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), equal ? 0xABCDu : 0u);
        CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), (uint32_t)equal);
        CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), equal ? 0u : 0xFFFFFFFFu);
        machine8_done(&m);
    }
}

/* PIPE_CONTROL (Gen8, 6 dwords, 0x7A000004): post-sync 1 writes the immediate
 * qword; 3 writes the timestamp (004 notes §3, DW1 15:14; bit 24 GGTT). */
static void test_pipe_control_post_sync(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    emit(&m, 0x7A000004);
    emit(&m, (1u << 14) | (1u << 24));
    emit(&m, (uint32_t)SCRATCH_GGTT);
    emit(&m, 0);
    emit(&m, 0x89ABCDEF);
    emit(&m, 0x01234567);
    emit(&m, 0x7A000004);
    emit(&m, (3u << 14) | (1u << 24));
    emit(&m, (uint32_t)SCRATCH_GGTT + 8);
    emit(&m, 0);
    emit(&m, 0);
    emit(&m, 0);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0x89ABCDEF);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 0x01234567);
    /* the timestamp counts at timestamp_hz (12 MHz by default) from time 0:
     * a few cycles of a 1 GHz clock in, it is still below 1 */
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 0);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.post_sync_writes"), 2);
    machine8_done(&m);
}

/* Batch levels (004 L19372-19588): a second-level call returns after the
 * call; chaining replaces the first level; MI_CONDITIONAL_BATCH_BUFFER_END
 * ends the batch unless memory holds more than the compare data. */
static void test_batch_levels(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    uint64_t second = SCRATCH_GGTT + 0x4000, chained = SCRATCH_GGTT + 0x5000;
    uint32_t second_body[] = { (0x20u << 23) | (1u << 22) | 2, (uint32_t)SCRATCH_GGTT + 4, 0, 2,
                               0x05000000 };
    uint32_t chained_body[] = {
        (0x20u << 23) | (1u << 22) | 2, (uint32_t)SCRATCH_GGTT + 12, 0, 4,
        /* conditional end: memory (0) is not > 0: the batch ends here */
        (0x36u << 23) | (1u << 22) | (1u << 21) | 2, 0, (uint32_t)SCRATCH_GGTT + 0x100, 0,
        (0x20u << 23) | (1u << 22) | 2, (uint32_t)SCRATCH_GGTT + 16, 0, 5,
        0x05000000 };
    gpu_address_space_write(&m.ggtt, second, second_body, sizeof second_body, NULL);
    gpu_address_space_write(&m.ggtt, chained, chained_body, sizeof chained_body, NULL);
    sdi(&m, SCRATCH_GGTT, 1);
    emit(&m, 0x18800001u | (1u << 22));         /* second-level call */
    emit(&m, (uint32_t)second);
    emit(&m, 0);
    sdi(&m, SCRATCH_GGTT + 8, 3);               /* runs after the return */
    emit(&m, 0x18800001u);                      /* chain */
    emit(&m, (uint32_t)chained);
    emit(&m, 0);
    sdi(&m, SCRATCH_GGTT + 20, 6);              /* never: chaining does not return */
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 1);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 2);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 3);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 12), 4);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 16), 0);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 20), 0);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.second_level_batches"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.chained_batches"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.submissions"), 1);
    machine8_done(&m);
}

/* Bad programming: an unknown GFXPIPE command is skipped by its length; a
 * dword whose length does not decode, a fetch that faults, and a batch that
 * chains to itself forever stop the ring with a hang, never a crash. */
static void test_bad_programming(void)
{
    struct machine8 m;
    machine8_init(&m, NULL);
    emit(&m, 0x7FFF0001);       /* GFXPIPE, opcode 7 sub 0xFF: no such command; 3 dwords */
    emit(&m, 0xAAAAAAAA);
    emit(&m, 0xBBBBBBBB);
    sdi(&m, SCRATCH_GGTT, 9);   /* still runs */
    emit(&m, 0xE0000000);       /* command type 7: no length */
    sdi(&m, SCRATCH_GGTT + 4, 10);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 9);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 0);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.unknown_commands"), 2);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.hangs"), 1);
    machine8_done(&m);

    machine8_init(&m, NULL);
    emit(&m, 0x18800001u);                      /* chain to unmapped memory */
    emit(&m, 0x7FFF0000);
    emit(&m, 0);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.hangs"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.submissions"), 0);
    machine8_done(&m);

    const char *limited[] = { "gen=8", "max_commands=1000", NULL };
    machine8_init(&m, limited);
    emit(&m, 0x18800001u);                      /* chain to itself */
    emit(&m, (uint32_t)(SCRATCH_GGTT + 0x8000));
    emit(&m, 0);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.hangs"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.commands"), 1000);
    machine8_done(&m);
}

/* Gen7 legacy ring from registers (aub-format §5.4): RING_START, RING_CTL
 * (bit 0 enable, 20:12 pages - 1), RING_HEAD, then a RING_TAIL write starts
 * the ring. GTT PTEs in the Gen6/7 format (bit 0 valid, 31:12 address). The
 * ring holds Gen7 MI_STORE_DATA_IMM (opcode 0x20, bit 22 GTT, length 2:
 * DW1 0, DW2 address, DW3 data; seed 000). */
static void test_legacy_ring_from_registers(void)
{
    struct sim_options o = { .watchdog_cycles = 100000, .log_level = -1 };
    struct sim *sim = probe_sim(&o);
    struct gt_error err;
    struct gpu_memory *mem = probe_memory(sim);
    const char *over[] = { "gen=7", NULL };
    struct unit *cs = probe_add(sim, unit_kind_find("cs"), "cs", over);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t pte = (uint32_t)(GGTT_PHYS_BASE + i * 4096) | 1;
        gpu_memory_gtt_entries_write(mem, 4ull * i, &pte, 4, NULL);
    }
    struct gpu_address_space gtt;
    gpu_address_space_init(&gtt, mem, GPU_ADDRESS_SPACE_GTT_GEN6, 0);
    uint32_t ring[8] = { (0x20u << 23) | (1u << 22) | 2, 0, (uint32_t)SCRATCH_GGTT, 0x600D,
                         (0x20u << 23) | (1u << 22) | 2, 0, (uint32_t)SCRATCH_GGTT + 4, 0x7777 };
    gpu_address_space_write(&gtt, RING_GGTT, ring, sizeof ring, NULL);
    struct machine8 m = { .sim = sim, .cs = cs, .mem = mem };
    mmio(&m, 0x2038, (uint32_t)RING_GGTT);      /* RING_START */
    mmio(&m, 0x203C, 1);                        /* RING_CTL: enabled, 4 KiB */
    mmio(&m, 0x2034, 0);                        /* RING_HEAD */
    mmio(&m, 0x2030, 16);                       /* RING_TAIL: only the first store */
    CU_ASSERT_EQUAL_FATAL(sim_realize(sim, &err), 0);
    sim_run(sim, 0);
    uint32_t got[2] = { 0, 0 };
    gpu_address_space_read(&gtt, SCRATCH_GGTT, got, 8, NULL);
    CU_ASSERT_EQUAL(got[0], 0x600D);
    CU_ASSERT_EQUAL(got[1], 0);                 /* beyond the tail */
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.submissions"), 1);
    mmio(&m, 0x2030, 32);                       /* move the tail on: the second store */
    sim_run(sim, 0);
    gpu_address_space_read(&gtt, SCRATCH_GGTT, got, 8, NULL);
    CU_ASSERT_EQUAL(got[1], 0x7777);
    CU_ASSERT_EQUAL(probe_stat(sim, "cs.submissions"), 2);
    sim_destroy(sim);
}

/* Garbage in: batches of random dwords (some commands valid by chance) end
 * with the ring finished or stopped as hung, never a crash, a stuck run or a
 * memory error (the suite also runs under ASan and UBSan). */
static void test_random_batches_never_crash(void)
{
    uint64_t x = 0x9E3779B97F4A7C15ull;
    const char *limited[] = { "gen=8", "max_commands=5000", "max_reports=0", NULL };
    for (int round = 0; round < 200; round++) {
        struct machine8 m;
        machine8_init(&m, limited);
        for (int i = 0; i < 64; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint32_t dw = (uint32_t)x;
            /* bias towards MI and GFXPIPE headers so commands are exercised */
            if (i % 4 == 0)
                dw = (dw & 0x1FFFFFFF) | ((x >> 40) & 1 ? 0x60000000u : 0);
            emit(&m, dw);
        }
        machine8_run(&m, round & 1);
        CU_ASSERT_EQUAL(sim_stop_reason(m.sim), SIM_STOP_QUIESCENT);
        CU_ASSERT_TRUE(probe_stat(m.sim, "cs.submissions") + probe_stat(m.sim, "cs.hangs") >= 1);
        machine8_done(&m);
    }
}

/* ---- what the CS sends down "vfe" and "l3" ----------------------------------- */

/* Records each message (cycle, kind, MMIO op and value); answers a
 * CS_MMIO_SYNC with CS_MMIO_SYNC_DONE on "out" `delay` cycles later, as the
 * GPGPU front end does once its threads have ended. */
struct recorder {
    uint32_t delay;
    struct port *in, *out;
    uint32_t count;
    uint64_t cycle[64];
    uint32_t kind[64], op[64], value[64];
    uint32_t id[64], gen[64], dwords[64];   /* MSG_STATE: the packet's id, gen, dword count */
    uint32_t walker_dims[3];                /* the last GPGPU_WALKER's superset dimensions */
    uint32_t walker_raw_x;                  /* ... and its raw X dimension dword */
    uint64_t reply_at;              /* 0: no reply owed */
    uint64_t replied_cycle;
};

static const struct param_desc recorder_params[] = {
    PARAM_U32_FIELD("delay", struct recorder, delay, 500, 1, 100000, "sync reply delay"),
    PARAM_END
};

static const struct port_desc recorder_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "sync replies" },
    PORT_END
};

static int recorder_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct recorder *r = unit_state(u);
    r->in = unit_port(u, "in", 0);
    r->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity recorder_tick(struct unit *u)
{
    struct recorder *r = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while ((m = port_pop(r->in)) != NULL) {
        if (r->count < 64) {
            r->cycle[r->count] = now;
            r->kind[r->count] = m->kind;
            if (m->kind == MSG_MMIO) {
                const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
                r->op[r->count] = c->op;
                r->value[r->count] = c->value;
                if (c->op == CS_MMIO_SYNC)
                    r->reply_at = now + r->delay;
            }
            if (m->kind == MSG_STATE) {
                const struct cs_state_packet *p = (const struct cs_state_packet *)m->payload;
                r->id[r->count] = p->id;
                r->gen[r->count] = p->gen;
                r->dwords[r->count] = p->dword_count;
                if (p->id == SPEC_ID_GPGPU_WALKER) {
                    const struct spec_GPGPU_WALKER *w = cs_state_common(p);
                    r->walker_dims[0] = w->ThreadGroupIDXDimension;
                    r->walker_dims[1] = w->ThreadGroupIDYDimension;
                    r->walker_dims[2] = w->ThreadGroupIDZDimension;
                    r->walker_raw_x = p->dwords[7];     /* Gen8 DW7: X dimension */
                }
            }
            r->count++;
        }
        msg_free(unit_sim(u), m);
    }
    if (r->reply_at && now >= r->reply_at && port_can_send(r->out)) {
        struct msg *d = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC_DONE;
        port_try_send(r->out, d);
        r->replied_cycle = now;
        r->reply_at = 0;
    } else if (r->reply_at) {
        unit_wake_at(u, r->reply_at > now ? r->reply_at : now + 1);
    }
    return UNIT_IDLE;
}

static const struct unit_ops recorder_ops = {
    .kind = "test_recorder", .help = "test: records messages, answers syncs",
    .state_size = sizeof(struct recorder), .params = recorder_params, .ports = recorder_ports,
    .realize = recorder_realize, .tick = recorder_tick,
};

static void add_fake_vfe(struct machine8 *m)
{
    struct unit *v = probe_add(m->sim, &recorder_ops, "vfe", NULL);
    probe_link(m->sim, m->cs, "vfe", v, "in", 1, 4, 1);
    probe_link(m->sim, v, "out", m->cs, "vfe_drained", 1, 4, 1);
}

static void add_fake_pipes(struct machine8 *m)
{
    add_fake_vfe(m);
    struct unit *v = probe_add(m->sim, &recorder_ops, "vf", NULL);
    probe_link(m->sim, m->cs, "vf", v, "in", 1, 4, 1);
}

static void add_fake_l3s(struct machine8 *m)
{
    struct unit *a = probe_add(m->sim, &recorder_ops, "l3a", NULL);
    struct unit *b = probe_add(m->sim, &recorder_ops, "l3b", NULL);
    probe_link(m->sim, m->cs, "l3[0]", a, "in", 1, 1, 1);
    probe_link(m->sim, m->cs, "l3[1]", b, "in", 1, 1, 1);
}

static struct recorder *recorder_of(struct machine8 *m, const char *name)
{
    for (uint32_t i = 0; i < sim_unit_count(m->sim); i++)
        if (strcmp(unit_name(sim_unit(m->sim, i)), name) == 0)
            return unit_state(sim_unit(m->sim, i));
    return NULL;
}

/* PIPE_CONTROL (Gen8: 6 dwords, opcode 0x7A000004); DW1 bit 20 is Command
 * Streamer Stall Enable, bit 1 Stall At Pixel Scoreboard (003 notes §5.4). */
static void pipe_control(struct machine8 *m, uint32_t dw1)
{
    emit(m, 0x7A000004);
    emit(m, dw1);
    for (int i = 0; i < 4; i++)
        emit(m, 0);
}

/* A CS Stall waits until the GPGPU front end says its work has drained: the
 * next command reaches the front end only after the drain reply (the front
 * end answers 500 cycles after the sync); without the stall bit it follows
 * at once. */
static void test_cs_stall_waits_for_gpgpu_drain(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_fake_vfe);
    pipe_control(&m, 1u << 20);
    pipe_control(&m, 1u << 1);
    machine8_run(&m, false);
    struct recorder *v = recorder_of(&m, "vfe");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    /* PIPE_CONTROL packet, the sync, the second PIPE_CONTROL packet */
    CU_ASSERT_EQUAL_FATAL(v->count, 3);
    CU_ASSERT_EQUAL(v->kind[0], MSG_STATE);
    CU_ASSERT_EQUAL(v->kind[1], MSG_MMIO);
    CU_ASSERT_EQUAL(v->op[1], CS_MMIO_SYNC);
    CU_ASSERT_EQUAL(v->kind[2], MSG_STATE);
    CU_ASSERT_EQUAL(v->replied_cycle, v->cycle[1] + 500);
    CU_ASSERT_TRUE(v->cycle[2] > v->replied_cycle);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.cs_stalls"), 1);
    machine8_done(&m);

    machine8_init_ex(&m, NULL, add_fake_vfe);
    pipe_control(&m, 1u << 1);
    pipe_control(&m, 1u << 1);
    machine8_run(&m, false);
    v = recorder_of(&m, "vfe");
    CU_ASSERT_EQUAL_FATAL(v->count, 2);
    CU_ASSERT_TRUE(v->cycle[1] - v->cycle[0] < 10);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.cs_stalls"), 0);
    machine8_done(&m);
}

/* Every command the CS passes on goes down the pipeline(s) its PRM name gives,
 * as a packet naming it by id with its superset struct: STATE_BASE_ADDRESS to
 * both, 3DSTATE_DRAWING_RECTANGLE to the 3D pipeline, MEDIA_STATE_FLUSH and
 * GPGPU_WALKER to the media one; an indirect walker (DW0 bit 10) carries
 * GPGPU_DISPATCHDIMX/Y/Z (0x2500-0x2508, seed 003 L16947-16980) in its
 * superset dimensions, the raw dwords as fetched. */
static void test_state_packets_carry_ids(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_fake_pipes);
    lri(&m, 0x2500, 7);
    lri(&m, 0x2504, 3);
    lri(&m, 0x2508, 2);
    /* STATE_BASE_ADDRESS (Gen8: 16 dwords, 0x61010000 | 14, seed 004) */
    emit(&m, 0x61010000u | 14);
    for (int i = 0; i < 15; i++)
        emit(&m, 0);
    /* 3DSTATE_DRAWING_RECTANGLE (0x79000000 | 2: 4 dwords) */
    emit(&m, 0x79000002u);
    for (int i = 0; i < 3; i++)
        emit(&m, 0);
    /* GPGPU_WALKER (Gen8: 15 dwords, 0x71050000 | 13), Indirect Parameter
     * Enable; its own X/Y/Z dimensions (DW7, DW9, DW10) say 1 */
    emit(&m, 0x71050000u | (1u << 10) | 13);
    for (int i = 1; i < 15; i++)
        emit(&m, i == 7 || i == 9 || i == 10 ? 1 : 0);
    /* MEDIA_STATE_FLUSH (0x70040000 | 0: 2 dwords) */
    emit(&m, 0x70040000u);
    emit(&m, 0);
    machine8_run(&m, false);
    struct recorder *vfe = recorder_of(&m, "vfe"), *vf = recorder_of(&m, "vf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(vfe);
    CU_ASSERT_PTR_NOT_NULL_FATAL(vf);
    static const char *const want_vfe[] = { "STATE_BASE_ADDRESS", "GPGPU_WALKER",
                                            "MEDIA_STATE_FLUSH" };
    static const uint32_t vfe_dwords[] = { 16, 15, 2 };
    CU_ASSERT_EQUAL_FATAL(vfe->count, 3);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(vfe->kind[i], MSG_STATE);
        CU_ASSERT_STRING_EQUAL(spec_common_get((enum spec_id)vfe->id[i])->name, want_vfe[i]);
        CU_ASSERT_EQUAL(vfe->gen[i], 8);
        CU_ASSERT_EQUAL(vfe->dwords[i], vfe_dwords[i]);
    }
    CU_ASSERT_EQUAL(vfe->id[1], SPEC_ID_GPGPU_WALKER);
    CU_ASSERT_EQUAL(vfe->walker_dims[0], 7);
    CU_ASSERT_EQUAL(vfe->walker_dims[1], 3);
    CU_ASSERT_EQUAL(vfe->walker_dims[2], 2);
    CU_ASSERT_EQUAL(vfe->walker_raw_x, 1);
    CU_ASSERT_EQUAL_FATAL(vf->count, 2);
    CU_ASSERT_STRING_EQUAL(spec_common_get((enum spec_id)vf->id[0])->name, "STATE_BASE_ADDRESS");
    CU_ASSERT_STRING_EQUAL(spec_common_get((enum spec_id)vf->id[1])->name,
                           "3DSTATE_DRAWING_RECTANGLE");
    CU_ASSERT_EQUAL(vf->dwords[1], 4);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.state_packets"), 5);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.unknown_commands"), 0);
    machine8_done(&m);
}

/* An LRI of L3CNTLREG (0x7034) reaches every linked L3 with its value (the
 * skl_compute capture's SLM configuration, then the default 60000060h). */
static void test_l3cntlreg_write_goes_to_every_l3(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_fake_l3s);
    lri(&m, 0x7034, 0x60000021);
    lri(&m, 0x2600, 1);             /* another register: not sent */
    lri(&m, 0x7034, 0x60000060);
    machine8_run(&m, false);
    const char *names[] = { "l3a", "l3b" };
    for (int i = 0; i < 2; i++) {
        struct recorder *r = recorder_of(&m, names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL_FATAL(r->count, 2);
        CU_ASSERT_EQUAL(r->op[0], CS_MMIO_WRITE);
        CU_ASSERT_EQUAL(r->value[0], 0x60000021);
        CU_ASSERT_EQUAL(r->value[1], 0x60000060);
    }
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.l3_writes"), 2);
    machine8_done(&m);
}

/* ---- the 3D pipeline's registers in-band (units/common/mmio.h) -------------- */

/* Stands for the 3D pipeline on "vf": records what arrives, applies
 * CS_MMIO_WRITEs of SO_WRITE_OFFSET0 to its own copy, and answers a
 * CS_MMIO_SYNC `delay` cycles later on "out" with known values: IA_VERTICES
 * 0x1_00000007, SO_NUM_PRIMS_WRITTEN0 2, SO_WRITE_OFFSET0 = the offset written
 * + 120 (two triangles of 20-byte vertices streamed out meanwhile). */
#define STUB_IA_VERTICES 0x100000007ull
struct pipe_stub {
    struct port *in, *out;
    uint32_t count;
    uint32_t kind[64], op[64], offset[64], value[64];
    uint32_t sync_payload_bytes;
    uint64_t sync_gs_primitives;    /* the CS's copy it carried */
    uint32_t so_write_offset0;
    uint64_t reply_at;
    struct msg *reply;
};

static const struct port_desc pipe_stub_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "what the CS sends down vf" },
    { .name = "out", .direction = PORT_OUT, .flags = PORT_OPTIONAL, .help = "sync replies" },
    PORT_END
};

static int pipe_stub_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct pipe_stub *r = unit_state(u);
    r->in = unit_port(u, "in", 0);
    r->out = unit_port(u, "out", 0);
    return 0;
}

static enum unit_activity pipe_stub_tick(struct unit *u)
{
    struct pipe_stub *r = unit_state(u);
    uint64_t now = unit_cycle(u);
    struct msg *m;
    while ((m = port_pop(r->in)) != NULL) {
        uint32_t i = r->count < 64 ? r->count++ : 63;
        r->kind[i] = m->kind;
        if (m->kind == MSG_MMIO) {
            const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
            r->op[i] = c->op;
            r->offset[i] = c->offset;
            r->value[i] = c->value;
            if (c->op == CS_MMIO_WRITE && c->offset == 0x5280)
                r->so_write_offset0 = c->value;
            if (c->op == CS_MMIO_SYNC && !r->reply) {
                r->sync_payload_bytes = c->size;
                struct pipeline_registers regs;
                memcpy(&regs, c->data, sizeof regs);
                r->sync_gs_primitives = regs.value[PIPE_REG_GS_PRIMITIVES];
                regs.value[PIPE_REG_IA_VERTICES] = STUB_IA_VERTICES;
                regs.value[PIPE_REG_SO_NUM_PRIMS_WRITTEN0] = 2;
                regs.value[PIPE_REG_SO_WRITE_OFFSET0] = r->so_write_offset0 + 120;
                regs.written = 1ull << PIPE_REG_IA_VERTICES |
                               1ull << PIPE_REG_SO_NUM_PRIMS_WRITTEN0 |
                               1ull << PIPE_REG_SO_WRITE_OFFSET0;
                r->reply = msg_alloc(unit_sim(u), MSG_MMIO, m->size);
                memcpy(r->reply->payload, m->payload, m->size);
                struct cs_mmio *d = (struct cs_mmio *)r->reply->payload;
                d->op = CS_MMIO_SYNC_DONE;
                memcpy(d->data, &regs, sizeof regs);
                r->reply_at = now + 100;
            }
        }
        msg_free(unit_sim(u), m);
    }
    if (r->reply && now >= r->reply_at && port_try_send(r->out, r->reply)) {
        r->reply = NULL;
    } else if (r->reply) {
        unit_wake_at(u, r->reply_at > now ? r->reply_at : now + 1);
    }
    return UNIT_IDLE;
}

static void pipe_stub_destroy(struct unit *u)
{
    struct pipe_stub *r = unit_state(u);
    if (r->reply)
        msg_free(unit_sim(u), r->reply);
}

static const struct unit_ops pipe_stub_ops = {
    .kind = "test_pipe_stub", .help = "test: the 3D pipeline answering syncs",
    .state_size = sizeof(struct pipe_stub), .ports = pipe_stub_ports,
    .realize = pipe_stub_realize, .tick = pipe_stub_tick, .destroy = pipe_stub_destroy,
};

static void add_pipe_stub(struct machine8 *m)
{
    struct unit *v = probe_add(m->sim, &pipe_stub_ops, "pipe", NULL);
    probe_link(m->sim, m->cs, "vf", v, "in", 1, 4, 1);
    probe_link(m->sim, v, "out", m->cs, "pipe_drained", 1, 4, 1);
}

static void add_vf_recorder(struct machine8 *m)
{
    struct unit *v = probe_add(m->sim, &recorder_ops, "vf", NULL);
    probe_link(m->sim, m->cs, "vf", v, "in", 1, 4, 1);
}

/* The stream-out query's sequence (the skl_xfb capture: LRI of the write
 * offset, a stalling PIPE_CONTROL, then MI_STORE_REGISTER_MEM of the counters)
 * with "pipe_drained" linked: the register write goes down "vf" in order
 * (after the PIPE_CONTROL packet before it), the stall's sync carries the
 * CS's copies (GS_PRIMITIVES_COUNT as loaded) and waits for the reply, and
 * the stores read what the pipeline answered; a counter no stage wrote keeps
 * the CS's value. Before the stall a store reads the CS's own copy. */
static void test_pipeline_registers_in_band(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_pipe_stub);
    lri(&m, 0x2330, 5);                         /* GS_PRIMITIVES_COUNT low */
    lri(&m, 0x2334, 0);                         /* ... high */
    pipe_control(&m, 1u << 1);                  /* not stalling */
    lri(&m, 0x5280, 0x40);                      /* SO_WRITE_OFFSET0 */
    srm(&m, 0x5280, SCRATCH_GGTT + 0x40, false);    /* before the stall: the CS's copy */
    lri(&m, 0x2600, 9);                         /* a CS register: not sent */
    pipe_control(&m, 1u << 20);                 /* CS Stall */
    srm(&m, 0x2310, SCRATCH_GGTT, false);       /* IA_VERTICES_COUNT low, high */
    srm(&m, 0x2314, SCRATCH_GGTT + 4, false);
    srm(&m, 0x5200, SCRATCH_GGTT + 8, false);   /* SO_NUM_PRIMS_WRITTEN0 low, high */
    srm(&m, 0x5204, SCRATCH_GGTT + 12, false);
    srm(&m, 0x5280, SCRATCH_GGTT + 16, false);  /* SO_WRITE_OFFSET0 */
    srm(&m, 0x2330, SCRATCH_GGTT + 20, false);  /* GS_PRIMITIVES_COUNT: no stage wrote it */
    /* MI_LOAD_REGISTER_REG (opcode 0x2A): SO_NUM_PRIMS_WRITTEN0 -> CS_GPR1 */
    emit(&m, (0x2Au << 23) | 1);
    emit(&m, 0x5200);
    emit(&m, 0x2608);
    srm(&m, 0x2608, SCRATCH_GGTT + 24, false);
    machine8_run(&m, false);
    struct pipe_stub *p = NULL;
    for (uint32_t i = 0; i < sim_unit_count(m.sim); i++)
        if (strcmp(unit_name(sim_unit(m.sim, i)), "pipe") == 0)
            p = unit_state(sim_unit(m.sim, i));
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* LRI GS_PRIMITIVES x2, PIPE_CONTROL, LRI SO_WRITE_OFFSET0, PIPE_CONTROL, sync */
    CU_ASSERT_EQUAL_FATAL(p->count, 6);
    CU_ASSERT_EQUAL(p->kind[0], MSG_MMIO);
    CU_ASSERT_EQUAL(p->op[0], CS_MMIO_WRITE);
    CU_ASSERT_EQUAL(p->offset[0], 0x2330);
    CU_ASSERT_EQUAL(p->value[0], 5);
    CU_ASSERT_EQUAL(p->offset[1], 0x2334);
    CU_ASSERT_EQUAL(p->kind[2], MSG_STATE);
    CU_ASSERT_EQUAL(p->kind[3], MSG_MMIO);
    CU_ASSERT_EQUAL(p->op[3], CS_MMIO_WRITE);
    CU_ASSERT_EQUAL(p->offset[3], 0x5280);
    CU_ASSERT_EQUAL(p->value[3], 0x40);
    CU_ASSERT_EQUAL(p->kind[4], MSG_STATE);
    CU_ASSERT_EQUAL(p->kind[5], MSG_MMIO);
    CU_ASSERT_EQUAL(p->op[5], CS_MMIO_SYNC);
    CU_ASSERT_EQUAL(p->sync_payload_bytes, sizeof(struct pipeline_registers));
    CU_ASSERT_EQUAL(p->sync_gs_primitives, 5);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 0x40), 0x40);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), (uint32_t)STUB_IA_VERTICES);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), (uint32_t)(STUB_IA_VERTICES >> 32));
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 2);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 12), 0);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 16), 0x40 + 120);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 20), 5);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 24), 2);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.syncs"), 1);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.register_writes"), 3);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.IA_VERTICES_COUNT"), (double)STUB_IA_VERTICES);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.SO_NUM_PRIMS_WRITTEN0"), 2);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.submissions"), 1);

    /* a host sync goes down "vf" as well */
    p->reply = NULL;
    struct msg *sync = msg_alloc(m.sim, MSG_MMIO, sizeof(struct cs_mmio));
    ((struct cs_mmio *)sync->payload)->op = CS_MMIO_SYNC;
    CU_ASSERT_TRUE(port_inject(unit_port(m.cs, "host", 0), sync));
    sim_run(m.sim, 0);
    CU_ASSERT_EQUAL(p->count, 7);
    CU_ASSERT_EQUAL(p->op[6], CS_MMIO_SYNC);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.syncs"), 2);
    CU_ASSERT_EQUAL(sim_stop_reason(m.sim), SIM_STOP_QUIESCENT);
    machine8_done(&m);
}

/* Without "pipe_drained" (every machine today) nothing but state packets goes
 * down "vf": register writes stay in the CS, a CS Stall does not wait for the
 * 3D pipeline, and no pipe.* stats appear. */
static void test_pipeline_registers_stay_in_the_cs_when_unlinked(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_vf_recorder);
    lri(&m, 0x5280, 0x40);
    lri(&m, 0x2310, 3);
    pipe_control(&m, 1u << 20);
    srm(&m, 0x5280, SCRATCH_GGTT, false);
    srm(&m, 0x2310, SCRATCH_GGTT + 4, false);
    machine8_run(&m, false);
    struct recorder *v = recorder_of(&m, "vf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL_FATAL(v->count, 1);
    CU_ASSERT_EQUAL(v->kind[0], MSG_STATE);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0x40);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 3);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.syncs"), -1);
    machine8_done(&m);
}

/* INSTPM and CS_DEBUG_MODE2 are masked registers (reference genxml: each
 * field's Mask 16 bits up): the skl captures' LRI of CS_DEBUG_MODE2 =
 * 0x00100010 sets CONSTANT_BUFFER Address Offset Disable (bit 4); a later
 * write with the mask bit clear leaves it; the value that goes down "vf" is
 * the register's. */
static void test_masked_pipeline_registers(void)
{
    const char *gen9[] = { "gen=9", NULL };
    struct machine8 m;
    machine8_init_ex(&m, gen9, add_pipe_stub);
    lri(&m, 0x20D8, 0x00100010);
    lri(&m, 0x20D8, 0x00000000);
    lri(&m, 0x20C0, 0x00400040);                /* INSTPM bit 6 with its mask */
    srm(&m, 0x20D8, SCRATCH_GGTT, false);
    srm(&m, 0x20C0, SCRATCH_GGTT + 4, false);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0x10);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 0x40);
    struct pipe_stub *p = NULL;
    for (uint32_t i = 0; i < sim_unit_count(m.sim); i++)
        if (strcmp(unit_name(sim_unit(m.sim, i)), "pipe") == 0)
            p = unit_state(sim_unit(m.sim, i));
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->count, 3);
    CU_ASSERT_EQUAL(p->value[0], 0x10);
    CU_ASSERT_EQUAL(p->value[1], 0x10);
    CU_ASSERT_EQUAL(p->offset[2], 0x20C0);
    CU_ASSERT_EQUAL(p->value[2], 0x40);
    machine8_done(&m);
}

/* The CS and the real SOL unit as the whole 3D pipeline ("vf" -> sol.gs,
 * sol.drained -> "pipe_drained"): the query sequence's register values make
 * the round trip. LRIs of SO_WRITE_OFFSET1 and SO_PRIM_STORAGE_NEEDED2 (both
 * dwords) go down in-band, the CS Stall's sync comes back from SOL with its
 * registers, and MI_STORE_REGISTER_MEM reads them. */
static void add_sol(struct machine8 *m)
{
    struct unit *sol = probe_add(m->sim, &sol_ops, "sol", NULL);
    probe_link(m->sim, m->cs, "vf", sol, "gs", 1, 4, 1);
    probe_link(m->sim, sol, "drained", m->cs, "pipe_drained", 1, 4, 1);
}

static void test_pipeline_registers_through_sol(void)
{
    struct machine8 m;
    machine8_init_ex(&m, NULL, add_sol);
    lri(&m, 0x5284, 0x80);                      /* SO_WRITE_OFFSET1 */
    lri(&m, 0x5250, 11);                        /* SO_PRIM_STORAGE_NEEDED2 low, high */
    lri(&m, 0x5254, 2);
    pipe_control(&m, 1u << 20);
    lri(&m, 0x5284, 0x99);                      /* after the stall: the copy follows too */
    srm(&m, 0x5284, SCRATCH_GGTT, false);
    srm(&m, 0x5250, SCRATCH_GGTT + 4, false);
    srm(&m, 0x5254, SCRATCH_GGTT + 8, false);
    srm(&m, 0x5200, SCRATCH_GGTT + 12, false);
    pipe_control(&m, 1u << 20);
    srm(&m, 0x5284, SCRATCH_GGTT + 16, false);
    machine8_run(&m, false);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT), 0x99);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 4), 11);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 8), 2);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 12), 0);
    CU_ASSERT_EQUAL(read32(&m, SCRATCH_GGTT + 16), 0x99);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.syncs"), 2);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.pipe.SO_PRIM_STORAGE_NEEDED2"), (double)(11 + (2ull << 32)));
    CU_ASSERT_EQUAL(probe_stat(m.sim, "sol.syncs"), 2);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "sol.register_writes"), 4);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "sol.so_write_offset.1"), 0x99);
    CU_ASSERT_EQUAL(probe_stat(m.sim, "cs.submissions"), 1);
    machine8_done(&m);
}

static const struct test_case cases[] = {
    { "random batches never crash", test_random_batches_never_crash },
    { "legacy ring from registers", test_legacy_ring_from_registers },
    { "skl_compute as aubinator", test_skl_compute },
    { "skl_tri as aubinator", test_skl_tri },
    { "bdw_compute as aubinator", test_bdw_compute },
    { "bdw_tri as aubinator", test_bdw_tri },
    { "byt_compute as aubinator", test_byt_compute },
    { "byt_tri as aubinator", test_byt_tri },
    { "g965_tri as aubinator", test_g965_tri },
    { "execlist batch stores", test_execlist_ppgtt_batch_stores },
    { "non-privileged batch cannot use the ggtt", test_nonprivileged_batch_cannot_use_the_ggtt },
    { "mi_math", test_mi_math },
    { "mi_predicate", test_mi_predicate },
    { "pipe_control post-sync", test_pipe_control_post_sync },
    { "batch levels", test_batch_levels },
    { "bad programming", test_bad_programming },
    { "cs stall waits for gpgpu drain", test_cs_stall_waits_for_gpgpu_drain },
    { "l3cntlreg write goes to every l3", test_l3cntlreg_write_goes_to_every_l3 },
    { "state packets carry ids down their pipelines", test_state_packets_carry_ids },
    { "pipeline registers in-band", test_pipeline_registers_in_band },
    { "pipeline registers stay in the cs when unlinked",
      test_pipeline_registers_stay_in_the_cs_when_unlinked },
    { "masked pipeline registers", test_masked_pipeline_registers },
    { "pipeline registers through sol", test_pipeline_registers_through_sol },
    { 0 }
};
TEST_SUITE(cs, cases);
