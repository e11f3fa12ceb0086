/* units/cs/cs.c - the render command streamer's unit shell: params, ports,
 * stats, host messages and the tick. See cs.h for what it models and
 * cs_internal.h for how its files divide the work. */
#include "units/cs/cs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "units/cs/cs_internal.h"

static const struct param_desc cs_params[] = {
    PARAM_U32_FIELD("gen", struct cs, gen, 9, 4, 9, "Intel generation of the command set (4, 7, 8, 9)"),
    PARAM_U32_FIELD("dwords_per_cycle", struct cs, dwords_per_cycle, 8, 1, 1024,
                    "command dwords parsed per cycle (a command takes ceil(dwords/this) cycles)"),
    PARAM_U64_FIELD("max_commands", struct cs, max_commands, 50000000, 1, 1LL << 40,
                    "commands one submission may execute before the ring is stopped as hung"),
    PARAM_U32_FIELD("max_reports", struct cs, max_reports, 20, 0, 1000000,
                    "bad-programming reports logged (all are counted)"),
    PARAM_DOUBLE_FIELD("timestamp_hz", struct cs, timestamp_hz, 12000000.0, 1.0, 1e10,
                       "TIMESTAMP register frequency (SKL 12 MHz, BDW/BYT/965G 12.5 MHz: "
                       "reference devices.txt)"),
    PARAM_STRING_FIELD("print_commands", struct cs, print_commands, "",
                       "print every executed command with its fields: \"-\" for stdout, or a path"),
    PARAM_END
};

static const struct port_desc cs_ports[] = {
    { .name = "host", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .help = "MSG_MMIO from the host: register writes, "
      "inline ring dwords, syncs" },
    { .name = "host_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "MSG_MMIO sync replies to the host" },
    { .name = "vf", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "MSG_STATE: 3D state and primitives, in order, down the 3D pipeline (and, with "
              "\"pipe_drained\" linked, MSG_MMIO writes of 3D registers and syncs)" },
    { .name = "pipe_drained", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "the 3D pipeline's reply (MSG_MMIO CS_MMIO_SYNC_DONE with struct "
              "pipeline_registers) to a CS_MMIO_SYNC sent down \"vf\"; when linked, writes of "
              "3D-owned registers go down \"vf\" and stalls and host syncs wait for the reply" },
    { .name = "vfe", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_STATE) | MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "MSG_STATE: media and GPGPU state and walkers, in order" },
    { .name = "vfe_drained", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "the GPGPU front end's reply (MSG_MMIO CS_MMIO_SYNC_DONE) to a CS_MMIO_SYNC sent "
              "down \"vfe\": its threads have ended; a host sync waits for it when linked" },
    { .name = "alu", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPTIONAL,
      .help = "MI_MATH work for a separate CS ALU unit (else the CS runs it)" },
    { .name = "alu_reply", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_GENERIC),
      .flags = PORT_OPTIONAL,
      .help = "the CS ALU's results" },
    { .name = "blt", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL,
      .help = "Gen4: 2D commands (Client 2) found in the render ring, in order, to the "
              "blitter's \"host\" port as MSG_MMIO CS_MMIO_RING_DATA" },
    { .name = "l3", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "MSG_MMIO CS_MMIO_WRITE of L3CNTLREG (0x7034, Gen8+) to each slice's L3" },
    PORT_END
};

#define CS_STAT(n, f, m, h) STAT_COUNTER_FIELD(n, struct cs, f, m, h)
static const struct stat_desc cs_stats[] = {
    CS_STAT("commands", commands, "commands", "commands executed or passed on"),
    CS_STAT("dwords", dwords, "dwords", "command dwords parsed"),
    CS_STAT("state_packets", state_packets, "messages", "state packets sent down a pipeline"),
    CS_STAT("state_dropped", state_dropped, "messages",
            "state packets for a pipeline whose port is not linked"),
    CS_STAT("unknown_commands", unknown_commands, "commands",
            "commands no table knows, skipped by their header's length"),
    CS_STAT("hangs", hangs, "events", "times the ring stopped on bad programming"),
    CS_STAT("submissions", submissions, "submissions", "contexts or rings run to the end"),
    CS_STAT("batches", batches, "batches", "first-level batch buffers started"),
    CS_STAT("second_level_batches", second_level_batches, "batches",
            "second-level batch buffers called"),
    CS_STAT("chained_batches", chained_batches, "batches", "batch buffers chained to"),
    CS_STAT("predicated_off", predicated_off, "commands", "commands skipped by predication"),
    CS_STAT("privilege_violations", privilege_violations, "commands",
            "privileged operations in a non-privileged batch (not performed)"),
    CS_STAT("user_interrupts", user_interrupts, "events", "MI_USER_INTERRUPT and notify requests"),
    CS_STAT("post_sync_writes", post_sync_writes, "writes", "PIPE_CONTROL post-sync writes"),
    CS_STAT("register_writes", register_writes, "writes", "register writes (MMIO and commands)"),
    CS_STAT("register_reads", register_reads, "reads", "register reads by commands"),
    CS_STAT("faults", faults, "accesses", "memory accesses that did not translate"),
    CS_STAT("mi_math_instructions", mi_math_instructions, "instructions", "ALU instructions"),
    CS_STAT("not_modelled", not_modelled, "commands", "MI commands executed as no-ops"),
    CS_STAT("stall_cycles", stall_cycles, "cycles", "cycles waiting for a pipeline port"),
    CS_STAT("device_mismatches", device_mismatches, "events",
            "workloads captured on another generation than this CS"),
    CS_STAT("cs_stalls", cs_stalls, "commands",
            "stalling PIPE_CONTROLs (CS Stall) that waited for the GPGPU front end to drain"),
    CS_STAT("l3_writes", l3_writes, "writes", "L3CNTLREG writes passed to the slices' L3s"),
    STAT_END
};

/* ---- host messages ------------------------------------------------------- */

static void reply_sync(struct cs *s, struct unit *u)
{
    if (!s->host_reply)
        return;
    struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
    struct cs_mmio *r = (struct cs_mmio *)m->payload;
    r->op = CS_MMIO_SYNC_DONE;
    r->value = (uint32_t)s->hangs;
    r->offset = s->gen;
    if (!port_try_send(s->host_reply, m))
        msg_free(unit_sim(u), m);       /* capacity is the host's business; counted as stall */
}

/* Takes host messages while the engine is idle (they are applied in order,
 * between submissions). False when one must wait. */
static bool take_host_message(struct cs *s, struct unit *u)
{
    struct msg *m = port_peek(s->host);
    if (!m)
        return false;
    if (m->kind != MSG_MMIO || m->size < sizeof(struct cs_mmio)) {
        port_pop(s->host);
        cs_report(s, u, "host message of kind %s and %u bytes is not MMIO: dropped",
               msg_kind_name(m->kind), m->size);
        msg_free(unit_sim(u), m);
        return true;
    }
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (c->op == CS_MMIO_SYNC_DONE || (c->op == CS_MMIO_RING_DATA &&
                                       c->size > m->size - sizeof(struct cs_mmio))) {
        port_pop(s->host);
        cs_report(s, u, "malformed host message (op %u): dropped", c->op);
        msg_free(unit_sim(u), m);
        return true;
    }
    if (c->op == CS_MMIO_SYNC && s->pending_count)
        return false;
    port_pop(s->host);
    switch (c->op) {
    case CS_MMIO_WRITE:
        cs_reg_write(s, u, c->offset, c->value);
        break;
    case CS_MMIO_RING_DATA:
        cs_start_inline_ring(s, c);
        break;
    case CS_MMIO_SYNC:
        if (s->vfe && s->vfe_drained && port_can_send(s->vfe)) {
            /* the host may reuse memory after the sync: wait until the
             * GPGPU threads before it have ended */
            struct msg *d = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
            ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC;
            port_try_send(s->vfe, d);
            s->awaiting_drain = true;
            s->drain_for_host = true;
        }
        if (s->vf && s->pipe_drained) {
            /* ... and until the 3D pipeline's work has left it */
            cs_send_pipe_sync(s, u);
            s->drain_for_host = true;
        }
        if (!s->awaiting_drain && !s->awaiting_pipe)
            reply_sync(s, u);
        break;
    case CS_MMIO_DEVICE:
        s->device_pci_id = c->value;
        s->device_gen = c->offset;
        if (c->offset != s->gen) {
            s->device_mismatches++;
            unit_log(u, SIM_LOG_ERROR, "the workload was captured on a Gen%u part (PCI id 0x%04x) "
                     "but this command streamer models Gen%u: pick a Gen%u config", c->offset,
                     c->value, s->gen, c->offset);
            sim_request_stop(unit_sim(u));
        }
        break;
    default:
        cs_report(s, u, "host message op %u is unknown: dropped", c->op);
        break;
    }
    msg_free(unit_sim(u), m);
    return true;
}

/* ---- the unit ------------------------------------------------------------ */

static int cs_create(struct unit *u, struct gt_error *err)
{
    struct cs *s = unit_state(u);
    s->spec = spec_gen_get((int)s->gen);
    if (!s->spec)
        return gt_error_set(err, "no command tables for Gen%u (gtsim has 4, 7, 8 and 9)", s->gen);
    s->command_counts = gt_xcalloc(s->spec->n_commands, sizeof *s->command_counts);
    cs_fields_init(s);
    return 0;
}

static int cs_realize(struct unit *u, struct gt_error *err)
{
    struct cs *s = unit_state(u);
    s->host = unit_port(u, "host", 0);
    s->host_reply = unit_port(u, "host_reply", 0);
    s->vf = unit_port(u, "vf", 0);
    s->vfe = unit_port(u, "vfe", 0);
    s->alu = unit_port(u, "alu", 0);
    s->alu_reply = unit_port(u, "alu_reply", 0);
    s->vfe_drained = unit_port(u, "vfe_drained", 0);
    if (!port_is_bound(s->vfe_drained))
        s->vfe_drained = NULL;
    s->pipe_drained = unit_port(u, "pipe_drained", 0);
    if (!port_is_bound(s->pipe_drained))
        s->pipe_drained = NULL;
    s->blt = unit_port(u, "blt", 0);
    if (!port_is_bound(s->blt))
        s->blt = NULL;
    if (!port_is_bound(s->host_reply))
        s->host_reply = NULL;
    if (!port_is_bound(s->vf))
        s->vf = NULL;
    if (!port_is_bound(s->vfe))
        s->vfe = NULL;
    s->l3_count = unit_port_count(u, "l3");
    if (s->l3_count > CS_MAX_L3)
        return gt_error_set(err, "%u L3s linked to \"l3\"; at most %d", s->l3_count, CS_MAX_L3);
    for (uint32_t i = 0; i < s->l3_count; i++)
        s->l3[i] = unit_port(u, "l3", i);
    if (port_is_bound(s->alu) != port_is_bound(s->alu_reply))
        return gt_error_set(err, "link both alu and alu_reply, or neither");
    if (!port_is_bound(s->alu)) {
        s->alu = NULL;
        s->alu_reply = NULL;
    }
    s->memory = sim_memory(unit_sim(u));
    if (!s->memory)
        return gt_error_set(err, "the machine has no GPU memory for the command streamer");
    if (s->print_commands[0]) {
        if (strcmp(s->print_commands, "-") == 0)
            s->print = stdout;
        else if (!(s->print = fopen(s->print_commands, "w")))
            return gt_error_set(err, "print_commands: cannot write '%s'", s->print_commands);
    }
    return 0;
}

static void cs_reset(struct unit *u)
{
    struct cs *s = unit_state(u);
    enum gpu_address_space_format format = s->gen >= 8 ? GPU_ADDRESS_SPACE_GGTT_GEN8
                                         : s->gen >= 6 ? GPU_ADDRESS_SPACE_GTT_GEN6
                                                       : GPU_ADDRESS_SPACE_GTT_GEN4;
    gpu_address_space_init(&s->ggtt, s->memory, format, 0);
    s->ppgtt_valid = false;
    cs_stop_ring(s);
    memset(&s->alu_regs, 0, sizeof s->alu_regs);
    s->awaiting_alu = false;
    s->awaiting_drain = false;
    s->awaiting_pipe = false;
    s->drain_for_host = false;
    s->l3_unsent = 0;
    s->predicate = false;
    s->set_predicate = 0;
    s->elsp_writes = 0;
}

static enum unit_activity cs_tick(struct unit *u)
{
    struct cs *s = unit_state(u);
    uint64_t now = unit_cycle(u);
    uint32_t sent = 0;
    while (sent < s->pending_count && port_try_send(s->pending_port[sent], s->pending[sent]))
        sent++;
    if (sent) {
        memmove(s->pending, s->pending + sent, (s->pending_count - sent) * sizeof *s->pending);
        memmove(s->pending_port, s->pending_port + sent,
                (s->pending_count - sent) * sizeof *s->pending_port);
        s->pending_count -= sent;
    }
    if (s->pending_count) {
        s->stall_cycles++;
        return UNIT_IDLE;               /* woken when the port frees */
    }
    if (s->l3_unsent && !cs_send_l3(s, u)) {
        s->stall_cycles++;
        return UNIT_IDLE;               /* woken when the port frees */
    }
    if (s->awaiting_alu) {
        if (!cs_take_alu_reply(s, u))
            return UNIT_IDLE;           /* woken when the reply arrives */
    }
    if (s->awaiting_drain || s->awaiting_pipe) {
        struct msg *d;
        while (s->awaiting_drain && (d = port_pop(s->vfe_drained)) != NULL) {
            if (d->kind == MSG_MMIO && d->size >= sizeof(struct cs_mmio) &&
                ((const struct cs_mmio *)d->payload)->op == CS_MMIO_SYNC_DONE && s->awaiting_drain) {
                s->awaiting_drain = false;
                if (s->drain_for_host && !s->awaiting_pipe) {
                    reply_sync(s, u);
                    s->drain_for_host = false;
                }
            }
            msg_free(unit_sim(u), d);
        }
        while (s->awaiting_pipe && (d = port_pop(s->pipe_drained)) != NULL) {
            cs_take_pipe_reply(s, u, d);
            msg_free(unit_sim(u), d);
            if (!s->awaiting_pipe && !s->awaiting_drain && s->drain_for_host) {
                reply_sync(s, u);
                s->drain_for_host = false;
            }
        }
        if (s->awaiting_drain || s->awaiting_pipe)
            return UNIT_IDLE;           /* woken when the reply arrives */
    }
    if (now < s->busy_until) {
        unit_wake_at(u, s->busy_until);
        return UNIT_IDLE;
    }
    if (cs_engine_busy(s)) {
        unit_progress(u);
        if (cs_step(s, u) && !s->pending_count && !s->awaiting_alu)
            return UNIT_BUSY;
        if (s->pending_count || s->awaiting_alu)
            return UNIT_IDLE;
        return cs_engine_busy(s) || port_peek(s->host) || s->l3_unsent ? UNIT_BUSY : UNIT_IDLE;
    }
    while (!cs_engine_busy(s) && take_host_message(s, u))
        ;
    return cs_engine_busy(s) || port_peek(s->host) || s->l3_unsent ? UNIT_BUSY : UNIT_IDLE;
}

static void cs_stats_derived(struct unit *u, struct stats_writer *w)
{
    struct cs *s = unit_state(u);
    for (size_t i = 0; i < s->spec->n_commands; i++) {
        if (!s->command_counts[i])
            continue;
        char name[160];
        snprintf(name, sizeof name, "by_command.%s", s->spec->commands[i].name);
        stats_emit(w, name, (double)s->command_counts[i], "commands", "commands of this name");
    }
    if (s->blt)
        stats_emit(w, "blt_commands", (double)s->blt_commands, "commands",
                   "2D commands passed to the blitter");
    if (!s->pipe_drained)
        return;     /* the 3D pipeline's registers stay the stages' own */
    stats_emit(w, "pipe.syncs", (double)s->pipe_syncs, "events",
               "CS_MMIO_SYNCs sent down the 3D pipeline (stalls and host syncs)");
    stats_emit(w, "pipe.register_writes", (double)s->pipe_register_writes, "writes",
               "writes of 3D-owned registers sent down the 3D pipeline");
    stats_emit(w, "pipe.malformed_replies", (double)s->pipe_malformed, "messages",
               "pipe_drained messages that were no well-formed CS_MMIO_SYNC_DONE");
    /* the pipeline statistics as of the last sync (their 64-bit registers) */
    static const struct { const char *name; uint32_t offset; } counters[] = {
        { "IA_VERTICES_COUNT", 0x2310 }, { "IA_PRIMITIVES_COUNT", 0x2318 },
        { "VS_INVOCATION_COUNT", 0x2320 }, { "HS_INVOCATION_COUNT", 0x2300 },
        { "DS_INVOCATION_COUNT", 0x2308 }, { "GS_INVOCATION_COUNT", 0x2328 },
        { "GS_PRIMITIVES_COUNT", 0x2330 }, { "CL_INVOCATION_COUNT", 0x2338 },
        { "CL_PRIMITIVES_COUNT", 0x2340 }, { "PS_INVOCATION_COUNT", 0x2348 },
        { "PS_DEPTH_COUNT", 0x2350 },
        { "SO_NUM_PRIMS_WRITTEN0", 0x5200 }, { "SO_NUM_PRIMS_WRITTEN1", 0x5208 },
        { "SO_NUM_PRIMS_WRITTEN2", 0x5210 }, { "SO_NUM_PRIMS_WRITTEN3", 0x5218 },
        { "SO_PRIM_STORAGE_NEEDED0", 0x5240 }, { "SO_PRIM_STORAGE_NEEDED1", 0x5248 },
        { "SO_PRIM_STORAGE_NEEDED2", 0x5250 }, { "SO_PRIM_STORAGE_NEEDED3", 0x5258 },
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
        char name[96];
        snprintf(name, sizeof name, "pipe.%s", counters[i].name);
        uint64_t v = cs_reg_get_raw(&s->regs, counters[i].offset) |
                     (uint64_t)cs_reg_get_raw(&s->regs, counters[i].offset + 4) << 32;
        stats_emit(w, name, (double)v, "count", "the register as of the last 3D pipeline sync");
    }
}

static void cs_destroy(struct unit *u)
{
    struct cs *s = unit_state(u);
    for (uint32_t i = 0; i < s->pending_count; i++)
        msg_free(unit_sim(u), s->pending[i]);
    free(s->pending);
    free(s->pending_port);
    if (s->print && s->print != stdout)
        fclose(s->print);
    else if (s->print)
        fflush(s->print);
    free(s->command_counts);
    free(s->regs.keys);
    free(s->regs.values);
    free(s->regs.used);
    free(s->inline_ring);
    free(s->fetch);
}

struct gpu_address_space *cs_last_address_space(struct unit *u)
{
    struct cs *s = unit_state(u);
    if (!s->executed_any)
        return NULL;
    return s->ppgtt_valid ? &s->ppgtt : &s->ggtt;
}

const struct unit_ops cs_ops = {
    .kind = "cs",
    .help = "The render command streamer: rings, execlists, batch buffers, MI commands, "
            "PIPE_CONTROL post-sync writes; passes 3D and GPGPU state down the pipelines "
            "(seed 004 MI and GFXPIPE commands, notes/aub-format.md §4-5).",
    .state_size = sizeof(struct cs),
    .params = cs_params,
    .ports = cs_ports,
    .stats = cs_stats,
    .create = cs_create,
    .realize = cs_realize,
    .reset = cs_reset,
    .tick = cs_tick,
    .stats_derived = cs_stats_derived,
    .destroy = cs_destroy,
};
