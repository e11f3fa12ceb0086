/* isa/vc4/qpu_exec.c - VideoCore IV QPU instruction semantics (see qpu_exec.h).
 *
 * Citations are byte offsets into seed 002 (as in spec/vc4/qpu.txt); E1..E5 are the errata
 * rows of spec/vc4/qpu.txt [errata]. Where the seed is silent (notes/002 §8: flag rules per
 * opcode, shift masking, ftoi range, clz of 0, rounding) the choice made here is marked
 * "[chosen]".
 */
#include "isa/vc4/qpu_exec.h"

#include <math.h>
#include <string.h>

typedef uint32_t vec[QPU_LANES];

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint32_t as_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

uint32_t qpu_float_flush(uint32_t bits)
{
    if ((bits & 0x7f800000u) == 0)
        return bits & 0x80000000u;
    return bits;
}

static float ff(uint32_t bits)
{
    return as_float(qpu_float_flush(bits));
}

static uint32_t fb(float f)
{
    return qpu_float_flush(as_bits(f));
}

uint32_t qpu_half_to_float(uint16_t half)
{
    uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
    uint32_t exp = (half >> 10) & 0x1f, mant = half & 0x3ffu;
    if (exp == 0)
        return sign;  /* zero, and half denormals flushed [chosen] */
    if (exp == 31)
        return sign | 0x7f800000u | mant << 13;
    return sign | (exp - 15 + 127) << 23 | mant << 13;
}

uint16_t qpu_float_to_half(uint32_t bits)
{
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    int exp = (int)((bits >> 23) & 0xff);
    uint32_t mant = bits & 0x7fffffu;
    if (exp == 255)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = exp - 127 + 15;
    if (exp == 0 || e <= 0)
        return sign;  /* too small for a normal half: flushed [chosen] */
    /* round to nearest even [chosen] */
    uint32_t m = mant >> 13, rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (m & 1)))
        m++;
    if (m == 0x400u) {
        m = 0;
        e++;
    }
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (uint32_t)e << 10 | m);
}

void qpu_state_init(struct qpu_state *state, unsigned qpu_number)
{
    memset(state, 0, sizeof *state);
    state->qpu_number = qpu_number;
}

/* ---- conditions and flags ---------------------------------------------------------------- */

/* Elements whose condition passes (Table 2 @74529). */
static uint16_t cond_lanes(const struct qpu_state *s, unsigned cond)
{
    switch (cond) {
    case VC4_COND_NEVER: return 0;
    case VC4_COND_ALWAYS: return 0xffffu;
    case VC4_COND_ZS: return s->flag_z;
    case VC4_COND_ZC: return (uint16_t)~s->flag_z;
    case VC4_COND_NS: return s->flag_n;
    case VC4_COND_NC: return (uint16_t)~s->flag_n;
    case VC4_COND_CS: return s->flag_c;
    default: return (uint16_t)~s->flag_c;
    }
}

/* Branch condition over all 16 elements (Table 11 @86594). Reserved codes never branch. */
static bool branch_condition(const struct qpu_state *s, unsigned cond)
{
    if (cond == VC4_BRANCH_COND_ALWAYS)
        return true;
    if (cond > VC4_BRANCH_COND_ANY_CC)
        return false;
    uint16_t flag = cond < 4 ? s->flag_z : cond < 8 ? s->flag_n : s->flag_c;
    uint16_t v = (cond & 1) ? (uint16_t)~flag : flag;
    bool any = (cond & 2) != 0;
    return any ? v != 0 : v == 0xffffu;
}

/* ---- reads -------------------------------------------------------------------------------- */

/* Value of an I/O read (raddr 32..63) from space A or B (Table 14 @91738). */
static void read_io(struct qpu_state *s, const struct qpu_io *io, unsigned raddr, bool file_b,
                    vec out, vec c_coefficient, bool *varying)
{
    const struct vc4_register *r = &vc4_register[raddr - 32];
    const char *name = file_b ? r->read_b : r->read_a;
    if (raddr == VC4_RADDR_A_NOP) {
        memset(out, 0, sizeof(vec));
        return;
    }
    if (raddr == VC4_RADDR_A_ELEMENT_NUMBER || name == NULL) {
        /* unmapped reads return the element number (A) or QPU number (B) (@67887, notes 3.9) */
        for (unsigned i = 0; i < QPU_LANES; i++)
            out[i] = file_b ? s->qpu_number : i;
        return;
    }
    memset(out, 0, sizeof(vec));
    if (io && io->read)
        io->read(io->ctx, s, raddr, file_b, out, c_coefficient);
    if (raddr == VC4_RADDR_A_UNIFORM_READ)
        s->uniform_address += 4;  /* auto-increment per read (@62206) */
    if (raddr == VC4_RADDR_A_VARYING_READ)
        *varying = true;
}

static bool add_op_float_input(unsigned op)
{
    return op >= VC4_ADD_OP_FADD && op <= VC4_ADD_OP_FTOI;
}

static bool add_op_float_result(unsigned op)
{
    return (op >= VC4_ADD_OP_FADD && op <= VC4_ADD_OP_FMAXABS) || op == VC4_ADD_OP_ITOF;
}

/* Regfile-A unpack (pm=0, Table 6 @78780): float forms when a consuming ALU executes a float
 * instruction, else integer forms. */
static uint32_t unpack_a(uint32_t v, unsigned mode, bool to_float)
{
    switch (mode) {
    case VC4_UNPACK_16A:
    case VC4_UNPACK_16B: {
        uint16_t h = (uint16_t)(mode == VC4_UNPACK_16A ? v : v >> 16);
        return to_float ? qpu_half_to_float(h) : (uint32_t)(int32_t)(int16_t)h;
    }
    case VC4_UNPACK_8D_REP:
        return (v >> 24) * 0x01010101u;
    case VC4_UNPACK_8A:
    case VC4_UNPACK_8B:
    case VC4_UNPACK_8C:
    case VC4_UNPACK_8D: {
        uint32_t byte = (v >> (8 * (mode - VC4_UNPACK_8A))) & 0xff;
        return to_float ? as_bits((float)byte / 255.0f) : byte;
    }
    default:
        return v;
    }
}

/* r4 unpack (pm=1, Table 8 @81468 -- erratum E1: it is the r4 UNPACK table, and rows 5-7 are
 * 8b..8d): float forms only. */
static uint32_t unpack_r4(uint32_t v, unsigned mode)
{
    if (mode == VC4_UNPACK_NOP || mode == VC4_UNPACK_8D_REP)
        return unpack_a(v, mode, false);
    return unpack_a(v, mode, true);
}

/* ---- the ALUs ------------------------------------------------------------------------------ */

struct alu_out {
    uint32_t value;
    bool carry;      /* C flag [chosen, see below] */
    bool is_float;   /* Z from the magnitude, pack as float */
    int64_t wide;    /* add/sub exact result for 32_sat */
    bool has_wide;
};

static uint32_t sat_u8(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}

/* Per 8-bit element ops (Table 12/13: "with saturation per 8-bit element"; unsigned bytes
 * [chosen: colours in [0,255]]). kind: 0 adds, 1 subs, 2 min, 3 max, 4 muld. */
static uint32_t v8(uint32_t a, uint32_t b, unsigned kind)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i += 8) {
        int x = (int)((a >> i) & 0xff), y = (int)((b >> i) & 0xff), z;
        switch (kind) {
        case 0: z = (int)sat_u8(x + y); break;
        case 1: z = (int)sat_u8(x - y); break;
        case 2: z = x < y ? x : y; break;
        case 3: z = x > y ? x : y; break;
        /* "multiply two vectors of 4 8-bit values in the range [1.0, 0]" (@88413):
         * x*y/255 rounded to nearest [chosen] */
        default: z = (x * y + 127) / 255; break;
        }
        r |= (uint32_t)z << i;
    }
    return r;
}

/* ftoi: truncation toward zero; NaN and values outside int32 give 0 [chosen]. */
static uint32_t float_to_int(float f)
{
    if (!(f > -2147483904.0f && f < 2147483648.0f))
        return 0;
    return (uint32_t)(int32_t)f;
}

/* C flag [chosen; the seed does not say, notes §8]: add: unsigned carry out; sub: unsigned
 * borrow; min/max/fmin/fmax/fminabs/fmaxabs: a > b as the op compares; otherwise clear. */
static struct alu_out add_alu(unsigned op, uint32_t a, uint32_t b)
{
    struct alu_out o = { 0 };
    float fa = ff(a), fb_ = ff(b);
    unsigned sh = b & 31;  /* shift amounts use the low 5 bits [chosen] */
    o.is_float = add_op_float_result(op);
    switch (op) {
    case VC4_ADD_OP_FADD: o.value = fb(fa + fb_); break;
    case VC4_ADD_OP_FSUB: o.value = fb(fa - fb_); break;
    case VC4_ADD_OP_FMIN: o.value = fb(fa < fb_ ? fa : fb_); o.carry = fa > fb_; break;
    case VC4_ADD_OP_FMAX: o.value = fb(fa > fb_ ? fa : fb_); o.carry = fa > fb_; break;
    case VC4_ADD_OP_FMINABS:
        o.value = fb(fabsf(fa) < fabsf(fb_) ? fabsf(fa) : fabsf(fb_));
        o.carry = fabsf(fa) > fabsf(fb_);
        break;
    case VC4_ADD_OP_FMAXABS:
        o.value = fb(fabsf(fa) > fabsf(fb_) ? fabsf(fa) : fabsf(fb_));
        o.carry = fabsf(fa) > fabsf(fb_);
        break;
    case VC4_ADD_OP_FTOI: o.value = float_to_int(fa); break;
    case VC4_ADD_OP_ITOF: o.value = fb((float)(int32_t)a); break;
    case VC4_ADD_OP_ADD:
        o.value = a + b;
        o.carry = o.value < a;
        o.wide = (int64_t)(int32_t)a + (int32_t)b;
        o.has_wide = true;
        break;
    case VC4_ADD_OP_SUB:
        o.value = a - b;
        o.carry = a < b;
        o.wide = (int64_t)(int32_t)a - (int32_t)b;
        o.has_wide = true;
        break;
    case VC4_ADD_OP_SHR: o.value = a >> sh; break;
    case VC4_ADD_OP_ASR: o.value = (uint32_t)((int32_t)a >> sh); break;
    case VC4_ADD_OP_ROR: o.value = sh ? (a >> sh | a << (32 - sh)) : a; break;
    case VC4_ADD_OP_SHL: o.value = a << sh; break;
    case VC4_ADD_OP_MIN:
        o.value = (int32_t)a < (int32_t)b ? a : b;
        o.carry = (int32_t)a > (int32_t)b;
        break;
    case VC4_ADD_OP_MAX:
        o.value = (int32_t)a > (int32_t)b ? a : b;
        o.carry = (int32_t)a > (int32_t)b;
        break;
    case VC4_ADD_OP_AND: o.value = a & b; break;
    case VC4_ADD_OP_OR: o.value = a | b; break;
    case VC4_ADD_OP_XOR: o.value = a ^ b; break;
    case VC4_ADD_OP_NOT: o.value = ~a; break;
    case VC4_ADD_OP_CLZ: {  /* clz(0) = 32 [chosen] */
        unsigned n = 0;
        while (n < 32 && !(a & (0x80000000u >> n)))
            n++;
        o.value = n;
        break;
    }
    case VC4_ADD_OP_V8ADDS: o.value = v8(a, b, 0); break;
    case VC4_ADD_OP_V8SUBS: o.value = v8(a, b, 1); break;
    default: o.value = 0; break;  /* nop and reserved codes (flagged by the decoder) */
    }
    return o;
}

static struct alu_out mul_alu(unsigned op, uint32_t a, uint32_t b)
{
    struct alu_out o = { 0 };
    switch (op) {
    case VC4_MUL_OP_FMUL: o.value = fb(ff(a) * ff(b)); o.is_float = true; break;
    /* "24 bit multiply" (@88413): the low 24 bits of each operand, unsigned, low 32 bits of the
     * product [chosen, as Mesa's vc4 uses it for umul24 ext] */
    case VC4_MUL_OP_MUL24: o.value = (a & 0xffffffu) * (b & 0xffffffu); break;
    case VC4_MUL_OP_V8MULD: o.value = v8(a, b, 4); break;
    case VC4_MUL_OP_V8MIN: o.value = v8(a, b, 2); break;
    case VC4_MUL_OP_V8MAX: o.value = v8(a, b, 3); break;
    case VC4_MUL_OP_V8ADDS: o.value = v8(a, b, 0); break;
    case VC4_MUL_OP_V8SUBS: o.value = v8(a, b, 1); break;
    default: o.value = 0; break;
    }
    return o;
}

/* ---- packs --------------------------------------------------------------------------------- */

static uint32_t sat_s16(int64_t v)
{
    return (uint32_t)(uint16_t)(int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

static uint32_t sat_u8_32(int32_t v)
{
    return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}

/* Regfile-A pack (pm=0, Table 7 @79793) into old (the location's previous contents: partial
 * packs keep the other bits [chosen; the seed does not say, notes 3.6]). */
static uint32_t pack_a(const struct alu_out *o, unsigned mode, uint32_t old)
{
    uint32_t v = o->value;
    int32_t sv = (int32_t)v;
    switch (mode) {
    case VC4_PACK_A_NOP:
        return v;
    case VC4_PACK_A_16A: case VC4_PACK_A_16B:
    case VC4_PACK_A_16A_SAT: case VC4_PACK_A_16B_SAT: {
        bool sat = mode >= VC4_PACK_A_16A_SAT;
        uint32_t h = o->is_float ? qpu_float_to_half(v)
                                 : sat ? sat_s16(sv) : (v & 0xffffu);
        bool high = mode == VC4_PACK_A_16B || mode == VC4_PACK_A_16B_SAT;
        return high ? (old & 0xffffu) | h << 16 : (old & 0xffff0000u) | h;
    }
    case VC4_PACK_A_8888:
        return (v & 0xff) * 0x01010101u;
    case VC4_PACK_A_8888_SAT:
        return sat_u8_32(sv) * 0x01010101u;
    case VC4_PACK_A_32_SAT:
        /* "saturate (signed) 32-bit number (given overflow/carry flags)": only add/sub can
         * overflow */
        if (o->has_wide)
            return (uint32_t)(int32_t)(o->wide < INT32_MIN ? INT32_MIN
                                       : o->wide > INT32_MAX ? INT32_MAX : o->wide);
        return v;
    default: {  /* 8a..8d, with or without saturation */
        bool sat = mode >= VC4_PACK_A_8A_SAT;
        unsigned byte = (mode - (sat ? VC4_PACK_A_8A_SAT : VC4_PACK_A_8A)) * 8;
        uint32_t b = sat ? sat_u8_32(sv) : (v & 0xff);
        return (old & ~(0xffu << byte)) | b << byte;
    }
    }
}

/* Mul pack (pm=1, Table 9 @81964; E2: codes 5-7 are 8b..8d): float -> 8-bit colour
 * "c = sat[round(f * 255)]" (@78238), round to nearest even [chosen]. */
static uint32_t pack_mul(uint32_t v, unsigned mode, uint32_t old)
{
    if (mode < VC4_PACK_MUL_8888 || mode > VC4_PACK_MUL_8D)
        return v;  /* nop; reserved codes (flagged by the decoder) write unpacked */
    float f = ff(v) * 255.0f;
    uint32_t c = !(f > 0.0f) ? 0 : f >= 255.0f ? 255 : (uint32_t)nearbyintf(f);
    if (mode == VC4_PACK_MUL_8888)
        return c * 0x01010101u;
    unsigned byte = (mode - VC4_PACK_MUL_8A) * 8;
    return (old & ~(0xffu << byte)) | c << byte;
}

/* ---- writes -------------------------------------------------------------------------------- */

/* Where a write lands: a physical regfile location or an accumulator, else NULL (I/O, nop). */
static uint32_t *write_target(struct qpu_state *s, unsigned waddr, bool file_b, unsigned lane)
{
    if (waddr < 32)
        return file_b ? &s->regfile_b[waddr][lane] : &s->regfile_a[waddr][lane];
    if (waddr <= VC4_WADDR_A_ACC3)
        return &s->acc[waddr - 32][lane];
    if (waddr == VC4_WADDR_A_ACC5)
        return &s->acc[5][lane];
    return NULL;
}

struct pending_write {
    unsigned waddr;
    bool file_b;
    uint16_t lanes;
    vec value;
};

static void commit_write(struct qpu_state *s, const struct qpu_io *io,
                         const struct pending_write *w)
{
    if (w->waddr == VC4_WADDR_A_NOP || !w->lanes)
        return;
    if (w->waddr == VC4_WADDR_A_ACC5) {
        /* E4: space A replicates elements 0/4/8/12 per quad, space B replicates element 0
         * (Table 14 @91738; the prose at @48710 is wrong). Elements whose condition fails
         * keep their r5 [chosen]. */
        vec src;
        memcpy(src, w->value, sizeof src);
        for (unsigned i = 0; i < QPU_LANES; i++)
            if (w->lanes >> i & 1)
                s->acc[5][i] = src[w->file_b ? 0 : (i & ~3u)];
        return;
    }
    uint32_t *t0 = write_target(s, w->waddr, w->file_b, 0);
    if (t0) {
        for (unsigned i = 0; i < QPU_LANES; i++)
            if (w->lanes >> i & 1)
                *write_target(s, w->waddr, w->file_b, i) = w->value[i];
        return;
    }
    if (w->waddr == VC4_WADDR_A_UNIFORMS_ADDRESS)
        s->uniform_address = w->value[0];  /* "element 0 sets the uniform pointer" (@63309) */
    if (io && io->write)
        io->write(io->ctx, s, w->waddr, w->file_b, w->value, w->lanes);
}

static void set_flags(struct qpu_state *s, const struct alu_out out[QPU_LANES], uint16_t lanes)
{
    for (unsigned i = 0; i < QPU_LANES; i++) {
        if (!(lanes >> i & 1))
            continue;
        uint16_t bit = (uint16_t)(1u << i);
        uint32_t v = out[i].value;
        bool z = out[i].is_float ? (v & 0x7fffffffu) == 0 : v == 0;
        s->flag_z = (uint16_t)(z ? s->flag_z | bit : s->flag_z & ~bit);
        s->flag_n = (uint16_t)((v >> 31) ? s->flag_n | bit : s->flag_n & ~bit);
        s->flag_c = (uint16_t)(out[i].carry ? s->flag_c | bit : s->flag_c & ~bit);
    }
}

/* Elements whose condition passes, from explicit flags (as cond_lanes). */
static uint16_t cond_of(uint16_t z, uint16_t n, uint16_t c, unsigned cond)
{
    struct qpu_state f;
    f.flag_z = z;
    f.flag_n = n;
    f.flag_c = c;
    return cond_lanes(&f, cond & 7);
}

void qpu_alu_compute(const struct qpu_alu_request *rq, struct qpu_alu_result *out)
{
    unsigned op_add = rq->op_add & 31, op_mul = rq->op_mul & 7, unpack = rq->unpack & 7;
    unsigned nadd = vc4_add_op_nsrc[op_add];
    bool add_active = op_add != VC4_ADD_OP_NOP && (rq->cond_add & 7) != VC4_COND_NEVER;
    bool mul_active = op_mul != VC4_MUL_OP_NOP && (rq->cond_mul & 7) != VC4_COND_NEVER;
    /* regfile-A unpack (pm=0): float form if any ALU consuming the value is a float op */
    bool float_use = (add_op_float_input(op_add) &&
                      (rq->add_a == VC4_MUX_RA || (nadd >= 2 && rq->add_b == VC4_MUX_RA))) ||
                     (op_mul == VC4_MUL_OP_FMUL &&
                      (rq->mul_a == VC4_MUX_RA || rq->mul_b == VC4_MUX_RA));
    const uint8_t mux[4] = { rq->add_a, rq->add_b, rq->mul_a, rq->mul_b };
    struct alu_out add[QPU_LANES], mul[QPU_LANES];
    out->add_lanes = add_active ? cond_of(rq->flag_z, rq->flag_n, rq->flag_c, rq->cond_add) : 0;
    out->mul_lanes = mul_active ? cond_of(rq->flag_z, rq->flag_n, rq->flag_c, rq->cond_mul) : 0;
    for (unsigned i = 0; i < QPU_LANES; i++) {
        uint32_t v[4] = { rq->add_operand[0][i], rq->add_operand[1][i], rq->mul_operand[0][i],
                          rq->mul_operand[1][i] };
        for (unsigned k = 0; k < 4; k++) {
            if (rq->pm == 0 && mux[k] == VC4_MUX_RA && unpack != VC4_UNPACK_NOP)
                v[k] = unpack_a(v[k], unpack, float_use);
            else if (rq->pm == 1 && mux[k] == VC4_MUX_R4)
                v[k] = unpack_r4(v[k], unpack);
        }
        add[i] = add_alu(op_add, v[0], v[1]);
        mul[i] = mul_alu(op_mul, v[2], v[3]);
        uint32_t a = add[i].value, m = mul[i].value;
        if (rq->pm == 0 && rq->add_pack_a)  /* pm=0 packs the regfile-A write (@77629) */
            a = pack_a(&add[i], rq->pack & 15, rq->add_old[i]);
        if (rq->pm == 0 && rq->mul_pack_a)
            m = pack_a(&mul[i], rq->pack & 15, rq->mul_old[i]);
        else if (rq->pm == 1)
            m = pack_mul(m, rq->pack & 15, rq->mul_old[i]);  /* pm=1 packs the mul output */
        out->add_value[i] = a;
        out->mul_value[i] = m;
    }
    /* Flags (Table 1 sf @72071 with E3): from the add ALU unless it is a nop, else from the
     * mul ALU; only for elements whose condition (of the ALU the flags come from) passes. */
    struct qpu_state f;
    f.flag_z = rq->flag_z;
    f.flag_n = rq->flag_n;
    f.flag_c = rq->flag_c;
    if (rq->sf && add_active)
        set_flags(&f, add, out->add_lanes);
    else if (rq->sf && mul_active)
        set_flags(&f, mul, out->mul_lanes);
    out->flag_z = f.flag_z;
    out->flag_n = f.flag_n;
    out->flag_c = f.flag_c;
}

/* ---- the instruction formats -------------------------------------------------------------- */

/* The datapath of one instruction (the io's hook or the C one), then its writes. */
static void finish(struct qpu_state *s, const struct qpu_io *io, const struct vc4_qpu_instr *in,
                   struct qpu_alu_request *rq)
{
    /* "If ws = 0, add alu writes to regfile a, mult to regfile b" (Table 1 @72071) */
    struct pending_write w[2] = {
        { .waddr = in->waddr_add, .file_b = !vc4_qpu_writes_a(in, false) },
        { .waddr = in->waddr_mul, .file_b = !vc4_qpu_writes_a(in, true) },
    };
    rq->pm = in->pm;
    rq->unpack = in->unpack;
    rq->pack = in->pack;
    rq->cond_add = in->cond_add;
    rq->cond_mul = in->cond_mul;
    rq->sf = in->sf;
    rq->add_pack_a = !w[0].file_b && w[0].waddr < 32;
    rq->mul_pack_a = !w[1].file_b && w[1].waddr < 32;
    rq->flag_z = s->flag_z;
    rq->flag_n = s->flag_n;
    rq->flag_c = s->flag_c;
    for (unsigned i = 0; i < QPU_LANES; i++) {
        const uint32_t *t = write_target(s, w[0].waddr, w[0].file_b, i);
        rq->add_old[i] = t ? *t : 0;
        t = write_target(s, w[1].waddr, w[1].file_b, i);
        rq->mul_old[i] = t ? *t : 0;
    }
    struct qpu_alu_result r;
    if (io && io->alu && io->alu->compute)
        io->alu->compute(io->alu->context, rq, &r);
    else
        qpu_alu_compute(rq, &r);
    w[0].lanes = r.add_lanes;
    w[1].lanes = r.mul_lanes;
    memcpy(w[0].value, r.add_value, sizeof w[0].value);
    memcpy(w[1].value, r.mul_value, sizeof w[1].value);
    s->flag_z = r.flag_z;
    s->flag_n = r.flag_n;
    s->flag_c = r.flag_c;
    commit_write(s, io, &w[0]);
    commit_write(s, io, &w[1]);
}

static void step_alu(struct qpu_state *s, const struct vc4_qpu_instr *in, const struct qpu_io *io)
{
    vec ra, rb, c_coefficient = { 0 };
    bool varying = false;
    bool small = in->format == VC4_FORMAT_ALU_SMALL_IMM;
    const struct vc4_small_imm *si = small ? &vc4_small_imm[in->small_imm] : NULL;
    bool rotate = si && (si->kind == VC4_SMALL_IMM_ROTATE || si->kind == VC4_SMALL_IMM_ROTATE_R5);

    /* reads: each raddr is read once per instruction whatever the muxes use (a FIFO read such
     * as a uniform pops once) */
    if (in->raddr_a < 32)
        memcpy(ra, s->regfile_a[in->raddr_a], sizeof ra);
    else
        read_io(s, io, in->raddr_a, false, ra, c_coefficient, &varying);
    if (small) {
        /* Table 5 @76692: the value replicated to all elements, read as regfile B; rotation
         * codes carry no value (0) */
        for (unsigned i = 0; i < QPU_LANES; i++)
            rb[i] = rotate ? 0 : si->bits;
    } else if (in->raddr_b < 32) {
        memcpy(rb, s->regfile_b[in->raddr_b], sizeof rb);
    } else {
        read_io(s, io, in->raddr_b, true, rb, c_coefficient, &varying);
    }

    /* the raw values; the unpacks (regfile-A pm=0, r4 pm=1) are the datapath's */
    const uint32_t *src[8] = { s->acc[0], s->acc[1], s->acc[2], s->acc[3], s->acc[4], s->acc[5],
                               ra, rb };
    struct qpu_alu_request rq = { .op_add = in->op_add, .op_mul = in->op_mul,
                                  .add_a = in->add_a, .add_b = in->add_b,
                                  .mul_a = in->mul_a, .mul_b = in->mul_b };

    /* vector rotation of the mul inputs (Table 5 @76692, @54652): "rotated by N upwards (so
     * element 0 moves to element N)"; by r5 element 0 bits 3:0 for code 48. The full rotate
     * needs inputs from r0-r3 (@54948); other inputs rotate within each quad [chosen]. */
    unsigned rot = 0;
    if (rotate)
        rot = si->kind == VC4_SMALL_IMM_ROTATE_R5 ? (s->acc[5][0] & 15) : (unsigned)si->rotate;
    for (unsigned i = 0; i < QPU_LANES; i++) {
        rq.add_operand[0][i] = src[in->add_a][i];
        rq.add_operand[1][i] = src[in->add_b][i];
        unsigned ia = i, ib = i;
        if (rot) {
            unsigned full = (i - rot) & 15, quad = (i & ~3u) | ((i - rot) & 3);
            ia = in->mul_a <= VC4_MUX_R3 ? full : quad;
            ib = in->mul_b <= VC4_MUX_R3 ? full : quad;
        }
        rq.mul_operand[0][i] = src[in->mul_a][ia];
        rq.mul_operand[1][i] = src[in->mul_b][ib];
    }
    finish(s, io, in, &rq);
    if (varying)  /* the C coefficient is in r5 for the next instruction (@121213) */
        memcpy(s->acc[5], c_coefficient, sizeof c_coefficient);
}

static void step_load_imm(struct qpu_state *s, const struct vc4_qpu_instr *in,
                          const struct qpu_io *io)
{
    /* "the processor feeds the immediate value into the add and mul pipes and sets them to
     * perform a 'mov'" (@82668); Fig 2: opcode ADD with operand B 0. The mul 'mov' is V8MIN
     * (x, x): x, no carry, not a float, as the add's ADD (x, 0). */
    struct qpu_alu_request rq = { .op_add = VC4_ADD_OP_ADD, .op_mul = VC4_MUL_OP_V8MIN };
    for (unsigned i = 0; i < QPU_LANES; i++) {
        uint32_t x = in->format == VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED ||
                             in->format == VC4_FORMAT_LOAD_IMM_PER_ELMT_UNSIGNED
                         ? (uint32_t)vc4_qpu_load_imm_element(in, i)
                         : in->immediate;
        rq.add_operand[0][i] = rq.mul_operand[0][i] = rq.mul_operand[1][i] = x;
    }
    finish(s, io, in, &rq);
    if (in->format == VC4_FORMAT_SEMAPHORE && io && io->semaphore)
        io->semaphore(io->ctx, s, in->semaphore, in->sa != 0);
}

static void step_branch(struct qpu_state *s, const struct vc4_qpu_instr *in,
                        const struct qpu_io *io, struct qpu_step_result *r)
{
    uint32_t link = s->pc + 4 * 8;  /* "PC+4": four instructions on, past the delay slots */
    r->branch_taken = branch_condition(s, in->cond_br);
    uint32_t target = in->immediate;
    if (in->rel)
        target += link;
    if (in->reg)  /* E5: the regfile-A value of element 15, not element 0 */
        target += s->regfile_a[in->raddr_a & 31][15];
    r->branch_target = target;
    struct alu_out v[QPU_LANES];
    for (unsigned i = 0; i < QPU_LANES; i++)
        v[i] = add_alu(VC4_ADD_OP_ADD, link, 0);
    /* E5: bit 45 is both raddr_a bit 0 and sf: an odd raddr_a sets flags (from the link value,
     * on every element [chosen]) */
    if (in->raddr_a & 1)
        set_flags(s, v, 0xffffu);
    if (!r->branch_taken)
        return;
    /* "the 'link' address ... is present in place of the add and mul ALU write-back values if
     * the branch is taken" (@84940) */
    struct pending_write w[2] = {
        { .waddr = in->waddr_add, .file_b = !vc4_qpu_writes_a(in, false), .lanes = 0xffffu },
        { .waddr = in->waddr_mul, .file_b = !vc4_qpu_writes_a(in, true), .lanes = 0xffffu },
    };
    for (unsigned i = 0; i < QPU_LANES; i++)
        w[0].value[i] = w[1].value[i] = link;
    commit_write(s, io, &w[0]);
    commit_write(s, io, &w[1]);
}

struct qpu_step_result qpu_step(struct qpu_state *s, const struct vc4_qpu_instr *in,
                                const struct qpu_io *io)
{
    struct qpu_step_result r = { .sig = in->sig };
    switch (in->format) {
    case VC4_FORMAT_ALU:
    case VC4_FORMAT_ALU_SMALL_IMM:
        step_alu(s, in, io);
        if (in->sig != VC4_SIG_NONE && in->sig != VC4_SIG_SMALL_IMMEDIATE && io && io->signal)
            io->signal(io->ctx, s, in->sig);
        r.program_end = in->sig == VC4_SIG_PROGRAM_END || in->sig == VC4_SIG_COLOR_LOAD_END;
        r.thread_switch = in->sig == VC4_SIG_THREAD_SWITCH ||
                          in->sig == VC4_SIG_LAST_THREAD_SWITCH;
        break;
    case VC4_FORMAT_BRANCH:
        step_branch(s, in, io, &r);
        break;
    default:  /* load immediates, semaphore; reserved types run as a 32-bit load (flagged) */
        step_load_imm(s, in, io);
        break;
    }
    return r;
}

void qpu_advance(struct qpu_state *s, const struct qpu_step_result *r)
{
    bool jump = s->branch_delay && --s->branch_delay == 0;
    s->pc = jump ? s->branch_target : s->pc + 8;
    if (r->branch_taken) {  /* a branch inside delay slots replaces the pending one [chosen] */
        s->branch_target = r->branch_target;
        s->branch_delay = 3;
    }
}
