/* tests/units/test_vc4_vpm.c - the VideoCore IV VPM and its DMA (units/vc4_vpm), the
 * semaphores and mutex (units/vc4_sync) and TMU direct lookups (units/vc4_tmu), driven by QPU
 * programs assembled here (tests/support/vc4_rig.h). Setup words are built from the field
 * tables of seed 002 (Tables 32-37 @133837..@137378); the expected VPM and memory contents are
 * worked out here from those tables.
 */
#include <stdio.h>
#include <string.h>

#include "fabric/msg.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/support/vc4_rig.h"
#include "tests/test.h"
#include "units/common/vc4_io.h"
#include "units/vc4_vpm/vc4_vpm.h"

#define CODE 0x1000u
#define UNIF 0x8000u

/* Table 32/33 generic block setup: ID 0, NUM (reads), STRIDE, HORIZ, LANED, SIZE, ADDR */
static uint32_t block(unsigned num, unsigned stride, unsigned horiz, unsigned laned,
                      unsigned size, unsigned addr)
{
    return (num & 15) << 20 | (stride & 63) << 12 | horiz << 11 | laned << 10 | size << 8 | addr;
}

enum { SIZE8 = 0, SIZE16 = 1, SIZE32 = 2 };

static void end3(uint64_t *p, unsigned *n)
{
    p[(*n)++] = vc4_end();
    p[(*n)++] = vc4_nop();
    p[(*n)++] = vc4_nop();
}

/* horizontal writes, reads back, vertical writes of what was read */
static void test_vpm_write_read_round_trip(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, NULL);
    uint64_t p[32];
    unsigned n = 0;
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 2));    /* row 2 on */
    p[n++] = vc4_mov(W_VPM, MUX_RA, RD_ELEMENT);                               /* row 2 = i */
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_RA, MUX_RA, RD_ELEMENT, RD_NOP);       /* row 3 = 2i */
    p[n++] = vc4_load_imm(W_VPMVCD_SETUP, block(2, 1, 1, 0, SIZE32, 2));      /* read 2 rows */
    /* vertical 32-bit: ADDR = {Y[5:4] = 1, X = 0}, next column per vector */
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 0, 0, SIZE32, 0x10));
    p[n++] = vc4_mov(W_R0, MUX_RA, RD_VPM);
    p[n++] = vc4_mov(W_R1, MUX_RA, RD_VPM);
    p[n++] = vc4_mov(W_VPM, MUX_R0, RD_NOP);
    p[n++] = vc4_mov(W_VPM, MUX_R1, RD_NOP);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 1);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 2, i), i);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 3, i), 2 * i);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 16 + i, 0), i);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 16 + i, 1), 2 * i);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.vectors_written"), 4);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.vectors_read"), 2);
    /* the first read is only 2 instructions after its setup: the QPU waits (@129589) */
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.stall.vpm") > 0);
    sim_destroy(r.sim);
}

/* 8-bit packed and 16-bit laned writes land where Tables 32/33 say */
static void test_vpm_sub_word_layouts(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, NULL);
    uint64_t p[32];
    unsigned n = 0;
    /* H8 packed, Y = 7, B = 2: ADDR = {Y, B} = 7 << 2 | 2; lane i -> byte i%4 of word 8 + i/4 */
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE8, 7 << 2 | 2));
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_RA, MUX_RB, RD_ELEMENT, 1);   /* i + 1 (small imm) */
    p[n - 1] = vc4_with_sig(p[n - 1], SIG_SMALL_IMM);
    /* H16 laned, Y = 6, H = 1: ADDR = 6 << 1 | 1; lane i -> upper half of word i */
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 1, SIZE16, 6 << 1 | 1));
    p[n++] = vc4_load_imm(W_R0, 0xabcd0100);
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_R0, MUX_RA, RD_ELEMENT, RD_NOP);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 7, 7), 0u);
    CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 7, 8), 0x04030201u);
    CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 7, 9), 0x08070605u);
    CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 7, 11), 0x100f0e0du);
    CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 7, 12), 0u);
    for (unsigned i = 0; i < 16; i++)   /* low 16 bits of 0xabcd0100 + i into the upper half */
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 6, i), (0x0100u + i) << 16);
    sim_destroy(r.sim);
}

/* a user program writes memory through VDW: 2 rows of 16 words, 64 bytes between rows */
static void test_vdw_store_with_stride(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, NULL);
    uint64_t p[32];
    unsigned n = 0;
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 0));
    p[n++] = vc4_mov(W_VPM, MUX_RA, RD_ELEMENT);
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_RA, MUX_RA, RD_ELEMENT, RD_NOP);
    /* Table 34: ID 2, UNITS 2, DEPTH 16, HORIZ, VPMBASE {Y 0, X 0}, MODEW 0 */
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 2u << 30 | 2u << 23 | 16u << 16 | 1u << 14);
    /* Table 35: ID 3, STRIDE 64 bytes after the last byte of a row */
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 3u << 30 | 64u);
    p[n++] = vc4_load_imm_b(W_VPM_ADDR, 0x20000);              /* VPM_ST_ADDR starts it */
    p[n++] = vc4_read_b(RD_VPM_WAIT);                          /* VPM_ST_WAIT */
    p[n++] = vc4_load_imm(W_HOST_INT, 1);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_rig_read32(&r, 0x20000 + 4 * i), i);
        CU_ASSERT_EQUAL(vc4_rig_read32(&r, 0x20040 + 4 * i), 0u);          /* the gap */
        CU_ASSERT_EQUAL(vc4_rig_read32(&r, 0x20080 + 4 * i), 2 * i);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.dma_stores"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.dma_bytes_stored"), 128);
    /* the wait holds the QPU for the transfer (128 bytes / 8) plus the DMA latency (40) */
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.stall.vpm") >= 40);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    sim_destroy(r.sim);
}

/* VDR loads two memory rows 128 bytes apart (MPITCH 4: 8 * 2^4) into VPM rows 4 and 5 */
static void test_vdr_load(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, NULL);
    uint32_t rows[64];
    for (unsigned i = 0; i < 64; i++)
        rows[i] = 0x1000 + i;
    vc4_rig_words(&r, 0x30000, rows, 64);
    uint64_t p[16];
    unsigned n = 0;
    /* Table 36: ID 1, MODEW 0, MPITCH 4, ROWLEN 0 (16), NROWS 2, VPITCH 1, horizontal,
     * ADDRXY {Y 4, X 0} */
    p[n++] = vc4_load_imm(W_VPMVCD_SETUP, 1u << 31 | 4u << 24 | 2u << 16 | 1u << 12 | 4u << 4);
    p[n++] = vc4_load_imm(W_VPM_ADDR, 0x30000);                /* VPM_LD_ADDR */
    p[n++] = vc4_mov(W_NOP, MUX_RA, RD_VPM_WAIT);              /* VPM_LD_WAIT (space A) */
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 4, i), 0x1000 + i);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 5, i), 0x1000 + 32 + i);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.dma_loads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.dma_bytes_loaded"), 128);
    sim_destroy(r.sim);
}

/* VDW and VDR through the L2C (the rig's L2, vc4_rig.h): a VDW store of 2 rows of 64 bytes
 * (each one line) is two line writes, and VPM_ST_WAIT answers only after the second write's
 * reply: writes take the SDRAM time only, 64 / 16 + 40 cycles each, one transfer at a time,
 * so the wait holds the QPU at least 1 + 4 + 4 + 40 + 1 cycles. A VDR load of 2 rows 128
 * bytes apart misses twice; the same load through the uncached alias (0xC0000000) goes
 * around the L2C; through the cached alias again it hits twice. */
static void test_dma_through_l2(void)
{
    static const char *const vpm_over[] = { "address_mask=0x3fffffff", NULL };
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM | VC4_RIG_L2, NULL, vpm_over);
    uint32_t rows[64];
    for (unsigned i = 0; i < 64; i++)
        rows[i] = 0x5000 + i;
    vc4_rig_words(&r, 0x30000, rows, 64);
    uint64_t p[40];
    unsigned n = 0;
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 0));
    p[n++] = vc4_mov(W_VPM, MUX_RA, RD_ELEMENT);
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_RA, MUX_RA, RD_ELEMENT, RD_NOP);
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 2u << 30 | 2u << 23 | 16u << 16 | 1u << 14);
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 3u << 30 | 64u);
    p[n++] = vc4_load_imm_b(W_VPM_ADDR, 0x20000);              /* VPM_ST_ADDR */
    p[n++] = vc4_read_b(RD_VPM_WAIT);                          /* VPM_ST_WAIT */
    static const uint32_t load_at[3] = { 0x30000, 0xc0030000u, 0x40030000u };
    for (unsigned k = 0; k < 3; k++) {
        /* Table 36: MPITCH 4 (128 bytes), ROWLEN 16, NROWS 2, VPITCH 1, {Y 4 + 2k, X 0} */
        p[n++] = vc4_load_imm(W_VPMVCD_SETUP, 1u << 31 | 4u << 24 | 2u << 16 | 1u << 12 |
                                              (4u + 2 * k) << 4);
        p[n++] = vc4_load_imm(W_VPM_ADDR, load_at[k]);         /* VPM_LD_ADDR */
        p[n++] = vc4_mov(W_NOP, MUX_RA, RD_VPM_WAIT);          /* VPM_LD_WAIT */
    }
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 1);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_rig_read32(&r, 0x20000 + 4 * i), i);
        CU_ASSERT_EQUAL(vc4_rig_read32(&r, 0x20080 + 4 * i), 2 * i);
        for (unsigned k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 4 + 2 * k, i), 0x5000 + i);
            CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 5 + 2 * k, i), 0x5000 + 32 + i);
        }
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.writes"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.l2_line_requests"), 8);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.alias_uncached_reads"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.l2_hits"), 2);
    /* the VDR's two misses, and the QPU's own instruction lines (the rig links its caches) */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "l2.misses"), 2 + probe_stat(r.sim, "qpu0.icache_misses"));
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.l2_stray_replies"), 0);
    /* the waits hold the QPU for the SDRAM round trips less the instruction or two between
     * each DMA's start and its wait (at most 8 cycles): the store's two writes (4 + 4 + 40),
     * the first load's miss (1 + 5 + 4 + 40 + 1) and the uncached load's SDRAM read
     * (1 + 4 + 40 + 1); the cached load's hits (1 + 5 + 1 each) add little */
    uint64_t stall = probe_stat(r.sim, "qpu0.stall.vpm");
    CU_ASSERT_TRUE(stall >= (48 - 8) + (51 - 8) + (46 - 8));
    CU_ASSERT_TRUE(stall <= (48 + 2) + (55 + 2) + (50 + 2) + (8 + 2) + 20);
    sim_destroy(r.sim);
}

/* reads with no setup, a DMA beyond memory, a setup with an undefined ID: counted */
static void test_vpm_bad_input(void)
{
    static const char *const vpm_over[] = { "memory_mb=1", NULL };
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, vpm_over);
    uint64_t p[16];
    unsigned n = 0;
    p[n++] = vc4_mov(W_R0, MUX_RA, RD_VPM);
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 1u << 30);
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, 2u << 30 | 1u << 23 | 16u << 16 | 1u << 14);
    p[n++] = vc4_load_imm_b(W_VPM_ADDR, 0x200000);
    p[n++] = vc4_read_b(RD_VPM_WAIT);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.reads_without_setup"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.bad_setups"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.dma_beyond_memory"), 1);
    sim_destroy(r.sim);
}

static void inject_vcd(struct vc4_rig *r, uint32_t op, uint32_t reg, uint32_t qpu,
                       uint32_t lanes, uint32_t first_value)
{
    struct msg *m = msg_alloc(r->sim, MSG_QPU_IO, sizeof(struct qpu_io_request));
    struct qpu_io_request *q = (struct qpu_io_request *)m->payload;
    memset(q, 0, sizeof *q);
    q->op = op;
    q->reg = reg;
    q->qpu = qpu;
    q->lane_mask = lanes;
    for (unsigned i = 0; i < 16; i++)
        q->value[i] = first_value + i;
    CU_ASSERT_TRUE(port_inject(unit_port(r->vpm, "vcd", 0), m));
}

/* The vertex pipeline's side (issue 16): a segment moves QPU 0's block accesses to rows from
 * 100 on ("Vertex-shader accesses are relocated automatically to the batch's allocated
 * region", notes/002 §7 item 10); the VCD writes a row by absolute number, lanes as masked;
 * a read and the segment are answered; a row beyond the 12 KB VPM (192 rows) is counted. */
static void test_vcd_rows_and_segments(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_VPM, NULL, NULL);
    struct unit *sink = probe_add(r.sim, &probe_sink_ops, "vcd_sink", NULL);
    probe_link(r.sim, r.vpm, "vcd_result", sink, "in", 1, 8, 1);
    /* the rig realized its units before these two ports were linked: again for both */
    struct gt_error err;
    if (probe_sink_ops.realize)
        CU_ASSERT_EQUAL_FATAL(probe_sink_ops.realize(sink, &err), 0);
    CU_ASSERT_EQUAL_FATAL(vc4_vpm_ops.realize(r.vpm, &err), 0);
    vc4_vpm_ops.reset(r.vpm);
    if (probe_sink_ops.reset)
        probe_sink_ops.reset(sink);
    inject_vcd(&r, QPU_IO_VPM_SEGMENT, 100, 0, 1, 100);       /* value[0] = 100 */
    inject_vcd(&r, QPU_IO_VCD_WRITE, 150, 0, 0x00ff, 1000);
    inject_vcd(&r, QPU_IO_VCD_READ, 150, 0, 0, 0);
    inject_vcd(&r, QPU_IO_VCD_WRITE, 192, 0, 0xffff, 0);       /* beyond the VPM */
    uint64_t p[16];
    unsigned n = 0;
    p[n++] = vc4_nop();
    p[n++] = vc4_nop();
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 2));    /* row 2 */
    p[n++] = vc4_mov(W_VPM, MUX_RA, RD_ELEMENT);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 1);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 102, i), i);       /* relocated by the segment */
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 2, i), 0u);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 150, i), i < 8 ? 1000 + i : 0u);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.segments"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.vcd_rows_written"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.vcd_rows_read"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "vpm.vcd_bad_messages"), 1);
    CU_ASSERT_EQUAL(((struct probe_sink *)unit_state(sink))->received, 2);   /* ack + row */
    sim_destroy(r.sim);
}

/* QPU 0 waits on semaphore 3 until QPU 1 increments it after 20 instructions */
static void test_semaphore_between_qpus(void)
{
    struct vc4_rig r = vc4_rig_new(2, VC4_RIG_SYNC, NULL, NULL);
    uint64_t a[8], b[32];
    unsigned na = 0, nb = 0;
    a[na++] = vc4_semaphore(3, true);
    a[na++] = vc4_load_imm(W_HOST_INT, 1);
    end3(a, &na);
    for (unsigned i = 0; i < 20; i++)
        b[nb++] = vc4_nop();
    b[nb++] = vc4_semaphore(3, false);
    end3(b, &nb);
    vc4_rig_program(&r, CODE, a, na);
    vc4_rig_program(&r, CODE + 0x400, b, nb);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    vc4_rig_start(&r, 1, CODE + 0x400, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    CU_ASSERT_EQUAL_FATAL(r.done[1]->count, 1);
    /* QPU 0's HOST_INT comes after QPU 1 issued its 21st instruction (cycle >= 80) */
    CU_ASSERT_TRUE(r.done[0]->cycle[0] >= 80);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.semaphore_waits"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.semaphore_increments"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.semaphore_decrements"), 1);
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.stall.sync") >= 70);
    sim_destroy(r.sim);
}

/* 16 increments of a 4-bit semaphore: the 16th waits forever; the simulation still ends */
static void test_semaphore_overflow_stalls(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_SYNC, NULL, NULL);
    uint64_t p[24];
    unsigned n = 0;
    for (unsigned i = 0; i < 16; i++)
        p[n++] = vc4_semaphore(0, false);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.semaphore_increments"), 15);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.semaphore_waits"), 1);
    sim_destroy(r.sim);
}

/* two QPUs take the mutex in turn; the read returns the element number (space A) */
static void test_mutex(void)
{
    struct vc4_rig r = vc4_rig_new(2, VC4_RIG_SYNC, NULL, NULL);
    uint64_t p[32];
    unsigned n = 0;
    p[n++] = vc4_mov(W_R0, MUX_RA, RD_MUTEX);
    for (unsigned i = 0; i < 10; i++)
        p[n++] = vc4_nop();
    p[n++] = vc4_mov(W_HOST_INT, MUX_R0, RD_NOP);
    p[n++] = vc4_mov(W_MUTEX_RELEASE, MUX_R0, RD_NOP);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    vc4_rig_start(&r, 1, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.done[0]->count, 2);
    CU_ASSERT_EQUAL_FATAL(r.done[1]->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.mutex_acquires"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.mutex_waits"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.bad_releases"), 0);
    /* the critical sections do not overlap: one QPU's HOST_INT (inside) comes 11+ instructions
     * after the other's */
    uint64_t t0 = r.done[0]->cycle[0], t1 = r.done[1]->cycle[0];
    CU_ASSERT_TRUE((t0 > t1 ? t0 - t1 : t1 - t0) >= 44);
    CU_ASSERT_EQUAL(((const struct qpu_program *)r.done[0]->payload[0])->value, 0u);
    sim_destroy(r.sim);
}

/* TMU direct lookups: element i reads the word at base + 4i; load signal into r4 */
static void test_tmu_direct_lookup(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_TMU, NULL, NULL);
    uint32_t words[16];
    for (unsigned i = 0; i < 16; i++)
        words[i] = 0xc0de0000u + i * 3;
    vc4_rig_words(&r, 0x40000, words, 16);
    uint32_t unif[] = { 0x40000 };
    uint64_t p[16];
    unsigned n = 0;
    /* r0 = element << 2 (small immediate 2, Table 5) */
    p[n++] = vc4_with_sig(vc4_add(OP_SHL, W_R0, MUX_RA, MUX_RB, RD_ELEMENT, 2), SIG_SMALL_IMM);
    p[n++] = vc4_add(OP_ADD, W_TMU0_S, MUX_R0, MUX_RA, RD_UNIFORM, RD_NOP);
    p[n++] = vc4_with_sig(vc4_nop(), SIG_LOAD_TMU0);
    p[n++] = vc4_mov(W_VPM, MUX_R4, RD_NOP);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_words(&r, UNIF, unif, 1);
    vc4_rig_start(&r, 0, CODE, UNIF, 1);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL_FATAL(r.vpm_writes->count, 1);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(vc4_rig_vpm_value(&r, 0)[i], 0xc0de0000u + i * 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.direct_lookups"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.loads"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.uniforms"), 1);   /* a direct lookup pops none */
    CU_ASSERT_TRUE(probe_stat(r.sim, "qpu0.stall.r4") > 0);   /* the TMU's 20 cycles */
    sim_destroy(r.sim);
}

/* nine lookups without a load overrun the 8-slot FIFO (@96330): counted */
static void test_tmu_fifo_overrun(void)
{
    struct vc4_rig r = vc4_rig_new(1, VC4_RIG_TMU, NULL, NULL);
    uint64_t p[16];
    unsigned n = 0;
    for (unsigned i = 0; i < 9; i++)
        p[n++] = vc4_mov(W_TMU0_S, MUX_RA, RD_ELEMENT);
    p[n++] = vc4_with_sig(vc4_nop(), SIG_LOAD_TMU0);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 0, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[0]->count, 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.fifo_overruns"), 1);
    sim_destroy(r.sim);
}

/* with two TMUs per slice, QPUs 2 and 3 swap TMU0 and TMU1 (@97875) until TMU_NOSWAP is
 * written: QPU 2's TMU0 lookup leaves on its tmu1 port, QPU 1's on tmu0; after writing 1 to
 * TMU_NOSWAP, QPU 2's goes to tmu0 */
static void test_tmu_swap(void)
{
    static const char *const over[] = { "tmus_per_slice=2", NULL };
    struct vc4_rig r = vc4_rig_new(3, VC4_RIG_TMU, over, NULL);
    uint64_t a[8], b[8];
    unsigned na = 0, nb = 0;
    a[na++] = vc4_mov(W_TMU0_S, MUX_RA, RD_ELEMENT);
    a[na++] = vc4_with_sig(vc4_nop(), SIG_LOAD_TMU0);
    end3(a, &na);
    b[nb++] = vc4_load_imm(W_TMU_NOSWAP, 1);
    for (unsigned i = 0; i < na; i++)
        b[nb++] = a[i];
    vc4_rig_program(&r, CODE, a, na);
    vc4_rig_program(&r, CODE + 0x400, b, nb);
    vc4_rig_start(&r, 1, CODE, UNIF, 0);
    vc4_rig_start(&r, 2, CODE, UNIF, 0);
    vc4_rig_start(&r, 2, CODE + 0x400, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[1]->count, 1);
    CU_ASSERT_EQUAL(r.done[2]->count, 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu1.port.tmu0.sent"), 2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu1.port.tmu1.sent"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu2.port.tmu1.sent"), 2);   /* the swapped program */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu2.port.tmu0.sent"), 2);   /* after TMU_NOSWAP */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "tmu.loads"), 3);
    sim_destroy(r.sim);
}

/* one instruction reading VPM_READ (space A) and MUTEX_ACQUIRE (space B, the QPU number,
 * @67887) from two units: each answer lands in its own operand */
static void test_two_io_reads_in_one_instruction(void)
{
    struct vc4_rig r = vc4_rig_new(2, VC4_RIG_VPM | VC4_RIG_SYNC, NULL, NULL);
    uint64_t p[24];
    unsigned n = 0;
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 8));
    p[n++] = vc4_load_imm(W_VPM, 0x5a5a0000);                         /* row 8 */
    p[n++] = vc4_load_imm(W_VPMVCD_SETUP, block(1, 1, 1, 0, SIZE32, 8));
    p[n++] = vc4_nop();
    p[n++] = vc4_nop();
    /* or r0, ra(VPM_READ); v8min r1, rb(MUTEX_ACQUIRE), rb (Table 13 code 4) */
    p[n++] = vc4_alu_word((struct vc4_alu){ .sig = SIG_NONE, .cond_add = COND_ALWAYS,
                                            .cond_mul = COND_ALWAYS, .waddr_add = W_R0,
                                            .waddr_mul = W_R1, .op_add = OP_OR, .op_mul = 4,
                                            .raddr_a = RD_VPM, .raddr_b = RD_MUTEX,
                                            .add_a = MUX_RA, .add_b = MUX_RA, .mul_a = MUX_RB,
                                            .mul_b = MUX_RB });
    p[n++] = vc4_load_imm_b(W_VPMVCD_SETUP, block(0, 1, 1, 0, SIZE32, 9));
    p[n++] = vc4_mov(W_VPM, MUX_R0, RD_NOP);                           /* row 9 */
    p[n++] = vc4_mov(W_VPM, MUX_R1, RD_NOP);                           /* row 10 */
    p[n++] = vc4_mov(W_MUTEX_RELEASE, MUX_R1, RD_NOP);
    end3(p, &n);
    vc4_rig_program(&r, CODE, p, n);
    vc4_rig_start(&r, 1, CODE, UNIF, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(r.done[1]->count, 1);
    for (unsigned i = 0; i < 16; i++) {
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 9, i), 0x5a5a0000u);
        CU_ASSERT_EQUAL(vc4_vpm_peek(r.vpm, 10, i), 1u);
    }
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.mutex_acquires"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "sync.bad_releases"), 0);
    sim_destroy(r.sim);
}

static const struct test_case cases[] = {
    { "VPM horizontal write, read back, vertical write", test_vpm_write_read_round_trip },
    { "VPM 8-bit packed and 16-bit laned layouts", test_vpm_sub_word_layouts },
    { "VDW store with a row stride", test_vdw_store_with_stride },
    { "VDR load with a memory pitch", test_vdr_load },
    { "VPM bad input counted", test_vpm_bad_input },
    { "VCD rows written and read by number, a QPU's segment relocates its block accesses",
      test_vcd_rows_and_segments },
    { "semaphore between two QPUs", test_semaphore_between_qpus },
    { "semaphore above 15 stalls, simulation ends", test_semaphore_overflow_stalls },
    { "mutex taken in turn", test_mutex },
    { "TMU direct lookups into r4", test_tmu_direct_lookup },
    { "TMU FIFO overrun counted", test_tmu_fifo_overrun },
    { "VDW and VDR through the L2 and the uncached alias", test_dma_through_l2 },
    { "TMU swap for QPUs 2 and 3, TMU_NOSWAP", test_tmu_swap },
    { "VPM and mutex reads in one instruction", test_two_io_reads_in_one_instruction },
    { 0 }
};
TEST_SUITE(vc4_vpm, cases);
