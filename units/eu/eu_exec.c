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
 *
 * This file is the driver: the table from opcode to operation family (the
 * families are in eu_exec_alu.c and eu_exec_flow.c; operands in
 * eu_exec_operands.c), the thread state and its exceptions, SEND requests.
 */
#include "units/eu/eu_exec_internal.h"

#include <fenv.h>
#include <math.h>

#include "msg_desc.h"

uint32_t eu_flag_get(const struct eu_thread *t, unsigned reg)
{
    return (uint32_t)rd_le(t->arf[reg ? EU_ARF_F1 : EU_ARF_F0], 4);
}

void eu_flag_set(struct eu_thread *t, unsigned reg, uint32_t v)
{
    wr_le(t->arf[reg ? EU_ARF_F1 : EU_ARF_F0], 4, v);
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

enum eu_step_result exec_illegal(struct eu_thread *t, const char *why)
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

/* The send family: the instruction becomes a request (descriptors, payload
 * registers) for the unit to route (003 L24296-24416); EOT ends the thread. */
/* The Gen4 extended math's SFID (reference/eu opcodes.txt [sfid]). */
#define EU_SFID_MATH_GEN4 1

enum eu_step_result exec_send(struct ctx *c, struct lanes *l)
{
    (void)l;
    struct eu_send_request *s = c->send;
    const struct eu_instruction *in = c->in;
    struct eu_thread *t = c->t;
    memset(s, 0, sizeof *s);
    s->sfid = in->sfid;
    s->eot = in->eot;
    s->split = in->is_split_send;
    s->sendc = in->opcode == EU_OPCODE_SENDC || in->opcode == EU_OPCODE_SENDSC;
    uint32_t desc = in->desc;
    if (in->desc_is_reg)
        desc = (uint32_t)rd_le(t->arf[EU_ARF_A0], 4) &      /* a0.0: its descriptor fields */
               (DESC_MSG_MLEN_GEN5_MASK | DESC_MSG_RLEN_GEN5_MASK | DESC_MSG_HEADER_PRESENT_MASK |
                DESC_MSG_FUNCTION_CONTROL_GEN5_MASK);
    uint32_t ex = in->ex_desc;
    if (in->ex_desc_is_reg)
        ex = (uint32_t)rd_le(t->arf[EU_ARF_A0] + 2 * in->ex_desc_addr_subreg, 4);
    s->desc = desc;
    s->ex_desc = ex;
    s->mlen = (uint8_t)desc_msg_mlen_gen5(desc);
    s->rlen = (uint8_t)desc_msg_rlen_gen5(desc);
    s->header_present = desc_msg_header_present(desc) != 0;
    s->ex_mlen = in->is_split_send ? (uint8_t)desc_exdesc_ex_mlen(ex) : 0;
    s->src_reg = in->src[0].reg_nr;
    s->src1_reg = in->src[1].reg_nr;
    if (in->gen == 4) {
        /* Gen4 (native-fields.txt [send], opcodes.txt [message-descriptors]):
         * the descriptor DWord holds EOT 31, target 27:24, mlen 23:20, rlen
         * 19:16; the payload is m[base_mrf ..], a GRF src0 being copied to
         * the base MRF first (the implied move, whole register). */
        s->mlen = (uint8_t)desc_msg_mlen_gen4(desc);
        s->rlen = (uint8_t)desc_msg_rlen_gen4(desc);
        s->header_present = false;
        s->from_mrf = true;
        s->src_reg = in->base_mrf & 15;
        const struct eu_operand *o = &in->src[0];
        if (o->file == EU_FILE_GRF && o->subreg_nr != 0 && in->access_mode == 0 &&
            type_bytes(o->type) == 4) {
            /* a subregister source (g965_tri's setup kernel: "send(1) 0 g6
             * g1.2<0,1,0>F ... math inv") moves as mov(exec size) m<base>
             * src0 would: its region's elements to the MRF's channels */
            lane_t v[EU_MAX_CHANNELS];
            enum kind k = exec_kind_of_type(o->type) == K_F ? K_F : K_INT;
            exec_read_src(c, o, k, v, false);
            for (unsigned ch = 0; ch < c->nch && ch < EU_REG_BYTES / 4; ch++) {
                uint32_t bits = (uint32_t)v[ch].u;
                if (k == K_F)
                    memcpy(&bits, &v[ch].f, 4);
                if ((c->en >> ch) & 1u)
                    wr_le(t->mrf + s->src_reg * EU_REG_BYTES + 4 * ch, 4, bits);
            }
        } else if (o->file == EU_FILE_GRF) {
            memcpy(t->mrf + s->src_reg * EU_REG_BYTES, t->grf + o->reg_nr * EU_REG_BYTES,
                   EU_REG_BYTES);
        }
    }
    s->dst_reg = in->dst.reg_nr;
    s->dst_null = in->dst.file == EU_FILE_ARF || s->rlen == 0;
    s->exec_size = (uint8_t)c->nch;
    s->exec_mask = c->en;
    if (in->gen == 4 && in->sfid == EU_SFID_MATH_GEN4 && s->rlen == 1) {
        /* the Gen4 math reply lands in the destination region's enabled
         * channels only (channel ch's result, reply dword ch, to the dst
         * element ch from its subregister on; Align16 also by the write
         * mask): Mesa's Gen4 clip kernel inverts one element of a register
         * whose other elements hold its loop counters (brw_clip_util.c,
         * brw_math_invert on get_element(t, 0)) and 1/w into .w of a vertex
         * position ("send(1) 0 g27.3<1>F g27.3<0,1,0>F ... math inv"); the
         * VS writes 1/w to .w only (g965_tri's "send(8) 1 g4<1>.wF ...
         * math inv { align16 }"). A Gen4 EU volume is not among the seeds. */
        uint32_t first = in->access_mode == 1 ? 0 : (in->dst.subreg_nr / 4u) & 7u;
        uint32_t m = (c->en << first) & 0xffu;
        if (in->access_mode == 1)
            m &= (in->dst.writemask & 15u) * 0x11u;
        s->wb_dword_mask = m == 0xffu ? 0 : (uint8_t)(c->en & 0xffu & (m >> first));
        s->wb_dword_first = (uint8_t)first;
    }
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

/* ---- the instruction ---------------------------------------------------------------- */

static enum kind exec_kind(const struct eu_instruction *in)
{
    enum kind k = K_INT;
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    for (unsigned i = 0; i < ns; i++) {
        enum kind ki = exec_kind_of_type(in->src[i].type);
        if (ki == K_DF) return K_DF;
        if (ki == K_F) k = K_F;
    }
    return k;
}

/* ---- the opcode table ------------------------------------------------------------ */

enum exec_opcode_flags {
    EXEC_DIRECT = 1,            /* flow control, send: no sources read, the family moves the ip */
    EXEC_LOGIC_SOURCES = 2,     /* source negate is a bitwise NOT */
    EXEC_KIND_OF_SRC0 = 4,      /* executes in src0's kind (moves, conversions) */
};

struct exec_opcode {
    exec_family_fn run;         /* NULL: not modelled (the sources are still read) */
    uint8_t flags;              /* enum exec_opcode_flags */
};

/* Every opcode's family, by the opcode the decoder gives (Gen7+ numbering,
 * which Gen4 shares but for the gen4-only ones, EU_OPCODE_DO, _MSAVE, _MREST,
 * _PUSH and _POP, that eu_exec handles first). An
 * instruction the decoder marks as a branch goes to flow control and one it
 * marks as a send to the send family, whatever its row here. */
static const struct exec_opcode exec_opcodes[EU_OPCODE_COUNT] = {
    [EU_OPCODE_MOV] = { exec_moves, EXEC_KIND_OF_SRC0 },
    [EU_OPCODE_SMOV] = { exec_moves, EXEC_KIND_OF_SRC0 },
    [EU_OPCODE_MOVI] = { exec_moves, EXEC_KIND_OF_SRC0 },
    [EU_OPCODE_F32TO16] = { exec_moves, EXEC_KIND_OF_SRC0 },
    [EU_OPCODE_F16TO32] = { exec_moves, EXEC_KIND_OF_SRC0 },
    [EU_OPCODE_NOT] = { exec_logic, EXEC_LOGIC_SOURCES },
    [EU_OPCODE_AND] = { exec_logic, EXEC_LOGIC_SOURCES },
    [EU_OPCODE_OR] = { exec_logic, EXEC_LOGIC_SOURCES },
    [EU_OPCODE_XOR] = { exec_logic, EXEC_LOGIC_SOURCES },
    [EU_OPCODE_SHR] = { exec_logic, 0 },
    [EU_OPCODE_SHL] = { exec_logic, 0 },
    [EU_OPCODE_ASR] = { exec_logic, 0 },
    [EU_OPCODE_BFREV] = { exec_logic, 0 },
    [EU_OPCODE_BFE] = { exec_logic, 0 },
    [EU_OPCODE_BFI1] = { exec_logic, 0 },
    [EU_OPCODE_BFI2] = { exec_logic, 0 },
    [EU_OPCODE_LZD] = { exec_logic, 0 },
    [EU_OPCODE_FBH] = { exec_logic, 0 },
    [EU_OPCODE_FBL] = { exec_logic, 0 },
    [EU_OPCODE_CBIT] = { exec_logic, 0 },
    [EU_OPCODE_SEL] = { exec_compare, 0 },
    [EU_OPCODE_CMP] = { exec_compare, 0 },
    [EU_OPCODE_CMPN] = { exec_compare, 0 },
    [EU_OPCODE_CSEL] = { exec_compare, 0 },
    [EU_OPCODE_ADD] = { exec_arithmetic, 0 },
    [EU_OPCODE_MUL] = { exec_arithmetic, 0 },
    [EU_OPCODE_AVG] = { exec_arithmetic, 0 },
    [EU_OPCODE_FRC] = { exec_arithmetic, 0 },
    [EU_OPCODE_RNDU] = { exec_arithmetic, 0 },
    [EU_OPCODE_RNDD] = { exec_arithmetic, 0 },
    [EU_OPCODE_RNDE] = { exec_arithmetic, 0 },
    [EU_OPCODE_RNDZ] = { exec_arithmetic, 0 },
    [EU_OPCODE_DP4] = { exec_arithmetic, 0 },
    [EU_OPCODE_DPH] = { exec_arithmetic, 0 },
    [EU_OPCODE_DP3] = { exec_arithmetic, 0 },
    [EU_OPCODE_DP2] = { exec_arithmetic, 0 },
    [EU_OPCODE_LINE] = { exec_arithmetic, 0 },
    [EU_OPCODE_PLN] = { exec_arithmetic, 0 },
    [EU_OPCODE_MAD] = { exec_arithmetic, 0 },
    [EU_OPCODE_MADM] = { exec_arithmetic, 0 },
    [EU_OPCODE_LRP] = { exec_arithmetic, 0 },
    [EU_OPCODE_MAC] = { exec_accumulator, 0 },
    [EU_OPCODE_MACH] = { exec_accumulator, 0 },
    [EU_OPCODE_SAD2] = { exec_accumulator, 0 },
    [EU_OPCODE_SADA2] = { exec_accumulator, 0 },
    [EU_OPCODE_ADDC] = { exec_accumulator, 0 },
    [EU_OPCODE_SUBB] = { exec_accumulator, 0 },
    [EU_OPCODE_MATH] = { exec_math, 0 },
    [EU_OPCODE_NOP] = { exec_no_operation, 0 },
    [EU_OPCODE_WAIT] = { exec_no_operation, 0 },
    [EU_OPCODE_JMPI] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_BRD] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_IF] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_BRC] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_ELSE] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_ENDIF] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_WHILE] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_BREAK] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_CONT] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_HALT] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_CALLA] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_CALL] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_RET] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_GOTO] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_JOIN] = { exec_flow, EXEC_DIRECT },
    [EU_OPCODE_SEND] = { exec_send, EXEC_DIRECT },
    [EU_OPCODE_SENDC] = { exec_send, EXEC_DIRECT },
    [EU_OPCODE_SENDS] = { exec_send, EXEC_DIRECT },
    [EU_OPCODE_SENDSC] = { exec_send, EXEC_DIRECT },
};

static const struct exec_opcode exec_branch = { exec_flow, EXEC_DIRECT };
static const struct exec_opcode exec_send_request = { exec_send, EXEC_DIRECT };

/* ---- one instruction ------------------------------------------------------------ */

/* The channels part of set_up: the channels and write enables (L23850-23884),
 * all a SEND reads of the context (exec_send). */
static inline __attribute__((always_inline)) void set_up_channels(struct ctx *c, struct eu_thread *t,
                                                                  const struct eu_instruction *in,
                                                                  struct eu_send_request *send,
                                                                  uint64_t cycle)
{
    c->t = t;
    c->in = in;
    c->cycle = cycle;
    c->send = send;
    c->nch = in->exec_size;
    c->off = (in->qtr_control * 8u + in->nib_control * 4u) & 31;
    if (in->gen == 4)
        c->off = in->qtr_control == 1 ? 8 : 0;   /* gen4: 1 = sechalf, 2 = compressed */
    c->exec_bits = chan_bits(c->nch) << c->off;
    uint32_t en = in->mask_control ? chan_bits(c->nch) : (t->amask >> c->off) & chan_bits(c->nch);
    if (in->pred_control && in->opcode != EU_OPCODE_SEL)
        en &= exec_pred_mask(c);
    c->en = en;
}

/* The execution context of one instruction: its channels and write enables
 * (set_up_channels) and the cr0.0 float controls (L20019-20065). */
static void set_up(struct ctx *c, struct eu_thread *t, const struct eu_instruction *in,
                   struct eu_send_request *send, uint64_t cycle)
{
    set_up_channels(c, t, in, send, cycle);
    uint32_t crv = cr0(t);
    c->ftz_f = !(crv >> 7 & 1);
    c->alt = crv & 1;
    c->ftz_df = !(crv >> 6 & 1);
    c->ftz_hf = !(crv >> 10 & 1);
    c->f2i_round = crv >> 12 & 1;
    c->ieee_minmax = crv >> 11 & 1;
    /* raw moves (mov, same type, no modifiers, no .sat) keep an sNaN as it
     * is; every other operation quietens it (L21565, L21813-21821) */
    c->quiet = !(in->opcode == EU_OPCODE_MOV && in->src[0].type == in->dst.type &&
                 !in->src[0].abs && !in->src[0].negate && !in->saturate);
    /* a mov whose source and destination have the same type never flushes a
     * denormal: without modifiers it is a raw move (004 L22970), with .sat or a
     * source modifier the denormal is still kept (004 L22971, L22974). Mesa's
     * blorp moves integer sample indices through F registers this way. */
    if (in->opcode == EU_OPCODE_MOV && in->src[0].type == in->dst.type)
        c->ftz_f = c->ftz_df = c->ftz_hf = false;
    c->src_inf = 0;
    c->crv = crv;
}

/* Reads an ALU instruction's sources (L20362-20708) into l, and the .o
 * infinities of their lanes. */
static void read_sources(struct ctx *c, const struct exec_opcode *e, struct lanes *l)
{
    const struct eu_instruction *in = c->in;
    enum kind k = (e->flags & EXEC_KIND_OF_SRC0) ? exec_kind_of_type(in->src[0].type) : exec_kind(in);
    bool logic = (e->flags & EXEC_LOGIC_SOURCES) != 0;
    unsigned ns = in->is_3src ? 3 : in->nsrc;
    l->k = k;
    l->ns = ns;
    if (ns > 0) exec_read_src(c, &in->src[0], k, l->s0, logic);
    if (ns > 1) exec_read_src(c, &in->src[1], k, l->s1, logic);
    if (ns > 2) exec_read_src(c, &in->src[2], k, l->s2, logic);
    if (in->cond_modifier == EU_COND_MOD_O && k != K_INT) {
        /* .o: a result that is +/-inf from finite sources overflowed */
        for (unsigned ch = 0; ch < c->nch; ch++) {
            bool inf = false;
            const lane_t *sv[3] = { l->s0, l->s1, l->s2 };
            for (unsigned i = 0; i < ns && i < 3; i++)
                inf = inf || isinf(k == K_F ? (double)sv[i][ch].f : sv[i][ch].d);
            if (inf) c->src_inf |= 1u << ch;
        }
    }
}

/* Runs an ALU family under cr0.0[5:4] rounding: RTNE, RU, RD, RTZ
 * (L21575-21610); integer to float conversions too ("use the current rounding
 * mode", L21694-21700). */
static enum eu_step_result run_alu(struct ctx *c, const struct exec_opcode *e, struct lanes *l)
{
    const struct eu_instruction *in = c->in;
    int saved_round = -1;
    unsigned rm = (c->crv >> 4) & 3;
    if ((l->k != K_INT || type_is_float(in->dst.type)) && rm != 0) {
        static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
        saved_round = fegetround();
        fesetround(modes[rm]);
    }
    enum eu_step_result res = e->run ? e->run(c, l) : exec_illegal(c->t, "opcode not modelled");
    if (saved_round >= 0)
        fesetround(saved_round);
    return res;
}

enum eu_step_result eu_exec(struct eu_thread *t, const struct eu_instruction *in,
                            struct eu_send_request *send, uint64_t cycle)
{
    if (in->illegal)
        return exec_illegal(t, in->illegal_reason ? in->illegal_reason : "illegal instruction");
    if (in->gen != 4 && in->gen < 7)
        return exec_illegal(t, "only gen4 and gen7+ execute");
    t->counts.instructions++;
    struct ctx c;
    if ((in->is_send || in->is_split_send) && !in->is_branch && in->gen != 4) {
        /* a SEND (Gen7+) reads only its channels of the context: the float
         * controls and cr0 are not set up (the path below gives the same) */
        set_up_channels(&c, t, in, send, cycle);
        return exec_send(&c, NULL);
    }
    set_up(&c, t, in, send, cycle);

    /* cr0 before the instruction, when it is the destination (exceptions) */
    bool writes_cr0 = in->has_dst && in->dst.file == EU_FILE_ARF && (in->dst.reg_nr >> 4) == ARF_NR_CR0;
    uint32_t old_cr0_0 = writes_cr0 ? c.crv : 0;
    uint32_t old_cr0_1 = writes_cr0 ? (uint32_t)rd_le(t->arf[EU_ARF_CR0] + 4, 4) : 0;

    unsigned op = in->opcode & (EU_OPCODE_COUNT - 1);
    if (in->gen == 4) {
        if (in->is_branch)
            return exec_flow4(&c);
        if (op == EU_OPCODE_DO) {         /* a marker, nothing to execute */
            t->ip += in->size;
            return EU_STEP_OK;
        }
        if (op >= EU_OPCODE_MSAVE && op <= EU_OPCODE_POP)
            return exec_illegal(t, "gen4 mask-stack save/restore (msave/mrest/push/pop) is not modelled");
    }
    const struct exec_opcode *e = &exec_opcodes[op];
    if (in->is_branch)
        e = &exec_branch;
    else if (in->is_send || in->is_split_send)
        e = &exec_send_request;
    if (e->flags & EXEC_DIRECT)
        return e->run(&c, NULL);

    struct lanes l;
    read_sources(&c, e, &l);
    enum eu_step_result res = run_alu(&c, e, &l);
    if (res != EU_STEP_OK)
        return res;
    if (writes_cr0 && in->gen >= 7 && cr0_written(t, old_cr0_0, old_cr0_1, t->ip + in->size)) {
        if (t->wmask)
            rejoin(t);
        return EU_STEP_OK;
    }
    /* a write to ip is a jump (L20955: "mov with IP as the destination");
     * a predicated-off (or masked-off) write leaves ip alone, so execution
     * goes on at the next instruction: Mesa's Gen4 clip and SF kernels branch
     * with "(-f0.0) add(1) ip ip N" (brw_eu_emit.c's Gen4 jumps) */
    if (in->dst.file == EU_FILE_ARF && (in->dst.reg_nr >> 4) == ARF_NR_IP && in->has_dst &&
        (c.en & 1u)) {
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
    if (in->is_branch || in->opcode == EU_OPCODE_JMPI || in->opcode == EU_OPCODE_CALL ||
        in->opcode == EU_OPCODE_RET || in->opcode == EU_OPCODE_CALLA)
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

bool eu_insn_reads_flags(const struct eu_instruction *in)
{
    return in->pred_control != 0 || in->opcode == EU_OPCODE_SEL;
}

bool eu_insn_writes_flags(const struct eu_instruction *in)
{
    return in->cond_modifier != 0 && in->opcode != EU_OPCODE_SEL && in->opcode != EU_OPCODE_CSEL &&
           !in->is_send && !in->is_math;
}

unsigned eu_insn_extra_dst_regs(const struct eu_instruction *in)
{
    return in->is_math && in->math_function == DESC_MATH_INTDIVMOD ? 1 : 0;
}
