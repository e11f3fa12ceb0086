/* isa/vc4/qpu_decode.c - VideoCore IV QPU instruction decoder (see qpu_decode.h). */
#include "isa/vc4/qpu_decode.h"

#include <string.h>

bool vc4_qpu_writes_a(const struct vc4_qpu_instr *in, bool is_mul)
{
    /* "If ws = 0, add alu writes to regfile a, mult to regfile b" (Table 1 @72071) */
    return is_mul == (in->ws != 0);
}

int32_t vc4_qpu_load_imm_element(const struct vc4_qpu_instr *in, unsigned element)
{
    element &= 15;
    unsigned ms = (in->immediate >> (16 + element)) & 1;
    unsigned ls = (in->immediate >> element) & 1;
    int32_t v = (int32_t)(ms << 1 | ls);
    if (in->format == VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED && ms)
        v -= 4;
    return v;
}

/* TMU write addresses: TMU_NOSWAP is a configuration write, not a request (Table 14 @91738). */
static bool is_tmu_write(unsigned waddr)
{
    return waddr >= VC4_WADDR_A_TMU0_S && waddr <= VC4_WADDR_A_TMU1_B;
}

static bool is_sfu_write(unsigned waddr)
{
    return waddr >= VC4_WADDR_A_SFU_RECIP && waddr <= VC4_WADDR_A_SFU_LOG;
}

static bool is_tlb_write(unsigned waddr)
{
    return waddr >= VC4_WADDR_A_TLB_STENCIL_SETUP && waddr <= VC4_WADDR_A_TLB_ALPHA_MASK;
}

/* Closely coupled peripheral accesses of one instruction (@88994 restriction: at most one of
 * "TMU write, TMU read, TLB write, TLB read, TLB combined color read and write, SFU write,
 * Mutex read or Semaphore access"). A TLB colour read plus write counts once. */
static unsigned peripheral_accesses(const struct vc4_qpu_instr *in, bool alu)
{
    unsigned n = 0;
    bool tlb = false;
    const uint8_t waddr[2] = { in->waddr_add, in->waddr_mul };
    for (int i = 0; i < 2; i++) {
        if (is_tmu_write(waddr[i]) || is_sfu_write(waddr[i]))
            n++;
        if (is_tlb_write(waddr[i]))
            tlb = true;
    }
    if (alu) {
        switch (in->sig) {
        case VC4_SIG_LOAD_TMU0:
        case VC4_SIG_LOAD_TMU1:
            n++;
            break;
        case VC4_SIG_COVERAGE_LOAD:
        case VC4_SIG_COLOR_LOAD:
        case VC4_SIG_COLOR_LOAD_END:
        case VC4_SIG_ALPHA_MASK_LOAD:
            tlb = true;
            break;
        default:
            break;
        }
        if (in->raddr_a == VC4_RADDR_A_MUTEX_ACQUIRE ||
            (in->format == VC4_FORMAT_ALU && in->raddr_b == VC4_RADDR_B_MUTEX_ACQUIRE))
            n++;
    }
    if (in->format == VC4_FORMAT_SEMAPHORE)
        n++;
    return n + (tlb ? 1 : 0);
}

/* Reads of addresses 32..63 that Table 14 maps to nothing (write-only I/O). */
static bool read_unmapped(unsigned raddr, bool file_b)
{
    if (raddr < 32)
        return false;
    const struct vc4_register *r = &vc4_register[raddr - 32];
    return (file_b ? r->read_b : r->read_a) == NULL;
}

static void check_alu(struct vc4_qpu_instr *in)
{
    if (!vc4_add_op_name[in->op_add])
        in->illegal |= VC4_ILLEGAL_ADD_OP;
    /* ADD and MUL may read the regfiles through either input; the regfile read itself
     * happens for any raddr other than NOP (the uniform/varying FIFOs pop on it). */
    if (read_unmapped(in->raddr_a, false) ||
        (in->format == VC4_FORMAT_ALU && read_unmapped(in->raddr_b, true)))
        in->illegal |= VC4_ILLEGAL_READ_UNMAPPED;
    unsigned nadd = vc4_add_op_nsrc[in->op_add], nmul = vc4_mul_op_nsrc[in->op_mul];
    const uint8_t mux[4] = { in->add_a, in->add_b, in->mul_a, in->mul_b };
    const bool used[4] = { nadd >= 1, nadd >= 2, nmul >= 1, nmul >= 2 };
    if (in->format == VC4_FORMAT_ALU_SMALL_IMM) {
        const struct vc4_small_imm *si = &vc4_small_imm[in->small_imm];
        bool rotate = si->kind == VC4_SMALL_IMM_ROTATE || si->kind == VC4_SMALL_IMM_ROTATE_R5;
        for (int i = 0; i < 4; i++) {
            if (!used[i])
                continue;
            if (rotate && mux[i] == VC4_MUX_RB)
                in->illegal |= VC4_ILLEGAL_SMALL_IMM_READ;
            /* "The full horizontal vector rotate is only available when both of the mul ALU
             * input arguments are taken from accumulators r0-r3" (@54948) */
            if (rotate && i >= 2 && mux[i] > VC4_MUX_R3)
                in->illegal |= VC4_ILLEGAL_ROTATE_INPUT;
        }
    }
}

static void check_writes(struct vc4_qpu_instr *in)
{
    /* Two writes to one accumulator or I/O register: undefined (@49015 ALUs). Addresses whose
     * A and B meanings differ (Table 14: 41, 42, 49, 50) are two registers. */
    unsigned a = in->waddr_add, m = in->waddr_mul;
    /* Complementary conditions (zs/zc, ns/nc, cs/cc: codes 2-7 in pairs, Table 4) write each
     * element from one ALU only: GPU_FFT 3.0's shaders merge two results into one accumulator
     * that way ("mov.zs r0, r2 ; mov.zc r0, r1", shader_256.hex) and give correct transforms on
     * hardware, so this is not the undefined case. */
    bool complementary = in->cond_add >= 2 && in->cond_mul >= 2 &&
                         (in->cond_add ^ in->cond_mul) == 1;
    if (a == m && a >= 32 && a != VC4_WADDR_A_NOP && !complementary) {
        const struct vc4_register *r = &vc4_register[a - 32];
        if (strcmp(r->write_a, r->write_b) == 0)
            in->illegal |= VC4_ILLEGAL_SAME_WRITE;
    }
}

void vc4_qpu_decode(uint64_t word, struct vc4_qpu_instr *in)
{
    memset(in, 0, sizeof *in);
    in->word = word;
    in->sig = (uint8_t)VC4_FIELD(word, VC4_ALL_SIG);

    if (in->sig == VC4_SIG_BRANCH) {
        in->format = VC4_FORMAT_BRANCH;
        in->cond_br = (uint8_t)VC4_FIELD(word, VC4_BRANCH_COND_BR);
        in->rel = (uint8_t)VC4_FIELD(word, VC4_BRANCH_REL);
        in->reg = (uint8_t)VC4_FIELD(word, VC4_BRANCH_REG);
        in->raddr_a = (uint8_t)VC4_FIELD(word, VC4_BRANCH_RADDR_A);
        in->ws = (uint8_t)VC4_FIELD(word, VC4_BRANCH_WS);
        in->waddr_add = (uint8_t)VC4_FIELD(word, VC4_BRANCH_WADDR_ADD);
        in->waddr_mul = (uint8_t)VC4_FIELD(word, VC4_BRANCH_WADDR_MUL);
        in->immediate = VC4_FIELD(word, VC4_BRANCH_IMMEDIATE);
        if (!vc4_branch_cond_name[in->cond_br])
            in->illegal |= VC4_ILLEGAL_BRANCH_COND;
        check_writes(in);
        return;
    }

    in->pm = (uint8_t)VC4_FIELD(word, VC4_ALU_PM);
    in->pack = (uint8_t)VC4_FIELD(word, VC4_ALU_PACK);
    in->cond_add = (uint8_t)VC4_FIELD(word, VC4_ALU_COND_ADD);
    in->cond_mul = (uint8_t)VC4_FIELD(word, VC4_ALU_COND_MUL);
    in->sf = (uint8_t)VC4_FIELD(word, VC4_ALU_SF);
    in->ws = (uint8_t)VC4_FIELD(word, VC4_ALU_WS);
    in->waddr_add = (uint8_t)VC4_FIELD(word, VC4_ALU_WADDR_ADD);
    in->waddr_mul = (uint8_t)VC4_FIELD(word, VC4_ALU_WADDR_MUL);
    if (in->pm && !vc4_pack_mul_name[in->pack])
        in->illegal |= VC4_ILLEGAL_MUL_PACK;
    check_writes(in);

    if (in->sig == VC4_SIG_LOAD_IMMEDIATE) {
        in->imm_type = (uint8_t)VC4_FIELD(word, VC4_IMM_IMM_TYPE);
        in->immediate = VC4_FIELD(word, VC4_IMM_IMMEDIATE);
        switch (in->imm_type) {
        case VC4_IMM_TYPE_LOAD_IMM_32:
            in->format = VC4_FORMAT_LOAD_IMM_32;
            break;
        case VC4_IMM_TYPE_LOAD_IMM_PER_ELMT_SIGNED:
            in->format = VC4_FORMAT_LOAD_IMM_PER_ELMT_SIGNED;
            break;
        case VC4_IMM_TYPE_LOAD_IMM_PER_ELMT_UNSIGNED:
            in->format = VC4_FORMAT_LOAD_IMM_PER_ELMT_UNSIGNED;
            break;
        case VC4_IMM_TYPE_SEMAPHORE:
            in->format = VC4_FORMAT_SEMAPHORE;
            in->semaphore = (uint8_t)VC4_FIELD(word, VC4_IMM_SEMAPHORE);
            in->sa = (uint8_t)VC4_FIELD(word, VC4_IMM_SA);
            /* waddr "must not address closely coupled peripherals that can stall, that is,
             * TLB, TMU, or SFU" (@83883) */
            for (int i = 0; i < 2; i++) {
                unsigned w = i ? in->waddr_mul : in->waddr_add;
                if (is_tlb_write(w) || is_tmu_write(w) || is_sfu_write(w) ||
                    w == VC4_WADDR_A_TMU_NOSWAP)
                    in->illegal |= VC4_ILLEGAL_SEMAPHORE_WADDR;
            }
            break;
        default:
            in->format = VC4_FORMAT_LOAD_IMM_RESERVED;
            in->illegal |= VC4_ILLEGAL_IMM_TYPE;
            break;
        }
        if (peripheral_accesses(in, false) > 1)
            in->illegal |= VC4_ILLEGAL_PERIPHERALS;
        return;
    }

    in->format = in->sig == VC4_SIG_SMALL_IMMEDIATE ? VC4_FORMAT_ALU_SMALL_IMM : VC4_FORMAT_ALU;
    in->unpack = (uint8_t)VC4_FIELD(word, VC4_ALU_UNPACK);
    in->op_mul = (uint8_t)VC4_FIELD(word, VC4_ALU_OP_MUL);
    in->op_add = (uint8_t)VC4_FIELD(word, VC4_ALU_OP_ADD);
    in->raddr_a = (uint8_t)VC4_FIELD(word, VC4_ALU_RADDR_A);
    if (in->format == VC4_FORMAT_ALU_SMALL_IMM)
        in->small_imm = (uint8_t)VC4_FIELD(word, VC4_ALU_RADDR_B);
    else
        in->raddr_b = (uint8_t)VC4_FIELD(word, VC4_ALU_RADDR_B);
    in->add_a = (uint8_t)VC4_FIELD(word, VC4_ALU_ADD_A);
    in->add_b = (uint8_t)VC4_FIELD(word, VC4_ALU_ADD_B);
    in->mul_a = (uint8_t)VC4_FIELD(word, VC4_ALU_MUL_A);
    in->mul_b = (uint8_t)VC4_FIELD(word, VC4_ALU_MUL_B);
    check_alu(in);
    if (peripheral_accesses(in, true) > 1)
        in->illegal |= VC4_ILLEGAL_PERIPHERALS;
    /* "must not also be used to fetch a uniform" (@88994, TMU write) */
    bool tmu = is_tmu_write(in->waddr_add) || is_tmu_write(in->waddr_mul);
    bool uniform = in->raddr_a == VC4_RADDR_A_UNIFORM_READ ||
                   (in->format == VC4_FORMAT_ALU && in->raddr_b == VC4_RADDR_B_UNIFORM_READ);
    if (tmu && uniform)
        in->illegal |= VC4_ILLEGAL_TMU_UNIFORM;
}

const char *vc4_illegal_name(uint32_t bit)
{
    static const char *const names[VC4_ILLEGAL_COUNT] = {
        "add_op", "mul_pack", "imm_type", "branch_cond", "read_unmapped", "small_imm_read",
        "rotate_input", "same_write", "peripherals", "tmu_uniform", "semaphore_waddr",
    };
    for (unsigned i = 0; i < VC4_ILLEGAL_COUNT; i++)
        if (bit == 1u << i)
            return names[i];
    return NULL;
}
