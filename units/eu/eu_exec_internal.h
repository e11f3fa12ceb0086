/* units/eu/eu_exec_internal.h - what the files of the EU's execution share
 * (private to units/eu/eu_exec*.c; the interface is eu_exec.h):
 *  - eu_exec.c           the driver: the opcode table, one instruction's
 *                        prologue (masks, sources, rounding) and epilogue (cr0,
 *                        ip), thread state and exceptions, SEND requests;
 *  - eu_exec_operands.c  types and conversions, register regions, reading
 *                        sources, writing destinations, flags and predication;
 *  - eu_exec_alu.c       the operation families: moves and conversions, logic,
 *                        compare/select, arithmetic, math;
 *  - eu_exec_flow.c      flow control (Gen4 jump counts, Gen6+ JIP/UIP,
 *                        call/ret, brd/brc, jmpi).
 * Seed 003 line numbers throughout (see eu_exec.h). */
#ifndef GTSIM_UNITS_EU_EU_EXEC_INTERNAL_H
#define GTSIM_UNITS_EU_EU_EXEC_INTERNAL_H

#include "units/eu/eu_exec.h"
#include "eu_spec.h"
#include "msg_desc.h"

#include <string.h>

/* Result lanes are filled for every channel of the exec size (>= 1) before they
 * are written; GCC cannot see that through the opcode switch. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/* cr0 rounding modes switch the host's rounding mode around the arithmetic:
 * float operations must not be moved across fesetround or folded. */
#pragma GCC optimize("-frounding-math")

enum kind { K_INT, K_F, K_DF };

typedef union { int64_t i; uint64_t u; float f; double d; } lane_t;

struct ctx {
    struct eu_thread *t;
    const struct eu_instruction *in;
    unsigned nch;           /* exec size */
    unsigned off;           /* first channel (QtrCtrl/NibCtrl) */
    uint32_t exec_bits;     /* channels of the instruction, absolute */
    uint32_t en;            /* write enables, relative to off */
    bool ftz_f, ftz_df, ftz_hf;
    bool alt;               /* cr0.0[0]: ALT single-precision mode */
    bool f2i_round;         /* cr0.0[12] */
    bool ieee_minmax;       /* cr0.0[11] */
    bool quiet;             /* NaN results are quietened: all but raw moves (L21565, L21813-21821) */
    uint32_t src_inf;       /* .o: channels with an infinite source (relative to off) */
    uint64_t cycle;
    uint32_t crv;           /* cr0.0 when the instruction started */
    struct eu_send_request *send;   /* where a SEND's request goes */
};

/* The lanes of one ALU instruction: sources read in the execution kind, the
 * result, and per-channel condition values. */
struct lanes {
    enum kind k;            /* execution kind */
    unsigned ns;            /* sources read */
    lane_t s0[EU_MAX_CHANNELS], s1[EU_MAX_CHANNELS], s2[EU_MAX_CHANNELS], r[EU_MAX_CHANNELS];
    bool cv[EU_MAX_CHANNELS];
};

/* An operation family: the ALU families get the sources read (l); flow control
 * and send get l = NULL and move the ip themselves. */
typedef enum eu_step_result (*exec_family_fn)(struct ctx *c, struct lanes *l);

/* ---- raw access ------------------------------------------------------------ */

/* ---- raw access and small helpers ------------------------------------------ */

static inline uint64_t rd_le(const uint8_t *p, unsigned size)
{
    /* little-endian host; fixed-size copies so they compile to single loads */
    switch (size) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static inline void wr_le(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline uint32_t cr0(const struct eu_thread *t)
{
    return (uint32_t)rd_le(t->arf[EU_ARF_CR0], 4);
}

static inline uint32_t chan_bits(unsigned n)
{
    return n >= 32 ? ~0u : ((1u << n) - 1);
}

static inline bool type_is_float(unsigned ty)
{
    return ty == EU_TYPE_F || ty == EU_TYPE_DF || ty == EU_TYPE_HF || ty == EU_TYPE_VF;
}

static inline bool type_is_signed(unsigned ty)
{
    return ty == EU_TYPE_D || ty == EU_TYPE_W || ty == EU_TYPE_B || ty == EU_TYPE_Q ||
           ty == EU_TYPE_V;
}

static inline unsigned type_bytes(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_UB: case EU_TYPE_B: return 1;
    case EU_TYPE_UW: case EU_TYPE_W: case EU_TYPE_HF: return 2;
    case EU_TYPE_DF: case EU_TYPE_UQ: case EU_TYPE_Q: return 8;
    default: return 4;
    }
}

#define CR0_MASTER_EXCEPTION (1u << 31)         /* cr0.0 */
#define CR0_SOFTWARE_EXCEPTION (1u << 29)       /* cr0.1 */
#define CR0_ILLEGAL_STATUS (1u << 28)           /* cr0.1 */
#define CR0_SOFTWARE_ENABLE (1u << 13)          /* cr0.1 */
#define CR0_ILLEGAL_ENABLE (1u << 12)           /* cr0.1 */

/* ARF register numbers (reg_nr >> 4) the driver looks for (opcodes.txt [arf]). */
enum { ARF_NR_CR0 = 8, ARF_NR_IP = 10 };

/* ---- per-channel IPs (L20955) ----------------------------------------------- */

static inline void rejoin(struct eu_thread *t)
{
    eu_rejoin(t);
}

static inline void park(struct eu_thread *t, uint32_t bits, uint32_t target)
{
    t->amask &= ~bits;
    t->wmask |= bits;
    while (bits) {
        unsigned ch = (unsigned)__builtin_ctz(bits);
        bits &= bits - 1;
        t->pcip[ch] = target;
    }
}

static inline void jump(struct eu_thread *t, uint32_t target)
{
    t->ip = target;
    if (t->wmask)
        rejoin(t);
}

/* ---- eu_exec_operands.c ------------------------------------------------------ */

int64_t exec_int_from_raw(unsigned ty, uint64_t raw);
uint16_t exec_float_to_half(float f);
float exec_hf_value(const struct ctx *c, uint16_t h);
uint32_t exec_a0_word(const struct eu_thread *t, unsigned n);
enum kind exec_kind_of_type(unsigned ty);
lane_t exec_to_kind(const struct ctx *c, unsigned ty, uint64_t raw, enum kind k);
void exec_fault(struct ctx *c);
void exec_read_src(struct ctx *c, const struct eu_operand *op, enum kind k, lane_t *v, bool logic);
void exec_write_dst(struct ctx *c, const lane_t *r, enum kind k, const bool *cond_val,
                      bool set_flags);
void exec_update_flags(struct ctx *c, const bool *cv);
void exec_write_dst_bits(struct ctx *c, const uint64_t *bits);
uint32_t exec_pred_mask(const struct ctx *c);

/* ---- eu_exec.c ------------------------------------------------------------------ */

/* An illegal or unmodelled instruction: the System Routine or the thread's end. */
enum eu_step_result exec_illegal(struct eu_thread *t, const char *why);

/* ---- the families ------------------------------------------------------------- */

enum eu_step_result exec_moves(struct ctx *c, struct lanes *l);        /* eu_exec_alu.c */
enum eu_step_result exec_logic(struct ctx *c, struct lanes *l);
enum eu_step_result exec_compare(struct ctx *c, struct lanes *l);
enum eu_step_result exec_arithmetic(struct ctx *c, struct lanes *l);
enum eu_step_result exec_accumulator(struct ctx *c, struct lanes *l);
enum eu_step_result exec_math(struct ctx *c, struct lanes *l);
enum eu_step_result exec_no_operation(struct ctx *c, struct lanes *l);
enum eu_step_result exec_flow(struct ctx *c, struct lanes *l);         /* eu_exec_flow.c */
enum eu_step_result exec_flow4(struct ctx *c);
enum eu_step_result exec_send(struct ctx *c, struct lanes *l);         /* eu_exec.c */

#endif
