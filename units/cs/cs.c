/* units/cs/cs.c - the render command streamer. See cs.h for what it models. */
#include "units/cs/cs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"
#include "fabric/memory.h"
#include "fabric/port.h"
#include "fabric/sim.h"
#include "fabric/stats.h"
#include "spec/bitpack.h"
#include "spec/spec.h"
#include "units/cs_alu/cs_alu.h"

/* Registers the CS itself gives meaning to. Offsets: notes/aub-format.md §4.3,
 * §4.4, §5.4; MI_PREDICATE_* and CS_GPR: reference genxml gen8.xml registers;
 * TIMESTAMP: reference genxml (RCS TIMESTAMP 0x2358). */
enum {
    REG_RING_TAIL = 0x2030,
    REG_RING_HEAD = 0x2034,
    REG_RING_START = 0x2038,
    REG_RING_CTL = 0x203C,
    REG_HWS_PGA = 0x2080,
    REG_NOPID = 0x2094,
    REG_ELSP = 0x2230,
    REG_L3CNTLREG = 0x7034,     /* Gen8/Gen9: the slices' L3 partition (003 notes §4.5) */
    REG_EXECLIST_STATUS = 0x2234,
    REG_CONTEXT_CONTROL = 0x2244,
    REG_PDP0_LDW = 0x2270,
    REG_PDP0_UDW = 0x2274,
    REG_GFX_MODE = 0x229C,
    REG_TIMESTAMP = 0x2358,
    REG_TIMESTAMP_UDW = 0x235C,
    REG_PREDICATE_RESULT_2 = 0x23BC,
    REG_PREDICATE_SRC0 = 0x2400,
    REG_PREDICATE_SRC1 = 0x2408,
    REG_PREDICATE_DATA = 0x2410,
    REG_PREDICATE_RESULT = 0x2418,
    REG_PREDICATE_RESULT_1 = 0x241C,
    REG_CS_GPR = 0x2600,            /* 16 x 64 bits */
};

/* The MI commands and the few GFXPIPE ones the CS executes itself. */
enum cs_command {
    CMD_OTHER = 0,
    CMD_MI_NOOP,
    CMD_MI_BATCH_BUFFER_END,
    CMD_MI_BATCH_BUFFER_START,
    CMD_MI_LOAD_REGISTER_IMM,
    CMD_MI_LOAD_REGISTER_MEM,
    CMD_MI_LOAD_REGISTER_REG,
    CMD_MI_STORE_REGISTER_MEM,
    CMD_MI_STORE_DATA_IMM,
    CMD_MI_STORE_DATA_INDEX,
    CMD_MI_MATH,
    CMD_MI_PREDICATE,
    CMD_MI_SET_PREDICATE,
    CMD_MI_CONDITIONAL_BATCH_BUFFER_END,
    CMD_MI_FLUSH,
    CMD_MI_FLUSH_DW,
    CMD_MI_ARB_CHECK,
    CMD_MI_ARB_ON_OFF,
    CMD_MI_USER_INTERRUPT,
    CMD_PIPE_CONTROL,
    CMD_PIPELINE_SELECT,
    CMD_STATE_BASE_ADDRESS,
    CMD_COUNT
};

static const char *const command_names[CMD_COUNT] = {
    [CMD_MI_NOOP] = "MI_NOOP",
    [CMD_MI_BATCH_BUFFER_END] = "MI_BATCH_BUFFER_END",
    [CMD_MI_BATCH_BUFFER_START] = "MI_BATCH_BUFFER_START",
    [CMD_MI_LOAD_REGISTER_IMM] = "MI_LOAD_REGISTER_IMM",
    [CMD_MI_LOAD_REGISTER_MEM] = "MI_LOAD_REGISTER_MEM",
    [CMD_MI_LOAD_REGISTER_REG] = "MI_LOAD_REGISTER_REG",
    [CMD_MI_STORE_REGISTER_MEM] = "MI_STORE_REGISTER_MEM",
    [CMD_MI_STORE_DATA_IMM] = "MI_STORE_DATA_IMM",
    [CMD_MI_STORE_DATA_INDEX] = "MI_STORE_DATA_INDEX",
    [CMD_MI_MATH] = "MI_MATH",
    [CMD_MI_PREDICATE] = "MI_PREDICATE",
    [CMD_MI_SET_PREDICATE] = "MI_SET_PREDICATE",
    [CMD_MI_CONDITIONAL_BATCH_BUFFER_END] = "MI_CONDITIONAL_BATCH_BUFFER_END",
    [CMD_MI_FLUSH] = "MI_FLUSH",
    [CMD_MI_FLUSH_DW] = "MI_FLUSH_DW",
    [CMD_MI_ARB_CHECK] = "MI_ARB_CHECK",
    [CMD_MI_ARB_ON_OFF] = "MI_ARB_ON_OFF",
    [CMD_MI_USER_INTERRUPT] = "MI_USER_INTERRUPT",
    [CMD_PIPE_CONTROL] = "PIPE_CONTROL",
    [CMD_PIPELINE_SELECT] = "PIPELINE_SELECT",
    [CMD_STATE_BASE_ADDRESS] = "STATE_BASE_ADDRESS",
};

/* Fields the CS reads, looked up once per generation; NULL where the
 * generation's command has no such field (its meaning then is "0"). */
enum cs_field {
    F_BBS_ADDRESS, F_BBS_SPACE, F_BBS_SECURITY, F_BBS_SECOND_LEVEL, F_BBS_PREDICATION,
    F_LRI_BYTE_DISABLES,
    F_LRM_GLOBAL, F_LRM_REGISTER, F_LRM_ADDRESS,
    F_LRR_SOURCE, F_LRR_DESTINATION,
    F_SRM_GLOBAL, F_SRM_REGISTER, F_SRM_ADDRESS, F_SRM_PREDICATE,
    F_SDI_GLOBAL, F_SDI_ADDRESS, F_SDI_QWORD, F_SDI_DATA,
    F_SDX_OFFSET, F_SDX_DATA0, F_SDX_DATA1, F_SDX_PPHWSP,
    F_PRED_LOAD, F_PRED_COMBINE, F_PRED_COMPARE,
    F_SETPRED_ENABLE,
    F_CBBE_SEMAPHORE, F_CBBE_GLOBAL, F_CBBE_DATA, F_CBBE_ADDRESS, F_CBBE_MASK_MODE,
    F_ARB_ENABLE,
    F_PC_POST_SYNC, F_PC_ADDRESS, F_PC_IMMEDIATE, F_PC_DEST_TYPE, F_PC_STORE_INDEX, F_PC_CS_STALL,
    F_PS_SELECTION, F_PS_MASK,
    F_NOOP_ID, F_NOOP_ID_WRITE,
    F_COUNT
};

static const struct { enum cs_command command; const char *name; } field_names[F_COUNT] = {
    [F_BBS_ADDRESS] = { CMD_MI_BATCH_BUFFER_START, "Batch Buffer Start Address" },
    [F_BBS_SPACE] = { CMD_MI_BATCH_BUFFER_START, "Address Space Indicator" },
    [F_BBS_SECURITY] = { CMD_MI_BATCH_BUFFER_START, "Buffer Security Indicator" },
    [F_BBS_SECOND_LEVEL] = { CMD_MI_BATCH_BUFFER_START, "Second Level Batch Buffer" },
    [F_BBS_PREDICATION] = { CMD_MI_BATCH_BUFFER_START, "Predication Enable" },
    [F_LRI_BYTE_DISABLES] = { CMD_MI_LOAD_REGISTER_IMM, "Byte Write Disables" },
    [F_LRM_GLOBAL] = { CMD_MI_LOAD_REGISTER_MEM, "Use Global GTT" },
    [F_LRM_REGISTER] = { CMD_MI_LOAD_REGISTER_MEM, "Register Address" },
    [F_LRM_ADDRESS] = { CMD_MI_LOAD_REGISTER_MEM, "Memory Address" },
    [F_LRR_SOURCE] = { CMD_MI_LOAD_REGISTER_REG, "Source Register Address" },
    [F_LRR_DESTINATION] = { CMD_MI_LOAD_REGISTER_REG, "Destination Register Address" },
    [F_SRM_GLOBAL] = { CMD_MI_STORE_REGISTER_MEM, "Use Global GTT" },
    [F_SRM_REGISTER] = { CMD_MI_STORE_REGISTER_MEM, "Register Address" },
    [F_SRM_ADDRESS] = { CMD_MI_STORE_REGISTER_MEM, "Memory Address" },
    [F_SRM_PREDICATE] = { CMD_MI_STORE_REGISTER_MEM, "Predicate Enable" },
    [F_SDI_GLOBAL] = { CMD_MI_STORE_DATA_IMM, "Use Global GTT" },
    [F_SDI_ADDRESS] = { CMD_MI_STORE_DATA_IMM, "Address" },
    [F_SDI_QWORD] = { CMD_MI_STORE_DATA_IMM, "Store Qword" },
    [F_SDI_DATA] = { CMD_MI_STORE_DATA_IMM, "Immediate Data" },
    [F_SDX_OFFSET] = { CMD_MI_STORE_DATA_INDEX, "Offset" },
    [F_SDX_DATA0] = { CMD_MI_STORE_DATA_INDEX, "Data DWord 0" },
    [F_SDX_DATA1] = { CMD_MI_STORE_DATA_INDEX, "Data DWord 1" },
    [F_SDX_PPHWSP] = { CMD_MI_STORE_DATA_INDEX, "Use Per-Process Hardware Status Page" },
    [F_PRED_LOAD] = { CMD_MI_PREDICATE, "Load Operation" },
    [F_PRED_COMBINE] = { CMD_MI_PREDICATE, "Combine Operation" },
    [F_PRED_COMPARE] = { CMD_MI_PREDICATE, "Compare Operation" },
    [F_SETPRED_ENABLE] = { CMD_MI_SET_PREDICATE, "PREDICATE ENABLE" },
    [F_CBBE_SEMAPHORE] = { CMD_MI_CONDITIONAL_BATCH_BUFFER_END, "Compare Semaphore" },
    [F_CBBE_GLOBAL] = { CMD_MI_CONDITIONAL_BATCH_BUFFER_END, "Use Global GTT" },
    [F_CBBE_DATA] = { CMD_MI_CONDITIONAL_BATCH_BUFFER_END, "Compare Data Dword" },
    [F_CBBE_ADDRESS] = { CMD_MI_CONDITIONAL_BATCH_BUFFER_END, "Compare Address" },
    [F_CBBE_MASK_MODE] = { CMD_MI_CONDITIONAL_BATCH_BUFFER_END, "Compare Mask Mode" },
    [F_ARB_ENABLE] = { CMD_MI_ARB_ON_OFF, "Arbitration Enable" },
    [F_PC_POST_SYNC] = { CMD_PIPE_CONTROL, "Post Sync Operation" },
    [F_PC_ADDRESS] = { CMD_PIPE_CONTROL, "Address" },
    [F_PC_IMMEDIATE] = { CMD_PIPE_CONTROL, "Immediate Data" },
    [F_PC_DEST_TYPE] = { CMD_PIPE_CONTROL, "Destination Address Type" },
    [F_PC_STORE_INDEX] = { CMD_PIPE_CONTROL, "Store Data Index" },
    [F_PC_CS_STALL] = { CMD_PIPE_CONTROL, "Command Streamer Stall Enable" },
    [F_PS_SELECTION] = { CMD_PIPELINE_SELECT, "Pipeline Selection" },
    [F_PS_MASK] = { CMD_PIPELINE_SELECT, "Mask Bits" },
    [F_NOOP_ID] = { CMD_MI_NOOP, "Identification Number" },
    [F_NOOP_ID_WRITE] = { CMD_MI_NOOP, "Identification Number Register Write Enable" },
};

#define MAX_COMMAND_DWORDS 65536u
#define CS_MAX_L3 8

/* Which pipeline a passed-on command belongs to, by name: 3D* to the 3D
 * pipeline, MEDIA_* and GPGPU_* to the media/GPGPU one, the rest (STATE_BASE_
 * ADDRESS, PIPELINE_SELECT, STATE_SIP, ...) to both. */
enum { ROUTE_3D = 1, ROUTE_MEDIA = 2, ROUTE_BOTH = 3 };
#define REGISTER_SLOTS_MIN 256u

struct register_file {
    uint32_t *keys;
    uint32_t *values;
    uint8_t *used;
    uint32_t capacity, count;
};

/* Where the next command comes from. */
struct batch_level {
    bool active;
    uint64_t address;           /* next command */
    bool ppgtt;
    bool privileged;
};

enum ring_kind { RING_NONE, RING_MEMORY, RING_INLINE };

struct cs {
    /* params */
    uint32_t gen;
    uint32_t dwords_per_cycle;
    uint64_t max_commands;
    uint32_t max_reports;
    double timestamp_hz;
    char print_commands[PARAM_STRING_MAX];

    /* ports */
    struct port *host, *host_reply, *vf, *vfe, *alu, *alu_reply, *vfe_drained;
    struct port *l3[CS_MAX_L3];                 /* the slices' L3s (L3CNTLREG writes) */
    uint32_t l3_count;

    /* spec */
    const struct spec_gen *spec;
    uint8_t *handler;                           /* enum cs_command per spec command index */
    const struct spec_element *element[CMD_COUNT];
    const struct spec_field *field[F_COUNT];
    uint64_t *command_counts;                   /* per spec command index */
    uint8_t *route;                             /* per spec command index: ROUTE_* */

    /* machine */
    struct gpu_memory *memory;
    struct gpu_address_space ggtt, ppgtt;
    bool ppgtt_valid;

    /* engine state */
    struct register_file regs;
    uint32_t elsp[4];
    uint32_t elsp_writes;
    enum ring_kind ring;
    uint64_t ring_start, ring_size, ring_head, ring_tail;
    uint32_t *inline_ring;
    uint32_t inline_count, inline_pos;
    struct batch_level batch[2];                /* first and second level */
    uint64_t context_head_slot;                 /* GGTT address of RING_HEAD's value in the image */
    bool context_head_slot_valid;
    bool predicate;                             /* the MI predicate state bit */
    uint32_t set_predicate;                     /* MI_SET_PREDICATE mode */
    uint32_t pipeline;                          /* PIPELINE_SELECT: 0 3D, 1 media, 2 GPGPU */
    uint64_t submission_commands;
    uint64_t busy_until;                        /* next cycle a command may start */
    struct msg *pending[3];                     /* messages waiting for space */
    struct port *pending_port[3];
    uint32_t pending_count;
    uint32_t *fetch;                            /* the command being executed */
    uint32_t fetch_capacity;
    uint32_t fetch_count;                       /* dwords of the command in fetch[] */
    uint32_t device_pci_id, device_gen;
    bool awaiting_alu;
    bool awaiting_drain;        /* a sync waits for the GPGPU front end's drain reply */
    bool drain_for_host;        /* ... and the host waits for its reply (else a CS stall) */
    uint32_t l3_unsent;         /* bit per L3 still to be sent the latest L3CNTLREG */
    bool executed_any;                          /* some submission ran */
    struct cs_alu_regs alu_regs;                /* SRCA, SRCB, ACCU, ZF, CF between MI_MATHs */
    FILE *print;

    /* stats */
    uint64_t commands, dwords, state_packets, state_dropped, unknown_commands;
    uint64_t hangs, submissions, batches, second_level_batches, chained_batches;
    uint64_t predicated_off, privilege_violations, user_interrupts, post_sync_writes;
    uint64_t register_writes, register_reads, faults, mi_math_instructions, not_modelled;
    uint64_t stall_cycles, device_mismatches, cs_stalls, l3_writes;
};

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
    { .name = "vf", .direction = PORT_OUT, .msg_kinds = MSG_BIT(MSG_STATE), .flags = PORT_OPTIONAL,
      .help = "MSG_STATE: 3D state and primitives, in order, down the 3D pipeline" },
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

/* ---- registers ----------------------------------------------------------- */

static uint32_t reg_slot(const struct register_file *r, uint32_t offset)
{
    uint32_t h = (offset >> 2) * 2654435761u;
    uint32_t mask = r->capacity - 1;
    uint32_t i = h & mask;
    while (r->used[i] && r->keys[i] != offset)
        i = (i + 1) & mask;
    return i;
}

static void reg_grow(struct register_file *r)
{
    struct register_file old = *r;
    r->capacity = old.capacity ? old.capacity * 2 : REGISTER_SLOTS_MIN;
    r->keys = gt_xcalloc(r->capacity, sizeof *r->keys);
    r->values = gt_xcalloc(r->capacity, sizeof *r->values);
    r->used = gt_xcalloc(r->capacity, 1);
    r->count = 0;
    for (uint32_t i = 0; i < old.capacity; i++)
        if (old.used[i]) {
            uint32_t s = reg_slot(r, old.keys[i]);
            r->used[s] = 1;
            r->keys[s] = old.keys[i];
            r->values[s] = old.values[i];
            r->count++;
        }
    free(old.keys);
    free(old.values);
    free(old.used);
}

static uint32_t reg_get_raw(const struct register_file *r, uint32_t offset)
{
    if (r->capacity == 0)
        return 0;
    uint32_t s = reg_slot(r, offset);
    return r->used[s] ? r->values[s] : 0;
}

static void reg_set_raw(struct register_file *r, uint32_t offset, uint32_t value)
{
    if (2 * (r->count + 1) > r->capacity)
        reg_grow(r);
    uint32_t s = reg_slot(r, offset);
    if (!r->used[s]) {
        r->used[s] = 1;
        r->keys[s] = offset;
        r->count++;
    }
    r->values[s] = value;
}

/* Masked registers take bits 15:0 only where bits 31:16 enable them
 * (notes/aub-format.md §4.1: GFX_MODE "masked register, bit 15 set with its
 * write-enable bit 31"; CONTEXT_CONTROL §4.3). */
static bool reg_is_masked(uint32_t offset)
{
    return offset == REG_GFX_MODE || offset == REG_CONTEXT_CONTROL;
}

static uint64_t timestamp_now(const struct cs *s, const struct unit *u)
{
    double seconds = (double)sim_now(unit_sim(u)) * 1e-12;
    return (uint64_t)(seconds * s->timestamp_hz);
}

static uint32_t reg_read(struct cs *s, struct unit *u, uint32_t offset)
{
    s->register_reads++;
    if (offset == REG_TIMESTAMP)
        return (uint32_t)timestamp_now(s, u);
    if (offset == REG_TIMESTAMP_UDW)
        return (uint32_t)(timestamp_now(s, u) >> 32);
    if (offset == REG_EXECLIST_STATUS)
        return 0;       /* bit 4 clear: nothing running when software can look (§4.5) */
    return reg_get_raw(&s->regs, offset);
}

static void start_execlist(struct cs *s, struct unit *u);
static void start_memory_ring(struct cs *s, struct unit *u);

static void reg_write(struct cs *s, struct unit *u, uint32_t offset, uint32_t value)
{
    s->register_writes++;
    if (reg_is_masked(offset)) {
        uint32_t mask = value >> 16;
        value = (reg_get_raw(&s->regs, offset) & ~mask & 0xFFFF) | (value & mask);
    }
    reg_set_raw(&s->regs, offset, value);
    if (offset == REG_PREDICATE_RESULT)
        s->predicate = value & 1;
    if (offset == REG_ELSP && s->gen >= 8) {
        /* Four writes submit: element 1 high, low, element 0 high, low
         * (notes/aub-format.md §4.4). */
        s->elsp[s->elsp_writes++] = value;
        if (s->elsp_writes == 4) {
            s->elsp_writes = 0;
            start_execlist(s, u);
        }
    }
    if (offset == REG_RING_TAIL && s->gen < 8 && (reg_get_raw(&s->regs, REG_RING_CTL) & 1))
        start_memory_ring(s, u);
    if (offset == REG_L3CNTLREG && s->gen >= 8 && s->l3_count) {
        /* The slices' L3s take the new partition; the CS parses on only
         * once every L3 has the write (cs_tick sends the latest value). */
        s->l3_unsent = (1u << s->l3_count) - 1;
        s->l3_writes++;
    }
}

/* Sends the latest L3CNTLREG to the L3s still owed it; false while one's
 * port is full. */
static bool send_l3(struct cs *s, struct unit *u)
{
    for (uint32_t i = 0; i < s->l3_count; i++) {
        if (!(s->l3_unsent & (1u << i)))
            continue;
        if (!port_can_send(s->l3[i]))
            return false;
        struct msg *m = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        struct cs_mmio *w = (struct cs_mmio *)m->payload;
        w->op = CS_MMIO_WRITE;
        w->offset = REG_L3CNTLREG;
        w->value = reg_get_raw(&s->regs, REG_L3CNTLREG);
        port_try_send(s->l3[i], m);
        s->l3_unsent &= ~(1u << i);
    }
    return true;
}

/* ---- reporting ----------------------------------------------------------- */

static void report(struct cs *s, struct unit *u, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(struct cs *s, struct unit *u, const char *fmt, ...)
{
    if (s->max_reports == 0)
        return;
    s->max_reports--;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unit_log(u, SIM_LOG_WARNING, "%s%s", text, s->max_reports ? "" : " (further reports muted)");
}

/* ---- memory -------------------------------------------------------------- */

static struct gpu_address_space *space_for(struct cs *s, bool global)
{
    return (global || !s->ppgtt_valid) ? &s->ggtt : &s->ppgtt;
}

static bool mem_read(struct cs *s, struct gpu_address_space *as, uint64_t address, void *out,
                     uint64_t size)
{
    struct gt_error err;
    if (gpu_address_space_read(as, address, out, size, &err) < 0) {
        s->faults++;
        return false;
    }
    return true;
}

static bool mem_write(struct cs *s, struct unit *u, struct gpu_address_space *as,
                      uint64_t address, const void *data, uint64_t size)
{
    struct gt_error err;
    if (gpu_address_space_write(as, address, data, size, &err) < 0) {
        s->faults++;
        report(s, u, "write of %" PRIu64 " bytes at 0x%" PRIx64 " faulted: %s", size, address,
               err.message);
        return false;
    }
    return true;
}

/* ---- submission ---------------------------------------------------------- */

static bool engine_busy(const struct cs *s)
{
    return s->ring != RING_NONE;
}

static void stop_ring(struct cs *s)
{
    s->ring = RING_NONE;
    s->batch[0].active = s->batch[1].active = false;
    free(s->inline_ring);
    s->inline_ring = NULL;
    s->inline_count = s->inline_pos = 0;
}

static void hang(struct cs *s, struct unit *u, uint64_t address, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void hang(struct cs *s, struct unit *u, uint64_t address, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    s->hangs++;
    unit_log(u, SIM_LOG_ERROR, "ring stopped (hang) at GPU address 0x%" PRIx64 ": %s", address,
             text);
    stop_ring(s);
}

static void finish_submission(struct cs *s, struct unit *u)
{
    s->submissions++;
    if (s->ring == RING_MEMORY && s->context_head_slot_valid) {
        /* Save the ring head into the context image, as a switch-out does
         * (the image's RING_HEAD slot, notes/aub-format.md §4.3). */
        uint32_t head = (uint32_t)s->ring_head;
        mem_write(s, u, &s->ggtt, s->context_head_slot, &head, 4);
    }
    reg_set_raw(&s->regs, REG_RING_HEAD, (uint32_t)s->ring_head);
    stop_ring(s);
}

/* Gen8/Gen9: the context image is a list of MI_LOAD_REGISTER_IMM ending in
 * MI_BATCH_BUFFER_END at LRCA + 4 KiB (003 L1835-1866, aub-format §4.3);
 * restoring it loads those registers, among them the ring and PDP0. */
static void start_execlist(struct cs *s, struct unit *u)
{
    uint64_t descriptor = ((uint64_t)s->elsp[2] << 32) | s->elsp[3];
    if (!(descriptor & 1)) {
        report(s, u, "ELSP descriptor 0x%016" PRIx64 " is not valid (bit 0 clear): ignored",
               descriptor);
        return;
    }
    uint64_t lrca = descriptor & 0xFFFFF000u;
    uint64_t image = lrca + 0x1000;
    s->context_head_slot_valid = false;
    uint32_t dw[2];
    uint64_t at = image;
    for (uint32_t n = 0; n < 4096; n++) {
        if (!mem_read(s, &s->ggtt, at, dw, 4)) {
            hang(s, u, at, "context image at LRCA 0x%" PRIx64 " does not translate", lrca);
            return;
        }
        uint32_t header = dw[0];
        if (header == 0x05000000u)          /* MI_BATCH_BUFFER_END */
            break;
        if ((header >> 23) == 0x22) {       /* MI_LOAD_REGISTER_IMM (004 L20506-20522) */
            uint32_t length = (header & 0xFF) + 2;
            for (uint32_t i = 1; i + 1 < length; i += 2) {
                if (!mem_read(s, &s->ggtt, at + 4 * i, dw, 8)) {
                    hang(s, u, at, "context image truncated");
                    return;
                }
                uint32_t offset = dw[0] & 0x7FFFFC;
                if (offset == REG_RING_HEAD) {
                    s->context_head_slot = at + 4 * i + 4;
                    s->context_head_slot_valid = true;
                }
                reg_set_raw(&s->regs, offset, dw[1]);
            }
            at += 4 * length;
            continue;
        }
        at += 4;                            /* MI_NOOP and padding */
    }
    /* addressing mode bits 4:3 = 3: 4-level PPGTT (aub-format §4.4) */
    uint64_t pml4 = ((uint64_t)reg_get_raw(&s->regs, REG_PDP0_UDW) << 32) |
                    reg_get_raw(&s->regs, REG_PDP0_LDW);
    gpu_address_space_init(&s->ppgtt, s->memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL,
                           pml4 & ~0xFFFull);
    s->ppgtt_valid = ((descriptor >> 3) & 3) != 0;
    start_memory_ring(s, u);
}

/* A ring in memory (GGTT): RING_START, HEAD, TAIL, CTL (aub-format §5.4). */
static void start_memory_ring(struct cs *s, struct unit *u)
{
    (void)u;
    uint32_t ctl = reg_get_raw(&s->regs, REG_RING_CTL);
    s->ring_start = reg_get_raw(&s->regs, REG_RING_START) & 0xFFFFF000u;
    s->ring_size = (uint64_t)(((ctl >> 12) & 0x1FF) + 1) * 4096;
    s->ring_head = reg_get_raw(&s->regs, REG_RING_HEAD) & 0x1FFFFC;
    s->ring_tail = reg_get_raw(&s->regs, REG_RING_TAIL) & 0x1FFFF8;
    if (s->ring_head >= s->ring_size || s->ring_tail >= s->ring_size) {
        s->hangs++;
        unit_log(u, SIM_LOG_ERROR, "ring head 0x%" PRIx64 " or tail 0x%" PRIx64
                 " beyond the ring's %" PRIu64 " bytes: not started", s->ring_head,
                 s->ring_tail, s->ring_size);
        return;
    }
    s->ring = RING_MEMORY;
    s->submission_commands = 0;
    s->executed_any = true;
}

static void start_inline_ring(struct cs *s, const struct cs_mmio *m)
{
    stop_ring(s);
    s->inline_count = m->size / 4;
    s->inline_ring = gt_xmalloc((s->inline_count ? s->inline_count : 1) * 4);
    memcpy(s->inline_ring, m->data, (size_t)s->inline_count * 4);
    s->inline_pos = 0;
    s->ring = RING_INLINE;
    s->submission_commands = 0;
    s->executed_any = true;
    s->ppgtt_valid = false;
}

/* ---- fetching ------------------------------------------------------------ */

/* Where the next command is: the deepest active level. */
static struct batch_level *current_batch(struct cs *s)
{
    if (s->batch[1].active)
        return &s->batch[1];
    if (s->batch[0].active)
        return &s->batch[0];
    return NULL;
}

/* Reads n dwords at the current position into s->fetch. */
static bool fetch_dwords(struct cs *s, uint32_t n, uint64_t *address, bool *ppgtt)
{
    if (n > s->fetch_capacity) {
        s->fetch_capacity = n;
        s->fetch = gt_xrealloc(s->fetch, (size_t)n * 4);
    }
    struct batch_level *b = current_batch(s);
    if (b) {
        *address = b->address;
        *ppgtt = b->ppgtt;
        return mem_read(s, space_for(s, !b->ppgtt), b->address, s->fetch, 4ull * n);
    }
    *ppgtt = false;
    if (s->ring == RING_INLINE) {
        *address = 4ull * s->inline_pos;
        if (s->inline_pos + n > s->inline_count)
            return false;
        memcpy(s->fetch, s->inline_ring + s->inline_pos, 4ull * n);
        return true;
    }
    *address = s->ring_start + s->ring_head;
    for (uint32_t i = 0; i < n; i++) {      /* the ring wraps */
        uint64_t offset = (s->ring_head + 4ull * i) % s->ring_size;
        if (!mem_read(s, &s->ggtt, s->ring_start + offset, &s->fetch[i], 4))
            return false;
    }
    return true;
}

static void advance(struct cs *s, uint32_t n)
{
    struct batch_level *b = current_batch(s);
    if (b)
        b->address += 4ull * n;
    else if (s->ring == RING_INLINE)
        s->inline_pos += n;
    else
        s->ring_head = (s->ring_head + 4ull * n) % s->ring_size;
}

static bool ring_empty(const struct cs *s)
{
    if (s->batch[0].active || s->batch[1].active)
        return false;
    if (s->ring == RING_INLINE)
        return s->inline_pos >= s->inline_count;
    return s->ring_head == s->ring_tail;
}

/* The length of a command no table knows, from its header alone; 0 when it
 * does not decode (notes/004-000-commands.md §1: MI lengths in bits 5:0 for
 * opcodes >= 0x10, GFXPIPE and BLT in bits 7:0, bias 2). */
static uint32_t header_length(uint32_t dw)
{
    switch (dw >> 29) {
    case 0: return ((dw >> 23) & 0x3F) < 0x10 ? 1 : (dw & 0x3F) + 2;
    case 2:
    case 3: return (dw & 0xFF) + 2;
    default: return 0;
    }
}

/* ---- commands ------------------------------------------------------------ */

/* A field of the command being executed; the part of it beyond the dwords
 * the command has (a shorter form, e.g. a one-dword MI_STORE_DATA_IMM) reads
 * as zero. */
static uint64_t fv(const struct cs *s, enum cs_field f)
{
    const struct spec_field *x = s->field[f];
    uint32_t bits = 32 * s->fetch_count;
    if (!x || x->start >= bits)
        return 0;
    return spec_bits_get(s->fetch, x->start, x->end < bits ? x->end : bits - 1);
}

static uint64_t faddr(const struct cs *s, enum cs_field f)
{
    const struct spec_field *x = s->field[f];
    uint32_t bits = 32 * s->fetch_count;
    if (!x || x->start >= bits)
        return 0;
    return spec_get_address(s->fetch, x->start, x->end < bits ? x->end : bits - 1) &
           0xFFFFFFFFFFFFull;
}

static bool in_privileged(const struct cs *s)
{
    const struct batch_level *b = current_batch((struct cs *)s);
    return b ? b->privileged : true;    /* the ring is privileged */
}

/* "Use Global GTT" from a non-privileged batch is a privilege access violation
 * for stores and loads (notes/004-000-commands.md §2.5): counted, not done. */
static bool global_allowed(struct cs *s, struct unit *u, bool global, const char *what)
{
    if (global && !in_privileged(s)) {
        s->privilege_violations++;
        report(s, u, "%s with Use Global GTT in a non-privileged batch: not performed", what);
        return false;
    }
    return true;
}

static void begin_batch(struct cs *s, struct unit *u, uint64_t address, bool ppgtt, bool second)
{
    struct batch_level *parent = current_batch(s);
    bool parent_privileged = parent ? parent->privileged : true;
    /* "Chained or Second level batch buffer can only be in PPGTT if the parent
     * batch buffer is in PPGTT. This is enforced by Hardware." (004 notes §2.5) */
    if (parent && parent->ppgtt)
        ppgtt = true;
    if (ppgtt && !s->ppgtt_valid)
        ppgtt = false;                  /* Gen4/Gen7 captures: everything is GTT */
    bool privileged = parent_privileged && !ppgtt;
    (void)u;
    if (second) {
        s->batch[1] = (struct batch_level){ true, address, ppgtt, privileged };
        s->second_level_batches++;
    } else if (parent) {
        /* chaining replaces the head of the level it is issued from */
        *parent = (struct batch_level){ true, address, ppgtt, privileged };
        s->chained_batches++;
    } else {
        s->batch[0] = (struct batch_level){ true, address, ppgtt, privileged };
        s->batches++;
    }
}

static void gprs_from_registers(const struct cs *s, uint64_t gpr[CS_ALU_GPRS])
{
    for (int i = 0; i < CS_ALU_GPRS; i++)
        gpr[i] = reg_get_raw(&s->regs, REG_CS_GPR + 8 * i) |
                 ((uint64_t)reg_get_raw(&s->regs, REG_CS_GPR + 8 * i + 4) << 32);
}

static void gprs_to_registers(struct cs *s, const uint64_t gpr[CS_ALU_GPRS])
{
    for (int i = 0; i < CS_ALU_GPRS; i++) {
        reg_set_raw(&s->regs, REG_CS_GPR + 8 * i, (uint32_t)gpr[i]);
        reg_set_raw(&s->regs, REG_CS_GPR + 8 * i + 4, (uint32_t)(gpr[i] >> 32));
    }
}

/* MI_MATH: DWords 1..n are ALU instructions on CS_GPR0-15 (seed 003
 * L1321-1528). With the "alu" ports linked the work goes to a separate ALU
 * unit (so an RTL ALU can take its place) and the CS waits for the reply. */
static void execute_mi_math(struct cs *s, struct unit *u, uint32_t length)
{
    uint32_t count = length - 1;
    s->mi_math_instructions += count;
    if (s->alu) {
        if (count > CS_ALU_MAX_INSTRUCTIONS) {
            report(s, u, "MI_MATH with %u instructions: only %d go to the ALU", count,
                   CS_ALU_MAX_INSTRUCTIONS);
            count = CS_ALU_MAX_INSTRUCTIONS;
        }
        struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, cs_alu_request_size(count));
        struct cs_alu_request *r = (struct cs_alu_request *)m->payload;
        gprs_from_registers(s, r->gpr);
        r->count = count;
        memcpy(r->instruction, s->fetch + 1, 4ull * count);
        s->awaiting_alu = true;
        if (!port_try_send(s->alu, m)) {
            s->pending[s->pending_count] = m;
            s->pending_port[s->pending_count++] = s->alu;
        }
        return;
    }
    gprs_from_registers(s, s->alu_regs.gpr);
    for (uint32_t i = 1; i < length; i++)
        if (cs_alu_execute(&s->alu_regs, s->fetch[i]) == CS_ALU_RESERVED)
            report(s, u, "MI_MATH instruction 0x%08x is reserved: executed as NOOP", s->fetch[i]);
    gprs_to_registers(s, s->alu_regs.gpr);
}

/* The ALU unit's reply to MI_MATH: the GPRs after it. */
static bool take_alu_reply(struct cs *s, struct unit *u)
{
    struct msg *m = port_pop(s->alu_reply);
    if (!m)
        return false;
    if (m->size >= sizeof(struct cs_alu_response)) {
        const struct cs_alu_response *r = (const struct cs_alu_response *)m->payload;
        gprs_to_registers(s, r->gpr);
        if (r->malformed)
            report(s, u, "the ALU called an MI_MATH request malformed");
    } else {
        report(s, u, "ALU reply of %u bytes is too short: GPRs unchanged", m->size);
    }
    msg_free(unit_sim(u), m);
    s->awaiting_alu = false;
    return true;
}

/* MI_PREDICATE (004 L21115-21157): MItemp0 = SRC0, MItemp1 = SRC1. */
static void execute_mi_predicate(struct cs *s)
{
    uint64_t src0 = reg_get_raw(&s->regs, REG_PREDICATE_SRC0) |
                    ((uint64_t)reg_get_raw(&s->regs, REG_PREDICATE_SRC0 + 4) << 32);
    uint64_t src1 = reg_get_raw(&s->regs, REG_PREDICATE_SRC1) |
                    ((uint64_t)reg_get_raw(&s->regs, REG_PREDICATE_SRC1 + 4) << 32);
    uint64_t data = reg_get_raw(&s->regs, REG_PREDICATE_DATA) |
                    ((uint64_t)reg_get_raw(&s->regs, REG_PREDICATE_DATA + 4) << 32);
    bool compare = false;
    switch (fv(s, F_PRED_COMPARE)) {
    case 0: compare = true; break;                          /* TRUE */
    case 1: compare = false; break;                         /* FALSE */
    case 2:                                                 /* SRCS_EQUAL */
        data = src0 - src1;
        reg_set_raw(&s->regs, REG_PREDICATE_DATA, (uint32_t)data);
        reg_set_raw(&s->regs, REG_PREDICATE_DATA + 4, (uint32_t)(data >> 32));
        compare = src0 == src1;
        break;
    case 3: compare = (src0 - src1) == data; break;         /* DELTAS_EQUAL */
    }
    bool combined = compare;
    switch (fv(s, F_PRED_COMBINE)) {
    case 0: combined = compare; break;                      /* SET */
    case 1: combined = compare && s->predicate; break;      /* AND */
    case 2: combined = compare || s->predicate; break;      /* OR */
    case 3: combined = compare != s->predicate; break;      /* XOR */
    }
    switch (fv(s, F_PRED_LOAD)) {
    case 2: s->predicate = combined; break;                 /* LOAD */
    case 3: s->predicate = !combined; break;                /* LOADINV */
    default: break;                                         /* KEEP (1 reserved) */
    }
    reg_set_raw(&s->regs, REG_PREDICATE_RESULT, s->predicate);
}

/* MI_SET_PREDICATE (004 L21844-21883): whether following commands are NOOPed. */
static bool set_predicate_noops(const struct cs *s)
{
    bool result = reg_get_raw(&s->regs, REG_PREDICATE_RESULT) & 1;
    bool result2 = reg_get_raw(&s->regs, REG_PREDICATE_RESULT_2) & 1;
    switch (s->set_predicate) {
    case 0x0: return false;
    case 0x1: return !result2;
    case 0x2: return result2;
    case 0x3: return !result;
    case 0x4: return result;
    case 0x5: return false;             /* one slice enabled: the model runs them */
    case 0xF: return true;
    default: return false;
    }
}

/* GPGPU_WALKER with Indirect Parameter Enable (DW0 bit 10): the group
 * counts come from GPGPU_DISPATCHDIMX/Y/Z (0x2500/0x2504/0x2508, loaded by
 * MI_LOAD_REGISTER_MEM: seed 003 L16947-16980), which the CS holds; the
 * packet carries them in the dimension fields, so the front end sees the
 * walker as it runs. */
static void indirect_dims(struct cs *s, struct unit *u, const struct spec_element *e,
                          struct cs_state_packet *p)
{
    static const char *const names[3] = { "Thread Group ID X Dimension",
                                          "Thread Group ID Y Dimension",
                                          "Thread Group ID Z Dimension" };
    for (int i = 0; i < 3; i++) {
        const struct spec_field *f = spec_find_field(e, names[i]);
        if (!f || f->ctype != SPEC_C_U32)
            continue;
        uint32_t v = reg_read(s, u, 0x2500u + 4u * (uint32_t)i);
        memcpy((uint8_t *)p + p->unpacked_offset + f->offset, &v, 4);
    }
}

static void send_state(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                       uint64_t address, bool ppgtt)
{
    uint8_t route = s->route[e - s->spec->commands];
    struct port *targets[2] = { (route & ROUTE_3D) ? s->vf : NULL,
                                (route & ROUTE_MEDIA) ? s->vfe : NULL };
    if (!targets[0] && !targets[1]) {
        s->state_dropped++;
        return;
    }
    for (int t = 0; t < 2; t++) {
        if (!targets[t])
            continue;
        size_t unpacked_offset = sizeof(struct cs_state_packet) + 4ull * n;
        unpacked_offset = (unpacked_offset + 15) & ~(size_t)15;
        struct msg *m = msg_alloc(unit_sim(u), MSG_STATE,
                                  (uint32_t)(unpacked_offset + e->c_size));
        struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
        p->command = e;
        p->gen = s->gen;
        p->dword_count = n;
        p->address = address;
        p->ppgtt = ppgtt;
        p->unpacked_offset = (uint32_t)unpacked_offset;
        const struct gpu_address_space *space = s->ppgtt_valid ? &s->ppgtt : &s->ggtt;
        p->space_format = (uint32_t)space->format;
        p->space_root = space->root;
        memcpy(p->dwords, s->fetch, 4ull * n);
        if (e->unpack && n >= e->length)
            e->unpack(p->dwords, (uint8_t *)p + unpacked_offset);
        if (strcmp(e->name, "GPGPU_WALKER") == 0 && n >= e->length && (s->fetch[0] & (1u << 10)))
            indirect_dims(s, u, e, p);
        s->state_packets++;
        if (!port_try_send(targets[t], m)) {
            /* Back-pressure: parsing stops until it is accepted. */
            s->pending[s->pending_count] = m;
            s->pending_port[s->pending_count++] = targets[t];
        }
    }
}

static void print_command(struct cs *s, const struct spec_element *e, uint32_t n, uint64_t address,
                          bool ppgtt)
{
    if (!s->print)
        return;
    fprintf(s->print, "0x%08" PRIx64 "%s:  0x%08x:  %s\n", address, ppgtt ? " (ppgtt)" : "",
            s->fetch[0], e ? e->name : "UNKNOWN");
    if (e)
        spec_print_element(s->print, e, s->fetch, n, "    ");
}

/* Executes the command in s->fetch (n dwords, from address). */
static void execute(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                    uint64_t address, bool ppgtt)
{
    enum cs_command c = e ? (enum cs_command)s->handler[e - s->spec->commands] : CMD_OTHER;
    uint32_t header = s->fetch[0];

    if (s->set_predicate && c != CMD_MI_SET_PREDICATE && set_predicate_noops(s)) {
        s->predicated_off++;
        return;
    }
    switch (c) {
    case CMD_MI_NOOP:
        if (fv(s, F_NOOP_ID_WRITE))
            reg_set_raw(&s->regs, REG_NOPID, (uint32_t)fv(s, F_NOOP_ID));
        return;
    case CMD_MI_BATCH_BUFFER_END:
        if (s->batch[1].active)
            s->batch[1].active = false;
        else if (s->batch[0].active)
            s->batch[0].active = false;
        else
            report(s, u, "MI_BATCH_BUFFER_END in the ring at 0x%" PRIx64 ": ignored", address);
        return;
    case CMD_MI_BATCH_BUFFER_START: {
        if (fv(s, F_BBS_PREDICATION) && !(reg_get_raw(&s->regs, REG_PREDICATE_RESULT_1) & 1)) {
            s->predicated_off++;
            return;
        }
        bool second = fv(s, F_BBS_SECOND_LEVEL) != 0;
        if (s->batch[1].active) {
            /* "MI_BATCH_BUFFER_START command is not allowed inside a second
             * level batch buffer" (004 notes §2.4): the ring stops. */
            hang(s, u, address, "MI_BATCH_BUFFER_START inside a second-level batch");
            return;
        }
        if (second && !s->batch[0].active) {
            hang(s, u, address, "second-level MI_BATCH_BUFFER_START from the ring");
            return;
        }
        bool use_ppgtt = s->field[F_BBS_SPACE] ? fv(s, F_BBS_SPACE) == 1 : false;
        begin_batch(s, u, faddr(s, F_BBS_ADDRESS), use_ppgtt, second);
        if (s->field[F_BBS_SECURITY] && fv(s, F_BBS_SECURITY))
            current_batch(s)->privileged = false;   /* Gen4: non-secure batch */
        return;
    }
    case CMD_MI_LOAD_REGISTER_IMM: {
        if (fv(s, F_LRI_BYTE_DISABLES) == 0xF)
            return;     /* "Byte Write Disables = 1111b will behave as a NOOP" */
        uint32_t disables = (uint32_t)fv(s, F_LRI_BYTE_DISABLES);
        for (uint32_t i = 1; i + 1 < n; i += 2) {
            uint32_t offset = s->fetch[i] & 0x7FFFFC;
            uint32_t value = s->fetch[i + 1];
            if (disables) {
                uint32_t keep = 0;
                for (int byte = 0; byte < 4; byte++)
                    if (disables & (1u << byte))
                        keep |= 0xFFu << (8 * byte);
                value = (reg_get_raw(&s->regs, offset) & keep) | (value & ~keep);
            }
            reg_write(s, u, offset, value);
        }
        return;
    }
    case CMD_MI_LOAD_REGISTER_MEM: {
        bool global = fv(s, F_LRM_GLOBAL);
        if (!global_allowed(s, u, global, "MI_LOAD_REGISTER_MEM"))
            return;
        uint32_t value;
        uint64_t a = faddr(s, F_LRM_ADDRESS);
        if (!mem_read(s, space_for(s, global), a, &value, 4)) {
            report(s, u, "MI_LOAD_REGISTER_MEM from 0x%" PRIx64 " faulted: register unchanged", a);
            return;
        }
        reg_write(s, u, (uint32_t)faddr(s, F_LRM_REGISTER), value);
        return;
    }
    case CMD_MI_LOAD_REGISTER_REG:
        reg_write(s, u, (uint32_t)faddr(s, F_LRR_DESTINATION),
                  reg_read(s, u, (uint32_t)faddr(s, F_LRR_SOURCE)));
        return;
    case CMD_MI_STORE_REGISTER_MEM: {
        if (fv(s, F_SRM_PREDICATE) && !s->predicate) {
            s->predicated_off++;
            return;
        }
        bool global = fv(s, F_SRM_GLOBAL);
        if (!global_allowed(s, u, global, "MI_STORE_REGISTER_MEM"))
            return;
        uint32_t value = reg_read(s, u, (uint32_t)faddr(s, F_SRM_REGISTER));
        mem_write(s, u, space_for(s, global), faddr(s, F_SRM_ADDRESS), &value, 4);
        return;
    }
    case CMD_MI_STORE_DATA_IMM: {
        bool global = fv(s, F_SDI_GLOBAL);
        if (!global_allowed(s, u, global, "MI_STORE_DATA_IMM"))
            return;
        /* DWord Length 2 stores one dword, 3 a qword (Gen8 also "Store Qword"). */
        uint64_t data = fv(s, F_SDI_DATA);
        bool qword = fv(s, F_SDI_QWORD) || n >= 5;
        mem_write(s, u, space_for(s, global), faddr(s, F_SDI_ADDRESS), &data, qword ? 8 : 4);
        return;
    }
    case CMD_MI_STORE_DATA_INDEX: {
        /* Offset into the hardware status page (HWS_PGA, GGTT), or the
         * per-process one (the LRCA's page) when asked. */
        uint64_t base = reg_get_raw(&s->regs, REG_HWS_PGA) & 0xFFFFF000u;
        if (fv(s, F_SDX_PPHWSP))
            base = ((uint64_t)s->elsp[3]) & 0xFFFFF000u;
        uint64_t a = base + (fv(s, F_SDX_OFFSET) << 2);
        uint32_t data[2] = { (uint32_t)fv(s, F_SDX_DATA0), (uint32_t)fv(s, F_SDX_DATA1) };
        mem_write(s, u, &s->ggtt, a, data, n >= 4 ? 8 : 4);
        return;
    }
    case CMD_MI_MATH:
        execute_mi_math(s, u, n);
        return;
    case CMD_MI_PREDICATE:
        execute_mi_predicate(s);
        return;
    case CMD_MI_SET_PREDICATE:
        s->set_predicate = (uint32_t)fv(s, F_SETPRED_ENABLE);
        return;
    case CMD_MI_CONDITIONAL_BATCH_BUFFER_END: {
        if (!fv(s, F_CBBE_SEMAPHORE))
            return;     /* "If clear, the parser will continue to the next command" */
        bool global = fv(s, F_CBBE_GLOBAL);
        uint32_t words[2] = { 0, 0xFFFFFFFFu };
        uint64_t a = faddr(s, F_CBBE_ADDRESS);
        if (!mem_read(s, space_for(s, global), a, words, fv(s, F_CBBE_MASK_MODE) ? 8 : 4)) {
            report(s, u, "MI_CONDITIONAL_BATCH_BUFFER_END compare address 0x%" PRIx64
                   " faulted: batch continues", a);
            return;
        }
        uint32_t value = words[0] & (fv(s, F_CBBE_MASK_MODE) ? words[1] : 0xFFFFFFFFu);
        if (value > (uint32_t)fv(s, F_CBBE_DATA))
            return;     /* greater: continue (004 L19772-19813) */
        /* end the batch; ending a second level ends its parent too */
        s->batch[0].active = s->batch[1].active = false;
        return;
    }
    case CMD_MI_FLUSH:
    case CMD_MI_FLUSH_DW:
    case CMD_MI_ARB_CHECK:
        return;         /* caches are not modelled; no arbitration between contexts */
    case CMD_MI_ARB_ON_OFF:
        if (!in_privileged(s))
            s->privilege_violations++;  /* "converted to a no-op" (004 L19152) */
        return;
    case CMD_MI_USER_INTERRUPT:
        s->user_interrupts++;
        return;
    case CMD_PIPE_CONTROL: {
        /* Post-sync (004 notes §3: 15:14 0 none, 1 immediate qword, 2 PS depth
         * count, 3 timestamp). "If executed in non-secure batch buffer, the
         * address given will be in a PPGTT address space" (§2.5). */
        uint64_t op = fv(s, F_PC_POST_SYNC);
        if (op) {
            bool global = in_privileged(s) && (s->field[F_PC_DEST_TYPE] ? fv(s, F_PC_DEST_TYPE)
                                                                          : true);
            uint64_t value = op == 1 ? fv(s, F_PC_IMMEDIATE) : op == 3 ? timestamp_now(s, u) : 0;
            if (op == 2)
                s->not_modelled++;      /* no depth test behind yet: count 0 */
            uint64_t a = faddr(s, F_PC_ADDRESS);
            if (fv(s, F_PC_STORE_INDEX))
                a = (reg_get_raw(&s->regs, REG_HWS_PGA) & 0xFFFFF000u) + (a & 0xFFF);
            if (mem_write(s, u, space_for(s, global), a, &value, 8))
                s->post_sync_writes++;
        }
        send_state(s, u, e, n, address, ppgtt);     /* ordering token down the 3D pipe */
        if (fv(s, F_PC_CS_STALL) && s->vfe && s->vfe_drained) {
            /* CS Stall: parsing waits until the GPGPU work before it has
             * drained (the host sync's handshake with the front end; the
             * 3D pipe behind has no threads in flight to wait for). */
            struct msg *d = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
            ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC;
            if (s->pending_count || !port_try_send(s->vfe, d)) {
                s->pending[s->pending_count] = d;
                s->pending_port[s->pending_count++] = s->vfe;
            }
            s->awaiting_drain = true;
            s->drain_for_host = false;
            s->cs_stalls++;
        }
        return;
    }
    case CMD_PIPELINE_SELECT: {
        uint32_t selection = (uint32_t)fv(s, F_PS_SELECTION);
        if (s->field[F_PS_MASK]) {
            uint32_t mask = (uint32_t)fv(s, F_PS_MASK) & 3;
            selection = (s->pipeline & ~mask) | (selection & mask);
        }
        s->pipeline = selection;
        send_state(s, u, e, n, address, ppgtt);
        return;
    }
    case CMD_STATE_BASE_ADDRESS:
        send_state(s, u, e, n, address, ppgtt);
        return;
    case CMD_OTHER:
    case CMD_COUNT:
        break;
    }
    if ((header >> 29) == 0) {
        s->not_modelled++;
        report(s, u, "%s at 0x%" PRIx64 " is not modelled: executed as MI_NOOP", e->name, address);
        return;
    }
    /* 3DPRIMITIVE and GPGPU_WALKER: DW0 bit 8 "Predicate Enable" (004 notes §2.6). */
    if ((strcmp(e->name, "3DPRIMITIVE") == 0 || strcmp(e->name, "GPGPU_WALKER") == 0) &&
        (header & (1u << 8)) && !s->predicate) {
        s->predicated_off++;
        return;
    }
    send_state(s, u, e, n, address, ppgtt);
}

/* Parses and executes one command; false when the engine cannot go on now. */
static bool step(struct cs *s, struct unit *u)
{
    uint64_t address;
    bool ppgtt;
    if (ring_empty(s)) {
        finish_submission(s, u);
        return false;
    }
    if (++s->submission_commands > s->max_commands) {
        hang(s, u, 0, "more than %" PRIu64 " commands in one submission (a batch that loops?)",
             s->max_commands);
        return false;
    }
    if (!fetch_dwords(s, 1, &address, &ppgtt)) {
        hang(s, u, address, "command fetch faulted");
        return false;
    }
    uint32_t header = s->fetch[0];
    const struct spec_element *e = spec_find_command((int)s->gen, s->fetch, 1);
    uint32_t n = e ? spec_command_length(e, s->fetch) : header_length(header);
    if (n == 0 || n > MAX_COMMAND_DWORDS) {
        s->unknown_commands++;
        hang(s, u, address, "dword 0x%08x is no command gtsim knows and its length does not decode",
             header);
        return false;
    }
    if (!fetch_dwords(s, n, &address, &ppgtt)) {
        hang(s, u, address, "%s of %u dwords runs past mapped memory", e ? e->name : "command", n);
        return false;
    }
    s->fetch_count = n;
    advance(s, n);
    s->commands++;
    s->dwords += n;
    print_command(s, e, n, address, ppgtt);
    if (!e) {
        s->unknown_commands++;
        report(s, u, "unknown command 0x%08x at GPU address 0x%" PRIx64 ": skipped %u dwords",
               header, address, n);
        return true;
    }
    s->command_counts[e - s->spec->commands]++;
    execute(s, u, e, n, address, ppgtt);
    uint64_t cost = (n + s->dwords_per_cycle - 1) / s->dwords_per_cycle;
    s->busy_until = unit_cycle(u) + cost;
    return true;
}

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
        report(s, u, "host message of kind %s and %u bytes is not MMIO: dropped",
               msg_kind_name(m->kind), m->size);
        msg_free(unit_sim(u), m);
        return true;
    }
    const struct cs_mmio *c = (const struct cs_mmio *)m->payload;
    if (c->op == CS_MMIO_SYNC_DONE || (c->op == CS_MMIO_RING_DATA &&
                                       c->size > m->size - sizeof(struct cs_mmio))) {
        port_pop(s->host);
        report(s, u, "malformed host message (op %u): dropped", c->op);
        msg_free(unit_sim(u), m);
        return true;
    }
    if (c->op == CS_MMIO_SYNC && s->pending_count)
        return false;
    port_pop(s->host);
    switch (c->op) {
    case CS_MMIO_WRITE:
        reg_write(s, u, c->offset, c->value);
        break;
    case CS_MMIO_RING_DATA:
        start_inline_ring(s, c);
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
        } else {
            reply_sync(s, u);
        }
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
        report(s, u, "host message op %u is unknown: dropped", c->op);
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
    s->handler = gt_xcalloc(s->spec->n_commands, 1);
    s->command_counts = gt_xcalloc(s->spec->n_commands, sizeof *s->command_counts);
    s->route = gt_xcalloc(s->spec->n_commands, 1);
    for (size_t i = 0; i < s->spec->n_commands; i++) {
        const char *name = s->spec->commands[i].name;
        s->route[i] = strncmp(name, "3D", 2) == 0 ? ROUTE_3D
                    : (strncmp(name, "MEDIA_", 6) == 0 || strncmp(name, "GPGPU_", 6) == 0)
                        ? ROUTE_MEDIA : ROUTE_BOTH;
    }
    for (int c = 1; c < CMD_COUNT; c++) {
        const struct spec_element *e = spec_find_element((int)s->gen, SPEC_COMMAND, command_names[c]);
        s->element[c] = e;
        if (e)
            s->handler[e - s->spec->commands] = (uint8_t)c;
    }
    for (int f = 0; f < F_COUNT; f++) {
        const struct spec_element *e = s->element[field_names[f].command];
        s->field[f] = e ? spec_find_field(e, field_names[f].name) : NULL;
    }
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
    stop_ring(s);
    memset(&s->alu_regs, 0, sizeof s->alu_regs);
    s->awaiting_alu = false;
    s->awaiting_drain = false;
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
    while (s->pending_count) {
        if (!port_try_send(s->pending_port[0], s->pending[0])) {
            s->stall_cycles++;
            return UNIT_IDLE;           /* woken when the port frees */
        }
        s->pending[0] = s->pending[1];
        s->pending_port[0] = s->pending_port[1];
        s->pending_count--;
    }
    if (s->l3_unsent && !send_l3(s, u)) {
        s->stall_cycles++;
        return UNIT_IDLE;               /* woken when the port frees */
    }
    if (s->awaiting_alu) {
        if (!take_alu_reply(s, u))
            return UNIT_IDLE;           /* woken when the reply arrives */
    }
    if (s->awaiting_drain) {
        struct msg *d;
        while ((d = port_pop(s->vfe_drained)) != NULL) {
            if (d->kind == MSG_MMIO && d->size >= sizeof(struct cs_mmio) &&
                ((const struct cs_mmio *)d->payload)->op == CS_MMIO_SYNC_DONE && s->awaiting_drain) {
                s->awaiting_drain = false;
                if (s->drain_for_host)
                    reply_sync(s, u);
            }
            msg_free(unit_sim(u), d);
        }
        if (s->awaiting_drain)
            return UNIT_IDLE;           /* woken when the reply arrives */
    }
    if (now < s->busy_until) {
        unit_wake_at(u, s->busy_until);
        return UNIT_IDLE;
    }
    if (engine_busy(s)) {
        unit_progress(u);
        if (step(s, u) && !s->pending_count && !s->awaiting_alu)
            return UNIT_BUSY;
        if (s->pending_count || s->awaiting_alu)
            return UNIT_IDLE;
        return engine_busy(s) || port_peek(s->host) || s->l3_unsent ? UNIT_BUSY : UNIT_IDLE;
    }
    while (!engine_busy(s) && take_host_message(s, u))
        ;
    return engine_busy(s) || port_peek(s->host) || s->l3_unsent ? UNIT_BUSY : UNIT_IDLE;
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
}

static void cs_destroy(struct unit *u)
{
    struct cs *s = unit_state(u);
    for (uint32_t i = 0; i < s->pending_count; i++)
        msg_free(unit_sim(u), s->pending[i]);
    if (s->print && s->print != stdout)
        fclose(s->print);
    else if (s->print)
        fflush(s->print);
    free(s->handler);
    free(s->route);
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
