/* tests/units/test_vc4_v3d.c - the V3D user program queue and QPU scheduler (units/vc4_v3d,
 * seed 002 Tables 62-68, 73, 74), alone with QPUs and then as the whole machine of
 * configs/vc4-bcm2835.cfg playing a vc4 job through `gtsim run` (units/vc4_host). Programs are
 * assembled here (tests/support/vc4_rig.h); expected memory is worked out here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/sim.h"
#include "tests/support/probes.h"
#include "tests/support/vc4_rig.h"
#include "tests/test.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"
#include "isa/vc4/qpu_decode.h"
#include "units/qpu/qpu.h"
#include "units/vc4_v3d/vc4_v3d.h"

#define CODE 0x1000u

enum { SRQPC = 0x430, SRQUA = 0x434, SRQUL = 0x438, SRQCS = 0x43c, SQRSV0 = 0x410,
       DBQITE = 0xe2c, DBQITC = 0xe30 };   /* Table 48, DBQITE/C notes §4.6 */

struct v3d_rig {
    struct sim *sim;
    struct unit *v3d, *qpu[2];
    struct vc4_catcher *reply;
};

static const struct port_desc catcher_ports[] = {
    { .name = "in", .direction = PORT_IN, .help = "anything" },
    PORT_END
};

static int catcher_realize(struct unit *u, struct gt_error *err)
{
    (void)err;
    struct vc4_catcher *c = unit_state(u);
    c->in = unit_port(u, "in", 0);
    return 0;
}

static enum unit_activity catcher_tick(struct unit *u)
{
    struct vc4_catcher *c = unit_state(u);
    struct msg *m;
    while ((m = port_pop(c->in))) {
        if (c->count < VC4_CATCH_MAX)
            c->cycle[c->count] = unit_cycle(u);
        c->count++;
        msg_free(unit_sim(u), m);
    }
    return UNIT_IDLE;
}

static const struct unit_ops catcher_ops = {
    .kind = "test_v3d_catcher",
    .state_size = sizeof(struct vc4_catcher),
    .ports = catcher_ports,
    .realize = catcher_realize,
    .tick = catcher_tick,
};

static struct v3d_rig v3d_rig_new(void)
{
    struct v3d_rig r = { 0 };
    r.sim = probe_sim(NULL);
    probe_memory(r.sim);
    r.v3d = probe_add(r.sim, &vc4_v3d_ops, "v3d", NULL);
    struct unit *c = probe_add(r.sim, &catcher_ops, "reply", NULL);
    r.reply = unit_state(c);
    probe_link(r.sim, r.v3d, "host_reply", c, "in", 1, 8, 1);
    for (unsigned q = 0; q < 2; q++) {
        char name[16], out[16], in[16];
        snprintf(name, sizeof name, "qpu%u", q);
        snprintf(out, sizeof out, "qpu[%u]", q);
        snprintf(in, sizeof in, "qpu_done[%u]", q);
        r.qpu[q] = probe_add(r.sim, &qpu_ops, name, NULL);
        probe_link(r.sim, r.v3d, out, r.qpu[q], "start", 1, 4, 1);
        probe_link(r.sim, r.qpu[q], "done", r.v3d, in, 1, 4, 1);
    }
    return r;
}

static void host(struct v3d_rig *r, uint32_t op, uint32_t offset, uint32_t value)
{
    struct msg *m = msg_alloc(r->sim, MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *c = (struct cs_mmio *)m->payload;
    c->op = op;
    c->offset = offset;
    c->value = value;
    CU_ASSERT_TRUE(port_inject(unit_port(r->v3d, "host", 0), m));
}

static void realize(struct v3d_rig *r)
{
    host(r, CS_MMIO_WRITE, 0xfff0, 0);      /* an unknown register, makes the port bound */
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(sim_realize(r->sim, &err), 0);
}

static void write_program(struct v3d_rig *r, uint32_t address, const uint64_t *p, unsigned n)
{
    struct gpu_memory *mem = sim_memory(r->sim);
    for (unsigned i = 0; i < n; i++) {
        uint32_t w[2] = { (uint32_t)p[i], (uint32_t)(p[i] >> 32) };
        gpu_memory_write(mem, address + 8 * i, w, 8, NULL);
    }
}

/* three programs of 20 instructions on two QPUs: two start at once, the third when one ends;
 * SRQCS counts requests and completions; the sync is answered after the third ends */
static void test_queue_and_scheduler(void)
{
    struct v3d_rig r = v3d_rig_new();
    realize(&r);
    uint64_t p[24];
    unsigned n = 0;
    for (unsigned i = 0; i < 20; i++)
        p[n++] = vc4_nop();
    p[n++] = vc4_end();
    p[n++] = vc4_nop();
    p[n++] = vc4_nop();
    write_program(&r, CODE, p, n);
    for (unsigned k = 0; k < 3; k++) {
        host(&r, CS_MMIO_WRITE, SRQUA, 0x8000);
        host(&r, CS_MMIO_WRITE, SRQUL, 4);
        host(&r, CS_MMIO_WRITE, SRQPC, CODE);
    }
    host(&r, CS_MMIO_SYNC, 0, 0);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.user_requests"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.user_completions"), 3);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.programs"), 2);   /* lowest free QPU first */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu1.programs"), 1);
    /* SRQCS: QPURQCC 23:16 = 3, QPURQCM 15:8 = 3, no error, queue empty */
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.srqcs"), 3 << 16 | 3 << 8);
    CU_ASSERT_EQUAL_FATAL(r.reply->count, 1);
    /* two programs of 23 instructions back to back on QPU 0, the second's first issuing one
     * instruction cycle after the first's last (@57429): the sync after (22 + 1 + 22) * 4 */
    CU_ASSERT_TRUE(r.reply->cycle[0] >= 45 * 4);
    CU_ASSERT_TRUE(r.reply->cycle[0] <= 45 * 4 + 12);
    sim_destroy(r.sim);
}

/* SQRSV0 bit 0 of QPU 0 keeps user programs off it */
static void test_reservation(void)
{
    struct v3d_rig r = v3d_rig_new();
    realize(&r);
    uint64_t p[3] = { vc4_end(), vc4_nop(), vc4_nop() };
    write_program(&r, CODE, p, 3);
    host(&r, CS_MMIO_WRITE, SQRSV0, 0x1);
    for (unsigned k = 0; k < 2; k++)
        host(&r, CS_MMIO_WRITE, SRQPC, CODE);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu0.programs"), 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "qpu1.programs"), 2);
    sim_destroy(r.sim);
}

/* 17 requests with every QPU reserved: 16 queue ("16 requests deep"), the 17th sets QPURQERR;
 * writing 1 to SRQCS bit 0 clears the queue, bit 7 the error; HOST_INT latches DBQITC */
static void test_overflow_clear_and_host_interrupt(void)
{
    struct v3d_rig r = v3d_rig_new();
    realize(&r);
    host(&r, CS_MMIO_WRITE, SQRSV0, 0x11);
    for (unsigned k = 0; k < 17; k++)
        host(&r, CS_MMIO_WRITE, SRQPC, CODE);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.queue_overflows"), 1);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.srqcs"), 16 << 8 | 1 << 7 | 16);
    host(&r, CS_MMIO_WRITE, SRQCS, 1 | 1 << 7 | 1 << 8);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.srqcs"), 0);
    /* a program on QPU 1 raising HOST_INT, enabled in DBQITE */
    uint64_t p[4] = { vc4_load_imm(W_HOST_INT, 1), vc4_end(), vc4_nop(), vc4_nop() };
    write_program(&r, CODE, p, 4);
    host(&r, CS_MMIO_WRITE, SQRSV0, 0x1);
    host(&r, CS_MMIO_WRITE, DBQITE, 0x2);
    host(&r, CS_MMIO_WRITE, SRQPC, CODE);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0x2);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.interrupts_raised"), 1);
    host(&r, CS_MMIO_WRITE, DBQITC, 0x2);
    sim_run(r.sim, 0);
    CU_ASSERT_EQUAL(probe_stat(r.sim, "v3d.dbqitc"), 0);
    sim_destroy(r.sim);
}

/* ---- the whole machine through `gtsim run` ------------------------------------------------- */

static void slurp(const char *path, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
}

static double csv_value(const char *csv, const char *path)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,", path);
    const char *p = strstr(csv, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

/* Twelve user programs, one per QPU: each writes element + QPU_NUMBER into VPM row
 * QPU_NUMBER and stores that row with VDW at its uniform's address (an uncached 0xC...
 * alias, masked by the config). The job expects row k = i + k at 0x100000 + 64k. */
static void test_bcm2835_job_twelve_programs(void)
{
    const char *dir = test_temp_dir();
    char path[512], args[2048];
    uint64_t p[16];
    unsigned n = 0;
    uint64_t mul = vc4_alu_word((struct vc4_alu){ .sig = SIG_NONE, .cond_mul = COND_ALWAYS,
                                                  .waddr_add = W_NOP, .waddr_mul = W_R2,
                                                  .op_mul = MOP_MUL24, .raddr_a = RD_NOP,
                                                  .raddr_b = 38, .mul_a = MUX_R2,
                                                  .mul_b = MUX_RB });
    /* Table 32: H32, stride 1, ADDR 0 (+ QPU number = row) */
    p[n++] = vc4_load_imm(W_R1, 1u << 12 | 1u << 11 | 2u << 8);
    p[n++] = vc4_add(OP_ADD, W_VPMVCD_SETUP, MUX_R1, MUX_RB, RD_NOP, 38) | (uint64_t)1 << 44;
    p[n++] = vc4_add(OP_ADD, W_VPM, MUX_RA, MUX_RB, RD_ELEMENT, 38);
    /* Table 34: ID 2, UNITS 1, DEPTH 16, HORIZ; VPMBASE Y = QPU number: + number << 7 */
    p[n++] = vc4_load_imm(W_R1, 2u << 30 | 1u << 23 | 16u << 16 | 1u << 14);
    p[n++] = vc4_load_imm(W_R2, 128);
    p[n++] = mul;
    p[n++] = vc4_add(OP_ADD, W_VPMVCD_SETUP, MUX_R1, MUX_R2, RD_NOP, RD_NOP) | (uint64_t)1 << 44;
    p[n++] = vc4_mov(W_VPM_ADDR, MUX_RA, RD_UNIFORM) | (uint64_t)1 << 44;  /* VPM_ST_ADDR */
    p[n++] = vc4_read_b(RD_VPM_WAIT);
    p[n++] = vc4_end();
    p[n++] = vc4_nop();
    p[n++] = vc4_nop();
    snprintf(path, sizeof path, "%s/prog.hex", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "0x%08x, 0x%08x, // %u\n", (uint32_t)p[i], (uint32_t)(p[i] >> 32), i);
    fclose(f);
    snprintf(path, sizeof path, "%s/job.txt", dir);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "# twelve user programs\nhex32 0x10000 prog.hex\n");
    for (unsigned k = 0; k < 12; k++)
        fprintf(f, "words 0x%x 0x%x\n", 0x20000 + 4 * k, 0xC0100000u + 64 * k);
    for (unsigned k = 0; k < 12; k++)
        fprintf(f, "run 0x10000 0x%x 1\n", 0x20000 + 4 * k);
    fprintf(f, "wait\n");
    for (unsigned k = 0; k < 12; k++) {
        fprintf(f, "expect 0x%x", 0x100000 + 64 * k);
        for (unsigned i = 0; i < 16; i++)
            fprintf(f, " %u", i + k);
        fprintf(f, "\n");
    }
    fclose(f);
    snprintf(args, sizeof args, "%s run -q -c configs/vc4-bcm2835.cfg -o %s/out %s/job.txt "
             ">%s/stdout 2>%s/stderr </dev/null", test_gtsim_binary(), dir, dir, dir, dir);
    int s = system(args);
    CU_ASSERT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    static char csv[1 << 20];
    snprintf(path, sizeof path, "%s/out/stats.csv", dir);
    slurp(path, csv, sizeof csv);
    CU_ASSERT_EQUAL(csv_value(csv, "host.expect_matches"), 12 * 16);
    CU_ASSERT_EQUAL(csv_value(csv, "host.expect_mismatches"), 0);
    CU_ASSERT_EQUAL(csv_value(csv, "gpu.v3d.user_completions"), 12);
    CU_ASSERT_EQUAL(csv_value(csv, "gpu.slice2.qpu3.programs"), 1);
    CU_ASSERT_EQUAL(csv_value(csv, "gpu.vpm.dma_stores"), 12);
    CU_ASSERT_EQUAL(csv_value(csv, "gpu.slice0.qpu0.restriction.regfile_read_after_write"), 0);
}

/* a malformed job is a one-line error naming file:line */
static void test_bad_job_file(void)
{
    const char *dir = test_temp_dir();
    char path[512], args[2048], err[4096];
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "words 0x100 1 2\nrun 0x100\n");
    fclose(f);
    snprintf(args, sizeof args, "%s run -q -c configs/vc4-bcm2835.cfg -o %s/out2 %s "
             ">%s/stdout 2>%s/stderr </dev/null", test_gtsim_binary(), dir, path, dir, dir);
    int s = system(args);
    CU_ASSERT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) == 1);
    snprintf(path, sizeof path, "%s/stderr", dir);
    slurp(path, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.txt:2: run PC UNIFORMS COUNT"));
}

/* GPU_FFT's shaders (../shared/workloads/gpu_fft, read here at test time, never copied; the
 * test skips when the folder is absent): the job loader's hex32 reads the C-array text as the
 * QPU sees it (two words per instruction, low word first): the first instruction of
 * shader_256 is its "mov rb_0x40, 0x40", a 32-bit load immediate of 0x40 (Fig 5 @82668). */
static void test_gpu_fft_shader_loads(void)
{
    const char *hex = "../shared/workloads/gpu_fft/hex/shader_256.hex";
    FILE *f = fopen(hex, "r");
    if (!f) {
        printf("\n  [vc4_v3d] %s absent: GPU_FFT check skipped ", hex);
        return;
    }
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    /* the words, parsed here: 0x tokens outside // comments */
    static uint32_t words[1 << 16];
    unsigned count = 0;
    for (char *p = text; *p && count < (1u << 16);) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '0' && p[1] == 'x') {
            words[count++] = (uint32_t)strtoul(p, &p, 16);
        } else {
            p++;
        }
    }
    CU_ASSERT_TRUE_FATAL(count >= 2);
    CU_ASSERT_EQUAL(count % 2, 0);
    struct vc4_qpu_instr in;
    vc4_qpu_decode((uint64_t)words[1] << 32 | words[0], &in);
    CU_ASSERT_EQUAL(in.format, VC4_FORMAT_LOAD_IMM_32);
    CU_ASSERT_EQUAL(in.immediate, 0x40u);
    /* the job loader puts the same words in memory */
    const char *dir = test_temp_dir();
    char path[512], args[2048], cwd[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    snprintf(path, sizeof path, "%s/fft.txt", dir);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "hex32 0x10000 %s/%s\nexpect 0x10000", cwd, hex);
    for (unsigned i = 0; i < count && i < 64; i++)
        fprintf(f, " 0x%x", words[i]);
    fprintf(f, "\nexpect 0x%x 0x%x\n", 0x10000 + 4 * (count - 1), words[count - 1]);
    fclose(f);
    snprintf(args, sizeof args, "%s run -q -c configs/vc4-bcm2835.cfg -o %s/out3 %s "
             ">%s/stdout 2>%s/stderr </dev/null", test_gtsim_binary(), dir, path, dir, dir);
    int s = system(args);
    CU_ASSERT_TRUE(WIFEXITED(s) && WEXITSTATUS(s) == 0);
    static char csv[1 << 20];
    snprintf(path, sizeof path, "%s/out3/stats.csv", dir);
    slurp(path, csv, sizeof csv);
    CU_ASSERT_EQUAL(csv_value(csv, "host.expect_mismatches"), 0);
    CU_ASSERT_EQUAL(csv_value(csv, "host.expect_matches"), (count < 64 ? count : 64) + 1);
}

static const struct test_case cases[] = {
    { "user program queue, lowest free QPU, SRQCS counts, sync", test_queue_and_scheduler },
    { "SQRSV0 reservation keeps user programs off a QPU", test_reservation },
    { "queue overflow, SRQCS clears, HOST_INT in DBQITC", test_overflow_clear_and_host_interrupt },
    { "vc4-bcm2835: twelve user programs store through VDW", test_bcm2835_job_twelve_programs },
    { "malformed vc4 job file", test_bad_job_file },
    { "GPU_FFT shader words load as the QPU reads them", test_gpu_fft_shader_loads },
    { 0 }
};
TEST_SUITE(vc4_v3d, cases);
