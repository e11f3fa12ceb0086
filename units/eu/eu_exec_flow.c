/* units/eu/eu_exec_flow.c - the flow-control family of EU instructions: Gen4
 * jump counts with the mask stack modelled by its effect, Gen6+ JIP/UIP with
 * per-channel IPs (L20955), call/calla/ret, brd/brc and jmpi (see eu_exec.h;
 * eu_exec_internal.h for the files). */
#include "units/eu/eu_exec_internal.h"

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

enum eu_step_result exec_flow4(struct ctx *c)
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
    case EU_OPCODE_IF:
    case 35: /* iff */
        park(t, active & ~en_abs, in->opcode == EU_OPCODE_IF ? target | 2u : target);
        if (t->amask == 0) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_ELSE:
        park(t, active, target);
        release_tagged(t, ip);
        if (t->amask == 0) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_ENDIF:
        release_tagged(t, ip);
        jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_BREAK:
    case EU_OPCODE_CONT:
        park(t, en_abs, target);
        jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_WHILE: {
        uint32_t back = in->pred_control ? en_abs : active;
        park(t, active & ~back, next);
        if (back) jump(t, target);
        else jump(t, next);
        return EU_STEP_OK;
    }
    default:
        /* halt: no Gen4 semantics to go by (Mesa does not emit it there) */
        return exec_illegal(t, "gen4 halt is not modelled");
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
    case EU_OPCODE_IF:
        /* channels whose condition fails wait at JIP (the else block or endif) */
        park(t, active & ~en_abs, ip + (uint32_t)in->jip);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_ELSE:
        park(t, active, ip + (uint32_t)in->jip);
        jump(t, next);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        return EU_STEP_OK;
    case EU_OPCODE_ENDIF:
    case EU_OPCODE_JOIN:
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_BREAK:
    case EU_OPCODE_GOTO:
        /* break: UIP is the while (Gen7+); the channel resumes after it and is
         * marked so the while lets it fall through */
        park(t, en_abs, ip + (uint32_t)in->uip);
        for (uint32_t b = en_abs; b; b &= b - 1)
            t->pcip[__builtin_ctz(b)] |= in->opcode == EU_OPCODE_BREAK ? 1u : 0u;   /* tag: odd = broke */
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_CONT:
    case EU_OPCODE_HALT:
        park(t, en_abs, ip + (uint32_t)in->uip);
        if (t->amask == 0) jump(t, ip + (uint32_t)in->jip);
        else jump(t, next);
        return EU_STEP_OK;
    case EU_OPCODE_WHILE: {
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
            exec_fault(c);
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
        exec_fault(c);
        return (int32_t)in->size;
    }
    uint64_t raw = eu_field_get(in->gen, f, in->native);
    if (in->gen == 7)
        return (int32_t)(int16_t)raw * 8;
    return (int32_t)(uint32_t)raw;
}

/* The flow-control family (Gen6+; Gen4 branches go to exec_flow4): every
 * instruction the decoder marks as a branch, and jmpi, call, calla, ret, brd,
 * brc. Each moves the ip itself. */
enum eu_step_result exec_flow(struct ctx *c, struct lanes *l)
{
    (void)l;
    struct eu_thread *t = c->t;
    const struct eu_instruction *in = c->in;
    unsigned op = in->opcode;
    uint32_t ip = t->ip;
    switch (op) {
    case EU_OPCODE_WHILE:
        release_breaks(t, ip, ip + in->size);
        return do_flow(c);
    case EU_OPCODE_JMPI: {
        /* uniform: jump relative to the next 16-byte instruction (Mesa's
         * brw_land_fwd_jump convention), taken when channel 0's predicate
         * holds. The offset is in bytes on Gen8+ and in 8-byte units
         * before: seed 003 L21110 ("Relative instruction offsets ... are
         * now 32-bit values in units of bytes (rather than 16-bit values
         * using 8-byte units) for ... jmpi"); Mesa's brw_land_fwd_jump
         * writes 2 units per instruction from Gen5. Mesa's brw_JMPI
         * writes "jmpi ip ip index" on every generation (intel-gen4asm
         * too): with src1 an immediate, the index is that immediate and
         * src0 (the IP) is not read. */
        lane_t v[EU_MAX_CHANNELS];
        c->nch = 1;
        bool take = !in->pred_control || (exec_pred_mask(c) & 1);
        uint32_t off;       /* two's complement; wraps like the 32-bit IP */
        if (eu_field_get(in->gen, EU_F_SRC1_REG_FILE, in->native) == EU_FILE_IMM) {
            off = (uint32_t)eu_field_get(in->gen, EU_F_IMM32, in->native);
        } else {
            exec_read_src(c, &in->src[0], K_INT, v, false);
            off = (uint32_t)v[0].i;
        }
        if (in->gen == 4) {
            /* Gen4 (Mesa's brw_JMPI / brw_land_fwd_jump): the index
             * counts 128-bit instructions after the next one */
            off *= 16;
        } else if (in->gen < 8) {
            off *= 8;
        }
        jump(t, take ? ip + 16 + off : ip + in->size);
        return EU_STEP_OK;
    }
    case EU_OPCODE_CALL:
    case EU_OPCODE_CALLA: {
        /* 004 L9471-9560 (call, calla): the enabled channels jump (PcIP =
         * IP + JIP, or JIP for calla) and form the CallMask, the others
         * move to the next instruction; when any jumped, dst.0 = the
         * return IP, dst.1 = CallMask. JIP: the src1 immediate, or src0
         * when it is a register. */
        uint32_t en_abs = c->en << c->off;
        if (!en_abs) {
            jump(t, ip + in->size);
            return EU_STEP_OK;
        }
        int32_t off = branch_offset(c, EU_F_JIP, 0);
        uint32_t target = op == EU_OPCODE_CALLA ? (uint32_t)off : ip + (uint32_t)off;
        const struct eu_operand *d = &in->dst;
        if (d->file == EU_FILE_GRF && d->reg_nr * 32u + d->subreg_nr + 8 <= EU_GRF_BYTES) {
            wr_le(t->grf + d->reg_nr * 32u + d->subreg_nr, 4, ip + in->size);
            wr_le(t->grf + d->reg_nr * 32u + d->subreg_nr + 4, 4, en_abs);
        }
        park(t, t->amask & c->exec_bits & ~en_abs, ip + in->size);
        t->call_mask = en_abs;
        t->call_depth++;
        jump(t, target & ~7u);
        return EU_STEP_OK;
    }
    case EU_OPCODE_RET: {
        /* 004 L23936-23963: enabled channels go to the return IP
         * (src0.chan[0]) and leave the CallMask; when the CallMask is
         * empty, the ip jumps there and the CallMask is restored from
         * src0.chan[1]; otherwise the ip moves on. */
        const struct eu_operand *s = &in->src[0];
        uint32_t at = s->reg_nr * 32u + s->subreg_nr;
        if (s->file != EU_FILE_GRF || at + 8 > EU_GRF_BYTES) {
            exec_fault(c);
            jump(t, ip + in->size);
            return EU_STEP_OK;
        }
        uint32_t rip = (uint32_t)rd_le(t->grf + at, 4) & ~7u;
        uint32_t mask = (uint32_t)rd_le(t->grf + at + 4, 4);
        uint32_t en_abs = c->en << c->off;
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
    case EU_OPCODE_BRD: {
        /* 004 L9293-9321: enabled channels branch to IP + JIP, the
         * others to the next instruction; the ip follows the branch when
         * any channel took it. */
        uint32_t en_abs = c->en << c->off;
        uint32_t target = ip + (uint32_t)branch_offset(c, EU_F_JIP, 0);
        if (en_abs) {
            park(t, t->amask & c->exec_bits & ~en_abs, ip + in->size);
            jump(t, target & ~7u);
        } else {
            jump(t, ip + in->size);
        }
        return EU_STEP_OK;
    }
    case EU_OPCODE_BRC: {
        /* 004 L9253-9290: enabled channels branch to IP + UIP (where all
         * converge), the others go on; when no channel goes on, the ip
         * jumps to IP + JIP (the end of the innermost conditional). */
        uint32_t en_abs = c->en << c->off;
        uint32_t jipv = ip + (uint32_t)branch_offset(c, EU_F_JIP, 0);
        uint32_t uipv = ip + (uint32_t)branch_offset(c, EU_F_UIP, 1);
        park(t, en_abs, uipv & ~7u);
        if (t->amask == 0) jump(t, jipv & ~7u);
        else jump(t, ip + in->size);
        return EU_STEP_OK;
    }
    case EU_OPCODE_IF: case EU_OPCODE_ELSE: case EU_OPCODE_ENDIF: case EU_OPCODE_BREAK:
    case EU_OPCODE_CONT: case EU_OPCODE_HALT: case EU_OPCODE_GOTO: case EU_OPCODE_JOIN:
        return do_flow(c);
    default:
        return exec_illegal(t, "branch opcode not modelled");
    }
}
