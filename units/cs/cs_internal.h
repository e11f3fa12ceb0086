/* units/cs/cs_internal.h - what the command streamer's files share (not for
 * other units: they talk to the CS through its ports, cs.h).
 *   cs.c             the unit shell: params, ports, stats, host messages, tick
 *   cs_submission.c  rings, execlists, batch buffers, fetching, the parse step
 *   cs_mi.c          executing commands: MI commands, PIPE_CONTROL, state packets
 *   cs_registers.c   the register file and the registers with side effects
 */
#ifndef GTSIM_UNITS_CS_INTERNAL_H
#define GTSIM_UNITS_CS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/memory.h"
#include "fabric/unit.h"
#include "spec/spec.h"
#include "units/cs/cs.h"
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
    /* The 3D pipeline's registers (units/common/mmio.h; offsets from the
     * reference genxml gen9.xml registers, PS_DEPTH_COUNT and the 3DPRIM_*
     * from spec/data/gen8.xml's notes, INSTPM and CS_DEBUG_MODE2 from the
     * reference genxml gen8.xml / the skl captures' LRIs). */
    REG_HS_INVOCATION_COUNT = 0x2300,   /* first of the 64-bit statistics counters */
    REG_PS_DEPTH_COUNT = 0x2350,        /* last of them */
    REG_SO_NUM_PRIMS_WRITTEN0 = 0x5200, /* + 8n, 64 bits */
    REG_SO_PRIM_STORAGE_NEEDED0 = 0x5240, /* + 8n, 64 bits */
    REG_SO_WRITE_OFFSET0 = 0x5280,      /* + 4n, 32 bits */
    REG_3DPRIM_FIRST = 0x2420,          /* 3DPRIM_END_OFFSET .. 3DPRIM_BASE_VERTEX and 0x2444 */
    REG_3DPRIM_LAST = 0x2444,
    REG_INSTPM = 0x20C0,
    REG_CS_DEBUG_MODE2 = 0x20D8,
};

/* Fields of the MI commands the CS reads from the raw dwords (a shorter
 * form of a command reads as 0 past its end), looked up once per generation
 * by id and superset member (cs_mi.c); NULL where the generation's command
 * has no such field (its meaning then is "0"). */
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

#define MAX_COMMAND_DWORDS 65536u
#define CS_MAX_L3 8

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
    struct port *pipe_drained;                  /* the 3D pipeline's sync replies (optional) */
    struct port *blt;                           /* Gen4: the blitter's input (optional) */
    struct port *l3[CS_MAX_L3];                 /* the slices' L3s (L3CNTLREG writes) */
    uint32_t l3_count;

    /* spec */
    const struct spec_gen *spec;
    const struct spec_field *field[F_COUNT];    /* looked up by id and member at create */
    uint64_t *command_counts;                   /* per spec command index */

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
    struct msg **pending;                       /* messages waiting for space, in order */
    struct port **pending_port;
    uint32_t pending_count, pending_capacity;
    uint32_t *fetch;                            /* the command being executed */
    uint32_t fetch_capacity;
    uint32_t fetch_count;                       /* dwords of the command in fetch[] */
    uint32_t device_pci_id, device_gen;
    bool awaiting_alu;
    bool awaiting_drain;        /* a sync waits for the GPGPU front end's drain reply */
    bool awaiting_pipe;         /* a sync waits for the 3D pipeline's reply on "pipe_drained" */
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
    /* with "pipe_drained" bound only (emitted by stats_derived then) */
    uint64_t pipe_syncs, pipe_register_writes, pipe_malformed;
    /* with "blt" bound only */
    uint64_t blt_commands;
};

/* ---- cs_registers.c ---- */
uint32_t cs_reg_get_raw(const struct register_file *r, uint32_t offset);
void cs_reg_set_raw(struct register_file *r, uint32_t offset, uint32_t value);
uint64_t cs_timestamp_now(const struct cs *s, const struct unit *u);
/* A command's or the host's register access (counted; side effects). */
uint32_t cs_reg_read(struct cs *s, struct unit *u, uint32_t offset);
void cs_reg_write(struct cs *s, struct unit *u, uint32_t offset, uint32_t value);
/* Sends the latest L3CNTLREG to the L3s still owed it; false while one's
 * port is full. */
bool cs_send_l3(struct cs *s, struct unit *u);
/* Whether a 3D stage owns the register (mmio.h): its writes go down "vf"
 * when "pipe_drained" is bound. */
bool cs_reg_is_pipeline(uint32_t offset);
/* The field of struct pipeline_registers a register dword belongs to, and
 * whether it is the high dword; -1 when none. */
int cs_pipeline_field(uint32_t offset, bool *high);
/* Sends CS_MMIO_SYNC down "vf" with the CS's copies of the pipeline
 * registers (the reply comes on "pipe_drained"). */
void cs_send_pipe_sync(struct cs *s, struct unit *u);
/* Takes the 3D pipeline's CS_MMIO_SYNC_DONE: its fields become the CS's
 * copies. */
void cs_take_pipe_reply(struct cs *s, struct unit *u, const struct msg *m);

/* Sends m on p now when nothing waits before it, else queues it (parsing
 * stops until the queue has left). */
void cs_send(struct cs *s, struct port *p, struct msg *m);
/* Queues m for p behind what waits (sent by the tick, in order). */
void cs_queue(struct cs *s, struct port *p, struct msg *m);

/* ---- cs_submission.c ---- */
void cs_report(struct cs *s, struct unit *u, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cs_hang(struct cs *s, struct unit *u, uint64_t address, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
struct gpu_address_space *cs_space_for(struct cs *s, bool global);
bool cs_mem_read(struct cs *s, struct gpu_address_space *as, uint64_t address, void *out,
                 uint64_t size);
bool cs_mem_write(struct cs *s, struct unit *u, struct gpu_address_space *as,
                  uint64_t address, const void *data, uint64_t size);
bool cs_engine_busy(const struct cs *s);
void cs_stop_ring(struct cs *s);
void cs_start_execlist(struct cs *s, struct unit *u);
void cs_start_memory_ring(struct cs *s, struct unit *u);
void cs_start_inline_ring(struct cs *s, const struct cs_mmio *m);
struct batch_level *cs_current_batch(struct cs *s);
bool cs_in_privileged(const struct cs *s);
void cs_begin_batch(struct cs *s, struct unit *u, uint64_t address, bool ppgtt, bool second);
/* Parses and executes one command; false when the engine cannot go on now. */
bool cs_step(struct cs *s, struct unit *u);

/* ---- cs_mi.c ---- */
/* Looks up the fields the CS reads (by id and superset member). */
void cs_fields_init(struct cs *s);
/* Executes the command in s->fetch (n dwords, from address). */
void cs_execute(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                uint64_t address, bool ppgtt);
void cs_print_command(struct cs *s, const struct spec_element *e, uint32_t n, uint64_t address,
                      bool ppgtt);
/* The ALU unit's reply to MI_MATH: the GPRs after it. */
bool cs_take_alu_reply(struct cs *s, struct unit *u);

#endif
