/* rtl-cosim/gtsim_cosim.c - gtsim-cosim: the gtsim command line with the
 * Verilated kinds (cs_alu:rtl, cs_alu:lockstep, cs_alu:record, l3:rtl,
 * l3:lockstep, the *_broken ones) in its kind lookup, plus commands of its own:
 *   random          seeded random lockstep (or rtl, or c) run of cs_alu
 *   l3-random       the same for the L3
 *   fpu-random      the same for the FPU pipe
 *   om-random       random requests through the pixel datapath RTL against the C block
 *   qpu-random      random instructions through the QPU ALUs' RTL against the C datapath
 *   build-math-aub  write a Gen9 capture that runs MI_MATH (math_aub.h)
 *   replay          drive a unit alone from port recordings and check its outputs
 *   datapath-replay drive om_pixel / qpu_alu from a datapath recording
 *   bench           co-simulation throughput against the C units alone
 * `run` and `config` take --wave FILE.fst (every unit run as RTL) or
 * --wave UNIT=FILE.fst themselves (tools/cmd_run.c). `run` records any port
 * with --record-port UNIT.PORT[N]=FILE itself; for `config` it becomes
 * --set UNIT.record_PORT="FILE" (the cs_alu kinds' params). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fabric/alloc.h"
#include "rtl-cosim/cosim_kinds.h"
#include "rtl-cosim/datapath_replay.h"
#include "rtl-cosim/fpu_random.h"
#include "rtl-cosim/fpu_rtl.h"
#include "rtl-cosim/l3_random.h"
#include "rtl-cosim/math_aub.h"
#include "rtl-cosim/om_random.h"
#include "rtl-cosim/om_rtl.h"
#include "rtl-cosim/qpu_alu_rtl.h"
#include "rtl-cosim/qpu_random.h"
#include "rtl-cosim/random_command.h"
#include "rtl-cosim/random_run.h"
#include "rtl-cosim/replay.h"
#include "tools/commands.h"
#include "units/cs_alu/cs_alu.h"

static const char random_usage[] =
    "usage: gtsim-cosim random [--impl IMPL] [--ops N] [--seed S] [--cpi N] [--max-count N]\n"
    "                          [--pop-permille P] [--wave FILE.fst] [--record-dir DIR]\n"
    "\n"
    "Seeded random MI_MATH traffic through cs_alu_stim -> cs_alu -> cosim_sink, the\n"
    "cs_alu built with impl IMPL (lockstep [default], lockstep_broken, rtl, rtl_broken,\n"
    "record, c). Lockstep compares every response of the RTL with the C model's:\n"
    "fields and cycle, exactly; mismatches are printed and the exit status is 3.\n"
    "  --ops N            ALU instructions at least (default 1000000)\n"
    "  --pop-permille P   the sink pops on P of 1000 cycles (back-pressure; default 1000)\n"
    "  --wave FILE.fst    dump the RTL: in lockstep, only from 300 cycles before the\n"
    "                     first mismatch to 64 after (the run is repeated to get it)\n"
    "  --record-dir DIR   record cs_alu's ports to DIR/request.rec and DIR/response.rec\n";

struct alu_random {
    struct random_run_options o;
    struct random_run_result r;
    char request[4096], response[4096];
};

static bool alu_random_option(void *context, const char *a, const char *v)
{
    struct alu_random *c = context;
    uint64_t x;
    if (!strcmp(a, "--record-dir")) {
        snprintf(c->request, sizeof c->request, "%s/request.rec", v);
        snprintf(c->response, sizeof c->response, "%s/response.rec", v);
        c->o.record_request = c->request;
        c->o.record_response = c->response;
    } else if (cli_parse_u64(v, &x) && !strcmp(a, "--ops")) {
        c->o.ops = x;
    } else if (cli_parse_u64(v, &x) && !strcmp(a, "--seed")) {
        c->o.seed = x;
    } else if (cli_parse_u64(v, &x) && x >= 1 && x <= 64 && !strcmp(a, "--cpi")) {
        c->o.cycles_per_instruction = (uint32_t)x;
    } else if (cli_parse_u64(v, &x) && x >= 1 && x <= 256 && !strcmp(a, "--max-count")) {
        c->o.max_count = (uint32_t)x;
    } else if (cli_parse_u64(v, &x) && x >= 1 && x <= 1000 &&
               !strcmp(a, "--pop-permille")) {
        c->o.pop_permille = (uint32_t)x;
    } else {
        return false;
    }
    return true;
}

static int alu_random_run(void *context, const char *wave, uint64_t from, uint64_t to,
                          bool repeat, struct random_outcome *out, struct gt_error *err)
{
    struct alu_random *c = context;
    struct random_run_options o = c->o;
    struct random_run_result scratch, *r = repeat ? &scratch : &c->r;
    o.wave = wave;
    o.wave_from = from;
    o.wave_to = to;
    if (repeat) {
        o.report = NULL;
        o.record_request = o.record_response = NULL;
    }
    if (cosim_random_run(&o, r, err) < 0)
        return -1;
    *out = (struct random_outcome){ r->compared, r->mismatches, r->first_mismatch,
                                    r->first_report, false };
    return 0;
}

static void alu_random_print(void *context)
{
    const struct alu_random *c = context;
    const struct random_run_result *r = &c->r;
    printf("gtsim-cosim random: impl %s seed %" PRIu64 ": %" PRIu64 " requests, %" PRIu64
           " ALU instructions, %" PRIu64 " cycles, %.3f s (%.2f M ALU ops/s)\n", c->o.impl,
           c->o.seed, r->requests, r->instructions, r->cycles, r->seconds,
           r->seconds > 0 ? (double)r->instructions / r->seconds / 1e6 : 0.0);
}

static int cmd_random(int argc, char **argv)
{
    struct alu_random c = { .o = { .impl = "lockstep", .seed = 1, .ops = 1000000,
                                   .report = stderr } };
    const struct random_command command = { "random", random_usage, "responses", &c.o.impl,
                                            alu_random_option, alu_random_run,
                                            alu_random_print, &c };
    return random_command_main(&command, argc, argv);
}

static const char fpu_random_usage[] =
    "usage: gtsim-cosim fpu-random [--impl IMPL] [--seed S] [--requests N] [--depth D]\n"
    "                              [--pop-permille P] [--wave FILE.fst] [--record-dir DIR]\n"
    "\n"
    "Seeded random FPU operations (every op, condition, rounding and denormal mode,\n"
    "special values over-represented) through fpu_stim -> fpu -> cosim_sink, the fpu\n"
    "built with impl IMPL (lockstep [default], lockstep_broken, rtl, rtl_broken, c).\n"
    "Lockstep compares every cycle's output (tag, per-lane results and flags, status)\n"
    "exactly; mismatches are printed and the exit status is 3.\n"
    "  --requests N       operations of 4 lanes (default 250000)\n"
    "  --depth D          pipeline stages, 1..16 (default 4)\n"
    "  --pop-permille P   the sink pops on P of 1000 cycles (back-pressure; default 1000)\n"
    "  --wave FILE.fst    dump the RTL: in lockstep, only from 300 cycles before the\n"
    "                     first mismatch to 64 after (the run is repeated to get it)\n"
    "  --record-dir DIR   record the fpu's ports to DIR/request.rec and DIR/response.rec\n";

struct fpu_random {
    struct fpu_random_options o;
    struct fpu_random_result r;
};

static bool fpu_random_option(void *context, const char *a, const char *v)
{
    struct fpu_random *c = context;
    uint64_t x;
    if (!strcmp(a, "--record-dir"))
        c->o.record_dir = v;
    else if (cli_parse_u64(v, &x) && !strcmp(a, "--requests"))
        c->o.requests = x;
    else if (cli_parse_u64(v, &x) && !strcmp(a, "--seed"))
        c->o.seed = x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 16 && !strcmp(a, "--depth"))
        c->o.depth = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 1000 && !strcmp(a, "--pop-permille"))
        c->o.pop_permille = (uint32_t)x;
    else
        return false;
    return true;
}

static int fpu_random_command_run(void *context, const char *wave, uint64_t from, uint64_t to,
                                  bool repeat, struct random_outcome *out, struct gt_error *err)
{
    struct fpu_random *c = context;
    struct fpu_random_options o = c->o;
    struct fpu_random_result scratch, *r = repeat ? &scratch : &c->r;
    o.wave = wave;
    o.wave_from = from;
    o.wave_to = to;
    if (repeat) {
        o.report = NULL;
        o.record_dir = NULL;
    }
    if (fpu_random_run(&o, r, err) < 0)
        return -1;
    *out = (struct random_outcome){ r->compared, r->mismatches, r->first_mismatch,
                                    r->first_report, false };
    return 0;
}

static void fpu_random_print(void *context)
{
    const struct fpu_random *c = context;
    const struct fpu_random_result *r = &c->r;
    printf("gtsim-cosim fpu-random: impl %s seed %" PRIu64 ": %" PRIu64 " operations (%" PRIu64
           " lanes), %" PRIu64 " cycles, %" PRIu64 " stall cycles, %.3f s (%.3f M ops/s)\n",
           c->o.impl, c->o.seed, r->sent, r->sent * 4, r->cycles, r->stall_cycles, r->seconds,
           r->seconds > 0 ? (double)r->sent / r->seconds / 1e6 : 0.0);
    printf("  ops: ADD %" PRIu64 " MUL %" PRIu64 " MAD %" PRIu64 " SEL %" PRIu64 " CMP %" PRIu64
           " MOV %" PRIu64 "; rounding RTNE %" PRIu64 " RU %" PRIu64 " RD %" PRIu64 " RTZ %" PRIu64
           "; SP denormals flushed %" PRIu64 " kept %" PRIu64 "; DF %" PRIu64 "\n",
           r->cov.per_op[0], r->cov.per_op[1], r->cov.per_op[2], r->cov.per_op[3],
           r->cov.per_op[4], r->cov.per_op[5], r->cov.per_rm[0], r->cov.per_rm[1],
           r->cov.per_rm[2], r->cov.per_rm[3], r->cov.ftz, r->cov.keep, r->cov.df);
}

static int cmd_fpu_random(int argc, char **argv)
{
    struct fpu_random c = { .o = { .impl = "lockstep", .seed = 1, .requests = 250000,
                                   .report = stderr } };
    const struct random_command command = { "fpu-random", fpu_random_usage, "responses",
                                            &c.o.impl, fpu_random_option,
                                            fpu_random_command_run, fpu_random_print, &c };
    return random_command_main(&command, argc, argv);
}

static const char om_random_usage[] =
    "usage: gtsim-cosim om-random [--impl lockstep|lockstep_broken] [--seed S] [--requests N]\n"
    "                             [--wave FILE.fst]\n"
    "\n"
    "Seeded random requests through the pixel back end's datapath RTL (rtl/om_pixel.sv:\n"
    "blend, clamps, logic ops, write disables, depth/stencil test) against the C block\n"
    "(om_color_compute, om_color_bits, ds_test), compared exactly (NaN equals NaN);\n"
    "mismatches are printed and the exit status is 3. The cycle of a mismatch is the\n"
    "RTL clock (two a request).\n"
    "  --requests N       requests (default 1000000)\n"
    "  --wave FILE.fst    dump the RTL from 300 clocks before the first mismatch to 64\n"
    "                     after (the run is repeated to get it)\n";

struct om_random {
    const char *impl;
    struct om_random_options o;
    struct om_random_result r;
    double seconds;
};

static bool om_random_option(void *context, const char *a, const char *v)
{
    struct om_random *c = context;
    uint64_t x;
    if (cli_parse_u64(v, &x) && !strcmp(a, "--requests"))
        c->o.requests = x;
    else if (cli_parse_u64(v, &x) && !strcmp(a, "--seed"))
        c->o.seed = x;
    else
        return false;
    return true;
}

static int om_random_command_run(void *context, const char *wave, uint64_t from, uint64_t to,
                                 bool repeat, struct random_outcome *out, struct gt_error *err)
{
    struct om_random *c = context;
    if (strcmp(c->impl, "lockstep") != 0 && strcmp(c->impl, "lockstep_broken") != 0)
        return gt_error_set(err, "--impl %s: om-random runs lockstep or lockstep_broken",
                            c->impl);
    struct om_random_options o = c->o;
    struct om_random_result scratch, *r = repeat ? &scratch : &c->r;
    o.broken = strcmp(c->impl, "lockstep_broken") == 0;
    o.wave = wave;
    o.wave_from = from;
    o.wave_to = wave && !from && !to ? UINT64_MAX : to;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (om_random_run(&o, r, err) < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!repeat)
        c->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    *out = (struct random_outcome){ r->compared, r->mismatches, r->first_mismatch,
                                    repeat ? NULL : r->first_report, false };
    return 0;
}

static void om_random_print(void *context)
{
    const struct om_random *c = context;
    const struct om_random_result *r = &c->r;
    printf("gtsim-cosim om-random: impl %s seed %" PRIu64 ": %" PRIu64 " requests (colour %"
           PRIu64 ", bits %" PRIu64 ", depth %" PRIu64 "), %" PRIu64 " RTL clocks, %.3f s "
           "(%.3f M requests/s)\n", c->impl, c->o.seed, r->compared, r->color, r->bits,
           r->depth, r->clocks, c->seconds,
           c->seconds > 0 ? (double)r->compared / c->seconds / 1e6 : 0.0);
    printf("  reached: blend factors 0x%08x, functions 0x%02x, stencil ops 0x%03x, depth "
           "formats 0x%03x\n", r->factors_seen, r->functions_seen, r->stencil_ops_seen,
           r->formats_seen);
}

static int cmd_om_random(int argc, char **argv)
{
    struct om_random c = { .impl = "lockstep", .o = { .seed = 1, .requests = 1000000 } };
    const struct random_command command = { "om-random", om_random_usage, "requests",
                                            &c.impl, om_random_option, om_random_command_run,
                                            om_random_print, &c };
    return random_command_main(&command, argc, argv);
}

static const char qpu_random_usage[] =
    "usage: gtsim-cosim qpu-random [--impl lockstep|lockstep_broken] [--seed S] [--requests N]\n"
    "                              [--wave FILE.fst]\n"
    "\n"
    "Seeded random instructions (16 elements each) through the QPU ALUs' RTL\n"
    "(rtl/qpu_alu.sv: unpacks, add and mul ALUs, packs, conditions, flags) against the\n"
    "C datapath (qpu_alu_compute), compared exactly; mismatches are printed and the\n"
    "exit status is 3. The cycle of a mismatch is the RTL clock (a quad a clock).\n"
    "  --requests N       instructions (default 250000: 4M element operations)\n"
    "  --wave FILE.fst    dump the RTL from 300 clocks before the first mismatch to 64\n"
    "                     after (the run is repeated to get it)\n";

struct qpu_random {
    const char *impl;
    struct qpu_random_options o;
    struct qpu_random_result r;
    double seconds;
};

static bool qpu_random_option(void *context, const char *a, const char *v)
{
    struct qpu_random *c = context;
    uint64_t x;
    if (cli_parse_u64(v, &x) && !strcmp(a, "--requests"))
        c->o.requests = x;
    else if (cli_parse_u64(v, &x) && !strcmp(a, "--seed"))
        c->o.seed = x;
    else
        return false;
    return true;
}

static int qpu_random_command_run(void *context, const char *wave, uint64_t from, uint64_t to,
                                  bool repeat, struct random_outcome *out, struct gt_error *err)
{
    struct qpu_random *c = context;
    if (strcmp(c->impl, "lockstep") != 0 && strcmp(c->impl, "lockstep_broken") != 0)
        return gt_error_set(err, "--impl %s: qpu-random runs lockstep or lockstep_broken",
                            c->impl);
    struct qpu_random_options o = c->o;
    struct qpu_random_result scratch, *r = repeat ? &scratch : &c->r;
    o.broken = strcmp(c->impl, "lockstep_broken") == 0;
    o.wave = wave;
    o.wave_from = from;
    o.wave_to = wave && !from && !to ? UINT64_MAX : to;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (qpu_random_run(&o, r, err) < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!repeat)
        c->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    *out = (struct random_outcome){ r->compared, r->mismatches, r->first_mismatch,
                                    repeat ? NULL : r->first_report, false };
    return 0;
}

static void qpu_random_print(void *context)
{
    const struct qpu_random *c = context;
    const struct qpu_random_result *r = &c->r;
    printf("gtsim-cosim qpu-random: impl %s seed %" PRIu64 ": %" PRIu64 " instructions (%"
           PRIu64 " element operations), %" PRIu64 " RTL clocks, %.3f s (%.3f M "
           "instructions/s)\n", c->impl, c->o.seed, r->compared, r->compared * 16, r->clocks,
           c->seconds, c->seconds > 0 ? (double)r->compared / c->seconds / 1e6 : 0.0);
    printf("  reached: add ops 0x%08x, mul ops 0x%02x, packs pm0 0x%04x pm1 0x%04x, unpacks "
           "pm0 0x%02x pm1 0x%02x\n", r->add_ops_seen, r->mul_ops_seen, r->packs_seen[0],
           r->packs_seen[1], r->unpacks_seen[0], r->unpacks_seen[1]);
}

static int cmd_qpu_random(int argc, char **argv)
{
    struct qpu_random c = { .impl = "lockstep", .o = { .seed = 1, .requests = 250000 } };
    const struct random_command command = { "qpu-random", qpu_random_usage, "instructions",
                                            &c.impl, qpu_random_option,
                                            qpu_random_command_run, qpu_random_print, &c };
    return random_command_main(&command, argc, argv);
}

static const char replay_usage[] =
    "usage: gtsim-cosim replay [--kind KIND] --in FILE... [--expect FILE]... [--set P=V]...\n"
    "                          [--wave FILE.fst] [--wave-before N] [--wave-after N]\n"
    "\n"
    "Drives one unit alone (KIND, default cs_alu:rtl) from port recordings of its\n"
    "inputs and checks what it sends against recordings of its outputs (fields and\n"
    "cycles, exactly). Recordings come from a co-simulation kind's record_* params,\n"
    "e.g. gtsim-cosim run --record-port gpu.cs_alu.request=req.rec ... or\n"
    "gtsim-cosim random --impl record --record-dir DIR. With --wave, a replay that\n"
    "mismatches is run again dumping the RTL from N cycles before the first\n"
    "mismatch (default 300) to N after (default 20). Exit status 3 on mismatch.\n";

static int cmd_replay(int argc, char **argv)
{
    struct replay_options o = { .kind = "cs_alu:rtl", .wave_before = 300, .wave_after = 20,
                                .lookup = cosim_kind_find, .report = stdout };
    int ni = 0, ne = 0, ns = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(replay_usage, stdout);
            return EXIT_OK;
        }
        if (!v) {
            fprintf(stderr, "gtsim-cosim replay: %s needs a value (try --help)\n", a);
            return EXIT_ERROR;
        }
        i++;
        if (!strcmp(a, "--kind"))
            o.kind = v;
        else if (!strcmp(a, "--in") && ni < REPLAY_MAX_PORTS)
            o.inputs[ni++] = v;
        else if (!strcmp(a, "--expect") && ne < REPLAY_MAX_PORTS)
            o.expects[ne++] = v;
        else if (!strcmp(a, "--set") && ns < REPLAY_MAX_SETS)
            o.sets[ns++] = v;
        else if (!strcmp(a, "--wave"))
            o.wave = v;
        else if (!strcmp(a, "--wave-before") && cli_parse_u64(v, &o.wave_before))
            ;
        else if (!strcmp(a, "--wave-after") && cli_parse_u64(v, &o.wave_after))
            ;
        else {
            fprintf(stderr, "gtsim-cosim replay: bad option '%s %s' (try --help)\n", a, v);
            return EXIT_ERROR;
        }
    }
    struct replay_result r;
    struct gt_error err;
    if (cosim_replay(&o, &r, &err) < 0) {
        fprintf(stderr, "gtsim-cosim replay: %s\n", err.message);
        return EXIT_ERROR;
    }
    printf("gtsim-cosim replay: %s: %" PRIu64 " messages in, %" PRIu64 " checked, %" PRIu64
           " mismatching, %" PRIu64 " cycles\n", o.kind, r.messages_in, r.messages_checked,
           r.mismatches, r.cycles);
    if (r.mismatches && o.wave)
        printf("  wave around cycle %" PRIu64 ": %s\n", r.first_mismatch, o.wave);
    return r.mismatches ? 3 : EXIT_OK;
}


static const char datapath_replay_usage[] =
    "usage: gtsim-cosim datapath-replay --in FILE [--broken] [--wave FILE.fst]\n"
    "                                   [--wave-before N] [--wave-after N]\n"
    "\n"
    "Drives every request of a datapath recording (rtl-cosim/datapath_recording.h: written by\n"
    "om:rtl/om:lockstep or qpu:rtl/qpu:lockstep with --set UNIT.record_datapath=FILE) into the\n"
    "block's RTL (om_pixel or qpu_alu, from the recording's header) and compares each answer\n"
    "with the recorded C one. --broken: the RTL built with `define BROKEN. --wave: the FST from\n"
    "N RTL clocks before the first mismatch (300) to N after (20). Exit 0: every answer equal;\n"
    "3: mismatches; 1: an unreadable or malformed recording (file and line named).\n";

static int cmd_datapath_replay(int argc, char **argv)
{
    struct datapath_replay_options o = { .wave_before = 300, .wave_after = 20, .report = stdout };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(datapath_replay_usage, stdout);
            return EXIT_OK;
        }
        if (!strcmp(a, "--broken")) {
            o.broken = true;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "gtsim-cosim datapath-replay: %s needs a value (try --help)\n", a);
            return EXIT_ERROR;
        }
        i++;
        if (!strcmp(a, "--in"))
            o.path = v;
        else if (!strcmp(a, "--wave"))
            o.wave = v;
        else if (!strcmp(a, "--wave-before") && cli_parse_u64(v, &o.wave_before))
            ;
        else if (!strcmp(a, "--wave-after") && cli_parse_u64(v, &o.wave_after))
            ;
        else {
            fprintf(stderr, "gtsim-cosim datapath-replay: bad option '%s %s' (try --help)\n",
                    a, v);
            return EXIT_ERROR;
        }
    }
    if (!o.path) {
        fputs(datapath_replay_usage, stderr);
        return EXIT_ERROR;
    }
    struct datapath_replay_result r;
    struct gt_error err;
    int rc = datapath_replay(&o, &r, &err);
    printf("gtsim-cosim datapath-replay: %s (unit %s): %" PRIu64 " records, %" PRIu64
           " compared, %" PRIu64 " mismatching, %" PRIu64 " RTL clocks\n",
           r.block[0] ? r.block : "?", r.unit[0] ? r.unit : "?", r.records, r.compared,
           r.mismatches, r.clocks);
    if (rc < 0) {
        fprintf(stderr, "gtsim-cosim datapath-replay: %s\n", err.message);
        return EXIT_ERROR;
    }
    if (r.mismatches)
        printf("  first mismatch at rtl clock %" PRIu64 " (record #%" PRIu64 ")\n",
               r.first_mismatch, r.first_record);
    if (r.wave_written)
        printf("  wave: %s (rtl clocks %" PRIu64 "..%" PRIu64 ")\n", o.wave, r.wave_from,
               r.wave_to);
    return r.mismatches ? 3 : EXIT_OK;
}

static const char l3_random_usage[] =
    "usage: gtsim-cosim l3-random [--impl IMPL] [--seed S] [--requests N] [--clients N]\n"
    "                             [--banks B] [--ro-permille P] [--slm-permille P]\n"
    "                             [--program-permille P] [--pop-permille P] [--memory-capacity N] [--wave FILE.fst]\n"
    "                             [--record-dir DIR]\n"
    "\n"
    "Seeded random L3 traffic (l3_stim: hits, misses, set conflicts, evictions,\n"
    "writebacks, URB, uncached, atomics) through l3 (B banks, default 1, 4 ways each) to the memory\n"
    "model, the l3 built with impl IMPL (lockstep [default], lockstep_broken, rtl,\n"
    "rtl_broken, c). Lockstep compares every reply (by tag per client: fields and\n"
    "cycle, exactly) and memory request; exit status 3 on mismatch.\n"
    "  --requests N       per client (default 20000); --clients N (default 3)\n"
    "  --pop-permille P   the requester pops replies on P of 1000 cycles (default 1000)\n"
    "  --ro-permille P, --slm-permille P   cached requests to RO data, URB ones to SLM\n"
    "  --program-permille P   an L3CNTLREG write (random partition) on P of 1000 cycles\n"
    "  --wave FILE.fst    dump the RTL: in lockstep, only from 300 cycles before the\n"
    "                     first mismatch to 64 after (the run is repeated to get it)\n"
    "  --record-dir DIR   record the l3's client[0], client_reply[0], memory and\n"
    "                     memory_reply ports to DIR/<port>.rec (for replay)\n";

struct l3_random {
    struct l3_random_options o;
    struct l3_random_result r;
};

static bool l3_random_option(void *context, const char *a, const char *v)
{
    struct l3_random_options *o = &((struct l3_random *)context)->o;
    uint64_t x;
    if (!strcmp(a, "--record-dir"))
        o->record_dir = v;
    else if (cli_parse_u64(v, &x) && !strcmp(a, "--seed"))
        o->seed = x;
    else if (cli_parse_u64(v, &x) && x <= 100000000 && !strcmp(a, "--requests"))
        o->requests = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 16 && !strcmp(a, "--clients"))
        o->clients = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 64 && !strcmp(a, "--banks"))
        o->banks = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x <= 1000 && !strcmp(a, "--ro-permille"))
        o->ro_permille = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x <= 1000 && !strcmp(a, "--slm-permille"))
        o->slm_permille = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x <= 1000 && !strcmp(a, "--program-permille"))
        o->program_permille = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 1000 && !strcmp(a, "--pop-permille"))
        o->pop_permille = (uint32_t)x;
    else if (cli_parse_u64(v, &x) && x >= 1 && x <= 4096 &&
             !strcmp(a, "--memory-capacity"))
        o->memory_capacity = (uint32_t)x;
    else
        return false;
    return true;
}

static int l3_random_command_run(void *context, const char *wave, uint64_t from, uint64_t to,
                                 bool repeat, struct random_outcome *out, struct gt_error *err)
{
    struct l3_random *c = context;
    struct l3_random_options o = c->o;
    struct l3_random_result scratch, *r = repeat ? &scratch : &c->r;
    o.wave = wave;
    o.wave_from = from;
    o.wave_to = to;
    if (repeat) {
        o.report = NULL;
        o.record_dir = NULL;
    }
    if (l3_random_run(&o, r, err) < 0)
        return -1;
    *out = (struct random_outcome){ r->compared, r->mismatches, r->first_mismatch,
                                    r->first_report, r->bad_replies != 0 };
    return 0;
}

static void l3_random_print(void *context)
{
    const struct l3_random *c = context;
    const struct l3_random_result *r = &c->r;
    printf("gtsim-cosim l3-random: impl %s seed %" PRIu64 ": %" PRIu64 " requests, %" PRIu64
           " replies (%" PRIu64 " bad), %" PRIu64 " cycles, %.3f s (%.0f k requests/s)\n",
           c->o.impl, c->o.seed, r->sent, r->received, r->bad_replies, r->cycles, r->seconds,
           r->seconds > 0 ? (double)r->sent / r->seconds / 1e3 : 0.0);
    printf("  l3:");
    for (int i = 0; i < L3_RANDOM_STATS; i++)
        printf(" %s %" PRIu64, l3_random_stat_names[i], r->stats[i]);
    printf("\n");
}

static int cmd_l3_random(int argc, char **argv)
{
    struct l3_random c = { .o = { .impl = "lockstep", .seed = 1, .requests = 20000,
                                  .report = stderr } };
    const struct random_command command = { "l3-random", l3_random_usage, "messages",
                                            &c.o.impl, l3_random_option, l3_random_command_run,
                                            l3_random_print, &c };
    return random_command_main(&command, argc, argv);
}

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A value of a run's stats.csv (path,value,...), or -1. */
static double csv_stat(const char *dir, const char *path)
{
    char file[4200], line[1024];
    snprintf(file, sizeof file, "%s/stats.csv", dir);
    FILE *f = fopen(file, "r");
    double v = -1;
    size_t n = strlen(path);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, path, n) && line[n] == ',') {
            v = strtod(line + n + 1, NULL);
            break;
        }
    if (f)
        fclose(f);
    return v;
}

/* The L3 in a whole machine: `workload` on the GT2 config with the slice's L3
 * as the C unit, the RTL and lockstep; GPU cycles per host second (the whole
 * run: loading the capture and writing the stats included). */
static int bench_l3_machine(char *argv0, const char *workload)
{
    FILE *probe = fopen(workload, "rb");
    if (!probe) {
        printf("gtsim-cosim bench: l3 in a machine: %s not found (make workloads), skipped\n",
               workload);
        return EXIT_OK;
    }
    fclose(probe);
    char dir[] = "/tmp/gtsim-cosim-bench.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gtsim-cosim bench: mkdtemp: %s\n", strerror(errno));
        return EXIT_ERROR;
    }
    printf("gtsim-cosim bench: l3 in a machine, GPU cycles per host second (%s, "
           "configs/gen9-skl-gt2.cfg)\n", workload);
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    double base = 0;
    int rc = EXIT_OK;
    for (unsigned k = 0; k < 3 && rc == EXIT_OK; k++) {
        char out[64], set[64];
        snprintf(out, sizeof out, "%s/%s", dir, impls[k]);
        snprintf(set, sizeof set, "gpu.slice.l3.impl=%s", impls[k]);
        char *args[] = { argv0, (char *)"run", (char *)"-q", (char *)"-c",
                         (char *)"configs/gen9-skl-gt2.cfg", (char *)"-o", out, (char *)"--set",
                         set, (char *)workload, NULL };
        double t0 = host_seconds();
        rc = gtsim_main(10, args, cosim_kind_find);
        double t = host_seconds() - t0;
        double cycles = csv_stat(out, "sim.clock.gt.cycles");
        double mism = csv_stat(out, "gpu.slice0.l3.mismatches");
        double clocks = csv_stat(out, "gpu.slice0.l3.rtl_clocks");
        if (rc != EXIT_OK || cycles <= 0) {
            fprintf(stderr, "gtsim-cosim bench: the %s run failed\n", impls[k]);
            rc = EXIT_ERROR;
            break;
        }
        double rate = cycles / t;
        if (k == 0)
            base = rate;
        char label[64];
        snprintf(label, sizeof label, "machine, l3 impl = \"%s\"", impls[k]);
        printf("  %-34s %8.3f M cycles/s (%.0f GPU cycles, %.2f s, %.1fx the C unit's time",
               label, rate / 1e6, cycles, t, base / rate);
        if (clocks > 0)
            printf(", %.0f RTL clocks, %.2f M clocks/s", clocks, clocks / t / 1e6);
        printf("%s)\n", mism > 0 ? ", MISMATCHES" : "");
        char cmd[200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
        if (system(cmd) != 0)
            break;
    }
    rmdir(dir);
    return rc;
}

/* The pixel datapath: the C block and the RTL on the same colour requests
 * (requests per host second), then skl fill_heavy with om as c, rtl and
 * lockstep (GPU cycles per host second, the whole run). */
static int bench_om(char *argv0)
{
    enum { POOL = 4096, REQUESTS = 400000 };
    struct om_color_request *pool = gt_xcalloc(POOL, sizeof *pool);
    uint64_t x = 1;
    for (unsigned i = 0; i < POOL; i++) {
        struct om_color_request *rq = &pool[i];
        x = x * 6364136223846793005u + 1442695040888963407u;
        rq->blend = true;
        rq->pre_clamp = rq->post_clamp = true;
        rq->source_factor = 3;              /* SRC_ALPHA / INV_SRC_ALPHA, ADD: the usual blend */
        rq->destination_factor = 19;
        rq->source_alpha_factor = 1;
        rq->destination_alpha_factor = 19;
        rq->hi = 1.0f;
        for (unsigned c = 0; c < 4; c++) {
            rq->in.src[c] = (float)((x >> (8 * c)) & 0xff) / 255.0f;
            rq->in.dst[c] = (float)((x >> (8 * c + 32)) & 0xff) / 255.0f;
        }
    }
    float out[4], sum = 0;
    double t0 = host_seconds();
    for (unsigned i = 0; i < REQUESTS * 10; i++) {
        om_color_compute(&pool[i % POOL], out);
        sum += out[0];
    }
    double c_time = (host_seconds() - t0) / 10;
    struct om_rtl *rtl = om_rtl_create(false, false);
    om_rtl_reset(rtl);
    t0 = host_seconds();
    for (unsigned i = 0; i < REQUESTS; i++) {
        om_rtl_color(rtl, &pool[i % POOL], out);
        sum += out[0];
    }
    double rtl_time = host_seconds() - t0;
    om_rtl_destroy(rtl);
    free(pool);
    struct om_random_options o = { .seed = 1, .requests = REQUESTS };
    struct om_random_result r;
    struct gt_error err;
    t0 = host_seconds();
    if (om_random_run(&o, &r, &err) < 0)
        return EXIT_ERROR;
    double lockstep_time = host_seconds() - t0;
    printf("gtsim-cosim bench: om datapath, colour requests per host second (blend SRC_ALPHA / "
           "INV_SRC_ALPHA, clamps)\n");
    printf("  %-34s %8.2f M req/s  (checksum %.1f)\n", "C block (om_color_compute)",
           REQUESTS / c_time / 1e6, (double)sum);
    printf("  %-34s %8.3f M req/s  (%.0fx the C block's time, %u RTL clocks a request)\n",
           "RTL (om_pixel.sv, Verilated)", REQUESTS / rtl_time / 1e6, rtl_time / c_time,
           OM_RTL_CLOCKS_PER_OP);
    printf("  %-34s %8.3f M req/s  (om-random: C and RTL on every request, compared; "
           "colour, bits, depth mixed; %s)\n", "lockstep", REQUESTS / lockstep_time / 1e6,
           r.mismatches ? "MISMATCHES" : "0 mismatches");
    const char *workload = "tests/data/traces/skl_fill_heavy.aub.gz";
    char dir[] = "/tmp/gtsim-cosim-bench.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gtsim-cosim bench: mkdtemp: %s\n", strerror(errno));
        return EXIT_ERROR;
    }
    printf("gtsim-cosim bench: om in a frame, GPU cycles per host second (%s, "
           "configs/gen9-skl-gt2.cfg)\n", workload);
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    double base = 0;
    int rc = EXIT_OK;
    for (unsigned k = 0; k < 3 && rc == EXIT_OK; k++) {
        char out_dir[64], set[64];
        snprintf(out_dir, sizeof out_dir, "%s/%s", dir, impls[k]);
        snprintf(set, sizeof set, "gpu.slice.om.impl=%s", impls[k]);
        char *args[] = { argv0, (char *)"run", (char *)"-q", (char *)"--no-images", (char *)"-o",
                         out_dir, (char *)"--set", set, (char *)workload, NULL };
        t0 = host_seconds();
        rc = gtsim_main(9, args, cosim_kind_find);
        double t = host_seconds() - t0;
        double cycles = csv_stat(out_dir, "sim.clock.gt.cycles");
        double mism = csv_stat(out_dir, "gpu.slice0.om.mismatches");
        double clocks = csv_stat(out_dir, "gpu.slice0.om.rtl.clocks");
        if (rc != EXIT_OK || cycles <= 0) {
            fprintf(stderr, "gtsim-cosim bench: the %s run failed\n", impls[k]);
            rc = EXIT_ERROR;
            break;
        }
        double rate = cycles / t;
        if (k == 0)
            base = rate;
        char label[64];
        snprintf(label, sizeof label, "frame, om impl = \"%s\"", impls[k]);
        printf("  %-34s %8.3f M cycles/s (%.0f GPU cycles, %.2f s, %.2fx the C unit's time",
               label, rate / 1e6, cycles, t, base / rate);
        if (clocks > 0)
            printf(", %.0f RTL clocks", clocks);
        printf("%s)\n", mism > 0 ? ", MISMATCHES" : "");
        char cmd[200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", out_dir);
        if (system(cmd) != 0)
            break;
    }
    rmdir(dir);
    return rc;
}

/* The QPU ALUs: the C datapath, the RTL streamed, lockstep (qpu-random), then GPU_FFT with
 * the RTL in the twelve QPUs. */
static int bench_qpu(char *argv0)
{
    enum { POOL = 256, INSTRUCTIONS = 100000 };
    struct qpu_alu_request *pool = gt_xcalloc(POOL, sizeof *pool);
    struct qpu_alu_result *out = gt_xcalloc(64, sizeof *out);
    uint64_t x = 1;
    for (unsigned i = 0; i < POOL; i++) {
        /* GPU_FFT's mix: fadd/fsub beside fmul, regfile and accumulator operands */
        struct qpu_alu_request *rq = &pool[i];
        rq->op_add = (uint8_t)(1 + i % 2);
        rq->op_mul = 1;
        rq->add_a = 6;
        rq->add_b = 7;
        rq->mul_a = 0;
        rq->mul_b = 7;
        rq->cond_add = rq->cond_mul = 1;
        for (unsigned e = 0; e < QPU_LANES; e++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            rq->add_operand[0][e] = 0x3f000000u | (uint32_t)(x >> 41);
            rq->add_operand[1][e] = rq->mul_operand[1][e] = 0x3e000000u | (uint32_t)(x >> 9 & 0x7fffff);
            rq->mul_operand[0][e] = 0xbf000000u | (uint32_t)(x >> 19 & 0x7fffff);
        }
    }
    uint32_t sum = 0;
    double t0 = host_seconds();
    for (unsigned i = 0; i < INSTRUCTIONS * 10; i++) {
        qpu_alu_compute(&pool[i % POOL], &out[0]);
        sum += out[0].add_value[3];
    }
    double c_time = (host_seconds() - t0) / 10;
    struct qpu_alu_rtl *rtl = qpu_alu_rtl_create(false, false);
    qpu_alu_rtl_reset(rtl);
    t0 = host_seconds();
    for (unsigned i = 0; i < INSTRUCTIONS; i += 64) {
        qpu_alu_rtl_compute_many(rtl, &pool[i % POOL], out, 64);
        sum += out[5].mul_value[7];
    }
    double rtl_time = host_seconds() - t0;
    t0 = host_seconds();
    for (unsigned i = 0; i < INSTRUCTIONS / 8; i++) {
        qpu_alu_rtl_compute_many(rtl, &pool[i % POOL], out, 1);
        sum += out[0].mul_value[7];
    }
    double one_time = (host_seconds() - t0) * 8;
    qpu_alu_rtl_destroy(rtl);
    free(pool);
    free(out);
    struct qpu_random_options o = { .seed = 1, .requests = INSTRUCTIONS };
    struct qpu_random_result r;
    struct gt_error err;
    t0 = host_seconds();
    if (qpu_random_run(&o, &r, &err) < 0)
        return EXIT_ERROR;
    double lockstep_time = host_seconds() - t0;
    printf("gtsim-cosim bench: QPU ALUs, instructions (16 elements, both ALUs) per host second\n");
    printf("  %-34s %8.2f M inst/s (checksum %08x)\n", "C datapath (qpu_alu_compute)",
           INSTRUCTIONS / c_time / 1e6, sum);
    printf("  %-34s %8.3f M inst/s (%.0fx the C datapath's time, 4 RTL clocks an instruction)\n",
           "RTL streamed (qpu_alu.sv)", INSTRUCTIONS / rtl_time / 1e6, rtl_time / c_time);
    printf("  %-34s %8.3f M inst/s (%.0fx, 6 RTL clocks an instruction, as qpu:rtl runs it)\n",
           "RTL one at a time", INSTRUCTIONS / one_time / 1e6, one_time / c_time);
    printf("  %-34s %8.3f M inst/s (qpu-random: C and RTL on every instruction, compared; %s)\n",
           "lockstep", INSTRUCTIONS / lockstep_time / 1e6,
           r.mismatches ? "MISMATCHES" : "0 mismatches");
    if (access("../shared/workloads/gpu_fft/hex", R_OK) != 0) {
        printf("gtsim-cosim bench: GPU_FFT: ../shared/workloads/gpu_fft/hex absent, skipped\n");
        return EXIT_OK;
    }
    char dir[] = "/tmp/gtsim-cosim-bench.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "gtsim-cosim bench: mkdtemp: %s\n", strerror(errno));
        return EXIT_ERROR;
    }
    printf("gtsim-cosim bench: QPUs in a workload, GPU cycles per host second (gpu_fft:log2n=8, "
           "configs/vc4-bcm2835.cfg, 12 QPUs)\n");
    static const char *const impls[] = { "c", "rtl", "lockstep" };
    double base = 0;
    int rc = EXIT_OK;
    for (unsigned k = 0; k < 3 && rc == EXIT_OK; k++) {
        char out_dir[64], set[64];
        snprintf(out_dir, sizeof out_dir, "%s/%s", dir, impls[k]);
        snprintf(set, sizeof set, "gpu.slice.qpu.impl=%s", impls[k]);
        char *args[] = { argv0, (char *)"run", (char *)"-q", (char *)"--no-images", (char *)"-o",
                         out_dir, (char *)"--set", set, (char *)"gpu_fft:log2n=8", NULL };
        t0 = host_seconds();
        rc = gtsim_main(9, args, cosim_kind_find);
        double t = host_seconds() - t0;
        double cycles = csv_stat(out_dir, "sim.clock.v3d.cycles");
        double mism = csv_stat(out_dir, "gpu.slice0.qpu0.mismatches");
        double clocks = csv_stat(out_dir, "gpu.slice0.qpu0.rtl.clocks");
        if (rc != EXIT_OK || cycles <= 0) {
            fprintf(stderr, "gtsim-cosim bench: the %s run failed\n", impls[k]);
            rc = EXIT_ERROR;
            break;
        }
        double rate = cycles / t;
        if (k == 0)
            base = rate;
        char label[64];
        snprintf(label, sizeof label, "GPU_FFT, qpu impl = \"%s\"", impls[k]);
        printf("  %-34s %8.3f M cycles/s (%.0f GPU cycles, %.2f s, %.2fx the C unit's time",
               label, rate / 1e6, cycles, t, base / rate);
        if (clocks > 0)
            printf(", %.0f RTL clocks in qpu0", clocks);
        printf("%s)\n", mism > 0 ? ", MISMATCHES" : "");
        char cmd[200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", out_dir);
        if (system(cmd) != 0)
            break;
    }
    rmdir(dir);
    return rc;
}

static int cmd_bench(int argc, char **argv)
{
    uint64_t ops = 2000000;
    const char *workload = "build/gen/workloads/sgemm.gen9.aub.gz";
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--ops") && cli_parse_u64(argv[i + 1], &ops))
            i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--workload"))
            workload = argv[++i];
        else {
            fprintf(stderr, "usage: gtsim-cosim bench [--ops N] [--workload AUB]\n");
            return EXIT_ERROR;
        }
    }
    /* The function library alone: one instruction at a time. */
    struct cs_alu_regs regs;
    memset(&regs, 0, sizeof regs);
    uint64_t rng = 1, sink = 0;
    const uint32_t n = 1u << 24;
    uint32_t *prog = gt_xmalloc(4096 * sizeof *prog);
    static const uint32_t ops12[12] = { 0x000, 0x080, 0x480, 0x081, 0x481, 0x100, 0x101,
                                        0x102, 0x103, 0x104, 0x180, 0x580 };
    for (uint32_t i = 0; i < 4096; i++) {
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        uint32_t op = ops12[(rng >> 33) % 12], kind = op >> 7 & 7;    /* 1 LOAD, 3 STORE */
        uint32_t gpr = (uint32_t)(rng >> 20) % 16, pick = (uint32_t)(rng >> 40);
        if (kind == 1)
            prog[i] = cs_alu_instruction(op, CS_ALU_REG_SRCA + pick % 2, gpr);
        else if (kind == 3)
            prog[i] = cs_alu_instruction(op, gpr, CS_ALU_REG_ACCU + pick % 3);
        else
            prog[i] = cs_alu_instruction(op, 0, 0);
    }
    double t0 = host_seconds();
    for (uint32_t i = 0; i < n; i++)
        sink += cs_alu_execute(&regs, prog[i & 4095]);
    double lib = host_seconds() - t0;
    free(prog);
    printf("gtsim-cosim bench: cs_alu throughput, ALU instructions per host second\n");
    printf("  %-34s %8.1f M ops/s   (%u instructions, checksum %" PRIu64 ")\n",
           "function library (cs_alu_execute)", n / lib / 1e6, n, sink + regs.accu % 2);
    static const char *const impls[] = { "c", "record", "rtl", "lockstep" };
    double base = 0;
    for (unsigned k = 0; k < 4; k++) {
        struct random_run_options o = { .impl = impls[k], .seed = 42, .ops = ops };
        struct random_run_result r;
        struct gt_error err;
        if (cosim_random_run(&o, &r, &err) < 0) {
            fprintf(stderr, "gtsim-cosim bench: %s\n", err.message);
            return EXIT_ERROR;
        }
        double rate = (double)r.instructions / r.seconds;
        if (k == 0)
            base = rate;
        char label[64];
        snprintf(label, sizeof label, "fabric, impl = \"%s\"%s", impls[k],
                 k == 1 ? " (no file)" : "");
        printf("  %-34s %8.3f M ops/s   (%" PRIu64 " ops, %" PRIu64 " cycles, %.2f s, %.1fx "
               "the C unit's time%s)\n", label, rate / 1e6, r.instructions, r.cycles, r.seconds,
               base / rate, r.mismatches ? ", MISMATCHES" : "");
    }
    /* The L3: random requests from three clients, with reply back-pressure. */
    printf("gtsim-cosim bench: l3 throughput, L3 requests per host second (3 clients, "
           "pop 700/1000)\n");
    static const char *const l3_impls[] = { "c", "rtl", "lockstep" };
    uint32_t l3_requests = (uint32_t)(ops / 20 > 1000 ? ops / 20 : 1000);
    for (unsigned k = 0; k < 3; k++) {
        struct l3_random_options o = { .impl = l3_impls[k], .seed = 42, .requests = l3_requests,
                                       .pop_permille = 700 };
        struct l3_random_result r;
        struct gt_error err;
        if (l3_random_run(&o, &r, &err) < 0) {
            fprintf(stderr, "gtsim-cosim bench: %s\n", err.message);
            return EXIT_ERROR;
        }
        double rate = (double)r.sent / r.seconds;
        if (k == 0)
            base = rate;
        char label[64];
        snprintf(label, sizeof label, "fabric, l3 impl = \"%s\"", l3_impls[k]);
        printf("  %-34s %8.3f M req/s   (%" PRIu64 " requests, %" PRIu64 " cycles, %.2f s, "
               "%.1fx the C unit's time, %.2f M cycles/s%s)\n", label, rate / 1e6, r.sent,
               r.cycles, r.seconds, base / rate, (double)r.cycles / r.seconds / 1e6,
               r.mismatches ? ", MISMATCHES" : "");
    }
    if (bench_l3_machine(argv[0], workload) != EXIT_OK)
        return EXIT_ERROR;
    if (bench_qpu(argv[0]) != EXIT_OK)
        return EXIT_ERROR;
    if (bench_om(argv[0]) != EXIT_OK)
        return EXIT_ERROR;
    /* The FPU pipe: random operations (4 lanes each), no back-pressure. */
    uint64_t fpu_requests = ops / 4;
    printf("gtsim-cosim bench: fpu throughput, operations (4 lanes, or 2 DF) per host second\n");
    struct fpu_gen g;
    fpu_gen_init(&g, 42);
    struct fpu_request *qs = gt_xmalloc(4096 * sizeof *qs);
    for (unsigned i = 0; i < 4096; i++)
        fpu_gen_request(&g, &qs[i]);
    const uint32_t fn = 1u << 20;
    uint32_t fsum = 0;
    t0 = host_seconds();
    for (uint32_t i = 0; i < fn; i++) {
        struct fpu_response fr;
        fpu_compute(&qs[i & 4095], &fr);
        fsum += fr.result[i & 3] + fr.flags;
    }
    double flib = host_seconds() - t0;
    printf("  %-34s %8.3f M ops/s   (%u operations, checksum %u)\n",
           "function library (fpu_compute)", fn / flib / 1e6, fn, fsum);
    struct fpu_rtl *rtl = fpu_rtl_create(FPU_RTL_GOOD, false);
    fpu_rtl_reset(rtl);
    fpu_rtl_set_depth(rtl, 4);
    fpu_rtl_set_resp_ready(rtl, true);
    const uint32_t rn = 1u << 18;
    t0 = host_seconds();
    for (uint32_t i = 0; i < rn; i++) {
        fpu_rtl_set_request(rtl, &qs[i & 4095], i);
        fpu_rtl_clock(rtl, i);
        if (fpu_rtl_resp_valid(rtl)) {
            struct fpu_response fr;
            uint32_t tag;
            fpu_rtl_response(rtl, &fr, &tag);
            fsum += fr.result[i & 3];
        }
    }
    double frtl = host_seconds() - t0;
    fpu_rtl_destroy(rtl);
    free(qs);
    printf("  %-34s %8.3f M ops/s   (%u operations, one per clock, checksum %u)\n",
           "Verilated fpu_pipe alone (no fabric)", rn / frtl / 1e6, rn, fsum);
    static const char *const fpu_impls[] = { "c", "rtl", "lockstep" };
    double fbase = 0;
    for (unsigned k = 0; k < 3; k++) {
        struct fpu_random_options o = { .impl = fpu_impls[k], .seed = 42,
                                        .requests = fpu_requests };
        struct fpu_random_result r;
        struct gt_error err;
        if (fpu_random_run(&o, &r, &err) < 0) {
            fprintf(stderr, "gtsim-cosim bench: %s\n", err.message);
            return EXIT_ERROR;
        }
        double rate = (double)r.sent / r.seconds;
        if (k == 0)
            fbase = rate;
        char label[64];
        snprintf(label, sizeof label, "fabric, fpu impl = \"%s\"", fpu_impls[k]);
        printf("  %-34s %8.3f M ops/s   (%" PRIu64 " operations, %" PRIu64 " cycles, %.2f s, "
               "%.1fx the C unit's time%s)\n", label, rate / 1e6, r.sent, r.cycles, r.seconds,
               fbase / rate, r.mismatches ? ", MISMATCHES" : "");
    }
    return EXIT_OK;
}

/* config: --record-port UNIT.PORT=FILE becomes --set UNIT.record_PORT. */
static int rewrite_and_run(int argc, char **argv)
{
    char **args = gt_xcalloc((size_t)argc * 2 + 1, sizeof *args);
    char **owned = gt_xcalloc((size_t)argc + 1, sizeof *owned);
    int n = 0, no = 0;
    for (int i = 0; i < argc; i++) {
        /* `run` records any port itself (fabric/recording.h, port observers);
         * `config` has no --record-port, so there it becomes the co-simulation
         * kinds' record_* params */
        bool rec = !strcmp(argv[i], "--record-port") && argc > 1 && strcmp(argv[1], "run") != 0;
        if (rec && i > 1 && i + 1 < argc) {
            const char *spec = argv[++i];
            const char *eq = strchr(spec, '=');
            const char *dot = eq;
            for (const char *p = spec; p < eq; p++)
                if (*p == '.')
                    dot = p;
            if (!eq || dot == eq) {
                fprintf(stderr, "gtsim-cosim: %s wants UNIT.PORT=FILE, not '%s'\n", argv[i - 1],
                        spec);
                for (int k = 0; k < no; k++)
                    free(owned[k]);
                free(owned);
                free(args);
                return EXIT_ERROR;
            }
            char *set = gt_xmalloc(strlen(spec) + 32);
            sprintf(set, "%.*s.record_%.*s=\"%s\"", (int)(dot - spec), spec,
                    (int)(eq - dot - 1), dot + 1, eq + 1);
            owned[no++] = set;
            args[n++] = (char *)"--set";
            args[n++] = set;
        } else {
            args[n++] = argv[i];
        }
    }
    int rc = gtsim_main(n, args, cosim_kind_find);
    for (int k = 0; k < no; k++)
        free(owned[k]);
    free(owned);
    free(args);
    return rc;
}

struct units_walk {
    char *argv0;
    int rc;
};

static void print_cosim_kind(const struct unit_ops *ops, void *context)
{
    struct units_walk *w = context;
    char *args[] = { w->argv0, (char *)"units", (char *)ops->kind, NULL };
    printf("\n");
    fflush(stdout);
    if (gtsim_main(3, args, cosim_kind_find) != EXIT_OK)
        w->rc = EXIT_ERROR;
}

int main(int argc, char **argv)
{
    /* `units` lists gtsim's kinds from its registry; the co-simulation kinds
     * follow (cmd_units has no way to enumerate a lookup's kinds). */
    if (argc == 2 && !strcmp(argv[1], "units")) {
        struct units_walk w = { argv[0], gtsim_main(argc, argv, cosim_kind_find) };
        fflush(stdout);
        cosim_kinds_each(print_cosim_kind, &w);
        return w.rc;
    }
    if (argc >= 2 && !strcmp(argv[1], "random"))
        return cmd_random(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "build-math-aub")) {
        if (argc != 3 || argv[2][0] == '-') {
            fprintf(stderr, "usage: gtsim-cosim build-math-aub OUT.aub\n"
                    "  a Gen9 execlist capture whose batch runs MI_MATH programs using every ALU\n"
                    "  opcode and stores R0..R15 after each to GGTT 0x%x (%d bytes; see\n"
                    "  rtl-cosim/math_aub.h)\n", MATH_AUB_RESULT_GGTT, MATH_AUB_RESULT_BYTES);
            return EXIT_ERROR;
        }
        struct gt_error err;
        if (math_aub_write(argv[2], &err) < 0) {
            fprintf(stderr, "gtsim-cosim build-math-aub: %s\n", err.message);
            return EXIT_ERROR;
        }
        return EXIT_OK;
    }
    if (argc >= 2 && !strcmp(argv[1], "l3-random"))
        return cmd_l3_random(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "fpu-random"))
        return cmd_fpu_random(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "om-random"))
        return cmd_om_random(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "qpu-random"))
        return cmd_qpu_random(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "replay"))
        return cmd_replay(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "datapath-replay"))
        return cmd_datapath_replay(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "bench"))
        return cmd_bench(argc - 1, argv + 1);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        printf("gtsim-cosim: gtsim with the Verilated units (cs_alu:rtl, cs_alu:lockstep,\n"
               "cs_alu:record, l3:rtl, l3:lockstep, and the *_broken variants).\n\n"
               "co-simulation commands:\n"
               "  random          seeded random lockstep run of cs_alu (random --help)\n"
               "  l3-random       seeded random lockstep run of the L3 (l3-random --help)\n"
               "  fpu-random      seeded random lockstep run of the FPU pipe (fpu-random --help)\n"
               "  om-random       random requests through the pixel datapath RTL (om-random --help)\n"
               "  build-math-aub OUT.aub  a Gen9 capture running MI_MATH (rtl-cosim/math_aub.h)\n"
               "  replay          drive a unit alone from port recordings (replay --help)\n"
               "  datapath-replay drive om_pixel / qpu_alu from a datapath recording\n"
               "  bench           co-simulation throughput against the C units alone\n"
               "`run` also takes --wave FILE.fst (every unit run as RTL) or --wave UNIT=FILE.fst\n"
               "and records any port with --record-port UNIT.PORT[N]=FILE.\n\n");
        return gtsim_main(2, (char *[]){ argv[0], (char *)"--help", NULL }, cosim_kind_find);
    }
    return rewrite_and_run(argc, argv);
}
