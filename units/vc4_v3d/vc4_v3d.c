/* units/vc4_v3d/vc4_v3d.c - V3D user program queue and QPU scheduler; see vc4_v3d.h. */
#include "units/vc4_v3d/vc4_v3d.h"

#include <stdlib.h>
#include <string.h>

#include "fabric/sim.h"
#include "units/common/mmio.h"
#include "units/common/vc4_io.h"
#include "units/vc4_v3d/vc4_cle.h"
#include "units/vc4_v3d/vc4_shade.h"
#include "vc4_qpu_spec.h"
#include "vc4_v3d_regs.h"

struct request {
    uint32_t pc, uniforms, length, id;
};

/* A fragment shader thread running on a QPU unit: its batch and its tile buffer state */
struct fragment_slot {
    bool active;
    struct vc4_fragment_job job;
    struct vc4_fragment_thread tlb;
};

/* A batch of vertices on its way through the VPM and a QPU unit (vc4_3d.h queue_vertices) */
enum vertex_stage { VERTEX_FREE, VERTEX_VCD, VERTEX_SEGMENT_ACK, VERTEX_START, VERTEX_RUNNING,
                    VERTEX_READBACK, VERTEX_ROWS };
#define VC4_VERTEX_SLOTS 12u
#define NO_SLOT 0xffffu

struct vertex_slot {
    enum vertex_stage stage;
    uint32_t qpu, base, rows, next_row, rows_back;
    uint64_t ready_at;             /* the VCD's fetch is done */
    struct vc4_vertex_job job;
    uint32_t words[16][VC4_VERTEX_WORDS];
};

struct vc4_v3d {
    /* params */
    uint32_t qpu_shading, vertex_qpu_shading, vpm_rows, vcd_latency, vcd_bytes_per_cycle;
    /* ports */
    struct port *host, *host_reply;
    struct port **qpu, **qpu_done;
    uint32_t qpus, dones;
    struct port **caches;           /* L2CACTL / SLCACTL writes to the L2C and TMUs */
    uint32_t cache_ports;
    struct port **tlb, **tlb_result; /* fragment shaders' TLB/FEP I/O, index = QPU number */
    uint32_t tlbs, tlb_results;
    bool fragments_on_qpus;         /* qpu_shading and the ports it needs are linked */
    struct port *vcd, *vcd_result;  /* the VPM's vertex pipeline side */
    bool vertices_on_qpus;          /* vertex_qpu_shading and the ports it needs are linked */
    struct vertex_slot *vertex;     /* [VC4_VERTEX_SLOTS] */
    uint32_t vertex_slot_of[VC4_MAX_QPUS];
    bool segment_reset[VC4_MAX_QPUS];  /* a QPU's VPM view goes back to row 0 before reuse */
    uint8_t vpm_row_used[256];
    uint64_t vcd_free;
    uint32_t l2cactl, slcactl, dbcfg;
    uint64_t cache_control_writes, cache_control_drops;
    /* registers */
    uint32_t srqua, srqul, sqrsv[2], dbqite, dbqitc;
    uint32_t made, completed;       /* QPURQCM, QPURQCC (kept whole; the register is mod 256) */
    bool error;
    struct request queue[VC4_USER_QUEUE_DEPTH];
    uint32_t queued;
    /* scheduler */
    bool busy[VC4_MAX_QPUS];
    uint32_t kind[VC4_MAX_QPUS];    /* enum qpu_program_kind of the program a QPU runs */
    uint32_t running;
    struct fragment_slot fragment[VC4_MAX_QPUS][2];   /* [QPU][thread] */
    uint32_t threads_used[VC4_MAX_QPUS];             /* fragment threads on the QPU */
    bool threaded_qpu[VC4_MAX_QPUS];                 /* they are two-threaded shaders */
    /* host syncs waiting: the request count each waits for */
    uint64_t sync_until[8];
    uint32_t syncs;
    struct msg *reply_held;
    uint64_t made_total, completed_total, cleared_total;
    /* stats */
    uint64_t requests, starts, completions, overflows, host_interrupts, interrupts_raised;
    uint64_t watchdog_ends, fault_ends, bad_messages, unknown_registers, stat_srqcs, stat_dbqitc;
    uint64_t max_queued;
    /* the control list executor (vc4_cle.h) */
    struct vc4_cle cle;
    struct vc4_3d pipe;            /* the PTB and the tile renderer (vc4_3d.h) */
    uint64_t stat_bin_records, stat_render_records, stat_flushes, stat_frames;
    uint64_t stat_invalid_records, stat_wrong_list_records, stat_semaphore_waits;
    uint64_t stat_cle_overflows, stat_ct0cs, stat_ct1cs, stat_bfc, stat_rfc, stat_bpos;
};

static const struct param_desc v3d_params[] = {
    PARAM_U32_FIELD("qpu_shading", struct vc4_v3d, qpu_shading, 1, 0, 1,
                    "1: fragment shaders run on the QPU units (the \"qpu\" ports and the QPUs' "
                    "\"tlb\" ports linked to \"tlb\"/\"tlb_result\"); 0, or those ports not "
                    "linked: on the functional QPU inside v3d (faster, no QPU/TMU/L2 timing)"),
    PARAM_U32_FIELD("vertex_qpu_shading", struct vc4_v3d, vertex_qpu_shading, 1, 0, 1,
                    "1: coordinate and vertex shaders run on the QPU units through the VPM (with "
                    "qpu_shading = 1 and the \"vpm\"/\"vpm_result\" ports linked to the VPM's "
                    "\"vcd\"/\"vcd_result\"); 0: on the functional QPU inside v3d"),
    PARAM_U32_FIELD("vpm_rows", struct vc4_v3d, vpm_rows, 192, 16, 256,
                    "VPM rows (16 words) the vertex cache manager allocates batch segments from: "
                    "12 KB / 64 bytes (IDENT1 VPMSZ reset 12, Table 80)"),
    PARAM_U32_FIELD("vcd_latency", struct vc4_v3d, vcd_latency, 40, 0, 100000,
                    "cycles from a batch's VCD fetch to its data in the VPM beyond the transfer "
                    "(the seed gives none; the VPM's dma_latency) [chosen]"),
    PARAM_U32_FIELD("vcd_bytes_per_cycle", struct vc4_v3d, vcd_bytes_per_cycle, 8, 1, 1024,
                    "VCD fetch bandwidth (the seed gives none; a 64-bit AXI port) [chosen]"),
    PARAM_END
};

static const struct port_desc v3d_ports[] = {
    { .name = "host", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "V3D register writes and syncs from the host" },
    { .name = "host_reply", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPTIONAL, .help = "sync answers to the host" },
    { .name = "qpu", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "program starts, index = QPU number" },
    { .name = "qpu_done", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL, .help = "program ends and HOST_INT writes" },
    { .name = "caches", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_MMIO),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "V3D_L2CACTL / V3D_SLCACTL writes (CS_MMIO_WRITE) to the L2C and the TMUs" },
    { .name = "tlb", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "fragment shaders' varying/coordinate/flag reads, TLB writes, colour loads and "
              "scoreboard signals, index = QPU number" },
    { .name = "tlb_result", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPEN | PORT_OPTIONAL,
      .help = "answers to those reads and loads, index = QPU number" },
    { .name = "vpm", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_QPU_IO),
      .flags = PORT_OPTIONAL,
      .help = "the VCM/VCD and PTB/PSE side of the VPM: attribute rows in, segments, shaded "
              "rows out (QPU_IO_VCD_WRITE, QPU_IO_VPM_SEGMENT, QPU_IO_VCD_READ)" },
    { .name = "vpm_result", .direction = PORT_IN, .msg_kinds = MSG_BIT(MSG_QPU_RESULT),
      .flags = PORT_OPTIONAL, .help = "the VPM's answers: shaded rows, segment acknowledgements" },
    PORT_END
};

#define C(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_v3d, f, m, h)
static const struct stat_desc v3d_stats[] = {
    C("user_requests", requests, "programs", "V3D_SRQPC writes queued"),
    C("cache_control_writes", cache_control_writes, "writes",
      "V3D_L2CACTL / V3D_SLCACTL writes passed to the caches"),
    C("cache_control_drops", cache_control_drops, "messages",
      "cache control writes a full channel refused (lost)"),
    C("user_starts", starts, "programs", "user programs started on a QPU"),
    C("user_completions", completions, "programs", "user programs ended (QPURQCC)"),
    C("queue_overflows", overflows, "programs",
      "requests into a full queue (QPURQERR set, dropped)"),
    STAT_LEVEL_FIELD("max_queued", struct vc4_v3d, max_queued, "programs",
                     "most requests waiting at once"),
    C("host_interrupts", host_interrupts, "writes", "HOST_INT writes latched in DBQITC"),
    C("interrupts_raised", interrupts_raised, "writes", "those enabled in DBQITE"),
    C("watchdog_ends", watchdog_ends, "programs", "programs the QPU watchdog stopped"),
    C("fault_ends", fault_ends, "programs", "programs ended by a fetch fault"),
    C("bad_messages", bad_messages, "messages", "malformed messages (dropped)"),
    C("unknown_registers", unknown_registers, "writes",
      "writes of V3D registers not modelled here (ignored)"),
    STAT_LEVEL_FIELD("srqcs", struct vc4_v3d, stat_srqcs, "value", "V3D_SRQCS at the end"),
    STAT_LEVEL_FIELD("dbqitc", struct vc4_v3d, stat_dbqitc, "value", "V3D_DBQITC at the end"),
    STAT_LEVEL_FIELD("bin_records", struct vc4_v3d, stat_bin_records, "records",
                     "control records the binning thread (CT0) executed"),
    STAT_LEVEL_FIELD("render_records", struct vc4_v3d, stat_render_records, "records",
                     "control records the rendering thread (CT1) executed"),
    STAT_LEVEL_FIELD("binning_flushes", struct vc4_v3d, stat_flushes, "flushes",
                     "binning flushes (BFC increments)"),
    STAT_LEVEL_FIELD("frames", struct vc4_v3d, stat_frames, "frames",
                     "frames rendered (RFC increments: stores with end of frame)"),
    STAT_LEVEL_FIELD("invalid_records", struct vc4_v3d, stat_invalid_records, "records",
                     "unknown or unsized control records (thread stopped with CTERR)"),
    STAT_LEVEL_FIELD("wrong_list_records", struct vc4_v3d, stat_wrong_list_records, "records",
                     "records of the other thread's list class (Table 38 B/R)"),
    STAT_LEVEL_FIELD("semaphore_wait_cycles", struct vc4_v3d, stat_semaphore_waits, "cycles",
                     "cycles a thread waited on its semaphore"),
    STAT_LEVEL_FIELD("cle_overflows", struct vc4_v3d, stat_cle_overflows, "events",
                     "sub-list nesting beyond 2, semaphore overflow, runaway lists"),
    STAT_LEVEL_FIELD("ct0cs", struct vc4_v3d, stat_ct0cs, "value", "V3D_CT0CS at the end"),
    STAT_LEVEL_FIELD("ct1cs", struct vc4_v3d, stat_ct1cs, "value", "V3D_CT1CS at the end"),
    STAT_LEVEL_FIELD("bfc", struct vc4_v3d, stat_bfc, "value", "V3D_BFC at the end"),
    STAT_LEVEL_FIELD("rfc", struct vc4_v3d, stat_rfc, "value", "V3D_RFC at the end"),
#define P(n, f, m, h) STAT_COUNTER_FIELD(n, struct vc4_v3d, pipe.stats.f, m, h)
    P("primitives_in", primitives_in, "primitives", "primitives the PTB assembled"),
    P("primitives_binned", primitives_binned, "primitives", "primitives written to tile lists"),
    P("primitives_culled", primitives_culled, "primitives",
      "triangles culled by facing or zero area"),
    P("primitives_rejected", primitives_rejected, "primitives",
      "outside the clip volume or the clip window"),
    P("primitives_unclipped", primitives_unclipped, "primitives",
      "dropped: needing clipping (near plane, guard band) with clipping off in the shader "
      "record"),
    P("primitives_clipped", primitives_clipped, "primitives",
      "triangles and lines the PTB clipped at the near plane or the guard band (Clipped "
      "Primitive records, 49)"),
    P("tile_list_bytes", tile_list_bytes, "bytes", "bytes the PTB wrote to tile lists"),
    P("tile_list_blocks", tile_list_blocks, "blocks", "128-byte tile allocation blocks used"),
    P("bin_out_of_memory", bin_out_of_memory, "events",
      "binning memory used up with no overspill left (BMOOM, OUTOMEM): primitives lost"),
    P("coordinate_shader_runs", coordinate_shader_runs, "runs", "coordinate shader batches"),
    P("vertex_shader_runs", vertex_shader_runs, "runs", "vertex shader batches"),
    P("fragment_shader_runs", fragment_shader_runs, "runs", "fragment shader batches (4 quads)"),
    P("vertices_fetched", vertices_fetched, "vertices", "vertices the VCD loaded"),
    P("attribute_faults", attribute_faults, "reads", "attribute reads outside memory"),
    P("shader_faults", shader_faults, "runs", "shaders that fetched outside memory"),
    P("shader_watchdogs", shader_watchdogs, "runs", "shaders stopped by the watchdog"),
    P("tiles_rendered", tiles_rendered, "tiles", "tile stores that wrote a surface"),
    P("fragments_shaded", fragments_shaded, "fragments", "pixels the fragment shader ran for"),
    P("fragments_written", fragments_written, "fragments", "colour writes to the tile buffer"),
    P("depth_failed", depth_failed, "fragments", "pixels failing the Z or stencil test"),
    P("primitives_rendered", primitives_rendered, "primitives",
      "primitives set up from tile lists"),
    P("tile_loads", loads, "loads", "tile buffer loads"),
    P("tile_stores", stores, "stores", "tile buffer stores"),
    P("pipe_bad_records", bad_records, "records",
      "primitives without a usable shader state or configuration (dropped)"),
    P("pipe_unsupported", unsupported, "events",
      "features not modelled (VG, x/y lists, full dumps, TMU in pipeline shaders)"),
    P("multisample_ignored", multisample_ignored, "events",
      "multisample modes not modelled (16x, 64-bit colour, decimation without MS 4x)"),
    P("overspill_taken", overspill_taken, "blocks",
      "overspill memory (V3D_BPOA/BPOS) the binner took when its pool ran out (SPILLUSE)"),
    STAT_LEVEL_FIELD("bpos", struct vc4_v3d, stat_bpos, "bytes",
                     "V3D_BPOS at the end (0 once the binner took the overspill)"),
    P("fragment_dispatches", fragment_dispatches, "threads",
      "fragment shader batches started on QPU units"),
    P("fragment_fallbacks", fragment_fallbacks, "batches",
      "fragment batches shaded inside v3d because every QPU is reserved against fragment "
      "shaders (SQRSV B[1]) or unlinked"),
    P("scoreboard_wait_cycles", scoreboard_wait_cycles, "cycles",
      "cycles the next fragment batch waited for a running one covering the same pixels"),
    P("fragment_queue_wait_cycles", fragment_queue_wait_cycles, "cycles",
      "cycles the rendering thread waited for fragment shading to finish (or for room in the "
      "FEP's queue)"),
    STAT_LEVEL_FIELD("fragment_queue_max", struct vc4_v3d, pipe.stats.fragment_queue_max,
                     "batches", "most fragment batches waiting for a QPU at once"),
    P("tlb_bad_messages", tlb_bad_messages, "messages",
      "TLB messages from a QPU that runs no fragment shader, or of an unknown register"),
    P("index_faults", index_faults, "indices", "indices past the maximum or above 16 bits"),
    P("bin_work_cycles", bin_work_cycles, "cycles",
      "binning work: coordinate shading and the PTB (vc4_3d.h Timing)"),
    P("render_work_cycles", render_work_cycles, "cycles",
      "rendering work: vertex and fragment shading, PSE, FEP, tile loads and stores"),
    P("bin_held_cycles", held_cycles[0], "cycles", "cycles the binning thread waited on its work"),
    P("render_held_cycles", held_cycles[1], "cycles",
      "cycles the rendering thread waited on its work"),
    P("coordinate_instructions", coordinate_instructions, "instructions",
      "QPU instructions of coordinate shaders"),
    P("vertex_instructions", vertex_instructions, "instructions",
      "QPU instructions of vertex shaders"),
    P("fragment_instructions", fragment_instructions, "instructions",
      "QPU instructions of fragment shaders"),
    P("vertex_dispatches", vertex_dispatches, "batches",
      "vertex shader batches started on QPU units (through the VPM)"),
    P("coordinate_dispatches", coordinate_dispatches, "batches",
      "coordinate shader batches started on QPU units (through the VPM)"),
    P("vertex_fallbacks", vertex_fallbacks, "vertices",
      "vertices shaded inside v3d with vertex shading on QPUs: every QPU reserved against the "
      "kind (SQRSV B[2]/B[3]) or more than 65536 in one record"),
    P("bin_vertex_wait_cycles", vertex_wait_cycles[0], "cycles",
      "cycles the binning thread waited for coordinate shading on the QPUs"),
    P("render_vertex_wait_cycles", vertex_wait_cycles[1], "cycles",
      "cycles the rendering thread waited for vertex shading on the QPUs"),
    P("vpm_allocation_wait_cycles", vpm_allocation_wait_cycles, "cycles",
      "cycles a vertex batch waited for VPM rows (VPM stall)"),
    P("vcd_cycles", vcd_cycles, "cycles", "VCD transfer cycles (attribute fetch)"),
    P("vcd_rows", vcd_rows, "rows", "VPM rows the VCD wrote"),
    P("vpm_rows_read", vpm_rows_read, "rows", "shaded VPM rows the PTB/PSE read back"),
#undef P
    STAT_LEVEL_FIELD("tile_cycles_max", struct vc4_v3d, pipe.stats.tile_cycles_max, "cycles",
                     "the longest tile: rendering work between two tile stores"),
    STAT_LEVEL_FIELD("tile_cycles_last", struct vc4_v3d, pipe.stats.tile_cycles_last, "cycles",
                     "the last tile's rendering work"),
    STAT_END
};
#undef C

static const struct key_figure v3d_key_figures[] = {
    { .label = "user programs", .form = KEY_FIGURE_TOTAL, .stat = "user_completions" },
    KEY_FIGURE_END
};

static uint32_t srqcs(const struct vc4_v3d *s)
{
    return (s->queued & V3D_SRQCS_QPURQL_MASK) << V3D_SRQCS_QPURQL_SHIFT |
           (uint32_t)s->error << V3D_SRQCS_QPURQERR_SHIFT |
           (s->made & V3D_SRQCS_QPURQCM_MASK) << V3D_SRQCS_QPURQCM_SHIFT |
           (s->completed & V3D_SRQCS_QPURQCC_MASK) << V3D_SRQCS_QPURQCC_SHIFT;
}

static void update_registers(struct vc4_v3d *s)
{
    s->stat_srqcs = srqcs(s);
    s->stat_dbqitc = s->dbqitc;
    const struct vc4_cle_thread *b = &s->cle.thread[0], *r = &s->cle.thread[1];
    s->stat_bin_records = b->records;
    s->stat_render_records = r->records;
    s->stat_flushes = s->cle.bfc_total;
    s->stat_frames = s->cle.rfc_total;
    s->stat_invalid_records = b->invalid + r->invalid;
    s->stat_wrong_list_records = b->wrong_list + r->wrong_list;
    s->stat_semaphore_waits = b->semaphore_waits + r->semaphore_waits;
    s->stat_cle_overflows = b->overflows + r->overflows;
    s->stat_ct0cs = vc4_cle_read(&s->cle, V3D_CT0CS);
    s->stat_ct1cs = vc4_cle_read(&s->cle, V3D_CT1CS);
    s->stat_bfc = vc4_cle_read(&s->cle, V3D_BFC);
    s->stat_rfc = vc4_cle_read(&s->cle, V3D_RFC);
    s->stat_bpos = s->pipe.bpos;
}

/* L2CACTL (Table 71) and SLCACTL (Table 72) act in the caches: the write goes to each. */
static void send_cache_control(struct vc4_v3d *s, struct unit *u, uint32_t offset, uint32_t value)
{
    s->cache_control_writes++;
    for (uint32_t i = 0; i < s->cache_ports; i++) {
        if (!s->caches[i])
            continue;
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        memset(w, 0, sizeof *w);
        w->op = CS_MMIO_WRITE;
        w->offset = offset;
        w->value = value;
        if (!port_try_send(s->caches[i], m)) {
            msg_free(unit_sim(u), m);
            s->cache_control_drops++;
        }
    }
}

static void write_register(struct vc4_v3d *s, struct unit *u, uint32_t offset, uint32_t value)
{
    switch (offset) {
    case V3D_L2CACTL:
        s->l2cactl = value & 7;
        send_cache_control(s, u, offset, value);
        break;
    case V3D_SLCACTL:
        s->slcactl = value;
        send_cache_control(s, u, offset, value);
        break;
    case V3D_DBCFG:     /* kept; its fields are not modelled (GPU_FFT writes 0) */
        s->dbcfg = value;
        break;
    case V3D_SRQUA:
        s->srqua = value;
        break;
    case V3D_SRQUL:
        s->srqul = value & V3D_SRQUL_QPURQUL_MASK;
        break;
    case V3D_SRQPC:
        if (s->queued >= VC4_USER_QUEUE_DEPTH) {
            s->error = true;
            s->overflows++;
            unit_log(u, SIM_LOG_NOTE, "user program queue full: request for 0x%x dropped "
                     "(QPURQERR)", value);
            break;
        }
        s->queue[s->queued++] = (struct request){ value, s->srqua, s->srqul,
                                                  (uint32_t)s->made_total };
        if (s->queued > s->max_queued)
            s->max_queued = s->queued;
        s->made++;
        s->made_total++;
        s->requests++;
        break;
    case V3D_SRQCS:
        if (value & 1) {
            s->cleared_total += s->queued;   /* dropped: no sync waits for them */
            s->queued = 0;
        }
        if (value & (1u << 7))
            s->error = false;
        if (value & (1u << 8))
            s->made = 0;
        if (value & (1u << 16))
            s->completed = 0;
        break;
    case V3D_SQRSV0:
        s->sqrsv[0] = value;
        break;
    case V3D_BPOA:     /* overspill memory for the binner (vc4_3d.h) */
        s->pipe.bpoa = value;
        break;
    case V3D_BPOS:     /* its size; a write clears BMOOM (PCS, Table 55) */
        s->pipe.bpos = value;
        s->pipe.bmoom = false;
        break;
    case V3D_SQRSV1:
        s->sqrsv[1] = value;
        break;
    case V3D_DBQITE:
        s->dbqite = value & 0xffff;
        break;
    case V3D_DBQITC:
        s->dbqitc &= ~value;    /* write 1 to clear */
        break;
    default:
        if (!vc4_cle_write(&s->cle, offset, value))
            s->unknown_registers++;
        break;
    }
}

/* SQRSV0/1 (Tables 62, 63): "B[0] set: Do not use for User Programs; B[1] ... Fragment
 * Shaders; B[2] ... Vertex Shaders; B[3] ... Coordinate Shaders" */
static bool reserved_against(const struct vc4_v3d *s, uint32_t q, unsigned bit)
{
    return (s->sqrsv[q / 8] >> (4 * (q % 8) + bit)) & 1;
}

static bool reserved_for_user(const struct vc4_v3d *s, uint32_t q)
{
    return reserved_against(s, q, 0);
}

static void schedule(struct vc4_v3d *s, struct unit *u)
{
    while (s->queued) {
        uint32_t q = 0;
        for (; q < s->qpus && q < VC4_MAX_QPUS; q++)
            if (s->qpu[q] && !s->busy[q] && !reserved_for_user(s, q))
                break;
        if (q >= s->qpus || q >= VC4_MAX_QPUS)
            return;
        if (!port_can_send(s->qpu[q]))
            return;
        struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_program));
        struct qpu_program *p = (struct qpu_program *)m->payload;
        p->op = QPU_IO_START;
        p->qpu = q;
        p->pc = s->queue[0].pc;
        p->uniforms = s->queue[0].uniforms;
        p->uniforms_length = s->queue[0].length;
        p->request_id = s->queue[0].id;
        m->tag = q;
        if (!port_try_send(s->qpu[q], m)) {
            msg_free(unit_sim(u), m);
            return;
        }
        memmove(s->queue, s->queue + 1, (s->queued - 1) * sizeof s->queue[0]);
        s->queued--;
        s->busy[q] = true;
        s->kind[q] = QPU_KIND_USER;
        s->running++;
        s->starts++;
        unit_progress(u);
    }
}

static void answer_syncs(struct vc4_v3d *s, struct unit *u)
{
    if (s->reply_held) {
        if (!port_try_send(s->host_reply, s->reply_held))
            return;
        s->reply_held = NULL;
    }
    while (s->syncs && s->completed_total + s->cleared_total >= s->sync_until[0] &&
           !vc4_cle_busy(&s->cle)) {
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *r = (struct cs_mmio *)m->payload;
        r->op = CS_MMIO_SYNC_DONE;
        memmove(s->sync_until, s->sync_until + 1, (s->syncs - 1) * sizeof s->sync_until[0]);
        s->syncs--;
        if (!port_is_bound(s->host_reply)) {
            msg_free(unit_sim(u), m);
            continue;
        }
        if (!port_try_send(s->host_reply, m)) {
            s->reply_held = m;
            return;
        }
    }
}

static void take_done(struct vc4_v3d *s, struct unit *u, uint32_t q, struct msg *m)
{
    const struct qpu_program *p = (const struct qpu_program *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *p || q >= VC4_MAX_QPUS) {
        s->bad_messages++;
        return;
    }
    if (p->op == QPU_IO_WRITE && p->status == QPU_PROGRAM_HOST_INTERRUPT) {
        s->dbqitc |= 1u << q;
        s->host_interrupts++;
        if (s->dbqite >> q & 1)
            s->interrupts_raised++;
        return;
    }
    if (p->op != QPU_IO_PROGRAM_END || !s->busy[q]) {
        s->bad_messages++;
        return;
    }
    if (s->kind[q] == QPU_KIND_FRAGMENT) {
        s->fragment[q][p->thread & 1].active = false;
        if (s->threads_used[q])
            s->threads_used[q]--;
        s->busy[q] = s->threads_used[q] > 0;
        if (s->pipe.fragments_in_flight)
            s->pipe.fragments_in_flight--;
        s->pipe.stats.fragment_instructions += p->instructions;
        if (p->status == QPU_PROGRAM_WATCHDOG)
            s->pipe.stats.shader_watchdogs++;
        else if (p->status == QPU_PROGRAM_FETCH_FAULT)
            s->pipe.stats.shader_faults++;
        return;
    }
    if (s->kind[q] == QPU_KIND_VERTEX || s->kind[q] == QPU_KIND_COORDINATE) {
        uint32_t k = s->vertex_slot_of[q];
        if (s->vertex && k < VC4_VERTEX_SLOTS && s->vertex[k].stage == VERTEX_RUNNING) {
            s->vertex[k].stage = VERTEX_READBACK;
            s->vertex[k].next_row = 0;
            s->vertex[k].rows_back = 0;
        }
        s->vertex_slot_of[q] = NO_SLOT;
        if (s->kind[q] == QPU_KIND_VERTEX)
            s->pipe.stats.vertex_instructions += p->instructions;
        else
            s->pipe.stats.coordinate_instructions += p->instructions;
        if (p->status == QPU_PROGRAM_WATCHDOG)
            s->pipe.stats.shader_watchdogs++;
        else if (p->status == QPU_PROGRAM_FETCH_FAULT)
            s->pipe.stats.shader_faults++;
        s->segment_reset[q] = true;    /* busy until its VPM view is back at row 0 */
        s->kind[q] = QPU_KIND_USER;
        return;
    }
    s->busy[q] = false;
    s->running--;
    s->completed++;
    s->completed_total++;
    s->completions++;
    if (p->status == QPU_PROGRAM_WATCHDOG)
        s->watchdog_ends++;
    else if (p->status == QPU_PROGRAM_FETCH_FAULT)
        s->fault_ends++;
    (void)u;
}

/* ---- vertex and coordinate shading on the QPU units --------------------------------------- */

/* The vertex pipeline through the VPM (002 Sec 8 @144972 GL mode: "VCM batch -> VPM space ->
 * VCD fetch -> QPU shade -> PTB/PSE read"; notes §2.4, §4.4, §7 item 10): a queued batch
 * takes VPM rows (first fit over vpm_rows [chosen: the seed gives the allocator's limits,
 * VPACNTL, not its placement]) and an idle QPU not reserved against its kind (SQRSV B[2]
 * vertex, B[3] coordinate); the VCD writes its attribute rows into the segment and the QPU's
 * VPM view is moved to the segment (QPU_IO_VPM_SEGMENT, acknowledged); the program starts once
 * the VCD's fetch time has passed; at its end the shaded rows are read back and handed to the
 * record waiting for them, the rows are freed and the QPU's view returns to row 0. */
static bool send_vpm(struct vc4_v3d *s, struct unit *u, uint32_t op, uint32_t reg, uint32_t qpu,
                     uint32_t tag, const uint32_t *value, uint32_t lanes)
{
    if (!port_can_send(s->vcd))
        return false;
    struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_io_request));
    struct qpu_io_request *r = (struct qpu_io_request *)m->payload;
    memset(r, 0, sizeof *r);
    r->op = op;
    r->reg = reg;
    r->qpu = qpu;
    r->thread = tag;
    r->lane_mask = lanes;
    if (value)
        memcpy(r->value, value, sizeof r->value);
    m->tag = qpu;
    if (!port_try_send(s->vcd, m)) {
        msg_free(unit_sim(u), m);
        return false;
    }
    return true;
}

static bool vertex_capable(const struct vc4_v3d *s, uint32_t q, bool coordinate)
{
    return q < s->qpus && s->qpu[q] && !reserved_against(s, q, coordinate ? 3 : 2);
}

static bool allocate_rows(struct vc4_v3d *s, uint32_t rows, uint32_t *base)
{
    uint32_t run = 0;
    for (uint32_t r = 0; r < s->vpm_rows && r < 256; r++) {
        run = s->vpm_row_used[r] ? 0 : run + 1;
        if (run == rows) {
            *base = r + 1 - rows;
            memset(s->vpm_row_used + *base, 1, rows);
            return true;
        }
    }
    return false;
}

static void take_vpm_results(struct vc4_v3d *s, struct unit *u)
{
    struct msg *m;
    while (s->vcd_result && (m = port_pop(s->vcd_result)) != NULL) {
        const struct qpu_io_result *r = (const struct qpu_io_result *)m->payload;
        unit_progress(u);
        if (m->kind != MSG_QPU_RESULT || m->size < sizeof *r) {
            s->bad_messages++;
            msg_free(unit_sim(u), m);
            continue;
        }
        if (r->thread < VC4_VERTEX_SLOTS && s->vertex) {
            struct vertex_slot *v = &s->vertex[r->thread];
            if (v->stage == VERTEX_SEGMENT_ACK) {
                v->stage = VERTEX_START;
            } else if ((v->stage == VERTEX_READBACK || v->stage == VERTEX_ROWS) &&
                       r->reg >= v->base &&
                       r->reg - v->base < v->job.out_rows) {
                uint32_t row = r->reg - v->base;
                for (uint32_t k = 0; k < v->job.count && k < 16; k++)
                    v->words[k][row] = r->value[k];
                s->pipe.stats.vpm_rows_read++;
                if (++v->rows_back == v->job.out_rows) {
                    vc4_vertex_job_done(&s->pipe, &v->job,
                                        (const uint32_t (*)[VC4_VERTEX_WORDS])v->words);
                    memset(s->vpm_row_used + v->base, 0, v->rows);
                    v->stage = VERTEX_FREE;
                }
            } else {
                s->bad_messages++;
            }
        } else if (r->thread != NO_SLOT) {
            s->bad_messages++;
        }
        msg_free(unit_sim(u), m);
    }
}

static void advance_vertex_slot(struct vc4_v3d *s, struct unit *u, uint32_t k)
{
    struct vertex_slot *v = &s->vertex[k];
    uint64_t now = unit_cycle(u);
    switch (v->stage) {
    case VERTEX_VCD:
        while (v->next_row < v->job.in_rows) {
            if (!send_vpm(s, u, QPU_IO_VCD_WRITE, v->base + v->next_row, v->qpu, k,
                          v->job.in[v->next_row], (1u << v->job.count) - 1))
                return;
            v->next_row++;
            s->pipe.stats.vcd_rows++;
            unit_progress(u);
        }
        {
            uint32_t base[QPU_LANES] = { v->base };
            if (!send_vpm(s, u, QPU_IO_VPM_SEGMENT, v->base, v->qpu, k, base, 1))
                return;
        }
        v->stage = VERTEX_SEGMENT_ACK;
        unit_progress(u);
        return;
    case VERTEX_START: {
        if (now < v->ready_at || !port_can_send(s->qpu[v->qpu]))
            return;
        struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_program));
        struct qpu_program *p = (struct qpu_program *)m->payload;
        memset(p, 0, sizeof *p);
        p->op = QPU_IO_START;
        p->qpu = v->qpu;
        p->pc = v->job.code;
        p->uniforms = v->job.uniforms;
        p->uniforms_length = 0;                    /* unlimited */
        p->request_id = k;
        p->kind = v->job.coordinate ? QPU_KIND_COORDINATE : QPU_KIND_VERTEX;
        m->tag = v->qpu;
        if (!port_try_send(s->qpu[v->qpu], m)) {
            msg_free(unit_sim(u), m);
            return;
        }
        v->stage = VERTEX_RUNNING;
        unit_progress(u);
        return;
    }
    case VERTEX_READBACK:
        while (v->next_row < v->job.out_rows) {
            if (!send_vpm(s, u, QPU_IO_VCD_READ, v->base + v->next_row, v->qpu, k, NULL, 0))
                return;
            v->next_row++;
            unit_progress(u);
        }
        if (v->stage == VERTEX_READBACK)
            v->stage = VERTEX_ROWS;
        if (v->stage == VERTEX_ROWS && !v->job.out_rows) {        /* nothing to read: done */
            vc4_vertex_job_done(&s->pipe, &v->job, NULL);
            memset(s->vpm_row_used + v->base, 0, v->rows);
            v->stage = VERTEX_FREE;
        }
        return;
    default:
        return;
    }
}

static void dispatch_vertices(struct vc4_v3d *s, struct unit *u)
{
    struct vc4_3d *p = &s->pipe;
    for (uint32_t q = 0; q < s->qpus && q < VC4_MAX_QPUS; q++)
        if (s->segment_reset[q]) {
            uint32_t zero[QPU_LANES] = { 0 };
            if (!send_vpm(s, u, QPU_IO_VPM_SEGMENT, 0, q, NO_SLOT, zero, 1))
                break;
            s->segment_reset[q] = false;
            s->busy[q] = false;
            unit_progress(u);
        }
    for (uint32_t k = 0; k < VC4_VERTEX_SLOTS; k++)
        advance_vertex_slot(s, u, k);
    const struct vc4_vertex_job *j;
    while ((j = vc4_vertex_queue_head(p)) != NULL) {
        bool any_capable = false;
        uint32_t q = VC4_MAX_QPUS;
        for (uint32_t k = 0; k < s->qpus && k < VC4_MAX_QPUS; k++) {
            if (!vertex_capable(s, k, j->coordinate))
                continue;
            any_capable = true;
            if (!s->busy[k]) {
                q = k;
                break;
            }
        }
        if (!any_capable) {
            /* no QPU may take this kind: its vertices are shaded inside v3d */
            struct vc4_vertex_job job;
            vc4_vertex_queue_pop(p, &job);
            vc4_vertex_job_fallback(p, &job);
            unit_progress(u);
            continue;
        }
        uint32_t k = 0;
        while (k < VC4_VERTEX_SLOTS && s->vertex[k].stage != VERTEX_FREE)
            k++;
        if (q == VC4_MAX_QPUS || k == VC4_VERTEX_SLOTS)
            return;
        uint32_t rows = j->in_rows > j->out_rows ? j->in_rows : j->out_rows;
        if (!rows)
            rows = 1;
        struct vertex_slot *v = &s->vertex[k];
        if (!allocate_rows(s, rows, &v->base)) {
            p->stats.vpm_allocation_wait_cycles++;
            return;
        }
        vc4_vertex_queue_pop(p, &v->job);
        v->rows = rows;
        v->qpu = q;
        v->next_row = 0;
        v->stage = VERTEX_VCD;
        /* the VCD: one fetch engine, the batch's attribute bytes at vcd_bytes_per_cycle */
        uint64_t now = unit_cycle(u);
        uint64_t start = s->vcd_free > now ? s->vcd_free : now;
        uint64_t transfer = (v->job.attribute_bytes + s->vcd_bytes_per_cycle - 1) /
                            s->vcd_bytes_per_cycle;
        s->vcd_free = start + transfer;
        v->ready_at = s->vcd_free + s->vcd_latency;
        p->stats.vcd_cycles += transfer;
        s->busy[q] = true;
        s->kind[q] = v->job.coordinate ? QPU_KIND_COORDINATE : QPU_KIND_VERTEX;
        s->vertex_slot_of[q] = k;
        if (v->job.coordinate) {
            p->stats.coordinate_dispatches++;
            p->stats.coordinate_shader_runs++;
        } else {
            p->stats.vertex_dispatches++;
            p->stats.vertex_shader_runs++;
        }
        advance_vertex_slot(s, u, k);
        unit_progress(u);
    }
}

/* ---- fragment shading on the QPU units ---------------------------------------------------- */

/* The scoreboard (002 @111664: it "orders accesses to the same pixel samples across QPUs"),
 * modelled as a start gate: a batch starts only when no running one covers any of its pixels
 * (the hardware starts it and holds it at its first TLB access instead). */
static bool overlaps_running(const struct vc4_v3d *s, const struct vc4_fragment_batch *b)
{
    for (uint32_t k = 0; k < 2 * VC4_MAX_QPUS; k++) {
        const struct fragment_slot *f = &s->fragment[k / 2][k % 2];
        if (!f->active)
            continue;
        const struct vc4_fragment_batch *o = &f->job.batch;
        for (unsigned i = 0; i < 16; i++) {
            if (!(b->lanes >> i & 1))
                continue;
            for (unsigned j = 0; j < 16; j++)
                if ((o->lanes >> j & 1) && o->x[j] == b->x[i] && o->y[j] == b->y[i])
                    return true;
        }
    }
    return false;
}

static bool fragment_capable(const struct vc4_v3d *s, uint32_t q)
{
    return q < s->qpus && s->qpu[q] && q < s->tlb_results && s->tlb_result[q] &&
           !reserved_against(s, q, 1);
}

/* Starts queued fragment batches on idle QPUs (the QPS, 002 @56979), oldest first. */
static void dispatch_fragments(struct vc4_v3d *s, struct unit *u, struct gpu_memory *mem)
{
    struct vc4_3d *p = &s->pipe;
    const struct vc4_fragment_job *j;
    while ((j = vc4_fragment_queue_head(p)) != NULL) {
        bool any_capable = false;
        uint32_t q = VC4_MAX_QPUS, thread = 0;
        for (uint32_t k = 0; k < s->qpus && k < VC4_MAX_QPUS; k++) {
            if (!fragment_capable(s, k))
                continue;
            any_capable = true;
            if (!s->busy[k] && port_can_send(s->qpu[k])) {
                q = k;
                break;
            }
        }
        /* a two-threaded shader may join one on a QPU that runs a single such thread
         * ("Threadable and non-threadable programs are never mixed on a QPU", notes §3.11);
         * idle QPUs are taken first [chosen] */
        for (uint32_t k = 0; q == VC4_MAX_QPUS && j->threaded && k < s->qpus &&
                            k < VC4_MAX_QPUS; k++)
            if (fragment_capable(s, k) && s->busy[k] && s->kind[k] == QPU_KIND_FRAGMENT &&
                s->threaded_qpu[k] && s->threads_used[k] == 1 && port_can_send(s->qpu[k])) {
                q = k;
                thread = s->fragment[k][0].active ? 1 : 0;
            }
        if (!any_capable) {
            /* no QPU may take fragment shaders: shaded here so the frame still ends */
            struct vc4_fragment_job job;
            vc4_fragment_queue_pop(p, &job);
            struct vc4_shader_record rec;
            memset(&rec, 0, sizeof rec);
            rec.fs_code = job.fs_code;
            rec.fs_uniforms = job.fs_uniforms;
            uint32_t bits = p->render.gl.config_bits;
            p->render.gl.config_bits = job.config_bits;
            p->stats.fragment_shader_runs--;           /* counted again by the shading */
            for (unsigned i = 0; i < 16; i++)
                p->stats.fragments_shaded -= job.batch.lanes >> i & 1;
            if (mem)
                vc4_shade_fragments(p, mem, &rec, &job.batch);
            p->render.gl.config_bits = bits;
            p->stats.fragment_fallbacks++;
            unit_progress(u);
            continue;
        }
        if (q == VC4_MAX_QPUS)
            return;
        if (overlaps_running(s, &j->batch)) {
            p->stats.scoreboard_wait_cycles++;
            return;
        }
        struct msg *m = msg_alloc(unit_sim(u), MSG_QPU_IO, sizeof(struct qpu_fragment_start));
        struct qpu_fragment_start *f = (struct qpu_fragment_start *)m->payload;
        f->program.op = QPU_IO_START;
        f->program.qpu = q;
        f->program.pc = j->fs_code;
        f->program.uniforms = j->fs_uniforms;
        f->program.uniforms_length = 0;            /* unlimited */
        f->program.request_id = (uint32_t)p->stats.fragment_dispatches;
        f->program.kind = QPU_KIND_FRAGMENT;
        f->program.threaded = j->threaded;
        f->program.thread = thread;
        memcpy(f->w, j->batch.w, sizeof f->w);
        memcpy(f->z, j->batch.z, sizeof f->z);
        m->tag = q;
        if (!port_try_send(s->qpu[q], m)) {
            msg_free(unit_sim(u), m);
            return;
        }
        struct fragment_slot *slot = &s->fragment[q][thread];
        vc4_fragment_queue_pop(p, &slot->job);
        vc4_fragment_begin(&slot->tlb, &slot->job.batch, slot->job.config_bits);
        slot->active = true;
        s->busy[q] = true;
        s->kind[q] = QPU_KIND_FRAGMENT;
        s->threaded_qpu[q] = slot->job.threaded;
        s->threads_used[q]++;
        p->fragments_in_flight++;
        p->stats.fragment_dispatches++;
        unit_progress(u);
    }
}

/* One TLB/FEP access of QPU q's fragment shader. Reads and loads are answered at once on
 * tlb_result (the caller made sure it has room). */
static void take_tlb(struct vc4_v3d *s, struct unit *u, uint32_t q, const struct msg *m)
{
    const struct qpu_io_request *r = (const struct qpu_io_request *)m->payload;
    if (m->kind != MSG_QPU_IO || m->size < sizeof *r) {
        s->pipe.stats.tlb_bad_messages++;
        return;
    }
    struct fragment_slot *f = &s->fragment[q][r->thread & 1];
    bool answer = r->op == QPU_IO_READ ||
                  (r->op == QPU_IO_SIGNAL && (r->reg == VC4_SIG_COLOR_LOAD ||
                                              r->reg == VC4_SIG_COLOR_LOAD_END ||
                                              r->reg == VC4_SIG_COVERAGE_LOAD ||
                                              r->reg == VC4_SIG_ALPHA_MASK_LOAD));
    struct msg *a = NULL;
    struct qpu_io_result *res = NULL;
    if (answer) {
        a = msg_alloc(unit_sim(u), MSG_QPU_RESULT, sizeof(struct qpu_io_result));
        res = (struct qpu_io_result *)a->payload;
        res->reg = r->reg;
        res->qpu = q;
        res->thread = r->thread;
        a->tag = q;
    }
    if (!f->active) {
        s->pipe.stats.tlb_bad_messages++;          /* answered with zeros */
    } else if (r->op == QPU_IO_READ) {
        if (!vc4_fragment_read(&s->pipe, &f->tlb, r->reg, r->file_b, res->value,
                               res->c_coefficient))
            s->pipe.stats.tlb_bad_messages++;
    } else if (r->op == QPU_IO_WRITE) {
        if (!vc4_fragment_write(&s->pipe, &f->tlb, r->reg, r->value, (uint16_t)r->lane_mask))
            s->pipe.stats.unsupported++;           /* alpha mask (47) */
    } else if (r->op == QPU_IO_SIGNAL) {
        if (r->reg == VC4_SIG_COLOR_LOAD || r->reg == VC4_SIG_COLOR_LOAD_END) {
            res->to_r4 = 1;
            vc4_fragment_colour_load(&s->pipe, &f->tlb, res->value);
        } else if (answer) {
            res->to_r4 = 1;
            s->pipe.stats.unsupported++;           /* coverage, alpha mask loads: zeros */
        }
        /* scoreboard wait / unlock: the start gate already ordered this thread */
    } else {
        s->pipe.stats.tlb_bad_messages++;
    }
    if (a && !port_try_send(s->tlb_result[q], a)) {
        msg_free(unit_sim(u), a);
        s->pipe.stats.tlb_bad_messages++;
    }
}

static void take_tlb_ports(struct vc4_v3d *s, struct unit *u)
{
    for (uint32_t q = 0; q < s->tlbs && q < VC4_MAX_QPUS; q++) {
        struct msg *m;
        while (s->tlb[q] && port_visible(s->tlb[q])) {
            if (q >= s->tlb_results || !s->tlb_result[q] || !port_can_send(s->tlb_result[q]))
                break;         /* room for an answer first (at most one per message) */
            m = port_pop(s->tlb[q]);
            take_tlb(s, u, q, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    }
}

static void take_host(struct vc4_v3d *s, struct unit *u, struct msg *m)
{
    const struct cs_mmio *r = (const struct cs_mmio *)m->payload;
    if (m->kind != MSG_MMIO || m->size < sizeof *r) {
        s->bad_messages++;
        return;
    }
    if (r->op == CS_MMIO_WRITE) {
        write_register(s, u, r->offset, r->value);
    } else if (r->op == CS_MMIO_SYNC) {
        if (s->syncs >= 8) {
            s->bad_messages++;
            return;
        }
        s->sync_until[s->syncs++] = s->made_total;
    } else {
        s->bad_messages++;
    }
}

static int v3d_realize(struct unit *u, struct gt_error *err)
{
    struct vc4_v3d *s = unit_state(u);
    s->host = unit_port(u, "host", 0);
    s->host_reply = unit_port(u, "host_reply", 0);
    s->qpu = unit_port_array(u, "qpu", &s->qpus);
    s->qpu_done = unit_port_array(u, "qpu_done", &s->dones);
    s->caches = unit_port_array(u, "caches", &s->cache_ports);
    s->tlb = unit_port_array(u, "tlb", &s->tlbs);
    s->tlb_result = unit_port_array(u, "tlb_result", &s->tlb_results);
    if (s->tlbs > VC4_MAX_QPUS || s->tlb_results > VC4_MAX_QPUS)
        return gt_error_set(err, "%s: at most %u QPUs on the tlb ports", unit_name(u),
                            VC4_MAX_QPUS);
    s->fragments_on_qpus = s->qpu_shading && s->qpus && s->tlbs && s->tlb_results;
    s->vcd = unit_port(u, "vpm", 0);
    s->vcd_result = unit_port(u, "vpm_result", 0);
    s->vertices_on_qpus = s->qpu_shading && s->vertex_qpu_shading && s->qpus &&
                          s->vcd && port_is_bound(s->vcd) && s->vcd_result &&
                          port_is_bound(s->vcd_result);
    if (s->vertices_on_qpus && !s->vertex) {
        s->vertex = calloc(VC4_VERTEX_SLOTS, sizeof *s->vertex);
        if (!s->vertex)
            return gt_error_set(err, "%s: out of memory", unit_name(u));
    }
    if (s->qpus > VC4_MAX_QPUS || s->dones > VC4_MAX_QPUS)
        return gt_error_set(err, "%s: at most %u QPUs (SQRSV0/1 address 16)", unit_name(u),
                            VC4_MAX_QPUS);
    return 0;
}

static void v3d_reset(struct unit *u)
{
    struct vc4_v3d *s = unit_state(u);
    if (s->reply_held)
        msg_free(unit_sim(u), s->reply_held);
    s->reply_held = NULL;
    s->queued = s->running = s->syncs = 0;
    memset(s->busy, 0, sizeof s->busy);
    s->made = s->completed = 0;
    s->made_total = s->completed_total = s->cleared_total = 0;
    s->error = false;
    s->srqua = s->srqul = s->dbqite = s->dbqitc = 0;
    s->sqrsv[0] = s->sqrsv[1] = 0;
    vc4_cle_init(&s->cle, 0x3fffffffu);   /* bits 31:30: the BCM2835 cache alias */
    vc4_3d_release(&s->pipe);
    vc4_3d_init(&s->pipe, 0x3fffffffu);
    s->pipe.queue_fragments = s->fragments_on_qpus;
    s->pipe.queue_vertices = s->vertices_on_qpus;
    if (s->vertex)
        memset(s->vertex, 0, VC4_VERTEX_SLOTS * sizeof *s->vertex);
    for (uint32_t q = 0; q < VC4_MAX_QPUS; q++)
        s->vertex_slot_of[q] = NO_SLOT;
    memset(s->segment_reset, 0, sizeof s->segment_reset);
    memset(s->vpm_row_used, 0, sizeof s->vpm_row_used);
    s->vcd_free = 0;
    memset(s->fragment, 0, sizeof s->fragment);
    memset(s->kind, 0, sizeof s->kind);
    memset(s->threads_used, 0, sizeof s->threads_used);
    memset(s->threaded_qpu, 0, sizeof s->threaded_qpu);
    s->cle.pipe = &s->pipe;
    update_registers(s);
}

static enum unit_activity v3d_tick(struct unit *u)
{
    struct vc4_v3d *s = unit_state(u);
    struct msg *m;
    /* a fragment shader's TLB accesses before its end (both leave the QPU in order) */
    take_tlb_ports(s, u);
    take_vpm_results(s, u);
    for (uint32_t q = 0; q < s->dones; q++)
        while (s->qpu_done[q] && !(q < s->tlbs && s->tlb[q] && port_visible(s->tlb[q])) &&
               (m = port_pop(s->qpu_done[q])) != NULL) {
            take_done(s, u, q, m);
            msg_free(unit_sim(u), m);
            unit_progress(u);
        }
    while (s->host && (m = port_pop(s->host)) != NULL) {
        take_host(s, u, m);
        msg_free(unit_sim(u), m);
        unit_progress(u);
    }
    schedule(s, u);
    /* the control list threads: one record each a cycle */
    struct gpu_memory *mem = sim_memory(unit_sim(u));
    if (s->vertices_on_qpus)
        dispatch_vertices(s, u);
    dispatch_fragments(s, u, mem);
    bool busy = false;
    if (mem)
        for (unsigned n = 0; n < 2; n++) {
            if (vc4_cle_step(&s->cle, n, mem))
                unit_progress(u);
        }
    busy = mem && vc4_cle_busy(&s->cle);
    answer_syncs(s, u);
    update_registers(s);
    return busy ? UNIT_BUSY : UNIT_IDLE;
}

static void v3d_destroy(struct unit *u)
{
    struct vc4_v3d *s = unit_state(u);
    if (s->reply_held)
        msg_free(unit_sim(u), s->reply_held);
    s->reply_held = NULL;
    vc4_3d_release(&s->pipe);
    free(s->vertex);
    s->vertex = NULL;
}

const struct unit_ops vc4_v3d_ops = {
    .kind = "vc4_v3d",
    .help = "VideoCore IV V3D registers for user programs (V3D_SRQPC/SRQUA/SRQUL/SRQCS, "
            "SQRSV0/1, DBQITE/DBQITC; seed 002 Sec 10) and the QPU scheduler starting them.",
    .state_size = sizeof(struct vc4_v3d),
    .params = v3d_params,
    .ports = v3d_ports,
    .stats = v3d_stats,
    .key_figures = v3d_key_figures,
    .realize = v3d_realize,
    .reset = v3d_reset,
    .tick = v3d_tick,
    .destroy = v3d_destroy,
};

uint32_t vc4_v3d_written_surfaces(struct unit *u, const struct vc4_written_surface **list)
{
    struct vc4_v3d *s = unit_state(u);
    *list = s->pipe.render.surfaces;
    return s->pipe.render.surface_count;
}
