/* tools/bench/bench_eu.c - EU execution speed: one EU with 7 threads running an
 * ALU-heavy kernel (a loop of independent SIMD8 or SIMD16 float mad/mul/add,
 * a counter, cmp and while), alone in a sim.
 *  - fast mode: EU instructions per host second (target >= 50 M/s);
 *  - timing mode: EU cycles per host second (target >= 5 M/s), with the
 *    instructions per second alongside.
 * Each figure is the best of three runs. Targets are printed next to the
 * figures; nothing here fails a build. */
#include "tools/bench/bench_eu.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "units/eu/eu.h"
#include "isa/intel/eu_encode.h"
#include "msg_desc.h"
#include "units/common/thread_msg.h"

#define BENCH_THREADS 56
#define BENCH_ITERATIONS 2000

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void destroy_memory(void *m)
{
    gpu_memory_destroy(m);
}

/* loop { 24 x (mad/mul/add on r10..r17) ; add r2 ; cmp ; (f0) while } ; EOT */
static void build_kernel(struct eu_enc_buf *b, unsigned simd)
{
    unsigned regs = simd / 8;
    size_t top = b->len;
    for (unsigned i = 0; i < 24; i++) {
        unsigned d = 10 + (i % 4) * 2 * regs;
        struct eu_enc_insn in = { .exec_size = (uint8_t)simd, .nsrc = 2 };
        in.dst = eu_enc_grf(d, 0, EU_TYPE_F);
        in.src[0] = eu_enc_grf(d, 0, EU_TYPE_F);
        in.src[1] = eu_enc_grf(40, 0, EU_TYPE_F);
        if (i % 3 == 0) {
            in.opcode = EU_OPCODE_MAD;      /* d = d + r40 * r42 */
            in.nsrc = 3;
            in.align16 = true;
            in.src[0] = eu_enc_rgn(in.src[0], 4, 4, 1);
            in.src[1] = eu_enc_rgn(in.src[1], 4, 4, 1);
            in.src[2] = eu_enc_rgn(eu_enc_grf(42, 0, EU_TYPE_F), 4, 4, 1);
        } else {
            in.opcode = i % 3 == 1 ? EU_OPCODE_MUL : EU_OPCODE_ADD;
        }
        eu_enc_emit(b, &in);
    }
    struct eu_enc_insn inc = { .opcode = EU_OPCODE_ADD, .exec_size = 8, .nsrc = 2 };
    inc.dst = eu_enc_grf(2, 0, EU_TYPE_D);
    inc.src[0] = eu_enc_grf(2, 0, EU_TYPE_D);
    inc.src[1] = eu_enc_imm(EU_TYPE_D, 1);
    eu_enc_emit(b, &inc);
    struct eu_enc_insn cmp = { .opcode = EU_OPCODE_CMP, .exec_size = 8, .nsrc = 2,
                               .cond = EU_COND_MOD_L };
    cmp.dst = eu_enc_null(EU_TYPE_D);
    cmp.src[0] = eu_enc_grf(2, 0, EU_TYPE_D);
    cmp.src[1] = eu_enc_imm(EU_TYPE_D, BENCH_ITERATIONS);
    eu_enc_emit(b, &cmp);
    struct eu_enc_insn wh = { .opcode = EU_OPCODE_WHILE, .exec_size = 8, .pred = 1 };
    wh.dst = eu_enc_null(EU_TYPE_D);
    size_t at = eu_enc_emit(b, &wh);
    eu_enc_patch_jump(b, at, (int32_t)top - (int32_t)at, 0);
    struct eu_enc_insn s = { .opcode = EU_OPCODE_SEND, .exec_size = 8, .nsrc = 1, .sfid = 10,
                             .eot = true, .nomask = true, .desc = desc_msg_mlen_gen5_encode(1) };
    s.dst = eu_enc_null(EU_TYPE_UD);
    s.src[0] = eu_enc_grf(10, 0, EU_TYPE_UD);
    eu_enc_emit(b, &s);
}

struct result {
    double seconds;
    double instructions;
    double cycles;
};

static struct result run(bool fast, unsigned simd)
{
    struct result res = { 0, 0, 0 };
    struct sim *sim = sim_create(NULL);
    struct gt_error err;
    sim_add_clock(sim, "gt", 1000, &err);
    struct gpu_memory *mem = gpu_memory_create(&err);
    sim_set_memory(sim, mem, destroy_memory);
    const char *over[] = { fast ? "fast=true" : "fast=false", NULL };
    struct unit *eu = sim_add_unit(sim, &eu_ops, "eu", 0, NULL, over, &err);
    if (!eu || sim_realize(sim, &err) < 0) {
        printf("  EU bench setup failed: %s\n", err.message);
        sim_destroy(sim);
        return res;
    }
    struct eu_enc_buf k = { .gen = 9 };
    build_kernel(&k, simd);
    gpu_memory_write(mem, 0x10000, k.bytes, k.len, &err);
    eu_enc_free(&k);
    for (unsigned t = 0; t < BENCH_THREADS; t++) {
        struct msg *m = msg_alloc(sim, MSG_THREAD_DISPATCH, sizeof(struct eu_dispatch));
        struct eu_dispatch *d = (struct eu_dispatch *)m->payload;
        d->op = EU_TD_DISPATCH;
        d->request_id = t;
        d->inst_base = 0x10000;
        d->space_format = GPU_ADDRESS_SPACE_PHYSICAL;
        d->gen = 9;
        d->simd = (uint8_t)simd;
        port_inject(unit_port(eu, "dispatch", 0), m);
    }
    double t0 = now_seconds();
    sim_run(sim, 0);
    res.seconds = now_seconds() - t0;
    struct stats_writer *w = stats_writer_create();
    sim_write_stats(sim, w);
    stats_lookup(w, "eu.instructions", &res.instructions);
    stats_writer_destroy(w);
    res.cycles = (double)sim_now(sim) / 1000.0;
    sim_destroy(sim);
    return res;
}

void bench_eu(void)
{
    printf("\nEU, one EU x 7 threads, %u threads of an ALU loop (24 mad/mul/add + add, cmp, while) "
           "x %u iterations:\n", BENCH_THREADS, BENCH_ITERATIONS);
    for (unsigned simd = 8; simd <= 16; simd *= 2) {
        /* best of three runs of each */
        struct result f = run(true, simd), t = run(false, simd);
        for (int k = 0; k < 2; k++) {
            struct result f2 = run(true, simd), t2 = run(false, simd);
            if (f2.seconds > 0 && f2.seconds < f.seconds)
                f = f2;
            if (t2.seconds > 0 && t2.seconds < t.seconds)
                t = t2;
        }
        double fi = f.seconds > 0 ? f.instructions / f.seconds : 0;
        double tc = t.seconds > 0 ? t.cycles / t.seconds : 0;
        double ti = t.seconds > 0 ? t.instructions / t.seconds : 0;
        printf("  SIMD%-2u fast:   %.0f instructions in %.3f s = %.1f M instr/s  (target >= 50 M/s: %s)\n",
               simd, f.instructions, f.seconds, fi / 1e6, fi >= 50e6 ? "met" : "NOT met");
        printf("  SIMD%-2u timing: %.0f cycles in %.3f s = %.2f M EU-cycles/s  (target >= 5 M/s: %s); "
               "%.1f M instr/s, IPC %.2f\n",
               simd, t.cycles, t.seconds, tc / 1e6, tc >= 5e6 ? "met" : "NOT met", ti / 1e6,
               t.cycles > 0 ? t.instructions / t.cycles : 0);
    }
}
