/* units/qpu/qpu.c - one VideoCore IV QPU; see qpu.h. */
#include "units/qpu/qpu.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/sim.h"
#include "isa/vc4/qpu_decode.h"
#include "isa/vc4/qpu_exec.h"
#include "units/common/memreq.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"

/* The shared functions a QPU talks to, one output and one result port each. */
enum qpu_function { FN_SFU, FN_VPM, FN_SYNC, FN_TMU0, FN_TMU1, FN_TLB, FN_COUNT };

static const char *const fn_name[FN_COUNT] = { "sfu", "vpm", "sync", "tmu0", "tmu1", "tlb" };

/* What a function's next answer is for (answers come in request order per function). */
enum expect { EXPECT_R4, EXPECT_READ, EXPECT_GRANT };

#define EXPECT_MAX 32
#define OUTBOX_MAX 16

struct expect_fifo {
    uint8_t kind[EXPECT_MAX];
    uint8_t slot[EXPECT_MAX];   /* EXPECT_READ: which of the instruction's reads it answers */
    uint8_t thread[EXPECT_MAX]; /* the thread (program.thread) that asked */
    unsigned head, count;
};

struct outgoing {
    int fn;             /* FN_* or -1: the "done" port */
    struct msg *m;
};

/* Causes of a held issue, for the stall counters. */
enum stall_cause { STALL_NONE, STALL_SEND, STALL_R4, STALL_VPM, STALL_SYNC, STALL_TMU, STALL_TLB,
                   STALL_ICACHE, STALL_UNIFORMS, STALL_COUNT };

/* The QPU's instruction and uniforms caches (QIC, QUC; see qpu.h): direct mapped, 64-byte
 * lines (the L2C's line, memreq.h). */
enum fetch_cache { CACHE_INSTRUCTIONS, CACHE_UNIFORMS, CACHE_COUNT };
#define FETCH_LINE 64u

struct fetch_cache_state {
    uint32_t *tag;              /* line address + 1 per line; 0: empty */
    uint32_t lines;
    bool waiting;               /* a fill of `waiting_line` is on its way from the L2C */
    uint32_t waiting_line;
    bool missed;                /* the instruction being issued missed (its hit not counted) */
    bool ready;                 /* uniforms: the instruction's uniforms are present */
    uint64_t hits, misses;
};

/* Restrictions that span instructions (002 @88994, notes §3.10), counted. */
enum restriction {
    R_REGFILE_RAW,          /* item 7 */
    R_R4_TOO_SOON,          /* item 8: r4 read within 2 after an SFU write */
    R_R4_WRITE_TOO_SOON,    /* item 8: another r4 writer within 2 after an SFU write */
    R_ROTATE_AFTER_R5,      /* item 9 */
    R_ROTATE_AFTER_ACC,     /* item 10 */
    R_UNIFORM_AFTER_ADDRESS,/* item 14 */
    R_END_IO,               /* item 1: uniform/varying/VPM access in the last three */
    R_END_REGFILE_WRITE,    /* item 2 */
    R_END_ADDRESS_14,       /* item 3 */
    R_COUNT
};

static const char *const restriction_text[R_COUNT] = {
    "regfile location read by the instruction after the one that wrote it (002 @88994)",
    "r4 read in the 2 instructions after an SFU write (002 @64904, @88994)",
    "r4 written (SFU/TMU/TLB) in the 2 instructions after an SFU write (002 @88994)",
    "vector rotate by r5 right after a write of r5 (002 @88994)",
    "vector rotate right after a write of the rotated accumulator (002 @88994)",
    "uniform read within 2 instructions of a UNIFORMS_ADDRESS write (002 @63309)",
    "uniform, varying or VPM access in the last three instructions of a program (002 @88994)",
    "Program End instruction writes regfile A or B (002 @88994)",
    "regfile address 14 used in the last three instructions (002 @88994)",
};

struct pending_read {
    int fn;
    unsigned raddr;
    bool file_b;
};

/* What one hardware thread owns. Two threads of a two-threaded fragment shader share a QPU
 * (002 @56345, notes §3.11: each has half the regfiles, "Accumulators and flags are not
 * preserved across thread switches"); here each keeps its whole register state, swapped in
 * when it runs. */
struct thread_context {
    struct qpu_state st;
    struct qpu_program program;
    uint64_t program_instructions;
    unsigned ending;            /* delay slots still to run after Program End */
    unsigned switching;         /* delay slots still to run after a Thread Switch */
    bool noswap;
    unsigned tmu_components[2]; /* t/r/b writes since the last s, per TMU */
    uint32_t uniforms_read;
    unsigned r4_pending;        /* SFU/TMU/TLB results still to land in r4 */
    /* restriction tracking: the previous instructions */
    uint64_t index;             /* instructions issued in the program, 1-based at issue */
    uint32_t prev_write_a, prev_write_b;  /* physical regfile locations written (bit n) */
    uint32_t prev_acc_write;    /* accumulators written by the previous instruction (bit n) */
    uint64_t last_sfu_write, last_uniforms_address;
};

struct qpu {
    /* params */
    uint32_t qpu_number, cycles_per_instruction, address_mask, memory_bytes_mb;
    uint32_t qpus_per_slice, tmus_per_slice;
    uint32_t cache_kb[CACHE_COUNT];
    uint64_t watchdog_instructions;
    /* ports */
    struct port *start, *done;
    struct port *l2, *l2_reply, *control;
    struct fetch_cache_state cache[CACHE_COUNT];
    uint64_t cache_clears, l2_stray_replies;
    struct port *out[FN_COUNT], *result[FN_COUNT];
    /* program: the running thread's context, and a second (suspended) fragment shader
     * thread when two-threaded shaders share the QPU */
    bool running;
    struct thread_context t;
    struct thread_context other;
    bool other_present;
    /* the instruction being issued */
    bool fetched;
    struct vc4_qpu_instr in;
    struct pending_read reads[2];
    unsigned reads_needed, reads_have, reads_used;
    bool reads_requested;
    unsigned read_slot;         /* the read being requested (its answer's slot) */
    uint32_t read_value[2][QPU_LANES];
    uint32_t read_c[2][QPU_LANES];  /* VARYING_READ answers: the C coefficient (to r5) */
    uint64_t next_issue;        /* cycle the instruction may issue at */
    enum stall_cause stall;
    /* outstanding answers */
    struct expect_fifo expect[FN_COUNT];
    unsigned grants_pending;
    /* messages waiting for their channel, in order */
    struct outgoing outbox[OUTBOX_MAX];
    unsigned outbox_count;
    uint32_t logged;
    /* stats */
    uint64_t programs, instructions, busy_cycles;
    uint64_t stall_cycles[STALL_COUNT];
    uint64_t restrictions[R_COUNT];
    uint64_t illegal_instructions, io_unbound, unsupported_io, watchdog_kills, fetch_faults;
    uint64_t uniforms, uniform_overruns, uniform_faults, thread_switches_ignored;
    uint64_t host_interrupts, breakpoints, sfu_writes, vpm_accesses, sync_accesses;
    uint64_t tmu_accesses, bad_messages, unexpected_results, semaphore_ops, expect_overflow;
    /* work by program kind (enum qpu_program_kind): utilisation by shader kind */
    uint64_t programs_by_kind[QPU_KIND_COUNT], instructions_by_kind[QPU_KIND_COUNT];
    uint64_t busy_by_kind[QPU_KIND_COUNT];
    uint64_t tlb_accesses, varying_reads, scoreboard_signals, thread_switches;
    uint64_t thread_switches_taken;
    /* the ALUs' datapath (qpu_set_alu_datapath; NULL: the C one); kept across resets */
    const struct qpu_alu_datapath *alu;
};

static bool is_fragment(const struct qpu *s)
{
    return s->t.program.kind == QPU_KIND_FRAGMENT;
}

static int io_read_function(const struct qpu *s, unsigned raddr);

/* Two-threaded fragment shaders share a QPU; "Threadable and non-threadable programs are never
 * mixed on a QPU" (notes §3.11) */
static bool threadable(const struct qpu_program *p)
{
    return p->kind == QPU_KIND_FRAGMENT && p->threaded;
}

static unsigned program_kind(const struct qpu *s)
{
    return s->t.program.kind < QPU_KIND_COUNT ? s->t.program.kind : QPU_KIND_USER;
}

static const struct param_desc qpu_params[] = {
    PARAM_U32_FIELD("qpu_number", struct qpu, qpu_number, 0, 0, 15,
                    "QPU_NUMBER (raddr_b 38, Table 14 @91738) until a program start names it "
                    "(the scheduler's port index)"),
    PARAM_U32_FIELD("qpus_per_slice", struct qpu, qpus_per_slice, 4, 1, 16,
                    "QPUs in a slice (IDENT1 QUPS, Table 80): the QPU's place in its slice is "
                    "its number modulo this"),
    PARAM_U32_FIELD("tmus_per_slice", struct qpu, tmus_per_slice, 1, 1, 2,
                    "TMUs in the slice (IDENT1 TUPS); with 2, QPUs 2 and 3 of the slice swap "
                    "TMU0 and TMU1 unless TMU_NOSWAP is written (002 @97875)"),
    PARAM_U32_FIELD("cycles_per_instruction", struct qpu, cycles_per_instruction, 4, 1, 64,
                    "clocks per instruction: \"instruction cycle time of four system clocks\" "
                    "(002 @43385)"),
    PARAM_U64_FIELD("watchdog_instructions", struct qpu, watchdog_instructions, 100000000, 1,
                    1000000000000LL,
                    "instructions after which a program that has not ended is stopped (counted)"),
    PARAM_U32_FIELD("address_mask", struct qpu, address_mask, 0xffffffffu, 1, 0xffffffffu,
                    "mask applied to bus addresses (BCM2835: 0x3fffffff, bits 31:30 are the cache "
                    "alias)"),
    PARAM_U32_FIELD("memory_mb", struct qpu, memory_bytes_mb, 1024, 1, 4096,
                    "memory the QPU can address, MiB; fetches and uniforms beyond it are counted"),
    PARAM_U32_FIELD("icache_kb", struct qpu, cache_kb[CACHE_INSTRUCTIONS], 4, 1, 64,
                    "this QPU's instruction cache (its share of the slice's QIC), KiB, direct "
                    "mapped in 64-byte lines; used when \"l2\" is bound (the seed gives no "
                    "size, @45709 [chosen])"),
    PARAM_U32_FIELD("uniforms_cache_kb", struct qpu, cache_kb[CACHE_UNIFORMS], 1, 1, 64,
                    "this QPU's uniforms cache (its share of the slice's QUC), KiB, direct "
                    "mapped in 64-byte lines; used when \"l2\" is bound (the seed gives no "
                    "size, @62206 [chosen])"),
    PARAM_END
};

#define IO_KINDS MSG_BIT(MSG_QPU_IO)
#define RESULT_KINDS MSG_BIT(MSG_QPU_RESULT)

static const struct port_desc qpu_ports[] = {
    { .name = "start", .direction = PORT_IN, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "programs to run (QPU_IO_START, struct qpu_program) from the scheduler" },
    { .name = "done", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "program ends and HOST_INT writes to the scheduler" },
    { .name = "sfu", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "SFU_RECIP/RECIPSQRT/EXP/LOG writes" },
    { .name = "vpm", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "VPM and VCD/VDW accesses" },
    { .name = "sync", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "mutex and semaphores" },
    { .name = "tmu0", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "TMU0 writes and loads" },
    { .name = "tmu1", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "TMU1 writes and loads" },
    { .name = "sfu_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "SFU results (to r4)" },
    { .name = "vpm_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "VPM reads, busy and wait answers" },
    { .name = "sync_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "mutex and semaphore grants" },
    { .name = "tmu0_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "TMU0 data (to r4)" },
    { .name = "tmu1_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "TMU1 data (to r4)" },
    { .name = "tlb", .direction = PORT_OUT, .msg_kinds = IO_KINDS, .flags = PORT_OPTIONAL,
      .help = "fragment shaders: varying, pixel coordinate and MS flag reads, TLB writes, "
              "colour loads and scoreboard signals (to v3d's FEP and tile buffer)" },
    { .name = "tlb_result", .direction = PORT_IN, .msg_kinds = RESULT_KINDS,
      .flags = PORT_OPTIONAL, .help = "varyings (with C to r5), coordinates, flags, colour "
              "loads (to r4)" },
    { .name = "l2", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MEMORY_REQUEST),
      .flags = PORT_OPTIONAL, .help = "instruction and uniforms cache line fills from the L2C" },
    { .name = "l2_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MEMORY_RESPONSE),
      .flags = PORT_OPTIONAL, .help = "the L2C's replies to the line fills" },
    { .name = "control", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "V3D_SLCACTL writes: ICCS / UCCS cache clears" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct qpu, f, m, h)
static const struct stat_desc qpu_stats[] = {
    C("programs", programs, "programs", "programs run to their end (or stopped)"),
    C("instructions", instructions, "instructions", "instructions issued"),
    C("busy_cycles", busy_cycles, "cycles", "cycles spent issuing (instructions x cycles per "
      "instruction)"),
    C("stall.send", stall_cycles[STALL_SEND], "cycles", "issue held by a full I/O channel"),
    C("stall.r4", stall_cycles[STALL_R4], "cycles", "issue held for an SFU/TMU result in r4"),
    C("stall.vpm", stall_cycles[STALL_VPM], "cycles", "issue held for a VPM read or DMA wait"),
    C("stall.sync", stall_cycles[STALL_SYNC], "cycles", "issue held for the mutex or a semaphore"),
    C("stall.tmu", stall_cycles[STALL_TMU], "cycles", "issue held for the TMU"),
    C("stall.tlb", stall_cycles[STALL_TLB], "cycles",
      "issue held for a varying, coordinate or flag read from the FEP/TLB"),
    C("stall.icache", stall_cycles[STALL_ICACHE], "cycles",
      "issue held for an instruction cache fill from the L2C"),
    C("stall.uniforms", stall_cycles[STALL_UNIFORMS], "cycles",
      "issue held for a uniforms cache fill from the L2C"),
    C("icache_hits", cache[CACHE_INSTRUCTIONS].hits, "fetches",
      "instruction fetches found in the instruction cache (performance counter 20)"),
    C("icache_misses", cache[CACHE_INSTRUCTIONS].misses, "lines",
      "instruction cache misses filled from the L2C (performance counter 21)"),
    C("uniforms_cache_hits", cache[CACHE_UNIFORMS].hits, "instructions",
      "instructions whose uniforms were in the uniforms cache (performance counter 22)"),
    C("uniforms_cache_misses", cache[CACHE_UNIFORMS].misses, "lines",
      "uniforms cache misses filled from the L2C (performance counter 23)"),
    C("cache_clears", cache_clears, "events",
      "V3D_SLCACTL writes with an ICCS or UCCS bit (Table 72)"),
    C("l2_stray_replies", l2_stray_replies, "messages",
      "L2C replies for no outstanding fill (dropped)"),
    C("programs.user", programs_by_kind[QPU_KIND_USER], "programs", "user programs run"),
    C("programs.fragment", programs_by_kind[QPU_KIND_FRAGMENT], "programs",
      "fragment shader threads run"),
    C("programs.vertex", programs_by_kind[QPU_KIND_VERTEX], "programs", "vertex shaders run"),
    C("programs.coordinate", programs_by_kind[QPU_KIND_COORDINATE], "programs",
      "coordinate shaders run"),
    C("instructions.user", instructions_by_kind[QPU_KIND_USER], "instructions",
      "instructions of user programs"),
    C("instructions.fragment", instructions_by_kind[QPU_KIND_FRAGMENT], "instructions",
      "instructions of fragment shaders"),
    C("instructions.vertex", instructions_by_kind[QPU_KIND_VERTEX], "instructions",
      "instructions of vertex shaders"),
    C("instructions.coordinate", instructions_by_kind[QPU_KIND_COORDINATE], "instructions",
      "instructions of coordinate shaders"),
    C("busy_cycles.user", busy_by_kind[QPU_KIND_USER], "cycles", "issue cycles of user programs"),
    C("busy_cycles.fragment", busy_by_kind[QPU_KIND_FRAGMENT], "cycles",
      "issue cycles of fragment shaders (utilisation by shader kind)"),
    C("busy_cycles.vertex", busy_by_kind[QPU_KIND_VERTEX], "cycles",
      "issue cycles of vertex shaders"),
    C("busy_cycles.coordinate", busy_by_kind[QPU_KIND_COORDINATE], "cycles",
      "issue cycles of coordinate shaders"),
    C("tlb_accesses", tlb_accesses, "accesses",
      "fragment shader TLB writes and loads, pixel coordinate and flag reads"),
    C("varying_reads", varying_reads, "reads", "VARYING_READs of fragment shaders"),
    C("scoreboard_signals", scoreboard_signals, "signals",
      "Wait for Scoreboard / Scoreboard Unlock signals passed to the TLB"),
    C("thread_switches", thread_switches, "signals",
      "thread switch signals of fragment shaders (sig 2, 6)"),
    C("thread_switches_taken", thread_switches_taken, "switches",
      "switches to the QPU's other (suspended) fragment shader thread"),
    C("restriction.regfile_read_after_write", restrictions[R_REGFILE_RAW], "instructions",
      "reads of a regfile location written by the previous instruction (002 @88994)"),
    C("restriction.r4_read_too_soon", restrictions[R_R4_TOO_SOON], "instructions",
      "r4 reads in the 2 instructions after an SFU write (002 @64904)"),
    C("restriction.r4_write_too_soon", restrictions[R_R4_WRITE_TOO_SOON], "instructions",
      "r4 writers (SFU/TMU/TLB) in the 2 instructions after an SFU write"),
    C("restriction.rotate_after_r5_write", restrictions[R_ROTATE_AFTER_R5], "instructions",
      "rotates by r5 right after a write of r5"),
    C("restriction.rotate_after_accumulator_write", restrictions[R_ROTATE_AFTER_ACC],
      "instructions", "rotates right after a write of the rotated accumulator"),
    C("restriction.uniform_after_address_write", restrictions[R_UNIFORM_AFTER_ADDRESS],
      "instructions", "uniform reads within 2 instructions of a UNIFORMS_ADDRESS write"),
    C("restriction.end_io", restrictions[R_END_IO], "instructions",
      "uniform/varying/VPM accesses in the last three instructions of a program"),
    C("restriction.end_regfile_write", restrictions[R_END_REGFILE_WRITE], "instructions",
      "Program End instructions writing regfile A or B"),
    C("restriction.end_address_14", restrictions[R_END_ADDRESS_14], "instructions",
      "regfile address 14 used in the last three instructions"),
    C("illegal_instructions", illegal_instructions, "instructions",
      "instructions the decoder flags (reserved codes, forbidden combinations; vc4_illegal)"),
    C("io_unbound", io_unbound, "accesses", "I/O to a function whose port is not linked"),
    C("unsupported_io", unsupported_io, "accesses",
      "TLB, varyings and signals in programs that are not fragment shaders (reads answer 0)"),
    C("watchdog_kills", watchdog_kills, "programs", "programs stopped by the watchdog"),
    C("fetch_faults", fetch_faults, "programs", "programs ended by a fetch beyond memory"),
    C("uniforms", uniforms, "words", "uniforms read"),
    C("uniform_overruns", uniform_overruns, "words", "uniforms read past the program's length"),
    C("uniform_faults", uniform_faults, "words", "uniforms beyond memory (read as 0)"),
    C("thread_switches_ignored", thread_switches_ignored, "signals",
      "thread switch signals (one thread modelled: the program continues)"),
    C("host_interrupts", host_interrupts, "writes", "HOST_INT writes"),
    C("breakpoints", breakpoints, "signals", "breakpoint signals (ignored)"),
    C("sfu_writes", sfu_writes, "writes", "SFU writes"),
    C("vpm_accesses", vpm_accesses, "accesses", "VPM/VCD/VDW reads and writes"),
    C("sync_accesses", sync_accesses, "accesses", "mutex accesses"),
    C("semaphore_ops", semaphore_ops, "instructions", "semaphore instructions"),
    C("tmu_accesses", tmu_accesses, "accesses", "TMU writes and load signals"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("unexpected_results", unexpected_results, "messages", "results nobody asked for (dropped)"),
    C("expect_overflow", expect_overflow, "requests",
      "requests beyond the outstanding-answer limit (their answers are dropped)"),
    STAT_END
};
#undef C

static const struct key_figure qpu_key_figures[] = {
    { .label = "QPU instructions", .form = KEY_FIGURE_TOTAL, .stat = "instructions",
      .flags = KEY_FIGURE_GATES },
    { .label = "QPU utilisation", .form = KEY_FIGURE_PER_CYCLE, .stat = "busy_cycles" },
    KEY_FIGURE_END
};

/* ---- helpers ------------------------------------------------------------------------------ */

static void note(struct qpu *s, struct unit *u, unsigned bit, const char *what)
{
    if (bit < 32 && !(s->logged & (1u << bit))) {
        s->logged |= 1u << bit;
        unit_log(u, SIM_LOG_NOTE, "QPU %u pc 0x%x: %s (counted; later ones are not logged)",
                 s->qpu_number, s->t.st.pc, what);
    }
}

static void restriction(struct qpu *s, struct unit *u, enum restriction r)
{
    s->restrictions[r]++;
    note(s, u, (unsigned)r, restriction_text[r]);
}

/* Reads 4 bytes of memory at a bus address; false beyond memory. */
static bool read_word(struct qpu *s, struct unit *u, uint32_t address, uint32_t *value)
{
    uint64_t a = address & s->address_mask;
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    *value = 0;
    if (!mem || a + 4 > (uint64_t)s->memory_bytes_mb << 20)
        return false;
    return gpu_memory_read(mem, a, value, 4, NULL) == 0;
}

static bool expect_push(struct qpu *s, int fn, enum expect e)
{
    struct expect_fifo *f = &s->expect[fn];
    if (f->count >= EXPECT_MAX) {
        s->expect_overflow++;
        return false;
    }
    unsigned i = (f->head + f->count++) % EXPECT_MAX;
    f->kind[i] = (uint8_t)e;
    f->slot[i] = (uint8_t)s->read_slot;
    f->thread[i] = (uint8_t)s->t.program.thread;
    return true;
}

/* Queues a message for a function's port (or "done" when fn < 0), in order. */
static void queue(struct qpu *s, struct unit *u, int fn, struct msg *m)
{
    if (s->outbox_count >= OUTBOX_MAX) {
        /* cannot happen: the QPU does not issue while the outbox holds messages and one
         * instruction queues at most a few */
        s->bad_messages++;
        msg_free(unit_sim(u), m);
        return;
    }
    s->outbox[s->outbox_count++] = (struct outgoing){ fn, m };
}

static bool flush_outbox(struct qpu *s)
{
    unsigned sent = 0;
    while (sent < s->outbox_count) {
        struct outgoing *o = &s->outbox[sent];
        struct port *p = o->fn < 0 ? s->done : s->out[o->fn];
        if (!port_try_send(p, o->m))
            break;
        sent++;
    }
    memmove(s->outbox, s->outbox + sent, (s->outbox_count - sent) * sizeof s->outbox[0]);
    s->outbox_count -= sent;
    return s->outbox_count == 0;
}

static struct qpu_io_request *new_request(struct qpu *s, struct unit *u, struct msg **m,
                                          uint32_t op, uint32_t reg, bool file_b)
{
    *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_io_request));
    struct qpu_io_request *r = (struct qpu_io_request *)(*m)->payload;
    r->op = op;
    r->reg = reg;
    r->file_b = file_b;
    r->qpu = s->qpu_number;
    r->thread = s->t.program.thread;
    (*m)->tag = s->qpu_number;
    return r;
}

/* Sends a request to fn, expecting an answer of kind e (or none when e < 0). False when the
 * function is not linked (counted; the caller answers for it). */
static bool request(struct qpu *s, struct unit *u, int fn, int e, uint32_t op, uint32_t reg,
                    bool file_b, const uint32_t value[QPU_LANES], uint16_t lanes,
                    const uint32_t *uniform)
{
    if (!port_is_bound(s->out[fn]) || (e >= 0 && !port_is_bound(s->result[fn]))) {
        s->io_unbound++;
        note(s, u, 20 + (unsigned)fn, "I/O to an unlinked function (reads answer 0)");
        return false;
    }
    struct msg *m;
    struct qpu_io_request *r = new_request(s, u, &m, op, reg, file_b);
    r->lane_mask = lanes;
    if (value)
        memcpy(r->value, value, sizeof r->value);
    if (uniform) {
        r->uniform = *uniform;
        r->uniform_valid = 1;
    }
    if (e >= 0 && !expect_push(s, fn, (enum expect)e)) {
        msg_free(unit_sim(u), m);
        return false;
    }
    queue(s, u, fn, m);
    return true;
}

static void report_program(struct qpu *s, struct unit *u, uint32_t op, uint32_t status,
                           uint32_t value)
{
    if (!port_is_bound(s->done))
        return;
    struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_program));
    struct qpu_program *p = (struct qpu_program *)m->payload;
    *p = s->t.program;
    p->op = op;
    p->qpu = s->qpu_number;
    p->status = status;
    p->value = value;
    p->instructions = s->t.program_instructions;
    m->tag = s->qpu_number;
    queue(s, u, -1, m);
}

/* ---- the I/O callbacks of qpu_exec -------------------------------------------------------- */

struct io_context {
    struct qpu *s;
    struct unit *u;
    uint16_t uniform_reads;     /* set when the instruction read a uniform */
};

/* A uniform popped from the stream (UNIFORM_READ or a TMU write); advances nothing: the
 * caller (qpu_exec for UNIFORM_READ) moves the pointer. */
static uint32_t pop_uniform(struct qpu *s, struct unit *u, uint32_t address)
{
    uint32_t v;
    s->uniforms++;
    if (s->t.program.uniforms_length && s->t.program.uniforms_length <= 1023 &&
        s->t.uniforms_read >= s->t.program.uniforms_length) {
        s->uniform_overruns++;
        note(s, u, 25, "uniform read past the program's uniforms length (V3D_SRQUL)");
    }
    s->t.uniforms_read++;
    if (!read_word(s, u, address, &v)) {
        s->uniform_faults++;
        note(s, u, 26, "uniform beyond memory (read as 0)");
    }
    return v;
}

static void io_read(void *ctx, const struct qpu_state *state, unsigned raddr, bool file_b,
                    uint32_t value[QPU_LANES], uint32_t c_coefficient[QPU_LANES])
{
    struct io_context *c = ctx;
    struct qpu *s = c->s;
    (void)file_b;
    if (raddr == VC4_RADDR_A_UNIFORM_READ) {
        uint32_t v = pop_uniform(s, c->u, state->uniform_address);
        for (unsigned i = 0; i < QPU_LANES; i++)
            value[i] = v;
        c->uniform_reads++;
        return;
    }
    if (io_read_function(s, raddr) >= 0) {
        if (s->reads_used < s->reads_needed) {
            memcpy(value, s->read_value[s->reads_used], sizeof(uint32_t) * QPU_LANES);
            if (raddr == VC4_RADDR_A_VARYING_READ)
                memcpy(c_coefficient, s->read_c[s->reads_used], sizeof(uint32_t) * QPU_LANES);
            s->reads_used++;
        }
        return;
    }
    s->unsupported_io++;     /* varyings, pixel coordinates, MS flags: fragment shaders only */
    note(s, c->u, 27, "read of a fragment-shader register (varyings, coordinates) answers 0");
}

static int tmu_of(const struct qpu *s, unsigned waddr_or_sig, bool is_sig)
{
    int t = is_sig ? (waddr_or_sig == VC4_SIG_LOAD_TMU1) : waddr_or_sig >= VC4_WADDR_A_TMU1_S;
    bool swap = s->tmus_per_slice == 2 && s->qpu_number % s->qpus_per_slice >= 2;
    if (swap && !s->t.noswap)
        t ^= 1;
    return t ? FN_TMU1 : FN_TMU0;
}

static void io_write(void *ctx, struct qpu_state *state, unsigned waddr, bool file_b,
                     const uint32_t value[QPU_LANES], uint16_t lanes)
{
    struct io_context *c = ctx;
    struct qpu *s = c->s;
    struct unit *u = c->u;
    switch (waddr) {
    case VC4_WADDR_A_TMU_NOSWAP:
        s->t.noswap = value[0] & 1;   /* SWAPDISA, bit 0 (Table 21) */
        return;
    case VC4_WADDR_A_HOST_INT:
        s->host_interrupts++;
        report_program(s, u, QPU_IO_WRITE, QPU_PROGRAM_HOST_INTERRUPT, value[0]);
        return;
    case VC4_WADDR_A_UNIFORMS_ADDRESS:
        s->t.last_uniforms_address = s->t.index;   /* qpu_exec set the pointer */
        s->t.uniforms_read = 0;
        return;
    case VC4_WADDR_A_VPM_WRITE:
    case VC4_WADDR_A_VPMVCD_RD_SETUP:
    case VC4_WADDR_A_VPM_LD_ADDR:
        s->vpm_accesses++;
        request(s, u, FN_VPM, -1, QPU_IO_WRITE, waddr, file_b, value, lanes, NULL);
        return;
    case VC4_WADDR_A_MUTEX_RELEASE:
        s->sync_accesses++;
        request(s, u, FN_SYNC, -1, QPU_IO_WRITE, waddr, file_b, value, lanes, NULL);
        return;
    case VC4_WADDR_A_SFU_RECIP:
    case VC4_WADDR_A_SFU_RECIPSQRT:
    case VC4_WADDR_A_SFU_EXP:
    case VC4_WADDR_A_SFU_LOG:
        s->sfu_writes++;
        s->t.last_sfu_write = s->t.index;
        if (request(s, u, FN_SFU, EXPECT_R4, QPU_IO_WRITE, waddr, file_b, value, lanes, NULL))
            s->t.r4_pending++;
        else
            memset(state->acc[4], 0, sizeof state->acc[4]);
        return;
    default:
        break;
    }
    if (waddr >= VC4_WADDR_A_TMU0_S) {
        int fn = tmu_of(s, waddr, false);
        unsigned t = (unsigned)(fn - FN_TMU0);
        bool s_write = waddr == VC4_WADDR_A_TMU0_S || waddr == VC4_WADDR_A_TMU1_S;
        /* each t/r/b write pops a uniform; an s write pops one unless it is a direct lookup
         * (only s written, @96330 "In this case no uniform is read") */
        bool pops = !s_write || s->t.tmu_components[t] > 0;
        uint32_t uniform = 0;
        if (pops) {
            uniform = pop_uniform(s, u, state->uniform_address);
            state->uniform_address += 4;
        }
        s->t.tmu_components[t] = s_write ? 0 : s->t.tmu_components[t] + 1;
        s->tmu_accesses++;
        request(s, u, fn, -1, QPU_IO_WRITE, waddr, file_b, value, lanes, pops ? &uniform : NULL);
        return;
    }
    /* 43-47: the TLB (fragment shaders, to v3d's tile buffer in request order) */
    if (is_fragment(s) && waddr >= VC4_WADDR_A_TLB_STENCIL_SETUP &&
        waddr <= VC4_WADDR_A_TLB_ALPHA_MASK) {
        s->tlb_accesses++;
        request(s, u, FN_TLB, -1, QPU_IO_WRITE, waddr, file_b, value, lanes, NULL);
        return;
    }
    /* 41-42 (coordinates, MS flags), and the TLB in programs that are not fragment shaders */
    s->unsupported_io++;
    note(s, u, 28, "write to a TLB or fragment-shader register (not modelled, dropped)");
}

static void io_signal(void *ctx, struct qpu_state *state, unsigned sig)
{
    struct io_context *c = ctx;
    struct qpu *s = c->s;
    switch (sig) {
    case VC4_SIG_BREAKPOINT:
        s->breakpoints++;
        return;
    case VC4_SIG_THREAD_SWITCH:
    case VC4_SIG_LAST_THREAD_SWITCH:
        if (threadable(&s->t.program))
            s->thread_switches++;      /* acted on after its two delay slots (issue) */
        else
            s->thread_switches_ignored++;
        return;
    case VC4_SIG_PROGRAM_END:
        return;
    case VC4_SIG_LOAD_TMU0:
    case VC4_SIG_LOAD_TMU1: {
        int fn = tmu_of(s, sig, true);
        s->tmu_accesses++;
        if (request(s, c->u, fn, EXPECT_R4, QPU_IO_SIGNAL, sig, false, NULL, 0xffff, NULL))
            s->t.r4_pending++;
        else
            memset(state->acc[4], 0, sizeof state->acc[4]);
        return;
    }
    case VC4_SIG_WAIT_SCOREBOARD:
    case VC4_SIG_SCOREBOARD_UNLOCK:
        if (!is_fragment(s))
            break;
        s->scoreboard_signals++;
        request(s, c->u, FN_TLB, -1, QPU_IO_SIGNAL, sig, false, NULL, 0xffff, NULL);
        return;
    case VC4_SIG_COLOR_LOAD:
    case VC4_SIG_COLOR_LOAD_END:
    case VC4_SIG_COVERAGE_LOAD:
    case VC4_SIG_ALPHA_MASK_LOAD:
        if (!is_fragment(s))
            break;
        s->tlb_accesses++;
        if (request(s, c->u, FN_TLB, EXPECT_R4, QPU_IO_SIGNAL, sig, false, NULL, 0xffff, NULL))
            s->t.r4_pending++;
        else
            memset(state->acc[4], 0, sizeof state->acc[4]);
        return;
    default:
        break;
    }
    {   /* scoreboard, TLB colour/coverage/alpha loads outside fragment shaders */
        s->unsupported_io++;
        note(s, c->u, 29, "TLB or scoreboard signal in a program (not modelled)");
        return;
    }
}

static void io_semaphore(void *ctx, struct qpu_state *state, unsigned number, bool decrement)
{
    struct io_context *c = ctx;
    struct qpu *s = c->s;
    (void)state;
    uint32_t v[QPU_LANES] = { decrement ? 1u : 0u };
    s->semaphore_ops++;
    if (request(s, c->u, FN_SYNC, EXPECT_GRANT, QPU_IO_SEMAPHORE, number, false, v, 1, NULL))
        s->grants_pending++;
}

/* ---- instruction analysis ----------------------------------------------------------------- */

static bool is_alu(const struct vc4_qpu_instr *in)
{
    return in->format == VC4_FORMAT_ALU || in->format == VC4_FORMAT_ALU_SMALL_IMM;
}

/* Bit m of the result: mux m is an input of an active ALU op. */
static unsigned muxes_read(const struct vc4_qpu_instr *in)
{
    if (!is_alu(in))
        return 0;
    unsigned m = 0;
    unsigned nadd = vc4_add_op_nsrc[in->op_add], nmul = vc4_mul_op_nsrc[in->op_mul];
    if (in->op_add != VC4_ADD_OP_NOP) {
        if (nadd >= 1)
            m |= 1u << in->add_a;
        if (nadd >= 2)
            m |= 1u << in->add_b;
    }
    if (in->op_mul != VC4_MUL_OP_NOP) {
        if (nmul >= 1)
            m |= 1u << in->mul_a;
        if (nmul >= 2)
            m |= 1u << in->mul_b;
    }
    return m;
}

static bool reads_raddr_b(const struct vc4_qpu_instr *in)
{
    return in->format == VC4_FORMAT_ALU;
}

static int io_read_function(const struct qpu *s, unsigned raddr)
{
    if (raddr >= VC4_RADDR_A_VPM_READ && raddr <= VC4_RADDR_A_VPM_LD_WAIT)
        return FN_VPM;
    if (raddr == VC4_RADDR_A_MUTEX_ACQUIRE)
        return FN_SYNC;
    /* fragment shaders: the FEP's varyings, pixel coordinates and flags (Table 14) */
    if (is_fragment(s) && (raddr == VC4_RADDR_A_VARYING_READ ||
                           raddr == VC4_RADDR_A_X_PIXEL_COORD || raddr == VC4_RADDR_A_MS_FLAGS))
        return FN_TLB;
    return -1;
}

/* The writes an instruction makes: physical regfile locations (A/B) and accumulators. */
static void instruction_writes(const struct vc4_qpu_instr *in, uint32_t *wa, uint32_t *wb,
                               uint32_t *acc, bool *regfile)
{
    *wa = *wb = *acc = 0;
    *regfile = false;
    bool active[2];
    if (is_alu(in)) {
        active[0] = in->op_add != VC4_ADD_OP_NOP && in->cond_add != VC4_COND_NEVER;
        active[1] = in->op_mul != VC4_MUL_OP_NOP && in->cond_mul != VC4_COND_NEVER;
    } else if (in->format == VC4_FORMAT_BRANCH) {
        active[0] = active[1] = true;
    } else {
        active[0] = in->cond_add != VC4_COND_NEVER;
        active[1] = in->cond_mul != VC4_COND_NEVER;
    }
    for (int k = 0; k < 2; k++) {
        if (!active[k])
            continue;
        unsigned w = k ? in->waddr_mul : in->waddr_add;
        bool a = vc4_qpu_writes_a(in, k == 1);
        if (w < 32) {
            *regfile = true;
            if (a)
                *wa |= 1u << w;
            else
                *wb |= 1u << w;
        } else if (w >= VC4_WADDR_A_ACC0 && w <= VC4_WADDR_A_ACC3) {
            *acc |= 1u << (w - VC4_WADDR_A_ACC0);
        } else if (w == VC4_WADDR_A_ACC5) {
            *acc |= 1u << 5;
        }
    }
}

/* Counts the cross-instruction restrictions of `in` against the previous instructions. */
static void check_restrictions(struct qpu *s, struct unit *u, const struct vc4_qpu_instr *in,
                               bool last_three, bool is_end)
{
    unsigned mux = muxes_read(in);
    uint64_t since_sfu = s->t.last_sfu_write ? s->t.index - s->t.last_sfu_write : ~0ull;
    if (is_alu(in)) {
        if (in->raddr_a < 32 && (mux & (1u << VC4_MUX_RA)) &&
            (s->t.prev_write_a >> in->raddr_a & 1))
            restriction(s, u, R_REGFILE_RAW);
        else if (reads_raddr_b(in) && in->raddr_b < 32 && (mux & (1u << VC4_MUX_RB)) &&
                 (s->t.prev_write_b >> in->raddr_b & 1))
            restriction(s, u, R_REGFILE_RAW);
        if ((mux & (1u << VC4_MUX_R4)) && since_sfu <= 2)
            restriction(s, u, R_R4_TOO_SOON);
        bool r4_writer = in->sig == VC4_SIG_LOAD_TMU0 || in->sig == VC4_SIG_LOAD_TMU1 ||
                         in->sig == VC4_SIG_COLOR_LOAD || in->sig == VC4_SIG_COLOR_LOAD_END ||
                         in->sig == VC4_SIG_COVERAGE_LOAD || in->sig == VC4_SIG_ALPHA_MASK_LOAD ||
                         (in->waddr_add >= VC4_WADDR_A_SFU_RECIP &&
                          in->waddr_add <= VC4_WADDR_A_SFU_LOG && in->op_add != VC4_ADD_OP_NOP) ||
                         (in->waddr_mul >= VC4_WADDR_A_SFU_RECIP &&
                          in->waddr_mul <= VC4_WADDR_A_SFU_LOG && in->op_mul != VC4_MUL_OP_NOP);
        if (r4_writer && since_sfu <= 2)
            restriction(s, u, R_R4_WRITE_TOO_SOON);
        if (in->format == VC4_FORMAT_ALU_SMALL_IMM && in->small_imm >= 48 &&
            in->op_mul != VC4_MUL_OP_NOP) {
            if (in->small_imm == 48 && (s->t.prev_acc_write >> 5 & 1))
                restriction(s, u, R_ROTATE_AFTER_R5);
            else if ((in->mul_a <= VC4_MUX_R3 && (s->t.prev_acc_write >> in->mul_a & 1)) ||
                     (in->mul_b <= VC4_MUX_R3 && (s->t.prev_acc_write >> in->mul_b & 1)))
                restriction(s, u, R_ROTATE_AFTER_ACC);
        }
        bool uniform = in->raddr_a == VC4_RADDR_A_UNIFORM_READ ||
                       (reads_raddr_b(in) && in->raddr_b == VC4_RADDR_B_UNIFORM_READ);
        if (uniform && s->t.last_uniforms_address && s->t.index - s->t.last_uniforms_address <= 2)
            restriction(s, u, R_UNIFORM_AFTER_ADDRESS);
        if (last_three) {
            bool rb = reads_raddr_b(in);
            bool io = in->raddr_a == VC4_RADDR_A_UNIFORM_READ ||
                      in->raddr_a == VC4_RADDR_A_VARYING_READ ||
                      (in->raddr_a >= VC4_RADDR_A_VPM_READ &&
                       in->raddr_a <= VC4_RADDR_A_VPM_LD_WAIT) ||
                      (rb && (in->raddr_b == VC4_RADDR_B_UNIFORM_READ ||
                              in->raddr_b == VC4_RADDR_B_VARYING_READ ||
                              (in->raddr_b >= VC4_RADDR_B_VPM_READ &&
                               in->raddr_b <= VC4_RADDR_B_VPM_ST_WAIT)));
            for (int k = 0; k < 2; k++) {
                unsigned w = k ? in->waddr_mul : in->waddr_add;
                bool active = k ? in->op_mul != VC4_MUL_OP_NOP : in->op_add != VC4_ADD_OP_NOP;
                if (active && w >= VC4_WADDR_A_VPM_WRITE && w <= VC4_WADDR_A_VPM_LD_ADDR)
                    io = true;
            }
            if (io)
                restriction(s, u, R_END_IO);
            if (in->raddr_a == 14 || (rb && in->raddr_b == 14) ||
                (in->op_add != VC4_ADD_OP_NOP && in->waddr_add == 14) ||
                (in->op_mul != VC4_MUL_OP_NOP && in->waddr_mul == 14))
                restriction(s, u, R_END_ADDRESS_14);
        }
    }
    if (is_end) {
        uint32_t wa, wb, acc;
        bool regfile;
        instruction_writes(in, &wa, &wb, &acc, &regfile);
        if (regfile)
            restriction(s, u, R_END_REGFILE_WRITE);
    }
}

/* ---- instruction and uniforms caches ----------------------------------------------------- */

/* Whether the line holding bus address `address` is in cache k; on a miss, sends (once) its
 * fill to the L2C and the caller holds the issue. Unbound "l2": always present. */
static bool cache_present(struct qpu *s, struct unit *u, enum fetch_cache k, uint32_t address)
{
    struct fetch_cache_state *c = &s->cache[k];
    if (!s->l2 || !c->lines)
        return true;
    uint32_t line = (address & s->address_mask) / FETCH_LINE;
    if (c->tag[line % c->lines] == line + 1)
        return true;
    c->missed = true;
    if (c->waiting)
        return false;           /* this line's (or an earlier) fill is on its way */
    struct msg *m = msg_alloc(unit_sim(u), MSG_MEMORY_REQUEST, sizeof(struct memreq));
    struct memreq *q = (struct memreq *)m->payload;
    memset(q, 0, sizeof *q);
    /* the alias bits (31:30) go with the request: the L2C serves the uncached alias from
     * SDRAM (units/vc4_l2) */
    q->address = (uint64_t)(line * FETCH_LINE) | (address & ~s->address_mask);
    q->tag = (uint32_t)k;
    q->bytes = FETCH_LINE;
    q->op = MEMREQ_READ;
    q->target = MEMREQ_RO_DATA;
    q->client = unit_id(u);
    if (!port_try_send(s->l2, m)) {
        msg_free(unit_sim(u), m);
        return false;           /* the channel frees: the unit is woken and asks again */
    }
    c->misses++;
    c->waiting = true;
    c->waiting_line = line;
    return false;
}

static void take_l2_reply(struct qpu *s, struct unit *u, struct msg *m)
{
    const struct memreply *a = (const struct memreply *)m->payload;
    if (m->kind != MSG_MEMORY_RESPONSE || m->size < sizeof *a) {
        s->bad_messages++;
        return;
    }
    struct fetch_cache_state *c = a->tag < CACHE_COUNT ? &s->cache[a->tag] : NULL;
    if (!c || !c->waiting) {
        s->l2_stray_replies++;
        note(s, u, 18, "L2C reply for no outstanding cache fill (dropped)");
        return;
    }
    c->waiting = false;
    c->tag[c->waiting_line % c->lines] = c->waiting_line + 1;
}

static void clear_cache(struct fetch_cache_state *c)
{
    if (c->tag)
        memset(c->tag, 0, c->lines * sizeof *c->tag);
}

/* The uniforms the instruction may pop: UNIFORM_READ on raddr a or b, and TMU t/r/b/s writes
 * (a direct lookup pops none, but counting it costs at most an early fill). */
static unsigned uniforms_wanted(const struct vc4_qpu_instr *in)
{
    if (!is_alu(in))
        return 0;
    unsigned n = in->raddr_a == VC4_RADDR_A_UNIFORM_READ;
    n += reads_raddr_b(in) && in->raddr_b == VC4_RADDR_B_UNIFORM_READ;
    n += in->op_add != VC4_ADD_OP_NOP && in->waddr_add >= VC4_WADDR_A_TMU0_S;
    n += in->op_mul != VC4_MUL_OP_NOP && in->waddr_mul >= VC4_WADDR_A_TMU0_S;
    return n;
}

/* ---- the issue loop ----------------------------------------------------------------------- */

static void end_program(struct qpu *s, struct unit *u, uint32_t status)
{
    report_program(s, u, QPU_IO_PROGRAM_END, status, 0);
    s->programs++;
    s->programs_by_kind[program_kind(s)]++;
    s->fetched = false;
    if (s->other_present) {         /* the suspended thread runs on */
        s->t = s->other;
        s->other_present = false;
        return;
    }
    s->running = false;
}

/* A program's thread context at its start */
static void start_context(struct qpu *s, struct thread_context *c, const struct qpu_program *p,
                          const struct qpu_fragment_start *fragment)
{
    memset(c, 0, sizeof *c);
    qpu_state_init(&c->st, s->qpu_number);
    c->st.pc = p->pc;
    c->st.uniform_address = p->uniforms;
    c->program = *p;
    c->program.thread &= 1;
    if (fragment) {
        /* the FEP's W and Z for the new thread: 15-A W, 15-B Z (Table 29, @56274) */
        for (unsigned i = 0; i < QPU_LANES; i++) {
            c->st.regfile_a[15][i] = fragment->w[i];
            c->st.regfile_b[15][i] = fragment->z[i];
        }
    }
}

static void start_program(struct qpu *s, struct unit *u, const struct qpu_program *p,
                          const struct qpu_fragment_start *fragment)
{
    if (p->qpu < 16)
        s->qpu_number = p->qpu;     /* the scheduler's number for this QPU */
    if (s->running) {
        /* the second thread waits until the running one switches or ends */
        start_context(s, &s->other, p, fragment);
        s->other_present = true;
        return;
    }
    start_context(s, &s->t, p, fragment);
    s->fetched = false;
    s->running = true;
    /* "a new program can start back-back on the next instruction cycle" (@57429) */
    uint64_t now = unit_cycle(u);
    if (s->next_issue < now)
        s->next_issue = now;
    s->stall = STALL_NONE;
}

/* The running thread stops and the suspended one runs ("the other suspended thread resumes if
 * present", 002 @56345 via notes §3.11); without one the thread runs on. */
static void switch_thread(struct qpu *s)
{
    if (!s->other_present)
        return;
    struct thread_context held = s->t;
    s->t = s->other;
    s->other = held;
    s->fetched = false;
    s->thread_switches_taken++;
}

static void take_result(struct qpu *s, int fn, struct msg *m)
{
    const struct qpu_io_result *r = (const struct qpu_io_result *)m->payload;
    if (m->kind != MSG_QPU_RESULT || m->size < sizeof *r) {
        s->bad_messages++;
        return;
    }
    struct expect_fifo *f = &s->expect[fn];
    if (!f->count) {
        s->unexpected_results++;
        return;
    }
    enum expect e = (enum expect)f->kind[f->head];
    unsigned slot = f->slot[f->head];
    unsigned thread = f->thread[f->head];
    f->head = (f->head + 1) % EXPECT_MAX;
    f->count--;
    switch (e) {
    case EXPECT_R4: {
        struct thread_context *c = s->other_present && thread == s->other.program.thread &&
                                   thread != s->t.program.thread ? &s->other : &s->t;
        if (c->r4_pending)
            c->r4_pending--;
        if (s->running)
            memcpy(c->st.acc[4], r->value, sizeof c->st.acc[4]);
        break;
    }
    case EXPECT_READ:
        if (slot < 2 && s->reads_have < 2) {
            memcpy(s->read_value[slot], r->value, sizeof r->value);
            memcpy(s->read_c[slot], r->c_coefficient, sizeof r->c_coefficient);
            s->reads_have++;
        }
        break;
    case EXPECT_GRANT:
        if (s->grants_pending)
            s->grants_pending--;
        break;
    }
}

static void hold(struct qpu *s, enum stall_cause cause)
{
    if (s->stall == STALL_NONE)
        s->stall = cause;
}

static enum stall_cause fn_stall(int fn)
{
    return fn == FN_VPM ? STALL_VPM : fn == FN_SYNC ? STALL_SYNC : fn == FN_TLB ? STALL_TLB
                                                                                 : STALL_TMU;
}

/* Tries to issue the next instruction; true when it did. */
static bool issue(struct qpu *s, struct unit *u)
{
    uint64_t now = unit_cycle(u);
    if (s->outbox_count) {
        hold(s, STALL_SEND);
        return false;
    }
    if (s->grants_pending) {
        hold(s, STALL_SYNC);
        return false;
    }
    if (!s->fetched && !cache_present(s, u, CACHE_INSTRUCTIONS, s->t.st.pc)) {
        hold(s, STALL_ICACHE);
        return false;
    }
    if (!s->fetched) {
        struct fetch_cache_state *ic = &s->cache[CACHE_INSTRUCTIONS];
        if (s->l2 && !ic->missed)
            ic->hits++;
        ic->missed = false;
        s->cache[CACHE_UNIFORMS].missed = s->cache[CACHE_UNIFORMS].ready = false;
        uint32_t w[2];
        if (!read_word(s, u, s->t.st.pc, &w[0]) || !read_word(s, u, s->t.st.pc + 4, &w[1])) {
            s->fetch_faults++;
            note(s, u, 30, "instruction fetch beyond memory: program ended");
            end_program(s, u, QPU_PROGRAM_FETCH_FAULT);
            return false;
        }
        vc4_qpu_decode((uint64_t)w[1] << 32 | w[0], &s->in);
        s->fetched = true;
        s->reads_needed = s->reads_have = s->reads_used = 0;
        s->reads_requested = false;
        const struct vc4_qpu_instr *in = &s->in;
        if (is_alu(in)) {
            int fa = in->raddr_a >= 32 ? io_read_function(s, in->raddr_a) : -1;
            if (fa >= 0)
                s->reads[s->reads_needed++] = (struct pending_read){ fa, in->raddr_a, false };
            int fb = reads_raddr_b(in) && in->raddr_b >= 32 ? io_read_function(s, in->raddr_b)
                                                            : -1;
            if (fb >= 0)
                s->reads[s->reads_needed++] = (struct pending_read){ fb, in->raddr_b, true };
        }
    }
    const struct vc4_qpu_instr *in = &s->in;
    unsigned wanted = uniforms_wanted(in);
    struct fetch_cache_state *uc = &s->cache[CACHE_UNIFORMS];
    if (wanted && !uc->ready) {
        /* the uniforms this instruction pops, from the uniforms cache */
        uint32_t first = s->t.st.uniform_address, last = first + 4 * (wanted - 1);
        if (!cache_present(s, u, CACHE_UNIFORMS, first) ||
            !cache_present(s, u, CACHE_UNIFORMS, last)) {
            hold(s, STALL_UNIFORMS);
            return false;
        }
        if (s->l2 && !uc->missed)
            uc->hits++;
        uc->ready = true;
    }
    if (!s->reads_requested) {
        for (unsigned k = 0; k < s->reads_needed; k++) {
            struct pending_read *r = &s->reads[k];
            if (r->fn == FN_VPM)
                s->vpm_accesses++;
            else if (r->fn == FN_TLB)
                s->tlb_accesses++;
            else
                s->sync_accesses++;
            if (r->fn == FN_TLB && r->raddr == VC4_RADDR_A_VARYING_READ)
                s->varying_reads++;
            s->read_slot = k;
            if (!request(s, u, r->fn, EXPECT_READ, QPU_IO_READ, r->raddr, r->file_b, NULL,
                         0xffff, NULL) && s->reads_have < 2) {
                /* unlinked: answered 0 here */
                memset(s->read_value[k], 0, sizeof s->read_value[0]);
                memset(s->read_c[k], 0, sizeof s->read_c[0]);
                s->reads_have++;
            }
        }
        s->reads_requested = true;
        if (s->outbox_count && !flush_outbox(s)) {
            hold(s, STALL_SEND);
            return false;
        }
    }
    if (s->reads_have < s->reads_needed) {
        hold(s, fn_stall(s->reads[0].fn));
        return false;
    }
    if ((muxes_read(in) & (1u << VC4_MUX_R4)) && s->t.r4_pending) {
        hold(s, STALL_R4);
        return false;
    }

    /* issue */
    if (s->stall != STALL_NONE && now > s->next_issue)
        s->stall_cycles[s->stall] += now - s->next_issue;
    s->stall = STALL_NONE;
    s->t.index++;
    s->t.program_instructions++;
    s->instructions++;
    s->busy_cycles += s->cycles_per_instruction;
    s->instructions_by_kind[program_kind(s)]++;
    s->busy_by_kind[program_kind(s)] += s->cycles_per_instruction;
    if (in->illegal) {
        s->illegal_instructions++;
        note(s, u, 31, "instruction with a reserved code or forbidden combination (vc4_illegal)");
    }
    bool is_end = is_alu(in) &&
                  (in->sig == VC4_SIG_PROGRAM_END || in->sig == VC4_SIG_COLOR_LOAD_END);
    check_restrictions(s, u, in, s->t.ending > 0 || is_end, is_end && !s->t.ending);

    struct io_context c = { s, u, 0 };
    struct qpu_io io = { &c, io_read, io_write, io_signal, io_semaphore, s->alu };
    struct qpu_step_result r = qpu_step(&s->t.st, in, &io);
    qpu_advance(&s->t.st, &r);
    s->fetched = false;

    uint32_t wa, wb, acc;
    bool regfile;
    instruction_writes(in, &wa, &wb, &acc, &regfile);
    s->t.prev_write_a = wa;
    s->t.prev_write_b = wb;
    s->t.prev_acc_write = acc;

    s->next_issue = now + s->cycles_per_instruction;
    unit_progress(u);
    bool switch_now = false;
    if (s->t.switching) {
        switch_now = --s->t.switching == 0;
    } else if (r.thread_switch && threadable(&s->t.program) && !r.program_end) {
        /* "the thread stops after a further two delay slot instructions" (notes §3.11) */
        s->t.switching = 2;
    }
    if (s->t.ending) {
        if (--s->t.ending == 0) {
            end_program(s, u, QPU_PROGRAM_ENDED);
            switch_now = false;
        }
    } else if (r.program_end) {
        s->t.ending = 2;  /* "Two delay-slot instructions are executed after" (@56274) */
    }
    if (switch_now)
        switch_thread(s);
    if (s->running && s->t.program_instructions >= s->watchdog_instructions) {
        s->watchdog_kills++;
        unit_log(u, SIM_LOG_NOTE, "QPU %u: program at 0x%x still running after %llu "
                 "instructions: stopped by the watchdog", s->qpu_number, s->t.program.pc,
                 (unsigned long long)s->t.program_instructions);
        end_program(s, u, QPU_PROGRAM_WATCHDOG);
    }
    return true;
}

static enum unit_activity qpu_tick(struct unit *u)
{
    struct qpu *s = unit_state(u);
    struct msg *m;
    for (int fn = 0; fn < FN_COUNT; fn++)
        while (s->result[fn] && (m = port_pop(s->result[fn])) != NULL) {
            take_result(s, fn, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    while (s->l2_reply && (m = port_pop(s->l2_reply)) != NULL) {
        take_l2_reply(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    while (s->control && (m = port_pop(s->control)) != NULL) {
        const struct cs_mmio *w = (const struct cs_mmio *)m->payload;
        if (m->kind != MSG_MMIO || m->size < sizeof *w || w->op != CS_MMIO_WRITE) {
            s->bad_messages++;
        } else if (w->offset == 0x024 && (w->value & 0x00000f0fu)) {
            /* SLCACTL UCCS 11:8, ICCS 3:0 (Table 72): a set bit clears the slice's uniforms
             * or instruction cache (every QPU's: which slice this QPU is in is not known to
             * the unit [chosen]; a clear costs only refills) */
            if (w->value & 0x00fu)
                clear_cache(&s->cache[CACHE_INSTRUCTIONS]);
            if (w->value & 0xf00u)
                clear_cache(&s->cache[CACHE_UNIFORMS]);
            s->cache_clears++;
        }
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    flush_outbox(s);
    /* a program starts on an idle QPU; a second two-threaded fragment shader joins a running
     * one */
    bool room = !s->running;
    if (s->running && !s->other_present && threadable(&s->t.program) && s->start &&
        port_visible(s->start)) {
        const struct msg *next = port_peek(s->start);
        room = next->size >= sizeof(struct qpu_program) &&
               threadable((const struct qpu_program *)next->payload);
    }
    if (room && s->start && !s->outbox_count && (m = port_pop(s->start)) != NULL) {
        const struct qpu_program *p = (const struct qpu_program *)m->payload;
        if (m->kind == MSG_QPU_IO && m->size >= sizeof *p && p->op == QPU_IO_START) {
            bool fragment = p->kind == QPU_KIND_FRAGMENT &&
                            m->size >= sizeof(struct qpu_fragment_start);
            if (p->kind == QPU_KIND_FRAGMENT && !fragment)
                s->bad_messages++;     /* no W and Z: the thread starts with zeros */
            start_program(s, u, p, fragment ? (const struct qpu_fragment_start *)p : NULL);
        }
        else
            s->bad_messages++;
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    if (!s->running)
        return UNIT_IDLE;
    uint64_t now = unit_cycle(u);
    if (now < s->next_issue) {
        unit_wake_at(u, s->next_issue);
        return UNIT_IDLE;
    }
    bool issued = issue(s, u);
    flush_outbox(s);
    if (issued && s->running)
        unit_wake_at(u, s->next_issue);
    if (!s->running && s->start && port_visible(s->start))
        unit_wake_at(u, now + 1);
    /* held: a result, a grant or a free channel wakes the unit */
    return UNIT_IDLE;
}

static int qpu_realize(struct unit *u, struct gt_error *err)
{
    struct qpu *s = unit_state(u);
    s->start = unit_port(u, "start", 0);
    s->done = unit_port(u, "done", 0);
    s->l2 = unit_port(u, "l2", 0);
    s->l2_reply = unit_port(u, "l2_reply", 0);
    s->control = unit_port(u, "control", 0);
    if (s->l2 && !port_is_bound(s->l2))
        s->l2 = NULL;
    if (s->l2_reply && !port_is_bound(s->l2_reply))
        s->l2_reply = NULL;
    if (!s->l2 != !s->l2_reply)
        return gt_error_set(err, "%s: \"l2\" and \"l2_reply\" are bound together or not at all",
                            unit_name(u));
    for (int k = 0; k < CACHE_COUNT; k++) {
        free(s->cache[k].tag);
        s->cache[k].lines = s->cache_kb[k] * 1024 / FETCH_LINE;
        s->cache[k].tag = gt_xcalloc(s->cache[k].lines, sizeof *s->cache[k].tag);
    }
    for (int fn = 0; fn < FN_COUNT; fn++) {
        char name[32];
        s->out[fn] = unit_port(u, fn_name[fn], 0);
        snprintf(name, sizeof name, "%s_result", fn_name[fn]);
        s->result[fn] = unit_port(u, name, 0);
    }
    return 0;
}

static void qpu_reset(struct unit *u)
{
    struct qpu *s = unit_state(u);
    for (unsigned i = 0; i < s->outbox_count; i++)
        msg_free(unit_sim(u), s->outbox[i].m);
    s->outbox_count = 0;
    s->running = false;
    s->other_present = false;
    s->fetched = false;
    s->t.r4_pending = s->grants_pending = 0;
    memset(s->expect, 0, sizeof s->expect);
    s->next_issue = 0;
    s->stall = STALL_NONE;
    for (int k = 0; k < CACHE_COUNT; k++) {
        clear_cache(&s->cache[k]);
        s->cache[k].waiting = false;
    }
    qpu_state_init(&s->t.st, s->qpu_number);
}

static void qpu_destroy(struct unit *u)
{
    struct qpu *s = unit_state(u);
    for (int k = 0; k < CACHE_COUNT; k++) {
        free(s->cache[k].tag);
        s->cache[k].tag = NULL;
    }
    for (unsigned i = 0; i < s->outbox_count; i++)
        msg_free(unit_sim(u), s->outbox[i].m);
    s->outbox_count = 0;
}

int qpu_set_alu_datapath(struct unit *u, const struct qpu_alu_datapath *datapath)
{
    if (!u || unit_ops_of(u) != &qpu_ops)
        return -1;
    struct qpu *s = unit_state(u);
    s->alu = datapath;
    return 0;
}

const struct unit_ops qpu_ops = {
    .kind = "qpu",
    .help = "VideoCore IV QPU: one 16-way SIMD quad processor running programs (seed 002 "
            "Sec 3), an instruction every 4 clocks, register-mapped I/O as messages to the "
            "SFU, VPM, TMUs and the mutex/semaphores, restrictions counted.",
    .state_size = sizeof(struct qpu),
    .params = qpu_params,
    .ports = qpu_ports,
    .stats = qpu_stats,
    .key_figures = qpu_key_figures,
    .realize = qpu_realize,
    .reset = qpu_reset,
    .tick = qpu_tick,
    .destroy = qpu_destroy,
};
