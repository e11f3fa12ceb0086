/* tests/support/vc4_rig.h - VideoCore IV test helpers: QPU instruction words built from the
 * seed's bit layout (seed 002, Fig 3 @70261 with the Table 1 @72071 widths, Fig 5 @82668,
 * Fig 6 @83883, Fig 7 @84940; codes typed from Tables 2-5, 12-14), and a rig of QPU units with
 * the shared units around them and catchers recording what they send. Test-only. */
#ifndef GTSIM_TESTS_VC4_RIG_H
#define GTSIM_TESTS_VC4_RIG_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/memory.h"
#include "fabric/sim.h"
#include "fabric/unit.h"

/* ---- instruction words -------------------------------------------------------------------- */

enum { MUX_R0 = 0, MUX_R1, MUX_R2, MUX_R3, MUX_R4, MUX_R5, MUX_RA, MUX_RB };   /* Table 3 */
enum { COND_NEVER = 0, COND_ALWAYS, COND_ZS, COND_ZC, COND_NS, COND_NC, COND_CS, COND_CC };
enum {                                                                       /* Table 14 */
    W_R0 = 32, W_R1, W_R2, W_R3, W_TMU_NOSWAP, W_R5, W_HOST_INT, W_NOP, W_UNIFORMS_ADDRESS,
    W_VPM = 48, W_VPMVCD_SETUP = 49, W_VPM_ADDR = 50, W_MUTEX_RELEASE = 51,
    W_SFU_RECIP = 52, W_SFU_RECIPSQRT, W_SFU_EXP, W_SFU_LOG, W_TMU0_S = 56, W_TMU0_T,
    W_TMU1_S = 60,
};
enum { RD_UNIFORM = 32, RD_ELEMENT = 38, RD_NOP = 39, RD_VPM = 48, RD_VPM_BUSY = 49,
       RD_VPM_WAIT = 50, RD_MUTEX = 51 };
enum { SIG_BREAK = 0, SIG_NONE = 1, SIG_THREAD_SWITCH = 2, SIG_END = 3, SIG_LOAD_TMU0 = 10,
       SIG_SMALL_IMM = 13 };
enum { OP_NOP = 0, OP_FADD = 1, OP_FSUB = 2, OP_ITOF = 8, OP_ADD = 12, OP_SUB = 13, OP_SHL = 17,
       OP_OR = 21 };                                                          /* Table 12 */
enum { MOP_NOP = 0, MOP_FMUL = 1, MOP_MUL24 = 2 };                             /* Table 13 */

struct vc4_alu {
    unsigned sig, unpack, pm, pack, cond_add, cond_mul, sf, ws, waddr_add, waddr_mul;
    unsigned op_mul, op_add, raddr_a, raddr_b, add_a, add_b, mul_a, mul_b;
};

uint64_t vc4_alu_word(struct vc4_alu x);
/* add-ALU op (sig none, mul nop): waddr = op(a, b), register reads ra/rb */
uint64_t vc4_add(unsigned op, unsigned waddr, unsigned a, unsigned b, unsigned raddr_a,
                 unsigned raddr_b);
/* "mov waddr, src": or src, src (src a mux); raddr_a for MUX_RA */
uint64_t vc4_mov(unsigned waddr, unsigned mux, unsigned raddr_a);
uint64_t vc4_nop(void);
uint64_t vc4_end(void);                       /* nop with sig 3 (program end) */
uint64_t vc4_load_imm(unsigned waddr_add, uint32_t imm);   /* 32-bit load immediate, add side */
uint64_t vc4_load_imm_b(unsigned waddr_add, uint32_t imm); /* the same written to space B (ws=1) */
/* "mov -, rb": a read of raddr_b (space B) that writes nothing */
uint64_t vc4_read_b(unsigned raddr_b);
uint64_t vc4_semaphore(unsigned number, bool decrement);
uint64_t vc4_branch(unsigned cond, int32_t relative_bytes);  /* rel to PC+4 instructions */
/* with the signal bits replaced */
uint64_t vc4_with_sig(uint64_t word, unsigned sig);

/* ---- the rig ------------------------------------------------------------------------------ */

#define VC4_CATCH_MAX 256

struct vc4_catcher {
    struct port *in;
    uint32_t count;
    uint64_t cycle[VC4_CATCH_MAX];
    uint8_t payload[VC4_CATCH_MAX][256];
};

enum vc4_rig_flags {
    VC4_RIG_VPM = 1,        /* a real vc4_vpm unit (else a catcher on "vpm", never answering) */
    VC4_RIG_SYNC = 2,       /* a real vc4_sync unit */
    VC4_RIG_NO_SFU = 4,     /* leave "sfu" unlinked */
    VC4_RIG_TMU = 8,        /* a real vc4_tmu unit on tmu0 and tmu1 */
    VC4_RIG_L2 = 16,        /* a vc4_l2 "l2" (1 KiB, 2 ways, hit 5, SDRAM 40 + 64 B / 16 B a
                             * cycle, address_mask 0x3fffffff): QPU q's cache fills are
                             * client q, the VPM's DMA client `qpus` */
};

struct vc4_rig {
    struct sim *sim;
    struct gpu_memory *memory;
    struct unit *qpu[4];
    unsigned qpus;
    struct unit *sfu, *vpm, *sync, *tmu, *l2;
    struct vc4_catcher *done[4];    /* each QPU's "done" */
    struct vc4_catcher *vpm_writes; /* QPU 0's VPM traffic when there is no VPM unit */
};

/* overrides apply to every QPU; unit_over to the VPM (or NULL) */
struct vc4_rig vc4_rig_new(unsigned qpus, unsigned flags, const char *const *qpu_over,
                           const char *const *vpm_over);
void vc4_rig_write(struct vc4_rig *r, uint32_t address, const void *data, uint32_t bytes);
void vc4_rig_program(struct vc4_rig *r, uint32_t address, const uint64_t *words, unsigned count);
void vc4_rig_words(struct vc4_rig *r, uint32_t address, const uint32_t *words, unsigned count);
uint32_t vc4_rig_read32(struct vc4_rig *r, uint32_t address);
/* injects a program start into QPU q */
void vc4_rig_start(struct vc4_rig *r, unsigned q, uint32_t pc, uint32_t uniforms,
                   uint32_t uniforms_length);
/* the 16 lanes of the n-th VPM write caught (QPU 0, no VPM unit) */
const uint32_t *vc4_rig_vpm_value(struct vc4_rig *r, unsigned n);

#endif
