/* units/eu/eu_exec.c - see eu_exec.h. Seed 003 line numbers throughout.
 *
 * One instruction runs as: write enables (L23850-23884) -> sources read
 * through their regions into 64-bit lanes of the execution kind (integer,
 * single or double float; L20473-20496: integer execution is signed with extra
 * precision, so int64 lanes) -> the operation per channel -> conversion to the
 * destination type with saturate, conditional-modifier flags, the implicit
 * accumulator -> the next ip (flow control moves the per-channel IPs).
 *
 * Float rules taken from the seed (units/fpu/fpu.h, which mirrors this file,
 * has the full list and the choices where the seed is ambiguous): int -> float
 * rounds by cr0.0[5:4] (L21694-21700); conditional-modifier flags are taken on
 * the value the destination holds before .sat (L20866-20873); cr0.0[11]
 * selects the IEEE or DX min/max sNaN rule (L20025-20029, L21702-21739); every
 * operation but a raw move quietens sNaNs (L21565, L21813-21821); .o is the
 * overflow of L20890; source modifiers apply to NaNs (L21571 over L21415);
 * DF -> F denormal results flush by cr0.0[7] (L21417 is for mixed HF/F mode).
 * The fast path (eu_fast.c) takes none of the affected cases: no conditional
 * modifiers but cmp's, no sel, no int -> float, RTNE only, raw F moves only.
 */
#include "units/eu/eu_exec.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* Result lanes are filled for every channel of the exec size (>= 1) before they
 * are written; GCC cannot see that through the opcode switch. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/* cr0 rounding modes switch the host's rounding mode around the arithmetic:
 * float operations must not be moved across fesetround or folded. */
#pragma GCC optimize("-frounding-math")

/* Opcodes (spec/eu/opcodes.txt, Gen7+ values). */
enum {
    OP_MOV = 1, OP_SEL = 2, OP_NOT = 4, OP_AND = 5, OP_OR = 6, OP_XOR = 7, OP_SHR = 8,
    OP_SHL = 9, OP_ASR = 12, OP_CMP = 16, OP_CMPN = 17, OP_CSEL = 18, OP_F32TO16 = 19,
    OP_F16TO32 = 20, OP_BFREV = 23, OP_BFE = 24, OP_BFI1 = 25, OP_BFI2 = 26, OP_JMPI = 32,
    OP_IF = 34, OP_ELSE = 36, OP_ENDIF = 37, OP_WHILE = 39, OP_BREAK = 40, OP_CONT = 41,
    OP_HALT = 42, OP_CALLA = 43, OP_BRD = 33, OP_BRC = 35, OP_CALL = 44, OP_RET = 45, OP_GOTO = 46, OP_JOIN = 47,
    OP_SEND = 49, OP_SENDC = 50, OP_SENDS = 51, OP_SENDSC = 52, OP_MATH = 56, OP_ADD = 64,
    OP_MUL = 65, OP_AVG = 66, OP_FRC = 67, OP_RNDU = 68, OP_RNDD = 69, OP_RNDE = 70,
    OP_RNDZ = 71, OP_MAC = 72, OP_MACH = 73, OP_LZD = 74, OP_FBH = 75, OP_FBL = 76,
    OP_CBIT = 77, OP_ADDC = 78, OP_SUBB = 79, OP_DP4 = 84, OP_DPH = 85, OP_DP3 = 86,
    OP_DP2 = 87, OP_LINE = 89, OP_SAD2 = 80, OP_SADA2 = 81, OP_SMOV = 10, OP_MOVI = 3, OP_PLN = 90, OP_MAD = 91, OP_LRP = 92, OP_MADM = 93,
    OP_NOP = 126,
};

/* Conditional modifiers (opcodes.txt [cond-mod]; 003 L20846-20895). */
enum { CM_NONE, CM_Z, CM_NZ, CM_G, CM_GE, CM_L, CM_LE, CM_R, CM_O, CM_U };

/* Math functions (opcodes.txt [math-function]; 003 L24065-24295). */
enum { MF_INV = 1, MF_LOG, MF_EXP, MF_SQRT, MF_RSQ, MF_SIN, MF_COS, MF_FDIV = 9, MF_POW,
       MF_INTDIVMOD, MF_INTDIV, MF_INTMOD, MF_INVM, MF_RSQRTM };

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
};

/* ---- raw access ------------------------------------------------------------ */

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

static uint32_t cr0(const struct eu_thread *t)
{
    return (uint32_t)rd_le(t->arf[EU_ARF_CR0], 4);
}

uint32_t eu_flag_get(const struct eu_thread *t, unsigned reg)
{
    return (uint32_t)rd_le(t->arf[reg ? EU_ARF_F1 : EU_ARF_F0], 4);
}

void eu_flag_set(struct eu_thread *t, unsigned reg, uint32_t v)
{
    wr_le(t->arf[reg ? EU_ARF_F1 : EU_ARF_F0], 4, v);
}

static uint64_t flags64(const struct eu_thread *t)
{
    return (uint64_t)eu_flag_get(t, 0) | (uint64_t)eu_flag_get(t, 1) << 32;
}

static void set_flags64(struct eu_thread *t, uint64_t f)
{
    eu_flag_set(t, 0, (uint32_t)f);
    eu_flag_set(t, 1, (uint32_t)(f >> 32));
}

void eu_thread_init(struct eu_thread *t, int gen, uint64_t inst_base, uint32_t ip, uint32_t dmask)
{
    memset(t, 0, sizeof *t);
    t->gen = gen;
    t->inst_base = inst_base;
    t->ip = ip & ~7u;
    t->dmask = dmask;
    t->amask = dmask;
    /* sr0.2 DMask, sr0.3 VMask (003 L19938-19975). */
    wr_le(t->arf[EU_ARF_SR0] + 8, 4, dmask);
    wr_le(t->arf[EU_ARF_SR0] + 12, 4, dmask);
    /* cr0.0 = 0 at dispatch: RTNE, denormals flushed, IEEE mode (L20019-20065). */
}

#define CR0_MASTER_EXCEPTION (1u << 31)         /* cr0.0 */
#define CR0_SOFTWARE_EXCEPTION (1u << 29)       /* cr0.1 */
#define CR0_ILLEGAL_STATUS (1u << 28)           /* cr0.1 */
#define CR0_SOFTWARE_ENABLE (1u << 13)          /* cr0.1 */
#define CR0_ILLEGAL_ENABLE (1u << 12)           /* cr0.1 */

void eu_thread_set_system(struct eu_thread *t, uint32_t cr0_0, uint32_t cr0_1, bool sip_valid,
                          uint64_t sip)
{
    /* 003 L11090-11130: the dispatch loads FP mode (cr0.0[0]) and the two
     * exception enables; L20019-20065: the rounding mode "is initialized by
     * Thread Dispatch" */
    wr_le(t->arf[EU_ARF_CR0], 4, cr0_0 & 0x31u);
    wr_le(t->arf[EU_ARF_CR0] + 4, 4, cr0_1 & (CR0_SOFTWARE_ENABLE | CR0_ILLEGAL_ENABLE));
    t->sip_valid = sip_valid;
    t->sip = sip;
}

/* 003 L22170-22200: "the EU saves the thread's IP into its AIP register
 * (cr0.2), and then moves the System Routine offset, SIP, into the thread's
 * IP register"; the status bit says which exception; cr0.0[31] marks the
 * exception state. Not nested: false (nothing done) when no SIP is
 * programmed or the thread is already in the System Routine. The masks stay
 * as they were (L22180). */
static bool enter_system_routine(struct eu_thread *t, uint32_t status, uint32_t aip)
{
    uint32_t c0 = (uint32_t)rd_le(t->arf[EU_ARF_CR0], 4);
    uint32_t c1 = (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4);
    wr_le(t->arf[EU_ARF_CR0] + 4, 4, c1 | status);     /* latched even when not taken */
    if (!t->sip_valid || (c0 & CR0_MASTER_EXCEPTION))
        return false;
    wr_le(t->arf[EU_ARF_CR0], 4, c0 | CR0_MASTER_EXCEPTION);
    wr_le(t->arf[EU_ARF_CR0] + 8, 4, aip);
    t->counts.exceptions++;
    /* the EU's ip is 32 bits relative to Instruction Base Address (L11109) */
    t->ip = (uint32_t)(t->sip - t->inst_base) & ~15u;
    return true;
}

/* ---- types ----------------------------------------------------------------- */

static bool type_is_float(unsigned ty)
{
    return ty == EU_TYPE_F || ty == EU_TYPE_DF || ty == EU_TYPE_HF || ty == EU_TYPE_VF;
}

static bool type_is_signed(unsigned ty)
{
    return ty == EU_TYPE_D || ty == EU_TYPE_W || ty == EU_TYPE_B || ty == EU_TYPE_Q ||
           ty == EU_TYPE_V;
}

static unsigned type_bytes(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_UB: case EU_TYPE_B: return 1;
    case EU_TYPE_UW: case EU_TYPE_W: case EU_TYPE_HF: return 2;
    case EU_TYPE_DF: case EU_TYPE_UQ: case EU_TYPE_Q: return 8;
    default: return 4;
    }
}

static int64_t int_min(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_B: return INT8_MIN;
    case EU_TYPE_W: return INT16_MIN;
    case EU_TYPE_D: return INT32_MIN;
    case EU_TYPE_Q: return INT64_MIN;
    default: return 0;
    }
}

static uint64_t int_max_u(unsigned ty)
{
    switch (ty) {
    case EU_TYPE_B: return INT8_MAX;
    case EU_TYPE_UB: return UINT8_MAX;
    case EU_TYPE_W: return INT16_MAX;
    case EU_TYPE_UW: return UINT16_MAX;
    case EU_TYPE_D: return INT32_MAX;
    case EU_TYPE_UD: return UINT32_MAX;
    case EU_TYPE_Q: return INT64_MAX;
    default: return UINT64_MAX;
    }
}

/* Raw bits of an integer type -> int64 (sign or zero extension). */
static int64_t int_from_raw(unsigned ty, uint64_t raw)
{
    switch (ty) {
    case EU_TYPE_B: return (int8_t)raw;
    case EU_TYPE_UB: return (uint8_t)raw;
    case EU_TYPE_W: return (int16_t)raw;
    case EU_TYPE_UW: return (uint16_t)raw;
    case EU_TYPE_D: return (int32_t)raw;
    case EU_TYPE_UD: return (uint32_t)raw;
    default: return (int64_t)raw;
    }
}

/* binary16 <-> binary32 (IEEE 754; HF parameters 003 L21545-21553). */
static float half_to_float(uint16_t h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 0x400), (int)e - 25);
    if (e == 31 && m) {
        uint32_t bits = 0x7f800000u | (uint32_t)m << 13;
        memcpy(&v, &bits, 4);
    }
    return s ? -v : v;
}

static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)                          /* inf / NaN (quiet, payload kept) */
        return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 | ((ax >> 13) & 0x3ff) : 0));
    /* Round to nearest even through double arithmetic: exact scaling. */
    double a = fabs((double)f);
    if (a >= 65520.0)
        return (uint16_t)(sign | 0x7c00);
    if (a < ldexp(1.0, -14)) {                      /* denormal range: units of 2^-24 */
        double q = nearbyint(a * 16777216.0);
        return (uint16_t)(sign | (uint16_t)q);
    }
    int e;
    double fr = frexp(a, &e);                       /* a = fr * 2^e, fr in [0.5,1) */
    double mant = nearbyint(fr * 2048.0);           /* 11 significant bits */
    if (mant >= 2048.0) {
        mant /= 2;
        e++;
    }
    unsigned he = (unsigned)(e - 1 + 15);
    if (he >= 31)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | he << 10 | ((unsigned)mant & 0x3ff));
}

/* VF: restricted 8-bit float, sign 7, exponent 6:4 bias 3, fraction 3:0 (003
 * L21345-21371); 0x00 = +0, 0x80 = -0. */
static float vf_to_float(unsigned b)
{
    unsigned e = (b >> 4) & 7, m = b & 15;
    float v = (b & 0x7f) == 0 ? 0.0f : ldexpf(1.0f + (float)m / 16.0f, (int)e - 3);
    return (b & 0x80) ? -v : v;
}

static float ftz32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static double ftz64(double d)
{
    return fpclassify(d) == FP_SUBNORMAL ? copysign(0.0, d) : d;
}

static float hf_value(const struct ctx *c, uint16_t h)
{
    if (c->ftz_hf && (h & 0x7c00) == 0)
        return (h & 0x8000) ? -0.0f : 0.0f;
    return half_to_float(h);
}

/* ---- register addressing ----------------------------------------------------- */

/* ARF register number (type in 7:4, number in 3:0) -> storage slot. */
static int arf_slot(unsigned nr)
{
    unsigned n = nr & 15;
    switch (nr >> 4) {
    case 0: return EU_ARF_NULL;
    case 1: return EU_ARF_A0;
    case 2: return n <= 9 ? EU_ARF_ACC0 + (int)n : -1;
    case 3: return n <= 1 ? EU_ARF_F0 + (int)n : -1;
    case 4: return EU_ARF_CE;
    case 6: return EU_ARF_SP;
    case 7: return EU_ARF_SR0;
    case 8: return EU_ARF_CR0;
    case 9: return EU_ARF_N0;
    case 10: return EU_ARF_IP;
    case 11: return EU_ARF_TDR0;
    case 12: return EU_ARF_TM0;
    default: return -1;
    }
}

static bool is_null(const struct eu_operand *op)
{
    return op->file == EU_FILE_ARF && (op->reg_nr >> 4) == 0;
}

static bool is_acc(const struct eu_operand *op)
{
    return op->file == EU_FILE_ARF && (op->reg_nr >> 4) == 2;
}

/* The storage an operand addresses and its size; NULL for an unknown ARF. */
static uint8_t *operand_space(struct eu_thread *t, const struct eu_operand *op, uint32_t *base,
                              uint32_t *limit)
{
    if (op->file == EU_FILE_ARF) {
        int s = arf_slot(op->reg_nr);
        if (s < 0)
            return NULL;
        *base = (uint32_t)s * EU_REG_BYTES + op->subreg_nr;
        *limit = EU_ARF_COUNT * EU_REG_BYTES;
        return &t->arf[0][0];
    }
    if (op->file == EU_FILE_MRF) {
        /* Gen4 message registers; reg_nr bit 7 is the COMPR4 flag (opcodes.txt
         * [register-file]) */
        *base = (uint32_t)(op->reg_nr & 15) * EU_REG_BYTES + op->subreg_nr;
        *limit = EU_MRF_COUNT * EU_REG_BYTES;
        return t->mrf;
    }
    *base = (uint32_t)op->reg_nr * EU_REG_BYTES + op->subreg_nr;
    *limit = EU_GRF_BYTES;
    return t->grf;
}

static uint32_t a0_word(const struct eu_thread *t, unsigned n)
{
    return (uint32_t)rd_le(t->arf[EU_ARF_A0] + 2 * (n & 15), 2);
}

/* Byte address of each channel's element (L20362-20380 for Align1; Align16
 * swizzles per 4-channel group; indirect through a0, L20308-20708). */
static void region_addrs(const struct ctx *c, const struct eu_operand *op, bool is_dst,
                         uint32_t base, uint32_t *addr)
{
    unsigned es = type_bytes(op->type);
    unsigned n = c->nch;
    const struct eu_thread *t = c->t;
    if (is_dst) {
        unsigned hs = c->in->access_mode ? 1 : (op->hstride ? op->hstride : 1);
        if (op->indirect)
            base = (a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
        for (unsigned ch = 0; ch < n; ch++)
            addr[ch] = base + ch * hs * es;
        if (op->file == EU_FILE_MRF && (op->reg_nr & 0x80) && n == 16)
            for (unsigned ch = 8; ch < 16; ch++)   /* Gen4 COMPR4: the second half to m+4 */
                addr[ch] = base + 4 * EU_REG_BYTES + (ch - 8) * hs * es;
        return;
    }
    if (c->in->access_mode == 1 && !op->rep_ctrl) {
        if (op->indirect)
            base = (a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
        for (unsigned ch = 0; ch < n; ch++)
            addr[ch] = base + (ch / 4) * op->vstride * es + op->swizzle[ch & 3] * es;
        return;
    }
    unsigned w = op->width ? op->width : 1;
    if (op->indirect && op->vstride == EU_VSTRIDE_VXH) {
        /* Vx1 (one a0 subregister per row) or VxH (Width 1: one per channel) */
        for (unsigned ch = 0; ch < n; ch++) {
            unsigned row = ch / w, col = ch % w;
            uint32_t rb = (a0_word(t, op->addr_subreg_nr + row) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
            addr[ch] = rb + col * op->hstride * es;
        }
        return;
    }
    if (op->indirect)
        base = (a0_word(t, op->addr_subreg_nr) + (uint32_t)(int32_t)op->addr_imm) & 0x1fff;
    unsigned vs = op->vstride == EU_VSTRIDE_VXH ? 0 : op->vstride;
    for (unsigned ch = 0; ch < n; ch++)
        addr[ch] = base + (ch / w) * vs * es + (ch % w) * op->hstride * es;
}

/* ---- sources ------------------------------------------------------------------- */

static enum kind kind_of_type(unsigned ty)
{
    if (ty == EU_TYPE_DF)
        return K_DF;
    return type_is_float(ty) ? K_F : K_INT;
}

/* A float read as an integer lane (only mixed-type programming gets here):
 * saturating like the conversions of L21657-21693, never undefined. */
static int64_t sat_i64(double d)
{
    if (isnan(d))
        return 0;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    return (int64_t)d;
}

static lane_t to_kind(const struct ctx *c, unsigned ty, uint64_t raw, enum kind k)
{
    lane_t v;
    switch (ty) {
    case EU_TYPE_F: {
        float f;
        uint32_t r = (uint32_t)raw;
        memcpy(&f, &r, 4);
        if (c->ftz_f)
            f = ftz32(f);
        if (k == K_F) v.f = f;
        else if (k == K_DF) v.d = f;
        else v.i = sat_i64(f);
        return v;
    }
    case EU_TYPE_HF:
    case EU_TYPE_VF: {
        float f = ty == EU_TYPE_HF ? hf_value(c, (uint16_t)raw) : vf_to_float((unsigned)raw & 0xff);
        if (k == K_F) v.f = f;
        else if (k == K_DF) v.d = f;
        else v.i = sat_i64(f);
        return v;
    }
    case EU_TYPE_DF: {
        double d;
        memcpy(&d, &raw, 8);
        if (c->ftz_df)
            d = ftz64(d);
        if (k == K_DF) v.d = d;
        else if (k == K_F) v.f = (float)d;
        else v.i = sat_i64(d);
        return v;
    }
    default: {
        int64_t i = int_from_raw(ty, raw);
        if (k == K_INT) v.i = i;
        else if (k == K_F) v.f = (float)i;
        else v.d = (double)i;
        return v;
    }
    }
}

static void fault(struct ctx *c)
{
    c->t->counts.register_faults++;
}

/* Reads source op (index i of the instruction) as lanes of kind k, with its
 * source modifiers. logic: negate is a bitwise NOT (logic instructions). */
static void read_src(struct ctx *c, const struct eu_operand *op, enum kind k, lane_t *v, bool logic)
{
    unsigned n = c->nch;
    if (op->file == EU_FILE_IMM) {
        for (unsigned ch = 0; ch < n; ch++) {
            uint64_t raw = op->imm;
            unsigned ty = op->type;
            if (ty == EU_TYPE_V || ty == EU_TYPE_UV) {
                /* 8 x 4-bit, element ch % 8 (L21178-21376) */
                unsigned nib = (unsigned)(op->imm >> (4 * (ch & 7))) & 15;
                int64_t iv = ty == EU_TYPE_V ? (int64_t)nib - ((nib & 8) ? 16 : 0) : (int64_t)nib;
                v[ch] = to_kind(c, EU_TYPE_Q, (uint64_t)iv, k);
                continue;
            }
            if (ty == EU_TYPE_VF)
                raw = (op->imm >> (8 * (ch & 3))) & 0xff;
            v[ch] = to_kind(c, ty, raw, k);
        }
    } else {
        uint32_t base, limit, addr[EU_MAX_CHANNELS];
        uint8_t *space = operand_space(c->t, op, &base, &limit);
        if (op->file == EU_FILE_ARF) {
            /* live ARF values */
            struct eu_thread *t = c->t;
            wr_le(t->arf[EU_ARF_IP], 4, t->ip);
            wr_le(t->arf[EU_ARF_TM0], 8, c->cycle);
            wr_le(t->arf[EU_ARF_CE], 4, c->en << c->off);
        }
        unsigned es = type_bytes(op->type);
        if (!space || is_null(op)) {
            for (unsigned ch = 0; ch < n; ch++)
                v[ch] = to_kind(c, op->type, 0, k);
        } else {
            region_addrs(c, op, false, base, addr);
            for (unsigned ch = 0; ch < n; ch++) {
                uint64_t raw = 0;
                if (addr[ch] + es <= limit)
                    raw = rd_le(space + addr[ch], es);
                else
                    fault(c);
                v[ch] = to_kind(c, op->type, raw, k);
            }
        }
    }
    if (op->abs || op->negate) {
        for (unsigned ch = 0; ch < n; ch++) {
            if (k == K_INT) {
                if (logic) {
                    if (op->negate)
                        v[ch].i = ~v[ch].i;
                    continue;
                }
                if (op->abs && v[ch].i < 0)
                    v[ch].u = 0 - v[ch].u;
                if (op->negate)
                    v[ch].u = 0 - v[ch].u;
            } else if (k == K_F) {
                if (op->abs) v[ch].f = fabsf(v[ch].f);
                if (op->negate) v[ch].f = -v[ch].f;
            } else {
                if (op->abs) v[ch].d = fabs(v[ch].d);
                if (op->negate) v[ch].d = -v[ch].d;
            }
        }
    }
}

/* ---- destination ------------------------------------------------------------- */

/* Float -> integer type: RTZ unless cr0.0[12]; NaN -> 0, out of range
 * saturates (L21657-21693, L22066-22076). */
static uint64_t float_to_int_raw(const struct ctx *c, double d, unsigned ty)
{
    if (isnan(d))
        return 0;
    d = c->f2i_round ? nearbyint(d) : trunc(d);
    int64_t lo = int_min(ty);
    uint64_t hi = int_max_u(ty);
    if (d <= (double)lo)
        return (uint64_t)lo;
    if (d >= (double)hi)
        return hi;
    if (type_is_signed(ty))
        return (uint64_t)(int64_t)d;
    return (uint64_t)d;
}

static uint64_t int_to_type_raw(int64_t i, unsigned ty, bool sat)
{
    if (sat) {
        if (type_is_signed(ty)) {
            if (i < int_min(ty)) return (uint64_t)int_min(ty);
            if (i > (int64_t)int_max_u(ty)) return int_max_u(ty);
        } else {
            if (i < 0) return 0;
            if (ty != EU_TYPE_UQ && (uint64_t)i > int_max_u(ty)) return int_max_u(ty);
        }
    }
    return (uint64_t)i;
}

/* A lane of kind k as the destination type's raw bits. */
static uint64_t lane_to_raw(const struct ctx *c, lane_t v, enum kind k, unsigned ty, bool sat)
{
    if (k == K_INT) {
        switch (ty) {
        case EU_TYPE_F: {
            float f = (float)v.i;
            if (sat) f = f < 0 ? 0.0f : (f > 1 ? 1.0f : f);
            uint32_t r; memcpy(&r, &f, 4); return r;
        }
        case EU_TYPE_DF: {
            double d = (double)v.i;
            if (sat) d = d < 0 ? 0.0 : (d > 1 ? 1.0 : d);
            uint64_t r; memcpy(&r, &d, 8); return r;
        }
        case EU_TYPE_HF: {
            float f = (float)v.i;
            if (sat) f = f < 0 ? 0.0f : (f > 1 ? 1.0f : f);
            return float_to_half(f);
        }
        default:
            return int_to_type_raw(v.i, ty, sat);
        }
    }
    double d = k == K_F ? (double)v.f : v.d;
    if (!type_is_float(ty))
        return float_to_int_raw(c, d, ty);
    if (sat) {
        /* .sat clamps to [0.0, 1.0]; NaN -> 0 */
        if (isnan(d) || d < 0) d = 0;
        else if (d > 1) d = 1;
        if (k == K_F) v.f = (float)d; else v.d = d;
    }
    switch (ty) {
    case EU_TYPE_F: {
        float f = k == K_F ? v.f : (float)v.d;
        if (c->alt && isinf(f))
            f = copysignf(FLT_MAX, f);  /* ALT: +/-INF results become +/-fmax (L21473-21511) */
        if (c->ftz_f) f = ftz32(f);
        uint32_t r; memcpy(&r, &f, 4);
        if (c->quiet && isnan(f)) r |= 0x00400000u;
        return r;
    }
    case EU_TYPE_DF: {
        double o = k == K_F ? (double)v.f : v.d;
        if (c->ftz_df) o = ftz64(o);
        uint64_t r; memcpy(&r, &o, 8);
        if (c->quiet && isnan(o)) r |= UINT64_C(0x0008000000000000);
        return r;
    }
    default: {
        uint16_t h = float_to_half(k == K_F ? v.f : (float)v.d);
        if (c->ftz_hf && (h & 0x7c00) == 0)
            h &= 0x8000;
        if (c->quiet && (h & 0x7fff) > 0x7c00) h |= 0x0200;
        return h;
    }
    }
}

/* Gen4 has no AccWrCtrl bit (native-fields.txt acc_wr_control: reserved on
 * gen4): the arithmetic instructions (opcode groups 100xxxx and 101xxxx, 003
 * L23013) write the accumulator implicitly. Mesa's Gen4 code relies on it
 * (line then mac, the g965_tri fragment kernel); which opcodes exactly is
 * inferred, the Gen4 EU volume not being a seed. */
static bool gen4_implicit_acc(unsigned op)
{
    return op >= OP_ADD && op <= 95;
}

/* Post-operation condition (L20864-20895): post_sign and post_zero are taken
 * "after all the clamping, normalizing, or format conversion logic", i.e. on
 * the value the destination holds (converted to its type, denormals flushed)
 * but before .sat ("the bits generated at the output of a compute are before
 * the .sat"). NC is the computed result's NaN-ness (a NaN converted to an
 * integer type writes 0 but still forces the flag false). .o (OF, L20890):
 * the result is outside the destination type's range: an integer result that
 * does not fit (D/UD/W/UW/B/UB; 64-bit results never flag), a float result
 * that went to +/-inf from finite sources, a float -> integer conversion out
 * of range (inf included). */
static bool cond_post(const struct ctx *c, unsigned cm, lane_t v, enum kind k, unsigned dty,
                      unsigned ch)
{
    bool nan = false, zero, sign, of = false;
    if (k != K_INT)
        nan = isnan(k == K_F ? (double)v.f : v.d);
    uint64_t raw = lane_to_raw(c, v, k, dty, false);
    if (type_is_float(dty)) {
        bool inf;
        if (dty == EU_TYPE_DF) {
            zero = (raw << 1) == 0;
            inf = (raw << 1) == UINT64_C(0xffe0000000000000);
            sign = raw >> 63;
        } else if (dty == EU_TYPE_HF) {
            zero = (raw & 0x7fff) == 0;
            inf = (raw & 0x7fff) == 0x7c00;
            sign = raw >> 15 & 1;
        } else {
            zero = (raw & 0x7fffffffu) == 0;
            inf = (raw & 0x7fffffffu) == 0x7f800000u;
            sign = raw >> 31 & 1;
        }
        sign = sign && !zero;
        of = inf && !(c->src_inf >> ch & 1);
    } else {
        int64_t x = int_from_raw(dty, raw);
        zero = x == 0;
        sign = x < 0;
        if (cm == CM_O && k == K_INT) {
            of = type_bytes(dty) < 8 && (v.i < int_min(dty) || v.i > (int64_t)int_max_u(dty));
        } else if (cm == CM_O && !nan) {
            double d = k == K_F ? (double)v.f : v.d;
            d = c->f2i_round ? nearbyint(d) : trunc(d);
            double hi = (double)int_max_u(dty);
            of = d < (double)int_min(dty) || (type_bytes(dty) == 8 ? d >= hi : d > hi);
        }
    }
    switch (cm) {
    case CM_Z: return zero && !nan;
    case CM_NZ: return !(zero && !nan);
    case CM_G: return !sign && !zero && !nan;
    case CM_GE: return (!sign || zero) && !nan;
    case CM_L: return sign && !zero && !nan;
    case CM_LE: return (sign || zero) && !nan;
    case CM_O: return of;
    case CM_U: return nan;
    default: return false;
    }
}

/* Writes the result lanes to the destination for the enabled channels,
 * updating flags (cond) and the implicit accumulator. */
static void write_dst(struct ctx *c, const lane_t *r, enum kind k, const bool *cond_val,
                      bool set_flags)
{
    const struct eu_instruction *in = c->in;
    const struct eu_operand *d = &in->dst;
    struct eu_thread *t = c->t;
    unsigned n = c->nch;
    uint32_t en = c->en;
    if (set_flags && in->cond_modifier && in->opcode != OP_SEL) {
        uint64_t f = flags64(t);
        unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u + c->off;
        for (unsigned ch = 0; ch < n; ch++) {
            if (!(en >> ch & 1) || fb + ch >= 64)
                continue;
            bool b = cond_val ? cond_val[ch] : cond_post(c, in->cond_modifier, r[ch], k, d->type, ch);
            if (b) f |= UINT64_C(1) << (fb + ch);
            else f &= ~(UINT64_C(1) << (fb + ch));
        }
        set_flags64(t, f);
    }
    if ((in->acc_wr_control || (in->gen == 4 && gen4_implicit_acc(in->opcode))) && !is_acc(d)) {
        /* implicit accumulator update (L19606-19766) */
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        for (unsigned ch = 0; ch < n; ch++) {
            if (!(en >> ch & 1))
                continue;
            if (k == K_INT) {
                t->acc_wide[ch] = r[ch].i;
                wr_le(acc + 4 * ch, 4, (uint32_t)r[ch].u);
            } else if (k == K_F) {
                if (4 * ch + 4 <= 2 * EU_REG_BYTES) memcpy(acc + 4 * ch, &r[ch].f, 4);
            } else if (8 * ch + 8 <= 2 * EU_REG_BYTES) {
                memcpy(acc + 8 * ch, &r[ch].d, 8);
            }
        }
    }
    if (is_null(d) && !d->indirect)
        return;
    uint32_t base, limit, addr[EU_MAX_CHANNELS];
    uint8_t *space = operand_space(t, d, &base, &limit);
    if (!space) {
        fault(c);
        return;
    }
    region_addrs(c, d, true, base, addr);
    unsigned es = type_bytes(d->type);
    bool align16 = in->access_mode == 1;
    for (unsigned ch = 0; ch < n; ch++) {
        if (!(en >> ch & 1))
            continue;
        if (align16 && !(d->writemask >> (ch & 3) & 1))
            continue;
        if (addr[ch] + es > limit) {
            fault(c);
            continue;
        }
        uint64_t raw = lane_to_raw(c, r[ch], k, d->type, in->saturate);
        wr_le(space + addr[ch], es, raw);
        if (is_acc(d) && k == K_INT && ch < EU_MAX_CHANNELS)
            /* D/UD: the accumulator keeps 64 bits (the full D x W product
             * of a mul, 004 L23100; 003 L19692-19702) */
            t->acc_wide[ch] = type_bytes(d->type) == 4 ? r[ch].i : int_from_raw(d->type, raw);
    }
}

/* Flags from per-channel conditions (cmp/cmpn pre-conditions, L20872-20895):
 * only enabled channels' bits change (L19768-19817). */
static void update_flags(struct ctx *c, const bool *cv)
{
    const struct eu_instruction *in = c->in;
    if (!in->cond_modifier)
        return;
    uint64_t f = flags64(c->t);
    unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u + c->off;
    for (unsigned ch = 0; ch < c->nch; ch++) {
        if (!(c->en >> ch & 1) || fb + ch >= 64)
            continue;
        if (cv[ch]) f |= UINT64_C(1) << (fb + ch);
        else f &= ~(UINT64_C(1) << (fb + ch));
    }
    set_flags64(c->t, f);
}

/* Raw-bits write for results that are bit patterns already (cmp's all-ones). */
static void write_dst_bits(struct ctx *c, const uint64_t *bits)
{
    lane_t r[EU_MAX_CHANNELS];
    for (unsigned ch = 0; ch < c->nch; ch++)
        r[ch].u = bits[ch];
    /* as an integer kind: int_to_type_raw truncates to the destination width */
    const struct eu_operand *d = &c->in->dst;
    struct eu_thread *t = c->t;
    if (is_null(d))
        return;
    uint32_t base, limit, addr[EU_MAX_CHANNELS];
    uint8_t *space = operand_space(t, d, &base, &limit);
    if (!space)
        return;
    region_addrs(c, d, true, base, addr);
    unsigned es = type_bytes(d->type);
    for (unsigned ch = 0; ch < c->nch; ch++) {
        if (!(c->en >> ch & 1))
            continue;
        if (c->in->access_mode == 1 && !(d->writemask >> (ch & 3) & 1))
            continue;
        if (addr[ch] + es > limit) {
            fault(c);
            continue;
        }
        wr_le(space + addr[ch], es, r[ch].u);
    }
}

/* ---- predication and masks -------------------------------------------------------- */

/* PMask for the instruction's channels (L20752-20836), relative to off. */
static uint32_t pred_mask(const struct ctx *c)
{
    const struct eu_instruction *in = c->in;
    uint64_t f = flags64(c->t);
    unsigned fb = in->flag_reg_nr * 32u + in->flag_subreg_nr * 16u;
    unsigned n = c->nch;
    uint32_t seq = (uint32_t)(f >> ((fb + c->off) & 63));
    uint32_t m = 0;
    unsigned pc = in->pred_control;
    if (pc == 1) {
        m = seq;
    } else if (in->access_mode == 1) {
        /* Align16: .x .y .z .w replicate; any4h / all4h */
        for (unsigned g = 0; g < n; g += 4) {
            unsigned q = (seq >> g) & 15, b;
            switch (pc) {
            case 2: case 3: case 4: case 5: b = (q >> (pc - 2)) & 1; break;
            case 6: b = q != 0; break;
            case 7: b = q == 15; break;
            default: b = 0; break;
            }
            if (b) m |= 15u << g;
        }
    } else if (pc == 2 || pc == 3) {
        /* anyv / allv: f0 vs f1 channel by channel (32-channel form) */
        uint32_t a = (uint32_t)(f >> c->off), b = (uint32_t)(f >> (32 + c->off));
        m = pc == 2 ? (a | b) : (a & b);
    } else if (pc >= 4 && pc <= 13) {
        unsigned group = 2u << ((pc - 4) / 2);      /* 2, 4, 8, 16, 32 */
        bool any = (pc & 1) == 0;
        for (unsigned g = 0; g < n; g += group) {
            uint32_t gm = group >= 32 ? ~0u : ((1u << group) - 1);
            uint32_t q = (seq >> g) & gm;
            bool b = any ? q != 0 : q == gm;
            if (b) m |= gm << g;
        }
    }
    if (in->pred_inv)
        m = ~m;
    return m;
}

static uint32_t chan_bits(unsigned n)
{
    return n >= 32 ? ~0u : ((1u << n) - 1);
}

/* ---- flow control helpers --------------------------------------------------------- */

static inline void rejoin(struct eu_thread *t)
{
    eu_rejoin(t);
}

static void park(struct eu_thread *t, uint32_t bits, uint32_t target)
{
    t->amask &= ~bits;
    t->wmask |= bits;
    while (bits) {
        unsigned ch = (unsigned)__builtin_ctz(bits);
        bits &= bits - 1;
        t->pcip[ch] = target;
    }
}

static void jump(struct eu_thread *t, uint32_t target)
{
    t->ip = target;
    if (t->wmask)
        rejoin(t);
}

/* ---- integer helpers ----------------------------------------------------------------- */

static uint32_t bitrev32(uint32_t x)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

/* rnde: round to nearest even, independent of cr0 rounding (L23977-24062). */
static float rnde_f(float a)
{
    float r = floorf(a), d = a - r;
    if (d > 0.5f || (d == 0.5f && fmodf(r, 2.0f) != 0))
        r += 1.0f;
    return isnan(d) ? a : copysignf(r, a);       /* rnde(-0.5) = -0 */
}

static double rnde_d(double a)
{
    double r = floor(a), d = a - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0))
        r += 1.0;
    return isnan(d) ? a : copysign(r, a);
}

static uint64_t raw_of_src_type(int64_t v, unsigned ty)
{
    unsigned b = type_bytes(ty);
    return b >= 8 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << (8 * b)) - 1);
}

/* ---- the instruction ---------------------------------------------------------------- */

static enum kind exec_kind(const struct eu_instruction *in)
{
    enum kind k = K_INT;
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    for (unsigned i = 0; i < ns; i++) {
        enum kind ki = kind_of_type(in->src[i].type);
        if (ki == K_DF) return K_DF;
        if (ki == K_F) k = K_F;
    }
    return k;
}

/* min/max (L21702-21739): with cr0.0[11] = 0 (the DX rule, L20025-20029) a
 * NaN source is ignored; with cr0.0[11] = 1 (IEEE) an sNaN source is
 * preferred to a number and gives its quietened value. Two NaNs give the
 * first source's NaN quietened, except that under the IEEE rule a qNaN and an
 * sNaN give the quietened sNaN (L21728-21738). -0 < +0. */
static float minmax_f(float a, float b, bool min, bool ieee)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    bool na = isnan(a), nb = isnan(b);
    bool sa = na && !(ua & 0x00400000u), sb = nb && !(ub & 0x00400000u);
    uint32_t r;
    if (na || nb) {
        if (na && nb) r = (ieee && sb && !sa) ? ub : ua;
        else if (ieee && (sa || sb)) r = sa ? ua : ub;
        else return na ? b : a;
        r |= 0x00400000u;
        float f;
        memcpy(&f, &r, 4);
        return f;
    }
    if (a == b && a == 0)   /* -0 < +0 for min/max */
        return min ? (signbit(a) ? a : b) : (signbit(a) ? b : a);
    return min ? (a < b ? a : b) : (a > b ? a : b);
}

static double minmax_d(double a, double b, bool min, bool ieee)
{
    uint64_t ua, ub;
    const uint64_t qb = UINT64_C(0x0008000000000000);
    memcpy(&ua, &a, 8);
    memcpy(&ub, &b, 8);
    bool na = isnan(a), nb = isnan(b);
    bool sa = na && !(ua & qb), sb = nb && !(ub & qb);
    uint64_t r;
    if (na || nb) {
        if (na && nb) r = (ieee && sb && !sa) ? ub : ua;
        else if (ieee && (sa || sb)) r = sa ? ua : ub;
        else return na ? b : a;
        r |= qb;
        double d;
        memcpy(&d, &r, 8);
        return d;
    }
    if (a == b && a == 0)
        return min ? (signbit(a) ? a : b) : (signbit(a) ? b : a);
    return min ? (a < b ? a : b) : (a > b ? a : b);
}

static bool cmp_rel(unsigned cm, lane_t a, lane_t b, enum kind k, bool cmpn)
{
    if (k == K_INT) {
        switch (cm) {
        case CM_Z: return a.i == b.i;
        case CM_NZ: return a.i != b.i;
        case CM_G: return a.i > b.i;
        case CM_GE: return a.i >= b.i;
        case CM_L: return a.i < b.i;
        case CM_LE: return a.i <= b.i;
        default: return false;
        }
    }
    double x = k == K_F ? (double)a.f : a.d, y = k == K_F ? (double)b.f : b.d;
    bool nx = isnan(x), ny = isnan(y);
    if (cmpn && (nx || ny)) {
        /* cmpn (L21397-21403): true when src1 is NaN, false when only src0 is;
         * .ne the reverse */
        bool r = ny;
        return cm == CM_NZ ? !r : r;
    }
    switch (cm) {
    case CM_Z: return x == y;
    case CM_NZ: return !(x == y);
    case CM_G: return x > y;
    case CM_GE: return x >= y;
    case CM_L: return x < y;
    case CM_LE: return x <= y;
    case CM_U: return nx || ny;
    default: return false;
    }
}

static double math1(unsigned fn, double x, bool *dz)
{
    switch (fn) {
    case MF_INV: case MF_INVM:
        if (x == 0) *dz = true;
        return 1.0 / x;
    case MF_LOG:
        if (x == 0) *dz = true;
        return log2(x);
    case MF_EXP: return exp2(x);
    case MF_SQRT: return sqrt(x);
    case MF_RSQ: case MF_RSQRTM:
        if (x == 0) *dz = true;
        return 1.0 / sqrt(x);
    case MF_SIN: return sin(x);
    case MF_COS: return cos(x);
    default: return NAN;
    }
}

/* Single-precision math: the function in single precision where C has it
 * (the seed allows 1..4 ULP, L24110-24250). */
static float math1f(unsigned fn, float x, bool *dz)
{
    switch (fn) {
    case MF_INV: case MF_INVM:
        if (x == 0) *dz = true;
        return 1.0f / x;
    case MF_LOG:
        if (x == 0) *dz = true;
        return log2f(x);
    case MF_EXP: return exp2f(x);
    case MF_SQRT: return sqrtf(x);
    case MF_RSQ: case MF_RSQRTM:
        if (x == 0) *dz = true;
        return 1.0f / sqrtf(x);
    case MF_SIN: return sinf(x);
    case MF_COS: return cosf(x);
    default: return NAN;
    }
}

static enum eu_step_result illegal(struct eu_thread *t, const char *why)
{
    /* With Illegal Opcode Exception Enable (cr0.1[12]) and a System Routine,
     * the thread goes there with AIP = IP (L20057 table); otherwise (or
     * nested in the System Routine) the status bit and AIP are set, the
     * instruction is counted and the thread ends. */
    t->counts.illegal++;
    uint32_t c1 = (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4);
    if (t->gen >= 7 && (c1 & CR0_ILLEGAL_ENABLE) &&
        enter_system_routine(t, CR0_ILLEGAL_STATUS, t->ip))
        return EU_STEP_OK;
    uint32_t s = (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4) | CR0_ILLEGAL_STATUS;
    wr_le(t->arf[EU_ARF_CR0] + 4, 4, s);
    if (!(rd_le(t->arf[EU_ARF_CR0], 4) & CR0_MASTER_EXCEPTION))
        wr_le(t->arf[EU_ARF_CR0] + 8, 4, t->ip);    /* AIP = IP for illegal opcode */
    t->fault_reason = why;
    return EU_STEP_FAULT;
}

/* After an instruction wrote cr0 (old: cr0.0 and cr0.1 before it), at the
 * instruction's end (next_ip): cr0.0[31] "Writing 1 to this bit has no
 * effect"; clearing it leaves the System Routine, "hardware restores IP from
 * [AIP]" (L20019-20057); setting cr0.1[29] in an application routine with
 * Software Exception Enable raises a software exception, AIP = IP + 1 (the
 * next instruction, L20057 table). True when the ip was moved. */
static bool cr0_written(struct eu_thread *t, uint32_t old0, uint32_t old1, uint32_t next_ip)
{
    uint32_t c0 = (uint32_t)rd_le(t->arf[EU_ARF_CR0], 4);
    uint32_t c1 = (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4);
    if (!(old0 & CR0_MASTER_EXCEPTION)) {
        wr_le(t->arf[EU_ARF_CR0], 4, c0 & ~CR0_MASTER_EXCEPTION);
        if ((c1 & CR0_SOFTWARE_EXCEPTION) && !(old1 & CR0_SOFTWARE_EXCEPTION) &&
            (c1 & CR0_SOFTWARE_ENABLE) && enter_system_routine(t, CR0_SOFTWARE_EXCEPTION, next_ip))
            return true;
        return false;
    }
    if (!(c0 & CR0_MASTER_EXCEPTION)) {
        t->ip = (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 8, 4) & ~7u;
        return true;
    }
    return false;
}

static enum eu_step_result do_send(struct ctx *c, struct eu_send_request *s)
{
    const struct eu_instruction *in = c->in;
    struct eu_thread *t = c->t;
    memset(s, 0, sizeof *s);
    s->sfid = in->sfid;
    s->eot = in->eot;
    s->split = in->is_split_send;
    s->sendc = in->opcode == OP_SENDC || in->opcode == OP_SENDSC;
    uint32_t desc = in->desc;
    if (in->desc_is_reg)
        desc = (uint32_t)rd_le(t->arf[EU_ARF_A0], 4) & 0x1fffffff;   /* a0.0, low 29 bits */
    uint32_t ex = in->ex_desc;
    if (in->ex_desc_is_reg)
        ex = (uint32_t)rd_le(t->arf[EU_ARF_A0] + 2 * in->ex_desc_addr_subreg, 4);
    s->desc = desc;
    s->ex_desc = ex;
    s->mlen = (uint8_t)((desc >> 25) & 15);
    s->rlen = (uint8_t)((desc >> 20) & 31);
    s->header_present = (desc >> 19) & 1;
    s->ex_mlen = in->is_split_send ? (uint8_t)((ex >> 6) & 15) : 0;
    s->src_reg = in->src[0].reg_nr;
    s->src1_reg = in->src[1].reg_nr;
    if (in->gen == 4) {
        /* Gen4 (native-fields.txt [send], opcodes.txt [message-descriptors]):
         * the descriptor DWord holds EOT 31, target 27:24, mlen 23:20, rlen
         * 19:16; the payload is m[base_mrf ..], a GRF src0 being copied to
         * the base MRF first (the implied move, whole register). */
        s->mlen = (uint8_t)((desc >> 20) & 15);
        s->rlen = (uint8_t)((desc >> 16) & 15);
        s->header_present = false;
        s->from_mrf = true;
        s->src_reg = in->base_mrf & 15;
        if (in->src[0].file == EU_FILE_GRF)
            memcpy(t->mrf + s->src_reg * EU_REG_BYTES, t->grf + in->src[0].reg_nr * EU_REG_BYTES,
                   EU_REG_BYTES);
    }
    s->dst_reg = in->dst.reg_nr;
    s->dst_null = in->dst.file == EU_FILE_ARF || s->rlen == 0;
    s->exec_size = (uint8_t)c->nch;
    s->exec_mask = c->en;
    t->ip += in->size;
    if (t->wmask)
        rejoin(t);
    return s->eot ? EU_STEP_END : EU_STEP_SEND;
}

const uint8_t *eu_send_payload_reg(const struct eu_thread *t, const struct eu_send_request *rq,
                                   unsigned r)
{
    if (rq->from_mrf) {
        unsigned m = rq->src_reg + r;
        return m < EU_MRF_COUNT ? t->mrf + m * EU_REG_BYTES : NULL;
    }
    unsigned g = r < rq->mlen ? rq->src_reg + r : rq->src1_reg + (r - rq->mlen);
    return g < EU_GRF_COUNT ? t->grf + g * EU_REG_BYTES : NULL;
}

/* Gen4 flow control. Gen4 encodes a jump count in 128-bit instructions
 * relative to the instruction itself and a pop count for its mask stack
 * (native-fields.txt [branch]; counts as Mesa's emitter writes them: IF ->
 * ELSE = else - if (lands on the ELSE), IF -> ENDIF = endif - if, ELSE ->
 * ENDIF = endif - else + 1 (past the ENDIF), WHILE = do - while + 1 (the
 * instruction after DO), BREAK = while - break + 1 (past the WHILE), CONT =
 * while - cont (the WHILE)). The Gen4 EU volume is not a seed: the mask
 * stack (16 entries in hardware, seed 001 L523-L526) is modelled by its
 * effect, with the same per-channel IPs as Gen7+ (003 L20955):
 *  - if: enabled channels whose predicate fails wait at the target, marked
 *    (PcIP | 2) so that only the ELSE or ENDIF there releases them; when no
 *    channel is left the ip jumps to the target;
 *  - iff: the same without a mask-stack entry: they wait at the target;
 *  - else: the channels that ran the if block wait at the target (past the
 *    ENDIF), then those waiting at this ELSE are released; when none are, the
 *    ip jumps to the target;
 *  - endif: releases the channels waiting at it;
 *  - break: enabled channels wait at the target (past the WHILE); cont: they
 *    wait at the target (the WHILE); neither jumps (the channels still
 *    waiting inside the loop must be reached);
 *  - while: channels whose predicate holds (all active ones when not
 *    predicated) go back to the target; the others wait past the WHILE.
 * A mask-stack overflow (more than 16 nested levels) is not modelled. */
static void release_tagged(struct eu_thread *t, uint32_t at)
{
    for (uint32_t w = t->wmask; w; w &= w - 1) {
        unsigned ch = (unsigned)__builtin_ctz(w);
        if (t->pcip[ch] == (at | 2u)) {
            t->pcip[ch] = at;
            t->amask |= 1u << ch;
            t->wmask &= ~(1u << ch);
        }
    }
}

static enum eu_step_result do_flow4(struct ctx *c)
{
    const struct eu_instruction *in = c->in;
    struct eu_thread *t = c->t;
    uint32_t ip = t->ip, next = ip + in->size;
    uint32_t target = ip + (uint32_t)(in->jump_count * 16);
    /* the mask registers are the thread's, whatever the exec size
     * (intel-gen4asm writes endif and while with exec size 1); a predicate
     * covers the instruction's channels */
    uint32_t active = t->amask;
    uint32_t en_abs = in->pred_control ? (c->en << c->off) : (in->mask_control ? t->dmask : active);
    switch (in->opcode) {
    case OP_IF:
    case 35: /* iff */
        park(t, active & ~en_abs, in->opcode == OP_IF ? target | 2u : target);
        if (t->amask == 0) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_ELSE:
        park(t, active, target);
        release_tagged(t, ip);
        if (t->amask == 0) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_ENDIF:
        release_tagged(t, ip);
        jump(t, next);
        return EU_STEP_OK;
    case OP_BREAK:
    case OP_CONT:
        park(t, en_abs, target);
        jump(t, next);
        return EU_STEP_OK;
    case OP_WHILE: {
        uint32_t back = in->pred_control ? en_abs : active;
        park(t, active & ~back, next);
        if (back) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    }
    default:
        /* halt: no Gen4 semantics to go by (Mesa does not emit it there) */
        return illegal(t, "gen4 halt is not modelled");
    }
}

/* Flow control. Every channel has its own instruction pointer (PcIP) and runs
 * an instruction only when its PcIP equals the thread's ip (L20955, and the
 * Evaluate-Write-Enable rule L23850-23884). Channels that leave the current
 * path wait ("park") with a target PcIP and rejoin when the ip reaches it.
 * The seed lacks the per-instruction JIP/UIP pages (notes §14.4); the choice
 * here matches the layout Mesa's emitter gives (brw_eu_emit.c
 * brw_set_uip_jip / patch_IF_ELSE) and is checked against a gen7 kernel whose
 * jumps intel-gen4asm encoded:
 *  - if: enabled channels whose predicate fails wait at JIP (the first
 *    instruction of the else block, or the endif); UIP is the endif;
 *  - else: the active channels wait at JIP (the endif);
 *  - endif, join: convergence points;
 *  - break: the enabled channels wait past the while that UIP names;
 *    cont and halt: they wait at UIP (the while, the final halt);
 *  - while: enabled channels go back to JIP; the others wait after the while;
 *  - after any of these, when no channel is active the ip jumps to JIP (the
 *    next point where channels may be waiting), else it moves on. */
static enum eu_step_result do_flow(struct ctx *c)
{
    const struct eu_instruction *in = c->in;
    struct eu_thread *t = c->t;
    uint32_t ip = t->ip, next = ip + in->size;
    uint32_t active = t->amask & c->exec_bits;
    uint32_t en_abs = c->en << c->off;          /* active and predicate true */
    switch (in->opcode) {
    case OP_IF:
        /* channels whose condition fails wait at JIP (the else block or endif) */
        park(t, active & ~en_abs, ip + (uint32_t)in->jip);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_ELSE:
        park(t, active, ip + (uint32_t)in->jip);
        jump(t, next);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        return EU_STEP_OK;
    case OP_ENDIF:
    case OP_JOIN:
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_BREAK:
    case OP_GOTO:
        /* break: UIP is the while (Gen7+); the channel resumes after it and is
         * marked so the while lets it fall through */
        park(t, en_abs, ip + (uint32_t)in->uip);
        for (uint32_t b = en_abs; b; b &= b - 1)
            t->pcip[__builtin_ctz(b)] |= in->opcode == OP_BREAK ? 1u : 0u;   /* tag: odd = broke */
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_CONT:
    case OP_HALT:
        park(t, en_abs, ip + (uint32_t)in->uip);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case OP_WHILE: {
        uint32_t back = in->pred_control ? en_abs : active;
        park(t, active & ~back, next);
        if (back) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    }
    default:
        return EU_STEP_OK;
    }
}

/* Channels that broke out of a loop wait at the while with an odd PcIP (ip
 * values are 8-byte aligned); when the while is reached they move past it. */
static void release_breaks(struct eu_thread *t, uint32_t while_ip, uint32_t next)
{
    for (uint32_t w = t->wmask; w; w &= w - 1) {
        unsigned ch = (unsigned)__builtin_ctz(w);
        if (t->pcip[ch] == (while_ip | 1u))
            t->pcip[ch] = next;
    }
}

/* A branch offset in bytes: the JIP/UIP immediate (gen7: 16-bit in 8-byte
 * units, seed 000's brc/brd pages; gen8+: 32-bit bytes, native-fields.txt
 * [branch]) or, when src0 is a register (brd, brc, call: 004 L9260, L9298,
 * L9471), its DWord k (gen8+ brc reads JIP, UIP as a pair; gen7 packs both
 * in one DWord). */
static int32_t branch_offset(struct ctx *c, enum eu_field f, unsigned k)
{
    const struct eu_instruction *in = c->in;
    if (in->gen == 7 && eu_field_get(7, EU_F_SRC0_REG_FILE, in->native) == EU_FILE_GRF) {
        /* gen7: one DWord, JIP in 15:0 and UIP in 31:16, 8-byte units (seed
         * 000 brc/brd pages: "a scalar DWord containing both JIP and UIP") */
        uint32_t at = (uint32_t)eu_field_get(7, EU_F_SRC0_REG_NR, in->native) * 32u +
                      (uint32_t)eu_field_get(7, EU_F_SRC0_SUBREG_NR, in->native);
        if (at + 4 > EU_GRF_BYTES) {
            fault(c);
            return (int32_t)in->size;
        }
        uint32_t dw = (uint32_t)rd_le(c->t->grf + at, 4);
        return (int32_t)(int16_t)(k ? dw >> 16 : dw & 0xffff) * 8;
    }
    if (in->gen >= 8 && eu_field_get(in->gen, EU_F_SRC0_REG_FILE, in->native) == EU_FILE_GRF) {
        uint32_t at = (uint32_t)eu_field_get(in->gen, EU_F_SRC0_REG_NR, in->native) * 32u +
                      (uint32_t)eu_field_get(in->gen, EU_F_SRC0_SUBREG_NR, in->native) + 4 * k;
        if (at + 4 <= EU_GRF_BYTES)
            return (int32_t)rd_le(c->t->grf + at, 4);
        fault(c);
        return (int32_t)in->size;
    }
    uint64_t raw = eu_field_get(in->gen, f, in->native);
    if (in->gen == 7)
        return (int32_t)(int16_t)raw * 8;
    return (int32_t)(uint32_t)raw;
}

enum eu_step_result eu_exec(struct eu_thread *t, const struct eu_instruction *in,
                            struct eu_send_request *send, uint64_t cycle)
{
    if (in->illegal)
        return illegal(t, in->illegal_reason ? in->illegal_reason : "illegal instruction");
    if (in->gen != 4 && in->gen < 7)
        return illegal(t, "only gen4 and gen7+ execute");
    t->counts.instructions++;
    struct ctx c;
    c.t = t;
    c.in = in;
    c.cycle = cycle;
    c.nch = in->exec_size;
    c.off = (in->qtr_control * 8u + in->nib_control * 4u) & 31;
    if (in->gen == 4)
        c.off = in->qtr_control == 1 ? 8 : 0;   /* gen4: 1 = sechalf, 2 = compressed */
    c.exec_bits = chan_bits(c.nch) << c.off;
    uint32_t crv = cr0(t);
    c.ftz_f = !(crv >> 7 & 1);
    c.alt = crv & 1;
    c.ftz_df = !(crv >> 6 & 1);
    c.ftz_hf = !(crv >> 10 & 1);
    c.f2i_round = crv >> 12 & 1;
    c.ieee_minmax = crv >> 11 & 1;
    /* raw moves (mov, same type, no modifiers, no .sat) keep an sNaN as it
     * is; every other operation quietens it (L21565, L21813-21821) */
    c.quiet = !(in->opcode == OP_MOV && in->src[0].type == in->dst.type && !in->src[0].abs &&
                !in->src[0].negate && !in->saturate);
    c.src_inf = 0;
    uint32_t en = in->mask_control ? chan_bits(c.nch) : (t->amask >> c.off) & chan_bits(c.nch);
    if (in->pred_control && in->opcode != OP_SEL)
        en &= pred_mask(&c);
    c.en = en;

    /* cr0 before the instruction, when it is the destination (exceptions) */
    bool writes_cr0 = in->has_dst && in->dst.file == EU_FILE_ARF && (in->dst.reg_nr >> 4) == 8;
    uint32_t old_cr0_0 = writes_cr0 ? crv : 0;
    uint32_t old_cr0_1 = writes_cr0 ? (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4) : 0;

    unsigned op = in->opcode;
    if (in->gen == 4) {
        if (in->is_branch)
            return do_flow4(&c);
        if (op == 38) {                 /* do: a marker, nothing to execute */
            t->ip += in->size;
            return EU_STEP_OK;
        }
        if (op >= 44 && op <= 47)       /* msave, mrest, push, pop */
            return illegal(t, "gen4 mask-stack save/restore (msave/mrest/push/pop) is not modelled");
    }
    if (in->is_branch || op == OP_JMPI || op == OP_CALL || op == OP_CALLA || op == OP_RET ||
        op == OP_BRD || op == OP_BRC) {
        uint32_t ip = t->ip;
        switch (op) {
        case OP_WHILE:
            release_breaks(t, ip, ip + in->size);
            return do_flow(&c);
        case OP_JMPI: {
            /* uniform: jump relative to the next 16-byte instruction (Mesa's
             * brw_land_fwd_jump convention), taken when channel 0's predicate
             * holds. The offset is in bytes on Gen8+ and in 8-byte units
             * before: seed 003 L21110 ("Relative instruction offsets ... are
             * now 32-bit values in units of bytes (rather than 16-bit values
             * using 8-byte units) for ... jmpi"); Mesa's brw_land_fwd_jump
             * writes 2 units per instruction from Gen5. */
            lane_t v[EU_MAX_CHANNELS];
            c.nch = 1;
            read_src(&c, &in->src[0], K_INT, v, false);
            bool take = !in->pred_control || (pred_mask(&c) & 1);
            int32_t off = (int32_t)v[0].i;
            if (in->gen == 4) {
                /* Gen4 (Mesa's brw_JMPI / brw_land_fwd_jump): "jmpi ip ip
                 * imm", the immediate in src1 counting 128-bit instructions
                 * after the next one */
                if (eu_field_get(4, EU_F_SRC1_REG_FILE, in->native) == EU_FILE_IMM)
                    off = (int32_t)(uint32_t)eu_field_get(4, EU_F_IMM32, in->native);
                off *= 16;
            } else if (in->gen < 8) {
                off *= 8;
            }
            jump(t, take ? ip + 16 + (uint32_t)off : ip + in->size);
            return EU_STEP_OK;
        }
        case OP_CALL:
        case OP_CALLA: {
            /* 004 L9471-9560 (call, calla): the enabled channels jump (PcIP =
             * IP + JIP, or JIP for calla) and form the CallMask, the others
             * move to the next instruction; when any jumped, dst.0 = the
             * return IP, dst.1 = CallMask. JIP: the src1 immediate, or src0
             * when it is a register. */
            uint32_t en_abs = c.en << c.off;
            if (!en_abs) {
                jump(t, ip + in->size);
                return EU_STEP_OK;
            }
            int32_t off = branch_offset(&c, EU_F_JIP, 0);
            uint32_t target = op == OP_CALLA ? (uint32_t)off : ip + (uint32_t)off;
            const struct eu_operand *d = &in->dst;
            if (d->file == EU_FILE_GRF && d->reg_nr * 32u + d->subreg_nr + 8 <= EU_GRF_BYTES) {
                wr_le(t->grf + d->reg_nr * 32u + d->subreg_nr, 4, ip + in->size);
                wr_le(t->grf + d->reg_nr * 32u + d->subreg_nr + 4, 4, en_abs);
            }
            park(t, t->amask & c.exec_bits & ~en_abs, ip + in->size);
            t->call_mask = en_abs;
            t->call_depth++;
            jump(t, target & ~7u);
            return EU_STEP_OK;
        }
        case OP_RET: {
            /* 004 L23936-23963: enabled channels go to the return IP
             * (src0.chan[0]) and leave the CallMask; when the CallMask is
             * empty, the ip jumps there and the CallMask is restored from
             * src0.chan[1]; otherwise the ip moves on. */
            const struct eu_operand *s = &in->src[0];
            uint32_t at = s->reg_nr * 32u + s->subreg_nr;
            if (s->file != EU_FILE_GRF || at + 8 > EU_GRF_BYTES) {
                fault(&c);
                jump(t, ip + in->size);
                return EU_STEP_OK;
            }
            uint32_t rip = (uint32_t)rd_le(t->grf + at, 4) & ~7u;
            uint32_t mask = (uint32_t)rd_le(t->grf + at + 4, 4);
            uint32_t en_abs = c.en << c.off;
            park(t, en_abs, rip);
            t->call_mask &= ~en_abs;
            if (t->call_mask == 0) {
                t->call_mask = mask;
                if (t->call_depth) t->call_depth--;
                jump(t, rip);
            } else {
                jump(t, ip + in->size);
            }
            return EU_STEP_OK;
        }
        case OP_BRD: {
            /* 004 L9293-9321: enabled channels branch to IP + JIP, the
             * others to the next instruction; the ip follows the branch when
             * any channel took it. */
            uint32_t en_abs = c.en << c.off;
            uint32_t target = ip + (uint32_t)branch_offset(&c, EU_F_JIP, 0);
            if (en_abs) {
                park(t, t->amask & c.exec_bits & ~en_abs, ip + in->size);
                jump(t, target & ~7u);
            } else {
                jump(t, ip + in->size);
            }
            return EU_STEP_OK;
        }
        case OP_BRC: {
            /* 004 L9253-9290: enabled channels branch to IP + UIP (where all
             * converge), the others go on; when no channel goes on, the ip
             * jumps to IP + JIP (the end of the innermost conditional). */
            uint32_t en_abs = c.en << c.off;
            uint32_t jipv = ip + (uint32_t)branch_offset(&c, EU_F_JIP, 0);
            uint32_t uipv = ip + (uint32_t)branch_offset(&c, EU_F_UIP, 1);
            park(t, en_abs, uipv & ~7u);
            if (t->amask == 0) jump(t, jipv & ~7u);
            else jump(t, ip + in->size);
            return EU_STEP_OK;
        }
        case OP_IF: case OP_ELSE: case OP_ENDIF: case OP_BREAK: case OP_CONT:
        case OP_HALT: case OP_GOTO: case OP_JOIN:
            return do_flow(&c);
        default:
            return illegal(t, "branch opcode not modelled");
        }
    }
    if (in->is_send || in->is_split_send)
        return do_send(&c, send);

    enum kind k = exec_kind(in);
    lane_t s0[EU_MAX_CHANNELS], s1[EU_MAX_CHANNELS], s2[EU_MAX_CHANNELS], r[EU_MAX_CHANNELS];
    bool cv[EU_MAX_CHANNELS];
    bool logic = op == OP_NOT || op == OP_AND || op == OP_OR || op == OP_XOR;
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    if (op == OP_MOV || op == OP_F32TO16 || op == OP_F16TO32 || op == OP_SMOV || op == OP_MOVI)
        k = kind_of_type(in->src[0].type);
    if (ns > 0) read_src(&c, &in->src[0], k, s0, logic);
    if (ns > 1) read_src(&c, &in->src[1], k, s1, logic);
    if (ns > 2) read_src(&c, &in->src[2], k, s2, logic);
    unsigned n = c.nch;
    if (in->cond_modifier == CM_O && k != K_INT) {
        /* .o: a result that is +/-inf from finite sources overflowed */
        for (unsigned ch = 0; ch < n; ch++) {
            bool inf = false;
            const lane_t *sv[3] = { s0, s1, s2 };
            for (unsigned i = 0; i < ns && i < 3; i++)
                inf = inf || isinf(k == K_F ? (double)sv[i][ch].f : sv[i][ch].d);
            if (inf) c.src_inf |= 1u << ch;
        }
    }
    int saved_round = -1;
    unsigned rm = (crv >> 4) & 3;
    if ((k != K_INT || type_is_float(in->dst.type)) && rm != 0) {
        /* cr0.0[5:4] rounding: RTNE, RU, RD, RTZ (L21575-21610); integer to
         * float conversions too ("use the current rounding mode", L21694-21700) */
        static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
        saved_round = fegetround();
        fesetround(modes[rm]);
    }
    enum eu_step_result res = EU_STEP_OK;

#define FOR_CH for (unsigned ch = 0; ch < n; ch++)
#define FOP(expr_f, expr_d, expr_i)                                                        \
    do {                                                                                   \
        if (k == K_F) { FOR_CH { float a = s0[ch].f, b = s1[ch].f; (void)a; (void)b; r[ch].f = (expr_f); } } \
        else if (k == K_DF) { FOR_CH { double a = s0[ch].d, b = s1[ch].d; (void)a; (void)b; r[ch].d = (expr_d); } } \
        else { FOR_CH { int64_t a = s0[ch].i, b = s1[ch].i; (void)a; (void)b; r[ch].i = (expr_i); } } \
    } while (0)

    switch (op) {
    case OP_NOP:
        break;
    case OP_MOV:
        FOR_CH r[ch] = s0[ch];
        write_dst(&c, r, k, NULL, true);
        break;
    case OP_SEL: {
        /* sel.l / sel.ge: min / max; otherwise the predicate selects (no flag update) */
        uint32_t pm = in->pred_control ? pred_mask(&c) : ~0u;
        unsigned cm = in->cond_modifier;
        FOR_CH {
            if (cm == CM_L || cm == CM_GE) {
                bool mn = cm == CM_L;
                if (k == K_F) r[ch].f = minmax_f(s0[ch].f, s1[ch].f, mn, c.ieee_minmax);
                else if (k == K_DF) r[ch].d = minmax_d(s0[ch].d, s1[ch].d, mn, c.ieee_minmax);
                else r[ch].i = mn ? (s0[ch].i < s1[ch].i ? s0[ch].i : s1[ch].i)
                                  : (s0[ch].i >= s1[ch].i ? s0[ch].i : s1[ch].i);
            } else if (cm) {
                r[ch] = cmp_rel(cm, s0[ch], s1[ch], k, false) ? s0[ch] : s1[ch];
            } else {
                r[ch] = (pm >> ch & 1) ? s0[ch] : s1[ch];
            }
        }
        write_dst(&c, r, k, NULL, false);
        break;
    }
    case OP_NOT: FOR_CH r[ch].i = ~s0[ch].i; write_dst(&c, r, K_INT, NULL, true); break;
    case OP_AND: FOR_CH r[ch].i = s0[ch].i & s1[ch].i; write_dst(&c, r, K_INT, NULL, true); break;
    case OP_OR:  FOR_CH r[ch].i = s0[ch].i | s1[ch].i; write_dst(&c, r, K_INT, NULL, true); break;
    case OP_XOR: FOR_CH r[ch].i = s0[ch].i ^ s1[ch].i; write_dst(&c, r, K_INT, NULL, true); break;
    case OP_SHR: case OP_SHL: case OP_ASR: {
        /* shift count: low 5 bits, low 6 in QWord mode (opcode table) */
        bool q = type_bytes(in->src[0].type) == 8 || type_bytes(in->dst.type) == 8;
        unsigned mask = q ? 63 : 31;
        FOR_CH {
            unsigned sh = (unsigned)s1[ch].u & mask;
            if (op == OP_SHL) r[ch].u = s0[ch].u << sh;
            else if (op == OP_SHR) r[ch].u = raw_of_src_type(s0[ch].i, in->src[0].type) >> sh;
            else {
                int64_t v = type_bytes(in->src[0].type) >= 8 ? s0[ch].i
                          : int_from_raw(type_bytes(in->src[0].type) == 4 ? EU_TYPE_D :
                                         type_bytes(in->src[0].type) == 2 ? EU_TYPE_W : EU_TYPE_B,
                                         (uint64_t)s0[ch].i);
                r[ch].i = v >> sh;
            }
        }
        write_dst(&c, r, K_INT, NULL, true);
        break;
    }
    case OP_CMP: case OP_CMPN: {
        uint64_t bits[EU_MAX_CHANNELS];
        uint64_t ones = UINT64_MAX;
        FOR_CH {
            cv[ch] = cmp_rel(in->cond_modifier, s0[ch], s1[ch], k, op == OP_CMPN);
            bits[ch] = cv[ch] ? ones : 0;
        }
        update_flags(&c, cv);
        write_dst_bits(&c, bits);
        break;
    }
    case OP_CSEL:
        /* csel.cm: src2 compared with 0 selects src0 or src1 (gen8+) */
        FOR_CH {
            lane_t z; z.u = 0;
            if (k == K_F) z.f = 0;
            cv[ch] = cmp_rel(in->cond_modifier, s2[ch], z, k, false);
            r[ch] = cv[ch] ? s0[ch] : s1[ch];
        }
        write_dst(&c, r, k, NULL, false);
        break;
    case OP_F32TO16:
        FOR_CH r[ch].i = float_to_half(k == K_F ? s0[ch].f : (float)s0[ch].d);
        write_dst(&c, r, K_INT, NULL, true);
        break;
    case OP_F16TO32:
        FOR_CH r[ch].f = hf_value(&c, (uint16_t)s0[ch].i);
        write_dst(&c, r, K_F, NULL, true);
        break;
    case OP_BFREV: FOR_CH r[ch].i = bitrev32((uint32_t)s0[ch].i); write_dst(&c, r, K_INT, NULL, true); break;
    case OP_BFE: FOR_CH {
        /* width = src0[4:0], offset = src1[4:0], value = src2 */
        unsigned w = (unsigned)s0[ch].u & 31, o = (unsigned)s1[ch].u & 31;
        uint32_t v = (uint32_t)s2[ch].u;
        if (w == 0) r[ch].i = 0;
        else if (w + o < 32) {
            uint32_t f = (v << (32 - w - o)) ;
            r[ch].i = in->dst.type == EU_TYPE_D ? (int64_t)((int32_t)f >> (32 - w)) : (int64_t)(f >> (32 - w));
        } else {
            r[ch].i = in->dst.type == EU_TYPE_D ? (int64_t)((int32_t)v >> o) : (int64_t)(v >> o);
        }
    } write_dst(&c, r, K_INT, NULL, true); break;
    case OP_BFI1: FOR_CH {
        unsigned w = (unsigned)s0[ch].u & 31, o = (unsigned)s1[ch].u & 31;
        r[ch].i = (int64_t)(uint32_t)((((uint32_t)1 << w) - 1) << o);
    } write_dst(&c, r, K_INT, NULL, true); break;
    case OP_BFI2: FOR_CH {
        uint32_t m = (uint32_t)s0[ch].u;
        r[ch].i = (int64_t)(uint32_t)((m & (uint32_t)s1[ch].u) | (~m & (uint32_t)s2[ch].u));
    } write_dst(&c, r, K_INT, NULL, true); break;
    case OP_ADD: FOP(a + b, a + b, (int64_t)((uint64_t)a + (uint64_t)b)); write_dst(&c, r, k, NULL, true); break;
    case OP_MUL: FOP(a * b, a * b, (int64_t)((uint64_t)a * (uint64_t)b)); write_dst(&c, r, k, NULL, true); break;
    case OP_AVG: FOR_CH r[ch].i = (int64_t)((uint64_t)s0[ch].i + (uint64_t)s1[ch].i + 1) >> 1;
        write_dst(&c, r, K_INT, NULL, true); break;
    case OP_MAC: {
        /* dst = acc + src0 * src1 */
        const uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH {
            if (k == K_F) { float a; memcpy(&a, acc + 4 * (ch & 15), 4); r[ch].f = a + s0[ch].f * s1[ch].f; }
            else if (k == K_DF) { double a; memcpy(&a, acc + 8 * (ch & 7), 8); r[ch].d = a + s0[ch].d * s1[ch].d; }
            else r[ch].i = (int64_t)((uint64_t)t->acc_wide[ch] + (uint64_t)s0[ch].i * (uint64_t)s1[ch].i);
        }
        write_dst(&c, r, k, NULL, true);
        break;
    }
    case OP_MACH: {
        /* 004 L23186-23215: acc[63:0] = (src1[31:16] * src0[31:0]) << 16 +
         * acc[63:0]; dst = acc[63:32]. With mul acc0 src0 src1:uw before it
         * (the low half of src1), acc ends as the full 64-bit product. The
         * high word is signed for D, unsigned for UD; Gen4-7 take the high
         * word from src0 instead ("mach reverses the roles of the two source
         * operands compared to previous generations", 003 L21114). */
        bool rev = in->gen < 8;
        const struct eu_operand *hop = rev ? &in->src[0] : &in->src[1];
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH {
            uint32_t hv = (uint32_t)(rev ? s0[ch].u : s1[ch].u);
            uint32_t fv = (uint32_t)(rev ? s1[ch].u : s0[ch].u);
            const struct eu_operand *fop = rev ? &in->src[1] : &in->src[0];
            int64_t hi = hop->type == EU_TYPE_D ? (int64_t)(int16_t)(hv >> 16) : (int64_t)(hv >> 16);
            int64_t full = fop->type == EU_TYPE_D ? (int64_t)(int32_t)fv : (int64_t)fv;
            uint64_t a = (uint64_t)((hi * full) * 65536) + (uint64_t)t->acc_wide[ch];
            r[ch].i = (int64_t)a >> 32;
            if (en >> ch & 1) {
                t->acc_wide[ch] = (int64_t)a;
                wr_le(acc + 4 * (ch & 15), 4, (uint32_t)a);
            }
        }
        struct eu_instruction plain = *in;
        plain.acc_wr_control = false;   /* the accumulator holds the 64-bit sum */
        c.in = &plain;
        write_dst(&c, r, K_INT, NULL, true);
        c.in = in;
        break;
    }
    case OP_SAD2: case OP_SADA2: {
        /* 004 L24782-24845: per 2-tuple of channels, |s0[n] - s1[n]| +
         * |s0[n+1] - s1[n+1]| (plus the accumulator's channel n for sada2)
         * goes to the first channel of the tuple, and to the accumulator
         * (16 bits per channel kept in dst; the accumulator keeps its guide
         * bits). The odd channels are "written but with undefined values":
         * here they are written 0. */
        FOR_CH r[ch].i = 0;
        for (unsigned ch = 0; ch + 1 < n; ch += 2) {
            int64_t d0 = s0[ch].i - s1[ch].i, d1 = s0[ch + 1].i - s1[ch + 1].i;
            int64_t sad = (d0 < 0 ? -d0 : d0) + (d1 < 0 ? -d1 : d1);
            if (op == OP_SADA2) sad += t->acc_wide[ch];
            r[ch].i = sad;
            if (en >> ch & 1) {
                t->acc_wide[ch] = sad;
                t->acc_wide[ch + 1] = 0;
            }
        }
        write_dst(&c, r, K_INT, NULL, true);
        break;
    }
    case OP_SMOV: {
        /* 004 L24086-24120: src1 is an immediate channel mask. Without
         * predication it masks the execution mask; with predication the
         * flags are not used: the instruction runs (with its execution
         * mask) only when some channel survives the immediate mask. */
        uint32_t imm = (uint32_t)in->src[1].imm >> c.off;
        uint32_t base_en = in->mask_control ? chan_bits(n) : (t->amask >> c.off) & chan_bits(n);
        c.en = in->pred_control ? ((base_en & imm) ? base_en : 0) : (base_en & imm);
        FOR_CH r[ch] = s0[ch];
        write_dst(&c, r, k, NULL, true);
        break;
    }
    case OP_MOVI: {
        /* 004 L23026-23066: src0 is indirect; every channel reads the
         * register a0.0[11:5] + addr_imm[9:5], at the subregister of its
         * own address subregister a0.(n mod 8)[4:0] + addr_imm[4:0] (aligned
         * down to the element size). */
        const struct eu_operand *o = &in->src[0];
        unsigned es = type_bytes(o->type);
        uint32_t a00 = a0_word(t, 0);
        uint32_t reg = ((a00 >> 5) + ((uint32_t)(int32_t)o->addr_imm >> 5)) & 0x7f;
        FOR_CH {
            uint32_t sub = (a0_word(t, ch % 8) + (uint32_t)(int32_t)o->addr_imm) & 31u & ~(es - 1);
            uint64_t raw = 0;
            if (o->file == EU_FILE_GRF && o->indirect)
                raw = rd_le(t->grf + reg * EU_REG_BYTES + sub, es);
            else
                fault(&c);
            r[ch] = to_kind(&c, o->type, raw, k);
            if (o->abs || o->negate) {
                if (k == K_INT) {
                    if (o->abs && r[ch].i < 0) r[ch].i = -r[ch].i;
                    if (o->negate) r[ch].i = -r[ch].i;
                } else if (k == K_F) {
                    if (o->abs) r[ch].f = fabsf(r[ch].f);
                    if (o->negate) r[ch].f = -r[ch].f;
                }
            }
        }
        write_dst(&c, r, k, NULL, true);
        break;
    }
    case OP_ADDC: case OP_SUBB: {
        /* UD: carry / borrow to the accumulator */
        FOR_CH {
            uint64_t a = (uint32_t)s0[ch].u, b = (uint32_t)s1[ch].u;
            if (op == OP_ADDC) { r[ch].i = (int64_t)(uint32_t)(a + b); s2[ch].i = (a + b) >> 32; }
            else { r[ch].i = (int64_t)(uint32_t)(a - b); s2[ch].i = a < b; }
        }
        write_dst(&c, r, K_INT, NULL, true);
        uint8_t *acc = t->arf[EU_ARF_ACC0];
        FOR_CH if (en >> ch & 1) {
            t->acc_wide[ch] = s2[ch].i;
            wr_le(acc + 4 * ch, 4, (uint32_t)s2[ch].i);
        }
        break;
    }
    case OP_FRC: FOP(a - floorf(a), a - floor(a), 0); write_dst(&c, r, k, NULL, true); break;
    case OP_RNDU: FOP(ceilf(a), ceil(a), a); write_dst(&c, r, k, NULL, true); break;
    case OP_RNDD: FOP(floorf(a), floor(a), a); write_dst(&c, r, k, NULL, true); break;
    case OP_RNDE: FOP(rnde_f(a), rnde_d(a), a); write_dst(&c, r, k, NULL, true); break;
    case OP_RNDZ: FOP(truncf(a), trunc(a), a); write_dst(&c, r, k, NULL, true); break;
    case OP_LZD: FOR_CH { uint32_t v = (uint32_t)s0[ch].u; r[ch].i = v ? __builtin_clz(v) : 32; }
        write_dst(&c, r, K_INT, NULL, true); break;
    case OP_FBH: FOR_CH {
        /* UD: first 1 from the MSB; D: first bit differing from the sign;
         * result counts from the MSB, 0xFFFFFFFF when none */
        uint32_t v = (uint32_t)s0[ch].u;
        if (in->src[0].type == EU_TYPE_D && (v >> 31))
            v = ~v;
        if (in->src[0].type == EU_TYPE_D)
            r[ch].i = v ? (int64_t)__builtin_clz(v) : (int64_t)0xffffffff;
        else
            r[ch].i = v ? (int64_t)__builtin_clz(v) : (int64_t)0xffffffff;
    } write_dst(&c, r, K_INT, NULL, true); break;
    case OP_FBL: FOR_CH { uint32_t v = (uint32_t)s0[ch].u; r[ch].i = v ? (int64_t)__builtin_ctz(v) : (int64_t)0xffffffff; }
        write_dst(&c, r, K_INT, NULL, true); break;
    case OP_CBIT: FOR_CH r[ch].i = __builtin_popcount((uint32_t)raw_of_src_type(s0[ch].i, in->src[0].type));
        write_dst(&c, r, K_INT, NULL, true); break;
    case OP_DP4: case OP_DPH: case OP_DP3: case OP_DP2: {
        for (unsigned g = 0; g + 3 < n || g < n; g += 4) {
            double acc = 0;
            unsigned m = op == OP_DP2 ? 2 : (op == OP_DP4 ? 4 : 3);
            for (unsigned i = 0; i < m && g + i < n; i++)
                acc += k == K_DF ? s0[g + i].d * s1[g + i].d : (double)(s0[g + i].f * s1[g + i].f);
            if (op == OP_DPH && g + 3 < n)
                acc += k == K_DF ? s1[g + 3].d : s1[g + 3].f;
            for (unsigned i = 0; i < 4 && g + i < n; i++) {
                if (k == K_DF) r[g + i].d = acc; else r[g + i].f = (float)acc;
            }
        }
        write_dst(&c, r, k, NULL, true);
        break;
    }
    case OP_LINE: case OP_PLN: {
        /* line: p * src1 + q (p = src0.0, q = src0.3); pln: p * u + q * v + r
         * (p, q, r = src0.0, .1, .3; u in src1's registers, v in the next one per
         * 8 channels) */
        const struct eu_operand *o0 = &in->src[0], *o1 = &in->src[1];
        uint32_t b0 = o0->reg_nr * 32u + o0->subreg_nr, b1 = o1->reg_nr * 32u + o1->subreg_nr;
        if (o0->file != EU_FILE_GRF || o1->file != EU_FILE_GRF || b0 + 16 > EU_GRF_BYTES ||
            b1 + (n > 8 ? 128u : 64u) > EU_GRF_BYTES) {
            fault(&c);
            break;
        }
        float p, q, rr;
        memcpy(&p, t->grf + b0, 4);
        memcpy(&q, t->grf + b0 + (op == OP_LINE ? 12 : 4), 4);
        memcpy(&rr, t->grf + b0 + 12, 4);
        FOR_CH {
            float u, v;
            memcpy(&u, t->grf + b1 + (ch / 8) * 32 * (op == OP_PLN ? 2 : 1) + (ch % 8) * 4, 4);
            if (op == OP_LINE) {
                r[ch].f = p * u + q;
            } else {
                memcpy(&v, t->grf + b1 + (ch / 8) * 64 + 32 + (ch % 8) * 4, 4);
                r[ch].f = p * u + q * v + rr;
            }
        }
        write_dst(&c, r, K_F, NULL, true);
        break;
    }
    case OP_MAD: case OP_MADM:
        /* mad: src0 + src1 * src2, fused (L21622-21635) */
        FOR_CH {
            if (k == K_F) r[ch].f = fmaf(s1[ch].f, s2[ch].f, s0[ch].f);
            else if (k == K_DF) r[ch].d = fma(s1[ch].d, s2[ch].d, s0[ch].d);
            else r[ch].i = (int64_t)((uint64_t)s0[ch].i + (uint64_t)s1[ch].i * (uint64_t)s2[ch].i);
        }
        write_dst(&c, r, k, NULL, true);
        break;
    case OP_LRP:
        /* lrp: src0 * src1 + (1 - src0) * src2 */
        FOR_CH {
            if (k == K_DF) r[ch].d = s0[ch].d * s1[ch].d + (1 - s0[ch].d) * s2[ch].d;
            else r[ch].f = s0[ch].f * s1[ch].f + (1 - s0[ch].f) * s2[ch].f;
        }
        write_dst(&c, r, k, NULL, true);
        break;
    case OP_MATH: {
        unsigned fn = in->math_function;
        bool dz = false;
        if (fn >= MF_INTDIVMOD && fn <= MF_INTMOD) {
            /* INT DIV (L24244): quotient sign = xor of the signs, remainder
             * takes the numerator's. Divide by zero is not defined by the
             * seed: quotient all ones, remainder = numerator (counted). */
            bool u = in->src[0].type == EU_TYPE_UD || in->src[1].type == EU_TYPE_UD;
            lane_t rem[EU_MAX_CHANNELS];
            FOR_CH {
                if (u) {
                    uint32_t a = (uint32_t)s0[ch].u, b = (uint32_t)s1[ch].u;
                    if (!b) { if (en >> ch & 1) dz = true; r[ch].i = 0xffffffff; rem[ch].i = a; }
                    else { r[ch].i = a / b; rem[ch].i = a % b; }
                } else {
                    int32_t a = (int32_t)s0[ch].i, b = (int32_t)s1[ch].i;
                    if (!b) { if (en >> ch & 1) dz = true; r[ch].i = -1; rem[ch].i = a; }
                    else if (a == INT32_MIN && b == -1) { r[ch].i = INT32_MIN; rem[ch].i = 0; }
                    else { r[ch].i = a / b; rem[ch].i = a % b; }
                }
            }
            if (fn == MF_INTMOD) {
                write_dst(&c, rem, K_INT, NULL, false);
            } else {
                write_dst(&c, r, K_INT, NULL, false);
                if (fn == MF_INTDIVMOD) {
                    /* remainder to the next register */
                    struct eu_instruction copy = *in;
                    copy.dst.reg_nr = (uint8_t)(copy.dst.reg_nr + 1);
                    c.in = &copy;
                    write_dst(&c, rem, K_INT, NULL, false);
                    c.in = in;
                }
            }
        } else {
            FOR_CH {
                if (k == K_DF) {
                    if (fn == MF_POW) r[ch].d = pow(s0[ch].d, s1[ch].d);
                    else if (fn == MF_FDIV) { if (s1[ch].d == 0 && (en >> ch & 1)) dz = true; r[ch].d = s0[ch].d / s1[ch].d; }
                    else r[ch].d = math1(fn, s0[ch].d, &dz);
                } else {
                    float a = k == K_F ? s0[ch].f : (float)s0[ch].i;
                    if (c.alt && (fn == MF_LOG || fn == MF_SQRT || fn == MF_RSQ))
                        a = fabsf(a);   /* ALT: log, rsq, sqrt take abs() of the source */
                    float b = ns > 1 ? (k == K_F ? s1[ch].f : (float)s1[ch].i) : 0;
                    if (fn == MF_INVM && ns > 1)
                        a = b;  /* invm a, b: the approximation of 1/b for a / b (003 L24255-24270) */
                    if (fn == MF_POW) r[ch].f = powf(a, b);
                    else if (fn == MF_FDIV) { if (b == 0 && (en >> ch & 1)) dz = true; r[ch].f = a / b; }
                    else r[ch].f = math1f(fn, a, &dz);
                }
            }
            write_dst(&c, r, k == K_DF ? K_DF : K_F, NULL, false);
        }
        if (dz) {
            t->counts.divide_by_zero++;
            /* sr0.1 IEEE Divide by Zero sticky bit when trapping is enabled (cr0.0[9]) */
            if (crv >> 9 & 1) {
                uint32_t s = (uint32_t)rd_le(t->arf[EU_ARF_SR0] + 4, 4) | 2u;
                wr_le(t->arf[EU_ARF_SR0] + 4, 4, s);
            }
        }
        break;
    }
    case 48:
        /* wait: no notification registers are modelled; a nop, counted (the
         * unit warns) */
        t->counts.unmodelled++;
        break;
    default:
        res = illegal(t, "opcode not modelled");
        break;
    }
#undef FOP
#undef FOR_CH
    if (saved_round >= 0)
        fesetround(saved_round);
    if (res != EU_STEP_OK)
        return res;
    if (writes_cr0 && in->gen >= 7 && cr0_written(t, old_cr0_0, old_cr0_1, t->ip + in->size)) {
        if (t->wmask)
            rejoin(t);
        return EU_STEP_OK;
    }
    /* a write to ip is a jump (L20955: "mov with IP as the destination") */
    if (in->dst.file == EU_FILE_ARF && (in->dst.reg_nr >> 4) == 10 && in->has_dst) {
        jump(t, (uint32_t)rd_le(t->arf[EU_ARF_IP], 4) & ~7u);
        return EU_STEP_OK;
    }
    t->ip += in->size;
    if (t->wmask)
        rejoin(t);
    return EU_STEP_OK;
}

/* ---- timing classes ---------------------------------------------------------------- */

enum eu_pipe eu_insn_pipe(const struct eu_instruction *in)
{
    if (in->is_send || in->is_split_send)
        return EU_PIPE_SEND;
    if (in->is_branch || in->opcode == OP_JMPI || in->opcode == OP_CALL || in->opcode == OP_RET ||
        in->opcode == OP_CALLA)
        return EU_PIPE_BRANCH;
    /* the EM pipe runs math and everything the FPU runs (L19104-19106); DF and
     * transcendental math go to EM */
    if (in->is_math || in->dst.type == EU_TYPE_DF)
        return EU_PIPE_EM;
    return EU_PIPE_FPU;
}

unsigned eu_insn_occupancy(const struct eu_instruction *in)
{
    unsigned bytes = 4;
    if (in->dst.type == EU_TYPE_DF || in->dst.type == EU_TYPE_Q || in->dst.type == EU_TYPE_UQ ||
        in->src[0].type == EU_TYPE_DF)
        bytes = 8;
    unsigned cyc = (in->exec_size * bytes + 15) / 16;
    return cyc ? cyc : 1;
}

