/* units/common/vc4_io.h - VideoCore IV: a QPU's register-mapped I/O
 * (MSG_QPU_IO out, MSG_QPU_RESULT back) and the vertex batches the binner and
 * the primitive setup exchange (MSG_PRIMITIVE).
 *
 * A QPU has no SEND: I/O is a write to waddr 32-63 or a read of raddr 32-51,
 * plus the 4-bit signal field (seed 002, Table 14 @91738; notes/002-videocore4.md
 * §3.9, §3.12). The QPU unit turns each such access into one message to the
 * slice's shared unit that owns the register (TMU, SFU, VPM/VCD/VDW, TLB,
 * mutex, host interrupt): 16 lanes of 32 bits, and for a TMU coordinate
 * write the uniform it pops with it (notes §7.2 item 4: the configuration
 * word travels in-band). What comes back (r4 data from the SFU at N+3 or the
 * TMU on a signal, VPM reads, DMA completion, the mutex grant) is a
 * MSG_QPU_RESULT; the QPU stalls at its SP stage until it arrives (002 @68561).
 * Requests of one QPU are in order; shared units keep one FIFO per QPU
 * (notes §7.2 item 5).
 */
#ifndef GTSIM_UNITS_COMMON_VC4_IO_H
#define GTSIM_UNITS_COMMON_VC4_IO_H

#include <stdint.h>

#ifndef QPU_LANES
#define QPU_LANES 16    /* the same spelling as isa/vc4/qpu_exec.h */
#endif

/* The write addresses of register-mapped I/O (Table 14; the same number in
 * the A and B spaces unless noted). */
enum qpu_io_register {
    QPU_IO_TMU_NOSWAP = 36,
    QPU_IO_HOST_INT = 38,
    QPU_IO_UNIFORMS_ADDRESS = 40,
    QPU_IO_TLB_STENCIL_SETUP = 43,
    QPU_IO_TLB_Z = 44,
    QPU_IO_TLB_COLOUR_MS = 45,
    QPU_IO_TLB_COLOUR_ALL = 46,
    QPU_IO_TLB_ALPHA_MASK = 47,
    QPU_IO_VPM_WRITE = 48,          /* reads of 48: VPM_READ */
    QPU_IO_VPMVCD_SETUP = 49,       /* A: VPMVCD_RD_SETUP, B: VPMVCD_WR_SETUP */
    QPU_IO_VPM_ADDR = 50,           /* A: VPM_LD_ADDR, B: VPM_ST_ADDR (starts the DMA) */
    QPU_IO_MUTEX = 51,              /* read: acquire; write: release */
    QPU_IO_SFU_RECIP = 52,
    QPU_IO_SFU_RECIPSQRT = 53,
    QPU_IO_SFU_EXP = 54,
    QPU_IO_SFU_LOG = 55,
    QPU_IO_TMU0_S = 56,             /* retiring write: the request goes */
    QPU_IO_TMU0_T = 57,
    QPU_IO_TMU0_R = 58,
    QPU_IO_TMU0_B = 59,
    QPU_IO_TMU1_S = 60,
    QPU_IO_TMU1_T = 61,
    QPU_IO_TMU1_R = 62,
    QPU_IO_TMU1_B = 63,
};

enum qpu_io_op {
    QPU_IO_WRITE = 1,               /* a write to `reg` */
    QPU_IO_READ = 2,                /* a read of `reg` (VPM_READ, VPM_*_WAIT, MUTEX_ACQUIRE) */
    QPU_IO_SIGNAL = 3,              /* a signal: load TMU result into r4 (sig 10/11), TLB
                                       colour/alpha/coverage read (sig 7/8/9/12),
                                       scoreboard wait/unlock (sig 4/5) */
    QPU_IO_SEMAPHORE = 4,           /* semaphore instruction (Fig 6 @83883): `reg` = number,
                                       value[0] = 1 to decrement (sa), 0 to increment; the
                                       answer (a qpu_io_result with the same reg) is the grant */
    QPU_IO_START = 5,               /* scheduler -> QPU: run a program (struct qpu_program) */
    QPU_IO_PROGRAM_END = 6,         /* QPU -> scheduler: the program ended (struct qpu_program,
                                       `status` says how) */
    /* The vertex pipeline's side of the VPM (v3d's VCM/VCD and PTB/PSE -> the VPM unit, struct
     * qpu_io_request; 002 Sec 7 @123648, notes §4.4 and §7 item 10: "Vertex-shader accesses
     * are relocated automatically to the batch's allocated region"): */
    QPU_IO_VCD_WRITE = 7,           /* the VCD writes VPM row `reg` (absolute), lanes
                                       lane_mask (one column per vertex, @138512) */
    QPU_IO_VCD_READ = 8,            /* the PTB/PSE reads VPM row `reg` (absolute): answered
                                       with the row (qpu_io_result, reg = the row) */
    QPU_IO_VPM_SEGMENT = 9,         /* QPU `qpu`'s VPM accesses are relative to row value[0]
                                       from now on (0: a user program's view); answered (reg
                                       = the row) once the writes sent before it are in.
                                       Answers echo `thread` (the sender's tag). */
};

/* A QPU's request to a shared unit (MSG_QPU_IO). Every payload carried as MSG_QPU_IO starts
 * with `op`, so a receiver tells them apart by it. */
struct qpu_io_request {
    uint32_t op;                    /* enum qpu_io_op */
    uint32_t reg;                   /* enum qpu_io_register, or the sig code for SIGNAL */
    uint32_t file_b;                /* 1: the B register space (regs 49/50 differ) */
    uint32_t qpu;                   /* QPU number in the GPU (QPU_NUMBER) */
    uint32_t thread;                /* 0 or 1 */
    uint32_t lane_mask;             /* lanes written (condition codes applied) */
    uint32_t uniform;               /* TMU writes: the uniform popped with it */
    uint32_t uniform_valid;
    uint32_t value[QPU_LANES];
};

/* What a shared unit answers (MSG_QPU_RESULT), in the order of the QPU's requests that
 * expect one: r4 data (SFU write, TMU signal), VPM reads, VPM busy and wait reads, the mutex
 * grant, semaphore grants. */
struct qpu_io_result {
    uint32_t reg;                   /* what it answers (register or sig code) */
    uint32_t qpu, thread;
    uint32_t to_r4;                 /* 1: the value goes to accumulator r4 */
    uint32_t value[QPU_LANES];
    /* VARYING_READ answers (fragment shaders, the TLB/FEP side of v3d): the C coefficient that
     * lands in r5 after the read (002 @121213, @121296) */
    uint32_t c_coefficient[QPU_LANES];
};

/* A program for a QPU (QPU_IO_START, scheduler -> QPU) and its end (QPU_IO_PROGRAM_END, QPU ->
 * scheduler), both MSG_QPU_IO: what the QPU scheduler (QPS) writes into a QPU at thread start
 * for a user program: "the program counter, uniforms base and uniforms size" (002 @57217,
 * @120083; the user program queue V3D_SRQPC/SRQUA/SRQUL, Tables 65-67). */
enum qpu_program_status {
    QPU_PROGRAM_ENDED = 0,          /* program end signal and its two delay slots */
    QPU_PROGRAM_WATCHDOG = 1,       /* killed after the unit's watchdog instruction count */
    QPU_PROGRAM_FETCH_FAULT = 2,    /* an instruction fetch outside memory */
    QPU_PROGRAM_HOST_INTERRUPT = 3, /* not an end: a HOST_INT write (value = the value written) */
};

struct qpu_program {
    uint32_t op;                    /* QPU_IO_START or QPU_IO_PROGRAM_END */
    uint32_t qpu;                   /* QPU_NUMBER of the QPU that runs / ran it */
    uint32_t pc;                    /* byte address of the first instruction */
    uint32_t uniforms;              /* byte address of the uniform stream */
    uint32_t uniforms_length;       /* uniforms it may read; > 1023 or 0 = unlimited */
    uint32_t request_id;            /* the scheduler's number for it */
    uint32_t status;                /* PROGRAM_END: enum qpu_program_status */
    uint32_t value;                 /* HOST_INTERRUPT: the value written */
    uint64_t instructions;          /* PROGRAM_END: instructions it executed */
    uint32_t kind;                  /* enum qpu_program_kind (0: a user program) */
    uint32_t threaded;              /* fragment shaders: 1 = two-threaded (record flags bit 0
                                       clear, Table 45); the QPU may then hold two */
    uint32_t thread;                /* which of the QPU's two threads (0, 1) it runs as: the
                                       scheduler's choice, echoed in its requests and its end */
};

/* What a QPU program is, as the QPU scheduler starts it (002 @56979: "coordinate, vertex,
 * fragment and user programs"); the QPU counts its work by kind. */
enum qpu_program_kind {
    QPU_KIND_USER = 0,
    QPU_KIND_FRAGMENT = 1,
    QPU_KIND_VERTEX = 2,
    QPU_KIND_COORDINATE = 3,
    QPU_KIND_COUNT
};

/* A fragment shader start (QPU_IO_START with kind QPU_KIND_FRAGMENT): the FEP's per-thread
 * state written into the new thread's registers, W in regfile A 15 and Z in regfile B 15
 * (Table 29; "New W and Z are written during the write cycle of the Program End
 * instruction", @56274). Varyings, pixel coordinates, MS flags, the TLB and the scoreboard
 * go through the QPU's "tlb" port to v3d (QPU_IO_READ of VARYING_READ 35, X/Y_PIXEL_COORD 41,
 * MS_FLAGS/REV_FLAG 42; QPU_IO_WRITE of 43-47; QPU_IO_SIGNAL of sig 4, 5, 7, 8, 9, 12). */
struct qpu_fragment_start {
    struct qpu_program program;
    uint32_t w[QPU_LANES];          /* float 1/(1/W) per pixel */
    uint32_t z[QPU_LANES];          /* 24-bit Z per pixel */
};

/* A batch of vertices shaded in the VPM, from the vertex cache manager to the
 * binner (coordinate shader outputs, Fig 11) or to primitive setup (vertex
 * shader outputs, Fig 10): VPM column indices instead of URB handles. */
#define VC4_MAX_BATCH_VERTICES 16u

struct vc4_primitive {
    uint32_t mode;                  /* GL primitive mode of the Vertex Array/Indexed Primitive record */
    uint32_t vertex_count;
    uint32_t first_vpm_row;         /* where the batch's columns start in the VPM */
    uint32_t words_per_vertex;      /* 7/8 (PTB input) or 3+NVARY / 4+NVARY (PSE input) */
    uint32_t vpm_column[VC4_MAX_BATCH_VERTICES];
};

#endif
